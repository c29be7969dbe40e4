/* Open-coded iterators (issue 15): p_iter_num and its unsafe twin p_iter_num_unsafe.
 *
 * A statement of main (top level or in a loop body) creates the iterator at GEN_FP_ITER with
 * bpf_iter_num_new(&it, start, end), adds every value bpf_iter_num_next gives to a cell
 * (GEN_FP_ITER_SUM) until next returns NULL, destroys the iterator and folds the cell into the
 * accumulator.  The range is empty (start = end), reversed (start > end: new fails with -EINVAL,
 * no value), small and constant, from an input byte, or huge: 2^23 values (BPF_MAX_LOOPS, which
 * runs) or 2^23 + 1 (-E2BIG, none).  The loop body may hold a plain counted loop.  The twin
 * leaks the iterator (no destroy), destroys it twice, or calls next after the destroy: the
 * kernel refuses each, the interpreter traps when the statement runs.  With p_iter_helper the
 * body calls bpf_probe_read_kernel into a stack cell (a helper given a frame pointer while the
 * iterator is live); its twin p_iter_helper_over writes the iterator's own bytes, which the
 * kernel refuses and the interpreter traps on.  The kfuncs are named
 * through the running kernel's BTF; without it the statement is a plain accumulator update.
 *
 * p_iter_bits and its twin p_iter_bits_unsafe make the same statement over the bits iterator
 * (bpf_iter_bits_new(&it, words, nr_words) at GEN_FP_BITS, its 16 bytes): the sum is of the set
 * bits' indexes, of one or two words at GEN_FP_BITS_WORDS that are zero, all ones or an input
 * byte spread over them; or of none: no words (-EINVAL), NULL words (-EINVAL) or 512 and more
 * (-E2BIG, before any is read).  The twin breaks the lifecycle as p_iter_num_unsafe's does.
 *
 * p_iter_task and its twin p_iter_task_unsafe: the iterators over kernel objects (task, task_vma;
 * gi_stmt_task).
 */
#include "generators/gen_internal.h"

#include "bpf/isa.h"

static void call_kfunc(struct gi *g, int32_t id)
{
	gi_emit(g, (struct bpf_insn){ .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_KFUNC_CALL,
				      .imm = id });
}

static void iter_arg(struct gi *g, int16_t off)
{
	gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, off);
}

/* r2 and r3 of bpf_iter_bits_new, and its two words written, as kind (0 to 9) and w (0 to 20)
 * pick (see above): the most values next gives. */
static uint64_t bits_args(struct gi *g, unsigned kind, unsigned w)
{
	uint32_t nw = 1 + (w & 1);

	gi_st(g, BPF_DW, EBPF_REG_FP, GEN_FP_BITS_WORDS, 0);
	gi_st(g, BPF_DW, EBPF_REG_FP, GEN_FP_BITS_WORDS + 8, 0);
	if (kind >= 5 && kind <= 6) {	/* all ones */
		gi_mov_const(g, BPF_REG_2, UINT64_MAX, true);
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_BITS_WORDS, BPF_REG_2);
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_BITS_WORDS + 8, BPF_REG_2);
	} else if (kind >= 7) {	/* an input byte b: b | b << 37, and that << 19 */
		gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA);
		gi_ldx(g, BPF_B, BPF_REG_2, BPF_REG_2, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
		gi_alux(g, true, BPF_MOV, BPF_REG_3, BPF_REG_2);
		gi_alu(g, true, BPF_LSH, BPF_REG_3, 37);
		gi_alux(g, true, BPF_OR, BPF_REG_2, BPF_REG_3);
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_BITS_WORDS, BPF_REG_2);
		gi_alu(g, true, BPF_LSH, BPF_REG_2, 19);
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_BITS_WORDS + 8, BPF_REG_2);
	}
	gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_2, GEN_FP_BITS_WORDS);
	if (kind == 2)	/* NULL words */
		gi_mov_const(g, BPF_REG_2, 0, true);
	/* 512 + w words (-E2BIG), none (-EINVAL), else 1 or 2 */
	nw = kind == 0 ? EBPF_ITER_BITS_MAX_WORDS + 1 + w : kind == 1 ? 0 : nw;
	gi_mov_const(g, BPF_REG_3, nw, true);
	return kind <= 4 ? 0 : 64ull * nw;
}

/* r2 and r3 of bpf_iter_num_new as kind (0 to 9) picks, start the range's: the values next
 * gives. */
