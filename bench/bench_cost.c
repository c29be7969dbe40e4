/* The kernel verifier's cost beside bpfscev's, in one run, over loop families: a single loop
 * (r0 += 3; r1 += 1; if r1 < N) from N = 10 to 2^32, nests of depth 1 to 3 with 10^3 to 10^5
 * iterations in all, and loops bounded by a masked input (the packet length & MASK).  For each:
 * bpfscev's analysis time (median of repeated runs), the trip count it claims, and the kernel's
 * processed instructions, verification time (statistics-level log, median of three loads when
 * quick), wall time and verdict.  Prints a markdown table; with --svg FILE also writes the plot
 * (log-scale trip count against log-scale time, one series per tool) that docs/BENCHMARKS.md
 * shows.  Where bpf() is refused the kernel columns say so.
 *
 *   cmake --build build-release --target bench_cost
 *   ./build-release/bench/bench_cost --svg docs/cost.svg
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "oracle/kernel/kernel.h"
#include "scev/scev.h"
#include "util/clock.h"
#include "util/heap.h"
#include "util/sbuf.h"

enum family { FAM_SINGLE, FAM_NEST, FAM_MASKED };

struct row {
	enum family fam;
	char shape[48];
	uint64_t trip;		/* header executions of the innermost loop, in all */
	double scev_us;
	char claimed[48];
	bool kernel_ran, accepted;
	long processed;
	double kernel_us, kernel_wall_ms;
	char verdict[96];
};

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median of runs repeated for 0.3 s (5 to 201 runs). */
static int time_analysis(struct row *r, const struct ebpf_object *obj)
{
	struct scev_opts so = { .sz = sizeof(so), .prog_type = BPF_PROG_TYPE_SOCKET_FILTER };
	double t[201], spent = 0;
	int n = 0;
	struct diag d;

	while (n < 201 && (n < 5 || spent < 3e5)) {
		struct claim_prog cp;
		double t0 = wall_s();

		diag_clear(&d);
		if (scev_analyze(&cp, &obj->progs[0], obj->maps, obj->map_cnt, &so, &d)) {
			fprintf(stderr, "bench_cost: %s: %s\n", r->shape, d.msg);
			return -1;
		}
		t[n] = 1e6 * (wall_s() - t0);
		spent += t[n++];
		/* the innermost loop: the last in pc order */
		if (cp.nloops) {
			const struct claim_trip *tr = &cp.loops[cp.nloops - 1].trip;

			if (tr->kind == TRIP_UNKNOWN)
				snprintf(r->claimed, sizeof(r->claimed), "unknown");
			else
				snprintf(r->claimed, sizeof(r->claimed), "%s %" PRIu64,
					 tr->kind == TRIP_EXACT ? "exact" : "at most", tr->max);
		}
		claim_prog__free(&cp);
	}
	qsort(t, (size_t)n, sizeof(t[0]), cmp_d);
	r->scev_us = t[n / 2];
	return 0;
}

static void time_kernel(struct row *r, const struct ebpf_object *obj)
{
	struct kernel_prog_opts ko = { .sz = sizeof(ko), .log_level = 4, .log_size = 1 << 20,
				       .log_max = 1 << 20,
				       .prog_type = BPF_PROG_TYPE_SOCKET_FILTER };
	double t[3], w[3];
	int n = 0;
	struct diag d;

	do {
		struct kernel_prog *kp = NULL;
		double t0 = wall_s();

		diag_clear(&d);
		if (kernel_prog__load(&kp, obj, &obj->progs[0], &ko, &d)) {
			snprintf(r->verdict, sizeof(r->verdict), "%.90s", d.msg);
			return;
		}
		w[n] = 1e3 * (wall_s() - t0);	/* ms */
		t[n] = (double)kp->verification_usec;
		r->kernel_ran = true;
		r->accepted = kp->accepted;
		r->processed = kp->processed;
		if (kp->accepted)
			snprintf(r->verdict, sizeof(r->verdict), "accepted");
		else
			snprintf(r->verdict, sizeof(r->verdict), "rejected (%s): %.*s",
				 kp->err == E2BIG ? "E2BIG" : kp->err == EFAULT ? "EFAULT" :
				 kp->err == EACCES ? "EACCES" : strerror(kp->err),
				 (int)strcspn(kp->message, "."), kp->message);	/* first sentence */
		kernel_prog__free(kp);
		n++;
	} while (n < 3 && w[n - 1] < 500);
	qsort(t, (size_t)n, sizeof(t[0]), cmp_d);
	qsort(w, (size_t)n, sizeof(w[0]), cmp_d);
	r->kernel_us = t[n / 2];
	r->kernel_wall_ms = w[n / 2];
}

