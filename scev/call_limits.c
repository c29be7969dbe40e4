/* The kernel's limits on the call graph (calls.h), and the most instructions a run executes: the
 * checks that need the analysis (each function's stack depth, the loops' trip claims, the
 * blocks the last pass reached), so they sit with the analyzer's internals (internal.h) while
 * the graph itself (calls.c) needs only the control-flow graph.
 *
 * A cycle is refused whatever stops it at run time: the kernel never allows recursion.  Depth
 * counts frames, main included (at most EBPF_MAX_CALL_DEPTH = 8); a chain's stack is the sum of
 * its frames' depths, each rounded up to 16 bytes as the kernel does for programs it
 * JIT-compiles (at most 512).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scev/calls.h"
#include "scev/internal.h"

#define SCEV_FRAME_ROUND 16

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	if (a == 0 || b == 0)
		return 0;
	return a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static void fn_name(char *buf, size_t n, const struct scev_cfg *cfg, uint32_t f)
{
	if (f == 0)
		snprintf(buf, n, "main");
	else
		snprintf(buf, n, "func@%u", cfg->funcs[f].start);
}

/* Appends " → name" for each function of chain[0..n) to buf. */
static void put_chain(char *buf, size_t cap, const struct scev_cfg *cfg, const uint32_t *chain,
		      uint32_t n)
{
	size_t len = strlen(buf);

	for (uint32_t k = 0; k < n && len + 1 < cap; k++) {
		char name[32];

		fn_name(name, sizeof(name), cfg, chain[k]);
		snprintf(buf + len, cap - len, "%s%s", k ? " -> " : "", name);
		len = strlen(buf);
	}
}

struct dfs_frame {
	uint32_t f, k;		/* function, next site to follow */
};

/* A cycle reachable from root: fills chain with the cycle (its first function repeated at the
 * end) and *site with the pc of the call that closes it.  Returns its length, 0 for none. */
static uint32_t find_cycle(const struct scev_calls *g, uint8_t *color, struct dfs_frame *st,
			   uint32_t root, uint32_t *chain, uint32_t *site)
{
	uint32_t sp = 0;

	if (color[root])
		return 0;
	color[root] = 1;	/* on the path */
	st[sp++] = (struct dfs_frame){ root, g->off[root] };
	while (sp) {
		struct dfs_frame *fr = &st[sp - 1];

		if (fr->k == g->off[fr->f + 1]) {
			color[fr->f] = 2;	/* done */
			sp--;
			continue;
		}
		const struct scev_call_site *cs = &g->sites[fr->k++];

		if (color[cs->callee] == 1) {
			uint32_t from = 0, n = 0;

			while (st[from].f != cs->callee)
				from++;
			for (uint32_t k = from; k < sp; k++)
				chain[n++] = st[k].f;
			chain[n++] = cs->callee;
			*site = cs->pc;
			return n;
		}
		if (!color[cs->callee]) {
			color[cs->callee] = 1;
			st[sp++] = (struct dfs_frame){ cs->callee, g->off[cs->callee] };
		}
	}
	return 0;
}

/* Post-order of the functions over call edges (callees before callers); the graph is acyclic. */
static void post_order(const struct scev_calls *g, uint8_t *seen, struct dfs_frame *st,
		       uint32_t *order)
{
	uint32_t n = 0;

	for (uint32_t root = 0; root < g->nfuncs; root++) {
		uint32_t sp = 0;

		if (seen[root])
			continue;
		seen[root] = 1;
		st[sp++] = (struct dfs_frame){ root, g->off[root] };
		while (sp) {
			struct dfs_frame *fr = &st[sp - 1];

			if (fr->k == g->off[fr->f + 1]) {
				order[n++] = fr->f;
				sp--;
				continue;
			}
			uint32_t c = g->sites[fr->k++].callee;

			if (!seen[c]) {
				seen[c] = 1;
				st[sp++] = (struct dfs_frame){ c, g->off[c] };
			}
		}
	}
}

