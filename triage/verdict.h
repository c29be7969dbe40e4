/* The one-pass verdict held against the kernel's and against execution.
 *
 * The kernel's verifier accepts or rejects the same program; the four classes are both accept,
 * both reject, improvement (bpfscev proves it safe, the kernel rejects — e.g. a loop past the 1M
 * processed-instruction limit) and regression (the kernel accepts, bpfscev cannot — precision
 * lost).  A program called safe must also run safely: the interpreter executes it on many
 * inputs, and a memory trap, a kernel limit (call depth, combined stack) or a run longer than
 * the verdict's instruction bound is a finding (FIND_VERDICT) — an unsound verdict.  A safe
 * verdict is a claim of termination: a run takes at most its max_insns instructions; when that
 * is unknown, scev_verdict.ends says what ending rests on (tail calls and callbacks whose calls
 * no claim counts, the may_goto budget, a bound past 2^64), and a verdict resting on nothing
 * (SCEV_ENDS_NONE) is contradicted by a run that exhausts its budget.  Callbacks are counted in
 * max_insns (each at its loop's trip claim); a verdict resting on may_goto states its bound at a
 * small budget (scev_verdict.mg_insns), and its runs take that budget and are held to it.
 */
#ifndef BPFSCEV_TRIAGE_VERDICT_H
#define BPFSCEV_TRIAGE_VERDICT_H

#include "oracle/exec/check.h"
#include "scev/scev.h"

/* VC_NO_LOAD: the kernel could not be asked about this program as it stands — a map it refuses
 * to create, or a refusal before the verifier walked a single instruction (no statistics in the
 * log: a missing attach target, a program type it cannot load this way), or, for a program
 * bpfscev calls safe, a helper call this kernel does not offer to the program's type (a build
 * option of the kernel: the verifier judged the kernel there, not the program).  Only with
 * verdict_opts.keep_load_errors; otherwise such a load is an error. */
/* With verdict_opts.unprivileged the kernel is asked as an unprivileged loader
 * (kernel_prog_opts.unprivileged: CAP_BPF without CAP_PERFMON), and two more classes say where it
 * judges nothing of bpfscev's verdict: VC_UNPRIV_RULE, the kernel refused the program by a rule
 * only the unprivileged verifier applies and bpfscev's unprivileged rule does not model (Spectre
 * v1 sanitation, pointer leaks other than the stores bpfscev refuses, pointer comparisons:
 * kernel_unpriv_rule; or, for a program bpfscev calls safe, any refusal but a read of unwritten
 * stack or a pointer stored that the root kernel, asked again, does not make: the limits its
 * speculative paths reach), which is neither an improvement nor an agreement; VC_UNPRIV_SKIP, a program
 * type that needs CAP_PERFMON to load at all (tracing: kernel_type_needs_perfmon), not asked. */
/* VC_RULE_GAP ("rule-gap"): bpfscev calls the program safe and the kernel refuses it, by a
 * message that is none of the kernel's limits (verdict_kernel_limit): not the difference bpfscev
 * exists for (a loop the verifier gives up on) but a rule of the kernel bpfscev may not model —
 * the stack's alignment hid this way as an improvement — or the kernel's imprecision, which
 * someone must read to tell.  The campaign makes each one a finding (FIND_RULE_GAP). */
enum verdict_class { VC_BOTH_ACCEPT, VC_BOTH_REJECT, VC_IMPROVEMENT, VC_REGRESSION, VC_NO_KERNEL,
		     VC_NO_LOAD, VC_UNPRIV_RULE, VC_UNPRIV_SKIP, VC_RULE_GAP };
const char *verdict_class_name(enum verdict_class c);
/* Whether the kernel's refusal is one of its limits, which a program bpfscev proves safe may
 * meet for its loops: the processed-instruction limit ("BPF program is too large"), the
 * complexity of its paths ("The sequence of N jumps is too complex"), its loop checks
 * ("infinite loop detected", the back-edges kernels before 5.3 refused). */
