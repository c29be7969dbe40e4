/* The one-pass verdict against the kernel's and against execution: see verdict.h. */
#include "triage/verdict.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/helper_proto.h"
#include "oracle/exec/safe_run.h"
#include "oracle/kernel/kernel.h"
#include "util/clock.h"

/* Instructions a run of a safe program may take when the verdict gives no bound. */
#define VERDICT_RUN_BUDGET 5000000ull

const char *verdict_class_name(enum verdict_class c)
{
	static const char *const names[] = { "both-accept", "both-reject", "improvement",
					     "regression", "no-kernel", "no-load", "unpriv-rule",
					     "unpriv-skip", "rule-gap" };

	return c <= VC_RULE_GAP ? names[c] : "?";
}

/* The kernel's words for its limits (kernel/bpf/verifier.c): do_check's processed-instruction
 * limit, push_stack's jump sequence, is_state_visited's loop detection, and check_cfg's
 * back-edge refusal before bounded loops (5.3).  Nothing else: a refusal for what the program
 * does is a rule, and an improvement it explains would hide a gap (the misaligned stack
 * accesses of iters.c's delayed_precision_mark, refused as "math between fp pointer and
 * register with unbounded min value", did). */
static const char *const kernel_limits[] = { "BPF program is too large", "jumps is too complex",
					     "infinite loop detected", "back-edge from insn" };

bool verdict_kernel_limit(const char *message)
{
	for (size_t k = 0; k < sizeof(kernel_limits) / sizeof(kernel_limits[0]); k++)
		if (strstr(message, kernel_limits[k]))
			return true;
	return false;
}

enum verdict_class verdict_classify(bool ours, bool accepted, const char *message)
{
	if (ours == accepted)
		return ours ? VC_BOTH_ACCEPT : VC_BOTH_REJECT;
	if (!ours)
		return VC_REGRESSION;
	return verdict_kernel_limit(message ? message : "") ? VC_IMPROVEMENT : VC_RULE_GAP;
}

void verdict_report__free(struct verdict_report *r)
{
	if (!r)
		return;
	free(r->kernel_log);
	r->kernel_log = NULL;
}

static uint64_t mix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int run_safe(struct verdict_report *r, const struct ebpf_object *obj,
		    const struct ebpf_prog *prog, const struct verdict_opts *o, uint32_t type);

struct safe_rule verdict_safe_rule(const struct scev_verdict *v, uint64_t budget,
				   bool unprivileged)
{
	/* ending by may_goto: the bounds it states at small budgets, which the runs take */
	bool mg = v->max_insns == UINT64_MAX && v->ends == SCEV_ENDS_MAY_GOTO;
	bool bounded = !mg && v->max_insns < budget;
	struct safe_rule s = { .max_insns = bounded ? v->max_insns : UINT64_MAX,
			       .must_end = bounded || (v->max_insns == UINT64_MAX &&
						       v->ends == SCEV_ENDS_NONE),
			       .step_budget = budget,
			       .may_goto_budget = mg ? SCEV_MG_ORACLE_BUDGET : 0,
			       .unprivileged = unprivileged };

	_Static_assert(SAFE_CALL_BOUNDS >= SCEV_VERDICT_CALL_BOUNDS, "per-call bounds");
	_Static_assert(SAFE_MG_BUDGETS >= SCEV_MG_MORE + 1, "may_goto budgets");
	/* every budget whose bound the verdict states and fits the runs' budget, the oracle's
	 * first; the runs take them in turn (safe_rule_run; 0 is INTERP_MAY_GOTO_ZERO) */
	if (mg && v->mg_insns && v->mg_insns < budget)
		s.mg[s.nmg++] = (struct safe_mg){ SCEV_MG_ORACLE_BUDGET, v->mg_insns };
	for (unsigned k = 0; mg && k < SCEV_MG_MORE; k++)
		if (v->mg_more[k] && v->mg_more[k] < budget)
			s.mg[s.nmg++] = (struct safe_mg){ scev_mg_more_budget(k)
								  ? scev_mg_more_budget(k)
								  : INTERP_MAY_GOTO_ZERO,
							  v->mg_more[k] };
	if (s.nmg) {
		s.max_insns = s.mg[0].bound;
		s.may_goto_budget = s.mg[0].budget;
		s.must_end = true;
	}
	/* each call of a function held to its own bound, whatever the whole run's (one stated
	 * at the oracle's may_goto budget in the runs that take at most that) */
	for (uint32_t k = 0; k < v->ncall_bounds && k < SCEV_VERDICT_CALL_BOUNDS; k++)
		s.call[s.ncalls++] = (struct safe_call_bound){
			v->call_bound[k].start, v->call_bound[k].calls, v->call_bound[k].insns,
			v->call_bound[k].mg ? SCEV_MG_ORACLE_BUDGET : UINT64_MAX };
	/* main's own instructions, when the runs are not held to the whole bound */
	if (s.max_insns == UINT64_MAX && v->main_own) {
		s.main_own = v->main_own;
		s.main_mg_max = v->main_own_mg ? SCEV_MG_ORACLE_BUDGET : UINT64_MAX;
	}
	return s;
}

