/* The loop header step of the range analysis: the state at a loop header computed in one step
 * from the state entering the loop, the loop's summary (symex.c: how each location evolves, which
 * exits are tested every iteration) and its trip count (exits.c) — add recurrences scaled by the
 * count, accumulations and derived values in dependency order, and everything else forgotten
 * (or, with the iterate strategy, joined from the back edges).  Also the exit values: on the
 * single exit edge of a loop with an exact trip count, the changed locations evaluated at the
 * last iteration.
 */
#include <errno.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>

#include "scev/absint.h"

#include "bpf/helper_proto.h"
#include "util/arena.h"

struct env_state {
	const struct astate *s;
	struct aval tmp;
};

static const struct aval *state_env(void *arg, loc_t l)
{
	struct env_state *es = arg;

	if (LOC_IS_REG(l))
		return &es->s->regs[l];
	es->tmp = astate__load(es->s, LOC_SLOT_OFF(l), LOC_SLOT_SIZE(l));
	return &es->tmp;
}

/* Header values under construction: changed locations resolved so far, the entry state for the
 * rest. */
struct env_hdr {
	const struct astate *entry;
	const struct sym_summary *sum;
	const struct aval *newv;	/* parallel to sum->locs */
	const bool *done;
	struct aval tmp;
};

static const struct aval *hdr_env(void *arg, loc_t l)
{
	struct env_hdr *eh = arg;

	for (uint32_t k = 0; k < eh->sum->nlocs; k++)
		if (eh->sum->locs[k].loc == l)
			return eh->done[k] ? &eh->newv[k] : (eh->tmp = aval_top(), &eh->tmp);
	if (LOC_IS_REG(l))
		return &eh->entry->regs[l];
	eh->tmp = astate__load(eh->entry, LOC_SLOT_OFF(l), LOC_SLOT_SIZE(l));
	return &eh->tmp;
}

struct dep_arg {
	const struct sym_summary *sum;
	const bool *done;
	loc_t self;
};

static bool dep_ready(void *arg, loc_t l)
{
	struct dep_arg *da = arg;

	if (l == da->self)
		return true;	/* an accumulation's own base is handled by its formula */
	for (uint32_t k = 0; k < da->sum->nlocs; k++)
		if (da->sum->locs[k].loc == l)
			return da->done[k];
	return sym_unchanged(da->sum, l);
}

static int format_trip_expr(struct scev_ctx *cx, struct claim_prog *out,
			    const struct sym_summary *sum, const struct sym_exit *e,
			    struct claim_trip *t)
{
	int err;
	struct sbuf sb = SBUF_INIT;
	static const char *const names[16] = {
		[BPF_JEQ >> 4] = "==", [BPF_JNE >> 4] = "!=", [BPF_JGT >> 4] = ">",
		[BPF_JGE >> 4] = ">=", [BPF_JLT >> 4] = "<", [BPF_JLE >> 4] = "<=",
		[BPF_JSGT >> 4] = "s>", [BPF_JSGE >> 4] = "s>=", [BPF_JSLT >> 4] = "s<",
		[BPF_JSLE >> 4] = "s<=",
	};
	uint8_t op = e->exit_on_taken ? e->op : trip_negate(e->op);

	(void)sum;
	sbuf_puts(&sb, "1 + first k with ");
	expr_format(&cx->ar, e->lhs, &sb);
	sbuf_putc(&sb, ' ');
	sbuf_puts(&sb, op && names[op >> 4] ? names[op >> 4] : "?");
	sbuf_putc(&sb, ' ');
	expr_format(&cx->ar, e->rhs, &sb);
	sbuf_puts(&sb, e->is32 ? " (32-bit, iteration k)" : " (iteration k)");
	err = claim_trip__set_text_in(out, t, &t->expr, sbuf_cstr(&sb));
	sbuf_free(&sb);
	return err;
}

/* The text of a bound from exits on different paths (sym_cut_bound). */
static int format_cut_expr(struct scev_ctx *cx, struct claim_prog *out, const uint32_t *used,
			   unsigned nused, struct claim_trip *t)
{
	struct sbuf sb = SBUF_INIT;
	int err;

	sbuf_puts(&sb, "1 + first k from which the exit tests at");
	for (unsigned k = 0; k < nused; k++)
		sbuf_printf(&sb, "%s %u", k ? "," : "", cx->st.cfg->blocks[used[k]].last);
	sbuf_puts(&sb, " hold, one of which every cycle passes (iteration k)");
	claim_trip__free_text(t);
	err = claim_trip__set_text_in(out, t, &t->expr, sbuf_cstr(&sb));
	sbuf_free(&sb);
	return err;
}

/* Whether the program holds a may_goto or a kfunc call anywhere (a callback's body among them). */
static bool prog_has_widening_insn(const struct scev_ctx *cx)
{
	for (uint32_t pc = 0; pc < cx->len; pc += ebpf_insn_slots(&cx->insns[pc])) {
		const struct bpf_insn *i = &cx->insns[pc];

		if ((ebpf_class(i) == BPF_JMP && ebpf_op(i) == BPF_JCOND) ||
		    (ebpf_is_call(i) && !ebpf_is_helper_call(i) && !ebpf_is_pseudo_call(i)))
			return true;
	}
	return false;
}

/* Whether instruction pc is one where the kernel may widen the numbers of the loops around it
 * (widen_imprecise_scalars, aval.h aval_kconst): a may_goto, a kfunc (an iterator's next), or
 * a call of a static function whose instructions, or those of a function it calls at any
 * depth, are (depth: the calls followed so far; past the kernel's 8 frames, a recursion, or
 * more than *budget calls followed in all, taken to widen).  A helper that calls a callback
 * (bpf_loop) widens what the callback changed since the same call's last run, in the same
 * iteration of the loop around it (prepare_func_exit: find_prev_entry meets the call's own
 * checkpoint first), not the loop's numbers (corpus bpf_loop_in_loop_counter_copy); only a
 * callback with a may_goto or a kfunc of its own may, taken where the program holds one. */
static bool insn_widens_at(const struct scev_ctx *cx, uint32_t pc, unsigned depth,
			   unsigned *budget)
{
	const struct bpf_insn *i = &cx->insns[pc];

	if (ebpf_class(i) == BPF_JMP && ebpf_op(i) == BPF_JCOND)
		return true;
	if (ebpf_is_pseudo_call(i)) {
		const struct scev_cfg *g = cx->st.cfg;
		uint32_t t = pc + (uint32_t)i->imm + 1;

		if (depth >= EBPF_MAX_CALL_DEPTH || !*budget)
			return true;
		--*budget;
		for (uint32_t f = 0; f < g->nfuncs; f++)
			if (g->funcs[f].start <= t && t < g->funcs[f].end)
				for (uint32_t q = g->funcs[f].start; q < g->funcs[f].end;
				     q += ebpf_insn_slots(&cx->insns[q]))
					if (insn_widens_at(cx, q, depth + 1, budget))
						return true;
		return false;
	}
	if (!ebpf_is_call(i))
		return false;
	if (!ebpf_is_helper_call(i))
		return true;
	return (i->imm == BPF_FUNC_loop || i->imm == BPF_FUNC_for_each_map_elem ||
		i->imm == BPF_FUNC_find_vma || i->imm == BPF_FUNC_user_ringbuf_drain) &&
	       prog_has_widening_insn(cx);
}

static bool insn_widens(const struct scev_ctx *cx, uint32_t pc)
{
	unsigned budget = 256;

	return insn_widens_at(cx, pc, 0, &budget);
}

