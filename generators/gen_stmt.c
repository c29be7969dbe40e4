/* Loop-body statements: accumulator updates from induction variables, exits (break, break out
 * of several loops, return), continue, stack-array and map-value accesses indexed by masked
 * induction variables, IV-indexed packet reads behind their own data_end check, helper and
 * bpf-to-bpf calls, and inner loops changing an outer loop's variables.
 *
 * Each statement keeps to the register discipline of gen_internal.h and to what the kernel
 * checks: indexes are masked so every access stays inside its region, map values are used after
 * a null check, packet pointers moved by a variable are compared against data_end again before
 * the read, and homes in r1-r5 are spilled and filled around every call.
 */
#include "generators/gen_internal.h"

static uint64_t wmask(unsigned w)
{
	return w >= 64 ? UINT64_MAX : (1ull << w) - 1;
}

/* An induction variable in scope: this loop's counter or derived value, or an outer counter. */
static int pick_iv(struct gi *g, const struct gi_loop *lp)
{
	int cand[GI_MAX_OPEN + 3], n = 0;

	cand[n++] = lp->ctr;
	if (lp->dvar >= 0)
		cand[n++] = lp->dvar;
	for (int i = lp->parent; i >= 0; i = g->open[i].parent)
		cand[n++] = g->open[i].ctr;
	if (g->fn->sub)
		cand[n++] = g->fn->arg_a;
	/* Half the time the innermost counter: the accesses that matter most to an analysis. */
	return gen_bool(g->src, 50) ? lp->ctr : cand[gen_pick(g->src, (uint32_t)n)];
}

static void note_call(struct gi *g, struct gi_loop *lp)
{
	if (g->fn->caller_homes)
		lp->shapes |= GEN_SH(SPILL_CALL);
}

