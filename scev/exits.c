/* Trip counts of one exit: which shape of test an exiting jump makes, and the one question each
 * shape asks the trip solver (trip.h).
 *
 * An exit test compares two values at the exiting jump, in the loop's REG symbols (symex.c).
 * exit_match() first finds the tested sequence: one side a recurrence of the loop plus an offset,
 * the other loop-invariant, with the ranges both take at loop entry.  Then each recognizer of
 * exit_shapes[] in turn declines the sequence or answers for it: a bound on the first iteration
 * that exits, or "cannot compute" with the reason the trip claim reports.  This is the split of
 * LLVM's ScalarEvolution into howFarToZero, howManyLessThans and howManyGreaterThans.  A new shape
 * is one recognizer and one line of exit_shapes[], placed before every shape that would also
 * take its sequences.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scev/internal.h"

/* The tested sequence of one exit: the loop leaves in iteration k when v(k) op n holds, where
 * v(k) is v(0) plus k steps of the counter (mod 2^32 with seq32, else mod 2^64). */
struct exit_seq {
	const struct sym_exit *e;
	loc_t loc;		/* the counter */
	uint8_t op;		/* exit when v op n; BPF_JSET: when v & n is non-zero (taken) or
				 * zero (not taken) */
	struct aval a0;		/* v(0): the counter's entry value plus the offset */
	struct aval n;		/* the loop-invariant side, at entry */
	bool seq32;		/* v wraps at 2^32: a 32-bit add, or a 32-bit counter */
	uint64_t step;		/* the counter's step (the smallest with varies) */
	bool varies;		/* the step differs between paths, from step to step_hi */
	uint64_t step_hi;
	bool spread;		/* the offset differs between paths, from clo to chi */
	int64_t clo, chi;
	eid inv;		/* the loop-invariant side, in the loop's REG symbols */
	uint64_t off;		/* v(0) = the counter's entry value + off (without spread) */
	bool next;		/* v(k) is the counter at the header of iteration k + 1 (tests_next) */
	bool guarded;		/* the loop is entered only where v(0) - step == n fails
				 * (entry_guarded): a(0) below is not n */
	struct aval a0_before;	/* a(0) = v(0) - step, the counter's entry value (with guarded) */
};

/* What a recognizer returns for a sequence that is not of its shape. */
#define EXIT_DECLINE 1

/* (a fixed text: copied, not formatted) */
#define WHY(text) (copy_text(why, whylen, (text)), -1)

static bool exit_invariant(void *arg, loc_t l)
{
	return sym_unchanged(arg, l);
}

/* The values added to accumulation sl at its back edges, one per path (a delta may hold what an
 * inner loop adds: a RANGE, different every iteration), each over env: their number, or -1 when
 * a delta reads what the loop changes, is not a number, or there are more than max. */
static int accum_deltas(struct scev_ctx *cx, const struct sym_summary *s,
			const struct sym_loc *sl, const struct aval *(*env)(void *arg, loc_t l),
			void *arg, struct aval *out, int max)
{
	eid alts[8];
	int n;

	if (sl->cls != LC_ACCUM || (n = expr_alternatives(&cx->ar, sl->back, alts, 8)) < 1 ||
	    n > max)
		return -1;
	for (int k = 0; k < n; k++) {
		eid d;
		bool w32;

		if (!sym_accum_delta(&cx->ar, alts[k], sl->loc, &d, &w32) ||
		    !expr_only_regs_r(&cx->ar, d, exit_invariant, (void *)s))
			return -1;
		out[k] = aval_eval(cx, d, env, arg);
		if (out[k].kind != AV_SCALAR)
			return -1;
	}
	return n;
}

/* A location updated by a different constant on different paths (x += 1 here, x += 3 there):
 * the smallest and largest step, both non-zero and of one sign as width-bit numbers. */
static bool sym_step_range(struct scev_ctx *cx, const struct sym_summary *s,
			   const struct sym_loc *sl, const struct aval *(*env)(void *arg, loc_t l),
			   void *arg, uint64_t *slo, uint64_t *shi)
{
	uint64_t mask = sl->width == 32 ? 0xffffffffull : UINT64_MAX, sign = mask / 2 + 1;
	struct aval v[8];
	int n = accum_deltas(cx, s, sl, env, arg, v, 8);

	if (n < 1)
		return false;
	for (int k = 0; k < n; k++) {
		uint64_t lo = sl->width == 32 ? v[k].r.u32_min : v[k].r.umin;
		uint64_t hi = sl->width == 32 ? v[k].r.u32_max : v[k].r.umax;

		/* non-zero, and of one sign as width-bit numbers */
		if (!lo || (lo < sign) != (hi < sign))
			return false;
		if (k == 0) {
			*slo = lo;
			*shi = hi;
			continue;
		}
		if ((lo >= sign) != (*slo >= sign))
			return false;
		if (lo < *slo)
			*slo = lo;
		if (hi > *shi)
			*shi = hi;
	}
	return true;
}

bool sym_delta_bounds(struct scev_ctx *cx, const struct sym_summary *s, const struct sym_loc *sl,
		      const struct aval *(*env)(void *arg, loc_t l), void *arg, int64_t *lo,
		      int64_t *hi)
{
	struct aval v[8];
	int n = accum_deltas(cx, s, sl, env, arg, v, 8);

	for (int k = 0; k < n; k++) {
		int64_t a = sl->width == 32 ? v[k].r.s32_min : v[k].r.smin;
		int64_t b = sl->width == 32 ? v[k].r.s32_max : v[k].r.smax;

		*lo = k == 0 || a < *lo ? a : *lo;
		*hi = k == 0 || b > *hi ? b : *hi;
	}
	return n >= 1;
}

/* The largest offset magnitude the path-offset shapes take: within 2^30 where 32 and 64 bits
 * mix (a 64-bit offset's sign need not be its low half's), below 2^31 where a 32-bit add is
 * tested at 32 bits (the offset's sign is its own; exit_path_offsets checks that the step plus
 * an offset stays below 2^31), else 2^62, which keeps the step plus an offset within 64 bits. */
static int64_t offset_limit(bool test32, bool add32)
{
	return test32 && add32 ? (1ll << 31) - 1 : test32 || add32 ? 1ll << 30 : 1ll << 62;
}

/* e is one of base + c_i on different paths (base a location, one add width): the smallest and
 * largest offset, as signed numbers of that width (a test after an update that differs between
 * paths sees x + 1 on one and x + 3 on another); each within offset_limit. */
static bool any_offsets(const struct expr_arena *ar, eid e, bool test32, eid *base, int64_t *clo,
			int64_t *chi, bool *w32)
{
	eid alts[8];
	int n = ar->v[e].kind == EX_ANY ? expr_alternatives(ar, e, alts, 8) : -1;

	if (n < 2)
		return false;
	for (int k = 0; k < n; k++) {
		eid b;
		uint64_t c;
		bool w;
		int64_t sc;

		expr_match_add(ar, alts[k], &b, &c, &w);
		if (ar->v[b].kind != EX_REG || (k && (b != *base || w != *w32)))
			return false;
		sc = w ? (int64_t)(int32_t)(uint32_t)c : (int64_t)c;
		if (sc < -offset_limit(test32, w) || sc > offset_limit(test32, w))
			return false;
		if (k == 0) {
			*base = b;
			*w32 = w;
			*clo = *chi = sc;
		}
		*clo = sc < *clo ? sc : *clo;
		*chi = sc > *chi ? sc : *chi;
	}
	return true;
}

/* e is one of base + o_i on different paths, each o_i a constant or a sum of constants and RANGE
 * leaves (what an inner loop added), at least one RANGE: the smallest and largest offset, as
 * for any_offsets(). */
static bool range_offsets(struct expr_arena *ar, eid e, bool test32, eid *base, int64_t *clo,
			  int64_t *chi, bool *w32)
{
	eid alts[8];
	int n = expr_alternatives(ar, e, alts, 8);
	bool range = false;

	if (n < 1)
		return false;
	for (int k = 0; k < n; k++) {
		eid b;
		int64_t lo, hi;
		uint64_t c;
		bool w;

		if (sym_range_offset(ar, alts[k], !test32, &b, &lo, &hi, &w)) {
			range = true;
		} else {
			expr_match_add(ar, alts[k], &b, &c, &w);
			lo = hi = w ? (int64_t)(int32_t)(uint32_t)c : (int64_t)c;
			if (ar->v[b].kind != EX_REG || lo < -offset_limit(test32, w) ||
			    lo > offset_limit(test32, w))
				return false;
		}
		if (k && (b != *base || w != *w32))
			return false;
		if (k == 0) {
			*base = b;
			*w32 = w;
			*clo = lo;
			*chi = hi;
		}
		*clo = lo < *clo ? lo : *clo;
		*chi = hi > *chi ? hi : *chi;
	}
	return range;
}

/* ivx as a counter of the loop plus an offset: REG(x) + c, REG(x) + r with r loop-invariant and
 * constant at entry, or REG(x) + c_i with c_i differing between paths (m->spread), x stepping by
 * a constant (sym_step_of) or by constants of one sign differing between paths (m->varies).
 * The counter, or NULL; *c is the offset, *aw32 whether the add is a 32-bit one. */
