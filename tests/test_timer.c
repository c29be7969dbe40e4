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
#include "oracle/exec/check.h"
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
/* main arms map 0's timer (ARM) and sets cb as the callback of map 1's (MAP1, its "-- maps"
 * line; its timer at OFF) too */
#define TWO_AT(cb, map1, off) "-- asm\n" LOOKUP ARM "r1 = map[fd:1] ll\n"                     \
	"*(u64 *)(r10 -8) = 0\nr2 = r10\nr2 += -8\ncall bpf_map_lookup_elem\n"                  \
	"if r0 == 0 goto out\nr1 = r0\nr1 += " off "\nr2 = func cb ll\n"                        \
	"call bpf_timer_set_callback\n" OUT "cb: " cb "-- type\nxdp\n" ARRAY_T8 map1
#define TWO(cb, map1) TWO_AT(cb, map1, "8")
/* main arms map 0's timer with cb (ARM); cb does READ, then sets itself as the callback of map
 * 1's timer (a hash of 48-byte values, its timer at 8) */
#define SELF_OTHER(read) "-- asm\n" LOOKUP ARM OUT "cb: " read "r1 = map[fd:1] ll\n"         \
	"*(u32 *)(r10 -4) = 0\nr2 = r10\nr2 += -4\ncall bpf_map_lookup_elem\n"                  \
	"if r0 == 0 goto cbout\nr1 = r0\nr1 += 8\nr2 = func cb ll\n"                             \
	"call bpf_timer_set_callback\ncbout: r0 = 0\nexit\n-- type\nxdp\n" ARRAY_T8            \
	"hash key=4 value=48 entries=4 timer=8\n"
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
		/* one callback, the timers of two maps of different definitions: the kernel
		 * verifies it once per map, bpfscev analyses a copy of it per map */
		{ "two_maps", TWO("r0 = 0\nexit\n", "hash key=4 value=32 entries=1 timer=8\n"), 0,
		  SAFE, NULL },
		{ "two_defs", TWO("r0 = *(u64 *)(r3 +0)\nr0 = *(u64 *)(r3 +24)\n"
				  "r0 = *(u32 *)(r2 +0)\nr0 = 0\nexit\n",
				  "hash key=8 value=48 entries=4 timer=8\n"), 0, SAFE, NULL },
		/* each copy arms its own timer again, the value's */
		{ "two_defs_rearm", TWO("r6 = r3\nr1 = r3\nr1 += 8\nr2 = func cb ll\n"
					"call bpf_timer_set_callback\nr1 = r6\nr1 += 8\n"
					"r2 = 1000\nr3 = 0\ncall bpf_timer_start\nr0 = 0\nexit\n",
					"hash key=4 value=48 entries=4 timer=8\n"), 0, SAFE, NULL },
		/* the larger value's bytes: map 0's are 32 */
		{ "two_defs_past", TWO("r1 = 0\n*(u64 *)(r3 +40) = r1\nr0 = 0\nexit\n",
				       "hash key=4 value=48 entries=4 timer=8\n"), 0, UNSAFE,
		  "map value access [40, 48) outside [0, 32)" },
		/* the larger key's bytes: map 0's key is 4 */
		{ "two_defs_key", TWO("r0 = *(u64 *)(r2 +0)\nr0 = 0\nexit\n",
				      "hash key=8 value=32 entries=4 timer=8\n"), 0, UNSAFE,
		  "map key access [0, 8) outside [0, 4)" },
		/* map 1's timer is at 16: the callback's start on r3 + 8 fits map 0 only */
		{ "two_defs_timer_off", TWO_AT("r1 = r3\nr1 += 8\nr2 = 1000\nr3 = 0\n"
					       "call bpf_timer_start\nr0 = 0\nexit\n",
					       "hash key=4 value=48 entries=4 timer=16\n", "16"), 0,
		  UNSAFE, "doesn't point to 'struct bpf_timer' that is at 16" },
		/* main's own fault past a shared callback (map 1's timer is at 16, not 8): the
		 * kernel's first word is main's; bpfscev's first analysis stops at the callback
		 * (unsupported), and an unsafe verdict of the copies outside the callback is not
		 * taken over it (a class no worse than before the copies) */
		{ "two_defs_main_off", TWO("r0 = 0\nexit\n",
					   "hash key=4 value=48 entries=4 timer=16\n"), 0,
		  UNSUPPORTED, "given the timers of different maps" },
		/* the callback arms map 1's timer with itself while it fires for map 0's (the
		 * kernel selftests' timer.c timer_cb1): the kernel verifies it for map 0 (main's
		 * call) and for map 1 (its own); bpfscev's copy for map 1 takes the callback's own
		 * call (absint_timer_plan), unsupported before ("given the timers of different
		 * maps") */
		{ "self_other_map", SELF_OTHER("r0 = *(u64 *)(r3 +0)\n"), 0, SAFE, NULL },
		/* its twin reads map 1's value bytes [40, 48): past map 0's 32 */
		{ "self_other_map_past", SELF_OTHER("r0 = *(u64 *)(r3 +40)\n"), 0, UNSAFE,
		  "map value access [40, 48) outside [0, 32)" },
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

		/* (the one unsupported case the kernel rejects: both-reject) */
		verdict_case_file(t[k].name, t[k].text, &vo, t[k].want, t[k].reason, AGREE);
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

