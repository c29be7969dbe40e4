/* The Z3 oracle's cost and reach: every claim the analyzer makes about the regression corpus
 * (corpus/cases/) and about generated programs (generators/gen.h, seeds 1..N) is decided by
 * smt_check; the time per claim (the solver time spent on it), its median and 95th percentile,
 * and the shares proved, refuted and unknown are printed, with claims per second of wall time.
 * A refuted claim is an analyzer soundness bug (its program and input are printed); an encoding
 * finding is a bug of the oracle.
 *
 *   bench_smt [--gen N] [--seed S] [--timeout MS] [--depth N] [--budget S] [--rlimit N]
 *             [--program-rlimit N] [--no-corpus] [--verbose] [--dump DIR]
 * --rlimit and --program-rlimit bound Z3 by resource units (smt_opts): the verdicts are then
 * the same on any machine and only the times vary.
 * --dump DIR writes each generated program with a refuted claim as DIR/gen-<seed>.s.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bpf/prog.h"
#include "casefile/casefile.h"
#include "fuzz/corpus.h"
#include "generators/gen.h"
#include "oracle/z3/smt.h"
#include "scev/scev.h"
#include "util/clock.h"
#include "util/heap.h"

struct totals {
	double *ms;			/* per claim */
	size_t n, cap;
	uint64_t proved, refuted, unknown, encoding, programs, failed_programs;
	uint64_t by_method[4];
	uint64_t rlimit;		/* Z3 resource units spent */
	double wall;
	uint64_t reasons_timeout, reasons_unsupported, reasons_inductive, reasons_other;
};

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void add_ms(struct totals *t, double ms)
{
	if (t->n == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 1024;
		double *nv = realloc(t->ms, nc * sizeof(*nv));

		if (!nv)
			return;
		t->ms = nv;
		t->cap = nc;
	}
	t->ms[t->n++] = ms;
}

/* Analyzes and decides one program; returns the number of refuted claims. */
static int one(struct totals *t, const struct ebpf_object *obj, const struct ebpf_prog *prog,
	       const struct smt_opts *zo, const char *name, bool verbose)
{
	struct scev_opts so = { .sz = sizeof(so), .prog_type = prog->prog_type };
	struct claim_prog cp = { 0 };
	struct smt_result r;
	struct diag d;
	double t0 = wall_s();
	int err, refuted;

	diag_clear(&d);
	if (scev_analyze(&cp, prog, obj ? obj->maps : NULL, obj ? obj->map_cnt : 0, &so, &d)) {
		t->failed_programs++;
		return 0;
	}
	err = smt_check(&r, obj, prog, &cp, zo);
	t->wall += wall_s() - t0;
	if (err) {
		fprintf(stderr, "%s: smt_check: %s\n", name, strerror(-err));
		t->failed_programs++;
		claim_prog__free(&cp);
		return 0;
	}
	t->programs++;
	for (uint32_t k = 0; k < r.nclaims; k++) {
		const struct smt_claim_result *c = &r.claims[k];

		add_ms(t, c->ms);
		if (c->verdict == SMT_PROVED) {
			t->proved++;
			t->by_method[c->method]++;
		} else if (c->verdict == SMT_REFUTED) {
			t->refuted++;
		} else {
			t->unknown++;
			if (strstr(c->reason, "solver") || strstr(c->reason, "budget") ||
			    strstr(c->reason, "resource"))
				t->reasons_timeout++;
			else if (strstr(c->reason, "unsupported"))
				t->reasons_unsupported++;
			else if (strstr(c->reason, "inductive"))
				t->reasons_inductive++;
			else
				t->reasons_other++;
			if (verbose)
				printf("  %s: unknown: %s\n", name, c->reason);
		}
	}
	t->encoding += r.encoding_bugs;
	t->rlimit += r.rlimit_used;
	refuted = (int)r.refuted;
	if (verbose || r.refuted || r.encoding_bugs)
		printf("%s: %u claims, %u proved, %u refuted, %u unknown, %.0f ms%s%s\n", name,
		       r.nclaims, r.proved, r.refuted, r.unknown, r.ms, r.note[0] ? "; " : "",
		       r.note);
	for (uint32_t k = 0; k < r.nfindings; k++)
		printf("  %s FINDING %s: %s\n", name, finding_kind_name(r.findings[k].kind),
		       r.findings[k].text);
	smt_result__free(&r);
	claim_prog__free(&cp);
	return refuted;
}

