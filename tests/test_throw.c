/* BPF exceptions: bpf_throw and the exception callback (bpf/kfunc_table.c, bpf/elf.c's decl tag,
 * scev/cfg.c, scev/absint_throw.c, the interpreter's do_throw, the kernel oracle's BTF):
 *  - the table's entry and ebpf_insn_is_throw;
 *  - the clang-built tests/bpf/throw.c: each verdict, held against the running kernel's, the
 *    exception callback found by main's decl tag and appended after main's subprograms;
 *  - assembly cases (".global NAME int:8 exception_cb"): the interpreter's result of a throwing
 *    run (the cookie without a callback, the callback's result with one) and the kernel
 *    differential's comparison of it with BPF_PROG_TEST_RUN's; the exit checks at a throw and
 *    at a call that may throw (an iterator live in the caller), the cookie's range, an edge
 *    into the callback refused by the CFG.
 * Without bpf() the kernel's parts are skipped; without vmlinux BTF or bpf_throw, the whole
 * test.  Cost: about 25 loads and 5 kernel differentials (a few CPU-seconds under ASan).
 */
#include <string.h>

#include "bpf/isa.h"
#include "oracle/kernel/kernel.h"
#include "scev/scev.h"
#include "tests/check.h"
#include "tests/kdiff_case.h"
#include "tests/verdict_case.h"
#include "triage/verdict.h"

static void test_table(void)
{
	const struct ebpf_kfunc_info *ki = ebpf_kfunc_info("bpf_throw");
	struct bpf_insn call = { .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_KFUNC_CALL,
				 .imm = ebpf_kfunc_by_name("bpf_throw") };
	struct ebpf_kfunc_proto p;

	CHECK(ki && ki->flags == 0 && ki->set == EBPF_KSET_GENERIC && ki->op == EBPF_KOP_THROW,
	      "bpf_throw's entry");
	CHECK(ebpf_kfunc_proto("bpf_throw", &p) == 0 && p.nargs == 1 &&
	      p.arg[0] == EBPF_KARG_SCALAR && p.size[0] == 8 && p.ret == EBPF_KRET_VOID,
	      "bpf_throw's prototype: %s", p.why);
	CHECK(ebpf_insn_is_throw(&call), "a call of bpf_throw's id is a throw");
	call.off = 1;	/* (a module's BTF: not vmlinux's bpf_throw) */
	CHECK(!ebpf_insn_is_throw(&call), "a kfunc call with off 1 is no throw");
	call.off = 0;
	call.imm = ebpf_kfunc_by_name("bpf_task_release");
	CHECK(!ebpf_insn_is_throw(&call), "bpf_task_release is no throw");
}

static void test_object(const char *path, bool kernel)
{
	static const char *const progs[] = {
		"throw_main", "throw_callee", "throw_global", "throw_iter_live", "throw_in_cb",
		"throw_in_loop", "throw_cookie_ok", "throw_cookie_bad", "throw_cb_ret_ok",
		"throw_cb_ret_bad", "throw_cb_two_args", "throw_cb_called",
	};
	static const enum scev_verdict_kind want[] = {
		SAFE, SAFE, SAFE, UNSAFE, UNSAFE, UNSUPPORTED, SAFE, UNSAFE, SAFE, UNSAFE, UNSAFE,
		UNSAFE,
	};
	static const char *const reasons[] = {
		NULL, NULL, NULL, "Unreleased reference", "cannot be called from callback subprog",
		"inside a loop", NULL, "register R1 in s[2, 2]", NULL, "At program exit R0",
		"exception cb only supports single integer argument",
		"cannot call exception cb directly",
	};
	struct ebpf_object *obj = verdict_case_open_file(path);
	const struct ebpf_prog *p;

	verdict_case_object_why(path, progs, want, reasons, sizeof(progs) / sizeof(progs[0]),
				kernel);
	if (!obj)
		return;
	/* the callback, appended after main's subprograms as libbpf appends it */
	p = ebpf_object__find_prog(obj, "throw_callee");
	CHECK(p && ebpf_prog_exc_cb(p) && !strcmp(ebpf_prog_exc_cb(p)->name, "exc_plus") &&
	      ebpf_prog_exc_cb(p)->insn > 0 && ebpf_prog_exc_cb(p)->insn < p->len,
	      "throw_callee's exception callback");
	p = ebpf_object__find_prog(obj, "throw_main");
	CHECK(p && !ebpf_prog_exc_cb(p), "throw_main has no exception callback");
	ebpf_object__free(obj);
}

/* throws when skb->len (64 in the default run) is at least 60 */
#define T_DEFAULT "-- asm\n"							\
	"r1 = *(u32 *)(r1 +0)\nif r1 < 60 goto out\nr1 = 0x100000007 ll\ncall bpf_throw\n"	\
	"r0 = 1\nexit\nout:\nr0 = 0\nexit\n-- type\ntc\n"
#define T_CALLBACK "-- asm\n"							\
	"r6 = r1\nr1 = *(u32 *)(r6 +0)\ncall f\nr0 = 2\nexit\n"			\
	"f:\nif r1 < 60 goto ret\nr1 += 9\ncall bpf_throw\nret:\nr0 = 0\nexit\n"	\
	"cb:\n.global cb int:8 exception_cb\nr0 = 0\nr2 = 0\n"			\
	"l2: r0 += r1\nr2 += 1\nif r2 < 5 goto l2\nr0 &= 0xff\nexit\n-- type\ntc\n"

