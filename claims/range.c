/* Scalar ranges: the set of 64-bit values that satisfy every field of a struct range at once —
 * unsigned and signed bounds of the whole value, the same of its low 32 bits, and a tnum.
 * Operations follow the BPF run-time semantics and return a synced range holding every
 * concrete result; they are as tight as the fields allow when nothing wraps and fall back to a
 * whole type view (all u64, all s32, ...) for each view that may wrap.
 *
 * Most arithmetic goes through one idea: compute the exact integer interval of a result (in
 * __int128, where nothing wraps), then reduce it modulo 2^w.  An interval shorter than 2^w that
 * does not cross a multiple of 2^w maps to an exact unsigned interval, and one that does not
 * cross an odd multiple of 2^(w-1) to an exact signed interval; anything else gives the full
 * view.  Each input is seen both as an unsigned and as a signed interval, and the result is the
 * meet of what each combination says, so [0, 10] + [-1, -1] is [-1, 9] signed even though the
 * unsigned sum of [0, 10] and [2^64 - 1, 2^64 - 1] wraps.
 *
 * range_sync() is the kernel's reg_bounds_sync() — bounds from known bits, signed/unsigned and
 * 32/64 deductions (twice), known bits from bounds, bounds again — written as tightenings only
 * (every step takes a max of lower bounds or a min of upper bounds), so a range that is empty
 * in one field stays empty, plus three exact extras the kernel lacks: a 64-bit bound whose
 * low half is outside the 32-bit bounds moves to the next (or previous) admissible value,
 * skipping a whole 32-bit block if needed; every bound moves onto the nearest tnum member; and
 * a tnum that contradicts the bounds yields the empty range.  Fields can therefore be tighter
 * than the verifier's for the same facts, never looser for the same inputs.
 */
#include <linux/bpf.h>
#include <string.h>

#include "claims/range.h"

typedef __int128 i128;
typedef unsigned __int128 u128;

#define LO32 0xffffffffULL
#define SIGN64 (1ULL << 63)
#define SIGN32 0x80000000ULL

/* Bounds of a w-bit quantity (w = 64 for the register, 32 for its subregister, 8 or 16 for the
 * low bits of a sign-extending move): unsigned [umin, umax], signed [smin, smax].
 */
struct ivl {
	uint64_t umin, umax;
	int64_t smin, smax;
};

static uint64_t umax_of(unsigned w)
{
	return w >= 64 ? UINT64_MAX : (1ULL << w) - 1;
}

static int64_t smax_of(unsigned w)
{
	return (int64_t)(umax_of(w) >> 1);
}

static int64_t smin_of(unsigned w)
{
	return -smax_of(w) - 1;
}

/* The low 'bits' bits of x, sign-extended (no signed shifts, no overflow). */
static uint64_t sext_bits(uint64_t x, unsigned bits)
{
	uint64_t sign = 1ULL << (bits - 1);

	if (bits >= 64)
		return x;
	x &= (sign << 1) - 1;
	return (x ^ sign) - sign;
}

static uint64_t umin64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static uint64_t umax64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static int64_t smin64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t smax64(int64_t a, int64_t b) { return a > b ? a : b; }

/* ---- intervals of w-bit values ---- */

static struct ivl ivl_full(unsigned w)
{
	return (struct ivl){ 0, umax_of(w), smin_of(w), smax_of(w) };
}

static struct ivl ivl_meet(struct ivl a, struct ivl b)
{
	return (struct ivl){ umax64(a.umin, b.umin), umin64(a.umax, b.umax),
			     smax64(a.smin, b.smin), smin64(a.smax, b.smax) };
}

static struct ivl ivl_join(struct ivl a, struct ivl b)
{
	return (struct ivl){ umin64(a.umin, b.umin), umax64(a.umax, b.umax),
			     smin64(a.smin, b.smin), smax64(a.smax, b.smax) };
}

/* Both views of the values in the integer interval [lo, hi] taken modulo 2^w.  A view is exact
 * when the interval stays inside one of its 2^w-long windows and full otherwise: [-3, -1] is
 * unsigned [2^w - 3, 2^w - 1] and signed [-3, -1]; [-1, 1] is signed [-1, 1] but all unsigned.
 */
static struct ivl ivl_from_math(i128 lo, i128 hi, unsigned w)
{
	struct ivl r = ivl_full(w);
	i128 span, ulo, slo;

	if (lo > hi || __builtin_sub_overflow(hi, lo, &span) || span > (i128)umax_of(w))
		return r;
	ulo = (i128)((u128)lo & umax_of(w));
	if (ulo + span <= (i128)umax_of(w)) {
		r.umin = (uint64_t)ulo;
		r.umax = (uint64_t)(ulo + span);
	}
	slo = ulo > smax_of(w) ? ulo - ((i128)1 << w) : ulo;
	if (slo + span <= smax_of(w)) {
		r.smin = (int64_t)slo;
		r.smax = (int64_t)(slo + span);
	}
	return r;
}

/* Each view of v tells something about the other: [2, 5] unsigned is [2, 5] signed too. */
static struct ivl ivl_norm(struct ivl v, unsigned w)
{
	v = ivl_meet(v, ivl_from_math(v.umin, v.umax, w));
	return ivl_meet(v, ivl_from_math(v.smin, v.smax, w));
}

static struct ivl ivl_const(uint64_t v, unsigned w)
{
	return ivl_from_math(v, v, w);
}

/* Bounds of the members of t, a tnum of w-bit values: the smallest unsigned member has every
 * unknown bit 0; the smallest signed one has an unknown sign bit 1 and the others 0.
 */
static struct ivl ivl_from_tnum(struct tnum t, unsigned w)
{
	uint64_t sign = 1ULL << (w - 1);

	return (struct ivl){ t.value, t.value | t.mask,
			     (int64_t)sext_bits(t.value | (t.mask & sign), w),
			     (int64_t)sext_bits(t.value | (t.mask & ~sign), w) };
}

static struct ivl ivl64(const struct range *r)
{
	return (struct ivl){ r->umin, r->umax, r->smin, r->smax };
}

static struct ivl ivl32(const struct range *r)
{
	return (struct ivl){ r->u32_min, r->u32_max, r->s32_min, r->s32_max };
}

/* The integer intervals an ivl stands for: its unsigned view and its signed view.  Any member
 * is congruent (mod 2^w) to a point of either, so an operation may pick either for each input.
 */
struct span {
	i128 lo, hi;
};

static void ivl_spans(struct ivl v, struct span out[2])
{
	out[0] = (struct span){ v.umin, v.umax };
	out[1] = (struct span){ v.smin, v.smax };
}

/* ---- constructors and predicates ---- */

struct range range_urange(uint64_t lo, uint64_t hi)
{
	struct range r = range_unknown();

	r.umin = lo;
	r.umax = hi;
	range_sync(&r);
	return r;
}

struct range range_srange(int64_t lo, int64_t hi)
{
	struct range r = range_unknown();

	r.smin = lo;
	r.smax = hi;
	range_sync(&r);
	return r;
}

/* What range_urange(0, 2^(8 * bytes) - 1) syncs to, written out: the analysis asks for it at
 * every narrow load and 32-bit operation on a pointer (tests/test_range.c compares them). */
struct range range_zext_unknown(unsigned bytes)
{
	uint64_t m;

	switch (bytes) {
	case 1:
	case 2:
		m = umax_of(8 * bytes);
		return (struct range){ 0, m, 0, (int64_t)m, 0, (uint32_t)m, 0, (int32_t)m,
				       TNUM(0, m) };
	case 4:
		return (struct range){ 0, UINT32_MAX, 0, UINT32_MAX, 0, UINT32_MAX, INT32_MIN,
				       INT32_MAX, TNUM(0, UINT32_MAX) };
	default:
		return bytes >= 8 ? range_unknown() : range_urange(0, umax_of(8 * bytes));
	}
}

/* A range from the bounds of a 64-bit result, of its low half, and its known bits. */
static struct range range_make(struct ivl v64, struct ivl v32, struct tnum t)
{
	struct range r = { v64.umin, v64.umax, v64.smin, v64.smax, (uint32_t)v32.umin,
			   (uint32_t)v32.umax, (int32_t)v32.smin, (int32_t)v32.smax, t };

	range_sync(&r);
	return r;
}

/* A zero-extended 32-bit result: the register is its subregister, read as unsigned. */
static struct range range_make32(struct ivl v32, struct tnum t)
{
	struct ivl v64 = { v32.umin, v32.umax, (int64_t)v32.umin, (int64_t)v32.umax };

	return range_make(v64, v32, tnum_cast(t, 4));
}

/* Smallest member of t that is >= x, if any.  Above the highest bit p where x breaks a known
 * bit, x already agrees with t.  If t needs a 1 at p, x's prefix, that 1 and t's minimum below
 * do.  If t needs a 0 there, the prefix must grow: set the lowest unknown bit above p that x
 * has clear, and take t's minimum below it.
 */
static bool tnum_next(struct tnum t, uint64_t x, uint64_t *out)
{
	uint64_t bad = (x ^ t.value) & ~t.mask, below, grow;
	unsigned p, q;

	if (!bad) {
		*out = x;
		return true;
	}
	p = 63 - __builtin_clzll(bad);
	below = UINT64_MAX >> (63 - p);	/* bits 0..p */
	if (t.value & (1ULL << p)) {
		*out = (x & ~below) | (t.value & below);
		return true;
	}
	grow = t.mask & ~x & ~below;
	if (!grow)
		return false;
	q = __builtin_ctzll(grow);
	below = UINT64_MAX >> (63 - q);
	*out = (x & ~below) | (1ULL << q) | (t.value & below);
	return true;
}

