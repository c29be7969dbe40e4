/* Open-coded iterators (bpf_iter_num_new/next/destroy and bpf_iter_bits_new/next/destroy,
 * scev/absint_iter.c) judged by the running
 * kernel and by execution: each program — assembly twins, safe and unsafe, and the clang-built
 * object tests/bpf/iter_verify.c — is loaded into the kernel at test time, and `bpfscev verify`
 * must agree with the verifier (both accept or both reject) except where a case names the known
 * difference; programs called safe are run (verdict_compare) and must not fault, and every
 * unsafe twin must trap in the interpreter, which checks the lifecycle as the program runs.  The
 * trip claims of the iterator loops are checked by running them (claims_check) and must be of
 * kind iter_num (iter_bits).  A loop over an iterator of kernel objects (bpf_iter_task_*,
 * task_vma) has no count but ends (ends_by), its kind the family's (obj_family).  Without bpf(), or without vmlinux BTF to resolve the
 * kfunc names, the kernel part is skipped; without vmlinux BTF the assembler cannot name the
 * kfuncs at all (skip).
 */
#include <string.h>
#include <sys/stat.h>

#include "bpf/isa.h"
#include "oracle/exec/check.h"
#include "oracle/exec/interp.h"
#include "oracle/kernel/kernel.h"
#include "scev/scev.h"
#include "tests/check.h"
#include "tests/verdict_case.h"
#include "triage/verdict.h"

#define NEW(fp, a, b) "r1 = r10\nr1 += " fp "\nr2 = " a "\nr3 = " b "\ncall bpf_iter_num_new\n"
#define NEXT(fp) "r1 = r10\nr1 += " fp "\ncall bpf_iter_num_next\n"
#define DESTROY(fp) "r1 = r10\nr1 += " fp "\ncall bpf_iter_num_destroy\n"
/* sum of the values of the iterator at fp-8 into r7 */
#define SUM_LOOP "l: " NEXT("-8") "if r0 == 0 goto d\nr1 = *(u32 *)(r0 +0)\nr7 += r1\ngoto l\nd: "
/* the bits iterator at fp over n words at fp-16 (two drawn: the low half of the first, the
 * high half of the second), the sum of its set bits' indexes into r7 */
#define BNEW(fp, n) "r1 = r10\nr1 += " fp "\nr2 = r10\nr2 += -16\nr3 = " n "\ncall bpf_iter_bits_new\n"
#define BNEXT(fp) "r1 = r10\nr1 += " fp "\ncall bpf_iter_bits_next\n"
#define BDESTROY(fp) "r1 = r10\nr1 += " fp "\ncall bpf_iter_bits_destroy\n"
#define WORDS "r7 = 0\ncall bpf_get_prandom_u32\n*(u64 *)(r10 -16) = r0\ncall bpf_get_prandom_u32\n" \
	"r0 <<= 32\n*(u64 *)(r10 -8) = r0\n"
#define BSUM(fp) "l: " BNEXT(fp) "if r0 == 0 goto d\nr1 = *(u32 *)(r0 +0)\nr7 += r1\ngoto l\nd: "

