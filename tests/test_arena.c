/* The per-analysis arena (util/arena.h), compiled here with the arena on even in the sanitizer
 * build (where the library's copy gives every block to malloc), and switched off and on at run
 * time:
 * - blocks are 16-byte aligned, disjoint, zeroed by arena_zalloc, and survive the growth of
 *   the arena into new chunks; big blocks and blocks asked with no arena open are malloc's,
 *   and arena_free frees those (ASan reports a leak otherwise) and not the arena's (ASan
 *   reports a bad free otherwise); nested arenas give back their own blocks only;
 * - blocks of HUGE_HINT_MIN bytes or more, which ask for huge pages (zalloc.h), read zero where
 *   zeroed and keep what is written, also across the claims' range array growing past a
 *   reserve (claim_prog__reserve_ranges: its untouched tail asks too);
 * - blocks of ARENA_MAP bytes or more, mapped on their own: on a 2 MiB boundary, zero, kept as
 *   written while the arena grows, unmapped by arena_free and the rest by arena_close;
 * - the slab (arena_slab_alloc): blocks of mixed sizes, grown and shrunk, kept as written, freed
 *   in any order; a region whose blocks are all freed is reused or unmapped (at most the current
 *   one and a spare left); with no arena open, and past SLAB_MAX, malloc's (ASan reports a
 *   block given to free() or never freed);
 * - the claims' chunks (claim_prog__chunk): blocks of mixed sizes, 16-byte aligned, disjoint,
 *   kept as written while new chunks come (from 2 MiB on, on a 2 MiB boundary); a chunked
 *   trip's texts come from them and are only dropped by claim_trip__free_text, an unchunked
 *   one's are malloc's; claim_prog__free frees the chunks and not the chunked loops' arrays
 *   (ASan reports a bad free or a leak otherwise);
 * - a large range array takes the spare's pages as its ranges reach them, never the pages
 *   holding ranges;
 * - a large loops' array takes the spare's pages, cleared, and keeps its loops as it grows;
 * - a chunked trip's texts read back (and the JSON says them) as they were set, and one copy serves the trips of a
 *   program that say the same (a reason: but for its first number);
 * - the analyzer with the arena on gives the same claims and verdicts as with it off, for
 *   generated programs and one with subprograms, and again with every block from 1 KiB mapped:
 *   a block read before it is written, or freed with free() instead of arena_free, shows here
 *   (a difference, or ASan's report). */
#define _GNU_SOURCE	/* (util/arena.c, included below, uses mremap) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"

#include "util/arena.h"
#include "util/arena_pages.h"

static int arena_test_off;
#define ARENA_OFF arena_test_off
static size_t arena_test_map_min = ARENA_MAP;
#define ARENA_MAP_MIN arena_test_map_min
static size_t arena_test_map_huge = ARENA_MAP;
#define ARENA_MAP_HUGE arena_test_map_huge
static size_t arena_test_spare_max = (size_t)64 << 20;
#define SPARE_MAX arena_test_spare_max
#include "util/arena.c"

#include <errno.h>

#include "generators/gen.h"
#include "generators/producer.h"
#include "scev/scev.h"

#define NBLK 3000

/* Many blocks of mixed sizes, some zeroed, each filled with its own byte: none overlaps
 * another, none moves when the arena grows. */
static void blocks(void)
{
	static unsigned char *p[NBLK];
	static size_t sz[NBLK];
	struct arena a;

	arena_open(&a);
	for (int i = 0; i < NBLK; i++) {
		uint64_t h = (uint64_t)(i + 1) * 0x9e3779b97f4a7c15ull >> 40;	/* (sizes spread) */

		sz[i] = i % 97 == 0 ? ARENA_BIG + h % 5000 : h % (i % 10 ? 300 : 9000);
		p[i] = i & 1 ? arena_zalloc(1, sz[i]) : arena_alloc(sz[i]);
		CHECK(p[i] != NULL, "block %d of %zu bytes", i, sz[i]);
		CHECK(((uintptr_t)p[i] & 15) == 0, "block %d at %p: not 16-byte aligned", i,
		      (void *)p[i]);
		CHECK(arena_owns(p[i]) == (sz[i] < ARENA_BIG), "block %d of %zu bytes: owned %d", i,
		      sz[i], arena_owns(p[i]));
		if (i & 1)
			for (size_t k = 0; k < sz[i]; k++)
				if (p[i][k]) {
					CHECK(0, "zeroed block %d: byte %zu is %u", i, k, p[i][k]);
					break;
				}
		memset(p[i], i & 0xff, sz[i]);
	}
	CHECK(a.chunks != NULL, "3000 blocks fit in the first block?");
	for (int i = 0; i < NBLK; i++)
		for (size_t k = 0; k < sz[i]; k++)
			if (p[i][k] != (i & 0xff)) {
				CHECK(0, "block %d byte %zu: %u, expected %u (overwritten)", i, k,
				      p[i][k], i & 0xff);
				break;
			}
	for (int i = 0; i < NBLK; i++)
		arena_free(p[i]);	/* the big ones go back to malloc now */
	arena_close(&a);
	CHECK(current == NULL && !first_taken, "closed: current %p, first block taken %d",
	      (void *)current, first_taken);
}

