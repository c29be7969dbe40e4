/* bpf-to-bpf calls: which subprograms a program has and how they call each other (the plan,
 * drawn up front), their bodies, the calls themselves, and what the emitted code then is as a
 * call graph: the functions and their frames, the deepest chain of frames and the largest
 * combined stack, and the bound on the steps a run can take.
 *
 * The shapes are those gen.h lists under its knobs.  The kernel's limits they are built around
 * (8 frames, 512 bytes of combined stack with each frame rounded up to 16 bytes, no recursion)
 * are the ones a program must respect to be loaded; the unsafe twins break exactly one of them,
 * so a checker that misses that rule calls a program safe that the kernel refuses.  The graph
 * metadata is computed from the emitted instructions (the calls found in them, the stack
 * offsets they use), not from the plan; the plan only says which calls pass a counter down.
 */
#include <stdio.h>
#include <string.h>

#include "generators/gen_internal.h"

#include "bpf/isa.h"

/* ---- the plan ---- */

int gi_sub_new(struct gi *g, uint8_t kind, uint8_t nargs)
{
	struct gi_sub *s;

	if (g->nsubs >= GI_MAX_SUBS)
		return -1;
	s = &g->subs[g->nsubs];
	*s = (struct gi_sub){ .label = gi_label(g), .kind = kind, .nargs = nargs, .ptr_arg = -1,
			      .next = -1 };
	return g->nsubs++;
}

/* Frames of a plain chain: the kernel's limit and one more half the time together, else any
 * depth below. */
static uint32_t chain_frames(struct gi *g)
{
	switch (gen_pick(g->src, 10)) {
	case 0: case 1: case 2: return GEN_MAX_FRAMES;
	case 3: case 4: case 5: return GEN_MAX_FRAMES + 1;
	default: return gen_u32(g->src, 2, GEN_MAX_FRAMES - 1);
	}
}

/* The combined stack a big-frame chain aims at: the limit itself, one granule over it, or a few
 * granules under. */
static uint32_t stack_target(struct gi *g)
{
	switch (gen_pick(g->src, 20)) {
	case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7: case 8:
		return GEN_MAX_STACK;
	case 9: case 10: case 11: case 12: case 13: case 14: case 15:
		return GEN_MAX_STACK + 16;
	default:
		return GEN_MAX_STACK - 16 * gen_u32(g->src, 1, 8);
	}
}

/* The plan's fixed parts take at most 3 workers (or 1 legacy subprogram) and 3 recursive ones,
 * so the table never fills before a chain or a callback; each gi_sub_new is checked anyway. */
_Static_assert(GI_MAX_SUBS >= 3 + 3, "gi_calls_plan's fixed parts must fit in subs[]");

void gi_calls_plan(struct gi *g)
{
	const struct gen_knobs *k = g->k;
	bool args = gen_bool(g->src, k->p_call_args), chain = gen_bool(g->src, k->p_call_chain);
	bool big = gen_bool(g->src, k->p_big_frame), rec = gen_bool(g->src, k->p_recursion);
	int s;

	g->nsubs = 0;
	g->main_tail = -1;
	g->call_shape = GEN_CALLS_NONE;
	if (args) {
		/* Workers: loop subprograms with more arguments; a worker's loops may call the
		 * later ones unless main's frame is big already (its array), which would take
		 * main -> worker -> worker over 512 bytes. */
		unsigned nw = gen_u32(g->src, 2, 3);

		g->use_sub = true;
		for (unsigned i = 0; i < nw; i++) {
			s = gi_sub_new(g, SUBK_WORKER, (uint8_t)gen_u32(g->src, 2, 5));
			if (s < 0)
				break;
			if (g->subs[s].nargs > 2 && gen_bool(g->src, 50))
				g->subs[s].ptr_arg = (int8_t)gen_u32(g->src, 3, g->subs[s].nargs);
			g->subs[s].callee_lo = s + 1;
			g->subs[s].callee_hi = g->use_array ? s + 1 : (int)nw;
		}
		g->fn->callee_lo = 0;
		g->fn->callee_hi = (int)nw;
	} else if (g->use_sub) {
		gi_sub_new(g, SUBK_LEGACY, 2);
		g->fn->callee_lo = 0;
		g->fn->callee_hi = 1;
	}
	if (rec) {
		unsigned variant = gen_pick(g->src, 3), prefix = 1;
		bool bounded = gen_bool(g->src, 50);
		int f, h = -1;

		if (variant == 2) {	/* main -> s -> f -> f */
			h = gi_sub_new(g, SUBK_LINK, 2);
			prefix = 2;
		}
		f = gi_sub_new(g, SUBK_REC, 2);
		if (f < 0)
			return;
		g->subs[f].next = (int8_t)f;
		if (variant == 1) {	/* f -> g -> f */
			int m = gi_sub_new(g, SUBK_REC, 2);

			if (m < 0)
				return;
			g->subs[f].next = (int8_t)m;
			g->subs[m].next = (int8_t)f;
			g->subs[m].bounded = bounded;
		}
		g->subs[f].bounded = bounded;
		if (h >= 0)
			g->subs[h].next = (int8_t)f;
		g->main_tail = h >= 0 ? h : f;
		g->rec_cycle = variant == 1 ? 2 : 1;
		if (bounded) {
			/* frames of the recursive part, the caller's included in the 8 */
			uint32_t kf = gen_u32(g->src, 2, GEN_MAX_FRAMES - prefix);

			g->tail_arg = kf - 1;
			g->call_shape = GEN_CALLS_REC_BOUNDED;
			g->p->shapes |= GEN_SH(REC_BOUNDED);
		} else {
			g->tail_arg = gen_u32(g->src, 0, 100);
			g->call_shape = variant == 1 ? GEN_CALLS_REC_MUTUAL : GEN_CALLS_REC_DIRECT;
		}
		g->p->shapes |= GEN_SH(RECURSION) | (variant == 1 ? GEN_SH(REC_MUTUAL) : 0);
	} else if (chain || big) {
		uint32_t frames = big ? gen_u32(g->src, 2, GEN_MAX_FRAMES) : chain_frames(g);
		int prev = -1;

		/* Main keeps a small frame, so the depth (or the pads) alone decide. */
		g->use_array = false;
		for (uint32_t i = 1; i < frames; i++) {
			s = gi_sub_new(g, SUBK_LINK, (uint8_t)gen_u32(g->src, 2, 5));
			if (s < 0)
				break;
			g->subs[s].pad = big;
			if (prev >= 0)
				g->subs[prev].next = (int8_t)s;
			else
				g->main_tail = s;
			prev = s;
		}
		g->big_frame = big;
		if (big)
			g->stack_target = stack_target(g);
		g->p->shapes |= (chain ? GEN_SH(CALL_CHAIN) : 0) | (big ? GEN_SH(BIG_FRAME) : 0);
	}
	/* Workers run at least once, whatever the loops' statements turn out to be. */
	if (args && g->main_tail < 0)
		g->main_tail = 0;
}

