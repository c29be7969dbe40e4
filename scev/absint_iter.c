/* Open-coded iterators in the range analysis: bpf_iter_num_new(&it, start, end),
 * bpf_iter_num_next(&it) and bpf_iter_num_destroy(&it) (kernel/bpf/bpf_iter.c), the trip
 * claims of the loops that test next's result, and the iterator's lifecycle in the verdict.
 *
 * The iterator is 8 bytes of the frame, int cur then int end.  new sets cur = start - 1 and end
 * (or both 0, failing, when start > end or end - start > 2^23 = BPF_MAX_LOOPS); next returns
 * &cur after cur + 1 while cur + 1 < end, else sets both to 0 and returns NULL; destroy sets both
 * to 0.  So an iterator in slot K of function f returns at most max(end - start) values in all,
 * the maximum over the news into K, never more than 2^23 — provided nothing else writes K: the
 * claims need every write of f's frame that may reach K to be one of these three calls on K
 * (stores at constant r10 offsets, and the may-write spans of every other store and call from
 * the first pass), and every iterator call of the program to name its slot as a constant r10
 * offset.  Then a loop in which a block that every iteration passes (it dominates every back
 * edge's source) calls next on K and leaves the loop when the result is NULL runs at most
 * max(end - start) + 1 header executions per entry, when no new on K is inside it.
 *
 * The value next points to is cur: in [start, end) right after a next that returned it; any
 * later call on the iterator changes it (start - 1 after new, 0 after a NULL or destroy), so
 * every pointer from an earlier next is marked stale (any int) at each call on its iterator, and
 * the others read [least start, largest end - 1].  The kernel takes it as any int, 4 read-only
 * bytes.
 *
 * The verdict follows the kernel's rules for the slot (is_iter_reg_valid_uninit/_init,
 * check_reference_leak): 8 aligned bytes of the frame at a constant offset; new only on a slot
 * that is not live on any path, next and destroy only on one live on every path, no frame exit
 * with one live on some path (a leak).  The kernel rejects reads of a live slot and forgets the
 * iterator on a store into it: both, and calls that are given a pointer into the frame while an
 * iterator is live, are answered unsupported — but for a plain helper's memory arguments, whose
 * spans are checked against the live slots like any other access (a map key on the stack).
 */
#include <stdio.h>
#include <string.h>

#include "bpf/helper_proto.h"
#include "scev/absint.h"

enum { IT_OTHER, IT_NEW = EBPF_ITER_NEW, IT_NEXT = EBPF_ITER_NEXT, IT_DESTROY = EBPF_ITER_DESTROY };

/* The operation of the iterator kfunc at pc when its family is one the analysis models (num,
 * bits, task, css, css_task, task_vma: bpf/isa.h), *it the kfunc's entry; IT_OTHER for any other
 * call. */
static int iter_op(const struct scev_ctx *cx, uint32_t pc, struct ebpf_kfunc_iter *it)
{
	if (!ebpf_kfunc_iter(ebpf_prog_kfunc_name(cx->prog, pc), it) ||
	    !ebpf_iter_family(it->family)->modeled)
		return IT_OTHER;
	return it->op;
}

static int iter_kind(const struct scev_ctx *cx, uint32_t pc)
{
	struct ebpf_kfunc_iter it;

	return iter_op(cx, pc, &it);
}

/* The bytes of a family's iterator: 8, 16 or 24. */
static int64_t fam_bytes(unsigned fam)
{
	return ebpf_iter_family(fam)->size;
}

static uint32_t func_of(const struct scev_ctx *cx, uint32_t pc)
{
	return cx->st.cfg->blocks[cx->st.cfg->block_of[pc]].func;
}

/* The slot facts of (f, off) in v, or NULL. */
static struct iter_slot *slot_find(struct iter_slot *v, uint32_t n, uint32_t f, int64_t off)
{
	for (uint32_t k = 0; k < n; k++)
		if (v[k].func == f && v[k].off == off)
			return &v[k];
	return NULL;
}

static void slot_note(struct scev_ctx *cx, uint32_t f, int64_t off, int64_t lo, int64_t hi,
		      unsigned fam)
{
	struct iter_slot *s = slot_find(cx->iter_acc, cx->niter_acc, f, off);

	if (!s) {
		if (cx->niter_acc == SCEV_ITER_SLOTS) {
			cx->iter_unplaced_acc = true;	/* (too many: give up) */
			return;
		}
		s = &cx->iter_acc[cx->niter_acc++];
		*s = (struct iter_slot){ f, (int16_t)off, lo, hi, (uint8_t)fam };
		return;
	}
	if (s->fam != fam)
		cx->iter_unplaced_acc = true;	/* (two families in one slot: give up) */
	s->lo = lo < s->lo ? lo : s->lo;
	s->hi = hi > s->hi ? hi : s->hi;
}

/* The bit of the live masks (absint.h) for the slot at off, or -1 when off is none. */
static int slot_bit(int64_t off)
{
	if (off < -FP_FRAME || off > -8 || off % 8)
		return -1;
	return (int)(-off / 8 - 1);
}

/* The bits of the live masks of an iterator of size bytes at the slot of bit (its first 8
 * bytes; the others are the bits below: a bits iterator at fp-16 holds bits 1 and 0), 0 when
 * bit is none or the bytes run past the frame's top. */
static uint64_t slot_mask(int bit, int64_t size)
{
	int n = (int)(size / 8);

	return bit < n - 1 ? 0 : ((1ull << n) - 1) << (bit - n + 1);
}

/* Whether it is a pointer to 8 aligned bytes at a constant offset *off of one caller's frame
 * (REGION_CALLER_STACK of one function, not a set). */
static bool caller_slot(const struct scev_ctx *cx, const struct aval *it, int64_t *off)
{
	if (it->kind != AV_PTR || it->region != REGION_CALLER_STACK || it->maybe_null ||
	    (it->map & CALLER_SET) || it->map >= cx->st.cfg->nfuncs || !range_is_const(&it->r) ||
	    slot_bit((int64_t)it->r.umin) < 0)
		return false;
	*off = (int64_t)it->r.umin;
	return true;
}

/* u := u joined with a (a when u is unseen). */
static void iter_in_join(struct iter_in *u, const struct iter_in *a)
{
	if (!u->seen) {
		*u = *a;
		return;
	}
	u->may |= a->may;
	u->must &= a->must;
	u->dmay |= a->dmay;
	u->dmust &= a->dmust;
	u->drmay |= a->drmay;
	u->drmust &= a->drmust;
	if (a->omay && u->omay && u->oframe != a->oframe)
		u->oframe = UINT16_MAX;
	else if (a->omay)
		u->oframe = a->oframe;
	u->omay |= a->omay;
	if (u->caller != a->caller)
		u->caller = UINT16_MAX;
	if (u->dframe != a->dframe)
		u->dframe = UINT16_MAX;
}