/* Nested arenas: the inner one takes no block of the outer's, frees only what malloc gave,
 * and after it closes the outer one is current again with its blocks intact. */
static void nested(void)
{
	struct arena outer, inner;
	char *o, *i1, *m;

	arena_open(&outer);
	o = arena_alloc(100);
	memset(o, 'o', 100);
	arena_open(&inner);
	CHECK(inner.first == NULL, "the inner arena took the thread's first block too");
	i1 = arena_alloc(100);
	memset(i1, 'i', 100);
	CHECK(arena_owns(o) && arena_owns(i1), "owned: outer %d, inner %d", arena_owns(o),
	      arena_owns(i1));
	arena_free(o);		/* the outer arena's: nothing happens */
	arena_close(&inner);
	CHECK(current == &outer, "the outer arena is not current after the inner closed");
	CHECK(o[0] == 'o' && o[99] == 'o', "outer block changed: %c %c", o[0], o[99]);
	m = malloc(10);		/* allocated outside the arena, freed inside it: free() */
	arena_free(m);
	arena_close(&outer);
	m = arena_alloc(10);	/* no arena open: malloc */
	CHECK(m != NULL && !arena_owns(m), "no arena open: not malloc's");
	arena_free(m);
	CHECK(arena_zalloc(SIZE_MAX / 2, 4) == NULL, "n * size overflowing is not refused");
}

/* Large blocks: the hint leaves their bytes as they are (a hint that dropped pages would read
 * zero where a byte was written; one applied to memory in use by other blocks, whatever the
 * sanitizer reports). */
static void large(void)
{
	size_t big = HUGE_HINT_MIN * 2 + 12345;
	struct claim_prog cp = { 0 };
	struct arena a;
	unsigned char *z, *m, *b;
	size_t bad = SIZE_MAX;

	arena_open(&a);
	z = arena_zalloc(1, big);
	m = arena_alloc(big);
	b = malloc_large(big);
	CHECK(z && m && b, "large blocks of %zu bytes", big);
	for (size_t k = 0; k < big && bad == SIZE_MAX; k++)
		if (z[k])
			bad = k;
	CHECK(bad == SIZE_MAX, "a large zeroed block: byte %zu is not zero", bad);
	for (size_t k = 0; k < big; k++)
		m[k] = b[k] = (unsigned char)(k * 7 + 1);
	huge_pages_hint(m, big);	/* (again, on pages already in use: nothing changes) */
	for (size_t k = 0; k < big && bad == SIZE_MAX; k++)
		if (m[k] != (unsigned char)(k * 7 + 1) || b[k] != m[k])
			bad = k;
	CHECK(bad == SIZE_MAX, "a large block changed at byte %zu", bad);
	arena_free(z);
	arena_free(m);
	free(b);
	arena_close(&a);

	/* ranges added, a reserve past them (of more than HUGE_HINT_MIN bytes), more added
	 * than it holds: every range in order */
	for (uint32_t k = 0; k < 1000; k++)
		CHECK(!claim_prog__add_range(&cp, &(struct claim_range){ .pc = k, .loc = 1 }),
		      "add range %u", k);
	CHECK(!claim_prog__reserve_ranges(&cp, 50000) && cp.capranges >= 50000,
	      "reserve: capacity %u", cp.capranges);
	CHECK(!claim_prog__reserve_ranges(&cp, 10) && cp.capranges >= 50000,
	      "a smaller reserve shrank the array to %u", cp.capranges);
	for (uint32_t k = 1000; k < 120000; k++)
		CHECK(!claim_prog__add_range(&cp, &(struct claim_range){ .pc = k, .loc = 1 }),
		      "add range %u", k);
	bad = SIZE_MAX;
	for (uint32_t k = 0; k < cp.nranges && bad == SIZE_MAX; k++)
		if (cp.ranges[k].pc != k || cp.ranges[k].loc != 1)
			bad = k;
	CHECK(cp.nranges == 120000 && bad == SIZE_MAX, "%u ranges, range %zu wrong",
	      cp.nranges, bad);
	claim_prog__free(&cp);
}

/* Whether [p, p + 1) is mapped (msync fails with ENOMEM on an unmapped page). */
static bool page_mapped(const void *p)
{
	return msync((void *)((uintptr_t)p & ~(page_size() - 1)), 1, MS_ASYNC) == 0 ||
	       errno != ENOMEM;
}

/* Blocks mapped on their own (map_block): aligned, zero, kept; arena_free unmaps one, and
 * arena_close the one left (a free() of either would be ASan's bad free). */
