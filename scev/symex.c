/* Symbolic execution of loop bodies: how every location evolves around a loop, and which
 * conditions make it leave.
 *
 * A loop body is executed once over symbolic values (expr.h) starting from REG(x) for every
 * location x at the header.  Blocks are visited in reverse postorder of the body without its back
 * edges, so every block sees the join (ANY) of the states on all paths to it; a nested loop,
 * already summarized because loops are processed innermost first, is one step: the state on its
 * exits is the state at its header with what it changes replaced by exit values when its trip
 * count is an exact constant there, and by unknowns otherwise.  At the back edges each location's
 * value is classified (see enum loc_class): REG(x) + c on every path is an add recurrence, the
 * basis of trip counts and exact ranges.  Exiting jumps that run in every iteration (they
 * dominate all back-edge sources) are recorded with their operands for the trip counts
 * (exits.c).
 *
 * Stack cells at constant r10 offsets are locations like registers.  A store through any other
 * pointer that may point to the stack, or a call that may write through a stack pointer, makes
 * the cells it may write unknown ("havoc": the bytes the first pass says it may reach, the whole
 * frame when it cannot place them), as does a store that partly overlaps a cell (every cell).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scev/absint.h"
#include "scev/internal.h"
#include "util/arena.h"

struct scell {
	int16_t off;
	uint8_t size;
	eid v;			/* zero-extended from size bytes */
};

struct sstate {
	bool live;
	struct fpmask hv;	/* absent cells with a byte here are unknown (else: unchanged,
				 * REG) */
	eid regs[EBPF_NREGS];
	struct scell *cells;	/* sorted by off, disjoint */
	uint32_t n, cap;
};

static void ss_free(struct sstate *s)
{
	free(s->cells);
	memset(s, 0, sizeof(*s));
}

static int ss_copy(struct sstate *dst, const struct sstate *src)
{
	struct scell *c = NULL;

	if (src->n) {
		c = malloc(src->n * sizeof(*c));
		if (!c)
			return -ENOMEM;
		memcpy(c, src->cells, src->n * sizeof(*c));
	}
	free(dst->cells);
	*dst = *src;
	dst->cells = c;
	dst->cap = src->n;
	return 0;
}

static bool natural(int32_t off, unsigned size)
{
	return off < 0 && off >= -512 && off + (int32_t)size <= 0 && (off % (int32_t)size) == 0;
}

static void ss_havoc(struct sstate *s)
{
	s->n = 0;
	fpmask_fill(&s->hv);
}

/* An unknown store to frame bytes [lo, hi). */
static void ss_havoc_span(struct sstate *s, const struct stack_span *sp)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < s->n; i++)
		if (s->cells[i].off + s->cells[i].size <= sp->lo || s->cells[i].off >= sp->hi)
			s->cells[k++] = s->cells[i];
	s->n = k;
	fpmask_add(&s->hv, sp->lo, sp->hi);
}

/* Unknown stores to the frame bytes in m. */
static void havoc_mask(struct sstate *s, const struct fpmask *m)
{
	for (int32_t o = -FP_FRAME; o < 0; o++)
		if (!m->w[(o + FP_FRAME) / 64])
			o += 63 - (o + FP_FRAME) % 64;	/* (a word of none: to its last byte) */
		else if (fpmask_has(m, o)) {
			int32_t e = o;

			while (e < 0 && fpmask_has(m, e))
				e++;
			ss_havoc_span(s, &(struct stack_span){ (int16_t)o, (int16_t)e });
			o = e;
		}
}

/* Value of the bytes [off, off+size) at the header, when nothing in this iteration wrote them. */
static eid header_bytes(struct scev_ctx *cx, const struct sstate *s, int32_t off, unsigned size)
{
	if (!natural(off, size) || fpmask_any(&s->hv, off, off + (int32_t)size))
		return expr_opaque(&cx->ar);
	return expr_reg(&cx->ar, LOC_SLOT(off, size));
}

static eid ss_load(struct scev_ctx *cx, const struct sstate *s, int32_t off, unsigned size)
{
	for (uint32_t i = 0; i < s->n; i++) {
		const struct scell *c = &s->cells[i];
		int32_t cend = c->off + c->size, end = off + (int32_t)size;

		if (cend <= off || c->off >= end)
			continue;
		if (c->off == off && c->size == size)
			return c->v;
		if (c->off <= off && cend >= end) {	/* inside a larger cell */
			eid sh = expr_const(&cx->ar, (uint64_t)(off - c->off) * 8);

			return expr_zext(&cx->ar, expr_alu(&cx->ar, BPF_RSH, false, false, c->v, sh),
					 size);
		}
		return expr_opaque(&cx->ar);	/* partly covered */
	}
	return header_bytes(cx, s, off, size);
}

static int ss_store(struct scev_ctx *cx, struct sstate *s, int32_t off, unsigned size, eid v)
{
	uint32_t k = 0, pos;
	int32_t end = off + (int32_t)size;

	if (!natural(off, size)) {
		ss_havoc(s);
		return 0;
	}
	/* Drop overlapped cells; a partial overlap loses track of the rest of that cell: its
	 * bytes become unknown (only its: the other cells keep their values). */
	for (uint32_t i = 0; i < s->n; i++) {
		const struct scell *c = &s->cells[i];

		if (c->off + c->size <= off || c->off >= end) {
			s->cells[k++] = *c;
			continue;
		}
		if (c->off < off || c->off + c->size > end)
			fpmask_add(&s->hv, c->off, c->off + c->size);
	}
	s->n = k;
	if (s->n == s->cap) {
		uint32_t nc = s->cap ? s->cap * 2 : 8;
		struct scell *nv = realloc(s->cells, nc * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		s->cells = nv;
		s->cap = nc;
	}
	for (pos = 0; pos < s->n && s->cells[pos].off < off; pos++)
		;
	memmove(&s->cells[pos + 1], &s->cells[pos], (s->n - pos) * sizeof(*s->cells));
	s->cells[pos] = (struct scell){ (int16_t)off, (uint8_t)size, expr_zext(&cx->ar, v, size) };
	s->n++;
	return 0;
}

/* dst := dst ⊔ src. */
static int ss_join(struct scev_ctx *cx, struct sstate *dst, const struct sstate *src)
{
	struct scell *out;
	struct fpmask cm = { 0 };	/* the bytes of cells that overlap in different shapes */
	uint32_t n = 0, i = 0, j = 0, k = 0;

	if (!src->live)
		return 0;
	if (!dst->live)
		return ss_copy(dst, src);
	for (int r = 0; r < EBPF_NREGS; r++)
		dst->regs[r] = expr_any(&cx->ar, dst->regs[r], src->regs[r]);
	out = malloc((dst->n + src->n + 1) * sizeof(*out));
	if (!out)
		return -ENOMEM;
	/* Merge the two sorted cell lists. */
	while (i < dst->n || j < src->n) {
		const struct scell *a = i < dst->n ? &dst->cells[i] : NULL;
		const struct scell *b = j < src->n ? &src->cells[j] : NULL;

		if (a && b && a->off == b->off && a->size == b->size) {
			out[n++] = (struct scell){ a->off, a->size, expr_any(&cx->ar, a->v, b->v) };
			i++;
			j++;
		} else if (a && (!b || a->off + a->size <= b->off)) {
			out[n++] = (struct scell){ a->off, a->size,
				expr_any(&cx->ar, a->v, header_bytes(cx, src, a->off, a->size)) };
			i++;
		} else if (b && (!a || b->off + b->size <= a->off)) {
			out[n++] = (struct scell){ b->off, b->size,
				expr_any(&cx->ar, b->v, header_bytes(cx, dst, b->off, b->size)) };
			j++;
		} else {
			/* overlapping cells of different shapes (a u64 slot on one path, a u32 one
			 * at its address on the other): their bytes are unknown, not the frame's */
			fpmask_add(&cm, a->off, a->off + a->size);
			fpmask_add(&cm, b->off, b->off + b->size);
			if (a->off + a->size <= b->off + b->size)
				i++;
			else
				j++;
		}
	}
	/* (a cell kept from one side that overlaps one of those read the other side's bytes as
	 * unchanged: dropped, its bytes unknown too) */
	for (uint32_t q = 0; q < n; q++)
		if (fpmask_any(&cm, out[q].off, out[q].off + out[q].size))
			fpmask_add(&dst->hv, out[q].off, out[q].off + out[q].size);
		else
			out[k++] = out[q];
	free(dst->cells);
	dst->cells = out;
	dst->n = k;
	dst->cap = n;
	fpmask_or(&dst->hv, &src->hv);
	fpmask_or(&dst->hv, &cm);
	return 0;
}

/* Helpers that write nothing through pointer arguments (they may read them). */
bool helper_is_pure(int32_t id)
{
	switch (id) {
	case 1: case 2: case 3:	/* map lookup, update, delete */
	case 5: case 6: case 7: case 8:	/* ktime, trace_printk, prandom, smp id */
	case 12: case 14: case 15:	/* tail_call, pid_tgid, uid_gid */
	case 23: case 51:	/* redirect, redirect_map */
	case 125:		/* ktime_get_boot_ns */
		return true;
	default:
		return false;
	}
}

/* x += f(x) (x += x, or x += t where t is 1 on one path and x on another: LLVM's
 * x += (x > 5 ? x : 1)) is no accumulation as written.  The first pass's range of the added
 * value at this instruction holds on every visit, refined by the branches that lead here (x >
 * 5), so the add is x plus some value in that range, a new one each time (a RANGE leaf, as
 * what an inner loop adds): a step that is a range of one sign, which the trip solver takes
 * (exits.c: sym_step_range).  Other adds stay as they are. */
static eid add_src_range(struct scev_ctx *cx, uint32_t pc, eid a, eid b)
{
	struct expr_arena *ar = &cx->ar;
	const struct add_src *n = cx->add_src ? &cx->add_src[pc] : NULL;
	eid base;
	uint64_t c;
	bool w32;

	if (!n || n->lo > n->hi || (n->lo == INT64_MIN && n->hi == INT64_MAX))
		return b;
	expr_match_add(ar, a, &base, &c, &w32);
	if (ar->v[base].kind != EX_REG || !expr_uses(ar, b, ar->v[base].a))
		return b;
	return expr_range(ar, n->lo, n->hi);
}

/* One instruction over the symbolic state. */
static int sym_step(struct scev_ctx *cx, struct sstate *s, uint32_t pc)
{
	const struct bpf_insn *i = &cx->insns[pc];
	struct expr_arena *ar = &cx->ar;
	uint8_t cls = ebpf_class(i), op = ebpf_op(i);
	eid a, b, addr, base;
	uint64_t c;
	bool w32;

	switch (cls) {
	case BPF_ALU: case BPF_ALU64: {
		bool is64 = cls == BPF_ALU64;

		a = s->regs[i->dst_reg];
		b = ebpf_srcbit(i) == BPF_X ? s->regs[i->src_reg]
					     : expr_const(ar, is64 ? (uint64_t)(int64_t)i->imm
								   : (uint32_t)i->imm);
		switch (op) {
		case BPF_MOV:
			if (i->off)	/* movsx */
				b = expr_sext(ar, b, (unsigned)i->off / 8);
			s->regs[i->dst_reg] = is64 ? b : expr_zext(ar, b, 4);
			break;
		case BPF_NEG:
			s->regs[i->dst_reg] = expr_neg(ar, a, !is64);
			break;
		case BPF_END:
			if (is64 || ebpf_srcbit(i) == BPF_TO_BE)
				s->regs[i->dst_reg] = expr_bswap(ar, a, (unsigned)i->imm);
			else
				s->regs[i->dst_reg] = expr_zext(ar, a, (unsigned)i->imm / 8);
			break;
		default:
			if (is64 && op == BPF_ADD && ebpf_srcbit(i) == BPF_X)
				b = add_src_range(cx, pc, a, b);
			s->regs[i->dst_reg] = expr_alu(ar, op, !is64, i->off == 1, a, b);
			break;
		}
		return 0;
	}
	case BPF_LD:
		if (ebpf_is_ldimm64(i)) {
			if (i->src_reg == 0)
				s->regs[i->dst_reg] = expr_const(ar, ebpf_ldimm64_value(i));
			else if (i->src_reg == BPF_PSEUDO_MAP_FD || i->src_reg == BPF_PSEUDO_MAP_IDX)
				s->regs[i->dst_reg] = expr_map(ar, (uint32_t)i->imm);
			else
				s->regs[i->dst_reg] = expr_opaque(ar);
			return 0;
		}
		/* legacy packet loads: r0 gets packet data; r1..r5 are clobbered */
		for (int r = 0; r <= 5; r++)
			s->regs[r] = expr_opaque(ar);
		return 0;
	case BPF_LDX: {
		unsigned size = ebpf_size_bytes(ebpf_size(i));
		eid v;

		addr = s->regs[i->src_reg];
		expr_match_add(ar, addr, &base, &c, &w32);
		if (ar->v[base].kind == EX_FP && !w32)
			v = ss_load(cx, s, (int32_t)((int64_t)c + i->off), size);
		else
			v = expr_opaque(ar);
		if (ebpf_mode(i) == BPF_MEMSX)
			v = expr_sext(ar, v, size);
		s->regs[i->dst_reg] = v;
		return 0;
	}
	case BPF_ST: case BPF_STX: {
		unsigned size = ebpf_size_bytes(ebpf_size(i));
		bool atomic = cls == BPF_STX && ebpf_mode(i) == BPF_ATOMIC;
		int32_t off;
		eid old;

		if (atomic && i->imm == BPF_LOAD_ACQ) {
			addr = s->regs[i->src_reg];
			expr_match_add(ar, addr, &base, &c, &w32);
			s->regs[i->dst_reg] = ar->v[base].kind == EX_FP && !w32 ?
				ss_load(cx, s, (int32_t)((int64_t)c + i->off), size) : expr_opaque(ar);
			return 0;
		}
		addr = s->regs[i->dst_reg];
		expr_match_add(ar, addr, &base, &c, &w32);
		if (ar->v[base].kind != EX_FP || w32) {
			/* Not a constant r10 offset: unknown memory.  Fetching atomics load. */
			ss_havoc_span(s, &cx->may_stack[pc]);
			if (atomic && i->imm == BPF_CMPXCHG)
				s->regs[0] = expr_opaque(ar);
			else if (atomic && (i->imm & BPF_FETCH))
				s->regs[i->src_reg] = expr_opaque(ar);
			return 0;
		}
		off = (int32_t)((int64_t)c + i->off);
		b = cls == BPF_ST ? expr_const(ar, (uint64_t)(int64_t)i->imm) : s->regs[i->src_reg];
		if (!atomic || i->imm == BPF_STORE_REL)
			return ss_store(cx, s, off, size, b);
		old = ss_load(cx, s, off, size);
		switch (i->imm) {
		case BPF_XCHG:
			s->regs[i->src_reg] = old;
			return ss_store(cx, s, off, size, b);
		case BPF_CMPXCHG:
			s->regs[0] = old;
			return ss_store(cx, s, off, size, expr_any(ar, old, expr_zext(ar, b, size)));
		default: {
			uint8_t aop = (uint8_t)(i->imm & ~BPF_FETCH);

			if (i->imm & BPF_FETCH)
				s->regs[i->src_reg] = old;
			return ss_store(cx, s, off, size, expr_alu(ar, aop, size == 4, false, old, b));
		}
		}
	}
	default: /* JMP, JMP32 */
		if (ebpf_is_call(i)) {
			for (int r = 0; r <= 5; r++)
				s->regs[r] = expr_opaque(ar);
			ss_havoc_span(s, &cx->may_stack[pc]);
		}
		return 0;
	}
}

/* A location the loop leaves as it was at the header: not listed, and for a cell, no listed
 * cell overlapping it (fp-8/u32 changes with fp-8) and none of its bytes written through a
 * pointer. */
bool sym_unchanged(const struct sym_summary *s, loc_t l)
{
	int32_t lo, hi;

	if (LOC_IS_REG(l))
		return !sym_find(s, l);
	lo = LOC_SLOT_OFF(l);
	hi = lo + (int32_t)LOC_SLOT_SIZE(l);
	if (fpmask_any(sym_hv(s), lo, hi))
		return false;
	for (uint32_t k = 0; k < s->nlocs; k++) {
		loc_t x = s->locs[k].loc;
		int32_t xl, xh;

		if (LOC_IS_REG(x))
			continue;
		xl = LOC_SLOT_OFF(x);
		xh = xl + (int32_t)LOC_SLOT_SIZE(x);
		if (xl < hi && lo < xh)
			return false;
	}
	return true;
}

const struct sym_loc *sym_find(const struct sym_summary *s, loc_t loc)
{
	for (uint32_t i = 0; i < s->nlocs; i++)
		if (s->locs[i].loc == loc)
			return &s->locs[i];
	return NULL;
}

void sym_summary__free(struct sym_summary *s)
{
	if (!s)
		return;
	arena_slab_free(s->locs);
	for (uint32_t k = 0; k < s->nexits; k++)
		arena_slab_free(s->exits[k].lin);
	arena_slab_free(s->exits);
	arena_slab_free(s->pexits);
	arena_slab_free(s->exit_vals);
	arena_slab_free(s->xlocs);
	arena_slab_free(s->xvals);
	arena_slab_free(s->stores);
	arena_slab_free(s->hv);
	memset(s, 0, sizeof(*s));
}

/* s->hv |= m, s->hv allocated when m is the first byte it holds; 0 or -ENOMEM. */
static int summary_hv_or(struct sym_summary *s, const struct fpmask *m)
{
	if (fpmask_empty(m))
		return 0;
	if (!s->hv) {
		if (!(s->hv = arena_slab_alloc(sizeof(*s->hv))))
			return -ENOMEM;
		*s->hv = *m;
		return 0;
	}
	fpmask_or(s->hv, m);
	return 0;
}

/* The summary's arrays grew by doubling; a summary is kept until the last pass has left its
 * loop, so it keeps only what it holds (a loop that changes one register would keep room for
 * 16 locations, 4 exits and 4 stores).  An array already as long as what it holds (its
 * capacity, as far as the caller knows it) is left as it is. */
static void summary_trim(struct sym_summary *s, uint32_t locs_cap, uint32_t exits_cap,
			 uint32_t stores_cap)
{
	struct sym_loc *nl;
	struct sym_exit *ne;
	struct sym_store *nw;

	if (s->nlocs && s->nlocs < locs_cap && (nl = arena_slab_realloc(s->locs, s->nlocs * sizeof(*nl))))
		s->locs = nl;
	if (s->nexits && s->nexits < exits_cap &&
	    (ne = arena_slab_realloc(s->exits, s->nexits * sizeof(*ne))))
		s->exits = ne;
	if (s->npexits && s->npexits < SYM_MAX_PEXITS &&
	    (ne = arena_slab_realloc(s->pexits, s->npexits * sizeof(*ne))))
		s->pexits = ne;
	if (s->nstores && s->nstores < stores_cap &&
	    (nw = arena_slab_realloc(s->stores, s->nstores * sizeof(*nw))))
		s->stores = nw;
}

/* The first room of a summary's array: roomy, or one when the summaries are trimmed (past
 * SYM_TRIM_LOOPS loops), so that a loop with one location or exit is allocated once, not
 * allocated and shrunk. */
#ifndef SYM_TRIM_LOOPS
#define SYM_TRIM_LOOPS 256
#endif

static uint32_t first_room(const struct scev_ctx *cx, uint32_t roomy)
{
	return cx->st.loops->nloops > SYM_TRIM_LOOPS ? 1 : roomy;
}

static int add_loc(struct sym_summary *s, loc_t loc, uint32_t *cap, uint32_t first)
{
	if (sym_find(s, loc))
		return 0;
	if (s->nlocs == *cap) {
		uint32_t nc = *cap ? *cap * 2 : first;
		struct sym_loc *nv = arena_slab_realloc(s->locs, nc * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		s->locs = nv;
		*cap = nc;
	}
	memset(&s->locs[s->nlocs], 0, sizeof(s->locs[0]));
	s->locs[s->nlocs].loc = loc;
	s->locs[s->nlocs].cls = LC_UNKNOWN;
	s->locs[s->nlocs].back = EID_NONE;
	s->nlocs++;
	return 0;
}

int symex_syntactic_mod(struct scev_ctx *cx, uint32_t l, struct sym_summary *s)
{
	const struct scev_loop *L = &cx->st.loops->loops[l];
	uint32_t cap = s->nlocs;
	struct fpmask hv = { 0 };
	int err;

	for (uint32_t k = 0; k < L->nblocks; k++) {
		const struct scev_block *blk = &cx->st.cfg->blocks[L->blocks[k]];

		for (uint32_t pc = blk->first; pc <= blk->last; pc += ebpf_insn_slots(&cx->insns[pc])) {
			const struct bpf_insn *i = &cx->insns[pc];
			uint32_t w = ebpf_regs_written(i);

			for (loc_t r = 0; r < EBPF_NREGS; r++)
				if ((w & (1u << r)) && (err = add_loc(s, r, &cap, first_room(cx, 16))))
					return err;
			if (ebpf_class(i) == BPF_ST || ebpf_class(i) == BPF_STX) {
				unsigned size = ebpf_size_bytes(ebpf_size(i));
				int32_t off = i->off;

				if (i->dst_reg == EBPF_REG_FP && natural(off, size) &&
				    !(ebpf_mode(i) == BPF_ATOMIC && i->imm == BPF_LOAD_ACQ)) {
					if ((err = add_loc(s, LOC_SLOT(off, size), &cap,
							   first_room(cx, 16))))
						return err;
				} else if (i->dst_reg == EBPF_REG_FP) {
					fpmask_fill(&hv);	/* cuts cells */
				} else {
					fpmask_add(&hv, cx->may_stack[pc].lo,
						   cx->may_stack[pc].hi);
				}
			}
			if (ebpf_is_call(i))
				fpmask_add(&hv, cx->may_stack[pc].lo, cx->may_stack[pc].hi);
		}
	}
	if ((err = summary_hv_or(s, &hv)))
		return err;
	/* (A cell of one size written changes the overlapping cells of other sizes as well:
	 * sym_unchanged() and the range analysis see the overlap.) */
	/* (a summary symex_loop gives up on is trimmed there, with the rest) */
	return 0;
}

/* The child of loop l that contains block b (b inside l but not at l's own level). */
static uint32_t child_containing(const struct scev_loops *lf, uint32_t l, uint32_t b)
{
	uint32_t x = lf->loop_of[b];

	while (x != SCEV_NONE && lf->loops[x].parent != l)
		x = lf->loops[x].parent;
	return x;
}

struct sym_run {
	struct scev_ctx *cx;
	uint32_t l;
	uint32_t *blocks;	/* body blocks in reverse postorder */
	uint32_t n;
	struct sstate *in;	/* per position in blocks */
	struct sstate back;	/* join of the states on back edges */
	struct sstate exit;	/* join of the states on exit edges */
	uint32_t nexit_edges;
	struct sym_summary *s;
	uint32_t exits_cap, stores_cap;
	bool pexits_over;	/* more exits on some paths than SYM_MAX_PEXITS */
	uint32_t stamp;		/* this run's mark in cx->sym_collapsed */
	uint32_t cur;		/* position of the block being executed */
};

/* The blocks a body walk of loop l can reach: those of l's own level and where each child is
 * entered (its header; every entry of an irreducible one).  A join into any other block of l
 * (inside a child) fails the walk (join_along_edge), so those never hold a state: listing
 * every block of l, as each level of a nest of depth D lists the blocks of the levels below,
 * would make the nest's walks cost D times its size. */
static uint32_t walk_size(const struct scev_ctx *cx, const struct scev_loop *L)
{
	const struct scev_loops *lf = cx->st.loops;
	uint32_t l = (uint32_t)(L - lf->loops);
	uint32_t n = cx->sym_own_off[l + 1] - cx->sym_own_off[l];

	for (uint32_t k = 0; k < L->nchildren; k++) {
		const struct scev_loop *C = &lf->loops[L->children[k]];

		n++;	/* (its header) */
		for (uint32_t e = 0; C->irreducible && e < C->nentries; e++)
			n += C->entries[e] != C->header;
	}
	return n;
}

static void walk_blocks(const struct scev_ctx *cx, uint32_t l, uint32_t *out)
{
	const struct scev_loops *lf = cx->st.loops;
	const struct scev_loop *L = &lf->loops[l];
	uint32_t n = 0;

	for (uint32_t k = cx->sym_own_off[l]; k < cx->sym_own_off[l + 1]; k++)
		out[n++] = cx->sym_own[k];
	for (uint32_t k = 0; k < L->nchildren; k++) {
		const struct scev_loop *C = &lf->loops[L->children[k]];

		out[n++] = C->header;
		for (uint32_t e = 0; C->irreducible && e < C->nentries; e++)
			if (C->entries[e] != C->header)
				out[n++] = C->entries[e];
	}
}

/* No block of L comes before its header in reverse postorder (the walk starts there). */
static bool header_first(const struct scev_ctx *cx, const struct scev_loop *L)
{
	return cx->sym_min_rpo[L - cx->st.loops->loops] >= cx->rpo_index[L->header];
}

/* cx->sym_own, sym_own_off and sym_min_rpo (see scev_ctx): one pass over the blocks and one
 * over the loops, innermost first, where a walk of every loop's blocks visits a nest's inner
 * blocks once per level around them.  0 or -ENOMEM. */
static int own_blocks_build(struct scev_ctx *cx)
{
	const struct scev_loops *lf = cx->st.loops;
	uint32_t nl = lf->nloops, *own, *off, *mr;

	if (scev_own_blocks(cx, &own, &off))
		return -ENOMEM;
	if (!(mr = arena_alloc((nl ? nl : 1) * sizeof(*mr)))) {
		arena_free(own);
		arena_free(off);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < nl; i++) {
		uint32_t l = lf->order[i], m = UINT32_MAX;
		const struct scev_loop *L = &lf->loops[l];

		for (uint32_t k = off[l]; k < off[l + 1]; k++)
			if (cx->rpo_index[own[k]] < m)
				m = cx->rpo_index[own[k]];
		for (uint32_t c = 0; c < L->nchildren; c++)	/* (innermost first: done) */
			if (mr[L->children[c]] < m)
				m = mr[L->children[c]];
		mr[l] = m;
	}
	cx->sym_own = own;
	cx->sym_own_off = off;
	cx->sym_min_rpo = mr;
	return 0;
}

void symex_done(struct scev_ctx *cx)
{
	arena_free(cx->sym_collapsed);
	cx->sym_collapsed = NULL;
	arena_free(cx->sym_own);
	arena_free(cx->sym_own_off);
	arena_free(cx->sym_min_rpo);
	cx->sym_own = cx->sym_own_off = cx->sym_min_rpo = NULL;
}

static int pos_of(const struct sym_run *r, uint32_t b)
{
	uint32_t lo = 0, hi = r->n, key = r->cx->rpo_index[b];

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (r->cx->rpo_index[r->blocks[mid]] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->n && r->blocks[lo] == b ? (int)lo : -1;
}

/* b is one of C's entries. */
static bool is_entry(const struct scev_loop *C, uint32_t b)
{
	for (uint32_t k = 0; k < C->nentries; k++)
		if (C->entries[k] == b)
			return true;
	return false;
}

/* Joins state st into the state at the end of an edge → to: the back-edge state, the exit state,
 * or the state entering a later block of the body (the edge leaves a block at l's level or a
 * collapsed child; *fail for an edge the body walk cannot follow). */
static int join_along_edge(struct sym_run *r, uint32_t to, const struct sstate *st, bool *fail)
{
	const struct scev_loops *lf = r->cx->st.loops;
	const struct scev_loop *L = &lf->loops[r->l];
	int p;

	if (to == L->header)
		return ss_join(r->cx, &r->back, st);
	if (!scev_loop__contains(lf, r->l, to)) {
		r->nexit_edges++;
		return ss_join(r->cx, &r->exit, st);
	}
	if (lf->loop_of[to] != r->l) {
		uint32_t c = child_containing(lf, r->l, to);

		/* A nested loop is entered at its header, or an irreducible one at any of its
		 * entries before it has been stepped over. */
		if (c == SCEV_NONE || (lf->loops[c].header != to &&
				       !(lf->loops[c].irreducible && is_entry(&lf->loops[c], to))) ||
		    r->cx->sym_collapsed[c] == r->stamp) {
			*fail = true;
			return 0;
		}
	}
	p = pos_of(r, to);
	if (p <= (int)r->cur) {
		/* not in the body, or an edge back to a block already executed (no such edge at
		 * the loop's own level except to its header) */
		*fail = true;
		return 0;
	}
	return ss_join(r->cx, &r->in[p], st);
}

/* Environment for the exit bounds of a nested loop: the value a location holds where the nested
 * loop is entered, in this loop's REG symbols, over the header state of this loop in the first
 * range pass, which covers every visit of the header (constants only without it). */
struct entry_env {
	struct scev_ctx *cx;
	const struct sstate *s;
	/* the first pass's header state, live (NULL: none), read in place (hdr_pack__reg,
	 * hdr_pack__load): a whole state built from it wrote 1 KB, twice a nested loop */
	const struct hdr_pack *fh;
	struct aval tmp, tmp2;
};

static const struct aval *first_hdr_get(void *arg, loc_t l)
{
	struct entry_env *ee = arg;

	if (!ee->fh)
		ee->tmp2 = aval_top();
	else if (LOC_IS_REG(l))
		ee->tmp2 = hdr_pack__reg(ee->fh, l);
	else
		ee->tmp2 = hdr_pack__load(ee->fh, LOC_SLOT_OFF(l), LOC_SLOT_SIZE(l));
	return &ee->tmp2;
}

static const struct aval *entry_env_get(void *arg, loc_t l)
{
	struct entry_env *ee = arg;
	eid v = LOC_IS_REG(l) ? ee->s->regs[l]
			       : ss_load(ee->cx, ee->s, LOC_SLOT_OFF(l), LOC_SLOT_SIZE(l));

	ee->tmp = aval_eval(ee->cx, v, first_hdr_get, ee);
	return &ee->tmp;
}

static eid entry_expr_get(void *arg, loc_t l)
{
	struct entry_env *ee = arg;

	return LOC_IS_REG(l) ? ee->s->regs[l]
			     : ss_load(ee->cx, ee->s, LOC_SLOT_OFF(l), LOC_SLOT_SIZE(l));
}

struct map_fill {
	struct scev_ctx *cx;
	const struct sstate *s;
	const struct sym_summary *cs;
	struct entry_env *ee;	/* the entry's values, for what accumulations add */
	eid *map;
	uint64_t k;		/* iteration of the exit */
	bool ranged;		/* ... or some iteration in [k, khi] */
	uint64_t khi;
};

/* A recurrence's value in some iteration k of [klo, khi], each iteration adding a value in
 * [dlo, dhi] (signed, at the recurrence's width; dlo = dhi = step for an add recurrence): in
 * plus the sum of k of them, a RANGE; EID_NONE when it may not fit. */
static eid stepped_range(struct expr_arena *ar, eid in, const struct sym_loc *sl, int64_t dlo,
			 int64_t dhi, uint64_t klo, uint64_t khi)
{
	__int128 p[4] = { (__int128)dlo * klo, (__int128)dlo * khi, (__int128)dhi * klo,
			  (__int128)dhi * khi };
	__int128 a = p[0], b = p[0], lim = (__int128)1 << 62;
	eid v;

	for (int i = 1; i < 4; i++) {
		a = p[i] < a ? p[i] : a;
		b = p[i] > b ? p[i] : b;
	}
	if (a < -lim || b > lim || khi > (1ull << 62))
		return EID_NONE;
	v = expr_alu(ar, BPF_ADD, sl->width == 32, false, in, expr_range(ar, (int64_t)a,
									 (int64_t)b));
	/* Iteration 0 holds the entry value itself, which a 32-bit add would truncate. */
	if (sl->width == 32 && klo == 0 && !expr_is_zext32(ar, in))
		v = expr_any(ar, in, v);
	return v;
}

static bool fill_keep(void *arg, loc_t l)
{
	struct map_fill *mf = arg;
	const struct sym_loc *sl = sym_find(mf->cs, l);
	int64_t dlo, dhi;
	eid in;

	if (mf->map[l] != EID_NONE)
		return true;
	if (!sl && !sym_unchanged(mf->cs, l))
		return false;	/* a cell changed through an overlapping one, or havoc */
	in = LOC_IS_REG(l) ? mf->s->regs[l] : ss_load(mf->cx, mf->s, LOC_SLOT_OFF(l), LOC_SLOT_SIZE(l));
	if (!sl || (!mf->ranged && mf->k == 0)) {
		/* unchanged by the inner loop, or its exit taken in the first iteration, whose
		 * header holds what came in whatever the location's class (a counter stepped by
		 * -1 at 32 bits on one path and left at 64 on the other, by a loop run once) */
		mf->map[l] = in;
		return true;
	}
	if (sl->cls == LC_ACCUM) {
		/* x += d with d in [dlo, dhi] in every iteration (a step taken on some paths
		 * only, or one an inner loop of its own made a range), d reading only what the
		 * child does not change, whose values at its entry mf->ee gives: k iterations
		 * add k such values */
		eid v = !sym_delta_bounds(mf->cx, mf->cs, sl, entry_env_get, mf->ee, &dlo, &dhi)
				? EID_NONE
				: stepped_range(&mf->cx->ar, in, sl, dlo, dhi, mf->k,
						mf->ranged ? mf->khi : mf->k);

		if (v == EID_NONE)
			return false;
		mf->map[l] = v;
		return true;
	}
	if (sl->cls != LC_AFFINE)
		return false;
	dlo = dhi = sl->width == 32 ? (int64_t)(int32_t)(uint32_t)sl->step : (int64_t)sl->step;
	if (mf->ranged) {
		eid v = stepped_range(&mf->cx->ar, in, sl, dlo, dhi, mf->k, mf->khi);

		if (v == EID_NONE)
			return false;
		mf->map[l] = v;
	} else if (mf->k == 0)
		mf->map[l] = in;
	else
		mf->map[l] = expr_alu(&mf->cx->ar, BPF_ADD, sl->width == 32, false, in,
				      expr_const(&mf->cx->ar, sl->step * mf->k));
	return true;
}

/* What the blocks of irreducible loop c that a side entry reaches without passing the header may
 * write, syntactically: registers (mask), cells at constant r10 offsets and frame bytes written
 * through pointers or calls (mask; all of it for a store that cuts a cell). */
struct side_writes {
	uint32_t regs;
	struct fpmask bytes;
};

static int side_region_writes(struct scev_ctx *cx, uint32_t c, struct side_writes *w)
{
	const struct scev_loop *C = &cx->st.loops->loops[c];
	const struct scev_cfg *g = cx->st.cfg;
	const uint8_t *region = absint_reentry_region(cx, c);

	memset(w, 0, sizeof(*w));
	if (!region)
		return -ENOMEM;
	for (uint32_t k = 0; k < C->nblocks; k++) {
		const struct scev_block *blk = &g->blocks[C->blocks[k]];

		if (!region[k])
			continue;
		for (uint32_t pc = blk->first; pc <= blk->last; pc += ebpf_insn_slots(&cx->insns[pc])) {
			const struct bpf_insn *i = &cx->insns[pc];

			w->regs |= ebpf_regs_written(i);
			if (ebpf_class(i) == BPF_ST || ebpf_class(i) == BPF_STX) {
				unsigned size = ebpf_size_bytes(ebpf_size(i));

				if (i->dst_reg == EBPF_REG_FP && natural(i->off, size))
					fpmask_add(&w->bytes, i->off, i->off + (int32_t)size);
				else if (i->dst_reg == EBPF_REG_FP)
					fpmask_fill(&w->bytes);
				else
					fpmask_add(&w->bytes, cx->may_stack[pc].lo, cx->may_stack[pc].hi);
			}
			if (ebpf_is_call(i))
				fpmask_add(&w->bytes, cx->may_stack[pc].lo, cx->may_stack[pc].hi);
		}
	}
	return 0;
}

/* Location l leaves irreducible loop c as it came in: no iteration from the header changes it
 * (its summary), nor the way out of one, nor the way from a side entry to the header. */
static bool irreducible_keeps(const struct sym_summary *cs, const struct side_writes *w, loc_t l)
{
	int32_t lo, hi;

	if (!cs->ok || cs->exit_havoc || !sym_unchanged(cs, l))
		return false;
	if (LOC_IS_REG(l)) {
		for (uint32_t k = 0; k < cs->nxlocs; k++)
			if (cs->xlocs[k] == l)
				return false;
		return !(w->regs & (1u << l));
	}
	lo = LOC_SLOT_OFF(l);
	hi = lo + (int32_t)LOC_SLOT_SIZE(l);
	for (uint32_t k = 0; k < cs->nxlocs; k++) {
		loc_t x = cs->xlocs[k];

		if (!LOC_IS_REG(x) && LOC_SLOT_OFF(x) < hi &&
		    lo < LOC_SLOT_OFF(x) + (int32_t)LOC_SLOT_SIZE(x))
			return false;
	}
	return !fpmask_any(&w->bytes, lo, hi);
}

/* The states of irreducible child c's first header visits kept apart (side_walk): the header
 * entry's (its in-edges from outside c joined), and each side arrival's with the block it
 * arrives from.  ok when every first visit is in one of them (no more arrivals than fit). */
#define IRR_PARTS 4
struct irr_parts {
	bool ok;
	unsigned n;
	struct sstate s[IRR_PARTS];
	uint32_t from[IRR_PARTS];	/* SCEV_NONE: the header entry's */
};

static void irr_parts_free(struct irr_parts *ps)
{
	for (unsigned p = 0; p < ps->n; p++)
		ss_free(&ps->s[p]);
	ps->n = 0;
}

/* jmp_tests_inv's question for a direct edge: register r is location l itself. */
static bool reg_is_loc(const void *arg, uint8_t r, loc_t l)
{
	(void)arg;
	return LOC_IS_REG(l) && r == l;
}

/* A first header visit of irreducible child c arriving from block b, whose test is exit x's
 * (form f) and sends to the header when it fails: the test compared, in its own width, the
 * counter's register with the invariant side's register (or constant), and a direct edge gives
 * the header those registers as they were, so the counter's first value there is not the
 * bound.  With v(0) = x0 + step (the test after the step), the first k with v(k) == n is then
 * one less than the first j >= 1 with x0 + j * step == n (exit_affine's guarded form). */
static bool arrival_guarded(struct scev_ctx *cx, uint32_t c, const struct sym_exit *x,
			    const struct sym_lin *f, uint32_t b)
{
	const struct scev_cfg *g = cx->st.cfg;
	const struct scev_block *blk = &g->blocks[b];
	const struct bpf_insn *i = scev_block_cond_jmp(g, b);
	const struct expr *inv = &cx->ar.v[f->inv];
	uint64_t wm = f->w == 32 ? 0xffffffffull : UINT64_MAX;

	if (!i || x->block != b || blk->nsucc != 2 || !LOC_IS_REG(f->loc) ||
	    ebpf_op(i) == BPF_JCOND || ((f->off - f->step) & wm))
		return false;
	if ((blk->succ[0] == cx->st.loops->loops[c].header) ==
	    (blk->succ[1] == cx->st.loops->loops[c].header))
		return false;
	if ((ebpf_class(i) == BPF_JMP32) != (f->w == 32))
		return false;
	return jmp_tests_inv(i, f->loc, inv, reg_is_loc, NULL);
}

/* Every entry of child c is reached from this loop's header in the iteration that runs it: this
 * loop is reducible, or c lies outside its side-entry region (what a side entry runs before its
 * first header visit, which this walk, from the header, does not cover).  Then the walk's states
 * at c, in terms of this loop's header values, describe every run that reaches c. */
static bool ctx_covers(struct sym_run *r, uint32_t c)
{
	struct scev_ctx *cx = r->cx;
	const struct scev_loop *P = &cx->st.loops->loops[r->l], *C = &cx->st.loops->loops[c];
	const uint8_t *region;

	if (!P->irreducible)
		return true;
	if (!(region = absint_reentry_region(cx, r->l)))
		return false;
	for (uint32_t i = 0; i < C->nblocks; i++) {
		uint32_t at = scev_loop__block_index(P, C->blocks[i]);

		if (at == SCEV_NONE || region[at])
			return false;
	}
	return true;
}

/* Exit k of irreducible child c over its first header visits apart (ps): the distance's linear
 * form for each, with the guard of an arrival through the exit's own test; 1 with the hull of
 * their bounds, 0 when some part has none.  Each holds for every visit of its part, so the hull
 * holds for every entry.  Recorded on the exit for the range pass when the walk's states cover
 * every run that reaches c (ctx_covers). */
static int ctx_exit_parts(struct sym_run *r, uint32_t c, uint32_t k, const struct irr_parts *ps,
			  const struct hdr_pack *fh, uint64_t *kmin, uint64_t *kmax)
{
	struct scev_ctx *cx = r->cx;
	struct sym_summary *cs = scev_sum(cx, c);
	struct sym_exit *x = &cs->exits[k];
	uint64_t lo = UINT64_MAX, hi = 0;

	if (!ps->ok)
		return 0;
	for (unsigned p = 0; p < ps->n; p++) {
		struct entry_env ee = { .cx = cx, .s = &ps->s[p], .fh = fh };
		struct sym_lin f;
		uint64_t a, b;
		char why[96];

		if (!ps->s[p].live)
			continue;
		if (sym_exit_lin(cx, cs, x, entry_env_get, entry_expr_get, &ee, &f, why,
				 sizeof(why)))
			return 0;
		if (ps->from[p] != SCEV_NONE && arrival_guarded(cx, c, x, &f, ps->from[p])) {
			f.c0 = (f.c0 + f.off) & (f.w == 32 ? 0xffffffffull : UINT64_MAX);
			if (sym_lin_bound(cx, &f, entry_env_get, &ee, first_hdr_get, &ee, &a, &b,
					  why, sizeof(why)))
				return 0;
			if (!b)
				continue;	/* (x0 == n in every run: none arrives) */
			a = a ? a - 1 : 0;
			b = b - 1;
		} else if (sym_lin_bound(cx, &f, entry_env_get, &ee, first_hdr_get, &ee, &a, &b,
					 why, sizeof(why))) {
			return 0;
		}
		lo = a < lo ? a : lo;
		hi = b > hi ? b : hi;
	}
	if (lo > hi)
		return 0;
	*kmin = lo;
	*kmax = hi;
	if (ctx_covers(r, c) && (!x->ctx || (x->ctx_kmin <= lo && hi <= x->ctx_kmax))) {
		x->ctx = true;
		x->ctx_kmin = lo;
		x->ctx_kmax = hi;
	}
	return 1;
}

/* Exit k of child loop c, which its entry ranges (ee) do not bound, in this loop's symbolic
 * state where c is entered: 1 with [kmin, kmax] from the distance's linear form
 * (sym_exit_lin), 0 without, -ENOMEM.  What holds for every entry of c is recorded on the exit
 * for the range pass, when the walk's states cover every run that reaches c (ctx_covers: this
 * loop reducible, or c outside its side-entry region): the bound, and the form when it reads
 * only c's entry values (the range pass's entry state, narrower than the first pass's header
 * state, may bound it where this one does not). */
static int ctx_exit(struct sym_run *r, uint32_t c, uint32_t k, struct entry_env *ee,
		    uint64_t *kmin, uint64_t *kmax)
{
	struct scev_ctx *cx = r->cx;
	struct sym_exit *x = &scev_sum(cx, c)->exits[k];
	/* (an irreducible c is stepped over from its first header visits: not every entry's) */
	bool keep = !cx->st.loops->loops[c].irreducible && ctx_covers(r, c);
	bool outer = false;
	struct sym_lin f;
	char why[96];
	int got;

	if (sym_exit_lin(cx, scev_sum(cx, c), x, entry_env_get, entry_expr_get, ee, &f, why,
			 sizeof(why)))
		return 0;
	got = !sym_lin_bound(cx, &f, entry_env_get, ee, first_hdr_get, ee, kmin, kmax, why,
			     sizeof(why));
	if (got && keep) {
		x->ctx = true;
		x->ctx_kmin = *kmin;
		x->ctx_kmax = *kmax;
	}
	for (unsigned i = 0; i < f.n; i++)
		outer |= f.outer[i];
	if (keep && !outer && !x->lin) {
		if (!(x->lin = arena_slab_alloc(sizeof(*x->lin))))
			return -ENOMEM;
		*x->lin = f;
	}
	return got;
}

static int step_over(struct sym_run *r, uint32_t c, const struct sstate *in,
		     const struct irr_parts *ps, struct sstate *out);

/* Irreducible child c, entered at its entries with the states this walk has there: the blocks
 * a side entry reaches before the header (absint_reentry_region, without nested loops: acyclic,
 * as every cycle at c's level passes its header) are run over the symbolic state from the side
 * entries' states, apart from c's iterations, as the range pass runs them (side_arrivals).
 * What reaches the header joins the header entry's state in *hin, the states of c's first
 * header visits, from which c's summary describes every iteration; what leaves c on the way
 * joins *sx; the first visits apart go to *ps.  1 when the region is not so (a nested loop in
 * it, an edge back in it), 0 done, -ENOMEM. */
static int side_walk(struct sym_run *r, uint32_t c, struct sstate *hin, struct sstate *sx,
		     struct irr_parts *ps)
{
	struct scev_ctx *cx = r->cx;
	const struct scev_loops *lf = cx->st.loops;
	const struct scev_loop *C = &lf->loops[c];
	const uint8_t *region = absint_reentry_region(cx, c);
	struct entry_env ee = { .cx = cx };
	uint32_t *order, n = 0;
	struct sstate *st;
	int err = 0, q;

	if (!region)
		return -ENOMEM;
	if (region[C->nblocks] != 2)
		return 1;
	order = malloc(C->nblocks * sizeof(*order));
	st = calloc(C->nblocks, sizeof(*st));
	if (!order || !st) {
		free(order);
		free(st);
		return -ENOMEM;
	}
	for (uint32_t k = 0; k < C->nblocks; k++)
		if (region[k])
			order[n++] = C->blocks[k];
	err = scev_sort_by_rpo(cx, order, n);
	for (uint32_t e = 0; e < C->nentries && !err; e++) {
		uint32_t b = C->entries[e], i = 0;

		if ((q = pos_of(r, b)) < 0)
			continue;
		if (b == C->header) {
			err = ss_join(cx, hin, &r->in[q]);
			if (!err && ps->ok) {
				if (!ps->n)
					ps->from[ps->n++] = SCEV_NONE;
				err = ss_join(cx, &ps->s[0], &r->in[q]);
			}
			continue;
		}
		while (i < n && order[i] != b)
			i++;
		err = i < n ? ss_join(cx, &st[i], &r->in[q]) : 1;
	}
	if (cx->first_hdr && cx->first_hdr[r->l].live)
		ee.fh = &cx->first_hdr[r->l];
	for (uint32_t i = 0; i < n && !err; i++) {
		const struct scev_block *blk = &cx->st.cfg->blocks[order[i]];
		const struct bpf_insn *jmp = scev_block_cond_jmp(cx->st.cfg, order[i]);
		int taken = -1;

		if (!st[i].live)
			continue;
		for (uint32_t pc = blk->first; pc <= blk->last && !err;
		     pc += ebpf_insn_slots(&cx->insns[pc]))
			err = sym_step(cx, &st[i], pc);
		/* (a test whose outcome the values there decide sends one way only: a counter
		 * the side entry steps before testing it, `w1 -= 1; if w1 != 0 goto header`) */
		if (jmp && blk->nsucc == 2 && ebpf_op(jmp) != BPF_JCOND) {
			bool is32 = ebpf_class(jmp) == BPF_JMP32;
			eid b = ebpf_srcbit(jmp) == BPF_X ? st[i].regs[jmp->src_reg] :
				expr_const(&cx->ar, is32 ? (uint32_t)jmp->imm
						       : (uint64_t)(int64_t)jmp->imm);
			struct aval va = aval_eval(cx, st[i].regs[jmp->dst_reg], first_hdr_get, &ee);
			struct aval vb = aval_eval(cx, b, first_hdr_get, &ee);

			taken = aval_branch_outcome(ebpf_op(jmp), is32, &va, &vb);
		}
		for (uint32_t k = 0; k < blk->nsucc && !err; k++) {
			uint32_t to = blk->succ[k], j = i + 1;

			if (taken >= 0 && (int)k != taken)
				continue;	/* (succ[1] is the jump's target) */

			if (to == C->header) {
				err = ss_join(cx, hin, &st[i]);
				if (!err && ps->ok && ps->n == IRR_PARTS)
					ps->ok = false;
				else if (!err && ps->ok) {
					if (!ps->n)	/* (slot 0 is the header entry's) */
						ps->from[ps->n++] = SCEV_NONE;
					ps->from[ps->n] = order[i];
					err = ss_copy(&ps->s[ps->n++], &st[i]);
				}
				continue;
			}
			if (!scev_loop__contains(lf, c, to)) {
				err = ss_join(cx, sx, &st[i]);
				continue;
			}
			while (j < n && order[j] != to)
				j++;
			err = j < n ? ss_join(cx, &st[j], &st[i]) : 1;
		}
	}
	for (uint32_t i = 0; i < C->nblocks; i++)
		ss_free(&st[i]);
	free(st);
	free(order);
	return err;
}

/* The state on the exits of irreducible child c entered at p (its first entry in this walk's
 * order): its iterations from the header (step_over) from its first header visits and what
 * leaves on the way there (side_walk); when the side region cannot be walked so, everything c
 * may write is unknown after it, except what neither its iterations nor the blocks from a side
 * entry to the header change. */
static int collapse_irreducible(struct sym_run *r, uint32_t c, uint32_t p, struct sstate *out)
{
	struct scev_ctx *cx = r->cx;
	const struct sym_summary *cs = scev_sum(cx, c);
	const struct scev_loop *C = &cx->st.loops->loops[c];
	struct sstate *in = &r->in[p], hin = { 0 }, sx = { 0 };
	struct sym_summary syn = { 0 };
	struct side_writes w;
	struct irr_parts ps = { .ok = true };
	int err = cs->ok ? side_walk(r, c, &hin, &sx, &ps) : 1;

	if (!err) {
		err = hin.live ? step_over(r, c, &hin, &ps, out) : ss_copy(out, &hin);
		if (!err)
			err = ss_join(cx, out, &sx);
	}
	irr_parts_free(&ps);
	ss_free(&hin);
	ss_free(&sx);
	if (err <= 0)
		return err;
	/* (the join of the states at all its entries: their predecessors all come earlier) */
	for (uint32_t e = 0; e < C->nentries; e++) {
		int q = pos_of(r, C->entries[e]);

		if (q >= 0 && (uint32_t)q != p && (err = ss_join(cx, in, &r->in[q])))
			return err;
	}
	if ((err = ss_copy(out, in)))
		return err;
	if ((err = symex_syntactic_mod(cx, c, &syn)) || (err = side_region_writes(cx, c, &w))) {
		sym_summary__free(&syn);
		return err;
	}
	havoc_mask(out, sym_hv(&syn));
	for (uint32_t k = 0; k < syn.nlocs && !err; k++) {
		loc_t l = syn.locs[k].loc;

		/* (a register spilled and filled again, or written only with what it held) */
		if (irreducible_keeps(cs, &w, l))
			continue;
		if (LOC_IS_REG(l))
			out->regs[l] = expr_opaque(&cx->ar);
		else
			err = ss_store(cx, out, LOC_SLOT_OFF(l), LOC_SLOT_SIZE(l),
				       expr_opaque(&cx->ar));
	}
	sym_summary__free(&syn);
	return err;
}

/* The state on the exits of child loop c whose first header visits have state in (its
 * iterations from there, as its summary describes them). */
static int step_over(struct sym_run *r, uint32_t c, const struct sstate *in,
		     const struct irr_parts *ps, struct sstate *out)
{
	struct scev_ctx *cx = r->cx;
	const struct sym_summary *cs = scev_sum(cx, c);
	const struct scev_loop *C = &cx->st.loops->loops[c];
	bool exact = false, ranged = false;
	uint64_t T = 0, Thi = 0;
	struct entry_env ee = { .cx = cx, .s = in };
	int err;

	if ((err = ss_copy(out, in)))
		return err;
	if (cs->ok && cs->exit_vals) {
		if (cx->first_hdr && cx->first_hdr[r->l].live)
			ee.fh = &cx->first_hdr[r->l];
		uint64_t last = UINT64_MAX;

		/* (ee stays as it is through the exits: an exit's tested sequence is matched
		 * once, for its bound and its distance's linear form in ctx_exit) */
		sym_exit_memo_open(&ee);

		for (uint32_t k = 0; k < cs->nexits && !exact && !ranged; k++) {
			uint64_t kmin, kmax;
			char why[96];

			bool bound = !sym_exit_bound(cx, cs, &cs->exits[k], entry_env_get, &ee,
						     &kmin, &kmax, why, sizeof(why));

			/* (== against a number the parent computes from its counters: also when
			 * the entry ranges give a count that is not exact, as an == test against a
			 * bound known as a range may give, both bounds holding for every entry) */
			if (!bound || kmin != kmax) {
				uint64_t cmin, cmax;
				int got = ctx_exit(r, c, k, &ee, &cmin, &cmax);

				if (!got && ps)
					got = ctx_exit_parts(r, c, k, ps, ee.fh, &cmin, &cmax);
				if (got < 0) {
					sym_exit_memo_open(NULL);
					return got;
				}
				if (!got && !bound)
					continue;
				if (got && !bound) {
					kmin = cmin;
					kmax = cmax;
				} else if (got && cmin <= kmax && kmin <= cmax) {
					kmin = cmin > kmin ? cmin : kmin;
					kmax = cmax < kmax ? cmax : kmax;
				}
			}
			if (cs->single_exit && cs->exits[k].block == C->exits[0].from) {
				/* the exit is taken in iteration T, or in one of [T, Thi] */
				exact = kmin == kmax;
				ranged = !exact;
				T = kmin;
				Thi = kmax;
			} else if (kmax < last) {
				last = kmax;	/* no iteration runs after this test first holds */
			}
		}
		if (!exact && !ranged && cs->npexits) {
			uint32_t used[SYM_MAX_PEXITS];
			unsigned nused;
			uint64_t K;
			char why[96];

			if (!sym_cut_bound(cx, c, cs, entry_env_get, &ee, &K, used, &nused, why,
					   sizeof(why)) && K < last)
				last = K;	/* no iteration runs after K */
		}
		if (!exact && !ranged && last != UINT64_MAX) {
			/* several exits: whichever is taken, it is in an iteration up to last */
			ranged = true;
			T = 0;
			Thi = last;
		}
		sym_exit_memo_open(NULL);	/* (ee dies with this call) */
	}
	/* What the child writes through pointers is unknown; its listed cells are stored below,
	 * which drops the cells overlapping them (a partial overlap havocs). */
	if (cs->exit_havoc)
		ss_havoc(out);
	else
		havoc_mask(out, sym_hv(cs));
	if (exact || ranged) {
		eid *map = malloc((LOC_MAX + 1) * sizeof(*map));
		struct map_fill mf = { .cx = cx, .s = in, .cs = cs, .ee = &ee, .map = map, .k = T,
				       .ranged = ranged, .khi = Thi };

		if (!map)
			return -ENOMEM;
		for (loc_t l = 0; l <= LOC_MAX; l++)
			map[l] = EID_NONE;
		for (uint32_t k = 0; k < cs->nlocs; k++) {
			loc_t l = cs->locs[k].loc;
			eid v = cs->exit_vals[k];

			if (expr_only_regs_r(&cx->ar, v, fill_keep, &mf))
				v = expr_subst(&cx->ar, v, map);
			else
				v = expr_opaque(&cx->ar);
			if (LOC_IS_REG(l))
				out->regs[l] = v;
			else if ((err = ss_store(cx, out, LOC_SLOT_OFF(l), LOC_SLOT_SIZE(l), v)))
				break;
		}
		for (uint32_t k = 0; k < cs->nxlocs && !err; k++) {
			loc_t l = cs->xlocs[k];
			eid v = cs->xvals[k];

			if (expr_only_regs_r(&cx->ar, v, fill_keep, &mf))
				v = expr_subst(&cx->ar, v, map);
			else
				v = expr_opaque(&cx->ar);
			if (LOC_IS_REG(l))
				out->regs[l] = v;
			else
				err = ss_store(cx, out, LOC_SLOT_OFF(l), LOC_SLOT_SIZE(l), v);
		}
		free(map);
		return err;
	}
	for (uint32_t k = 0; k < cs->nlocs + cs->nxlocs; k++) {
		loc_t l = k < cs->nlocs ? cs->locs[k].loc : cs->xlocs[k - cs->nlocs];

		if (LOC_IS_REG(l))
			out->regs[l] = expr_opaque(&cx->ar);
		else if ((err = ss_store(cx, out, LOC_SLOT_OFF(l), LOC_SLOT_SIZE(l),
					 expr_opaque(&cx->ar))))
			return err;
	}
	return 0;
}

struct not_loc {
	loc_t l;
};

static bool keep_other(void *arg, loc_t l)
{
	return l != ((struct not_loc *)arg)->l;
}

/* The leaves of a tree of adds from e down, at most max of them after the n in t; -1 past max.
 * Below a 32-bit add, adds of either width are walked (the low half of a sum depends only on
 * the low halves); below a 64-bit one only 64-bit adds, as a 32-bit add truncates. */
static int add_terms(const struct expr_arena *ar, eid e, bool w32, eid *t, int n, int max)
{
	const struct expr *x = &ar->v[e];

	if (x->kind == EX_ALU && x->op == BPF_ADD && (w32 || !x->w32)) {
		eid a = x->a, b = x->b;

		n = add_terms(ar, a, w32, t, n, max);
		return n < 0 ? -1 : add_terms(ar, b, w32, t, n, max);
	}
	if (n == max)
		return -1;
	t[n++] = e;
	return n;
}

/* alt as a sum of adds with REG(x) as exactly one of its terms, the rest not using x: x plus
 * the sum of the others, ((x + r) + 1 after an inner loop that adds r to x, then x += 1). */
static bool add_delta(struct expr_arena *ar, eid alt, eid rx, loc_t x, eid *d, bool *w32)
{
	eid t[8], sum = EID_NONE;
	bool top32 = ar->v[alt].w32;
	int n = add_terms(ar, alt, top32, t, 0, 8), seen = 0;

	if (n < 2)
		return false;
	for (int k = 0; k < n; k++) {
		if (t[k] == rx) {
			seen++;
			continue;
		}
		if (expr_uses(ar, t[k], x))
			return false;
		sum = sum == EID_NONE ? t[k] : expr_alu(ar, BPF_ADD, false, false, sum, t[k]);
	}
	if (seen != 1 || sum == EID_NONE)
		return false;
	*d = sum;
	*w32 = top32;
	return true;
}

bool sym_range_offset(struct expr_arena *ar, eid e, bool wide, eid *base, int64_t *clo,
		      int64_t *chi, bool *w32)
{
	eid t[8];
	bool top32 = ar->v[e].kind == EX_ALU && ar->v[e].w32;
	int n = ar->v[e].kind == EX_ALU ? add_terms(ar, e, top32, t, 0, 8) : -1, nreg = 0;
	__int128 lo = 0, hi = 0, lim = (__int128)1 << (wide && !top32 ? 62 : 30);
	bool range = false;

	if (n < 2)
		return false;
	for (int k = 0; k < n; k++) {
		int64_t a, b;
		uint64_t c;

		if (ar->v[t[k]].kind == EX_REG) {
			*base = t[k];
			nreg++;
		} else if (expr_is_range(ar, t[k], &a, &b)) {
			lo += a;
			hi += b;
			range = true;
		} else if (expr_is_const(ar, t[k], &c)) {
			int64_t sc = top32 ? (int64_t)(int32_t)(uint32_t)c : (int64_t)c;

			lo += sc;
			hi += sc;
		} else {
			return false;
		}
		if (lo < -lim || hi > lim)
			return false;
	}
	if (nreg != 1 || !range)
		return false;
	*clo = (int64_t)lo;
	*chi = (int64_t)hi;
	*w32 = top32;
	return true;
}

/* x + d at one back edge, d not using x; d = 0 for the bare REG(x). */
bool sym_accum_delta(struct expr_arena *ar, eid alt, loc_t x, eid *d, bool *w32)
{
	eid rx = expr_reg(ar, x);	/* first: it may move the arena */
	const struct expr *e = &ar->v[alt];

	if (alt == rx) {
		*d = expr_const(ar, 0);
		*w32 = false;
		return true;
	}
	if (e->kind == EX_ZEXT && e->op == 4 && e->a == rx) {
		*d = expr_const(ar, 0);
		*w32 = true;
		return true;
	}
	if (e->kind != EX_ALU || e->op != BPF_ADD)
		return false;
	if (e->a == rx && !expr_uses(ar, e->b, x))
		*d = e->b;
	else if (e->b == rx && !expr_uses(ar, e->a, x))
		*d = e->a;
	else
		return add_delta(ar, alt, rx, x, d, w32);
	*w32 = e->w32;
	return true;
}

static uint64_t first_hdr_umax(struct scev_ctx *cx, const struct sym_summary *s, loc_t x);

/* The v of e = W(v) for a chain W of operations that are each the identity on the values at
 * most *max (unsigned; *max is lowered to the chain's least): a zero-extension from 1, 2 or 4
 * bytes (v <= 2^(8n) - 1), a sign-extension (v <= 2^(8n-1) - 1), v << k >> k (v <= 2^(64-k) -
 * 1; s>>: 2^(63-k) - 1) and its 32-bit form (w: 2^(32-k) - 1; s>>: 2^(31-k) - 1), v & (2^j -
 * 1) (v <= 2^j - 1).  e itself when it is none of these (*max unchanged). */
static eid sym_ident_inner(const struct expr_arena *ar, eid e, uint64_t *max)
{
	for (;;) {
		const struct expr *x = &ar->v[e];
		uint64_t m, k, k2;

		if ((x->kind == EX_ZEXT || x->kind == EX_SEXT) &&
		    (x->op == 1 || x->op == 2 || x->op == 4)) {
			unsigned bits = 8u * x->op - (x->kind == EX_SEXT);

			m = (1ull << bits) - 1;
		} else if (x->kind == EX_ALU && x->op == BPF_AND && expr_is_const(ar, x->b, &m) &&
			   (!x->w32 || m <= 0xffffffffull) && !(m & (m + 1))) {
			/* (m = 2^j - 1) */
		} else if (x->kind == EX_ALU && (x->op == BPF_RSH || x->op == BPF_ARSH) &&
			   expr_is_const(ar, x->b, &k) && ar->v[x->a].kind == EX_ALU &&
			   ar->v[x->a].op == BPF_LSH && ar->v[x->a].w32 == x->w32 &&
			   expr_is_const(ar, ar->v[x->a].b, &k2) && k == k2 && k >= 1 &&
			   k < (x->w32 ? 31u : 63u)) {
			unsigned bits = (x->w32 ? 32u : 64u) - (unsigned)k - (x->op == BPF_ARSH);

			m = (1ull << bits) - 1;
			x = &ar->v[x->a];	/* (the shift left's operand below) */
		} else {
			return e;
		}
		e = x->a;
		*max = m < *max ? m : *max;
	}
}

/* Whether e is x + c, x a register and c in [1, 2^31) (c = 0, e = x itself, only when !plain),
 * on every header value of x at most *lim (set): W1(W2(x) + c) with W1, W2 identities on small
 * values (sym_ident_inner) and the add at 64 or 32 bits. */
static bool sym_ident_add(struct expr_arena *ar, eid e, bool plain, eid *rx, uint64_t *c,
			  uint64_t *lim)
{
	uint64_t m1 = UINT64_MAX, m2 = UINT64_MAX, add_lim;
	eid a = sym_ident_inner(ar, e, &m1), base;
	bool aw32;

	if (ar->v[a].kind == EX_REG) {
		if (plain || m1 == UINT64_MAX)
			return false;
		*rx = a;
		*c = 0;
		*lim = m1;
		return true;
	}
	if (ar->v[a].kind != EX_ALU || ar->v[a].op != BPF_ADD ||
	    !expr_match_add(ar, a, &base, c, &aw32) || !*c || *c >= 1ull << 31 || m1 < *c)
		return false;
	base = sym_ident_inner(ar, base, &m2);
	if (ar->v[base].kind != EX_REG)
		return false;
	add_lim = aw32 ? 0xffffffffull - *c : UINT64_MAX - *c;
	*rx = base;
	*lim = m2 < add_lim ? m2 : add_lim;
	*lim = m1 - *c < *lim ? m1 - *c : *lim;
	return true;
}

/* Classifies a changed location from its value at the back edges (see enum loc_class).  Deltas
 * and derived values may use other locations (resolved in dependency order later) but not
 * unknowns.  A register the header never sees at 2^32 or above is its own zero-extension, so a
 * path that leaves it unchanged is a 32-bit add of 0 as well as a 64-bit one (`w7 -= 1` on one
 * path, nothing on the other: a 32-bit accumulation of -1 or 0). */
static void classify(struct scev_ctx *cx, const struct sym_summary *s, struct sym_loc *sl)
{
	struct expr_arena *ar = &cx->ar;
	struct not_loc nl = { sl->loc };
	eid alts[8], rx = expr_reg(ar, sl->loc);
	int n = expr_alternatives(ar, sl->back, alts, 8);
	bool narrow = !LOC_IS_REG(sl->loc) && LOC_SLOT_SIZE(sl->loc) < 4;
	bool cell32 = !LOC_IS_REG(sl->loc) && LOC_SLOT_SIZE(sl->loc) == 4;
	bool affine = true, accum = true, aff_w32 = false, acc_w32 = false, acc_set = false;
	bool hdr32 = LOC_IS_REG(sl->loc) && first_hdr_umax(cx, s, sl->loc) <= 0xffffffffull;
	uint64_t step = 0;

	sl->cls = LC_UNKNOWN;
	if (n < 0)
		return;
	sl->zext32 = true;
	for (int k = 0; k < n; k++)
		sl->zext32 = sl->zext32 && expr_is_zext32(ar, alts[k]);
	if (narrow)
		return;
	for (int k = 0; k < n; k++) {
		eid base, d;
		uint64_t c;
		bool aw32, dw32;

		/* A 4-byte cell keeps the low half: any add is a 32-bit add there. */
		expr_match_add(ar, alts[k], &base, &c, &aw32);
		aw32 = aw32 || cell32;
		if (base != rx || (k && (aw32 != aff_w32 || c != step)))
			affine = false;
		if (k == 0) {
			aff_w32 = aw32;
			step = c;
		}
		if (!accum)
			continue;
		if (!sym_accum_delta(ar, alts[k], sl->loc, &d, &dw32) ||
		    !expr_only_regs_r(ar, d, keep_other, &nl)) {
			accum = false;
			continue;
		}
		dw32 = dw32 || cell32;
		if (hdr32 && alts[k] == rx)
			continue;	/* (either width: x + 0 is zext32(x) + 0) */
		if (!acc_set)
			acc_w32 = dw32;
		else if (dw32 != acc_w32)
			accum = false;
		acc_set = true;
	}
	if (affine) {
		sl->cls = LC_AFFINE;
		sl->width = aff_w32 ? 32 : 64;
		sl->step = aff_w32 ? step & 0xffffffffull : step;
		return;
	}
	if (accum) {
		sl->cls = LC_ACCUM;
		sl->width = acc_w32 ? 32 : 64;
		return;
	}
	if (!expr_uses(ar, sl->back, sl->loc) && expr_only_regs(ar, sl->back, keep_other, &nl)) {
		sl->cls = LC_DERIVED;
		return;
	}
	/* x + c in 64-bit and 32-bit forms mixed (w1 += 1 on one path, r1 += 1 on another), or
	 * zext32(x) + c, or x + c through identities on small values (x += c; x <<= 1; x >>= 1):
	 * the same add while x stays small (sym_step_of) */
	if (!LOC_IS_REG(sl->loc))
		return;
	sl->small_max = UINT64_MAX;
	for (int k = 0; k < n; k++) {
		eid base;
		uint64_t c, lim;

		if (!sym_ident_add(ar, alts[k], true, &base, &c, &lim) || base != rx ||
		    (k && c != step))
			return;
		step = c;
		sl->small_max = lim < sl->small_max ? lim : sl->small_max;
	}
	sl->small = true;
	sl->width = 64;
	sl->step = step;
}

static bool keep_invariant(void *arg, loc_t l)
{
	const struct sym_summary *s = arg;

	return sym_unchanged(s, l);
}

/* Something in the loop can end the program or the function without an exit edge. */
static bool terminates_inside(struct scev_ctx *cx, const struct scev_loop *L)
{
	if (!scev_loop_holds(cx, (uint32_t)(L - cx->st.loops->loops), LOOP_HOLDS_END))
		return false;	/* (none of the instructions below) */
	for (uint32_t k = 0; k < L->nblocks; k++) {
		const struct scev_block *blk = &cx->st.cfg->blocks[L->blocks[k]];

		for (uint32_t pc = blk->first; pc <= blk->last; pc += ebpf_insn_slots(&cx->insns[pc])) {
			const struct bpf_insn *i = &cx->insns[pc];

			if (ebpf_is_exit(i) || (ebpf_class(i) == BPF_LD && !ebpf_is_ldimm64(i)) ||
			    (ebpf_is_helper_call(i) && i->imm == 12) ||
			    (cx->th_fn && absint_throw_ends(cx, pc)))
				return true;
		}
	}
	return false;
}

/* Records the store at pc when it runs in every iteration: an array filled by the loop, or a
 * fixed slot written by every iteration (written at the exits taken after the first). */
static int note_store(struct sym_run *r, const struct sstate *st, uint32_t b, uint32_t pc)
{
	struct scev_ctx *cx = r->cx;
	const struct scev_loop *L = &cx->st.loops->loops[r->l];
	const struct bpf_insn *i = &cx->insns[pc];
	struct sym_summary *s = r->s;
	eid addr;

	if (ebpf_class(i) != BPF_ST && (ebpf_class(i) != BPF_STX || ebpf_mode(i) != BPF_MEM))
		return 0;
	addr = expr_alu(&cx->ar, BPF_ADD, false, false, st->regs[i->dst_reg],
			expr_const(&cx->ar, (uint64_t)(int64_t)i->off));
	for (uint32_t k = 0; k < L->nback_edges; k++)
		if (b != L->header && !scev_dom__dominates(cx->st.dom, b, L->back_edges[k].from))
			return 0;
	if (s->nstores == r->stores_cap) {
		uint32_t nc = r->stores_cap ? r->stores_cap * 2 : first_room(cx, 4);
		struct sym_store *nv = arena_slab_realloc(s->stores, nc * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		s->stores = nv;
		r->stores_cap = nc;
	}
	s->stores[s->nstores++] = (struct sym_store){
		.block = b, .size = (uint8_t)ebpf_size_bytes(ebpf_size(i)), .addr = addr };
	return 0;
}

/* Records the exiting jump ending block b (its jump leaves when taken: out1), with its operands
 * in st: in s->exits when every iteration runs it, else in s->pexits. */
static int record_exit(struct sym_run *r, const struct sstate *st, uint32_t b, bool out1,
		       bool every)
{
	struct scev_ctx *cx = r->cx;
	struct sym_summary *s = r->s;
	const struct bpf_insn *i = &cx->insns[cx->st.cfg->blocks[b].last];
	bool is32 = ebpf_class(i) == BPF_JMP32;
	struct sym_exit e = {
		.block = b, .op = ebpf_op(i), .is32 = is32, .exit_on_taken = out1,
	};
	struct sym_exit **arr = every ? &s->exits : &s->pexits;
	uint32_t *n = every ? &s->nexits : &s->npexits;

	if (!every && (r->pexits_over || s->npexits == SYM_MAX_PEXITS)) {
		r->pexits_over = true;
		arena_slab_free(s->pexits);
		s->pexits = NULL;
		s->npexits = 0;
		return 0;
	}
	e.lhs = expr_distribute(&cx->ar, st->regs[i->dst_reg]);
	e.rhs = ebpf_srcbit(i) == BPF_X ?
		expr_distribute(&cx->ar, st->regs[i->src_reg]) :
		expr_const(&cx->ar, is32 ? (uint32_t)i->imm : (uint64_t)(int64_t)i->imm);
	if (every && s->nexits == r->exits_cap) {
		uint32_t nc = r->exits_cap ? r->exits_cap * 2 : first_room(cx, 4);
		struct sym_exit *nv = arena_slab_realloc(s->exits, nc * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		s->exits = nv;
		r->exits_cap = nc;
	} else if (!every && !s->pexits) {
		s->pexits = arena_slab_alloc(SYM_MAX_PEXITS * sizeof(*s->pexits));
		if (!s->pexits)
			return -ENOMEM;
	}
	(*arr)[(*n)++] = e;
	return 0;
}


#define SYM_WALK_FEW 8

int symex_loop(struct scev_ctx *cx, uint32_t l)
{
	const struct scev_loops *lf = cx->st.loops;
	const struct scev_loop *L = &lf->loops[l];
	struct sym_summary *s = scev_sum(cx, l);
	struct sym_run r = { .cx = cx, .l = l, .s = s };
	struct sstate st = { 0 }, out = { 0 };
	/* (the walk of a loop of a few blocks needs no allocation) */
	uint32_t blocks_few[SYM_WALK_FEW];
	struct sstate in_few[SYM_WALK_FEW];
	uint32_t cap = 0;
	bool fail = false;
	int err = 0;

	memset(s, 0, sizeof(*s));
	/* An irreducible loop is executed from its header like the others: every cycle at its
	 * own level passes the header, so this describes every iteration after the first visit
	 * of the header (what comes before, from a side entry, the range analysis joins into the
	 * state entering the loop). */
	if (!cx->sym_own && (err = own_blocks_build(cx)))
		return err;
	r.n = walk_size(cx, L);
	if (r.n <= SYM_WALK_FEW) {
		memset(in_few, 0, r.n * sizeof(*in_few));
		r.blocks = blocks_few;
		r.in = in_few;
	} else {
		r.blocks = malloc(r.n * sizeof(*r.blocks));
		r.in = calloc(r.n, sizeof(*r.in));
	}
	/* (one array per analysis: an array per loop run would make nested and sibling loops
	 * cost the square of their number) */
	if (!cx->sym_collapsed)
		cx->sym_collapsed =
			arena_zalloc(lf->nloops ? lf->nloops : 1, sizeof(*cx->sym_collapsed));
	r.stamp = ++cx->sym_runs;
	if (!r.blocks || !r.in || !cx->sym_collapsed) {
		err = -ENOMEM;
		goto out;
	}
	walk_blocks(cx, l, r.blocks);
	if ((err = scev_sort_by_rpo(cx, r.blocks, r.n)))
		goto out;
	if (!header_first(cx, L)) {	/* (then r.blocks[0] is the header) */
		fail = true;
		goto classify;
	}
	r.in[0].live = true;
	for (loc_t x = 0; x < EBPF_NREGS; x++)
		r.in[0].regs[x] = x == EBPF_REG_FP ? expr_fp(&cx->ar) : expr_reg(&cx->ar, x);

	for (uint32_t p = 0; p < r.n && !fail; p++) {
		uint32_t b = r.blocks[p];
		const struct scev_block *blk = &cx->st.cfg->blocks[b];

		if (!r.in[p].live)
			continue;
		r.cur = p;
		if (lf->loop_of[b] != l) {
			uint32_t c = child_containing(lf, l, b);
			const struct scev_loop *C = &lf->loops[c];
			struct sstate *cin = &r.in[p];

			if (c != SCEV_NONE && cx->sym_collapsed[c] == r.stamp && C->irreducible)
				continue;	/* a further entry of a cycle already stepped over */
			if (c == SCEV_NONE || (C->header != b && !C->irreducible) ||
			    cx->sym_collapsed[c] == r.stamp) {
				fail = true;
				break;
			}
			/* (an irreducible one: the whole cycle once, from all its entries) */
			cx->sym_collapsed[c] = r.stamp;
			if ((err = C->irreducible ? collapse_irreducible(&r, c, p, &out)
						  : step_over(&r, c, cin, NULL, &out)))
				goto out;
			for (uint32_t k = 0; k < C->nexits && !err; k++)
				err = join_along_edge(&r, C->exits[k].to, &out, &fail);
			if (err)
				goto out;
			continue;
		}
		if ((err = ss_copy(&st, &r.in[p])))
			goto out;
		for (uint32_t pc = blk->first; pc <= blk->last; pc += ebpf_insn_slots(&cx->insns[pc]))
			if ((err = note_store(&r, &st, b, pc)) || (err = sym_step(cx, &st, pc)))
				goto out;
		/* An exiting jump that runs in every iteration bounds the trip count; one that
		 * some iterations pass may, with others that every cycle passes (exits.c). */
		if (scev_block_cond_jmp(cx->st.cfg, b) && blk->nsucc == 2) {
			bool out0 = !scev_loop__contains(lf, l, blk->succ[0]);
			bool out1 = !scev_loop__contains(lf, l, blk->succ[1]);
			bool every = out0 != out1;

			/* Every iteration starts at the header; a block that dominates the back
			 * edges' sources lies on every path from the header to them (the paths from
			 * the program's entry through the header included), side entries or not. */
			for (uint32_t k = 0; k < L->nback_edges && every && b != L->header; k++)
				every = scev_dom__dominates(cx->st.dom, b, L->back_edges[k].from);
			if (out0 != out1 && (err = record_exit(&r, &st, b, out1, every)))
				goto out;
		}
		for (unsigned k = 0; k < blk->nsucc && !err; k++)
			err = join_along_edge(&r, blk->succ[k], &st, &fail);
		if (err)
			goto out;
	}
classify:
	if (fail || !r.back.live || cx->ar.oom) {
		/* Give up: the syntactic modified set, every location unknown; what a child's
		 * exits learnt of their entries from a walk that did not finish is dropped. */
		for (uint32_t i = 0; i < L->nchildren; i++) {
			struct sym_summary *cs = scev_sum(cx, L->children[i]);

			for (uint32_t k = 0; k < cs->nexits; k++) {
				cs->exits[k].ctx = false;
				arena_slab_free(cs->exits[k].lin);
				cs->exits[k].lin = NULL;
			}
		}
		arena_slab_free(s->exits);
		s->exits = NULL;
		s->nexits = 0;
		arena_slab_free(s->pexits);
		s->pexits = NULL;
		s->npexits = 0;
		s->ok = false;
		s->why = cx->ar.oom ? "out of memory" : fail ? "a nested loop is entered at a second "
			 "entry" : "no path returns to the header";
		err = symex_syntactic_mod(cx, l, s);
		cap = UINT32_MAX;	/* (its room is symex_syntactic_mod's) */
		goto out;
	}
	s->ok = true;
	/* (back-edge values with their ANYs lifted out of adds: any(x, x + 99) + 1 steps x by 1
	 * or 100) */
	for (loc_t x = 0; x < EBPF_REG_FP && !err; x++)
		if (r.back.regs[x] != expr_reg(&cx->ar, x)) {
			err = add_loc(s, x, &cap, first_room(cx, 16));
			s->locs[s->nlocs - 1].back = expr_distribute(&cx->ar, r.back.regs[x]);
		}
	for (uint32_t k = 0; k < r.back.n && !err; k++) {
		const struct scell *c = &r.back.cells[k];
		loc_t x = LOC_SLOT(c->off, c->size);

		if (c->v == expr_reg(&cx->ar, x))
			continue;
		err = add_loc(s, x, &cap, first_room(cx, 16));
		s->locs[s->nlocs - 1].back = expr_distribute(&cx->ar, c->v);
	}
	if (err)
		goto out;
	/* bytes written through pointers on the way back or out */
	if ((err = summary_hv_or(s, &r.back.hv)) ||
	    (r.exit.live && (err = summary_hv_or(s, &r.exit.hv))))
		goto out;
	for (uint32_t k = 0; k < s->nlocs; k++)
		classify(cx, s, &s->locs[k]);
	/* Changed on the way out though not at the header: parents must see it. */
	if (r.exit.live) {
		loc_t cand[EBPF_NREGS + 64];
		uint32_t nc = 0;

		for (loc_t x = 0; x < EBPF_REG_FP; x++)
			if (!sym_find(s, x) && r.exit.regs[x] != expr_reg(&cx->ar, x))
				cand[nc++] = x;
		for (uint32_t k = 0; k < r.exit.n && nc < EBPF_NREGS + 64; k++) {
			loc_t x = LOC_SLOT(r.exit.cells[k].off, r.exit.cells[k].size);

			if (!sym_find(s, x) && r.exit.cells[k].v != expr_reg(&cx->ar, x))
				cand[nc++] = x;
		}
		if (r.exit.n > 64)
			s->exit_havoc = true;	/* too many to list: treat every cell as changed */
		/* (none, in most loops: no arrays, 64 bytes a loop less) */
		s->xlocs = nc ? arena_slab_alloc(nc * sizeof(*s->xlocs)) : NULL;
		s->xvals = nc ? arena_slab_alloc(nc * sizeof(*s->xvals)) : NULL;
		if (nc && (!s->xlocs || !s->xvals)) {
			err = -ENOMEM;
			goto out;
		}
		for (uint32_t k = 0; k < nc; k++) {
			loc_t x = cand[k];

			s->xlocs[k] = x;
			s->xvals[k] = LOC_IS_REG(x) ? r.exit.regs[x] :
				ss_load(cx, &r.exit, LOC_SLOT_OFF(x), LOC_SLOT_SIZE(x));
		}
		s->nxlocs = nc;
	}
	s->single_exit = L->nexits == 1 && !terminates_inside(cx, L) && r.exit.live;
	if (r.exit.live) {
		s->exit_vals = arena_slab_alloc((s->nlocs ? s->nlocs : 1) * sizeof(*s->exit_vals));
		if (!s->exit_vals) {
			err = -ENOMEM;
			goto out;
		}
		for (uint32_t k = 0; k < s->nlocs; k++) {
			loc_t x = s->locs[k].loc;

			s->exit_vals[k] = LOC_IS_REG(x) ? r.exit.regs[x] :
				ss_load(cx, &r.exit, LOC_SLOT_OFF(x), LOC_SLOT_SIZE(x));
		}
	}
out:
	if (!err && cx->st.loops->nloops > SYM_TRIM_LOOPS)
		summary_trim(s, cap, r.exits_cap, r.stores_cap);	/* (as symex_syntactic_mod's) */
	ss_free(&st);
	ss_free(&out);
	ss_free(&r.back);
	ss_free(&r.exit);
	if (r.in)
		for (uint32_t p = 0; p < r.n; p++)
			ss_free(&r.in[p]);
	if (r.in != in_few)
		free(r.in);
	if (r.blocks != blocks_few)
		free(r.blocks);
	return err;
}

/* ---- steps of recurrences (for ranges, and for the exit analysis of exits.c) ---- */

/* The step of a location that is a recurrence at this loop entry: an add recurrence, or an
 * accumulation x += d on every path with one loop-invariant d whose entry value is a constant
 * (a step held in a register). */
/* The largest value loop s's header sees in register x, by the first pass (which covers every
 * visit); UINT64_MAX when that is not known (the first pass itself, a stack cell). */
static uint64_t first_hdr_umax(struct scev_ctx *cx, const struct sym_summary *s, loc_t x)
{
	const struct hdr_pack *p;
	struct aval v;

	if (!cx->first_hdr || cx->first_pass || !LOC_IS_REG(x) || !cx->sums || s < cx->sums ||
	    s >= cx->sums + cx->st.loops->nloops)
		return UINT64_MAX;
	p = &cx->first_hdr[s - cx->sums];
	if (!p->live || (v = hdr_pack__reg(p, x)).kind != AV_SCALAR)
		return UINT64_MAX;
	return v.r.umax;
}

eid sym_small_ident(struct scev_ctx *cx, const struct sym_summary *s, eid e)
{
	struct expr_arena *ar = &cx->ar;
	const struct expr x = ar->v[e];
	eid r;
	uint64_t c, lim;

	if (x.kind == EX_ANY) {
		eid a = sym_small_ident(cx, s, x.a), b = sym_small_ident(cx, s, x.b);

		return a == x.a && b == x.b ? e : expr_any(ar, a, b);
	}
	if (!sym_ident_add(ar, e, false, &r, &c, &lim) || first_hdr_umax(cx, s, ar->v[r].a) > lim)
		return e;
	return c ? expr_alu(ar, BPF_ADD, false, false, r, expr_const(ar, c)) : r;
}

/* The largest value of b, a constant or a register loop s does not change (by the first pass). */
static bool bound_umax(struct scev_ctx *cx, const struct sym_summary *s, eid b, uint64_t *k)
{
	const struct expr *x = &cx->ar.v[b];

	if (x->kind == EX_CONST)
		*k = x->imm;
	else if (x->kind == EX_REG && LOC_IS_REG(x->a) && sym_unchanged(s, x->a))
		*k = first_hdr_umax(cx, s, x->a);
	else
		return false;
	return true;
}

/* The largest value register x has at the header of loop s in an iteration that goes round: the
 * first pass's, or less when an exit that every iteration passes compares x itself at 64 bits
 * with a constant or a register the loop does not change, unsigned (x < K, x <= K or x == K to
 * stay). */
static uint64_t round_umax(struct scev_ctx *cx, const struct sym_summary *s, loc_t x)
{
	const struct expr_arena *ar = &cx->ar;
	uint64_t m = first_hdr_umax(cx, s, x), k;

	for (uint32_t j = 0; j < s->nexits; j++) {
		const struct sym_exit *e = &s->exits[j];
		uint8_t op = e->exit_on_taken ? trip_negate(e->op) : e->op;
		uint64_t b = UINT64_MAX;

		if (e->is32 || e->op == BPF_JSET)
			continue;
		if (ar->v[e->lhs].kind == EX_REG && ar->v[e->lhs].a == x &&
		    bound_umax(cx, s, e->rhs, &k)) {
		} else if (ar->v[e->rhs].kind == EX_REG && ar->v[e->rhs].a == x &&
			   bound_umax(cx, s, e->lhs, &k)) {
			op = trip_swap(op);
		} else {
			continue;
		}
		if (op == BPF_JLT && k)
			b = k - 1;
		else if (op == BPF_JLE || op == BPF_JEQ)
			b = k;
		m = b < m ? b : m;
	}
	return m;
}

bool sym_step_of(struct scev_ctx *cx, const struct sym_summary *s, const struct sym_loc *sl,
		 const struct aval *(*env)(void *arg, loc_t l), void *arg, uint64_t *step)
{
	eid alts[2], d;
	bool w32;
	struct aval v;

	if (sl->cls == LC_AFFINE) {
		*step = sl->step;
		return true;
	}
	/* (x + c in 32-bit forms or through identities too, while no iteration that goes round
	 * starts with x above what keeps them the add) */
	if (sl->cls == LC_UNKNOWN && sl->small && round_umax(cx, s, sl->loc) <= sl->small_max) {
		*step = sl->step;
		return true;
	}
	if (sl->cls != LC_ACCUM || expr_alternatives(&cx->ar, sl->back, alts, 1) != 1 ||
	    !sym_accum_delta(&cx->ar, alts[0], sl->loc, &d, &w32) ||
	    !expr_only_regs(&cx->ar, d, keep_invariant, (void *)s))
		return false;
	v = aval_eval(cx, d, env, arg);
	if (!aval_is_const(&v, step))
		return false;
	if (sl->width == 32)
		*step &= 0xffffffffull;
	return true;
}
