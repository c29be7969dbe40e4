/* `bpfscev verify` on bpf_loop (scev/absint_callbacks.c), judged by the running kernel: each
 * program — assembly twins, safe and unsafe, and the clang-built objects tests/bpf/callbacks.c
 * and tests/bpf/bpf_loop_verify.c — is loaded into the kernel at test time, and bpfscev's verdict
 * must agree with the verifier's (both accept or both reject), except where a case names the
 * known difference: a rule gap, read and explained (none of the kernel's limits refuses it: the
 * kernel takes the callback's index and bpf_loop's result as any scalar, bpfscev bounds them by
 * nr; 6.18 reports a bug in itself for one).  Programs called safe are also run (verdict_compare), and must not fault.  Without
 * bpf(), bpfscev's verdicts are checked against the ones written here and the kernel part is
 * skipped.
 */
#include <string.h>
#include <sys/stat.h>

#include "oracle/kernel/kernel.h"
#include "tests/check.h"
#include "tests/verdict_case.h"
#include "triage/verdict.h"

/* map[fd:0]: array 4 -> 8 */
static struct ebpf_map_def maps[] = {
	{ .name = "arr", .type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 8,
	  .max_entries = 4 },
};

#define CALL(nr, ctx, flags) "r1 = " nr "\nr2 = func cb ll\n" ctx "r4 = " flags "\ncall bpf_loop\n"

static const struct verdict_case_row cases[] = {
	/* safe: the kernel accepts */
	{ "sum through ctx", INIT8 CALL("10", FP8, "0") "r0 = *(u64 *)(r10 -8)\nexit\n"
	  "cb: r3 = *(u64 *)(r2 +0)\nr3 += r1\n*(u64 *)(r2 +0) = r3\n" END, SAFE, NULL, AGREE },
	{ "NULL ctx", CALL("10", "r3 = 0\n", "0") END "cb: " END, SAFE, NULL, AGREE },
	{ "stops early", CALL("100", "r3 = 0\n", "0") END
	  "cb: r0 = 0\nif r1 < 3 goto +1\nr0 = 1\nexit\n", SAFE, NULL, AGREE },
	{ "nr from the context", "r1 = *(u32 *)(r1 +0)\n" CALL("r1", "r3 = 0\n", "0") END
	  "cb: " END, SAFE, NULL, AGREE },
	/* flags other than 0: the helper fails at run time, the verifier does not mind */
	{ "flags 1", CALL("3", "r3 = 0\n", "1") END "cb: " END, SAFE, NULL, AGREE },
	{ "nested bpf_loop on the caller's ctx", INIT8 CALL("4", FP8, "0")
	  "r0 = *(u64 *)(r10 -8)\nexit\n"
	  "cb: r1 = 3\nr3 = r2\nr2 = func cb2 ll\nr4 = 0\ncall bpf_loop\n" END
	  "cb2: r3 = *(u64 *)(r2 +0)\nr3 += 1\n*(u64 *)(r2 +0) = r3\n" END, SAFE, NULL, AGREE },
	{ "plain loop in the callback", INIT8 CALL("5", FP8, "0") "r0 = *(u64 *)(r10 -8)\nexit\n"
	  "cb: r4 = 0\nm: r3 = *(u64 *)(r2 +0)\nr3 += r4\n*(u64 *)(r2 +0) = r3\nr4 += 1\n"
	  "if r4 < 6 goto m\n" END, SAFE, NULL, AGREE },
	{ "callback returns a u32 of 0 or 1", CALL("5", "r3 = 0\n", "0") END
	  "cb: w0 = w1\nw0 &= 1\nexit\n", SAFE, NULL, AGREE },
	{ "bpf_loop inside a plain loop", INIT8 "r6 = 0\nl: " CALL("r6", FP8, "0") "r6 += 1\n"
	  "if r6 < 4 goto l\nr0 = *(u64 *)(r10 -8)\nexit\n"
	  "cb: r3 = *(u64 *)(r2 +0)\nr3 += 1\n*(u64 *)(r2 +0) = r3\n" END, SAFE, NULL, AGREE },
	/* unsafe: the kernel rejects */
	{ "callback returns 2", CALL("3", "r3 = 0\n", "0") END "cb: r0 = 2\nexit\n", UNSAFE,
	  "callback return", AGREE },
	{ "callback returns the index", CALL("3", "r3 = 0\n", "0") END "cb: r0 = r1\nexit\n",
	  UNSAFE, "callback return", AGREE },
	{ "callback returns a pointer", CALL("3", FP8, "0") END "cb: r0 = r2\nexit\n", UNSAFE,
	  "callback return", AGREE },
	{ "callback leaves R0 unwritten", CALL("3", "r3 = 0\n", "0") END "cb: exit\n", UNSAFE,
	  "R0", AGREE },
	{ "callback reads R3", CALL("3", "r3 = 0\n", "0") END "cb: r0 = r3\n" END, UNSAFE, "R3",
	  AGREE },
	{ "callback reads R5", CALL("3", "r3 = 0\n", "0") END "cb: r0 = r5\n" END, UNSAFE, "R5",
	  AGREE },
	{ "write above the caller's frame", CALL("3", FP8, "0") END
	  "cb: *(u64 *)(r2 +8) = r1\n" END, UNSAFE, "caller's stack outside", AGREE },
	{ "write below the caller's frame", CALL("3", FP8, "0") END
	  "cb: *(u64 *)(r2 -512) = r1\n" END, UNSAFE, "caller's stack outside", AGREE },
	{ "read through a NULL ctx", CALL("3", "r3 = 0\n", "0") END
	  "cb: r0 = *(u64 *)(r2 +0)\n" END, UNSAFE, "not a known pointer", AGREE },
	{ "ctx is the context", "r3 = r1\n" CALL("3", "", "0") END "cb: " END, UNSAFE,
	  "expected=fp", AGREE },
	{ "ctx is a map value", "r1 = 0\n*(u32 *)(r10 -4) = r1\nr2 = r10\nr2 += -4\n"
	  "r1 = map[fd:0] ll\ncall bpf_map_lookup_elem\nif r0 == 0 goto +6\n"
	  "r3 = r0\n" CALL("3", "", "0") END "cb: " END, UNSAFE, "expected=fp", AGREE },
	{ "ctx is a non-zero scalar", CALL("3", "r3 = 8\n", "0") END "cb: " END, UNSAFE,
	  "expected=fp", AGREE },
	{ "flags unwritten", "r1 = 3\nr2 = func cb ll\nr3 = 0\ncall bpf_loop\n" END "cb: " END,
	  UNSAFE, "R4", AGREE },
	/* fp-8 holds 0 before the call and what the callback wrote after it: used as an offset,
	 * it is unbounded (a caller that kept 0 would call it safe) */
	{ "the callback's write reaches the caller", INIT8 CALL("1", FP8, "0")
	  "r0 = *(u64 *)(r10 -8)\nr1 = r10\nr1 += -16\nr1 += r0\nr0 = *(u8 *)(r1 +0)\n" END
	  "cb: r3 = *(u64 *)(r2 +0)\nr3 += r1\nr3 += 1000\n*(u64 *)(r2 +0) = r3\n" END, UNSAFE,
	  NULL, AGREE },
	{ "unbounded loop in the callback", CALL("3", "r3 = 0\n", "0") END
	  "cb: r4 = 0\nm: r4 += 1\nif r4 != 0 goto m\n" END, UNSAFE, "may not terminate", AGREE },
	/* known differences */
	/* the index is below nr: the kernel does not know it */
	{ "store indexed by the index", "r0 = 0\n*(u64 *)(r10 -8) = r0\n*(u64 *)(r10 -16) = r0\n"
	  "*(u64 *)(r10 -24) = r0\n*(u64 *)(r10 -32) = r0\n" CALL("4", "r3 = r10\nr3 += -32\n", "0")
	  END "cb: r1 <<= 3\nr2 += r1\n*(u64 *)(r2 +0) = r1\n" END, SAFE, NULL, VC_RULE_GAP },
	/* ... nor that bpf_loop returns at most nr */
	{ "bpf_loop's result as an index", "r0 = 0\n*(u64 *)(r10 -8) = r0\n*(u64 *)(r10 -16) = r0\n"
	  CALL("1", "r3 = 0\n", "0") "r0 <<= 3\nr1 = r10\nr1 += -16\nr1 += r0\n"
	  "r0 = *(u8 *)(r1 +0)\nexit\n" "cb: " END, SAFE, NULL, VC_RULE_GAP },
	/* nr is ARG_ANYTHING, so the context pointer will do: the helper takes its low 32 bits
	 * (the kernel's inlined loop compares all 64 and fails with -E2BIG); 6.18's verifier
	 * refuses it with "verifier bug: backtracking misuse" */
	{ "nr is the context pointer", "r2 = func cb ll\nr3 = 0\nr4 = 0\ncall bpf_loop\n" END
	  "cb: " END, SAFE, NULL, VC_RULE_GAP },
	/* the privileged kernel reads unwritten stack bytes (allow_uninit_stack), and so does
	 * bpfscev by default (verdict_opts.unprivileged refuses it: test_paths) */
	{ "read of the caller's unwritten bytes", CALL("3", FP8, "0") END
	  "cb: r0 = *(u64 *)(r2 +0)\n" END, SAFE, NULL, AGREE },
};

