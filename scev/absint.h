/* Shared declarations of the forward range analysis, between its parts: the abstract state
 * (absint_state.c), the transfer function of one instruction (absint_transfer.c), expression
 * evaluation over abstract values (absint_eval.c), the loop header step and exit values
 * (absint_header.c), the claims (absint_claims.c), the safety verdict (absint_verdict.c) and the
 * worklist that drives them (absint.c).  Not part of the public API; what the rest of scev/ calls
 * is in internal.h.
 */
#ifndef BPFSCEV_SCEV_ABSINT_H
#define BPFSCEV_SCEV_ABSINT_H

#include <stdlib.h>

#include "bpf/helper_proto.h"
#include "scev/internal.h"

struct acell {
	int16_t off;
	uint8_t size;
	struct aval v;
};

/* What may be live on some path (may) and what is on every path (must), bit k for object k: the
 * open-coded iterators (absint_iter.c) and the ringbuf records (absint_ref.c).  A join keeps
 * what either side may hold and what both must. */
struct life {
	uint64_t may, must;
};

/* An access bound (computed in 128 bits) for a message: a bound past the 64-bit ends prints as
 * the nearest end instead of wrapping to the other sign. */
static inline long long absint_ll_sat(__int128 v)
{
	return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : (long long)v;
}

/* d := d joined with s; true when d changed. */
static inline bool life_join(struct life *d, const struct life *s)
{
	struct life o = *d;

	d->may |= s->may;
	d->must &= s->must;
	return d->may != o.may || d->must != o.must;
}

/* Whether s holds something d does not (joined into d, d would change). */
static inline bool life_grows(const struct life *d, const struct life *s)
{
	return (s->may & ~d->may) || (d->must & ~s->must);
}

#define PKT_VARS 4
#define PKT_NO_GUARD 0xff
#define PKT_META_ID UINT16_MAX	/* pkt_var of data_meta: data_meta + range <= data */
#define PKT_MAX_OFF 0xffff	/* the kernel's MAX_PACKET_OFF: no range past it */

struct astate {
	struct aval regs[EBPF_NREGS];
	struct acell *cells;	/* sorted by off, disjoint; absent cells are unknown */
	uint32_t n, cap;
	/* For the safety verdict: what is surely written, and how much packet is surely there. */
	uint16_t init;		/* bit r: register r written on every path */
	bool live;		/* (here, not first: in init's padding) */
	/* No helper that changes packet data has run since this function's entry, on every path:
	 * packet pointers spilled in its callers' frames are still valid (the kernel clears them
	 * in every frame, clear_all_pkt_pointers; absint_pkt_moved clears this) */
	bool pkt_kept;
	struct fpmask sinit;	/* stack bytes written on every path */
	/* Open-coded iterators (absint_iter.c), bit k for the 8 bytes at fp - 8(k + 1): live on
	 * some path (created by bpf_iter_num_new, not yet destroyed), live on every path. */
	struct life it;
	/* Ringbuf records (absint_ref.c), bit k for the reserve call scev_ctx.ref_sites[k]:
	 * reserved and not yet submitted or discarded (the kernel's acquired references). */
	struct life ref;
	/* Dynptrs on the stack (absint_dynptr.c), bit k for the 16 bytes at fp - 8(k + 1): live
	 * (made by bpf_dynptr_from_mem or bpf_ringbuf_reserve_dynptr, not yet released or
	 * overwritten), and of those the ringbuf ones (references the kernel requires released). */
	struct life dp, dpr;
	/* A static subprogram's view of its one caller's dynptrs (absint_dynptr.c), bit k for the
	 * 16 bytes at fp - 8(k + 1) of that frame: live, ringbuf, and made or released here (on
	 * some path, on every path): what the caller takes back at the call's return. */
	struct life cdp, cdpr, ctouch;
	uint64_t pkt_min;	/* packet bytes from data known to be before data_end */
	/* For packet pointers with a variable base (aval.h; id 0: data itself, the base of packet
	 * pointers without one): base_X + range <= data_end — on every
	 * path, or (greg != PKT_NO_GUARD) on the paths where register greg holds gval: a join of a
	 * path that proved it with one that did not, told apart by a constant (clang's
	 * "err = data + n > data_end ? -EINVAL : 0; if (!err) ..."; the kernel walks both paths
	 * apart).  A write to greg drops the entry.  At most PKT_VARS bases; absent (range 0)
	 * proves nothing. */
	struct pkt_var {
		uint16_t id, range;
		uint8_t greg;
		int32_t gval;
	} pkt_var[PKT_VARS];
	/* A null guard (absint_state.c, astate__nn_*): register p holds a pointer, NULL as a value
	 * on some paths, that is not NULL wherever register g is not 0 — a join of a path that set
	 * p to a checked pointer and g to a non-zero number with one that left both 0 (the kernel
	 * selftests' iter_search_loop: `found = true; elem = v;` in a loop, `if (found) *elem`
	 * after it; the kernel walks the paths apart).  p == g: none. */
	struct nn_guard {
		uint8_t p, g;
	} nn;
	/* Dynptr masks told apart by a register (struct dp_guard below), NULL for none: a record
	 * of its own, shared by the states that hold it (a copy copies the pointer), which few
	 * states hold (a function that makes a dynptr for its caller, and its callers), so that
	 * the state every block run copies stays small. */
	const struct dp_guard *dpg;
	/* The spin lock held (absint_lock.c): none (held 0), on every path (LK_HELD) or on some
	 * (LK_MAYBE); its map (LK_MAP_ANY: not one) and the lookup id of its value (0: none). */
	struct alock {
		uint16_t map, id;
		uint8_t held;
	} lk;
	/* The RCU read-side and non-preemptible regions open (absint_region.c): the kernel's
	 * active_rcu_lock (0 or 1) and active_preempt_lock counts, least and greatest over the
	 * paths joined. */
	struct aregion {
		uint8_t plo, phi, rlo, rhi;
	} rg;
};
#define LK_HELD 1
#define LK_MAYBE 2
#define LK_MAP_ANY UINT16_MAX
/* The id of a map value LD_IMM64 gives, of a map with a spin lock (the kernel's id 0: every such
 * pointer names the one lock), which no lookup's id (aval_null_id) is. */
#define LK_ID_DIRECT UINT16_MAX

/* Dynptr masks told apart by a register (absint_dynptr.c, absint_dynptr_guard_*): on the paths
 * where register g holds 0 (m[0]) and where it does not (m[1]), those of this frame (dp, dpr)
 * or, view, of the frame this function was handed (cdp, cdpr, ctouch) — a join of a path that
 * made or released a dynptr with one that did not, told apart by a constant (a subprogram's
 * `return 0` after a reserve and `return 1` without; the kernel walks the paths apart, and the
 * caller's `if (make(&d) == 0)` takes one).  Masks of 32 slots from bit base (every bit of each
 * side's masks lies there).  A write to g, or a change of the masks, drops it.  Never changed
 * once a state points to it (absint_dynptr.c: guard_keep makes a new one); kept until the
 * analysis ends (absint_dynptr_free). */
