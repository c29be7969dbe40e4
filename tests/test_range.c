/* Soundness and precision of claims/range.c and claims/tnum.c.
 *
 * Soundness: random ranges of many shapes (constants, short intervals around 0, 2^31, 2^32,
 * 2^63 and UINT64_MAX, negative signed intervals, tnum-shaped sets such as multiples of 8
 * below 4096, sets constrained only in their low 32 bits, per-field hulls of a few values that
 * were never synced, results of earlier operations), random concrete members of each (drawn
 * from every field's interval and kept only if the reference membership below accepts them),
 * every operation
 * applied both abstractly and to the members by a plain reference model written here from the
 * BPF run-time semantics (not from range.c), and the concrete result checked to lie in the
 * abstract one.  The same for join, meet, widen, sync, branch refinement and branch outcomes.
 * Membership is judged by ref_contains(), written here field by field (as the kernel's selftest
 * prog_tests/reg_bounds.c does), not by range_contains(), which is checked against it.  Pairs
 * of ranges without members check nothing: at most 1 in 50 may have none.
 *
 * Precision: unit tests with every field spelled out, for the facts the analyzer relies on.
 *
 * Sameness: range_sync and range_is_empty against a copy of their previous code (kept below),
 * all fields equal on millions of random, boundary and synced inputs.
 */
#include <linux/bpf.h>
#include <string.h>
#include <time.h>

#include "claims/range.h"
#include "tests/check.h"

/* ---- reference membership ---- */

/* The signed view of a 64-bit (or, zero-extended, a 32-bit) pattern, by two's complement. */
static int64_t as_s64(uint64_t v)
{
	return v >> 63 ? -(int64_t)(~v) - 1 : (int64_t)v;
}

static int32_t as_s32(uint32_t v)
{
	return v >> 31 ? -(int32_t)(~v) - 1 : (int32_t)v;
}

/* The tnum's known bits (mask bit clear) are v's bits; an unknown bit is 0 in value (a tnum
 * with a value bit under its mask is malformed and holds nothing), one bit at a time. */
static bool ref_tnum_has(struct tnum t, uint64_t v)
{
	for (int b = 0; b < 64; b++) {
		uint64_t bit = 1ull << b;

		if (t.mask & bit ? (t.value & bit) != 0 : (t.value & bit) != (v & bit))
			return false;
	}
	return true;
}

/* v is in r: each of the eight bounds holds of its view of v, and the tnum agrees. */
static bool ref_contains(const struct range *r, uint64_t v)
{
	uint32_t lo = (uint32_t)(v & 0xffffffffu);

	if (v < r->umin || v > r->umax)
		return false;
	if (as_s64(v) < r->smin || as_s64(v) > r->smax)
		return false;
	if (lo < r->u32_min || lo > r->u32_max)
		return false;
	if (as_s32(lo) < r->s32_min || as_s32(lo) > r->s32_max)
		return false;
	return ref_tnum_has(r->var_off, v);
}

/* ---- random numbers ---- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rnd_below(uint64_t n)
{
	return n ? rng() % n : 0;
}

/* Uniform-ish in [lo, hi] (unsigned, lo <= hi). */
static uint64_t rnd_in(uint64_t lo, uint64_t hi)
{
	if (hi - lo == UINT64_MAX)
		return rng();
	return lo + rnd_below(hi - lo + 1);
}

/* Uniform-ish in [lo, hi] (signed, lo <= hi), as a bit pattern. */
static uint64_t rnd_sin(int64_t lo, int64_t hi)
{
	return (uint64_t)lo + rnd_in(0, (uint64_t)hi - (uint64_t)lo);
}

static const uint64_t centers[] = {
	0, 1, 2, 7, 8, 16, 255, 256, 4095, 4096, 0x7fff, 0x8000, 0xffff, 0x10000,
	0x7fffffff, 0x80000000, 0xffffffff, 0x100000000, 0x17fffffff, 0x7fffffffffffffff,
	0x8000000000000000, 0xffffffff00000000, 0xffffffff7fffffff, 0xffffffff80000000,
	UINT64_MAX, UINT64_MAX - 100,
};

/* A value from the places where wrap-around bugs live, or anywhere. */
static uint64_t interesting(void)
{
	uint64_t c = centers[rnd_below(sizeof(centers) / sizeof(centers[0]))];

	switch (rnd_below(6)) {
	case 0: return c;
	case 1: return c + rnd_below(9) - 4;
	case 2: return rng();
	case 3: return rng() & rng() & rng();	/* few bits */
	case 4: return rnd_below(64);
	default: return c + rnd_below(1000) - 500;
	}
}

/* A width for an interval: mostly small, sometimes huge. */
static uint64_t rnd_width(void)
{
	switch (rnd_below(5)) {
	case 0: return 0;
	case 1: return rnd_below(16);
	case 2: return rnd_below(1000);
	case 3: return rnd_below(1ull << 33);
	default: return rng() >> rnd_below(64);
	}
}

/* ---- printing ---- */

static void dump(const char *name, const struct range *r)
{
	fprintf(stderr,
		"  %s: u64=[%#" PRIx64 ", %#" PRIx64 "] s64=[%" PRId64 ", %" PRId64 "] u32=[%#x, %#x] "
		"s32=[%d, %d] var_off=(%#" PRIx64 "; %#" PRIx64 ")\n",
		name, r->umin, r->umax, r->smin, r->smax, r->u32_min, r->u32_max, r->s32_min,
		r->s32_max, r->var_off.value, r->var_off.mask);
}

static void dump_opt(const char *name, const struct range *r)
{
	if (r)
		dump(name, r);
}

static int sound_reported;

/* Counts one soundness check; on failure prints the context (only the first few in full). */
#define SOUND(cond, a, b, res, ...)                                                         \
	do {                                                                                \
		check_count++;                                                              \
		if (!(cond)) {                                                              \
			check_failures++;                                                   \
			if (sound_reported++ < 20) {                                        \
				fprintf(stderr, "%s:%d: unsound: ", __FILE__, __LINE__);    \
				fprintf(stderr, __VA_ARGS__);                               \
				fputc('\n', stderr);                                        \
				dump_opt("a", a);                                           \
				dump_opt("b", b);                                           \
				dump_opt("result", res);                                    \
			}                                                                   \
		}                                                                           \
	} while (0)

/* ---- the reference model: BPF run-time semantics on concrete values ---- */

static uint64_t ref_alu32(uint8_t op, bool sign, uint32_t x, uint32_t y)
{
	int32_t sx = (int32_t)x, sy = (int32_t)y;

	switch (op) {
	case BPF_ADD: return (uint32_t)(x + y);
	case BPF_SUB: return (uint32_t)(x - y);
	case BPF_MUL: return (uint32_t)(x * y);
	case BPF_AND: return x & y;
	case BPF_OR: return x | y;
	case BPF_XOR: return x ^ y;
	case BPF_LSH: return (uint32_t)(x << (y & 31));
	case BPF_RSH: return x >> (y & 31);
	case BPF_ARSH: return (uint32_t)(sx >> (y & 31));
	case BPF_MOV: return y;
	case BPF_NEG: return (uint32_t)(0u - x);
	case BPF_DIV:
		if (!sign)
			return y ? x / y : 0;
		if (!y)
			return 0;
		if (sx == INT32_MIN && sy == -1)
			return (uint32_t)INT32_MIN;
		return (uint32_t)(sx / sy);
	case BPF_MOD:
		if (!sign)
			return y ? x % y : x;
		if (!y)
			return x;
		if (sy == -1)
			return 0;
		return (uint32_t)(sx % sy);
	}
	return 0;
}

static uint64_t ref_alu(uint8_t op, bool is64, bool sign, uint64_t x, uint64_t y)
{
	int64_t sx = (int64_t)x, sy = (int64_t)y;

	if (!is64)
		return ref_alu32(op, sign, (uint32_t)x, (uint32_t)y);
	switch (op) {
	case BPF_ADD: return x + y;
	case BPF_SUB: return x - y;
	case BPF_MUL: return x * y;
	case BPF_AND: return x & y;
	case BPF_OR: return x | y;
	case BPF_XOR: return x ^ y;
	case BPF_LSH: return x << (y & 63);
	case BPF_RSH: return x >> (y & 63);
	case BPF_ARSH: return (uint64_t)(sx >> (y & 63));
	case BPF_MOV: return y;
	case BPF_NEG: return 0 - x;
	case BPF_DIV:
		if (!sign)
			return y ? x / y : 0;
		if (!y)
			return 0;
		if (sx == INT64_MIN && sy == -1)
			return x;
		return (uint64_t)(sx / sy);
	case BPF_MOD:
		if (!sign)
			return y ? x % y : x;
		if (!y)
			return x;
		if (sy == -1)
			return 0;
		return (uint64_t)(sx % sy);
	}
	return 0;
}

static uint64_t ref_movsx(uint64_t x, unsigned bits, bool is64)
{
	int64_t v = bits == 8 ? (int8_t)x : bits == 16 ? (int16_t)x : (int32_t)x;

	return is64 ? (uint64_t)v : (uint32_t)v;
}

static uint64_t ref_trunc(uint64_t x, unsigned bytes)
{
	return bytes == 1 ? (uint8_t)x : bytes == 2 ? (uint16_t)x : bytes == 4 ? (uint32_t)x : x;
}

static uint64_t ref_bswap(uint64_t x, unsigned bits)
{
	uint64_t r = 0;

	for (unsigned i = 0; i < bits / 8; i++)
		r |= ((x >> (8 * i)) & 0xff) << (bits - 8 - 8 * i);
	return r;
}

static bool ref_cond(uint8_t op, bool is32, uint64_t x, uint64_t y)
{
	uint64_t ux = is32 ? (uint32_t)x : x, uy = is32 ? (uint32_t)y : y;
	int64_t sx = is32 ? (int32_t)x : (int64_t)x, sy = is32 ? (int32_t)y : (int64_t)y;

	switch (op) {
	case BPF_JEQ: return ux == uy;
	case BPF_JNE: return ux != uy;
	case BPF_JGT: return ux > uy;
	case BPF_JGE: return ux >= uy;
	case BPF_JLT: return ux < uy;
	case BPF_JLE: return ux <= uy;
	case BPF_JSGT: return sx > sy;
	case BPF_JSGE: return sx >= sy;
	case BPF_JSLT: return sx < sy;
	case BPF_JSLE: return sx <= sy;
	case BPF_JSET: return (ux & uy) != 0;
	}
	return false;
}

/* ---- generating ranges and members ---- */

/* Per-field hull of some values, not synced: each field is tight on its own. */
static struct range hull(const uint64_t *v, int n)
{
	struct range r = range_const(v[0]);

	for (int i = 1; i < n; i++) {
		struct range c = range_const(v[i]);

		r.umin = c.umin < r.umin ? c.umin : r.umin;
		r.umax = c.umax > r.umax ? c.umax : r.umax;
		r.smin = c.smin < r.smin ? c.smin : r.smin;
		r.smax = c.smax > r.smax ? c.smax : r.smax;
		r.u32_min = c.u32_min < r.u32_min ? c.u32_min : r.u32_min;
		r.u32_max = c.u32_max > r.u32_max ? c.u32_max : r.u32_max;
		r.s32_min = c.s32_min < r.s32_min ? c.s32_min : r.s32_min;
		r.s32_max = c.s32_max > r.s32_max ? c.s32_max : r.s32_max;
		r.var_off = tnum_union(r.var_off, c.var_off);
	}
	return r;
}

/* Loosens some fields of r at random (still a superset). */
static void loosen(struct range *r)
{
	if (!rnd_below(3))
		r->umin = rnd_in(0, r->umin);
	if (!rnd_below(3))
		r->umax = rnd_in(r->umax, UINT64_MAX);
	if (!rnd_below(3))
		r->smin = (int64_t)rnd_sin(INT64_MIN, r->smin);
	if (!rnd_below(3))
		r->smax = (int64_t)rnd_sin(r->smax, INT64_MAX);
	if (!rnd_below(3))
		r->u32_min = (uint32_t)rnd_in(0, r->u32_min);
	if (!rnd_below(3))
		r->u32_max = (uint32_t)rnd_in(r->u32_max, UINT32_MAX);
	if (!rnd_below(3))
		r->s32_min = (int32_t)rnd_sin(INT32_MIN, r->s32_min);
	if (!rnd_below(3))
		r->s32_max = (int32_t)rnd_sin(r->s32_max, INT32_MAX);
	if (!rnd_below(3))
		r->var_off = tnum_union(r->var_off, TNUM(0, rng() & rng()));
}