static uint64_t num_args(struct gi *g, unsigned kind, int64_t start)
{
	int64_t end;

	if (kind == 0) {	/* huge: 2^23 values run, 2^23 + 1 are refused */
		end = start + GEN_MAX_BPF_LOOPS + gen_pick(g->src, 2);
		gi_mov_const(g, BPF_REG_2, (uint64_t)start, true);
		gi_mov_const(g, BPF_REG_3, (uint64_t)end, true);
		return end - start > GEN_MAX_BPF_LOOPS ? 0 : GEN_MAX_BPF_LOOPS;
	}
	if (kind <= 3) {	/* [start, input byte & 15) */
		gi_mov_const(g, BPF_REG_2, (uint64_t)start, true);
		gi_ldx(g, BPF_DW, BPF_REG_3, EBPF_REG_FP, GEN_FP_DATA);
		gi_ldx(g, BPF_B, BPF_REG_3, BPF_REG_3, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
		gi_alu(g, true, BPF_AND, BPF_REG_3, 15);
		return start < 15 ? (uint64_t)(15 - start) : 0;
	}
	/* constant: empty, reversed or up to max_trip values */
	end = kind == 4 ? start : kind == 5 ? start - 1 - gen_pick(g->src, 4)
			: start + gen_u32(g->src, 1, g->k->max_trip);
	gi_mov_const(g, BPF_REG_2, (uint64_t)start, true);
	gi_mov_const(g, BPF_REG_3, (uint64_t)end, true);
	return end > start ? (uint64_t)(end - start) : 0;
}

/* How an iterator statement's loop ends (iter_end): its iterator's slot and kfuncs, the labels
 * of its first instruction, its loop's head and the exit past it (first and head their
 * positions), the iterations of a plain loop in its body (0: none), the most values next gives,
 * and the twin's kind (-1: not a twin; 0 leaked, 1 destroyed twice, 2 advanced after the
 * destroy; another destroyed once, as the safe form). */
struct iter_tail {
	int16_t it;
	int32_t kf_next, kf_destroy;
	int l_first, l_head, l_done;
	uint32_t first, head;
	uint64_t inner, n;
	int twin_kind;
};

/* The rest of an iterator statement from its loop body's last instruction: the plain loop, the
 * jump back to the head, the destroy at the exit (or the twin's), the sum folded into main's
 * accumulator and the statement's steps noted. */
static void iter_end(struct gi *g, const struct iter_tail *t)
{
	int acc = g->fn->acc, l_in, r;
	uint32_t body;

	if (t->inner) {	/* a plain loop in the iterator's body */
		l_in = gi_label(g);
		gi_mov_const(g, BPF_REG_4, 0, true);
		gi_bind(g, l_in);
		gi_alu(g, true, BPF_ADD, BPF_REG_4, 1);
		gi_jmp(g, false, BPF_JLT, BPF_REG_4, (int32_t)t->inner, l_in);
	}
	gi_ja(g, t->l_head);
	body = g->len - t->head + 2 * (uint32_t)t->inner;
	gi_bind(g, t->l_done);
	if (t->twin_kind != 0) {	/* (0: leaked) */
		iter_arg(g, t->it);
		call_kfunc(g, t->kf_destroy);
		if (t->twin_kind == 1 || t->twin_kind == 2) {	/* destroyed twice, or advanced */
			iter_arg(g, t->it);
			call_kfunc(g, t->twin_kind == 1 ? t->kf_destroy : t->kf_next);
		}
	}
	gi_fill_caller_homes(g);
	r = gi_scratch(g);
	gi_ldx(g, BPF_DW, r, EBPF_REG_FP, GEN_FP_ITER_SUM);
	gi_var_alux(g, acc, BPF_XOR, r);
	gi_scratch_release(g);
	g->iter_label[g->niters] = t->l_first;
	/* (the exit's next and the code around the loop run once) */
	g->iter_steps[g->niters++] = (g->len - t->first) + t->n * body + 8;
}

/* The start of an iterator statement whose kfuncs and objects are there (ok): the label of its
 * first instruction (returned) bound at *first, main's caller homes spilled, the sum cell
 * zeroed; else (or with every iterator slot of the program taken) an accumulator update in its
 * place, and -1. */
static int iter_begin(struct gi *g, struct gi_loop *lp, bool ok, uint32_t *first)
{
	int l_first;

	if (!ok || g->niters == GI_MAX_ITERS) {
		gi_stmt_acc(g, lp);
		return -1;
	}
	l_first = gi_label(g);
	gi_bind(g, l_first);
	*first = g->len;
	gi_spill_caller_homes(g);
	gi_st(g, BPF_DW, EBPF_REG_FP, GEN_FP_ITER_SUM, 0);
	return l_first;
}

/* p_iter_num's statement, or p_iter_bits's (bits). */
static void iter_stmt(struct gi *g, struct gi_loop *lp, bool bits)
{
	unsigned fam = bits ? EBPF_ITER_BITS : EBPF_ITER_NUM;
	int32_t kf_new = ebpf_kfunc_by_name(ebpf_kfunc_iter_name(fam, EBPF_ITER_NEW)),
		kf_next = ebpf_kfunc_by_name(ebpf_kfunc_iter_name(fam, EBPF_ITER_NEXT)),
		kf_destroy = ebpf_kfunc_by_name(ebpf_kfunc_iter_name(fam, EBPF_ITER_DESTROY));
	const struct gen_knobs *k = g->k;
	uint8_t p_safe = bits ? k->p_iter_bits : k->p_iter_num,
		p_twin = bits ? k->p_iter_bits_unsafe : k->p_iter_num_unsafe;
	bool twin = p_twin && (!p_safe || gen_bool(g->src, 50));
	unsigned kind = gen_pick(g->src, 10), twin_kind = gen_pick(g->src, 3);
	int l_first, l_head = gi_label(g), l_done = gi_label(g);
	int64_t start = (int64_t)gen_u32(g->src, 0, 20) - 5;
	int16_t it = bits ? GEN_FP_BITS : GEN_FP_ITER;
	uint64_t n, inner = gen_bool(g->src, 30) ? gen_u32(g->src, 1, 4) : 0;
	/* p_iter_helper: the body gives a helper a pointer into the frame beside the live
	 * iterator; its twin p_iter_helper_over points it at the iterator itself */
	bool helper_over = !bits && k->p_iter_helper_over &&
			   gen_bool(g->src, k->p_iter_helper_over),
	     helper = !bits && (helper_over ||
				(k->p_iter_helper && gen_bool(g->src, k->p_iter_helper)));
	uint32_t first, head;

	l_first = iter_begin(g, lp, kf_new >= 0 && kf_next >= 0 && kf_destroy >= 0, &first);
	if (l_first < 0)
		return;
	if (bits)
		n = bits_args(g, kind, (unsigned)(start + 5));
	iter_arg(g, it);
	if (!bits)
		n = num_args(g, kind, start);
	call_kfunc(g, kf_new);
	gi_bind(g, l_head);
	head = g->len;
	iter_arg(g, it);
	call_kfunc(g, kf_next);
	gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, l_done);
	gi_ldx(g, BPF_W, BPF_REG_1, BPF_REG_0, 0);
	gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_ITER_SUM);
	gi_alux(g, true, BPF_ADD, BPF_REG_2, BPF_REG_1);
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_ITER_SUM, BPF_REG_2);
	if (helper) {	/* bpf_probe_read_kernel(fp + cell, 8, data), folded into the sum */
		gi_st(g, BPF_DW, EBPF_REG_FP, GEN_FP_CELL, 0);	/* (written on every path) */
		gi_probe_read_data(g, helper_over ? GEN_FP_ITER : GEN_FP_CELL);
		gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_CELL);
		gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_ITER_SUM);
		gi_alux(g, true, BPF_XOR, BPF_REG_2, BPF_REG_1);
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_ITER_SUM, BPF_REG_2);
	}
	iter_end(g, &(struct iter_tail){ it, kf_next, kf_destroy, l_first, l_head, l_done, first,
					 head, inner, n, twin ? (int)twin_kind : -1 });
	g->p->flags |= GEN_PROG_ITER | (twin || helper_over ? GEN_PROG_ITER_UNSAFE : 0);
	if (lp)
		lp->shapes |= GEN_SH(HELPER);
}