static const struct {
	const char *name, *text;
	enum scev_verdict_kind want;
	const char *reason;	/* in bpfscev's reason */
	enum verdict_class kclass;	/* AGREE, VC_IMPROVEMENT, VC_RULE_GAP or VC_REGRESSION */
	uint64_t trip_max;	/* the first loop's claimed trip bound (0: no loop) */
	bool traps;		/* some of the interpreter's runs trap (an unsafe twin) */
} cases[] = {
	/* safe: the kernel accepts */
	{ "sum of [0, 10)", "r7 = 0\n" NEW("-8", "0", "10") SUM_LOOP DESTROY("-8") "r0 = r7\nexit\n",
	  SAFE, NULL, AGREE, 11, false },
	{ "empty range", "r7 = 0\n" NEW("-8", "5", "5") SUM_LOOP DESTROY("-8") "r0 = r7\nexit\n",
	  SAFE, NULL, AGREE, 1, false },
	{ "start above end (-EINVAL)", "r7 = 0\n" NEW("-8", "5", "2") SUM_LOOP DESTROY("-8")
	  "r0 = r7\nexit\n", SAFE, NULL, AGREE, 1, false },
	{ "2^23 + 1 values (-E2BIG)", "r7 = 0\n" NEW("-8", "0", "8388609") SUM_LOOP DESTROY("-8")
	  "r0 = r7\nexit\n", SAFE, NULL, AGREE, 8388609, false },
	{ "negative start", "r7 = 0\n" NEW("-8", "-3", "2") SUM_LOOP DESTROY("-8")
	  "r0 = r7\nexit\n", SAFE, NULL, AGREE, 6, false },
	/* the value, in [0, 8), indexes a stack array: the kernel knows only the int */
	{ "value as an index", "r1 = 0\n*(u64 *)(r10 -16) = r1\n" NEW("-8", "0", "8")
	  "l: " NEXT("-8") "if r0 == 0 goto d\nr1 = *(u32 *)(r0 +0)\nr2 = r10\nr2 += -16\n"
	  "r2 += r1\nr1 = *(u8 *)(r2 +0)\ngoto l\nd: " DESTROY("-8") END, SAFE, NULL,
	  VC_RULE_GAP, 9, false },
	{ "iterator in a plain loop", "r6 = 0\nr7 = 0\no: " NEW("-8", "0", "r6") SUM_LOOP
	  DESTROY("-8") "r6 += 1\nif r6 < 4 goto o\nr0 = r7\nexit\n", SAFE, NULL, AGREE, 0,
	  false },
	{ "plain loop in an iterator loop", "r7 = 0\n" NEW("-8", "0", "5") "l: " NEXT("-8")
	  "if r0 == 0 goto d\nr6 = 0\nm: r7 += r6\nr6 += 1\nif r6 < 3 goto m\ngoto l\nd: "
	  DESTROY("-8") "r0 = r7\nexit\n", SAFE, NULL, AGREE, 6, false },
	{ "two iterators, nested", "r7 = 0\n" NEW("-8", "0", "3") "l: " NEXT("-8")
	  "if r0 == 0 goto d\n" NEW("-16", "0", "4") "m: " NEXT("-16") "if r0 == 0 goto e\n"
	  "r7 += 1\ngoto m\ne: " DESTROY("-16") "goto l\nd: " DESTROY("-8") "r0 = r7\nexit\n",
	  SAFE, NULL, AGREE, 4, false },
	{ "created again after destroy", NEW("-8", "0", "2") DESTROY("-8") NEW("-8", "0", "2")
	  DESTROY("-8") END, SAFE, NULL, AGREE, 0, false },
	{ "destroyed before drained", NEW("-8", "0", "9") NEXT("-8") DESTROY("-8") END, SAFE, NULL,
	  AGREE, 0, false },
	{ "stale pointer read", NEW("-8", "0", "9") NEXT("-8") "if r0 == 0 goto d\nr6 = r0\n"
	  NEXT("-8") "r0 = *(u32 *)(r6 +0)\nd: " DESTROY("-8") END, SAFE, NULL, AGREE, 0, false },
	/* unsafe: the kernel rejects */
	{ "leak", "r7 = 0\n" NEW("-8", "0", "10") SUM_LOOP "r0 = r7\nexit\n", UNSAFE,
	  "reference leak", AGREE, 11, true },
	{ "leak on one path", NEW("-8", "0", "10") "call bpf_get_prandom_u32\n"
	  "if r0 != 0 goto +3\n" DESTROY("-8") END,
	  UNSAFE, "reference leak", AGREE, 0, true },
	{ "double destroy", NEW("-8", "0", "10") DESTROY("-8") DESTROY("-8") END, UNSAFE,
	  "not live", AGREE, 0, true },
	{ "next after destroy", NEW("-8", "0", "10") DESTROY("-8") NEXT("-8") END, UNSAFE,
	  "not live", AGREE, 0, true },
	{ "next never created", NEXT("-8") END, UNSAFE, "not live", AGREE, 0, true },
	{ "new twice", NEW("-8", "0", "10") NEW("-8", "0", "10") DESTROY("-8") END, UNSAFE,
	  "live on some path", AGREE, 0, true },
	{ "new in a loop, never destroyed in it", "r6 = 0\no: " NEW("-8", "0", "3")
	  "r6 += 1\nif r6 < 3 goto o\n" DESTROY("-8") END, UNSAFE, "live on some path", AGREE, 0,
	  true },
	{ "misaligned", NEW("-12", "0", "10") DESTROY("-12") END, UNSAFE, "8 aligned", AGREE, 0,
	  true },
	{ "write through next's result", NEW("-8", "0", "10") NEXT("-8")
	  "if r0 == 0 goto +1\n*(u32 *)(r0 +0) = r0\n" DESTROY("-8") END, UNSAFE, "rdonly",
	  AGREE, 0, false },
	{ "8-byte read through next's result", NEW("-8", "0", "10") NEXT("-8")
	  "if r0 == 0 goto +1\nr1 = *(u64 *)(r0 +0)\n" DESTROY("-8") END, UNSAFE, "4 bytes",
	  AGREE, 0, false },
	{ "next's result not checked", NEW("-8", "0", "10") NEXT("-8") "r1 = *(u32 *)(r0 +0)\n"
	  DESTROY("-8") END, UNSAFE, "NULL", AGREE, 0, false },
	{ "r0 after destroy", NEW("-8", "0", "10") DESTROY("-8") "exit\n", UNSAFE, "R0", AGREE, 0,
	  false },
	/* the bits iterator: at most 64 nr_words values (none for 0 words, -EINVAL, or more
	 * than 511, -E2BIG) */
	{ "bits: one word", WORDS BNEW("-40", "1") BSUM("-40") BDESTROY("-40") "r0 = r7\nexit\n",
	  SAFE, NULL, AGREE, 65, false },
	{ "bits: two words", WORDS BNEW("-40", "2") BSUM("-40") BDESTROY("-40") "r0 = r7\nexit\n",
	  SAFE, NULL, AGREE, 129, false },
	{ "bits: no words (-EINVAL)", WORDS BNEW("-40", "0") BSUM("-40") BDESTROY("-40")
	  "r0 = r7\nexit\n", SAFE, NULL, AGREE, 1, false },
	{ "bits: 512 words (-E2BIG)", WORDS BNEW("-40", "512") BSUM("-40") BDESTROY("-40")
	  "r0 = r7\nexit\n", SAFE, NULL, AGREE, 1, false },
	{ "bits: 1 or 2 words, drawn", WORDS "call bpf_get_prandom_u32\nr8 = r0\nr8 &= 1\n"
	  "r8 += 1\n" BNEW("-40", "r8") BSUM("-40") BDESTROY("-40") "r0 = r7\nexit\n", SAFE, NULL,
	  AGREE, 129, false },
	{ "bits in a number iterator's loop", WORDS NEW("-48", "0", "3") "o: " NEXT("-48")
	  "if r0 == 0 goto e\n" BNEW("-40", "2") BSUM("-40") BDESTROY("-40") "goto o\ne: "
	  DESTROY("-48") "r0 = r7\nexit\n", SAFE, NULL, AGREE, 4, false },
	{ "bits: leak", WORDS BNEW("-40", "1") BSUM("-40") "r0 = r7\nexit\n", UNSAFE,
	  "iterator at fp-40 live on some path (not destroyed: a reference leak", AGREE, 65,
	  true },
	{ "bits: double destroy", WORDS BNEW("-40", "1") BDESTROY("-40") BDESTROY("-40") END,
	  UNSAFE, "not live", AGREE, 0, true },
	{ "bits: next after destroy", WORDS BNEW("-40", "1") BDESTROY("-40") BNEXT("-40") END,
	  UNSAFE, "not live", AGREE, 0, true },
	{ "bits: new twice", WORDS BNEW("-40", "1") BNEW("-40", "1") BDESTROY("-40") END, UNSAFE,
	  "live on some path", AGREE, 0, true },
	{ "bits: 16 bytes past the frame's top", WORDS BNEW("-8", "1") BDESTROY("-8") END, UNSAFE,
	  "uninitialized iter_bits", AGREE, 0, true },
	/* (a bits iterator's two 8-byte halves are not told apart from another iterator's) */
	{ "bits: overlapping iterators", WORDS BNEW("-40", "1") BNEW("-32", "1") BDESTROY("-32")
	  BDESTROY("-40") END, UNSUPPORTED, "share bytes", AGREE, 0, true },
	{ "bits: bpf_iter_num_next on it", WORDS BNEW("-40", "1") NEXT("-40") BDESTROY("-40") END,
	  UNSUPPORTED, "another family", AGREE, 0, true },
	/* unsupported (the kernel rejects a read of a live iterator's bytes, and forgets the
	 * iterator a store overwrites) */
	{ "read of the iterator's bytes", NEW("-8", "0", "10") "r1 = *(u64 *)(r10 -8)\n"
	  DESTROY("-8") END, UNSUPPORTED, "iterator", AGREE, 0, false },
	{ "store into the iterator's bytes", NEW("-8", "0", "10") "r1 = 0\n"
	  "*(u64 *)(r10 -8) = r1\n" DESTROY("-8") END, UNSUPPORTED, "iterator", AGREE, 0, false },
};