static const uint8_t alu_ops[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_OR, BPF_AND,
				   BPF_LSH, BPF_RSH, BPF_MOD, BPF_XOR, BPF_MOV, BPF_ARSH };
#define N_ALU (sizeof(alu_ops) / sizeof(alu_ops[0]))

static struct range gen_range(int depth);

/* A random range; may (rarely) be empty, which the sampler then reports. */
static struct range gen_range(int depth)
{
	struct range r = range_unknown(), a, b;
	uint64_t c = interesting(), w = rnd_width(), v[4];
	int64_t s, lo, hi;
	int n;

	switch (rnd_below(13)) {
	case 0:
		return range_const(c);
	case 1:	/* [c, c + w], clipped */
		return range_urange(c, c + w < c ? UINT64_MAX : c + w);
	case 2:	/* around c, clipped */
		return range_urange(c - w / 2 > c ? 0 : c - w / 2,
				    c + w / 2 < c ? UINT64_MAX : c + w / 2);
	case 3:	/* signed around c */
		s = (int64_t)c;
		w = (w & ((1ull << 62) - 1)) / 2;
		lo = (int64_t)((uint64_t)s - w);
		hi = (int64_t)((uint64_t)s + w);
		return range_srange(lo > s ? INT64_MIN : lo, hi < s ? INT64_MAX : hi);
	case 4:	/* negative signed */
		lo = -(int64_t)(rnd_width() & (UINT64_MAX >> 2)) - 1;
		hi = -(int64_t)(rnd_width() & (UINT64_MAX >> 2)) - 1;
		return range_srange(lo < hi ? lo : hi, lo < hi ? hi : lo);
	case 5:	/* multiples of 2^k below 2^m, e.g. multiples of 8 below 4096 */
		n = rnd_below(6);
		w = rnd_below(40) + n + 1;
		r.var_off = TNUM(rnd_below(2) ? 0 : (rng() & ~((1ull << w) - 1)),
				 ((1ull << w) - 1) & ~((1ull << n) - 1));
		range_sync(&r);
		return r;
	case 6:	/* a random tnum */
		w = rng() & rng();
		r.var_off = TNUM(rng() & ~w, w);
		range_sync(&r);
		return r;
	case 7:	/* only the low 32 bits constrained */
		c = (uint32_t)interesting();
		w = rnd_width() & 0xffff;
		if (rnd_below(2)) {
			r.u32_min = (uint32_t)c;
			r.u32_max = (uint32_t)c + w < (uint32_t)c ? UINT32_MAX : (uint32_t)c + (uint32_t)w;
		} else {
			r.s32_min = (int32_t)c;
			r.s32_max = (int64_t)(int32_t)c + (int64_t)w > INT32_MAX ? INT32_MAX :
				    (int32_t)c + (int32_t)w;
		}
		range_sync(&r);
		return r;
	case 8:
		return rnd_below(2) ? range_zext_unknown(1 << rnd_below(3)) : range_unknown();
	case 9:	/* hull of a few values, synced or not */
	case 10:
		n = 1 + rnd_below(4);
		for (int i = 0; i < n; i++)
			v[i] = i && rnd_below(2) ? v[0] + rnd_below(300) : interesting();
		r = hull(v, n);
		if (rnd_below(2))
			loosen(&r);
		if (rnd_below(2))
			range_sync(&r);
		return r;
	default:	/* the result of an operation */
		if (depth >= 2)
			return range_const(c);
		a = gen_range(depth + 1);
		b = gen_range(depth + 1);
		if (rnd_below(4) == 0)
			return range_join(&a, &b);
		return range_alu(alu_ops[rnd_below(N_ALU)], rnd_below(2), rnd_below(2), &a, &b);
	}
}

/* A second operand: often a constant or a small range (shift amounts, divisors, compared
 * values near the first operand).
 */
static struct range gen_operand(const uint64_t *xs, int nx)
{
	uint64_t c, x = nx ? xs[rnd_below(nx)] : 0;

	switch (rnd_below(8)) {
	case 0:
		return range_const(rnd_below(70));
	case 1:
		return range_const(x + rnd_below(5) - 2);
	case 2:
		c = rnd_below(70);
		return range_urange(c, c + rnd_below(8));
	case 3:	/* overlapping the first operand */
		c = xs[rnd_below(nx)];
		x = xs[rnd_below(nx)];
		return range_urange(c < x ? c : x, c < x ? x : c);
	case 4:
		return range_const(interesting());
	default:
		return gen_range(0);
	}
}

/* A member of r (true) or nothing found (false).  Candidates come from every field's interval
 * and the tnum, half of them forced onto the tnum's known bits; ref_contains() has the last
 * word, and range_contains() must say the same of every candidate.
 */
static bool sample(const struct range *r, uint64_t *out)
{
	for (int tries = 0; tries < 64; tries++) {
		uint64_t v, e[6] = { r->umin, r->umax, (uint64_t)r->smin, (uint64_t)r->smax,
				      r->var_off.value, r->var_off.value | r->var_off.mask };

		switch (rnd_below(9)) {
		case 0:
			v = r->umin <= r->umax ? rnd_in(r->umin, r->umax) : rng();
			break;
		case 1:
			v = r->smin <= r->smax ? rnd_sin(r->smin, r->smax) : rng();
			break;
		case 2:
			v = r->umin <= r->umax ? rnd_in(r->umin >> 32, r->umax >> 32) << 32 : rng();
			v |= r->u32_min <= r->u32_max ? rnd_in(r->u32_min, r->u32_max) : 0;
			break;
		case 3:
			v = r->smin <= r->smax ? rnd_sin(r->smin >> 32, r->smax >> 32) << 32 : rng();
			v |= r->s32_min <= r->s32_max ? (uint32_t)rnd_sin(r->s32_min, r->s32_max) : 0;
			break;
		case 4:
			v = e[rnd_below(6)];
			break;
		case 5:
			v = e[rnd_below(6)] + rnd_below(9) - 4;
			break;
		case 6:
			v = (e[rnd_below(6)] & ~0xffffffffull) |
			    (rnd_below(2) ? r->u32_min : rnd_below(2) ? r->u32_max :
			     rnd_below(2) ? (uint32_t)r->s32_min : (uint32_t)r->s32_max);
			break;
		default:
			v = r->var_off.value | (rng() & r->var_off.mask);
			break;
		}
		if (rnd_below(2))
			v = (v & r->var_off.mask) | r->var_off.value;
		if (range_contains(r, v) != ref_contains(r, v))
			CHECK(0, "range_contains(%#" PRIx64 ") = %d, reference %d", v,
			      range_contains(r, v), ref_contains(r, v));
		if (ref_contains(r, v)) {
			*out = v;
			return true;
		}
	}
	return false;
}

#define K 8	/* members drawn per range */

static int sample_n(const struct range *r, uint64_t *out)
{
	int n = 0;

	for (int i = 0; i < K; i++)
		if (sample(r, &out[n]))
			n++;
	return n;
}

/* ---- soundness of each operation ---- */

/* v must be in res; a result that holds a value is not empty either. */
#define MEMBER(res, v, a, b, ...)                                                           \
	SOUND(ref_contains(res, v) && !range_is_empty(res), a, b, res, __VA_ARGS__)

/* A 32-bit result is zero-extended: every 64-bit view within [0, U32_MAX]. */
static bool is_zext32(const struct range *r)
{
	return range_is_empty(r) || (r->umax <= UINT32_MAX && r->smin >= 0 &&
				     r->smax <= UINT32_MAX && !(r->var_off.value >> 32) &&
				     !(r->var_off.mask >> 32));
}

/* Unsigned bounds of the compared width. */
static uint64_t umin_w(const struct range *r, bool is64) { return is64 ? r->umin : r->u32_min; }
static uint64_t umax_w(const struct range *r, bool is64) { return is64 ? r->umax : r->u32_max; }

/* What the analyzer relies on, on random inputs: the result lies within the textbook interval
 * whenever that interval does not wrap (it may be tighter).
 */
static void precise_alu(uint8_t op, bool is64, const struct range *a, const struct range *b,
			const struct range *r)
{
	unsigned __int128 lim = is64 ? UINT64_MAX : UINT32_MAX;
	unsigned __int128 alo = umin_w(a, is64), ahi = umax_w(a, is64);
	unsigned __int128 blo = umin_w(b, is64), bhi = umax_w(b, is64), lo, hi;
	uint64_t c = blo;

	switch (op) {
	case BPF_ADD:
		lo = alo + blo;
		hi = ahi + bhi;
		break;
	case BPF_SUB:
		if (alo < bhi)
			return;
		lo = alo - bhi;
		hi = ahi - blo;
		break;
	case BPF_MUL:
		lo = alo * blo;
		hi = ahi * bhi;
		break;
	case BPF_DIV:
		if (!blo)
			return;
		lo = alo / bhi;
		hi = ahi / blo;
		break;
	case BPF_MOD:
		if (!blo || blo != bhi)
			return;
		lo = 0;
		hi = c - 1;
		break;
	case BPF_AND:
		if (blo != bhi)
			return;
		lo = 0;
		hi = c;
		break;
	case BPF_RSH:
		if (blo != bhi || c >= (is64 ? 64 : 32))
			return;
		lo = alo >> c;
		hi = ahi >> c;
		break;
	default:
		return;
	}
	if (hi > lim || alo > ahi || blo > bhi || range_is_empty(r))
		return;
	SOUND(umin_w(r, is64) >= lo && umax_w(r, is64) <= hi, a, b, r,
	      "imprecise: op %#x is64 %d beyond the non-wrapping [%#" PRIx64 ", %#" PRIx64 "]", op,
	      is64, (uint64_t)lo, (uint64_t)hi);
}

/* Constants fold to constants. */
static void precise_const(const struct range *r, uint64_t v, const struct range *a,
			  const struct range *b, const char *what)
{
	SOUND(range_is_const(r) && r->umin == v, a, b, r, "imprecise: %s of constants is not %#"
	      PRIx64, what, v);
}

static void sound_alu(const struct range *a, const struct range *b, const uint64_t *xs, int nx,
		      const uint64_t *ys, int ny)
{
	for (unsigned o = 0; o < N_ALU; o++)
		for (int is64 = 0; is64 < 2; is64++)
			for (int sign = 0; sign < 2; sign++) {
				uint8_t op = alu_ops[o];
				struct range r;

				if (sign && op != BPF_DIV && op != BPF_MOD)
					continue;
				r = range_alu(op, is64, sign, a, b);
				if (!is64)
					SOUND(is_zext32(&r), a, b, &r, "w op %#x not zero-extended", op);
				if (range_is_const(a) && range_is_const(b))
					precise_const(&r, ref_alu(op, is64, sign, a->umin, b->umin), a,
						      b, "alu");
				if (!sign)
					precise_alu(op, is64, a, b, &r);
				for (int i = 0; i < nx; i++)
					for (int j = 0; j < 2; j++) {
						uint64_t x = xs[i], y = ys[(i + j) % ny];
						uint64_t z = ref_alu(op, is64, sign, x, y);

						MEMBER(&r, z, a, b,
						       "alu op %#x is64 %d sign %d: %#" PRIx64
						       " op %#" PRIx64 " = %#" PRIx64, op, is64, sign,
						       x, y, z);
					}
			}
}

