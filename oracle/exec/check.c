/* The concrete oracle: see check.h. */
#include "oracle/exec/check.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum interp_ctx_kind check_ctx_kind(uint32_t prog_type)
{
	switch (ebpf_prog_ctx_model(prog_type)) {
	case EBPF_CTX_XDP: return INTERP_CTX_XDP;
	case EBPF_CTX_SKB: return INTERP_CTX_SKB;
	case EBPF_CTX_RO: return INTERP_CTX_RO;
	default: return INTERP_CTX_PLAIN;
	}
}

#define MAX_FRAMES EBPF_MAX_CALL_DEPTH

struct loop_track {
	bool active[MAX_FRAMES];
	uint64_t count[MAX_FRAMES];
	uint64_t *prev;		/* [frame * nivs + k]: IV values at the last header visit */
};

/* Most range claims are tested in the hot loops from their fast forms (struct rplain, struct
 * rgen); the rest, and every claim of a pc where a fast one failed, from the claim itself
 * (claim_prog.ranges, by ridx) and what range_contains_needs() says it needs (run.need). */

/* How the hot loop reads and tests a claim.  A pc's claims are sorted at preparation into
 * three groups, each tested in a loop of its own with no branch per claim:
 * - plain registers: v - lo <= span alone, when the claim's other fields say nothing more
 *   about [umin, umax] (range_contains_needs() is 0: both tests accept exactly the same
 *   values); a pointer into the context or the packet has its region's base, fixed for the
 *   whole check, folded into lo;
 * - plain 8-byte stack slots inside the current frame, the same test;
 * - registers and slots inside the frame of any size whose claim needs at most the tnum
 *   beyond [umin, umax] (struct rtn);
 * - the rest that can be read without looking at the value first: registers and slots inside
 *   the frame of any size (the cell's bytes shifted out of an 8-byte load), with every field
 *   the claim needs (struct rgen), and pointers into the stack (less r10), the context or the
 *   packet.
 * Every other claim (maybe-null and map pointers, slots outside the frame, claims with an
 * empty field) goes through check_slow().  The fast groups make no finding: when one of their
 * claims fails (or the frame cannot be read) every claim of the pc is checked again in claim
 * order by check_slow(), so findings come in the order of the claims as before. */
struct rplain {
	uint64_t lo, span;
	uint32_t at;		/* the register, or the slot's offset from r10 - 512 */
};

/* A cell of any size read as in struct rgen, tested on [umin, umax] and the tnum. */
struct rtn {
	uint64_t lo, span, tmask, tval, mask;
	uint16_t at;
	uint8_t sh, frame;
};

/* range_contains_needed() as offsets: for each view, x - lo <= span in that view's width
 * (a signed interval [smin, smax] is the unsigned [smin, smax] of the same bits shifted by
 * 2^63, and an offset from its start does not see the shift).  A view the claim does not need
 * has lo 0 and span all ones; the tnum test is (v & tmask) == tval, 0 == 0 when not needed. */
struct rgen {
	uint64_t lo, span, slo, sspan;
	uint64_t tmask, tval;
	uint64_t mask;		/* the cell's bytes, after the shift */
	uint64_t base;		/* a pointer's region base (context, packet) */
	uint64_t fp;		/* all ones: a stack pointer, less r10 */
	uint32_t lo32, span32, slo32, sspan32;
	uint16_t at;		/* byte offset into the registers or the frame of an 8-byte load */
	uint8_t sh;		/* the cell's bit offset in that load */
	uint8_t frame;		/* read from the frame, not the registers */
};

/* Where a claim goes (enum rgroup) and its fast forms. */
enum rgroup { RG_REG, RG_SLOT8, RG_TN, RG_GEN, RG_SLOW };

/* rfast_of()'s answer for one claim, kept from the sizing pass for the placing one: its group
 * and the one form of it the group reads (a few hundred claims a program: the union keeps
 * what the check writes and reads back per claim small), and whether a passed visit of the
 * instruction before implies it (struct pcidx). */
struct rform {
	union {
		struct rplain p;	/* RG_REG, RG_SLOT8 */
		struct rtn t;		/* RG_TN */
		struct rgen g;		/* RG_GEN */
	} u;
	uint8_t grp;
	bool implied;
	uint8_t reg;		/* the register it reads, 0xff: the frame */
	uint32_t cell;		/* its group and cell, equal for two claims of the same (form_cell) */
};

static enum rgroup rfast_of(const struct claim_range *c, unsigned need, size_t pkt_len,
			    struct rplain *p, struct rtn *t, struct rgen *g)
{
	const struct range *R = &c->r;
	int32_t off = LOC_SLOT_OFF(c->loc);
	unsigned size = LOC_SLOT_SIZE(c->loc);
	uint64_t base = 0;
	bool fp = false;

	if (R->umin > R->umax)
		return RG_SLOW;		/* empty */
	if (c->is_ptr) {
		if (c->maybe_null)
			return RG_SLOW;
		/* region_base()'s bases that do not depend on the value */
		switch (c->region) {
		case REGION_STACK: fp = true; break;
		case REGION_CTX: base = INTERP_VA_CTX; break;
		case REGION_PKT: case REGION_PKT_META: base = INTERP_VA_PKT; break;
		case REGION_PKT_END: base = INTERP_VA_PKT + pkt_len; break;
		default: return RG_SLOW;
		}
	}
	if (!LOC_IS_REG(c->loc) && (off < -512 || off + (int32_t)size > 0))
		return RG_SLOW;
	if (((need & RANGE_NEED_S64) && R->smin > R->smax) ||
	    ((need & RANGE_NEED_U32) && R->u32_min > R->u32_max) ||
	    ((need & RANGE_NEED_S32) && R->s32_min > R->s32_max))
		return RG_SLOW;
	if (!need && !fp && (LOC_IS_REG(c->loc) || size == 8)) {
		*p = (struct rplain){ .lo = R->umin + base, .span = R->umax - R->umin,
				      .at = LOC_IS_REG(c->loc) ? c->loc : (uint32_t)(512 + off) };
		return LOC_IS_REG(c->loc) ? RG_REG : RG_SLOT8;
	}
	*g = (struct rgen){ .lo = R->umin, .span = R->umax - R->umin, .sspan = UINT64_MAX,
			    .mask = UINT64_MAX, .base = base, .fp = fp ? UINT64_MAX : 0,
			    .span32 = UINT32_MAX, .sspan32 = UINT32_MAX };
	if (need & RANGE_NEED_S64) {
		g->slo = (uint64_t)R->smin;
		g->sspan = (uint64_t)R->smax - (uint64_t)R->smin;
	}
	if (need & RANGE_NEED_U32) {
		g->lo32 = R->u32_min;
		g->span32 = R->u32_max - R->u32_min;
	}
	if (need & RANGE_NEED_S32) {
		g->slo32 = (uint32_t)R->s32_min;
		g->sspan32 = (uint32_t)R->s32_max - (uint32_t)R->s32_min;
	}
	if (need & RANGE_NEED_TNUM) {
		g->tmask = ~R->var_off.mask;
		g->tval = R->var_off.value;
	}
	if (LOC_IS_REG(c->loc)) {
		g->at = (uint16_t)(c->loc * sizeof(uint64_t));
	} else {
		uint32_t at = (uint32_t)(512 + off), from = at < 504 ? at : 504;

		g->frame = 1;
		g->at = (uint16_t)from;
		g->sh = (uint8_t)((at - from) * 8);
		g->mask = size == 8 ? UINT64_MAX : (1ull << (size * 8)) - 1;
	}
	if ((need & ~RANGE_NEED_TNUM) || fp)
		return RG_GEN;
	*t = (struct rtn){ .lo = R->umin + base, .span = g->span, .tmask = g->tmask,
			   .tval = g->tval, .mask = g->mask, .at = g->at, .sh = g->sh,
			   .frame = g->frame };
	if (base && t->tmask)
		return RG_GEN;	/* the tnum is of the offset, not of the address */
	return RG_TN;
}

