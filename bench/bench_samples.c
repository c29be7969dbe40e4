/* Runs the loop structure and the analysis over every object of a samples tree and prints a
 * markdown table per directory: files opened and rejected, programs, loops, irreducible loops,
 * loops with a finite bound, exact ones, and the analysis time.  docs/SAMPLES.md is its output.
 *
 * Usage: bench_samples [DIR] [--oracle].  Without DIR: $BPFSCEV_SAMPLES_DIR, else the build's
 * BPFSCEV_SHARED_DIR/ebpf-samples (by default ../shared beside the source tree), the directory
 * the tests read. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "casefile/casefile.h"
#include "oracle/exec/check.h"
#include "scev/loop.h"
#include "scev/scev.h"
#include "util/clock.h"
#include "util/heap.h"

#ifndef BPFSCEV_SAMPLES_DEFAULT
#define BPFSCEV_SAMPLES_DEFAULT "../shared/ebpf-samples"
#endif

struct tally {
	unsigned files, rejected, programs, loops, irreducible, bounded, exact, refuted;
	double ms;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void one_file(const char *path, struct tally *t, bool oracle, FILE *notes)
{
	struct ebpf_object *obj = NULL;
	struct diag d;
	char msg[600];

	diag_clear(&d);
	t->files++;
	if (casefile__open_object(&obj, path, &d)) {
		diag_format(&d, msg, sizeof(msg));
		t->rejected++;
		fprintf(notes, "| `%s` | rejected: %s |\n", strrchr(path, '/') + 1, strchr(msg, ':') ? strchr(msg, ':') + 2 : msg);
		return;
	}
	for (size_t i = 0; i < obj->prog_cnt; i++) {
		const struct ebpf_prog *p = &obj->progs[i];
		struct scev_opts so = { .sz = sizeof(so) };
		struct claim_prog cp;
		double t0 = wall_s();

		t->programs++;
		if (scev_analyze(&cp, p, obj->maps, obj->map_cnt, &so, &d)) {
			fprintf(notes, "| `%s` %s | analysis failed: %s |\n", strrchr(path, '/') + 1, p->name,
				d.msg);
			continue;
		}
		t->ms += 1e3 * (wall_s() - t0);
		for (uint32_t l = 0; l < cp.nloops; l++) {
			t->loops++;
			t->irreducible += cp.loops[l].irreducible;
			t->bounded += cp.loops[l].trip.kind != TRIP_UNKNOWN;
			t->exact += cp.loops[l].trip.kind == TRIP_EXACT;
		}
		if (oracle) {
			struct check_opts co = { .sz = sizeof(co), .runs = 8, .step_budget = 100000 };
			struct check_result res;

			if (!oracle_check(&res, obj, p, &cp, &co)) {
				t->refuted += res.nfindings;
				for (uint32_t k = 0; k < res.nfindings; k++)
					fprintf(notes, "| `%s` %s | REFUTED: %s |\n", strrchr(path, '/') + 1,
						p->name, res.findings[k].text);
				check_result__free(&res);
			}
		}
		claim_prog__free(&cp);
	}
	ebpf_object__free(obj);
}

int main(int argc, char **argv)
{
	const char *root = getenv("BPFSCEV_SAMPLES_DIR");
	bool oracle = false;
	struct tally total = { 0 };
	char *dirs[64];
	size_t nd = 0;
	DIR *dr;
	struct dirent *de;
	FILE *notes = tmpfile();
	char line[1024];

	heap_tune();
	if (!root || !*root)
		root = BPFSCEV_SAMPLES_DEFAULT;
	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--oracle"))
			oracle = true;
		else
			root = argv[a];
	}
	dr = opendir(root);
	if (!dr || !notes) {
		fprintf(stderr, "bench_samples: cannot open %s\n", root);
		return 2;
	}
	while ((de = readdir(dr)) && nd < 64)
		if (de->d_name[0] != '.') {
			char p[512];
			struct stat st;

			snprintf(p, sizeof(p), "%s/%s", root, de->d_name);
			if (!stat(p, &st) && S_ISDIR(st.st_mode))
				dirs[nd++] = strdup(de->d_name);
		}
	closedir(dr);
	qsort(dirs, nd, sizeof(*dirs), cmp_str);
	printf("| directory | files | rejected | programs | loops | irreducible | bounded | exact | "
	       "analysis ms |%s\n|---|---|---|---|---|---|---|---|---|%s\n",
	       oracle ? " refuted |" : "", oracle ? "---|" : "");
	for (size_t i = 0; i < nd; i++) {
		struct tally t = { 0 };
		char dp[512], *files[512];
		size_t nf = 0;
		DIR *sd;

		snprintf(dp, sizeof(dp), "%s/%s", root, dirs[i]);
		sd = opendir(dp);
		while (sd && (de = readdir(sd)) && nf < 512)
			if (de->d_name[0] != '.')
				files[nf++] = strdup(de->d_name);
		if (sd)
			closedir(sd);
		qsort(files, nf, sizeof(*files), cmp_str);
		for (size_t f = 0; f < nf; f++) {
			char fp[1024];

			snprintf(fp, sizeof(fp), "%s/%s", dp, files[f]);
			one_file(fp, &t, oracle, notes);
			free(files[f]);
		}
		printf("| %s | %u | %u | %u | %u | %u | %u | %u | %.1f |", dirs[i], t.files, t.rejected,
		       t.programs, t.loops, t.irreducible, t.bounded, t.exact, t.ms);
		if (oracle)
			printf(" %u |", t.refuted);
		printf("\n");
		total.files += t.files;
		total.rejected += t.rejected;
		total.programs += t.programs;
		total.loops += t.loops;
		total.irreducible += t.irreducible;
		total.bounded += t.bounded;
		total.exact += t.exact;
		total.refuted += t.refuted;
		total.ms += t.ms;
		free(dirs[i]);
	}
	printf("| **total** | %u | %u | %u | %u | %u | %u | %u | %.1f |", total.files, total.rejected,
	       total.programs, total.loops, total.irreducible, total.bounded, total.exact, total.ms);
	if (oracle)
		printf(" %u |", total.refuted);
	printf("\n\n| file | note |\n|---|---|\n");
	rewind(notes);
	while (fgets(line, sizeof(line), notes))
		fputs(line, stdout);
	fclose(notes);
	return total.refuted ? 1 : 0;
}
