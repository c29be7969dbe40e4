/* Binary search over a sorted array, written once: the tables the loader and the analyzer
 * keep sorted by pc, block or id (CO-RE relocations by instruction, a loop's blocks, call
 * sites, claims by pc and location, expression ids) are searched for the first element not
 * below a key.  Inline, so that the caller's static predicate is inlined into the loop. */
#ifndef BPFSCEV_UTIL_SEARCH_H
#define BPFSCEV_UTIL_SEARCH_H

#include <stdbool.h>
#include <stddef.h>

/* The first i in [0, n) at which below(ctx, i) is false, n when it holds everywhere.  below
 * must hold on a prefix of [0, n) and nowhere after it ("element i sorts before the key"). */
static inline size_t lower_bound(size_t n, bool (*below)(const void *ctx, size_t i),
				 const void *ctx)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (below(ctx, mid))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif
