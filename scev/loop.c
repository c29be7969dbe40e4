/* Loop forest by Wei et al.'s one-pass DFS, then bodies, exits and latches: see loop.h. */
#include "scev/loop.h"
#include "util/arena.h"
#include "util/search.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct wei {
	uint32_t *pos;		/* DFS path position (1-based) while on the path, else 0 */
	uint32_t *ihdr;		/* innermost loop header, SCEV_NONE when none */
	bool *traversed, *is_header, *irreducible;
	struct scev_edge *back;	/* back edges (from, header), room for every edge */
	size_t nback, capback;
	struct scev_edge *reentry;	/* (header, entry block) pairs */
	uint32_t nre, capre;
};

static int push_edge(struct scev_edge **v, uint32_t *n, uint32_t *cap, uint32_t a, uint32_t b)
{
	if (*n == *cap) {
		uint32_t nc = *cap ? *cap * 2 : 16;
		struct scev_edge *nv = realloc(*v, nc * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = nc;
	}
	(*v)[(*n)++] = (struct scev_edge){ a, b };
	return 0;
}

/* Weaves header h into b's chain of enclosing headers, which stays ordered by DFS position. */
static void tag_lhead(struct wei *w, uint32_t b, uint32_t h)
{
	uint32_t cur1 = b, cur2 = h;

	if (b == h || h == SCEV_NONE)
		return;
	while (w->ihdr[cur1] != SCEV_NONE) {
		uint32_t ih = w->ihdr[cur1];

		if (ih == cur2)
			return;
		if (w->pos[ih] < w->pos[cur2]) {
			w->ihdr[cur1] = cur2;
			cur1 = cur2;
			cur2 = ih;
		} else {
			cur1 = ih;
		}
	}
	w->ihdr[cur1] = cur2;
}

struct frame {
	uint32_t b, k;		/* block, next successor index */
};

static int wei_dfs(struct wei *w, const struct scev_cfg *cfg, uint32_t entry, struct frame *st)
{
	uint32_t sp = 0;

	w->traversed[entry] = true;
	w->pos[entry] = 1;
	st[sp++] = (struct frame){ entry, 0 };
	while (sp) {
		struct frame *f = &st[sp - 1];
		uint32_t b0 = f->b;
		const struct scev_block *blk = &cfg->blocks[b0];

		if (f->k == blk->nsucc) {
			/* Leaving b0: it comes off the path; the parent adopts its header. */
			w->pos[b0] = 0;
			sp--;
			if (sp)
				tag_lhead(w, st[sp - 1].b, w->ihdr[b0]);
			continue;
		}
		uint32_t b = blk->succ[f->k++];

		if (!w->traversed[b]) {
			/* case A: a new block, descend */
			w->traversed[b] = true;
			w->pos[b] = sp + 1;
			st[sp++] = (struct frame){ b, 0 };
		} else if (w->pos[b] > 0) {
			/* case B: b is on the path, so b0 → b is a back edge and b a header (an
			 * edge is met once: w->back has room for every edge) */
			w->is_header[b] = true;
			if (w->nback == w->capback)
				return -ENOMEM;	/* (never: the functions' blocks are disjoint) */
			w->back[w->nback++] = (struct scev_edge){ b0, b };
			tag_lhead(w, b0, b);
		} else if (w->ihdr[b] == SCEV_NONE) {
			/* case C: b was fully explored and is in no loop: nothing */
		} else {
			uint32_t h = w->ihdr[b];

			if (w->pos[h] > 0) {
				/* case D: b's loop is still open on the path: b0 joins it */
				tag_lhead(w, b0, h);
			} else {
				/* case E: re-entry into a loop whose header is off the path; that loop
				 * and every enclosing one up to the first on the path is irreducible,
				 * with b as an extra entry. */
				w->irreducible[h] = true;
				if (push_edge(&w->reentry, &w->nre, &w->capre, h, b))
					return -ENOMEM;
				while (w->ihdr[h] != SCEV_NONE) {
					h = w->ihdr[h];
					if (w->pos[h] > 0) {
						tag_lhead(w, b0, h);
						break;
					}
					w->irreducible[h] = true;
					if (push_edge(&w->reentry, &w->nre, &w->capre, h, b))
						return -ENOMEM;
				}
			}
		}
	}
	return 0;
}

struct block_key {
	const struct scev_loop *L;
	uint32_t b;
};

static bool block_below(const void *ctx, size_t i)
{
	const struct block_key *k = ctx;

	return k->L->blocks[i] < k->b;
}

uint32_t scev_loop__block_index(const struct scev_loop *L, uint32_t b)
{
	size_t at = lower_bound(L->nblocks, block_below, &(struct block_key){ L, b });

	return at < L->nblocks && L->blocks[at] == b ? (uint32_t)at : SCEV_NONE;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Every loop's blocks (L->blocks, ascending ids) without a list per loop and level: one array
 * holds each block of a loop once (lf->body), ordered so that every loop's blocks are
 * consecutive in it — a forest walk in which a loop's items (its own blocks and its children,
 * the child by its smallest block) come in ascending order — and L->blocks points at that
 * run when it is ascending (always when every loop spans consecutive block ids, as a compiler
 * lays loops out).  A loop whose run is not ascending (blocks of a child interleaved with its
 * own) gets a sorted copy of its own (lf->sorted_pool).  What L->blocks lists is what a list
 * per loop held; a depth-30 nest kept 930 entries for its 60 blocks.  cnt is scratch of nl
 * words. */
static int set_bodies(struct scev_loops *lf, uint32_t *cnt)
{
	uint32_t nb = lf->nblocks, nl = lf->nloops, nin = 0, n = 0, nsorted = 0;
	uint32_t *lo = NULL, *hi = NULL, *ioff = NULL, *items = NULL, *st = NULL;
	bool *unsorted = NULL;
	int err = -ENOMEM;

	lo = arena_alloc((nl ? nl : 1) * sizeof(*lo));
	hi = arena_alloc((nl ? nl : 1) * sizeof(*hi));
	ioff = arena_zalloc(nl + 2, sizeof(*ioff));
	unsorted = arena_zalloc(nl ? nl : 1, 1);
	if (!lo || !hi || !ioff || !unsorted)
		goto out;
	/* smallest and largest block of each loop; items per loop (own blocks, children) */
	for (uint32_t l = 0; l < nl; l++) {
		lo[l] = UINT32_MAX;
		hi[l] = 0;
		cnt[l] = 0;
		ioff[l + 1] = lf->loops[l].nchildren;
	}
	ioff[nl + 1] = 0;	/* the outermost loops: items of a root, nl */
	for (uint32_t l = 0; l < nl; l++)
		if (lf->loops[l].parent == SCEV_NONE)
			ioff[nl + 1]++;
	for (uint32_t b = 0; b < nb; b++) {
		uint32_t l = lf->loop_of[b];

		if (l == SCEV_NONE)
			continue;
		nin++;
		ioff[l + 1]++;
		if (lo[l] == UINT32_MAX)
			lo[l] = b;
		hi[l] = b;
	}
	for (uint32_t i = 0; i < nl; i++) {	/* (innermost first: a loop's after its children) */
		uint32_t l = lf->order[i], p = lf->loops[l].parent;

		if (p != SCEV_NONE) {
			lo[p] = lo[l] < lo[p] ? lo[l] : lo[p];
			hi[p] = hi[l] > hi[p] ? hi[l] : hi[p];
		}
	}
	for (uint32_t l = 0; l <= nl; l++)
		ioff[l + 1] += ioff[l];
	items = arena_alloc(((size_t)ioff[nl + 1] ? ioff[nl + 1] : 1) * sizeof(*items));
	st = arena_alloc(((size_t)nl + 1) * 2 * sizeof(*st));
	if (!items || !st || !(lf->body = arena_alloc((nin ? nin : 1) * sizeof(*lf->body))))
		goto out;
	/* Items in ascending order of their smallest block: a block is its loop's item when met,
	 * a loop its parent's (or the root's) when its smallest block is met.  Items are block ids
	 * below nb, loops nb + id. */
	for (uint32_t b = 0; b < nb; b++) {
		uint32_t l = lf->loop_of[b];

		if (l == SCEV_NONE)
			continue;
		items[ioff[l] + cnt[l]++] = b;
		for (uint32_t x = l; lo[x] == b; x = lf->loops[x].parent) {
			uint32_t p = lf->loops[x].parent, slot = p == SCEV_NONE ? nl : p;

			items[ioff[slot] + (slot == nl ? n++ : cnt[p]++)] = nb + x;
			if (p == SCEV_NONE)
				break;
		}
	}
	/* The walk: a loop's run is its items in order, a child's run in its place.  A run is
	 * ascending when its children's are and its items' spans do not overlap. */
	n = 0;
	for (uint32_t r = ioff[nl]; r < ioff[nl + 1]; r++) {
		uint32_t sp = 0;

		st[sp++] = items[r] - nb;
		st[sp++] = 0;
		lf->loops[items[r] - nb].blocks = lf->body + n;
		while (sp) {
			uint32_t l = st[sp - 2], k = st[sp - 1], prev_hi;
			uint32_t cnt_l = ioff[l + 1] - ioff[l], it;

			if (k == cnt_l) {
				struct scev_loop *L = &lf->loops[l];

				L->nblocks = (uint32_t)(lf->body + n - L->blocks);
				sp -= 2;
				if (sp && unsorted[l])
					unsorted[st[sp - 2]] = true;
				continue;
			}
			it = items[ioff[l] + k];
			st[sp - 1]++;
			if (k) {
				uint32_t pit = items[ioff[l] + k - 1];

				prev_hi = pit < nb ? pit : hi[pit - nb];
				if (prev_hi > (it < nb ? it : lo[it - nb]))
					unsorted[l] = true;
			}
			if (it < nb) {
				lf->body[n++] = it;
			} else {
				lf->loops[it - nb].blocks = lf->body + n;
				st[sp++] = it - nb;
				st[sp++] = 0;
			}
		}
	}
	/* The sorted copies of the runs that are not ascending. */
	for (uint32_t l = 0; l < nl; l++)
		if (unsorted[l])
			nsorted += lf->loops[l].nblocks;
	if (nsorted) {
		if (!(lf->sorted_pool = arena_alloc(nsorted * sizeof(*lf->sorted_pool))))
			goto out;
		nsorted = 0;
		for (uint32_t l = 0; l < nl; l++) {
			struct scev_loop *L = &lf->loops[l];

			if (!unsorted[l])
				continue;
			memcpy(lf->sorted_pool + nsorted, L->blocks, L->nblocks * sizeof(uint32_t));
			L->blocks = lf->sorted_pool + nsorted;
			nsorted += L->nblocks;
			qsort(L->blocks, L->nblocks, sizeof(uint32_t), cmp_u32);
		}
	}
	err = 0;
out:
	arena_free(lo);
	arena_free(hi);
	arena_free(ioff);
	arena_free(unsorted);
	arena_free(items);
	arena_free(st);
	return err;
}

/* Latch of back edge (src → header of l): see loop.h. */
static uint32_t find_latch(const struct scev_loops *lf, const struct scev_cfg *cfg,
			   const struct scev_domtree *dom, uint32_t l, uint32_t src)
{
	const struct scev_loop *L = &lf->loops[l];

	if (lf->loop_of[src] != l)
		return SCEV_NONE;	/* the back edge starts inside an inner loop */
	for (uint32_t b = src; b != SCEV_NONE && scev_loop__contains(lf, l, b); b = dom->idom[b]) {
		const struct scev_block *blk = &cfg->blocks[b];

		if (lf->loop_of[b] == l && scev_block_cond_jmp(cfg, b)) {
			for (unsigned k = 0; k < blk->nsucc; k++)
				if (!scev_loop__contains(lf, l, blk->succ[k]))
					return b;
		}
		if (b == L->header)
			break;
	}
	return SCEV_NONE;
}

void scev_loops__free(struct scev_loops *lf)
{
	if (!lf)
		return;
	arena_free(lf->pool);
	arena_free(lf->body);
	arena_free(lf->sorted_pool);
	arena_free(lf->back_pool);
	arena_free(lf->exit_pool);
	arena_free(lf->loops);
	arena_free(lf->order);
	arena_free(lf->span);
	arena_free(lf->loop_of);
	arena_free(lf);
}

int scev_loops__build(struct scev_loops **out, const struct scev_cfg *cfg,
		      const struct scev_domtree *dom, struct diag *d)
{
	uint32_t nb = cfg->nblocks, nl = 0;
	struct wei w = { 0 };
	struct scev_loops *lf = arena_zalloc(1, sizeof(*lf));
	uint32_t *loop_id = NULL, *cnt = NULL;
	size_t at = 0, npool = 0, nedges = 0;
	struct frame *st = NULL;
	int err = -ENOMEM;

	/* Room for every edge as a back edge, taken once: grown by realloc, the back edges of
	 * 1M instructions of deep nests (4 MB) took a page fault per 4 KiB; from the arena, the
	 * room no edge needs is never touched. */
	for (uint32_t b = 0; b < nb; b++)
		nedges += cfg->blocks[b].nsucc;
	w.back = arena_alloc((nedges ? nedges : 1) * sizeof(*w.back));
	w.capback = nedges;

	w.pos = arena_zalloc(nb, sizeof(*w.pos));
	w.ihdr = arena_alloc(nb * sizeof(*w.ihdr));
	w.traversed = arena_zalloc(nb, sizeof(bool));
	w.is_header = arena_zalloc(nb, sizeof(bool));
	w.irreducible = arena_zalloc(nb, sizeof(bool));
	st = arena_alloc(nb * sizeof(*st));
	loop_id = arena_alloc(nb * sizeof(*loop_id));
	if (!lf || !w.back || !w.pos || !w.ihdr || !w.traversed || !w.is_header || !w.irreducible ||
	    !st || !loop_id)
		goto out;
	lf->nblocks = nb;
	for (uint32_t b = 0; b < nb; b++)
		w.ihdr[b] = SCEV_NONE;
	for (uint32_t f = 0; f < cfg->nfuncs; f++)
		if ((err = wei_dfs(&w, cfg, cfg->funcs[f].entry, st)))
			goto out;
	err = -ENOMEM;

	/* Loops in block order (= function, then address). */
	for (uint32_t b = 0; b < nb; b++)
		loop_id[b] = w.is_header[b] ? nl++ : SCEV_NONE;
	lf->nloops = nl;
	lf->loops = arena_zalloc(nl ? nl : 1, sizeof(*lf->loops));
	lf->loop_of = arena_alloc(nb * sizeof(*lf->loop_of));
	lf->order = arena_alloc((nl ? nl : 1) * sizeof(*lf->order));
	lf->span = arena_alloc((nl ? nl : 1) * sizeof(*lf->span));
	cnt = arena_zalloc(nl ? nl : 1, sizeof(*cnt));
	if (!lf->loops || !lf->loop_of || !lf->order || !lf->span || !cnt)
		goto out;
	for (uint32_t b = 0; b < nb; b++) {
		uint32_t h = w.is_header[b] ? b : w.ihdr[b];

		lf->loop_of[b] = w.traversed[b] && h != SCEV_NONE ? loop_id[h] : SCEV_NONE;
		if (w.is_header[b]) {
			struct scev_loop *L = &lf->loops[loop_id[b]];

			L->header = b;
			L->func = cfg->blocks[b].func;
			L->irreducible = w.irreducible[b];
			L->parent = w.ihdr[b] == SCEV_NONE ? SCEV_NONE : loop_id[w.ihdr[b]];
			L->latch = SCEV_NONE;
		}
	}
	lf->nirreducible = 0;
	for (uint32_t l = 0; l < nl; l++) {
		struct scev_loop *L = &lf->loops[l];
		uint32_t depth = 1;

		for (uint32_t p = L->parent; p != SCEV_NONE; p = lf->loops[p].parent)
			depth++;
		L->depth = depth;
		lf->nirreducible += L->irreducible;
		if (L->parent != SCEV_NONE)
			lf->loops[L->parent].nchildren++;
	}

	/* Bodies: each block belongs to its innermost loop and every enclosing one, stored once
	 * (set_bodies).  The pool holds every loop's children and entries (the header and at most
	 * its re-entries). */
	for (uint32_t l = 0; l < nl; l++)
		npool += (size_t)lf->loops[l].nchildren + 1;
	npool += w.nre;
	if (!(lf->pool = arena_alloc((npool ? npool : 1) * sizeof(*lf->pool))))
		goto out;
	for (uint32_t l = 0; l < nl; l++) {
		struct scev_loop *L = &lf->loops[l];

		L->children = lf->pool + at;
		at += L->nchildren;
		L->nchildren = 0;
	}
	for (uint32_t l = 0; l < nl; l++)
		if (lf->loops[l].parent != SCEV_NONE) {
			struct scev_loop *P = &lf->loops[lf->loops[l].parent];

			P->children[P->nchildren++] = l;
		}
	/* Innermost-first order: post-order of the forest. */
	{
		uint32_t n = 0;

		for (uint32_t r = 0; r < nl; r++) {
			uint32_t sp = 0;

			if (lf->loops[r].parent != SCEV_NONE)
				continue;
			st[sp++] = (struct frame){ r, 0 };
			while (sp) {
				struct frame *f = &st[sp - 1];
				const struct scev_loop *L = &lf->loops[f->b];

				if (f->k == L->nchildren) {
					lf->order[n++] = f->b;
					sp--;
				} else {
					st[sp++] = (struct frame){ L->children[f->k++], 0 };
				}
			}
		}
	}
	for (uint32_t i = 0; i < nl; i++) {
		uint32_t l = lf->order[i], lo = i;
		const struct scev_loop *L = &lf->loops[l];

		for (uint32_t c = 0; c < L->nchildren; c++)	/* (placed before l) */
			if (lf->span[L->children[c]].lo < lo)
				lo = lf->span[L->children[c]].lo;
		lf->span[l] = (struct scev_loop_span){ lo, i };
	}

	/* Back edges and their latches. */
	if (!(lf->back_pool = arena_alloc((w.nback ? w.nback : 1) * sizeof(*lf->back_pool))))
		goto out;
	for (uint32_t i = 0; i < w.nback; i++)
		lf->loops[loop_id[w.back[i].to]].nback_edges++;
	for (uint32_t l = 0, k = 0; l < nl; l++) {
		lf->loops[l].back_edges = lf->back_pool + k;
		k += lf->loops[l].nback_edges;
		lf->loops[l].nback_edges = 0;
	}
	for (uint32_t i = 0; i < w.nback; i++) {
		struct scev_loop *L = &lf->loops[loop_id[w.back[i].to]];

		L->back_edges[L->nback_edges++] = (struct scev_back_edge){ w.back[i].from,
									    w.back[i].to, SCEV_NONE };
	}
	for (uint32_t l = 0; l < nl; l++) {
		struct scev_loop *L = &lf->loops[l];

		/* in address order of their sources, whatever order the DFS met them */
		qsort(L->back_edges, L->nback_edges, sizeof(*L->back_edges), cmp_u32);
		for (uint32_t k = 0; k < L->nback_edges; k++) {
			L->back_edges[k].latch = find_latch(lf, cfg, dom, l, L->back_edges[k].from);
			if (k == 0)
				L->latch = L->back_edges[0].latch;
			else if (L->latch != L->back_edges[k].latch)
				L->latch = SCEV_NONE;
		}
	}

	/* Entries: the header, then re-entry blocks (deduplicated, ascending).  Re-entries are
	 * grouped by header first (counting sort), so this stays linear with many cycles. */
	{
		uint32_t *roff = arena_zalloc(nb + 1, sizeof(*roff)), *rto = NULL, *rfill = NULL;

		if (!roff)
			goto out;
		for (uint32_t i = 0; i < w.nre; i++)
			roff[w.reentry[i].from + 1]++;
		for (uint32_t b = 0; b < nb; b++)
			roff[b + 1] += roff[b];
		rto = arena_alloc((w.nre ? w.nre : 1) * sizeof(*rto));
		rfill = arena_zalloc(nb, sizeof(*rfill));
		if (!rto || !rfill) {
			arena_free(roff);
			arena_free(rto);
			arena_free(rfill);
			goto out;
		}
		for (uint32_t i = 0; i < w.nre; i++)
			rto[roff[w.reentry[i].from] + rfill[w.reentry[i].from]++] = w.reentry[i].to;
		err = 0;
		for (uint32_t l = 0; l < nl && !err; l++) {
			struct scev_loop *L = &lf->loops[l];
			uint32_t h = L->header, n = 1;

			L->entries = lf->pool + at;
			at += roff[h + 1] - roff[h] + 1;
			L->entries[0] = h;
			for (uint32_t i = roff[h]; i < roff[h + 1]; i++)
				if (rto[i] != h)
					L->entries[n++] = rto[i];
			qsort(L->entries + 1, n - 1, sizeof(uint32_t), cmp_u32);
			L->nentries = 1;
			for (uint32_t i = 1; i < n; i++)
				if (L->nentries == 1 || L->entries[i] != L->entries[L->nentries - 1])
					L->entries[L->nentries++] = L->entries[i];
		}
		arena_free(roff);
		arena_free(rto);
		arena_free(rfill);
		if (err)
			goto out;
		err = -ENOMEM;
	}

	/* Exits: every edge leaving a loop is an exit of each loop it leaves.  Two passes: count,
	 * then fill, so a loop with many exits costs no repeated reallocation. */
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t b = 0; b < nb; b++) {
			const struct scev_block *blk = &cfg->blocks[b];

			for (unsigned k = 0; k < blk->nsucc; k++) {
				uint32_t s = blk->succ[k];

				for (uint32_t x = lf->loop_of[b]; x != SCEV_NONE; x = lf->loops[x].parent) {
					struct scev_loop *L = &lf->loops[x];

					if (scev_loop__contains(lf, x, s))
						break;	/* s is inside x, hence in every enclosing loop */
					if (pass)
						L->exits[L->nexits] = (struct scev_edge){ b, s };
					L->nexits++;
				}
			}
		}
		if (pass)
			break;
		npool = 0;
		for (uint32_t l = 0; l < nl; l++)
			npool += lf->loops[l].nexits;
		if (!(lf->exit_pool = arena_alloc((npool ? npool : 1) * sizeof(*lf->exit_pool))))
			goto out;
		npool = 0;
		for (uint32_t l = 0; l < nl; l++) {
			struct scev_loop *L = &lf->loops[l];

			L->exits = lf->exit_pool + npool;
			npool += L->nexits;
			L->nexits = 0;
		}
	}

	if ((err = set_bodies(lf, cnt)))
		goto out;
	*out = lf;
	lf = NULL;
	err = 0;
