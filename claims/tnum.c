/* Tristate numbers: each of the 64 bits is known 0, known 1 or unknown, written (value, mask)
 * with a set mask bit meaning "unknown" and its value bit then 0.  A tnum stands for the set of
 * every 64-bit integer that agrees with value on the known bits.
 *
 * Each operation returns a tnum containing op(x, y) for every member x of a and y of b, with
 * 64-bit wrap-around.  None is exact in general: tnum_add((0; 1), (0; 1)) is (0; 3), which also
 * admits 3 although 1 + 1 = 2 is the largest sum.  Semantics match the kernel's
 * kernel/bpf/tnum.c so that var_off compares directly with the verifier log.
 */
#include "claims/tnum.h"

/* The smallest tnum holding [min, max]: the bits above the highest bit where min and max differ
 * are shared by every value in between; every bit from there down may take either value.
 * E.g. [4, 259] is (0; 0x1ff), which also admits 0..3 and 260..511.
 */
struct tnum tnum_range(uint64_t min, uint64_t max)
{
	uint64_t chi = min ^ max, delta;

	if (!chi)
		return tnum_const(min);
	delta = UINT64_MAX >> __builtin_clzll(chi);
	return TNUM(min & ~delta, delta);
}

/* Shifts by 64 or more leave nothing of the input (a C shift by that much would be undefined). */
struct tnum tnum_lshift(struct tnum a, uint8_t shift)
{
	if (shift >= 64)
		return tnum_const(0);
	return TNUM(a.value << shift, a.mask << shift);
}

struct tnum tnum_rshift(struct tnum a, uint8_t shift)
{
	if (shift >= 64)
		return tnum_const(0);
	return TNUM(a.value >> shift, a.mask >> shift);
}

/* Sign-extends the low 'bits' bits of x without relying on signed shifts: flipping the sign bit
 * and subtracting it back borrows through every higher bit exactly when the sign bit was set.
 */
static uint64_t sext_bits(uint64_t x, unsigned bits)
{
	uint64_t sign = 1ULL << (bits - 1);

	if (bits >= 64)
		return x;
	x &= (sign << 1) - 1;
	return (x ^ sign) - sign;
}

/* Each vacated high bit copies the sign bit: known if the sign bit is known, unknown otherwise.
 * Sign-extending value and mask separately does exactly that.  A 32-bit result is
 * zero-extended.
 */
struct tnum tnum_arshift(struct tnum a, uint8_t shift, uint8_t bits)
{
	uint64_t v = sext_bits(a.value, bits), m = sext_bits(a.mask, bits);

	if (shift >= bits)
		shift = bits - 1;	/* every bit is then a copy of the sign bit */
	v = (v >> shift) | (v & (1ULL << 63) ? ~(UINT64_MAX >> shift) : 0);
	m = (m >> shift) | (m & (1ULL << 63) ? ~(UINT64_MAX >> shift) : 0);
	if (bits == 32)
		return TNUM((uint32_t)v, (uint32_t)m);
	return TNUM(v, m);
}

/* The sum of the known parts plus the sum of the largest choices for the unknown bits bounds
 * which bits a carry can reach: a bit is known only where both sums agree and neither input
 * has it unknown.  E.g. (0; 1) + 1 = (0; 3): the carry may or may not reach bit 1.
 */
struct tnum tnum_add(struct tnum a, struct tnum b)
{
	uint64_t sv = a.value + b.value;
	uint64_t sm = a.mask + b.mask;
	uint64_t carries = (sv + sm) ^ sv;
	uint64_t mu = carries | a.mask | b.mask;

	return TNUM(sv & ~mu, mu);
}

/* Same idea as tnum_add with borrows: the difference of the known parts, moved up by a's
 * largest unknown part or down by b's, shows which bits a borrow can reach.
 */
struct tnum tnum_sub(struct tnum a, struct tnum b)
{
	uint64_t dv = a.value - b.value;
	uint64_t borrows = (dv + a.mask) ^ (dv - b.mask);
	uint64_t mu = borrows | a.mask | b.mask;

