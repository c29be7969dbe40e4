/* Static callees analysed per call site.  The range analysis runs a static subprogram once, from
 * the arguments of all its calls joined (scev_ctx.fn_args); the kernel verifies it at each call
 * with that call's state.  `fill(arr1, 16)` and `fill(arr2, 32)` (the kernel selftests' iters.c
 * iter_pass_iter_ptr_to_subprog) make one callee with arr in [fp-192, fp-64] and n in [16, 32],
 * whose arr[i] for i < n reaches past its caller's frame top.
 *
 * So the first analysis keeps, per call site, the arguments its last pass saw there
 * (scev_ctx_note_site), and a static callee whose reached calls see different arguments is given
 * a copy of its code per distinct argument set (a memo: calls that see equal arguments share one
 * context), appended after the program, with those calls redirected to their copy; the program
 * so made runs the same instructions on every input.  Bounds: at most SCEV_CTX_MAX contexts
 * per callee (further argument sets join the first context, the merged analysis of before), the
 * copies at most the program's own size in all (a callee that would pass it is not copied), one
 * level (a copy's own calls go to the original callees), nothing when the call graph has a
 * cycle (which the verdict refuses anyway), and never a global function (verified on its own),
 * a callback (a helper calls it) or main.  Callbacks are copied by rules of their own: a timer
 * callback given the timers of maps of different definitions, a copy per class of maps
 * (absint_timer_plan), its function addresses at that class's bpf_timer_set_callback calls
 * redirected (its own address inside a copy: to the copy of the class of the timer it arms, or
 * the copy's own); a bpf_loop, for_each, find_vma or user_ringbuf_drain callback whose calls
 * give it different contexts, when the verdict is not safe, a copy per context
 * (absint_cb_plan: the arguments it reads, the caller's cells from the ctx up).  A redirect may
 * name a slot of a copy (scev_ctx_plan_push).  The copied program is analysed again, once.
 *
 * Claims: a claim at a pc of a callee must hold at every call, whichever copy ran it.  The
 * copies' claims at one original pc and location are joined (ranges: the union; a claim that
 * some copy lacks, or that differs in kind, region or map, is dropped; trips: the largest
 * count and the least minimum, exact only when all agree; recurrences: those every copy
 * claims alike), and the join is met with the first analysis's claim there (both hold for
 * every run, so their intersection does).  The claims keep the original program's pcs and loop
 * forest: the oracles (interpreter, Z3, kernel log) judge them as any claim, at every execution
 * of the pc.  The verdict: the copies' analysis is taken only when it calls the program safe
 * and the first did not (both are sound), each function's stack depth then the deepest of its
 * copies' (scev_ctx_stack_depths, as the kernel's per-subprogram depth); its instruction bound
 * is the smaller of the two; an unsafe verdict of the copies inside a callback copied per context
 * (a copy or its original) is taken over an unsupported first one (the kernel's walk for one
 * context fails there).  A copies'
 * analysis with a note (something of it may not hold) is not used.
 *
 * More contexts than SCEV_CTX_MAX: the calls past the cap stay on the original function, as
 * the first context's do, and the copies' own calls go there too (one level).  The original
 * is one of the copies of its pcs (copies() counts it; copy_of() gives it 0), so in the copied
 * program it is analysed from the joined arguments of every call left on it — the merged
 * analysis of those contexts — and its claims at a pc take part in the join like any clone's.
 * Every execution of an original pc is an execution of exactly one copy of it (the copied
 * program runs the same instructions; a redirected call runs its clone, any other the
 * original), each copy's claim holds at every execution of that copy, so their join holds at
 * every execution of the pc; a pc some copy makes no claim at (one it never reached, or a
 * different kind) has the join dropped, never a claim that leaves a context out.  The meet
 * with the first analysis intersects two claims that both hold.  Corpus call_ctx_six_bounds
 * (six bounds, three of them on the original: the runs reach n = 1 and n = 60, so a join
 * without the original's contexts is refuted) and call_ctx_six_frames_fill (six frames; its
 * twin _over is refused for the combined stack, as by the kernel) pin it.  CONTRIBUTING,
 * "Analyses of a changed program".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scev/internal.h"
#include "util/arena.h"
#include "util/search.h"

struct site_key {
	const struct scev_calls *g;
	uint32_t pc;
};

static bool site_below(const void *ctx, size_t i)
{
	const struct site_key *k = ctx;

	return k->g->sites[i].pc < k->pc;
}

void scev_ctx_note_site(struct scev_ctx *cx, uint32_t pc, const struct aval *args)
{
	const struct scev_calls *g = &cx->calls;
	uint32_t lo = (uint32_t)lower_bound(g->nsites, site_below, &(struct site_key){ g, pc });

	if (lo == g->nsites || g->sites[lo].pc != pc)
		return;
	for (int r = 1; r <= 5; r++)
		cx->site_args[lo][r] = cx->site_seen[lo] ? aval_join(&cx->site_args[lo][r], &args[r])
							 : args[r];
	cx->site_seen[lo] = 1;
}

void scev_ctx_plan_free(struct scev_ctx_plan *plan)
{
	free(plan->clones);
	free(plan->site_pc);
	free(plan->site_to);
	free(plan->orig_of);
	memset(plan, 0, sizeof(*plan));
}

/* Whether the call graph (calls and function addresses) has no cycle: its functions can be
 * removed callee-less first (Kahn's order on the reversed edges). */
