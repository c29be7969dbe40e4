/* A spin lock across static functions (issue 15 §3): p_sub_ref and its unsafe twin
 * p_sub_ref_bad, the last call piece of the prologue.
 *
 * The kernel's lock is the program's (bpf_verifier_state's active_lock, not a frame's): a static
 * function may take its caller's lock, release it, or return holding one; only the main
 * function's exit must not hold it, and no helper but bpf_spin_unlock may run while it is held,
 * in whichever frame.  bpfscev follows it with lock summaries of the static functions
 * (scev/absint_lock.c).  The piece, r0-r5 clobbered, the fields map (map 5, GEN_MAP_FIELDS: a
 * struct bpf_spin_lock at GEN_FIELDS_LOCK) looked up by an input bit (an array of two: always
 * found):
 *
 *     r2 = data; r1 = *(u8 *)(r2 + b); r1 &= 1; *(u32 *)(fp + GEN_FP_KEY) = r1
 *     r1 = map 5; r2 = fp + GEN_FP_KEY; call bpf_map_lookup_elem
 *     if r0 == 0 goto out; *(u64 *)(fp + GEN_FP_VALUE) = r0
 *     form 0: r1 = r0; call f_lock                       the lock taken for main
 *     form 1: r1 = r0 + 4; call bpf_spin_lock
 *     r0 = *(u64 *)(fp + GEN_FP_VALUE); r2 = *(u32 *)(r0 + 0); r2 += 1; *(u32 *)(r0 + 0) = r2
 *     form 0: r1 = r0 + 4; call bpf_spin_unlock
 *     form 1: r1 = r0; call f_unlock                     main's lock released by a callee
 *     form 2: both functions
 *   out:
 *
 *     f_lock(v):   r1 += 4; call bpf_spin_lock; r0 = 0; exit
 *     f_unlock(v): r1 += 4; call bpf_spin_unlock; r0 = 0; exit
 *
 * The twins (GEN_PROG_SUB_REF_UNSAFE), each trapping on every run: kind 0 never releases the
 * lock f_lock took ("bpf_spin_unlock is missing"; the interpreter at main's exit), kind 1's
 * f_unlock calls bpf_get_prandom_u32 before it releases main's lock ("function calls are not
 * allowed while holding a lock"), kind 2 calls f_lock twice (a helper under the lock, the
 * second bpf_spin_lock), kind 3 releases main's lock in main and again in f_unlock ("without
 * taking a lock").  Not generated: a reference (a socket, a ringbuf record) acquired or
 * released in a callee, which bpfscev does not follow across calls (unsupported), nor a lock
 * call inside a loop.
 */
#include "generators/gen_internal.h"

#include "bpf/isa.h"

enum { SREF_NO_UNLOCK, SREF_HELPER, SREF_TWICE, SREF_DOUBLE_UNLOCK };

/* A function of kind k (gi_sub.sub_ref), or -1 when the plan is full. */
static int sub_ref_new(struct gi *g, uint8_t k)
{
	int s = gi_sub_new(g, SUBK_CALLBACK, 1);

	if (s >= 0) {
		g->subs[s].called = true;
		g->subs[s].sub_ref = k;
	}
	return s;
}

/* r1 = the value spilled at GEN_FP_VALUE (+ the lock's offset when lock_off). */
static void value_arg(struct gi *g, bool lock_off)
{
	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_VALUE);
	if (lock_off)
		gi_alu(g, true, BPF_ADD, BPF_REG_1, GEN_FIELDS_LOCK);
}

void gi_sub_ref_call(struct gi *g, bool bad)
{
	unsigned kind = bad ? gen_pick(g->src, 4) : UINT32_MAX;
	unsigned form = kind == SREF_NO_UNLOCK || kind == SREF_TWICE ? 0
			: kind == SREF_HELPER ? 1 + gen_pick(g->src, 2)
			: kind == SREF_DOUBLE_UNLOCK ? 1 : gen_pick(g->src, 3);
	uint32_t b = gen_pick(g->src, GEN_INPUT_LEN);
	int lk = -1, ul = -1, l_out;

	if (g->raw_tp || g->sk_prog)
		return;
	if (form != 1 && (lk = sub_ref_new(g, 1)) < 0)
		return;
	if (form != 0 && (ul = sub_ref_new(g, kind == SREF_HELPER ? 3 : 2)) < 0)
		return;
	l_out = gi_label(g);
	g->use_fields = true;
	gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_2, (int16_t)b);
	gi_alu(g, true, BPF_AND, BPF_REG_1, 1);
	gi_stx(g, BPF_W, EBPF_REG_FP, GEN_FP_KEY, BPF_REG_1);
	gi_ld_map(g, BPF_REG_1, GEN_MAP_FIELDS);
	gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_2, GEN_FP_KEY);
	gi_call_helper(g, BPF_FUNC_map_lookup_elem);
	gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, l_out);
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_VALUE, BPF_REG_0);
	/* the lock taken */
	if (form == 1) {
		value_arg(g, true);
		gi_call_helper(g, BPF_FUNC_spin_lock);
	} else {
		value_arg(g, false);
		gi_call_sub(g, g->subs[lk].label);
		if (kind == SREF_TWICE) {
			value_arg(g, false);
			gi_call_sub(g, g->subs[lk].label);
		}
	}
	/* the u32 before the lock, plus one, under it */
	gi_ldx(g, BPF_DW, BPF_REG_0, EBPF_REG_FP, GEN_FP_VALUE);
	gi_ldx(g, BPF_W, BPF_REG_2, BPF_REG_0, 0);
	gi_alu(g, true, BPF_ADD, BPF_REG_2, 1);
	gi_stx(g, BPF_W, BPF_REG_0, 0, BPF_REG_2);
	/* the lock released */
	if (form == 0 && kind != SREF_NO_UNLOCK) {
		value_arg(g, true);
		gi_call_helper(g, BPF_FUNC_spin_unlock);
	} else if (form != 0) {
		if (kind == SREF_DOUBLE_UNLOCK) {
			value_arg(g, true);
			gi_call_helper(g, BPF_FUNC_spin_unlock);
		}
		value_arg(g, false);
		gi_call_sub(g, g->subs[ul].label);
	}
	gi_bind(g, l_out);
	g->p->shapes |= GEN_SH(SUBPROG) | GEN_SH(HELPER);
	if (bad)
		g->p->flags |= GEN_PROG_SUB_REF_UNSAFE;
}

void gi_emit_sub_ref(struct gi *g, struct gi_sub *s)
{
	gi_bind(g, s->label);
	if (s->sub_ref == 3) {
		gi_alux(g, true, BPF_MOV, BPF_REG_6, BPF_REG_1);
		gi_call_helper(g, BPF_FUNC_get_prandom_u32);
		gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_6);
	}
	gi_alu(g, true, BPF_ADD, BPF_REG_1, GEN_FIELDS_LOCK);
	gi_call_helper(g, s->sub_ref == 1 ? BPF_FUNC_spin_lock : BPF_FUNC_spin_unlock);
	gi_mov_const(g, BPF_REG_0, 0, true);
	gi_exit(g);
}
