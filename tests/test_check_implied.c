/* Claims the concrete oracle (oracle/exec/check.c) takes as implied: a visit right after one of
 * the instruction that falls through to it does not test again a claim there whose cell that
 * instruction left as it was and which a passed claim of that instruction covers (check.c's
 * struct pcidx).  So an instruction that writes the cell (an ALU operation, a load, LD_IMM64, a
 * store or an atomic into the slot, an atomic's fetch or cmpxchg, a helper call's clobbers), a
 * claim narrower than the one before it, and a visit reached by a jump rather than from the
 * instruction before must each still be tested.  The reference is the programs' semantics,
 * worked out by hand in each case: which claims a run refutes, and how many claim evaluations it
 * counts (every claim at every visit of its pc, implied or not).  Each claim is also checked
 * alone (no claim before it to imply it), and every case runs both as a plain check and as the
 * check of a program called safe (a visit on every instruction).
 */
#include <string.h>

#include "bpf/prog.h"
#include "oracle/exec/check.h"
#include "tests/check.h"

/* How a claim states its interval (the check's groups): plain [umin, umax]; the tnum alone
 * (value lo exactly); the signed view [smin, smax]; a stack pointer at offsets [smin, smax] from
 * r10. */
enum form { PLAIN, TNUM, SIGNED, STACKPTR, EMPTY32 };	/* EMPTY32: an empty u32 view (a claim
							 * no value meets, tested from the claim) */

struct want {
	uint32_t pc;
	loc_t loc;
	enum form form;
	uint64_t lo, hi;
	bool refuted;
};

struct tcase {
	const char *name;
	const char *text;
	uint64_t checks;	/* claim evaluations of the whole run (0: one per claim) */
	struct want w[4];	/* (up to the first at pc 0: none is) */
};

#define R(n) ((loc_t)(n))
#define S(off, size) LOC_SLOT(off, size)

/* Each refuted claim is the only one refuted at its pc (a pc with a failing claim tests all its
 * claims again), and every claim of the instruction before it holds (else nothing is implied
 * there): so a claim taken as implied where it must not be shows as a refutation missing. */
