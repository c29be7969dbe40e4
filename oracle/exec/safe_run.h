/* What a run of a program called safe must not do, written once: the verdict's runs
 * (triage/verdict.c, run_safe) and the claim checker's runs of a program called safe
 * (check_opts.safe, the campaign's execution oracle) judge their runs by it.
 *
 * A run faults when it reads something no instruction wrote (oracle/exec/stackinit.h), traps on
 * memory, a kernel limit (call depth, combined stack) or a reference left held, takes more
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
 */
#ifndef BPFSCEV_ORACLE_EXEC_SAFE_RUN_H
#define BPFSCEV_ORACLE_EXEC_SAFE_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "oracle/exec/interp.h"
#include "oracle/exec/stackinit.h"

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
	/* The unprivileged rule (stackinit.h's allow_uninit_stack cleared); else a run's frames
	 * start with arbitrary bytes (interp_env.stack_fill), which the privileged kernel allows
	 * a program to read. */
	bool unprivileged;
};

/* Whether the run res, watched by w (NULL: no watch), breaks rule s; its text into buf. */
bool safe_run_fault(const struct safe_rule *s, const struct interp_result *res,
		    const struct stackinit_watch *w, char *buf, size_t n);

#endif