struct safe_watches {
	struct stackinit_watch w;
	struct safe_calls_watch c;
};

static void visit_safe(void *arg, const struct interp_state *st, uint32_t pc)
{
	struct safe_watches *sw = arg;

	stackinit_visit(&sw->w, st, pc);
	safe_calls_visit(&sw->c, st, pc);
}

/* Runs a program the analysis calls safe.  A fault contradicts the verdict (the rule is
 * oracle/exec/safe_run.h's). */
int verdict_execute(struct verdict_report *r, const struct ebpf_object *obj,
		    const struct ebpf_prog *prog, const struct verdict_opts *uo)
{
	struct verdict_opts o = { 0 };

	if (uo)
		memcpy(&o, uo, uo->sz && uo->sz < sizeof(o) ? uo->sz : sizeof(o));
	return run_safe(r, obj, prog, &o, o.prog_type ? o.prog_type : prog->prog_type);
}

static int run_safe(struct verdict_report *r, const struct ebpf_object *obj,
		    const struct ebpf_prog *prog, const struct verdict_opts *o, uint32_t type)
{
	struct interp_code *code = NULL;
	struct interp_map *maps = calloc(obj->map_cnt ? obj->map_cnt : 1, sizeof(*maps));
	struct safe_watches *sw = malloc(sizeof(*sw));
	struct stackinit_watch *w = sw ? &sw->w : NULL;
	struct stackinit_pc *pcs = stackinit_pcs_build(prog->insns, (uint32_t)prog->len);
	uint8_t *probes = NULL;
	uint8_t input[2048], helper[4096];
	char text[256];
	uint32_t ro = ebpf_prog_ctx_model(type) == EBPF_CTX_RO ? ebpf_prog_ctx_size(prog, type) : 0;
	uint64_t seed = o->seed, budget = o->step_budget ? o->step_budget : VERDICT_RUN_BUDGET;
	struct safe_rule all = verdict_safe_rule(&r->ours, budget, o->unprivileged), rule;
	struct diag d;
	int err = 0;

	diag_clear(&d);
	if (!maps || !sw || !pcs || (err = interp_prepare(&code, prog, &d)) ||
	    !(probes = malloc(interp_code__slots(code)))) {
		interp_code__free(code);
		free(maps);
		free(sw);
		free(pcs);
		return maps && sw && pcs && err ? err : -ENOMEM;
	}
	memset(probes, 1, interp_code__slots(code));
	for (size_t m = 0; m < obj->map_cnt; m++)
		maps[m].def = obj->maps[m];
	for (uint32_t run = 0; run < (o->runs ? o->runs : 32); run++) {
		struct interp_env env = { 0 };
		struct interp_result res;

		rule = safe_rule_run(&all, run);
		/* a read-only context is the whole structure (sk_reuseport's followed by its
		 * packet: interp_input_pkt_off); packets of 14..213 bytes */
		bool pkt = !ro || ebpf_ctx_ro_pkt(type);	/* (sk_msg's too) */
		size_t len = (pkt ? run == 0 ? 64 : 14 + mix(&seed) % 200 : 0) + ro;

		for (size_t i = 0; i < sizeof(input); i++)
			input[i] = run == 1 ? 0xff : run == 0 ? 0 : (uint8_t)mix(&seed);
		if (run == 0 && o->input) {
			len = o->input_len < sizeof(input) ? o->input_len : sizeof(input);
			memcpy(input, o->input, len);
		}
		/* a BTF context's struct arguments are kernel objects (each its own); an
		 * iterator's targets NULL in every fourth run (the iteration's end) */
		for (uint32_t k = 0; ebpf_prog_type_btf_ctx(type) && k < prog->btf_ctx.nslots &&
				     (k + 1) * 8 <= len; k++)
			if (prog->btf_ctx.slot[k] == EBPF_SLOT_PTR ||
			    prog->btf_ctx.slot[k] == EBPF_SLOT_PTR_OR_NULL) {
				uint64_t va = prog->btf_ctx.slot[k] == EBPF_SLOT_PTR_OR_NULL &&
						      run % 4 == 0
						      ? 0 : INTERP_VA_BTF + ((uint64_t)k << 32);

				memcpy(input + k * 8, &va, 8);
			}
		for (size_t i = 0; i < sizeof(helper); i++)
			helper[i] = (uint8_t)mix(&seed);
		env.ctx_kind = check_ctx_kind(type);
		env.prog_type = type;
		env.attach_type = prog->btf_ctx.attach_type;
		env.input = input;
		env.input_len = len;
		env.helper_data = helper;
		env.helper_len = sizeof(helper);
		env.maps = maps;
		env.map_cnt = obj->map_cnt;
		env.step_budget = rule.max_insns != UINT64_MAX ? rule.max_insns : budget;
		env.may_goto_budget = rule.may_goto_budget;
		stackinit_watch_init(w, prog->insns, (uint32_t)prog->len, pcs);
		w->allow_uninit_stack = !o->unprivileged;
		if (!o->unprivileged) {
			env.stack_fill = helper;
			env.stack_fill_len = sizeof(helper);
		}
		safe_calls_init(&sw->c, &rule, prog->insns);
		env.probes = probes;
		env.visit = safe_rule_watches_calls(&rule) ? visit_safe : stackinit_visit;
		env.arg = sw;
		if ((err = interp_run(code, &env, &res)))
			break;
		r->runs++;
		if (safe_run_fault(&rule, &res, w, &sw->c, text, sizeof(text)) && !r->faults++) {
			snprintf(r->fault, sizeof(r->fault), "%s", text);
			memcpy(r->fault_input, input, len);
			r->fault_input_len = len;
		}
	}
	interp_code__free(code);
	free(maps);
	free(sw);
	free(pcs);
	free(probes);
	return err;
}