/* Over every chain starting at each function: the largest sum of weight(f) (frames: 1 each;
 * stack: each frame's rounded depth), with the callee that attains it, in order (post-order). */
static void longest(const struct scev_calls *g, const uint32_t *order, const uint32_t *weight,
		    uint64_t *best, uint32_t *next)
{
	for (uint32_t k = 0; k < g->nfuncs; k++) {
		uint32_t f = order[k];

		best[f] = 0;
		next[f] = SCEV_NONE;
		for (uint32_t s = g->off[f]; s < g->off[f + 1]; s++) {
			uint32_t c = g->sites[s].callee;

			if (next[f] == SCEV_NONE || best[c] > best[f]) {
				best[f] = best[c];
				next[f] = c;
			}
		}
		best[f] += weight ? weight[f] : 1;
	}
}

/* The function where the longest chain starts, and the chain itself. */
static uint32_t worst_chain(const struct scev_calls *g, const uint64_t *best, const uint32_t *next,
			    uint32_t *chain)
{
	uint32_t root = 0, n = 0;

	for (uint32_t f = 1; f < g->nfuncs; f++)
		if (best[f] > best[root])
			root = f;
	for (uint32_t f = root; f != SCEV_NONE && n < g->nfuncs; f = next[f])
		chain[n++] = f;
	return n;
}

int scev_calls_check(struct scev_ctx *cx, struct scev_verdict *v, const uint32_t *fn_stack)
{
	const struct scev_calls *g = &cx->calls;
	const struct scev_cfg *cfg = cx->st.cfg;
	uint32_t nf = g->nfuncs;
	uint8_t *mark = calloc(nf, 1);
	struct dfs_frame *st = malloc((nf + 1) * sizeof(*st));
	uint32_t *chain = malloc((nf + 1) * sizeof(*chain));
	uint32_t *order = malloc(nf * sizeof(*order));
	uint32_t *next = malloc(nf * sizeof(*next));
	uint32_t *weight = malloc(nf * sizeof(*weight));
	uint64_t *best = malloc(nf * sizeof(*best));
	int err = -ENOMEM;

	if (!mark || !st || !chain || !order || !next || !weight || !best)
		goto out;
	err = 0;
	/* 1. No recursion: a cycle from main first, then from any function. */
	for (uint32_t root = 0; root < nf; root++) {
		uint32_t site, n = find_cycle(g, mark, st, root, chain, &site);

		if (n) {
			v->acyclic = false;
			if (v->kind == VERDICT_SAFE) {
				v->kind = VERDICT_UNSAFE;
				v->pc = site;
				snprintf(v->reason, sizeof(v->reason), "recursive call at insn %u: ",
					 site);
				put_chain(v->reason, sizeof(v->reason), cfg, chain, n);
				snprintf(v->reason + strlen(v->reason),
					 sizeof(v->reason) - strlen(v->reason),
					 " (the kernel refuses recursion through bpf-to-bpf calls)");
			}
			goto out;
		}
	}
	v->acyclic = true;
	memset(mark, 0, nf);
	post_order(g, mark, st, order);

	/* 2. The deepest chain in frames. */
	longest(g, order, NULL, best, next);
	{
		uint32_t n = worst_chain(g, best, next, chain);

		v->max_frames = (uint32_t)best[chain[0]];
		if (v->max_frames > EBPF_MAX_CALL_DEPTH && v->kind == VERDICT_SAFE) {
			v->kind = VERDICT_UNSAFE;
			v->pc = cfg->funcs[chain[0]].start;
			for (uint32_t s = g->off[chain[EBPF_MAX_CALL_DEPTH - 1]];
			     s < g->off[chain[EBPF_MAX_CALL_DEPTH - 1] + 1]; s++)
				if (g->sites[s].callee == chain[EBPF_MAX_CALL_DEPTH])
					v->pc = g->sites[s].pc;
			snprintf(v->reason, sizeof(v->reason),
				 "the call stack of %u frames is too deep (the kernel allows %u): ",
				 v->max_frames, EBPF_MAX_CALL_DEPTH);
			put_chain(v->reason, sizeof(v->reason), cfg, chain, n);
		}
	}

	/* 3. The largest combined stack of a chain, when each frame's depth is known. */
	v->max_stack = 0;
	if (fn_stack) {
		for (uint32_t f = 0; f < nf; f++)
			weight[f] = (fn_stack[f] + SCEV_FRAME_ROUND - 1) / SCEV_FRAME_ROUND *
				    SCEV_FRAME_ROUND;
		longest(g, order, weight, best, next);
		uint32_t n = worst_chain(g, best, next, chain);

		v->max_stack = (uint32_t)best[chain[0]];
		if (v->max_stack > EBPF_STACK_SIZE && v->kind == VERDICT_SAFE) {
			v->kind = VERDICT_UNSAFE;
			v->pc = cfg->funcs[chain[n - 1]].start;
			snprintf(v->reason, sizeof(v->reason),
				 "combined stack size of %u calls is %u. Too large (the kernel allows "
				 "%u bytes): ", n, v->max_stack, EBPF_STACK_SIZE);
			put_chain(v->reason, sizeof(v->reason), cfg, chain, n);
		}
	}
out:
	free(mark);
	free(st);
	free(chain);
	free(order);
	free(next);
	free(weight);
	free(best);
	return err;
}

