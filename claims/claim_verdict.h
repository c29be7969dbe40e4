/* A judge's answer about each claim: the one shape every oracle returns (fuzz/pipeline.h,
 * struct oracle_ops) and the pipeline's callers read, whichever oracle gave it.
 *
 *   proved     the claim holds for every input (Z3: by induction, or an unrolling that covers
 *              every path);
 *   refuted    an input shows it false: the counterexample (input, helper results, the observed
 *              value) and the kind of finding it makes;
 *   unknown    the judge looked and could not decide, with the reason ("held on every run": a
 *              concrete run never proves; "resource budget", "not inductive", ...);
 *   not judged the judge does not look at this claim (the kernel's verdict oracle judges the
 *              program's verdict, not the analyzer's claims).
 *
 * A claim set's verdicts are one entry per claim in a fixed order: the range claims (ranges[i]),
 * then per loop its trip-count claim followed by its induction-variable claims (loops[l].ivs[j]),
 * so every judge's answer about the same claim sits at the same index.  The pointers in an entry
 * (reason, counterexample) point into the judge's own result and live as long as it does.
 */
#ifndef BPFSCEV_CLAIMS_CLAIM_VERDICT_H
#define BPFSCEV_CLAIMS_CLAIM_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "claims/claims.h"

enum claim_judgement { CLAIM_NOT_JUDGED, CLAIM_PROVED, CLAIM_REFUTED, CLAIM_UNKNOWN };
enum claim_what { CLAIM_RANGE, CLAIM_TRIP, CLAIM_IV };

struct claim_verdict {
	uint8_t what;		/* enum claim_what */
	uint8_t judgement;	/* enum claim_judgement */
	uint8_t finding_kind;	/* refuted: enum finding_kind (claims/finding_kind.h) */
	uint32_t index;		/* ranges[index] (RANGE) or loops[index] (TRIP, IV) */
	uint32_t iv;		/* IV: loops[index].ivs[iv] */
	uint32_t pc;		/* the range claim's pc, or the loop header */
	const char *reason;	/* unknown: why; refuted: what was observed; proved: how; or NULL */
	/* refuted: the counterexample (NULL when the judge keeps none) */
	const uint8_t *input;
	size_t input_len;
	const uint8_t *helper;
	size_t helper_len;
	uint64_t observed;	/* the value, or the header execution count */
};

struct claim_verdicts {
	struct claim_verdict *v;
	uint32_t n;
};

/* One entry per claim of cp, in the order above, each not judged.  0 or -ENOMEM. */
int claim_verdicts__init(struct claim_verdicts *out, const struct claim_prog *cp);
void claim_verdicts__free(struct claim_verdicts *vs);	/* frees members, not vs */
/* The entry of claim (what, index, iv) — iv only for IV — or NULL when cp has no such claim. */
struct claim_verdict *claim_verdicts__at(struct claim_verdicts *vs, const struct claim_prog *cp,
					 enum claim_what what, uint32_t index, uint32_t iv);
/* How many entries have judgement j. */
uint32_t claim_verdicts__count(const struct claim_verdicts *vs, enum claim_judgement j);
/* "not judged", "proved", "refuted", "unknown"; "?" out of range. */
const char *claim_judgement_name(enum claim_judgement j);

#endif
