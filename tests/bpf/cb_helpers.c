/* The callback helpers beyond bpf_loop and bpf_for_each_map_elem, for `bpfscev verify`, safe and
 * unsafe twins, as clang 14 compiles them.  bpf_find_vma(task, addr, cb, ctx, flags) from a
 * tp_btf program (sched_switch: bool preempt, struct task_struct *prev, *next, unsigned int
 * prev_state): the callback gets the task, a vm_area_struct (a kernel object: reads only) and
 * the ctx, is called at most once and must return 0 or 1.  tests/test_cb_helpers.c loads them
 * into the kernel, whose verdict each must match.
 */
#include "bpf_test.h"

static long (*bpf_find_vma)(void *task, __u64 addr, void *cb, void *ctx, __u64 flags) =
	(void *)180;

/* a local view of the kernel's, relocated (CO-RE) to its offsets */
struct vm_area_struct___l {
	unsigned long vm_start;
	unsigned long vm_end;
} __attribute__((preserve_access_index));

struct vma_acc {
	__u64 len;
	__u32 n;
};

static long vma_len(void *task, struct vm_area_struct___l *vma, struct vma_acc *d)
{
	d->len = vma->vm_end - vma->vm_start;
	d->n++;
	return 0;
}

/* the vma of prev_state's value as an address in prev, then in next: one callback for both */
SEC("tp_btf/sched_switch")
int vma_safe(__u64 *ctx)
{
	struct vma_acc d = {};
	long r = bpf_find_vma((void *)ctx[1], ctx[3], vma_len, &d, 0);

	r += bpf_find_vma((void *)ctx[2], ctx[3], vma_len, &d, 0);
	return r + d.len + d.n > 7;
}

static long vma_any(void *task, struct vm_area_struct___l *vma, void *unused)
{
	return vma->vm_start & 1;
}

/* no ctx (NULL), flags not known */
SEC("tp_btf/sched_switch")
int vma_null_ctx_safe(__u64 *ctx)
{
	return bpf_find_vma((void *)ctx[1], 4096, vma_any, 0, ctx[0]) == 0;
}

static long vma_ret2(void *task, struct vm_area_struct___l *vma, struct vma_acc *d)
{
	d->n = 1;
	return 2;
}

SEC("tp_btf/sched_switch")
int vma_ret2_unsafe(__u64 *ctx)
{
	struct vma_acc d = {};

	bpf_find_vma((void *)ctx[1], 0, vma_ret2, &d, 0);
	return 0;
}

static long vma_write(void *task, struct vm_area_struct___l *vma, struct vma_acc *d)
{
	vma->vm_start = 0;
	return 0;
}

SEC("tp_btf/sched_switch")
int vma_write_unsafe(__u64 *ctx)
{
	struct vma_acc d = {};

	bpf_find_vma((void *)ctx[1], 0, vma_write, &d, 0);
	return 0;
}

/* prev_state is a number, not a task */
SEC("tp_btf/sched_switch")
int vma_scalar_task_unsafe(__u64 *ctx)
{
	struct vma_acc d = {};

	bpf_find_vma((void *)ctx[3], 0, vma_len, &d, 0);
	return 0;
}

static long vma_past(void *task, struct vm_area_struct___l *vma, struct vma_acc *d)
{
	((__u64 *)d)[2] = 1;
	return 0;
}

/* the callback writes past the caller's frame */
SEC("tp_btf/sched_switch")
int vma_ctx_past_unsafe(__u64 *ctx)
{
	struct vma_acc d = {};

	bpf_find_vma((void *)ctx[1], 0, vma_past, &d, 0);
	return d.n;
}