void absint_iter_in_note(const struct scev_ctx *cx, struct iter_in *a, uint32_t caller,
			 const struct astate *s)
{
	struct iter_in n = { .may = s->it.may, .must = s->it.must, .caller = (uint16_t)caller,
			     .seen = 1 };

	absint_dynptr_in(cx, caller, s, &n);	/* (the dynptrs, and their frame) */
	iter_in_join(a, &n);
}

void absint_iter_note_call(struct scev_ctx *cx, uint32_t caller, uint32_t callee,
			   const struct astate *s)
{
	if (cx->citer_acc)
		absint_iter_in_note(cx, &cx->citer_acc[callee], caller, s);
}

void absint_iter_note_outer_write(struct scev_ctx *cx, uint32_t f, int64_t lo, int64_t hi)
{
	for (int pass = 0; pass < 2; pass++) {
		const struct iter_slot *v = pass ? cx->iter_acc : cx->iter_used;
		uint32_t n = pass ? cx->niter_acc : cx->niter_used;

		for (uint32_t k = 0; k < n; k++)
			if (v[k].func == f && lo < v[k].off + fam_bytes(v[k].fam) && hi > v[k].off)
				cx->iter_hit_acc = true;
	}
}

/* The iterators of its caller's frame function f runs with (NULL: none live, or not known). */
static const struct iter_in *caller_iters(const struct scev_ctx *cx, uint32_t f)
{
	const struct iter_in *c = cx->citer ? &cx->citer[f] : NULL;

	return c && c->seen && c->may ? c : NULL;
}

/* Every pointer from an earlier next on the slot at off now reads what the call leaves: it
 * stays a pointer to the 4 bytes (the kernel reads through it), marked stale (ITER_STALE in
 * map), whose value is not known. */
#define ITER_STALE AVAL_ITER_STALE

static void forget_values(struct astate *s, int64_t off)
{
	for (int r = 0; r < EBPF_NREGS; r++)
		if (s->regs[r].kind == AV_PTR && s->regs[r].region == REGION_ITER_VAL &&
		    s->regs[r].map == (uint16_t)-off)
			s->regs[r].map |= ITER_STALE;
	for (uint32_t k = 0; k < s->n; k++)
		if (s->cells[k].v.kind == AV_PTR && s->cells[k].v.region == REGION_ITER_VAL &&
		    s->cells[k].v.map == (uint16_t)-off)
			s->cells[k].v.map |= ITER_STALE;
}

bool absint_iter_void(const struct scev_ctx *cx, uint32_t pc)
{
	return cx->insns[pc].src_reg == BPF_PSEUDO_KFUNC_CALL && ebpf_is_call(&cx->insns[pc]) &&
	       iter_kind(cx, pc) == IT_DESTROY;
}

bool absint_iter_kfunc(const struct scev_ctx *cx, uint32_t pc)
{
	return cx->insns[pc].src_reg == BPF_PSEUDO_KFUNC_CALL && ebpf_is_call(&cx->insns[pc]) &&
	       iter_kind(cx, pc) != IT_OTHER;
}

/* What next of an iterator over kernel objects returns: the object (struct obj of the family),
 * trusted (PTR_TRUSTED: css_task, task_vma) or as the kernel's MEM_RCU (task, css: new is
 * KF_RCU_PROTECTED), which is read like any but taken by no kfunc that wants a trusted object
 * (BTF_PLAIN), or NULL. */
static void next_obj(struct scev_ctx *cx, struct astate *s, uint32_t pc,
		     const struct ebpf_kfunc_iter *ik, struct aval *r0)
{
	const struct ebpf_iter_info *fam = ebpf_iter_family(ik->family);
	int32_t id = ebpf_btf_struct_by_name(fam->obj);

	*r0 = id > 0 ? absint_btf_ptr_as(cx, id, fam->next_rcu ? BTF_PLAIN : BTF_TRUSTED)
		     : aval_top();	/* (no BTF: the verdict says unsupported) */
	if (r0->kind != AV_PTR)
		return;
	r0->maybe_null = true;
	r0->id = aval_null_id(pc);
	astate__drop_id(s, r0->id);
}

bool absint_iter_call(struct engine *en, struct astate *s, uint32_t pc, struct aval *r0,
		      struct stack_span *w)
{
	struct scev_ctx *cx = en->cx;
	const struct aval *it = &s->regs[1];
	struct ebpf_kfunc_iter ik;
	int kind = iter_op(cx, pc, &ik);
	int64_t off, size;
	uint64_t mask;

