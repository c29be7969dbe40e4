/* The trip-count solver against brute force: for random counters (start, step, bound, every
 * predicate, both widths) the claimed maximum first-exit iteration must be at least the simulated
 * one for every start and bound in the box, the minimum at most, and "unknown" must be the only
 * answer when some combination never exits.  Plus exact cases near the wrap points. */
#include <string.h>

#include "bpf/isa.h"
#include "scev/trip.h"
#include "tests/check.h"

static uint64_t rs = 0x2545F4914F6CDD1Dull;

static uint64_t rnd64(void)
{
	return check_rand(&rs);
}

static bool pred_holds(uint8_t op, unsigned w, uint64_t v, uint64_t n)
{
	int64_t sv = w == 32 ? (int32_t)(uint32_t)v : (int64_t)v;
	int64_t sn = w == 32 ? (int32_t)(uint32_t)n : (int64_t)n;

	switch (op) {
	case BPF_JEQ: return v == n;
	case BPF_JNE: return v != n;
	case BPF_JGT: return v > n;
	case BPF_JGE: return v >= n;
	case BPF_JLT: return v < n;
	case BPF_JLE: return v <= n;
	case BPF_JSGT: return sv > sn;
	case BPF_JSGE: return sv >= sn;
	case BPF_JSLT: return sv < sn;
	default: return sv <= sn;
	}
}

/* First k < limit where the predicate holds when each step is s or s2, chosen by the bits of
 * pick (the pattern repeats every 64 steps; s2 = s for a fixed step), or limit. */
static uint64_t simulate(uint8_t op, unsigned w, uint64_t a, uint64_t s, uint64_t s2,
			 uint64_t pick, uint64_t n, uint64_t limit)
{
	uint64_t mask = w == 32 ? 0xffffffffull : UINT64_MAX, v = a & mask;

	for (uint64_t k = 0; k < limit; k++) {
		if (pred_holds(op, w, v, n))
			return k;
		v = (v + (pick >> (k % 64) & 1 ? s2 : s)) & mask;
	}
	return limit;
}

static const uint8_t preds[] = { BPF_JEQ, BPF_JNE, BPF_JGT, BPF_JGE, BPF_JLT, BPF_JLE,
				 BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE };

/* A value near an interesting point of the w-bit space. */
static uint64_t near(unsigned w)
{
	static const uint64_t pts[] = { 0, 1, 100, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull,
					0x7fffffffffffffffull, 0x8000000000000000ull, UINT64_MAX };
	uint64_t mask = w == 32 ? 0xffffffffull : UINT64_MAX;

	return (pts[rnd64() % 10] + (rnd64() % 64) - 32) & mask;
}

static void box_query(struct trip_query *q, unsigned w, uint64_t alo, uint64_t ahi, uint64_t nlo,
		      uint64_t nhi, uint64_t s, uint8_t op)
{
	/* The signed views of a box that does not cross the sign boundary; callers ensure it. */
	memset(q, 0, sizeof(*q));
	q->width = w;
	q->a_ulo = alo;
	q->a_uhi = ahi;
	q->a_slo = w == 32 ? (int32_t)(uint32_t)alo : (int64_t)alo;
	q->a_shi = w == 32 ? (int32_t)(uint32_t)ahi : (int64_t)ahi;
	q->n_ulo = nlo;
	q->n_uhi = nhi;
	q->n_slo = w == 32 ? (int32_t)(uint32_t)nlo : (int64_t)nlo;
	q->n_shi = w == 32 ? (int32_t)(uint32_t)nhi : (int64_t)nhi;
	q->step = s;
	q->pred = op;
}

static bool crosses(unsigned w, uint64_t lo, uint64_t hi)
{
	uint64_t sign = w == 32 ? 0x80000000ull : 0x8000000000000000ull;

	return (lo & sign) != (hi & sign);
}

/* A random query box near the interesting points of a random width, with a random predicate
 * and the given step; false when it crosses the sign boundary (box_query needs it not to). */