static const struct sym_loc *exit_counter1(struct scev_ctx *cx, const struct sym_summary *s,
					  const struct aval *(*env)(void *arg, loc_t l), void *arg,
					  eid ivx, struct exit_seq *m, uint64_t *c, bool *aw32)
{
	struct expr_arena *ar = &cx->ar;
	const struct sym_loc *sl;
	eid base;

	m->spread = any_offsets(ar, ivx, m->e->is32, &base, &m->clo, &m->chi, aw32) ||
		    range_offsets(ar, ivx, m->e->is32, &base, &m->clo, &m->chi, aw32);
	if (m->spread)
		*c = (uint64_t)m->clo;
	else
		expr_match_add(ar, ivx, &base, c, aw32);
	if (!m->spread && ar->v[base].kind == EX_ALU && ar->v[base].op == BPF_ADD) {
		/* x + r with r loop-invariant and constant at entry: an offset too */
		const struct expr x0 = ar->v[base], *x = &x0;
		eid o = ar->v[x->a].kind == EX_REG ? x->b : x->a;
		eid rx = ar->v[x->a].kind == EX_REG ? x->a : x->b;
		struct aval ov;

		if (ar->v[rx].kind == EX_REG && expr_only_regs(ar, o, exit_invariant, (void *)s)) {
			ov = aval_eval(cx, o, env, arg);
			if (aval_is_const(&ov, c)) {
				base = rx;
				*aw32 = x->w32;
			}
		}
	}
	m->varies = false;
	if (ar->v[base].kind != EX_REG || !(sl = sym_find(s, ar->v[base].a)))
		return NULL;
	if (sym_step_of(cx, s, sl, env, arg, &m->step) ||
	    (m->varies = sym_step_range(cx, s, sl, env, arg, &m->step, &m->step_hi)))
		return sl;
	return NULL;
}

static const struct sym_loc *exit_counter(struct scev_ctx *cx, const struct sym_summary *s,
					  const struct aval *(*env)(void *arg, loc_t l), void *arg,
					  eid ivx, struct exit_seq *m, uint64_t *c, bool *aw32)
{
	const struct sym_loc *sl = exit_counter1(cx, s, env, arg, ivx, m, c, aw32);
	eid small;

	/* (else the 32-bit forms of x + c and x + c through identities on small values, which
	 * are x + c on the values the header sees) */
	if (!sl && (small = sym_small_ident(cx, s, ivx)) != ivx)
		sl = exit_counter1(cx, s, env, arg, small, m, c, aw32);
	return sl;
}

/* Whether register r holds at the end of block b the value location l holds there: r is l, or
 * b loads l into r (of l's size) or stores r into l (8 bytes; 4 when only the low halves are
 * compared: low32) with nothing after it in b that may write r or l (another write of r, a
 * store to l's bytes or through a register other than r10, a call). */
static bool block_reg_holds(const struct scev_ctx *cx, uint32_t b, uint8_t r, loc_t l, bool low32)
{
	const struct scev_block *B = &cx->st.cfg->blocks[b];
	int32_t lo, hi;
	bool eq = false;

	if (LOC_IS_REG(l))
		return r == l;
	lo = LOC_SLOT_OFF(l);
	hi = lo + (int32_t)LOC_SLOT_SIZE(l);
	for (uint32_t pc = B->first; pc < B->last; pc += ebpf_insn_slots(&cx->insns[pc])) {
		const struct bpf_insn *i = &cx->insns[pc];
		uint8_t cls = ebpf_class(i);
		int32_t sz = cls == BPF_LDX || cls == BPF_ST || cls == BPF_STX ?
				     (int32_t[]){ 4, 2, 1, 8 }[ebpf_size(i) >> 3] : 0;

		if (cls == BPF_LDX && ebpf_mode(i) == BPF_MEM && i->dst_reg == r &&
		    i->src_reg == EBPF_REG_FP && i->off == lo && sz == hi - lo) {
			eq = true;
			continue;
		}
		if (ebpf_is_call(i) || (ebpf_regs_written(i) & (1u << r))) {
			eq = false;
			continue;
		}
		if (cls != BPF_ST && cls != BPF_STX)
			continue;
		if (i->dst_reg != EBPF_REG_FP || ebpf_mode(i) != BPF_MEM) {
			eq = false;	/* (a store that may reach the stack, an atomic) */
			continue;
		}
		if (i->off < hi && lo < i->off + sz)
			eq = cls == BPF_STX && i->src_reg == r && i->off == lo &&
			     (sz == 8 || (sz == 4 && low32)) && sz == hi - lo;
	}
	return eq;
}

/* Whether exit e tests, on side (0: the jump's dst register, 1: its src), the counter loc itself
 * as the loop's only back edge carries it to the header: the jump ends the only latch, so it
 * stays by that edge and the register it reads is the counter's value at the next header
 * execution (x += 1 or x += 4 on two paths, then if x < n goto header), or a stack slot the
 * register holds at the end of that block.  Then v(k) = x(k + 1)
 * on the same path: the tested offsets are the steps themselves, not independent of them. */
static bool tests_next(const struct scev_ctx *cx, const struct sym_summary *s,
		       const struct sym_exit *e, int side, loc_t loc)
{
	const struct scev_loops *lf = cx->st.loops;
	const struct bpf_insn *i = &cx->insns[cx->st.cfg->blocks[e->block].last];
	const struct scev_loop *L;
	uint8_t r;

	if (!cx->sums || !lf || s < cx->sums || s >= cx->sums + lf->nloops)
		return false;
	L = &lf->loops[s - cx->sums];
	if (L->nback_edges != 1 || L->back_edges[0].from != e->block)
		return false;
	if (side == 1 && !ebpf_srcbit(i))
		return false;
	r = side == 0 ? i->dst_reg : i->src_reg;
	/* (a counter on the stack: the latch block loads it, or stores the register it tests,
	 * and nothing after that writes either: u32 i on the stack, i -= 1 or 2, if i >= n) */
	return block_reg_holds(cx, e->block, r, loc, ebpf_class(i) == BPF_JMP32);
}

/* block_reg_holds as jmp_tests_inv's question: register r holds l's value at the end of block b. */
struct block_end {
	const struct scev_ctx *cx;
	uint32_t b;
	bool low32;
};

static bool held_at_block_end(const void *arg, uint8_t r, loc_t l)
{
	const struct block_end *h = arg;

	return block_reg_holds(h->cx, h->b, r, l, h->low32);
}

/* Whether loop s is entered only by one edge, from a block P outside it ending in `if a == b`
 * that falls through to the header (or `if a != b` that jumps there), where a holds at P's end
 * the counter m->loc and b the bound m->inv (a location's entry value, or the constant the
 * jump compares with): a loop a compiler rotated, its test at the top kept as a guard.  Every run
 * entering it then has v(0) - step != n, in the exit's width (a 64-bit guard for a 64-bit
 * sequence and test only; a 32-bit one implies both). */
static bool entry_guarded(const struct scev_ctx *cx, const struct sym_summary *s,
			  const struct exit_seq *m)
{
	const struct scev_loops *lf = cx->st.loops;
	const struct scev_cfg *cfg = cx->st.cfg;
	const struct expr *inv = &cx->ar.v[m->inv];
	const struct scev_loop *L;
	const struct bpf_insn *i;
	const uint32_t *preds;
	struct block_end hb;
	uint32_t l, P = SCEV_NONE;

	if (!cx->sums || !lf || s < cx->sums || s >= cx->sums + lf->nloops)
		return false;
	l = (uint32_t)(s - cx->sums);
	L = &lf->loops[l];
	if (L->irreducible || L->nentries != 1)
		return false;
	preds = scev_block_preds(cfg, L->header);
	for (uint32_t k = 0; k < cfg->blocks[L->header].npred; k++) {
		if (scev_loop__contains(lf, l, preds[k]))
			continue;
		if (P != SCEV_NONE)
			return false;
		P = preds[k];
	}
	if (P == SCEV_NONE || !(i = scev_block_cond_jmp(cfg, P)) || cfg->blocks[P].nsucc != 2)
		return false;
	if (ebpf_op(i) == BPF_JEQ ? cfg->blocks[P].succ[0] != L->header ||
					    cfg->blocks[P].succ[1] == L->header :
	    ebpf_op(i) == BPF_JNE ? cfg->blocks[P].succ[1] != L->header ||
					    cfg->blocks[P].succ[0] == L->header :
				    true)
		return false;
	hb.cx = cx;
	hb.b = P;
	hb.low32 = ebpf_class(i) == BPF_JMP32;
	if (!hb.low32 && (m->e->is32 || m->seq32))
		return false;
	return jmp_tests_inv(i, m->loc, inv, held_at_block_end, &hb);
}

bool jmp_tests_inv(const struct bpf_insn *i, loc_t ctr, const struct expr *inv,
		   bool (*holds)(const void *arg, uint8_t r, loc_t l), const void *arg)
{
	bool reg = ebpf_srcbit(i) == BPF_X, j32 = ebpf_class(i) == BPF_JMP32;

	for (int side = 0; side < 2; side++) {
		uint8_t a = side ? i->src_reg : i->dst_reg, o = side ? i->dst_reg : i->src_reg;

		if ((side && !reg) || !holds(arg, a, ctr))
			continue;
		if (inv->kind == EX_REG && reg && holds(arg, o, inv->a))
			return true;
		if (inv->kind == EX_CONST && !reg &&
		    (j32 ? (uint32_t)i->imm == (uint32_t)inv->imm :
			   (uint64_t)(int64_t)i->imm == inv->imm))
			return true;
	}
	return false;
}