static int measure(struct row *r, const char *text, bool kernel)
{
	struct ebpf_object *obj = NULL;
	struct diag d;

	diag_clear(&d);
	if (ebpf_object__open_mem(&obj, text, strlen(text), "loop", &d)) {
		fprintf(stderr, "bench_cost: %s: %s\n", r->shape, d.msg);
		return -1;
	}
	if (time_analysis(r, obj)) {
		ebpf_object__free(obj);
		return -1;
	}
	if (kernel)
		time_kernel(r, obj);
	else
		snprintf(r->verdict, sizeof(r->verdict), "bpf() refused");
	ebpf_object__free(obj);
	return 0;
}

/* r0 += 3; r1 += 1; while r1 < N, N in a register so every N has the same instructions. */
static void single(struct sbuf *sb, uint64_t n)
{
	sbuf_printf(sb, "r0 = 0\nr1 = 0\nr2 = %#" PRIx64 " ll\nl: r0 += 3\nr1 += 1\n"
		    "if r1 < r2 goto l\nexit\n", n);
}

/* depth nested do-while loops of n iterations each; the innermost adds 3 to r0. */
static void nest(struct sbuf *sb, int depth, uint32_t n)
{
	sbuf_puts(sb, "r0 = 0\n");
	for (int i = 0; i < depth; i++)
		sbuf_printf(sb, "r%d = 0\nl%d: ", i + 1, i);
	sbuf_puts(sb, "r0 += 3\n");
	for (int i = depth - 1; i >= 0; i--)
		sbuf_printf(sb, "r%d += 1\nif r%d < %u goto l%d\n", i + 1, i + 1, n, i);
	sbuf_puts(sb, "exit\n");
}

/* while (r1 < (skb->len & mask)): the bound is any value up to mask. */
static void masked(struct sbuf *sb, uint32_t mask)
{
	sbuf_printf(sb, "r6 = *(u32 *)(r1 +0)\nr6 &= %#x\nr0 = 0\nr1 = 0\n"
		    "l: if r1 >= r6 goto out\nr0 += 3\nr1 += 1\ngoto l\nout: exit\n", mask);
}

/* ---- the plot ---- */

#define W 760
#define H 480
#define L 80	/* margins */
#define R 30
#define T 40
#define B 60

static double xmin = 1, xmax = 1e10, ymin = 1, ymax = 1e8;

static double px(double x)
{
	return L + (log10(x) - log10(xmin)) / (log10(xmax) - log10(xmin)) * (W - L - R);
}

static double py(double y)
{
	if (y < ymin)
		y = ymin;
	return H - B - (log10(y) - log10(ymin)) / (log10(ymax) - log10(ymin)) * (H - T - B);
}

static void marker(FILE *f, enum family fam, double x, double y, const char *color, bool cross)
{
	if (cross) {
		fprintf(f, "<path d=\"M%.1f %.1fl10 10m0 -10l-10 10\" stroke=\"%s\" stroke-width=\"2\"/>\n",
			x - 5, y - 5, color);
	} else if (fam == FAM_SINGLE) {
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>\n", x, y, color);
	} else if (fam == FAM_NEST) {
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"none\" "
			"stroke=\"%s\" stroke-width=\"1.5\"/>\n", x - 4, y - 4, color);
	} else {
		fprintf(f, "<path d=\"M%.1f %.1fl5 9h-10z\" fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"1.5\"/>\n", x, y - 5, color);
	}
}

