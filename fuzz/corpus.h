/* The soundness regression corpus: one text file per case, replayed by every test run.
 *
 * A case is a data file (casefile/casefile.h sections) with the program and what must hold of
 * it:
 *   -- asm      the program (any assembler syntax)
 *   -- type     optional: xdp, socket, tc, cgroup_skb, sock_ops, cgroup_sock, cgroup_device,
 *               raw_tp or plain (default: plain); read with the program by
 *               casefile/, so every command sees it
 *   -- input    optional: hex bytes the oracles must also run (e.g. a counterexample)
 *   -- helper   optional: hex helper results for that run
 *   -- maps     optional: one map per line in index order, "array key=4 value=64 entries=4"
 *               [name=NAME] (also read by casefile/)
 *   -- loops    optional: the exact loop structure, one line per loop in header order:
 *               header=N depth=D parent=P|- back=F[,F..] latch=L|- exits=F>T[,F>T..]
 *               [irreducible entries=E[,E..]]
 *   -- trip     "<header>: exact N" | "<header>: bounded <=N" | "<header>: unknown"
 *   -- iv       "<header>: <loc> <width> step=S [start=V]"
 *   -- range    "<pc> <loc>: u[lo, hi]" and/or "s[lo, hi]": the claim exists and is no looser
 *   -- verdict  "safe" | "unsafe [reason substring]" | "unsupported [reason substring]":
 *               bpfscev verify's verdict by the privileged rule (the default), and on a line
 *               of its own "unprivileged: VERDICT" (optional) the one by the unprivileged
 *               rule; a program called safe must also run without a fault
 *               (a program with a structure defect, prog.h, has only its verdict checked)
 * Every case is also checked by the oracles: no claim of the analyzer may be refuted.
 * Expectations are floors of precision; the oracles are the judge of soundness: the concrete
 * oracle runs the program (and "-- input"), and with use_z3 the Z3 oracle decides every claim
 * for all inputs under a resource limit, so its verdicts are the same on every machine.  A claim
 * Z3 refutes (with a counterexample the interpreter confirms) or an encoding disagreement fails
 * the case; a claim Z3 cannot decide within the budget is counted, not failed.
 */
#ifndef BPFSCEV_FUZZ_CORPUS_H
#define BPFSCEV_FUZZ_CORPUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf/prog.h"

#include "util/err.h"
#include "util/sbuf.h"

/* The default Z3 budget, in resource units: enough for all but a handful of the corpus's claims
 * at about +0.5 s of CPU per case on average in the ASan build. */
#define CORPUS_Z3_RLIMIT 1000000u
#define CORPUS_Z3_PROGRAM_RLIMIT 8000000ull
/* The corpus keeps its own budgets in the pipeline (fuzz/pipeline.h): more runs and longer ones
 * than a campaign's, since a case is replayed on its own, and Z3 models replayed up to smt's own
 * budget. */
#define CORPUS_RUNS 32				/* drawn inputs per strategy */
#define CORPUS_STEPS 100000			/* instructions per run */
#define CORPUS_Z3_REPLAY_STEPS 100000000ull	/* a Z3 model replayed on the interpreter */

struct corpus_opts {
	size_t sz;
	unsigned oracle_runs;	/* concrete runs per strategy; 0 = CORPUS_RUNS (CORPUS_STEPS
				 * steps each) */
	bool use_z3;		/* also decide the claims with the Z3 oracle */
	unsigned z3_rlimit;	/* Z3 resource units per query (smt_opts.rlimit); 0 =
				 * CORPUS_Z3_RLIMIT */
	uint64_t z3_program_rlimit;	/* per program and strategy; 0 =
					 * CORPUS_Z3_PROGRAM_RLIMIT */
};

/* What the Z3 oracle decided over the cases replayed (added to, never reset). */
struct corpus_stats {
	uint64_t z3_programs;	/* claim sets decided (a strategy whose claims equal the other's
				 * is decided once) */
	uint64_t z3_claims, z3_proved, z3_refuted, z3_unknown;
	uint64_t z3_rlimit;	/* resource units spent */
};

/* Runs one case.  Returns the number of failed expectations and refuted claims (0 = pass),
 * or -errno when the case cannot be read or a line of it is malformed (-EINVAL); every failure
 * and malformed line is a line "file:line: what" in log.
 * stats (NULL = none) receives the Z3 oracle's counts. */
int corpus_replay(const char *path, const struct corpus_opts *opts, struct sbuf *log,
		  struct corpus_stats *stats);
/* corpus_replay without the counts. */
int corpus_run_case(const char *path, const struct corpus_opts *opts, struct sbuf *log);

/* Writes a case for a finding directory (crashes/<kind>-<hash>/): its reduced program when there
 * is one, else the original, with the input, helper data, maps and type, and a comment saying
 * what was found.  The case fails while the finding holds and guards against its return once
 * fixed.  path receives the file written. */
int corpus_add_finding(const char *finding_dir, const char *cases_dir, const char *name,
		       char *path, size_t path_len, struct diag *d);

/* The *.case file names in dir, sorted (heap: free each and the array).  The count, or -errno
 * when dir cannot be read. */
long corpus_list_cases(const char *dir, char ***names);

/* The "-- asm", "-- type" and "-- maps" sections of a case for a program. */
void corpus_format_prog(struct sbuf *sb, const struct bpf_insn *insns, size_t len,
			const struct ebpf_global_func *globals, size_t nglobals,
			uint32_t prog_type, const struct ebpf_map_def *maps, size_t map_cnt);

#endif