/* Whether the kernel may widen the numbers loop l changes (insn_widens). */
static bool loop_widens(struct scev_ctx *cx, uint32_t l)
{
	const struct scev_loop *L = &cx->st.loops->loops[l];

	if (scev_loop_holds(cx, l, LOOP_HOLDS_MAY_GOTO))
		return true;
	if (!scev_loop_holds(cx, l, LOOP_HOLDS_CALL))
		return false;
	for (uint32_t k = 0; k < L->nblocks; k++) {
		const struct scev_block *B = &cx->st.cfg->blocks[L->blocks[k]];

		for (uint32_t pc = B->first; pc <= B->last; pc += ebpf_insn_slots(&cx->insns[pc]))
			if (insn_widens(cx, pc))
				return true;
	}
	return false;
}

/* The kernel's precision where it widens (kernel_widens below): a register the kernel marks
 * precise in the last iteration's state at the widening instruction P keeps its value there
 * (widen_imprecise_scalars), and it marks one precise when the value reaches, on the path it
 * walks from P before it meets P again, the number added to a pointer or a conditional jump it
 * decides (mark_chain_precision, walking back through copies and operations on the register).
 * The walk below follows every path of loop l from its header through the single widening
 * instruction P on them and round to P again, each register's value as the set of P's
 * registers it comes from (PREC_ANY: from a stack slot, which the kernel widens too, or of
 * a source not followed); a register is precise where every path makes it so, a register at
 * the header the kernel keeps when what it comes from on any path is precise. */
#define PREC_ANY 0x8000u
enum { PK_UNK, PK_NUM, PK_PTR, PK_FP };

struct prec_walk {
	struct scev_ctx *cx;
	const struct scev_loop *L;
	uint32_t h, P;		/* the header's first instruction; the widening one */
	uint32_t steps, paths, done;
	bool fail;
	uint16_t prec;		/* precise on every path */
	uint16_t org_h[EBPF_NREGS];	/* what the header's registers come from, on any path */
};

struct prec_regs {
	uint16_t org[EBPF_NREGS];
	uint8_t kind[EBPF_NREGS];
	bool cst[EBPF_NREGS];	/* one constant in the kernel's first iteration */
};

static bool prec_in_loop(const struct prec_walk *w, uint32_t pc)
{
	const struct scev_cfg *g = w->cx->st.cfg;

	return pc < w->cx->len && scev_loop__block_index(w->L, g->block_of[pc]) != SCEV_NONE;
}

/* One instruction's effect on s (not jumps); false where the walk cannot follow it. */
static bool prec_step(struct prec_walk *w, struct prec_regs *s, const struct bpf_insn *i,
		      int phase, uint16_t *prec)
{
	uint8_t d = i->dst_reg, sr = i->src_reg, op = ebpf_op(i);
	bool x = ebpf_srcbit(i) == BPF_X, w64 = ebpf_class(i) == BPF_ALU64;

	if (ebpf_is_ldimm64(i)) {
		s->org[d] = 0;
		s->kind[d] = sr ? PK_PTR : PK_NUM;
		s->cst[d] = !sr;
		return true;
	}
	if (ebpf_is_call(i)) {
		/* (a static callee leaves r6-r9 as they were, and its precision marks on what
		 * it was handed are not followed) */
		for (int r = 0; r <= 5; r++) {
			s->org[r] = r ? PREC_ANY : 0;
			s->kind[r] = PK_UNK;
			s->cst[r] = false;
		}
		return true;
	}
	if (ebpf_class(i) == BPF_LDX) {
		/* (a fill from the frame: a slot the kernel may have widened) */
		s->org[d] = s->kind[sr] == PK_PTR ? 0 : PREC_ANY;
		s->kind[d] = ebpf_size(i) == BPF_DW ? PK_UNK : PK_NUM;
		s->cst[d] = false;
		return true;
	}
	if (ebpf_class(i) == BPF_ST || ebpf_class(i) == BPF_STX) {
		/* (an atomic with BPF_FETCH writes the old value to src, cmpxchg to r0) */
		if (ebpf_mode(i) == BPF_ATOMIC && (i->imm & BPF_FETCH)) {
			uint8_t r = i->imm == BPF_CMPXCHG ? 0 : sr;

			s->org[r] = PREC_ANY;
			s->kind[r] = PK_UNK;
			s->cst[r] = false;
		}
		return ebpf_mode(i) == BPF_MEM || ebpf_mode(i) == BPF_ATOMIC;
	}
	if (!ebpf_is_alu(i))
		return false;
	if (op == BPF_MOV) {
		if (!x) {
			s->org[d] = 0;
			s->kind[d] = PK_NUM;
			s->cst[d] = true;
		} else if (w64 && !i->off) {
			s->org[d] = s->org[sr];
			s->kind[d] = s->kind[sr];
			s->cst[d] = s->cst[sr];
		} else {
			s->org[d] = s->kind[sr] == PK_NUM ? s->org[sr] : PREC_ANY;
			s->kind[d] = s->kind[sr] == PK_NUM ? PK_NUM : PK_UNK;
			s->cst[d] = s->kind[sr] == PK_NUM && s->cst[sr];
		}
		return true;
	}
	if (s->kind[d] == PK_PTR || s->kind[d] == PK_FP) {
		if (w64 && (op == BPF_ADD || op == BPF_SUB) && (!x || s->kind[sr] == PK_NUM)) {
			/* pointer += number: the number is marked precise (adjust_reg_min_max_vals) */
			if (x && phase)
				*prec |= s->org[sr];
			return true;
		}
		s->org[d] = PREC_ANY;
		s->kind[d] = PK_UNK;
		s->cst[d] = false;
		return true;
	}
	if (x && s->kind[sr] != PK_NUM) {
		s->org[d] = PREC_ANY;
		s->kind[d] = PK_UNK;
		s->cst[d] = false;
		return true;
	}
	if (s->kind[d] != PK_NUM)
		s->org[d] |= PREC_ANY;
	s->kind[d] = PK_NUM;
	if (x) {
		s->org[d] |= s->org[sr];
		s->cst[d] = s->cst[d] && s->cst[sr];
	}
	return true;
}

/* Walks from pc in phase (0: header to P, 1: P to the header, 2: the header to P again). */
static void prec_walk_from(struct prec_walk *w, uint32_t pc, struct prec_regs s, int phase,
			   uint16_t prec)
{
	while (!w->fail) {
		const struct bpf_insn *i = &w->cx->insns[pc];
		uint32_t next = pc + ebpf_insn_slots(i);

		if (++w->steps > 4096) {
			w->fail = true;
			return;
		}
		if (pc != w->P && insn_widens(w->cx, pc) && (phase || w->P != UINT32_MAX)) {
			w->fail = true;	/* (two widening instructions) */
			return;
		}
		if (phase == 0 && insn_widens(w->cx, pc)) {
			w->P = pc;
			for (int r = 0; r < EBPF_NREGS - 1; r++)
				s.org[r] = s.org[r] & PREC_ANY ? s.org[r] : (uint16_t)(1u << r);
			if (ebpf_is_call(i) && !prec_step(w, &s, i, phase, &prec)) {
				w->fail = true;
				return;
			}
			phase = 1;
		} else if (phase && pc == w->P) {
			w->fail = true;	/* (P met before the header) */
			return;
		} else if (ebpf_is_exit(i)) {
			return;		/* (a path that leaves: nothing to meet) */
		} else if (ebpf_is_cond_jmp(i)) {
			uint32_t t = (uint32_t)ebpf_jump_target(i, pc);
			bool inf = prec_in_loop(w, pc + 1), int_ = prec_in_loop(w, t);
			bool xs = ebpf_srcbit(i) == BPF_X;

			if (phase && ebpf_op(i) != BPF_JCOND && s.kind[i->dst_reg] == PK_NUM &&
			    s.cst[i->dst_reg] && (!xs || (s.kind[i->src_reg] == PK_NUM &&
							   s.cst[i->src_reg])))
				prec |= s.org[i->dst_reg] | (xs ? s.org[i->src_reg] : 0);
			if (inf && int_) {
				if (++w->paths > 64) {
					w->fail = true;
					return;
				}
				prec_walk_from(w, t, s, phase, prec);
			} else if (int_) {
				next = t;
			} else if (!inf) {
				return;
			}
		} else if (ebpf_is_ja(i)) {
			next = (uint32_t)ebpf_jump_target(i, pc);
		} else if (!prec_step(w, &s, i, phase, &prec)) {
			w->fail = true;
			return;
		}
		if (!prec_in_loop(w, next))
			return;
		if (next == w->h) {
			if (phase != 1) {
				w->fail = true;	/* (no widening instruction on this path) */
				return;
			}
			for (int r = 0; r < EBPF_NREGS - 1; r++)
				w->org_h[r] |= s.org[r];
			phase = 2;
		}
		if (phase == 2 && next == w->P) {
			w->prec &= prec;
			w->done++;
			return;
		}
		pc = next;
	}
}