/* The tested sequence of exit e: a counter on one side (the left after swapping), a
 * loop-invariant value on the other.  0, or -1 with why. */
static int exit_match(struct scev_ctx *cx, const struct sym_summary *s, const struct sym_exit *e,
		      const struct aval *(*env)(void *arg, loc_t l), void *arg, struct exit_seq *m,
		      char *why, unsigned whylen)
{
	uint8_t op = e->exit_on_taken ? e->op : trip_negate(e->op);
	eid ivx = e->lhs, inv = e->rhs;
	const struct sym_loc *sl = NULL;
	struct aval x0, cst;
	uint64_t c = 0;
	bool aw32 = false;

	memset(m, 0, sizeof(*m));
	m->e = e;
	if (e->op == BPF_JSET)
		op = BPF_JSET;	/* exit when some bit is set (taken) or when all are clear */
	if (!op || e->op == BPF_JCOND)
		return WHY("the exit test is not a comparison");
	int side;

	for (side = 0; side < 2; side++) {
		sl = exit_counter(cx, s, env, arg, ivx, m, &c, &aw32);
		if (sl && expr_only_regs(&cx->ar, inv, exit_invariant, (void *)s))
			break;
		sl = NULL;
		ivx = e->rhs;
		inv = e->lhs;
		op = trip_swap(op);
	}
	if (!sl)
		return WHY("the exit test does not compare a recurrence with a loop-invariant value");
	m->op = op;
	m->loc = sl->loc;
	m->next = tests_next(cx, s, e, side, sl->loc);
	m->inv = inv;
	m->off = c;
	x0 = *env(arg, sl->loc);
	m->n = aval_eval(cx, inv, env, arg);
	cst = m->spread ? aval_scalar(range_srange(m->clo, m->chi)) : aval_const(c);
	/* The tested sequence and its width: a 32-bit add wraps at 2^32 whatever the counter. */
	if (aw32) {
		m->seq32 = true;
		m->a0 = aval_alu(BPF_ADD, false, false, &x0, &cst);
	} else if (sl->width == 64) {
		m->seq32 = false;
		m->a0 = aval_alu(BPF_ADD, true, false, &x0, &cst);
	} else {
		/* A 32-bit counter read at 64 bits: its first value may carry high bits. */
		if (c != 0 || m->spread || x0.kind != AV_SCALAR || x0.r.umax > 0xffffffffull)
			return WHY("a 32-bit counter compared at 64 bits from a 64-bit start");
		m->seq32 = true;
		m->a0 = x0;
	}
	/* (a rotated loop: the exit tests the counter after its step, its guard before it) */
	if (op == BPF_JEQ && !m->spread && !m->varies && m->step &&
	    !((m->off - m->step) & (m->seq32 ? 0xffffffffull : UINT64_MAX)) &&
	    entry_guarded(cx, s, m)) {
		m->guarded = true;
		cst = aval_const(0);
		m->a0_before = m->seq32 ? aval_alu(BPF_ADD, false, false, &x0, &cst) : x0;
	}
	return 0;
}

/* The trip query for v op n: the ranges of v(0) and n in the space v lives and is compared in,
 * and the counter's steps.  0, or -1 with why when n does not fit that space. */
static int exit_query(const struct exit_seq *m, uint8_t op, struct trip_query *q, char *why,
		      unsigned whylen)
{
	const struct aval *a0 = &m->a0, *n = &m->n;

	memset(q, 0, sizeof(*q));
	q->pred = op;
	if (a0->kind == AV_SCALAR && n->kind == AV_SCALAR) {
		/* the low bits known in both and the same (an even step keeps them) */
		uint64_t same = ~(a0->r.var_off.mask | n->r.var_off.mask) &
				~(a0->r.var_off.value ^ n->r.var_off.value);

		q->low_same = ~same ? (unsigned)__builtin_ctzll(~same) : 64;
	}
	if (m->e->is32 || m->seq32) {
		q->width = 32;
		q->step = m->step & 0xffffffffull;
		q->step_hi = m->step_hi & 0xffffffffull;
		q->varies = m->varies;
		q->a_ulo = a0->r.u32_min;
		q->a_uhi = a0->r.u32_max;
		q->a_slo = a0->r.s32_min;
		q->a_shi = a0->r.s32_max;
	} else {
		q->width = 64;
		q->step = m->step;
		q->step_hi = m->step_hi;
		q->varies = m->varies;
		q->a_ulo = a0->r.umin;
		q->a_uhi = a0->r.umax;
		q->a_slo = a0->r.smin;
		q->a_shi = a0->r.smax;
	}
	if (m->e->is32) {
		q->n_ulo = n->r.u32_min;
		q->n_uhi = n->r.u32_max;
		q->n_slo = n->r.s32_min;
		q->n_shi = n->r.s32_max;
	} else if (!m->seq32) {
		q->n_ulo = n->r.umin;
		q->n_uhi = n->r.umax;
		q->n_slo = n->r.smin;
		q->n_shi = n->r.smax;
	} else {
		/* Zero-extended 32-bit values compared at 64 bits: translate the bound into the
		 * 32-bit space.  v >= 0 always, so signed tests are unsigned ones against max(N, 0);
		 * strict tests first become non-strict ones against N + 1. */
		__int128 lo, hi, w = (__int128)1 << 32;
		bool sgn = op == BPF_JSGT || op == BPF_JSGE || op == BPF_JSLT || op == BPF_JSLE;

		lo = sgn ? (__int128)n->r.smin : (__int128)n->r.umin;
		hi = sgn ? (__int128)n->r.smax : (__int128)n->r.umax;
		switch (op) {
		case BPF_JGT: case BPF_JSGT: op = BPF_JGE; lo++; hi++; break;
		case BPF_JLE: case BPF_JSLE: op = BPF_JLT; lo++; hi++; break;
		case BPF_JSGE: op = BPF_JGE; break;
		case BPF_JSLT: op = BPF_JLT; break;
		/* (v >= N, v < N: a bound at 2^32 or past it, which no v reaches, is 2^32, as
		 * the strict tests' N + 1 may be; == and != compare bits a 32-bit value lacks) */
		case BPF_JGE: case BPF_JLT: break;
		default:
			if (hi >= w)
				return WHY("the bound does not fit the 32-bit counter");
			break;
		}
		lo = lo < 0 ? 0 : lo > w ? w : lo;
		hi = hi < 0 ? 0 : hi > w ? w : hi;
		q->pred = op;
		q->n_ulo = (unsigned __int128)lo;
		q->n_uhi = (unsigned __int128)hi;
		q->n_slo = (int64_t)(lo >= w ? -1 : (int32_t)(uint32_t)lo);
		q->n_shi = (int64_t)(hi >= w ? -1 : (int32_t)(uint32_t)hi);
	}
	return 0;
}

/* ---- the shapes, in the order they are tried ---- */

/* v & C against a constant C: the bits of a counter come up in turn (trip_first_jset). */
static int exit_jset(const struct exit_seq *m, uint64_t *kmin, uint64_t *kmax, char *why,
		     unsigned whylen)
{
	unsigned w = m->e->is32 || m->seq32 ? 32 : 64;
	struct range ar = m->a0.r;
	uint64_t cv;

	if (m->op != BPF_JSET)
		return EXIT_DECLINE;
	if (m->varies || m->spread || m->a0.kind != AV_SCALAR || !aval_is_const(&m->n, &cv))
		return WHY("a jset exit tests no recurrence against a constant");
	if (w == 32)
		ar = range_zext32(&m->a0.r);
	if (trip_first_jset(w, m->step, cv, m->e->exit_on_taken, ~ar.var_off.mask,
			    ar.var_off.value, kmax, kmin, why, whylen))
		return -1;
	return 0;
}

/* A pointer stepping towards another pointer into the same region (a packet cursor against
 * data_end): the test compares offsets, as signed numbers, which holds only while the offsets
 * stay far from wrapping. */
static int exit_pointer_end(const struct exit_seq *m, uint64_t *kmin, uint64_t *kmax, char *why,
			    unsigned whylen)
{
	const struct aval *a0 = &m->a0, *n = &m->n;
	uint8_t op = m->op;
	struct trip_query q;
	uint64_t m1, m2;
	unsigned __int128 reach;

	if (a0->kind != AV_PTR || n->kind != AV_PTR || a0->region != n->region ||
	    a0->map != n->map || a0->maybe_null || n->maybe_null || m->seq32 || m->e->is32)
		return EXIT_DECLINE;
	switch (op) {
	case BPF_JGT: op = BPF_JSGT; break;
	case BPF_JGE: op = BPF_JSGE; break;
	case BPF_JLT: op = BPF_JSLT; break;
	case BPF_JLE: op = BPF_JSLE; break;
	default: break;
	}
	if (exit_query(m, op, &q, why, whylen))
		return -1;
	if (m->spread)
		return WHY("the tested offset differs between paths: only a number the counter "
			   "must reach is solved");
	if (trip_first_exit(&q, kmax, kmin, why, whylen))
		return -1;
	m1 = (int64_t)m->step < 0 ? -m->step : m->step;
	m2 = !m->varies ? 0 : (int64_t)m->step_hi < 0 ? -m->step_hi : m->step_hi;
	reach = (unsigned __int128)*kmax * (m1 > m2 ? m1 : m2);
	if (a0->r.smin < -(1ll << 40) || a0->r.smax > (1ll << 40) || reach > (1ull << 40))
		return WHY("pointer offsets too large to compare");
	return 0;
}