static bool calls_acyclic(const struct scev_calls *g)
{
	uint32_t nf = g->nfuncs, *out = calloc(nf ? nf : 1, sizeof(*out)), *q, n = 0, done = 0;
	bool ok;

	q = calloc(nf ? nf : 1, sizeof(*q));
	if (!out || !q) {
		free(out);
		free(q);
		return false;
	}
	for (uint32_t f = 0; f < nf; f++)
		if (!(out[f] = g->off[f + 1] - g->off[f]))
			q[n++] = f;
	while (done < n) {
		uint32_t c = q[done++];

		/* every caller of c loses one edge (sites are few: a walk over all of them) */
		for (uint32_t f = 0; f < nf; f++)
			for (uint32_t k = g->off[f]; k < g->off[f + 1]; k++)
				if (g->sites[k].callee == c && !--out[f])
					q[n++] = f;
	}
	ok = n == nf;
	free(out);
	free(q);
	return ok;
}

static bool args_same(const struct aval *a, const struct aval *b, uint16_t read)
{
	for (int r = 1; r <= 5; r++)
		if ((read >> r & 1) && !aval_equal(&a[r], &b[r]))
			return false;
	return true;
}

int scev_ctx_plan_push(struct scev_ctx_plan *p, uint32_t pc, uint32_t to)
{
	uint32_t *a = realloc(p->site_pc, (p->nsites + 1) * sizeof(*a)), *b;

	if (!a)
		return -ENOMEM;
	p->site_pc = a;
	if (!(b = realloc(p->site_to, (p->nsites + 1) * sizeof(*b))))
		return -ENOMEM;
	p->site_to = b;
	p->site_pc[p->nsites] = pc;
	p->site_to[p->nsites++] = to;
	return 0;
}

int scev_ctx_plan_clone(struct scev_ctx_plan *plan, uint32_t start, uint32_t end,
			const uint32_t *sites, uint32_t nsites, bool cb)
{
	struct scev_ctx_clone *c = realloc(plan->clones, (plan->nclones + 1) * sizeof(*c));
	int err;

	if (!c)
		return -ENOMEM;
	plan->clones = c;
	c[plan->nclones] = (struct scev_ctx_clone){ start, end, plan->newlen, cb };
	for (uint32_t k = 0; k < nsites; k++)
		if ((err = scev_ctx_plan_push(plan, sites[k], plan->newlen)))
			return err;
	plan->nclones++;
	plan->newlen += end - start;
	return 0;
}

bool scev_ctx_in_cb_copy(const struct scev_ctx_plan *plan, uint32_t pc)
{
	for (uint32_t c = 0; c < plan->nclones; c++) {
		const struct scev_ctx_clone *cl = &plan->clones[c];

		if (cl->cb && ((pc >= cl->start && pc < cl->end) ||
				  (pc >= cl->at && pc < cl->at + (cl->end - cl->start))))
			return true;
	}
	return false;
}