/* The header registers of loop l (bits r0-r9) the kernel keeps as they are where it widens;
 * 0 when the walk cannot tell. */
static uint16_t kernel_kept_regs(struct scev_ctx *cx, uint32_t l, const struct astate *E)
{
	const struct scev_loop *L = &cx->st.loops->loops[l];
	struct prec_walk w = { .cx = cx, .L = L, .h = cx->st.cfg->blocks[L->header].first,
			       .P = UINT32_MAX, .prec = 0xffff };
	struct prec_regs s;
	uint16_t kept = 0;

	if (L->irreducible)
		return 0;
	for (int r = 0; r < EBPF_NREGS; r++) {
		const struct aval *v = &E->regs[r];

		s.org[r] = 0;
		s.kind[r] = r == EBPF_REG_FP ? PK_FP : v->kind == AV_SCALAR ? PK_NUM :
			    v->kind != AV_PTR ? PK_UNK :
			    v->region == REGION_STACK || v->region == REGION_CALLER_STACK ? PK_FP :
			    PK_PTR;
		s.cst[r] = aval_kconst(v);
	}
	prec_walk_from(&w, w.h, s, 0, 0);
	if (w.fail || w.P == UINT32_MAX || !w.done)
		return 0;
	for (int r = 0; r < EBPF_NREGS - 1; r++)
		if (!(w.org_h[r] & PREC_ANY) && (w.org_h[r] & ~w.prec) == 0)
			kept |= (uint16_t)(1u << r);
	return kept;
}

/* Whether the kernel keeps location l of loop kept->sum as it is where it widens: one the loop
 * does not change, or a register kernel_kept_regs finds. */
struct kept_arg {
	const struct sym_summary *sum;
	uint16_t kept;
};

static bool kept_loc(void *arg, loc_t l)
{
	const struct kept_arg *ka = arg;

	return !sym_find(ka->sum, l) || (LOC_IS_REG(l) && (ka->kept >> l & 1));
}

static struct aval aval_meet(const struct aval *a, const struct aval *b)
{
	struct aval r;

	if (b->kind == AV_TOP)
		return *a;
	if (a->kind == AV_TOP) {
		r = *b;
		aval_drop_pkt_len(&r);	/* (a's holds where a is; b's may be another point's) */
		return r;
	}
	if (a->kind != b->kind || (a->kind == AV_PTR && (a->region != b->region ||
							 a->map != b->map ||
							 a->maybe_null != b->maybe_null)))
		return *a;
	r = *a;
	r.r = range_meet(&a->r, &b->r);
	r.kc = a->kc || (b->kind == AV_SCALAR && b->kc);	/* (either holds: aval.h) */
	if (r.kind == AV_PTR && r.region == REGION_CALLER_STACK && r.r.smin != a->r.smin)
		r.id = 0;	/* (a narrowed frame's lowest offset is measured from smin: aval.h) */
	return range_is_empty(&r.r) ? *a : r;	/* cannot happen when both are sound */
}

/* s += i with i an add recurrence {i0, +, si}: s at iteration k is
 * s0 + k*i0 + si*k*(k-1)/2, a second-order recurrence.  With everything non-negative the largest
 * value is at the last iteration; a sound range then comes from the trip count alone. */
static bool second_order(struct scev_ctx *cx, const struct sym_summary *sum,
			 const struct sym_loc *sl, eid alt, struct env_state *es,
			 const struct aval *x0, uint64_t T, struct aval *out)
{
	const struct sym_loc *il;
	struct aval i0;
	eid d, base;
	uint64_t c, si;
	bool w32;
	__int128 alo, ahi, K = (__int128)T - 1, hi;

	if (!sym_accum_delta(&cx->ar, alt, sl->loc, &d, &w32) || w32)
		return false;
	expr_match_add(&cx->ar, d, &base, &c, &w32);
	if (w32 || cx->ar.v[base].kind != EX_REG || !(il = sym_find(sum, cx->ar.v[base].a)) ||
	    il->width != 64 || !sym_step_of(cx, sum, il, state_env, es, &si))
		return false;
	i0 = *state_env(es, il->loc);
	if (i0.kind != AV_SCALAR || x0->kind != AV_SCALAR || x0->r.smin < 0 || (int64_t)si < 0 ||
	    si > (1ull << 40) || T > (1ull << 40))
		return false;
	alo = (__int128)i0.r.smin + (int64_t)c;
	ahi = (__int128)i0.r.smax + (int64_t)c;
	if (alo < 0 || ahi > ((__int128)1 << 40))
		return false;
	hi = (__int128)x0->r.smax + K * ahi + (__int128)si * K * (K - 1) / 2;
	if (hi > INT64_MAX)
		return false;
	*out = aval_scalar(range_urange((uint64_t)x0->r.smin, (uint64_t)hi));
	return true;
}

static bool clobbers_args(const struct bpf_insn *i)
{
	return ebpf_is_call(i) || (ebpf_class(i) == BPF_LD && !ebpf_is_ldimm64(i));
}

/* Which of r1-r5 (bits 1-5) are, on every path from the header of loop l back to it, either
 * never clobbered by a call (or LD_ABS/LD_IND) or written after the last one: a must-analysis
 * over the body, inner cycles included, iterated to its fixpoint (in an irreducible loop, the
 * paths from its header: what comes in at a side entry is in the entry state already).
 * Allocation failures get 0 (every argument register is taken as clobbered). */
static uint16_t loop_args_defined(struct scev_ctx *cx, uint32_t l)
{
	const struct scev_loop *L = &cx->st.loops->loops[l];
	const struct scev_cfg *g = cx->st.cfg;
	uint16_t *out, res = 0x3e;
	bool changed = true;

	if (!cx->loop_args_def &&
	    !(cx->loop_args_def = arena_zalloc(cx->st.loops->nloops ? cx->st.loops->nloops : 1,
					 sizeof(*cx->loop_args_def))))
		return 0;
	if (cx->loop_args_def[l] & 0x8000)
		return cx->loop_args_def[l] & 0x3e;
	/* With nothing in the loop that clobbers them, every block keeps the optimistic start:
	 * the fixpoint below changes nothing. */
	if (!scev_loop_holds(cx, l, LOOP_HOLDS_CLOBBER)) {
		for (uint32_t e = 0; e < L->nback_edges; e++)
			if (scev_loop__block_index(L, L->back_edges[e].from) == SCEV_NONE)
				res = 0;
		cx->loop_args_def[l] = 0x8000 | res;
		return res;
	}
	if (!(out = malloc(L->nblocks * sizeof(*out)))) {
		cx->loop_args_def[l] = 0x8000;
		return 0;
	}
	for (uint32_t k = 0; k < L->nblocks; k++)
		out[k] = 0x3e;	/* optimistic start of a must-analysis */
	while (changed) {
		changed = false;
		for (uint32_t k = 0; k < L->nblocks; k++) {
			const struct scev_block *b = &g->blocks[L->blocks[k]];
			uint16_t d = 0x3e;

			if (L->blocks[k] != L->header) {
				for (uint32_t p = 0; p < b->npred; p++) {
					uint32_t pb = g->preds[b->pred_off + p];
					uint32_t at = scev_loop__block_index(L, pb);

					if (at != SCEV_NONE)
						d &= out[at];
				}
			}
			for (uint32_t pc = b->first; pc <= b->last; pc += ebpf_insn_slots(&cx->insns[pc])) {
				const struct bpf_insn *i = &cx->insns[pc];

				if (clobbers_args(i))
					d &= (uint16_t)~0x3eu;
				else
					d |= (uint16_t)(ebpf_regs_written(i) & 0x3e);
			}
			if (d != out[k]) {
				out[k] = d;
				changed = true;
			}
		}
	}
	for (uint32_t e = 0; e < L->nback_edges; e++) {
		uint32_t at = scev_loop__block_index(L, L->back_edges[e].from);

		res &= at != SCEV_NONE ? out[at] : 0;
	}
	free(out);
	cx->loop_args_def[l] = 0x8000 | res;
	return res;
}

