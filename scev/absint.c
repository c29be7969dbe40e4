/* The forward range analysis: abstract values (aval.h) for every register and stack cell at
 * every instruction, with each loop header's state computed in one step from the state entering
 * the loop (see scev.h).
 *
 * A worklist visits blocks in reverse postorder; a block is visited again only when the state
 * reaching it grew along an edge the header step does not cover — inside irreducible cycles, or
 * around a loop analyzed with the "iterate" strategy — and those revisits widen, so the number of
 * visits is bounded by the lattice height, never by a trip count.  Branches narrow both arms.
 * The same engine runs twice: first forgetting everything loops change (to learn which stores
 * and calls may write the stack, for the symbolic execution), then with the loop summaries,
 * emitting claims for every instruction inside a loop and at every loop exit.
 *
 * This file is the worklist and the driver of both passes; absint.h lists the other parts (the
 * state, the transfer function, the header step, the claims and the verdict).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scev/absint.h"
#include "util/zalloc.h"
#include "util/arena.h"

bool absint_is_header(const struct scev_ctx *cx, uint32_t b, uint32_t *l)
{
	uint32_t x = cx->st.loops->loop_of[b];

	/* The first pass has no loop summaries yet: every loop is a plain fixpoint with widening
	 * there, which keeps what kinds of values (scalars, which pointers) cross iterations. */
	if (cx->first_pass)
		return false;
	if (x == SCEV_NONE || cx->st.loops->loops[x].header != b)
		return false;
	*l = x;
	return true;
}

/* ---- the worklist ---- */

static void queue(struct engine *en, uint32_t b, uint32_t *lowest)
{
	uint32_t pos = en->cx->rpo_index[b];

	en->queued[pos] = 1;
	if (pos < *lowest)
		*lowest = pos;
}

/* The edge from → to leaves the innermost loop of from. */
static bool scev_loop__contains_block(const struct scev_ctx *cx, uint32_t from, uint32_t to)
{
	uint32_t l = cx->st.loops->loop_of[from];

	return l == SCEV_NONE || scev_loop__contains(cx->st.loops, l, to);
}

/* The side-entry region of irreducible loop l: per block of it (L->blocks order), whether it
 * can be reached from an entry other than the header without passing the header; element
 * L->nblocks is 2 when no block of the region is in a nested loop ("flat"), else 1.  Every cycle
 * of the loop at its own level passes the header, so iterations start there; the region is what
 * a side entry runs before its first visit of the header.  NULL when l is reducible or memory
 * ran out. */
const uint8_t *absint_reentry_region(struct scev_ctx *cx, uint32_t l)
{
	const struct scev_loops *lf = cx->st.loops;
	const struct scev_loop *L = &lf->loops[l];
	uint32_t *stack, sp = 0, at;
	uint8_t *r;

	if (!L->irreducible)
		return NULL;
	if (!cx->reentry && !(cx->reentry = arena_zalloc(lf->nloops, sizeof(*cx->reentry))))
		return NULL;
	if (cx->reentry[l])
		return cx->reentry[l];
	if (!(r = arena_zalloc(L->nblocks + 1, 1)) ||
	    !(stack = malloc(L->nblocks * sizeof(*stack)))) {
		arena_free(r);
		return NULL;
	}
	for (uint32_t e = 0; e < L->nentries; e++)
		if (L->entries[e] != L->header &&
		    !r[at = scev_loop__block_index(L, L->entries[e])]) {
			r[at] = 1;
			stack[sp++] = L->entries[e];
		}
	while (sp) {
		const struct scev_block *blk = &cx->st.cfg->blocks[stack[--sp]];

		for (unsigned k = 0; k < blk->nsucc; k++) {
			uint32_t x = blk->succ[k], xi = scev_loop__block_index(L, x);

			if (x != L->header && xi != SCEV_NONE && !r[xi]) {
				r[xi] = 1;
				stack[sp++] = x;
			}
		}
	}
	free(stack);
	r[L->nblocks] = 2;
	for (uint32_t k = 0; k < L->nblocks; k++)
		if (r[k] && lf->loop_of[L->blocks[k]] != l)
			r[L->nblocks] = 1;
	return cx->reentry[l] = r;
}

/* Block b is in the side-entry region of loop l (true when that cannot be known). */
static bool reentry_block(struct scev_ctx *cx, uint32_t l, uint32_t b)
{
	const struct scev_loop *L = &cx->st.loops->loops[l];
	const uint8_t *r = absint_reentry_region(cx, l);
	uint32_t at;

	if (!r)
		return L->irreducible;
	at = scev_loop__block_index(L, b);
	return at != SCEV_NONE && r[at];
}

/* The header's first visits through the side-entry region of l are computed apart. */
static bool reentry_flat(struct scev_ctx *cx, uint32_t l)
{
	const uint8_t *r = absint_reentry_region(cx, l);

	return r && r[cx->st.loops->loops[l].nblocks] == 2;
}

/* Whether some edge into b is retreating in reverse postorder (from b itself or a later block):
 * every cycle has such an edge, so widening at these blocks alone ends every fixpoint.  The
 * first pass widens only there: widening a join that merely meets two paths (a loop's exit, on
 * which the exit test gave a variable two different ranges in two rounds) loses bounds that no
 * cycle grows. */
static bool widen_point(const struct scev_ctx *cx, uint32_t b)
{
	const struct scev_cfg *g = cx->st.cfg;
	const uint32_t *pr = scev_block_preds(g, b);

	for (uint32_t k = 0; k < g->blocks[b].npred; k++)
		if (cx->rpo_index[pr[k]] >= cx->rpo_index[b] ||
		    g->blocks[pr[k]].func != g->blocks[b].func)
			return true;
	return false;
}

/* The constant exit k of loop L tests against, if it tests one. */
static bool exit_const(const struct scev_ctx *cx, const struct scev_loop *L, uint32_t k,
		       uint64_t *c)
{
	const struct bpf_insn *i = &cx->insns[cx->st.cfg->blocks[L->exits[k].from].last];

	if (!ebpf_is_cond_jmp(i) || ebpf_srcbit(i) != BPF_K)
		return false;
	*c = ebpf_class(i) == BPF_JMP32 ? (uint32_t)i->imm : (uint64_t)(int64_t)i->imm;
	return true;
}

/* Whether widen_to_bounds may narrow anything at to: a loop's header, with an exit test
 * against a constant (without one, nothing is a threshold; the header state before the join
 * need not be kept). */
static bool has_bounds(const struct scev_ctx *cx, uint32_t to)
{
	uint32_t l = cx->st.loops->loop_of[to];
	const struct scev_loop *L;
	uint64_t c;

	if (l == SCEV_NONE || cx->st.loops->loops[l].header != to)
		return false;
	L = &cx->st.loops->loops[l];
	for (uint32_t k = 0; k < L->nexits; k++)
		if (exit_const(cx, L, k, &c))
			return true;
	return false;
}

/* Widening with thresholds in the first pass: a register whose upper bound the widening at
 * the header of a loop (one has_bounds admits) raised past the join stops instead at the
 * smallest constant that an exit test of that loop compares with, when that still covers the
 * join (pre is the header's value before it, st the value joined; each threshold is passed at
 * most once, so the fixpoint still ends).  Loops counting to a constant keep their counters
 * bounded, and stores indexed by them stay placed in the frame: the may-write spans of the
 * symbolic execution no longer cover the whole frame. */
static inline __attribute__((always_inline)) bool
bound_reg(const struct scev_ctx *cx, const struct scev_loop *L, struct aval *h,
	  const struct aval *pre, const struct aval *st)
{
	struct aval j;
	uint64_t t;

	if (h->kind != AV_SCALAR)
		return false;
	j = aval_join(pre, st);
	if (j.kind != AV_SCALAR || h->r.umax <= j.r.umax)
		return false;	/* (not widened past the join) */
	t = h->r.umax;
	for (uint32_t k = 0; k < L->nexits; k++) {
		uint64_t c;

		if (exit_const(cx, L, k, &c) && c >= j.r.umax && c < t)
			t = c;
	}
	if (t < h->r.umax) {
		struct range b = range_urange(0, t);

		h->r = range_meet(&h->r, &b);
		return true;
	}
	return false;
}

/* bound_reg for every register of the header `to` after a widening join of st; the registers
 * it narrowed. */
static uint16_t widen_to_bounds(struct engine *en, uint32_t to, const struct aval *pre,
				const struct astate *st)
{
	struct scev_ctx *cx = en->cx;
	const struct scev_loop *L = &cx->st.loops->loops[cx->st.loops->loop_of[to]];
	uint16_t m = 0;

	for (int r = 0; r < EBPF_REG_FP; r++)
		if (bound_reg(cx, L, &en->in[to]->regs[r], &pre[r], &st->regs[r]))
			m |= (uint16_t)(1u << r);
	return m;
}

/* Loops whose back edges the last pass never reached with a live state: the states cover
 * every execution, so no run takes one, and the header runs once per entry — a loop the
 * compiler left with a back edge that its own exit test always cuts (`do { ... } while (x <
 * 8)` with x known below 8 only after the body).  Reducible loops only: a cycle of an
 * irreducible one may go round through its other entry without a back edge to its header. */
static int once_loops(struct engine *en)
{
	const struct scev_loops *lf = en->cx->st.loops;

	for (uint32_t l = 0; l < lf->nloops; l++) {
		struct claim_trip *t = loop_trip(en, l);

		if (lf->loops[l].irreducible || en->back_live[l] || !en->res[l].visited ||
		    (t->kind == TRIP_EXACT && t->max == 1))
			continue;
		claim_trip__free_text(t);
		*t = (struct claim_trip){ .kind = TRIP_EXACT, .max = 1, .min = 1 };
		if (claim_trip__set_text(&t->expr, "1 (no back edge is ever taken)"))
			return -ENOMEM;
	}
	return 0;
}

static uint16_t loop_step_regs(struct engine *en, uint32_t b);

/* The registers the last instruction of block b compares, when it is a conditional jump (a
 * loop steps none of them: propagate's test before accelerate's). */
static inline uint16_t jump_regs(const struct scev_ctx *cx, uint32_t b)
{
	const struct bpf_insn *j = &cx->insns[cx->st.cfg->blocks[b].last];

	return (uint16_t)(1u << j->dst_reg | (ebpf_srcbit(j) == BPF_X ? 1u << j->src_reg : 0));
}
static int accelerate(struct engine *en, uint32_t b, uint16_t m, bool thresholds,
		      uint32_t *lowest);

