/* Shared state of one analysis run, between the driver (scev.c), the symbolic execution of loop
 * bodies (symex.c) and the forward range analysis (absint.c).  Not part of the public API. */
#ifndef BPFSCEV_SCEV_INTERNAL_H
#define BPFSCEV_SCEV_INTERNAL_H

#include <assert.h>
#include <string.h>

#include "scev/aval.h"
#include "scev/calls.h"
#include "scev/expr.h"
#include "scev/fpmask.h"
#include "scev/links.h"
#include "scev/loop.h"
#include "scev/scev.h"
#include "scev/callbacks.h"
#include "scev/trip.h"

/* snprintf(dst, size, "%s", src) without the formatting (size > 0): the analysis copies fixed
 * texts into its reasons at every loop, and vfprintf costs about a thousand instructions a
 * call. */
static inline void copy_text(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n > size - 1)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* How a location evolves around one loop (symex.c). */
enum loc_class {
	LC_AFFINE,	/* x' = x + step at every back edge (width 32: zero-extended) */
	LC_ACCUM,	/* x' = x + d, d different per path or not constant */
	LC_DERIVED,	/* x' = f(other locations), f not using x */
	LC_UNKNOWN,
};

struct sym_loc {
	loc_t loc;
	uint8_t cls;
	uint8_t width;		/* AFFINE, ACCUM: 32 or 64 */
	uint64_t step;		/* AFFINE */
	eid back;		/* value at the back edges, in this loop's REG symbols */
	bool zext32;		/* every back-edge value is zero-extended from 32 bits */
	/* LC_UNKNOWN register: every back-edge value is x + step at 64 bits, or in a form that
	 * is the same while the header's x is at most small_max: a 32-bit form (zext32(x + step),
	 * zext32(x) + step), or through operations that are identities on small values (x << k
	 * >> k, an extension, an and with 2^j - 1: symex.c sym_ident_inner) (width 64): affine
	 * when the iterations that go round never see more (sym_step_of) */
	bool small;
	uint64_t small_max;
};

/* An exiting conditional jump executed in every iteration that returns to the header. */
struct sym_exit {
	uint32_t block;
	uint8_t op;
	bool is32;
	bool exit_on_taken;
	eid lhs, rhs;		/* operands at the jump, in this loop's REG symbols */
	/* found in the symbolic state of the parent (a reducible loop, every iteration of which
	 * the state describes) where it enters this one, for every entry (sym_exit_lin), by the
	 * parent's symbolic execution; dropped when that fails: the first iteration at which
	 * the test holds is in [ctx_kmin, ctx_kmax] (ctx), and the distance's linear form when
	 * it reads only the entry's values (lin, owned; NULL otherwise) */
	bool ctx;
	uint64_t ctx_kmin, ctx_kmax;
	struct sym_lin *lin;
};

/* A store in every iteration (its block, of this loop's own level, dominates the back edges'
 * sources): what an array filled by the loop is, or a slot every iteration writes. */
struct sym_store {
	uint32_t block;
	uint8_t size;
	eid addr;		/* the address written, in this loop's REG symbols */
};

struct sym_summary {
	/* (the counts and flags sit side by side: one summary per loop is held from the symbolic
	 * execution until the last pass leaves the loop; 96 bytes with the frame-byte mask out
	 * of line, 152 with it inline, where the fields' order made 176) */
	bool ok;		/* false: only the syntactic modified set below is known */
	bool single_exit;	/* one exit edge, and nothing ends the program inside */
	bool exit_havoc;	/* some exit leaves cells changed that the header does not show */
	uint32_t nlocs, nexits, npexits, nxlocs, nstores;
	const char *why;	/* when !ok: why (a string constant; NULL reads as "") */
	struct sym_loc *locs;	/* every location the loop may change (nlocs) */
	/* frame bytes the loop may change besides the cells in locs: through pointers other
	 * than constant r10 offsets, calls, and stores that cut a cell (every byte when it
	 * cannot place them); a cell overlapping a listed cell changes too.  NULL when none
	 * (most loops write no frame byte that way: 56 bytes a loop less than the mask held
	 * here); read it with sym_hv */
	struct fpmask *hv;
	struct sym_exit *exits;	/* (nexits) */
	/* exiting jumps of this loop's own level that some iteration may not pass (they
	 * dominate no back edge's source): a bound only as a set every cycle passes
	 * (sym_cut_bound); at most SYM_MAX_PEXITS, none when there are more */
	struct sym_exit *pexits;	/* (npexits) */
	/* the state on the exit edges (the single one when single_exit), for locations in locs,
	 * in the REG symbols of the iteration that leaves; NULL when no exit edge is reached */
	eid *exit_vals;
	/* locations unchanged at the header but changed on the way out (x += 1 before an exit
	 * test, undone before the back edge), with their single-exit values; parents must treat
	 * them as changed by the loop */
	loc_t *xlocs;	/* (nxlocs) */
	eid *xvals;
	struct sym_store *stores;	/* (nstores) */
};

/* The frame bytes summary s lets its loop change besides its listed cells (see hv). */
static inline const struct fpmask *sym_hv(const struct sym_summary *s)
{
	static const struct fpmask none;

	return s->hv ? s->hv : &none;
}

struct astate;
struct hdr_pack;
struct enum_walk;
struct astate;

/* Frame bytes [lo, hi) (offsets from r10, inside [-512, 0)); empty when lo >= hi. */
struct stack_span {
	int16_t lo, hi;
};

/* The values a register operand took at one instruction, as signed numbers: none seen while
 * lo > hi. */
struct add_src {
	int64_t lo, hi;
};

static inline bool stack_span_any(const struct stack_span *s)
{
	return s->lo < s->hi;
}

/* Grows s to cover frame bytes [lo, hi) clipped to [-512, 0); nothing when the clip is empty. */
/* What writes through pointers change of one frame: the bytes (m) and their hull (s), which
 * the readers that take a range use.  Two fields of a struct written by a callee stay two
 * ranges in m: a pointer spilled between them survives the call (scev.c outer_write_grow). */
struct frame_writes {
	struct stack_span s;
	struct fpmask m;
};