/* absint_loop_moves_pkt, once per loop (cx->loop_moves_pkt: 0 not known yet, 1 no, 2 yes; when
 * memory runs out, asked every time). */
static bool loop_moves_pkt(struct scev_ctx *cx, uint32_t l)
{
	if (!cx->loop_moves_pkt)
		cx->loop_moves_pkt =
			arena_zalloc(cx->st.loops->nloops ? cx->st.loops->nloops : 1, 1);
	if (!cx->loop_moves_pkt)
		return absint_loop_moves_pkt(cx, l);
	if (!cx->loop_moves_pkt[l])
		cx->loop_moves_pkt[l] = scev_loop_holds(cx, l, LOOP_HOLDS_CALL) &&
					absint_loop_moves_pkt(cx, l) ? 2 : 1;
	return cx->loop_moves_pkt[l] == 2;
}

/* The first iteration whose test of exit e holds, over entry state E; when E shows none, what
 * the parent's symbolic state showed for every entry (sym_exit_lin: the distance's linear form
 * over E's ranges, else the parent's own bound), or the bounds over each of parts: a bound of
 * every state of either holds for every state of their join, which may lose what each keeps
 * (a counter entering at c or at c - step, a multiple of the step in both, is an interval of
 * starts most of which an == test never meets). */
static int exit_bound_parts(struct scev_ctx *cx, const struct sym_summary *sum,
			    const struct sym_exit *e, struct env_state *es,
			    const struct astate *const *parts, uint64_t *kmin, uint64_t *kmax,
			    char *why, unsigned whylen)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	char w2[96];

	if (!sym_exit_bound(cx, sum, e, state_env, es, kmin, kmax, why, whylen)) {
		uint64_t a = 0, b = UINT64_MAX;

		/* (a count that is not exact, as an == test against a bound known only as a
		 * range gives: the parent's view, which holds for every entry too, may narrow it) */
		if (*kmin == *kmax ||
		    !((e->lin && !sym_lin_bound(cx, e->lin, state_env, es, NULL, NULL, &a, &b, w2,
						sizeof(w2))) ||
		      (e->ctx && (a = e->ctx_kmin, b = e->ctx_kmax, true))))
			return 0;
		if (a <= *kmax && *kmin <= b) {
			*kmin = a > *kmin ? a : *kmin;
			*kmax = b < *kmax ? b : *kmax;
		}
		return 0;
	}
	if (e->lin && !sym_lin_bound(cx, e->lin, state_env, es, NULL, NULL, kmin, kmax, w2,
				     sizeof(w2)))
		return 0;
	if (e->ctx) {
		*kmin = e->ctx_kmin;
		*kmax = e->ctx_kmax;
		return 0;
	}
	if (!parts)
		return -1;
	for (int p = 0; p < 2; p++) {
		struct env_state ps = { .s = parts[p] };
		uint64_t a, b;

		if (!parts[p]->live)
			continue;
		if (sym_exit_bound(cx, sum, e, state_env, &ps, &a, &b, w2, sizeof(w2)))
			return -1;
		lo = a < lo ? a : lo;
		hi = b > hi ? b : hi;
	}
	if (lo > hi)
		return -1;
	*kmin = lo;
	*kmax = hi;
	return 0;
}

/* reason = "exit at PC: WHY", as snprintf(reason, size, "exit at %u: %s", pc, why) writes it,
 * without the formatting (every loop of a nest whose exit has no bound writes one). */
static void exit_reason(char *reason, size_t size, uint32_t pc, const char *why)
{
	char buf[sizeof("exit at 4294967295: ") + 128 + CLAIM_TRIP_TEXT], d[10];
	size_t at = sizeof("exit at ") - 1, n = 0;

	memcpy(buf, "exit at ", at);
	do {
		d[sizeof(d) - ++n] = (char)('0' + pc % 10);
		pc /= 10;
	} while (pc);
	memcpy(buf + at, d + sizeof(d) - n, n);
	at += n;
	buf[at++] = ':';
	buf[at++] = ' ';
	copy_text(buf + at, sizeof(buf) - at, why);
	copy_text(reason, size, buf);
}