static void mapped(void)
{
	size_t big = ARENA_MAP + 12345, huge = 3 * ARENA_MAP + 7;
	unsigned char *z, *m, *s;
	size_t bad = SIZE_MAX;
	struct arena a;

	arena_open(&a);
	z = arena_zalloc(big, 1);
	m = arena_alloc(huge);
	CHECK(z && m, "mapped blocks of %zu and %zu bytes", big, huge);
	if (!z || !m)
		return;
	CHECK(((uintptr_t)z & (HUGE_PAGE - 1)) == 0 && ((uintptr_t)m & (HUGE_PAGE - 1)) == 0,
	      "mapped blocks at %p, %p: not on 2 MiB boundaries", (void *)z, (void *)m);
	CHECK(a.maps && a.maps->next && !a.maps->next->next, "two mapped blocks not listed");
	for (size_t k = 0; k < big && bad == SIZE_MAX; k++)
		if (z[k])
			bad = k;
	CHECK(bad == SIZE_MAX, "a mapped zeroed block: byte %zu is not zero", bad);
	for (size_t k = 0; k < huge; k++)
		m[k] = (unsigned char)(k * 13 + 5);
	for (int i = 0; i < 200; i++)	/* the arena grows meanwhile */
		s = arena_alloc(5000), memset(s, 0xee, 5000);
	for (size_t k = 0; k < huge && bad == SIZE_MAX; k++)
		if (m[k] != (unsigned char)(k * 13 + 5))
			bad = k;
	CHECK(bad == SIZE_MAX, "a mapped block changed at byte %zu", bad);
	arena_free(z);
	CHECK(page_mapped(m) && a.maps && !a.maps->next, "arena_free of a mapped block: %d",
	      page_mapped(m));
	arena_close(&a);
	CHECK(!page_mapped(m) && !page_mapped(z) && !spare,
	      "arena_close left a mapped block mapped, or the spare");
}

/* Fills n bytes at p with the bytes of seed. */
static void fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t k = 0; k < n; k++)
		p[k] = (unsigned char)(k * 31 + seed);
}

/* Whether the n bytes at p are fill(p, n, seed)'s. */
static bool filled(const unsigned char *p, size_t n, unsigned seed)
{
	for (size_t k = 0; k < n; k++)
		if (p[k] != (unsigned char)(k * 31 + seed))
			return false;
	return true;
}

static bool all_zero(const unsigned char *p, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (p[k])
			return false;
	return true;
}

/* The spare (arena.c): mapped blocks freed, slab regions emptied and claims' chunks given back
 * keep their touched 2 MiB pages for the next mapped block (not zeroed), slab region or
 * arena_pages_alloc, and not for arena_zalloc (which reads zero); pieces not touched are
 * unmapped, past SPARE_MAX all is, and the outermost arena_close unmaps the spare.  A block
 * served from it that was not, a zeroed one that kept old bytes, or memory lost or unmapped
 * while in use fails here. */