static bool random_box(struct trip_query *q, uint64_t step, uint64_t *mask)
{
	unsigned w = rnd64() & 1 ? 32 : 64;
	uint64_t alo, ahi, nlo, nhi;

	*mask = w == 32 ? 0xffffffffull : UINT64_MAX;
	alo = near(w);
	ahi = (alo + rnd64() % 4) & *mask;
	nlo = near(w);
	nhi = (nlo + rnd64() % 4) & *mask;
	if (ahi < alo || nhi < nlo || crosses(w, alo, ahi) || crosses(w, nlo, nhi))
		return false;
	box_query(q, w, alo, ahi, nlo, nhi, step, preds[rnd64() % 10]);
	return true;
}

/* Solves q and walks every start and bound of its (unsigned) box — with a varying step, all
 * slow, all fast and two random mixes of the steps: the simulated first exit must lie in the
 * claimed range.  Answers whose maximum exceeds limit are not walked (the exact cases cover
 * them).  Returns whether the solver answered. */
static bool check_query(const struct trip_query *q, uint64_t limit)
{
	uint64_t s2 = q->varies ? q->step_hi : q->step, kmax, kmin;
	char why[128];

	if (trip_first_exit(q, &kmax, &kmin, why, sizeof(why)))
		return false;
	CHECK(kmin <= kmax, "kmin > kmax");
	if (kmax > limit)
		return true;
	for (uint64_t a = q->a_ulo; a <= q->a_uhi && a >= q->a_ulo; a++)
		for (uint64_t n = (uint64_t)q->n_ulo; n <= q->n_uhi && n >= q->n_ulo; n++)
			for (int mix = 0; mix < (q->varies ? 4 : 1); mix++) {
				uint64_t pick = mix == 0 ? 0 : mix == 1 ? UINT64_MAX : rnd64();
				uint64_t k = simulate(q->pred, q->width, a, q->step, s2, pick, n,
						      kmax + 2);

				CHECK(k <= kmax && k >= kmin,
				      "w%u op 0x%x a=%#llx s=%#llx/%#llx n=%#llx: simulated %llu, "
				      "claimed [%llu, %llu]", q->width, q->pred,
				      (unsigned long long)a, (unsigned long long)q->step,
				      (unsigned long long)s2, (unsigned long long)n,
				      (unsigned long long)k, (unsigned long long)kmin,
				      (unsigned long long)kmax);
			}
	return true;
}

static void test_random_boxes(void)
{
	int solved = 0, unknown = 0;

	for (int iter = 0; iter < 60000; iter++) {
		struct trip_query q;
		uint64_t mask;

		if (!random_box(&q, 0, &mask))
			continue;
		{
			uint64_t steps[] = { 1, mask, 2, mask - 1, 3, 4, mask - 2, 7, 0, 0x10000 };

			q.step = steps[rnd64() % 10];
		}
		if (check_query(&q, 1u << 22))
			solved++;
		else
			unknown++;
	}
	CHECK(solved > 20000 && unknown > 100, "solved %d unknown %d", solved, unknown);
}

/* Counters whose step differs between paths (x += 1 on one, x += 3 on another): the claimed
 * range of first-exit iterations must hold for every mix of the two steps — all slow, all fast
 * and random mixes — whenever the solver answers, and it must answer the common shapes. */
static void test_step_ranges(void)
{
	int solved = 0, unknown = 0;

	for (int iter = 0; iter < 40000; iter++) {
		static const uint64_t up[][2] = { { 1, 2 }, { 1, 3 }, { 2, 5 }, { 1, 16 }, { 4, 7 } };
		unsigned which = (unsigned)(rnd64() % 5);
		uint64_t s = up[which][0], s2 = up[which][1], mask;
		struct trip_query q;

		if (!random_box(&q, 0, &mask))
			continue;
		if (rnd64() & 1) {	/* counting down */
			s = (0 - s) & mask;
			s2 = (0 - s2) & mask;
		}
		q.step = rnd64() & 1 ? s : s2;
		q.step_hi = q.step == s ? s2 : s;
		q.varies = true;
		if (check_query(&q, 1u << 20))
			solved++;
		else
			unknown++;
	}
	CHECK(solved > 8000 && unknown > 1000, "step ranges: solved %d unknown %d", solved, unknown);
	/* 0 + {1, 2} per iteration until >= 10: 5 to 10 iterations */
	{
		struct trip_query q;
		uint64_t kmax, kmin;
		char why[128];

		box_query(&q, 64, 0, 0, 10, 10, 1, BPF_JGE);
		q.varies = true;
		q.step_hi = 2;
		CHECK(!trip_first_exit(&q, &kmax, &kmin, why, sizeof(why)) && kmax == 10 &&
		      kmin == 5, "{1,2} up to 10: [%llu, %llu] %s", (unsigned long long)kmin,
		      (unsigned long long)kmax, why);
		q.step_hi = (uint64_t)-1;	/* a step of each sign */
		CHECK(trip_first_exit(&q, &kmax, &kmin, why, sizeof(why)), "steps +1/-1 solved");
		q.step_hi = 0;			/* steps 1 and 0: may never move */
		CHECK(trip_first_exit(&q, &kmax, &kmin, why, sizeof(why)), "steps 1/0 solved");
	}
}

