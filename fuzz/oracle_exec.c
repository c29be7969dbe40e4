/* The pipeline's execution oracle (pipeline.h): the claims checked on runs of the interpreter
 * (oracle/exec/check.h), on drawn inputs and on the one the caller gives.  Its counters (runs,
 * traps, checks, the longest entry of each loop) are the campaign's own totals, read from the
 * check results, so it keeps no counters of its own here; its findings stay in r->exec and
 * r->exec_fixed for the caller to report or sign.  Its verdicts: a claim a run refuted, with the
 * input that shows it; every other claim unknown, since runs never prove a claim for all inputs.
 */
#include "fuzz/pipeline.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scev/callbacks.h"
#include "triage/verdict.h"

enum {
	E_TIMER_CLAIMS,		/* claims at a pc of a timer callback (range, loop) */
	E_TIMER_JUDGED,		/* ... whose pc some run reached: judged */
	E_TIMER_FIRES,		/* timer callbacks the runs fired after the program */
	E_SAFE,			/* programs the verdict (opts.verdict) calls safe, run */
	E_SAFE_BOUNDED,		/* ... with an instruction bound under the budget: held to it */
	E_SAFE_LONG,		/* ... whose bound (or a bound past 2^64) passes the budget */
	E_SAFE_CALLS,		/* ... ending by callbacks or tail calls the bound does not count */
	E_SAFE_MAY_GOTO,	/* ... ending by the may_goto budget */
	E_SAFE_NONE,		/* ... resting on nothing (a run that exhausts the budget faults) */
	E_SAFE_FAULTED,		/* ... that faulted: a "verdict" finding */
	E_SAFE_PER_CALL,	/* ... not held to a bound, but each call of a function to its own
				 * (safe_run.h's per-call bounds) */
	E_SAFE_MG0,		/* ... ending by may_goto, held to the bound they state at a budget
				 * of 0 a frame (the runs take the budgets in turn) */
	E_SAFE_MG1,		/* ... of 1 */
	E_SAFE_MG8,		/* ... of 8 */
	E_SAFE_MG64,		/* ... of 64 */
	E_SAFE_MGK,		/* ... of the kernel's 2^23 */
	E_SAFE_MAIN_OWN,	/* not held to a bound, main's own instructions held to theirs */
	E_SAFE_HELD_LONG,	/* held to a bound past the step budget by runs given that bound
				 * (nothing else would hold them: verdict_budget) */
	E_NSTATS
};

static const char *const exec_stats[E_NSTATS] = {
	[E_TIMER_CLAIMS] = "exec_timer_claims",
	[E_TIMER_JUDGED] = "exec_timer_judged",
	[E_TIMER_FIRES] = "exec_timer_fires",
	[E_SAFE] = "exec_safe",
	[E_SAFE_BOUNDED] = "exec_safe_bounded",
	[E_SAFE_LONG] = "exec_safe_long",
	[E_SAFE_CALLS] = "exec_safe_calls",
	[E_SAFE_MAY_GOTO] = "exec_safe_may_goto",
	[E_SAFE_NONE] = "exec_safe_none",
	[E_SAFE_FAULTED] = "exec_safe_faulted",
	[E_SAFE_PER_CALL] = "exec_safe_per_call",
	[E_SAFE_MG0] = "exec_safe_mg0",
	[E_SAFE_MG1] = "exec_safe_mg1",
	[E_SAFE_MG8] = "exec_safe_mg8",
	[E_SAFE_MG64] = "exec_safe_mg64",
	[E_SAFE_MGK] = "exec_safe_mgk",
	[E_SAFE_MAIN_OWN] = "exec_safe_main_own",
	[E_SAFE_HELD_LONG] = "exec_safe_held_long",
};

/* Per slot of the program: 1 inside a function bpf_timer_set_callback takes (scev/callbacks.h,
 * as the analyzer finds them); NULL when there is none (or out of memory: nothing counted). */