static void series_line(FILE *f, const struct row *rows, size_t n, bool kernel, const char *color)
{
	bool first = true;

	fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", color);
	for (size_t i = 0; i < n; i++) {
		double y = kernel ? rows[i].kernel_us : rows[i].scev_us;

		if (rows[i].fam != FAM_SINGLE || (kernel && !rows[i].kernel_ran))
			continue;
		fprintf(f, "%s%.1f,%.1f", first ? "" : " ", px((double)rows[i].trip), py(y));
		first = false;
	}
	fprintf(f, "\"/>\n");
}

static void plot(const char *path, const struct row *rows, size_t n)
{
	static const char *const kcol = "#c0392b", *const scol = "#2471a3";
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "bench_cost: cannot write %s\n", path);
		return;
	}
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H, W, H);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H);
	fprintf(f, "<text x=\"%d\" y=\"22\" font-size=\"15\" text-anchor=\"middle\">Kernel verifier "
		"versus bpfscev: time against trip count</text>\n", W / 2);
	/* grid and axes: one line per decade */
	for (double x = xmin; x <= xmax * 1.01; x *= 10) {
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e5e5e5\"/>\n",
			px(x), T, px(x), H - B);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">10<tspan dy=\"-6\" "
			"font-size=\"9\">%d</tspan></text>\n", px(x), H - B + 18, (int)lround(log10(x)));
	}
	for (double y = ymin; y <= ymax * 1.01; y *= 10) {
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e5e5e5\"/>\n",
			L, py(y), W - R, py(y));
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">10<tspan dy=\"-6\" "
			"font-size=\"9\">%d</tspan></text>\n", L - 8, py(y) + 4, (int)lround(log10(y)));
	}
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
		"stroke=\"#444\"/>\n", L, T, W - L - R, H - T - B);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">trip count (iterations of the "
		"innermost loop, in all)</text>\n", (L + W - R) / 2, H - 18);
	fprintf(f, "<text transform=\"translate(22 %d) rotate(-90)\" text-anchor=\"middle\">time "
		"(µs)</text>\n", (T + H - B) / 2);
	/* the kernel's limit: about 333,000 iterations of a 3-instruction body */
	fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#888\" "
		"stroke-dasharray=\"4 3\"/>\n<text x=\"%.1f\" y=\"%d\" fill=\"#666\">single loop: 10"
		"<tspan dy=\"-6\" font-size=\"9\">6</tspan><tspan dy=\"6\">&#160;processed insns"
		"</tspan></text>\n", px(333333), T, px(333333), H - B, px(333333) + 4, T + 14);
	series_line(f, rows, n, true, kcol);
	series_line(f, rows, n, false, scol);
	for (size_t i = 0; i < n; i++) {
		if (rows[i].kernel_ran)
			marker(f, rows[i].fam, px((double)rows[i].trip), py(rows[i].kernel_us), kcol,
			       !rows[i].accepted);
		marker(f, rows[i].fam, px((double)rows[i].trip), py(rows[i].scev_us), scol, false);
	}
	/* legend */
	fprintf(f, "<g transform=\"translate(%d %d)\">\n", L + 12, T + 12);
	fprintf(f, "<rect width=\"250\" height=\"104\" fill=\"white\" stroke=\"#ccc\"/>\n");
	fprintf(f, "<line x1=\"8\" y1=\"14\" x2=\"28\" y2=\"14\" stroke=\"%s\" stroke-width=\"2\"/>"
		"<text x=\"34\" y=\"18\">kernel verification time</text>\n", kcol);
	fprintf(f, "<line x1=\"8\" y1=\"32\" x2=\"28\" y2=\"32\" stroke=\"%s\" stroke-width=\"2\"/>"
		"<text x=\"34\" y=\"36\">bpfscev analysis time</text>\n", scol);
	marker(f, FAM_SINGLE, 18, 50, "#444", false);
	fprintf(f, "<text x=\"34\" y=\"54\">single loop</text>\n");
	marker(f, FAM_NEST, 18, 68, "#444", false);
	fprintf(f, "<text x=\"34\" y=\"72\">nest, depth 1-3</text>\n");
	marker(f, FAM_MASKED, 18, 86, "#444", false);
	fprintf(f, "<text x=\"34\" y=\"90\">bound = input &amp; mask</text>\n");
	marker(f, FAM_SINGLE, 150, 50, "#444", true);
	fprintf(f, "<text x=\"162\" y=\"54\">rejected</text>\n</g>\n</svg>\n");
	fclose(f);
}