/* Every shape below compares numbers: a pointer against a number, or pointers into different
 * regions, have no count. */
static int exit_not_numbers(const struct exit_seq *m, uint64_t *kmin, uint64_t *kmax, char *why,
			    unsigned whylen)
{
	(void)kmin;
	(void)kmax;
	if (m->a0.kind == AV_SCALAR && m->n.kind == AV_SCALAR)
		return EXIT_DECLINE;
	return WHY("the compared values are not numbers");
}

/* v(k) = x(k) + c(k), c(k) one of the offsets [clo, chi] that differ between paths.  With the
 * offsets on the side the counter moves (>= 0 counting up, <= 0 down), v(k) stays at or beyond
 * x(k), so while no exit the next x is within a step of the bound and the next v within a step
 * plus the largest offset: a sequence with steps up to that sum starting in x0 + [clo, chi],
 * which only tests it must reach can bound.  When the test reads the value the back edge carries
 * (tests_next), each offset is its own path's step: v(k) = x(k + 1), a sequence with the
 * counter's steps from x0 + [clo, chi]. */
static int exit_path_offsets(const struct exit_seq *m, uint64_t *kmin, uint64_t *kmax, char *why,
			     unsigned whylen)
{
	struct trip_query q;
	uint64_t qm, qsign, s1, s2, lo, hi;
	bool up;

	if (!m->spread)
		return EXIT_DECLINE;
	if (exit_query(m, m->op, &q, why, whylen))
		return -1;
	qm = q.width == 32 ? 0xffffffffull : UINT64_MAX;
	qsign = qm / 2 + 1;
	s1 = q.step;
	s2 = q.varies ? q.step_hi : q.step;
	lo = s1 < s2 ? s1 : s2;
	hi = s1 < s2 ? s2 : s1;
	up = lo && lo < qsign;
	if (q.pred == BPF_JEQ || q.pred == BPF_JNE)
		return WHY("the tested offset differs between paths: only a number the counter "
			   "must reach is solved");
	if (!lo || (up ? m->clo < 0 : m->chi > 0))
		return WHY("the tested offsets do not follow the counter's direction");
	/* (what the test reads is the next header's counter: from v(0), the counter's steps) */
	if (up && !m->next)
		hi = hi + (uint64_t)m->chi;
	else if (!m->next)
		lo = (lo + (uint64_t)m->clo) & qm;
	if (up ? hi >= qsign : lo < qsign)
		return WHY("the counter's step and offsets are too large");
	q.step = lo;
	q.step_hi = hi;
	q.varies = true;
	return trip_first_exit(&q, kmax, kmin, why, whylen) ? -1 : 0;
}

/* A counter whose constant step differs between paths, all steps of one sign, against a
 * loop-invariant number: the slowest step gives the most iterations, the fastest the fewest and
 * the wrap check; only tests the counter must reach are solved (trip_query.varies). */
static int exit_step_range(const struct exit_seq *m, uint64_t *kmin, uint64_t *kmax, char *why,
			   unsigned whylen)
{
	struct trip_query q;

	if (!m->varies)
		return EXIT_DECLINE;
	if (exit_query(m, m->op, &q, why, whylen))
		return -1;
	return trip_first_exit(&q, kmax, kmin, why, whylen) ? -1 : 0;
}

/* An add recurrence against a loop-invariant number: the first k with {a0,+,step} op n, exact
 * under wrap-around (howFarToZero for == and !=, howManyLessThans and howManyGreaterThans for
 * the orders). */
static int exit_affine(const struct exit_seq *m, uint64_t *kmin, uint64_t *kmax, char *why,
		       unsigned whylen)
{
	struct trip_query q;
	struct exit_seq g;
	uint64_t gmin, gmax;
	char gwhy[96];
	int r;

	if (exit_query(m, m->op, &q, why, whylen))
		return -1;
	r = trip_first_exit(&q, kmax, kmin, why, whylen) ? -1 : 0;
	if (!m->guarded)
		return r;
	/* Guarded (exit_seq): a(k) = a(0) + k * step is v(k - 1), and a(0) != n in every run that
	 * enters, so the first k with a(k) == n is at least 1 and the exit's is k - 1: the count
	 * from the counter's own entry value, which does not pass n on its way to the first test
	 * (a bound one step above a start: not 2^64 steps). */
	g = *m;
	g.a0 = m->a0_before;
	if (exit_query(&g, BPF_JEQ, &q, gwhy, sizeof(gwhy)) ||
	    trip_first_exit(&q, &gmax, &gmin, gwhy, sizeof(gwhy)))
		return r;
	gmax = gmax ? gmax - 1 : 0;
	gmin = gmin ? gmin - 1 : 0;
	if (gmin > gmax)
		gmin = gmax;
	if (r) {
		*kmin = gmin;
		*kmax = gmax;
		return 0;
	}
	if (gmax < *kmax)
		*kmax = gmax < *kmin ? *kmin : gmax;
	if (gmin > *kmin && gmin <= *kmax)
		*kmin = gmin;
	return 0;
}

typedef int exit_shape_fn(const struct exit_seq *m, uint64_t *kmin, uint64_t *kmax, char *why,
			  unsigned whylen);

static exit_shape_fn *const exit_shapes[] = {
	exit_jset,
	exit_pointer_end,
	exit_not_numbers,
	exit_path_offsets,
	exit_step_range,
	exit_affine,
};

/* Locations an exit test reads whose value from the second iteration on is known: unchanged by
 * the loop (the entry value), or set in every iteration to a function of unchanged ones only
 * (LC_DERIVED: x = 1, x = n & 7; the entry value in the first iteration only). */
struct settled_env {
	struct scev_ctx *cx;
	const struct sym_summary *s;
	const struct aval *(*env)(void *arg, loc_t l);
	void *arg;
	bool later;		/* the values of iterations 1, 2, ... (else of iteration 0) */
	bool derived;		/* some value read was a derived location's */
	bool full;		/* more reads than tmp holds: the answer is refused */
	struct aval tmp[32], top;
	unsigned ntmp;
};

static bool settled_loc(void *arg, loc_t l)
{
	const struct settled_env *se = arg;
	const struct sym_loc *sl;

	if (sym_unchanged(se->s, l))
		return true;
	sl = sym_find(se->s, l);
	return sl && sl->cls == LC_DERIVED &&
	       expr_only_regs(&se->cx->ar, sl->back, exit_invariant, (void *)se->s);
}

static const struct aval *settled_value(void *arg, loc_t l)
{
	struct settled_env *se = arg;
	const struct sym_loc *sl;

	if (!se->later || sym_unchanged(se->s, l) || !(sl = sym_find(se->s, l)))
		return se->env(se->arg, l);
	se->derived = true;
	if (se->ntmp == sizeof(se->tmp) / sizeof(se->tmp[0])) {
		se->full = true;
		return &se->top;
	}
	se->tmp[se->ntmp] = aval_eval(se->cx, sl->back, se->env, se->arg);
	return &se->tmp[se->ntmp++];
}

/* An exit whose test reads only settled locations (above) has one outcome in every iteration
 * after the first: when that outcome certainly leaves, the loop leaves by iteration 1 (0 when
 * the first iteration's outcome certainly leaves too, or nothing it reads changes); kmin 1 when
 * the first iteration's outcome certainly stays.  EXIT_DECLINE otherwise, for the recognizers
 * of recurrences. */
static int exit_settled(struct scev_ctx *cx, const struct sym_summary *s, const struct sym_exit *e,
			const struct aval *(*env)(void *arg, loc_t l), void *arg, uint64_t *kmin,
			uint64_t *kmax)
{
	/* (not zero-initialized as a whole: tmp, 2.3 KB, is written before it is read, and
	 * clearing it was most of this function's cost on a program of many loops, twice per
	 * loop exit) */
	struct settled_env se;
	int leave = e->exit_on_taken ? 1 : 0, out[2];

	se.cx = cx;
	se.s = s;
	se.env = env;
	se.arg = arg;
	se.later = se.derived = se.full = false;
	se.ntmp = 0;
	se.top = aval_top();
	/* (an irreducible loop's first header execution may come from a side entry, after blocks
	 * that set the variable: its entry value is not known to be the first one tested) */
	if (!cx->sums || s < cx->sums || s >= cx->sums + cx->st.loops->nloops ||
	    cx->st.loops->loops[s - cx->sums].irreducible)
		return EXIT_DECLINE;
	if (e->op == BPF_JCOND || e->op == BPF_JSET ||
	    !expr_only_regs_r(&cx->ar, e->lhs, settled_loc, &se) ||
	    !expr_only_regs_r(&cx->ar, e->rhs, settled_loc, &se))
		return EXIT_DECLINE;
	for (int later = 0; later < 2; later++) {
		struct aval a, b;

		se.later = later;
		se.ntmp = 0;
		a = aval_eval(cx, e->lhs, settled_value, &se);
		b = aval_eval(cx, e->rhs, settled_value, &se);
		out[later] = aval_branch_outcome(e->op, e->is32, &a, &b);
	}
	if (se.full || out[1] != leave)
		return EXIT_DECLINE;
	*kmax = se.derived && out[0] != leave ? 1 : 0;
	*kmin = *kmax && out[0] == !leave ? 1 : 0;
	return 0;
}

