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

#endif
