/* Differential test: the interpreter (oracle/exec/interp.c) against the kernel's JIT on random
 * straight-line and forward-branching programs.
 *
 * Programs are verifier-clean by construction: every register and the 64 bytes of stack used are
 * initialised first; shift immediates are in range and shift registers are masked into range just
 * before use; immediate divisors are non-zero (register divisors may be zero: both sides define
 * x/0 = 0 and x%0 = x); the frame pointer is only ever a store/load base.  Every ALU operation of
 * both classes with both sources is drawn (div/mod signed and unsigned, movsx, bswap and
 * to-le/to-be, neg, the shifts), conditional jumps of both classes with both sources, ja,
 * LD_IMM64, stack stores (register and immediate, 1/2/4/8 bytes) and loads (including
 * sign-extending ones).  The epilogue folds r1..r9 and the stack into r0 by xor and an odd
 * multiply (a bijection, so nothing cancels), then folds r0's high half into its low half: the
 * kernel's retval is 32 bits, and any difference in any register's 64 bits shows in it.
 *
 * Each program is loaded as a socket filter with BPF_F_TEST_REG_INVARIANTS (the verifier's own
 * range-invariant checks become load failures) and run once with BPF_PROG_TEST_RUN.  A different
 * result prints the program and fails; a rejected program is counted and reported, not a failure.
 * BPFSCEV_DIFF_SEED and BPFSCEV_DIFF_COUNT override the seed (default fixed) and count (2000).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/asm.h"
#include "bpf/prog.h"
#include "check.h"
#include "oracle/exec/interp.h"
#include "oracle/kernel/kernel.h"

#define MAX_ITEMS 256

static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned below(unsigned n)
{
	return (unsigned)(rnd() % n);
}

static int32_t imm32(void)
{
	static const int32_t special[] = { 0, 1, -1, 2, 3, 7, 8, 31, 32, 63, 64, 0x7f, 0x80, 0xff,
					   0x7fff, 0x8000, 0xffff, 0x7fffffff, INT32_MIN, -2, -8 };

	switch (below(4)) {
	case 0:
		return special[below(sizeof(special) / sizeof(special[0]))];
	case 1:
		return (int32_t)below(33) - 16;
	default:
		return (int32_t)(uint32_t)rnd();
	}
}

static uint64_t imm64(void)
{
	static const uint64_t special[] = {
		0, 1, ~0ull, 1ull << 63, (1ull << 63) - 1, 0xffffffffull, 0x80000000ull,
		0x100000000ull, 0xffffffff80000000ull, 0x7fffffffull, 0x8000000000000001ull,
	};

	if (below(3) == 0)
		return special[below(sizeof(special) / sizeof(special[0]))];
	return rnd();
}

/* A program under construction: items are one instruction (two slots for LD_IMM64); a jump item
 * names the item it goes to, and offsets are fixed when the layout is known. */
struct item {
	struct bpf_insn insn[2];
	int jump_to;		/* item index, -1 for no jump */
};

struct prog_gen {
	struct item items[MAX_ITEMS];
	int n;
};

static struct item *add(struct prog_gen *g, struct bpf_insn i)
{
	struct item *it = &g->items[g->n++];

	memset(it, 0, sizeof(*it));
	it->insn[0] = i;
	it->jump_to = -1;
	return it;
}

#define INSN(c, d, s, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
						.off = (o), .imm = (i) })

static void add_ldimm64(struct prog_gen *g, uint8_t dst, uint64_t v)
{
	struct item *it = add(g, INSN(BPF_LD | BPF_IMM | BPF_DW, dst, 0, 0, (int32_t)(uint32_t)v));

	it->insn[1].imm = (int32_t)(uint32_t)(v >> 32);
}

static uint8_t reg(void)
{
	return (uint8_t)below(10);
}

