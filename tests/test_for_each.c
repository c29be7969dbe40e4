/* bpf_for_each_map_elem (scev/absint_callbacks.c, the interpreter's each_start), judged by the
 * running kernel:
 *  - verdicts: assembly twins, safe and unsafe (a write past the value, a write to the key, a
 *    callback returning 2, a map type the helper does not walk, ...), are loaded into the kernel
 *    and bpfscev's verdict must agree with the verifier's (or be the known difference a case
 *    names: a rule gap, read and explained, where the kernel's imprecision refuses it);
 *    programs called safe are also run and must not fault;
 *  - runs: programs that walk arrays and hash tables (filled by the program, an element deleted
 *    by the callback, a walk stopped early) must return what the walk's definition gives,
 *    computed here by hand, in the interpreter — and, with bpf(), the kernel's BPF_PROG_TEST_RUN
 *    must return the same;
 *  - trip claims: the callback is a loop of kind for_each_map_elem, exact max_entries for a
 *    full array walk, at most max_entries for a hash walk.
 *  - the clang-built tests/bpf/for_each_verify.c (array and hash walks, one stopping early, one
 *    deleting; a write past the value, a write to the key, a callback returning 2): our verdict
 *    against the kernel's.
 * Without bpf(), the kernel parts are skipped and the rest still runs.
 */
#include <stdlib.h>
#include <string.h>

#include "casefile/casefile.h"
#include "oracle/exec/check.h"
#include "oracle/kernel/kdiff.h"
#include "oracle/kernel/kernel.h"
#include "scev/scev.h"
#include "tests/check.h"
#include "tests/verdict_case.h"
#include "triage/verdict.h"

static struct ebpf_map_def maps[] = {
	{ .name = "arr", .type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 8,
	  .max_entries = 4 },
	{ .name = "h", .type = BPF_MAP_TYPE_HASH, .key_size = 8, .value_size = 16,
	  .max_entries = 8 },
	{ .name = "pa", .type = BPF_MAP_TYPE_PERCPU_ARRAY, .key_size = 4, .value_size = 8,
	  .max_entries = 2 },
	{ .name = "lru", .type = BPF_MAP_TYPE_LRU_HASH, .key_size = 4, .value_size = 8,
	  .max_entries = 16 },
	{ .name = "progs", .type = BPF_MAP_TYPE_PROG_ARRAY, .key_size = 4, .value_size = 4,
	  .max_entries = 4 },
};

#define WALK(map, ctx, flags)                                                                   \
	"r1 = map[fd:" map "] ll\nr2 = func cb ll\n" ctx "r4 = " flags "\n"                    \
	"call bpf_for_each_map_elem\n"
/* h[1] = {10, 1}: key at fp-8, value at fp-24 */
#define PUT1 "r6 = 1\n*(u64 *)(r10 -8) = r6\n*(u64 *)(r10 -16) = r6\nr6 = 10\n"             \
	     "*(u64 *)(r10 -24) = r6\nr1 = map[fd:1] ll\nr2 = r10\nr2 += -8\nr3 = r10\n"       \
	     "r3 += -24\nr4 = 0\ncall bpf_map_update_elem\n"

/* main's fp-24 holds 7, fp-8 a pointer to it (r1 keeps it); fp-16 the second cell */
#define CELLS "r1 = 7\n*(u64 *)(r10 -24) = r1\nr1 = r10\nr1 += -24\n*(u64 *)(r10 -8) = r1\n"
#define FP16 "r3 = r10\nr3 += -16\n"
/* cb: loads its ctx's pointer, and through it (after the test) */
#define CHECKED "if r5 == 0 goto +1\n"
#define CB_PTR(test) "cb: r5 = *(u64 *)(r4 +0)\n" test "r0 = *(u64 *)(r5 +0)\n"

