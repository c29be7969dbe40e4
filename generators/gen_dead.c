/* Dead-entry shapes: loops whose way in is decided by a test of constants, so that one of two
 * edges (or call sites) into them is never taken (p_dead_branch, p_dead_outer, p_dead_call and
 * their unsafe twins).  3a5d367 found the analyzer reading a dead entry's state where a live one
 * was meant (an irreducible loop entered only at its side entry: p_irr_side_only); these pieces
 * search the other shapes of that kind: a plain loop behind a constant-decided branch, an outer
 * loop entered only at its inner loop's preheader, a subprogram loop called from one dead and
 * one live site, a bpf_loop callback registered on a dead path.  Each twin puts a fault (a load
 * above the frame or through NULL) or a missing step where only the live path reaches; a
 * verdict that read the dead path's state instead would call it safe.
 *
 * The constant test: rT op k, rT = r4 holding d (loaded before the piece, maybe spilled at
 * fp-48 and read back where the test is), op signed, unsigned, == or != at 64 or 32 bits, k
 * near d or anywhere; gen_cond_holds() says which way it goes, so the generator knows the live
 * arm.  The prologue's pieces keep r2 and r3 (data, data_end) and clobber r0, r1, r4, r5.
 */
#include "generators/gen_internal.h"

#include "bpf/isa.h"

#define GEN_FP_DEAD_CELL (-40)	/* a cell the loops read through a pointer */
#define GEN_FP_DEAD_CONST (-48)	/* d, spilled */
#define GEN_FP_DEAD_PTR (-56)	/* the pointer the loop reads through, set per arm */
/* Loops left for the call pieces that follow the prologue's loops (their subprograms' loops):
 * with every knob at 100 the pieces together would pass GEN_MAX_LOOPS. */
#define DEAD_CALL_LOOPS 8

static bool loops_left(const struct gi *g, unsigned n)
{
	return g->p->nloops + n + DEAD_CALL_LOOPS <= GEN_MAX_LOOPS;
}

struct dead_test {
	uint8_t op;
	bool w32, spill;
	int64_t d;
	int32_t k;
	bool taken;		/* the jump is taken on every run */
};

/* Draws the constant test and loads d into r4 (spilling it when chosen): the caller emits the
 * test with dead_test_emit, after reloading with dead_test_reload where it wants. */
static void dead_test_draw(struct gi *g, struct dead_test *t)
{
	static const uint8_t ops[] = { BPF_JEQ, BPF_JNE, BPF_JGT, BPF_JGE, BPF_JLT, BPF_JLE,
				       BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE };

	t->op = ops[gen_u32(g->src, 0, sizeof(ops) - 1)];
	t->w32 = gen_bool(g->src, 35);
	t->spill = gen_bool(g->src, 50);
	t->d = (int64_t)(int32_t)gen_u32(g->src, 0, UINT32_MAX);
	/* (== and != need k = d about half the time to go either way) */
	t->k = gen_bool(g->src, 60) ? (int32_t)((uint32_t)t->d + gen_u32(g->src, 0, 4) - 2)
				    : (int32_t)gen_u32(g->src, 0, UINT32_MAX);
	if ((t->op == BPF_JEQ || t->op == BPF_JNE) && gen_bool(g->src, 50))
		t->k = (int32_t)t->d;
	t->taken = gen_cond_holds(t->op, t->w32 ? 32 : 64, 64, (uint64_t)t->d,
				  (uint64_t)(int64_t)t->k);
	gi_mov_const(g, BPF_REG_4, (uint64_t)t->d, true);
	if (t->spill)
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_DEAD_CONST, BPF_REG_4);
}

static void dead_test_emit(struct gi *g, const struct dead_test *t, int label)
{
	if (t->spill)
		gi_ldx(g, BPF_DW, BPF_REG_4, EBPF_REG_FP, GEN_FP_DEAD_CONST);
	gi_jmp(g, t->w32, t->op, BPF_REG_4, t->k, label);
}

/* What a twin puts where only the live path reaches: a load above the frame (r0 = r10 + 0 or
 * + 8) or through NULL.  Clobbers r0. */
static void bad_load(struct gi *g)
{
	if (gen_bool(g->src, 50)) {
		gi_alux(g, true, BPF_MOV, BPF_REG_0, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_0, gen_bool(g->src, 50) ? 8 : 0);
	} else {
		gi_mov_const(g, BPF_REG_0, 0, true);
	}
	gi_ldx(g, BPF_DW, BPF_REG_0, BPF_REG_0, 0);
}

