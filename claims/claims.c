/* Claims: structures, checks of concrete values, and the JSON format (see claims.h and
 * docs/claims.md). */
#include "claims/claims.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/arena_pages.h"
#include "util/zalloc.h"

static const char *const region_names[] = {
	"stack", "ctx", "packet", "packet_end", "packet_meta", "map_value", "map_handle",
};
static const char *const source_names[] = {
	"flow", "recurrence", "invariant", "accumulate", "derived", "forget", "iterate", "kernel",
};

const char *claim_region_name(enum claim_region r)
{
	return r < sizeof(region_names) / sizeof(region_names[0]) ? region_names[r] : "?";
}

const char *claim_source_name(enum claim_source s)
{
	return s < sizeof(source_names) / sizeof(source_names[0]) ? source_names[s] : "?";
}

/* The chunked trips' texts: a set of the strings in p's chunks, open addressing (cap a power
 * of two, at most half full).  A program of a million loops says a few texts a million times
 * (their pcs apart, claim_trip.reason_at); each copy was a chunk's 96 bytes, 47 MB for the
 * million-instruction nests (docs/BENCHMARKS.md, twentieth round). */
struct claim_texts {
	char **slot;
	uint32_t n, cap;
};

/* A block of claim_prog.chunks; its bytes follow it. */
struct claim_chunk {
	struct claim_chunk *next;
	size_t size, used;
} __attribute__((aligned(16)));

#define CHUNK_PAGES (2u << 20)		/* from this size on, whole huge pages (chunk_new) */

static void chunk_free(struct claim_chunk *c)
{
	size_t size = c->size + sizeof(*c);

	if (size >= CHUNK_PAGES)
		arena_pages_free(c, size);
	else
		free(c);
}

#define RANGE_PAGE (2u << 20)

static void ranges_free(struct claim_prog *p)
{
	if (p->ranges_map)
		arena_pages_free(p->ranges, p->ranges_map);
	else
		free(p->ranges);
}

void claim_prog__free(struct claim_prog *p)
{
	if (!p)
		return;
	for (uint32_t i = 0; i < p->nloops; i++) {
		struct claim_loop *l = &p->loops[i];

		if (!l->pooled) {
			free(l->entries);
			free(l->back_edges);
			free(l->exits);
		}
		if (!l->chunked) {
			free(l->blocks);
			free(l->ivs);
		}
		claim_trip__free_text(&l->trip);
	}
	for (struct claim_chunk *c = p->chunks, *next; c; c = next) {
		next = c->next;
		chunk_free(c);
	}
	if (p->texts)
		free(p->texts->slot);
	free(p->texts);
	if (p->loops_map)
		arena_pages_free(p->loops, p->loops_map);
	else
		free(p->loops);
	ranges_free(p);
	memset(p, 0, sizeof(*p));
}

void claims__free(struct claims *c)
{
	if (!c)
		return;
	for (uint32_t i = 0; i < c->nprogs; i++)
		claim_prog__free(&c->progs[i]);
	free(c->progs);
	free(c);
}

int claim_trip__set_text(char **text, const char *s)
{
	size_t n = strnlen(s, CLAIM_TRIP_TEXT - 1);

	free(*text);
	*text = NULL;
	if (!n)
		return 0;
	if (!(*text = malloc(n + 1)))
		return -ENOMEM;
	memcpy(*text, s, n);
	(*text)[n] = '\0';
	return 0;
}

void claim_trip__free_text(struct claim_trip *t)
{
	if (!t->chunked) {
		free(t->expr);
		free(t->reason);
	}
	t->expr = t->reason = NULL;
	t->reason_at = 0;
}

const char *claim_trip_reason(const struct claim_trip *t, struct claim_text_buf *b)
{
	if (!t->reason)
		return "";
	if (!t->reason_at)
		return t->reason;
	snprintf(b->s, sizeof(b->s), "%.*s%" PRIu32 "%s", t->reason_at - 1, t->reason,
		 t->reason_num, t->reason + t->reason_at - 1);
	return b->s;
}

#define CHUNK_FIRST (2u << 10)		/* a small program's first: a few loops' */
#define CHUNK_MAX (4u << 20)		/* chunks double up to this */

/* A new chunk with room for bytes, made the newest: from CHUNK_PAGES bytes on whole huge pages
 * from the arena (arena_pages_alloc: a block malloc maps starts 16 bytes past a page, where no
 * 2 MiB page fits; and in a long program's last pass the arena has pages to give back, those of
 * the loop summaries it has left). */
static struct claim_chunk *chunk_new(struct claim_prog *p, size_t bytes)
{
	size_t size = p->chunks ? 2 * (p->chunks->size + sizeof(struct claim_chunk)) : CHUNK_FIRST;
	struct claim_chunk *c;
	void *m = NULL;

