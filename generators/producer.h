/* The data producer: where every choice of the generators comes from.
 *
 * A gen_src hands out bounded choices either from a seeded PRNG (xoshiro256** seeded through
 * splitmix64: the same seed gives the same choices on every machine) or from a byte string, as
 * zstd's FUZZ_dataProducer does: each choice consumes just the bytes its range needs, so a
 * mutation of one byte changes one decision, and once the bytes run out every choice is the
 * smallest one, so any string — the empty one too — decodes to a program.  Both modes go through
 * the same byte-level code, so the fuzzers and the seeded campaign explore the same space.
 */
#ifndef BPFSCEV_GENERATORS_PRODUCER_H
#define BPFSCEV_GENERATORS_PRODUCER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gen_src {
	const uint8_t *data;	/* byte mode: the string (not owned); NULL in PRNG mode */
	size_t len, pos;	/* byte mode: length and bytes consumed */
	uint64_t s[4];		/* PRNG mode: xoshiro256** state */
	uint64_t buf;		/* PRNG mode: bytes of the last output not yet handed out */
	unsigned nbuf;
};

void gen_src_init_seed(struct gen_src *src, uint64_t seed);
void gen_src_init_bytes(struct gen_src *src, const void *data, size_t len);
/* True in byte mode once every byte has been consumed (all later choices are the smallest). */
bool gen_src_exhausted(const struct gen_src *src);

/* A value in [lo, hi] (inclusive; lo <= hi), lo when the bytes have run out. */
uint32_t gen_u32(struct gen_src *src, uint32_t lo, uint32_t hi);
uint64_t gen_u64(struct gen_src *src, uint64_t lo, uint64_t hi);
/* True with probability p_percent (0 never, >= 100 always; neither draws); false when the bytes
 * have run out. */
bool gen_bool(struct gen_src *src, unsigned p_percent);
/* One of n >= 1 alternatives, 0 when the bytes have run out. */
uint32_t gen_pick(struct gen_src *src, uint32_t n);
/* n bytes, exactly as n draws of gen_u32(src, 0, 255) would give them (zeros once exhausted). */
void gen_bytes(struct gen_src *src, uint8_t *out, size_t n);
/* Index drawn with the given relative weights (n >= 1; an all-zero table gives 0). */
uint32_t gen_weighted(struct gen_src *src, const uint32_t *weights, uint32_t n);

#endif