static void asm_cases(bool kernel)
{
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct verdict_opts vo = { .sz = sizeof(vo), .prog_type = BPF_PROG_TYPE_SOCKET_FILTER,
					   .kernel = kernel };

		verdict_case_run(cases[k].name, cases[k].text, maps, 1, &vo, cases[k].want,
				 cases[k].reason, cases[k].kclass);
	}
}

/* Every program of a clang-built object: the kernel's verdict, and what bpfscev must say. */
static void object(const char *dir, const char *file, const char *const *progs,
		   const enum scev_verdict_kind *want, size_t n, bool kernel)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	verdict_case_object(path, progs, want, n, kernel);
}

int main(void)
{
	static const char *const cb_progs[] = { "shared_cb", "section_cb" };
	/* shared_cb gives the global global_cb() as a callback: "callback function not static" */
	static const enum scev_verdict_kind cb_want[] = { UNSAFE, SAFE };
	static const char *const v_progs[] = { "hist_safe", "ret_index_unsafe",
					       "past_frame_unsafe" };
	static const enum scev_verdict_kind v_want[] = { SAFE, UNSAFE, UNSAFE };
	const char *dir = getenv("BPFSCEV_TEST_BPF_DIR");
	char path[1024];
	bool kernel = verdict_case_kernel("the kernel's verdicts");
	struct stat st;

	asm_cases(kernel);
	snprintf(path, sizeof(path), "%s/bpf_loop_verify.o", dir ? dir : "");
	if (dir && !stat(path, &st)) {
		object(dir, "callbacks.o", cb_progs, cb_want, 2, kernel);
		object(dir, "bpf_loop_verify.o", v_progs, v_want, 3, kernel);
	} else {
		check_skip_part("the clang-built objects (no clang at configure time)");
	}
	return check_done("test_callbacks_verify");
}
