/* What a reduction keeps: predicates over a candidate program, combined with "and".
 *
 * A predicate kind is one entry of pred_kinds[] (predicate.c): a name (the command-line word,
 * "--" + name), whether it takes an argument, a one-line help, and evaluate(candidate) ->
 * interesting (1), not (0) or error (-errno).  What several predicates ask of the same
 * candidate — the kernel's verdict and log, a test run, an interpreter run — is computed once
 * per candidate, on first use (struct pred_eval), so "--rejects --msg RE --invariant" loads the
 * program once.  Predicates run cheapest first (interpreter, analyzer, kernel, external
 * command) and stop at the first that does not hold.
 *
 * The kinds:
 *   accepts / rejects      the kernel's verifier verdict
 *   msg RE / log RE        an extended regular expression found in the kernel's message (the
 *                          rejection's reason, oracle/kernel.h) / in its whole verifier log
 *   invariant              loaded with BPF_F_TEST_REG_INVARIANTS, the verifier reports a bug in
 *                          itself ("REG INVARIANTS VIOLATION", "verifier bug")
 *   retval N               accepted, and BPF_PROG_TEST_RUN on the input returns N (low 32 bits)
 *   trap KIND              our interpreter traps on the input: any, mem, steps, call, helper,
 *                          limit (oracle/interp.h)
 *   class C                bpfscev's verdict against the kernel's: both-accept, both-reject,
 *                          improvement, regression, rule-gap (triage/verdict.h)
 *   refuted KIND           a claim of the analyzer of that kind (range, trip-max, trip-min,
 *                          induction, any) refuted by runs of the interpreter (oracle/check.h)
 *   test CMD               an external command: /bin/sh runs CMD with the path of the candidate
 *                          (written as a data file in the verifier-log syntax, or raw bytes)
 *                          as its last word; exit 0 means interesting (as llvm-reduce --test)
 * Every kernel load closes its program before the evaluation returns.
 */
#ifndef BPFSCEV_TRIAGE_PREDICATE_H
#define BPFSCEV_TRIAGE_PREDICATE_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf/prog.h"
#include "claims/claims.h"
#include "oracle/exec/interp.h"
#include "oracle/kernel/kernel.h"
#include "triage/reduce.h"
#include "util/err.h"
#include "util/sbuf.h"

struct pred;
struct pred_eval;

enum pred_cost { PRED_COST_STATIC, PRED_COST_ANALYZER, PRED_COST_KERNEL, PRED_COST_EXTERNAL };

struct pred_kind {
	const char *name;	/* "rejects", "msg": the option is "--" + name */
	const char *arg;	/* the argument's name ("RE"), NULL when it takes none */
	const char *help;	/* one line */
	enum pred_cost cost;
	bool kernel;		/* needs bpf() */
	int (*init)(struct pred *p, const char *arg, struct diag *d);	/* may be NULL */
	int (*eval)(const struct pred *p, struct pred_eval *ev);
};

extern const struct pred_kind pred_kinds[];
extern const size_t pred_kind_cnt;
const struct pred_kind *pred_kind_find(const char *name);

struct pred {
	const struct pred_kind *kind;
	char arg[512];
	regex_t re;
	bool has_re;
	int64_t num;
};

struct pred_set_opts {
	size_t sz;
	const uint8_t *input;		/* packet or context for runs; NULL: 64 zero bytes */
	size_t input_len;
	bool invariants;		/* load with BPF_F_TEST_REG_INVARIANTS (implied by
					 * --invariant) */
	uint32_t runs;			/* refuted: inputs checked; 0 = 48 */
	uint64_t step_budget;		/* interpreter instructions per run; 0 = 1,000,000 */
	double test_timeout;		/* test: seconds before the command is killed; 0 = none */
	bool test_raw;			/* test: write raw bytes, not text */
	const char *tmpdir;		/* test: where candidates are written; NULL: $TMPDIR, /tmp */
	/* refuted: called on the analyzer's claims before they are checked (lets tests plant an
	 * analyzer bug); may be NULL */
	void (*mutate)(void *arg, struct claim_prog *cp);
	void *mutate_arg;
};

struct pred_set {
	struct pred *v;
	size_t n;
	struct pred_set_opts o;
	bool full_log;			/* some predicate reads the whole log */
};

/* Adds a predicate of kind name ("rejects", "msg", ...) with its argument (NULL when it takes
 * none).  0, or -EINVAL with d saying what is wrong (unknown kind, bad regex, bad value). */
int pred_set__add(struct pred_set *s, const char *name, const char *arg, struct diag *d);
void pred_set__free(struct pred_set *s);
/* Whether some predicate needs the kernel. */
bool pred_set__needs_kernel(const struct pred_set *s);
/* "--rejects --msg 'R1 invalid'" */
void pred_set__describe(const struct pred_set *s, struct sbuf *sb);

/* What one candidate showed, computed on first use. */
struct pred_eval {
	const struct pred_set *set;
	const struct ebpf_object *obj;
	const struct ebpf_prog *prog;
	/* the kernel */
	bool loaded;
	int load_err;			/* -errno: the kernel could not be asked */
	bool accepted;
	int kerr;
	char message[512];
	char *log;			/* owned */
	bool run_done;
	int run_err;			/* -errno: no test run (rejected, type not runnable) */
	uint32_t retval;
	/* the interpreter */
	bool interp_done;
	int interp_err;
	struct interp_result ir;
	/* the first predicate that did not hold, and why ("" when all held) */
	char why[1024];
};

/* Evaluates every predicate on obj's prog: 1 all hold, 0 one does not (ev->why), -errno one
 * could not be evaluated (ev->why).  ev is filled (free with pred_eval__free); the kernel
 * program is closed before this returns. */
int pred_set__eval(const struct pred_set *s, const struct ebpf_object *obj,
		   const struct ebpf_prog *prog, struct pred_eval *ev);
void pred_eval__free(struct pred_eval *ev);

/* The reducer's test (reduce_test_fn) over a pred_set: arg is the pred_set. */
int pred_set__test(void *arg, const struct reduce_prog *p);

/* A candidate as a one-program object that borrows p's arrays (no copies): obj and prog are
 * the caller's storage; never pass obj to ebpf_object__free. */
void pred_view(struct ebpf_object *obj, struct ebpf_prog *prog, const struct reduce_prog *p);

/* The candidate as the data file the reducer writes: a comment (may be NULL) in '#' lines,
 * "-- asm" in the verifier-log syntax, "-- type" when it has a type that section names,
 * "-- maps" when it has maps (array and hash ones; others get a comment line). */
void pred_write_text(struct sbuf *sb, const struct reduce_prog *p, const char *comment);

#endif
