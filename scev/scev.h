/* The analysis: loops, recurrences, trip counts and value ranges of a program, as claims.
 *
 * For each function: the loop forest (loop.h); a first forward pass that forgets everything a
 * loop changes (a plain fixpoint with widening), to learn which frame bytes each store and call
 * through a pointer may write, and the state at every header over all its visits (the widening
 * climb of registers a one-block loop only steps computed on them alone: absint.c,
 * accelerate); then, innermost
 * loop first, a symbolic execution of each loop body that classifies every location the body
 * changes (recurrence x + c, accumulation x + d with d bounded, a function of recurrences, or
 * unknown) and records the exit conditions; and finally a forward range analysis in which each
 * loop header's state is computed once from the state entering the loop, the trip count and
 * those classes — never by walking iterations, so the cost does not depend on trip counts.  Trip
 * counts come from exits testing a recurrence, or an accumulation whose constant steps differ
 * between paths but share a sign, against a loop-invariant value (trip.h).  What a header step
 * forgets is met with the first pass's header state.  Irreducible loops forget what they change
 * at every entry.  The result is a claim_prog (claims.h).
 */
#ifndef BPFSCEV_SCEV_SCEV_H
#define BPFSCEV_SCEV_SCEV_H

#include <stdbool.h>
#include <stddef.h>

#include "bpf/prog.h"
#include "claims/claims.h"

enum scev_strategy {
	SCEV_FORGET,	/* non-recurrences: widened to what the type allows, one pass */
	SCEV_ITERATE,	/* non-recurrences: bounded fixpoint with widening, forget otherwise */
};

struct scev_opts {
	size_t sz;
	enum scev_strategy strategy;
	unsigned max_iterations;	/* ITERATE: header visits before forgetting; 0 = 8 */
	bool no_ranges;		/* loops, recurrences and trip counts only */
	uint32_t prog_type;	/* overrides prog->prog_type when non-zero */
	/* The verdict refuses reads of stack bytes not written on every path, as the kernel does
	 * for a loader without CAP_PERFMON; by default it follows the privileged kernel (root's:
	 * env->allow_uninit_stack), where such a read gives an unknown value. */
	bool unprivileged;
	/* The first pass runs every visit of a one-block loop, instead of computing apart the
	 * widening climb of the registers it only steps (absint.c, accelerate): the same claims,
	 * for tests that compare the two. */
	bool every_visit;
	/* Static callees analysed once from all their calls' arguments joined, not again per
	 * distinct call context (scev/contexts.c): for tests that compare the two. */
	bool merged_calls;
	/* What callees and callbacks write into their callers' frames taken from the summary
	 * rounds alone (first passes, which may widen a loop's offsets to the whole frame), not
	 * placed again by the last pass (scev.c, try_outer_shrink): for tests that compare the
	 * two. */
	bool rounds_outer_writes;
};

/* Analyzes prog (validated); maps are the object's maps (LD_IMM64 map indexes).  Fills out, which
 * the caller frees with claim_prog__free.  Returns 0 or -errno (out of memory) with d set; a
 * program that cannot be analyzed in part still returns 0 with out->note saying what. */
int scev_analyze(struct claim_prog *out, const struct ebpf_prog *prog,
		 const struct ebpf_map_def *maps, size_t nmaps, const struct scev_opts *opts,
		 struct diag *d);

/* A one-pass safety verdict from the same analysis: every loop bounded, every stack, context,
 * packet and map-value access inside its region, no read of a register or stack byte that is
 * not written on every path, helpers called with what they need, no recursion and call chains
 * within the kernel's depth and combined-stack limits.  Loops are never unrolled: their headers
 * take the recurrence ranges. */
enum scev_verdict_kind { VERDICT_SAFE, VERDICT_UNSAFE, VERDICT_UNSUPPORTED };

#define SCEV_VERDICT_FRAMES 64
/* Per-call bounds: one for every function but main the kernel can load (BPF_MAX_SUBPROGS, 256,
 * counts main); a program of more functions loses the bounds of those past the cap. */
#define SCEV_VERDICT_CALL_BOUNDS 255
#define SCEV_MG_MORE 4