/* The first loop's trip claim: kind iter_num (iter_bits for the "bits:" cases) with the bound
 * expected; every claim holds on runs
 * of the interpreter (oracle_check), some of which trap exactly when the case says. */
static void claims_and_runs(const char *name, const struct ebpf_object *obj,
			    const struct ebpf_prog *p, uint64_t want, bool traps)
{
	struct check_opts co = { .sz = sizeof(co), .seed = 15, .runs = 4 };
	struct claim_prog cp;
	struct claim_text_buf rb;
	struct check_result res;
	struct diag d;

	diag_clear(&d);
	if (scev_analyze(&cp, p, obj->maps, obj->map_cnt, NULL, &d)) {
		CHECK(0, "%s: analyze: %s", name, d.msg);
		return;
	}
	if (want) {
		CHECK(cp.nloops >= 1, "%s: no loop found", name);
		if (cp.nloops >= 1) {
			uint8_t kind = strncmp(name, "bits:", 5) ? LOOP_ITER_NUM : LOOP_ITER_BITS;

			CHECK(cp.loops[0].kind == kind, "%s: loop kind %s, expected %s", name,
			      claim_loop_kind_name(cp.loops[0].kind), claim_loop_kind_name(kind));
			CHECK(cp.loops[0].trip.kind == TRIP_BOUNDED && cp.loops[0].trip.max == want,
			      "%s: trip max %llu, expected %llu (%s)", name,
			      (unsigned long long)cp.loops[0].trip.max, (unsigned long long)want,
			      claim_trip_reason(&cp.loops[0].trip, &rb));
		}
	}
	if (oracle_check(&res, obj, p, &cp, &co)) {
		CHECK(0, "%s: oracle_check failed", name);
	} else {
		CHECK(res.nfindings == 0, "%s: %u claims refuted: %s", name, res.nfindings,
		      res.nfindings ? res.findings[0].text : "");
		CHECK(traps ? res.traps > 0 : res.traps == 0,
		      "%s: %llu of %llu runs trapped", name, (unsigned long long)res.traps,
		      (unsigned long long)res.runs);
		check_result__free(&res);
	}
	claim_prog__free(&cp);
}