/* Whether t has a member in [lo, hi] (unsigned order). */
static bool tnum_meets(struct tnum t, uint64_t lo, uint64_t hi)
{
	uint64_t v;

	return lo <= hi && tnum_next(t, lo, &v) && v <= hi;
}

/* Largest member of t that is <= x: the smallest member >= ~x of the complemented tnum. */
static bool tnum_prev(struct tnum t, uint64_t x, uint64_t *out)
{
	uint64_t v;

	if (!tnum_next(TNUM(~t.value & ~t.mask, t.mask), ~x, &v))
		return false;
	*out = ~v;
	return true;
}

/* Moves [*lo, *hi] inward onto members of t; false when no member lies inside. */
static bool snap(struct tnum t, uint64_t *lo, uint64_t *hi)
{
	uint64_t a, b;

	/* Bounds that are members already stay (both searches below would return them). */
	if (*lo <= *hi && tnum_contains(t, *lo) && tnum_contains(t, *hi))
		return true;
	if (*lo > *hi || !tnum_next(t, *lo, &a) || !tnum_prev(t, *hi, &b) || a > b)
		return false;
	*lo = a;
	*hi = b;
	return true;
}

/* t with bit 'bit' complemented: maps signed order onto unsigned order for that sign bit. */
static struct tnum tnum_flip(struct tnum t, uint64_t bit)
{
	return TNUM(t.value ^ (bit & ~t.mask), t.mask);
}

static bool tnum_conflict(struct tnum a, struct tnum b)
{
	return (a.value ^ b.value) & ~(a.mask | b.mask);
}

/* Empty when some field is contradictory on its own, or when the tnum has no member inside
 * one of the four intervals.  Never claims empty for a range with a member; may miss an empty
 * range whose fields are only jointly contradictory.
 */
bool range_is_empty(const struct range *r)
{
	struct tnum t = r->var_off, t32 = tnum_subreg(t);

	if (r->umin > r->umax || r->smin > r->smax || r->u32_min > r->u32_max ||
	    r->s32_min > r->s32_max)
		return true;
	if (t.mask == UINT64_MAX)
		return false;	/* (every bound is a member of the unknown tnum) */
	if (!tnum_meets(t, r->umin, r->umax) ||
	    !tnum_meets(tnum_flip(t, SIGN64), (uint64_t)r->smin ^ SIGN64,
			(uint64_t)r->smax ^ SIGN64))
		return true;
	return !tnum_meets(t32, r->u32_min, r->u32_max) ||
	       !tnum_meets(tnum_flip(t32, SIGN32), (uint32_t)r->s32_min ^ SIGN32,
			   (uint32_t)r->s32_max ^ SIGN32);
}

bool range_is_unknown(const struct range *r)
{
	struct range u = range_unknown();

	return range_equal(r, &u);
}

/* Each view of v in [umin, umax] is monotonic while the interval stays on one side of that
 * view's wrap point, so there the view's bounds hold for the whole interval when they hold at
 * its ends; across a wrap point the view takes every value near it, and only the type's full
 * bounds are implied.  The tnum: the values of [umin, umax] agree on every bit above the
 * highest one in which umin and umax differ, so the tnum holds for all of them when it leaves
 * all the bits up to that one unknown and umin's known bits match it. */
unsigned range_contains_needs(const struct range *r)
{
	uint64_t lo = r->umin, hi = r->umax, diff = lo ^ hi;
	uint64_t span = diff ? UINT64_MAX >> __builtin_clzll(diff) : 0;
	unsigned need = 0;

	if (lo > hi)
		return RANGE_NEED_ALL;	/* empty: nothing passes the unsigned test anyway */
	if ((int64_t)lo <= (int64_t)hi ? r->smin > (int64_t)lo || (int64_t)hi > r->smax
				       : r->smin != INT64_MIN || r->smax != INT64_MAX)
		need |= RANGE_NEED_S64;
	if ((lo >> 32) == (hi >> 32)) {
		if (r->u32_min > (uint32_t)lo || (uint32_t)hi > r->u32_max)
			need |= RANGE_NEED_U32;
		if ((int32_t)lo <= (int32_t)hi ? r->s32_min > (int32_t)lo || (int32_t)hi > r->s32_max
					       : r->s32_min != INT32_MIN || r->s32_max != INT32_MAX)
			need |= RANGE_NEED_S32;
	} else {
		if (r->u32_min != 0 || r->u32_max != UINT32_MAX)
			need |= RANGE_NEED_U32;
		if (r->s32_min != INT32_MIN || r->s32_max != INT32_MAX)
			need |= RANGE_NEED_S32;
	}
	if ((span & ~r->var_off.mask) || (lo & ~r->var_off.mask) != r->var_off.value)
		need |= RANGE_NEED_TNUM;
	return need;
}

/* Fieldwise, plus the empty set is a subset of everything. */
bool range_subset(const struct range *a, const struct range *b)
{
	if (range_is_empty(a))
		return true;
	return b->umin <= a->umin && a->umax <= b->umax && b->smin <= a->smin &&
	       a->smax <= b->smax && b->u32_min <= a->u32_min && a->u32_max <= b->u32_max &&
	       b->s32_min <= a->s32_min && a->s32_max <= b->s32_max &&
	       tnum_in(b->var_off, a->var_off);
}

/* ---- range_sync: the kernel's reg_bounds_sync(), as tightenings ---- */

static void tighten_u64(struct range *r, uint64_t lo, uint64_t hi)
{
	r->umin = umax64(r->umin, lo);
	r->umax = umin64(r->umax, hi);
}

static void tighten_s64(struct range *r, int64_t lo, int64_t hi)
{
	r->smin = smax64(r->smin, lo);
	r->smax = smin64(r->smax, hi);
}

static void tighten_u32(struct range *r, uint32_t lo, uint32_t hi)
{
	if (lo > r->u32_min)
		r->u32_min = lo;
	if (hi < r->u32_max)
		r->u32_max = hi;
}

static void tighten_s32(struct range *r, int32_t lo, int32_t hi)
{
	if (lo > r->s32_min)
		r->s32_min = lo;
	if (hi < r->s32_max)
		r->s32_max = hi;
}

/* Kernel __update_reg_bounds: every member lies between the tnum's smallest and largest. */
static void bounds_from_tnum(struct range *r)
{
	struct ivl v = ivl_from_tnum(r->var_off, 64), s = ivl_from_tnum(tnum_subreg(r->var_off), 32);

	tighten_u64(r, v.umin, v.umax);
	tighten_s64(r, v.smin, v.smax);
	tighten_u32(r, s.umin, s.umax);
	tighten_s32(r, s.smin, s.smax);
}

/* Kernel __reg32_deduce_bounds: subregister bounds from the 64-bit ones, then u32 <-> s32. */
static void deduce_sub_from_64(struct range *r)
{
	uint32_t uhi0 = r->umin >> 32, uhi1 = r->umax >> 32;
	uint32_t shi0 = (uint64_t)r->smin >> 32, shi1 = (uint64_t)r->smax >> 32;

	/* Inside one 32-bit block the low halves of the bounds bound the low halves: u64
	 * [0x1_0000000a, 0x1_0000000f] has u32 [0xa, 0xf]. */
	if (uhi0 == uhi1) {
		tighten_u32(r, r->umin, r->umax);
		if ((int32_t)r->umin <= (int32_t)r->umax)
			tighten_s32(r, r->umin, r->umax);
	}
	if (shi0 == shi1) {
		if ((uint32_t)r->smin <= (uint32_t)r->smax)
			tighten_u32(r, r->smin, r->smax);
		if ((int32_t)r->smin <= (int32_t)r->smax)
			tighten_s32(r, r->smin, r->smax);
	}
	/* Across two adjacent blocks, low halves running from a negative s32 up through -1, 0 to
	 * a non-negative one form one s32 interval: s64 [-1, 1] has s32 [-1, 1]. */
	if (uhi0 + 1 == uhi1 && (int32_t)r->umin < 0 && (int32_t)r->umax >= 0)
		tighten_s32(r, r->umin, r->umax);
	if (shi0 + 1 == shi1 && (int32_t)r->smin < 0 && (int32_t)r->smax >= 0)
		tighten_s32(r, r->smin, r->smax);
	/* An s32 interval through 0 is two u32 pieces, [0, s32_max] and [s32_min, U32_MAX]; u32
	 * bounds that exclude one piece select the other. */
	if (r->s32_min < 0 && r->s32_max >= 0) {
		if (r->u32_max < (uint32_t)r->s32_min)
			tighten_u32(r, 0, r->s32_max);
		else if (r->u32_min > (uint32_t)r->s32_max)
			tighten_u32(r, r->s32_min, UINT32_MAX);
	}
	/* An interval that does not cross the other view's wrap point reads the same in both. */
	if ((int32_t)r->u32_min <= (int32_t)r->u32_max)
		tighten_s32(r, r->u32_min, r->u32_max);
	if ((uint32_t)r->s32_min <= (uint32_t)r->s32_max)
		tighten_u32(r, r->s32_min, r->s32_max);
}

/* Kernel __reg64_deduce_bounds: u64 <-> s64, the same three rules as for 32 bits. */
static void deduce_64_sign(struct range *r)
{
	if (r->smin < 0 && r->smax >= 0) {
		if (r->umax < (uint64_t)r->smin)
			tighten_u64(r, 0, r->smax);
		else if (r->umin > (uint64_t)r->smax)
			tighten_u64(r, r->smin, UINT64_MAX);
	}
	if ((int64_t)r->umin <= (int64_t)r->umax)
		tighten_s64(r, r->umin, r->umax);
	if ((uint64_t)r->smin <= (uint64_t)r->smax)
		tighten_u64(r, r->smin, r->smax);
}

