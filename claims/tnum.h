/* Tristate numbers: a 64-bit value whose bits are each known 0, known 1, or unknown.  (value,
 * mask): a bit set in mask is unknown, and then its value bit is 0.  Same representation and
 * meaning as the kernel's kernel/bpf/tnum.c, so var_off compares directly with its log.
 *
 * Every operation is sound (the result contains every concrete result of members of the inputs)
 * and may be imprecise: tnum_mul(x, y) of two fully known values is exact, but multiplying by an
 * operand with unknown low bits loses every bit above the lowest unknown one.
 */
#ifndef BPFSCEV_CLAIMS_TNUM_H
#define BPFSCEV_CLAIMS_TNUM_H

#include <stdbool.h>
#include <stdint.h>

struct tnum {
	uint64_t value;
	uint64_t mask;
};

#define TNUM(v, m) ((struct tnum){ .value = (v), .mask = (m) })

static inline struct tnum tnum_const(uint64_t v) { return TNUM(v, 0); }
static inline struct tnum tnum_unknown(void) { return TNUM(0, UINT64_MAX); }
static inline bool tnum_is_const(struct tnum t) { return t.mask == 0; }
static inline bool tnum_is_unknown(struct tnum t) { return t.mask == UINT64_MAX; }
static inline bool tnum_equals_const(struct tnum t, uint64_t v) { return !t.mask && t.value == v; }
/* x is a member of t. */
static inline bool tnum_contains(struct tnum t, uint64_t x) { return (x & ~t.mask) == t.value; }

/* The smallest tnum containing every value in [min, max]. */
struct tnum tnum_range(uint64_t min, uint64_t max);
struct tnum tnum_lshift(struct tnum a, uint8_t shift);
struct tnum tnum_rshift(struct tnum a, uint8_t shift);
/* Arithmetic right shift of a value of 'bits' (32 or 64) width. */
struct tnum tnum_arshift(struct tnum a, uint8_t shift, uint8_t bits);
struct tnum tnum_add(struct tnum a, struct tnum b);
struct tnum tnum_sub(struct tnum a, struct tnum b);
struct tnum tnum_neg(struct tnum a);
struct tnum tnum_and(struct tnum a, struct tnum b);
struct tnum tnum_or(struct tnum a, struct tnum b);
struct tnum tnum_xor(struct tnum a, struct tnum b);
struct tnum tnum_mul(struct tnum a, struct tnum b);
/* Both a and b hold (the meet); only meaningful when they agree on known bits. */
struct tnum tnum_intersect(struct tnum a, struct tnum b);
/* Either a or b holds (the join). */
struct tnum tnum_union(struct tnum a, struct tnum b);
/* Truncation to the low 'size' bytes, zero-extended. */
struct tnum tnum_cast(struct tnum a, uint8_t size);
/* Sign extension from the low 'bits' bits (8, 16, 32). */
struct tnum tnum_sext(struct tnum a, uint8_t bits);
struct tnum tnum_bswap(struct tnum a, uint8_t bits);	/* 16, 32, 64: zero-extended result */
/* a is a subset of b. */
bool tnum_in(struct tnum b, struct tnum a);
/* tnum_cast(a, 4), inline: range code takes the low half of a tnum at every step. */
static inline struct tnum tnum_subreg(struct tnum a)
{
	return TNUM((uint32_t)a.value, (uint32_t)a.mask);
}

#endif
