/* A run of a program called safe judged: see safe_run.h. */
#include "oracle/exec/safe_run.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

struct safe_rule safe_rule_run(const struct safe_rule *s, uint32_t k)
{
	struct safe_rule r = *s;

	if (s->nmg) {
		r.may_goto_budget = s->mg[k % s->nmg].budget;
		r.max_insns = s->mg[k % s->nmg].bound;
		r.must_end = true;
	}
	return r;
}

/* Main's own bound in this run (UINT64_MAX: none or not at its budget). */
static uint64_t main_bound(const struct safe_calls_watch *w)
{
	return w->s->main_own && w->mg_run <= w->s->main_mg_max ? w->s->main_own : UINT64_MAX;
}

/* What the current frame d must not pass: its deadline, and outside callbacks main's own bound
 * shifted by the instructions callbacks ran. */
static uint64_t frame_limit(const struct safe_calls_watch *w, unsigned d)
{
	uint64_t own = main_bound(w);

	if (w->in_cb[d] || own == UINT64_MAX || own > UINT64_MAX - w->cb_count)
		return w->deadline[d];
	own += w->cb_count;
	return own < w->deadline[d] ? own : w->deadline[d];
}

void safe_calls_init(struct safe_calls_watch *w, const struct safe_rule *s,
		     const struct bpf_insn *insns)
{
	w->s = s;
	w->insns = insns;
	w->count = 0;
	w->mg_run = s->may_goto_budget == INTERP_MAY_GOTO_ZERO ? 0 : s->may_goto_budget ?
		    s->may_goto_budget : INTERP_MAY_GOTO_BUDGET;
	w->cb_count = w->cb_start = 0;
	w->depth = 0;
	w->exited = w->off = w->bad = false;
	w->reason[0] = 0;
	w->deadline[0] = UINT64_MAX;
	w->who[0] = 0;
	w->fn[0] = -1;
	w->site[0] = UINT32_MAX;
	w->calls[0] = 0;
	w->in_cb[0] = false;
	w->limit = frame_limit(w, 0);
}

/* The frame at depth d (a function whose first pc is pc) starts a call: its deadline, and a
 * callback's calls by its helper call checked. */
static void calls_start(struct safe_calls_watch *w, unsigned d, uint32_t pc)
{
	const struct safe_rule *s = w->s;
	const struct safe_call_bound *b = w->fn[d] >= 0 ? &s->call[w->fn[d]] : NULL;
	uint64_t own = b && b->insns != UINT64_MAX && w->mg_run <= b->mg_max
		       ? w->count - 1 + b->insns : UINT64_MAX;

	w->deadline[d] = w->deadline[d - 1];
	w->who[d] = w->who[d - 1];
	if (own < w->deadline[d]) {
		w->deadline[d] = own;
		w->who[d] = (uint8_t)d;
	}
	if (b && w->site[d] != UINT32_MAX && b->calls != UINT32_MAX && w->calls[d] > b->calls) {
		snprintf(w->reason, sizeof(w->reason), "pc %u: the helper call at pc %u called "
			 "func@%u %u times, more than its callback loop's trip count allows (%u)",
			 pc, w->site[d], b->start, w->calls[d], b->calls);
		w->bad = w->off = true;
	}
}

