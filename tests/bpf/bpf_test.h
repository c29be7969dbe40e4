/* What the BPF test programs need from libbpf's bpf_helpers.h and the uapi headers, spelled out
 * so they compile with nothing but clang (no kernel or multiarch headers on the include path).
 */
#ifndef BPFSCEV_TESTS_BPF_TEST_H
#define BPFSCEV_TESTS_BPF_TEST_H

typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef int __s32;
typedef long long __s64;

#define SEC(name) __attribute__((section(name), used))
#define __uint(name, val) int (*name)[val]
#define __type(name, val) typeof(val) *name
#define __noinline __attribute__((noinline))

enum { BPF_MAP_TYPE_ARRAY = 2 };
enum { XDP_ABORTED = 0, XDP_DROP, XDP_PASS };

struct xdp_md {
	__u32 data;
	__u32 data_end;
	__u32 data_meta;
	__u32 ingress_ifindex;
	__u32 rx_queue_index;
	__u32 egress_ifindex;
};

struct __sk_buff {
	__u32 len;
	__u32 pkt_type;
	__u32 mark;
	/* the rest is not read by the tests */
};

static void *(*bpf_map_lookup_elem)(void *map, const void *key) = (void *)1;

/* kfuncs: externs in .ksyms, resolved by name against the running kernel's BTF at load time */
#define __ksym __attribute__((section(".ksyms")))

struct bpf_iter_num {
	__u64 opaque[1];
} __attribute__((aligned(8)));

extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __ksym;

#endif
