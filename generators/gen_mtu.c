/* bpf_check_mtu's u32 *mtu_len (session 28's fix, HARG_U32_INOUT): p_check_mtu and its unsafe
 * twin p_check_mtu_bad, a call piece of an XDP program's prologue (r0-r5 clobbered).  The
 * length to check is stored in a slot the helper reads and then writes the device's MTU into,
 * which the program reads back:
 *
 *     *(u64 *)(fp + b) = 0; *(u32 *)(fp + b) = n      n in [0, 1500]
 *     r1 = ctx; r2 = 0 (the context's device); r3 = fp + b; r4 = d; r5 = 0
 *     call bpf_check_mtu; r0 = *(u32 *)(fp + b)
 *
 * d in [-64, 64] (len_diff).  The kernel wants mtu_len 4 readable and writable bytes aligned to 4
 * (ARG_PTR_TO_FIXED_SIZE_MEM | MEM_ALIGNED, u32); before session 28 bpfscev took it as 8
 * bytes (15 outside programs refused).  The twin's mtu_len is b + 2 (misaligned) or fp - 2 (two
 * of its bytes past the frame's top): the kernel refuses it, and every run traps at the call
 * (INTERP_TRAP_MEM).  b is one of main's variable homes in fp-208 .. fp-32, which hold nothing
 * yet in the prologue; the context is the one the prologue spilled at GEN_FP_DKF_CTX.
 */
#include "generators/gen_internal.h"

#include "bpf/isa.h"

void gi_check_mtu(struct gi *g, bool bad)
{
	int16_t b = (int16_t)(-32 - 8 * (int32_t)gen_pick(g->src, 23));
	int16_t len = !bad ? b : gen_bool(g->src, 50) ? (int16_t)(b + 2) : -2;

	gi_st(g, BPF_DW, EBPF_REG_FP, b, 0);
	gi_st(g, BPF_W, EBPF_REG_FP, b, (int32_t)gen_pick(g->src, 1501));
	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DKF_CTX);
	gi_mov_const(g, BPF_REG_2, 0, true);
	gi_alux(g, true, BPF_MOV, BPF_REG_3, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_3, len);
	gi_mov_const(g, BPF_REG_4, (uint64_t)(int64_t)((int32_t)gen_pick(g->src, 129) - 64), true);
	gi_mov_const(g, BPF_REG_5, 0, true);
	gi_call_helper(g, BPF_FUNC_check_mtu);
	gi_ldx(g, BPF_W, BPF_REG_0, EBPF_REG_FP, b);
	g->p->shapes |= GEN_SH(HELPER);
	if (bad)
		g->p->flags |= GEN_PROG_MTU_UNSAFE;
}
