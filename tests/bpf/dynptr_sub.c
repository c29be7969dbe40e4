/* Dynptrs in static subprograms, as clang compiles them: a static function taking a
 * `struct bpf_dynptr *` of its caller's frame (reads, writes, slices it in a loop), and one that
 * reserves, fills and submits a ringbuf dynptr of its own frame.  The unsafe twins: the callee
 * reads the dynptr after the caller discarded it, the callee leaves its own ringbuf dynptr
 * unreleased on a path (its frame goes: nothing can release it), the callee reads past a slice.
 * A static function making its caller's dynptr (a ringbuf record reserved, a local one over a map
 * value) or releasing it (submitted or discarded); twins: the record it reserved leaked by the
 * caller, the record it released discarded again by the caller.  A bpf_loop callback reading its
 * caller's record through its context pointer; twin: the record discarded before the loop.
 * Global functions given a `struct bpf_dynptr *` (the kernel verifies them on their own with a
 * read-only dynptr); twins: the record discarded before the call, a read past a slice.
 * Main's dynptr handed two levels down through a relay (read, released, made); twins: the record
 * made there leaked, the record released there discarded again.  A bpf_loop callback swapping
 * its caller's record for a new one; twin: one discarding it.  A static function reserving or
 * discarding its caller's record on some paths, telling which by its result, which the caller
 * tests; twins: the caller takes the other branch.  A relay holding a record of its own while it
 * hands its caller's on; twin: the relay leaks its own.
 * tests/test_dynptr_sub.c holds each verdict against the kernel's.
 */
#include "bpf_test.h"

enum { BPF_MAP_TYPE_RINGBUF = 27 };

struct bpf_dynptr {
	__u64 a, b;
} __attribute__((aligned(8)));

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[8]);
} arr SEC(".maps");

static long (*bpf_dynptr_from_mem)(void *data, __u32 size, __u64 flags,
				   struct bpf_dynptr *ptr) = (void *)197;
static long (*bpf_ringbuf_reserve_dynptr)(void *ringbuf, __u32 size, __u64 flags,
					  struct bpf_dynptr *ptr) = (void *)198;
static void (*bpf_ringbuf_submit_dynptr)(struct bpf_dynptr *ptr, __u64 flags) = (void *)199;
static void (*bpf_ringbuf_discard_dynptr)(struct bpf_dynptr *ptr, __u64 flags) = (void *)200;
static long (*bpf_dynptr_read)(void *dst, __u32 len, const struct bpf_dynptr *src, __u32 off,
			       __u64 flags) = (void *)201;
static long (*bpf_dynptr_write)(const struct bpf_dynptr *dst, __u32 off, void *src, __u32 len,
				__u64 flags) = (void *)202;
static void *(*bpf_dynptr_data)(const struct bpf_dynptr *p, __u32 off, __u32 len) = (void *)203;

/* the record's first word, read, then its second written */
static __attribute__((noinline)) int parse(struct bpf_dynptr *p)
{
	__u32 v = 0;

	if (bpf_dynptr_read(&v, sizeof(v), p, 0, 0))
		return 0;
	v += 1;
	bpf_dynptr_write(p, 4, &v, sizeof(v), 0);
	return v;
}

SEC("xdp")
int sub_parse(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	int r;

	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &d);
	r = parse(&d);
	if (r & 1)
		bpf_ringbuf_submit_dynptr(&d, 0);
	else
		bpf_ringbuf_discard_dynptr(&d, 0);
	return XDP_PASS;
}

/* a record of this frame's own, filled and submitted (discarded when the reserve failed) */
static __attribute__((noinline)) int emit(__u32 v)
{
	struct bpf_dynptr d;
	long err = bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &d);

	if (err) {
		bpf_ringbuf_discard_dynptr(&d, 0);
		return 0;
	}
	bpf_dynptr_write(&d, 0, &v, sizeof(v), 0);
	bpf_ringbuf_submit_dynptr(&d, 0);
	return 1;
}

SEC("xdp")
int sub_own_rb(struct xdp_md *ctx)
{
	return emit(ctx->ingress_ifindex) ? XDP_PASS : XDP_DROP;
}

/* the value's eight words through slices of the caller's local dynptr, in a loop */
static __attribute__((noinline)) __u64 sum(struct bpf_dynptr *p)
{
	__u64 s = 0;

#pragma clang loop unroll(disable)
	for (__u32 i = 0; i < 8; i++) {
		__u64 *w = bpf_dynptr_data(p, i * 8, 8);

		if (w)
			s += *w;
	}
	return s;
}

