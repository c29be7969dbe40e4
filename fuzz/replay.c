/* Reproducing a saved finding through the pipeline: see replay.h. */
#include "fuzz/replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/pipeline.h"
#include "oracle/kernel/kernel.h"

static bool matches(const struct finding *f, const struct check_finding *cf,
		    const struct ebpf_prog *prog, const struct claim_prog *cp,
		    enum replay_match how)
{
	struct finding cand;

	if (cf->kind != f->kind)
		return false;
	if (how == REPLAY_MATCH_EXACT)
		return cf->pc == f->pc && (f->kind != FIND_RANGE && f->kind != FIND_IV ?
					   true : cf->loc == f->loc);
	memset(&cand, 0, sizeof(cand));
	cand.kind = cf->kind;
	cand.insns = prog->insns;
	cand.len = prog->len;
	cand.claim = cf->claim;
	cand.pc = cf->pc;
	cand.loc = cf->loc;
	cand.observed = cf->observed;
	snprintf(cand.text, sizeof(cand.text), "%s", cf->text);
	snprintf(cand.source, sizeof(cand.source), "%s", f->source);
	finding_signature(&cand, cp);
	return cand.sig.core == f->sig.core;
}

static void mutate_claims(void *arg, struct claim_prog *cp)
{
	const struct replay_opts *o = arg;

	o->mutate(o->mutate_arg, cp);
}

/* A crash: the pipeline analyzes in a child process with the time limit. */
static int replay_crash(const struct finding *f, const struct ebpf_object *obj,
			const struct replay_opts *o, struct replay_verdict *v)
{
	struct pipeline_subject ps = { .obj = obj, .prog = &obj->progs[0] };
	struct pipeline_opts po = {
		.sz = sizeof(po), .prog_type = f->prog_type, .no_drawn = true,
		.strategy = !strcmp(f->strategy, "iterate") ? SCEV_ITERATE : SCEV_FORGET,
		.isolate_s = o->timeout > 0 ? o->timeout : REPLAY_CRASH_TIMEOUT_S,
	};
	struct pipeline_result r = { 0 };
	char frame[96], want[96];
	struct diag d;
	int err;

	diag_clear(&d);
	err = pipeline_run(&r, &ps, &po, &d);
	if (!err) {
		snprintf(v->crash, sizeof(v->crash), "%s", r.crash);
		finding_crash_frame(frame, sizeof(frame), r.crash_log);
		finding_crash_frame(want, sizeof(want), f->log);
		v->holds = v->crash[0] && !strcmp(v->crash, f->crash) &&
			   (!want[0] || !strcmp(frame, want));
		if (!v->crash[0])
			snprintf(v->text, sizeof(v->text), "the analyzer finished normally");
		else
			snprintf(v->text, sizeof(v->text), "the analyzer crashed: %s%s%s",
				 v->crash, frame[0] ? " in " : "", frame);
	}
	pipeline_result__free(&r);
	return err;
}

/* Findings only the kernel oracle makes: the kernel differential's, a safe verdict that
 * faults or that the kernel refuses by none of its limits, bpfscev's exit claims refuted by the
 * kernel's own run. */
static bool kernel_side(const struct finding *f)
{
	return f->kind == FIND_KERNEL || f->kind == FIND_VERDICT || f->kind == FIND_RULE_GAP ||
	       (f->kind == FIND_RANGE && !strcmp(f->source, "kernel-run"));
}

bool replay_needs_kernel(const struct finding *f)
{
	return kernel_side(f) && f->kind != FIND_VERDICT;
}

static bool no_exec(void *arg, const struct oracle_ops *op, const struct claim_prog *cp)
{
	(void)arg;
	(void)cp;
	return strcmp(op->name, "exec") != 0;
}

/* The same kind from the same source; a refuted claim (the kernel's own, or bpfscev's judged by
 * the kernel's run) also the same core signature: the same kind of claim failing. */
static bool kernel_matches(const struct finding *f, const struct finding *c)
{
	if (c->kind != f->kind || strcmp(c->source, f->source))
		return false;
	if (f->kind == FIND_RANGE || (f->kind == FIND_KERNEL && !strcmp(f->source, "kernel")))
		return c->sig.core == f->sig.core;
	return true;
}