static int propagate(struct engine *en, uint32_t from, uint32_t to, const struct astate *st,
		     uint32_t *lowest)
{
	struct scev_ctx *cx = en->cx;
	uint32_t l;
	int ch;

	if (!st->live)
		return 0;
	/* Into the side-entry region of an irreducible loop from outside it: kept apart too, for
	 * the header's first visits (side_arrivals). */
	l = cx->st.loops->loop_of[to];
	if (!cx->first_pass && l != SCEV_NONE && cx->st.loops->loops[l].irreducible &&
	    !scev_loop__contains(cx->st.loops, l, from) && reentry_flat(cx, l) &&
	    reentry_block(cx, l, to)) {
		if (!st_get(en->cx, en->side, to))
			return -ENOMEM;
		if ((ch = astate__join(en->side[to], st, en->visits[to] >= 2)) < 0)
			return ch;
		if (ch)
			queue(en, cx->st.loops->loops[l].header, lowest);
	}
	if (absint_is_header(cx, to, &l) && scev_loop__contains(cx->st.loops, l, from) &&
	    (!reentry_block(cx, l, from) || reentry_flat(cx, l))) {
		/* A back edge: the header step covers every iteration, except for what the
		 * iterate strategy takes from the back edges, and the iterators' lifecycle. */
		const struct astate *h = st_peek(en->hdr, l);

		if (!en->back_seen[l] || life_grows(&en->it_back[l], &st->it) ||
		    life_grows(&en->ref_back[l], &st->ref) ||
		    life_grows(&en->dp_back[l], &st->dp) || life_grows(&en->dpr_back[l], &st->dpr)) {
			if (en->back_seen[l]) {
				life_join(&en->it_back[l], &st->it);
				life_join(&en->ref_back[l], &st->ref);
				life_join(&en->dp_back[l], &st->dp);
				life_join(&en->dpr_back[l], &st->dpr);
			} else {
				en->it_back[l] = st->it;
				en->ref_back[l] = st->ref;
				en->dp_back[l] = st->dp;
				en->dpr_back[l] = st->dpr;
			}
			en->back_seen[l] = 1;
			if (life_grows(&h->it, &st->it) || life_grows(&h->ref, &st->ref) ||
			    life_grows(&h->dp, &st->dp) || life_grows(&h->dpr, &st->dpr))
				queue(en, to, lowest);
		}
		en->back_live[l] = 1;
		if (cx->opts.strategy != SCEV_ITERATE || cx->first_pass)
			return 0;
		ch = st_get(en->cx, en->back, l) ? astate__join(en->back[l], st, en->visits[to] > 2)
					  : -ENOMEM;
	} else if (!cx->first_pass && !scev_loop__contains_block(cx, from, to)) {
		/* leaving loops: exact exit values where the trip counts are exact */
		struct astate x;

		if (!en->in[to]) {
			/* a first arrival, refined where it lands: one copy of the state, not
			 * two (absint_refine_exit reads the states of the headers of the loops
			 * left, never to's, and leaves st live: the copy st_copy_new made) */
			if ((ch = st_copy_new(en->cx, en->in, to, st)) >= 0 &&
			    (ch = absint_refine_exit(en, from, to, en->in[to])) == 0)
				ch = 1;
			if (ch < 0)
				return ch;
		} else {
			astate__none(&x);
			if ((ch = astate__copy(&x, st)) ||
			    (ch = absint_refine_exit(en, from, to, &x))) {
				astate__free(&x);
				return ch;
			}
			ch = astate__join(en->in[to], &x, en->visits[to] >= 2);
			astate__free(&x);
		}
	} else {
		bool widen = en->visits[to] >= 2 && (!cx->first_pass || widen_point(cx, to));
		bool thresholds = widen && cx->first_pass && en->in[to] && has_bounds(cx, to);
		bool steps = widen && cx->first_pass && from == to && !cx->opts.every_visit;
		struct aval pre[EBPF_NREGS];
		uint16_t grew = 0;	/* (steps: the registers the join changed) */

		/* (the first pass's back edges reached: first_hdr's once) */
		if (cx->first_pass && (l = cx->st.loops->loop_of[to]) != SCEV_NONE &&
		    cx->st.loops->loops[l].header == to && scev_loop__contains(cx->st.loops, l, from))
			en->back_live[l] = 1;
		if (thresholds)
			memcpy(pre, en->in[to]->regs, sizeof(pre));
		/* (a first arrival is a copy: st_copy_new, st being live) */
		if (!(ch = st_copy_new(en->cx, en->in, to, st)))
			ch = st_get(en->cx, en->in, to) ?
				astate__join_regs(en->in[to], st, widen, UINT16_MAX, steps ? &grew : NULL)
				: -ENOMEM;
		if (ch > 0 && thresholds)
			grew |= widen_to_bounds(en, to, pre, st);
		if (ch > 0 && steps && grew && !(grew & jump_regs(cx, to))) {
			int a = accelerate(en, to, grew, thresholds, lowest);

			if (a)
				return a < 0 ? a : 0;	/* (the visits it stands for are done) */
		}
	}
	if (ch < 0)
		return ch;
	if (ch) {
		en->entry_gen[to]++;
		queue(en, to, lowest);
	}
	return 0;
}

/* 'data + x OP data_end' tells how much packet there is on one arm, as the kernel's
 * find_good_pkt_pointers gives it only to the holders of the compared pointer's id: when x is
 * base_X + c, at least c bytes follow base_X; when x has no variable part (aval.h), at least
 * min(x) bytes follow data, and else nothing (`data + var <= data_end` proves nothing of
 * data + k: the kernel refuses the access).  Neither when x may exceed the kernel's
 * MAX_PACKET_OFF (0xffff: there data + x may also wrap), nor from a fixed offset of 0 with
 * x < data_end, which gives the kernel no range either (find_good_pkt_pointers returns). */
static void pkt_refine(uint8_t op, bool is32, bool taken, const struct aval *a,
		       const struct aval *b, struct astate *t)
{
	uint64_t *pkt_min = &t->pkt_min;
	const struct aval *p = a, *e = b;
	bool le;	/* the arm on which p <= e (le) or p < e (!le) holds */
	uint64_t need;

	if (is32)
		return;
	/* data_meta + x OP data (the kernel's PTR_TO_PACKET_META against the packet's start) */
	if (a->kind == AV_PTR && b->kind == AV_PTR && !a->maybe_null && !b->maybe_null &&
	    ((a->region == REGION_PKT_META && b->region == REGION_PKT) ||
	     (a->region == REGION_PKT && b->region == REGION_PKT_META))) {
		const struct aval *m = a->region == REGION_PKT_META ? a : b;
		const struct aval *d = m == a ? b : a;

		if (m != a)
			op = trip_swap(op);
		/* (find_good_pkt_pointers as for data_end below, the data_meta pointer's range its
		 * id's: bpfscev keeps no ids of data_meta, so only data_meta plus a constant proves,
		 * what data_meta itself and its constant offsets hold; aud25, verifier_meta_access.c
		 * test9: data_meta + 0x10000 <= data was taken as 0x10000 bytes) */
		if (!range_is_const(&d->r) || d->r.umin != 0 || !aval_pkt_novar(d) ||
		    !range_is_const(&m->r) || m->r.smin < 0 || m->r.umax > PKT_MAX_OFF)
			return;
		switch (op) {
		case BPF_JGT: case BPF_JSGT: if (taken) return; le = true; break;
		case BPF_JGE: case BPF_JSGE: if (taken) return; le = false; break;
		case BPF_JLT: case BPF_JSLT: if (!taken) return; le = false; break;
		case BPF_JLE: case BPF_JSLE: if (!taken) return; le = true; break;
		default: return;
		}
		if (!le && m->r.smin == 0)
			return;	/* (data_meta < data: no range either) */
		astate__pkt_prove(t, PKT_META_ID, (uint64_t)m->r.smin + (le ? 0 : 1));
		return;
	}
	if (a->kind == AV_PTR && a->region == REGION_PKT_END) {
		p = b;
		e = a;
		op = trip_swap(op);
	}
	if (p->kind != AV_PTR || p->region != REGION_PKT || p->maybe_null ||
	    e->kind != AV_PTR || e->region != REGION_PKT_END || !range_is_const(&e->r) ||
	    e->r.umin != 0 || p->r.smin < 0)
		return;
	switch (op) {
	case BPF_JGT: case BPF_JSGT: if (taken) return; le = true; break;	/* p <= e */
	case BPF_JGE: case BPF_JSGE: if (taken) return; le = false; break;	/* p < e */
	case BPF_JLT: case BPF_JSLT: if (!taken) return; le = false; break;
	case BPF_JLE: case BPF_JSLE: if (!taken) return; le = true; break;
	default: return;
	}
	/* (a fixed offset of 0 with p < data_end gives the kernel nothing either) */
	if (p->r.umax > PKT_MAX_OFF)
		return;
	if (p->id && aval_pkt_c(p) > 0)
		astate__pkt_prove(t, p->id, (uint64_t)(aval_pkt_c(p) + (le ? 0 : 1)));
	if (!aval_pkt_novar(p) || (!le && p->r.smin == 0))
		return;
	need = (uint64_t)p->r.smin + (le ? 0 : 1);
	astate__pkt_prove(t, 0, need);	/* data + need <= data_end, on this path */
	if (need > *pkt_min)
		*pkt_min = need;
}

/* 'x < len' where len + c <= L (aval.h: a scalar's relation to the packet's length L) gives
 * x + c + 1 <= L on that arm, 'x <= len' and 'x == len' x + c <= L: comparisons of 64 bits
 * unsigned; signed ones when the smaller side is not negative (then neither is); 32-bit ones
 * unsigned when both sides fit in 32 bits (a and b as refined for the arm). */
static void pkt_len_refine(uint8_t op, bool is32, bool taken, struct aval *a, struct aval *b)
{
	struct aval *lo, *hi;
	bool strict, sign = false;
	uint16_t c;

	switch (op) {
	case BPF_JSLT: sign = true; /* fallthrough */
	case BPF_JLT: lo = taken ? a : b; hi = taken ? b : a; strict = taken; break;
	case BPF_JSLE: sign = true; /* fallthrough */
	case BPF_JLE: lo = taken ? a : b; hi = taken ? b : a; strict = !taken; break;
	case BPF_JSGT: sign = true; /* fallthrough */
	case BPF_JGT: lo = taken ? b : a; hi = taken ? a : b; strict = taken; break;
	case BPF_JSGE: sign = true; /* fallthrough */
	case BPF_JGE: lo = taken ? b : a; hi = taken ? a : b; strict = !taken; break;
	case BPF_JEQ: case BPF_JNE:
		if (taken != (op == BPF_JEQ) || is32)
			return;
		if (aval_pkt_len(a, &c))
			aval_set_pkt_len(b, c);
		if (aval_pkt_len(b, &c))
			aval_set_pkt_len(a, c);
		return;
	default:
		return;
	}
	if (lo->kind != AV_SCALAR || !aval_pkt_len(hi, &c))
		return;
	if (sign && (is32 || lo->r.smin < 0))
		return;
	if (is32 && (lo->r.umax > UINT32_MAX || hi->r.umax > UINT32_MAX))
		return;
	aval_set_pkt_len(lo, (uint64_t)c + strict);
}

/* Whether one of a and b is a pointer that may be NULL and the other a number. */
static bool null_vs_scalar(const struct aval *a, const struct aval *b)
{
	return (a->kind == AV_PTR && a->maybe_null && b->kind == AV_SCALAR) ||
	       (b->kind == AV_PTR && b->maybe_null && a->kind == AV_SCALAR);
}

