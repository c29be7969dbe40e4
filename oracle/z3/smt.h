/* The Z3 oracle: decides each claim about a program for all inputs — proved, refuted with a
 * counterexample the interpreter confirms, or unknown with the reason.  Like the concrete oracle
 * (check.h) it sees only the program, the claims and the machine model (interp.h), never how
 * the claims were derived.  oracle/z3/smt.c is the only file of bpfscev that includes z3.h.
 *
 * Encoding.  Every instruction is encoded over bit-vectors exactly as the interpreter runs it
 * (oracle/z3/smt_mach.h): the input bytes and the helper-result stream are the free variables;
 * the stack, the XDP/SKB context, the packet and map storage are byte arrays at the
 * interpreter's fixed addresses; traps stop a path.  The input has a fixed length (opts).
 *
 * Proof.  The oracle finds the control-flow cycles itself (an SCC decomposition per function)
 * and executes the program symbolically from its entry, merging paths where they join and
 * inlining bpf-to-bpf calls.  A loop is summarized by an iteration counter i and a header state
 * in which every location the loop never writes keeps its entry value, every claimed induction
 * variable is its closed form start + i*step, and everything else the loop may write (found by
 * a fixpoint over the body's stores) is fresh; the claims about the header (its ranges, the
 * induction variables, i < the trip maximum) are assumed there.  Then for every claim: the base
 * case (the entry state is iteration 0), the step (one trip around every path of the body from
 * iteration i reaches the header as iteration i+1, with i+1 < max — so once the counter reaches
 * the bound no path returns), the exits (an exact trip count's minimum), and the range claims
 * at every pc the execution visits.  Inner loops are summarized the same way inside the outer
 * body.  A call of bpf_loop, bpf_for_each_map_elem (array maps), bpf_find_vma or
 * bpf_user_ringbuf_drain is a loop whose header is its callback's entry and whose iterations
 * are the calls, with the arguments the interpreter gives each (smt_prove.c: exec_cb_helper),
 * summarized and unrolled the same way.  may_goto: in the induction every frame's budget is a
 * fresh number (it falls through any number of times, then jumps every time: the counted
 * kernels' rule and x86-64's timed one alike); BMC counts the interpreter's 2^23 per frame, so
 * its models replay, and a run that meets a may_goto is never a proof by covering every path.  A loop that advances an open-coded iterator gets a
 * hypothesis of the oracle's own, checked like the claims and never reported: the iterator's
 * cur counts up by one per header execution.  A program with callback helpers or iterators is
 * first run with them cut (what that proves away from the cuts holds), then whole.  Header
 * claims that do not survive are dropped from the assumptions and everything is
 * redone (Houdini), so what remains is inductive and every claim called proved was proved from
 * proved claims only.  A claim that is not inductive goes to bounded model checking: the
 * program unrolled from its entry up to bmc_depth header executions per loop entry.  A model
 * of a violation there is an input: it is replayed on the interpreter (oracle_check with that
 * input) and reported as a finding when the interpreter confirms it, as an encoding bug
 * (FIND_ENCODING) when it does not.  When the unrolling covers every path (no loop can run
 * longer), BMC's "no violation" is a proof too.  Anything else is unknown, with the reason:
 * the solver's resource limit or timeout, the program's budget, unsupported instruction, not
 * inductive within the depth.
 *
 * Precision (opts.precision).  Where BMC covers every path, the tightest true facts are
 * computed — the largest trip count of each loop, the smallest intervals of each claimed value
 * (Z3 optimization) — and each claim's distance from them is its slack.
 */
#ifndef BPFSCEV_ORACLE_SMT_H
#define BPFSCEV_ORACLE_SMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf/prog.h"
#include "oracle/exec/check.h"
#include "claims/claims.h"

/* Budgets.  Z3's resource limit (rlimit) counts elementary solver steps: with the same program,
 * claims and options, a run under rlimit and program_rlimit gives the same verdicts on every
 * machine, however fast or loaded.  Wall-clock limits (timeout_ms, budget_s) do not: set the
 * resource limits for results that must be reproducible (tests, the corpus, the campaign) and
 * leave the clock limits as a safety net.  On a 2020s x86 core one million units are very
 * roughly 0.3 to 1 s of solving. */
