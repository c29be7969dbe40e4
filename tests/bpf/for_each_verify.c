/* bpf_for_each_map_elem callbacks for `bpfscev verify`, as clang 14 compiles them, safe and
 * unsafe twins: walks of an array and of a hash map summing keys and values into a struct in
 * the caller's frame, one walk stopping early and one deleting what it visits; the unsafe ones
 * write past the value, write the key, or return 2.  tests/test_for_each.c loads them into the
 * kernel, whose verdict each must match.
 */
#include "bpf_test.h"

enum { BPF_MAP_TYPE_HASH = 1 };

static long (*bpf_for_each_map_elem)(void *map, void *cb, void *ctx, __u64 flags) = (void *)164;
static long (*bpf_map_update_elem)(void *map, const void *key, const void *value,
				   __u64 flags) = (void *)2;
static long (*bpf_map_delete_elem)(void *map, const void *key) = (void *)3;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} arr SEC(".maps");

struct pair {
	__u64 a, b;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 32);
	__type(key, __u64);
	__type(value, struct pair);
} tab SEC(".maps");

struct acc {
	__u64 sum;
	__u32 n;
};

static long add_array(void *map, __u32 *key, __u64 *val, struct acc *c)
{
	*val += *key;
	c->sum += *val;
	return 0;
}

/* stops at key 3 */
static long until_four(void *map, __u32 *key, __u64 *val, struct acc *c)
{
	c->sum ^= *val;
	return *key >= 3;
}

static long add_pair(void *map, __u64 *key, struct pair *val, struct acc *c)
{
	val->b = val->a + *key;
	c->sum += val->b;
	return 0;
}

static long drop_pair(void *map, __u64 *key, struct pair *val, struct acc *c)
{
	c->n = bpf_map_delete_elem(map, key);
	return 0;
}

SEC("xdp")
int walk_safe(struct xdp_md *xdp)
{
	struct acc c = {};
	__u64 k = xdp->ingress_ifindex & 7;
	struct pair p = { k, 0 };

	bpf_map_update_elem(&tab, &k, &p, 0);
	bpf_for_each_map_elem(&arr, add_array, &c, 0);
	bpf_for_each_map_elem(&arr, until_four, &c, 0);
	bpf_for_each_map_elem(&tab, add_pair, &c, 0);
	bpf_for_each_map_elem(&tab, drop_pair, &c, 0);
	return c.sum + c.n > 3 ? XDP_PASS : XDP_DROP;
}

static long past_value(void *map, __u32 *key, __u64 *val, struct acc *c)
{
	val[1] = *key;
	return 0;
}

SEC("xdp")
int past_value_unsafe(struct xdp_md *xdp)
{
	struct acc c = {};

	bpf_for_each_map_elem(&arr, past_value, &c, 0);
	return XDP_PASS;
}

static long write_key(void *map, __u32 *key, __u64 *val, struct acc *c)
{
	*key = 0;
	return 0;
}

SEC("xdp")
int key_write_unsafe(struct xdp_md *xdp)
{
	struct acc c = {};

	bpf_for_each_map_elem(&arr, write_key, &c, 0);
	return XDP_PASS;
}

static long returns_two(void *map, __u32 *key, __u64 *val, struct acc *c)
{
	c->n = *key;
	return 2;
}

SEC("xdp")
int ret2_unsafe(struct xdp_md *xdp)
{
	struct acc c = {};

	bpf_for_each_map_elem(&arr, returns_two, &c, 0);
	return c.n ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
