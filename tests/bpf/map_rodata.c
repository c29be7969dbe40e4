/* A BTF-defined array map and a read-only global: the loader must turn the map reference into a
 * BPF_PSEUDO_MAP_FD load and the global into a BPF_PSEUDO_MAP_VALUE load of the .rodata map
 * (offset of 'limit' in the second slot), and keep .rodata's initial contents.
 */
#include "bpf_test.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

const volatile __u32 pad = 0x11223344;	/* puts 'limit' at offset 4 */
const volatile __u32 limit = 7;

SEC("xdp")
int map_rodata(struct xdp_md *ctx)
{
	__u32 key = 1;
	__u64 *v = bpf_map_lookup_elem(&counts, &key);

	if (!v)
		return XDP_ABORTED;
	*v += limit + pad;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