static const struct verdict_case_row cases[] = {
	/* bpf_user_ringbuf_drain walks no array */
	{ "bpf_user_ringbuf_drain of an array", "r1 = map[fd:0] ll\nr2 = func cb ll\nr3 = 0\n"
	  "r4 = 0\ncall bpf_user_ringbuf_drain\n" END "cb: " END, UNSAFE,
	  "cannot pass map_type 2 into func bpf_user_ringbuf_drain#209", AGREE },
	/* safe: the kernel accepts */
	{ "array: sum of keys and values through ctx", INIT8 WALK("0", FP8, "0")
	  "r0 = *(u64 *)(r10 -8)\nexit\n"
	  "cb: r0 = *(u32 *)(r2 +0)\nr5 = *(u64 *)(r3 +0)\nr0 += r5\nr5 = *(u64 *)(r4 +0)\n"
	  "r5 += r0\n*(u64 *)(r4 +0) = r5\n" END, SAFE, NULL, AGREE },
	{ "array: the callback writes the value", WALK("0", "r3 = 0\n", "0") END
	  "cb: r0 = *(u32 *)(r2 +0)\n*(u64 *)(r3 +0) = r0\n" END, SAFE, NULL, AGREE },
	{ "array: NULL ctx, stops early", WALK("0", "r3 = 0\n", "0") END
	  "cb: r0 = 0\nr5 = *(u32 *)(r2 +0)\nif r5 < 2 goto +1\nr0 = 1\nexit\n", SAFE, NULL,
	  AGREE },
	{ "array: flags 1", WALK("0", "r3 = 0\n", "1") END "cb: " END, SAFE, NULL, AGREE },
	{ "hash: 8-byte key, 16-byte value", PUT1 WALK("1", "r3 = 0\n", "0") END
	  "cb: r0 = *(u64 *)(r2 +0)\nr5 = *(u64 *)(r3 +8)\nr0 += r5\n*(u64 *)(r3 +8) = r0\n"
	  END, SAFE, NULL, AGREE },
	{ "hash: the callback deletes the element", PUT1 WALK("1", "r3 = 0\n", "0") END
	  "cb: call bpf_map_delete_elem\n" END, SAFE, NULL, AGREE },
	{ "percpu array", WALK("2", "r3 = 0\n", "0") END
	  "cb: r0 = *(u64 *)(r3 +0)\nr0 += 1\n*(u64 *)(r3 +0) = r0\n" END, SAFE, NULL, AGREE },
	{ "LRU hash", WALK("3", "r3 = 0\n", "0") END "cb: r0 = *(u32 *)(r2 +0)\n"
	  "*(u64 *)(r3 +0) = r0\n" END, SAFE, NULL, AGREE },
	{ "walk inside a plain loop", INIT8 "r6 = 0\nl: " WALK("0", FP8, "0") "r6 += 1\n"
	  "if r6 < 3 goto l\nr0 = *(u64 *)(r10 -8)\nexit\n"
	  "cb: r0 = *(u64 *)(r4 +0)\nr0 += 1\n*(u64 *)(r4 +0) = r0\n" END, SAFE, NULL, AGREE },
	{ "callback returns a u32 of 0 or 1", WALK("0", "r3 = 0\n", "0") END
	  "cb: r0 = *(u32 *)(r2 +0)\nw0 &= 1\nexit\n", SAFE, NULL, AGREE },
	/* the ctx argument's cell holds the context at one call and NULL at the other: the
	 * kernel checks the callback per call; bpfscev once, from the join, the context or NULL
	 * (aval_join), which the null check splits (selftest for_each_hash_map_elem.c) */
	{ "the context at one call, NULL at another, checked", "r6 = r1\n*(u64 *)(r10 -8) = r6\n"
	  WALK("0", FP8, "0") "r6 = 0\n*(u64 *)(r10 -8) = r6\n" WALK("0", FP8, "0") END
	  "cb: r5 = *(u64 *)(r4 +0)\nif r5 == 0 goto +1\nr0 = *(u32 *)(r5 +0)\n" END, SAFE, NULL,
	  AGREE },
	/* one callback, two call contexts the kernel verifies apart and bpfscev analyses apart
	 * (absint_cb_plan: a copy per context; cb_view: each copy reads main's cells at its own
	 * calls): a pointer into main's frame at one call, NULL at the other (the join of a stack
	 * pointer and NULL is unknown: called unsafe before, "R5 is not a known pointer") */
	{ "two cells, a stack pointer in one and NULL in the other, checked",
	  CELLS "r1 = 0\n*(u64 *)(r10 -16) = r1\n" WALK("0", FP8, "0") WALK("0", FP16, "0") END
	  CB_PTR(CHECKED) END, SAFE, NULL, AGREE },
	{ "one cell, a stack pointer at one call and NULL at the other, checked",
	  CELLS WALK("0", FP8, "0") "r1 = 0\n*(u64 *)(r10 -8) = r1\n" WALK("0", FP8, "0") END
	  CB_PTR(CHECKED) END, SAFE, NULL, AGREE },
	{ "a stack pointer from main, NULL from a nested callback's frame, checked",
	  CELLS WALK("0", FP8, "0") "r1 = map[fd:0] ll\nr2 = func cb2 ll\nr3 = 0\nr4 = 0\n"
	  "call bpf_for_each_map_elem\n" END CB_PTR(CHECKED) END "cb2: r1 = 0\n"
	  "*(u64 *)(r10 -8) = r1\nr1 = map[fd:0] ll\nr2 = func cb ll\nr3 = r10\nr3 += -8\n"
	  "r4 = 0\ncall bpf_for_each_map_elem\n" END, SAFE, NULL, AGREE },
	{ "the context or NULL, joined in plain code and checked", "r6 = r1\n"
	  "call bpf_get_prandom_u32\nif r0 != 0 goto +1\nr6 = 0\nif r6 == 0 goto +1\n"
	  "r0 = *(u32 *)(r6 +0)\n" END, SAFE, NULL, AGREE },
	/* unsafe: the kernel rejects */
	{ "write past the value", WALK("0", "r3 = 0\n", "0") END "cb: *(u64 *)(r3 +8) = r1\n" END,
	  UNSAFE, "map value access", AGREE },
	{ "read past the key", WALK("0", "r3 = 0\n", "0") END "cb: r0 = *(u64 *)(r2 +0)\n" END,
	  UNSAFE, "map key access", AGREE },
	{ "write to the key", WALK("0", "r3 = 0\n", "0") END "cb: r0 = 0\n*(u32 *)(r2 +0) = r0\n"
	  "exit\n", UNSAFE, "write to change key", AGREE },
	{ "callback returns 2", WALK("0", "r3 = 0\n", "0") END "cb: r0 = 2\nexit\n", UNSAFE,
	  "callback return", AGREE },
	{ "callback returns the value", WALK("0", "r3 = 0\n", "0") END
	  "cb: r0 = *(u64 *)(r3 +0)\nexit\n", UNSAFE, "callback return", AGREE },
	{ "the context at one call, NULL at another, not checked", "r6 = r1\n"
	  "*(u64 *)(r10 -8) = r6\n" WALK("0", FP8, "0") "r6 = 0\n*(u64 *)(r10 -8) = r6\n"
	  WALK("0", FP8, "0") END "cb: r5 = *(u64 *)(r4 +0)\nr0 = *(u32 *)(r5 +0)\n" END, UNSAFE,
	  "R5 is not a known pointer", AGREE },	/* (the NULL call's copy: the kernel's 'scalar') */
	/* the twins: the NULL call's copy loads through NULL; or both calls pass the pointer and
	 * the callback sets it to NULL after its load (the walk's second element finds it) */
	{ "two cells, a stack pointer in one and NULL in the other, not checked",
	  CELLS "r1 = 0\n*(u64 *)(r10 -16) = r1\n" WALK("0", FP8, "0") WALK("0", FP16, "0") END
	  CB_PTR("") END, UNSAFE, "R5 is not a known pointer", AGREE },
	{ "one cell, a stack pointer at one call and NULL at the other, not checked",
	  CELLS WALK("0", FP8, "0") "r1 = 0\n*(u64 *)(r10 -8) = r1\n" WALK("0", FP8, "0") END
	  CB_PTR("") END, UNSAFE, "R5 is not a known pointer", AGREE },
	{ "two cells holding the pointer, the callback clearing it after an unchecked load",
	  CELLS "*(u64 *)(r10 -16) = r1\n" WALK("0", FP8, "0") WALK("0", FP16, "0") END
	  CB_PTR("") "r1 = 0\n*(u64 *)(r4 +0) = r1\n" END, UNSAFE, "R5 is not a known pointer",
	  AGREE },
	{ "a legacy packet load with the context or NULL in R6", "r6 = r1\n"
	  "call bpf_get_prandom_u32\nif r0 != 0 goto +1\nr6 = 0\nr0 = *(u8 *)skb[0]\n" END,
	  UNSAFE, "context in R6", AGREE },
	{ "callback reads R5", WALK("0", "r3 = 0\n", "0") END "cb: r0 = r5\n" END, UNSAFE, "R5",
	  AGREE },
	{ "a program array", WALK("4", "r3 = 0\n", "0") END "cb: " END, UNSAFE, "map_type",
	  AGREE },
	{ "R1 is not a map", "r1 = 0\nr2 = func cb ll\nr3 = 0\nr4 = 0\n"
	  "call bpf_for_each_map_elem\n" END "cb: " END, UNSAFE, "not a map", AGREE },
	{ "ctx is the context", "r3 = r1\n" WALK("0", "", "0") END "cb: " END, UNSAFE,
	  "expected=fp", AGREE },
	{ "write above the caller's frame", WALK("0", FP8, "0") END
	  "cb: *(u64 *)(r4 +8) = r1\n" END, UNSAFE, "caller's stack outside", AGREE },
	{ "flags unwritten", "r1 = map[fd:0] ll\nr2 = func cb ll\nr3 = 0\n"
	  "call bpf_for_each_map_elem\n" END "cb: " END, UNSAFE, "R4", AGREE },
	/* known differences: the helper returns at most max_entries calls, which the kernel
	 * does not know (RET_INTEGER) */
	{ "the result as an index", "r0 = 0\n*(u64 *)(r10 -8) = r0\n*(u64 *)(r10 -16) = r0\n"
	  "*(u64 *)(r10 -24) = r0\n*(u64 *)(r10 -32) = r0\n*(u64 *)(r10 -40) = r0\n"
	  WALK("0", "r3 = 0\n", "0") "r0 <<= 3\nr1 = r10\nr1 += -40\nr1 += r0\n"
	  "r0 = *(u64 *)(r1 +0)\nexit\n" "cb: " END, SAFE, NULL, VC_RULE_GAP },
};

