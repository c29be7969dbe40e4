/* One program of a campaign: generate it from its number, analyze it, check the claims on the
 * interpreter and the optional oracles, and describe the result as an outcome: the counts, and
 * each finding (in full the first time this process sees its signature, as kind and signature
 * after that, which keeps messages from workers small).  Runs in a worker or in the calling
 * process alike.
 */
#include "fuzz/campaign_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"

static uint64_t vsig_hash(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	return x ^ (x >> 33);
}

static bool seen_lookup(const struct sig_seen *s, uint64_t sig, uint64_t *idx)
{
	if (!s->cap)
		return false;
	for (size_t h = vsig_hash(sig) & (s->cap - 1);; h = (h + 1) & (s->cap - 1)) {
		if (!s->key[h])
			return false;
		if (s->key[h] == sig) {
			*idx = s->idx[h];
			return true;
		}
	}
}

static int seen_put(struct sig_seen *s, uint64_t sig, uint64_t idx)
{
	if (!sig)
		sig = 1;	/* 0 marks empty slots */
	if ((s->n + 1) * 2 > s->cap) {
		size_t nc = s->cap ? s->cap * 2 : 64;
		uint64_t *nk = calloc(nc, sizeof(*nk)), *ni = calloc(nc, sizeof(*ni));

		if (!nk || !ni) {
			free(nk);
			free(ni);
			return -ENOMEM;
		}
		for (size_t i = 0; i < s->cap; i++) {
			size_t h;

			if (!s->key[i])
				continue;
			for (h = vsig_hash(s->key[i]) & (nc - 1); nk[h]; h = (h + 1) & (nc - 1))
				;
			nk[h] = s->key[i];
			ni[h] = s->idx[i];
		}
		free(s->key);
		free(s->idx);
		s->key = nk;
		s->idx = ni;
		s->cap = nc;
	}
	for (size_t h = vsig_hash(sig) & (s->cap - 1);; h = (h + 1) & (s->cap - 1)) {
		if (!s->key[h]) {
			s->key[h] = sig;
			s->idx[h] = idx;
			s->n++;
			return 0;
		}
		if (s->key[h] == sig) {
			if (idx < s->idx[h])
				s->idx[h] = idx;
			return 0;
		}
	}
}

static void seen_free(struct sig_seen *s)
{
	free(s->key);
	free(s->idx);
	memset(s, 0, sizeof(*s));
}

void campaign_outcome_free(struct outcome *oc)
{
	free(oc->buckets);
	for (uint32_t i = 0; i < oc->nocc; i++) {
		finding__free(oc->occ[i].f);
		free(oc->occ[i].f);
	}
	free(oc->occ);
	fuzz_disagreement__free(oc->dis);
	memset(oc, 0, sizeof(*oc));
}

void campaign_fill_defaults(struct fuzz_opts *o)
{
	if (!o->oracle_runs)
		o->oracle_runs = FUZZ_DEFAULT_RUNS;
	if (!o->step_budget)
		o->step_budget = FUZZ_DEFAULT_STEPS;
	if (o->timeout <= 0)
		o->timeout = 2;
	if (!o->batch)
		o->batch = 32;
}

void campaign_set_phase(struct watch *w, uint32_t ph)
{
	if (!w)
		return;
	/* no CPU-time reading here (a system call, four per program): the watchdog reads the
	 * worker's CPU clock itself when it sees a new seq */
	w->since = wall_s();
	w->seq++;
	w->phase = ph;
}

/* The pipeline's hooks in the campaign: the watchdog's phases, the test hooks. */
struct hooks {
	const struct fuzz_opts *o;
	uint64_t index;
	struct watch *w;
};

static void hook_stage(void *arg, enum pipeline_stage st)
{
	struct hooks *h = arg;

	campaign_set_phase(h->w, st == PIPELINE_GENERATE ? PH_GEN : st == PIPELINE_ANALYZE ?
				 PH_ANALYZE : st == PIPELINE_JUDGE ? PH_CHECK : PH_ORACLES);
}

static void hook_before_analyze(void *arg)
{
	struct hooks *h = arg;

	if (h->o->fault)
		h->o->fault(h->o->arg, h->index);
}

static void hook_after_analyze(void *arg, struct claim_prog *cp)
{
	struct hooks *h = arg;

	if (h->o->plant)
		h->o->plant(h->o->arg, h->index, cp);
}