	if (kind == IT_OTHER)
		return false;
	size = fam_bytes(ik.family);
	if (kind == IT_NEXT && caller_slot(cx, it, &off)) {
		/* next on an iterator of the caller's frame it points into (a callee given &it):
		 * its slot there advances, nothing of this frame changes; the value is read as
		 * any int (the slot's news are the caller's); an object iterator's (not modeled
		 * there: the verdict says so) gives its object or NULL */
		uint16_t fr = it->map;

		if (cx->iter_slot) {
			bool same = cx->iter_slot[pc] == INT16_MAX ||
				    (cx->iter_slot[pc] == off && cx->iter_fn[pc] == fr);

			cx->iter_slot[pc] = same ? (int16_t)off : INT16_MIN;
			cx->iter_fn[pc] = fr;
		}
		absint_cb_note_iter_write(cx, pc, it);
		*w = (struct stack_span){ 0, 0 };
		if (ebpf_iter_family_obj(ik.family)) {
			next_obj(cx, s, pc, &ik, r0);
			return true;
		}
		*r0 = aval_ptr(REGION_ITER_VAL, (uint16_t)(-off | ITER_STALE), range_const(0));
		r0->maybe_null = true;
		r0->id = aval_null_id(pc);
		astate__drop_id(s, r0->id);
		return true;
	}
	if (it->kind != AV_PTR || it->region != REGION_STACK || it->maybe_null ||
	    !range_is_const(&it->r) || (int64_t)it->r.umin < -FP_FRAME ||
	    (int64_t)it->r.umin > -size) {
		cx->iter_unplaced_acc = true;
		return false;	/* (the caller treats it as any call with pointer arguments) */
	}
	off = (int64_t)it->r.umin;
	if (cx->iter_slot) {
		cx->iter_slot[pc] = cx->iter_slot[pc] == INT16_MAX ||
				    (cx->iter_slot[pc] == off && cx->iter_fn[pc] == UINT16_MAX)
				    ? (int16_t)off : INT16_MIN;
		cx->iter_fn[pc] = UINT16_MAX;
	}
	if (kind == IT_NEW && ik.family == EBPF_ITER_BITS) {
		const struct aval *b = &s->regs[3];
		uint64_t words = b->kind != AV_SCALAR ? EBPF_ITER_BITS_MAX_WORDS
				 : b->r.u32_min > EBPF_ITER_BITS_MAX_WORDS ? 0
				 : b->r.u32_max < EBPF_ITER_BITS_MAX_WORDS ? b->r.u32_max
				 : EBPF_ITER_BITS_MAX_WORDS;

		/* the set bits of nr_words words, a u32 (more than 511: -E2BIG, none) */
		slot_note(cx, func_of(cx, pc), off, 0, (int64_t)words * 64, ik.family);
	} else if (kind == IT_NEW) {
		const struct aval *a = &s->regs[2], *b = &s->regs[3];

		/* start and end are ints: the registers' low 32 bits */
		slot_note(cx, func_of(cx, pc), off, a->kind == AV_SCALAR ? a->r.s32_min : INT32_MIN,
			  b->kind == AV_SCALAR ? b->r.s32_max : INT32_MAX, ik.family);
	}
	/* (a bits, task or css iterator: the bits of each of its 8-byte words) */
	mask = slot_mask(slot_bit(off), size);
	if (kind == IT_NEW) {
		s->it.may |= mask;
		s->it.must |= mask;
	} else if (kind == IT_DESTROY) {
		s->it.may &= ~mask;
		s->it.must &= ~mask;
	}
	forget_values(s, off);
	/* the call writes the bytes of the slot and nothing else of the frame */
	*w = (struct stack_span){ (int16_t)off, (int16_t)(off + size) };
	if (kind == IT_NEXT && ebpf_iter_family_obj(ik.family)) {
		next_obj(cx, s, pc, &ik, r0);
	} else if (kind == IT_NEXT) {
		*r0 = aval_ptr(REGION_ITER_VAL, (uint16_t)-off, range_const(0));
		r0->maybe_null = true;
		r0->id = aval_null_id(pc);
		astate__drop_id(s, r0->id);
	} else {
		*r0 = aval_top();	/* (new's int result: only its low 32 bits are defined) */
	}
	return true;
}

/* A helper whose every memory argument verify_helper checks with its span: one with a
 * prototype and no unmodeled argument, and not bpf_loop or bpf_for_each_map_elem (whose
 * callback may write whatever its context points to). */
static bool helper_spans_checked(const struct bpf_insn *i)
{
	const struct ebpf_helper_proto *p;

	if (!ebpf_is_helper_call(i) || i->imm == BPF_FUNC_loop ||
	    i->imm == BPF_FUNC_for_each_map_elem)
		return false;
	p = ebpf_helper_proto(i->imm);
	return p && !ebpf_helper_proto_unmodeled_arg(p);
}

#define VFAIL(kind_, pc_, ...)                                                                   \
	do {                                                                                      \
		verdict_fail(v, (kind_), (pc_), __VA_ARGS__);                                    \
		return true;                                                                      \
	} while (0)

/* The frame whose slot the iterator call at pc names (its own function's, or the caller's it
 * was given), or UINT32_MAX when it names none (never reached, or more than one). */
static uint32_t call_frame(const struct scev_ctx *cx, uint32_t pc)
{
	if (cx->iter_slot[pc] == INT16_MIN || cx->iter_slot[pc] == INT16_MAX)
		return UINT32_MAX;
	return cx->iter_fn[pc] == UINT16_MAX ? func_of(cx, pc) : cx->iter_fn[pc];
}

/* Whether an iterator's bytes may share bytes with another iterator call's slot, or its slot
 * hold an iterator of another family (the kernel refuses a call on either: "expected an
 * initialized iter_bits"), which the slot masks do not tell: some call of a program with an
 * iterator of a family other than num names a slot that overlaps the one of the call at pc (of
 * family fam) at another offset or of another family, or no one slot.  (Number iterators alone
 * never partly overlap, nor are of another family.) */
static bool slot_clash(struct scev_ctx *cx, uint32_t pc, unsigned fam, int64_t off)
{
	uint32_t fr = call_frame(cx, pc);
	struct ebpf_kfunc_iter it;

	if (!cx->iter_bits_prog) {
		cx->iter_bits_prog = 1;
		for (uint32_t q = 0; q < cx->len; q += ebpf_insn_slots(&cx->insns[q]))
			if (cx->insns[q].src_reg == BPF_PSEUDO_KFUNC_CALL &&
			    ebpf_is_call(&cx->insns[q]) && iter_op(cx, q, &it) != IT_OTHER &&
			    it.family != EBPF_ITER_NUM)
				cx->iter_bits_prog = 2;
	}
	if (cx->iter_bits_prog != 2)
		return false;
	if (!cx->iter_slot || fr == UINT32_MAX)
		return true;
	for (uint32_t q = 0; q < cx->len; q += ebpf_insn_slots(&cx->insns[q])) {
		int64_t o;

		if (cx->insns[q].src_reg != BPF_PSEUDO_KFUNC_CALL || !ebpf_is_call(&cx->insns[q]) ||
		    iter_op(cx, q, &it) == IT_OTHER || cx->iter_slot[q] == INT16_MAX)
			continue;
		if (cx->iter_slot[q] == INT16_MIN)
			return true;
		o = cx->iter_slot[q];
		if (call_frame(cx, q) == fr && o < off + fam_bytes(fam) &&
		    off < o + fam_bytes(it.family) && (o != off || it.family != fam))
			return true;
	}
	return false;
}

/* bpf_iter_<family>_new(it, obj, flags or addr) of an iterator over kernel objects: R2 the
 * object the walk starts from, as check_kfunc_args takes it for KF_TRUSTED_ARGS (KF_RCU for
 * task_vma): a kernel object of the family's arg struct (or one that starts with it: a struct
 * cgroup for its css), at offset 0, trusted (a BTF context's argument, bpf_get_current_task_btf's
 * result, a held acquired one), not NULL but for the task iterator's task__nullable; R3 a number
 * (flags or addr: the kernel reads any value, bad flags give -EINVAL at run time).  css_task only
 * in LSM and iter/ programs (check_css_task_iter_allowlist; sleepable ones are not modeled).  An
 * RCU pointer (walked from another, or an iterator's MEM_RCU result), which the kernel takes for
 * task_vma's KF_RCU, is answered unsupported.  true after a failure. */
