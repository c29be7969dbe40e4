/* Claims: what the analysis asserts about a program, in a form any oracle can check without
 * knowing how it was derived (docs/claims.md is the user-facing description).
 *
 *  - A range claim (pc, loc, ...): whenever execution reaches pc (before that instruction runs),
 *    in any frame running that function, loc holds a value inside every bound — for every input.
 *    Scalars bound the value; pointers name a region and bound the offset from its base (stack:
 *    the frame's r10; ctx, packet, packet end: the start of the region; map value: the start of
 *    the element; map handle: the map).  maybe_null pointers may also be 0.
 *  - An induction-variable claim (loop, loc, width, step[, start]): at every header execution
 *    after the first within one entry into the loop, loc equals its value at the previous header
 *    execution plus step (mod 2^width, zero-extended for width 32); start, when given, is its
 *    value at the first.
 *  - A trip-count claim: the number of header executions between entering the loop and leaving
 *    it is at most max (kind bounded or exact).  An entry that leaves the loop normally (an edge
 *    from the body to an exit target) also executed the header at least min times, for both
 *    kinds: exact has min = max; bounded has the smallest count of the deciding exit when that
 *    exit is the loop's only one, else 1 (0 when a claims document leaves min out).  Entries cut
 *    short (a trap, the program ending inside the loop, the step budget) are held to max only.
 *    A loop of unknown count may still be claimed to end (ends_by): by the may_goto budget, or
 *    by an open-coded iterator over the kernel's objects (task, css, ...) running out.
 * Loops carry their header and body (pc ranges) so an oracle can tell entries from iterations.
 */
#ifndef BPFSCEV_CLAIMS_CLAIMS_H
#define BPFSCEV_CLAIMS_CLAIMS_H

#include <stdbool.h>
#include <stdint.h>

#include "claims/loc.h"
#include "claims/range.h"
#include "util/err.h"
#include "util/json.h"
#include "util/sbuf.h"

enum claim_region {
	REGION_STACK, REGION_CTX, REGION_PKT, REGION_PKT_END, REGION_PKT_META, REGION_MAP_VALUE,
	REGION_MAP_HANDLE,
};
const char *claim_region_name(enum claim_region r);
/* A map value pointer's offset counts from the start of the element whose window its address
 * falls in, or of one of the CLAIM_MAP_BACK elements before it (the oracles' reading: the
 * elements lie a stride apart, oracle/exec/interp.h, so an address a stride or more past an
 * element's start is in a later one's window). */
#define CLAIM_MAP_BACK 4

/* Where a range came from (reported, not checked). */
enum claim_source {
	SRC_FLOW,		/* forward analysis of the code */
	SRC_RECURRENCE,		/* add recurrence and trip count */
	SRC_INVARIANT,		/* not changed by the loop */
	SRC_ACCUMULATE,		/* x += d with d bounded, times the trip count */
	SRC_DERIVED,		/* a function of recurrences */
	SRC_FORGET,		/* widened to what the type allows */
	SRC_ITERATE,		/* bounded fixpoint with widening */
	SRC_KERNEL,		/* read from the kernel verifier's log */
};
const char *claim_source_name(enum claim_source s);

struct claim_range {
	uint32_t pc;
	loc_t loc;
	bool is_ptr;
	uint8_t region;		/* enum claim_region, pointers only */
	uint16_t map;		/* map index for map regions */
	bool maybe_null;
	uint8_t source;		/* enum claim_source */
	struct range r;		/* value, or offset for pointers */
};

struct claim_iv {
	loc_t loc;
	uint8_t width;		/* 32 or 64 */
	bool has_start;
	uint64_t step;		/* width-bit two's complement */
	uint64_t start;
};

enum trip_kind { TRIP_UNKNOWN, TRIP_BOUNDED, TRIP_EXACT };

/* What ends a loop whose count has no bound (kind unknown): the kernel's per-frame may_goto
 * budget stops it, but the budget is no count — the timed may_goto of x86-64 JITs lets a loop
 * run for a quarter second (hundreds of millions of iterations) — so it gives no maximum. */
/* An iterator of the kernel's objects (bpf_iter_task_next, bpf_iter_css_next, ...) ends the loop
 * when the objects run out: the verifier accepts such a loop by its states converging, with no
 * count, and so there is no maximum either (TRIP_ENDS_ITER). */
enum trip_ender { TRIP_ENDS_UNPROVEN, TRIP_ENDS_MAY_GOTO, TRIP_ENDS_ITER };
const char *claim_trip_ender_name(enum trip_ender e);

