/* Packet pointers of two variable bases joined before one comparison with data_end (issue 15;
 * the kernel selftest test_cls_redirect): p_pkt_join and its unsafe twin p_pkt_join_past, a
 * piece of the prologue (r2 data, r3 data_end, GEN_INPUT_LEN bytes checked).
 *
 *     r4 = data[j] & 15; r5 = data[k] & 15       j, k below GEN_INPUT_LEN
 *     r0 = data
 *     if r4 > t goto B                           t in [0, 15]
 *     r0 += r4; r0 += a                          base A, plus a in [0, 8]
 *     goto M
 * B:  r0 += r5; r0 += b                          base B, plus b in [0, 8]
 * M:  r4 = r0; r4 += n                           n in [8, 80] (r4 shares r0's base)
 *     if r4 > data_end goto E
 *     r0 = *(size *)(r0 + o)                     o + size in [n - 3, n]; the twin: o = GEN_INPUT_LEN
 * E:  r4 = 0
 *
 * The kernel walks both paths apart, an id each, and the comparison gives each n bytes past
 * r0; bpfscev's join keeps one base (absint_state.c, pkt_rebase) and the copy r4 = r0 shares it
 * (a base the join forgot is issued again: pkt_copy_base).  Past n = 41 the read may pass the
 * GEN_INPUT_LEN bytes the prologue checked (r0 is up to data + 23): only the base's n bytes
 * prove it, and runs whose packet is too short leave before it.  The twin keeps n <= 40, so
 * that every run passes the comparison (r0 + n is at most data + 63), and reads at r0 +
 * GEN_INPUT_LEN, past data_end on every run (the packet is GEN_INPUT_LEN bytes:
 * INTERP_TRAP_MEM, GEN_PROG_PKT_UNSAFE), which the kernel refuses.  r0, r4 and r5 are
 * clobbered (r1, r2 and r3 kept).
 */
#include "generators/gen_internal.h"

#include "bpf/isa.h"

static const uint8_t sizes[] = { BPF_B, BPF_H, BPF_W };

void gi_pkt_join(struct gi *g, bool past)
{
	int b = gi_label(g), m = gi_label(g), e = gi_label(g);
	unsigned s = gen_pick(g->src, 3), size = 1u << s;
	int32_t t = (int32_t)gen_pick(g->src, 16), a = (int32_t)gen_pick(g->src, 9);
	int32_t bb = (int32_t)gen_pick(g->src, 9);
	int32_t n = (int32_t)gen_u32(g->src, 8, past ? 40 : 80);
	/* (the safe form's read near the end of the n bytes: past GEN_INPUT_LEN when n is) */
	int16_t o = past ? GEN_INPUT_LEN : (int16_t)(n - (int32_t)size - (int32_t)gen_pick(g->src, 4));

	gi_ldx(g, BPF_B, BPF_REG_4, BPF_REG_2, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
	gi_alu(g, true, BPF_AND, BPF_REG_4, 15);
	gi_ldx(g, BPF_B, BPF_REG_5, BPF_REG_2, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
	gi_alu(g, true, BPF_AND, BPF_REG_5, 15);
	gi_alux(g, true, BPF_MOV, BPF_REG_0, BPF_REG_2);
	gi_jmp(g, false, BPF_JGT, BPF_REG_4, t, b);
	gi_alux(g, true, BPF_ADD, BPF_REG_0, BPF_REG_4);
	if (a)
		gi_alu(g, true, BPF_ADD, BPF_REG_0, a);
	gi_ja(g, m);
	gi_bind(g, b);
	gi_alux(g, true, BPF_ADD, BPF_REG_0, BPF_REG_5);
	if (bb)
		gi_alu(g, true, BPF_ADD, BPF_REG_0, bb);
	gi_bind(g, m);
	gi_alux(g, true, BPF_MOV, BPF_REG_4, BPF_REG_0);
	gi_alu(g, true, BPF_ADD, BPF_REG_4, n);
	gi_jmpx(g, false, BPF_JGT, BPF_REG_4, BPF_REG_3, e);
	gi_ldx(g, sizes[s], BPF_REG_0, BPF_REG_0, o);
	gi_bind(g, e);
	gi_mov_const(g, BPF_REG_4, 0, true);
	if (past)
		g->p->flags |= GEN_PROG_PKT_UNSAFE;
}