/* Whether maybe-null pointer p keeps its id once not NULL: a map value whose map holds a spin
 * lock (reg_may_point_to_spin_lock: the id names the lock, absint_lock.c). */
static bool lock_id(const struct scev_ctx *cx, const struct aval *p)
{
	return p->kind == AV_PTR && p->region == REGION_MAP_VALUE && p->id &&
	       absint_lock_map(cx, p->map);
}

/* A null check that decided the maybe-null pointer before (now after) decides its copies. */
static inline __attribute__((always_inline)) void
settle_copies(const struct scev_ctx *cx, struct astate *t, const struct aval *before,
	      const struct aval *after)
{
	if (before->kind == AV_PTR && before->maybe_null && before->id &&
	    !(after->kind == AV_PTR && after->maybe_null)) {
		astate__settle_null(t, before->id, after->kind != AV_PTR,
				    lock_id(cx, before) || absint_ref_keep_id(cx, before));
		absint_ref_null(cx, t, before, after->kind != AV_PTR);	/* (a ringbuf record) */
	}
}

/* Whether block b filled register reg from the 8-byte stack cell at fp + *off, with no
 * instruction between the fill and the block's final jump writing the register or any memory
 * (no store, atomic or call). */
static bool block_fill_scan(const struct scev_ctx *cx, uint32_t b, uint8_t reg, int16_t *off)
{
	const struct scev_block *blk = &cx->st.cfg->blocks[b];
	uint32_t fill = UINT32_MAX;

	for (uint32_t pc = blk->first; pc < blk->last; pc += ebpf_insn_slots(&cx->insns[pc])) {
		const struct bpf_insn *i = &cx->insns[pc];
		uint8_t cls = ebpf_class(i);

		if (cls == BPF_ST || cls == BPF_STX || ebpf_is_call(i)) {
			fill = UINT32_MAX;	/* memory may change: an earlier fill links nothing */
			continue;
		}
		if (!(ebpf_regs_written(i) & (1u << reg)))
			continue;
		fill = i->code == (BPF_LDX | BPF_MEM | BPF_DW) && i->src_reg == EBPF_REG_FP &&
		       i->dst_reg == reg ? pc : UINT32_MAX;
	}
	if (fill == UINT32_MAX)
		return false;
	*off = cx->insns[fill].off;
	return true;
}

/* Whether block b's jump compares (side 0: its dst_reg, 1: its src_reg) a register filled
 * from the 8-byte cell at fp + *off (block_fill_scan), computed once per block and pass: a
 * block's arms are sent at each of its visits. */
static bool block_fill(struct engine *en, uint32_t b, int side, int16_t *off)
{
	struct jump_fill *f = &en->jfill[b];

	if (!(f->has & JFILL_KNOWN)) {
		const struct scev_ctx *cx = en->cx;
		const struct bpf_insn *j = &cx->insns[cx->st.cfg->blocks[b].last];

		f->has = JFILL_KNOWN;
		if (block_fill_scan(cx, b, j->dst_reg, &f->off[0]))
			f->has |= JFILL_DST;
		if (ebpf_srcbit(j) == BPF_X && block_fill_scan(cx, b, j->src_reg, &f->off[1]))
			f->has |= JFILL_SRC;
	}
	*off = f->off[side];
	return f->has & (side ? JFILL_SRC : JFILL_DST);
}

/* A register a conditional jump compares that block b filled from an 8-byte stack cell
 * (block_fill): the cell holds the register's value on every run there, so the arm's narrowing
 * of the register narrows the cell too (the kernel's linked scalars: a fill gives the register
 * the spilled slot's id).  The exit test `r1 = fp[-56]; if r0 != r1` then tells the state that
 * goes round which bounds the cell holds, not only the register. */
static void narrow_filled_cell(struct engine *en, uint32_t b, int side, uint8_t reg,
			       const struct aval *v, struct astate *s)
{
	int16_t off;

	/* (no cell to narrow: the block's scan is not needed) */
	if (v->kind != AV_SCALAR || reg == EBPF_REG_FP || !s->n || !block_fill(en, b, side, &off))
		return;
	for (uint32_t k = 0; k < s->n; k++) {
		struct acell *c = &s->cells[k];

		if (c->off == off && c->size == 8 && c->v.kind == AV_SCALAR &&
		    aval_subset(v, &c->v))
			c->v = *v;
	}
}

/* The registers and 8-byte stack slots linked to the register a conditional jump of block b
 * compares (side 0: its dst_reg, 1: its src_reg; links.h) hold its number plus their delta on
 * every run there, so the arm's bound v on it bounds them too (the kernel's sync_linked_regs:
 * `r2 = r0; if r0 s> 20 goto out; if r2 s< 0 goto out` leaves both in [0, 20]).  Numbers only;
 * a slot without a cell of its 8 bytes (or of a narrow spill's, below) stays unknown.  False
 * when one of them cannot hold such a number: the arm cannot run. */
static bool narrow_linked(struct engine *en, uint32_t b, int side, const struct aval *v,
			  struct astate *s)
{
	uint32_t n;
	const struct scev_link *l;

	/* (a program with no register copy and no spill has no links: compute_links) */
	if (v->kind != AV_SCALAR || !en->cx->links)
		return true;
	l = scev_links__at_jump(en->cx->links, b, side, &n);
	for (uint32_t k = 0; k < n; k++) {
		struct aval w = *v, *x = NULL, c = aval_const((uint64_t)l[k].delta);
		bool w32 = l[k].w32 & (LINK_W32 | LINK_FROM_W32);

		if (l[k].delta || w32)	/* (a 32-bit add zero-extends) */
			w = aval_alu(BPF_ADD, !w32, false, v, &c);
		if (l[k].loc < LINK_REGS) {
			x = &s->regs[l[k].loc];
		} else {
			int16_t off = (int16_t)(-8 * (l[k].loc - LINK_REGS + 1));

			/* a spill of 4, 2 or 1 bytes (links.c) leaves a cell that narrow at the
			 * slot's start, holding the number's low bytes: the number itself when the
			 * arm's bound says it fits in them */
			for (uint32_t c = 0; c < s->n && !x; c++)
				if (s->cells[c].off == off &&
				    (s->cells[c].size == 8 ||
				     (s->cells[c].size < 8 && w.kind == AV_SCALAR &&
				      w.r.umax >> (8 * s->cells[c].size) == 0)))
					x = &s->cells[c].v;
		}
		if (!x || x->kind != AV_SCALAR || w.kind != AV_SCALAR)
			continue;
		/* only its low 32 bits known: the whole when the upper half is 0 */
		if (l[k].w32 == LINK_FROM_W32 && x->r.umax > UINT32_MAX)
			continue;
		if (!range_refine(BPF_JEQ, false, true, &x->r, &w.r))
			return false;
	}
	return true;
}

/* The kernel's jeq inference (check_cond_jmp_op, verifier_jeq_infer_not_null.c): on the equal
 * arm of "if a == b" or "if a != b" (64-bit, two registers) where both are pointers and exactly
 * one may be NULL, the one that may be NULL is not (mark_ptr_not_null_reg): that register alone,
 * not the copies sharing its id.  Only map values or sockets on both sides: 6.18 accepts map
 * value against map value (cil25) and socket against socket (verifier_jeq_infer_not_null.c's
 * socket_for_jne_false_branch / _jeq_true_branch, hlp25), and refuses the read when the one
 * not NULL is the stack or the context (its source excludes PTR_TO_BTF_ID too), so nothing
 * else is inferred. */
static void ptr_eq_not_null(uint8_t op, struct aval *a, struct aval *b)
{
	struct aval *p = a->maybe_null ? a : b;

	if ((op != BPF_JEQ && op != BPF_JNE) || a->kind != AV_PTR || b->kind != AV_PTR ||
	    a->maybe_null == b->maybe_null)
		return;
	if ((a->region != REGION_MAP_VALUE && a->region != REGION_SOCK) ||
	    (b->region != REGION_MAP_VALUE && b->region != REGION_SOCK))
		return;
	p->maybe_null = false;
	p->id = 0;
}

/* Where send_succs() sends each successor's state: the forward pass or a side run. */
typedef int (*send_fn)(struct engine *en, uint32_t from, uint32_t to, const struct astate *st,
		       void *arg);

/* Sends the state s at the end of block b (before its final jump or call) to b's successors,
 * each arm of a conditional jump narrowed by its condition; s is the callers' no more (the last
 * arm is narrowed in it). */
static int send_succs(struct engine *en, uint32_t b, struct astate *s, send_fn send, void *arg)
{
	struct scev_ctx *cx = en->cx;
	const struct scev_block *blk = &cx->st.cfg->blocks[b];
	const struct bpf_insn *last = &cx->insns[blk->last];
	struct astate t;
	int err = 0;

	astate__none(&t);
	st_cells_lend(cx, &t);

	if (ebpf_is_cond_jmp(last) && ebpf_op(last) != BPF_JCOND && blk->nsucc == 2) {
		bool is32 = ebpf_class(last) == BPF_JMP32;
		struct aval kb = aval_const(is32 ? (uint32_t)last->imm : (uint64_t)(int64_t)last->imm);
		bool x = ebpf_srcbit(last) == BPF_X;
		int outcome = aval_branch_outcome(ebpf_op(last), is32, &s->regs[last->dst_reg],
						  x ? &s->regs[last->src_reg] : &kb);

		for (int taken = 0; taken < 2 && !err; taken++) {
			struct aval a, bb, a0, b0;
			struct astate *u = s;

			if (outcome == !taken)
				continue;	/* this arm cannot run */
			/* the last arm to run narrows s itself (the callers are done with it) */
			if (!taken && outcome != 0) {
				if ((err = astate__copy(&t, s)))
					break;
				u = &t;
			}
			a = u->regs[last->dst_reg];
			bb = x ? u->regs[last->src_reg] : kb;
			a0 = a;
			b0 = bb;
			pkt_refine(ebpf_op(last), is32, taken, &a, &bb, u);
			/* (a pointer that may be NULL compared with a register holding a number is
			 * no null check: the kernel takes one against the immediate 0 only,
			 * check_cond_jmp_op, and refines neither side) */
			if (!(x && null_vs_scalar(&a, &bb)) &&
			    !aval_refine(ebpf_op(last), is32, taken, &a, &bb))
				continue;
			if (x && last->src_reg != last->dst_reg)
				pkt_len_refine(ebpf_op(last), is32, taken, &a, &bb);
			settle_copies(cx, u, &a0, &a);
			settle_copies(cx, u, &b0, &bb);
			/* (aval_refine drops the id of the register it settles) */
			if (a.kind == AV_PTR && !a.maybe_null && a0.maybe_null &&
			    (lock_id(cx, &a0) || absint_ref_keep_id(cx, &a0)))
				a.id = a0.id;
			if (bb.kind == AV_PTR && !bb.maybe_null && b0.maybe_null &&
			    (lock_id(cx, &b0) || absint_ref_keep_id(cx, &b0)))
				bb.id = b0.id;
			if (x && !is32 && taken == (ebpf_op(last) == BPF_JEQ))
				ptr_eq_not_null(ebpf_op(last), &a, &bb);
			if (x)
				u->regs[last->src_reg] = bb;
			u->regs[last->dst_reg] = a;
			if (x)
				narrow_filled_cell(en, b, 1, last->src_reg, &bb, u);
			narrow_filled_cell(en, b, 0, last->dst_reg, &a, u);
			if ((x && !narrow_linked(en, b, 1, &bb, u)) ||
			    !narrow_linked(en, b, 0, &a, u))
				continue;	/* (a linked value cannot take the bound) */
			astate__pkt_guards_settle(u);
			astate__nn_settle(u);
			if (u->dpg)
				absint_dynptr_guard_branch(u);
			err = send(en, b, blk->succ[taken], u, arg);
			if (!taken)
				en->arm0 = u;	/* (for accelerate: t, or s when the jump cannot run) */
		}
		en->arm0 = NULL;
	} else {
		/* the caller stopped before a final jump or call; only a call changes state */
		if (ebpf_is_call(last))
			err = absint_step(en, s, blk->last);
		for (unsigned k = 0; k < blk->nsucc && !err; k++)
			err = send(en, b, blk->succ[k], s, arg);
	}
	st_cells_return(cx, &t);
	return err;
}