struct dp_guard {
	uint32_t m[2][3][2];	/* [g == 0, g != 0][dp or cdp, dpr or cdpr, ctouch][may, must] */
	/* c: a register holding a copy of g (`r6 = r0` after the call; c == g: none), whose tests
	 * tell the sides as g's; a write to g leaves the guard on c */
	uint8_t g, c, base;
	uint8_t modes;	/* what tells the sides: 1 g's low 32 bits (clang's `if w0`), 2 all 64 */
	bool view;
};

/* Per loop, what its header steps found; the trip count (last pass only) is written straight
 * into the loop's claim, en->out->loops[l].trip (loop_trip): a pass over a million loops would
 * otherwise hold every trip's two strings twice. */
struct loop_result {
	struct claim_iv *ivs;
	/* per exit of the loop's summary (sym_summary.exits): the fewest iterations completed
	 * before that exit can be taken, from the last header step (0 when not known); freed
	 * with the summary when the last pass leaves the loop */
	uint64_t *exit_done;
	uint32_t nivs;
	uint32_t nexit_done;
	bool visited;	/* (last: one per loop, 32 bytes where the order made 40) */
	bool left;	/* the last pass has left the loop (flush_segment) */
	/* the kernel walks the loop to the trip count's end: no widening of the numbers that
	 * count decides (absint_header.c kernel_kept_regs), so the exit values hold for it too */
	bool kcount;
};

/* The states below are held through per-block (per-loop) pointers, allocated when first
 * written and freed as soon as the worklist can no longer come back to them (see cut and
 * flush_segment): a program of a million instructions in one straight line must not hold a
 * state for every block at once.  A missing state reads as the unreached one. */
struct engine {
	struct scev_ctx *cx;
	uint32_t func;
	uint32_t *order;	/* blocks of the function in reverse postorder */
	uint32_t n;
	struct astate **in;	/* per block: join of states along incoming edges */
	struct astate **back;	/* per loop: join along back edges (iterate strategy) */
	struct astate **hdr;	/* per loop: the state after the header step */
	uint32_t *visits;
	uint32_t *entry_gen, *exits_gen;	/* per header: growths of its entry state, and the
						 * one its exits were last sent for */
	uint8_t *queued;
	struct loop_result *res;	/* per loop */
	struct stack_span *may_stack;	/* per pc, joined over visits: the first pass's
					 * (cx->may_stack, unless seeded), the last's (stack_seen) */
	struct astate **side;	/* per block of an irreducible loop reached from a side entry:
				 * the join along edges from outside that loop (see side_arrivals) */
	struct claim_prog *out;
	/* per position in reverse postorder: 1 when no retreating edge (nor a side entry's queueing
	 * of its header) crosses from there or later to before it, so once the worklist reaches
	 * it, the blocks before it are final */
	uint8_t *cut;
	uint8_t *emit;		/* last pass: per block, whether it carries claims */
	uint8_t *reached;	/* last pass: per block, reached (kept after its state is freed) */
	uint8_t *back_live;	/* per loop: some back edge was reached with a live state */
	/* per loop: the open-coded iterators and ringbuf records (astate.it, ref) joined over its
	 * back edges, once one was reached (back_seen); the header step takes them, which carries
	 * their lifecycle around the loop where values go by the summaries */
	struct life *it_back, *ref_back, *dp_back, *dpr_back;
	uint8_t *back_seen;
	/* Verdict, last pass: per block, the states arriving along its incoming edges kept apart
	 * by their pointers' kinds (absint.c, verify_paths), at most PATHS_MAX; NULL when no path
	 * state arrived (the block is then checked from its joined state alone). */
	struct astate **paths;
	uint8_t *npaths;
	/* Last pass, per block: how many of its predecessors' checks are done (verify_paths), all
	 * their states sent; a plain block with every one done and no path state is dead. */
	uint32_t *npred_done;
	/* First pass, per loop: the registers a one-block loop only steps (absint.c, accelerate),
	 * bit 15 set once known */
	uint16_t *step_regs;
	/* Last pass, per loop: the trip counts, until the loops' claims are made (loop_trip): a
	 * claim_loop is 128 bytes, and made at the start of the pass the array of a million-
	 * instruction program's took fresh pages while the pass gave the loop summaries' back */
	struct claim_trip *trips;
	/* While send_succs sends a conditional jump's second arm: the first (fall-through) arm's
	 * state when that arm ran, else NULL */
	struct astate *arm0;
	/* last pass, per group of PAGE_GROUP loops (ids g * PAGE_GROUP ..): how many the pass has
	 * left; per group of PAGE_GROUP blocks: how many the pass has flushed.  Once all are, the
	 * pages of what they held that is cleared by then are given back (flush_segment) */
	uint16_t *left_in_group, *flushed_in_group;
	uint16_t *live_in;	/* per block: registers live at its start (computed with the first) */
	uint64_t *fills;	/* per function: bit k, a register is filled from r10 - 8(k + 1) */
	/* per block: the cells its final jump's registers were filled from (absint.c,
	 * narrow_filled_cell), found at the block's first send */
	struct jump_fill {
		int16_t off[2];	/* the jump's dst_reg, src_reg */
		uint8_t has;	/* JFILL_* */
	} *jfill;
};
#define JFILL_KNOWN 1
#define JFILL_DST 2
#define JFILL_SRC 4

/* Loops (blocks) per group whose cleared per-loop (per-block) entries give their pages back
 * together (engine.left_in_group; 32768 summaries are 1,216 pages).  Few large releases, not
 * many small ones: each madvise(MADV_DONTNEED) flushes the TLB of every CPU the process ran on
 * (an interrupt to each, slow in a virtual machine), and one that covers part of a huge page
 * splits it.  At 4096, 1M instructions of counted loops spent a third of their kernel time so
 * (docs/BENCHMARKS.md, issue 13 §4, twelfth round).  The counters are 16 bits. */
#define PAGE_GROUP 32768
_Static_assert(PAGE_GROUP <= UINT16_MAX, "engine.left_in_group counts a group in 16 bits");

/* Path states per block of the verdict (see struct engine). */
#define PATHS_MAX 8

/* The trip count of loop l as the last pass's header steps found it (zero when never visited);
 * the first pass keeps none.  In en->trips until the pass has run every block, then in the
 * loops' claims (absint_claim_loops). */
static inline struct claim_trip *loop_trip(struct engine *en, uint32_t l)
{
	return en->trips ? &en->trips[l] : &en->out->loops[l].trip;
}

/* absint_state.c */
/* s unreached and without cells, the rest left as it is: what astate__copy, astate__join (into
 * s) and astate__free need of a state, without clearing its ~900 bytes (a pass declares a few
 * such states per block it runs; nothing reads the rest of a state that is not live). */