int absint_header_step(struct engine *en, uint32_t l, const struct astate *E,
		       const struct astate *const *parts, struct astate *H)
{
	struct scev_ctx *cx = en->cx;
	const struct scev_loop *L = &cx->st.loops->loops[l];
	const struct sym_summary *sum = scev_sum(cx, l);
	struct loop_result *res = &en->res[l];
	/* (the first pass's header state read in place: a view of it writes 1 KB a loop) */
	const struct hdr_pack *fh = NULL;
	struct env_state es = { .s = E };
	/* (the header values of a few locations need no allocation) */
	struct aval newv_few[16];
	bool done_few[16];
	struct aval *newv = NULL;
	bool *done = NULL, known = false, progress = true, kwiden, kknown;
	struct kept_arg kept = { 0 };
	const struct sym_exit *best = NULL;
	uint64_t T = 0, Tmin = 1;
	/* (the last pass's texts go to the claims' chunks, with the trip: claims.h) */
	struct claim_trip trip = { .chunked = !cx->first_pass };
	char reason[CLAIM_TRIP_TEXT] = "";
	bool iterate = cx->opts.strategy == SCEV_ITERATE && !cx->first_pass &&
		       en->visits[L->header] <= (cx->opts.max_iterations ? cx->opts.max_iterations : 8);
	int err;

	/* (E, which es reads, stays as it is through this step: exit matches over es are kept
	 * for sym_exit_next_range below) */
	sym_exit_memo_open(&es);
	if (cx->first_hdr && !cx->first_pass)
		fh = &cx->first_hdr[l];
	if ((err = astate__copy(H, E)))
		return err;
	/* the iterators live at the back edges are live (on some path) at the header too */
	if (en->back_seen[l]) {
		life_join(&H->it, &en->it_back[l]);
		life_join(&H->ref, &en->ref_back[l]);
		life_join(&H->dp, &en->dp_back[l]);
		life_join(&H->dpr, &en->dpr_back[l]);
	}
	/* what comparisons proved of packet bases (absint.h: pkt_var) stays outside the loop: a
	 * base issued in it, or a guard register it writes, changes from one iteration to the next */
	astate__pkt_forget_all(H);
	/* A call in the loop leaves r1-r5 unwritten for the iterations after it, unless every
	 * path back to the header writes them again. */
	H->init &= (uint16_t)(~0x3eu | loop_args_defined(cx, l));
	/* Trip count: the smallest bound among exits taken in every iteration. */
	if (sum->ok && sum->nexits > res->nexit_done) {
		uint64_t *nd = realloc(res->exit_done, sum->nexits * sizeof(*nd));

		if (!nd)
			return -ENOMEM;
		res->exit_done = nd;
	}
	res->nexit_done = sum->ok ? sum->nexits : 0;
	if (sum->ok) {
		for (uint32_t k = 0; k < sum->nexits; k++) {
			uint64_t kmin, kmax;
			char why[128];

			res->exit_done[k] = 0;
			if (exit_bound_parts(cx, sum, &sum->exits[k], &es, parts, &kmin, &kmax, why,
					     sizeof(why))) {
				if (!reason[0])
					exit_reason(reason, sizeof(reason),
						    cx->st.cfg->blocks[sum->exits[k].block].last, why);
				continue;
			}
			/* the exit's test holds first at iteration kmin or later, whatever the
			 * other exits do: that many iterations are complete when it is taken */
			if (sum->exits[k].op != BPF_JCOND)
				res->exit_done[k] = kmin;
			if (!known || kmax + 1 < T) {
				T = kmax + 1;
				Tmin = kmin + 1;
				best = &sum->exits[k];
				known = true;
			}
		}
	} else {
		copy_text(reason, sizeof(reason), sum->why ? sum->why : "");
	}
	/* Exits on different paths that every cycle passes (exits.c): the header runs at most
	 * K + 1 times. */
	if (sum->ok && sum->npexits) {
		uint32_t used[SYM_MAX_PEXITS];
		unsigned nused;
		uint64_t K;
		char why[CLAIM_TRIP_TEXT];

		if (!sym_cut_bound(cx, l, sum, state_env, &es, &K, used, &nused, why,
				   sizeof(why))) {
			if (!known || K + 1 < T) {
				T = K + 1;
				Tmin = 1;
				best = NULL;
				known = true;
			}
		} else if (!known && !sum->nexits) {
			copy_text(reason, sizeof(reason), why);
		}
		if (known && !best && !cx->first_pass &&
		    (err = format_cut_expr(cx, en->out, used, nused, &trip)))
			return err;
	}
	/* Exits that only together stop every path (a step that may jump over an `==` exit's
	 * number): the header states of known numbers, enumerated (absint_enum.c). */
	if (!known) {
		uint64_t K;
		int got = absint_enum_trip(cx, l, E, &K);
		char text[CLAIM_TRIP_TEXT];

		if (got < 0)
			return got;
		if (got) {
			T = K;
			Tmin = 1;
			best = NULL;
			known = true;
			snprintf(text, sizeof(text), "at most %llu: the header states of known numbers "
				 "enumerated, every chain of them ends at an exit",
				 (unsigned long long)K);
			if (!cx->first_pass &&
			    (err = claim_trip__set_text_in(en->out, &trip, &trip.expr, text)))
				return err;
		}
	}
	if (known) {
		bool one = best && sum->single_exit && best->block == L->exits[0].from;
		bool exact = one && Tmin == T;

		trip.kind = exact ? TRIP_EXACT : TRIP_BOUNDED;
		trip.max = T;
		trip.min = one ? Tmin : 1;
		if (exact)
			reason[0] = '\0';
		else if (!sum->single_exit)
			copy_text(reason, sizeof(reason),
				  L->nexits > 1 ? "several exits" : "the loop can end the program");
		else
			copy_text(reason, sizeof(reason), "the count depends on values "
				  "that are not constant at entry or on the path taken");
		/* (the texts are read from the last pass's claims only) */
		if (!cx->first_pass && best &&
		    (err = format_trip_expr(cx, en->out, sum, best, &trip)))
			return err;
	} else if (sum->ok && !sum->nexits && !reason[0]) {
		copy_text(reason, sizeof(reason), "no exit is tested in every iteration");
	}
	/* A may_goto jump out of the loop in every iteration ends it, with no count (exits.c). */
	for (uint32_t k = 0; k < sum->nexits && sum->ok && !known; k++) {
		const struct sym_exit *x = &sum->exits[k];

		if (x->op == BPF_JCOND && x->exit_on_taken) {
			trip.ends_by = TRIP_ENDS_MAY_GOTO;
			snprintf(reason, sizeof(reason), "ended by the may_goto at %u: the "
				 "kernel's budget, no count (timed on x86-64)",
				 cx->st.cfg->blocks[x->block].last);
		}
	}
	/* ... or one anywhere in it, a nested loop's too, whose jump leaves this loop, when every
	 * cycle passes one (cond_break in an inner loop that every outer iteration runs) */
	if (!known && !trip.ends_by) {
		uint32_t pc;
		int got = sym_may_goto_cut(cx, l, &pc);

		if (got < 0)
			return got;
		if (got) {
			trip.ends_by = TRIP_ENDS_MAY_GOTO;
			snprintf(reason, sizeof(reason), "ended by the may_goto at %u, which every "
				 "cycle passes: the kernel's budget, no count (timed on x86-64)", pc);
		}
	}
	res->visited = true;
	if (!cx->first_pass) {
		struct claim_trip *t = loop_trip(en, l);

		claim_trip__free_text(t);
		*t = trip;	/* (the expression's text moves there) */
		if ((err = claim_trip__set_text_in(en->out, t, &t->reason, reason)))
			return err;
	}

	/* (the count the kernel knows, as it walks the loop: an exit of numbers it keeps) */
	kwiden = loop_widens(cx, l);
	if (kwiden && sum->ok)
		kept.kept = kernel_kept_regs(cx, l, E);
	kept.sum = sum;
	kknown = known && (!kwiden || (best && expr_only_regs(&cx->ar, best->lhs, kept_loc, &kept) &&
				       expr_only_regs(&cx->ar, best->rhs, kept_loc, &kept)));
	res->kcount = !kwiden || kknown;
	/* Header values of the changed locations. */
	if (sum->nlocs <= 16) {
		memset(newv_few, 0, sum->nlocs * sizeof(*newv));
		memset(done_few, 0, sizeof(done_few));
		newv = newv_few;
		done = done_few;
	} else {
		newv = calloc(sum->nlocs, sizeof(*newv));
		done = calloc(sum->nlocs, sizeof(*done));
	}
	/* (from the slab, until absint_fill_loops copies them into the claims' chunks: a loop's
	 * array from malloc grew the heap a page at a time) */
	arena_slab_free(res->ivs);
	res->ivs = arena_slab_alloc((sum->nlocs ? sum->nlocs : 1) * sizeof(*res->ivs));
	res->nivs = 0;
	if (!newv || !done || !res->ivs) {
		err = -ENOMEM;
		goto out;
	}
	for (uint32_t k = 0; k < sum->nlocs && sum->ok; k++) {
		const struct sym_loc *sl = &sum->locs[k];
		struct aval x0 = *state_env(&es, sl->loc), z, t;
		uint64_t step;

		/* add recurrences, including x += r with r a constant held in a register */
		if (!sym_step_of(cx, sum, sl, state_env, &es, &step))
			continue;
		if (sl->width == 64 && x0.kind == AV_PTR && !kknown) {
			/* (a pointer the kernel walks with no count: kernel_widens) */
			newv[k] = step == 0 ? x0 : aval_add_scaled(&x0, step, 0, UINT64_MAX, 64);
		} else if (sl->width == 64) {
			/* (no count, as a loop the may_goto budget ends: any number of steps, the
			 * entry value's kind kept; a scalar stays a scalar, with the low bits the
			 * steps leave) */
			newv[k] = !known && step == 0 ? x0 :
				  aval_add_scaled(&x0, step, 0, known ? T - 1 : UINT64_MAX, 64);
		} else {
			/* iteration 0 holds the entry value, later ones zero-extended sums */
			z = aval_zext(&x0, 4);
			t = known ? (T > 1 ? aval_add_scaled(&z, step, 1, T - 1, 32) : x0)
				  : aval_scalar(range_zext_unknown(4));
			newv[k] = aval_join(&x0, &t);
			/* (x0 + k * step on the path of iteration k, as the kernel walks them) */
			newv[k].kc = newv[k].kind == AV_SCALAR && aval_kconst(&x0);
		}
		newv[k].src = SRC_RECURRENCE;
		done[k] = true;
		{
			struct claim_iv iv = { .loc = sl->loc, .width = sl->width, .step = step };

			/* start is the value at the first header execution, whatever its width */
			iv.has_start = aval_is_const(&x0, &iv.start);
			res->ivs[res->nivs++] = iv;
		}
	}
	/* (the claims keep the array: none, as an unvisited loop's, when the loop has no IV) */
	if (!res->nivs) {
		arena_slab_free(res->ivs);
		res->ivs = NULL;
	}
	/* A recurrence that an exit tests in every iteration is, after the first, what that test
	 * let through plus the rest of a step (sym_exit_next_range): with a start known only as a
	 * range, tighter than the start plus the steps of the whole trip count. */
	for (uint32_t k = 0; k < sum->nlocs && sum->ok && !L->irreducible; k++) {
		struct aval x0 = *state_env(&es, sum->locs[k].loc), x1, j;

		if (!done[k] || newv[k].kind != AV_SCALAR)
			continue;
		for (uint32_t x = 0; x < sum->nexits; x++)
			if (sym_exit_next_range(cx, sum, &sum->exits[x], state_env, &es,
						sum->locs[k].loc, &x1)) {
				j = aval_join(&x0, &x1);
				newv[k] = aval_meet(&newv[k], &j);
			}
	}
	/* Accumulations and functions of resolved locations, in dependency order. */
	while (progress && sum->ok) {
		progress = false;
		for (uint32_t k = 0; k < sum->nlocs; k++) {
			const struct sym_loc *sl = &sum->locs[k];
			struct dep_arg da = { sum, done, sl->loc };
			struct env_hdr eh = { E, sum, newv, done };
			struct aval x0 = *state_env(&es, sl->loc);

			if (done[k] || (sl->cls != LC_ACCUM && sl->cls != LC_DERIVED))
				continue;
			/* (an accumulation's delta may hold RANGE leaves: evaluated as ranges) */
			if (!(sl->cls == LC_ACCUM ? expr_only_regs_r : expr_only_regs)(
				    &cx->ar, sl->back, dep_ready, &da))
				continue;
			if (sl->cls == LC_DERIVED) {
				struct aval f = aval_eval(cx, sl->back, hdr_env, &eh);

				newv[k] = aval_join(&x0, &f);
				newv[k].src = SRC_DERIVED;
			} else if (known && (kknown || x0.kind != AV_PTR)) {
				eid alts[8];
				int n = expr_alternatives(&cx->ar, sl->back, alts, 8);
				struct aval dsum = { 0 }, z, t;

				for (int a = 0; a < n; a++) {
					eid d;
					bool w32;
					struct aval dv;

					sym_accum_delta(&cx->ar, alts[a], sl->loc, &d, &w32);
					dv = aval_eval(cx, d, hdr_env, &eh);
					dsum = a ? aval_join(&dsum, &dv) : dv;
				}
				if (sl->width == 64) {
					struct aval q;

					newv[k] = aval_add_accum(&x0, &dsum, 0, T - 1, true);
					if (n == 1 && second_order(cx, sum, sl, alts[0], &es, &x0, T, &q))
						newv[k] = aval_meet(&newv[k], &q);
				} else {
					z = aval_zext(&x0, 4);
					t = T > 1 ? aval_add_accum(&z, &dsum, 1, T - 1, false) : x0;
					newv[k] = aval_join(&x0, &t);
				}
				newv[k].src = SRC_ACCUMULATE;
			} else {
				continue;	/* no trip count: forget below */
			}
			done[k] = true;
			progress = true;
		}
	}
	/* Everything else: forget (or iterate with the back-edge states). */
	for (uint32_t k = 0; k < sum->nlocs; k++) {
		const struct sym_loc *sl = &sum->locs[k];
		struct aval x0 = *state_env(&es, sl->loc);

		if (done[k])
			continue;
		if (LOC_IS_REG(sl->loc)) {
			struct aval w = aval_scalar(range_zext_unknown(4));

			newv[k] = sum->ok && sl->zext32 ? aval_join(&x0, &w) : aval_top();
		} else {
			newv[k] = absint_unknown_bytes(LOC_SLOT_SIZE(sl->loc));
		}
		newv[k].src = SRC_FORGET;
		if (iterate && LOC_IS_REG(sl->loc) && st_peek(en->back, l)->live) {
			struct aval bv = st_peek(en->back, l)->regs[sl->loc], j = aval_join(&x0, &bv);

			if (st_peek(en->hdr, l)->live && en->visits[L->header] > 2)
				j = aval_widen(&st_peek(en->hdr, l)->regs[sl->loc], &j);
			newv[k] = j;
			newv[k].src = SRC_ITERATE;
		} else if (iterate && LOC_IS_REG(sl->loc)) {
			newv[k] = x0;	/* first visit: only the entry so far */
			newv[k].src = SRC_ITERATE;
		}
		done[k] = true;
	}
	/* What is forgotten is still within the header state of the first pass, which covers
	 * every visit: a register the loop changes in ways the summary cannot say keeps the
	 * kind and range that pass found (a scalar stays a scalar). */
	for (uint32_t k = 0; k < sum->nlocs && fh && fh->live; k++)
		if (newv[k].src == SRC_FORGET && LOC_IS_REG(sum->locs[k].loc)) {
			struct aval fr = hdr_pack__reg(fh, sum->locs[k].loc);

			newv[k] = aval_meet(&newv[k], &fr);
			newv[k].src = SRC_FORGET;
		}
	/* (what the loop changes is no constant per path where the kernel may widen it) */
	if (kwiden)
		for (uint32_t k = 0; k < sum->nlocs; k++) {
			struct aval *v = &newv[k];
			struct aval x0 = *state_env(&es, sum->locs[k].loc);
			uint64_t a, b;

			/* the kernel's widening: a number that differs from the last iteration's
			 * is unknown (kernel_widens), a constant that stays is not */
			if (v->kind == AV_SCALAR && !kept_loc(&kept, sum->locs[k].loc) &&
			    !(aval_is_const(v, &a) && aval_is_const(&x0, &b) && a == b)) {
				*v = LOC_IS_REG(sum->locs[k].loc) ? aval_scalar(range_unknown()) :
					absint_scalar_bytes(LOC_SLOT_SIZE(sum->locs[k].loc));
				v->src = SRC_FORGET;
			}
			v->kc = 0;
			/* (nor is what a packet pointer the loop moves adds: a variable part for the
			 * kernel, its least fixed offset c, aval.h) */
			if (v->kind == AV_PTR && v->region == REGION_PKT && !v->id &&
			    !range_is_const(&v->r)) {
				v->map = (uint16_t)aval_pkt_fixed_lo(v);
				v->id = AVAL_PKT_VAR;
			}
		}
	/* The cells the loop may write through pointers are forgotten; the stores below forget
	 * the cells overlapping the listed ones. */
	astate__invalidate_mask(H, sym_hv(sum));
	for (uint32_t k = 0; k < sum->nlocs && !err; k++) {
		loc_t x = sum->locs[k].loc;

		if (LOC_IS_REG(x))
			H->regs[x] = newv[k];
		else if (newv[k].kind == AV_TOP)
			/* (signed: the offset plus an unsigned size would wrap and forget the
			 * whole frame) */
			astate__invalidate(H, LOC_SLOT_OFF(x), (int64_t)LOC_SLOT_OFF(x) +
				      (int64_t)LOC_SLOT_SIZE(x));
		else
			err = astate__store(H, LOC_SLOT_OFF(x), LOC_SLOT_SIZE(x), &newv[k]);
	}
	/* Cells forgotten here that the first pass knows at the header. */
	for (uint32_t i = 0; fh && fh->live && i < fh->n && !err; i++) {
		const struct acell *c = &fh->cells[i];
		bool held = false;

		for (uint32_t j = 0; j < H->n && !held; j++)
			held = H->cells[j].off < c->off + c->size &&
			       c->off < H->cells[j].off + H->cells[j].size;
		if (!held) {
			struct aval v = c->v;

			v.src = SRC_FORGET;
			err = astate__store(H, c->off, c->size, &v);
		}
	}
	/* E's null guard holds at the header while no instruction of the loop writes either
	 * register */
	for (uint32_t k = 0; k < L->nblocks && astate__nn_any(H); k++) {
		const struct scev_block *B = &cx->st.cfg->blocks[L->blocks[k]];

		for (uint32_t pc = B->first; pc <= B->last; pc += ebpf_insn_slots(&cx->insns[pc]))
			if (ebpf_regs_written(&cx->insns[pc]) & (1u << H->nn.p | 1u << H->nn.g))
				H->nn = (struct nn_guard){ 0, 0 };
	}
	/* The first pass's header state covers every visit: so does its null guard, where p is
	 * still a pointer (a value the summary forgot, from that state) and g a number. */
	if (fh && fh->live && fh->nn.p != fh->nn.g && H->regs[fh->nn.p].kind == AV_PTR &&
	    H->regs[fh->nn.g].kind == AV_SCALAR)
		H->nn = fh->nn;
	/* The entry's packet pointers and relations to the packet's length hold in later
	 * iterations only when no iteration may move the packet. */
	if (loop_moves_pkt(cx, l))
		absint_pkt_moved(H);
	/* H mixes the entry state with values of later iterations: a lookup in the body may
	 * have run again since a copy in E took its identity. */
	astate__drop_ids(H);
	/* (and a ringbuf record the body may release is no longer known valid: absint_ref.c) */
	absint_ref_loop_state(cx, l, H);
	absint_dynptr_loop_state(cx, l, H);
	/* A loop whose body leaves in its first pass, every time, as the first pass found (it
	 * reached none of its back edges, and it covers every run): the header runs once, from
	 * the entry state (the kernel sees the code that only later iterations reach as dead). */
	if (fh && fh->live && fh->once && !parts)
		err = astate__copy(H, E);
out:
	if (newv != newv_few) {
		free(newv);
		free(done);
	}
	return err;
}

