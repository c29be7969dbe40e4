/* Trip counts by enumerating a loop's header states of known numbers, for loops whose exits
 * stop every path only together: loop5.c's `while (1) { i += len ? 3 : 7; if (i == 9) break;
 * ... if (i == 14) break; }`, where each `==` exit alone need not ever be taken (a step may
 * jump over its number) and the summary, which keeps the step and the tested offset apart,
 * cannot tell that every path meets one.
 *
 * A header state is the registers whose values are known numbers — at the first header
 * execution the entry state's constants, later what the body computed from constants — every
 * other register any value; and so the stack slots the body loads at constant r10 offsets (at
 * most ENUM_CELLS of them): a store at r10 + off of a known number sets its slot, any other store
 * at r10 + off makes the slots it overlaps any value, and a store through another register, an
 * atomic one or a call makes every slot any value.  A register known to be r10 + c (r10 copied,
 * plus or minus constants; at entry a pointer to a constant offset of this frame) addresses the
 * slots as r10 itself does: a store through it sets or clears them, a load through it reads them,
 * and a slot loaded through one that is not tracked yet is tracked in a new walk from the start
 * (bounded_loop_stack_frames_reg's loop reads its caller's slot once, then its own through r1 =
 * r10 - 8: 2 header executions).  From a header state every path through the body is walked (a test
 * whose two sides are known decided, any other both ways, an equality test taken making its
 * register known), each back edge it reaches giving a next header state; exits end the path.
 * Nothing else is read: a load of anything but a tracked slot, a call (r0-r5; r6-r9 are the
 * callee's to keep) and anything else an instruction writes give any value.  Each walk step over-approximates the instruction
 * on every run whose registers agree with the known ones, so by induction every run's k-th
 * header execution is in a state that a chain of k states from the entry's reaches (a slot
 * written at any other offset, or through any other pointer, is never read as known).  When the
 * states reachable from the entry's are few and make no cycle, the header runs at most the
 * longest chain's length per entry.  A cycle (a state reached again, in loop5 with 9 missing
 * the path of 3s: 0, 3, 6, 9, 12, ... stays below the budget only by leaving) or too many states
 * or paths: no count.  Not tried on loops with a loop inside or irreducible ones.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "scev/absint.h"
#include "util/arena.h"

#define ENUM_STATES 64		/* header states */
#define ENUM_EDGES 512		/* state -> next state, distinct */
#define ENUM_WALK 4096		/* blocks walked over all states */
#define ENUM_CELLS 8		/* stack slots tracked */

struct enum_state {
	uint16_t known;		/* bit r: regs[r] is that number */
	uint16_t fp;		/* bit r: regs[r] is r10 + (int64_t)v[r], this frame's */
	uint8_t cknown;		/* bit c: slot c of enum_walk.cell holds cv[c] */
	uint64_t v[EBPF_NREGS];
	uint64_t cv[ENUM_CELLS];
};

struct enum_cell {
	int16_t off;
	uint8_t size;
};

struct enum_walk {
	struct scev_ctx *cx;
	uint32_t l;
	struct enum_cell cell[ENUM_CELLS];	/* the slots the body loads at r10 + off */
	uint32_t ncells;
	struct enum_state st[ENUM_STATES];
	int16_t want;		/* a slot loaded through a frame pointer, not tracked (0: none) */
	uint8_t want_size;
	uint32_t nst;
	uint16_t from[ENUM_EDGES], to[ENUM_EDGES];
	uint32_t nedges;
	uint32_t budget;
	struct {
		uint32_t b;
		struct enum_state s;
	} stack[64];
};

static bool same_state(const struct enum_state *a, const struct enum_state *b)
{
	if (a->known != b->known || a->cknown != b->cknown || a->fp != b->fp)
		return false;
	for (int r = 0; r < EBPF_NREGS; r++)
		if (((a->known | a->fp) >> r & 1) && a->v[r] != b->v[r])
			return false;
	for (int c = 0; c < ENUM_CELLS; c++)
		if ((a->cknown >> c & 1) && a->cv[c] != b->cv[c])
			return false;
	return true;
}