static bool verify_obj_new(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			   uint32_t pc, const struct ebpf_kfunc_iter *ik)
{
	const struct ebpf_iter_info *fam = ebpf_iter_family(ik->family);
	const char *name = ebpf_kfunc_iter_name(ik->family, EBPF_ITER_NEW), *gname;
	const struct aval *a = &s->regs[2];
	int32_t want = ebpf_btf_struct_by_name(fam->arg), got;
	uint64_t c;

	/* (KF_RCU_PROTECTED: a sleepable program must hold bpf_rcu_read_lock, not modeled) */
	if (fam->next_rcu && absint_sleepable(cx))
		VFAIL(VERDICT_UNSUPPORTED, pc, "%s in a sleepable program (the kernel wants it inside "
		      "bpf_rcu_read_lock: not modeled)", name);
	if (fam->lsm_iter_only && absint_sleepable(cx))
		VFAIL(VERDICT_UNSUPPORTED, pc, "%s in a sleepable program (which the kernel allows: "
		      "not modeled)", name);
	if (fam->lsm_iter_only && cx->prog_type != BPF_PROG_TYPE_LSM &&
	    !(cx->prog_type == BPF_PROG_TYPE_TRACING &&
	      cx->prog->btf_ctx.attach_type == BPF_TRACE_ITER))
		VFAIL(VERDICT_UNSAFE, pc, "css_task_iter is only allowed in bpf_lsm, bpf_iter and "
		      "sleepable progs (%s)", name);
	if (want <= 0)
		VFAIL(VERDICT_UNSUPPORTED, pc, "%s: no struct %s in the running kernel's BTF", name,
		      fam->arg);
	if (fam->arg_null && aval_is_const(a, &c) && c == 0)
		return false;
	if (a->kind == AV_SCALAR)
		VFAIL(VERDICT_UNSAFE, pc, "arg#1 pointer type STRUCT %s must point to scalar, or "
		      "struct with scalar (%s: R2 is a number%s)", fam->arg, name,
		      fam->arg_null ? " other than NULL" : "");
	if (a->kind != AV_PTR)
		VFAIL(VERDICT_UNSUPPORTED, pc, "R2 of %s may be a pointer of another kind (a kernel "
		      "object joined with something else)", name);
	if (a->region != REGION_BTF && a->region != REGION_KREF)
		VFAIL(VERDICT_UNSAFE, pc, "R2 type=%s expected=ptr_%s (%s takes a kernel object)",
		      claim_region_name(a->region), fam->arg, name);
	if (a->maybe_null)
		VFAIL(fam->arg_null ? VERDICT_UNSUPPORTED : VERDICT_UNSAFE, pc, "Possibly NULL "
		      "pointer passed to trusted arg1 (%s before the NULL check)", name);
	got = a->region == REGION_KREF ? (a->map < cx->nref_sites ? cx->ref_sites[a->map].btf : 0)
				       : (a->map < cx->nbtf_types ? cx->btf_types[a->map] : 0);
	gname = ebpf_btf_type_name(got);
	if (got != want && !ebpf_btf_starts_with(got, fam->arg))
		VFAIL(VERDICT_UNSAFE, pc, "kernel function %s args#1 expected pointer to STRUCT %s but "
		      "R2 has a pointer to STRUCT %s", name, fam->arg, gname ? gname : "?");
	if (!range_is_const(&a->r) || a->r.umin != 0)
		VFAIL(VERDICT_UNSUPPORTED, pc, "R2 of %s: a kernel object at an offset: not modeled",
		      name);
	if (a->region == REGION_KREF) {
		if (func_of(cx, pc) != 0)
			VFAIL(VERDICT_UNSUPPORTED, pc, "acquired kernel objects outside the main "
			      "function are not modeled");
		if (!(s->ref.must & (1ull << a->map)))
			VFAIL(VERDICT_UNSAFE, pc, "R2 of %s: the object acquired at %u may be released "
			      "on some path", name, cx->ref_sites[a->map].pc);
	} else if (cx->btf_trusted[a->map] != BTF_TRUSTED) {
		VFAIL(VERDICT_UNSUPPORTED, pc, "R2 of %s is a kernel object that may not be trusted "
		      "(read from another, a helper's, an fentry argument or an iterator's RCU "
		      "result: not modeled)", name);
	}
	return false;
}

