/* The pipeline (fuzz/pipeline.h) and its oracle registry:
 *  1. the registry: the execution oracle first (the campaign's check time is its time), names
 *     and counter keys unique, keys found by name, and exactly the keys, in the order, that
 *     campaign state files written before the registry carry — so they still resume;
 *  2. pipeline_run on a given program: the analyzer's claims judged on the drawn inputs and on
 *     a given one, runs as asked; claims the caller brings are judged instead, and a wrong one
 *     is refuted; no_drawn runs the given input alone; a judge hook can skip an oracle;
 *  3. the per-claim verdicts every oracle answers in (claims/claim_verdict.h): one entry per
 *     claim in the fixed order; execution: the refuted claim with its input, the rest unknown;
 *     Z3: proved, refuted and unknown agreeing with its own counts; an oracle that did not run
 *     answers nothing.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fuzz/pipeline.h"
#include "tests/check.h"

/* The counter keys of campaign.state before the registry (fuzz/oracles.c's table), and the
 * execution oracle's added since (fuzz/oracle_exec.c: timer callbacks, programs called safe),
 * Z3's unknown claims by why and the kernel's runs not compared (session 26), by why (session
 * 27). */
static const char *const state_keys[] = {
	"exec_timer_claims", "exec_timer_judged", "exec_timer_fires",
	"exec_safe", "exec_safe_bounded", "exec_safe_long", "exec_safe_calls", "exec_safe_may_goto",
	"exec_safe_none", "exec_safe_faulted", "exec_safe_per_call", "exec_safe_mg0", "exec_safe_mg1",
	"exec_safe_mg8", "exec_safe_mg64", "exec_safe_mgk", "exec_safe_main_own",
	"exec_safe_held_long",
	"z3_programs", "z3_claims", "z3_proved", "z3_refuted", "z3_unknown", "z3_encoding",
	"z3_unknown_socket", "z3_unknown_iterator", "z3_unknown_kfunc", "z3_unknown_helper",
	"z3_unknown_instruction", "z3_unknown_open", "z3_no_encoding",
	"kernel_programs", "kernel_both_accept", "kernel_both_reject", "kernel_improvement",
	"kernel_regression", "kernel_verdict_faults", "kernel_claim_programs", "kernel_claims",
	"kernel_claim_checks", "kernel_claims_refuted", "kernel_test_runs", "kernel_result_diff",
	"kernel_invariant", "kernel_errors", "kernel_exit_judged", "kernel_exit_refuted",
	"kernel_map_runs", "kernel_unpriv_rule", "kernel_unpriv_skip", "kernel_map_hash_runs",
	"kernel_map_percpu_runs", "kernel_map_left_runs", "kernel_map_timer_runs",
	"kernel_may_goto_free", "kernel_may_goto_dep", "kernel_rule_gap",
	"kernel_may_goto_drawn", "kernel_timer_nomem", "kernel_not_compared",
	/* (session 27: runs compared by record and replay, the runs not compared by reason) */
	"kernel_replayed", "kernel_nc_helper", "kernel_nc_kfunc", "kernel_nc_callx",
	"kernel_nc_sockmap", "kernel_nc_unpinned", "kernel_nc_trap", "kernel_nc_steps",
	"kernel_nc_may_goto", "kernel_nc_nr64", "kernel_nc_kernel_read", "kernel_nc_sock",
	"kernel_nc_unwritten", "kernel_nc_replay_short", "kernel_nc_replay_other",
	"kernel_nc_record_refused", "kernel_nc_record_failed",
};

