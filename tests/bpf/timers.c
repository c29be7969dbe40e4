/* Timers, for `bpfscev verify`, safe and unsafe twins, as clang 14 compiles them: a map whose
 * value holds a struct bpf_timer (the value's BTF says so), bpf_timer_init/set_callback/start/
 * cancel on it, and the callback, which the timer calls later on its own with the map, the key
 * and the value (the kernel verifies it as an async entry; it must return 0).  No access to the
 * timer's bytes but through the helpers; bpf_timer_init's map is the timer's own.  Programs of
 * the tracing types (kprobe, ...) may not use a timer map at all.
 * tests/test_timer.c loads them into the kernel, whose verdict each must match.
 */
#include "bpf_test.h"

enum { BPF_MAP_TYPE_HASH = 1 };
#define CLOCK_MONOTONIC 1

struct bpf_timer {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

static long (*bpf_timer_init)(struct bpf_timer *timer, void *map, __u64 flags) = (void *)169;
static long (*bpf_timer_set_callback)(struct bpf_timer *timer, void *cb) = (void *)170;
static long (*bpf_timer_start)(struct bpf_timer *timer, __u64 nsecs, __u64 flags) =
	(void *)171;
static long (*bpf_timer_cancel)(struct bpf_timer *timer) = (void *)172;

struct tval {
	__u64 count;
	struct bpf_timer t;
	__u64 hits[2];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct tval);
} tarr SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, struct tval);
} thash SEC(".maps");

/* (the same shape as tarr: another map, whose timer bpf_timer_init refuses for tarr's) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct tval);
} tarr2 SEC(".maps");

/* counts its runs in the value, sums a short loop into hits, re-arms itself twice */
static int tick(void *map, __u32 *key, struct tval *v)
{
	for (int i = 0; i < 6; i++)
		v->hits[i & 1] += i + *key;
	if (++v->count < 3)
		bpf_timer_start(&v->t, 1000, 0);
	return 0;
}

static inline __attribute__((always_inline)) struct tval *value_of(void *map, __u32 k)
{
	return bpf_map_lookup_elem(map, &k);
}

SEC("xdp")
int timer_safe(struct xdp_md *ctx)
{
	struct tval *v = value_of(&tarr, ctx->rx_queue_index & 1);

	if (!v)
		return XDP_PASS;
	bpf_timer_init(&v->t, &tarr, CLOCK_MONOTONIC);
	bpf_timer_set_callback(&v->t, tick);
	bpf_timer_start(&v->t, 1000000, 0);
	return XDP_PASS;
}

/* a hash map's value (NULL until checked), the timer cancelled when it is armed already */
SEC("xdp")
int timer_hash_safe(struct xdp_md *ctx)
{
	struct tval *v = value_of(&thash, ctx->ingress_ifindex);

	if (!v)
		return XDP_PASS;
	if (bpf_timer_init(&v->t, &thash, CLOCK_MONOTONIC) == 0)
		bpf_timer_set_callback(&v->t, tick);
	else
		bpf_timer_cancel(&v->t);
	return bpf_timer_start(&v->t, 5000, 0) == 0 ? XDP_PASS : XDP_DROP;
}

static int tick_ret1(void *map, __u32 *key, struct tval *v)
{
	v->count++;
	return 1;
}

/* the callback returns 1: an async callback must return 0 */
SEC("xdp")
int timer_cb_ret1_unsafe(struct xdp_md *ctx)
{
	struct tval *v = value_of(&tarr, 0);

	if (!v)
		return XDP_PASS;
	bpf_timer_init(&v->t, &tarr, CLOCK_MONOTONIC);
	bpf_timer_set_callback(&v->t, tick_ret1);
	return XDP_PASS;
}

/* the timer pointer is the value's start, not its struct bpf_timer */
SEC("xdp")
int timer_off_unsafe(struct xdp_md *ctx)
{
	struct tval *v = value_of(&tarr, 0);

	if (!v)
		return XDP_PASS;
	bpf_timer_init((struct bpf_timer *)v, &tarr, CLOCK_MONOTONIC);
	return XDP_PASS;
}