/* == and != against bounds whose signed range crosses zero ([-15, 0] is the whole unsigned
 * space): brute force over every start and bound. */
static void test_eq_across_zero(void)
{
	int solved = 0, eq_solved = 0;

	for (int iter = 0; iter < 3000; iter++) {
		unsigned w = rnd64() & 1 ? 32 : 64;
		uint64_t mask = w == 32 ? 0xffffffffull : UINT64_MAX;
		int64_t nlo = -(int64_t)(rnd64() % 20), nhi = (int64_t)(rnd64() % 20);
		int64_t alo = (int64_t)(rnd64() % 40) - 20, ahi = alo + (int64_t)(rnd64() % 5);
		static const uint64_t steps[] = { 1, (uint64_t)-1, 3, (uint64_t)-3, 2 };
		uint64_t s = steps[rnd64() % 5] & mask, kmax, kmin;
		uint8_t op = rnd64() & 1 ? BPF_JEQ : BPF_JNE;
		struct trip_query q;
		char why[128];

		if (alo < 0 && ahi >= 0)
			continue;	/* the start's own views: keep them one interval too */
		memset(&q, 0, sizeof(q));
		q.width = w;
		q.pred = op;
		q.step = s;
		q.a_ulo = (uint64_t)alo & mask;
		q.a_uhi = (uint64_t)ahi & mask;
		q.a_slo = alo;
		q.a_shi = ahi;
		q.n_ulo = 0;	/* [nlo, nhi] crosses zero: unsigned, everything */
		q.n_uhi = mask;
		q.n_slo = nlo;
		q.n_shi = nhi;
		if (trip_first_exit(&q, &kmax, &kmin, why, sizeof(why)))
			continue;
		solved++;
		eq_solved += op == BPF_JEQ;
		if (kmax > (1u << 20))
			continue;
		for (int64_t a = alo; a <= ahi; a++)
			for (int64_t n = nlo; n <= nhi; n++) {
				uint64_t k = simulate(op, w, (uint64_t)a & mask, s, s, 0,
						      (uint64_t)n & mask, kmax + 2);

				CHECK(k <= kmax && k >= kmin, "w%u op 0x%x a=%lld s=%#llx n=%lld: "
				      "simulated %llu, claimed [%llu, %llu]", w, op, (long long)a,
				      (unsigned long long)s, (long long)n, (unsigned long long)k,
				      (unsigned long long)kmin, (unsigned long long)kmax);
			}
	}
	CHECK(solved > 1000 && eq_solved > 300, "== across zero: solved %d (== %d)", solved,
	      eq_solved);
	{
		/* the kernel campaign's case: a counter from [1, 8] down by 1 until it equals a
		 * bound in [-15, 0]: 1 to 23 steps (the unsigned view of the bound is everything) */
		struct trip_query q = { .width = 64, .pred = BPF_JEQ, .step = (uint64_t)-1,
					.a_ulo = 1, .a_uhi = 8, .a_slo = 1, .a_shi = 8,
					.n_ulo = 0, .n_uhi = UINT64_MAX, .n_slo = -15, .n_shi = 0 };
		uint64_t kmax, kmin;
		char why[128];

		CHECK(!trip_first_exit(&q, &kmax, &kmin, why, sizeof(why)) && kmax == 23 &&
		      kmin == 1, "[1, 8] - k == [-15, 0]: [%llu, %llu] %s",
		      (unsigned long long)kmin, (unsigned long long)kmax, why);
	}
}