static struct aval reg_val(const struct enum_state *s, unsigned r)
{
	return r < EBPF_NREGS && (s->known >> r & 1) ? aval_const(s->v[r]) : aval_top();
}

static void reg_set(struct enum_state *s, unsigned r, const struct aval *a)
{
	uint64_t c;

	if (r >= EBPF_NREGS)
		return;
	s->fp &= (uint16_t)~(1u << r);
	if (a->kind == AV_SCALAR && aval_is_const(a, &c)) {
		s->known |= (uint16_t)(1u << r);
		s->v[r] = c;
	} else {
		s->known &= (uint16_t)~(1u << r);
	}
}

/* The tracked slot at [off, off + size) exactly, or -1. */
static int cell_at(const struct enum_walk *w, int32_t off, unsigned size)
{
	for (uint32_t c = 0; c < w->ncells; c++)
		if (w->cell[c].off == off && w->cell[c].size == size)
			return (int)c;
	return -1;
}

/* Whether regs[r] + off is r10 + *at in s (r10 itself, or a register known to be r10 + c), at
 * an offset that fits the slots' int16_t. */
static bool fp_at(const struct enum_state *s, unsigned r, int16_t off, int32_t *at)
{
	int64_t o;

	if (r == EBPF_REG_FP)
		o = off;
	else if (r < EBPF_NREGS && (s->fp >> r & 1))
		o = (int64_t)s->v[r] + off;
	else
		return false;
	if (o < INT16_MIN || o > INT16_MAX)
		return false;
	*at = (int32_t)o;
	return true;
}

/* A store or call: what it may write of the tracked slots (r10 + off, known value v or not). */
static void cells_store(const struct enum_walk *w, struct enum_state *s, const struct bpf_insn *i,
			const struct aval *v)
{
	unsigned size = ebpf_size_bytes(ebpf_size(i));
	int32_t at;
	uint64_t c;

	if (ebpf_is_call(i) || ebpf_mode(i) != BPF_MEM || !fp_at(s, i->dst_reg, i->off, &at)) {
		s->cknown = 0;	/* (through some pointer, atomically or by a call: anywhere) */
		return;
	}
	for (uint32_t k = 0; k < w->ncells; k++) {
		int32_t lo = w->cell[k].off, hi = lo + w->cell[k].size;

		if (hi <= at || lo >= at + (int32_t)size)
			continue;
		s->cknown &= (uint8_t)~(1u << k);
		if (lo == at && w->cell[k].size == size && v && v->kind == AV_SCALAR &&
		    aval_is_const(v, &c)) {
			s->cknown |= (uint8_t)(1u << k);
			s->cv[k] = size == 8 ? c : c & ((1ull << (8 * size)) - 1);
		}
	}
}

/* One instruction that is not a jump, as the range analysis runs it (ai_step_values) on
 * constants; whatever it writes otherwise is any value. */