/* Locations an exit test reads that the loop changes only through themselves and unchanged
 * locations (x ^= 1, x = 1 - x, x = -x: LLVM's toggles for `for (i = 0; i < 2; i++)`), with
 * their values in one iteration. */
#define CYCLE_LOCS 8
struct cycle_env {
	struct scev_ctx *cx;
	const struct sym_summary *s;
	const struct aval *(*env)(void *arg, loc_t l);
	void *arg;
	loc_t loc[CYCLE_LOCS];
	const struct sym_loc *sl[CYCLE_LOCS];
	unsigned n;
	bool over;		/* more than CYCLE_LOCS, or one whose change is not known */
	struct aval *cur;	/* the values of loc[] in the iteration evaluated; NULL: entry */
};

static bool cycle_collect(void *arg, loc_t l)
{
	struct cycle_env *ce = arg;
	const struct sym_loc *sl;

	if (sym_unchanged(ce->s, l))
		return true;
	for (unsigned k = 0; k < ce->n; k++)
		if (ce->loc[k] == l)
			return true;
	sl = sym_find(ce->s, l);
	if (!sl || sl->back == EID_NONE || ce->n == CYCLE_LOCS) {
		ce->over = true;
		return false;
	}
	ce->loc[ce->n] = l;
	ce->sl[ce->n++] = sl;
	return true;
}

static const struct aval *cycle_value(void *arg, loc_t l)
{
	struct cycle_env *ce = arg;

	for (unsigned k = 0; ce->cur && k < ce->n; k++)
		if (ce->loc[k] == l)
			return &ce->cur[k];
	return ce->env(ce->arg, l);
}

/* An exit whose test reads only unchanged locations and ones the loop changes only through
 * themselves and unchanged ones.  From the entry values S0, each iteration's are the back-edge
 * values of the one before, evaluated over ranges: S1, S2, S3.  When S3 lies within S1, every
 * odd iteration's values lie within S1 and every even one's from 2 on within S2 (by induction:
 * the evaluation over-approximates), so the test's outcome on S0, S1 and S2 is its outcome in
 * iteration 0, every odd one and every even one after it.  When it certainly leaves on S0, the
 * loop leaves in iteration 0; else on S1, by 1; else on S2 (and S1 may stay), by 2.
 * EXIT_DECLINE otherwise. */
static int exit_period2(struct scev_ctx *cx, const struct sym_summary *s, const struct sym_exit *e,
			const struct aval *(*env)(void *arg, loc_t l), void *arg, uint64_t *kmin,
			uint64_t *kmax)
{
	struct cycle_env ce = { .cx = cx, .s = s, .env = env, .arg = arg };
	struct aval v[4][CYCLE_LOCS];
	const struct expr *lhs = &cx->ar.v[e->lhs], *rhs = &cx->ar.v[e->rhs];
	int leave = e->exit_on_taken ? 1 : 0, out[3], t = -1;
	bool swap = false;

	/* (an irreducible loop's first header execution may come after blocks of a side entry) */
	if (!cx->sums || s < cx->sums || s >= cx->sums + cx->st.loops->nloops ||
	    cx->st.loops->loops[s - cx->sums].irreducible)
		return EXIT_DECLINE;
	if (e->op == BPF_JCOND || !expr_only_regs_r(&cx->ar, e->lhs, cycle_collect, &ce) ||
	    !expr_only_regs_r(&cx->ar, e->rhs, cycle_collect, &ce))
		return EXIT_DECLINE;
	/* (the changed locations' back-edge values may read further ones: close the set) */
	for (unsigned k = 0; k < ce.n && !ce.over; k++)
		if (!expr_only_regs_r(&cx->ar, ce.sl[k]->back, cycle_collect, &ce))
			ce.over = true;
	if (ce.over || !ce.n)
		return EXIT_DECLINE;
	for (unsigned k = 0; k < ce.n; k++) {
		v[0][k] = *env(arg, ce.loc[k]);
		if (t < 0 && lhs->kind == EX_REG && lhs->a == ce.loc[k])
			t = (int)k;
		else if (t < 0 && rhs->kind == EX_REG && rhs->a == ce.loc[k])
			t = (int)k, swap = true;
	}
	for (int it = 0; it < 3; it++) {
		struct aval a, b, stay[CYCLE_LOCS];

		ce.cur = v[it];
		a = aval_eval(cx, e->lhs, cycle_value, &ce);
		b = aval_eval(cx, e->rhs, cycle_value, &ce);
		out[it] = aval_branch_outcome(e->op, e->is32, &a, &b);
		/* The next iteration comes only after this one's test kept it in: where the test
		 * reads one location (against a value), its values are narrowed by that outcome
		 * first, as a branch narrows them (a bit a fell-through `r & 4` proved clear, then
		 * `r ^= 4`: set in the next test).  No value stays: it leaves here. */
		memcpy(stay, v[it], ce.n * sizeof(stay[0]));
		if (t >= 0 && out[it] != leave &&
		    !aval_refine(e->op, e->is32, !e->exit_on_taken, swap ? &a : &stay[t],
				 swap ? &stay[t] : &b))
			out[it] = leave;
		ce.cur = stay;
		for (unsigned k = 0; k < ce.n; k++)
			v[it + 1][k] = out[it] == leave ? v[it][k] :
				       aval_eval(cx, ce.sl[k]->back, cycle_value, &ce);
	}
	for (unsigned k = 0; k < ce.n; k++)
		if (!aval_subset(&v[3][k], &v[1][k]))
			return EXIT_DECLINE;
	if (out[0] == leave)
		*kmax = 0;
	else if (out[1] == leave)
		*kmax = 1;
	else if (out[2] == leave)
		*kmax = 2;
	else
		return EXIT_DECLINE;
	/* the first iteration that may leave */
	*kmin = out[0] != !leave ? 0 : out[1] != !leave ? 1 : 2;
	if (*kmin > *kmax)
		*kmin = *kmax;
	return 0;
}

/* The tested sequence exit_match last found for the environment arg of sym_exit_memo_open,
 * and the last exit it found none for: exit_match is a function of (cx, s, e, env, arg) and of
 * what env reads through arg, which the caller keeps unchanged until the next open (a header
 * step asks for an exit's bound and then for its counter's next values over one entry state;
 * symex's step_over for a nested loop's bound and then for its distance's linear form,
 * sym_exit_lin: one match, not two, found or not).  Only arg itself is kept, an address no
 * other environment has while it is alive; the open before every use drops what an earlier
 * one kept, and sym_exit_memo_open(NULL) before arg dies. */
struct match_key {
	bool valid;
	const struct scev_ctx *cx;
	const struct sym_summary *s;
	const struct sym_exit *e;
	const struct aval *(*env)(void *arg, loc_t l);
};

static _Thread_local struct {
	const void *arg;	/* the open's environment; NULL: nothing is kept */
	struct match_key found, failed;
	struct exit_seq m;	/* found's */
} match_memo;

void sym_exit_memo_open(const void *arg)
{
	match_memo.arg = arg;
	match_memo.found.valid = match_memo.failed.valid = false;
}

static void key_set(struct match_key *k, struct scev_ctx *cx, const struct sym_summary *s,
		    const struct sym_exit *e, const struct aval *(*env)(void *arg, loc_t l))
{
	k->valid = true;
	k->cx = cx;
	k->s = s;
	k->e = e;
	k->env = env;
}

static bool key_is(const struct match_key *k, struct scev_ctx *cx, const struct sym_summary *s,
		   const struct sym_exit *e, const struct aval *(*env)(void *arg, loc_t l))
{
	return k->valid && cx == k->cx && s == k->s && e == k->e && env == k->env;
}

static void match_keep(struct scev_ctx *cx, const struct sym_summary *s, const struct sym_exit *e,
		       const struct aval *(*env)(void *arg, loc_t l), void *arg,
		       const struct exit_seq *m)
{
	if (!arg || arg != match_memo.arg)
		return;
	key_set(&match_memo.found, cx, s, e, env);
	match_memo.m = *m;
}

/* exit_match found no tested sequence for (cx, s, e, env, arg). */
static void match_keep_failed(struct scev_ctx *cx, const struct sym_summary *s,
			      const struct sym_exit *e,
			      const struct aval *(*env)(void *arg, loc_t l), void *arg)
{
	if (arg && arg == match_memo.arg)
		key_set(&match_memo.failed, cx, s, e, env);
}

/* 1 with the kept sequence in m, -1 when exit_match is known to find none, 0 when not known. */
static int match_kept(struct scev_ctx *cx, const struct sym_summary *s, const struct sym_exit *e,
		      const struct aval *(*env)(void *arg, loc_t l), void *arg, struct exit_seq *m)
{
	if (!arg || arg != match_memo.arg)
		return 0;
	if (key_is(&match_memo.found, cx, s, e, env)) {
		*m = match_memo.m;
		return 1;
	}
	return key_is(&match_memo.failed, cx, s, e, env) ? -1 : 0;
}

