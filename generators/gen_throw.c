/* BPF exceptions (issue 15): p_throw and its unsafe twin p_throw_bad, a call piece of the
 * prologue (r0-r5 clobbered).  bpf_throw(cookie) ends the run on a data-dependent path: the
 * program's result is then the cookie, or the exception callback's result (a global function
 * ".global cbN int:8 exception_cb" at the end of the program, half the time) for the cookie:
 *
 *     r1 = *(u8 *)(data + b)
 *     form 0: if (r1 != K) goto skip; r1 = cookie; call bpf_throw; skip:     main throws
 *     form 1: call f                                                         a static f(x) throws
 *             f: if (r1 != K) goto ret; r1 = cookie; call bpf_throw; ret: r0 = 0; exit
 *     cb(c): r0 = c; r0 &= 0xff (or r0 += 1); exit
 *
 * K in [0, 3], against the input byte b's low two bits (r1 &= 3), so a quarter of the inputs
 * throw; cookie a number up to 2^40.  The twins (GEN_PROG_THROW_UNSAFE), each refused by 6.18:
 * twin 0 throws in a bpf_loop callback ("cannot be called from callback subprog"); twin 1's
 * cookie is r10 without a callback ("R1 is not a scalar", a pointer leaked as the result); twin 2
 * throws with an iterator live (bpf_iter_num_new on one of main's variable homes in fp-208 ..
 * fp-32, which hold nothing yet in the prologue: "bpf_throw would lead to reference leak"; a
 * run that throws traps, INTERP_TRAP_HELPER); twin 3 throws inside a loop counting in such a
 * home (6.18: "verifier bug: scc exit", which bpfscev declines: unsupported).  No run of
 * twins 0, 1 and 3 traps.  Kfuncs are called from XDP programs only here (the generic kfuncs'
 * set; raw tracepoints and the socket programs' prologues get no piece), and only with vmlinux
 * BTF.
 */
#include "generators/gen_internal.h"

#include "bpf/isa.h"

enum { TW_CB, TW_PTR, TW_ITER, TW_LOOP, TW__N };

static void call_throw(struct gi *g)
{
	gi_emit(g, (struct bpf_insn){ .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_KFUNC_CALL,
				      .imm = ebpf_kfunc_by_name("bpf_throw") });
}

/* if (r1 != k) goto skip; r1 = cookie (r10 for the twin); call bpf_throw; skip: */
static void throw_if(struct gi *g, int32_t k, uint64_t cookie, bool ptr)
{
	int skip = gi_label(g);

	gi_jmp(g, false, BPF_JNE, BPF_REG_1, k, skip);
	if (ptr)
		gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
	else
		gi_mov_const(g, BPF_REG_1, cookie, true);
	call_throw(g);
	gi_bind(g, skip);
}