static void enum_step(struct enum_walk *w, struct enum_state *s, const struct bpf_insn *i)
{
	uint8_t cls = ebpf_class(i), op = ebpf_op(i);
	int32_t at;

	/* frame pointers: r = r10, a copy of one, one plus or minus a constant */
	if (cls == BPF_ALU64 && op == BPF_MOV && ebpf_srcbit(i) == BPF_X && !i->off &&
	    fp_at(s, i->src_reg, 0, &at)) {
		s->known &= (uint16_t)~(1u << i->dst_reg);
		s->fp |= (uint16_t)(1u << i->dst_reg);
		s->v[i->dst_reg] = (uint64_t)(int64_t)at;
		return;
	}
	if (cls == BPF_ALU64 && (op == BPF_ADD || op == BPF_SUB) && i->dst_reg < EBPF_NREGS &&
	    (s->fp >> i->dst_reg & 1) && fp_at(s, i->dst_reg, 0, &at)) {
		/* (by a constant or a register known to be a small number) */
		int64_t d = ebpf_srcbit(i) == BPF_K ? i->imm
			    : i->src_reg < EBPF_NREGS && (s->known >> i->src_reg & 1)
			    ? (int64_t)s->v[i->src_reg] : INT64_MIN;

		if (d > INT16_MIN && d < INT16_MAX) {
			s->v[i->dst_reg] = (uint64_t)(at + (op == BPF_ADD ? d : -d));
			return;
		}
	}
	if (cls == BPF_ALU || cls == BPF_ALU64) {
		bool is64 = cls == BPF_ALU64;
		struct aval a = reg_val(s, i->dst_reg), v;
		struct aval b = ebpf_srcbit(i) == BPF_X ? reg_val(s, i->src_reg)
				: aval_const(is64 ? (uint64_t)(int64_t)i->imm : (uint32_t)i->imm);

		if (op == BPF_MOV && i->off) {
			v = aval_sext(&b, (unsigned)i->off / 8);
			v = is64 ? v : aval_zext(&v, 4);
		} else if (op == BPF_NEG) {
			v = aval_neg(&a, is64);
		} else if (op == BPF_END) {
			v = is64 || ebpf_srcbit(i) == BPF_TO_BE ? aval_bswap(&a, (unsigned)i->imm)
				: aval_zext(&a, (unsigned)i->imm / 8);
		} else {
			v = aval_alu(op, is64, i->off == 1, &a, &b);
		}
		reg_set(s, i->dst_reg, &v);
		return;
	}
	if (ebpf_is_ldimm64(i) && i->src_reg == 0) {
		struct aval v = aval_const(ebpf_ldimm64_value(i));

		reg_set(s, i->dst_reg, &v);
		return;
	}
	if (cls == BPF_LDX && ebpf_mode(i) == BPF_MEM && fp_at(s, i->src_reg, i->off, &at)) {
		unsigned size = ebpf_size_bytes(ebpf_size(i));
		int c = cell_at(w, at, size);
		struct aval v = c >= 0 && (s->cknown >> c & 1) ? aval_const(s->cv[c]) : aval_top();

		if (c < 0 && at < 0 && at >= -512 && !w->want) {
			w->want = (int16_t)at;	/* (tracked on the next try) */
			w->want_size = (uint8_t)size;
		}
		reg_set(s, i->dst_reg, &v);
		return;
	}
	if (cls == BPF_STX || cls == BPF_ST || ebpf_is_call(i)) {
		struct aval v = cls == BPF_STX ? reg_val(s, i->src_reg)
				: aval_const((uint64_t)(int64_t)i->imm);

		cells_store(w, s, i, cls == BPF_STX || cls == BPF_ST ? &v : NULL);
	}
	s->known &= (uint16_t)~ebpf_regs_written(i);
	s->fp &= (uint16_t)~ebpf_regs_written(i);
}

/* The header state s's index, added when new; -1 when there are too many. */
static int state_index(struct enum_walk *w, const struct enum_state *s)
{
	for (uint32_t k = 0; k < w->nst; k++)
		if (same_state(&w->st[k], s))
			return (int)k;
	if (w->nst == ENUM_STATES)
		return -1;
	w->st[w->nst] = *s;
	return (int)w->nst++;
}

static int add_edge(struct enum_walk *w, uint32_t from, uint32_t to)
{
	for (uint32_t k = 0; k < w->nedges; k++)
		if (w->from[k] == from && w->to[k] == to)
			return 0;
	if (w->nedges == ENUM_EDGES)
		return -1;
	w->from[w->nedges] = (uint16_t)from;
	w->to[w->nedges++] = (uint16_t)to;
	return 0;
}

/* Every path from header state k through the body: its next header states.  -1 when a budget
 * runs out. */
