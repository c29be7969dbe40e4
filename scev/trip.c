/* First-exit iteration of an add recurrence against an invariant bound: see trip.h.
 *
 * Everything is reduced to an increasing counter tested against one of four exit sets in the
 * unsigned order of W-bit values: v >= N (GE), v < N (LT), v == N (EQ), v != N (NE).  Signed
 * predicates become unsigned ones by flipping the sign bit of both sides (x ^ 2^(W-1) preserves
 * signed order as unsigned order and commutes with adding k*s); a decreasing counter becomes an
 * increasing one by complementing (~v counts up by -s, and ~ reverses the order); v > N is
 * v >= N + 1 and v <= N is v < N + 1.  Bounds are kept in 128 bits so N + 1 = 2^W is representable.
 */
#include "scev/trip.h"

#include <stdio.h>

#include "bpf/isa.h"

typedef unsigned __int128 u128;
typedef __int128 s128;

enum { P_GE, P_LT, P_EQ, P_NE };

uint8_t trip_negate(uint8_t op)
{
	switch (op) {
	case BPF_JEQ: return BPF_JNE;
	case BPF_JNE: return BPF_JEQ;
	case BPF_JGT: return BPF_JLE;
	case BPF_JLE: return BPF_JGT;
	case BPF_JGE: return BPF_JLT;
	case BPF_JLT: return BPF_JGE;
	case BPF_JSGT: return BPF_JSLE;
	case BPF_JSLE: return BPF_JSGT;
	case BPF_JSGE: return BPF_JSLT;
	case BPF_JSLT: return BPF_JSGE;
	default: return 0;
	}
}

uint8_t trip_swap(uint8_t op)
{
	switch (op) {
	case BPF_JGT: return BPF_JLT;
	case BPF_JLT: return BPF_JGT;
	case BPF_JGE: return BPF_JLE;
	case BPF_JLE: return BPF_JGE;
	case BPF_JSGT: return BPF_JSLT;
	case BPF_JSLT: return BPF_JSGT;
	case BPF_JSGE: return BPF_JSLE;
	case BPF_JSLE: return BPF_JSGE;
	default: return op;	/* JEQ, JNE, JSET are symmetric */
	}
}

static u128 ceil_div(u128 a, u128 b)
{
	return (a + b - 1) / b;
}

/* Multiplicative inverse of odd x modulo 2^w (Newton iteration). */
static uint64_t inverse_odd(uint64_t x, unsigned w)
{
	uint64_t y = x;	/* correct to 3 bits */

	for (int i = 0; i < 6; i++)
		y *= 2 - x * y;
	return w == 64 ? y : y & ((1ull << w) - 1);
}

#define WHY(...) (snprintf(why, whylen, __VA_ARGS__), -1)

/* v == N first holds at a step k of 1 from A over W bits: k = N - A mod 2^W, over every A in
 * [alo, ahi] and N in [nlo, nhi]. */
static void eq_unit_step(u128 m, u128 alo, u128 ahi, u128 nlo, u128 nhi, u128 *hi, u128 *lo)
{
	s128 dlo = (s128)nlo - (s128)ahi, dhi = (s128)nhi - (s128)alo;

	*hi = dlo <= -1 && dhi >= -1 ? m - 1 : dhi < 0 ? (u128)(dhi + (s128)m) : (u128)dhi;
	*lo = dlo <= 0 && dhi >= 0 ? 0 : dlo > 0 ? (u128)dlo : (u128)(dlo + (s128)m);
}

/* The least x >= 0 with L <= a*x mod m <= R (0 < m <= 2^64, 0 <= a < m, 0 <= L <= R < m), or m
 * when there is none.  Without a multiple of a in [L, R], a solution wraps y >= 1 times:
 * a*x - m*y in [L, R] is m*y mod a in [-R mod a, -L mod a], and the least y gives the least x
 * (Euclid's steps on (a, m): at most about 93 levels).  Every product stays below 2^128: x is at
 * most L/a + 1, y below a. */
static u128 mod_first(u128 a, u128 m, u128 L, u128 R)
{
	u128 x, y;

	if (L == 0)
		return 0;
	if (a == 0)
		return m;
	x = ceil_div(L, a);
	if (a * x <= R)
		return x;
	y = mod_first(m % a, a, a - R % a, a - L % a);
	return y == a ? m : ceil_div(L + m * y, a);
}

