/* RCU read-side and non-preemptible regions (scev/absint_region.c) as clang compiles them:
 * bpf_preempt_disable / bpf_preempt_enable (they nest) and bpf_rcu_read_lock /
 * bpf_rcu_read_unlock (they do not) around loops of helper calls, balanced on every path, and
 * the unsafe twins: a region left open at the exit, an enable without its disable, a tail call
 * inside a region.  tests/test_kfunc_regions.c holds each verdict against the running kernel's.
 */
#include "bpf_test.h"

extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;
extern void bpf_preempt_disable(void) __ksym;
extern void bpf_preempt_enable(void) __ksym;

static __u32 (*bpf_get_prandom_u32)(void) = (void *)7;
static long (*bpf_tail_call)(void *ctx, void *map, __u32 index) = (void *)12;

struct {
	__uint(type, 3);	/* BPF_MAP_TYPE_PROG_ARRAY */
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u32);
} jmp SEC(".maps");

/* a region around a loop of helper calls, nested once */
SEC("tc")
int preempt_loop(struct __sk_buff *skb)
{
	__u32 sum = 0;

	bpf_preempt_disable();
	bpf_preempt_disable();
	for (int i = 0; i < 8; i++)
		sum += bpf_get_prandom_u32() & 1;
	bpf_preempt_enable();
	bpf_preempt_enable();
	return sum;
}

/* opened and closed under the same test of one value: balanced on each path */
SEC("tc")
int preempt_cond(struct __sk_buff *skb)
{
	__u32 odd = skb->mark & 1, r;

	if (odd)
		bpf_preempt_disable();
	r = bpf_get_prandom_u32() & 7;
	if (odd)
		bpf_preempt_enable();
	return r;
}

/* unsafe: the close tests skb->mark read again, a number the kernel does not tie to the first
 * read (the paths where the two differ are walked, and one enables what it never disabled) */
SEC("tc")
int preempt_cond_reread(struct __sk_buff *skb)
{
	__u32 mark = skb->mark;

	if (mark & 1)
		bpf_preempt_disable();
	mark += bpf_get_prandom_u32() & 7;
	if (skb->mark & 1)
		bpf_preempt_enable();
	return mark;
}

/* an RCU region around a loop, closed before a tail call */
SEC("tc")
int rcu_loop_tail(struct __sk_buff *skb)
{
	__u32 sum = 0;

	bpf_rcu_read_lock();
	for (int i = 0; i < 4; i++)
		sum += bpf_get_prandom_u32() & 3;
	bpf_rcu_read_unlock();
	bpf_tail_call(skb, &jmp, sum & 1);
	return 0;
}

/* unsafe: the inner region is never closed */
SEC("tc")
int preempt_missing(struct __sk_buff *skb)
{
	bpf_preempt_disable();
	bpf_preempt_disable();
	bpf_preempt_enable();
	return 0;
}

/* unsafe: the region closed on a path that never opened it */
SEC("tc")
int preempt_unmatched(struct __sk_buff *skb)
{
	if (skb->mark == 7)
		bpf_preempt_disable();
	bpf_preempt_enable();
	return 0;
}

/* unsafe: a tail call inside the RCU region */
SEC("tc")
int rcu_tail_inside(struct __sk_buff *skb)
{
	bpf_rcu_read_lock();
	bpf_tail_call(skb, &jmp, 0);
	bpf_rcu_read_unlock();
	return 0;
}

/* unsafe: RCU regions do not nest */
SEC("tc")
int rcu_nested(struct __sk_buff *skb)
{
	bpf_rcu_read_lock();
	if (skb->mark)
		bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	return 0;
}

char _license[] SEC("license") = "GPL";