static int send_propagate(struct engine *en, uint32_t from, uint32_t to, const struct astate *st,
			  void *arg)
{
	return propagate(en, from, to, st, arg);
}

/* Runs the instructions of block b on s, up to its final jump (or call). */
static int run_insns(struct engine *en, uint32_t b, struct astate *s, bool emit)
{
	struct scev_ctx *cx = en->cx;
	const struct scev_block *blk = &cx->st.cfg->blocks[b];
	int err;

	for (uint32_t pc = blk->first; pc <= blk->last; pc += ebpf_insn_slots(&cx->insns[pc])) {
		if (emit)
			absint_put_claims(en, s, pc);
		if (pc == blk->last && ebpf_is_jmp(&cx->insns[pc]))
			break;
		if ((err = absint_step(en, s, pc)))
			return err;
	}
	return 0;
}

/* ---- one-block loops: the first pass's widening climb of registers that only step ----
 *
 * The first pass iterates a loop to its widened fixpoint: each visit of the header copies,
 * runs and joins whole states, and a register that only steps (`r0 += 3`, read by nothing)
 * takes one visit per widening threshold it passes (2^31 - 1, 2^32 - 1, 2^63 - 1, 2^64 - 1),
 * then one more to find that nothing grew.  In a loop of one block made of register operations
 * (ALU, ALU64, a 64-bit immediate number) and a conditional jump back to itself, such a
 * register r ("steps": exactly one instruction writes it, r = r op K with a constant K, and no
 * other instruction nor the jump reads it) moves by itself: once a widening join at the header
 * grew nothing but stepping registers, every other register, cell and fact of the next visits
 * is what it was in this one (their inputs did not change, and r is read by none of them), the
 * jump takes the same arms, and r's value at the header follows x -> x ∇ (x op K) (with the
 * thresholds of widen_to_bounds) alone.  accelerate computes that sequence with the functions
 * the visits would call (aval_alu, astate__join_val, bound_reg), sets the header to where it
 * stops and sends the exit of the visit that would find nothing grew — this visit's exit with
 * the stepping registers' last values — instead of running those visits.  The header's state
 * is exactly the one the visits reach.  The exit block receives that last exit, which contains
 * every skipped visit's (checked: else nothing is skipped), where the visits would have joined
 * each of them in turn: a sound value either way, and the same one whenever that last value
 * absorbs the others, as the unknown number a counter climbs to does. */

#define ACCEL_INSNS 16	/* longest block looked at */
#define ACCEL_STEPS 8	/* widening steps computed before giving up (4 thresholds and one) */
#define STEP_REGS_KNOWN 0x8000u

/* The registers one-block loop b (its jump goes back to b, its fall-through out) only steps,
 * when every other instruction of it is a register operation; 0 if none. */
static uint16_t step_regs(const struct scev_ctx *cx, uint32_t b)
{
	const struct scev_block *blk = &cx->st.cfg->blocks[b];
	const struct bpf_insn *last = &cx->insns[blk->last];
	uint32_t read = ebpf_regs_read(last), once = 0, more = 0;

	if (!ebpf_is_cond_jmp(last) || ebpf_op(last) == BPF_JCOND || blk->nsucc != 2 ||
	    blk->succ[1] != b || blk->succ[0] == b || blk->last - blk->first >= ACCEL_INSNS)
		return 0;
	for (uint32_t pc = blk->first; pc < blk->last; pc += ebpf_insn_slots(&cx->insns[pc])) {
		const struct bpf_insn *i = &cx->insns[pc];
		uint8_t cls = ebpf_class(i), op = ebpf_op(i);
		uint32_t w = ebpf_regs_written(i);

		if (cls != BPF_ALU && cls != BPF_ALU64 && !(ebpf_is_ldimm64(i) && !i->src_reg))
			return 0;
		more |= once & w;
		once |= w;
		if (cls != BPF_LD && ebpf_srcbit(i) == BPF_K && op != BPF_MOV && op != BPF_NEG &&
		    op != BPF_END)
			continue;	/* r op= K: reads only the r it writes */
		read |= ebpf_regs_read(i);
		more |= w;	/* (written otherwise) */
	}
	return (uint16_t)(once & ~more & ~read);
}

/* The instruction of one-block loop b that writes register r. */
static const struct bpf_insn *step_insn(const struct scev_ctx *cx, uint32_t b, int r)
{
	const struct scev_block *blk = &cx->st.cfg->blocks[b];
	uint32_t pc = blk->first;

	while (!(ebpf_regs_written(&cx->insns[pc]) >> r & 1))
		pc += ebpf_insn_slots(&cx->insns[pc]);
	return &cx->insns[pc];
}

/* x op K, as absint_step computes it for a number x without a packet relation. */
static struct aval step_value(const struct bpf_insn *i, const struct aval *x)
{
	bool is64 = ebpf_class(i) == BPF_ALU64;
	struct aval k = aval_const(is64 ? (uint64_t)(int64_t)i->imm : (uint32_t)i->imm);
	struct aval v = aval_alu(ebpf_op(i), is64, i->off == 1, x, &k);

	v.src = SRC_FLOW;
	return v;
}

/* step_regs of the header b of a one-block loop, once per pass; 0 for other blocks. */
static uint16_t loop_step_regs(struct engine *en, uint32_t b)
{
	const struct scev_loops *lf = en->cx->st.loops;
	uint32_t l = lf->loop_of[b];

	if (l == SCEV_NONE || lf->loops[l].header != b || lf->loops[l].nblocks != 1 ||
	    lf->loops[l].irreducible)
		return 0;
	if (!(en->step_regs[l] & STEP_REGS_KNOWN))
		en->step_regs[l] = STEP_REGS_KNOWN | step_regs(en->cx, b);
	return en->step_regs[l] & (uint16_t)~STEP_REGS_KNOWN;
}