/* jset exits against brute force: v = a + k*s with random steps of every trailing-zero count,
 * random masks in the low 14 bits (so every answer is short enough to walk), starts fully or
 * partly known: whenever the solver answers, every start that fits what is known exits by kmax. */
static void test_jset(void)
{
	int solved = 0, unknown = 0;

	for (int iter = 0; iter < 30000; iter++) {
		unsigned w = rnd64() & 1 ? 32 : 64, t = (unsigned)(rnd64() % 6);
		uint64_t mask = w == 32 ? 0xffffffffull : UINT64_MAX;
		uint64_t step = ((rnd64() | 1) << t) & mask, c = rnd64() & 0x3fff & mask;
		uint64_t a = rnd64() & mask, known = rnd64() & 1 ? mask : rnd64() & mask;
		bool when_set = rnd64() & 1;
		uint64_t kmax, kmin;
		char why[128];

		if (rnd64() & 1)
			step = (0 - step) & mask;	/* counting down */
		if (trip_first_jset(w, step, c, when_set, known, a & known, &kmax, &kmin, why,
				    sizeof(why))) {
			unknown++;
			continue;
		}
		solved++;
		CHECK(kmin <= kmax && kmax < (1u << 16), "jset: kmax %llu", (unsigned long long)kmax);
		for (int trial = 0; trial < 4; trial++) {
			/* a start that agrees with a on the known bits */
			uint64_t v = ((a & known) | (rnd64() & ~known)) & mask, k;

			for (k = 0; k <= kmax; k++) {
				if (when_set ? (v & c) != 0 : (v & c) == 0)
					break;
				v = (v + step) & mask;
			}
			CHECK(k <= kmax, "jset w%u s=%#llx c=%#llx %s: no exit by %llu", w,
			      (unsigned long long)step, (unsigned long long)c,
			      when_set ? "set" : "clear", (unsigned long long)kmax);
		}
	}
	CHECK(solved > 15000 && unknown > 1000, "jset: solved %d unknown %d", solved, unknown);
}

static void expect_u(unsigned w, uint64_t a, uint64_t s, uint8_t op, uint64_t n, uint64_t want)
{
	struct trip_query q;
	uint64_t kmax, kmin;
	char why[128];

	box_query(&q, w, a, a, n, n, s, op);
	CHECK(trip_first_exit(&q, &kmax, &kmin, why, sizeof(why)) == 0 && kmax == want && kmin == want,
	      "w%u a=%#llx s=%#llx n=%#llx: got %llu", w, (unsigned long long)a,
	      (unsigned long long)s, (unsigned long long)n, (unsigned long long)kmax);
}

static void expect(unsigned w, uint64_t a, uint64_t s, uint8_t op, uint64_t n, int64_t want)
{
	struct trip_query q;
	uint64_t kmax, kmin;
	char why[128];
	int r;

	box_query(&q, w, a, a, n, n, s, op);
	r = trip_first_exit(&q, &kmax, &kmin, why, sizeof(why));
	if (want < 0) {
		CHECK(r != 0, "w%u a=%#llx s=%#llx n=%#llx: expected unknown, got %llu", w,
		      (unsigned long long)a, (unsigned long long)s, (unsigned long long)n,
		      (unsigned long long)kmax);
		return;
	}
	CHECK(r == 0 && kmax == (uint64_t)want && kmin == kmax,
	      "w%u op 0x%x a=%#llx s=%#llx n=%#llx: got %d [%llu,%llu] (%s), want %lld", w, op,
	      (unsigned long long)a, (unsigned long long)s, (unsigned long long)n, r,
	      (unsigned long long)kmin, (unsigned long long)kmax, r ? why : "", (long long)want);
}