/* The value of a cell: bytes [at, at + 8) of the registers or the frame (a frame is 512
 * bytes, so a cell near its top is read from an earlier start and shifted), as the
 * interpreter stores them (host order). */
static inline uint64_t cell_load(const uint8_t *from, uint16_t at, uint8_t sh, uint64_t mask)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return interp_load(from + at + sh / 8, mask == UINT64_MAX ? 8 : mask == UINT32_MAX ? 4
					       : mask == UINT16_MAX ? 2 : 1);
#else
	uint64_t x;

	memcpy(&x, from + at, 8);
	return (x >> sh) & mask;
#endif
}

/* Whether the value of q's cell (a register's: q->frame clear) is one q accepts: check_ranges()'s
 * RG_GEN test. */
static inline bool rgen_holds(const struct rgen *q, const uint64_t *regs)
{
	uint64_t v = cell_load((const uint8_t *)regs, q->at, q->sh, q->mask) -
		     (q->base + (regs[EBPF_REG_FP] & q->fp));

	return !((v - q->lo > q->span) | (v - q->slo > q->sspan) |
		 ((uint32_t)v - q->lo32 > q->span32) | ((uint32_t)v - q->slo32 > q->sspan32) |
		 ((v & q->tmask) != q->tval));
}

/* An RG_TN claim (its base folded into lo: no tnum then, rfast_of) as an RG_GEN one. */
static struct rgen rgen_of_tn(const struct rtn *t)
{
	return (struct rgen){ .lo = t->lo, .span = t->span, .sspan = UINT64_MAX,
			      .span32 = UINT32_MAX, .sspan32 = UINT32_MAX, .tmask = t->tmask,
			      .tval = t->tval, .mask = t->mask, .at = t->at, .sh = t->sh };
}

/* Per pc: where its claims of each group start (they end where the next pc's start: RG_REG's
 * at mid), its loop headers and exit targets, how many fast claims it has and whether they
 * read the frame.
 *
 * A claim a visit right after one of the instruction before it (from) need not test again:
 * when that instruction falls through, leaves the claim's register (or, writing no memory,
 * its slot) as it was, and a claim there of the same cell accepted no value this one rejects,
 * the value seen here is the one that passed there (struct run's ok_pc: every fast claim of
 * that visit held).  Each group's claims so implied come first (ip, is, it, iq of them); a visit
 * that follows from's passed one starts past them, and counts them checked as before: its
 * verdict is the same, whatever the value. */
struct pcidx {
	const struct rplain *p, *mid;
	const struct rtn *t;
	const struct rgen *q;
	uint32_t s, h, x;	/* sidx, hidx, xidx */
	uint32_t nfast;
	uint32_t from;		/* the instruction falling through to this one (UINT32_MAX: none) */
	uint32_t ip, is, it, iq;	/* RG_REG, RG_SLOT8, RG_TN, RG_GEN claims implied from it */
	bool frame;
	bool frame_rest;	/* ... the claims not implied read the frame */
	bool loops;		/* it has loop headers or exit targets (h, x) */
	bool slow;		/* it has RG_SLOW claims (s) */
	/* The claims a visit right after from's passed one does not imply: none (PC_ALL_IMPLIED)
	 * or one that reads a register: an RG_REG one (PC_ONE_REG, at p + ip) or an RG_TN or
	 * RG_GEN one (PC_ONE_GEN, as struct run's quick[pc]); and no loop or slow claim:
	 * visit_claims() tests that one alone, and check_ranges() runs only when it fails.
	 * 0: check_ranges() always. */
	uint8_t quick;
};

enum { PC_ALL_IMPLIED = 1, PC_ONE_REG, PC_ONE_GEN };

struct run {
	const struct claim_prog *cp;
	struct check_result *res;
	const struct check_opts *opts;
	size_t input_len;
	size_t pkt_len;		/* the packet's bytes, the input's last (interp_input_pkt_off) */
	/* per pc: CSR lists of range claims, headers and exit targets */
	uint32_t *roff, *ridx;
	uint8_t *need;		/* per claim in ridx order: range_contains_needs() of its range */
	struct pcidx *pi;	/* per pc (and one past the last): its groups' starts */
	struct rplain *rp;	/* RG_REG and RG_SLOT8 claims, by pc and group */
	struct rtn *rt;		/* RG_TN claims, by pc */
	struct rgen *rg;	/* RG_GEN claims, by pc */
	struct rgen *quick;	/* per pc: its PC_ONE claim as an RG_GEN one (struct pcidx) */
	uint32_t *sidx;		/* RG_SLOW claims (positions in rc), by pc */
	uint32_t *hoff, *hidx;
	uint32_t *xoff, *xidx;
	struct loop_track *lt;
	uint8_t *found;		/* per claim (ranges, then loops): already reported */
	/* the current run's input, for findings */
	const uint8_t *input;
	const uint8_t *helper;
	size_t helper_len;
	/* the frame's bytes at the last visit that read them, and at which r10 and depth: r10
	 * changes only with the depth, so most visits of a run find them here */
	const uint8_t *frame;
	uint64_t frame_fp;
	unsigned frame_depth;
	const uint64_t *strides;	/* per map: its values' stride, 2^interp_map_shift */
	uint32_t nmaps;
	/* check_opts.safe: the runs visit every pc for the watch; the claims' probes */
	struct stackinit_watch *watch;
	struct safe_calls_watch *calls;	/* ... and the per-call bounds */
	const uint8_t *claimed;
	uint8_t *seen;		/* res->seen */
	bool watch_calls;	/* safe_rule_watches_calls() of the run's rule */
	uint32_t ok_pc;		/* the last visit's pc when every fast claim there held, else
				 * UINT32_MAX (struct pcidx) */
	bool stop;
	int err;
};

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void add_finding(struct run *r, uint8_t kind, uint32_t claim_slot, uint32_t claim,
			uint32_t pc, loc_t loc, uint64_t observed, const char *text)
{
	struct check_result *res = r->res;
	struct check_finding *f, *nv;

	if (r->found[claim_slot])
		return;
	r->found[claim_slot] = 1;
	nv = realloc(res->findings, (res->nfindings + 1) * sizeof(*nv));
	if (!nv) {
		r->err = -ENOMEM;
		return;
	}
	res->findings = nv;
	f = &nv[res->nfindings];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->pc = pc;
	f->loc = loc;
	f->observed = observed;
	f->claim = claim;
	snprintf(f->text, sizeof(f->text), "%s", text);
	f->input = malloc(r->input_len ? r->input_len : 1);
	f->helper_data = malloc(r->helper_len ? r->helper_len : 1);
	if (!f->input || !f->helper_data) {
		free(f->input);
		free(f->helper_data);
		r->err = -ENOMEM;
		return;
	}
	memcpy(f->input, r->input, r->input_len);
	f->input_len = r->input_len;
	memcpy(f->helper_data, r->helper, r->helper_len);
	f->helper_len = r->helper_len;
	res->nfindings++;
	if (r->opts->first_only)
		r->stop = true;
}

