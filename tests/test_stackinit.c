/* The stack watch of verdict runs (oracle/exec/stackinit.h): safe verdicts forged for programs
 * that read stack bytes never written must fault when run, with the byte named; programs that
 * write before they read (also through loops, helpers and the frames of callees) must not.
 * Each fault is also what bpfscev verify itself says of the program (unsafe, "not written"), so
 * the watch and the analyzer agree where both are asked.  That is the unprivileged rule
 * (verdict_opts.unprivileged); by the default, privileged one (the kernel's allow_uninit_stack)
 * the same runs read drawn bytes without a fault, and bpfscev verify calls the programs safe.
 * The claim checker's runs of a program called safe (check_opts.safe) watch the same way. */
#include <string.h>

#include "oracle/exec/check.h"
#include "tests/check.h"
#include "triage/verdict.h"

static const struct {
	const char *name, *text;
	uint32_t type;
	const char *fault;	/* NULL: runs cleanly */
} cases[] = {
	{ "read below the bytes written",
	  "r1 = 0\n*(u64 *)(r10 -8) = r1\nr0 = *(u64 *)(r10 -16)\nexit\n",
	  BPF_PROG_TYPE_SOCKET_FILTER, "byte -16 never written" },
	{ "a narrow read of a written word", "*(u32 *)(r10 -8) = 7\nr0 = *(u8 *)(r10 -6)\nexit\n",
	  BPF_PROG_TYPE_SOCKET_FILTER, NULL },
	{ "a wide read over a narrow write", "*(u32 *)(r10 -8) = 7\nr0 = *(u64 *)(r10 -8)\nexit\n",
	  BPF_PROG_TYPE_SOCKET_FILTER, "byte -4 never written" },
	{ "an atomic add on unwritten bytes",
	  "r1 = 1\nlock *(u64 *)(r10 -8) += r1\nr0 = 0\nexit\n", BPF_PROG_TYPE_SOCKET_FILTER,
	  "atomic reads" },
	{ "a loop writing every element before a loop reads them",
	  "r1 = 0\nl: r2 = r10\nr2 += -64\nr3 = r1\nr3 <<= 3\nr2 += r3\n*(u64 *)(r2 +0) = r1\n"
	  "r1 += 1\nif r1 < 8 goto l\nr0 = 0\nr1 = r10\nr1 += -64\nm: r2 = *(u64 *)(r1 +0)\n"
	  "r0 += r2\nr1 += 8\nr3 = r10\nif r1 < r3 goto m\nexit\n",
	  BPF_PROG_TYPE_SOCKET_FILTER, NULL },
	{ "a loop writing all but the last element",
	  "r1 = 0\nl: r2 = r10\nr2 += -64\nr3 = r1\nr3 <<= 3\nr2 += r3\n*(u64 *)(r2 +0) = r1\n"
	  "r1 += 1\nif r1 < 7 goto l\nr0 = *(u64 *)(r10 -8)\nexit\n",
	  BPF_PROG_TYPE_SOCKET_FILTER, "byte -8 never written" },
	{ "a helper writing its output buffer",
	  "r3 = *(u64 *)(r1 +104)\nr1 = r10\nr1 += -16\nr2 = 16\ncall bpf_probe_read\n"
	  "r0 = *(u64 *)(r10 -8)\nexit\n", BPF_PROG_TYPE_KPROBE, NULL },
	/* the callee's frame is new at each call, though the caller ran another callee there */
	{ "a callee reading its own frame's unwritten bytes",
	  "call w\ncall r\nexit\nw: r1 = 5\n*(u64 *)(r10 -8) = r1\nr0 = 0\nexit\n"
	  "r: r0 = *(u64 *)(r10 -8)\nexit\n", BPF_PROG_TYPE_SOCKET_FILTER,
	  "frame 1, byte -8 never written" },
	{ "a callee reading its caller's written bytes through a pointer",
	  "r1 = 3\n*(u64 *)(r10 -8) = r1\nr1 = r10\nr1 += -8\ncall f\nexit\n"
	  "f: r0 = *(u64 *)(r1 +0)\nexit\n", BPF_PROG_TYPE_SOCKET_FILTER, NULL },
};