/* (over the set bits of m only: most masks here have one) */
#define FOR_REGS(r, m)                                                                        \
	for (uint32_t r##_m = (m), r = r##_m ? (uint32_t)__builtin_ctz(r##_m) : 0; r##_m;       \
	     r##_m &= r##_m - 1, r = r##_m ? (uint32_t)__builtin_ctz(r##_m) : 0)

/* After a widening join of the back edge of one-block loop b grew its header in the first pass
 * (propagate) and changed no register but m, which the loop only steps: their values at the
 * visits that would follow, until one grows nothing, set in the header, and that visit's exit
 * sent.  1 when done (the visits need
 * not run), 0 when not, <0 on error.  (Not inlined: its arrays would make propagate's frame,
 * and every call of it, larger.) */
static __attribute__((noinline)) int accelerate(struct engine *en, uint32_t b, uint16_t m,
						 bool thresholds, uint32_t *lowest)
{
	struct scev_ctx *cx = en->cx;
	const struct scev_loop *L = &cx->st.loops->loops[cx->st.loops->loop_of[b]];
	struct astate *h = en->in[b];
	const struct bpf_insn *ins[EBPF_NREGS];
	struct aval R[EBPF_NREGS], N[EBPF_NREGS], F[EBPF_NREGS], out[ACCEL_STEPS][EBPF_NREGS];
	bool all = true;	/* every last value the unknown number (then it holds the others) */
	uint16_t c;
	uint32_t n;
	int err;

	if (m & ~loop_step_regs(en, b))
		return 0;
	for (int k = 0; k < PKT_VARS; k++)
		if (h->pkt_var[k].range)
			return 0;
	FOR_REGS(r, m) {
		if (h->regs[r].kind != AV_SCALAR || aval_pkt_len(&h->regs[r], &c))
			return 0;
		ins[r] = step_insn(cx, b, r);
		R[r] = h->regs[r];
	}
	for (n = 0;; n++) {
		bool grew = false;

		if (n == ACCEL_STEPS)
			return 0;
		FOR_REGS(r, m) {
			F[r] = step_value(ins[r], &R[r]);	/* (its exit's value too) */
			N[r] = R[r];
			if (astate__join_val(&N[r], &F[r], true))
				grew = true;
		}
		if (!grew)
			break;
		FOR_REGS(r, m) {
			if (thresholds && r < EBPF_REG_FP)
				bound_reg(cx, L, &N[r], &R[r], &F[r]);
			out[n][r] = F[r];
			R[r] = N[r];
		}
	}
	/* the skipped visits' exits must lie within the one sent */
	FOR_REGS(r, m)
		all = all && F[r].kind == AV_SCALAR && range_is_unknown(&F[r].r);
	for (uint32_t k = 0; k < n && en->arm0 && !all; k++)
		FOR_REGS(r, m)
			if (!aval_subset(&out[k][r], &F[r]))
				return 0;
	FOR_REGS(r, m)
		h->regs[r] = R[r];
	if (en->arm0) {
		/* this visit's exit (send_succs is done with it) as the last visit's */
		FOR_REGS(r, m)
			en->arm0->regs[r] = F[r];
		if ((err = propagate(en, b, cx->st.cfg->blocks[b].succ[0], en->arm0, lowest)))
			return err;
	}
	return 1;
}

#undef FOR_REGS

struct side_run {
	const struct scev_loop *L;
	const uint8_t *region;
	struct astate *loc;	/* per block of L */
	struct astate *E;
};

static int send_side(struct engine *en, uint32_t from, uint32_t to, const struct astate *st,
		     void *arg)
{
	struct side_run *sr = arg;
	uint32_t at;

	(void)from;
	if (to == sr->L->header)
		return astate__join(sr->E, st, false) < 0 ? -ENOMEM : 0;
	at = scev_loop__block_index(sr->L, to);
	if (at == SCEV_NONE || !sr->region[at])
		return 0;	/* leaves the loop: the forward pass sends that */
	return astate__join(&sr->loc[at], st, false) < 0 ? -ENOMEM : 0;
}

/* The states in which side entries of irreducible loop l first reach its header, joined into
 * E: the region they run through first (absint_reentry_region, flat) is run on its own from the
 * states entering it from outside the loop, apart from the iterations that also pass it. */
#define SIDE_FEW 4

static int side_arrivals(struct engine *en, uint32_t l, struct astate *E)
{
	struct scev_ctx *cx = en->cx;
	const struct scev_loop *L = &cx->st.loops->loops[l];
	struct side_run sr = { L, absint_reentry_region(cx, l), NULL, E };
	/* (a small loop's on the stack: each state unreached, astate__none, which is all a state
	 * that is not live needs; a join into one copies, a copy of one is not live either) */
	struct astate loc_few[SIDE_FEW];
	uint32_t order_few[SIDE_FEW], *order, n = 0;
	int err = 0;

	if (L->nblocks <= SIDE_FEW) {
		for (uint32_t k = 0; k < L->nblocks; k++)
			astate__none(&loc_few[k]);
		sr.loc = loc_few;
		order = order_few;
	} else {
		sr.loc = zalloc(L->nblocks, sizeof(*sr.loc));
		order = malloc(L->nblocks * sizeof(*order));
	}
	if (!sr.loc || !order || !sr.region) {
		if (sr.loc != loc_few)
			free(sr.loc);
		if (order != order_few)
			free(order);
		return -ENOMEM;
	}
	for (uint32_t k = 0; k < L->nblocks; k++)
		if (sr.region[k])
			order[n++] = L->blocks[k];
	err = scev_sort_by_rpo(cx, order, n);
	for (uint32_t i = 0; i < n && !err; i++) {
		uint32_t b = order[i], at = scev_loop__block_index(L, b);
		struct astate st;

		astate__none(&st);
		if ((err = astate__copy(&st, &sr.loc[at])) ||
		    (err = astate__join(&st, st_peek(en->side, b), false) < 0 ? -ENOMEM : 0)) {
			astate__free(&st);
			break;
		}
		if (st.live && !(err = run_insns(en, b, &st, false)))
			err = send_succs(en, b, &st, send_side, &sr);
		astate__free(&st);
	}
	for (uint32_t k = 0; k < L->nblocks; k++)
		astate__free(&sr.loc[k]);
	if (sr.loc != loc_few)
		free(sr.loc);
	if (order != order_few)
		free(order);
	return err;
}

/* The header step of loop l headed by b (run_block): from b's entry state, with the side
 * entries' arrivals kept apart too for an irreducible loop's trip count. */
static int header_step(struct engine *en, uint32_t l, uint32_t b)
{
	struct scev_ctx *cx = en->cx;
	const struct scev_loop *L = &cx->st.loops->loops[l];
	struct astate E, S;
	const struct astate *parts[2] = { st_peek(en->in, b), &S };
	int err;

	if (!(L->irreducible && reentry_flat(cx, l)))
		return st_get(en->cx, en->hdr, l) ?
			absint_header_step(en, l, st_peek(en->in, b), NULL, en->hdr[l]) : -ENOMEM;
	astate__none(&E);
	astate__none(&S);
	if (!(err = side_arrivals(en, l, &S)) && !(err = astate__copy(&E, st_peek(en->in, b))) &&
	    !(err = astate__join(&E, &S, false) < 0 ? -ENOMEM : 0))
		err = st_get(en->cx, en->hdr, l) ? absint_header_step(en, l, &E, parts, en->hdr[l])
						 : -ENOMEM;
	astate__free(&E);
	astate__free(&S);
	return err;
}

/* What the running pass notes at an exit of function f with state s: its dynptrs, the packet
 * it proves and its result (the summaries' *_acc).  An LD_ABS / LD_IND block's exit (cfg.h
 * ld_exit: the load failed, check_ld_abs) returns with r0 = 0 from the state right after the
 * load; no proof of the packet holds there. */
static void note_exit(struct scev_ctx *cx, uint32_t f, const struct astate *s, bool ld_exit)
{
	struct astate z;	/* (ld_exit: s's shallow copy, read, never freed) */

	if (ld_exit) {
		z = *s;
		z.regs[0] = aval_const(0);
		z.init |= 1;
		z.pkt_min = 0;
		for (int k = 0; k < PKT_VARS; k++)
			z.pkt_var[k] = (struct pkt_var){ 0, 0, PKT_NO_GUARD, 0 };
		s = &z;
	}
	absint_dynptr_note_exit(cx, f, s);
	absint_lock_exit(cx, f, s);
	if (!cx->fn_ret_acc)
		return;
	absint_exit_pkt_note(cx, f, s);
	cx->fn_ret_acc[f] = cx->fn_seen_acc[f] & 2 ? aval_join(&cx->fn_ret_acc[f], &s->regs[0])
					       : s->regs[0];
	cx->fn_seen_acc[f] |= 2;
	if (cx->fn_r0_acc && !(s->init & 1))
		cx->fn_r0_acc[f] |= FN_R0_UNSET;
}

/* Runs block b from its state; with emit, records claims before every instruction. */
static int run_block(struct engine *en, uint32_t b, bool emit, uint32_t *lowest)
{
	struct scev_ctx *cx = en->cx;
	const struct scev_block *blk = &cx->st.cfg->blocks[b];
	struct astate s, *const *from;
	const struct bpf_insn *last;
	bool self_exit = false;
	uint32_t l;
	int err;

	astate__none(&s);
	st_cells_lend(cx, &s);
	if (absint_is_header(cx, b, &l)) {
		if (!emit) {
			const struct scev_loop *L = &cx->st.loops->loops[l];

			if ((err = header_step(en, l, b)))
				goto out;
			/* Exact exit values are computed from the entry state: when it grows, the
			 * exits must be sent again even if nothing in the body changes.  Only on
			 * growth, so the worklist still terminates. */
			if (en->entry_gen[b] != en->exits_gen[b]) {
				en->exits_gen[b] = en->entry_gen[b];
				for (uint32_t k = 0; k < L->nexits && lowest; k++)
					if (L->exits[k].from == b &&
					    cx->opts.strategy != SCEV_ITERATE)
						self_exit = true;	/* (below) */
					else if (st_peek(en->in, L->exits[k].from)->live)
						queue(en, L->exits[k].from, lowest);
			}
		}
		from = &en->hdr[l];
	} else {
		from = &en->in[b];
	}
	/* The claims are the block's state's last reader (flush_segment drops it right after,
	 * and the instructions' steps read no other block's state): run them on it, not on a
	 * copy. */
	if (emit && *from) {
		err = run_insns(en, b, *from, true);
		goto out;
	}
	err = astate__copy(&s, st_peek(from, 0));
	/* A state no run has (a loop whose header step left nothing live: an irreducible loop
	 * entered at a side entry whose back edge is never taken) runs nothing: its stores,
	 * calls and exits would note writes into callers' frames through registers the empty
	 * state holds as numbers, arguments and results no run passes (verify_paths and the
	 * claims skip such a block too). */
	if (!err && !s.live)
		goto out;
	if (err || (err = run_insns(en, b, &s, emit)) || emit)
		goto out;
	last = &cx->insns[blk->last];
	if (ebpf_is_exit(last) || blk->ld_exit)
		note_exit(cx, blk->func, &s, blk->ld_exit);
	err = send_succs(en, b, &s, send_propagate, lowest);
	/* The header is an exit of its loop itself: this run has just sent its exits from the
	 * grown entry state.  Queued again for that, it would run once more at once, from the same
	 * states, and send the same states again; only its visit count would change, which later
	 * widening reads.  When its sends queued it or an earlier block (or went wrong), it is
	 * queued as before.  Not under the iterate strategy, whose header step also joins the
	 * back edges' states (the run again is not the same there). */
	if (self_exit) {
		uint32_t pos = cx->rpo_index[b];

		if (!err && !en->queued[pos] && *lowest > pos)
			en->visits[b]++;
		else
			queue(en, b, lowest);
	}
out:
	st_cells_return(cx, &s);
	return err;
}

/* ---- the verdict's path states ----
 *
 * A block's joined state loses what holds only on some of the paths into it: a register that is
 * a map value on one path and a stack pointer on another is unknown after the join, although
 * each path dereferences it safely (the kernel walks the paths apart; Cilium's NAT programs
 * do this).  So the verdict also carries, along every edge into a block where nothing about
 * loops needs the joined state (not a loop header, not in an irreducible loop, not a loop
 * exit: "plain"), up to PATHS_MAX states kept apart by what a join would lose: the kinds of
 * the pointers in live registers (the map for map handles and values, the struct and trust of
 * kernel objects: bpf_iter_ipv6_route's fib6_nh, inside a fib6_info or read through a pointer)
 * and in the cells the
 * function fills registers from, and the values of live registers that are constants (clang's
 * "off = 14 or 18" before one packet check, or "err = 0 or -EINVAL" before "if (!err)").  Each
 * is computed by the same transfer and edge refinement as the forward pass, from its
 * predecessor's path states (or its joined state when the predecessor is not plain).  By
 * induction over the reverse postorder they cover every run that reaches the block, so a block
 * whose joined state fails a check is safe when every path state passes it.  States alike in
 * all of that join (only ranges are lost); past PATHS_MAX see send_path.  A packet fact of one
 * side is kept guarded only by a register live after the join.  By the same induction, a plain
 * block none of whose predecessors' states arrive (every arm into it refuted) is reached by no
 * run, and is not checked from its joined state (Cilium's NAT tail calls: "err = 0 or -22",
 * and the arm where err is -22 past "if 0 s> err" holds data_end spilled in 2 bytes). */

static bool paths_plain(const struct engine *en, uint32_t b)
{
	const struct scev_ctx *cx = en->cx;
	const struct scev_loops *lf = cx->st.loops;
	const struct scev_cfg *cfg = cx->st.cfg;
	const uint32_t *preds = scev_block_preds(cfg, b);
	uint32_t l;

	if (absint_is_header(cx, b, &l) || !cfg->blocks[b].npred)
		return false;
	for (l = lf->loop_of[b]; l != SCEV_NONE; l = lf->loops[l].parent)
		if (lf->loops[l].irreducible)
			return false;
	for (uint32_t k = 0; k < cfg->blocks[b].npred; k++)
		if (!scev_loop__contains_block(cx, preds[k], b))
			return false;
	return true;
}

/* Registers live at each block's start (read before written on some path from it), for
 * path_shape: a dead register's kind does not keep paths apart. */
static int paths_liveness(struct engine *en)
{
	const struct scev_ctx *cx = en->cx;
	const struct scev_cfg *cfg = cx->st.cfg;
	uint32_t n = cx->rpo_off[cfg->nfuncs];
	uint16_t *gen, *kill;
	bool changed = true;

	en->live_in = arena_zalloc(cfg->nblocks ? cfg->nblocks : 1, sizeof(*en->live_in));
	en->fills = arena_zalloc(cfg->nfuncs ? cfg->nfuncs : 1, sizeof(*en->fills));
	gen = arena_zalloc(cfg->nblocks ? cfg->nblocks : 1, 2 * sizeof(*gen));
	if (!en->live_in || !en->fills || !gen) {
		arena_free(gen);
		return -ENOMEM;
	}
	kill = gen + cfg->nblocks;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t b = cx->rpo[i];
		const struct scev_block *blk = &cfg->blocks[b];

		for (uint32_t pc = blk->first; pc <= blk->last;
		     pc += ebpf_insn_slots(&cx->insns[pc])) {
			const struct bpf_insn *ii = &cx->insns[pc];

			if (ebpf_class(ii) == BPF_LDX && ebpf_mode(ii) == BPF_MEM &&
			    ebpf_size(ii) == BPF_DW && ii->src_reg == EBPF_REG_FP && ii->off < 0 &&
			    ii->off >= -EBPF_STACK_SIZE && !(ii->off % 8))
				en->fills[blk->func] |= 1ull << (-ii->off / 8 - 1);
			gen[b] |= (uint16_t)(ebpf_regs_read(&cx->insns[pc]) & ~kill[b]);
			kill[b] |= (uint16_t)ebpf_regs_written(&cx->insns[pc]);
		}
	}
	while (changed) {
		changed = false;
		for (uint32_t i = n; i-- > 0;) {
			uint32_t b = cx->rpo[i];
			const struct scev_block *blk = &cfg->blocks[b];
			uint16_t out = 0, in;

			for (unsigned k = 0; k < blk->nsucc; k++)
				out |= en->live_in[blk->succ[k]];
			in = gen[b] | (out & (uint16_t)~kill[b]);
			if (in != en->live_in[b]) {
				en->live_in[b] = in;
				changed = true;
			}
		}
	}
	arena_free(gen);
	return 0;
}

