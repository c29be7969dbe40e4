/* A bpf-to-bpf call inside a loop: step() is a static function in .text (its call is relocated
 * against the .text section symbol), and it calls mix(), a global function (relocated against
 * its own symbol), so linking must append both, transitively, in libbpf's order.
 */
#include "bpf_test.h"

__noinline __u32 mix(__u32 x)
{
	return (x << 3) ^ (x >> 5) ^ 0x9e37;
}

static __noinline __u32 step(__u32 acc, __u32 i)
{
	return mix(acc + i) + 1;
}

SEC("socket")
int call_in_loop(struct __sk_buff *skb)
{
	__u32 acc = skb->len;

#pragma clang loop unroll(disable)
	for (__u32 i = 0; i < 8; i++)
		acc = step(acc, i);
	return acc & 0xff;
}

char _license[] SEC("license") = "GPL";