/* Base address of a pointer claim's region at this visit; false when the value is outside the
 * region altogether (then the claim fails). */
static bool region_base(const struct run *r, const struct claim_range *c, const uint64_t *regs,
			uint64_t value, uint64_t *base)
{
	switch (c->region) {
	case REGION_STACK:
		*base = regs[EBPF_REG_FP];
		return true;
	case REGION_CTX:
		*base = INTERP_VA_CTX;
		return true;
	case REGION_PKT: case REGION_PKT_META:
		*base = INTERP_VA_PKT;
		return true;
	case REGION_PKT_END:
		*base = INTERP_VA_PKT + r->pkt_len;
		return true;
	case REGION_MAP_HANDLE:
		*base = INTERP_VA_MAPH + c->map;	/* the handle itself: offset 0 */
		return value == *base;
	case REGION_MAP_VALUE: {
		uint64_t start, vs = c->map < r->nmaps ? r->strides[c->map] : 0;

		/* (the map's own window, or a CPU's copies: bpf_map_lookup_percpu_elem) */
		if (!interp_map_window(value, c->map, r->nmaps, &start))
			return false;
		/* offsets are from the start of the element the pointer is in (its window) */
		*base = start + ((value - start) & ~(vs - 1));
		return true;
	}
	default:
		return false;
	}
}

/* A map value pointer at or past its element's window (base, region_base's element, is then the
 * next one's start, or a later one's): the elements of a map lie one stride apart, so the
 * value is also that offset of an earlier element, which the claim may mean.  Whether some
 * earlier element, up to CLAIM_MAP_BACK back, gives an offset the claim holds. */
static bool map_value_past_end(const struct run *r, const struct claim_range *c, unsigned need,
			       uint64_t value, uint64_t base)
{
	uint64_t start, vs = c->map < r->nmaps ? r->strides[c->map] : 0;

	if (c->region != REGION_MAP_VALUE || !vs || !interp_map_window(value, c->map, r->nmaps, &start))
		return false;
	for (int k = 0; k < CLAIM_MAP_BACK && base >= start + vs; k++) {
		base -= vs;
		if (range_contains_needed(&c->r, value - base, need))
			return true;
	}
	return false;
}

static void describe_range(char *buf, size_t n, const struct claim_range *c)
{
	char loc[32];

	loc_format(c->loc, loc, sizeof(loc));
	if (c->is_ptr)
		snprintf(buf, n, "pc %u %s: %s%s pointer, offset [%" PRId64 ", %" PRId64 "] u[%" PRIu64
			 ", %" PRIu64 "] var_off (%#" PRIx64 "; %#" PRIx64 ")", c->pc, loc,
			 claim_region_name(c->region), c->maybe_null ? " maybe-null" : "", c->r.smin,
			 c->r.smax, c->r.umin, c->r.umax, c->r.var_off.value, c->r.var_off.mask);
	else
		snprintf(buf, n, "pc %u %s: u[%" PRIu64 ", %" PRIu64 "] s[%" PRId64 ", %" PRId64
			 "] u32[%u, %u] s32[%d, %d] var_off (%#" PRIx64 "; %#" PRIx64 ")", c->pc, loc,
			 c->r.umin, c->r.umax, c->r.smin, c->r.smax, c->r.u32_min, c->r.u32_max,
			 c->r.s32_min, c->r.s32_max, c->r.var_off.value, c->r.var_off.mask);
}

/* A failed range check: the finding, once per claim (formatting is costly). */
static void range_failed(struct run *r, uint32_t pc, uint32_t k, uint64_t v, uint64_t base)
{
	const struct claim_range *c = &r->cp->ranges[r->ridx[k]];
	char text[320], desc[240];

	if (r->found[r->ridx[k]])
		return;
	describe_range(desc, sizeof(desc), c);
	snprintf(text, sizeof(text), "%s; observed %#" PRIx64 "%s", desc,
		 c->is_ptr ? v - base : v, c->is_ptr ? " (offset)" : "");
	add_finding(r, FIND_RANGE, r->ridx[k], r->ridx[k], pc, c->loc, v, text);
}

/* Claim k at pc in full: 1 when it was checked, 0 when its slot is not readable here. */
static unsigned check_slow(struct run *r, const struct interp_state *st, uint32_t pc,
			   const uint64_t *regs, const uint8_t *frame, uint32_t k)
{
	const struct claim_range *c = &r->cp->ranges[r->ridx[k]];
	unsigned need = r->need[k];
	uint64_t v, base = 0;
	bool ok;

	if (LOC_IS_REG(c->loc)) {
		v = regs[c->loc];
	} else {
		int32_t off = LOC_SLOT_OFF(c->loc);
		unsigned size = LOC_SLOT_SIZE(c->loc);

		if (frame && off >= -512 && off + (int32_t)size <= 0)
			v = interp_load(frame + 512 + off, size);
		else if (interp_state_read(st, regs[EBPF_REG_FP] + (int64_t)off, size, &v))
			return 0;	/* not readable here: nothing to check */
	}
	if (!c->is_ptr)
		ok = range_contains_needed(&c->r, v, need);
	else if (c->maybe_null && v == 0)
		ok = true;
	else if (!region_base(r, c, regs, v, &base))
		ok = false;
	else
		ok = range_contains_needed(&c->r, v - base, need) ||
		     map_value_past_end(r, c, need, v, base);
	if (!ok)
		range_failed(r, pc, k, v, base);
	return 1;
}

/* interp_state_frame_bytes(st), from the run's last answer when r10 and the depth are the
 * same (its answer depends on nothing else). */
static const uint8_t *frame_bytes(struct run *r, const struct interp_state *st, uint64_t fp,
				  unsigned depth)
{
	if (!r->frame || fp != r->frame_fp || depth != r->frame_depth) {
		r->frame = interp_state_frame_bytes(st);
		r->frame_fp = fp;
		r->frame_depth = depth;
	}
	return r->frame;
}

