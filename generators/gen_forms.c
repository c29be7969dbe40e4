/* BPF's other loops (issue 15): bpf_loop callbacks and may_goto.
 *
 *  - p_bpf_loop: a statement of main (top level or in a loop body) calls bpf_loop(nr, cb, ctx,
 *    0) with a callback of its own.  nr is a constant, a masked input byte or huge (2^23, which
 *    runs, or 2^23 + 1, which the helper refuses with -E2BIG); ctx is NULL or a pointer to main's
 *    cell (GEN_FP_CELL) holding the accumulator, which the callback adds its index to.  The
 *    callback may stop early (returns 1 at one index) and may hold a plain counted loop.  It keeps
 *    to r0-r5 and its own frame, which it does not touch.  The twin (p_bpf_loop_unsafe)'s
 *    callback returns 2 (the kernel demands [0, 1]; the helper stops), reads and writes its
 *    cell at ctx + 232 (main's frame top: ctx is fp-232), or through a NULL ctx (the
 *    interpreter traps when the callback runs).
 *  - p_for_each (p_for_each_unsafe): a statement of main calls bpf_for_each_map_elem(map, cb,
 *    ctx, 0) on the program's array map (GEN_MAP_ENTRIES entries of GEN_MAP_VALUE_SIZE
 *    bytes); the callback adds key + value[0] into the value and, with ctx main's cell, into
 *    the accumulator, and may stop the walk at one key.  The twin's callback writes past the
 *    value or to the key (the interpreter traps) or returns 2.
 *  - p_urb (p_urb_unsafe): a statement of main calls bpf_user_ringbuf_drain(map, cb, ctx, 0) on
 *    the program's user ring buffer (GEN_MAP_URB); the callback takes each sample's first 8
 *    bytes by bpf_dynptr_read or through bpf_dynptr_data, adds them to the accumulator's cell
 *    with a ctx, may write them back (bpf_dynptr_write at offset 8, or plus 1 in place) and
 *    may stop at a short sample.  The twin's callback loads through its dynptr (the
 *    interpreter traps), reads bpf_dynptr_data's result untested or past its 8 bytes (traps
 *    on a short sample) or returns 2.
 *  - p_timer (p_timer_unsafe): a statement of main arms a timer of the timer map (GEN_MAP_TIMER,
 *    its struct bpf_timer at GEN_TIMER_OFF): bpf_timer_init with a clock, set_callback, start
 *    (maybe with flags the helper refuses), maybe cancel (the refused flags and the cancel
 *    each when an input bit is set), the last result added to the accumulator.  The callback,
 *    which the timer calls later on its own (never in a run), adds its key to its value's first
 *    8 bytes, may hold a counted loop and may start its timer again.  The twin's callback
 *    returns 1 (the kernel refuses it; no run shows it), or its bpf_timer_init is given a
 *    pointer off the timer or the array map (the interpreter traps).
 *    p_timer_two: the statement arms the timer of map 4 too (GEN_MAP_TIMER2: 48-byte values,
 *    map 3's are 32) with the same callback, which the kernel verifies once per map; its twin
 *    p_timer_two_past's callback also writes its value's bytes [40, 48) (a firing of map 3's
 *    timer traps).
 *  - p_find_vma (p_find_vma_unsafe): the program is a raw tracepoint, and a statement of main
 *    calls bpf_find_vma(bpf_get_current_task_btf(), an argument, cb, ctx, 0); the callback,
 *    which runs at most once per call (when the address lies in a vma of the task), adds 1 and
 *    an inner loop's count to main's cell with a ctx, and may return 1.  The twin's callback
 *    writes the vma, returns 2, or reaches its cell past main's frame or through a NULL ctx.
 *  - p_may_goto: a loop-body statement is may_goto to the loop's exit (cond_break): the loop's
 *    own test still bounds it, the budget only may cut it short.
 *  - p_may_goto_loop: main ends with a loop whose only exit is may_goto (half of them in an
 *    inner loop of two iterations that every outer iteration runs), counting its
 *    iterations, then either returns count >> 20 (the kernel accepts it, and BPF_PROG_TEST_RUN
 *    judges the exit claims: the timed may_goto of x86-64 runs it far past 2^23) or, as the
 *    unsafe twin, indexes two stack cells with (count >> 23) << 3, which is inside them only
 *    while the count is at most 2^23 (verify must reject it).  With p_may_goto_sat the safe
 *    form returns count >= 64 instead: the same under any budget of 64 iterations or more,
 *    the 2^23 of the interpreter's count-based rule and this kernel's timed one alike, so the
 *    kernel comparison compares its runs (kdiff.c's may_goto_free).  With p_may_goto_off the
 *    count starts at a 64-bit number of the input (the kernel's walk of the loop then ends: the
 *    count's range stays every number) and, after the loop, indexes the two cells by count << 3
 *    once tested to be at most 1; the twin leaves the test out, an unbounded offset the kernel
 *    refuses ("math between fp pointer and register with unbounded min value").  A count the
 *    may_goto budget ends is a number of unknown range, never a pointer.
 */
#include "generators/gen_internal.h"

#define CB_FRAME_PAD (-256)	/* the twin's two cells: [-256, -240), below GEN_FP_VALUE */

static uint32_t mask_below(uint32_t n)
{
	uint32_t m = 1;

	while (m < n)
		m = m << 1 | 1;
	return m >> 1;
}

/* nr's largest value as a u32 the helper accepts (0 when it refuses every value). */
static uint64_t nr_calls(uint64_t nr)
{
	nr &= 0xffffffffu;
	return nr > GEN_MAX_BPF_LOOPS ? 0 : nr;
}

/* The rest of a callback helper's call once the registers below r hold its first arguments: r
 * the ctx (a pointer to a stack cell holding the accumulator, or 0), r + 1 the flags 0, the
 * call, and the accumulator taking r0 and, with a ctx, the cell the callback may have changed. */
static void cb_call_rest_at(struct gi *g, const struct gi_sub *cb, int helper, int r)
{
	int acc = g->fn->acc;

	if (cb->cb_ctx) {
		/* (a home in r1-r5 was spilled, and r1, r2 hold the arguments already) */
		if (g->vars[acc].reg >= 1 && g->vars[acc].reg <= 5)
			gi_ldx(g, BPF_DW, r, EBPF_REG_FP, g->vars[acc].slot);
		else
			gi_var_to_reg(g, acc, r);
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_CELL, r);
		gi_alux(g, true, BPF_MOV, r, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, r, GEN_FP_CELL);
	} else {
		gi_mov_const(g, r, 0, true);
	}
	gi_mov_const(g, r + 1, 0, true);
	gi_call_helper(g, helper);
	gi_fill_caller_homes(g);
	g->scratch_busy = 1u << BPF_REG_0;
	gi_var_alux(g, acc, BPF_ADD, BPF_REG_0);
	if (cb->cb_ctx) {
		gi_scratch_release(g);
		r = gi_scratch(g);
		gi_ldx(g, BPF_DW, r, EBPF_REG_FP, GEN_FP_CELL);
		gi_var_alux(g, acc, BPF_XOR, r);
	}
	gi_scratch_release(g);
}