static struct ebpf_object *open_asm(const char *name, const char *text)
{
	return verdict_case_open(name, text, maps, sizeof(maps) / sizeof(maps[0]));
}

static void verdict_cases(bool kernel)
{
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct verdict_opts vo = { .sz = sizeof(vo), .prog_type = BPF_PROG_TYPE_SOCKET_FILTER,
					   .kernel = kernel };

		verdict_case_run(cases[k].name, cases[k].text, maps, sizeof(maps) / sizeof(maps[0]),
				 &vo, cases[k].want, cases[k].reason, cases[k].kclass);
	}
}

/* Walks whose result the definition gives: main returns ctx * 100 + the helper's r0. */
#define FILL_H                                                                                  \
	"r6 = 1\nl: *(u64 *)(r10 -8) = r6\n*(u64 *)(r10 -16) = r6\nr7 = r6\nr7 *= 10\n"         \
	"*(u64 *)(r10 -24) = r7\nr1 = map[fd:1] ll\nr2 = r10\nr2 += -8\nr3 = r10\nr3 += -24\n"  \
	"r4 = 0\ncall bpf_map_update_elem\nr6 += 1\nif r6 < 4 goto l\n"
#define CTX32 "r6 = 0\n*(u64 *)(r10 -32) = r6\n"
#define RET32 "r1 = *(u64 *)(r10 -32)\nr1 *= 100\nr0 += r1\nexit\n"
static const struct {
	const char *name, *text;
	uint64_t want;
} runs[] = {
	/* keys 0..3: ctx = 1 + 2 + 3 + 4, 4 calls */
	{ "array, every index", CTX32 "r1 = map[fd:0] ll\nr2 = func cb ll\nr3 = r10\nr3 += -32\n"
	  "r4 = 0\ncall bpf_for_each_map_elem\n" RET32
	  "cb: r0 = *(u32 *)(r2 +0)\n*(u64 *)(r3 +0) = r0\nr0 += 1\nr5 = *(u64 *)(r4 +0)\n"
	  "r5 += r0\n*(u64 *)(r4 +0) = r5\n" END, 1004 },
	/* stops after key 1: ctx = 1 + 2, 2 calls */
	{ "array, stopped at key 1", CTX32 "r1 = map[fd:0] ll\nr2 = func cb ll\nr3 = r10\n"
	  "r3 += -32\nr4 = 0\ncall bpf_for_each_map_elem\n" RET32
	  "cb: r0 = *(u32 *)(r2 +0)\nr0 += 1\nr5 = *(u64 *)(r4 +0)\nr5 += r0\n"
	  "*(u64 *)(r4 +0) = r5\nr0 = 0\nif r5 < 3 goto +1\nr0 = 1\nexit\n", 302 },
	/* flags 1: -EINVAL, no call */
	{ "array, flags 1", CTX32 "r1 = map[fd:0] ll\nr2 = func cb ll\nr3 = r10\nr3 += -32\n"
	  "r4 = 1\ncall bpf_for_each_map_elem\n" RET32 "cb: " END, (uint32_t)-22 },
	/* h = {1: 10, 2: 20, 3: 30}: ctx = 11 + 22 + 33, 3 calls */
	{ "hash, three elements", FILL_H CTX32 "r1 = map[fd:1] ll\nr2 = func cb ll\nr3 = r10\n"
	  "r3 += -32\nr4 = 0\ncall bpf_for_each_map_elem\n" RET32
	  "cb: r0 = *(u64 *)(r2 +0)\nr5 = *(u64 *)(r3 +0)\nr0 += r5\nr5 = *(u64 *)(r4 +0)\n"
	  "r5 += r0\n*(u64 *)(r4 +0) = r5\n" END, 6603 },
	/* the first walk deletes every element (3 calls), the second finds none */
	{ "hash, deleted by the callback", FILL_H "r1 = map[fd:1] ll\nr2 = func cb ll\nr3 = 0\n"
	  "r4 = 0\ncall bpf_for_each_map_elem\nr6 = r0\nr6 *= 10\nr1 = map[fd:1] ll\n"
	  "r2 = func cb ll\nr3 = 0\nr4 = 0\ncall bpf_for_each_map_elem\nr0 += r6\nexit\n"
	  "cb: call bpf_map_delete_elem\n" END, 30 },
	/* an empty hash: no call */
	{ "hash, empty", "r1 = map[fd:3] ll\nr2 = func cb ll\nr3 = 0\nr4 = 0\n"
	  "call bpf_for_each_map_elem\nexit\ncb: " END, 0 },
};