static void sound_unary(const struct range *a, const uint64_t *xs, int nx)
{
	static const unsigned sx_bits[] = { 8, 16, 32 }, bytes[] = { 1, 2, 4, 8 },
			      swaps[] = { 16, 32, 64 };
	struct range r;

	bool c = range_is_const(a);

	for (int is64 = 0; is64 < 2; is64++) {
		r = range_neg(a, is64);
		if (c)
			precise_const(&r, ref_alu(BPF_NEG, is64, 0, a->umin, 0), a, NULL, "neg");
		if (!is64)
			SOUND(is_zext32(&r), a, NULL, &r, "w neg not zero-extended");
		for (int i = 0; i < nx; i++)
			MEMBER(&r, ref_alu(BPF_NEG, is64, 0, xs[i], 0), a, NULL,
			       "neg is64 %d of %#" PRIx64, is64, xs[i]);
		for (int k = 0; k < 3; k++) {
			r = range_movsx(a, sx_bits[k], is64);
			if (c)
				precise_const(&r, ref_movsx(a->umin, sx_bits[k], is64), a, NULL,
					      "movsx");
			if (!is64)
				SOUND(is_zext32(&r), a, NULL, &r, "w movsx not zero-extended");
			for (int i = 0; i < nx; i++)
				MEMBER(&r, ref_movsx(xs[i], sx_bits[k], is64), a, NULL,
				       "movsx%u is64 %d of %#" PRIx64, sx_bits[k], is64, xs[i]);
		}
	}
	r = range_zext32(a);
	for (int i = 0; i < nx; i++)
		MEMBER(&r, (uint32_t)xs[i], a, NULL, "zext32 of %#" PRIx64, xs[i]);
	for (int k = 0; k < 4; k++) {
		r = range_trunc(a, bytes[k]);
		if (c)
			precise_const(&r, ref_trunc(a->umin, bytes[k]), a, NULL, "trunc");
		for (int i = 0; i < nx; i++)
			MEMBER(&r, ref_trunc(xs[i], bytes[k]), a, NULL, "trunc %u of %#" PRIx64,
			       bytes[k], xs[i]);
		if (bytes[k] == 8)
			continue;
		r = range_sext(a, bytes[k]);
		if (c)
			precise_const(&r, ref_movsx(a->umin, 8 * bytes[k], true), a, NULL, "sext");
		for (int i = 0; i < nx; i++)
			MEMBER(&r, ref_movsx(xs[i], 8 * bytes[k], true), a, NULL,
			       "sext %u of %#" PRIx64, bytes[k], xs[i]);
	}
	for (int k = 0; k < 3; k++) {
		r = range_bswap(a, swaps[k]);
		if (c)
			precise_const(&r, ref_bswap(a->umin, swaps[k]), a, NULL, "bswap");
		for (int i = 0; i < nx; i++)
			MEMBER(&r, ref_bswap(xs[i], swaps[k]), a, NULL, "bswap%u of %#" PRIx64,
			       swaps[k], xs[i]);
	}
}

/* A step: small either sign, a power of two, or anything. */
static uint64_t rnd_step(void)
{
	switch (rnd_below(4)) {
	case 0: return rnd_below(17) - 8;
	case 1: return 1ull << rnd_below(64);
	case 2: return -(1ull << rnd_below(40));
	default: return interesting();
	}
}

static void rnd_krange(uint64_t *kmin, uint64_t *kmax)
{
	uint64_t a = rnd_below(3) ? rnd_below(200) : rnd_width(), b = a + rnd_width();

	*kmin = a;
	*kmax = b < a ? UINT64_MAX : b;
}

static void sound_recurrence(const struct range *a, const struct range *d, const uint64_t *xs,
			     int nx, const uint64_t *ds, int nd)
{
	uint64_t kmin, kmax, step = rnd_step();

	rnd_krange(&kmin, &kmax);
	for (unsigned width = 32; width <= 64; width += 32) {
		struct range r = range_add_scaled(a, step, kmin, kmax, width);

		if (width == 32)
			SOUND(is_zext32(&r), a, NULL, &r, "w add_scaled not zero-extended");
		if (range_is_const(a) && kmin == kmax)
			precise_const(&r, width == 32 ? (uint32_t)(a->umin + kmin * step) :
				      a->umin + kmin * step, a, NULL, "add_scaled");

		for (int i = 0; i < nx; i++) {
			uint64_t k = rnd_below(3) ? rnd_in(kmin, kmax) : rnd_below(2) ? kmin : kmax;
			uint64_t z = xs[i] + k * step;

			if (width == 32)
				z = (uint32_t)z;
			MEMBER(&r, z, a, NULL, "add_scaled w%u %#" PRIx64 " + %" PRIu64 " * %#" PRIx64
			       " (k in [%" PRIu64 ", %" PRIu64 "])", width, xs[i], k, step, kmin, kmax);
		}
	}
	if (rnd_below(2))
		kmax = kmin + rnd_below(20);
	for (int is64 = 0; is64 < 2; is64++) {
		struct range r = range_add_accum(a, d, kmin, kmax, is64);

		if (!is64)
			SOUND(is_zext32(&r), a, d, &r, "w add_accum not zero-extended");

		for (int i = 0; i < nx; i++) {
			uint64_t k = rnd_below(2) ? rnd_in(kmin, kmax) : rnd_below(2) ? kmin : kmax;
			uint64_t sum = 0, k1, z;

			if (k <= 16) {	/* k explicit terms */
				for (uint64_t j = 0; j < k; j++)
					sum += ds[rnd_below(nd)];
			} else {	/* k1 copies of one member, the rest of another */
				k1 = rnd_in(0, k);
				sum = k1 * ds[rnd_below(nd)] + (k - k1) * ds[rnd_below(nd)];
			}
			z = xs[i] + sum;
			if (!is64)
				z = (uint32_t)z;
			MEMBER(&r, z, a, d, "add_accum is64 %d: %#" PRIx64 " + sum %#" PRIx64
			       " (k = %" PRIu64 " in [%" PRIu64 ", %" PRIu64 "])", is64, xs[i], sum, k,
			       kmin, kmax);
		}
	}
}

static void sound_lattice(const struct range *a, const struct range *b, const uint64_t *xs,
			  int nx, const uint64_t *ys, int ny)
{
	struct range j = range_join(a, b), m = range_meet(a, b), w = range_widen(a, b);
	struct range w2 = range_widen(&j, b), s;

	for (int i = 0; i < nx; i++) {
		MEMBER(&j, xs[i], a, b, "join keeps a's %#" PRIx64, xs[i]);
		MEMBER(&w, xs[i], a, b, "widen keeps prev's %#" PRIx64, xs[i]);
		MEMBER(&w2, xs[i], &j, b, "widen keeps prev's %#" PRIx64, xs[i]);
		if (ref_contains(b, xs[i]))
			MEMBER(&m, xs[i], a, b, "meet keeps common %#" PRIx64, xs[i]);
	}
	for (int i = 0; i < ny; i++) {
		MEMBER(&j, ys[i], a, b, "join keeps b's %#" PRIx64, ys[i]);
		MEMBER(&w, ys[i], a, b, "widen keeps next's %#" PRIx64, ys[i]);
		if (ref_contains(a, ys[i]))
			MEMBER(&m, ys[i], a, b, "meet keeps common %#" PRIx64, ys[i]);
	}
	/* Syncing an unsynced copy keeps every member. */
	s = *a;
	range_sync(&s);
	for (int i = 0; i < nx; i++)
		MEMBER(&s, xs[i], a, NULL, "sync keeps %#" PRIx64, xs[i]);
	/* A synced range is a fixed point of sync (fixpoint iterations rely on it). */
	m = s;
	range_sync(&m);
	SOUND(range_equal(&m, &s), &s, NULL, &m, "sync is not idempotent");
}

static const uint8_t jmp_ops[] = { BPF_JEQ, BPF_JNE, BPF_JGT, BPF_JGE, BPF_JLT, BPF_JLE,
				   BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE, BPF_JSET };

static void sound_branches(const struct range *a, const struct range *b, const uint64_t *xs,
			   int nx, const uint64_t *ys, int ny)
{
	for (unsigned o = 0; o < sizeof(jmp_ops); o++)
		for (int is32 = 0; is32 < 2; is32++) {
			uint8_t op = jmp_ops[o];
			int certain = range_branch_outcome(op, is32, a, b);
			struct range ra[2] = { *a, *a }, rb[2] = { *b, *b };

			range_refine(op, is32, false, &ra[0], &rb[0]);
			range_refine(op, is32, true, &ra[1], &rb[1]);
			for (int i = 0; i < nx; i++)
				for (int j = 0; j < 3; j++) {
					uint64_t x = xs[i], y = ys[(i + j) % ny];
					bool t = ref_cond(op, is32, x, y);

					SOUND(certain < 0 || certain == t, a, b, NULL,
					      "outcome of op %#x is32 %d claimed %d, %#" PRIx64
					      " vs %#" PRIx64 " gives %d", op, is32, certain, x, y, t);
					MEMBER(&ra[t], x, a, b, "refine op %#x is32 %d taken %d loses"
					       " a's %#" PRIx64 " (b %#" PRIx64 ")", op, is32, t, x, y);
					MEMBER(&rb[t], y, a, b, "refine op %#x is32 %d taken %d loses"
					       " b's %#" PRIx64 " (a %#" PRIx64 ")", op, is32, t, y, x);
				}
		}
}

/* Hulls of known values, loosened, must never look empty and must survive sync. */
static void sound_sync(void)
{
	uint64_t v[4];
	int n = 1 + rnd_below(4);
	struct range r, s;

	for (int i = 0; i < n; i++)
		v[i] = i && rnd_below(2) ? v[0] + rnd_below(1000) - 500 : interesting();
	r = hull(v, n);
	loosen(&r);
	s = r;
	range_sync(&s);
	SOUND(!range_is_empty(&r), &r, NULL, NULL, "unsynced range with members looks empty");
	for (int i = 0; i < n; i++)
		MEMBER(&s, v[i], &r, NULL, "sync keeps %#" PRIx64, v[i]);
}

/* tnum operations on random tnums and members. */
static struct tnum rnd_tnum(void)
{
	uint64_t m = rnd_below(2) ? rng() & rng() : rng() >> rnd_below(64);

	return TNUM(rng() & ~m, m);
}

static void sound_tnum(void)
{
	struct tnum a = rnd_tnum(), b = rnd_tnum();
	unsigned s = rnd_below(64), s32 = rnd_below(32);

	for (int i = 0; i < 4; i++) {
		uint64_t x = a.value | (rng() & a.mask), y = b.value | (rng() & b.mask);
		uint64_t lo = x < y ? x : y, hi = x < y ? y : x;
		struct {
			struct tnum t;
			uint64_t v;
			const char *name;
		} c[] = {
			{ tnum_add(a, b), x + y, "add" },
			{ tnum_sub(a, b), x - y, "sub" },
			{ tnum_mul(a, b), x * y, "mul" },
			{ tnum_and(a, b), x & y, "and" },
			{ tnum_or(a, b), x | y, "or" },
			{ tnum_xor(a, b), x ^ y, "xor" },
			{ tnum_neg(a), -x, "neg" },
			{ tnum_lshift(a, s), x << s, "lshift" },
			{ tnum_rshift(a, s), x >> s, "rshift" },
			{ tnum_arshift(a, s, 64), (uint64_t)((int64_t)x >> s), "arshift64" },
			{ tnum_arshift(a, s32, 32), (uint32_t)((int32_t)x >> s32), "arshift32" },
			{ tnum_union(a, b), rnd_below(2) ? x : y, "union" },
			{ tnum_cast(a, 2), (uint16_t)x, "cast" },
			{ tnum_sext(a, 16), (uint64_t)(int16_t)x, "sext16" },
			{ tnum_sext(a, 32), (uint64_t)(int32_t)x, "sext32" },
			{ tnum_bswap(a, 32), __builtin_bswap32((uint32_t)x), "bswap32" },
			{ tnum_bswap(a, 64), __builtin_bswap64(x), "bswap64" },
			{ tnum_range(lo, hi), rnd_in(lo, hi), "range" },
		};

		for (unsigned k = 0; k < sizeof(c) / sizeof(c[0]); k++)
			SOUND(ref_tnum_has(c[k].t, c[k].v), NULL, NULL, NULL,
			      "tnum_%s: a (%#" PRIx64 "; %#" PRIx64 ") b (%#" PRIx64 "; %#" PRIx64
			      ") x %#" PRIx64 " y %#" PRIx64 " result %#" PRIx64, c[k].name, a.value,
			      a.mask, b.value, b.mask, x, y, c[k].v);
		if (ref_tnum_has(b, x))
			SOUND(ref_tnum_has(tnum_intersect(a, b), x), NULL, NULL, NULL,
			      "tnum_intersect loses %#" PRIx64, x);
		SOUND(tnum_in(tnum_union(a, b), a) && tnum_in(a, a), NULL, NULL, NULL, "tnum_in");
	}
}