bool absint_iter_verify_insn(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			     uint32_t pc)
{
	const struct bpf_insn *i = &cx->insns[pc];
	const struct aval *it = &s->regs[1];
	struct ebpf_kfunc_iter ik;
	const char *name;
	int kind, bit;
	int64_t off, size;
	uint64_t mask;

	if (ebpf_is_exit(i)) {
		/* (the highest bit: the lowest live bytes, the first 8 of the iterator there) */
		if (s->it.may)
			VFAIL(VERDICT_UNSAFE, pc, "exit with the iterator at fp%d live on some path "
			      "(not destroyed: a reference leak)", -8 * (63 - __builtin_clzll(s->it.may) + 1));
		return false;
	}
	/* An iterator is a reference: main's LD_ABS / LD_IND refuses it (check_ld_abs's leak
	 * check, main's frame only); a static function's returns from it when the load fails
	 * (cfg.h ld_exit), leaving its frame's iterator live, which main's exit then refuses
	 * (6.18-probed: corpus ld_abs_iter_live_unsafe, ld_abs_static_fn_iter_live_unsafe; one of
	 * the caller's frame, live across the call, is accepted: ld_abs_static_fn_caller_iter) */
	if (ebpf_is_ld_pkt(i) && s->it.may) {
		if (func_of(cx, pc) == 0)
			VFAIL(VERDICT_UNSAFE, pc, "BPF_LD_[ABS|IND] would lead to reference leak "
			      "(the iterator at fp%d may be live)",
			      -8 * (63 - __builtin_clzll(s->it.may) + 1));
		VFAIL(VERDICT_UNSAFE, pc, "BPF_EXIT instruction in main prog would lead to "
		      "reference leak (the iterator at fp%d may be live at this LD_ABS / LD_IND, "
		      "which returns from the subprogram when the load fails)",
		      -8 * (63 - __builtin_clzll(s->it.may) + 1));
	}
	if (!ebpf_is_call(i))
		return false;
	if (i->src_reg != BPF_PSEUDO_KFUNC_CALL || (kind = iter_op(cx, pc, &ik)) == IT_OTHER) {
		/* a callee, a kfunc or a helper that calls back, given a pointer into this frame,
		 * may write a live iterator; a plain helper touches the frame only through its
		 * memory arguments, each checked with its span against the live slots
		 * (absint_iter_verify_stack, from verify_access).  So does a static callee:
		 * every access it makes through a pointer into this frame is checked against
		 * the slots live at its calls (absint_iter_verify_outer), and it may call nothing
		 * with such a pointer but bpf_iter_num_next (below) */
		bool outer = caller_iters(cx, func_of(cx, pc)) != NULL;
		bool static_call = ebpf_is_pseudo_call(i) &&
				   !absint_global(cx, cx->st.cfg->blocks[cx->st.cfg->block_of[
					   pc + 1 + (uint32_t)i->imm]].func);

		if ((!s->it.may && !outer) || helper_spans_checked(i))
			return false;
		for (int r = 1; r <= 5; r++) {
			const struct aval *a = &s->regs[r];

			if (!(s->init & (1u << r)))
				continue;
			if (s->it.may && a->kind == AV_PTR && a->region == REGION_STACK &&
			    !static_call)
				VFAIL(VERDICT_UNSUPPORTED, pc, "a call given a pointer into the frame "
				      "(R%d) while an open-coded iterator is live", r);
			if (a->kind == AV_PTR && a->region == REGION_CALLER_STACK)
				VFAIL(VERDICT_UNSUPPORTED, pc, "a call given a pointer into %s frame "
				      "(R%d) while an open-coded iterator %s is live",
				      s->it.may ? "the caller's" : "a caller's", r,
				      s->it.may ? "of this frame" : "there");
			if (a->kind == AV_TOP && ebpf_is_pseudo_call(i))
				VFAIL(VERDICT_UNSUPPORTED, pc, "a call given R%d, which may point into "
				      "the frame, while an open-coded iterator is live", r);
		}
		return false;
	}
	v->checks++;
	name = ebpf_kfunc_iter_name(ik.family, (unsigned)kind);
	size = fam_bytes(ik.family);
	/* (bpf_iter_bits_new's R2, unsafe_ptr__ign, the kernel does not look at) */
	for (int r = 1; r <= (kind == IT_NEW ? 3 : 1); r++)
		if (!(s->init & (1u << r)) && !(r == 2 && ik.family == EBPF_ITER_BITS))
			VFAIL(VERDICT_UNSAFE, pc, "R%d may be read before it is written (not written "
			      "on some path)", r);
	if (it->kind == AV_SCALAR || (it->kind == AV_PTR && it->region != REGION_STACK &&
				      it->region != REGION_CALLER_STACK))
		VFAIL(VERDICT_UNSAFE, pc, "%s: R1 is not a pointer to an iterator on the stack",
		      name);
	if (kind == IT_NEXT && caller_slot(cx, it, &off)) {
		/* a caller's iterator, advanced here: live at every call of this function, in the
		 * frame of its one caller */
		const struct iter_in *c = cx->citer ? &cx->citer[func_of(cx, pc)] : NULL;

		if (!c || !c->seen || c->caller != it->map)
			VFAIL(VERDICT_UNSUPPORTED, pc, "%s: the iterator at fp%lld "
			      "of the function at %u is not known live at every call of this one",
			      name, (long long)off, cx->st.cfg->funcs[it->map].start);
		if (ebpf_iter_family_obj(ik.family))
			VFAIL(VERDICT_UNSUPPORTED, pc, "%s: an iterator of the caller's frame (fp%lld) "
			      "advanced in a callee: not modeled for the %s family", name,
			      (long long)off, ik.family_name);
		if (slot_clash(cx, pc, ik.family, off))
			VFAIL(VERDICT_UNSUPPORTED, pc, "%s: the iterator at fp%lld of the caller's "
			      "frame may be another's bytes (the slots of iterators of several "
			      "families not told apart)", name, (long long)off);
		if (!(c->must & (1ull << slot_bit(off))))
			VFAIL(VERDICT_UNSAFE, pc, "%s on the iterator at fp%lld of "
			      "the caller's frame, not live on some path (never created, or "
			      "destroyed)", name, (long long)off);
		absint_frame_depth(cx, it->map, off);
		return true;
	}
	/* (the kernel's stack_slot_obj_get_spi, any frame's: 8-aligned) */
	if (it->kind == AV_PTR && !it->maybe_null && range_is_const(&it->r) &&
	    (it->region == REGION_STACK ||
	     (it->region == REGION_CALLER_STACK && !(it->map & CALLER_SET))) &&
	    (int64_t)it->r.umin % 8)
		VFAIL(VERDICT_UNSAFE, pc, "cannot pass in iter at an offset=%lld: expected %s "
		      "iter_%s as arg #0 (%s: the iterator%s is not 8 aligned bytes)",
		      (long long)(int64_t)it->r.umin, kind == IT_NEW ? "uninitialized"
		      : "an initialized", ik.family_name, name, it->region == REGION_STACK ? ""
		      : " of the caller's frame");
	if (it->kind != AV_PTR || it->region != REGION_STACK || it->maybe_null ||
	    !range_is_const(&it->r))
		VFAIL(VERDICT_UNSUPPORTED, pc, "%s: the iterator is not at a constant offset of "
		      "this frame", name);
	off = (int64_t)it->r.umin;
	if ((bit = slot_bit(off)) < 0)
		VFAIL(VERDICT_UNSAFE, pc, "%s: the iterator at fp%lld is not 8 aligned bytes of the "
		      "frame", name, (long long)off);
	if (off > -size)
		VFAIL(VERDICT_UNSAFE, pc, "expected %s iter_%s as arg #0 (%s: the %lld bytes of "
		      "the iterator at fp%lld run past the frame's top)", kind == IT_NEW
		      ? "uninitialized" : "an initialized", ik.family_name, name, (long long)size,
		      (long long)off);
	mask = slot_mask(bit, size);
	if (slot_clash(cx, pc, ik.family, off))
		VFAIL(VERDICT_UNSUPPORTED, pc, "%s: the iterator at fp%lld may share bytes with "
		      "another, or be of another family (the slots of iterators of several "
		      "families not told apart)", name, (long long)off);
	/* the slot is the frame's, as the kernel's process_iter_arg checks its bytes
	 * (check_mem_access) */
	absint_frame_depth(cx, func_of(cx, pc), off);
	if (kind == IT_NEXT && ebpf_iter_family_obj(ik.family) &&
	    ebpf_btf_struct_by_name(ebpf_iter_family(ik.family)->obj) <= 0)
		VFAIL(VERDICT_UNSUPPORTED, pc, "%s: its result is a struct %s, which the kernel's BTF "
		      "does not describe here", name, ebpf_iter_family(ik.family)->obj);
	if (kind == IT_NEW && ebpf_iter_family_obj(ik.family) && verify_obj_new(cx, v, s, pc, &ik))
		return true;
	if (kind == IT_NEW) {
		for (int r = ik.family != EBPF_ITER_NUM ? 3 : 2; r <= 3; r++) {
			if (s->regs[r].kind == AV_PTR)
				VFAIL(VERDICT_UNSAFE, pc, "%s: R%d is a pointer, not an int", name, r);
			if (s->regs[r].kind != AV_SCALAR)
				VFAIL(VERDICT_UNSUPPORTED, pc, "%s: R%d may be a pointer", name, r);
		}
		if (s->it.may & mask)
			VFAIL(VERDICT_UNSAFE, pc, "%s on the iterator at fp%lld, live on some path "
			      "(expected an uninitialized iterator)", name, (long long)off);
		return true;
	}
	if ((s->it.must & mask) != mask)
		VFAIL(VERDICT_UNSAFE, pc, "%s on the iterator at fp%lld, not live on some path "
		      "(never created, or destroyed)", name, (long long)off);
	return true;
}

