/* The claim checker's runs of a program called safe (check_opts.safe) leave out the visits of
 * the instructions no claim is at when, by the privileged rule, the register watch cannot fire
 * (stackinit_regs_always_written: every path to every instruction frame 0 runs writes what it
 * reads) and no per-call bound is watched.  These runs must fault exactly where the watch on
 * every instruction faults: the reference is the same check with a main's-own bound no run
 * reaches (safe_rule.main_own), which watches every instruction as before.
 *  - hand-written programs, each reading a register some rule of the proof leaves unwritten (the
 *    entry's registers, a helper's or a callee's r1-r5 on return, LD_ABS, a path that skips the
 *    write, a timer's callback after the program: a function's entry, or pc 0 again), with the
 *    fault worked out by hand; and programs the proof must accept (a callee's return writes r0);
 *  - generated programs with register writes removed at random, each run both ways.
 */
#include <string.h>

#include "casefile/casefile.h"
#include "generators/gen.h"
#include "generators/producer.h"
#include "oracle/exec/check.h"
#include "tests/check.h"

/* The safe-run checks of obj's program, no claims, by the privileged rule: every instruction
 * watched (every) or the checker's choice. */
static int run(const struct ebpf_object *obj, const struct ebpf_prog *prog, bool every,
	       const struct gen_program *gp, struct check_result *res)
{
	struct safe_rule rule = { .max_insns = UINT64_MAX, .step_budget = 10000 };
	struct check_opts co = { .sz = sizeof(co), .runs = 3, .step_budget = 10000,
				 .input_len = 64, .safe = &rule };
	struct claim_prog none = { 0 };

	if (every) {
		rule.main_own = UINT64_MAX;	/* (never passed: only the visits) */
		rule.main_mg_max = UINT64_MAX;
	}
	if (gp) {
		co.runs = 1;
		co.input = gp->input;
		co.fixed_len = gp->input_len;
		co.helper_data = gp->helper_data;
		co.helper_len = gp->helper_len;
	}
	return oracle_check(res, obj, prog, &none, &co);
}

/* Both ways on obj's program: the same faults, the same first text.  Returns the faults. */
static uint64_t both(const struct ebpf_object *obj, const struct ebpf_prog *prog,
		     const struct gen_program *gp, const char *name)
{
	struct check_result a, b;
	uint64_t n;

	if (run(obj, prog, true, gp, &a)) {
		CHECK(0, "%s: every instruction watched: no run", name);
		return 0;
	}
	if (run(obj, prog, false, gp, &b)) {
		CHECK(0, "%s: no run", name);
		check_result__free(&a);
		return 0;
	}
	CHECK(a.safe_faults == b.safe_faults && a.runs == b.runs && a.runs &&
		      !strcmp(a.safe_fault, b.safe_fault),
	      "%s: %llu of %llu runs faulted (%s), watching every instruction %llu of %llu (%s)",
	      name, (unsigned long long)b.safe_faults, (unsigned long long)b.runs, b.safe_fault,
	      (unsigned long long)a.safe_faults, (unsigned long long)a.runs, a.safe_fault);
	n = b.safe_faults;
	check_result__free(&a);
	check_result__free(&b);
	return n;
}

/* main: r6 the value of key 0 of map 0 (test_timer.c's), then the timer armed with callback
 * CB; MAIN0 is main's first instruction (labelled start) */
#define TIMER(main0, cb, cbname)                                                            \
	"-- asm\nstart: " main0 "r1 = map[fd:0] ll\n*(u32 *)(r10 -4) = 0\nr2 = r10\n"       \
	"r2 += -4\ncall bpf_map_lookup_elem\nif r0 == 0 goto out\nr6 = r0\n"                   \
	"r1 = r6\nr1 += 8\nr2 = map[fd:0] ll\nr3 = 1\ncall bpf_timer_init\n"                   \
	"r1 = r6\nr1 += 8\nr2 = func " cbname " ll\ncall bpf_timer_set_callback\n"          \
	"r1 = r6\nr1 += 8\nr2 = 1000000\nr3 = 0\ncall bpf_timer_start\n"                      \
	"out: r0 = 0\nexit\ncb: " cb "-- type\nxdp\n-- maps\narray key=4 value=32 entries=1 timer=8\n"