/* A callback walking N arrays of N value sizes (8, 16, ...), reading its value's first 8 bytes:
 * N call contexts, each a map of its own.  Up to SCEV_CTX_MAX (4) bpfscev analyses a copy per
 * context (safe; before, "given maps of different kinds", unsupported); past it, the fifth call
 * joins the first's copy, whose analysis stays unsupported, and the reason says why (the kernel
 * accepts it: a known regression). */
#define EACH_N(n) "r1 = map[fd:" #n "] ll\nr2 = func cb ll\nr3 = 0\nr4 = 0\n"                  \
	"call bpf_for_each_map_elem\n"
#define CAP_CB "r0 = 0\nexit\ncb: r0 = *(u64 *)(r3 +0)\nr0 = 0\nexit\n"
#define CAP_MAPS "array key=4 value=8 entries=2\narray key=4 value=16 entries=2\n"            \
	"array key=4 value=24 entries=2\narray key=4 value=32 entries=2\n"

static void cap_cases(bool kernel)
{
	struct verdict_opts vo = { .sz = sizeof(vo), .prog_type = BPF_PROG_TYPE_SOCKET_FILTER,
				   .kernel = kernel };

	verdict_case_file("four maps, four contexts", "-- asm\n" EACH_N(0) EACH_N(1) EACH_N(2)
			  EACH_N(3) CAP_CB "-- maps\n" CAP_MAPS, &vo, SAFE, NULL, AGREE);
	verdict_case_file("five maps, past the cap", "-- asm\n" EACH_N(0) EACH_N(1) EACH_N(2)
			  EACH_N(3) EACH_N(4) CAP_CB "-- maps\n" CAP_MAPS
			  "array key=4 value=40 entries=2\n", &vo, UNSUPPORTED,
			  "more call contexts than are analysed apart", VC_REGRESSION);
}