/* The first k with A + k*s (mod m) in [L, R] (L <= R < m), or m when it never gets there. */
static u128 window_first(u128 m, u128 A, u128 s, u128 L, u128 R)
{
	u128 lo = (L + m - A) % m, hi = (R + m - A) % m;

	return lo > hi ? 0 : mod_first(s % m, m, lo, hi);
}

/* Starts that window_exact walks one by one. */
#define WINDOW_STARTS 64

/* One step s (0 < s < m) and at most WINDOW_STARTS starts: the first exit of each start, exact
 * over wrap-around, for the exit sets [N, m) (GE) or [0, N) (LT) — the smallest set of N's range
 * gives the latest exit, the largest the earliest (a counter that passes the bound by wrapping
 * and comes round to it later, as 0xaf1d882f down by 0x20000002 until it is below 0x8f1d881e
 * signed: 9 steps).  -1 when some start never exits. */
static int window_exact(u128 m, u128 alo, u128 ahi, u128 s, int p, u128 nlo, u128 nhi,
			u128 *hi, u128 *lo)
{
	*hi = 0;
	*lo = m;
	if (ahi - alo >= WINDOW_STARTS || (p == P_GE ? nhi >= m : nlo == 0))
		return -1;
	for (u128 a = alo; a <= ahi; a++) {
		u128 late = p == P_GE ? window_first(m, a, s, nhi, m - 1)
				      : window_first(m, a, s, 0, nlo - 1);
		u128 early = p == P_GE ? window_first(m, a, s, nlo, m - 1)
				       : window_first(m, a, s, 0, (nhi > m ? m : nhi) - 1);

		if (late >= m)
			return -1;
		*hi = late > *hi ? late : *hi;
		*lo = early < *lo ? early : *lo;
	}
	return 0;
}

/* The increasing case, 0 < s <= s2 < 2^W (s2 > s: each step is somewhere between them), on
 * [alo, ahi] and N in [nlo, nhi] (N up to 2^W); the lowest low bits the same in every A and N. */
