/* Tests of the interpreter (oracle/exec/interp.c) with hand-encoded programs.
 *
 * ALU and jump results are checked against a reference model written here in a different way
 * from the interpreter (sign and magnitude, as the kernel's interpreter computes signed division,
 * and sign-bit flipping for signed compares) over a table of edge values, in all four forms.
 * The rest are targeted cases: memory each width and sign, atomics, traps in every direction,
 * calls and frames, contexts, maps, helpers, probes and visits, budgets.  Finally random valid
 * programs run through the plain and the hooked loop must give identical results, also when a
 * step budget cuts them anywhere; with the sanitizer build this is also the "no undefined
 * behaviour on any input" check.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf/prog.h"
#include "oracle/exec/interp.h"
#include "oracle/exec/safe_run.h"
#include "tests/check.h"
#include "util/json.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define INS(c, d, s, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s),   \
					       .off = (o), .imm = (i) })
#define MOV64I(d, i) INS(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV64R(d, s) INS(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define ALU64I(op, d, i) INS(BPF_ALU64 | (op) | BPF_K, d, 0, 0, i)
#define ALU64R(op, d, s) INS(BPF_ALU64 | (op) | BPF_X, d, s, 0, 0)
#define ALU32I(op, d, i) INS(BPF_ALU | (op) | BPF_K, d, 0, 0, i)
#define ALU32R(op, d, s) INS(BPF_ALU | (op) | BPF_X, d, s, 0, 0)
#define JI(op, d, i, o) INS(BPF_JMP | (op) | BPF_K, d, 0, o, i)
#define JR(op, d, s, o) INS(BPF_JMP | (op) | BPF_X, d, s, o, 0)
#define JA(o) INS(BPF_JMP | BPF_JA, 0, 0, o, 0)
#define LDDW(d, v) INS(BPF_LD | BPF_DW | BPF_IMM, d, 0, 0, (int32_t)(uint32_t)(uint64_t)(v)),    \
		   INS(0, 0, 0, 0, (int32_t)(uint32_t)((uint64_t)(v) >> 32))
#define LDDW_SRC(d, src, lo, hi) INS(BPF_LD | BPF_DW | BPF_IMM, d, src, 0, lo), INS(0, 0, 0, 0, hi)
#define LDX(sz, d, s, o) INS(BPF_LDX | BPF_MEM | (sz), d, s, o, 0)
#define LDXS(sz, d, s, o) INS(BPF_LDX | BPF_MEMSX | (sz), d, s, o, 0)
#define ST(sz, d, o, i) INS(BPF_ST | BPF_MEM | (sz), d, 0, o, i)
#define STX(sz, d, s, o) INS(BPF_STX | BPF_MEM | (sz), d, s, o, 0)
#define ATOM(sz, d, s, o, op) INS(BPF_STX | BPF_ATOMIC | (sz), d, s, o, op)
#define CALL(id) INS(BPF_JMP | BPF_CALL, 0, 0, 0, id)
#define CALLL(rel) INS(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, rel)
#define CALLX(r) INS(BPF_JMP | BPF_CALL | BPF_X, r, 0, 0, 0)
#define LDABS(sz, i) INS(BPF_LD | BPF_ABS | (sz), 0, 0, 0, i)
#define LDIND(sz, s, i) INS(BPF_LD | BPF_IND | (sz), 0, s, 0, i)
#define EXIT INS(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

#define FP0 (INTERP_VA_STACK + EBPF_STACK_SIZE)	/* r10 of the main frame */

/* Builds, prepares and runs; the result's trap says how it ended.  -1 when the program
 * could not be prepared (reported). */
static int run_prog(const struct bpf_insn *p, size_t n, const struct interp_env *env,
		    struct interp_result *res)
{
	struct ebpf_object *obj = NULL;
	struct interp_code *code = NULL;
	struct interp_env def;
	struct diag d;
	int err;

	diag_clear(&d);
	memset(res, 0, sizeof(*res));
	if (!env) {
		memset(&def, 0, sizeof(def));
		env = &def;
	}
	err = ebpf_object__from_insns(&obj, p, n, "t", &d);
	if (!err)
		err = interp_prepare(&code, &obj->progs[0], &d);
	if (err) {
		fprintf(stderr, "run_prog: %s (insn %ld)\n", d.msg, d.insn);
		ebpf_object__free(obj);
		return -1;
	}
	err = interp_run(code, env, res);
	interp_code__free(code);
	ebpf_object__free(obj);
	return err;
}

#define RUN(env, res, ...)                                                                  \
	({                                                                                  \
		const struct bpf_insn p_[] = { __VA_ARGS__ };                               \
		run_prog(p_, ARRAY_SIZE(p_), env, res);                                     \
	})

/* r0 of a run that must end normally. */
static uint64_t r0_of(const struct bpf_insn *p, size_t n, const char *what)
{
	struct interp_result res;
	int err = run_prog(p, n, NULL, &res);

	CHECK(err == 0 && res.trap == INTERP_OK, "%s: err %d trap %d %s", what, err, res.trap,
	      res.reason);
	return res.r0;
}

#define R0(what, ...)                                                                       \
	({                                                                                  \
		const struct bpf_insn p_[] = { __VA_ARGS__ };                               \
		r0_of(p_, ARRAY_SIZE(p_), what);                                            \
	})

/* ---- reference model ---- */

static uint64_t ref_alu(uint8_t op, bool sgn, bool is64, uint64_t a, uint64_t b)
{
	unsigned bits = is64 ? 64 : 32;
	uint64_t mask = is64 ? UINT64_MAX : 0xffffffffu, sign = 1ull << (bits - 1);
	uint64_t ma, mb, q, r = 0;
	bool na, nb;
	unsigned sh;

	a &= mask;
	b &= mask;
	na = a & sign;
	nb = b & sign;
	ma = na ? (0 - a) & mask : a;	/* magnitude (INT_MIN stays 2^(bits-1)) */
	mb = nb ? (0 - b) & mask : b;
	sh = (unsigned)(b & (bits - 1));
	switch (op) {
	case BPF_ADD: r = a + b; break;
	case BPF_SUB: r = a - b; break;
	case BPF_MUL: r = a * b; break;
	case BPF_DIV:
		if (!sgn) {
			r = b ? a / b : 0;
		} else if (!b) {
			r = 0;
		} else {
			q = ma / mb;
			r = na != nb ? 0 - q : q;
		}
		break;
	case BPF_MOD:
		if (!sgn) {
			r = b ? a % b : a;
		} else if (!b) {
			r = a;
		} else {
			q = ma % mb;
			r = na ? 0 - q : q;
		}
		break;
	case BPF_OR: r = a | b; break;
	case BPF_AND: r = a & b; break;
	case BPF_XOR: r = a ^ b; break;
	case BPF_LSH: r = a << sh; break;
	case BPF_RSH: r = a >> sh; break;
	case BPF_ARSH:
		r = a >> sh;
		if (na && sh)
			r |= mask << (bits - sh);
		break;
	case BPF_MOV: r = b; break;
	}
	return r & mask;
}

static bool ref_jmp(uint8_t op, bool is64, uint64_t a, uint64_t b)
{
	uint64_t mask = is64 ? UINT64_MAX : 0xffffffffu, flip = is64 ? 1ull << 63 : 1ull << 31;

	a &= mask;
	b &= mask;
	switch (op) {
	case BPF_JEQ: return a == b;
	case BPF_JNE: return a != b;
	case BPF_JGT: return a > b;
	case BPF_JGE: return a >= b;
	case BPF_JLT: return a < b;
	case BPF_JLE: return a <= b;
	case BPF_JSGT: return (a ^ flip) > (b ^ flip);
	case BPF_JSGE: return (a ^ flip) >= (b ^ flip);
	case BPF_JSLT: return (a ^ flip) < (b ^ flip);
	case BPF_JSLE: return (a ^ flip) <= (b ^ flip);
	case BPF_JSET: return (a & b) != 0;
	}
	return false;
}

static const uint64_t edges[] = {
	0, 1, 2, 3, 7, 31, 32, 33, 63, 64, 65, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0x7fffffff,
	0x80000000, 0x80000001, 0xffffffff, 0x100000000, 0x7fffffffffffffff, 0x8000000000000000,
	0x8000000000000001, 0xffffffff80000000, 0xfffffffffffffffd, 0xfffffffffffffffe,
	0xffffffffffffffff, 0x123456789abcdef0, 0xfedcba9876543210,
};

/* One ALU operation on (a, b) in the register forms and, when b fits an int32, the
 * immediate forms, both widths, against ref_alu. */
static void check_alu(uint8_t op, bool sgn, const char *name, uint64_t a, uint64_t b)
{
	int32_t imm = (int32_t)(uint32_t)b;
	int16_t off = sgn;
	char what[96];

	for (int is64 = 0; is64 <= 1; is64++) {
		uint8_t cls = is64 ? BPF_ALU64 : BPF_ALU;
		uint64_t got;

		snprintf(what, sizeof(what), "%s%s X 0x%llx 0x%llx", name, is64 ? "64" : "32",
			 (unsigned long long)a, (unsigned long long)b);
		got = R0(what, LDDW(0, a), LDDW(1, b), INS(cls | op | BPF_X, 0, 1, off, 0), EXIT);
		CHECK_EQ_U64(got, ref_alu(op, sgn, is64, a, b), what);
		if ((uint64_t)(int64_t)imm != b)
			continue;
		snprintf(what, sizeof(what), "%s%s K 0x%llx %d", name, is64 ? "64" : "32",
			 (unsigned long long)a, imm);
		got = R0(what, LDDW(0, a), INS(cls | op | BPF_K, 0, 0, off, imm), EXIT);
		CHECK_EQ_U64(got, ref_alu(op, sgn, is64, a, is64 ? (uint64_t)(int64_t)imm
								  : (uint32_t)imm), what);
	}
}

static void test_alu_table(void)
{
	static const struct { uint8_t op; bool sgn; const char *name; } ops[] = {
		{ BPF_ADD, 0, "add" }, { BPF_SUB, 0, "sub" }, { BPF_MUL, 0, "mul" },
		{ BPF_DIV, 0, "div" }, { BPF_DIV, 1, "sdiv" }, { BPF_MOD, 0, "mod" },
		{ BPF_MOD, 1, "smod" }, { BPF_OR, 0, "or" }, { BPF_AND, 0, "and" },
		{ BPF_XOR, 0, "xor" }, { BPF_LSH, 0, "lsh" }, { BPF_RSH, 0, "rsh" },
		{ BPF_ARSH, 0, "arsh" }, { BPF_MOV, 0, "mov" },
	};

	for (size_t o = 0; o < ARRAY_SIZE(ops); o++)
		for (size_t i = 0; i < ARRAY_SIZE(edges); i++)
			for (size_t j = 0; j < ARRAY_SIZE(edges); j++)
				check_alu(ops[o].op, ops[o].sgn, ops[o].name, edges[i], edges[j]);
	/* immediates that are not edge values: the int32 range ends */
	for (size_t o = 0; o < ARRAY_SIZE(ops); o++)
		for (size_t i = 0; i < ARRAY_SIZE(edges); i++) {
			uint64_t a = edges[i];

			check_alu(ops[o].op, ops[o].sgn, ops[o].name, a, (uint64_t)-2147483647);
			check_alu(ops[o].op, ops[o].sgn, ops[o].name, a, (uint64_t)-5);
		}
}

static void test_jmp_table(void)
{
	static const struct { uint8_t op; const char *name; } ops[] = {
		{ BPF_JEQ, "jeq" }, { BPF_JNE, "jne" }, { BPF_JGT, "jgt" }, { BPF_JGE, "jge" },
		{ BPF_JLT, "jlt" }, { BPF_JLE, "jle" }, { BPF_JSGT, "jsgt" }, { BPF_JSGE, "jsge" },
		{ BPF_JSLT, "jslt" }, { BPF_JSLE, "jsle" }, { BPF_JSET, "jset" },
	};
	char what[96];

	for (size_t o = 0; o < ARRAY_SIZE(ops); o++)
		for (size_t i = 0; i < ARRAY_SIZE(edges); i++)
			for (size_t j = 0; j < ARRAY_SIZE(edges); j++) {
				uint64_t a = edges[i], b = edges[j];
				int32_t imm = (int32_t)(uint32_t)b;

				for (int is64 = 0; is64 <= 1; is64++) {
					uint8_t cls = is64 ? BPF_JMP : BPF_JMP32;
					uint64_t got;

					snprintf(what, sizeof(what), "%s%s X 0x%llx 0x%llx",
						 ops[o].name, is64 ? "" : "32",
						 (unsigned long long)a, (unsigned long long)b);
					got = R0(what, LDDW(2, a), LDDW(3, b), MOV64I(0, 0),
						 INS(cls | ops[o].op | BPF_X, 2, 3, 1, 0), EXIT,
						 MOV64I(0, 1), EXIT);
					CHECK_EQ_U64(got, ref_jmp(ops[o].op, is64, a, b), what);
					snprintf(what, sizeof(what), "%s%s K 0x%llx %d",
						 ops[o].name, is64 ? "" : "32",
						 (unsigned long long)a, imm);
					got = R0(what, LDDW(2, a), MOV64I(0, 0),
						 INS(cls | ops[o].op | BPF_K, 2, 0, 1, imm), EXIT,
						 MOV64I(0, 1), EXIT);
					CHECK_EQ_U64(got, ref_jmp(ops[o].op, is64, a,
								  is64 ? (uint64_t)(int64_t)imm
								       : (uint32_t)imm), what);
				}
			}
}

