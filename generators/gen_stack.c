/* Stores into main's frame that the kernel tracks byte by byte and a summary may join (issue
 * 28): pieces of an XDP program's prologue, each with its unsafe twin, placed where main's
 * variable homes (fp-208 .. fp-72) hold nothing yet, before main's variables take r6-r9.  The
 * twins share GEN_PROG_STACK_SHAPE_UNSAFE.
 *
 * p_frame_fields and its twin p_frame_fields_over (a call piece; the corpus's
 * callee_two_fields_* and bpf_loop_two_fields_*, test_cls_redirect_subprogs's shape): the packet
 * pointer data spilled at x, then f(fp + x - 8) or bpf_loop(n, cb, fp + x - 8, 0), n in [1, 3],
 * whose body writes two fields of that struct, one in [x - 8, x) and one in [x + 8, x + 16)
 * (1, 2, 4 or 8 bytes each, aligned, a constant or a register); main reads data back from x
 * and loads a packet byte through it.  The kernel keeps the spill (each store its own bytes);
 * what callees write of a caller's frame is a byte mask (scev.c outer_write_grow), not one
 * span over both fields.  The twin moves one field onto the spill's bytes (or writes a third
 * over them): the fill is a number, the kernel refuses the load ("invalid mem access
 * 'scalar'"), and a run loads through what the store left (a number: INTERP_TRAP_MEM).
 *
 * p_fill_join and its twin p_fill_join_narrow (snd27's fill_join_ptr_* and
 * fill_loop_ptr_some_iter_*): a pointer (data or r10) spilled at x on some paths only, the
 * others leaving x unwritten, or writing two 4-byte, four 2-byte or eight 1-byte numbers over
 * it, or a loop of 2-4 iterations spilling it on some (a random number's low bit), then x read
 * back whole (the kernel walks the paths apart: a pointer's fill of 8 bytes); the twin reads it
 * back in 1, 2 or 4 bytes (aligned), which the kernel refuses on the pointer's path ("invalid
 * size of register fill"); no run traps.  A run may read x unwritten (GEN_PROG_STACK_UNWRITTEN),
 * which the kernel, asked by root, allows.
 *
 * p_stack_walk and its twin p_stack_walk_over (kw27's stack_walk_*; scev.c try_stack_shrink):
 * data spilled below and above n cells (n in [2, 6]; 1, 2, 4 or 8 bytes, stepped by their size
 * or twice it, up or down), a loop of n iterations storing into one cell each through r7, which
 * it steps; data read back from both spills, a packet byte loaded through each.  The kernel walks
 * the n iterations (r7 exact in each) and keeps both spills; the twin spills one of them over a
 * cell the loop writes: the fill is a number to the kernel ("invalid mem access 'scalar'"), and
 * a run loads through the bytes the store changed (INTERP_TRAP_MEM, or a packet byte when only a
 * low byte changed).
 */
#include "generators/gen_internal.h"

/* ---- p_frame_fields ---- */

/* The packet pointer data spilled at x (a home of main's in [-200, -80]). */
static void spill_data(struct gi *g, int16_t x)
{
	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DATA);
	gi_stx(g, BPF_DW, EBPF_REG_FP, x, BPF_REG_1);
}

/* r2 = *(u64 *)(fp + x); r0 = a packet byte through it. */
static void read_through(struct gi *g, int16_t x)
{
	gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, x);
	gi_ldx(g, BPF_B, BPF_REG_0, BPF_REG_2, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
}

static const uint8_t sizes[] = { BPF_B, BPF_H, BPF_W, BPF_DW };

/* A field of fsize (0-3: 1, 2, 4, 8 bytes) at an offset aligned to it in [at, at + 8). */
static int16_t field_at(struct gi *g, int16_t at, uint8_t fsize)
{
	return (int16_t)(at + (1 << fsize) * (int)gen_pick(g->src, 8u >> fsize));
}