static uint8_t *timer_pcs(const struct ebpf_prog *p)
{
	struct scev_cfg *cfg = NULL;
	struct scev_cb_loops cbs;
	uint8_t *in = NULL;
	bool any = false;
	struct diag d;

	for (size_t pc = 0; pc < p->len && !any; pc++)
		any = ebpf_is_helper_call(&p->insns[pc]) &&
		      p->insns[pc].imm == BPF_FUNC_timer_set_callback;
	diag_clear(&d);
	if (!any || scev_cfg__build(&cfg, p->insns, p->len, &d))
		return NULL;
	if (!scev_cb_loops__find(&cbs, cfg)) {
		for (uint32_t k = 0; k < cbs.n; k++) {
			if (cbs.v[k].helper != BPF_FUNC_timer_set_callback)
				continue;
			if (!in && !(in = calloc(p->len, 1)))
				break;
			for (uint32_t pc = cbs.v[k].header; pc < cbs.v[k].end && pc < p->len; pc++)
				in[pc] = 1;
		}
		scev_cb_loops__free(&cbs);
	}
	scev_cfg__free(cfg);
	return in;
}

/* The claims inside timer callbacks, and those a run judged (their pc reached). */
static void timer_counts(const struct pipeline_result *r, uint64_t *stats)
{
	const struct claim_prog *cp = r->cp;
	uint8_t *in = timer_pcs(&r->view);

	stats[E_TIMER_FIRES] += r->exec.timer_fires + r->exec_fixed.timer_fires;
	if (!in)
		return;
	for (uint32_t k = 0; k < cp->nranges + cp->nloops; k++) {
		uint32_t pc = k < cp->nranges ? cp->ranges[k].pc : cp->loops[k - cp->nranges].header;

		if (pc >= r->view.len || !in[pc])
			continue;
		stats[E_TIMER_CLAIMS]++;
		stats[E_TIMER_JUDGED] += (r->has_exec && pc < r->exec.nslots && r->exec.seen[pc]) ||
					 (r->has_exec_fixed && pc < r->exec_fixed.nslots &&
					  r->exec_fixed.seen[pc]);
	}
	free(in);
}

/* The claims res refuted, in v; the first refutation of a claim is its counterexample. */
static void exec_refuted(struct claim_verdicts *v, const struct claim_prog *cp,
			 const struct check_result *res)
{
	for (uint32_t k = 0; k < res->nfindings; k++) {
		const struct check_finding *f = &res->findings[k];
		enum claim_what what = f->kind == FIND_RANGE ? CLAIM_RANGE :
				       f->kind == FIND_IV ? CLAIM_IV : CLAIM_TRIP;
		struct claim_verdict *e;
		uint32_t iv = 0;

		if (what == CLAIM_IV && f->claim < cp->nloops)
			while (iv < cp->loops[f->claim].nivs &&
			       cp->loops[f->claim].ivs[iv].loc != f->loc)
				iv++;
		e = claim_verdicts__at(v, cp, what, f->claim, iv);
		if (!e || e->judgement == CLAIM_REFUTED)
			continue;
		e->judgement = CLAIM_REFUTED;
		e->finding_kind = f->kind;
		e->reason = f->text;
		e->input = f->input;
		e->input_len = f->input_len;
		e->helper = f->helper_data;
		e->helper_len = f->helper_len;
		e->observed = f->observed;
	}
}

static void exec_verdicts(struct claim_verdicts *v, const struct pipeline_result *r,
			  bool first_only)
{
	if (r->has_exec)
		exec_refuted(v, r->cp, &r->exec);
	if (r->has_exec_fixed)
		exec_refuted(v, r->cp, &r->exec_fixed);
	for (uint32_t k = 0; k < v->n; k++)
		if (v->v[k].judgement == CLAIM_NOT_JUDGED) {
			v->v[k].judgement = CLAIM_UNKNOWN;
			v->v[k].reason = first_only && (r->exec.nfindings || r->exec_fixed.nfindings) ?
					 "not refuted before the first finding stopped the runs" :
					 "held on every run";
		}
}

/* The step budget of the runs of a program the verdict calls safe: the campaign's, or, when
 * the verdict's bound passes it and nothing else would hold the runs (no per-call bound, nor
 * main's own, to watch: main alone, whose bound is its whole one — seed 151's 7 "main-only
 * verdicts", 10,075 to 50,571 instructions against 10,000), that bound + 1 up to
 * EXEC_HELD_LONG: the runs then go on to it and are held to it.  For a verdict ending by
 * may_goto, the smallest bound it states at a budget. */
