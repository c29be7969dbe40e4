/* Zeroed arrays, as calloc: below 1 KiB by malloc and memset, which glibc serves from its
 * per-thread cache (its calloc never is, and costs several times as much for a small block);
 * from 1 KiB on by calloc, which gets fresh pages already zero.  The analyzer makes dozens of
 * small zeroed arrays for every program it analyzes. */
#ifndef BPFSCEV_UTIL_ZALLOC_H
#define BPFSCEV_UTIL_ZALLOC_H

#include <stdlib.h>
#include <string.h>

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

#endif