bool absint_iter_verify_stack(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			      uint32_t pc, __int128 lo, __int128 hi)
{
	(void)cx;
	for (uint64_t m = s->it.may; m; m &= m - 1) {
		int64_t off = -8 * (int64_t)(__builtin_ctzll(m) + 1);

		if (lo < off + 8 && hi > off)
			VFAIL(VERDICT_UNSUPPORTED, pc, "access to the bytes of the open-coded iterator "
			      "at fp%lld while it is live", (long long)off);
	}
	return false;
}

bool absint_iter_verify_outer(struct scev_ctx *cx, struct scev_verdict *v, uint32_t pc,
			      const struct aval *a, __int128 lo, __int128 hi)
{
	const struct iter_in *c = caller_iters(cx, func_of(cx, pc));

	if (!c)
		return false;
	for (uint64_t m = c->may; m; m &= m - 1) {
		int64_t off = -8 * (int64_t)(__builtin_ctzll(m) + 1);

		if ((c->caller == UINT16_MAX || aval_caller_may(a->map, c->caller)) &&
		    lo < off + 8 && hi > off)
			VFAIL(VERDICT_UNSUPPORTED, pc, "access to the bytes of the open-coded iterator "
			      "at fp%lld of the caller's frame while it is live", (long long)off);
	}
	return false;
}

/* Nothing but the iterator calls on off writes the slot off of function f (see above); a
 * callee's writes into f's frame count when they may reach a slot (iter_hit), its iterator
 * calls on the slot do not. */
static bool slot_private(const struct scev_ctx *cx, uint32_t f, int64_t off, int64_t size)
{
	const struct scev_func *fn = &cx->st.cfg->funcs[f];

	for (uint32_t pc = fn->start; pc < fn->end; pc += ebpf_insn_slots(&cx->insns[pc])) {
		const struct bpf_insn *i = &cx->insns[pc];
		const struct stack_span *w = &cx->may_stack[pc];
		uint8_t cls = ebpf_class(i);

		if ((cls == BPF_ST || cls == BPF_STX) && i->dst_reg == EBPF_REG_FP &&
		    i->off + (int64_t)ebpf_size_bytes(ebpf_size(i)) > off && i->off < off + size)
			return false;
		if (!stack_span_any(w) || w->hi <= off || w->lo >= off + size)
			continue;
		if (ebpf_is_pseudo_call(i) && !cx->iter_hit && !cx->iter_hit_acc &&
		    !absint_global(cx, cx->st.cfg->blocks[cx->st.cfg->block_of[
			    pc + 1 + (uint32_t)i->imm]].func))
			continue;	/* (what its callees write here: iterator calls only) */
		if (!(ebpf_is_call(i) && i->src_reg == BPF_PSEUDO_KFUNC_CALL &&
		      iter_kind(cx, pc) != IT_OTHER && cx->iter_slot[pc] == off &&
		      cx->iter_fn[pc] == UINT16_MAX))
			return false;
	}
	return true;
}

struct aval absint_iter_load(const struct scev_ctx *cx, const struct aval *a, uint32_t pc,
			     int64_t off, unsigned size)
{
	const struct iter_slot *s;
	int64_t slot = -(int64_t)a->map, lo, hi;
	uint32_t f = func_of(cx, pc);
	struct aval v;

	if (cx->first_pass || cx->iter_unplaced || a->maybe_null || (a->map & ITER_STALE) ||
	    !range_is_const(&a->r) ||
	    (int64_t)a->r.umin + off != 0 || size != 4 || !cx->may_stack || !cx->iter_slot ||
	    !(s = slot_find((struct iter_slot *)cx->iter_used, cx->niter_used, f, slot)) ||
	    !slot_private(cx, f, slot, fam_bytes(s->fam)))
		return absint_unknown_bytes(size);
	/* (no value when every range is empty: the read is unreachable) */
	lo = s->lo;
	hi = s->hi - 1 >= s->lo ? s->hi - 1 : s->lo;
	v = aval_scalar(range_srange(lo, hi));
	return aval_zext(&v, 4);
}

/* The call in block B (of loop l) of an iterator's next whose NULL result leaves the loop, *ik
 * its kfunc's entry: B is "call next; ... if rX ==/!= 0 goto", rX r0 or a 64-bit copy of it made
 * after the call (clang's `r6 = r0`), untouched in between, the NULL side leaving the loop.
 * SCEV_NONE when B is not. */
static uint32_t next_exit(const struct scev_ctx *cx, uint32_t l, const struct scev_block *B,
			  struct ebpf_kfunc_iter *ik)
{
	const struct bpf_insn *j = &cx->insns[B->last];
	uint32_t call = SCEV_NONE, nullsucc;
	uint32_t held = 0;	/* (registers holding the result) */

	if (!ebpf_is_cond_jmp(j) || ebpf_srcbit(j) != BPF_K || j->imm != 0 ||
	    (ebpf_op(j) != BPF_JEQ && ebpf_op(j) != BPF_JNE) || B->nsucc != 2)
		return SCEV_NONE;
	for (uint32_t pc = B->first; pc < B->last; pc += ebpf_insn_slots(&cx->insns[pc])) {
		const struct bpf_insn *ii = &cx->insns[pc];

		if (ebpf_is_call(ii)) {
			call = pc;
			held = 1;
		} else if (ebpf_class(ii) == BPF_ALU64 && ebpf_op(ii) == BPF_MOV &&
			   ebpf_srcbit(ii) == BPF_X && !ii->off && (held >> ii->src_reg & 1)) {
			held |= 1u << ii->dst_reg;
		} else {
			held &= ~ebpf_regs_written(ii);
		}
	}
	if (!(held >> j->dst_reg & 1) || call == SCEV_NONE ||
	    cx->insns[call].src_reg != BPF_PSEUDO_KFUNC_CALL ||
	    !ebpf_kfunc_iter(ebpf_prog_kfunc_name(cx->prog, call), ik) || ik->op != EBPF_ITER_NEXT)
		return SCEV_NONE;
	/* succ[0] is the fall-through, succ[1] the taken edge (cfg.h) */
	nullsucc = ebpf_op(j) == BPF_JEQ ? B->succ[1] : B->succ[0];
	return scev_loop__contains(cx->st.loops, l, nullsucc) ? SCEV_NONE : call;
}