/* ---- calls ---- */

/* dst = v once homes in r1-r5 have been spilled (their registers may be overwritten already). */
static void arg_to(struct gi *g, int v, int dst)
{
	const struct gi_var *x = &g->vars[v];

	if (x->reg >= 1 && x->reg <= 5)
		gi_ldx(g, BPF_DW, dst, EBPF_REG_FP, x->slot);
	else
		gi_var_to_reg(g, v, dst);
}

/* r1 = a + r1_add (a < 0: the tail argument), r2 = the accumulator, r3.. constants or values,
 * one of them maybe a pointer to the caller's cell holding the accumulator; then the call, and
 * the result (and the cell, which the callee rewrote) into the accumulator. */
static void emit_call(struct gi *g, int si, int a, int32_t r1_add)
{
	const struct gi_sub *s = &g->subs[si];
	int cell = g->fn->sub ? GI_SUB_CELL : GEN_FP_CELL, acc = g->fn->acc, t;

	gi_spill_caller_homes(g);
	if (a >= 0)
		arg_to(g, a, BPF_REG_1);
	else
		gi_mov_const(g, BPF_REG_1, g->tail_arg, true);
	if (r1_add)
		gi_alu(g, true, BPF_ADD, BPF_REG_1, r1_add);
	arg_to(g, acc, BPF_REG_2);
	for (int r = 3; r <= s->nargs; r++) {
		if (r == s->ptr_arg) {
			arg_to(g, acc, r);
			gi_stx(g, BPF_DW, EBPF_REG_FP, (int16_t)cell, r);
			gi_alux(g, true, BPF_MOV, r, EBPF_REG_FP);
			gi_alu(g, true, BPF_ADD, r, cell);
			g->p->shapes |= GEN_SH(CALL_PTR);
		} else if (gen_bool(g->src, 50)) {
			gi_mov_const(g, r, gen_u32(g->src, 0, 1000), true);
		} else {
			arg_to(g, gen_bool(g->src, 50) || a < 0 ? acc : a, r);
		}
	}
	gi_call_sub(g, s->label);
	g->subs[si].called = true;
	g->sub_called = true;
	gi_fill_caller_homes(g);
	g->scratch_busy = 1u << BPF_REG_0;
	gi_var_alux(g, acc, BPF_ADD, BPF_REG_0);
	if (s->ptr_arg > 0) {
		gi_scratch_release(g);	/* r0 is free again */
		t = gi_scratch(g);
		gi_ldx(g, BPF_DW, t, EBPF_REG_FP, (int16_t)cell);
		gi_var_alux(g, acc, BPF_XOR, t);
	}
	gi_scratch_release(g);
	if (s->kind == SUBK_WORKER)
		g->p->shapes |= GEN_SH(CALL_ARGS);
}

void gi_emit_call(struct gi *g, int s, int a, struct gi_loop *lp)
{
	(void)lp;
	emit_call(g, s, a, 0);
}

void gi_calls_main_tail(struct gi *g)
{
	int t = g->main_tail;

	if (t < 0)
		return;
	gi_scratch_release(g);
	/* Bounded recursion gets its counter; everything else the accumulator. */
	emit_call(g, t, g->call_shape == GEN_CALLS_REC_BOUNDED ? -1 : g->fn->acc, 0);
}