void gi_stmt_iter(struct gi *g, struct gi_loop *lp)
{
	iter_stmt(g, lp, false);
}

void gi_stmt_bits(struct gi *g, struct gi_loop *lp)
{
	iter_stmt(g, lp, true);
}

/* p_iter_task's statement (and its twin p_iter_task_unsafe's): a loop over an iterator of kernel
 * objects at GEN_FP_TASK (the task iterator's 24 bytes) or GEN_FP_TASK_VMA (task_vma's 8), the
 * deepest cells of main's frame, which xors what it reads through each object next gives into
 * GEN_FP_ITER_SUM: the task iterator over every process (task NULL, BPF_TASK_ITER_ALL_PROCS),
 * every thread (_ALL_THREADS), the current task's threads (bpf_get_current_task_btf(),
 * _PROC_THREADS) or bad flags (-EINVAL, no task); or the task_vma iterator over the current
 * task's vmas from address 0 or an input byte's.  It reads each task's pid (4 bytes) or each
 * vma's first 8 (vm_start), at their vmlinux BTF offsets.  The loop has no count: the kernel
 * walks its own objects (the interpreter 0 to GEN_ITER_OBJS, drawn).  The twin leaks the
 * iterator, destroys it twice, advances it after the destroy, or reads through next's result
 * before testing it against NULL: the kernel refuses each, the interpreter traps when the
 * statement runs (the read: at the walk's end, NULL). */
