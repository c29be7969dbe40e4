/* The per-analysis arena: see arena.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* mremap */
#endif
#include "util/arena.h"
#include "util/arena_pages.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

/* Blocks mapped each on its own (map_block): ARENA_MAP bytes or more (tests/test_arena.c
 * lowers it to see that every such block is given back with arena_free, not free()). */
#ifndef ARENA_MAP_MIN
#define ARENA_MAP_MIN ARENA_MAP
#endif
/* ... and whole 2 MiB pages from ARENA_MAP bytes (tests/test_arena.c lowers it too, so that
 * small blocks go through the spare). */
#ifndef ARENA_MAP_HUGE
#define ARENA_MAP_HUGE ARENA_MAP
#endif

#define ARENA_ALIGN 16u
#define ARENA_FIRST (32u << 10)		/* the thread's first block: a small program's needs */
#define ARENA_CHUNK (64u << 10)		/* the first chunk after it; chunks double up to ... */
#define ARENA_CHUNK_MAX (1u << 20)

struct arena_chunk {
	struct arena_chunk *next;
	size_t size;			/* bytes after the header */
} __attribute__((aligned(16)));

#define HUGE_PAGE (2u << 20)

/* A mapped block (map_block): where the block starts and how long its mapping is. */
struct arena_map {
	struct arena_map *next;
	void *p;
	size_t len;
};

/* The slab (arena.h).  A region is 2 MiB on a 2 MiB boundary: a block's region is its address
 * rounded down, and the region's head says whose it is and how many of its blocks are alive. */
struct slab_region {
	struct arena *owner;
	struct slab_region *next, **pprev;	/* the owner's regions */
	uint64_t live;				/* blocks not yet freed */
} __attribute__((aligned(16)));

static _Thread_local struct arena *current;
/* One slab region (empty) kept past its arena's close for the thread's next arena: a campaign
 * opens an arena per program, and mapping, faulting in (the kernel zeroes the 2 MiB page) and
 * unmapping a region each time cost a third of its CPU (docs/BENCHMARKS.md, issue 13, fifteenth
 * round).  Its bytes are the last arena's: slab blocks are not zeroed. */
static _Thread_local struct slab_region *kept_region;
static _Thread_local char first_block[ARENA_FIRST] __attribute__((aligned(16)));
static _Thread_local bool first_taken;

/* The spare: mapped memory the arena gave back (mapped blocks freed, slab regions emptied,
 * whatever an arena that closed inside another held), kept in whole 2 MiB pages for the next
 * mapped blocks and slab regions of the thread, until the outermost arena closes.  A fresh
 * 2 MiB page costs the kernel's zeroing and, on this kind of virtual machine, the host's first
 * touch: a 1M-instruction analysis of deep nests took 408 huge pages (816 MB) for a peak of
 * 419 MB, many of them to replace memory it had just unmapped; with the spare 331
 * (docs/BENCHMARKS.md, issue 13, sixteenth round).  Reused memory holds old bytes: blocks not
 * zeroed, slab regions and arena_pages_alloc take it as it is, arena_zalloc's blocks cleared
 * (map_block).  Only pieces whose pages are all resident are kept (spare_put): the rest is
 * unmapped as before, and so is what passes SPARE_MAX, so that the process holds at most that
 * much more than it uses (the spare is full at the end of a long analysis, when its loop
 * summaries' regions are freed).  64 MB: with zeroed blocks served too, 32 MB left 1M
 * instructions of deep nests 60 MB more fresh pages than 64 MB did, and 128 MB or 1 GB no fewer
 * than 64 MB (seventeenth round). */
#ifndef SPARE_MAX
#define SPARE_MAX ((size_t)64 << 20)
#endif
static _Thread_local struct arena_map *spare;	/* extents, 2 MiB-aligned and -long */
static _Thread_local size_t spare_bytes;

/* How many of the pages of the 2 MiB at p are resident (mincore), and how many it has (0, 0
 * when mincore fails). */
static size_t piece_pages(char *p, size_t *n)
{
	unsigned char vec[HUGE_PAGE / 4096];
	size_t k = 0;

	*n = HUGE_PAGE / page_size();
	if (*n > sizeof(vec) || mincore(p, HUGE_PAGE, vec)) {
		*n = 0;
		return 0;
	}
	for (size_t i = 0; i < *n; i++)
		k += vec[i] & 1;
	return k;
}

/* Whether every page of the 2 MiB at p is resident. */
static bool piece_resident(char *p)
{
	size_t n, k = piece_pages(p, &n);

	return n && k == n;
}

/* Whether no page of the 2 MiB at p is resident (false when that is not known). */
static bool piece_untouched(char *p)
{
	size_t n, k = piece_pages(p, &n);

	return n && !k;
}