/* The static callees' copies (one per distinct argument set at their calls). */
static int plan_callees(const struct scev_ctx *cx, struct scev_ctx_plan *plan, uint32_t *budget)
{
	const struct scev_calls *g = &cx->calls;
	const struct scev_cfg *cfg = cx->st.cfg;
	uint32_t *grp = NULL, *pcs = NULL;
	int err = 0;

	if (!cx->site_args || cfg->nfuncs < 2 || g->nsites < 2 || !calls_acyclic(g))
		return 0;
	if (!(grp = malloc(g->nsites * sizeof(*grp))) || !(pcs = malloc(g->nsites * sizeof(*pcs)))) {
		free(grp);
		return -ENOMEM;
	}
	for (uint32_t f = 1; f < cfg->nfuncs; f++) {
		uint32_t rep[SCEV_CTX_MAX], ng = 0, size = cfg->funcs[f].end - cfg->funcs[f].start;
		bool skip = (cx->fn_global && cx->fn_global[f]) || (cx->fn_cb && cx->fn_cb[f]);

		for (uint32_t k = 0; k < g->nsites && !skip; k++) {
			uint32_t j;

			if (g->sites[k].callee != f)
				continue;
			if (g->sites[k].callback) {
				skip = true;	/* (a helper calls it with what it likes) */
				break;
			}
			grp[k] = 0;
			if (!cx->site_seen[k])
				continue;	/* (never reached: it stays with the first) */
			for (j = 0; j < ng; j++)
				if (args_same(cx->site_args[k], cx->site_args[rep[j]],
					      cx->args_read[f]))
					break;
			if (j == ng && ng < SCEV_CTX_MAX)
				rep[ng++] = k;
			grp[k] = j < ng ? j : 0;	/* (past the cap: the first context) */
		}
		if (skip || ng < 2)
			continue;
		for (uint32_t j = 1; j < ng; j++) {
			uint32_t n = 0;

			if (size > *budget)
				break;	/* (the rest stay with the first context) */
			for (uint32_t k = 0; k < g->nsites; k++)
				if (g->sites[k].callee == f && !g->sites[k].callback && grp[k] == j)
					pcs[n++] = g->sites[k].pc;
			if ((err = scev_ctx_plan_clone(plan, cfg->funcs[f].start, cfg->funcs[f].end,
						       pcs, n, false)))
				goto out;
			*budget -= size;
		}
	}
out:
	free(grp);
	free(pcs);
	return err;
}

int scev_ctx_plan_make(const struct scev_ctx *cx, struct scev_ctx_plan *plan)
{
	uint32_t budget = cx->len;
	int err;

	memset(plan, 0, sizeof(*plan));
	plan->len = plan->newlen = cx->len;
	if ((err = plan_callees(cx, plan, &budget)) || (err = absint_timer_plan(cx, plan, &budget)) ||
	    (err = absint_cb_plan(cx, plan, &budget)))
		scev_ctx_plan_free(plan);
	return err;
}

/* The pc-relative target of a call or function address at pc in the original program, written
 * for its new place at. */
static void retarget(struct bpf_insn *i, uint32_t target, uint32_t at)
{
	i->imm = (int32_t)(target - (at + 1));
}

static bool pc_relative(const struct bpf_insn *i)
{
	return ebpf_is_pseudo_call(i) || (ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC);
}

int scev_ctx_prog(const struct ebpf_prog *prog, struct scev_ctx_plan *plan,
		  struct ebpf_prog *out)
{
	uint32_t len = plan->len, n = plan->newlen;
	size_t nk = prog->kfunc_cnt;

