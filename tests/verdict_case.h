/* One verdict case held against what the test expects and against the kernel: our verdict and
 * reason, no fault in the runs of a program called safe (and at least one run), and — when the
 * kernel was asked — its class: kclass, or either agreement when kclass is VERDICT_CASE_AGREE.
 * Shared by the tests that keep tables of assembly cases (callbacks, iterators, helpers).
 */
#ifndef BPFSCEV_TESTS_VERDICT_CASE_H
#define BPFSCEV_TESTS_VERDICT_CASE_H

#include <string.h>

#include "tests/check.h"
#include "triage/verdict.h"

/* kclass for "the kernel agrees" (both accept or both reject) */
#define VERDICT_CASE_AGREE VC_BOTH_ACCEPT

/* The checks that need no kernel. */
static inline void verdict_case_check_ours(const char *name, const struct verdict_report *r,
					   uint8_t want, const char *reason)
{
	CHECK(r->ours.kind == want, "%s: verdict %s (%s), expected %s", name,
	      scev_verdict_name(r->ours.kind), r->ours.reason, scev_verdict_name(want));
	if (reason)
		CHECK(strstr(r->ours.reason, reason), "%s: reason '%s' lacks '%s'", name,
		      r->ours.reason, reason);
	CHECK(r->faults == 0, "%s: called safe but faults: %s", name, r->fault);
	if (r->ours.kind == VERDICT_SAFE)
		CHECK(r->runs > 0, "%s: called safe but never run", name);
}

static inline void verdict_case_check(const char *name, const struct verdict_report *r,
				      uint8_t want, const char *reason, bool kernel,
				      enum verdict_class kclass)
{
	verdict_case_check_ours(name, r, want, reason);
	if (!kernel)
		return;
	if (kclass == VERDICT_CASE_AGREE)
		CHECK(r->cls == VC_BOTH_ACCEPT || r->cls == VC_BOTH_REJECT,
		      "%s: %s (ours: %s %s; kernel: %s)", name, verdict_class_name(r->cls),
		      scev_verdict_name(r->ours.kind), r->ours.reason,
		      r->kernel_accepted ? "accepted" : r->kernel_message);
	else
		CHECK(r->cls == kclass, "%s: %s, expected %s (kernel: %s)", name,
		      verdict_class_name(r->cls), verdict_class_name(kclass),
		      r->kernel_accepted ? "accepted" : r->kernel_message);
}

#endif