static inline void astate__none(struct astate *s)
{
	s->live = false;
	s->cells = NULL;
	s->n = s->cap = 0;
}
void astate__free(struct astate *s);
int astate__copy(struct astate *dst, const struct astate *src);
/* What size bytes nobody knows read as (zero-extended below 8 bytes). */
struct aval absint_unknown_bytes(unsigned size);
/* What size bytes of memory the kernel reads as a number read as (its mark_reg_unknown: the
 * map values but their special fields, the packet, a map key, a ringbuf record, the context's
 * plain fields, a kernel object's members but struct pointers): an unknown scalar,
 * zero-extended below 8 bytes.  Sound whatever the bytes hold, a pointer's bytes included
 * (a privileged program may store a pointer into a map value; the kernel reads it back as
 * such a scalar, which it lets no access use). */
struct aval absint_scalar_bytes(unsigned size);
/* The prototype of helper id as called in state s: the table's (ebpf_helper_proto), and for a
 * dynptr helper given the dynptr of a bpf_user_ringbuf_drain callback, the forms modeled for
 * it (absint_callbacks.c); NULL when not modeled. */
const struct ebpf_helper_proto *absint_helper_proto(const struct astate *s, int32_t id);
/* absint_dynptr.c: whether helper id is a dynptr helper given a dynptr on the stack (the
 * pointer's region: the rest is the verdict's), and its prototype then for the helpers that make
 * or release one (read, write and data: absint_helper_proto's forms). */
bool absint_dynptr_on_stack(const struct astate *s, int32_t id);
const struct ebpf_helper_proto *absint_dynptr_proto(int32_t id);
/* The dynptr kfunc the call at pc is (DK_*), or DK_NONE. */
enum { DK_NONE, DK_FROM_SKB, DK_FROM_XDP, DK_CLONE, DK_ADJUST, DK_IS_NULL, DK_IS_RDONLY, DK_SIZE,
       DK_SLICE, DK_SLICE_RDWR };
int absint_dynptr_kfunc(const struct scev_ctx *cx, uint32_t pc);
/* A call at pc of dynptr kfunc dk: the masks and slices of s, *w the 16 bytes of the dynptr it
 * makes, *buf the bytes of this frame it writes (a slice's buffer); its result. */
struct aval absint_dynptr_kfunc_call(struct scev_ctx *cx, struct astate *s, uint32_t pc, int dk,
				     struct stack_span *w, struct stack_span *buf);
/* After the call at pc wrote its bytes: which ringbuf dynptrs of this frame share a reference
 * (a reserve's shares with none, a clone's with its original); 0 or -ENOMEM. */
int absint_dynptr_mark(struct scev_ctx *cx, struct astate *s, uint32_t pc);
/* The packet may have moved: the slices that may be a packet dynptr's die. */
void absint_dynptr_pkt_moved(struct astate *s);
/* A helper call that makes or releases a dynptr on the stack: the masks and slices of s, and
 * *w the 16 bytes it writes; false for any other call. */
bool absint_dynptr_call(struct scev_ctx *cx, struct astate *s, uint32_t pc,
			struct stack_span *w);
/* A static subprogram's dynptrs of its caller's frame: at its entry s (the caller's at its calls,
 * none made or released yet), noted at each exit s, and taken back by caller state s at the
 * return of a call to function f; each pass reads the previous one's exits (pass_start; settled:
 * the running pass saw no more than it read; same: exactly that). */
void absint_dynptr_entry(const struct scev_ctx *cx, uint32_t f, struct astate *s);
void absint_dynptr_note_exit(struct scev_ctx *cx, uint32_t f, const struct astate *s);
void absint_dynptr_return(struct scev_ctx *cx, struct astate *s, uint32_t pc, uint32_t f);
/* ... and the state after a bpf_loop call at pc whose callback cb makes or releases them. */
void absint_dynptr_cb_return(struct scev_ctx *cx, struct astate *s, uint32_t pc, uint32_t cb);
void absint_dynptr_pass_start(struct scev_ctx *cx);
/* A bpf_loop call in function caller, state s, whose callback is cb: the caller's dynptrs, which
 * the callback may use through its context pointer (absint_callbacks.c). */
void absint_dynptr_note_cb(struct scev_ctx *cx, uint32_t caller, uint32_t cb, const struct astate *s);
/* The dynptrs a call from caller in state s hands its callee (n->dmay .. drmust) and the frame
 * they are of (n->dframe): the caller's own, or those of the frame it was handed (astate.cdp),
 * when its own hold none. */
struct iter_in;
void absint_dynptr_in(const struct scev_ctx *cx, uint32_t caller, const struct astate *s,
		      struct iter_in *n);
bool absint_dynptr_exit_settled(const struct scev_ctx *cx);
bool absint_dynptr_exit_same(const struct scev_ctx *cx);
/* At a loop header (and its exits) of loop l: slices are unknown when l makes or releases
 * dynptrs. */
void absint_dynptr_loop_state(const struct scev_ctx *cx, uint32_t l, struct astate *s);
/* The dynptr guard (astate.dpg) at a join of src into dst (before their masks are joined): kept
 * where each side is told apart by the same register (true when dst's lost some of it); at an
 * instruction i about to write the registers of mask w (dropped when one is its register, moved
 * to r0 by a copy there); on
 * the arm of a branch whose state is s (the masks of the side its register now holds). */
bool absint_dynptr_guard_join(struct astate *dst, const struct astate *src);
/* The guard records the analysis made (struct dp_guard), given back at its end (absint_free). */
void absint_dynptr_free(void);
void absint_dynptr_guard_written(struct astate *s, const struct bpf_insn *i, uint32_t w);
void absint_dynptr_guard_branch(struct astate *s);
/* bpf_dynptr_data's size argument R3 at pc (any dynptr: stack or a user ringbuf sample):
 * true after a failure written into v. */
bool absint_dynptr_data_size_fails(struct scev_verdict *v, const struct astate *s, uint32_t pc);
/* absint_verdict.c: memory argument reg of name's call at pc, of size r[reg + 1] (0 allowed),
 * which the call writes (check_mem_size_reg); true after a failure written into v. */
bool absint_verify_mem_arg(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			   uint32_t pc, const char *name, unsigned reg);
/* The verdict's checks of instruction pc (true after a failure) and of an access [lo, hi) of
 * the frame. */
bool absint_dynptr_verify_insn(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			       uint32_t pc);
/* An access [lo, hi) through a, a pointer into a caller's frame (absint_cb_verify_access), that
 * may reach a dynptr live there at the calls of this function (true when it failed). */
bool absint_dynptr_verify_outer(struct scev_ctx *cx, struct scev_verdict *v,
				const struct astate *s, uint32_t pc, const struct aval *a,
				__int128 lo, __int128 hi);
bool absint_dynptr_verify_stack(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
				uint32_t pc, __int128 lo, __int128 hi, bool write);