/* BPFSCEV_SEED and BPFSCEV_RANGE_ITERS override the defaults for longer soaks. */
static void soundness(void)
{
	const char *seed = getenv("BPFSCEV_SEED"), *n = getenv("BPFSCEV_RANGE_ITERS");
	clock_t t0 = clock();
	int start = check_count, iters = n ? atoi(n) : 1500, skipped = 0;

	if (seed)
		rng_state = strtoull(seed, NULL, 0);

	for (int it = 0; it < iters; it++) {
		struct range a = gen_range(0), b;
		uint64_t xs[K], ys[K];
		int nx = sample_n(&a, xs), ny;

		if (!nx) {
			skipped++;
			continue;
		}
		b = gen_operand(xs, nx);
		ny = sample_n(&b, ys);
		if (!ny) {
			skipped++;
			continue;
		}
		sound_alu(&a, &b, xs, nx, ys, ny);
		sound_alu(&b, &a, ys, ny, xs, nx);
		sound_unary(&a, xs, nx);
		sound_recurrence(&a, &b, xs, nx, ys, ny);
		sound_lattice(&a, &b, xs, nx, ys, ny);
		sound_branches(&a, &b, xs, nx, ys, ny);
		sound_branches(&a, &a, xs, nx, xs, nx);
		for (int k = 0; k < 4; k++) {
			sound_sync();
			sound_tnum();
		}
	}
	printf("soundness: %d checks over %d range pairs (%d without members) in %.2f s\n",
	       check_count - start, iters - skipped, skipped,
	       (double)(clock() - t0) / CLOCKS_PER_SEC);
	/* A pair without members checks nothing: a generator or sampler that mostly finds none
	 * would leave the operations untested while the test passes. */
	CHECK(skipped <= iters / 50 + 1, "%d of %d range pairs had no members to check (at most "
	      "1 in 50 may have none)", skipped, iters);
}

/* ---- precision: exact expected fields ---- */

static void expect(const char *what, const struct range *r, uint64_t umin, uint64_t umax,
		   int64_t smin, int64_t smax, uint32_t u32_min, uint32_t u32_max, int32_t s32_min,
		   int32_t s32_max, uint64_t value, uint64_t mask)
{
	struct range e = { umin, umax, smin, smax, u32_min, u32_max, s32_min, s32_max,
			   TNUM(value, mask) };

	CHECK(range_equal(r, &e), "%s: fields differ", what);
	if (!range_equal(r, &e)) {
		dump("got", r);
		dump("want", &e);
	}
}

/* Only the 64-bit bounds (where the other fields are not the point). */
static void expect_u(const char *what, const struct range *r, uint64_t umin, uint64_t umax)
{
	CHECK(r->umin == umin && r->umax == umax, "%s: u64 [%#" PRIx64 ", %#" PRIx64 "], want [%#"
	      PRIx64 ", %#" PRIx64 "]", what, r->umin, r->umax, umin, umax);
}

static void expect_s(const char *what, const struct range *r, int64_t smin, int64_t smax)
{
	CHECK(r->smin == smin && r->smax == smax, "%s: s64 [%" PRId64 ", %" PRId64 "], want [%"
	      PRId64 ", %" PRId64 "]", what, r->smin, r->smax, smin, smax);
}

/* A non-negative interval below 2^31: the same in all four views. */
static void expect_small(const char *what, const struct range *r, uint64_t lo, uint64_t hi,
			 uint64_t value, uint64_t mask)
{
	expect(what, r, lo, hi, lo, hi, lo, hi, lo, hi, value, mask);
}

static void expect_const(const char *what, const struct range *r, uint64_t v)
{
	struct range c = range_const(v);

	CHECK(range_equal(r, &c), "%s: not the constant %#" PRIx64, what, v);
	if (!range_equal(r, &c))
		dump("got", r);
}

static struct range alu(uint8_t op, bool is64, const struct range *a, const struct range *b)
{
	return range_alu(op, is64, false, a, b);
}

static void precision_alu(void)
{
	struct range u = range_unknown(), r, a, b;
	struct range c4 = range_const(4), c5 = range_const(5), cff = range_const(0xff);

	/* Non-wrapping add is exact in every view. */
	a = range_urange(0, 10);
	r = alu(BPF_ADD, true, &a, &c5);
	expect_small("[0,10] + 5", &r, 5, 15, 0, 0xf);
	r = alu(BPF_ADD, false, &a, &c5);
	expect_small("w: [0,10] + 5", &r, 5, 15, 0, 0xf);

	/* The kernel's R6 example: r6 &= 0xff; r6 += 4. */
	r = alu(BPF_AND, true, &u, &cff);
	expect_small("unknown & 0xff", &r, 0, 255, 0, 0xff);
	r = alu(BPF_ADD, true, &r, &c4);
	expect_small("(x & 0xff) + 4", &r, 4, 259, 0, 0x1ff);

	/* A 32-bit add that wraps its low half as a whole stays exact. */
	a = range_urange(0xfffffff0, 0xffffffff);
	b = range_const(0x20);
	r = alu(BPF_ADD, false, &a, &b);
	expect_small("w: [0xfffffff0, 0xffffffff] + 0x20", &r, 0x10, 0x1f, 0x10, 0xf);

	/* Any 32-bit result is zero-extended. */
	r = alu(BPF_ADD, false, &u, &c5);
	expect("w: unknown + 5", &r, 0, UINT32_MAX, 0, UINT32_MAX, 0, UINT32_MAX, INT32_MIN,
	       INT32_MAX, 0, UINT32_MAX);

	/* 64-bit add tracks the subregister when the low halves do not wrap. */
	a = range_urange(0x100000000, 0x100000010);
	b = range_const(1);
	r = alu(BPF_ADD, true, &a, &b);
	expect("[2^32, 2^32 + 16] + 1", &r, 0x100000001, 0x100000011, 0x100000001, 0x100000011,
	       1, 0x11, 1, 0x11, 0x100000000, 0x1f);

	/* Adding a negative constant, and a difference that goes below zero. */
	a = range_urange(0, 10);
	b = range_const(-1);
	r = alu(BPF_ADD, true, &a, &b);
	expect_s("[0,10] + -1 (signed)", &r, -1, 9);
	expect_u("[0,10] + -1 (unsigned wraps)", &r, 0, UINT64_MAX);
	b = range_const(20);
	r = alu(BPF_SUB, true, &a, &b);
	expect("[0,10] - 20", &r, -20ull, -10ull, -20, -10, -20u, -10u, -20, -10, -32ull, 0x1f);
	a = range_urange(10, 20);
	r = alu(BPF_SUB, true, &a, &c5);
	expect_small("[10,20] - 5", &r, 5, 15, 0, 0xf);

	/* Multiplication without overflow is exact; with possible overflow, unknown. */
	a = range_urange(2, 3);
	b = range_urange(4, 5);
	r = alu(BPF_MUL, true, &a, &b);
	expect_small("[2,3] * [4,5]", &r, 8, 15, 8, 7);
	a = range_urange(0, 1ull << 33);
	r = alu(BPF_MUL, true, &a, &a);
	expect_u("[0,2^33] * [0,2^33]", &r, 0, UINT64_MAX);
	a = range_const(0x10000);
	r = alu(BPF_MUL, false, &a, &a);
	expect_const("w: 0x10000 * 0x10000", &r, 0);
	a = range_const(1ull << 40);
	r = alu(BPF_MUL, true, &a, &a);
	expect_const("2^40 * 2^40 wraps to 0", &r, 0);

	/* Unsigned division and remainder. */
	a = range_urange(100, 200);
	b = range_urange(3, 4);
	r = alu(BPF_DIV, true, &a, &b);
	expect_small("[100,200] / [3,4]", &r, 25, 66, 0, 0x7f);
	b = range_urange(0, 4);
	r = alu(BPF_DIV, true, &a, &b);
	expect_small("[100,200] / [0,4]", &r, 0, 200, 0, 0xff);
	a = range_urange(0, 1000);
	b = range_const(10);
	r = alu(BPF_MOD, true, &a, &b);
	expect_small("[0,1000] % 10", &r, 0, 9, 0, 0xf);
	a = range_urange(3, 5);
	b = range_urange(10, 20);
	r = alu(BPF_MOD, true, &a, &b);
	expect_small("[3,5] % [10,20]", &r, 3, 5, 0, 7);
	a = range_const(7);
	b = range_const(0);
	r = alu(BPF_DIV, true, &a, &b);
	expect_const("7 / 0", &r, 0);
	r = alu(BPF_MOD, true, &a, &b);
	expect_const("7 % 0", &r, 7);
	a = range_const(0x500000007);
	r = alu(BPF_MOD, false, &a, &b);
	expect_const("w: 0x5_00000007 % 0 keeps the low half", &r, 7);
	r = range_alu(BPF_MOD, true, true, &a, &b);
	expect_const("0x5_00000007 smod 0", &r, 0x500000007);

	/* Signed division and remainder, including S_MIN / -1. */
	a = range_const(INT64_MIN);
	b = range_const(-1);
	r = range_alu(BPF_DIV, true, true, &a, &b);
	expect_const("S64_MIN sdiv -1", &r, (uint64_t)INT64_MIN);
	r = range_alu(BPF_MOD, true, true, &a, &b);
	expect_const("S64_MIN smod -1", &r, 0);
	a = range_const(0x80000000);
	r = range_alu(BPF_DIV, false, true, &a, &b);
	expect_const("w: S32_MIN sdiv -1", &r, 0x80000000);
	r = range_alu(BPF_MOD, false, true, &a, &b);
	expect_const("w: S32_MIN smod -1", &r, 0);
	a = range_srange(-100, 100);
	b = range_urange(2, 5);
	r = range_alu(BPF_DIV, true, true, &a, &b);
	expect_s("[-100,100] sdiv [2,5]", &r, -50, 50);
	a = range_srange(-100, 7);
	b = range_const(10);
	r = range_alu(BPF_MOD, true, true, &a, &b);
	expect_s("[-100,7] smod 10", &r, -9, 7);
	a = range_srange(-7, -3);
	b = range_const(-2);
	r = range_alu(BPF_DIV, true, true, &a, &b);
	expect_small("[-7,-3] sdiv -2", &r, 1, 3, 0, 3);

	/* AND with a mask, OR and XOR. */
	a = range_urange(0x1000, 0x1fff);
	b = range_const(0xf0);
	r = alu(BPF_AND, true, &a, &b);
	expect_small("[0x1000,0x1fff] & 0xf0", &r, 0, 0xf0, 0, 0xf0);
	a = range_urange(0, 7);
	b = range_const(0x10);
	r = alu(BPF_OR, true, &a, &b);
	expect_small("[0,7] | 0x10", &r, 0x10, 0x17, 0x10, 7);
	r = alu(BPF_XOR, true, &a, &b);
	expect_small("[0,7] ^ 0x10", &r, 0x10, 0x17, 0x10, 7);
	a = range_srange(-8, -1);
	b = range_const(0xff);
	r = alu(BPF_AND, false, &a, &b);
	expect_small("w: [-8,-1] & 0xff", &r, 0xf8, 0xff, 0xf8, 7);
}

static void precision_shifts(void)
{
	struct range a, b, r, u = range_unknown();

	a = range_urange(1, 3);
	b = range_const(2);
	r = alu(BPF_LSH, true, &a, &b);
	expect_small("[1,3] << 2", &r, 4, 12, 0, 0xc);
	a = range_const(1);
	b = range_urange(0, 3);
	r = alu(BPF_LSH, true, &a, &b);
	expect_small("1 << [0,3]", &r, 1, 8, 0, 0xf);
	a = range_const(3);
	b = range_const(65);	/* masked to 1 */
	r = alu(BPF_LSH, true, &a, &b);
	expect_const("3 << 65", &r, 6);
	b = range_const(33);
	r = alu(BPF_LSH, false, &a, &b);
	expect_const("w: 3 << 33", &r, 6);
	a = range_urange(256, 1023);
	b = range_const(4);
	r = alu(BPF_RSH, true, &a, &b);
	expect_small("[256,1023] >> 4", &r, 16, 63, 0, 0x3f);
	b = range_const(60);
	r = alu(BPF_RSH, true, &u, &b);
	expect_small("unknown >> 60", &r, 0, 15, 0, 0xf);
	a = range_srange(-64, 63);
	b = range_const(3);
	r = alu(BPF_ARSH, true, &a, &b);
	expect_s("[-64,63] s>> 3", &r, -8, 7);
	r = alu(BPF_ARSH, false, &a, &b);
	expect("w: [-64,63] s>> 3", &r, 0, UINT32_MAX, 0, UINT32_MAX, 0, UINT32_MAX, -8, 7, 0,
	       UINT32_MAX);
	a = range_const(0x8000000000000000);
	b = range_const(63);
	r = alu(BPF_ARSH, true, &a, &b);
	expect_const("S64_MIN s>> 63", &r, UINT64_MAX);
	/* A 64-bit shift left by 32 or more leaves a zero low half. */
	a = range_urange(0, 0xffff);
	b = range_const(32);
	r = alu(BPF_LSH, true, &a, &b);
	expect("[0,0xffff] << 32", &r, 0, 0xffff00000000, 0, 0xffff00000000, 0, 0, 0, 0, 0,
	       0xffff00000000);
}