static void test_registry(void)
{
	unsigned n = pipeline_stat_count(), no = pipeline_oracle_count();

	CHECK(no >= 1 && !strcmp(pipeline_oracle(0)->name, "exec"), "oracle 0 is %s",
	      no ? pipeline_oracle(0)->name : "none");
	CHECK(no <= PIPELINE_MAX_ORACLES && n <= PIPELINE_MAX_STATS, "%u oracles, %u counters",
	      no, n);
	CHECK(pipeline_oracle(no) == NULL, "past the registry");
	for (unsigned i = 0; i < no; i++) {
		const struct oracle_ops *op = pipeline_oracle(i);

		CHECK(op->name && op->name[0] && op->wanted && op->run, "oracle %u incomplete", i);
		for (unsigned j = 0; j < i; j++)
			CHECK(strcmp(op->name, pipeline_oracle(j)->name), "two oracles called %s",
			      op->name);
		CHECK_EQ_U64(pipeline_stat_offset(i + 1) - pipeline_stat_offset(i), op->nstats,
			     op->name);
	}
	for (unsigned i = 0; i < n; i++) {
		const char *k = pipeline_stat_name(i);

		CHECK(k && k[0], "counter %u has no key", i);
		if (k)
			CHECK(pipeline_stat_index(k) == (int)i, "%s found at %d, is %u", k,
			      pipeline_stat_index(k), i);
	}
	CHECK(pipeline_stat_name(n) == NULL, "a key past the counters");
	CHECK(pipeline_stat_index("no_such_counter") == -1, "an unknown key found");
	CHECK_EQ_U64(n, sizeof(state_keys) / sizeof(state_keys[0]), "counters");
	for (unsigned i = 0; i < n && i < sizeof(state_keys) / sizeof(state_keys[0]); i++)
		CHECK(pipeline_stat_name(i) && !strcmp(pipeline_stat_name(i), state_keys[i]),
		      "counter %u is %s, state files say %s", i, pipeline_stat_name(i),
		      state_keys[i]);
}

/* Every entry of vs is where claim_verdicts__at finds its claim, in the documented order. */
static void check_order(struct claim_verdicts *vs, const struct claim_prog *cp, const char *who)
{
	uint32_t n = cp->nranges;

	for (uint32_t l = 0; l < cp->nloops; l++)
		n += 1 + cp->loops[l].nivs;
	CHECK_EQ_U64(vs->n, n, who);
	for (uint32_t k = 0; k < vs->n; k++) {
		struct claim_verdict *e = &vs->v[k];

		CHECK(claim_verdicts__at(vs, cp, e->what, e->index, e->iv) == e,
		      "%s: entry %u not found again", who, k);
		CHECK(k >= cp->nranges || (e->what == CLAIM_RANGE && e->index == k),
		      "%s: entry %u is not range %u", who, k, k);
	}
	CHECK(!claim_verdicts__at(vs, cp, CLAIM_RANGE, cp->nranges, 0) &&
	      !claim_verdicts__at(vs, cp, CLAIM_TRIP, cp->nloops, 0), "%s: past the claims", who);
}

static bool skip_z3(void *arg, const struct oracle_ops *op, const struct claim_prog *cp)
{
	(*(unsigned *)arg)++;
	return strcmp(op->name, "z3") != 0;
}