/* ---- the subprograms ---- */

static int var_fixed(struct gi *g, int reg)
{
	int v = gi_var_new(g, 64, true);

	if (v >= 0) {
		g->vars[v].reg = (int8_t)reg;
		if (reg >= 1 && reg <= 5)
			g->fn->caller_homes |= 1u << reg;
	}
	return v;
}

/* p_subprog's subprogram: f(a = r1, b = r2) with its accumulator in r0 and one or two loops
 * over its arguments, in its own frame. */
static void sub_legacy(struct gi *g, const struct gi_sub *s)
{
	struct gi_fn fn = { .sub = true, .home_pool = 0x38, .scratch_pool = 0x38,
			    .max_caller_homes = 3, .slot_next = GI_SUB_SLOT_HI,
			    .slot_lo = GI_SUB_SLOT_LO };
	unsigned n;

	g->fn = &fn;
	gi_bind(g, s->label);
	fn.acc = var_fixed(g, BPF_REG_0);
	fn.arg_a = var_fixed(g, BPF_REG_1);
	fn.arg_b = var_fixed(g, BPF_REG_2);
	gi_alux(g, true, BPF_MOV, BPF_REG_0, BPF_REG_2);
	if (gen_bool(g->src, 50))
		gi_alux(g, true, BPF_XOR, BPF_REG_0, BPF_REG_1);
	n = gen_u32(g->src, 1, 2);
	for (unsigned i = 0; i < n; i++)
		gi_gen_loop(g, LOOPK_ANY);
	gi_alux(g, true, BPF_ADD, BPF_REG_0, BPF_REG_1);
	gi_exit(g);
	gi_var_free(g, fn.arg_b);
	gi_var_free(g, fn.arg_a);
	gi_var_free(g, fn.acc);
}

/* Workers, chain links and recursive subprograms: f(a = r1, b = r2, r3..r5) with an
 * accumulator anywhere (r6-r9 survive its calls), loops over its arguments, calls to the
 * workers after it from loop bodies, and one straight-line call to the next subprogram of its
 * chain or recursion, guarded by the counter in r1 when the recursion is bounded. */
static void sub_general(struct gi *g, int si)
{
	struct gi_sub *s = &g->subs[si];
	bool small = s->kind != SUBK_WORKER;
	struct gi_fn fn = { .sub = true, .home_pool = 0x3c0 | 0x38, .scratch_pool = 0x3f,
			    .max_caller_homes = 3, .slot_next = GI_SUB_SLOT_HI,
			    .slot_lo = small ? GI_LINK_SLOT_LO : GI_SUB_SLOT_LO,
			    .callee_lo = s->callee_lo, .callee_hi = s->callee_hi };
	int pslot = -1, l_skip = -1, r;
	unsigned n;

	g->fn = &fn;
	gi_bind(g, s->label);
	if (s->pad) {	/* deepened once every frame is known (gi_calls_finish) */
		s->pad_pc = g->len;
		gi_st(g, BPF_DW, EBPF_REG_FP, -8, 0);
	}
	fn.arg_a = var_fixed(g, BPF_REG_1);
	fn.arg_b = var_fixed(g, BPF_REG_2);
	if (s->ptr_arg > 0) {
		/* Keep the pointer (spilled, as the kernel tracks it) for the write-back; fold
		 * the value it points at like any other argument. */
		pslot = gi_var_new(g, 64, true);
		gi_stx(g, BPF_DW, EBPF_REG_FP, g->vars[pslot].slot, s->ptr_arg);
		gi_ldx(g, BPF_DW, s->ptr_arg, s->ptr_arg, 0);
	}
	gi_alux(g, true, BPF_MOV, BPF_REG_0, BPF_REG_2);
	if (gen_bool(g->src, 50))
		gi_alux(g, true, BPF_XOR, BPF_REG_0, BPF_REG_1);
	for (r = 3; r <= s->nargs; r++)
		gi_alux(g, true, gen_bool(g->src, 50) ? BPF_ADD : BPF_XOR, BPF_REG_0, r);
	fn.acc = gi_var_new(g, 64, gen_bool(g->src, g->k->p_spill));
	if (fn.acc < 0)
		fn.acc = var_fixed(g, BPF_REG_6);	/* cannot happen: the pool is fresh */
	gi_var_write(g, fn.acc, BPF_REG_0);
	n = s->kind == SUBK_WORKER ? gen_u32(g->src, 1, 2) : gen_bool(g->src, 40);
	for (unsigned i = 0; i < n; i++)
		gi_gen_loop(g, LOOPK_ANY);
	if (s->next >= 0) {
		const struct gi_sub *nx = &g->subs[s->next];
		bool pass_counter = nx->kind == SUBK_REC && nx->bounded;

		if (s->bounded) {
			l_skip = gi_label(g);
			r = gi_var_read(g, fn.arg_a);
			gi_jmp(g, false, BPF_JEQ, r, 0, l_skip);
			gi_scratch_release(g);
		}
		/* A recursive call passes its counter down (or, unbounded, anything). */
		emit_call(g, s->next, pass_counter || s->kind == SUBK_REC ? fn.arg_a : fn.acc,
			  s->kind != SUBK_REC ? 0 : s->bounded ? -1 : 1);
		if (l_skip >= 0)
			gi_bind(g, l_skip);
	}
	gi_var_to_reg(g, fn.acc, BPF_REG_0);
	gi_alux(g, true, BPF_ADD, BPF_REG_0, BPF_REG_1);
	if (pslot >= 0) {
		gi_ldx(g, BPF_DW, BPF_REG_3, EBPF_REG_FP, g->vars[pslot].slot);
		gi_stx(g, BPF_DW, BPF_REG_3, 0, BPF_REG_0);
	}
	gi_exit(g);
	gi_var_free(g, fn.acc);
	gi_var_free(g, pslot);
	gi_var_free(g, fn.arg_b);
	gi_var_free(g, fn.arg_a);
}

