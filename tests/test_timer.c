/* Timers in the analyzer (scev/absint_timer.c): bpf_timer_init/set_callback/start/cancel on the
 * struct bpf_timer of a map value, and the callback verified once as an async entry.
 *  - assembly cases (a case file's "timer=OFF" map): bpfscev's verdict and the words of its
 *    reason, and the kernel's agreement: the kernel's own cases of tests/test_kernel.c and the
 *    rules around them (a NULL or variable-offset timer, a stack pointer, the timer's bytes
 *    given to a helper, the callback's registers and result, a tracing program naming a timer
 *    map, a callback given the timers of two maps);
 *  - the clang-built tests/bpf/timers.c, each program's verdict and reason, against the kernel;
 *  - the callback gets no loop claim; a loop inside it does, as in any function.
 * Without bpf() the kernel's verdicts are skipped (one line); without clang, the object.
 */
#include "casefile/casefile.h"
#include "scev/scev.h"
#include "tests/check.h"
#include "tests/verdict_case.h"

/* main: r6 the value of key 0 of map 0 (an array: never NULL), then PRE, then the three
 * helpers on r6 + 8 with map 0; cb: CB.  MAPS the "-- maps" lines. */
#define LOOKUP "r1 = map[fd:0] ll\n*(u32 *)(r10 -4) = 0\nr2 = r10\nr2 += -4\n"             \
	"call bpf_map_lookup_elem\nif r0 == 0 goto out\nr6 = r0\n"
#define ARM "r1 = r6\nr1 += 8\nr2 = map[fd:0] ll\nr3 = 1\ncall bpf_timer_init\n"           \
	"r1 = r6\nr1 += 8\nr2 = func cb ll\ncall bpf_timer_set_callback\n"                 \
	"r1 = r6\nr1 += 8\nr2 = 1000000\nr3 = 0\ncall bpf_timer_start\n"
#define OUT "out: r0 = 0\nexit\n"
#define ARRAY_T8 "-- maps\narray key=4 value=32 entries=1 timer=8\n"
#define CASE(pre, cb, type, maps) "-- asm\n" LOOKUP pre ARM OUT "cb: " cb "-- type\n" type "\n" maps