static const struct tcase cases[] = {
#define ALU "r1 = 7\nr1 += 1\nr0 = 0\nexit\n"
	{ "an ALU operation writes its destination", ALU, 0,
	  { { 1, R(1), PLAIN, 7, 7, false }, { 2, R(1), PLAIN, 7, 7, true } } },
	{ "... (the tnum)", ALU, 0,
	  { { 1, R(1), TNUM, 7, 7, false }, { 2, R(1), TNUM, 7, 7, true } } },
	{ "... (the signed view)", ALU, 0,
	  { { 1, R(1), SIGNED, 7, 7, false }, { 2, R(1), SIGNED, 7, 7, true } } },
#define KEEP "r1 = 1\nr2 = 1\nr0 = 0\nexit\n"
	{ "an unchanged register: a wider claim is covered", KEEP, 0,
	  { { 1, R(1), PLAIN, 0, 5, false }, { 2, R(1), PLAIN, 0, 9, false },
	    { 2, R(1), SIGNED, 0, 9, false }, { 1, R(1), SIGNED, 1, 5, false } } },
	{ "... a narrower one tested", KEEP, 0,
	  { { 1, R(1), PLAIN, 0, 5, false }, { 2, R(1), PLAIN, 2, 5, true } } },
	{ "... (the signed view)", KEEP, 0,
	  { { 1, R(1), SIGNED, 0, 5, false }, { 2, R(1), SIGNED, 2, 5, true } } },
	{ "... another tnum tested", KEEP, 0,
	  { { 1, R(1), TNUM, 1, 1, false }, { 2, R(1), TNUM, 3, 3, true } } },
	{ "a stack pointer is not its address",
	  "r3 = r10\nr3 += -24\nr2 = 0\nr0 = 0\nexit\n", 0,
	  { { 2, R(3), STACKPTR, -24ull, -24ull, false }, { 3, R(3), SIGNED, -24ull, -24ull, true },
	    { 3, R(3), STACKPTR, -32ull, -16ull, false } } },
	{ "a slot's half is not the slot",
	  "r1 = 0x100000005 ll\n*(u64 *)(r10 - 8) = r1\nr2 = 0\nr0 = 0\nexit\n", 0,
	  { { 3, S(-8, 4), SIGNED, 5, 5, false }, { 4, S(-8, 8), SIGNED, 5, 5, true } } },
	{ "a load writes its destination",
	  "r1 = 5\n*(u64 *)(r10 - 8) = r1\nr2 = 3\nr2 = *(u64 *)(r10 - 8)\nr0 = 0\nexit\n", 0,
	  { { 3, R(2), PLAIN, 3, 3, false }, { 4, R(2), PLAIN, 3, 3, true },
	    { 4, S(-8, 8), PLAIN, 5, 5, false } } },
	{ "LD_IMM64 writes its destination", "r3 = 0\nr3 = 0x100000000 ll\nr0 = 0\nexit\n", 0,
	  { { 1, R(3), PLAIN, 0, 0, false }, { 3, R(3), PLAIN, 0, 0, true } } },
	{ "a store writes the stack",
	  "r1 = 5\n*(u64 *)(r10 - 8) = r1\n*(u64 *)(r10 - 8) = 9\nr0 = 0\nexit\n", 0,
	  { { 2, S(-8, 8), PLAIN, 5, 5, false }, { 3, S(-8, 8), PLAIN, 5, 5, true } } },
	{ "... from a register",
	  "r1 = 5\n*(u64 *)(r10 - 8) = r1\nr2 = 6\n*(u64 *)(r10 - 8) = r2\nr0 = 0\nexit\n", 0,
	  { { 3, S(-8, 8), PLAIN, 5, 5, false }, { 4, S(-8, 8), PLAIN, 5, 5, true } } },
#define ST4 "r1 = 5\n*(u64 *)(r10 - 8) = r1\n*(u32 *)(r10 - 8) = 9\nr0 = 0\nexit\n"
	{ "... into a 4-byte slot (the tnum)", ST4, 0,
	  { { 2, S(-8, 4), TNUM, 5, 5, false }, { 3, S(-8, 4), TNUM, 5, 5, true } } },
	{ "... (the signed view)", ST4, 0,
	  { { 2, S(-8, 4), SIGNED, 5, 5, false }, { 3, S(-8, 4), SIGNED, 5, 5, true },
	    { 3, S(-4, 4), SIGNED, 0, 0, false } } },
#define KEEPS "r1 = 5\n*(u64 *)(r10 - 8) = r1\nr2 = 0\nr0 = 0\nexit\n"
	{ "an unchanged slot: a wider claim is covered", KEEPS, 0,
	  { { 2, S(-8, 8), PLAIN, 0, 9, false }, { 3, S(-8, 8), PLAIN, 0, 20, false },
	    { 2, S(-8, 4), SIGNED, 5, 5, false }, { 3, S(-8, 4), SIGNED, 4, 6, false } } },
	{ "... a narrower one tested", KEEPS, 0,
	  { { 2, S(-8, 8), PLAIN, 0, 9, false }, { 3, S(-8, 8), PLAIN, 0, 4, true } } },
#define ATOM "r1 = 5\n*(u64 *)(r10 - 8) = r1\nr2 = 1\n" \
	     "r2 = atomic64_fetch_add((u64 *)(r10 -8), r2)\nr0 = 0\nexit\n"
	{ "an atomic fetch writes its source register", ATOM, 0,
	  { { 3, R(2), PLAIN, 1, 1, false }, { 4, R(2), PLAIN, 1, 1, true } } },
	{ "... and the stack", ATOM, 0,
	  { { 3, S(-8, 8), PLAIN, 5, 5, false }, { 4, S(-8, 8), PLAIN, 5, 5, true } } },
	{ "cmpxchg writes r0",
	  "r1 = 5\n*(u64 *)(r10 - 8) = r1\nr0 = 4\n"
	  "r0 = atomic64_cmpxchg((u64 *)(r10 -8), r0, r1)\nr0 = 0\nexit\n", 0,
	  { { 3, R(0), PLAIN, 4, 4, false }, { 4, R(0), PLAIN, 4, 4, true },
	    { 4, R(1), PLAIN, 5, 5, false } } },
	{ "a helper call clobbers r1-r5", "r1 = 5\ncall bpf_get_prandom_u32\nr0 = 0\nexit\n", 0,
	  { { 1, R(1), PLAIN, 5, 5, false }, { 2, R(1), PLAIN, 5, 5, true } } },
	{ "a jump into the next instruction from elsewhere",
	  "r1 = 5\nif r1 == 5 goto +2\nr0 = 0\nexit\nr1 = 9\ngoto -4\n", 0,
	  { { 1, R(1), PLAIN, 5, 5, false }, { 2, R(1), PLAIN, 5, 5, true } } },
	{ "a claim refuted just before", KEEP, 0,
	  { { 1, R(1), PLAIN, 6, 6, true }, { 2, R(1), PLAIN, 6, 6, true } } },
	{ "... of a slot", KEEPS, 0,
	  { { 2, S(-8, 8), PLAIN, 6, 6, true }, { 3, S(-8, 8), PLAIN, 6, 6, true },
	    { 2, R(1), PLAIN, 5, 5, false } } },
	/* (a visit whose claims but one are implied tests that one alone: check.c's quick) */
	{ "two claims not implied: the second tested too", "r3 = 5\nr1 = 7\nr1 += 1\nr0 = 0\nexit\n",
	  0, { { 1, R(3), PLAIN, 5, 5, false }, { 2, R(1), PLAIN, 7, 7, false },
	       { 2, R(3), PLAIN, 6, 6, true } } },
	{ "a claim tested from the claim beside implied ones", KEEP, 0,
	  { { 1, R(1), PLAIN, 0, 5, false }, { 2, R(1), PLAIN, 0, 9, false },
	    { 2, R(2), EMPTY32, 0, 0, true } } },
	{ "a loop",
	  "r1 = 0\nr2 = 0\nr1 += 1\nr2 += 2\nif r1 < 4 goto -3\nr0 = 0\nexit\n",
	  1 + 4 + 4 + 4,
	  { { 1, R(1), PLAIN, 0, 0, false },
	    { 2, R(1), PLAIN, 0, 3, false },	/* entered from 1, then from the jump */
	    { 3, R(1), PLAIN, 1, 4, false },
	    { 4, R(1), PLAIN, 1, 3, true } } },	/* 4 in the last round */
#undef ALU
#undef KEEP
#undef ST4
#undef KEEPS
#undef ATOM
};

