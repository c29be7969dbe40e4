/* Abstract values: see aval.h. */
#include "scev/aval.h"

#include <string.h>

#include "bpf/isa.h"

void aval_set_pkt_len(struct aval *a, uint64_t c)
{
	uint16_t old;

	if (a->kind != AV_SCALAR || c > AVAL_PKT_LEN_MAX)
		return;
	if (aval_pkt_len(a, &old) && old >= c)
		return;
	a->region = REGION_PKT_END;
	a->map = (uint16_t)c;
}

void aval_drop_pkt_len(struct aval *a)
{
	if (a->kind == AV_SCALAR) {
		a->region = 0;
		a->map = 0;
	}
}

/* Whether a's relation to the packet's length implies b's (none implies none). */
static bool pkt_len_implies(const struct aval *a, const struct aval *b)
{
	uint16_t ca, cb;

	if (!aval_pkt_len(b, &cb))
		return true;
	return aval_pkt_len(a, &ca) && ca >= cb;
}

uint16_t aval_null_id(uint32_t pc)
{
	/* UINT16_MAX: absint.h PKT_META_ID; UINT16_MAX - 1, - 2: aval.h AVAL_PKT_VAR, _NEG */
	return (uint16_t)(pc % (UINT16_MAX - 3) + 1);
}

/* (offsets small enough that base + offset cannot wrap: ptr_cmp_op, caller_narrow) */
#define PTR_OFF_LIMIT (1ll << 40)

static bool same_region(const struct aval *a, const struct aval *b)
{
	return a->kind == AV_PTR && b->kind == AV_PTR && a->region == b->region &&
	       (a->map == b->map || a->region == REGION_PKT ||
		(a->region == REGION_ITER_VAL &&
		 !((a->map ^ b->map) & (uint16_t)~AVAL_ITER_STALE))) &&
	       !(a->region == REGION_CALLER_STACK && (a->map & CALLER_SET));
}

/* Pointers into callers' frames, of one or of different ones (REGION_CALLER_STACK): what a
 * join keeps apart from their offsets is the set of frames. */
static bool callers_both(const struct aval *a, const struct aval *b)
{
	return a->kind == AV_PTR && b->kind == AV_PTR && a->region == REGION_CALLER_STACK &&
	       b->region == REGION_CALLER_STACK;
}

/* The frames a REGION_CALLER_STACK map names, as a mask of slots below 15 (aval.h: a single
 * frame's slot is its id below 14); 0 for CALLER_ANY or an id of 14 and up without one. */
static uint16_t caller_mask(uint16_t m)
{
	if (m == CALLER_ANY)
		return 0;
	if (m & CALLER_SET)
		return m & 0x7fff;
	return m < CALLER_SELF_IX ? (uint16_t)(1u << m) : 0;
}

/* A pointer into the holder's own frame (REGION_STACK) as one of a set of frames with only
 * CALLER_SELF: for a join with pointers into callers' frames (aval.h). */
static struct aval as_self(const struct aval *a)
{
	struct aval v = *a;

	if (a->kind == AV_PTR && a->region == REGION_STACK && !a->maybe_null) {
		v.region = REGION_CALLER_STACK;
		v.map = (uint16_t)(CALLER_SET | CALLER_SELF);
		v.id = 0;
	}
	return v;
}

/* Whether a and b are a pointer into the holder's frame and one into callers' frames. */
static bool self_and_callers(const struct aval *a, const struct aval *b)
{
	return a->kind == AV_PTR && b->kind == AV_PTR && !a->maybe_null && !b->maybe_null &&
	       ((a->region == REGION_STACK && b->region == REGION_CALLER_STACK) ||
		(a->region == REGION_CALLER_STACK && b->region == REGION_STACK));
}

static uint16_t caller_multi(const struct aval *r, const int64_t lo[CALLER_SELF_IX + 1],
			     int64_t *sum);

struct aval aval_caller_rebase(const struct aval *a, uint32_t k)
{
	struct aval v = *a;