int gi_emit_cond_jump(struct gi *g, struct gi_loop *lp, int label, bool allow_helper, int kind)
{
	bool sub = g->fn->sub;
	int r;

	/* Helper results decide branches only where helper calls are wanted at all. */
	if (kind == COND_ANY)
		kind = (int)gen_pick(g->src, allow_helper && !sub && g->k->p_call ? 4 : 3);
	switch (kind) {
	case COND_INPUT:
		if (sub) {
			r = gi_var_read(g, g->fn->arg_a);
		} else {
			r = gi_scratch(g);
			gi_ldx(g, BPF_DW, r, EBPF_REG_FP, GEN_FP_DATA);
			gi_ldx(g, BPF_B, r, r, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
		}
		if (gen_bool(g->src, 50))
			gi_jmp(g, false, BPF_JSET, r, 1 << gen_pick(g->src, 8), label);
		else
			gi_jmp(g, false, BPF_JGT, r, (int32_t)gen_u32(g->src, 0, 255), label);
		break;
	case COND_COUNTER: {
		/* A value the counter takes, so the branch is taken on some iteration. */
		uint64_t v = lp->init.base + gen_u32(g->src, 0, 5) * lp->step;

		r = gi_var_read(g, lp->ctr);
		switch (gen_pick(g->src, 3)) {
		case 0:
			gi_jmp(g, false, BPF_JSET, r, 1 << gen_pick(g->src, 4), label);
			break;
		case 1:
			gi_jmp(g, true, BPF_JEQ, r, (int32_t)(uint32_t)v, label);
			break;
		default:
			gi_jmp(g, lp->cw == 32, gen_bool(g->src, 50) ? BPF_JSGT : BPF_JGT, r,
			       (int32_t)(uint32_t)v, label);
			break;
		}
		break;
	}
	case COND_ACC:
		r = gi_var_read(g, g->fn->acc);
		gi_jmp(g, false, BPF_JSET, r, 1 << gen_pick(g->src, 8), label);
		break;
	default:
		gi_spill_caller_homes(g);
		gi_call_helper(g, gen_bool(g->src, 70) ? BPF_FUNC_get_prandom_u32
						       : BPF_FUNC_ktime_get_ns);
		gi_fill_caller_homes(g);
		note_call(g, lp);
		lp->shapes |= GEN_SH(HELPER);
		gi_jmp(g, false, BPF_JSET, BPF_REG_0, 1 << gen_pick(g->src, 8), label);
		break;
	}
	gi_scratch_release(g);
	return kind;
}

void gi_stmt_acc(struct gi *g, struct gi_loop *lp)
{
	static const uint8_t ops[] = { BPF_ADD, BPF_XOR, BPF_SUB, BPF_OR };
	int acc = g->fn->acc, v, r, t;

	gi_scratch_release(g);
	if (!lp) {
		gi_var_add_const(g, acc, gen_u32(g->src, 1, 1000));
		gi_scratch_release(g);
		return;
	}
	v = pick_iv(g, lp);
	switch (gen_pick(g->src, 5)) {
	case 0:
	case 1:
		r = gi_var_read(g, v);
		gi_var_alux(g, acc, ops[gen_pick(g->src, 4)], r);
		break;
	case 2:	/* a derived value computed from an IV: c * k + e */
		t = gi_var_copy(g, v);
		gi_alu(g, true, BPF_MUL, t, (int32_t)gen_u32(g->src, 2, 9));
		gi_alu(g, true, BPF_ADD, t, (int32_t)gen_u32(g->src, 0, 100) - 50);
		gi_var_alux(g, acc, BPF_ADD, t);
		break;
	case 3: {
		static const uint8_t sh[] = { BPF_LSH, BPF_RSH, BPF_ARSH };

		t = gi_var_copy(g, v);
		gi_alu(g, gen_bool(g->src, 70), sh[gen_pick(g->src, 3)], t,
		       (int32_t)gen_u32(g->src, 1, 7));
		gi_var_alux(g, acc, ops[gen_pick(g->src, 4)], t);
		break;
	}
	default:
		if (g->fn->sub) {
			r = gi_var_read(g, g->fn->arg_b);
		} else {
			r = gi_scratch(g);
			gi_ldx(g, BPF_DW, r, EBPF_REG_FP, GEN_FP_DATA);
			gi_ldx(g, BPF_H, r, r, (int16_t)(2 * gen_pick(g->src, GEN_INPUT_LEN / 2)));
		}
		gi_var_alux(g, acc, BPF_ADD, r);
		break;
	}
	gi_scratch_release(g);
}

/* p_ptr_alu: a number taken from pointers by ALU forms the kernel accepts of a privileged
 * loader, added to the accumulator: (r10 + k) - r10, (data + j) - data, (k + r10) - r10 (a
 * scalar plus a pointer), the 32-bit difference of two stack pointers, a 32-bit subtraction from
 * r10 (a scalar then, cleared).  Its twin p_ptr_alu_bad (GEN_PROG_PTR_ALU_UNSAFE) takes a form
 * adjust_ptr_min_max_vals refuses: a subtraction from a stack pointer, a 32-bit addition, a
 * bitwise and, a multiplication or a shift of a pointer, pointer + pointer, a scalar less a
 * pointer, an offset of 2^29.  Every value added is the same in every run and in the kernel
 * (no address reaches the accumulator); runs do not trap. */
void gi_stmt_ptr_alu(struct gi *g)
{
	bool twin = g->k->p_ptr_alu_bad && (!g->k->p_ptr_alu || gen_bool(g->src, 50));
	int32_t k = -8 * (int32_t)gen_u32(g->src, 1, 8);
	int a, b;

	gi_scratch_release(g);
	a = gi_scratch(g);
	b = gi_scratch(g);
	switch (twin ? 5 + gen_pick(g->src, 8) : gen_pick(g->src, 5)) {
	case 0:		/* (r10 + k) - r10 */
		gi_alux(g, true, BPF_MOV, a, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, a, k);
		gi_alux(g, true, BPF_MOV, b, EBPF_REG_FP);
		gi_alux(g, true, BPF_SUB, a, b);
		break;
	case 1:		/* (data + j) - data */
		gi_ldx(g, BPF_DW, a, EBPF_REG_FP, GEN_FP_DATA);
		gi_alu(g, true, BPF_ADD, a, (int32_t)gen_pick(g->src, GEN_INPUT_LEN));
		gi_ldx(g, BPF_DW, b, EBPF_REG_FP, GEN_FP_DATA);
		gi_alux(g, true, BPF_SUB, a, b);
		break;
	case 2:		/* (k + r10) - r10 */
		gi_mov_const(g, a, (uint64_t)(int64_t)k, true);
		gi_alux(g, true, BPF_ADD, a, EBPF_REG_FP);
		gi_alux(g, true, BPF_MOV, b, EBPF_REG_FP);
		gi_alux(g, true, BPF_SUB, a, b);
		break;
	case 3:		/* w(r10 + k) - w(r10) */
		gi_alux(g, true, BPF_MOV, a, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, a, k);
		gi_alux(g, true, BPF_MOV, b, EBPF_REG_FP);
		gi_alux(g, false, BPF_SUB, a, b);
		break;
	case 4:		/* w(r10) - 8: a scalar, cleared */
		gi_alux(g, true, BPF_MOV, a, EBPF_REG_FP);
		gi_alu(g, false, BPF_SUB, a, 8);
		gi_alu(g, true, BPF_AND, a, 0);
		break;
	case 5:		/* (r10 - -k) - r10: subtraction from a stack pointer */
		gi_alux(g, true, BPF_MOV, a, EBPF_REG_FP);
		gi_alu(g, true, BPF_SUB, a, -k);
		gi_alux(g, true, BPF_MOV, b, EBPF_REG_FP);
		gi_alux(g, true, BPF_SUB, a, b);
		break;
	case 6:		/* w(r10) + 8, cleared */
		gi_alux(g, true, BPF_MOV, a, EBPF_REG_FP);
		gi_alu(g, false, BPF_ADD, a, 8);
		gi_mov_const(g, a, 0, true);
		break;
	case 7:		/* ((r10 + k) & -16) - r10 (r10 is 16-aligned in every run) */
		gi_alux(g, true, BPF_MOV, a, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, a, k);
		gi_alu(g, true, BPF_AND, a, -16);
		gi_alux(g, true, BPF_MOV, b, EBPF_REG_FP);
		gi_alux(g, true, BPF_SUB, a, b);
		break;
	case 8:		/* data + r10, cleared */
		gi_ldx(g, BPF_DW, a, EBPF_REG_FP, GEN_FP_DATA);
		gi_alux(g, true, BPF_MOV, b, EBPF_REG_FP);
		gi_alux(g, true, BPF_ADD, a, b);
		gi_mov_const(g, a, 0, true);
		break;
	case 9:		/* k - r10, cleared */
		gi_mov_const(g, a, (uint64_t)(int64_t)k, true);
		gi_alux(g, true, BPF_MOV, b, EBPF_REG_FP);
		gi_alux(g, true, BPF_SUB, a, b);
		gi_mov_const(g, a, 0, true);
		break;
	case 10:	/* r10 * 2, cleared */
		gi_alux(g, true, BPF_MOV, a, EBPF_REG_FP);
		gi_alu(g, true, BPF_MUL, a, 2);
		gi_mov_const(g, a, 0, true);
		break;
	case 11:	/* data >> 1, cleared */
		gi_ldx(g, BPF_DW, a, EBPF_REG_FP, GEN_FP_DATA);
		gi_alu(g, true, BPF_RSH, a, 1);
		gi_mov_const(g, a, 0, true);
		break;
	default:	/* (r10 + 2^29) - r10 */
		gi_alux(g, true, BPF_MOV, a, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, a, 1 << 29);
		gi_alux(g, true, BPF_MOV, b, EBPF_REG_FP);
		gi_alux(g, true, BPF_SUB, a, b);
		break;
	}
	gi_var_alux(g, g->fn->acc, BPF_ADD, a);
	gi_scratch_release(g);
	if (twin)
		g->p->flags |= GEN_PROG_PTR_ALU_UNSAFE;
}

static void stmt_break(struct gi *g, struct gi_loop *lp)
{
	struct gi_loop *target = lp;
	int depth = 0;

	if (lp->parent >= 0 && gen_bool(g->src, g->k->p_break_outer)) {
		for (int i = lp->parent; i >= 0; i = g->open[i].parent)
			depth++;
		depth = (int)gen_u32(g->src, 1, (uint32_t)depth);
		for (int i = 0; i < depth; i++)
			target = &g->open[target->parent];
	}
	if (gi_emit_cond_jump(g, lp, target->l_exit, true, COND_ANY) == COND_INPUT)
		lp->has_break_stmt = true;
	for (struct gi_loop *x = lp;; x = &g->open[x->parent]) {
		x->early_exit = true;
		if (x == target)
			break;
	}
	lp->skip = true;
	lp->shapes |= GEN_SH(BREAK) | (target != lp ? GEN_SH(BREAK_OUTER) : 0);
}

static void stmt_return(struct gi *g, struct gi_loop *lp)
{
	int l_skip = gi_label(g);

	gi_emit_cond_jump(g, lp, l_skip, true, COND_ANY);
	gi_var_to_reg(g, g->fn->acc, BPF_REG_0);	/* nothing when it lives in r0 */
	gi_exit(g);
	gi_bind(g, l_skip);
	for (int i = 0; i < g->nopen; i++)
		g->open[i].early_exit = true;
	lp->skip = true;
	g->main_reach_lost |= !g->fn->sub;
	lp->shapes |= GEN_SH(RETURN);
}

/* fp-320 + (iv & 7) * 8, or 4-byte or 1-byte elements: an indirect write or a read. */
static void stmt_array(struct gi *g, struct gi_loop *lp)
{
	static const uint8_t size[] = { BPF_DW, BPF_W, BPF_B };
	static const int32_t mask[] = { 7, 15, 63 }, shift[] = { 3, 2, 0 };
	unsigned k = gen_pick(g->src, 3);
	int t, p, v;

	t = gi_var_copy(g, pick_iv(g, lp));
	gi_alu(g, true, BPF_AND, t, mask[k]);
	if (shift[k])
		gi_alu(g, true, BPF_LSH, t, shift[k]);
	p = gi_scratch(g);
	gi_alux(g, true, BPF_MOV, p, EBPF_REG_FP);
	gi_alux(g, true, BPF_ADD, p, t);
	if (gen_bool(g->src, g->k->p_indirect_write)) {
		v = gi_var_read(g, gen_bool(g->src, 50) ? lp->ctr : g->fn->acc);
		gi_stx(g, size[k], p, GEN_FP_ARRAY, v);
		lp->shapes |= GEN_SH(INDIRECT_WRITE);
	} else {
		gi_ldx(g, size[k], t, p, GEN_FP_ARRAY);
		gi_var_alux(g, g->fn->acc, BPF_ADD, t);
		lp->shapes |= GEN_SH(ARRAY_READ);
	}
	gi_scratch_release(g);
}

/* r0 = lookup(map, key), the key being (iv & mask) | or, homes in r1-r5 spilled around the
 * call; with put_in, the element is put in first (update(map, key, the stack array, BPF_ANY)). */
static void map_lookup(struct gi *g, struct gi_loop *lp, int idx, int32_t mask, int32_t or,
		       bool put_in)
{
	int t = gi_var_copy(g, idx);

	gi_alu(g, true, BPF_AND, t, mask);
	if (or)
		gi_alu(g, true, BPF_OR, t, or);
	gi_stx(g, BPF_W, EBPF_REG_FP, GEN_FP_KEY, t);
	gi_scratch_release(g);
	gi_spill_caller_homes(g);
	if (put_in)
		gi_map0_update(g, BPF_ANY);
	gi_ld_map(g, BPF_REG_1, 0);
	gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_2, GEN_FP_KEY);
	gi_call_helper(g, BPF_FUNC_map_lookup_elem);
	gi_fill_caller_homes(g);
	note_call(g, lp);
	g->scratch_busy = 1u << BPF_REG_0;
}