static void gen_alu(struct prog_gen *g)
{
	bool is64 = below(2);
	uint8_t cls = is64 ? BPF_ALU64 : BPF_ALU, dst = reg(), src = reg();
	unsigned width = is64 ? 64 : 32;
	bool x = below(2);

	switch (below(14)) {
	case 0: case 1: case 2: case 3: case 4: case 5: case 6: {
		static const uint8_t ops[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_OR, BPF_AND, BPF_XOR,
					       BPF_MOV };
		uint8_t op = ops[below(sizeof(ops))];

		add(g, x ? INSN(cls | op | BPF_X, dst, src, 0, 0) : INSN(cls | op | BPF_K, dst, 0, 0,
									   imm32()));
		break;
	}
	case 7: case 8: {	/* div/mod, unsigned (off 0) or signed (off 1) */
		uint8_t op = below(2) ? BPF_DIV : BPF_MOD;
		int16_t off = (int16_t)below(2);
		int32_t k = imm32();

		if (x) {
			add(g, INSN(cls | op | BPF_X, dst, src, off, 0));
		} else {
			if (k == 0)
				k = 1 + (int32_t)below(1000);
			add(g, INSN(cls | op | BPF_K, dst, 0, off, k));
		}
		break;
	}
	case 9: case 10: {	/* shifts: immediates in range, registers masked into range */
		static const uint8_t ops[] = { BPF_LSH, BPF_RSH, BPF_ARSH };
		uint8_t op = ops[below(3)];

		if (x) {
			add(g, INSN(cls | BPF_AND | BPF_K, src, 0, 0, (int32_t)width - 1));
			add(g, INSN(cls | op | BPF_X, dst, src, 0, 0));
		} else {
			add(g, INSN(cls | op | BPF_K, dst, 0, 0, (int32_t)below(width)));
		}
		break;
	}
	case 11:
		add(g, INSN(cls | BPF_NEG | BPF_K, dst, 0, 0, 0));
		break;
	case 12: {	/* movsx: 8/16/32 bits into 64, 8/16 into 32 */
		static const int16_t offs[] = { 8, 16, 32 };

		add(g, INSN(cls | BPF_MOV | BPF_X, dst, src, offs[below(is64 ? 3 : 2)], 0));
		break;
	}
	default: {	/* byte order: to-le/to-be (ALU) or bswap (ALU64) of 16/32/64 bits */
		static const int32_t widths[] = { 16, 32, 64 };

		add(g, INSN(cls | BPF_END | (below(2) ? BPF_X : BPF_K), dst, 0, 0, widths[below(3)]));
		if (is64)	/* bswap has no to-be form: the source bit must be 0 */
			g->items[g->n - 1].insn[0].code = BPF_ALU64 | BPF_END | BPF_K;
		break;
	}
	}
}

/* A stack access at fp-64..fp-1, aligned to its size. */
static int16_t stack_off(unsigned size)
{
	return (int16_t)(-8 * (int)(1 + below(8)) + (int)(size * below(8 / size)));
}

static void gen_mem(struct prog_gen *g)
{
	static const uint8_t sizes[] = { BPF_B, BPF_H, BPF_W, BPF_DW };
	uint8_t sz = sizes[below(4)];
	int16_t off = stack_off(ebpf_size_bytes(sz));

	switch (below(4)) {
	case 0:
		add(g, INSN(BPF_STX | BPF_MEM | sz, EBPF_REG_FP, reg(), off, 0));
		break;
	case 1:
		add(g, INSN(BPF_ST | BPF_MEM | sz, EBPF_REG_FP, 0, off, imm32()));
		break;
	case 2:
		add(g, INSN(BPF_LDX | BPF_MEM | sz, reg(), EBPF_REG_FP, off, 0));
		break;
	default:
		if (sz == BPF_DW)	/* no sign-extending 8-byte load */
			sz = BPF_W;
		off = stack_off(ebpf_size_bytes(sz));
		add(g, INSN(BPF_LDX | BPF_MEMSX | sz, reg(), EBPF_REG_FP, off, 0));
		break;
	}
}

static struct item *add_cond_jump(struct prog_gen *g)
{
	static const uint8_t ops[] = { BPF_JEQ, BPF_JNE, BPF_JGT, BPF_JGE, BPF_JLT, BPF_JLE,
				       BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE, BPF_JSET };
	uint8_t cls = below(2) ? BPF_JMP : BPF_JMP32, op = ops[below(sizeof(ops))];

	return below(2) ? add(g, INSN(cls | op | BPF_X, reg(), reg(), 0, 0))
			: add(g, INSN(cls | op | BPF_K, reg(), 0, 0, imm32()));
}

static void gen_straight(struct prog_gen *g)
{
	unsigned c = below(14);

	if (c < 3)
		gen_mem(g);
	else if (c < 4)
		add_ldimm64(g, reg(), imm64());
	else
		gen_alu(g);
}

/* A forward conditional jump over up to 6 items (fallthrough keeps them reachable), or an
 * if-else diamond, the only place a ja can go without leaving code unreachable:
 * "if c goto B; A...; ja end; B: ...; end:". */
static void gen_jump(struct prog_gen *g, int body_end)
{
	int here = g->n, room = body_end - here;
	struct item *j;

	if (below(4) == 0 && room > 8) {
		int ja, b, cnt = 1 + (int)below(3);

		add_cond_jump(g);
		for (int k = 0; k < cnt; k++)
			gen_straight(g);
		ja = g->n;
		add(g, INSN(BPF_JMP | BPF_JA, 0, 0, 0, 0));
		b = g->n;
		for (int k = 1 + (int)below(3); k > 0; k--)
			gen_straight(g);
		g->items[here].jump_to = b;
		g->items[ja].jump_to = g->n;
		return;
	}
	j = add_cond_jump(g);
	j->jump_to = here + 1 + (int)below((unsigned)(room < 6 ? room : 6));
}