static inline void stack_span_add(struct stack_span *s, int64_t lo, int64_t hi)
{
	lo = lo < -FP_FRAME ? -FP_FRAME : lo;
	hi = hi > 0 ? 0 : hi;
	if (lo >= hi)
		return;
	if (!stack_span_any(s)) {
		*s = (struct stack_span){ (int16_t)lo, (int16_t)hi };
		return;
	}
	if (lo < s->lo)
		s->lo = (int16_t)lo;
	if (hi > s->hi)
		s->hi = (int16_t)hi;
}

static inline void frame_writes_add(struct frame_writes *w, int64_t lo, int64_t hi)
{
	stack_span_add(&w->s, lo, hi);
	fpmask_add(&w->m, lo, hi);
}

static inline void frame_writes_all(struct frame_writes *w)
{
	w->s = (struct stack_span){ -FP_FRAME, 0 };
	fpmask_fill(&w->m);
}

/* Every byte of a is in u (then so is a's hull in u's). */
static inline bool frame_writes_covers(const struct frame_writes *u, const struct frame_writes *a)
{
	for (int k = 0; k < FP_FRAME / 64; k++)
		if (a->m.w[k] & ~u->m.w[k])
			return false;
	return !stack_span_any(&a->s) ||
	       (stack_span_any(&u->s) && u->s.lo <= a->s.lo && a->s.hi <= u->s.hi);
}

/* u grows by a; whether it grew. */
static inline bool frame_writes_grow(struct frame_writes *u, const struct frame_writes *a)
{
	bool grew = fpmask_or(&u->m, &a->m);

	if (!stack_span_any(&a->s) ||
	    (stack_span_any(&u->s) && u->s.lo <= a->s.lo && a->s.hi <= u->s.hi))
		return grew;
	stack_span_add(&u->s, a->s.lo, a->s.hi);
	return true;
}

/* An open-coded iterator slot of a function (absint_iter.c): the least start and the largest
 * end of the bpf_iter_num_new calls into it (as ints), or 0 and 64 times the most words of the
 * bpf_iter_bits_new calls; its family (enum ebpf_iter_family: num or bits). */
struct iter_slot {
	uint32_t func;
	int16_t off;
	int64_t lo, hi;
	uint8_t fam;
};

#define SCEV_ITER_SLOTS 64

/* A bpf_ringbuf_reserve call (absint_ref.c): its pc and the size it is given, the constant
 * written to r2 in its block before it (-1: none); or a kfunc call that acquires a kernel object
 * (kf), the vmlinux struct id of what it gives (btf; 0 when the kernel has no such struct). */
struct ref_site {
	uint32_t pc;
	int64_t size;
	const struct ebpf_kfunc_ref *kf;
	int32_t btf;
	uint8_t sock;	/* a socket lookup's: 1 + the kind of socket it returns (enum
			 * ebpf_sock_kind), else 0 */
};

#define SCEV_REF_SITES 64

#define SCEV_CB_LOOP 1
#define SCEV_CB_EACH 2
#define SCEV_CB_VMA 3
#define SCEV_CB_URB 4
#define SCEV_CB_TIMER 5

/* Per-function facts the symbolic execution takes from the first, forgetful range pass. */
/* What a call proves of the packet, met over a function's calls (the kernel verifies a static
 * callee with its caller's packet ranges): data + data <= data_end, data_meta + meta <= data,
 * and per argument r1-r5 that is a packet pointer p, p + tail[r] <= data_end.  frames: the
 * functions (bit f, ids below 64) on the call chain whose frames' packet pointers are still
 * valid at the entry (no helper changed packet data since they were spilled): the caller's own
 * (as its cells are at the call), and those valid at the caller's entry when the caller moved
 * no packet since (astate.pkt_kept); the callees read such a frame's spilled packet pointers
 * (absint_caller_load). */
struct fn_pkt {
	uint16_t data, meta, tail[6];
	uint64_t frames;
};

static inline bool fn_pkt_meet1(uint16_t *d, uint16_t s)
{
	if (s >= *d)
		return false;
	*d = s;
	return true;
}

/* dst = the weaker of dst and src, field by field; whether dst changed. */
static inline bool fn_pkt_meet(struct fn_pkt *dst, const struct fn_pkt *src)
{
	bool changed = fn_pkt_meet1(&dst->data, src->data);

	changed |= fn_pkt_meet1(&dst->meta, src->meta);
	for (int r = 1; r <= 5; r++)
		changed |= fn_pkt_meet1(&dst->tail[r], src->tail[r]);
	changed |= (dst->frames & ~src->frames) != 0;
	dst->frames &= src->frames;
	return changed;
}

/* Static callees analysed per call site (contexts.c).  The first analysis keeps, per call site of
 * the call graph (scev_calls.sites), the arguments the last pass saw there (site_args); a static
 * callee whose reached calls see different ones gets a copy of its code per distinct set (a
 * memo: calls with equal arguments share one), at most SCEV_CTX_MAX per callee and at most the
 * program's own size in all, appended after the program, and those calls are redirected to
 * their copy.  The program so made is analysed again (its pcs past len are copies: orig_of),
 * and each claim at a callee pc is the join over the copies of that pc, met with the first
 * analysis's claim there: one claim per pc, holding for every call. */
#define SCEV_CTX_MAX 4

/* Cell arrays scev_ctx keeps for the states a block's visit works on (scev_ctx.cells_spare):
 * run_block's and send_succs' are alive at once, a callback's analysis may nest. */
#define SCRATCH_CELLS 4

struct scev_ctx_clone {
	uint32_t start, end;	/* the function copied: its slots [start, end) */
	uint32_t at;		/* where the copy starts in the new program */
	bool cb;		/* a callback's copy (absint_timer_plan, absint_cb_plan) */
};

struct scev_ctx_plan {
	uint32_t len;		/* the program's slots */
	uint32_t newlen;	/* with the copies */
	struct scev_ctx_clone *clones;
	uint32_t nclones;
	/* calls and function addresses redirected: pc (of the new program: a copy's own slot may
	 * be one) -> the pc of the new program they go to (a copy's first, or an original's) */
	uint32_t *site_pc, *site_to;
	uint32_t nsites;
	uint32_t *orig_of;	/* per slot of the new program, the slot it copies */
	/* a callback some of whose call contexts stay joined (past SCEV_CTX_MAX, or past the
	 * copies' budget: absint_cb_plan): its first pc + 1, 0 none */
	uint32_t cb_joined;
};

/* contexts.c: whether pc of the new program lies in a callback copied per context, the original
 * or a copy. */