static int walk_state(struct enum_walk *w, uint32_t k)
{
	struct scev_ctx *cx = w->cx;
	const struct scev_cfg *cfg = cx->st.cfg;
	const struct scev_loops *lf = cx->st.loops;
	const struct scev_loop *L = &lf->loops[w->l];
	uint32_t top = 0;

	w->stack[top].b = L->header;
	w->stack[top++].s = w->st[k];
	while (top) {
		uint32_t b = w->stack[--top].b, n = 0, succ[2];
		struct enum_state s = w->stack[top].s, out[2];
		const struct scev_block *blk = &cfg->blocks[b];
		const struct bpf_insn *j = &cx->insns[blk->last];

		if (!w->budget--)
			return -1;
		for (uint32_t pc = blk->first; pc < blk->last; pc += ebpf_insn_slots(&cx->insns[pc]))
			enum_step(w, &s, &cx->insns[pc]);
		if (ebpf_is_exit(j))
			continue;	/* (the program or the function ends: the loop is left) */
		if (ebpf_is_cond_jmp(j) && ebpf_op(j) != BPF_JCOND) {
			bool is32 = ebpf_class(j) == BPF_JMP32;
			struct aval a = reg_val(&s, j->dst_reg);
			struct aval c = ebpf_srcbit(j) == BPF_X ? reg_val(&s, j->src_reg)
					: aval_const(is32 ? (uint32_t)j->imm : (uint64_t)(int64_t)j->imm);
			int o = aval_branch_outcome(ebpf_op(j), is32, &a, &c);

			for (int taken = 0; taken < 2; taken++) {
				uint32_t to = blk->nsucc == 2 ? blk->succ[taken] : blk->succ[0];

				if (o >= 0 && o != taken)
					continue;
				out[n] = s;
				/* a 64-bit equality taken: the unknown side is the other's number */
				if (!is32 && ((ebpf_op(j) == BPF_JEQ && taken) ||
					      (ebpf_op(j) == BPF_JNE && !taken))) {
					if (c.kind == AV_SCALAR && a.kind != AV_SCALAR)
						reg_set(&out[n], j->dst_reg, &c);
					else if (ebpf_srcbit(j) == BPF_X && a.kind == AV_SCALAR &&
						 c.kind != AV_SCALAR)
						reg_set(&out[n], j->src_reg, &a);
				}
				succ[n++] = to;
			}
		} else {
			enum_step(w, &s, j);	/* (a call, or a may_goto: both ways) */
			for (unsigned t = 0; t < blk->nsucc; t++) {
				out[n] = s;
				succ[n++] = blk->succ[t];
			}
		}
		for (uint32_t t = 0; t < n; t++) {
			int x;

			if (succ[t] == L->header) {
				if ((x = state_index(w, &out[t])) < 0 || add_edge(w, k, (uint32_t)x))
					return -1;
			} else if (scev_loop__contains(lf, w->l, succ[t])) {
				if (top == sizeof(w->stack) / sizeof(w->stack[0]))
					return -1;
				w->stack[top].b = succ[t];
				w->stack[top++].s = out[t];
			}
		}
	}
	return 0;
}

/* The most states on a chain from state k (0 when a cycle is reached): depth[] memoizes,
 * mark[] is 1 on the current chain. */
static uint32_t longest_chain(const struct enum_walk *w, uint32_t k, uint32_t *depth,
			      uint8_t *mark)
{
	uint32_t best = 0;

	if (depth[k])
		return depth[k];
	mark[k] = 1;
	for (uint32_t e = 0; e < w->nedges; e++) {
		uint32_t d;

		if (w->from[e] != k)
			continue;
		if (mark[w->to[e]] || !(d = longest_chain(w, w->to[e], depth, mark))) {
			mark[k] = 0;
			return 0;
		}
		best = d > best ? d : best;
	}
	mark[k] = 0;
	return depth[k] = best + 1;
}

/* Tracks the slot [off, off + size) from s0, with its value in the entry state E when a number. */
static void add_cell(struct enum_walk *w, struct enum_state *s0, const struct astate *E,
		     int16_t off, unsigned size)
{
	struct aval v = astate__load(E, off, size);
	uint64_t c;

	w->cell[w->ncells] = (struct enum_cell){ off, (uint8_t)size };
	if (v.kind == AV_SCALAR && aval_is_const(&v, &c)) {
		s0->cknown |= (uint8_t)(1u << w->ncells);
		s0->cv[w->ncells] = c;
	}
	w->ncells++;
}

