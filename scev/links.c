/* Linked scalars (links.h): at each conditional jump, the registers and 8-byte stack slots that
 * hold the jump's register plus a constant on every path there.  The kernel gives a register
 * copy the scalar id of its source (`r2 = r0`; `w2 = w0` when r0's upper half is 0), keeps it
 * through a spill to an aligned 8-byte slot and its fill (a narrower spill or fill at the
 * slot's start too, of a number that fits in its bytes: the kernel's get_reg_width check in
 * check_stack_write_fixed_off and check_stack_read_fixed_off), gives `r2 += K` (0 <= K <= S32_MAX,
 * once) a link with offset K, and drops it on every other write; a bound a jump learns of one
 * holder then holds for every holder (sync_linked_regs).  Here the same rules run over the
 * instructions as a must-analysis: a link reaches a block only when it holds on every path
 * into it (the meet of its predecessors' keeps a pair linked only where both link it, with the
 * same offset), which around a loop means on every iteration.  Where the kernel would need a
 * range to decide (`w2 = w0` links only when r0 fits in 32 bits; a spill or fill of 4, 2 or 1
 * bytes only when the number fits in them) the instructions decide instead, more weakly: r0
 * was written by a 32-bit operation, a zero-extending load, `&= K`, `>>= K` or a constant
 * (LF_HI0, LF_W16, LF_W8: the widths they give).  Stores through other pointers than r10 and calls
 * (which may write the frame through a pointer) drop every slot's link; calls drop r0-r5's.
 */
#include "scev/links.h"

#include <errno.h>
#include <string.h>

#include "bpf/helper_proto.h"
#include "util/arena.h"

#define LINK_MAX_BLOCKS 16384	/* a function with more blocks gets no links */
#define LINK_MAX_ROUNDS 64	/* passes over a function's blocks before giving up */