#define EXEC_HELD_LONG 1000000u
static uint64_t verdict_budget(const struct scev_verdict *v, uint64_t budget, bool unprivileged)
{
	struct safe_rule s = verdict_safe_rule(v, budget, unprivileged);
	uint64_t b = v->max_insns;

	if (s.max_insns != UINT64_MAX || safe_rule_watches_calls(&s))
		return budget;
	if (b == UINT64_MAX && v->ends == SCEV_ENDS_MAY_GOTO) {
		b = v->mg_insns ? v->mg_insns : UINT64_MAX;
		for (unsigned k = 0; k < SCEV_MG_MORE; k++)
			if (v->mg_more[k] && v->mg_more[k] < b)
				b = v->mg_more[k];
	}
	return b >= budget && b < EXEC_HELD_LONG ? b + 1 : budget;
}

/* Whether the claims' runs judge the verdict too: a program it calls safe. */
static bool exec_judges_verdict(const struct pipeline_result *r)
{
	return r->has_verdict && r->verdict.kind == VERDICT_SAFE;
}

/* A program the verdict calls safe: the claims' own runs (check_opts.safe) held it to the rule
 * the kernel oracle's runs of it follow (verdict_execute, oracle/exec/safe_run.h) — its
 * instruction bound, or ending within the budget when its ending rests on nothing, no trap, no
 * read of unwritten bytes.  The first fault is a "verdict" finding with the input that shows
 * it. */
static int exec_verdict(struct pipeline_result *r, uint64_t *stats, uint64_t budget,
			uint64_t held_from)
{
	const struct scev_verdict *v = &r->verdict;
	const struct check_result *c = r->has_exec && r->exec.safe_faults ? &r->exec : &r->exec_fixed;
	struct verdict_report *vr;
	struct safe_rule rule;
	int err;

	if (!exec_judges_verdict(r))
		return 0;
	stats[E_SAFE]++;
	rule = verdict_safe_rule(v, budget, false);
	/* (held to a bound: max_insns, or those at the may_goto budgets) */
	for (uint32_t k = 0; k < rule.nmg; k++) {
		uint64_t b = rule.mg[k].budget;

		stats[b == INTERP_MAY_GOTO_ZERO ? E_SAFE_MG0 : b == 1 ? E_SAFE_MG1 : b == 8 ?
		      E_SAFE_MG8 : b == 64 ? E_SAFE_MG64 : E_SAFE_MGK]++;
	}
	if (rule.max_insns != UINT64_MAX) {
		stats[E_SAFE_BOUNDED]++;
		stats[E_SAFE_HELD_LONG] += rule.max_insns >= held_from;
	} else {
		if (v->max_insns != UINT64_MAX || v->ends == SCEV_ENDS_BOUND)
			stats[E_SAFE_LONG]++;
		else
			stats[v->ends == SCEV_ENDS_CALLS ? E_SAFE_CALLS :
			      v->ends == SCEV_ENDS_MAY_GOTO ? E_SAFE_MAY_GOTO : E_SAFE_NONE]++;
		stats[E_SAFE_PER_CALL] += safe_rule_watches_calls(&rule);
		stats[E_SAFE_MAIN_OWN] += rule.main_own != 0;
	}
	if (!r->exec.safe_faults && !r->exec_fixed.safe_faults)
		return 0;
	stats[E_SAFE_FAULTED]++;
	if (!(vr = calloc(1, sizeof(*vr))))
		return -ENOMEM;
	vr->ours = *v;
	vr->runs = r->exec.runs + r->exec_fixed.runs;
	vr->faults = r->exec.safe_faults + r->exec_fixed.safe_faults;
	snprintf(vr->fault, sizeof(vr->fault), "%s", c->safe_fault);
	vr->fault_input_len = c->safe_input_len < sizeof(vr->fault_input) ?
			      c->safe_input_len : sizeof(vr->fault_input);
	memcpy(vr->fault_input, c->safe_input, vr->fault_input_len);
	err = pipeline_verdict_finding(r, vr);
	free(vr);
	return err;
}

static bool exec_wanted(const struct pipeline_opts *o)
{
	return !o->no_drawn || o->input;
}