const char *scev_ends_name(enum scev_ends e)
{
	static const char *const names[] = { "bound", "calls", "may_goto", "none" };

	return e <= SCEV_ENDS_NONE ? names[e] : "?";
}

/* The callback loop claim of callback c (callbacks.h): its calls per helper call; NULL when the
 * claims have none (a callback that is also a plain loop's header, one used otherwise). */
static const struct claim_trip *cb_trip(const struct claim_prog *claims,
					const struct scev_cb_loop *c)
{
	if (!c->only_bpf_loop || c->helper == BPF_FUNC_timer_set_callback)
		return NULL;
	for (uint32_t l = 0; l < claims->nloops; l++)
		if (claim_loop_kind_callback(claims->loops[l].kind) &&
		    claims->loops[l].header == c->header)
			return claims->loops[l].trip.kind == TRIP_UNKNOWN ? NULL
									  : &claims->loops[l].trip;
	return NULL;
}

#define IB_CALLS 1	/* a tail call, or a callback whose calls no claim counts */
#define IB_MAY_GOTO 2	/* a loop that only may_goto ends */
#define IB_NONE 4	/* a reached loop with neither a bound nor an ender */

/* The most instructions a run executes, over the call graph in post-order (callees first): a
 * block at most once per iteration of each loop around it, a callback-running helper call its
 * callback's cost times its loop's trip maximum (each execution of a callback that only those
 * calls use is one of their calls, callbacks.h), a loop that may_goto ends mg iterations per
 * entry (0: none known, IB_MAY_GOTO).  *why gets the IB_* bits of what is not counted;
 * IB_NONE stops at once.  fcost (NULL: not wanted) gets each function's cost per call when
 * nothing in it or below it is uncounted (IB_MAY_GOTO allowed when mg is given), else
 * UINT64_MAX.  nocb: what runs while no callback does — a callback-running helper call costs
 * its own instruction, its callback nothing (and a callback no claim counts is no IB_CALLS). */