/* The interpreter's result of a throwing run, and the kernel's BPF_PROG_TEST_RUN's. */
static void test_runs(bool kernel)
{
	static const struct {
		const char *name, *text;
		uint32_t want;
	} c[] = {
		{ "default", T_DEFAULT, 7 },		/* the cookie's low 32 bits */
		{ "callback", T_CALLBACK, (5 * 73) & 0xff },	/* 5 * (64 + 9) */
	};
	uint8_t pkt[64] = { 0 };

	for (size_t k = 0; kernel && k < sizeof(c) / sizeof(c[0]); k++) {
		struct kdiff_result res;

		memset(&res, 0, sizeof(res));
		if (!kdiff_case_ran(&res, c[k].name, c[k].text, pkt, sizeof(pkt), NULL)) {
			kdiff_result__free(&res);
			continue;
		}
		CHECK(!res.nondeterministic && res.same_retval && res.kernel_retval == c[k].want &&
		      (uint32_t)res.interp_r0 == c[k].want, "%s: kernel %u, interpreter %llu "
		      "(compared %d), expected %u: %s", c[k].name, res.kernel_retval,
		      (unsigned long long)res.interp_r0, !res.nondeterministic, c[k].want,
		      res.text);
		kdiff_result__free(&res);
	}
}

static void test_verdicts(bool kernel)
{
	struct verdict_opts vo = { .sz = sizeof(vo), .kernel = kernel };

	verdict_case_file("default", T_DEFAULT, &vo, VERDICT_SAFE, NULL, VERDICT_CASE_AGREE);
	verdict_case_file("callback", T_CALLBACK, &vo, VERDICT_SAFE, NULL, VERDICT_CASE_AGREE);
	/* an iterator live in main across a call of a function that throws */
	verdict_case_file("caller_iter",
			  "-- asm\nr6 = *(u32 *)(r1 +0)\nr1 = r10\nr1 += -8\nr2 = 0\nr3 = 3\n"
			  "call bpf_iter_num_new\nr1 = r6\ncall f\nr1 = r10\nr1 += -8\n"
			  "call bpf_iter_num_destroy\nr0 = 0\nexit\n"
			  "f:\nif r1 < 60 goto ret\nr1 = 0\ncall bpf_throw\nret:\nr0 = 0\nexit\n"
			  "-- type\ntc\n", &vo, VERDICT_UNSAFE,
			  "a call that may throw while the iterator", VERDICT_CASE_AGREE);
	/* its twin: destroyed before the call */
	verdict_case_file("caller_iter_done",
			  "-- asm\nr6 = *(u32 *)(r1 +0)\nr1 = r10\nr1 += -8\nr2 = 0\nr3 = 3\n"
			  "call bpf_iter_num_new\nr1 = r10\nr1 += -8\n"
			  "call bpf_iter_num_destroy\nr1 = r6\ncall f\nr0 = 0\nexit\n"
			  "f:\nif r1 < 60 goto ret\nr1 = 0\ncall bpf_throw\nret:\nr0 = 0\nexit\n"
			  "-- type\ntc\n", &vo, VERDICT_SAFE, NULL, VERDICT_CASE_AGREE);
	/* a cookie that may be a pointer leaks it as the result */
	verdict_case_file("cookie_ptr", "-- asm\nr1 = r10\ncall bpf_throw\nr0 = 0\nexit\n"
			  "-- type\ntc\n", &vo, VERDICT_UNSAFE, "R1 leaks addr",
			  VERDICT_CASE_AGREE);
}

/* A jump from main into the exception callback: the kernel's subprogram bounds, refused by
 * the CFG with the jump's instruction. */
static void test_cfg(void)
{
	static const char text[] = "r0 = 0\nif r0 == 0 goto cb\nexit\n"
				   "cb:\n.global cb int:8 exception_cb\nr0 = 1\nexit\n";
	struct ebpf_object *obj = verdict_case_open("cross", text, NULL, 0);
	struct scev_verdict v;
	struct diag d;

	if (!obj)
		return;
	diag_clear(&d);
	CHECK(ebpf_prog_exc_cb(&obj->progs[0]) && ebpf_prog_exc_cb(&obj->progs[0])->insn == 3,
	      "the exception_cb word names the function at 3");
	CHECK(scev_verify(&v, NULL, &obj->progs[0], NULL, 0, NULL, &d) != 0 &&
	      strstr(d.msg, "crosses"), "a jump into the exception callback: %s", d.msg);
	verdict_case_close(obj);
}

int main(int argc, char **argv)
{
	char path[1024];
	bool kernel;

	check_parts(&argc, argv);
	if (ebpf_kfunc_by_name("bpf_throw") <= 0) {
		printf("SKIP: the running kernel has no bpf_throw (or no vmlinux BTF)\n");
		return 77;
	}
	kernel = verdict_case_kernel("the kernel's verdicts and test runs");
	CHECK_STEP(test_table());
	CHECK_STEP(test_cfg());
	CHECK_STEP(test_verdicts(kernel));
	CHECK_STEP(test_runs(kernel));
	if (verdict_case_bpf_part("throw.o", path, sizeof(path)))
		CHECK_STEP(test_object(path, kernel));
	return check_done("test_throw");
}