/* Moves the bounds [*lo, *hi] of a 64-bit value inward to the nearest values whose low half is
 * in [lmin, lmax] (an lo with a low half above lmax jumps to the next block).  No such value:
 * *lo > *hi afterwards.
 */
static void tighten_by_low(uint64_t *lo, uint64_t *hi, uint32_t lmin, uint32_t lmax)
{
	uint64_t a = *lo, b = *hi;

	if (lmin > lmax)
		return;
	if ((uint32_t)a < lmin)
		a = (a & ~LO32) | lmin;
	if ((uint32_t)b > lmax)
		b = (b & ~LO32) | lmax;
	if ((uint32_t)a > lmax) {
		if ((a >> 32) == LO32)
			goto none;
		a = ((a >> 32) + 1) << 32 | lmin;
	}
	if ((uint32_t)b < lmin) {
		if ((b >> 32) == 0)
			goto none;
		b = ((b >> 32) - 1) << 32 | lmax;
	}
	*lo = a;
	*hi = b;
	return;
none:
	*lo = UINT64_MAX;
	*hi = 0;
}

/* Kernel __reg_deduce_mixed_bounds: 64-bit bounds from the subregister's.  Signed bounds use
 * the same code on values with the sign bit flipped (which keeps signed order as unsigned
 * order and leaves the low half alone).
 */
static void deduce_64_from_sub(struct range *r)
{
	uint64_t slo = (uint64_t)r->smin ^ SIGN64, shi = (uint64_t)r->smax ^ SIGN64;

	tighten_by_low(&r->umin, &r->umax, r->u32_min, r->u32_max);
	tighten_by_low(&slo, &shi, r->u32_min, r->u32_max);
	if ((uint32_t)r->s32_min <= (uint32_t)r->s32_max) {
		tighten_by_low(&r->umin, &r->umax, r->s32_min, r->s32_max);
		tighten_by_low(&slo, &shi, r->s32_min, r->s32_max);
	}
	if (slo > shi) {
		r->smin = INT64_MAX;
		r->smax = INT64_MIN;
	} else {
		tighten_s64(r, (int64_t)(slo ^ SIGN64), (int64_t)(shi ^ SIGN64));
	}
	/* After a sign-extending move the upper half is all 0s or all 1s; with a non-negative low
	 * half an all-1s upper half would be below S32_MIN, so the value is its low half. */
	if (r->s32_min >= 0 && r->smin >= INT32_MIN && r->smax <= INT32_MAX) {
		tighten_s64(r, r->s32_min, r->s32_max);
		tighten_u64(r, r->s32_min, r->s32_max);
	}
}

static void deduce_bounds(struct range *r)
{
	deduce_sub_from_64(r);
	deduce_64_sign(r);
	deduce_64_from_sub(r);
}

/* Kernel __reg_bound_offset: known bits shared by everything in [umin, umax] (and in the u32
 * bounds for the low half).  A tnum that contradicts them leaves no member: empty.
 */
static void tnum_from_bounds(struct range *r)
{
	struct tnum b64 = tnum_range(r->umin, r->umax), b32 = tnum_range(r->u32_min, r->u32_max);
	struct tnum t64, t32;

	if (r->umin > r->umax || r->u32_min > r->u32_max)
		return;
	if (tnum_conflict(r->var_off, b64) || tnum_conflict(tnum_subreg(r->var_off), b32)) {
		*r = range_empty();
		return;
	}
	t64 = tnum_intersect(r->var_off, b64);
	t32 = tnum_intersect(tnum_subreg(t64), b32);
	r->var_off = TNUM((t64.value & ~LO32) | t32.value, (t64.mask & ~LO32) | t32.mask);
}

/* Bounds move onto the nearest tnum members: multiples of 8 in [1, 100] are [8, 96].  Signed
 * bounds use the sign-flipped tnum, for which signed order is unsigned order.  No member
 * inside some interval: empty.
 */
static void snap_to_members(struct range *r)
{
	struct tnum t = r->var_off, t32 = tnum_subreg(t);
	uint64_t slo = (uint64_t)r->smin ^ SIGN64, shi = (uint64_t)r->smax ^ SIGN64;
	uint64_t ulo32 = r->u32_min, uhi32 = r->u32_max;
	uint64_t slo32 = (uint32_t)r->s32_min ^ SIGN32, shi32 = (uint32_t)r->s32_max ^ SIGN32;

	if (!snap(t, &r->umin, &r->umax) || !snap(tnum_flip(t, SIGN64), &slo, &shi) ||
	    !snap(t32, &ulo32, &uhi32) || !snap(tnum_flip(t32, SIGN32), &slo32, &shi32)) {
		*r = range_empty();
		return;
	}
	r->smin = (int64_t)(slo ^ SIGN64);
	r->smax = (int64_t)(shi ^ SIGN64);
	r->u32_min = ulo32;
	r->u32_max = uhi32;
	r->s32_min = (int32_t)(uint32_t)(slo32 ^ SIGN32);
	r->s32_max = (int32_t)(uint32_t)(shi32 ^ SIGN32);
}

/* v satisfies every field of r. */
static bool range_holds(const struct range *r, uint64_t v)
{
	return r->umin <= v && v <= r->umax && r->smin <= (int64_t)v && (int64_t)v <= r->smax &&
	       r->u32_min <= (uint32_t)v && (uint32_t)v <= r->u32_max &&
	       r->s32_min <= (int32_t)v && (int32_t)v <= r->s32_max && tnum_contains(r->var_off, v);
}

/* Versions of a range's bounds and of its tnum during range_sync: each bumps when a step
 * changes those fields, so a step whose inputs are as it last left them can be skipped.
 */
struct sync_ver {
	unsigned b, t;
};

#define SYNC_READS_B 1u /* the step reads the bounds */
#define SYNC_READS_T 2u /* the step reads the tnum */

/* Runs step on r unless it cannot change anything: every step is a function of the fields it
 * reads, so once it has left r unchanged it does so again until those fields change.  An
 * idempotent step is in that state right after it runs.  bounds_from_tnum is treated as reading
 * the tnum only: it takes a max of lower bounds and a min of upper bounds, every other step only
 * tightens bounds (or empties the range, which sets the tnum too), so once run it stays a no-op
 * until the tnum changes.
 */
static inline __attribute__((always_inline)) void sync_step(struct range *r, struct sync_ver *v,
							    void (*step)(struct range *),
							    unsigned reads, bool idempotent,
							    struct sync_ver *quiet)
{
	struct range before = *r;
	bool same_b, same_t;

	if ((!(reads & SYNC_READS_B) || quiet->b == v->b) &&
	    (!(reads & SYNC_READS_T) || quiet->t == v->t))
		return;
	step(r);
	same_b = r->umin == before.umin && r->umax == before.umax && r->smin == before.smin &&
		 r->smax == before.smax && r->u32_min == before.u32_min &&
		 r->u32_max == before.u32_max && r->s32_min == before.s32_min &&
		 r->s32_max == before.s32_max;
	same_t = r->var_off.value == before.var_off.value && r->var_off.mask == before.var_off.mask;
	v->b += !same_b;
	v->t += !same_t;
	if (idempotent || (same_b && same_t))
		*quiet = *v;
}

static void sync_steps(struct range *r);

/* The last ranges range_sync synced, by a hash of the input: the analysis syncs the same
 * ranges again and again (each join of two states, each refinement at a branch), and the
 * sequence of steps costs about 500 instructions where a look-up costs some 40.  range_sync is
 * a function of the range alone, so an entry whose input equals r holds what the steps would
 * give.  Per thread (the campaign's jobs may be threads). */
#ifndef SYNC_MEMO_BITS
#define SYNC_MEMO_BITS 9
#endif
#define SYNC_MEMO (1u << SYNC_MEMO_BITS)
/* An entry is two whole cache lines (a look-up reads both, at a random address: the misses are
 * what a look-up costs, not its instructions).  No flag marks an unused entry: its input is all
 * zero, the constant 0, which range_sync answers before the memo. */
static _Thread_local struct sync_memo {
	struct range in, out;
} __attribute__((aligned(64))) sync_memo[SYNC_MEMO];

/* Whether a and b hold the same bounds and known bits: range_equal, read as eight 64-bit words
 * without a branch (a range has no padding), for pair_slot below, which compares every field
 * of both inputs on each hit (about 3 look-ups in 4; range_sync's memo, which misses more
 * often, keeps range_equal's early exit). */
_Static_assert(sizeof(struct range) == 8 * sizeof(uint64_t), "struct range has padding");
static inline bool range_same(const struct range *a, const struct range *b)
{
	uint64_t x[8], y[8], d = 0;

	memcpy(x, a, sizeof(x));
	memcpy(y, b, sizeof(y));
	for (int i = 0; i < 8; i++)
		d |= x[i] ^ y[i];
	return !d;
}

static uint64_t rotl64(uint64_t x, unsigned k)
{
	return x << k | x >> (64 - k);
}

/* The fields rotated apart and folded, then mixed once: a look-up costs a fraction of what
 * eight multiplications did (the memos compare every field, so a collision costs a miss). */
static uint64_t range_hash(const struct range *r)
{
	uint64_t h = r->umin ^ rotl64(r->umax, 11) ^ rotl64((uint64_t)r->smin, 22) ^
		     rotl64((uint64_t)r->smax, 33) ^ rotl64((uint64_t)r->u32_min << 32 | r->u32_max, 44) ^
		     rotl64((uint64_t)(uint32_t)r->s32_min << 32 | (uint32_t)r->s32_max, 55) ^
		     rotl64(r->var_off.value, 5) ^ rotl64(r->var_off.mask, 27);

	h *= 0xbf58476d1ce4e5b9ull;
	return h ^ h >> 31;
}

