/* The pipeline's execution oracle (pipeline.h): the claims checked on runs of the interpreter
 * (oracle/exec/check.h), on drawn inputs and on the one the caller gives.  Its counters (runs,
 * traps, checks, the longest entry of each loop) are the campaign's own totals, read from the
 * check results, so it keeps no counters of its own here; its findings stay in r->exec and
 * r->exec_fixed for the caller to report or sign.  Its verdicts: a claim a run refuted, with the
 * input that shows it; every other claim unknown, since runs never prove a claim for all inputs.
 */
#include "fuzz/pipeline.h"

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
	int err;

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
	return 0;
}

const struct oracle_ops oracle_exec = {
	.name = "exec",
	.wanted = exec_wanted,
	.run = exec_run,
};