/* Argument reg of a global function call at pc, a `struct bpf_dynptr *` (GARG_DYNPTR): an
 * initialized dynptr of this frame on every path, or one the function was itself given (true
 * when the verdict failed). */
bool absint_dynptr_verify_global_arg(struct scev_ctx *cx, struct scev_verdict *v,
				     const struct astate *s, uint32_t pc, unsigned reg,
				     const char *fname);
/* Whether a is that dynptr (REGION_DYNPTR, at its start). */
bool absint_is_urb_dynptr(const struct aval *a);
/* A REGION_BTF pointer to the vmlinux struct id (absint_transfer.c). */
struct aval absint_btf_ptr(struct scev_ctx *cx, int32_t id);
/* The same, of a trust (scev_ctx.btf_trusted): BTF_TRUSTED for a BTF context's arguments (of
 * tp_btf/, iter/ and LSM programs) and bpf_get_current_task_btf's result,
 * BTF_UNTRUSTED for a kptr loaded from a map value (PTR_UNTRUSTED: no helper or kfunc takes it),
 * BTF_PLAIN (0, false) for the others. */
enum { BTF_PLAIN, BTF_TRUSTED, BTF_UNTRUSTED };
struct aval absint_btf_ptr_as(struct scev_ctx *cx, int32_t id, uint8_t trusted);
/* Whether helper id takes a callback absint_callbacks.c models (bpf_loop,
 * bpf_for_each_map_elem, bpf_find_vma, bpf_user_ringbuf_drain). */
static inline bool absint_cb_helper(int32_t id)
{
	return id == BPF_FUNC_loop || id == BPF_FUNC_for_each_map_elem || id == BPF_FUNC_find_vma ||
	       id == BPF_FUNC_user_ringbuf_drain;
}
/* The spin lock helpers (absint_lock.c). */
static inline bool absint_lock_helper(int32_t id)
{
	return id == BPF_FUNC_spin_lock || id == BPF_FUNC_spin_unlock;
}
/* The timer helpers (absint_timer.c): bpf_timer_init, _set_callback, _start, _cancel. */
static inline bool absint_timer_helper(int32_t id)
{
	return id == BPF_FUNC_timer_init || id == BPF_FUNC_timer_set_callback ||
	       id == BPF_FUNC_timer_start || id == BPF_FUNC_timer_cancel;
}
struct aval astate__load(const struct astate *s, int64_t off, unsigned size);
/* Whether every byte of [lo, hi) lies in a cell holding the number 0: a load anywhere in it
 * reads 0, whatever its offset (the kernel's STACK_ZERO slots read at a variable offset). */
bool astate__zero_over(const struct astate *s, int64_t lo, int64_t hi);
/* What the cells of s hold over [lo, hi), for the unprivileged rule on helper memory: NUMS_ALL
 * every byte lies in a cell holding a number; else NUMS_PTR a cell there holds a pointer; else
 * NUMS_MAYBE (a byte no cell places may be a spilled pointer: a join lost it, a store at a
 * variable offset cut it). */
enum nums_over { NUMS_ALL, NUMS_MAYBE, NUMS_PTR };
enum nums_over astate__nums_over(const struct astate *s, int64_t lo, int64_t hi);
/* What the kernel's stack slot holding [off, off + size) (one 8-byte slot of this frame) holds,
 * as the cells of s say (kernel/bpf/verifier.c: slot_type and spilled_ptr) — the one reading of
 * the cells that the stores' scrub (absint_transfer.c stack_spill, astate__scrub_slots), the
 * constant map key (key_kernel_const) and the narrow fill rule (absint_verdict.c) share:
 *   spill    the size of the cell at the slot's start (a spill there, check_stack_write_fixed_off;
 *            privileged loads: an unprivileged one spills numbers only in 8 bytes), 0 when none;
 *   zero     every byte of [off, off + size) lies in cells holding 0 that are no spill (STACK_ZERO);
 *   ptr      over the whole slot: NUMS_PTR a cell holds a pointer, else NUMS_MAYBE a cell holds a
 *            value of no known kind (a join of a pointer and another value, astate__join_regs),
 *            else NUMS_ALL (bytes no cell places held no pointer on every path: a join keeps a
 *            cell of no known kind where one side may hold one). */
struct kslot {
	int64_t slot;
	unsigned spill;
	bool zero;
	enum nums_over ptr;
};
struct kslot astate__kslot(const struct astate *s, int64_t off, unsigned size, bool priv);
/* The kernel's scrub_spilled_slot for a write of [lo, hi) that is no spill (a narrow store off
 * the slot's start, a helper's output, a callee's or callback's write into this frame, a store at
 * a variable offset, an atomic): in each slot it touches that holds a spill, the cells outside
 * [lo, hi) become numbers of no known value (STACK_MISC: the slot is no spill any more; corpus
 * array_lookup_key_helper_half_unsafe).  A write that only may happen (a callee's) scrubs too:
 * the path that did not write keeps the spill's value, which the runs read, but no constant the
 * kernel knows on both.  (A cell there that is no number is a pointer spilled narrower than 8
 * bytes, which the kernel refused.) */
void astate__scrub_slots(struct astate *s, int64_t lo, int64_t hi);
void astate__invalidate(struct astate *s, int64_t lo, int64_t hi);
/* Bytes [lo, hi) a call may have written (a callee's, a callback's, through pointers into this
 * frame): the cells there holding numbers go, those that may hold a pointer stay as cells of no
 * known kind — on the path that did not write, the kernel still holds the spilled pointer, which
 * it reads back only whole (corpus callee_maybe_store_caller_ptr_narrow). */
void astate__forget(struct astate *s, int64_t lo, int64_t hi);
void astate__invalidate_mask(struct astate *s, const struct fpmask *m);
int astate__store(struct astate *s, int64_t off, unsigned size, const struct aval *v);
int astate__join(struct astate *dst, const struct astate *src, bool widen);
/* One register (or cell) of astate__join: *dst := *dst ⊔ *src (or the widening); whether *dst
 * changed.  Most joins meet equal values: those skip the join and its bounds sync. */
static inline bool astate__join_val(struct aval *dst, const struct aval *src, bool widen)
{
	struct aval v;

	if (aval_equal(dst, src))
		return false;
	v = widen ? aval_widen(dst, src) : aval_join(dst, src);
	if (aval_equal(&v, dst))
		return false;
	*dst = v;
	return true;
}
/* The same, a packet fact of one side kept guarded only by a register of guards (bit r: the
 * registers live after the join; a dead one's guard is of no use). */
int astate__join_guards(struct astate *dst, const struct astate *src, bool widen, uint16_t guards);
/* The same, adding to *regs (when not NULL) bit r for each register r that changed. */
int astate__join_regs(struct astate *dst, const struct astate *src, bool widen, uint16_t guards,
		      uint16_t *regs);
/* Maybe-null identities (aval.h): a null check of one holder of id decides them all; a new
 * lookup result takes its id from older holders; a state not made by running instructions
 * (a loop header's, an exit's from the entry) holds none. */