static inline __attribute__((always_inline)) void
check_ranges(struct run *r, const struct interp_state *st, uint32_t pc, const uint64_t *regs,
	     unsigned depth, const struct pcidx *at)
{
	const uint8_t *frame = NULL;	/* r10 - 512 in host memory */
	const struct rplain *p = at[0].p, *mid = at[0].mid, *ps = mid, *pend = at[1].p;
	const struct rtn *t = at[0].t, *tend = at[1].t;
	const struct rgen *q = at[0].q, *qend = at[1].q;
	uint64_t checks = at[0].nfast, fp = regs[EBPF_REG_FP];
	bool bad = false, need_frame = at[0].frame;

	if (at[0].from == interp_state_prev_pc(st) && at[0].from == r->ok_pc) {
		p += at[0].ip;
		ps += at[0].is;
		t += at[0].it;
		q += at[0].iq;
		need_frame = at[0].frame_rest;
	}
	r->ok_pc = UINT32_MAX;
	for (; p < mid; p++)
		bad |= regs[p->at] - p->lo > p->span;
	if (need_frame && !(frame = frame_bytes(r, st, fp, depth)))
		bad = true;	/* read by interp_state_read(), below */
	if (!bad) {
		r->ok_pc = pc;	/* (unless the tests below fail) */
		for (p = ps; p < pend; p++) {
			uint64_t v;

			memcpy(&v, frame + p->at, 8);
			bad |= v - p->lo > p->span;
		}
		const uint8_t *from[2] = { (const uint8_t *)regs, frame };

		for (; t < tend; t++) {
			uint64_t v = cell_load(from[t->frame], t->at, t->sh, t->mask);

			bad |= (v - t->lo > t->span) | ((v & t->tmask) != t->tval);
		}
		for (; q < qend; q++) {
			uint64_t v = cell_load(from[q->frame], q->at, q->sh, q->mask) -
				     (q->base + (fp & q->fp));

			bad |= (v - q->lo > q->span) | (v - q->slo > q->sspan) |
			       ((uint32_t)v - q->lo32 > q->span32) |
			       ((uint32_t)v - q->slo32 > q->sspan32) | ((v & q->tmask) != q->tval);
		}
	}
	if (bad) {
		/* every claim of the pc again, in order, with its finding */
		r->ok_pc = UINT32_MAX;
		frame = interp_state_frame_bytes(st);
		checks = 0;
		for (uint32_t k = r->roff[pc]; k < r->roff[pc + 1]; k++)
			checks += check_slow(r, st, pc, regs, frame, k);
	} else {
		if (at[0].slow) {
			if (!frame)
				frame = frame_bytes(r, st, fp, depth);
			for (uint32_t k = at[0].s; k < at[1].s; k++)
				checks += check_slow(r, st, pc, regs, frame, r->sidx[k]);
		}
	}
	r->res->checks += checks;
}

static uint64_t iv_value(const struct interp_state *st, const uint64_t *regs, loc_t loc)
{
	uint64_t v = 0;

	if (LOC_IS_REG(loc))
		return regs[loc];
	interp_state_read(st, regs[EBPF_REG_FP] + (int64_t)LOC_SLOT_OFF(loc), LOC_SLOT_SIZE(loc), &v);
	return v;
}

static void finish_entry(struct run *r, uint32_t l, unsigned f, bool complete)
{
	const struct claim_loop *cl = &r->cp->loops[l];
	struct loop_track *t = &r->lt[l];
	char text[320];

	if (!t->active[f])
		return;
	t->active[f] = false;
	if (t->count[f] > r->res->max_trip[l])
		r->res->max_trip[l] = t->count[f];
	if (complete && cl->trip.kind != TRIP_UNKNOWN && t->count[f] < cl->trip.min &&
	    !r->found[r->cp->nranges + l]) {
		snprintf(text, sizeof(text), "loop %u: claimed %s %" PRIu64 "..%" PRIu64
			 " header executions; observed %" PRIu64 " on a normal exit", cl->header,
			 cl->trip.kind == TRIP_EXACT ? "exactly" : "at least", cl->trip.min,
			 cl->trip.max, t->count[f]);
		add_finding(r, FIND_TRIP_MIN, r->cp->nranges + l, l, cl->header, 0, t->count[f], text);
	}
}

/* The loop claims of a visit of pc in frame f: exits taken, header executions counted, the
 * induction variables checked. */
static void visit_loops(struct run *r, const struct interp_state *st, uint32_t pc,
			const uint64_t *regs, unsigned f, const struct pcidx *at)
{
	uint32_t prev = interp_state_prev_pc(st);
	char text[320];

	/* Leaving a loop normally: an edge from its body to this exit target; a helper's callback
	 * (run in the frame above) left when the helper returns after its last call. */
	for (uint32_t k = at[0].x; k < at[1].x; k++) {
		uint32_t l = r->xidx[k];
		unsigned fl = f + claim_loop_kind_callback(r->cp->loops[l].kind);

		if (fl < MAX_FRAMES && r->lt[l].active[fl] && prev != UINT32_MAX &&
		    claim_loop__contains(&r->cp->loops[l], prev))
			finish_entry(r, l, fl, true);
	}
	for (uint32_t k = at[0].h; k < at[1].h; k++) {
		uint32_t l = r->hidx[k];
		const struct claim_loop *cl = &r->cp->loops[l];
		struct loop_track *t = &r->lt[l];
		uint64_t *prevv = t->prev + (size_t)f * cl->nivs;
		bool iter = t->active[f] && prev != UINT32_MAX && claim_loop__contains(cl, prev);

		if (!iter) {
			finish_entry(r, l, f, false);
			t->active[f] = true;
			t->count[f] = 0;
		}
		t->count[f]++;
		if (cl->trip.kind != TRIP_UNKNOWN && t->count[f] > cl->trip.max &&
		    !r->found[r->cp->nranges + l]) {
			snprintf(text, sizeof(text), "loop %u: claimed at most %" PRIu64
				 " header executions per entry; observed %" PRIu64, cl->header,
				 cl->trip.max, t->count[f]);
			add_finding(r, FIND_TRIP_MAX, r->cp->nranges + l, l, cl->header, 0, t->count[f],
				    text);
		}
		for (uint32_t i = 0; i < cl->nivs; i++) {
			const struct claim_iv *iv = &cl->ivs[i];
			uint64_t v = iv_value(st, regs, iv->loc), want;
			bool bad;
			char loc[32];

			r->res->checks++;
			if (!iter) {
				want = iv->start;
				bad = iv->has_start && v != want;
			} else {
				want = prevv[i] + iv->step;
				if (iv->width == 32)
					want = (uint32_t)want;
				bad = v != want;
			}
			prevv[i] = v;
			if (!bad || r->found[r->cp->nranges + r->cp->nloops + l])
				continue;
			loc_format(iv->loc, loc, sizeof(loc));
			snprintf(text, sizeof(text), "loop %u: induction variable %s {%s, +, %" PRId64
				 "} (%u-bit): expected %#" PRIx64 " at header execution %" PRIu64
				 ", observed %#" PRIx64, cl->header, loc, iter ? "prev" : "start",
				 (int64_t)iv->step, iv->width, want, t->count[f], v);
			add_finding(r, FIND_IV, r->cp->nranges + r->cp->nloops + l, l, cl->header, iv->loc,
				    v, text);
		}
	}
}

