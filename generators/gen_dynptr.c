/* Dynptrs on the stack (issue 15): p_dynptr and its unsafe twin p_dynptr_unsafe.
 *
 * A statement of main (top level or in a loop body) makes a dynptr at GEN_FP_DYNPTR (16 bytes):
 * bpf_dynptr_from_mem over the first `size` bytes of an array map value (the only memory the
 * kernel takes), or bpf_ringbuf_reserve_dynptr of `size` bytes of the ring buffer (map 1; a
 * reference even when the reserve fails).  Then a loop reads or writes it by an index kept in
 * GEN_FP_DYNPTR_IDX (i = 0, step, ..., below n * step): bpf_dynptr_read into GEN_FP_DYNPTR_TMP,
 * bpf_dynptr_data of `step` bytes (NULL-checked, then loaded or stored) or bpf_dynptr_write from
 * it; indexes past the size give -E2BIG or NULL, which the loop takes in its stride.  The sum of
 * what it read (GEN_FP_DYNPTR_SUM) is folded into the accumulator; a ringbuf dynptr is submitted
 * or discarded, picked by a packet byte.  The twin reads past the slice bpf_dynptr_data gives
 * (`step` bytes further: the map value's last element, or the record, is left at its end, so
 * the run traps there), or leaves a ringbuf dynptr unreleased when a packet byte is odd (a leak
 * at exit); the kernel refuses both.
 */
#include <stdio.h>

#include "generators/gen_internal.h"

#include "bpf/isa.h"

static void fp_arg(struct gi *g, int reg, int16_t off)
{
	gi_alux(g, true, BPF_MOV, reg, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, reg, off);
}

/* dst = a packet byte (the program's input), masked to 1 */
static void input_bit(struct gi *g, int dst)
{
	gi_ldx(g, BPF_DW, dst, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, dst, dst, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
	gi_alu(g, true, BPF_AND, dst, 1);
}

/* r0 = map 0's value of key (the key stored at fp + key_off); NULL: to l_null */
static void value_of(struct gi *g, uint32_t key, int16_t key_off, int l_null)
{
	gi_st(g, BPF_W, EBPF_REG_FP, key_off, (int32_t)key);
	gi_ld_map(g, BPF_REG_1, 0);
	fp_arg(g, BPF_REG_2, key_off);
	gi_call_helper(g, BPF_FUNC_map_lookup_elem);
	gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, l_null);
}

/* A dynptr of size bytes at p (the register reg, or fp + off when reg < 0):
 * bpf_ringbuf_reserve_dynptr(ring buffer, size, 0, p) when rb, else bpf_dynptr_from_mem(r1,
 * size, 0, p) over the map value r1 holds. */
static void dynptr_make(struct gi *g, bool rb, uint32_t size, int reg, int16_t off)
{
	if (rb)
		gi_ld_map(g, BPF_REG_1, GEN_MAP_RINGBUF);
	gi_mov_const(g, BPF_REG_2, size, true);
	gi_mov_const(g, BPF_REG_3, 0, true);
	if (reg >= 0)
		gi_alux(g, true, BPF_MOV, BPF_REG_4, reg);
	else
		fp_arg(g, BPF_REG_4, off);
	gi_call_helper(g, rb ? BPF_FUNC_ringbuf_reserve_dynptr : BPF_FUNC_dynptr_from_mem);
}

static uint8_t size_code(unsigned n)
{
	return n == 1 ? BPF_B : n == 2 ? BPF_H : n == 4 ? BPF_W : BPF_DW;
}

void gi_stmt_dynptr(struct gi *g, struct gi_loop *lp)
{
	const struct gen_knobs *k = g->k;
	bool twin = k->p_dynptr_unsafe && (!k->p_dynptr || gen_bool(g->src, 50));
	bool rb = gen_bool(g->src, 50);
	/* the twin over a hash map's value (p_map_hash): its key may not be in the map, and the
	 * lookup's NULL would skip its read past the slice; it reads past the ring buffer's record
	 * instead */
	bool hash_rb = twin && !rb && g->hash_piece;
	/* the twin: 0 reads past the slice, 1 leaks a ringbuf dynptr */
	unsigned twin_kind = twin && rb ? gen_pick(g->src, 2) : 0;
	unsigned step = 1u << gen_pick(g->src, 4), form = twin && !twin_kind ? 1 : gen_pick(g->src, 3);
	unsigned n, size;
	int acc = g->fn->acc, l_first = gi_label(g), l_head = gi_label(g), l_next = gi_label(g),
	    l_skip = gi_label(g), l_rel = gi_label(g), l_end = gi_label(g), r;
	uint32_t first, head, body;

	if (g->raw_tp || g->niters == GI_MAX_ITERS) {
		gi_stmt_acc(g, lp);
		return;
	}
	/* the twin that reads past the slice ends its last slice at the memory's end (64 bytes:
	 * the value's, or the record's) */
	n = twin && !twin_kind ? 64 / step : gen_u32(g->src, 1, 64 / step);
	size = twin && !twin_kind ? 64 : gen_u32(g->src, 1, 64);
	rb = rb || hash_rb;
	gi_bind(g, l_first);
	first = g->len;
	gi_spill_caller_homes(g);
	gi_st(g, BPF_DW, EBPF_REG_FP, GEN_FP_DYNPTR_SUM, 0);
	gi_st(g, BPF_DW, EBPF_REG_FP, GEN_FP_DYNPTR_TMP, 0);
	if (!rb) {
		/* the last element for the twin (no element after it: its runs trap past it) */
		uint32_t key = twin ? GEN_MAP_ENTRIES - 1 : gen_pick(g->src, GEN_MAP_ENTRIES);

		value_of(g, key, GEN_FP_KEY, l_skip);
		gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_0);
		dynptr_make(g, false, size, -1, GEN_FP_DYNPTR);
		g->use_map = true;
	} else {
		dynptr_make(g, true, size, -1, GEN_FP_DYNPTR);
		g->use_ringbuf = true;
	}
	gi_st(g, BPF_DW, EBPF_REG_FP, GEN_FP_DYNPTR_IDX, 0);
	gi_bind(g, l_head);
	head = g->len;
	if (form == 0) {	/* bpf_dynptr_read(&tmp, step, &d, i, 0) */
		fp_arg(g, BPF_REG_1, GEN_FP_DYNPTR_TMP);
		gi_mov_const(g, BPF_REG_2, step, true);
		fp_arg(g, BPF_REG_3, GEN_FP_DYNPTR);
		gi_ldx(g, BPF_DW, BPF_REG_4, EBPF_REG_FP, GEN_FP_DYNPTR_IDX);
		gi_mov_const(g, BPF_REG_5, 0, true);
		gi_call_helper(g, BPF_FUNC_dynptr_read);
		gi_jmp(g, false, BPF_JNE, BPF_REG_0, 0, l_next);
		gi_ldx(g, size_code(step), BPF_REG_1, EBPF_REG_FP, GEN_FP_DYNPTR_TMP);
	} else if (form == 1) {	/* p = bpf_dynptr_data(&d, i, step); if (p) *p (or p[step]) */
		fp_arg(g, BPF_REG_1, GEN_FP_DYNPTR);
		gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DYNPTR_IDX);
		gi_mov_const(g, BPF_REG_3, step, true);
		gi_call_helper(g, BPF_FUNC_dynptr_data);
		gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, l_next);
		gi_ldx(g, size_code(step), BPF_REG_1, BPF_REG_0, (int16_t)(twin ? step : 0));
		if (!twin && gen_bool(g->src, 50)) {	/* written back, plus 1 */
			gi_alu(g, true, BPF_ADD, BPF_REG_1, 1);
			gi_stx(g, size_code(step), BPF_REG_0, 0, BPF_REG_1);
		}
	} else {	/* bpf_dynptr_write(&d, i, &tmp, step, 0); tmp += 1 */
		fp_arg(g, BPF_REG_1, GEN_FP_DYNPTR);
		gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DYNPTR_IDX);
		fp_arg(g, BPF_REG_3, GEN_FP_DYNPTR_TMP);
		gi_mov_const(g, BPF_REG_4, step, true);
		gi_mov_const(g, BPF_REG_5, 0, true);
		gi_call_helper(g, BPF_FUNC_dynptr_write);
		gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DYNPTR_TMP);
		gi_alu(g, true, BPF_ADD, BPF_REG_1, 1);
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_DYNPTR_TMP, BPF_REG_1);
	}
	gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DYNPTR_SUM);
	gi_alux(g, true, BPF_ADD, BPF_REG_2, BPF_REG_1);
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_DYNPTR_SUM, BPF_REG_2);
	gi_bind(g, l_next);
	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DYNPTR_IDX);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, (int32_t)step);
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_DYNPTR_IDX, BPF_REG_1);
	gi_jmp(g, false, BPF_JLT, BPF_REG_1, (int32_t)(n * step), l_head);
	body = g->len - head;
	if (rb) {	/* submitted or discarded by a packet byte; the twin may skip both */
		input_bit(g, BPF_REG_5);
		fp_arg(g, BPF_REG_1, GEN_FP_DYNPTR);
		gi_mov_const(g, BPF_REG_2, 0, true);
		if (twin_kind == 1) {
			gi_jmp(g, false, BPF_JNE, BPF_REG_5, 0, l_end);
			gi_call_helper(g, gen_bool(g->src, 50) ? BPF_FUNC_ringbuf_submit_dynptr
							       : BPF_FUNC_ringbuf_discard_dynptr);
		} else {
			gi_jmp(g, false, BPF_JEQ, BPF_REG_5, 0, l_rel);
			gi_call_helper(g, BPF_FUNC_ringbuf_submit_dynptr);
			gi_ja(g, l_end);
			gi_bind(g, l_rel);
			gi_call_helper(g, BPF_FUNC_ringbuf_discard_dynptr);
		}
	}
	gi_bind(g, l_end);
	gi_bind(g, l_skip);
	gi_fill_caller_homes(g);
	r = gi_scratch(g);
	gi_ldx(g, BPF_DW, r, EBPF_REG_FP, GEN_FP_DYNPTR_SUM);
	gi_var_alux(g, acc, BPF_XOR, r);
	gi_scratch_release(g);
	g->iter_label[g->niters] = l_first;
	g->iter_steps[g->niters++] = (g->len - first) + (uint64_t)n * body + 8;
	/* (a leaking twin that takes bpf_dynptr_data's slices reads past them too: both) */
	if (twin && twin_kind)
		g->p->flags |= GEN_PROG_DYNPTR_LEAK | (form == 1 ? GEN_PROG_DYNPTR_PAST : 0);
	else if (twin)
		g->p->flags |= GEN_PROG_DYNPTR_PAST;
	if (lp)
		lp->shapes |= GEN_SH(HELPER);
}

