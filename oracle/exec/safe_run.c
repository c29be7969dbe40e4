/* A run of a program called safe judged: see safe_run.h. */
#include "oracle/exec/safe_run.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

bool safe_run_fault(const struct safe_rule *s, const struct interp_result *res,
		    const struct stackinit_watch *w, char *buf, size_t n)
{
	bool spent = res->trap == INTERP_TRAP_STEPS && !res->timer_trap;

	if (w && w->bad) {
		snprintf(buf, n, "%s", w->reason);
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
				 s->may_goto_budget);
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
	    res->trap == INTERP_TRAP_REF) {
		snprintf(buf, n, "%s", res->reason);
		return true;
	}
	return false;
}