static void spare_reuse(void)
{
	const size_t H = HUGE_PAGE;
	unsigned char *m, *b, *c, *z, *g;
	struct arena a, in;

	arena_open(&a);
	/* a block freed whole: the next block of its size is the same pages, bytes kept */
	m = arena_alloc(2 * H);
	CHECK(m != NULL, "a mapped block of 4 MiB");
	if (!m)
		return;
	fill(m, 2 * H, 1);
	arena_free(m);
	CHECK(spare_bytes == 2 * H && page_mapped(m), "freed: %zu bytes spare", spare_bytes);
	/* a zeroed block of its size: the same pages, cleared */
	z = arena_zalloc(2 * H, 1);
	CHECK(z == m && all_zero(z, 2 * H) && spare_bytes == 0,
	      "a zeroed block did not take the spare's pages (%p for %p) or is not zero", (void *)z,
	      (void *)m);
	if (!z)
		return;
	fill(z, 2 * H, 1);
	arena_free(z);
	b = arena_alloc(2 * H);
	CHECK(b == m && filled(b, 2 * H, 1) && spare_bytes == 0,
	      "the spare did not serve a block of its size (%p for %p)", (void *)b, (void *)m);
	/* a block larger than any spare extent: two extents moved over a fresh mapping's start,
	 * the rest fresh (zero) */
	c = arena_alloc(H);
	CHECK(c != NULL, "a mapped block of 2 MiB");
	if (!c || !b)
		goto out;
	fill(c, H, 2);
	arena_free(b);
	arena_free(c);	/* (spare: c's 2 MiB, then b's 4 MiB) */
	g = arena_alloc(4 * H);
	CHECK(g && spare_bytes == 0 && !page_mapped(c) && !page_mapped(b),
	      "spare left %zu bytes, old pages still mapped where they were", spare_bytes);
	if (g)
		CHECK(filled(g, H, 2) && filled(g + H, 2 * H, 1) && all_zero(g + 3 * H, H),
		      "a block assembled from the spare lost bytes or is not zero past them");
	/* only touched pieces are kept */
	m = arena_alloc(2 * H);
	if (m) {
		fill(m + H, H, 3);	/* (the first 2 MiB never touched) */
		arena_free(m);
		CHECK(spare_bytes == H && !page_mapped(m) && page_mapped(m + H),
		      "an untouched piece kept: %zu bytes spare", spare_bytes);
	}
	/* a slab region from the spare (the thread's kept region first, when there is one) */
	b = arena_slab_alloc(100);
	CHECK(b != NULL, "a slab block");
	if (b && m && !kept_region)
		CHECK((unsigned char *)slab_region_of((struct slab_head *)b - 1) == m + H &&
		      spare_bytes == 0, "the slab's region is not the spare's (%zu bytes spare)",
		      spare_bytes);
	/* the claims' chunks' pages: from the spare, and back to it while an arena is open */
	if (g) {
		size_t before;

		arena_free(g);
		before = spare_bytes;
		c = arena_pages_alloc(2 * H);
		CHECK(c && c >= g && c < g + 4 * H && spare_bytes == before - 2 * H &&
		      filled(c, H, 2), "arena_pages_alloc did not take the spare's pages");
		if (c) {
			fill(c, 2 * H, 4);
			arena_pages_free(c, 2 * H);
			CHECK(page_mapped(c) && spare_bytes == before,
			      "arena_pages_free in an arena: not to the spare");
		}
	}
	/* an inner arena's blocks go to the spare when it closes, not away */
	arena_open(&in);
	m = arena_alloc(H);
	if (m)
		fill(m, H, 5);
	arena_close(&in);
	CHECK(m && page_mapped(m), "an inner arena's block unmapped at its close");
	/* a zeroed block larger than every spare extent: the spare's pages (old bytes) moved over
	 * its start, cleared, the rest fresh */
	if (spare_bytes) {
		size_t len = spare_bytes + H + 12345;

		z = arena_zalloc(len, 1);
		CHECK(z && spare_bytes == 0 && all_zero(z, len),
		      "a zeroed block assembled from the spare is not zero (%zu bytes spare)",
		      spare_bytes);
		if (z) {
			fill(z, len, 9);
			arena_free(z);
		}
	}
	/* past SPARE_MAX, pieces are unmapped */
	{
		size_t before;

		z = arena_zalloc(2 * H, 1);	/* (from the spare or not) */
		before = spare_bytes;
		arena_test_spare_max = before + H;
		if (z) {
			fill(z, 2 * H, 6);
			arena_free(z);
			CHECK(spare_bytes == before && !page_mapped(z),
			      "the spare passed its cap: %zu bytes, %zu before", spare_bytes, before);
		}
		arena_test_spare_max = (size_t)64 << 20;
	}
	arena_slab_free(b);
out:
	arena_close(&a);
	CHECK(!spare && !spare_bytes, "the outermost arena_close left %zu bytes spare",
	      spare_bytes);
	c = arena_pages_alloc(H);	/* no arena open: mapped, then unmapped */
	CHECK(c && ((uintptr_t)c & (H - 1)) == 0, "arena_pages_alloc with no arena open");
	if (c) {
		fill(c, H, 7);
		arena_pages_free(c, H);
		CHECK(!page_mapped(c), "arena_pages_free with no arena open left it mapped");
	}
}

/* Regions the arena holds now. */
static int regions(const struct arena *a)
{
	int n = 0;

	for (const struct slab_region *r = a->regions; r; r = r->next)
		n++;
	return n;
}

#define NSLAB 8000

/* The slab: blocks of mixed sizes (past 3 regions), a third grown (in place when the last one
 * carved, else moved) or shrunk, each filled with its own byte; freed in a scattered order, the
 * emptied regions given back; then the blocks with no arena open. */
static void slab(void)
{
	static unsigned char *p[NSLAB];
	static size_t sz[NSLAB];
	struct arena a;
	int bad = -1;

	arena_open(&a);
	for (int i = 0; i < NSLAB; i++) {
		uint64_t h = (uint64_t)(i + 7) * 0x9e3779b97f4a7c15ull >> 40;

		sz[i] = i % 101 == 0 ? SLAB_MAX + h % 3000 : h % (i % 7 ? 600 : 6000);
		p[i] = arena_slab_alloc(sz[i]);
		CHECK(p[i] != NULL, "slab block %d of %zu bytes", i, sz[i]);
		CHECK(((uintptr_t)p[i] & 15) == 0, "slab block %d at %p: not 16-byte aligned", i,
		      (void *)p[i]);
		memset(p[i], i & 0xff, sz[i]);
		if (i % 3 == 0) {
			size_t nsz = i % 2 ? sz[i] / 2 : sz[i] * 2 + 40;
			unsigned char *q = arena_slab_realloc(p[i], nsz);

			CHECK(q != NULL, "slab block %d resized to %zu bytes", i, nsz);
			for (size_t k = 0; k < sz[i] && k < nsz && bad < 0; k++)
				if (q[k] != (i & 0xff))
					bad = i;
			p[i] = q;
			sz[i] = nsz;
			memset(p[i], i & 0xff, sz[i]);
		}
	}
	CHECK(bad < 0, "slab block %d lost its bytes when resized", bad);
	CHECK(regions(&a) >= 3, "%d slab regions for %d blocks", regions(&a), NSLAB);
	for (int i = 0; i < NSLAB; i++)
		for (size_t k = 0; k < sz[i]; k++)
			if (p[i][k] != (i & 0xff)) {
				CHECK(0, "slab block %d byte %zu: %u, expected %u (overwritten)", i, k,
				      p[i][k], i & 0xff);
				break;
			}
	for (int i = 0; i < NSLAB; i++)
		arena_slab_free(p[(i * 1237) % NSLAB]);	/* (1237 is prime to 8000) */
	CHECK(regions(&a) <= 2, "every slab block freed, %d regions kept", regions(&a));
	for (int i = 0; i < 100; i++)	/* the regions serve again */
		p[i] = arena_slab_alloc(1000), memset(p[i], 1, 1000);
	CHECK(regions(&a) <= 2, "100 blocks after, %d regions", regions(&a));
	for (int i = 0; i < 100; i++)
		arena_slab_free(p[i]);
	arena_close(&a);
	p[0] = arena_slab_alloc(100);	/* no arena open: malloc */
	p[0] = arena_slab_realloc(p[0], 5000);
	CHECK(p[0] != NULL, "a slab block with no arena open");
	memset(p[0], 2, 5000);
	arena_slab_free(p[0]);
	arena_slab_free(NULL);
}