static void test_exact(void)
{
	/* for (i = 0; i < 100; i++): exit when i >= 100 */
	expect(64, 0, 1, BPF_JGE, 100, 100);
	expect(64, 0, 3, BPF_JGE, 100, 34);
	expect(64, 100, -1ull, BPF_JLE, 0, 100);		/* count down to 0 */
	/* counting down by 2 onto 0 exactly: the step could jump the bound, but from this start
	 * it lands on it (the kernel campaign's "may wrap past the bound" regressions) */
	expect(32, 24, 0xfffffffeull, BPF_JLE, 0, 12);
	expect(64, 24, -2ull, BPF_JLE, 0, 12);
	expect(64, 25, -2ull, BPF_JLE, 0, -1);			/* 25, 23, ..., 1, then wraps */
	{
		/* 7284 down by 607 until <= N, N anywhere in [0, 100]: it lands on 0 at the
		 * latest (12 steps), so no N lets it wrap */
		struct trip_query q;
		uint64_t kmax, kmin;
		char why[128];

		box_query(&q, 64, 7284, 7284, 0, 100, -607ull, BPF_JLE);
		CHECK(!trip_first_exit(&q, &kmax, &kmin, why, sizeof(why)) && kmax == 12 &&
		      kmin == 12, "7284 - 607k <= [0, 100]: [%llu, %llu] %s",
		      (unsigned long long)kmin, (unsigned long long)kmax, why);
	}
	expect(64, 0, 1, BPF_JEQ, 100, 100);
	/* odd step: '!=' wraps around and meets 100 after 100 * 3^-1 mod 2^64 steps */
	expect_u(64, 0, 3, BPF_JEQ, 100, 12297829382473034444ull);
	expect(64, 0, 2, BPF_JEQ, 101, -1);			/* never: 2 does not divide 101 */
	expect(64, 0, 4, BPF_JEQ, 100, 25);
	expect(32, 0, 3, BPF_JEQ, 100, 0xaaaaaaccull);	/* 3k ≡ 100 (mod 2^32), after wrapping */
	/* a 32-bit counter that runs until it wraps to 0: 2^32 - 1 steps */
	expect(32, 1, 1, BPF_JEQ, 0, 0xffffffffull);
	/* 32-bit counter 0 upward, exit when it wraps below 10 (v < 10 after passing 10) */
	expect(32, 10, 1, BPF_JLT, 10, 0xfffffff6ull);
	/* signed: i from -10 up to 5 */
	expect(64, (uint64_t)-10, 1, BPF_JSGE, 5, 15);
	/* signed wrap through INT_MAX: i s< 0 after crossing 2^63 */
	expect(64, 0x7ffffffffffffff0ull, 1, BPF_JSLT, 0, 16);
	/* step jumps over the top: 0, 2, ..., UINT64_MAX - 1, wraps: never >= UINT64_MAX */
	expect(64, 0, 2, BPF_JGE, UINT64_MAX, -1);
	/* invariant test */
	expect(64, 5, 0, BPF_JGE, 3, 0);
	expect(64, 1, 0, BPF_JGE, 3, -1);
	/* JNE exits at once unless equal */
	expect(64, 3, 1, BPF_JNE, 7, 0);
	expect(64, 7, 1, BPF_JNE, 7, 1);
}

/* '==' with an even step 2^t * o against a bound known only as a range, when the lowest t bits
 * of every start and bound are known and the same (low_same): the claimed range must hold for
 * every start and bound of the box with those low bits (the kernel campaign's program 286: 68
 * down by 4 until it equals one of 60 and 64); with one low bit fewer known, no answer. */