void gi_frame_fields_call(struct gi *g, bool over)
{
	bool cb = gen_bool(g->src, 50);
	int s = gi_sub_new(g, SUBK_CALLBACK, cb ? 2 : 1);
	int16_t x = (int16_t)(-80 - 8 * (int32_t)gen_pick(g->src, 16));
	struct gi_sub *f;

	if (s < 0)
		return;
	f = &g->subs[s];
	f->called = true;
	f->ff_on = true;
	f->ff_form = over ? (uint8_t)(1 + gen_pick(g->src, 3)) : 0;
	f->ff_cb = cb;
	f->ff_size[0] = (uint8_t)gen_pick(g->src, 4);
	f->ff_size[1] = (uint8_t)gen_pick(g->src, 4);
	/* (offsets from p = fp + x - 8: the first field in [0, 8), the second in [16, 24); the
	 * twin's 1 moves the first onto the spill [8, 16), 2 the second, 3 writes a third there) */
	f->ff_at[0] = field_at(g, 0, f->ff_size[0]);
	f->ff_at[1] = field_at(g, 16, f->ff_size[1]);
	f->ff_size[2] = (uint8_t)gen_pick(g->src, 4);
	f->ff_at[2] = field_at(g, 8, f->ff_size[2]);
	if (f->ff_form == 1 || f->ff_form == 2) {
		f->ff_size[f->ff_form - 1] = f->ff_size[2];
		f->ff_at[f->ff_form - 1] = f->ff_at[2];
	}
	f->ff_k = (int32_t)gen_pick(g->src, 100);
	f->ff_reg = gen_bool(g->src, 50);
	f->cb_nr = cb ? gen_u32(g->src, 1, 3) : 1;
	f->cb_steps = 16;
	spill_data(g, x);
	if (cb) {
		gi_mov_const(g, BPF_REG_1, f->cb_nr, true);
		gi_ld_func(g, BPF_REG_2, f->label);
		gi_alux(g, true, BPF_MOV, BPF_REG_3, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_3, x - 8);
		gi_mov_const(g, BPF_REG_4, 0, true);
		gi_call_helper(g, BPF_FUNC_loop);
		g->p->shapes |= GEN_SH(BPF_LOOP) | GEN_SH(HELPER);
	} else {
		gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_1, x - 8);
		gi_call_sub(g, f->label);
		g->sub_called = true;
		g->p->shapes |= GEN_SH(SUBPROG);
	}
	read_through(g, x);
	g->p->shapes |= GEN_SH(CALL_PTR);
	if (over)
		g->p->flags |= GEN_PROG_STACK_SHAPE_UNSAFE;
}

/* f's (or the callback's) body: the two fields (three in the twin's form 3), then return 0. */
void gi_emit_frame_fields(struct gi *g, struct gi_sub *s)
{
	/* (the struct: r1 of a callee, r2 of a bpf_loop callback) */
	int p = s->ff_cb ? BPF_REG_2 : BPF_REG_1;
	uint32_t start = g->len;

	gi_bind(g, s->label);
	gi_mov_const(g, BPF_REG_3, (uint64_t)s->ff_k, true);
	for (int i = 0; i < (s->ff_form == 3 ? 3 : 2); i++) {
		if (s->ff_reg)
			gi_stx(g, sizes[s->ff_size[i]], p, s->ff_at[i], BPF_REG_3);
		else
			gi_st(g, sizes[s->ff_size[i]], p, s->ff_at[i], s->ff_k + i);
	}
	gi_mov_const(g, BPF_REG_0, 0, true);
	gi_exit(g);
	s->cb_steps = g->len - start;
}

/* ---- p_fill_join ---- */

/* r1 = the pointer the piece spills: data, or r10. */
static void spilled_ptr(struct gi *g, bool fp)
{
	if (fp)
		gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
	else
		gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DATA);
}

