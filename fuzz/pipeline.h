/* The pipeline: generate → analyze → judge → triage, written once.  The campaign
 * (fuzz/program.c), the corpus replay (fuzz/corpus.c), the libFuzzer/AFL++ pipeline target
 * (fuzz/targets/fuzz_pipeline.c), `bpfscev check` (cli/cmd_check.c) and the replay of a saved
 * finding (fuzz/replay.c: `bpfscev replay`, the predicates of `bpfscev reduce DIR`) all call
 * pipeline_run; what differs between them is options, never code.
 *
 * Stages:
 *   generate  only when the subject names a generator source: gen_program (generators/gen.h);
 *   analyze   scev_analyze with the options' strategy, unless the subject brings its claims
 *             (with isolate_s, first in a child process: a crash there is the result);
 *   judge     every oracle of the registry the options ask for, in registry order (pipeline.c,
 *             pipeline_oracles[]): each is a struct oracle_ops with its name, its statistics
 *             (keys and counters: the campaign's state file and summary come from these) and
 *             run(), which answers for each claim in one shape (r->verdicts: proved, refuted
 *             with the counterexample, unknown with the reason, or not judged);
 *   triage    with opts.triage, each optional oracle's finding becomes a complete finding record
 *             (triage/finding.h) with its signature, in r->findings; the execution oracle's
 *             findings stay in r->exec (the campaign signs them lazily, once per signature).
 *
 * Oracles (adding one: a file fuzz/oracle_NAME.c with its struct oracle_ops, one line in
 * pipeline_oracles[], its switch and budgets in struct pipeline_opts):
 *   exec    the concrete oracle (oracle/exec/check.h): the claims checked on runs of the
 *           interpreter, on drawn inputs and on the one the caller gives;
 *   z3      every claim decided by Z3 (oracle/z3/smt.h): proved, refuted (a counterexample the
 *           interpreter confirmed: a finding) or unknown; a model the interpreter does not confirm
 *           is an encoding finding;
 *   kernel  the one-pass verdict (bpfscev verify) against the running kernel's accept or reject
 *           (triage/verdict.h: both accept, both reject, improvement, regression, rule gap; a
 *           program called safe that faults when run, or that the kernel refuses by none of
 *           its limits (a rule gap), is a finding), and the kernel differential
 *           (oracle/kernel/kdiff.h): the verifier's logged ranges checked as claims on the
 *           interpreter, r0 and the packet against BPF_PROG_TEST_RUN; a refuted kernel claim, a
 *           different result or an invariant violation is a kernel finding.
 *
 * One set of defaults: a zero field of struct pipeline_opts means the PIPELINE_* value below
 * (the campaign's, which runs the most programs).  The callers that used other values before the
 * pipeline was written once keep them, as explicit options with their own named constants:
 *
 *                     runs  steps      input  z3 per query / per program        replay steps
 *   campaign          2     10,000     64     500 ms / 2 s (rlimit: none)       2,000,000
 *   corpus replay     32    100,000    64     rlimit 1,000,000 / 8,000,000      10^8
 *   fuzz target       2+1   20,000 (4,000 huge)  64   -
 *   bpfscev check     48    2,000,000  64     2,000 ms / none                   10^8
 *   finding replay    1+1+N  200,000    saved  -    (the saved input or 48 drawn; zeros; N drawn)
 *                     (a crash: analyzed isolated; a kernel, verdict or kernel-run finding: the
 *                     kernel oracle on the saved input, fuzz/replay.c)
 *
 * A verdict disagreement (improvement, rule gap or regression) is not a bug by itself (a rule
 * gap is also a finding: FIND_RULE_GAP); the campaign saves
 * it with both logs under <crashes>/verdicts/<class>-<16 hex>/ (prog.case, bpfscev.txt,
 * kernel.log, count), one directory per signature (the class, our reason and the kernel's message
 * with the numbers taken out), so a campaign leaves a handful of representative programs.
 */
