/* Locations: where a claim says a value lives.  Registers r0..r10 and stack cells at constant
 * r10 offsets, each of 1, 2, 4 or 8 bytes (a cell holds the low bytes of what was stored,
 * zero-extended).  One number per location, so the analyzer, the generators' metadata and every
 * oracle name the same cell the same way: 0..10 are registers, an N-byte cell at fp+off (off < 0)
 * is 16 + 4 * -off + log2(N).
 */
#ifndef BPFSCEV_CLAIMS_LOC_H
#define BPFSCEV_CLAIMS_LOC_H

#include <stdint.h>

typedef uint32_t loc_t;
#define LOC_NREGS 11
#define LOC_IS_REG(l) ((l) < LOC_NREGS)
#define LOC_SLOT(off, size)                                                                       \
	((loc_t)(16 + (uint32_t)(-(off)) * 4 +                                                    \
		 ((size) == 8 ? 3 : (size) == 4 ? 2 : (size) == 2 ? 1 : 0)))
#define LOC_SLOT_OFF(l) (-(int32_t)(((l) - 16) / 4))
#define LOC_SLOT_SIZE(l) (1u << (((l) - 16) % 4))
#define LOC_MAX LOC_SLOT(-512, 8)

/* "r3", "fp-8", "fp-4/u32" (cells narrower than 8 bytes carry their size). */
void loc_format(loc_t l, char *buf, unsigned n);
/* Parses the same forms; -1 when malformed. */
int loc_parse(const char *s, loc_t *out);

#endif