/* ---- p_dynptr_sub and its unsafe twin p_dynptr_sub_unsafe ----
 *
 * A static subprogram makes or uses a dynptr (the prologue, after the other call pieces).  Half
 * the time main makes one at GEN_FP_DYNPTR (bpf_dynptr_from_mem over `size` bytes of a map
 * value, or bpf_ringbuf_reserve_dynptr of `size` bytes), calls f(&d) once or twice, then submits
 * or discards a ringbuf one by a packet byte; f uses its caller's dynptr.  Otherwise f(bit) makes
 * one in its own frame (fp-32), uses it and submits or discards a ringbuf one by bit.  f's use:
 * bpf_dynptr_read of `step` bytes at `off` into its fp-8, bpf_dynptr_data of `step` bytes
 * (NULL-checked, then loaded) or bpf_dynptr_write from its fp-8; off may lie past the size
 * (-E2BIG, NULL).  The twins: f reads the caller's ringbuf dynptr after main discarded it
 * (INTERP_TRAP_REF), f leaves its own ringbuf dynptr unreleased (always, or when bit is 1: a
 * leak at exit, INTERP_TRAP_REF), or f loads `step` bytes past a slice that ends at the end of
 * the last map value (INTERP_TRAP_MEM); the kernel refuses all three. */
enum { DPS_AFTER = 1, DPS_LEAK, DPS_PAST };
/* gi_sub.dp_sub of p_dynptr_sub_make's f (1 and 2: p_dynptr_sub's), and its twins (main's part:
 * gi_sub.dp_twin stays 0) */
enum { DPS_MAKE = 3, DPS_FREE, DPS_CB, DPS_RELAY, DPS_CB_MAKE, DPS_MAYBE, DPS_MID, DPS_GLOBAL };
enum { DPM_LEAK = 1, DPM_OVER, DPM_TWICE, DPM_AFTER };
#define GI_DPS_OWN (-32)	/* f's own dynptr (its fp-8: the bytes read or written, fp-20: the key) */

/* The use of the dynptr at ptr (a register, or fp + off when reg is -1) into r7 (0 first). */
static void sub_use(struct gi *g, const struct gi_sub *s, int reg, int16_t fp_off)
{
	int l_done = gi_label(g);
	unsigned step = s->dp_step;
	int preg = s->dp_op == 0 ? BPF_REG_3 : BPF_REG_1;

	gi_mov_const(g, BPF_REG_7, 0, true);
	/* (written first: what read leaves there, or what write copies) */
	gi_st(g, BPF_DW, EBPF_REG_FP, -8, (int32_t)s->dp_off + 1);
	if (reg >= 0)
		gi_alux(g, true, BPF_MOV, preg, reg);
	else
		fp_arg(g, preg, fp_off);
	if (s->dp_op == 0) {	/* bpf_dynptr_read(fp-8, step, p, off, 0) */
		fp_arg(g, BPF_REG_1, -8);
		gi_mov_const(g, BPF_REG_2, step, true);
		gi_mov_const(g, BPF_REG_4, s->dp_off, true);
		gi_mov_const(g, BPF_REG_5, 0, true);
		gi_call_helper(g, BPF_FUNC_dynptr_read);
		gi_jmp(g, false, BPF_JNE, BPF_REG_0, 0, l_done);
		gi_ldx(g, size_code(step), BPF_REG_7, EBPF_REG_FP, -8);
	} else if (s->dp_op == 1) {	/* bpf_dynptr_data(p, off, step), loaded (past it: +step) */
		gi_mov_const(g, BPF_REG_2, s->dp_off, true);
		gi_mov_const(g, BPF_REG_3, step, true);
		gi_call_helper(g, BPF_FUNC_dynptr_data);
		gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, l_done);
		gi_ldx(g, size_code(step), BPF_REG_7, BPF_REG_0,
		       (int16_t)(s->dp_twin == DPS_PAST ? step : 0));
	} else {	/* bpf_dynptr_write(p, off, fp-8, step, 0) */
		gi_mov_const(g, BPF_REG_2, s->dp_off, true);
		fp_arg(g, BPF_REG_3, -8);
		gi_mov_const(g, BPF_REG_4, step, true);
		gi_mov_const(g, BPF_REG_5, 0, true);
		gi_call_helper(g, BPF_FUNC_dynptr_write);
		gi_alux(g, true, BPF_MOV, BPF_REG_7, BPF_REG_0);
	}
	gi_bind(g, l_done);
}

/* r1 = fp + off; r2 = 0; submitted when reg is not 0, else discarded (the leak twin: neither
 * when reg is not 0, or always) */
static void sub_release(struct gi *g, int reg, int16_t off, uint8_t twin, bool always)
{
	int l_disc = gi_label(g), l_end = gi_label(g);

	if (twin == DPS_LEAK && always)
		return;
	fp_arg(g, BPF_REG_1, off);
	gi_mov_const(g, BPF_REG_2, 0, true);
	if (twin == DPS_LEAK) {
		gi_jmp(g, false, BPF_JNE, reg, 0, l_end);
		gi_call_helper(g, BPF_FUNC_ringbuf_discard_dynptr);
	} else {
		gi_jmp(g, false, BPF_JEQ, reg, 0, l_disc);
		gi_call_helper(g, BPF_FUNC_ringbuf_submit_dynptr);
		gi_ja(g, l_end);
		gi_bind(g, l_disc);
		gi_call_helper(g, BPF_FUNC_ringbuf_discard_dynptr);
	}
	gi_bind(g, l_end);
}