static void test_alu_specials(void)
{
	const uint64_t v = 0x1122334455667788ull;

	/* Named edge cases on top of the table, so a regression reads plainly. */
	CHECK_EQ_U64(R0("sdiv64 INT_MIN/-1", LDDW(0, 0x8000000000000000), MOV64I(1, -1),
			INS(BPF_ALU64 | BPF_DIV | BPF_X, 0, 1, 1, 0), EXIT),
		     0x8000000000000000, "sdiv64 INT_MIN/-1");
	CHECK_EQ_U64(R0("smod64 INT_MIN/-1", LDDW(0, 0x8000000000000000),
			INS(BPF_ALU64 | BPF_MOD | BPF_K, 0, 0, 1, -1), EXIT),
		     0, "smod64 INT_MIN/-1");
	CHECK_EQ_U64(R0("sdiv32 INT_MIN/-1", LDDW(0, 0xffffffff80000000),
			INS(BPF_ALU | BPF_DIV | BPF_K, 0, 0, 1, -1), EXIT), 0x80000000,
		     "sdiv32 INT_MIN/-1 (zero-extended)");
	CHECK_EQ_U64(R0("smod32 -7 % 2", MOV64I(0, -7), INS(BPF_ALU | BPF_MOD | BPF_K, 0, 0, 1, 2),
			EXIT), 0xffffffff, "smod32 -7 % 2 = -1, zero-extended");
	CHECK_EQ_U64(R0("div by 0", MOV64I(0, 5), MOV64I(1, 0), ALU64R(BPF_DIV, 0, 1), EXIT), 0,
		     "div64 by 0");
	CHECK_EQ_U64(R0("mod64 by 0", LDDW(0, v), MOV64I(1, 0), ALU64R(BPF_MOD, 0, 1), EXIT), v,
		     "mod64 by 0 leaves dst");
	CHECK_EQ_U64(R0("mod32 by 0", LDDW(0, v), MOV64I(1, 0), ALU32R(BPF_MOD, 0, 1), EXIT),
		     0x55667788, "mod32 by 0 zero-extends dst");
	CHECK_EQ_U64(R0("lsh 65", MOV64I(0, 1), ALU64I(BPF_LSH, 0, 65), EXIT), 2, "lsh64 masks 63");
	CHECK_EQ_U64(R0("lsh32 33", MOV64I(0, 1), ALU32I(BPF_LSH, 0, 33), EXIT), 2,
		     "lsh32 masks 31");
	CHECK_EQ_U64(R0("arsh32", MOV64I(0, -16), ALU32I(BPF_ARSH, 0, 2), EXIT), 0xfffffffc,
		     "arsh32 sign-fills 32 bits, zero-extends");
	CHECK_EQ_U64(R0("add32 zext", LDDW(0, 0xffffffffffffffff), ALU32I(BPF_ADD, 0, 1), EXIT), 0,
		     "add32 wraps and zero-extends");
	CHECK_EQ_U64(R0("mov32 zext", MOV64I(1, -1), ALU32R(BPF_MOV, 0, 1), EXIT), 0xffffffff,
		     "mov32 zero-extends");
	CHECK_EQ_U64(R0("mov64 imm sext", MOV64I(0, -1), EXIT), UINT64_MAX, "mov64 sign-extends");
	CHECK_EQ_U64(R0("neg64", LDDW(0, 0x8000000000000000), ALU64I(BPF_NEG, 0, 0), EXIT),
		     0x8000000000000000, "neg64 INT_MIN");
	CHECK_EQ_U64(R0("neg32", LDDW(0, 0x1234567880000000 >> 0), ALU32I(BPF_NEG, 0, 0), EXIT),
		     0x80000000, "neg32 INT_MIN, zero-extended");
	CHECK_EQ_U64(R0("neg32 1", MOV64I(0, 1), ALU32I(BPF_NEG, 0, 0), EXIT), 0xffffffff,
		     "neg32 1");
	/* movsx */
	CHECK_EQ_U64(R0("movsx64 8", MOV64I(1, 0x80), INS(BPF_ALU64 | BPF_MOV | BPF_X, 0, 1, 8, 0),
			EXIT), 0xffffffffffffff80, "movsx64 s8");
	CHECK_EQ_U64(R0("movsx64 16", MOV64I(1, 0x17fff), INS(BPF_ALU64 | BPF_MOV | BPF_X, 0, 1, 16,
			0), EXIT), 0x7fff, "movsx64 s16 positive");
	CHECK_EQ_U64(R0("movsx64 32", MOV64I(1, 0), ALU32I(BPF_MOV, 1, (int32_t)0x80000000),
			INS(BPF_ALU64 | BPF_MOV | BPF_X, 0, 1, 32, 0), EXIT),
		     0xffffffff80000000, "movsx64 s32");
	CHECK_EQ_U64(R0("movsx32 8", MOV64I(1, 0xfe), INS(BPF_ALU | BPF_MOV | BPF_X, 0, 1, 8, 0),
			EXIT), 0xfffffffe, "movsx32 s8 zero-extends to 64");
	CHECK_EQ_U64(
	    R0("movsx32 16", MOV64I(1, 0x8000), INS(BPF_ALU | BPF_MOV | BPF_X, 0, 1, 16, 0), EXIT),
	    0xffff8000, "movsx32 s16");
	/* byte order */
	CHECK_EQ_U64(R0("le16", LDDW(0, v), INS(BPF_ALU | BPF_END | BPF_TO_LE, 0, 0, 0, 16), EXIT),
		     0x7788, "le16 truncates");
	CHECK_EQ_U64(R0("le32", LDDW(0, v), INS(BPF_ALU | BPF_END | BPF_TO_LE, 0, 0, 0, 32), EXIT),
		     0x55667788, "le32 truncates");
	CHECK_EQ_U64(R0("le64", LDDW(0, v), INS(BPF_ALU | BPF_END | BPF_TO_LE, 0, 0, 0, 64), EXIT),
		     v, "le64 is a no-op");
	CHECK_EQ_U64(R0("be16", LDDW(0, v), INS(BPF_ALU | BPF_END | BPF_TO_BE, 0, 0, 0, 16), EXIT),
		     0x8877, "be16 swaps and zero-extends");
	CHECK_EQ_U64(R0("be32", LDDW(0, v), INS(BPF_ALU | BPF_END | BPF_TO_BE, 0, 0, 0, 32), EXIT),
		     0x88776655, "be32");
	CHECK_EQ_U64(R0("be64", LDDW(0, v), INS(BPF_ALU | BPF_END | BPF_TO_BE, 0, 0, 0, 64), EXIT),
		     0x8877665544332211, "be64");
	CHECK_EQ_U64(R0("bswap16", LDDW(0, v), INS(BPF_ALU64 | BPF_END, 0, 0, 0, 16), EXIT), 0x8877,
		     "bswap16");
	CHECK_EQ_U64(R0("bswap32", LDDW(0, v), INS(BPF_ALU64 | BPF_END, 0, 0, 0, 32), EXIT),
		     0x88776655, "bswap32");
	CHECK_EQ_U64(R0("bswap64", LDDW(0, v), INS(BPF_ALU64 | BPF_END, 0, 0, 0, 64), EXIT),
		     0x8877665544332211, "bswap64");
	CHECK_EQ_U64(R0("lddw", LDDW(0, v), EXIT), v, "lddw");
	/* jumps: gotol, ja, JMP32 compares only the low halves */
	CHECK_EQ_U64(R0("gotol", MOV64I(0, 1), INS(BPF_JMP32 | BPF_JA, 0, 0, 0, 1), EXIT,
			MOV64I(0, 2), EXIT), 2, "gotol jumps by imm");
	CHECK_EQ_U64(R0("ja", MOV64I(0, 1), JA(1), EXIT, MOV64I(0, 3), EXIT), 3, "ja");
	CHECK_EQ_U64(R0("jmp32 low half", LDDW(1, 0x100000005), MOV64I(0, 0),
			INS(BPF_JMP32 | BPF_JEQ | BPF_K, 1, 0, 1, 5), EXIT, MOV64I(0, 1), EXIT), 1,
		     "jeq32 ignores the high half");
}

static void test_memory(void)
{
	struct interp_result res;
	struct interp_env env;
	uint8_t in[16] = { 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 1, 2, 3, 4, 5, 6, 7, 8 };

	memset(&env, 0, sizeof(env));
	env.input = in;
	env.input_len = sizeof(in);
	/* loads of each width, zero- and sign-extending, from the input */
	RUN(&env, &res, LDX(BPF_B, 0, 1, 0), EXIT);
	CHECK_EQ_U64(res.r0, 0x81, "ldxb");
	RUN(&env, &res, LDX(BPF_H, 0, 1, 0), EXIT);
	CHECK_EQ_U64(res.r0, 0x8281, "ldxh little-endian");
	RUN(&env, &res, LDX(BPF_W, 0, 1, 1), EXIT);
	CHECK_EQ_U64(res.r0, 0x85848382, "ldxw unaligned");
	RUN(&env, &res, LDX(BPF_DW, 0, 1, 8), EXIT);
	CHECK_EQ_U64(res.r0, 0x0807060504030201, "ldxdw");
	RUN(&env, &res, LDXS(BPF_B, 0, 1, 0), EXIT);
	CHECK_EQ_U64(res.r0, 0xffffffffffffff81, "ldxsb");
	RUN(&env, &res, LDXS(BPF_H, 0, 1, 0), EXIT);
	CHECK_EQ_U64(res.r0, 0xffffffffffff8281, "ldxsh");
	RUN(&env, &res, LDXS(BPF_W, 0, 1, 0), EXIT);
	CHECK_EQ_U64(res.r0, 0xffffffff84838281, "ldxsw");
	RUN(&env, &res, LDXS(BPF_W, 0, 1, 8), EXIT);
	CHECK_EQ_U64(res.r0, 0x04030201, "ldxsw positive");
	RUN(&env, &res, MOV64R(0, 2), EXIT);
	CHECK_EQ_U64(res.r0, sizeof(in), "plain ctx: r2 = length");
	RUN(&env, &res, MOV64R(0, 1), EXIT);
	CHECK_EQ_U64(res.r0, INTERP_VA_CTX, "plain ctx: r1 = INTERP_VA_CTX");
	/* stores to the input reach the caller's buffer */
	RUN(&env, &res, ST(BPF_H, 1, 2, 0x1234), MOV64I(0, 0), EXIT);
	CHECK(in[2] == 0x34 && in[3] == 0x12, "sth writes the input: %02x %02x", in[2], in[3]);
	/* stack: st of each width, sign-extended 64-bit immediate, stx */
	RUN(NULL, &res, ST(BPF_DW, 10, -8, -2), LDX(BPF_DW, 0, 10, -8), EXIT);
	CHECK_EQ_U64(res.r0, 0xfffffffffffffffe, "stdw sign-extends imm");
	RUN(NULL, &res, ST(BPF_W, 10, -8, -2), LDX(BPF_DW, 0, 10, -8), EXIT);
	CHECK_EQ_U64(res.r0, 0xfffffffe, "stw writes 4 bytes");
	RUN(NULL, &res, ST(BPF_B, 10, -1, 0x1ff), LDX(BPF_B, 0, 10, -1), EXIT);
	CHECK_EQ_U64(res.r0, 0xff, "stb truncates");
	RUN(NULL, &res, LDDW(1, 0x1122334455667788), STX(BPF_DW, 10, 1, -16),
	    STX(BPF_H, 10, 1, -16), LDX(BPF_DW, 0, 10, -16), EXIT);
	CHECK_EQ_U64(res.r0, 0x1122334455667788, "stx dw then h");
	RUN(NULL, &res, LDX(BPF_DW, 0, 10, -512), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 0, "the stack starts zeroed, fp-512 is valid");
	RUN(NULL, &res, MOV64R(0, 10), EXIT);
	CHECK_EQ_U64(res.r0, FP0, "r10 = INTERP_VA_STACK + 512");
	/* load-acquire and store-release */
	RUN(NULL, &res, MOV64I(1, 77), ATOM(BPF_W, 10, 1, -4, BPF_STORE_REL),
	    ATOM(BPF_W, 0, 10, -4, BPF_LOAD_ACQ), EXIT);
	CHECK_EQ_U64(res.r0, 77, "store_release + load_acquire");
	RUN(NULL, &res, MOV64I(1, -1), ATOM(BPF_B, 10, 1, -1, BPF_STORE_REL),
	    ATOM(BPF_B, 0, 10, -1, BPF_LOAD_ACQ), EXIT);
	CHECK_EQ_U64(res.r0, 0xff, "load_acquire zero-extends");
}

static void test_atomics(void)
{
	/* memory 0x11110000f0f0f0f0, operand 0x0ff00ff0; low32 = the 32-bit op's low half */
	static const struct { int32_t op; uint32_t low32; } ops[] = {
		{ BPF_ADD, 0xf0f0f0f0u + 0x0ff00ff0u },
		{ BPF_OR, 0xf0f0f0f0u | 0x0ff00ff0u },
		{ BPF_AND, 0xf0f0f0f0u & 0x0ff00ff0u },
		{ BPF_XOR, 0xf0f0f0f0u ^ 0x0ff00ff0u },
	};
	struct interp_result res;
	const uint64_t init = 0x11110000f0f0f0f0ull;

	for (size_t k = 0; k < ARRAY_SIZE(ops); k++) {
		for (int fetch = 0; fetch <= 1; fetch++) {
			int32_t op = ops[k].op | (fetch ? BPF_FETCH : 0);
			uint64_t want64, want32;
			char what[64];

			want64 = ops[k].op == BPF_ADD ? init + 0x0ff00ff0 :
				 ops[k].op == BPF_OR ? (init | 0x0ff00ff0) :
				 ops[k].op == BPF_AND ? (init & 0x0ff00ff0) : (init ^ 0x0ff00ff0);
			want32 = (init & 0xffffffff00000000ull) | ops[k].low32;
			/* 64-bit: r0 = memory after, r1 = fetched */
			RUN(NULL, &res, LDDW(2, init), STX(BPF_DW, 10, 2, -8),
			    MOV64I(1, 0x0ff00ff0), ATOM(BPF_DW, 10, 1, -8, op),
			    LDX(BPF_DW, 0, 10, -8), EXIT);
			snprintf(what, sizeof(what), "atomic64 op 0x%x mem", op);
			CHECK_EQ_U64(res.r0, want64, what);
			snprintf(what, sizeof(what), "atomic64 op 0x%x r1", op);
			CHECK_EQ_U64(res.regs[1], fetch ? init : 0x0ff00ff0, what);
			/* 32-bit on the low half of the word */
			RUN(NULL, &res, LDDW(2, init), STX(BPF_DW, 10, 2, -8),
			    LDDW(1, 0xab0000000ff00ff0), ATOM(BPF_W, 10, 1, -8, op),
			    LDX(BPF_DW, 0, 10, -8), EXIT);
			snprintf(what, sizeof(what), "atomic32 op 0x%x mem", op);
			CHECK_EQ_U64(res.r0, want32, what);
			snprintf(what, sizeof(what), "atomic32 op 0x%x r1", op);
			CHECK_EQ_U64(res.regs[1], fetch ? 0xf0f0f0f0 : 0xab0000000ff00ff0, what);
		}
	}
	/* xchg */
	RUN(NULL, &res, LDDW(2, init), STX(BPF_DW, 10, 2, -8), MOV64I(1, 5),
	    ATOM(BPF_DW, 10, 1, -8, BPF_XCHG), LDX(BPF_DW, 0, 10, -8), EXIT);
	CHECK(res.r0 == 5 && res.regs[1] == init, "xchg64: mem %llx r1 %llx",
	      (unsigned long long)res.r0, (unsigned long long)res.regs[1]);
	RUN(NULL, &res, LDDW(2, init), STX(BPF_DW, 10, 2, -8), LDDW(1, 0x7700000005),
	    ATOM(BPF_W, 10, 1, -8, BPF_XCHG), LDX(BPF_DW, 0, 10, -8), EXIT);
	CHECK(res.r0 == 0x1111000000000005 && res.regs[1] == 0xf0f0f0f0,
	      "xchg32: mem %llx r1 %llx", (unsigned long long)res.r0,
	      (unsigned long long)res.regs[1]);
	/* cmpxchg: success and failure, 64 and 32 bits; r0 gets the old value */
	RUN(NULL, &res, LDDW(2, init), STX(BPF_DW, 10, 2, -8), LDDW(0, init), MOV64I(1, 9),
	    ATOM(BPF_DW, 10, 1, -8, BPF_CMPXCHG), LDX(BPF_DW, 3, 10, -8), EXIT);
	CHECK(res.r0 == init && res.regs[3] == 9, "cmpxchg64 success");
	RUN(NULL, &res, LDDW(2, init), STX(BPF_DW, 10, 2, -8), MOV64I(0, 1), MOV64I(1, 9),
	    ATOM(BPF_DW, 10, 1, -8, BPF_CMPXCHG), LDX(BPF_DW, 3, 10, -8), EXIT);
	CHECK(res.r0 == init && res.regs[3] == init, "cmpxchg64 failure");
	RUN(NULL, &res, LDDW(2, init), STX(BPF_DW, 10, 2, -8),
	    LDDW(0, 0xffffffff00000000 | 0xf0f0f0f0), MOV64I(1, 9),
	    ATOM(BPF_W, 10, 1, -8, BPF_CMPXCHG), LDX(BPF_DW, 3, 10, -8), EXIT);
	CHECK(res.r0 == 0xf0f0f0f0 && res.regs[3] == 0x1111000000000009,
	      "cmpxchg32 success compares the low half of r0, zero-extends: r0 %llx mem %llx",
	      (unsigned long long)res.r0, (unsigned long long)res.regs[3]);
	RUN(NULL, &res, LDDW(2, init), STX(BPF_DW, 10, 2, -8), MOV64I(0, 3), MOV64I(1, 9),
	    ATOM(BPF_W, 10, 1, -8, BPF_CMPXCHG), LDX(BPF_DW, 3, 10, -8), EXIT);
	CHECK(res.r0 == 0xf0f0f0f0 && res.regs[3] == init, "cmpxchg32 failure");
}