void gi_stmt_task(struct gi *g, struct gi_loop *lp)
{
	const struct gen_knobs *k = g->k;
	bool twin = k->p_iter_task_unsafe && (!k->p_iter_task || gen_bool(g->src, 50));
	unsigned kind = gen_pick(g->src, 5), twin_kind = gen_pick(g->src, 4);
	unsigned fam = kind == 4 ? EBPF_ITER_TASK_VMA : EBPF_ITER_TASK;
	int32_t kf_new = ebpf_kfunc_by_name(ebpf_kfunc_iter_name(fam, EBPF_ITER_NEW)),
		kf_next = ebpf_kfunc_by_name(ebpf_kfunc_iter_name(fam, EBPF_ITER_NEXT)),
		kf_destroy = ebpf_kfunc_by_name(ebpf_kfunc_iter_name(fam, EBPF_ITER_DESTROY)),
		obj = ebpf_btf_struct_by_name(ebpf_iter_family(fam)->obj), next_id;
	int64_t off = fam == EBPF_ITER_TASK ? ebpf_btf_member_off("task_struct", "pid") : 0;
	unsigned size = fam == EBPF_ITER_TASK ? 4 : 8;
	int16_t it = fam == EBPF_ITER_TASK ? GEN_FP_TASK : GEN_FP_TASK_VMA;
	int l_first, l_head = gi_label(g), l_done = gi_label(g);
	uint64_t inner = gen_bool(g->src, 30) ? gen_u32(g->src, 1, 4) : 0;
	bool unchecked = twin && twin_kind == 3;
	uint32_t first, head;

	l_first = iter_begin(g, lp, kf_new >= 0 && kf_next >= 0 && kf_destroy >= 0 && obj > 0 &&
					    off >= 0 && !ebpf_btf_obj_access(obj, off, size, &next_id),
			     &first);
	if (l_first < 0)
		return;
	if (kind == 2 || kind == 4) {	/* the current task (a helper: r1-r5 clobbered) */
		gi_call_helper(g, BPF_FUNC_get_current_task_btf);
		gi_alux(g, true, BPF_MOV, BPF_REG_2, BPF_REG_0);
	} else {
		gi_mov_const(g, BPF_REG_2, 0, true);
	}
	if (kind == 4 && gen_bool(g->src, 50)) {	/* from an input byte's address */
		gi_ldx(g, BPF_DW, BPF_REG_3, EBPF_REG_FP, GEN_FP_DATA);
		gi_ldx(g, BPF_B, BPF_REG_3, BPF_REG_3, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
	} else {	/* ALL_PROCS, ALL_THREADS, PROC_THREADS, bad flags; task_vma's address 0 */
		gi_mov_const(g, BPF_REG_3, kind == 3 ? 3 + gen_pick(g->src, 7) : kind == 4 ? 0 : kind,
			     true);
	}
	iter_arg(g, it);
	call_kfunc(g, kf_new);
	gi_bind(g, l_head);
	head = g->len;
	iter_arg(g, it);
	call_kfunc(g, kf_next);
	if (unchecked)	/* (the twin: read before the test) */
		gi_ldx(g, size == 4 ? BPF_W : BPF_DW, BPF_REG_1, BPF_REG_0, (int16_t)off);
	gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, l_done);
	if (!unchecked)
		gi_ldx(g, size == 4 ? BPF_W : BPF_DW, BPF_REG_1, BPF_REG_0, (int16_t)off);
	gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_ITER_SUM);
	gi_alux(g, true, BPF_XOR, BPF_REG_2, BPF_REG_1);
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_ITER_SUM, BPF_REG_2);
	/* (the interpreter's walks: at most GEN_ITER_OBJS objects) */
	iter_end(g, &(struct iter_tail){ it, kf_next, kf_destroy, l_first, l_head, l_done, first,
					 head, inner, GEN_ITER_OBJS, twin ? (int)twin_kind : -1 });
	g->p->flags |= GEN_PROG_ITER | (twin ? GEN_PROG_ITER_UNSAFE : 0) |
		       (unchecked ? GEN_PROG_NULL_UNSAFE : 0);
	if (lp)
		lp->shapes |= GEN_SH(HELPER);
}