int main(int argc, char **argv)
{
	struct smt_opts zo = { .sz = sizeof(zo), .timeout_ms = 1000, .budget_s = 60 };
	struct totals t = { 0 };
	unsigned gens = 30;
	uint64_t seed = 1;
	bool corpus = true, verbose = false;
	const char *dump = NULL;
	char path[1024];

	heap_tune();
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--gen") && i + 1 < argc)
			gens = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--timeout") && i + 1 < argc)
			zo.timeout_ms = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--depth") && i + 1 < argc)
			zo.bmc_depth = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--budget") && i + 1 < argc)
			zo.budget_s = strtod(argv[++i], NULL);
		else if (!strcmp(argv[i], "--rlimit") && i + 1 < argc)
			zo.rlimit = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--program-rlimit") && i + 1 < argc)
			zo.program_rlimit = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--no-corpus"))
			corpus = false;
		else if (!strcmp(argv[i], "--verbose"))
			verbose = true;
		else if (!strcmp(argv[i], "--dump") && i + 1 < argc)
			dump = argv[++i];
		else {
			fprintf(stderr, "usage: bench_smt [--gen N] [--seed S] [--timeout MS] "
					"[--depth N] [--budget S] [--rlimit N] [--program-rlimit N] "
					"[--no-corpus] [--verbose] [--dump DIR]\n");
			return 2;
		}
	}
	if (corpus) {
		const char *src = getenv("BPFSCEV_SOURCE_DIR");
		char **names = NULL;
		long got;
		size_t nn;

		snprintf(path, sizeof(path), "%s/corpus/cases", src ? src : ".");
		got = corpus_list_cases(path, &names);
		nn = got > 0 ? (size_t)got : 0;
		for (size_t k = 0; k < nn; k++) {
			struct ebpf_object *obj = NULL;
			struct diag d;
			char file[2048];

			snprintf(file, sizeof(file), "%s/%s", path, names[k]);
			diag_clear(&d);
			/* a case's "-- type" is its program's type (casefile/) */
			if (!casefile__open_object(&obj, file, &d))
				for (size_t p = 0; p < obj->prog_cnt; p++)
					one(&t, obj, &obj->progs[p], &zo, names[k], verbose);
			ebpf_object__free(obj);
			free(names[k]);
		}
		free(names);
	}
	for (unsigned g = 0; g < gens; g++) {
		struct gen_program gp = { 0 };
		struct gen_knobs k = gen_knobs_default();
		struct gen_src src;
		struct ebpf_prog view;
		struct ebpf_object obj;
		char name[64];

		snprintf(name, sizeof(name), "gen-%" PRIu64, seed + g);
		gen_src_init_seed(&src, seed + g);
		if (gen_program(&gp, &src, &k)) {
			gen_program__free(&gp);
			continue;
		}
		gen_program__object(&gp, &obj, &view, name);
		if (one(&t, &obj, &view, &zo, name, verbose) && dump) {
			struct sbuf sb = { 0 };
			FILE *f;

			snprintf(path, sizeof(path), "%s/%s.s", dump, name);
			gen_program__to_asm(&sb, &gp);
			f = fopen(path, "w");
			if (f) {
				fputs(sbuf_cstr(&sb), f);
				fclose(f);
			}
			sbuf_free(&sb);
		}
		gen_program__free(&gp);
	}
	qsort(t.ms, t.n, sizeof(*t.ms), cmp_d);
	printf("programs %" PRIu64 " (%" PRIu64 " not analyzed), claims %zu: proved %" PRIu64
	       " (%.1f%%: induction %" PRIu64 ", exhaustive unrolling %" PRIu64 "), refuted %"
	       PRIu64 ", unknown %" PRIu64 " (solver limit %" PRIu64 ", unsupported %" PRIu64
	       ", not inductive %" PRIu64 ", other %" PRIu64 "), encoding findings %" PRIu64
	       ", %" PRIu64 " Z3 resource units\n",
	       t.programs, t.failed_programs, t.n, t.proved, t.n ? 100.0 * t.proved / t.n : 0.0,
	       t.by_method[1], t.by_method[2], t.refuted, t.unknown, t.reasons_timeout,
	       t.reasons_unsupported, t.reasons_inductive, t.reasons_other, t.encoding, t.rlimit);
	if (t.n)
		printf("solver ms per claim: median %.2f, p95 %.2f, max %.1f; wall %.1f s, %.1f "
		       "claims/s\n", t.ms[t.n / 2], t.ms[(size_t)(t.n * 0.95)], t.ms[t.n - 1], t.wall,
		       t.n / (t.wall > 0 ? t.wall : 1));
	free(t.ms);
	return 0;
}