static void precision_unary(void)
{
	struct range a, r;

	a = range_const(5);
	r = range_neg(&a, true);
	expect_const("-5", &r, -5ull);
	a = range_urange(1, 10);
	r = range_neg(&a, true);
	expect("-[1,10]", &r, -10ull, -1ull, -10, -1, -10u, -1u, -10, -1, -16ull, 0xf);
	a = range_const(0x80);
	r = range_movsx(&a, 8, true);
	expect_const("movsx8 0x80", &r, -128ull);
	a = range_urange(0x80, 0x90);
	r = range_movsx(&a, 8, true);
	expect("movsx8 [0x80,0x90]", &r, -128ull, -112ull, -128, -112, -128u, -112u, -128, -112,
	       -128ull, 0x1f);
	a = range_urange(0x70, 0x90);
	r = range_movsx(&a, 8, true);
	expect_s("movsx8 [0x70,0x90]", &r, -128, 127);
	a = range_const(0x8000);
	r = range_movsx(&a, 16, false);
	expect_const("w: movsx16 0x8000", &r, 0xffff8000);
	a = range_const(0xdeadbeef12345678);
	r = range_zext32(&a);
	expect_const("zext32", &r, 0x12345678);
	/* (the subregister's signed view survives: a helper's [-MAX_ERRNO, 16] after w0 = w0,
	 * whose s32 bounds the kernel keeps, so w0 s< 1's other branch is [1, 16]) */
	a = range_srange(-4095, 16);
	r = range_zext32(&a);
	CHECK(r.s32_min == -4095 && r.s32_max == 16 && r.umin == 0 && r.umax == UINT32_MAX,
	      "zext32 [-4095, 16]: s32 [%d, %d] u64 [%#" PRIx64 ", %#" PRIx64 "], want s32 "
	      "[-4095, 16] u64 [0, 0xffffffff]", r.s32_min, r.s32_max, r.umin, r.umax);
	a = range_urange(0x105, 0x10a);
	r = range_trunc(&a, 1);
	expect_small("trunc1 [0x105,0x10a]", &r, 5, 10, 0, 0xf);
	a = range_const(0xffff);
	r = range_sext(&a, 2);
	expect_const("sext2 0xffff", &r, UINT64_MAX);
	a = range_const(0x1234);
	r = range_bswap(&a, 16);
	expect_const("bswap16", &r, 0x3412);
	a = range_const(0x12345678);
	r = range_bswap(&a, 32);
	expect_const("bswap32", &r, 0x78563412);
	a = range_const(0x0102030405060708);
	r = range_bswap(&a, 64);
	expect_const("bswap64", &r, 0x0807060504030201);
	a = range_urange(0, 255);
	r = range_bswap(&a, 16);
	expect_small("bswap16 [0,255]", &r, 0, 0xff00, 0, 0xff00);
	/* movsx 32 into 64: the s32 bounds become the s64 bounds. */
	a = range_unknown();
	a.s32_min = -5;
	a.s32_max = 5;
	range_sync(&a);
	r = range_movsx(&a, 32, true);
	expect_s("movsx32 of s32 [-5,5]", &r, -5, 5);
}

static void precision_lattice(void)
{
	struct range a, b, r, e = range_empty();

	a = range_urange(0, 5);
	b = range_urange(10, 20);
	r = range_join(&a, &b);
	expect_small("[0,5] join [10,20]", &r, 0, 20, 0, 0x1f);
	a = range_const(4);
	b = range_const(12);
	r = range_join(&a, &b);
	expect_small("4 join 12", &r, 4, 12, 4, 8);
	r = range_join(&e, &a);
	expect_const("empty join 4", &r, 4);
	a = range_urange(0, 10);
	b = range_urange(5, 20);
	r = range_meet(&a, &b);
	expect_small("[0,10] meet [5,20]", &r, 5, 10, 0, 0xf);
	b = range_urange(11, 20);
	r = range_meet(&a, &b);
	CHECK(range_is_empty(&r), "[0,10] meet [11,20] is empty");
	a = range_const(8);
	b = range_unknown();
	b.var_off = TNUM(1, ~1ull);	/* odd numbers */
	r = range_meet(&a, &b);
	CHECK(range_is_empty(&r), "8 meet odd is empty");

	/* Widening jumps to thresholds and stops. */
	a = range_urange(0, 4);
	b = range_urange(0, 8);
	r = range_widen(&a, &b);
	expect_small("widen [0,4] by [0,8] (first threshold: S32_MAX)", &r, 0, INT32_MAX, 0,
		     INT32_MAX);
	a = r;
	b = range_urange(0, 0x80000000);
	r = range_widen(&a, &b);
	expect_u("widen [0,S32_MAX] by [0,2^31]", &r, 0, UINT32_MAX);
	a = range_urange(0, 4);
	b = range_urange(0, 5);
	r = range_widen(&a, &b);
	expect_small("widen [0,4] by [0,5] (both var_off (0; 7))", &r, 0, 7, 0, 7);
	a = range_srange(-10, 10);
	b = range_srange(-11, 10);
	r = range_widen(&a, &b);
	expect_s("widen s[-10,10] by s[-11,10]", &r, INT32_MIN, 10);
	a = range_const(0);
	b = range_urange(0, 4);	/* a stride-4 IV after one step: the alignment survives */
	b.var_off = TNUM(0, 4);
	range_sync(&b);
	r = range_widen(&a, &b);
	CHECK(r.var_off.value == 0 && r.var_off.mask == (INT32_MAX & ~3ull) && r.umax == (INT32_MAX & ~3ull),
	      "widen {0,+,4}: var_off (%#" PRIx64 "; %#" PRIx64 ") umax %#" PRIx64,
	      r.var_off.value, r.var_off.mask, r.umax);
	{
		struct range cur = range_const(0), one = range_const(1), next;
		int steps = 0;

		/* i = 0; loop: i += 1 — the widened invariant must become stable quickly. */
		for (; steps < 20; steps++) {
			next = alu(BPF_ADD, true, &cur, &one);
			next = range_join(&cur, &next);
			if (range_subset(&next, &cur))
				break;
			cur = range_widen(&cur, &next);
		}
		CHECK(steps <= 6, "widening of i += 1 took %d steps", steps);
		CHECK(ref_contains(&cur, 0) && ref_contains(&cur, 12345), "widened invariant");
	}

	/* Predicates. */
	a = range_const(7);
	CHECK(range_is_const(&a) && !range_is_const(&e), "is_const");
	r = range_unknown();
	CHECK(range_is_unknown(&r) && !range_is_unknown(&a), "is_unknown");
	b = range_urange(0, 10);
	CHECK(range_subset(&a, &b) && !range_subset(&b, &a) && range_subset(&e, &a), "subset");
	CHECK(!range_is_empty(&a) && range_is_empty(&e), "is_empty");
}

static void precision_sync(void)
{
	struct range r;

	/* Inside one 32-bit block the low halves form an interval. */
	r = range_urange(0x10000000a, 0x10000000f);
	expect("u64 in one block", &r, 0x10000000a, 0x10000000f, 0x10000000a, 0x10000000f, 0xa, 0xf,
	       0xa, 0xf, 0x100000008, 7);
	/* s64 [-1, 1] has s32 [-1, 1] and nothing else. */
	r = range_srange(-1, 1);
	expect("s64 [-1,1]", &r, 0, UINT64_MAX, -1, 1, 0, UINT32_MAX, -1, 1, 0, UINT64_MAX);
	/* The kernel's mixed-bounds example: s32 > 0 trims both 64-bit ends. */
	r = range_unknown();
	r.umin = 0x100000000;
	r.umax = 0x380000000;
	r.s32_min = 1;
	range_sync(&r);
	expect("u64 [0x1_00000000, 0x3_80000000], s32 [1, S32_MAX]", &r, 0x100000001, 0x37fffffff,
	       0x100000001, 0x37fffffff, 1, INT32_MAX, 1, INT32_MAX, 0, 0x37fffffff);
	/* After a sign-extending move: upper half all 0s or all 1s, low half non-negative. */
	r = range_srange(INT32_MIN, INT32_MAX);
	r.s32_min = 0;
	r.s32_max = 100;
	range_sync(&r);
	expect_small("s64 within s32, s32 [0,100]", &r, 0, 100, 0, 0x7f);
	/* A 64-bit bound whose low half is outside the u32 bounds moves to the nearest block. */
	r = range_urange(0x100000050, 0x300000010);
	r.u32_min = 0x20;
	r.u32_max = 0x40;
	range_sync(&r);
	expect_u("block skipping", &r, 0x200000020, 0x200000040);
	/* A tnum that no value in the bounds matches: empty. */
	r = range_unknown();
	r.var_off = TNUM(0, 0xf0);
	r.umin = 1;
	r.umax = 15;
	CHECK(range_is_empty(&r), "bounds [1,15] with var_off (0; 0xf0) are empty");
	range_sync(&r);
	CHECK(range_is_empty(&r), "and stay empty when synced");
	/* ... and one that does: not empty. */
	r = range_unknown();
	r.var_off = TNUM(0, 0xf0);
	r.umin = 1;
	r.umax = 16;
	CHECK(!range_is_empty(&r), "bounds [1,16] with var_off (0; 0xf0) hold 16");
	range_sync(&r);
	expect_const("which sync finds", &r, 16);
}

