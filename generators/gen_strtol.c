/* bpf_strtol's and bpf_strtoul's long *res (issue 15): p_strtol and its unsafe twin
 * p_strtol_bad, the last call piece of the prologue (r0-r5 clobbered).  A number's digits
 * stored in a slot are parsed into 8 bytes of another slot, which the program reads back:
 *
 *     *(u64 *)(fp + b) = 0; *(u64 *)(fp + a) = "600" (a few digits)
 *     r1 = fp + a; r2 = 1..8; r3 = 0; r4 = fp + b
 *     call bpf_strtol (or bpf_strtoul); r0 = *(u64 *)(fp + b)
 *
 * The kernel wants res 8 writable bytes aligned to 8 (ARG_PTR_TO_FIXED_SIZE_MEM | MEM_UNINIT |
 * MEM_WRITE | MEM_ALIGNED, once ARG_PTR_TO_LONG), which the slot b is (zeroed first: the
 * generated programs read no stack byte not written on every path; corpus strtol_res_stack
 * holds the unwritten one).  The twin's res is b + 4 (misaligned) or fp - 4 (its last 4
 * bytes past the frame): the kernel refuses it, and every run traps at the call
 * (INTERP_TRAP_MEM).  a and b are two of main's variable homes in fp-208 .. fp-32, which hold
 * nothing yet in the prologue.
 *
 * Half the programs (session 30) give res at a variable offset, fp + b - 8 + (an input byte &
 * 8), as test_sysctl_loop's tcp_mem + i: both slots zeroed, both read back.  As root the kernel
 * takes any byte of the range once the offset's tnum is aligned (check_stack_range_initialized);
 * the twin's offset is (byte & 8) | 4, never aligned: refused, and every run traps at the call.
 */
#include "generators/gen_internal.h"

#include "bpf/isa.h"

void gi_strtol(struct gi *g, bool bad)
{
	bool var = gen_bool(g->src, 50);
	unsigned ib = gen_pick(g->src, var ? 22 : 23);
	unsigned ia = (ib + (var ? 2 : 1) + gen_pick(g->src, var ? 21 : 22)) % 23;
	int16_t a = (int16_t)(-32 - 8 * (int32_t)ia), b = (int16_t)(-32 - 8 * (int32_t)ib);
	int16_t res = !bad || var ? b : gen_bool(g->src, 50) ? (int16_t)(b + 4) : -4;
	static const int32_t digits[] = { 0x00303036, 0x37, 0x2d3132, 0x30783166 };

	if (var)	/* (res at b - 8 + {0, 8}: both slots) */
		b = (int16_t)(b - 8);
	/* (res zeroed first: every stack byte a program reads was written on every path, which
	 * test_gen's static check holds it to; the corpus holds the unwritten res) */
	gi_st(g, BPF_DW, EBPF_REG_FP, b, 0);
	if (var)
		gi_st(g, BPF_DW, EBPF_REG_FP, (int16_t)(b + 8), 0);
	gi_mov_const(g, BPF_REG_1, (uint32_t)digits[gen_pick(g->src, 4)], true);
	gi_stx(g, BPF_DW, EBPF_REG_FP, a, BPF_REG_1);
	gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, a);
	gi_mov_const(g, BPF_REG_2, gen_u32(g->src, 1, 8), true);
	gi_mov_const(g, BPF_REG_3, 0, true);
	if (var) {	/* r4 = fp + b + (an input byte & 8), the twin's | 4: misaligned */
		gi_ldx(g, BPF_DW, BPF_REG_5, EBPF_REG_FP, GEN_FP_DATA);
		gi_ldx(g, BPF_B, BPF_REG_5, BPF_REG_5, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
		gi_alu(g, true, BPF_AND, BPF_REG_5, 8);
		if (bad)
			gi_alu(g, true, BPF_OR, BPF_REG_5, 4);
		gi_alux(g, true, BPF_MOV, BPF_REG_4, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_4, b);
		gi_alux(g, true, BPF_ADD, BPF_REG_4, BPF_REG_5);
	} else {
		gi_alux(g, true, BPF_MOV, BPF_REG_4, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_4, res);
	}
	gi_call_helper(g, gen_bool(g->src, 50) ? BPF_FUNC_strtol : BPF_FUNC_strtoul);
	gi_ldx(g, BPF_DW, BPF_REG_0, EBPF_REG_FP, b);
	if (var) {
		gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, (int16_t)(b + 8));
		gi_alux(g, true, BPF_ADD, BPF_REG_0, BPF_REG_1);
	}
	if (bad)
		g->p->flags |= GEN_PROG_STRTOL_UNSAFE;
}