/* Whether the kernel refused the program at a helper call ("program of this type cannot use
 * helper NAME#ID") because it does not offer that helper to the type, as the kernel answers when
 * asked apart from the program (kernel_helper_offered: its build options decide, e.g.
 * bpf_xdp_adjust_meta for XDP on some kernels), while the prototype table, which follows
 * mainline and which the analyzer checked the call against, offers it: a fact about the kernel,
 * not a verdict on the program, so a program bpfscev calls safe is not an improvement there.  A
 * refusal the probe does not confirm stays a difference; a program bpfscev rejects stays "both
 * reject". */
static bool kernel_lacks_helper(const char *msg, uint32_t type)
{
	static const char pre[] = "program of this type cannot use helper ";
	const struct ebpf_helper_proto *p;
	const char *h;
	int id;

	if (strncmp(msg, pre, sizeof(pre) - 1) || !(h = strrchr(msg, '#')) ||
	    sscanf(h + 1, "%d", &id) != 1 || !(p = ebpf_helper_entry(id)) || type >= 64)
		return false;
	/* (a section that names no type: the kernel was asked as a socket filter, the loader's
	 * choice, not the program's, about a helper of the types its helpers name) */
	if (type == BPF_PROG_TYPE_UNSPEC)
		return true;
	return (p->types >> type & 1) && kernel_helper_offered(type, id) == 0;
}

/* Whether the unprivileged kernel's refusal is by a rule bpfscev's unprivileged rule does not
 * model (kernel_unpriv_rule): the kernel then judges nothing of bpfscev's verdict.  The stores
 * of pointers bpfscev does refuse ("R1 leaks addr into map", absint_verdict.c's verify_leak) and
 * reads of unwritten stack are judged: the same words in both reasons are an agreement, and a
 * program bpfscev calls safe that the kernel refuses so is a rule gap to look at. */
static const char *const unpriv_modeled[] = { "leaks addr into map", "leaks addr into mem",
					      "leaks addr into ctx", "leaks addr into packet",
					      "leaks addr into helper function",
					      /* reads of unwritten stack, directly, by a helper,
					       * at a variable offset */
					      "read from stack" };

static bool unpriv_modeled_refusal(const char *message)
{
	for (size_t k = 0; k < sizeof(unpriv_modeled) / sizeof(unpriv_modeled[0]); k++)
		if (strstr(message, unpriv_modeled[k]))
			return true;
	return false;
}

static bool unpriv_rule_only(const struct kernel_prog *kp)
{
	return !kp->accepted && kernel_unpriv_rule(kp->message) &&
	       !unpriv_modeled_refusal(kp->message);
}

/* A refusal of the load's setup before the verifier walks an instruction: a tracing program whose
 * target is not in this kernel (a test module's function, another BPF program: no btf_id found),
 * or a sleepable one of a type that may not sleep.  Not a verdict on the program. */
static bool attach_refusal(const char *msg)
{
	static const char *const setup[] = {
		"Tracing programs must provide btf_id",
		"Only fentry/fexit/fmod_ret, lsm, iter, uprobe, and struct_ops programs can be "
		"sleepable",
	};

	for (size_t k = 0; k < sizeof(setup) / sizeof(setup[0]); k++)
		if (!strcmp(msg, setup[k]))
			return true;
	return false;
}