static const struct {
	const char *name, *text;
	uint32_t type;
	bool proven;		/* stackinit_regs_always_written */
	const char *fault;	/* the first fault, worked out by hand (NULL: none) */
} cases[] = {
	{ "a register the entry does not write", "r0 = r2\nexit\n",
	  BPF_PROG_TYPE_SOCKET_FILTER, false, "pc 0: R2 read, never written" },
	{ "the entry writes r1 and r10", "r0 = r1\nr0 = r10\nexit\n",
	  BPF_PROG_TYPE_SOCKET_FILTER, true, NULL },
	{ "a helper leaves r1-r5 unwritten",
	  "r2 = 1\ncall bpf_get_prandom_u32\nr0 = r2\nexit\n", BPF_PROG_TYPE_SOCKET_FILTER, false,
	  "pc 2: R2 read, never written" },
	{ "a callee's return leaves r1-r5 unwritten",
	  "r3 = 1\ncall f\nr0 = r3\nexit\nf: r0 = 0\nexit\n", BPF_PROG_TYPE_SOCKET_FILTER, false,
	  "pc 2: R3 read, never written" },
	{ "a callee's return writes r0", "call f\nexit\nf: r0 = 0\nexit\n",
	  BPF_PROG_TYPE_SOCKET_FILTER, true, NULL },
	{ "a callee's return keeps r6-r9", "r6 = 1\ncall f\nr0 = r6\nexit\nf: r0 = 0\nexit\n",
	  BPF_PROG_TYPE_SOCKET_FILTER, true, NULL },
	{ "LD_ABS leaves r1-r5 unwritten",
	  "r6 = r1\nr2 = 1\nr0 = *(u8 *)skb[0]\nr0 = r2\nexit\n", BPF_PROG_TYPE_SOCKET_FILTER,
	  false, "pc 3: R2 read, never written" },
	{ "a path that skips the write",
	  "r1 = 5\nif r1 > 3 goto l\nr3 = 1\nl: r0 = r3\nexit\n", BPF_PROG_TYPE_SOCKET_FILTER,
	  false, "pc 3: R3 read, never written" },
	/* (the path that writes met first: a meet that kept what one path writes would stop
	 * there) */
	{ "a path that skips the write, met second",
	  "r1 = 5\nif r1 > 7 goto w\ngoto l\nw: r3 = 1\nl: r0 = r3\nexit\n",
	  BPF_PROG_TYPE_SOCKET_FILTER, false, "pc 4: R3 read, never written" },
	{ "a path never taken that skips the write",
	  "r1 = 5\nif r1 > 7 goto l\nr3 = 1\nl: r0 = r3\nexit\n", BPF_PROG_TYPE_SOCKET_FILTER,
	  false, NULL },
	{ "both paths write", "r1 = 5\nif r1 > 3 goto l\nr3 = 1\nr0 = r3\nexit\nl: r3 = 2\n"
	  "r0 = r3\nexit\n", BPF_PROG_TYPE_SOCKET_FILTER, true, NULL },
	{ "a loop's write before its read", "r1 = 0\nl: r2 = r1\nr1 += 1\nif r1 < 4 goto l\n"
	  "r0 = r2\nexit\n", BPF_PROG_TYPE_SOCKET_FILTER, true, NULL },
	/* the callback runs in frame 0 after the program, r1-r3 and r10 written (pc 26) */
	{ "a timer's callback reading r4", TIMER("", "r0 = r4\nexit\n", "cb"), 0, false,
	  "pc 26: R4 read, never written" },
	{ "a timer's callback reading r1-r3", TIMER("", "r0 = r1\nr0 += r2\nr0 += r3\nr0 = 0\nexit\n",
						    "cb"), 0, true, NULL },
	/* main as the callback: pc 0 again with what the program left (r1 after the helpers:
	 * unwritten) */
	{ "main as its timer's callback", TIMER("r7 = r1\n", "r0 = 0\nexit\n", "start"), 0, false,
	  "pc 0: R1 read, never written" },
};