struct claim_trip {
	uint8_t kind;		/* enum trip_kind */
	uint8_t ends_by;	/* enum trip_ender: a loop that ends with no bound on its count */
	/* The texts lie in the program's chunks (claim_trip__set_text_in): never freed one by
	 * one, and one copy of each serves every trip that says it.  Otherwise each is malloc'd.
	 * The flag travels with the texts (a trip copied over another takes both). */
	bool chunked;
	/* 0: reason is the text.  Else (chunked trips only) reason is the text without its first
	 * number, reason_num, which goes back in before byte reason_at - 1: a million loops'
	 * "exit at 59: the compared values are not numbers" share one copy of "exit at : the
	 * compared values are not numbers" (claim_trip_reason puts it together) */
	uint8_t reason_at;
	uint32_t reason_num;
	uint64_t max, min;	/* header executions per entry; min on normal exits only (above) */
	/* The exit test that decides max, for people (reported, not checked): "1 + first k with
	 * (r1 + 1) >= 10 (iteration k)", a location naming its value at the header in iteration k
	 * (k = 0 is the first).  The analyzer fills it whenever kind is bounded or exact.
	 * Both texts are owned by the trip (claim_trip__set_text), NULL when empty: a program of
	 * a million loops holds only the bytes they say (read them with claim_trip_expr and
	 * claim_trip_reason, never the fields). */
	char *expr;
	char *reason;		/* why unknown or only bounded, none when exact */
};

/* A trip text is at most CLAIM_TRIP_TEXT - 1 bytes (longer ones are cut there). */
#define CLAIM_TRIP_TEXT 160

static inline const char *claim_trip_expr(const struct claim_trip *t)
{
	return t->expr ? t->expr : "";
}

/* Room for a trip's reason put together (claim_trip_reason). */
struct claim_text_buf {
	char s[CLAIM_TRIP_TEXT];
};

/* The text of t's reason ("" for none): its own bytes, or put together in *b (valid while b
 * and t are). */
const char *claim_trip_reason(const struct claim_trip *t, struct claim_text_buf *b);

/* *text := a copy of s cut to CLAIM_TRIP_TEXT - 1 bytes, NULL when s is empty (the old text
 * freed); 0 or -ENOMEM (then *text is NULL).  Not for a chunked trip's texts
 * (claim_trip__set_text_in). */
int claim_trip__set_text(char **text, const char *s);
/* Frees both texts (the counts stay); a chunked trip's are only dropped. */
void claim_trip__free_text(struct claim_trip *t);

struct claim_pcrange {
	uint32_t first, last;
};

/* What makes a loop.  A plain loop is a cycle of the control-flow graph.  A bpf_loop loop is a
 * helper callback that bpf_loop(nr, cb, ctx, flags) calls up to nr times: its header is the
 * callback's first instruction, its body the callback's code, its entries the bpf_loop calls;
 * a header execution is one call of the callback (in a frame one deeper than the helper call),
 * and consecutive calls by one bpf_loop are iterations of one entry.  An iter_num loop is a
 * plain loop ended by an open-coded iterator: bpf_iter_num_next returning NULL.  A
 * for_each_map_elem loop is a callback of bpf_for_each_map_elem(map, cb, ctx, flags), as a
 * bpf_loop one: one header execution per element the helper visits, at most the map's
 * max_entries per call.  A find_vma loop is the callback of bpf_find_vma(task, addr, cb, ctx,
 * flags), which calls it at most once per call (when addr lies in a vma of the task's).  A
 * user_ringbuf_drain loop is the callback of bpf_user_ringbuf_drain(map, cb, ctx, flags): one
 * call per sample drained, at most 2^17 (BPF_MAX_USER_RINGBUF_SAMPLES) per helper call. */
enum loop_kind { LOOP_PLAIN, LOOP_BPF_LOOP, LOOP_ITER_NUM, LOOP_FOR_EACH_MAP_ELEM, LOOP_FIND_VMA,
		 LOOP_USER_RINGBUF, LOOP_ITER_BITS, LOOP_ITER_TASK, LOOP_ITER_CSS, LOOP_ITER_CSS_TASK,
		 LOOP_ITER_TASK_VMA, LOOP_KIND__COUNT };
/* The iter_F loops (the loops an open-coded iterator of family F ends: "iter_num", "iter_bits",
 * "iter_task", ...), in the order of enum ebpf_iter_family (bpf/isa.h). */
static inline bool claim_loop_kind_iter(uint8_t k)
{
	return k == LOOP_ITER_NUM || (k >= LOOP_ITER_BITS && k <= LOOP_ITER_TASK_VMA);
}
/* Whether a loop of kind k is a helper callback (header = the callback's entry). */
static inline bool claim_loop_kind_callback(uint8_t k)
{
	return k == LOOP_BPF_LOOP || k == LOOP_FOR_EACH_MAP_ELEM || k == LOOP_FIND_VMA ||
	       k == LOOP_USER_RINGBUF;
}
const char *claim_loop_kind_name(enum loop_kind k);