void gi_calls_emit_subs(struct gi *g)
{
	/* Calls go to later subprograms, or back to ones already called (recursion), so one
	 * pass in plan order emits everything that is called. */
	for (int i = 0; i < g->nsubs; i++) {
		if (!g->subs[i].called)
			continue;
		if (g->subs[i].kind == SUBK_CALLBACK)
			gi_emit_callback(g, &g->subs[i]);
		else if (g->subs[i].kind == SUBK_LEGACY)
			sub_legacy(g, &g->subs[i]);
		else
			sub_general(g, i);
	}
}

/* ---- a callee and its caller's frame: p_frame_rules ---- */

/* The kernel's rules on a function and its caller's frame (snd27; the corpus's q2-q4 cases
 * and callee_stores_caller_slot), p_frame_rules and its twin p_frame_rules_bad, a call piece.
 * x is one of main's variable homes in [-208, -72], which hold nothing yet in the prologue and
 * are written before they are read later; the packet pointer data is spilled there first in
 * the first three forms.  The forms, f a static function or (FR_FILL_CB, half of FR_STACK_PTR)
 * a bpf_loop callback of 1-3 iterations given fp + x as its context:
 *
 *   FR_FILL       f(fp + x) reads the spilled pointer back whole (the twin: 1, 2 or 4 bytes of
 *   FR_FILL_CB    it; "invalid size of register fill": the kernel reads a spilled pointer
 *                 back only whole, in a caller's frame too)
 *   FR_ATOMIC     f(fp + x) adds k into it in 8 bytes (the twin: in 4, at +0 or +4; the atomic
 *                 reads first, a fill)
 *   FR_STACK_PTR  f spills its r10 into its own frame and stores k into *(fp + x) (the twin:
 *                 its r10 into *(fp + x), "cannot spill pointers to stack into stack frame of
 *                 the caller")
 *   FR_STORE      main puts a byte of the packet at x, then f(fp + x, k), k in [0, 7], stores
 *                 k there in its first block (call_must_store), and main reads the byte at
 *                 fp + x - 8 + k (8 zeroed bytes) through it (the twin: f stores only when
 *                 bpf_get_prandom_u32 is not 0, so the cell may still hold the packet's byte,
 *                 up to 255: past the frame's top for the kernel; the runs that do not store
 *                 read up there, and may trap)
 *
 * No run of the other twins traps: only the kernel (and a verdict that models it) tells them
 * from their safe forms: GEN_PROG_FRAME_RULE_UNSAFE.  r0-r5 clobbered. */
enum { FR_FILL = 1, FR_FILL_CB, FR_ATOMIC, FR_STACK_PTR, FR_STORE };

void gi_frame_rules_call(struct gi *g, bool bad)
{
	unsigned form = 1 + gen_pick(g->src, 5);
	bool cb = form == FR_FILL_CB || (form == FR_STACK_PTR && gen_bool(g->src, 50));
	int s = gi_sub_new(g, SUBK_CALLBACK, cb || form == FR_STORE ? 2 : 1);
	int16_t x = (int16_t)(-72 - 8 * (int32_t)gen_pick(g->src, 18));
	unsigned sz = gen_pick(g->src, 3);
	struct gi_sub *f;

	if (s < 0)
		return;
	f = &g->subs[s];
	f->called = true;
	f->frame_rule = (uint8_t)form;
	f->frame_bad = bad;
	f->frame_cb = cb;
	f->frame_size = form == FR_ATOMIC ? 2 : (uint8_t)sz;
	f->frame_at = (int16_t)((1 << f->frame_size) *
				(int)gen_pick(g->src, 8u >> f->frame_size));
	f->frame_k = (int32_t)gen_pick(g->src, form == FR_STORE ? 8 : 100);
	f->cb_nr = cb ? gen_u32(g->src, 1, 3) : 1;
	f->cb_steps = 16;
	if (form <= FR_ATOMIC) {	/* the pointer spilled at x */
		gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DATA);
		gi_stx(g, BPF_DW, EBPF_REG_FP, x, BPF_REG_1);
	}
	if (form == FR_STORE) {	/* x = a byte of the packet, 8 zeroed bytes below it */
		gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DATA);
		gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_1, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
		gi_stx(g, BPF_DW, EBPF_REG_FP, x, BPF_REG_1);
		gi_st(g, BPF_DW, EBPF_REG_FP, (int16_t)(x - 8), 0);
	}
	if (cb) {
		gi_mov_const(g, BPF_REG_1, f->cb_nr, true);
		gi_ld_func(g, BPF_REG_2, f->label);
		gi_alux(g, true, BPF_MOV, BPF_REG_3, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_3, x);
		gi_mov_const(g, BPF_REG_4, 0, true);
		gi_call_helper(g, BPF_FUNC_loop);
		g->p->shapes |= GEN_SH(BPF_LOOP) | GEN_SH(HELPER);
	} else {
		gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_1, x);
		if (form == FR_STORE)
			gi_mov_const(g, BPF_REG_2, (uint64_t)f->frame_k, true);
		gi_call_sub(g, f->label);
		g->sub_called = true;
		g->p->shapes |= GEN_SH(SUBPROG);
	}
	if (form == FR_STORE) {	/* r0 = fp[x - 8 + *(fp + x)] */
		gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, x);
		gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_2, x - 8);
		gi_alux(g, true, BPF_ADD, BPF_REG_2, BPF_REG_1);
		gi_ldx(g, BPF_B, BPF_REG_0, BPF_REG_2, 0);
	}
	g->p->shapes |= GEN_SH(CALL_PTR);
	if (bad)
		g->p->flags |= GEN_PROG_FRAME_RULE_UNSAFE;
}