out:
	arena_free(w.pos);
	arena_free(w.ihdr);
	arena_free(w.traversed);
	arena_free(w.is_header);
	arena_free(w.irreducible);
	arena_free(w.back);
	free(w.reentry);
	arena_free(st);
	arena_free(loop_id);
	arena_free(cnt);
	scev_loops__free(lf);
	return err ? diag_set(d, -err, "out of memory building the loop forest") : 0;
}

int scev_structure__build(struct scev_structure *st, const struct bpf_insn *insns, size_t len,
			  struct diag *d)
{
	return scev_structure__build_entry(st, insns, len, 0, d);
}

int scev_structure__build_entry(struct scev_structure *st, const struct bpf_insn *insns,
				size_t len, uint32_t entry, struct diag *d)
{
	int err;

	memset(st, 0, sizeof(*st));
	/* a program loaded with a structure defect (prog.h) stops here, with the defect */
	if ((err = ebpf_validate(insns, len, d)))
		return err;
	if ((err = scev_cfg__build_entry(&st->cfg, insns, len, entry, d)) ||
	    (err = scev_dom__build(&st->dom, st->cfg, false, d)) ||
	    (err = scev_loops__build(&st->loops, st->cfg, st->dom, d))) {
		scev_structure__free(st);
		return err;
	}
	return 0;
}

void scev_structure__free(struct scev_structure *st)
{
	if (!st)
		return;
	scev_loops__free(st->loops);
	scev_dom__free(st->dom);
	scev_cfg__free(st->cfg);
	memset(st, 0, sizeof(*st));
}