/* value = lookup(map, iv & 3); if (value) acc += value[iv & 7] (and maybe value[..] = c).
 * p_null_copy: the key is iv & 7 (NULL for 4-7) and the result is copied to another register,
 * or spilled to fp-240 and filled, and the null check and the accesses go through different
 * copies (the kernel's register ids settle them all).  p_null_stale, its unsafe twin: the
 * result of a first lookup with key iv & 7 is spilled, and after a second lookup only the
 * second result is checked before the first is filled and read.  Over a hash map (p_map_hash,
 * which starts empty and may hold keys 4-7), the first key is (iv & 7) | 8, which nothing
 * inserts, and the second key's element is put in first (the stack array holds its value:
 * the hash piece wrote it), so that every run reaching the twin reads through NULL, as an
 * array's runs do at keys 4-7. */
static void stmt_map(struct gi *g, struct gi_loop *lp)
{
	int idx = pick_iv(g, lp), l_skip = gi_label(g), t, u, v = BPF_REG_0, c = BPF_REG_0;
	/* r0, the index, the loaded value, the accumulator's fill and a copy */
	bool room = gi_scratch_free(g) >= 5;
	bool copy = room && gen_bool(g->src, g->k->p_null_copy);
	/* (the stale read only where the kernel's walk goes: else a twin it accepts) */
	bool stale = room && !copy && gi_kernel_reaches(g) && gen_bool(g->src, g->k->p_null_stale);
	unsigned form = copy ? gen_pick(g->src, 3) : 0;
	bool hash = stale && g->hash_piece;

	if (stale) {
		map_lookup(g, lp, idx, 7, hash ? 8 : 0, false);
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_VALUE, BPF_REG_0);
		gi_scratch_release(g);
		lp->shapes |= GEN_SH(NULL_STALE);
		g->p->flags |= GEN_PROG_NULL_UNSAFE;
	}
	map_lookup(g, lp, idx, copy ? 7 : GEN_MAP_ENTRIES - 1, 0, hash);
	if (copy) {
		lp->shapes |= GEN_SH(NULL_COPY);
		if (form == 0) {	/* check r0, access through a register copy */
			v = gi_scratch(g);
			gi_alux(g, true, BPF_MOV, v, BPF_REG_0);
		} else {	/* spilled; check the fill (1) or r0, then access a new fill (2) */
			gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_VALUE, BPF_REG_0);
			if (form == 1) {
				c = gi_scratch(g);
				gi_ldx(g, BPF_DW, c, EBPF_REG_FP, GEN_FP_VALUE);
			}
		}
	}
	gi_jmp(g, false, BPF_JEQ, c, 0, l_skip);
	if (form == 2 || stale) {
		v = gi_scratch(g);
		gi_ldx(g, BPF_DW, v, EBPF_REG_FP, GEN_FP_VALUE);
	}
	t = gi_var_copy(g, idx);
	gi_alu(g, true, BPF_AND, t, GEN_MAP_VALUE_SIZE / 8 - 1);
	gi_alu(g, true, BPF_LSH, t, 3);
	gi_alux(g, true, BPF_ADD, v, t);
	u = gi_scratch(g);
	gi_ldx(g, BPF_DW, u, v, 0);
	gi_var_alux(g, g->fn->acc, BPF_ADD, u);
	if (gen_bool(g->src, 50)) {
		gi_var_to_reg(g, lp->ctr, t);
		gi_stx(g, BPF_DW, v, 0, t);
	}
	gi_bind(g, l_skip);
	gi_scratch_release(g);
	lp->shapes |= GEN_SH(MAP);
}