/* The interpreter runs the callbacks of the timers a run left armed, after the program
 * (oracle/exec/interp.c, run_timers), so `check` judges the claims inside them: a claim planted
 * false there is refuted (it fails when the callbacks are not run), a callback that starts its
 * own timer again sees what its earlier run wrote to the value, and a timer the program cancels
 * never fires.  PRE: main's statements after bpf_timer_start; cb: the callback; pc, loc: where
 * the claim is made false (value lo..hi); want: whether check refutes it. */
/* bpf_timer_start(1 us ahead), then bpf_timer_set_callback(cb2) on main's timer */
#define REPLACE_AT(ns) "r1 = r6\nr1 += 8\nr2 = " ns "\nr3 = 0\ncall bpf_timer_start\n"          \
	"r1 = r6\nr1 += 8\nr2 = func cb2 ll\ncall bpf_timer_set_callback\n"
#define REPLACE REPLACE_AT("1000")
#define REPLACE_LATE REPLACE_AT("1000000")
#define CB2 "cb2: r0 = 0\nexit\n"
/* a loop of 10^6 (past the 20,000-step budgets below) */
#define SPIN "r7 = 0\nspin: r7 += 1\nif r7 < 1000000 goto spin\n"
/* an open-coded iterator left live over the spin (main destroys it after) */
#define ITER "r1 = r10\nr1 += -16\nr2 = 0\nr3 = 5\ncall bpf_iter_num_new\n"
#define DESTROY "r1 = r10\nr1 += -16\ncall bpf_iter_num_destroy\n"

