/* The allocator's setting every executable shares (bpfscev, the bench binaries, the fuzz targets
 * under libFuzzer, AFL++ or the regression driver): one place, called first thing by each main()
 * and by the fuzz targets' LLVMFuzzerInitialize.
 *
 * glibc gives the top of its heap back (brk) once more than 128 KiB of it is free, and a
 * campaign allocates and frees a few 50-100 KiB arrays per program (the claims, the check's
 * per-claim forms, the arena's chunks): the next program faults the same pages in again,
 * about one fault a program, each a trip through this VM's hypervisor.  Keeping 4 MiB of
 * free top (M_TOP_PAD, also the step by which the heap grows) stops that; untouched pages
 * cost nothing, and large blocks still come from mmap as before.  glibc only; under ASan the
 * sanitizer's allocator ignores it. */
#ifndef BPFSCEV_UTIL_HEAP_H
#define BPFSCEV_UTIL_HEAP_H

#ifdef __GLIBC__
#include <malloc.h>
#endif

#define HEAP_TOP_PAD (4u << 20)

static inline void heap_tune(void)
{
#ifdef __GLIBC__
	mallopt(M_TOP_PAD, HEAP_TOP_PAD);
#endif
}

#endif