	*out = *prog;
	out->insns = NULL;
	out->lines = NULL;
	out->kfuncs = NULL;
	if (!(plan->orig_of = malloc(n * sizeof(*plan->orig_of))) ||
	    !(out->insns = malloc(n * sizeof(*out->insns))) ||
	    (prog->lines && !(out->lines = malloc(n * sizeof(*out->lines)))))
		goto oom;
	memcpy(out->insns, prog->insns, len * sizeof(*out->insns));
	if (prog->lines)
		memcpy(out->lines, prog->lines, len * sizeof(*out->lines));
	for (uint32_t pc = 0; pc < len; pc++)
		plan->orig_of[pc] = pc;
	for (uint32_t c = 0; c < plan->nclones; c++) {
		const struct scev_ctx_clone *cl = &plan->clones[c];

		for (uint32_t pc = cl->start; pc < cl->end; pc++) {
			uint32_t at = cl->at + (pc - cl->start);

			out->insns[at] = prog->insns[pc];
			plan->orig_of[at] = pc;
			if (prog->lines)
				out->lines[at] = prog->lines[pc];
		}
		/* (a reference to the function itself, a timer callback arming its own timer
		 * again, stays in its copy: the copy is the one analysed for that timer's map) */
		for (uint32_t pc = cl->start; pc < cl->end; pc += ebpf_insn_slots(&prog->insns[pc])) {
			uint32_t t = pc + 1 + (uint32_t)prog->insns[pc].imm;

			if (pc_relative(&prog->insns[pc]))
				retarget(&out->insns[cl->at + (pc - cl->start)],
					 t >= cl->start && t < cl->end ? cl->at + (t - cl->start) : t,
					 cl->at + (pc - cl->start));
		}
		for (size_t k = 0; k < prog->kfunc_cnt; k++)
			if (prog->kfuncs[k].insn >= cl->start && prog->kfuncs[k].insn < cl->end)
				nk++;
	}
	for (uint32_t k = 0; k < plan->nsites; k++)
		retarget(&out->insns[plan->site_pc[k]], plan->site_to[k], plan->site_pc[k]);
	if (prog->kfunc_cnt) {
		size_t m = prog->kfunc_cnt;

		if (!(out->kfuncs = malloc(nk * sizeof(*out->kfuncs))))
			goto oom;
		memcpy(out->kfuncs, prog->kfuncs, m * sizeof(*out->kfuncs));
		for (uint32_t c = 0; c < plan->nclones; c++)
			for (size_t k = 0; k < prog->kfunc_cnt; k++) {
				const struct scev_ctx_clone *cl = &plan->clones[c];

				if (prog->kfuncs[k].insn < cl->start || prog->kfuncs[k].insn >= cl->end)
					continue;
				out->kfuncs[m] = prog->kfuncs[k];
				out->kfuncs[m++].insn = cl->at + (prog->kfuncs[k].insn - cl->start);
			}
		out->kfunc_cnt = m;
	}
	out->len = n;
	return 0;
oom:
	scev_ctx_prog_free(out);
	return -ENOMEM;
}

void scev_ctx_prog_free(struct ebpf_prog *p)
{
	free(p->insns);
	free(p->lines);
	free(p->kfuncs);
	p->insns = NULL;
	p->lines = NULL;
	p->kfuncs = NULL;
}

void scev_ctx_stack_depths(const struct scev_ctx *cx, uint32_t *fn_stack)
{
	const struct scev_cfg *cfg = cx->st.cfg;
	const struct scev_ctx_plan *p = cx->ctx_plan;

	if (!p || !fn_stack)
		return;
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t f = 0; f < cfg->nfuncs; f++) {
			uint32_t o;

			if (cfg->funcs[f].start < p->len)
				continue;
			o = cfg->blocks[cfg->block_of[p->orig_of[cfg->funcs[f].start]]].func;
			if (!pass && fn_stack[f] > fn_stack[o])
				fn_stack[o] = fn_stack[f];
			else if (pass)
				fn_stack[f] = fn_stack[o];
		}
}

/* How many copies of original pc the new program holds (1 + the clones of its function). */
static uint32_t copies(const struct scev_ctx_plan *p, uint32_t pc)
{
	uint32_t n = 1;

	for (uint32_t c = 0; c < p->nclones; c++)
		n += pc >= p->clones[c].start && pc < p->clones[c].end;
	return n;
}

struct rkey {
	uint32_t pc;
	loc_t loc;
	uint32_t copy;		/* 0: the original, 1 + k: clone k */
	uint32_t idx;
};

/* Which copy new pc holds: 0 the original program, 1 + k clone k. */
static uint32_t copy_of(const struct scev_ctx_plan *p, uint32_t pc)
{
	for (uint32_t c = 0; pc >= p->len && c < p->nclones; c++)
		if (pc >= p->clones[c].at && pc < p->clones[c].at + (p->clones[c].end -
								       p->clones[c].start))
			return 1 + c;
	return 0;
}