void astate__settle_null(struct astate *s, uint16_t id, bool is_null, bool keep_id);
void astate__drop_id(struct astate *s, uint16_t id);
void astate__drop_ids(struct astate *s);
/* Packet bytes proven beyond base id (0 when nothing is); at least range proven; id forgotten
 * (the holders of id keep it: callers drop them); every base forgotten. */
uint16_t astate__pkt_range(const struct astate *s, uint16_t id);
/* The same, only what holds in s as it is (guards checked against s's registers). */
uint16_t astate__pkt_range_here(const struct astate *s, uint16_t id);
/* The guarded entries instruction i (an ALU instruction writing its dst) carries over, as
 * they read after it: a guard copied to dst (64-bit mov), or a guard in dst written one-to-one
 * on the values dst may hold (add/sub/xor of a constant, neg, a shift whose dropped bits tell
 * no values apart, w = w); out has room for PKT_VARS.  Returns how many. */
int astate__pkt_guards_moved(const struct astate *s, const struct bpf_insn *i,
			     struct pkt_var *out);
/* The registers s's guarded entries name (bit greg): only an instruction writing one, or a
 * 64-bit mov from one, can move a guard (absint_step calls astate__pkt_guards_moved only then;
 * most states have none). */
static inline uint32_t astate__pkt_guard_regs(const struct astate *s)
{
	uint32_t m = 0;

	for (int k = 0; k < PKT_VARS; k++)
		if (s->pkt_var[k].range && s->pkt_var[k].greg != PKT_NO_GUARD)
			m |= 1u << (s->pkt_var[k].greg & 31);
	return m;
}
/* Facts whose guard holds in s (its register holds gval on every path: after a branch on it)
 * hold unguarded. */
void astate__pkt_guards_settle(struct astate *s);
/* The null guard (struct astate: nn): whether s has one; after instruction i (old: its
 * destination register before it), the guard kept only when i writes neither register or
 * writes g one-to-one (g &= mask with every bit g may hold in the mask); at a branch's arm, a
 * guard whose g is not 0 there makes p not NULL. */
static inline bool astate__nn_any(const struct astate *s)
{
	return s->nn.p != s->nn.g;
}
void astate__nn_written(struct astate *s, const struct bpf_insn *i, const struct aval *old);
void astate__nn_settle(struct astate *s);
/* Adds fact f (guarded or not) unless one as strong is there. */
void astate__pkt_add(struct astate *s, const struct pkt_var *f);
/* Drops the entries guarded by the registers in mask (written). */
void astate__pkt_regs_written(struct astate *s, uint32_t mask);
void astate__pkt_prove(struct astate *s, uint16_t id, uint64_t range);
void astate__pkt_forget(struct astate *s, uint16_t id);
void astate__pkt_forget_all(struct astate *s);

/* The map whose handle stands for map m (absint_transfer.c: maps the verifier cannot tell
 * apart share one), and whether m stands for others too (then a claim naming m may be about
 * another map: none is made). */
uint16_t absint_map_class(const struct scev_ctx *cx, uint32_t m);
bool absint_map_shared(const struct scev_ctx *cx, uint16_t m);

/* What later passes read of a loop's header state in the first pass (live, registers and
 * cells), kept for every loop between passes: registers that are unknown (aval_top()) or the
 * frame pointer as functions start with it are not stored, so a loop costs a few dozen bytes
 * instead of a whole state. */
struct hdr_pack {
	bool live;
	/* no back edge of the (reducible) loop was reached with a live state in that pass, which
	 * covers every run: no run goes round, the header runs at most once per entry */
	bool once;
	uint16_t stored;	/* bit r: regs[r] is in v (in register order) */
	uint16_t frame;		/* bit r: regs[r] is the frame pointer at offset 0; others top */
	struct nn_guard nn;	/* the null guard */
	uint32_t n;		/* cells */
	struct aval *v;		/* the stored registers */
	struct acell *cells;	/* as in the state: sorted by off, disjoint */
};

/* p := the live state s's registers and cells (p empty before); 0 or -ENOMEM. */
int hdr_pack__set(struct hdr_pack *p, const struct astate *s);
void hdr_pack__free(struct hdr_pack *p);
/* Register r of the live state in p: the top value when not stored, r10 the frame pointer
 * when p->frame says so. */
struct aval hdr_pack__reg(const struct hdr_pack *p, int r);
/* astate__load over the live state in p (its cells). */
struct aval hdr_pack__load(const struct hdr_pack *p, int64_t off, unsigned size);

/* The per-block (per-loop) state pointers of struct engine; absent reads as unreached. */
extern const struct astate absint_unreached;

static inline const struct astate *st_peek(struct astate *const *v, uint32_t i)
{
	return v[i] ? v[i] : &absint_unreached;
}

/* The state at v[i] for writing, unreached when new (a spare one of cx's if there is one);
 * NULL when memory ran out. */
struct astate *st_new(struct scev_ctx *cx);
static inline struct astate *st_get(struct scev_ctx *cx, struct astate **v, uint32_t i)
{
	if (!v[i])
		v[i] = st_new(cx);
	return v[i];
}

/* Where v[i] is absent: v[i] := a copy of the live state src, what the join of src into
 * st_get's new unreached state gives, without clearing the new state first — 1 (changed), or
 * -ENOMEM.  0, and nothing done, when v[i] is there (the caller joins). */
int st_copy_new(struct scev_ctx *cx, struct astate **v, uint32_t i, const struct astate *src);

/* Lets the state at v[i] go: kept among cx's spare states (its cells array too). */
void st_release(struct scev_ctx *cx, struct astate *s);
void st_spare_free(struct scev_ctx *cx);
/* A visit's own state: st_cells_lend gives it (with no cells) one of cx's spare cell arrays,
 * st_cells_return frees it as astate__free, keeping its array for the next. */
void st_cells_lend(struct scev_ctx *cx, struct astate *s);
void st_cells_return(struct scev_ctx *cx, struct astate *s);
static inline void st_drop(struct scev_ctx *cx, struct astate **v, uint32_t i)
{
	if (v[i]) {
		st_release(cx, v[i]);
		v[i] = NULL;
	}
}

/* absint_transfer.c: one instruction on s. */
int absint_step(struct engine *en, struct astate *s, uint32_t pc);
/* The packet may have moved: packet pointers and what was known of its length die. */
void absint_pkt_moved(struct astate *s);
/* Static function f's entry s: what every call of it proved of the packet (scev_ctx.fn_pkt). */
void absint_pkt_entry(const struct scev_ctx *cx, uint32_t f, struct astate *s);
/* An exit of function f in state s: what it proves of data, joined into fn_exit_acc[f]. */
void absint_exit_pkt_note(struct scev_ctx *cx, uint32_t f, const struct astate *s);
/* After the call at pc (its registers written): what the callee's exits prove of data
 * (scev_ctx.fn_exit), in the caller's s. */