static int solve_up(unsigned w, u128 alo, u128 ahi, u128 s, u128 s2, int p, u128 nlo, u128 nhi,
		    unsigned low, uint64_t *kmax, uint64_t *kmin, char *why, unsigned whylen)
{
	u128 m = (u128)1 << w, hi, lo;

	if (s2 != s && p != P_GE && p != P_NE && !(p == P_LT && ahi < nlo))
		return WHY("the counter's step differs between paths: only a bound it must "
			   "reach without wrapping is solved");
	switch (p) {
	case P_GE:
		/* Counts up to N.  Safe when the step cannot carry it past 2^W before it gets
		 * there: the last value below N is at most N - 1, the next at most N - 1 + s2.
		 * The slowest steps take longest, the fastest shortest. */
		if (nhi >= m)
			return WHY("the exit test v >= %s can never hold", "2^W");
		if (alo >= nhi) {
			hi = lo = 0;	/* every start is past every bound */
			break;
		}
		if (nhi + s2 > m) {
			/* One start, one step: where it passes each bound is known exactly, and
			 * it passes the largest without wrapping, so it passes all of them. */
			if (s == s2 && alo == ahi && alo + ceil_div(nhi - alo, s) * s < m) {
				hi = ceil_div(nhi - alo, s);
				lo = nlo > alo ? ceil_div(nlo - alo, s) : 0;
				break;
			}
			/* else where each start lands after wrapping, start by start */
			if (s != s2 || window_exact(m, alo, ahi, s, p, nlo, nhi, &hi, &lo))
				return WHY("the counter may wrap past the bound before reaching it");
			break;
		}
		hi = nhi > alo ? ceil_div(nhi - alo, s) : 0;
		lo = nlo > ahi ? ceil_div(nlo - ahi, s2) : 0;
		break;
	case P_LT:
		/* Exits at once when A < N; otherwise counts up past 2^W and wraps to a value below
		 * s, which is below N when s <= N. */
		if (ahi < nlo) {
			hi = lo = 0;
			break;
		}
		if (nlo == 0)
			return WHY("the exit test v < 0 can never hold");
		if (s > nlo) {
			/* One start, one step: every value before the first wrap is at least A,
			 * below no bound; the first after it, v1 = A + k1*s - 2^W, exits when it
			 * is below the smallest (a counter that lands on 0 past 2^31 - 6 by 3). */
			u128 k1 = ceil_div(m - alo, s);

			if (s == s2 && alo == ahi && alo + k1 * s - m < nlo) {
				hi = k1;
				lo = alo < nhi ? 0 : k1;
				break;
			}
			if (s != s2 || window_exact(m, alo, ahi, s, p, nlo, nhi, &hi, &lo))
				return WHY("the counter may wrap over the exit range");
			break;
		}
		hi = ceil_div(m - (alo > nlo ? alo : nlo), s);
		lo = alo < nhi ? 0 : ceil_div(m - ahi, s);
		break;
	case P_EQ:
		if (nhi >= m)
			return WHY("the bound is outside the counter's range");
		if (alo == ahi && nlo == nhi) {
			u128 d = (nlo - alo + m) % m;
			unsigned tz = 0;

			while (!((s >> tz) & 1))
				tz++;
			if (d & (((u128)1 << tz) - 1))
				return WHY("the step does not divide the distance: '!=' never "
					   "meets the bound");
			d >>= tz;
			hi = lo = (d * inverse_odd((uint64_t)(s >> tz), w - tz)) %
				  ((u128)1 << (w - tz));
		} else if (s == 1) {
			eq_unit_step(m, alo, ahi, nlo, nhi, &hi, &lo);
		} else if (s & 1) {
			hi = m - 1;	/* an odd step visits every value within 2^W steps */
			lo = 0;
		} else {
			/* s = 2^t * o, o odd: the lowest t bits of v never change, the others
			 * move by o over W - t bits.  When those t bits are the same in every
			 * A and N, v == N is (v >> t) == (N >> t) there (and >> t keeps the
			 * order of the ranges); else it may never hold. */
			unsigned t = (unsigned)__builtin_ctzll((uint64_t)s);

			if (t > low)
				return WHY("an even step may never meet a bound that is not a "
					   "constant");
			if (s >> t == 1) {
				eq_unit_step(m >> t, alo >> t, ahi >> t, nlo >> t, nhi >> t, &hi,
					     &lo);
			} else {
				hi = (m >> t) - 1;
				lo = 0;
			}
		}
		break;
	default: /* P_NE: v(1) = v(0) + s differs from v(0) (0 < s < 2^W), so it exits by
		  * iteration 1 */
		if (alo == ahi && nlo == nhi && alo == nlo)
			hi = lo = 1;
		else if (ahi < nlo || nhi < alo)
			hi = lo = 0;
		else {
			hi = 1;
			lo = 0;
		}
		break;
	}
	if (hi >= m || hi > UINT64_MAX - 1)
		return WHY("the count does not fit in 64 bits");
	*kmax = (uint64_t)hi;
	*kmin = (uint64_t)lo;
	return 0;
}

/* The solver on one view of the query: the predicate's own, or for == and != (flip) the signed
 * view with the sign bit flipped — equality and adding the step are the same there, and a range
 * that crosses zero ([-15, 0]) is one interval in it rather than the whole unsigned space. */