bool scev_ctx_in_cb_copy(const struct scev_ctx_plan *plan, uint32_t pc);

struct scev_cb_site;	/* absint_callbacks.c */

struct scev_ctx {
	const struct ebpf_prog *prog;
	const struct bpf_insn *insns;
	uint32_t len;
	const struct ebpf_map_def *maps;
	size_t nmaps;
	enum ebpf_ctx_model ctx_model;
	uint32_t prog_type;		/* the type the program is analyzed as */
	struct scev_opts opts;
	struct scev_structure st;
	uint32_t *rpo_index;	/* block → position in its function's reverse postorder */
	uint32_t *rpo;		/* reachable blocks, each function's in reverse postorder */
	uint32_t *rpo_off;	/* per function: its slice of rpo is [rpo_off[f], rpo_off[f+1]) */
	struct expr_arena ar;
	/* per loop; freed (NULL) once the last pass is done.  Read through scev_sum, which
	 * stops a debug build that reads one in the first pass.  (One array: a summary
	 * allocated apart and freed when the last pass leaves its loop made the peak of 1M deep
	 * nests larger, its chunks not taken again by what the last pass allocates.) */
	struct sym_summary *sums;
	struct stack_span *may_stack;	/* per pc: the frame bytes this store or call may write
					 * through a pointer other than a constant r10 offset
					 * (from the first pass, or what both passes saw while
					 * stack_seeded: try_stack_shrink in scev.c) */
	struct stack_span *stack_seen;	/* per pc: what the last pass saw each of those write
					 * (NULL: not recorded, a program without loops) */
	struct stack_span *stack_first;	/* per pc, while stack_seeded: the first pass's */
	bool stack_seeded;	/* may_stack is a meet of both passes': the first pass's
				 * go to stack_first */
	struct add_src *add_src;	/* per pc: the signed range of a 64-bit 'dst += src''s
					 * src over every visit (from the first pass) */
	uint16_t *args_read;	/* per function: which of r1-r5 it may read before writing them */
	struct scev_links *links;	/* the linked scalars at each conditional jump (links.h) */
	/* Function summaries between passes (context-insensitive): per function, the join of the
	 * arguments r1-r5 over its call sites and of r0 at its exits.  fn_seen says which have any;
	 * *_acc are filled by the running pass for the next one. */
	struct aval (*fn_args)[6], (*fn_args_acc)[6];
	struct aval *fn_ret, *fn_ret_acc;
	uint8_t *fn_seen, *fn_seen_acc;	/* bit 0: args known, bit 1: return known */
	/* the arguments the last pass alone saw at each function's calls (fn_seen_last: some),
	 * for the one run again with them (scev.c, try_args_shrink) */
	struct aval (*fn_args_last)[6];
	uint8_t *fn_seen_last;
	/* per function: a static subprogram whose every call is on a path the settled summary
	 * rounds never reached (a dead branch), so it is not run, as the kernel, which explores
	 * only the paths it reaches, never verifies it */
	bool *fn_unreached;
	/* per function: FN_R0_UNSET when it may exit with r0 unwritten, which the kernel lets a
	 * static subprogram do (prepare_func_exit passes the NOT_INIT r0 to its caller, who may
	 * not read it); FN_R0_KEEP for main, global functions and callbacks, whose exits need
	 * r0.  _acc: what the running pass saw at the exits, for the next one. */
	uint8_t *fn_r0, *fn_r0_acc;
	/* Per function with known arguments: what every bpf-to-bpf call of it proves of the
	 * packet (struct fn_pkt); fn_pkt_short: the last pass reached a call that proves less
	 * than its callee was run with. */
	struct fn_pkt *fn_pkt, *fn_pkt_acc;
	bool fn_pkt_short;
	/* Per static function, what its exits prove of data (the packet's bytes from data before
	 * data_end), joined over them (absint_exit_pkt_note): a state of r0 and the proofs of id 0
	 * alone, where a proof may hold on the exits whose r0 is one constant only (a guard on r0:
	 * `r0 = 0; if (p > data_end) goto out; r0 = 1; out: exit`, the kernel selftests'
	 * reg_pkt_end_in_subprog).  A call gives its caller those proofs (absint_call_exit_pkt) when
	 * the summaries hold and nothing the callee runs moves the packet; _acc: the running
	 * pass's, which the last pass checks against what it used (absint_exit_pkt_held). */
	struct astate *fn_exit, *fn_exit_acc;
	bool first_pass;
	uint16_t *loop_args_def;	/* per loop, lazily (absint_header.c): which of r1-r5
					 * every path around it writes after its last call;
					 * bit 15 = known */
	int32_t *btf_types;		/* REGION_BTF pointers' struct ids (vmlinux BTF), by their
					 * aval.map; grown by absint_btf_type */
	uint8_t *btf_trusted;		/* per entry: the kernel's PTR_TRUSTED (a BTF context's
					 * argument), not a pointer walked from another object */
	uint32_t nbtf_types;
	struct scev_verdict *verdict;	/* when set, the last pass also checks safety */
	struct scev_calls calls;	/* the call graph (calls.c) */
	uint32_t *fn_stack;	/* verdict: per function, the deepest stack byte it accesses */
	/* verdict: the bpf_fastcall patterns (fastcall.c): per instruction, a spill or fill of
	 * one; per function, the deepest byte of its frame anything else accesses, and the top of
	 * its patterns the kernel removes (INT32_MIN: none) */
	uint8_t *fc_pat;
	uint32_t *fn_stack_np;
	int32_t *fc_top;
	/* verdict, unprivileged rule: per function, the 8-byte slots of its frame (bit k: the
	 * slot at fp-8(k+1)) a store of a pointer reached in any pass so far, and whether one
	 * reached a stack address not placed (any frame, any slot): a byte no cell places is
	 * taken as a number unless its slot is marked (absint_spill_may, absint_spill_note) */
	uint64_t *ptr_spill;
	bool ptr_spill_any;
	uint8_t *live;		/* verdict: per block, reached in the last pass */
	/* per loop: the state at its header in the last first pass, which covers every visit
	 * (absint_header.c: what the header step forgets is met with it), packed (absint.h) */
	struct hdr_pack *first_hdr;
	/* the per-block states the range passes have let go, kept for the next ones to take
	 * (absint.h: st_get), with their cell arrays: a small program's pass would otherwise
	 * spend more in malloc and free than in some of its blocks */
	struct astate **spare;
	uint32_t nspare, capspare;
	/* the cell arrays of the states a block's visit works on and drops (run_block's,
	 * send_succs'), lent to the next visit instead of malloc'd and freed each time
	 * (absint_state.c: st_cells_lend) */
	struct acell *cells_spare[SCRATCH_CELLS];
	uint32_t cells_spare_cap[SCRATCH_CELLS];
	uint32_t ncells_spare;
	/* the first states, from one arena block (absint_state.c: st_new) */
	struct astate *st_pool;
	uint32_t st_pooled;
	uint8_t **reentry;	/* per irreducible loop, lazily (absint.c): per block of it, reached
				 * from a side entry without passing the header */
	/* bpf_loop calls in the last pass (callbacks.h): per pc, r1 (nr) and r4 (flags) joined
	 * over every state the call was reached with; NULL in the other passes */
	struct scev_cb_facts *cb;
	/* helper callbacks (callbacks.h); per function, SCEV_CB_LOOP when it is one only bpf_loop
	 * calls, SCEV_CB_EACH one only bpf_for_each_map_elem calls, SCEV_CB_VMA one only
	 * bpf_find_vma calls, SCEV_CB_URB one only bpf_user_ringbuf_drain calls, SCEV_CB_TIMER
	 * one only bpf_timer_set_callback takes (an async entry, absint_timer.c), else 0 */
	struct scev_cb_loops cbl;
	uint8_t *fn_cb;
	/* maps (ids below 64) one timer callback is given with another of the same definition:
	 * analyzed as the lowest of them (absint_timer.c: absint_timer_canon) */
	uint64_t timer_alias;
	/* per pc of a bpf_timer_set_callback call, in the last pass of an analysis that may plan
	 * copies (else NULL): 0 not reached, 1 + m a value of map m only, UINT32_MAX other */
	uint32_t *timer_site;
	bool cb_unseen_dead;	/* a callback no bpf_loop call was seen to take is not run: in
				 * the summary rounds (until one takes it), and after them when
				 * they settled (none does) */
	/* per function: the bytes of its frame written on every path to each of its bpf_loop calls
	 * that pass a pointer into it, as the previous pass saw them (outer_init, read by the
	 * verdict) and the running pass sees them (*_acc, seen when some call was reached) */
	struct fpmask *outer_init, *outer_init_acc;
	uint8_t *outer_seen_acc;
	/* per function: the bytes of its frame (and their hull) that writes through pointers into
	 * it from other frames may change (outer_write, assumed at its calls; outer_write_acc,
	 * seen by the running pass), and whether the running pass saw a write it could not place */
	struct frame_writes *outer_write, *outer_write_acc;
	bool outer_write_any_acc;
	/* per function: its frame's cells at the calls that pass a pointer into it, joined over
	 * them (outer_frame: as the previous summary round left them, none when not live;
	 * outer_frame_acc: the running pass, fresh when outer_seen_acc is 0), which reads
	 * through such pointers of bytes no write through them changes (outer_write) see:
	 * a callee's bound f(&n) read from its caller's stack.  outer_frame_bad: a copy failed */
	struct astate *outer_frame, *outer_frame_acc;
	bool outer_frame_bad;
	/* per function: within outer_write, the values writes through pointers into its frame
	 * left there, joined over every such write (outer_wval: the previous summary round's,
	 * live when known; outer_wval_acc: the running pass's, within outer_write_acc); an absent
	 * cell is unknown.  Numbers and pointers that mean the same in every frame only.  Reads
	 * through such pointers see the cell at the calls joined with it, the callers after a
	 * callback helper's call the same (absint_callbacks.c) */
	struct astate *outer_wval, *outer_wval_acc;
	/* per pc of a callback run at most once per call (bpf_loop with nr <= 1) or of a static
	 * callee: bit set when a store through a pointer other than r10, or a call (a static
	 * function's: one that may write through a pointer), may precede it in the function's
	 * run (NULL: none such); whether the running pass saw a bpf_loop call make more
	 * calls of one than its analysis assumed */
	uint64_t *cb_pre_write;
	bool cb_once_broken;
	/* open-coded iterators (absint_iter.c): per pc of an iterator call, its slot (INT16_MAX not
	 * seen, INT16_MIN not constant); the slots of the running pass (*_acc) and of the previous
	 * one (*_used, for the values next points to); whether some call's slot was not placed;
	 * per loop, whether its trip claim is an iterator's */
	int16_t *iter_slot;
	struct iter_slot iter_acc[SCEV_ITER_SLOTS], iter_used[SCEV_ITER_SLOTS];
	uint32_t niter_acc, niter_used;
	bool iter_unplaced_acc, iter_unplaced;
	/* whether the program calls the kfuncs of an iterator family other than num (bits, task,
	 * ...): 0 not yet asked, 1 no, 2 yes */
	uint8_t iter_bits_prog;
	bool iter_join;		/* a re-run of the last passes: *_used joins every pass's facts */
	/* iterators of a caller's frame a callee advances (absint_iter.c, the kernel selftests'
	 * iter_pass_iter_ptr_to_subprog): per pc of an iterator call, the function whose frame
	 * holds its slot (UINT16_MAX: its own); per function, the iterators of its callers' frame
	 * at its calls (citer: the previous pass's, citer_acc: the running one's); whether a write
	 * into a caller's frame other than an iterator call may have reached an iterator slot
	 * there (iter_hit: the previous pass's) */
	uint16_t *iter_fn;
	struct iter_in {
		uint64_t may, must;	/* (struct life of the caller's state) */
		/* the caller's dynptrs (absint_dynptr.c: astate.dp, dpr) */
		uint64_t dmay, dmust, drmay, drmust;
		uint16_t caller;	/* the calling function, UINT16_MAX for several */
		/* the frame those dynptrs are of: the caller's own, or the one whose dynptrs it
		 * was handed (its astate.cdp: a dynptr given two levels down); UINT16_MAX for
		 * several (absint_dynptr_in) */
		uint16_t dframe;
		/* the caller's own dynptrs when those of dframe are the frame it was handed: live
		 * there too, not the callee's (none of its arguments point there), so none of its
		 * accesses may reach them (oframe: that frame, UINT16_MAX for several) */
		uint16_t oframe;
		uint64_t omay;
		uint8_t seen;
	} *citer, *citer_acc;
	bool iter_hit_acc, iter_hit;
	uint8_t *iter_loop;	/* per loop: 1 + the family of the iterator that ends it, or 0 */
	/* ringbuf records (absint_ref.c): the reserve calls, why they are not modeled (NULL when
	 * they are), and per loop whether its blocks reserve or release one; ref_loop is NULL when
	 * the program makes no ringbuf reserve, submit or discard call */
	struct ref_site ref_sites[SCEV_REF_SITES];
	uint32_t nref_sites;
	const char *ref_why;
	uint8_t *ref_loop;
	bool ref_tail;		/* a function other than main tail-calls or uses LD_ABS/LD_IND */
	/* spin locks taken or released in static functions (absint_lock.c): per function, the
	 * lock state its calls give it and its exits leave (the summary rounds' fixpoint), what
	 * the running pass saw (the _acc; lk_seen_acc bit 1: a call, 2: an exit; 4, 8: the lk_in,
	 * lk_out a round set), and lk_fn: bit 1
	 * when it or a function it calls calls bpf_spin_lock or bpf_spin_unlock, bit 2 when its
	 * address is taken; all NULL when no function but main calls them (or there is one
	 * function); lk_stable: the rounds reached the fixpoint */
	struct alock *lk_in, *lk_in_acc, *lk_out, *lk_out_acc;
	uint8_t *lk_seen_acc, *lk_fn;
	bool lk_stable;
	/* dynptrs on the stack (absint_dynptr.c): per loop, whether its blocks make or release
	 * one; NULL when the program makes none */
	uint8_t *dp_loop;
	bool dp_sub;		/* a dynptr helper is called outside the main function */
	bool dp_pkt;		/* a kfunc makes a dynptr of the packet (absint_dynptr_setup) */
	bool dp_clone;		/* the program calls bpf_dynptr_clone (the groups: absint_dynptr.c) */
	/* a subprogram made or released a dynptr not known to be of its own frame, in some pass
	 * (a caller's: the callers' states do not see it) */
	bool dp_out;
	/* per function, what its exits left of its one caller's dynptrs (absint_dynptr.c:
	 * astate.cdp, cdpr, ctouch joined over its exits; caller UINT16_MAX when made or released
	 * in several callers' frames): dp_exit the previous pass's, dp_exit_acc the running one's;
	 * NULL when no subprogram calls a dynptr helper */
	struct dp_exit {
		uint64_t dmay, dmust, rmay, rmust, tmay, tmust;	/* (cdp, cdpr, ctouch) */
		/* the same of the exits that return 0 (k[0]) and of those that return anything
		 * else (k[1]), seen in kseen (bit c: some exit of k[c]); key_bad when an exit's r0
		 * may be 0 and not (nor its guard on r0 tell them apart) */
		uint64_t k[2][6];
		uint16_t caller;
		uint8_t seen, kseen;
		uint8_t knot;	/* the tests that do not tell the classes (dp_guard.modes) */
		bool key_bad;
	} *dp_exit, *dp_exit_acc;
	/* per bpf_loop callback (scev_ctx.fn_cb SCEV_CB_LOOP): its caller's dynptrs at the bpf_loop
	 * calls, as citer holds a static function's (cbdp: the previous pass's, cbdp_acc: the
	 * running one's); NULL when no function but main calls a dynptr helper */
	struct iter_in *cbdp, *cbdp_acc;
	/* symex.c: per loop, the number of the body walk (sym_runs) that stepped over it as a
	 * collapsed child, so no walk clears an array of every loop */
	uint32_t *sym_collapsed;
	uint32_t sym_runs;
	/* symex.c, while the summaries are computed: each loop's own blocks (loop_of[b] == l),
	 * ascending, at sym_own[sym_own_off[l] .. sym_own_off[l + 1]), and the first position in
	 * reverse postorder of its blocks at any depth (sym_min_rpo) */
	uint32_t *sym_own, *sym_own_off, *sym_min_rpo;
	/* per function: what running it may do besides its result, with the functions it calls
	 * (FN_*, absint_transfer.c); NULL: anything */
	uint8_t *fn_effects;
	/* the program calls a kfunc that is no iterator kfunc (absint_fn_effects): one may make a
	 * dynptr of the packet, whose bpf_dynptr_write may move it */
	bool kfunc_other;
	uint8_t *loop_moves_pkt;	/* per loop, lazily (absint_header.c) */
	uint8_t *loop_holds;	/* per loop, lazily (scev_loop_holds): LOOP_HOLDS_* bits */
	struct enum_walk *enum_walk;	/* absint_enum_trip's room, taken once, lazily */
	/* per function: its prototype when it is global (absint_global.c), NULL when static;
	 * NULL when none is */
	const struct ebpf_global_func **fn_global;
	/* contexts.c: per call site (calls.sites), the arguments r1-r5 the last pass saw at it
	 * (frame_local's view, joined over its visits) and whether it saw any; NULL when not
	 * recorded (one function, or the analysis of the copies) */
	struct aval (*site_args)[6];
	uint8_t *site_seen;
	/* the analysis of a program with copies (NULL otherwise): which pcs copy which */
	const struct scev_ctx_plan *ctx_plan;
	/* callbacks per call context (absint_callbacks.c).  plan_make: this analysis may plan
	 * copies (the first of a program as given).  cb_view: per function, the one function
	 * whose helper calls take it as their callback (SCEV_NONE: none, several, itself, or it is
	 * also called directly); its reads of that caller's frame see the caller's cells at those
	 * calls only (outer_frame[nfuncs + f], outer_seen_acc likewise: both 2 * nfuncs long).
	 * cb_sites: per helper call taking a callback (cbl's calls in order), what the last pass
	 * saw there, for the plan (NULL unless plan_make) */
	bool plan_make;
	uint32_t *cb_view;
	struct scev_cb_site *cb_sites;
	/* per function, its slot in sets of callers' frames (aval.h; absint_frame_slot), NULL
	 * when there are no frames to place (its id below 14, none above) */
	uint8_t *frame_slot;
	/* absint_throw.c: per function, whether it may throw (itself or through its calls) and
	 * whether a callback or the exception callback reaches it (NULL: no bpf_throw and no
	 * exception callback); the exception callback's function (SCEV_NONE: none); whether a
	 * function whose address is taken may throw */
	uint8_t *th_fn, *th_reach;
	uint32_t exc_fn;
	bool cb_throws;
};