int sym_exit_bound(struct scev_ctx *cx, const struct sym_summary *s, const struct sym_exit *e,
		   const struct aval *(*env)(void *arg, loc_t l), void *arg, uint64_t *kmin,
		   uint64_t *kmax, char *why, unsigned whylen)
{
	struct exit_seq m;

	/* may_goto ends a loop that takes its jump out in every iteration (the budget runs out),
	 * but how many iterations that takes is the kernel's: count-based JITs fall through
	 * 2^23 times per frame, the timed may_goto of x86-64 (6.14 and later) for a quarter
	 * second, hundreds of millions of times.  So it bounds no count, and no range may lean on
	 * one (absint_header_step records that it ends the loop). */
	if (e->op == BPF_JCOND)
		return WHY(e->exit_on_taken ? "may_goto: the kernel's budget ends the loop but "
					      "gives no count (timed on x86-64)"
					    : "may_goto leaves the loop by falling through: once the "
					      "budget is spent it never does");
	if (exit_settled(cx, s, e, env, arg, kmin, kmax) == 0)
		return 0;
	if (exit_match(cx, s, e, env, arg, &m, why, whylen)) {
		match_keep_failed(cx, s, e, env, arg);
		return exit_period2(cx, s, e, env, arg, kmin, kmax) == 0 ? 0 : -1;
	}
	match_keep(cx, s, e, env, arg, &m);	/* (before the shapes read it) */
	for (size_t k = 0; k < sizeof(exit_shapes) / sizeof(exit_shapes[0]); k++) {
		int r = exit_shapes[k](&m, kmin, kmax, why, whylen);

		if (r != EXIT_DECLINE)
			return r;
	}
	return WHY("the exit test has no known shape");
}

/* The counter x of exit e's tested sequence at every header execution but the first: the
 * iteration before passed e without leaving (e is tested in every iteration), so its v = x + c
 * held the test's other outcome, and x now is that v plus step - c (wrapping as x does: 64 bits,
 * or 32 zero-extended).  This bounds x by the test itself where start + k * step over the trip
 * count does not (a start anywhere below the bound: for (i = n; i < N; i++) reads i < N, not
 * n + N).  false when e's sequence is not of one constant step and offset on numbers. */
bool sym_exit_next_range(struct scev_ctx *cx, const struct sym_summary *s,
			 const struct sym_exit *e, const struct aval *(*env)(void *arg, loc_t l),
			 void *arg, loc_t loc, struct aval *x1)
{
	struct exit_seq m;
	const struct sym_loc *sl;
	struct aval v, n, d;
	bool w64;
	char why[8];
	int kept;

	if (e->op == BPF_JCOND || e->op == BPF_JSET ||
	    (kept = match_kept(cx, s, e, env, arg, &m)) < 0 ||
	    (!kept && exit_match(cx, s, e, env, arg, &m, why, sizeof(why))) || m.loc != loc ||
	    m.spread || m.varies || m.op == BPF_JSET || !(sl = sym_find(s, loc)) ||
	    m.a0.kind != AV_SCALAR || m.n.kind != AV_SCALAR)
		return false;
	/* a 64-bit counter tested as x + c at 64 bits, or a 32-bit one (zero-extended at the
	 * header after the first iteration) tested in 32-bit space */
	if (sl->width == 64 && !m.seq32)
		w64 = true;
	else if (sl->width == 32 && m.seq32)
		w64 = false;
	else
		return false;
	v = aval_scalar(w64 ? range_unknown() : range_zext_unknown(4));
	n = m.n;
	if (!aval_refine(m.op, e->is32, false, &v, &n))
		return false;	/* (the test never passes: no second iteration; keep the rest) */
	d = aval_const(w64 ? m.step - m.off : (m.step - m.off) & 0xffffffffull);
	*x1 = aval_alu(BPF_ADD, w64, false, &v, &d);
	return x1->kind == AV_SCALAR;
}

/* ---- == in the symbolic context of the parent loop ---- */

struct lin_ctx {
	struct scev_ctx *cx;
	unsigned w;
	eid (*entry)(void *arg, loc_t l);
	void *arg;
};

/* e may hold an ANY: one of two values by the path taken, which the same expression built at
 * another join (another branch) need not share (true past a depth too). */
static bool lin_has_any(const struct expr_arena *ar, eid e, unsigned depth)
{
	const struct expr *x = &ar->v[e];

	if (depth > 24 || x->kind == EX_ANY)
		return true;
	switch (x->kind) {
	case EX_ALU:
		return lin_has_any(ar, x->a, depth + 1) || lin_has_any(ar, x->b, depth + 1);
	case EX_NEG: case EX_ZEXT: case EX_SEXT: case EX_BSWAP:
		return lin_has_any(ar, x->a, depth + 1);
	default:
		return false;
	}
}

/* f += k * t; the same value twice adds up (and cancels); a term with an ANY is never merged. */
static bool lin_term(const struct lin_ctx *lc, struct sym_lin *f, uint64_t k, eid t, bool outer)
{
	bool any = lin_has_any(&lc->cx->ar, t, 0);

	for (unsigned i = 0; i < f->n && !any; i++)
		if (f->t[i] == t && f->outer[i] == outer) {
			f->k[i] += k;
			return true;
		}
	if (f->n == TRIP_LIN_MAX)
		return false;
	f->k[f->n] = k;
	f->t[f->n] = t;
	f->outer[f->n++] = outer;
	return true;
}

/* f += scale * e.  Over 64 bits only 64-bit operations are linear; over 32 bits those of both
 * widths are (the low half of a sum, difference, product or left shift depends only on the
 * low halves), and so are 32-bit extensions.  A REG of the loop is its entry value, an
 * expression of the parent. */
static bool lin_of(const struct lin_ctx *lc, eid e, uint64_t scale, bool outer, unsigned depth,
		   struct sym_lin *f)
{
	const struct expr *x = &lc->cx->ar.v[e];
	bool ok32 = lc->w == 32 || !x->w32;
	uint64_t c;

	if (depth > 24)
		return lin_term(lc, f, scale, e, outer);
	switch (x->kind) {
	case EX_CONST:
		f->c0 += scale * x->imm;
		return true;
	case EX_REG:
		if (!outer)
			return lin_of(lc, lc->entry(lc->arg, x->a), scale, true, depth + 1, f);
		break;
	case EX_NEG:
		if (ok32)
			return lin_of(lc, x->a, 0 - scale, outer, depth + 1, f);
		break;
	case EX_ZEXT: case EX_SEXT:
		if (lc->w == 32 && x->op == 4)
			return lin_of(lc, x->a, scale, outer, depth + 1, f);
		break;
	case EX_ALU:
		if (!ok32)
			break;
		switch (x->op) {
		case BPF_ADD:
			return lin_of(lc, x->a, scale, outer, depth + 1, f) &&
			       lin_of(lc, x->b, scale, outer, depth + 1, f);
		case BPF_SUB:
			return lin_of(lc, x->a, scale, outer, depth + 1, f) &&
			       lin_of(lc, x->b, 0 - scale, outer, depth + 1, f);
		case BPF_MUL:
			if (expr_is_const(&lc->cx->ar, x->b, &c))
				return lin_of(lc, x->a, scale * c, outer, depth + 1, f);
			if (expr_is_const(&lc->cx->ar, x->a, &c))
				return lin_of(lc, x->b, scale * c, outer, depth + 1, f);
			break;
		case BPF_LSH:
			if (expr_is_const(&lc->cx->ar, x->b, &c))
				return lin_of(lc, x->a, scale << (c & (x->w32 ? 31 : 63)), outer,
					      depth + 1, f);
			break;
		default:
			break;
		}
		break;
	default:
		break;
	}
	return lin_term(lc, f, scale, e, outer);
}

/* A location that holds at the loop's entry what it held at the parent's header. */
static bool lin_same(void *arg, loc_t l)
{
	const struct lin_ctx *lc = arg;

	return lc->entry(lc->arg, l) == expr_reg(&lc->cx->ar, l);
}

int sym_exit_lin(struct scev_ctx *cx, const struct sym_summary *s, const struct sym_exit *e,
		 const struct aval *(*env)(void *arg, loc_t l), eid (*entry)(void *arg, loc_t l),
		 void *arg, struct sym_lin *f, char *why, unsigned whylen)
{
	struct exit_seq m;
	struct lin_ctx lc = { .cx = cx, .entry = entry, .arg = arg };
	uint64_t wmask;
	unsigned n = 0;
	int kept;

	memset(f, 0, sizeof(*f));
	if (e->op == BPF_JCOND || (kept = match_kept(cx, s, e, env, arg, &m)) < 0 ||
	    (!kept && exit_match(cx, s, e, env, arg, &m, why, whylen)))
		return WHY("the exit test does not compare a recurrence with a loop-invariant value");
	if (m.op != BPF_JEQ || m.varies || m.spread || m.a0.kind != AV_SCALAR ||
	    m.n.kind != AV_SCALAR)
		return WHY("not an == test of one counter against a number");
	/* (a 32-bit sequence meets a 64-bit bound only below 2^32, where the low halves decide) */
	if (m.seq32 && !e->is32 && m.n.r.umax > 0xffffffffull)
		return WHY("the bound does not fit the 32-bit counter");
	lc.w = f->w = e->is32 || m.seq32 ? 32 : 64;
	f->step = m.step;
	f->loc = m.loc;
	f->inv = m.inv;
	f->off = m.off;
	wmask = lc.w == 32 ? 0xffffffffull : UINT64_MAX;
	/* D = N - v(0) = N - x0 - off */
	if (!lin_of(&lc, m.inv, 1, false, 0, f) ||
	    !lin_of(&lc, expr_reg(&cx->ar, m.loc), UINT64_MAX, false, 0, f))
		return WHY("the distance is not a linear form of few terms");
	f->c0 = (f->c0 - m.off) & wmask;
	for (unsigned i = 0; i < f->n; i++) {
		if (!(f->k[i] & wmask))
			continue;	/* (cancelled: the same value on both sides) */
		f->k[n] = f->k[i] & wmask;
		f->t[n] = f->t[i];
		/* a term of the parent's header values that the loop's entry still holds is one
		 * of the entry values too: the entry state's ranges apply to it */
		f->outer[n++] = f->outer[i] && !expr_only_regs(&cx->ar, f->t[i], lin_same, &lc);
	}
	f->n = n;
	return 0;
}

