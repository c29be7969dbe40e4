/* The kernel as an unprivileged judge (kernel_prog_opts.unprivileged, kernel_unpriv_call in
 * oracle/kernel/kernel.h): programs loaded from a thread that holds CAP_BPF and CAP_NET_ADMIN
 * only, where the verifier refuses reads of stack bytes not written on every path
 * (allow_uninit_stack = perfmon_capable()), which the root kernel allows.
 *
 * - The thread really lacks CAP_PERFMON and CAP_SYS_ADMIN (its CapEff in
 *   /proc/thread-self/status, and the kernel's refusal of a kprobe program, which needs
 *   CAP_PERFMON), holds CAP_BPF (a socket filter and an XDP program load, whatever
 *   kernel.unprivileged_bpf_disabled says), and the capabilities are the thread's alone: the
 *   calling thread's are the same before and after.
 * - Issue 14 §2's unsafe twins in the form the unprivileged kernel can walk (corpus
 *   array_fill_ptr_short, _gaps, _read_past: a pointer stepped by a constant; and
 *   loop_defined_stack_exit_before_write) are refused by the unprivileged kernel for reading
 *   unwritten stack and accepted by the root kernel; their safe form (array_fill_ptr_sum) is
 *   accepted by both; verdict_compare with the unprivileged rule agrees with the kernel on each
 *   (both reject, both accept).  The index form of the other §2 cases (array_fill_short,
 *   array_fill_then_sum, ...: fp-128 + 8*i) the unprivileged kernel refuses, safe or not, by its
 *   Spectre v1 rule (one instruction adding a different constant each iteration): root accepts
 *   them, and their class is unpriv-rule, never an improvement.  A kernel without Spectre
 *   mitigations (mitigations=off: bypass_spec_v1 for every loader) has no such rule: asked
 *   first with a probe of its own, it skips those cases with one line.
 * - Refusals by rules only the unprivileged verifier applies and bpfscev does not model (a
 *   pointer returned, a pointer comparison) are their own class, unpriv-rule, never an
 *   improvement; a pointer stored into a map value, which bpfscev refuses by the same rule, is
 *   an agreement; a kprobe program is unpriv-skip, not asked.
 * Without bpf() the test skips.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bpf/prog.h"
#include "casefile/casefile.h"
#include "oracle/kernel/kernel.h"
#include "tests/check.h"
#include "tests/verdict_case.h"
#include "triage/verdict.h"

#define CAP_NET_ADMIN_BIT 12
#define CAP_SYS_ADMIN_BIT 21
#define CAP_PERFMON_BIT 38
#define CAP_BPF_BIT 39

/* This thread's effective capabilities, from /proc/thread-self/status; false when unreadable. */
static bool cap_eff(uint64_t *eff)
{
	FILE *f = fopen("/proc/thread-self/status", "r");
	char line[256];
	bool ok = false;

	if (!f)
		return false;
	while (!ok && fgets(line, sizeof(line), f))
		ok = sscanf(line, "CapEff: %" SCNx64, eff) == 1;
	fclose(f);
	return ok;
}

static int read_caps(void *arg)
{
	uint64_t *eff = arg;

	return cap_eff(eff) ? 0 : -EIO;
}

static bool has(uint64_t caps, int bit)
{
	return caps >> bit & 1;
}