	if (a->kind != AV_PTR || a->region != REGION_CALLER_STACK || !aval_caller_self(a->map))
		return v;
	if (k >= CALLER_SELF_IX) {
		v.map = CALLER_ANY;
		v.id = 0;
		return v;
	}
	v.map = (uint16_t)((a->map & ~CALLER_SELF) | 1u << k);
	if ((a->id >> 12) == CALLER_MULTI) {
		/* (the frames' order changes: SELF's lowest is slot k's now) */
		int64_t lo[CALLER_SELF_IX + 1], sum;

		for (uint32_t f = 0; f <= CALLER_SELF_IX; f++)
			lo[f] = f == CALLER_SELF_IX ? INT64_MAX : aval_caller_lo(a, f);
		lo[k] = a->map >> k & 1 ? INT64_MIN : aval_caller_lo(a, CALLER_SELF_IX);
		v.id = a->map >> k & 1 ? 0 : caller_multi(&v, lo, &sum);
	} else if ((a->id >> 12) == CALLER_SELF_IX)
		v.id = (uint16_t)(k << 12 | (a->id & CALLER_NARROW_MAX));
	return v;
}

struct aval aval_caller_ptr(uint32_t owner, uint32_t k, struct range r)
{
	struct aval v = aval_ptr(REGION_CALLER_STACK, (uint16_t)owner, r);

	if (owner >= CALLER_SELF_IX && k < CALLER_SELF_IX)
		v.map = (uint16_t)(CALLER_SET | 1u << k);
	return v;
}

/* The map of a pointer into a frame of a or of b (REGION_CALLER_STACK maps). */
static uint16_t caller_join(uint16_t a, uint16_t b)
{
	uint16_t ma = caller_mask(a), mb = caller_mask(b);

	if (a == b)
		return a;
	return ma && mb ? (uint16_t)(CALLER_SET | ma | mb) : (uint16_t)CALLER_ANY;
}

/* Every frame map a names, b names too (REGION_CALLER_STACK maps). */
static bool caller_subset(uint16_t a, uint16_t b)
{
	uint16_t ma = caller_mask(a), mb = caller_mask(b);

	return a == b || (b == CALLER_ANY && !aval_caller_self(a)) || (ma && mb && !(ma & ~mb));
}

/* The CALLER_MULTI id of r, a set of 3 to 12 frames whose frame f's offsets are at least lo[f]
 * (>= r's lowest; INT64_MAX: none), each rounded down to the field's unit (aval.h); 0 when the
 * set has another size or no frame is narrowed.  *sum: the narrowing kept, in bytes. */
static uint16_t caller_multi(const struct aval *r, const int64_t lo[CALLER_SELF_IX + 1],
			     int64_t *sum)
{
	uint32_t m = caller_mask(r->map), n = (uint32_t)__builtin_popcount(m), bits, rank = 0;
	uint32_t id = 0;

	*sum = 0;
	if (n < 3 || n > 12 || r->r.smin < -PTR_OFF_LIMIT || r->r.smax > PTR_OFF_LIMIT)
		return 0;
	bits = 12 / n;
	for (uint32_t f = 0; f <= CALLER_SELF_IX; f++) {
		int64_t k;

		if (!(m >> f & 1))
			continue;
		k = lo[f] > PTR_OFF_LIMIT ? 0 : (lo[f] - r->r.smin) / (int64_t)(512u >> bits);
		k = k < 0 ? 0 : k > (int64_t)((1u << bits) - 1) ? (int64_t)((1u << bits) - 1) : k;
		id |= (uint32_t)k << (bits * rank++);
		*sum += k * (int64_t)(512u >> bits);
	}
	return id ? (uint16_t)(CALLER_MULTI << 12 | id) : 0;
}

/* The id of r, the join of REGION_CALLER_STACK pointers a and b into a set of frames: of the
 * set's frames, the one whose offsets on both sides lie furthest above r's lowest (aval.h), or
 * for a set of three frames or more every frame's, when that keeps more. */
