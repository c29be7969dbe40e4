/* What a run of a program called safe must not do, written once: the verdict's runs
 * (triage/verdict.c, run_safe) and the claim checker's runs of a program called safe
 * (check_opts.safe, the campaign's execution oracle) judge their runs by it.
 *
 * A run faults when it reads something no instruction wrote (oracle/exec/stackinit.h), traps on
 * memory, a kernel limit (call depth, combined stack), a reference left held or a write to r10,
 * does what the verifier refuses wherever its walk meets it (interp_result.refused), takes more
 * instructions than the verdict's bound (its trip claims over the call graph) when it has one,
 * or exhausts the step budget when the verdict's ending rests on nothing (SCEV_ENDS_NONE).  Call
 * traps (an unmodeled helper) and the budget when the verdict gives no bound for a stated reason
 * (tail calls, a callback whose calls are not counted, a bound past the budget) are not faults;
 * nor is a timer callback that exhausts its own budget after the program.
 *
 * A verdict whose ending rests on may_goto (SCEV_ENDS_MAY_GOTO) has no bound under the kernel's
 * budget (2^23 per frame, or a time), but states one for a small budget (scev_verdict.mg_insns
 * at SCEV_MG_ORACLE_BUDGET): its runs take that budget (may_goto_budget, each frame's, which the
 * verifier's exploration of both outcomes of every may_goto makes as valid a run as the
 * kernel's) and are held to that bound, so a loop the verdict says may_goto ends and that does
 * not end shows as a run past it.  Callbacks are counted in max_insns itself (each
 * bpf_loop/for_each call at its callback loop's trip claim), which the claims' runs check too.
 *
 * Per-call bounds (call[]): a bound past the budget (a bpf_loop whose nr may reach 2^23) cannot
 * be run to, but each call of a function can: the runs are watched (safe_calls_visit, on every
 * instruction) and one call of a function that takes more instructions than its bound, or one
 * helper call that calls its callback more often than its bound, faults, even in a run the
 * budget stops.  A bound stated at a small may_goto budget (a function with a may_goto loop in
 * or below it) holds only in runs that take a budget at most that (mg_max).  Main's own
 * instructions (main_own: those run while no helper's callback is running, main's frame and
 * its bpf-to-bpf callees') are watched the same way.  The watch stops at the end of the program:
 * timer callbacks after it, which the interpreter runs after a program that ended and after one
 * the budget cut in any frame, are not counted (their first step has no previous one,
 * interp_state_prev_pc).
 */
#ifndef BPFSCEV_ORACLE_EXEC_SAFE_RUN_H
#define BPFSCEV_ORACLE_EXEC_SAFE_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "oracle/exec/interp.h"
#include "oracle/exec/stackinit.h"

#define SAFE_CALL_BOUNDS 255	/* scev_verdict's: every function but main the kernel loads */
#define SAFE_MG_BUDGETS 5

struct safe_rule {
	/* The verdict's instruction bound when it is below the step budget: a run of more
	 * instructions faults (UINT64_MAX: none).  A run whose budget is the bound itself faults
	 * by exhausting it. */
	uint64_t max_insns;
	/* The ending rests on nothing: exhausting the budget (step_budget) faults. */
	bool must_end;
	uint64_t step_budget;	/* the runs' budget, for the text */
	/* Each frame's may_goto budget the runs must take (interp_env.may_goto_budget; 0: the
	 * kernel's), the one max_insns is stated at. */
	uint64_t may_goto_budget;
	/* A verdict whose bound rests on may_goto states it at several budgets: run k takes
	 * mg[k % nmg] (safe_rule_run), its budget and its bound (max_insns), which fits the step
	 * budget.  nmg 0: max_insns and may_goto_budget above for every run. */
	uint32_t nmg;
	struct safe_mg {
		uint64_t budget;	/* interp_env.may_goto_budget (INTERP_MAY_GOTO_ZERO: 0) */
		uint64_t bound;
	} mg[SAFE_MG_BUDGETS];
	/* The unprivileged rule (stackinit.h's allow_uninit_stack cleared); else a run's frames
	 * start with arbitrary bytes (interp_env.stack_fill), which the privileged kernel allows
	 * a program to read. */
	bool unprivileged;
	/* Per-call bounds, by the function's first pc (ascending): one call of it executes at
	 * most insns instructions (UINT64_MAX: none) in a run whose may_goto budget a frame is at
	 * most mg_max (UINT64_MAX: any run; 0: the budget 0), and as a helper's callback it is
	 * called at most calls times per helper call (UINT32_MAX: none). */
	uint32_t ncalls;
	struct safe_call_bound {
		uint32_t start, calls;
		uint64_t insns;
		uint64_t mg_max;
	} call[SAFE_CALL_BOUNDS];
	/* Main's own instructions, while no helper's callback runs: at most main_own (0: none)
	 * in a run whose may_goto budget is at most main_mg_max. */
	uint64_t main_own, main_mg_max;
};

/* The watch of the per-call bounds over one run (safe_calls_init, then safe_calls_visit on every
 * instruction). */
struct safe_calls_watch {
	const struct safe_rule *s;
	const struct bpf_insn *insns;
	uint64_t count;		/* instructions visited */
	uint64_t limit;		/* count the current frame must not pass (deadline[depth], main's
				 * own bound outside callbacks) */
	uint64_t mg_run;	/* the run's may_goto budget a frame (0: budget 0) */
	uint64_t cb_count;	/* instructions run inside callbacks before the current one */
	uint64_t cb_start;	/* count before the outermost live callback's first instruction */
	unsigned depth;		/* frame of the last visit */
	bool exited;		/* the last visit was an exit */
	bool off;		/* past the program's end, or after the first fault */
	bool bad;
	char reason[200];
	/* per live frame: the instruction count it must not pass (the smallest of its own
	 * call's and its callers'), the frame whose bound that is, the function's entry in
	 * s->call (-1: none), the helper call that called it (-1u: not a callback) and the calls
	 * it made so far */
	uint64_t deadline[EBPF_MAX_CALL_DEPTH];
	uint8_t who[EBPF_MAX_CALL_DEPTH];
	int16_t fn[EBPF_MAX_CALL_DEPTH];
	uint32_t site[EBPF_MAX_CALL_DEPTH];
	uint32_t calls[EBPF_MAX_CALL_DEPTH];
	bool in_cb[EBPF_MAX_CALL_DEPTH];	/* the frame is a callback's or below one */
};

/* Whether s has per-call bounds to watch (safe_calls_visit on every instruction). */
static inline bool safe_rule_watches_calls(const struct safe_rule *s)
{
	return s->ncalls || s->main_own;
}

void safe_calls_init(struct safe_calls_watch *w, const struct safe_rule *s,
		     const struct bpf_insn *insns);
void safe_calls_visit(struct safe_calls_watch *w, const struct interp_state *st, uint32_t pc);

/* The rule of run k: s with the may_goto budget and bound of that run (s->mg[k % s->nmg]). */
struct safe_rule safe_rule_run(const struct safe_rule *s, uint32_t k);

/* Whether the run res, watched by w and c (NULL: no watch), breaks rule s; its text into buf. */
bool safe_run_fault(const struct safe_rule *s, const struct interp_result *res,
		    const struct stackinit_watch *w, const struct safe_calls_watch *c, char *buf,
		    size_t n);

#endif