static void hand(void)
{
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct ebpf_object *obj = NULL;
		struct ebpf_prog view;
		struct check_result res;
		struct stackinit_pc *pcs;
		struct diag d;

		diag_clear(&d);
		if (casefile__open_object_mem(&obj, cases[k].text, strlen(cases[k].text), cases[k].name,
					       &d)) {
			CHECK(0, "%s: %s (line %d)", cases[k].name, d.msg, d.line);
			continue;
		}
		view = obj->progs[0];
		if (cases[k].type)
			view.prog_type = cases[k].type;
		pcs = stackinit_pcs_build(view.insns, (uint32_t)view.len);
		CHECK(pcs && stackinit_regs_always_written(view.insns, (uint32_t)view.len, pcs) ==
				     cases[k].proven,
		      "%s: proven %d, expected %d", cases[k].name, !cases[k].proven, cases[k].proven);
		free(pcs);
		both(obj, &view, NULL, cases[k].name);
		if (!run(obj, &view, false, NULL, &res)) {
			if (cases[k].fault)
				CHECK(res.safe_faults == res.runs && res.runs == 3 &&
					      strstr(res.safe_fault, cases[k].fault),
				      "%s: %llu of %llu runs faulted: '%s', expected '%s'",
				      cases[k].name, (unsigned long long)res.safe_faults,
				      (unsigned long long)res.runs, res.safe_fault, cases[k].fault);
			else
				CHECK(res.safe_faults == 0 && res.runs == 3, "%s: %s", cases[k].name,
				      res.safe_fault);
			check_result__free(&res);
		}
		ebpf_object__free(obj);
	}
}

/* Generated programs (the campaign's), each with up to three register-writing instructions
 * replaced by "goto +0": the two ways fault on the same runs. */
static void generated(void)
{
	struct gen_knobs knobs = gen_knobs_default();
	struct gen_program gp = { 0 };
	uint64_t rnd = 0x5eed, faulted = 0, proven = 0, programs = 0;

	for (uint64_t seed = 1; seed <= 300; seed++) {
		struct gen_src src;
		struct ebpf_object obj;
		struct ebpf_prog view;
		struct stackinit_pc *pcs;
		char name[64];

		gen_src_init_seed(&src, seed);
		if (gen_program(&gp, &src, &knobs))
			continue;
		gen_program__object(&gp, &obj, &view, "generated");
		for (unsigned cut = 0, want = (unsigned)(check_rand(&rnd) % 4); cut < want;) {
			uint32_t pc = (uint32_t)(check_rand(&rnd) % gp.len);
			struct bpf_insn *i = &gp.insns[pc];
			uint8_t cls = ebpf_class(i);

			if ((cls == BPF_ALU || cls == BPF_ALU64 || cls == BPF_LDX) &&
			    (pc == 0 || !ebpf_is_ldimm64(&gp.insns[pc - 1]))) {
				*i = (struct bpf_insn){ .code = BPF_JMP | BPF_JA };
				cut++;
			} else if (check_rand(&rnd) % 8 == 0) {
				break;
			}
		}
		pcs = stackinit_pcs_build(view.insns, (uint32_t)view.len);
		proven += pcs && stackinit_regs_always_written(view.insns, (uint32_t)view.len, pcs);
		free(pcs);
		snprintf(name, sizeof(name), "generated program %llu", (unsigned long long)seed);
		faulted += both(&obj, &view, &gp, name) != 0;
		programs++;
	}
	gen_program__free(&gp);
	printf("%llu generated programs: %llu proven, %llu faulted\n", (unsigned long long)programs,
	       (unsigned long long)proven, (unsigned long long)faulted);
	/* (both kinds met, or the comparison says little) */
	CHECK(programs > 250 && proven > 50 && faulted > 10,
	      "%llu programs, %llu proven, %llu faulted", (unsigned long long)programs,
	      (unsigned long long)proven, (unsigned long long)faulted);
}

int main(void)
{
	hand();
	generated();
	return check_done("test_check_safe_visits");
}