/* bpf_loop's, for_each's and user_ringbuf_drain's: the ctx in r3, the flags in r4 */
static void gi_cb_call_rest(struct gi *g, const struct gi_sub *cb, int helper)
{
	cb_call_rest_at(g, cb, helper, BPF_REG_3);
}

void gi_stmt_bpf_loop(struct gi *g, struct gi_loop *lp)
{
	int s;
	struct gi_sub *cb;
	uint64_t nr;
	unsigned kind = gen_pick(g->src, 8);
	bool twin = g->k->p_bpf_loop_unsafe && (!g->k->p_bpf_loop || gen_bool(g->src, 50));

	if (g->fn->sub || (s = gi_sub_new(g, SUBK_CALLBACK, 2)) < 0) {
		gi_stmt_acc(g, lp);
		return;
	}
	cb = &g->subs[s];
	cb->called = true;
	cb->cb_loop_bad = twin ? (uint8_t)(1 + gen_pick(g->src, 3)) : 0;
	cb->cb_ctx = cb->cb_loop_bad == 2 || (cb->cb_loop_bad != 3 && gen_bool(g->src, 60));
	cb->cb_inner = gen_bool(g->src, 40) ? gen_u32(g->src, 1, 6) : 0;
	gi_spill_caller_homes(g);
	if (kind == 0) {	/* huge: 2^23 runs, 2^23 + 1 is refused */
		nr = GEN_MAX_BPF_LOOPS + gen_pick(g->src, 2);
		gi_mov_const(g, BPF_REG_1, nr, true);
		cb->cb_nr = nr_calls(nr);
		g->p->shapes |= GEN_SH(BPF_LOOP_HUGE);
	} else if (kind <= 3) {	/* a masked input byte */
		uint32_t m = mask_below(g->k->max_trip + 1);

		gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DATA);
		gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_1, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
		gi_alu(g, true, BPF_AND, BPF_REG_1, (int32_t)(m ? m : 1));
		cb->cb_nr = m ? m : 1;
	} else {	/* a constant, sometimes with high bits the u32 drops */
		nr = gen_u32(g->src, 0, g->k->max_trip);
		if (gen_bool(g->src, 15))
			nr |= 1ull << 32;
		gi_mov_const(g, BPF_REG_1, nr, true);
		cb->cb_nr = nr_calls(nr);
	}
	cb->cb_stop = gen_bool(g->src, 30) ? (int32_t)gen_u32(g->src, 0, 8) : -1;
	gi_ld_func(g, BPF_REG_2, cb->label);
	gi_cb_call_rest(g, cb, BPF_FUNC_loop);
	g->p->shapes |= GEN_SH(BPF_LOOP) | (lp ? GEN_SH(BPF_LOOP_IN_LOOP) : 0) |
			(cb->cb_stop >= 0 ? GEN_SH(BPF_LOOP_STOP) : 0) |
			(cb->cb_inner ? GEN_SH(LOOP_IN_BPF_LOOP) : 0);
	if (twin)
		g->p->flags |= GEN_PROG_LOOP_CB_UNSAFE;
	if (lp)
		lp->shapes |= GEN_SH(HELPER);
}

/* p_cb_loop (p_cb_loop_past): the callback's plain loop reads n of its memory's max units (one
 * past for the twin, drawn only where the kernel's walk goes: else a twin it accepts). */
static void cb_loop_plan(struct gi *g, struct gi_sub *cb, uint32_t max)
{
	bool past = gi_kernel_reaches(g) && gen_bool(g->src, g->k->p_cb_loop_past);

	if (past || gen_bool(g->src, g->k->p_cb_loop))
		cb->cb_loop_n = (uint8_t)(past ? max + 1 : gen_u32(g->src, 1, max));
	if (cb->cb_loop_n)
		g->p->flags |= past ? GEN_PROG_NEST_UNSAFE : GEN_PROG_NEST;
}

void gi_stmt_for_each(struct gi *g, struct gi_loop *lp)
{
	int s;
	struct gi_sub *cb;
	bool twin = g->k->p_for_each_unsafe &&
		    (!g->k->p_for_each || gen_bool(g->src, 50));

	if (g->fn->sub || !g->use_map || (s = gi_sub_new(g, SUBK_CALLBACK, 4)) < 0) {
		gi_stmt_acc(g, lp);
		return;
	}
	cb = &g->subs[s];
	cb->called = true;
	cb->cb_each = twin ? (uint8_t)(2 + gen_pick(g->src, 3)) : 1;
	cb->cb_ctx = gen_bool(g->src, 60);
	/* (no early stop over a hash map: which elements it visits would depend on their order,
	 * the kernel's buckets' and the interpreter's slots', gen_hash.c) */
	cb->cb_stop = !g->hash_piece && gen_bool(g->src, 30)
			      ? (int32_t)gen_u32(g->src, 0, GEN_MAP_ENTRIES) : -1;
	cb->cb_nr = g->map0_entries ? g->map0_entries : GEN_MAP_ENTRIES;
	cb_loop_plan(g, cb, GEN_MAP_VALUE_SIZE / 8);
	gi_spill_caller_homes(g);
	gi_ld_map(g, BPF_REG_1, 0);
	gi_ld_func(g, BPF_REG_2, cb->label);
	gi_cb_call_rest(g, cb, BPF_FUNC_for_each_map_elem);
	if (twin)
		g->p->flags |= GEN_PROG_EACH_UNSAFE;
	if (lp)
		lp->shapes |= GEN_SH(HELPER);
}