/* p = data + (iv & m); if (p + size <= data_end) acc += *p. */
static void stmt_pkt(struct gi *g, struct gi_loop *lp)
{
	static const uint8_t size[] = { BPF_B, BPF_H, BPF_W, BPF_DW };
	static const int32_t mask[] = { 63, 62, 60, 56 };
	unsigned k = gen_pick(g->src, 4);
	int l_skip = gi_label(g), p, t, e;

	p = gi_scratch(g);
	gi_ldx(g, BPF_DW, p, EBPF_REG_FP, GEN_FP_DATA);
	t = gi_var_copy(g, pick_iv(g, lp));
	gi_alu(g, true, BPF_AND, t, mask[k]);
	gi_alux(g, true, BPF_ADD, p, t);
	e = gi_scratch(g);
	gi_ldx(g, BPF_DW, e, EBPF_REG_FP, GEN_FP_DATA_END);
	gi_alux(g, true, BPF_MOV, t, p);
	gi_alu(g, true, BPF_ADD, t, (int32_t)ebpf_size_bytes(size[k]));
	gi_jmpx(g, false, BPF_JGT, t, e, l_skip);
	gi_ldx(g, size[k], t, p, 0);
	gi_var_alux(g, g->fn->acc, BPF_ADD, t);
	gi_bind(g, l_skip);
	gi_scratch_release(g);
	lp->shapes |= GEN_SH(PKT);
}