static void check_thread_caps(void)
{
	uint64_t before = 0, inside = 0, after = 0;
	struct diag d;
	int err;

	diag_clear(&d);
	CHECK(cap_eff(&before), "cannot read this thread's CapEff");
	err = kernel_unpriv_call(read_caps, &inside, &d);
	CHECK(err == 0, "kernel_unpriv_call: %d %s", err, d.msg);
	CHECK(cap_eff(&after), "cannot read this thread's CapEff again");
	printf("CapEff: caller 0x%" PRIx64 ", unprivileged loader 0x%" PRIx64 ", caller after "
	       "0x%" PRIx64 "\n", before, inside, after);
	CHECK(!has(inside, CAP_PERFMON_BIT) && !has(inside, CAP_SYS_ADMIN_BIT),
	      "the unprivileged loader holds CAP_PERFMON or CAP_SYS_ADMIN: 0x%" PRIx64, inside);
	CHECK(has(inside, CAP_BPF_BIT) && has(inside, CAP_NET_ADMIN_BIT),
	      "the unprivileged loader lacks CAP_BPF or CAP_NET_ADMIN: 0x%" PRIx64, inside);
	CHECK(inside == (1ull << CAP_BPF_BIT | 1ull << CAP_NET_ADMIN_BIT),
	      "the unprivileged loader holds more than CAP_BPF and CAP_NET_ADMIN: 0x%" PRIx64,
	      inside);
	CHECK(before == after, "the caller's capabilities changed: 0x%" PRIx64 " -> 0x%" PRIx64,
	      before, after);
}

/* Loads text (a case file or plain assembly) as type, root or unprivileged; the result or NULL
 * (a failed check). */
static struct kernel_prog *load(const char *name, struct ebpf_object *obj, uint32_t type,
				bool unpriv)
{
	struct kernel_prog_opts ko = { .sz = sizeof(ko), .prog_type = type, .log_level = 4,
				       .unprivileged = unpriv };
	struct kernel_prog *kp = NULL;
	struct diag d;

	diag_clear(&d);
	if (kernel_prog__load(&kp, obj, &obj->progs[0], &ko, &d)) {
		CHECK(0, "%s (%s): cannot ask the kernel: %s", name, unpriv ? "unprivileged" : "root",
		      d.msg);
		return NULL;
	}
	return kp;
}

static struct ebpf_object *open_text(const char *name, const char *text)
{
	struct ebpf_object *obj = NULL;
	struct diag d;

	diag_clear(&d);
	if (casefile__open_object_mem(&obj, text, strlen(text), name, &d)) {
		CHECK(0, "%s: %s (line %d)", name, d.msg, d.line);
		return NULL;
	}
	return obj;
}

/* Who may load what: a kprobe needs CAP_PERFMON (refused, EPERM, before any verification), a
 * socket filter and an XDP program CAP_BPF (and CAP_NET_ADMIN) only. */
static void check_types(void)
{
	static const struct {
		const char *name;
		uint32_t type;
		bool unpriv_loads;
	} t[] = {
		{ "socket filter", BPF_PROG_TYPE_SOCKET_FILTER, true },
		{ "xdp", BPF_PROG_TYPE_XDP, true },
		{ "tc", BPF_PROG_TYPE_SCHED_CLS, true },
		{ "kprobe", BPF_PROG_TYPE_KPROBE, false },
		{ "tracepoint", BPF_PROG_TYPE_TRACEPOINT, false },
	};
	struct ebpf_object *obj = open_text("r0 = 0", "r0 = 0\nexit\n");
	FILE *f = fopen("/proc/sys/kernel/unprivileged_bpf_disabled", "r");
	int disabled = -1;

	if (f) {
		if (fscanf(f, "%d", &disabled) != 1)
			disabled = -1;
		fclose(f);
	}
	printf("kernel.unprivileged_bpf_disabled = %d\n", disabled);
	for (size_t k = 0; obj && k < sizeof(t) / sizeof(t[0]); k++) {
		struct kernel_prog *root = load(t[k].name, obj, t[k].type, false);
		struct kernel_prog *un = load(t[k].name, obj, t[k].type, true);

		if (root && un) {
			CHECK(root->accepted, "%s: refused as root: %s", t[k].name, root->message);
			CHECK(un->accepted == t[k].unpriv_loads, "%s: %s unprivileged (%s)", t[k].name,
			      un->accepted ? "accepted" : "refused", un->message);
			if (!t[k].unpriv_loads)
				CHECK(un->err == EPERM && un->processed < 0 &&
				      kernel_type_needs_perfmon(t[k].type),
				      "%s: unprivileged refusal err %d, %ld processed", t[k].name,
				      un->err, un->processed);
			else
				CHECK(!kernel_type_needs_perfmon(t[k].type), "%s needs CAP_PERFMON?",
				      t[k].name);
		}
		kernel_prog__free(root);
		kernel_prog__free(un);
	}
	ebpf_object__free(obj);
}