void gi_stmt_urb(struct gi *g, struct gi_loop *lp)
{
	int s;
	struct gi_sub *cb;
	bool twin = g->k->p_urb_unsafe && (!g->k->p_urb || gen_bool(g->src, 50));

	if (g->fn->sub || (s = gi_sub_new(g, SUBK_CALLBACK, 2)) < 0) {
		gi_stmt_acc(g, lp);
		return;
	}
	cb = &g->subs[s];
	cb->called = true;
	cb->cb_urb = twin ? (uint8_t)(2 + gen_pick(g->src, 4)) : 1;
	cb->cb_urb_data = cb->cb_urb == 3 || cb->cb_urb == 4 || gen_bool(g->src, 50);
	cb->cb_urb_write = (uint8_t)gen_pick(g->src, cb->cb_urb_data ? 3 : 2);
	cb->cb_ctx = gen_bool(g->src, 60);
	cb->cb_stop = gen_bool(g->src, 50) ? 1 : -1;
	cb->cb_nr = GEN_URB_RUN_SAMPLES;
	cb_loop_plan(g, cb, 8);
	/* (the loop reads through bpf_dynptr_data's pointer) */
	cb->cb_urb_data |= cb->cb_loop_n != 0;
	gi_spill_caller_homes(g);
	gi_ld_map(g, BPF_REG_1, GEN_MAP_URB);
	gi_ld_func(g, BPF_REG_2, cb->label);
	gi_cb_call_rest(g, cb, BPF_FUNC_user_ringbuf_drain);
	g->use_urb = true;
	if (twin)
		g->p->flags |= GEN_PROG_URB_UNSAFE;
	if (lp)
		lp->shapes |= GEN_SH(HELPER);
}

/* The timer pointer, r1 = the value spilled at GEN_FP_TIMER + off. */
static void timer_ptr(struct gi *g, int32_t off)
{
	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_TIMER);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, off);
}

/* The value of map's element of the key at GEN_FP_KEY, spilled at GEN_FP_TIMER (NULL: to
 * l_skip; untested when l_skip < 0). */
static void timer_value(struct gi *g, uint32_t map, int l_skip)
{
	gi_ld_map(g, BPF_REG_1, map);
	gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_2, GEN_FP_KEY);
	gi_call_helper(g, BPF_FUNC_map_lookup_elem);
	if (l_skip >= 0)
		gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, l_skip);
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_TIMER, BPF_REG_0);
}

/* bpf_timer_init(value + off, map, clock), then bpf_timer_set_callback(&v->t, label). */
static void timer_init_cb(struct gi *g, int32_t off, uint32_t map, int32_t clock, int label)
{
	timer_ptr(g, off);
	gi_ld_map(g, BPF_REG_2, map);
	gi_mov_const(g, BPF_REG_3, (uint64_t)clock, true);
	gi_call_helper(g, BPF_FUNC_timer_init);
	timer_ptr(g, GEN_TIMER_OFF);
	gi_ld_func(g, BPF_REG_2, label);
	gi_call_helper(g, BPF_FUNC_timer_set_callback);
}

