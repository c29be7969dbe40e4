/* The pipeline's execution oracle (pipeline.h): the claims checked on runs of the interpreter
 * (oracle/exec/check.h), on drawn inputs and on the one the caller gives.  Its counters (runs,
 * traps, checks, the longest entry of each loop) are the campaign's own totals, read from the
 * check results, so it keeps no counters of its own here; its findings stay in r->exec and
 * r->exec_fixed for the caller to report or sign. */
#include "fuzz/pipeline.h"

static bool exec_wanted(const struct pipeline_opts *o)
{
	return !o->no_drawn || o->input;
}

static int exec_run(struct pipeline_result *r, uint64_t *stats, const struct pipeline_opts *o)
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
	return 0;
}

const struct oracle_ops oracle_exec = {
	.name = "exec",
	.wanted = exec_wanted,
	.run = exec_run,
};
