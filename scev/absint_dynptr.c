/* Dynptrs on the stack in the range analysis and the verdict, as the kernel's verifier treats
 * them (kernel/bpf/verifier.c: mark_stack_slots_dynptr, is_dynptr_reg_valid_init/_uninit,
 * destroy_if_dynptr_stack_slot, check_reference_leak; kernel/bpf/helpers.c, ringbuf.c):
 *
 * - bpf_dynptr_from_mem(data, size, flags, &d) makes a local dynptr over size bytes of a map
 *   value (the kernel refuses any other memory: "Unsupported reg type ... for
 *   bpf_dynptr_from_mem data"); flags other than 0 leave it invalid (NULL data) and return
 *   -EINVAL, which is no verifier matter: the slot holds a dynptr either way.
 * - bpf_ringbuf_reserve_dynptr(map, size, flags, &d) makes a ringbuf dynptr, a reference that
 *   must be released by bpf_ringbuf_submit_dynptr or bpf_ringbuf_discard_dynptr on every path
 *   even when the reserve failed (its dynptr is then NULL): exit, tail call or LD_ABS with one
 *   live is a leak.
 * - A dynptr is 16 bytes of the frame at a constant, 8-aligned offset (the kernel's two
 *   STACK_DYNPTR slots): the helpers that make one want the bytes not to hold a ringbuf dynptr
 *   ("cannot overwrite referenced dynptr"); a local one there is destroyed first.  The other
 *   dynptr helpers want an initialized one ("Expected an initialized dynptr"); submit and
 *   discard a ringbuf one ("arg 1 is an unacquired reference").  Its bytes cannot be read
 *   ("invalid read from stack") and a ringbuf one's not written.
 * - bpf_dynptr_data(&d, off, len) gives len bytes (a constant) or NULL: REGION_DYNPTR_MEM, as
 *   for a bpf_user_ringbuf_drain sample; the kernel invalidates these slices when their dynptr
 *   is released or destroyed.
 *
 * The state holds, per 8-byte slot k (fp - 8(k + 1)), whether a dynptr starting there is live
 * on some path / on every path (astate.dp), and whether it is a ringbuf one (astate.dpr).
 * Loop headers carry both around the loop as the iterators' lives (absint.c).  A release or
 * re-initialization turns the slices into unknown scalars when no other dynptr is live (the
 * kernel's mark_reg_invalid), else into unknown values (which dynptr they came from is not
 * kept); in a loop that makes or releases dynptrs, slices at the header are unknown values.
 *
 * A static subprogram or a bpf_loop callback may use, make or release a dynptr of the frame it
 * was handed (its caller's, or one further up when its caller was handed it in turn:
 * absint_dynptr_in); what its exits leave is given back at the call's return (a bpf_loop
 * callback's joined with the state before the call, and each of its calls starts from the
 * calls' facts joined with its exits').
 *
 * A callee that makes or releases them on some of its paths only is walked apart by the kernel,
 * which may tell the paths by its result (`if (make(&d) == 0) { ...; submit }`): the state keeps
 * the masks of each side of a join where a register holds 0 on one side and not on the other
 * (astate.dpg, the guard: by all 64 bits, or by the low 32 as clang's `w0 = -1` and `if w0`
 * test); a function's exits are noted in two classes by r0 (dp_exit.k), its caller's state after
 * the return holds a guard on r0 with each class's masks, and a branch on the guard's register
 * takes its side's.  A write to the register (but its copy into r0), a change of the masks, a
 * loop header drop it.  The unsafe verdicts of such programs stay unsupported (dp_out: the kernel
 * may also tell the paths by what else the callee left, a flag written through a pointer).
 * A middle function holding dynptrs of its own while it hands its caller's on gives its callee
 * the handed frame's facts when none of the arguments point into its own frame; its own are
 * then out of the callee's reach (iter_in.omay: any access there is answered unsupported).
 *
 * What is not modeled is answered unsupported: dynptrs outside the main function (callbacks
 * keep their bpf_user_ringbuf_drain sample, absint_callbacks.c), a slot not at a constant offset
 * of the frame (one not 8-aligned, or whose second slot is above the frame pointer, is unsafe
 * wherever it is: "cannot pass in dynptr at an offset=N"), one overlapping another live dynptr
 * or an iterator, a store into a local
 * dynptr (the kernel destroys it), reads of a dynptr's bytes live on some paths only, and calls
 * given a pointer into the frame while a dynptr is live (but plain helpers, whose memory
 * arguments are checked as accesses).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bpf/helper_proto.h"
#include "scev/absint.h"
#include "util/arena.h"

#define EINVAL_ 22

/* (DP_MAKE: a kfunc's make, bpf_dynptr_from_skb, _from_xdp, _clone: a local dynptr, or the
 * clone of a ringbuf one, whose other arguments the kfunc checks) */
enum { DP_OTHER, DP_FROM_MEM, DP_RESERVE, DP_RELEASE, DP_USE, DP_MAKE };

static int dp_kind(int32_t id)
{
	switch (id) {
	case BPF_FUNC_dynptr_from_mem: return DP_FROM_MEM;
	case BPF_FUNC_ringbuf_reserve_dynptr: return DP_RESERVE;
	case BPF_FUNC_ringbuf_submit_dynptr:
	case BPF_FUNC_ringbuf_discard_dynptr: return DP_RELEASE;
	case BPF_FUNC_dynptr_read:
	case BPF_FUNC_dynptr_write:
	case BPF_FUNC_dynptr_data: return DP_USE;
	default: return DP_OTHER;
	}
}

/* The kind of the call at pc: a dynptr helper's, DP_MAKE for a dynptr kfunc that makes one,
 * DP_USE for the other dynptr kfuncs. */
static int call_kind(const struct scev_ctx *cx, uint32_t pc)
{
	const struct bpf_insn *i = &cx->insns[pc];
	int dk;

	if (ebpf_is_helper_call(i))
		return dp_kind(i->imm);
	dk = absint_dynptr_kfunc(cx, pc);
	return dk == DK_NONE ? DP_OTHER : dk == DK_FROM_SKB || dk == DK_FROM_XDP ||
					  dk == DK_CLONE ? DP_MAKE : DP_USE;
}

/* The register that holds the dynptr of helper id (0: not a dynptr helper). */
static int dp_reg(int32_t id)
{
	switch (dp_kind(id)) {
	case DP_FROM_MEM: case DP_RESERVE: return 4;
	case DP_RELEASE: return 1;
	case DP_USE: return id == BPF_FUNC_dynptr_read ? 3 : 1;
	default: return 0;
	}
}

bool absint_dynptr_on_stack(const struct astate *s, int32_t id)
{
	int r = dp_reg(id);

	/* (or a caller's dynptr, given to a static callee: made, used or released there) */
	return r && s->regs[r].kind == AV_PTR && (s->regs[r].region == REGION_STACK ||
						  s->regs[r].region == REGION_CALLER_STACK);
}

const struct ebpf_helper_proto *absint_dynptr_proto(int32_t id)
{
	/* bpf_dynptr_from_mem(data, size, flags, ptr): data ARG_PTR_TO_UNINIT_MEM of
	 * ARG_CONST_SIZE_OR_ZERO bytes (a map value, checked below); 0, -EINVAL or -E2BIG */
	static const struct ebpf_helper_proto from_mem = {
		BPF_FUNC_dynptr_from_mem,
		{ HARG_MEM_UNINIT, HARG_SIZE_OR_ZERO, HARG_ANYTHING, HARG_ANYTHING },
		HRET_INTEGER, 0, -EINVAL_, 0, HPT_ALL,
	};
	/* bpf_ringbuf_reserve_dynptr(map, size, flags, ptr): size and flags ARG_ANYTHING */
	static const struct ebpf_helper_proto reserve = {
		BPF_FUNC_ringbuf_reserve_dynptr,
		{ HARG_MAP, HARG_ANYTHING, HARG_ANYTHING, HARG_ANYTHING },
		HRET_INTEGER, 0, -EINVAL_, 0, HPT_ALL,
	};
	static const struct ebpf_helper_proto submit = {
		BPF_FUNC_ringbuf_submit_dynptr, { HARG_ANYTHING, HARG_ANYTHING },
		HRET_INTEGER, HF_NO_RETURN_VALUE, 0, 0, HPT_ALL,
	};
	static const struct ebpf_helper_proto discard = {
		BPF_FUNC_ringbuf_discard_dynptr, { HARG_ANYTHING, HARG_ANYTHING },
		HRET_INTEGER, HF_NO_RETURN_VALUE, 0, 0, HPT_ALL,
	};

	switch (id) {
	case BPF_FUNC_dynptr_from_mem: return &from_mem;
	case BPF_FUNC_ringbuf_reserve_dynptr: return &reserve;
	case BPF_FUNC_ringbuf_submit_dynptr: return &submit;
	case BPF_FUNC_ringbuf_discard_dynptr: return &discard;
	default: return NULL;	/* (read, write, data: absint_helper_proto's forms) */
	}
}

/* The bit of the masks for a dynptr at off: 16 bytes of the frame at an 8-aligned offset;
 * -1 when it is none. */
static int dp_bit(int64_t off)
{
	if (off < -FP_FRAME || off > -16 || off % 8)
		return -1;
	return (int)(-off / 8 - 1);
}

/* The 8-byte slots a dynptr starting at bit b covers (b and b - 1). */
static uint64_t dp_cover(int b)
{
	return 3ull << (b - 1);
}

/* The slots every dynptr of mask m covers. */
static uint64_t dp_covers(uint64_t m)
{
	return m | m >> 1;
}

static uint32_t func_of(const struct scev_ctx *cx, uint32_t pc)
{
	return cx->st.cfg->blocks[cx->st.cfg->block_of[pc]].func;
}

static bool is_slice(const struct aval *a)
{
	return a->kind == AV_PTR && a->region == REGION_DYNPTR_MEM;
}

/* Every slice (bpf_dynptr_data's result) in s becomes what the kernel leaves of a slice of a
 * released or destroyed dynptr: an unknown scalar when every slice is one of it (no other
 * dynptr may be live), else an unknown value. */
static void drop_slices(struct astate *s, bool all_its)
{
	for (int r = 0; r < EBPF_NREGS; r++)
		if (is_slice(&s->regs[r]))
			s->regs[r] = all_its ? aval_scalar(range_unknown()) : aval_top();
	for (uint32_t c = 0; c < s->n; c++)
		if (is_slice(&s->cells[c].v))
			s->cells[c].v = all_its ? aval_scalar(s->cells[c].size >= 8 ? range_unknown()
							      : range_zext_unknown(s->cells[c].size))
						: aval_top();
}

/* The dynptr at bit b made (kind DP_FROM_MEM, DP_RESERVE) or released: the masks dp, dpr of its
 * frame; any dynptr the 16 bytes overlapped is gone.  The bits it changed. */
static uint64_t dp_set(struct life *dp, struct life *dpr, int b, int kind)
{
	uint64_t bit = 1ull << b, gone = dp_cover(b) | bit << 1;

	dp->may &= ~gone;
	dp->must &= ~gone;
	dpr->may &= ~gone;
	dpr->must &= ~gone;
	if (kind != DP_RELEASE) {
		dp->may |= bit;
		dp->must |= bit;
	}
	if (kind == DP_RESERVE) {
		dpr->may |= bit;
		dpr->must |= bit;
	}
	return gone | bit;
}

