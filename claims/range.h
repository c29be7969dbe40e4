/* Scalar ranges: what the analysis knows about a 64-bit value, stored exactly as the kernel's
 * struct bpf_reg_state stores it — unsigned and signed bounds of the whole value and of its low
 * 32 bits, plus a tnum of known bits — so a claim diffs field by field against the verifier log.
 *
 * A range is a set: every field constrains it and the set is their intersection.  Operations are
 * sound: the result contains op(x, y) for every x in a and y in b, with the kernel's run-time
 * semantics (division by zero gives 0, modulo by zero keeps the dividend, shift amounts are
 * masked, 32-bit operations zero-extend).  They may be imprecise: range_mul of [0, 2^33] and
 * [0, 2^33] gives the full unsigned range because the product may wrap.  range_sync() is the
 * kernel's reg_bounds_sync(): a fixed sequence of small steps that derive each field from the
 * others; it is applied by every operation so results are always "synced".
 * An empty range (no value satisfies all fields) can arise from branch refinement on a path
 * that cannot execute; range_is_empty() tells, and callers treat that path as dead.
 */
#ifndef BPFSCEV_CLAIMS_RANGE_H
#define BPFSCEV_CLAIMS_RANGE_H

#include <stdbool.h>
#include <stdint.h>

#include "claims/tnum.h"

struct range {
	uint64_t umin, umax;
	int64_t smin, smax;
	uint32_t u32_min, u32_max;
	int32_t s32_min, s32_max;
	struct tnum var_off;
};

/* (The constructors are inline: the analysis builds constants and unknowns at most steps.) */
static inline struct range range_unknown(void)
{
	return (struct range){ 0, UINT64_MAX, INT64_MIN, INT64_MAX, 0, UINT32_MAX, INT32_MIN,
			       INT32_MAX, tnum_unknown() };
}

static inline struct range range_const(uint64_t v)
{
	return (struct range){ v, v, (int64_t)v, (int64_t)v, (uint32_t)v, (uint32_t)v,
			       (int32_t)v, (int32_t)v, tnum_const(v) };
}

/* [lo, hi] unsigned (lo <= hi), synced. */
struct range range_urange(uint64_t lo, uint64_t hi);
struct range range_srange(int64_t lo, int64_t hi);
/* Values that fit in 'bytes' (1, 2, 4) zero-extended: [0, 2^(8*bytes) - 1]. */
struct range range_zext_unknown(unsigned bytes);
/* The canonical empty range (no value; every min above its max): what a dead path holds. */
static inline struct range range_empty(void)
{
	return (struct range){ UINT64_MAX, 0, INT64_MAX, INT64_MIN, UINT32_MAX, 0, INT32_MAX,
			       INT32_MIN, tnum_unknown() };
}

bool range_is_empty(const struct range *r);
bool range_is_unknown(const struct range *r);	/* every 64-bit value */
/* v is inside every bound and the tnum.  Inline: the concrete oracle calls it for every claim
 * at every executed instruction. */
static inline bool range_contains(const struct range *r, uint64_t v)
{
	return r->umin <= v && v <= r->umax && r->smin <= (int64_t)v && (int64_t)v <= r->smax &&
	       r->u32_min <= (uint32_t)v && (uint32_t)v <= r->u32_max &&
	       r->s32_min <= (int32_t)v && (int32_t)v <= r->s32_max &&
	       tnum_contains(r->var_off, v);
}
/* Exactly one value.  Inline: the analysis asks it of most values it meets. */
static inline bool range_is_const(const struct range *r)
{
	return r->umin == r->umax && range_contains(r, r->umin);
}
/* Which fields of r range_contains() must still test for a value already known to lie in
 * [umin, umax]: a mask of RANGE_NEED_* bits, 0 when [umin, umax] alone decides membership
 * (every other field holds for every value of that interval, so for v in [umin, umax]
 * range_contains(r, v) is true exactly when range_contains_needed(r, v, need) is).  The
 * concrete oracle tests most claims with two comparisons this way. */
