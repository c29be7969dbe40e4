/* Loops whose body leaves in its first pass, every time (issue 15, seed 2012's regressions): the
 * kernel walks the first iteration with the entry's values, finds every path out of the body an
 * exit, and never sees the code only a second iteration or the loop's other exits reach; the
 * analysis's first pass finds none of the loop's back edges reached, so the header runs once,
 * from the entry state (scev/absint_header.c), and that code is dead to the verdict too.  Each
 * case is judged by the running kernel (the class it must get), the programs called safe are
 * run (none may fault), and their claims judged by the interpreter and Z3 (none refuted; every
 * such loop's trip claim is exactly 1).  Twins change one constant so that the body does go
 * round (or the first pass's exit is the faulting code): unsafe, as the kernel says, and their
 * runs, forged safe, do fault.  Without bpf() the kernel's classes are skipped (one line).
 */
#include <string.h>

#include "fuzz/pipeline.h"
#include "tests/check.h"
#include "tests/verdict_case.h"

/* r9 counts down from S to R; the header tests bit 3 of it and returns when clear: from 0x54
 * the first test returns (the header step's range [0x4b, 0x54] has values with the bit set),
 * from 0x5c the body runs until r9 < 0x5a and the access past the frame follows */
#define BIT(S, R)                                                                                 \
	"-- asm\nr6 = 0\nr9 = " S "\nr7 = " R "\nloop: if r9 & 0x8 goto body\nr0 = r6\nexit\n"     \
	"body: r6 += r9\nr9 += -1\nif r9 >= r7 goto loop\nr0 = *(u64 *)(r10 +8)\nexit\n"          \
	"-- type\nxdp\n"
/* three nested loops, the innermost counting a stack cell down from S and returning when its
 * bit 3 is clear (seed 2012 program 5's shape): from 85 at once, from 95 down to 88, then the
 * middle and outer loops go round and reach the access past the frame */
#define NEST(S)                                                                                   \
	"-- asm\nr7 = 0\nr8 = 0\nouter: if r8 >= 3 goto after\nr9 = 10\n"                          \
	"mid: if r9 s> 12 goto next\n*(u32 *)(r10 -56) = " S "\n"                                  \
	"inner: r0 = *(u32 *)(r10 -56)\nif w0 == 88 goto step\nif r0 & 0x8 goto down\n"            \
	"r0 = r7\nexit\ndown: w0 -= 1\n*(u32 *)(r10 -56) = r0\ngoto inner\n"                       \
	"step: r9 += 1\ngoto mid\nnext: r8 += 1\ngoto outer\n"                                     \
	"after: r0 = *(u64 *)(r10 +8)\nexit\n-- type\nxdp\n"
/* seed 2012 program 94, reduced (bpfscev reduce --class regression): the loop reads r2, never
 * written, after the header's test of r9 = B */
#define P94(B)                                                                                    \
	"-- asm\nr0 = *(u64 *)(r10 -8)\nr9 = " B " ll\nif r9 & 0x1 goto pc+1\nexit\nr9 += 1\n"     \
	"if r0 >= r2 goto pc-4\nexit\n-- type\nsocket\n"
/* seed 2012 program 5, reduced (a socket filter: r0 = the skb's pkt_type, a number): the body
 * returns unless r0 & M, then the counter's exit reads through that number */
#define P5(M)                                                                                     \
	"-- asm\nr0 = *(u32 *)(r1 +4)\nr8 = 0\nif r8 s> 0x0 goto pc+4\nif r0 & " M " goto pc+1\n"  \
	"exit\nr8 += 1\ngoto pc-5\nr0 = *(u64 *)(r0 +0)\nexit\n-- type\nsocket\n"

