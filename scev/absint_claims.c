/* The claims the range analysis emits (claims.h): the range of every known register and stack
 * cell before each instruction it is asked about, and per loop its shape (blocks, entries, back
 * edges, exits), trip count and induction variables.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scev/absint.h"
#include "util/arena.h"
#include "util/zalloc.h"

/* Range claims before pc: every register and stack cell of s of which something is known. */
/* A pointer into a map that stands for several (absint_map_class, absint_timer_canon) names no
 * one map. */
static bool claimable(const struct scev_ctx *cx, const struct aval *a)
{
	return !(a->kind == AV_PTR &&
		 (a->region == REGION_MAP_HANDLE || a->region == REGION_MAP_VALUE) &&
		 (absint_map_shared(cx, a->map) || absint_timer_aliased(cx, a->map)));
}

void absint_put_claims(struct engine *en, const struct astate *s, uint32_t pc)
{
	struct claim_prog *out = en->out;

	for (loc_t r = 0; r < EBPF_REG_FP; r++) {
		const struct aval *a = &s->regs[r];
		struct claim_range c = { .pc = pc, .loc = r };

		if (a->kind == AV_TOP || (a->kind == AV_SCALAR && range_is_unknown(&a->r)) ||
		    (a->kind == AV_PTR && a->region >= REGION_CALLER_STACK))
			continue;
		if (!claimable(en->cx, a))
			continue;
		c.is_ptr = a->kind == AV_PTR;
		/* (packet: map is no map; a scalar's region is its relation to the packet's
		 * length, aval.h, which no claim states) */
		c.region = c.is_ptr ? a->region : 0;
		c.map = !c.is_ptr || a->region == REGION_PKT ? 0 : a->map;
		c.maybe_null = a->maybe_null;
		c.source = a->src;
		c.r = a->r;
#ifdef BPFSCEV_PLANTED_BUG
		/* fuzzing self-test: derived induction variables claimed one too small where
		 * there is room (a bug in one shape: most programs stay clean, so a fuzzer
		 * must find the shape) */
		if (!c.is_ptr && c.source == SRC_DERIVED && c.r.umax > c.r.umin &&
		    c.r.umax == (uint64_t)c.r.smax) {
			c.r.umax--;
			c.r.smax--;
			range_sync(&c.r);
		}
#endif
		claim_prog__add_range(out, &c);
	}
	for (uint32_t k = 0; k < s->n; k++) {
		const struct aval *a = &s->cells[k].v;
		struct claim_range c = { .pc = pc, .loc = LOC_SLOT(s->cells[k].off, s->cells[k].size) };

		if (a->kind == AV_TOP || (a->kind == AV_SCALAR && range_is_unknown(&a->r)) ||
		    (a->kind == AV_PTR && a->region >= REGION_CALLER_STACK))
			continue;
		if (!claimable(en->cx, a))
			continue;
		c.is_ptr = a->kind == AV_PTR;
		c.region = c.is_ptr ? a->region : 0;
		c.map = !c.is_ptr || a->region == REGION_PKT ? 0 : a->map;
		c.maybe_null = a->maybe_null;
		c.source = a->src;
		c.r = a->r;
		claim_prog__add_range(out, &c);
	}
}

static int cmp_first(const void *a, const void *b)
{
	uint32_t x = ((const struct claim_pcrange *)a)->first;
	uint32_t y = ((const struct claim_pcrange *)b)->first;

	return x < y ? -1 : x > y;
}

/* pc ranges of loop l's blocks, adjacent ones merged: the pcs of its own blocks (own[off[l] ..
 * off[l + 1])) and the ranges of its children (done before it), in address order, coalesced
 * where one ends just before the next starts.  Merging adjacent blocks in address order gives
 * the largest runs of consecutive pcs of the loop's blocks, and so does merging runs of its
 * children's with its own blocks: the same ranges as a walk of every block of the loop, which
 * visits a nest's inner blocks once per level around them. */
static int loop_ranges(const struct scev_ctx *cx, struct claim_prog *out, const uint32_t *own,
		       const uint32_t *off, uint32_t l)
{
	const struct scev_loop *L = &cx->st.loops->loops[l];
	struct claim_loop *cl = &out->loops[l];
	struct claim_pcrange *v;
	uint32_t n = off[l + 1] - off[l], m = 0;

	for (uint32_t c = 0; c < L->nchildren; c++)
		n += out->loops[L->children[c]].nblocks;
	if (!(v = malloc((n ? n : 1) * sizeof(*v))))
		return -ENOMEM;
	n = 0;
	for (uint32_t k = off[l]; k < off[l + 1]; k++) {
		const struct scev_block *b = &cx->st.cfg->blocks[own[k]];

		v[n++] = (struct claim_pcrange){ b->first,
						 b->last + ebpf_insn_slots(&cx->insns[b->last]) - 1 };
	}
	for (uint32_t c = 0; c < L->nchildren; c++) {
		const struct claim_loop *cc = &out->loops[L->children[c]];

		for (uint32_t k = 0; k < cc->nblocks; k++)
			v[n++] = cc->blocks[k];
	}
	if (L->nchildren)	/* (own blocks come in address order: blocks are numbered so) */
		qsort(v, n, sizeof(*v), cmp_first);
	for (uint32_t k = 0; k < n; k++)
		if (m && v[m - 1].last + 1 == v[k].first)
			v[m - 1].last = v[k].last;
		else
			v[m++] = v[k];
	/* (in the claims' chunks: claims.h) */
	cl->chunked = true;
	cl->blocks = claim_prog__chunk(out, (m ? m : 1) * sizeof(*cl->blocks));
	if (cl->blocks) {
		memcpy(cl->blocks, v, m * sizeof(*v));
		cl->nblocks = m;
	}
	free(v);
	return cl->blocks ? 0 : -ENOMEM;
}

