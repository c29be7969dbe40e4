/* Linked scalars (issue 15, scalar ids): p_links and its unsafe twin p_links_bad, a piece of the
 * prologue.
 *
 * The kernel gives a register copy the id of its source, and a bound a jump learns of one
 * holder of an id bounds every holder (sync_linked_regs): `r0 = r4; if r4 > B goto skip` bounds
 * r0 too.  The piece reads a packet byte into r4, copies it (a register move, a spill and its
 * fill, a move plus a constant, a 32-bit move of the zero-extended byte), bounds one copy by a
 * jump and adds the OTHER to a pointer into 8 stack bytes it zeroed, before a load there
 * (B <= 7):
 *
 *     r5 = data; r4 = *(u8 *)(r5 + j); *(u64 *)(fp + c) = 0; r5 = fp + c
 *     copy: r0 = r4 | *(u64 *)(fp + s) = r4; r0 = *(u64 *)(fp + s) | r0 = r4; r0 += K | w0 = w4
 *     if (one of them) > B goto skip      (a 64- or 32-bit jump)
 *     r5 += (the other); r0 = *(u8 *)(r5 + 0)
 *     skip:
 *
 * (the stack, not the packet: the kernel gives data plus a variable no range until it is
 * compared with data_end again).  The twin writes the other copy between the copy and its use
 * (`|= 512`, `^= 512`, or the slot stored again with r4 ^ 512 before the fill), so the link
 * dies: the load is above the frame, which the kernel refuses and every run that passes the
 * jump traps on.  The twin's own input passes it (gen.c: input[j] is cut to [0, B]).  c and s
 * are two of main's variable homes in fp-208 .. fp-32, which hold nothing yet in the prologue;
 * r0, r4 and r5 are clobbered.
 */
#include "generators/gen_internal.h"

#include "bpf/isa.h"

enum { LINK_MOV, LINK_MOV_USE_SRC, LINK_SPILL, LINK_ADD, LINK_MOV32, LINK_JMP32, LINK_FORMS };

/* The write that kills the link of reg in the twin (its value below 8 on the jump's arm: 512
 * more, past the frame's top from any slot). */
static void kill_link(struct gi *g, int reg)
{
	gi_alu(g, true, gen_bool(g->src, 50) ? BPF_OR : BPF_XOR, reg, 512);
}

void gi_links(struct gi *g, bool bad)
{
	unsigned form = gen_pick(g->src, LINK_FORMS), j = gen_pick(g->src, GEN_INPUT_LEN);
	unsigned is = gen_pick(g->src, 23), ic = (is + 1 + gen_pick(g->src, 22)) % 23;
	int32_t bound = (int32_t)gen_u32(g->src, 0, 7), k = 0;
	int16_t slot = (int16_t)(-32 - 8 * (int32_t)is), cells = (int16_t)(-32 - 8 * (int32_t)ic);
	bool early = bad && gen_bool(g->src, 50);	/* the twin's write before the jump */
	int tested = BPF_REG_4, used = BPF_REG_0, skip = gi_label(g);

	gi_ldx(g, BPF_DW, BPF_REG_5, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_4, BPF_REG_5, (int16_t)j);
	gi_st(g, BPF_DW, EBPF_REG_FP, cells, 0);
	gi_alux(g, true, BPF_MOV, BPF_REG_5, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_5, cells);
	switch (form) {
	case LINK_MOV_USE_SRC:
		tested = BPF_REG_0;
		used = BPF_REG_4;
		/* fallthrough */
	case LINK_MOV:
	case LINK_JMP32:
		gi_alux(g, true, BPF_MOV, BPF_REG_0, BPF_REG_4);
		break;
	case LINK_SPILL:
		gi_stx(g, BPF_DW, EBPF_REG_FP, slot, BPF_REG_4);
		if (bad) {	/* the slot stored again, with r4 ^ 512, before the fill */
			gi_alux(g, true, BPF_MOV, BPF_REG_0, BPF_REG_4);
			gi_alu(g, true, BPF_XOR, BPF_REG_0, 512);
			if (early)
				gi_stx(g, BPF_DW, EBPF_REG_FP, slot, BPF_REG_0);
		}
		break;
	case LINK_ADD:	/* r0 = r4 + k, bounded to [k, B + k] as a signed number */
		k = (int32_t)gen_u32(g->src, 0, 128) - 64;
		gi_alux(g, true, BPF_MOV, BPF_REG_0, BPF_REG_4);
		gi_alu(g, true, BPF_ADD, BPF_REG_0, k);
		tested = BPF_REG_0;
		used = BPF_REG_4;
		break;
	default:	/* LINK_MOV32: w0 = w4, the byte zero-extended (its upper half 0) */
		gi_alux(g, false, BPF_MOV, BPF_REG_0, BPF_REG_4);
		if (gen_bool(g->src, 50)) {
			tested = BPF_REG_0;
			used = BPF_REG_4;
		}
		break;
	}
	if (early && form != LINK_SPILL)
		kill_link(g, used);
	gi_jmp(g, form == LINK_JMP32 || (form == LINK_MOV32 && gen_bool(g->src, 50)),
	       form == LINK_ADD ? BPF_JSGT : BPF_JGT, tested, bound + k, skip);
	if (form == LINK_SPILL) {
		if (bad && !early)
			gi_stx(g, BPF_DW, EBPF_REG_FP, slot, BPF_REG_0);
		gi_ldx(g, BPF_DW, BPF_REG_0, EBPF_REG_FP, slot);
	} else if (bad && !early) {
		kill_link(g, used);
	}
	gi_alux(g, true, BPF_ADD, BPF_REG_5, used);
	gi_ldx(g, BPF_B, BPF_REG_0, BPF_REG_5, 0);
	gi_bind(g, skip);
	if (bad) {
		g->p->flags |= GEN_PROG_LINK_UNSAFE;
		g->links_at = (uint8_t)(j + 1);	/* (the own input passes the jump) */
		g->links_bound = (uint8_t)bound;
	}
}