static void precision_branches(void)
{
	struct range a, b, c;

	a = range_urange(0, 100);
	c = range_const(10);
	b = c;
	range_refine(BPF_JLT, false, true, &a, &b);
	expect_small("[0,100] < 10", &a, 0, 9, 0, 0xf);
	a = range_urange(0, 100);
	range_refine(BPF_JLT, false, false, &a, &b);
	expect_small("[0,100] >= 10", &a, 10, 100, 0, 0x7f);
	a = range_urange(0, 10);
	b = range_const(0);
	range_refine(BPF_JNE, false, true, &a, &b);
	expect_small("[0,10] != 0", &a, 1, 10, 0, 0xf);
	b = range_const(10);
	range_refine(BPF_JNE, false, true, &a, &b);
	expect_small("[1,10] != 10", &a, 1, 9, 0, 0xf);
	a = range_urange(0, 10);
	b = range_const(5);
	range_refine(BPF_JEQ, false, true, &a, &b);
	expect_const("[0,10] == 5", &a, 5);
	a = range_urange(0, 10);
	b = range_urange(5, 20);
	range_refine(BPF_JEQ, false, true, &a, &b);
	expect_small("[0,10] == [5,20] (a)", &a, 5, 10, 0, 0xf);
	expect_small("[0,10] == [5,20] (b)", &b, 5, 10, 0, 0xf);
	a = range_srange(-100, 100);
	b = range_const(0);
	range_refine(BPF_JSGT, false, true, &a, &b);
	expect_small("[-100,100] s> 0", &a, 1, 100, 0, 0x7f);
	a = range_srange(-100, 100);
	range_refine(BPF_JSGT, false, false, &a, &b);
	expect_s("[-100,100] s<= 0", &a, -100, 0);
	a = range_urange(0, 100);
	b = range_urange(50, 60);
	range_refine(BPF_JGT, false, true, &a, &b);
	expect_small("[0,100] > [50,60] (a)", &a, 51, 100, 0, 0x7f);
	expect_small("[0,100] > [50,60] (b)", &b, 50, 60, 0x30, 0xf);
	a = range_urange(0, 100);
	b = range_urange(50, 60);
	range_refine(BPF_JGT, false, false, &a, &b);
	expect_small("[0,100] <= [50,60] (a)", &a, 0, 60, 0, 0x3f);
	/* JSET with one bit: taken sets it, not taken clears it. */
	a = range_urange(0, 255);
	b = range_const(0x80);
	range_refine(BPF_JSET, false, true, &a, &b);
	expect_small("[0,255] & 0x80 != 0", &a, 128, 255, 0x80, 0x7f);
	a = range_urange(0, 255);
	range_refine(BPF_JSET, false, false, &a, &b);
	expect_small("[0,255] & 0x80 == 0", &a, 0, 127, 0, 0x7f);
	a = range_unknown();
	b = range_const(3);
	range_refine(BPF_JSET, false, false, &a, &b);
	CHECK(a.var_off.value == 0 && a.var_off.mask == ~3ull, "x & 3 == 0 clears the low bits");
	/* JMP32 refines the subregister; sync carries it to the 64-bit bounds. */
	a = range_unknown();
	b = range_const(16);
	range_refine(BPF_JLT, true, true, &a, &b);
	expect("w: unknown < 16", &a, 0, 0xffffffff0000000f, INT64_MIN, 0x7fffffff0000000f, 0, 15,
	       0, 15, 0, 0xffffffff0000000f);
	/* A stride-4 IV in [0, 400] that is not 400 is at most 396 (the bound moves onto the
	 * tnum's members). */
	a = range_const(0);
	a = range_add_scaled(&a, 4, 0, 100, 64);
	b = range_const(400);
	range_refine(BPF_JNE, false, true, &a, &b);
	expect_small("{0,+,4} != 400", &a, 0, 396, 0, 0x1fc);
	/* JMP32 on a value inside one 32-bit block bounds the whole value. */
	a = range_urange(0x100000000, 0x1ffffffff);
	b = range_const(16);
	range_refine(BPF_JLT, true, true, &a, &b);
	expect("w: [2^32, 2^33 - 1] < 16", &a, 0x100000000, 0x10000000f, 0x100000000, 0x10000000f,
	       0, 15, 0, 15, 0x100000000, 0xf);
	/* A branch that cannot go this way leaves nothing. */
	a = range_urange(0, 10);
	b = range_const(20);
	range_refine(BPF_JGT, false, true, &a, &b);
	CHECK(range_is_empty(&a) && range_is_empty(&b), "[0,10] > 20 is dead");

	/* Certain outcomes. */
	a = range_urange(0, 10);
	b = range_const(20);
	CHECK(range_branch_outcome(BPF_JGT, false, &a, &b) == 0, "[0,10] > 20 never");
	CHECK(range_branch_outcome(BPF_JLE, false, &a, &b) == 1, "[0,10] <= 20 always");
	a = range_urange(0, 30);
	CHECK(range_branch_outcome(BPF_JGT, false, &a, &b) == -1, "[0,30] > 20 either");
	a = range_const(0x10);
	b = range_const(0x10);
	CHECK(range_branch_outcome(BPF_JSET, false, &a, &b) == 1, "0x10 & 0x10");
	a = range_urange(0, 7);
	b = range_const(8);
	CHECK(range_branch_outcome(BPF_JSET, false, &a, &b) == 0, "[0,7] & 8");
	a = range_const(0x100000001);
	b = range_const(0x200000001);
	CHECK(range_branch_outcome(BPF_JEQ, true, &a, &b) == 1, "w: equal low halves");
	CHECK(range_branch_outcome(BPF_JEQ, false, &a, &b) == 0, "different 64-bit values");
	a = range_srange(-5, -1);
	b = range_const(0);
	CHECK(range_branch_outcome(BPF_JSLT, false, &a, &b) == 1, "[-5,-1] s< 0");
	CHECK(range_branch_outcome(BPF_JLT, false, &a, &b) == 0, "[-5,-1] u< 0");
}

static void precision_recurrences(void)
{
	struct range a, d, r;

	/* {0, +, 4} for k in [0, 99]: array index with stride 4. */
	a = range_const(0);
	r = range_add_scaled(&a, 4, 0, 99, 64);
	expect_small("{0,+,4} k in [0,99]", &r, 0, 396, 0, 0x1fc);
	r = range_add_scaled(&a, 4, 0, 99, 32);
	expect_small("w: {0,+,4} k in [0,99]", &r, 0, 396, 0, 0x1fc);
	/* A 32-bit counter that wraps covers the whole subregister. */
	r = range_add_scaled(&a, 1, 0, 1ull << 32, 32);
	expect("w: {0,+,1} k in [0,2^32]", &r, 0, UINT32_MAX, 0, UINT32_MAX, 0, UINT32_MAX,
	       INT32_MIN, INT32_MAX, 0, UINT32_MAX);
	/* A signed IV going negative: exact signed, unknown unsigned. */
	a = range_const(10);
	r = range_add_scaled(&a, -1ull, 0, 20, 64);
	expect_s("{10,+,-1} k in [0,20]", &r, -10, 10);
	expect_u("{10,+,-1} k in [0,20] (unsigned)", &r, 0, UINT64_MAX);
	CHECK(r.s32_min == -10 && r.s32_max == 10, "{10,+,-1}: s32 [%d, %d]", r.s32_min,
	      r.s32_max);
	/* 32-bit: the high bits of the start are dropped; the odd start keeps bit 0. */
	a = range_const(0x500000003);
	r = range_add_scaled(&a, 2, 0, 10, 32);
	expect_small("w: {0x5_00000003,+,2} k in [0,10]", &r, 3, 23, 1, 0x1e);
	/* A 32-bit step is a signed 32-bit value even when given zero-extended: -1 here. */
	a = range_const(10);
	r = range_add_scaled(&a, 0xffffffff, 0, 5, 32);
	expect_small("w: {10,+,0xffffffff} k in [0,5]", &r, 5, 10, 0, 0xf);
	/* Counting down by 8 from 800 over 100 iterations reaches 0, not below. */
	a = range_const(800);
	r = range_add_scaled(&a, -8ull, 0, 100, 64);
	expect_small("{800,+,-8} k in [0,100]", &r, 0, 800, 0, 0x3f8);
	/* Accumulation x += d, d in [1, 3], up to 10 times. */
	a = range_const(0);
	d = range_urange(1, 3);
	r = range_add_accum(&a, &d, 0, 10, true);
	expect_small("0 + up to 10 terms in [1,3]", &r, 0, 30, 0, 0x1f);
	d = range_const(8);
	r = range_add_accum(&a, &d, 1, 4, true);
	expect_small("0 + k * 8, k in [1,4]", &r, 8, 32, 0, 0x38);
	d = range_srange(-2, 1);
	r = range_add_accum(&a, &d, 0, 5, true);
	expect_s("0 + up to 5 terms in [-2,1]", &r, -10, 5);
}

/* ---- range_sync and range_is_empty of commit 98d72d1, references for their successors ---- */

/* range_sync() was made cheaper by skipping steps that cannot change anything, and both it and
 * range_is_empty() now take the low half of a tnum inline; they must give exactly what this
 * copy of the previous code gives, field by field.  Names carry "old_"; the code is otherwise
 * as it was (tnum_subreg was then tnum_cast(a, 4)).
 */
#define LO32 0xffffffffULL
#define SIGN64 (1ULL << 63)
#define SIGN32 0x80000000ULL

struct old_ivl {
	uint64_t umin, umax;
	int64_t smin, smax;
};

static uint64_t old_umin64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static uint64_t old_umax64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static int64_t old_smin64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t old_smax64(int64_t a, int64_t b) { return a > b ? a : b; }
static struct tnum old_tnum_subreg(struct tnum a) { return tnum_cast(a, 4); }

/* The low 'bits' bits of x, sign-extended (no signed shifts, no overflow). */
static uint64_t old_sext_bits(uint64_t x, unsigned bits)
{
	uint64_t sign = 1ULL << (bits - 1);

	if (bits >= 64)
		return x;
	x &= (sign << 1) - 1;
	return (x ^ sign) - sign;
}

/* Bounds of the members of t, a tnum of w-bit values: the smallest unsigned member has every
 * unknown bit 0; the smallest signed one has an unknown sign bit 1 and the others 0.
 */
static struct old_ivl old_ivl_from_tnum(struct tnum t, unsigned w)
{
	uint64_t sign = 1ULL << (w - 1);

	return (struct old_ivl){ t.value, t.value | t.mask,
			     (int64_t)old_sext_bits(t.value | (t.mask & sign), w),
			     (int64_t)old_sext_bits(t.value | (t.mask & ~sign), w) };
}

static void old_tighten_u64(struct range *r, uint64_t lo, uint64_t hi)
{
	r->umin = old_umax64(r->umin, lo);
	r->umax = old_umin64(r->umax, hi);
}

static void old_tighten_s64(struct range *r, int64_t lo, int64_t hi)
{
	r->smin = old_smax64(r->smin, lo);
	r->smax = old_smin64(r->smax, hi);
}

static void old_tighten_u32(struct range *r, uint32_t lo, uint32_t hi)
{
	if (lo > r->u32_min)
		r->u32_min = lo;
	if (hi < r->u32_max)
		r->u32_max = hi;
}

static void old_tighten_s32(struct range *r, int32_t lo, int32_t hi)
{
	if (lo > r->s32_min)
		r->s32_min = lo;
	if (hi < r->s32_max)
		r->s32_max = hi;
}

/* Kernel __update_reg_bounds: every member lies between the tnum's smallest and largest. */
static void old_bounds_from_tnum(struct range *r)
{
	struct old_ivl v = old_ivl_from_tnum(r->var_off, 64),
		       s = old_ivl_from_tnum(old_tnum_subreg(r->var_off), 32);

	old_tighten_u64(r, v.umin, v.umax);
	old_tighten_s64(r, v.smin, v.smax);
	old_tighten_u32(r, s.umin, s.umax);
	old_tighten_s32(r, s.smin, s.smax);
}

/* Kernel __reg32_deduce_bounds: subregister bounds from the 64-bit ones, then u32 <-> s32. */
static void old_deduce_sub_from_64(struct range *r)
{
	uint32_t uhi0 = r->umin >> 32, uhi1 = r->umax >> 32;
	uint32_t shi0 = (uint64_t)r->smin >> 32, shi1 = (uint64_t)r->smax >> 32;

	/* Inside one 32-bit block the low halves of the bounds bound the low halves: u64
	 * [0x1_0000000a, 0x1_0000000f] has u32 [0xa, 0xf]. */
	if (uhi0 == uhi1) {
		old_tighten_u32(r, r->umin, r->umax);
		if ((int32_t)r->umin <= (int32_t)r->umax)
			old_tighten_s32(r, r->umin, r->umax);
	}
	if (shi0 == shi1) {
		if ((uint32_t)r->smin <= (uint32_t)r->smax)
			old_tighten_u32(r, r->smin, r->smax);
		if ((int32_t)r->smin <= (int32_t)r->smax)
			old_tighten_s32(r, r->smin, r->smax);
	}
	/* Across two adjacent blocks, low halves running from a negative s32 up through -1, 0 to
	 * a non-negative one form one s32 interval: s64 [-1, 1] has s32 [-1, 1]. */
	if (uhi0 + 1 == uhi1 && (int32_t)r->umin < 0 && (int32_t)r->umax >= 0)
		old_tighten_s32(r, r->umin, r->umax);
	if (shi0 + 1 == shi1 && (int32_t)r->smin < 0 && (int32_t)r->smax >= 0)
		old_tighten_s32(r, r->smin, r->smax);
	/* An s32 interval through 0 is two u32 pieces, [0, s32_max] and [s32_min, U32_MAX]; u32
	 * bounds that exclude one piece select the other. */
	if (r->s32_min < 0 && r->s32_max >= 0) {
		if (r->u32_max < (uint32_t)r->s32_min)
			old_tighten_u32(r, 0, r->s32_max);
		else if (r->u32_min > (uint32_t)r->s32_max)
			old_tighten_u32(r, r->s32_min, UINT32_MAX);
	}
	/* An interval that does not cross the other view's wrap point reads the same in both. */
	if ((int32_t)r->u32_min <= (int32_t)r->u32_max)
		old_tighten_s32(r, r->u32_min, r->u32_max);
	if ((uint32_t)r->s32_min <= (uint32_t)r->s32_max)
		old_tighten_u32(r, r->s32_min, r->s32_max);
}

