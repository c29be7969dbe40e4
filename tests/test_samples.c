/* Every stage survives every real-world object: open (malformed files rejected with a reason),
 * loop structure, analysis, and the concrete oracle on the claims (a few short runs; a program
 * the oracle cannot run is a failure naming the interpreter's reason, not a silent pass).  The
 * directory comes from BPFSCEV_SAMPLES_DIR (set by CMake from BPFSCEV_SHARED_DIR; README "Test
 * data"); without it the test is reported as skipped (exit 77, one line). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "casefile/casefile.h"
#include "oracle/exec/check.h"
#include "oracle/exec/interp.h"
#include "scev/report.h"
#include "scev/scev.h"
#include "tests/check.h"

static unsigned files, rejected, programs, loops, refuted, oracle_errors;

/* Why the oracle could not run a program: the interpreter's own reason when it refuses it. */
static void oracle_failed(const char *path, const struct ebpf_prog *p, int err)
{
	struct interp_code *code = NULL;
	struct diag d;

	oracle_errors++;
	diag_clear(&d);
	if (interp_prepare(&code, p, &d))
		CHECK(0, "%s %s: the oracle cannot run it (%s): %s", path, p->name, strerror(-err),
		      d.msg);
	else
		CHECK(0, "%s %s: the oracle failed: %s", path, p->name, strerror(-err));
	interp_code__free(code);
}

static void one(const char *path)
{
	struct ebpf_object *obj = NULL;
	struct diag d;

	diag_clear(&d);
	files++;
	if (casefile__open_object(&obj, path, &d)) {
		rejected++;
		CHECK(d.msg[0] != '\0', "%s: rejected without a reason", path);
		return;
	}
	for (size_t i = 0; i < obj->prog_cnt; i++) {
		const struct ebpf_prog *p = &obj->progs[i];
		struct scev_opts so = { .sz = sizeof(so) };
		struct check_opts co = { .sz = sizeof(co), .runs = 2, .step_budget = 20000 };
		struct scev_structure st;
		struct check_result res;
		struct claim_prog cp;
		struct sbuf sb = SBUF_INIT;
		int err;

		programs++;
		CHECK(scev_structure__build(&st, p->insns, p->len, &d) == 0, "%s %s: %s", path, p->name,
		      d.msg);
		scev_report_loops_json(&sb, p->name, &st);
		CHECK(!sb.oom, "report");
		sbuf_free(&sb);
		scev_structure__free(&st);
		if (scev_analyze(&cp, p, obj->maps, obj->map_cnt, &so, &d)) {
			CHECK(0, "%s %s: analysis failed: %s", path, p->name, d.msg);
			continue;
		}
		loops += cp.nloops;
		err = oracle_check(&res, obj, p, &cp, &co);
		if (err == 0) {
			for (uint32_t k = 0; k < res.nfindings; k++)
				CHECK(0, "%s %s: refuted: %s", path, p->name, res.findings[k].text);
			refuted += res.nfindings;
			check_result__free(&res);
		} else {
			oracle_failed(path, p, err);
		}
		claim_prog__free(&cp);
	}
	ebpf_object__free(obj);
}

static void walk(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char p[1024];
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		if (stat(p, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			walk(p);
		else if (S_ISREG(st.st_mode) && strcmp(de->d_name, "README.md"))
			one(p);
	}
	if (d)
		closedir(d);
}

int main(void)
{
	const char *dir = getenv("BPFSCEV_SAMPLES_DIR");
	struct stat st;

	if (!dir)
		return check_skip("test_samples", "BPFSCEV_SAMPLES_DIR is not set");
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return check_skip("test_samples", "no samples directory at %s (set "
				  "BPFSCEV_SHARED_DIR or BPFSCEV_SAMPLES_DIR)", dir);
	walk(dir);
	printf("%u files (%u rejected), %u programs, %u loops, %u refuted claims, %u programs the "
	       "oracle could not run\n", files, rejected, programs, loops, refuted, oracle_errors);
	CHECK(files > 100 && programs > 300, "too few samples found under %s", dir);
	return check_done("test_samples");
}