static void judged_budget(const char *name, const char *pre, const char *cb, uint32_t pc,
			  loc_t loc, uint64_t lo, uint64_t hi, bool want, uint32_t want_fires,
			  uint64_t budget)
{
	char text[2048];
	struct scev_opts so = { .sz = sizeof(so) };
	struct check_opts co = { .sz = sizeof(co), .runs = 8, .step_budget = budget };
	struct ebpf_object *o = NULL;
	struct check_result res;
	struct interp_code *code = NULL;
	struct interp_map maps[1];
	struct interp_env env = { 0 };
	struct interp_result ir;
	struct claim_prog cp;
	struct diag d;
	bool planted = false;

	snprintf(text, sizeof(text), "-- asm\n" LOOKUP ARM "%s" OUT "cb: %s-- type\nxdp\n" ARRAY_T8,
		 pre, cb);
	diag_clear(&d);
	if (casefile__open_object_mem(&o, text, strlen(text), name, &d)) {
		CHECK(0, "%s: %s (line %d)", name, d.msg, d.line);
		return;
	}
	if (scev_analyze(&cp, &o->progs[0], o->maps, o->map_cnt, &so, &d)) {
		CHECK(0, "%s: %s", name, d.msg);
		ebpf_object__free(o);
		return;
	}
	for (uint32_t k = 0; k < cp.nranges; k++)
		if (cp.ranges[k].pc == pc && cp.ranges[k].loc == loc && !cp.ranges[k].is_ptr) {
			cp.ranges[k].r = range_const(lo);
			cp.ranges[k].r.umax = hi;
			cp.ranges[k].r.smax = (int64_t)hi;
			cp.ranges[k].r.u32_max = cp.ranges[k].r.s32_max = (uint32_t)hi;
			cp.ranges[k].r.var_off.mask = hi > lo ? UINT64_MAX >> __builtin_clzll(hi) : 0;
			cp.ranges[k].r.var_off.value &= ~cp.ranges[k].r.var_off.mask;
			planted = true;
		}
	if (!planted) {		/* (none made: one added) */
		struct claim_range *nr = realloc(cp.ranges, (cp.nranges + 1) * sizeof(*nr));

		CHECK(nr, "out of memory");
		if (!nr)
			return;
		cp.ranges = nr;
		memset(&nr[cp.nranges], 0, sizeof(*nr));
		nr[cp.nranges].pc = pc;
		nr[cp.nranges].loc = loc;
		nr[cp.nranges].r = range_const(lo);
		nr[cp.nranges].r.umax = hi;
		nr[cp.nranges].r.smax = (int64_t)hi;
		nr[cp.nranges].r.u32_max = nr[cp.nranges].r.s32_max = (uint32_t)hi;
		nr[cp.nranges].r.var_off.mask = hi > lo ? UINT64_MAX >> __builtin_clzll(hi) : 0;
		nr[cp.nranges].r.var_off.value &= ~nr[cp.nranges].r.var_off.mask;
		cp.nranges++;
	}
	if (oracle_check(&res, o, &o->progs[0], &cp, &co) == 0) {
		uint32_t refuted = 0;

		for (uint32_t k = 0; k < res.nfindings; k++)
			refuted += res.findings[k].pc == pc && res.findings[k].loc == loc;
		CHECK(!!refuted == want, "%s: the false claim at pc %u %s (%u findings, %llu "
		      "checks)", name, pc, refuted ? "refuted" : "not refuted", res.nfindings,
		      (unsigned long long)res.checks);
		CHECK(res.nfindings == refuted, "%s: %u other findings (first: %s)", name,
		      res.nfindings - refuted, res.nfindings ? res.findings[0].text : "");
		check_result__free(&res);
	} else {
		CHECK(0, "%s: oracle_check failed", name);
	}
	/* the firings of one run */
	memset(maps, 0, sizeof(maps));
	maps[0].def = o->maps[0];
	env.ctx_kind = INTERP_CTX_XDP;
	env.maps = maps;
	env.map_cnt = 1;
	env.step_budget = budget;
	if (interp_prepare(&code, &o->progs[0], &d) == 0 && interp_run(code, &env, &ir) == 0)
		/* (cut by the budget: the run stays the program's cut, its timers fired) */
		CHECK((budget ? ir.trap == INTERP_TRAP_STEPS && ir.steps_cut && !ir.timer_trap
			      : ir.trap == INTERP_OK && ir.r0 == 0 && !ir.steps_cut) &&
		      ir.timer_fires == want_fires,
		      "%s: trap %d (%s), %u firings (want %u), r0 %llu", name, ir.trap, ir.reason,
		      ir.timer_fires, want_fires, (unsigned long long)ir.r0);
	else
		CHECK(0, "%s: interp: %s", name, d.msg);
	interp_code__free(code);
	claim_prog__free(&cp);
	ebpf_object__free(o);
}

static void judged(const char *name, const char *pre, const char *cb, uint32_t pc, loc_t loc,
		   uint64_t lo, uint64_t hi, bool want, uint32_t want_fires)
{
	judged_budget(name, pre, cb, pc, loc, lo, hi, want, want_fires, 0);
}

