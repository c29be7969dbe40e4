/* The Z3 oracle (oracle/smt.h).
 *
 *  1. The encoding against the interpreter: thousands of random instructions of every opcode
 *     on random states (registers, stack, input, map values, helper stream), every register
 *     and memory byte compared by model evaluation (smt_diff_run).
 *  2. Wrong claims the concrete oracle misses — a range wrong for one input value out of 2^32,
 *     a trip bound wrong only when an input byte is 0xff — refuted by Z3 and confirmed by
 *     replay on the interpreter.
 *  3. The analyzer's claims over corpus/cases/ (every .case): none may be refuted; the share proved is
 *     reported.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bpf/prog.h"
#include "oracle/check.h"
#include "oracle/smt.h"
#include "scev/scev.h"
#include "tests/check.h"

static uint64_t rng_state = 0x5eed5eedull;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t pick(const uint64_t *v, size_t n)
{
	return v[rnd() % n];
}

/* ---- 1. the differential test ---- */

static const uint64_t boundary[] = {
	0, 1, 2, 7, 8, 31, 32, 33, 63, 64, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff,
	0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull, 0x7fffffffffffffffull,
	0x8000000000000000ull, 0xffffffffffffffffull, 0xfffffffffffffffeull, 0xffffffff80000000ull,
};

/* A register value: boundaries, random, or a pointer near a region (so memory operations hit
 * and miss their regions). */
static uint64_t reg_value(int ctx_kind, size_t input_len)
{
	switch (rnd() % 8) {
	case 0: case 1:
		return pick(boundary, sizeof(boundary) / sizeof(boundary[0]));
	case 2:
		return rnd();
	case 3:
		return rnd() % 64 - 8;
	case 4:
		return INTERP_VA_STACK + EBPF_STACK_SIZE - rnd() % 80;
	case 5:
		return (ctx_kind == INTERP_CTX_PLAIN ? INTERP_VA_CTX : INTERP_VA_PKT) +
		       rnd() % (input_len + 16) - 4;
	case 6:
		return rnd() % 2 ? INTERP_VA_CTX + rnd() % 200 : INTERP_VA_MAP + rnd() % 80 - 4;
	default:
		return rnd() % 3 ? INTERP_VA_MAPH + rnd() % 2 : INTERP_VA_STACK + rnd() % 520;
	}
}

static const uint8_t alu_ops[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_OR, BPF_AND, BPF_LSH,
				   BPF_RSH, BPF_NEG, BPF_MOD, BPF_XOR, BPF_MOV, BPF_ARSH, BPF_END };
static const uint8_t jmp_ops[] = { BPF_JEQ, BPF_JGT, BPF_JGE, BPF_JSET, BPF_JNE, BPF_JSGT,
				   BPF_JSGE, BPF_JLT, BPF_JLE, BPF_JSLT, BPF_JSLE };
static const int32_t helpers[] = { 1, 1, 1, 2, 2, 3, 5, 6, 7, 7, 8, 12, 14, 15, 42, 80, 118,
				   125, 160, 208, 9999 };
static const uint8_t sizes[] = { BPF_B, BPF_H, BPF_W, BPF_DW };
static const int32_t atomic_ops[] = { BPF_ADD, BPF_OR, BPF_AND, BPF_XOR, BPF_ADD | BPF_FETCH,
				      BPF_OR | BPF_FETCH, BPF_AND | BPF_FETCH, BPF_XOR | BPF_FETCH,
				      BPF_XCHG, BPF_CMPXCHG };

static int32_t imm_value(void)
{
	return (int32_t)(rnd() % 3 ? pick(boundary, sizeof(boundary) / sizeof(boundary[0]))
				   : rnd());
}

