/* iter/TARGET programs (BPF_TRACE_ITER): the context is struct bpf_iter__TARGET of the running
 * kernel's BTF, meta (a trusted struct bpf_iter_meta, never NULL) then the target's objects
 * (trusted, NULL at the iteration's end: a NULL check first); the program returns 0 or 1.  Safe
 * and unsafe twins as clang compiles them; tests/test_iter_ctx.c holds each verdict against the
 * running kernel's.
 */
#include "bpf_test.h"

struct task_struct;

extern struct task_struct *bpf_task_acquire(struct task_struct *p) __ksym;
extern void bpf_task_release(struct task_struct *p) __ksym;

/* local views of the kernel's, relocated (CO-RE) to its offsets */
struct bpf_iter_meta___l {
	__u64 seq_num;
} __attribute__((preserve_access_index));

struct task_struct___l {
	int pid;
} __attribute__((preserve_access_index));

struct bpf_iter__task___l {
	struct bpf_iter_meta___l *meta;
	struct task_struct___l *task;
} __attribute__((preserve_access_index));

SEC("iter/task")
int iter_task_safe(struct bpf_iter__task___l *ctx)
{
	struct task_struct___l *t = ctx->task;

	if (!t)
		return 0;
	return t->pid == 1;
}

SEC("iter/task")
int iter_meta_safe(struct bpf_iter__task___l *ctx)
{
	return ctx->meta->seq_num & 1;
}

/* the target is trusted: it may be acquired (after its NULL check) */
SEC("iter/task")
int iter_task_acquire_safe(struct bpf_iter__task___l *ctx)
{
	struct task_struct___l *p = ctx->task;
	struct task_struct *t;

	if (!p)
		return 0;
	t = bpf_task_acquire((struct task_struct *)p);
	if (t)
		bpf_task_release(t);
	return 0;
}

/* the field is read again after the check: that load may be NULL */
SEC("iter/task")
int iter_acquire_reload_unsafe(struct bpf_iter__task___l *ctx)
{
	struct task_struct *t;

	if (!ctx->task)
		return 0;
	t = bpf_task_acquire((struct task_struct *)ctx->task);
	if (t)
		bpf_task_release(t);
	return 0;
}

SEC("iter/task")
int iter_task_nocheck_unsafe(struct bpf_iter__task___l *ctx)
{
	return ctx->task->pid == 1;
}

SEC("iter/task")
int iter_ret2_unsafe(struct bpf_iter__task___l *ctx)
{
	return ctx->task ? 2 : 0;
}

SEC("iter/task")
int iter_acquire_nocheck_unsafe(struct bpf_iter__task___l *ctx)
{
	struct task_struct *t = bpf_task_acquire((struct task_struct *)ctx->task);

	if (t)
		bpf_task_release(t);
	return 0;
}

/* iter/unix: a socket's address ends in a flexible array of struct sockaddr_un, which the kernel
 * walks past the struct's end (btf_struct_walk's walk_flex_arrays): a byte of an element's
 * sun_path is a number; 8 bytes across the end of an element's sun_path are refused */
struct sockaddr_un___l {
	unsigned short sun_family;
	char sun_path[108];
} __attribute__((preserve_access_index));

struct unix_address___l {
	int len;
	struct sockaddr_un___l name[0];
} __attribute__((preserve_access_index));

struct unix_sock___l {
	struct unix_address___l *addr;
} __attribute__((preserve_access_index));

struct bpf_iter__unix___l {
	struct bpf_iter_meta___l *meta;
	struct unix_sock___l *unix_sk;
} __attribute__((preserve_access_index));

SEC("iter/unix")
int iter_unix_flex_safe(struct bpf_iter__unix___l *ctx)
{
	struct unix_sock___l *u = ctx->unix_sk;

	if (!u)
		return 0;
	return u->addr->name[0].sun_path[3] & 1;
}

SEC("iter/unix")
int iter_unix_flex_across_unsafe(struct bpf_iter__unix___l *ctx)
{
	struct unix_sock___l *u = ctx->unix_sk;
	__u64 *p;

	if (!u)
		return 0;
	p = (__u64 *)&u->addr->name[0].sun_path[102];
	asm volatile("" : "+r"(p));	/* (an 8-byte load: clang would split one it sees is 2-aligned) */
	return *p > 5;
}

char _license[] SEC("license") = "GPL";