#ifndef BPFSCEV_FUZZ_PIPELINE_H
#define BPFSCEV_FUZZ_PIPELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "bpf/prog.h"
#include "claims/claim_verdict.h"
#include "claims/claims.h"
#include "generators/gen.h"
#include "oracle/exec/check.h"
#include "oracle/z3/smt.h"
#include "scev/scev.h"
#include "triage/finding.h"
#include "util/sbuf.h"

/* The defaults (zero in struct pipeline_opts). */
#define PIPELINE_RUNS 2			/* drawn inputs per claim set */
#define PIPELINE_STEPS 10000		/* interpreter instructions per run */
#define PIPELINE_INPUT_LEN GEN_INPUT_LEN	/* input bytes */
#define PIPELINE_Z3_TIMEOUT_MS 500	/* per query, without a resource limit */
#define PIPELINE_Z3_BUDGET_S 2.0	/* per program, without a resource limit */
#define PIPELINE_Z3_REPLAY_STEPS 2000000	/* interpreter budget replaying a Z3 model */
#define PIPELINE_KERNEL_VERDICT_RUNS 8	/* runs of a program bpfscev calls safe */
#define PIPELINE_KERNEL_CHECK_RUNS 16	/* inputs the kernel's logged claims are checked on */
#define PIPELINE_KERNEL_STEPS 1000000	/* interpreter budget of those runs */
#define PIPELINE_KERNEL_LOG_MAX (16u << 20)	/* level-2 verifier log bytes */

#define PIPELINE_MAX_ORACLES 8
#define PIPELINE_MAX_STATS 96		/* all oracles' counters together (77 today) */

struct oracle_ops;

enum pipeline_stage { PIPELINE_GENERATE, PIPELINE_ANALYZE, PIPELINE_JUDGE, PIPELINE_ORACLES };

struct pipeline_opts {
	size_t sz;
	/* analyze */
	enum scev_strategy strategy;
	uint32_t prog_type;		/* scev_opts.prog_type: 0 = the program's own */
	double isolate_s;		/* > 0: analyze first in a child process with this time
					 * limit (seconds); a crash or a timeout there ends the run
					 * with r->crash set (finding_analyze_isolated) */
	/* judge: exec, on drawn inputs (unless no_drawn) and on input when given */
	bool no_drawn;
	uint64_t seed;			/* the drawn inputs' sequence */
	uint32_t runs;			/* drawn inputs; 0 = PIPELINE_RUNS */
	uint64_t step_budget;		/* per run; 0 = PIPELINE_STEPS */
	uint64_t step_budget_huge;	/* per run of a generated program marked huge or possibly
					 * endless (GEN_PROG_HUGE, GEN_PROG_MAY_NOT_TERMINATE);
					 * 0 = step_budget */
	size_t input_len;		/* drawn input bytes; 0 = PIPELINE_INPUT_LEN */
	uint32_t first_input;		/* check_opts.first_input */
	int ctx_kind;			/* enum interp_ctx_kind + 1; 0 = from the program's type */
	bool first_only;		/* stop each run at its first finding */
	const uint8_t *input;		/* a run on exactly this input (r->exec_fixed)... */
	size_t fixed_len;
	const uint8_t *helper_data;	/* ...with these helper results */
	size_t helper_len;
	bool generated_input;		/* that run on the input the generator chose (gp.input,
					 * gp.helper_data) instead */
	/* judge: z3 (the clock limits apply without a resource limit; with one, the clock is
	 * only smt's safety net unless given) */
	bool z3;
	unsigned z3_timeout_ms;		/* per query; 0 = PIPELINE_Z3_TIMEOUT_MS (rlimit: smt's) */
	double z3_budget_s;		/* per program; 0 = PIPELINE_Z3_BUDGET_S (rlimit: none);
					 * < 0 = none */
	unsigned z3_rlimit;		/* resource units per query, 0 = none */
	uint64_t z3_program_rlimit;	/* ... per program, 0 = none */
	uint64_t z3_replay_steps;	/* 0 = PIPELINE_Z3_REPLAY_STEPS */
	bool z3_precision;		/* smt_opts.precision */
	uint32_t z3_bmc_depth;		/* smt_opts.bmc_depth, 0 = smt's */
	bool z3_empty;			/* also ask about an empty claim set (else: not asked,
					 * r->has_z3 false) */
	/* judge: kernel (the seed above also draws its inputs) */
	bool kernel;
	uint32_t kernel_verdict_runs;	/* 0 = PIPELINE_KERNEL_VERDICT_RUNS */
	uint32_t kernel_check_runs;	/* 0 = PIPELINE_KERNEL_CHECK_RUNS */
	uint64_t kernel_steps;		/* 0 = PIPELINE_KERNEL_STEPS */
	size_t kernel_log_max;		/* 0 = PIPELINE_KERNEL_LOG_MAX */
	const uint8_t *kernel_input;	/* the kernel differential's input and the first run of a
					 * program called safe (NULL: kdiff's 64 zeros and drawn
					 * runs) */
	size_t kernel_input_len;
	bool unprivileged;		/* verdicts by the unprivileged rule (verdict_opts) */
	bool kernel_diff_only;		/* the differential alone, whatever the kernel says of the
					 * program without its invariant flag (which can show a
					 * verifier bug that rejection hides): no verdict comparison */
	/* judge: exec, the verdict (with the analysis: scev_verify) when the subject's claims are
	 * not given: the claims' own runs of a program called safe (check_opts.safe) hold it to
	 * its instruction bound, or to ending within step_budget when the verdict rests on nothing
	 * else (scev_verdict.ends), with no trap and no read of unwritten bytes
	 * (oracle/exec/safe_run.h); a fault is a "verdict" finding */
	bool verdict;
	/* triage */
	bool triage;			/* optional oracles' findings as finding records */
	/* hooks (NULL = none), all given arg: */
	void *arg;
	void (*stage)(void *arg, enum pipeline_stage st);	/* a stage begins */
	void (*before_analyze)(void *arg);
	void (*after_analyze)(void *arg, struct claim_prog *cp);	/* may change the claims */
	/* asked before each oracle the options ask for: false skips it for these claims */
	bool (*judge)(void *arg, const struct oracle_ops *op, const struct claim_prog *cp);
};