#define NCHUNK 4000

/* Blocks from a program's chunks, each filled with its own byte, some large enough for chunks
 * of their own; texts of a chunked and an unchunked trip; then claim_prog__free. */
static void chunks(void)
{
	static unsigned char *p[NCHUNK];
	static size_t sz[NCHUNK];
	struct claim_prog cp = { 0 };
	struct claim_loop *l;
	bool huge = false;

	for (int i = 0; i < NCHUNK; i++) {
		uint64_t h = (uint64_t)(i + 1) * 0x9e3779b97f4a7c15ull >> 40;

		sz[i] = i % 500 == 7 ? (3u << 20) + h % 5000 : h % (i % 10 ? 200 : 5000);
		p[i] = claim_prog__chunk(&cp, sz[i]);
		CHECK(p[i] != NULL, "chunk block %d of %zu bytes", i, sz[i]);
		if (!p[i])
			return;
		CHECK(((uintptr_t)p[i] & 15) == 0, "chunk block %d at %p: not 16-byte aligned", i,
		      (void *)p[i]);
		memset(p[i], i & 0xff, sz[i]);
		/* (a chunk of 2 MiB or more starts on a 2 MiB boundary: its header, just before) */
		if (sz[i] >= (2u << 20))
			huge = huge || (((uintptr_t)p[i] - 32) & ((2u << 20) - 1)) == 0;
	}
	CHECK(huge, "no block of 3 MiB began a chunk on a 2 MiB boundary");
	for (int i = 0; i < NCHUNK; i++)
		for (size_t k = 0; k < sz[i]; k += 1 + sz[i] / 7)
			CHECK(p[i][k] == (i & 0xff), "chunk block %d byte %zu: %u, not %u", i, k,
			      p[i][k], i & 0xff);
	/* one chunked loop (blocks, ivs and texts in the chunks), one not (malloc's) */
	cp.loops = calloc(2, sizeof(*cp.loops));
	CHECK(cp.loops != NULL, "loops");
	if (!cp.loops)
		return;
	cp.nloops = 2;
	l = &cp.loops[0];
	l->chunked = true;
	l->blocks = claim_prog__chunk(&cp, sizeof(*l->blocks));
	l->ivs = claim_prog__chunk(&cp, 3 * sizeof(*l->ivs));
	l->trip.chunked = true;
	CHECK(!claim_trip__set_text_in(&cp, &l->trip, &l->trip.expr, "1 + first k with r1 >= 10"),
	      "chunked expr");
	CHECK(!claim_trip__set_text_in(&cp, &l->trip, &l->trip.reason, "a reason"), "reason");
	CHECK(!claim_trip__set_text_in(&cp, &l->trip, &l->trip.reason, "another reason"),
	      "reason again");
	CHECK(l->trip.expr && !strcmp(l->trip.expr, "1 + first k with r1 >= 10") &&
	      l->trip.reason && !strcmp(l->trip.reason, "another reason"), "chunked texts");
	CHECK(!claim_trip__set_text_in(&cp, &l->trip, &l->trip.reason, ""), "empty text");
	CHECK(l->trip.reason == NULL, "an empty text is NULL");
	l = &cp.loops[1];
	l->blocks = calloc(1, sizeof(*l->blocks));
	l->ivs = calloc(1, sizeof(*l->ivs));
	CHECK(!claim_trip__set_text_in(&cp, &l->trip, &l->trip.expr, "malloc's"), "expr");
	claim_trip__free_text(&cp.loops[0].trip);
	CHECK(!cp.loops[0].trip.expr && !cp.loops[0].trip.reason, "dropped texts");
	CHECK(!claim_trip__set_text_in(&cp, &cp.loops[0].trip, &cp.loops[0].trip.expr, "again"),
	      "expr again");
	claim_prog__free(&cp);
	CHECK(!cp.chunks && !cp.loops, "claim_prog__free clears the program");
}