/* bpf_probe_read_kernel(fp + GEN_FP_ARRAY + ((iv & 7) << 3), 8, data): a helper writes 8 bytes
 * of the stack array at an index the loop's variable chooses (p_helper_mem; the array is read
 * elsewhere, so what it wrote flows into the accumulator).  p_helper_mem_over, its unsafe twin:
 * the index steps by the array's depth, so index 0 writes a[0] and every other index at or past
 * the frame's top (nothing else of the frame is ever overwritten). */
static void stmt_helper_mem(struct gi *g, struct gi_loop *lp, bool over, bool zero)
{
	int t = gi_var_copy(g, pick_iv(g, lp));

	gi_alu(g, true, BPF_AND, t, 7);
	if (zero)	/* p_helper_zero: fp-512 .. fp-64; _over: fp+8 .. fp+456 */
		gi_alu(g, true, BPF_LSH, t, 6);
	else if (over)
		gi_alu(g, true, BPF_MUL, t, -GEN_FP_ARRAY);
	else
		gi_alu(g, true, BPF_LSH, t, 3);
	gi_alu(g, true, BPF_ADD, t, zero ? (over ? 8 : -512) : GEN_FP_ARRAY);
	gi_alux(g, true, BPF_ADD, t, EBPF_REG_FP);
	gi_spill_caller_homes(g);
	gi_alux(g, true, BPF_MOV, BPF_REG_1, t);
	gi_mov_const(g, BPF_REG_2, zero ? 0 : 8, true);
	gi_ldx(g, BPF_DW, BPF_REG_3, EBPF_REG_FP, GEN_FP_DATA);
	gi_call_helper(g, BPF_FUNC_probe_read_kernel);
	gi_fill_caller_homes(g);
	note_call(g, lp);
	g->scratch_busy = 1u << BPF_REG_0;
	gi_var_alux(g, g->fn->acc, BPF_XOR, BPF_REG_0);
	gi_scratch_release(g);
	lp->shapes |= GEN_SH(HELPER);
	if (over)
		g->p->flags |= GEN_PROG_HELPER_MEM_UNSAFE;
}

/* n = bpf_probe_read_kernel_str(a + ((iv & 3) << 4), 16, data); if (n s> 0) acc += a[((iv & 3)
 * << 4) + n - 1] (p_helper_str, a the stack array): the kernel bounds n by the size it was given
 * and by -MAX_ERRNO below (do_refine_retval_range), so the read stays in the 16 bytes the helper
 * wrote.  p_helper_str_neg, its unsafe twin: acc += a[((iv & 3) << 4) + n] with n unchecked:
 * the kernel refuses the read's variable offset (down to 4095 below the array); a run whose call
 * fails (a quarter of them: interp.c ret_within_size) reads below the frame or not written
 * bytes. */
