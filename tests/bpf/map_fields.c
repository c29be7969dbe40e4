/* Special fields of map values, for `bpfscev verify`, safe and unsafe twins, as clang 14 compiles
 * them: a struct bpf_spin_lock in a map value and in global data (no load, store or helper may
 * touch its bytes; a socket filter may not name such a map).  The kptrs are assembly cases of
 * tests/test_map_fields.c: clang 14 writes no btf_type_tag of a struct member's pointer (the
 * member's pointee becomes a FWD, untagged), so a "__kptr" member here would be a plain one.
 * tests/test_map_fields.c loads them into the kernel, whose verdict each must match.
 */
#include "bpf_test.h"

static long (*bpf_map_update_elem)(void *map, const void *key, const void *value,
				   __u64 flags) = (void *)2;

struct bpf_spin_lock {
	__u32 val;
};

struct lval {
	__u64 a;
	struct bpf_spin_lock lock;
	__u32 b;
	__u64 c;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct lval);
} lmap SEC(".maps");

static inline __attribute__((always_inline)) void *value_of(void *map, __u32 k)
{
	return bpf_map_lookup_elem(map, &k);
}

/* the bytes around the lock: read and written */
SEC("xdp")
int lock_beside_safe(struct xdp_md *ctx)
{
	struct lval *v = value_of(&lmap, ctx->rx_queue_index & 1);

	if (!v)
		return XDP_PASS;
	v->a += 1;
	v->b = 2;
	v->c = v->a + v->b;
	return XDP_PASS;
}

SEC("xdp")
int lock_read_unsafe(struct xdp_md *ctx)
{
	struct lval *v = value_of(&lmap, 0);

	if (!v)
		return XDP_PASS;
	return *(volatile __u32 *)&v->lock.val & 1;
}

SEC("xdp")
int lock_write_unsafe(struct xdp_md *ctx)
{
	struct lval *v = value_of(&lmap, 0);

	if (!v)
		return XDP_PASS;
	*(volatile __u32 *)&v->lock.val = ctx->rx_queue_index;
	return XDP_PASS;
}

/* 8 bytes from the lock: its 4 and b's */
SEC("xdp")
int lock_wide_unsafe(struct xdp_md *ctx)
{
	struct lval *v = value_of(&lmap, 0);

	if (!v)
		return XDP_PASS;
	return *(volatile __u64 *)&v->lock & 1;
}

/* one of the first four 4-byte words: the lock's among them */
SEC("xdp")
int lock_var_unsafe(struct xdp_md *ctx)
{
	struct lval *v = value_of(&lmap, 0);

	if (!v)
		return XDP_PASS;
	return ((volatile __u32 *)v)[ctx->rx_queue_index & 3] & 1;
}

/* the whole value, lock included, as a helper's memory */
SEC("xdp")
int lock_update_unsafe(struct xdp_md *ctx)
{
	struct lval *v = value_of(&lmap, 0);
	__u32 k = 1;

	if (!v)
		return XDP_PASS;
	bpf_map_update_elem(&lmap, &k, v, 0);
	return XDP_PASS;
}

/* a socket filter may not name a map with a spin lock at all */
SEC("socket")
int lock_socket_unsafe(struct __sk_buff *skb)
{
	struct lval *v = value_of(&lmap, 0);

	return v ? v->a & 1 : 0;
}

/* global data: a lock among other variables (.bss) */
struct bpf_spin_lock glock SEC(".bss");
__u64 gcount SEC(".bss");

SEC("xdp")
int glock_beside_safe(struct xdp_md *ctx)
{
	gcount += ctx->rx_queue_index;
	return XDP_PASS;
}

SEC("xdp")
int glock_read_unsafe(struct xdp_md *ctx)
{
	return *(volatile __u32 *)&glock.val & 1;
}