/* A program bpfscev calls safe by the unprivileged rule and the unprivileged kernel refuses
 * with a message kernel_unpriv_rule does not know — the limits the speculative paths of its
 * Spectre v1 analysis reach ("The sequence of 8193 jumps is too complex", pushed for every
 * branch), or any rule not listed there — is asked of the root kernel too: when root accepts
 * it, the refusal is the unprivileged verifier's own (VC_UNPRIV_RULE), unless it is one of the
 * refusals bpfscev's unprivileged rule models (a read of unwritten stack, a pointer stored),
 * which is a rule gap to look at. */
static bool root_accepts_instead(const struct ebpf_object *obj, const struct ebpf_prog *prog,
				 uint32_t type, const struct kernel_prog *kp)
{
	struct kernel_prog_opts ko = { .sz = sizeof(ko), .prog_type = type, .log_level = 4,
				       .log_size = 1 << 16 };
	struct kernel_prog *root = NULL;
	struct diag d;
	bool yes;

	if (kp->accepted || unpriv_modeled_refusal(kp->message))
		return false;
	diag_clear(&d);
	if (kernel_prog__load(&root, obj, prog, &ko, &d))
		return false;
	yes = root->accepted;
	kernel_prog__free(root);
	return yes;
}

int verdict_compare(struct verdict_report *r, const struct ebpf_object *obj,
		    const struct ebpf_prog *prog, const struct verdict_opts *uo, struct diag *d)
{
	struct verdict_opts o = { 0 };
	struct scev_opts so = { .sz = sizeof(so) };
	uint32_t type;
	int err;

	memset(r, 0, sizeof(*r));
	if (uo)
		memcpy(&o, uo, uo->sz && uo->sz < sizeof(o) ? uo->sz : sizeof(o));
	type = o.prog_type ? o.prog_type : prog->prog_type;
	so.prog_type = type;
	so.no_ranges = true;
	so.unprivileged = o.unprivileged;
	if (o.ours) {
		r->ours = *o.ours;	/* (ours_usec 0: not timed here) */
	} else {
		r->ours_usec = wall_s();
		err = scev_verify(&r->ours, NULL, prog, obj->maps, obj->map_cnt, &so, d);
		r->ours_usec = (wall_s() - r->ours_usec) * 1e6;
		if (err)
			return err;
	}
	if (r->ours.kind == VERDICT_SAFE && (err = run_safe(r, obj, prog, &o, type)))
		return diag_set(d, -err, "running the program failed: %s", strerror(-err));
	r->cls = VC_NO_KERNEL;
	r->kernel_processed = r->kernel_usec = -1;
	if (o.kernel && o.unprivileged && kernel_type_needs_perfmon(type) &&
	    kernel_available(NULL, 0)) {
		r->cls = VC_UNPRIV_SKIP;
		snprintf(r->kernel_message, sizeof(r->kernel_message), "not judgeable unprivileged: "
			 "program type %u needs CAP_PERFMON to load", type);
		return 0;
	}
	if (o.kernel && kernel_available(NULL, 0)) {
		struct kernel_prog_opts ko = { .sz = sizeof(ko), .prog_type = type,
					       .log_level = o.full_log ? 0 : 4,
					       .unprivileged = o.unprivileged };
		struct kernel_prog *kp = NULL;
		bool ours = r->ours.kind == VERDICT_SAFE;

		if ((err = kernel_prog__load(&kp, obj, prog, &ko, d))) {
			if (!o.keep_load_errors)
				return err;
			r->cls = VC_NO_LOAD;
			diag_format(d, r->kernel_message, sizeof(r->kernel_message));
			diag_clear(d);
			return 0;
		}
		r->kernel_accepted = kp->accepted;
		r->kernel_err = kp->err;
		snprintf(r->kernel_message, sizeof(r->kernel_message), "%s", kp->message);
		r->kernel_processed = kp->processed;
		r->kernel_usec = kp->verification_usec;
		r->kernel_log = strdup(kp->log);
		/* (a refusal before the verifier walks an instruction, its log saying nothing: the
		 * load's setup failed — an attach target, a program type's demand — not a verdict) */
		if (o.keep_load_errors && !kp->accepted &&
		    (kp->processed < 0 || (ours && kernel_lacks_helper(kp->message, type)) ||
		     (kp->processed == 0 && (kp->log_silent || attach_refusal(kp->message)))))
			r->cls = VC_NO_LOAD;
		else if (o.unprivileged && unpriv_rule_only(kp))
			r->cls = VC_UNPRIV_RULE;
		else if (o.unprivileged && ours && root_accepts_instead(obj, prog, type, kp)) {
			r->cls = VC_UNPRIV_RULE;
			snprintf(r->kernel_message, sizeof(r->kernel_message), "%.440s (the root "
				 "kernel accepts it)", kp->message);
		} else
			r->cls = verdict_classify(ours, kp->accepted, kp->message);
		kernel_prog__free(kp);
	}
	return 0;
}