void absint_call_exit_pkt(const struct scev_ctx *cx, struct astate *s, uint32_t pc);
/* Whether an iteration of loop l may move the packet (a call that may). */
bool absint_loop_moves_pkt(const struct scev_ctx *cx, uint32_t l);

/* absint_header.c: H from the state E entering loop l.  parts, when not NULL, are two states
 * E joins (an irreducible loop's entry at its header, and its side entries' first arrivals
 * there): an exit with no bound over E may have one over each. */
int absint_header_step(struct engine *en, uint32_t l, const struct astate *E,
		       const struct astate *const *parts, struct astate *H);
int absint_refine_exit(struct engine *en, uint32_t from, uint32_t to, struct astate *st);

/* absint.c: b is the header of a loop whose state the header step computes (loop in *l). */
bool absint_is_header(const struct scev_ctx *cx, uint32_t b, uint32_t *l);

/* absint_claims.c */
void absint_put_claims(struct engine *en, const struct astate *s, uint32_t pc);
int absint_fill_loops(struct engine *en, struct claim_prog *out);
/* The loops' claims, made once the last pass has run every block (their trip counts moved
 * there from en->trips): 0 or -ENOMEM. */
int absint_claim_loops(struct engine *en, struct claim_prog *out);

/* absint_callbacks.c: a bpf_loop call's r0, noting the callback's arguments and the bytes of
 * the caller's frame it may read; the entry state of a callback; the kernel's rules at the call
 * and at a callback's exit (true when pc is one of those, checked), and for an access [lo, hi)
 * through a REGION_CALLER_STACK pointer (true when it failed). */
struct aval absint_cb_call(struct engine *en, struct astate *s, uint32_t pc,
			   struct stack_span *writes);
/* A store or helper write of size bytes at a + off: noted when it may land in another
 * function's frame (REGION_CALLER_STACK, or an unknown pointer outside the main function); and
 * a write nothing places at all. */
/* A call in function f passes a pointer into f's frame (bpf_loop's ctx, a bpf-to-bpf
 * argument): the bytes f wrote before it (s->sinit) join what its callees may read. */
void absint_cb_note_frame(struct scev_ctx *cx, uint32_t f, const struct astate *s);
/* A load at pc of size bytes at a + off, a pointer into a caller's frame (REGION_CALLER_STACK):
 * the caller's cell as its calls left it (scev_ctx.outer_frame), seen from this frame
 * (callee_view); where writes through such pointers may have changed it (outer_write), joined
 * with what they wrote (outer_wval), or as it is when nothing of this call can have written it
 * yet (a callback run once per call, before any write); else unknown bytes.  Packet pointers
 * are read only from the frames of functions in pkt_frames (bit f: no helper changed packet
 * data since that frame's call, scev/internal.h fn_pkt). */
struct aval absint_caller_load(const struct scev_ctx *cx, uint64_t pkt_frames,
				const struct aval *a, int64_t off, unsigned size, uint32_t pc);
/* val: what the write stores (NULL: unknown bytes, as a helper's or an atomic's) */
void absint_cb_note_write(struct scev_ctx *cx, uint32_t pc, const struct aval *a, int64_t off,
			  uint64_t size, const struct aval *val);
/* The same for an iterator kfunc's write of its 8-byte slot at a (a caller's frame). */
void absint_cb_note_iter_write(struct scev_ctx *cx, uint32_t pc, const struct aval *a);
/* A callback helper's call at pc is about to forget w, what its callbacks may write in this
 * frame: keep gets the cells of w whose writes left known values, each joined with what s holds
 * there (no call or no write); absint_cb_restore puts them back after.  0 or -ENOMEM. */
int absint_cb_kept(const struct scev_ctx *cx, const struct astate *s, uint32_t pc,
		   const struct stack_span *w, struct astate *keep);
int absint_cb_restore(struct astate *s, const struct astate *keep);
void absint_cb_note_unknown(struct scev_ctx *cx, uint32_t pc);
void absint_cb_entry(const struct scev_ctx *cx, uint32_t f, struct astate *s);
bool absint_cb_verify_insn(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			   uint32_t pc);
/* The stack depth of function f (scev_ctx.fn_stack) grown to cover the byte at lo (< 0) below
 * its r10, rounded up to 8 as the kernel's grow_stack_state grows a subprogram's stack_depth:
 * every access the verdict checks in a frame (its own loads and stores, a helper's or kfunc's
 * memory, an iterator's slot, a callee's access through a pointer into it) calls it. */
void absint_frame_depth(struct scev_ctx *cx, uint32_t f, __int128 lo);
bool absint_cb_verify_access(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			     const struct aval *a, uint32_t pc, __int128 lo, __int128 hi, bool write);
/* astate__nums_over for bytes [lo, hi) of the callers' frames a (REGION_CALLER_STACK) may point
 * into, at a call a callee makes: their cells at the calls that pass a pointer into them
 * (outer_frame), and where callees may have written (outer_write) what they wrote (outer_wval);
 * NUMS_MAYBE when either is not known. */
/* The marks of stack slots that may hold a spilled pointer (scev_ctx
 * ptr_spill): a store of v at [lo, hi) of function f's frame (f UINT32_MAX: a stack address
 * not placed; only a known pointer marks), and whether a slot of [lo, hi) of f's frame may
 * hold one. */
void absint_spill_note(struct scev_ctx *cx, uint32_t f, int64_t lo, int64_t hi,
		       const struct aval *v);
bool absint_spill_may(const struct scev_ctx *cx, uint32_t f, __int128 lo, __int128 hi);
enum nums_over absint_cb_nums_over(const struct scev_ctx *cx, const struct aval *a, __int128 lo,
				   __int128 hi);
/* The callback the helper call at pc takes (callbacks.h), or NULL; a callback's arguments
 * r1-r5 at one call, joined into what its next analysis starts from. */
const struct scev_cb_loop *absint_cb_at(const struct scev_ctx *cx, uint32_t pc);
/* The callback of the helper call at pc (name: the helper's, for the messages), as the verdict
 * checks it: NULL with v failed (unsupported) when it is not known (no function address loaded
 * into R2 in the same block, a callback the analysis cannot run, or one no call was seen to take
 * while the function summaries did not settle).  *dead: no call was seen to take it and the
 * summaries settled (cb_unseen_dead), so no run calls it here and it is not run
 * (absint_cb_entry): its arguments are not checked.  The one dead-callback rule of every
 * callback-taking helper, bpf_timer_set_callback's included. */
const struct scev_cb_loop *absint_cb_of_call(struct scev_ctx *cx, struct scev_verdict *v,
					     uint32_t pc, const char *name, bool *dead);
void absint_cb_args_join(struct scev_ctx *cx, uint32_t func, const struct aval a[6]);

