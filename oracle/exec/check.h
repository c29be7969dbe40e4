/* The concrete oracle: runs a program on many inputs in the interpreter and checks every claim
 * against what actually happens.  It knows only the claims, the program and the interpreter —
 * never how the claims were derived — so it checks claims from any source (the analyzer, the
 * kernel's verifier log, a hand-written file).
 *
 * Inputs: the all-zero input, a few patterns (all 0xff, 0x80, 0x7f), random bytes, and random
 * inputs with one 4-byte word or one byte set to a boundary value (0, 1, 0x7f, 0x80, 0xff,
 * 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff), so bounds read from the input meet their
 * extremes; helper results (prandom and friends) are drawn from a random stream per run.
 * Each visit of a claimed pc checks that pc's range claims (one the visit of the instruction
 * just before implies, its cell unchanged since a claim there that held and covers it, is judged
 * held without testing the value again: check.c's struct pcidx); header visits count iterations
 * per loop entry (per call frame) and check the induction-variable and trip-count claims.  The
 * callbacks of timers a run leaves armed run after it (interp.h: INTERP_TIMER_FIRES), so the
 * claims inside a timer callback are checked on those runs like any other.
 */
#ifndef BPFSCEV_ORACLE_CHECK_H
#define BPFSCEV_ORACLE_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf/prog.h"
#include "oracle/exec/interp.h"
#include "claims/claims.h"
#include "claims/finding_kind.h"
#include "oracle/exec/safe_run.h"

struct check_finding {
	uint8_t kind;
	uint32_t pc;		/* the claim's pc, or the loop header */
	loc_t loc;		/* range and IV findings */
	uint64_t observed;	/* the value, or the header execution count */
	uint32_t claim;		/* index into ranges[] or loops[] of the claim_prog */
	char text[320];		/* human-readable: claim and observation */
	uint8_t *input;		/* the input that shows it */
	size_t input_len;
	uint8_t *helper_data;
	size_t helper_len;
};

struct check_opts {
	size_t sz;
	uint64_t seed;
	uint32_t runs;		/* inputs to try; 0 = 48 */
	uint64_t step_budget;	/* per run; 0 = 2,000,000 */
	size_t input_len;	/* bytes of input; 0 = 64 */
	int ctx_kind;		/* enum interp_ctx_kind + 1; 0 = from the program's type */
	const uint8_t *input;	/* when set: exactly one run with this input... */
	size_t fixed_len;
	const uint8_t *helper_data;	/* ...and these helper results */
	size_t helper_len;
	bool first_only;	/* stop at the first finding */
	uint32_t first_input;	/* start the input sequence at this number (0 = the all-zero
				 * input, 1-3 the patterns, then random): a campaign that runs few
				 * inputs per program rotates it so its programs see them all */
	/* A program called safe: the same runs also judge the verdict (safe_run.h), watched for
	 * reads of unwritten bytes (stackinit.h) and, by the privileged rule, with frames that
	 * start with the run's helper bytes.  NULL: the claims alone. */
	const struct safe_rule *safe;
};

struct check_result {
	uint64_t runs;
	uint64_t traps;		/* runs that ended in a trap (checked up to the trap) */
	uint64_t checks;	/* claim evaluations (implied ones included) */
	uint64_t *max_trip;	/* per claimed loop: the most header executions seen in one entry */
	uint32_t nloops;
	struct check_finding *findings;	/* at most one per claim */
	uint32_t nfindings;
	uint8_t *seen;		/* per slot: 1 when some run reached a claimed pc there (its
				 * claims were judged), timer callbacks' runs included */
	uint32_t nslots;
	uint64_t timer_fires;	/* timer callbacks the runs fired after the program */
	/* check_opts.safe: runs that broke the rule, the first one's text, input and helper
	 * results (heap) */
	uint64_t safe_faults;
	char safe_fault[256];
	uint8_t *safe_input, *safe_helper;
	size_t safe_input_len, safe_helper_len;
};

/* Checks claims (the claim_prog for prog) against runs of prog.  obj supplies the maps.
 * Returns 0 (findings in res) or -errno. */
int oracle_check(struct check_result *res, const struct ebpf_object *obj,
		 const struct ebpf_prog *prog, const struct claim_prog *claims,
		 const struct check_opts *opts);
void check_result__free(struct check_result *res);
/* Context kind for a program type (the ebpf_prog_ctx_model mapping, in interpreter terms). */
enum interp_ctx_kind check_ctx_kind(uint32_t prog_type);

#endif
