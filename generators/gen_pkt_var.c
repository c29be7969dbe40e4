/* A packet pointer with a variable part checked against data_end (issue 15's packet rules, the
 * kernel's find_good_pkt_pointers and check_packet_access): p_pkt_var and its unsafe twin
 * p_pkt_var_data, a piece of the prologue (GEN_INPUT_LEN bytes of data checked).
 *
 *     r2 = data; r3 = data_end           filled from GEN_FP_DATA, GEN_FP_DATA_END (the knob
 *                                        sets use_pkt, which spills data_end; the pieces before,
 *                                        with every knob at 100, use r2 and r3)
 *     r4 = data[j] & 15; r4 += a         a in [0, 8]: the variable part, 0 to 23
 *     r0 = data; r0 += r4                the kernel's fresh id, fixed offset 0, range 0
 *     r5 = r0; r5 += n                   n in [1, 40] (r5 shares r0's id)
 *     if r5 > data_end goto E
 *     r0 = *(size *)(r0 + o)             o + size <= n: within the n bytes r0's id was given
 * E:  r4 = 0; r5 = 0
 *
 * The read is in the packet on every run (r0 + n is at most data + 63), and only the range of
 * r0's id proves it to the kernel, which resets a packet pointer's range at pkt += var (the
 * GEN_INPUT_LEN bytes the prologue checked hold for data's id alone).  The twin
 * (GEN_PROG_PKT_VAR_UNSAFE) reads what the comparison does not prove, one of:
 *  - past: data + GEN_INPUT_LEN + m (m in [0, 7]) after the same check: past data_end on every
 *    run (INTERP_TRAP_MEM), and the kernel refuses it;
 *  - data: a in [1, 8], n in [GEN_INPUT_LEN + 1 - a, GEN_INPUT_LEN + 8], and data + k read
 *    with k + size in (GEN_INPUT_LEN, a + n]: the bytes `data + var + n <= data_end` would prove of data itself if the variable
 *    part were a fixed offset (bpfscev called it safe before session 24); no run passes the
 *    check (var + n > GEN_INPUT_LEN), so none reads, and the kernel refuses it ("R2 offset is
 *    outside of the packet"): the kernel is the judge;
 *  - sub: r0 = data + 40, less data[j] & 31, read at r0 + 0 (size up to 8): in the packet on
 *    every run, but the variable part may be negative, and the kernel refuses every access
 *    through it ("min value is negative"): the kernel is the judge.
 * r0, r4 and r5 are clobbered, r2 and r3 left data and data_end (r1 kept).
 */
#include "generators/gen_internal.h"

#include "bpf/isa.h"

static const uint8_t sizes[] = { BPF_B, BPF_H, BPF_W, BPF_DW };

void gi_pkt_var(struct gi *g, bool bad)
{
	int e = gi_label(g);
	unsigned s = gen_pick(g->src, 4), size = 1u << s, shape = bad ? gen_pick(g->src, 3) : 0;
	int16_t j = (int16_t)gen_pick(g->src, GEN_INPUT_LEN);
	int32_t a = (int32_t)gen_u32(g->src, shape == 1 ? 1 : 0, 8);
	int32_t n = shape == 1 ? (int32_t)gen_u32(g->src, (uint32_t)(GEN_INPUT_LEN + 1 - a),
						  GEN_INPUT_LEN + 8)
			       : (int32_t)gen_u32(g->src, size, 40);
	int16_t o;

	gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_DW, BPF_REG_3, EBPF_REG_FP, GEN_FP_DATA_END);
	if (shape == 2) {	/* data + 40 - var */
		gi_ldx(g, BPF_B, BPF_REG_4, BPF_REG_2, j);
		gi_alu(g, true, BPF_AND, BPF_REG_4, 31);
		gi_alux(g, true, BPF_MOV, BPF_REG_0, BPF_REG_2);
		gi_alu(g, true, BPF_ADD, BPF_REG_0, 40);
		gi_alux(g, true, BPF_SUB, BPF_REG_0, BPF_REG_4);
		gi_ldx(g, sizes[s], BPF_REG_0, BPF_REG_0, 0);
		gi_mov_const(g, BPF_REG_4, 0, true);
		g->p->flags |= GEN_PROG_PKT_VAR_UNSAFE;
		return;
	}
	gi_ldx(g, BPF_B, BPF_REG_4, BPF_REG_2, j);
	gi_alu(g, true, BPF_AND, BPF_REG_4, 15);
	if (a)
		gi_alu(g, true, BPF_ADD, BPF_REG_4, a);
	gi_alux(g, true, BPF_MOV, BPF_REG_0, BPF_REG_2);
	gi_alux(g, true, BPF_ADD, BPF_REG_0, BPF_REG_4);
	gi_alux(g, true, BPF_MOV, BPF_REG_5, BPF_REG_0);
	gi_alu(g, true, BPF_ADD, BPF_REG_5, n);
	gi_jmpx(g, false, BPF_JGT, BPF_REG_5, BPF_REG_3, e);
	if (!bad) {
		o = (int16_t)gen_u32(g->src, 0, (uint32_t)n - size);
		gi_ldx(g, sizes[s], BPF_REG_0, BPF_REG_0, o);
	} else if (shape == 0) {
		gi_ldx(g, sizes[s], BPF_REG_0, BPF_REG_2,
		       (int16_t)(GEN_INPUT_LEN + gen_pick(g->src, 8)));
	} else {
		/* k + size in (GEN_INPUT_LEN, a + n], a + n > GEN_INPUT_LEN */
		o = (int16_t)gen_u32(g->src, GEN_INPUT_LEN + 1 - size, (uint32_t)(a + n) - size);
		gi_ldx(g, sizes[s], BPF_REG_0, BPF_REG_2, o);
	}
	gi_bind(g, e);
	gi_mov_const(g, BPF_REG_4, 0, true);
	gi_mov_const(g, BPF_REG_5, 0, true);
	if (bad)
		g->p->flags |= GEN_PROG_PKT_VAR_UNSAFE;
}