/* A large range array grows into the spare (ranges_settle, arena_pages_cover): with 6 MiB
 * given back to the spare, a reserve takes none of it, ranges added to a reserve of 8 MiB take
 * those pages as they reach them (the spare empties, piece by piece), and every range reads
 * back as written, also past the reserve; pages already holding ranges are never replaced (the
 * values would be the spare's old bytes). */
static void ranges_spare(void)
{
	const size_t H = HUGE_PAGE;
	const uint32_t per = (uint32_t)(H / sizeof(struct claim_range)) + 1;
	struct claim_prog cp = { 0 }, none = { 0 };
	unsigned char *m;
	struct arena a;
	size_t before;
	uint32_t bad = UINT32_MAX;

	arena_open(&a);
	CHECK(!claim_prog__reserve_ranges(&cp, (uint32_t)(4 * H / sizeof(struct claim_range))),
	      "reserve");
	/* (the first piece: written before the spare holds anything) */
	for (uint32_t k = 0; k < 10; k++)
		CHECK(!claim_prog__add_range(&cp, &(struct claim_range){ .pc = k, .loc = 2 }),
		      "add range %u", k);
	m = arena_alloc(3 * H);
	CHECK(m != NULL && cp.ranges_map == 4 * H, "a mapped block, paged ranges");
	if (!m)
		goto out;
	fill(m, 3 * H, 3);
	arena_free(m);
	before = spare_bytes;
	CHECK(before == 3 * H, "spare %zu bytes", before);
	/* (a reserve takes none: a program may add no range to it) */
	CHECK(!claim_prog__reserve_ranges(&none, (uint32_t)(4 * H / sizeof(struct claim_range))) &&
	      none.ranges_map == 4 * H && spare_bytes == before,
	      "a reserve took %zu bytes of the spare", before - spare_bytes);
	claim_prog__free(&none);
	/* (ranges into a second and a third piece: two of the spare's three) */
	for (uint32_t k = 10; k < 2 * per; k++)
		CHECK(!claim_prog__add_range(&cp, &(struct claim_range){ .pc = k, .loc = 2 }),
		      "add range %u", k);
	CHECK(spare_bytes == before - 2 * H, "ranges into two more pieces took %zu of the spare's %zu "
	      "bytes, not 4 MiB", before - spare_bytes, before);
	/* (past the reserve: a larger array, the ranges copied there) */
	for (uint32_t k = 2 * per; k < 5 * per; k++)
		CHECK(!claim_prog__add_range(&cp, &(struct claim_range){ .pc = k, .loc = 2 }),
		      "add range %u", k);
	for (uint32_t k = 0; k < cp.nranges && bad == UINT32_MAX; k++)
		if (cp.ranges[k].pc != k || cp.ranges[k].loc != 2)
			bad = k;
	CHECK(cp.nranges == 5 * per && bad == UINT32_MAX, "%u ranges, range %u wrong",
	      cp.nranges, bad);
out:
	claim_prog__free(&cp);
	arena_close(&a);
}

/* The loops' array of a large program (claim_prog__alloc_loops) takes the spare's pages and
 * reads zero all the same (the spare's bytes cleared); growing it (claim_prog__grow_loops, the
 * callbacks' loops) keeps the loops it had, in place while the pages hold them, else copied to
 * malloc's block (ASan reports a bad free when claim_prog__free frees either the wrong way). */
static void loops_spare(void)
{
	const size_t H = HUGE_PAGE;
	const uint32_t n = (uint32_t)(3 * H / sizeof(struct claim_loop)) + 5;
	struct claim_prog cp = { 0 };
	unsigned char *m;
	struct arena a;
	uint32_t bad = UINT32_MAX;

	arena_open(&a);
	m = arena_alloc(4 * H);
	CHECK(m != NULL, "a mapped block");
	if (!m)
		goto out;
	fill(m, 4 * H, 5);
	arena_free(m);
	CHECK(!claim_prog__alloc_loops(&cp, n) && cp.nloops == n && cp.loops_map == 4 * H &&
	      spare_bytes == 0, "loops: %u, %zu bytes mapped, spare left %zu", cp.nloops,
	      cp.loops_map, spare_bytes);
	if (!cp.loops)
		goto out;
	CHECK(all_zero((unsigned char *)cp.loops, n * sizeof(*cp.loops)),
	      "the loops hold the spare's old bytes");
	for (uint32_t l = 0; l < n; l++)
		cp.loops[l].header = l + 1;
	CHECK(!claim_prog__grow_loops(&cp, n + 10) && cp.loops_map == 4 * H,
	      "room in the pages: moved");
	CHECK(!claim_prog__grow_loops(&cp, (uint32_t)(4 * H / sizeof(struct claim_loop)) + 1) &&
	      cp.loops_map == 0, "past the pages: still mapped");
	for (uint32_t l = 0; l < n && bad == UINT32_MAX; l++)
		if (cp.loops[l].header != l + 1)
			bad = l;
	CHECK(bad == UINT32_MAX, "loop %u lost when the array grew", bad);
out:
	claim_prog__free(&cp);
	arena_close(&a);
}

