/* The campaign's optional oracles, run on a program after the concrete one (fuzz/program.c):
 *
 *   --z3      every claim decided by the Z3 oracle (oracle/z3/smt.h) within a per-program time
 *             budget: proved, refuted (a counterexample the interpreter confirmed: a finding)
 *             or unknown; a model the interpreter does not confirm is an encoding finding;
 *   --kernel  the one-pass verdict (bpfscev verify) against the running kernel's accept or
 *             reject (triage/verdict.h: both accept, both reject, improvement, regression;
 *             a program called safe that faults when run is a finding), and the kernel
 *             differential (oracle/kernel/kdiff.h): the verifier's logged ranges checked as claims on
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
#include "oracle/z3/smt.h"
#include "claims/claims.h"

/* Counters of the optional oracles (struct fuzz_stats.oracle_stats): what each oracle was
 * asked and what it answered. */
enum fuzz_oracle_stat {
	ORACLE_STAT_Z3_PROGRAMS,	/* programs whose claims went to Z3 */
	ORACLE_STAT_Z3_CLAIMS,
	ORACLE_STAT_Z3_PROVED,
	ORACLE_STAT_Z3_REFUTED,		/* counterexamples the interpreter confirmed */
	ORACLE_STAT_Z3_UNKNOWN,		/* timeout, budget, not inductive, unsupported */
	ORACLE_STAT_Z3_ENCODING,	/* models the interpreter did not confirm: oracle bugs */
	ORACLE_STAT_KERNEL_PROGRAMS,	/* programs the kernel verified */
	ORACLE_STAT_KERNEL_BOTH_ACCEPT,
	ORACLE_STAT_KERNEL_BOTH_REJECT,
	ORACLE_STAT_KERNEL_IMPROVEMENT,	/* bpfscev: safe, kernel: rejected */
	ORACLE_STAT_KERNEL_REGRESSION,	/* kernel: accepted, bpfscev: not shown safe */
	ORACLE_STAT_KERNEL_VERDICT_FAULTS,	/* called safe by bpfscev, faulted when run */
	ORACLE_STAT_KERNEL_CLAIM_PROGRAMS,	/* accepted programs whose verifier log gave
						 * claims */
	ORACLE_STAT_KERNEL_CLAIMS,	/* kernel range claims */
	ORACLE_STAT_KERNEL_CLAIM_CHECKS,	/* their evaluations on the interpreter */
	ORACLE_STAT_KERNEL_CLAIMS_REFUTED,	/* programs with a refuted kernel claim */
	ORACLE_STAT_KERNEL_TEST_RUNS,	/* programs whose BPF_PROG_TEST_RUN result was compared */
	ORACLE_STAT_KERNEL_RESULT_DIFF,	/* ... and differed from the interpreter (r0, packet,
					 * trap) */
	ORACLE_STAT_KERNEL_INVARIANT,	/* the verifier reported a bug in itself */
	ORACLE_STAT_KERNEL_ERRORS,	/* programs the kernel could not be asked about */
	ORACLE_STAT_COUNT
};
/* "z3_proved", ...: the counter's key in the state file */
const char *fuzz_oracle_stat_name(enum fuzz_oracle_stat stat);

struct fuzz_oracle_opts {
	bool z3, kernel;
	unsigned z3_timeout_ms;		/* per query; 0 = 500 (with an rlimit: smt's safety net) */
	double z3_budget_s;		/* per program; 0 = 2 (with an rlimit: none) */
	unsigned z3_rlimit;		/* Z3 resource units per query, 0 = none (oracle/z3/smt.h) */
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

struct fuzz_oracle_result {
	uint64_t stats[ORACLE_STAT_COUNT];
	double t_z3, t_kernel;		/* CPU seconds (verification is kernel time of this
					 * process, so it counts) */
	/* findings, complete (source "z3", "kernel...", "verdict"), with their signatures */
	struct finding **findings;
	uint32_t nfindings;
	struct fuzz_disagreement *dis;	/* NULL when none */
};

/* Runs the oracles opts asks for on prog (its maps in obj) with the analyzer's claims. */
int fuzz_oracles_run(struct fuzz_oracle_result *r, const struct fuzz_oracle_opts *opts,
		     const struct ebpf_object *obj, const struct ebpf_prog *prog,
		     const struct claim_prog *claims);
void fuzz_oracle_result__free(struct fuzz_oracle_result *r);
void fuzz_disagreement__free(struct fuzz_disagreement *d);

/* Saves d under dir/verdicts/ (a new directory, or the count of the one with its signature
 * raised).  *is_new says which; path receives the directory.  0 or -errno. */
int fuzz_save_disagreement(const char *dir, const struct fuzz_disagreement *d, const char *origin,
			   bool *is_new, char *path, size_t path_len);

#endif