/* Keeps [p, p + len) in the spare, or unmaps it when the spare is full. */
static void spare_keep(char *p, size_t len)
{
	struct arena_map *m;

	if (spare_bytes + len > SPARE_MAX || !(m = malloc(sizeof(*m)))) {
		munmap(p, len);
		return;
	}
	m->p = p;
	m->len = len;
	m->next = spare;
	spare = m;
	spare_bytes += len;
}

/* Gives the mapping [p, p + len) back: its runs of resident 2 MiB pieces to the spare (when p
 * and len are whole 2 MiB pages), the rest unmapped. */
static void spare_put(char *p, size_t len)
{
	if (((uintptr_t)p | len) & (HUGE_PAGE - 1)) {
		munmap(p, len);
		return;
	}
	for (size_t off = 0, run; off < len; off += run) {
		bool keep = piece_resident(p + off);

		for (run = HUGE_PAGE; off + run < len && piece_resident(p + off + run) == keep;)
			run += HUGE_PAGE;
		if (keep)
			spare_keep(p + off, run);
		else
			munmap(p + off, run);
	}
}

/* A spare extent of len bytes (whole 2 MiB pages), from the smallest that holds them; NULL
 * when none does. */
static char *spare_take(size_t len)
{
	struct arena_map **best = NULL, *m;
	char *p;

	for (struct arena_map **mp = &spare; (m = *mp); mp = &m->next)
		if (m->len >= len && (!best || m->len < (*best)->len))
			best = mp;
	if (!best)
		return NULL;
	m = *best;
	p = m->p;
	spare_bytes -= len;
	if (m->len == len) {
		*best = m->next;
		free(m);
	} else {
		m->p += len;
		m->len -= len;
	}
	return p;
}

/* Moves spare extents (mremap: their pages, not their bytes) over the start of the fresh
 * mapping [p, p + len) (whole 2 MiB pages) until it is covered or the spare empty; returns how
 * many bytes from p were moved there (and hold old bytes). */
static size_t spare_move(char *p, size_t len)
{
	size_t moved = 0;
	struct arena_map *m;

	while (moved < len && (m = spare)) {
		size_t piece = m->len < len - moved ? m->len : len - moved;

		if (mremap(m->p, piece, piece, MREMAP_MAYMOVE | MREMAP_FIXED, p + moved) ==
		    MAP_FAILED)
			break;
		moved += piece;
		spare_bytes -= piece;
		if (piece == m->len) {
			spare = m->next;
			free(m);
		} else {
			m->p += piece;
			m->len -= piece;
		}
	}
	return moved;
}

/* Unmaps the spare (the outermost arena closed). */
static void spare_flush(void)
{
	for (struct arena_map *m = spare, *mn; m; m = mn) {
		mn = m->next;
		munmap(m->p, m->len);
		free(m);
	}
	spare = NULL;
	spare_bytes = 0;
}

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
	for (struct arena_map *m = a->maps, *mn; m; m = mn) {
		mn = m->next;
		spare_put(m->p, m->len);
		free(m);
	}
	for (struct slab_region *r = a->regions, *rn; r; r = rn) {
		rn = r->next;
		if (!kept_region)
			kept_region = r;
		else
			spare_put((char *)r, HUGE_PAGE);
	}
	if (a->first)
		first_taken = false;
	current = a->outer;
	if (!current)
		spare_flush();
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

/* A fresh mapping of len bytes (whole pages) on a 2 MiB boundary, asked for huge pages when
 * huge; NULL when out of memory. */