int sym_lin_bound(struct scev_ctx *cx, const struct sym_lin *f,
		  const struct aval *(*env)(void *arg, loc_t l), void *arg,
		  const struct aval *(*outer)(void *arg, loc_t l), void *oarg, uint64_t *kmin,
		  uint64_t *kmax, char *why, unsigned whylen)
{
	struct trip_lin d = { .n = f->n, .c0 = f->c0 };

	for (unsigned i = 0; i < f->n; i++) {
		struct aval v;

		if (f->outer[i] && !outer)
			return WHY("the distance reads the parent's header values");
		v = f->outer[i] ? aval_eval(cx, f->t[i], outer, oarg) :
				  aval_eval(cx, f->t[i], env, arg);
		if (v.kind != AV_SCALAR)
			return WHY("the distance is not a linear form of numbers");
		d.k[i] = f->k[i];
		/* the narrower of the unsigned and signed views */
		if (f->w == 32) {
			bool u = (uint64_t)v.r.u32_max - v.r.u32_min <=
				 (uint64_t)((int64_t)v.r.s32_max - v.r.s32_min);

			d.lo[i] = u ? (__int128)v.r.u32_min : (__int128)v.r.s32_min;
			d.hi[i] = u ? (__int128)v.r.u32_max : (__int128)v.r.s32_max;
		} else {
			bool u = v.r.umax - v.r.umin <= (uint64_t)v.r.smax - (uint64_t)v.r.smin;

			d.lo[i] = u ? (__int128)v.r.umin : (__int128)v.r.smin;
			d.hi[i] = u ? (__int128)v.r.umax : (__int128)v.r.smax;
		}
	}
	return trip_eq_linear(f->w, f->step, &d, kmax, kmin, why, whylen);
}

/* ---- exits on different paths ---- */

/* What one exit that some iterations may not pass contributes (exit_monotone). */
struct mono_exit {
	bool ok;
	bool settled;		/* it leaves in every iteration from k on (exit_settled) */
	uint64_t k;		/* the test holds in iteration k, if it has not before */
	uint64_t w;		/* ... and in every iteration after it up to w */
	/* a counter's order test: the tested value is v(0) plus S, the distance the counter
	 * moved since entry (steps of mlo to mhi, towards the bound: up or down); the test holds
	 * once S >= need and until S > room, whatever v(0) and the bound are in their ranges */
	loc_t loc;
	bool up;
	uint64_t mlo, mhi;
	unsigned __int128 need, room;
	/* need and room when the counter starts at the low end of its range in the test's view
	 * (32 or 64 bits, signed or not), when v(0) is the counter's start plus a constant there
	 * (exact) and that range is xw wide: exits of one counter whose views all see it xw wide
	 * (narrow: no view's range crosses its wrap) see it xw above its low end in each view,
	 * so their needs and rooms move by the same amount in every run */
	bool exact;
	__int128 xw;
	__int128 need_lo, room_lo;
};

/* For an exit some iterations may not pass: the iterations (and distances) over which its test
 * holds (struct mono_exit).  Only the order tests the counter moves into (up: >, >=; down: <,
 * <=), and tests that settle after the first iteration (exit_settled: the same outcome in every
 * later one); a test of ==, != or bits may hold once and fail the next time.  0, or -1 with
 * why. */
static int exit_monotone(struct scev_ctx *cx, const struct sym_summary *s, const struct sym_exit *e,
			 const struct aval *(*env)(void *arg, loc_t l), void *arg,
			 struct mono_exit *x, char *why, unsigned whylen)
{
	struct exit_seq m;
	struct trip_query q;
	uint64_t kmin, qm, qsign, s1, s2, smax;
	__int128 need;
	bool towards, sgn, strict;

	memset(x, 0, sizeof(*x));
	if (e->op == BPF_JCOND)
		return WHY("may_goto gives no count");
	if (exit_settled(cx, s, e, env, arg, &kmin, &x->k) == 0) {
		x->settled = true;
		x->w = UINT64_MAX;
		return 0;
	}
	if (exit_match(cx, s, e, env, arg, &m, why, whylen))
		return -1;
	if (m.a0.kind != AV_SCALAR || m.n.kind != AV_SCALAR)
		return WHY("the compared values are not numbers");
	if (exit_query(&m, m.op, &q, why, whylen))
		return -1;
	qm = q.width == 32 ? 0xffffffffull : UINT64_MAX;
	qsign = qm / 2 + 1;
	smax = qm >> 1;
	s1 = q.step & qm;
	s2 = (q.varies ? q.step_hi : q.step) & qm;
	if (!s1 || !s2 || (s1 < qsign) != (s2 < qsign))
		return WHY("the counter's steps are not of one sign");
	x->up = s1 < qsign;
	/* Offsets that differ between paths (x + what an inner loop added, read after it: an
	 * outer exit on a path from inside the inner loop): v(k) = x(k) + c(k), c(k) in [clo,
	 * chi], lies in v(0) + S with v(0) in x0 + [clo, chi], which a0 is: the need below is
	 * from its lowest start and the room from its highest, whatever c(k) each iteration
	 * takes.  Only offsets on the side the counter moves, as exit_path_offsets. */
	if (m.spread && (x->up ? m.clo < 0 : m.chi > 0))
		return WHY("the tested offset differs between paths");
	switch (q.pred) {
	case BPF_JGT: case BPF_JGE: sgn = false; towards = x->up; break;
	case BPF_JSGT: case BPF_JSGE: sgn = true; towards = x->up; break;
	case BPF_JLT: case BPF_JLE: sgn = false; towards = !x->up; break;
	case BPF_JSLT: case BPF_JSLE: sgn = true; towards = !x->up; break;
	default:
		return WHY("a test of ==, != or bits may hold in one iteration and not the next");
	}
	if (!towards)
		return WHY("the counter moves away from the exit's bound");
	strict = q.pred == BPF_JGT || q.pred == BPF_JSGT || q.pred == BPF_JLT ||
		 q.pred == BPF_JSLT;
	if (trip_first_exit(&q, &x->k, &kmin, why, whylen))
		return -1;
	if (x->up) {
		x->mlo = s1 < s2 ? s1 : s2;
		x->mhi = s1 < s2 ? s2 : s1;
	} else {
		/* (negative steps: the smaller number is the larger move) */
		x->mlo = (qm - (s1 > s2 ? s1 : s2) + 1) & qm;
		x->mhi = (qm - (s1 < s2 ? s1 : s2) + 1) & qm;
	}
	/* the room before the tested value wraps in the test's view, from its worst start */
	if (x->up)
		x->room = sgn ? (unsigned __int128)((__int128)smax - q.a_shi) : qm - q.a_uhi;
	else
		x->room = sgn ? (unsigned __int128)((__int128)q.a_slo + (__int128)smax + 1) :
				q.a_ulo;
	/* the distance after which it holds, from the worst start and bound */
	if (x->up)
		need = sgn ? (__int128)q.n_shi - q.a_slo : (__int128)q.n_uhi - (__int128)q.a_ulo;
	else
		need = sgn ? (__int128)q.a_shi - q.n_slo : (__int128)q.a_uhi - (__int128)q.n_ulo;
	need += strict;
	x->need = need < 0 ? 0 : (unsigned __int128)need;
	x->loc = m.loc;
	/* The counter's start in the same view: when v(0)'s range is as wide as the start's (and
	 * narrow), v(0) is the start plus a constant in every run. */
	{
		const struct aval *x0 = env(arg, m.loc);
		__int128 xlo, xhi, alo = sgn ? q.a_slo : (__int128)q.a_ulo;
		__int128 ahi = sgn ? q.a_shi : (__int128)q.a_uhi;

		if (q.width == 32) {
			xlo = sgn ? x0->r.s32_min : (__int128)x0->r.u32_min;
			xhi = sgn ? x0->r.s32_max : (__int128)x0->r.u32_max;
		} else {
			xlo = sgn ? x0->r.smin : (__int128)x0->r.umin;
			xhi = sgn ? x0->r.smax : (__int128)x0->r.umax;
		}
		x->xw = xhi - xlo;
		x->exact = x0->kind == AV_SCALAR && x->xw == ahi - alo && x->xw < (1ll << 30) &&
			   !m.spread;
		if (x->up) {
			x->need_lo = (sgn ? (__int128)q.n_shi : (__int128)q.n_uhi) - alo + strict;
			x->room_lo = (sgn ? (__int128)smax : (__int128)qm) - alo;
		} else {
			x->need_lo = alo - (sgn ? (__int128)q.n_slo : (__int128)q.n_ulo) + strict;
			x->room_lo = alo - (sgn ? -(__int128)smax - 1 : 0);
		}
	}
	x->w = (uint64_t)(x->room / x->mhi > UINT64_MAX ? UINT64_MAX : x->room / x->mhi);
	return 0;
}
/* Every path from loop l's header to the source of a back edge passes one of the blocks in
 * cut (tested at its end): a path that avoids them all is one cycle none of them ends. */