void range_sync(struct range *r)
{
	struct sync_memo *m;

	/* Fast paths for what most syncs meet: a single value (by its bounds or its known bits)
	 * that every field admits is that constant, exactly; nothing known stays nothing known.
	 * Both give what the full sequence below would, at a fraction of the cost. */
	if (r->var_off.mask == 0 || r->umin == r->umax) {
		uint64_t c = r->var_off.mask == 0 ? r->var_off.value : r->umin;

		if (range_holds(r, c)) {
			*r = range_const(c);
			return;
		}
	}
	if (r->umin == 0 && r->umax == UINT64_MAX && r->smin == INT64_MIN && r->smax == INT64_MAX &&
	    r->u32_min == 0 && r->u32_max == UINT32_MAX && r->s32_min == INT32_MIN &&
	    r->s32_max == INT32_MAX && r->var_off.mask == UINT64_MAX)
		return;
	m = &sync_memo[range_hash(r) >> (64 - SYNC_MEMO_BITS)];
	if (range_equal(&m->in, r)) {
		*r = m->out;
		return;
	}
	m->in = *r;
	sync_steps(r);
	m->out = *r;
}

/* range_sync's steps (a range neither constant nor unknown). */
static void sync_steps(struct range *r)
{
	/* Version 0 is never current, so every step runs at least once when first reached. */
	struct sync_ver v = { 1, 1 }, bft = { 0, 0 }, ded = { 0, 0 }, tfb = { 0, 0 }, snp = { 0, 0 };

	/* The known bits bound the value. */
	sync_step(r, &v, bounds_from_tnum, SYNC_READS_T, true, &bft);
	/* Signed and unsigned, 32- and 64-bit bounds inform each other; a second pass picks up
	 * what the first pass's later steps taught its earlier ones. */
	sync_step(r, &v, deduce_bounds, SYNC_READS_B, false, &ded);
	sync_step(r, &v, deduce_bounds, SYNC_READS_B, false, &ded);
	/* The bounds may fix high bits (everything in [4, 7] has bit 2 set). */
	sync_step(r, &v, tnum_from_bounds, SYNC_READS_B | SYNC_READS_T, false, &tfb);
	/* The narrower tnum may tighten the bounds once more: umax 0x7f..f with var_off
	 * (0; ~3) becomes var_off (0; 0x7f..fc) and umax 0x7f..fc. */
	sync_step(r, &v, bounds_from_tnum, SYNC_READS_T, true, &bft);
	/* Beyond the kernel: bounds onto actual members ([1, 16] with var_off (0; 0xf0) is the
	 * constant 16), which can enable the deductions again; repeated until nothing changes
	 * (bounded: each round only tightens, almost always one or two suffice) so that syncing
	 * a synced range changes nothing, which keeps fixpoint iterations stable.  Snapping
	 * bounds that are members already leaves them alone, so that step is idempotent. */
	for (int round = 0; round < 4; round++) {
		struct sync_ver start = v;

		sync_step(r, &v, snap_to_members, SYNC_READS_B | SYNC_READS_T, true, &snp);
		sync_step(r, &v, deduce_bounds, SYNC_READS_B, false, &ded);
		sync_step(r, &v, tnum_from_bounds, SYNC_READS_B | SYNC_READS_T, false, &tfb);
		sync_step(r, &v, bounds_from_tnum, SYNC_READS_T, true, &bft);
		if (v.b == start.b && v.t == start.t)
			break;
	}
}

/* ---- lattice operations ---- */

/* Field by field hull, not synced. */
static struct range join_fields(const struct range *a, const struct range *b)
{
	struct ivl v64 = ivl_join(ivl64(a), ivl64(b)), v32 = ivl_join(ivl32(a), ivl32(b));

	return (struct range){ v64.umin, v64.umax, v64.smin, v64.smax, v32.umin, v32.umax,
			       v32.smin, v32.smax, tnum_union(a->var_off, b->var_off) };
}

/* The last results of operations on two ranges (range_join, range_alu), by a hash of the
 * operation (tag) and both inputs: as range_sync's memo, each is a function of those alone. */
#ifndef PAIR_MEMO_BITS
#define PAIR_MEMO_BITS 9
#endif
#define PAIR_MEMO (1u << PAIR_MEMO_BITS)
/* An entry's ranges are four whole cache lines (a hit reads three, a, b and out, at a random
 * address: those misses are most of what a look-up costs); the tags (and range_refine's
 * results) apart, a kilobyte that stays in the first-level cache, so that a slot holding
 * another operation's result is a miss read from there. */
static _Thread_local struct pair_memo {
	struct range a, b, out;
	struct range out_b;	/* range_refine's second range */
} __attribute__((aligned(64))) pair_memo[PAIR_MEMO];
#define PAIR_ALIVE 0x8000u	/* range_refine's result, beside the tag (tags are below 4096) */
static _Thread_local uint16_t pair_tag[PAIR_MEMO];	/* 0: unused */

/* The slot of (tag, a, b); *hit when it holds their result. */
static struct pair_memo *pair_slot(unsigned tag, const struct range *a, const struct range *b,
				   bool *hit)
{
	uint64_t h = (range_hash(a) * 0x94d049bb133111ebull + range_hash(b)) ^ tag;
	struct pair_memo *m = &pair_memo[(h * 0x9e3779b97f4a7c15ull) >> (64 - PAIR_MEMO_BITS)];

	*hit = (pair_tag[m - pair_memo] & ~PAIR_ALIVE) == tag &&
	       (range_same(&m->a, a) & range_same(&m->b, b));
	return m;
}

static struct range pair_keep(struct pair_memo *m, unsigned tag, const struct range *a,
			      const struct range *b, struct range out)
{
	pair_tag[m - pair_memo] = (uint16_t)tag;
	m->a = *a;
	m->b = *b;
	m->out = out;
	return out;
}

struct range range_join(const struct range *a, const struct range *b)
{
	bool hit;
	struct pair_memo *m = pair_slot(1, a, b, &hit);
	struct range r;

	if (hit)
		return m->out;
	if (range_is_empty(a)) {
		r = *b;
	} else if (range_is_empty(b)) {
		r = *a;
	} else {
		r = join_fields(a, b);
		range_sync(&r);
	}
	return pair_keep(m, 1, a, b, r);
}

struct range range_meet(const struct range *a, const struct range *b)
{
	struct ivl v64 = ivl_meet(ivl64(a), ivl64(b)), v32 = ivl_meet(ivl32(a), ivl32(b));

	if (tnum_conflict(a->var_off, b->var_off))
		return range_empty();
	return range_make(v64, v32, tnum_intersect(a->var_off, b->var_off));
}