int absint_enum_trip(struct scev_ctx *cx, uint32_t l, const struct astate *E, uint64_t *T)
{
	const struct scev_loops *lf = cx->st.loops;
	const struct scev_loop *L = &lf->loops[l];
	struct enum_walk *w;
	struct enum_state s0 = { 0 };
	uint32_t depth[ENUM_STATES] = { 0 };
	uint8_t mark[ENUM_STATES] = { 0 };
	bool any = false;
	int ok = 0;

	if (L->irreducible || L->nchildren || !E->live)
		return 0;
	/* some exit test of a register against a constant, or a register the body sets to one:
	 * nothing to decide otherwise */
	for (uint32_t k = 0; k < L->nexits && !any; k++) {
		const struct bpf_insn *j = &cx->insns[cx->st.cfg->blocks[L->exits[k].from].last];

		any = ebpf_is_cond_jmp(j) && ebpf_op(j) != BPF_JCOND && ebpf_srcbit(j) == BPF_K;
	}
	if (!any)
		return 0;
	for (int r = 0; r < EBPF_REG_FP; r++) {
		const struct aval *a = &E->regs[r];
		uint64_t c;

		if ((E->init >> r & 1) && a->kind == AV_SCALAR && aval_is_const(a, &c)) {
			s0.known |= (uint16_t)(1u << r);
			s0.v[r] = c;
		} else if ((E->init >> r & 1) && a->kind == AV_PTR && a->region == REGION_STACK &&
			   !a->maybe_null && range_is_const(&a->r) && a->r.smin >= INT16_MIN &&
			   a->r.smin <= INT16_MAX) {
			s0.fp |= (uint16_t)(1u << r);
			s0.v[r] = a->r.umin;
		}
	}
	/* One room per analysis, not cleared: 15 KB, which a program of many loops without a
	 * bound paid for each (a calloc); every entry of cell, st, from, to and stack is
	 * written before it is read, below ncells, nst, nedges and the stack's top. */
	if (!cx->enum_walk && !(cx->enum_walk = arena_alloc(sizeof(*w))))
		return -ENOMEM;
	w = cx->enum_walk;
	w->cx = cx;
	w->l = l;
	w->nst = 0;
	w->nedges = 0;
	w->ncells = 0;
	/* the slots the body loads at constant r10 offsets, with their entry values when numbers */
	for (uint32_t k = 0; k < L->nblocks; k++) {
		const struct scev_block *blk = &cx->st.cfg->blocks[L->blocks[k]];

		for (uint32_t pc = blk->first; pc <= blk->last; pc += ebpf_insn_slots(&cx->insns[pc])) {
			const struct bpf_insn *i = &cx->insns[pc];
			unsigned size = ebpf_size_bytes(ebpf_size(i));

			if (ebpf_class(i) != BPF_LDX || ebpf_mode(i) != BPF_MEM ||
			    i->src_reg != EBPF_REG_FP || i->off >= 0 || i->off < -512 ||
			    cell_at(w, i->off, size) >= 0 || w->ncells == ENUM_CELLS)
				continue;
			add_cell(w, &s0, E, i->off, size);
		}
	}
	/* (and each slot a walk found loaded through a register known to be r10 + c: the walk
	 * again, from the start, with it tracked) */
	for (;;) {
		bool full = false;

		w->want = 0;
		w->nst = 0;
		w->nedges = 0;
		w->budget = ENUM_WALK;
		w->st[w->nst++] = s0;
		/* (states are appended as walks find them: each is walked once; a budget that ran
		 * out may have run out for want of the slot found) */
		for (uint32_t k = 0; k < w->nst && !full; k++)
			full = walk_state(w, k) != 0;
		if (w->want && w->ncells < ENUM_CELLS) {
			add_cell(w, &s0, E, w->want, w->want_size);
			continue;
		}
		if (full)
			goto out;
		break;
	}
	if ((*T = longest_chain(w, 0, depth, mark)))
		ok = 1;
out:
	return ok;
}