/* p_dynptr_sub_make's f: makes (DPS_MAKE) or releases (DPS_FREE) its caller's dynptr at r1 */
static void emit_make_sub(struct gi *g, struct gi_sub *s)
{
	gi_alux(g, true, BPF_MOV, BPF_REG_6, BPF_REG_1);
	gi_alux(g, true, BPF_MOV, BPF_REG_8, BPF_REG_2);
	if (s->dp_sub == DPS_MAKE) {
		/* bpf_ringbuf_reserve_dynptr(rb, size, 0, p) or bpf_dynptr_from_mem(x, size, 0, p) */
		if (!s->dp_rb)
			gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_8);
		dynptr_make(g, s->dp_rb, s->dp_size, BPF_REG_6, 0);
		sub_use(g, s, BPF_REG_6, 0);
	} else {
		int l_disc = gi_label(g), l_end = gi_label(g);

		/* used, then submitted when x is not 0, else discarded */
		sub_use(g, s, BPF_REG_6, 0);
		gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_6);
		gi_mov_const(g, BPF_REG_2, 0, true);
		gi_jmp(g, false, BPF_JEQ, BPF_REG_8, 0, l_disc);
		gi_call_helper(g, BPF_FUNC_ringbuf_submit_dynptr);
		gi_ja(g, l_end);
		gi_bind(g, l_disc);
		gi_call_helper(g, BPF_FUNC_ringbuf_discard_dynptr);
		gi_bind(g, l_end);
	}
	gi_alux(g, true, BPF_MOV, BPF_REG_0, BPF_REG_7);
	gi_exit(g);
}

/* p_dynptr_cb_make's callback cb(i, p) (dp_op the use, dp_always the form: see there) */
enum { DPC_SWAP, DPC_OWN, DPC_LOCAL };
enum { DPC_DROP = 1, DPC_KEEP };

static void emit_cb_make(struct gi *g, struct gi_sub *s)
{
	int l_out = gi_label(g), l_disc = gi_label(g);

	if (s->dp_each) {	/* cb(map, key, value, p): the key for the index */
		gi_alux(g, true, BPF_MOV, BPF_REG_6, BPF_REG_4);
		gi_ldx(g, BPF_W, BPF_REG_8, BPF_REG_2, 0);
	} else {
		gi_alux(g, true, BPF_MOV, BPF_REG_6, BPF_REG_2);
		gi_alux(g, true, BPF_MOV, BPF_REG_8, BPF_REG_1);
	}
	gi_mov_const(g, BPF_REG_7, 0, true);
	if (s->dp_key_form == DPC_SWAP) {	/* the caller's record discarded first */
		gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_6);
		gi_mov_const(g, BPF_REG_2, 0, true);
		gi_call_helper(g, BPF_FUNC_ringbuf_discard_dynptr);
		if (s->dp_twin == DPC_DROP)
			goto out;
	}
	if (s->dp_key_form == DPC_LOCAL) {	/* over map 0's value dp_key (its key at fp-24) */
		value_of(g, s->dp_key, -24, l_out);
		gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_0);
	}
	dynptr_make(g, s->dp_key_form != DPC_LOCAL, s->dp_size, BPF_REG_6, 0);
	sub_use(g, s, BPF_REG_6, 0);
	if (s->dp_key_form == DPC_OWN && s->dp_twin != DPC_KEEP) {
		/* released before the callback returns: submitted on odd indexes, else discarded */
		int l_end = gi_label(g);

		gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_6);
		gi_mov_const(g, BPF_REG_2, 0, true);
		gi_alu(g, true, BPF_AND, BPF_REG_8, 1);
		gi_jmp(g, false, BPF_JEQ, BPF_REG_8, 0, l_disc);
		gi_call_helper(g, BPF_FUNC_ringbuf_submit_dynptr);
		gi_ja(g, l_end);
		gi_bind(g, l_disc);
		gi_call_helper(g, BPF_FUNC_ringbuf_discard_dynptr);
		gi_bind(g, l_end);
	}
out:
	gi_bind(g, l_out);
	gi_mov_const(g, BPF_REG_0, 0, true);
	gi_exit(g);
}

/* p_dynptr_keyed's f(p, x): when x is not 0, reserves its caller's record p and uses it
 * (dp_key_form 0) or uses it and discards it (1), and returns 0; else returns -1 in w0
 * (dp_always: clang's `w0 = -1`) or 1 in r0, set before the test as clang does. */
static void emit_maybe(struct gi *g, struct gi_sub *s)
{
	int l_out = gi_label(g);

	gi_alux(g, true, BPF_MOV, BPF_REG_6, BPF_REG_1);
	gi_alux(g, true, BPF_MOV, BPF_REG_8, BPF_REG_2);
	gi_mov_const(g, BPF_REG_0, s->dp_always ? UINT32_MAX : 1, !s->dp_always);
	gi_jmp(g, false, BPF_JEQ, BPF_REG_8, 0, l_out);
	if (s->dp_key_form == 0) {
		dynptr_make(g, true, s->dp_size, BPF_REG_6, 0);
		sub_use(g, s, BPF_REG_6, 0);
	} else {
		sub_use(g, s, BPF_REG_6, 0);
		gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_6);
		gi_mov_const(g, BPF_REG_2, 0, true);
		gi_call_helper(g, BPF_FUNC_ringbuf_discard_dynptr);
	}
	gi_mov_const(g, BPF_REG_0, 0, true);
	gi_bind(g, l_out);
	gi_exit(g);
}

/* p_dynptr_mid's m(p, x): reserves a record of its own (fp-32), hands p and x on to
 * subs[dp_callee] (p_dynptr_sub's f using its caller's dynptr), then submits its own when x is
 * 1, else discards it (the twin: neither, always or when x is 1). */
static void emit_mid(struct gi *g, struct gi_sub *s)
{
	gi_alux(g, true, BPF_MOV, BPF_REG_6, BPF_REG_1);
	gi_alux(g, true, BPF_MOV, BPF_REG_9, BPF_REG_2);
	dynptr_make(g, true, s->dp_size, -1, GI_DPS_OWN);
	gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_6);
	gi_alux(g, true, BPF_MOV, BPF_REG_2, BPF_REG_9);
	gi_call_sub(g, g->subs[s->dp_callee].label);
	gi_alux(g, true, BPF_MOV, BPF_REG_7, BPF_REG_0);
	sub_release(g, BPF_REG_9, GI_DPS_OWN, s->dp_twin, s->dp_always);
	gi_alux(g, true, BPF_MOV, BPF_REG_0, BPF_REG_7);
	gi_exit(g);
}

void gi_emit_dynptr_sub(struct gi *g, struct gi_sub *s)
{
	int l_out = gi_label(g);

	gi_bind(g, s->label);
	if (s->dp_sub == DPS_CB_MAKE) {
		emit_cb_make(g, s);
		return;
	}
	if (s->dp_sub == DPS_MAYBE) {
		emit_maybe(g, s);
		return;
	}
	if (s->dp_sub == DPS_MID) {
		emit_mid(g, s);
		return;
	}
	if (s->dp_sub == DPS_GLOBAL) {	/* p_dynptr_global's g(p): p_dynptr_sub's use */
		gi_alux(g, true, BPF_MOV, BPF_REG_6, BPF_REG_1);
		sub_use(g, s, BPF_REG_6, 0);
		gi_alux(g, true, BPF_MOV, BPF_REG_0, BPF_REG_7);
		gi_exit(g);
		return;
	}
	if (s->dp_sub == DPS_RELAY) {	/* p_dynptr_deep's m(p, x): f(p, x) */
		gi_call_sub(g, g->subs[s->dp_callee].label);
		gi_exit(g);
		return;
	}
	if (s->dp_sub == DPS_MAKE || s->dp_sub == DPS_FREE) {
		emit_make_sub(g, s);
		return;
	}
	if (s->dp_sub == DPS_CB) {	/* p_dynptr_cb's callback: the caller's dynptr, its ctx */
		gi_alux(g, true, BPF_MOV, BPF_REG_6, BPF_REG_2);
		sub_use(g, s, BPF_REG_6, 0);
		gi_mov_const(g, BPF_REG_0, 0, true);
		gi_exit(g);
		return;
	}
	if (s->dp_sub == 1) {	/* the caller's dynptr, at r1 */
		gi_alux(g, true, BPF_MOV, BPF_REG_6, BPF_REG_1);
		sub_use(g, s, BPF_REG_6, 0);
		gi_alux(g, true, BPF_MOV, BPF_REG_0, BPF_REG_7);
		gi_exit(g);
		return;
	}
	/* its own, at fp-32; r1 the bit that picks submit or discard */
	gi_alux(g, true, BPF_MOV, BPF_REG_8, BPF_REG_1);
	gi_mov_const(g, BPF_REG_7, 0, true);
	if (!s->dp_rb) {
		value_of(g, s->dp_key, -20, l_out);
		gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_0);
	}
	dynptr_make(g, s->dp_rb, s->dp_size, -1, GI_DPS_OWN);
	sub_use(g, s, -1, GI_DPS_OWN);
	if (s->dp_rb)
		sub_release(g, BPF_REG_8, GI_DPS_OWN, s->dp_twin, s->dp_always);
	gi_bind(g, l_out);
	gi_alux(g, true, BPF_MOV, BPF_REG_0, BPF_REG_7);
	gi_exit(g);
}