/* A random instruction of the family fam (and its name for the report). */
static const char *random_insn(struct bpf_insn *in, unsigned fam)
{
	uint8_t dst = rnd() % 10, src = rnd() % 11;
	int16_t moff = (int16_t)(rnd() % 4 ? (int)(rnd() % 48) - 24 : (int)(rnd() % 1100) - 560);

	memset(in, 0, 2 * sizeof(*in));
	in->dst_reg = dst;
	in->src_reg = src;
	switch (fam) {
	case 0: case 1: {	/* ALU64 / ALU32, K and X */
		uint8_t op = alu_ops[rnd() % sizeof(alu_ops)];
		bool x = rnd() % 2;

		in->code = (fam ? BPF_ALU : BPF_ALU64) | op | (x ? BPF_X : BPF_K);
		in->imm = imm_value();
		if (op == BPF_NEG) {
			in->code = (fam ? BPF_ALU : BPF_ALU64) | op;
			in->src_reg = 0;
			in->imm = 0;
		} else if (op == BPF_END) {
			static const int32_t w[] = { 16, 32, 64 };

			in->imm = w[rnd() % 3];
			in->src_reg = 0;
		} else if ((op == BPF_DIV || op == BPF_MOD) && rnd() % 2) {
			in->off = 1;	/* sdiv / smod */
		} else if (op == BPF_MOV && x && rnd() % 2) {
			static const int16_t o64[] = { 8, 16, 32 }, o32[] = { 8, 16 };

			in->off = fam ? o32[rnd() % 2] : o64[rnd() % 3];	/* movsx */
		}
		if (x && op != BPF_END)
			in->imm = 0;
		if (!x)
			in->src_reg = 0;
		if (rnd() % 4 == 0 && (op == BPF_DIV || op == BPF_MOD) && !x)
			in->imm = rnd() % 2 ? 0 : -1;
		return fam ? "alu32" : "alu64";
	}
	case 2: case 3: {	/* JMP / JMP32 */
		bool x = rnd() % 2;

		in->code = (fam == 3 ? BPF_JMP32 : BPF_JMP) | jmp_ops[rnd() % sizeof(jmp_ops)] |
			   (x ? BPF_X : BPF_K);
		in->off = 1;
		in->imm = x ? 0 : imm_value();
		if (!x)
			in->src_reg = 0;
		switch (rnd() % 8) {
		case 0:
			in->code = BPF_JMP | BPF_JA;
			in->dst_reg = in->src_reg = 0;
			in->imm = 0;
			break;
		case 1:
			in->code = BPF_JMP32 | BPF_JA;
			in->dst_reg = in->src_reg = 0;
			in->off = 0;
			in->imm = 1;
			break;
		case 2:
			in->code = BPF_JMP | BPF_JCOND;	/* may_goto */
			in->dst_reg = in->src_reg = 0;
			in->imm = 0;
			break;
		default:
			break;
		}
		return "jump";
	}
	case 4: {		/* loads: LDX, sign-extending LDX, load-acquire */
		uint8_t sz = sizes[rnd() % 4];

		in->off = moff;
		switch (rnd() % 3) {
		case 0:
			in->code = BPF_LDX | BPF_MEM | sz;
			break;
		case 1:
			in->code = BPF_LDX | BPF_MEMSX | (sz == BPF_DW ? BPF_W : sz);
			break;
		default:
			in->code = BPF_STX | BPF_ATOMIC | sz;
			in->imm = BPF_LOAD_ACQ;
			break;
		}
		return "load";
	}
	case 5: {		/* stores: ST, STX, store-release */
		uint8_t sz = sizes[rnd() % 4];

		in->off = moff;
		in->dst_reg = rnd() % 11;
		switch (rnd() % 3) {
		case 0:
			in->code = BPF_ST | BPF_MEM | sz;
			in->src_reg = 0;
			in->imm = imm_value();
			break;
		case 1:
			in->code = BPF_STX | BPF_MEM | sz;
			break;
		default:
			in->code = BPF_STX | BPF_ATOMIC | sz;
			in->imm = BPF_STORE_REL;
			break;
		}
		return "store";
	}
	case 6:			/* atomics */
		in->code = BPF_STX | BPF_ATOMIC | (rnd() % 2 ? BPF_W : BPF_DW);
		in->dst_reg = rnd() % 11;
		in->imm = atomic_ops[rnd() % (sizeof(atomic_ops) / sizeof(atomic_ops[0]))];
		in->off = moff;
		return "atomic";
	case 7: {		/* LD_ABS / LD_IND */
		uint8_t sz = sizes[rnd() % 3];

		in->code = BPF_LD | (rnd() % 2 ? BPF_ABS : BPF_IND) | sz;
		in->dst_reg = 0;
		if (BPF_MODE(in->code) == BPF_ABS)
			in->src_reg = 0;
		in->imm = rnd() % 4 ? (int32_t)(rnd() % 72) - 4 : imm_value();
		return "ld_abs/ind";
	}
	case 8: {		/* LD_IMM64: plain, map fd, map value */
		uint64_t v = rnd();

		in[0].code = BPF_LD | BPF_IMM | BPF_DW;
		in[0].src_reg = 0;
		in[0].imm = (int32_t)(uint32_t)v;
		in[1].imm = (int32_t)(uint32_t)(v >> 32);
		switch (rnd() % 4) {
		case 1:
			in[0].src_reg = BPF_PSEUDO_MAP_FD;
			in[0].imm = rnd() % 2;
			in[1].imm = 0;
			break;
		case 2:
			in[0].src_reg = BPF_PSEUDO_MAP_VALUE;
			in[0].imm = rnd() % 3 ? 0 : 5000;
			in[1].imm = rnd() % 80;
			break;
		default:
			break;
		}
		return "ld_imm64";
	}
	default:		/* helper calls, kfunc */
		in->code = BPF_JMP | BPF_CALL;
		in->dst_reg = 0;
		in->src_reg = rnd() % 12 ? 0 : BPF_PSEUDO_KFUNC_CALL;
		in->imm = helpers[rnd() % (sizeof(helpers) / sizeof(helpers[0]))];
		return "call";
	}
}