static void test_even_step_low_bits(void)
{
	int solved = 0;

	for (int iter = 0; iter < 20000; iter++) {
		unsigned w = rnd64() & 1 ? 32 : 64, t = 1 + (unsigned)(rnd64() % 3);
		uint64_t mask = w == 32 ? 0xffffffffull : UINT64_MAX, u = 1ull << t;
		uint64_t o = rnd64() & 1 ? 1 : 3, r = rnd64() % u, kmax, kmin;
		uint64_t step = (rnd64() & 1 ? o * u : -(o * u)) & mask;
		uint64_t alo = (near(w) & ~(u - 1)) | r, ahi = (alo + u * (rnd64() % 3)) & mask;
		uint64_t nlo = (near(w) & ~(u - 1)) | r, nhi = (nlo + u * (rnd64() % 5)) & mask;
		struct trip_query q;
		char why[128];

		if (ahi < alo || nhi < nlo || crosses(w, alo, ahi) || crosses(w, nlo, nhi) ||
		    (alo == ahi && nlo == nhi))
			continue;
		box_query(&q, w, alo, ahi, nlo, nhi, step, rnd64() & 1 ? BPF_JEQ : BPF_JNE);
		q.low_same = t - 1;
		if (q.pred == BPF_JEQ)
			CHECK(trip_first_exit(&q, &kmax, &kmin, why, sizeof(why)),
			      "w%u step %#llx: an answer without the low bits known", w,
			      (unsigned long long)step);
		q.low_same = t;
		if (trip_first_exit(&q, &kmax, &kmin, why, sizeof(why)))
			continue;
		solved += q.pred == BPF_JEQ;
		if (kmax > 1u << 20)
			continue;
		for (uint64_t a = alo; a <= ahi && a >= alo; a += u)
			for (uint64_t n = nlo; n <= nhi && n >= nlo; n += u) {
				uint64_t k = simulate(q.pred, w, a, step, step, 0, n, kmax + 2);

				CHECK(k <= kmax && k >= kmin,
				      "w%u op 0x%x a=%#llx s=%#llx n=%#llx low %u: simulated %llu, "
				      "claimed [%llu, %llu]", w, q.pred, (unsigned long long)a,
				      (unsigned long long)step, (unsigned long long)n, t,
				      (unsigned long long)k, (unsigned long long)kmin,
				      (unsigned long long)kmax);
			}
	}
	CHECK(solved > 2000, "solved %d", solved);
}

/* '==' where the distance from the start to the bound is a linear form c0 + k1 t1 + k2 t2 of
 * values in intervals (trip_eq_linear: a bound c - X * s an outer loop computes): for every
 * t1, t2 of the intervals, the first k with a + k s == a + D, simulated, must lie in the claimed
 * range; the forms are built as multiples of the step plus an error e, and with e = 1 against an
 * even step no answer may come.  Also: an answer for most error-free forms. */
static void test_eq_linear(void)
{
	int solved = 0, tried = 0;

	for (int iter = 0; iter < 20000; iter++) {
		unsigned w = rnd64() & 1 ? 32 : 64, t = (unsigned)(rnd64() % 3);
		uint64_t mask = w == 32 ? 0xffffffffull : UINT64_MAX;
		uint64_t o = (1 + 2 * (rnd64() % 600)), step = (o << t) & mask, kmax, kmin;
		uint64_t a = near(w) & mask, e = rnd64() % 4 == 0 ? 1 : 0;
		int64_t q1 = (int64_t)(rnd64() % 7) - 3, q2 = (int64_t)(rnd64() % 5) - 2;
		int64_t q0 = (int64_t)(rnd64() % 40);
		int64_t lo1 = (int64_t)(rnd64() % 20) - 10, lo2 = (int64_t)(rnd64() % 6);
		int64_t hi1 = lo1 + (int64_t)(rnd64() % 6), hi2 = lo2 + (int64_t)(rnd64() % 3);
		struct trip_lin d = { .n = 2 };
		char why[128];

		if (rnd64() & 1)
			step = (0 - step) & mask;
		/* D = s (q0 + q1 t1 + q2 t2) + e over w bits */
		d.c0 = (step * (uint64_t)q0 + e) & mask;
		d.k[0] = (step * (uint64_t)q1) & mask;
		d.k[1] = (step * (uint64_t)q2) & mask;
		d.lo[0] = lo1;
		d.hi[0] = hi1;
		d.lo[1] = lo2;
		d.hi[1] = hi2;
		tried += !e;
		if (trip_eq_linear(w, step, &d, &kmax, &kmin, why, sizeof(why))) {
			CHECK(e || q0 + q1 * (q1 >= 0 ? lo1 : hi1) + q2 * (q2 >= 0 ? lo2 : hi2) < 0,
			      "w%u step %#llx: no answer for an exact form: %s", w,
			      (unsigned long long)step, why);
			continue;
		}
		CHECK(!e || t == 0, "w%u step %#llx: an answer with an odd distance", w,
		      (unsigned long long)step);
		solved += !e;
		if (kmax > 1u << 16)
			continue;
		for (int64_t t1 = lo1; t1 <= hi1; t1++)
			for (int64_t t2 = lo2; t2 <= hi2; t2++) {
				uint64_t n = (a + d.c0 + d.k[0] * (uint64_t)t1 + d.k[1] * (uint64_t)t2) &
					     mask;
				uint64_t k = simulate(BPF_JEQ, w, a, step, step, 0, n, kmax + 2);

				CHECK(k <= kmax && k >= kmin,
				      "w%u a=%#llx s=%#llx t1=%lld t2=%lld: simulated %llu, claimed "
				      "[%llu, %llu]", w, (unsigned long long)a,
				      (unsigned long long)step, (long long)t1, (long long)t2,
				      (unsigned long long)k, (unsigned long long)kmin,
				      (unsigned long long)kmax);
			}
	}
	CHECK(solved > tried / 2, "solved %d of %d", solved, tried);
}