#define LF_ADDED 1	/* the kernel's BPF_ADD_CONST: written by `+= K`; no second one */
#define LF_HI0 2	/* the upper 32 bits are 0 */
#define LF_W32 4	/* written by `w += K`: holds the low 32 bits of the class's number plus
			 * delta, zero-extended (the kernel's BPF_ADD_CONST32) */
#define LF_W16 8	/* the upper 48 bits are 0 (LF_HI0 too) */
#define LF_W8 16	/* the upper 56 bits are 0 (LF_W16 and LF_HI0 too) */
#define LF_WIDTH (LF_HI0 | LF_W16 | LF_W8)
/* A slot only: its number was spilled by a store of 4, 2 or 1 bytes at its start (it fits in
 * them); none of these: by one of 8.  A fill of more bytes than the spill's keeps no link. */
#define LF_SP4 32
#define LF_SP2 64
#define LF_SP1 128
#define LF_NARROW (LF_SP4 | LF_SP2 | LF_SP1)

/* The links of one point: locations of one class hold the class's number plus their delta;
 * class 0 is no class.  Kept canonical between blocks (canon): classes numbered in the order
 * of their first location, of two or more locations, the first's delta 0. */
struct lstate {
	int64_t delta[LINK_NLOC];
	uint8_t cls[LINK_NLOC];
	uint8_t flags[LINK_NLOC];
	bool reached;
};

struct scev_links {
	uint32_t *start;	/* per block and side: v[start[2b + side]], num[2b + side] of them */
	uint8_t *num;
	struct scev_link *v;
	uint32_t n, cap;
};

static void kill(struct lstate *s, unsigned loc)
{
	s->cls[loc] = 0;
	s->delta[loc] = 0;
	s->flags[loc] = 0;
}

/* The width flags of a number below 2^bits (64: any). */
static uint8_t width_flags(unsigned bits)
{
	return (uint8_t)((bits <= 32 ? LF_HI0 : 0) | (bits <= 16 ? LF_W16 : 0) |
			 (bits <= 8 ? LF_W8 : 0));
}

/* The fewest of 8, 16, 32 and 64 bits that hold x. */
static unsigned width_of(uint64_t x)
{
	return x <= UINT8_MAX ? 8 : x <= UINT16_MAX ? 16 : x <= UINT32_MAX ? 32 : 64;
}

/* Whether location loc's number fits in size bytes (the kernel's get_reg_width <= 8 size). */
static bool fits(const struct lstate *s, unsigned loc, unsigned size)
{
	return size >= 8 || (s->flags[loc] & (size >= 4 ? LF_HI0 : size >= 2 ? LF_W16 : LF_W8));
}

static void set_width(struct lstate *s, unsigned loc, unsigned bits)
{
	s->flags[loc] = (uint8_t)((s->flags[loc] & ~LF_WIDTH) | width_flags(bits));
}

/* A class no location is in (at most LINK_NLOC are in use). */
static uint8_t fresh_class(const struct lstate *s)
{
	bool used[UINT8_MAX + 1];
	uint8_t max = 0, c = 1;

	for (unsigned k = 0; k < LINK_NLOC; k++)
		max = s->cls[k] > max ? s->cls[k] : max;
	if (max < UINT8_MAX)
		return (uint8_t)(max + 1);	/* (only equality of classes counts: canon renumbers) */
	memset(used, 0, sizeof(used));
	for (unsigned k = 0; k < LINK_NLOC; k++)
		used[s->cls[k]] = true;
	while (used[c])
		c++;
	return c;
}

/* d := src, as the kernel's `rd = rs`: a source written by `+= K` leaves its class first and
 * starts one of its own (assign_scalar_id_before_mov: a second offset cannot be added). */
static void copy(struct lstate *s, unsigned d, unsigned src)
{
	if (d == src)
		return;
	if (s->flags[src] & LF_ADDED) {
		s->cls[src] = 0;
		s->flags[src] &= (uint8_t)~(LF_ADDED | LF_W32);	/* (a width holds still) */
	}
	if (!s->cls[src]) {
		s->cls[src] = fresh_class(s);
		s->delta[src] = 0;
	}
	s->cls[d] = s->cls[src];
	s->delta[d] = s->delta[src];
	s->flags[d] = s->flags[src];
}

/* The locations of s in a class, in order (idx; the count returned).  A location in no class
 * has delta 0 and no flag but its width: kill, copy and canon_keep_hi0 keep it so, and meet builds
 * its result so. */
static unsigned classed(const struct lstate *s, uint8_t *idx)
{
	unsigned n = 0, k = 0;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (; k + 8 <= LINK_NLOC; k += 8) {
		uint64_t w, m;

		memcpy(&w, &s->cls[k], 8);
		/* the top bit of each nonzero byte, the first in memory lowest */
		m = (((w & 0x7f7f7f7f7f7f7f7fULL) + 0x7f7f7f7f7f7f7f7fULL) | w) &
		    0x8080808080808080ULL;
		for (; m; m &= m - 1)
			idx[n++] = (uint8_t)(k + (unsigned)__builtin_ctzll(m) / 8);
	}
#endif
	for (; k < LINK_NLOC; k++)
		if (s->cls[k])
			idx[n++] = (uint8_t)k;
	return n;
}

static bool any_class(const struct lstate *s)
{
	uint8_t any = 0;

	for (unsigned k = 0; k < LINK_NLOC; k++)
		any |= s->cls[k];
	return any != 0;
}

/* Renumbers the classes in the order of their first location and drops those of one. */
static void canon_keep_hi0(struct lstate *s)
{
	uint8_t idx[LINK_NLOC], map[256], count[256];
	int64_t base[256];
	unsigned n = classed(s, idx);
	uint8_t next = 1;

	for (unsigned a = 0; a < n; a++) {
		count[s->cls[idx[a]]] = 0;
		map[s->cls[idx[a]]] = 0;
	}
	for (unsigned a = 0; a < n; a++)
		count[s->cls[idx[a]]]++;
	for (unsigned a = 0; a < n; a++) {
		unsigned k = idx[a];
		uint8_t c = s->cls[k];

		if (count[c] < 2) {
			s->cls[k] = 0;
			s->delta[k] = 0;
			s->flags[k] &= LF_WIDTH;
			continue;
		}
		if (!map[c]) {
			map[c] = next++;
			base[c] = s->delta[k];
		}
		s->cls[k] = map[c];
		s->delta[k] = (int64_t)((uint64_t)s->delta[k] - (uint64_t)base[c]);
	}
}

/* The slot location of the 8 bytes at fp + off, or 0 when off is not such a slot. */
static unsigned slot_loc(int16_t off)
{
	if (off > -8 || off < -EBPF_STACK_SIZE || off % 8)
		return 0;
	return LINK_REGS + (unsigned)(-off / 8 - 1);
}

/* A store of size bytes at fp + off: the slots it overlaps lose their links (slot k holds
 * [-8(k + 1), -8k): only k from about -(off + size) / 8 - 1 to -off / 8 can). */
static void kill_stack(struct lstate *s, int32_t off, unsigned size)
{
	int32_t lo = -(off + (int32_t)size) / 8 - 2, hi = -off / 8 + 1;

	for (int32_t k = lo < 0 ? 0 : lo; k < LINK_SLOTS && k <= hi; k++) {
		int32_t at = -8 * (k + 1);

		if (off < at + 8 && off + (int32_t)size > at)
			kill(s, LINK_REGS + (unsigned)k);
	}
}

static void kill_slots(struct lstate *s)
{
	memset(&s->cls[LINK_REGS], 0, LINK_SLOTS);
	memset(&s->flags[LINK_REGS], 0, LINK_SLOTS);
	memset(&s->delta[LINK_REGS], 0, LINK_SLOTS * sizeof(s->delta[0]));
}

/* The bits an ALU instruction's result (its register, zero-extended) surely fits in. */
static unsigned alu_width(const struct bpf_insn *i)
{
	uint8_t op = ebpf_op(i);
	bool k = ebpf_srcbit(i) == BPF_K;

	if (op == BPF_END)
		return i->imm == 16 ? 16 : i->imm == 32 ? 32 : 64;
	if (ebpf_class(i) == BPF_ALU) {	/* 32-bit operations zero-extend */
		if (k && ((op == BPF_MOV && i->off == 0) || op == BPF_AND))
			return width_of((uint32_t)i->imm);
		if (k && op == BPF_RSH && (i->imm & 31) >= 16)
			return (i->imm & 31) >= 24 ? 8 : 16;
		return 32;
	}
	if (!k || i->imm < 0)
		return 64;
	if ((op == BPF_MOV && i->off == 0) || op == BPF_AND)
		return width_of((uint64_t)i->imm);
	if (op == BPF_RSH && i->imm >= 32 && i->imm < 64)
		return i->imm >= 56 ? 8 : i->imm >= 48 ? 16 : 32;
	return 64;
}

static void step_alu(struct lstate *s, const struct bpf_insn *i, bool priv)
{
	unsigned d = i->dst_reg;
	uint8_t op = ebpf_op(i);

	if (d >= LINK_REGS)
		return;
	if (op == BPF_MOV && ebpf_srcbit(i) == BPF_X && i->off == 0 && i->src_reg < LINK_REGS) {
		if (ebpf_class(i) == BPF_ALU64 || (s->flags[i->src_reg] & LF_HI0)) {
			copy(s, d, i->src_reg);
			return;
		}
		kill(s, d);	/* w = w of a number that may not fit: no link (nor in the kernel) */
		set_width(s, d, 32);
		return;
	}
	/* (the kernel links `w += K` only where the upper half was 0: it keeps the number) */
	if (priv && (op == BPF_ADD || op == BPF_SUB) && ebpf_srcbit(i) == BPF_K && s->cls[d] &&
	    !(s->flags[d] & LF_ADDED) && !(op == BPF_SUB && i->imm == INT32_MIN) &&
	    (ebpf_class(i) == BPF_ALU64 || (s->flags[d] & LF_HI0))) {
		int64_t k = op == BPF_SUB ? -(int64_t)i->imm : (int64_t)i->imm;
		bool w32 = ebpf_class(i) == BPF_ALU;

		s->delta[d] = (int64_t)((uint64_t)s->delta[d] + (uint64_t)k);
		s->flags[d] = (uint8_t)(LF_ADDED | (w32 ? LF_W32 | LF_HI0 : 0));
		return;
	}
	kill(s, d);
	set_width(s, d, alu_width(i));
}

static void step_mem(struct lstate *s, const struct bpf_insn *i, bool priv)
{
	uint8_t cls = ebpf_class(i), mode = ebpf_mode(i);
	unsigned size = ebpf_size_bytes(ebpf_size(i)), slot;
	uint32_t w = ebpf_regs_written(i);

	if (cls == BPF_LDX) {
		unsigned d = i->dst_reg;

		if (d >= LINK_REGS)
			return;
		slot = i->src_reg == EBPF_REG_FP && mode == BPF_MEM ? slot_loc(i->off) : 0;
		/* a fill of a spill keeps its link; one narrower than 8 bytes only when it takes
		 * no more bytes than the spill wrote and the number fits in them (the kernel's
		 * "Break the relation on a narrowing fill"); the spill's own bytes are the low ones
		 * (bpf_stack_narrow_access_ok, little-endian) */
		if (slot && s->cls[slot] && fits(s, slot, size) &&
		    size <= (s->flags[slot] & LF_SP4	? 4u
			     : s->flags[slot] & LF_SP2 ? 2u
			     : s->flags[slot] & LF_SP1 ? 1u
						       : 8u)) {
			copy(s, d, slot);
			s->flags[d] &= (uint8_t)~LF_NARROW;
			return;
		}
		kill(s, d);
		set_width(s, d, mode == BPF_MEM && size < 8 ? 8 * size : 64);
		return;
	}
	/* a store (BPF_ST, BPF_STX, atomics) */
	for (unsigned r = 0; r < LINK_REGS; r++)
		if (w >> r & 1)
			kill(s, r);
	if (i->dst_reg != EBPF_REG_FP) {
		kill_slots(s);	/* (it may point into the frame) */
		return;
	}
	kill_stack(s, i->off, size);
	slot = slot_loc(i->off);
	/* a spill: the kernel gives it an id to share; one of 4, 2 or 1 bytes only when the
	 * number fits in them ("Break the relation on a narrowing spill") */
	if (priv && cls == BPF_STX && mode == BPF_MEM && slot && i->src_reg < LINK_REGS &&
	    fits(s, i->src_reg, size)) {
		copy(s, slot, i->src_reg);
		s->flags[slot] |= size == 4 ? LF_SP4 : size == 2 ? LF_SP2 : size == 1 ? LF_SP1 : 0;
	}
}

/* Whether call i is of a helper whose prototype writes through no argument (the kernel's
 * helpers write only through arguments that say so: memory to fill, a value to pop, res): it
 * leaves every stack slot as it was.  Not one that runs a callback (no prototype here). */
static bool helper_keeps_stack(const struct bpf_insn *i)
{
	const struct ebpf_helper_proto *p =
		ebpf_is_helper_call(i) ? ebpf_helper_proto(i->imm) : NULL;

	if (!p)
		return false;
	for (int k = 0; k < 5; k++)
		switch (p->args[k]) {
		case HARG_NONE: case HARG_ANYTHING: case HARG_MAP: case HARG_MAP_KEY:
		case HARG_MAP_VALUE: case HARG_MEM: case HARG_MEM_OR_NULL: case HARG_SIZE:
		case HARG_SIZE_OR_ZERO: case HARG_CTX: case HARG_CTX_OR_NULL: case HARG_ALLOC_SIZE:
		case HARG_RINGBUF_RELEASE:
			break;
		default:
			return false;
		}
	return true;
}

static void step(struct lstate *s, const struct bpf_insn *i, bool priv)
{
	uint8_t cls = ebpf_class(i);
	uint32_t w;

	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		step_alu(s, i, priv);
		return;
	case BPF_LDX:
	case BPF_ST:
	case BPF_STX:
		step_mem(s, i, priv);
		return;
	default:
		break;
	}
	if (ebpf_is_ldimm64(i)) {
		if (i->dst_reg < LINK_REGS) {
			kill(s, i->dst_reg);
			set_width(s, i->dst_reg,
				  i->src_reg ? 64 : width_of(ebpf_ldimm64_value(i)));
		}
		return;
	}
	if (ebpf_is_call(i) && !helper_keeps_stack(i))
		kill_slots(s);	/* the callee may write the frame through a pointer */
	w = ebpf_regs_written(i);
	for (unsigned r = 0; r < LINK_REGS; r++)
		if (w >> r & 1)
			kill(s, r);
}