static int rkey_cmp(const void *a, const void *b)
{
	const struct rkey *x = a, *y = b;

	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	if (x->loc != y->loc)
		return x->loc < y->loc ? -1 : 1;
	if (x->copy != y->copy)
		return x->copy < y->copy ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

struct rkeys {
	const struct rkey *k;
	const struct rkey *key;
};

/* Element i of a sorted array of keys comes before key's (pc, loc). */
static bool rkey_below(const void *ctx, size_t i)
{
	const struct rkeys *a = ctx;
	const struct rkey *x = &a->k[i];

	return x->pc < a->key->pc || (x->pc == a->key->pc && x->loc < a->key->loc);
}

static bool range_claims_alike(const struct claim_range *a, const struct claim_range *b)
{
	return a->is_ptr == b->is_ptr && (!a->is_ptr || (a->region == b->region &&
							 a->map == b->map));
}

/* The claims of the copies at one original (pc, loc), c[k[0..n)], joined into *j: false when
 * some copy has none or they differ in kind. */
static bool join_ranges(const struct claim_range *c, const struct rkey *k, uint32_t n,
			const struct scev_ctx_plan *p, struct claim_range *j)
{
	if (n != copies(p, k[0].pc))
		return false;
	for (uint32_t i = 1; i < n; i++)
		if (k[i].copy == k[i - 1].copy)
			return false;	/* (two claims of one copy: some copy has none) */
	*j = c[k[0].idx];
	j->pc = k[0].pc;
	for (uint32_t i = 1; i < n; i++) {
		const struct claim_range *o = &c[k[i].idx];

		if (!range_claims_alike(j, o))
			return false;
		j->r = range_join(&j->r, &o->r);
		j->maybe_null = j->maybe_null || o->maybe_null;
		if (j->source != o->source)
			j->source = SRC_FLOW;
	}
	return true;
}

static int meet_ranges(struct claim_prog *out, const struct claim_prog *c,
		       const struct scev_ctx_plan *p)
{
	struct rkey *ck = malloc((c->nranges ? c->nranges : 1) * sizeof(*ck));
	struct rkey *mk = malloc((out->nranges ? out->nranges : 1) * sizeof(*mk));
	uint32_t nm = out->nranges;
	int err = 0;

	if (!ck || !mk) {
		err = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < c->nranges; i++)
		ck[i] = (struct rkey){ c->ranges[i].pc < p->newlen ? p->orig_of[c->ranges[i].pc]
								   : c->ranges[i].pc,
				       c->ranges[i].loc, copy_of(p, c->ranges[i].pc), i };
	for (uint32_t i = 0; i < nm; i++)
		mk[i] = (struct rkey){ out->ranges[i].pc, out->ranges[i].loc, 0, i };
	qsort(ck, c->nranges, sizeof(*ck), rkey_cmp);
	qsort(mk, nm, sizeof(*mk), rkey_cmp);
	for (uint32_t i = 0, e; i < c->nranges; i = e) {
		struct claim_range j;
		struct rkey key;
		const struct rkey *m;
		size_t at;

		for (e = i + 1; e < c->nranges && ck[e].pc == ck[i].pc && ck[e].loc == ck[i].loc; e++)
			;
		if (!join_ranges(c->ranges, &ck[i], e - i, p, &j))
			continue;
		key = (struct rkey){ j.pc, j.loc, 0, 0 };
		at = lower_bound(nm, rkey_below, &(struct rkeys){ mk, &key });
		m = at < nm && mk[at].pc == key.pc && mk[at].loc == key.loc ? &mk[at] : NULL;
		if (!m) {
			if ((err = claim_prog__add_range(out, &j)))
				goto out;
			continue;
		}
		struct claim_range *o = &out->ranges[m->idx];
		struct range r;

		if (!range_claims_alike(o, &j))
			continue;	/* (both cannot hold on a reached pc: keep the first's) */
		r = range_meet(&o->r, &j.r);
		if (range_is_empty(&r))
			continue;
		o->r = r;
		o->maybe_null = o->maybe_null && j.maybe_null;
	}
out:
	free(ck);
	free(mk);
	return err;
}

/* trip := the copies' trips t[0..n) joined (false when one is unknown). */
static bool join_trips(const struct claim_trip *const *t, uint32_t n, struct claim_trip *j,
		       uint32_t *from)
{
	*j = *t[0];
	*from = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (t[i]->kind == TRIP_UNKNOWN)
			return false;
		if (t[i]->max > j->max) {
			j->max = t[i]->max;
			*from = i;
		}
		if (t[i]->min < j->min)
			j->min = t[i]->min;
		if (t[i]->kind != TRIP_EXACT || t[i]->max != t[0]->max)
			j->kind = TRIP_BOUNDED;
	}
	return true;
}

/* o := o met with j (both hold for every run): an exact count stays; a bound is the smaller
 * maximum, with the larger minimum (when that stays at most the maximum). */