/* Main's dynptr at GEN_FP_DYNPTR for f: a ringbuf record of f->dp_size bytes (discarded at once
 * when after), or a local dynptr over dp_size bytes of map 0's value dp_key (its lookup's NULL:
 * to l_skip). */
static void main_dynptr(struct gi *g, const struct gi_sub *f, bool rb, bool after, int l_skip)
{
	if (rb) {
		dynptr_make(g, true, f->dp_size, -1, GEN_FP_DYNPTR);
		if (after) {
			fp_arg(g, BPF_REG_1, GEN_FP_DYNPTR);
			gi_mov_const(g, BPF_REG_2, 0, true);
			gi_call_helper(g, BPF_FUNC_ringbuf_discard_dynptr);
		}
		return;
	}
	value_of(g, f->dp_key, GEN_FP_KEY, l_skip);
	gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_0);
	dynptr_make(g, false, f->dp_size, -1, GEN_FP_DYNPTR);
}

void gi_dynptr_sub_call(struct gi *g, bool twin)
{
	int s = gi_sub_new(g, SUBK_CALLBACK, 1);
	/* the twin: the caller's released dynptr used, a leak of its own, or a read past */
	uint8_t tk = twin ? (uint8_t)gen_u32(g->src, DPS_AFTER, DPS_PAST) : 0;
	bool own = tk == DPS_LEAK || (tk != DPS_AFTER && gen_bool(g->src, 50));
	/* (past over a hash map, p_map_hash: the ring buffer's record, as gi_stmt_dynptr's twin) */
	bool rb = tk == DPS_AFTER || tk == DPS_LEAK || (tk == DPS_PAST && g->hash_piece) ||
		  (tk != DPS_PAST && gen_bool(g->src, 50));
	unsigned step = 1u << gen_pick(g->src, 4), ncalls = gen_bool(g->src, 50) ? 2 : 1;
	struct gi_sub *f;

	if (s < 0 || g->raw_tp)
		return;
	f = &g->subs[s];
	f->called = true;
	f->dp_sub = own ? 2 : 1;
	f->dp_rb = rb;
	f->dp_twin = tk;
	f->dp_always = gen_bool(g->src, 50);
	f->dp_step = (uint8_t)step;
	f->dp_op = tk == DPS_PAST ? 1 : (uint8_t)gen_pick(g->src, 3);
	f->dp_size = tk == DPS_PAST ? 64 : gen_u32(g->src, 1, 64);
	/* (past: the slice is the value's last step bytes; else anywhere, past the size too) */
	f->dp_off = tk == DPS_PAST ? 64 - step : gen_u32(g->src, 0, 64);
	f->dp_key = tk == DPS_PAST ? GEN_MAP_ENTRIES - 1 : gen_pick(g->src, GEN_MAP_ENTRIES);
	if (rb)
		g->use_ringbuf = true;
	else
		g->use_map = true;
	if (own) {
		for (unsigned k = 0; k < ncalls; k++) {
			input_bit(g, BPF_REG_1);
			gi_call_sub(g, f->label);
		}
	} else {
		int l_skip = gi_label(g);

		main_dynptr(g, f, rb, tk == DPS_AFTER, l_skip);
		for (unsigned k = 0; k < ncalls; k++) {
			fp_arg(g, BPF_REG_1, GEN_FP_DYNPTR);
			gi_call_sub(g, f->label);
		}
		if (rb && tk != DPS_AFTER) {
			input_bit(g, BPF_REG_6);
			sub_release(g, BPF_REG_6, GEN_FP_DYNPTR, 0, false);
		}
		gi_bind(g, l_skip);
	}
	g->p->shapes |= GEN_SH(SUBPROG) | GEN_SH(CALL_PTR) | GEN_SH(HELPER);
	if (tk)
		g->p->flags |= tk == DPS_PAST ? GEN_PROG_DYNPTR_PAST : GEN_PROG_DYNPTR_LEAK;
}

/* ---- p_dynptr_sub_make and its unsafe twin p_dynptr_sub_make_unsafe ----
 *
 * A static subprogram makes or releases its caller's dynptr (the prologue, after the other call
 * pieces), once or twice in a row.  Either f(&d, x) makes main's dynptr at GEN_FP_DYNPTR
 * (bpf_ringbuf_reserve_dynptr of dp_size bytes, or bpf_dynptr_from_mem over dp_size bytes of
 * the map value x main looked up and NULL-checked) and uses it as p_dynptr_sub's f does; main
 * then reads a byte of it (bpf_dynptr_read) and submits or discards a ringbuf one by a packet
 * byte.  Or main reserves a ringbuf dynptr and f(&d, bit) uses it, then submits it when bit is 1,
 * else discards it.  The twins (GEN_PROG_DYNPTR_LEAK, INTERP_TRAP_REF; the kernel refuses all
 * four): main never releases the record f reserved (on every path, or when a packet byte is
 * odd); f reserves over main's live record ("cannot overwrite referenced dynptr"); main
 * discards the record f released, or reads the dynptr f released. */
/* bpf_dynptr_read(GEN_FP_DYNPTR_TMP, 1, main's dynptr at GEN_FP_DYNPTR, 0, 0) */
static void main_read_byte(struct gi *g)
{
	fp_arg(g, BPF_REG_1, GEN_FP_DYNPTR_TMP);
	gi_mov_const(g, BPF_REG_2, 1, true);
	fp_arg(g, BPF_REG_3, GEN_FP_DYNPTR);
	gi_mov_const(g, BPF_REG_4, 0, true);
	gi_mov_const(g, BPF_REG_5, 0, true);
	gi_call_helper(g, BPF_FUNC_dynptr_read);
}

/* f(&d, x) called at label (f itself, or a relay to it): x the map value dp_key f makes a local
 * dynptr over (value; its lookup's NULL: to l_skip), else a packet bit; then a byte of main's
 * dynptr read (read: not when f released it). */
static void make_sub_call(struct gi *g, const struct gi_sub *f, int label, bool value, bool read,
			  int l_skip)
{
	if (value) {
		value_of(g, f->dp_key, GEN_FP_KEY, l_skip);
		gi_alux(g, true, BPF_MOV, BPF_REG_2, BPF_REG_0);
	} else {
		input_bit(g, BPF_REG_2);
	}
	fp_arg(g, BPF_REG_1, GEN_FP_DYNPTR);
	gi_call_sub(g, label);
	if (read)
		main_read_byte(g);
}