/* Counters that pass the bound by wrapping and come round to the exit range later (a big step:
 * 0xaf1d882f down by 0x20000002 while above 0x8f1d881d signed, 9 steps; from [-68, -65] up by
 * 2^30 + 1 until w > 0x7fffffd9 signed, 30 steps): solved start by start over a few starts, each
 * checked against every start and bound of its box; some start that never gets there must leave
 * the query unknown (check_query's simulation fails otherwise). */
static void test_wrap_windows(void)
{
	int solved = 0, unknown = 0;
	uint64_t kmax, kmin;
	char why[128];

	for (int iter = 0; iter < 40000; iter++) {
		unsigned w = rnd64() & 1 ? 32 : 64;
		uint64_t mask = w == 32 ? 0xffffffffull : UINT64_MAX;
		uint64_t alo = near(w), ahi = (alo + rnd64() % 8) & mask;
		uint64_t nlo = near(w), nhi = (nlo + rnd64() % 4) & mask;
		uint64_t d = 2 + rnd64() % 8, e = rnd64() % 7;
		uint64_t step = ((mask / d) + e - 3) & mask;
		struct trip_query q;

		if (ahi < alo || nhi < nlo || crosses(w, alo, ahi) || crosses(w, nlo, nhi))
			continue;
		if (rnd64() & 1)
			step = (0 - step) & mask;
		box_query(&q, w, alo, ahi, nlo, nhi, step, preds[2 + rnd64() % 8]);
		if (check_query(&q, 1u << 16))
			solved++;
		else
			unknown++;
	}
	CHECK(solved > 10000 && unknown > 200, "wrap windows: solved %d unknown %d", solved,
	      unknown);
	{
		struct trip_query q;

		/* 0xaf1d882f - 0x20000002 k while s> 0x8f1d881d: exits at k = 9 */
		box_query(&q, 32, 0xaf1d882f, 0xaf1d882f, 0x8f1d881d, 0x8f1d881d,
			  (uint64_t)-536870914 & 0xffffffffull, BPF_JSLE);
		CHECK(!trip_first_exit(&q, &kmax, &kmin, why, sizeof(why)) && kmax == 9 &&
		      kmin == 9, "down by 0x20000002: [%llu, %llu] %s", (unsigned long long)kmin,
		      (unsigned long long)kmax, why);
		/* [-68, -65] + 0x40000001 (k + 1) while s<= 0x7fffffd9: the first tested value
		 * is the start plus one step; exits at k = 29 for every start */
		box_query(&q, 32, (uint32_t)(-68 + 0x40000001), (uint32_t)(-65 + 0x40000001),
			  0x7fffffd9, 0x7fffffd9, 0x40000001, BPF_JSGT);
		CHECK(!trip_first_exit(&q, &kmax, &kmin, why, sizeof(why)) && kmax == 29 &&
		      kmin == 29, "up by 2^30 + 1: [%llu, %llu] %s", (unsigned long long)kmin,
		      (unsigned long long)kmax, why);
	}
}

int main(void)
{
	test_exact();
	test_random_boxes();
	test_step_ranges();
	test_jset();
	test_eq_across_zero();
	test_even_step_low_bits();
	test_eq_linear();
	test_wrap_windows();
	return check_done("test_trip");
}