static const struct {
	const char *name, *text;
	uint8_t want;
	const char *reason;		/* in bpfscev's reason (unsafe) */
	enum verdict_class kclass;
	const char *fault;		/* unsafe: what the runs of it forged safe hit */
} cases[] = {
	{ "bit_once", BIT("0x54", "0x4c"), SAFE, NULL, VC_BOTH_ACCEPT, NULL },
	{ "bit_goes_round_unsafe", BIT("0x5c", "0x5a"), UNSAFE, "stack access [8, 16)",
	  VC_BOTH_REJECT, "fp+8" },
	{ "nest_once", NEST("85"), SAFE, NULL, VC_BOTH_ACCEPT, NULL },
	{ "nest_goes_round_unsafe", NEST("95"), UNSAFE, "stack access [8, 16)", VC_BOTH_REJECT,
	  "fp+8" },
	/* the first pass's way out is the faulting access itself: still checked */
	{ "once_into_the_fault_unsafe",
	  "-- asm\nr6 = 0\nr9 = 0x54\nloop: if r9 & 0x8 goto body\nr0 = *(u64 *)(r10 +8)\nexit\n"
	  "body: r6 += r9\nr9 += -1\nif r9 >= 0x50 goto loop\nr0 = r6\nexit\n-- type\nxdp\n",
	  UNSAFE, "stack access [8, 16)", VC_BOTH_REJECT, "fp+8" },
	{ "seed2012_p94_reduced", P94("0x0"), SAFE, NULL, VC_BOTH_ACCEPT, NULL },
	{ "seed2012_p94_goes_round_unsafe", P94("0x1"), UNSAFE, "R2 may be read before it is written",
	  VC_BOTH_REJECT, NULL },
	{ "seed2012_p5_reduced", P5("0x0"), SAFE, NULL, VC_BOTH_ACCEPT, NULL },
	{ "seed2012_p5_goes_round_unsafe", P5("0x1"), UNSAFE, "R0 is not a known pointer",
	  VC_BOTH_REJECT, NULL },
};

/* The claims of a program called safe, judged by the interpreter and Z3: none refuted, and every
 * loop's trip claim exactly 1. */
static void claims(const char *name, const char *text)
{
	struct ebpf_object *obj = NULL;
	struct pipeline_result r = { 0 };
	struct pipeline_subject s = { 0 };
	struct pipeline_opts o = { .sz = sizeof(o), .runs = 8, .step_budget = 10000, .z3 = true,
				   .z3_rlimit = 1000000, .z3_program_rlimit = 8000000 };
	struct diag d;

	diag_clear(&d);
	if (casefile__open_object_mem(&obj, text, strlen(text), name, &d)) {
		CHECK(0, "%s: %s (line %d)", name, d.msg, d.line);
		return;
	}
	s.obj = obj;
	s.prog = &obj->progs[0];
	CHECK(!pipeline_run(&r, &s, &o, &d), "%s: pipeline_run: %s", name, d.msg);
	CHECK(r.has_exec && r.exec.checks > 0 && r.exec.nfindings == 0, "%s: exec %llu checks, %u "
	      "findings", name, (unsigned long long)r.exec.checks, r.exec.nfindings);
	CHECK(r.has_z3 && r.z3.refuted == 0 && r.z3.nfindings == 0, "%s: z3 refuted %u, %u findings",
	      name, r.z3.refuted, r.z3.nfindings);
	CHECK(r.claims.nloops > 0, "%s: no loop claimed", name);
	for (uint32_t l = 0; l < r.claims.nloops; l++)
		CHECK(r.claims.loops[l].trip.kind == TRIP_EXACT && r.claims.loops[l].trip.max == 1,
		      "%s: loop at %u: trip kind %u max %llu, expected exactly 1", name,
		      r.claims.loops[l].header, r.claims.loops[l].trip.kind,
		      (unsigned long long)r.claims.loops[l].trip.max);
	pipeline_result__free(&r);
	ebpf_object__free(obj);
}

int main(void)
{
	bool kernel = verdict_case_kernel("the kernel's verdicts");

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct verdict_opts vo = { .sz = sizeof(vo), .kernel = kernel };

		verdict_case_file(cases[k].name, cases[k].text, &vo, cases[k].want, cases[k].reason,
				  cases[k].kclass);
		if (cases[k].want == SAFE)
			claims(cases[k].name, cases[k].text);
		if (cases[k].fault) {
			const char *asm_text = strstr(cases[k].text, "-- asm\n") + 7;
			char text[1024];
			size_t n = (size_t)(strstr(asm_text, "-- type") - asm_text);

			memcpy(text, asm_text, n);
			text[n] = '\0';
			verdict_case_forged_faults(cases[k].name, text, NULL, 0, cases[k].fault);
		}
	}
	return check_done("test_loop_once");
}