static void expect_trap(const struct interp_result *res, enum interp_trap t, uint32_t pc,
			const char *needle, const char *what)
{
	CHECK(res->trap == t && res->trap_pc == pc && strstr(res->reason, needle),
	      "%s: trap %d at %u '%s', expected trap %d at %u with '%s'", what, res->trap,
	      res->trap_pc, res->reason, t, pc, needle);
}

static void test_traps(void)
{
	struct interp_result res;
	struct interp_env env;
	uint8_t in[8] = { 0 };

	RUN(NULL, &res, MOV64I(0, 1), LDX(BPF_DW, 0, 10, -520), EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 1, "outside every region", "below the stack");
	CHECK(!strcmp(res.reason, "pc 1: 8-byte load at 0xffffffffff8 (no region) is outside every "
		      "region"), "reason: %s", res.reason);
	CHECK(res.steps == 1 && res.r0 == 1, "a trap counts the completed steps only (%llu)",
	      (unsigned long long)res.steps);
	RUN(NULL, &res, LDX(BPF_DW, 0, 10, 0), EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 0, "fp+0 of frame 0, in frame 1, which is not live",
		    "above the stack");
	RUN(NULL, &res, LDX(BPF_DW, 0, 10, -4), EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 0, "runs past the end", "straddles the stack top");
	CHECK(strstr(res.reason, "8-byte load at 0x1000000001fc (fp-4 of frame 0)") != NULL,
	      "reason: %s", res.reason);
	RUN(NULL, &res, ST(BPF_W, 10, -520, 1), EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 0, "4-byte store", "store below the stack");
	memset(&env, 0, sizeof(env));
	env.input = in;
	env.input_len = sizeof(in);
	RUN(&env, &res, LDX(BPF_W, 0, 1, 6), EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 0, "runs past the end", "straddles the input end");
	RUN(&env, &res, LDX(BPF_B, 0, 1, -1), EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 0, "outside every region", "before the input");
	RUN(&env, &res, LDX(BPF_B, 0, 1, 8), EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 0, "ctx+8; the context is 8 bytes", "past the input");
	RUN(NULL, &res, MOV64I(1, 0), LDX(BPF_B, 0, 1, 0), EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 1, "no region", "NULL");
	/* a load through a map handle reads the map's kernel struct as a kernel object's bytes
	 * (INTERP_VA_BTF little-endian: byte 5 is 0x80), and says so; a store there traps */
	RUN(NULL, &res, LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 0, 0), LDX(BPF_W, 0, 1, 4), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == (uint32_t)(INTERP_VA_BTF >> 32) && res.kernel_read,
	      "load from a map handle: trap %d r0 0x%llx kernel_read %d", res.trap,
	      (unsigned long long)res.r0, res.kernel_read);
	RUN(NULL, &res, LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 0, 0), MOV64I(0, 0), EXIT);
	CHECK(res.trap == INTERP_OK && !res.kernel_read, "no load from a map handle: kernel_read %d",
	      res.kernel_read);
	RUN(NULL, &res, LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 0, 0), ST(BPF_B, 1, 0, 1), EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 2, "map handle", "store into a map handle");
	RUN(NULL, &res, MOV64I(1, 0), ATOM(BPF_DW, 10, 1, -4, BPF_ADD), EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 1, "8-byte atomic", "straddling atomic");
	/* a write to r10 (a valid encoding the verifier refuses where it reaches it): the run
	 * stops there, r10 unchanged for nothing after it; movsx and a load into r10 too */
	RUN(NULL, &res, MOV64I(0, 0), MOV64I(10, 1), EXIT);
	expect_trap(&res, INTERP_TRAP_RULE, 1, "write to r10", "r10 = 1");
	RUN(NULL, &res, MOV64I(1, 1), INS(BPF_ALU64 | BPF_MOV | BPF_X, 10, 1, 8, 0), EXIT);
	expect_trap(&res, INTERP_TRAP_RULE, 1, "write to r10", "r10 = (s8)r1");
	RUN(NULL, &res, LDX(BPF_DW, 10, 10, -8), EXIT);
	expect_trap(&res, INTERP_TRAP_RULE, 0, "write to r10", "r10 = *(u64 *)(r10 - 8)");
	/* step budget: an endless loop stops after exactly the budget */
	memset(&env, 0, sizeof(env));
	env.step_budget = 1000;
	RUN(&env, &res, MOV64I(0, 0), ALU64I(BPF_ADD, 0, 1), JA(-2), EXIT);
	expect_trap(&res, INTERP_TRAP_STEPS, 1 + (999 % 2), "budget of 1000", "budget");
	CHECK(res.steps == 1000 && res.r0 == 500, "budget: steps %llu r0 %llu",
	      (unsigned long long)res.steps, (unsigned long long)res.r0);
	/* call depth: unbounded recursion */
	RUN(NULL, &res, CALLL(-1), EXIT);
	expect_trap(&res, INTERP_TRAP_LIMIT, 0, "deeper than 8 frames", "recursion");
	CHECK(res.frame == 7, "trap in frame 7, got %u", res.frame);
	RUN(NULL, &res, CALL(9999), EXIT);
	expect_trap(&res, INTERP_TRAP_CALL, 0, "(id 9999) is not modeled", "unknown helper");
	RUN(NULL, &res, CALL(BPF_FUNC_kptr_xchg), EXIT);
	expect_trap(&res, INTERP_TRAP_CALL, 0, "bpf_kptr_xchg (id 194)", "unmodeled helper");
	RUN(NULL, &res, INS(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, 1234), EXIT);
	expect_trap(&res, INTERP_TRAP_CALL, 0, "kfunc", "kfunc");
	RUN(NULL, &res, MOV64I(2, 5), CALLX(2), EXIT);
	expect_trap(&res, INTERP_TRAP_CALL, 1, "not a function address", "callx of a number");
	RUN(NULL, &res, LDDW_SRC(1, BPF_PSEUDO_BTF_ID, 7, 0), EXIT);
	expect_trap(&res, INTERP_TRAP_CALL, 0, "kernel symbol", "ksym");
	RUN(NULL, &res, LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 0, 0), CALL(BPF_FUNC_map_lookup_elem), EXIT);
	expect_trap(&res, INTERP_TRAP_HELPER, 2, "not a map handle", "lookup without maps");
	/* bpf_get_netns_cookie's context or NULL (ARG_PTR_TO_CTX_OR_NULL): anything else traps */
	RUN(NULL, &res, MOV64I(1, 5), CALL(BPF_FUNC_get_netns_cookie), EXIT);
	expect_trap(&res, INTERP_TRAP_HELPER, 1, "is not the context nor NULL", "netns cookie of 5");
	RUN(NULL, &res, MOV64I(1, 0), CALL(BPF_FUNC_get_netns_cookie), MOV64I(0, 7), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 7, "netns cookie of NULL: trap %d r0 %llu",
	      res.trap, (unsigned long long)res.r0);
	/* misuse */
	{
		struct interp_env e;

		memset(&e, 0, sizeof(e));
		CHECK(interp_run(NULL, &e, &res) == -EINVAL, "NULL code");
	}
	{
		const struct bpf_insn bad[] = { INS(BPF_ALU64 | BPF_MOV | BPF_K, 11, 0, 0, 0),
						EXIT };
		struct ebpf_prog prog = { .insns = (struct bpf_insn *)bad, .len = 2 };
		struct interp_code *code = NULL;
		struct diag d;

		diag_clear(&d);
		CHECK(interp_prepare(&code, &prog, &d) == -EINVAL && !code,
		      "prepare refuses an invalid program");
	}
}

static void test_calls(void)
{
	struct interp_result res;

	/* r1-r5 in, r0 out, r6-r9 restored, r1-r5 poisoned afterwards */
	RUN(NULL, &res, MOV64I(1, 10), MOV64I(2, 20), MOV64I(6, 6), MOV64I(9, 9), CALLL(2),
	    ALU64I(BPF_ADD, 0, 0), EXIT,
	    /* callee */ MOV64R(0, 1), ALU64R(BPF_ADD, 0, 2), MOV64I(6, 66), MOV64I(9, 99), EXIT);
	CHECK_EQ_U64(res.r0, 30, "callee result");
	CHECK(res.regs[6] == 6 && res.regs[9] == 9, "r6-r9 restored");
	CHECK(res.regs[1] == INTERP_POISON && res.regs[5] == INTERP_POISON,
	      "r1-r5 poisoned after a call");
	CHECK_EQ_U64(res.regs[10], FP0, "r10 restored");
	/* callee: fresh frame one below, r0/r6 poisoned on entry, caller's stack reachable */
	RUN(NULL, &res, ST(BPF_DW, 10, -8, 42), MOV64R(1, 10), CALLL(1), EXIT,
	    /* callee */ LDX(BPF_DW, 0, 1, -8), LDX(BPF_DW, 2, 10, -8), ALU64R(BPF_ADD, 0, 2),
	    MOV64R(3, 10), MOV64R(4, 6), EXIT);
	CHECK_EQ_U64(res.r0, 42, "callee reads the caller's stack; its own starts zeroed");
	CHECK_EQ_U64(res.regs[3], INTERP_POISON, "r3 after the call");
	RUN(NULL, &res, CALLL(1), EXIT, MOV64R(0, 10), ALU64R(BPF_ADD, 0, 6), EXIT);
	CHECK_EQ_U64(res.r0, FP0 + EBPF_STACK_SIZE + INTERP_POISON, "callee r10 and poisoned r6");
	/* a pointer into a frame that has returned traps */
	RUN(NULL, &res, CALLL(2), LDX(BPF_DW, 0, 0, 0), EXIT, MOV64R(0, 10),
	    ALU64I(BPF_ADD, 0, -8), EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 1, "fp+504 of frame 0, in frame 1, which is not live",
		    "dead frame");
	/* a trap inside a callee reports its frame */
	RUN(NULL, &res, CALLL(1), EXIT, LDX(BPF_DW, 0, 10, 8), EXIT);
	CHECK(res.trap == INTERP_TRAP_MEM && res.frame == 1 && res.trap_pc == 2,
	      "trap in callee: frame %u pc %u", res.frame, res.trap_pc);
	/* 8 frames are fine, the 9th traps */
	RUN(NULL, &res, MOV64I(1, 6), CALLL(1), EXIT,
	    /* f at depth d gets r1 = 7 - d: returns 100 at depth 7, one more per level above */
	    JI(BPF_JEQ, 1, 0, 4), ALU64I(BPF_ADD, 1, -1), CALLL(-3), ALU64I(BPF_ADD, 0, 1), EXIT,
	    MOV64I(0, 100), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 106, "8 frames: trap %d r0 %llu", res.trap,
	      (unsigned long long)res.r0);
	RUN(NULL, &res, MOV64I(1, 7), CALLL(1), EXIT, JI(BPF_JEQ, 1, 0, 4), ALU64I(BPF_ADD, 1, -1),
	    CALLL(-3), ALU64I(BPF_ADD, 0, 1), EXIT, MOV64I(0, 100), EXIT);
	expect_trap(&res, INTERP_TRAP_LIMIT, 5, "deeper than 8", "9 frames");
	/* combined stack: frames' deepest bytes, each rounded up to 16, at most 512 in all
	 * (the kernel's check_max_stack_depth for JIT-compiled programs: 256 + 256 passes,
	 * 256 + 257 is 528) */
	RUN(NULL, &res, ST(BPF_B, 10, -256, 1), CALLL(2), LDX(BPF_B, 0, 10, -256), EXIT,
	    ST(BPF_B, 10, -256, 2), LDX(BPF_B, 0, 10, -256), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 1, "256 + 256 bytes: %s", res.reason);
	RUN(NULL, &res, ST(BPF_B, 10, -256, 1), CALLL(2), LDX(BPF_B, 0, 10, -256), EXIT,
	    ST(BPF_B, 10, -257, 2), LDX(BPF_B, 0, 10, -257), EXIT);
	expect_trap(&res, INTERP_TRAP_LIMIT, 4, "more than the kernel's 512", "256 + 257 bytes");
	/* the caller's frame grows after the callee returned: only live frames count */
	RUN(NULL, &res, CALLL(3), ST(BPF_B, 10, -512, 1), LDX(BPF_B, 0, 10, -512), EXIT,
	    ST(BPF_B, 10, -512, 2), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 1, "512 after a 512-byte callee: %s", res.reason);
	/* a callee writing its caller's frame deepens the caller's, not its own */
	RUN(NULL, &res, MOV64R(1, 10), ALU64I(BPF_ADD, 1, -512), CALLL(2), LDX(BPF_B, 0, 10, -512),
	    EXIT, ST(BPF_B, 1, 0, 7), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 7, "callee writes fp-512 of its caller: %s",
	      res.reason);
	RUN(NULL, &res, MOV64R(1, 10), ALU64I(BPF_ADD, 1, -512), CALLL(2), LDX(BPF_B, 0, 10, -512),
	    EXIT, ST(BPF_B, 1, 0, 7), ST(BPF_B, 10, -1, 7), EXIT);
	expect_trap(&res, INTERP_TRAP_LIMIT, 6, "more than the kernel's 512", "512 + 1 bytes");
	/* callx through LD_IMM64 of a function */
	RUN(NULL, &res, LDDW_SRC(2, BPF_PSEUDO_FUNC, 5, 0), MOV64I(1, 5), CALLX(2),
	    ALU64I(BPF_ADD, 0, 1), EXIT, MOV64R(0, 1), ALU64I(BPF_MUL, 0, 3), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 16, "callx: %s r0 %llu", res.reason,
	      (unsigned long long)res.r0);
	RUN(NULL, &res, LDDW_SRC(0, BPF_PSEUDO_FUNC, 2, 0), EXIT, EXIT);
	CHECK_EQ_U64(res.r0, INTERP_VA_FUNC + 3, "LD_IMM64 func value");
	/* may_goto: the budget per frame is 8M, then it jumps */
	RUN(NULL, &res, MOV64I(0, 0), INS(BPF_JMP | BPF_JCOND, 0, BPF_MAY_GOTO, 2, 0),
	    ALU64I(BPF_ADD, 0, 1), JA(-3), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == INTERP_MAY_GOTO_BUDGET, "may_goto: r0 %llu",
	      (unsigned long long)res.r0);
}