int absint_claim_loops(struct engine *en, struct claim_prog *out)
{
	uint32_t nl = en->cx->st.loops->nloops;

	if (claim_prog__alloc_loops(out, nl))
		return -ENOMEM;
	for (uint32_t l = 0; l < nl; l++)
		out->loops[l].trip = en->trips[l];	/* (the texts move there) */
	arena_free(en->trips);
	en->trips = NULL;
	return 0;
}

int absint_fill_loops(struct engine *en, struct claim_prog *out)
{
	struct scev_ctx *cx = en->cx;
	const struct scev_cfg *cfg = cx->st.cfg;
	const struct scev_loops *lf = cx->st.loops;
	uint32_t *own, *off, *pool = NULL;
	size_t words = 0;
	int err = 0;

	/* the pc ranges, innermost first (a loop's take its children's) */
	if (scev_own_blocks(cx, &own, &off))
		return -ENOMEM;
	for (uint32_t i = 0; i < lf->nloops && !err; i++)
		err = loop_ranges(cx, out, own, off, lf->order[i]);
	arena_free(own);
	arena_free(off);
	if (err)
		return err;
	/* every loop's entries, back edges and exits from one block of the claims' chunks
	 * (claim_loop.pooled: at the end of a long program's last pass the arena has the pages
	 * its loop summaries left to give them), at least one entry each as when they were
	 * allocated one by one; all are 32-bit numbers */
	for (uint32_t l = 0; l < lf->nloops; l++) {
		const struct scev_loop *L = &lf->loops[l];

		words += (L->nentries ? L->nentries : 1) + 3 * (L->nback_edges ? L->nback_edges : 1) +
			 2 * (L->nexits ? L->nexits : 1);
	}
	if (lf->nloops && !(pool = claim_prog__chunk(out, words * sizeof(*pool))))
		return -ENOMEM;
	if (pool)
		memset(pool, 0, words * sizeof(*pool));
	for (uint32_t l = 0; l < lf->nloops; l++) {
		const struct scev_loop *L = &lf->loops[l];
		struct claim_loop *cl = &out->loops[l];
		struct loop_result *res = &en->res[l];

		cl->header = cfg->blocks[L->header].first;
		cl->depth = L->depth;
		cl->parent = L->parent == SCEV_NONE ? -1 : (int64_t)cfg->blocks[lf->loops[L->parent].header].first;
		cl->irreducible = L->irreducible;
		cl->latch = L->latch == SCEV_NONE ? UINT32_MAX : cfg->blocks[L->latch].last;
		cl->pooled = true;
		cl->entries = pool;
		pool += L->nentries ? L->nentries : 1;
		cl->back_edges = (uint32_t (*)[3])pool;
		pool += 3 * (L->nback_edges ? L->nback_edges : 1);
		cl->exits = (uint32_t (*)[2])pool;
		pool += 2 * (L->nexits ? L->nexits : 1);
		for (uint32_t k = 0; k < L->nentries; k++)
			cl->entries[cl->nentries++] = cfg->blocks[L->entries[k]].first;
		for (uint32_t k = 0; k < L->nback_edges; k++) {
			const struct scev_back_edge *be = &L->back_edges[k];

			cl->back_edges[cl->nback_edges][0] = cfg->blocks[be->from].last;
			cl->back_edges[cl->nback_edges][1] = cfg->blocks[be->to].first;
			cl->back_edges[cl->nback_edges++][2] =
				be->latch == SCEV_NONE ? UINT32_MAX : cfg->blocks[be->latch].last;
		}
		for (uint32_t k = 0; k < L->nexits; k++) {
			cl->exits[cl->nexits][0] = cfg->blocks[L->exits[k].from].last;
			cl->exits[cl->nexits++][1] = cfg->blocks[L->exits[k].to].first;
		}
		if (res->visited) {
			/* (from the slab to the claims' chunks) */
			cl->chunked = true;
			if (res->nivs &&
			    !(cl->ivs = claim_prog__chunk(out, res->nivs * sizeof(*cl->ivs))))
				return -ENOMEM;
			if (res->nivs)
				memcpy(cl->ivs, res->ivs, res->nivs * sizeof(*cl->ivs));
			cl->nivs = res->nivs;
			arena_slab_free(res->ivs);
			res->ivs = NULL;
		} else if (claim_trip__set_text_in(out, &cl->trip, &cl->trip.reason, L->irreducible ?
						   "irreducible loop" : "the loop is never entered")) {
			return -ENOMEM;
		}
	}
	return 0;
}