static void stmt_helper_str(struct gi *g, struct gi_loop *lp, bool neg)
{
	int iv = pick_iv(g, lp), t, l_skip = gi_label(g);

	t = gi_var_copy(g, iv);
	gi_alu(g, true, BPF_AND, t, 3);
	gi_alu(g, true, BPF_LSH, t, 4);
	gi_alu(g, true, BPF_ADD, t, GEN_FP_ARRAY);
	gi_alux(g, true, BPF_ADD, t, EBPF_REG_FP);
	gi_spill_caller_homes(g);
	gi_alux(g, true, BPF_MOV, BPF_REG_1, t);
	gi_mov_const(g, BPF_REG_2, 16, true);
	gi_ldx(g, BPF_DW, BPF_REG_3, EBPF_REG_FP, GEN_FP_DATA);
	gi_call_helper(g, BPF_FUNC_probe_read_kernel_str);
	gi_fill_caller_homes(g);
	note_call(g, lp);
	g->scratch_busy = 1u << BPF_REG_0;
	if (!neg)
		gi_jmp(g, false, BPF_JSLT, BPF_REG_0, 1, l_skip);
	t = gi_var_copy(g, iv);
	gi_alu(g, true, BPF_AND, t, 3);
	gi_alu(g, true, BPF_LSH, t, 4);
	gi_alu(g, true, BPF_ADD, t, GEN_FP_ARRAY - (neg ? 0 : 1));
	gi_alux(g, true, BPF_ADD, t, EBPF_REG_FP);
	gi_alux(g, true, BPF_ADD, t, BPF_REG_0);
	gi_ldx(g, BPF_B, t, t, 0);
	gi_var_alux(g, g->fn->acc, BPF_XOR, t);
	gi_bind(g, l_skip);
	gi_scratch_release(g);
	lp->shapes |= GEN_SH(HELPER);
	if (neg)
		g->p->flags |= GEN_PROG_HELPER_MEM_UNSAFE;
}

/* e = bpf_ringbuf_reserve(&rb, GEN_RINGBUF_RECORD, 0); if (e) { e[iv & 1] = acc; submit or
 * discard e } (p_ringbuf): the NULL check on r0, a register copy or the fill of a spill to
 * fp-240, the record released before the statement ends (so never across a back edge).
 * p_ringbuf_leak, its unsafe twin: the release is skipped when the record's last byte (what the
 * ring held, unknown to the kernel; drawn from the helper data in a run) is odd, a reference the
 * kernel refuses at exit (a run traps INTERP_TRAP_REF when that happens); in half of them the
 * skipping path returns at once, so the only reserve reached while the record is held is none
 * and the leak is what the exit check must find (else the loop's next reserve comes first). */
static void stmt_ringbuf(struct gi *g, struct gi_loop *lp, bool leak)
{
	int idx, l_skip, c = BPF_REG_0, t, v;
	unsigned form;

	/* r0, a copy, the index, the pointer and the twin's test */
	if (gi_scratch_free(g) < 5)
		return gi_stmt_acc(g, lp);
	idx = pick_iv(g, lp);
	l_skip = gi_label(g);
	form = gen_pick(g->src, 3);
	gi_spill_caller_homes(g);
	gi_ld_map(g, BPF_REG_1, GEN_MAP_RINGBUF);
	gi_mov_const(g, BPF_REG_2, GEN_RINGBUF_RECORD, true);
	gi_mov_const(g, BPF_REG_3, 0, true);
	gi_call_helper(g, BPF_FUNC_ringbuf_reserve);
	gi_fill_caller_homes(g);
	note_call(g, lp);
	g->scratch_busy = 1u << BPF_REG_0;
	if (form == 1) {	/* checked through a register copy, released through it */
		c = gi_scratch(g);
		gi_alux(g, true, BPF_MOV, c, BPF_REG_0);
	} else if (form == 2) {	/* spilled, the fill checked */
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_VALUE, BPF_REG_0);
		c = gi_scratch(g);
		gi_ldx(g, BPF_DW, c, EBPF_REG_FP, GEN_FP_VALUE);
	}
	gi_jmp(g, false, BPF_JEQ, c, 0, l_skip);
	t = gi_var_copy(g, idx);
	gi_alu(g, true, BPF_AND, t, GEN_RINGBUF_RECORD / 8 - 1);
	gi_alu(g, true, BPF_LSH, t, 3);
	v = gi_scratch(g);
	gi_alux(g, true, BPF_MOV, v, BPF_REG_0);
	gi_alux(g, true, BPF_ADD, v, t);
	gi_var_to_reg(g, g->fn->acc, t);
	gi_stx(g, BPF_DW, v, 0, t);
	if (leak) {
		t = gi_scratch(g);
		gi_ldx(g, BPF_B, t, BPF_REG_0, GEN_RINGBUF_RECORD - 1);
		gi_alu(g, true, BPF_AND, t, 1);
		if (gen_bool(g->src, 50)) {	/* odd: return holding the record */
			int l_rel = gi_label(g);

			gi_jmp(g, false, BPF_JEQ, t, 0, l_rel);
			gi_mov_const(g, BPF_REG_0, 0, true);
			gi_exit(g);
			gi_bind(g, l_rel);
			for (int i = 0; i < g->nopen; i++)
				g->open[i].early_exit = true;
			lp->skip = true;
			lp->shapes |= GEN_SH(RETURN);
		} else {
			gi_jmp(g, false, BPF_JNE, t, 0, l_skip);
		}
		g->p->flags |= GEN_PROG_REF_UNSAFE;
	}
	gi_spill_caller_homes(g);
	gi_alux(g, true, BPF_MOV, BPF_REG_1, form == 1 ? c : BPF_REG_0);
	gi_mov_const(g, BPF_REG_2, 0, true);
	gi_call_helper(g, gen_bool(g->src, 50) ? BPF_FUNC_ringbuf_submit
					       : BPF_FUNC_ringbuf_discard);
	gi_fill_caller_homes(g);
	gi_bind(g, l_skip);
	gi_scratch_release(g);
	g->use_ringbuf = true;
	lp->shapes |= GEN_SH(HELPER);
}