static void callbacks_run(void)
{
	/* cb: a loop of 7 iterations, r1 = 7 after it (pc 27 = cb's first instruction) */
#define LOOP "r1 = 0\nloop: r1 += 1\nif r1 < 7 goto loop\nr0 = *(u64 *)(r3 +0)\nr0 += r1\n"   \
	"*(u64 *)(r3 +0) = r0\nr0 = 0\nexit\n"
	static const char loop[] = LOOP, loop_cb2[] = LOOP CB2;
	/* cb: count its runs in the value's first 8 bytes, start the timer again */
	static const char rearm[] = "r6 = r3\nr0 = *(u64 *)(r6 +0)\nr0 += 1\n"
				    "*(u64 *)(r6 +0) = r0\nr1 = r6\nr1 += 8\nr2 = 1000\n"
				    "r3 = 0\ncall bpf_timer_start\nr0 = 0\nexit\n";

	/* r1 after the loop (pc 29): 7, claimed 0..5 */
	judged("cb_loop_exit", "", loop, 29, (loc_t)1, 0, 5, true, 1);
	/* the same true: not refuted */
	judged("cb_loop_exit_true", "", loop, 29, (loc_t)1, 7, 7, false, 1);
	/* cancelled (1 s ahead: still pending, so disarmed): the callback never runs */
	judged("cb_cancelled", "r1 = r6\nr1 += 8\ncall bpf_timer_cancel\n", loop, 33, (loc_t)1,
	       0, 5, false, 0);
	/* re-armed: r0 at pc 28 (after the load) is the count of earlier runs, 0 .. 7 in 8
	 * firings; claimed 0 (the first run only) */
	judged("cb_rearm_sees_value", "", rearm, 28, (loc_t)0, 0, 0, true, INTERP_TIMER_FIRES);
	judged("cb_rearm_bounded", "", rearm, 28, (loc_t)0, 0, INTERP_TIMER_FIRES - 1, false,
	       INTERP_TIMER_FIRES);
	/* main starts its timer again 1 us ahead, then gives it cb2: the timer may have fired
	 * before, with cb (on another CPU), so cb runs too, then cb2 (it fails when the replaced
	 * callback is not run) */
	judged("cb_replaced_fires", REPLACE, loop_cb2, 39, (loc_t)1, 0, 5, true, 2);
	/* 1 ms ahead: it had not fired, only cb2 runs */
	judged("cb_replaced_late", REPLACE_LATE, loop_cb2, 39, (loc_t)1, 0, 5, false, 1);
	/* main spins past the step budget after arming its timer: the timer fires at the cut
	 * (the kernel runs main to its end, then fires it), so the false claim is refuted; the
	 * run stays main's cut (it fails when the timers of a cut run are not fired) */
	judged_budget("cb_after_cut", SPIN, loop, 32, (loc_t)1, 0, 5, true, 1, 20000);
	judged_budget("cb_after_cut_true", SPIN, loop, 32, (loc_t)1, 7, 7, false, 1, 20000);
	/* a live iterator and a ringbuf record of main at the cut are not the callback's: its
	 * exit is no leak (it fails when the cut's state is not dropped) */
	judged_budget("cb_after_cut_iter", ITER SPIN DESTROY, loop, 40, (loc_t)1, 0, 5, true, 1,
		      20000);
}

int main(void)
{
	static const char *const progs[] = {
		"timer_safe", "timer_hash_safe", "timer_cb_ret1_unsafe", "timer_off_unsafe",
		"timer_other_map_unsafe", "timer_store_unsafe", "timer_cb_past_unsafe",
		"timer_kprobe_unsafe", "timer_two_defs_safe", "timer_two_defs_past_unsafe",
	};
	static const enum scev_verdict_kind want[] = {
		SAFE, SAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE, SAFE, UNSAFE,
	};
	static const char *const reasons[] = {
		NULL, NULL, "should have been in [0, 0]", "doesn't point to 'struct bpf_timer'",
		"doesn't match map pointer in R2", "bpf_timer cannot be accessed directly",
		"map value access [24, 56) outside [0, 40)", "tracing progs cannot use bpf_timer",
		NULL, "outside [0, 40)",
	};
	bool kernel = verdict_case_kernel("the kernel's verdicts");
	char path[1024];

	cases(kernel);
	claims();
	callbacks_run();
	if (verdict_case_bpf_part("timers.o", path, sizeof(path)))
		verdict_case_object_why(path, progs, want, reasons,
					sizeof(progs) / sizeof(progs[0]), kernel);
	return check_done("test_timer");
}
