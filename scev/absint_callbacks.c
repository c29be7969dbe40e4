/* bpf_loop, bpf_for_each_map_elem and bpf_find_vma in the range analysis and the safety verdict (callbacks.h
 * says which functions are their callbacks): the call's effect on the caller, the callback's
 * entry state, and the kernel's rules at the call and at the callback's exits.
 *
 * The callback is analyzed as a function of its own, from the join over every bpf_loop call
 * that takes it (the function summaries of scev.c); when the verdict is not safe and its calls
 * give it different contexts, again with a copy of it per context (absint_cb_plan, below, and
 * scev/contexts.c), as the kernel verifies it per call: r1 the index, in [0, min(nr, 2^23))
 * with nr's range at the call; r2 the ctx argument, NULL or a pointer into the caller's frame
 * (REGION_CALLER_STACK, tagged with the function whose frame it is); r3-r5 not readable.  The
 * kernel (6.18, set_loop_callback_state) takes r1 as any scalar and r0 after the call as any
 * scalar: the ranges here are narrower than its, never wider than a run's.
 *
 * A bpf_for_each_map_elem callback is entered as set_map_elem_callback_state enters it: r1 the
 * map (CONST_PTR_TO_MAP), r2 its key (REGION_MAP_KEY: key_size read-only bytes), r3 its value
 * (REGION_MAP_VALUE: value_size bytes, writable unless the map is read-only to programs), r4
 * the ctx as bpf_loop's r2, r5 not readable; it must return 0 or 1.  The helper returns the
 * number of calls made (at most max_entries for an array), or -EINVAL for flags other than 0.  The maps it
 * walks: arrays (every index) and hashes (their elements), percpu and LRU ones included.
 *
 * A bpf_find_vma callback (vma_call) is entered as set_find_vma_callback_state enters it and
 * called at most once; its task argument must be a task_struct (any kernel object of that
 * struct: trusted, or walked to), and the helper is the tracing program types' only.  A
 * bpf_user_ringbuf_drain callback (urb_call) gets the sample's dynptr (REGION_DYNPTR: no access
 * through it; bpf_dynptr_read, bpf_dynptr_write and bpf_dynptr_data take it, absint_helper_proto:
 * the kernel makes it a local dynptr, not read-only, so data's result, REGION_DYNPTR_MEM, is
 * writable and write writes) and the ctx; the map must be a user ring buffer.
 *
 * Accesses through a caller-frame pointer are checked against that frame: inside [-512, 0),
 * and reads only of bytes the caller wrote on every path to each of its bpf_loop calls
 * (outer_init, from the previous pass).  What they read is the caller's cell at its calls
 * (outer_frame; numbers, and pointers that mean the same in every frame: callee_view), joined
 * where writes through such pointers may have changed it with what they wrote (outer_wval), or
 * as it is in a callback run once per call before anything of it may write (cb_once,
 * cb_pre_write).  What they write reaches the caller: its bpf_loop calls forget the span of its
 * frame that stores and helpers anywhere wrote through pointers into it (outer_write, from the
 * previous pass; all of it when some write outside the main function went through a pointer
 * nothing places), but for the values those writes left (absint_cb_kept).  scev.c iterates
 * them with the function summaries and checks that the last pass saw no more than assumed.
 * A callback all of whose calls are in one other function reads that function's cells as they
 * are at its own calls only (cb_view: outer_frame[nfuncs + g], grown and checked with the
 * frames), not at every call that passes a pointer into the frame.
 */
#include <errno.h>
#include <stdio.h>

#include "bpf/helper_proto.h"
#include "scev/absint.h"
#include "util/arena.h"
#include "util/zalloc.h"

#define EINVAL_ 22
#define E2BIG_ 7

static const char *cb_helper_name(int32_t id)
{
	return id == BPF_FUNC_for_each_map_elem ? "bpf_for_each_map_elem"
	       : id == BPF_FUNC_find_vma ? "bpf_find_vma"
	       : id == BPF_FUNC_timer_set_callback ? "bpf_timer_set_callback"
	       : id == BPF_FUNC_user_ringbuf_drain ? "bpf_user_ringbuf_drain" : "bpf_loop";
}

#define MAX_ERRNO_ 4095
#define BPF_MAP_TYPE_USER_RINGBUF_ 31

const struct ebpf_helper_proto *absint_helper_proto(const struct astate *s, int32_t id)
{
	/* bpf_dynptr_read(dst, len, src, offset, flags) from a bpf_user_ringbuf_drain callback's
	 * dynptr (src: CONST_PTR_TO_DYNPTR, read-only use): len bytes written at dst (ARG_PTR_TO_
	 * UNINIT_MEM, ARG_CONST_SIZE_OR_ZERO); 0, -EINVAL (flags) or -E2BIG (past the sample) */
	static const struct ebpf_helper_proto dynptr_read = {
		BPF_FUNC_dynptr_read,
		{ HARG_MEM_UNINIT, HARG_SIZE_OR_ZERO, HARG_ANYTHING, HARG_ANYTHING, HARG_ANYTHING },
		HRET_INTEGER, 0, -EINVAL_, 0, HPT_ALL,
	};

	/* bpf_dynptr_write(dst, offset, src, len, flags) to it (the sample is writable: a local
	 * dynptr, not read-only): len bytes read at src (ARG_PTR_TO_MEM | MEM_RDONLY,
	 * ARG_CONST_SIZE_OR_ZERO); 0, -E2BIG (past the sample) or -EINVAL (flags) */
	static const struct ebpf_helper_proto dynptr_write = {
		BPF_FUNC_dynptr_write,
		{ HARG_ANYTHING, HARG_ANYTHING, HARG_MEM, HARG_SIZE_OR_ZERO, HARG_ANYTHING },
		HRET_INTEGER, 0, -EINVAL_, 0, HPT_ALL,
	};
	/* bpf_dynptr_data(ptr, offset, len): len (ARG_CONST_ALLOC_SIZE_OR_ZERO: a constant,
	 * absint_cb_verify_insn) bytes of the sample, writable, or NULL */
	static const struct ebpf_helper_proto dynptr_data = {
		BPF_FUNC_dynptr_data, { HARG_ANYTHING, HARG_ANYTHING, HARG_ANYTHING },
		HRET_DYNPTR_MEM_OR_NULL, 0, 0, 0, HPT_ALL,
	};
	int reg = id == BPF_FUNC_dynptr_read ? 3 : 1;

	if (absint_timer_helper(id))
		return absint_timer_proto(id);
	if (absint_lock_helper(id))
		return absint_lock_proto(id);
	if (absint_dynptr_proto(id) && absint_dynptr_on_stack(s, id))
		return absint_dynptr_proto(id);
	if (id != BPF_FUNC_dynptr_read && id != BPF_FUNC_dynptr_write &&
	    id != BPF_FUNC_dynptr_data)
		return ebpf_helper_proto(id);
	if (!absint_is_urb_dynptr(&s->regs[reg]) && !absint_dynptr_on_stack(s, id))
		return NULL;
	return id == BPF_FUNC_dynptr_read ? &dynptr_read
	       : id == BPF_FUNC_dynptr_write ? &dynptr_write : &dynptr_data;
}

bool absint_is_urb_dynptr(const struct aval *a)
{
	return a->kind == AV_PTR && a->region == REGION_DYNPTR && !a->maybe_null &&
	       range_is_const(&a->r) && a->r.umin == 0;
}