static struct claim_range claim_of(const struct want *w)
{
	struct claim_range c = { .pc = w->pc, .loc = w->loc, .r = range_unknown() };

	switch (w->form) {
	case PLAIN:
		c.r.umin = w->lo;
		c.r.umax = w->hi;
		break;
	case TNUM:
		c.r.var_off.value = w->lo;
		c.r.var_off.mask = 0;
		break;
	case SIGNED: case STACKPTR:
		c.r.smin = (int64_t)w->lo;
		c.r.smax = (int64_t)w->hi;
		c.is_ptr = w->form == STACKPTR;
		c.region = REGION_STACK;
		break;
	case EMPTY32:
		c.r.u32_min = 1;
		c.r.u32_max = 0;
		break;
	}
	return c;
}

/* The claims of cp checked on one run of obj's program (as a program called safe when safe);
 * refuted[k] set for claim k refuted.  The claim evaluations counted. */
static uint64_t run(const struct ebpf_object *obj, const struct claim_prog *cp, bool safe,
		    bool *refuted)
{
	static const uint8_t zeros[64];
	struct safe_rule rule = { .max_insns = UINT64_MAX, .step_budget = 1000 };
	struct check_opts co = { .sz = sizeof(co), .input = zeros, .fixed_len = sizeof(zeros),
				 .step_budget = 1000, .safe = safe ? &rule : NULL };
	struct check_result res;
	uint64_t checks;

	CHECK(!oracle_check(&res, obj, &obj->progs[0], cp, &co), "oracle_check");
	for (uint32_t i = 0; i < res.nfindings; i++)
		if (res.findings[i].claim < cp->nranges)
			refuted[res.findings[i].claim] = true;
	checks = res.checks;
	check_result__free(&res);
	return checks;
}

/* A loop's header visits are counted even where its claims are all implied: r1 = 0; r2 = 0;
 * header 2: r1 += 1; if r1 < 4 goto 2 — 4 header executions, an exact trip of 4 holds, and a
 * claim at the header of r1 from pc 1 ([0, 0] there, [0, 3] at the header) is implied on entry. */
