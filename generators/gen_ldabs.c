/* p_ld_abs_sub and its unsafe twin p_ld_abs_sub_skip (session 29): a tc program whose statements
 * call a static function that uses LD_ABS / LD_IND.
 *
 * When a legacy packet load fails, the kernel's rewrite returns 0 from the function it is in
 * (net/core/filter.c bpf_gen_ld_abs: "r0 = 0; exit"), not from the program, and the verifier
 * walks that exit too (check_ld_abs): the caller goes on after the call with r0 = 0 and whatever
 * the function had not done yet.  bpfscev takes the load as an exit edge of its block (scev/
 * cfg.h ld_exit); the interpreter returns 0 from the function (oracle/exec/interp.c).  The
 * program is tc's (BPF_PROG_TYPE_SCHED_CLS) under raw_tp's rules (gen.c: plain loops reading
 * the input at constant offsets from the pointer spilled at GEN_FP_DATA, none of the network's
 * pieces).  The prologue spills the context at GEN_FP_DATA_END, tests GEN_INPUT_LEN bytes of
 * __sk_buff's data against data_end (else the short exit, r0 = 0) and spills data.  The
 * statement (a nest's, or in a loop):
 *
 *     *(u64 *)(fp + GEN_FP_VALUE) = 0
 *     r1 = ctx; r2 = fp + GEN_FP_VALUE; call f
 *     (form 0) r1 = *(u64 *)(fp + GEN_FP_VALUE); r1 = *(u32 *)(r1 + 0); r0 += r1
 *     acc += r0
 *
 *     f(ctx, p): r6 = r1; r7 = r2
 *                (form 0) *(u64 *)(r7 + 0) = r6       the context stored into main's frame
 *                (LD_IND: r8 = b) r0 = LD_ABS/LD_IND of 1, 2 or 4 bytes at o (+ b)
 *                r0 += 1; return r0
 *
 * form 0 stores before the load, so every return of f has stored and main's read through the
 * slot reads the context (skb->len); form 1 stores nothing and main uses the result only.  The
 * load's offset is anywhere in [0, GEN_INPUT_LEN + 16): past the packet the load fails and f
 * returns 0 early, which both forms allow.  The twin (GEN_PROG_LD_ABS_UNSAFE), right after the
 * prologue: form 0's call with the store after a load past the packet, which every run fails,
 * so f returns before storing and main's read through the slot's 0 traps (INTERP_TRAP_MEM);
 * the kernel refuses it ("R1 invalid mem access 'scalar'").
 */
#include "generators/gen_internal.h"

#include "bpf/isa.h"

/* The statement (bad: the twin's call in the prologue, before main's accumulator exists) */
static void ld_call(struct gi *g, struct gi_loop *lp, bool bad)
{
	int s = gi_sub_new(g, SUBK_CALLBACK, 2);
	static const uint8_t sizes[3] = { BPF_B, BPF_H, BPF_W };
	struct gi_sub *f;

	if (s < 0)
		return;
	f = &g->subs[s];
	f->called = true;
	f->ld_form = (uint8_t)(bad ? 3 : 1 + gen_pick(g->src, 2));
	f->ld_size = sizes[gen_pick(g->src, 3)];
	f->ld_ind = gen_bool(g->src, 50);
	f->ld_base = (uint8_t)(f->ld_ind ? gen_pick(g->src, 16) : 0);
	f->ld_off = (int16_t)(bad ? GEN_INPUT_LEN + gen_pick(g->src, 16)
				  : gen_pick(g->src, GEN_INPUT_LEN + 16));
	f->ld_off = (int16_t)(f->ld_off - f->ld_base);
	if (!bad)
		gi_spill_caller_homes(g);
	gi_st(g, BPF_DW, EBPF_REG_FP, GEN_FP_VALUE, 0);
	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DATA_END);
	gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_2, GEN_FP_VALUE);
	gi_call_sub(g, f->label);
	if (f->ld_form != 2) {
		gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_VALUE);
		gi_ldx(g, BPF_W, BPF_REG_1, BPF_REG_1, 0);
		gi_alux(g, true, BPF_ADD, BPF_REG_0, BPF_REG_1);
	}
	g->p->shapes |= GEN_SH(SUBPROG);
	if (bad) {
		g->p->flags |= GEN_PROG_LD_ABS_UNSAFE;
		return;
	}
	gi_fill_caller_homes(g);
	g->scratch_busy = 1u << BPF_REG_0;
	gi_var_alux(g, g->fn->acc, BPF_ADD, BPF_REG_0);
	gi_scratch_release(g);
	if (lp)
		lp->shapes |= GEN_SH(SUBPROG);
}

void gi_ld_prologue(struct gi *g, int l_short)
{
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_DATA_END, BPF_REG_1);
	gi_pkt_bounds(g, BPF_W, (int16_t)offsetof(struct __sk_buff, data),
		      (int16_t)offsetof(struct __sk_buff, data_end), l_short);
	gi_array_zero(g);
	if (g->sk_bad)
		ld_call(g, NULL, true);
}

void gi_ld_stmt(struct gi *g, struct gi_loop *lp)
{
	ld_call(g, lp, false);
}

void gi_emit_ld_sub(struct gi *g, struct gi_sub *s)
{
	uint8_t mode = s->ld_ind ? BPF_IND : BPF_ABS;

	gi_bind(g, s->label);
	gi_alux(g, true, BPF_MOV, BPF_REG_6, BPF_REG_1);
	gi_alux(g, true, BPF_MOV, BPF_REG_7, BPF_REG_2);
	if (s->ld_form == 1)
		gi_stx(g, BPF_DW, BPF_REG_7, 0, BPF_REG_6);
	if (s->ld_ind)
		gi_mov_const(g, BPF_REG_8, s->ld_base, true);
	gi_emit(g, (struct bpf_insn){ .code = (uint8_t)(BPF_LD | mode | s->ld_size),
				      .src_reg = (uint8_t)(s->ld_ind ? BPF_REG_8 : 0),
				      .imm = s->ld_off });
	if (s->ld_form == 3)
		gi_stx(g, BPF_DW, BPF_REG_7, 0, BPF_REG_6);
	gi_alu(g, true, BPF_ADD, BPF_REG_0, 1);
	gi_exit(g);
}