/* What is judged: a program to generate (src set), one generated before (generated set: judged
 * again, e.g. under the other strategy) or a program given (prog set), and the claims to judge
 * (NULL: the analyzer's). */
struct pipeline_subject {
	struct gen_src *src;		/* generate from this source... */
	const struct gen_knobs *knobs;	/* ...with these knobs (NULL: the defaults) */
	const struct gen_program *generated;	/* or this generated program */
	const char *name;		/* the generated program's name */
	const struct ebpf_object *obj;	/* or this program, with obj's maps */
	const struct ebpf_prog *prog;
	const struct claim_prog *claims;	/* not the result's own: a run frees those */
	const struct scev_verdict *verdict;	/* with claims: the verdict judged (a test's) */
};

/* A verdict disagreement, ready for fuzz_save_disagreement in the campaign's parent. */
struct fuzz_disagreement {
	uint8_t cls;			/* enum verdict_class: VC_IMPROVEMENT or VC_REGRESSION */
	uint64_t sig;
	char *case_text;		/* the program as a corpus case (asm, type, maps) */
	char *ours;			/* our verdict, its instruction and reason */
	char *kernel_log;		/* the kernel's message and log (statistics level) */
};

struct pipeline_result {
	int gen_err;			/* the generator's return value (nonzero: nothing else set) */
	const char *failed;		/* after an error: "analyze" or the oracle's name */
	struct gen_program gp;		/* the generated program (reused; freed by __free) */
	struct ebpf_prog view;		/* the program judged */
	struct ebpf_object obj;		/* its maps (a view: gp's or the subject's) */
	char crash[96];			/* with isolate_s: the analyzer's crash class ("" when it
					 * finished), and its stderr (owned, may be NULL) */
	char *crash_log;
	struct claim_prog claims;	/* the analyzer's claims (empty with the subject's own) */
	const struct claim_prog *cp;	/* the claims judged */
	bool has_verdict;		/* opts.verdict: the verdict judged */
	struct scev_verdict verdict;
	/* exec */
	bool has_exec, has_exec_fixed;
	struct check_result exec;	/* the drawn inputs */
	struct check_result exec_fixed;	/* the given input */
	/* z3 */
	bool has_z3;
	struct smt_result z3;
	/* per registry entry: its verdict on each claim of *cp (claims/claim_verdict.h), the one
	 * shape every oracle answers in; empty (n = 0) when the oracle did not run */
	struct claim_verdicts verdicts[PIPELINE_MAX_ORACLES];
	/* every oracle's counters, at the offsets pipeline_stat_offset() gives */
	uint64_t stats[PIPELINE_MAX_STATS];
	double t_gen, t_analyze;	/* CPU seconds */
	double t_oracle[PIPELINE_MAX_ORACLES];	/* per registry entry (exec: the check phase) */
	/* triage: the optional oracles' findings, complete (source "z3", "kernel...", "verdict")
	 * with their signatures */
	struct finding **findings;
	uint32_t nfindings;
	struct fuzz_disagreement *dis;	/* NULL when none */
};

