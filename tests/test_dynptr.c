/* Dynptrs on the stack (scev/absint_dynptr.c, the interpreter's dp_make_helper and
 * dynptr_helper): bpf_dynptr_from_mem over a map value, bpf_ringbuf_reserve_dynptr and its
 * submit/discard, and bpf_dynptr_read/_write/_data on them.  Three parts, the kernel as the judge
 * where bpf() is allowed:
 *  - assembly cases, each with the kernel's class (both accept, both reject, or a regression
 *    the model answers unsupported): the kernel's rules for the 16 bytes, the reference a
 *    ringbuf dynptr is even when its reserve fails, the slices;
 *  - safe verdicts forged for the unsafe cases must fault when run (a leak at exit, a second
 *    reserve over a live ringbuf dynptr, a slice read past the record, a store through a slice
 *    of a discarded dynptr);
 *  - the interpreter's results: the bytes a local dynptr reads, -EINVAL and NULL for flags,
 *    -E2BIG past the size, NULL ringbuf dynptrs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/exec/interp.h"
#include "tests/check.h"
#include "tests/verdict_case.h"
#include "triage/verdict.h"

/* map[fd:0]: an array of one 64-byte value; fd:1 a ring buffer of 4096 bytes */
static struct ebpf_map_def maps[] = {
	{ .name = "arr", .type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 64,
	  .max_entries = 1 },
	{ .name = "rb", .type = BPF_MAP_TYPE_RINGBUF, .max_entries = 4096 },
};

/* r0 = the value (or out), then bpf_dynptr_from_mem(value, n, flags, fp-24) */
#define LOOKUP "r1 = 0\n*(u32 *)(r10 -4) = r1\nr1 = map[fd:0] ll\nr2 = r10\nr2 += -4\n" \
	       "call bpf_map_lookup_elem\nif r0 == 0 goto out\n"
#define FROM_MEM(n, fl) "r1 = r0\nr2 = " #n "\nr3 = " #fl "\nr4 = r10\nr4 += -24\n" \
			"call bpf_dynptr_from_mem\n"
#define RESERVE(n) "r1 = map[fd:1] ll\nr2 = " #n "\nr3 = 0\nr4 = r10\nr4 += -16\n" \
		   "call bpf_ringbuf_reserve_dynptr\n"
#define RELEASE(f) "r1 = r10\nr1 += -16\nr2 = 0\ncall bpf_ringbuf_" #f "_dynptr\n"
/* r0 = bpf_dynptr_read(fp-32, len, fp-24, off, 0) */
#define READ(len, off) "r1 = r10\nr1 += -32\nr2 = " #len "\nr3 = r10\nr3 += -24\nr4 = " #off \
		       "\nr5 = 0\ncall bpf_dynptr_read\n"

static const struct verdict_case_row cases[] = {
	{ "from_mem, read", LOOKUP FROM_MEM(64, 0) READ(8, 56) "out: r0 = 0\nexit\n", SAFE, NULL,
	  VC_BOTH_ACCEPT },
	{ "from_mem over the stack",
	  "r1 = r10\nr1 += -8\n*(u64 *)(r10 -8) = 0\nr2 = 8\nr3 = 0\nr4 = r10\nr4 += -24\n"
	  "call bpf_dynptr_from_mem\nr0 = 0\nexit\n", UNSAFE, "Unsupported reg type stack",
	  VC_BOTH_REJECT },
	{ "from_mem past the value", LOOKUP FROM_MEM(65, 0) "out: r0 = 0\nexit\n", UNSAFE, NULL,
	  VC_BOTH_REJECT },
	{ "from_mem with flags: an invalid dynptr, still read", LOOKUP FROM_MEM(8, 1) READ(8, 0)
	  "out: r0 = 0\nexit\n", SAFE, NULL, VC_BOTH_ACCEPT },
	{ "ringbuf dynptr discarded", RESERVE(16) RELEASE(discard) "r0 = 0\nexit\n", SAFE, NULL,
	  VC_BOTH_ACCEPT },
	{ "ringbuf dynptr submitted on success only",
	  RESERVE(16) "if r0 != 0 goto out\n" RELEASE(submit) "out: r0 = 0\nexit\n", UNSAFE,
	  "reference leak", VC_BOTH_REJECT },
	{ "ringbuf dynptr released twice", RESERVE(16) RELEASE(submit) RELEASE(discard)
	  "r0 = 0\nexit\n", UNSAFE, "Expected an initialized dynptr", VC_BOTH_REJECT },
	{ "ringbuf dynptr reserved again over itself", RESERVE(16) RESERVE(16) RELEASE(discard)
	  "r0 = 0\nexit\n", UNSAFE, "cannot overwrite referenced dynptr", VC_BOTH_REJECT },
	{ "ringbuf dynptr with a ringbuf map of another type",
	  "r1 = map[fd:0] ll\nr2 = 16\nr3 = 0\nr4 = r10\nr4 += -16\n"
	  "call bpf_ringbuf_reserve_dynptr\n" RELEASE(discard) "r0 = 0\nexit\n", UNSAFE, NULL,
	  VC_BOTH_REJECT },
	{ "a store beside a live ringbuf dynptr", RESERVE(16) "*(u64 *)(r10 -24) = 0\n"
	  RELEASE(discard) "r0 = *(u64 *)(r10 -24)\nexit\n", SAFE, NULL, VC_BOTH_ACCEPT },
	{ "slice of 8 at the record's end, read past it",
	  RESERVE(16) "r1 = r10\nr1 += -16\nr2 = 8\nr3 = 8\ncall bpf_dynptr_data\n"
	  "if r0 == 0 goto d\nr6 = *(u64 *)(r0 +8)\nd: " RELEASE(discard) "r0 = 0\nexit\n", UNSAFE,
	  "mem_size=8", VC_BOTH_REJECT },
	{ "slice written after the discard",
	  RESERVE(16) "r1 = r10\nr1 += -16\nr2 = 0\nr3 = 8\ncall bpf_dynptr_data\nr6 = r0\n"
	  RELEASE(discard) "if r6 == 0 goto o\n*(u64 *)(r6 +0) = 1\no: r0 = 0\nexit\n", UNSAFE,
	  NULL, VC_BOTH_REJECT },
	{ "a ringbuf dynptr given to a subprogram",
	  RESERVE(16) "r1 = r10\nr1 += -16\ncall f\n" RELEASE(discard) "r0 = 0\nexit\n"
	  "f: r0 = 0\nexit\n", SAFE, NULL, VC_BOTH_ACCEPT },
};