/* ---- exit values ---- */

/* On the single exit edge of a loop with an exact trip count T, every recurrence holds its value
 * of iteration T - 1 and the symbolic exit state says what the changed locations are in terms of
 * them: evaluating it gives exact exit values, met with what the forward pass computed. */
struct env_exit {
	struct engine *en;
	uint32_t l;
	uint64_t k;		/* T - 1 */
	struct env_state es;	/* entry state */
	struct aval tmp;
};

static const struct aval *exit_env(void *arg, loc_t loc)
{
	struct env_exit *ee = arg;
	const struct sym_summary *sum = scev_sum(ee->en->cx, ee->l);
	const struct sym_loc *sl = sym_find(sum, loc);
	struct aval x0 = *state_env(&ee->es, loc), z;
	uint64_t step;

	if (!sl && !sym_unchanged(sum, loc)) {
		ee->tmp = aval_top();	/* written through an overlapping cell, or havoc */
	} else if (!sl) {
		ee->tmp = x0;
	} else if (!sym_step_of(ee->en->cx, sum, sl, state_env, &ee->es, &step)) {
		ee->tmp = aval_top();
	} else if (sl->width == 64) {
		ee->tmp = aval_add_scaled(&x0, step, ee->k, ee->k, 64);
	} else if (ee->k == 0) {
		ee->tmp = x0;
	} else {
		z = aval_zext(&x0, 4);
		ee->tmp = aval_add_scaled(&z, step, ee->k, ee->k, 32);
	}
	return &ee->tmp;
}