/* Whether pc lies in a loop (its block's innermost one, or none). */
static bool in_loop(const struct scev_ctx *cx, uint32_t pc)
{
	return cx->st.loops->loop_of[cx->st.cfg->block_of[pc]] != SCEV_NONE;
}

static bool plain_static(const struct scev_ctx *cx, uint32_t f);
static bool loop_cb(const struct scev_ctx *cx, uint32_t f);

/* The bit of the caller's dynptr d that static function or bpf_loop callback f makes or releases
 * at pc: a pointer at a constant, aligned offset of one caller's frame, out of any loop of f (the
 * loops' header steps do not carry astate.cdp around); -1 when it is not modeled (the verdict
 * refuses it). */
static int caller_bit(const struct scev_ctx *cx, uint32_t f, uint32_t pc, const struct aval *d)
{
	if (f == 0 || d->kind != AV_PTR || d->region != REGION_CALLER_STACK || d->maybe_null ||
	    (d->map & CALLER_SET) || d->map >= cx->st.cfg->nfuncs || !range_is_const(&d->r) ||
	    in_loop(cx, pc) || !(plain_static(cx, f) || loop_cb(cx, f)))
		return -1;
	return dp_bit((int64_t)d->r.umin);
}

/* A pointer to a dynptr the kernel refuses at every call wherever it points: at a constant
 * offset of one frame not 8-aligned or not below the frame pointer ("cannot pass in dynptr at
 * an offset", stack_slot_obj_get_spi); the verdict says so (dp_slot_fails). */
static bool slot_refused(const struct aval *d)
{
	int64_t off = (int64_t)d->r.umin;

	return d->kind == AV_PTR && !d->maybe_null && range_is_const(&d->r) &&
	       (d->region == REGION_STACK || (d->region == REGION_CALLER_STACK &&
					      !(d->map & CALLER_SET))) &&
	       (off % 8 || off + 16 > 0);
}

/* ---- ringbuf clones: the reference they share ----
 *
 * A ringbuf dynptr's clone (bpf_dynptr_clone) holds its reference (the kernel's ref_obj_id):
 * releasing any of them releases it and invalidates them all (release_reference).  Which of
 * this frame's ringbuf dynptrs share one is kept, in a program that clones, in the frame's cell
 * at the dynptr's first 8 bytes, which no instruction may read (the verifier refuses it): a
 * marker, a REGION_DYNPTR pointer at offset 1 whose map is the group: DP_ALONE for one that
 * shares with none (bpf_ringbuf_reserve_dynptr's), else the pc + 1 of the clone call that made
 * the group (one pc makes one group live at a time: its slots are at constant offsets, and a
 * group's dynptrs die together).  No cell, or anything else there (a join of different ones, a
 * write that reached it): not known.  A release kills the dynptrs of its group; those that may
 * be of it are no longer live on every path. */
#define DP_ALONE 0

/* The group of the ringbuf dynptr at bit b of s, or -1 when not known. */
static int group_get(const struct astate *s, int b)
{
	int64_t off = -8 * (int64_t)(b + 1);

	for (uint32_t k = 0; k < s->n; k++) {
		const struct aval *a = &s->cells[k].v;

		if (s->cells[k].off != off)
			continue;
		return s->cells[k].size == 8 && a->kind == AV_PTR && a->region == REGION_DYNPTR &&
		       !a->maybe_null && range_is_const(&a->r) && a->r.umin == 1 ? a->map : -1;
	}
	return -1;
}

static int group_set(struct astate *s, int b, uint16_t g)
{
	struct aval m = aval_ptr(REGION_DYNPTR, g, range_const(1));

	return astate__store(s, -8 * (int64_t)(b + 1), 8, &m);
}

/* The ringbuf dynptr at bit b of this frame is released: the others of its group die, and those
 * that may be of it are no longer live on every path. */
static void group_release(const struct scev_ctx *cx, struct astate *s, int b)
{
	int g = group_get(s, b);

	if (!cx->dp_clone)
		return;
	for (uint64_t m = s->dpr.may & ~(1ull << b); m; m &= m - 1) {
		int c = __builtin_ctzll(m), gc = group_get(s, c);

		if (g == DP_ALONE || gc == DP_ALONE || (g > 0 && gc > 0 && gc != g))
			continue;
		if (g > 0 && gc == g) {
			dp_set(&s->dp, &s->dpr, c, DP_RELEASE);
		} else {
			s->dp.must &= ~(1ull << c);
			s->dpr.must &= ~(1ull << c);
		}
	}
}

int absint_dynptr_mark(struct scev_ctx *cx, struct astate *s, uint32_t pc)
{
	const struct bpf_insn *i = &cx->insns[pc];
	const struct aval *d, *src = &s->regs[1];
	int b, bs, g;

	if (!cx->dp_clone)
		return 0;
	if (ebpf_is_helper_call(i) && i->imm == BPF_FUNC_ringbuf_reserve_dynptr) {
		d = &s->regs[4];
		if (d->kind != AV_PTR || d->region != REGION_STACK || !range_is_const(&d->r) ||
		    (b = dp_bit((int64_t)d->r.umin)) < 0)
			return 0;
		return group_set(s, b, DP_ALONE);
	}
	if (absint_dynptr_kfunc(cx, pc) != DK_CLONE)
		return 0;
	d = &s->regs[2];
	if (d->kind != AV_PTR || d->region != REGION_STACK || !range_is_const(&d->r) ||
	    src->kind != AV_PTR || src->region != REGION_STACK || !range_is_const(&src->r) ||
	    (b = dp_bit((int64_t)d->r.umin)) < 0 || (bs = dp_bit((int64_t)src->r.umin)) < 0 ||
	    !(s->dpr.may & (1ull << bs)))
		return 0;
	/* (a new group: the clone call's; src's own, or not known) */
	g = group_get(s, bs);
	if (g == DP_ALONE && pc + 1 < UINT16_MAX) {
		g = (int)pc + 1;
		if (group_set(s, bs, (uint16_t)g))
			return -ENOMEM;
	}
	return g > 0 ? group_set(s, b, (uint16_t)g) : 0;
}

bool absint_dynptr_call(struct scev_ctx *cx, struct astate *s, uint32_t pc,
			struct stack_span *w)
{
	const struct bpf_insn *i = &cx->insns[pc];
	uint32_t f = func_of(cx, pc);
	int kind, b;
	const struct aval *d;
	uint64_t bit;

	*w = (struct stack_span){ 0, 0 };
	if (!ebpf_is_helper_call(i) || (kind = dp_kind(i->imm)) == DP_OTHER || kind == DP_USE)
		return false;
	d = &s->regs[dp_reg(i->imm)];
	if (d->kind == AV_PTR && d->region == REGION_CALLER_STACK &&
	    (b = caller_bit(cx, f, pc, d)) >= 0) {
		struct dp_exit *x = cx->dp_exit_acc ? &cx->dp_exit_acc[f] : NULL;

		/* a caller's dynptr, made or released by this static function: its view of the
		 * caller's dynptrs (astate.cdp), which its exits give back (absint_dynptr_return);
		 * the 16 bytes, written in the caller's frame (outer_write) */
		if (s->cdp.may & (1ull << b))
			drop_slices(s, false);
		s->dpg = NULL;
		bit = dp_set(&s->cdp, &s->cdpr, b, kind);
		s->ctouch.may |= bit;
		s->ctouch.must |= bit;
		if (x) {
			x->caller = !(x->seen & 2) || x->caller == d->map ? d->map : UINT16_MAX;
			x->seen |= 2;
		}
		absint_cb_note_write(cx, pc, d, 0, 16, NULL);
		return false;
	}
	/* a subprogram making or releasing a dynptr that may not be of its own frame, nor
	 * modeled as its caller's, in the pass the verdict reads (the first ones may run it
	 * with unknown arguments): its callers' states do not see it (scev.c answers unsupported
	 * for a verdict of unsafe) */
	if (f != 0 && !(d->kind == AV_PTR && d->region == REGION_STACK) && !cx->first_pass &&
	    !slot_refused(d))
		cx->dp_out = true;
	if (d->kind != AV_PTR || d->region != REGION_STACK || !range_is_const(&d->r) ||
	    (b = dp_bit((int64_t)d->r.umin)) < 0)
		return false;	/* (the verdict refuses it) */
	bit = 1ull << b;
	/* a dynptr made or released here: the slices of the one there die (when dynptrs live in
	 * other frames too, a slice may be one of theirs: unknown values) */
	if (s->dp.may & bit)
		drop_slices(s, !(s->dp.may & ~bit) && !cx->dp_sub);
	s->dpg = NULL;
	if (kind == DP_RELEASE)
		group_release(cx, s, b);
	dp_set(&s->dp, &s->dpr, b, kind);
	*w = (struct stack_span){ (int16_t)d->r.umin, (int16_t)(d->r.umin + 16) };
	return true;
}

/* ---- the dynptr kfuncs (kernel/bpf/helpers.c; from_skb and from_xdp: net/core/filter.c) ----
 *
 * from_skb(ctx, flags, d) and from_xdp(ctx, flags, d) make d a dynptr of the packet: a local
 * one as the helpers' makes go (no reference; flags other than 0 leave it NULL with -EINVAL, a
 * dynptr all the same).  clone(d, c) makes c a dynptr of d's kind (a ringbuf one's clone shares
 * its reference, which releasing any of them ends: group_release).  adjust(d,
 * start, end), is_null(d), is_rdonly(d) and size(d) use d.  slice(d, off, buf, n) and
 * slice_rdwr give n bytes (a constant) or NULL, REGION_DYNPTR_MEM (slice's read-only: its map
 * has DYNPTR_MEM_RO); buf, NULL or n bytes the kfunc writes, is the result itself when a packet
 * dynptr's bytes are not in the linear part.  A slice of a packet dynptr dies when the packet
 * may move (the kernel's clear_all_pkt_pointers): which dynptr a slice is of is not kept, so
 * in a program that makes packet dynptrs every slice is marked so (DYNPTR_MEM_PKT) and dies
 * (absint_dynptr_pkt_moved).  The results are numbers of no known value, as the kernel's
 * verifier holds them (an int, a bool, a u32 in a 64-bit register). */
static const char *const dk_names[] = {
	[DK_FROM_SKB] = "bpf_dynptr_from_skb", [DK_FROM_XDP] = "bpf_dynptr_from_xdp",
	[DK_CLONE] = "bpf_dynptr_clone", [DK_ADJUST] = "bpf_dynptr_adjust",
	[DK_IS_NULL] = "bpf_dynptr_is_null", [DK_IS_RDONLY] = "bpf_dynptr_is_rdonly",
	[DK_SIZE] = "bpf_dynptr_size", [DK_SLICE] = "bpf_dynptr_slice",
	[DK_SLICE_RDWR] = "bpf_dynptr_slice_rdwr",
};

int absint_dynptr_kfunc(const struct scev_ctx *cx, uint32_t pc)
{
	const char *n;

	if (cx->insns[pc].src_reg != BPF_PSEUDO_KFUNC_CALL || !ebpf_is_call(&cx->insns[pc]) ||
	    !cx->prog || !(n = ebpf_prog_kfunc_name(cx->prog, pc)) || strncmp(n, "bpf_dynptr_", 11))
		return DK_NONE;
	for (int k = DK_NONE + 1; k < (int)(sizeof(dk_names) / sizeof(dk_names[0])); k++)
		if (!strcmp(n, dk_names[k]))
			return k;
	return DK_NONE;
}