void gi_dynptr_sub_make_call(struct gi *g, bool twin)
{
	int s = gi_sub_new(g, SUBK_CALLBACK, 2);
	uint8_t tk = twin ? (uint8_t)gen_u32(g->src, DPM_LEAK, DPM_AFTER) : 0;
	/* (the twins other than a leak are about a record f released, or reserved over) */
	bool make = tk == DPM_LEAK || tk == DPM_OVER || (!tk && gen_bool(g->src, 50));
	bool rb = !make || tk || gen_bool(g->src, 50);
	unsigned ncalls = gen_bool(g->src, 50) ? 2 : 1;
	struct gi_sub *f;

	if (s < 0 || g->raw_tp)
		return;
	f = &g->subs[s];
	f->called = true;
	f->dp_sub = make ? DPS_MAKE : DPS_FREE;
	f->dp_rb = rb;
	f->dp_always = gen_bool(g->src, 50);
	f->dp_step = (uint8_t)(1u << gen_pick(g->src, 4));
	f->dp_op = (uint8_t)gen_pick(g->src, 3);
	f->dp_size = gen_u32(g->src, 1, 64);
	f->dp_off = gen_u32(g->src, 0, 64);
	f->dp_key = (uint8_t)gen_pick(g->src, GEN_MAP_ENTRIES);
	g->use_ringbuf = g->use_ringbuf || rb;
	g->use_map = g->use_map || !rb;
	for (unsigned k = 0; k < ncalls; k++) {
		int l_skip = gi_label(g);

		if (!make || tk == DPM_OVER)	/* main's own record first */
			main_dynptr(g, f, true, false, l_skip);
		make_sub_call(g, f, f->label, make && !rb, make || tk == DPM_AFTER, l_skip);
		/* submitted or discarded by a packet byte (the leak twin: neither, always or when
		 * the byte is odd; the double release: again) */
		if (((make && rb) || tk == DPM_TWICE) && !(tk == DPM_LEAK && f->dp_always)) {
			input_bit(g, BPF_REG_6);
			sub_release(g, BPF_REG_6, GEN_FP_DYNPTR, tk == DPM_LEAK ? DPS_LEAK : 0, false);
		}
		gi_bind(g, l_skip);
	}
	g->p->shapes |= GEN_SH(SUBPROG) | GEN_SH(CALL_PTR) | GEN_SH(HELPER);
	if (tk)
		g->p->flags |= GEN_PROG_DYNPTR_LEAK;
}

/* The end of a dynptr call piece: main's record at GEN_FP_DYNPTR submitted or discarded by a
 * packet byte (release), l_skip bound, the piece's shapes and (its twin's) flags noted. */
static void piece_end(struct gi *g, bool release, int l_skip, uint64_t shapes, uint64_t flags)
{
	if (release) {
		input_bit(g, BPF_REG_6);
		sub_release(g, BPF_REG_6, GEN_FP_DYNPTR, 0, false);
	}
	gi_bind(g, l_skip);
	g->p->shapes |= shapes;
	g->p->flags |= flags;
}

/* A callback sub of kind sub for the dynptr pieces (NULL: no sub left, or a raw tracepoint's
 * program, which takes no callback piece), called; its use of the dynptr: step bytes (0: drawn
 * here), and op, size, off, key drawn (past: the twin's slice at the end of the last map value). */
static struct gi_sub *cb_open(struct gi *g, int s, uint8_t sub, unsigned step, bool past)
{
	struct gi_sub *f;

	if (s < 0 || g->raw_tp)
		return NULL;
	f = &g->subs[s];
	f->called = true;
	f->dp_sub = sub;
	f->dp_step = (uint8_t)(step ? step : 1u << gen_pick(g->src, 4));
	f->dp_op = past ? 1 : (uint8_t)gen_pick(g->src, 3);
	f->dp_size = past ? 64 : gen_u32(g->src, 1, 64);
	f->dp_off = past ? 64 - f->dp_step : gen_u32(g->src, 0, 64);
	f->dp_key = past ? GEN_MAP_ENTRIES - 1 : (uint8_t)gen_pick(g->src, GEN_MAP_ENTRIES);
	return f;
}

/* bpf_loop(nr, f, &d, 0), or bpf_for_each_map_elem(map 0, f, &d, 0) when each: d main's dynptr at
 * GEN_FP_DYNPTR. */
static void cb_call(struct gi *g, const struct gi_sub *f, bool each, unsigned nr)
{
	if (each)
		gi_ld_map(g, BPF_REG_1, 0);
	else
		gi_mov_const(g, BPF_REG_1, nr, true);
	gi_ld_func(g, BPF_REG_2, f->label);
	fp_arg(g, BPF_REG_3, GEN_FP_DYNPTR);
	gi_mov_const(g, BPF_REG_4, 0, true);
	gi_call_helper(g, each ? BPF_FUNC_for_each_map_elem : BPF_FUNC_loop);
}

/* ---- p_dynptr_cb and its unsafe twin p_dynptr_cb_unsafe ----
 *
 * A bpf_loop callback uses its caller's dynptr through its context pointer (the prologue, after
 * the other call pieces): main makes a dynptr at GEN_FP_DYNPTR (bpf_ringbuf_reserve_dynptr of
 * dp_size bytes, or bpf_dynptr_from_mem over dp_size bytes of a map value), calls bpf_loop(nr,
 * cb, &d, 0) with nr in 1..8, and submits or discards a ringbuf one by a packet byte; cb(i, p)
 * reads, slices or writes p as p_dynptr_sub's f does.  The twins: main discards its record
 * before bpf_loop, so the callback reads a released dynptr (GEN_PROG_DYNPTR_LEAK,
 * INTERP_TRAP_REF), or the callback loads `step` bytes past a slice at the end of the last map
 * value (GEN_PROG_DYNPTR_PAST, INTERP_TRAP_MEM; over a hash map, p_map_hash, the first twin
 * instead); the kernel refuses both. */
void gi_dynptr_cb_call(struct gi *g, bool twin)
{
	int s = gi_sub_new(g, SUBK_CALLBACK, 2), l_skip = gi_label(g);
	uint8_t tk = !twin ? 0 : g->hash_piece || gen_bool(g->src, 50) ? DPS_AFTER : DPS_PAST;
	bool rb = tk == DPS_AFTER || (!tk && gen_bool(g->src, 50));
	unsigned step = 1u << gen_pick(g->src, 4), nr = gen_u32(g->src, 1, 8);
	struct gi_sub *f;

	if (!(f = cb_open(g, s, DPS_CB, step, tk == DPS_PAST)))
		return;
	f->dp_rb = rb;
	f->dp_twin = tk == DPS_PAST ? DPS_PAST : 0;
	f->cb_nr = nr;
	f->cb_steps = 32;
	g->use_ringbuf = g->use_ringbuf || rb;
	g->use_map = g->use_map || !rb;
	main_dynptr(g, f, rb, tk == DPS_AFTER, l_skip);
	cb_call(g, f, false, nr);
	piece_end(g, rb && tk != DPS_AFTER, l_skip,
		  GEN_SH(BPF_LOOP) | GEN_SH(CALL_PTR) | GEN_SH(HELPER),
		  !tk ? 0 : tk == DPS_PAST ? GEN_PROG_DYNPTR_PAST : GEN_PROG_DYNPTR_LEAK);
}

/* ---- p_dynptr_deep and its unsafe twin p_dynptr_deep_unsafe ----
 *
 * Main's dynptr handed two levels down (the prologue, after the other call pieces): main calls a
 * relay m(&d, x), which calls f(&d, x) with the same arguments.  f either uses main's dynptr as
 * p_dynptr_sub's f does (main made it: a ringbuf record or a local dynptr over a map value, and
 * releases a record after the call by a packet byte), or reserves it or makes it over the map
 * value x and uses it (main then reads a byte of it and releases a record), or uses main's record
 * and submits it when x is 1, else discards it.  The twins (the kernel refuses all four): main
 * discards its record before the call, so f reads a released one, or main leaks the record f
 * reserved (always, or when a packet byte is odd), or main reads the record f released
 * (GEN_PROG_DYNPTR_LEAK, INTERP_TRAP_REF); f loads `step` bytes past a slice that ends at the end
 * of the last map value, or of the record over a hash map, p_map_hash (GEN_PROG_DYNPTR_PAST,
 * INTERP_TRAP_MEM). */
enum { DPD_AFTER = 1, DPD_LEAK, DPD_READ, DPD_PAST };