/* d := the meet of d and s (both canonical, both reached): pairs linked in both with the same
 * difference stay linked.  True when d changed. */
static bool meet(struct lstate *d, const struct lstate *s)
{
	struct lstate r;
	uint8_t idx[LINK_NLOC];
	unsigned n = 0;

	if (!memcmp(d, s, sizeof(*d)))
		return false;	/* (the meet of a state with itself) */
	if (!any_class(d) || !any_class(s)) {	/* no pair in both: only widths in both stay */
		bool changed = false;

		for (unsigned k = 0; k < LINK_NLOC; k++)
			changed |= d->cls[k] || (d->flags[k] & ~s->flags[k]);
		if (!changed)
			return false;
		for (unsigned k = 0; k < LINK_NLOC; k++) {
			d->flags[k] &= s->flags[k] & LF_WIDTH;
			d->cls[k] = 0;
			d->delta[k] = 0;
		}
		return true;
	}
	memset(&r, 0, sizeof(r));
	r.reached = true;
	for (unsigned k = 0; k < LINK_NLOC; k++)
		r.flags[k] = d->flags[k] & s->flags[k] & LF_WIDTH;
	/* the locations in a class on both sides (idx), then those linked alike on both */
	for (unsigned a = 0, m = classed(d, idx); a < m; a++)
		if (s->cls[idx[a]] && !((d->flags[idx[a]] ^ s->flags[idx[a]]) & (LF_W32 | LF_NARROW)))
			idx[n++] = idx[a];
	for (unsigned a = 0; a < n; a++) {
		unsigned k = idx[a];

		r.flags[k] |= (uint8_t)(((d->flags[k] | s->flags[k]) & LF_ADDED) |
					(d->flags[k] & (LF_W32 | LF_NARROW)));
		r.delta[k] = d->delta[k];
		r.cls[k] = (uint8_t)(k + 1);	/* (a class of its own unless one before matches) */
		for (unsigned b = 0; b < a; b++) {
			unsigned j = idx[b];

			if (d->cls[j] == d->cls[k] && s->cls[j] == s->cls[k] &&
			    (uint64_t)d->delta[j] - (uint64_t)s->delta[j] ==
				    (uint64_t)d->delta[k] - (uint64_t)s->delta[k]) {
				r.cls[k] = r.cls[j];
				break;
			}
		}
	}
	canon_keep_hi0(&r);
	if (!memcmp(&r, d, sizeof(r)))
		return false;
	*d = r;
	return true;
}