/* Runs the stages on s.  0, or -errno (with d for an analyzer error); r->gen_err set means the
 * generator failed and nothing else ran.  r is reused across calls (pipeline_result__free). */
int pipeline_run(struct pipeline_result *r, const struct pipeline_subject *s,
		 const struct pipeline_opts *opts, struct diag *d);
void pipeline_result__free(struct pipeline_result *r);
/* A "verdict" finding into r: a program called safe that faults when run (vr->fault, on
 * vr->fault_input).  0 or -ENOMEM. */
struct verdict_report;
int pipeline_verdict_finding(struct pipeline_result *r, const struct verdict_report *vr);

/* ---- the oracles ---- */

struct oracle_ops {
	const char *name;			/* "exec", "z3", "kernel" */
	const char *const *stats;		/* its counters' keys ("z3_proved", ...) */
	unsigned nstats;
	bool (*wanted)(const struct pipeline_opts *o);
	/* judges r->view and *r->cp: its verdict on each claim into v (one entry per claim,
	 * each not judged when called; a judge that does not look at the analyzer's claims leaves
	 * them so), counting into stats (its own nstats counters) and adding what it finds to r;
	 * 0 or -errno */
	int (*run)(struct pipeline_result *r, uint64_t *stats, struct claim_verdicts *v,
		   const struct pipeline_opts *o);
	/* the campaign summary's lines for its totals (NULL: none; nothing when it did not run):
	 * cpu its CPU seconds, dir the findings directory, saved the disagreements saved */
	void (*summary)(struct sbuf *sb, const uint64_t *stats, double cpu, const char *dir,
			uint64_t saved);
};

extern const struct oracle_ops oracle_exec, oracle_z3, oracle_kernel;

unsigned pipeline_oracle_count(void);
const struct oracle_ops *pipeline_oracle(unsigned i);
int pipeline_oracle_index(const char *name);	/* -1 when no oracle has that name */
unsigned pipeline_stat_offset(unsigned oracle);	/* its first counter in stats[] */
unsigned pipeline_stat_count(void);		/* all oracles' counters */
const char *pipeline_stat_name(unsigned i);	/* "z3_proved", ...; NULL out of range */
int pipeline_stat_index(const char *name);	/* -1 when no oracle has it */
/* The counter named name in stats (0 when no oracle has it). */
uint64_t pipeline_stat(const uint64_t *stats, const char *name);

/* Adds f to r->findings (r then owns it; freed on failure).  0 or -ENOMEM. */
int pipeline_add_finding(struct pipeline_result *r, struct finding *f);

void fuzz_disagreement__free(struct fuzz_disagreement *d);
/* Saves d under dir/verdicts/ (a new directory, or the count of the one with its signature
 * raised).  *is_new says which; path receives the directory.  0 or -errno. */
int fuzz_save_disagreement(const char *dir, const struct fuzz_disagreement *d, const char *origin,
			   bool *is_new, char *path, size_t path_len);

#endif
