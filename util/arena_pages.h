/* Whole huge pages from the arena's spare (util/arena.c) for blocks that may outlive the arena. */
#ifndef BPFSCEV_UTIL_ARENA_PAGES_H
#define BPFSCEV_UTIL_ARENA_PAGES_H

#include <stddef.h>

/* Whole 2 MiB pages (bytes a multiple of 2 MiB) on a 2 MiB boundary, asked for huge pages, for
 * a block that may outlive the arena (the claims' chunks): from the thread's spare (the memory
 * the arena gave back, arena.c) when it holds some, so that a long program's claims reuse the
 * pages its loop summaries left instead of faulting in fresh ones; else a fresh mapping.  Not
 * zeroed.  NULL when out of memory. */
void *arena_pages_alloc(size_t bytes);
/* Gives back what arena_pages_alloc(bytes) gave: to the spare while an arena is open, else
 * unmapped. */
void arena_pages_free(void *p, size_t bytes);
/* As arena_pages_alloc, but all fresh (its pages read zero, and none is taken from the spare
 * until arena_pages_cover asks): for a block filled piece by piece. */
void *arena_pages_reserve(size_t bytes);
/* Moves pages of the thread's spare over the 2 MiB pieces of [p, p + len) (whole 2 MiB pages
 * of a block arena_pages_alloc or arena_pages_reserve gave, nothing written there yet) that hold no page yet, until
 * the spare is empty: a block that grows into its pages one after the other (the claims' range
 * array) takes the memory the analysis has just given back (its loop summaries), not fresh
 * pages.  Those pieces then hold old bytes.  Returns the bytes moved. */
size_t arena_pages_cover(void *p, size_t len);

#endif
