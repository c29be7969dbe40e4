/* kfuncs of bpf/kfunc_table.c in a loop (issue 15): p_kfunc and its unsafe twin p_kfunc_bad, a
 * piece of an XDP program's prologue (r1 the context; r0-r5 clobbered, then r1 the context, r2
 * the checked data pointer and r3 data_end again for the pieces after it; r6, r7 and r9 are
 * free there):
 *
 *     r9 = r1; r6 = 0; r7 = 0
 *   top:
 *     r1 = r6; call bpf_task_from_pid          (KF_ACQUIRE | KF_RET_NULL, kernel/bpf/helpers.c's
 *     if r0 == 0 goto skip                      generic set, which XDP programs may call)
 *     r1 = r0; call bpf_task_release; r7 += 1
 *   skip:
 *     r6 += 1; if r6 < m goto top              m in [1, 4]: m iterations
 *
 * Each task is released in the iteration that acquired it.  The twin (GEN_PROG_KFUNC_UNSAFE),
 * one of: the release skipped in the last iteration (a leak: "Unreleased reference" at exit),
 * the task released twice ("R1 type=scalar"), released before its NULL test ("Possibly NULL
 * pointer passed to trusted arg0"), the pid a stack pointer ("R1 is not a scalar"), or the loop's
 * call bpf_cpumask_create and its release instead, which XDP programs may not call (the cpumask
 * set is registered for tracing, struct_ops and syscall programs: "calling kernel function
 * bpf_cpumask_create is not allowed").  The kernel refuses every twin; a run of the leak, the
 * second release or the unchecked release traps (INTERP_TRAP_REF) when the interpreter's
 * acquire gives a task (its helper data's byte even), the others no run can tell.  Without
 * vmlinux BTF naming the kfuncs, no piece.
 */
#include "generators/gen_internal.h"

#include "bpf/isa.h"

enum { KF_LEAK, KF_TWICE, KF_UNCHECKED, KF_PTR_PID, KF_TYPE, KF__TWINS };

static void call_kfunc(struct gi *g, const char *name)
{
	gi_emit(g, (struct bpf_insn){ .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_KFUNC_CALL,
				      .imm = ebpf_kfunc_by_name(name) });
}

void gi_kfunc(struct gi *g, bool bad)
{
	unsigned tk = bad ? gen_pick(g->src, KF__TWINS) : UINT32_MAX;
	uint32_t m = gen_u32(g->src, 1, 4);
	bool cpumask = tk == KF_TYPE;
	const char *acq = cpumask ? "bpf_cpumask_create" : "bpf_task_from_pid";
	const char *rel = cpumask ? "bpf_cpumask_release" : "bpf_task_release";
	int top = gi_label(g), skip = gi_label(g), end = gi_label(g), idx;

	if (ebpf_kfunc_by_name(acq) <= 0 || ebpf_kfunc_by_name(rel) <= 0)
		return;
	idx = (int)g->p->nloops++;
	gi_alux(g, true, BPF_MOV, BPF_REG_9, BPF_REG_1);
	gi_mov_const(g, BPF_REG_6, 0, true);
	gi_mov_const(g, BPF_REG_7, 0, true);
	gi_bind(g, top);
	if (tk == KF_PTR_PID) {
		gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
	} else {
		gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_6);
	}
	call_kfunc(g, acq);
	if (tk != KF_UNCHECKED)
		gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, skip);
	if (tk == KF_LEAK)
		gi_jmp(g, false, BPF_JEQ, BPF_REG_6, (int32_t)(m - 1), skip);
	gi_alux(g, true, BPF_MOV, BPF_REG_8, BPF_REG_0);
	gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_8);
	call_kfunc(g, rel);
	if (tk == KF_TWICE) {
		gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_8);
		call_kfunc(g, rel);
	}
	gi_alu(g, true, BPF_ADD, BPF_REG_7, 1);
	gi_bind(g, skip);
	gi_alu(g, true, BPF_ADD, BPF_REG_6, 1);
	gi_jmp(g, false, BPF_JLT, BPF_REG_6, (int32_t)m, top);
	gi_bind(g, end);
	unit_loop_describe(g, idx, top, end, GEN_FORM_DO_WHILE,
			   GEN_SH(DO_WHILE) | GEN_SH(BOUND_CONST) | GEN_SH(HELPER), BPF_REG_6, m, m);
	/* (the context, the checked data pointer and data_end again) */
	gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_9);
	gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_W, BPF_REG_3, BPF_REG_9, 4);
	if (bad)
		g->p->flags |= GEN_PROG_KFUNC_UNSAFE;
}