static int first_exit(const struct trip_query *q, bool flip, uint64_t *kmax, uint64_t *kmin,
		      char *why, unsigned whylen)
{
	unsigned w = q->width;
	u128 m = (u128)1 << w, sign = (u128)1 << (w - 1), mask = m - 1;
	u128 alo, ahi, nlo, nhi, s = q->step & (uint64_t)mask;
	u128 s2 = q->varies ? q->step_hi & (uint64_t)mask : s;
	bool is_signed = false;
	int p;

	switch (q->pred) {
	case BPF_JSGE: case BPF_JSGT: case BPF_JSLT: case BPF_JSLE:
		is_signed = true;
		break;
	case BPF_JGE: case BPF_JGT: case BPF_JLT: case BPF_JLE: case BPF_JEQ: case BPF_JNE:
		break;
	default:
		return WHY("this exit condition (jset) is not solved");
	}
	if (is_signed || flip) {
		/* Flip the sign bit: signed order becomes unsigned order. */
		alo = ((u128)(uint64_t)q->a_slo & mask) ^ sign;
		ahi = ((u128)(uint64_t)q->a_shi & mask) ^ sign;
		nlo = ((u128)(uint64_t)q->n_slo & mask) ^ sign;
		nhi = ((u128)(uint64_t)q->n_shi & mask) ^ sign;
	} else {
		alo = q->a_ulo;
		ahi = q->a_uhi;
		nlo = q->n_ulo;
		nhi = q->n_uhi;
	}
	if (alo > ahi || nlo > nhi)
		return WHY("empty range");
	switch (q->pred) {
	case BPF_JGE: case BPF_JSGE: p = P_GE; break;
	case BPF_JGT: case BPF_JSGT: p = P_GE; nlo++; nhi++; break;
	case BPF_JLT: case BPF_JSLT: p = P_LT; break;
	case BPF_JLE: case BPF_JSLE: p = P_LT; nlo++; nhi++; break;
	case BPF_JEQ: p = P_EQ; break;
	default: p = P_NE; break;
	}
	if (q->varies && (s == 0 || s2 == 0 || (s >= sign) != (s2 >= sign)))
		return WHY("the counter's step may be zero or change sign between paths");
	if (s == 0) {
		/* The tested value never changes: the exit is taken at once or never. */
		bool always = (p == P_GE && alo >= nhi) || (p == P_LT && ahi < nlo) ||
			      (p == P_EQ && alo == ahi && nlo == nhi && alo == nlo) ||
			      (p == P_NE && (ahi < nlo || nhi < alo));

		if (!always)
			return WHY("the tested value does not change in the loop");
		*kmax = *kmin = 0;
		return 0;
	}
	if (s >= sign && !(s == sign && s2 == sign && (p == P_EQ || p == P_NE))) {
		/* Decreasing: complement both sides.  ~v = (m-1) - v counts up by m - s. */
		u128 t;

		t = mask - ahi;
		ahi = mask - alo;
		alo = t;
		s = m - s;
		s2 = m - s2;
		switch (p) {
		case P_GE:	/* v >= N  <=>  ~v < m - N */
			p = P_LT;
			t = m - nhi;
			nhi = m - nlo;
			nlo = t;
			break;
		case P_LT:	/* v < N  <=>  ~v >= m - N */
			p = P_GE;
			t = m - nhi;
			nhi = m - nlo;
			nlo = t;
			break;
		default:	/* v == N <=> ~v == ~N */
			if (nhi >= m)
				return WHY("the bound is outside the counter's range");
			t = mask - nhi;
			nhi = mask - nlo;
			nlo = t;
			break;
		}
	}
	if (s2 < s) {
		u128 t = s;

		s = s2;
		s2 = t;
	}
	return solve_up(w, alo, ahi, s, s2, p, nlo, nhi, q->low_same < w ? q->low_same : w, kmax,
			kmin, why, whylen);
}

int trip_first_exit(const struct trip_query *q, uint64_t *kmax, uint64_t *kmin, char *why,
		    unsigned whylen)
{
	int r = first_exit(q, false, kmax, kmin, why, whylen);
	uint64_t k2max, k2min;
	char why2[96];

	/* == and !=: both views bound the same first exit, so both answers hold at once. */
	if ((q->pred == BPF_JEQ || q->pred == BPF_JNE) &&
	    !first_exit(q, true, &k2max, &k2min, why2, sizeof(why2))) {
		if (r) {
			*kmax = k2max;
			*kmin = k2min;
			return 0;
		}
		if (k2max < *kmax && k2max >= *kmin)
			*kmax = k2max;
		if (k2min > *kmin && k2min <= *kmax)
			*kmin = k2min;
	}
	return r;
}