/* Loop l's summary (step 2, symex_loop, writes it; the last pass reads it).  The first pass
 * reads none: its summaries would be empty (they are computed after it, from what it found),
 * and nothing computes them before it since a5af097.  A debug build stops at a read in the
 * first pass (test_sum_first_pass checks that it does). */
static inline struct sym_summary *scev_sum(const struct scev_ctx *cx, uint32_t l)
{
	assert(!cx->first_pass && cx->sums && l < cx->st.loops->nloops);
	return &cx->sums[l];
}

/* Kinds of instruction a loop may hold (scev_loop_holds). */
enum {
	LOOP_HOLDS_CALL = 1,	/* a call (ebpf_is_call) */
	LOOP_HOLDS_CLOBBER = 2,	/* a call or an LD_ABS/LD_IND: r1-r5 clobbered */
	LOOP_HOLDS_MAY_GOTO = 4,	/* a block ending in a may_goto (BPF_JCOND) */
	LOOP_HOLDS_END = 8,	/* what may end the program: exit, LD_ABS/LD_IND, a tail call */
};

/* scev.c: whether loop l holds, in one of its blocks at any depth (L->blocks), an instruction of
 * kind (one LOOP_HOLDS_* bit); true when memory runs out.  The per-loop walks of a loop's blocks
 * for one kind of instruction (a call that moves the packet, r1-r5 clobbered, a may_goto) skip
 * the loops that hold none: computed once for every loop in one pass over the blocks, where a
 * walk per loop visits a nest's inner blocks once per level around them. */