/* The claims of a visit of pc (visit's body, inlined into visit_safe's as well). */
static __attribute__((noinline)) void visit_full(struct run *r, const struct interp_state *st,
						  uint32_t pc)
{
	const struct pcidx *at = r->pi + pc;
	const uint64_t *regs = interp_state_regs(st);
	unsigned f = interp_state_frame(st);

	if (r->stop || f >= MAX_FRAMES) {
		r->ok_pc = UINT32_MAX;
		return;
	}
	if (at[0].loops)
		visit_loops(r, st, pc, regs, f, at);
	check_ranges(r, st, pc, regs, f, at);
}

static inline __attribute__((always_inline)) void visit_claims(struct run *r,
							       const struct interp_state *st,
							       uint32_t pc)
{
	const struct pcidx *at = r->pi + pc;

	r->seen[pc] = 1;
	/* check_ranges()'s verdict when the one claim left holds, without its setup */
	if (at->quick && at->from == r->ok_pc && at->from == interp_state_prev_pc(st) &&
	    !r->stop && interp_state_frame(st) < MAX_FRAMES) {
		const uint64_t *regs = interp_state_regs(st);
		const struct rplain *p = at->p + at->ip;

		if (at->quick == PC_ONE_REG ? regs[p->at] - p->lo <= p->span :
		    at->quick == PC_ALL_IMPLIED || rgen_holds(&r->quick[pc], regs)) {
			r->ok_pc = pc;
			r->res->checks += at->nfast;
			return;
		}
	}
	visit_full(r, st, pc);
}

static void visit(void *arg, const struct interp_state *st, uint32_t pc)
{
	visit_claims(arg, st, pc);
}

/* A run of a program called safe: the watch sees every instruction, the claims their pcs. */
static void visit_safe(void *arg, const struct interp_state *st, uint32_t pc)
{
	struct run *r = arg;

	if (!stackinit_visit_regs(r->watch, st, pc))
		stackinit_visit(r->watch, st, pc);
	if (r->watch_calls)
		safe_calls_visit(r->calls, st, pc);
	if (r->claimed[pc])
		visit_claims(r, st, pc);
}

/* The first run that broke check_opts.safe: its text, input (as the run began) and helper
 * results.  False when out of memory. */
static bool safe_fault(struct check_result *res, const char *text, const uint8_t *input,
		       size_t input_len, const uint8_t *helper, size_t helper_len)
{
	if (res->safe_faults++)
		return true;
	snprintf(res->safe_fault, sizeof(res->safe_fault), "%s", text);
	res->safe_input = malloc(input_len ? input_len : 1);
	res->safe_helper = malloc(helper_len ? helper_len : 1);
	if (!res->safe_input || !res->safe_helper)
		return false;
	memcpy(res->safe_input, input, input_len);
	res->safe_input_len = input_len;
	memcpy(res->safe_helper, helper, helper_len);
	res->safe_helper_len = helper_len;
	return true;
}

/* An exit target of loop l: pc, for the index of exits by pc.  False when out of memory. */
static bool add_exit_key(uint32_t **xkeys, uint32_t **xloop, uint32_t *nx, uint32_t pc,
			 uint32_t l, uint8_t *probes)
{
	uint32_t *a = realloc(*xkeys, (*nx + 1) * sizeof(*a)), *b;

	if (!a)
		return false;
	*xkeys = a;
	b = realloc(*xloop, (*nx + 1) * sizeof(*b));
	if (!b)
		return false;
	*xloop = b;
	a[*nx] = pc;
	b[(*nx)++] = l;
	probes[pc] = 1;
	return true;
}

/* CSR lists keyed by pc. */
static int build_index(uint32_t slots, uint32_t n, const uint32_t *keys, uint32_t **off,
		       uint32_t **idx)
{
	uint32_t *o = calloc(slots + 1, sizeof(*o)), *x = malloc((n ? n : 1) * sizeof(*x)),
		 *fill = calloc(slots + 1, sizeof(*fill));

	if (!o || !x || !fill) {
		free(o);
		free(x);
		free(fill);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < n; i++)
		if (keys[i] < slots)
			o[keys[i] + 1]++;
	for (uint32_t p = 0; p < slots; p++)
		o[p + 1] += o[p];
	for (uint32_t i = 0; i < n; i++)
		if (keys[i] < slots)
			x[o[keys[i]] + fill[keys[i]]++] = i;
	free(fill);
	*off = o;
	*idx = x;
	return 0;
}

/* What instruction i changes before the one after it runs, when it falls through to it: the
 * registers it writes (*regs) and whether it may write memory (*mem).  False when it may change
 * more (calls, exits, legacy packet loads, atomics, r10) or does not fall through: then no claim
 * of the next instruction is implied by its visit. */
static bool falls_through(const struct bpf_insn *i, uint32_t *regs, bool *mem)
{
	uint8_t cls = ebpf_class(i), op = ebpf_op(i);

	*regs = 0;
	*mem = false;
	switch (cls) {
	case BPF_ALU: case BPF_ALU64: case BPF_LDX:
		*regs = 1u << i->dst_reg;
		break;
	case BPF_LD:
		if (!ebpf_is_ldimm64(i))
			return false;
		*regs = 1u << i->dst_reg;
		break;
	case BPF_ST:
		*mem = true;
		break;
	case BPF_STX:
		if (ebpf_mode(i) != BPF_MEM)
			return false;
		*mem = true;
		break;
	case BPF_JMP: case BPF_JMP32:
		if (op == BPF_CALL || op == BPF_EXIT || op == BPF_JA)
			return false;
		break;
	default:
		return false;
	}
	return !(*regs & (1u << EBPF_REG_FP));
}

/* Whether every x with x - lo <= span (mod 2^64) has x - klo <= kspan: [lo, lo + span] inside
 * [klo, klo + kspan] on the circle.  The 32-bit views alike, by sub32. */
static bool sub64(uint64_t lo, uint64_t span, uint64_t klo, uint64_t kspan)
{
	uint64_t d = lo - klo;

	return d <= kspan && span <= kspan - d;
}

static bool sub32(uint32_t lo, uint32_t span, uint32_t klo, uint32_t kspan)
{
	uint32_t d = lo - klo;

	return d <= kspan && span <= kspan - d;
}

/* fm's reg and cell (struct rform): the group, and for the group's form the register or the
 * frame, the byte it starts at and its size. */
static void form_cell(struct rform *fm)
{
	uint32_t at, size;

	fm->reg = 0xff;
	switch (fm->grp) {
	case RG_REG:
		fm->reg = (uint8_t)fm->u.p.at;
		fm->cell = (uint32_t)RG_REG << 24 | fm->u.p.at;
		return;
	case RG_SLOT8:
		fm->cell = (uint32_t)RG_SLOT8 << 24 | fm->u.p.at;
		return;
	case RG_TN: case RG_GEN:
		at = fm->grp == RG_TN ? fm->u.t.at + fm->u.t.sh / 8u : fm->u.g.at + fm->u.g.sh / 8u;
		size = (uint32_t)__builtin_popcountll(fm->grp == RG_TN ? fm->u.t.mask : fm->u.g.mask);
		if (!(fm->grp == RG_TN ? fm->u.t.frame : fm->u.g.frame))
			fm->reg = (uint8_t)(at / 8);
		fm->cell = (uint32_t)fm->grp << 24 | (uint32_t)(fm->reg == 0xff) << 23 | at << 7 |
			   size;
		return;
	default:
		fm->cell = UINT32_MAX;	/* (never implied: not looked up) */
		return;
	}
}