static uint64_t insn_bound(const struct scev_ctx *cx, const struct claim_prog *claims,
			   const uint8_t *live, const uint32_t *order, uint64_t mg, unsigned *why,
			   uint64_t *fcost, bool nocb)
{
	const struct scev_cfg *cfg = cx->st.cfg;
	const struct scev_loops *lf = cx->st.loops;
	uint32_t nf = cx->calls.nfuncs;
	uint64_t *cost = calloc(nf, sizeof(*cost)), bound = UINT64_MAX;
	uint8_t *done = calloc(nf, 1), *fwhy = calloc(nf, 1);
	const struct claim_trip **trip = calloc(cx->cbl.n ? cx->cbl.n : 1, sizeof(*trip));

	*why = 0;
	if (!cost || !done || !fwhy || !trip) {
		*why = IB_CALLS;
		goto out;
	}
	for (uint32_t c = 0; c < cx->cbl.n; c++)
		trip[c] = cb_trip(claims, &cx->cbl.v[c]);
	for (uint32_t k = 0; k < nf; k++) {
		uint32_t f = order[k];
		const struct scev_func *fn = &cfg->funcs[f];
		uint64_t c = 0;
		unsigned fw = 0;

		for (uint32_t b = fn->first_block; b < fn->first_block + fn->nblocks; b++) {
			const struct scev_block *blk = &cfg->blocks[b];
			uint64_t mult = 1, here = 0;

			if (!blk->reachable || !live[b])
				continue;
			/* A block runs at most once per iteration of each loop around it, and loops
			 * are entered at most once per iteration of their parent (a path from a
			 * loop's exit back to its entries that missed the parent's header would be
			 * a cycle of a loop between the two).  An irreducible loop's count is its
			 * header's executions per entry: entered at a side entry, its blocks run once
			 * more before the header's first, so at most max + 1 times.  A loop that
			 * may_goto ends passes one in every cycle, each a pass of the frame's budget
			 * (shared by the frame's loops: mg per entry is more than they can take). */
			for (uint32_t l = lf->loop_of[b]; l != SCEV_NONE; l = lf->loops[l].parent) {
				const struct claim_trip *t = &claims->loops[l].trip;

				/* (a loop whose header the last pass never reached cannot go round:
				 * every cycle at its level passes it; its blocks run once per entry,
				 * as absint_verify_loops counts on) */
				if (!live[lf->loops[l].header])
					continue;
				if (t->kind == TRIP_UNKNOWN) {
					if (t->ends_by != TRIP_ENDS_MAY_GOTO) {
						*why = IB_NONE;
						goto out;
					}
					fw |= IB_MAY_GOTO;
					mult = mg ? sat_mul(mult, mg) : UINT64_MAX;
					continue;
				}
				mult = sat_mul(mult, lf->loops[l].irreducible ? sat_add(t->max, 1)
									      : t->max);
			}
			for (uint32_t pc = blk->first; pc <= blk->last;
			     pc += ebpf_insn_slots(&cx->insns[pc])) {
				const struct bpf_insn *i = &cx->insns[pc];

				here = sat_add(here, 1);
				if (ebpf_is_pseudo_call(i)) {
					uint32_t callee = cfg->blocks[cfg->block_of[pc + 1 +
							  (uint32_t)i->imm]].func;

					here = sat_add(here, cost[callee]);
					fw |= fwhy[callee];
				}
				if (!ebpf_is_helper_call(i))
					continue;
				if (i->imm == 12) {	/* a tail call */
					fw |= IB_CALLS;
					continue;
				}
				if (nocb ||
				    (i->imm != BPF_FUNC_loop && i->imm != BPF_FUNC_for_each_map_elem &&
				     i->imm != BPF_FUNC_find_vma && i->imm != BPF_FUNC_user_ringbuf_drain))
					continue;
				/* (bpf_timer_set_callback's callback runs later, on its own) */
				uint32_t cb = SCEV_NONE;

				for (uint32_t n = 0; n < cx->cbl.n && cb == SCEV_NONE; n++)
					for (uint32_t e = 0; e < cx->cbl.v[n].ncalls; e++)
						if (cx->cbl.v[n].calls[e] == pc)
							cb = n;
				if (cb == SCEV_NONE || !trip[cb] || !done[cx->cbl.v[cb].func]) {
					fw |= IB_CALLS;
					continue;
				}
				here = sat_add(here, sat_mul(trip[cb]->max, cost[cx->cbl.v[cb].func]));
				fw |= fwhy[cx->cbl.v[cb].func];
			}
			c = sat_add(c, sat_mul(mult, here));
		}
		cost[f] = c;
		fwhy[f] = (uint8_t)fw;
		*why |= fw;
		done[f] = 1;
	}
	bound = cost[0];
	for (uint32_t f = 0; fcost && f < nf; f++)
		fcost[f] = !fwhy[f] || (mg && fwhy[f] == IB_MAY_GOTO) ? cost[f] : UINT64_MAX;
out:
	if (fcost && (*why & IB_NONE || !cost || !done || !fwhy || !trip))
		for (uint32_t f = 0; f < nf; f++)
			fcost[f] = UINT64_MAX;
	free(cost);
	free(done);
	free(fwhy);
	free(trip);
	return bound;
}

