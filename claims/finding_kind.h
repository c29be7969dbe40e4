/* Finding kinds: the names every judge, the triage layer and the campaign give to "a claim did
 * not hold" (and to the campaign's own crash and hang findings).  They belong to the shared
 * vocabulary because an oracle reports them, triage files and replays them and the CLI prints
 * them, and none of those may depend on the others.  The numbers are stored in finding
 * directories and travel between campaign processes: append, never reorder.
 */
#ifndef BPFSCEV_CLAIMS_FINDING_KIND_H
#define BPFSCEV_CLAIMS_FINDING_KIND_H

enum finding_kind {
	FIND_RANGE,		/* a value outside a range claim */
	FIND_TRIP_MAX,		/* more header executions than the claimed maximum */
	FIND_TRIP_MIN,		/* fewer than the claimed minimum, on a normal exit */
	FIND_IV,		/* an induction variable that did not step as claimed */
	FIND_CRASH,		/* the analyzer crashed, hung or tripped a sanitizer (campaign) */
	FIND_ENCODING,		/* a Z3 counterexample the interpreter does not confirm */
	FIND_KERNEL,		/* a kernel verifier claim refuted (kernel log ranges) */
	FIND_VERDICT,		/* a program called safe that faults in execution */
	FIND_RULE_GAP,		/* a program called safe that the kernel refuses by none of its
				 * limits: a rule the analyzer may not model (triage/verdict.h) */
};
#define FIND_KIND_LAST FIND_RULE_GAP
/* "range", "trip-max", ...: the kind's name in finding directories and reports; "?" out of
 * range. */
const char *finding_kind_name(enum finding_kind k);

#endif