static uint16_t caller_narrow(const struct aval *r, const struct aval *a, const struct aval *b)
{
	uint16_t m = caller_mask(r->map), best = 0, multi;
	int64_t kbest = 0, lo[CALLER_SELF_IX + 1], sum;

	if (r->map == CALLER_ANY || !(r->map & CALLER_SET) || r->r.smin < -PTR_OFF_LIMIT ||
	    r->r.smax > PTR_OFF_LIMIT)
		return 0;
	for (uint32_t f = 0; f <= CALLER_SELF_IX; f++) {
		int64_t la = aval_caller_lo(a, f), lb = aval_caller_lo(b, f), k;

		lo[f] = INT64_MAX;
		if (!(m >> f & 1))
			continue;
		/* (each side's lowest is at least r's, and f is one side's frame at least) */
		lo[f] = la < lb ? la : lb;
		k = lo[f] - r->r.smin;
		if (k <= kbest)
			continue;
		kbest = k;
		best = (uint16_t)(f << 12 | (k > CALLER_NARROW_MAX ? CALLER_NARROW_MAX : k));
	}
	multi = caller_multi(r, lo, &sum);
	return multi && sum > kbest ? multi : best;
}

/* r, callers' frames' pointer a moved by at least d (every frame's offsets alike): its narrowed
 * frame's lowest offset is a's plus d, measured from r's own lowest (aval.h). */
static void caller_moved(struct aval *r, const struct aval *a, __int128 d)
{
	__int128 k;

	if (r->region != REGION_CALLER_STACK || !a->id)
		return;
	if ((a->id >> 12) == CALLER_MULTI) {
		/* (every frame's lowest moves by d: each measured again from r's) */
		int64_t lo[CALLER_SELF_IX + 1], sum;

		r->id = 0;
		if (a->r.smin < -PTR_OFF_LIMIT || a->r.smax > PTR_OFF_LIMIT ||
		    d < -PTR_OFF_LIMIT || d > PTR_OFF_LIMIT)
			return;
		for (uint32_t f = 0; f <= CALLER_SELF_IX; f++) {
			int64_t l = aval_caller_lo(a, f);

			lo[f] = l == INT64_MAX ? INT64_MAX : l + (int64_t)d;
		}
		r->id = caller_multi(r, lo, &sum);
		return;
	}
	k = (__int128)aval_caller_lo(a, a->id >> 12) + d - r->r.smin;
	if (a->r.smin < -PTR_OFF_LIMIT || a->r.smax > PTR_OFF_LIMIT ||
	    r->r.smin < -PTR_OFF_LIMIT || r->r.smax > PTR_OFF_LIMIT || k <= 0)
		r->id = 0;
	else
		r->id = (uint16_t)((a->id & ~CALLER_NARROW_MAX) |
				   (k > CALLER_NARROW_MAX ? CALLER_NARROW_MAX : (uint16_t)k));
}

/* Whether every frame of b's set holds a's offsets no lower than b's (aval_subset). */
static bool caller_lows_cover(const struct aval *a, const struct aval *b)
{
	if ((b->id >> 12) != CALLER_MULTI)
		return aval_caller_lo(a, b->id >> 12) >= aval_caller_lo(b, b->id >> 12);
	for (uint32_t f = 0; f <= CALLER_SELF_IX; f++)
		if (caller_mask(b->map) >> f & 1 && aval_caller_lo(a, f) < aval_caller_lo(b, f))
			return false;
	return true;
}

/* Whether two packet pointers share a variable base and its offset (aval.h). */
static bool same_pkt_base(const struct aval *a, const struct aval *b)
{
	return a->id == b->id && aval_pkt_c(a) == aval_pkt_c(b);
}

/* Packet pointer r, p moved by a number whose least is lo (one constant on every path where kc,
 * else a variable part added), as the kernel keeps the two parts (aval.h): the fixed offset of
 * a pointer with a variable part known from below only, the base not known (the transfer gives
 * it one again: absint_transfer.c, pkt_var_step). */
static void pkt_off_moved(struct aval *r, const struct aval *p, __int128 lo, bool kc)
{
	__int128 c = aval_pkt_fixed_lo(p);

	if (r->kind != AV_PTR || r->region != REGION_PKT)
		return;
	r->map = 0;
	r->kc = 0;
	if (p->id == AVAL_PKT_NEG || (!kc && lo < 0)) {
		r->id = AVAL_PKT_NEG;
		return;
	}
	if (kc && aval_pkt_novar(p)) {
		r->id = 0;	/* (data + another constant per path) */
		return;
	}
	if (kc)
		c += lo;
	r->id = AVAL_PKT_VAR;
	r->map = (uint16_t)(int16_t)(c < INT16_MIN ? INT16_MIN : c > INT16_MAX ? INT16_MAX : c);
}