/* The register holding the dynptr kfunc dk makes (0: none). */
static int dk_made_reg(int dk)
{
	return dk == DK_FROM_SKB || dk == DK_FROM_XDP ? 3 : dk == DK_CLONE ? 2 : 0;
}

struct aval absint_dynptr_kfunc_call(struct scev_ctx *cx, struct astate *s, uint32_t pc, int dk,
				     struct stack_span *w, struct stack_span *buf)
{
	const struct aval *d = &s->regs[dk_made_reg(dk)], *src = &s->regs[1];
	struct aval r0 = aval_scalar(range_unknown());
	uint64_t len = 0, bit;
	int b;

	*w = *buf = (struct stack_span){ 0, 0 };
	if (dk == DK_SLICE || dk == DK_SLICE_RDWR) {
		const struct aval *m = &s->regs[3];
		bool sized = aval_is_const(&s->regs[4], &len) && len <= DYNPTR_SLICE_MAX;
		int64_t lo = (int64_t)m->r.umin;

		if (m->kind == AV_PTR && m->region == REGION_STACK && !m->maybe_null &&
		    range_is_const(&m->r) && sized && lo >= -FP_FRAME && lo + (int64_t)len <= 0)
			*buf = (struct stack_span){ (int16_t)lo, (int16_t)(lo + (int64_t)len) };
		else if (m->kind == AV_PTR && m->region == REGION_CALLER_STACK)
			absint_cb_note_write(cx, pc, m, 0, sized ? len : UINT64_MAX, NULL);
		if (!sized)
			return aval_top();
		r0 = aval_ptr(REGION_DYNPTR_MEM, (uint16_t)(len | (dk == DK_SLICE ? DYNPTR_MEM_RO : 0) |
							     (cx->dp_pkt ? DYNPTR_MEM_PKT : 0)),
			      range_const(0));
		r0.maybe_null = true;
		r0.id = aval_null_id(pc);
		astate__drop_id(s, r0.id);
		return r0;
	}
	if (!dk_made_reg(dk))
		return r0;	/* (a use) */
	if (d->kind == AV_PTR && d->region == REGION_CALLER_STACK) {
		/* (a caller's: not modeled, the verdict refuses it) */
		absint_cb_note_unknown(cx, pc);
		if (!cx->first_pass)
			cx->dp_out = true;
		return r0;
	}
	if (func_of(cx, pc) != 0 && !(d->kind == AV_PTR && d->region == REGION_STACK) &&
	    !cx->first_pass && !slot_refused(d))
		cx->dp_out = true;
	if (d->kind != AV_PTR || d->region != REGION_STACK || !range_is_const(&d->r) ||
	    (b = dp_bit((int64_t)d->r.umin)) < 0)
		return r0;	/* (the verdict refuses it) */
	bit = 1ull << b;
	if (s->dp.may & bit)
		drop_slices(s, !(s->dp.may & ~bit) && !cx->dp_sub);
	s->dpg = NULL;
	dp_set(&s->dp, &s->dpr, b, DP_FROM_MEM);
	/* (a clone of a ringbuf dynptr is one too) */
	if (dk == DK_CLONE && src->kind == AV_PTR && src->region == REGION_STACK &&
	    range_is_const(&src->r) && dp_bit((int64_t)src->r.umin) >= 0) {
		uint64_t sb = 1ull << dp_bit((int64_t)src->r.umin);

		if (s->dpr.may & sb)
			s->dpr.may |= bit;
		if (s->dpr.must & sb)
			s->dpr.must |= bit;
	}
	*w = (struct stack_span){ (int16_t)d->r.umin, (int16_t)(d->r.umin + 16) };
	return r0;
}

void absint_dynptr_pkt_moved(struct astate *s)
{
	for (int r = 0; r < EBPF_NREGS; r++)
		if (is_slice(&s->regs[r]) && (s->regs[r].map & DYNPTR_MEM_PKT))
			s->regs[r] = aval_top();
	for (uint32_t c = 0; c < s->n; c++)
		if (is_slice(&s->cells[c].v) && (s->cells[c].v.map & DYNPTR_MEM_PKT))
			s->cells[c].v = aval_top();
}

/* Function f is a callback only bpf_loop, bpf_for_each_map_elem or bpf_find_vma calls (the
 * kernel's callbacks it calls in place, a number of times it explores as a loop: it may use,
 * make or release its caller's dynptrs through its context pointer). */
static bool loop_cb(const struct scev_ctx *cx, uint32_t f)
{
	return cx->cbdp && cx->fn_cb && (cx->fn_cb[f] == SCEV_CB_LOOP ||
					 cx->fn_cb[f] == SCEV_CB_EACH || cx->fn_cb[f] == SCEV_CB_VMA);
}

/* The register of helper id's call that holds its callback's context (0: none modeled). */
static int cb_ctx_reg(int32_t id)
{
	return id == BPF_FUNC_loop || id == BPF_FUNC_for_each_map_elem ? 3
	       : id == BPF_FUNC_find_vma ? 4 : 0;
}

/* The dynptrs of its caller's frame at the calls of function f, as the previous pass saw them:
 * a static function's (citer: absint_iter.c records them with the iterators), a bpf_loop
 * callback's (cbdp). */
static const struct iter_in *dp_facts(const struct scev_ctx *cx, uint32_t f)
{
	return loop_cb(cx, f) ? &cx->cbdp[f] : cx->citer ? &cx->citer[f] : NULL;
}

/* ... or NULL when none may be live there. */
static const struct iter_in *caller_dps(const struct scev_ctx *cx, uint32_t f)
{
	const struct iter_in *c = dp_facts(cx, f);

	return c && c->seen && c->dmay ? c : NULL;
}

void absint_dynptr_note_cb(struct scev_ctx *cx, uint32_t caller, uint32_t cb, const struct astate *s)
{
	if (cx->cbdp_acc && cb < cx->st.cfg->nfuncs)
		absint_iter_in_note(cx, &cx->cbdp_acc[cb], caller, s);
}

/* The frame whose dynptrs function f's states hold as astate.cdp (those of one frame at every
 * call of f, a static function or a bpf_loop callback): UINT16_MAX when none. */
static uint32_t view_frame(const struct scev_ctx *cx, uint32_t f)
{
	const struct iter_in *c = f ? dp_facts(cx, f) : NULL;

	return c && c->seen && c->dframe < cx->st.cfg->nfuncs &&
	       (loop_cb(cx, f) || plain_static(cx, f)) ? c->dframe : UINT16_MAX;
}

void absint_dynptr_in(const struct scev_ctx *cx, uint32_t caller, const struct astate *s,
		      struct iter_in *n)
{
	uint32_t v = view_frame(cx, caller);
	/* (the frame it was handed: none when its view is not one frame's) */
	struct life c = v != UINT16_MAX ? s->cdp : (struct life){ 0, 0 };
	struct life cr = v != UINT16_MAX ? s->cdpr : (struct life){ 0, 0 };
	bool into_v = false, into_own = false;

	n->dframe = (uint16_t)caller;
	n->dmay = s->dp.may;
	n->dmust = s->dp.must;
	n->drmay = s->dpr.may;
	n->drmust = s->dpr.must;
	n->omay = 0;
	n->oframe = UINT16_MAX;
	/* the frame the arguments point into */
	for (int r = 1; r <= 5 && v != UINT16_MAX; r++) {
		const struct aval *a = &s->regs[r];

		if (!(s->init & (1u << r)) || a->kind != AV_PTR)
			continue;
		into_own |= a->region == REGION_STACK;
		into_v |= a->region == REGION_CALLER_STACK && a->map == v;
	}
	if (s->dp.may && c.may && !(into_v && !into_own)) {
		/* (both, and the callee may be given either: neither frame's are known live
		 * everywhere) */
		n->dframe = UINT16_MAX;
		n->dmay |= c.may;
		n->drmay |= cr.may;
		n->dmust = n->drmust = 0;
		return;
	}
	if (c.may) {
		/* (a middle function holding its own too: the callee is given the handed frame
		 * only, and told its own are there, out of its reach) */
		n->omay = s->dp.may;
		n->oframe = s->dp.may ? (uint16_t)caller : UINT16_MAX;
		n->dframe = (uint16_t)v;
		n->dmay = c.may;
		n->dmust = c.must;
		n->drmay = cr.may;
		n->drmust = cr.must;
		return;
	}
	if (s->dp.may || v == UINT16_MAX)
		return;
	/* none live in either: the frame the arguments point into (a callee may make one there) */
	if (into_v && !into_own)
		n->dframe = (uint16_t)v;
}

/* A mask of the caller's after the return: old where no exit touched it, the exits' where
 * every one did, either where some did (may: mmay = x's may, must: mmust = x's must). */
static void life_return(struct life *l, uint64_t mmay, uint64_t mmust, uint64_t tmay,
			uint64_t tmust)
{
	l->may = (l->may & ~tmust) | (mmay & tmay);
	l->must = (l->must | tmust) & (mmust | ~tmay);
}

void absint_dynptr_entry(const struct scev_ctx *cx, uint32_t f, struct astate *s)
{
	const struct iter_in *c = dp_facts(cx, f);

	const struct dp_exit *x = cx->dp_exit ? &cx->dp_exit[f] : NULL;

	s->cdp = s->cdpr = s->ctouch = (struct life){ 0, 0 };
	s->dpg = NULL;
	if (view_frame(cx, f) == UINT16_MAX)
		return;
	s->cdp = (struct life){ c->dmay, c->dmust };
	s->cdpr = (struct life){ c->drmay, c->drmust };
	/* a bpf_loop callback that makes or releases them: each call after the first starts
	 * where the last one's exits left them (the kernel's callback iterations, until the
	 * states repeat): the calls' facts joined with the exits' (the previous pass's) */
	if (loop_cb(cx, f) && x && (x->seen & 3) == 3 && x->tmay && x->caller == c->dframe) {
		struct life e = s->cdp, er = s->cdpr;

		life_return(&e, x->dmay, x->dmust, x->tmay, x->tmust);
		life_return(&er, x->rmay, x->rmust, x->tmay, x->tmust);
		s->cdp.may |= e.may;
		s->cdp.must &= e.must;
		s->cdpr.may |= er.may;
		s->cdpr.must &= er.must;
	}
}

/* u := u joined with a, masks of six (dmay, dmust, rmay, rmust, tmay, tmust). */
static void masks_join(uint64_t *u, const uint64_t *a)
{
	for (int k = 0; k < 6; k += 2) {
		u[k] |= a[k];
		u[k + 1] &= a[k + 1];
	}
}

/* ---- the dynptr guard (astate.dpg) ----
 *
 * Its records (struct dp_guard) are never changed once a state points to one: a state takes a
 * new one, or an equal one it or the other side of a join already holds, or the last one made
 * (guard_keep).  Every record of the analysis is on the thread's list until absint_free (one
 * analysis runs at a time in a thread; scev.c runs none inside another). */
struct dpg_rec {
	struct dp_guard g;
	struct dpg_rec *next;
};

static _Thread_local struct dpg_rec *dpg_recs;