int trip_eq_linear(unsigned width, uint64_t step, const struct trip_lin *d, uint64_t *kmax,
		   uint64_t *kmin, char *why, unsigned whylen)
{
	uint64_t wmask = width == 32 ? 0xffffffffull : UINT64_MAX, s = step & wmask, low, inv;
	unsigned t, mw;
	s128 M, klo, khi, j;

	if (!s)
		return WHY("the tested value does not change in the loop");
	t = (unsigned)__builtin_ctzll(s);
	low = (1ull << t) - 1;
	mw = width - t;			/* K lives modulo M = 2^mw */
	M = (s128)1 << mw;
	inv = inverse_odd(s >> t, mw);
	if ((d->c0 & low) != 0)
		return WHY("the step does not divide the distance: '!=' may never meet the bound");
	/* K = (D >> t) * o^-1 (mod M), each coefficient as the signed number of its class */
	klo = khi = 0;
	for (unsigned i = 0; i <= d->n; i++) {
		uint64_t k = i < d->n ? d->k[i] : d->c0, q;
		s128 sq;

		if ((k & low) != 0)
			return WHY("the step does not divide the distance: '!=' may never meet "
				   "the bound");
		q = ((k & wmask) >> t) * inv;
		q = mw == 64 ? q : q & (((uint64_t)1 << mw) - 1);
		sq = mw < 64 && q >= (uint64_t)1 << (mw - 1) ? (s128)q - M :
		     mw == 64 ? (s128)(int64_t)q : (s128)q;
		if (i == d->n) {
			klo += sq;
			khi += sq;
			continue;
		}
		/* (|q| below 2^32 and |t_i| at most 2^64: no term or sum of nine overflows) */
		if (sq > ((s128)1 << 32) || sq < -((s128)1 << 32) || d->lo[i] > d->hi[i] ||
		    d->lo[i] < -((s128)1 << 64) || d->hi[i] > ((s128)1 << 64))
			return WHY("the distance over the step is not a small linear form");
		klo += sq * (sq >= 0 ? d->lo[i] : d->hi[i]);
		khi += sq * (sq >= 0 ? d->hi[i] : d->lo[i]);
	}
	/* the first n >= 0 with n == K (mod M) is K mod M: one interval when [klo, khi] lies
	 * between two multiples of M */
	j = klo >= 0 ? klo / M : -((-klo + M - 1) / M);
	klo -= j * M;
	khi -= j * M;
	if (khi >= M)
		return WHY("the count modulo the step's reach is not one interval");
	/* (the iteration 2^64 - 1 is the 2^64th header execution: as trip_first_exit) */
	if (khi > (s128)(UINT64_MAX - 1))
		return WHY("the count does not fit in 64 bits");
	*kmin = (uint64_t)klo;
	*kmax = (uint64_t)khi;
	return 0;
}

int trip_first_jset(unsigned width, uint64_t step, uint64_t c, bool when_set, uint64_t a_known,
		    uint64_t a_bits, uint64_t *kmax, uint64_t *kmin, char *why, unsigned whylen)
{
	uint64_t mask = width == 32 ? 0xffffffffull : UINT64_MAX, low, high;
	unsigned t;

	step &= mask;
	c &= mask;
	if (!step)
		return WHY("the tested value does not change in the loop");
	if (!c)
		return when_set ? WHY("the exit test v & 0 can never hold") :
				  (*kmax = *kmin = 0, 0);
	t = (unsigned)__builtin_ctzll(step);
	low = c & ((1ull << t) - 1);	/* bits of C that never change */
	high = c & ~((1ull << t) - 1);
	*kmin = 0;
	if (when_set) {
		/* A bit of C below t set in every start: exits at once.  Otherwise the lowest bit
		 * b >= t of C comes up within 2^(b-t+1) - 1 more iterations. */
		if (low & a_known & a_bits) {
			*kmax = 0;
			return 0;
		}
		if (!high)
			return WHY("the bits tested never change and may be clear");
		if ((unsigned)__builtin_ctzll(high) - t >= 63)
			return WHY("the count does not fit in 64 bits");
		*kmax = (2ull << ((unsigned)__builtin_ctzll(high) - t)) - 1;
		return 0;
	}
	/* Every bit of C clear: the unchanging ones must be known clear in every start; the others
	 * are all clear together at some iteration within 2^(h-t+1) - 1, h the highest of them. */
	if (low & ~(a_known & ~a_bits))
		return WHY("bits tested never change and may be set");
	if (!high) {
		*kmax = 0;
		return 0;
	}
	{
		unsigned h = 63u - (unsigned)__builtin_clzll(high);

		if (h - t >= 63)
			return WHY("the count does not fit in 64 bits");
		*kmax = (2ull << (h - t)) - 1;
	}
	return 0;
}