static void asm_cases(bool kernel)
{
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct ebpf_object *obj = verdict_case_open(cases[k].name, cases[k].text, NULL, 0);
		struct verdict_opts vo = { .sz = sizeof(vo), .prog_type = BPF_PROG_TYPE_SOCKET_FILTER,
					   .kernel = kernel };

		if (!obj)
			continue;
		verdict_case_judge(cases[k].name, obj, &vo, cases[k].want, cases[k].reason,
				   cases[k].kclass);
		claims_and_runs(cases[k].name, obj, &obj->progs[0], cases[k].trip_max,
				cases[k].traps);
		ebpf_object__free(obj);
	}
}

#define TNEW(fp, a, b) "r1 = r10\nr1 += " fp "\nr2 = " a "\nr3 = " b "\ncall bpf_iter_task_new\n"
#define TNEXT(fp) "r1 = r10\nr1 += " fp "\ncall bpf_iter_task_next\n"
#define TDESTROY(fp) "r1 = r10\nr1 += " fp "\ncall bpf_iter_task_destroy\n"
/* count the tasks into r6, reading the first 8 bytes of each (thread_info.flags, x86-64) */
#define TCOUNT(fp) "l: " TNEXT(fp) "if r0 == 0 goto d\nr1 = *(u64 *)(r0 +0)\nr6 += 1\n" \
	"goto l\nd: "
#define CUR "call bpf_get_current_task_btf\nr2 = r0\n"
#define VNEW(fp) "r1 = r10\nr1 += " fp "\nr3 = 0\ncall bpf_iter_task_vma_new\n"
#define VNEXT(fp) "r1 = r10\nr1 += " fp "\ncall bpf_iter_task_vma_next\n"
#define VDESTROY(fp) "r1 = r10\nr1 += " fp "\ncall bpf_iter_task_vma_destroy\n"

