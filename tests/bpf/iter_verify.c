/* Open-coded iterators as clang 14 compiles them, for `bpfscev verify` and `analyze`: bpf_for
 * and bpf_repeat written out below (the shape of libbpf's bpf_helpers.h macros: the iterator
 * destroyed by a cleanup attribute, the value checked against the range so the kernel knows it),
 * nested in a plain loop and around one, and the unsafe twins the kernel refuses: an iterator
 * leaked, destroyed twice, advanced after its destroy.  tests/test_iter.c loads them into the
 * kernel, whose verdict each must match.
 */
#include "bpf_test.h"

/* i takes start, start + 1, ..., end - 1; the iterator dies with the loop's scope */
#define for_range(i, start, end)                                                               \
	for (struct bpf_iter_num it_ __attribute__((aligned(8),                               \
						    cleanup(bpf_iter_num_destroy))),          \
	     *once_ __attribute__((unused)) =                                                  \
		     (bpf_iter_num_new(&it_, (start), (end)), (void)bpf_iter_num_destroy,     \
		      (void *)0);                                                              \
	     ({                                                                                \
		     int *v_ = bpf_iter_num_next(&it_);                                        \
		     v_ && ((i) = *v_, (i) >= (start) && (i) < (end));                         \
	     });)

#define repeat(n)                                                                              \
	for (struct bpf_iter_num it_ __attribute__((aligned(8),                               \
						    cleanup(bpf_iter_num_destroy))),          \
	     *once_ __attribute__((unused)) =                                                  \
		     (bpf_iter_num_new(&it_, 0, (n)), (void)bpf_iter_num_destroy, (void *)0); \
	     bpf_iter_num_next(&it_);)

SEC("xdp")
int for_index_safe(struct xdp_md *xdp)
{
	__u8 buf[16] = { 0 };
	int i, s = 0;

	for_range(i, 0, 16)
		buf[i] = i;
	for_range(i, 0, 16)
		s += buf[i];
	return s & 3;
}

SEC("xdp")
int repeat_safe(struct xdp_md *xdp)
{
	int n = 0;

	repeat(100)
		n += 3;
	return n & 3;
}

SEC("xdp")
int nested_safe(struct xdp_md *xdp)
{
	__u64 acc[4] = { 0 };
	int i, j;

	/* a plain loop around an iterator, an iterator around a plain loop */
	for (int k = 0; k < 4; k++)
		for_range(i, k, k + 3)
			acc[k] += i;
	for_range(j, 0, 1000) {
		for (int k = 0; k < 4; k++)
			acc[k] ^= j * k;
	}
	return (acc[0] + acc[1] + acc[2] + acc[3]) & 3;
}

SEC("xdp")
int empty_and_huge_safe(struct xdp_md *xdp)
{
	int i, n = 0;

	for_range(i, 5, 5)		/* empty: next's first call is NULL */
		n++;
	for_range(i, 0, 1 << 23)	/* BPF_MAX_LOOPS values */
		n ^= i;
	for_range(i, 0, (1 << 23) + 1)	/* -E2BIG: none */
		n++;
	return n & 3;
}

SEC("xdp")
int leak_unsafe(struct xdp_md *xdp)
{
	struct bpf_iter_num it;
	int *v, s = 0;

	bpf_iter_num_new(&it, 0, 10);
	while ((v = bpf_iter_num_next(&it)))
		s += *v;
	return s & 3;
}

SEC("xdp")
int double_destroy_unsafe(struct xdp_md *xdp)
{
	struct bpf_iter_num it;
	int *v, s = 0;

	bpf_iter_num_new(&it, 0, 10);
	while ((v = bpf_iter_num_next(&it)))
		s += *v;
	bpf_iter_num_destroy(&it);
	bpf_iter_num_destroy(&it);
	return s & 3;
}

SEC("xdp")
int use_after_destroy_unsafe(struct xdp_md *xdp)
{
	struct bpf_iter_num it;
	int *v, s = 0;

	bpf_iter_num_new(&it, 0, 10);
	bpf_iter_num_destroy(&it);
	while ((v = bpf_iter_num_next(&it)))
		s += *v;
	return s & 3;
}

char _license[] SEC("license") = "GPL";