SEC("xdp")
int sub_twice(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&arr, &k);

	if (!v)
		return XDP_PASS;
	bpf_dynptr_from_mem(v, 64, 0, &d);
	return (sum(&d) + sum(&d)) & 1 ? XDP_PASS : XDP_DROP;
}

/* twin: the caller discards the record before the callee reads it */
SEC("xdp")
int sub_after_release(struct xdp_md *ctx)
{
	struct bpf_dynptr d;

	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &d);
	bpf_ringbuf_discard_dynptr(&d, 0);
	return parse(&d) ? XDP_PASS : XDP_DROP;
}

/* twin: an odd value leaves the callee's own record unreleased */
static __attribute__((noinline)) int emit_leaky(__u32 v)
{
	struct bpf_dynptr d;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &d);
	if (v & 1)
		return 0;
	bpf_dynptr_write(&d, 0, &v, sizeof(v), 0);
	bpf_ringbuf_submit_dynptr(&d, 0);
	return 1;
}

SEC("xdp")
int sub_leak(struct xdp_md *ctx)
{
	return emit_leaky(ctx->ingress_ifindex) ? XDP_PASS : XDP_DROP;
}

/* twin: a slice of 8 bytes read at 8 */
static __attribute__((noinline)) __u64 past(struct bpf_dynptr *p)
{
	__u64 *w = bpf_dynptr_data(p, 0, 8);

	return w ? w[1] : 0;
}

SEC("xdp")
int sub_past(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&arr, &k);

	if (!v)
		return XDP_PASS;
	bpf_dynptr_from_mem(v, 64, 0, &d);
	return past(&d) & 1 ? XDP_PASS : XDP_DROP;
}

/* a record of the caller's frame, reserved and filled here; the caller submits it */
static __attribute__((noinline)) int open_rec(struct bpf_dynptr *d, __u32 v)
{
	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, d);
	bpf_dynptr_write(d, 0, &v, sizeof(v), 0);
	return 0;
}

SEC("xdp")
int sub_make_rb(struct xdp_md *ctx)
{
	struct bpf_dynptr d;

	open_rec(&d, ctx->ingress_ifindex);
	bpf_ringbuf_submit_dynptr(&d, 0);
	return XDP_PASS;
}

/* the caller's record, submitted or discarded here */
static __attribute__((noinline)) void close_rec(struct bpf_dynptr *d, __u32 keep)
{
	if (keep)
		bpf_ringbuf_submit_dynptr(d, 0);
	else
		bpf_ringbuf_discard_dynptr(d, 0);
}

SEC("xdp")
int sub_close(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u32 v = ctx->rx_queue_index;

	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &d);
	bpf_dynptr_write(&d, 8, &v, sizeof(v), 0);
	close_rec(&d, v & 1);
	return XDP_PASS;
}

/* a local dynptr of the caller's frame over the map value v */
static __attribute__((noinline)) int wrap(struct bpf_dynptr *d, __u64 *v)
{
	bpf_dynptr_from_mem(v, 64, 0, d);
	return 0;
}

SEC("xdp")
int sub_make_local(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&arr, &k);

	if (!v)
		return XDP_PASS;
	wrap(&d, v);
	return sum(&d) & 1 ? XDP_PASS : XDP_DROP;
}

/* twin: the record the callee reserved is never released */
SEC("xdp")
int sub_make_leak(struct xdp_md *ctx)
{
	struct bpf_dynptr d;

	open_rec(&d, ctx->ingress_ifindex);
	return XDP_PASS;
}

/* twin: the callee released the record, the caller discards it again */
SEC("xdp")
int sub_close_twice(struct xdp_md *ctx)
{
	struct bpf_dynptr d;

	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &d);
	close_rec(&d, ctx->rx_queue_index & 1);
	bpf_ringbuf_discard_dynptr(&d, 0);
	return XDP_PASS;
}

static long (*bpf_loop)(__u32 nr, void *cb, void *ctx, __u64 flags) = (void *)181;

/* a bpf_loop callback: 4 bytes of the caller's record at 4 * i, through its context pointer */
static int rec_word(__u32 i, void *ctx)
{
	struct bpf_dynptr *d = ctx;
	__u32 w = 0;

	bpf_dynptr_read(&w, sizeof(w), d, (i & 3) * 4, 0);
	return w == 0xffffffff;
}