/* bpf_timer_init with another map than the timer's */
SEC("xdp")
int timer_other_map_unsafe(struct xdp_md *ctx)
{
	struct tval *v = value_of(&tarr, 0);

	if (!v)
		return XDP_PASS;
	bpf_timer_init(&v->t, &tarr2, CLOCK_MONOTONIC);
	return XDP_PASS;
}

/* a store into the timer's bytes */
SEC("xdp")
int timer_store_unsafe(struct xdp_md *ctx)
{
	struct tval *v = value_of(&tarr, 0);

	if (!v)
		return XDP_PASS;
	v->t.__opaque[1] = ctx->data;
	return XDP_PASS;
}

static int tick_past(void *map, __u32 *key, struct tval *v)
{
	v->hits[v->count & 3] = 1;	/* hits[2], hits[3]: past the value's 40 bytes */
	return 0;
}

/* the callback writes past its value: the fault is the callback's */
SEC("xdp")
int timer_cb_past_unsafe(struct xdp_md *ctx)
{
	struct tval *v = value_of(&tarr, 1);

	if (!v)
		return XDP_PASS;
	bpf_timer_init(&v->t, &tarr, CLOCK_MONOTONIC);
	bpf_timer_set_callback(&v->t, tick_past);
	bpf_timer_start(&v->t, 0, 0);
	return XDP_PASS;
}

/* a hash map of larger values and keys than tarr's, its timer at the same offset */
struct tbig {
	__u64 count;
	struct bpf_timer t;
	__u64 hits[2];
	__u64 extra[4];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8);
	__type(key, __u64);
	__type(value, struct tbig);
} tbig SEC(".maps");

/* one callback for the timers of tarr (u32 keys, 40-byte values) and tbig (u64 keys, 72-byte
 * values): the kernel verifies it once per map.  It touches what both have. */
static int tick_both(void *map, __u32 *key, struct tval *v)
{
	for (int i = 0; i < 4; i++)
		v->hits[i & 1] += i + *key;
	if (++v->count < 3)
		bpf_timer_start(&v->t, 1000, 0);
	return 0;
}

/* tbig's bytes past tarr's 40: valid for tbig's timer only */
static int tick_big(void *map, __u32 *key, struct tbig *v)
{
	v->extra[v->count & 3] += 1;
	return 0;
}

static inline __attribute__((always_inline)) int arm_both(struct xdp_md *ctx, void *cb)
{
	struct tval *v = value_of(&tarr, ctx->rx_queue_index & 1);
	__u64 k = ctx->ingress_ifindex;
	struct tbig *b;

	if (!v)
		return XDP_PASS;
	bpf_timer_init(&v->t, &tarr, CLOCK_MONOTONIC);
	bpf_timer_set_callback(&v->t, cb);
	bpf_timer_start(&v->t, 1000000, 0);
	b = bpf_map_lookup_elem(&tbig, &k);
	if (!b)
		return XDP_PASS;
	bpf_timer_init(&b->t, &tbig, CLOCK_MONOTONIC);
	bpf_timer_set_callback(&b->t, cb);
	bpf_timer_start(&b->t, 5000, 0);
	return XDP_DROP;
}

SEC("xdp")
int timer_two_defs_safe(struct xdp_md *ctx)
{
	return arm_both(ctx, tick_both);
}

SEC("xdp")
int timer_two_defs_past_unsafe(struct xdp_md *ctx)
{
	return arm_both(ctx, tick_big);
}

/* a tracing program that names a timer map */
SEC("kprobe/do_nanosleep")
int timer_kprobe_unsafe(void *ctx)
{
	struct tval *v = value_of(&tarr, 0);

	return v ? v->count != 0 : 0;
}

char _license[] SEC("license") = "GPL";