void gi_emit_frame_rule(struct gi *g, struct gi_sub *s)
{
	static const uint8_t sizes[] = { BPF_B, BPF_H, BPF_W, BPF_DW };
	/* (the pointer into the caller's frame: r1 of a callee, r2 of a bpf_loop callback) */
	int p = s->frame_cb ? BPF_REG_2 : BPF_REG_1, skip = gi_label(g);
	uint8_t size = s->frame_bad ? sizes[s->frame_size] : BPF_DW;
	int16_t at = s->frame_bad ? s->frame_at : 0;
	uint32_t start = g->len;

	gi_bind(g, s->label);
	switch (s->frame_rule) {
	case FR_FILL:
	case FR_FILL_CB:
		gi_ldx(g, size, BPF_REG_3, p, at);
		break;
	case FR_ATOMIC:
		gi_mov_const(g, BPF_REG_3, (uint64_t)s->frame_k, true);
		gi_emit(g, (struct bpf_insn){ .code = BPF_STX | BPF_ATOMIC | size, .dst_reg = p,
					      .src_reg = BPF_REG_3, .off = at, .imm = BPF_ADD });
		break;
	case FR_STACK_PTR:
		if (s->frame_bad) {
			gi_stx(g, BPF_DW, p, 0, EBPF_REG_FP);
			break;
		}
		gi_stx(g, BPF_DW, EBPF_REG_FP, -8, EBPF_REG_FP);
		gi_st(g, BPF_DW, p, 0, s->frame_k);
		break;
	default:		/* FR_STORE: *r1 = r2, surely or when a random number is not 0 */
		if (s->frame_bad) {
			gi_alux(g, true, BPF_MOV, BPF_REG_6, BPF_REG_1);
			gi_alux(g, true, BPF_MOV, BPF_REG_7, BPF_REG_2);
			gi_call_helper(g, BPF_FUNC_get_prandom_u32);
			gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, skip);
			gi_stx(g, BPF_DW, BPF_REG_6, 0, BPF_REG_7);
		} else {
			gi_stx(g, BPF_DW, BPF_REG_1, 0, BPF_REG_2);
		}
		break;
	}
	gi_bind(g, skip);
	gi_mov_const(g, BPF_REG_0, 0, true);
	gi_exit(g);
	s->cb_steps = g->len - start;
}

/* ---- what was emitted ---- */

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	if (a && b > UINT64_MAX / a)
		return UINT64_MAX;
	return a * b;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Header executions bound every instruction of a loop's body per entry, so the product of
 * trip_max over the loops around an instruction bounds its executions per call of its
 * function. */
static uint64_t mult_at(const struct gen_program *p, size_t pc)
{
	uint64_t m = 1;

	for (size_t i = 0; i < p->nloops; i++)
		if (p->loops[i].first <= pc && pc <= p->loops[i].last)
			m = mul_sat(m, p->loops[i].trip_max);
	return m;
}

static int func_at(const struct gen_program *p, uint32_t pc)
{
	for (size_t i = 0; i < p->nfuncs; i++)
		if (p->funcs[i].pc <= pc && pc < p->funcs[i].end)
			return (int)i;
	return -1;
}

static int call_target(const struct gen_program *p, uint32_t pc)
{
	return func_at(p, (uint32_t)((int64_t)pc + 1 + p->insns[pc].imm));
}

/* The kernel's stack depth of each function: the deepest offset from r10 it touches, whatever
 * way it is addressed: directly (r10 + off), or through a register holding r10 + c (copied and
 * moved by constants in one pass over the code, r0-r5 forgotten at calls): c + off when it is the
 * base of a load or store, c when it is an argument r1-r5 of a call (a helper, kfunc or
 * subprogram given a pointer into the frame: the kernel counts the slot the callee reaches). */