void gi_fill_join(struct gi *g, bool narrow)
{
	unsigned form = gen_pick(g->src, 3), cut = gen_pick(g->src, 3);
	bool fp = gen_bool(g->src, 50);
	int16_t x = (int16_t)(-72 - 8 * (int32_t)gen_pick(g->src, 18));
	int32_t lim = (int32_t)gen_pick(g->src, 8);
	uint8_t rsize = (uint8_t)gen_pick(g->src, 3);
	int16_t rat = field_at(g, x, rsize);
	uint32_t n = gen_u32(g->src, 2, 4), first = g->len;
	int l_first = gi_label(g), l_other = gi_label(g), l_join = gi_label(g),
	    l_head = gi_label(g);

	if (g->niters == GI_MAX_ITERS)
		return;
	gi_bind(g, l_first);
	if (form == 2) {	/* a loop spilling on the iterations whose random number is odd */
		gi_mov_const(g, BPF_REG_6, 0, true);
		gi_bind(g, l_head);
		gi_call_helper(g, BPF_FUNC_get_prandom_u32);
		gi_jmp(g, false, BPF_JSET, BPF_REG_0, 1, l_other);
		spilled_ptr(g, fp);
		gi_stx(g, BPF_DW, EBPF_REG_FP, x, BPF_REG_1);
		gi_bind(g, l_other);
		gi_alu(g, true, BPF_ADD, BPF_REG_6, 1);
		gi_jmp(g, false, BPF_JLT, BPF_REG_6, (int32_t)n, l_head);
		g->iter_label[g->niters] = l_first;
		g->iter_steps[g->niters++] = (uint64_t)(g->len - first) * (n + 1);
	} else {
		gi_call_helper(g, BPF_FUNC_get_prandom_u32);
		gi_jmp(g, false, BPF_JGT, BPF_REG_0, lim, l_other);
		spilled_ptr(g, fp);
		gi_stx(g, BPF_DW, EBPF_REG_FP, x, BPF_REG_1);
		gi_ja(g, l_join);
		gi_bind(g, l_other);
		/* (form 1: numbers of 4, 2 or 1 bytes over the 8) */
		for (int16_t o = 0; form == 1 && o < 8; o = (int16_t)(o + (4 >> cut)))
			gi_st(g, sizes[2 - cut], EBPF_REG_FP, (int16_t)(x + o),
			      (int32_t)gen_pick(g->src, 256));
		gi_bind(g, l_join);
	}
	/* (where a path leaves x unwritten, the read is through r2 = r10: the kernel, asked by
	 * root, reads such bytes, GEN_PROG_STACK_UNWRITTEN; test_gen's static check asks every
	 * read of r10 itself to be of bytes written on every path) */
	if (form != 1) {
		gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
		g->p->flags |= GEN_PROG_STACK_UNWRITTEN;
	}
	if (narrow)
		gi_ldx(g, sizes[rsize], BPF_REG_3, form != 1 ? BPF_REG_2 : EBPF_REG_FP, rat);
	else
		gi_ldx(g, BPF_DW, BPF_REG_3, form != 1 ? BPF_REG_2 : EBPF_REG_FP, x);
	g->p->shapes |= GEN_SH(HELPER);
	if (narrow)
		g->p->flags |= GEN_PROG_STACK_SHAPE_UNSAFE;
}

/* ---- p_stack_walk ---- */

void gi_stack_walk(struct gi *g, bool over)
{
	uint8_t size = (uint8_t)gen_pick(g->src, 4);
	int32_t w = 1 << size, step = w * (gen_bool(g->src, 50) ? 2 : 1);
	uint32_t n = gen_u32(g->src, 2, 6), k = gen_pick(g->src, n);
	bool down = gen_bool(g->src, 50), reg = gen_bool(g->src, 50),
	     hi_over = gen_bool(g->src, 50);
	/* (below the cells L, the cells from c0, above them H: all in fp-208 .. fp-72) */
	int16_t lo = (int16_t)(-208 + 8 * (int32_t)gen_pick(g->src, 3));
	int16_t c0 = (int16_t)(lo + 8 + 8 * (int32_t)gen_pick(g->src, 2));
	int32_t end = c0 + (int32_t)n * step;
	int16_t hi = (int16_t)(((end + 7) & ~7) + 8 * (int32_t)gen_pick(g->src, 2));
	/* (the slot of a cell the loop writes: the twin's spill) */
	int16_t cell = (int16_t)((c0 + (int32_t)k * step) & ~7);
	uint32_t first = g->len;
	int l_first = gi_label(g), l_head = gi_label(g);

	if (g->niters == GI_MAX_ITERS)
		return;
	if (over && hi_over)
		hi = cell;
	else if (over)
		lo = cell;
	gi_bind(g, l_first);
	spill_data(g, lo);
	spill_data(g, hi);
	gi_alux(g, true, BPF_MOV, BPF_REG_7, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_7, down ? end - step : c0);
	gi_mov_const(g, BPF_REG_6, 0, true);
	gi_bind(g, l_head);
	if (reg)
		gi_stx(g, sizes[size], BPF_REG_7, 0, BPF_REG_6);
	else
		gi_st(g, sizes[size], BPF_REG_7, 0, (int32_t)gen_pick(g->src, 256));
	gi_alu(g, true, BPF_ADD, BPF_REG_7, down ? -step : step);
	gi_alu(g, true, BPF_ADD, BPF_REG_6, 1);
	gi_jmp(g, false, BPF_JLT, BPF_REG_6, (int32_t)n, l_head);
	read_through(g, lo);
	read_through(g, hi);
	g->iter_label[g->niters] = l_first;
	g->iter_steps[g->niters++] = (uint64_t)(g->len - first) * (n + 1);
	if (over)
		g->p->flags |= GEN_PROG_STACK_SHAPE_UNSAFE;
}