/* The kinds of a state's pointers, hashed: which path states may join.  Only live registers,
 * and cells the function fills a register from (8-byte loads at r10 - 8(k + 1): bit k of fills),
 * count. */
static uint64_t path_shape(const struct astate *s, uint16_t live, uint64_t fills, bool cells,
			   bool consts)
{
	uint64_t h = 1469598103934665603ull;

#define MIX(x) (h = (h ^ (uint64_t)(x)) * 1099511628211ull)
#define MIX_AVAL(a)                                                                               \
	do {                                                                                      \
		MIX((a)->kind);                                                                   \
		if ((a)->kind == AV_PTR) {                                                        \
			MIX((a)->region);                                                         \
			MIX((a)->maybe_null);                                                     \
			if ((a)->region == REGION_MAP_VALUE || (a)->region == REGION_MAP_HANDLE || \
			    (a)->region == REGION_BTF)                                            \
				MIX((a)->map);                                                    \
		}                                                                                 \
	} while (0)
	for (int r = 0; r < EBPF_NREGS; r++)
		if (live & (1u << r)) {
			const struct aval *a = &s->regs[r];

			MIX_AVAL(a);
			/* (a constant: clang's "off = 14; if (vlan) off = 18" joined, then
			 * "data + off + 4 > data_end" checked — kept apart, each path proves its
			 * bytes; so is a packet pointer at a constant offset, data + c, whose
			 * bytes its own path's check proved: joined, the offsets become a range
			 * and the bytes proven the fewest (Cilium's tail_rev_nodeport_lb6, where
			 * c is a header length, one per path)) */
			if (consts && a->r.umin == a->r.umax &&
			    (a->kind == AV_SCALAR ||
			     (a->kind == AV_PTR && a->region == REGION_PKT && !a->id)))
				MIX(a->r.umin);
		}
	MIX((uint64_t)s->lk.held << 32 | (uint64_t)s->lk.map << 16 | s->lk.id);	/* (a lock) */
	MIX((uint64_t)s->rg.plo << 24 | (uint64_t)s->rg.phi << 16 | s->rg.rlo << 8 | s->rg.rhi);
	MIX(s->ref.may);	/* (ringbuf records held on some path, on every path) */
	MIX(s->ref.must);
	MIX(s->dp.may);		/* (dynptrs live on some path, on every path; the ringbuf ones) */
	MIX(s->dp.must);
	MIX(s->dpr.may);
	MIX(s->dpr.must);
	for (uint32_t k = 0; k < s->n && cells; k++)
		if (s->cells[k].v.kind == AV_PTR && s->cells[k].size == 8 &&
		    s->cells[k].off < 0 && s->cells[k].off >= -EBPF_STACK_SIZE &&
		    !(s->cells[k].off % 8) &&
		    (fills >> (-s->cells[k].off / 8 - 1) & 1)) {
			MIX(s->cells[k].off);
			MIX_AVAL(&s->cells[k].v);
		}
#undef MIX_AVAL
#undef MIX
	return h;
}

/* Adds st to the path states of block to: joined into one alike in all send_path keeps apart,
 * else kept as a new state while fewer than PATHS_MAX are (when full, see below). */
static int send_path(struct engine *en, uint32_t from, uint32_t to, const struct astate *st,
		     void *arg)
{
	struct astate *v = en->paths[to];
	uint8_t n = en->npaths[to], into = n ? n - 1 : 0;
	uint16_t live = en->live_in[to];
	uint64_t fills, h, hf = 0, hk[PATHS_MAX];
	bool kinds = false;	/* (into has the same kinds in registers and fill cells) */
	int err;

	(void)from;
	(void)arg;
	if (!st->live || !paths_plain(en, to))
		return 0;
	if (!v) {
		/* (unreached and without cells, not cleared: astate__copy writes the rest of a
		 * state before anything reads it, and only the first npaths are read or freed) */
		if (!(v = en->paths[to] = malloc(PATHS_MAX * sizeof(*v))))
			return -ENOMEM;
		for (int k = 0; k < PATHS_MAX; k++)
			astate__none(&v[k]);
	}
	fills = en->fills[en->cx->st.cfg->blocks[to].func];
	h = path_shape(st, live, fills, true, false);
	for (uint8_t k = 0; k < n; k++) {
		if ((hk[k] = path_shape(&v[k], live, fills, true, false)) != h)
			continue;
		if (!hf)
			hf = path_shape(st, live, fills, true, true);
		if (path_shape(&v[k], live, fills, true, true) == hf)
			return astate__join_guards(&v[k], st, false, live) < 0 ? -ENOMEM : 0;
		into = k;
		kinds = true;
	}
	if (n < PATHS_MAX) {
		if ((err = astate__copy(&v[n], st)))
			return err;
		en->npaths[to]++;
		return 0;
	}
	/* Full.  The newcomer joins a state of the same kinds (constants are lost); when its
	 * kinds are new, two kept states alike in all kinds are joined instead and it takes the
	 * place freed (a stack pointer spilled on some paths and a map value on others stay
	 * apart); when all kinds differ, it joins one whose registers' kinds match, else the
	 * last.  Which states are kept apart never changes what each covers. */
	for (uint8_t k = 1; k < n && !kinds; k++)
		for (uint8_t j = 0; j < k; j++) {
			if (hk[j] != hk[k])
				continue;
			if (astate__join_guards(&v[j], &v[k], false, live) < 0)
				return -ENOMEM;
			return astate__copy(&v[k], st);
		}
	if (!kinds) {
		h = path_shape(st, live, fills, false, false);
		for (uint8_t k = 0; k < n; k++)
			if (path_shape(&v[k], live, fills, false, false) == h)
				into = k;
	}
	return astate__join_guards(&v[into], st, false, live) < 0 ? -ENOMEM : 0;
}

static void paths_drop(struct engine *en, uint32_t b)
{
	for (uint8_t k = 0; k < en->npaths[b]; k++)
		astate__free(&en->paths[b][k]);
	free(en->paths[b]);
	en->paths[b] = NULL;
	en->npaths[b] = 0;
}

/* The state block b runs from in the last pass: a loop header's is its header step's, which
 * also holds the side entries' first arrivals (side_arrivals) and the iterations after them.
 * An irreducible loop entered only through a side entry has a header whose entry state is not
 * live while its header state is: the header, its loop's termination and everything its state
 * reaches must still be checked. */
static const struct astate *run_state(struct engine *en, uint32_t b)
{
	uint32_t l;

	return absint_is_header(en->cx, b, &l) ? st_peek(en->hdr, l) : st_peek(en->in, b);
}

/* What a block's checks write of a verdict (verdict_fail, the counts): the rest of it (the call
 * graph's limits, the frames, the instruction bounds) is written only around the passes
 * (call_limits.c, scev.c). */
struct verdict_head {
	uint8_t kind;
	uint32_t pc;
	uint64_t checks;
	char reason[sizeof(((struct scev_verdict *)0)->reason)];
};

static void verdict_head_get(struct verdict_head *h, const struct scev_verdict *v)
{
	h->kind = v->kind;
	h->pc = v->pc;
	h->checks = v->checks;
	memcpy(h->reason, v->reason, sizeof(h->reason));
}

static void verdict_head_put(struct scev_verdict *v, const struct verdict_head *h)
{
	v->kind = h->kind;
	v->pc = h->pc;
	v->checks = h->checks;
	memcpy(v->reason, h->reason, sizeof(v->reason));
}

/* The verdict's checks of reachable block b: from its joined (or header) state, and when that
 * fails, from its path states; then its path states go on to its successors.  Until the first
 * failure only: after it, nothing can change the verdict.  With claims, the replay of its joined
 * state also records its claims (the claims run of flush_segment, from the same state, a replay
 * less) and *claimed says so. */