#define FAMILIES 10

static void random_state(struct smt_diff_case *c)
{
	static const size_t lens[] = { 64, 64, 64, 14, 20, 1, 0, 40 };

	c->ctx_kind = rnd() % 3;
	c->input_len = lens[rnd() % 8];
	for (int r = 0; r < 10; r++)
		c->regs[r] = reg_value(c->ctx_kind, c->input_len);
	for (size_t k = 0; k < sizeof(c->stack); k++)
		c->stack[k] = rnd() % 3 ? (uint8_t)rnd() : 0;
	for (size_t k = 0; k < sizeof(c->input); k++)
		c->input[k] = (uint8_t)rnd();
	for (size_t k = 0; k < sizeof(c->map); k++)
		c->map[k] = (uint8_t)rnd();
	c->helper_len = rnd() % (SMT_DIFF_HELPER + 1);
	for (size_t k = 0; k < sizeof(c->helper); k++)
		c->helper[k] = (uint8_t)rnd();
	/* keys at the stack top for map helpers: small indexes often */
	if (rnd() % 2) {
		uint32_t key = rnd() % 6;

		memcpy(c->stack + EBPF_STACK_SIZE - 8, &key, 4);
	}
}

static void test_diff(unsigned cases)
{
	struct smt_diff *d;
	unsigned ran[FAMILIES] = { 0 }, skipped = 0, mismatches = 0;
	char why[256];
	int err = smt_diff__new(&d);

	CHECK(err == 0, "smt_diff__new: %d", err);
	if (err)
		return;
	for (unsigned n = 0; n < cases; n++) {
		struct smt_diff_case c;
		unsigned fam = n % FAMILIES;
		const char *name;

		memset(&c, 0, sizeof(c));
		random_state(&c);
		name = random_insn(c.insn, fam);
		err = smt_diff_run(d, &c, why, sizeof(why));
		if (err == -EINVAL) {
			skipped++;
			continue;
		}
		CHECK(err >= 0, "case %u (%s): error %d %s", n, name, err, why);
		if (err == 1) {
			mismatches++;
			if (mismatches <= 10)
				CHECK(0, "case %u (%s, code 0x%02x dst r%u src r%u off %d imm %d, ctx %u, "
				      "input %zu): %s", n, name, c.insn[0].code, c.insn[0].dst_reg,
				      c.insn[0].src_reg, c.insn[0].off, c.insn[0].imm, c.ctx_kind,
				      c.input_len, why);
		}
		if (err == 0)
			ran[fam]++;
	}
	CHECK(mismatches == 0, "%u mismatches", mismatches);
	printf("diff: %u cases (%u skipped as invalid), per family:", cases, skipped);
	for (unsigned f = 0; f < FAMILIES; f++) {
		printf(" %u", ran[f]);
		CHECK(ran[f] > cases / FAMILIES / 3, "family %u ran only %u cases", f, ran[f]);
	}
	printf("\n");
	smt_diff__free(d);
}

int main(int argc, char **argv)
{
	unsigned diff_cases = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 4000;

	test_diff(diff_cases);
	return check_done("test_smt");
}