/* Corpus cases of issue 14 §2.  The twins read stack bytes a loop left unwritten; the forms
 * the unprivileged kernel can walk fill the array through a pointer stepped by a constant.
 * Then pointers leaked through helpers: a helper's memory holding a spilled pointer (a
 * TWIN: "invalid read from stack", exposeptr.o's func) or a pointer given as a number
 * (HELPER_LEAK: "leaks addr into helper function"), each with a safe form. */
enum form { TWIN, SAFE_FORM, SPECTRE, HELPER_LEAK };
static const struct {
	const char *name;
	enum form form;
} cases[] = {
	{ "array_fill_ptr_short", TWIN },
	{ "array_fill_ptr_gaps", TWIN },
	{ "array_fill_ptr_read_past", TWIN },
	{ "loop_defined_stack_exit_before_write", TWIN },
	{ "array_fill_ptr_sum", SAFE_FORM },
	/* (two fields of each element through one stepped pointer: each store its own runs) */
	{ "loop_two_fields_stack", SAFE_FORM },
	{ "loop_two_fields_field_unwritten", TWIN },
	{ "loop_two_fields_down", SAFE_FORM },
	{ "loop_two_fields_down_gap", TWIN },
	{ "loop_two_fields_narrow", SAFE_FORM },
	{ "loop_two_fields_narrow_gap", TWIN },
	/* The index form (fp-128 + 8*i, and a pointer that ends at fp+0): refused unprivileged by
	 * the Spectre v1 rule, safe and unsafe alike, so the kernel judges none of them there */
	{ "array_fill_short", SPECTRE },
	{ "array_fill_at_least_read_past", SPECTRE },
	{ "array_fill_gaps", SPECTRE },
	{ "array_fill_while_top_short", SPECTRE },
	{ "array_fill_conditional", SPECTRE },
	{ "array_fill_then_sum", SPECTRE },
	{ "array_fill_at_least", SPECTRE },
	{ "array_fill_while_top", SPECTRE },
	{ "array_fill_down_u32", SPECTRE },
	{ "array_fill_pointer_iv", SPECTRE },
	{ "unpriv_helper_reads_spilled_ptr", TWIN },
	{ "unpriv_helper_reads_spilled_number", SAFE_FORM },
	{ "unpriv_helper_reads_caller_spilled_ptr", TWIN },
	{ "unpriv_helper_reads_caller_spilled_number", SAFE_FORM },
	{ "unpriv_helper_anything_ptr", HELPER_LEAK },
	{ "unpriv_helper_anything_number", SAFE_FORM },
};

/* Whether this kernel applies its Spectre v1 rule to an unprivileged loader: bypass_spec_v1 is
 * cpu_mitigations_off() || perfmon_capable(), so a kernel booted with mitigations=off (or built
 * without CONFIG_CPU_MITIGATIONS) has none, and the SPECTRE cases are then not its to judge.
 * Asked with a program of its own, which only that rule refuses: a variable offset added to the
 * frame pointer ("R3 variable stack access prohibited for !root"). */
static bool spectre_v1_applied(void)
{
	struct ebpf_object *obj = open_text("spectre probe", "r2 = *(u32 *)(r1 +0)\nr2 &= 7\n"
					    "r3 = r10\nr3 += -16\nr3 += r2\n"
					    "*(u8 *)(r3 +0) = 0\nr0 = 0\nexit\n");
	struct kernel_prog *root = NULL, *un = NULL;
	bool applied = true;

	if (obj) {
		root = load("spectre probe", obj, BPF_PROG_TYPE_SOCKET_FILTER, false);
		un = load("spectre probe", obj, BPF_PROG_TYPE_SOCKET_FILTER, true);
	}
	if (root && un) {
		const char *rule = un->accepted ? NULL : kernel_unpriv_rule(un->message);

		CHECK(root->accepted, "spectre probe: refused as root: %s", root->message);
		CHECK(un->accepted || (rule && !strcmp(rule, "Spectre v1")), "spectre probe: "
		      "refused unprivileged by another rule: %s", un->message);
		applied = !un->accepted;
		printf("spectre probe: unprivileged %s%s\n", un->accepted ? "accepted" : "refused: ",
		       un->accepted ? "" : un->message);
	}
	kernel_prog__free(root);
	kernel_prog__free(un);
	ebpf_object__free(obj);
	return applied;
}