static void loop_counted(void)
{
	static const char text[] = "r1 = 0\nr2 = 0\nr1 += 1\nif r1 < 4 goto -2\nr0 = 0\nexit\n";
	static const uint8_t zeros[64];
	struct want w[2] = { { 1, R(1), PLAIN, 0, 0, false }, { 2, R(1), PLAIN, 0, 3, false } };
	struct ebpf_object *obj = NULL;
	struct diag d;

	diag_clear(&d);
	CHECK(!ebpf_object__open_asm(&obj, text, strlen(text), 1, "loop", &d), "loop: %s", d.msg);
	if (!obj)
		return;
	for (int safe = 0; safe < 2; safe++) {
		struct safe_rule rule = { .max_insns = UINT64_MAX, .step_budget = 1000 };
		struct check_opts co = { .sz = sizeof(co), .input = zeros, .fixed_len = sizeof(zeros),
					 .step_budget = 1000, .safe = safe ? &rule : NULL };
		struct claim_prog cp = { 0 };
		struct claim_loop *l = calloc(1, sizeof(*l));
		struct check_result res;

		for (int k = 0; k < 2; k++) {
			struct claim_range c = claim_of(&w[k]);

			CHECK(!claim_prog__add_range(&cp, &c), "add a claim");
		}
		if (l && (l->blocks = calloc(1, sizeof(*l->blocks)))) {
			l->header = 2;
			l->latch = 3;
			l->parent = -1;
			l->blocks[0] = (struct claim_pcrange){ 2, 3 };
			l->nblocks = 1;
			l->trip.kind = TRIP_EXACT;
			l->trip.min = l->trip.max = 4;
			cp.loops = l;
			cp.nloops = 1;
		}
		CHECK(cp.nloops == 1 && !oracle_check(&res, obj, &obj->progs[0], &cp, &co),
		      "loop: oracle_check");
		if (cp.nloops == 1) {
			CHECK(res.nfindings == 0 && res.max_trip[0] == 4,
			      "loop%s: %u findings (%s), %llu header executions, 4 expected",
			      safe ? " (called safe)" : "", res.nfindings,
			      res.nfindings ? res.findings[0].text : "", (unsigned long long)res.max_trip[0]);
			CHECK_EQ_U64(res.checks, 1 + 4, "loop: checks");
			check_result__free(&res);
		}
		claim_prog__free(&cp);
	}
	ebpf_object__free(obj);
}

int main(void)
{
	unsigned claims = 0, refuted = 0;

	loop_counted();

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct tcase *tc = &cases[i];
		struct ebpf_object *obj = NULL;
		struct claim_prog all = { 0 };
		uint32_t n = 0;
		struct diag d;

		diag_clear(&d);
		CHECK(!ebpf_object__open_asm(&obj, tc->text, strlen(tc->text), 1, "implied", &d),
		      "%s: assemble: %s", tc->name, d.msg);
		if (!obj)
			continue;
		while (n < sizeof(tc->w) / sizeof(tc->w[0]) && tc->w[n].pc) {
			struct claim_range c = claim_of(&tc->w[n]);

			CHECK(!claim_prog__add_range(&all, &c), "add a claim");
			n++;
		}
		for (int safe = 0; safe < 2; safe++) {
			bool got[4] = { false };
			uint64_t checks = run(obj, &all, safe, got);

			CHECK_EQ_U64(checks, tc->checks ? tc->checks : n, tc->name);
			for (uint32_t k = 0; k < n; k++) {
				struct claim_prog one = { 0 };
				struct claim_range c = claim_of(&tc->w[k]);
				bool alone[1] = { false };
				char loc[32];

				loc_format(tc->w[k].loc, loc, sizeof(loc));
				CHECK(got[k] == tc->w[k].refuted, "%s%s: claim %u (pc %u %s) %s", tc->name,
				      safe ? " (called safe)" : "", k, tc->w[k].pc, loc,
				      tc->w[k].refuted ? "not refuted" : "refuted");
				CHECK(!claim_prog__add_range(&one, &c), "add a claim");
				run(obj, &one, safe, alone);
				CHECK(alone[0] == tc->w[k].refuted, "%s: claim %u alone", tc->name, k);
				claim_prog__free(&one);
			}
		}
		claims += n;
		for (uint32_t k = 0; k < n; k++)
			refuted += tc->w[k].refuted;
		claim_prog__free(&all);
		ebpf_object__free(obj);
	}
	printf("%u claims in %zu programs, %u refuted\n", claims, sizeof(cases) / sizeof(cases[0]),
	       refuted);
	return check_done("test_check_implied");
}