static bool guard_eq(const struct dp_guard *a, const struct dp_guard *b)
{
	return !memcmp(a->m, b->m, sizeof(a->m)) && a->g == b->g && a->c == b->c &&
	       a->base == b->base &&
	       a->modes == b->modes && a->view == b->view;
}

/* A record equal to g: a or b (records states hold; NULL for none), the last one made, or a new
 * one; NULL when out of memory, which drops the guard (none: the masks alone, joined over both
 * sides, are sound, only less precise). */
static const struct dp_guard *guard_keep(const struct dp_guard *g, const struct dp_guard *a,
					 const struct dp_guard *b)
{
	struct dpg_rec *r;

	if (a && guard_eq(a, g))
		return a;
	if (b && guard_eq(b, g))
		return b;
	if (dpg_recs && guard_eq(&dpg_recs->g, g))
		return &dpg_recs->g;
	if (!(r = malloc(sizeof(*r))))
		return NULL;
	r->g = *g;
	r->next = dpg_recs;
	dpg_recs = r;
	return &r->g;
}

void absint_dynptr_free(void)
{
	while (dpg_recs) {
		struct dpg_rec *r = dpg_recs;

		dpg_recs = r->next;
		free(r);
	}
}

/* A side of the guard whose must holds a bit its may does not is the empty one (no path): what
 * a state whose register is on the other side gives it. */
static bool side_empty(const uint32_t m[3][2])
{
	return (m[0][1] & ~m[0][0]) != 0;
}

/* The masks of kind view of s (dp, dpr; or cdp, cdpr, ctouch) as three lives. */
static void kind_lives(const struct astate *s, bool view, struct life l[3])
{
	l[0] = view ? s->cdp : s->dp;
	l[1] = view ? s->cdpr : s->dpr;
	l[2] = view ? s->ctouch : (struct life){ 0, 0 };
}

/* The lowest bit set in lives l (64: none). */
static uint8_t lives_low(const struct life l[3])
{
	uint64_t any = 0;

	for (int k = 0; k < 3; k++)
		any |= l[k].may | l[k].must;
	return any ? (uint8_t)__builtin_ctzll(any) : 64;
}

/* Lives l as a side of a guard whose window starts at bit base; false when a bit is outside. */
static bool side_set(const struct life l[3], uint8_t base, uint32_t m[3][2])
{
	uint64_t in = base >= 64 ? 0 : base > 32 ? ~0ull << base : 0xffffffffull << base;

	for (int k = 0; k < 3; k++) {
		if ((l[k].may | l[k].must) & ~in)
			return false;
		m[k][0] = base >= 64 ? 0 : (uint32_t)(l[k].may >> base);
		m[k][1] = base >= 64 ? 0 : (uint32_t)(l[k].must >> base);
	}
	return true;
}

/* A side of the guard as a mask of the state (bit base first). */
static uint64_t side_mask(const struct dp_guard *g, int c, int k, int j)
{
	return g->base >= 64 ? 0 : (uint64_t)g->m[c][k][j] << g->base;
}

/* Which side of a guard on register g state s is on, told by the tests of modes m
 * (struct dp_guard.modes): 0 (g holds 0), 1 (it does not), -1 (no mode tells, or g may not be a
 * number written on every path); *mm the modes that tell it (a value 0 in its low 32 bits but not
 * in all 64 is on a side of each: the 32-bit one is kept). */
static int side_of(const struct astate *s, uint8_t g, uint8_t m, uint8_t *mm)
{
	const struct aval *a = &s->regs[g];
	const struct range *r = &a->r;
	int c32, c64, side = -1;

	*mm = 0;
	if (!(s->init & (1u << g)) || a->kind != AV_SCALAR)
		return -1;
	c32 = r->u32_max == 0 ? 0 : r->u32_min > 0 || r->s32_min > 0 || r->s32_max < 0 ||
				     (uint32_t)r->var_off.value ? 1 : -1;
	c64 = r->umax == 0 ? 0 : !range_contains(r, 0) ? 1 : -1;
	if ((m & 1) && c32 >= 0) {
		side = c32;
		*mm = 1;
	}
	if ((m & 2) && c64 >= 0 && (side < 0 || side == c64)) {
		side = c64;
		*mm |= 2;
	}
	return side;
}

/* State x as a guard on (g, view) with its window at bit base, told by modes *m: its own guard,
 * or its masks on the side its register is on (*m: the modes that tell it); false when none
 * does. */
static bool guard_split(const struct astate *x, uint8_t g, bool view, uint8_t base, uint8_t *m,
			uint32_t out[2][3][2])
{
	struct life l[3];
	uint8_t mm;
	int side;

	if (x->dpg && x->dpg->g == g && x->dpg->view == view && x->dpg->base == base) {
		memcpy(out, x->dpg->m, sizeof(x->dpg->m));
		*m &= x->dpg->modes;
		return *m != 0;
	}
	kind_lives(x, view, l);
	if ((side = side_of(x, g, *m, &mm)) < 0 || !side_set(l, base, out[side]))
		return false;
	*m &= mm;
	for (int k = 0; k < 3; k++) {
		out[!side][k][0] = 0;
		out[!side][k][1] = UINT32_MAX;
	}
	return true;
}

static bool lives_differ(const struct astate *a, const struct astate *b, bool view)
{
	return view ? memcmp(&a->cdp, &b->cdp, sizeof(a->cdp)) ||
		      memcmp(&a->cdpr, &b->cdpr, sizeof(a->cdpr)) ||
		      memcmp(&a->ctouch, &b->ctouch, sizeof(a->ctouch))
		    : memcmp(&a->dp, &b->dp, sizeof(a->dp)) || memcmp(&a->dpr, &b->dpr, sizeof(a->dpr));
}

bool absint_dynptr_guard_join(struct astate *dst, const struct astate *src)
{
	const struct dp_guard *old = dst->dpg;
	struct dp_guard ng;
	uint32_t a[2][3][2], b[2][3][2];
	uint8_t m = 3, base;
	bool view;
	int g = -1;

	if (dst->dpg) {
		g = dst->dpg->g;
		view = dst->dpg->view;
		base = dst->dpg->base;
	} else if (src->dpg) {
		g = src->dpg->g;
		view = src->dpg->view;
		base = src->dpg->base;
	} else {
		struct life x[3], y[3];
		uint8_t bx, by;

		/* a new one: the masks of this frame differ (else those it was handed), and a
		 * register holds 0 on one side and not on the other */
		view = !lives_differ(dst, src, false);
		if (view && !lives_differ(dst, src, true))
			return false;
		for (int r = 0; r < EBPF_REG_FP && g < 0; r++) {
			uint8_t mx, my;
			int x = side_of(dst, (uint8_t)r, 3, &mx), y = side_of(src, (uint8_t)r, 3, &my);

			if (x >= 0 && y >= 0 && x != y && (mx & my))
				g = r;
		}
		if (g < 0)
			return false;
		/* (the window: from the lowest bit either side holds) */
		kind_lives(dst, view, x);
		kind_lives(src, view, y);
		bx = lives_low(x);
		by = lives_low(y);
		base = bx < by ? bx : by;
	}
	dst->dpg = NULL;
	/* (what it told, the successors may have read: losing it is a change) */
	if (!guard_split(dst, (uint8_t)g, view, base, &m, a) ||
	    !guard_split(src, (uint8_t)g, view, base, &m, b))
		return old != NULL;
	for (int c = 0; c < 2; c++)
		for (int k = 0; k < 3; k++) {
			a[c][k][0] |= b[c][k][0];
			a[c][k][1] &= b[c][k][1];
		}
	memcpy(ng.m, a, sizeof(a));
	ng.g = (uint8_t)g;
	/* (a copy both sides' guards hold) */
	ng.c = old && src->dpg && old->g == g && src->dpg->g == g && old->c == src->dpg->c ? old->c
												     : (uint8_t)g;
	ng.base = base;
	ng.modes = m;
	ng.view = view;
	dst->dpg = guard_keep(&ng, old, src->dpg);
	/* (out of memory: none, a loss) */
	return old && (!dst->dpg || memcmp(old->m, a, sizeof(a)) || old->modes != m);
}

void absint_dynptr_guard_written(struct astate *s, const struct bpf_insn *i, uint32_t w)
{
	uint8_t cls = ebpf_class(i);
	struct dp_guard g;

	if (!s->dpg)
		return;
	g = *s->dpg;
	/* a copy of its register into r0 (a function's result, `w0 = w6` before its exit): the
	 * guard goes with it; into another register (`r6 = r0` after the call): that one is its
	 * copy (a 32-bit copy: told by the low half only) */
	if ((cls == BPF_ALU || cls == BPF_ALU64) && ebpf_op(i) == BPF_MOV &&
	    ebpf_srcbit(i) == BPF_X && !i->off && (i->src_reg == g.g || i->src_reg == g.c) &&
	    i->dst_reg != g.g && i->dst_reg != g.c) {
		if (i->dst_reg == 0)
			g.g = g.c = 0;
		else
			g.c = i->dst_reg;
		if (cls == BPF_ALU)
			g.modes &= 1;
		s->dpg = g.modes ? guard_keep(&g, s->dpg, NULL) : NULL;
		return;
	}
	if (!(w >> g.g & 1) && !(w >> g.c & 1))
		return;
	/* (the register written: the other one holds it, if any) */
	if (w >> g.g & 1)
		g.g = g.c;
	g.c = g.g;
	s->dpg = w >> g.g & 1 ? NULL : guard_keep(&g, s->dpg, NULL);
}

void absint_dynptr_guard_branch(struct astate *s)
{
	const struct dp_guard *g = s->dpg;
	struct life *l[3] = { g->view ? &s->cdp : &s->dp, g->view ? &s->cdpr : &s->dpr,
			      g->view ? &s->ctouch : NULL };
	uint8_t mm;
	int side = side_of(s, g->g, g->modes, &mm);

	/* (the copy holds the same value: its test tells the side as well) */
	if (side < 0 && g->c != g->g)
		side = side_of(s, g->c, g->modes, &mm);
	/* (both sides are sound for their paths: what this arm holds is in both) */
	for (int k = 0; k < 3 && side >= 0; k++)
		if (l[k]) {
			l[k]->may &= side_mask(g, side, k, 0);
			l[k]->must |= side_mask(g, side, k, 1);
		}
}

/* The exit state s of a function as the classes of its r0 (0, or anything else) in x: its
 * masks in the class its r0 is in, or each side of its guard on r0; else x->key_bad.  x->knot:
 * the tests that do not tell the classes. */
static void note_exit_class(struct dp_exit *x, const struct astate *s)
{
	uint64_t m[2][6];
	uint8_t seen = 0, mm;
	int side = side_of(s, 0, 3, &mm);

	if (side >= 0) {
		uint64_t v[6] = { s->cdp.may, s->cdp.must, s->cdpr.may, s->cdpr.must, s->ctouch.may,
				  s->ctouch.must };

		memcpy(m[side], v, sizeof(v));
		seen = (uint8_t)(1u << side);
	} else if (s->dpg && s->dpg->g == 0 && s->dpg->view) {
		for (int c = 0; c < 2; c++) {
			if (side_empty(s->dpg->m[c]))
				continue;
			for (int k = 0; k < 6; k++)
				m[c][k] = side_mask(s->dpg, c, k / 2, k % 2);
			seen |= (uint8_t)(1u << c);
		}
		mm = s->dpg->modes;
	} else {
		x->key_bad = true;
		return;
	}
	x->knot |= (uint8_t)(3 & ~mm);
	for (int c = 0; c < 2; c++) {
		if (!(seen & (1u << c)))
			continue;
		if (x->kseen & (1u << c))
			masks_join(x->k[c], m[c]);
		else
			memcpy(x->k[c], m[c], sizeof(m[c]));
	}
	x->kseen |= seen;
}

