/* The kernel verifier bugs bpfscev found (the .s files of docs/kernel-findings) and the commands
 * that handle kernel findings: each reproducer is loaded with BPF_F_TEST_REG_INVARIANTS through
 * kdiff_run; while the running kernel still shows the bug, it is saved as a finding directory,
 * `bpfscev replay DIR` must report it held (exit 1, asking the kernel, not the interpreter) and
 * `bpfscev reduce DIR` must write a reduced program that still shows it.  A kernel that no
 * longer shows a bug cannot check it: the test is then reported as skipped (exit 77) naming the
 * reproducer (fixed upstream?), after the others were checked; their failures still fail it.
 * Skips the same way where bpf() is refused. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "bpf/prog.h"
#include "casefile/casefile.h"
#include "triage/finding.h"
#include "oracle/kernel/kdiff.h"
#include "triage/kfinding.h"
#include "oracle/kernel/kernel.h"
#include "tests/check.h"

static int run(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Reproducers this kernel no longer shows: their names, for the skip line. */
static char not_shown[1024];

static void one(const char *path, const char *bin)
{
	struct ebpf_object *obj = NULL;
	struct kdiff_opts ko = { .sz = sizeof(ko) };
	struct kdiff_result res;
	struct finding f;
	struct diag d;
	char dir[] = "/tmp/bpfscev-kfind.XXXXXX", saved[4096], cmd[8600], rpath[4200];
	enum finding_save_result sr;
	FILE *fp;

	diag_clear(&d);
	if (casefile__open_object(&obj, path, &d)) {
		CHECK(0, "%s: %s", path, d.msg);
		return;
	}
	CHECK(kdiff_run(&res, obj, &obj->progs[0], &ko, &d) == 0, "%s: kdiff: %s", path, d.msg);
	if (res.kind != KDIFF_INVARIANT) {
		size_t l = strlen(not_shown);

		printf("%s: this kernel no longer shows it (%s): fixed?\n", path,
		       kdiff_kind_name(res.kind));
		/* a list too long for the line ends where the buffer does */
		if (snprintf(not_shown + l, sizeof(not_shown) - l, "%s%s (%s)", l ? ", " : "",
			     strrchr(path, '/') ? strrchr(path, '/') + 1 : path,
			     kdiff_kind_name(res.kind)) >= (int)(sizeof(not_shown) - l))
			not_shown[sizeof(not_shown) - 1] = '\0';
		kdiff_result__free(&res);
		ebpf_object__free(obj);
		return;
	}
	printf("%s: still shown: %s\n", path, res.text);
	CHECK(kdiff_finding(&f, &res, obj, &obj->progs[0]) == 0, "kdiff_finding");
	CHECK(!strcmp(f.source, "kernel-invariant"), "source '%s'", f.source);
	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	CHECK(finding__save(&f, dir, NULL, &sr, saved, sizeof(saved)) == 0 && sr == FINDING_NEW,
	      "save");
	snprintf(cmd, sizeof(cmd), "'%s' replay '%s' >/dev/null", bin, saved);
	CHECK(run(cmd) == 1, "%s: replay does not see the kernel bug", path);
	snprintf(cmd, sizeof(cmd), "'%s' reduce '%s' --max-tests 200 >/dev/null", bin, saved);
	CHECK(run(cmd) == 0, "%s: reduce failed", path);
	snprintf(rpath, sizeof(rpath), "%s/reduced.bin", saved);
	fp = fopen(rpath, "rb");
	CHECK(fp != NULL, "%s: no reduced.bin", path);
	if (fp)
		fclose(fp);
	snprintf(cmd, sizeof(cmd), "'%s' replay --reduced '%s' >/dev/null", bin, saved);
	CHECK(run(cmd) == 1, "%s: the reduced program does not show it", path);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(run(cmd) == 0, "cleanup");
	finding__free(&f);
	kdiff_result__free(&res);
	ebpf_object__free(obj);
}

int main(void)
{
	const char *src = getenv("BPFSCEV_SOURCE_DIR"), *bin = getenv("BPFSCEV_BIN");
	char why[256], dpath[4096], path[8200];
	struct dirent *e;
	unsigned n = 0;
	DIR *dp;

	if (!kernel_available(why, sizeof(why)))
		return check_skip("test_kernel_findings", "%s", why);
	if (!bin)
		return check_skip("test_kernel_findings", "needs BPFSCEV_BIN (the bpfscev CLI)");
	snprintf(dpath, sizeof(dpath), "%s/docs/kernel-findings", src ? src : ".");
	dp = opendir(dpath);
	CHECK(dp != NULL, "%s", dpath);
	while (dp && (e = readdir(dp))) {
		size_t l = strlen(e->d_name);

		if (l < 3 || strcmp(e->d_name + l - 2, ".s"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dpath, e->d_name);
		one(path, bin);
		n++;
	}
	if (dp)
		closedir(dp);
	CHECK(n > 0, "no reproducers in %s", dpath);
	if (not_shown[0])
		return check_skip("test_kernel_findings", "this kernel no longer shows %s: fixed "
				  "upstream?", not_shown);
	return check_done("test_kernel_findings");
}
