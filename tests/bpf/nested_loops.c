/* Two nested counted loops with constant bounds, not unrolled: the loop analysis's first real
 * compiler output (outer trip count 10, inner trip count i for outer iteration i).  The body
 * mixes the counters non-linearly so clang cannot replace the nest by a closed form.
 */
#include "bpf_test.h"

SEC("socket")
int nested_loops(struct __sk_buff *skb)
{
	__u32 h = skb->len;

#pragma clang loop unroll(disable)
	for (__u32 i = 0; i < 10; i++) {
#pragma clang loop unroll(disable)
		for (__u32 j = 0; j < i; j++)
			h = (h ^ j) * 31 + i;
	}
	return h & 0xff;
}

char _license[] SEC("license") = "GPL";