void gi_throw(struct gi *g, bool bad)
{
	unsigned tw = bad ? gen_pick(g->src, TW__N) : UINT32_MAX, form = gen_pick(g->src, 2);
	int32_t k = (int32_t)gen_pick(g->src, 4);
	uint64_t cookie = gen_pick(g->src, 2) ? gen_pick(g->src, 256)
					      : (uint64_t)gen_u32(g->src, 0, UINT32_MAX) << 8;
	uint32_t b = gen_pick(g->src, GEN_INPUT_LEN);
	int s;

	if (g->raw_tp || g->sk_prog || ebpf_kfunc_by_name("bpf_throw") <= 0)
		return;
	/* the exception callback, when there is one: never called (its global prototype) */
	if (tw != TW_PTR && gen_pick(g->src, 2) && (s = gi_sub_new(g, SUBK_CALLBACK, 1)) >= 0) {
		g->subs[s].called = true;
		g->subs[s].throw_sub = (uint8_t)(2 + gen_pick(g->src, 2));
	}
	gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_2, (int16_t)b);
	gi_alu(g, true, BPF_AND, BPF_REG_1, 3);
	g->p->shapes |= GEN_SH(HELPER);
	if (bad)
		g->p->flags |= GEN_PROG_THROW_UNSAFE;
	if (tw == TW_CB) {
		if ((s = gi_sub_new(g, SUBK_CALLBACK, 2)) < 0)
			return;
		g->subs[s].called = true;
		g->subs[s].throw_sub = 1;
		g->subs[s].throw_k = k;
		gi_mov_const(g, BPF_REG_1, 4, true);
		gi_ld_func(g, BPF_REG_2, g->subs[s].label);
		gi_mov_const(g, BPF_REG_3, 0, true);
		gi_mov_const(g, BPF_REG_4, 0, true);
		gi_call_helper(g, BPF_FUNC_loop);
		g->p->shapes |= GEN_SH(SUBPROG);
		return;
	}
	if (tw == TW_ITER) {
		int16_t at = (int16_t)(-32 - 8 * (int32_t)gen_pick(g->src, 23));

		gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_1, at);
		gi_mov_const(g, BPF_REG_2, 0, true);
		gi_mov_const(g, BPF_REG_3, 3, true);
		gi_emit(g, (struct bpf_insn){ .code = BPF_JMP | BPF_CALL,
					      .src_reg = BPF_PSEUDO_KFUNC_CALL,
					      .imm = ebpf_kfunc_by_name("bpf_iter_num_new") });
		/* (the byte again) */
		gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA);
		gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_2, (int16_t)b);
		gi_alu(g, true, BPF_AND, BPF_REG_1, 3);
		throw_if(g, k, cookie, false);
		gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_1, at);
		gi_emit(g, (struct bpf_insn){ .code = BPF_JMP | BPF_CALL,
					      .src_reg = BPF_PSEUDO_KFUNC_CALL,
					      .imm = ebpf_kfunc_by_name("bpf_iter_num_destroy") });
		return;
	}
	if (tw == TW_LOOP) {	/* a counter at fp + at counts 0 .. 3: the throw where it is r1 */
		int top = gi_label(g), skip = gi_label(g);
		int16_t at = (int16_t)(-32 - 8 * (int32_t)gen_pick(g->src, 23));

		gi_st(g, BPF_DW, EBPF_REG_FP, at, 0);
		gi_bind(g, top);	/* (everything from memory: the throw's fall-through, which
					 * the kernel's check_cfg takes, leaves r1-r5 unwritten) */
		gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA);
		gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_2, (int16_t)b);
		gi_alu(g, true, BPF_AND, BPF_REG_1, 3);
		gi_ldx(g, BPF_DW, BPF_REG_3, EBPF_REG_FP, at);
		gi_jmpx(g, false, BPF_JNE, BPF_REG_1, BPF_REG_3, skip);
		gi_mov_const(g, BPF_REG_1, cookie, true);
		call_throw(g);
		gi_bind(g, skip);
		gi_ldx(g, BPF_DW, BPF_REG_3, EBPF_REG_FP, at);
		gi_alu(g, true, BPF_ADD, BPF_REG_3, 1);
		gi_stx(g, BPF_DW, EBPF_REG_FP, at, BPF_REG_3);
		gi_jmp(g, false, BPF_JLT, BPF_REG_3, 4, top);
		return;
	}
	if (form == 1 && (s = gi_sub_new(g, SUBK_CALLBACK, 1)) >= 0) {
		g->subs[s].called = true;
		g->subs[s].throw_sub = 4 + (tw == TW_PTR);
		g->subs[s].throw_k = k;
		g->subs[s].throw_cookie = cookie;
		gi_call_sub(g, g->subs[s].label);
		g->p->shapes |= GEN_SH(SUBPROG);
		return;
	}
	throw_if(g, k, cookie, tw == TW_PTR);
}

/* The functions of the piece (gi_sub.throw_sub): 1 the bpf_loop callback throwing at index k,
 * 2 and 3 the exception callback (r0 = c & 0xff; r0 = c + 1), 4 f(x) throwing when x is k (5:
 * with r10 as the cookie). */
void gi_emit_throw_sub(struct gi *g, struct gi_sub *s)
{
	int ret = gi_label(g);

	gi_bind(g, s->label);
	switch (s->throw_sub) {
	case 2:
	case 3:
		gi_alux(g, true, BPF_MOV, BPF_REG_0, BPF_REG_1);
		if (s->throw_sub == 2)
			gi_alu(g, true, BPF_AND, BPF_REG_0, 0xff);
		else
			gi_alu(g, true, BPF_ADD, BPF_REG_0, 1);
		gi_exit(g);
		return;
	default:
		throw_if(g, s->throw_k, s->throw_sub == 1 ? 0 : s->throw_cookie, s->throw_sub == 5);
		gi_bind(g, ret);
		gi_mov_const(g, BPF_REG_0, 0, true);
		gi_exit(g);
	}
}