/* The same watch on the claim checker's runs (check_opts.safe, the campaign's execution oracle
 * judging a program called safe with the claims' own runs): the same faults, none elsewhere. */
static void checker_runs(const struct ebpf_object *obj, size_t k)
{
	struct safe_rule rule = { .max_insns = UINT64_MAX, .step_budget = 10000,
				  .unprivileged = true };
	struct check_opts co = { .sz = sizeof(co), .runs = 3, .step_budget = 10000,
				 .input_len = 256, .safe = &rule };
	struct ebpf_prog view = obj->progs[0];
	struct claim_prog none = { 0 };
	struct check_result res;

	view.prog_type = cases[k].type;
	CHECK(oracle_check(&res, obj, &view, &none, &co) == 0, "%s: checker runs", cases[k].name);
	if (cases[k].fault)
		CHECK(res.safe_faults == 3 && strstr(res.safe_fault, cases[k].fault) &&
			      res.safe_input_len == 256,
		      "%s: %llu of 3 checker runs faulted: %s", cases[k].name,
		      (unsigned long long)res.safe_faults, res.safe_fault);
	else
		CHECK(res.safe_faults == 0 && res.runs == 3, "%s: checker runs: %s", cases[k].name,
		      res.safe_fault);
	check_result__free(&res);
	/* the privileged rule: no fault */
	rule.unprivileged = false;
	CHECK(oracle_check(&res, obj, &view, &none, &co) == 0 && res.safe_faults == 0,
	      "%s, privileged: checker runs: %s", cases[k].name, res.safe_fault);
	check_result__free(&res);
}

int main(void)
{
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct ebpf_object *obj = NULL;
		struct verdict_opts vo = { .sz = sizeof(vo), .prog_type = cases[k].type, .runs = 3,
					   .unprivileged = true };
		struct verdict_report r;
		struct diag d;

		diag_clear(&d);
		if (ebpf_object__open_mem(&obj, cases[k].text, strlen(cases[k].text), cases[k].name,
					  &d)) {
			CHECK(0, "%s: %s (line %d)", cases[k].name, d.msg, d.line);
			continue;
		}
		memset(&r, 0, sizeof(r));
		r.ours.kind = VERDICT_SAFE;	/* forged: the runs judge */
		r.ours.max_insns = UINT64_MAX;
		CHECK(verdict_execute(&r, obj, &obj->progs[0], &vo) == 0, "%s: runs", cases[k].name);
		if (cases[k].fault)
			CHECK(r.faults == r.runs && r.runs == 3 && strstr(r.fault, cases[k].fault),
			      "%s: %llu of %llu runs faulted: %s", cases[k].name,
			      (unsigned long long)r.faults, (unsigned long long)r.runs, r.fault);
		else
			CHECK(r.faults == 0 && r.runs == 3, "%s: %s", cases[k].name, r.fault);
		checker_runs(obj, k);
		/* where the watch sees a read of unwritten bytes, the analyzer does not call the
		 * program safe */
		if (cases[k].fault) {
			struct verdict_report v;

			diag_clear(&d);
			vo.runs = 1;
			CHECK(verdict_compare(&v, obj, &obj->progs[0], &vo, &d) == 0 &&
				      v.ours.kind != VERDICT_SAFE,
			      "%s: bpfscev verify calls it %s", cases[k].name,
			      scev_verdict_name(v.ours.kind));
			verdict_report__free(&v);
			/* the privileged rule: no fault, and safe */
			vo.unprivileged = false;
			vo.runs = 3;
			memset(&r, 0, sizeof(r));
			r.ours.kind = VERDICT_SAFE;
			r.ours.max_insns = UINT64_MAX;
			CHECK(verdict_execute(&r, obj, &obj->progs[0], &vo) == 0 && r.faults == 0 &&
				      r.runs == 3,
			      "%s, privileged: %s", cases[k].name, r.fault);
			CHECK(verdict_compare(&v, obj, &obj->progs[0], &vo, &d) == 0 &&
				      v.ours.kind == VERDICT_SAFE,
			      "%s, privileged: bpfscev verify calls it %s (%s)", cases[k].name,
			      scev_verdict_name(v.ours.kind), v.ours.reason);
			verdict_report__free(&v);
		}
		ebpf_object__free(obj);
	}
	return check_done("test_stackinit");
}