struct scev_verdict {
	uint8_t kind;
	uint32_t pc;		/* the first instruction that could not be shown safe */
	char reason[256];
	uint64_t checks;	/* accesses, reads and calls checked */
	/* The call graph against the kernel's limits (scev/calls.h). */
	bool acyclic;		/* no recursion; the two below are meaningful only then */
	uint32_t max_frames;	/* deepest call chain, main included (the kernel allows 8) */
	uint32_t max_stack;	/* largest combined stack of a chain, each frame rounded up to
				 * 16 bytes (the kernel allows 512) */
	/* Each function's stack depth, unrounded, in pc order as the kernel prints its
	 * subprograms' ("stack depth 200+32"): the deepest byte below its r10 that it, or a
	 * callee or callback through a pointer into its frame, accesses — loads, stores, helper
	 * and kfunc memory arguments, iterator slots.  The first SCEV_VERDICT_FRAMES functions
	 * (nframes of them); complete for a safe verdict (an unsafe one stops at its first
	 * failure). */
	uint16_t nframes;
	uint16_t frame[SCEV_VERDICT_FRAMES];
	/* Instructions any run executes at most, from the trip claims and the call graph (an
	 * irreducible loop's blocks at most its count plus one per entry: the side entry's first
	 * pass); UINT64_MAX when unknown, and then ends says what a safe verdict's termination
	 * rests on.  A run of a program called safe that executes more, or that exhausts any
	 * budget when ends is SCEV_ENDS_NONE, contradicts the verdict (triage/verdict.h). */
	uint64_t max_insns;
	uint8_t ends;		/* enum scev_ends */
	/* When ends is SCEV_ENDS_MAY_GOTO: the instructions a run executes at most when each
	 * frame's may_goto budget is SCEV_MG_ORACLE_BUDGET (each loop that may_goto ends counted
	 * at that budget + 1 iterations per entry), which the termination oracle's runs take
	 * (triage/verdict.h); 0 when not stated. */
	uint64_t mg_insns;
	/* The same bound at the other budgets scev_mg_more_budget(k) a frame (0, 1, 64 and the
	 * kernel's 2^23), 0 when not stated: the oracle's runs take each budget whose bound fits
	 * their step budget, in turn. */
	uint64_t mg_more[SCEV_MG_MORE];
	/* Per-call bounds, for a run the step budget cuts before max_insns: for each function but
	 * main (the program's own, a copy's at its original's first pc; the first
	 * SCEV_VERDICT_CALL_BOUNDS in pc order that state one), the most instructions one call of
	 * it executes, its callees and callbacks included (the trip claims of the loops in it and
	 * below it; UINT64_MAX: none stated, as when one of them rests on tail calls or callbacks
	 * no claim counts), and for a callback, the most calls one helper call makes of it (its
	 * callback loop's trip claim; UINT32_MAX: none).  A function with a loop that only
	 * may_goto ends in it or below it states its bound at SCEV_MG_ORACLE_BUDGET (mg: each such
	 * loop counted at that budget + 1 passes per entry), which holds in runs whose may_goto
	 * budget a frame is at most that (0, 1 and 8; not 64, nor the kernel's).  A run in which
	 * one call of a function takes more, or one helper call calls its callback more often,
	 * contradicts the verdict (triage/verdict.h) even when the budget stops it long before
	 * max_insns. */
	uint16_t ncall_bounds;
	struct scev_call_bound {
		uint32_t start;		/* the function's first pc */
		uint32_t calls;		/* a callback's calls per helper call, or UINT32_MAX */
		uint64_t insns;		/* one call's instructions, or UINT64_MAX */
		bool mg;		/* insns holds at may_goto budgets up to SCEV_MG_ORACLE_BUDGET */
	} call_bound[SCEV_VERDICT_CALL_BOUNDS];
	/* Main's own instructions: the most a run executes while no helper's callback runs (in
	 * main's frame and its bpf-to-bpf callees'; each callback call is held to its own bound
	 * above), 0 when not stated (a tail call, a loop with no bound); main_own_mg as mg
	 * above.  Stated when it is less than max_insns: a verdict whose bound passes the step
	 * budget because of its callbacks (a bpf_loop whose nr may reach 2^23) still bounds the
	 * rest of the run. */
	uint64_t main_own;
	bool main_own_mg;
};
/* The may_goto budget per frame mg_insns is stated at. */
#define SCEV_MG_ORACLE_BUDGET 8u
/* ... and those mg_more is: 0, 1, 64 and the kernel's count (BPF_MAX_LOOPS). */
static inline uint32_t scev_mg_more_budget(unsigned k)
{
	return k == 0 ? 0 : k == 1 ? 1 : k == 2 ? 64 : 1u << 23;
}

/* What a safe verdict's termination rests on when max_insns is UINT64_MAX. */
enum scev_ends {
	SCEV_ENDS_BOUND,	/* the trip claims: max_insns, or a bound past 2^64 (a long loop) */
	SCEV_ENDS_CALLS,	/* also tail calls, or callbacks whose calls no claim counts (the
				 * kernel's 33 tail calls and their helpers' limits end them) */
	SCEV_ENDS_MAY_GOTO,	/* a loop with no bound on its count that the may_goto budget ends */
	SCEV_ENDS_NONE,		/* nothing: a reached block in a loop with neither a bound nor an
				 * ender (no safe verdict should have it) */
};
const char *scev_ends_name(enum scev_ends e);

/* Analyzes and verifies prog; claims (optional) receives the claims as scev_analyze would. */
int scev_verify(struct scev_verdict *v, struct claim_prog *claims, const struct ebpf_prog *prog,
		const struct ebpf_map_def *maps, size_t nmaps, const struct scev_opts *opts,
		struct diag *d);
const char *scev_verdict_name(enum scev_verdict_kind k);

#endif
