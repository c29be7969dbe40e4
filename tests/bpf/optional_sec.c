/* Programs whose sections start with '?' (libbpf: not loaded automatically), as the kernel's
 * selftests write SEC("?raw_tp"): the type is the name's after the '?' (test_elf).
 */
#include "bpf_test.h"

SEC("?xdp")
int optional_xdp(struct xdp_md *ctx)
{
	return ctx->data_end - ctx->data > 64 ? XDP_PASS : XDP_DROP;
}

SEC("?socket")
int optional_socket(struct __sk_buff *skb)
{
	return skb->len & 0xff;
}

char _license[] SEC("license") = "GPL";
