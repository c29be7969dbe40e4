/* Loops: choosing a counter, its start, step, test and bound; laying out the five forms; and
 * stating what the loop will do.
 *
 * Parameters are drawn, then judged by the exact trip arithmetic (trip.c) over every value the
 * masked operands can take; a draw that does not fit what was asked for (an ordinary loop that
 * would wrap for ever, a "huge" one that turns out short) is drawn again, and after a few tries
 * the loop falls back to one that always fits, so an exhausted byte string still gives a loop.
 * Whatever the body does to the counter afterwards (conditional steps, inner loops that add to
 * it) is allowed only when the loop still provably ends: either the total change per iteration
 * is one known constant (then the arithmetic is still exact), or every change moves the counter
 * towards its bound and no value in reach can wrap past it (then the smallest change gives the
 * largest trip count).
 */
#include <string.h>

#include "generators/gen_internal.h"

#define SUB_BUDGET 12	/* iterations (product over a nest) for subprogram loops */
#define PARAM_TRIES 8

static uint64_t wmask(unsigned w)
{
	return w >= 64 ? UINT64_MAX : (1ull << w) - 1;
}

/* The signed value of a w-bit pattern. */
static __int128 sext(uint64_t v, unsigned w)
{
	v &= wmask(w);
	if (w == 64)
		return (int64_t)v;
	if ((v >> (w - 1)) & 1)
		return (__int128)v - ((__int128)1 << w);
	return v;
}

static bool is_up_op(uint8_t op)
{
	return op == BPF_JLT || op == BPF_JLE || op == BPF_JSLT || op == BPF_JSLE;
}

static bool is_down_op(uint8_t op)
{
	return op == BPF_JGT || op == BPF_JGE || op == BPF_JSGT || op == BPF_JSGE;
}

static bool is_signed_op(uint8_t op)
{
	return op == BPF_JSLT || op == BPF_JSLE || op == BPF_JSGT || op == BPF_JSGE;
}

