/* may_goto loops (issue 15): the budget ends a loop but bounds no count.  The analyzer's trip
 * claim says what ends the loop (ends_by, in JSON too) and claims no maximum, so no range leans
 * on the count-based 2^23; verify accepts the loop and rejects a twin whose access is safe only
 * when the loop ran at most 2^23 times.  The real kernel judges: BPF_PROG_TEST_RUN's r0 after a
 * loop counting its iterations must be admitted by the analyzer's exit claim, and is held
 * against a claim leaning on 2^23 (refuted where the JIT times may_goto, as x86-64 does).
 * cond_break and can_loop as clang builds them (tests/bpf/may_goto_verify.c): each program's
 * verdict against the kernel's, its loop's trip claim, and its claims on runs.
 */
#include <string.h>

#include "bpf/prog.h"
#include "casefile/casefile.h"
#include "claims/claims.h"
#include "oracle/exec/check.h"
#include "oracle/exec/interp.h"
#include "oracle/kernel/kdiff.h"
#include "oracle/kernel/kernel.h"
#include "scev/scev.h"
#include "generators/gen.h"
#include "generators/producer.h"
#include "tests/check.h"
#include "tests/verdict_case.h"

/* r0 counts the iterations of a loop whose only exit is may_goto, and is returned */
#define COUNT_LOOP "r0 = 0\nl: may_goto out\nr0 += 1\ngoto l\nout: exit\n"
#define COUNT_EXIT_PC 4

/* The count indexes fp[-16] or fp[-8] while it is at most 2^23 (count >> 23 is 0 or 1), past
 * the frame once it is larger: safe only if the loop ran at most 2^23 times. */
#define INDEX_TAIL "r1 = r0\nr1 >>= 23\nr1 <<= 3\nr2 = r10\nr2 += -16\nr2 += r1\n" \
		   "r0 = *(u64 *)(r2 +0)\nexit\n-- type\nxdp\n"
#define ZERO_SLOTS "-- asm\nr0 = 0\n*(u64 *)(r10 -8) = r0\n*(u64 *)(r10 -16) = r0\n"
#define INDEX_TWIN ZERO_SLOTS "l: may_goto out\nr0 += 1\ngoto l\nout: " INDEX_TAIL
/* the same access after a loop whose compare stops it at 2^23: safe */
#define INDEX_BOUNDED ZERO_SLOTS "l: if r0 >= 0x800000 goto out\nr0 += 1\ngoto l\nout: " INDEX_TAIL

static struct ebpf_object *open_asm(const char *src)
{
	struct ebpf_object *o = NULL;
	struct diag d;

	diag_clear(&d);
	CHECK(!casefile__open_object_mem(&o, src, strlen(src), "mg", &d), "assemble: %s", d.msg);
	return o;
}

static void trip_claim(void)
{
	struct ebpf_object *o = open_asm(COUNT_LOOP);
	struct claim_prog p, *back = NULL;
	struct claim_text_buf rb;
	struct claims *c = NULL;
	struct sbuf sb = SBUF_INIT;
	struct diag d;

	if (!o)
		return;
	diag_clear(&d);
	CHECK(!scev_analyze(&p, &o->progs[0], NULL, 0, NULL, &d), "analyze: %s", d.msg);
	CHECK(p.nloops == 1, "%u loops", p.nloops);
	if (p.nloops == 1) {
		const struct claim_trip *t = &p.loops[0].trip;

		CHECK(t->kind == TRIP_UNKNOWN && t->ends_by == TRIP_ENDS_MAY_GOTO,
		      "trip kind %u ends_by %u (%s)", t->kind, t->ends_by, claim_trip_reason(t, &rb));
		CHECK(strstr(claim_trip_reason(t, &rb), "may_goto"), "reason '%s'", claim_trip_reason(t, &rb));
	}
	/* no range at the exit leans on a count: r0 may be any value the loop reaches */
	for (uint32_t k = 0; k < p.nranges; k++)
		if (p.ranges[k].pc == COUNT_EXIT_PC && p.ranges[k].loc == 0)
			CHECK(p.ranges[k].r.umax == UINT64_MAX, "r0 at the exit bounded by %llu",
			      (unsigned long long)p.ranges[k].r.umax);
	/* JSON names the ender and reads back */
	{
		struct claims one = { .progs = &p, .nprogs = 1 };

		claims_write(&sb, &one);
	}
	CHECK(strstr(sbuf_cstr(&sb), "\"ends_by\": \"may_goto budget\""), "JSON: %s",
	      sbuf_cstr(&sb));
	diag_clear(&d);
	CHECK(!claims_read(&c, sbuf_cstr(&sb), strlen(sbuf_cstr(&sb)), &d), "read: %s", d.msg);
	if (c && c->nprogs == 1 && c->progs[0].nloops == 1) {
		back = &c->progs[0];
		CHECK(back->loops[0].trip.ends_by == TRIP_ENDS_MAY_GOTO, "ends_by lost");
	}
	claims__free(c);
	sbuf_free(&sb);
	claim_prog__free(&p);
	ebpf_object__free(o);
}