/* Iterators over kernel objects (task, task_vma, css_task): the kernel accepts their loops
 * with no count (its states converge at next) and the walk ends when the objects run out, so a
 * loop that next alone ends gets trip unknown, ends_by "kernel iterator end" and the family's
 * kind; the slot rules are the number iterator's, new's object argument trusted (NULL for the
 * task iterator), next's result a kernel object or NULL.  The interpreter walks 0 to 3 objects
 * (drawn): safe cases never trap, every twin with a lifecycle fault does. */
static const struct {
	const char *name, *text;
	enum scev_verdict_kind want;
	const char *reason;	/* in bpfscev's reason */
	uint8_t kind;		/* the first loop's kind (LOOP_PLAIN: no loop) */
	int traps;		/* 1: some runs trap, 0: none, -1: not asked */
} obj_cases[] = {
	{ "task: all processes", "r6 = 0\n" TNEW("-24", "0", "0") TCOUNT("-24") TDESTROY("-24")
	  "r0 = r6\nexit\n", SAFE, NULL, LOOP_ITER_TASK, 0 },
	{ "task: the current task's threads", "r6 = 0\n" CUR TNEW("-24", "r2", "2") TCOUNT("-24")
	  TDESTROY("-24") "r0 = r6\nexit\n", SAFE, NULL, LOOP_ITER_TASK, 0 },
	{ "task: bad flags (-EINVAL)", "r6 = 0\n" TNEW("-24", "0", "7") TCOUNT("-24")
	  TDESTROY("-24") "r0 = r6\nexit\n", SAFE, NULL, LOOP_ITER_TASK, 0 },
	{ "task_vma: the current task's", "r6 = 0\n" CUR VNEW("-8") "l: " VNEXT("-8")
	  "if r0 == 0 goto d\nr1 = *(u64 *)(r0 +0)\nr6 += 1\ngoto l\nd: " VDESTROY("-8")
	  "r0 = r6\nexit\n", SAFE, NULL, LOOP_ITER_TASK_VMA, 0 },
	{ "task: leak", "r6 = 0\n" TNEW("-24", "0", "0") TCOUNT("-24") "r0 = r6\nexit\n", UNSAFE,
	  "at fp-24 live on some path (not destroyed", LOOP_ITER_TASK, 1 },
	{ "task: double destroy", TNEW("-24", "0", "0") TDESTROY("-24") TDESTROY("-24") END,
	  UNSAFE, "not live", LOOP_PLAIN, 1 },
	{ "task: next after destroy", TNEW("-24", "0", "0") TDESTROY("-24") TNEXT("-24") END,
	  UNSAFE, "not live", LOOP_PLAIN, 1 },
	{ "task: new twice", TNEW("-24", "0", "0") TNEW("-24", "0", "0") TDESTROY("-24") END,
	  UNSAFE, "live on some path", LOOP_PLAIN, 1 },
	{ "task: 24 bytes past the frame's top", TNEW("-16", "0", "0") TDESTROY("-16") END, UNSAFE,
	  "uninitialized iter_task", LOOP_PLAIN, 1 },
	{ "task: next's result not tested", TNEW("-24", "0", "0") TNEXT("-24")
	  "r6 = *(u32 *)(r0 +0)\n" TDESTROY("-24") END, UNSAFE, "NULL", LOOP_PLAIN, -1 },
	{ "task: write through next's result", TNEW("-24", "0", "0") TNEXT("-24")
	  "if r0 == 0 goto +1\n*(u64 *)(r0 +0) = r0\n" TDESTROY("-24") END, UNSAFE, "read",
	  LOOP_PLAIN, -1 },
	{ "task: a number as the task", TNEW("-24", "5", "0") TDESTROY("-24") END, UNSAFE,
	  "must point to scalar", LOOP_PLAIN, 1 },
	{ "task_vma: NULL task", "r2 = 0\n" VNEW("-8") VDESTROY("-8") END, UNSAFE,
	  "must point to scalar", LOOP_PLAIN, 1 },
	{ "css_task: in a socket filter", CUR "r1 = r10\nr1 += -8\nr3 = 0\n"
	  "call bpf_iter_css_task_new\n" "r1 = r10\nr1 += -8\ncall bpf_iter_css_task_destroy\n"
	  END, UNSAFE, "css_task_iter is only allowed", LOOP_PLAIN, -1 },
};

