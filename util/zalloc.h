/* Zeroed arrays, as calloc: below 1 KiB by malloc and memset, which glibc serves from its
 * per-thread cache (its calloc never is, and costs several times as much for a small block);
 * from 1 KiB on by calloc, which gets fresh pages already zero.  The analyzer makes dozens of
 * small zeroed arrays for every program it analyzes.  And what the kernel does with the pages of
 * large arrays: huge pages for them, the pages of cleared entries given back. */
#ifndef BPFSCEV_UTIL_ZALLOC_H
#define BPFSCEV_UTIL_ZALLOC_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Arrays of at least this many bytes ask for huge pages (huge_pages_hint): below it no whole
 * 2 MiB page fits. */
#define HUGE_HINT_MIN (2u << 20)

static inline uintptr_t page_size(void)
{
	static uintptr_t page;

	if (!page) {
		long ps = sysconf(_SC_PAGESIZE);

		page = ps > 0 ? (uintptr_t)ps : 4096;
	}
	return page;
}

/* madvise(advice) on the pages wholly inside [p, p + bytes). */
static inline void pages_advise(void *p, size_t bytes, int advice)
{
	uintptr_t page = page_size(), lo, hi;

	lo = ((uintptr_t)p + page - 1) & ~(page - 1);
	hi = ((uintptr_t)p + bytes) & ~(page - 1);
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, advice);
}

/* Asks the kernel to back the not yet touched pages of [p, p + bytes) with transparent huge
 * pages, where it does so for regions that ask (its "madvise" mode, the usual default).  A large
 * array touched for the first time 4 KiB at a time takes a page fault per page, and in a
 * virtual machine each costs microseconds: a third of the CPU time of a million-instruction
 * analysis was the kernel's, most of it faults, and the user time lost with them (TLB misses,
 * caches) as much again (docs/BENCHMARKS.md, issue 13 §4, eleventh round).  Only a hint: the
 * contents read the same (zero where never written), and memory is no more than the touched
 * huge pages' whole 2 MiB.  For blocks of HUGE_HINT_MIN bytes or more, fresh from malloc or
 * calloc (then mmap'd or at the heap's top, not yet touched). */
static __attribute__((unused, noinline, cold)) void huge_pages_advise(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
	pages_advise(p, bytes, MADV_HUGEPAGE);
#else
	(void)p;
	(void)bytes;
#endif
}

/* (the test inline, the call out of line: the allocators' common paths stay as short) */
static inline void huge_pages_hint(void *p, size_t bytes)
{
	if (__builtin_expect(bytes >= HUGE_HINT_MIN, 0) && p)
		huge_pages_advise(p, bytes);
}

/* As malloc, with huge pages for a large block (huge_pages_hint). */
static inline void *malloc_large(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);

	huge_pages_hint(p, bytes);
	return p;
}

static inline void *zalloc(size_t n, size_t size)
{
	size_t bytes;
	void *p;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	if (bytes >= 1024) {
		p = calloc(n, size);
		huge_pages_hint(p, bytes);
		return p;
	}
	p = malloc(bytes ? bytes : 1);	/* (never NULL for nothing, as glibc's calloc) */
	/* (p hidden from the optimizer: GCC turns a malloc and a memset of a size it knows, a
	 * constant one, back into calloc, the call this path is for avoiding) */
	__asm__("" : "+r"(p));
	if (p)
		memset(p, 0, bytes);
	return p;
}

/* As malloc, but a block of HUGE_HINT_MIN bytes or more starts on a 2 MiB boundary and is
 * rounded up to whole 2 MiB pages, all asked for huge pages: every first touch of it is one
 * fault per 2 MiB.  (malloc_large's block starts 16 bytes past a page boundary, so the pages at
 * its two ends, up to 2 MiB each, are 4 KiB ones, a fault each: 340 on the range claims of 1M
 * instructions of deep nests.)  free() frees it. */
static inline void *malloc_huge(size_t bytes)
{
	size_t len = (bytes + HUGE_HINT_MIN - 1) & ~(size_t)(HUGE_HINT_MIN - 1);
	void *p = NULL;

	if (bytes < HUGE_HINT_MIN)
		return malloc(bytes ? bytes : 1);
	if (len < bytes || posix_memalign(&p, HUGE_HINT_MIN, len))
		return NULL;
	huge_pages_advise(p, len);
	return p;
}

/* Gives the kernel back the pages wholly inside [p, p + bytes), every byte of which is zero
 * (entries of a large array freed and cleared while the rest is in use): the next touch of one
 * maps a fresh zero page, so they read the same, and the memory they held is free meanwhile. */
static inline void zero_pages_release(void *p, size_t bytes)
{
	pages_advise(p, bytes, MADV_DONTNEED);
}

#endif