static void run_block(const struct scev_cfg *cfg, uint32_t b, struct lstate *s, bool to_jump,
		      bool priv)
{
	const struct scev_block *blk = &cfg->blocks[b];

	for (uint32_t pc = blk->first; pc <= blk->last;
	     pc += ebpf_insn_slots(&cfg->insns[pc])) {
		if (to_jump && pc == blk->last)
			break;
		step(s, &cfg->insns[pc], priv);
	}
}

/* The must-fixpoint over function f's blocks (in[b - first_block]); false when it did not
 * settle within LINK_MAX_ROUNDS (then f gets no links).  A block runs again only when its
 * entry changed since its last run (dirty, zeroed by the caller): the meet is the pairs'
 * intersection, so meeting a block's unchanged result again changes nothing, and each round
 * ends in the states every block's run would have given. */
static bool solve(const struct scev_cfg *cfg, uint32_t f, const uint32_t *rpo, uint32_t nrpo,
		  struct lstate *in, uint8_t *dirty, const struct lstate *entry, bool priv)
{
	const struct scev_func *fn = &cfg->funcs[f];
	bool changed = true;

	in[fn->entry - fn->first_block] = *entry;
	in[fn->entry - fn->first_block].reached = true;
	dirty[fn->entry - fn->first_block] = 1;
	for (unsigned round = 0; changed; round++) {
		if (round == LINK_MAX_ROUNDS)
			return false;
		changed = false;
		for (uint32_t i = 0; i < nrpo; i++) {
			uint32_t b = rpo[i];
			const struct scev_block *blk = &cfg->blocks[b];
			struct lstate s;

			if (!dirty[b - fn->first_block])
				continue;
			dirty[b - fn->first_block] = 0;
			s = in[b - fn->first_block];
			run_block(cfg, b, &s, false, priv);
			canon_keep_hi0(&s);
			for (unsigned k = 0; k < blk->nsucc; k++) {
				uint32_t t = blk->succ[k] - fn->first_block;

				if (!in[t].reached)
					in[t] = s;
				else if (!meet(&in[t], &s))
					continue;
				dirty[t] = 1;
				changed = true;
			}
		}
	}
	return true;
}

