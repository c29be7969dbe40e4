/* One verdict case held against what the test expects and against the kernel: our verdict and
 * reason, no fault in the runs of a program called safe (and at least one run), and — when the
 * kernel was asked — its class: kclass, or either agreement when kclass is VERDICT_CASE_AGREE.
 * Shared by the tests that keep tables of assembly cases (callbacks, iterators, helpers).
 */
#ifndef BPFSCEV_TESTS_VERDICT_CASE_H
#define BPFSCEV_TESTS_VERDICT_CASE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "casefile/casefile.h"
#include "oracle/exec/interp.h"
#include "oracle/kernel/kernel.h"
#include "tests/check.h"
#include "triage/verdict.h"

/* kclass for "the kernel agrees" (both accept or both reject) */
#define VERDICT_CASE_AGREE VC_BOTH_ACCEPT

/* One row of a test's case table: an assembly case (name, text), the verdict bpfscev must give
 * (want), a text its reason must contain (reason, NULL: any) and the kernel's class (kclass: AGREE,
 * VC_IMPROVEMENT, VC_RULE_GAP or VC_REGRESSION). */
struct verdict_case_row {
	const char *name, *text;
	enum scev_verdict_kind want;
	const char *reason;
	enum verdict_class kclass;
};

/* Short names for the tests' case tables. */
#define SAFE VERDICT_SAFE
#define UNSAFE VERDICT_UNSAFE
#define UNSUPPORTED VERDICT_UNSUPPORTED
#define AGREE VERDICT_CASE_AGREE

/* Assembly pieces the case tables share: r3 = fp-8 (a callback's context), the 8 bytes at
 * fp-8 written, and "return 0". */
#define FP8 "r3 = r10\nr3 += -8\n"
#define INIT8 "r0 = 0\n*(u64 *)(r10 -8) = r0\n"
#define END "r0 = 0\nexit\n"

/* Whether the kernel can judge here (bpf() works); when it cannot, the test says which of its
 * parts is skipped (what, e.g. "the kernel's verdicts") and why. */
static inline bool verdict_case_kernel(const char *what)
{
	char why[256];
	bool kernel = kernel_available(why, sizeof(why));

	if (!kernel)
		check_skip_part("%s: %s", what, why);
	return kernel;
}

/* The checks that need no kernel. */
static inline void verdict_case_check_ours(const char *name, const struct verdict_report *r,
					   uint8_t want, const char *reason)
{
	CHECK(r->ours.kind == want, "%s: verdict %s (%s), expected %s", name,
	      scev_verdict_name(r->ours.kind), r->ours.reason, scev_verdict_name(want));
	if (reason)
		CHECK(strstr(r->ours.reason, reason), "%s: reason '%s' lacks '%s'", name,
		      r->ours.reason, reason);
	CHECK(r->faults == 0, "%s: called safe but faults: %s", name, r->fault);
	if (r->ours.kind == VERDICT_SAFE)
		CHECK(r->runs > 0, "%s: called safe but never run", name);
}

static inline void verdict_case_check(const char *name, const struct verdict_report *r,
				      uint8_t want, const char *reason, bool kernel,
				      enum verdict_class kclass)
{
	verdict_case_check_ours(name, r, want, reason);
	if (!kernel)
		return;
	if (kclass == VERDICT_CASE_AGREE)
		CHECK(r->cls == VC_BOTH_ACCEPT || r->cls == VC_BOTH_REJECT,
		      "%s: %s (ours: %s %s; kernel: %s)", name, verdict_class_name(r->cls),
		      scev_verdict_name(r->ours.kind), r->ours.reason,
		      r->kernel_accepted ? "accepted" : r->kernel_message);
	else
		CHECK(r->cls == kclass, "%s: %s, expected %s (kernel: %s)", name,
		      verdict_class_name(r->cls), verdict_class_name(kclass),
		      r->kernel_accepted ? "accepted" : r->kernel_message);
}

/* One assembly case opened with the test's maps when maps is not NULL (borrowed:
 * verdict_case_close hands them back before freeing the object); NULL, and a failed check with
 * the line, when it does not open. */
static inline struct ebpf_object *verdict_case_open(const char *name, const char *text,
						    struct ebpf_map_def *maps, size_t map_cnt)
{
	struct ebpf_object *obj = NULL;
	struct diag d;

	diag_clear(&d);
	if (ebpf_object__open_mem(&obj, text, strlen(text), name, &d)) {
		CHECK(0, "%s: %s (line %d)", name, d.msg, d.line);
		return NULL;
	}
	if (maps) {
		obj->maps = maps;
		obj->map_cnt = map_cnt;
	}
	return obj;
}

static inline void verdict_case_close(struct ebpf_object *obj)
{
	if (!obj)
		return;
	obj->maps = NULL;
	obj->map_cnt = 0;
	ebpf_object__free(obj);
}

/* Runs the assembly text (opened with maps as verdict_case_open opens it) once on the
 * interpreter as an XDP program over 64 zero bytes, its helpers drawing from data: true with
 * its r0 when it reached its exit, else false and a failed check naming the case. */
