/* The minimizer: the smallest program that still shows a finding, by delta debugging.
 *
 * The caller says what "still shows it" means with a predicate; the reducer only ever offers
 * it valid programs (ebpf_validate), so a predicate never sees a jump into nowhere.  Three
 * kinds of step, repeated until none makes progress (a fixpoint) or the test budget runs out:
 *   1. instructions: ddmin (Zeller and Hildebrandt) over whole instructions — an LD_IMM64 is one
 *      unit of two slots — removing chunks of halving size, then one at a time.  Jumps are
 *      re-targeted to the next instruction that survives; a jump with nothing left after its
 *      target disappears; a program that no longer ends in exit gets one.
 *   2. constants: each immediate (ALU, conditional jumps, stores, LD_IMM64 values) towards 0:
 *      0, 1, half, one closer.
 *   3. registers: each register operand towards r0 (never r10 for a destination), and
 *      register operands of ALU and jumps replaced by the constants 0 and 1.
 * A program is smaller when it has fewer slots, then smaller constants, then lower registers,
 * so every accepted step makes progress and the loop ends.
 */
#ifndef BPFSCEV_TRIAGE_REDUCE_H
#define BPFSCEV_TRIAGE_REDUCE_H

#include <stdbool.h>
#include <stddef.h>

#include "bpf/isa.h"

/* True when the candidate still shows what is being reduced. */
typedef bool (*reduce_pred_fn)(void *arg, const struct bpf_insn *insns, size_t len);

struct reduce_opts {
	size_t sz;
	unsigned max_tests;	/* predicate calls at most; 0 = 20,000 */
	bool no_insns, no_consts, no_regs;	/* skip a kind of step */
	/* Called after each accepted step (may be NULL): for progress output. */
	void (*progress)(void *arg, const struct bpf_insn *insns, size_t len, unsigned tests);
	void *progress_arg;
};

struct reduce_stats {
	size_t slots_before, slots_after;
	size_t insns_before, insns_after;	/* instructions (LD_IMM64 counts once) */
	unsigned tests;		/* predicate calls */
	unsigned accepted;	/* steps kept */
	unsigned rounds;	/* passes over all three kinds of step */
	bool budget_hit;	/* stopped by max_tests before the fixpoint */
};

/* Minimizes insns[len] (which must satisfy pred: -EINVAL otherwise, -ENOMEM on allocation
 * failure).  On 0, *out (heap, caller frees) and *out_len hold the result; st may be NULL. */
int oracle_reduce(struct bpf_insn **out, size_t *out_len, const struct bpf_insn *insns,
		  size_t len, reduce_pred_fn pred, void *arg, const struct reduce_opts *opts,
		  struct reduce_stats *st);

/* The instruction-deletion step alone, for tests: builds the program without the instructions
 * whose keep[] entry (indexed by slot; the first slot of an LD_IMM64 speaks for both) is false,
 * re-targeting jumps as described above.  Returns the new length, or 0 when the result is not
 * a valid program.  out must hold len + 1 slots. */
size_t oracle_reduce_delete(struct bpf_insn *out, const struct bpf_insn *insns, size_t len,
			    const bool *keep);

#endif