/* A counted loop's exit test r5 cmp lo after r5 -= s from c: cmp > or s> at 64 or 32 bits,
 * its header executions per entry in *n (at most 16, at least 2 when want2); falls back to s>
 * at 64 bits where another would take long.  endless: the test must hold at c (a loop that
 * does not step never leaves). */
struct down_loop {
	int64_t c, lo;
	uint32_t s;
	uint8_t eop;
	bool ew32;
	uint64_t n;
};

static void down_loop_draw(struct gi *g, struct down_loop *d, bool want2, bool endless)
{
	uint32_t want = gen_u32(g->src, want2 ? 2 : 1, 8);
	uint64_t k;

	d->s = gen_u32(g->src, 1, 3);
	d->c = (int64_t)gen_u32(g->src, 0, 200) - 100;
	d->lo = d->c - (int64_t)want * d->s;
	d->ew32 = gen_bool(g->src, 35);
	d->eop = gen_bool(g->src, 50) ? BPF_JSGT : BPF_JGT;
	if (!gen_first_exit(d->eop, d->ew32 ? 32 : 64, 64, (uint64_t)(d->c - (int64_t)d->s),
			    (uint64_t)-(int64_t)d->s, (uint64_t)d->lo, &k) ||
	    k + 1 > 16 || (want2 && k + 1 < 2) ||
	    (endless &&
	     !gen_cond_holds(d->eop, d->ew32 ? 32 : 64, 64, (uint64_t)d->c, (uint64_t)d->lo))) {
		d->eop = BPF_JSGT;
		d->ew32 = false;
		k = want - 1;
	}
	d->n = k + 1;
}

/* The loop's description: header at head, body to end, r5 stepped by -s (none when endless). */
static struct gen_loop *down_loop_describe(struct gi *g, int idx, int head, int end,
					   const struct down_loop *d, bool endless, uint64_t more)
{
	struct gen_loop *l;

	l = prologue_loop(g, idx, head, end, GEN_FORM_DO_WHILE,
			  GEN_SH(DO_WHILE) | GEN_SH(DOWN) | (d->s == 1 ? GEN_SH(STEP_UNIT) : 0) |
				  GEN_SH(CTR64) | (d->ew32 ? GEN_SH(CMP_MIX) : 0) |
				  (d->eop == BPF_JSGT ? GEN_SH(COND_SIGNED)
						      : GEN_SH(COND_UNSIGNED)) |
				  GEN_SH(BOUND_CONST) | (endless ? GEN_SH(NONTERM) : 0) | more,
			  BPF_REG_5, d->eop);
	l->cmp_width = d->ew32 ? 32 : 64;
	l->step = (uint64_t)-(int64_t)d->s;
	if (endless) {
		l->trip = -1;
		l->trip_max = UINT64_MAX;
		mark_endless(g, l);
	} else {
		l->trip = (int64_t)d->n;
		l->trip_max = d->n;
		l->ivs[0] = (struct gen_iv){ .loc = BPF_REG_5, .width = 64, .has_start = true,
					     .step = l->step, .start = (uint64_t)d->c };
		l->nivs = 1;
	}
	return l;
}

/* A plain loop reached only through a constant-decided branch (p_dead_branch): [r1 = 0; otop:]
 * fp-40 = 0; if (rT op k) goto J; F: ...; goto P; J: ...; P: head: r0 = *(fp-56); r0 = *r0;
 * r5 -= s; if (r5 cmp lo) goto head; after: [r1 += 1; if (r1 < m) goto otop].  The live arm
 * sets r5 = c and fp-56 = fp-40; the dead arm either skips the loop (goto after) or enters it
 * too, with a start of its own and the same pointer.  40 % nested in a plain counted loop.  The
 * twin (p_dead_branch_bad) gives the live arm a pointer above the frame or NULL
 * (GEN_PROG_DEAD_ENTRY_UNSAFE), or drops the step (r5 |= 0) with the live start inside the
 * loop and, when the dead arm enters, its start outside (a run from it would leave). */