/* Whether claim j, held at the instruction before, implies claim k of the same cell (equal
 * form_cell()) at the next, the cell unchanged between: no value j accepts that k rejects
 * (struct pcidx). */
static bool implies(const struct rform *j, const struct rform *k)
{
	switch (k->grp) {
	case RG_REG: case RG_SLOT8:
		return sub64(j->u.p.lo, j->u.p.span, k->u.p.lo, k->u.p.span);
	case RG_TN: {
		const struct rtn *a = &j->u.t, *b = &k->u.t;

		return a->tmask == b->tmask && a->tval == b->tval &&
		       sub64(a->lo, a->span, b->lo, b->span);
	}
	case RG_GEN: {
		const struct rgen *a = &j->u.g, *b = &k->u.g;

		return a->base == b->base && a->fp == b->fp && a->tmask == b->tmask &&
		       a->tval == b->tval && sub64(a->lo, a->span, b->lo, b->span) &&
		       sub64(a->slo, a->sspan, b->slo, b->sspan) &&
		       sub32(a->lo32, a->span32, b->lo32, b->span32) &&
		       sub32(a->slo32, a->sspan32, b->slo32, b->sspan32);
	}
	default:
		return false;
	}
}

/* Each pc's instruction falling through to it (r->pi[].from) and its claims implied by that
 * one's (forms[].implied, r->pi[]'s counts): struct pcidx. */
static void mark_implied(struct run *r, struct rform *forms, const struct bpf_insn *insns,
			 uint32_t slots)
{
	for (uint32_t pc = 0; pc <= slots; pc++)
		r->pi[pc].from = UINT32_MAX;
	for (uint32_t q = 0; q < slots; q += ebpf_insn_slots(&insns[q])) {
		uint32_t n = q + ebpf_insn_slots(&insns[q]), regs;
		bool mem;

		if (n >= slots || !falls_through(&insns[q], &regs, &mem))
			continue;
		r->pi[n].from = q;
		/* (the claims of both pcs mostly come in the same order: each search starts past
		 * the last match) */
		for (uint32_t k = r->roff[n], m = r->roff[q + 1] - r->roff[q], c = 0;
		     k < r->roff[n + 1]; k++) {
			struct rform *fk = &forms[k];

			if (fk->grp == RG_SLOW || (fk->reg == 0xff ? mem : regs >> fk->reg & 1))
				continue;	/* (its cell written: tested) */
			for (uint32_t tries = 0; tries < m && !fk->implied; tries++) {
				const struct rform *fj = &forms[r->roff[q] + c];

				fk->implied = fj->cell == fk->cell && implies(fj, fk);
				if (++c == m)
					c = 0;
			}
			if (!fk->implied)
				continue;
			r->pi[n].ip += fk->grp == RG_REG;
			r->pi[n].is += fk->grp == RG_SLOT8;
			r->pi[n].it += fk->grp == RG_TN;
			r->pi[n].iq += fk->grp == RG_GEN;
		}
	}
}

void check_result__free(struct check_result *res)
{
	if (!res)
		return;
	for (uint32_t i = 0; i < res->nfindings; i++) {
		free(res->findings[i].input);
		free(res->findings[i].helper_data);
	}
	free(res->findings);
	free(res->safe_input);
	free(res->safe_helper);
	free(res->max_trip);
	free(res->seen);
	memset(res, 0, sizeof(*res));
}

static void fill_input(uint8_t *buf, size_t n, uint32_t run, uint64_t *seed)
{
	static const uint32_t words[] = { 0, 1, 0x7f, 0x80, 0xff, 0x7fffffff, 0x80000000,
					  0xfffffffe, 0xffffffff };
	static const uint8_t bytes[] = { 0, 1, 0x7f, 0x80, 0xfe, 0xff };

	switch (run) {
	case 0: memset(buf, 0, n); return;
	case 1: memset(buf, 0xff, n); return;
	case 2: memset(buf, 0x80, n); return;
	case 3: memset(buf, 0x7f, n); return;
	default: break;
	}
	for (size_t i = 0; i < n; i++)
		buf[i] = (uint8_t)rnd(seed);
	if (run % 3 == 1 && n >= 4) {		/* one word at a boundary */
		size_t w = (rnd(seed) % (n / 4)) * 4;
		uint32_t v = words[rnd(seed) % 9];

		memcpy(buf + w, &v, 4);
	} else if (run % 3 == 2 && n) {		/* one byte at a boundary */
		buf[rnd(seed) % n] = bytes[rnd(seed) % 6];
	}
}