static int verify_block_paths(struct engine *en, uint32_t b, bool claims, bool *claimed)
{
	struct scev_ctx *cx = en->cx;
	const struct scev_block *blk = &cx->st.cfg->blocks[b];
	struct scev_verdict *v = cx->verdict;
	struct astate s;
	bool want = v->kind == VERDICT_SAFE, paths_ok = true;
	uint8_t *kinds = NULL;
	int err;

	if (!en->live_in && (err = paths_liveness(en)))
		return err;
	if (!run_state(en, b)->live) {
		paths_drop(en, b);
		return 0;
	}
	if (cx->live)
		cx->live[b] = 1;
	/* (every predecessor sent what covers its runs and nothing arrived: no run reaches b) */
	if (want && !en->npaths[b] && paths_plain(en, b) &&
	    en->npred_done[b] == cx->st.cfg->blocks[b].npred) {
		paths_drop(en, b);
		return 0;
	}
	astate__none(&s);
	st_cells_lend(cx, &s);	/* (a spare cell array, as run_block's copies take) */
	err = astate__copy(&s, run_state(en, b));
	if (!want || !en->npaths[b]) {
		/* (no path state to check: the join's checks go straight into the verdict, which
		 * nothing below reads before they end; no copy of it, a kilobyte and more) */
		if (!err)
			err = absint_verify_run(en, b, &s, v, NULL, claims);
		*claimed = claims;
		if (!err && want)
			err = send_succs(en, b, &s, send_path, NULL);
		st_cells_return(cx, &s);
		paths_drop(en, b);
		return err;
	}
	/* (the join's and each path's checks run on v itself, between copies of what they write
	 * of it, its head: not on copies of the whole verdict, 6.6 KB with its bounds) */
	struct verdict_head v0, base, first = { .kind = VERDICT_SAFE };

	verdict_head_get(&v0, v);
	if (!err)
		err = absint_verify_run(en, b, &s, v, NULL, claims);
	*claimed = claims;
	verdict_head_get(&base, v);
	if (!err && !(kinds = calloc(blk->last - blk->first + 1, 1)))
		err = -ENOMEM;
	for (uint8_t k = 0; !err && k < en->npaths[b]; k++) {
		verdict_head_put(v, &v0);
		err = absint_verify_run(en, b, &en->paths[b][k], v, kinds, false);
		if (v->kind != VERDICT_SAFE && paths_ok) {
			paths_ok = false;
			verdict_head_get(&first, v);	/* (a path's reason says more than the join's) */
		}
		if (!err)
			err = send_succs(en, b, &en->paths[b][k], send_path, NULL);
	}
	if (!err && base.kind != VERDICT_SAFE && paths_ok) {
		/* every path state passed, unless one instruction takes the context or a kernel
		 * object on one path and other memory on another */
		uint32_t at = blk->last - blk->first + 1;

		for (uint32_t k = 0; k <= blk->last - blk->first; k++)
			if (kinds[k] & (kinds[k] - 1)) {
				at = k;
				break;
			}
		base.kind = VERDICT_SAFE;
		if (at > blk->last - blk->first) {
			base.pc = v0.pc;
			memcpy(base.reason, v0.reason, sizeof(base.reason));
		} else {
			verdict_head_put(v, &base);
			verdict_fail(v, VERDICT_UNSAFE, blk->first + at,
				     kinds[at] & 1 ? "the same instruction accesses the context and "
				     "other memory on different paths" : "the same instruction accesses "
				     "a kernel object and other memory on different paths");
			verdict_head_get(&base, v);
		}
	}
	if (base.kind != VERDICT_SAFE && !paths_ok) {
		first.checks = base.checks;
		base = first;
	}
	verdict_head_put(v, &base);
	free(kinds);
	st_cells_return(cx, &s);
	paths_drop(en, b);
	return err;
}

/* verify_block_paths, and then block b's successors count it done: everything it sends them
 * (its path states, or its joined state when it has none) is sent. */
static int verify_paths(struct engine *en, uint32_t b, bool claims, bool *claimed)
{
	const struct scev_block *blk = &en->cx->st.cfg->blocks[b];
	int err = verify_block_paths(en, b, claims, claimed);

	for (unsigned k = 0; k < blk->nsucc; k++)
		if (!k || blk->succ[k] != blk->succ[0])
			en->npred_done[blk->succ[k]]++;
	return err;
}

/* Whether every item of group g (of PAGE_GROUP, n items in all) is counted in count: the
 * group's entries are cleared and their pages may have been given back (group_done). */
static bool group_complete(const uint16_t *count, uint32_t g, uint32_t n)
{
	uint32_t first = g * PAGE_GROUP;

	return count && count[g] == (n - first < PAGE_GROUP ? n - first : PAGE_GROUP);
}

/* The states still held, and the arrays.  A group of blocks every one of which was flushed (of
 * loops the last pass has left) holds none, and its pages may be given back: reading them again
 * would fault each one in as a fresh zero page, thousands of page faults at the end of a long
 * program's pass (a fifth of all of 1M instructions of counted loops), to find nothing. */
static void engine_free(struct engine *en)
{
	struct scev_ctx *cx = en->cx;
	uint32_t nb = cx->st.cfg->nblocks, nl = cx->st.loops->nloops;

	for (uint32_t b = 0; en->in && b < nb; b++) {
		if (b % PAGE_GROUP == 0 && group_complete(en->flushed_in_group, b / PAGE_GROUP, nb)) {
			b += PAGE_GROUP - 1;
			continue;
		}
		st_drop(en->cx, en->in, b);
		if (en->side)
			st_drop(en->cx, en->side, b);
	}
	for (uint32_t l = 0; l < nl; l++) {
		if (l % PAGE_GROUP == 0 && group_complete(en->left_in_group, l / PAGE_GROUP, nl)) {
			l += PAGE_GROUP - 1;
			continue;
		}
		if (en->back)
			st_drop(en->cx, en->back, l);
		if (en->hdr)
			st_drop(en->cx, en->hdr, l);
	}
	for (uint32_t b = 0; en->paths && b < nb; b++)
		paths_drop(en, b);
	arena_free(en->live_in);
	arena_free(en->fills);
	arena_free(en->cut);
	arena_free(en->in);	/* (the block engine_alloc carved every array from) */
}

/* Places an array of n elements of size bytes at *at (16-byte aligned) and moves *at past it;
 * with base NULL only counts. */
static void *carve(char *base, size_t *at, size_t n, size_t size)
{
	void *p = base ? base + *at : NULL;

	*at += (n * size + 15) & ~(size_t)15;
	return p;
}

/* The per-block and per-loop arrays of a pass, zeroed, in one allocation (a pass over a small
 * program would otherwise spend more in malloc than in some of its blocks); en->in holds it. */
static int engine_alloc(struct engine *en)
{
	const struct scev_ctx *cx = en->cx;
	size_t nb = cx->st.cfg->nblocks ? cx->st.cfg->nblocks : 1;
	size_t nl = cx->st.loops->nloops ? cx->st.loops->nloops : 1;
	bool side = cx->st.loops->nirreducible;	/* (only side entries of irreducible loops) */
	char *base = NULL;

	for (int pass = 0; pass < 2; pass++) {
		size_t at = 0;

		en->in = carve(base, &at, nb, sizeof(*en->in));
		en->back = carve(base, &at, nl, sizeof(*en->back));
		en->hdr = carve(base, &at, nl, sizeof(*en->hdr));
		en->side = side ? carve(base, &at, nb, sizeof(*en->side)) : NULL;
		en->visits = carve(base, &at, nb, sizeof(*en->visits));
		en->entry_gen = carve(base, &at, nb, sizeof(*en->entry_gen));
		en->exits_gen = carve(base, &at, nb, sizeof(*en->exits_gen));
		en->res = carve(base, &at, nl, sizeof(*en->res));
		en->queued = carve(base, &at, nb, 1);
		en->emit = carve(base, &at, nb, 1);
		en->reached = carve(base, &at, nb, 1);
		en->back_live = carve(base, &at, nl, 1);
		en->it_back = carve(base, &at, nl, sizeof(*en->it_back));
		en->ref_back = carve(base, &at, nl, sizeof(*en->ref_back));
		en->dp_back = carve(base, &at, nl, sizeof(*en->dp_back));
		en->dpr_back = carve(base, &at, nl, sizeof(*en->dpr_back));
		en->back_seen = carve(base, &at, nl, 1);
		en->paths = carve(base, &at, nb, sizeof(*en->paths));
		en->npaths = carve(base, &at, nb, 1);
		en->npred_done = carve(base, &at, nb, sizeof(*en->npred_done));
		en->jfill = carve(base, &at, nb, sizeof(*en->jfill));
		en->step_regs = carve(base, &at, nl, sizeof(*en->step_regs));
		en->left_in_group = carve(base, &at, nl / PAGE_GROUP + 1, sizeof(*en->left_in_group));
		en->flushed_in_group =
			carve(base, &at, nb / PAGE_GROUP + 1, sizeof(*en->flushed_in_group));
		if (!pass && !(base = arena_zalloc(1, at)))
			return -ENOMEM;
	}
	return 0;
}

/* Marks en->cut: a position is a cut unless some retreating edge u -> v, or a side entry
 * from u into an irreducible loop (which queues the loop's header v), spans it, i.e. v is
 * before it and u at or after it.  Every loop's blocks lie on cycles, so no cut falls inside a
 * loop's span of positions. */
static int compute_cuts(struct engine *en)
{
	struct scev_ctx *cx = en->cx;
	const struct scev_cfg *cfg = cx->st.cfg;
	const struct scev_loops *lf = cx->st.loops;
	uint32_t n = cx->rpo_off[cfg->nfuncs];
	int32_t *diff = arena_zalloc(n + 1, sizeof(*diff));
	int32_t depth = 0;

	en->cut = arena_alloc(n + 1);
	if (!diff || !en->cut) {
		arena_free(diff);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t u = cx->rpo[i];
		const struct scev_block *blk = &cfg->blocks[u];

		for (unsigned k = 0; k < blk->nsucc; k++) {
			uint32_t v = blk->succ[k], lv = lf->loop_of[v], j = cx->rpo_index[v];

			if (j <= i) {
				diff[j + 1]++;
				diff[i + 1]--;
			}
			if (lv != SCEV_NONE && lf->loops[lv].irreducible &&
			    !scev_loop__contains(lf, lv, u)) {
				j = cx->rpo_index[lf->loops[lv].header];
				if (j != UINT32_MAX && j <= i) {
					diff[j + 1]++;
					diff[i + 1]--;
				}
			}
		}
	}
	for (uint32_t i = 0; i <= n; i++) {
		depth += diff[i];
		en->cut[i] = depth == 0;
	}
	arena_free(diff);
	return 0;
}

/* The entries first .. first + n - 1 of array a, all zero: their pages go back (zalloc.h). */
#define GROUP_RELEASE(a) zero_pages_release((a) + first, n * sizeof(*(a)))

/* Whether item i, of n, completes its group of PAGE_GROUP in count (then *first and *k say
 * which items the group holds). */
static bool group_done(uint16_t *count, uint32_t i, uint32_t n, uint32_t *first, uint32_t *k)
{
	uint32_t g = i / PAGE_GROUP;

	*first = g * PAGE_GROUP;
	*k = n - *first < PAGE_GROUP ? n - *first : PAGE_GROUP;
	return ++count[g] == *k;
}

/* The last pass has left loop l (flush_segment): nothing reads its summary, first-pass header
 * state, header and back-edge states or the iterators and references its back edges carried
 * again; they are cleared.  Once it has left every loop of l's group, the pages of those
 * arrays that only the group's entries cover are given back (read, they would be zero as
 * their entries are).  A program of many loops holds them from the symbolic execution on,
 * under what the last pass allocates for the loops it has run (their claims): 1M instructions
 * of deep nests, 96 + 32 + 48 bytes for each of half a million loops. */
static void loop_left(struct engine *en, uint32_t l)
{
	struct scev_ctx *cx = en->cx;
	uint32_t first, n;

	sym_summary__free(&cx->sums[l]);
	free(en->res[l].exit_done);	/* (read with the summary only) */
	en->res[l].exit_done = NULL;
	en->res[l].nexit_done = 0;
	if (cx->first_hdr)
		hdr_pack__free(&cx->first_hdr[l]);
	st_drop(cx, en->hdr, l);
	st_drop(cx, en->back, l);
	en->it_back[l] = en->ref_back[l] = en->dp_back[l] = en->dpr_back[l] = (struct life){ 0, 0 };
	if (en->res[l].left)
		return;
	en->res[l].left = true;
	if (!group_done(en->left_in_group, l, cx->st.loops->nloops, &first, &n))
		return;
	GROUP_RELEASE(cx->sums);
	if (cx->first_hdr)
		GROUP_RELEASE(cx->first_hdr);
	GROUP_RELEASE(en->hdr);
	GROUP_RELEASE(en->back);
	GROUP_RELEASE(en->it_back);
	GROUP_RELEASE(en->ref_back);
	GROUP_RELEASE(en->dp_back);
	GROUP_RELEASE(en->dpr_back);
}