/* p_kfunc_region and its unsafe twin p_kfunc_region_bad (scev/absint_region.c): a loop of
 * helper calls inside an RCU read-side or non-preemptible region, a piece of an XDP program's
 * prologue like gi_kfunc's (r1 the context at the start; r1, r2 and r3 as gi_kfunc leaves them):
 *
 *     r9 = r1; call open (n times); r6 = 0; r7 = 0
 *   top:
 *     call bpf_get_prandom_u32; r0 &= 1; r7 += r0
 *     r6 += 1; if r6 < m goto top               m in [1, 4]: m iterations
 *     call close (n times)
 *
 * open and close are bpf_rcu_read_lock / _unlock (n = 1: RCU does not nest) or
 * bpf_preempt_disable / _enable (n in [1, 3]: they nest).  The twin (GEN_PROG_KREGION_UNSAFE),
 * one of: a close too few (the region open at the exit), a close too many (an unmatched
 * close), the RCU lock taken twice (nested), or the closes skipped when r7 is 0 (open at the
 * exit on those paths).  The kernel refuses every twin; a run traps (INTERP_TRAP_RULE) on every
 * input for the first three, when the draws give r7 == 0 for the last.  Without vmlinux BTF
 * naming the kfuncs, no piece. */
enum { KR_FEWER, KR_MORE, KR_NESTED, KR_SOME, KR__TWINS };

void gi_kfunc_region(struct gi *g, bool bad)
{
	unsigned tk = bad ? gen_pick(g->src, KR__TWINS) : UINT32_MAX;
	bool rcu = tk == KR_NESTED || gen_bool(g->src, 50);
	uint32_t m = gen_u32(g->src, 1, 4), n = rcu ? 1 : gen_u32(g->src, 1, 3);
	const char *open = rcu ? "bpf_rcu_read_lock" : "bpf_preempt_disable";
	const char *close = rcu ? "bpf_rcu_read_unlock" : "bpf_preempt_enable";
	int top = gi_label(g), end = gi_label(g), out = gi_label(g), idx;
	uint32_t opens = n + (tk == KR_NESTED), closes = n;

	if (ebpf_kfunc_by_name(open) <= 0 || ebpf_kfunc_by_name(close) <= 0)
		return;
	if (tk == KR_FEWER)
		closes = n - 1;
	else if (tk == KR_MORE)
		closes = n + 1;
	idx = (int)g->p->nloops++;
	gi_alux(g, true, BPF_MOV, BPF_REG_9, BPF_REG_1);
	for (uint32_t k = 0; k < opens; k++)
		call_kfunc(g, open);
	gi_mov_const(g, BPF_REG_6, 0, true);
	gi_mov_const(g, BPF_REG_7, 0, true);
	gi_bind(g, top);
	gi_call_helper(g, BPF_FUNC_get_prandom_u32);
	gi_alu(g, true, BPF_AND, BPF_REG_0, 1);
	gi_alux(g, true, BPF_ADD, BPF_REG_7, BPF_REG_0);
	gi_alu(g, true, BPF_ADD, BPF_REG_6, 1);
	gi_jmp(g, false, BPF_JLT, BPF_REG_6, (int32_t)m, top);
	gi_bind(g, end);
	unit_loop_describe(g, idx, top, end, GEN_FORM_DO_WHILE,
			   GEN_SH(DO_WHILE) | GEN_SH(BOUND_CONST) | GEN_SH(HELPER), BPF_REG_6, m, m);
	if (tk == KR_SOME)
		gi_jmp(g, false, BPF_JEQ, BPF_REG_7, 0, out);
	for (uint32_t k = 0; k < closes; k++)
		call_kfunc(g, close);
	gi_bind(g, out);
	/* (the context, the checked data pointer and data_end again) */
	gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_9);
	gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_W, BPF_REG_3, BPF_REG_9, 4);
	if (bad)
		g->p->flags |= GEN_PROG_KREGION_UNSAFE;
}
