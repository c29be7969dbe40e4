/* The set of finished programs of a campaign: the numbers whose outcome the parent has counted
 * and saved.  Workers finish programs out of order, and a resumed campaign skips the numbers
 * its state file lists, so the set is a sorted list of ranges rather than one counter.
 */
#ifndef BPFSCEV_FUZZ_DONESET_H
#define BPFSCEV_FUZZ_DONESET_H

#include <stddef.h>
#include <stdint.h>

/* Sorted, disjoint, non-adjacent ranges [a, b) of program numbers. */
struct done_set {
	struct { uint64_t a, b; } *r;
	size_t n, cap;
};

/* Adds [a, b) (nothing when a >= b).  0 or -ENOMEM. */
int done_set_add(struct done_set *s, uint64_t a, uint64_t b);
/* The first number at or after x that is not done. */
uint64_t done_set_next_gap(const struct done_set *s, uint64_t x);
/* The end of the run of done numbers starting at x (x when x is not done). */
uint64_t done_set_run_end(const struct done_set *s, uint64_t x);
/* Of [a, b): the end of the first stretch of numbers that are not done, starting at a. */
uint64_t done_set_gap_end(const struct done_set *s, uint64_t a, uint64_t b);

#endif