static void frames(struct gen_program *p, const struct gi *g, bool skip_pads)
{
	for (size_t f = 0; f < p->nfuncs; f++) {
		uint32_t d = 0;
		int64_t at[EBPF_NREGS];	/* r - r10 when r = r10 + that, else 1 */

		for (int r = 0; r < EBPF_NREGS; r++)
			at[r] = r == EBPF_REG_FP ? 0 : 1;
		for (uint32_t pc = p->funcs[f].pc; pc < p->funcs[f].end; pc++) {
			const struct bpf_insn *in = &p->insns[pc];
			uint8_t c = ebpf_class(in);
			int64_t lo = 1;
			bool pad = false;

			for (int s = 0; skip_pads && s < g->nsubs; s++) {
				const struct gi_sub *x = &g->subs[s];

				pad |= x->pad && x->called && x->pad_pc == pc;
			}
			if (c == BPF_LDX && in->src_reg < EBPF_NREGS && at[in->src_reg] <= 0)
				lo = at[in->src_reg] + in->off;
			else if ((c == BPF_STX || c == BPF_ST) && in->dst_reg < EBPF_NREGS &&
				 at[in->dst_reg] <= 0)
				lo = at[in->dst_reg] + in->off;
			else if (ebpf_is_call(in))
				for (int r = BPF_REG_1; r <= BPF_REG_5; r++)
					lo = at[r] < lo ? at[r] : lo;
			if (!pad && lo < 0 && (uint64_t)-lo > d)
				d = (uint32_t)-lo;
			if (ebpf_is_call(in))
				for (int r = BPF_REG_0; r <= BPF_REG_5; r++)
					at[r] = 1;
			else if (in->dst_reg >= EBPF_REG_FP || !(ebpf_is_alu(in) || c == BPF_LDX ||
								c == BPF_LD))
				continue;
			else if (in->code == (BPF_ALU64 | BPF_MOV | BPF_X) && in->src_reg < EBPF_NREGS)
				at[in->dst_reg] = at[in->src_reg];
			else if ((in->code == (BPF_ALU64 | BPF_ADD | BPF_K) ||
				  in->code == (BPF_ALU64 | BPF_SUB | BPF_K)) && at[in->dst_reg] <= 0)
				at[in->dst_reg] += ebpf_op(in) == BPF_ADD ? in->imm : -(int64_t)in->imm;
			else
				at[in->dst_reg] = 1;
		}
		p->funcs[f].frame = (uint16_t)d;
	}
}

/* The big-frame chain: deepen each link's pad so that the rounded frames of main and the links
 * add up to the target, a granule or more at a time, sometimes 8 bytes short of a granule (the
 * same rounded total from a smaller raw one). */
static void place_pads(struct gi *g, struct gen_program *p)
{
	uint32_t base, slack, want[GI_MAX_SUBS] = { 0 };
	int chain[GI_MAX_SUBS], n = 0;

	for (int s = g->main_tail; s >= 0 && n < GI_MAX_SUBS; s = g->subs[s].next) {
		if (!g->subs[s].pad || !g->subs[s].called)
			return;
		chain[n++] = s;
	}
	if (!n)
		return;
	frames(p, g, true);
	base = gen_frame_round(p->funcs[0].frame);
	for (int i = 0; i < n; i++) {
		int f = func_at(p, (uint32_t)g->label_pc[g->subs[chain[i]].label]);
		uint32_t own = f >= 0 ? gen_frame_round(p->funcs[f].frame) : 0;

		want[i] = own < 16 ? 16 : own;
		base += want[i];
	}
	slack = g->stack_target > base ? g->stack_target - base : 0;
	for (uint32_t gr = 0; gr < slack / 16; gr++)
		want[gen_pick(g->src, (uint32_t)n)] += 16;
	for (int i = 0; i < n; i++) {
		uint32_t raw = want[i] - (gen_bool(g->src, 40) ? 8 : 0);

		if (raw > GEN_MAX_STACK)
			raw = GEN_MAX_STACK;
		p->insns[g->subs[chain[i]].pad_pc].off = (int16_t)-(int32_t)raw;
	}
}

struct walk {
	const struct gen_program *p;
	const struct gi *g;
	uint16_t edges[GEN_MAX_FUNCS];	/* bit t: function f calls t */
	int sub_of[GEN_MAX_FUNCS];	/* plan entry of function f, -1 for main */
	uint32_t frames, stack;
	bool unbounded;
};

/* Every chain of frames from function f on, the counter passed down by bounded recursion cut
 * where the guard would; deeper than GEN_MAX_FRAMES + 1 means unbounded. */