/* Block b is flushed and its states dropped: nothing of this pass joins into it, runs it or
 * reads its visits and entry generations again; they are cleared.  Once every block of its
 * group is flushed, the pages of those per-block arrays that only the group's entries (all
 * zero) cover are given back. */
static void block_flushed(struct engine *en, uint32_t b)
{
	uint32_t first, n;

	en->visits[b] = en->entry_gen[b] = en->exits_gen[b] = 0;
	if (!group_done(en->flushed_in_group, b, en->cx->st.cfg->nblocks, &first, &n))
		return;
	GROUP_RELEASE(en->in);
	if (en->side)
		GROUP_RELEASE(en->side);
	GROUP_RELEASE(en->visits);
	GROUP_RELEASE(en->entry_gen);
	GROUP_RELEASE(en->exits_gen);
}

/* The blocks at positions [lo, hi) of the reverse postorder are final: what later needs of
 * them is taken now — the first pass's header states, the last pass's checks and claims (in
 * the order of the reverse postorder, as a pass over all blocks would) — and their states are
 * freed. */
static int flush_segment(struct engine *en, uint32_t lo, uint32_t hi)
{
	struct scev_ctx *cx = en->cx;
	const struct scev_loops *lf = cx->st.loops;
	int err = 0;

	for (uint32_t i = lo; i < hi && !err; i++) {
		uint32_t b = cx->rpo[i], l = lf->loop_of[b];
		bool header = l != SCEV_NONE && lf->loops[l].header == b;

		if (cx->first_pass) {
			if (header) {
				/* the header state, for the header steps of the next pass */
				hdr_pack__free(&cx->first_hdr[l]);
				if (en->in[b]) {
					/* (read into another pass's states) */
					astate__drop_ids(en->in[b]);
					err = hdr_pack__set(&cx->first_hdr[l], en->in[b]);
					cx->first_hdr[l].once = !lf->loops[l].irreducible &&
								!en->back_live[l];
				}
			}
		} else {
			bool claims = !cx->opts.no_ranges && en->emit[b], claimed = false;

			en->reached[b] = run_state(en, b)->live;
			if (cx->verdict)
				err = verify_paths(en, b, claims, &claimed);
			if (!err && claims && !claimed && en->reached[b])
				err = run_block(en, b, true, NULL);
		}
		st_drop(en->cx, en->in, b);
		if (en->side)
			st_drop(en->cx, en->side, b);
		if (header) {
			st_drop(en->cx, en->hdr, l);
			st_drop(en->cx, en->back, l);
		}
	}
	if (err)
		return err;
	/* (flushed once per pass, as every position of the reverse postorder; a run with emit
	 * sends nothing, so no state of the segment's blocks comes back) */
	for (uint32_t i = lo; i < hi; i++)
		block_flushed(en, cx->rpo[i]);
	/* The last pass has left the loops headed here for good (a loop lies within one
	 * segment, its exits' refinements and its claims included): nothing reads their
	 * summaries or first-pass header states again. */
	for (uint32_t i = lo; i < hi && !err && !cx->first_pass; i++) {
		uint32_t b = cx->rpo[i], l = lf->loop_of[b];

		if (l != SCEV_NONE && lf->loops[l].header == b)
			loop_left(en, l);
	}
	return err;
}

static int run_function(struct engine *en, uint32_t f)
{
	struct scev_ctx *cx = en->cx;
	uint32_t lo = cx->rpo_off[f], hi = cx->rpo_off[f + 1], entry = cx->st.cfg->funcs[f].entry;
	struct astate *s = st_get(en->cx, en->in, entry);
	uint32_t pos, seg = lo;
	int err = 0;

	if (!s)
		return -ENOMEM;
	/* The entry state: r1 the context in the main function, r10 the frame. */
	s->live = true;
	s->pkt_kept = true;
	for (int r = 0; r < EBPF_NREGS; r++)
		s->regs[r] = aval_top();
	s->regs[EBPF_REG_FP] = aval_ptr(REGION_STACK, 0, range_const(0));
	if (cx->st.cfg->funcs[f].start == 0) {
		s->regs[1] = aval_ptr(REGION_CTX, 0, range_const(0));
		s->init = 1u << 1 | 1u << EBPF_REG_FP;
	} else {
		/* arguments r1-r5 (a global function's: those of its prototype) */
		s->init = absint_global_init(cx, f) | 1u << EBPF_REG_FP;
		if (cx->fn_seen && (cx->fn_seen[f] & 1)) {
			/* (a number one constant per path in the kernel's walk of each call: the
			 * first pass's arguments may come from loops the kernel widens, which only the
			 * last pass's header summaries see; aval.h aval_kconst) */
			for (int r = 1; r <= 5; r++) {
				s->regs[r] = cx->fn_args[f][r];
				if (s->regs[r].kind == AV_SCALAR)
					s->regs[r].kc = 0;
			}
			absint_pkt_entry(cx, f, s);	/* the packet its calls checked */
		}
		absint_cb_entry(cx, f, s);
		absint_dynptr_entry(cx, f, s);
		absint_lock_entry(cx, f, s);
		if (absint_global(cx, f) && !(cx->fn_seen[f] & 1))
			s->live = false;	/* a global function no reached call names */
		if (cx->fn_unreached && cx->fn_unreached[f])
			s->live = false;	/* a static one whose calls are all on dead paths */
		/* (what next returned points into the caller's frame, not this one's) */
		for (int r = 1; r <= 5; r++)
			if (s->regs[r].kind == AV_PTR && s->regs[r].region == REGION_ITER_VAL)
				s->regs[r] = aval_top();
	}
	en->queued[cx->rpo_index[entry]] = s->live;	/* (a callback nothing calls: not) */
	pos = lo;
	while (pos < hi) {
		uint32_t b = cx->rpo[pos], lowest = UINT32_MAX;

		/* (nothing before pos is queued, and nothing at or after it can queue it again) */
		if (pos > seg && en->cut[pos]) {
			if ((err = flush_segment(en, seg, pos)))
				return err;
			seg = pos;
		}
		if (!en->queued[pos]) {
			pos++;
			continue;
		}
		en->queued[pos] = 0;
		en->visits[b]++;
		if ((err = run_block(en, b, false, &lowest)))
			return err;
		pos = lowest < pos + 1 ? lowest : pos + 1;
	}
	return flush_segment(en, seg, hi);
}

int absint_run(struct scev_ctx *cx, struct claim_prog *out)
{
	const struct scev_cfg *cfg = cx->st.cfg;
	const struct scev_loops *lf = cx->st.loops;
	struct engine en = { .cx = cx, .out = out };
	int err = -ENOMEM;

	absint_iter_pass_start(cx);
	absint_dynptr_pass_start(cx);
	for (uint32_t f = 0; cx->fn_exit_acc && f < cfg->nfuncs; f++)
		cx->fn_exit_acc[f].live = false;	/* (this pass's exits) */

	if (engine_alloc(&en) || compute_cuts(&en))
		goto out;
	/* (a block of its own: given back as soon as the trips are the claims', for the claims'
	 * other arrays, absint_claim_loops) */
	if (!cx->first_pass &&
	    !(en.trips = arena_zalloc(lf->nloops ? lf->nloops : 1, sizeof(*en.trips))))
		goto out;
	if (cx->first_pass) {
		en.may_stack = cx->stack_seeded ? cx->stack_first : cx->may_stack;
		/* The header states, for the header steps of the next pass. */
		if (!cx->first_hdr && lf->nloops &&
		    !(cx->first_hdr = arena_zalloc(lf->nloops, sizeof(*cx->first_hdr))))
			goto out;
	} else {
		en.may_stack = cx->stack_seen;	/* (try_stack_shrink, scev.c) */
		/* Claims: every instruction inside a loop and at every loop exit. */
		for (uint32_t b = 0; b < cfg->nblocks; b++)
			en.emit[b] = lf->loop_of[b] != SCEV_NONE;	/* (in its loop and those around) */
		for (uint32_t l = 0; l < lf->nloops; l++)
			for (uint32_t k = 0; k < lf->loops[l].nexits; k++)
				en.emit[lf->loops[l].exits[k].to] = 1;
		/* (a claim for each instruction that emits, the first guess of how many: a large
		 * program's are then allocated once, not copied at every doubling; a small one's
		 * start at 64) */
		uint32_t nemit = 0;

		for (uint32_t b = 0; b < cfg->nblocks && cx->len > 4096; b++)
			if (en.emit[b])
				nemit += cfg->blocks[b].last - cfg->blocks[b].first + 1;
		if (nemit && claim_prog__reserve_ranges(out, out->nranges + nemit))
			goto out;
	}
	for (uint32_t f = 0; f < cfg->nfuncs; f++)
		if ((err = run_function(&en, f)))
			goto out;
	err = 0;
	if (cx->first_pass)
		goto out;
	/* Nothing reads the loop summaries or the first pass's header states after the last pass
	 * (flush_segment freed those of every loop it reached): their arrays go before the loop
	 * claims are completed, which is when a program of many loops takes the most memory. */
	for (uint32_t l = 0; l < lf->nloops; l++) {
		if (en.res[l].left)
			continue;	/* (freed: its pages may be given back, not to be touched) */
		sym_summary__free(&cx->sums[l]);
		if (cx->first_hdr)
			hdr_pack__free(&cx->first_hdr[l]);
	}
	arena_free(cx->sums);
	arena_free(cx->first_hdr);
	cx->sums = NULL;
	cx->first_hdr = NULL;
	/* (now: the summaries' pages are the arena's to give the loops' claims) */
	if ((err = absint_claim_loops(&en, out)) || (err = once_loops(&en)) ||
	    (err = absint_iter_trips(&en)) || (cx->verdict && (err = absint_verify_loops(&en))))
		goto out;
	err = absint_fill_loops(&en, out);
out:
	if (en.res)
		for (uint32_t l = 0; l < lf->nloops; l++) {
			arena_slab_free(en.res[l].ivs);
			free(en.res[l].exit_done);
			if (en.trips)	/* (not moved to the claims: an error) */
				claim_trip__free_text(&en.trips[l]);
		}
	arena_free(en.trips);
	engine_free(&en);
	return err;
}

void absint_free(struct scev_ctx *cx)
{
	if (cx->reentry)
		for (uint32_t l = 0; l < cx->st.loops->nloops; l++)
			arena_free(cx->reentry[l]);
	arena_free(cx->reentry);
	cx->reentry = NULL;
	if (cx->first_hdr)
		for (uint32_t l = 0; l < cx->st.loops->nloops; l++)
			hdr_pack__free(&cx->first_hdr[l]);
	arena_free(cx->first_hdr);
	cx->first_hdr = NULL;
	st_spare_free(cx);
	absint_dynptr_free();
}