/* Kernel __reg64_deduce_bounds: u64 <-> s64, the same three rules as for 32 bits. */
static void old_deduce_64_sign(struct range *r)
{
	if (r->smin < 0 && r->smax >= 0) {
		if (r->umax < (uint64_t)r->smin)
			old_tighten_u64(r, 0, r->smax);
		else if (r->umin > (uint64_t)r->smax)
			old_tighten_u64(r, r->smin, UINT64_MAX);
	}
	if ((int64_t)r->umin <= (int64_t)r->umax)
		old_tighten_s64(r, r->umin, r->umax);
	if ((uint64_t)r->smin <= (uint64_t)r->smax)
		old_tighten_u64(r, r->smin, r->smax);
}

/* Moves the bounds [*lo, *hi] of a 64-bit value inward to the nearest values whose low half is
 * in [lmin, lmax] (an lo with a low half above lmax jumps to the next block).  No such value:
 * *lo > *hi afterwards.
 */
static void old_tighten_by_low(uint64_t *lo, uint64_t *hi, uint32_t lmin, uint32_t lmax)
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
static void old_deduce_64_from_sub(struct range *r)
{
	uint64_t slo = (uint64_t)r->smin ^ SIGN64, shi = (uint64_t)r->smax ^ SIGN64;

	old_tighten_by_low(&r->umin, &r->umax, r->u32_min, r->u32_max);
	old_tighten_by_low(&slo, &shi, r->u32_min, r->u32_max);
	if ((uint32_t)r->s32_min <= (uint32_t)r->s32_max) {
		old_tighten_by_low(&r->umin, &r->umax, r->s32_min, r->s32_max);
		old_tighten_by_low(&slo, &shi, r->s32_min, r->s32_max);
	}
	if (slo > shi) {
		r->smin = INT64_MAX;
		r->smax = INT64_MIN;
	} else {
		old_tighten_s64(r, (int64_t)(slo ^ SIGN64), (int64_t)(shi ^ SIGN64));
	}
	/* After a sign-extending move the upper half is all 0s or all 1s; with a non-negative low
	 * half an all-1s upper half would be below S32_MIN, so the value is its low half. */
	if (r->s32_min >= 0 && r->smin >= INT32_MIN && r->smax <= INT32_MAX) {
		old_tighten_s64(r, r->s32_min, r->s32_max);
		old_tighten_u64(r, r->s32_min, r->s32_max);
	}
}

static void old_deduce_bounds(struct range *r)
{
	old_deduce_sub_from_64(r);
	old_deduce_64_sign(r);
	old_deduce_64_from_sub(r);
}

/* Smallest member of t that is >= x, if any.  Above the highest bit p where x breaks a known
 * bit, x already agrees with t.  If t needs a 1 at p, x's prefix, that 1 and t's minimum below
 * do.  If t needs a 0 there, the prefix must grow: set the lowest unknown bit above p that x
 * has clear, and take t's minimum below it.
 */
static bool old_tnum_next(struct tnum t, uint64_t x, uint64_t *out)
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

/* Largest member of t that is <= x: the smallest member >= ~x of the complemented tnum. */
static bool old_tnum_prev(struct tnum t, uint64_t x, uint64_t *out)
{
	uint64_t v;

	if (!old_tnum_next(TNUM(~t.value & ~t.mask, t.mask), ~x, &v))
		return false;
	*out = ~v;
	return true;
}

/* Moves [*lo, *hi] inward onto members of t; false when no member lies inside. */
static bool old_snap(struct tnum t, uint64_t *lo, uint64_t *hi)
{
	uint64_t a, b;

	if (*lo > *hi || !old_tnum_next(t, *lo, &a) || !old_tnum_prev(t, *hi, &b) || a > b)
		return false;
	*lo = a;
	*hi = b;
	return true;
}

/* t with bit 'bit' complemented: maps signed order onto unsigned order for that sign bit. */
static struct tnum old_tnum_flip(struct tnum t, uint64_t bit)
{
	return TNUM(t.value ^ (bit & ~t.mask), t.mask);
}

static bool old_tnum_conflict(struct tnum a, struct tnum b)
{
	return (a.value ^ b.value) & ~(a.mask | b.mask);
}

/* Kernel __reg_bound_offset: known bits shared by everything in [umin, umax] (and in the u32
 * bounds for the low half).  A tnum that contradicts them leaves no member: empty.
 */
static void old_tnum_from_bounds(struct range *r)
{
	struct tnum b64 = tnum_range(r->umin, r->umax), b32 = tnum_range(r->u32_min, r->u32_max);
	struct tnum t64, t32;

	if (r->umin > r->umax || r->u32_min > r->u32_max)
		return;
	if (old_tnum_conflict(r->var_off, b64) || old_tnum_conflict(old_tnum_subreg(r->var_off), b32)) {
		*r = range_empty();
		return;
	}
	t64 = tnum_intersect(r->var_off, b64);
	t32 = tnum_intersect(old_tnum_subreg(t64), b32);
	r->var_off = TNUM((t64.value & ~LO32) | t32.value, (t64.mask & ~LO32) | t32.mask);
}

/* Bounds move onto the nearest tnum members: multiples of 8 in [1, 100] are [8, 96].  Signed
 * bounds use the sign-flipped tnum, for which signed order is unsigned order.  No member
 * inside some interval: empty.
 */