static void cases(bool kernel)
{
	static const struct {
		const char *name, *text;
		uint32_t type;	/* verdict_opts.prog_type; 0: the case's */
		uint8_t want;
		const char *reason;
	} t[] = {
		{ "armed", CASE("", "r0 = 0\nexit\n", "xdp", ARRAY_T8), 0, SAFE, NULL },
		/* the callback reads its key and value, writes the value beside the timer and
		 * starts the timer again */
		{ "cb_rearms", CASE("", "r6 = r3\nr0 = *(u32 *)(r2 +0)\n*(u64 *)(r3 +0) = r0\n"
				    "r0 = *(u64 *)(r3 +24)\nr1 = r6\nr1 += 8\nr2 = 1000\nr3 = 0\n"
				    "call bpf_timer_start\nr0 = 0\nexit\n", "socket", ARRAY_T8),
		  0, SAFE, NULL },
		/* the callback sets itself as its timer's callback again: no recursion (the kernel
		 * walks an async callback as a root of its own, not a frame above its caller) */
		{ "cb_sets_itself", CASE("", "r1 = r3\nr1 += 8\nr2 = func cb ll\n"
					 "call bpf_timer_set_callback\nr0 = 0\nexit\n", "xdp",
					 ARRAY_T8), 0, SAFE, NULL },
		{ "hash", CASE("", "r0 = 0\nexit\n", "tc",
			       "-- maps\nhash key=4 value=32 entries=4 timer=8\n"), 0, SAFE, NULL },
		/* test_kernel's cases */
		{ "no_btf", CASE("", "r0 = 0\nexit\n", "xdp",
				 "-- maps\narray key=4 value=32 entries=1\n"), 0, UNSAFE,
		  "has no struct bpf_timer" },
		{ "cb_ret1", CASE("", "r0 = 1\nexit\n", "xdp", ARRAY_T8), 0, UNSAFE,
		  "should have been in [0, 0]" },
		{ "cb_ret_bit", CASE("", "r0 = *(u8 *)(r3 +0)\nr0 &= 1\nexit\n", "xdp", ARRAY_T8), 0,
		  UNSAFE, "smin=0 smax=1 should have been in [0, 0]" },
		{ "cb_r4", CASE("", "r0 = r4\nr0 = 0\nexit\n", "xdp", ARRAY_T8), 0, UNSAFE,
		  "R4 may be read before" },
		{ "cb_past_value", CASE("", "*(u64 *)(r3 +32) = r1\nr0 = 0\nexit\n", "xdp", ARRAY_T8),
		  0, UNSAFE, "map value access [32, 40) outside [0, 32)" },
		{ "cb_key_write", CASE("", "*(u32 *)(r2 +0) = r1\nr0 = 0\nexit\n", "xdp", ARRAY_T8),
		  0, UNSAFE, "write to change key" },
		{ "store", CASE("*(u64 *)(r0 +16) = 0\n", "r0 = 0\nexit\n", "xdp", ARRAY_T8), 0,
		  UNSAFE, "bpf_timer cannot be accessed directly by load/store" },
		{ "load", CASE("r1 = *(u8 *)(r6 +23)\n", "r0 = 0\nexit\n", "xdp", ARRAY_T8), 0,
		  UNSAFE, "bpf_timer cannot be accessed directly by load/store" },
		/* the whole value as a helper's memory */
		{ "update_value", CASE("r1 = map[fd:0] ll\nr2 = r10\nr2 += -4\nr3 = r6\nr4 = 0\n"
				       "call bpf_map_update_elem\n", "r0 = 0\nexit\n", "xdp",
				       ARRAY_T8), 0, UNSAFE,
		  "bpf_timer cannot be accessed directly by load/store ([0, 32)" },
		{ "off", "-- asm\n" LOOKUP "r1 = r6\nr2 = map[fd:0] ll\nr3 = 1\n"
			 "call bpf_timer_init\n" OUT "-- type\nxdp\n" ARRAY_T8, 0, UNSAFE,
		  "off 0 doesn't point to 'struct bpf_timer' that is at 8" },
		{ "var_off", "-- asm\n" LOOKUP "r7 = *(u8 *)(r6 +0)\nr7 &= 8\nr1 = r6\nr1 += r7\n"
			     "r2 = map[fd:0] ll\nr3 = 1\ncall bpf_timer_init\n" OUT "-- type\nxdp\n"
			     ARRAY_T8, 0, UNSAFE, "R1 doesn't have constant offset" },
		{ "stack", "-- asm\nr1 = r10\nr1 += -16\nr2 = func cb ll\n"
			   "call bpf_timer_set_callback\nr0 = 0\nexit\ncb: r0 = 0\nexit\n"
			   "-- type\nxdp\n" ARRAY_T8, 0, UNSAFE, "expected=map_value" },
		{ "null", "-- asm\nr1 = map[fd:0] ll\n*(u32 *)(r10 -4) = 0\nr2 = r10\nr2 += -4\n"
			  "call bpf_map_lookup_elem\nr1 = r0\nr2 = map[fd:0] ll\nr3 = 1\n"
			  "call bpf_timer_init\nr0 = 0\nexit\n-- type\nxdp\n"
			  "-- maps\nhash key=4 value=32 entries=4 timer=0\n", 0, UNSAFE,
		  "map_value_or_null" },
		{ "other_map", "-- asm\n" LOOKUP "r1 = r6\nr1 += 8\nr2 = map[fd:1] ll\nr3 = 1\n"
			       "call bpf_timer_init\n" OUT "-- type\nxdp\n" ARRAY_T8
			       "array key=4 value=32 entries=1 timer=8\n", 0, UNSAFE,
		  "doesn't match map pointer in R2" },
		/* one callback, the timers of two maps: analyzed once, for one */
		{ "two_maps", "-- asm\n" LOOKUP ARM "r1 = map[fd:1] ll\nr2 = r10\nr2 += -4\n"
			      "call bpf_map_lookup_elem\nif r0 == 0 goto out\nr1 = r0\nr1 += 8\n"
			      "r2 = func cb ll\ncall bpf_timer_set_callback\n" OUT
			      "cb: r0 = 0\nexit\n-- type\nxdp\n" ARRAY_T8
			      "hash key=4 value=32 entries=1 timer=8\n", 0, UNSUPPORTED,
		  "the timers of different maps" },
		/* tracing programs may not name a timer map at all */
		{ "kprobe_lookup", "-- asm\n" LOOKUP OUT "-- type\nxdp\n" ARRAY_T8,
		  BPF_PROG_TYPE_KPROBE, UNSAFE, "tracing progs cannot use bpf_timer yet" },
		{ "tracepoint_arm", CASE("", "r0 = 0\nexit\n", "xdp", ARRAY_T8),
		  BPF_PROG_TYPE_TRACEPOINT, UNSAFE, "tracing progs cannot use bpf_timer yet" },
		{ "kprobe_plain_map", "-- asm\n" LOOKUP OUT "-- type\nxdp\n"
				      "-- maps\narray key=4 value=32 entries=1\n",
		  BPF_PROG_TYPE_KPROBE, SAFE, NULL },
	};

	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		struct verdict_opts vo = { .sz = sizeof(vo), .kernel = kernel,
					   .prog_type = t[k].type };
		struct ebpf_object *o = NULL;
		struct diag d;

		diag_clear(&d);
		if (casefile__open_object_mem(&o, t[k].text, strlen(t[k].text), t[k].name, &d)) {
			CHECK(0, "%s: %s (line %d)", t[k].name, d.msg, d.line);
			continue;
		}
		/* (what is unsupported the kernel accepts) */
		verdict_case_judge(t[k].name, o, &vo, t[k].want, t[k].reason,
				   t[k].want == UNSUPPORTED ? VC_REGRESSION : AGREE);
		ebpf_object__free(o);
	}
}