void gi_dynptr_deep_call(struct gi *g, bool twin)
{
	int s = gi_sub_new(g, SUBK_CALLBACK, 2), m = s < 0 ? -1 : gi_sub_new(g, SUBK_CALLBACK, 2);
	uint8_t tk = twin ? (uint8_t)gen_u32(g->src, DPD_AFTER, DPD_PAST) : 0;
	/* 0: f uses main's dynptr, 1: f makes it, 2: f releases main's record */
	unsigned form = tk == DPD_AFTER || tk == DPD_PAST ? 0 : tk == DPD_LEAK ? 1
			: tk == DPD_READ ? 2 : gen_pick(g->src, 3);
	bool rb = tk == DPD_PAST ? g->hash_piece : form == 2 || tk || gen_bool(g->src, 50);
	unsigned step = 1u << gen_pick(g->src, 4);
	int l_skip = gi_label(g);
	struct gi_sub *f;

	if (m < 0 || g->raw_tp)
		return;
	f = &g->subs[s];
	f->called = g->subs[m].called = true;
	f->dp_sub = form == 0 ? 1 : form == 1 ? DPS_MAKE : DPS_FREE;
	f->dp_rb = rb;
	f->dp_twin = tk == DPD_PAST ? DPS_PAST : 0;
	f->dp_always = gen_bool(g->src, 50);
	f->dp_step = (uint8_t)step;
	f->dp_op = tk == DPD_PAST ? 1 : (uint8_t)gen_pick(g->src, 3);
	f->dp_size = tk == DPD_PAST ? 64 : gen_u32(g->src, 1, 64);
	f->dp_off = tk == DPD_PAST ? 64 - step : gen_u32(g->src, 0, 64);
	f->dp_key = tk == DPD_PAST ? GEN_MAP_ENTRIES - 1 : (uint8_t)gen_pick(g->src, GEN_MAP_ENTRIES);
	g->subs[m].dp_sub = DPS_RELAY;
	g->subs[m].dp_callee = (int8_t)s;
	g->use_ringbuf = g->use_ringbuf || rb;
	g->use_map = g->use_map || !rb;
	if (form != 1)	/* main's own dynptr first (discarded at once: the twin) */
		main_dynptr(g, f, rb, tk == DPD_AFTER, l_skip);
	make_sub_call(g, f, g->subs[m].label, form == 1 && !rb, form == 1 || tk == DPD_READ,
		      l_skip);
	/* main's record, or the one f reserved: submitted or discarded by a packet byte (the
	 * leak twin: neither, always or when the byte is odd) */
	if (rb && form != 2 && tk != DPD_AFTER && !(tk == DPD_LEAK && f->dp_always)) {
		input_bit(g, BPF_REG_6);
		sub_release(g, BPF_REG_6, GEN_FP_DYNPTR, tk == DPD_LEAK ? DPS_LEAK : 0, false);
	}
	gi_bind(g, l_skip);
	g->p->shapes |= GEN_SH(SUBPROG) | GEN_SH(CALL_PTR) | GEN_SH(HELPER);
	if (tk)
		g->p->flags |= tk == DPD_PAST ? GEN_PROG_DYNPTR_PAST : GEN_PROG_DYNPTR_LEAK;
}

/* ---- p_dynptr_cb_make and its unsafe twin p_dynptr_cb_make_unsafe ----
 *
 * A bpf_loop callback makes or releases its caller's dynptr through its context pointer (the
 * prologue, after the other call pieces): bpf_loop(nr, cb, &d, 0), nr in 1..8 (not 0: this
 * kernel then reports a bug of its own, "No program to jit", for the callback that makes a
 * record: `fuzz --kernel --seed 2104`, program 29), d at GEN_FP_DYNPTR.  A third of the time
 * bpf_for_each_map_elem(map 0, cb, &d, 0) instead, over its GEN_MAP_ENTRIES values (not over a
 * hash map, p_map_hash, whose elements may be fewer than two): cb(map, key, value, p), its key
 * for the index.  Each call of the callback finds d where the last one left it.  The forms: main
 * reserves a record, and cb(i, p) discards it and reserves a new one of dp_size bytes in its
 * place, then uses it as p_dynptr_sub's f does; main submits or discards it after the loop by a
 * packet byte.  Or cb reserves a record in main's d, uses it and submits it (odd i) or discards
 * it before it returns.  Or cb makes a local dynptr over a map value in main's d and uses it
 * (main does not).  The twins (GEN_PROG_DYNPTR_LEAK, INTERP_TRAP_REF: nr in 2..8, so a second
 * call finds what the first left): cb discards main's record and nothing more (the second call
 * discards a released one), or cb reserves a record in main's d and leaves it (the second call
 * reserves over it); the kernel refuses both (it also walks the path where cb runs no time). */
void gi_dynptr_cb_make_call(struct gi *g, bool twin)
{
	int s = gi_sub_new(g, SUBK_CALLBACK, 2), l_skip = gi_label(g);
	uint8_t tk = twin ? (uint8_t)gen_u32(g->src, DPC_DROP, DPC_KEEP) : 0;
	unsigned form = tk == DPC_DROP ? DPC_SWAP : tk == DPC_KEEP ? DPC_OWN : gen_pick(g->src, 3);
	unsigned nr = gen_u32(g->src, tk ? 2 : 1, 8);
	bool each = !g->hash_piece && gen_pick(g->src, 3) == 0;
	struct gi_sub *f;

	if (!(f = cb_open(g, s, DPS_CB_MAKE, 0, false)))
		return;
	f->dp_each = each;
	f->dp_key_form = (uint8_t)form;
	f->dp_rb = form != DPC_LOCAL;
	f->dp_twin = tk;
	f->cb_nr = each ? GEN_MAP_ENTRIES : nr;
	f->cb_steps = 64;
	g->use_ringbuf = g->use_ringbuf || form != DPC_LOCAL;
	g->use_map = g->use_map || form == DPC_LOCAL || each;
	if (form == DPC_SWAP)
		main_dynptr(g, f, true, false, l_skip);
	cb_call(g, f, each, nr);
	piece_end(g, form == DPC_SWAP && !tk, l_skip,
		  GEN_SH(BPF_LOOP) | GEN_SH(CALL_PTR) | GEN_SH(HELPER), tk ? GEN_PROG_DYNPTR_LEAK : 0);
}

/* Main's test of f's result r0: to l_end when it is not 0 (nz), else when it is; with
 * p_dynptr_keyed_test, signed (-1 the other result: `s< 0` is "not 0") or on a copy in r6. */
static void keyed_test(struct gi *g, const struct gi_sub *f, bool nz, int l_end)
{
	int r = BPF_REG_0;

	if (gen_bool(g->src, g->k->p_dynptr_keyed_test)) {
		if (f->dp_always && gen_bool(g->src, 50)) {
			gi_jmp(g, true, nz ? BPF_JSLT : BPF_JSGE, BPF_REG_0, 0, l_end);
			return;
		}
		gi_alux(g, true, BPF_MOV, BPF_REG_6, BPF_REG_0);
		r = BPF_REG_6;
	}
	gi_jmp(g, f->dp_always, nz ? BPF_JNE : BPF_JEQ, r, 0, l_end);
}

/* ---- p_dynptr_keyed and its unsafe twin p_dynptr_keyed_unsafe ----
 *
 * A static subprogram makes or releases its caller's dynptr on some paths only and says which by
 * its result (the prologue, after the other call pieces): f(&d, x), x a packet bit, reserves
 * main's record at GEN_FP_DYNPTR when x is 1 and uses it as p_dynptr_sub's f does, returning 0,
 * else returns -1 in w0 (clang's `return -1` of an int) or 1 in r0; main then reads a byte of the
 * record and releases it by a packet byte only when f returned 0 (`if w0 != 0`, or r0).  Or main
 * reserves its record, f(&d, x) uses it and discards it when x is 1, returning 0, and main
 * releases it only when f returned non-zero (p_dynptr_keyed_test: the test signed, `if w0 s< 0`
 * for "not 0" when the other result is -1, or on a copy, `r6 = r0; if w6 != 0`).  The twins
 * (GEN_PROG_DYNPTR_LEAK, INTERP_TRAP_REF;
 * the kernel refuses both): main takes the other branch — releases a record f did not reserve
 * and leaks the one it did, or releases again the record f discarded. */