/* Whether packet pointer a's base is implied by b's (aval.h): b's is unknown with a least fixed
 * offset that a's covers, or the same as a's, or neither has a variable part. */
static bool pkt_id_subset(const struct aval *a, const struct aval *b)
{
	if (b->id == AVAL_PKT_NEG)
		return true;
	if (b->id == AVAL_PKT_VAR)
		return a->id != AVAL_PKT_NEG && aval_pkt_fixed_lo(a) >= aval_pkt_c(b);
	if (b->id)
		return same_pkt_base(a, b) && (!b->kc || a->kc);
	return aval_pkt_novar(a);
}

bool aval_subset(const struct aval *a, const struct aval *b)
{
	if (b->kind == AV_TOP)
		return true;
	if (a->kind != b->kind)
		return false;
	if (self_and_callers(a, b)) {
		struct aval sa = as_self(a), sb = as_self(b);

		return b->region == REGION_CALLER_STACK && aval_subset(&sa, &sb);
	}
	if (callers_both(a, b))
		return (!a->maybe_null || b->maybe_null) && caller_subset(a->map, b->map) &&
		       range_subset(&a->r, &b->r) &&
		       (!b->id || caller_lows_cover(a, b));
	if (a->kind == AV_PTR && (!same_region(a, b) || (a->maybe_null && !b->maybe_null) ||
				  (a->region == REGION_PKT ? !pkt_id_subset(a, b)
							   : b->id && !same_pkt_base(a, b)) ||
				  (a->region == REGION_ITER_VAL && (a->map & ~b->map))))
		return false;
	if (a->kind == AV_SCALAR && (!pkt_len_implies(a, b) || (b->kc && !aval_kconst(a))))
		return false;
	return range_subset(&a->r, &b->r);
}

struct aval aval_join(const struct aval *a, const struct aval *b)
{
	struct aval r;

	if (a->kind == AV_TOP || b->kind == AV_TOP)
		return aval_top();
	if (a->kind == AV_SCALAR && b->kind == AV_SCALAR) {
		uint16_t ca, cb;

		r = aval_scalar(range_join(&a->r, &b->r));
		r.src = a->src == b->src ? a->src : SRC_FLOW;
		r.kc = aval_kconst(a) && aval_kconst(b);	/* (the kernel walks both paths) */
		if (aval_pkt_len(a, &ca) && aval_pkt_len(b, &cb))
			aval_set_pkt_len(&r, ca < cb ? ca : cb);
		return r;
	}
	if (self_and_callers(a, b)) {
		struct aval sa = as_self(a), sb = as_self(b);

		return aval_join(&sa, &sb);
	}
	if (same_region(a, b) || callers_both(a, b)) {
		/* (an iterator's value pointer, stale on one side: stale) */
		r = aval_ptr(a->region, a->region == REGION_ITER_VAL ? a->map | b->map : a->map,
			     range_join(&a->r, &b->r));
		r.maybe_null = a->maybe_null || b->maybe_null;
		/* (a map value not NULL keeps it only for a spin lock's map: absint_lock.c; a
		 * reference only its site's, absint_ref_keep_id) */
		r.id = a->id == b->id && (r.maybe_null || r.region == REGION_MAP_VALUE ||
					  r.region == REGION_KREF || r.region == REGION_RINGBUF ||
					  r.region == REGION_SOCK) ? a->id : 0;
		if (a->region == REGION_PKT && same_pkt_base(a, b)) {
			r.id = a->id;
			r.map = a->map;
			r.kc = a->kc && b->kc;
		} else if (a->region == REGION_PKT) {
			/* (either with a variable part, the join may have one: aval.h) */
			int16_t ca = aval_pkt_fixed_lo(a), cb = aval_pkt_fixed_lo(b);

			r.id = a->id == AVAL_PKT_NEG || b->id == AVAL_PKT_NEG ? AVAL_PKT_NEG :
			       aval_pkt_novar(a) && aval_pkt_novar(b) ? 0 : AVAL_PKT_VAR;
			r.map = r.id == AVAL_PKT_VAR ? (uint16_t)(ca < cb ? ca : cb) : 0;
		}
		if (a->region == REGION_CALLER_STACK) {
			r.map = caller_join(a->map, b->map);
			/* (any caller's frame or this one: no such set) */
			if (r.map == CALLER_ANY &&
			    (aval_caller_self(a->map) || aval_caller_self(b->map)))
				return aval_top();
			r.id = caller_narrow(&r, a, b);
		}
		r.src = a->src == b->src ? a->src : SRC_FLOW;
		return r;
	}
	/* A maybe-null pointer already includes 0: join with the scalar 0 keeps it (but not
	 * its identity: on the other side the 0 is no copy of the lookup's result).  So does a
	 * map value pointer, which becomes maybe-null: the two arms of a lookup's null check;
	 * bpf_iter_num_next's, whose result is one or NULL; and the context, which the kernel
	 * never holds "or NULL" as it checks a callback at each call, where bpfscev checks it
	 * once: a ctx argument's cell holding the context at one bpf_for_each_map_elem call and
	 * NULL at another (selftest for_each_hash_map_elem) is the context or NULL, split again
	 * by its null check.  (A use that needs the context refuses it: absint_verdict.c.) */
	for (int side = 0; side < 2; side++) {
		const struct aval *p = side ? b : a, *z = side ? a : b;

		if (p->kind == AV_PTR && (p->maybe_null || p->region == REGION_MAP_VALUE ||
					  p->region == REGION_ITER_VAL || p->region == REGION_CTX) &&
		    aval_is_const(z, NULL) && z->r.umin == 0) {
			r = *p;
			r.maybe_null = true;
			r.id = 0;
			return r;
		}
	}
	return aval_top();
}