static void check_case(const char *name, enum form form)
{
	static const enum verdict_class want[] = { [TWIN] = VC_BOTH_REJECT,
						   [SAFE_FORM] = VC_BOTH_ACCEPT,
						   [SPECTRE] = VC_UNPRIV_RULE,
						   [HELPER_LEAK] = VC_BOTH_REJECT };
	char path[4096];
	struct ebpf_object *obj = NULL;
	struct kernel_prog *root, *un;
	struct verdict_opts vo = { .sz = sizeof(vo), .kernel = true, .unprivileged = true };
	struct verdict_report r;
	struct diag d;

	snprintf(path, sizeof(path), "%s/corpus/cases/%s.case", check_source_dir(), name);
	diag_clear(&d);
	if (casefile__open_object(&obj, path, &d)) {
		CHECK(0, "%s: %s", path, d.msg);
		return;
	}
	root = load(name, obj, 0, false);
	un = load(name, obj, 0, true);
	if (root && un) {
		const char *rule = un->accepted ? NULL : kernel_unpriv_rule(un->message);

		printf("%-40s root: %s; unprivileged: %s%s%s\n", name,
		       root->accepted ? "accepted" : "refused", un->accepted ? "accepted" : "refused",
		       un->accepted ? "" : ": ", un->message);
		CHECK(root->accepted, "%s: the root kernel refuses it: %s", name, root->message);
		if (form == TWIN)
			CHECK(!un->accepted && strstr(un->message, "read from stack") && !rule,
			      "%s: the unprivileged kernel does not refuse its read of unwritten "
			      "stack (%s)", name, un->accepted ? "accepted" : un->message);
		else if (form == HELPER_LEAK)
			CHECK(!un->accepted && strstr(un->message, "leaks addr into helper function"),
			      "%s: the unprivileged kernel does not refuse the pointer given as a "
			      "number (%s)", name, un->accepted ? "accepted" : un->message);
		else if (form == SAFE_FORM)
			CHECK(un->accepted, "%s: the unprivileged kernel refuses it: %s", name,
			      un->message);
		else
			CHECK(!un->accepted && rule && !strcmp(rule, "Spectre v1"),
			      "%s: the unprivileged kernel %s it (%s), not by its Spectre v1 rule",
			      name, un->accepted ? "accepts" : "refuses", un->message);
	}
	kernel_prog__free(root);
	kernel_prog__free(un);
	/* bpfscev's unprivileged verdict against the unprivileged kernel's */
	diag_clear(&d);
	if (verdict_compare(&r, obj, &obj->progs[0], &vo, &d)) {
		CHECK(0, "%s: %s", name, d.msg);
	} else {
		CHECK(r.cls == want[form], "%s: %s, expected %s (ours: %s %s; kernel: %s)", name,
		      verdict_class_name(r.cls), verdict_class_name(want[form]),
		      scev_verdict_name(r.ours.kind), r.ours.reason,
		      r.kernel_accepted ? "accepted" : r.kernel_message);
		verdict_report__free(&r);
	}
	ebpf_object__free(obj);
}

/* The unprivileged kernel's own rules, with the class verdict_compare gives them: want_cls with
 * the unprivileged rule, and the root kernel's agreement with the privileged one. */