/* The entry of v->call_bound for the function whose first pc is start, added (in pc order, as
 * {start, calls, 0}) when there is none and room for it; NULL when there is no room. */
static struct scev_call_bound *call_bound_at(struct scev_verdict *v, uint32_t start,
					     uint32_t calls)
{
	uint32_t k = 0;

	while (k < v->ncall_bounds && v->call_bound[k].start < start)
		k++;
	if (k < v->ncall_bounds && v->call_bound[k].start == start)
		return &v->call_bound[k];
	if (v->ncall_bounds == SCEV_VERDICT_CALL_BOUNDS)
		return NULL;
	memmove(&v->call_bound[k + 1], &v->call_bound[k],
		(v->ncall_bounds - k) * sizeof(v->call_bound[0]));
	v->ncall_bounds++;
	v->call_bound[k] = (struct scev_call_bound){ start, calls, 0, false };
	return &v->call_bound[k];
}

/* v's per-call bounds from each function's cost per call (fcost; fcost_mg, when not NULL, at
 * the may_goto budget SCEV_MG_ORACLE_BUDGET for the functions fcost has none for) and each
 * callback's calls per helper call (its loop's trip claim).  A function's copies (contexts.c)
 * run as it does: its bound is the largest of theirs (at the budget when one of them needs it).
 * An entry that states nothing is dropped. */
static void call_bounds(const struct scev_ctx *cx, const struct claim_prog *claims,
			const uint64_t *fcost, const uint64_t *fcost_mg, struct scev_verdict *v)
{
	const struct scev_cfg *cfg = cx->st.cfg;
	const struct scev_ctx_plan *plan = cx->ctx_plan;
	uint32_t n = 0;

	v->ncall_bounds = 0;
	/* callbacks first (calls from 0 up), then every function (a function that is no
	 * callback states no calls) */
	for (uint32_t c = 0; c < cx->cbl.n; c++) {
		const struct claim_trip *t = cb_trip(claims, &cx->cbl.v[c]);
		uint32_t start = cx->cbl.v[c].header;
		struct scev_call_bound *b;

		if (plan && start < plan->newlen)
			start = plan->orig_of[start];
		if (start == 0 || !(b = call_bound_at(v, start, 0)))
			continue;
		if (!t || t->max >= UINT32_MAX)
			b->calls = UINT32_MAX;
		else if (b->calls < t->max)
			b->calls = (uint32_t)t->max;
	}
	for (uint32_t f = 1; f < cx->calls.nfuncs; f++) {
		uint32_t start = cfg->funcs[f].start;
		struct scev_call_bound *b;

		if (plan && start < plan->newlen)
			start = plan->orig_of[start];
		if (start == 0 || !(b = call_bound_at(v, start, UINT32_MAX)))
			continue;
		if (fcost[f] == UINT64_MAX && fcost_mg && fcost_mg[f] != UINT64_MAX) {
			b->mg = true;
			if (b->insns < fcost_mg[f])
				b->insns = fcost_mg[f];
		} else if (b->insns < fcost[f]) {
			b->insns = fcost[f];
		}
	}
	for (uint32_t k = 0; k < v->ncall_bounds; k++)
		if (v->call_bound[k].insns != UINT64_MAX || v->call_bound[k].calls != UINT32_MAX)
			v->call_bound[n++] = v->call_bound[k];
	v->ncall_bounds = (uint16_t)n;
}