static void dead_branch_loop(struct gi *g, bool bad)
{
	bool nest = gen_bool(g->src, 40), dead_enters = gen_bool(g->src, 50);
	unsigned kind = bad ? gen_u32(g->src, 0, 2) : 3;	/* 0 above, 1 null, 2 endless */
	bool endless = kind == 2;
	int idx = nest ? (int)g->p->nloops++ : -1, in = (int)g->p->nloops++;
	int otop = gi_label(g), oend = gi_label(g), lj = gi_label(g), lp = gi_label(g);
	int head = gi_label(g), after = gi_label(g);
	uint32_t m = gen_u32(g->src, 2, 4);
	struct dead_test t;
	struct down_loop d;
	struct gen_loop *l;
	int64_t cdead;

	dead_test_draw(g, &t);
	down_loop_draw(g, &d, bad, endless);
	cdead = endless ? d.lo : d.lo + (int64_t)gen_u32(g->src, 0, 8) * d.s;
	if (nest) {
		gi_mov_const(g, BPF_REG_1, 0, true);
		gi_bind(g, otop);
	}
	gi_st(g, BPF_DW, EBPF_REG_FP, GEN_FP_DEAD_CELL, 0);
	dead_test_emit(g, &t, lj);
	for (int arm = 0; arm < 2; arm++) {	/* 0 the fall-through, 1 the jump's */
		bool live = (arm == 1) == t.taken;

		if (arm == 1)
			gi_bind(g, lj);
		if (!live && !dead_enters) {
			gi_ja(g, after);
			continue;
		}
		gi_mov_const(g, BPF_REG_5, (uint64_t)(live ? d.c : cdead), true);
		if (live && kind == 0) {
			gi_alux(g, true, BPF_MOV, BPF_REG_0, EBPF_REG_FP);
			gi_alu(g, true, BPF_ADD, BPF_REG_0, gen_bool(g->src, 50) ? 8 : 0);
		} else if (live && kind == 1) {
			gi_mov_const(g, BPF_REG_0, 0, true);
		} else {
			gi_alux(g, true, BPF_MOV, BPF_REG_0, EBPF_REG_FP);
			gi_alu(g, true, BPF_ADD, BPF_REG_0, GEN_FP_DEAD_CELL);
		}
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_DEAD_PTR, BPF_REG_0);
		if (arm == 0)
			gi_ja(g, lp);
	}
	gi_bind(g, lp);
	gi_bind(g, head);
	gi_ldx(g, BPF_DW, BPF_REG_0, EBPF_REG_FP, GEN_FP_DEAD_PTR);
	gi_ldx(g, BPF_DW, BPF_REG_0, BPF_REG_0, 0);
	if (endless)
		gi_alu(g, true, BPF_OR, BPF_REG_5, 0);
	else
		gi_alu(g, true, BPF_ADD, BPF_REG_5, -(int32_t)d.s);
	gi_jmp(g, d.ew32, d.eop, BPF_REG_5, (int32_t)d.lo, head);
	gi_bind(g, after);
	if (nest) {
		gi_alu(g, true, BPF_ADD, BPF_REG_1, 1);
		gi_jmp(g, false, BPF_JLT, BPF_REG_1, (int32_t)m, otop);
		gi_bind(g, oend);
		up_loop_describe(g, idx, otop, oend, GEN_SH(NEST2), endless, (int64_t)m, m);
	}
	l = down_loop_describe(g, in, head, after, &d, endless, t.spill ? GEN_SH(SPILL) : 0);
	if (nest) {
		l->parent = idx;
		l->depth = 2;
	}
	if (kind < 2)
		g->p->flags |= GEN_PROG_DEAD_ENTRY_UNSAFE;
}

/* An outer loop whose own entry is dead while its inner loop's preheader is entered from outside
 * (p_dead_outer), or the other way round: r1 = 0; r5 = c; if (rT op k) goto X; [goto Y;] O: <the
 * outer body's first block>; I: r5 = c; head: fp-40 = r5; r0 = fp-40; r5 -= s; if (r5 cmp lo)
 * goto head; r1 += 1; if (r1 < m) goto O.  X, Y are O and I in either order (the jump's target
 * drawn), so the live edge goes into O (a plain nest with a dead edge into its inner
 * preheader) or into I (the outer loop, irreducible, entered only at I; O runs from the second
 * iteration on), about as often.  The outer loop is described as irreducible with entries O and
 * I (I runs once per iteration: its trip is m).  The twin (p_dead_outer_bad, m >= 2) puts in O a
 * load above the frame or through NULL (GEN_PROG_DEAD_ENTRY_UNSAFE), or drops the outer step or
 * the inner one (endless). */