enum {
	RANGE_NEED_S64 = 1,
	RANGE_NEED_U32 = 2,
	RANGE_NEED_S32 = 4,
	RANGE_NEED_TNUM = 8,
	RANGE_NEED_ALL = 15,
};
unsigned range_contains_needs(const struct range *r);
static inline bool range_contains_needed(const struct range *r, uint64_t v, unsigned need)
{
	return r->umin <= v && v <= r->umax &&
	       (!(need & RANGE_NEED_S64) || (r->smin <= (int64_t)v && (int64_t)v <= r->smax)) &&
	       (!(need & RANGE_NEED_U32) ||
		(r->u32_min <= (uint32_t)v && (uint32_t)v <= r->u32_max)) &&
	       (!(need & RANGE_NEED_S32) ||
		(r->s32_min <= (int32_t)v && (int32_t)v <= r->s32_max)) &&
	       (!(need & RANGE_NEED_TNUM) || tnum_contains(r->var_off, v));
}
/* a is a subset of b (fieldwise: every bound of b is looser or equal). */
bool range_subset(const struct range *a, const struct range *b);
/* Every field the same. */
static inline bool range_equal(const struct range *a, const struct range *b)
{
	return a->umin == b->umin && a->umax == b->umax && a->smin == b->smin &&
	       a->smax == b->smax && a->u32_min == b->u32_min && a->u32_max == b->u32_max &&
	       a->s32_min == b->s32_min && a->s32_max == b->s32_max &&
	       a->var_off.value == b->var_off.value && a->var_off.mask == b->var_off.mask;
}

void range_sync(struct range *r);
struct range range_join(const struct range *a, const struct range *b);
/* Meet: both hold. */
struct range range_meet(const struct range *a, const struct range *b);
/* Widening for fixpoint iteration: every bound of 'next' that moved past 'prev' jumps to the
 * type limit (after the 32-bit and sign-boundary thresholds). */
struct range range_widen(const struct range *prev, const struct range *next);

/* ALU: op is a BPF_ALU op code (BPF_ADD, ..., BPF_ARSH); is64 selects ALU64 versus 32-bit ALU
 * (result zero-extended); 'sign' selects sdiv/smod (off = 1). */
struct range range_alu(uint8_t op, bool is64, bool sign, const struct range *a,
		       const struct range *b);
struct range range_neg(const struct range *a, bool is64);
/* Sign-extending mov: from 8/16/32 bits into a 64-bit (is64) or 32-bit result. */
struct range range_movsx(const struct range *a, unsigned bits, bool is64);
/* mov from a 32-bit register: zero-extension of the low half. */
struct range range_zext32(const struct range *a);
/* Truncation to 'bytes' (1, 2, 4, 8) and zero-extension (narrow loads/stores). */
struct range range_trunc(const struct range *a, unsigned bytes);
/* Sign-extension of the low 'bytes' (sign-extending loads). */
struct range range_sext(const struct range *a, unsigned bytes);
/* Byte swaps: to_be/bswap of width bits (16/32/64) on this little-endian ISA; to_le is a
 * truncation (range_trunc). */
struct range range_bswap(const struct range *a, unsigned bits);

/* Branch refinement.  For 'if a OP b' (op a BPF_JMP op: JEQ, JNE, JGT, JGE, JLT, JLE, JSGT,
 * JSGE, JSLT, JSLE, JSET; is32 for JMP32), narrows *a and *b to the values for which the branch
 * is taken (taken = true) or falls through (taken = false).  Either may become empty (then both
 * are).  The result: whether neither is empty afterwards (false: the path is dead). */
bool range_refine(uint8_t op, bool is32, bool taken, struct range *a, struct range *b);
/* Whether the condition is always true (1), always false (0) or either (-1) on these ranges. */
int range_branch_outcome(uint8_t op, bool is32, const struct range *a, const struct range *b);

/* Adds k*step for k in [kmin, kmax] to every value of a, with 'width' (32 or 64) bit wrap:
 * the range of an add recurrence {a, +, step} over those iterations.  Exact when nothing wraps,
 * the full type range otherwise. */
struct range range_add_scaled(const struct range *a, uint64_t step, uint64_t kmin, uint64_t kmax,
			      unsigned width);
/* Adds k*d for k in [kmin, kmax] and d in [dlo, dhi] (signed), 64-bit: accumulations x += d. */
struct range range_add_accum(const struct range *a, const struct range *d, uint64_t kmin,
			     uint64_t kmax, bool is64);

#endif