void scev_calls_insn_bound(const struct scev_ctx *cx, const struct claim_prog *claims,
			   const uint8_t *live, struct scev_verdict *v)
{
	const struct scev_calls *g = &cx->calls;
	uint32_t nf = g->nfuncs;
	uint64_t bound = UINT64_MAX;
	uint32_t *order = malloc(nf * sizeof(*order));
	uint8_t *seen = calloc(nf, 1);
	struct dfs_frame *st = malloc((nf + 1) * sizeof(*st));
	uint64_t *fcost = malloc(nf * sizeof(*fcost)), *fcost_mg = malloc(nf * sizeof(*fcost_mg));
	unsigned why = IB_CALLS, w2;

	v->mg_insns = 0;
	memset(v->mg_more, 0, sizeof(v->mg_more));
	v->ncall_bounds = 0;
	v->main_own = 0;
	v->main_own_mg = false;
	if (order && seen && st && fcost && fcost_mg) {
		post_order(g, seen, st, order);
		bound = insn_bound(cx, claims, live, order, 0, &why, fcost, false);
		/* (a function with a may_goto loop in or below it: its cost at the oracle's
		 * budget) */
		if (why & IB_MAY_GOTO && !(why & IB_NONE))
			insn_bound(cx, claims, live, order, SCEV_MG_ORACLE_BUDGET + 1, &w2, fcost_mg,
				   false);
		if (!(why & IB_NONE))
			call_bounds(cx, claims, fcost, why & IB_MAY_GOTO ? fcost_mg : NULL, v);
		/* main's own instructions, callbacks left to their own bounds */
		if (!(why & IB_NONE)) {
			uint64_t own = insn_bound(cx, claims, live, order, 0, &w2, NULL, true);

			if (w2 & IB_MAY_GOTO) {
				own = insn_bound(cx, claims, live, order, SCEV_MG_ORACLE_BUDGET + 1,
						 &w2, NULL, true);
				v->main_own_mg = true;
			}
			v->main_own = w2 & ~IB_MAY_GOTO || own == UINT64_MAX ? 0 : own;
		}
	}
	if (why & IB_NONE)
		v->ends = SCEV_ENDS_NONE;
	else if (why & IB_MAY_GOTO)
		v->ends = SCEV_ENDS_MAY_GOTO;
	else if (why & IB_CALLS)
		v->ends = SCEV_ENDS_CALLS;
	else
		v->ends = SCEV_ENDS_BOUND;
	if (why == IB_MAY_GOTO) {
		uint64_t b = insn_bound(cx, claims, live, order, SCEV_MG_ORACLE_BUDGET + 1, &why,
					NULL, false);

		v->mg_insns = why == IB_MAY_GOTO && b != UINT64_MAX ? b : 0;
		/* (each budget: b + 1 passes of a loop per entry at most) */
		for (unsigned k = 0; k < SCEV_MG_MORE && why == IB_MAY_GOTO; k++) {
			b = insn_bound(cx, claims, live, order, scev_mg_more_budget(k) + 1ull, &why,
				       NULL, false);
			v->mg_more[k] = why == IB_MAY_GOTO && b != UINT64_MAX ? b : 0;
		}
	}
	v->max_insns = v->ends == SCEV_ENDS_BOUND ? bound : UINT64_MAX;
	/* the exception callback runs after a throw in main's frame, in no bound above (nor in
	 * main's own): none is stated (absint_throw.c) */
	if (absint_throw_exc_runs(cx)) {
		v->max_insns = UINT64_MAX;
		v->main_own = v->mg_insns = 0;
		memset(v->mg_more, 0, sizeof(v->mg_more));
	}
	/* (stated when it says more than the whole bound) */
	if (v->main_own >= (v->main_own_mg ? (v->mg_insns ? v->mg_insns : UINT64_MAX)
					    : v->max_insns))
		v->main_own = 0;
	if (!v->main_own)
		v->main_own_mg = false;
	free(order);
	free(seen);
	free(st);
	free(fcost);
	free(fcost_mg);
}