static void test_run(void)
{
	/* r1 counts 0..9: the header runs 10 times per entry */
	static const char text[] = "r1 = 0\nl: r1 += 1\nif r1 < 10 goto l\nr0 = 0\nexit\n";
	static const uint8_t input[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct ebpf_object *obj = NULL;
	struct pipeline_result r = { 0 };
	struct pipeline_subject s = { 0 };
	struct pipeline_opts o = { .sz = sizeof(o), .runs = 3, .step_budget = 1000,
				   .input = input, .fixed_len = sizeof(input) };
	struct claim_prog wrong;
	unsigned asked = 0;
	int ix = pipeline_oracle_index("exec"), iz = pipeline_oracle_index("z3");
	struct diag d;
	int err;

	diag_clear(&d);
	err = ebpf_object__open_mem(&obj, text, sizeof(text) - 1, "count", &d);
	CHECK(!err, "assemble: %s", d.msg);
	if (err)
		return;
	s.obj = obj;
	s.prog = &obj->progs[0];

	err = pipeline_run(&r, &s, &o, &d);
	CHECK(!err, "pipeline_run: %d %s", err, d.msg);
	CHECK(r.cp == &r.claims && r.claims.nloops == 1, "%u loops claimed", r.claims.nloops);
	CHECK(r.has_exec && r.has_exec_fixed && !r.has_z3, "oracles run: %d %d %d", r.has_exec,
	      r.has_exec_fixed, r.has_z3);
	CHECK_EQ_U64(r.exec.runs, 3, "drawn runs");
	CHECK_EQ_U64(r.exec_fixed.runs, 1, "runs on the given input");
	CHECK(r.exec.checks > 0 && r.exec.nfindings == 0 && r.exec_fixed.nfindings == 0,
	      "%" PRIu64 " checks, %u + %u findings", r.exec.checks, r.exec.nfindings,
	      r.exec_fixed.nfindings);
	CHECK(r.claims.nloops == 1 && r.claims.loops[0].trip.max == 10, "trip claimed %" PRIu64,
	      r.claims.nloops ? r.claims.loops[0].trip.max : 0);
	/* the verdicts: execution judged every claim (unknown: runs prove nothing), Z3 none */
	if (ix >= 0 && iz >= 0) {
		struct claim_verdicts *ve = &r.verdicts[ix];

		check_order(ve, r.cp, "exec");
		CHECK(ve->n > 0 && claim_verdicts__count(ve, CLAIM_UNKNOWN) == ve->n,
		      "exec: %u of %u unknown", claim_verdicts__count(ve, CLAIM_UNKNOWN), ve->n);
		CHECK(ve->n && ve->v[0].reason && !strcmp(ve->v[0].reason, "held on every run"),
		      "exec: reason '%s'", ve->n && ve->v[0].reason ? ve->v[0].reason : "");
		CHECK(r.verdicts[iz].n == 0, "z3 did not run but answered %u", r.verdicts[iz].n);
	}

	/* the caller's claims: one too few header executions is refuted, nothing analyzed */
	if (r.claims.nloops == 1) {
		wrong = r.claims;	/* taken out of r: the next run frees what r holds */
		memset(&r.claims, 0, sizeof(r.claims));
		wrong.loops[0].trip.max = 9;
		s.claims = &wrong;
		o.no_drawn = true;
		err = pipeline_run(&r, &s, &o, &d);
		CHECK(!err, "pipeline_run with claims: %d", err);
		CHECK(r.cp == &wrong && r.claims.nloops == 0, "the caller's claims judged");
		CHECK(!r.has_exec && r.has_exec_fixed, "no_drawn: only the given input");
		CHECK(r.exec_fixed.nfindings == 1 &&
		      r.exec_fixed.findings[0].kind == FIND_TRIP_MAX,
		      "%u findings on a maximum of 9", r.exec_fixed.nfindings);
		if (ix >= 0) {
			struct claim_verdicts *ve = &r.verdicts[ix];
			struct claim_verdict *t = claim_verdicts__at(ve, &wrong, CLAIM_TRIP, 0, 0);

			check_order(ve, &wrong, "exec, wrong claims");
			CHECK(t && t->judgement == CLAIM_REFUTED && t->finding_kind == FIND_TRIP_MAX &&
			      t->observed == 10 && t->input_len == sizeof(input) &&
			      !memcmp(t->input, input, sizeof(input)),
			      "exec: the trip claim refuted on the given input (%s)",
			      t ? claim_judgement_name(t->judgement) : "no entry");
			CHECK_EQ_U64(claim_verdicts__count(ve, CLAIM_REFUTED), 1, "exec: refuted");
		}
		/* Z3 on the same claims: the maximum refuted, its counts from the same verdicts */
		o.z3 = true;	/* a resource limit: the same verdicts however loaded the machine */
		o.z3_rlimit = 1000000;
		o.z3_program_rlimit = 8000000;
		err = pipeline_run(&r, &s, &o, &d);
		CHECK(!err && r.has_z3, "pipeline_run with z3: %d", err);
		if (!err && r.has_z3 && iz >= 0) {
			struct claim_verdicts *vz = &r.verdicts[iz];
			struct claim_verdict *t = claim_verdicts__at(vz, &wrong, CLAIM_TRIP, 0, 0);

			check_order(vz, &wrong, "z3");
			CHECK(t && t->judgement == CLAIM_REFUTED && t->input &&
			      t->finding_kind == FIND_TRIP_MAX,
			      "z3: the trip claim refuted with a counterexample (%s)",
			      t ? claim_judgement_name(t->judgement) : "no entry");
			CHECK(claim_verdicts__count(vz, CLAIM_PROVED) == r.z3.proved &&
			      claim_verdicts__count(vz, CLAIM_REFUTED) == r.z3.refuted &&
			      claim_verdicts__count(vz, CLAIM_UNKNOWN) == r.z3.unknown,
			      "z3: verdicts %u/%u/%u, smt %u/%u/%u",
			      claim_verdicts__count(vz, CLAIM_PROVED),
			      claim_verdicts__count(vz, CLAIM_REFUTED),
			      claim_verdicts__count(vz, CLAIM_UNKNOWN), r.z3.proved, r.z3.refuted,
			      r.z3.unknown);
			CHECK(r.z3.proved > 0, "z3 proved nothing of the loop's other claims");
		}
		o.z3 = false;
		o.z3_rlimit = 0;
		o.z3_program_rlimit = 0;
		claim_prog__free(&wrong);
		s.claims = NULL;
		o.no_drawn = false;
	}

	/* a judge hook skips Z3 and is asked about each oracle wanted */
	o.z3 = true;
	o.arg = &asked;
	o.judge = skip_z3;
	err = pipeline_run(&r, &s, &o, &d);
	CHECK(!err && !r.has_z3 && r.has_exec, "z3 skipped by the hook: %d %d", err, r.has_z3);
	CHECK(iz >= 0 && r.verdicts[iz].n == 0, "z3 skipped, yet it answered");
	CHECK_EQ_U64(asked, 2, "oracles the hook was asked about");
	pipeline_result__free(&r);
	ebpf_object__free(obj);
}

/* The execution oracle's judgement of the verdict (pipeline_opts.verdict): a program called
 * safe runs held to its instruction bound, or to ending within the budget when its ending
 * rests on nothing.  The analyzer's verdicts hold; hand-made wrong ones (what an analyzer that
 * skipped a loop's termination, as main did before 3a5d367 for an irreducible loop entered only
 * at its side entry, or that bounded a loop too low, would give) are "verdict" findings with
 * the input that shows them. */
static void test_verdict_oracle(void)
{
	static const char count[] = "r1 = 0\nl: r1 += 1\nif r1 < 10 goto l\nr0 = 0\nexit\n";
	static const char endless[] = "r9 = -52\nr5 = -47\nif r5 s> -51 goto side\nbody: r0 = 1\n"
				      "side: r5 |= 0\nif r5 > r9 goto body\nr0 = 0\nexit\n";
	static const char stack_ptr[] = "r1 = *(u8 *)(r10 -8)\nif r1 == 0 goto ok\n"
					"r0 = *(u64 *)(r1 +0)\nok: r0 = 0\nexit\n";
	/* bpf_loop(7, cb): 10 instructions of main, 5 of each of 7 callback calls */
	static const char loop7[] = "r6 = 0\n*(u64 *)(r10 -8) = r6\nr1 = 7\nr2 = func cb ll\n"
				    "r3 = r10\nr3 += -8\nr4 = 0\ncall bpf_loop\n"
				    "r0 = *(u64 *)(r10 -8)\nexit\ncb: r3 = *(u64 *)(r2 +0)\n"
				    "r3 += r1\n*(u64 *)(r2 +0) = r3\nr0 = 0\nexit\n";
	/* 6,003 instructions: past the runs' budget of 5,000, main alone (no per-call bound to
	 * watch): its runs are given its bound + 1 and held to it (seed 151's main-only
	 * verdicts; not judged before) */
	static const char count3000[] = "r1 = 0\nl: r1 += 1\nif r1 < 3000 goto l\nr0 = 0\nexit\n";
	/* may_goto's budget ends it: 3 instructions a pass */
	static const char mg[] = "r0 = 0\nl: may_goto out\nr0 += 1\ngoto l\nout: exit\n";
	static const struct {
		const char *name, *text, *fault;	/* fault NULL: the analyzer's verdict */
		uint64_t max_insns;
		uint8_t ends;
		uint8_t kind;				/* the analyzer's */
		uint64_t mg_insns;			/* forged: the bound at may_goto's */
		struct scev_call_bound call;		/* forged: a per-call bound */
		uint64_t mg_more[SCEV_MG_MORE];		/* forged: at budgets 0, 1, 64, 2^23 */
	} cases[] = {
		{ "count", count, NULL, 0, 0, VERDICT_SAFE },
		{ "count bounded too low", count, "ran past 20 instructions", 20, SCEV_ENDS_BOUND, 0 },
		{ "count past the budget", count3000, NULL, 0, 0, VERDICT_SAFE },
		{ "count past the budget bounded too low", count3000, "ran past 6000 instructions",
		  6000, SCEV_ENDS_BOUND, 0 },
		{ "side entry only, endless", endless, NULL, 0, 0, VERDICT_UNSAFE },
		{ "side entry only, endless, called safe on nothing", endless,
		  "its ending rests on nothing", UINT64_MAX, SCEV_ENDS_NONE, 0 },
		{ "side entry only, endless, called safe by may_goto", endless, "", UINT64_MAX,
		  SCEV_ENDS_MAY_GOTO, 0 },
		/* a verdict resting on may_goto is held to the bound it states at the oracle's
		 * small budget, which the runs take: a loop no may_goto ends runs past it */
		{ "side entry only, endless, called safe by may_goto with a bound", endless,
		  "with a may_goto budget of 8 a frame", UINT64_MAX, SCEV_ENDS_MAY_GOTO, 0, 100 },
		{ "may_goto", mg, NULL, 0, 0, VERDICT_SAFE },
		{ "may_goto, its bound one pass too low", mg, "ran past 24 instructions", UINT64_MAX,
		  SCEV_ENDS_MAY_GOTO, 0, 24 },
		/* ... at each budget it states: the three runs take 8, 0 and 1 */
		{ "may_goto, its bound at a budget of 0 too low", mg,
		  "ran past 2 instructions, the most the loops' trip counts allow (3 run) with a "
		  "may_goto budget of 0 a frame", UINT64_MAX, SCEV_ENDS_MAY_GOTO, 0, 27, { 0 },
		  { 2, 6, 195, 0 } },
		{ "may_goto, its bound at a budget of 1 too low", mg,
		  "ran past 5 instructions, the most the loops' trip counts allow (6 run) with a "
		  "may_goto budget of 1 a frame", UINT64_MAX, SCEV_ENDS_MAY_GOTO, 0, 27, { 0 },
		  { 3, 5, 195, 0 } },
		{ "may_goto within its bounds at three budgets", mg, "", UINT64_MAX,
		  SCEV_ENDS_MAY_GOTO, 0, 27, { 0 }, { 3, 6, 195, 0 } },
		/* callbacks are counted in the bound: 7 calls of 5 instructions */
		{ "bpf_loop", loop7, NULL, 0, 0, VERDICT_SAFE },
		{ "bpf_loop, one callback call short", loop7, "ran past 40 instructions", 40,
		  SCEV_ENDS_BOUND, 0 },
		/* ... and each callback call held to its own bound, each bpf_loop call to its
		 * callback's calls, when the whole run's bound is past the budget */
		{ "bpf_loop, a callback call past its bound", loop7,
		  "one call of func@11 ran past 4 instructions", UINT64_MAX, SCEV_ENDS_CALLS, 0, 0,
		  { 11, 7, 4 } },
		{ "bpf_loop, a callback called more often than its bound", loop7,
		  "called func@11 7 times, more than its callback loop's trip count allows (6)",
		  UINT64_MAX, SCEV_ENDS_CALLS, 0, 0, { 11, 6, 5 } },
		{ "bpf_loop within its per-call bounds", loop7, "", UINT64_MAX, SCEV_ENDS_CALLS, 0,
		  0, { 11, 7, 5 } },
		/* the claims' runs watch reads of unwritten registers, and by the privileged rule
		 * start each frame with arbitrary bytes, which a program may read (an all-zero
		 * frame would hide the fault) */
		{ "a register read before any write", "r0 = r2\nexit\n", "R2 read, never written", 10,
		  SCEV_ENDS_BOUND, 0 },
		{ "a pointer from a stack byte never written", stack_ptr, "is outside every region", 10,
		  SCEV_ENDS_BOUND, 0 },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct ebpf_object *obj = NULL;
		struct pipeline_result r = { 0 }, first = { 0 };
		struct pipeline_subject s = { 0 };
		struct pipeline_opts o = { .sz = sizeof(o), .runs = 3, .step_budget = 5000,
					   .verdict = true };
		struct scev_verdict forged = { .kind = VERDICT_SAFE };
		struct diag d;
		int err;

		diag_clear(&d);
		if (ebpf_object__open_mem(&obj, cases[k].text, strlen(cases[k].text), "v", &d)) {
			CHECK(0, "%s: %s", cases[k].name, d.msg);
			continue;
		}
		s.obj = obj;
		s.prog = &obj->progs[0];
		err = pipeline_run(&first, &s, &o, &d);
		CHECK(!err && first.has_verdict, "%s: pipeline_run: %s", cases[k].name, d.msg);
		if (!cases[k].fault) {
			CHECK(first.verdict.kind == cases[k].kind && first.nfindings == 0,
			      "%s: verdict %s (%s), %u findings", cases[k].name,
			      scev_verdict_name(first.verdict.kind), first.verdict.reason,
			      first.nfindings);
			CHECK_EQ_U64(pipeline_stat(first.stats, "exec_safe"),
				     cases[k].kind == VERDICT_SAFE, cases[k].name);
			CHECK_EQ_U64(pipeline_stat(first.stats, "exec_safe_bounded"),
				     cases[k].kind == VERDICT_SAFE, cases[k].name);
		} else {
			/* the analyzer's claims, a hand-made verdict */
			forged.max_insns = cases[k].max_insns;
			forged.ends = cases[k].ends;
			forged.mg_insns = cases[k].mg_insns;
			memcpy(forged.mg_more, cases[k].mg_more, sizeof(forged.mg_more));
			forged.ncall_bounds = cases[k].call.start != 0;
			forged.call_bound[0] = cases[k].call;
			s.claims = first.cp;
			s.verdict = &forged;
			err = pipeline_run(&r, &s, &o, &d);
			CHECK(!err && r.has_verdict, "%s: pipeline_run: %d", cases[k].name, err);
			if (!cases[k].fault[0])
				CHECK(r.nfindings == 0, "%s: %u findings", cases[k].name, r.nfindings);
			else
				CHECK(r.nfindings == 1 && r.findings[0]->kind == FIND_VERDICT &&
				      strstr(r.findings[0]->text, cases[k].fault) &&
				      r.findings[0]->input_len > 0 &&
				      pipeline_stat(r.stats, "exec_safe_faulted") == 1,
				      "%s: %u findings, '%s'", cases[k].name, r.nfindings,
				      r.nfindings ? r.findings[0]->text : "");
			pipeline_result__free(&r);
		}
		pipeline_result__free(&first);
		ebpf_object__free(obj);
	}
}

int main(void)
{
	test_registry();
	CHECK(pipeline_oracle_index("exec") == 0 && pipeline_oracle_index("z3") > 0 &&
	      pipeline_oracle_index("none") == -1, "oracles by name");
	test_run();
	test_verdict_oracle();
	return check_done("test_pipeline");
}