void gi_dynptr_keyed_call(struct gi *g, bool twin)
{
	int s = gi_sub_new(g, SUBK_CALLBACK, 2), l_skip = gi_label(g), l_end = gi_label(g);
	struct gi_sub *f = cb_open(g, s, DPS_MAYBE, 0, false);
	bool make;

	if (!f)
		return;
	make = gen_bool(g->src, 50);
	f->dp_key_form = make ? 0 : 1;
	f->dp_rb = true;
	f->dp_always = gen_bool(g->src, 50);	/* (the 32-bit result) */
	g->use_ringbuf = true;
	if (!make)
		main_dynptr(g, f, true, false, l_skip);
	input_bit(g, BPF_REG_2);
	fp_arg(g, BPF_REG_1, GEN_FP_DYNPTR);
	gi_call_sub(g, f->label);
	/* main's record is live where f returned 0 after a reserve, or non-zero without its
	 * discard: released there (the twin: on the other side) */
	keyed_test(g, f, make != twin, l_end);
	if (make && !twin)
		main_read_byte(g);
	input_bit(g, BPF_REG_6);
	sub_release(g, BPF_REG_6, GEN_FP_DYNPTR, 0, false);
	gi_bind(g, l_end);
	piece_end(g, false, l_skip, GEN_SH(SUBPROG) | GEN_SH(CALL_PTR) | GEN_SH(HELPER),
		  twin ? GEN_PROG_DYNPTR_LEAK : 0);
}

/* ---- p_dynptr_mid and its unsafe twin p_dynptr_mid_unsafe ----
 *
 * A middle function holding a dynptr of its own while it hands its caller's on (the prologue,
 * after the other call pieces): main makes its dynptr at GEN_FP_DYNPTR (a ringbuf record, or a
 * local dynptr over a map value) and calls m(&d, x), x a packet bit; m reserves a record of its
 * own frame, calls f(&d, x), which reads, slices or writes main's dynptr as p_dynptr_sub's f
 * does, then submits its own when x is 1, else discards it; main releases a record after the
 * call by a packet byte.  The twin (GEN_PROG_DYNPTR_LEAK, INTERP_TRAP_REF; the kernel refuses
 * it): m leaves its own record unreleased, always or when x is 1. */
void gi_dynptr_mid_call(struct gi *g, bool twin)
{
	int s = gi_sub_new(g, SUBK_CALLBACK, 2), m = s < 0 ? -1 : gi_sub_new(g, SUBK_CALLBACK, 2);
	int l_skip = gi_label(g);
	struct gi_sub *f = m < 0 ? NULL : cb_open(g, s, 1, 0, false), *mid;
	bool rb;

	if (!f)
		return;
	rb = gen_bool(g->src, 50);
	f->dp_rb = rb;
	mid = &g->subs[m];
	mid->called = true;
	mid->dp_sub = DPS_MID;
	mid->dp_callee = (int8_t)s;
	mid->dp_size = gen_u32(g->src, 1, 64);
	mid->dp_twin = twin ? DPS_LEAK : 0;
	mid->dp_always = gen_bool(g->src, 50);
	g->use_ringbuf = true;
	g->use_map = g->use_map || !rb;
	main_dynptr(g, f, rb, false, l_skip);
	input_bit(g, BPF_REG_2);
	fp_arg(g, BPF_REG_1, GEN_FP_DYNPTR);
	gi_call_sub(g, mid->label);
	piece_end(g, rb, l_skip, GEN_SH(SUBPROG) | GEN_SH(CALL_PTR) | GEN_SH(HELPER),
		  twin ? GEN_PROG_DYNPTR_LEAK : 0);
}

/* ---- p_dynptr_global and its unsafe twin p_dynptr_global_unsafe ----
 *
 * A global function given main's dynptr (the prologue, after the other call pieces): main makes
 * its dynptr at GEN_FP_DYNPTR (a ringbuf record, or a local dynptr over a map value), calls
 * g(&d) — `struct bpf_dynptr *` in its BTF prototype: the kernel verifies g on its own with a
 * read-only dynptr — which reads or slices it as p_dynptr_sub's f does (not writes: read-only),
 * and releases a record after the call by a packet byte.  The twins (the kernel refuses both):
 * main discards its record before the call (GEN_PROG_DYNPTR_LEAK, INTERP_TRAP_REF), or g loads
 * `step` bytes past a slice at the end of the last map value, or of the record over a hash map,
 * p_map_hash (GEN_PROG_DYNPTR_PAST, INTERP_TRAP_MEM). */
void gi_dynptr_global_call(struct gi *g, bool twin)
{
	int s = gi_sub_new(g, SUBK_CALLBACK, 1), l_skip = gi_label(g);
	uint8_t tk = twin ? (gen_bool(g->src, 50) ? DPS_AFTER : DPS_PAST) : 0;
	bool rb = tk == DPS_AFTER || (tk == DPS_PAST ? g->hash_piece : gen_bool(g->src, 50));
	struct gi_sub *f = cb_open(g, s, DPS_GLOBAL, 0, tk == DPS_PAST);

	if (!f)
		return;
	f->dp_rb = rb;
	f->dp_twin = tk == DPS_PAST ? DPS_PAST : 0;
	f->dp_op = tk == DPS_PAST ? 1 : f->dp_op % 2;
	f->global = 4;
	g->use_ringbuf = g->use_ringbuf || rb;
	g->use_map = g->use_map || !rb;
	main_dynptr(g, f, rb, tk == DPS_AFTER, l_skip);
	fp_arg(g, BPF_REG_1, GEN_FP_DYNPTR);
	gi_call_sub(g, f->label);
	piece_end(g, rb && tk != DPS_AFTER, l_skip,
		  GEN_SH(SUBPROG) | GEN_SH(CALL_PTR) | GEN_SH(HELPER),
		  !tk ? 0 : tk == DPS_PAST ? GEN_PROG_DYNPTR_PAST : GEN_PROG_DYNPTR_LEAK);
}

/* p_dynptr_global's prototype: g(struct bpf_dynptr *) returning an int. */
void gi_dynptr_global_proto(struct ebpf_global_func *gf)
{
	gf->nargs = 1;
	gf->args[0] = (struct ebpf_func_arg){ .kind = EBPF_FARG_PTR, .size = 16 };
	snprintf(gf->args[0].tname, sizeof(gf->args[0].tname), "bpf_dynptr");
}

/* ---- p_dynptr_kf and its unsafe twin p_dynptr_kf_unsafe: the dynptr kfuncs ----
 *
 * The last prologue loop: bpf_dynptr_from_xdp(ctx, 0, &d) (the context spilled at GEN_FP_DKF_CTX
 * by the prologue; d at GEN_FP_DYNPTR, a local dynptr of the packet), its size, is_null and
 * is_rdonly folded into r7, then one of: a loop i = 0 .. n - 1 taking bpf_dynptr_slice(&d,
 * i * step, buf or NULL, step), NULL-tested and read (past the packet's end it is NULL); d first
 * moved to [a, a + m) by bpf_dynptr_adjust, the loop's slices within m; d cloned to c
 * (GEN_FP_DKF_CLONE) and both sliced, the loop over c, c adjusted or not.  buf is 8 bytes at
 * GEN_FP_DKF_CTX (the context is not needed past the make).  The twins (the kernel refuses
 * each): a read of `step` bytes past each slice, the last one ending at the packet's end
 * (GEN_PROG_DYNPTR_PAST, INTERP_TRAP_MEM); a slice read without its NULL test, the loop going
 * past the packet's end (the same); a store through bpf_dynptr_slice's read-only result (the
 * same flag, no run can tell); a ringbuf dynptr cloned, the original discarded and the clone
 * read (GEN_PROG_DYNPTR_LEAK, INTERP_TRAP_REF: the clone shares the record released). */
enum { DKF_PAST, DKF_UNCHECKED, DKF_RO_WRITE, DKF_CLONE_AFTER };

/* A call of the dynptr kfunc name (its id in the running kernel's BTF). */
static void dkf_call(struct gi *g, const char *name)
{
	gi_emit(g, (struct bpf_insn){ .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_KFUNC_CALL,
				      .imm = ebpf_kfunc_by_name(name) });
}

