/* One callback, two call contexts (issue 15): p_cb_two_ctx and its unsafe twin p_cb_two_ctx_bad,
 * a piece of the prologue.
 *
 * The kernel verifies a callback once per call of its helper, with that call's state; bpfscev
 * analyses it per distinct call context (scev/absint_callbacks.c: absint_cb_plan, cb_view).  The
 * piece calls one callback from two calls of one helper, bpf_loop(nr, cb, ctx, 0) (nr in 1..4)
 * or, a third of the time, bpf_for_each_map_elem(map 0, cb, ctx, 0) (not with p_map_hash, whose
 * elements may be fewer than one), the callback's address loaded into r2, or (ctx at an odd
 * multiple of 8) into r5 and copied to r2, ctx a pointer into main's frame, the struct
 * { u64 *p; ... ; u64 out at +16 } it points to:
 *
 *     *(u64 *)(fp + x + 32) = c                   c in [0, 99]: the number p points to
 *     *(u64 *)(fp + x) = fp + x + 32              A.p: a pointer into main's frame
 *     *(u64 *)(fp + x + 16) = 0; *(u64 *)(fp + x + 24) = 0
 *     form 0, two cells:  *(u64 *)(fp + x + 8) = 0 (B.p NULL); call(&A); call(&B)
 *     form 1, one cell:   call(&A); *(u64 *)(fp + x) = 0; call(&A)
 *
 *     cb(..., ctx): r1 = ctx->p; if (r1 == 0) goto out; ctx->out = *r1; out: return 0
 *
 * (A at fp + x, B at fp + x + 8, their out fields at + 16: the writes' span [x + 16, x + 32)
 * covers neither p, which the callbacks read.)  x in [-216, -72]: main's variable homes, which
 * hold nothing yet in the prologue and are written before they are read later.  Every call
 * gets a context the callback is safe in; joined, the two (a pointer and NULL in two cells, or
 * one cell holding a pointer at one call and NULL at the other) are "a pointer or NULL, or
 * unknown", and the analysis of the callback once over their join called the program unsafe
 * ("R1 is not a known pointer").
 *
 * The twins (GEN_PROG_CB_CTX_UNSAFE) drop the NULL check.  Kind 1: the call whose context
 * holds NULL loads through it on every run.  Kind 2: both calls' contexts hold the pointer
 * (form 1 stores it again between them), and the callback sets its own p to NULL after the
 * load (ctx->p = 0): the first call's second iteration (nr1 >= 2; for_each walks all
 * GEN_MAP_ENTRIES values) loads through NULL, a context only what the callback writes back
 * makes (which an analysis per call must not lose).  Every run traps (INTERP_TRAP_MEM), and the
 * kernel refuses both ("invalid mem access 'scalar'").  r0-r5 clobbered.
 */
#include "generators/gen_internal.h"

#include "bpf/isa.h"

static void cbctx_helper_call(struct gi *g, const struct gi_sub *f, bool each, uint32_t nr,
			      int16_t ctx)
{
	if (each)
		gi_ld_map(g, BPF_REG_1, 0);
	else
		gi_mov_const(g, BPF_REG_1, nr, true);
	/* (a ctx in an odd slot: the address copied to r2 from r5, clang's `r2 = r8` of
	 * verifier_subprog_precision; drawn from nothing new: every seed draws what it drew) */
	if (ctx / 8 & 1) {
		gi_ld_func(g, BPF_REG_5, f->label);
		gi_alux(g, true, BPF_MOV, BPF_REG_2, BPF_REG_5);
	} else {
		gi_ld_func(g, BPF_REG_2, f->label);
	}
	gi_alux(g, true, BPF_MOV, BPF_REG_3, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_3, ctx);
	gi_mov_const(g, BPF_REG_4, 0, true);
	gi_call_helper(g, each ? BPF_FUNC_for_each_map_elem : BPF_FUNC_loop);
}

void gi_cb_two_ctx_call(struct gi *g, bool bad)
{
	int s = gi_sub_new(g, SUBK_CALLBACK, 2);
	bool each = !g->hash_piece && gen_pick(g->src, 3) == 0;
	unsigned form = gen_pick(g->src, 2), kind = bad ? 1 + gen_pick(g->src, 2) : 0;
	uint32_t nr1 = gen_u32(g->src, kind == 2 ? 2 : 1, 4), nr2 = gen_u32(g->src, 1, 4);
	int16_t x = (int16_t)(-72 - 8 * (int32_t)gen_pick(g->src, 19));
	struct gi_sub *f;

	if (s < 0)
		return;
	f = &g->subs[s];
	f->called = true;
	f->cb_two_ctx = (uint8_t)(1 + kind);
	f->cb_two_each = each;
	f->cb_nr = each ? GEN_MAP_ENTRIES : (nr1 > nr2 ? nr1 : nr2);
	f->cb_steps = 16;
	g->use_map = g->use_map || each;
	gi_st(g, BPF_DW, EBPF_REG_FP, (int16_t)(x + 32), (int32_t)gen_pick(g->src, 100));
	gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, x + 32);
	gi_stx(g, BPF_DW, EBPF_REG_FP, x, BPF_REG_1);
	gi_st(g, BPF_DW, EBPF_REG_FP, (int16_t)(x + 16), 0);
	gi_st(g, BPF_DW, EBPF_REG_FP, (int16_t)(x + 24), 0);
	if (form == 0) {
		if (kind == 2)
			gi_stx(g, BPF_DW, EBPF_REG_FP, (int16_t)(x + 8), BPF_REG_1);
		else
			gi_st(g, BPF_DW, EBPF_REG_FP, (int16_t)(x + 8), 0);
		cbctx_helper_call(g, f, each, nr1, x);
		cbctx_helper_call(g, f, each, nr2, (int16_t)(x + 8));
	} else {
		cbctx_helper_call(g, f, each, nr1, x);
		if (kind == 2) {
			gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
			gi_alu(g, true, BPF_ADD, BPF_REG_1, x + 32);
			gi_stx(g, BPF_DW, EBPF_REG_FP, x, BPF_REG_1);
		} else {
			gi_st(g, BPF_DW, EBPF_REG_FP, x, 0);
		}
		cbctx_helper_call(g, f, each, nr2, x);
	}
	g->p->shapes |= GEN_SH(BPF_LOOP) | GEN_SH(CALL_PTR) | GEN_SH(HELPER);
	if (bad)
		g->p->flags |= GEN_PROG_CB_CTX_UNSAFE;
}

void gi_emit_cb_two_ctx(struct gi *g, struct gi_sub *s)
{
	int l_out = gi_label(g), ctx = s->cb_two_each ? BPF_REG_4 : BPF_REG_2;
	uint32_t start = g->len;

	gi_bind(g, s->label);
	gi_ldx(g, BPF_DW, BPF_REG_1, ctx, 0);
	if (s->cb_two_ctx == 1)
		gi_jmp(g, false, BPF_JEQ, BPF_REG_1, 0, l_out);
	gi_ldx(g, BPF_DW, BPF_REG_3, BPF_REG_1, 0);
	gi_stx(g, BPF_DW, ctx, 16, BPF_REG_3);
	if (s->cb_two_ctx == 3)
		gi_st(g, BPF_DW, ctx, 0, 0);
	gi_bind(g, l_out);
	gi_mov_const(g, BPF_REG_0, 0, true);
	gi_exit(g);
	s->cb_steps = g->len - start;
}