/* bpf_loop(nr, cb, &fp[-8], flags): the callback adds its index (plus its own fp-8 and r5, both
 * 0 in a fresh frame) into the caller's fp-8 and stops after index stop; main returns
 * ret * 10^6 + sum * 1000 + r6 (77: the caller's r6 survives the callback's). */
static void bpf_loop_case(uint64_t nr, int32_t flags, int32_t stop, uint64_t want_ret,
			  uint64_t want_sum, const char *what)
{
	struct interp_result res;

	RUN(NULL, &res, MOV64I(6, 77), ST(BPF_DW, 10, -8, 0), LDDW(1, nr),
	    LDDW_SRC(2, BPF_PSEUDO_FUNC, 16 - 5, 0), MOV64R(3, 10), ALU64I(BPF_ADD, 3, -8),
	    MOV64I(4, flags), CALL(BPF_FUNC_loop), LDX(BPF_DW, 7, 10, -8),
	    ALU64I(BPF_MUL, 7, 1000), ALU64I(BPF_MUL, 0, 1000000), ALU64R(BPF_ADD, 0, 7),
	    ALU64R(BPF_ADD, 0, 6), EXIT,
	    /* 16: the callback */
	    LDX(BPF_DW, 3, 2, 0), LDX(BPF_DW, 4, 10, -8), ALU64R(BPF_ADD, 4, 5),
	    ALU64R(BPF_ADD, 3, 4), ALU64R(BPF_ADD, 3, 1), STX(BPF_DW, 2, 3, 0),
	    ST(BPF_DW, 10, -8, 99), MOV64I(6, 5), MOV64I(0, 0), JI(BPF_JNE, 1, stop, 1),
	    MOV64I(0, 1), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == want_ret * 1000000 + want_sum * 1000 + 77,
	      "bpf_loop %s: trap %d (%s), r0 %llu, expected ret %lld sum %llu", what, res.trap,
	      res.reason, (unsigned long long)res.r0, (long long)want_ret,
	      (unsigned long long)want_sum);
}

static void test_bpf_loop(void)
{
	struct interp_result res;

	bpf_loop_case(5, 0, -1, 5, 10, "5 calls");
	bpf_loop_case(5, 0, 2, 3, 3, "stops after index 2");
	bpf_loop_case(5, 0, 0, 1, 0, "stops at once");
	bpf_loop_case(0, 0, -1, 0, 0, "nr 0");
	bpf_loop_case(0x100000003ull, 0, -1, 3, 3, "nr is a u32");
	bpf_loop_case(5, 1, -1, (uint64_t)-EINVAL, 0, "flags 1");
	bpf_loop_case(INTERP_MAX_LOOPS + 1, 0, 0, (uint64_t)-E2BIG, 0, "nr 2^23 + 1");
	bpf_loop_case(INTERP_MAX_LOOPS, 0, 0, 1, 0, "nr 2^23");
	/* the callback's address must be a function */
	RUN(NULL, &res, MOV64I(1, 3), MOV64I(2, 0), MOV64I(3, 0), MOV64I(4, 0),
	    CALL(BPF_FUNC_loop), EXIT);
	expect_trap(&res, INTERP_TRAP_HELPER, 4, "not a function address", "bpf_loop r2 = 0");
	/* a callback is a frame: bpf_loop from depth 7 would make a 9th */
	RUN(NULL, &res, MOV64I(1, 6), CALLL(1), EXIT,
	    JI(BPF_JEQ, 1, 0, 4), ALU64I(BPF_ADD, 1, -1), CALLL(-3), ALU64I(BPF_ADD, 0, 1), EXIT,
	    MOV64I(1, 1), LDDW_SRC(2, BPF_PSEUDO_FUNC, 5, 0), MOV64I(3, 0), MOV64I(4, 0),
	    CALL(BPF_FUNC_loop), EXIT, MOV64I(0, 0), EXIT);
	expect_trap(&res, INTERP_TRAP_LIMIT, 13, "deeper than 8", "bpf_loop at depth 8");
}

static void test_contexts(void)
{
	struct interp_result res;
	struct interp_env env;
	uint8_t pkt[20];
	uint8_t init[sizeof(struct __sk_buff)] = { 0 };

	for (size_t k = 0; k < sizeof(pkt); k++)
		pkt[k] = (uint8_t)(0x10 + k);
	memset(&env, 0, sizeof(env));
	env.ctx_kind = INTERP_CTX_XDP;
	env.input = pkt;
	env.input_len = sizeof(pkt);
	/* data_end - data = packet length; the packet reads as the input */
	RUN(&env, &res, LDX(BPF_W, 2, 1, offsetof(struct xdp_md, data)),
	    LDX(BPF_W, 3, 1, offsetof(struct xdp_md, data_end)), MOV64R(0, 3),
	    ALU64R(BPF_SUB, 0, 2), LDX(BPF_B, 4, 2, 19),
	    LDX(BPF_W, 5, 1, offsetof(struct xdp_md, data_meta)), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == sizeof(pkt), "xdp len: %s %llu", res.reason,
	      (unsigned long long)res.r0);
	CHECK(res.regs[2] == INTERP_VA_PKT && res.regs[4] == 0x23 && res.regs[5] == INTERP_VA_PKT,
	      "xdp data, packet byte, data_meta");
	RUN(&env, &res, LDX(BPF_W, 2, 1, 0), LDX(BPF_B, 0, 2, 20), EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 1, "packet+20; the packet is 20 bytes", "past data_end");
	RUN(&env, &res, LDX(BPF_H, 0, 1, 0), EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 0, "may only be read whole", "narrow data load");
	RUN(&env, &res, LDX(BPF_DW, 0, 1, 0), EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 0, "may only be read whole", "wide data load");
	RUN(&env, &res, ST(BPF_W, 1, 12, 0), EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 0, "read-only xdp_md", "store to xdp_md");
	RUN(&env, &res, LDX(BPF_W, 0, 1, 24), EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 0, "ctx+24; the context is 24 bytes", "past xdp_md");
	init[offsetof(struct xdp_md, ingress_ifindex)] = 7;
	env.ctx_init = init;
	env.ctx_init_len = sizeof(struct xdp_md);
	RUN(&env, &res, LDX(BPF_W, 0, 1, offsetof(struct xdp_md, ingress_ifindex)), EXIT);
	CHECK_EQ_U64(res.r0, 7, "xdp ingress_ifindex from ctx_init");
	RUN(&env, &res, LDX(BPF_W, 2, 1, 0), ST(BPF_B, 2, 0, 0x99), MOV64I(0, 0), EXIT);
	CHECK(res.trap == INTERP_OK && pkt[0] == 0x99, "xdp packet is writable");

	/* sk_reuseport: struct sk_reuseport_md, then the packet (read only) */
	{
		uint8_t in[sizeof(struct sk_reuseport_md) + 6] = { 0 };
		const size_t po = sizeof(struct sk_reuseport_md);

		for (size_t k = po; k < sizeof(in); k++)
			in[k] = (uint8_t)(0x40 + k - po);
		in[offsetof(struct sk_reuseport_md, hash)] = 0x77;
		memset(&env, 0, sizeof(env));
		env.ctx_kind = INTERP_CTX_RO;
		env.prog_type = BPF_PROG_TYPE_SK_REUSEPORT;
		env.input = in;
		env.input_len = sizeof(in);
		CHECK_EQ_U64(interp_input_pkt_off(INTERP_CTX_RO, BPF_PROG_TYPE_SK_REUSEPORT,
						  sizeof(in)), po, "sk_reuseport: packet offset");
		CHECK_EQ_U64(interp_input_pkt_off(INTERP_CTX_RO, BPF_PROG_TYPE_KPROBE, sizeof(in)),
			     sizeof(in), "kprobe: no packet");
		RUN(&env, &res, LDX(BPF_DW, 2, 1, offsetof(struct sk_reuseport_md, data)),
		    LDX(BPF_DW, 3, 1, offsetof(struct sk_reuseport_md, data_end)),
		    LDX(BPF_B, 4, 2, 5), LDX(BPF_W, 5, 1, offsetof(struct sk_reuseport_md, hash)),
		    MOV64R(0, 3), ALU64R(BPF_SUB, 0, 2), EXIT);
		CHECK(res.trap == INTERP_OK && res.r0 == 6 && res.regs[2] == INTERP_VA_PKT &&
		      res.regs[4] == 0x45 && res.regs[5] == 0x77,
		      "sk_reuseport data, data_end, a packet byte, hash: %s", res.reason);
		RUN(&env, &res, LDX(BPF_DW, 2, 1, offsetof(struct sk_reuseport_md, data)),
		    LDX(BPF_B, 0, 2, 6), EXIT);
		expect_trap(&res, INTERP_TRAP_MEM, 1, "the packet is 6 bytes",
			    "sk_reuseport: past data_end");
		RUN(&env, &res, LDX(BPF_DW, 2, 1, offsetof(struct sk_reuseport_md, data)),
		    ST(BPF_B, 2, 0, 0x99), MOV64I(0, 0), EXIT);
		expect_trap(&res, INTERP_TRAP_MEM, 1, "may only read it", "sk_reuseport: a packet write");
		CHECK(in[po] == 0x40, "sk_reuseport: the packet is unchanged");
		RUN(&env, &res, LDX(BPF_W, 0, 1, po), EXIT);
		expect_trap(&res, INTERP_TRAP_MEM, 0, "", "sk_reuseport: past the context");
	}

	/* SKB */
	memset(&env, 0, sizeof(env));
	env.ctx_kind = INTERP_CTX_SKB;
	env.input = pkt;
	env.input_len = sizeof(pkt);
	memset(init, 0, sizeof(init));
	init[offsetof(struct __sk_buff, mark)] = 0x42;
	init[offsetof(struct __sk_buff, protocol)] = 0x08;
	init[offsetof(struct __sk_buff, len)] = 0xee;	/* ignored: len is the packet's */
	env.ctx_init = init;
	env.ctx_init_len = sizeof(init);
	RUN(&env, &res, LDX(BPF_W, 0, 1, offsetof(struct __sk_buff, len)),
	    LDX(BPF_W, 2, 1, offsetof(struct __sk_buff, data)),
	    LDX(BPF_W, 3, 1, offsetof(struct __sk_buff, data_end)),
	    LDX(BPF_W, 4, 1, offsetof(struct __sk_buff, mark)),
	    LDX(BPF_H, 5, 1, offsetof(struct __sk_buff, protocol)),
	    LDX(BPF_DW, 6, 1, offsetof(struct __sk_buff, sk)), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == sizeof(pkt) && res.regs[2] == INTERP_VA_PKT &&
	      res.regs[3] == INTERP_VA_PKT + sizeof(pkt) && res.regs[4] == 0x42 &&
	      res.regs[5] == 8 && res.regs[6] == 0, "skb fields: %s", res.reason);
	RUN(&env, &res, ST(BPF_W, 1, offsetof(struct __sk_buff, mark), 5),
	    ST(BPF_W, 1, offsetof(struct __sk_buff, cb) + 16, 6),
	    LDX(BPF_W, 0, 1, offsetof(struct __sk_buff, mark)),
	    LDX(BPF_W, 2, 1, offsetof(struct __sk_buff, cb) + 16), ALU64R(BPF_ADD, 0, 2), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 11, "skb mark and cb writable: %s", res.reason);
	env.ctx_init = NULL;
	RUN(&env, &res, LDX(BPF_W, 0, 1, offsetof(struct __sk_buff, protocol)), EXIT);
	CHECK_EQ_U64(res.r0, 0x1d1c, "skb protocol defaults to the ethertype, network order");
	env.ctx_init = init;
	RUN(&env, &res, ST(BPF_W, 1, offsetof(struct __sk_buff, len), 5), EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 0, "read-only __sk_buff field", "store to skb->len");
	RUN(&env, &res, ST(BPF_DW, 1, offsetof(struct __sk_buff, cb) + 16, 5), EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 0, "read-only __sk_buff field", "store past cb[4]");
	RUN(&env, &res, MOV64I(2, 1), ATOM(BPF_W, 1, 2, offsetof(struct __sk_buff, mark), BPF_ADD),
	    EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 1, "atomic on the context", "atomic on ctx");
	/* LD_ABS / LD_IND: big-endian, r1-r5 clobbered, out of bounds ends with r0 = 0 */
	pkt[0] = 0x10;
	RUN(&env, &res, MOV64R(6, 1), LDABS(BPF_W, 0), MOV64R(7, 0), LDABS(BPF_H, 4),
	    MOV64R(8, 0), MOV64I(9, 2), LDIND(BPF_B, 9, 17), EXIT);
	CHECK(res.trap == INTERP_OK && res.regs[7] == 0x10111213 && res.regs[8] == 0x1415 &&
	      res.r0 == 0x23 && res.regs[1] == INTERP_POISON, "ld_abs/ld_ind: %s", res.reason);
	RUN(&env, &res, MOV64R(6, 1), MOV64I(0, 7), LDABS(BPF_W, 17), MOV64I(0, 9), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 0 && res.steps == 3,
	      "ld_abs out of bounds ends the program: r0 %llu steps %llu",
	      (unsigned long long)res.r0, (unsigned long long)res.steps);
	/* in a static function it returns 0 from the function (bpf_gen_ld_abs's exit): main goes
	 * on with r0 = 0 and its r6 (fails on 2724396, which ended the program: r0 0, steps 5) */
	RUN(&env, &res, MOV64R(6, 1), CALLL(4), MOV64R(1, 0), ALU64I(BPF_ADD, 1, 40),
	    MOV64R(0, 1), EXIT, MOV64I(6, 0), MOV64R(6, 1), LDABS(BPF_W, 17), MOV64I(0, 9), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 40 && res.steps == 9 && res.regs[6] != 0,
	      "ld_abs out of bounds in a static function returns 0 from it: r0 %llu steps %llu",
	      (unsigned long long)res.r0, (unsigned long long)res.steps);
	RUN(&env, &res, MOV64R(6, 1), MOV64I(2, -1), MOV64I(0, 7), LDIND(BPF_B, 2, 0), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 0, "ld_ind negative offset ends the program");
	RUN(&env, &res, MOV64R(6, 1), LDDW(2, 0x100000000), LDIND(BPF_B, 2, 1), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 0x11, "ld_ind offset is 32-bit: r0 %llx",
	      (unsigned long long)res.r0);
}

