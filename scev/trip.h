/* Trip counts of one exit: how many iterations pass before an exit condition on an add
 * recurrence first holds.
 *
 * The question, for an exiting branch evaluated once per iteration: the value it tests is
 * v(k) = A + k*s (mod 2^W) at iteration k = 0, 1, 2, ..., the other operand N is the same in every
 * iteration, and the loop leaves when pred(v(k), N) holds.  Given the ranges A and N may take,
 * trip_first_exit returns the largest and smallest first k over all of them, or says why it
 * cannot: the counter may step over the bound when it wraps, "!=" with a step that does not divide
 * the distance never meets it, an empty exit range.  Wrap-around is exact: a counter that counts
 * up until it wraps below N exits, and the count says how many steps that takes; one that steps
 * over its exit range by wrapping and lands in it on a later round is solved start by start (one
 * step, at most 64 starts: the first k with A + k*s mod 2^W in the range).  With steps that
 * vary between two values of one sign, v(k) is A plus k of them: the slowest gives the maximum,
 * the fastest the minimum and the wrap check.
 */
#ifndef BPFSCEV_SCEV_TRIP_H
#define BPFSCEV_SCEV_TRIP_H

#include <stdbool.h>
#include <stdint.h>

struct trip_query {
	unsigned width;		/* 32 or 64: the space v lives and is compared in */
	uint64_t a_ulo, a_uhi;	/* A, unsigned view (within width) */
	int64_t a_slo, a_shi;	/* A, signed view (within width) */
	uint64_t step;		/* s, width-bit two's complement */
	bool varies;		/* the step varies per iteration between s and step_hi (a counter
				 * updated differently on different paths); both must be non-zero
				 * and of one sign, and only tests the counter must reach (>=, >,
				 * <=, < without wrapping, !=) are solved */
	uint64_t step_hi;	/* width-bit two's complement; with varies only */
	uint8_t pred;		/* BPF_JEQ, JNE, JGT, JGE, JLT, JLE, JSGT, JSGE, JSLT, JSLE: exit when
				 * v pred N */
	unsigned __int128 n_ulo, n_uhi;	/* N, unsigned view; may be 2^width ("no value reaches") */
	int64_t n_slo, n_shi;	/* N, signed view */
	unsigned low_same;	/* the lowest low_same bits are known and the same in every A
				 * and every N (tnums): an even step keeps them, so == may still
				 * meet a bound known only as a range */
};

/* 0 with kmax/kmin set (first exit iteration over all A and N), or -1 with why filled. */
int trip_first_exit(const struct trip_query *q, uint64_t *kmax, uint64_t *kmin, char *why,
		    unsigned whylen);

/* Exit tests 'v & C': v(k) = A + k*s (mod 2^W) with s != 0 (mod 2^W), exit when some bit of C
 * is set (when_set) or when every bit of C is clear.  Above the lowest set bit t of s, v moves
 * by an odd multiple of 2^t, so its bits from t up to a bit b run through every pattern within
 * 2^(b-t+1) iterations whatever A is; the bits of v below t never change (A's), which decides
 * the rest: a_known/a_bits are the bits known in every start A (tnum value and ~mask).
 * 0 with kmax/kmin set, or -1 with why. */
int trip_first_jset(unsigned width, uint64_t step, uint64_t c, bool when_set, uint64_t a_known,
		    uint64_t a_bits, uint64_t *kmax, uint64_t *kmin, char *why, unsigned whylen);

/* Exit test v == N where the distance D = N - v(0) is a linear form over W bits,
 * D = c0 + sum k_i * t_i (mod 2^W), each t_i some value in [lo_i, hi_i] (as integers: any
 * representatives of its W-bit values).  With s = 2^t * o (o odd) and every k_i and c0 a
 * multiple of 2^t, v(n) == N exactly when n == K (mod 2^(W-t)), K = D / 2^t * o^-1: a
 * linear form again, whose range (when it spans no multiple of 2^(W-t)) is the first exit's.
 * This is the congruence of N and v(0) modulo the step that an interval of N alone cannot
 * carry (a bound c - X * s of an outer counter X: K = -X + ...).  0 with kmax/kmin, or -1
 * with why. */
#define TRIP_LIN_MAX 8
struct trip_lin {
	unsigned n;
	uint64_t c0;
	uint64_t k[TRIP_LIN_MAX];
	__int128 lo[TRIP_LIN_MAX], hi[TRIP_LIN_MAX];
};

int trip_eq_linear(unsigned width, uint64_t step, const struct trip_lin *d, uint64_t *kmax,
		   uint64_t *kmin, char *why, unsigned whylen);

/* The predicate that holds when a branch 'v op N' is not taken (JGT → JLE, JSET → none: 0). */
uint8_t trip_negate(uint8_t op);
/* 'N op v' rewritten as 'v op' N' (JGT → JLT, JEQ → JEQ, ...). */
uint8_t trip_swap(uint8_t op);

#endif
