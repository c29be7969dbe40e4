/* The campaign: generate programs, analyze them, check every claim, keep what fails.
 *
 * Program i of a campaign is generated from fuzz_program_seed(seed, i) alone, so a campaign is
 * a numbered sequence: the same seed gives the same programs, claims, checks and findings in
 * any order and with any number of processes, and an interrupted campaign resumes from the
 * numbers it had not finished (the state file in the findings directory lists them).
 *
 * The analyzer must survive every program.  With jobs > 0 the work runs in worker processes
 * that take batches of program numbers and report each program as they finish it; the parent
 * watches them through a shared page (which program, which phase, since when).  A worker that
 * dies — a signal, a sanitizer report — or stays too long in one phase (in the analyzer: CPU
 * time, so that a busy machine does not make hangs) is killed, its program is run again alone
 * in a fresh worker, and if that fails too the program is saved as a crash finding with the
 * worker's stderr; the rest of the batch goes back in the queue.
 * With jobs = 0 everything runs in the calling process (tests, benchmarks): faster to set up,
 * but a crash takes the caller with it.
 *
 * Findings are saved (triage/finding.h) the moment the parent hears of them, one directory per
 * signature; the earliest program of the campaign is kept as the example, so the directories do
 * not depend on the number of workers either.
 */
#ifndef BPFSCEV_FUZZ_CAMPAIGN_H
#define BPFSCEV_FUZZ_CAMPAIGN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz/pipeline.h"
#include "generators/gen.h"
#include "oracle/exec/check.h"
#include "triage/finding.h"
#include "scev/scev.h"
#include "util/err.h"

#define FUZZ_KINDS 9			/* enum finding_kind values */
#define FUZZ_KINDS_BEFORE 8		/* ... before rule-gap findings: a state file written
					 * then has 8 counts, read with the new kind at 0 */
#define FUZZ_RATIO_STEPS 16		/* ratio histogram buckets per doubling */
#define FUZZ_RATIO_BUCKETS (2 + 64 * FUZZ_RATIO_STEPS)
#define FUZZ_DEFAULT_RUNS 2		/* inputs per program (consecutive programs rotate over
					 * the first FUZZ_INPUT_CYCLE: see docs/BENCHMARKS.md) */
#define FUZZ_DEFAULT_STEPS 10000	/* instructions per run */
#define FUZZ_INPUT_CYCLE 6		/* programs rotate over the first 6 oracle inputs */
#define FUZZ_STATE_FILE "campaign.state"
#define FUZZ_LOCK_FILE "campaign.lock"	/* one campaign per findings directory */

struct fuzz_stats {
	uint64_t seed;
	uint64_t first, next;		/* programs first..next-1 are all done (plus done_extra) */
	uint64_t done_extra;		/* programs at or after next already done (out of order) */
	uint64_t programs;		/* generated, analyzed and checked */
	uint64_t gen_failures;		/* seeds the generator refused (counted, skipped) */
	uint64_t loops;			/* loops the analyzer found */
	uint64_t loops_bounded;		/* ... with a finite maximum trip count (bounded or exact) */
	uint64_t loops_exact;		/* ... with an exact trip count */
	uint64_t loops_ran;		/* finite ones that ran: the ratio's population */
	uint64_t loops_entered;		/* every loop some run entered, finite or not */
	uint64_t range_claims;
	uint64_t claims_checked;	/* claim evaluations by the oracle */
	uint64_t runs, traps;		/* oracle runs, and those that ended in a trap or budget */
	uint64_t found[FUZZ_KINDS];	/* occurrences: (program, signature) pairs */
	uint64_t saved[FUZZ_KINDS];	/* signatures saved by this campaign (directories) */
	uint64_t unconfirmed;		/* worker deaths that did not happen again alone */
	/* claimed maximum / largest observed trip count, per loop that ran: bucket 0 below 1
	 * (unsound), 1 exactly 1, then FUZZ_RATIO_STEPS buckets per doubling */
	uint64_t ratio[FUZZ_RATIO_BUCKETS];
	double seconds;			/* wall time, all sessions of the campaign */
	double session_seconds;		/* wall time of this call */
	uint64_t session_programs;	/* programs done by this call */
	double t_gen, t_analyze, t_check;	/* CPU seconds in each phase (all processes) */
	/* every oracle's counters (fuzz/pipeline.h: pipeline_stat_name() names them; Z3's
	 * verdicts, the kernel's classes) and CPU seconds (per oracle of the registry; the
	 * execution oracle's are t_check) */
	uint64_t oracle_stats[PIPELINE_MAX_STATS];
	uint64_t disagreements_saved;	/* verdict disagreement directories written */
	double t_oracles[PIPELINE_MAX_ORACLES];
	unsigned workers;		/* processes working right now */
};