/* The callback is no loop; a loop in it is one, with its trip. */
static void claims(void)
{
	static const char text[] = "-- asm\n" LOOKUP ARM OUT
		"cb: r1 = 0\nloop: r1 += 1\nif r1 < 7 goto loop\nr0 = 0\nexit\n"
		"-- type\nxdp\n" ARRAY_T8;
	struct scev_opts so = { .sz = sizeof(so) };
	struct ebpf_object *o = NULL;
	struct claim_prog cp;
	struct diag d;

	diag_clear(&d);
	if (casefile__open_object_mem(&o, text, strlen(text), "claims", &d)) {
		CHECK(0, "claims: %s", d.msg);
		return;
	}
	if (scev_analyze(&cp, &o->progs[0], o->maps, o->map_cnt, &so, &d) == 0) {
		CHECK(cp.nloops == 1 && cp.loops[0].kind == LOOP_PLAIN &&
		      cp.loops[0].trip.kind == TRIP_EXACT && cp.loops[0].trip.max == 7,
		      "claims: %u loops, the first of kind %s, trip kind %d max %llu", cp.nloops,
		      cp.nloops ? claim_loop_kind_name(cp.loops[0].kind) : "-",
		      cp.nloops ? (int)cp.loops[0].trip.kind : -1,
		      cp.nloops ? (unsigned long long)cp.loops[0].trip.max : 0ull);
		claim_prog__free(&cp);
	} else {
		CHECK(0, "claims: %s", d.msg);
	}
	ebpf_object__free(o);
}

int main(void)
{
	static const char *const progs[] = {
		"timer_safe", "timer_hash_safe", "timer_cb_ret1_unsafe", "timer_off_unsafe",
		"timer_other_map_unsafe", "timer_store_unsafe", "timer_cb_past_unsafe",
		"timer_kprobe_unsafe",
	};
	static const enum scev_verdict_kind want[] = {
		SAFE, SAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE,
	};
	static const char *const reasons[] = {
		NULL, NULL, "should have been in [0, 0]", "doesn't point to 'struct bpf_timer'",
		"doesn't match map pointer in R2", "bpf_timer cannot be accessed directly",
		"map value access [24, 56) outside [0, 40)", "tracing progs cannot use bpf_timer",
	};
	bool kernel = verdict_case_kernel("the kernel's verdicts");
	char path[1024];
	const char *dir = getenv("BPFSCEV_TEST_BPF_DIR");
	struct stat st;

	cases(kernel);
	claims();
	snprintf(path, sizeof(path), "%s/timers.o", dir ? dir : "");
	if (dir && !stat(path, &st))
		verdict_case_object_why(path, progs, want, reasons,
					sizeof(progs) / sizeof(progs[0]), kernel);
	else
		check_skip_part("the clang-built tests/bpf/timers.o: none (no clang at configure "
				"time)");
	return check_done("test_timer");
}