void absint_dynptr_note_exit(struct scev_ctx *cx, uint32_t f, const struct astate *s)
{
	struct dp_exit *x;

	if (f == 0 || !cx->dp_exit_acc || !s->live)
		return;
	x = &cx->dp_exit_acc[f];
	note_exit_class(x, s);
	if (!(x->seen & 1)) {
		x->dmay = s->cdp.may;
		x->dmust = s->cdp.must;
		x->rmay = s->cdpr.may;
		x->rmust = s->cdpr.must;
		x->tmay = s->ctouch.may;
		x->tmust = s->ctouch.must;
		x->seen |= 1;
		return;
	}
	x->dmay |= s->cdp.may;
	x->dmust &= s->cdp.must;
	x->rmay |= s->cdpr.may;
	x->rmust &= s->cdpr.must;
	x->tmay |= s->ctouch.may;
	x->tmust &= s->ctouch.must;
}

/* The guard on r0 at the return of a call whose callee's exits x (of this frame's dynptrs, or
 * up: of the frame this function was handed) made or released them on some paths: each side
 * what the exits of its class leave of s's masks (none when it does not fit). */
static void set_key(struct astate *s, const struct dp_exit *x, bool up)
{
	struct dp_guard g = { .g = 0, .c = 0, .modes = (uint8_t)(3 & ~x->knot), .view = up };
	struct life l[2][3];
	uint8_t low[2];

	if (!g.modes)
		return;
	for (int c = 0; c < 2; c++) {
		const uint64_t *k = x->k[c];

		kind_lives(s, up, l[c]);
		life_return(&l[c][0], k[0], k[1], k[4], k[5]);
		life_return(&l[c][1], k[2], k[3], k[4], k[5]);
		if (up) {
			l[c][2].may |= k[4];
			l[c][2].must |= k[5];
		}
		low[c] = x->kseen & (1u << c) ? lives_low(l[c]) : 64;
	}
	g.base = low[0] < low[1] ? low[0] : low[1];
	for (int c = 0; c < 2; c++) {
		if (!(x->kseen & (1u << c))) {	/* (no exit of the class: the empty side) */
			for (int j = 0; j < 3; j++) {
				g.m[c][j][0] = 0;
				g.m[c][j][1] = UINT32_MAX;
			}
		} else if (!side_set(l[c], g.base, g.m[c])) {
			return;
		}
	}
	s->dpg = guard_keep(&g, NULL, NULL);
}

/* What function f's exits left of the frame they made or released dynptrs in (x), given back
 * to state s of function fc at its call of f: fc's own frame, or the one it was handed (its
 * astate.cdp).  every: f ran (a static call), else it may have run no time (bpf_loop). */
static void give_back(struct scev_ctx *cx, struct astate *s, uint32_t fc, const struct dp_exit *x,
		      bool every)
{
	/* (the frame this function was handed, whose dynptrs it holds as astate.cdp: a dynptr
	 * handed two levels down, made or released there) */
	bool up;
	struct life *dp, *dpr;
	uint64_t tmust = every ? x->tmust : 0;

	if ((x->seen & 3) != 3 || !x->tmay)
		return;
	up = x->caller != fc && x->caller == view_frame(cx, fc);
	if (x->caller != fc && !up) {
		/* (another frame's, or several: the verdict refuses the callee's calls) */
		if (!cx->first_pass)
			cx->dp_out = true;
		return;
	}
	/* made or released on some of its paths only: the kernel walks them apart, and may
	 * tell them by the result (`if (init(&d)) return;`), which the joined masks cannot: an
	 * unsafe verdict then may rest on a path the kernel knows is not taken (scev.c).  (Not
	 * a bpf_loop callback's: its result does not reach the caller.) */
	if (every && (x->tmay & ~x->tmust) && !cx->first_pass)
		cx->dp_out = true;
	/* (the exits' masks are those of the frame at every call: this one's where touched) */
	dp = up ? &s->cdp : &s->dp;
	dpr = up ? &s->cdpr : &s->dpr;
	if (dp->may & x->tmay)
		drop_slices(s, false);
	/* made or released on some paths, told apart by its result: the masks after the paths
	 * that return 0 and after the others, for the caller's test of r0 (astate.dpg) */
	s->dpg = NULL;
	if (every && (x->tmay & ~x->tmust) && !x->key_bad && x->kseen)
		set_key(s, x, up);
	life_return(dp, x->dmay, x->dmust, x->tmay, tmust);
	life_return(dpr, x->rmay, x->rmust, x->tmay, tmust);
	if (up) {	/* (which this function's exits give back in turn) */
		struct dp_exit *a = cx->dp_exit_acc ? &cx->dp_exit_acc[fc] : NULL;

		s->ctouch.may |= x->tmay;
		s->ctouch.must |= tmust;
		if (a) {
			a->caller = !(a->seen & 2) || a->caller == x->caller ? x->caller : UINT16_MAX;
			a->seen |= 2;
		}
	}
}

void absint_dynptr_return(struct scev_ctx *cx, struct astate *s, uint32_t pc, uint32_t f)
{
	if (cx->dp_exit)
		give_back(cx, s, func_of(cx, pc), &cx->dp_exit[f], true);
}

void absint_dynptr_cb_return(struct scev_ctx *cx, struct astate *s, uint32_t pc, uint32_t cb)
{
	/* (the callback's exits joined with the state before the call: it may run no time, and
	 * the kernel explores that path too) */
	if (cx->dp_exit && cb < cx->st.cfg->nfuncs && loop_cb(cx, cb))
		give_back(cx, s, func_of(cx, pc), &cx->dp_exit[cb], false);
}

/* Whether the running pass saw no more of the callbacks' callers' dynptrs than the last one did
 * (exact: nor fewer). */
static bool cb_facts_settled(const struct scev_ctx *cx, bool exact)
{
	for (uint32_t f = 0; cx->cbdp && f < cx->st.cfg->nfuncs; f++) {
		const struct iter_in *u = &cx->cbdp[f], *a = &cx->cbdp_acc[f];

		if (exact ? u->seen != a->seen || u->caller != a->caller || u->may != a->may ||
			    u->dframe != a->dframe || u->omay != a->omay || u->oframe != a->oframe ||
			    u->must != a->must || u->dmay != a->dmay || u->dmust != a->dmust ||
			    u->drmay != a->drmay || u->drmust != a->drmust
			  : a->seen && (!u->seen ? a->dmay != 0
				       : (a->may & ~u->may) || (u->must & ~a->must) ||
					 (a->dmay & ~u->dmay) || (u->dmust & ~a->dmust) ||
					 (a->drmay & ~u->drmay) || (u->drmust & ~a->drmust) ||
					 (a->dmay && u->caller != a->caller &&
					  u->caller != UINT16_MAX) ||
					 (a->omay & ~u->omay) ||
					 (a->omay && u->oframe != a->oframe &&
					  u->oframe != UINT16_MAX) ||
					 (u->dframe != a->dframe && u->dframe != UINT16_MAX)))
			return false;
	}
	return true;
}

void absint_dynptr_pass_start(struct scev_ctx *cx)
{
	uint32_t n = cx->st.cfg->nfuncs;

	if (cx->cbdp)
		absint_iter_in_start(cx->cbdp, cx->cbdp_acc, n, cx->iter_join);
	if (!cx->dp_exit)
		return;
	for (uint32_t f = 0; f < n; f++) {
		struct dp_exit *u = &cx->dp_exit[f];
		const struct dp_exit *a = &cx->dp_exit_acc[f];

		/* (a re-run, scev.c: joined with every pass's, so they only grow) */
		if (cx->iter_join && (u->seen & 1) && (a->seen & 1)) {
			u->dmay |= a->dmay;
			u->dmust &= a->dmust;
			u->rmay |= a->rmay;
			u->rmust &= a->rmust;
			u->tmay |= a->tmay;
			u->tmust &= a->tmust;
			for (int c = 0; c < 2; c++)
				if ((u->kseen & a->kseen) & (1u << c))
					masks_join(u->k[c], a->k[c]);
				else if (a->kseen & (1u << c))
					memcpy(u->k[c], a->k[c], sizeof(u->k[c]));
			u->kseen |= a->kseen;
			u->knot |= a->knot;
			u->key_bad |= a->key_bad;
			if ((u->seen & 2) && (a->seen & 2) && u->caller != a->caller)
				u->caller = UINT16_MAX;
			else if (a->seen & 2)
				u->caller = a->caller;
			u->seen |= a->seen;
		} else if (!cx->iter_join || a->seen) {
			*u = *a;
		}
	}
	memset(cx->dp_exit_acc, 0, n * sizeof(*cx->dp_exit_acc));
}

bool absint_dynptr_exit_settled(const struct scev_ctx *cx)
{
	if (!cb_facts_settled(cx, false))
		return false;
	for (uint32_t f = 0; cx->dp_exit && f < cx->st.cfg->nfuncs; f++) {
		const struct dp_exit *u = &cx->dp_exit[f], *a = &cx->dp_exit_acc[f];

		/* (what the callers were given at the returns, u, covers every exit the running pass
		 * saw, a: where u says every exit touched a slot, so did a's; a slot a touched, u
		 * touched too, with values as wide) */
		if (!(a->seen & 1))
			continue;
		if (!(u->seen & 1) ? a->tmay != 0 : (u->tmust & ~a->tmust) != 0)
			return false;
		if (!a->tmay)
			continue;
		if ((a->seen & ~u->seen) || (a->dmay & ~u->dmay) ||
		    (u->dmust & ~a->dmust) || (a->rmay & ~u->rmay) || (u->rmust & ~a->rmust) ||
		    (a->tmay & ~u->tmay) || (u->tmust & ~a->tmust) ||
		    (u->caller != a->caller && u->caller != UINT16_MAX))
			return false;
		/* (the classes by result the callers' guards read, likewise) */
		if (u->key_bad)
			continue;
		if (a->key_bad || (a->kseen & ~u->kseen) || (a->knot & ~u->knot))
			return false;
		for (int c = 0; c < 2; c++)
			for (int k = 0; k < 6 && (a->kseen & (1u << c)); k += 2)
				if ((a->k[c][k] & ~u->k[c][k]) || (u->k[c][k + 1] & ~a->k[c][k + 1]))
					return false;
	}
	return true;
}

bool absint_dynptr_exit_same(const struct scev_ctx *cx)
{
	if (!cb_facts_settled(cx, true))
		return false;
	for (uint32_t f = 0; cx->dp_exit && f < cx->st.cfg->nfuncs; f++) {
		const struct dp_exit *u = &cx->dp_exit[f], *a = &cx->dp_exit_acc[f];

		if (u->seen != a->seen || u->caller != a->caller || u->dmay != a->dmay ||
		    u->dmust != a->dmust || u->rmay != a->rmay || u->rmust != a->rmust ||
		    u->tmay != a->tmay || u->tmust != a->tmust || u->kseen != a->kseen ||
		    u->knot != a->knot ||
		    u->key_bad != a->key_bad || memcmp(u->k, a->k, sizeof(u->k)))
			return false;
	}
	return true;
}