static int push(struct scev_links *l, uint8_t loc, int64_t delta, uint8_t w32)
{
	if (l->n == l->cap) {
		uint32_t cap = l->cap ? 2 * l->cap : 64;
		struct scev_link *v = arena_alloc(cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		if (l->n)
			memcpy(v, l->v, l->n * sizeof(*v));
		arena_free(l->v);
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = (struct scev_link){ .delta = delta, .loc = loc, .w32 = w32 };
	return 0;
}

/* The links of block b's jump (in: its entry state, NULL for none), appended: at most
 * LINKED_REGS_MAX holders of its class, the jump's register counted, registers first, then
 * the slots from fp - 8 down, as the kernel's collect_linked_regs takes them. */
#define LINKED_REGS_MAX 6

static int record(struct scev_links *l, const struct scev_cfg *cfg, uint32_t b,
		  const struct lstate *in, bool priv)
{
	const struct bpf_insn *j = &cfg->insns[cfg->blocks[b].last];
	bool cond = in && ebpf_is_cond_jmp(j) && ebpf_op(j) != BPF_JCOND;
	struct lstate s = { .reached = false };
	int err;

	if (cond) {
		s = *in;
		run_block(cfg, b, &s, true, priv);
	}
	for (int side = 0; side < 2; side++) {
		unsigned r = side ? j->src_reg : j->dst_reg, held = 0;

		l->start[2 * b + (uint32_t)side] = l->n;
		l->num[2 * b + (uint32_t)side] = 0;
		if (!cond || (side && ebpf_srcbit(j) != BPF_X) || r >= LINK_REGS || !s.cls[r])
			continue;
		for (unsigned k = 0; k < LINK_NLOC && held < LINKED_REGS_MAX; k++) {
			if (s.cls[k] != s.cls[r])
				continue;
			held++;
			/* one `+= K` of 64 bits and one of 32: the kernel syncs neither from the
			 * other (sync_linked_regs, as this kernel probes) */
			if ((s.flags[k] & s.flags[r] & LF_ADDED) &&
			    ((s.flags[k] ^ s.flags[r]) & LF_W32))
				continue;
			if (k != r)
				l->num[2 * b + (uint32_t)side]++;
			if (k != r &&
			    (err = push(l, (uint8_t)k,
					(int64_t)((uint64_t)s.delta[k] - (uint64_t)s.delta[r]),
					(uint8_t)((s.flags[k] & LF_W32 ? LINK_W32 : 0) |
						  (s.flags[r] & LF_W32 ? LINK_FROM_W32 : 0)))))
				return err;
		}
	}
	return 0;
}

/* The function a pseudo call or a function address at pc names. */
static uint32_t target_func(const struct scev_cfg *cfg, uint32_t pc)
{
	return cfg->blocks[cfg->block_of[pc + 1 + (uint32_t)cfg->insns[pc].imm]].func;
}

/* Per function: whether its entry may take links from its calls (a static function only
 * bpf-to-bpf calls reach: not main, not global, whose address no instruction takes), and how
 * many functions call it (its callers counted once per call). */
static void entry_kinds(const struct scev_cfg *cfg, const bool *global, bool *linkable,
			uint32_t *ncallers)
{
	for (uint32_t f = 1; f < cfg->nfuncs; f++)
		linkable[f] = !global || !global[f];
	for (uint32_t pc = 0; pc < cfg->len; pc += ebpf_insn_slots(&cfg->insns[pc])) {
		const struct bpf_insn *i = &cfg->insns[pc];

		if (ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC)
			linkable[target_func(cfg, pc)] = false;
		else if (ebpf_is_pseudo_call(i))
			ncallers[target_func(cfg, pc)]++;
	}
}

/* Whether instruction i may start a class (copy): a register copy or, privileged, a spill.  A
 * function with none whose entry links nothing links nothing anywhere (the fill of a slot and
 * `+= K` keep a class, never start one; meet keeps only classes of both sides). */
static bool may_link(const struct bpf_insn *i, bool priv)
{
	uint8_t cls = ebpf_class(i);

	if (cls == BPF_ALU || cls == BPF_ALU64)
		return ebpf_op(i) == BPF_MOV && ebpf_srcbit(i) == BPF_X && i->off == 0 &&
		       i->dst_reg < LINK_REGS && i->src_reg < LINK_REGS && i->dst_reg != i->src_reg;
	return priv && cls == BPF_STX && ebpf_mode(i) == BPF_MEM && i->dst_reg == EBPF_REG_FP &&
	       i->src_reg < LINK_REGS && slot_loc(i->off);
}

/* Per function f, need[f]: whether the fixpoint over f can find a link, in f or in a function it
 * passes its arguments to (a copy or a spill in f, or a call of a linkable function that needs
 * them: the LF_HI0 of r1-r5 at the call decides the callee's `w2 = w1`); plain[f]: every call
 * of f is in a block its entry reaches.  A plain function that does not need links, entered
 * with none, is built as one whose fixpoint did not settle (no links at its jumps, its calls
 * passing none, not even LF_HI0): the same links everywhere, as its states have no class and
 * only a function that needs links reads the LF_HI0 of its entry. */
static int scan_funcs(const struct scev_cfg *cfg, const uint32_t *rpo, const uint32_t *rpo_off,
		      const bool *linkable, bool priv, bool *need, bool *plain)
{
	uint32_t ncalls = 0, n = 0, *from, *to;
	bool changed = true;

	for (uint32_t f = 0; f < cfg->nfuncs; f++) {
		const struct scev_func *fn = &cfg->funcs[f];
		uint32_t all = 0, reached = 0;

		for (uint32_t b = fn->first_block; b < fn->first_block + fn->nblocks; b++)
			for (uint32_t pc = cfg->blocks[b].first; pc <= cfg->blocks[b].last;
			     pc += ebpf_insn_slots(&cfg->insns[pc])) {
				all += ebpf_is_pseudo_call(&cfg->insns[pc]);
				need[f] |= may_link(&cfg->insns[pc], priv);
			}
		for (uint32_t i = rpo_off[f]; i < rpo_off[f + 1]; i++)
			for (uint32_t pc = cfg->blocks[rpo[i]].first; pc <= cfg->blocks[rpo[i]].last;
			     pc += ebpf_insn_slots(&cfg->insns[pc]))
				reached += ebpf_is_pseudo_call(&cfg->insns[pc]);
		plain[f] = all == reached;
		ncalls += all;
	}
	if (!ncalls)
		return 0;
	from = arena_alloc(ncalls * sizeof(*from));
	to = arena_alloc(ncalls * sizeof(*to));
	if (!from || !to) {
		arena_free(from);
		arena_free(to);
		return -ENOMEM;
	}
	for (uint32_t f = 0; f < cfg->nfuncs; f++) {
		const struct scev_func *fn = &cfg->funcs[f];

		for (uint32_t b = fn->first_block; b < fn->first_block + fn->nblocks; b++)
			for (uint32_t pc = cfg->blocks[b].first; pc <= cfg->blocks[b].last;
			     pc += ebpf_insn_slots(&cfg->insns[pc]))
				if (ebpf_is_pseudo_call(&cfg->insns[pc])) {
					from[n] = f;
					to[n++] = target_func(cfg, pc);
				}
	}
	while (changed) {
		changed = false;
		for (uint32_t k = 0; k < n; k++)
			if (!need[from[k]] && linkable[to[k]] && need[to[k]]) {
				need[from[k]] = true;
				changed = true;
			}
	}
	arena_free(from);
	arena_free(to);
	return 0;
}

/* The calls of function f (solved, in[]): the links among r1-r5 at each reached one, met into
 * its callee's entry (acc; seen once one arrived) and the callee's count of calls left. */
static void pass_args(const struct scev_cfg *cfg, uint32_t f, const struct lstate *in,
		      struct lstate *acc, uint32_t *left, bool priv)
{
	const struct scev_func *fn = &cfg->funcs[f];

	for (uint32_t b = fn->first_block; b < fn->first_block + fn->nblocks; b++) {
		const struct scev_block *blk = &cfg->blocks[b];
		struct lstate s;
		bool calls = false;

		for (uint32_t pc = blk->first; pc <= blk->last && !calls;
		     pc += ebpf_insn_slots(&cfg->insns[pc]))
			calls = ebpf_is_pseudo_call(&cfg->insns[pc]);
		if (!calls)
			continue;
		/* (a caller whose links are not known passes none) */
		s = in ? in[b - fn->first_block] : (struct lstate){ .reached = true };
		for (uint32_t pc = blk->first; pc <= blk->last;
		     pc += ebpf_insn_slots(&cfg->insns[pc])) {
			const struct bpf_insn *i = &cfg->insns[pc];

			if (ebpf_is_pseudo_call(i)) {
				uint32_t g = target_func(cfg, pc);
				struct lstate a;

				left[g]--;
				if (s.reached) {
					/* only the arguments: the callee's frame is its own */
					memset(&a, 0, sizeof(a));
					a.reached = true;
					for (unsigned r = 1; r <= 5; r++) {
						a.cls[r] = s.cls[r];
						a.delta[r] = s.delta[r];
						a.flags[r] = s.flags[r];
					}
					canon_keep_hi0(&a);
					if (!acc[g].reached)
						acc[g] = a;
					else
						meet(&acc[g], &a);
				}
			}
			if (s.reached && in)
				step(&s, i, priv);
		}
	}
}

int scev_links__build(struct scev_links **out, const struct scev_cfg *cfg, const uint32_t *rpo,
		      const uint32_t *rpo_off, const bool *global, bool priv)
{
	size_t nf = cfg->nfuncs ? cfg->nfuncs : 1;
	struct scev_links *l;
	struct lstate *in = NULL, *acc;
	uint8_t *dirty = NULL;
	bool *linkable, *done, *need, *plain, any = false;
	uint32_t *left, cap = 0, ndone = 0;
	int err = -ENOMEM;

	*out = NULL;
	/* no copy or spill anywhere: no link anywhere (NULL: none at any jump) */
	for (uint32_t pc = 0; pc < cfg->len && !any; pc += ebpf_insn_slots(&cfg->insns[pc]))
		any = may_link(&cfg->insns[pc], priv);
	if (!any)
		return 0;
	l = arena_zalloc(1, sizeof(*l));
	acc = arena_zalloc(nf, sizeof(*acc));
	linkable = arena_zalloc(nf, sizeof(*linkable));
	done = arena_zalloc(nf, 1);
	need = arena_zalloc(nf, sizeof(*need));
	plain = arena_zalloc(nf, sizeof(*plain));
	left = arena_zalloc(nf, sizeof(*left));
	if (!l || !acc || !linkable || !done || !left || !need || !plain ||
	    !(l->start = arena_zalloc(2 * (size_t)cfg->nblocks + 1, sizeof(*l->start))) ||
	    !(l->num = arena_zalloc(2 * (size_t)cfg->nblocks + 1, 1)))
		goto fail;
	entry_kinds(cfg, global, linkable, left);
	if ((err = scan_funcs(cfg, rpo, rpo_off, linkable, priv, need, plain)))
		goto fail;
	err = -ENOMEM;
	/* callers before callees (Kahn's order over the calls; a function of a cycle, or called
	 * from one, takes no links at its entry: stuck = every function left is so) */
	for (bool stuck = false; ndone < cfg->nfuncs;) {
		bool progress = false;

		for (uint32_t f = 0; f < cfg->nfuncs; f++) {
			const struct scev_func *fn = &cfg->funcs[f];
			struct lstate entry = { .reached = true };
			bool ok;

			if (done[f] || (left[f] && !stuck))
				continue;
			if (!stuck && linkable[f] && acc[f].reached)
				entry = acc[f];
			ok = fn->nblocks <= LINK_MAX_BLOCKS &&
			     (need[f] || !plain[f] || any_class(&entry));
			if (ok && fn->nblocks > cap) {
				arena_free(in);
				arena_free(dirty);
				cap = fn->nblocks;
				in = arena_alloc(cap * sizeof(*in));
				dirty = arena_alloc(cap);
				if (!in || !dirty)
					goto fail;
			}
			if (ok) {
				for (uint32_t b = 0; b < fn->nblocks; b++)
					in[b].reached = false;	/* (read only once reached) */
				memset(dirty, 0, fn->nblocks);
				ok = solve(cfg, f, rpo + rpo_off[f], rpo_off[f + 1] - rpo_off[f], in,
					   dirty, &entry, priv);
			}
			pass_args(cfg, f, ok ? in : NULL, acc, left, priv);
			for (uint32_t b = fn->first_block; b < fn->first_block + fn->nblocks; b++) {
				const struct lstate *s = ok ? &in[b - fn->first_block] : NULL;

				if ((err = record(l, cfg, b, s && s->reached ? s : NULL, priv)))
					goto fail;
			}
			done[f] = true;
			ndone++;
			progress = true;
		}
		stuck = !progress;
	}
	err = 0;
	*out = l;
	l = NULL;
fail:
	arena_free(in);
	arena_free(dirty);
	arena_free(acc);
	arena_free(linkable);
	arena_free(done);
	arena_free(left);
	arena_free(need);
	arena_free(plain);
	scev_links__free(l);
	return err;
}

void scev_links__free(struct scev_links *l)
{
	if (!l)
		return;
	arena_free(l->start);
	arena_free(l->num);
	arena_free(l->v);
	arena_free(l);
}

const struct scev_link *scev_links__at_jump(const struct scev_links *l, uint32_t b, int side,
					    uint32_t *n)
{
	if (!l) {
		*n = 0;
		return NULL;
	}
	*n = l->num[2 * b + (uint32_t)side];
	return l->v + l->start[2 * b + (uint32_t)side];
}
