/* Ringbuf records (scev/absint_ref.c): bpf_ringbuf_reserve acquires a reference that
 * bpf_ringbuf_submit or bpf_ringbuf_discard must release exactly once on every path.  Three
 * parts, the kernel as the judge where bpf() is allowed:
 *  - the clang-built tests/bpf/ringbuf.o: each program's verdict and reason, and the kernel's
 *    agreement;
 *  - assembly cases for what clang rarely writes on its own: the NULL check through a copy,
 *    spills, paths joined before the check, a release at an offset, a second reserve of one call
 *    while the first may be held, a record given to a subprogram, tail calls and LD_ABS while
 *    one is held (each with the kernel's class: both accept, both reject, or a regression the
 *    model answers unsupported);
 *  - the interpreter: safe verdicts forged for the unsafe programs must fault when run (a leak
 *    at exit, a second release, a write after the release), and a reserve that fails returns
 *    NULL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/exec/interp.h"
#include "oracle/kernel/kernel.h"
#include "tests/check.h"
#include "tests/verdict_case.h"
#include "triage/verdict.h"


static void test_object(bool kernel)
{
	static const char *const progs[] = {
		"rb_submit", "rb_submit_or_discard", "rb_loop", "rb_leak", "rb_leak_on_path",
		"rb_loop_leak", "rb_no_null_check", "rb_double_submit", "rb_use_after_submit",
		"rb_past_size",
	};
	static const enum scev_verdict_kind want[] = {
		SAFE, SAFE, SAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE,
	};
	static const char *const reasons[] = {
		NULL, NULL, NULL, "Unreleased reference", "Unreleased reference",
		"Unreleased reference", "may be NULL", "expected=ringbuf_mem", "not a known pointer",
		"ringbuf record access [8, 16) outside the 12 bytes",
	};
	char path[1024];

	if (!verdict_case_bpf_part("ringbuf.o", path, sizeof(path)))
		return;
	verdict_case_object_why(path, progs, want, reasons, sizeof(progs) / sizeof(progs[0]),
				kernel);
}

/* map[fd:0]: a ring buffer of 4096 bytes; fd:1 a prog array (tail calls) */
static struct ebpf_map_def maps[] = {
	{ .name = "rb", .type = BPF_MAP_TYPE_RINGBUF, .max_entries = 4096 },
	{ .name = "progs", .type = BPF_MAP_TYPE_PROG_ARRAY, .key_size = 4, .value_size = 4,
	  .max_entries = 4 },
};

#define RESERVE(n) "r1 = map[fd:0] ll\nr2 = " #n "\nr3 = 0\ncall bpf_ringbuf_reserve\n"
#define SUBMIT(r) "r1 = " #r "\nr2 = 0\ncall bpf_ringbuf_submit\n"

static const struct verdict_case_row cases[] = {
	{ "null check through a copy",
	  "r6 = r1\n" RESERVE(16) "r7 = r0\nif r7 == 0 goto out\n*(u64 *)(r0 +8) = 1\n"
	  SUBMIT(r0) "out: r0 = 0\nexit\n", SAFE, NULL, VC_BOTH_ACCEPT },
	{ "spilled, checked, filled, submitted",
	  RESERVE(16) "*(u64 *)(r10 -8) = r0\nif r0 == 0 goto out\nr6 = *(u64 *)(r10 -8)\n"
	  "*(u32 *)(r6 +0) = 7\n" SUBMIT(r6) "out: r0 = 0\nexit\n", SAFE, NULL, VC_BOTH_ACCEPT },
	{ "submit through the copy, then a write through the original",
	  RESERVE(16) "if r0 == 0 goto out\nr6 = r0\n*(u64 *)(r10 -8) = r0\n" SUBMIT(r6)
	  "r7 = *(u64 *)(r10 -8)\n*(u32 *)(r7 +0) = 1\nout: r0 = 0\nexit\n", UNSAFE,
	  "not a known pointer", VC_BOTH_REJECT },
	{ "the copy checked, the original never: a leak on the NULL-check's other copy",
	  RESERVE(16) "r6 = r0\nif r6 == 0 goto out\n" SUBMIT(r6) "out: r0 = 0\nexit\n", SAFE, NULL,
	  VC_BOTH_ACCEPT },
	{ "paths joined before the check, submitted after it",
	  "r8 = *(u32 *)(r1 +16)\n" RESERVE(16) "r6 = r0\nif r8 == 0 goto skip\nr8 = 1\n"
	  "skip: if r6 == 0 goto out\n*(u32 *)(r6 +4) = r8\n" SUBMIT(r6) "out: r0 = 0\nexit\n",
	  SAFE, NULL, VC_BOTH_ACCEPT },
	{ "submitted on one path only, joined, exit",
	  "r8 = *(u32 *)(r1 +16)\n" RESERVE(16) "if r0 == 0 goto out\nif r8 == 0 goto out\n"
	  SUBMIT(r0) "out: r0 = 0\nexit\n", UNSAFE, "Unreleased reference", VC_BOTH_REJECT },
	{ "discard at an offset",
	  RESERVE(16) "if r0 == 0 goto out\nr0 += 8\nr1 = r0\nr2 = 0\ncall bpf_ringbuf_discard\n"
	  "out: r0 = 0\nexit\n", UNSAFE, "zero offset", VC_BOTH_REJECT },
	{ "read past the record",
	  RESERVE(16) "if r0 == 0 goto out\nr6 = *(u64 *)(r0 +12)\n" SUBMIT(r0)
	  "out: r0 = 0\nexit\n", UNSAFE, "outside the 16 bytes", VC_BOTH_REJECT },
	{ "bpf_get_current_comm into the record",
	  RESERVE(24) "if r0 == 0 goto out\nr6 = r0\nr1 = r0\nr1 += 8\nr2 = 16\n"
	  "call bpf_get_current_comm\n" SUBMIT(r6) "out: r0 = 0\nexit\n", SAFE, NULL,
	  VC_BOTH_ACCEPT },
	{ "bpf_get_current_comm past the record",
	  RESERVE(16) "if r0 == 0 goto out\nr6 = r0\nr1 = r0\nr1 += 8\nr2 = 16\n"
	  "call bpf_get_current_comm\n" SUBMIT(r6) "out: r0 = 0\nexit\n", UNSAFE,
	  "outside the 16 bytes", VC_BOTH_REJECT },
	{ "a size from a register the kernel knows",
	  "r6 = *(u32 *)(r1 +16)\nr2 = 8\nif r6 == 0 goto go\nr2 = 16\n"
	  "go: r1 = map[fd:0] ll\nr3 = 0\ncall bpf_ringbuf_reserve\nif r0 == 0 goto out\n"
	  SUBMIT(r0) "out: r0 = 0\nexit\n", UNSUPPORTED, "constant", VC_REGRESSION },
	{ "tail call while a record is held",
	  "r6 = r1\n" RESERVE(16) "if r0 == 0 goto out\nr7 = r0\nr1 = r6\nr2 = map[fd:1] ll\n"
	  "r3 = 0\ncall bpf_tail_call\n" SUBMIT(r7) "out: r0 = 0\nexit\n", UNSAFE,
	  "reference leak", VC_BOTH_REJECT },
	{ "each round submits the record of the round before",
	  "r6 = 0\nr7 = 0\nl: if r6 == 0 goto res\n" SUBMIT(r6) "res: " RESERVE(16) "r6 = r0\n"
	  "r7 += 1\nif r7 < 3 goto l\nif r6 == 0 goto out\n" SUBMIT(r6) "out: r0 = 0\nexit\n",
	  UNSUPPORTED, NULL, VC_REGRESSION },
	{ "a record given to a subprogram",
	  RESERVE(16) "if r0 == 0 goto out\nr6 = r0\nr1 = r0\ncall fill\n" SUBMIT(r6)
	  "out: r0 = 0\nexit\nfill: *(u32 *)(r1 +0) = 1\nr0 = 0\nexit\n", UNSUPPORTED,
	  "another function", VC_REGRESSION },
	/* (the record is unknown at the loop's header: its body releases one) */
	{ "release in a loop: the second round submits the released record",
	  RESERVE(16) "if r0 == 0 goto out\nr6 = r0\nr7 = 0\nl: " SUBMIT(r6)
	  "r7 += 1\nif r7 < 2 goto l\nout: r0 = 0\nexit\n", UNSUPPORTED, "may not be a ringbuf record",
	  VC_BOTH_REJECT },
};

