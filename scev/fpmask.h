/* Sets of bytes of a stack frame, r10 - 512 .. r10 - 1, one bit each: which bytes are surely
 * written (the safety verdict) and which a loop may write through pointers other than constant
 * r10 offsets (the loop summaries).  Ranges are [lo, hi) in offsets from r10; the parts outside
 * the frame are ignored.
 */
#ifndef BPFSCEV_SCEV_FPMASK_H
#define BPFSCEV_SCEV_FPMASK_H

#include <stdbool.h>
#include <stdint.h>

#define FP_FRAME 512

struct fpmask {
	uint64_t w[FP_FRAME / 64];
};

static inline bool fpmask_has(const struct fpmask *m, int64_t o)
{
	return m->w[(o + FP_FRAME) / 64] >> ((o + FP_FRAME) % 64) & 1;
}

/* The bits of [*lo, hi) in its first word (*k), *lo moved past them; *lo < hi, both within
 * the frame.  The operations below take a range a word at a time: bit by bit, a store's 8 bytes
 * were 8 read-modify-writes of one word, each waiting for the one before (perf: 0.35 % of the
 * campaign's time on fpmask_add's loop in absint_step). */
static inline uint64_t fpmask_piece(int64_t *lo, int64_t hi, unsigned *k)
{
	int64_t b = *lo + FP_FRAME, n = hi - *lo;
	unsigned sh = (unsigned)(b % 64);

	if (n > 64 - (int64_t)sh)
		n = 64 - (int64_t)sh;
	*k = (unsigned)(b / 64);
	*lo += n;
	return (n == 64 ? ~0ull : (1ull << n) - 1) << sh;
}

static inline void fpmask_add(struct fpmask *m, int64_t lo, int64_t hi)
{
	unsigned k;

	lo = lo < -FP_FRAME ? -FP_FRAME : lo;
	hi = hi > 0 ? 0 : hi;
	while (lo < hi) {
		uint64_t bits = fpmask_piece(&lo, hi, &k);

		m->w[k] |= bits;
	}
}

static inline void fpmask_fill(struct fpmask *m)
{
	for (int k = 0; k < FP_FRAME / 64; k++)
		m->w[k] = ~0ull;
}

/* Some byte of [lo, hi) is in m. */
static inline bool fpmask_any(const struct fpmask *m, int64_t lo, int64_t hi)
{
	unsigned k;

	lo = lo < -FP_FRAME ? -FP_FRAME : lo;
	hi = hi > 0 ? 0 : hi;
	while (lo < hi) {
		uint64_t bits = fpmask_piece(&lo, hi, &k);

		if (m->w[k] & bits)
			return true;
	}
	return false;
}

/* Every byte of [lo, hi) is in m (false when the range leaves the frame). */
static inline bool fpmask_all(const struct fpmask *m, int64_t lo, int64_t hi)
{
	unsigned k;

	if (lo < -FP_FRAME || hi > 0)
		return false;
	while (lo < hi) {
		uint64_t bits = fpmask_piece(&lo, hi, &k);

		if ((m->w[k] & bits) != bits)
			return false;
	}
	return true;
}

static inline bool fpmask_empty(const struct fpmask *m)
{
	for (int k = 0; k < FP_FRAME / 64; k++)
		if (m->w[k])
			return false;
	return true;
}

/* d |= s; whether d grew. */
static inline bool fpmask_or(struct fpmask *d, const struct fpmask *s)
{
	bool grew = false;

	for (int k = 0; k < FP_FRAME / 64; k++) {
		grew = grew || (s->w[k] & ~d->w[k]);
		d->w[k] |= s->w[k];
	}
	return grew;
}

/* d &= s; whether d shrank. */
static inline bool fpmask_and(struct fpmask *d, const struct fpmask *s)
{
	bool shrank = false;

	for (int k = 0; k < FP_FRAME / 64; k++) {
		shrank = shrank || (d->w[k] & ~s->w[k]);
		d->w[k] &= s->w[k];
	}
	return shrank;
}

#endif