struct aval aval_widen(const struct aval *prev, const struct aval *next)
{
	struct aval j;

	if (aval_subset(next, prev))
		return *prev;	/* nothing grew: no widening step */
	j = aval_join(prev, next);

	if (j.kind != AV_TOP)
		j.r = range_widen(&prev->r, &j.r);
	return j;
}

struct aval aval_alu(uint8_t op, bool is64, bool sign, const struct aval *a, const struct aval *b)
{
	struct aval r;

	if (op == BPF_MOV) {
		if (is64)
			return *b;
		return aval_zext(b, 4);
	}
	/* A quotient or a remainder is a number the kernel does not bound, whatever its operands:
	 * adjust_scalar_min_max_vals (is_safe_to_compute_dst_reg_range) marks BPF_DIV's and BPF_MOD's
	 * result unknown, 64-bit or 32-bit (all 64 bits: it returns before the 32-bit zero
	 * extension), signed (cpu v4's sdiv/smod) or not, a constant by a constant too (6.18, probed:
	 * 48 / 2 added to r10 is "math between fp pointer and register with unbounded min value", w0
	 * /= 4 may exceed 0xffffffff, 8 / 4 == 2 does not decide a branch).  Every state the kernel
	 * model reads is made of these values (the transfer, the loop steps, the exit values), so the
	 * rule is here, once; a claim about a quotient is as loose as the kernel's knowledge (corpus
	 * div_const_*). */
	if ((op == BPF_DIV || op == BPF_MOD) && a->kind == AV_SCALAR && b->kind == AV_SCALAR)
		return aval_scalar(range_unknown());
	if (a->kind == AV_SCALAR && b->kind == AV_SCALAR)
		return aval_scalar(range_alu(op, is64, sign, &a->r, &b->r));
	/* Pointer ± scalar stays a pointer into the same region (64-bit only). */
	if (is64 && a->kind == AV_PTR && !a->maybe_null && b->kind == AV_SCALAR &&
	    (op == BPF_ADD || op == BPF_SUB)) {
		r = *a;
		r.src = SRC_FLOW;
		r.r = range_alu(op, true, false, &a->r, &b->r);
		pkt_off_moved(&r, a, op == BPF_ADD ? b->r.smin : -(__int128)b->r.smax, aval_kconst(b));
		caller_moved(&r, a, op == BPF_ADD ? b->r.smin : -(__int128)b->r.smax);
		return r;
	}
	if (is64 && op == BPF_ADD && b->kind == AV_PTR && !b->maybe_null && a->kind == AV_SCALAR) {
		r = *b;
		r.src = SRC_FLOW;
		r.r = range_alu(op, true, false, &b->r, &a->r);
		pkt_off_moved(&r, b, a->r.smin, aval_kconst(a));
		caller_moved(&r, b, a->r.smin);
		return r;
	}
	/* Pointer - pointer into the same region is the difference of offsets. */
	if (is64 && op == BPF_SUB && same_region(a, b) && !a->maybe_null && !b->maybe_null)
		return aval_scalar(range_alu(BPF_SUB, true, false, &a->r, &b->r));
	if (!is64 && (op == BPF_AND || op == BPF_RSH) && b->kind == AV_SCALAR &&
	    a->kind != AV_SCALAR) {
		/* 32-bit ops on a pointer give some 32-bit number */
		struct aval t = aval_scalar(range_zext_unknown(4));

		return aval_scalar(range_alu(op, false, sign, &t.r, &b->r));
	}
	if (!is64)
		return aval_scalar(range_zext_unknown(4));
	if (op == BPF_AND && b->kind == AV_SCALAR) {
		/* x & c is within [0, c] whatever x is (also a pointer's bits) */
		struct range u = range_unknown();

		return aval_scalar(range_alu(BPF_AND, true, false, &u, &b->r));
	}
	return aval_top();
}

