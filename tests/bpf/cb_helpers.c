/* The callback helpers beyond bpf_loop and bpf_for_each_map_elem, for `bpfscev verify`, safe and
 * unsafe twins, as clang 14 compiles them.  bpf_find_vma(task, addr, cb, ctx, flags) from a
 * tp_btf program (sched_switch: bool preempt, struct task_struct *prev, *next, unsigned int
 * prev_state): the callback gets the task, a vm_area_struct (a kernel object: reads only) and
 * the ctx, is called at most once and must return 0 or 1.  bpf_user_ringbuf_drain(map, cb, ctx,
 * flags) from xdp programs: the callback gets a dynptr to each sample (no access through it, only
 * the dynptr helpers: bpf_dynptr_read, bpf_dynptr_write and bpf_dynptr_data, whose result is len
 * writable bytes of the sample or NULL) and the ctx, and must return 0 or 1.
 * tests/test_cb_helpers.c loads them into the kernel, whose verdict each must match.
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

struct bpf_dynptr {
	__u64 a, b;
};

static long (*bpf_user_ringbuf_drain)(void *map, void *cb, void *ctx, __u64 flags) = (void *)209;
static long (*bpf_dynptr_read)(void *dst, __u32 len, const struct bpf_dynptr *src, __u32 off,
			       __u64 flags) = (void *)201;
static void *(*bpf_dynptr_data)(const struct bpf_dynptr *p, __u32 off, __u32 len) = (void *)203;
static long (*bpf_dynptr_write)(const struct bpf_dynptr *dst, __u32 off, void *src, __u32 len,
				__u64 flags) = (void *)202;

enum { BPF_MAP_TYPE_USER_RINGBUF = 31 };

struct {
	__uint(type, BPF_MAP_TYPE_USER_RINGBUF);
	__uint(max_entries, 4096);
} urb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} arr SEC(".maps");

struct urb_acc {
	__u64 sum;
	__u32 n;
};

/* each sample's first 8 bytes, read into the stack: stops at the first short sample */
static long sum_read(struct bpf_dynptr *p, struct urb_acc *c)
{
	__u64 v = 0;

	if (bpf_dynptr_read(&v, sizeof(v), p, 0, 0))
		return 1;
	c->sum += v;
	c->n++;
	return 0;
}

SEC("xdp")
int urb_read_safe(struct xdp_md *x)
{
	struct urb_acc c = {};
	long r = bpf_user_ringbuf_drain(&urb, sum_read, &c, 0);

	return r + c.sum + c.n > 3 ? XDP_PASS : XDP_DROP;
}

static long deref(struct bpf_dynptr *p, struct urb_acc *c)
{
	c->sum = p->a;
	return 0;
}

/* the dynptr itself is no memory */
SEC("xdp")
int urb_deref_unsafe(struct xdp_md *x)
{
	struct urb_acc c = {};

	bpf_user_ringbuf_drain(&urb, deref, &c, 0);
	return XDP_PASS;
}

static long urb_ret2(struct bpf_dynptr *p, struct urb_acc *c)
{
	c->n = 1;
	return 2;
}

SEC("xdp")
int urb_ret2_unsafe(struct xdp_md *x)
{
	struct urb_acc c = {};

	bpf_user_ringbuf_drain(&urb, urb_ret2, &c, 0);
	return XDP_PASS;
}

/* an array is no user ring buffer */
SEC("xdp")
int urb_array_unsafe(struct xdp_md *x)
{
	struct urb_acc c = {};

	bpf_user_ringbuf_drain(&arr, sum_read, &c, 0);
	return XDP_PASS;
}

static long read_big(struct bpf_dynptr *p, struct urb_acc *c)
{
	__u64 v[2];

	bpf_dynptr_read(v, 24, p, 0, 0);
	c->sum = v[0];
	return 0;
}

/* 24 bytes read into 16 of stack */
SEC("xdp")
int urb_read_past_unsafe(struct xdp_md *x)
{
	struct urb_acc c = {};

	bpf_user_ringbuf_drain(&urb, read_big, &c, 0);
	return XDP_PASS;
}

static long sum_data(struct bpf_dynptr *p, struct urb_acc *c)
{
	__u64 *v = bpf_dynptr_data(p, 0, 8);

	if (!v)
		return 1;
	c->sum += *v;
	return 0;
}

/* the sample's memory through bpf_dynptr_data: 8 bytes or NULL (the kernel 6.18 accepts) */
SEC("xdp")
int urb_data_safe(struct xdp_md *x)
{
	struct urb_acc c = {};

	bpf_user_ringbuf_drain(&urb, sum_data, &c, 0);
	return c.sum ? XDP_PASS : XDP_DROP;
}

/* the sample is a local dynptr, not read-only: bpf_dynptr_write into it, and stores through
 * what bpf_dynptr_data returns, read back */
static long rewrite(struct bpf_dynptr *p, struct urb_acc *c)
{
	__u64 v = c->n + 1;
	__u32 *w;

	c->sum += bpf_dynptr_write(p, 4, &v, sizeof(v), 0);
	w = bpf_dynptr_data(p, 8, 4);
	if (!w)
		return 0;
	*w += 3;
	c->n = *w;
	return 0;
}

SEC("xdp")
int urb_write_safe(struct xdp_md *x)
{
	struct urb_acc c = {};

	bpf_user_ringbuf_drain(&urb, rewrite, &c, 0);
	return c.n > 7 ? XDP_PASS : XDP_DROP;
}

static long data_past(struct bpf_dynptr *p, struct urb_acc *c)
{
	__u64 *v = bpf_dynptr_data(p, 0, 8);

	if (!v)
		return 1;
	c->sum = v[1];
	return 0;
}

/* 8 bytes asked for, the second 8 read */
SEC("xdp")
int urb_data_past_unsafe(struct xdp_md *x)
{
	struct urb_acc c = {};

	bpf_user_ringbuf_drain(&urb, data_past, &c, 0);
	return XDP_PASS;
}

static long data_unchecked(struct bpf_dynptr *p, struct urb_acc *c)
{
	__u64 *v = bpf_dynptr_data(p, 0, 8);

	c->sum = *v;
	return 0;
}

/* the NULL bpf_dynptr_data returns past the sample not tested */
SEC("xdp")
int urb_data_null_unsafe(struct xdp_md *x)
{
	struct urb_acc c = {};

	bpf_user_ringbuf_drain(&urb, data_unchecked, &c, 0);
	return XDP_PASS;
}

static long write_big(struct bpf_dynptr *p, struct urb_acc *c)
{
	__u64 v = 1;

	bpf_dynptr_write(p, 0, &v, 16, 0);
	return 0;
}

/* 16 bytes written from 8 of stack */
SEC("xdp")
int urb_write_past_unsafe(struct xdp_md *x)
{
	struct urb_acc c = {};

	bpf_user_ringbuf_drain(&urb, write_big, &c, 0);
	return XDP_PASS;
}