static void expect_verdict(const char *what, const char *src, enum scev_verdict_kind want)
{
	struct ebpf_object *o = open_asm(src);
	struct scev_verdict v;
	struct diag d;

	if (!o)
		return;
	diag_clear(&d);
	CHECK(!scev_verify(&v, NULL, &o->progs[0], o->maps, o->map_cnt, NULL, &d), "%s: %s", what,
	      d.msg);
	CHECK(v.kind == want, "%s: %s at %u: %s (want %s)", what, scev_verdict_name(v.kind), v.pc,
	      v.reason, scev_verdict_name(want));
	ebpf_object__free(o);
}

static void verdicts(void)
{
	expect_verdict("counting loop", COUNT_LOOP, VERDICT_SAFE);
	expect_verdict("index after a may_goto loop", INDEX_TWIN, VERDICT_UNSAFE);
	expect_verdict("index after a loop stopped at 2^23", INDEX_BOUNDED, VERDICT_SAFE);
}

/* A counter the may_goto budget ends is a number of unknown range after the loop, never a
 * pointer: it starts at a 64-bit number of a map value (so the kernel's walk of the loop ends:
 * the range stays every number), counts, and then indexes fp[-16] or fp[-8] as count << 3 once
 * tested to be at most 1 (the kernel accepts it), or untested, added to or subtracted from a
 * stack pointer (the kernel refuses: "math between fp pointer and register with unbounded min
 * value is not allowed").  Before, the counter was TOP after the loop (maybe a pointer): the
 * tested form was refused as "pointer += pointer", the untested ones named that refusal first
 * or were unsupported. */
#define COUNTER_HEAD                                                                            \
	"-- asm\nr1 = 0\n*(u64 *)(r10 -8) = r1\n*(u64 *)(r10 -16) = r1\n*(u32 *)(r10 -20) = r1\n"   \
	"r1 = map[fd:0] ll\nr2 = r10\nr2 += -20\ncall bpf_map_lookup_elem\nif r0 == 0 goto end\n"  \
	"r9 = *(u64 *)(r0 +0)\nl: may_goto out\nr9 += 1\ngoto l\nout: "
#define COUNTER_TAIL "r0 = 0\nexit\nend: r0 = 0\nexit\n-- type\nxdp\n" \
		     "-- maps\narray key=4 value=8 entries=1 name=m\n"
#define UNBOUNDED_MIN "math between fp pointer and register with unbounded min value"