static void run_cases(bool kernel)
{
	for (size_t k = 0; k < sizeof(runs) / sizeof(runs[0]); k++) {
		struct ebpf_object *obj = open_asm(runs[k].name, runs[k].text);
		struct kdiff_opts ko = { .sz = sizeof(ko), .prog_type = BPF_PROG_TYPE_SOCKET_FILTER };
		struct verdict_opts vo = { .sz = sizeof(vo), .prog_type = BPF_PROG_TYPE_SOCKET_FILTER };
		struct verdict_report r;
		struct kdiff_result res;
		struct diag d;

		if (!obj)
			continue;
		diag_clear(&d);
		/* the interpreter (through verdict_compare's runs) and our verdict */
		CHECK(verdict_compare(&r, obj, &obj->progs[0], &vo, &d) == 0, "%s: %s", runs[k].name,
		      d.msg);
		verdict_case_check_ours(runs[k].name, &r, SAFE, NULL);
		verdict_report__free(&r);
		if (kernel) {
			CHECK(kdiff_run(&res, obj, &obj->progs[0], &ko, &d) == 0, "%s: kdiff: %s",
			      runs[k].name, d.msg);
			CHECK(res.accepted && res.ran, "%s: kernel %s (%s)", runs[k].name,
			      res.accepted ? "did not run it" : "rejected it", res.message);
			CHECK(res.interp_trap == 0, "%s: the interpreter trapped (%s)", runs[k].name,
			      res.text);
			CHECK((uint32_t)res.interp_r0 == (uint32_t)runs[k].want,
			      "%s: interpreter r0 %llu, expected %llu", runs[k].name,
			      (unsigned long long)res.interp_r0, (unsigned long long)runs[k].want);
			CHECK(res.kernel_retval == (uint32_t)runs[k].want,
			      "%s: kernel r0 %u, expected %llu", runs[k].name, res.kernel_retval,
			      (unsigned long long)runs[k].want);
			kdiff_result__free(&res);
		}
		verdict_case_close(obj);
	}
}