/* r1 = &dynptr at off, then call the one-argument dynptr kfunc name; its result folded into r7 */
static void dkf_query(struct gi *g, int16_t off, const char *name)
{
	fp_arg(g, BPF_REG_1, off);
	dkf_call(g, name);
	gi_alux(g, true, BPF_XOR, BPF_REG_7, BPF_REG_0);
}

/* The loop over n slices of `step` bytes of the dynptr at off (r8 the index, r7 the sum); twin
 * as above (-1: none). */
static void dkf_loop(struct gi *g, int16_t off, unsigned n, unsigned step, bool buf, int twin,
		     uint32_t *body)
{
	int head = gi_label(g), next = gi_label(g);
	uint32_t at;

	gi_mov_const(g, BPF_REG_8, 0, true);
	gi_bind(g, head);
	at = g->len;
	fp_arg(g, BPF_REG_1, off);
	gi_alux(g, true, BPF_MOV, BPF_REG_2, BPF_REG_8);
	gi_alu(g, true, BPF_LSH, BPF_REG_2, (int32_t)__builtin_ctz(step));
	if (buf)
		fp_arg(g, BPF_REG_3, GEN_FP_DKF_CTX);
	else
		gi_mov_const(g, BPF_REG_3, 0, true);
	gi_mov_const(g, BPF_REG_4, step, true);
	dkf_call(g, "bpf_dynptr_slice");
	if (twin != DKF_UNCHECKED)
		gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, next);
	if (twin == DKF_RO_WRITE) {
		gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_8);
		gi_stx(g, size_code(step), BPF_REG_0, 0, BPF_REG_1);
	} else {
		gi_ldx(g, size_code(step), BPF_REG_1, BPF_REG_0,
		       (int16_t)(twin == DKF_PAST ? step : 0));
		gi_alux(g, true, BPF_ADD, BPF_REG_7, BPF_REG_1);
	}
	gi_bind(g, next);
	gi_alu(g, true, BPF_ADD, BPF_REG_8, 1);
	gi_jmp(g, false, BPF_JLT, BPF_REG_8, (int32_t)n, head);
	*body = g->len - at;
}

void gi_dynptr_kf(struct gi *g, bool twin)
{
	int tk = !twin ? -1 : (int)gen_pick(g->src, 4);
	unsigned step = 1u << gen_pick(g->src, 4), form = twin ? 0 : gen_pick(g->src, 3);
	/* (the past twin's last slice ends at the packet's end; the unchecked one goes past it) */
	unsigned n = tk == DKF_PAST ? GEN_INPUT_LEN / step
		     : tk == DKF_UNCHECKED ? GEN_INPUT_LEN / step + gen_u32(g->src, 1, 4)
		     : gen_u32(g->src, 1, GEN_INPUT_LEN / step + 2);
	unsigned a = gen_u32(g->src, 0, 8), m = gen_u32(g->src, step, 48);
	bool buf = gen_bool(g->src, 50);
	int l_first = gi_label(g), l_end = gi_label(g);
	uint32_t first, body = 0;

	if (g->raw_tp || g->niters == GI_MAX_ITERS || ebpf_kfunc_by_name("bpf_dynptr_from_xdp") <= 0)
		return;
	gi_bind(g, l_first);
	first = g->len;
	gi_mov_const(g, BPF_REG_7, 0, true);
	if (tk == DKF_CLONE_AFTER) {
		/* d a ringbuf dynptr, cloned; d discarded, then the clone read */
		gi_ld_map(g, BPF_REG_1, GEN_MAP_RINGBUF);
		gi_mov_const(g, BPF_REG_2, gen_u32(g->src, 1, 64), true);
		gi_mov_const(g, BPF_REG_3, 0, true);
		fp_arg(g, BPF_REG_4, GEN_FP_DYNPTR);
		gi_call_helper(g, BPF_FUNC_ringbuf_reserve_dynptr);
		g->use_ringbuf = true;
		fp_arg(g, BPF_REG_1, GEN_FP_DYNPTR);
		fp_arg(g, BPF_REG_2, GEN_FP_DKF_CLONE);
		dkf_call(g, "bpf_dynptr_clone");
		fp_arg(g, BPF_REG_1, GEN_FP_DYNPTR);
		gi_mov_const(g, BPF_REG_2, 0, true);
		gi_call_helper(g, BPF_FUNC_ringbuf_discard_dynptr);
		gi_st(g, BPF_DW, EBPF_REG_FP, GEN_FP_DKF_CTX, 0);
		fp_arg(g, BPF_REG_1, GEN_FP_DKF_CTX);
		gi_mov_const(g, BPF_REG_2, 1, true);
		fp_arg(g, BPF_REG_3, GEN_FP_DKF_CLONE);
		gi_mov_const(g, BPF_REG_4, 0, true);
		gi_mov_const(g, BPF_REG_5, 0, true);
		gi_call_helper(g, BPF_FUNC_dynptr_read);
		fp_arg(g, BPF_REG_1, GEN_FP_DKF_CLONE);
		gi_mov_const(g, BPF_REG_2, 0, true);
		gi_call_helper(g, BPF_FUNC_ringbuf_discard_dynptr);
		g->p->flags |= GEN_PROG_DYNPTR_LEAK;
		goto out;
	}
	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DKF_CTX);
	gi_mov_const(g, BPF_REG_2, 0, true);
	fp_arg(g, BPF_REG_3, GEN_FP_DYNPTR);
	dkf_call(g, "bpf_dynptr_from_xdp");
	gi_jmp(g, false, BPF_JNE, BPF_REG_0, 0, l_end);
	dkf_query(g, GEN_FP_DYNPTR, "bpf_dynptr_size");
	dkf_query(g, GEN_FP_DYNPTR, "bpf_dynptr_is_null");
	dkf_query(g, GEN_FP_DYNPTR, "bpf_dynptr_is_rdonly");
	if (form == 1) {	/* d's view moved to [a, a + m): slices within m */
		fp_arg(g, BPF_REG_1, GEN_FP_DYNPTR);
		gi_mov_const(g, BPF_REG_2, a, true);
		gi_mov_const(g, BPF_REG_3, a + m, true);
		dkf_call(g, "bpf_dynptr_adjust");
		gi_jmp(g, false, BPF_JNE, BPF_REG_0, 0, l_end);
		n = m / step;
	}
	if (form == 2) {	/* d cloned to c; the clone maybe moved by 1; both sliced */
		fp_arg(g, BPF_REG_1, GEN_FP_DYNPTR);
		fp_arg(g, BPF_REG_2, GEN_FP_DKF_CLONE);
		dkf_call(g, "bpf_dynptr_clone");
		if (gen_bool(g->src, 50)) {
			fp_arg(g, BPF_REG_1, GEN_FP_DKF_CLONE);
			gi_mov_const(g, BPF_REG_2, 1, true);
			gi_mov_const(g, BPF_REG_3, GEN_INPUT_LEN, true);
			dkf_call(g, "bpf_dynptr_adjust");
		}
		dkf_query(g, GEN_FP_DKF_CLONE, "bpf_dynptr_size");
		fp_arg(g, BPF_REG_1, GEN_FP_DYNPTR);
		gi_mov_const(g, BPF_REG_2, 0, true);
		gi_mov_const(g, BPF_REG_3, 0, true);
		gi_mov_const(g, BPF_REG_4, 2, true);
		dkf_call(g, "bpf_dynptr_slice");
		gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, l_end);
		gi_ldx(g, BPF_H, BPF_REG_1, BPF_REG_0, 0);
		gi_alux(g, true, BPF_ADD, BPF_REG_7, BPF_REG_1);
	}
	dkf_loop(g, form == 2 ? GEN_FP_DKF_CLONE : GEN_FP_DYNPTR, n ? n : 1, step, buf, tk, &body);
	if (tk >= 0)
		g->p->flags |= GEN_PROG_DYNPTR_PAST;
out:
	gi_bind(g, l_end);
	g->iter_label[g->niters] = l_first;
	g->iter_steps[g->niters++] = (g->len - first) + (uint64_t)(n ? n : 1) * body + 8;
}