/* The chunked trips' texts: each reads back as it was set (claim_trip_reason, the JSON),
 * numbers and all; trips of one program that say the same text, or a
 * reason that differs only in its first number, share one copy (the pointers are equal); a
 * first number that printing would not give back (a leading 0, ten digits) is kept as it is. */
static void texts(void)
{
	static const char *const reason[] = {
		"exit at 59: the compared values are not numbers",
		"exit at 60: the compared values are not numbers",
		"exit at 059: the compared values are not numbers",
		"exit at 4294967296: the compared values are not numbers",
		"exit at 0: the compared values are not numbers",
		"123456789 at the start, 7 and 8 after",
		"at the end 42",
		"59",
		"no number",
		"another reason",
	};
	enum { N = sizeof(reason) / sizeof(reason[0]) };
	struct claim_prog cp = { 0 };
	struct claim_text_buf rb;
	struct claims *back = NULL;
	struct sbuf sb = SBUF_INIT;
	struct diag d;
	char longer[CLAIM_TRIP_TEXT + 40];

	cp.loops = calloc(N + 1, sizeof(*cp.loops));
	CHECK(cp.loops != NULL, "loops");
	if (!cp.loops)
		return;
	cp.nloops = N + 1;
	snprintf(cp.name, sizeof(cp.name), "texts");
	for (uint32_t i = 0; i <= N; i++) {
		struct claim_trip *t = &cp.loops[i].trip;

		/* (a loop the JSON reader takes: its header in its one block) */
		cp.loops[i].blocks = calloc(1, sizeof(*cp.loops[i].blocks));
		cp.loops[i].nblocks = cp.loops[i].blocks ? 1 : 0;

		t->chunked = true;
		CHECK(!claim_trip__set_text_in(&cp, t, &t->expr, "1 + first k with r1 >= 10"),
		      "expr %u", i);
		/* (set twice: the second replaces the first, number and all) */
		CHECK(!claim_trip__set_text_in(&cp, t, &t->reason, "exit at 7: first"), "reason");
		CHECK(!claim_trip__set_text_in(&cp, t, &t->reason, i < N ? reason[i] : ""),
		      "reason %u", i);
	}
	for (uint32_t i = 0; i < N; i++)
		CHECK(!strcmp(claim_trip_reason(&cp.loops[i].trip, &rb), reason[i]),
		      "reason %u reads '%s', not '%s'", i, claim_trip_reason(&cp.loops[i].trip, &rb),
		      reason[i]);
	CHECK(!claim_trip_reason(&cp.loops[N].trip, &rb)[0] && !cp.loops[N].trip.reason,
	      "an empty reason reads empty");
	CHECK(cp.loops[0].trip.reason == cp.loops[1].trip.reason &&
	      cp.loops[0].trip.reason == cp.loops[4].trip.reason,
	      "reasons that differ in their first number: not one copy");
	CHECK(cp.loops[0].trip.reason != cp.loops[2].trip.reason &&
	      cp.loops[0].trip.reason != cp.loops[3].trip.reason,
	      "a leading 0 or ten digits shared the copy of a number printed back");
	CHECK(cp.loops[0].trip.expr == cp.loops[N].trip.expr &&
	      !strcmp(claim_trip_expr(&cp.loops[N].trip), "1 + first k with r1 >= 10"),
	      "one expression, not one copy");
	/* a text past CLAIM_TRIP_TEXT - 1 bytes is cut there, its number put back in place */
	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	memcpy(longer, "exit at 12345: ", 15);
	CHECK(!claim_trip__set_text_in(&cp, &cp.loops[0].trip, &cp.loops[0].trip.reason, longer),
	      "long reason");
	CHECK(strlen(claim_trip_reason(&cp.loops[0].trip, &rb)) == CLAIM_TRIP_TEXT - 1 &&
	      !strncmp(rb.s, longer, CLAIM_TRIP_TEXT - 1), "a long reason reads '%s'", rb.s);
	CHECK(!claim_trip__set_text_in(&cp, &cp.loops[0].trip, &cp.loops[0].trip.reason,
				       reason[0]), "reason again");
	/* the JSON says the texts (its reader skips them: reported, not checked) */
	claims_write(&sb, &(struct claims){ .progs = &cp, .nprogs = 1 });
	for (uint32_t i = 0; i < N; i++) {
		char want[CLAIM_TRIP_TEXT + 16];

		snprintf(want, sizeof(want), "\"reason\": \"%s\"", reason[i]);
		CHECK(strstr(sbuf_cstr(&sb), want), "the JSON does not say %s", want);
	}
	CHECK(!strstr(sbuf_cstr(&sb), "exit at : "), "the JSON says a reason without its number");
	diag_clear(&d);
	CHECK(!claims_read(&back, sbuf_cstr(&sb), sb.len, &d), "read back: %s", d.msg);
	claims__free(back);
	sbuf_free(&sb);
	claim_prog__free(&cp);
}

