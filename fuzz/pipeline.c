/* The pipeline, written once: see pipeline.h. */
#include "fuzz/pipeline.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "triage/verdict.h"
#include "util/clock.h"

/* The oracles, in the order they judge a program: one line per oracle. */
static const struct oracle_ops *const pipeline_oracles[] = {
	&oracle_exec,
	&oracle_z3,
	&oracle_kernel,
};
#define NORACLES (sizeof(pipeline_oracles) / sizeof(pipeline_oracles[0]))
_Static_assert(NORACLES <= PIPELINE_MAX_ORACLES, "raise PIPELINE_MAX_ORACLES");

unsigned pipeline_oracle_count(void)
{
	return NORACLES;
}

const struct oracle_ops *pipeline_oracle(unsigned i)
{
	return i < NORACLES ? pipeline_oracles[i] : NULL;
}

int pipeline_oracle_index(const char *name)
{
	for (unsigned i = 0; i < NORACLES; i++)
		if (!strcmp(pipeline_oracles[i]->name, name))
			return (int)i;
	return -1;
}

unsigned pipeline_stat_offset(unsigned oracle)
{
	unsigned off = 0;

	for (unsigned i = 0; i < oracle && i < NORACLES; i++)
		off += pipeline_oracles[i]->nstats;
	return off;
}

unsigned pipeline_stat_count(void)
{
	return pipeline_stat_offset(NORACLES);
}

const char *pipeline_stat_name(unsigned i)
{
	for (unsigned k = 0; k < NORACLES; k++) {
		if (i < pipeline_oracles[k]->nstats)
			return pipeline_oracles[k]->stats[i];
		i -= pipeline_oracles[k]->nstats;
	}
	return NULL;
}

int pipeline_stat_index(const char *name)
{
	for (unsigned i = 0, n = pipeline_stat_count(); i < n; i++)
		if (!strcmp(name, pipeline_stat_name(i)))
			return (int)i;
	return -1;
}

uint64_t pipeline_stat(const uint64_t *stats, const char *name)
{
	int i = pipeline_stat_index(name);

	return i < 0 ? 0 : stats[i];
}

int pipeline_add_finding(struct pipeline_result *r, struct finding *f)
{
	struct finding **n = realloc(r->findings, (r->nfindings + 1) * sizeof(*n));

	if (!n) {
		finding__free(f);
		free(f);
		return -ENOMEM;
	}
	r->findings = n;
	n[r->nfindings++] = f;
	return 0;
}

int pipeline_verdict_finding(struct pipeline_result *r, const struct verdict_report *vr)
{
	struct finding *f = calloc(1, sizeof(*f));
	int err;

	if (!f)
		return -ENOMEM;
	if ((err = finding__from_verdict(f, &r->view, r->obj.maps, r->obj.map_cnt, vr->fault,
					 vr->fault_input, vr->fault_input_len))) {
		free(f);
		return err;
	}
	return pipeline_add_finding(r, f);
}

/* Frees what one run left, keeping the generator's buffers for the next. */
static void result_reset(struct pipeline_result *r)
{
	const size_t gp_at = offsetof(struct pipeline_result, gp), past = gp_at + sizeof(r->gp);

	claim_prog__free(&r->claims);
	free(r->crash_log);
	check_result__free(&r->exec);
	check_result__free(&r->exec_fixed);
	if (r->has_z3)
		smt_result__free(&r->z3);
	for (unsigned i = 0; i < NORACLES; i++)
		claim_verdicts__free(&r->verdicts[i]);
	for (uint32_t k = 0; k < r->nfindings; k++) {
		finding__free(r->findings[k]);
		free(r->findings[k]);
	}
	free(r->findings);
	fuzz_disagreement__free(r->dis);
	/* all but gp (kept for the next program), which is most of r's bytes: not copied out and
	 * back */
	memset(r, 0, gp_at);
	memset((char *)r + past, 0, sizeof(*r) - past);
}

void pipeline_result__free(struct pipeline_result *r)
{
	if (!r)
		return;
	result_reset(r);
	gen_program__free(&r->gp);
	memset(r, 0, sizeof(*r));
}

static void stage(const struct pipeline_opts *o, enum pipeline_stage st)
{
	if (o->stage)
		o->stage(o->arg, st);
}

/* The stages' clock.  Reading the process's CPU clock is a system call, about 1.5 us of CPU in
 * this guest (a PVM virtual machine: a hypervisor round trip) against 30 ns for the monotonic
 * clock's vDSO read, and a program costs some 400 us: so the stages are timed by the monotonic
 * clock, and the CPU time of the whole run (read twice) is split among them in proportion
 * (lap_end).  With isolate_s the analysis first runs in a child process whose time is not
 * this process's CPU: each stage then reads the CPU clock itself, as before. */
struct laps {
	bool cpu;	/* each lap reads the CPU clock (isolate_s) */
	bool started;
	double cpu0;	/* the CPU clock at the first stage's start */
	double t;	/* the last stage's end (the CPU clock when cpu, else monotonic) */
	double wall;	/* the stages' monotonic seconds, summed */
};

static void lap_start(struct laps *l)
{
	if (l->started)
		return;
	l->started = true;
	if (l->cpu) {
		l->t = cpu_s();
		return;
	}
	l->cpu0 = cpu_s();
	l->t = wall_s();
}