static void stmt_helper(struct gi *g, struct gi_loop *lp)
{
	gi_spill_caller_homes(g);
	gi_call_helper(g, gen_bool(g->src, 50) ? BPF_FUNC_get_prandom_u32 : BPF_FUNC_ktime_get_ns);
	gi_fill_caller_homes(g);
	note_call(g, lp);
	g->scratch_busy = 1u << BPF_REG_0;
	gi_var_alux(g, g->fn->acc, gen_bool(g->src, 50) ? BPF_ADD : BPF_XOR, BPF_REG_0);
	gi_scratch_release(g);
	lp->shapes |= GEN_SH(HELPER);
}

/* A call of one of the subprograms this function may call from loop bodies. */
static void stmt_subcall(struct gi *g, struct gi_loop *lp)
{
	int a = pick_iv(g, lp), lo = g->fn->callee_lo;
	int s = lo + (int)gen_pick(g->src, (uint32_t)(g->fn->callee_hi - lo));

	gi_emit_call(g, s, a, lp);
	note_call(g, lp);
	if (g->subs[s].kind == SUBK_LEGACY)
		lp->shapes |= GEN_SH(SUBPROG);
}

/* An inner loop adds to its parent's counter (only when the parent provably still ends, see
 * gen_loop.c) or derived value (which then stops being an induction variable).  The unsafe twin
 * (p_outer_back, main only: endless loops stay where the campaign budgets whole runs) moves the
 * counter against the parent's direction, by 1-3 per inner iteration, where the parent's
 * progress per iteration then becomes a range that reaches zero or the wrong sign: finish() marks
 * the parent as a loop that may not end. */
static void stmt_outer_mod(struct gi *g, struct gi_loop *lp)
{
	struct gi_loop *pa = &g->open[lp->parent];
	bool back = !g->fn->sub && gen_bool(g->src, g->k->p_outer_back);

	if (back || (gen_bool(g->src, 60) && !lp->ev.nonterm && pa->cat != CAT_NONTERM)) {
		__int128 ps = (__int128)(int64_t)pa->step, d, total, c;
		struct gi_eval ev;

		if (pa->cw == 32)
			ps = (int32_t)(uint32_t)pa->step;
		d = ((ps > 0) != back ? 1 : -1) * (__int128)gen_u32(g->src, 1, 3);
		total = lp->mod_d + d;
		c = total * (__int128)(lp->ev.tmax > (1ull << 40) ? 1ull << 40 : lp->ev.tmax);
		gi_loop_eval(g, pa, pa->inc_lo + (c < 0 ? c : 0), pa->inc_hi + (c > 0 ? c : 0),
			     false, &ev);
		/* (the twin only where the parent then may not end: a range of the wrong sign
		 * alone may wrap after 2^63 iterations, which no budget marks) */
		if (back == ev.nonterm) {
			gi_var_add_const(g, pa->ctr, (uint64_t)d & wmask(pa->cw));
			gi_scratch_release(g);
			lp->mod_d = total;
			lp->mod_cond |= lp->skip;
			lp->shapes |= GEN_SH(OUTER_MOD) | GEN_SH(OUTER_MOD_CTR);
			return;
		}
	}
	if (pa->dvar >= 0) {
		gi_var_add_const(g, pa->dvar, gen_u32(g->src, 1, 9));
		gi_scratch_release(g);
		pa->d_iv = false;
		lp->shapes |= GEN_SH(OUTER_MOD);
		return;
	}
	gi_stmt_acc(g, lp);
}