void gi_input_bit(struct gi *g, int reg)
{
	gi_ldx(g, BPF_DW, reg, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, reg, reg, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
	gi_alu(g, true, BPF_AND, reg, 1);
}

/* bpf_timer_start(&v->t, nsecs, flags); with refused, flags is 8 (which the helper refuses) or
 * 0 by an input bit. */
static void timer_start(struct gi *g, uint64_t nsecs, uint64_t flags, bool refused)
{
	if (refused) {
		gi_input_bit(g, BPF_REG_3);
		gi_alu(g, true, BPF_LSH, BPF_REG_3, 3);
	}
	timer_ptr(g, GEN_TIMER_OFF);
	gi_mov_const(g, BPF_REG_2, nsecs, true);
	if (!refused)
		gi_mov_const(g, BPF_REG_3, flags, true);
	gi_call_helper(g, BPF_FUNC_timer_start);
}

void gi_stmt_timer(struct gi *g, struct gi_loop *lp)
{
	static const int32_t clocks[] = { 0, 1, 7 };	/* REALTIME, MONOTONIC, BOOTTIME */
	int s, l_skip;
	struct gi_sub *cb;
	bool twin = g->k->p_timer_unsafe && (!g->k->p_timer || gen_bool(g->src, 50));
	unsigned bad = twin ? 1 + gen_pick(g->src, 3) : 0, flags;
	/* Most statements leave their timer armed, so that the runs fire its callback and judge
	 * the claims in it: a cancel about one time in seven, a flag the helper refuses one in
	 * ten, and a key of the statement's own (the k-th statement the k-th element: a later
	 * init and set_callback on the same element would take its timer over) unless the input
	 * picks it, one time in five. */
	bool cancel = gen_bool(g->src, 15);
	/* p_timer_two: the callback set for map 4's timer too (p_timer_two_past: writing bytes
	 * map 4's values have, map 3's not) */
	bool two = !twin && (g->k->p_timer_two || g->k->p_timer_two_past) && gen_bool(g->src, 80);
	bool past = two && g->k->p_timer_two_past && (!g->k->p_timer_two || gen_bool(g->src, 50));
	/* p_timer_loop_null: in a loop, the value of (the loop's variable ^ an input byte) & 3
	 * armed untested;
	 * p_timer_cross(_null): the callback arms map 4's timer (the twins only where the kernel's
	 * walk goes: it verifies a callback where its set_callback is reached) */
	bool reach = gi_kernel_reaches(g);
	bool null = lp && !twin && reach && g->k->p_timer_loop_null &&
		    (!g->k->p_timer_loop || gen_bool(g->src, 50));
	bool cross_null = !twin && reach && gen_bool(g->src, g->k->p_timer_cross_null);
	bool cross = cross_null || (!twin && gen_bool(g->src, g->k->p_timer_cross));
	int s2 = -1;
	int32_t clock, off;
	uint64_t nsecs;

	if (g->fn->sub || (s = gi_sub_new(g, SUBK_CALLBACK, 3)) < 0 ||
	    (cross && (s2 = gi_sub_new(g, SUBK_CALLBACK, 3)) < 0)) {
		gi_stmt_acc(g, lp);
		return;
	}
	if (cross) {	/* map 4's callback: p_timer's plain one */
		g->subs[s2].called = true;
		g->subs[s2].cb_timer = 1;
		g->subs[s2].cb_nr = 1;
		g->use_timer2 = true;
		g->p->flags |= cross_null ? GEN_PROG_NEST_UNSAFE : GEN_PROG_NEST;
	}
	cb = &g->subs[s];
	cb->cb_cross = cross ? 1 + cross_null : 0;
	cb->cb_callee = s2;
	cb->called = true;
	cb->cb_timer = bad == 1 ? 2 : 1;
	cb->cb_timer_rearm = gen_bool(g->src, 40);
	cb->cb_timer_past = past;
	cb->cb_inner = gen_bool(g->src, 40) ? gen_u32(g->src, 1, 6) : 0;
	cb->cb_nr = 1;	/* (the interpreter never runs it: later, on its own) */
	if (cross)	/* (after the program: up to 8 firings a run, INTERP_TIMER_FIRES) */
		cb->cb_nr = 8;
	l_skip = gi_label(g);
	gi_spill_caller_homes(g);
	/* the value of the statement's key or the input's bit, NULL-checked, spilled */
	if (null) {
		/* (with the input: a key of the loop's variable alone may be a constant in range
		 * on every pass, which the kernel's walk knows: then no lookup is NULL) */
		int t = gi_var_copy(g, lp->ctr), u = gi_scratch(g);

		gi_ldx(g, BPF_DW, u, EBPF_REG_FP, GEN_FP_DATA);
		gi_ldx(g, BPF_B, u, u, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
		gi_alux(g, true, BPF_XOR, t, u);
		gi_alu(g, true, BPF_AND, t, 3);
		gi_stx(g, BPF_W, EBPF_REG_FP, GEN_FP_KEY, t);
		gi_scratch_release(g);
		g->p->flags |= GEN_PROG_NEST_UNSAFE;
	} else if (gen_bool(g->src, 80)) {
		gi_st(g, BPF_W, EBPF_REG_FP, GEN_FP_KEY,
		      (int32_t)(g->ntimers++ % GEN_TIMER_ENTRIES));
	} else {
		gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA);
		gi_ldx(g, BPF_B, BPF_REG_2, BPF_REG_2, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
		gi_alu(g, true, BPF_AND, BPF_REG_2, GEN_TIMER_ENTRIES - 1);
		gi_stx(g, BPF_W, EBPF_REG_FP, GEN_FP_KEY, BPF_REG_2);
	}
	timer_value(g, GEN_MAP_TIMER, null ? -1 : l_skip);
	/* bpf_timer_init(&v->t, map, clock): the twin's pointer may be off the timer (the value's
	 * start or its last 8 bytes), its map the array map */
	off = bad == 2 ? (gen_bool(g->src, 50) ? 0 : GEN_TIMER_OFF + 16) : GEN_TIMER_OFF;
	clock = clocks[gen_pick(g->src, 3)];
	timer_init_cb(g, off, bad == 3 ? 0 : GEN_MAP_TIMER, clock, cb->label);
	/* start: 1 s ahead before a cancel (which then finds it pending, as the interpreter
	 * says), else also now, 1 us ahead, absolute or pinned, or with a flag the helper refuses.
	 * The refused flag and the cancel each hang on an input bit, so that some runs fire the
	 * timer and judge the claims in its callback (with either on every run, none did) */
	flags = cancel ? 2 * gen_pick(g->src, 2) : gen_bool(g->src, 10) ? 4 : gen_pick(g->src, 4);
	nsecs = cancel || gen_bool(g->src, 50) ? 1000000000 : gen_pick(g->src, 2) * 1000;
	timer_start(g, nsecs, flags, flags == 4);
	if (cancel) {
		int l_kept = gi_label(g);

		gi_input_bit(g, BPF_REG_2);
		gi_jmp(g, false, BPF_JEQ, BPF_REG_2, 0, l_kept);
		timer_ptr(g, GEN_TIMER_OFF);
		gi_call_helper(g, BPF_FUNC_timer_cancel);
		gi_bind(g, l_kept);
	}
	if (two) {
		/* map 4's element of the same key (an array: never NULL), armed 1 us or 1 s ahead */
		timer_value(g, GEN_MAP_TIMER2, l_skip);
		timer_init_cb(g, GEN_TIMER_OFF, GEN_MAP_TIMER2, clock, cb->label);
		timer_start(g, gen_bool(g->src, 50) ? 1000000000 : 1000, 0, false);
		g->use_timer2 = true;
	}
	gi_bind(g, l_skip);
	gi_fill_caller_homes(g);
	g->scratch_busy = 1u << BPF_REG_0;
	gi_var_alux(g, g->fn->acc, BPF_ADD, BPF_REG_0);
	gi_scratch_release(g);
	g->use_timer = true;
	if (twin)
		g->p->flags |= GEN_PROG_TIMER_UNSAFE;
	if (past)
		g->p->flags |= GEN_PROG_TIMER_TWO_UNSAFE;
	if (lp) {
		lp->shapes |= GEN_SH(HELPER);
		g->p->flags |= null ? 0 : GEN_PROG_NEST;
	}
}

/* bpf_find_vma(bpf_get_current_task_btf(), addr, cb, ctx, 0), addr an argument of the raw
 * tracepoint (a u64 of the input): the callback runs once when addr lies in a vma of the task
 * (the helper then returns 0), else not (-ENOENT, or -EBUSY when the mmap lock is taken). */
void gi_stmt_find_vma(struct gi *g, struct gi_loop *lp)
{
	int s;
	struct gi_sub *cb;
	bool twin = g->k->p_find_vma_unsafe && (!g->k->p_find_vma || gen_bool(g->src, 50));
	/* p_vma_loop_bad: in a loop, a twin's callback (only where the kernel's walk goes) */
	bool loop_bad = lp && !twin && g->k->p_vma_loop_bad && gi_kernel_reaches(g) &&
			(!g->k->p_vma_loop || gen_bool(g->src, 50));

	twin |= loop_bad;
	if (g->fn->sub || !g->raw_tp || (s = gi_sub_new(g, SUBK_CALLBACK, 3)) < 0) {
		gi_stmt_acc(g, lp);
		return;
	}
	cb = &g->subs[s];
	cb->called = true;
	cb->cb_vma = twin ? (uint8_t)(2 + gen_pick(g->src, 4)) : 1;
	cb->cb_ctx = cb->cb_vma == 4 || (cb->cb_vma != 5 && gen_bool(g->src, 70));
	cb->cb_inner = gen_bool(g->src, 40) ? gen_u32(g->src, 1, 6) : 0;
	cb->cb_stop = gen_bool(g->src, 30) ? 1 : -1;	/* (returns 1: no other call either way) */
	cb->cb_nr = 1;
	gi_spill_caller_homes(g);
	gi_call_helper(g, BPF_FUNC_get_current_task_btf);
	gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_0);
	gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_DW, BPF_REG_2, BPF_REG_2, (int16_t)(8 * gen_pick(g->src, GEN_INPUT_LEN / 8)));
	gi_ld_func(g, BPF_REG_3, cb->label);
	cb_call_rest_at(g, cb, BPF_FUNC_find_vma, BPF_REG_4);
	if (twin)
		g->p->flags |= GEN_PROG_VMA_UNSAFE;
	if (lp) {
		lp->shapes |= GEN_SH(HELPER);
		g->p->flags |= loop_bad ? GEN_PROG_NEST_UNSAFE : GEN_PROG_NEST;
	}
}

