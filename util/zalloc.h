/* Zeroed arrays, as calloc: below 1 KiB by malloc and memset, which glibc serves from its
 * per-thread cache (its calloc never is, and costs several times as much for a small block);
 * from 1 KiB on by calloc, which gets fresh pages already zero.  The analyzer makes dozens of
 * small zeroed arrays for every program it analyzes. */
#ifndef BPFSCEV_UTIL_ZALLOC_H
#define BPFSCEV_UTIL_ZALLOC_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static inline void *zalloc(size_t n, size_t size)
{
	size_t bytes;
	void *p;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	if (bytes >= 1024)
		return calloc(n, size);
	p = malloc(bytes ? bytes : 1);	/* (never NULL for nothing, as glibc's calloc) */
	if (p)
		memset(p, 0, bytes);
	return p;
}

/* Gives the kernel back the pages wholly inside [p, p + bytes), every byte of which is zero
 * (entries of a large array freed and cleared while the rest is in use): the next touch of one
 * maps a fresh zero page, so they read the same, and the memory they held is free meanwhile. */
static inline void zero_pages_release(void *p, size_t bytes)
{
	static uintptr_t page;
	uintptr_t lo, hi;

	if (!page) {
		long ps = sysconf(_SC_PAGESIZE);

		page = ps > 0 ? (uintptr_t)ps : 4096;
	}
	lo = ((uintptr_t)p + page - 1) & ~(page - 1);
	hi = ((uintptr_t)p + bytes) & ~(page - 1);
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

#endif