/* A search in an iterator loop (p_iter_search; the kernel selftests' iter_search_loop), emitted
 * by the prologue, before main's variables take r6-r9: w7 = 0, r8 = 0; bpf_iter_num_new(&it,
 * 0, n) with n in [1, 8]; each value v (through r6 = next's result, as clang copies it): if *v
 * == c then w7 = 1, r8 = r6; after the loop `if (w7 & 1) r1 = *r8`, then the destroy.  c in
 * [0, n]: found or not.  The kernel walks the paths apart; bpfscev needs the null guard (r8 not
 * NULL where r7 is not 0).  The twin (p_iter_search_unset) sets w7 = 1 for every value and
 * looks for c = n, which never comes: r8 stays 0 and the read is of NULL on every run.  r0-r8
 * clobbered. */
void gi_iter_search(struct gi *g, bool unset)
{
	int32_t kf_new = ebpf_kfunc_by_name("bpf_iter_num_new"),
		kf_next = ebpf_kfunc_by_name("bpf_iter_num_next"),
		kf_destroy = ebpf_kfunc_by_name("bpf_iter_num_destroy");
	int head = gi_label(g), done = gi_label(g), skip = gi_label(g), l_first = gi_label(g);
	uint32_t n = gen_u32(g->src, 1, 8), c = unset ? n : gen_u32(g->src, 0, n), first, body;

	if (kf_new < 0 || kf_next < 0 || kf_destroy < 0 || g->niters == GI_MAX_ITERS)
		return;
	gi_bind(g, l_first);
	first = g->len;
	/* (the frame's depth is what its r10-based accesses reach: the iterator's, through r1,
	 * is not one) */
	gi_st(g, BPF_DW, EBPF_REG_FP, GEN_FP_ITER_SUM, 0);
	gi_mov_const(g, BPF_REG_7, 0, false);
	gi_mov_const(g, BPF_REG_8, 0, true);
	iter_arg(g, GEN_FP_ITER);
	gi_mov_const(g, BPF_REG_2, 0, true);
	gi_mov_const(g, BPF_REG_3, n, true);
	call_kfunc(g, kf_new);
	gi_bind(g, head);
	body = g->len;
	iter_arg(g, GEN_FP_ITER);
	call_kfunc(g, kf_next);
	gi_alux(g, true, BPF_MOV, BPF_REG_6, BPF_REG_0);
	gi_jmp(g, false, BPF_JEQ, BPF_REG_6, 0, done);
	if (unset)
		gi_mov_const(g, BPF_REG_7, 1, false);
	gi_ldx(g, BPF_W, BPF_REG_1, BPF_REG_6, 0);
	gi_jmp(g, true, BPF_JNE, BPF_REG_1, (int32_t)c, head);
	gi_mov_const(g, BPF_REG_7, 1, false);
	gi_alux(g, true, BPF_MOV, BPF_REG_8, BPF_REG_6);
	gi_ja(g, head);
	body = g->len - body;
	gi_bind(g, done);
	gi_alu(g, false, BPF_AND, BPF_REG_7, 1);
	gi_jmp(g, true, BPF_JEQ, BPF_REG_7, 0, skip);
	gi_ldx(g, BPF_W, BPF_REG_1, BPF_REG_8, 0);
	gi_bind(g, skip);
	iter_arg(g, GEN_FP_ITER);
	call_kfunc(g, kf_destroy);
	g->iter_label[g->niters] = l_first;
	g->iter_steps[g->niters++] = (g->len - first) + n * body + 8;
	g->p->flags |= GEN_PROG_ITER | (unset ? GEN_PROG_NULL_UNSAFE : 0);
}