/* A bpf_find_vma callback: cb(task, vma, ctx), the ctx's cell plus 1 and an inner loop's count
 * written back; returns 0, or 1 with cb_stop (the helper ignores it).  The twins: a store to the
 * vma (a kernel object: read-only), 2 returned (the kernel demands [0, 1]), the cell read and
 * written at ctx + 232 (main's frame top: ctx is fp-232), or through the NULL ctx. */
static void emit_vma_callback(struct gi *g, struct gi_sub *s)
{
	int l_in = gi_label(g);
	int16_t at = s->cb_vma == 4 ? (int16_t)-GEN_FP_CELL : 0;
	bool cell = s->cb_ctx || s->cb_vma == 5;
	uint32_t start = g->len;

	gi_bind(g, s->label);
	if (s->cb_vma == 2)
		gi_st(g, BPF_DW, BPF_REG_2, 0, 0);
	if (cell) {
		gi_ldx(g, BPF_DW, BPF_REG_4, BPF_REG_3, at);
		gi_alu(g, true, BPF_ADD, BPF_REG_4, 1);
	}
	if (s->cb_inner) {
		gi_mov_const(g, BPF_REG_5, 0, true);
		gi_bind(g, l_in);
		gi_alu(g, true, BPF_ADD, BPF_REG_5, 1);
		if (cell)
			gi_alux(g, true, BPF_ADD, BPF_REG_4, BPF_REG_5);
		gi_jmp(g, false, BPF_JLT, BPF_REG_5, (int32_t)s->cb_inner, l_in);
	}
	if (cell)
		gi_stx(g, BPF_DW, BPF_REG_3, at, BPF_REG_4);
	gi_mov_const(g, BPF_REG_0, s->cb_vma == 3 ? 2 : s->cb_stop >= 0, true);
	gi_exit(g);
	s->cb_steps = (g->len - start) + 3ull * s->cb_inner;
}

void gi_stmt_global(struct gi *g, struct gi_loop *lp)
{
	int s, acc = g->fn->acc, r;
	struct gi_sub *gf;
	bool twin = g->k->p_global_unsafe && (!g->k->p_global || gen_bool(g->src, 50));
	bool null;

	if (g->fn->sub || (s = gi_sub_new(g, SUBK_CALLBACK, 2)) < 0) {
		gi_stmt_acc(g, lp);
		return;
	}
	gf = &g->subs[s];
	gf->called = true;
	gf->global = twin ? (uint8_t)(2 + gen_pick(g->src, 2)) : 1;
	null = gf->global == 2 || (gf->global == 1 && gen_bool(g->src, 20));
	gi_spill_caller_homes(g);
	r = BPF_REG_2;	/* the value: the accumulator */
	if (g->vars[acc].reg >= 1 && g->vars[acc].reg <= 5)
		gi_ldx(g, BPF_DW, r, EBPF_REG_FP, g->vars[acc].slot);
	else
		gi_var_to_reg(g, acc, r);
	if (null) {
		gi_mov_const(g, BPF_REG_1, 0, true);
	} else {
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_CELL, r);
		gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_1, GEN_FP_CELL);
	}
	gi_call_sub(g, gf->label);
	gi_fill_caller_homes(g);
	g->scratch_busy = 1u << BPF_REG_0;
	gi_var_alux(g, acc, BPF_XOR, BPF_REG_0);
	if (!null) {
		gi_scratch_release(g);
		r = gi_scratch(g);
		gi_ldx(g, BPF_DW, r, EBPF_REG_FP, GEN_FP_CELL);
		gi_var_alux(g, acc, BPF_ADD, r);
	}
	gi_scratch_release(g);
	if (twin)
		g->p->flags |= GEN_PROG_GLOBAL_UNSAFE;
}

/* A global function g(ptr:8, int:8): r0 = *r1 + r2, written back, when r1 is not NULL. */
static void emit_global(struct gi *g, struct gi_sub *s)
{
	int l_out = gi_label(g);

	gi_bind(g, s->label);
	gi_mov_const(g, BPF_REG_0, 0, true);
	if (s->global != 2)
		gi_jmp(g, false, BPF_JEQ, BPF_REG_1, 0, l_out);
	gi_ldx(g, BPF_DW, BPF_REG_0, BPF_REG_1, s->global == 3 ? -EBPF_STACK_SIZE : 0);
	gi_alux(g, true, BPF_ADD, BPF_REG_0, BPF_REG_2);
	gi_stx(g, BPF_DW, BPF_REG_1, 0, BPF_REG_0);
	gi_bind(g, l_out);
	gi_exit(g);
}

/* p_cb_loop's plain loop in a callback: sum += each of the first n units (size) at p, by a
 * pointer q stepped over them, a counter c and t (p and sum kept) */
static void cb_loop(struct gi *g, int p, uint8_t size, uint32_t n, int sum, int q, int c, int t)
{
	int l_in = gi_label(g);

	gi_alux(g, true, BPF_MOV, q, p);
	gi_mov_const(g, c, 0, true);
	gi_bind(g, l_in);
	gi_ldx(g, size, t, q, 0);
	gi_alux(g, true, BPF_ADD, sum, t);
	gi_alu(g, true, BPF_ADD, q, (int32_t)ebpf_size_bytes(size));
	gi_alu(g, true, BPF_ADD, c, 1);
	gi_jmp(g, false, BPF_JLT, c, (int32_t)n, l_in);
}