int absint_dynptr_setup(struct scev_ctx *cx)
{
	const struct scev_loops *lf = cx->st.loops;

	cx->dp_loop = NULL;
	cx->dp_sub = false;
	cx->dp_out = false;
	cx->dp_pkt = false;
	cx->dp_clone = false;
	for (uint32_t pc = 0; pc < cx->len; pc += ebpf_insn_slots(&cx->insns[pc])) {
		if (!ebpf_is_call(&cx->insns[pc]))
			continue;	/* (DP_OTHER and DK_NONE: nothing below) */
		int k = call_kind(cx, pc), dk = absint_dynptr_kfunc(cx, pc);

		if (dk == DK_FROM_SKB || dk == DK_FROM_XDP)
			cx->dp_pkt = true;
		if (dk == DK_CLONE)
			cx->dp_clone = true;
		if (k != DP_OTHER && func_of(cx, pc) != 0)
			cx->dp_sub = true;
		if (k == DP_OTHER || k == DP_USE || cx->dp_loop)
			continue;
		if (!(cx->dp_loop = arena_zalloc(lf->nloops ? lf->nloops : 1, 1)))
			return -1;
	}
	/* (the callers' dynptrs at bpf_loop calls: when a callback may use one) */
	if (cx->dp_sub &&
	    (!(cx->cbdp = arena_zalloc(cx->st.cfg->nfuncs, sizeof(*cx->cbdp))) ||
	     !(cx->cbdp_acc = arena_zalloc(cx->st.cfg->nfuncs, sizeof(*cx->cbdp_acc)))))
		return -1;
	/* (what subprograms leave of their callers' dynptrs: when one may make or release one) */
	if (cx->dp_sub && cx->dp_loop &&
	    (!(cx->dp_exit = arena_zalloc(cx->st.cfg->nfuncs, sizeof(*cx->dp_exit))) ||
	     !(cx->dp_exit_acc = arena_zalloc(cx->st.cfg->nfuncs, sizeof(*cx->dp_exit_acc)))))
		return -1;
	if (!cx->dp_loop)
		return 0;
	for (uint32_t l = 0; l < lf->nloops; l++) {
		const struct scev_loop *L = &lf->loops[l];

		for (uint32_t k = 0; k < L->nblocks && !cx->dp_loop[l]; k++) {
			const struct scev_block *bl = &cx->st.cfg->blocks[L->blocks[k]];

			for (uint32_t pc = bl->first; pc <= bl->last;
			     pc += ebpf_insn_slots(&cx->insns[pc])) {
				const struct bpf_insn *i = &cx->insns[pc];
				int kd = call_kind(cx, pc);

				/* (or a call of a function, or a bpf_loop call of a
				 * callback, that may make or release a dynptr of this
				 * frame) */
				if ((kd != DP_OTHER && kd != DP_USE) ||
				    (cx->dp_exit && (ebpf_is_pseudo_call(i) ||
						     (ebpf_is_helper_call(i) &&
						      cb_ctx_reg(i->imm)))))
					cx->dp_loop[l] = 1;
			}
		}
	}
	return 0;
}

void absint_dynptr_loop_state(const struct scev_ctx *cx, uint32_t l, struct astate *s)
{
	/* (the masks at the header join the back edges' without it) */
	s->dpg = NULL;
	if (cx->dp_loop && cx->dp_loop[l])
		drop_slices(s, false);
}

#define VFAIL(kind_, pc_, ...)                                                                   \
	do {                                                                                      \
		verdict_fail(v, (kind_), (pc_), __VA_ARGS__);                                    \
		return true;                                                                      \
	} while (0)

/* A helper whose every memory argument verify_helper checks with its span (absint_iter.c's
 * rule): one with a prototype and no unmodeled argument, and not a callback helper. */
static bool helper_spans_checked(const struct astate *s, const struct bpf_insn *i)
{
	const struct ebpf_helper_proto *p;

	if (!ebpf_is_helper_call(i) || absint_cb_helper(i->imm))
		return false;
	p = absint_helper_proto(s, i->imm);
	return p && !ebpf_helper_proto_unmodeled_arg(p);
}

/* Whether the program calls an open-coded iterator kfunc. */
static bool any_iter(const struct scev_ctx *cx)
{
	for (uint32_t pc = 0; pc < cx->len; pc += ebpf_insn_slots(&cx->insns[pc]))
		if (absint_iter_kfunc(cx, pc))
			return true;
	return false;
}

static int64_t off_of(int b)
{
	return -8 * (int64_t)(b + 1);
}

/* Function f is a static subprogram the kernel verifies in its callers' states: not main, not
 * a global function (verified on its own), nor a callback or a function whose address is taken
 * (called by a helper). */
static bool plain_static(const struct scev_ctx *cx, uint32_t f)
{
	if (f == 0 || absint_global(cx, f) || (cx->fn_cb && cx->fn_cb[f]))
		return false;
	for (uint32_t pc = 0; pc < cx->len; pc += ebpf_insn_slots(&cx->insns[pc]))
		if (ebpf_is_ldimm64(&cx->insns[pc]) && cx->insns[pc].src_reg == BPF_PSEUDO_FUNC &&
		    func_of(cx, pc + 1 + (uint32_t)cx->insns[pc].imm) == f)
			return false;
	return true;
}

bool absint_dynptr_verify_outer(struct scev_ctx *cx, struct scev_verdict *v,
				const struct astate *s, uint32_t pc, const struct aval *a,
				__int128 lo, __int128 hi)
{
	const struct iter_in *c = dp_facts(cx, func_of(cx, pc));
	/* (the caller's dynptrs at the calls, and those this function made there since) */
	uint64_t live = (caller_dps(cx, func_of(cx, pc)) ? c->dmay : 0) | s->cdp.may;

	if (!live && !(c && c->seen && c->omay))
		return false;
	for (uint64_t m = live; m; m &= m - 1) {
		int64_t off = off_of(__builtin_ctzll(m));

		if ((!c || !c->seen || c->dframe == UINT16_MAX ||
		     aval_caller_may(a->map, c->dframe)) &&
		    lo < off + 16 && hi > off)
			VFAIL(VERDICT_UNSUPPORTED, pc, "access to the bytes of the dynptr at fp%lld "
			      "of the caller's frame while it may be live", (long long)off);
	}
	/* (the middle function's own, which it gave this one no pointer to) */
	for (uint64_t m = c && c->seen ? c->omay : 0; m; m &= m - 1) {
		int64_t off = off_of(__builtin_ctzll(m));

		if ((c->oframe == UINT16_MAX || aval_caller_may(a->map, c->oframe)) &&
		    lo < off + 16 && hi > off)
			VFAIL(VERDICT_UNSUPPORTED, pc, "access to the bytes of the dynptr at fp%lld "
			      "of a caller's frame while it may be live", (long long)off);
	}
	return false;
}

/* What the kernel says after "cannot pass in dynptr at an offset=" for helper id (kind). */
static const char *dp_slot_words(int32_t id, int kind)
{
	switch (kind) {
	case DP_FROM_MEM: case DP_RESERVE: return "Dynptr has to be an uninitialized dynptr";
	case DP_RELEASE: return "arg 1 is an unacquired reference";
	default: return id == BPF_FUNC_dynptr_read ? "Expected an initialized dynptr as arg #2"
						  : "Expected an initialized dynptr as arg #0";
	}
}

/* The 16 bytes a dynptr argument d points at, in this function's frame or (caller) its
 * caller's: a constant, in-frame, 8-aligned offset (*off) and its mask bit (*b); true when the
 * verdict failed (why: the kernel's words for a misaligned one). */
static bool dp_slot_fails(struct scev_verdict *v, uint32_t pc, const char *name,
			  const struct aval *d, bool caller, const char *why, int64_t *off, int *b)
{
	const char *at = caller ? " of the caller's frame" : "";

	if (!range_is_const(&d->r))
		VFAIL(VERDICT_UNSUPPORTED, pc, "%s: the dynptr is not at a constant offset of the "
		      "%s", name, caller ? "caller's frame" : "frame");
	*off = (int64_t)d->r.umin;
	/* (the kernel's stack_slot_obj_get_spi: 8-aligned, both slots below the frame pointer) */
	if (*off % 8 || *off + 16 > 0)
		VFAIL(VERDICT_UNSAFE, pc, "cannot pass in dynptr at an offset=%lld: %s (%s: the "
		      "dynptr%s is not 16 bytes of the frame at an 8-aligned offset)",
		      (long long)*off, why, name, at);
	if (*off < -FP_FRAME || (*b = dp_bit(*off)) < 0)
		VFAIL(VERDICT_UNSAFE, pc, "%s: the dynptr at fp%lld%s is not 16 bytes of the frame",
		      name, (long long)*off, at);
	return false;
}

/* The dynptr argument of dynptr helper call pc (kind), at bit b of a frame whose dynptrs are
 * dp, dpr and open-coded iterators it_may (at: "" for this frame, else which): made on bytes
 * holding no ringbuf dynptr, no other live dynptr nor iterator; used or released where one is
 * live on every path, a ringbuf one for a release.  True when the verdict failed. */
static bool dp_arg_fails(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			 uint32_t pc, int kind, int reg, const char *name, int b,
			 const struct life *dp, const struct life *dpr, uint64_t it_may,
			 const char *at)
{
	const struct bpf_insn *i = &cx->insns[pc];
	int64_t off = off_of(b);
	uint64_t bit = 1ull << b;

	if (kind == DP_MAKE)
		goto made;
	if (kind == DP_FROM_MEM || kind == DP_RESERVE) {
		const struct aval *m = &s->regs[1];

		if (kind == DP_FROM_MEM) {
			if (m->kind == AV_TOP)
				VFAIL(VERDICT_UNSUPPORTED, pc, "bpf_dynptr_from_mem: R1 may not be a map "
				      "value");
			if (m->kind != AV_PTR || m->region != REGION_MAP_VALUE)
				VFAIL(VERDICT_UNSAFE, pc, "Unsupported reg type %s for "
				      "bpf_dynptr_from_mem data", m->kind == AV_SCALAR ? "scalar"
				      : claim_region_name(m->region));
		} else if (m->kind == AV_PTR && m->region == REGION_MAP_HANDLE &&
			   m->map < cx->nmaps && cx->maps[m->map].type != BPF_MAP_TYPE_RINGBUF) {
			VFAIL(VERDICT_UNSAFE, pc, "bpf_ringbuf_reserve_dynptr with map '%s' "
			      "(type %u): not a ringbuf", cx->maps[m->map].name,
			      cx->maps[m->map].type);
		}
made:
		if (dp_covers(dpr->may) & (dp_cover(b)))
			VFAIL(VERDICT_UNSAFE, pc, "%s: cannot overwrite referenced dynptr (a ringbuf "
			      "dynptr at fp%lld%s may be live)", name,
			      (long long)off_of(__builtin_ctzll(dpr->may)), at);
		if (dp_covers(dp->may & ~bit) & dp_cover(b))
			VFAIL(VERDICT_UNSUPPORTED, pc, "%s: the dynptr at fp%lld%s overlaps another "
			      "live one", name, (long long)off, at);
		if (it_may & dp_cover(b))
			VFAIL(VERDICT_UNSUPPORTED, pc, "%s: the dynptr at fp%lld%s overlaps a live "
			      "open-coded iterator", name, (long long)off, at);
		return false;	/* (the other arguments: verify_helper, with absint_dynptr_proto) */
	}
	if (!(dp->must & bit))
		VFAIL(VERDICT_UNSAFE, pc, "Expected an initialized dynptr as arg #%d (%s: no dynptr "
		      "at fp%lld%s on some path: never made, released or overwritten)",
		      reg - 1, name, (long long)off, at);
	if (kind == DP_RELEASE) {
		if (!(dpr->may & bit))
			VFAIL(VERDICT_UNSAFE, pc, "arg 1 is an unacquired reference (%s of the local "
			      "dynptr at fp%lld%s)", name, (long long)off, at);
		if (!(dpr->must & bit))
			VFAIL(VERDICT_UNSAFE, pc, "arg 1 is an unacquired reference (%s: the dynptr at "
			      "fp%lld%s is a local one on some path)", name, (long long)off, at);
		return false;
	}
	if (ebpf_is_helper_call(i) && i->imm == BPF_FUNC_dynptr_data && (s->init & 1u << 3))
		return absint_dynptr_data_size_fails(v, s, pc);
	return false;
}