bool scev_loop_holds(struct scev_ctx *cx, uint32_t l, unsigned kind);

/* scev.c: each loop's own blocks (loop_of[b] == l, those of no loop nested in it), ascending,
 * at (*own)[(*off)[l] .. (*off)[l + 1]): one pass over the blocks (free both with arena_free).
 * 0 or -ENOMEM. */
int scev_own_blocks(const struct scev_ctx *cx, uint32_t **own, uint32_t **off);

/* contexts.c: records the arguments of the bpf-to-bpf call at pc (last pass). */
void scev_ctx_note_site(struct scev_ctx *cx, uint32_t pc, const struct aval *args);
/* contexts.c: after the analysis, the copies worth making (none: plan->nclones 0).  0 or
 * -ENOMEM.  The plan is malloc's (scev_ctx_plan_free). */
int scev_ctx_plan_make(const struct scev_ctx *cx, struct scev_ctx_plan *plan);
/* contexts.c: appends to plan a copy of the function at [start, end) and redirects the calls or
 * function addresses at sites[0..nsites) to it (cb: a callback's copy).  0 or -ENOMEM. */
int scev_ctx_plan_clone(struct scev_ctx_plan *plan, uint32_t start, uint32_t end,
			const uint32_t *sites, uint32_t nsites, bool cb);