/* A bpf_for_each_map_elem callback: cb(map, key, value, ctx). */
static void emit_each_callback(struct gi *g, struct gi_sub *s)
{
	int l_stop = gi_label(g);
	uint32_t start = g->len;

	gi_bind(g, s->label);
	gi_ldx(g, BPF_W, BPF_REG_0, BPF_REG_2, 0);
	gi_ldx(g, BPF_DW, BPF_REG_5, BPF_REG_3, 0);
	gi_alux(g, true, BPF_ADD, BPF_REG_5, BPF_REG_0);
	if (s->cb_loop_n)	/* the value's first n words added (p_cb_loop) */
		cb_loop(g, BPF_REG_3, BPF_DW, s->cb_loop_n, BPF_REG_5, BPF_REG_6, BPF_REG_7,
			BPF_REG_8);
	gi_stx(g, BPF_DW, BPF_REG_3, s->cb_each == 2 ? GEN_MAP_VALUE_SIZE - 4 : 0, BPF_REG_5);
	if (s->cb_each == 3)
		gi_stx(g, BPF_W, BPF_REG_2, 0, BPF_REG_5);
	if (s->cb_ctx) {
		gi_ldx(g, BPF_DW, BPF_REG_1, BPF_REG_4, 0);
		gi_alux(g, true, BPF_ADD, BPF_REG_1, BPF_REG_5);
		gi_stx(g, BPF_DW, BPF_REG_4, 0, BPF_REG_1);
	}
	if (s->cb_stop >= 0)
		gi_jmp(g, false, BPF_JEQ, BPF_REG_0, s->cb_stop, l_stop);
	gi_mov_const(g, BPF_REG_0, s->cb_each == 4 ? 2 : 0, true);
	gi_exit(g);
	if (s->cb_stop >= 0) {
		gi_bind(g, l_stop);
		gi_mov_const(g, BPF_REG_0, 1, true);
		gi_exit(g);
	}
	s->cb_steps = g->len - start + 5ull * s->cb_loop_n;
}

/* A bpf_user_ringbuf_drain callback: cb(dynptr, ctx), r6 the dynptr, r7 the ctx: the sample's
 * first 8 bytes in r3 (bpf_dynptr_read into fp-8, or a load through bpf_dynptr_data's result),
 * a short sample (-E2BIG, NULL) returning cb_stop >= 0 ? 1 : 0; r3 added to the ctx's cell,
 * maybe written back at offset 8 (bpf_dynptr_write) or plus 1 in place. */
static void emit_urb_callback(struct gi *g, struct gi_sub *s)
{
	int l_short = gi_label(g);
	uint32_t start = g->len;
	bool tested = s->cb_urb != 3;

	gi_bind(g, s->label);
	gi_alux(g, true, BPF_MOV, BPF_REG_6, BPF_REG_1);
	gi_alux(g, true, BPF_MOV, BPF_REG_7, BPF_REG_2);
	if (s->cb_urb == 2)
		gi_ldx(g, BPF_DW, BPF_REG_0, BPF_REG_6, 0);
	if (s->cb_urb_data) {
		gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_6);
		gi_mov_const(g, BPF_REG_2, 0, true);
		gi_mov_const(g, BPF_REG_3, 8, true);
		gi_call_helper(g, BPF_FUNC_dynptr_data);
		if (tested)
			gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, l_short);
		gi_ldx(g, BPF_DW, BPF_REG_3, BPF_REG_0, s->cb_urb == 4 ? 8 : 0);
		if (s->cb_urb_write == 2) {
			gi_alu(g, true, BPF_ADD, BPF_REG_3, 1);
			gi_stx(g, BPF_DW, BPF_REG_0, 0, BPF_REG_3);
		}
		if (s->cb_loop_n)	/* the sample's first n bytes added (p_cb_loop) */
			cb_loop(g, BPF_REG_0, BPF_B, s->cb_loop_n, BPF_REG_3, BPF_REG_8,
				BPF_REG_9, BPF_REG_2);
	} else {
		gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_1, -8);
		gi_mov_const(g, BPF_REG_2, 8, true);
		gi_alux(g, true, BPF_MOV, BPF_REG_3, BPF_REG_6);
		gi_mov_const(g, BPF_REG_4, 0, true);
		gi_mov_const(g, BPF_REG_5, 0, true);
		gi_call_helper(g, BPF_FUNC_dynptr_read);
		gi_jmp(g, false, BPF_JNE, BPF_REG_0, 0, l_short);
		gi_ldx(g, BPF_DW, BPF_REG_3, EBPF_REG_FP, -8);
	}
	if (s->cb_ctx) {
		gi_ldx(g, BPF_DW, BPF_REG_1, BPF_REG_7, 0);
		gi_alux(g, true, BPF_ADD, BPF_REG_1, BPF_REG_3);
		gi_stx(g, BPF_DW, BPF_REG_7, 0, BPF_REG_1);
	}
	if (s->cb_urb_write == 1) {
		gi_stx(g, BPF_DW, EBPF_REG_FP, -8, BPF_REG_3);
		gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_6);
		gi_mov_const(g, BPF_REG_2, 8, true);
		gi_alux(g, true, BPF_MOV, BPF_REG_3, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_3, -8);
		gi_mov_const(g, BPF_REG_4, 8, true);
		gi_mov_const(g, BPF_REG_5, 0, true);
		gi_call_helper(g, BPF_FUNC_dynptr_write);
	}
	gi_mov_const(g, BPF_REG_0, s->cb_urb == 5 ? 2 : 0, true);
	gi_exit(g);
	if (!s->cb_urb_data || tested) {	/* (the kernel refuses unreachable code) */
		gi_bind(g, l_short);
		gi_mov_const(g, BPF_REG_0, s->cb_stop >= 0, true);
		gi_exit(g);
	}
	s->cb_steps = g->len - start + 5ull * s->cb_loop_n;
}

/* p_timer_cross: a timer callback whose key is in r7 arms map 4's timer of that key (of key + 1,
 * its value untested: p_timer_cross_null, NULL for the last key) with subs[cb_callee], 1 s
 * ahead (its key at fp-4, its value in r8). */
static void timer_cross(struct gi *g, const struct gi_sub *s)
{
	int l_out = gi_label(g);

	if (s->cb_cross == 2)
		gi_alu(g, true, BPF_ADD, BPF_REG_7, 1);
	gi_stx(g, BPF_W, EBPF_REG_FP, -4, BPF_REG_7);
	gi_ld_map(g, BPF_REG_1, GEN_MAP_TIMER2);
	gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_2, -4);
	gi_call_helper(g, BPF_FUNC_map_lookup_elem);
	if (s->cb_cross == 1)
		gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, l_out);
	gi_alux(g, true, BPF_MOV, BPF_REG_8, BPF_REG_0);
	gi_alu(g, true, BPF_ADD, BPF_REG_8, GEN_TIMER_OFF);
	gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_8);
	gi_ld_map(g, BPF_REG_2, GEN_MAP_TIMER2);
	gi_mov_const(g, BPF_REG_3, 1, true);	/* CLOCK_MONOTONIC */
	gi_call_helper(g, BPF_FUNC_timer_init);
	gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_8);
	gi_ld_func(g, BPF_REG_2, g->subs[s->cb_callee].label);
	gi_call_helper(g, BPF_FUNC_timer_set_callback);
	gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_8);
	gi_mov_const(g, BPF_REG_2, 1000000000, true);
	gi_mov_const(g, BPF_REG_3, 0, true);
	gi_call_helper(g, BPF_FUNC_timer_start);
	gi_bind(g, l_out);
}