/* An iterator loop over [0, n) at fp - 8 (a placeholder until gi_calls_finish places it),
 * summing its values into r6; pcs[0..2] get the pcs of the three `r1 += -8`.  r0-r6
 * clobbered. */
static void deep_loop(struct gi *g, int32_t kf[3], uint32_t n, uint32_t pcs[3])
{
	int head = gi_label(g), done = gi_label(g), l_first = gi_label(g);
	uint32_t first, body;

	gi_bind(g, l_first);
	first = g->len;
	gi_mov_const(g, BPF_REG_6, 0, true);
	gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
	pcs[0] = g->len;
	gi_alu(g, true, BPF_ADD, BPF_REG_1, -8);
	gi_mov_const(g, BPF_REG_2, 0, true);
	gi_mov_const(g, BPF_REG_3, n, true);
	call_kfunc(g, kf[0]);
	gi_bind(g, head);
	body = g->len;
	gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
	pcs[1] = g->len;
	gi_alu(g, true, BPF_ADD, BPF_REG_1, -8);
	call_kfunc(g, kf[1]);
	gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, done);
	gi_ldx(g, BPF_W, BPF_REG_1, BPF_REG_0, 0);
	gi_alux(g, true, BPF_ADD, BPF_REG_6, BPF_REG_1);
	gi_ja(g, head);
	body = g->len - body;
	gi_bind(g, done);
	gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
	pcs[2] = g->len;
	gi_alu(g, true, BPF_ADD, BPF_REG_1, -8);
	call_kfunc(g, kf[2]);
	if (g->niters < GI_MAX_ITERS) {
		g->iter_label[g->niters] = l_first;
		g->iter_steps[g->niters++] = (g->len - first) + n * body + 8;
	}
}

static bool deep_kfuncs(int32_t kf[3])
{
	kf[0] = ebpf_kfunc_by_name("bpf_iter_num_new");
	kf[1] = ebpf_kfunc_by_name("bpf_iter_num_next");
	kf[2] = ebpf_kfunc_by_name("bpf_iter_num_destroy");
	return kf[0] >= 0 && kf[1] >= 0 && kf[2] >= 0;
}

/* An iterator as the deepest slot of its frame (p_iter_deep; last stop's unsound verdict,
 * d97a1fd: bpf_iter_num_new(&it) at fp-504 in main and a callee touching fp-8, 528 bytes
 * combined, called safe): the prologue runs an iterator loop in main, calls f(), and f runs
 * one of its own or stores at its deepest slot.  Where the iterators are: main's only (f's
 * store), f's only, or both.  gi_calls_finish places them (iter_deep_place) so that each is its
 * frame's deepest slot and main's frame plus f's, rounded as the kernel rounds them, is a
 * combined stack at or near 512 bytes; the twin (p_iter_deep_over) aims at 528 or 544, which
 * the kernel refuses (GEN_PROG_CALLS_UNSAFE from the emitted frames).  r0-r6 clobbered. */
void gi_iter_deep_call(struct gi *g, bool over)
{
	int32_t kf[3];
	unsigned where = gen_pick(g->src, 3);	/* 0 main's, 1 f's, 2 both */
	int s;

	if (!deep_kfuncs(kf) || (s = gi_sub_new(g, SUBK_CALLBACK, 0)) < 0)
		return;
	g->iter_deep = true;
	g->iter_deep_sub = s;
	g->iter_deep_main = where != 1;
	g->iter_deep_target = !over ? (gen_bool(g->src, 50) ? GEN_MAX_STACK
				       : GEN_MAX_STACK - 16 * gen_u32(g->src, 1, 4))
			    : GEN_MAX_STACK + 16 * gen_u32(g->src, 1, 2);
	g->subs[s].called = true;
	g->subs[s].iter_deep = where == 0 ? 2 : 1;
	g->subs[s].cb_nr = gen_u32(g->src, 0, 4);
	if (g->iter_deep_main)
		deep_loop(g, kf, gen_u32(g->src, 0, 4), g->iter_deep_pc);
	gi_call_sub(g, g->subs[s].label);
	g->p->shapes |= GEN_SH(SUBPROG) | GEN_SH(BIG_FRAME);
	g->p->flags |= GEN_PROG_ITER;
}

