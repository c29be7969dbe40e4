/* bpf_loop callbacks as clang 14 writes them: the callback's address is an LD_IMM64 with src_reg
 * 0 and a relocation into a code section (against .text's section symbol for a static function,
 * plus the byte offset in imm; against the function's own symbol for a global one), which the
 * loader must turn into BPF_PSEUDO_FUNC loads as libbpf does.  Two calls share one callback, and
 * one callback lives in the program's own section.
 */
#include "bpf_test.h"

static long (*bpf_loop)(__u32 nr, void *cb, void *ctx, __u64 flags) = (void *)181;

struct acc {
	__u64 sum;
	__u32 hits;
};

/* Sums the indices; stops once the sum passes 100. */
static int add_index(__u32 i, void *data)
{
	struct acc *a = data;

	a->sum += i;
	return a->sum > 100;
}

static int count_hit(__u32 i, void *data)
{
	struct acc *a = data;

	a->hits++;
	return 0;
}

__noinline int global_cb(__u32 i, void *data)
{
	struct acc *a = data;

	a->sum ^= i;
	return 0;
}

SEC("xdp")
int shared_cb(struct xdp_md *xdp)
{
	struct acc a = { 0, 0 };

	bpf_loop(10, add_index, &a, 0);
	bpf_loop(xdp->ingress_ifindex & 15, add_index, &a, 0);
	bpf_loop(3, count_hit, &a, 0);
	bpf_loop(4, global_cb, &a, 0);
	return (a.sum + a.hits) & 3;
}

SEC("xdp")
static int same_section_cb(__u32 i, void *data)
{
	struct acc *a = data;

	a->hits += 2;
	return 0;
}

SEC("xdp")
int section_cb(struct xdp_md *xdp)
{
	struct acc a = { 0, 0 };

	bpf_loop(5, same_section_cb, &a, 0);
	return a.hits & 3;
}

char _license[] SEC("license") = "GPL";