/* Whether the next at call, in block b of loop l (next_exit's), alone ends the loop: its slot
 * one constant offset (*off, of frame *fr: l's function's, or the caller's it was given), b
 * passed by every iteration (it dominates every back edge's source), no new on the slot inside
 * the loop. */
static bool next_ends_loop(const struct scev_ctx *cx, uint32_t l, uint32_t b, uint32_t call,
			   int64_t *off, uint32_t *fr)
{
	const struct scev_cfg *cfg = cx->st.cfg;
	const struct scev_loop *L = &cx->st.loops->loops[l];

	if (!cx->iter_slot || iter_kind(cx, call) != IT_NEXT)
		return false;
	*off = cx->iter_slot[call];
	if (*off == INT16_MIN || *off == INT16_MAX)
		return false;
	*fr = cx->iter_fn[call] == UINT16_MAX ? cfg->blocks[L->header].func : cx->iter_fn[call];
	for (uint32_t e = 0; e < L->nback_edges; e++)
		if (!scev_dom__dominates(cx->st.dom, b, L->back_edges[e].from))
			return false;
	for (uint32_t k = 0; k < L->nblocks; k++)
		for (uint32_t pc = cfg->blocks[L->blocks[k]].first; pc <= cfg->blocks[L->blocks[k]].last;
		     pc += ebpf_insn_slots(&cx->insns[pc]))
			if (cx->insns[pc].src_reg == BPF_PSEUDO_KFUNC_CALL &&
			    ebpf_is_call(&cx->insns[pc]) && iter_kind(cx, pc) == IT_NEW &&
			    cx->iter_slot[pc] == *off && cx->iter_fn[pc] == cx->iter_fn[call])
				return false;
	return true;
}

/* The loops of unknown trip that the next of an iterator over kernel objects (task, css,
 * css_task, task_vma; kmem_cache and dmabuf, not modeled) leaves: no count, as the kernel
 * verifies them (its states converge at next), but ended when the objects run out — when that
 * next alone ends the loop (next_ends_loop) on an iterator of this frame nothing else writes
 * (ends_by TRIP_ENDS_ITER, the loop's kind iter_<family>); else unknown still, with the reason
 * (and absint_iter_loop_unmodeled tells the verdict). */
static int other_family_trips(struct engine *en)
{
	struct scev_ctx *cx = en->cx;
	const struct scev_loops *lf = cx->st.loops;
	char why[CLAIM_TRIP_TEXT];
	struct ebpf_kfunc_iter ik;
	uint32_t call, fr;
	int64_t off;
	int err;

	for (uint32_t l = 0; l < lf->nloops; l++) {
		const struct scev_loop *L = &lf->loops[l];
		struct claim_trip *t = loop_trip(en, l);

		if (!en->res[l].visited || t->kind != TRIP_UNKNOWN || t->ends_by || L->irreducible)
			continue;
		for (uint32_t k = 0; k < L->nblocks; k++) {
			bool ends;

			if ((call = next_exit(cx, l, &cx->st.cfg->blocks[L->blocks[k]], &ik)) ==
				    SCEV_NONE || !ebpf_iter_family_obj(ik.family))
				continue;
			ends = iter_kind(cx, call) == IT_NEXT &&
			       next_ends_loop(cx, l, L->blocks[k], call, &off, &fr) &&
			       cx->iter_fn[call] == UINT16_MAX && cx->may_stack &&
			       slot_private(cx, fr, off, fam_bytes(ik.family));
			if (ends)
				snprintf(why, sizeof(why), "open-coded iterator: ends when %s at %u "
					 "returns NULL, when the kernel's %s run out: bounded by the "
					 "kernel (the iterator ends), no numeric bound",
					 ebpf_kfunc_iter_name(ik.family, EBPF_ITER_NEXT), call,
					 ik.family == EBPF_ITER_CSS ? "cgroups" : ik.family ==
					 EBPF_ITER_TASK_VMA ? "vmas" : "tasks");
			else
				snprintf(why, sizeof(why), "open-coded iterator: ends when %s at %u "
					 "returns NULL, which nothing but the iterator's own walk bounds "
					 "(the kernel trusts it to end)",
					 ebpf_kfunc_iter_name(ik.family, EBPF_ITER_NEXT), call);
			if ((err = claim_trip__set_text_in(en->out, t, &t->reason, why)))
				return err;
			if (ends) {
				t->ends_by = TRIP_ENDS_ITER;
				if (cx->iter_loop)
					cx->iter_loop[l] = (uint8_t)(1 + ik.family);
			}
			break;
		}
	}
	return 0;
}

bool absint_iter_loop_unmodeled(const struct engine *en, uint32_t l)
{
	const struct scev_ctx *cx = en->cx;
	const struct scev_loop *L = &cx->st.loops->loops[l];
	struct ebpf_kfunc_iter ik;

	for (uint32_t k = 0; k < L->nblocks; k++)
		if (next_exit(cx, l, &cx->st.cfg->blocks[L->blocks[k]], &ik) != SCEV_NONE &&
		    ebpf_iter_family_obj(ik.family))
			return true;
	return false;
}

int absint_iter_trips(struct engine *en)
{
	struct scev_ctx *cx = en->cx;
	const struct scev_cfg *cfg = cx->st.cfg;
	const struct scev_loops *lf = cx->st.loops;
	char text[CLAIM_TRIP_TEXT], why[CLAIM_TRIP_TEXT];
	struct ebpf_kfunc_iter ik;
	int err;

	if ((err = other_family_trips(en)))
		return err;
	if (cx->iter_unplaced_acc || !cx->iter_slot || !cx->niter_acc)
		return 0;
	for (uint32_t l = 0; l < lf->nloops; l++) {
		const struct scev_loop *L = &lf->loops[l];
		struct claim_trip *t = loop_trip(en, l);

		if (!en->res[l].visited || t->kind != TRIP_UNKNOWN || L->irreducible)
			continue;
		for (uint32_t k = 0; k < L->nblocks; k++) {
			const struct iter_slot *s;
			uint32_t call, fr;
			int64_t off;
			uint64_t n;

			call = next_exit(cx, l, &cfg->blocks[L->blocks[k]], &ik);
			if (call == SCEV_NONE || ebpf_iter_family_obj(ik.family) ||
			    !next_ends_loop(cx, l, L->blocks[k], call, &off, &fr))
				continue;
			/* (a caller's slot: its news are in the caller, none in this loop) */
			s = slot_find(cx->iter_acc, cx->niter_acc, fr, off);
			if (!s || !slot_private(cx, fr, off, fam_bytes(s->fam)) || ik.family != s->fam)
				continue;
			n = s->hi - s->lo > (int64_t)SCEV_MAX_LOOPS ? SCEV_MAX_LOOPS
				: s->hi > s->lo ? (uint64_t)(s->hi - s->lo) : 0;
			t->kind = TRIP_BOUNDED;
			t->max = n + 1;
			t->min = 1;
			if (s->fam == EBPF_ITER_BITS)
				snprintf(text, sizeof(text), "1 + values of bpf_iter_bits_next(fp%lld) "
					 "at %u: the set bits of its bpf_iter_bits_new's words, at most "
					 "64 nr_words (nr_words at most 511)", (long long)off, call);
			else
				snprintf(text, sizeof(text), "1 + values of bpf_iter_num_next(fp%lld) "
					 "at %u: end - start of its bpf_iter_num_new, at most 2^23",
					 (long long)off, call);
			snprintf(why, sizeof(why), "open-coded iterator: ends when %s returns NULL",
				 ebpf_kfunc_iter_name(s->fam, EBPF_ITER_NEXT));
			if ((err = claim_trip__set_text_in(en->out, t, &t->expr, text)) ||
			    (err = claim_trip__set_text_in(en->out, t, &t->reason, why)))
				return err;
			if (cx->iter_loop)
				cx->iter_loop[l] = (uint8_t)(1 + s->fam);
			break;
		}
	}
	return 0;
}