/* A timer's callback: cb(map, key, value), r6 the value: its first 8 bytes plus the key (and an
 * inner loop's count) written back, maybe its timer started again (1 s ahead); returns 0, the
 * twin's 1. */
static void emit_timer_callback(struct gi *g, struct gi_sub *s)
{
	int l_in = gi_label(g);
	uint32_t start = g->len;

	gi_bind(g, s->label);
	gi_alux(g, true, BPF_MOV, BPF_REG_6, BPF_REG_3);
	gi_ldx(g, BPF_W, BPF_REG_0, BPF_REG_2, 0);
	if (s->cb_cross)
		gi_alux(g, true, BPF_MOV, BPF_REG_7, BPF_REG_0);
	gi_ldx(g, BPF_DW, BPF_REG_5, BPF_REG_6, 0);
	gi_alux(g, true, BPF_ADD, BPF_REG_5, BPF_REG_0);
	if (s->cb_inner) {
		gi_mov_const(g, BPF_REG_4, 0, true);
		gi_bind(g, l_in);
		gi_alu(g, true, BPF_ADD, BPF_REG_4, 1);
		gi_alux(g, true, BPF_ADD, BPF_REG_5, BPF_REG_4);
		gi_jmp(g, false, BPF_JLT, BPF_REG_4, (int32_t)s->cb_inner, l_in);
	}
	gi_stx(g, BPF_DW, BPF_REG_6, 0, BPF_REG_5);
	if (s->cb_timer_past)
		gi_stx(g, BPF_DW, BPF_REG_6, GEN_TIMER2_VALUE - 8, BPF_REG_5);
	if (s->cb_timer_rearm) {
		gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_6);
		gi_alu(g, true, BPF_ADD, BPF_REG_1, GEN_TIMER_OFF);
		gi_mov_const(g, BPF_REG_2, 1000000000, true);
		gi_mov_const(g, BPF_REG_3, 0, true);
		gi_call_helper(g, BPF_FUNC_timer_start);
	}
	if (s->cb_cross)
		timer_cross(g, s);
	gi_mov_const(g, BPF_REG_0, s->cb_timer == 2, true);
	gi_exit(g);
	/* (with p_timer_cross, a firing of map 4's callback too: 8 instructions) */
	s->cb_steps = (g->len - start) + 3ull * s->cb_inner + (s->cb_cross ? 8 : 0);
}

/* The callback: cb(i, ctx) with r1 = i, r2 = ctx.  Its instructions per call are at most its
 * length plus the inner loop's extra iterations (cb_steps). */
void gi_emit_callback(struct gi *g, struct gi_sub *s)
{
	int l_stop, l_in;
	uint32_t start = g->len;

	if (s->cb_each) {
		emit_each_callback(g, s);
		return;
	}
	if (s->cb_urb) {
		emit_urb_callback(g, s);
		return;
	}
	if (s->cb_timer) {
		emit_timer_callback(g, s);
		return;
	}
	if (s->cb_vma) {
		emit_vma_callback(g, s);
		return;
	}
	if (s->fastcall) {
		gi_emit_fastcall(g, s);
		return;
	}
	if (s->global && !s->dp_sub) {	/* (p_dynptr_global's: gen_dynptr.c) */
		emit_global(g, s);
		return;
	}
	if (s->bound) {
		gi_emit_bound_sub(g, s);
		return;
	}
	if (s->cb_count) {
		gi_emit_cb_count(g, s);
		return;
	}
	if (s->ctx_fill) {
		gi_emit_ctx_fill(g, s);
		return;
	}
	if (s->args_last) {
		gi_emit_args_last(g, s);
		return;
	}
	if (s->frames_reg) {
		gi_emit_frames_reg_sub(g, s);
		return;
	}
	if (s->iter_deep) {
		gi_emit_iter_deep_sub(g, s);
		return;
	}
	if (s->dp_sub) {
		gi_emit_dynptr_sub(g, s);
		return;
	}
	if (s->cb_two_ctx) {
		gi_emit_cb_two_ctx(g, s);
		return;
	}
	if (s->ff_on) {
		gi_emit_frame_fields(g, s);
		return;
	}
	if (s->frame_rule) {
		gi_emit_frame_rule(g, s);
		return;
	}
	if (s->ret_ptr) {
		gi_emit_sub_ret(g, s);
		return;
	}
	if (s->throw_sub) {
		gi_emit_throw_sub(g, s);
		return;
	}
	if (s->sub_ref) {
		gi_emit_sub_ref(g, s);
		return;
	}
	if (s->ld_form) {
		gi_emit_ld_sub(g, s);
		return;
	}
	if (s->pkt_end) {	/* r0 = r1 <= r2 (data_end) ? 1 : 0 */
		int out = gi_label(g);

		gi_bind(g, s->label);
		gi_mov_const(g, BPF_REG_0, 0, true);
		gi_jmpx(g, false, BPF_JGT, BPF_REG_1, BPF_REG_2, out);
		gi_mov_const(g, BPF_REG_0, 1, true);
		gi_bind(g, out);
		gi_exit(g);
		return;
	}
	if (s->pkt || s->frames == 1) {
		gi_bind(g, s->label);
		if (s->pkt_spill)	/* (p = *r1: the packet pointer its caller spilled) */
			gi_ldx(g, BPF_DW, BPF_REG_1, BPF_REG_1, 0);
		gi_ldx(g, s->pkt ? BPF_B : BPF_DW, BPF_REG_0, BPF_REG_1,
		       s->pkt ? s->pkt_at : s->frames_at);
		gi_exit(g);
		return;
	}
	if (s->frames == 2) {
		gi_bind(g, s->label);
		gi_st(g, BPF_DW, EBPF_REG_FP, -16, 7);
		gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_1, -16);
		gi_call_sub(g, g->subs[s->frames_callee].label);
		gi_exit(g);
		return;
	}
	if (s->kw_may_goto) {
		int m = gi_label(g), out = gi_label(g);

		gi_bind(g, s->label);
		gi_mov_const(g, BPF_REG_0, 0, true);
		gi_bind(g, m);
		gi_may_goto(g, out);
		gi_alu(g, true, BPF_ADD, BPF_REG_0, 1);
		gi_jmp(g, false, BPF_JLT, BPF_REG_0, 2, m);
		gi_bind(g, out);
		gi_mov_const(g, BPF_REG_0, 0, true);
		gi_exit(g);
		return;
	}
	if (s->frames == 3) {	/* (the relay: r1 passed on as it came) */
		gi_bind(g, s->label);
		gi_call_sub(g, g->subs[s->frames_callee].label);
		gi_exit(g);
		return;
	}
	l_stop = gi_label(g);
	l_in = gi_label(g);
	gi_bind(g, s->label);
	if (s->cb_stop >= 0)
		gi_jmp(g, false, BPF_JEQ, BPF_REG_1, s->cb_stop, l_stop);
	if (s->cb_ctx || s->cb_loop_bad == 3) {
		/* (the twin's: at main's frame top, or through the NULL ctx) */
		int16_t at = s->cb_loop_bad == 2 ? (int16_t)-GEN_FP_CELL : 0;

		gi_ldx(g, BPF_DW, BPF_REG_3, BPF_REG_2, at);
		gi_alux(g, true, BPF_ADD, BPF_REG_3, BPF_REG_1);
		gi_stx(g, BPF_DW, BPF_REG_2, at, BPF_REG_3);
	}
	if (s->cb_inner) {
		gi_mov_const(g, BPF_REG_4, 0, true);
		gi_bind(g, l_in);
		gi_alu(g, true, BPF_ADD, BPF_REG_4, 1);
		gi_jmp(g, false, BPF_JLT, BPF_REG_4, (int32_t)s->cb_inner, l_in);
	}
	gi_mov_const(g, BPF_REG_0, s->cb_loop_bad == 1 ? 2 : 0, true);
	gi_exit(g);
	if (s->cb_stop >= 0) {	/* (the kernel refuses unreachable code) */
		gi_bind(g, l_stop);
		gi_mov_const(g, BPF_REG_0, 1, true);
		gi_exit(g);
	}
	s->cb_steps = (g->len - start) + 2ull * s->cb_inner;
}

