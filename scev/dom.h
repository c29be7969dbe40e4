/* Dominator and post-dominator trees over the CFG, by the semi-NCA algorithm (Georgiadis,
 * "Linear-Time Algorithms for Dominators and Related Problems", as LLVM uses it): semidominators
 * from a DFS with path-compressed evaluation, then each immediate dominator as the nearest common
 * ancestor of its DFS parent and its semidominator.  Near-linear on every shape, including the
 * ones that make the iterative Cooper–Harvey–Kennedy algorithm quadratic.
 *
 * A block dominates another when every path from the function entry to it passes through the
 * first.  Post-dominators use the reversed CFG with one virtual exit per function joined to every
 * block ending in exit; blocks that cannot reach an exit (infinite loops) have no post-dominator.
 * Queries are O(1) through DFS intervals of the tree.
 */
#ifndef BPFSCEV_SCEV_DOM_H
#define BPFSCEV_SCEV_DOM_H

#include <stdbool.h>
#include <stdint.h>

#include "scev/cfg.h"

struct scev_domtree {
	uint32_t n;		/* blocks */
	bool post;
	uint32_t *idom;		/* immediate (post)dominator; SCEV_NONE for roots and unreached */
	uint32_t *tin, *tout;	/* DFS interval in the tree; 0/0 for unreached blocks */
};

int scev_dom__build(struct scev_domtree **out, const struct scev_cfg *cfg, bool post,
		    struct diag *d);
void scev_dom__free(struct scev_domtree *dt);

/* a dominates b (reflexive).  False when either is unreached. */
static inline bool scev_dom__dominates(const struct scev_domtree *dt, uint32_t a, uint32_t b)
{
	return dt->tin[a] && dt->tin[b] && dt->tin[a] <= dt->tin[b] && dt->tout[b] <= dt->tout[a];
}

/* The generic algorithm, exposed for the property tests: nodes 0..n-1, successors in CSR form
 * (off has n+1 entries), predecessors likewise; idom[v] for nodes reachable from root, SCEV_NONE
 * elsewhere and for root. */
int scev_dom__compute(uint32_t n, uint32_t root, const uint32_t *succ_off, const uint32_t *succ,
		      const uint32_t *pred_off, const uint32_t *pred, uint32_t *idom);

#endif