/* Widening thresholds, in the order a moving bound meets them. */
static uint64_t widen_umax(uint64_t p, uint64_t n)
{
	if (n <= p)
		return p;
	return n <= UINT32_MAX ? UINT32_MAX : n <= (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX :
									UINT64_MAX;
}

static uint64_t widen_umin(uint64_t p, uint64_t n)
{
	if (n >= p)
		return p;
	return n >= SIGN64 ? SIGN64 : 0;
}

static int64_t widen_smax(int64_t p, int64_t n)
{
	if (n <= p)
		return p;
	return n <= -1 ? -1 : n <= 0 ? 0 : n <= INT32_MAX ? INT32_MAX :
		n <= (int64_t)UINT32_MAX ? (int64_t)UINT32_MAX : INT64_MAX;
}

static int64_t widen_smin(int64_t p, int64_t n)
{
	if (n >= p)
		return p;
	return n >= 0 ? 0 : n >= INT32_MIN ? INT32_MIN : INT64_MIN;
}

static uint32_t widen_u32max(uint32_t p, uint32_t n)
{
	if (n <= p)
		return p;
	return n <= INT32_MAX ? INT32_MAX : UINT32_MAX;
}

static uint32_t widen_u32min(uint32_t p, uint32_t n)
{
	if (n >= p)
		return p;
	return n >= SIGN32 ? SIGN32 : 0;
}

/* Known bits: once a bit is lost, so is every bit above the lowest lost one, so a counter's
 * tnum stops changing after one step while the alignment below survives ({0, +, 4} keeps its
 * two low bits 0).
 */
static struct tnum widen_tnum(struct tnum p, struct tnum n)
{
	struct tnum u = tnum_union(p, n);
	uint64_t lost = u.mask & ~p.mask, above;

	if (!lost)
		return p;
	above = ~((1ULL << __builtin_ctzll(lost)) - 1);
	return TNUM(u.value & ~above, u.mask | above);
}

/* Every bound of next beyond prev jumps to the next threshold: unsigned maxima to U32_MAX,
 * S64_MAX, U64_MAX; unsigned minima to 2^63 or 0; signed maxima to -1, 0, S32_MAX, U32_MAX,
 * S64_MAX; signed minima to 0, S32_MIN, S64_MIN (the subregister likewise, with its limits).
 * Known bits widen as in widen_tnum(), and the result is synced, so known bits that did not
 * change still bound it: prev [0, 4], next [0, 8] widens to [0, U32_MAX], but prev [0, 4],
 * next [0, 5] (both var_off (0; 7)) to [0, 7].
 */
struct range range_widen(const struct range *prev, const struct range *next)
{
	struct range r;

	if (range_is_empty(prev))
		return *next;
	if (range_is_empty(next))
		return *prev;
	r.umin = widen_umin(prev->umin, next->umin);
	r.umax = widen_umax(prev->umax, next->umax);
	r.smin = widen_smin(prev->smin, next->smin);
	r.smax = widen_smax(prev->smax, next->smax);
	r.u32_min = widen_u32min(prev->u32_min, next->u32_min);
	r.u32_max = widen_u32max(prev->u32_max, next->u32_max);
	r.s32_min = smax64(widen_smin(prev->s32_min, next->s32_min), INT32_MIN);
	r.s32_max = smin64(widen_smax(prev->s32_max, next->s32_max), INT32_MAX);
	r.var_off = widen_tnum(prev->var_off, next->var_off);
	range_sync(&r);
	return r;
}

/* ---- ALU ---- */

/* Arithmetic right shift of a 64-bit pattern without signed shifts. */
static uint64_t ashr64(uint64_t x, unsigned s)
{
	return (x >> s) | ((x & SIGN64) && s ? ~(UINT64_MAX >> s) : 0);
}

/* One BPF ALU operation on concrete operands, the run-time semantics (constant folding). */
static uint64_t alu_eval(uint8_t op, bool is64, bool sign, uint64_t x, uint64_t y)
{
	unsigned w = is64 ? 64 : 32, sh = y & (w - 1);
	int64_t sx = (int64_t)sext_bits(x, w), sy = (int64_t)sext_bits(y, w);
	uint64_t r;

	if (!is64) {
		x = (uint32_t)x;
		y = (uint32_t)y;
	}
	switch (op) {
	case BPF_ADD: r = x + y; break;
	case BPF_SUB: r = x - y; break;
	case BPF_MUL: r = x * y; break;
	case BPF_AND: r = x & y; break;
	case BPF_OR: r = x | y; break;
	case BPF_XOR: r = x ^ y; break;
	case BPF_LSH: r = x << sh; break;
	case BPF_RSH: r = x >> sh; break;
	case BPF_ARSH: r = ashr64(sext_bits(x, w), sh); break;
	case BPF_NEG: r = -x; break;
	case BPF_MOV: r = y; break;
	case BPF_DIV:
		if (!sign)
			r = y ? x / y : 0;
		else
			r = !sy ? 0 : sy == -1 ? -(uint64_t)sx : (uint64_t)(sx / sy);
		break;
	case BPF_MOD:
		if (!sign)
			r = y ? x % y : x;
		else
			r = !sy ? x : sy == -1 ? 0 : (uint64_t)(sx % sy);
		break;
	default: r = 0; break;
	}
	return r & umax_of(w);
}

/* v is the only member of r in width w (the subregister for 32), as any field may tell on a
 * range that was not synced.
 */
static bool const_in(const struct range *r, unsigned w, uint64_t *v)
{
	uint64_t m = umax_of(w);

	if (r->umin == r->umax)
		*v = r->umin & m;
	else if (r->smin == r->smax)
		*v = (uint64_t)r->smin & m;
	else if (tnum_is_const(r->var_off))
		*v = r->var_off.value & m;
	else if (w == 64)
		return false;
	else if (r->u32_min == r->u32_max)
		*v = r->u32_min;
	else if (r->s32_min == r->s32_max)
		*v = (uint32_t)r->s32_min;
	else if (tnum_is_const(tnum_subreg(r->var_off)))
		*v = (uint32_t)r->var_off.value;
	else
		return false;
	return true;
}

/* a + b: every choice of view for each side gives a valid integer interval for the sum. */
static struct ivl ivl_add(struct ivl a, struct ivl b, unsigned w, bool sub)
{
	struct span sa[2], sb[2];
	struct ivl r = ivl_full(w);
	int na, nb;

	ivl_spans(a, sa);
	ivl_spans(b, sb);
	/* (a side whose two views are one integer interval, as every value below 2^(w-1) has,
	 * gives the same sums twice: the meet of a term with itself is that term) */
	na = sa[0].lo == sa[1].lo && sa[0].hi == sa[1].hi ? 1 : 2;
	nb = sb[0].lo == sb[1].lo && sb[0].hi == sb[1].hi ? 1 : 2;

	for (int i = 0; i < na; i++)
		for (int j = 0; j < nb; j++)
			r = ivl_meet(r, sub ? ivl_from_math(sa[i].lo - sb[j].hi, sa[i].hi - sb[j].lo, w)
					    : ivl_from_math(sa[i].lo + sb[j].lo, sa[i].hi + sb[j].hi, w));
	return r;
}

/* [lo, hi] of x * y over a rectangle: a bilinear function peaks at its corners.  False when a
 * corner does not fit in 128 bits (unsigned 64-bit views near 2^64 on both sides).
 */
static bool span_mul(struct span x, struct span y, struct span *out)
{
	i128 c[4];

	if (__builtin_mul_overflow(x.lo, y.lo, &c[0]) || __builtin_mul_overflow(x.lo, y.hi, &c[1]) ||
	    __builtin_mul_overflow(x.hi, y.lo, &c[2]) || __builtin_mul_overflow(x.hi, y.hi, &c[3]))
		return false;
	out->lo = out->hi = c[0];
	for (int i = 1; i < 4; i++) {
		out->lo = c[i] < out->lo ? c[i] : out->lo;
		out->hi = c[i] > out->hi ? c[i] : out->hi;
	}
	return true;
}

static struct ivl ivl_mul(struct ivl a, struct ivl b, unsigned w)
{
	struct span sa[2], sb[2], p;
	struct ivl r = ivl_full(w);

	ivl_spans(a, sa);
	ivl_spans(b, sb);
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			if (span_mul(sa[i], sb[j], &p))
				r = ivl_meet(r, ivl_from_math(p.lo, p.hi, w));
	return r;
}

/* x / y, y = 0 giving 0: [umin / d_max, umax / d_min] over the non-zero divisors, 0 added
 * when y may be 0.
 */
static struct ivl ivl_udiv(struct ivl a, struct ivl b, unsigned w)
{
	if (b.umax == 0)
		return ivl_const(0, w);
	return ivl_from_math(b.umin ? a.umin / b.umax : 0, a.umax / (b.umin ? b.umin : 1), w);
}

/* x % y, y = 0 giving x: below both x and y; x itself when every x is below every y. */
static struct ivl ivl_umod(struct ivl a, struct ivl b, unsigned w)
{
	if (b.umax == 0 || a.umax < b.umin)
		return ivl_norm(a, w);
	return ivl_from_math(0, b.umin ? umin64(a.umax, b.umax - 1) : a.umax, w);
}

/* Signed divisor pieces without 0: [smin, -1] and [1, smax] clipped to b. */
static int divisor_pieces(struct ivl b, struct span out[2])
{
	int n = 0;

	if (b.smin <= -1)
		out[n++] = (struct span){ b.smin, smin64(b.smax, -1) };
	if (b.smax >= 1)
		out[n++] = (struct span){ smax64(b.smin, 1), b.smax };
	return n;
}

/* Widens [*lo, *hi] (valid when *have) to include [l, h]. */
static void span_add(i128 *lo, i128 *hi, bool *have, i128 l, i128 h)
{
	*lo = *have && *lo < l ? *lo : l;
	*hi = *have && *hi > h ? *hi : h;
	*have = true;
}

/* Truncating x / y, y = 0 giving 0 and S_MIN / -1 giving S_MIN (the integer 2^(w-1), which
 * wraps to S_MIN).  Over a divisor piece of one sign the quotient is monotone in each operand,
 * so the corners bound it.
 */
static struct ivl ivl_sdiv(struct ivl a, struct ivl b, unsigned w)
{
	struct span d[2];
	int n = divisor_pieces(b, d);
	bool have = false;
	i128 lo = 0, hi = 0, q;

	if (a.smin > a.smax || b.smin > b.smax)
		return ivl_full(w);
	if (b.smin <= 0 && 0 <= b.smax)
		span_add(&lo, &hi, &have, 0, 0);
	for (int i = 0; i < n; i++) {
		i128 xs[2] = { a.smin, a.smax }, ys[2] = { d[i].lo, d[i].hi };

		for (int j = 0; j < 4; j++) {
			q = xs[j & 1] / ys[j >> 1];
			span_add(&lo, &hi, &have, q, q);
		}
	}
	return have ? ivl_from_math(lo, hi, w) : ivl_full(w);
}

/* Truncating x % y, y = 0 giving x and S_MIN % -1 giving 0: the remainder r is 0 or has x's
 * sign, |r| <= |x| and |r| < |y|; r = x when every |x| is below every |y|.  E.g. [-100, 7] % 10
 * is [-9, 7].
 */
static struct ivl ivl_smod(struct ivl a, struct ivl b, unsigned w)
{
	struct span d[2];
	int n = divisor_pieces(b, d);
	bool have = false;
	i128 big = 0, small, lo = 0, hi = 0, amax;

	if (a.smin > a.smax || b.smin > b.smax)
		return ivl_full(w);
	if (b.smin <= 0 && 0 <= b.smax)
		span_add(&lo, &hi, &have, a.smin, a.smax);
	for (int i = 0; i < n; i++) {
		big = -d[i].lo > big ? -d[i].lo : big;
		big = d[i].hi > big ? d[i].hi : big;
	}
	small = b.smin > 0 ? b.smin : b.smax < 0 ? -(i128)b.smax : 1;
	amax = -(i128)a.smin > a.smax ? -(i128)a.smin : a.smax;
	if (n && amax < small)
		span_add(&lo, &hi, &have, a.smin, a.smax);
	else if (n)
		span_add(&lo, &hi, &have, a.smin < 0 ? (a.smin > 1 - big ? a.smin : 1 - big) : 0,
			 a.smax > 0 ? (a.smax < big - 1 ? a.smax : big - 1) : 0);
	return have ? ivl_from_math(lo, hi, w) : ivl_full(w);
}

/* Smallest all-ones mask covering x: an upper bound of x | y and x ^ y for y <= x. */
static uint64_t smear(uint64_t x)
{
	return x ? UINT64_MAX >> __builtin_clzll(x) : 0;
}

/* x & y is at most either operand (unsigned), non-negative when either is, and at most
 * either when both are negative.  The tnum supplies the rest.
 */
static struct ivl ivl_and(struct ivl a, struct ivl b, unsigned w)
{
	struct ivl r = ivl_full(w);

	r.umax = umin64(a.umax, b.umax);
	if (a.smin >= 0 || b.smin >= 0) {
		r.smin = 0;
		r.smax = a.smin >= 0 && b.smin >= 0 ? smin64(a.smax, b.smax) :
			 a.smin >= 0 ? a.smax : b.smax;
	} else if (a.smax < 0 && b.smax < 0) {
		r.smax = smin64(a.smax, b.smax);
	}
	return ivl_norm(r, w);
}

/* x | y is at least either operand (unsigned), negative and at least a negative operand
 * (signed), and below the smeared larger operand.
 */
static struct ivl ivl_or(struct ivl a, struct ivl b, unsigned w)
{
	struct ivl r = ivl_full(w);

	r.umin = umax64(a.umin, b.umin);
	r.umax = smear(umax64(a.umax, b.umax));
	if (a.smin >= 0 && b.smin >= 0) {
		r.smin = smax64(a.smin, b.smin);
		r.smax = (int64_t)smear(smax64(a.smax, b.smax));
	} else if (a.smax < 0 || b.smax < 0) {
		r.smin = a.smax < 0 && b.smax < 0 ? smax64(a.smin, b.smin) :
			 a.smax < 0 ? a.smin : b.smin;
		r.smax = -1;
	}
	return ivl_norm(r, w);
}

/* x ^ y stays below the smeared larger operand and is non-negative for equal signs. */
static struct ivl ivl_xor(struct ivl a, struct ivl b, unsigned w)
{
	struct ivl r = ivl_full(w);

	r.umax = smear(umax64(a.umax, b.umax));
	if (a.smin >= 0 && b.smin >= 0) {
		r.smin = 0;
		r.smax = (int64_t)smear(smax64(a.smax, b.smax));
	} else if (a.smax < 0 && b.smax < 0) {
		r.smin = 0;
		r.smax = (int64_t)smear(~(uint64_t)smin64(a.smin, b.smin));
	}
	return ivl_norm(r, w);
}

static struct ivl ivl_neg(struct ivl a, unsigned w)
{
	return ivl_meet(ivl_from_math(-(i128)a.umax, -(i128)a.umin, w),
			ivl_from_math(-(i128)a.smax, -(i128)a.smin, w));
}

/* x << s multiplies both integer views by 2^s (fits: |x| < 2^64, s < 64). */
static struct ivl ivl_lsh(struct ivl a, unsigned s, unsigned w)
{
	return ivl_meet(ivl_from_math((i128)a.umin << s, (i128)a.umax << s, w),
			ivl_from_math((i128)a.smin * ((i128)1 << s), (i128)a.smax * ((i128)1 << s), w));
}

static struct ivl ivl_rsh(struct ivl a, unsigned s, unsigned w)
{
	return ivl_from_math(a.umin >> s, a.umax >> s, w);
}

/* Arithmetic shift is floor division by 2^s: monotone, so the bounds shift. */
static struct ivl ivl_arsh(struct ivl a, unsigned s, unsigned w)
{
	return ivl_from_math((int64_t)ashr64(a.smin, s), (int64_t)ashr64(a.smax, s), w);
}

/* Bounds of a (non-shift) ALU result of width w from the operands' bounds of that width. */
static struct ivl ivl_alu(uint8_t op, bool sign, struct ivl a, struct ivl b, unsigned w)
{
	switch (op) {
	case BPF_ADD: return ivl_add(a, b, w, false);
	case BPF_SUB: return ivl_add(a, b, w, true);
	case BPF_MUL: return ivl_mul(a, b, w);
	case BPF_DIV: return sign ? ivl_sdiv(a, b, w) : ivl_udiv(a, b, w);
	case BPF_MOD: return sign ? ivl_smod(a, b, w) : ivl_umod(a, b, w);
	case BPF_AND: return ivl_and(a, b, w);
	case BPF_OR: return ivl_or(a, b, w);
	case BPF_XOR: return ivl_xor(a, b, w);
	default: return ivl_full(w);
	}
}

/* Known bits of a (non-shift) ALU result; division and remainder leave them to the bounds. */
static struct tnum tnum_alu(uint8_t op, struct tnum a, struct tnum b)
{
	switch (op) {
	case BPF_ADD: return tnum_add(a, b);
	case BPF_SUB: return tnum_sub(a, b);
	case BPF_MUL: return tnum_mul(a, b);
	case BPF_AND: return tnum_and(a, b);
	case BPF_OR: return tnum_or(a, b);
	case BPF_XOR: return tnum_xor(a, b);
	default: return tnum_unknown();
	}
}

/* The low 32 bits of the 64-bit result depend only on the operands' low 32 bits. */
static bool low_half_op(uint8_t op)
{
	return op == BPF_ADD || op == BPF_SUB || op == BPF_MUL || op == BPF_AND ||
	       op == BPF_OR || op == BPF_XOR;
}

/* a shifted by one amount s (already masked to the width). */
static struct range shift_by(uint8_t op, bool is64, const struct range *a, unsigned s)
{
	struct tnum t = is64 ? a->var_off : tnum_subreg(a->var_off);
	unsigned w = is64 ? 64 : 32;
	struct ivl v, v32 = ivl_full(32);

	switch (op) {
	case BPF_LSH:
		t = tnum_lshift(t, s);
		v = ivl_lsh(ivl64(a), s, 64);
		v32 = s < 32 ? ivl_lsh(ivl32(a), s, 32) : ivl_const(0, 32);
		break;
	case BPF_RSH:
		t = tnum_rshift(t, s);
		v = ivl_rsh(ivl64(a), s, 64);
		if (!is64)
			v32 = ivl_rsh(ivl32(a), s, 32);
		break;
	default:
		t = tnum_arshift(t, s, w);
		v = ivl_arsh(ivl64(a), s, 64);
		if (!is64)
			v32 = ivl_arsh(ivl32(a), s, 32);
		break;
	}
	return is64 ? range_make(v, v32, t) : range_make32(v32, t);
}

/* Shifts by a range of amounts: the join over each possible masked amount (at most w of them),
 * which keeps x << [0, 2] exact where a single formula would not.
 */
static struct range alu_shift(uint8_t op, bool is64, const struct range *a, const struct range *b)
{
	unsigned w = is64 ? 64 : 32;
	struct tnum amt = tnum_and(b->var_off, tnum_const(w - 1));
	uint64_t lo = amt.value, hi = amt.value | amt.mask;
	uint64_t bmin = is64 ? b->umin : b->u32_min, bmax = is64 ? b->umax : b->u32_max;
	struct range r = range_empty(), x;
	bool first = true;

	if (bmax < w) {	/* no masking happens: the amounts are b's own bounds */
		lo = umax64(lo, bmin);
		hi = umin64(hi, bmax);
	}
	for (uint64_t s = lo; s <= hi; s++) {
		if (!tnum_contains(amt, s))
			continue;
		x = shift_by(op, is64, a, s);
		r = first ? x : join_fields(&r, &x);
		first = false;
	}
	range_sync(&r);
	return r;
}

static struct range alu_steps(uint8_t op, bool is64, bool sign, const struct range *a,
			      const struct range *b);

/* r is the constant range_const(*c) builds, field for field. */
static inline bool exact_const(const struct range *r, uint64_t *c)
{
	struct range k = range_const(r->umin);

	*c = r->umin;
	return range_equal(r, &k);
}

struct range range_alu(uint8_t op, bool is64, bool sign, const struct range *a,
		       const struct range *b)
{
	unsigned tag = 2 | (unsigned)op << 2 | (unsigned)is64 << 10 | (unsigned)sign << 11;
	struct pair_memo *m;
	uint64_t x, y, w = is64 ? UINT64_MAX : UINT32_MAX;
	bool hit;

	if (op == BPF_MOV)
		return alu_steps(op, is64, sign, a, b);
	/* Two constants as range_const makes them (counters' first values): alu_steps' answer
	 * costs less than the memo's look-up — neither is empty, and const_in reads each as its
	 * umin at the width. */
	if (op != BPF_NEG && exact_const(a, &x) && exact_const(b, &y))
		return range_const(alu_eval(op, is64, sign, x & w, y & w));
	m = pair_slot(tag, a, b, &hit);
	return hit ? m->out : pair_keep(m, tag, a, b, alu_steps(op, is64, sign, a, b));
}

static struct range alu_steps(uint8_t op, bool is64, bool sign, const struct range *a,
			      const struct range *b)
{
	unsigned w = is64 ? 64 : 32;
	struct tnum t;
	struct ivl v32;
	uint64_t x, y;

	if (range_is_empty(a) || range_is_empty(b))
		return range_empty();
	if (op == BPF_MOV)
		return is64 ? *b : range_zext32(b);
	if (op == BPF_NEG)
		return range_neg(a, is64);
	if (const_in(a, w, &x) && const_in(b, w, &y))
		return range_const(alu_eval(op, is64, sign, x, y));
	if (op == BPF_LSH || op == BPF_RSH || op == BPF_ARSH)
		return alu_shift(op, is64, a, b);
	if (!is64) {
		t = tnum_alu(op, tnum_subreg(a->var_off), tnum_subreg(b->var_off));
		return range_make32(ivl_alu(op, sign, ivl32(a), ivl32(b), 32), t);
	}
	v32 = low_half_op(op) ? ivl_alu(op, sign, ivl32(a), ivl32(b), 32) : ivl_full(32);
	t = tnum_alu(op, a->var_off, b->var_off);
	return range_make(ivl_alu(op, sign, ivl64(a), ivl64(b), 64), v32, t);
}

struct range range_neg(const struct range *a, bool is64)
{
	struct ivl v32 = ivl_neg(ivl32(a), 32);
	uint64_t x;

	if (range_is_empty(a))
		return range_empty();
	if (const_in(a, is64 ? 64 : 32, &x))
		return range_const(alu_eval(BPF_NEG, is64, false, x, 0));
	if (!is64)
		return range_make32(v32, tnum_neg(tnum_subreg(a->var_off)));
	return range_make(ivl_neg(ivl64(a), 64), v32, tnum_neg(a->var_off));
}

/* Bounds of the low 'bits' bits of the members of a, from every field. */
static struct ivl low_bits(const struct range *a, unsigned bits)
{
	struct ivl v = ivl_from_tnum(tnum_cast(a->var_off, bits / 8), bits);

	v = ivl_meet(v, ivl_from_math(a->umin, a->umax, bits));
	v = ivl_meet(v, ivl_from_math(a->smin, a->smax, bits));
	v = ivl_meet(v, ivl_from_math(a->u32_min, a->u32_max, bits));
	v = ivl_meet(v, ivl_from_math(a->s32_min, a->s32_max, bits));
	return ivl_norm(v, bits);
}

struct range range_movsx(const struct range *a, unsigned bits, bool is64)
{
	struct tnum t = tnum_sext(a->var_off, bits);
	struct ivl low, v32;

	if (range_is_empty(a))
		return range_empty();
	if (bits >= 64)
		return *a;
	low = low_bits(a, bits);
	v32 = ivl_from_math(low.smin, low.smax, 32);
	if (!is64)
		return range_make32(v32, t);
	return range_make(ivl_from_math(low.smin, low.smax, 64), v32, t);
}

struct range range_zext32(const struct range *a)
{
	return range_trunc(a, 4);
}

struct range range_trunc(const struct range *a, unsigned bytes)
{
	struct ivl low, v32;

	if (range_is_empty(a))
		return range_empty();
	if (bytes >= 8)
		return *a;
	low = low_bits(a, 8 * bytes);
	/* (a 32-bit truncation keeps the subregister whole: its signed view too, as the kernel's
	 * zext_32_to_64 keeps s32 bounds, e.g. w0 = w0 of [-4095, 16]) */
	v32 = ivl_from_math(low.umin, low.umax, 32);
	if (bytes == 4)
		v32 = ivl_meet(v32, ivl_from_math(low.smin, low.smax, 32));
	return range_make(ivl_from_math(low.umin, low.umax, 64), v32,
			  tnum_cast(a->var_off, bytes));
}

struct range range_sext(const struct range *a, unsigned bytes)
{
	return range_movsx(a, 8 * bytes, true);
}

/* Byte swaps: only the known bits follow the bytes; a 16- or 32-bit result is zero-extended.
 * E.g. bswap16 of [0, 255] is (0; 0xff00), so [0, 0xff00].
 */
struct range range_bswap(const struct range *a, unsigned bits)
{
	struct ivl v = bits >= 64 ? ivl_full(64) : ivl_from_math(0, umax_of(bits), 64);
	struct ivl v32 = bits >= 32 ? ivl_full(32) : ivl_from_math(0, umax_of(bits), 32);
	uint64_t x;

	if (range_is_empty(a))
		return range_empty();
	if (const_in(a, 64, &x))
		return range_const(tnum_bswap(tnum_const(x), bits).value);
	return range_make(v, v32, tnum_bswap(a->var_off, bits));
}

/* ---- branches ---- */

/* The comparison that holds on one outcome of 'if a op b', stated as x cmp y with (x, y) =
 * (a, b) or, when *swap, (b, a): JGT taken is b < a, JLT not taken is b <= a.
 */
enum cmp { CMP_EQ, CMP_NE, CMP_ULT, CMP_ULE, CMP_SLT, CMP_SLE, CMP_SET, CMP_NSET, CMP_BAD };

static enum cmp cmp_of(uint8_t op, bool taken, bool *swap)
{
	*swap = false;
	switch (op) {
	case BPF_JEQ: return taken ? CMP_EQ : CMP_NE;
	case BPF_JNE: return taken ? CMP_NE : CMP_EQ;
	case BPF_JSET: return taken ? CMP_SET : CMP_NSET;
	case BPF_JLT: *swap = !taken; return taken ? CMP_ULT : CMP_ULE;
	case BPF_JLE: *swap = !taken; return taken ? CMP_ULE : CMP_ULT;
	case BPF_JGT: *swap = taken; return taken ? CMP_ULT : CMP_ULE;
	case BPF_JGE: *swap = taken; return taken ? CMP_ULE : CMP_ULT;
	case BPF_JSLT: *swap = !taken; return taken ? CMP_SLT : CMP_SLE;
	case BPF_JSLE: *swap = !taken; return taken ? CMP_SLE : CMP_SLT;
	case BPF_JSGT: *swap = taken; return taken ? CMP_SLT : CMP_SLE;
	case BPF_JSGE: *swap = taken; return taken ? CMP_SLE : CMP_SLT;
	default: return CMP_BAD;
	}
}

/* Whether x cmp y holds for all (1), none (0) or some (-1) pairs, in the compared width. */
static int cmp_outcome(enum cmp c, const struct range *a, const struct range *b, bool is32)
{
	struct ivl x = is32 ? ivl32(a) : ivl64(a), y = is32 ? ivl32(b) : ivl64(b);
	struct tnum tx = is32 ? tnum_subreg(a->var_off) : a->var_off;
	struct tnum ty = is32 ? tnum_subreg(b->var_off) : b->var_off;
	int r;

	switch (c) {
	case CMP_EQ:
		if (x.umin > y.umax || x.umax < y.umin || x.smin > y.smax || x.smax < y.smin ||
		    tnum_conflict(tx, ty))
			return 0;
		if (!is32 && (a->u32_min > b->u32_max || a->u32_max < b->u32_min ||
			      a->s32_min > b->s32_max || a->s32_max < b->s32_min))
			return 0;
		return x.umin == x.umax && y.umin == y.umax && x.umin == y.umin ? 1 : -1;
	case CMP_NE:
		r = cmp_outcome(CMP_EQ, a, b, is32);
		return r < 0 ? r : !r;
	case CMP_ULT:
		return x.umax < y.umin ? 1 : x.umin >= y.umax ? 0 : -1;
	case CMP_ULE:
		return x.umax <= y.umin ? 1 : x.umin > y.umax ? 0 : -1;
	case CMP_SLT:
		return x.smax < y.smin ? 1 : x.smin >= y.smax ? 0 : -1;
	case CMP_SLE:
		return x.smax <= y.smin ? 1 : x.smin > y.smax ? 0 : -1;
	case CMP_SET:
		if (tx.value & ty.value)
			return 1;
		return (tx.value | tx.mask) & (ty.value | ty.mask) ? -1 : 0;
	case CMP_NSET:
		r = cmp_outcome(CMP_SET, a, b, is32);
		return r < 0 ? r : !r;
	default:
		return -1;
	}
}

int range_branch_outcome(uint8_t op, bool is32, const struct range *a, const struct range *b)
{
	bool swap;
	enum cmp c = cmp_of(op, true, &swap);

	if (c == CMP_BAD || range_is_empty(a) || range_is_empty(b))
		return -1;
	return swap ? cmp_outcome(c, b, a, is32) : cmp_outcome(c, a, b, is32);
}

/* r without the value v (of the compared width) where v sits on one of its bounds.  A bound
 * that cannot move past v leaves r empty.
 */
static void exclude_value(struct range *r, uint64_t v, bool is32)
{
	if (is32) {
		if (r->u32_min == (uint32_t)v && r->u32_min++ == UINT32_MAX)
			r->u32_max = 0;
		if (r->u32_max == (uint32_t)v && r->u32_max-- == 0)
			r->u32_min = UINT32_MAX;
		if (r->s32_min == (int32_t)v)
			r->s32_min == INT32_MAX ? (r->s32_max = INT32_MIN) : r->s32_min++;
		if (r->s32_max == (int32_t)v)
			r->s32_max == INT32_MIN ? (r->s32_min = INT32_MAX) : r->s32_max--;
		return;
	}
	if (r->umin == v && r->umin++ == UINT64_MAX)
		r->umax = 0;
	if (r->umax == v && r->umax-- == 0)
		r->umin = UINT64_MAX;
	if (r->smin == (int64_t)v)
		r->smin == INT64_MAX ? (r->smax = INT64_MIN) : r->smin++;
	if (r->smax == (int64_t)v)
		r->smax == INT64_MIN ? (r->smin = INT64_MAX) : r->smax--;
}

/* x's tnum with bits forced: 'ones' known 1, 'zeros' known 0. */
static void force_bits(struct range *x, uint64_t ones, uint64_t zeros)
{
	x->var_off = TNUM((x->var_off.value | ones) & ~zeros, x->var_off.mask & ~(ones | zeros));
}

/* Both sides equal: each becomes the meet (of the subregisters for JMP32). */
static void refine_eq(bool is32, struct range *x, struct range *y)
{
	struct tnum tx = x->var_off, ty = y->var_off, t;

	if (!is32) {
		*x = *y = range_meet(x, y);
		return;
	}
	if (tnum_conflict(tnum_subreg(tx), tnum_subreg(ty))) {
		*x = *y = range_empty();
		return;
	}
	tighten_u32(x, y->u32_min, y->u32_max);
	tighten_s32(x, y->s32_min, y->s32_max);
	tighten_u32(y, x->u32_min, x->u32_max);
	tighten_s32(y, x->s32_min, x->s32_max);
	t = tnum_intersect(tnum_subreg(tx), tnum_subreg(ty));
	x->var_off = TNUM((tx.value & ~LO32) | t.value, (tx.mask & ~LO32) | t.mask);
	y->var_off = TNUM((ty.value & ~LO32) | t.value, (ty.mask & ~LO32) | t.mask);
}

/* x & c != 0 for a constant c: when only one bit of c can be set in x, it is. */
static void refine_set(struct range *x, uint64_t c)
{
	uint64_t maybe = (x->var_off.value | x->var_off.mask) & c;

	if (!maybe)
		*x = range_empty();
	else if (!(maybe & (maybe - 1)))
		force_bits(x, maybe, 0);
}

/* x < y (strict) or x <= y, unsigned, in the compared width: x's max drops below y's max and
 * y's min rises above x's min.
 */
static void refine_ult(struct range *x, struct range *y, bool strict, bool is32)
{
	uint64_t d = strict;

	if (is32) {
		if (y->u32_max < d || x->u32_min > UINT32_MAX - d) {
			*x = *y = range_empty();
			return;
		}
		tighten_u32(x, 0, y->u32_max - d);
		tighten_u32(y, x->u32_min + d, UINT32_MAX);
		return;
	}
	if (y->umax < d || x->umin > UINT64_MAX - d) {
		*x = *y = range_empty();
		return;
	}
	tighten_u64(x, 0, y->umax - d);
	tighten_u64(y, x->umin + d, UINT64_MAX);
}

static void refine_slt(struct range *x, struct range *y, bool strict, bool is32)
{
	int64_t d = strict;

	if (is32) {
		if (y->s32_max < INT32_MIN + d || x->s32_min > INT32_MAX - d) {
			*x = *y = range_empty();
			return;
		}
		tighten_s32(x, INT32_MIN, y->s32_max - d);
		tighten_s32(y, x->s32_min + d, INT32_MAX);
		return;
	}
	if (y->smax < INT64_MIN + d || x->smin > INT64_MAX - d) {
		*x = *y = range_empty();
		return;
	}
	tighten_s64(x, INT64_MIN, y->smax - d);
	tighten_s64(y, x->smin + d, INT64_MAX);
}

/* Kernel regs_refine_cond_op, for 'x c y' known to hold. */
static void refine_cmp(enum cmp c, bool is32, struct range *x, struct range *y)
{
	uint64_t wmask = is32 ? LO32 : UINT64_MAX, v, kx, ky;

	switch (c) {
	case CMP_EQ:
		refine_eq(is32, x, y);
		break;
	case CMP_NE:
		/* A constant on the other side's bound moves the bound by one. */
		if (const_in(y, is32 ? 32 : 64, &v))
			exclude_value(x, v, is32);
		if (const_in(x, is32 ? 32 : 64, &v))
			exclude_value(y, v, is32);
		break;
	case CMP_ULT:
	case CMP_ULE:
		refine_ult(x, y, c == CMP_ULT, is32);
		break;
	case CMP_SLT:
	case CMP_SLE:
		refine_slt(x, y, c == CMP_SLT, is32);
		break;
	case CMP_SET:
		if (const_in(y, is32 ? 32 : 64, &v))
			refine_set(x, v & wmask);
		if (const_in(x, is32 ? 32 : 64, &v))
			refine_set(y, v & wmask);
		break;
	case CMP_NSET:
		/* x & y == 0: a bit known 1 on one side is 0 on the other. */
		kx = x->var_off.value & wmask;
		ky = y->var_off.value & wmask;
		force_bits(x, 0, ky);
		force_bits(y, 0, kx);
		break;
	default:
		break;
	}
}

static bool refine_steps(uint8_t op, bool is32, bool taken, struct range *a, struct range *b)
{
	bool swap;
	enum cmp c = cmp_of(op, taken, &swap);
	struct range *x = swap ? b : a, *y = swap ? a : b;

	if (c == CMP_BAD)
		return !range_is_empty(a) && !range_is_empty(b);
	/* No pair satisfies the condition: the path is dead. */
	if (range_is_empty(a) || range_is_empty(b) || cmp_outcome(c, x, y, is32) == 0) {
		*a = *b = range_empty();
		return false;
	}
	refine_cmp(c, is32, x, y);
	range_sync(x);
	range_sync(y);
	if (range_is_empty(x) || range_is_empty(y)) {
		*a = *b = range_empty();
		return false;
	}
	return true;
}

/* A function of the comparison and both ranges alone, remembered as range_join's and
 * range_alu's answers are (a fixpoint refines the same ranges at a branch on every visit that
 * left them unchanged). */
bool range_refine(uint8_t op, bool is32, bool taken, struct range *a, struct range *b)
{
	unsigned tag = 3 | (unsigned)op << 2 | (unsigned)is32 << 10 | (unsigned)taken << 11;
	bool hit;
	struct pair_memo *m = pair_slot(tag, a, b, &hit);
	struct range a0, b0;

	if (!hit) {
		bool alive;

		a0 = *a;
		b0 = *b;
		alive = refine_steps(op, is32, taken, a, b);
		pair_keep(m, tag, &a0, &b0, *a);
		m->out_b = *b;
		if (alive)
			pair_tag[m - pair_memo] |= PAIR_ALIVE;
		return alive;
	}
	*a = m->out;
	*b = m->out_b;
	return pair_tag[m - pair_memo] & PAIR_ALIVE;
}

/* ---- recurrences ---- */

/* x + p for x in v (either view) and p in the integer interval [plo, phi], modulo 2^w. */
static struct ivl ivl_plus(struct ivl v, i128 plo, i128 phi, unsigned w)
{
	struct span s[2];
	struct ivl r = ivl_full(w);
	i128 lo, hi;

	ivl_spans(v, s);
	for (int i = 0; i < 2; i++)
		if (!__builtin_add_overflow(s[i].lo, plo, &lo) &&
		    !__builtin_add_overflow(s[i].hi, phi, &hi))
			r = ivl_meet(r, ivl_from_math(lo, hi, w));
	return r;
}

/* Bounds of x + k * step (step a signed w-bit value) for k in [kmin, kmax]. */
static struct ivl ivl_scaled(struct ivl v, int64_t step, uint64_t kmin, uint64_t kmax, unsigned w)
{
	struct span p;

	if (!span_mul((struct span){ kmin, kmax }, (struct span){ step, step }, &p))
		return ivl_full(w);
	return ivl_plus(v, p.lo, p.hi, w);
}

/* The range of {a, +, step} over k in [kmin, kmax]; the low bits that k * step leaves known
 * survive (step 4 from 0 keeps the two low bits 0).  E.g. a = 0, step = 4, k in [0, 99]:
 * [0, 396], var_off (0; 0x1fc).
 */
struct range range_add_scaled(const struct range *a, uint64_t step, uint64_t kmin, uint64_t kmax,
			      unsigned width)
{
	struct tnum kt, t;
	struct ivl v32;
	uint64_t x;

	if (range_is_empty(a) || kmin > kmax)
		return range_empty();
	if (kmin == kmax && const_in(a, width == 32 ? 32 : 64, &x))
		return range_const(width == 32 ? (uint32_t)(x + kmin * step) : x + kmin * step);
	kt = tnum_mul(tnum_range(kmin, kmax), tnum_const(step));
	v32 = ivl_scaled(ivl32(a), (int32_t)step, kmin, kmax, 32);
	if (width == 32) {
		t = tnum_add(tnum_subreg(a->var_off), tnum_subreg(kt));
		return range_make32(v32, t);
	}
	t = tnum_add(a->var_off, kt);
	return range_make(ivl_scaled(ivl64(a), (int64_t)step, kmin, kmax, 64), v32, t);
}

/* Bounds of x + s, s a sum of k terms each in d (both views of d give a sum interval). */
static struct ivl ivl_accum(struct ivl v, struct ivl d, uint64_t kmin, uint64_t kmax, unsigned w)
{
	struct span s[2], p;
	struct ivl r = ivl_full(w);

	ivl_spans(d, s);
	for (int i = 0; i < 2; i++)
		if (span_mul((struct span){ kmin, kmax }, s[i], &p))
			r = ivl_meet(r, ivl_plus(v, p.lo, p.hi, w));
	return r;
}

/* Known bits of a sum of k terms of tnum d: if d's low z bits are known (c), the sum's low z
 * bits are those of k * c; everything above is unknown.
 */
static struct tnum tnum_accum(struct tnum d, uint64_t kmin, uint64_t kmax)
{
	unsigned z = d.mask ? __builtin_ctzll(d.mask) : 64;
	uint64_t low = z >= 64 ? UINT64_MAX : (1ULL << z) - 1;
	struct tnum m = tnum_mul(tnum_range(kmin, kmax), tnum_const(d.value & low));

	return TNUM(m.value & low, (m.mask & low) | ~low);
}

/* x += d repeated k times, k in [kmin, kmax], d any member of *d each time. */
struct range range_add_accum(const struct range *a, const struct range *d, uint64_t kmin,
			     uint64_t kmax, bool is64)
{
	struct tnum t;
	struct ivl v32;

	if (range_is_empty(a) || kmin > kmax)
		return range_empty();
	if (range_is_empty(d))
		return kmin ? range_empty() : (is64 ? *a : range_zext32(a));
	v32 = ivl_accum(ivl32(a), ivl32(d), kmin, kmax, 32);
	if (!is64) {
		t = tnum_add(tnum_subreg(a->var_off),
			     tnum_accum(tnum_subreg(d->var_off), kmin, kmax));
		return range_make32(v32, t);
	}
	t = tnum_add(a->var_off, tnum_accum(d->var_off, kmin, kmax));
	return range_make(ivl_accum(ivl64(a), ivl64(d), kmin, kmax, 64), v32, t);
}