static struct aval as_scalar(const struct aval *a)
{
	return a->kind == AV_SCALAR ? *a : aval_scalar(range_unknown());
}

struct aval aval_neg(const struct aval *a, bool is64)
{
	struct aval s = as_scalar(a);

	return aval_scalar(range_neg(&s.r, is64));
}

struct aval aval_zext(const struct aval *a, unsigned bytes)
{
	struct aval s = as_scalar(a);

	if (bytes >= 8)
		return *a;
	return aval_scalar(range_trunc(&s.r, bytes));
}

struct aval aval_sext(const struct aval *a, unsigned bytes)
{
	struct aval s = as_scalar(a);

	if (bytes >= 8)
		return *a;
	return aval_scalar(range_sext(&s.r, bytes));
}

struct aval aval_bswap(const struct aval *a, unsigned bits)
{
	struct aval s = as_scalar(a);

	return aval_scalar(range_bswap(&s.r, bits));
}

struct aval aval_add_scaled(const struct aval *a, uint64_t step, uint64_t kmin, uint64_t kmax,
			    unsigned width)
{
	struct aval r;

	if (a->kind == AV_TOP)
		return *a;
	if (a->kind == AV_PTR && (width != 64 || a->maybe_null))
		return aval_top();
	r = *a;
	r.r = range_add_scaled(&a->r, step, kmin, kmax, width);
	/* (one constant per path: the kernel walks the iterations apart) */
	pkt_off_moved(&r, a, (int64_t)step >= 0 ? (__int128)(int64_t)step * (kmin < (1ull << 40) ?
									 kmin : 1ull << 40)
		  : kmax < (1ull << 40) ? (__int128)(int64_t)step * kmax : (__int128)INT64_MIN,
		  true);
	aval_drop_pkt_len(&r);
	if (kmax < (1ull << 40) && (int64_t)step > -(1ll << 20) && (int64_t)step < (1ll << 20))
		caller_moved(&r, a, (__int128)(int64_t)step * ((int64_t)step >= 0 ? kmin : kmax));
	else if (r.region == REGION_CALLER_STACK)
		r.id = 0;	/* (its narrowing dropped: aval.h) */
	return r;
}

