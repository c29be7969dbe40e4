/* Reproducing a saved finding: does it still hold against the current analyzer (or the claims
 * saved with it)?  What `bpfscev replay` and the predicates of `bpfscev reduce DIR` ask.
 *
 * The finding's program goes through the one pipeline (pipeline.h): analyzed with the finding's
 * strategy and type (or its claims.json taken as the claims), judged by the execution oracle on
 * the saved input, then, when asked, on the all-zero input and on drawn inputs, until a finding
 * of the same kind at the same place shows.  A crash finding goes through the same pipeline
 * analyzing in a child process with a time limit (pipeline_opts.isolate_s); a finding only the
 * kernel oracle makes (a kernel difference, a safe verdict that faults, an exit claim the
 * kernel's run refutes) through the pipeline's kernel oracle on the saved input.
 */
#ifndef BPFSCEV_FUZZ_REPLAY_H
#define BPFSCEV_FUZZ_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf/isa.h"
#include "claims/claims.h"
#include "triage/finding.h"
#include "triage/reduce.h"

enum replay_match {
	REPLAY_MATCH_EXACT,	/* same kind at the same pc and location (or loop header) */
	REPLAY_MATCH_CORE,	/* same kind and core signature anywhere (programs being reduced) */
};

struct replay_opts {
	size_t sz;
	enum replay_match match;
	bool saved_claims;	/* check claims.json instead of re-running the analyzer (EXACT only) */
	bool zero_input;	/* also try the all-zero input */
	uint32_t runs;		/* also try this many generated inputs (seed 0); 0 = none */
	double timeout;		/* crash findings: analyzer time limit in seconds; 0 =
				 * REPLAY_CRASH_TIMEOUT_S */
	uint64_t step_budget;	/* instructions per oracle run; 0 = REPLAY_STEPS (candidates of a
				 * reduction loop forever easily; kernel-side findings: the
				 * pipeline's kernel budget) */
	/* Called on the fresh claims before they are checked: lets tests plant an analyzer bug. */
	void (*mutate)(void *arg, struct claim_prog *cp);
	void *mutate_arg;
};

#define REPLAY_STEPS 200000	/* interpreter instructions per run */
#define REPLAY_INPUT_LEN 64	/* drawn input bytes when the finding saved no input */
#define REPLAY_RUNS_NO_INPUT 48	/* drawn inputs of the first pass when it saved none */
#define REPLAY_CRASH_TIMEOUT_S 5.0	/* a crash finding's analyzer time limit */

struct replay_verdict {
	bool holds;
	bool skipped;		/* not asked: the finding needs the kernel and bpf() is refused
				 * (text says why) */
	char text[512];		/* what was observed (the matching finding, or why not) */
	uint32_t findings;	/* findings of any kind the oracle reported */
	const uint8_t *input;	/* which input showed it: f->input, or NULL for zero/generated */
	char crash[96];		/* crash findings: the class observed, "" when it ran fine */
};

/* Whether replaying f asks the running kernel (a kernel difference, an exit claim the kernel's run
 * refuted): without bpf(), replay_check answers skipped. */
bool replay_needs_kernel(const struct finding *f);

/* Checks whether f still holds for the program p (its instructions and global functions'
 * prototypes; f's own program when p is NULL).  Returns 0 with v filled, or -errno (an
 * invalid program gives 0 and holds = false). */
int replay_check(const struct finding *f, const struct reduce_prog *p,
		 const struct replay_opts *o, struct replay_verdict *v);

#endif
