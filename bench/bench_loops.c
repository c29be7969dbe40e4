/* Loop-structure benchmark: CFG, dominators, post-dominators and the loop forest on programs of
 * 1k, 10k, 100k and 1M instructions in the shapes that make naive algorithms quadratic — long
 * chains of diamonds, deep nests, many sibling loops, ladders of irreducible cycles — printing
 * the time per size and the ratio per 10x (linear time shows as ~10). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scev/loop.h"
#include "util/clock.h"

static struct bpf_insn *code;
static size_t n, cap;

static void emit(uint8_t op, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	if (n == cap) {
		cap = cap ? cap * 2 : 1024;
		code = realloc(code, cap * sizeof(*code));
	}
	code[n++] = (struct bpf_insn){ .code = op, .dst_reg = dst, .src_reg = src, .off = off, .imm = imm };
}

#define ADD1() emit(BPF_ALU64 | BPF_ADD | BPF_K, 1, 0, 0, 1)
#define JLT(off) emit(BPF_JMP | BPF_JLT | BPF_K, 1, 0, (int16_t)(off), 10)
#define JA(off) emit(BPF_JMP | BPF_JA, 0, 0, (int16_t)(off), 0)
#define EXIT() emit(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

/* if/else diamonds in a row: 4 insns each */
static void diamonds(size_t size)
{
	while (n + 5 < size) {
		JLT(2);
		ADD1();
		JA(1);
		ADD1();
	}
	EXIT();
}

/* nests: loops of depth 30 repeated; each level adds a header and a latch */
static void nests(size_t size)
{
	while (n + 64 < size) {
		size_t start = n;

		for (int d = 0; d < 30; d++)
			ADD1();
		for (int d = 0; d < 30; d++)
			JLT(-(long)(n - (start + 29 - d)) - 1);
	}
	EXIT();
}

/* many sibling loops: 2 insns each */
static void siblings(size_t size)
{
	while (n + 3 < size) {
		ADD1();
		JLT(-2);
	}
	EXIT();
}

/* a ladder of two-entry irreducible cycles: each rung can be entered at A or at B */
static void ladder(size_t size)
{
	while (n + 6 < size) {
		JLT(1);		/* to B, else A */
		ADD1();		/* A */
		ADD1();		/* B */
		JLT(-3);	/* back to A */
	}
	EXIT();
}

static double run(void (*shape)(size_t), size_t size, uint32_t *loops, uint32_t *irr)
{
	struct scev_structure st;
	double a, b;
	struct diag d;
	double best = 1e30;

	n = 0;
	shape(size);
	for (int rep = 0; rep < 3; rep++) {
		a = wall_s();
		if (scev_structure__build(&st, code, n, &d)) {
			fprintf(stderr, "build failed: %s\n", d.msg);
			exit(1);
		}
		b = wall_s();
		*loops = st.loops->nloops;
		*irr = st.loops->nirreducible;
		scev_structure__free(&st);
		double ms = (b - a) * 1e3;

		if (ms < best)
			best = ms;
	}
	return best;
}

int main(void)
{
	static const struct {
		const char *name;
		void (*fn)(size_t);
	} shapes[] = {
		{ "chain of diamonds", diamonds }, { "deep nests (depth 30)", nests },
		{ "sibling loops", siblings }, { "irreducible ladder", ladder },
	};
	static const size_t sizes[] = { 1000, 10000, 100000, 1000000 };

	printf("| shape | insns | loops | irreducible | time (ms) | x per 10x size |\n");
	printf("|---|---|---|---|---|---|\n");
	for (size_t s = 0; s < 4; s++) {
		double prev = 0;

		for (size_t z = 0; z < 4; z++) {
			uint32_t loops, irr;
			double ms = run(shapes[s].fn, sizes[z], &loops, &irr);

			printf("| %s | %zu | %u | %u | %.3f | ", shapes[s].name, n, loops, irr, ms);
			if (prev > 0)
				printf("%.1f |\n", ms / prev);
			else
				printf("- |\n");
			prev = ms;
		}
	}
	free(code);
	return 0;
}
