/* The loop forest: natural and irreducible loops with header, back edges, latches, exits.
 *
 * Loops are identified by the algorithm of Wei, Mao, Zou and Chen ("A New Algorithm for
 * Identifying Loops in Decompilation", SAS 2007): one DFS per function that tags every block with
 * its innermost loop header and detects re-entries into a loop that is no longer on the DFS path,
 * which makes that loop (and the loops around it up to the first one on the path) irreducible.
 * Loops sharing a header are one loop with several back edges, as in LLVM.
 *
 * The latch of a back edge (the seed design's definition): walk up the dominator tree from the
 * back edge's source towards the header; the first block of this loop's own level (not of an
 * inner loop) ending in a conditional jump with a successor outside the loop is the latch, and its
 * condition controls the exit.  A back edge whose source is inside an inner loop has no latch.
 * Loops with no latch (exit only by `exit`, or none at all) are described, not dropped.
 * Code unreachable from its function's entry is in no loop (the CFG reports it).
 */
#ifndef BPFSCEV_SCEV_LOOP_H
#define BPFSCEV_SCEV_LOOP_H

#include <stdbool.h>
#include <stdint.h>

#include "scev/cfg.h"
#include "scev/dom.h"

struct scev_edge {
	uint32_t from, to;	/* block ids */
};

struct scev_back_edge {
	uint32_t from, to;	/* block ids; to is the header */
	uint32_t latch;		/* block id ending in the latch jump, or SCEV_NONE */
};

/* (fields ordered so that none pads: a program of a million loops holds one per loop) */
struct scev_loop {
	uint32_t header;	/* block id */
	uint32_t func;
	uint32_t parent;	/* loop id, SCEV_NONE for outermost */
	uint32_t depth;		/* 1 for outermost */
	uint32_t *entries, nentries;	/* blocks entered from outside; header first */
	uint32_t nback_edges;
	struct scev_back_edge *back_edges;
	uint32_t latch;		/* block id when every back edge has the same latch, else SCEV_NONE */
	uint32_t nexits;
	struct scev_edge *exits;	/* edges from inside to outside this loop */
	uint32_t *blocks, nblocks;	/* sorted block ids, header included (see body below) */
	bool irreducible;
	uint32_t *children, nchildren;	/* loop ids */
};

struct scev_loops {
	struct scev_loop *loops;	/* sorted by function, then header address */
	uint32_t nloops;
	uint32_t *order;	/* loop ids innermost first (post-order of the forest) */
	/* Loop l's place in order (post) and the first place of its subtree (lo): the loops
	 * inside l, l included, are those placed in [lo, post] (scev_loop__contains reads it
	 * in three loads, where a walk up the parents took a step per level of a nest) */
	struct scev_loop_span {
		uint32_t lo, post;
	} *span;
	uint32_t *loop_of;	/* block → innermost loop id, SCEV_NONE when in none */
	uint32_t nirreducible;
	uint32_t nblocks;
	/* Where the loops' arrays live, carved from one allocation per kind (a program of half a
	 * million loops would otherwise make five small allocations per loop): blocks, children
	 * and entries; back edges; exits. */
	uint32_t *pool;
	struct scev_back_edge *back_pool;
	/* Each block of a loop once, every loop's blocks consecutive (L->blocks points there when
	 * they are in ascending order there, else into sorted_pool, sorted copies of those loops):
	 * a list per loop would hold each block once per loop around it. */
	uint32_t *body, *sorted_pool;
	struct scev_edge *exit_pool;
};

int scev_loops__build(struct scev_loops **out, const struct scev_cfg *cfg,
		      const struct scev_domtree *dom, struct diag *d);
void scev_loops__free(struct scev_loops *lf);

/* Block b is inside loop l (at any depth). */
static inline bool scev_loop__contains(const struct scev_loops *lf, uint32_t l, uint32_t b)
{
	uint32_t x = lf->loop_of[b];

	return x != SCEV_NONE && lf->span[l].lo <= lf->span[x].post &&
	       lf->span[x].post <= lf->span[l].post;
}
/* Position of block b in L->blocks (sorted), or SCEV_NONE when b is not in the loop: an index
 * for per-block arrays of one loop. */
uint32_t scev_loop__block_index(const struct scev_loop *L, uint32_t b);

/* Everything about a program's structure in one place, built in order.  (No post-dominator
 * tree: nothing read the one built here, and it was 1.5 % of a small loop's analysis;
 * scev_dom__build makes one on request.) */
struct scev_structure {
	struct scev_cfg *cfg;
	struct scev_domtree *dom;
	struct scev_loops *loops;
};

int scev_structure__build(struct scev_structure *st, const struct bpf_insn *insns, size_t len,
			  struct diag *d);
/* The same with the exception callback's entry (cfg.h scev_cfg__build_entry; 0: none). */
int scev_structure__build_entry(struct scev_structure *st, const struct bpf_insn *insns,
				size_t len, uint32_t entry, struct diag *d);
void scev_structure__free(struct scev_structure *st);

#endif
