/* What every fuzz target shares: the entry point's prototype, an always-on CHECK and a hex dump.
 *
 * CHECK is not assert(): NDEBUG never removes it, and when it fails it prints what failed,
 * where, and a caller-supplied explanation before abort(), so libFuzzer, AFL++ and the
 * regression driver all see the same crash with a readable report above the stack trace.
 * fuzz/run deduplicates findings by the first "CHECK failed" or "UNSOUND" line, so those lines
 * name the property, never a pc or a constant that changes from one input to the next.
 */
#ifndef BPFSCEV_FUZZ_TARGETS_FUZZ_CHECK_H
#define BPFSCEV_FUZZ_TARGETS_FUZZ_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/heap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The engines' one-time setup, before the first input (libFuzzer and AFL++'s driver call it,
 * regress_main.c too): the allocator setting every executable shares (util/heap.h).  Defined
 * here once per target binary: each target's .c includes this header, and the regression
 * driver linked with it defines FUZZ_CHECK_DRIVER to only declare it. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
#ifndef FUZZ_CHECK_DRIVER
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	heap_tune();
	return 0;
}
#endif

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "CHECK failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
			fflush(stderr);                                                            \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

/* "label: 00 01 ..." in lines of 32 bytes. */
static inline void fuzz_hexdump(FILE *f, const char *label, const uint8_t *p, size_t n)
{
	fprintf(f, "%s (%zu bytes):", label, n);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%02x", i % 32 ? " " : "\n  ", p[i]);
	fputc('\n', f);
}

/* FNV-1a: a seed derived from the input alone, so a target draws the same "random" choices
 * for the same bytes in every process (no state between calls). */
static inline uint64_t fuzz_hash(const uint8_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

#endif