/* Everything analyze and verify say of the program, as text. */
static void analysis_text(struct sbuf *sb, const struct ebpf_prog *p,
			  const struct ebpf_map_def *maps, size_t nmaps)
{
	struct scev_opts so = { .sz = sizeof(so) };
	struct scev_verdict v;
	struct claim_prog cp;
	struct diag d;

	diag_clear(&d);
	if (scev_analyze(&cp, p, maps, nmaps, &so, &d) == 0) {
		claims_write_prog(sb, &cp);
		claim_prog__free(&cp);
	} else {
		sbuf_printf(sb, "analyze: %s\n", d.msg);
	}
	so.strategy = SCEV_ITERATE;
	if (scev_verify(&v, &cp, p, maps, nmaps, &so, &d) == 0) {
		sbuf_printf(sb, "verdict %s %u %llu %s\n", scev_verdict_name(v.kind), v.pc,
			    (unsigned long long)v.max_insns, v.reason);
		claims_write_prog(sb, &cp);
		claim_prog__free(&cp);
	} else {
		sbuf_printf(sb, "verify: %s\n", d.msg);
	}
}

/* Programs analyzed with every block in whole huge pages (a few: each costs 2 MiB pages). */
static int huge_runs = 12;

static void same_with_and_without(const char *what, const struct ebpf_prog *p,
				  const struct ebpf_map_def *maps, size_t nmaps)
{
	struct sbuf on = SBUF_INIT, off = SBUF_INIT;

	arena_test_off = 1;
	analysis_text(&off, p, maps, nmaps);
	arena_test_off = 0;
	analysis_text(&on, p, maps, nmaps);
	CHECK(on.len == off.len && !memcmp(sbuf_cstr(&on), sbuf_cstr(&off), on.len),
	      "%s: the analysis differs with the arena (%zu bytes of output, %zu without)", what,
	      on.len, off.len);
	sbuf_reset(&on);
	arena_test_map_min = 1024;	/* (every block from 1 KiB mapped on its own) */
	analysis_text(&on, p, maps, nmaps);
	arena_test_map_min = ARENA_MAP;
	CHECK(on.len == off.len && !memcmp(sbuf_cstr(&on), sbuf_cstr(&off), on.len),
	      "%s: the analysis differs with blocks mapped (%zu bytes of output, %zu without)",
	      what, on.len, off.len);
	if (huge_runs > 0) {
		/* every block from 1 KiB whole 2 MiB pages, so that blocks freed go to the spare
		 * and come back with old bytes: a block read before it is written shows */
		huge_runs--;
		sbuf_reset(&on);
		arena_test_map_min = arena_test_map_huge = 1024;
		analysis_text(&on, p, maps, nmaps);
		arena_test_map_min = arena_test_map_huge = ARENA_MAP;
		CHECK(on.len == off.len && !memcmp(sbuf_cstr(&on), sbuf_cstr(&off), on.len),
		      "%s: the analysis differs with blocks from the spare (%zu bytes of output, "
		      "%zu without)", what, on.len, off.len);
	}
	sbuf_free(&on);
	sbuf_free(&off);
}

static void analyses(void)
{
	struct gen_knobs k = gen_knobs_default();
	static const char *const calls =
		"r1 = 5\ncall f\nr6 = r0\nr1 = 0\nl: r1 += 1\nif r1 < 20 goto l\n"
		"r0 = r6\nexit\nf: r0 = r1\nr2 = 0\nm: r2 += 2\nr0 += 1\nif r2 < 10 goto m\nexit\n";
	struct ebpf_object *obj = NULL;
	struct diag d;
	int n = 0;

	for (uint64_t seed = 1; seed <= 250; seed++) {
		struct gen_program gp = { 0 };
		struct ebpf_prog view;
		struct gen_src src;
		char what[32];

		gen_src_init_seed(&src, seed);
		if (gen_program(&gp, &src, &k)) {
			gen_program__free(&gp);
			continue;
		}
		gen_program__prog(&gp, &view, "arena");
		snprintf(what, sizeof(what), "seed %llu", (unsigned long long)seed);
		same_with_and_without(what, &view, gp.maps, gp.map_cnt);
		gen_program__free(&gp);
		n++;
	}
	CHECK(n > 200, "only %d programs generated", n);
	diag_clear(&d);
	CHECK(!ebpf_object__open_mem(&obj, calls, strlen(calls), "calls", &d), "%s", d.msg);
	if (obj) {
		same_with_and_without("subprograms", &obj->progs[0], NULL, 0);
		ebpf_object__free(obj);
	}
}

int main(void)
{
	blocks();
	nested();
	large();
	mapped();
	spare_reuse();
	slab();
	chunks();
	ranges_spare();
	loops_spare();
	texts();
	analyses();
	return check_done("test_arena");
}