struct smt_opts {
	size_t sz;
	unsigned timeout_ms;	/* per solver query; 0 = 2000, or 60000 (a safety net only) when
				 * rlimit or program_rlimit is set */
	unsigned bmc_depth;	/* header executions per loop entry BMC unrolls (tried at 4,
				 * 16, 64, ... up to it); 0 = 64 */
	bool precision;		/* tightest facts and slack, where BMC covers every path */
	size_t input_len;	/* input bytes; 0 = 64 (the concrete oracle's default) */
	int ctx_kind;		/* enum interp_ctx_kind + 1; 0 = from the program's type */
	bool no_induction;	/* BMC only (tests) */
	bool no_bmc;		/* induction only (tests, benchmarks) */
	uint64_t replay_steps;	/* interpreter budget when replaying a model; 0 = 10^8 */
	double budget_s;	/* wall time for the whole program, 0 = none: past it, what is
				 * left is unknown ("time budget") */
	unsigned rlimit;	/* Z3 resource units per query (optimization: 4x), 0 = none; past
				 * it the query is unknown ("max. resource limit exceeded") */
	uint64_t program_rlimit;	/* resource units for the whole program, 0 = none: each
					 * query's limit is cut to what is left, and once it is
					 * spent what is left is unknown ("resource budget").  Term
					 * simplification while encoding counts too (a large
					 * program spends tens of millions of units before its
					 * first query): the count is read at every step of
					 * the encoding, which stops within one of the total */
};

enum smt_verdict { SMT_UNKNOWN, SMT_PROVED, SMT_REFUTED };
enum smt_claim_kind { SMT_CLAIM_RANGE, SMT_CLAIM_IV, SMT_CLAIM_TRIP };
enum smt_method {
	SMT_BY_NONE,
	SMT_BY_INDUCTION,	/* inductive proof from proved claims */
	SMT_BY_BMC,		/* no violation, and the unrolling covers every path */
	SMT_BY_COUNTEREXAMPLE,	/* a model the interpreter confirmed */
};

struct smt_claim_result {
	uint8_t kind;		/* enum smt_claim_kind */
	uint8_t verdict;	/* enum smt_verdict */
	uint8_t method;		/* enum smt_method */
	uint32_t index;		/* ranges[] (RANGE) or loops[] (IV, TRIP) of the claim_prog */
	uint32_t iv;		/* IV: index into loops[index].ivs */
	uint32_t pc;		/* the range claim's pc, or the loop header */
	double ms;		/* solver time spent on this claim */
	char reason[200];	/* unknown: why; refuted: what the replay observed; proved: how */
	uint32_t cut_pc;	/* unknown because an instruction the machine does not encode
				 * cuts the paths to it (the reason's "unsupported at pc N"):
				 * N; UINT32_MAX otherwise (smt_unknown_why) */
	int32_t finding;	/* index into smt_result.findings, -1 for none */
	/* precision (has_tight): the tightest true fact and how far the claim is from it */
	bool has_tight;
	uint64_t tight_trip;	/* TRIP: the largest header-execution count of any entry */
	uint64_t tight_umin, tight_umax;	/* RANGE: values (offsets for pointers) */
	int64_t tight_smin, tight_smax;
	uint64_t slack;		/* TRIP: claimed max - tight; RANGE: claimed umax - umin minus the
				 * tight width (0 = as tight as true) */
};

struct smt_result {
	struct smt_claim_result *claims;
	uint32_t nclaims;
	/* confirmed refutations (FIND_RANGE, FIND_TRIP_MAX, ... with the input that shows them)
	 * and encoding bugs (FIND_ENCODING: a model the interpreter did not confirm) */
	struct check_finding *findings;
	uint32_t nfindings;
	uint32_t proved, refuted, unknown;
	uint32_t encoding_bugs;
	uint64_t queries;	/* solver calls */
	double ms;		/* wall time of smt_check */
	double solver_ms;	/* of which in the solver */
	uint64_t rlimit_used;	/* Z3 resource units spent (the same on every machine) */
	unsigned rounds;	/* induction rounds (Houdini) */
	unsigned bmc_depth;	/* deepest unrolling tried */
	bool bmc_complete;	/* it covered every path */
	char note[256];		/* what could not be encoded, "" when everything was */
};