bool verdict_kernel_limit(const char *message);
/* The class of bpfscev's verdict (ours: safe) against the kernel's answer: both accept, both
 * reject, regression, and for a program only bpfscev calls safe, an improvement when a kernel
 * limit explains the refusal, else a rule gap. */
enum verdict_class verdict_classify(bool ours, bool accepted, const char *message);

struct verdict_report {
	struct scev_verdict ours;
	double ours_usec;	/* wall time of the analysis and verdict (scev_verify) */
	enum verdict_class cls;
	bool kernel_accepted;
	int kernel_err;
	char kernel_message[512];
	long kernel_processed;	/* -1 unknown */
	long kernel_usec;
	char *kernel_log;	/* heap, NULL without the kernel */
	/* execution of a program called safe */
	uint64_t runs, faults;
	char fault[256];	/* the first fault, "" when none */
	uint8_t fault_input[2048];
	size_t fault_input_len;
};

struct verdict_opts {
	size_t sz;
	bool kernel;		/* ask the running kernel too (skipped when bpf() is refused) */
	uint32_t runs;		/* executions of a safe program; 0 = 32 */
	const uint8_t *input;	/* the first execution's input (NULL: 64 zero bytes), e.g. a
				 * saved fault's */
	size_t input_len;
	uint64_t seed;
	uint32_t prog_type;	/* 0: the program's own */
	bool full_log;		/* the kernel's level-2 log (slow on long loops); else stats only */
	bool keep_load_errors;	/* a program the kernel cannot be asked about is VC_NO_LOAD with
				 * the reason in kernel_message, not an error */
	/* The unprivileged rule (scev_opts.unprivileged): reads of stack bytes not written on
	 * every path are unsafe, and a run that reads one is a fault; the kernel, when asked, is
	 * asked as an unprivileged loader (VC_UNPRIV_RULE, VC_UNPRIV_SKIP above).  By default the
	 * privileged kernel's: such a read is allowed, and the runs' frames start with bytes drawn
	 * from the run's input instead of zeros, so the value read is arbitrary. */
	bool unprivileged;
	/* Instructions a run may take (0 = 5,000,000): a verdict whose bound is lower is held to
	 * its bound; a run that exhausts this budget is a fault only when the verdict's ending
	 * rests on nothing (SCEV_ENDS_NONE), since a longer bound or a may_goto budget may allow
	 * more (a legitimately long loop). */
	uint64_t step_budget;
	/* bpfscev's verdict on this program, already computed by the caller with the options
	 * verdict_compare would give scev_verify (the program type above, the unprivileged rule
	 * as above; ranges make no difference to a verdict): taken as given instead of analyzing
	 * the program again (a test that judges a verdict, then asks the kernel about the same
	 * program).  NULL: scev_verify, as always. */
	const struct scev_verdict *ours;
};

int verdict_compare(struct verdict_report *r, const struct ebpf_object *obj,
		    const struct ebpf_prog *prog, const struct verdict_opts *opts, struct diag *d);
void verdict_report__free(struct verdict_report *r);
/* The execution half alone: runs prog as verdict_compare runs a program called safe, holding
 * the runs against r->ours as given (its max_insns bound), and counts r->runs and r->faults.
 * Lets a test hand the oracle a verdict the analyzer would not give. */
int verdict_execute(struct verdict_report *r, const struct ebpf_object *obj,
		    const struct ebpf_prog *prog, const struct verdict_opts *opts);
/* What runs of a program v calls safe, on a budget of budget instructions, must not do
 * (oracle/exec/safe_run.h): the rule verdict_execute holds its runs to, and the claim checker's
 * runs too when they judge the verdict (check_opts.safe). */
struct safe_rule verdict_safe_rule(const struct scev_verdict *v, uint64_t budget,
				   bool unprivileged);

#endif