SEC("xdp")
int cb_read(struct xdp_md *ctx)
{
	struct bpf_dynptr d;

	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &d);
	bpf_loop(4, rec_word, &d, 0);
	bpf_ringbuf_submit_dynptr(&d, 0);
	return XDP_PASS;
}

/* twin: the record discarded before the loop reads it */
SEC("xdp")
int cb_after_release(struct xdp_md *ctx)
{
	struct bpf_dynptr d;

	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &d);
	bpf_ringbuf_discard_dynptr(&d, 0);
	bpf_loop(4, rec_word, &d, 0);
	return XDP_PASS;
}

/* a global function given a dynptr (verified on its own: a read-only dynptr of its caller's) */
__attribute__((noinline)) int g_read(struct bpf_dynptr *p)
{
	__u32 v = 0;

	bpf_dynptr_read(&v, sizeof(v), p, 0, 0);
	return v;
}

/* ... that slices 8 bytes of it */
__attribute__((noinline)) int g_slice(struct bpf_dynptr *p)
{
	__u64 *w = bpf_dynptr_data(p, 0, 8);

	return w ? (int)w[0] : 0;
}

SEC("xdp")
int glob_read(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	int r;

	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &d);
	r = g_read(&d);
	bpf_ringbuf_discard_dynptr(&d, 0);
	return r & 1 ? XDP_PASS : XDP_DROP;
}

SEC("xdp")
int glob_slice_local(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&arr, &k);

	if (!v)
		return XDP_PASS;
	bpf_dynptr_from_mem(v, 64, 0, &d);
	return g_slice(&d) & 1 ? XDP_PASS : XDP_DROP;
}

/* twin: the record discarded before the global function reads it */
SEC("xdp")
int glob_after_release(struct xdp_md *ctx)
{
	struct bpf_dynptr d;

	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &d);
	bpf_ringbuf_discard_dynptr(&d, 0);
	return g_read(&d) & 1 ? XDP_PASS : XDP_DROP;
}

/* twin: a global function slices 8 bytes and reads the 8 after them */
__attribute__((noinline)) int g_past(struct bpf_dynptr *p)
{
	__u64 *w = bpf_dynptr_data(p, 0, 8);

	return w ? (int)w[1] : 0;
}

SEC("xdp")
int glob_past(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	int r;

	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &d);
	r = g_past(&d);
	bpf_ringbuf_discard_dynptr(&d, 0);
	return r & 1 ? XDP_PASS : XDP_DROP;
}

/* a bpf_loop callback that swaps the caller's record for a new one: the old one discarded, a
 * new one reserved in its place (each call starts where the last one left it) */
static int swap_rec(__u32 i, void *ctx)
{
	struct bpf_dynptr *d = ctx;

	bpf_ringbuf_discard_dynptr(d, 0);
	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, d);
	bpf_dynptr_write(d, 0, &i, sizeof(i), 0);
	return 0;
}

SEC("xdp")
int cb_swap(struct xdp_md *ctx)
{
	struct bpf_dynptr d;

	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &d);
	bpf_loop(ctx->rx_queue_index & 7, swap_rec, &d, 0);
	bpf_ringbuf_submit_dynptr(&d, 0);
	return XDP_PASS;
}

/* twin: a callback that discards the caller's record (the second call discards it again; when
 * it runs no time, the record is left) */
static int drop_rec(__u32 i, void *ctx)
{
	bpf_ringbuf_discard_dynptr(ctx, 0);
	return 1;
}

SEC("xdp")
int cb_close(struct xdp_md *ctx)
{
	struct bpf_dynptr d;

	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &d);
	bpf_loop(1, drop_rec, &d, 0);
	return XDP_PASS;
}

/* Main's dynptr handed two levels down: a relay passes it on to the functions above, which
 * read it, release it or make it. */
static __attribute__((noinline)) int relay_parse(struct bpf_dynptr *p)
{
	return parse(p) + 1;
}

SEC("xdp")
int deep_read(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	int r;

	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &d);
	r = relay_parse(&d);
	bpf_ringbuf_submit_dynptr(&d, 0);
	return r & 1 ? XDP_PASS : XDP_DROP;
}

static __attribute__((noinline)) int relay_close(struct bpf_dynptr *d, __u32 keep)
{
	close_rec(d, keep);
	return 0;
}