static int exec_run(struct pipeline_result *r, uint64_t *stats, struct claim_verdicts *v,
		    const struct pipeline_opts *o)
{
	struct check_opts co = { .sz = sizeof(co), .seed = o->seed,
				 .runs = o->runs ? o->runs : PIPELINE_RUNS,
				 .step_budget = o->step_budget ? o->step_budget : PIPELINE_STEPS,
				 .input_len = o->input_len ? o->input_len : PIPELINE_INPUT_LEN,
				 .ctx_kind = o->ctx_kind, .first_only = o->first_only,
				 .first_input = o->first_input };
	struct safe_rule safe;
	int err;

	if (exec_judges_verdict(r)) {
		co.step_budget = verdict_budget(&r->verdict, co.step_budget, o->unprivileged);
		safe = verdict_safe_rule(&r->verdict, co.step_budget, o->unprivileged);
		co.safe = &safe;
	}
	if (!o->no_drawn) {
		if ((err = oracle_check(&r->exec, &r->obj, &r->view, r->cp, &co)))
			return err;
		r->has_exec = true;
	}
	if (o->input) {
		co.input = o->input;
		co.fixed_len = o->fixed_len;
		co.helper_data = o->helper_data;
		co.helper_len = o->helper_len;
		if ((err = oracle_check(&r->exec_fixed, &r->obj, &r->view, r->cp, &co)))
			return err;
		r->has_exec_fixed = true;
	}
	exec_verdicts(v, r, o->first_only);
	timer_counts(r, stats);
	return exec_verdict(r, stats, co.step_budget,
			    o->step_budget ? o->step_budget : PIPELINE_STEPS);
}

static void exec_summary(struct sbuf *sb, const uint64_t *n, double cpu, const char *dir,
			 uint64_t saved)
{
	(void)cpu;
	(void)dir;
	(void)saved;
	if (n[E_SAFE])
		sbuf_printf(sb, "  called safe     %" PRIu64 " run: %" PRIu64 " held to their "
			    "instruction bound, %" PRIu64 " bounded past the step budget, %" PRIu64
			    " ending by callbacks, %" PRIu64 " by may_goto, %" PRIu64 " on nothing; %"
			    PRIu64 " faulted\n", n[E_SAFE], n[E_SAFE_BOUNDED], n[E_SAFE_LONG],
			    n[E_SAFE_CALLS], n[E_SAFE_MAY_GOTO], n[E_SAFE_NONE], n[E_SAFE_FAULTED]);
	if (n[E_SAFE_MG0] + n[E_SAFE_MG1] + n[E_SAFE_MG8] + n[E_SAFE_MG64] + n[E_SAFE_MGK])
		sbuf_printf(sb, "                  ending by may_goto, held to their bound at a "
			    "budget a frame of 0: %" PRIu64 ", 1: %" PRIu64 ", 8: %" PRIu64 ", 64: %"
			    PRIu64 ", 2^23: %" PRIu64 " (where it fits the step budget; the runs "
			    "take those budgets in turn)\n", n[E_SAFE_MG0], n[E_SAFE_MG1],
			    n[E_SAFE_MG8], n[E_SAFE_MG64], n[E_SAFE_MGK]);
	if (n[E_SAFE_HELD_LONG])
		sbuf_printf(sb, "                  %" PRIu64 " of those held to their bound by runs "
			    "given it (past the step budget, nothing else to hold them to)\n",
			    n[E_SAFE_HELD_LONG]);
	if (n[E_SAFE_PER_CALL])
		sbuf_printf(sb, "                  %" PRIu64 " of the %" PRIu64 " not held to their "
			    "bound held to per-call bounds (a function's instructions per call, a "
			    "callback's calls per helper call; %" PRIu64 " main's own instructions)\n",
			    n[E_SAFE_PER_CALL], n[E_SAFE] - n[E_SAFE_BOUNDED], n[E_SAFE_MAIN_OWN]);
	if (!n[E_TIMER_CLAIMS] && !n[E_TIMER_FIRES])
		return;
	sbuf_printf(sb, "  timer callbacks %" PRIu64 " claims inside them, %" PRIu64 " judged (a "
		    "run fired the timer after the program and reached the claim's pc), %" PRIu64
		    " not; %" PRIu64 " firings\n", n[E_TIMER_CLAIMS], n[E_TIMER_JUDGED],
		    n[E_TIMER_CLAIMS] - n[E_TIMER_JUDGED], n[E_TIMER_FIRES]);
}

const struct oracle_ops oracle_exec = {
	.name = "exec",
	.stats = exec_stats,
	.nstats = E_NSTATS,
	.wanted = exec_wanted,
	.run = exec_run,
	.summary = exec_summary,
};