/* contexts.c: redirects the call or function address at pc of the new program (a copy's slot:
 * at + (its original pc - start)) to new pc to.  0 or -ENOMEM. */
int scev_ctx_plan_push(struct scev_ctx_plan *p, uint32_t pc, uint32_t to);
/* absint_timer.c: a copy of a timer callback per map (per class of maps alike) whose timers
 * it is given beyond the first, within *budget slots (taken from it).  0 or -ENOMEM. */
int absint_timer_plan(const struct scev_ctx *cx, struct scev_ctx_plan *plan, uint32_t *budget);
/* absint_callbacks.c: a copy of a bpf_loop, for_each, find_vma or user_ringbuf_drain callback
 * per distinct call context beyond the first (when the verdict is not safe), within *budget.
 * 0 or -ENOMEM. */
int absint_cb_plan(const struct scev_ctx *cx, struct scev_ctx_plan *plan, uint32_t *budget);
void scev_ctx_plan_free(struct scev_ctx_plan *plan);
/* contexts.c: prog with the plan's copies (out shares what it does not change with prog;
 * scev_ctx_prog_free frees the rest).  0 or -ENOMEM. */
int scev_ctx_prog(const struct ebpf_prog *prog, struct scev_ctx_plan *plan,
		  struct ebpf_prog *out);
void scev_ctx_prog_free(struct ebpf_prog *p);
/* contexts.c: each function's stack depth the largest of its copies' (the kernel's depth of a
 * subprogram is the deepest of all the states it verified it in). */
void scev_ctx_stack_depths(const struct scev_ctx *cx, uint32_t *fn_stack);
/* contexts.c: out (the first analysis's claims) met with the copies' claims c joined per
 * original pc.  0 or -ENOMEM. */
int scev_ctx_claims_meet(struct claim_prog *out, const struct claim_prog *c,
			 const struct scev_ctx_plan *plan);

/* scev.c: sorts blocks v[0..n) by their position in reverse postorder.  0 or -ENOMEM. */
int scev_sort_by_rpo(const struct scev_ctx *cx, uint32_t *v, uint32_t n);

/* symex.c */
void sym_summary__free(struct sym_summary *s);
int symex_loop(struct scev_ctx *cx, uint32_t l);
/* What symex_loop keeps between loops of one round of summaries, freed. */
void symex_done(struct scev_ctx *cx);
/* Syntactic modified set (registers, r10-offset cells, havoc) for loops symex gave up on. */
int symex_syntactic_mod(struct scev_ctx *cx, uint32_t l, struct sym_summary *s);
const struct sym_loc *sym_find(const struct sym_summary *s, loc_t loc);
/* Unchanged at the header after an iteration (cells: also through overlapping cells). */
bool sym_unchanged(const struct sym_summary *s, loc_t l);
bool sym_step_of(struct scev_ctx *cx, const struct sym_summary *s, const struct sym_loc *sl,
		 const struct aval *(*env)(void *arg, loc_t l), void *arg, uint64_t *step);
bool sym_accum_delta(struct expr_arena *ar, eid alt, loc_t x, eid *d, bool *w32);
/* Accumulation sl of loop s adds, in every iteration, a value in [lo, hi] (signed, as numbers
 * of its width) read over env: its deltas read only constants, RANGE leaves and what s does
 * not change. */
bool sym_delta_bounds(struct scev_ctx *cx, const struct sym_summary *s, const struct sym_loc *sl,
		      const struct aval *(*env)(void *arg, loc_t l), void *arg, int64_t *lo,
		      int64_t *hi);
