/* The campaign's optional oracles, run on a program after the concrete one (fuzz/campaign.c):
 *
 *   --z3      every claim decided by the Z3 oracle (oracle/smt.h) within a per-program time
 *             budget: proved, refuted (a counterexample the interpreter confirmed: a finding)
 *             or unknown; a model the interpreter does not confirm is an encoding finding;
 *   --kernel  the one-pass verdict (bpfscev verify) against the running kernel's accept or
 *             reject (triage/verdict.h: both accept, both reject, improvement, regression;
 *             a program called safe that faults when run is a finding), and the kernel
 *             differential (oracle/kdiff.h): the verifier's logged ranges checked as claims on
 *             the interpreter, r0 and the packet against BPF_PROG_TEST_RUN; a refuted kernel
 *             claim, a different result or an invariant violation is a kernel finding.
 *
 * A verdict disagreement (improvement or regression) is not a bug by itself; it is saved with
 * both logs under <crashes>/verdicts/<class>-<16 hex>/ (prog.case, bpfscev.txt, kernel.log,
 * count), one directory per signature (the class, our reason and the kernel's message with the
 * numbers taken out), so a campaign leaves a handful of representative programs.
 */
#ifndef BPFSCEV_FUZZ_ORACLES_H
#define BPFSCEV_FUZZ_ORACLES_H

#include <stdbool.h>
#include <stdint.h>

#include "bpf/prog.h"
#include "triage/finding.h"
#include "oracle/smt.h"
#include "claims/claims.h"

/* Counters of the optional oracles (struct fuzz_stats.x). */
enum fuzz_xstat {
	FX_Z3_PROGRAMS,		/* programs whose claims went to Z3 */
	FX_Z3_CLAIMS,
	FX_Z3_PROVED,
	FX_Z3_REFUTED,		/* counterexamples the interpreter confirmed */
	FX_Z3_UNKNOWN,		/* timeout, budget, not inductive, unsupported */
	FX_Z3_ENCODING,		/* models the interpreter did not confirm: oracle bugs */
	FX_K_PROGRAMS,		/* programs the kernel verified */
	FX_K_BOTH_ACCEPT,
	FX_K_BOTH_REJECT,
	FX_K_IMPROVEMENT,	/* bpfscev: safe, kernel: rejected */
	FX_K_REGRESSION,	/* kernel: accepted, bpfscev: not shown safe */
	FX_K_VERDICT_FAULTS,	/* called safe by bpfscev, faulted when run */
	FX_K_CLAIM_PROGRAMS,	/* accepted programs whose verifier log gave claims */
	FX_K_CLAIMS,		/* kernel range claims */
	FX_K_CLAIM_CHECKS,	/* their evaluations on the interpreter */
	FX_K_CLAIMS_REFUTED,	/* programs with a refuted kernel claim */
	FX_K_TEST_RUNS,		/* programs whose BPF_PROG_TEST_RUN result was compared */
	FX_K_RESULT_DIFF,	/* ... and differed from the interpreter (r0, packet, trap) */
	FX_K_INVARIANT,		/* the verifier reported a bug in itself */
	FX_K_ERRORS,		/* programs the kernel could not be asked about */
	FX_N
};
const char *fuzz_xstat_name(enum fuzz_xstat x);	/* "z3_proved", ... (the state file) */

struct fuzz_xopts {
	bool z3, kernel;
	unsigned z3_timeout_ms;		/* per query; 0 = 500 (with an rlimit: smt's safety net) */
	double z3_budget_s;		/* per program; 0 = 2 (with an rlimit: none) */
	unsigned z3_rlimit;		/* Z3 resource units per query, 0 = none (oracle/smt.h) */
	uint64_t z3_program_rlimit;	/* ... per program, 0 = none */
	uint64_t seed;			/* inputs of the kernel's claims and of a safe program */
};

/* A verdict disagreement, ready for fuzz_save_disagreement in the parent. */
struct fuzz_disagreement {
	uint8_t cls;			/* enum verdict_class: VC_IMPROVEMENT or VC_REGRESSION */
	uint64_t sig;
	char *case_text;		/* the program as a corpus case (asm, type, maps) */
	char *ours;			/* our verdict, its instruction and reason */
	char *kernel_log;		/* the kernel's message and log (statistics level) */
};

struct fuzz_xresult {
	uint64_t x[FX_N];
	double t_z3, t_kernel;		/* CPU seconds (verification is kernel time of this
					 * process, so it counts) */
	/* findings, complete (source "z3", "kernel...", "verdict"), with their signatures */
	struct finding **findings;
	uint32_t nfindings;
	struct fuzz_disagreement *dis;	/* NULL when none */
};

/* Runs the oracles xo asks for on prog (its maps in obj) with the analyzer's claims. */
int fuzz_xrun(struct fuzz_xresult *r, const struct fuzz_xopts *xo, const struct ebpf_object *obj,
	      const struct ebpf_prog *prog, const struct claim_prog *claims);
void fuzz_xresult__free(struct fuzz_xresult *r);
void fuzz_disagreement__free(struct fuzz_disagreement *d);

/* Saves d under dir/verdicts/ (a new directory, or the count of the one with its signature
 * raised).  *is_new says which; path receives the directory.  0 or -errno. */
int fuzz_save_disagreement(const char *dir, const struct fuzz_disagreement *d, const char *origin,
			   bool *is_new, char *path, size_t path_len);

#endif