static uint8_t negate_op(uint8_t op)
{
	switch (op) {
	case BPF_JLT: return BPF_JGE;
	case BPF_JGE: return BPF_JLT;
	case BPF_JLE: return BPF_JGT;
	case BPF_JGT: return BPF_JLE;
	case BPF_JSLT: return BPF_JSGE;
	case BPF_JSGE: return BPF_JSLT;
	case BPF_JSLE: return BPF_JSGT;
	case BPF_JSGT: return BPF_JSLE;
	case BPF_JEQ: return BPF_JNE;
	default: return BPF_JEQ;
	}
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

bool gi_room(const struct gi *g, uint32_t need)
{
	return g->len + need <= g->k->max_insns && g->len + need + 256 <= GEN_MAX_INSNS;
}

static unsigned opnd_count(const struct gi_opnd *o)
{
	return o->kind == OPND_CONST ? 1 : o->mask + 1;
}

static uint64_t opnd_value(const struct gi_opnd *o, unsigned i)
{
	if (o->kind == OPND_CONST)
		return o->base;
	return o->base + (uint64_t)(i & o->mask) * o->mul;
}

/* Monotone progress: every change in [lo, hi] moves the counter towards the bound, the test
 * sees the whole counter, and no value the loop can hold plus the largest change wraps around
 * the order the test uses.  Then the loop ends, at the latest after the trip count of the
 * smallest change. */
static bool monotone_ok(const struct gi_loop *lp, __int128 lo, __int128 hi)
{
	unsigned w = lp->cw;
	__int128 max = ((__int128)1 << w) - 1;
	uint64_t h = is_signed_op(lp->op) ? 1ull << (w - 1) : 0;
	bool up = lo > 0 && is_up_op(lp->op), down = hi < 0 && is_down_op(lp->op);

	if (lp->cw != lp->jw || !(up || down) || hi > max || lo < -max)
		return false;
	for (unsigned i = 0; i < opnd_count(&lp->bound); i++) {
		__int128 ob = (opnd_value(&lp->bound, i) & wmask(w)) ^ h;

		if (up ? ob + hi > max : ob + lo < 0)
			return false;
	}
	/* The first iteration of a do-while runs before any test: its start must not wrap. */
	if (lp->form == GEN_FORM_DO_WHILE || lp->form == GEN_FORM_IRREDUCIBLE) {
		for (unsigned i = 0; i < opnd_count(&lp->init); i++) {
			__int128 oa = (opnd_value(&lp->init, i) & wmask(w)) ^ h;

			if (up ? oa + hi > max : oa + lo < 0)
				return false;
		}
	}
	return true;
}

/* Header executions of one entry with start a, bound b and a constant step s. */
static bool combo_trip(const struct gi_loop *lp, uint64_t a, uint64_t b, uint64_t s, bool *entered,
		       uint64_t *trip)
{
	uint64_t k;

	*entered = true;
	switch (lp->form) {
	case GEN_FORM_WHILE:
	case GEN_FORM_WHILE_BOTTOM:
		if (!gen_first_exit(lp->op, lp->jw, lp->cw, a, s, b, &k))
			return false;
		break;
	case GEN_FORM_FOR:
		if (!gen_cond_holds(lp->op, lp->jw, lp->cw, a, b)) {
			*entered = false;
			return true;
		}
		/* entered: from here on it is a do-while */
		/* fall through */
	default:
		if (!gen_first_exit(lp->op, lp->jw, lp->cw, a + s, s, b, &k))
			return false;
		break;
	}
	*trip = sat_add(k, 1);
	return true;
}

void gi_loop_eval(const struct gi *g, const struct gi_loop *lp, __int128 lo, __int128 hi,
		  bool exact, struct gi_eval *ev)
{
	unsigned ni = opnd_count(&lp->init), nb = opnd_count(&lp->bound);
	uint64_t s;

	*ev = (struct gi_eval){ .all_enter = true, .tmin = UINT64_MAX };
	if (!exact && !monotone_ok(lp, lo, hi)) {
		*ev = (struct gi_eval){ .nonterm = true, .entered = true, .tmin = 0,
					.tmax = UINT64_MAX };
		return;
	}
	/* Exact: the one change; monotone: the smallest progress, which is the longest run. */
	s = (uint64_t)(exact || lo > 0 ? lo : hi);
	for (unsigned i = 0; i < ni; i++) {
		for (unsigned j = 0; j < nb; j++) {
			uint64_t trip;
			bool entered;

			if (!combo_trip(lp, opnd_value(&lp->init, i), opnd_value(&lp->bound, j), s,
					&entered, &trip)) {
				ev->nonterm = true;
				ev->entered = true;
				continue;
			}
			if (!entered) {
				ev->all_enter = false;
				continue;
			}
			ev->entered = true;
			if (trip < ev->tmin)
				ev->tmin = trip;
			if (trip > ev->tmax)
				ev->tmax = trip;
		}
	}
	if (ev->nonterm)
		ev->tmax = UINT64_MAX;
	if (ev->tmin == UINT64_MAX)
		ev->tmin = 0;
	if (!exact && ev->tmin > 1)
		ev->tmin = 1;
}

/* ---- parameters ---- */

static uint64_t pick_mag(struct gi *g, unsigned cw)
{
	uint64_t m;

	if (!gen_bool(g->src, g->k->p_big_step))
		return 1;
	switch (gen_pick(g->src, 4)) {
	case 0: m = gen_u32(g->src, 2, 9); break;
	case 1: m = gen_u32(g->src, 10, 1000); break;
	case 2: m = (1ull << gen_u32(g->src, 8, 30)) + gen_u32(g->src, 0, 3); break;
	default: m = (1ull << gen_u32(g->src, 31, 62)) + gen_u32(g->src, 0, 3); break;
	}
	if (cw == 32)
		m &= 0x7fffffff;
	return m ? m : 1;
}

static uint8_t pick_rel_op(struct gi *g, bool down, bool sgn)
{
	static const uint8_t up[] = { BPF_JLT, BPF_JLE }, dn[] = { BPF_JGT, BPF_JGE };
	static const uint8_t sup[] = { BPF_JSLT, BPF_JSLE }, sdn[] = { BPF_JSGT, BPF_JSGE };
	unsigned i = gen_pick(g->src, 2);

	return down ? (sgn ? sdn[i] : dn[i]) : (sgn ? sup[i] : up[i]);
}

static uint8_t pick_any_op(struct gi *g)
{
	static const uint8_t ops[] = { BPF_JLT, BPF_JLE, BPF_JGT, BPF_JGE, BPF_JSLT,
				       BPF_JSLE, BPF_JSGT, BPF_JSGE, BPF_JNE, BPF_JEQ };

	return ops[gen_pick(g->src, 10)];
}

/* A variable of an enclosing loop to draw operands from; -1 none. */
static int pick_outer_var(struct gi *g, const struct gi_loop *lp)
{
	int cand[GI_MAX_OPEN * 2], n = 0;

	for (int i = lp->parent; i >= 0; i = g->open[i].parent) {
		cand[n++] = g->open[i].ctr;
		if (g->open[i].dvar >= 0)
			cand[n++] = g->open[i].dvar;
	}
	return n ? cand[gen_pick(g->src, (uint32_t)n)] : -1;
}

static uint32_t pick_mask(struct gi *g, uint64_t limit)
{
	unsigned j = gen_u32(g->src, 1, 6);

	while (j > 1 && (1ull << j) - 1 > limit)
		j--;
	return (1u << j) - 1;
}

/* A masked operand in place of a constant, base + (v & mask) * mul: v from an outer variable,
 * or from the input (in main) or an argument (in the subprogram). */
static bool masked_opnd(struct gi *g, const struct gi_loop *lp, struct gi_opnd *o, bool outer,
			uint32_t mask, uint32_t mul, uint64_t base)
{
	uint8_t kind = outer ? OPND_VAR : g->fn->sub ? OPND_ARG : OPND_INPUT;
	int v = -1;

	if (kind == OPND_VAR)
		v = pick_outer_var(g, lp);
	else if (kind == OPND_ARG)
		v = gen_bool(g->src, 50) ? g->fn->arg_a : g->fn->arg_b;
	if (kind != OPND_INPUT && v < 0)
		return false;
	*o = (struct gi_opnd){ .kind = kind, .var = v, .mask = mask, .mul = mul, .base = base };
	if (kind == OPND_INPUT) {
		unsigned sz = gen_pick(g->src, 4);

		o->in_size = (uint8_t)(1u << sz);
		o->in_off = (uint8_t)(gen_pick(g->src, GEN_INPUT_LEN >> sz) << sz);
	}
	return true;
}

/* The bound that makes a counter from a with step s run n iterations under op, before wrapping
 * (the arithmetic judges it anyway). */
static uint64_t planned_bound(uint8_t op, unsigned cw, uint64_t a, uint64_t s, uint64_t n)
{
	uint64_t vn = (a + n * s) & wmask(cw);

	switch (op) {
	case BPF_JLE: case BPF_JSLE: return vn - 1;
	case BPF_JGE: case BPF_JSGE: return vn + 1;
	case BPF_JEQ: return a;
	default: return vn;
	}
}

static void set_bound(struct gi *g, struct gi_loop *lp, uint64_t b, uint64_t mag, uint64_t budget)
{
	bool outer = lp->parent >= 0 && gen_bool(g->src, g->k->p_bound_outer);
	bool input = !outer && gen_bool(g->src, g->k->p_bound_input);
	uint32_t mask, mul;
	uint64_t s = lp->step;

	lp->bound = (struct gi_opnd){ .kind = OPND_CONST, .base = b };
	if (!outer && !input)
		return;
	/* Bounds within a few steps of the start: base is one step away, each masked unit one
	 * more step (or one unit, which may not be reachable by != — then the judge decides). */
	mask = pick_mask(g, budget < 2 ? 1 : budget / 2);
	if (lp->init.kind != OPND_CONST)
		mask &= 0xf;
	mul = (lp->op == BPF_JNE || gen_bool(g->src, 50)) && mag < 0x10000 ? (uint32_t)mag : 1;
	if ((int64_t)sext(s, lp->cw) > 0)
		masked_opnd(g, lp, &lp->bound, outer, mask, mul, lp->init.base + s);
	else
		masked_opnd(g, lp, &lp->bound, outer, mask, mul,
			    lp->init.base + s - (uint64_t)mask * mul);
}

static void params_normal(struct gi *g, struct gi_loop *lp)
{
	bool down = gen_bool(g->src, g->k->p_down);
	uint64_t mag, a, n;

	if (gen_bool(g->src, g->k->p_eqne))
		lp->op = gen_pick(g->src, 6) ? BPF_JNE : BPF_JEQ;
	else
		lp->op = pick_rel_op(g, down, gen_bool(g->src, g->k->p_signed));
	mag = pick_mag(g, lp->cw);
	lp->step = (down ? -mag : mag) & wmask(lp->cw);
	n = gen_u32(g->src, 1, (uint32_t)(lp->budget < 1 ? 1 : lp->budget));
	switch (gen_pick(g->src, 4)) {
	case 0: a = 0; break;
	case 1: a = gen_u32(g->src, 0, 100); break;
	case 2: a = -(uint64_t)gen_u32(g->src, 1, 100); break;
	default: a = gen_u64(g->src, 0, UINT64_MAX); break;
	}
	/* Room below the start for a down-counter under an unsigned test. */
	if (down && !is_signed_op(lp->op) && a < n * mag)
		a += n * mag;
	a &= wmask(lp->cw);
	lp->init = (struct gi_opnd){ .kind = OPND_CONST, .base = a };
	if (!g->fn->sub && gen_bool(g->src, g->k->p_init_input))
		masked_opnd(g, lp, &lp->init, false, pick_mask(g, 7), 1, a);
	set_bound(g, lp, planned_bound(lp->op, lp->cw, a, lp->step, n), mag, lp->budget);
}

static uint64_t wrap_point(struct gi *g, unsigned cw)
{
	static const uint64_t w64[] = { 0, 1ull << 31, 1ull << 32, 1ull << 63 };

	return cw == 32 ? (gen_bool(g->src, 50) ? 1ull << 31 : 0) : w64[gen_pick(g->src, 4)];
}

static void params_wrap(struct gi *g, struct gi_loop *lp)
{
	uint64_t w = wrap_point(g, lp->cw), mag, a;

	a = (w + gen_u32(g->src, 0, 12) - 6) & wmask(lp->cw);
	mag = gen_bool(g->src, 60) ? gen_u32(g->src, 1, 4) : pick_mag(g, lp->cw);
	lp->step = (gen_bool(g->src, 50) ? -mag : mag) & wmask(lp->cw);
	lp->op = pick_any_op(g);
	lp->init = (struct gi_opnd){ .kind = OPND_CONST, .base = a };
	switch (gen_pick(g->src, 4)) {
	case 0:
		lp->bound = (struct gi_opnd){ .kind = OPND_CONST,
					      .base = w + gen_u32(g->src, 0, 16) - 8 };
		break;
	case 1:
		lp->bound = (struct gi_opnd){ .kind = OPND_CONST, .base = gen_u32(g->src, 0, 20) };
		break;
	case 2:
		lp->bound = (struct gi_opnd){
			.kind = OPND_CONST,
			.base = planned_bound(lp->op, lp->cw, a, lp->step,
					      gen_u32(g->src, 1, (uint32_t)lp->budget)) };
		break;
	default: {
		bool outer = lp->parent >= 0 && gen_bool(g->src, g->k->p_bound_outer);

		if ((!outer && !gen_bool(g->src, g->k->p_bound_input)) ||
		    !masked_opnd(g, lp, &lp->bound, outer, 7, 1, w - 4))
			lp->bound = (struct gi_opnd){ .kind = OPND_CONST, .base = w };
		break;
	}
	}
}

static void params_huge(struct gi *g, struct gi_loop *lp, unsigned attempt)
{
	static const uint32_t big[] = { 100000, 1000000, 10000000 };
	unsigned c = attempt + 1 >= PARAM_TRIES ? 1 : gen_pick(g->src, 4);
	uint64_t a;

	lp->init = (struct gi_opnd){ .kind = OPND_CONST };
	lp->bound = (struct gi_opnd){ .kind = OPND_CONST };
	switch (c) {
	case 0:	/* a 32-bit counter around the whole circle */
		lp->cw = lp->jw = 32;
		lp->op = BPF_JNE;
		a = (gen_bool(g->src, 50) ? 1ull << 31 : 0) + gen_u32(g->src, 0, 8);
		lp->step = (uint64_t)(2 * gen_u32(g->src, 0, 2) + 1);
		if (gen_bool(g->src, 50))
			lp->step = -lp->step & 0xffffffff;
		lp->init.base = a;
		lp->bound.base = lp->form == GEN_FORM_WHILE || lp->form == GEN_FORM_WHILE_BOTTOM
					 ? (a - lp->step) & 0xffffffff : a;
		break;
	case 1:	/* ten to the fifth .. seventh */
		lp->cw = lp->jw = 64;
		lp->op = gen_bool(g->src, 50) ? BPF_JSLT : BPF_JLT;
		lp->step = gen_u32(g->src, 1, 3);
		lp->bound.base = big[attempt + 1 >= PARAM_TRIES ? 0 : gen_pick(g->src, 3)];
		break;
	case 2:	/* a 64-bit counter tested by its low 32 bits, counting to their wrap */
		lp->cw = 64;
		lp->jw = 32;
		lp->op = BPF_JNE;
		lp->step = 1;
		lp->init.base = (uint64_t)gen_u32(g->src, 0, 3) << 32;
		lp->bound.base = lp->init.base - 1;
		break;
	default:
		params_wrap(g, lp);
		break;
	}
}

static void params_nonterm(struct gi *g, struct gi_loop *lp, unsigned attempt)
{
	unsigned c = attempt + 1 >= PARAM_TRIES ? 1 : gen_pick(g->src, 3);

	switch (c) {
	case 0:	/* != with an even step and a bound of any parity from the input */
		lp->op = BPF_JNE;
		lp->step = (gen_bool(g->src, 50) ? -2ull : 2) & wmask(lp->cw);
		lp->init = (struct gi_opnd){ .kind = OPND_CONST, .base = gen_u32(g->src, 0, 9) };
		if (!masked_opnd(g, lp, &lp->bound, false, 7, 1, lp->init.base + lp->step))
			lp->bound = (struct gi_opnd){ .kind = OPND_CONST, .base = 1 };
		break;
	case 1:	/* a test that never fails; only a break on the input may end it */
		lp->op = gen_bool(g->src, 50) ? BPF_JLE : BPF_JGE;
		lp->step = gen_u32(g->src, 1, 3);
		lp->init = (struct gi_opnd){ .kind = OPND_CONST };
		lp->bound = (struct gi_opnd){ .kind = OPND_CONST,
					      .base = lp->op == BPF_JLE ? wmask(lp->jw) : 0 };
		lp->need_break = true;
		break;
	default:
		params_wrap(g, lp);
		break;
	}
}

static bool params_fit(const struct gi_loop *lp, const struct gi_eval *ev)
{
	switch (lp->cat) {
	case CAT_HUGE:
		return !ev->nonterm && ev->entered && ev->tmax > lp->budget;
	case CAT_NONTERM:
		return ev->nonterm;
	default:
		/* and the body runs for some input: a while loop needs two header executions */
		return !ev->nonterm && ev->entered && ev->tmax <= lp->budget &&
		       ev->tmax >= (lp->form == GEN_FORM_WHILE || lp->form == GEN_FORM_WHILE_BOTTOM
					    ? 2 : 1);
	}
}

static void choose_params(struct gi *g, struct gi_loop *lp)
{
	for (unsigned attempt = 0; attempt < PARAM_TRIES; attempt++) {
		lp->cw = gen_bool(g->src, g->k->p_ctr32) ? 32 : 64;
		lp->jw = gen_bool(g->src, g->k->p_cmp_mix) ? 96 - lp->cw : lp->cw;
		lp->need_break = false;
		switch (lp->cat) {
		case CAT_WRAP: params_wrap(g, lp); break;
		case CAT_HUGE: params_huge(g, lp, attempt); break;
		case CAT_NONTERM: params_nonterm(g, lp, attempt); break;
		default: params_normal(g, lp); break;
		}
		lp->init.base &= wmask(lp->cw);
		lp->step &= wmask(lp->cw);
		if (!lp->step)
			continue;
		gi_loop_eval(g, lp, sext(lp->step, lp->cw), sext(lp->step, lp->cw), true, &lp->ev);
		if (params_fit(lp, &lp->ev))
			return;
	}
	/* The loop that always fits: 0, 1, ... while below a small bound. */
	lp->cat = CAT_NORMAL;
	lp->cw = lp->jw = 64;
	lp->op = BPF_JLT;
	lp->step = 1;
	lp->need_break = false;
	lp->init = (struct gi_opnd){ .kind = OPND_CONST };
	lp->bound = (struct gi_opnd){ .kind = OPND_CONST, .base = lp->budget < 3 ? 1 : 3 };
	gi_loop_eval(g, lp, 1, 1, true, &lp->ev);
}

/* ---- emission ---- */

void gi_emit_opnd(struct gi *g, const struct gi_opnd *o, int v, uint8_t width)
{
	int t, s;

	if (o->kind == OPND_CONST) {
		gi_var_set(g, v, width == 32 ? o->base & 0xffffffff : o->base);
		gi_scratch_release(g);
		return;
	}
	t = gi_scratch(g);
	if (o->kind == OPND_INPUT) {
		static const uint8_t sz[] = { [1] = BPF_B, [2] = BPF_H, [4] = BPF_W, [8] = BPF_DW };

		gi_ldx(g, BPF_DW, t, EBPF_REG_FP, GEN_FP_DATA);
		gi_ldx(g, sz[o->in_size], t, t, o->in_off);
	} else {
		gi_var_to_reg(g, o->var, t);
	}
	gi_alu(g, true, BPF_AND, t, (int32_t)o->mask);
	if (o->mul != 1)
		gi_alu(g, true, BPF_MUL, t, (int32_t)o->mul);
	if (o->base && gi_fits_s32(o->base)) {
		gi_alu(g, true, BPF_ADD, t, (int32_t)o->base);
	} else if (o->base) {
		s = gi_scratch(g);
		gi_mov_const(g, s, o->base, true);
		gi_alux(g, true, BPF_ADD, t, s);
	}
	gi_var_write(g, v, t);
	gi_scratch_release(g);
}

/* if (counter op bound) goto label, or with the negated test. */
static void emit_test(struct gi *g, struct gi_loop *lp, bool when_continue, int label)
{
	uint8_t op = when_continue ? lp->op : negate_op(lp->op);
	bool j32 = lp->jw == 32;
	int r = gi_var_read(g, lp->ctr), rb;

	if (lp->bound_imm) {
		gi_jmp(g, j32, op, r, (int32_t)(uint32_t)lp->bound.base, label);
	} else {
		if (lp->bvar >= 0) {
			rb = gi_var_read(g, lp->bvar);
		} else {
			rb = gi_scratch(g);
			gi_mov_const(g, rb, lp->bound.base, true);
		}
		gi_jmpx(g, j32, op, r, rb, label);
	}
	gi_scratch_release(g);
}

static void emit_step(struct gi *g, struct gi_loop *lp, uint64_t s)
{
	__int128 v = sext(s, lp->cw);

	/* An identity chain on the counter first, as compilers leave them (p_identity): a 64-bit
	 * counter negated twice, a 32-bit one byte-swapped twice (be32 pairs of a u32). */
	if (gen_bool(g->src, g->k->p_identity)) {
		int r = gi_var_read(g, lp->ctr);

		if (lp->cw == 64) {
			gi_alu(g, true, BPF_NEG, r, 0);
			gi_alu(g, true, BPF_NEG, r, 0);
		} else {
			for (int k = 0; k < 2; k++)
				gi_emit(g, (struct bpf_insn){ .code = BPF_ALU | BPF_END | BPF_TO_BE,
							      .dst_reg = (uint8_t)r, .imm = 32 });
		}
		gi_var_write(g, lp->ctr, r);
		gi_scratch_release(g);
	}

	/* Down-counters sometimes subtract, as compilers write them. */
	if (v < 0 && v > INT32_MIN && gen_bool(g->src, 50))
		gi_var_alu(g, lp->ctr, BPF_SUB, (int32_t)-v);
	else
		gi_var_add_const(g, lp->ctr, s);
	gi_scratch_release(g);
}

/* The counter update at the continue label: plain, or path-dependent when that keeps the loop
 * provably finite (or when a possibly endless loop was asked for). */
static void emit_update(struct gi *g, struct gi_loop *lp)
{
	gi_bind(g, lp->l_cont);
	if (lp->cat != CAT_HUGE && gen_bool(g->src, g->k->p_cond_update)) {
		__int128 s = sext(lp->step, lp->cw), d, lo, hi;
		uint64_t alt;
		struct gi_eval ev;

		if (lp->cat == CAT_NONTERM && gen_bool(g->src, 50))
			alt = 0;	/* some path does not move the counter */
		else if (gen_bool(g->src, 50))
			alt = 2 * lp->step;
		else
			alt = lp->step + (s > 0 ? 1 : -1) * (uint64_t)gen_u32(g->src, 1, 3);
		alt &= wmask(lp->cw);
		d = sext(alt, lp->cw) - s;
		lo = lp->inc_lo + (d < 0 ? d : 0);
		hi = lp->inc_hi + (d > 0 ? d : 0);
		gi_loop_eval(g, lp, lo, hi, false, &ev);
		uint64_t cap = lp->ev.tmax > lp->budget ? lp->ev.tmax : lp->budget;

		if (d != 0 && (lp->cat == CAT_NONTERM || (!ev.nonterm && ev.tmax <= cap))) {
			int l_alt = gi_label(g), l_join = gi_label(g);

			gi_emit_cond_jump(g, lp, l_alt, false, -1);
			emit_step(g, lp, lp->step);
			gi_ja(g, l_join);
			gi_bind(g, l_alt);
			emit_step(g, lp, alt);
			gi_bind(g, l_join);
			lp->cond_step = true;
			lp->step_alt = alt;
			lp->inc_lo = lo;
			lp->inc_hi = hi;
			lp->inc_exact = false;
			lp->shapes |= GEN_SH(COND_UPDATE);
			goto derived;
		}
	}
	emit_step(g, lp, lp->step);
derived:
	if (lp->dvar >= 0) {
		gi_var_add_const(g, lp->dvar, lp->dstep);
		gi_scratch_release(g);
	}
}

static const uint8_t form_shape[] = {
	[GEN_FORM_WHILE] = GEN_SHAPE_WHILE, [GEN_FORM_WHILE_BOTTOM] = GEN_SHAPE_WHILE_BOTTOM,
	[GEN_FORM_DO_WHILE] = GEN_SHAPE_DO_WHILE, [GEN_FORM_FOR] = GEN_SHAPE_FOR,
	[GEN_FORM_IRREDUCIBLE] = GEN_SHAPE_IRREDUCIBLE,
};

static uint64_t param_shapes(const struct gi *g, const struct gi_loop *lp)
{
	__int128 s = sext(lp->step, lp->cw);
	uint64_t sh = 1ull << form_shape[lp->form];

	sh |= s > 0 ? GEN_SH(UP) : GEN_SH(DOWN);
	sh |= s == 1 || s == -1 ? GEN_SH(STEP_UNIT) : GEN_SH(STEP_BIG);
	sh |= lp->cw == 32 ? GEN_SH(CTR32) : GEN_SH(CTR64);
	if (lp->cw != lp->jw)
		sh |= GEN_SH(CMP_MIX);
	if (lp->op == BPF_JEQ || lp->op == BPF_JNE)
		sh |= GEN_SH(COND_EQNE);
	else
		sh |= is_signed_op(lp->op) ? GEN_SH(COND_SIGNED) : GEN_SH(COND_UNSIGNED);
	if (lp->bound.kind == OPND_INPUT || lp->bound.kind == OPND_ARG)
		sh |= GEN_SH(BOUND_INPUT);
	else if (lp->bound.kind == OPND_VAR)
		sh |= GEN_SH(BOUND_OUTER);
	else if (lp->bvar >= 0)
		sh |= GEN_SH(BOUND_REG);
	else if (lp->bound_ld64)
		sh |= GEN_SH(BOUND_LDIMM64);
	else
		sh |= GEN_SH(BOUND_CONST);
	if (lp->init.kind != OPND_CONST)
		sh |= GEN_SH(INIT_INPUT);
	if (lp->depth >= 2 && !g->fn->sub)
		sh |= 1ull << (GEN_SHAPE_NEST2 + (lp->depth > 4 ? 2 : lp->depth - 2));
	if (g->vars[lp->ctr].reg < 0)
		sh |= GEN_SH(SPILL);
	if (g->vars[lp->ctr].reg < 0 && lp->cw == 32)
		sh |= GEN_SH(NARROW_SPILL);
	if (lp->cat == CAT_WRAP)
		sh |= GEN_SH(WRAP);
	if (lp->cat == CAT_HUGE)
		sh |= GEN_SH(HUGE);
	if (lp->cat == CAT_NONTERM)
		sh |= GEN_SH(NONTERM);
	if (g->fn->sub)
		sh |= GEN_SH(SUBPROG_LOOP);
	return sh;
}

/* Body executions per entry, as a range; what inner changes to an outer counter multiply. */
static void body_range(const struct gi_loop *lp, const struct gi_eval *ev, uint64_t *bmin,
		       uint64_t *bmax)
{
	uint64_t lo = ev->tmin, hi = ev->tmax;

	if (lp->form == GEN_FORM_WHILE || lp->form == GEN_FORM_WHILE_BOTTOM) {
		lo = lo ? lo - 1 : 0;
		hi = hi && hi != UINT64_MAX ? hi - 1 : hi;
	} else if (lp->form == GEN_FORM_IRREDUCIBLE) {
		lo = lo ? lo - 1 : 0;
	}
	if (!ev->all_enter || lp->early_exit || !ev->entered)
		lo = 0;
	*bmin = lo;
	*bmax = ev->entered ? hi : 0;
}

static __int128 mul_sat(__int128 d, uint64_t n)
{
	const __int128 cap = (__int128)1 << 100;

	if (n == UINT64_MAX || (d != 0 && n > (uint64_t)1 << 36))
		return d > 0 ? cap : d < 0 ? -cap : 0;
	return d * (__int128)n;
}

/* What this loop's inner changes do to its parent's counter per parent iteration. */
static void propagate(struct gi *g, struct gi_loop *lp, const struct gi_eval *ev)
{
	struct gi_loop *pa = lp->parent >= 0 ? &g->open[lp->parent] : NULL;
	uint64_t bmin, bmax;
	__int128 lo, hi;

	if (!pa)
		return;
	if (ev->nonterm || lp->inner_nonterm)
		pa->inner_nonterm = true;
	if (!lp->mod_d)
		return;
	body_range(lp, ev, &bmin, &bmax);
	lo = mul_sat(lp->mod_d, lp->mod_d > 0 ? bmin : bmax);
	hi = mul_sat(lp->mod_d, lp->mod_d > 0 ? bmax : bmin);
	if (lp->mod_cond || lp->started_skipped) {
		lo = lo < 0 ? lo : 0;
		hi = hi > 0 ? hi : 0;
	}
	pa->inc_lo += lo;
	pa->inc_hi += hi;
	if (lo != hi)
		pa->inc_exact = false;
	pa->ctr_changed = true;
}

static void finish(struct gi *g, struct gi_loop *lp)
{
	struct gen_loop *rec = &g->p->loops[lp->idx];
	struct gi_eval ev;
	bool nonterm;

	gi_loop_eval(g, lp, lp->inc_lo, lp->inc_hi, lp->inc_exact, &ev);
	nonterm = ev.nonterm;
	rec->parent = lp->parent >= 0 ? g->open[lp->parent].idx : -1;
	rec->depth = (uint8_t)lp->depth;
	rec->form = lp->form;
	rec->counter_loc = gi_var_loc(g, lp->ctr);
	rec->counter_width = lp->cw;
	rec->cmp_width = lp->jw;
	rec->cmp_op = lp->op;
	rec->step = lp->step;
	rec->step_alt = lp->cond_step ? lp->step_alt : 0;
	rec->trip = !nonterm && lp->inc_exact && !lp->early_exit && ev.entered &&
				    ev.tmin == ev.tmax && ev.tmax < (uint64_t)INT64_MAX
			    ? (int64_t)ev.tmax : -1;
	rec->trip_max = nonterm ? UINT64_MAX : ev.tmax;
	rec->flags = 0;
	if (nonterm || lp->inner_nonterm)
		rec->flags |= GEN_LOOP_MAY_NOT_TERMINATE;
	if (lp->cat == CAT_HUGE)
		rec->flags |= GEN_LOOP_HUGE;
	if (lp->form == GEN_FORM_IRREDUCIBLE)
		rec->flags |= GEN_LOOP_IRREDUCIBLE;
	if (g->fn->sub)
		rec->flags |= GEN_LOOP_SUBPROG;
	if (lp->cond_step)
		rec->flags |= GEN_LOOP_COND_STEP;
	if (lp->early_exit)
		rec->flags |= GEN_LOOP_EARLY_EXIT;
	if (lp->ctr_changed)
		rec->flags |= GEN_LOOP_CTR_CHANGED;
	rec->nivs = 0;
	if (lp->inc_exact) {
		rec->ivs[rec->nivs++] = (struct gen_iv){
			.loc = rec->counter_loc, .width = lp->cw,
			.step = (uint64_t)lp->inc_lo & wmask(lp->cw),
			.has_start = lp->init.kind == OPND_CONST &&
				     lp->form != GEN_FORM_IRREDUCIBLE,
			.start = lp->init.base & wmask(lp->cw) };
	}
	if (lp->dvar >= 0 && lp->d_iv) {
		rec->ivs[rec->nivs++] = (struct gen_iv){
			.loc = gi_var_loc(g, lp->dvar), .width = lp->dwidth,
			.step = lp->dstep & wmask(lp->dwidth),
			.has_start = lp->form != GEN_FORM_IRREDUCIBLE,
			.start = lp->dstart & wmask(lp->dwidth) };
	}
	rec->shapes = lp->shapes | param_shapes(g, lp);
	if (lp->dvar >= 0 && g->vars[lp->dvar].reg < 0 && lp->dwidth == 32)
		rec->shapes |= GEN_SH(NARROW_SPILL);
	g->p->shapes |= rec->shapes;
	g->p->cond_kinds |= 1u << ((lp->op >> 4) + (lp->jw == 32 ? 16 : 0));
	propagate(g, lp, &ev);
}

static uint8_t pick_form(struct gi *g, int kind)
{
	uint32_t w[4] = { g->k->w_while, g->k->w_while_bottom, g->k->w_do_while, g->k->w_for };

	if (kind == LOOPK_IRREDUCIBLE ||
	    (kind == LOOPK_ANY && gen_bool(g->src, g->k->p_irreducible)))
		return GEN_FORM_IRREDUCIBLE;
	return (uint8_t)gen_weighted(g->src, w, 4);
}

static uint8_t pick_cat(struct gi *g)
{
	/* Huge and endless loops stay in main, where the campaign can budget a whole run; the
	 * program decided up front which of its loops (if any) they are. */
	if (g->fn->sub)
		return gen_bool(g->src, g->k->p_wrap) ? CAT_WRAP : CAT_NORMAL;
	g->main_loops++;
	if (g->main_loops - 1 == g->huge_at)
		return CAT_HUGE;
	if (g->main_loops - 1 == g->nonterm_at)
		return CAT_NONTERM;
	if (gen_bool(g->src, g->k->p_wrap))
		return CAT_WRAP;
	return CAT_NORMAL;
}

/* Allocates the loop's variables and writes their starting values; false when the function has
 * no home left for a counter. */
static bool setup_vars(struct gi *g, struct gi_loop *lp)
{
	bool spill = gen_bool(g->src, g->k->p_spill);

	lp->ctr = gi_var_new(g, lp->cw, spill);
	if (lp->ctr < 0)
		return false;
	if (lp->bound.kind != OPND_CONST ||
	    (gen_bool(g->src, g->k->p_bound_reg) && gen_bool(g->src, 50))) {
		lp->bvar = gi_var_new(g, 64, gen_bool(g->src, g->k->p_spill));
		if (lp->bvar < 0 && lp->bound.kind != OPND_CONST) {
			gi_var_free(g, lp->ctr);
			return false;
		}
	}
	if (lp->bvar < 0) {
		lp->bound_imm = lp->jw == 32 || gi_fits_s32(lp->bound.base);
		if (!lp->bound_imm || gen_bool(g->src, g->k->p_bound_reg))
			lp->bound_imm = false, lp->bound_ld64 = true;
	}
	if (gen_bool(g->src, g->k->p_derived)) {
		lp->dwidth = gen_bool(g->src, g->k->p_ctr32) ? 32 : 64;
		lp->dvar = gi_var_new(g, lp->dwidth, gen_bool(g->src, g->k->p_spill));
		if (lp->dvar >= 0) {
			lp->dstart = gen_bool(g->src, 50) ? gen_u32(g->src, 0, 1000)
							  : gen_u64(g->src, 0, UINT64_MAX);
			lp->dstep = gen_bool(g->src, 70) ? gen_u32(g->src, 1, 16) : pick_mag(g, 64);
			if (gen_bool(g->src, 40))
				lp->dstep = -lp->dstep;
			lp->dstart &= wmask(lp->dwidth);
			lp->dstep &= wmask(lp->dwidth);
			lp->d_iv = true;
			lp->shapes |= GEN_SH(DERIVED_IV);
		}
	}
	/* Start values: bound first (it may read an outer counter), then the counter. */
	if (lp->bvar >= 0)
		gi_emit_opnd(g, &lp->bound, lp->bvar, 64);
	gi_emit_opnd(g, &lp->init, lp->ctr, lp->cw);
	if (lp->dvar >= 0) {
		gi_var_set(g, lp->dvar, lp->dstart);
		gi_scratch_release(g);
	}
	return true;
}

static void free_vars(struct gi *g, struct gi_loop *lp)
{
	gi_var_free(g, lp->dvar);
	gi_var_free(g, lp->bvar);
	gi_var_free(g, lp->ctr);
}

/* A loop at the current position: parameters, variables, the form's layout around a body of
 * statements (which may hold more loops), then its description. */
void gi_gen_loop(struct gi *g, int kind)
{
	struct gi_loop *pa = g->nopen ? &g->open[g->nopen - 1] : NULL;
	struct gi_loop *lp;
	uint64_t remaining;

	if (g->nopen >= GI_MAX_OPEN || g->p->nloops >= GEN_MAX_LOOPS || !gi_room(g, 40)) {
		if (pa)
			gi_stmt_acc(g, pa);
		return;
	}
	lp = &g->open[g->nopen];
	memset(lp, 0, sizeof(*lp));
	lp->parent = g->nopen - 1;
	lp->depth = pa ? pa->depth + 1 : 1;
	lp->ctr = lp->bvar = lp->dvar = -1;
	remaining = pa ? pa->child_remaining : g->fn->sub ? SUB_BUDGET : g->nest_budget;
	lp->budget = remaining < g->k->max_trip ? remaining : g->k->max_trip;
	if (lp->budget < 1)
		lp->budget = 1;
	lp->form = pick_form(g, kind);
	lp->cat = pick_cat(g);
	choose_params(g, lp);
	lp->child_remaining = lp->ev.nonterm || !lp->ev.tmax ? 0 : remaining / lp->ev.tmax;
	if (!setup_vars(g, lp)) {
		if (pa)
			gi_stmt_acc(g, pa);
		return;
	}
	lp->idx = (int)g->p->nloops++;
	memset(&g->p->loops[lp->idx], 0, sizeof(g->p->loops[0]));
	lp->inc_lo = lp->inc_hi = sext(lp->step, lp->cw);
	lp->inc_exact = true;
	lp->started_skipped = pa && pa->skip;
	lp->l_head = gi_label(g);
	lp->l_top = gi_label(g);
	lp->l_cont = gi_label(g);
	lp->l_exit = gi_label(g);
	g->nopen++;

	switch (lp->form) {
	case GEN_FORM_WHILE:
		gi_bind(g, lp->l_head);
		gi_bind(g, lp->l_top);
		emit_test(g, lp, false, lp->l_exit);
		gi_gen_body(g, lp);
		emit_update(g, lp);
		gi_ja(g, lp->l_head);
		break;
	case GEN_FORM_WHILE_BOTTOM:
		gi_ja(g, lp->l_head);
		gi_bind(g, lp->l_top);
		gi_gen_body(g, lp);
		emit_update(g, lp);
		gi_bind(g, lp->l_head);
		emit_test(g, lp, true, lp->l_top);
		break;
	case GEN_FORM_FOR:
		/* the guard, then a do-while */
		emit_test(g, lp, false, lp->l_exit);
		/* fall through */
	case GEN_FORM_DO_WHILE:
		gi_bind(g, lp->l_head);
		gi_bind(g, lp->l_top);
		gi_gen_body(g, lp);
		emit_update(g, lp);
		emit_test(g, lp, true, lp->l_head);
		break;
	default:
		/* Irreducible: enter at A or, depending on the input, straight at B. */
		gi_emit_cond_jump(g, lp, lp->l_cont, true, -1);
		gi_bind(g, lp->l_top);
		lp->skip = true;	/* A runs once less than B when entered at B */
		gi_gen_body(g, lp);
		emit_update(g, lp);
		if (gi_room(g, 10) && gen_bool(g->src, 50))
			gi_stmt_acc(g, lp);
		emit_test(g, lp, true, lp->l_top);
		break;
	}
	gi_bind(g, lp->l_exit);
	g->loop_label_head[lp->idx] = lp->form == GEN_FORM_IRREDUCIBLE ? -1 : lp->l_head;
	g->loop_label_top[lp->idx] = lp->l_top;
	g->loop_label_last[lp->idx] = lp->l_exit;
	g->loop_label_entry2[lp->idx] = lp->form == GEN_FORM_IRREDUCIBLE ? lp->l_cont : -1;
	finish(g, lp);
	free_vars(g, lp);
	if (!g->fn->sub && lp->ev.nonterm)
		g->main_reach_lost = true;
	g->nopen--;
}

/* Whether the kernel's walk reaches the next instruction of main whatever the constants decide:
 * no return and no loop that may not end before it, and every open loop around it entered for
 * some input with nothing before it in its body that may leave or skip (a test of known numbers
 * leaves the rest dead for the kernel: p_null_stale seeds 7700029, 7700104 read their stale
 * value after a loop whose test of a constant returns in its first pass).  A break or continue
 * lands in the loop's exit or its next pass, reached either way. */
bool gi_kernel_reaches(const struct gi *g)
{
	if (g->fn->sub || g->main_reach_lost)
		return false;
	for (int i = 0; i < g->nopen; i++) {
		const struct gi_loop *o = &g->open[i];

		if (o->skip || o->early_exit || o->started_skipped ||
		    o->form == GEN_FORM_IRREDUCIBLE || !o->ev.entered)
			return false;
	}
	return true;
}

void gi_gen_body(struct gi *g, struct gi_loop *lp)
{
	unsigned n = gen_u32(g->src, 1, g->k->max_stmts);

	/* Every statement emits an instruction before any inner header (an inner loop starts by
	 * setting its counter), so no two loops share a header pc. */
	for (unsigned i = 0; i < n && (i == 0 || gi_room(g, 30)); i++)
		gi_gen_stmt(g, lp);
	if (lp->need_break && !lp->has_break_stmt) {
		gi_emit_cond_jump(g, lp, lp->l_exit, false, COND_INPUT);
		lp->early_exit = true;
		lp->has_break_stmt = true;
		lp->shapes |= GEN_SH(BREAK);
	}
}