static void dead_outer_loop(struct gi *g, bool bad)
{
	unsigned kind = bad ? gen_u32(g->src, 0, 3) : 4;	/* 0 above, 1 null, 2 outer, 3 inner
								 * endless */
	bool oendless = kind == 2, iendless = kind == 3, to_inner = gen_bool(g->src, 50);
	int out = (int)g->p->nloops++, in = (int)g->p->nloops++;
	int lo_ = gi_label(g), li = gi_label(g), head = gi_label(g), iend = gi_label(g);
	int oend = gi_label(g);
	uint32_t m = gen_u32(g->src, bad ? 2 : 1, 4);
	struct dead_test t;
	struct down_loop d;
	struct gen_loop *l;

	dead_test_draw(g, &t);
	down_loop_draw(g, &d, false, iendless);
	gi_mov_const(g, BPF_REG_1, 0, true);
	gi_mov_const(g, BPF_REG_5, (uint64_t)d.c, true);
	dead_test_emit(g, &t, to_inner ? li : lo_);
	if (!to_inner)
		gi_ja(g, li);
	gi_bind(g, lo_);
	if (kind < 2)
		bad_load(g);
	else
		gi_st(g, BPF_DW, EBPF_REG_FP, GEN_FP_DEAD_CELL, (int32_t)m);
	gi_bind(g, li);
	gi_mov_const(g, BPF_REG_5, (uint64_t)d.c, true);
	gi_bind(g, head);
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_DEAD_CELL, BPF_REG_5);
	gi_ldx(g, BPF_DW, BPF_REG_0, EBPF_REG_FP, GEN_FP_DEAD_CELL);
	if (iendless)
		gi_alu(g, true, BPF_OR, BPF_REG_5, 0);
	else
		gi_alu(g, true, BPF_ADD, BPF_REG_5, -(int32_t)d.s);
	gi_jmp(g, d.ew32, d.eop, BPF_REG_5, (int32_t)d.lo, head);
	gi_bind(g, iend);
	gi_alu(g, true, oendless ? BPF_OR : BPF_ADD, BPF_REG_1, oendless ? 0 : 1);
	gi_jmp(g, false, BPF_JLT, BPF_REG_1, (int32_t)m, lo_);
	gi_bind(g, oend);
	l = prologue_loop(g, out, lo_, oend, GEN_FORM_IRREDUCIBLE,
			  GEN_SH(IRREDUCIBLE) | GEN_SH(UP) | GEN_SH(STEP_UNIT) | GEN_SH(CTR64) |
				  GEN_SH(COND_UNSIGNED) | GEN_SH(BOUND_CONST) | GEN_SH(NEST2) |
				  (t.spill ? GEN_SH(SPILL) : 0) |
				  (oendless || iendless ? GEN_SH(NONTERM) : 0),
			  BPF_REG_1, BPF_JLT);
	g->loop_label_head[out] = -1;
	g->loop_label_entry2[out] = li;
	l->flags |= GEN_LOOP_IRREDUCIBLE;
	l->step = oendless ? 0 : 1;
	if (oendless || iendless) {
		l->trip = -1;
		l->trip_max = UINT64_MAX;
		mark_endless(g, l);
	} else {
		l->trip = m;
		l->trip_max = m;
		l->ivs[0] = (struct gen_iv){ .loc = BPF_REG_1, .width = 64, .has_start = true,
					     .step = 1 };
		l->nivs = 1;
	}
	l = down_loop_describe(g, in, head, iend, &d, iendless, 0);
	l->parent = out;
	l->depth = 2;
	if (kind < 2)
		g->p->flags |= GEN_PROG_DEAD_ENTRY_UNSAFE;
}

void gi_dead_branch(struct gi *g, bool bad)
{
	if (loops_left(g, 2))
		dead_branch_loop(g, bad);
}

void gi_dead_outer(struct gi *g, bool bad)
{
	if (loops_left(g, 2))
		dead_outer_loop(g, bad);
}

/* The arms of the constant test that jumps to lj: arm 0 falls through, arm 1 is the jump's
 * (bound here).  Whether arm is the live one. */
static bool dead_arm(struct gi *g, const struct dead_test *t, int arm, int lj)
{
	if (arm == 1)
		gi_bind(g, lj);
	return (arm == 1) == t->taken;
}