	return TNUM(dv & ~mu, mu);
}

struct tnum tnum_neg(struct tnum a)
{
	return tnum_sub(tnum_const(0), a);
}

/* A result bit is known 1 when both are known 1, possibly 1 when both may be 1. */
struct tnum tnum_and(struct tnum a, struct tnum b)
{
	uint64_t ones = a.value & b.value;
	uint64_t maybe = (a.value | a.mask) & (b.value | b.mask);

	return TNUM(ones, maybe & ~ones);
}

/* A result bit is known 1 when either is known 1, known 0 when both are known 0. */
struct tnum tnum_or(struct tnum a, struct tnum b)
{
	uint64_t ones = a.value | b.value;
	uint64_t mu = a.mask | b.mask;

	return TNUM(ones, mu & ~ones);
}

/* A result bit is known exactly where both input bits are known. */
struct tnum tnum_xor(struct tnum a, struct tnum b)
{
	uint64_t mu = a.mask | b.mask;

	return TNUM((a.value ^ b.value) & ~mu, mu);
}

/* Long multiplication over the bits of a: a known 1 adds the shifted b, an unknown bit keeps
 * either the accumulator or the accumulator plus the shifted b (their union).  Exact when both
 * are constants; an unknown low bit of a blurs every bit of the product from there up, although
 * known zero low bits of b survive (k * 4 keeps its two low bits 0).
 */
struct tnum tnum_mul(struct tnum a, struct tnum b)
{
	struct tnum acc = tnum_const(0);

	while (a.value | a.mask) {
		if (a.value & 1)
			acc = tnum_add(acc, b);
		else if (a.mask & 1)
			acc = tnum_union(acc, tnum_add(acc, b));
		a = tnum_rshift(a, 1);
		b = tnum_lshift(b, 1);
	}
	return acc;
}

/* Known bits of either side are known in the meet.  When a and b disagree on a known bit there
 * is no common member and the result (which then says 1 for that bit) means nothing; callers
 * that care test (a.value ^ b.value) & ~(a.mask | b.mask) first.
 */
struct tnum tnum_intersect(struct tnum a, struct tnum b)
{
	uint64_t v = a.value | b.value;
	uint64_t mu = a.mask & b.mask;

	return TNUM(v & ~mu, mu);
}

/* A bit stays known only when it is known, and equal, on both sides. */
struct tnum tnum_union(struct tnum a, struct tnum b)
{
	uint64_t mu = a.mask | b.mask | (a.value ^ b.value);

	return TNUM(a.value & ~mu, mu);
}

struct tnum tnum_cast(struct tnum a, uint8_t size)
{
	uint64_t keep;

	if (size >= 8)
		return a;
	keep = (1ULL << (size * 8)) - 1;
	return TNUM(a.value & keep, a.mask & keep);
}

/* Sign-extending value and mask separately copies a known sign bit as known bits and an
 * unknown sign bit as unknown bits.
 */
struct tnum tnum_sext(struct tnum a, uint8_t bits)
{
	return TNUM(sext_bits(a.value, bits), sext_bits(a.mask, bits));
}

/* Bytes move with their known/unknown state; the result of a 16- or 32-bit swap is
 * zero-extended, so the bits above are known 0.
 */
struct tnum tnum_bswap(struct tnum a, uint8_t bits)
{
	switch (bits) {
	case 16:
		return TNUM(__builtin_bswap16((uint16_t)a.value), __builtin_bswap16((uint16_t)a.mask));
	case 32:
		return TNUM(__builtin_bswap32((uint32_t)a.value), __builtin_bswap32((uint32_t)a.mask));
	default:
		return TNUM(__builtin_bswap64(a.value), __builtin_bswap64(a.mask));
	}
}

/* a is a subset of b: a knows at least b's known bits, with the same values. */
bool tnum_in(struct tnum b, struct tnum a)
{
	if (a.mask & ~b.mask)
		return false;
	return (a.value & ~b.mask) == b.value;
}