static bool dp_verify_arg(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			  uint32_t pc, int kind, int reg, const char *name, const char *words);

/* Whether a program of the type analyzed may write packet data (the kernel's
 * may_access_direct_pkt_data for BPF_WRITE), which bpf_dynptr_slice_rdwr asks whatever its
 * dynptr's kind; the skb dynptrs of the others are read-only. */
static bool pkt_writer(const struct scev_ctx *cx)
{
	switch (cx->prog_type) {
	case BPF_PROG_TYPE_SCHED_CLS: case BPF_PROG_TYPE_SCHED_ACT: case BPF_PROG_TYPE_XDP:
	case BPF_PROG_TYPE_LWT_XMIT: case BPF_PROG_TYPE_SK_SKB: case BPF_PROG_TYPE_SK_MSG:
	case BPF_PROG_TYPE_CGROUP_SOCKOPT:
		return true;
	default:
		return false;
	}
}

/* Argument reg of a dynptr kfunc call, a number (check_kfunc_args: "R%d is not a scalar"). */
static bool dk_scalar_fails(struct scev_verdict *v, const struct astate *s, uint32_t pc, int reg,
			    const char *name)
{
	if (s->regs[reg].kind == AV_TOP)
		VFAIL(VERDICT_UNSUPPORTED, pc, "%s: R%d may be a pointer", name, reg);
	if (s->regs[reg].kind != AV_SCALAR)
		VFAIL(VERDICT_UNSAFE, pc, "R%d is not a scalar (%s's argument %d is a number)", reg,
		      name, reg - 1);
	return false;
}

/* A call of dynptr kfunc dk at pc, as check_kfunc_args and check_special_kfunc take it (true
 * when the verdict failed). */
static bool dk_verify(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
		      uint32_t pc, int dk)
{
	static const char used[] = "Expected an initialized dynptr as arg #0";
	static const char uninit[] = "Dynptr has to be an uninitialized dynptr";
	const char *name = dk_names[dk];
	bool slice = dk == DK_SLICE || dk == DK_SLICE_RDWR;
	int nargs = slice ? 4 : dk == DK_ADJUST || dk == DK_FROM_SKB || dk == DK_FROM_XDP ? 3
		    : dk == DK_CLONE ? 2 : 1;
	const struct aval *a = &s->regs[1];
	uint64_t len;

	v->checks++;
	for (int r = 1; r <= nargs; r++)
		if (!(s->init & (1u << r)))
			VFAIL(VERDICT_UNSAFE, pc, "R%d !read_ok (%s's argument %d is not written on "
			      "some path)", r, name, r - 1);
	if (dk == DK_FROM_SKB || dk == DK_FROM_XDP) {
		/* (registered for the socket buffer programs' types, for XDP's: the others the
		 * kernel refuses, or takes a trusted skb of a tracing program) */
		if (dk == DK_FROM_SKB ? cx->ctx_model != EBPF_CTX_SKB
				      : cx->prog_type != BPF_PROG_TYPE_XDP)
			VFAIL(VERDICT_UNSUPPORTED, pc, "%s in a program of type %u is not modeled",
			      name, cx->prog_type);
		if (a->kind == AV_TOP)
			VFAIL(VERDICT_UNSUPPORTED, pc, "%s: R1 may not be the context", name);
		if (a->kind != AV_PTR || a->region != REGION_CTX || a->maybe_null ||
		    !range_is_const(&a->r) || a->r.umin)
			VFAIL(VERDICT_UNSAFE, pc, "arg#0 expected pointer to ctx, but got %s (%s)",
			      a->kind == AV_SCALAR ? "scalar" : claim_region_name(a->region), name);
		if (dk_scalar_fails(v, s, pc, 2, name))
			return true;
		return dp_verify_arg(cx, v, s, pc, DP_MAKE, 3, name, uninit);
	}
	if (a->kind == AV_PTR && a->region == REGION_DYNPTR && dk == DK_CLONE)
		VFAIL(VERDICT_UNSUPPORTED, pc, "%s of the dynptr a callback or a global function is "
		      "given is not modeled", name);
	if (dp_verify_arg(cx, v, s, pc, DP_USE, 1, name, used))
		return true;
	if (dk == DK_CLONE) {
		int b = a->region == REGION_STACK ? dp_bit((int64_t)a->r.umin) : -1;

		if (b < 0)
			VFAIL(VERDICT_UNSUPPORTED, pc, "%s of a dynptr of a caller's frame is not "
			      "modeled", name);
		/* (a ringbuf one's clone shares its reference: group_release) */
		return dp_verify_arg(cx, v, s, pc, DP_MAKE, 2, name, uninit);
	}
	if (dk == DK_ADJUST)
		return dk_scalar_fails(v, s, pc, 2, name) || dk_scalar_fails(v, s, pc, 3, name);
	if (!slice)
		return false;
	if (dk_scalar_fails(v, s, pc, 2, name) || dk_scalar_fails(v, s, pc, 4, name))
		return true;
	/* buffer__szk: a constant (tnum_is_const on each path the kernel walks) */
	if (!aval_is_const(&s->regs[4], &len))
		VFAIL(VERDICT_UNSUPPORTED, pc, "%s: R4 is not a known constant (a range: one per "
		      "path is not modeled)", name);
	if (len > DYNPTR_SLICE_MAX)
		VFAIL(VERDICT_UNSUPPORTED, pc, "%s: a size of %llu bytes (more than %u are not "
		      "modeled)", name, (unsigned long long)len, DYNPTR_SLICE_MAX);
	if (dk == DK_SLICE_RDWR && !pkt_writer(cx))
		VFAIL(VERDICT_UNSAFE, pc, "the prog does not allow writes to packet data (%s in a "
		      "program of type %u)", name, cx->prog_type);
	/* (the kernel this was measured on, 6.18, refuses it in every type: "bpf_dynptr_slice_rdwr()
	 * is not allowed", EPERM; where it is taken, a packet dynptr's slice may be its buffer on
	 * the stack, which writes through it would change unseen) */
	if (dk == DK_SLICE_RDWR)
		VFAIL(VERDICT_UNSUPPORTED, pc, "%s: not modeled (refused by the running kernel in "
		      "every program type; a packet dynptr's slice may be its buffer on the stack)",
		      name);
	/* buffer__opt: NULL, or len bytes the kfunc may write */
	if (aval_is_const(&s->regs[3], &len) && len == 0 && s->regs[3].kind == AV_SCALAR)
		return false;
	if (s->regs[3].kind == AV_TOP)
		VFAIL(VERDICT_UNSUPPORTED, pc, "%s: R3 may not be NULL nor a pointer to memory",
		      name);
	return absint_verify_mem_arg(cx, v, s, pc, name, 3);
}

bool absint_dynptr_verify_insn(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			       uint32_t pc)
{
	const struct bpf_insn *i = &cx->insns[pc];
	bool helper = ebpf_is_helper_call(i);
	int kind = helper ? dp_kind(i->imm) : DP_OTHER, dk;

	if (s->dpr.may && func_of(cx, pc) != 0) {
		int k = __builtin_ctzll(s->dpr.may);

		/* a static callee's own ringbuf dynptr: the kernel does not check references at its
		 * exit (check_reference_leak: frameno > 0), but its frame goes with the dynptr, so
		 * nothing can release the reference before the main program's exit refuses it */
		if (ebpf_is_exit(i))
			VFAIL(VERDICT_UNSAFE, pc, "Unreleased reference (the ringbuf dynptr at fp%lld "
			      "of this subprogram's frame may be neither submitted nor discarded when "
			      "it returns: nothing can release it then)", (long long)off_of(k));
		if ((helper && i->imm == BPF_FUNC_tail_call) ||
		    (ebpf_class(i) == BPF_LD && !ebpf_is_ldimm64(i)))
			VFAIL(VERDICT_UNSUPPORTED, pc, "a tail call or LD_ABS in a subprogram while its "
			      "ringbuf dynptr at fp%lld may be live", (long long)off_of(k));
		if ((ebpf_is_pseudo_call(i) || (helper && absint_cb_helper(i->imm))) && cx->ref_tail)
			VFAIL(VERDICT_UNSUPPORTED, pc, "a call while a ringbuf dynptr is live, in a "
			      "program whose subprograms tail-call or use LD_ABS");
	}
	if (s->dpr.may && func_of(cx, pc) == 0) {
		int k = __builtin_ctzll(s->dpr.may);

		if (ebpf_is_exit(i))
			VFAIL(VERDICT_UNSAFE, pc, "BPF_EXIT instruction in main prog would lead to "
			      "reference leak (the ringbuf dynptr at fp%lld may be neither submitted "
			      "nor discarded on some path)", (long long)off_of(k));
		if (helper && i->imm == BPF_FUNC_tail_call)
			VFAIL(VERDICT_UNSAFE, pc, "tail_call would lead to reference leak (the ringbuf "
			      "dynptr at fp%lld may be live)", (long long)off_of(k));
		if (ebpf_class(i) == BPF_LD && !ebpf_is_ldimm64(i))
			VFAIL(VERDICT_UNSAFE, pc, "BPF_LD_[ABS|IND] cannot be mixed with socket "
			      "references (the ringbuf dynptr at fp%lld may be live)",
			      (long long)off_of(k));
		if ((ebpf_is_pseudo_call(i) || (helper && absint_cb_helper(i->imm))) && cx->ref_tail)
			VFAIL(VERDICT_UNSUPPORTED, pc, "a call while a ringbuf dynptr is live, in a "
			      "program whose subprograms tail-call or use LD_ABS");
	}
	if (!ebpf_is_call(i))
		return false;
	if ((dk = absint_dynptr_kfunc(cx, pc)) != DK_NONE)
		return dk_verify(cx, v, s, pc, dk);
	if (kind == DP_OTHER || (kind == DP_USE && !absint_dynptr_on_stack(s, i->imm))) {
		/* a callee, a kfunc or a helper that calls back, given a pointer into this frame,
		 * may read or write a live dynptr's bytes; a plain helper's memory arguments are
		 * checked as accesses (absint_dynptr_verify_stack).  So are a static callee's:
		 * every access it makes through a pointer into this frame is checked against the
		 * dynptrs live at its calls (absint_dynptr_verify_outer), and it may give such a
		 * pointer to nothing but a plain helper or a dynptr helper that uses the dynptr */
		bool outer = caller_dps(cx, func_of(cx, pc)) != NULL || s->cdp.may;
		const struct scev_cb_loop *cb = helper && cb_ctx_reg(i->imm)
						? absint_cb_at(cx, pc) : NULL;
		/* (a static callee, or a bpf_loop, for_each_map_elem or find_vma callback: given
		 * its context) */
		bool static_call = ebpf_is_pseudo_call(i) ?
				   plain_static(cx, func_of(cx, pc + 1 + (uint32_t)i->imm)) :
				   cb && cb->only_bpf_loop && loop_cb(cx, cb->func);
		/* (a global function: its `struct bpf_dynptr *` arguments are checked as such,
		 * absint_dynptr_verify_global_arg) */
		const struct ebpf_global_func *g = ebpf_is_pseudo_call(i) ?
			absint_global(cx, func_of(cx, pc + 1 + (uint32_t)i->imm)) : NULL;

		if ((!s->dp.may && !outer) || helper_spans_checked(s, i))
			return false;
		for (int r = 1; r <= 5; r++) {
			const struct aval *a = &s->regs[r];

			if (!(s->init & (1u << r)) || (static_call && cb && r != cb_ctx_reg(i->imm)))
				continue;	/* (the helper's others: nr or a map, the callback..) */
			if (g && r <= g->nargs &&
			    absint_global_arg(cx, &g->args[r - 1]) == GARG_DYNPTR &&
			    a->kind == AV_PTR && a->region == REGION_STACK)
				continue;
			/* (an unknown value: a static callee sees it unknown, and no access through
			 * it is allowed there) */
			bool may = a->kind == AV_TOP ? !helper && !static_call
				   : a->kind != AV_PTR ? false
				   : a->region == REGION_STACK ? s->dp.may && !static_call
				   : a->region == REGION_CALLER_STACK
				     /* (the frame this one was handed, handed on to a static
				      * callee: checked there against its facts, as here) */
				     ? !(static_call && a->map == view_frame(cx, func_of(cx, pc))) &&
				       (outer || (s->dp.may && (!static_call ||
								aval_caller_self(a->map))))
				   : false;

			if (may)
				VFAIL(VERDICT_UNSUPPORTED, pc, "a call given R%d, which may point into "
				      "%s, while a dynptr is live there", r,
				      s->dp.may ? "the frame" : "a caller's frame");
		}
		return false;
	}
	return dp_verify_arg(cx, v, s, pc, kind, dp_reg(i->imm), ebpf_helper_name(i->imm),
			     dp_slot_words(i->imm, kind));
}