int oracle_check(struct check_result *res, const struct ebpf_object *obj,
		 const struct ebpf_prog *prog, const struct claim_prog *cp,
		 const struct check_opts *uopts)
{
	struct check_opts opts = { 0 };
	struct interp_code *code = NULL;
	struct interp_map *maps = NULL;
	uint8_t *probes = NULL, *input = NULL, *helper = NULL, *every = NULL;
	bool regs_sure = false;
	struct rform *forms = NULL;
	uint8_t *input0 = NULL;
	struct stackinit_pc *wpcs = NULL;
	uint32_t *keys = NULL, nx = 0, *xkeys = NULL, *xloop = NULL;
	uint32_t slots = (uint32_t)prog->len, nmaps = obj ? (uint32_t)obj->map_cnt : 0;
	uint64_t *vsizes = NULL;
	uint32_t ngroup[RG_SLOW + 1] = { 0 };
	struct run r = { 0 };
	struct diag d;
	enum interp_ctx_kind ctx_kind;
	uint64_t seed;
	int err = -ENOMEM;

	memset(res, 0, sizeof(*res));
	if (uopts)
		memcpy(&opts, uopts, uopts->sz && uopts->sz < sizeof(opts) ? uopts->sz : sizeof(opts));
	if (!opts.runs)
		opts.runs = 48;
	if (!opts.step_budget)
		opts.step_budget = 2000000;
	if (!opts.input_len)
		opts.input_len = 64;
	if (opts.input)
		opts.runs = 1;
	r.cp = cp;
	r.res = res;
	r.opts = &opts;
	r.input_len = opts.input ? opts.fixed_len : opts.input_len;
	ctx_kind = opts.ctx_kind ? (enum interp_ctx_kind)(opts.ctx_kind - 1)
				 : check_ctx_kind(prog->prog_type);
	/* (sk_reuseport's drawn input: its context, then input_len bytes of packet; sk_lookup's
	 * its whole context, ingress_ifindex at 64 included) */
	if (!opts.input && ctx_kind == INTERP_CTX_RO && ebpf_ctx_ro_pkt(prog->prog_type))
		r.input_len += ebpf_ctx_size(prog->prog_type);	/* (and sk_msg's) */
	if (!opts.input && ctx_kind == INTERP_CTX_RO && prog->prog_type == BPF_PROG_TYPE_SK_LOOKUP &&
	    r.input_len < sizeof(struct bpf_sk_lookup))
		r.input_len = sizeof(struct bpf_sk_lookup);
	r.pkt_len = r.input_len - interp_input_pkt_off(ctx_kind, prog->prog_type, r.input_len);
	r.helper_len = opts.input ? opts.helper_len : 256;
	seed = opts.seed;
	diag_clear(&d);
	if ((err = interp_prepare(&code, prog, &d)))
		return err;
	err = -ENOMEM;
	res->nloops = cp->nloops;
	res->max_trip = calloc(cp->nloops ? cp->nloops : 1, sizeof(*res->max_trip));
	probes = calloc(slots, 1);
	res->seen = calloc(slots ? slots : 1, 1);
	r.seen = res->seen;
	res->nslots = slots;
	r.found = calloc(cp->nranges + 2 * cp->nloops + 1, 1);
	r.lt = calloc(cp->nloops ? cp->nloops : 1, sizeof(*r.lt));
	keys = malloc((cp->nranges + cp->nloops + 1) * sizeof(*keys));
	input = calloc(r.input_len ? r.input_len : 1, 1);
	helper = calloc(r.helper_len ? r.helper_len : 1, 1);
	maps = calloc(nmaps ? nmaps : 1, sizeof(*maps));
	vsizes = calloc(nmaps ? nmaps : 1, sizeof(*vsizes));
	if (!res->max_trip || !probes || !res->seen || !r.found || !r.lt || !keys || !input || !helper || !maps ||
	    !vsizes)
		goto out;
	if (opts.safe) {
		r.watch = malloc(sizeof(*r.watch));
		r.calls = malloc(sizeof(*r.calls));
		every = malloc(slots ? slots : 1);
		input0 = malloc(r.input_len ? r.input_len : 1);
		wpcs = stackinit_pcs_build(prog->insns, slots);
		if (!r.watch || !r.calls || !every || !input0 || !wpcs)
			goto out;
		memset(every, 1, slots);
		r.claimed = probes;
		/* (by the privileged rule the watch judges main's registers alone: a program
		 * whose every path writes what it reads never makes it fire) */
		regs_sure = !opts.safe->unprivileged &&
			    stackinit_regs_always_written(prog->insns, slots, wpcs);
	}
	for (uint32_t m = 0; m < nmaps; m++) {
		maps[m].def = obj->maps[m];
		vsizes[m] = 1ull << interp_map_shift(&obj->maps[m]);
	}
	r.strides = vsizes;
	r.nmaps = nmaps;
	/* Probes: claimed pcs, loop headers, and the targets of edges leaving each loop. */
	for (uint32_t i = 0; i < cp->nranges; i++) {
		keys[i] = cp->ranges[i].pc;
		if (keys[i] < slots)
			probes[keys[i]] = 1;
	}
	if ((err = build_index(slots, cp->nranges, keys, &r.roff, &r.ridx)))
		goto out;
	err = -ENOMEM;
	r.need = malloc(cp->nranges ? cp->nranges : 1);
	forms = malloc((cp->nranges ? cp->nranges : 1) * sizeof(*forms));
	if (!r.need || !forms)
		goto out;
	/* each claim's group and fast form, once; the groups' sizes first: their arrays are
	 * allocated to size (a whole program's claims, per check: room for every claim in every
	 * group was fresh pages each time) */
	for (uint32_t k = 0; k < r.roff[slots]; k++) {
		const struct claim_range *c = &cp->ranges[r.ridx[k]];
		struct rform *fm = &forms[k];
		struct rplain p;
		struct rtn t;
		struct rgen g;

		r.need[k] = (uint8_t)range_contains_needs(&c->r);
		fm->grp = (uint8_t)rfast_of(c, r.need[k], r.pkt_len, &p, &t, &g);
		fm->implied = false;
		if (fm->grp == RG_REG || fm->grp == RG_SLOT8)
			fm->u.p = p;
		else if (fm->grp == RG_TN)
			fm->u.t = t;
		else if (fm->grp == RG_GEN)
			fm->u.g = g;
		form_cell(fm);
		ngroup[fm->grp]++;
	}
	r.rp = malloc((ngroup[RG_REG] + ngroup[RG_SLOT8] + 1) * sizeof(*r.rp));
	r.rt = malloc((ngroup[RG_TN] + 1) * sizeof(*r.rt));
	r.rg = malloc((ngroup[RG_GEN] + 1) * sizeof(*r.rg));
	r.sidx = malloc((ngroup[RG_SLOW] + 1) * sizeof(*r.sidx));
	r.pi = calloc(slots + 1, sizeof(*r.pi));
	if (!r.rp || !r.rt || !r.rg || !r.sidx || !r.pi)
		goto out;
	mark_implied(&r, forms, prog->insns, slots);
	for (uint32_t pc = 0, np = 0, nt = 0, ng = 0, ns = 0; pc <= slots; pc++) {
		struct pcidx *pi = &r.pi[pc];

		pi->p = r.rp + np;
		pi->t = r.rt + nt;
		pi->q = r.rg + ng;
		pi->s = ns;
		if (pc == slots)
			break;
		/* the pc's claims by group, each group's implied ones first (mark_implied):
		 * rp holds RG_REG's, then (from mid) RG_SLOT8's */
		uint32_t nreg = 0, nall = r.roff[pc + 1] - r.roff[pc];
		uint32_t at[2][RG_GEN + 1];

		for (uint32_t k = r.roff[pc]; k < r.roff[pc + 1]; k++)
			nreg += forms[k].grp == RG_REG;
		at[1][RG_REG] = (at[0][RG_REG] = np) + pi->ip;
		at[1][RG_SLOT8] = (at[0][RG_SLOT8] = np + nreg) + pi->is;
		at[1][RG_TN] = (at[0][RG_TN] = nt) + pi->it;
		at[1][RG_GEN] = (at[0][RG_GEN] = ng) + pi->iq;
		pi->mid = r.rp + np + nreg;
		for (uint32_t k = r.roff[pc]; k < r.roff[pc + 1]; k++) {
			const struct rform *fm = &forms[k];
			enum rgroup grp = fm->grp;
			bool reads_frame = grp == RG_SLOT8 || (grp == RG_TN && fm->u.t.frame) ||
					   (grp == RG_GEN && fm->u.g.frame);

			pi->frame |= reads_frame;
			pi->frame_rest |= reads_frame && !fm->implied;
			if (grp == RG_REG || grp == RG_SLOT8)
				r.rp[at[!fm->implied][grp]++] = fm->u.p;
			else if (grp == RG_TN)
				r.rt[at[!fm->implied][grp]++] = fm->u.t;
			else if (grp == RG_GEN)
				r.rg[at[!fm->implied][grp]++] = fm->u.g;
			else
				r.sidx[ns++] = k;
		}
		pi->nfast = nall - (ns - pi->s);
		pi->slow = ns != pi->s;
		np = at[1][RG_SLOT8];
		nt = at[1][RG_TN];
		ng = at[1][RG_GEN];
	}
	for (uint32_t l = 0; l < cp->nloops; l++) {
		const struct claim_loop *cl = &cp->loops[l];

		keys[l] = cl->header;
		if (cl->header < slots)
			probes[cl->header] = 1;
		/* a callback's calls end where its helper calls return */
		for (uint32_t e = 0; claim_loop_kind_callback(cl->kind) && e < cl->nentries; e++)
			if (cl->entries[e] + 1 < slots &&
			    !add_exit_key(&xkeys, &xloop, &nx, cl->entries[e] + 1, l, probes))
				goto out;
		r.lt[l].prev = calloc((size_t)MAX_FRAMES * (cl->nivs ? cl->nivs : 1), sizeof(uint64_t));
		if (!r.lt[l].prev)
			goto out;
		for (uint32_t b = 0; b < cl->nblocks; b++)
			for (uint32_t pc = cl->blocks[b].first; pc <= cl->blocks[b].last && pc < slots;
			     pc += ebpf_insn_slots(&prog->insns[pc])) {
				uint32_t succ[2];
				unsigned ns = ebpf_succs(prog->insns, slots, pc, succ);

				for (unsigned s = 0; s < ns; s++)
					if (!claim_loop__contains(cl, succ[s]) &&
					    !add_exit_key(&xkeys, &xloop, &nx, succ[s], l, probes))
						goto out;
			}
	}
	if ((err = build_index(slots, cp->nloops, keys, &r.hoff, &r.hidx)) ||
	    (err = build_index(slots, nx, xkeys, &r.xoff, &r.xidx)))
		goto out;
	/* xidx holds indexes into xkeys; map them to loops. */
	for (uint32_t i = 0; i < nx; i++)
		r.xidx[i] = xloop[r.xidx[i]];
	for (uint32_t pc = 0; pc <= slots; pc++) {
		r.pi[pc].h = r.hoff[pc];
		r.pi[pc].x = r.xoff[pc];
	}
	r.quick = malloc((slots ? slots : 1) * sizeof(*r.quick));
	if (!r.quick)
		goto out;
	for (uint32_t pc = 0; pc < slots; pc++) {
		struct pcidx *pi = &r.pi[pc];
		uint32_t nreg = (uint32_t)(pi->mid - pi->p) - pi->ip;
		uint32_t nslot = (uint32_t)(pi[1].p - pi->mid) - pi->is;
		uint32_t ntn = (uint32_t)(pi[1].t - pi->t) - pi->it;
		uint32_t ngen = (uint32_t)(pi[1].q - pi->q) - pi->iq;

		pi->loops = pi->h != pi[1].h || pi->x != pi[1].x;
		if (pi->from == UINT32_MAX || pi->loops || pi->slow || nslot ||
		    nreg + ntn + ngen > 1)
			continue;
		if (nreg)
			;	/* (tested from p) */
		else if (ntn && !pi->t[pi->it].frame)
			r.quick[pc] = rgen_of_tn(&pi->t[pi->it]);
		else if (ngen && !pi->q[pi->iq].frame)
			r.quick[pc] = pi->q[pi->iq];
		else if (ntn || ngen)
			continue;	/* (a slot's: check_ranges() reads the frame) */
		pi->quick = nreg ? PC_ONE_REG : ntn + ngen ? PC_ONE_GEN : PC_ALL_IMPLIED;
	}

	for (uint32_t run = 0; run < opts.runs && !r.stop && !r.err; run++) {
		struct interp_env env = { 0 };
		struct interp_result ir;
		struct safe_rule rule;

		if (opts.input) {
			memcpy(input, opts.input, r.input_len);
			if (opts.helper_len)
				memcpy(helper, opts.helper_data, r.helper_len);
		} else {
			uint32_t n = run + opts.first_input;

			fill_input(input, r.input_len, n, &seed);
			for (size_t i = 0; i < r.helper_len; i++)
				helper[i] = n == 0 ? 0 : n == 1 ? 0xff : (uint8_t)rnd(&seed);
		}
		r.input = input;
		r.helper = helper;
		r.frame = NULL;
		r.ok_pc = UINT32_MAX;
		for (uint32_t l = 0; l < cp->nloops; l++)
			memset(r.lt[l].active, 0, sizeof(r.lt[l].active));
		for (uint32_t m = 0; m < nmaps; m++)
			maps[m].values = NULL;	/* fresh zeroed storage per run */
		env.ctx_kind = opts.ctx_kind ? (enum interp_ctx_kind)(opts.ctx_kind - 1)
					     : check_ctx_kind(prog->prog_type);
		env.prog_type = prog->prog_type;
		env.attach_type = prog->btf_ctx.attach_type;
		env.input = input;
		env.input_len = r.input_len;
		env.helper_data = helper;
		env.helper_len = r.helper_len;
		env.maps = maps;
		env.map_cnt = nmaps;
		env.step_budget = opts.step_budget;
		env.probes = probes;
		env.visit = visit;
		env.arg = &r;
		if (opts.safe) {
			/* (a may_goto verdict's budgets in turn, by the input's number) */
			rule = safe_rule_run(opts.safe, run + opts.first_input);
			stackinit_watch_init(r.watch, prog->insns, slots, wpcs);
			safe_calls_init(r.calls, &rule, prog->insns);
			r.watch_calls = safe_rule_watches_calls(&rule);
			r.watch->allow_uninit_stack = !opts.safe->unprivileged;
			if (!opts.safe->unprivileged) {
				env.stack_fill = helper;
				env.stack_fill_len = r.helper_len;
			}
			env.may_goto_budget = rule.may_goto_budget;
			/* the watches need every instruction, unless neither can fire: then the
			 * claims' pcs alone, as for a program not called safe */
			if (!regs_sure || r.watch_calls) {
				env.probes = every;
				env.visit = visit_safe;
			}
			memcpy(input0, input, r.input_len);
		}
		if ((err = interp_run(code, &env, &ir)))
			goto out;
		res->runs++;
		if (opts.safe) {
			char text[256];

			if (safe_run_fault(&rule, &ir, r.watch, r.calls, text, sizeof(text)) &&
			    !safe_fault(res, text, input0, r.input_len, helper, r.helper_len)) {
				err = -ENOMEM;
				goto out;
			}
		}
		res->timer_fires += ir.timer_fires;
		if (ir.trap != INTERP_OK)
			res->traps++;
		/* Entries still open at the end were cut short (exit or trap inside the loop):
		 * their counts only bound the maximum, already checked. */
		for (uint32_t l = 0; l < cp->nloops; l++)
			for (unsigned f = 0; f < MAX_FRAMES; f++)
				finish_entry(&r, l, f, false);
	}
	err = r.err;
out:
	if (r.lt)
		for (uint32_t l = 0; l < cp->nloops; l++)
			free(r.lt[l].prev);
	free(r.lt);
	free(r.found);
	free(r.roff);
	free(r.ridx);
	free(r.need);
	free(forms);
	free(r.rp);
	free(r.rt);
	free(r.rg);
	free(r.quick);
	free(r.pi);
	free(r.sidx);
	free(r.hoff);
	free(r.hidx);
	free(r.xoff);
	free(r.xidx);
	free(xkeys);
	free(xloop);
	free(keys);
	free(probes);
	free(every);
	free(input0);
	free(wpcs);
	free(r.watch);
	free(r.calls);
	free(input);
	free(helper);
	free(maps);
	free(vsizes);
	interp_code__free(code);
	if (err)
		check_result__free(res);
	return err;
}