static void test_maps(void)
{
	struct interp_result res;
	struct interp_env env;
	struct interp_map maps[4];
	uint8_t vals[3 * 8] = { 0 };
	uint8_t gdata[8] = { 0xaa, 0xbb, 0, 0, 0, 0, 0, 0 };

	memset(maps, 0, sizeof(maps));
	strcpy(maps[0].def.name, "arr");
	maps[0].def.type = BPF_MAP_TYPE_ARRAY;
	maps[0].def.key_size = 4;
	maps[0].def.value_size = 8;
	maps[0].def.max_entries = 3;
	maps[0].values = vals;
	strcpy(maps[1].def.name, "h");
	maps[1].def.type = BPF_MAP_TYPE_HASH;
	maps[1].def.key_size = 4;
	maps[1].def.value_size = 8;
	maps[1].def.max_entries = 2;
	strcpy(maps[2].def.name, ".data");
	maps[2].def.type = BPF_MAP_TYPE_ARRAY;
	maps[2].def.key_size = 4;
	maps[2].def.value_size = 8;
	maps[2].def.max_entries = 1;
	maps[2].def.init = gdata;
	strcpy(maps[3].def.name, "rb");
	maps[3].def.type = BPF_MAP_TYPE_RINGBUF;
	maps[3].def.max_entries = 4096;
	memset(&env, 0, sizeof(env));
	env.maps = maps;
	env.map_cnt = 4;

	/* array lookup in range: pointer into the values; store through it */
	RUN(&env, &res, ST(BPF_W, 10, -4, 2), LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 0, 0), MOV64R(2, 10),
	    ALU64I(BPF_ADD, 2, -4), CALL(BPF_FUNC_map_lookup_elem), JI(BPF_JEQ, 0, 0, 2),
	    ST(BPF_DW, 0, 0, 0x55), MOV64I(0, 1), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 1 && vals[16] == 0x55,
	      "array lookup [2] and store: %s r0 %llu", res.reason, (unsigned long long)res.r0);
	RUN(&env, &res, ST(BPF_W, 10, -4, 1), LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 0, 0), MOV64R(2, 10),
	    ALU64I(BPF_ADD, 2, -4), CALL(BPF_FUNC_map_lookup_elem), EXIT);
	CHECK_EQ_U64(res.r0, INTERP_VA_MAP + (1ull << interp_map_shift(&maps[0].def)),
		     "array lookup value address");
	CHECK(interp_map_shift(&maps[0].def) == 30, "3 values: a 2^30 stride (%u)",
	      interp_map_shift(&maps[0].def));
	RUN(&env, &res, ST(BPF_W, 10, -4, 3), LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 0, 0), MOV64R(2, 10),
	    ALU64I(BPF_ADD, 2, -4), CALL(BPF_FUNC_map_lookup_elem), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 0, "array lookup out of range gives 0");
	RUN(&env, &res, ST(BPF_W, 10, -4, 2), LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 0, 0), MOV64R(2, 10),
	    ALU64I(BPF_ADD, 2, -4), CALL(BPF_FUNC_map_lookup_elem), LDX(BPF_DW, 0, 0, 8), EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 6, "map 0 'arr' value 2+8; 3 values of 8 bytes) is "
		    "outside every region", "past the array");
	/* array update */
	RUN(&env, &res, ST(BPF_W, 10, -4, 0), ST(BPF_DW, 10, -16, 0x77),
	    LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 0, 0), MOV64R(2, 10), ALU64I(BPF_ADD, 2, -4),
	    MOV64R(3, 10), ALU64I(BPF_ADD, 3, -16), MOV64I(4, BPF_ANY),
	    CALL(BPF_FUNC_map_update_elem), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 0 && vals[0] == 0x77, "array update");
	/* global data through LD_IMM64 map value: initial contents, per-run storage */
	RUN(&env, &res, LDDW_SRC(1, BPF_PSEUDO_MAP_VALUE, 2, 1), LDX(BPF_B, 0, 1, 0),
	    ST(BPF_B, 1, 0, 1), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 0xbb && gdata[1] == 0xbb,
	      "global data: %s r0 %llx, init untouched", res.reason, (unsigned long long)res.r0);
	/* hash: absent, insert, present, update through the pointer, delete */
	RUN(&env, &res, ST(BPF_W, 10, -4, 7), ST(BPF_DW, 10, -16, 0x1234),
	    LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 1, 0), MOV64R(2, 10), ALU64I(BPF_ADD, 2, -4),
	    CALL(BPF_FUNC_map_lookup_elem), MOV64R(6, 0),			/* r6 = absent: 0 */
	    LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 1, 0), MOV64R(2, 10), ALU64I(BPF_ADD, 2, -4),
	    MOV64R(3, 10), ALU64I(BPF_ADD, 3, -16), MOV64I(4, BPF_NOEXIST),
	    CALL(BPF_FUNC_map_update_elem), MOV64R(7, 0),			/* r7 = 0 */
	    LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 1, 0), MOV64R(2, 10), ALU64I(BPF_ADD, 2, -4),
	    MOV64R(3, 10), ALU64I(BPF_ADD, 3, -16), MOV64I(4, BPF_NOEXIST),
	    CALL(BPF_FUNC_map_update_elem), MOV64R(8, 0),			/* r8 = -EEXIST */
	    LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 1, 0), MOV64R(2, 10), ALU64I(BPF_ADD, 2, -4),
	    CALL(BPF_FUNC_map_lookup_elem), LDX(BPF_DW, 9, 0, 0),		/* r9 = 0x1234 */
	    LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 1, 0), MOV64R(2, 10), ALU64I(BPF_ADD, 2, -4),
	    CALL(BPF_FUNC_map_delete_elem), STX(BPF_DW, 10, 0, -24),	/* fp-24 = 0 */
	    LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 1, 0), MOV64R(2, 10), ALU64I(BPF_ADD, 2, -4),
	    CALL(BPF_FUNC_map_delete_elem), STX(BPF_DW, 10, 0, -32),	/* fp-32 = -ENOENT */
	    LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 1, 0), MOV64R(2, 10), ALU64I(BPF_ADD, 2, -4),
	    CALL(BPF_FUNC_map_lookup_elem), EXIT);			/* r0 = 0 */
	CHECK(res.trap == INTERP_OK, "hash: %s", res.reason);
	CHECK(res.regs[6] == 0 && res.regs[7] == 0 && res.regs[8] == (uint64_t)-EEXIST &&
	      res.regs[9] == 0x1234 && res.r0 == 0, "hash: %llx %llx %llx %llx %llx",
	      (unsigned long long)res.regs[6], (unsigned long long)res.regs[7],
	      (unsigned long long)res.regs[8], (unsigned long long)res.regs[9],
	      (unsigned long long)res.r0);
	/* hash: a full table refuses, EXIST on absent refuses */
	RUN(&env, &res,
	    ST(BPF_W, 10, -4, 1), LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 1, 0), MOV64R(2, 10),
	    ALU64I(BPF_ADD, 2, -4), MOV64R(3, 10), ALU64I(BPF_ADD, 3, -16), MOV64I(4, 0),
	    CALL(BPF_FUNC_map_update_elem), MOV64R(6, 0),
	    ST(BPF_W, 10, -4, 2), LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 1, 0), MOV64R(2, 10),
	    ALU64I(BPF_ADD, 2, -4), MOV64R(3, 10), ALU64I(BPF_ADD, 3, -16), MOV64I(4, 0),
	    CALL(BPF_FUNC_map_update_elem), MOV64R(7, 0),
	    ST(BPF_W, 10, -4, 3), LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 1, 0), MOV64R(2, 10),
	    ALU64I(BPF_ADD, 2, -4), MOV64R(3, 10), ALU64I(BPF_ADD, 3, -16), MOV64I(4, 0),
	    CALL(BPF_FUNC_map_update_elem), MOV64R(8, 0),
	    LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 1, 0), MOV64R(2, 10), ALU64I(BPF_ADD, 2, -4),
	    MOV64R(3, 10), ALU64I(BPF_ADD, 3, -16), MOV64I(4, BPF_EXIST),
	    CALL(BPF_FUNC_map_update_elem), EXIT);
	CHECK(res.regs[6] == 0 && res.regs[7] == 0 && res.regs[8] == (uint64_t)-E2BIG &&
	      res.r0 == (uint64_t)-ENOENT, "hash capacity and flags");
	/* unmodeled map type; bad handle */
	RUN(&env, &res, ST(BPF_W, 10, -4, 0), LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 3, 0), MOV64R(2, 10),
	    ALU64I(BPF_ADD, 2, -4), CALL(BPF_FUNC_map_lookup_elem), EXIT);
	expect_trap(&res, INTERP_TRAP_HELPER, 5, "not modeled", "ringbuf lookup");
	RUN(&env, &res, LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 9, 0), MOV64R(2, 10),
	    CALL(BPF_FUNC_map_lookup_elem), EXIT);
	expect_trap(&res, INTERP_TRAP_HELPER, 3, "not a map handle", "map index 9");
	/* a key pointer outside memory */
	RUN(&env, &res, LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 0, 0), MOV64I(2, 0),
	    CALL(BPF_FUNC_map_lookup_elem), EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 3, "4-byte load at 0x0", "NULL key");
}

/* bpf_map_lookup_percpu_elem (issue 15): every CPU's copy of a per-CPU map's values.  With
 * interp_env.ncpus 3 and cpu 1: the running CPU's copy is the map's own window (its values),
 * another CPU's lies in INTERP_VA_PCPU and writes through it reach interp_map.pcpu's block of
 * that CPU only; a cpu past the CPUs (as a u32: the kernel's helper takes a u32) or a key that
 * finds nothing gives NULL; a map that is not per-CPU traps (the verifier refuses it); a new
 * hash element's other copies are zero (the kernel's update from a program, pcpu_init_value);
 * bpf_get_smp_processor_id is the running CPU when ncpus is set, drawn when not. */
static void test_percpu_lookup(void)
{
	struct interp_result res;
	struct interp_env env;
	struct interp_map maps[3];
	uint8_t own[2 * 8] = { 0 }, copies[3 * 2 * 8] = { 0 };
	uint8_t hd[4] = { 7, 0, 0, 0 };
	unsigned sh;

	memset(maps, 0, sizeof(maps));
	strcpy(maps[0].def.name, "pa");
	maps[0].def.type = BPF_MAP_TYPE_PERCPU_ARRAY;
	maps[0].def.key_size = 4;
	maps[0].def.value_size = 8;
	maps[0].def.max_entries = 2;
	maps[0].values = own;
	maps[0].pcpu = copies;
	strcpy(maps[1].def.name, "ph");
	maps[1].def.type = BPF_MAP_TYPE_PERCPU_HASH;
	maps[1].def.key_size = 4;
	maps[1].def.value_size = 8;
	maps[1].def.max_entries = 2;
	strcpy(maps[2].def.name, "arr");
	maps[2].def.type = BPF_MAP_TYPE_ARRAY;
	maps[2].def.key_size = 4;
	maps[2].def.value_size = 8;
	maps[2].def.max_entries = 2;
	memset(&env, 0, sizeof(env));
	env.maps = maps;
	env.map_cnt = 3;
	env.ncpus = 3;
	env.cpu = 1;
	sh = interp_map_shift(&maps[0].def);

#define PCPU(m, key, cpu) ST(BPF_W, 10, -4, key), LDDW_SRC(1, BPF_PSEUDO_MAP_FD, m, 0),      \
			  MOV64R(2, 10), ALU64I(BPF_ADD, 2, -4), MOV64I(3, cpu),              \
			  CALL(BPF_FUNC_map_lookup_percpu_elem)
	/* the running CPU's copy: the map's own window */
	RUN(&env, &res, PCPU(0, 1, 1), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == INTERP_VA_MAP + (1ull << sh),
	      "cpu 1 (the running one): %s r0 %llx", res.reason, (unsigned long long)res.r0);
	/* another CPU's: written through, only its block changes */
	RUN(&env, &res, PCPU(0, 1, 2), ST(BPF_DW, 0, 0, 0x55), EXIT);
	CHECK(res.trap == INTERP_OK &&
	      res.r0 == INTERP_VA_PCPU + ((2ull * 3 + 0) << 32) + (1ull << sh) &&
	      copies[(2 * 2 + 1) * 8] == 0x55 && own[8] == 0 && copies[(1 * 2 + 1) * 8] == 0 &&
	      copies[(0 * 2 + 1) * 8] == 0, "cpu 2's copy: %s r0 %llx", res.reason,
	      (unsigned long long)res.r0);
	/* read back through another lookup of it; the running CPU's copy stays */
	RUN(&env, &res, PCPU(0, 1, 2), LDX(BPF_DW, 6, 0, 0), PCPU(0, 1, 1), LDX(BPF_DW, 7, 0, 0),
	    MOV64R(0, 6), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 0x55 && res.regs[7] == 0,
	      "cpu 2's copy read back: %s r0 %llx r7 %llx", res.reason,
	      (unsigned long long)res.r0, (unsigned long long)res.regs[7]);
	/* NULL: cpu 3 (past 3 CPUs), key 2 (past 2 entries); a u32 cpu: 2^32 + 2 is cpu 2 */
	RUN(&env, &res, PCPU(0, 1, 3), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 0, "cpu 3 of 3: %llx",
	      (unsigned long long)res.r0);
	RUN(&env, &res, PCPU(0, 2, 0), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 0, "key 2 of 2: %llx",
	      (unsigned long long)res.r0);
	RUN(&env, &res, ST(BPF_W, 10, -4, 1), LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 0, 0), MOV64R(2, 10),
	    ALU64I(BPF_ADD, 2, -4), LDDW(3, 0x100000002ull),
	    CALL(BPF_FUNC_map_lookup_percpu_elem), LDX(BPF_DW, 0, 0, 0), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 0x55, "cpu 2^32 + 2 is cpu 2: %s r0 %llx",
	      res.reason, (unsigned long long)res.r0);
	/* each copy a region of its own: past the value traps */
	RUN(&env, &res, PCPU(0, 1, 0), LDX(BPF_DW, 0, 0, 4), EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 7, "CPU 0's copy of map 0 'pa' value 1+4",
		    "past cpu 0's copy");
	/* not a per-CPU map */
	RUN(&env, &res, PCPU(2, 0, 0), EXIT);
	expect_trap(&res, INTERP_TRAP_HELPER, 6, "is not a per-CPU map", "a plain array");
	/* a hash: key 5 inserted on cpu 1 (0x1234), cpu 0's copy is 0; written (0x99); deleted
	 * and inserted again: cpu 0's copy is 0 again */
	RUN(&env, &res, ST(BPF_DW, 10, -16, 0x1234), ST(BPF_W, 10, -4, 5),
	    LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 1, 0), MOV64R(2, 10), ALU64I(BPF_ADD, 2, -4),
	    MOV64R(3, 10), ALU64I(BPF_ADD, 3, -16), MOV64I(4, BPF_ANY),
	    CALL(BPF_FUNC_map_update_elem),
	    PCPU(1, 5, 0), LDX(BPF_DW, 6, 0, 0), ST(BPF_DW, 0, 0, 0x99),
	    PCPU(1, 5, 0), LDX(BPF_DW, 7, 0, 0),
	    PCPU(1, 5, 1), LDX(BPF_DW, 8, 0, 0),
	    LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 1, 0), MOV64R(2, 10), ALU64I(BPF_ADD, 2, -4),
	    CALL(BPF_FUNC_map_delete_elem),
	    LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 1, 0), MOV64R(2, 10), ALU64I(BPF_ADD, 2, -4),
	    MOV64R(3, 10), ALU64I(BPF_ADD, 3, -16), MOV64I(4, BPF_ANY),
	    CALL(BPF_FUNC_map_update_elem),
	    PCPU(1, 5, 0), LDX(BPF_DW, 9, 0, 0), PCPU(1, 6, 0), EXIT);
	CHECK(res.trap == INTERP_OK && res.regs[6] == 0 && res.regs[7] == 0x99 &&
	      res.regs[8] == 0x1234 && res.regs[9] == 0 && res.r0 == 0,
	      "hash copies: %s %llx %llx %llx %llx %llx", res.reason,
	      (unsigned long long)res.regs[6], (unsigned long long)res.regs[7],
	      (unsigned long long)res.regs[8], (unsigned long long)res.regs[9],
	      (unsigned long long)res.r0);