static void test_cases(bool kernel)
{
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct verdict_opts vo = { .sz = sizeof(vo), .kernel = kernel,
					   .prog_type = BPF_PROG_TYPE_XDP };

		verdict_case_run(cases[k].name, cases[k].text, maps, sizeof(maps) / sizeof(maps[0]),
				 &vo, (uint8_t)cases[k].want, cases[k].reason, cases[k].kclass);
	}
}

/* A safe verdict forged for an unsafe case must fault in some run (a run whose reserve fails
 * takes the NULL path and leaks nothing). */
static void test_forged(void)
{
	static const char *const unsafe[] = {
		"submit through the copy, then a write through the original",
		"submitted on one path only, joined, exit", "read past the record",
		"tail call while a record is held",
		"release in a loop: the second round submits the released record",
	};
	static const char *const fault[] = {
		"submitted or discarded", "reference leak", "runs past the end", "reference leak",
		"not the start of a live ringbuf record",
	};

	for (size_t u = 0; u < sizeof(unsafe) / sizeof(unsafe[0]); u++)
		for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
			if (!strcmp(cases[k].name, unsafe[u]))
				verdict_case_forged_faults(cases[k].name, cases[k].text, maps,
							   sizeof(maps) / sizeof(maps[0]),
							   fault[u]);
}

/* The interpreter's reserve: a record of the size asked, NULL when the helper data's byte is
 * odd, when flags are set or when the size exceeds the ring. */
static void test_interp(void)
{
	static const struct {
		const char *text;
		uint8_t data;
		uint64_t r0;
	} runs[] = {
		{ RESERVE(16) "if r0 == 0 goto out\n*(u64 *)(r0 +8) = 5\nr6 = *(u64 *)(r0 +8)\n"
		  SUBMIT(r0) "r0 = r6\nexit\nout: r0 = 1\nexit\n", 0, 5 },
		{ RESERVE(16) "if r0 == 0 goto out\n" SUBMIT(r0) "r0 = 2\nexit\nout: r0 = 1\nexit\n",
		  1, 1 },
		{ "r1 = map[fd:0] ll\nr2 = 16\nr3 = 1\ncall bpf_ringbuf_reserve\nexit\n", 0, 0 },
		{ RESERVE(8192) "exit\n", 0, 0 },
	};

	for (size_t k = 0; k < sizeof(runs) / sizeof(runs[0]); k++) {
		char name[32];
		uint64_t r0;

		snprintf(name, sizeof(name), "run %zu", k);
		if (verdict_case_interp(name, runs[k].text, maps, 2, &runs[k].data, 1, &r0))
			CHECK(r0 == runs[k].r0, "%s: r0 = %llu, expected %llu", name,
			      (unsigned long long)r0, (unsigned long long)runs[k].r0);
	}
}

int main(void)
{
	bool kernel = verdict_case_kernel("the kernel's verdicts");

	test_object(kernel);
	test_cases(kernel);
	test_forged();
	test_interp();
	return check_done("test_ringbuf");
}
