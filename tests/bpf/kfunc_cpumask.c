/* kfuncs modeled from their prototype (bpf/kfunc_table.c, scev/absint_kfunc.c): the cpumask
 * queries and updates on cpumasks the program creates, bpf_task_from_pid and
 * bpf_task_under_cgroup, from tp_btf programs (sched_switch: bool preempt, struct task_struct
 * *prev, *next, unsigned int prev_state), safe and unsafe twins as clang compiles them: a leak,
 * a second release, a use after the release, a use before the NULL check, a cpumask kfunc given
 * a task.  tests/test_kfunc_general.c holds each verdict against the running kernel's.
 */
#include <stdbool.h>

#include "bpf_test.h"

struct task_struct;
struct cgroup;
struct cpumask;
struct bpf_cpumask;

extern struct bpf_cpumask *bpf_cpumask_create(void) __ksym;
extern void bpf_cpumask_release(struct bpf_cpumask *cpumask) __ksym;
extern __u32 bpf_cpumask_first(const struct cpumask *cpumask) __ksym;
extern __u32 bpf_cpumask_first_zero(const struct cpumask *cpumask) __ksym;
extern void bpf_cpumask_set_cpu(__u32 cpu, struct bpf_cpumask *cpumask) __ksym;
extern void bpf_cpumask_clear_cpu(__u32 cpu, struct bpf_cpumask *cpumask) __ksym;
extern bool bpf_cpumask_test_cpu(__u32 cpu, const struct cpumask *cpumask) __ksym;
extern bool bpf_cpumask_test_and_set_cpu(__u32 cpu, struct bpf_cpumask *cpumask) __ksym;
extern void bpf_cpumask_setall(struct bpf_cpumask *cpumask) __ksym;
extern void bpf_cpumask_clear(struct bpf_cpumask *cpumask) __ksym;
extern bool bpf_cpumask_and(struct bpf_cpumask *dst, const struct cpumask *src1,
			    const struct cpumask *src2) __ksym;
extern void bpf_cpumask_or(struct bpf_cpumask *dst, const struct cpumask *src1,
			   const struct cpumask *src2) __ksym;
extern bool bpf_cpumask_equal(const struct cpumask *src1, const struct cpumask *src2) __ksym;
extern bool bpf_cpumask_subset(const struct cpumask *src1, const struct cpumask *src2) __ksym;
extern bool bpf_cpumask_empty(const struct cpumask *cpumask) __ksym;
extern bool bpf_cpumask_full(const struct cpumask *cpumask) __ksym;
extern void bpf_cpumask_copy(struct bpf_cpumask *dst, const struct cpumask *src) __ksym;
extern __u32 bpf_cpumask_weight(const struct cpumask *cpumask) __ksym;
extern struct task_struct *bpf_task_acquire(struct task_struct *p) __ksym;
extern void bpf_task_release(struct task_struct *p) __ksym;
extern struct task_struct *bpf_task_from_pid(__s32 pid) __ksym;

#define CM(m) ((const struct cpumask *)(m))
#define PREV(ctx) ((struct task_struct *)(ctx)[1])

/* every query and update on two cpumasks, both released */
SEC("tp_btf/sched_switch")
int cm_ops(__u64 *ctx)
{
	struct bpf_cpumask *a = bpf_cpumask_create(), *b;
	__u32 r = 0;

	if (!a)
		return 0;
	b = bpf_cpumask_create();
	if (!b) {
		bpf_cpumask_release(a);
		return 0;
	}
	bpf_cpumask_set_cpu(0, a);
	r += bpf_cpumask_test_cpu(0, CM(a));
	r += bpf_cpumask_weight(CM(a)) + bpf_cpumask_first(CM(a)) + bpf_cpumask_first_zero(CM(a));
	bpf_cpumask_copy(b, CM(a));
	r += bpf_cpumask_equal(CM(a), CM(b)) + bpf_cpumask_subset(CM(a), CM(b));
	bpf_cpumask_setall(b);
	r += bpf_cpumask_full(CM(b)) + bpf_cpumask_and(a, CM(a), CM(b));
	bpf_cpumask_clear(b);
	bpf_cpumask_or(b, CM(a), CM(b));
	r += bpf_cpumask_test_and_set_cpu(1, b) + bpf_cpumask_empty(CM(b));
	bpf_cpumask_clear_cpu(0, a);
	bpf_cpumask_release(b);
	bpf_cpumask_release(a);
	return r & 1;
}

/* set_cpu in a counted loop */
SEC("tp_btf/sched_switch")
int cm_loop(__u64 *ctx)
{
	struct bpf_cpumask *a = bpf_cpumask_create();
	__u32 w;

	if (!a)
		return 0;
	for (__u32 i = 0; i < 8; i++)
		bpf_cpumask_set_cpu(i, a);
	w = bpf_cpumask_weight(CM(a));
	bpf_cpumask_release(a);
	return w > 0;
}

/* bpf_task_from_pid: a number in, a task or NULL out */
SEC("tp_btf/sched_switch")
int task_from_pid(__u64 *ctx)
{
	struct task_struct *t = bpf_task_from_pid(1);

	if (!t)
		return 0;
	bpf_task_release(t);
	return 1;
}

SEC("tp_btf/sched_switch")
int cm_leak(__u64 *ctx)
{
	struct bpf_cpumask *a = bpf_cpumask_create();

	if (!a)
		return 0;
	bpf_cpumask_set_cpu(0, a);
	return bpf_cpumask_test_cpu(0, CM(a));
}

SEC("tp_btf/sched_switch")
int cm_rel_twice(__u64 *ctx)
{
	struct bpf_cpumask *a = bpf_cpumask_create();

	if (!a)
		return 0;
	bpf_cpumask_release(a);
	bpf_cpumask_release(a);
	return 0;
}

SEC("tp_btf/sched_switch")
int cm_use_after_rel(__u64 *ctx)
{
	struct bpf_cpumask *a = bpf_cpumask_create();

	if (!a)
		return 0;
	bpf_cpumask_release(a);
	bpf_cpumask_set_cpu(0, a);
	return 0;
}

SEC("tp_btf/sched_switch")
int cm_nocheck(__u64 *ctx)
{
	struct bpf_cpumask *a = bpf_cpumask_create();

	bpf_cpumask_set_cpu(0, a);
	if (a)
		bpf_cpumask_release(a);
	return 0;
}

/* a task where a cpumask is wanted */
SEC("tp_btf/sched_switch")
int cm_given_task(__u64 *ctx)
{
	struct task_struct *t = bpf_task_acquire(PREV(ctx));
	__u32 w;

	if (!t)
		return 0;
	w = bpf_cpumask_weight((const struct cpumask *)t);
	bpf_task_release(t);
	return w & 1;
}

SEC("tp_btf/sched_switch")
int task_from_pid_leak(__u64 *ctx)
{
	return bpf_task_from_pid(1) != 0;
}

char _license[] SEC("license") = "GPL";