SEC("xdp")
int deep_close(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u32 v = ctx->rx_queue_index;

	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &d);
	bpf_dynptr_write(&d, 8, &v, sizeof(v), 0);
	relay_close(&d, v & 1);
	return XDP_PASS;
}

static __attribute__((noinline)) int relay_open(struct bpf_dynptr *d, __u32 v)
{
	return open_rec(d, v + 1);
}

SEC("xdp")
int deep_make(struct xdp_md *ctx)
{
	struct bpf_dynptr d;

	relay_open(&d, ctx->ingress_ifindex);
	bpf_ringbuf_submit_dynptr(&d, 0);
	return XDP_PASS;
}

/* twin: the record reserved two levels down is never released */
SEC("xdp")
int deep_make_leak(struct xdp_md *ctx)
{
	struct bpf_dynptr d;

	relay_open(&d, ctx->ingress_ifindex);
	return XDP_PASS;
}

/* twin: the record released two levels down, discarded again */
SEC("xdp")
int deep_close_twice(struct xdp_md *ctx)
{
	struct bpf_dynptr d;

	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &d);
	relay_close(&d, ctx->rx_queue_index & 1);
	bpf_ringbuf_discard_dynptr(&d, 0);
	return XDP_PASS;
}

/* the caller's record reserved only when v is odd; 0 when it was (clang: `w0 = -1` and `if w0`) */
static __attribute__((noinline)) int maybe_open(struct bpf_dynptr *d, __u32 v)
{
	if (!(v & 1))
		return -1;
	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, d);
	return 0;
}

SEC("xdp")
int part_open(struct xdp_md *ctx)
{
	struct bpf_dynptr d;

	if (maybe_open(&d, ctx->ingress_ifindex) == 0)
		bpf_ringbuf_submit_dynptr(&d, 0);
	return XDP_PASS;
}

/* twin: the record submitted when it was not reserved */
SEC("xdp")
int part_open_bad(struct xdp_md *ctx)
{
	struct bpf_dynptr d;

	if (maybe_open(&d, ctx->ingress_ifindex) != 0)
		bpf_ringbuf_submit_dynptr(&d, 0);
	return XDP_PASS;
}

/* the caller's record discarded only when v & 2 is 0; 0 when it was */
static __attribute__((noinline)) int maybe_close(struct bpf_dynptr *d, __u32 v)
{
	if (v & 2)
		return 1;
	bpf_ringbuf_discard_dynptr(d, 0);
	return 0;
}

SEC("xdp")
int part_close(struct xdp_md *ctx)
{
	struct bpf_dynptr d;

	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &d);
	if (maybe_close(&d, ctx->ingress_ifindex))
		bpf_ringbuf_submit_dynptr(&d, 0);
	return XDP_PASS;
}

/* twin: submitted whatever maybe_close did */
SEC("xdp")
int part_close_bad(struct xdp_md *ctx)
{
	struct bpf_dynptr d;

	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &d);
	maybe_close(&d, ctx->ingress_ifindex);
	bpf_ringbuf_submit_dynptr(&d, 0);
	return XDP_PASS;
}

/* a relay holding a record of its own while it hands its caller's on to parse */
static __attribute__((noinline)) int relay_own(struct bpf_dynptr *d, __u32 v)
{
	struct bpf_dynptr own;
	int r;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &own);
	bpf_dynptr_write(&own, 0, &v, sizeof(v), 0);
	r = parse(d);
	bpf_ringbuf_submit_dynptr(&own, 0);
	return r;
}

SEC("xdp")
int mid_own(struct xdp_md *ctx)
{
	struct bpf_dynptr d;

	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &d);
	relay_own(&d, ctx->ingress_ifindex);
	bpf_ringbuf_discard_dynptr(&d, 0);
	return XDP_PASS;
}

/* twin: the relay leaves its own record unreleased */
static __attribute__((noinline)) int relay_own_leak(struct bpf_dynptr *d, __u32 v)
{
	struct bpf_dynptr own;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &own);
	bpf_dynptr_write(&own, 0, &v, sizeof(v), 0);
	return parse(d);
}

SEC("xdp")
int mid_own_leak(struct xdp_md *ctx)
{
	struct bpf_dynptr d;

	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &d);
	relay_own_leak(&d, ctx->ingress_ifindex);
	bpf_ringbuf_discard_dynptr(&d, 0);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