static void counter_kinds(bool kernel)
{
	static const struct {
		const char *name, *text;
		enum scev_verdict_kind want;
	} cases[] = {
		{ "counter tested, an offset",
		  COUNTER_HEAD "if r9 > 1 goto end\nr9 <<= 3\nr1 = r10\nr1 += -16\nr1 += r9\n"
			       "r0 = *(u64 *)(r1 +0)\n" COUNTER_TAIL, VERDICT_SAFE },
		{ "counter added untested",
		  COUNTER_HEAD "r1 = r10\nr1 += -16\nr1 += r9\nr0 = *(u64 *)(r1 +0)\n" COUNTER_TAIL,
		  VERDICT_UNSAFE },
		{ "counter subtracted untested",
		  COUNTER_HEAD "r1 = r10\nr1 += -16\nr1 -= r9\n" COUNTER_TAIL, VERDICT_UNSAFE },
	};
	struct verdict_opts vo = { .sz = sizeof(vo), .kernel = kernel, .runs = 8,
				   .prog_type = BPF_PROG_TYPE_XDP };

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct casefile *cf = NULL;
		struct verdict_report r;
		struct diag d;

		diag_clear(&d);
		if (casefile__open_mem(&cf, cases[k].text, strlen(cases[k].text), "ctr", &d)) {
			CHECK(0, "%s: %s", cases[k].name, d.msg);
			continue;
		}
		diag_clear(&d);
		if (verdict_compare(&r, cf->obj, &cf->obj->progs[0], &vo, &d)) {
			CHECK(0, "%s: %s", cases[k].name, d.msg);
			casefile__free(cf);
			continue;
		}
		verdict_case_check(cases[k].name, &r, (uint8_t)cases[k].want,
				   cases[k].want == VERDICT_SAFE ? NULL : UNBOUNDED_MIN, kernel,
				   cases[k].want == VERDICT_SAFE ? VC_BOTH_ACCEPT : VC_BOTH_REJECT);
		CHECK(!strstr(r.ours.reason, "pointer +="), "%s: '%s' says the counter may be a "
		      "pointer", cases[k].name, r.ours.reason);
		/* (the kernel's own reason, word for word) */
		if (kernel && cases[k].want != VERDICT_SAFE)
			CHECK(strstr(r.kernel_message, r.ours.reason), "%s: ours '%s', the kernel's "
			      "'%s'", cases[k].name, r.ours.reason, r.kernel_message);
		verdict_report__free(&r);
		casefile__free(cf);
	}
}

/* p_may_goto_off (generators/gen_forms.c): p_may_goto_loop's count from the input indexes two
 * cells once tested, untested in the twin.  Of 40 programs: most have the loop; most twins
 * fault when forged safe and every one of those is refused for the unbounded offset (a twin
 * whose loop is dead code may be called safe: its runs must not fault, as no run may); most
 * safe forms are called safe, and no run faults (the kernel judges both in the campaigns:
 * fuzz --kernel with the knob). */