static void walk(struct walk *w, int f, uint32_t frames, uint32_t stack, uint32_t cnt)
{
	const struct gi_sub *s = w->sub_of[f] >= 0 ? &w->g->subs[w->sub_of[f]] : NULL;

	frames++;
	stack += gen_frame_round(w->p->funcs[f].frame);
	if (frames > GEN_MAX_FRAMES + 1) {
		w->unbounded = true;
		return;
	}
	if (frames > w->frames)
		w->frames = frames;
	if (stack > w->stack)
		w->stack = stack;
	for (int t = 0; t < (int)w->p->nfuncs; t++) {
		bool next;

		if (!((w->edges[f] >> t) & 1))
			continue;
		next = s && s->next >= 0 && w->sub_of[t] == s->next;
		if (next && s->bounded) {
			if (cnt)
				walk(w, t, frames, stack, cnt - 1);
		} else {
			walk(w, t, frames, stack, cnt);
		}
		if (w->unbounded)
			return;
	}
}

/* p_iter_deep: the iterators' slots (and f's store), so that each is the deepest of its frame
 * and main's frame and f's, rounded, plus whatever else runs below main beside f, come to the
 * target; main's a granule or more at a time, each sometimes 8 bytes short of its granule (the
 * same rounded total from a smaller raw one).  f is a leaf main calls once. */
static void place_iter_deep(struct gi *g, struct gen_program *p, const struct walk *w0)
{
	struct gi_sub *s = &g->subs[g->iter_deep_sub];
	int f = func_at(p, (uint32_t)g->label_pc[s->label]);
	uint32_t target = g->iter_deep_target, m0, other, rm, rf, dm, ef;
	struct walk w = *w0;

	if (f < 1)
		return;
	frames(p, g, false);
	m0 = p->funcs[0].frame;	/* (with the placeholders at fp-8) */
	/* the largest stack below main on a chain without f */
	p->funcs[0].frame = p->funcs[f].frame = 0;
	w.frames = w.stack = 0;
	w.unbounded = false;
	walk(&w, 0, 0, 0, g->tail_arg);
	other = w.unbounded ? 0 : w.stack;
	if (g->iter_deep_main) {
		rf = 16 * gen_u32(g->src, 1, 8);
		rm = target - (rf > other ? rf : other);
		if (rm > target || rm < gen_frame_round(m0 + 8))
			rm = gen_frame_round(m0 + 8);
		if (rm > GEN_MAX_STACK)
			rm = GEN_MAX_STACK;
		rf = target >= rm + 16 ? target - rm : 16;
		dm = rm - (rm >= m0 + 16 && gen_bool(g->src, 40) ? 8 : 0);
		for (int k = 0; k < 3; k++)
			p->insns[g->iter_deep_pc[k]].imm = -(int32_t)dm;
	} else {
		rm = gen_frame_round(m0);
		rf = target >= rm + 16 ? target - rm : 16;
	}
	if (rf > GEN_MAX_STACK)
		rf = GEN_MAX_STACK;
	ef = rf - (gen_bool(g->src, 40) ? 8 : 0);
	if (s->iter_deep == 2)
		p->insns[s->deep_pc[0]].off = -(int16_t)ef;
	else
		for (int k = 0; k < 3; k++)
			p->insns[s->deep_pc[k]].imm = -(int32_t)ef;
}

/* Steps of one call of function f running at call depth d (0 = main); a call from depth
 * GEN_MAX_FRAMES - 1 traps instead of running its callee. */
static uint64_t fn_steps(const struct gen_program *p, int f, int d,
			 uint64_t memo[GEN_MAX_FUNCS][GEN_MAX_FRAMES])
{
	uint64_t total = 0;

	if (memo[f][d])
		return memo[f][d];
	for (uint32_t pc = p->funcs[f].pc; pc < p->funcs[f].end; pc++) {
		uint64_t m = mult_at(p, pc);
		int t;

		total = add_sat(total, m);
		if (ebpf_is_pseudo_call(&p->insns[pc]) && d + 1 < GEN_MAX_FRAMES &&
		    (t = call_target(p, pc)) >= 0)
			total = add_sat(total, mul_sat(m, fn_steps(p, t, d + 1, memo)));
	}
	memo[f][d] = total;
	return total;
}