/* The trip claims: kind for_each_map_elem, exact max_entries for the full array walk, at most
 * max_entries (8) for the hash walk, unknown when the callback may insert into the hash. */
static void trip_cases(void)
{
	static const struct {
		const char *name, *text;
		uint8_t kind;
		uint64_t max;
	} t[] = {
		{ "array walk", WALK("0", "r3 = 0\n", "0") END "cb: " END, TRIP_EXACT, 4 },
		{ "array walk, stops early", WALK("0", "r3 = 0\n", "0") END
		  "cb: r0 = *(u32 *)(r2 +0)\nw0 &= 1\nexit\n", TRIP_BOUNDED, 4 },
		{ "hash walk", WALK("1", "r3 = 0\n", "0") END "cb: " END, TRIP_BOUNDED, 8 },
		{ "hash walk that inserts", WALK("1", "r3 = 0\n", "0") END
		  "cb: r3 = r2\nr4 = 0\ncall bpf_map_update_elem\n" END, TRIP_UNKNOWN, 0 },
	};

	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		struct ebpf_object *obj = open_asm(t[k].name, t[k].text);
		struct scev_opts so = { .sz = sizeof(so), .prog_type = BPF_PROG_TYPE_SOCKET_FILTER };
		struct claim_prog cp;
		struct claim_text_buf rb;
		struct diag d;

		if (!obj)
			continue;
		diag_clear(&d);
		CHECK(scev_analyze(&cp, &obj->progs[0], obj->maps, obj->map_cnt, &so, &d) == 0,
		      "%s: %s", t[k].name, d.msg);
		CHECK(cp.nloops == 1 && cp.loops[0].kind == LOOP_FOR_EACH_MAP_ELEM,
		      "%s: %u loops, kind %s", t[k].name, cp.nloops,
		      cp.nloops ? claim_loop_kind_name(cp.loops[0].kind) : "-");
		if (cp.nloops == 1) {
			CHECK(cp.loops[0].trip.kind == t[k].kind &&
			      (t[k].kind == TRIP_UNKNOWN || cp.loops[0].trip.max == t[k].max),
			      "%s: trip kind %d max %llu (%s)", t[k].name, cp.loops[0].trip.kind,
			      (unsigned long long)cp.loops[0].trip.max,
			      claim_trip_reason(&cp.loops[0].trip, &rb));
		}
		claim_prog__free(&cp);
		verdict_case_close(obj);
	}
}

/* The programs of the clang-built object: what bpfscev must say, and the kernel's verdict. */
static void object(const char *path, bool kernel)
{
	static const char *const progs[] = { "walk_safe", "past_value_unsafe", "key_write_unsafe",
					     "ret2_unsafe" };
	static const enum scev_verdict_kind want[] = { SAFE, UNSAFE, UNSAFE, UNSAFE };

	verdict_case_object(path, progs, want, sizeof(progs) / sizeof(progs[0]), kernel);
}

int main(void)
{
	bool kernel = verdict_case_kernel("the kernel's verdicts and runs");

	verdict_cases(kernel);
	cap_cases(kernel);
	run_cases(kernel);
	trip_cases();
	{
		char path[1024];

		if (verdict_case_bpf_part("for_each_verify.o", path, sizeof(path)))
			object(path, kernel);
	}
	return check_done("test_for_each");
}