/* A safe verdict forged for an unsafe case must fault in some run. */
static void test_forged(void)
{
	static const char *const unsafe[] = {
		"ringbuf dynptr submitted on success only", "ringbuf dynptr released twice",
		"ringbuf dynptr reserved again over itself",
		"slice of 8 at the record's end, read past it", "slice written after the discard",
	};
	static const char *const fault[] = {
		"reference leak", "not an initialized dynptr", "cannot overwrite referenced dynptr",
		"is outside every region", "submitted or discarded",
	};

	for (size_t u = 0; u < sizeof(unsafe) / sizeof(unsafe[0]); u++)
		for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
			if (!strcmp(cases[k].name, unsafe[u]))
				verdict_case_forged_faults(cases[k].name, cases[k].text, maps,
							   sizeof(maps) / sizeof(maps[0]),
							   fault[u]);
}

/* The interpreter's results (kernel/bpf/helpers.c, ringbuf.c): the map value reads as zeros. */
static void test_interp(void)
{
	static const struct {
		const char *text;
		uint8_t data;
		uint64_t r0;
	} runs[] = {
		/* the value's byte 5 written, read back at offset 5 through the dynptr */
		{ LOOKUP "*(u8 *)(r0 +5) = 77\n" FROM_MEM(64, 0) READ(1, 5)
		  "if r0 != 0 goto out\nr0 = *(u8 *)(r10 -32)\nexit\nout: r0 = 1000\nexit\n", 0, 77 },
		/* past the size: -E2BIG (7); flags: -EINVAL (22), NULL data */
		{ LOOKUP FROM_MEM(8, 0) READ(2, 7) "r0 = -r0\nexit\nout: r0 = 1000\nexit\n", 0, 7 },
		{ LOOKUP FROM_MEM(8, 1) "r6 = r0\nr6 = -r6\n" READ(1, 0) "r0 = -r0\nr0 += r6\nexit\n"
		  "out: r0 = 1000\nexit\n", 0, 44 },
		{ LOOKUP FROM_MEM(8, 0) "r1 = r10\nr1 += -24\nr2 = 4\nr3 = 8\ncall bpf_dynptr_data\n"
		  "exit\nout: r0 = 1000\nexit\n", 0, 0 },
		/* a ringbuf dynptr written through bpf_dynptr_write, read back; a failed reserve
		 * (odd helper byte): -EINVAL, and its dynptr reads -EINVAL too */
		{ RESERVE(16) "*(u64 *)(r10 -40) = 9\nr1 = r10\nr1 += -16\nr2 = 8\nr3 = r10\n"
		  "r3 += -40\nr4 = 8\nr5 = 0\ncall bpf_dynptr_write\nr6 = r0\nr1 = r10\nr1 += -32\n"
		  "r2 = 8\nr3 = r10\nr3 += -16\nr4 = 8\nr5 = 0\ncall bpf_dynptr_read\nr6 += r0\n"
		  RELEASE(submit) "r0 = *(u64 *)(r10 -32)\nr0 += r6\nexit\n", 0, 9 },
		{ RESERVE(16) "r6 = r0\nr6 = -r6\n" RELEASE(discard) "r0 = r6\nexit\n", 1, 22 },
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

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct verdict_opts vo = { .sz = sizeof(vo), .kernel = kernel,
					   .prog_type = BPF_PROG_TYPE_XDP };

		verdict_case_run(cases[k].name, cases[k].text, maps, sizeof(maps) / sizeof(maps[0]),
				 &vo, (uint8_t)cases[k].want, cases[k].reason, cases[k].kclass);
	}
	test_forged();
	test_interp();
	return check_done("test_dynptr");
}