/* ---- p_loop_fields ---- */

/* A loop writes two fields of each element of a stack array through one pointer stepped by the
 * element's size (p_loop_fields; the corpus's loop_two_fields_*): n in [2, 4] elements of 8, 16
 * or 24 bytes in main's homes (fp-208 .. fp-72), up or down; field a (1-8 bytes) at the
 * element's start, field b after it at an offset aligned to its size, some byte of the element
 * in neither.  After the loop one field of an element the loop wrote is read through a copy of
 * r10.  Each store's bytes are its own runs (scev/absint_header.c exit_fills): the fields are
 * written on every path, the unprivileged rule reads them.  The twin (p_loop_fields_unset)
 * reads a byte of an element that neither field covers: never written (GEN_PROG_STACK_UNWRITTEN:
 * the kernel, asked by root, reads it; unprivileged it refuses "invalid read from stack").
 * r0-r3 clobbered. */
void gi_loop_fields(struct gi *g, bool unset)
{
	static const int32_t esizes[] = { 8, 16, 24 };
	int32_t e = esizes[gen_pick(g->src, 3)];
	uint8_t sa = (uint8_t)gen_pick(g->src, 4), sb = (uint8_t)gen_pick(g->src, 4);
	uint32_t n = gen_u32(g->src, 2, 4), k = gen_pick(g->src, n);
	bool down = gen_bool(g->src, 50), read_b = gen_bool(g->src, 50);
	int16_t base = (int16_t)(-208 + 8 * (int32_t)gen_pick(g->src, 6));
	int32_t wa, wb, ob, gap, first_el;
	uint32_t first = g->len;
	int l_first = gi_label(g), l_head = gi_label(g);

	if (g->niters == GI_MAX_ITERS)
		return;
	/* (b after a, aligned to its size, inside the element with a byte of neither left: the
	 * wider field narrowed until they fit; 1 and 1 bytes always do) */
	for (;;) {
		wa = 1 << sa, wb = 1 << sb, ob = (wa + wb - 1) & ~(wb - 1);
		if (ob + wb <= e && wa + wb < e)
			break;
		if (sa >= sb)
			sa--;
		else
			sb--;
	}
	/* (the first byte of neither field: between them, or after b) */
	gap = ob > wa ? wa : ob + wb;
	first_el = down ? base + (int32_t)(n - 1) * e : base;
	gi_bind(g, l_first);
	gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_2, first_el);
	gi_mov_const(g, BPF_REG_1, 0, true);
	gi_bind(g, l_head);
	gi_stx(g, sizes[sa], BPF_REG_2, 0, BPF_REG_1);
	gi_st(g, sizes[sb], BPF_REG_2, (int16_t)ob, (int32_t)gen_pick(g->src, 256));
	gi_alu(g, true, BPF_ADD, BPF_REG_2, down ? -e : e);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, 1);
	gi_jmp(g, false, BPF_JLT, BPF_REG_1, (int32_t)n, l_head);
	gi_alux(g, true, BPF_MOV, BPF_REG_3, EBPF_REG_FP);
	if (unset)
		gi_ldx(g, BPF_B, BPF_REG_0, BPF_REG_3, (int16_t)(base + (int32_t)k * e + gap));
	else if (read_b)
		gi_ldx(g, sizes[sb], BPF_REG_0, BPF_REG_3, (int16_t)(base + (int32_t)k * e + ob));
	else
		gi_ldx(g, sizes[sa], BPF_REG_0, BPF_REG_3, (int16_t)(base + (int32_t)k * e));
	g->iter_label[g->niters] = l_first;
	g->iter_steps[g->niters++] = (uint64_t)(g->len - first) * (n + 1);
	if (unset)
		g->p->flags |= GEN_PROG_STACK_UNWRITTEN;
}