static inline bool verdict_case_interp(const char *name, const char *text,
				       struct ebpf_map_def *maps, size_t map_cnt,
				       const uint8_t *data, size_t len, uint64_t *r0)
{
	struct ebpf_object *obj = verdict_case_open(name, text, maps, map_cnt);
	struct interp_code *code = NULL;
	struct interp_env env = { 0 };
	struct interp_result res;
	struct interp_map rt[8];
	uint8_t pkt[64] = { 0 };
	struct diag d;
	bool ok;

	diag_clear(&d);
	if (!obj || map_cnt > 8 || interp_prepare(&code, &obj->progs[0], &d)) {
		CHECK(0, "%s: %s", name, map_cnt > 8 ? "more than 8 maps" : d.msg);
		verdict_case_close(obj);
		return false;
	}
	memset(rt, 0, sizeof(rt));
	for (size_t m = 0; m < map_cnt; m++)
		rt[m].def = maps[m];
	env.ctx_kind = INTERP_CTX_XDP;
	env.input = pkt;
	env.input_len = sizeof(pkt);
	env.maps = rt;
	env.map_cnt = map_cnt;
	env.helper_data = data;
	env.helper_len = len;
	ok = interp_run(code, &env, &res) == 0 && res.trap == INTERP_OK;
	CHECK(ok, "%s: %s", name, res.reason);
	*r0 = res.r0;
	interp_code__free(code);
	verdict_case_close(obj);
	return ok;
}

/* A safe verdict forged for the first program of an opened case, run as vo says (the runs a
 * program called safe gets): false, with a failed check, when it could not be run. */
static inline bool verdict_case_forge(const char *name, struct ebpf_object *obj,
				      const struct verdict_opts *vo, struct verdict_report *r)
{
	memset(r, 0, sizeof(*r));
	r->ours.kind = VERDICT_SAFE;
	r->ours.max_insns = UINT64_MAX;
	CHECK(verdict_execute(r, obj, &obj->progs[0], vo) == 0, "%s: runs", name);
	return r->runs > 0;
}

/* An unsafe XDP case (opened with maps) forged safe: some of 16 runs must fault, the reason
 * holding fault. */
static inline void verdict_case_forged_faults(const char *name, const char *text,
					      struct ebpf_map_def *maps, size_t map_cnt,
					      const char *fault)
{
	struct verdict_opts vo = { .sz = sizeof(vo), .runs = 16, .prog_type = BPF_PROG_TYPE_XDP };
	struct ebpf_object *obj = verdict_case_open(name, text, maps, map_cnt);
	struct verdict_report r;

	if (!obj)
		return;
	verdict_case_forge(name, obj, &vo, &r);
	CHECK(r.faults > 0 && strstr(r.fault, fault), "%s: %llu of %llu runs faulted (%s), "
	      "expected '%s'", name, (unsigned long long)r.faults, (unsigned long long)r.runs,
	      r.fault, fault);
	verdict_case_close(obj);
}

/* Compares the first program of an opened case with the kernel (as vo says) and checks it. */
static inline void verdict_case_judge(const char *name, struct ebpf_object *obj,
				      const struct verdict_opts *vo, uint8_t want,
				      const char *reason, enum verdict_class kclass)
{
	struct verdict_report r;
	struct diag d;

	diag_clear(&d);
	if (verdict_compare(&r, obj, &obj->progs[0], vo, &d)) {
		CHECK(0, "%s: %s", name, d.msg);
		return;
	}
	verdict_case_check(name, &r, want, reason, vo->kernel, kclass);
	verdict_report__free(&r);
}

/* A case file's text (casefile/casefile.h: its maps, type and program): open, judge, free. */
static inline void verdict_case_file(const char *name, const char *text,
				     const struct verdict_opts *vo, uint8_t want,
				     const char *reason, enum verdict_class kclass)
{
	struct ebpf_object *o = NULL;
	struct diag d;

	diag_clear(&d);
	if (casefile__open_object_mem(&o, text, strlen(text), name, &d)) {
		CHECK(0, "%s: %s (line %d)", name, d.msg, d.line);
		return;
	}
	verdict_case_judge(name, o, vo, want, reason, kclass);
	ebpf_object__free(o);
}

/* The whole case: open, judge, close. */
static inline void verdict_case_run(const char *name, const char *text, struct ebpf_map_def *maps,
				    size_t map_cnt, const struct verdict_opts *vo, uint8_t want,
				    const char *reason, enum verdict_class kclass)
{
	struct ebpf_object *obj = verdict_case_open(name, text, maps, map_cnt);

	if (!obj)
		return;
	verdict_case_judge(name, obj, vo, want, reason, kclass);
	verdict_case_close(obj);
}

/* The program named prog of an opened object: bpfscev's verdict want (and reason when not
 * NULL) and, when kernel, the kernel's agreement (both accept or both reject). */