/* e = REG(x) + terms that are constants and RANGE leaves, at least one RANGE (a counter plus
 * what an inner loop added, read after that loop): base = REG(x), the terms' sum in [clo, chi]
 * (signed; w32: of a 32-bit add), within 2^62 for a 64-bit add that a 64-bit test reads (wide),
 * else within 2^30 (a 64-bit sum's sign need not be its low half's). */
bool sym_range_offset(struct expr_arena *ar, eid e, bool wide, eid *base, int64_t *clo,
		      int64_t *chi, bool *w32);
/* e with the forms of x + c that equal it on the values loop s's header sees in x (by the first
 * pass), written as that 64-bit add: the 32-bit forms zext32(x + c), zext32(x) + c, and x + c or
 * x through operations that are identities on small values (symex.c sym_ident_inner: (x + c) <<
 * 1 >> 1 while x + c < 2^63); c = 0 included. */
eid sym_small_ident(struct scev_ctx *cx, const struct sym_summary *s, eid e);
/* The helper writes nothing through its pointer arguments. */
bool helper_is_pure(int32_t id);

/* exits.c: bounds on the first iteration at which exit e is taken, given the ranges of the
 * header values at loop entry (env) — 0 with kmin/kmax, or -1 with why. */
int sym_exit_bound(struct scev_ctx *cx, const struct sym_summary *s, const struct sym_exit *e,
		   const struct aval *(*env)(void *arg, loc_t l), void *arg, uint64_t *kmin,
		   uint64_t *kmax, char *why, unsigned whylen);

/* exits.c: whether conditional jump i compares, in its own width, a register holding counter ctr
 * with one holding invariant inv's location (inv a register expression) or with inv's constant
 * as its immediate, either side left; holds(arg, r, l) says whether register r holds l's value
 * where i runs (entry_guarded: at the end of the guard's block; symex.c's arrival_guarded: r is l). */
bool jmp_tests_inv(const struct bpf_insn *i, loc_t ctr, const struct expr *inv,
		   bool (*holds)(const void *arg, uint8_t r, loc_t l), const void *arg);

/* exits.c: the values the counter loc of exit e's tested sequence takes at the header after the
 * first iteration, which passed e without leaving — true with them in x1, or false.  Between
 * sym_exit_memo_open(arg) and the next open, it reuses the tested sequence sym_exit_bound
 * matched for the same (cx, s, e, env, arg) since the open: arg must be an environment that
 * stays alive and unchanged until then (a header step's entry state). */
void sym_exit_memo_open(const void *arg);
bool sym_exit_next_range(struct scev_ctx *cx, const struct sym_summary *s,
			 const struct sym_exit *e, const struct aval *(*env)(void *arg, loc_t l),
			 void *arg, loc_t loc, struct aval *x1);

/* exits.c: an exit taken when a counter equals a number, in the parent loop's symbolic state
 * where the loop is entered (entry: each location's value there, an expression in the parent's
 * REG symbols; env its range as above): the distance D = N - v(0) from the counter's start to
 * the number as a linear form c0 + sum k_i t_i over w bits (a bound c - X * step of an outer
 * counter X), which holds at every entry the state describes.  Terms of the parent's header
 * values the entry still holds are the entry's (outer false).  Its quotient by the step is the
 * first exit (sym_lin_bound: trip.h's trip_eq_linear), which the ranges of N and of the start
 * alone do not show.  0, or -1 with why. */
struct sym_lin {
	unsigned w;
	uint64_t step;
	unsigned n;
	uint64_t c0;
	uint64_t k[TRIP_LIN_MAX];
	eid t[TRIP_LIN_MAX];
	bool outer[TRIP_LIN_MAX];	/* t_i reads the parent's header values */
	/* the counter, the invariant side (in the loop's REG symbols) and v(0) - x0 (exit_seq) */
	loc_t loc;
	eid inv;
	uint64_t off;
};
int sym_exit_lin(struct scev_ctx *cx, const struct sym_summary *s, const struct sym_exit *e,
		 const struct aval *(*env)(void *arg, loc_t l), eid (*entry)(void *arg, loc_t l),
		 void *arg, struct sym_lin *f, char *why, unsigned whylen);
/* The first exit of form f: its terms' ranges over the entry values (env) and the parent's
 * header values (outer; NULL when there are none to read), then trip_eq_linear. */
int sym_lin_bound(struct scev_ctx *cx, const struct sym_lin *f,
		  const struct aval *(*env)(void *arg, loc_t l), void *arg,
		  const struct aval *(*outer)(void *arg, loc_t l), void *oarg, uint64_t *kmin,
		  uint64_t *kmax, char *why, unsigned whylen);

/* exits.c: a bound from exits on different paths (s->pexits): the smallest K such that the
 * exits whose test holds in every iteration from K on (it holds once and stays so: an order
 * test on a counter moving towards it that does not wrap before K) are passed by every cycle
 * of loop l, as its header's iterations 0, 1, ...  No iteration after K starts.  0 with *kmax
 * = K and *used the blocks of the exits in that set (as many as fit, nused), or -1 with why. */
#define SYM_MAX_PEXITS 16
int sym_cut_bound(struct scev_ctx *cx, uint32_t l, const struct sym_summary *s,
		  const struct aval *(*env)(void *arg, loc_t l), void *arg, uint64_t *kmax,
		  uint32_t *used, unsigned *nused, char *why, unsigned whylen);
/* Loop l's cycles all pass a may_goto whose jump leaves l, its own or a nested loop's (the
 * budget, once spent, sends every pass of one out): 1 with the pc of one in *pc, 0 not, -ENOMEM. */
int sym_may_goto_cut(struct scev_ctx *cx, uint32_t l, uint32_t *pc);

/* absint_eval.c: the value of e given the values of the locations it reads (env). */
struct aval aval_eval(struct scev_ctx *cx, eid e, const struct aval *(*env)(void *, loc_t),
		      void *arg);
/* absint.c (the other parts of the range analysis declare themselves in absint.h) */
int absint_run(struct scev_ctx *cx, struct claim_prog *out);
/* The side-entry region of irreducible loop l: per block of it (L->blocks order), whether a side
 * entry reaches it without passing the header; element L->nblocks is 2 when no block of the
 * region is in a nested loop ("flat"), else 1.  NULL when l is reducible or memory ran out. */
