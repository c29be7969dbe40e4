/* kfuncs that acquire and release kernel objects (bpf/kfunc.c's table, scev/absint_ref.c), from
 * tp_btf programs (sched_switch: bool preempt, struct task_struct *prev, *next, unsigned int
 * prev_state), safe and unsafe twins as clang compiles them: bpf_task_acquire (KF_ACQUIRE |
 * KF_RCU | KF_RET_NULL) on the trusted context argument, bpf_task_release (KF_RELEASE),
 * bpf_cpumask_create (KF_ACQUIRE | KF_RET_NULL) and bpf_cpumask_release.  The acquired object
 * must be NULL-checked before it is read or released, released exactly once, and not be held at
 * exit.  tests/test_kfunc_refs.c holds each verdict against the running kernel's.
 */
#include "bpf_test.h"

struct task_struct;
struct bpf_cpumask;

extern struct task_struct *bpf_task_acquire(struct task_struct *p) __ksym;
extern void bpf_task_release(struct task_struct *p) __ksym;
extern struct bpf_cpumask *bpf_cpumask_create(void) __ksym;
extern void bpf_cpumask_release(struct bpf_cpumask *cpumask) __ksym;

/* a local view of the kernel's, relocated (CO-RE) to its offsets */
struct task_struct___l {
	int pid;
	struct task_struct___l *real_parent;
} __attribute__((preserve_access_index));

#define PREV(ctx) ((struct task_struct *)(ctx)[1])

SEC("tp_btf/sched_switch")
int task_acq_rel(__u64 *ctx)
{
	struct task_struct *t = bpf_task_acquire(PREV(ctx));

	if (!t)
		return 0;
	bpf_task_release(t);
	return 0;
}

/* a field read through the acquired object, then released through a copy kept on the stack */
SEC("tp_btf/sched_switch")
int task_acq_read(__u64 *ctx)
{
	struct task_struct *volatile keep;
	struct task_struct *t = bpf_task_acquire(PREV(ctx));
	int pid;

	if (!t)
		return 0;
	pid = ((struct task_struct___l *)t)->pid;
	keep = t;
	bpf_task_release(keep);
	return pid & 1;
}

SEC("tp_btf/sched_switch")
int cpumask_cr_rel(__u64 *ctx)
{
	struct bpf_cpumask *m = bpf_cpumask_create();

	if (m)
		bpf_cpumask_release(m);
	return 0;
}

SEC("tp_btf/sched_switch")
int task_acq_leak(__u64 *ctx)
{
	struct task_struct *t = bpf_task_acquire(PREV(ctx));

	return t != 0;
}

/* released on one path only */
SEC("tp_btf/sched_switch")
int task_leak_one_path(__u64 *ctx)
{
	struct task_struct *t = bpf_task_acquire(PREV(ctx));

	if (!t)
		return 0;
	if (ctx[3] & 1)
		bpf_task_release(t);
	return 0;
}

SEC("tp_btf/sched_switch")
int task_rel_nocheck(__u64 *ctx)
{
	struct task_struct *t = bpf_task_acquire(PREV(ctx));

	bpf_task_release(t);
	return 0;
}

SEC("tp_btf/sched_switch")
int task_read_nocheck(__u64 *ctx)
{
	struct task_struct *t = bpf_task_acquire(PREV(ctx));
	int pid = ((struct task_struct___l *)t)->pid;

	if (t)
		bpf_task_release(t);
	return pid & 1;
}

SEC("tp_btf/sched_switch")
int task_rel_twice(__u64 *ctx)
{
	struct task_struct *t = bpf_task_acquire(PREV(ctx));

	if (!t)
		return 0;
	bpf_task_release(t);
	bpf_task_release(t);
	return 0;
}

SEC("tp_btf/sched_switch")
int task_read_after_rel(__u64 *ctx)
{
	struct task_struct *t = bpf_task_acquire(PREV(ctx));

	if (!t)
		return 0;
	bpf_task_release(t);
	return ((struct task_struct___l *)t)->pid & 1;
}

/* the context's task was never acquired */
SEC("tp_btf/sched_switch")
int task_rel_unacquired(__u64 *ctx)
{
	bpf_task_release(PREV(ctx));
	return 0;
}

/* the acquired task given where a cpumask is released */
SEC("tp_btf/sched_switch")
int task_rel_as_cpumask(__u64 *ctx)
{
	struct task_struct *t = bpf_task_acquire(PREV(ctx));

	if (!t)
		return 0;
	bpf_cpumask_release((struct bpf_cpumask *)t);
	return 0;
}

/* a task read from another object (an RCU pointer): trusted, RCU or untrusted, not modeled */
SEC("tp_btf/sched_switch")
int task_acq_walked(__u64 *ctx)
{
	struct task_struct___l *p = ((struct task_struct___l *)PREV(ctx))->real_parent;
	struct task_struct *t = bpf_task_acquire((struct task_struct *)p);

	if (t)
		bpf_task_release(t);
	return 0;
}

/* LSM hooks give trusted arguments (bpf_task_acquire takes them), but for the few the kernel's
 * untrusted_lsm_hooks lists, whose objects are being made or freed: there the task is a plain
 * PTR_TO_BTF_ID, which a KF_RCU kfunc refuses ("R1 must be a rcu pointer"). */
SEC("lsm/task_alloc")
int lsm_alloc_acq(__u64 *ctx)
{
	struct task_struct *t = bpf_task_acquire((struct task_struct *)ctx[0]);

	if (t)
		bpf_task_release(t);
	return 0;
}

SEC("lsm/task_free")
int lsm_free_acq(__u64 *ctx)
{
	struct task_struct *t = bpf_task_acquire((struct task_struct *)ctx[0]);

	if (t)
		bpf_task_release(t);
	return 0;
}

char _license[] SEC("license") = "GPL";