static int run_program(struct pipeline_result *r, const struct fuzz_opts *uo, uint64_t index,
		       struct watch *w)
{
	struct fuzz_opts o = { 0 };
	struct hooks h = { .o = &o, .index = index, .w = w };
	struct gen_src src;
	uint64_t pseed;
	struct diag d;
	char name[64];

	if (uo)
		memcpy(&o, uo, uo->sz && uo->sz < sizeof(o) ? uo->sz : sizeof(o));
	campaign_fill_defaults(&o);
	pseed = fuzz_program_seed(o.seed, index);
	gen_src_init_seed(&src, pseed);
	if (w)
		w->index = index;
	snprintf(name, sizeof(name), "fuzz-%" PRIu64 "-%" PRIu64, o.seed, index);
	{
		struct pipeline_subject s = { .src = &src, .knobs = o.knobs, .name = name };
		/* few inputs per program: consecutive programs start at different points of the
		 * oracle's input sequence, so the campaign as a whole sees the all-zero, all-ones
		 * and sign-bit patterns and the random ones */
		struct pipeline_opts po = {
			.sz = sizeof(po), .strategy = o.strategy, .seed = pseed,
			.runs = o.oracle_runs, .step_budget = o.step_budget,
			.first_input = o.oracle_runs >= FUZZ_INPUT_CYCLE ? 0 :
				       (uint32_t)(index * o.oracle_runs % FUZZ_INPUT_CYCLE),
			.z3 = o.z3, .z3_timeout_ms = o.z3_timeout_ms, .z3_budget_s = o.z3_budget,
			.z3_rlimit = o.z3_rlimit, .z3_program_rlimit = o.z3_program_rlimit,
			.kernel = o.kernel, .unprivileged = o.unprivileged, .triage = true,
			/* (the kernel oracle runs the programs called safe itself) */
			.verdict = !o.kernel,
			.arg = &h, .stage = hook_stage, .before_analyze = hook_before_analyze,
			.after_analyze = hook_after_analyze,
		};

		diag_clear(&d);
		return pipeline_run(r, &s, &po, &d);
	}
}

int fuzz_run_program(struct pipeline_result *r, const struct fuzz_opts *o, uint64_t index)
{
	return run_program(r, o, index, NULL);
}

void campaign_evaluator_free(struct evaluator *ev)
{
	pipeline_result__free(&ev->pr);
	seen_free(&ev->seen);
}

/* The light signature of a check finding, without building the directory contents. */
static void light_sig(struct finding *tmp, const struct check_finding *cf,
		      const struct gen_program *gp, const struct claim_prog *cp)
{
	memset(tmp, 0, sizeof(*tmp));
	tmp->kind = cf->kind;
	snprintf(tmp->source, sizeof(tmp->source), "campaign");
	tmp->insns = gp->insns;
	tmp->len = gp->len;
	tmp->claim = cf->claim;
	tmp->pc = cf->pc;
	tmp->loc = cf->loc;
	tmp->observed = cf->observed;
	snprintf(tmp->text, sizeof(tmp->text), "%s", cf->text);
	finding_signature(tmp, cp);
}

void campaign_set_origin(struct finding *f, const struct campaign *c, uint64_t index)
{
	f->has_origin = true;
	f->campaign_seed = c->o.seed;
	f->index = index;
	f->prog_seed = fuzz_program_seed(c->o.seed, index);
	snprintf(f->knobs, sizeof(f->knobs), "%s", c->knobs_text);
	snprintf(f->source, sizeof(f->source), "campaign");
	snprintf(f->prog_name, sizeof(f->prog_name), "fuzz-%" PRIu64 "-%" PRIu64, c->o.seed,
		 index);
}