static char *map_aligned(size_t len, bool huge)
{
	char *base, *p;

	if (len > SIZE_MAX - HUGE_PAGE)
		return NULL;
	base = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	if (base == MAP_FAILED)
		return NULL;
	/* (the 2 MiB boundary inside, and what lies before it and past the block given back) */
	p = (char *)(((uintptr_t)base + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
	if (p > base)
		munmap(base, (size_t)(p - base));
	if (p + len < base + len + HUGE_PAGE)
		munmap(p + len, (size_t)(base + len + HUGE_PAGE - (p + len)));
#ifdef MADV_HUGEPAGE
	if (huge)
		(void)madvise(p, len, MADV_HUGEPAGE);
#endif
	return p;
}

/* A block of ARENA_MAP_MIN bytes or more in arena a: a mapping of its own that starts on a
 * 2 MiB boundary and, from ARENA_MAP bytes, ends on one, asked for huge pages.  malloc maps such
 * a block too, but 16 bytes past a page boundary, so the kernel could back with huge pages only
 * the 2 MiB ranges wholly inside it: a block of 3 MiB got one at most, and 4 KiB pages for the
 * rest, a page fault each (microseconds in a virtual machine), and a block under 2 MiB none.
 * Aligned, each 2 MiB of the block is one fault; the last huge page holds up to 2 MiB past the
 * block's end once that end is touched (no more than the block itself from ARENA_MAP bytes).
 * A fresh mapping's pages read zero until written.  A block from ARENA_MAP bytes is served by
 * the spare first, whole (spare_take) or moved over the start of a fresh mapping (spare_move);
 * a zeroed one (arena_zalloc) then has the spare's old bytes cleared by memset.  Clearing
 * resident pages is far cheaper here than the kernel's zeroing of fresh ones with the host's
 * first touch (docs/BENCHMARKS.md, issue 13, seventeenth round: 1M instructions of deep nests
 * took 707 MB of pages for a peak of 452 MB; with zeroed blocks from the spare 616 MB, peak
 * 448 MB). */
static __attribute__((noinline)) void *map_block(struct arena *a, size_t bytes, bool zeroed)
{
	size_t round = bytes >= ARENA_MAP_HUGE ? HUGE_PAGE : page_size();
	size_t len = (bytes + round - 1) & ~(round - 1);
	struct arena_map *m = malloc(sizeof(*m));
	bool reuse = round == HUGE_PAGE;
	char *p;

	if (!m || len < bytes)
		goto fail;
	if (reuse && (p = spare_take(len))) {
		if (zeroed)
			memset(p, 0, bytes);
	} else {
		size_t moved;

		if (!(p = map_aligned(len, round == HUGE_PAGE)))
			goto fail;
		if (reuse && (moved = spare_move(p, len)) && zeroed)
			memset(p, 0, moved < bytes ? moved : bytes);
	}
	m->p = p;
	m->len = len;
	m->next = a->maps;
	a->maps = m;
	return p;
fail:
	free(m);
	return NULL;
}

void *arena_pages_alloc(size_t bytes)
{
	char *p;

	if (!bytes || (bytes & (HUGE_PAGE - 1)))
		return NULL;
	if ((p = spare_take(bytes)))
		return p;
	if ((p = map_aligned(bytes, true)))
		spare_move(p, bytes);
	return p;
}

void *arena_pages_reserve(size_t bytes)
{
	if (!bytes || (bytes & (HUGE_PAGE - 1)))
		return NULL;
	return map_aligned(bytes, true);
}

void arena_pages_free(void *p, size_t bytes)
{
	if (!p)
		return;
	if (current)
		spare_put(p, bytes);
	else
		munmap(p, bytes);
}

size_t arena_pages_cover(void *p, size_t len)
{
	size_t moved = 0;

	if (((uintptr_t)p | len) & (HUGE_PAGE - 1))
		return 0;
	for (size_t off = 0; off < len && spare; off += HUGE_PAGE)
		if (piece_untouched((char *)p + off))
			moved += spare_move((char *)p + off, HUGE_PAGE);
	return moved;
}

/* Gives p back (spare_put) when it is a mapped block of an open arena. */
static bool unmap_block(void *p)
{
	if ((uintptr_t)p & (HUGE_PAGE - 1))
		return false;
	for (struct arena *a = current; a; a = a->outer)
		for (struct arena_map **mp = &a->maps, *m; (m = *mp); mp = &m->next)
			if (m->p == p) {
				*mp = m->next;
				spare_put(m->p, m->len);
				free(m);
				return true;
			}
	return false;
}

/* arena_alloc's blocks other than those the current chunk holds (out of line: the common
 * path below stays a few instructions without a stack frame). */
static __attribute__((noinline)) void *arena_alloc_slow(struct arena *a, size_t bytes)
{
	size_t need = (bytes + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	void *p;

	if (!ARENA_OFF && a && bytes >= ARENA_MAP_MIN)
		return map_block(a, bytes, false);
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

void *arena_alloc(size_t bytes)
{
	struct arena *a = current;
	size_t need = (bytes + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	char *p;

	/* (0 bytes take ARENA_ALIGN, as the slow path gives them) */
	if (ARENA_OFF || !a || bytes >= ARENA_BIG || bytes >= ARENA_MAP_MIN || !need ||
	    (size_t)(a->end - a->at) < need)
		return arena_alloc_slow(a, bytes);
	p = a->at;
	a->at = p + need;
	return p;
}

void *arena_zalloc(size_t n, size_t size)
{
	size_t bytes;
	void *p;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	if (!ARENA_OFF && current && bytes >= ARENA_MAP_MIN)
		return map_block(current, bytes, true);
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
	if (p && (ARENA_OFF || !current || (!unmap_block(p) && !arena_owns(p))))
		free(p);
}

#define SLAB_IN_REGION 0x51ab
#define SLAB_MALLOC 0x3a11

struct slab_head {
	uint64_t bytes;
	uint32_t kind;
	uint32_t pad;
};
_Static_assert(sizeof(struct slab_head) == 16, "blocks stay 16-byte aligned");

/* A block's room in its region, header included. */
static size_t slab_room(size_t bytes)
{
	return (sizeof(struct slab_head) + bytes + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
}

static struct slab_region *slab_region_of(const struct slab_head *h)
{
	return (struct slab_region *)((uintptr_t)h & ~(uintptr_t)(HUGE_PAGE - 1));
}

static void *slab_malloc(size_t bytes)
{
	struct slab_head *h = malloc(sizeof(*h) + bytes);

	if (!h)
		return NULL;
	h->bytes = bytes;
	h->kind = SLAB_MALLOC;
	return h + 1;
}

/* Carving starts over in region r (empty), a's current one from now. */
static void slab_use(struct arena *a, struct slab_region *r)
{
	a->slab_cur = r;
	a->slab_at = (char *)(r + 1);
	a->slab_end = (char *)r + HUGE_PAGE;
}

/* A region that is empty and not current: kept as the spare when there is none, else unmapped. */
static void slab_release(struct arena *a, struct slab_region *r)
{
	if (!a->slab_spare) {
		a->slab_spare = r;
		return;
	}
	if (r->next)
		r->next->pprev = r->pprev;
	*r->pprev = r->next;
	spare_put((char *)r, HUGE_PAGE);
}

/* A 2 MiB region on a 2 MiB boundary: from the spare, else fresh and asked for a huge page;
 * NULL when out of memory. */
static char *map_region(void)
{
	return arena_pages_alloc(HUGE_PAGE);
}

/* A new current region for a: the spare, the thread's kept region, or a fresh mapping; false
 * when out of memory. */
static bool slab_next_region(struct arena *a)
{
	struct slab_region *old = a->slab_cur, *r = a->slab_spare;

	if (r) {
		a->slab_spare = NULL;
	} else {
		if (kept_region) {
			r = kept_region;	/* (the arena that closed let it go) */
			kept_region = NULL;
		} else if (!(r = (struct slab_region *)map_region())) {
			return false;
		}
		r->owner = a;
		r->next = a->regions;
		r->pprev = &a->regions;
		if (a->regions)
			a->regions->pprev = &r->next;
		a->regions = r;
	}
	r->live = 0;
	slab_use(a, r);
	if (old && !old->live)
		slab_release(a, old);
	return true;
}

void *arena_slab_alloc(size_t bytes)
{
	struct arena *a = current;
	size_t need = slab_room(bytes);
	struct slab_head *h;

	if (ARENA_OFF || !a || bytes > SLAB_MAX)
		return slab_malloc(bytes);
	if ((size_t)(a->slab_end - a->slab_at) < need && !slab_next_region(a))
		return slab_malloc(bytes);
	h = (struct slab_head *)a->slab_at;
	a->slab_at += need;
	a->slab_cur->live++;
	h->bytes = bytes;
	h->kind = SLAB_IN_REGION;
	return h + 1;
}

void arena_slab_free(void *p)
{
	struct slab_head *h;
	struct slab_region *r;
	struct arena *a;

	if (!p)
		return;
	h = (struct slab_head *)p - 1;
	if (h->kind == SLAB_MALLOC) {
		free(h);
		return;
	}
	r = slab_region_of(h);
	a = r->owner;
	if (--r->live)
		return;
	if (r == a->slab_cur)
		slab_use(a, r);		/* (all of it free: carving starts over) */
	else
		slab_release(a, r);
}

void *arena_slab_realloc(void *p, size_t bytes)
{
	struct slab_head *h, *nh;
	struct arena *a;
	void *q;

	if (!p)
		return arena_slab_alloc(bytes);
	h = (struct slab_head *)p - 1;
	if (h->kind == SLAB_MALLOC) {
		if (bytes > SLAB_MAX || ARENA_OFF || !current) {
			if (!(nh = realloc(h, sizeof(*nh) + bytes)))
				return NULL;
			nh->bytes = bytes;
			return nh + 1;
		}
	} else {
		a = slab_region_of(h)->owner;
		/* the last block carved: it grows or shrinks where it is while the region has room */
		if ((char *)h + slab_room(h->bytes) == a->slab_at &&
		    (size_t)(a->slab_end - (char *)h) >= slab_room(bytes) && bytes <= SLAB_MAX) {
			a->slab_at = (char *)h + slab_room(bytes);
			h->bytes = bytes;
			return p;
		}
		if (bytes <= h->bytes) {
			h->bytes = bytes;	/* (the room stays the block's until it is freed) */
			return p;
		}
	}
	if (!(q = arena_slab_alloc(bytes)))
		return NULL;
	memcpy(q, p, bytes < h->bytes ? bytes : h->bytes);
	arena_slab_free(p);
	return q;
}