int main(int argc, char **argv)
{
	static const uint64_t trips[] = { 10, 100, 1000, 10000, 100000, 300000, 1000000,
					  1ull << 32 };
	static const struct { int depth; uint32_t n; } nests[] = {
		{ 1, 1000 }, { 1, 10000 }, { 1, 100000 }, { 2, 32 }, { 2, 100 }, { 2, 316 },
		{ 3, 10 }, { 3, 22 }, { 3, 46 },
	};
	static const uint32_t masks[] = { 0xff, 0xfff, 0xffff, 0xfffff };
	struct row rows[64];
	size_t nr = 0;
	const char *svg = NULL;
	bool kernel = kernel_available(NULL, 0);

	heap_tune();
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--svg") && i + 1 < argc) {
			svg = argv[++i];
		} else {
			fprintf(stderr, "usage: bench_cost [--svg FILE]\n");
			return 2;
		}
	}
	for (size_t i = 0; i < sizeof(trips) / sizeof(trips[0]); i++) {
		struct sbuf sb = SBUF_INIT;
		struct row *r = &rows[nr];

		memset(r, 0, sizeof(*r));
		r->fam = FAM_SINGLE;
		r->trip = trips[i];
		snprintf(r->shape, sizeof(r->shape), "single loop, N = %" PRIu64, trips[i]);
		single(&sb, trips[i]);
		nr += !measure(r, sbuf_cstr(&sb), kernel);
		sbuf_free(&sb);
	}
	for (size_t i = 0; i < sizeof(nests) / sizeof(nests[0]); i++) {
		struct sbuf sb = SBUF_INIT;
		struct row *r = &rows[nr];

		memset(r, 0, sizeof(*r));
		r->fam = FAM_NEST;
		r->trip = 1;
		for (int k = 0; k < nests[i].depth; k++)
			r->trip *= nests[i].n;
		snprintf(r->shape, sizeof(r->shape), "nest depth %d, %u each", nests[i].depth,
			 nests[i].n);
		nest(&sb, nests[i].depth, nests[i].n);
		nr += !measure(r, sbuf_cstr(&sb), kernel);
		sbuf_free(&sb);
	}
	for (size_t i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
		struct sbuf sb = SBUF_INIT;
		struct row *r = &rows[nr];

		memset(r, 0, sizeof(*r));
		r->fam = FAM_MASKED;
		r->trip = (uint64_t)masks[i] + 1;	/* header executions at the largest bound */
		snprintf(r->shape, sizeof(r->shape), "bound = len & %#x", masks[i]);
		masked(&sb, masks[i]);
		nr += !measure(r, sbuf_cstr(&sb), kernel);
		sbuf_free(&sb);
	}
	printf("| program | trip count | bpfscev (µs) | bpfscev's trip claim | kernel processed "
	       "insns | kernel verification (µs) | kernel wall (ms) | kernel verdict | kernel / "
	       "bpfscev |\n");
	printf("|---|---:|---:|---|---:|---:|---:|---|---:|\n");
	for (size_t i = 0; i < nr; i++) {
		const struct row *r = &rows[i];

		printf("| %s | %" PRIu64 " | %.1f | %s |", r->shape, r->trip, r->scev_us,
		       r->claimed[0] ? r->claimed : "-");
		if (r->kernel_ran)
			printf(" %ld | %.0f | %.1f | %s | %.0f× |\n", r->processed, r->kernel_us,
			       r->kernel_wall_ms, r->verdict,
			       r->scev_us > 0 ? r->kernel_us / r->scev_us : 0);
		else
			printf(" - | - | - | %s | - |\n", r->verdict);
	}
	if (svg)
		plot(svg, rows, nr);
	return 0;
}
