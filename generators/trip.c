/* Exact trip arithmetic for counters that wrap: when does a + k*s (mod 2^w) first leave the set
 * of values a loop test accepts?
 *
 * The values a test rejects form at most two intervals of the unsigned circle (signed tests are
 * intervals after flipping the sign bit), so the question becomes "the first k with
 * a + k*s mod m in [lo, hi]", which has an exact answer in O(log m) steps by the Euclid-like
 * recursion below — no simulation, so 2^32- and 2^64-iteration loops cost the same as short
 * ones.  The generator states trip counts with this and nothing else; tests/test_gen.c checks it
 * against brute force on small widths and against the interpreter on the programs.
 */
#include "generators/gen.h"

typedef unsigned __int128 u128;

/* Smallest k >= 0 with l <= k*s mod m <= r, for 0 <= l <= r < m and 0 <= s < m.
 *
 * When no multiple of s falls in [l, r] before the first wrap, a solution k wraps y >= 1 times:
 * l <= k*s - y*m <= r.  For a given y such a k exists iff [l + y*m, r + y*m] holds a multiple of
 * s, i.e. iff y*m mod s lies in [s - r%s, s - l%s] (a proper interval because [l, r] holds no
 * multiple of s and is shorter than s) — the same problem with (m mod s, s) in place of (s, m).
 * The smallest such y gives the smallest k, since k grows by more than one per extra wrap. */
static bool hit0(u128 s, u128 m, u128 l, u128 r, u128 *k)
{
	u128 q, y;

	if (l == 0) {
		*k = 0;
		return true;
	}
	if (s == 0)
		return false;
	q = (l + s - 1) / s;
	if (q * s <= r) {
		*k = q;
		return true;
	}
	if (!hit0(m % s, s, s - r % s, s - l % s, &y))
		return false;
	*k = (l + y * m + s - 1) / s;
	return true;
}

bool gen_first_hit(unsigned w, uint64_t a, uint64_t s, uint64_t lo, uint64_t hi, uint64_t *k)
{
	u128 m = (u128)1 << w, l, r, kk;
	uint64_t mask = w >= 64 ? UINT64_MAX : (1ull << w) - 1;

	a &= mask;
	s &= mask;
	if (lo > hi || hi > mask)
		return false;
	if (lo <= a && a <= hi) {
		*k = 0;
		return true;
	}
	/* Shift the target by -a; as a is outside [lo, hi] the shifted interval does not wrap. */
	l = ((u128)lo + m - a) % m;
	r = ((u128)hi + m - a) % m;
	if (!hit0(s, m, l, r, &kk))
		return false;
	*k = (uint64_t)kk;
	return true;
}

static uint64_t wmask(unsigned w)
{
	return w >= 64 ? UINT64_MAX : (1ull << w) - 1;
}

bool gen_cond_holds(uint8_t op, unsigned cmp_width, unsigned counter_width, uint64_t c, uint64_t b)
{
	uint64_t m = wmask(cmp_width), h = 1ull << (cmp_width - 1);
	uint64_t x = c & wmask(counter_width) & m, y = b & m;

	switch (op) {
	case BPF_JEQ: return x == y;
	case BPF_JNE: return x != y;
	case BPF_JLT: return x < y;
	case BPF_JLE: return x <= y;
	case BPF_JGT: return x > y;
	case BPF_JGE: return x >= y;
	case BPF_JSLT: return (x ^ h) < (y ^ h);
	case BPF_JSLE: return (x ^ h) <= (y ^ h);
	case BPF_JSGT: return (x ^ h) > (y ^ h);
	case BPF_JSGE: return (x ^ h) >= (y ^ h);
	case BPF_JSET: return (x & y) != 0;
	default: return false;
	}
}

/* The values of width w that fail "x op b" at width w, as up to two unsigned intervals. */
static unsigned exit_set(uint8_t op, unsigned w, uint64_t b, uint64_t iv[2][2])
{
	uint64_t max = wmask(w), h = 1ull << (w - 1), lo, hi;
	bool sgn = false;
	unsigned n = 0;

	b &= max;
	switch (op) {
	case BPF_JNE:
		iv[0][0] = iv[0][1] = b;
		return 1;
	case BPF_JEQ:
		if (b > 0) {
			iv[n][0] = 0;
			iv[n++][1] = b - 1;
		}
		if (b < max) {
			iv[n][0] = b + 1;
			iv[n++][1] = max;
		}
		return n;
	case BPF_JSLT: case BPF_JSLE: case BPF_JSGT: case BPF_JSGE:
		sgn = true;
		b ^= h;		/* the order where signed compares are unsigned ones */
		break;
	}
	switch (op) {
	case BPF_JLT: case BPF_JSLT:
		lo = b, hi = max;
		break;
	case BPF_JLE: case BPF_JSLE:
		if (b == max)
			return 0;
		lo = b + 1, hi = max;
		break;
	case BPF_JGT: case BPF_JSGT:
		lo = 0, hi = b;
		break;
	case BPF_JGE: case BPF_JSGE:
		if (b == 0)
			return 0;
		lo = 0, hi = b - 1;
		break;
	default:
		return 0;
	}
	if (!sgn) {
		iv[0][0] = lo, iv[0][1] = hi;
		return 1;
	}
	/* Back from the flipped order: an interval that crosses the middle splits in two. */
	if (hi < h) {
		iv[n][0] = lo + h, iv[n++][1] = hi + h;
	} else if (lo >= h) {
		iv[n][0] = lo - h, iv[n++][1] = hi - h;
	} else {
		iv[n][0] = lo + h, iv[n++][1] = max;
		iv[n][0] = 0, iv[n++][1] = hi - h;
	}
	return n;
}

bool gen_first_exit(uint8_t op, unsigned cmp_width, unsigned counter_width, uint64_t a, uint64_t s,
		    uint64_t b, uint64_t *k)
{
	/* The test sees the low cmp_width bits of the counter, or the zero-extended 32-bit counter
	 * against a 64-bit bound: either way the sequence lives modulo 2^w with w the smaller
	 * width, and in the second case only the part of the exit set below 2^32 can be hit. */
	unsigned w = cmp_width < counter_width ? cmp_width : counter_width;
	uint64_t iv[2][2], best = 0, kk;
	unsigned n = exit_set(op, cmp_width, b, iv);
	bool found = false;

	for (unsigned i = 0; i < n; i++) {
		uint64_t lo = iv[i][0], hi = iv[i][1];

		if (lo > wmask(w))
			continue;
		if (hi > wmask(w))
			hi = wmask(w);
		if (gen_first_hit(w, a, s, lo, hi, &kk) && (!found || kk < best)) {
			best = kk;
			found = true;
		}
	}
	if (found)
		*k = best;
	return found;
}