/* f of p_iter_deep: its iterator loop (iter_deep 1) or its store (2), then return the sum. */
void gi_emit_iter_deep_sub(struct gi *g, struct gi_sub *s)
{
	int32_t kf[3];

	gi_bind(g, s->label);
	if (s->iter_deep == 1 && deep_kfuncs(kf)) {
		deep_loop(g, kf, (uint32_t)s->cb_nr, s->deep_pc);
	} else {
		gi_mov_const(g, BPF_REG_6, 0, true);
		s->deep_pc[0] = g->len;
		gi_st(g, BPF_DW, EBPF_REG_FP, -8, 0);
	}
	gi_alux(g, true, BPF_MOV, BPF_REG_0, BPF_REG_6);
	gi_exit(g);
}

/* A loop where the kernel widens (p_kwiden; sound25's kernel_kept_regs, the corpus's
 * iter_widen_* and may_goto_widen_*), a piece of the prologue, before main's variables take
 * r6-r9: an iterator loop over [0, m) at GEN_FP_ITER, or a may_goto loop, which writes one of n
 * cells per iteration through a pointer r7 stepped by 8 and counts in r6:
 *
 *         r7 = the first cell
 *         (iterator: new(&it, 0, m); if next(&it) == NULL goto d)
 *         r6 = 0
 *     l:  r8 = r6; *(u64 *)(r7 + 0) = 1
 *         iterator: if next(&it) == NULL goto d (r6 += 1 between the call and the test);
 *         may_goto: may_goto d; r6 += 1
 *         r7 += 8; if r6 < n goto l         (the twin, p_kwiden_copy: if r8 < n - 1 goto l)
 *     d:  (iterator: destroy(&it))
 *
 * The cells: n of main's homes (fp-208 .. fp-40, nothing in them yet; zeroed first), or n words
 * of map 0's value of an element data[e] & 3 (found, else the piece is skipped).  n in [3, 5], m in
 * [1, n + 1] or 100.  The kernel widens at next and at may_goto every number that differs from
 * the last iteration's and is not precise; r6's test, decided in the first iteration, marks it
 * precise, the kernel walks the iterations one by one and r7 stays in the cells.  The twin tests
 * r8, r6's copy from before the step, which every run decides as the safe form does (the same
 * cells written); r6 is widened, the test ends no walk of the kernel's, and r7 runs up the frame
 * or the value until the kernel refuses a write (past the frame's top, over the iterator, past
 * the value): GEN_PROG_KWIDEN_UNSAFE, no run traps.  (n = 2, `if r8 < 1`, the kernel decides
 * in the first iteration too and accepts.)
 *
 * Where the widening instruction is (via): 0 in the loop itself, as above; 1 two static calls
 * down (the corpus's may_goto_depth2_*): the body calls a relay m, m calls f2, whose may_goto
 * loop `r0 = 0; l: may_goto out; r0 += 1; if r0 < 2 goto l` the kernel checks with main's frame
 * in its state, so it widens main's r6 there as at its own may_goto (the twin is refused the
 * same way); 2, the safe form only, nowhere (bpf_loop_in_loop_counter_copy): the body calls
 * bpf_loop(1, cb, 0, 0), which widens nothing — the kernel checks the callback's return
 * against the same call's checkpoint of this iteration — so the safe form may test r8, the
 * copy, and the kernel still walks the iterations one by one and accepts.  r0-r8 clobbered. */