/* The dynptr argument reg of dynptr helper or kfunc call pc (kind; words: what the kernel says
 * of a misaligned one): true when the verdict failed. */
static bool dp_verify_arg(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			  uint32_t pc, int kind, int reg, const char *name, const char *words)
{
	const struct aval *d = &s->regs[reg];
	int64_t off;
	int b;

	v->checks++;
	if (!(s->init & (1u << reg)))
		VFAIL(VERDICT_UNSAFE, pc, "R%d may be read before it is written (not written on some "
		      "path)", reg);
	if (d->kind == AV_TOP)
		VFAIL(VERDICT_UNSUPPORTED, pc, "%s: R%d may not be a pointer to the stack", name, reg);
	if (d->kind == AV_SCALAR || (d->kind == AV_PTR && d->region != REGION_STACK &&
				     d->region != REGION_DYNPTR && d->region != REGION_CALLER_STACK))
		VFAIL(VERDICT_UNSAFE, pc, "R%d type=%s expected=fp (%s takes a dynptr on the stack)",
		      reg, d->kind == AV_SCALAR ? "scalar" : claim_region_name(d->region), name);
	/* (a kfunc's use of the dynptr a callback or a global function is given: a read-only
	 * CONST_PTR_TO_DYNPTR the kernel lets it take) */
	if (d->region == REGION_DYNPTR && kind == DP_USE && absint_is_urb_dynptr(d))
		return false;
	if (d->region == REGION_DYNPTR)
		VFAIL(VERDICT_UNSAFE, pc, "%s: R%d is a bpf_user_ringbuf_drain sample's dynptr, which "
		      "%s", name, reg, kind == DP_RELEASE ? "is not a ringbuf dynptr reference"
		      : kind == DP_USE ? "is not at offset 0" : "is initialized already");
	if (d->region == REGION_CALLER_STACK) {
		uint32_t f = func_of(cx, pc);
		const struct iter_in *c = dp_facts(cx, f);

		/* a caller's dynptr, given to this static function: made, used or released here,
		 * in the frame of its one caller, out of loops; checked against what was live there
		 * at its calls and what this function did since (astate.cdp).  A bpf_loop
		 * callback's, through its context pointer: used only */
		if (!(loop_cb(cx, f) || plain_static(cx, f)) || d->maybe_null ||
		    (d->map & CALLER_SET) || d->map >= cx->st.cfg->nfuncs)
			VFAIL(VERDICT_UNSUPPORTED, pc, "%s: the dynptr may be in several callers' "
			      "frames, or this function is not a static subprogram nor a bpf_loop "
			      "callback", name);
		if (kind == DP_MAKE)
			VFAIL(VERDICT_UNSUPPORTED, pc, "%s: a kfunc making a dynptr of a caller's "
			      "frame is not modeled", name);
		/* (which of that frame's ringbuf dynptrs share the reference is kept there) */
		if (kind == DP_RELEASE && cx->dp_clone)
			VFAIL(VERDICT_UNSUPPORTED, pc, "%s: a release of a caller's ringbuf dynptr in a "
			      "program that clones dynptrs is not modeled", name);
		if (dp_slot_fails(v, pc, name, d, true, words, &off, &b))
			return true;
		if (!c || !c->seen || c->dframe != d->map)
			VFAIL(VERDICT_UNSUPPORTED, pc, "%s: the dynptr at fp%lld of the function at "
			      "%u is not known live at every call of this one", name, (long long)off,
			      cx->st.cfg->funcs[d->map].start);
		if (kind != DP_USE && in_loop(cx, pc))
			VFAIL(VERDICT_UNSUPPORTED, pc, "%s: a subprogram making or releasing a dynptr "
			      "of its caller's frame in a loop is not modeled", name);
		absint_frame_depth(cx, d->map, off);
		/* (the iterators at the calls are the caller's own: a frame further up may hold
		 * some where one is made) */
		return dp_arg_fails(cx, v, s, pc, kind, reg, name, b, &s->cdp, &s->cdpr,
				    c->dframe == c->caller ? c->may : any_iter(cx) ? ~0ull : 0,
				    " of the caller's frame");
	}
	if (func_of(cx, pc) != 0 && !plain_static(cx, func_of(cx, pc)))
		VFAIL(VERDICT_UNSUPPORTED, pc, "%s: dynptrs in a callback or a global function's "
		      "frame are not modeled", name);
	if (dp_slot_fails(v, pc, name, d, false, words, &off, &b))
		return true;
	absint_frame_depth(cx, func_of(cx, pc), off);
	return dp_arg_fails(cx, v, s, pc, kind, reg, name, b, &s->dp, &s->dpr, s->it.may, "");
}

bool absint_dynptr_data_size_fails(struct scev_verdict *v, const struct astate *s, uint32_t pc)
{
	/* ARG_CONST_ALLOC_SIZE_OR_ZERO: a known constant (one per path in the kernel) */
	const struct aval *n = &s->regs[3];
	uint64_t len;

	if (n->kind == AV_TOP)
		VFAIL(VERDICT_UNSUPPORTED, pc, "bpf_dynptr_data: R3 may be a pointer");
	if (n->kind != AV_SCALAR)
		VFAIL(VERDICT_UNSAFE, pc, "R3 type=%s expected=scalar (bpf_dynptr_data's size)",
		      claim_region_name(n->region));
	if (!aval_is_const(n, &len))
		VFAIL(VERDICT_UNSUPPORTED, pc, "bpf_dynptr_data: R3 is not a known constant "
		      "(a range: one per path is not modeled)");
	if (len > DYNPTR_MEM_MAX)
		VFAIL(VERDICT_UNSUPPORTED, pc, "bpf_dynptr_data: a size of %llu bytes (more "
		      "than %u are not modeled)", (unsigned long long)len, DYNPTR_MEM_MAX);
	return false;
}

bool absint_dynptr_verify_stack(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
				uint32_t pc, __int128 lo, __int128 hi, bool write)
{
	for (uint64_t m = s->dp.may; m; m &= m - 1) {
		int b = __builtin_ctzll(m);
		int64_t off = off_of(b);

		if (!(lo < off + 16 && hi > off))
			continue;
		if (ebpf_is_call(&cx->insns[pc]))
			VFAIL(VERDICT_UNSUPPORTED, pc, "a helper's memory argument [%lld, %lld) "
			      "overlaps the dynptr at fp%lld while it may be live", absint_ll_sat(lo),
			      absint_ll_sat(hi), (long long)off);
		if (write && (s->dpr.must & (1ull << b)))
			VFAIL(VERDICT_UNSAFE, pc, "cannot overwrite referenced dynptr (a store into "
			      "the ringbuf dynptr at fp%lld)", (long long)off);
		if (!write && (s->dp.must & (1ull << b)))
			VFAIL(VERDICT_UNSAFE, pc, "invalid read from stack off %lld (the bytes of the "
			      "dynptr at fp%lld)", absint_ll_sat(lo), (long long)off);
		VFAIL(VERDICT_UNSUPPORTED, pc, "access to the bytes of the dynptr at fp%lld while it "
		      "may be live (a store destroys a local one)", (long long)off);
	}
	return false;
}

bool absint_dynptr_verify_global_arg(struct scev_ctx *cx, struct scev_verdict *v,
				     const struct astate *s, uint32_t pc, unsigned reg,
				     const char *fname)
{
	const struct aval *d = &s->regs[reg];
	int64_t off;
	int b;

	/* (a dynptr the calling function was given: a sample's, or its own argument) */
	if (absint_is_urb_dynptr(d))
		return false;
	if (d->kind == AV_TOP)
		VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of global function %s() may not be a pointer to "
		      "a dynptr", reg, fname);
	if (d->kind != AV_PTR || (d->region != REGION_STACK && d->region != REGION_CALLER_STACK))
		VFAIL(VERDICT_UNSAFE, pc, "R%u type=%s expected=fp (argument %u of global function "
		      "%s() is a struct bpf_dynptr *)", reg, d->kind == AV_SCALAR ? "scalar"
		      : claim_region_name(d->region), reg - 1, fname);
	if (d->region == REGION_CALLER_STACK)
		VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of global function %s(): a dynptr of a caller's "
		      "frame handed further is not modeled", reg, fname);
	char why[48];

	snprintf(why, sizeof(why), "Expected an initialized dynptr as arg #%u", reg - 1);
	if (dp_slot_fails(v, pc, fname, d, false, why, &off, &b))
		return true;
	absint_frame_depth(cx, func_of(cx, pc), off);
	if (!(s->dp.must & (1ull << b)))
		VFAIL(VERDICT_UNSAFE, pc, "Expected an initialized dynptr as arg #%u (global function "
		      "%s(): no dynptr at fp%lld on some path: never made, released or overwritten)",
		      reg - 1, fname, (long long)off);
	return false;
}