#undef PCPU
	/* bpf_get_smp_processor_id: the running CPU with ncpus set, drawn without */
	RUN(&env, &res, CALL(BPF_FUNC_get_smp_processor_id), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 1, "smp id with cpu 1: %llx",
	      (unsigned long long)res.r0);
	env.ncpus = 0;
	env.cpu = 0;
	env.helper_data = hd;
	env.helper_len = sizeof(hd);
	RUN(&env, &res, CALL(BPF_FUNC_get_smp_processor_id), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 7, "smp id drawn: %llx",
	      (unsigned long long)res.r0);
	/* the running CPU must be one of them */
	env.ncpus = 2;
	env.cpu = 2;
	CHECK(RUN(&env, &res, MOV64I(0, 0), EXIT) == -EINVAL, "cpu 2 of 2 refused");
}

/* Every map value is a region of its own (the kernel bounds each access through a map value
 * pointer by the value size): one byte past any element of an array, not only the last, or
 * before it, traps with the reason of a read past the last one; a read that straddles a
 * value's end, a store, a helper's memory argument and a hash table's value too.  The bytes
 * inside each value are the element's own. */
static void test_map_values(void)
{
	struct interp_result res;
	struct interp_env env;
	struct interp_map maps[2];
	uint8_t vals[4 * 64] = { 0 };
	char last[sizeof(res.reason)];
	const char *why;

	memset(maps, 0, sizeof(maps));
	strcpy(maps[0].def.name, "arr");
	maps[0].def.type = BPF_MAP_TYPE_ARRAY;
	maps[0].def.key_size = 4;
	maps[0].def.value_size = 64;
	maps[0].def.max_entries = 4;
	maps[0].values = vals;
	strcpy(maps[1].def.name, "h");
	maps[1].def.type = BPF_MAP_TYPE_HASH;
	maps[1].def.key_size = 4;
	maps[1].def.value_size = 16;
	maps[1].def.max_entries = 2;
	memset(&env, 0, sizeof(env));
	env.maps = maps;
	env.map_cnt = 2;
	CHECK(interp_map_shift(&maps[0].def) == 30 && interp_map_shift(&maps[1].def) == 31,
	      "strides 2^%u, 2^%u", interp_map_shift(&maps[0].def),
	      interp_map_shift(&maps[1].def));

	/* one past the last element: the trap there ever was, its reason the reference */
	RUN(&env, &res, ST(BPF_W, 10, -4, 3), LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 0, 0), MOV64R(2, 10),
	    ALU64I(BPF_ADD, 2, -4), CALL(BPF_FUNC_map_lookup_elem), JI(BPF_JEQ, 0, 0, 1),
	    LDX(BPF_B, 0, 0, 64), EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 7, "map 0 'arr' value 3+64;", "one past element 3");
	why = strstr(res.reason, ") ");
	snprintf(last, sizeof(last), "%s", why ? why : "");
	CHECK(!strcmp(last, ") is outside every region"), "reason past the last: %s", res.reason);
	for (int32_t e = 0; e < 3; e++) {
		char want[64];

		/* one past element e: before, element e + 1's first byte */
		RUN(&env, &res, ST(BPF_W, 10, -4, e), LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 0, 0),
		    MOV64R(2, 10), ALU64I(BPF_ADD, 2, -4), CALL(BPF_FUNC_map_lookup_elem),
		    JI(BPF_JEQ, 0, 0, 1), LDX(BPF_B, 0, 0, 64), EXIT);
		snprintf(want, sizeof(want), "map 0 'arr' value %d+64;", e);
		expect_trap(&res, INTERP_TRAP_MEM, 7, want, "one past a value not the last");
		why = strstr(res.reason, ") ");
		CHECK(why && !strcmp(why, last), "element %d: reason %s, past the last: %s", e,
		      res.reason, last);
		/* one before element e + 1: before, element e's last byte */
		RUN(&env, &res, ST(BPF_W, 10, -4, e + 1), LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 0, 0),
		    MOV64R(2, 10), ALU64I(BPF_ADD, 2, -4), CALL(BPF_FUNC_map_lookup_elem),
		    JI(BPF_JEQ, 0, 0, 1), LDX(BPF_B, 0, 0, -1), EXIT);
		expect_trap(&res, INTERP_TRAP_MEM, 7, "outside every region", "one before a value");
		/* a store one past, an 8-byte load straddling the end */
		RUN(&env, &res, ST(BPF_W, 10, -4, e), LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 0, 0),
		    MOV64R(2, 10), ALU64I(BPF_ADD, 2, -4), CALL(BPF_FUNC_map_lookup_elem),
		    JI(BPF_JEQ, 0, 0, 1), ST(BPF_B, 0, 64, 1), EXIT);
		expect_trap(&res, INTERP_TRAP_MEM, 7, "outside every region", "a store one past");
		CHECK(vals[64 * (e + 1)] == 0, "element %d + 1 untouched", e);
		RUN(&env, &res, ST(BPF_W, 10, -4, e), LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 0, 0),
		    MOV64R(2, 10), ALU64I(BPF_ADD, 2, -4), CALL(BPF_FUNC_map_lookup_elem),
		    JI(BPF_JEQ, 0, 0, 1), LDX(BPF_DW, 0, 0, 60), EXIT);
		expect_trap(&res, INTERP_TRAP_MEM, 7, "runs past the end of its region",
			    "a load straddling a value's end");
	}
	/* inside: each element's own bytes, first and last */
	vals[64] = 0x11;
	vals[127] = 0x22;
	RUN(&env, &res, ST(BPF_W, 10, -4, 1), LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 0, 0), MOV64R(2, 10),
	    ALU64I(BPF_ADD, 2, -4), CALL(BPF_FUNC_map_lookup_elem), JI(BPF_JEQ, 0, 0, 4),
	    LDX(BPF_B, 1, 0, 0), LDX(BPF_B, 0, 0, 63), ALU64I(BPF_LSH, 0, 8), ALU64R(BPF_OR, 0, 1),
	    EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 0x2211, "element 1's bytes: %s r0 %llx",
	      res.reason, (unsigned long long)res.r0);
	/* a helper's memory argument: element 0 + 8 as an update's 64-byte value */
	RUN(&env, &res, ST(BPF_W, 10, -4, 0), LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 0, 0), MOV64R(2, 10),
	    ALU64I(BPF_ADD, 2, -4), CALL(BPF_FUNC_map_lookup_elem), JI(BPF_JEQ, 0, 0, 8),
	    MOV64R(3, 0), ALU64I(BPF_ADD, 3, 8), LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 0, 0),
	    MOV64R(2, 10), ALU64I(BPF_ADD, 2, -4), MOV64I(4, 0), CALL(BPF_FUNC_map_update_elem),
	    EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 14, "runs past the end of its region",
		    "a helper argument straddling a value's end");
	/* a hash table's value: inserted, read inside, one past traps */
	RUN(&env, &res, ST(BPF_W, 10, -4, 7), ST(BPF_DW, 10, -24, 0x1234), ST(BPF_DW, 10, -16, 0),
	    LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 1, 0), MOV64R(2, 10), ALU64I(BPF_ADD, 2, -4),
	    MOV64R(3, 10), ALU64I(BPF_ADD, 3, -24), MOV64I(4, BPF_ANY),
	    CALL(BPF_FUNC_map_update_elem),
	    LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 1, 0), MOV64R(2, 10), ALU64I(BPF_ADD, 2, -4),
	    CALL(BPF_FUNC_map_lookup_elem), JI(BPF_JEQ, 0, 0, 2), LDX(BPF_DW, 1, 0, 0),
	    LDX(BPF_B, 2, 0, 16), EXIT);
	expect_trap(&res, INTERP_TRAP_MEM, 18, "+16; 2 values of 16 bytes) is outside every region",
		    "one past a hash value");
	CHECK(res.regs[1] == 0x1234, "the hash value's bytes: %llx",
	      (unsigned long long)res.regs[1]);
}

static int override(void *arg, int32_t id, const uint64_t args[5], uint64_t *ret)
{
	int *calls = arg;

	(*calls)++;
	if (id == BPF_FUNC_get_prandom_u32) {
		*ret = 1000 + args[0];
		return 0;
	}
	if (id == 100) {
		*ret = 55;
		return INTERP_HELPER_EXIT;
	}
	if (id == 101)
		return -EPERM;
	return -ENOENT;
}

static void test_helpers(void)
{
	struct interp_result res;
	struct interp_env env;
	const uint8_t hd[] = { 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0x80, 3, 4 };
	int calls = 0;

	memset(&env, 0, sizeof(env));
	env.helper_data = hd;
	env.helper_len = sizeof(hd);
	RUN(&env, &res, CALL(BPF_FUNC_get_prandom_u32), MOV64R(6, 0), CALL(BPF_FUNC_ktime_get_ns),
	    MOV64R(7, 0), CALL(BPF_FUNC_get_prandom_u32), MOV64R(8, 0),
	    CALL(BPF_FUNC_get_current_pid_tgid), EXIT);
	CHECK(res.trap == INTERP_OK && res.regs[6] == 1 && res.regs[7] == 0x8000000000000002 &&
	      res.regs[8] == 0x0403 && res.r0 == 0, "helper data stream: %llx %llx %llx %llx",
	      (unsigned long long)res.regs[6], (unsigned long long)res.regs[7],
	      (unsigned long long)res.regs[8], (unsigned long long)res.r0);
	RUN(NULL, &res, CALL(BPF_FUNC_get_smp_processor_id), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 0, "no helper data: 0");
	RUN(NULL, &res, MOV64I(0, 9), CALL(BPF_FUNC_trace_printk), MOV64R(6, 0),
	    CALL(BPF_FUNC_tail_call), ALU64I(BPF_ADD, 0, 3), EXIT);
	CHECK(res.trap == INTERP_OK && res.regs[6] == 0 && res.r0 == 3,
	      "trace_printk returns 0; tail_call misses and goes on");
	env.helper_data = NULL;
	env.helper_len = 0;
	env.helper = override;
	env.arg = &calls;
	RUN(&env, &res, MOV64I(1, 5), CALL(BPF_FUNC_get_prandom_u32), MOV64R(6, 0),
	    CALL(BPF_FUNC_ktime_get_ns), EXIT);
	CHECK(res.regs[6] == 1005 && res.r0 == 0 && calls == 2,
	      "override, then the built-in after -ENOENT: %llu %llu %d",
	      (unsigned long long)res.regs[6], (unsigned long long)res.r0, calls);
	RUN(&env, &res, CALL(100), MOV64I(0, 1), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 55 && res.steps == 1, "INTERP_HELPER_EXIT");
	RUN(&env, &res, CALL(101), EXIT);
	expect_trap(&res, INTERP_TRAP_HELPER, 0, "refused its arguments", "override error");
	env.callx_helper_ids = true;
	RUN(&env, &res, MOV64I(1, 1), MOV64I(2, BPF_FUNC_get_prandom_u32), CALLX(2), EXIT);
	CHECK(res.trap == INTERP_OK && res.r0 == 1001, "callx helper ids: %s", res.reason);
}

/* A helper's memory argument of size 0: nothing accessed, but the pointer must lie in its
 * region or just past its end, as the kernel checks it (fp-512..fp; a map value's 0..size). */
static void test_zero_size_args(void)
{
	struct interp_result res;
	struct interp_env env;
	struct interp_map maps[1];
	uint8_t vals[64] = { 0 };
	static const int16_t ok[] = { 0, -512, -8 }, bad[] = { 8, 1, -520 };

	for (size_t i = 0; i < 3; i++) {
		RUN(NULL, &res, MOV64R(1, 10), ALU64I(BPF_ADD, 1, ok[i]), MOV64I(2, 0),
		    MOV64I(3, 0), CALL(BPF_FUNC_probe_read_kernel), EXIT);
		CHECK(res.trap == INTERP_OK, "size 0 at fp%+d: %s", ok[i], res.reason);
		RUN(NULL, &res, MOV64R(1, 10), ALU64I(BPF_ADD, 1, bad[i]), MOV64I(2, 0),
		    MOV64I(3, 0), CALL(BPF_FUNC_probe_read_kernel), EXIT);
		expect_trap(&res, INTERP_TRAP_MEM, 4, "0-byte", "size 0 past the stack");
	}
	memset(maps, 0, sizeof(maps));
	strcpy(maps[0].def.name, "arr");
	maps[0].def.type = BPF_MAP_TYPE_ARRAY;
	maps[0].def.key_size = 4;
	maps[0].def.value_size = 64;
	maps[0].def.max_entries = 1;
	maps[0].values = vals;
	memset(&env, 0, sizeof(env));
	env.maps = maps;
	env.map_cnt = 1;
	for (int off = 63; off <= 65; off++) {
		RUN(&env, &res, ST(BPF_W, 10, -4, 0), LDDW_SRC(1, BPF_PSEUDO_MAP_FD, 0, 0),
		    MOV64R(2, 10), ALU64I(BPF_ADD, 2, -4), CALL(BPF_FUNC_map_lookup_elem),
		    JI(BPF_JEQ, 0, 0, 5), MOV64R(1, 0), ALU64I(BPF_ADD, 1, off), MOV64I(2, 0),
		    MOV64I(3, 0), CALL(BPF_FUNC_probe_read_kernel), MOV64I(0, 0), EXIT);
		if (off <= 64)
			CHECK(res.trap == INTERP_OK, "size 0 at value + %d of 64: %s", off,
			      res.reason);
		else
			expect_trap(&res, INTERP_TRAP_MEM, 11, "0-byte", "size 0 past the value");
	}
}