/* A kernel-side finding: the pipeline's kernel oracle on the saved input. */
static int replay_kernel(const struct finding *f, const struct ebpf_object *obj,
			 const struct replay_opts *o, struct replay_verdict *v)
{
	struct pipeline_subject ps = { .obj = obj, .prog = &obj->progs[0] };
	struct pipeline_opts po = {
		.sz = sizeof(po), .prog_type = f->prog_type, .no_drawn = true,
		.strategy = !strcmp(f->strategy, "iterate") ? SCEV_ITERATE : SCEV_FORGET,
		.kernel = true, .triage = true, .judge = no_exec,
		.kernel_diff_only = f->kind != FIND_VERDICT && f->kind != FIND_RULE_GAP,
		.kernel_input = f->input_len ? f->input : NULL, .kernel_input_len = f->input_len,
		.kernel_steps = o->step_budget,
		.arg = (void *)o, .after_analyze = o->mutate ? mutate_claims : NULL,
	};
	struct pipeline_result r = { 0 };
	char why[256];
	struct diag d;
	int err;

	if (replay_needs_kernel(f) && !kernel_available(why, sizeof(why))) {
		v->skipped = true;
		snprintf(v->text, sizeof(v->text), "a kernel finding needs the kernel: %s", why);
		return 0;
	}
	diag_clear(&d);
	if ((err = pipeline_run(&r, &ps, &po, &d)))
		goto out;
	v->findings = r.nfindings;
	for (uint32_t k = 0; k < r.nfindings && !v->holds; k++) {
		if (!kernel_matches(f, r.findings[k]))
			continue;
		v->holds = true;
		v->input = f->input;
		snprintf(v->text, sizeof(v->text), "%s", r.findings[k]->text);
	}
	if (!v->holds)
		snprintf(v->text, sizeof(v->text), "%s", r.nfindings ?
			 "the kernel oracle found other things, not this one" :
			 "the kernel shows no difference any more");
out:
	pipeline_result__free(&r);
	return err;
}

/* The inputs of pass 0 (the saved input, or drawn ones when none was saved), 1 (all zero) and 2
 * (drawn); false when the options skip the pass. */
static bool pass_inputs(struct pipeline_opts *po, int pass, const struct finding *f,
			const struct replay_opts *o)
{
	static const uint8_t zeros[256];

	if (pass == 0) {
		po->input = f->input;
		po->fixed_len = f->input_len;
		po->helper_data = f->helper;
		po->helper_len = f->helper_len;
		po->no_drawn = f->input != NULL;
		po->runs = REPLAY_RUNS_NO_INPUT;
		return true;
	}
	if (pass == 1) {
		po->input = zeros;
		po->fixed_len = f->input_len < sizeof(zeros) ? f->input_len : sizeof(zeros);
		return o->zero_input;
	}
	po->no_drawn = false;
	po->runs = o->runs;
	return o->runs;
}

int replay_check(const struct finding *f, const struct reduce_prog *p,
		 const struct replay_opts *uo, struct replay_verdict *v)
{
	struct replay_opts o = { 0 };
	struct ebpf_object *obj = NULL;
	/* pass 0 analyzes (its result keeps the claims); the later passes judge those claims */
	struct pipeline_result first = { 0 }, later = { 0 };
	struct pipeline_subject ps = { 0 };
	struct diag d;
	int err = 0;

	memset(v, 0, sizeof(*v));
	if (uo)
		memcpy(&o, uo, uo->sz && uo->sz < sizeof(o) ? uo->sz : sizeof(o));
	diag_clear(&d);
	if (p ? finding__object(&obj, f, p->insns, p->len, p->globals, p->nglobals, &d) :
		finding__object(&obj, f, NULL, 0, NULL, 0, &d)) {
		snprintf(v->text, sizeof(v->text), "invalid program: %.400s", d.msg);
		return 0;
	}
	if (f->kind == FIND_CRASH) {
		err = replay_crash(f, obj, &o, v);
		goto out;
	}
	if (kernel_side(f)) {
		err = replay_kernel(f, obj, &o, v);
		goto out;
	}
	if (o.saved_claims && !f->claims) {
		snprintf(v->text, sizeof(v->text), "no saved claims (claims.json)");
		goto out;
	}
	ps.obj = obj;
	ps.prog = &obj->progs[0];
	ps.claims = o.saved_claims ? f->claims : NULL;
	for (int pass = 0; pass < 3 && !v->holds; pass++) {
		struct pipeline_result *r = pass ? &later : &first;
		struct pipeline_opts po = {
			.sz = sizeof(po), .prog_type = f->prog_type, .no_drawn = true,
			.strategy = !strcmp(f->strategy, "iterate") ? SCEV_ITERATE : SCEV_FORGET,
			.input_len = f->input_len ? f->input_len : REPLAY_INPUT_LEN,
			.step_budget = o.step_budget ? o.step_budget : REPLAY_STEPS,
			.arg = &o, .after_analyze = o.mutate ? mutate_claims : NULL,
		};
		const struct check_result *res;

		if (!pass_inputs(&po, pass, f, &o))
			continue;
		if ((err = pipeline_run(r, &ps, &po, &d)))
			goto out;
		ps.claims = first.cp;
		res = po.input ? &r->exec_fixed : &r->exec;
		v->findings += res->nfindings;
		for (uint32_t k = 0; k < res->nfindings; k++) {
			const struct check_finding *cf = &res->findings[k];

			if (!matches(f, cf, &r->view, r->cp, o.match))
				continue;
			v->holds = true;
			v->input = pass == 0 ? f->input : NULL;
			snprintf(v->text, sizeof(v->text), "%s", cf->text);
			break;
		}
	}
	if (!v->holds)
		snprintf(v->text, sizeof(v->text), "%s", v->findings ?
			 "the oracle refuted other claims, not this one" :
			 "every claim held on the saved input");
out:
	pipeline_result__free(&later);
	pipeline_result__free(&first);
	ebpf_object__free(obj);
	return err;
}