/* ---- arrays filled by loops ---- */

/* e as fp * coefficient + c at iteration k of loop l, when e is a linear form (sums,
 * differences, negations, products and left shifts by constants, at 64 bits) of constants, r10
 * and locations that are 64-bit add recurrences or unchanged with a constant value or constant
 * stack offset at entry: such a form of add recurrences is itself one, exactly (mod 2^64). */
static bool lin_eval(struct engine *en, uint32_t l, eid e, uint64_t k, uint64_t *fp, uint64_t *c)
{
	struct scev_ctx *cx = en->cx;
	const struct expr *x = expr_get(&cx->ar, e);
	const struct sym_summary *sum = scev_sum(cx, l);
	uint64_t fa, ca, fb, cb, v;

	switch (x->kind) {
	case EX_CONST:
		*fp = 0, *c = x->imm;
		return true;
	case EX_FP:
		*fp = 1, *c = 0;
		return true;
	case EX_REG: {
		const struct astate *E = st_peek(en->in, cx->st.loops->loops[l].header);
		const struct sym_loc *sl = sym_find(sum, (loc_t)x->a);
		struct aval x0 = LOC_IS_REG(x->a) ? E->regs[x->a]
				 : astate__load(E, LOC_SLOT_OFF(x->a), LOC_SLOT_SIZE(x->a));
		uint64_t step = 0;

		if (sl && (sl->cls != LC_AFFINE || sl->width != 64))
			return false;
		if (sl)
			step = sl->step;
		else if (!sym_unchanged(sum, (loc_t)x->a))
			return false;
		if (aval_is_const(&x0, &v))
			*fp = 0;
		else if (x0.kind == AV_PTR && x0.region == REGION_STACK && !x0.maybe_null &&
			 range_is_const(&x0.r))
			*fp = 1, v = x0.r.umin;
		else
			return false;
		*c = v + k * step;
		return true;
	}
	case EX_NEG:
		if (x->w32 || !lin_eval(en, l, x->a, k, &fa, &ca))
			return false;
		*fp = -fa, *c = -ca;
		return true;
	case EX_ALU:
		if (x->w32 || !lin_eval(en, l, x->a, k, &fa, &ca))
			return false;
		if ((x->op == BPF_LSH || x->op == BPF_MUL) && expr_is_const(&cx->ar, x->b, &v)) {
			if (x->op == BPF_LSH && v >= 64)
				return false;
			v = x->op == BPF_LSH ? 1ull << v : v;
			*fp = fa * v, *c = ca * v;
			return true;
		}
		if ((x->op != BPF_ADD && x->op != BPF_SUB) || !lin_eval(en, l, x->b, k, &fb, &cb))
			return false;
		*fp = x->op == BPF_ADD ? fa + fb : fa - fb;
		*c = x->op == BPF_ADD ? ca + cb : ca - cb;
		return true;
	default:
		return false;
	}
}

/* On an exit edge of loop l from block `from`, left after at least `done` complete iterations,
 * a store of every iteration whose address steps by a constant has written its own bytes in
 * each: once per completed iteration (its block dominates the back edges' sources), and once
 * more in the leaving one when its block also dominates the exiting block, at iteration k's
 * address c0 + k * stride (lin_eval, exact).  Each store's bytes are its own stepped runs, not
 * a hull: two fields of an element, `p[i].a = ...; p[i].b = ...`, are two stores whose runs
 * together fill the elements, and a field no store writes stays unwritten.  (A store to one
 * slot, stride 0, has written that slot; a store stepping by its own width, a contiguous
 * range.)  Runs outside the frame place nothing (the verdict refuses such an access); past
 * EBPF_STACK_SIZE iterations only the first ones' runs are added (they were written too). */
static void exit_fills(struct engine *en, uint32_t l, uint32_t from, uint64_t done,
		       struct astate *st)
{
	struct scev_ctx *cx = en->cx;
	const struct sym_summary *sum = scev_sum(cx, l);

