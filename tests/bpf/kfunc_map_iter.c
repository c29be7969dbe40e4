/* bpf_map_sum_elem_count (kernel/bpf/map_iter.c, KF_TRUSTED_ARGS, every program type) from a
 * bpf_map iterator: the iterator's map (trusted, maybe NULL) given after its NULL test, and the
 * unsafe twins: before the NULL test, a number.  tests/test_kfunc_regions.c holds each verdict
 * against the running kernel's.
 */
#include "bpf_test.h"

struct bpf_map;
struct bpf_iter_meta;

struct bpf_iter__bpf_map {
	struct bpf_iter_meta *meta;
	struct bpf_map *map;
} __attribute__((preserve_access_index));

extern long long bpf_map_sum_elem_count(const struct bpf_map *map) __ksym;

long long total;

SEC("iter/bpf_map")
int map_count(struct bpf_iter__bpf_map *ctx)
{
	struct bpf_map *map = ctx->map;

	if (!map)
		return 0;
	total += bpf_map_sum_elem_count(map);
	return 0;
}

/* unsafe: the map before its NULL test ("Possibly NULL pointer passed to trusted arg0") */
SEC("iter/bpf_map")
int map_count_nocheck(struct bpf_iter__bpf_map *ctx)
{
	total += bpf_map_sum_elem_count(ctx->map);
	return 0;
}

/* unsafe: a number for the map */
SEC("iter/bpf_map")
int map_count_number(struct bpf_iter__bpf_map *ctx)
{
	total += bpf_map_sum_elem_count((const struct bpf_map *)(long)total);
	return 0;
}

char _license[] SEC("license") = "GPL";