const uint8_t *absint_reentry_region(struct scev_ctx *cx, uint32_t l);
/* The callers' frames that callees read through pointers (scev_ctx.outer_frame): allocated
 * (0 or -ENOMEM), dropped (every read unknown), freed; after a summary round, joined with what
 * it saw (widened when widen), true when they covered it; after the last pass, whether
 * function f's covered what that pass saw. */
int absint_outer_frames_alloc(struct scev_ctx *cx);
void absint_outer_frames_drop(struct scev_ctx *cx);
void absint_outer_frames_free(struct scev_ctx *cx);
/* Function f's slot in sets of callers' frames (aval.h), CALLER_SLOT_NONE when it has none. */
uint32_t absint_frame_slot(const struct scev_ctx *cx, uint32_t f);
bool absint_outer_frame_grow(struct scev_ctx *cx, bool widen);
bool absint_outer_frame_covered(const struct scev_ctx *cx, uint32_t f);
/* The values written into callers' frames (scev_ctx.outer_wval): the running pass's forgotten;
 * grown by it (before outer_write grows: true when it covered it); checked against it after the
 * last pass; and whether the last pass wrote nothing outside them. */
void absint_outer_wval_reset(struct scev_ctx *cx);
bool absint_outer_wval_grow(struct scev_ctx *cx, bool widen);
bool absint_outer_wval_covered(const struct scev_ctx *cx);
void absint_outer_wval_drop(struct scev_ctx *cx);
/* absint_transfer.c: whether every proof of function f's exits its calls took (fn_exit, while
 * its summary holds) holds at the exits of the pass that ended (fn_exit_acc). */
bool absint_exit_pkt_held(const struct scev_ctx *cx, uint32_t f);
/* fn_exit and fn_exit_acc (0 or -ENOMEM); after a summary round, its exits' proofs become what
 * the next round's calls take, and whether each function's held; none taken (no summaries). */
int absint_exit_pkt_alloc(struct scev_ctx *cx);
bool absint_exit_pkt_round(struct scev_ctx *cx);
void absint_exit_pkt_drop(struct scev_ctx *cx);
/* Finds the pcs of callbacks run at most once per call, and of static callees, that some write
 * through a pointer may precede in their run (scev_ctx.cb_pre_write).  0 or -ENOMEM. */
int absint_cb_pre_write(struct scev_ctx *cx);
/* absint_iter.c: the iterator facts of the pass that ended become the ones the next pass reads;
 * whether the pass that ended saw no more than the one before it. */
void absint_iter_pass_start(struct scev_ctx *cx);
/* absint_ref.c: the program's ringbuf calls (scev_ctx.ref_sites, ref_loop).  0 or -ENOMEM. */
int absint_ref_setup(struct scev_ctx *cx);
/* absint_lock.c: the lock summaries of static functions (scev_ctx.lk_in ...; 0 or -ENOMEM);
 * after a summary round, what its calls and exits saw joined into them, whether nothing grew. */
int absint_lock_setup(struct scev_ctx *cx);
bool absint_lock_round(struct scev_ctx *cx);
int absint_dynptr_setup(struct scev_ctx *cx);
bool absint_iter_settled(const struct scev_ctx *cx);
/* Whether the iterator facts the running pass found are exactly the ones it read (the next pass,
 * with the same summaries, reads what this one did). */
bool absint_iter_same(const struct scev_ctx *cx);
/* call_limits.c: recursion, chain depth and (with fn_stack) combined stack against the kernel's
 * limits, into v; and the most instructions a run executes given the trip claims and the
 * blocks the last pass reached (UINT64_MAX when unknown, *ends saying why: enum scev_ends). */
int scev_calls_check(struct scev_ctx *cx, struct scev_verdict *v, const uint32_t *fn_stack);
/* fastcall.c: the kernel's bpf_fastcall patterns marked before the verdict's pass (0 or
 * -ENOMEM), and each function's stack depth lowered after it to what their removal leaves. */
int scev_fastcall_mark(struct scev_ctx *cx);
void scev_fastcall_depths(const struct scev_ctx *cx, uint32_t *fn_stack);
/* absint_timer.c: a program of a tracing type (kprobe, tracepoint, perf_event, raw_tracepoint)
 * that names a map holding a struct bpf_timer is unsafe, as the kernel refuses it before
 * verifying (check_map_prog_compatibility). */
void absint_timer_maps_check(const struct scev_ctx *cx, struct scev_verdict *v);
/* absint_fields.c: the same for the other special fields (a spin lock: socket filters too). */
void absint_fields_maps_check(const struct scev_ctx *cx, struct scev_verdict *v);
/* call_limits.c: a safe verdict's max_insns, ends, mg_insns and per-call bounds (scev.h). */
void scev_calls_insn_bound(const struct scev_ctx *cx, const struct claim_prog *claims,
			   const uint8_t *live, struct scev_verdict *v);
void absint_free(struct scev_ctx *cx);	/* what absint_run keeps in cx between passes */
/* absint_global.c: the global function f is (NULL: static); the program's global functions
 * (cx->fn_global); f's entry arguments r0-r5, from its prototype. */
const struct ebpf_global_func *absint_global(const struct scev_ctx *cx, uint32_t f);
int absint_global_setup(struct scev_ctx *cx);
/* absint_throw.c: the functions that may throw and the exception callback.  0 or -ENOMEM. */
int absint_throw_setup(struct scev_ctx *cx);
/* absint_throw.c: whether the run may end at pc by an exception (a bpf_throw, a call of a
 * function that may throw, a helper given a callback when some callback may throw); whether
 * function f is the exception callback. */
bool absint_throw_ends(const struct scev_ctx *cx, uint32_t pc);
bool absint_throw_is_exc_cb(const struct scev_ctx *cx, uint32_t f);
/* absint_throw.c: whether a run may go on in the exception callback after a throw. */
bool absint_throw_exc_runs(const struct scev_ctx *cx);
void absint_global_args(const struct scev_ctx *cx, uint32_t f, struct aval args[6]);
/* absint_transfer.c: cx->fn_effects.  0 or -ENOMEM. */
#define FN_MOVES_PKT 1u		/* may move the packet (a helper that does) */
#define FN_WRITES_OUT 2u	/* may write memory through a pointer other than its own r10
				 * (a store, a helper's output argument): a caller's frame */
int absint_fn_effects(struct scev_ctx *cx);
#define FN_R0_UNSET 1u
#define FN_R0_KEEP 2u

#endif