static void knob_off(void)
{
	struct gen_knobs k = gen_knobs_default();
	struct verdict_opts vo = { .sz = sizeof(vo), .runs = 4 }, vf = { .sz = sizeof(vf), .runs = 32 };
	unsigned n[2] = { 0 }, called_safe[2] = { 0 }, unbounded = 0, faulted = 0, shaped = 0;

	CHECK(!gen_knobs_set(&k, "p_may_goto_loop", 100) &&
		      !gen_knobs_set(&k, "p_may_goto_off", 100) && !gen_knobs_set(&k, "p_call", 0) &&
		      !gen_knobs_set(&k, "p_huge", 0) && !gen_knobs_set(&k, "p_wrap", 0) &&
		      !gen_knobs_set(&k, "p_nonterminating", 0),
	      "knobs (no huge or endless loops before the may_goto loop: the runs reach it)");
	for (uint64_t seed = 1500000; seed < 1500040; seed++) {
		struct gen_program p = { 0 };
		struct gen_src src;
		struct ebpf_object obj;
		struct ebpf_prog view;
		struct verdict_report r;
		struct diag d;
		bool twin;

		gen_src_init_seed(&src, seed);
		if (gen_program(&p, &src, &k)) {
			CHECK(0, "seed %llu: gen_program", (unsigned long long)seed);
			continue;
		}
		twin = p.flags & GEN_PROG_TWIN_UNSAFE;
		/* (a program with no room left for the loop has none) */
		shaped += !!(p.shapes & GEN_SH(MAY_GOTO_LOOP));
		if (!(p.shapes & GEN_SH(MAY_GOTO_LOOP))) {
			gen_program__free(&p);
			continue;
		}
		gen_program__object(&p, &obj, &view, "g");
		diag_clear(&d);
		if (verdict_compare(&r, &obj, &obj.progs[0], &vo, &d)) {
			CHECK(0, "seed %llu: %s", (unsigned long long)seed, d.msg);
		} else {
			n[twin]++;
			called_safe[twin] += r.ours.kind == VERDICT_SAFE;
			CHECK(r.faults == 0, "seed %llu: called %s, faults: %s",
			      (unsigned long long)seed, scev_verdict_name(r.ours.kind), r.fault);
			if (twin) {
				struct verdict_report f;

				/* (forged safe, ended by may_goto: the runs take a budget of 8) */
				memset(&f, 0, sizeof(f));
				f.ours.kind = VERDICT_SAFE;
				f.ours.max_insns = UINT64_MAX;
				f.ours.ends = SCEV_ENDS_MAY_GOTO;
				CHECK(verdict_execute(&f, &obj, &view, &vf) == 0, "seed %llu: runs",
				      (unsigned long long)seed);
				faulted += f.faults > 0;
				unbounded += f.faults > 0 && r.ours.kind == VERDICT_UNSAFE &&
					     strstr(r.ours.reason, UNBOUNDED_MIN);
				CHECK(!f.faults || r.ours.kind != VERDICT_SAFE, "seed %llu: a twin whose "
				      "runs fault (%s) called safe", (unsigned long long)seed, f.fault);
			}
			verdict_report__free(&r);
		}
		gen_program__free(&p);
	}
	CHECK(shaped >= 36, "p_may_goto_off: %u of 40 programs have the loop", shaped);
	CHECK(unbounded == faulted && faulted * 10 >= n[1] * 8, "p_may_goto_off: %u of %u twins "
	      "fault when forged safe (the others' loop is dead code), %u of them refused for the "
	      "unbounded offset", faulted, n[1], unbounded);
	CHECK(n[0] >= 10 && called_safe[0] * 10 >= n[0] * 8, "p_may_goto_off: %u of %u safe forms "
	      "called safe", called_safe[0], n[0]);
	printf("p_may_goto_off: %u of %u safe forms called safe; %u of %u twins fault when forged "
	       "safe, all refused for the unbounded offset (%u called safe: dead code)\n",
	       called_safe[0], n[0], faulted, n[1], called_safe[1]);
}

/* The interpreter follows the count-based rule and says when a run leaned on it. */
static void interpreter(void)
{
	struct ebpf_object *o = open_asm(COUNT_LOOP);
	struct interp_code *code = NULL;
	struct interp_env env = { .ctx_kind = INTERP_CTX_PLAIN, .step_budget = 100000000 };
	struct interp_result r;
	uint8_t ctx[8] = { 0 };
	struct diag d;

	if (!o)
		return;
	env.input = ctx;
	env.input_len = sizeof(ctx);
	diag_clear(&d);
	CHECK(!interp_prepare(&code, &o->progs[0], &d), "prepare: %s", d.msg);
	if (code && !interp_run(code, &env, &r)) {
		CHECK(r.trap == INTERP_OK && r.r0 == INTERP_MAY_GOTO_BUDGET && r.may_goto_spent,
		      "trap %d r0 %llu spent %d", r.trap, (unsigned long long)r.r0, r.may_goto_spent);
	}
	interp_code__free(code);
	ebpf_object__free(o);
}

/* bpf_loop with nr = 2^32 + 26: the helper takes the low 32 bits (26 calls), the verifier's
 * inlined bpf_loop compares all 64 and returns -E2BIG (found by a kernel campaign): the
 * interpreter says so, and the kernel differential does not compare such a run. */
#define NR64_LOOP "r1 = 0x10000001a ll\nr2 = func cb ll\nr3 = 0\nr4 = 0\ncall bpf_loop\nexit\n" \
		  "cb: r0 = 0\nexit\n"