/* ---- probes ---- */

struct visit_log {
	uint32_t pc[64], prev[64];
	uint64_t r1[64], fp8[64];
	unsigned frame[64];
	int n;
};

static void record(void *arg, const struct interp_state *st, uint32_t pc)
{
	struct visit_log *l = arg;
	uint64_t v = 0;

	if (l->n >= 64)
		return;
	l->pc[l->n] = pc;
	l->prev[l->n] = interp_state_prev_pc(st);
	l->r1[l->n] = interp_state_regs(st)[1];
	l->frame[l->n] = interp_state_frame(st);
	if (interp_state_read(st, interp_state_regs(st)[10] - 8, 8, &v))
		v = UINT64_MAX;
	l->fp8[l->n] = v;
	l->n++;
}

static void test_probes(void)
{
	/* 0: r1 = 0; 1: *(fp-8) = r1; 2: r1 += 1; 3: if r1 < 3 goto 1; 4: call f; 5: exit;
	 * 6: f: r0 = 9; 7: exit */
	const struct bpf_insn p[] = {
		MOV64I(1, 0), STX(BPF_DW, 10, 1, -8), ALU64I(BPF_ADD, 1, 1), JI(BPF_JLT, 1, 3, -3),
		CALLL(1), EXIT, MOV64I(0, 9), EXIT,
	};
	uint8_t probes[ARRAY_SIZE(p)] = { 0 };
	struct visit_log log;
	struct interp_result res, plain;
	struct interp_env env;

	memset(&log, 0, sizeof(log));
	memset(&env, 0, sizeof(env));
	probes[1] = 1;
	probes[6] = 1;
	env.probes = probes;
	env.visit = record;
	env.arg = &log;
	run_prog(p, ARRAY_SIZE(p), &env, &res);
	CHECK(res.trap == INTERP_OK && res.r0 == 9 && log.n == 4, "visits: %d", log.n);
	CHECK(log.pc[0] == 1 && log.prev[0] == 0 && log.r1[0] == 0 && log.fp8[0] == 0,
	      "first visit of the header: prev 0, r1 0");
	CHECK(log.pc[1] == 1 && log.prev[1] == 3 && log.r1[1] == 1 && log.fp8[1] == 0,
	      "second visit: from the latch, r1 1, fp-8 still 0 (before the store): %u %llu %llu",
	      log.prev[1], (unsigned long long)log.r1[1], (unsigned long long)log.fp8[1]);
	CHECK(log.pc[2] == 1 && log.r1[2] == 2 && log.fp8[2] == 1, "third visit");
	CHECK(log.pc[3] == 6 && log.prev[3] == 4 && log.frame[3] == 1 && log.fp8[3] == 0 &&
	      log.r1[3] == 3, "visit in the callee: frame 1, prev = the call, its own fresh stack");
	CHECK(log.frame[0] == 0, "main frame depth 0");
	/* every instruction probed: one visit per step */
	memset(probes, 1, sizeof(probes));
	memset(&log, 0, sizeof(log));
	run_prog(p, ARRAY_SIZE(p), &env, &res);
	CHECK(res.steps == (uint64_t)log.n && log.prev[0] == UINT32_MAX,
	      "one visit per step: %d visits, %llu steps, first prev %u", log.n,
	      (unsigned long long)res.steps, log.prev[0]);
	/* the hooked loop computes what the plain one does */
	run_prog(p, ARRAY_SIZE(p), NULL, &plain);
	CHECK(plain.steps == res.steps && plain.r0 == res.r0 &&
	      !memcmp(plain.regs, res.regs, sizeof(res.regs)), "plain and hooked agree");
	/* reading memory from a visit: ctx, a missing address */
	{
		uint8_t in[4] = { 1, 2, 3, 4 };
		struct interp_result r2;

		memset(&log, 0, sizeof(log));
		env.input = in;
		env.input_len = 4;
		run_prog(p, ARRAY_SIZE(p), &env, &r2);
		CHECK(r2.trap == INTERP_OK, "with input");
	}
}

struct read_log {
	int rc[6];
	uint64_t v[6];
};

static void read_special(void *arg, const struct interp_state *st, uint32_t pc)
{
	struct read_log *l = arg;
	const uint64_t addrs[6][2] = {
		{ INTERP_VA_CTX + offsetof(struct xdp_md, data_end), 4 },	/* pointer field */
		{ INTERP_VA_CTX + offsetof(struct xdp_md, data), 2 },	/* narrow: refused */
		{ INTERP_VA_MAP + 1, 1 },		/* global data, no storage yet: init */
		{ INTERP_VA_MAP + 8, 1 },		/* past its one 8-byte entry */
		{ INTERP_VA_PKT + 1, 2 },		/* the packet */
		{ 0, 8 },				/* nothing */
	};

	(void)pc;
	for (int k = 0; k < 6; k++)
		l->rc[k] = interp_state_read(st, addrs[k][0], (unsigned)addrs[k][1], &l->v[k]);
}

static void test_state_read(void)
{
	const struct bpf_insn p[] = { MOV64I(0, 0), EXIT };
	uint8_t probes[2] = { 1, 0 }, pkt[4] = { 1, 2, 3, 4 }, gdata[8] = { 0x10, 0x20 };
	struct interp_map map = { .def = { .name = ".data", .type = BPF_MAP_TYPE_ARRAY,
					   .key_size = 4, .value_size = 8, .max_entries = 1,
					   .init = gdata } };
	struct read_log l;
	struct interp_result res;
	struct interp_env env;

	memset(&l, 0, sizeof(l));
	memset(&env, 0, sizeof(env));
	env.ctx_kind = INTERP_CTX_XDP;
	env.input = pkt;
	env.input_len = sizeof(pkt);
	env.maps = &map;
	env.map_cnt = 1;
	env.probes = probes;
	env.visit = read_special;
	env.arg = &l;
	run_prog(p, ARRAY_SIZE(p), &env, &res);
	CHECK(l.rc[0] == 0 && l.v[0] == INTERP_VA_PKT + 4, "state_read: xdp data_end");
	CHECK(l.rc[1] == -EFAULT, "state_read: narrow pointer read refused");
	CHECK(l.rc[2] == 0 && l.v[2] == 0x20, "state_read: map without storage reads its init");
	CHECK(l.rc[3] == -EFAULT, "state_read: past the map");
	CHECK(l.rc[4] == 0 && l.v[4] == 0x0302, "state_read: packet");
	CHECK(l.rc[5] == -EFAULT, "state_read: NULL");
	CHECK(res.trap == INTERP_OK && res.trap_pc == 0 && !res.reason[0],
	      "state_read sets no trap: %s", res.reason);
}

static void test_determinism(void)
{
	const struct bpf_insn p[] = {
		CALL(BPF_FUNC_get_prandom_u32), MOV64R(6, 0), MOV64I(1, 0),
		ALU64R(BPF_ADD, 6, 1), ALU64I(BPF_MUL, 6, 31), ALU64I(BPF_ADD, 1, 1),
		JI(BPF_JLT, 1, 1000, -4), MOV64R(0, 6), EXIT,
	};
	const uint8_t hd[4] = { 9, 8, 7, 6 };
	struct interp_result a, b;
	struct interp_env env;

	memset(&env, 0, sizeof(env));
	env.helper_data = hd;
	env.helper_len = sizeof(hd);
	run_prog(p, ARRAY_SIZE(p), &env, &a);
	run_prog(p, ARRAY_SIZE(p), &env, &b);
	CHECK(!memcmp(&a, &b, sizeof(a)), "same input, same result");
	CHECK(a.steps == 3 + 4 * 1000 + 2, "steps %llu", (unsigned long long)a.steps);
}

/* ---- random programs: plain and hooked loops must agree exactly ---- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void noop_visit(void *arg, const struct interp_state *st, uint32_t pc)
{
	(void)st;
	(void)pc;
	(*(uint64_t *)arg)++;
}

static struct bpf_insn random_insn(size_t pc, size_t n)
{
	static const uint8_t alu_ops[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_OR, BPF_AND,
					   BPF_LSH, BPF_RSH, BPF_NEG, BPF_MOD, BPF_XOR, BPF_MOV,
					   BPF_ARSH, BPF_END };
	static const uint8_t jmp_ops[] = { BPF_JEQ, BPF_JGT, BPF_JGE, BPF_JSET, BPF_JNE, BPF_JSGT,
					   BPF_JSGE, BPF_JLT, BPF_JLE, BPF_JSLT, BPF_JSLE, BPF_JA };
	static const uint8_t sizes[] = { BPF_B, BPF_H, BPF_W, BPF_DW };
	static const int32_t atomics[] = { BPF_ADD, BPF_OR, BPF_AND, BPF_XOR, BPF_ADD | BPF_FETCH,
					   BPF_OR | BPF_FETCH, BPF_AND | BPF_FETCH,
					   BPF_XOR | BPF_FETCH, BPF_XCHG, BPF_CMPXCHG };
	static const int32_t helpers[] = { 1, 2, 5, 6, 7, 8, 12, 14, 99 };
	struct bpf_insn i = { 0 };
	uint64_t k = rnd();
	int16_t joff = (int16_t)((long)(rnd() % (uint64_t)n) - (long)pc - 1);
	uint8_t base = (k >> 8) % 4 == 0 ? 10 : (k >> 8) % 4 == 1 ? 1 : (uint8_t)(rnd() % 10);

	i.dst_reg = (uint8_t)(rnd() % 10);
	i.src_reg = (uint8_t)(rnd() % 11);
	i.imm = (int32_t)(uint32_t)edges[rnd() % ARRAY_SIZE(edges)];
	switch (k % 8) {
	case 0: case 1: case 2: {
		uint8_t op = alu_ops[rnd() % ARRAY_SIZE(alu_ops)];
		bool x = rnd() & 1, is64 = rnd() & 1;

		i.code = (is64 ? BPF_ALU64 : BPF_ALU) | op | (x ? BPF_X : BPF_K);
		if (x)
			i.imm = 0;
		else
			i.src_reg = 0;
		if (op == BPF_NEG) {
			i.code = (is64 ? BPF_ALU64 : BPF_ALU) | op;
			i.src_reg = 0;
			i.imm = 0;
		} else if (op == BPF_END) {
			i.code = (is64 ? BPF_ALU64 : BPF_ALU) | op | (is64 ? 0 : (x ? BPF_X : 0));
			i.src_reg = 0;
			i.imm = 16 << (rnd() % 3);
		} else if ((op == BPF_DIV || op == BPF_MOD) && (rnd() & 1)) {
			i.off = 1;
		} else if (op == BPF_MOV && x && (rnd() & 1)) {
			i.off = (int16_t)(8 << (rnd() % (is64 ? 3 : 2)));
		}
		break;
	}
	case 3: {
		uint8_t op = jmp_ops[rnd() % ARRAY_SIZE(jmp_ops)];
		bool x = rnd() & 1, j32 = rnd() & 1;

		i.code = (j32 ? BPF_JMP32 : BPF_JMP) | op | (x ? BPF_X : BPF_K);
		i.off = joff;
		if (x)
			i.imm = 0;
		else
			i.src_reg = 0;
		if (op == BPF_JA) {
			i.code = BPF_JMP | BPF_JA;
			i.dst_reg = i.src_reg = 0;
			i.imm = 0;
		}
		if (rnd() % 16 == 0) {	/* may_goto */
			i.code = BPF_JMP | BPF_JCOND;
			i.src_reg = BPF_MAY_GOTO;
			i.dst_reg = 0;
			i.imm = 0;
		}
		break;
	}
	case 4:
		i.code = BPF_LDX | ((rnd() & 3) ? BPF_MEM : BPF_MEMSX) |
			 sizes[rnd() % 3 + (rnd() & 1)];
		if (BPF_MODE(i.code) == BPF_MEMSX && BPF_SIZE(i.code) == BPF_DW)
			i.code = BPF_LDX | BPF_MEM | BPF_DW;
		i.src_reg = base;
		i.off = (int16_t)(base == 10 ? -(int)(rnd() % 520) : (int)(rnd() % 40) - 4);
		i.imm = 0;
		break;
	case 5:
		if (rnd() & 1) {
			i.code = BPF_ST | BPF_MEM | sizes[rnd() % 4];
			i.src_reg = 0;
		} else if (rnd() & 1) {
			i.code = BPF_STX | BPF_MEM | sizes[rnd() % 4];
			i.imm = 0;
		} else {
			i.code = BPF_STX | BPF_ATOMIC | ((rnd() & 1) ? BPF_W : BPF_DW);
			i.imm = atomics[rnd() % ARRAY_SIZE(atomics)];
		}
		i.dst_reg = base;
		i.off = (int16_t)(base == 10 ? -(int)(rnd() % 520) : (int)(rnd() % 40) - 4);
		break;
	case 6:
		if (rnd() & 1) {
			i.code = BPF_JMP | BPF_CALL;
			i.dst_reg = i.src_reg = 0;
			i.imm = helpers[rnd() % ARRAY_SIZE(helpers)];
		} else {
			i.code = BPF_LD | ((rnd() & 1) ? BPF_ABS : BPF_IND) | sizes[rnd() % 3];
			i.dst_reg = 0;
			if (BPF_MODE(i.code) == BPF_ABS)
				i.src_reg = 0;
			i.imm = (int32_t)(rnd() % 40) - 2;
		}
		break;
	default:
		i.code = BPF_ALU64 | BPF_MOV | BPF_K;
		i.src_reg = 0;
		i.imm = (int32_t)(rnd() % 16);
		break;
	}
	return i;
}

static void compare_runs(const struct interp_code *code, struct interp_env *env, uint64_t budget,
			 int prog_no)
{
	struct interp_result a, b;
	uint8_t in1[48], in2[48];
	uint8_t probes[64] = { 0 };
	uint64_t visits = 0;
	int e1, e2;

	for (size_t k = 0; k < sizeof(in1); k++)
		in1[k] = in2[k] = (uint8_t)(k * 37 + prog_no);
	env->step_budget = budget;
	env->input = in1;
	env->probes = NULL;
	env->visit = NULL;
	e1 = interp_run(code, env, &a);
	env->input = in2;
	env->probes = probes;	/* all zero: hooked loop, no visits */
	env->visit = noop_visit;
	env->arg = &visits;
	e2 = interp_run(code, env, &b);
	CHECK(e1 == 0 && e2 == 0 && !memcmp(&a, &b, sizeof(a)) && !memcmp(in1, in2, sizeof(in1)),
	      "random program %d budget %llu: plain (trap %d pc %u steps %llu r0 %llx '%s') vs "
	      "hooked (trap %d pc %u steps %llu r0 %llx '%s')", prog_no,
	      (unsigned long long)budget, a.trap, a.trap_pc, (unsigned long long)a.steps,
	      (unsigned long long)a.r0, a.reason, b.trap, b.trap_pc, (unsigned long long)b.steps,
	      (unsigned long long)b.r0, b.reason);
	CHECK(visits == 0, "no visits without probe bytes");
}

