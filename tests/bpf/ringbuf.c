/* Ringbuf records as clang compiles them: bpf_ringbuf_reserve acquires a reference that
 * bpf_ringbuf_submit or bpf_ringbuf_discard must release exactly once on every path before the
 * program exits.  The safe programs submit or discard on every path (one reserving in a loop);
 * the unsafe twins leak the record (on every path or on one), use it before its NULL check,
 * submit it twice, write it after its submit or past its size.  tests/test_ringbuf.c holds each
 * verdict against the kernel's.
 */
#include "bpf_test.h"

enum { BPF_MAP_TYPE_RINGBUF = 27 };

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

struct event {
	__u32 pid;
	__u32 len;
	__u64 stamp;
};

static void *(*bpf_ringbuf_reserve)(void *ringbuf, __u64 size, __u64 flags) = (void *)131;
static void (*bpf_ringbuf_submit)(void *data, __u64 flags) = (void *)132;
static void (*bpf_ringbuf_discard)(void *data, __u64 flags) = (void *)133;

SEC("xdp")
int rb_submit(struct xdp_md *ctx)
{
	struct event *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);

	if (!e)
		return XDP_PASS;
	e->pid = ctx->ingress_ifindex;
	e->len = ctx->data_end - ctx->data;
	e->stamp = 0;
	bpf_ringbuf_submit(e, 0);
	return XDP_PASS;
}

/* submitted on one path, discarded on the other */
SEC("xdp")
int rb_submit_or_discard(struct xdp_md *ctx)
{
	struct event *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);

	if (!e)
		return XDP_PASS;
	e->len = ctx->data_end - ctx->data;
	if (e->len < 64) {
		bpf_ringbuf_discard(e, 0);
		return XDP_DROP;
	}
	bpf_ringbuf_submit(e, 0);
	return XDP_PASS;
}

/* a record per iteration, each submitted before the next is reserved */
SEC("xdp")
int rb_loop(struct xdp_md *ctx)
{
	for (int i = 0; i < 4; i++) {
		struct event *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);

		if (!e)
			break;
		e->pid = i;
		e->len = ctx->rx_queue_index;
		bpf_ringbuf_submit(e, 0);
	}
	return XDP_PASS;
}

SEC("xdp")
int rb_leak(struct xdp_md *ctx)
{
	struct event *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);

	if (!e)
		return XDP_PASS;
	e->pid = ctx->ingress_ifindex;
	return XDP_PASS;
}

/* leaked on the path where the queue is odd */
SEC("xdp")
int rb_leak_on_path(struct xdp_md *ctx)
{
	struct event *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);

	if (!e)
		return XDP_PASS;
	e->pid = ctx->ingress_ifindex;
	if (ctx->rx_queue_index & 1)
		return XDP_DROP;
	bpf_ringbuf_submit(e, 0);
	return XDP_PASS;
}

/* the loop leaves with the last record still reserved */
SEC("xdp")
int rb_loop_leak(struct xdp_md *ctx)
{
	for (int i = 0; i < 4; i++) {
		struct event *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);

		if (!e)
			break;
		e->pid = i;
		if (i == ctx->rx_queue_index)
			break;
		bpf_ringbuf_submit(e, 0);
	}
	return XDP_PASS;
}

SEC("xdp")
int rb_no_null_check(struct xdp_md *ctx)
{
	struct event *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);

	e->pid = ctx->ingress_ifindex;
	bpf_ringbuf_submit(e, 0);
	return XDP_PASS;
}

SEC("xdp")
int rb_double_submit(struct xdp_md *ctx)
{
	struct event *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);

	if (!e)
		return XDP_PASS;
	e->pid = ctx->ingress_ifindex;
	bpf_ringbuf_submit(e, 0);
	bpf_ringbuf_discard(e, 0);
	return XDP_PASS;
}

SEC("xdp")
int rb_use_after_submit(struct xdp_md *ctx)
{
	struct event *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);

	if (!e)
		return XDP_PASS;
	bpf_ringbuf_submit(e, 0);
	e->pid = ctx->ingress_ifindex;
	return XDP_PASS;
}

/* 12 bytes reserved, the u64 at 8 written */
SEC("xdp")
int rb_past_size(struct xdp_md *ctx)
{
	struct event *e = bpf_ringbuf_reserve(&rb, 12, 0);

	if (!e)
		return XDP_PASS;
	e->stamp = ctx->ingress_ifindex;
	bpf_ringbuf_submit(e, 0);
	return XDP_PASS;
}