/* The median of the ratio histogram (the geometric middle of its bucket); 0 when empty. */
double fuzz_stats_median_ratio(const struct fuzz_stats *st);
uint64_t fuzz_stats_findings(const struct fuzz_stats *st);	/* occurrences, all kinds */
uint64_t fuzz_stats_saved(const struct fuzz_stats *st);

struct fuzz_opts {
	size_t sz;
	uint64_t seed;
	uint64_t first;			/* number of the first program */
	uint64_t count;			/* programs in the campaign; 0 = until the time or *stop */
	double seconds;			/* wall-time limit of this call; 0 = none */
	unsigned jobs;			/* worker processes; 0 = in the calling process */
	const char *crashes;		/* findings directory (and state file); NULL = keep nothing */
	bool resume;			/* continue the campaign in crashes/campaign.state: its seed,
					 * knobs and oracle settings replace these */
	const struct gen_knobs *knobs;	/* NULL = defaults */
	enum scev_strategy strategy;
	uint32_t oracle_runs;		/* inputs per program; 0 = FUZZ_DEFAULT_RUNS */
	uint64_t step_budget;		/* instructions per run; 0 = FUZZ_DEFAULT_STEPS */
	double timeout;			/* CPU seconds one program may spend in the analyzer (a
					 * hang finding past it, whatever the machine's load);
					 * 0 = 2 */
	unsigned batch;			/* programs per batch handed to a worker; 0 = 32 */
	const char *replay_cmd;		/* bpfscev binary named in replay.sh; NULL = "bpfscev" */
	/* optional oracles on every program (fuzz/pipeline.h) */
	bool z3;			/* every claim to Z3 */
	unsigned z3_timeout_ms;		/* per query; 0 = 500 (with an rlimit: a safety net) */
	double z3_budget;		/* seconds per program; 0 = 2 (with an rlimit: none) */
	/* Z3 resource limits (oracle/z3/smt.h): with either set, the verdicts are the same on every
	 * machine however loaded, which the clock limits above are not */
	unsigned z3_rlimit;		/* resource units per query; 0 = none */
	uint64_t z3_program_rlimit;	/* resource units per program; 0 = none */
	bool kernel;			/* verdicts and logs against the running kernel (the caller
					 * checks kernel_available() first) */
	bool unprivileged;		/* verdicts by the unprivileged rule (verdict_opts) */
	/* Called about 4 times a second with the running totals (may be NULL). */
	void (*progress)(void *arg, const struct fuzz_stats *st);
	/* Called for every finding the parent hears of (may be NULL): where it went and how. */
	void (*on_finding)(void *arg, const struct finding *f, enum finding_save_result res,
			   const char *path);
	void *arg;
	/* Test hook (NULL normally): called in the process doing the work just before the
	 * analyzer runs on program index — a test makes it crash or hang to exercise the
	 * isolation without a real analyzer bug. */
	void (*fault)(void *arg, uint64_t index);
	/* Test hook (NULL normally): called in the process doing the work just after the
	 * analyzer, may change the claims of program index — a test plants wrong claims to have
	 * many findings (and signatures) to save without an analyzer bug. */
	void (*plant)(void *arg, uint64_t index, struct claim_prog *cp);
	/* Set by the caller (e.g. from a SIGINT handler): 1 = stop handing out work, let the
	 * workers finish their batch, save the state and return; 2 = stop now. */
	volatile sig_atomic_t *stop;
};

/* Runs a campaign.  st receives the totals (also when it stopped early).  Returns 0, or -errno
 * with d set (a bad state file: -EINVAL with its line; a directory another campaign holds:
 * -EBUSY with its pid; a directory that cannot be written, -ENOSPC among them; fork failure).
 * A program counts as done — in st and in the state file — only once its findings are on disk,
 * so a campaign stopped by a full disk, or killed, and then resumed saves every finding. */
int fuzz_campaign(struct fuzz_stats *st, const struct fuzz_opts *opts, struct diag *d);

/* The generator seed of program index of campaign seed (splitmix64 of both). */
uint64_t fuzz_program_seed(uint64_t seed, uint64_t index);
/* "name=value ..." of the knobs that differ from the defaults ("" when none). */
void fuzz_knobs_format(char *buf, size_t n, const struct gen_knobs *k);
/* Parses that form (also "name=value,name=value") into k, starting from the defaults.
 * 0, or -EINVAL/-ENOENT/-ERANGE with d naming the knob. */
int fuzz_knobs_parse(struct gen_knobs *k, const char *text, struct diag *d);

/* ---- one program, in this process: for tests and benchmarks ---- */

/* Generates program index of the campaign described by o (seed, knobs, strategy, oracle
 * settings), analyzes and judges it: the pipeline (fuzz/pipeline.h) with the campaign's options.
 * Returns 0 (r->gen_err may still be set) or -errno.  r is reused; pipeline_result__free. */
int fuzz_run_program(struct pipeline_result *r, const struct fuzz_opts *o, uint64_t index);

#endif