/* The callers' iterators and the writes reaching them the pass that ended saw become the ones
 * the next reads (join: joined with them, so they only grow). */
static void callers_pass_start(struct scev_ctx *cx, bool join)
{
	cx->iter_hit = (join && cx->iter_hit) || cx->iter_hit_acc;
	cx->iter_hit_acc = false;
	if (cx->citer)
		absint_iter_in_start(cx->citer, cx->citer_acc, cx->st.cfg->nfuncs, join);
}

void absint_iter_in_start(struct iter_in *used, struct iter_in *acc, uint32_t n, bool join)
{
	for (uint32_t f = 0; f < n; f++) {
		if (join && used[f].seen && acc[f].seen)
			iter_in_join(&used[f], &acc[f]);
		else if (!join || acc[f].seen)
			used[f] = acc[f];
	}
	memset(acc, 0, n * sizeof(*acc));
}

/* Whether the running pass saw no more of the callers' iterators than the last one did. */
static bool callers_settled(const struct scev_ctx *cx)
{
	if (cx->iter_hit_acc && !cx->iter_hit)
		return false;
	for (uint32_t f = 0; cx->citer && f < cx->st.cfg->nfuncs; f++) {
		const struct iter_in *u = &cx->citer[f], *a = &cx->citer_acc[f];

		if (!a->seen)
			continue;
		if (!u->seen ? a->may != 0 || a->dmay != 0
			     : (a->may & ~u->may) || (u->must & ~a->must) ||
				       (a->dmay & ~u->dmay) || (u->dmust & ~a->dmust) ||
				       (a->drmay & ~u->drmay) || (u->drmust & ~a->drmust) ||
				       ((a->may || a->dmay) && u->caller != a->caller &&
					u->caller != UINT16_MAX) ||
				       (u->dframe != a->dframe && u->dframe != UINT16_MAX) ||
				       (a->omay & ~u->omay) ||
				       (a->omay && u->oframe != a->oframe &&
					u->oframe != UINT16_MAX))
			return false;
	}
	return true;
}

void absint_iter_pass_start(struct scev_ctx *cx)
{
	if (cx->iter_join) {
		/* a re-run (scev.c): what every pass so far saw, so the ranges only grow */
		for (uint32_t k = 0; k < cx->niter_acc; k++) {
			const struct iter_slot *a = &cx->iter_acc[k];
			struct iter_slot *u = slot_find(cx->iter_used, cx->niter_used, a->func,
							a->off);

			if (u) {
				u->lo = a->lo < u->lo ? a->lo : u->lo;
				u->hi = a->hi > u->hi ? a->hi : u->hi;
			} else if (cx->niter_used < SCEV_ITER_SLOTS) {
				cx->iter_used[cx->niter_used++] = *a;
			} else {
				cx->iter_unplaced = true;
			}
		}
		cx->iter_unplaced = cx->iter_unplaced || cx->iter_unplaced_acc;
		cx->niter_acc = 0;
		cx->iter_unplaced_acc = false;
		callers_pass_start(cx, true);
		for (uint32_t pc = 0; cx->iter_slot && pc < cx->len; pc++)
			cx->iter_slot[pc] = INT16_MAX;
		return;
	}
	memcpy(cx->iter_used, cx->iter_acc, cx->niter_acc * sizeof(*cx->iter_acc));
	cx->niter_used = cx->niter_acc;
	cx->iter_unplaced = cx->iter_unplaced_acc;
	cx->niter_acc = 0;
	cx->iter_unplaced_acc = false;
	callers_pass_start(cx, false);
	for (uint32_t pc = 0; cx->iter_slot && pc < cx->len; pc++)
		cx->iter_slot[pc] = INT16_MAX;
}

bool absint_iter_same(const struct scev_ctx *cx)
{
	if (cx->niter_acc != cx->niter_used || cx->iter_unplaced_acc != cx->iter_unplaced ||
	    cx->iter_hit_acc != cx->iter_hit || !absint_dynptr_exit_same(cx))
		return false;
	for (uint32_t k = 0; k < cx->niter_acc; k++) {
		const struct iter_slot *a = &cx->iter_acc[k], *u = &cx->iter_used[k];

		if (a->func != u->func || a->off != u->off || a->lo != u->lo || a->hi != u->hi)
			return false;
	}
	for (uint32_t f = 0; cx->citer && f < cx->st.cfg->nfuncs; f++) {
		const struct iter_in *u = &cx->citer[f], *a = &cx->citer_acc[f];

		if (u->may != a->may || u->must != a->must || u->caller != a->caller ||
		    u->dframe != a->dframe || u->omay != a->omay || u->oframe != a->oframe ||
		    u->seen != a->seen || u->dmay != a->dmay || u->dmust != a->dmust ||
		    u->drmay != a->drmay || u->drmust != a->drmust)
			return false;
	}
	return true;
}

bool absint_iter_settled(const struct scev_ctx *cx)
{
	if ((cx->iter_unplaced_acc && !cx->iter_unplaced) || !callers_settled(cx) ||
	    !absint_dynptr_exit_settled(cx))
		return false;
	for (uint32_t k = 0; k < cx->niter_acc; k++) {
		const struct iter_slot *a = &cx->iter_acc[k];
		const struct iter_slot *u = slot_find((struct iter_slot *)cx->iter_used,
						      cx->niter_used, a->func, a->off);

		if (!u || a->lo < u->lo || a->hi > u->hi)
			return false;
	}
	return true;
}
