/* The kernel's alignment rule for the stack (issue 21): p_stack_align and its unsafe twin
 * p_stack_align_bad, a piece of the prologue.
 *
 * The kernel refuses every stack access of 2 bytes or more whose offset is not a multiple of its
 * size (check_ptr_alignment: the stack is strict whatever the load flags), and a variable offset
 * must be proven aligned by its known low bits (tnum_is_aligned).  No run can show it: on x86 a
 * misaligned load or store of the frame does what it says, and the interpreter does the same, so
 * only the analyzer's verdict and the kernel judge the twin.  The piece:
 *
 *     *(u64 *)(r10 + (base & ~7)) = 0
 *     r1 = 0; do {                    n in {2, 4, 8}
 *             r5 = r10 + base + (r1 << 3)     base: n cells of 8 bytes in fp-216 .. fp-32
 *             *(u64 *)(r5 + 0) = r1
 *     } while (++r1 < n);
 *     r4 = (data[j] & (n - 1)) << 3   a variable offset into the cells
 *     r5 = r10 + base + r4
 *     r0 = *(u64 *)(r5 + 0)
 *
 * every cell written before the load reads it: the store's address an affine recurrence of the
 * counter (the form fill_loop writes the stack array in; a pointer stepped by 8 itself, which
 * the kernel also takes, loses the frame's other slots in the analyzer's joins).  The twin
 * moves base by 1..7 bytes (every store of the loop misaligned), or shifts the index by 2 instead of 3 (the
 * load at base + 4k reads written bytes, misaligned for odd k, and the offset's low bits no
 * longer prove alignment); either way GEN_PROG_ALIGN_UNSAFE.  The slots are main's variable
 * homes, which hold nothing yet in the prologue and are written before they are read later;
 * r0, r1, r4 and r5 are clobbered (r2 and r3 kept for the pieces after it).
 */
#include "generators/gen_internal.h"

#include "bpf/isa.h"

void gi_align_loop(struct gi *g, bool bad)
{
	int idx = (int)g->p->nloops++, top = gi_label(g), end = gi_label(g);
	uint32_t n = 2u << gen_pick(g->src, 3);
	/* the cells [base, base + 8n) within [-216, -32) */
	int32_t base = -32 - 8 * (int32_t)n - 8 * (int32_t)gen_pick(g->src, 23 - n);
	unsigned kind = bad ? 1 + gen_pick(g->src, 2) : 0;	/* 1: base moved, 2: index by 4 */
	uint8_t j = (uint8_t)gen_pick(g->src, GEN_INPUT_LEN);

	if (kind == 1)
		base -= (int32_t)gen_u32(g->src, 1, 7);
	/* (the lowest cell's 8 aligned bytes also directly: the frame's depth is what its
	 * r10-based accesses reach, which the call shapes' stack plans read) */
	gi_st(g, BPF_DW, EBPF_REG_FP, (int16_t)(base & ~7), 0);
	gi_mov_const(g, BPF_REG_1, 0, true);
	gi_bind(g, top);
	gi_alux(g, true, BPF_MOV, BPF_REG_4, BPF_REG_1);
	gi_alu(g, true, BPF_LSH, BPF_REG_4, 3);
	gi_alux(g, true, BPF_MOV, BPF_REG_5, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_5, base);
	gi_alux(g, true, BPF_ADD, BPF_REG_5, BPF_REG_4);
	gi_stx(g, BPF_DW, BPF_REG_5, 0, BPF_REG_1);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, 1);
	gi_jmp(g, false, BPF_JLT, BPF_REG_1, (int32_t)n, top);
	gi_bind(g, end);
	unit_loop_describe(g, idx, top, end, GEN_FORM_DO_WHILE,
			   GEN_SH(DO_WHILE) | GEN_SH(BOUND_CONST) | GEN_SH(INDIRECT_WRITE), BPF_REG_1,
			   n, n);
	gi_ldx(g, BPF_DW, BPF_REG_4, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_4, BPF_REG_4, j);
	gi_alu(g, true, BPF_AND, BPF_REG_4, (int32_t)n - 1);
	gi_alu(g, true, BPF_LSH, BPF_REG_4, kind == 2 ? 2 : 3);
	gi_alux(g, true, BPF_MOV, BPF_REG_5, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_5, base);
	gi_alux(g, true, BPF_ADD, BPF_REG_5, BPF_REG_4);
	gi_ldx(g, BPF_DW, BPF_REG_0, BPF_REG_5, 0);
	if (bad)
		g->p->flags |= GEN_PROG_ALIGN_UNSAFE;
}
