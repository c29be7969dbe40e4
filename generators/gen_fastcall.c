/* p_fastcall and its unsafe twin p_fastcall_bad: a statement of main's top level stores its
 * accumulator at fp-512 (main's frame, 512 bytes deep) and calls f(acc), a static function
 * whose only stack use is a bpf_fastcall pattern: `*(u64 *)(r10 -8) = r1; call
 * bpf_get_smp_processor_id; r1 = *(u64 *)(r10 -8)`, then r0 = r1 (the accumulator back).  The
 * kernel (tc, xdp, tracing types) inlines the helper and removes the pattern with its stack, so
 * the combined stack is 512 + 0; the twin also stores r1's low half at fp-16, below the
 * pattern, which keeps it and its stack (check_fastcall_stack_contract): 512 + 16, refused
 * (GEN_PROG_FASTCALL_UNSAFE; its runs may stop at the interpreter's 512 bytes:
 * GEN_PROG_CALL_TRAP).  A program whose other functions take stack too, or a type whose helper
 * is the raw one (socket filters), is refused either way: the kernel's word, not a twin's.
 */
#include "generators/gen_internal.h"

void gi_stmt_fastcall(struct gi *g)
{
	const struct gen_knobs *k = g->k;
	bool twin = k->p_fastcall_bad && (!k->p_fastcall || gen_bool(g->src, 50));
	int s, acc = g->fn->acc, r = BPF_REG_1;

	/* (a socket type's bpf_get_smp_processor_id is the raw helper, not inlined) */
	if (g->fn->sub || g->sk_prog || (s = gi_sub_new(g, SUBK_CALLBACK, 1)) < 0)
		return;
	g->subs[s].called = true;
	g->subs[s].fastcall = twin ? 2 : 1;
	gi_spill_caller_homes(g);
	if (g->vars[acc].reg >= 1 && g->vars[acc].reg <= 5)
		gi_ldx(g, BPF_DW, r, EBPF_REG_FP, g->vars[acc].slot);
	else
		gi_var_to_reg(g, acc, r);
	gi_stx(g, BPF_DW, EBPF_REG_FP, -EBPF_STACK_SIZE, r);
	gi_call_sub(g, g->subs[s].label);
	gi_fill_caller_homes(g);
	g->scratch_busy = 1u << BPF_REG_0;
	gi_var_alux(g, acc, BPF_XOR, BPF_REG_0);
	gi_scratch_release(g);
	if (twin)
		g->p->flags |= GEN_PROG_FASTCALL_UNSAFE | GEN_PROG_CALL_TRAP;
}

void gi_emit_fastcall(struct gi *g, struct gi_sub *s)
{
	gi_bind(g, s->label);
	gi_stx(g, BPF_DW, EBPF_REG_FP, -8, BPF_REG_1);
	gi_call_helper(g, BPF_FUNC_get_smp_processor_id);
	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, -8);
	if (s->fastcall == 2)
		gi_stx(g, BPF_W, EBPF_REG_FP, -16, BPF_REG_1);
	gi_alux(g, true, BPF_MOV, BPF_REG_0, BPF_REG_1);
	gi_exit(g);
}