void gi_calls_finish(struct gi *g)
{
	struct gen_program *p = g->p;
	uint64_t memo[GEN_MAX_FUNCS][GEN_MAX_FRAMES] = { { 0 } };
	struct walk w = { .p = p, .g = g };

	/* Functions: main, then the called subprograms in the order they were emitted. */
	p->nfuncs = 1;
	p->funcs[0] = (struct gen_func){ .pc = 0, .nargs = 1, .ptr_arg = -1 };
	w.sub_of[0] = -1;
	for (int s = 0; s < g->nsubs; s++) {
		if (!g->subs[s].called)
			continue;
		w.sub_of[p->nfuncs] = s;
		p->funcs[p->nfuncs++] = (struct gen_func){
			.pc = (uint32_t)g->label_pc[g->subs[s].label], .nargs = g->subs[s].nargs,
			.ptr_arg = g->subs[s].ptr_arg };
	}
	for (size_t f = 0; f < p->nfuncs; f++)
		p->funcs[f].end = f + 1 < p->nfuncs ? p->funcs[f + 1].pc : (uint32_t)p->len;
	p->nglobals = 0;
	for (size_t f = 1; f < p->nfuncs; f++)
		if (g->subs[w.sub_of[f]].throw_sub == 2 || g->subs[w.sub_of[f]].throw_sub == 3) {
			/* (p_throw's exception callback: cb(u64)) */
			struct ebpf_global_func *gf = &p->globals[p->nglobals++];

			*gf = (struct ebpf_global_func){ .insn = p->funcs[f].pc, .nargs = 1,
							 .ret = EBPF_FARG_INT, .exc_cb = true };
			snprintf(gf->name, sizeof(gf->name), "cb%zu", f);
			gf->args[0] = (struct ebpf_func_arg){ .kind = EBPF_FARG_INT, .size = 8 };
		} else if (g->subs[w.sub_of[f]].global) {
			struct ebpf_global_func *gf = &p->globals[p->nglobals++];

			*gf = (struct ebpf_global_func){ .insn = p->funcs[f].pc, .nargs = 2,
							 .ret = EBPF_FARG_INT };
			snprintf(gf->name, sizeof(gf->name), "g%zu", f);
			gf->args[0] = (struct ebpf_func_arg){ .kind = EBPF_FARG_PTR, .size = 8 };
			gf->args[1] = (struct ebpf_func_arg){ .kind = EBPF_FARG_INT, .size = 8 };
			if (g->subs[w.sub_of[f]].dp_sub)	/* (p_dynptr_global) */
				gi_dynptr_global_proto(gf);
		}
	p->subprog = p->nfuncs > 1 ? (int32_t)p->funcs[1].pc : -1;

	/* The call graph as emitted. */
	for (uint32_t pc = 0; pc < p->len; pc++) {
		int t;

		/* (a callback runs in a frame below the one taking its address) */
		if ((ebpf_is_pseudo_call(&p->insns[pc]) ||
		     (ebpf_is_ldimm64(&p->insns[pc]) && p->insns[pc].src_reg == BPF_PSEUDO_FUNC)) &&
		    (t = call_target(p, pc)) >= 0)
			w.edges[func_at(p, pc)] |= (uint16_t)(1u << t);
	}
	if (g->big_frame)
		place_pads(g, p);
	if (g->iter_deep)
		place_iter_deep(g, p, &w);
	frames(p, g, false);
	/* (p_fastcall's f: the kernel removes its pattern with the stack: gen_fastcall.c) */
	for (size_t f = 1; f < p->nfuncs; f++)
		if (w.sub_of[f] >= 0 && g->subs[w.sub_of[f]].fastcall == 1)
			p->funcs[f].frame = 0;
	/* walked from main */
	walk(&w, 0, 0, 0, g->tail_arg);
	p->call_shape = p->nfuncs > 1 ? GEN_CALLS_CHAIN : GEN_CALLS_NONE;
	if (g->call_shape != GEN_CALLS_NONE)
		p->call_shape = g->call_shape;
	p->rec_cycle = g->call_shape >= GEN_CALLS_REC_DIRECT ? g->rec_cycle : 0;
	p->max_frames = w.unbounded ? GEN_UNBOUNDED : w.frames;
	p->max_stack = w.unbounded ? GEN_UNBOUNDED : w.stack;
	if (p->max_frames > GEN_MAX_FRAMES || p->max_stack > GEN_MAX_STACK)
		p->flags |= GEN_PROG_CALL_TRAP;
	if (p->rec_cycle || p->max_frames > GEN_MAX_FRAMES || p->max_stack > GEN_MAX_STACK)
		p->flags |= GEN_PROG_CALLS_UNSAFE;
	if (!w.unbounded && p->max_frames > GEN_MAX_FRAMES)
		p->shapes |= GEN_SH(CALL_TOO_DEEP);
	if (!w.unbounded && p->max_stack > GEN_MAX_STACK)
		p->shapes |= GEN_SH(STACK_OVER);

	p->max_steps = add_sat(fn_steps(p, 0, 0, memo), g->may_goto_steps);
	/* open-coded iterator loops (main's only): their instructions per run, times the loops
	 * around them */
	for (int k = 0; k < g->niters; k++)
		p->max_steps = add_sat(p->max_steps,
				       mul_sat(mult_at(p, (size_t)g->label_pc[g->iter_label[k]]),
					       g->iter_steps[k]));
	/* bpf_loop callbacks (main's only): nr calls per bpf_loop, each at most cb_steps */
	for (uint32_t pc = 0; pc < p->funcs[0].end; pc++) {
		int t;

		if (!ebpf_is_ldimm64(&p->insns[pc]) || p->insns[pc].src_reg != BPF_PSEUDO_FUNC ||
		    (t = call_target(p, pc)) < 1 || w.sub_of[t] < 0)
			continue;
		p->max_steps = add_sat(p->max_steps,
				       mul_sat(mult_at(p, pc),
					       mul_sat(g->subs[w.sub_of[t]].cb_nr,
						       g->subs[w.sub_of[t]].cb_steps)));
	}
}

const char *gen_call_shape_name(unsigned shape)
{
	static const char *const names[] = { "none", "chain", "recursive-direct",
					      "recursive-mutual", "recursive-bounded" };

	return shape < sizeof(names) / sizeof(names[0]) ? names[shape] : "?";
}