void gi_stmt_may_goto(struct gi *g, struct gi_loop *lp)
{
	gi_may_goto(g, lp->l_exit);
	lp->early_exit = true;
	lp->skip = true;
	lp->shapes |= GEN_SH(MAY_GOTO);
}

/* acc ^= the cell r indexes of p_may_goto_loop's two (fp + CB_FRAME_PAD + (r << 3)): inside
 * them while r is 0 or 1 */
static void index_cells(struct gi *g, int r, int acc)
{
	int p = gi_scratch(g);

	gi_alu(g, true, BPF_LSH, r, 3);
	gi_alux(g, true, BPF_MOV, p, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, p, CB_FRAME_PAD);
	gi_alux(g, true, BPF_ADD, p, r);
	gi_ldx(g, BPF_DW, r, p, 0);
	gi_var_alux(g, acc, BPF_XOR, r);
}

void gi_may_goto_loop(struct gi *g)
{
	int acc = g->fn->acc, cnt = gi_var_new(g, 64, false), l_head = gi_label(g),
	    l_out = gi_label(g), l_in = gi_label(g), r;
	bool twin = gen_bool(g->src, 50), nest = gen_bool(g->src, 50);
	bool off = gen_bool(g->src, g->k->p_may_goto_off);
	int j = nest && cnt >= 0 ? gi_var_new(g, 64, false) : -1;

	if (cnt < 0 || (nest && j < 0) || !gi_room(g, 40)) {
		if (cnt >= 0)
			gi_var_free(g, cnt);
		if (j >= 0)
			gi_var_free(g, j);
		return;
	}
	if (twin || off) {
		gi_st(g, BPF_DW, EBPF_REG_FP, CB_FRAME_PAD, 0);
		gi_st(g, BPF_DW, EBPF_REG_FP, CB_FRAME_PAD + 8, 0);
	}
	if (off) {
		r = gi_scratch(g);
		gi_ldx(g, BPF_DW, r, EBPF_REG_FP, GEN_FP_DATA);
		gi_ldx(g, BPF_DW, r, r, (int16_t)(8 * gen_pick(g->src, GEN_INPUT_LEN / 8)));
		gi_var_write(g, cnt, r);
	} else {
		gi_var_set(g, cnt, 0);
	}
	gi_scratch_release(g);
	gi_bind(g, l_head);
	/* (nest: the may_goto in an inner loop of two iterations, the outer loop's only exit,
	 * which every outer iteration passes: cond_break2's shape) */
	if (nest) {
		gi_var_set(g, j, 0);
		gi_scratch_release(g);
		gi_bind(g, l_in);
	}
	gi_may_goto(g, l_out);
	gi_var_add_const(g, cnt, 1);
	gi_scratch_release(g);
	if (nest) {
		gi_var_add_const(g, j, 1);
		gi_scratch_release(g);
		gi_jmp(g, false, BPF_JLT, gi_var_read(g, j), 2, l_in);
		gi_scratch_release(g);
		gi_var_free(g, j);
	}
	gi_ja(g, l_head);
	gi_bind(g, l_out);
	r = gi_var_copy(g, cnt);
	if (off) {
		int l_skip = gi_label(g);

		if (!twin)
			gi_jmp(g, false, BPF_JGT, r, 1, l_skip);
		index_cells(g, r, acc);
		gi_bind(g, l_skip);
		if (twin)
			g->p->flags |= GEN_PROG_TWIN_UNSAFE;
	} else if (twin) {
		gi_alu(g, true, BPF_RSH, r, 23);
		index_cells(g, r, acc);
		g->p->flags |= GEN_PROG_TWIN_UNSAFE;
	} else if (gen_bool(g->src, g->k->p_may_goto_sat)) {
		/* count >= 64, in ALU only (a test of the count would make the verifier keep every
		 * count apart: a loop it never finishes) */
		gi_alu(g, true, BPF_RSH, r, 6);
		gi_alu(g, true, BPF_NEG, r, 0);
		gi_alu(g, true, BPF_RSH, r, 63);
		gi_var_write(g, acc, r);
	} else {
		gi_alu(g, true, BPF_RSH, r, 20);
		gi_var_write(g, acc, r);
	}
	gi_scratch_release(g);
	gi_var_free(g, cnt);
	/* count-based: 2^23 iterations of three instructions (nested: at most six per may_goto
	 * with spilled counters); a timed kernel runs more */
	g->may_goto_steps = (nest ? 12ull : 3ull) * GEN_MAX_BPF_LOOPS + 16;
	g->p->shapes |= GEN_SH(MAY_GOTO_LOOP);
}