static int every_cycle_passes(struct scev_ctx *cx, uint32_t l, const bool *in_cut, bool *passes)
{
	const struct scev_loops *lf = cx->st.loops;
	const struct scev_loop *L = &lf->loops[l];
	const struct scev_cfg *cfg = cx->st.cfg;
	uint32_t *work = malloc(L->nblocks * sizeof(*work)), nw = 0;
	bool *seen = calloc(L->nblocks, sizeof(*seen));

	if (!work || !seen) {
		free(work);
		free(seen);
		return -ENOMEM;
	}
	*passes = true;
	work[nw++] = L->header;
	seen[scev_loop__block_index(L, L->header)] = true;
	while (nw && *passes) {
		uint32_t b = work[--nw], bi = scev_loop__block_index(L, b);

		if (in_cut[bi])
			continue;
		for (unsigned k = 0; k < cfg->blocks[b].nsucc; k++) {
			uint32_t t = cfg->blocks[b].succ[k], ti = scev_loop__block_index(L, t);

			if (ti == SCEV_NONE)
				continue;
			if (t == L->header) {
				*passes = false;	/* a back edge no exit of the set guards */
				break;
			}
			if (!seen[ti]) {
				seen[ti] = true;
				work[nw++] = t;
			}
		}
	}
	free(work);
	free(seen);
	return 0;
}

/* The exits of set (at most t) hold in iteration t whatever path reaches them, by distance: all
 * are settled ones or tests of one counter with the same steps in every view.  In the first
 * iteration k* whose distance S reaches every need (k* <= t: each test's first hold is within
 * its k, and S only grows), S is below the largest need plus a step; from k* on a settled exit
 * holds too once past its own k (at most 1, where S is at most mhi per iteration).  So every
 * test of the set holds there when no counter's test wraps before that distance. */
static bool cut_by_distance(const struct mono_exit *x, const bool *set, unsigned n)
{
	const struct mono_exit *c = NULL;
	unsigned __int128 need = 0, reach;
	uint64_t ks = 0;
	bool same = true;

	for (unsigned j = 0; j < n; j++) {
		if (!set[j])
			continue;
		if (x[j].settled) {
			ks = x[j].k > ks ? x[j].k : ks;
			continue;
		}
		if (c && (x[j].loc != c->loc || x[j].up != c->up || x[j].mlo != c->mlo ||
			  x[j].mhi != c->mhi))
			return false;
		c = &x[j];
		need = x[j].need > need ? x[j].need : need;
	}
	if (!c)
		return true;
	/* (steps below 2^31: the same moves in a 32-bit view as in the 64-bit one) */
	if (c->mhi >= 1ull << 31 || ks > 1)
		return false;
	reach = (unsigned __int128)c->mhi * ks;
	if (reach < c->mhi - 1)
		reach = c->mhi - 1;
	for (unsigned j = 0; j < n; j++)
		if (set[j] && !x[j].settled && x[j].room < reach)
			return false;
	/* Exact starts of one width: in every run room_j - need_i is room_lo_j - need_lo_i (both
	 * move with the start), which must leave a step. */
	for (unsigned j = 0; j < n; j++)
		same &= !set[j] || x[j].settled || (x[j].exact && x[j].xw == c->xw);
	for (unsigned j = 0; j < n && same; j++)
		for (unsigned i = 0; i < n; i++)
			if (set[j] && set[i] && !x[j].settled && !x[i].settled &&
			    x[j].room_lo - x[i].need_lo < (__int128)c->mhi - 1)
				return false;
	if (same)
		return true;
	/* Otherwise the largest need and the smallest room over every start and bound. */
	reach = need + c->mhi - 1;
	for (unsigned j = 0; j < n; j++)
		if (set[j] && !x[j].settled && x[j].room < reach)
			return false;
	return true;
}

int sym_may_goto_cut(struct scev_ctx *cx, uint32_t l, uint32_t *pc)
{
	const struct scev_loop *L = &cx->st.loops->loops[l];
	const struct scev_cfg *cfg = cx->st.cfg;
	bool *in_cut, any = false, passes;
	int err;

	/* (no may_goto in the loop: none to find) */
	if (!scev_loop_holds(cx, l, LOOP_HOLDS_MAY_GOTO))
		return 0;
	if (!(in_cut = calloc(L->nblocks ? L->nblocks : 1, sizeof(*in_cut))))
		return -ENOMEM;
	for (uint32_t k = 0; k < L->nblocks; k++) {
		const struct scev_block *blk = &cfg->blocks[L->blocks[k]];
		const struct bpf_insn *j = scev_block_cond_jmp(cfg, L->blocks[k]);

		/* (succ[1] is the jump's target) */
		if (j && ebpf_op(j) == BPF_JCOND && blk->nsucc == 2 &&
		    !scev_loop__contains(cx->st.loops, l, blk->succ[1])) {
			if (!any)
				*pc = blk->last;
			in_cut[k] = any = true;
		}
	}
	err = any ? every_cycle_passes(cx, l, in_cut, &passes) : 0;
	free(in_cut);
	return err ? err : any && passes;
}

int sym_cut_bound(struct scev_ctx *cx, uint32_t l, const struct sym_summary *s,
		  const struct aval *(*env)(void *arg, loc_t l), void *arg, uint64_t *kmax,
		  uint32_t *used, unsigned *nused, char *why, unsigned whylen)
{
	const struct scev_loop *L = &cx->st.loops->loops[l];
	struct mono_exit x[SYM_MAX_PEXITS];
	bool tried[SYM_MAX_PEXITS] = { false }, set[SYM_MAX_PEXITS], *in_cut;
	unsigned n = s->npexits;
	int err = 0, found = 0;

	*nused = 0;
	if (!s->ok || !n)
		return WHY("no exit is tested in every iteration");
	/* An irreducible loop too: every cycle at its level passes its header, and env is the
	 * state of its first header visits from every entry, side entries' included (the header
	 * step's E joins side_arrivals, or the header's in-state holds what the side region sends;
	 * symex steps an irreducible child from side_walk's header state).  What a side entry
	 * runs before that visit is not a header execution: iteration t counts from there as in
	 * a reducible loop, and an exit taken on the way only leaves sooner. */
	why[0] = '\0';
	for (unsigned j = 0; j < n; j++) {
		char w1[128];

		x[j].ok = !exit_monotone(cx, s, &s->pexits[j], env, arg, &x[j], w1, sizeof(w1));
		if (!x[j].ok && !why[0])
			snprintf(why, whylen, "no exit is tested in every iteration; the exit "
				 "at %u on some paths: %s",
				 cx->st.cfg->blocks[s->pexits[j].block].last, w1);
	}
	in_cut = calloc(L->nblocks, sizeof(*in_cut));
	if (!in_cut)
		return WHY("out of memory");
	/* The smallest t such that the exits whose tests hold in iteration t on every path that
	 * reaches them are passed by every cycle: no iteration after t starts.  The candidates
	 * are the exits' own k, from the smallest up; the set holds at t by distance
	 * (cut_by_distance), or each of its tests by its own window (k <= t <= w). */
	for (int by_window = 0; !found && !err && by_window < 2; by_window++) {
		memset(tried, 0, sizeof(tried));
		for (;;) {
			uint64_t t = UINT64_MAX;
			bool passes = false, any = false;

			for (unsigned j = 0; j < n; j++)
				if (x[j].ok && !tried[j] && (!any || x[j].k < t)) {
					t = x[j].k;
					any = true;
				}
			if (!any)
				break;
			for (unsigned j = 0; j < n; j++) {
				set[j] = x[j].ok && x[j].k <= t && (!by_window || x[j].w >= t);
				tried[j] |= x[j].ok && x[j].k == t;
			}
			if (!by_window && !cut_by_distance(x, set, n))
				continue;
			memset(in_cut, 0, L->nblocks * sizeof(*in_cut));
			for (unsigned j = 0; j < n; j++) {
				uint32_t bi = scev_loop__block_index(L, s->pexits[j].block);

				in_cut[bi] |= set[j];
			}
			if ((err = every_cycle_passes(cx, l, in_cut, &passes)))
				break;
			if (passes) {
				*kmax = t;
				found = 1;
				for (unsigned j = 0; j < n; j++)
					if (set[j])
						used[(*nused)++] = s->pexits[j].block;
				break;
			}
		}
	}
	free(in_cut);
	if (err)
		return WHY("out of memory");
	if (!found) {
		if (!why[0])
			snprintf(why, whylen, "no exit is tested in every iteration, and the exits "
				 "on different paths leave a cycle that passes none");
		return -1;
	}
	return 0;
}