static int meet_trip(struct claim_trip *o, const struct claim_trip *j, const struct claim_trip *src)
{
	struct claim_text_buf rb;
	uint64_t min = j->min;
	int err;

	if (o->kind == TRIP_EXACT)
		return 0;
	if (o->kind == TRIP_BOUNDED && j->kind == TRIP_BOUNDED && j->max >= o->max) {
		if (j->min > o->min && j->min <= o->max)
			o->min = j->min;
		return 0;
	}
	if (o->kind == TRIP_BOUNDED && j->kind == TRIP_BOUNDED && o->min > min && o->min <= j->max)
		min = o->min;
	claim_trip__free_text(o);
	*o = (struct claim_trip){ .kind = j->kind, .max = j->max, .min = min };
	if ((err = claim_trip__set_text(&o->expr, claim_trip_expr(src))) ||
	    (err = claim_trip__set_text(&o->reason, j->kind == TRIP_EXACT ? ""
							: claim_trip_reason(src, &rb))))
		return err;
	return 0;
}

/* The recurrences every copy's loop claims alike (loc, width, step; start when all agree) that
 * the first analysis's loop o does not claim, added to o. */
static int meet_ivs(struct claim_prog *out, struct claim_loop *o,
		    const struct claim_loop *const *cl, uint32_t n)
{
	for (uint32_t a = 0; a < cl[0]->nivs; a++) {
		struct claim_iv iv = cl[0]->ivs[a];
		bool all = true, have = false;

		for (uint32_t i = 1; i < n && all; i++) {
			bool found = false;

			for (uint32_t b = 0; b < cl[i]->nivs; b++) {
				const struct claim_iv *v = &cl[i]->ivs[b];

				if (v->loc != iv.loc || v->width != iv.width || v->step != iv.step)
					continue;
				found = true;
				if (!v->has_start || v->start != iv.start)
					iv.has_start = false;
			}
			all = found;
		}
		for (uint32_t b = 0; b < o->nivs; b++)
			have = have || o->ivs[b].loc == iv.loc;
		if (!all || have)
			continue;
		/* (a chunked loop's array is copied; its old one stays in the chunks) */
		struct claim_iv *v = o->chunked ? claim_prog__chunk(out, (o->nivs + 1) * sizeof(*v))
					       : realloc(o->ivs, (o->nivs + 1) * sizeof(*v));

		if (!v)
			return -ENOMEM;
		if (o->chunked && o->nivs)
			memcpy(v, o->ivs, o->nivs * sizeof(*v));
		o->ivs = v;
		o->ivs[o->nivs++] = iv;
	}
	return 0;
}

static int meet_loops(struct claim_prog *out, const struct claim_prog *c,
		      const struct scev_ctx_plan *p)
{
	const struct claim_loop **cl = malloc((c->nloops ? c->nloops : 1) * sizeof(*cl));
	const struct claim_trip **ct = malloc((c->nloops ? c->nloops : 1) * sizeof(*ct));
	int err = 0;

	if (!cl || !ct) {
		err = -ENOMEM;
		goto out;
	}
	for (uint32_t l = 0; l < out->nloops; l++) {
		struct claim_loop *o = &out->loops[l];
		uint32_t n = 0, from, iter = 0;
		struct claim_trip j;

		for (uint32_t k = 0; k < c->nloops; k++) {
			uint32_t h = c->loops[k].header;

			if (h < p->newlen && p->orig_of[h] == o->header &&
			    c->loops[k].depth == o->depth) {
				ct[n] = &c->loops[k].trip;
				iter += claim_loop_kind_iter(c->loops[k].kind) &&
					(!n || c->loops[k].kind == cl[0]->kind);
				cl[n++] = &c->loops[k];
			}
		}
		if (!n || n != copies(p, o->header))
			continue;
		for (uint32_t a = 0; a < n && n; a++)
			for (uint32_t b = a + 1; b < n; b++)
				if (copy_of(p, cl[a]->header) == copy_of(p, cl[b]->header))
					n = 0;	/* (two loops of one copy: not one per copy) */
		if (!n)
			continue;
		if ((err = meet_ivs(out, o, cl, n)))
			goto out;
		if (!join_trips(ct, n, &j, &from))
			continue;
		if ((err = meet_trip(&o->trip, &j, ct[from])))
			goto out;
		if (o->kind == LOOP_PLAIN && iter == n)
			o->kind = cl[0]->kind;	/* (every copy's the same iterator's) */
	}
out:
	free(cl);
	free(ct);
	return err;
}

int scev_ctx_claims_meet(struct claim_prog *out, const struct claim_prog *c,
			 const struct scev_ctx_plan *p)
{
	int err;

	if ((err = meet_ranges(out, c, p)))
		return err;
	return meet_loops(out, c, p);
}
