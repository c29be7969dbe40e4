/* The per-analysis arena: see arena.h. */
#include "util/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/zalloc.h"

/* Under AddressSanitizer every block is malloc's, so that ASan sees each one (tests/test_arena.c
 * defines ARENA_OFF itself to test the arena there too). */
#ifndef ARENA_OFF
#if defined(__SANITIZE_ADDRESS__)
#define ARENA_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_OFF 1
#endif
#endif
#endif
#ifndef ARENA_OFF
#define ARENA_OFF 0
#endif

#define ARENA_ALIGN 16u
#define ARENA_FIRST (32u << 10)		/* the thread's first block: a small program's needs */
#define ARENA_CHUNK (64u << 10)		/* the first chunk after it; chunks double up to ... */
#define ARENA_CHUNK_MAX (1u << 20)

struct arena_chunk {
	struct arena_chunk *next;
	size_t size;			/* bytes after the header */
} __attribute__((aligned(16)));

static _Thread_local struct arena *current;
static _Thread_local char first_block[ARENA_FIRST] __attribute__((aligned(16)));
static _Thread_local bool first_taken;

void arena_open(struct arena *a)
{
	memset(a, 0, sizeof(*a));
	a->next_size = ARENA_CHUNK;
	if (!ARENA_OFF && !first_taken) {
		first_taken = true;
		a->first = first_block;
		a->at = first_block;
		a->end = first_block + ARENA_FIRST;
	}
	a->outer = current;
	current = a;
}

void arena_close(struct arena *a)
{
	struct arena_chunk *c = a->chunks, *next;

	for (; c; c = next) {
		next = c->next;
		free(c);
	}
	if (a->first)
		first_taken = false;
	current = a->outer;
	memset(a, 0, sizeof(*a));
}

/* A new chunk with room for bytes, made the newest. */
static bool arena_grow(struct arena *a, size_t bytes)
{
	size_t size = a->next_size;
	struct arena_chunk *c;

	while (size < bytes)
		size *= 2;
	if (!(c = malloc(sizeof(*c) + size)))
		return false;
	c->next = a->chunks;
	c->size = size;
	a->chunks = c;
	a->at = (char *)(c + 1);
	a->end = a->at + size;
	if (a->next_size < ARENA_CHUNK_MAX)
		a->next_size *= 2;
	return true;
}

/* Blocks malloc serves (out of line, so that the arena's own path stays a few instructions
 * without a stack frame). */
static __attribute__((noinline)) void *big_block(size_t bytes)
{
	return malloc_large(bytes);
}

static __attribute__((noinline)) void *big_zeroed(size_t n, size_t size)
{
	return zalloc(n, size);
}

void *arena_alloc(size_t bytes)
{
	struct arena *a = current;
	size_t need = (bytes + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	void *p;

	if (ARENA_OFF || !a || bytes >= ARENA_BIG)
		return big_block(bytes);
	if (!need)
		need = ARENA_ALIGN;
	if ((size_t)(a->end - a->at) < need && !arena_grow(a, need))
		return NULL;
	p = a->at;
	a->at += need;
	return p;
}

void *arena_zalloc(size_t n, size_t size)
{
	size_t bytes;
	void *p;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	if (ARENA_OFF || !current || bytes >= ARENA_BIG)
		return big_zeroed(n, size);
	if ((p = arena_alloc(bytes)))
		memset(p, 0, bytes);
	return p;
}

/* p is a block of an open arena. */
static bool arena_owns(const void *p)
{
	uintptr_t u = (uintptr_t)p;

	for (const struct arena *a = current; a; a = a->outer) {
		if (a->first && u >= (uintptr_t)a->first && u < (uintptr_t)a->first + ARENA_FIRST)
			return true;
		for (const struct arena_chunk *c = a->chunks; c; c = c->next)
			if (u >= (uintptr_t)(c + 1) && u < (uintptr_t)(c + 1) + c->size)
				return true;
	}
	return false;
}

void arena_free(void *p)
{
	if (p && (ARENA_OFF || !current || !arena_owns(p)))
		free(p);
}
