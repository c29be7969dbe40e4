/* A per-analysis arena: the arrays the analyzer keeps until the end of one analysis (the
 * control-flow graph, the dominator trees, the loop forest, the analysis context's tables) are
 * carved from a few large blocks instead of a malloc each, and given back all at once when the
 * analysis ends.  A small program's analysis made about a hundred such allocations, and malloc
 * and free were a fifth of its cost.
 *
 * The arena is the calling thread's open one (arena_open .. arena_close; scopes nest).  With
 * none open, and for blocks of ARENA_BIG bytes or more (a long program's per-block arrays, which
 * malloc serves by mmap anyway), arena_alloc is malloc, so code that is also called outside an
 * analysis (`bpfscev loops`, the tests) keeps working unchanged; but blocks of ARENA_MAP bytes
 * or more asked while an arena is open are mapped each on its own, on huge-page boundaries
 * (arena.c: map_block).  arena_free frees what malloc gave, unmaps a mapped block and does
 * nothing for the arena's other blocks; callers free as they would with malloc, so the debug
 * build can do without the arena: under AddressSanitizer every block is malloc's, and overruns,
 * use after free and leaks are caught as before (tests/test_arena.c runs the analyzer with the
 * arena on, where free() of an arena's block is ASan's bad free).
 *
 * Only blocks kept until the analysis ends belong here: a block freed early stays allocated in
 * the arena until arena_close. */
#ifndef BPFSCEV_UTIL_ARENA_H
#define BPFSCEV_UTIL_ARENA_H

#include <stdbool.h>
#include <stddef.h>

#define ARENA_BIG (64u << 10)
/* Blocks of at least this many bytes asked while an arena is open are mapped each on its own,
 * on huge-page boundaries (arena.c: map_block); arena_free unmaps one, arena_close whatever is
 * left. */
#define ARENA_MAP (1u << 20)

struct arena_chunk;
struct arena_map;

struct arena {
	struct arena_chunk *chunks;	/* malloc'd, the newest first */
	struct arena_map *maps;		/* blocks of ARENA_MAP bytes or more, mapped each on its
					 * own (arena.c), the newest first */
	char *at, *end;			/* the free room of the newest block */
	char *first;			/* the thread's first block, when this arena holds it */
	size_t next_size;		/* the size of the next chunk */
	struct arena *outer;		/* the arena open before this one */
};

/* Opens a (the thread's current arena until arena_close(a)). */
void arena_open(struct arena *a);
/* Gives back every block of a at once and reopens the arena that was open before it. */
void arena_close(struct arena *a);
/* As malloc, from the current arena when one is open; NULL when out of memory. */
void *arena_alloc(size_t bytes);
/* As calloc (n * size zeroed bytes; never NULL for nothing). */
void *arena_zalloc(size_t n, size_t size);
/* free() for what malloc gave (and NULL); nothing for a block of an open arena. */
void arena_free(void *p);

#endif