static void test_random_programs(void)
{
	const uint8_t hd[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
	struct interp_map map = { .def = { .name = "m", .type = BPF_MAP_TYPE_ARRAY, .key_size = 4,
					   .value_size = 8, .max_entries = 4 } };
	int tried = 0, ran = 0;

	for (int prog_no = 0; ran < 3000 && tried < 200000; tried++) {
		struct bpf_insn p[64];
		size_t n = 4 + rnd() % 30, main_len = n;
		struct ebpf_object *obj = NULL;
		struct interp_code *code = NULL;
		struct interp_env env;
		struct interp_result full;
		struct diag d;

		for (size_t pc = 0; pc + 1 < n; pc++)
			p[pc] = random_insn(pc, n);
		p[n - 1] = EXIT;
		if (rnd() & 1) {	/* a subprogram, called from main and maybe from itself */
			size_t m = 2 + rnd() % 20;

			for (size_t k = 0; k + 1 < m; k++)
				/* jump offsets are relative: they stay inside */
				p[n + k] = random_insn(k, m);
			p[n + m - 1] = EXIT;
			for (int c = 0; c < 3; c++) {
				size_t at = rnd() % (main_len - 1);

				p[at] = CALLL((int32_t)main_len - (int32_t)at - 1);
			}
			if (rnd() % 3 == 0) {
				size_t at = rnd() % (m - 1);

				p[n + at] = CALLL(-(int32_t)at - 1);
			}
			n += m;
		}
		if (rnd() % 4 == 0) {	/* a map reference */
			size_t at = rnd() % (main_len - 2);

			if (at + 2 < main_len) {
				p[at] = INS(BPF_LD | BPF_DW | BPF_IMM, 1,
					    (rnd() & 1) ? BPF_PSEUDO_MAP_FD : BPF_PSEUDO_MAP_VALUE,
					    0, 0);
				p[at + 1] = INS(0, 0, 0, 0, 0);
			}
		}
		diag_clear(&d);
		if (ebpf_validate(p, n, &d))
			continue;
		if (ebpf_object__from_insns(&obj, p, n, "r", &d) ||
		    interp_prepare(&code, &obj->progs[0], &d)) {
			CHECK(0, "valid random program not prepared: %s", d.msg);
			ebpf_object__free(obj);
			continue;
		}
		memset(&env, 0, sizeof(env));
		env.ctx_kind = (enum interp_ctx_kind)(prog_no % 3);
		env.input_len = 48;
		env.helper_data = hd;
		env.helper_len = sizeof(hd);
		env.maps = &map;
		env.map_cnt = 1;
		compare_runs(code, &env, 20000, prog_no);
		/* the same run cut by budgets everywhere in its first steps and at the end */
		{
			uint8_t in[48];

			for (size_t k = 0; k < sizeof(in); k++)
				in[k] = (uint8_t)(k * 37 + prog_no);
			env.input = in;
			env.probes = NULL;
			env.step_budget = 20000;
			interp_run(code, &env, &full);
		}
		for (uint64_t b = 1; b <= full.steps + 1 && b < 40; b++)
			compare_runs(code, &env, b, prog_no);
		if (full.steps > 2)
			compare_runs(code, &env, full.steps - 1, prog_no);
		interp_code__free(code);
		ebpf_object__free(obj);
		ran++;
		prog_no++;
	}
	CHECK(ran == 3000, "random programs run: %d of %d tried", ran, tried);
}

/* ---- the CLI: bpfscev run ---- */

/* Runs a shell command; returns its exit status with stdout in out (truncated to n). */
static int sh(const char *cmd, char *out, size_t n)
{
	FILE *f = popen(cmd, "r");
	size_t got = 0;
	int st;

	out[0] = '\0';
	if (!f)
		return -1;
	while (got + 1 < n) {
		size_t k = fread(out + got, 1, n - 1 - got, f);

		if (k == 0)
			break;
		got += k;
	}
	out[got] = '\0';
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static const char *last_line(char *s)
{
	size_t l = strlen(s);
	char *p;

	while (l && s[l - 1] == '\n')
		s[--l] = '\0';
	p = strrchr(s, '\n');
	return p ? p + 1 : s;
}

static void test_cli(void)
{
	const char *bin = getenv("BPFSCEV_BIN");
	char dir[] = "/tmp/test_interp_XXXXXX", path[96], data[96], cmd[512], out[4096];
	FILE *f;
	int rc;

	if (!bin) {
		printf("test_interp: BPFSCEV_BIN not set, CLI checks skipped\n");
		return;
	}
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/loop.s", dir);
	snprintf(data, sizeof(data), "%s/xdp.data", dir);
	f = fopen(path, "w");
	if (f) {
		fputs("r0 = 0\nr1 = 0\nl: r0 += 3\nr1 += 1\nif r1 < 100000 goto l\nexit\n", f);
		fclose(f);
	}
	f = fopen(data, "w");
	if (f) {
		fputs("-- asm\nr2 = *(u32 *)(r1 +0)\nr3 = *(u32 *)(r1 +4)\nr0 = r3\nr0 -= r2\n"
		      "exit\n-- input\n00 01 02 03 04\n", f);
		fclose(f);
	}
	snprintf(cmd, sizeof(cmd), "%s run %s 2>&1", bin, path);
	rc = sh(cmd, out, sizeof(out));
	CHECK(rc == 0 && !strcmp(last_line(out), "300000"), "bpfscev run loop: rc %d '%s'", rc,
	      out);
	snprintf(cmd, sizeof(cmd), "%s run %s --steps 1000 2>/dev/null", bin, path);
	rc = sh(cmd, out, sizeof(out));
	CHECK(rc == 1 && !strcmp(last_line(out), "999"),
	      "trap exits 1 and still prints r0: %d '%s'", rc, out);
	snprintf(cmd, sizeof(cmd), "%s run %s --json --steps 1000", bin, path);
	rc = sh(cmd, out, sizeof(out));
	{
		struct diag d;
		struct json *j = json_parse(out, strlen(out), &d);
		const struct json *regs = j ? json_get(j, "regs") : NULL,
				  *trap = j ? json_get(j, "trap") : NULL;
		uint64_t steps = 0, r1 = 0, pc = 0;

		CHECK(rc == 1 && j && regs && regs->type == JSON_ARRAY && regs->count == 11 &&
			  !json_u64(json_get(j, "steps"), &steps) && steps == 1000 &&
			  !json_u64(regs->items[1], &r1) && r1 == 333 && trap &&
			  trap->type == JSON_OBJECT && !json_u64(json_get(trap, "pc"), &pc) &&
			  pc == 4 && json_get(trap, "kind") &&
			  !strcmp(json_get(trap, "kind")->text, "steps"),
		      "--json: rc %d '%s'", rc, out);
		json_free(j);
	}
	snprintf(cmd, sizeof(cmd), "%s run %s --ctx xdp 2>&1", bin, data);
	rc = sh(cmd, out, sizeof(out));
	CHECK(rc == 0 && !strcmp(last_line(out), "5"), "-- input section as the packet: %d '%s'",
	      rc, out);
	snprintf(cmd, sizeof(cmd), "%s run %s --ctx xdp --input 0a0b 2>&1", bin, data);
	rc = sh(cmd, out, sizeof(out));
	CHECK(rc == 0 && !strcmp(last_line(out), "2"), "--input wins: %d '%s'", rc, out);
	snprintf(cmd, sizeof(cmd), "%s run %s 2>&1", bin, data); /* plain: r1 is the 5 bytes */
	rc = sh(cmd, out, sizeof(out));
	CHECK(rc == 1 &&
		  strstr(out, "4-byte load at 0x200000000004 (ctx+4; the context is 5 bytes) "
			      "runs past the end of its region"),
	      "plain ctx is the input itself: %d '%s'", rc, out);
	snprintf(cmd, sizeof(cmd), "%s run %s --ctx bogus 2>/dev/null", bin, data);
	CHECK(sh(cmd, out, sizeof(out)) == 2, "bad --ctx is a usage error");
	snprintf(cmd, sizeof(cmd), "%s run %s --input zz 2>/dev/null", bin, data);
	CHECK(sh(cmd, out, sizeof(out)) == 2, "bad --input is a usage error");
	snprintf(cmd, sizeof(cmd), "%s run %s/missing.s 2>/dev/null", bin, dir);
	CHECK(sh(cmd, out, sizeof(out)) == 2, "missing file is an input error");
	unlink(path);
	unlink(data);
	rmdir(dir);
}

/* (test_alu_refused's visits: per slot) */
static void count_visit(void *arg, const struct interp_state *st, uint32_t pc)
{
	(void)st;
	((unsigned *)arg)[pc]++;
}

/* The immediates check_alu_op refuses wherever the verifier reaches them (a division or modulo
 * by 0, a shift by an amount outside [0, width)): the run computes what the ISA defines, notes
 * the first such instruction (refused) and safe_run_fault calls it a fault; the same
 * operations by a register, and immediates within the width, are not noted.  Both copies of
 * the run loop: the plain one, and the hooked one (visits) that counts each step and visits each
 * instruction once, the refused one too (decode gives it an operation of its own). */
static void test_alu_refused(void)
{
	static const struct {
		const char *what;
		struct bpf_insn insn;
		uint64_t r0;	/* from r0 = 0x1122334455667788 */
		bool refused;
	} c[] = {
		{ "div64 by imm 0", ALU64I(BPF_DIV, 0, 0), 0, true },
		{ "sdiv32 by imm 0", INS(BPF_ALU | BPF_DIV | BPF_K, 0, 0, 1, 0), 0, true },
		{ "mod64 by imm 0", ALU64I(BPF_MOD, 0, 0), 0x1122334455667788, true },
		{ "mod32 by imm 0", ALU32I(BPF_MOD, 0, 0), 0x55667788, true },
		{ "lsh64 by imm 64", ALU64I(BPF_LSH, 0, 64), 0x1122334455667788, true },
		{ "rsh32 by imm 32", ALU32I(BPF_RSH, 0, 32), 0x55667788, true },
		{ "arsh64 by imm -1", ALU64I(BPF_ARSH, 0, -1), 0, true },
		{ "div64 by imm 1", ALU64I(BPF_DIV, 0, 1), 0x1122334455667788, false },
		{ "lsh64 by imm 63", ALU64I(BPF_LSH, 0, 63), 0, false },
		{ "rsh32 by imm 31", ALU32I(BPF_RSH, 0, 31), 0, false },
		{ "div64 by r1 = 0", ALU64R(BPF_DIV, 0, 1), 0, false },
		{ "lsh64 by r1 = 0", ALU64R(BPF_LSH, 0, 1), 0x1122334455667788, false },
	};
	struct safe_rule rule = { .max_insns = UINT64_MAX };
	struct interp_result res;
	char why[200];

	for (size_t k = 0; k < ARRAY_SIZE(c); k++) {
		int err = RUN(NULL, &res, LDDW(0, 0x1122334455667788), MOV64I(1, 0), c[k].insn,
			      MOV64I(2, 0), ALU64I(BPF_DIV, 2, 0), EXIT);
		bool fault = safe_run_fault(&rule, &res, NULL, NULL, why, sizeof(why));

		/* (the first noted: the case at pc 3, else the division at pc 5) */
		CHECK(err == 0 && res.trap == INTERP_OK && res.r0 == c[k].r0 && res.refused &&
		      res.refused_pc == (c[k].refused ? 3u : 5u) && fault &&
		      strstr(why, "check_alu_op"), "%s: err %d trap %d r0 0x%llx refused %d at %u; "
		      "fault %d %s", c[k].what, err, res.trap, (unsigned long long)res.r0,
		      res.refused, res.refused_pc, fault, why);
		err = RUN(NULL, &res, LDDW(0, 0x1122334455667788), MOV64I(1, 0), c[k].insn, EXIT);
		CHECK(err == 0 && res.refused == c[k].refused && res.steps == 4 &&
		      safe_run_fault(&rule, &res, NULL, NULL, why, sizeof(why)) == c[k].refused,
		      "%s alone: refused %d, %llu steps", c[k].what, res.refused,
		      (unsigned long long)res.steps);
		/* the hooked copy: every slot probed */
		{
			static const uint8_t probes[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
			unsigned seen[8] = { 0 };
			struct interp_env env = { .probes = probes, .visit = count_visit,
						  .arg = seen };

			err = RUN(&env, &res, LDDW(0, 0x1122334455667788), MOV64I(1, 0), c[k].insn,
				  MOV64I(2, 1), EXIT);
			CHECK(err == 0 && res.trap == INTERP_OK && res.r0 == c[k].r0 &&
			      res.refused == c[k].refused &&
			      res.refused_pc == (c[k].refused ? 3u : 0u) && res.steps == 5 &&
			      seen[0] == 1 && seen[2] == 1 && seen[3] == 1 && seen[4] == 1 &&
			      seen[5] == 1, "%s hooked: r0 0x%llx refused %d at %u, %llu steps, "
			      "visits %u %u %u %u %u", c[k].what, (unsigned long long)res.r0,
			      res.refused, res.refused_pc, (unsigned long long)res.steps,
			      seen[0], seen[2], seen[3], seen[4], seen[5]);
		}
	}
	/* not reached: not noted */
	CHECK(RUN(NULL, &res, MOV64I(0, 0), JA(1), ALU64I(BPF_DIV, 0, 0), EXIT) == 0 &&
	      !res.refused, "a division by imm 0 jumped over is noted");
	/* check_return_code: sock_ops, cgroup_sock and cgroup_skb return 0 or 1 */
	for (int k = 0; k < 4; k++) {
		static const uint32_t types[] = { BPF_PROG_TYPE_SOCK_OPS, BPF_PROG_TYPE_CGROUP_SOCK,
						  BPF_PROG_TYPE_CGROUP_SKB, BPF_PROG_TYPE_XDP };
		struct interp_env env = { .prog_type = types[k] };

		CHECK(RUN(&env, &res, MOV64I(0, 1), MOV64I(0, 2), EXIT) == 0 && res.r0 == 2 &&
		      res.refused == (k < 3) && (k == 3 || (res.refused_pc == 2 &&
		      strstr(res.refused_why, "check_return_code"))), "type %u returns 2: refused %d",
		      types[k], res.refused);
		CHECK(RUN(&env, &res, MOV64I(0, 1), EXIT) == 0 && !res.refused,
		      "type %u returns 1: refused", types[k]);
	}
}

int main(void)
{
	test_alu_specials();
	test_alu_refused();
	test_alu_table();
	test_jmp_table();
	test_memory();
	test_atomics();
	test_traps();
	test_calls();
	test_bpf_loop();
	test_contexts();
	test_maps();
	test_map_values();
	test_percpu_lookup();
	test_helpers();
	test_zero_size_args();
	test_probes();
	test_state_read();
	test_determinism();
	test_random_programs();
	test_cli();
	return check_done("test_interp");
}