static void check_rules(void)
{
	static struct ebpf_map_def value[] = { { .name = "v", .type = BPF_MAP_TYPE_ARRAY,
						     .key_size = 4, .value_size = 8,
						     .max_entries = 1 } };
	static const struct {
		const char *name, *text, *rule;
		enum verdict_class cls;
	} t[] = {
		/* returning the frame pointer: "R0 leaks addr as return value" */
		{ "pointer returned", "r0 = r10\nexit\n", "pointer leak", VC_UNPRIV_RULE },
		/* two stack pointers compared: "R1 pointer comparison prohibited" */
		{ "pointer comparison", "r1 = r10\nr1 += -8\nr2 = r10\nif r1 > r2 goto l\n"
		  "l: r0 = 0\nexit\n", "pointer comparison", VC_UNPRIV_RULE },
		/* the frame pointer stored into a map value: bpfscev refuses it too */
		{ "pointer stored into a map value", "r1 = 0\n*(u32 *)(r10 -4) = r1\nr2 = r10\n"
		  "r2 += -4\nr1 = map[fd:0] ll\ncall bpf_map_lookup_elem\nif r0 == 0 goto out\n"
		  "r1 = r10\n*(u64 *)(r0 +0) = r1\nout: r0 = 0\nexit\n", "pointer leak",
		  VC_BOTH_REJECT },
	};

	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		struct ebpf_object *obj = verdict_case_open(t[k].name, t[k].text, value, 1);
		struct verdict_opts vo = { .sz = sizeof(vo), .kernel = true, .unprivileged = true,
					   .prog_type = BPF_PROG_TYPE_SOCKET_FILTER };
		struct verdict_report r;
		struct diag d;

		if (!obj)
			continue;
		diag_clear(&d);
		if (verdict_compare(&r, obj, &obj->progs[0], &vo, &d)) {
			CHECK(0, "%s: %s", t[k].name, d.msg);
		} else {
			const char *rule = kernel_unpriv_rule(r.kernel_message);

			printf("%-40s unprivileged: %s (ours: %s; kernel: %s)\n", t[k].name,
			       verdict_class_name(r.cls), scev_verdict_name(r.ours.kind),
			       r.kernel_accepted ? "accepted" : r.kernel_message);
			CHECK(r.cls == t[k].cls && !r.kernel_accepted && rule &&
			      !strcmp(rule, t[k].rule), "%s: %s, expected %s (kernel: %s, rule %s)",
			      t[k].name, verdict_class_name(r.cls), verdict_class_name(t[k].cls),
			      r.kernel_accepted ? "accepted" : r.kernel_message, rule ? rule : "none");
			verdict_report__free(&r);
		}
		/* the root kernel allows every one of them */
		vo.unprivileged = false;
		if (!verdict_compare(&r, obj, &obj->progs[0], &vo, &d)) {
			CHECK(r.kernel_accepted, "%s: refused as root: %s", t[k].name,
			      r.kernel_message);
			verdict_report__free(&r);
		}
		verdict_case_close(obj);
	}
	/* a tracing type is not asked unprivileged: a counted skip */
	{
		struct ebpf_object *obj = open_text("kprobe", "r0 = 0\nexit\n");
		struct verdict_opts vo = { .sz = sizeof(vo), .kernel = true, .unprivileged = true,
					   .prog_type = BPF_PROG_TYPE_KPROBE };
		struct verdict_report r;
		struct diag d;

		diag_clear(&d);
		if (obj && !verdict_compare(&r, obj, &obj->progs[0], &vo, &d)) {
			CHECK(r.cls == VC_UNPRIV_SKIP && strstr(r.kernel_message, "CAP_PERFMON"),
			      "kprobe: %s (%s)", verdict_class_name(r.cls), r.kernel_message);
			verdict_report__free(&r);
		} else {
			CHECK(0, "kprobe: %s", d.msg);
		}
		ebpf_object__free(obj);
	}
}

int main(void)
{
	char why[256];
	bool spectre;

	if (!kernel_available(why, sizeof(why)))
		return check_skip("test_unpriv_kernel", "%s", why);
	check_thread_caps();
	check_types();
	spectre = spectre_v1_applied();
	if (!spectre)
		check_skip_part("the Spectre v1 cases: this kernel applies no Spectre v1 rule to an "
				"unprivileged loader (mitigations=off?)");
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		if (spectre || cases[k].form != SPECTRE)
			check_case(cases[k].name, cases[k].form);
	check_rules();
	return check_done("test_unpriv_kernel");
}
