/* How the interp_z3 target reads its bytes (fuzz_interp_z3.c says why this way); shared with
 * the seed maker, which looks for a byte string per opcode that the harness runs. */
#ifndef BPFSCEV_FUZZ_TARGETS_FUZZ_INTERP_Z3_H
#define BPFSCEV_FUZZ_TARGETS_FUZZ_INTERP_Z3_H

#include <stdint.h>
#include <string.h>

#include <linux/bpf.h>

#include "bpf/isa.h"
#include "generators/producer.h"
#include "oracle/exec/interp.h"
#include "oracle/z3/smt.h"

static const uint64_t boundary[] = {
	0, 1, 2, 7, 8, 31, 32, 33, 63, 64, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff,
	0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull, 0x7fffffffffffffffull,
	0x8000000000000000ull, 0xffffffffffffffffull, 0xfffffffffffffffeull, 0xffffffff80000000ull,
};
#define NBOUNDARY (sizeof(boundary) / sizeof(boundary[0]))

static inline int32_t draw_imm(struct gen_src *s)
{
	static const int32_t atomic[] = { BPF_ADD, BPF_OR, BPF_AND, BPF_XOR, BPF_ADD | BPF_FETCH,
					  BPF_OR | BPF_FETCH, BPF_AND | BPF_FETCH,
					  BPF_XOR | BPF_FETCH, BPF_XCHG, BPF_CMPXCHG,
					  0x100 /* load_acquire */, 0x110 /* store_release */ };

	switch (gen_pick(s, 6)) {
	case 0:
		return 0;
	case 1:
		return (int32_t)boundary[gen_pick(s, NBOUNDARY)];
	case 2:
		return (int32_t)gen_u32(s, 0, 64);	/* shift counts, widths, helper ids */
	case 3:
		return -(int32_t)gen_u32(s, 1, 16);
	case 4:
		return atomic[gen_pick(s, sizeof(atomic) / sizeof(atomic[0]))];
	default:
		return (int32_t)gen_u32(s, 0, UINT32_MAX);
	}
}

static inline int16_t draw_off(struct gen_src *s)
{
	static const int16_t special[] = { 1, 8, 16, 32, -8, -512, 511, INT16_MIN, INT16_MAX };

	switch (gen_pick(s, 4)) {
	case 0: case 1:
		return 0;
	case 2:
		return special[gen_pick(s, sizeof(special) / sizeof(special[0]))];
	default:
		return (int16_t)gen_pick(s, 2) ? (int16_t)((int)gen_u32(s, 0, 96) - 48) :
						 (int16_t)gen_u32(s, 0, UINT16_MAX);
	}
}

/* Boundaries, raw values, or a pointer near a region (the interpreter's fixed addresses). */
static inline uint64_t draw_reg(struct gen_src *s, unsigned ctx_kind, size_t input_len)
{
	uint64_t data = ctx_kind == INTERP_CTX_PLAIN ? INTERP_VA_CTX : INTERP_VA_PKT;

	switch (gen_pick(s, 8)) {
	case 0:
		return boundary[gen_pick(s, NBOUNDARY)];
	case 1:
		return gen_u64(s, 0, UINT64_MAX);
	case 2:
		return (uint64_t)((int64_t)gen_u32(s, 0, 72) - 8);
	case 3:	/* the frame: r10 is INTERP_VA_STACK + EBPF_STACK_SIZE */
		return INTERP_VA_STACK + EBPF_STACK_SIZE - gen_u32(s, 0, 80);
	case 4:
		return data + gen_u32(s, 0, (uint32_t)input_len + 16) - 4;
	case 5:
		return INTERP_VA_CTX + gen_u32(s, 0, 200);
	case 6:
		/* near one of the map's values (each at the start of its 2^30-byte window) */
		return INTERP_VA_MAP + ((uint64_t)gen_u32(s, 0, SMT_DIFF_MAP_ENTRIES - 1) << 30) +
		       gen_u32(s, 0, SMT_DIFF_MAP_VALUE + 8) - 4;
	default:
		return INTERP_VA_MAPH + gen_u32(s, 0, 1);
	}
}

static inline void draw_insn(struct gen_src *s, struct bpf_insn in[2])
{
	memset(in, 0, 2 * sizeof(*in));
	in[0].code = (uint8_t)gen_u32(s, 0, 255);
	in[0].dst_reg = gen_u32(s, 0, 10);
	in[0].src_reg = gen_pick(s, 2) ? 0 : gen_u32(s, 0, 15);
	in[0].off = draw_off(s);
	in[0].imm = draw_imm(s);
	if (ebpf_is_ldimm64(&in[0])) {
		in[0].src_reg = gen_pick(s, 4) ? 0 : gen_u32(s, 0, 6);
		if (in[0].src_reg == BPF_PSEUDO_MAP_FD || in[0].src_reg == BPF_PSEUDO_MAP_VALUE)
			in[0].imm = 0;	/* the harness has one map */
		in[1].imm = draw_imm(s);
	} else if (ebpf_is_jmp(&in[0]) && !ebpf_is_call(&in[0]) && !ebpf_is_exit(&in[0])) {
		/* the harness's jump target: the second exit after the instruction */
		if (BPF_CLASS(in[0].code) == BPF_JMP32 && BPF_OP(in[0].code) == BPF_JA) {
			in[0].off = 0;
			in[0].imm = 1;	/* gotol */
		} else {
			in[0].off = 1;
		}
	}
}

/* The case the bytes describe. */
static inline void fuzz_interp_z3_decode(struct smt_diff_case *c, const uint8_t *data,
					 size_t size)
{
	struct gen_src s;

	memset(c, 0, sizeof(*c));
	gen_src_init_bytes(&s, data, size);
	draw_insn(&s, c->insn);
	c->ctx_kind = (uint8_t)gen_pick(&s, 3);
	c->input_len = gen_pick(&s, 4) ? SMT_DIFF_INPUT_MAX : gen_u32(&s, 0, SMT_DIFF_INPUT_MAX);
	for (int r = 0; r < 10; r++)
		c->regs[r] = draw_reg(&s, c->ctx_kind, c->input_len);
	c->helper_len = gen_u32(&s, 0, SMT_DIFF_HELPER);
	gen_bytes(&s, c->helper, c->helper_len);
	gen_bytes(&s, c->input, c->input_len);
	gen_bytes(&s, c->map, sizeof(c->map));
	/* the top of the stack first: keys of map helpers and the usual fp-8.. slots */
	for (size_t k = sizeof(c->stack); k-- > 0 && !gen_src_exhausted(&s);)
		gen_bytes(&s, &c->stack[k], 1);
}

#endif