struct aval aval_add_accum(const struct aval *a, const struct aval *d, uint64_t kmin,
			   uint64_t kmax, bool is64)
{
	struct aval r;

	if (a->kind == AV_TOP || d->kind != AV_SCALAR)
		return aval_top();
	if (a->kind == AV_PTR && (!is64 || a->maybe_null))
		return aval_top();
	r = *a;
	r.r = range_add_accum(&a->r, &d->r, kmin, kmax, is64);
	if (!aval_kconst(d))
		r.kc = 0;
	pkt_off_moved(&r, a, d->r.smin >= 0 ? (__int128)d->r.smin * (kmin < (1ull << 40) ? kmin
									  : 1ull << 40)
		  : kmax < (1ull << 40) ? (__int128)d->r.smin * kmax : (__int128)INT64_MIN,
		  aval_kconst(d));
	aval_drop_pkt_len(&r);
	if (r.region == REGION_CALLER_STACK)
		r.id = 0;	/* (its narrowing dropped: aval.h) */
	return r;
}

/* Two pointers into one region compare like their offsets, as signed numbers, as long as the
 * offsets are small enough that base + offset cannot wrap (the region bases are far from 0 and
 * from 2^63).  Returns the signed form of op, or 0 when the comparison cannot be transferred. */

static uint8_t ptr_cmp_op(uint8_t op, bool is32, const struct aval *a, const struct aval *b)
{
	if (is32 || !same_region(a, b) || a->maybe_null || b->maybe_null)
		return 0;
	if (a->r.smin < -PTR_OFF_LIMIT || a->r.smax > PTR_OFF_LIMIT ||
	    b->r.smin < -PTR_OFF_LIMIT || b->r.smax > PTR_OFF_LIMIT)
		return 0;
	switch (op) {
	case BPF_JGT: return BPF_JSGT;
	case BPF_JGE: return BPF_JSGE;
	case BPF_JLT: return BPF_JSLT;
	case BPF_JLE: return BPF_JSLE;
	case BPF_JSET: return 0;
	default: return op;
	}
}

/* "if p == 0" or "if p != 0" (64-bit) where p is a map value or key, never NULL (the kernel's
 * reg_not_null; is_branch_taken decides the jump, and its walk leaves the other arm dead), at an
 * offset too small to wrap the address to 0. */
static bool ptr_not_zero(uint8_t op, bool is32, const struct aval *p, const struct aval *z)
{
	uint64_t c;

	return !is32 && (op == BPF_JEQ || op == BPF_JNE) && p->kind == AV_PTR && !p->maybe_null &&
	       (p->region == REGION_MAP_VALUE || p->region == REGION_MAP_KEY) &&
	       p->r.smin >= -PTR_OFF_LIMIT && p->r.smax <= PTR_OFF_LIMIT && z->kind == AV_SCALAR &&
	       aval_is_const(z, &c) && c == 0;
}

int aval_branch_outcome(uint8_t op, bool is32, const struct aval *a, const struct aval *b)
{
	uint8_t pop;

	if (a->kind == AV_SCALAR && b->kind == AV_SCALAR)
		return range_branch_outcome(op, is32, &a->r, &b->r);
	if (ptr_not_zero(op, is32, a, b) || ptr_not_zero(op, is32, b, a))
		return op == BPF_JNE;
	pop = ptr_cmp_op(op, is32, a, b);
	if (pop)
		return range_branch_outcome(pop, false, &a->r, &b->r);
	return -1;
}

bool aval_refine(uint8_t op, bool is32, bool taken, struct aval *a, struct aval *b)
{
	/* A maybe-null pointer compared with 0: one arm is the pointer, the other the null. */
	if (!is32 && (op == BPF_JEQ || op == BPF_JNE)) {
		for (int side = 0; side < 2; side++) {
			struct aval *p = side ? b : a, *z = side ? a : b;
			uint64_t c;

			if (p->kind == AV_PTR && p->maybe_null && aval_is_const(z, &c) && c == 0) {
				bool is_null = (op == BPF_JEQ) == taken;

				if (is_null) {
					*p = aval_const(0);
				} else {
					p->maybe_null = false;
					p->id = 0;
				}
				return true;
			}
		}
	}
	if (a->kind == AV_SCALAR && b->kind == AV_SCALAR)
		return range_refine(op, is32, taken, &a->r, &b->r);
	{
		uint8_t pop = ptr_cmp_op(op, is32, a, b);

		if (pop)
			return range_refine(pop, false, taken, &a->r, &b->r);
	}
	return true;
}
