/* Loop-structure benchmark: CFG, dominators, post-dominators and the loop forest on programs of
 * 1k, 10k, 100k and 1M instructions in the shapes that make naive algorithms quadratic — long
 * chains of diamonds, deep nests, many sibling loops, ladders of irreducible cycles — printing
 * the time per size and the ratio per 10x (linear time shows as ~10).
 *
 * With --analyze, the whole analysis (scev_analyze, claims included) on the same shapes and on
 * counted sibling loops (r1 = 0; r1 += 1; if r1 < 10), once per size; with --analyze SHAPE SIZE,
 * one program only, so that /usr/bin/time -v reports that shape's peak memory; with --json after
 * them, that program's claims (JSON, as `bpfscev analyze --json`) on stdout, so that two builds'
 * claims of the large shapes compare byte for byte. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scev/loop.h"
#include "scev/scev.h"
#include "util/clock.h"
#include "util/heap.h"
#include "util/sbuf.h"
#include "util/zalloc.h"

static struct bpf_insn *code;
static size_t n, cap;

/* Room for size instructions (every shape emits at most size), taken once per size: the array
 * grown by realloc from 1,024 was a sixth of the page faults of a 1M-instruction analysis
 * (docs/BENCHMARKS.md, issue 13, sixteenth round).  From 2 MiB on, whole huge pages
 * (malloc_huge): its first touches are a few faults, not one per 4 KiB page. */
static void reserve(size_t size)
{
	void *p;

	if (size <= cap)
		return;
	free(code);
	if (!(p = malloc_huge(size * sizeof(*code)))) {
		fprintf(stderr, "out of memory for %zu instructions\n", size);
		exit(1);
	}
	code = p;
	cap = size;
}

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
#define MOV0() emit(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 0)
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

/* nests: loops of depth D repeated; each level adds a header and a latch */
static void nests_of(size_t size, int depth)
{
	while (n + 2 * (size_t)depth + 4 < size) {
		size_t start = n;

		for (int d = 0; d < depth; d++)
			ADD1();
		for (int d = 0; d < depth; d++)
			JLT(-(long)(n - (start + depth - 1 - d)) - 1);
	}
	EXIT();
}

static void nests(size_t size)
{
	nests_of(size, 30);
}

/* the same loops in nests of depth 5: what grows with depth shows against these */
static void nests5(size_t size)
{
	nests_of(size, 5);
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

/* many sibling loops that count: 3 insns each, every one with an exact trip count */
static void counted(size_t size)
{
	while (n + 4 < size) {
		MOV0();
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
	reserve(size);
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

static const struct {
	const char *name, *key;
	void (*fn)(size_t);
} shapes[] = {
	{ "chain of diamonds", "diamonds", diamonds }, { "deep nests (depth 30)", "nests", nests },
	{ "sibling loops", "siblings", siblings }, { "irreducible ladder", "ladder", ladder },
	{ "counted sibling loops", "counted", counted }, { "deep nests (depth 5)", "nests5", nests5 },
};
static const size_t sizes[] = { 1000, 10000, 100000, 1000000 };

/* One analysis of shape s at size (r1 starts as the context pointer: the first MOV0 or the
 * loops' ADD1 makes it a scalar or unknown). */
static double analyze_once(size_t s, size_t size, uint32_t *loops, bool json)
{
	struct ebpf_prog prog = { .name = "shape" };
	struct scev_opts so = { .sz = sizeof(so) };
	struct claim_prog cp;
	struct diag d;
	double t0;

	n = 0;
	reserve(size);
	shapes[s].fn(size);
	prog.insns = code;
	prog.len = n;
	diag_clear(&d);
	t0 = wall_s();
	if (scev_analyze(&cp, &prog, NULL, 0, &so, &d)) {
		fprintf(stderr, "analysis failed: %s\n", d.msg);
		exit(1);
	}
	t0 = wall_s() - t0;
	*loops = cp.nloops;
	if (json) {
		struct sbuf sb = SBUF_INIT;

		claims_write_prog(&sb, &cp);
		fwrite(sbuf_cstr(&sb), 1, sb.len, stdout);
		putchar('\n');
		sbuf_free(&sb);
	}
	claim_prog__free(&cp);
	return t0 * 1e3;
}

static int analyze_main(int argc, char **argv)
{
	uint32_t loops;

	if (argc == 4 || (argc == 5 && !strcmp(argv[4], "--json"))) {
		for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
			if (!strcmp(argv[2], shapes[s].key)) {
				double ms = analyze_once(s, strtoul(argv[3], NULL, 0), &loops,
							 argc == 5);

				if (argc == 4)
					printf("%s: %zu insns, %u loops, %.1f ms\n", shapes[s].name,
					       n, loops, ms);
				free(code);
				return 0;
			}
		fprintf(stderr, "unknown shape %s\n", argv[2]);
		return 2;
	}
	printf("| shape | insns | loops | analysis (ms) | x per 10x size |\n");
	printf("|---|---|---|---|---|\n");
	for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
		double prev = 0;

		for (size_t z = 0; z < 4; z++) {
			double ms = analyze_once(s, sizes[z], &loops, false);

			printf("| %s | %zu | %u | %.1f | ", shapes[s].name, n, loops, ms);
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

int main(int argc, char **argv)
{
	heap_tune();
	if (argc >= 2 && !strcmp(argv[1], "--analyze"))
		return analyze_main(argc, argv);

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
