/* Queue and stack maps (issue 15, session 30): p_queue and its unsafe twin p_queue_bad, a piece
 * of an XDP program's prologue.  bpf_map_push_elem reads a value of the map's value_size from a
 * pointer (ARG_PTR_TO_MAP_VALUE: the stack, or the packet, the helper being pkt_access);
 * bpf_map_pop_elem and bpf_map_peek_elem write one (ARG_PTR_TO_MAP_VALUE | MEM_UNINIT: the
 * stack or a map value, not the packet).  The piece, map q being the queue (map 10, values of
 * 8 bytes) or the stack (map 11, 16 bytes), GEN_QUEUE_ENTRIES elements:
 *
 *     r7 = input byte & 7; *(u64 *)(fp + b) = 0 (and fp + b + 8); r6 = 0; r8 = 0
 *     while (r6 < r7) {                           n pushes, a full map refusing the rest
 *             *(u64 *)(fp + b) = 3 * r6 + c (and fp + b + 8 = r8)   or r2 = data + o
 *             r8 += push(q, fp + b or data + o, 0 or BPF_EXIST)
 *             r6 += 1
 *     }
 *     r6 = 0; do {                                m pops or peeks
 *             if (pop(q, fp + b) == 0)            (peek)
 *                     r8 += *(u64 *)(fp + b)
 *     } while (++r6 < m)
 *     r0 = r8
 *
 * b is one of main's variable homes in fp-208 .. fp-48, which hold nothing yet in the prologue.
 * The twin (GEN_PROG_QUEUE_UNSAFE) pops or peeks into fp - value_size / 2, half the value past
 * the frame's top, or pushes from data + o with o past GEN_INPUT_LEN - value_size, reading bytes
 * the prologue's bounds check did not prove: the kernel refuses both, and every run traps
 * (INTERP_TRAP_MEM: the packet is GEN_INPUT_LEN bytes) — the pop loop runs at least once, and
 * the push loop only when the input byte's low bits are not 0, so the push twin's own input is
 * made to push (gen.c's input fix-up: queue_at).  r0-r8 clobbered.
 */
#include "generators/gen_internal.h"

#include "bpf/isa.h"

void gi_queue(struct gi *g, bool bad)
{
	bool stack = gen_bool(g->src, 50), peek = gen_bool(g->src, 30);
	unsigned tk = bad ? gen_pick(g->src, 2) : 2;	/* 0: pop past the frame, 1: push past */
	bool from_pkt = tk == 1 || (tk == 2 && gen_bool(g->src, 40));
	int map = stack ? GEN_MAP_STACK : GEN_MAP_QUEUE;
	int32_t vsz = stack ? 16 : 8;
	int16_t b = (int16_t)(-48 - 8 * (int32_t)gen_pick(g->src, 21));
	int16_t dst = tk == 0 ? (int16_t)-(vsz / 2) : b;
	int16_t o = tk == 1 ? (int16_t)(GEN_INPUT_LEN - vsz + 1 + gen_pick(g->src, (uint32_t)vsz - 1))
			    : (int16_t)gen_pick(g->src, (uint32_t)(GEN_INPUT_LEN - vsz + 1));
	uint8_t j = (uint8_t)gen_pick(g->src, GEN_INPUT_LEN);
	uint32_t c = gen_u32(g->src, 0, 1000), m = gen_u32(g->src, 1, 6);
	int32_t flags = gen_bool(g->src, 50) ? BPF_EXIST : 0;
	int fidx, ftop, fend, pidx, ptop, pskip, pend;

	if (g->raw_tp || g->sk_prog || g->p->nloops + 2 > GEN_MAX_LOOPS / 2)
		return;
	fidx = (int)g->p->nloops++;
	pidx = (int)g->p->nloops++;
	ftop = gi_label(g);
	fend = gi_label(g);
	ptop = gi_label(g);
	pskip = gi_label(g);
	pend = gi_label(g);
	gi_ldx(g, BPF_DW, BPF_REG_7, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_7, BPF_REG_7, j);
	gi_alu(g, true, BPF_AND, BPF_REG_7, 7);
	if (tk == 1)
		g->queue_at = (uint8_t)(j + 1);
	gi_st(g, BPF_DW, EBPF_REG_FP, b, 0);	/* (the popped value's slot written first) */
	if (stack)
		gi_st(g, BPF_DW, EBPF_REG_FP, (int16_t)(b + 8), 0);
	gi_mov_const(g, BPF_REG_6, 0, true);
	gi_mov_const(g, BPF_REG_8, 0, true);
	/* the pushes: while (i < n) */
	gi_while_up_head(g, BPF_REG_6, BPF_REG_7, ftop, fend);
	if (from_pkt) {
		gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA);
		gi_alu(g, true, BPF_ADD, BPF_REG_2, o);
	} else {
		gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_6);
		gi_alu(g, true, BPF_MUL, BPF_REG_1, 3);
		gi_alu(g, true, BPF_ADD, BPF_REG_1, (int32_t)c);
		gi_stx(g, BPF_DW, EBPF_REG_FP, b, BPF_REG_1);
		if (stack)
			gi_stx(g, BPF_DW, EBPF_REG_FP, (int16_t)(b + 8), BPF_REG_8);
		gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_2, b);
	}
	gi_ld_map(g, BPF_REG_1, map);
	gi_mov_const(g, BPF_REG_3, (uint64_t)flags, true);
	gi_call_helper(g, BPF_FUNC_map_push_elem);
	gi_alux(g, true, BPF_ADD, BPF_REG_8, BPF_REG_0);
	gi_while_up_tail(g, BPF_REG_6, ftop, fend);
	unit_loop_describe(g, fidx, ftop, fend, GEN_FORM_WHILE,
			   GEN_SH(WHILE) | GEN_SH(BOUND_INPUT) | GEN_SH(MAP) | GEN_SH(HELPER), BPF_REG_6,
			   -1, 8);
	/* the pops or peeks: do ... while (++i < m) */
	gi_mov_const(g, BPF_REG_6, 0, true);
	gi_bind(g, ptop);
	gi_ld_map(g, BPF_REG_1, map);
	gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_2, dst);
	gi_call_helper(g, peek ? BPF_FUNC_map_peek_elem : BPF_FUNC_map_pop_elem);
	gi_jmp(g, false, BPF_JNE, BPF_REG_0, 0, pskip);
	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, b);
	gi_alux(g, true, BPF_ADD, BPF_REG_8, BPF_REG_1);
	gi_bind(g, pskip);
	gi_alu(g, true, BPF_ADD, BPF_REG_6, 1);
	gi_jmp(g, false, BPF_JLT, BPF_REG_6, (int32_t)m, ptop);
	gi_bind(g, pend);
	unit_loop_describe(g, pidx, ptop, pend, GEN_FORM_DO_WHILE,
			   GEN_SH(DO_WHILE) | GEN_SH(BOUND_CONST) | GEN_SH(MAP) | GEN_SH(HELPER),
			   BPF_REG_6, m, m);
	gi_alux(g, true, BPF_MOV, BPF_REG_0, BPF_REG_8);
	g->use_queue = true;
	if (bad)
		g->p->flags |= GEN_PROG_QUEUE_UNSAFE;
}
