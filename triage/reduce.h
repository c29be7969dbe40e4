/* The minimizer: the smallest program that still shows a property, by delta debugging.
 *
 * The caller says what "still shows it" means with a test (triage/predicate.h builds one from
 * the kernel's verdict, its log, runs, the analyzer or an external command); the reducer only
 * ever offers it valid programs (ebpf_validate), so a test never sees a jump into nowhere.
 * A candidate is a program with its maps and program type (struct reduce_prog), and the passes
 * (reduce_passes.c), in this order, each offer candidates derived from the current program:
 *   subprograms   a bpf-to-bpf function removed, its calls replaced by r0 = 0
 *   loops         a whole loop (back-edge target to back edge) removed
 *   branches      a conditional jump made always taken (the skipped block removed) or never
 *                 taken (with the else block of an if/else)
 *   dead code     every instruction unreachable from the entry, at once
 *   chunks        ddmin over instructions (Zeller and Hildebrandt): chunks of halving size;
 *                 jumps re-targeted to the next instruction that survives, a jump with nothing
 *                 after its target removed, a final exit appended when needed; an LD_IMM64 is
 *                 one instruction of two slots
 *   helpers       a helper or kfunc call replaced by r0 = 0 or r0 = 1
 *   maps          an unused map removed; a map made an array, of one entry, with smaller
 *                 keys and values
 *   type          the program type made the simplest that keeps it: socket filter, XDP, tc
 *   constants     each immediate towards 0: 0, 1, half, one closer
 *   registers     register operands replaced by the constants 0 and 1; registers renamed
 *                 towards r0 (never r10 for a destination)
 *   single        one instruction at a time, from the end
 * Every candidate must be smaller than the current program in the order (slots, calls, maps,
 * map sizes, program type, register operands, constant sizes, register numbers), so each
 * accepted step makes progress and the search ends.  Rounds of all passes repeat until one
 * accepts nothing (a fixpoint); that last round's single pass then tried every single
 * instruction's removal on the final program and none kept the property: the result is
 * 1-minimal (reduce_stats.one_minimal), unless a test of that round failed to run or the
 * budget stopped it, which the stats say.
 *
 * Tests run in this process, or — with jobs > 1 or a per-test timeout — each in a forked
 * child (its own process group, killed at the timeout), up to jobs at once: a pass offers the
 * next jobs candidates together and the first of them in order that holds is taken, so the
 * result does not depend on which test finishes first.  Candidates already tested are
 * answered from a cache (by a 128-bit hash of the program, its maps and type).
 */
#ifndef BPFSCEV_TRIAGE_REDUCE_H
#define BPFSCEV_TRIAGE_REDUCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf/isa.h"
#include "bpf/prog.h"
#include "util/err.h"

/* A candidate: instructions, the maps they reference (LD_IMM64 imm = index) and the type. */
struct reduce_prog {
	struct bpf_insn *insns;
	size_t len;			/* slots */
	struct ebpf_map_def *maps;	/* init points into the caller's data (never freed here) */
	size_t map_cnt;
	uint32_t prog_type;
	/* The global functions' prototypes (ebpf_prog.globals, by their first slot): a deletion
	 * moves each to where its function now starts, and drops the prototype of a function no
	 * call or function address reaches any more, so a candidate loads with the prototypes
	 * it was found with. */
	struct ebpf_global_func *globals;
	size_t nglobals;
};
void reduce_prog__free(struct reduce_prog *p);	/* members; NULL ok */
size_t reduce_count_insns(const struct bpf_insn *insns, size_t len);	/* LD_IMM64 once */

/* 1: the candidate shows the property; 0: it does not; -errno: the test could not run (counted
 * in reduce_stats.errors and taken as "does not").  Called from forked children when tests
 * run in parallel or under a timeout. */
typedef int (*reduce_test_fn)(void *arg, const struct reduce_prog *p);

enum reduce_pass_id {
	RP_SUBPROGS, RP_LOOPS, RP_BRANCHES, RP_DEAD, RP_CHUNKS, RP_HELPERS, RP_MAPS, RP_TYPE,
	RP_CONSTS, RP_REGS, RP_SINGLE, RP_NR
};
const char *reduce_pass_name(enum reduce_pass_id p);

struct reduce_progress {
	size_t insns, slots, insns_before;
	unsigned tests, cached, round;
	double seconds;
	const char *pass;
};

struct reduce_run_opts {
	size_t sz;
	unsigned max_tests;	/* tests at most; 0 = 20,000 */
	double budget;		/* seconds of wall time at most; 0 = none */
	double timeout;		/* seconds per test (runs it in a child); 0 = none */
	unsigned jobs;		/* tests at once (forked children); 0 or 1 = one */
	unsigned skip;		/* bit (1 << enum reduce_pass_id): passes not to run */
	bool no_cache;
	/* Called after each accepted step and about every batch: progress output (may be NULL). */
	void (*progress)(void *arg, const struct reduce_progress *pr);
	void *progress_arg;
};

struct reduce_stats {
	size_t slots_before, slots_after;
	size_t insns_before, insns_after;	/* instructions (LD_IMM64 counts once) */
	size_t maps_before, maps_after;
	unsigned tests;		/* tests run (the first, on the input, included) */
	unsigned cached;	/* candidates answered by the cache */
	unsigned errors;	/* tests that could not run (-errno, crashed children) */
	unsigned timeouts;	/* tests killed at the timeout (also counted in errors) */
	unsigned accepted;	/* steps kept */
	unsigned by_pass[RP_NR];	/* steps kept per pass */
	unsigned rounds;	/* rounds of all passes */
	bool budget_hit;	/* stopped by max_tests or the time budget */
	bool fixpoint;		/* a whole round accepted nothing */
	bool one_minimal;	/* ... and every single-instruction removal of the result was
				 * tested and none kept the property (no errors in that round) */
	unsigned proof_tests;	/* removals tried in that last single pass (tests + cached) */
	double seconds;
};

/* Minimizes in (which must satisfy test: -EINVAL with d saying so otherwise).  On 0, *out
 * holds the result (free with reduce_prog__free); st may be NULL.  -ENOMEM, -EINVAL (in is
 * not a valid program). */
int reduce_run(struct reduce_prog *out, const struct reduce_prog *in, reduce_test_fn test,
	       void *arg, const struct reduce_run_opts *opts, struct reduce_stats *st,
	       struct diag *d);

/* ---- the instruction-only interface (saved findings, tests) ---- */

/* True when the candidate still shows what is being reduced. */
typedef bool (*reduce_pred_fn)(void *arg, const struct bpf_insn *insns, size_t len);

struct reduce_opts {
	size_t sz;
	unsigned max_tests;	/* predicate calls at most; 0 = 20,000 */
	bool no_insns, no_consts, no_regs;	/* skip a kind of step */
	/* Called after accepted steps (may be NULL): progress output; insns is NULL. */
	void (*progress)(void *arg, const struct bpf_insn *insns, size_t len, unsigned tests);
	void *progress_arg;
};

/* reduce_run with the passes o selects (never maps or type), in this process: how a saved
 * finding's program (with its global functions' prototypes) is reduced. */
int reduce_run_opts(struct reduce_prog *out, const struct reduce_prog *in, reduce_test_fn test,
		    void *arg, const struct reduce_opts *o, struct reduce_stats *st);

/* Minimizes insns[len] (no maps, type UNSPEC) with every pass but maps and type, in this
 * process.  insns must satisfy pred: -EINVAL otherwise, -ENOMEM on allocation failure.  On 0,
 * *out (heap, caller frees) and *out_len hold the result; st may be NULL. */
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