	if (size > CHUNK_MAX)
		size = CHUNK_MAX;
	while (size - sizeof(*c) < bytes)
		size *= 2;
	if (!(m = size >= CHUNK_PAGES ? arena_pages_alloc(size) : malloc(size)))
		return NULL;
	c = m;
	c->next = p->chunks;
	c->size = size - sizeof(*c);
	c->used = 0;
	p->chunks = c;
	return c;
}

void *claim_prog__chunk(struct claim_prog *p, size_t bytes)
{
	struct claim_chunk *c = p->chunks;
	void *r;

	bytes = bytes ? (bytes + 15) & ~(size_t)15 : 16;
	if ((!c || c->size - c->used < bytes) && !(c = chunk_new(p, bytes)))
		return NULL;
	r = (char *)(c + 1) + c->used;
	c->used += bytes;
	return r;
}

static uint32_t text_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	for (size_t k = 0; k < n; k++)
		h = (h ^ (unsigned char)s[k]) * 16777619u;
	return h;
}

static int texts_grow(struct claim_texts *ts)
{
	uint32_t cap = ts->cap ? 2 * ts->cap : 64;
	char **slot = zalloc(cap, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	for (uint32_t k = 0; k < ts->cap; k++) {
		uint32_t i;

		if (!ts->slot[k])
			continue;
		i = text_hash(ts->slot[k], strlen(ts->slot[k])) & (cap - 1);
		while (slot[i])
			i = (i + 1) & (cap - 1);
		slot[i] = ts->slot[k];
	}
	free(ts->slot);
	ts->slot = slot;
	ts->cap = cap;
	return 0;
}

/* *text := p's one copy of s[0, n) (n > 0, no NUL in it), made when p has none. */
static int text_intern(struct claim_prog *p, char **text, const char *s, size_t n)
{
	struct claim_texts *ts = p->texts;
	uint32_t i;

	*text = NULL;
	if (!ts && !(ts = p->texts = zalloc(1, sizeof(*ts))))
		return -ENOMEM;
	if (2 * (ts->n + 1) > ts->cap && texts_grow(ts))
		return -ENOMEM;
	for (i = text_hash(s, n) & (ts->cap - 1); ts->slot[i]; i = (i + 1) & (ts->cap - 1))
		if (!strncmp(ts->slot[i], s, n) && !ts->slot[i][n]) {
			*text = ts->slot[i];
			return 0;
		}
	if (!(*text = claim_prog__chunk(p, n + 1)))
		return -ENOMEM;
	memcpy(*text, s, n);
	(*text)[n] = '\0';
	ts->slot[i] = *text;
	ts->n++;
	return 0;
}

/* The first number of s[0, n) when printing it back gives the same digits (no leading 0, at
 * most 9 digits) and something is left around it: 0 and *at, *len, *num; else -1. */
static int text_number(const char *s, size_t n, size_t *at, size_t *len, uint32_t *num)
{
	size_t k = 0, e;
	uint32_t v = 0;

	while (k < n && (s[k] < '0' || s[k] > '9'))
		k++;
	for (e = k; e < n && s[e] >= '0' && s[e] <= '9'; e++)
		v = v * 10 + (uint32_t)(s[e] - '0');
	if (k == n || e - k > 9 || (s[k] == '0' && e - k > 1) || e - k == n)
		return -1;
	*at = k;
	*len = e - k;
	*num = v;
	return 0;
}

int claim_trip__set_text_in(struct claim_prog *p, struct claim_trip *t, char **text,
			    const char *s)
{
	size_t n = strnlen(s, CLAIM_TRIP_TEXT - 1), at, len;
	char tpl[CLAIM_TRIP_TEXT];

	if (!t->chunked)
		return claim_trip__set_text(text, s);
	if (text == &t->reason)
		t->reason_at = 0;
	if (!n) {
		*text = NULL;
		return 0;
	}
	if (text != &t->reason || text_number(s, n, &at, &len, &t->reason_num))
		return text_intern(p, text, s, n);
	memcpy(tpl, s, at);
	memcpy(tpl + at, s + at + len, n - at - len);
	t->reason_at = (uint8_t)(at + 1);
	return text_intern(p, text, tpl, n - len);
}

/* Room for nc ranges.  A large array is whole 2 MiB pages from the arena, fresh
 * (arena_pages_reserve: realloc's block would start 16 bytes past a page, 4 KiB pages at both
 * ends), the ranges it already has copied there onto the spare's pages: it is reserved when
 * the last pass starts but filled range by range while that pass runs (ranges_settle), and a
 * program of loops with no range claim (the irreducible ladder) leaves it empty: the spare's
 * pages, taken at once, would have been lost to the blocks that need them. */
static int ranges_room(struct claim_prog *p, uint32_t nc)
{
	size_t bytes = (size_t)nc * sizeof(struct claim_range), map = 0;
	struct claim_range *nv;

	if (bytes < HUGE_HINT_MIN && !p->ranges_map) {
		nv = realloc(p->ranges, bytes);
	} else {
		size_t used = (size_t)p->nranges * sizeof(*nv);

		map = (bytes + RANGE_PAGE - 1) & ~(size_t)(RANGE_PAGE - 1);
		if ((nv = arena_pages_reserve(map))) {
			arena_pages_cover(nv, (used + RANGE_PAGE - 1) & ~(size_t)(RANGE_PAGE - 1));
			if (used)
				memcpy(nv, p->ranges, used);
			ranges_free(p);
		}
	}
	if (!nv)
		return -ENOMEM;
	p->ranges = nv;
	p->capranges = nc;
	p->ranges_map = map;
	p->ranges_ready = ((size_t)p->nranges * sizeof(*nv) + RANGE_PAGE - 1) &
			  ~(size_t)(RANGE_PAGE - 1);
	return 0;
}

/* The next 2 MiB of a paged array, before the first range is written there: the arena's
 * spare pages where it has some (arena_pages_cover).  A million-instruction program's last
 * pass frees its loop summaries while it adds the ranges: their pages, kept in the spare, then
 * hold the ranges, where fresh pages would have come on top (docs/BENCHMARKS.md, twentieth
 * round). */
static void ranges_settle(struct claim_prog *p)
{
	if (p->ranges_ready < p->ranges_map)
		arena_pages_cover((char *)p->ranges + p->ranges_ready, RANGE_PAGE);
	p->ranges_ready += RANGE_PAGE;
}

int claim_prog__alloc_loops(struct claim_prog *p, uint32_t n)
{
	size_t bytes = (size_t)(n ? n : 1) * sizeof(*p->loops);
	size_t map = (bytes + RANGE_PAGE - 1) & ~(size_t)(RANGE_PAGE - 1);

	if (bytes >= HUGE_HINT_MIN && (p->loops = arena_pages_alloc(map))) {
		memset(p->loops, 0, bytes);	/* (the spare's pages hold old bytes) */
		p->loops_map = map;
	} else if (!(p->loops = zalloc(n ? n : 1, sizeof(*p->loops)))) {
		return -ENOMEM;
	}
	p->nloops = n;
	return 0;
}

int claim_prog__grow_loops(struct claim_prog *p, uint32_t n)
{
	size_t bytes = (size_t)(n ? n : 1) * sizeof(*p->loops);
	struct claim_loop *nl;

	if (p->loops_map && bytes <= p->loops_map)
		return 0;
	if (!p->loops_map)
		nl = realloc(p->loops, bytes);
	else if ((nl = malloc(bytes)))
		memcpy(nl, p->loops, (size_t)p->nloops * sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	if (p->loops_map)
		arena_pages_free(p->loops, p->loops_map);
	p->loops = nl;
	p->loops_map = 0;
	return 0;
}

int claim_prog__reserve_ranges(struct claim_prog *p, uint32_t n)
{
	return n > p->capranges && n > 64 ? ranges_room(p, n) : 0;
}

int claim_prog__add_range(struct claim_prog *p, const struct claim_range *r)
{
	int err;

	if (p->nranges == p->capranges &&
	    (err = ranges_room(p, p->capranges ? p->capranges * 2 : 64)))
		return err;
	if (p->ranges_map && (size_t)(p->nranges + 1) * sizeof(*r) > p->ranges_ready)
		ranges_settle(p);
	p->ranges[p->nranges++] = *r;
	return 0;
}

bool claim_range__holds(const struct claim_range *c, uint64_t value, uint64_t base)
{
	if (c->is_ptr && c->maybe_null && value == 0)
		return true;
	return range_contains(&c->r, c->is_ptr ? value - base : value);
}

bool claim_trip__holds(const struct claim_trip *t, uint64_t n, bool complete)
{
	if (t->kind == TRIP_UNKNOWN)
		return true;
	if (n > t->max)
		return false;
	if (complete && n < t->min)
		return false;
	return true;
}

bool claim_loop__contains(const struct claim_loop *l, uint32_t pc)
{
	/* blocks are sorted by first pc: binary search */
	uint32_t lo = 0, hi = l->nblocks;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (l->blocks[mid].last < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < l->nblocks && l->blocks[lo].first <= pc && pc <= l->blocks[lo].last;
}

/* ---- writer ---- */

static void put_range_fields(struct sbuf *sb, const struct range *r)
{
	sbuf_printf(sb, "\"umin\": %" PRIu64 ", \"umax\": %" PRIu64 ", \"smin\": %" PRId64
		    ", \"smax\": %" PRId64 ", \"u32_min\": %" PRIu32 ", \"u32_max\": %" PRIu32
		    ", \"s32_min\": %" PRId32 ", \"s32_max\": %" PRId32 ", \"var_off\": [%" PRIu64
		    ", %" PRIu64 "]", r->umin, r->umax, r->smin, r->smax, r->u32_min, r->u32_max,
		    r->s32_min, r->s32_max, r->var_off.value, r->var_off.mask);
}

static void put_u32_or_null(struct sbuf *sb, uint32_t v)
{
	if (v == UINT32_MAX)
		sbuf_puts(sb, "null");
	else
		sbuf_printf(sb, "%u", v);
}

void claims_write_prog(struct sbuf *sb, const struct claim_prog *p)
{
	struct claim_text_buf rb;
	const char *reason;
	char loc[32];

	sbuf_puts(sb, "{\"name\": ");
	json_put_string(sb, p->name);
	sbuf_printf(sb, ", \"insn_count\": %u, \"strategy\": ", p->insn_count);
	json_put_string(sb, p->strategy[0] ? p->strategy : "forget");
	if (p->note[0]) {
		sbuf_puts(sb, ", \"note\": ");
		json_put_string(sb, p->note);
	}
	sbuf_puts(sb, ",\n   \"loops\": [");
	for (uint32_t i = 0; i < p->nloops; i++) {
		const struct claim_loop *l = &p->loops[i];

		sbuf_printf(sb, "%s\n    {\"header\": %u, ", i ? "," : "", l->header);
		if (l->kind != LOOP_PLAIN)
			sbuf_printf(sb, "\"kind\": \"%s\", ",
				    claim_loop_kind_name((enum loop_kind)l->kind));
		sbuf_printf(sb, "\"depth\": %u, \"parent\": ", l->depth);
		if (l->parent < 0)
			sbuf_puts(sb, "null");
		else
			sbuf_printf(sb, "%" PRId64, l->parent);
		sbuf_printf(sb, ", \"irreducible\": %s, \"entries\": [",
			    l->irreducible ? "true" : "false");
		for (uint32_t k = 0; k < l->nentries; k++)
			sbuf_printf(sb, "%s%u", k ? ", " : "", l->entries[k]);
		sbuf_puts(sb, "], \"back_edges\": [");
		for (uint32_t k = 0; k < l->nback_edges; k++) {
			sbuf_printf(sb, "%s{\"from\": %u, \"to\": %u, \"latch\": ", k ? ", " : "",
				    l->back_edges[k][0], l->back_edges[k][1]);
			put_u32_or_null(sb, l->back_edges[k][2]);
			sbuf_putc(sb, '}');
		}
		sbuf_puts(sb, "], \"latch\": ");
		put_u32_or_null(sb, l->latch);
		sbuf_puts(sb, ", \"exits\": [");
		for (uint32_t k = 0; k < l->nexits; k++)
			sbuf_printf(sb, "%s{\"from\": %u, \"to\": %u}", k ? ", " : "", l->exits[k][0],
				    l->exits[k][1]);
		sbuf_puts(sb, "], \"blocks\": [");
		for (uint32_t k = 0; k < l->nblocks; k++)
			sbuf_printf(sb, "%s[%u, %u]", k ? ", " : "", l->blocks[k].first,
				    l->blocks[k].last);
		sbuf_puts(sb, "],\n     \"induction_variables\": [");
		for (uint32_t k = 0; k < l->nivs; k++) {
			const struct claim_iv *iv = &l->ivs[k];

			loc_format(iv->loc, loc, sizeof(loc));
			sbuf_printf(sb, "%s{\"loc\": \"%s\", \"width\": %u, \"start\": ", k ? ", " : "",
				    loc, iv->width);
			if (iv->has_start)
				sbuf_printf(sb, "%" PRIu64, iv->start);
			else
				sbuf_puts(sb, "null");
			/* step as a signed number: what a reader expects for "-1" */
			if (iv->width == 32)
				sbuf_printf(sb, ", \"step\": %" PRId32 "}", (int32_t)(uint32_t)iv->step);
			else
				sbuf_printf(sb, ", \"step\": %" PRId64 "}", (int64_t)iv->step);
		}
		sbuf_puts(sb, "],\n     \"trip_count\": {\"kind\": ");
		json_put_string(sb, l->trip.kind == TRIP_EXACT ? "exact" :
				    l->trip.kind == TRIP_BOUNDED ? "bounded" : "unknown");
		if (l->trip.kind != TRIP_UNKNOWN)
			sbuf_printf(sb, ", \"max\": %" PRIu64 ", \"min\": %" PRIu64, l->trip.max,
				    l->trip.min);
		if (claim_trip_expr(&l->trip)[0]) {
			sbuf_puts(sb, ", \"expr\": ");
			json_put_string(sb, l->trip.expr);
		}
		if ((reason = claim_trip_reason(&l->trip, &rb))[0]) {
			sbuf_puts(sb, ", \"reason\": ");
			json_put_string(sb, reason);
		}
		if (l->trip.ends_by) {
			sbuf_puts(sb, ", \"ends_by\": ");
			json_put_string(sb, claim_trip_ender_name((enum trip_ender)l->trip.ends_by));
		}
		sbuf_puts(sb, "}}");
	}
	sbuf_puts(sb, p->nloops ? "\n   ],\n   \"ranges\": [" : "],\n   \"ranges\": [");
	for (uint32_t i = 0; i < p->nranges; i++) {
		const struct claim_range *r = &p->ranges[i];

		loc_format(r->loc, loc, sizeof(loc));
		sbuf_printf(sb, "%s\n    {\"pc\": %u, \"loc\": \"%s\", ", i ? "," : "", r->pc, loc);
		if (r->is_ptr) {
			sbuf_printf(sb, "\"type\": \"ptr\", \"region\": \"%s\", ",
				    claim_region_name(r->region));
			if (r->region == REGION_MAP_VALUE || r->region == REGION_MAP_HANDLE)
				sbuf_printf(sb, "\"map\": %u, ", r->map);
			if (r->maybe_null)
				sbuf_puts(sb, "\"maybe_null\": true, ");
		} else {
			sbuf_puts(sb, "\"type\": \"scalar\", ");
		}
		put_range_fields(sb, &r->r);
		sbuf_printf(sb, ", \"source\": \"%s\"}", claim_source_name(r->source));
	}
	sbuf_puts(sb, p->nranges ? "\n   ]}" : "]}");
}

void claims_write(struct sbuf *sb, const struct claims *c)
{
	sbuf_puts(sb, "{\"programs\": [\n  ");
	for (uint32_t i = 0; i < c->nprogs; i++) {
		if (i)
			sbuf_puts(sb, ",\n  ");
		claims_write_prog(sb, &c->progs[i]);
	}
	sbuf_puts(sb, "\n]}\n");
}

/* ---- reader ---- */

#define FAIL_AT(j, ...) diag_at_line(d, EINVAL, (j) ? (j)->line : 0, (j) ? (j)->col : 0, __VA_ARGS__)

static int get_u64(const struct json *obj, const char *key, uint64_t *out, bool required,
		   struct diag *d)
{
	const struct json *v = json_get(obj, key);

	if (!v) {
		if (required)
			return FAIL_AT(obj, "missing field \"%s\"", key);
		return 1;
	}
	if (v->type == JSON_NULL && !required)
		return 1;
	if (json_u64(v, out))
		return FAIL_AT(v, "field \"%s\" must be an unsigned integer", key);
	return 0;
}

static int get_s64(const struct json *obj, const char *key, int64_t *out, struct diag *d)
{
	const struct json *v = json_get(obj, key);

	if (!v)
		return FAIL_AT(obj, "missing field \"%s\"", key);
	if (json_s64(v, out))
		return FAIL_AT(v, "field \"%s\" must be a signed 64-bit integer", key);
	return 0;
}

static int get_u32(const struct json *obj, const char *key, uint32_t *out, bool required,
		   struct diag *d)
{
	uint64_t v;
	int err = get_u64(obj, key, &v, required, d);

	if (err)
		return err;
	if (v > UINT32_MAX)
		return FAIL_AT(json_get(obj, key), "field \"%s\" is larger than 32 bits", key);
	*out = (uint32_t)v;
	return 0;
}

static const struct json *get_array(const struct json *obj, const char *key, bool required,
				    struct diag *d, int *err)
{
	const struct json *v = json_get(obj, key);

	*err = 0;
	if (!v) {
		if (required)
			*err = FAIL_AT(obj, "missing field \"%s\"", key);
		return NULL;
	}
	if (v->type != JSON_ARRAY) {
		*err = FAIL_AT(v, "field \"%s\" must be an array", key);
		return NULL;
	}
	return v;
}

static int read_range(const struct json *o, struct range *r, struct diag *d)
{
	int64_t smin, smax, s32min, s32max;
	uint32_t u32min, u32max;
	const struct json *vo;
	int err;

	*r = range_unknown();
	if ((err = get_u64(o, "umin", &r->umin, true, d)) ||
	    (err = get_u64(o, "umax", &r->umax, true, d)) ||
	    (err = get_s64(o, "smin", &smin, d)) || (err = get_s64(o, "smax", &smax, d)) ||
	    (err = get_u32(o, "u32_min", &u32min, true, d)) ||
	    (err = get_u32(o, "u32_max", &u32max, true, d)) ||
	    (err = get_s64(o, "s32_min", &s32min, d)) || (err = get_s64(o, "s32_max", &s32max, d)))
		return err;
	if (s32min < INT32_MIN || s32min > INT32_MAX || s32max < INT32_MIN || s32max > INT32_MAX)
		return FAIL_AT(o, "s32_min/s32_max outside the 32-bit signed range");
	r->smin = smin;
	r->smax = smax;
	r->u32_min = u32min;
	r->u32_max = u32max;
	r->s32_min = (int32_t)s32min;
	r->s32_max = (int32_t)s32max;
	vo = json_get(o, "var_off");
	if (vo) {
		if (vo->type != JSON_ARRAY || vo->count != 2 || json_u64(vo->items[0], &r->var_off.value) ||
		    json_u64(vo->items[1], &r->var_off.mask))
			return FAIL_AT(vo, "var_off must be [value, mask] as unsigned integers");
		if (r->var_off.value & r->var_off.mask)
			return FAIL_AT(vo, "var_off value and mask overlap");
	}
	return 0;
}

static int read_loc(const struct json *o, loc_t *loc, struct diag *d)
{
	const struct json *v = json_get(o, "loc");

	if (!v || v->type != JSON_STRING)
		return FAIL_AT(v ? v : o, "field \"loc\" must be a string like \"r1\" or \"fp-8\"");
	if (loc_parse(v->text, loc))
		return FAIL_AT(v, "unknown location \"%s\" (r0..r10, fp-N, fp-N/u32)", v->text);
	return 0;
}

static int read_claim_range(const struct json *o, struct claim_range *c, struct diag *d)
{
	const struct json *t;
	int err;

	memset(c, 0, sizeof(*c));
	if (o->type != JSON_OBJECT)
		return FAIL_AT(o, "a range claim must be an object");
	if ((err = get_u32(o, "pc", &c->pc, true, d)) || (err = read_loc(o, &c->loc, d)) ||
	    (err = read_range(o, &c->r, d)))
		return err;
	t = json_get(o, "type");
	if (t && (t->type != JSON_STRING || (strcmp(t->text, "scalar") && strcmp(t->text, "ptr"))))
		return FAIL_AT(t, "field \"type\" must be \"scalar\" or \"ptr\"");
	c->is_ptr = t && !strcmp(t->text, "ptr");
	if (c->is_ptr) {
		const struct json *rg = json_get(o, "region"), *mn = json_get(o, "maybe_null");
		unsigned i;
		uint32_t map = 0;

		if (!rg || rg->type != JSON_STRING)
			return FAIL_AT(rg ? rg : o, "a pointer claim needs a \"region\" string");
		for (i = 0; i < sizeof(region_names) / sizeof(region_names[0]); i++)
			if (!strcmp(rg->text, region_names[i]))
				break;
		if (i == sizeof(region_names) / sizeof(region_names[0]))
			return FAIL_AT(rg, "unknown region \"%s\"", rg->text);
		c->region = (uint8_t)i;
		if ((err = get_u32(o, "map", &map, false, d)) < 0)
			return err;
		if (map > UINT16_MAX)
			return FAIL_AT(o, "map index too large");
		c->map = (uint16_t)map;
		if (mn && mn->type != JSON_BOOL)
			return FAIL_AT(mn, "maybe_null must be true or false");
		c->maybe_null = mn && mn->boolean;
	}
	t = json_get(o, "source");
	c->source = SRC_FLOW;
	if (t && t->type == JSON_STRING)
		for (unsigned i = 0; i < sizeof(source_names) / sizeof(source_names[0]); i++)
			if (!strcmp(t->text, source_names[i]))
				c->source = (uint8_t)i;
	return 0;
}

static int read_u32_list(const struct json *a, uint32_t **out, uint32_t *n, struct diag *d)
{
	*out = calloc(a->count ? a->count : 1, sizeof(**out));
	if (!*out)
		return diag_set(d, ENOMEM, "out of memory");
	for (size_t i = 0; i < a->count; i++) {
		uint64_t v;

		if (json_u64(a->items[i], &v) || v > UINT32_MAX)
			return FAIL_AT(a->items[i], "expected a pc (unsigned 32-bit integer)");
		(*out)[i] = (uint32_t)v;
	}
	*n = (uint32_t)a->count;
	return 0;
}

const char *claim_trip_ender_name(enum trip_ender e)
{
	return e == TRIP_ENDS_MAY_GOTO ? "may_goto budget"
	       : e == TRIP_ENDS_ITER ? "kernel iterator end" : "unproven";
}

const char *claim_loop_kind_name(enum loop_kind k)
{
	static const char *const names[LOOP_KIND__COUNT] = {
		[LOOP_PLAIN] = "plain", [LOOP_BPF_LOOP] = "bpf_loop", [LOOP_ITER_NUM] = "iter_num",
		[LOOP_FOR_EACH_MAP_ELEM] = "for_each_map_elem", [LOOP_FIND_VMA] = "find_vma",
		[LOOP_USER_RINGBUF] = "user_ringbuf_drain", [LOOP_ITER_BITS] = "iter_bits",
		[LOOP_ITER_TASK] = "iter_task", [LOOP_ITER_CSS] = "iter_css",
		[LOOP_ITER_CSS_TASK] = "iter_css_task", [LOOP_ITER_TASK_VMA] = "iter_task_vma",
	};

	return (unsigned)k < LOOP_KIND__COUNT ? names[k] : "plain";
}

static int read_loop(const struct json *o, struct claim_loop *l, struct diag *d)
{
	const struct json *a, *t;
	uint64_t v;
	int err;

	if (o->type != JSON_OBJECT)
		return FAIL_AT(o, "a loop must be an object");
	l->latch = UINT32_MAX;
	l->parent = -1;
	if ((err = get_u32(o, "header", &l->header, true, d)))
		return err;
	t = json_get(o, "kind");
	if (t) {
		unsigned k = 0;

		while (k < LOOP_KIND__COUNT && !(t->type == JSON_STRING &&
						 !strcmp(t->text, claim_loop_kind_name(k))))
			k++;
		if (k == LOOP_KIND__COUNT)
			return FAIL_AT(t, "a loop's kind must be \"plain\", \"bpf_loop\", "
				       "\"for_each_map_elem\", \"find_vma\", \"user_ringbuf_drain\" "
				       "or an iterator's (\"iter_num\", \"iter_bits\", \"iter_task\", "
				       "\"iter_css\", \"iter_css_task\", \"iter_task_vma\")");
		l->kind = (uint8_t)k;
	}
	if ((err = get_u32(o, "depth", &l->depth, false, d)) < 0)
		return err;
	if (get_u64(o, "parent", &v, false, d) == 0)
		l->parent = (int64_t)v;
	if ((err = get_u32(o, "latch", &l->latch, false, d)) < 0)
		return err;
	t = json_get(o, "irreducible");
	l->irreducible = t && t->type == JSON_BOOL && t->boolean;
	a = get_array(o, "entries", false, d, &err);
	if (err || (a && (err = read_u32_list(a, &l->entries, &l->nentries, d))))
		return err;
	a = get_array(o, "blocks", true, d, &err);
	if (err)
		return err;
	l->blocks = calloc(a->count ? a->count : 1, sizeof(*l->blocks));
	if (!l->blocks)
		return diag_set(d, ENOMEM, "out of memory");
	for (size_t i = 0; i < a->count; i++) {
		const struct json *b = a->items[i];
		uint64_t f, la;

		if (b->type != JSON_ARRAY || b->count != 2 || json_u64(b->items[0], &f) ||
		    json_u64(b->items[1], &la) || f > la || la > UINT32_MAX)
			return FAIL_AT(b, "a block must be [first_pc, last_pc]");
		if (i && f <= l->blocks[i - 1].last)
			return FAIL_AT(b, "blocks must be sorted and disjoint");
		l->blocks[i] = (struct claim_pcrange){ (uint32_t)f, (uint32_t)la };
	}
	l->nblocks = (uint32_t)a->count;
	if (!claim_loop__contains(l, l->header))
		return FAIL_AT(o, "the header %u is not inside the loop's blocks", l->header);
	a = get_array(o, "induction_variables", false, d, &err);
	if (err)
		return err;
	if (a) {
		l->ivs = calloc(a->count ? a->count : 1, sizeof(*l->ivs));
		if (!l->ivs)
			return diag_set(d, ENOMEM, "out of memory");
		for (size_t i = 0; i < a->count; i++) {
			struct claim_iv *iv = &l->ivs[i];
			const struct json *s;
			uint32_t w;
			int64_t step;

			if ((err = read_loc(a->items[i], &iv->loc, d)) ||
			    (err = get_u32(a->items[i], "width", &w, true, d)))
				return err;
			if (w != 32 && w != 64)
				return FAIL_AT(a->items[i], "width must be 32 or 64");
			iv->width = (uint8_t)w;
			s = json_get(a->items[i], "step");
			if (!s || (json_s64(s, &step) && json_u64(s, (uint64_t *)&step)))
				return FAIL_AT(s ? s : a->items[i], "step must be an integer");
			iv->step = w == 32 ? (uint64_t)step & 0xffffffffull : (uint64_t)step;
			err = get_u64(a->items[i], "start", &iv->start, false, d);
			if (err < 0)
				return err;
			iv->has_start = err == 0;
		}
		l->nivs = (uint32_t)a->count;
	}
	t = json_get(o, "trip_count");
	if (t) {
		const struct json *k = json_get(t, "kind");

		if (!k || k->type != JSON_STRING)
			return FAIL_AT(t, "trip_count needs a \"kind\" string");
		if (!strcmp(k->text, "unknown")) {
			const struct json *e = json_get(t, "ends_by");
			unsigned n = TRIP_ENDS_MAY_GOTO;

			l->trip.kind = TRIP_UNKNOWN;
			while (e && n <= TRIP_ENDS_ITER &&
			       !(e->type == JSON_STRING && !strcmp(e->text, claim_trip_ender_name(n))))
				n++;
			if (n > TRIP_ENDS_ITER)
				return FAIL_AT(e, "trip_count ends_by must be \"may_goto budget\" or "
					       "\"kernel iterator end\"");
			l->trip.ends_by = e ? (uint8_t)n : TRIP_ENDS_UNPROVEN;
		} else if (!strcmp(k->text, "bounded") || !strcmp(k->text, "exact")) {
			l->trip.kind = !strcmp(k->text, "exact") ? TRIP_EXACT : TRIP_BOUNDED;
			if ((err = get_u64(t, "max", &l->trip.max, true, d)))
				return err;
			l->trip.min = l->trip.kind == TRIP_EXACT ? l->trip.max : 0;
			if ((err = get_u64(t, "min", &l->trip.min, false, d)) < 0)
				return err;
			if (l->trip.min > l->trip.max)
				return FAIL_AT(t, "trip_count min is larger than max");
		} else {
			return FAIL_AT(k, "trip_count kind must be exact, bounded or unknown");
		}
	}
	return 0;
}

static int read_prog(const struct json *o, struct claim_prog *p, struct diag *d)
{
	const struct json *n = json_get(o, "name"), *a;
	int err;

	if (o->type != JSON_OBJECT)
		return FAIL_AT(o, "a program must be an object");
	if (!n || n->type != JSON_STRING)
		return FAIL_AT(n ? n : o, "a program needs a \"name\" string");
	snprintf(p->name, sizeof(p->name), "%s", n->text);
	if ((err = get_u32(o, "insn_count", &p->insn_count, false, d)) < 0)
		return err;
	a = get_array(o, "loops", false, d, &err);
	if (err)
		return err;
	if (a) {
		p->loops = calloc(a->count ? a->count : 1, sizeof(*p->loops));
		if (!p->loops)
			return diag_set(d, ENOMEM, "out of memory");
		p->nloops = (uint32_t)a->count;
		for (size_t i = 0; i < a->count; i++)
			if ((err = read_loop(a->items[i], &p->loops[i], d)))
				return err;
	}
	a = get_array(o, "ranges", false, d, &err);
	if (err)
		return err;
	for (size_t i = 0; a && i < a->count; i++) {
		struct claim_range c;

		if ((err = read_claim_range(a->items[i], &c, d)))
			return err;
		if (range_is_empty(&c.r))
			return FAIL_AT(a->items[i], "the range is empty (its bounds contradict)");
		if ((err = claim_prog__add_range(p, &c)))
			return diag_set(d, ENOMEM, "out of memory");
	}
	return 0;
}

int claims_read(struct claims **out, const char *text, size_t len, struct diag *d)
{
	struct json *root = json_parse(text, len, d);
	const struct json *a;
	struct claims *c;
	int err = 0;

	*out = NULL;
	if (!root)
		return -EINVAL;
	a = get_array(root, "programs", true, d, &err);
	if (err) {
		json_free(root);
		return err;
	}
	c = calloc(1, sizeof(*c));
	if (!c || !(c->progs = calloc(a->count ? a->count : 1, sizeof(*c->progs)))) {
		free(c);
		json_free(root);
		return diag_set(d, ENOMEM, "out of memory");
	}
	c->nprogs = (uint32_t)a->count;
	for (size_t i = 0; i < a->count && !err; i++)
		err = read_prog(a->items[i], &c->progs[i], d);
	json_free(root);
	if (err) {
		claims__free(c);
		return err;
	}
	*out = c;
	return 0;
}

const struct claim_prog *claims_find_prog(const struct claims *c, const char *name)
{
	for (uint32_t i = 0; i < c->nprogs; i++)
		if (!name || !strcmp(c->progs[i].name, name))
			return &c->progs[i];
	return NULL;
}