static inline void verdict_case_prog(const struct ebpf_object *obj, const char *prog,
				     uint8_t want, const char *reason, bool kernel)
{
	struct verdict_opts vo = { .sz = sizeof(vo), .kernel = kernel };
	const struct ebpf_prog *p = ebpf_object__find_prog(obj, prog);
	struct verdict_report r;
	struct diag d;

	CHECK(p, "no program %s", prog);
	if (!p)
		return;
	diag_clear(&d);
	if (verdict_compare(&r, obj, p, &vo, &d)) {
		CHECK(0, "%s: %s", prog, d.msg);
		return;
	}
	verdict_case_check(prog, &r, want, reason, kernel, VERDICT_CASE_AGREE);
	verdict_report__free(&r);
}

/* The object file at path, opened; NULL (a failed check) when it does not open. */
static inline struct ebpf_object *verdict_case_open_file(const char *path)
{
	struct ebpf_object *obj = NULL;
	struct diag d;

	diag_clear(&d);
	if (ebpf_object__open_file(&obj, path, &d)) {
		CHECK(0, "%s: %s", path, d.msg);
		return NULL;
	}
	return obj;
}

/* Programs of an object file forged safe, as verdict_case_forge: each of the n named programs
 * must fault in some of 16 runs, the reason holding its faults[] text. */
static inline void verdict_case_forged_progs(const char *path, const char *const *names,
					     const char *const *faults, size_t n)
{
	struct ebpf_object *obj = verdict_case_open_file(path);

	for (size_t u = 0; obj && u < n; u++) {
		struct verdict_opts vo = { .sz = sizeof(vo), .runs = 16 };
		const struct ebpf_prog *p = ebpf_object__find_prog(obj, names[u]);
		struct verdict_report r;

		CHECK(p, "no program %s", names[u]);
		if (!p)
			continue;
		memset(&r, 0, sizeof(r));
		r.ours.kind = VERDICT_SAFE;
		r.ours.max_insns = UINT64_MAX;
		CHECK(verdict_execute(&r, obj, p, &vo) == 0, "%s: runs", names[u]);
		CHECK(r.faults > 0 && strstr(r.fault, faults[u]), "%s: %llu of %llu runs faulted "
		      "(%s), expected '%s'", names[u], (unsigned long long)r.faults,
		      (unsigned long long)r.runs, r.fault, faults[u]);
	}
	ebpf_object__free(obj);
}

/* The named programs of a clang-built object file, each with the verdict bpfscev must give (and
 * the words its reason must hold, when reasons is not NULL) and, when kernel, the kernel's
 * agreement (both accept or both reject). */
static inline void verdict_case_object_why(const char *path, const char *const *progs,
					   const enum scev_verdict_kind *want,
					   const char *const *reasons, size_t n, bool kernel)
{
	struct ebpf_object *obj = verdict_case_open_file(path);

	if (!obj)
		return;
	for (size_t k = 0; k < n; k++)
		verdict_case_prog(obj, progs[k], (uint8_t)want[k], reasons ? reasons[k] : NULL,
				  kernel);
	ebpf_object__free(obj);
}

static inline void verdict_case_object(const char *path, const char *const *progs,
				       const enum scev_verdict_kind *want, size_t n, bool kernel)
{
	verdict_case_object_why(path, progs, want, NULL, n, kernel);
}

/* The path of the clang-built tests/bpf object name (BPFSCEV_TEST_BPF_DIR/name) in path; whether
 * it is there. */
static inline bool verdict_case_bpf_path(const char *name, char *path, size_t n)
{
	const char *dir = getenv("BPFSCEV_TEST_BPF_DIR");
	struct stat st;

	snprintf(path, n, "%s/%s", dir ? dir : "", name);
	return dir && !stat(path, &st);
}

/* The same; false, with the one SKIP line of a test that has nothing to check without it, when
 * there is none. */
static inline bool verdict_case_bpf_object(const char *name, char *path, size_t n)
{
	if (verdict_case_bpf_path(name, path, n))
		return true;
	printf("SKIP: no clang-built tests/bpf/%s (no clang at configure time)\n", name);
	return false;
}

/* The same for a test that checks other things too: false, with the part named skipped
 * (check_skip_part), when there is none. */
static inline bool verdict_case_bpf_part(const char *name, char *path, size_t n)
{
	if (verdict_case_bpf_path(name, path, n))
		return true;
	check_skip_part("the clang-built tests/bpf/%s: none (no clang at configure time)", name);
	return false;
}

/* The same for an object of BTF-typed programs (tp_btf, fentry): false, with the SKIP line,
 * also when there is no vmlinux BTF. */
static inline bool verdict_case_btf_object(const char *name, char *path, size_t n)
{
	if (!verdict_case_bpf_object(name, path, n))
		return false;
	if (ebpf_kfunc_btf_available())
		return true;
	printf("SKIP: no vmlinux BTF (the BTF-typed programs' context and kernel objects)\n");
	return false;
}

#endif