/* absint_timer.c: the timer helpers' prototypes as the analysis takes them (the timer and the
 * callback checked apart); at a bpf_timer_set_callback call, its callback's arguments; the
 * kernel's rules at a timer helper's call (true when it failed); whether [lo, hi) of map m's
 * value touches its struct bpf_timer; the map a timer callback given map m's timers is
 * analyzed with (m, or the lowest map of the same definition it is also given: canon), and
 * whether m is one of several such maps (aliased: no claim names it).  (absint_timer_maps_check: internal.h) */
const struct ebpf_helper_proto *absint_timer_proto(int32_t id);
uint32_t absint_timer_canon(const struct scev_ctx *cx, uint32_t m);
bool absint_timer_aliased(const struct scev_ctx *cx, uint32_t m);
void absint_timer_call(struct scev_ctx *cx, const struct astate *s, uint32_t pc);
bool absint_timer_verify_insn(struct scev_ctx *cx, struct scev_verdict *v,
			      const struct astate *s, uint32_t pc);
bool absint_timer_overlaps(const struct scev_ctx *cx, uint32_t m, __int128 lo, __int128 hi);

/* absint_lock.c: the lock helpers' prototypes as the analysis takes them (the lock checked
 * apart); whether map m's value holds a spin lock (its lookups' results keep their id); d := d
 * joined with s (true when d changed); a helper call's effect on the lock held (and the id of a
 * lookup that surely finds, r0); the kernel's lock rules at pc (true when it failed). */
const struct ebpf_helper_proto *absint_lock_proto(int32_t id);
bool absint_lock_map(const struct scev_ctx *cx, uint32_t m);
bool absint_lock_join(struct alock *d, const struct alock *s);
void absint_lock_call(struct scev_ctx *cx, struct astate *s, uint32_t pc, struct aval *r0);
bool absint_lock_verify_insn(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			     uint32_t pc);
/* absint_lock.c, static functions that take or release the lock: the lock state function f
 * starts with (its calls'); a call at pc of a static function: what it is given noted, s's lock
 * the one its exits leave; an exit of f with state s noted. */
void absint_lock_entry(const struct scev_ctx *cx, uint32_t f, struct astate *s);
void absint_lock_call_return(struct scev_ctx *cx, struct astate *s, uint32_t pc);
void absint_lock_exit(struct scev_ctx *cx, uint32_t f, const struct astate *s);

/* absint_fields.c: the special fields of map values (spin locks, kptrs, ...).  The field of map
 * m's value that bytes [lo, hi) overlap (NULL: none); what a load of it gives (a kptr: an
 * untrusted kernel object or NULL; else an unknown value, the load being refused); the kernel's
 * rules at the access at pc of size bytes [lo, hi) through pointer a (true when it failed). */
const struct ebpf_map_field *absint_map_field(const struct scev_ctx *cx, uint32_t m,
					      __int128 lo, __int128 hi);
struct aval absint_field_load(struct scev_ctx *cx, const struct ebpf_map_field *f,
			      const struct aval *addr, const struct bpf_insn *i, unsigned size);
bool absint_fields_verify(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			  uint32_t pc, const struct aval *a, __int128 lo, __int128 hi, unsigned size);

/* absint_global.c (the parts scev.c calls are in internal.h): how the kernel takes an argument
 * of a global function's prototype; the argument registers written at f's entry; a call of g
 * at s: r0 and the caller's frame bytes (*w) it may write. */
/* (GARG_DYNPTR: a `struct bpf_dynptr *`, which the kernel takes as an initialized dynptr of the
 * caller, the function's a read-only CONST_PTR_TO_DYNPTR: REGION_DYNPTR, absint_dynptr.c) */
enum global_arg { GARG_SCALAR, GARG_CTX, GARG_MEM, GARG_BAD, GARG_UNMODELED, GARG_DYNPTR };
enum global_arg absint_global_arg(const struct scev_ctx *cx, const struct ebpf_func_arg *a);
uint16_t absint_global_init(const struct scev_ctx *cx, uint32_t f);
struct aval absint_global_call(struct scev_ctx *cx, const struct astate *s, uint32_t pc,
			       const struct ebpf_global_func *g, struct stack_span *w);

/* absint_iter.c: a call of an iterator kfunc on a constant r10 slot: r0 and the slot's bytes
 * (*w) it writes (false: not one, or its slot is not placed); a load through next's result; the
 * trip claims of iterator loops at the end of the last pass. */
bool absint_iter_call(struct engine *en, struct astate *s, uint32_t pc, struct aval *r0,
		      struct stack_span *w);
/* Whether the call at pc returns nothing (bpf_iter_num_destroy: r0 is not written). */
bool absint_iter_void(const struct scev_ctx *cx, uint32_t pc);
/* absint_iter.c: a bpf-to-bpf call of static function callee from caller in state s: the
 * caller's iterators at it, for the callee's checks in the next pass. */
void absint_iter_note_call(struct scev_ctx *cx, uint32_t caller, uint32_t callee,
			   const struct astate *s);
/* The facts a call from caller in state s gives, joined into *a (a static function's at its
 * calls, a bpf_loop callback's at the bpf_loop calls: absint_dynptr.c); at a pass's start, the
 * ones the pass that ended saw (acc, then emptied) become the ones the next reads (used; join:
 * a re-run, joined with them so they only grow), for n functions. */
void absint_iter_in_note(const struct scev_ctx *cx, struct iter_in *a, uint32_t caller,
			 const struct astate *s);
void absint_iter_in_start(struct iter_in *used, struct iter_in *acc, uint32_t n, bool join);
/* absint_iter.c: a write of [lo, hi) into frame f other than an iterator call's: whether it may
 * reach an iterator slot of f noted so far (then iterator trips in f's callees are not claimed). */
void absint_iter_note_outer_write(struct scev_ctx *cx, uint32_t f, int64_t lo, int64_t hi);
/* absint_iter.c: whether a callee reading or writing [lo, hi) of frame f through a pointer may
 * touch an iterator slot live in f while it runs (verdict: unsupported, as in f itself) */
bool absint_iter_verify_outer(struct scev_ctx *cx, struct scev_verdict *v, uint32_t pc,
			      const struct aval *a, __int128 lo, __int128 hi);
/* The call at pc is bpf_iter_num_new, _next or _destroy (which write their iterator and
 * nothing else: no packet move). */
bool absint_iter_kfunc(const struct scev_ctx *cx, uint32_t pc);
/* absint_transfer.c: the call (or LD_ABS/LD_IND) at pc leaves r0 written: not tail_call, a void
 * kfunc, nor a static function that may exit with r0 unwritten (scev_ctx.fn_r0). */
bool absint_call_sets_r0(const struct scev_ctx *cx, uint32_t pc);
/* The verdict's checks of an iterator kfunc call, an exit, or a stack access or call that may
 * reach a live iterator; true when the instruction is the iterators' alone to check (a kfunc
 * call: no other check applies). */