static void old_snap_to_members(struct range *r)
{
	struct tnum t = r->var_off, t32 = old_tnum_subreg(t);
	uint64_t slo = (uint64_t)r->smin ^ SIGN64, shi = (uint64_t)r->smax ^ SIGN64;
	uint64_t ulo32 = r->u32_min, uhi32 = r->u32_max;
	uint64_t slo32 = (uint32_t)r->s32_min ^ SIGN32, shi32 = (uint32_t)r->s32_max ^ SIGN32;

	if (!old_snap(t, &r->umin, &r->umax) || !old_snap(old_tnum_flip(t, SIGN64), &slo, &shi) ||
	    !old_snap(t32, &ulo32, &uhi32) || !old_snap(old_tnum_flip(t32, SIGN32), &slo32, &shi32)) {
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
static bool old_range_holds(const struct range *r, uint64_t v)
{
	return r->umin <= v && v <= r->umax && r->smin <= (int64_t)v && (int64_t)v <= r->smax &&
	       r->u32_min <= (uint32_t)v && (uint32_t)v <= r->u32_max &&
	       r->s32_min <= (int32_t)v && (int32_t)v <= r->s32_max && tnum_contains(r->var_off, v);
}

static void old_range_sync(struct range *r)
{
	/* Fast paths for what most syncs meet: a single value (by its bounds or its known bits)
	 * that every field admits is that constant, exactly; nothing known stays nothing known.
	 * Both give what the full sequence below would, at a fraction of the cost. */
	if (r->var_off.mask == 0 || r->umin == r->umax) {
		uint64_t v = r->var_off.mask == 0 ? r->var_off.value : r->umin;

		if (old_range_holds(r, v)) {
			*r = range_const(v);
			return;
		}
	}
	if (r->umin == 0 && r->umax == UINT64_MAX && r->smin == INT64_MIN && r->smax == INT64_MAX &&
	    r->u32_min == 0 && r->u32_max == UINT32_MAX && r->s32_min == INT32_MIN &&
	    r->s32_max == INT32_MAX && r->var_off.mask == UINT64_MAX)
		return;
	/* The known bits bound the value. */
	old_bounds_from_tnum(r);
	/* Signed and unsigned, 32- and 64-bit bounds inform each other; a second pass picks up
	 * what the first pass's later steps taught its earlier ones. */
	old_deduce_bounds(r);
	old_deduce_bounds(r);
	/* The bounds may fix high bits (everything in [4, 7] has bit 2 set). */
	old_tnum_from_bounds(r);
	/* The narrower tnum may tighten the bounds once more: umax 0x7f..f with var_off
	 * (0; ~3) becomes var_off (0; 0x7f..fc) and umax 0x7f..fc. */
	old_bounds_from_tnum(r);
	/* Beyond the kernel: bounds onto actual members ([1, 16] with var_off (0; 0xf0) is the
	 * constant 16), which can enable the deductions again; repeated until nothing changes
	 * (bounded: each round only tightens, almost always one or two suffice) so that syncing
	 * a synced range changes nothing, which keeps fixpoint iterations stable. */
	for (int round = 0; round < 4; round++) {
		struct range before = *r;

		old_snap_to_members(r);
		old_deduce_bounds(r);
		old_tnum_from_bounds(r);
		old_bounds_from_tnum(r);
		if (range_equal(&before, r))
			break;
	}
}

/* Whether t has a member in [lo, hi] (unsigned order). */
static bool old_tnum_meets(struct tnum t, uint64_t lo, uint64_t hi)
{
	uint64_t v;

	return lo <= hi && old_tnum_next(t, lo, &v) && v <= hi;
}

/* Empty when some field is contradictory on its own, or when the tnum has no member inside
 * one of the four intervals.  Never claims empty for a range with a member; may miss an empty
 * range whose fields are only jointly contradictory.
 */
static bool old_range_is_empty(const struct range *r)
{
	struct tnum t = r->var_off, t32 = old_tnum_subreg(t);

	if (r->umin > r->umax || r->smin > r->smax || r->u32_min > r->u32_max ||
	    r->s32_min > r->s32_max)
		return true;
	if (!old_tnum_meets(t, r->umin, r->umax) ||
	    !old_tnum_meets(old_tnum_flip(t, SIGN64), (uint64_t)r->smin ^ SIGN64,
			(uint64_t)r->smax ^ SIGN64))
		return true;
	return !old_tnum_meets(t32, r->u32_min, r->u32_max) ||
	       !old_tnum_meets(old_tnum_flip(t32, SIGN32), (uint32_t)r->s32_min ^ SIGN32,
			   (uint32_t)r->s32_max ^ SIGN32);
}

/* Boundary values per field: the ends of every view and the points where views wrap. */
static const uint64_t edges64[] = {
	0, 1, 2, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000, 0x100000001,
	0x7fffffffffffffff, 0x8000000000000000, 0x8000000000000001, 0xffffffff00000000,
	0xffffffff7fffffff, 0xffffffff80000000, 0xfffffffffffffffe, UINT64_MAX,
};
static const uint32_t edges32[] = { 0, 1, 2, 0x7ffffffe, 0x7fffffff, 0x80000000, 0x80000001,
				    0xfffffffe, 0xffffffff };

static uint64_t edge64(void)
{
	return edges64[rnd_below(sizeof(edges64) / sizeof(edges64[0]))];
}

static uint32_t edge32(void)
{
	return edges32[rnd_below(sizeof(edges32) / sizeof(edges32[0]))];
}

static struct tnum edge_tnum(void)
{
	switch (rnd_below(6)) {
	case 0: return tnum_unknown();
	case 1: return tnum_const(edge64());
	case 2: return TNUM(0, LO32);
	case 3: return TNUM(edge64() & ~LO32, LO32);
	case 4: return tnum_range(0, edge64());
	default: return rnd_tnum();
	}
}

/* Every field drawn on its own, so most ranges are unsynced and many have no members. */
static struct range wild_range(bool edges)
{
	struct range r;

	r.umin = edges ? edge64() : interesting();
	r.umax = edges ? edge64() : rnd_below(4) ? r.umin + rnd_width() : interesting();
	r.smin = (int64_t)(edges ? edge64() : interesting());
	r.smax = (int64_t)(edges ? edge64() : rnd_below(4) ? (uint64_t)r.smin + rnd_width() :
							     interesting());
	r.u32_min = edges ? edge32() : (uint32_t)interesting();
	r.u32_max = edges ? edge32() : (uint32_t)(r.u32_min + rnd_width());
	r.s32_min = (int32_t)(edges ? edge32() : (uint32_t)interesting());
	r.s32_max = (int32_t)(edges ? edge32() : (uint32_t)r.s32_min + (uint32_t)rnd_width());
	r.var_off = edges ? edge_tnum() : rnd_tnum();
	return r;
}

/* An input to range_sync: what the operations hand it (one view known, the others full; field
 * hulls never synced; synced ranges, loosened or not) or fields drawn at random.
 */
static struct range sync_input(void)
{
	struct range r = range_unknown();
	uint64_t v[4];
	int n;

	switch (rnd_below(8)) {
	case 0:
		return wild_range(false);
	case 1:
		return wild_range(true);
	case 2: {
		struct range e = wild_range(true), w = wild_range(false);

		/* Some fields full, some boundary, some random. */
		if (rnd_below(2)) { r.umin = e.umin; r.umax = w.umax; }
		if (rnd_below(2)) { r.smin = w.smin; r.smax = e.smax; }
		if (rnd_below(2)) { r.u32_min = e.u32_min; r.u32_max = w.u32_max; }
		if (rnd_below(2)) { r.s32_min = w.s32_min; r.s32_max = e.s32_max; }
		if (rnd_below(2))
			r.var_off = rnd_below(2) ? e.var_off : w.var_off;
		return r;
	}
	case 3:
		r.umin = interesting();
		r.umax = r.umin + rnd_width();
		if (rnd_below(2))
			r.var_off = rnd_tnum();
		return r;
	case 4:
		r.smin = (int64_t)interesting();
		r.smax = (int64_t)((uint64_t)r.smin + rnd_width());
		return r;
	case 5:
		n = 1 + rnd_below(4);
		for (int i = 0; i < n; i++)
			v[i] = i && rnd_below(2) ? v[0] + rnd_below(1000) - 500 : interesting();
		r = hull(v, n);
		loosen(&r);
		return r;
	case 6:
		r = gen_range(0);
		if (rnd_below(2))
			loosen(&r);
		return r;
	default:
		r = wild_range(rnd_below(2));
		old_range_sync(&r);
		if (rnd_below(2))
			loosen(&r);
		return r;
	}
}

static bool same_fields(const struct range *a, const struct range *b)
{
	return range_equal(a, b) && !memcmp(a, b, sizeof(*a));
}

/* range_sync and range_is_empty against the previous code on millions of inputs: every field
 * must be equal, and syncing the result again must give equal fields too.
 */
static void same_as_old_sync(void)
{
	const int n = 2000000;
	int failed = 0;
	clock_t t0 = clock();

	for (int i = 0; i < n && failed < 5; i++) {
		struct range in = sync_input(), a = in, b = in;

		CHECK(old_range_is_empty(&in) == range_is_empty(&in),
		      "range_is_empty differs from the previous code");
		old_range_sync(&a);
		range_sync(&b);
		CHECK(same_fields(&a, &b), "range_sync differs from the previous code");
		if (!same_fields(&a, &b)) {
			failed++;
			dump("input", &in);
			dump("old", &a);
			dump("new", &b);
			continue;
		}
		CHECK(old_range_is_empty(&a) == range_is_empty(&a),
		      "range_is_empty of a synced range differs from the previous code");
		old_range_sync(&a);
		range_sync(&b);
		if (!same_fields(&a, &b)) {
			CHECK(false, "range_sync of a synced range differs from the previous code");
			failed++;
			dump("input", &in);
		}
	}
	printf("range_sync against the previous code: %d inputs in %.2f s\n", n,
	       (double)(clock() - t0) / CLOCKS_PER_SEC);
}

/* range_contains_needs: the fields it leaves out must never decide membership.  For random
 * ranges (synced or not, loosened, hulls) and candidate values at and around every field's
 * bounds, inside [umin, umax] and out, range_contains_needed() with the mask must agree with the
 * field-by-field reference; and it must leave fields out often (the oracle's fast test). */
static void contains_needs(void)
{
	const int n = 300000;
	int failed = 0, fast = 0;

	for (int i = 0; i < n && failed < 5; i++) {
		struct range r = gen_range(0);
		unsigned need;

		if (rnd_below(3) == 0)
			loosen(&r);
		need = range_contains_needs(&r);
		fast += need == 0;
		for (int j = 0; j < 24; j++) {
			uint64_t e[10] = { r.umin, r.umax, (uint64_t)r.smin, (uint64_t)r.smax,
					   r.var_off.value, r.var_off.value | r.var_off.mask,
					   (r.umin & ~0xffffffffull) | r.u32_min,
					   (r.umax & ~0xffffffffull) | r.u32_max,
					   (r.umin & ~0xffffffffull) | (uint32_t)r.s32_min,
					   (r.umax & ~0xffffffffull) | (uint32_t)r.s32_max };
			uint64_t v;

			switch (rnd_below(4)) {
			case 0:
				v = r.umin <= r.umax ? rnd_in(r.umin, r.umax) : rng();
				break;
			case 1:
				v = e[rnd_below(10)] + rnd_below(5) - 2;
				break;
			case 2:
				if (!sample(&r, &v))
					v = rng();
				break;
			default:
				v = r.var_off.value | (rng() & r.var_off.mask);
				break;
			}
			if (range_contains_needed(&r, v, need) != ref_contains(&r, v) ||
			    range_contains_needed(&r, v, RANGE_NEED_ALL) != ref_contains(&r, v)) {
				CHECK(false, "range_contains_needed(%#" PRIx64 ", need %#x) = %d, "
				      "reference %d", v, need, range_contains_needed(&r, v, need),
				      ref_contains(&r, v));
				dump("range", &r);
				failed++;
				break;
			}
		}
	}
	CHECK(fast > n / 10, "range_contains_needs left every field in on all but %d of %d ranges",
	      fast, n);
	printf("range_contains_needs: %d ranges, %d decided by [umin, umax] alone\n", n, fast);
}

/* range_alu has no copy without its memo to compare with: every operation on a pair from the
 * pool, drawn again and again among others (so that slots are taken over, by other pairs and by
 * other operations on the same pair), must give the answer it gave the first time. */
static void memo_alu_answers(const struct range *pool, int npool)
{
	static const uint8_t ops[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_MOD, BPF_AND, BPF_OR,
				       BPF_XOR, BPF_LSH, BPF_RSH, BPF_ARSH, BPF_MOV };
	enum { TRIPLES = 3000, DRAWS = 300000 };
	static struct { uint8_t op; bool is64, sign; int a, b; bool seen; struct range first; }
		t[TRIPLES];
	int failed = 0;

	for (int i = 0; i < TRIPLES; i++) {
		t[i].op = ops[rnd_below(sizeof(ops))];
		t[i].is64 = rnd_below(2);
		t[i].sign = (t[i].op == BPF_DIV || t[i].op == BPF_MOD) && rnd_below(2);
		t[i].a = (int)rnd_below((uint64_t)npool / 8);
		t[i].b = (int)rnd_below((uint64_t)npool / 8);
		t[i].seen = false;
	}
	for (int i = 0; i < DRAWS && failed < 5; i++) {
		int k = (int)rnd_below(TRIPLES);
		struct range r = range_alu(t[k].op, t[k].is64, t[k].sign, &pool[t[k].a], &pool[t[k].b]);

		if (!t[k].seen) {
			t[k].seen = true;
			t[k].first = r;
		} else if (!same_fields(&r, &t[k].first)) {
			CHECK(false, "range_alu op %#x (%s) gave another answer for the same inputs",
			      t[k].op, t[k].is64 ? "64-bit" : "32-bit");
			failed++;
		}
	}
}

/* range_refine remembers its answers as range_alu does: every comparison of a pair from the
 * pool, on either arm, drawn again and again among others, must narrow both sides as it did the
 * first time and tell the same liveness. */
static void memo_refine_answers(const struct range *pool, int npool)
{
	static const uint8_t ops[] = { BPF_JEQ, BPF_JNE, BPF_JGT, BPF_JGE, BPF_JLT, BPF_JLE,
				       BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE, BPF_JSET };
	enum { QUADS = 3000, DRAWS = 300000 };
	static struct {
		uint8_t op;
		bool is32, taken, seen, alive;
		int a, b;
		struct range ra, rb;
	} t[QUADS];
	int failed = 0;

	for (int i = 0; i < QUADS; i++) {
		t[i].op = ops[rnd_below(sizeof(ops))];
		t[i].is32 = rnd_below(2);
		t[i].taken = rnd_below(2);
		t[i].a = (int)rnd_below((uint64_t)npool / 8);
		t[i].b = (int)rnd_below((uint64_t)npool / 8);
		t[i].seen = false;
	}
	for (int i = 0; i < DRAWS && failed < 5; i++) {
		int k = (int)rnd_below(QUADS);
		struct range a = pool[t[k].a], b = pool[t[k].b];
		bool alive = range_refine(t[k].op, t[k].is32, t[k].taken, &a, &b);

		if (!t[k].seen) {
			t[k].seen = true;
			t[k].alive = alive;
			t[k].ra = a;
			t[k].rb = b;
		} else if (alive != t[k].alive || !same_fields(&a, &t[k].ra) ||
			   !same_fields(&b, &t[k].rb)) {
			CHECK(false, "range_refine op %#x (%s, %s) gave another answer for the same "
			      "inputs", t[k].op, t[k].is32 ? "32-bit" : "64-bit",
			      t[k].taken ? "taken" : "not taken");
			failed++;
		}
		if (alive != (!range_is_empty(&a) && !range_is_empty(&b))) {
			CHECK(false, "range_refine's result is not whether both sides are non-empty");
			failed++;
		}
	}
}

/* range_sync and range_join remember their last results by a hash of their inputs: from a pool
 * of inputs larger than either memo, drawn again and again (hits, misses, slots taken over by
 * other inputs), every answer must be what the steps give without a memo — the previous
 * range_sync above, and for a join the field-by-field hull synced by it. */
static void memo_answers(void)
{
	enum { POOL = 1500, DRAWS = 400000 };
	static struct range pool[POOL];
	int failed = 0;

	for (int i = 0; i < POOL; i++)
		pool[i] = rnd_below(2) ? sync_input() : gen_range(0);
	for (int i = 0; i < DRAWS && failed < 5; i++) {
		const struct range *a = &pool[rnd_below(POOL)], *b = &pool[rnd_below(POOL / 4)];
		struct range s = *a, want = *a, j, hull;

		range_sync(&s);
		old_range_sync(&want);
		if (!same_fields(&s, &want)) {
			CHECK(false, "range_sync remembered a wrong answer");
			failed++;
			dump("input", a);
			continue;
		}
		j = range_join(a, b);
		if (range_is_empty(a)) {
			want = *b;
		} else if (range_is_empty(b)) {
			want = *a;
		} else {
			hull = (struct range){
				a->umin < b->umin ? a->umin : b->umin, a->umax > b->umax ? a->umax : b->umax,
				a->smin < b->smin ? a->smin : b->smin, a->smax > b->smax ? a->smax : b->smax,
				a->u32_min < b->u32_min ? a->u32_min : b->u32_min,
				a->u32_max > b->u32_max ? a->u32_max : b->u32_max,
				a->s32_min < b->s32_min ? a->s32_min : b->s32_min,
				a->s32_max > b->s32_max ? a->s32_max : b->s32_max,
				tnum_union(a->var_off, b->var_off) };
			want = hull;
			old_range_sync(&want);
		}
		if (!same_fields(&j, &want)) {
			CHECK(false, "range_join remembered a wrong answer");
			failed++;
			dump("a", a);
			dump("b", b);
		}
	}
	memo_alu_answers(pool, POOL);
	memo_refine_answers(pool, POOL);
}

/* range_zext_unknown writes out what range_urange(0, 2^(8 * bytes) - 1) syncs to for 1, 2 and 4
 * bytes: every field the same for every size a caller may pass. */
static void zext_unknown_written_out(void)
{
	for (unsigned bytes = 0; bytes <= 16; bytes++) {
		struct range a = range_zext_unknown(bytes);
		struct range b = range_urange(0, bytes >= 8 ? UINT64_MAX : (1ULL << (8 * bytes)) - 1);

		CHECK(range_equal(&a, &b), "range_zext_unknown(%u) differs from range_urange", bytes);
	}
}

int main(void)
{
	precision_alu();
	precision_shifts();
	precision_unary();
	precision_lattice();
	precision_sync();
	precision_branches();
	precision_recurrences();
	printf("precision: %d checks\n", check_count);
	soundness();
	same_as_old_sync();
	contains_needs();
	zext_unknown_written_out();
	memo_answers();
	return check_done("test_range");
}
