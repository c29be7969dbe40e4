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
 * (arena.c: map_block).  arena_free frees what malloc gave, gives a mapped block's pages back
 * (to the thread's spare, arena.c, for the next blocks) and does nothing for the arena's other
 * blocks; callers free as they would with malloc, so the debug
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
 * on huge-page boundaries (arena.c: map_block); arena_free gives one back, arena_close
 * whatever is left (to the spare, arena.c). */
#define ARENA_MAP (1u << 20)

struct arena_chunk;
struct arena_map;
struct slab_region;

struct arena {
	struct arena_chunk *chunks;	/* malloc'd, the newest first */
	struct arena_map *maps;		/* blocks of ARENA_MAP bytes or more, mapped each on its
					 * own (arena.c), the newest first */
	char *at, *end;			/* the free room of the newest block */
	char *first;			/* the thread's first block, when this arena holds it */
	/* The slab (arena_slab_alloc): its regions, the one blocks are carved from (its free
	 * room slab_at .. slab_end), and an empty one kept for the next */
	struct slab_region *regions, *slab_cur, *slab_spare;
	char *slab_at, *slab_end;
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

/* The slab: blocks that are freed one by one, in about the order they were made, before the
 * arena closes — a loop's header pack (made by the first pass, freed by the last pass, loop
 * after loop) and its summary's arrays.  There are one or two such blocks per loop, a million
 * loops in a long program: from malloc, each was a piece of a heap that grew 4 KiB page by page
 * (a page fault each, microseconds in a virtual machine), and malloc's own work per block.
 * The slab carves them in a row from 2 MiB regions on huge pages, counts the blocks alive in
 * each region, and takes a region back (for reuse, or unmapped) once its count is zero.  Each
 * block has a 16-byte header (its size, and whether malloc gave it: with no arena open, under
 * AddressSanitizer, past SLAB_MAX bytes), so they are freed with arena_slab_free whoever made
 * them, and free() of one is a bad free for ASan.  A block must not outlive its arena. */
#define SLAB_MAX (16u << 10)
/* As malloc (NULL when out of memory; never NULL for 0 bytes). */
void *arena_slab_alloc(size_t bytes);
/* As realloc, p from arena_slab_alloc (or NULL).  A block shrinks in place. */
void *arena_slab_realloc(void *p, size_t bytes);
/* As free, p from arena_slab_alloc or arena_slab_realloc (or NULL). */
void arena_slab_free(void *p);

#endif