static void bpf_loop_nr64(bool kernel)
{
	struct ebpf_object *o = open_asm(NR64_LOOP);
	struct interp_code *code = NULL;
	struct interp_env env = { .ctx_kind = INTERP_CTX_PLAIN };
	struct interp_result r;
	uint8_t ctx[8] = { 0 };
	struct diag d;

	if (!o)
		return;
	env.input = ctx;
	env.input_len = sizeof(ctx);
	diag_clear(&d);
	CHECK(!interp_prepare(&code, &o->progs[0], &d), "prepare: %s", d.msg);
	if (code && !interp_run(code, &env, &r))
		CHECK(r.trap == INTERP_OK && r.r0 == 26 && r.bpf_loop_nr64, "trap %d r0 %llu nr64 %d",
		      r.trap, (unsigned long long)r.r0, r.bpf_loop_nr64);
	interp_code__free(code);
	if (kernel) {
		struct kernel_prog_opts ko = { .sz = sizeof(ko), .log_level = 4, .log_size = 1 << 16,
					       .prog_type = BPF_PROG_TYPE_SOCKET_FILTER };
		struct kernel_prog *kp = NULL;
		struct kernel_run_result kr;

		diag_clear(&d);
		if (!kernel_prog__load(&kp, o, &o->progs[0], &ko, &d) && kp->accepted &&
		    !kernel_prog__test_run(kp, NULL, &kr, &d))
			printf("bpf_loop with nr = 2^32 + 26 on this kernel: r0 = %d (%s)\n",
			       (int32_t)kr.retval, (int32_t)kr.retval == -7 ? "inlined, -E2BIG" :
			       "the helper's u32");
		else
			CHECK(0, "the kernel does not run it: %s", kp ? kp->message : d.msg);
		kernel_prog__free(kp);
	}
	ebpf_object__free(o);
}

/* A claim that r0 is at most bound at the counting loop's exit. */
static void leaning_claim(struct claim_prog *p, uint64_t bound)
{
	struct claim_range c = { .pc = COUNT_EXIT_PC, .loc = 0, .r = range_urange(0, bound) };

	memset(p, 0, sizeof(*p));
	CHECK(!claim_prog__add_range(p, &c), "add_range");
}

static void kernel_judge(void)
{
	struct ebpf_object *o = open_asm(COUNT_LOOP);
	struct kernel_prog_opts ko = { .sz = sizeof(ko), .log_level = 4, .log_size = 1 << 16,
				       .prog_type = BPF_PROG_TYPE_SOCKET_FILTER };
	struct kernel_prog *kp = NULL;
	struct kernel_run_result kr;
	struct claim_prog ours, lean;
	uint32_t pc = 0;
	struct diag d;

	if (!o)
		return;
	diag_clear(&d);
	CHECK(!scev_analyze(&ours, &o->progs[0], NULL, 0, NULL, &d), "analyze: %s", d.msg);
	diag_clear(&d);
	if (kernel_prog__load(&kp, o, &o->progs[0], &ko, &d)) {
		CHECK(0, "load: %s", d.msg);
		goto out;
	}
	CHECK(kp->accepted, "the kernel rejects the counting loop: %s", kp->message);
	diag_clear(&d);
	if (kp->accepted && !kernel_prog__test_run(kp, NULL, &kr, &d)) {
		int j;

		/* ours admits whatever the kernel ran */
		CHECK(kdiff_judge_exit_r0(&ours, &o->progs[0], kr.retval, &pc) == 0,
		      "the kernel's r0 %u refutes bpfscev's exit claim", kr.retval);
		/* a claim leaning on the count-based 2^23 is judged by the kernel's own rule */
		leaning_claim(&lean, INTERP_MAY_GOTO_BUDGET);
		j = kdiff_judge_exit_r0(&lean, &o->progs[0], kr.retval, &pc);
		CHECK(j == (kr.retval > INTERP_MAY_GOTO_BUDGET) && (j == 0 || pc == COUNT_EXIT_PC),
		      "judge says %d for r0 %u", j, kr.retval);
		printf("the kernel's may_goto ran %u iterations: %s rule; r0 <= 2^23 %s\n",
		       kr.retval, kr.retval == INTERP_MAY_GOTO_BUDGET ? "count-based" : "timed",
		       j ? "refuted" : "holds");
		claim_prog__free(&lean);
	} else if (kp->accepted) {
		CHECK(0, "test run: %s", d.msg);
	}
	kernel_prog__free(kp);
out:
	claim_prog__free(&ours);
	ebpf_object__free(o);
}