void gi_gen_stmt(struct gi *g, struct gi_loop *lp)
{
	const struct gen_knobs *k = g->k;
	bool sub = g->fn->sub;
	int max_depth = sub ? (k->max_depth < 2 ? (int)k->max_depth : 2) : (int)k->max_depth;

	gi_scratch_release(g);
	if (lp->depth < max_depth && lp->child_remaining >= 2 && gi_room(g, 60) &&
	    gen_bool(g->src, k->p_nest)) {
		gi_gen_loop(g, LOOPK_ANY);
		return;
	}
	if (gen_bool(g->src, k->p_break))
		return stmt_break(g, lp);
	if (gen_bool(g->src, k->p_continue)) {
		gi_emit_cond_jump(g, lp, lp->l_cont, true, COND_ANY);
		lp->skip = true;
		lp->shapes |= GEN_SH(CONTINUE);
		return;
	}
	if (gen_bool(g->src, k->p_return))
		return stmt_return(g, lp);
	if (gen_bool(g->src, k->p_may_goto))
		return gi_stmt_may_goto(g, lp);
	if (!sub && (gen_bool(g->src, k->p_bpf_loop) || gen_bool(g->src, k->p_bpf_loop_unsafe)))
		return gi_stmt_bpf_loop(g, lp);
	if (!sub && (gen_bool(g->src, k->p_iter_num) || gen_bool(g->src, k->p_iter_num_unsafe)))
		return gi_stmt_iter(g, lp);
	if (!sub && (gen_bool(g->src, k->p_iter_bits) || gen_bool(g->src, k->p_iter_bits_unsafe)))
		return gi_stmt_bits(g, lp);
	if (!sub && (gen_bool(g->src, k->p_iter_task) || gen_bool(g->src, k->p_iter_task_unsafe)))
		return gi_stmt_task(g, lp);
	if (!sub && (gen_bool(g->src, k->p_for_each) || gen_bool(g->src, k->p_for_each_unsafe)))
		return gi_stmt_for_each(g, lp);
	if (!sub && (gen_bool(g->src, k->p_global) || gen_bool(g->src, k->p_global_unsafe)))
		return gi_stmt_global(g, lp);
	if (!sub && (gen_bool(g->src, k->p_urb) || gen_bool(g->src, k->p_urb_unsafe)))
		return gi_stmt_urb(g, lp);
	if (!sub && !g->raw_tp &&
	    (gen_bool(g->src, k->p_timer_loop) || gen_bool(g->src, k->p_timer_loop_null)))
		return gi_stmt_timer(g, lp);
	if (!sub && g->raw_tp && !g->sk_prog &&
	    (gen_bool(g->src, k->p_vma_loop) || gen_bool(g->src, k->p_vma_loop_bad)))
		return gi_stmt_find_vma(g, lp);
	/* (p_sk_prog's statement in a loop: a reuseport array's index from the packet) */
	if (!sub && g->sk_prog && gen_bool(g->src, 25))
		return gi_sk_stmt(g, lp);
	if (!sub && (gen_bool(g->src, k->p_dynptr) || gen_bool(g->src, k->p_dynptr_unsafe)))
		return gi_stmt_dynptr(g, lp);
	if (!sub && gen_bool(g->src, k->p_ringbuf))
		return stmt_ringbuf(g, lp, false);
	if (!sub && gen_bool(g->src, k->p_ringbuf_leak))
		return stmt_ringbuf(g, lp, true);
	if (!sub) {
		if (g->use_array && gen_bool(g->src, k->p_helper_mem))
			return stmt_helper_mem(g, lp, false, false);
		if (g->use_array && gen_bool(g->src, k->p_helper_mem_over))
			return stmt_helper_mem(g, lp, true, false);
		if (g->use_array && gen_bool(g->src, k->p_helper_str))
			return stmt_helper_str(g, lp, false);
		if (g->use_array && gen_bool(g->src, k->p_helper_str_neg))
			return stmt_helper_str(g, lp, true);
		if (gen_bool(g->src, k->p_helper_zero))
			return stmt_helper_mem(g, lp, false, true);
		if (gen_bool(g->src, k->p_helper_zero_over))
			return stmt_helper_mem(g, lp, true, true);
		if (g->use_array && gen_bool(g->src, 50))
			return stmt_array(g, lp);
		if (g->use_map && gen_bool(g->src, 40))
			return stmt_map(g, lp);
		if (g->use_pkt && gen_bool(g->src, 40))
			return stmt_pkt(g, lp);
		if (gen_bool(g->src, k->p_call))
			return stmt_helper(g, lp);
	}
	if (g->fn->callee_hi > g->fn->callee_lo && gen_bool(g->src, 40))
		return stmt_subcall(g, lp);
	if (lp->parent >= 0 && gen_bool(g->src, k->p_outer_mod))
		return stmt_outer_mod(g, lp);
	gi_stmt_acc(g, lp);
}