/* Builds one program into insns (slots); returns the slot count. */
static size_t generate(struct bpf_insn *insns, size_t cap, bool branches)
{
	struct prog_gen *g = calloc(1, sizeof(*g));
	int slot_of[MAX_ITEMS + 1], body_len = 10 + (int)below(60), body_end;
	size_t n = 0;

	/* Prologue: every register, then every stack slot.  Some registers start from the
	 * socket buffer's cb[] words: 0 at run time on both sides, but unknown to the verifier, so
	 * its range tracking (and BPF_F_TEST_REG_INVARIANTS) has work to do.  r1 is the context
	 * until its own turn, so it is loaded last. */
	unsigned unknown = (unsigned)rnd() & 0x3ff & (unsigned)rnd();

	for (int k = 0; k < 10; k++) {
		uint8_t r = (uint8_t)(k == 9 ? 1 : k == 1 ? 9 : k);

		if (unknown & (1u << r))
			add(g, INSN(BPF_LDX | BPF_MEM | BPF_W, r, 1, (int16_t)(48 + 4 * below(5)), 0));
	}
	for (uint8_t r = 0; r < 10; r++) {
		if (unknown & (1u << r)) {
			add(g, INSN(BPF_ALU64 | BPF_ADD | BPF_K, r, 0, 0, imm32()));
			continue;
		}
		switch (below(3)) {
		case 0:
			add(g, INSN(BPF_ALU64 | BPF_MOV | BPF_K, r, 0, 0, imm32()));
			break;
		case 1:
			add(g, INSN(BPF_ALU | BPF_MOV | BPF_K, r, 0, 0, imm32()));
			break;
		default:
			add_ldimm64(g, r, imm64());
			break;
		}
	}
	for (int k = 1; k <= 8; k++)
		add(g, INSN(BPF_STX | BPF_MEM | BPF_DW, EBPF_REG_FP, reg(), (int16_t)(-8 * k), 0));

	/* Body: jumps land at most on the first epilogue item. */
	body_end = g->n + body_len;
	while (g->n < body_end - 1) {
		if (branches && below(6) == 0)
			gen_jump(g, body_end);
		else
			gen_straight(g);
	}
	body_end = g->n;
	for (int i = 0; i < g->n; i++)
		if (g->items[i].jump_to > body_end)
			g->items[i].jump_to = body_end;

	/* Epilogue: fold r1..r9, then the stack, into r0; then r0's high half into its low. */
	for (uint8_t r = 1; r < 10; r++) {
		add(g, INSN(BPF_ALU64 | BPF_XOR | BPF_X, 0, r, 0, 0));
		add(g, INSN(BPF_ALU64 | BPF_MUL | BPF_K, 0, 0, 0, 0x2545f491));
	}
	for (int k = 1; k <= 8; k++) {
		add(g, INSN(BPF_LDX | BPF_MEM | BPF_DW, 1, EBPF_REG_FP, (int16_t)(-8 * k), 0));
		add(g, INSN(BPF_ALU64 | BPF_XOR | BPF_X, 0, 1, 0, 0));
		add(g, INSN(BPF_ALU64 | BPF_MUL | BPF_K, 0, 0, 0, 0x2545f491));
	}
	add(g, INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 0, 0, 0));
	add(g, INSN(BPF_ALU64 | BPF_RSH | BPF_K, 1, 0, 0, 32));
	add(g, INSN(BPF_ALU64 | BPF_XOR | BPF_X, 0, 1, 0, 0));
	add(g, INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0));

	/* Layout. */
	for (int i = 0; i < g->n; i++) {
		slot_of[i] = (int)n;
		n += ebpf_is_ldimm64(&g->items[i].insn[0]) ? 2 : 1;
	}
	slot_of[g->n] = (int)n;
	if (n > cap)
		abort();
	n = 0;
	for (int i = 0; i < g->n; i++) {
		struct item *it = &g->items[i];

		if (it->jump_to >= 0)
			it->insn[0].off = (int16_t)(slot_of[it->jump_to] - slot_of[i] - 1);
		insns[n++] = it->insn[0];
		if (ebpf_is_ldimm64(&it->insn[0]))
			insns[n++] = it->insn[1];
	}
	free(g);
	return n;
}

static void print_program(const struct bpf_insn *insns, size_t n)
{
	struct sbuf sb = SBUF_INIT;

	ebpf_disasm(&sb, insns, n, EBPF_DISASM_PC);
	fprintf(stderr, "%s", sbuf_cstr(&sb));
	sbuf_free(&sb);
}

