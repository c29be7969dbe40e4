/* What the reducer's driver (reduce.c) and its passes (reduce_passes.c) share. */
#ifndef BPFSCEV_TRIAGE_REDUCE_INTERNAL_H
#define BPFSCEV_TRIAGE_REDUCE_INTERNAL_H

#include "triage/reduce.h"

/* Where a deletion moved slot pc: the first instruction kept at or after it was at slot from
 * and is at slot to (both SIZE_MAX when none is kept). */
struct reduce_move {
	size_t from, to;
};

struct red {
	reduce_test_fn test;
	void *arg;
	struct reduce_run_opts o;
	struct reduce_stats *st;
	struct reduce_prog cur;		/* the working program: insns hold cap slots, maps
					 * map_cap entries */
	size_t cap, map_cap;
	struct reduce_prog *cands;	/* jobs scratch candidates, same capacities */
	unsigned jobs;
	bool *keep;			/* scratch, cap entries */
	uint32_t *starts;		/* scratch: first slot of each instruction */
	struct reduce_move *moved;	/* scratch, cap + 1 entries (reduce_passes.c) */
	struct cache_ent *cache;
	size_t cache_cap, cache_n;
	double t0;
	bool stop;
	unsigned round;
	enum reduce_pass_id pass;
	unsigned pass_errors;		/* tests of the current pass that failed to run */
	unsigned pass_offered;		/* candidates of the current pass tested or cached */
};

/* Builds candidate number i of a pass from r->cur into cand (whose buffers hold r->cap slots
 * and r->map_cap maps; the caller has copied cur's maps and type into it).  param is the
 * pass's parameter (the chunk size).  Returns 1 built, 0 nothing at i (go on with i + 1),
 * -1 past the last candidate. */
typedef int (*reduce_make_fn)(struct red *r, size_t i, size_t param, struct reduce_prog *cand);

extern const reduce_make_fn reduce_makers[RP_NR];

/* Instruction starts of r->cur into r->starts; returns their number. */
size_t reduce_list_starts(struct red *r);

#endif