/* Decides every claim of claims (the claim_prog for prog; obj supplies the maps).  Returns 0
 * with res filled (free with smt_result__free), or -errno (out of memory, a Z3 context that
 * cannot be made); claims that cannot be decided are unknown, not errors. */
int smt_check(struct smt_result *res, const struct ebpf_object *obj, const struct ebpf_prog *prog,
	      const struct claim_prog *claims, const struct smt_opts *opts);
void smt_result__free(struct smt_result *res);
const char *smt_verdict_name(enum smt_verdict v);

/* Why an unknown claim is unknown, by the instruction that cut it (smt_claim_result.cut_pc):
 * a socket helper (a lookup, a cast, a release, or a helper given a socket: sockets are not
 * encoded), an iterator kfunc (the bits and the kernel-object iterators), another kfunc, another
 * helper the interpreter runs, another instruction; or no cut (the solver's limits, a fact not
 * inductive, a bounded unrolling that ended): OPEN.  NONE for a claim not unknown. */
enum smt_unknown_why {
	SMT_WHY_NONE,
	SMT_WHY_SOCKET,
	SMT_WHY_ITER,
	SMT_WHY_KFUNC,
	SMT_WHY_HELPER,
	SMT_WHY_INSN,
	SMT_WHY_OPEN,
	SMT_WHY_NR
};
enum smt_unknown_why smt_unknown_why(const struct ebpf_prog *prog,
				     const struct smt_claim_result *r);
const char *smt_unknown_why_name(enum smt_unknown_why w);
const char *smt_method_name(enum smt_method m);

/* ---- the differential test of the encoding (tests/test_smt.c, fuzz/targets) ----
 *
 * One instruction on one concrete machine state, run by the interpreter and evaluated in the
 * Z3 encoding: the state's registers, stack, input, map values and helper stream are Z3
 * variables, the instruction's encoding is built over them, and a model assigning the concrete
 * values evaluates every register, every byte of the stack, input and map, the successor pc,
 * and whether it traps or ends the program.  Any difference is a mismatch.
 */
#define SMT_DIFF_INPUT_MAX 64
#define SMT_DIFF_HELPER 16
#define SMT_DIFF_MAP_ENTRIES 4
#define SMT_DIFF_MAP_VALUE 16

struct smt_diff_case {
	struct bpf_insn insn[2];	/* the instruction; the second slot for LD_IMM64.  Jumps
					 * and may_goto need off = 1 (ja: off or imm = 1) */
	uint64_t regs[10];		/* r0-r9; r10 is the frame pointer */
	uint8_t stack[EBPF_STACK_SIZE];
	uint8_t input[SMT_DIFF_INPUT_MAX];
	size_t input_len;
	uint8_t ctx_kind;		/* enum interp_ctx_kind */
	uint8_t helper[SMT_DIFF_HELPER];	/* the helper stream (zero past its end) */
	size_t helper_len;
	/* map 0: an array map of SMT_DIFF_MAP_ENTRIES x SMT_DIFF_MAP_VALUE bytes */
	uint8_t map[SMT_DIFF_MAP_ENTRIES * SMT_DIFF_MAP_VALUE];
};

struct smt_diff;
int smt_diff__new(struct smt_diff **out);
void smt_diff__free(struct smt_diff *d);
/* Returns 0 when interpreter and encoding agree, 1 on a mismatch (why says where: "r3:
 * interp 0x.. z3 0x..", "stack[-8]", "pc", "trap"), -EINVAL for an instruction the validator
 * refuses or one this harness cannot run (pseudo calls, exit, a helper the encoding leaves to
 * the interpreter), -errno otherwise. */
int smt_diff_run(struct smt_diff *d, const struct smt_diff_case *c, char *why, size_t why_len);
/* The same with a context of its own (slower: for one-off use). */
int smt_diff_one(const struct smt_diff_case *c, char *why, size_t why_len);

#endif