int main(void)
{
	const char *seed_env = getenv("BPFSCEV_DIFF_SEED"), *count_env = getenv("BPFSCEV_DIFF_COUNT");
	uint64_t seed = seed_env ? strtoull(seed_env, NULL, 0) : 0x5eed0b9f2c3d4e5full;
	unsigned count = count_env ? (unsigned)strtoul(count_env, NULL, 0) : 2000;
	struct kernel_prog_opts ko = { .sz = sizeof(ko), .prog_flags = BPF_F_TEST_REG_INVARIANTS,
				       .log_level = 4, .log_size = 1 << 16 };
	unsigned ran = 0, rejected = 0, differ = 0, invariants = 0, distinct = 0;
	static uint32_t seen[1 << 12];
	static uint8_t packet[64];
	char why[256];

	if (!kernel_available(why, sizeof(why)))
		return check_skip("test_kernel_diff", "%s", why);
	if (count < 500 && !count_env)
		count = 500;
	rng = seed ? seed : 1;
	for (unsigned t = 0; t < count; t++) {
		struct bpf_insn insns[MAX_ITEMS * 2];
		bool branches = t % 4 != 0;	/* one in four straight-line */
		size_t n = generate(insns, sizeof(insns) / sizeof(insns[0]), branches);
		struct ebpf_object *o = NULL;
		struct interp_code *code = NULL;
		struct interp_env env = { .ctx_kind = INTERP_CTX_SKB, .input = packet,
					  .input_len = sizeof(packet) };
		struct interp_result res;
		struct kernel_prog *kp = NULL;
		struct kernel_run_result kr;
		struct diag d;
		char name[32];

		snprintf(name, sizeof(name), "diff%u", t);
		diag_clear(&d);
		if (ebpf_object__from_insns(&o, insns, n, name, &d)) {
			CHECK(0, "program %u fails validation: %s", t, d.msg);
			print_program(insns, n);
			continue;
		}
		diag_clear(&d);
		if (interp_prepare(&code, &o->progs[0], &d) ||
		    interp_run(code, &env, &res) || res.trap != INTERP_OK) {
			CHECK(0, "program %u: the interpreter failed: %s %s", t, d.msg,
			      code ? res.reason : "");
			print_program(insns, n);
			goto next;
		}
		diag_clear(&d);
		if (kernel_prog__load(&kp, o, &o->progs[0], &ko, &d)) {
			CHECK(0, "program %u: cannot ask the kernel: %s", t, d.msg);
			goto next;
		}
		if (!kp->accepted) {
			bool inv = strstr(kp->message, "INVARIANTS") || strstr(kp->log, "invariant");

			rejected++;
			invariants += inv;
			if (inv || rejected <= 3) {
				fprintf(stderr, "test_kernel_diff: program %u rejected%s: %s (%s)\n",
					t, inv ? " by the verifier's REG INVARIANTS check" : "",
					kp->message, strerror(kp->err));
				if (inv)
					print_program(insns, n);
			}
			goto next;
		}
		diag_clear(&d);
		if (kernel_prog__test_run(kp, NULL, &kr, &d)) {
			CHECK(0, "program %u: test run: %s", t, d.msg);
			goto next;
		}
		ran++;
		{
			uint32_t h = kr.retval * 0x9e3779b1u >> 20;

			for (; seen[h] && seen[h] != kr.retval + 1; h = (h + 1) & 0xfff)
				;
			distinct += !seen[h] && ran < 3000;
			if (ran < 3000)
				seen[h] = kr.retval + 1;
		}
		if ((uint32_t)res.r0 != kr.retval) {
			differ++;
			CHECK(0, "program %u (seed 0x%" PRIx64 "): interpreter r0 = 0x%08" PRIx32
			      ", kernel r0 = 0x%08" PRIx32, t, seed, (uint32_t)res.r0, kr.retval);
			print_program(insns, n);
		}
next:
		kernel_prog__free(kp);
		interp_code__free(code);
		ebpf_object__free(o);
	}
	printf("test_kernel_diff: seed 0x%" PRIx64 ": %u programs, %u compared (%u distinct results), "
	       "%u differ, %u rejected by the kernel (%u by its register invariant checks)\n", seed,
	       count, ran, distinct, differ, rejected, invariants);
	/* A generator whose programs the kernel mostly refuses, or whose results are all alike,
	 * would test nothing. */
	CHECK(ran >= count * 9 / 10, "only %u of %u programs ran in the kernel", ran, count);
	CHECK(distinct >= (ran < 3000 ? ran : 3000) * 9 / 10, "only %u distinct results", distinct);
	return check_done("test_kernel_diff");
}