/* The clang-built cond_break/can_loop object (tests/bpf/may_goto_verify.c): each program's
 * verdict, the kernel's agreement, its one loop's trip claim (ended by the may_goto budget, or
 * bounded by the loop's own test at max), and the claims held on runs (no refutation; the
 * unsafe twins' runs may trap, the bounded safe forms' do not). */
static void object(bool kernel)
{
	static const struct {
		const char *prog;
		enum scev_verdict_kind want;
		uint64_t trip_max;	/* 0: ended by the may_goto budget, no count */
	} progs[] = {
		{ "cond_break_only_safe", VERDICT_SAFE, 0 },
		{ "cond_break_bounded_safe", VERDICT_SAFE, 1000 },
		{ "can_loop_pkt_safe", VERDICT_SAFE, 64 },
		{ "cond_break_index_unsafe", VERDICT_UNSAFE, 0 },
		{ "cond_break_past_unsafe", VERDICT_UNSAFE, 9 },
	};
	char path[1024];
	struct ebpf_object *obj;

	if (!verdict_case_bpf_object("may_goto_verify.o", path, sizeof(path))) {
		check_skip_part("the clang-built cond_break object (no clang at configure time)");
		return;
	}
	obj = verdict_case_open_file(path);
	if (!obj)
		return;
	for (size_t k = 0; k < sizeof(progs) / sizeof(progs[0]); k++) {
		const struct ebpf_prog *p = ebpf_object__find_prog(obj, progs[k].prog);
		struct check_opts co = { .sz = sizeof(co), .seed = 15, .runs = 4 };
		struct check_result res;
		struct claim_prog cp;
		struct claim_text_buf rb;
		struct diag d;

		verdict_case_prog(obj, progs[k].prog, (uint8_t)progs[k].want, NULL, kernel);
		if (!p)
			continue;
		diag_clear(&d);
		if (scev_analyze(&cp, p, obj->maps, obj->map_cnt, NULL, &d)) {
			CHECK(0, "%s: analyze: %s", progs[k].prog, d.msg);
			continue;
		}
		CHECK(cp.nloops == 1, "%s: %u loops", progs[k].prog, cp.nloops);
		if (cp.nloops == 1) {
			const struct claim_trip *t = &cp.loops[0].trip;

			CHECK(progs[k].trip_max ? t->kind == TRIP_BOUNDED &&
							  t->max == progs[k].trip_max
						: t->kind == TRIP_UNKNOWN &&
							  t->ends_by == TRIP_ENDS_MAY_GOTO,
			      "%s: trip %s", progs[k].prog, claim_trip_reason(t, &rb));
			printf("%s: %s, trip: %s\n", progs[k].prog,
			       scev_verdict_name(progs[k].want), claim_trip_reason(t, &rb));
		}
		if (oracle_check(&res, obj, p, &cp, &co)) {
			CHECK(0, "%s: oracle_check failed", progs[k].prog);
		} else {
			CHECK(res.nfindings == 0, "%s: %u claims refuted: %s", progs[k].prog,
			      res.nfindings, res.nfindings ? res.findings[0].text : "");
			/* (a loop only the budget ends runs 2^23 times in the interpreter, past
			 * the check's step budget: its runs stop there) */
			CHECK(progs[k].want != VERDICT_SAFE || !progs[k].trip_max || res.traps == 0,
			      "%s: %llu of %llu runs trapped", progs[k].prog,
			      (unsigned long long)res.traps, (unsigned long long)res.runs);
			check_result__free(&res);
		}
		claim_prog__free(&cp);
	}
	ebpf_object__free(obj);
}

int main(void)
{
	char why[256];

	trip_claim();
	verdicts();
	interpreter();
	knob_off();
	if (!kernel_available(why, sizeof(why))) {
		bpf_loop_nr64(false);
		counter_kinds(false);
		object(false);
		check_skip_part("the kernel judge: %s", why);
		return check_done("test_may_goto");
	}
	bpf_loop_nr64(true);
	counter_kinds(true);
	kernel_judge();
	object(true);
	return check_done("test_may_goto");
}