	for (uint32_t k = 0; k < sum->nstores; k++) {
		const struct sym_store *w = &sum->stores[k];
		uint64_t f0, c0, f1, c1, n = done;
		int64_t stride, at;

		if (scev_dom__dominates(cx->st.dom, w->block, from))
			n++;
		if (!n || !lin_eval(en, l, w->addr, 0, &f0, &c0) ||
		    !lin_eval(en, l, w->addr, 1, &f1, &c1) || f0 != 1 || f1 != 1)
			continue;
		stride = (int64_t)(c1 - c0);
		at = (int64_t)c0;
		/* (bounded so that no run's offset overflows: iteration j's is at + j * stride) */
		if (at < -2 * EBPF_STACK_SIZE || at > 2 * EBPF_STACK_SIZE ||
		    stride < -EBPF_STACK_SIZE || stride > EBPF_STACK_SIZE)
			continue;
		if (stride == 0 || n > EBPF_STACK_SIZE)
			n = stride == 0 ? 1 : EBPF_STACK_SIZE;
		for (uint64_t j = 0; j < n; j++, at += stride)
			if (at >= -EBPF_STACK_SIZE && at + w->size <= 0)
				fpmask_add(&st->sinit, at, at + w->size);
	}
}

/* Registers written on every path of loop l from its header, which holds hdr_in, to the end of
 * each block (out, per block of L): a must-analysis over the body, inner cycles included, from
 * the optimistic start to its greatest fixpoint.  A call (or LD_ABS/LD_IND) leaves r1-r5
 * unwritten and writes r0 unless it returns nothing, as absint_step counts them. */
static void loop_must_regs(struct scev_ctx *cx, const struct scev_loop *L, uint16_t hdr_in,
			   uint16_t *out)
{
	const struct scev_cfg *g = cx->st.cfg;
	bool changed = true;

	for (uint32_t k = 0; k < L->nblocks; k++)
		out[k] = 0xffff;
	while (changed) {
		changed = false;
		for (uint32_t k = 0; k < L->nblocks; k++) {
			const struct scev_block *b = &g->blocks[L->blocks[k]];
			uint16_t d = hdr_in;

			if (L->blocks[k] != L->header) {
				d = 0xffff;
				for (uint32_t p = 0; p < b->npred; p++) {
					uint32_t at = scev_loop__block_index(L, g->preds[b->pred_off + p]);

					if (at != SCEV_NONE)
						d &= out[at];
				}
			}
			for (uint32_t pc = b->first; pc <= b->last; pc += ebpf_insn_slots(&cx->insns[pc])) {
				const struct bpf_insn *i = &cx->insns[pc];

				if (!clobbers_args(i)) {
					d |= (uint16_t)ebpf_regs_written(i);
					continue;
				}
				d = (uint16_t)((d & ~0x3fu) | 1u);
				if (!absint_call_sets_r0(cx, pc))
					d &= (uint16_t)~1u;
			}
			if (d != out[k]) {
				out[k] = d;
				changed = true;
			}
		}
	}
}

/* Registers written when leaving loop l from block `from` after at least one complete
 * iteration: those every path around the loop writes (from a header that holds none) are
 * written at the header of every later iteration, and from there those that survive the path
 * to `from`.  0 when memory runs out. */
static uint16_t loop_exit_regs(struct scev_ctx *cx, uint32_t l, uint32_t from)
{
	const struct scev_loop *L = &cx->st.loops->loops[l];
	uint32_t at = scev_loop__block_index(L, from);
	uint16_t few[32], *out = few, w = 0xffff, res;	/* (a small loop's: no allocation) */

	if (at == SCEV_NONE ||
	    (L->nblocks > 32 && !(out = malloc(L->nblocks * sizeof(*out)))))
		return 0;
	loop_must_regs(cx, L, 0, out);
	for (uint32_t e = 0; e < L->nback_edges; e++) {
		uint32_t src = scev_loop__block_index(L, L->back_edges[e].from);

		w &= src != SCEV_NONE ? out[src] : 0;
	}
	loop_must_regs(cx, L, w, out);
	res = out[at];
	if (out != few)
		free(out);
	return res;
}

/* Iterations surely complete when loop l is left from block `from` (its exit tested in every
 * iteration there): the trip count's minimum on the single exit, or that exit test's own. */
static uint64_t exit_iterations_done(struct engine *en, uint32_t l, uint32_t from)
{
	const struct sym_summary *sum = scev_sum(en->cx, l);
	const struct loop_result *res = &en->res[l];
	uint64_t n = 0;

	if (!res->visited || !sum->ok)
		return 0;
	for (uint32_t k = 0; k < res->nexit_done && k < sum->nexits; k++)
		if (sum->exits[k].block == from && res->exit_done[k] > n)
			n = res->exit_done[k];
	return n;
}

int absint_refine_exit(struct engine *en, uint32_t from, uint32_t to, struct astate *st)
{
	struct scev_ctx *cx = en->cx;
	const struct scev_loops *lf = cx->st.loops;
	int err = 0;

	for (uint32_t l = lf->loop_of[from]; l != SCEV_NONE && !err; l = lf->loops[l].parent) {
		const struct scev_loop *L = &lf->loops[l];
		const struct sym_summary *sum = scev_sum(cx, l);
		struct env_exit ee = { .en = en, .l = l, .es = { .s = st_peek(en->in, L->header) } };
		const struct claim_trip *trip;
		uint64_t done;

		/* The edge stays in l, and so in every loop around it: none of them is left (a
		 * nest's exit edges would otherwise walk every level above the loops they leave). */
		if (scev_loop__block_index(L, to) != SCEV_NONE)
			break;
		absint_ref_loop_state(cx, l, st);	/* (as at the header) */
		absint_dynptr_loop_state(cx, l, st);
		/* Definedness through the loop: left after a complete iteration, what every
		 * iteration writes is written (registers; the stack in exit_fills). */
		if (!L->irreducible && (done = exit_iterations_done(en, l, from)) >= 1) {
			st->init |= loop_exit_regs(cx, l, from);
			exit_fills(en, l, from, done, st);
		}

		if (cx->first_pass)
			continue;	/* (trip counts: the last pass's only) */
		trip = loop_trip(en, l);
		/* (a count the kernel does not walk to, where it widens: what it finds at the
		 * exit is not the last iteration's) */
		if (!en->res[l].kcount)
			continue;
		if (L->nexits == 1 && L->exits[0].from == from && L->exits[0].to == to &&
		    en->res[l].visited && sum->ok && sum->single_exit &&
		    !L->irreducible && trip->kind != TRIP_UNKNOWN && trip->min >= 1)
			exit_fills(en, l, from, trip->min - 1, st);
		if (L->nexits != 1 || L->exits[0].from != from || L->exits[0].to != to ||
		    !en->res[l].visited || trip->kind != TRIP_EXACT || !sum->ok ||
		    !sum->single_exit || L->irreducible)
			continue;	/* (irreducible: it also exits before its header) */
		ee.k = trip->max - 1;
		for (uint32_t k = 0; k < sum->nlocs && !err; k++) {
			loc_t x = sum->locs[k].loc;
			struct aval v = aval_eval(cx, sum->exit_vals[k], exit_env, &ee), cur, m;

			aval_drop_id(&v);	/* from the entry state: see absint_header_step */

			if (LOC_IS_REG(x)) {
				st->regs[x] = aval_meet(&st->regs[x], &v);
			} else {
				cur = astate__load(st, LOC_SLOT_OFF(x), LOC_SLOT_SIZE(x));
				m = aval_meet(&cur, &v);
				if (!aval_equal(&m, &cur))
					err = astate__store(st, LOC_SLOT_OFF(x), LOC_SLOT_SIZE(x),
							    &m);
			}
		}
	}
	return err;
}