bool absint_iter_verify_insn(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			     uint32_t pc);
bool absint_iter_verify_stack(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			      uint32_t pc, __int128 lo, __int128 hi);
struct aval absint_iter_load(const struct scev_ctx *cx, const struct aval *a, uint32_t pc,
			     int64_t off, unsigned size);
int absint_iter_trips(struct engine *en);
/* Whether loop l is left when the next of an iterator over kernel objects (task, css, ...)
 * returns NULL: a loop the kernel accepts without a count, which the verdict answers
 * unsupported when its trip did not get ends_by (absint_iter.c could not tell that next alone
 * ends it). */
bool absint_iter_loop_unmodeled(const struct engine *en, uint32_t l);

/* absint_enum.c: a bound on the header executions per entry of loop l from entry state E, found
 * by enumerating its header states of known numbers (see there): 1 with *T set, 0 when none is
 * found, or -ENOMEM. */
int absint_enum_trip(struct scev_ctx *cx, uint32_t l, const struct astate *E, uint64_t *T);

/* absint_ref.c: a ringbuf call's effect on s (r0 for a reserve: a record of its site, the
 * caller gives it its maybe-null id); a null check of before, decided; a loop header's or
 * exit's state of loop l made safe for the records (see there); the verdict's checks of an
 * instruction (exits, tail calls, LD_ABS, calls given a record, the ringbuf calls' own rules),
 * of an argument of kind HARG_ALLOC_SIZE or HARG_RINGBUF_RELEASE, and of an access [lo, hi)
 * through a record. */
void absint_ref_call(const struct scev_ctx *cx, struct astate *s, uint32_t pc, struct aval *r0);
void absint_ref_null(const struct scev_ctx *cx, struct astate *s, const struct aval *before,
		     bool is_null);
void absint_ref_loop_state(const struct scev_ctx *cx, uint32_t l, struct astate *s);
/* absint_region.c: the RCU and preemption regions: the join (or widening) of two states'
 * counts (whether *d changed); a region kfunc's effect on s; the verdict's checks of the
 * instruction at pc. */
bool absint_region_join(struct aregion *d, const struct aregion *s, bool widen);
void absint_region_call(const struct scev_ctx *cx, struct astate *s, uint32_t pc);
void absint_region_verify_insn(struct scev_ctx *cx, struct scev_verdict *v,
			       const struct astate *s, uint32_t pc);
/* absint_ref.c: whether a record settled not NULL keeps its maybe-null id (its site's: a null
 * check of a join of it with 0 settles the reference, absint_ref_join_zero); the join of record
 * p with the number z of a side holding the references z_may, into *out (false: not that). */
bool absint_ref_keep_id(const struct scev_ctx *cx, const struct aval *before);
bool absint_ref_join_zero(const struct aval *p, const struct aval *z, uint64_t z_may,
			  struct aval *out);
void absint_ref_verify_insn(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			    uint32_t pc);
void absint_ref_verify_arg(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			   uint32_t pc, const char *name, unsigned reg, enum ebpf_harg kind);
void absint_ref_verify_access(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			      const struct aval *a, uint32_t pc, __int128 lo, __int128 hi);
/* absint_ref.c, kfuncs that acquire or release kernel objects (bpf/kfunc.c's table): whether the
 * call at pc is one; its arguments as check_kfunc_args decides them (R1 a trusted or referenced
 * object of the struct, not NULL, at offset 0; a release's acquired and held on every path); an
 * access through an acquired object: held on every path (then as any kernel object's). */
bool absint_ref_kfunc(const struct scev_ctx *cx, uint32_t pc);
void absint_ref_verify_kfunc(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			     uint32_t pc, const struct ebpf_kfunc_ref *kf);
void absint_ref_verify_kref(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			    const struct aval *a, uint32_t pc);
/* absint_kfunc.c, kfuncs modeled from their prototype (bpf/kfunc_table.c, op not NONE): whether
 * the call at pc is one, and one returning void; its effect on r0 (a number of any value, or
 * left as the caller set it); the verdict's checks of a call of any kfunc of the table: the
 * program types that may call it, its arguments (for a reference kfunc, the numbers after its
 * object). */
bool absint_kfunc_plain(const struct scev_ctx *cx, uint32_t pc);
/* Whether the program is sleepable (libbpf's SEC_SLEEPABLE sections: "fentry.s/", "lsm.s/",
 * "iter.s/", ...; syscall programs), where the kernel wants KF_RCU_PROTECTED kfuncs inside an
 * explicit bpf_rcu_read_lock (not modeled). */
bool absint_sleepable(const struct scev_ctx *cx);
bool absint_kfunc_void(const struct scev_ctx *cx, uint32_t pc);
void absint_kfunc_call(const struct scev_ctx *cx, uint32_t pc, struct aval *r0);
void absint_kfunc_verify_insn(struct scev_ctx *cx, struct scev_verdict *v,
			      const struct astate *s, uint32_t pc);
/* A use of socket a (REGION_SOCK) at pc: one of a lookup, held on every path (absint_ref.c). */
void absint_ref_verify_sock(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			    const struct aval *a, uint32_t pc);
/* bpf_sk_release's argument reg, a socket at offset 0: one a lookup acquired, held. */
void absint_ref_verify_sock_release(struct scev_ctx *cx, struct scev_verdict *v,
				    const struct astate *s, uint32_t pc, unsigned reg,
				    const char *name);

/* absint_verdict.c */
/* Records the first failure only: a verdict that is already not safe keeps its kind, pc and
 * reason.  Each checker wraps it in a macro that also returns from the check. */
void verdict_fail(struct scev_verdict *v, uint8_t kind, uint32_t pc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Replays block b on s with the checks into v, up to its final jump or call (checked, not
 * run); ctx_kinds (optional, a byte per slot of b): bit 0 a load or store there went through
 * the context, bit 1 through another pointer, bit 2 through a kernel object (REGION_BTF).
 * With claims, also records the claims of each instruction (absint_put_claims), as the last
 * pass's claims run of the block from the same state would (absint.c, verify_paths). */
int absint_verify_run(struct engine *en, uint32_t b, struct astate *s, struct scev_verdict *v,
		      uint8_t *ctx_kinds, bool claims);
int absint_verify_loops(struct engine *en);

/* absint_throw.c: BPF exceptions (internal.h: absint_throw_ends, absint_throw_is_exc_cb).
 * Whether pc calls bpf_throw (the block ends there, cfg.h); the checks at pc (true when the
 * verdict is no longer safe). */
bool absint_throw_kfunc(const struct scev_ctx *cx, uint32_t pc);
/* Whether the kernel's check_cfg reaches block b, which no run reaches: it follows the code
 * after a bpf_throw. */
bool absint_throw_kernel_reach(const struct scev_ctx *cx, uint32_t b);
bool absint_throw_verify_insn(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			      uint32_t pc);
/* absint_verdict.c: the program type's rule for the result in r0 at a program's exit
 * (check_return_code), for the exception callback's exits. */
void absint_verify_return(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			  uint32_t pc);

#endif