static bool each_map_type(uint32_t t)
{
	return t == BPF_MAP_TYPE_ARRAY || t == BPF_MAP_TYPE_PERCPU_ARRAY ||
	       t == BPF_MAP_TYPE_HASH || t == BPF_MAP_TYPE_PERCPU_HASH ||
	       t == BPF_MAP_TYPE_LRU_HASH || t == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

/* The map class r1 of a bpf_for_each_map_elem call names (absint_map_class), or UINT32_MAX. */
static uint32_t each_map(const struct scev_ctx *cx, const struct aval *a)
{
	if (a->kind != AV_PTR || a->region != REGION_MAP_HANDLE || a->maybe_null ||
	    a->map >= cx->nmaps || !range_is_const(&a->r) || a->r.umin != 0)
		return UINT32_MAX;
	return a->map;
}

/* Facts of the walk of map class m: its largest max_entries (the class's maps differ in it
 * only when they are hashes) and CB_MAP_* bits.  An inner map's template does not bound the
 * maps put in its place (hash inner maps may have any max_entries, arrays with
 * BPF_F_INNER_MAP too). */
static uint32_t each_entries(const struct scev_ctx *cx, uint32_t m, uint8_t *bits)
{
	uint32_t e = 0, t = cx->maps[m].type;

	*bits = t == BPF_MAP_TYPE_ARRAY || t == BPF_MAP_TYPE_PERCPU_ARRAY ? 0 : CB_MAP_HASH;
	if (!each_map_type(t))
		*bits |= CB_MAP_UNKNOWN;
	for (uint32_t j = 0; j < cx->nmaps; j++) {
		if (cx->maps[j].inner && absint_map_class(cx, cx->maps[j].inner - 1) == m)
			*bits |= CB_MAP_UNKNOWN;
		if (absint_map_class(cx, j) != m)
			continue;
		if (cx->maps[j].flags & BPF_F_INNER_MAP)
			*bits |= CB_MAP_UNKNOWN;
		if (cx->maps[j].max_entries > e)
			e = cx->maps[j].max_entries;
	}
	return e;
}

const struct scev_cb_loop *absint_cb_at(const struct scev_ctx *cx, uint32_t pc)
{
	for (uint32_t k = 0; k < cx->cbl.n; k++)
		for (uint32_t c = 0; c < cx->cbl.v[k].ncalls; c++)
			if (cx->cbl.v[k].calls[c] == pc)
				return &cx->cbl.v[k];
	return NULL;
}

static uint32_t func_of(const struct scev_ctx *cx, uint32_t pc)
{
	return cx->st.cfg->blocks[cx->st.cfg->block_of[pc]].func;
}

/* What the last pass of an analysis that may plan copies saw at one helper call taking a
 * callback (cx->cb_sites, cbl's calls in order): the callback's arguments and the caller's
 * state, joined over its visits. */
struct scev_cb_site {
	struct aval a[6];
	struct astate fr;
	bool seen, bad;
};

/* The record of the helper call at pc in cx->cb_sites, or NULL. */
static struct scev_cb_site *site_of(const struct scev_ctx *cx, uint32_t pc)
{
	uint32_t at = 0;

	for (uint32_t k = 0; cx->cb_sites && k < cx->cbl.n; at += cx->cbl.v[k++].ncalls)
		for (uint32_t c = 0; c < cx->cbl.v[k].ncalls; c++)
			if (cx->cbl.v[k].calls[c] == pc)
				return &cx->cb_sites[at + c];
	return NULL;
}

/* A callback g's call at pc in function f, given arguments a, the caller's state s: what the
 * plan groups (site_of, the last pass only), and g's view of f's frame (cb_view). */
static void site_note(struct scev_ctx *cx, uint32_t pc, uint32_t g, uint32_t f,
		      const struct aval a[6], const struct astate *s)
{
	uint32_t v = cx->st.cfg->nfuncs + g;
	struct scev_cb_site *q;

	if (cx->cb_view && cx->cb_view[g] == f && cx->outer_frame_acc) {
		if ((cx->outer_seen_acc[v] ? astate__join(&cx->outer_frame_acc[v], s, false)
					   : astate__copy(&cx->outer_frame_acc[v], s)) < 0)
			cx->outer_frame_bad = true;
		cx->outer_seen_acc[v] = 1;
	}
	if (cx->first_pass || !(q = site_of(cx, pc)))
		return;
	for (int r = 1; r <= 5; r++)
		q->a[r] = q->seen ? aval_join(&q->a[r], &a[r]) : a[r];
	if ((q->seen ? astate__join(&q->fr, s, false) : astate__copy(&q->fr, s)) < 0)
		q->bad = true;
	q->seen = true;
}

/* Whether callback function r is run at most once per call of its helper, every call being in
 * function owner: bpf_loop's with nr <= 1 at every call (its index is 0), as the kernel counts
 * bpf_loop's calls up to nr.  (bpf_find_vma calls its callback at most once too, but the kernel
 * verifies it as called any number of times, and its selftest unsafe_find_vma is rejected for
 * a second call's write: not counted here either.) */
static bool cb_once(const struct scev_ctx *cx, uint32_t r, uint32_t owner)
{
	uint64_t zero;

	if (!cx->fn_cb || !cx->fn_seen || !(cx->fn_seen[r] & 1) || cx->fn_cb[r] != SCEV_CB_LOOP ||
	    !aval_is_const(&cx->fn_args[r][1], &zero) || zero)
		return false;
	for (uint32_t k = 0; k < cx->cbl.n; k++)
		for (uint32_t c = 0; cx->cbl.v[k].func == r && c < cx->cbl.v[k].ncalls; c++)
			if (func_of(cx, cx->cbl.v[k].calls[c]) != owner)
				return false;
	return true;
}

/* Most calls of the callback a bpf_loop with nr = r1 makes: nr is taken as a u32 by the helper,
 * and above BPF_MAX_LOOPS it makes none (-E2BIG). */
static uint64_t max_calls(const struct aval *nr)
{
	uint64_t m = nr->kind == AV_SCALAR ? nr->r.u32_max : UINT32_MAX;

	return m > SCEV_MAX_LOOPS ? SCEV_MAX_LOOPS : m;
}

/* r3 of a bpf_loop call as the callback's r2: a pointer into this frame becomes one into the
 * caller's frame f. */
static struct aval ctx_arg(const struct scev_ctx *cx, const struct aval *r3, uint32_t f)
{
	struct aval v = *r3;

	if (v.kind == AV_PTR && v.region == REGION_STACK && !v.maybe_null)
		v = aval_caller_ptr(f, absint_frame_slot(cx, f), r3->r);
	v = aval_caller_rebase(&v, absint_frame_slot(cx, f));
	aval_drop_id(&v);
	v.kc = 0;	/* (a callback's call widens: aval.h aval_kconst) */
	return v;
}

void absint_cb_note_unknown(struct scev_ctx *cx, uint32_t pc)
{
	/* (the main function's frame is the outermost: its writes reach no caller) */
	if (func_of(cx, pc) != 0) {
		cx->outer_write_any_acc = true;
		cx->iter_hit_acc = true;	/* (it may reach a caller's iterator) */
	}
}

/* Whether v is a pointer into the packet, its end or its metadata. */
static bool pkt_any(const struct aval *v)
{
	return v->kind == AV_PTR && (v->region == REGION_PKT || v->region == REGION_PKT_END ||
				     v->region == REGION_PKT_META);
}

/* Whether v, written into a caller's frame, means the same there: a number, a map value or
 * handle, the context, a packet pointer (data plus its offsets while no helper changes packet
 * data, which its readers check: absint_caller_load); a pointer into the writer's frame or
 * another would not. */
static bool frame_free(const struct aval *v)
{
	return v->kind == AV_SCALAR || pkt_any(v) ||
	       (v->kind == AV_PTR && (v->region == REGION_MAP_VALUE ||
				      v->region == REGION_MAP_HANDLE || v->region == REGION_CTX));
}

/* The cell of s at exactly [off, off + size), or NULL. */
static const struct acell *cell_at(const struct astate *s, int64_t off, unsigned size)
{
	for (uint32_t k = 0; k < s->n; k++)
		if (s->cells[k].off == off && s->cells[k].size == size)
			return &s->cells[k];
	return NULL;
}

/* A write of val (NULL: unknown) at [lo, lo + size) of frame f, joined into what the running
 * pass saw written there (outer_wval_acc, before outer_write_acc grows by it): a byte already in
 * that span without a cell of the same place and size was written with something else, or
 * lies between writes (the span is their hull): unknown. */
static void wval_note(struct scev_ctx *cx, uint32_t f, int64_t lo, uint64_t size,
		      const struct aval *val)
{
	struct astate *w = &cx->outer_wval_acc[f];
	const struct stack_span *sp = &cx->outer_write_acc[f].s;
	const struct acell *c;
	struct aval u;

	if (!val || !frame_free(val) || size > 8 ||
	    (stack_span_any(sp) && sp->lo < lo + (int64_t)size && lo < sp->hi &&
	     !cell_at(w, lo, (unsigned)size))) {
		astate__invalidate(w, lo, lo + (int64_t)size);
		return;
	}
	u = size < 8 ? aval_zext(val, (unsigned)size) : *val;
	aval_drop_id(&u);
	u.kc = 0;	/* (a callback's call widens: aval.h aval_kconst) */
	aval_drop_pkt_len(&u);
	if ((c = cell_at(w, lo, (unsigned)size)))
		u = aval_join(&c->v, &u);
	if (astate__store(w, lo, (unsigned)size, &u))
		cx->outer_frame_bad = true;
}

/* (iter: the write of an iterator kfunc on its slot, which changes no other byte) */
static void note_write(struct scev_ctx *cx, uint32_t pc, const struct aval *a, int64_t off,
		       uint64_t size, const struct aval *val, bool iter)
{
	if (!cx->outer_write_acc)
		return;
	if (a->kind == AV_PTR && a->region == REGION_CALLER_STACK && a->map != CALLER_ANY &&
	    size <= FP_FRAME && a->r.smin >= -2 * FP_FRAME && a->r.smax <= 2 * FP_FRAME) {
		/* (each frame it may point into: a set of them, or one) */
		for (uint32_t f = 0; f < cx->st.cfg->nfuncs; f++) {
			uint32_t k = absint_frame_slot(cx, f);
			int64_t lo = aval_caller_lo_at(a, f, k);

			if (!aval_caller_may_at(a->map, f, k))
				continue;
			if (lo > a->r.smax)
				lo = a->r.smin;	/* (never: as in absint_cb_verify_access) */
			if (cx->outer_wval_acc)
				wval_note(cx, f, lo + off, (uint64_t)(a->r.smax - lo) + size,
					  lo == a->r.smax ? val : NULL);
			frame_writes_add(&cx->outer_write_acc[f], lo + off,
				       a->r.smax + off + (int64_t)size);
			if (!iter)
				absint_iter_note_outer_write(cx, f, lo + off,
							     a->r.smax + off + (int64_t)size);
		}
		return;
	}
	/* (a write outside a global function's argument may land in any caller's frame) */
	if (a->kind == AV_TOP || a->kind == AV_SCALAR || a->region == REGION_CALLER_STACK ||
	    (a->kind == AV_PTR && a->region == REGION_GMEM &&
	     (a->r.smin + off < 0 || (__int128)a->r.smax + off + size > a->map)))
		absint_cb_note_unknown(cx, pc);
}

void absint_cb_note_write(struct scev_ctx *cx, uint32_t pc, const struct aval *a, int64_t off,
			  uint64_t size, const struct aval *val)
{
	note_write(cx, pc, a, off, size, val, false);
}

void absint_cb_note_iter_write(struct scev_ctx *cx, uint32_t pc, const struct aval *a)
{
	note_write(cx, pc, a, 0, 8, NULL, true);
}

void absint_cb_note_frame(struct scev_ctx *cx, uint32_t f, const struct astate *s)
{
	struct fpmask *acc;

	if (!cx->outer_init_acc || f >= cx->st.cfg->nfuncs)
		return;
	acc = &cx->outer_init_acc[f];
	if (cx->outer_seen_acc[f])
		for (int k = 0; k < FP_FRAME / 64; k++)
			acc->w[k] &= s->sinit.w[k];
	else
		*acc = s->sinit;
	/* (its cells, joined: what the callees read of this frame) */
	if (cx->outer_frame_acc &&
	    (cx->outer_seen_acc[f] ? astate__join(&cx->outer_frame_acc[f], s, false)
				   : astate__copy(&cx->outer_frame_acc[f], s)) < 0)
		cx->outer_frame_bad = true;
	cx->outer_seen_acc[f] = 1;
}

void absint_cb_args_join(struct scev_ctx *cx, uint32_t func, const struct aval a[6])
{
	for (int r = 1; r <= 5; r++)
		cx->fn_args_acc[func][r] = cx->fn_seen_acc[func] & 1
			? aval_join(&cx->fn_args_acc[func][r], &a[r]) : a[r];
	cx->fn_seen_acc[func] |= 1;
}

/* bpf_for_each_map_elem at pc: the callback's arguments, the facts, r0. */
static struct aval each_call(struct scev_ctx *cx, struct astate *s, uint32_t pc,
			     const struct scev_cb_loop *cb, uint32_t f)
{
	const struct aval *fl = &s->regs[4];
	uint32_t m = each_map(cx, &s->regs[1]), e = UINT32_MAX;
	uint8_t bits = CB_MAP_UNKNOWN;
	uint64_t zero;

	if (m != UINT32_MAX)
		e = each_entries(cx, m, &bits);
	if (bits & CB_MAP_UNKNOWN)
		e = UINT32_MAX;
	if (cx->cb) {
		scev_cb_facts__note(cx->cb, pc, false, &fl->r, fl->kind == AV_SCALAR, &fl->r);
		scev_cb_facts__note_map(cx->cb, pc, e, bits);
	}
	if (cb && cb->only_bpf_loop && cx->fn_args_acc) {
		struct aval a[6];

		for (int r = 0; r < 6; r++)
			a[r] = aval_top();
		if (m != UINT32_MAX) {
			a[1] = aval_ptr(REGION_MAP_HANDLE, (uint16_t)m, range_const(0));
			a[2] = aval_ptr(REGION_MAP_KEY, (uint16_t)m, range_const(0));
			a[3] = aval_ptr(REGION_MAP_VALUE, (uint16_t)m, range_const(0));
		}
		a[4] = ctx_arg(cx, &s->regs[3], f);
		absint_cb_args_join(cx, cb->func, a);
		site_note(cx, pc, cb->func, f, a, s);
		/* (this frame's dynptrs, through its context pointer: as bpf_loop's) */
		absint_dynptr_note_cb(cx, f, cb->func, s);
		absint_dynptr_cb_return(cx, s, pc, cb->func);
	}
	if (s->regs[3].kind == AV_PTR && s->regs[3].region == REGION_STACK)
		absint_cb_note_frame(cx, f, s);
	/* r0: the calls made (a u32), or -EINVAL for flags other than 0; a hash walk's are
	 * bounded only by the elements it meets, which a callback inserting ahead of it adds to */
	if (bits & CB_MAP_HASH)
		e = UINT32_MAX;
	if (aval_is_const(fl, &zero) && zero == 0)
		return aval_scalar(range_urange(0, e));
	return aval_scalar(range_srange(-EINVAL_, (int64_t)e));
}

/* bpf_find_vma(task, addr, cb, ctx, flags) at pc (kernel/bpf/task_iter.c): cb(task, vma, ctx)
 * at most once, entered as set_find_vma_callback_state enters it: r1 the task as passed, r2 a
 * vm_area_struct (PTR_TO_BTF_ID), r3 the ctx as bpf_loop's r2, r4-r5 not readable; it must
 * return 0 or 1, and its result is dropped.  r0: 0 when the callback ran, -ENOENT (no mm, no
 * vma at addr), -EBUSY (mmap lock taken) or -EINVAL (flags other than 0). */
static struct aval vma_call(struct scev_ctx *cx, struct astate *s, uint32_t pc,
			    const struct scev_cb_loop *cb, uint32_t f)
{
	if (cb && cb->only_bpf_loop && cx->fn_args_acc) {
		int32_t vma = ebpf_btf_struct_by_name("vm_area_struct");
		struct aval a[6];

		for (int r = 0; r < 6; r++)
			a[r] = aval_top();
		a[1] = s->regs[1];
		aval_drop_id(&a[1]);
		if (vma > 0)
			a[2] = absint_btf_ptr(cx, vma);
		a[3] = ctx_arg(cx, &s->regs[4], f);
		absint_cb_args_join(cx, cb->func, a);
		site_note(cx, pc, cb->func, f, a, s);
		/* (this frame's dynptrs, through its context pointer: as bpf_loop's) */
		absint_dynptr_note_cb(cx, f, cb->func, s);
		absint_dynptr_cb_return(cx, s, pc, cb->func);
	}
	if (s->regs[4].kind == AV_PTR && s->regs[4].region == REGION_STACK)
		absint_cb_note_frame(cx, f, s);
	return aval_scalar(range_srange(-EINVAL_, 0));
}

/* bpf_user_ringbuf_drain(map, cb, ctx, flags) at pc (kernel/bpf/ringbuf.c): cb(dynptr, ctx) once
 * per sample, at most 2^17, entered as set_user_ringbuf_callback_state enters it: r1 a dynptr to
 * the sample (CONST_PTR_TO_DYNPTR, local), r2 the ctx as bpf_loop's r2, r3-r5 not readable; it
 * must return 0 or 1.  r0: the samples drained, or -errno (-EINVAL for flags other than the
 * wakeup bits, -EBUSY, a bad sample's). */
static struct aval urb_call(struct scev_ctx *cx, const struct astate *s, uint32_t pc,
			    const struct scev_cb_loop *cb, uint32_t f)
{
	if (cb && cb->only_bpf_loop && cx->fn_args_acc) {
		struct aval a[6];

		for (int r = 0; r < 6; r++)
			a[r] = aval_top();
		a[1] = aval_ptr(REGION_DYNPTR, 0, range_const(0));
		a[2] = ctx_arg(cx, &s->regs[3], f);
		absint_cb_args_join(cx, cb->func, a);
		site_note(cx, pc, cb->func, f, a, s);
	}
	if (s->regs[3].kind == AV_PTR && s->regs[3].region == REGION_STACK)
		absint_cb_note_frame(cx, f, s);
	return aval_scalar(range_srange(-MAX_ERRNO_, SCEV_MAX_USER_RINGBUF_SAMPLES));
}

struct aval absint_cb_call(struct engine *en, struct astate *s, uint32_t pc,
			   struct stack_span *writes)
{
	struct scev_ctx *cx = en->cx;
	const struct aval *nr = &s->regs[1], *fl = &s->regs[4];
	const struct scev_cb_loop *cb = absint_cb_at(cx, pc);
	uint32_t f = func_of(cx, pc);
	uint64_t m = max_calls(nr), zero;

	/* the callbacks' writes into this frame, as the previous pass saw them (scev.c) */
	*writes = cx->outer_write ? cx->outer_write[f].s : (struct stack_span){ -FP_FRAME, 0 };

	if (cx->insns[pc].imm == BPF_FUNC_for_each_map_elem)
		return each_call(cx, s, pc, cb, f);
	if (cx->insns[pc].imm == BPF_FUNC_find_vma)
		return vma_call(cx, s, pc, cb, f);
	if (cx->insns[pc].imm == BPF_FUNC_user_ringbuf_drain)
		return urb_call(cx, s, pc, cb, f);

	if (cx->cb)
		scev_cb_facts__note(cx->cb, pc, nr->kind == AV_SCALAR, &nr->r,
				    fl->kind == AV_SCALAR, &fl->r);
	/* (a callback read as run at most once per call: absint_caller_load) */
	if (cb && m > 1 && cb_once(cx, cb->func, f))
		cx->cb_once_broken = true;
	/* the callback's arguments, for its next analysis (scev.c) */
	if (cb && cb->only_bpf_loop && cx->fn_args_acc) {
		struct aval a[6];

		for (int r = 0; r < 6; r++)
			a[r] = aval_top();
		a[1] = aval_scalar(range_urange(0, m ? m - 1 : 0));
		a[2] = ctx_arg(cx, &s->regs[3], f);
		absint_cb_args_join(cx, cb->func, a);
		site_note(cx, pc, cb->func, f, a, s);
		/* (this frame's dynptrs, which it may use, make or release through its context
		 * pointer: what its exits left of them, joined with what the call found) */
		absint_dynptr_note_cb(cx, f, cb->func, s);
		absint_dynptr_cb_return(cx, s, pc, cb->func);
	}
	/* the caller's bytes written before the call, which the callback may read */
	if (s->regs[3].kind == AV_PTR && s->regs[3].region == REGION_STACK)
		absint_cb_note_frame(cx, f, s);
	/* r0: the calls made (i + 1 when the i-th returns 1, else nr), or -EINVAL for flags other
	 * than 0, or -E2BIG for nr above 2^23 (compared in 64 bits when the kernel inlines it) */
	if (aval_is_const(fl, &zero) && zero == 0 && nr->kind == AV_SCALAR &&
	    nr->r.umax <= SCEV_MAX_LOOPS)
		return aval_scalar(range_urange(0, nr->r.umax));
	return aval_scalar(range_srange(-EINVAL_, (int64_t)m));
}

/* Whether no call was seen to take function f as its callback in the summary rounds
 * (fn_seen): the dead-callback rule's question (absint_cb_of_call). */
static bool cb_unseen(const struct scev_ctx *cx, uint32_t f)
{
	return !cx->fn_seen || !(cx->fn_seen[f] & 1);
}

void absint_cb_entry(const struct scev_ctx *cx, uint32_t f, struct astate *s)
{
	if (!cx->fn_cb || !cx->fn_cb[f])
		return;
	/* bpf_loop, user_ringbuf_drain: r3-r5 not readable; for_each_map_elem: r5; find_vma and
	 * a timer's: r4-r5 */
	s->init = cx->fn_cb[f] == SCEV_CB_EACH ? 0x1eu | 1u << EBPF_REG_FP
		  : cx->fn_cb[f] == SCEV_CB_VMA || cx->fn_cb[f] == SCEV_CB_TIMER
		  ? 0xeu | 1u << EBPF_REG_FP : 1u << 1 | 1u << 2 | 1u << EBPF_REG_FP;
	if (cx->cb_unseen_dead && cb_unseen(cx, f))
		s->live = false;
}

const struct scev_cb_loop *absint_cb_of_call(struct scev_ctx *cx, struct scev_verdict *v,
					     uint32_t pc, const char *name, bool *dead)
{
	const struct scev_cb_loop *cb = absint_cb_at(cx, pc);

	*dead = false;
	if (!cb) {
		verdict_fail(v, VERDICT_UNSUPPORTED, pc, "%s: the callback is not a function "
			     "address loaded into R2 in the same block", name);
		return NULL;
	}
	if (!cb->only_bpf_loop) {
		verdict_fail(v, VERDICT_UNSUPPORTED, pc, "%s: callback at %u: %s", name, cb->header,
			     cb->why);
		return NULL;
	}
	if (!cb_unseen(cx, cb->func))
		return cb;
	/* A callback no call was seen to take in the summary rounds: when they settled
	 * (cb_unseen_dead), no call that takes it is on a path they reached, this one included:
	 * their first pass covers every run (the summaries held), and the last pass, which reads
	 * the loops' summaries, reached it only by being coarser (a loop's exit that every run
	 * leaves the program before).  No run calls it here, and the callback is not run
	 * (absint_cb_entry), as a static function whose calls are all on dead paths
	 * (fn_unreached) and as the kernel, which explores only the paths it reaches, never
	 * verifies it. */
	if (!cx->cb_unseen_dead) {
		verdict_fail(v, VERDICT_UNSUPPORTED, pc, "%s: the arguments of the callback at %u "
			     "are not known (the function summaries did not settle)", name,
			     cb->header);
		return NULL;
	}
	*dead = true;
	return cb;
}

#define CBFAIL(kind_, pc_, ...)                                                                   \
	do {                                                                                      \
		verdict_fail(v, (kind_), (pc_), __VA_ARGS__);                                    \
		return true;                                                                      \
	} while (0)

/* bpf_find_vma's R1 (ARG_PTR_TO_BTF_ID of task_struct; the tracing program types only): a
 * kernel object that is a task_struct, at its start.  True when it failed. */
static bool verify_vma_task(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			    uint32_t pc)
{
	const struct aval *t = &s->regs[1];
	int32_t task = ebpf_btf_struct_by_name("task_struct");

	if (!(HPT_TRACE & HPT(cx->prog_type)))
		CBFAIL(VERDICT_UNSAFE, pc, "unknown func bpf_find_vma#%d (not available to this "
		       "program type)", BPF_FUNC_find_vma);
	if (t->kind == AV_TOP)
		CBFAIL(VERDICT_UNSUPPORTED, pc, "bpf_find_vma: R1 is not known to be a task_struct");
	if (t->kind != AV_PTR || t->region != REGION_BTF || t->maybe_null)
		CBFAIL(VERDICT_UNSAFE, pc, "bpf_find_vma: R1 type=%s expected=ptr_, trusted_ptr_, "
		       "rcu_ptr_ (a task_struct)", t->kind == AV_SCALAR ? "scalar"
		       : t->maybe_null ? "pointer or NULL" : claim_region_name(t->region));
	if (task <= 0)
		CBFAIL(VERDICT_UNSUPPORTED, pc, "bpf_find_vma: no vmlinux BTF to tell R1's struct");
	if (t->map >= cx->nbtf_types || cx->btf_types[t->map] != task)
		CBFAIL(VERDICT_UNSAFE, pc, "bpf_find_vma: R1 is of type %s but task_struct is "
		       "expected", t->map < cx->nbtf_types && ebpf_btf_type_name(cx->btf_types[t->map])
		       ? ebpf_btf_type_name(cx->btf_types[t->map]) : "?");
	if (!range_is_const(&t->r) || t->r.umin != 0)
		CBFAIL(VERDICT_UNSUPPORTED, pc, "bpf_find_vma: R1 is a task_struct at a nonzero "
		       "or variable offset");
	return false;
}

bool absint_cb_verify_insn(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			   uint32_t pc)
{
	const struct bpf_insn *i = &cx->insns[pc];
	const struct scev_cb_loop *cb;
	const struct aval *ctx;
	const char *name;
	uint32_t m = UINT32_MAX;
	bool each, vma, dead;
	int ctxr;
	uint64_t zero;

	/* the early exit of an LD_ABS / LD_IND in a callback (cfg.h ld_exit): the kernel refuses
	 * it (6.18-probed: corpus bpf_loop_cb_ld_abs_unsafe; in a static function the callback
	 * calls it is accepted, bpf_loop_cb_calls_ld_abs) */
	if (ebpf_is_ld_pkt(i) && cx->fn_cb && cx->fn_cb[func_of(cx, pc)])
		CBFAIL(VERDICT_UNSAFE, pc, "verifier bug: callback unexpected regs 1 (an LD_ABS / "
		       "LD_IND in a callback function: its early exit when the load fails is "
		       "refused)");
	if (ebpf_is_exit(i)) {
		const struct aval *r0 = &s->regs[0];
		uint8_t k;

		if (!cx->fn_cb || !(k = cx->fn_cb[func_of(cx, pc)]))
			return false;
		name = cb_helper_name(k == SCEV_CB_EACH ? BPF_FUNC_for_each_map_elem
				      : k == SCEV_CB_VMA ? BPF_FUNC_find_vma
				      : k == SCEV_CB_URB ? BPF_FUNC_user_ringbuf_drain
				      : k == SCEV_CB_TIMER ? BPF_FUNC_timer_set_callback : BPF_FUNC_loop);
		v->checks++;
		if (!(s->init & 1))
			CBFAIL(VERDICT_UNSAFE, pc, "R0 may be read before it is written (not written "
			       "on some path)");
		/* an async callback's callback_ret_range: 0 */
		if (k == SCEV_CB_TIMER && r0->kind != AV_SCALAR)
			CBFAIL(VERDICT_UNSAFE, pc, "At async callback return R0 is not known to be a "
			       "scalar (%s's callback must return 0)", name);
		if (k == SCEV_CB_TIMER && (r0->r.smin != 0 || r0->r.smax != 0))
			CBFAIL(VERDICT_UNSAFE, pc, "At async callback return the register R0 has "
			       "smin=%lld smax=%lld should have been in [0, 0] (%s)",
			       (long long)r0->r.smin, (long long)r0->r.smax, name);
		/* the kernel's callback_ret_range of bpf_loop and bpf_for_each_map_elem, on the
		 * 64-bit signed bounds */
		if (r0->kind != AV_SCALAR)
			CBFAIL(VERDICT_UNSAFE, pc, "At callback return R0 is not known to be a scalar "
			       "(%s's callback must return 0 or 1)", name);
		if (r0->r.smin < 0 || r0->r.smax > 1)
			CBFAIL(VERDICT_UNSAFE, pc, "At callback return R0 in s[%lld, %lld], should have "
			       "been in [0, 1] (%s)", (long long)r0->r.smin,
			       (long long)r0->r.smax, name);
		return true;
	}
	if (ebpf_is_helper_call(i) && i->imm == BPF_FUNC_dynptr_data &&
	    absint_is_urb_dynptr(&s->regs[1]) && (s->init & 1u << 3)) {
		return absint_dynptr_data_size_fails(v, s, pc);
	}
	if (!ebpf_is_helper_call(i) || !absint_cb_helper(i->imm))
		return false;
	name = cb_helper_name(i->imm);
	each = i->imm == BPF_FUNC_for_each_map_elem;
	vma = i->imm == BPF_FUNC_find_vma;
	ctxr = vma ? 4 : 3;
	v->checks++;
	for (int r = 1; r <= (vma ? 5 : 4); r++)
		if (!(s->init & (1u << r)))
			CBFAIL(VERDICT_UNSAFE, pc, "R%d may be read before it is written (not written "
			       "on some path)", r);
	if (vma && verify_vma_task(cx, v, s, pc))
		return true;
	if (i->imm == BPF_FUNC_user_ringbuf_drain) {
		/* ARG_CONST_MAP_PTR of a BPF_MAP_TYPE_USER_RINGBUF map */
		m = each_map(cx, &s->regs[1]);
		if (m == UINT32_MAX && s->regs[1].kind == AV_TOP)
			CBFAIL(VERDICT_UNSUPPORTED, pc, "%s: R1 is not known to be a map", name);
		if (m == UINT32_MAX)
			CBFAIL(VERDICT_UNSAFE, pc, "%s: R1 is not a map", name);
		if (cx->maps[m].type != BPF_MAP_TYPE_USER_RINGBUF_)
			CBFAIL(VERDICT_UNSAFE, pc, "cannot pass map_type %u into func %s#%d (map "
			       "'%s')", cx->maps[m].type, name, BPF_FUNC_user_ringbuf_drain,
			       cx->maps[m].name);
	}
	if (each) {
		/* ARG_CONST_MAP_PTR of a map with map_for_each_callback */
		const struct aval *map = &s->regs[1];

		m = each_map(cx, map);
		if (m == UINT32_MAX && map->kind == AV_PTR && map->region == REGION_MAP_HANDLE &&
		    map->maybe_null)
			CBFAIL(VERDICT_UNSAFE, pc, "%s: R1 may be NULL (lookup in a map of maps not "
			       "checked)", name);
		if (m == UINT32_MAX && map->kind == AV_TOP)
			CBFAIL(VERDICT_UNSUPPORTED, pc, "%s: R1 is not known to be a map", name);
		if (m == UINT32_MAX)
			CBFAIL(VERDICT_UNSAFE, pc, "%s: R1 is not a map", name);
		if (!each_map_type(cx->maps[m].type))
			CBFAIL(VERDICT_UNSAFE, pc, "cannot pass map_type %u into func %s#%d (map "
			       "'%s')", cx->maps[m].type, name, BPF_FUNC_for_each_map_elem,
			       cx->maps[m].name);
	}
	if (!(cb = absint_cb_of_call(cx, v, pc, name, &dead)))
		return true;
	if (!dead && each) {
		/* the callback was analyzed with the join of its calls' maps: one class (the
		 * kernel verifies it again for each call) */
		const struct aval *k = &cx->fn_args[cb->func][2], *val = &cx->fn_args[cb->func][3];

		if (k->kind != AV_PTR || k->region != REGION_MAP_KEY || k->map != m ||
		    val->kind != AV_PTR || val->region != REGION_MAP_VALUE || val->map != m)
			CBFAIL(VERDICT_UNSUPPORTED, pc, "%s: the callback at %u is given maps of "
			       "different kinds by its calls (analyzed once, for one)", name,
			       cb->header);
	}
	/* ARG_PTR_TO_STACK_OR_NULL: a stack pointer of any frame, or NULL */
	ctx = &s->regs[ctxr];
	if (ctx->kind == AV_PTR && !ctx->maybe_null &&
	    (ctx->region == REGION_STACK || ctx->region == REGION_CALLER_STACK))
		return true;
	if (aval_is_const(ctx, &zero) && zero == 0)
		return true;
	if (ctx->kind == AV_TOP)
		CBFAIL(VERDICT_UNSUPPORTED, pc, "%s: R%d (the callback's ctx) is not known to "
		       "be a stack pointer or NULL", name, ctxr);
	CBFAIL(VERDICT_UNSAFE, pc, "%s: R%d type=%s expected=fp or NULL", name, ctxr,
	       ctx->kind == AV_SCALAR ? "scalar" : ctx->maybe_null ? "pointer or NULL"
				       : claim_region_name(ctx->region));
}

/* cx->cb_view (internal.h): a callback all of whose calls are helper calls in one other
 * function, that function; else SCEV_NONE.  (Timer callbacks run on their own: no view.) */
static void cb_views_find(struct scev_ctx *cx)
{
	const struct scev_calls *g = &cx->calls;

	for (uint32_t f = 0; f < cx->st.cfg->nfuncs; f++)
		cx->cb_view[f] = SCEV_NONE;
	for (uint32_t k = 0; k < cx->cbl.n; k++) {
		const struct scev_cb_loop *cb = &cx->cbl.v[k];
		uint32_t o;
		bool one;

		if (!cb->only_bpf_loop || cb->helper == BPF_FUNC_timer_set_callback || !cb->ncalls)
			continue;
		o = func_of(cx, cb->calls[0]);
		one = o != cb->func;
		for (uint32_t c = 1; c < cb->ncalls && one; c++)
			one = func_of(cx, cb->calls[c]) == o;
		for (uint32_t j = 0; j < g->nsites && one; j++)
			one = g->sites[j].callee != cb->func || g->sites[j].callback;
		if (one)
			cx->cb_view[cb->func] = o;
	}
}

/* Whether function f's frame may be passed down: it calls a function or a helper that calls one
 * (with a pointer into its frame among the arguments or not), or takes a function's address. */
static bool frame_passed(const struct scev_ctx *cx, uint32_t f)
{
	const struct scev_func *fn = &cx->st.cfg->funcs[f];

	for (uint32_t pc = fn->start; pc < fn->end; pc += ebpf_insn_slots(&cx->insns[pc])) {
		const struct bpf_insn *i = &cx->insns[pc];

		if (ebpf_is_pseudo_call(i) || (ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC) ||
		    (ebpf_is_call(i) && i->src_reg == BPF_PSEUDO_KFUNC_CALL) ||
		    (ebpf_is_helper_call(i) && absint_cb_helper(i->imm)))
			return true;
	}
	return false;
}

/* The slots of sets of callers' frames (aval.h): a function below 14 has its id; one of 14 and
 * up whose frame may be passed down takes an id below 14 whose function's frame may not (no
 * pointer into a frame names it), each its own while there are enough (in the order of ids),
 * then again from the first (a slot of several functions: a set holding it may point into any
 * of their frames, each frame no lower than the slot's lowest offset); none when there is no
 * such id. */
static int frame_slots_find(struct scev_ctx *cx)
{
	uint32_t nf = cx->st.cfg->nfuncs, nfree = 0, n = 0;
	uint8_t free_slot[CALLER_SELF_IX];

	if (nf <= CALLER_SELF_IX)
		return 0;
	if (!(cx->frame_slot = zalloc(nf, sizeof(*cx->frame_slot))))
		return -ENOMEM;
	for (uint32_t f = 0; f < CALLER_SELF_IX; f++)
		if (!frame_passed(cx, f))
			free_slot[nfree++] = (uint8_t)f;
	for (uint32_t f = 0; f < nf; f++)
		cx->frame_slot[f] = (uint8_t)(f < CALLER_SELF_IX ? f : CALLER_SLOT_NONE);
	for (uint32_t f = CALLER_SELF_IX; f < nf && nfree; f++)
		if (frame_passed(cx, f))
			cx->frame_slot[f] = free_slot[n++ % nfree];
	return 0;
}

uint32_t absint_frame_slot(const struct scev_ctx *cx, uint32_t f)
{
	if (cx->frame_slot)
		return cx->frame_slot[f];
	return f < CALLER_SELF_IX ? f : CALLER_SLOT_NONE;
}

int absint_outer_frames_alloc(struct scev_ctx *cx)
{
	uint32_t nf = cx->st.cfg->nfuncs, ncalls = 0;

	if (frame_slots_find(cx))
		return -ENOMEM;

	/* (each function's frame, then each callback's view of its caller's: cb_view) */
	cx->outer_frame = zalloc(2 * nf, sizeof(*cx->outer_frame));
	cx->outer_frame_acc = zalloc(2 * nf, sizeof(*cx->outer_frame_acc));
	cx->outer_wval = zalloc(nf, sizeof(*cx->outer_wval));
	cx->outer_wval_acc = zalloc(nf, sizeof(*cx->outer_wval_acc));
	cx->cb_view = zalloc(nf, sizeof(*cx->cb_view));
	for (uint32_t k = 0; k < cx->cbl.n; k++)
		ncalls += cx->cbl.v[k].ncalls;
	if (cx->plan_make && ncalls &&
	    !(cx->cb_sites = zalloc(ncalls, sizeof(*cx->cb_sites))))
		return -ENOMEM;
	if (cx->cb_view)
		cb_views_find(cx);
	return cx->outer_frame && cx->outer_frame_acc && cx->outer_wval && cx->outer_wval_acc &&
	       cx->cb_view ? 0 : -ENOMEM;
}

void absint_outer_frames_drop(struct scev_ctx *cx)
{
	for (uint32_t f = 0; cx->outer_frame && f < 2 * cx->st.cfg->nfuncs; f++)
		astate__free(&cx->outer_frame[f]);
	absint_outer_wval_drop(cx);
}

void absint_outer_frames_free(struct scev_ctx *cx)
{
	uint32_t ncalls = 0;

	absint_outer_frames_drop(cx);
	for (uint32_t f = 0; cx->outer_frame_acc && f < 2 * cx->st.cfg->nfuncs; f++)
		astate__free(&cx->outer_frame_acc[f]);
	for (uint32_t f = 0; cx->outer_wval_acc && f < cx->st.cfg->nfuncs; f++)
		astate__free(&cx->outer_wval_acc[f]);
	for (uint32_t k = 0; k < cx->cbl.n; k++)
		ncalls += cx->cbl.v[k].ncalls;
	for (uint32_t c = 0; cx->cb_sites && c < ncalls; c++)
		astate__free(&cx->cb_sites[c].fr);
	free(cx->outer_frame);
	free(cx->outer_frame_acc);
	free(cx->outer_wval);
	free(cx->outer_wval_acc);
	free(cx->cb_view);
	free(cx->cb_sites);
	free(cx->frame_slot);
	cx->outer_frame = cx->outer_frame_acc = cx->outer_wval = cx->outer_wval_acc = NULL;
	cx->cb_view = NULL;
	cx->frame_slot = NULL;
	cx->cb_sites = NULL;
}

/* What a callee reading v from the frame of function owner gets: a number (without a relation
 * to the packet's length, which the packet's moves in between would void), a pointer into that
 * frame as one of REGION_CALLER_STACK, and pointers whose meaning is the same in every frame (a
 * map value or handle, the context, another caller's frame); with pkt (no helper changed packet
 * data since: absint_caller_load), packet pointers too, without their identity (data plus the
 * same offsets, which the reader's own proofs bound: fn_pkt.data at its entry; a variable base
 * of the caller's, AVAL_PKT_VAR); anything else (references, the frame's iterators) unknown. */
static struct aval callee_view(const struct scev_ctx *cx, const struct aval *v, uint32_t owner,
			       unsigned size, bool pkt)
{
	struct aval u = *v;

	aval_drop_id(&u);
	if (u.kind == AV_SCALAR) {
		aval_drop_pkt_len(&u);
		u.kc = 0;	/* (a callback's call widens: aval.h aval_kconst) */
		return u;
	}
	if (u.kind != AV_PTR || size != 8)
		return absint_unknown_bytes(size);
	if (u.region == REGION_STACK && !u.maybe_null)
		return aval_caller_ptr(owner, absint_frame_slot(cx, owner), u.r);
	if (u.region == REGION_CALLER_STACK)
		return aval_caller_rebase(&u, absint_frame_slot(cx, owner));
	/* (a kernel object of no reference, bpf_skc_to_tcp_sock's spilled for a bpf_loop
	 * callback: the kernel's spilled register, its struct and trust kept) */
	if (u.region == REGION_MAP_VALUE || u.region == REGION_BTF ||
	    u.region == REGION_MAP_HANDLE || u.region == REGION_CTX || (pkt && pkt_any(&u)))
		return u;
	return absint_unknown_bytes(size);
}

/* The register a callback of helper h takes its ctx in. */
static int ctx_reg(int32_t h)
{
	return h == BPF_FUNC_for_each_map_elem ? 4 : h == BPF_FUNC_find_vma ? 3 : 2;
}

/* Whether every cell of a in [lo, 0) of the caller's frame (function owner's) reads the same
 * to a callee as b there. */
static bool cells_same(const struct scev_ctx *cx, const struct astate *a, const struct astate *b,
		       uint32_t owner, int64_t lo)
{
	for (uint32_t k = 0; k < a->n; k++) {
		const struct acell *c = &a->cells[k];
		struct aval u, w;

		if (c->off + (int64_t)c->size <= lo)
			continue;
		u = callee_view(cx, &c->v, owner, c->size, false);
		w = astate__load(b, c->off, c->size);
		w = callee_view(cx, &w, owner, c->size, false);
		if (!aval_equal(&u, &w))
			return false;
	}
	return true;
}

/* Whether the calls of callback g recorded at x and y give it one context: the arguments it
 * reads, and, for a ctx into the caller's frame (the same at both: the arguments), that
 * frame's cells from the ctx up. */
static bool same_context(const struct scev_ctx *cx, const struct scev_cb_loop *cb,
			 const struct scev_cb_site *x, const struct scev_cb_site *y)
{
	int r = ctx_reg(cb->helper);
	const struct aval *c = &x->a[r];

	for (int k = 1; k <= 5; k++)
		if ((cx->args_read[cb->func] >> k & 1) && !aval_equal(&x->a[k], &y->a[k]))
			return false;
	if (!(cx->args_read[cb->func] >> r & 1) || c->kind != AV_PTR ||
	    c->region != REGION_CALLER_STACK || c->map >= cx->st.cfg->nfuncs)
		return true;
	return cells_same(cx, &x->fr, &y->fr, c->map, c->r.smin) &&
	       cells_same(cx, &y->fr, &x->fr, c->map, c->r.smin);
}

/* A bpf_loop, for_each, find_vma or user_ringbuf_drain callback whose calls give it different
 * contexts: the kernel verifies it once per call (its state at each), this analysis once from
 * their join (a context or NULL, two frames, two stack cells' contents joined), which may
 * fail where no call does.  The calls are grouped by context (same_context, over what the
 * last pass saw at them: at most SCEV_CTX_MAX groups, a call past the cap joins the first's),
 * and each group past the first gets a copy of the callback (contexts.c), its calls' function
 * addresses redirected to it; a callback all of whose calls are in one function reads that
 * function's frame as it is at its own calls only (cb_view), so a copy whose calls pass a
 * cell holding NULL reads NULL there.  Only when the verdict is not safe (the copies cost an
 * analysis more, and their claims only narrow ones that hold).  A call never reached, or whose
 * record failed, stays with the original; a call inside the callback itself stays in its copy.
 * Which copy a call goes to changes no soundness: the copied program is analysed as any. */
int absint_cb_plan(const struct scev_ctx *cx, struct scev_ctx_plan *plan, uint32_t *budget)
{
	uint32_t base = 0, *lds = NULL, *grp = NULL, *pcs = NULL;
	int err = 0;

	if (!cx->cb_sites || !cx->verdict || cx->verdict->kind == VERDICT_SAFE)
		return 0;
	for (uint32_t k = 0; k < cx->cbl.n && !err; base += cx->cbl.v[k++].ncalls) {
		const struct scev_cb_loop *cb = &cx->cbl.v[k];
		uint32_t rep[SCEV_CTX_MAX], ng = 0, n = 0, size = cb->end - cb->header;

		if (!cb->only_bpf_loop || cb->helper == BPF_FUNC_timer_set_callback ||
		    cb->ncalls < 2)
			continue;
		free(lds);
		free(grp);
		free(pcs);
		lds = malloc(cb->ncalls * sizeof(*lds));
		grp = malloc(cb->ncalls * sizeof(*grp));
		pcs = malloc(cb->ncalls * sizeof(*pcs));
		if (!lds || !grp || !pcs) {
			err = -ENOMEM;
			break;
		}
		for (uint32_t pc = 0; pc < cx->len && n < cb->ncalls;
		     pc += ebpf_insn_slots(&cx->insns[pc])) {
			const struct bpf_insn *i = &cx->insns[pc];
			uint32_t call, c, j;
			const struct scev_cb_site *q;

			if (!ebpf_is_ldimm64(i) || i->src_reg != BPF_PSEUDO_FUNC ||
			    pc + 1 + (uint32_t)i->imm != cb->header)
				continue;
			call = scev_cb_call_of(cx->st.cfg, pc);
			for (c = 0; c < cb->ncalls && cb->calls[c] != call; c++)
				;
			if (c == cb->ncalls || (pc >= cb->header && pc < cb->end))
				continue;	/* (its own address: stays in its copy) */
			q = &cx->cb_sites[base + c];
			lds[n] = pc;
			grp[n] = 0;
			if (q->seen && !q->bad) {
				for (j = 0; j < ng && !same_context(cx, cb, q,
								     &cx->cb_sites[base + rep[j]]); j++)
					;
				if (j == ng && ng < SCEV_CTX_MAX)
					rep[ng++] = c;
				if (j == ng && !plan->cb_joined)
					plan->cb_joined = cb->header + 1;
				grp[n] = j < ng ? j : 0;	/* (past the cap: the first) */
			}
			n++;
		}
		for (uint32_t j = 1; j < ng && !err; j++) {
			uint32_t np = 0;

			if (size > *budget) {
				if (!plan->cb_joined)
					plan->cb_joined = cb->header + 1;
				break;	/* (the rest stay with the first context) */
			}
			for (uint32_t q = 0; q < n; q++)
				if (grp[q] == j)
					pcs[np++] = lds[q];
			err = scev_ctx_plan_clone(plan, cb->header, cb->end, pcs, np, true);
			*budget -= size;
		}
	}
	free(lds);
	free(grp);
	free(pcs);
	return err;
}

/* Every cell of big (a caller's frame f as the callees read it) holds, as a callee sees it,
 * what small's cell there holds. */
static bool frame_cells_cover(const struct scev_ctx *cx, const struct astate *big,
			      const struct astate *small, uint32_t f)
{
	for (uint32_t k = 0; k < big->n; k++) {
		const struct acell *c = &big->cells[k];
		struct aval b = callee_view(cx, &c->v, f, c->size, true), v;

		if (b.kind == AV_TOP)
			continue;
		v = astate__load(small, c->off, c->size);
		v = callee_view(cx, &v, f, c->size, true);
		if (!aval_subset(&v, &b))
			return false;
	}
	return true;
}

/* The frame whose cells the reads see: function f's below nfuncs, callback g's view of its
 * caller's at nfuncs + g (of that caller's frame). */
static uint32_t view_owner(const struct scev_ctx *cx, uint32_t v)
{
	uint32_t nf = cx->st.cfg->nfuncs;

	return v < nf ? v : cx->cb_view ? cx->cb_view[v - nf] : SCEV_NONE;
}

static bool view_covered(const struct scev_ctx *cx, uint32_t v)
{
	if (!cx->outer_frame || !cx->outer_frame[v].live || !cx->outer_seen_acc[v])
		return true;
	return !cx->outer_frame_bad &&
	       frame_cells_cover(cx, &cx->outer_frame[v], &cx->outer_frame_acc[v], view_owner(cx, v));
}

bool absint_outer_frame_covered(const struct scev_ctx *cx, uint32_t f)
{
	uint32_t nf = cx->st.cfg->nfuncs;
	bool covered = view_covered(cx, f);

	/* (and the views of this frame its callbacks read) */
	for (uint32_t g = 0; cx->cb_view && g < nf && covered; g++)
		if (cx->cb_view[g] == f)
			covered = view_covered(cx, nf + g);
	return covered;
}

bool absint_outer_frame_grow(struct scev_ctx *cx, bool widen)
{
	bool covered = true;

	for (uint32_t f = 0; f < 2 * cx->st.cfg->nfuncs; f++) {
		if (!cx->outer_seen_acc[f] || view_owner(cx, f) == SCEV_NONE ||
		    (cx->outer_frame[f].live &&
		     frame_cells_cover(cx, &cx->outer_frame[f], &cx->outer_frame_acc[f],
				       view_owner(cx, f))))
			continue;
		covered = false;
		if (astate__join(&cx->outer_frame[f], &cx->outer_frame_acc[f], widen) < 0)
			cx->outer_frame_bad = true;
	}
	return covered;
}

/* Whether instruction i may write memory outside its own frame: a store through a register
 * other than r10, or a call (of a static function: one that, with what it calls, may). */
static bool may_write_out(const struct scev_ctx *cx, const struct bpf_insn *i, uint32_t pc)
{
	if (ebpf_is_pseudo_call(i) && cx->fn_effects)
		return cx->fn_effects[cx->st.cfg->blocks[cx->st.cfg->block_of[pc + 1 + i->imm]].func] &
		       FN_WRITES_OUT;
	return ((ebpf_class(i) == BPF_ST || ebpf_class(i) == BPF_STX) &&
		i->dst_reg != EBPF_REG_FP) || ebpf_is_call(i);
}

/* Whether function f is a static callee (no callback, no global function, not main). */
static bool static_callee(const struct scev_ctx *cx, uint32_t f)
{
	return f && !cx->fn_cb[f] && !absint_global(cx, f);
}

/* Whether the reads of static callee r through pointers into owner's frame see that frame as its
 * calls left it until r (or what it calls) may write through a pointer (cb_pre_write): every
 * call of r is in owner, which waits while r runs. */
static bool static_once(const struct scev_ctx *cx, uint32_t r, uint32_t owner)
{
	const struct scev_calls *g = &cx->calls;
	bool any = false;

	if (!static_callee(cx, r) || !cx->fn_seen || !(cx->fn_seen[r] & 1))
		return false;
	for (uint32_t k = 0; k < g->nsites; k++) {
		if (g->sites[k].callee != r)
			continue;
		if (g->sites[k].callback || func_of(cx, g->sites[k].pc) != owner)
			return false;
		any = true;
	}
	return any;
}

/* The load through a pointer into one frame, owner's (absint_caller_load). */
static struct aval caller_load_one(const struct scev_ctx *cx, uint64_t pkt_frames,
				   const struct aval *a, uint32_t owner, int64_t off, unsigned size,
				   uint32_t pc)
{
	bool pkt = owner < 64 && (pkt_frames >> owner & 1);
	uint32_t r = func_of(cx, pc), nf = cx->st.cfg->nfuncs;
	const struct stack_span *w;
	const struct acell *c;
	const struct astate *fr;
	struct aval v, u;
	int64_t lo;

	if (!cx->outer_frame || cx->outer_frame_bad || a->maybe_null || !range_is_const(&a->r) ||
	    owner >= nf)
		return absint_unknown_bytes(size);
	/* (a callback whose calls are all in owner: owner's cells at those calls, cb_view; it
	 * runs only while owner waits at one of them) */
	fr = cx->cb_view && cx->cb_view[r] == owner && cx->outer_frame[nf + r].live
		     ? &cx->outer_frame[nf + r] : &cx->outer_frame[owner];
	if (!fr->live)
		return absint_unknown_bytes(size);
	lo = (int64_t)a->r.umin + off;
	w = &cx->outer_write[owner].s;
	if (lo < -FP_FRAME || lo + (int64_t)size > 0)
		return absint_unknown_bytes(size);
	v = astate__load(fr, lo, size);
	v = callee_view(cx, &v, owner, size, pkt);
	if (!stack_span_any(w) || w->hi <= lo || lo + (int64_t)size <= w->lo)
		return v;
	/* written through pointers into the frame: in a callback run once per call of its
	 * helper, before anything of it may write, still what the call left (callers' frames
	 * are written by their callees only: the caller waits for the helper) */
	if (cx->cb_pre_write && (cb_once(cx, r, owner) || static_once(cx, r, owner)) &&
	    !(cx->cb_pre_write[pc / 64] >> (pc % 64) & 1))
		return v;
	if (!cx->outer_wval || !cx->outer_wval[owner].live ||
	    !(c = cell_at(&cx->outer_wval[owner], lo, size)))
		return absint_unknown_bytes(size);
	u = callee_view(cx, &c->v, owner, size, pkt);
	u = aval_join(&v, &u);
	return u.kind == AV_TOP ? absint_unknown_bytes(size) : u;
}

/* Whether the bpf-to-bpf call at pc, with s at the call, surely stores [off, off + size) of
 * this frame: its callee's entry block, which every run of it starts with, stores exactly there
 * through an argument (or a copy of one) still as the call gave it, before any call (which may
 * not return: a tail call).  An LD_ABS / LD_IND, which returns 0 from a static function when the
 * load fails, ends the entry block (cfg.h ld_exit): a store after it is in another block.  Then
 * that cell holds, after the call, what some write through a pointer into this frame left
 * there, not what it held before (verifier_subprog_precision's
 * subprog_spill_into_parent_stack_slot_precise: `*(u64 *)(r1 + 0) = r2` into the caller's
 * unwritten fp-8, which it reads back as the number). */
static bool call_must_store(const struct scev_ctx *cx, const struct astate *s, uint32_t pc,
			    int64_t off, unsigned size)
{
	const struct scev_cfg *g = cx->st.cfg;
	const struct bpf_insn *call = &cx->insns[pc];
	uint32_t callee, last;
	int8_t arg[EBPF_NREGS];

	if (!ebpf_is_pseudo_call(call))
		return false;
	callee = g->blocks[g->block_of[pc + 1 + (uint32_t)call->imm]].func;
	last = g->blocks[g->funcs[callee].entry].last;
	for (int r = 0; r < EBPF_NREGS; r++)
		arg[r] = (int8_t)(r >= 1 && r <= 5 ? r : -1);
	for (uint32_t q = g->funcs[callee].start; q <= last; q += ebpf_insn_slots(&cx->insns[q])) {
		const struct bpf_insn *i = &cx->insns[q];
		const struct aval *a;

		if (ebpf_is_call(i) || ebpf_is_exit(i))
			return false;
		if ((ebpf_class(i) == BPF_STX || ebpf_class(i) == BPF_ST) &&
		    ebpf_mode(i) == BPF_MEM && arg[i->dst_reg] >= 0 &&
		    ebpf_size_bytes(ebpf_size(i)) == size) {
			a = &s->regs[arg[i->dst_reg]];
			if (a->kind == AV_PTR && a->region == REGION_STACK && !a->maybe_null &&
			    range_is_const(&a->r) && (int64_t)a->r.umin + i->off == off)
				return true;
		}
		if (i->code == (BPF_ALU64 | BPF_MOV | BPF_X) && i->off == 0) {
			arg[i->dst_reg] = arg[i->src_reg];
			continue;
		}
		for (int r = 0; r < EBPF_NREGS; r++)
			if (ebpf_regs_written(i) >> r & 1)
				arg[r] = -1;
	}
	return false;
}

int absint_cb_kept(const struct scev_ctx *cx, const struct astate *s, uint32_t pc,
		   const struct stack_span *w, struct astate *keep)
{
	uint32_t f = func_of(cx, pc);
	const struct astate *wv;

	if (!cx->outer_wval || cx->outer_frame_bad || !cx->outer_wval[f].live)
		return 0;
	wv = &cx->outer_wval[f];
	for (uint32_t k = 0; k < wv->n; k++) {
		const struct acell *c = &wv->cells[k];
		struct aval v = astate__load(s, c->off, c->size);

		if (c->off < w->lo || c->off + c->size > w->hi)
			continue;
		/* (one of the writes surely replaced it: what they wrote alone) */
		v = call_must_store(cx, s, pc, c->off, c->size) ? c->v : aval_join(&v, &c->v);
		aval_drop_id(&v);
		if (v.kind != AV_TOP && astate__store(keep, c->off, c->size, &v))
			return -ENOMEM;
	}
	return 0;
}

int absint_cb_restore(struct astate *s, const struct astate *keep)
{
	for (uint32_t k = 0; k < keep->n; k++) {
		const struct acell *c = &keep->cells[k];
		bool ptr = false;

		/* (not over part of a cell that may hold a spilled pointer, which a path that did
		 * not write keeps: astate__forget; corpus callee_maybe_store_caller_ptr_half) */
		for (uint32_t j = 0; j < s->n && !ptr; j++)
			ptr = s->cells[j].off < c->off + c->size && c->off < s->cells[j].off +
			      s->cells[j].size && s->cells[j].v.kind != AV_SCALAR &&
			      (s->cells[j].off != c->off || s->cells[j].size != c->size);
		if (!ptr && astate__store(s, c->off, c->size, &c->v))
			return -ENOMEM;
	}
	return 0;
}

void absint_outer_wval_reset(struct scev_ctx *cx)
{
	for (uint32_t f = 0; cx->outer_wval_acc && f < cx->st.cfg->nfuncs; f++)
		cx->outer_wval_acc[f].n = 0;
}

void absint_outer_wval_drop(struct scev_ctx *cx)
{
	for (uint32_t f = 0; cx->outer_wval && f < cx->st.cfg->nfuncs; f++)
		astate__free(&cx->outer_wval[f]);
}

/* Whether every cell of wv holds what the pass wrote there (acc, written in span a). */
static bool wval_cover(const struct astate *wv, const struct astate *acc,
		       const struct stack_span *a)
{
	for (uint32_t k = 0; k < wv->n; k++) {
		const struct acell *c = &wv->cells[k], *d;

		if (!stack_span_any(a) || a->hi <= c->off || c->off + c->size <= a->lo)
			continue;
		if (!(d = cell_at(acc, c->off, c->size)) || !aval_subset(&d->v, &c->v))
			return false;
	}
	return true;
}

bool absint_outer_wval_grow(struct scev_ctx *cx, bool widen)
{
	bool covered = true;

	if (!cx->outer_wval)
		return true;
	for (uint32_t f = 0; f < cx->st.cfg->nfuncs; f++) {
		struct astate *wv = &cx->outer_wval[f];
		const struct astate *acc = &cx->outer_wval_acc[f];
		const struct stack_span *u = &cx->outer_write[f].s;
		const struct stack_span *a = &cx->outer_write_acc[f].s;
		uint32_t k = 0;

		if (cx->outer_write_any_acc) {
			covered = covered && (!wv->live || !wv->n);
			wv->n = 0;
			wv->live = true;
			continue;
		}
		if (!stack_span_any(a))
			continue;
		if (wv->live && wval_cover(wv, acc, a) &&
		    stack_span_any(u) && u->lo <= a->lo && a->hi <= u->hi)
			continue;
		covered = false;
		if (!wv->live) {
			if (astate__copy(wv, acc))
				cx->outer_frame_bad = true;
			wv->live = true;
			continue;
		}
		/* the old cells the pass wrote over: joined with what it wrote, or unknown */
		for (uint32_t j = 0; j < wv->n; j++) {
			struct acell c = wv->cells[j];
			const struct acell *d;

			if (a->hi <= c.off || c.off + c.size <= a->lo) {
				wv->cells[k++] = c;
				continue;
			}
			if (!(d = cell_at(acc, c.off, c.size)))
				continue;
			c.v = widen ? aval_widen(&c.v, &d->v) : aval_join(&c.v, &d->v);
			if (c.v.kind != AV_TOP)
				wv->cells[k++] = c;
		}
		wv->n = k;
		/* the pass's cells outside what was written before */
		for (uint32_t j = 0; j < acc->n; j++) {
			const struct acell *d = &acc->cells[j];

			if (stack_span_any(u) && u->lo < d->off + d->size && d->off < u->hi)
				continue;
			if (astate__store(wv, d->off, d->size, &d->v))
				cx->outer_frame_bad = true;
		}
	}
	return covered;
}

bool absint_outer_wval_covered(const struct scev_ctx *cx)
{
	if (!cx->outer_wval)
		return true;
	for (uint32_t f = 0; f < cx->st.cfg->nfuncs; f++) {
		const struct astate *wv = &cx->outer_wval[f];

		/* (a write nothing places may have written any cell with anything) */
		if (wv->live && wv->n && cx->outer_write_any_acc)
			return false;
		if (wv->live && !wval_cover(wv, &cx->outer_wval_acc[f], &cx->outer_write_acc[f].s))
			return false;
	}
	return true;
}

int absint_cb_pre_write(struct scev_ctx *cx)
{
	const struct scev_cfg *g = cx->st.cfg;
	uint8_t *in, *out;
	bool any = false, changed = true;

	for (uint32_t f = 0; f < g->nfuncs; f++)
		any = any || cx->fn_cb[f] == SCEV_CB_LOOP || static_callee(cx, f);
	if (!any)
		return 0;
	cx->cb_pre_write = arena_zalloc((cx->len + 63) / 64, sizeof(uint64_t));
	in = arena_zalloc(g->nblocks, 1);
	out = arena_zalloc(g->nblocks, 1);
	if (!cx->cb_pre_write || !in || !out) {
		arena_free(in);
		arena_free(out);
		return -ENOMEM;
	}
	/* out[b]: some such write may have run at b's end; in[b]: at its start */
	while (changed) {
		changed = false;
		for (uint32_t b = 0; b < g->nblocks; b++) {
			const uint32_t *p = scev_block_preds(g, b);
			uint8_t o;

			if (cx->fn_cb[g->blocks[b].func] != SCEV_CB_LOOP &&
			    !static_callee(cx, g->blocks[b].func))
				continue;

			for (uint32_t k = 0; k < g->blocks[b].npred; k++)
				in[b] |= out[p[k]];
			o = in[b];
			for (uint32_t pc = g->blocks[b].first; pc <= g->blocks[b].last;
			     pc += ebpf_insn_slots(&cx->insns[pc]))
				o |= may_write_out(cx, &cx->insns[pc], pc);
			if (o != out[b]) {
				out[b] = o;
				changed = true;
			}
		}
	}
	for (uint32_t b = 0; b < g->nblocks; b++) {
		bool w = in[b];

		if (cx->fn_cb[g->blocks[b].func] != SCEV_CB_LOOP &&
		    !static_callee(cx, g->blocks[b].func))
			continue;

		for (uint32_t pc = g->blocks[b].first; pc <= g->blocks[b].last;
		     pc += ebpf_insn_slots(&cx->insns[pc])) {
			if (w)
				cx->cb_pre_write[pc / 64] |= 1ull << (pc % 64);
			w = w || may_write_out(cx, &cx->insns[pc], pc);
		}
	}
	arena_free(in);
	arena_free(out);
	return 0;
}

struct aval absint_caller_load(const struct scev_ctx *cx, uint64_t pkt_frames,
				const struct aval *a, int64_t off, unsigned size, uint32_t pc)
{
	struct aval v = { .kind = AV_TOP };
	bool any = false;

	if (!(a->map & CALLER_SET))
		return caller_load_one(cx, pkt_frames, a, a->map, off, size, pc);
	/* (a pointer into one of several frames: what each holds there, joined) */
	for (uint32_t f = 0; f < cx->st.cfg->nfuncs && a->map != CALLER_ANY; f++)
		if (aval_caller_may_at(a->map, f, absint_frame_slot(cx, f))) {
			struct aval o = caller_load_one(cx, pkt_frames, a, f, off, size, pc);

			v = any ? aval_join(&v, &o) : o;
			any = true;
		}
	return any ? v : absint_unknown_bytes(size);
}

enum nums_over absint_cb_nums_over(const struct scev_ctx *cx, const struct aval *a, __int128 lo,
				   __int128 hi)
{
	static const struct stack_span all = { -FP_FRAME, 0 };
	enum nums_over k = NUMS_ALL, kf;

	if (a->map >= cx->st.cfg->nfuncs && !(a->map & CALLER_SET)) {	/* (no frame known) */
		for (uint32_t f = 0; f < cx->st.cfg->nfuncs; f++)
			if (absint_spill_may(cx, f, lo, hi))
				return NUMS_MAYBE;
		return NUMS_ALL;
	}
	for (uint32_t f = 0; f < cx->st.cfg->nfuncs; f++) {
		uint32_t fk = absint_frame_slot(cx, f);
		__int128 flo = (__int128)aval_caller_lo_at(a, f, fk) + (lo - a->r.smin), wlo, whi;
		const struct stack_span *w;

		if (!aval_caller_may_at(a->map, f, fk))
			continue;
		if (flo < lo || flo >= hi)
			flo = lo;	/* (as absint_cb_verify_access) */
		if (!cx->outer_frame || cx->outer_frame_bad || !cx->outer_frame[f].live ||
		    flo < -EBPF_STACK_SIZE || hi > 0) {
			kf = NUMS_MAYBE;
		} else {
			kf = astate__nums_over(&cx->outer_frame[f], (int64_t)flo, (int64_t)hi);
			w = cx->outer_write ? &cx->outer_write[f].s : &all;
			wlo = flo > w->lo ? flo : w->lo;
			whi = hi < w->hi ? hi : w->hi;
			if (kf != NUMS_PTR && stack_span_any(w) && wlo < whi) {
				enum nums_over kw = !cx->outer_wval || !cx->outer_wval[f].live
						    ? NUMS_MAYBE
						    : astate__nums_over(&cx->outer_wval[f],
									(int64_t)wlo, (int64_t)whi);

				kf = kw > kf ? kw : kf;
			}
		}
		if (kf == NUMS_MAYBE && !absint_spill_may(cx, f, flo, hi))
			kf = NUMS_ALL;	/* (no store of a pointer reached those slots) */
		k = kf > k ? kf : k;
	}
	return k;
}

bool absint_cb_verify_access(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			     const struct aval *a, uint32_t pc, __int128 lo, __int128 hi,
			     bool write)
{
	if (lo < -EBPF_STACK_SIZE || hi > 0) {
		CBFAIL(VERDICT_UNSAFE, pc, "access [%lld, %lld) of the caller's stack outside "
		       "[-512, 0)", absint_ll_sat(lo), absint_ll_sat(hi));
	}
	if (absint_iter_verify_outer(cx, v, pc, a, lo, hi) ||
	    absint_dynptr_verify_outer(cx, v, s, pc, a, lo, hi))
		return true;
	/* the kernel grows the frame the pointer points into (each it may point into, from that
	 * frame's own lowest offset: aval_caller_lo); a read needs the bytes written before the
	 * calls in each */
	bool unwritten = a->map >= cx->st.cfg->nfuncs && !(a->map & CALLER_SET);

	for (uint32_t f = 0; f < cx->st.cfg->nfuncs; f++) {
		uint32_t fk = absint_frame_slot(cx, f);
		__int128 flo = (__int128)aval_caller_lo_at(a, f, fk) + (lo - a->r.smin);

		if (!aval_caller_may_at(a->map, f, fk))
			continue;
		if (flo < lo || flo >= hi)
			flo = lo;	/* (never: that frame's offsets lie in the pointer's) */
		absint_frame_depth(cx, f, flo);
		unwritten = unwritten || !cx->outer_init ||
			    !fpmask_all(&cx->outer_init[f], (int64_t)flo, (int64_t)hi);
	}
	if (!write && cx->opts.unprivileged && unwritten)
		CBFAIL(VERDICT_UNSAFE, pc, "read of the caller's stack bytes [%lld, %lld) not "
		       "written before every call that passes a pointer to them (bpf_loop or "
		       "bpf-to-bpf)", absint_ll_sat(lo), absint_ll_sat(hi));
	return false;
}