/* (fields ordered so that none pads: a program of a million loops holds one per loop) */
struct claim_loop {
	uint8_t kind;		/* enum loop_kind */
	bool irreducible;
	/* entries, back_edges and exits lie in the program's chunks (the analyzer's loops: one
	 * block for all, claim_prog__chunk): claim_prog__free frees the chunks, not them.
	 * Otherwise each is its own malloc'd array (the JSON reader's loops, bpf_loop callbacks'
	 * loops). */
	bool pooled;
	/* blocks and ivs lie in the program's chunks (claim_prog__chunk): claim_prog__free frees
	 * the chunks, not them.  Otherwise each is malloc'd. */
	bool chunked;
	uint32_t header;	/* pc */
	uint32_t depth;
	uint32_t latch;		/* pc of the latch jump, UINT32_MAX for none */
	int64_t parent;		/* header pc of the parent loop, -1 for none */
	uint32_t *entries;	/* pcs (nentries) */
	struct claim_pcrange *blocks;	/* body (nblocks) */
	uint32_t nentries, nblocks;
	/* structure detail, reported only */
	uint32_t (*back_edges)[3];	/* from, to, latch (UINT32_MAX none) */
	uint32_t (*exits)[2];	/* from, to */
	uint32_t nback_edges, nexits;
	struct claim_iv *ivs;
	uint32_t nivs;
	struct claim_trip trip;
};

struct claim_prog {
	char name[128];
	uint32_t insn_count;
	char strategy[16];	/* "forget" or "iterate" */
	struct claim_loop *loops;
	uint32_t nloops;
	struct claim_range *ranges;
	uint32_t nranges, capranges;
	/* A large program's ranges are whole 2 MiB pages from the arena (arena_pages_alloc):
	 * ranges_map bytes, 0 when malloc's; the pages below ranges_ready hold ranges or were
	 * offered the arena's spare (claims.c: ranges_settle). */
	size_t ranges_map, ranges_ready;
	/* the loops' array, when whole 2 MiB pages from the arena (claim_prog__alloc_loops): its
	 * bytes, 0 when malloc's */
	size_t loops_map;
	char note[256];		/* why some part was not analyzed, "" when all was */
	/* The analyzer's loops' pc ranges, induction variables and trip texts
	 * (claim_loop.chunked, claim_trip.chunked), carved in a row from a few blocks, the newest
	 * first (claims.c): from malloc, a million loops' three or four small blocks each grew the
	 * heap 4 KiB at a time, a page fault each, most of the page faults of such a program. */
	struct claim_chunk *chunks;
	/* the chunked trips' texts, one copy of each (claim_trip__set_text_in; claims.c) */
	struct claim_texts *texts;
};

struct claims {
	struct claim_prog *progs;
	uint32_t nprogs;
};

void claim_prog__free(struct claim_prog *p);	/* frees members, not p */
void claims__free(struct claims *c);		/* frees members and c (NULL ok) */
int claim_prog__add_range(struct claim_prog *p, const struct claim_range *r);
/* p->loops := n loops (at least room for one), zeroed, and p->nloops := n; p had none.  A
 * large array is whole 2 MiB pages from the arena (arena_pages_alloc), the spare's first: made
 * at the end of the analysis's last pass, it takes the pages of the loop summaries that pass
 * has just freed.  0 or -ENOMEM. */
int claim_prog__alloc_loops(struct claim_prog *p, uint32_t n);
/* Room for n loops in all (the first nloops kept, the rest not cleared): 0 or -ENOMEM. */
int claim_prog__grow_loops(struct claim_prog *p, uint32_t n);
/* Room for n ranges in all, allocated at once (a large program's claims would otherwise be
 * copied at every doubling): 0 or -ENOMEM. */
int claim_prog__reserve_ranges(struct claim_prog *p, uint32_t n);
/* bytes (16-byte aligned) from p's chunks, freed only with p; NULL when out of memory. */
void *claim_prog__chunk(struct claim_prog *p, size_t bytes);
/* As claim_trip__set_text for text, one of t's two, t in p: when t is chunked, the one copy
 * in p's chunks of that text (of a reason: of it without its first number) that every trip of
 * p saying it shares (the old text is left where it is). */
int claim_trip__set_text_in(struct claim_prog *p, struct claim_trip *t, char **text,
			    const char *s);
/* Whether a concrete value satisfies a range claim; base is the region's base address at the
 * time (for pointers: value - base is the offset). */
bool claim_range__holds(const struct claim_range *c, uint64_t value, uint64_t base);
/* Whether n header executions satisfy the trip claim (complete: the loop was left normally). */
bool claim_trip__holds(const struct claim_trip *t, uint64_t n, bool complete);
/* Membership of pc in the loop body. */
bool claim_loop__contains(const struct claim_loop *l, uint32_t pc);

/* JSON: one element of the "programs" array, and the whole document. */
void claims_write_prog(struct sbuf *sb, const struct claim_prog *p);
void claims_write(struct sbuf *sb, const struct claims *c);
/* Reads the document claims_write produces (or any document in that format); errors name
 * line:column and the field. */
int claims_read(struct claims **out, const char *text, size_t len, struct diag *d);
const struct claim_prog *claims_find_prog(const struct claims *c, const char *name);

#endif