static __attribute__((noinline)) void calls_slow(struct safe_calls_watch *w,
						  const struct interp_state *st, uint32_t pc,
						  unsigned d)
{
	if (w->off)
		return;
	if (interp_state_prev_pc(st) == UINT32_MAX && w->count > 1) {
		/* a step with no previous one after the first: the interpreter started again, for
		 * a timer's callback after the program (which ended, or which the budget cut, in
		 * any frame: timers fire after a cut too) */
		w->off = true;
		return;
	}
	if (d > w->depth && d < EBPF_MAX_CALL_DEPTH) {
		/* a call: the first instruction of its function */
		uint32_t prev = interp_state_prev_pc(st), lo = 0, hi = w->s->ncalls;

		while (lo < hi) {
			uint32_t mid = (lo + hi) / 2;

			if (w->s->call[mid].start < pc)
				lo = mid + 1;
			else
				hi = mid;
		}
		w->fn[d] = lo < w->s->ncalls && w->s->call[lo].start == pc ? (int16_t)lo : -1;
		w->site[d] = prev != UINT32_MAX && ebpf_is_helper_call(&w->insns[prev]) ? prev
										     : UINT32_MAX;
		w->calls[d] = 1;
		w->in_cb[d] = w->in_cb[d - 1] || w->site[d] != UINT32_MAX;
		if (w->in_cb[d] && !w->in_cb[d - 1])
			w->cb_start = w->count - 1;	/* the outermost callback starts */
		calls_start(w, d, pc);
	} else if (d == w->depth && w->exited && d > 0) {
		/* after an exit, the same frame again: a helper calling its callback again */
		w->calls[d]++;
		calls_start(w, d, pc);
	} else if (d < w->depth && w->in_cb[w->depth] && !w->in_cb[d]) {
		/* the outermost callback returned: its instructions are not main's own */
		w->cb_count += w->count - 1 - w->cb_start;
	}
	w->depth = d;
	w->exited = ebpf_is_exit(&w->insns[pc]);
	w->limit = frame_limit(w, d);
	if (!w->bad && w->count > w->limit) {
		if (w->count > w->deadline[d]) {
			const struct safe_call_bound *b = &w->s->call[w->fn[w->who[d]]];

			snprintf(w->reason, sizeof(w->reason), "pc %u: one call of func@%u ran past "
				 "%" PRIu64 " instructions, the most the trip counts of the loops in "
				 "it allow", pc, b->start, b->insns);
		} else {
			snprintf(w->reason, sizeof(w->reason), "pc %u: main ran past %" PRIu64
				 " instructions of its own (callbacks not counted), the most the "
				 "trip counts of its loops allow", pc, w->s->main_own);
		}
		w->bad = w->off = true;
	}
}

void safe_calls_visit(struct safe_calls_watch *w, const struct interp_state *st, uint32_t pc)
{
	unsigned d = interp_state_frame(st);

	if (w->off)
		return;
	w->count++;
	if (__builtin_expect(d != w->depth || w->exited || ebpf_is_exit(&w->insns[pc]) ||
			     w->count > w->limit || interp_state_prev_pc(st) == UINT32_MAX, 0))
		calls_slow(w, st, pc, d);
}

bool safe_run_fault(const struct safe_rule *s, const struct interp_result *res,
		    const struct stackinit_watch *w, const struct safe_calls_watch *c, char *buf,
		    size_t n)
{
	bool spent = res->trap == INTERP_TRAP_STEPS && !res->timer_trap;

	if (w && w->bad) {
		snprintf(buf, n, "%s", w->reason);
		return true;
	}
	if (c && c->bad) {
		snprintf(buf, n, "%s", c->reason);
		return true;
	}
	/* a budget of the bound itself stops the run after exactly max_insns (steps counts the
	 * completed ones); a larger one lets it go on past the bound */
	if (s->max_insns != UINT64_MAX && (res->steps > s->max_insns || spent)) {
		if (res->steps > s->max_insns && !spent)
			snprintf(buf, n, "ran past %" PRIu64 " instructions, the most the loops' trip "
				 "counts allow (%" PRIu64 " run)", s->max_insns, res->steps);
		else
			snprintf(buf, n, "pc %u: ran past %" PRIu64 " instructions, the most the "
				 "loops' trip counts allow", res->trap_pc, s->max_insns);
		if (s->may_goto_budget) {
			size_t len = strlen(buf);

			snprintf(buf + len, n - len, " with a may_goto budget of %" PRIu64 " a frame",
				 s->may_goto_budget == INTERP_MAY_GOTO_ZERO ? 0 : s->may_goto_budget);
		}
		return true;
	}
	if (spent && s->must_end) {
		snprintf(buf, n, "pc %u: ran past %" PRIu64 " instructions, and the verdict bounds no "
			 "loop a run reaches there: its ending rests on nothing", res->trap_pc,
			 s->step_budget);
		return true;
	}
	if (res->trap == INTERP_TRAP_MEM || res->trap == INTERP_TRAP_LIMIT ||
	    res->trap == INTERP_TRAP_REF || res->trap == INTERP_TRAP_RULE) {
		snprintf(buf, n, "%s", res->reason);
		return true;
	}
	if (res->refused) {
		snprintf(buf, n, "pc %u: %s, which the verifier refuses", res->refused_pc,
			 res->refused_why);
		return true;
	}
	return false;
}