/* A subprogram loop called from a dead and a live call site (p_dead_call): the prologue stores
 * c (in [0, 40]) at GEN_FP_BOUND and the input's 8 bytes at data + 16 in GEN_FP_DEAD_CELL, then
 * calls f(p) on both arms of the constant test, p = fp + GEN_FP_BOUND on the live one and fp +
 * GEN_FP_DEAD_CELL on the dead one; f is p_call_bound's (r2 = *p; do r3++ while (r3 <= r2)): c
 * + 1 iterations on every run.  An analysis that joined the dead call's context into f's would
 * see n = any 64-bit number and not bound the loop.  The twin (p_dead_call_bad) swaps the
 * pointers: the live call counts to the input's number (2^63 times on data[23] = 0x80, for
 * ever on all-ones input) and only the dead one to c.  r1-r5 clobbered. */
static void dead_call(struct gi *g, bool bad)
{
	int s = gi_sub_new(g, SUBK_CALLBACK, 1), lj = gi_label(g), after = gi_label(g);
	uint32_t c = gen_u32(g->src, 0, 40);
	struct dead_test t;

	if (s < 0)
		return;
	g->subs[s].called = true;
	g->subs[s].bound = bad ? 2 : 1;
	g->subs[s].bound_max = c;
	gi_mov_const(g, BPF_REG_1, c, true);
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_BOUND, BPF_REG_1);
	gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_DW, BPF_REG_1, BPF_REG_2, 16);
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_DEAD_CELL, BPF_REG_1);
	dead_test_draw(g, &t);
	dead_test_emit(g, &t, lj);
	for (int arm = 0; arm < 2; arm++) {
		bool live = dead_arm(g, &t, arm, lj);

		gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_1, live != bad ? GEN_FP_BOUND : GEN_FP_DEAD_CELL);
		gi_call_sub(g, g->subs[s].label);
		if (arm == 0)
			gi_ja(g, after);
	}
	gi_bind(g, after);
	g->p->shapes |= GEN_SH(SUBPROG) | GEN_SH(SUBPROG_LOOP) | GEN_SH(CALL_PTR) |
			(t.spill ? GEN_SH(SPILL) : 0);
	if (bad)
		g->p->flags |= GEN_PROG_MAY_NOT_TERMINATE;
}

/* A bpf_loop callback registered only on a dead path (p_dead_cb): on the dead arm of the
 * constant test, bpf_loop(n, cb, NULL, 0), n in [1, 3], cb p_cb_count's (it reads and writes
 * through its ctx: through NULL); the live arm calls nothing.  No run calls cb, and the kernel,
 * which knows the test's outcome, never walks it either.  The twin (p_dead_cb_bad) makes the
 * call on the live arm: every run calls cb with a NULL ctx (INTERP_TRAP_MEM,
 * GEN_PROG_DEAD_ENTRY_UNSAFE).  r0-r5 clobbered. */
static void dead_cb(struct gi *g, bool bad)
{
	int s = gi_sub_new(g, SUBK_CALLBACK, 2), lj = gi_label(g), after = gi_label(g);
	uint32_t n = gen_u32(g->src, 1, 3), c = gen_u32(g->src, 0, 7);
	struct dead_test t;

	if (s < 0)
		return;
	g->subs[s].called = true;
	g->subs[s].cb_count = (int8_t)(c + 1);
	g->subs[s].cb_nr = n;
	g->subs[s].cb_steps = 8;
	dead_test_draw(g, &t);
	dead_test_emit(g, &t, lj);
	for (int arm = 0; arm < 2; arm++) {
		if (dead_arm(g, &t, arm, lj) == bad) {
			gi_mov_const(g, BPF_REG_1, n, true);
			gi_ld_func(g, BPF_REG_2, g->subs[s].label);
			gi_mov_const(g, BPF_REG_3, 0, true);
			gi_mov_const(g, BPF_REG_4, 0, true);
			gi_call_helper(g, BPF_FUNC_loop);
		}
		if (arm == 0)
			gi_ja(g, after);
	}
	gi_bind(g, after);
	g->p->shapes |= GEN_SH(BPF_LOOP) | (t.spill ? GEN_SH(SPILL) : 0);
	if (bad)
		g->p->flags |= GEN_PROG_DEAD_ENTRY_UNSAFE;
}

void gi_dead_call(struct gi *g, bool bad)
{
	dead_call(g, bad);
}

void gi_dead_cb(struct gi *g, bool bad)
{
	dead_cb(g, bad);
}