/* Each case: the kernel's verdict (when it can be asked), the first loop's kind and trip claim,
 * and the interpreter's runs. */
static void obj_family(bool kernel)
{
	struct check_opts co = { .sz = sizeof(co), .seed = 24, .runs = 16 };

	if (ebpf_kfunc_by_name("bpf_iter_task_new") <= 0) {
		check_skip_part("the task iterator: not in this kernel");
		return;
	}
	for (size_t k = 0; k < sizeof(obj_cases) / sizeof(obj_cases[0]); k++) {
		const char *name = obj_cases[k].name;
		struct ebpf_object *obj = verdict_case_open(name, obj_cases[k].text, NULL, 0);
		struct verdict_opts vo = { .sz = sizeof(vo), .prog_type = BPF_PROG_TYPE_SOCKET_FILTER,
					   .kernel = kernel };
		struct claim_text_buf rb;
		struct check_result res;
		struct claim_prog cp;
		struct diag d;

		if (!obj)
			continue;
		verdict_case_judge(name, obj, &vo, obj_cases[k].want, obj_cases[k].reason, AGREE);
		diag_clear(&d);
		if (scev_analyze(&cp, &obj->progs[0], NULL, 0, NULL, &d)) {
			CHECK(0, "%s: analyze: %s", name, d.msg);
			ebpf_object__free(obj);
			continue;
		}
		if (obj_cases[k].kind != LOOP_PLAIN) {
			const struct claim_trip *t = &cp.loops[0].trip;

			CHECK(cp.nloops >= 1 && cp.loops[0].kind == obj_cases[k].kind &&
			      t->kind == TRIP_UNKNOWN && t->ends_by == TRIP_ENDS_ITER &&
			      strstr(claim_trip_reason(t, &rb), "returns NULL"),
			      "%s: loop kind %s, trip %d ends_by %d (%s)", name,
			      cp.nloops ? claim_loop_kind_name(cp.loops[0].kind) : "-",
			      cp.nloops ? (int)t->kind : -1, cp.nloops ? (int)t->ends_by : -1,
			      cp.nloops ? claim_trip_reason(t, &rb) : "");
		}
		if (oracle_check(&res, obj, &obj->progs[0], &cp, &co)) {
			CHECK(0, "%s: oracle_check failed", name);
		} else {
			CHECK(res.nfindings == 0, "%s: %u claims refuted: %s", name, res.nfindings,
			      res.nfindings ? res.findings[0].text : "");
			CHECK(obj_cases[k].traps < 0 ||
			      (obj_cases[k].traps ? res.traps > 0 : res.traps == 0),
			      "%s: %llu of %llu runs trapped", name, (unsigned long long)res.traps,
			      (unsigned long long)res.runs);
			check_result__free(&res);
		}
		claim_prog__free(&cp);
		ebpf_object__free(obj);
	}
}

/* Every program of the clang-built object: the kernel's verdict, and what bpfscev must say. */
static void object(const char *dir, bool kernel)
{
	static const char *const progs[] = { "for_index_safe", "repeat_safe", "nested_safe",
					     "empty_and_huge_safe", "leak_unsafe",
					     "double_destroy_unsafe", "use_after_destroy_unsafe" };
	static const enum scev_verdict_kind want[] = { SAFE, SAFE, SAFE, SAFE, UNSAFE, UNSAFE,
						       UNSAFE };
	char path[1024];

	snprintf(path, sizeof(path), "%s/iter_verify.o", dir);
	verdict_case_object(path, progs, want, sizeof(progs) / sizeof(progs[0]), kernel);
}

int main(void)
{
	const char *dir = getenv("BPFSCEV_TEST_BPF_DIR");
	char path[1024];
	bool kernel;
	struct stat st;

	if (!ebpf_kfunc_btf_available()) {
		printf("SKIP: no vmlinux BTF: the iterator kfuncs cannot be named\n");
		return 77;
	}
	kernel = verdict_case_kernel("the kernel's verdicts");
	asm_cases(kernel);
	obj_family(kernel);
	snprintf(path, sizeof(path), "%s/iter_verify.o", dir ? dir : "");
	if (dir && !stat(path, &st))
		object(dir, kernel);
	else
		check_skip_part("the clang-built object (no clang at configure time)");
	return check_done("test_iter");
}