int campaign_outcome_add(struct outcome *oc, uint8_t kind, uint64_t sig, struct finding *f)
{
	struct occurrence *n = realloc(oc->occ, (oc->nocc + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	oc->occ = n;
	n[oc->nocc].kind = kind;
	n[oc->nocc].sig = sig;
	n[oc->nocc].f = f;
	oc->nocc++;
	return 0;
}

/* The optional oracles' counters, findings (complete already) and disagreement. */
static int eval_oracles(struct evaluator *ev, uint64_t index, struct outcome *oc)
{
	struct pipeline_result *res = &ev->pr;
	int err;

	memcpy(oc->oracle_stats, res->stats, sizeof(oc->oracle_stats));
	for (unsigned i = 1; i < pipeline_oracle_count(); i++)
		oc->t_oracles[i] = res->t_oracle[i];
	oc->dis = res->dis;
	res->dis = NULL;
	for (uint32_t k = 0; k < res->nfindings; k++) {
		struct finding *f = res->findings[k];
		char source[sizeof(f->source)];
		uint64_t first;
		bool dup_here = false;

		for (uint32_t j = 0; j < oc->nocc; j++)
			if (oc->occ[j].sig == f->sig.full)
				dup_here = true;
		if (dup_here)
			continue;
		if (seen_lookup(&ev->seen, f->sig.full, &first) && first <= index) {
			if ((err = campaign_outcome_add(oc, f->kind, f->sig.full, NULL)))
				return err;
			continue;
		}
		memcpy(source, f->source, sizeof(source));
		campaign_set_origin(f, ev->c, index);
		memcpy(f->source, source, sizeof(source));	/* z3, kernel, verdict */
		res->findings[k] = NULL;
		if ((err = campaign_outcome_add(oc, f->kind, f->sig.full, f)) ||
		    (err = seen_put(&ev->seen, f->sig.full, index)))
			return err;
	}
	return 0;
}

int campaign_eval_program(struct evaluator *ev, uint64_t index, struct outcome *oc, struct watch *w)
{
	const struct campaign *c = ev->c;
	struct pipeline_result *r = &ev->pr;
	const struct claim_prog *cp = &r->claims;
	int err;

	memset(oc, 0, sizeof(*oc));
	oc->index = index;
	err = run_program(r, &c->o, index, w);
	campaign_set_phase(w, PH_IDLE);
	oc->t_gen = r->t_gen;
	oc->t_analyze = r->t_analyze;
	oc->t_check = r->t_oracle[0];	/* the execution oracle */
	if (err)
		return err;
	if (r->gen_err) {
		oc->gen_err = r->gen_err;
		return 0;
	}
	oc->loops = cp->nloops;
	oc->ranges = cp->nranges;
	oc->checks = r->exec.checks;
	oc->runs = r->exec.runs;
	oc->traps = r->exec.traps;
	oc->buckets = malloc((cp->nloops ? cp->nloops : 1) * sizeof(*oc->buckets));
	if (!oc->buckets)
		return -ENOMEM;
	for (uint32_t l = 0; l < cp->nloops; l++) {
		const struct claim_trip *t = &cp->loops[l].trip;

		if (l < r->exec.nloops && r->exec.max_trip[l])
			oc->entered++;
		if (t->kind == TRIP_UNKNOWN)
			continue;
		oc->bounded++;
		if (t->kind == TRIP_EXACT)
			oc->exact++;
		if (l < r->exec.nloops && r->exec.max_trip[l])
			oc->buckets[oc->nbuckets++] = (uint16_t)campaign_ratio_bucket(t->max,
									     r->exec.max_trip[l]);
	}
	for (uint32_t k = 0; k < r->exec.nfindings; k++) {
		const struct check_finding *cf = &r->exec.findings[k];
		struct finding tmp, *f;
		uint64_t first;
		bool dup_here = false;

		light_sig(&tmp, cf, &r->gp, cp);
		for (uint32_t j = 0; j < oc->nocc; j++)
			if (oc->occ[j].sig == tmp.sig.full)
				dup_here = true;
		if (dup_here)	/* one occurrence per program and signature */
			continue;
		if (seen_lookup(&ev->seen, tmp.sig.full, &first) && first <= index) {
			if ((err = campaign_outcome_add(oc, cf->kind, tmp.sig.full, NULL)))
				return err;
			continue;
		}
		f = calloc(1, sizeof(*f));
		if (!f)
			return -ENOMEM;
		{
			struct ebpf_prog view;

			gen_program__prog(&r->gp, &view, "fuzz");
			err = finding__from_check(f, cf, &view, r->gp.maps, r->gp.map_cnt, cp);
		}
		if (err) {
			free(f);
			return err;
		}
		campaign_set_origin(f, c, index);
		finding_signature(f, cp);
		if ((err = campaign_outcome_add(oc, cf->kind, f->sig.full, f)) ||
		    (err = seen_put(&ev->seen, f->sig.full, index))) {
			finding__free(f);
			free(f);
			return err;
		}
	}
	return eval_oracles(ev, index, oc);
}