void gi_kwiden(struct gi *g, bool copy)
{
	int32_t kf[3];
	bool iter = deep_kfuncs(kf) && gen_bool(g->src, 50), in_map = gen_bool(g->src, 50);
	unsigned via = gen_pick(g->src, copy ? 2 : 3);
	int relay = -1, f2 = -1, cb = -1;
	uint32_t n = gen_u32(g->src, 3, 5), m = gen_bool(g->src, 30) ? 100 : gen_u32(g->src, 1, n + 1);
	uint8_t e = (uint8_t)gen_pick(g->src, GEN_INPUT_LEN);
	/* (the cells' starts: in fp-208 .. fp-40, or in the value) */
	int16_t base = in_map ? (int16_t)(8 * gen_pick(g->src, GEN_MAP_VALUE_SIZE / 8 - n + 1))
			      : (int16_t)(-208 + 8 * (int32_t)gen_pick(g->src, 23 - n));
	int l_first = gi_label(g), l_head = gi_label(g), l_done = gi_label(g),
	    l_skip = gi_label(g);
	uint32_t first;

	if (g->niters == GI_MAX_ITERS || g->raw_tp)
		return;
	if (via == 1 && (relay = gi_sub_new(g, SUBK_CALLBACK, 0)) >= 0 &&
	    (f2 = gi_sub_new(g, SUBK_CALLBACK, 0)) >= 0) {
		g->subs[relay].called = g->subs[f2].called = true;
		g->subs[relay].frames = 3;
		g->subs[relay].frames_callee = (int8_t)f2;
		g->subs[f2].kw_may_goto = true;
	} else if (via == 2 && (cb = gi_sub_new(g, SUBK_CALLBACK, 2)) >= 0) {
		g->subs[cb].called = true;
		g->subs[cb].cb_stop = -1;
		g->subs[cb].cb_nr = 1;
	} else {
		via = 0;	/* (no room for the subprograms: an unused plan entry stays) */
	}
	iter = iter && via == 0;
	gi_bind(g, l_first);
	first = g->len;
	if (in_map) {
		gi_lookup0(g, e);
		gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, l_skip);
		gi_alux(g, true, BPF_MOV, BPF_REG_7, BPF_REG_0);
	} else {
		for (uint32_t i = 0; i < n; i++)
			gi_st(g, BPF_DW, EBPF_REG_FP, (int16_t)(base + 8 * (int32_t)i), 0);
		gi_alux(g, true, BPF_MOV, BPF_REG_7, EBPF_REG_FP);
	}
	gi_alu(g, true, BPF_ADD, BPF_REG_7, base);
	if (iter) {
		iter_arg(g, GEN_FP_ITER);
		gi_mov_const(g, BPF_REG_2, 0, true);
		gi_mov_const(g, BPF_REG_3, m, true);
		call_kfunc(g, kf[0]);
		iter_arg(g, GEN_FP_ITER);
		call_kfunc(g, kf[1]);
		gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, l_done);
	}
	gi_mov_const(g, BPF_REG_6, 0, true);
	gi_bind(g, l_head);
	gi_alux(g, true, BPF_MOV, BPF_REG_8, BPF_REG_6);
	gi_st(g, BPF_DW, BPF_REG_7, 0, 1);
	if (iter) {
		iter_arg(g, GEN_FP_ITER);
		call_kfunc(g, kf[1]);
		gi_alu(g, true, BPF_ADD, BPF_REG_6, 1);
		gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, l_done);
	} else if (via == 1) {
		gi_call_sub(g, g->subs[relay].label);
		gi_alu(g, true, BPF_ADD, BPF_REG_6, 1);
	} else if (via == 2) {
		gi_mov_const(g, BPF_REG_1, 1, true);
		gi_ld_func(g, BPF_REG_2, g->subs[cb].label);
		gi_mov_const(g, BPF_REG_3, 0, true);
		gi_mov_const(g, BPF_REG_4, 0, true);
		gi_call_helper(g, BPF_FUNC_loop);
		gi_alu(g, true, BPF_ADD, BPF_REG_6, 1);
	} else {
		gi_may_goto(g, l_done);
		gi_alu(g, true, BPF_ADD, BPF_REG_6, 1);
	}
	gi_alu(g, true, BPF_ADD, BPF_REG_7, 8);
	if (copy || via == 2)
		gi_jmp(g, false, BPF_JLT, BPF_REG_8, (int32_t)n - 1, l_head);
	else
		gi_jmp(g, false, BPF_JLT, BPF_REG_6, (int32_t)n, l_head);
	gi_bind(g, l_done);
	if (iter) {
		iter_arg(g, GEN_FP_ITER);
		call_kfunc(g, kf[2]);
	}
	gi_bind(g, l_skip);
	/* (at most n iterations of the whole piece's instructions, and of the calls' at most 16:
	 * a bound) */
	g->iter_label[g->niters] = l_first;
	g->iter_steps[g->niters++] = (uint64_t)(g->len - first + (via ? 16 : 0)) * (n + 1);
	g->p->flags |= (iter ? GEN_PROG_ITER : 0) | (copy ? GEN_PROG_KWIDEN_UNSAFE : 0);
	g->p->shapes |= via == 1 ? GEN_SH(SUBPROG) | GEN_SH(MAY_GOTO_LOOP)
		      : via == 2 ? GEN_SH(BPF_LOOP) | GEN_SH(BPF_LOOP_IN_LOOP) : 0;
}