/* The time since the last stage's end, and the lap moved to now. */
static double lap(struct laps *l)
{
	double now = l->cpu ? cpu_s() : wall_s(), d = now - l->t;

	l->t = now;
	l->wall += d;
	return d;
}

/* The stages' monotonic seconds made CPU seconds: the CPU time since the first stage's start,
 * split in proportion.  (Preemption during a stage lengthens that stage's share alone; over a
 * campaign's programs it falls on the stages as their lengths do.) */
static void lap_end(struct laps *l, struct pipeline_result *r)
{
	double f;

	if (l->cpu || !l->started)
		return;
	f = l->wall > 0 ? (cpu_s() - l->cpu0) / l->wall : 0;
	r->t_gen *= f;
	r->t_analyze *= f;
	for (unsigned i = 0; i < PIPELINE_MAX_ORACLES; i++)
		r->t_oracle[i] *= f;
}

static int run_stages(struct pipeline_result *r, const struct pipeline_subject *s,
		      const struct pipeline_opts *uo, struct laps *lp, struct diag *d);

int pipeline_run(struct pipeline_result *r, const struct pipeline_subject *s,
		 const struct pipeline_opts *uo, struct diag *d)
{
	struct laps lp = { 0 };
	int err = run_stages(r, s, uo, &lp, d);

	lap_end(&lp, r);
	return err;
}

static int run_stages(struct pipeline_result *r, const struct pipeline_subject *s,
		      const struct pipeline_opts *uo, struct laps *lp, struct diag *d)
{
	struct pipeline_opts o = { 0 };
	const struct gen_program *gp = NULL;	/* the program, when generated */
	int err = 0;

	if (uo)
		memcpy(&o, uo, uo->sz && uo->sz < sizeof(o) ? uo->sz : sizeof(o));
	lp->cpu = o.isolate_s > 0;
	result_reset(r);
	/* generate */
	if (s->src) {
		struct gen_knobs def = gen_knobs_default();

		stage(&o, PIPELINE_GENERATE);
		lap_start(lp);
		r->gen_err = gen_program(&r->gp, s->src, s->knobs ? s->knobs : &def);
		r->t_gen = lap(lp);
		if (r->gen_err)
			return 0;
		gp = &r->gp;
	} else if (s->generated) {
		gp = s->generated;
	}
	if (gp) {
		gen_program__object(gp, &r->obj, &r->view, s->name ? s->name : "generated");
	} else {
		if (!s->prog)
			return -EINVAL;
		r->view = *s->prog;
		if (s->obj) {
			r->obj.maps = s->obj->maps;
			r->obj.map_cnt = s->obj->map_cnt;
		}
	}
	/* analyze */
	if (s->claims) {
		r->cp = s->claims;
		if (o.verdict && s->verdict) {
			r->verdict = *s->verdict;
			r->has_verdict = true;
		}
	} else {
		struct scev_opts so = { .sz = sizeof(so), .strategy = o.strategy,
					.prog_type = o.prog_type };

		stage(&o, PIPELINE_ANALYZE);
		if (o.before_analyze)
			o.before_analyze(o.arg);
		if (o.isolate_s > 0) {
			err = finding_analyze_isolated(&r->view, r->obj.maps, r->obj.map_cnt, &so,
						       o.isolate_s, r->crash, sizeof(r->crash),
						       &r->crash_log);
			if (err)
				r->failed = "analyze";
			if (err || r->crash[0])
				return err;	/* a crash is the result: nothing to judge */
		}
		lap_start(lp);
		err = o.verdict ? scev_verify(&r->verdict, &r->claims, &r->view, r->obj.maps,
					      r->obj.map_cnt, &so, d)
				: scev_analyze(&r->claims, &r->view, r->obj.maps, r->obj.map_cnt, &so, d);
		r->has_verdict = o.verdict && !err;
		r->t_analyze = lap(lp);
		if (err) {
			r->failed = "analyze";
			return err;
		}
		if (o.after_analyze)
			o.after_analyze(o.arg, &r->claims);
		r->cp = &r->claims;
	}
	/* a generated program: its own input, its own step budget */
	if (gp && o.generated_input) {
		o.input = gp->input;
		o.fixed_len = gp->input_len;
		o.helper_data = gp->helper_data;
		o.helper_len = gp->helper_len;
	}
	if (gp && o.step_budget_huge && (gp->flags & (GEN_PROG_HUGE | GEN_PROG_MAY_NOT_TERMINATE)))
		o.step_budget = o.step_budget_huge;
	/* judge (and triage, in each oracle's run when o.triage) */
	for (unsigned i = 0; i < NORACLES && !err; i++) {
		const struct oracle_ops *op = pipeline_oracles[i];

		if (!op->wanted(&o) || (o.judge && !o.judge(o.arg, op, r->cp)))
			continue;
		stage(&o, i ? PIPELINE_ORACLES : PIPELINE_JUDGE);
		lap_start(lp);
		err = claim_verdicts__init(&r->verdicts[i], r->cp);
		if (!err)
			err = op->run(r, r->stats + pipeline_stat_offset(i), &r->verdicts[i], &o);
		r->t_oracle[i] = lap(lp);
		if (err)
			r->failed = op->name;
	}
	return err;
}
