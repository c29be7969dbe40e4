/* The emitter and the register discipline of gen_internal.h: instructions go into the program's
 * reusable buffer, jumps to labels are patched once the whole program is laid out, and
 * variables are read, copied, written and updated wherever their home is. */
#include <errno.h>
#include <string.h>

#include "generators/gen_internal.h"

void gi_emit(struct gi *g, struct bpf_insn insn)
{
	if (g->len >= g->cap) {
		if (!g->err)
			g->err = -E2BIG;
		return;
	}
	g->insns[g->len++] = insn;
}

int gi_label(struct gi *g)
{
	if (g->nlabels >= GI_MAX_LABELS) {
		if (!g->err)
			g->err = -ENOSPC;
		return 0;
	}
	g->label_pc[g->nlabels] = -1;
	return (int)g->nlabels++;
}

void gi_bind(struct gi *g, int label)
{
	g->label_pc[label] = (int32_t)g->len;
}

static void add_fix(struct gi *g, int label)
{
	if (g->nfix >= GI_MAX_FIXUPS) {
		if (!g->err)
			g->err = -ENOSPC;
		return;
	}
	g->fix[g->nfix++] = (struct gi_fix){ .pc = g->len, .label = (uint16_t)label };
}

static struct bpf_insn mk(uint8_t code, int dst, int src, int16_t off, int32_t imm)
{
	return (struct bpf_insn){ .code = code, .dst_reg = (uint8_t)dst, .src_reg = (uint8_t)src,
				  .off = off, .imm = imm };
}

void gi_alu(struct gi *g, bool is64, uint8_t op, int dst, int32_t imm)
{
	gi_emit(g, mk((is64 ? BPF_ALU64 : BPF_ALU) | op | BPF_K, dst, 0, 0, imm));
}

void gi_alux(struct gi *g, bool is64, uint8_t op, int dst, int src)
{
	gi_emit(g, mk((is64 ? BPF_ALU64 : BPF_ALU) | op | BPF_X, dst, src, 0, 0));
}

/* dst = v: mov when the immediate says it (sign-extended for 64, any pattern for 32), else
 * LD_IMM64. */
void gi_mov_const(struct gi *g, int dst, uint64_t v, bool is64)
{
	if (!is64 || gi_fits_s32(v)) {
		gi_alu(g, is64, BPF_MOV, dst, (int32_t)(uint32_t)v);
		return;
	}
	gi_emit(g, mk(BPF_LD | BPF_IMM | BPF_DW, dst, 0, 0, (int32_t)(uint32_t)v));
	gi_emit(g, mk(0, 0, 0, 0, (int32_t)(uint32_t)(v >> 32)));
}

void gi_ldx(struct gi *g, uint8_t size, int dst, int base, int16_t off)
{
	gi_emit(g, mk(BPF_LDX | BPF_MEM | size, dst, base, off, 0));
}

void gi_stx(struct gi *g, uint8_t size, int base, int16_t off, int src)
{
	gi_emit(g, mk(BPF_STX | BPF_MEM | size, base, src, off, 0));
}

void gi_st(struct gi *g, uint8_t size, int base, int16_t off, int32_t imm)
{
	gi_emit(g, mk(BPF_ST | BPF_MEM | size, base, 0, off, imm));
}

void gi_jmp(struct gi *g, bool j32, uint8_t op, int dst, int32_t imm, int label)
{
	add_fix(g, label);
	gi_emit(g, mk((j32 ? BPF_JMP32 : BPF_JMP) | op | BPF_K, dst, 0, 0, imm));
}

void gi_jmpx(struct gi *g, bool j32, uint8_t op, int dst, int src, int label)
{
	add_fix(g, label);
	gi_emit(g, mk((j32 ? BPF_JMP32 : BPF_JMP) | op | BPF_X, dst, src, 0, 0));
}

void gi_ja(struct gi *g, int label)
{
	add_fix(g, label);
	gi_emit(g, mk(BPF_JMP | BPF_JA, 0, 0, 0, 0));
}

void gi_call_helper(struct gi *g, int32_t id)
{
	gi_emit(g, mk(BPF_JMP | BPF_CALL, 0, 0, 0, id));
}

void gi_probe_read_data(struct gi *g, int16_t fp_off)
{
	gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, fp_off);
	gi_mov_const(g, BPF_REG_2, 8, true);
	gi_ldx(g, BPF_DW, BPF_REG_3, EBPF_REG_FP, GEN_FP_DATA);
	gi_call_helper(g, BPF_FUNC_probe_read_kernel);
}

void gi_call_sub(struct gi *g, int label)
{
	add_fix(g, label);
	gi_emit(g, mk(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 0));
}

void gi_ld_func(struct gi *g, int dst, int label)
{
	add_fix(g, label);
	gi_emit(g, mk(BPF_LD | BPF_IMM | BPF_DW, dst, BPF_PSEUDO_FUNC, 0, 0));
	gi_emit(g, mk(0, 0, 0, 0, 0));
}

void gi_may_goto(struct gi *g, int label)
{
	add_fix(g, label);
	gi_emit(g, mk(BPF_JMP | BPF_JCOND, 0, BPF_MAY_GOTO, 0, 0));
}

void gi_ld_map(struct gi *g, int dst, int map)
{
	gi_emit(g, mk(BPF_LD | BPF_IMM | BPF_DW, dst, BPF_PSEUDO_MAP_FD, 0, map));
	gi_emit(g, mk(0, 0, 0, 0, 0));
}

void gi_exit(struct gi *g)
{
	/* (sk_lookup's main returns SK_DROP or SK_PASS, cgroup_skb's 0 or 1: its accumulator's
	 * low bit) */
	if ((g->sk_prog == GI_SK_LOOKUP || g->sk_prog == GI_CG_SKB) && !g->fn->sub)
		gi_emit(g, mk(BPF_ALU64 | BPF_AND | BPF_K, BPF_REG_0, 0, 0, 1));
	gi_emit(g, mk(BPF_JMP | BPF_EXIT, 0, 0, 0, 0));
}

int gi_resolve(struct gi *g)
{
	for (uint32_t i = 0; i < g->nfix; i++) {
		struct bpf_insn *in = &g->insns[g->fix[i].pc];
		int32_t t = g->label_pc[g->fix[i].label];
		long d = (long)t - (long)g->fix[i].pc - 1;

		if (t < 0)
			return -EINVAL;	/* a label never bound: a generator bug */
		if (ebpf_is_pseudo_call(in) ||
		    (ebpf_is_ldimm64(in) && in->src_reg == BPF_PSEUDO_FUNC)) {
			in->imm = (int32_t)d;
		} else {
			if (d < INT16_MIN || d > INT16_MAX)
				return -E2BIG;
			in->off = (int16_t)d;
		}
	}
	return 0;
}

/* ---- scratch registers ---- */

static uint16_t homes_in_use(const struct gi *g)
{
	uint16_t m = 0;

	for (uint32_t i = 0; i < g->nvars; i++)
		if (g->vars[i].live && g->vars[i].reg >= 0)
			m |= 1u << g->vars[i].reg;
	return m;
}

static uint16_t scratch_avail(const struct gi *g)
{
	return g->fn->scratch_pool & ~homes_in_use(g) & ~g->scratch_busy;
}

unsigned gi_scratch_free(const struct gi *g)
{
	return (unsigned)__builtin_popcount(scratch_avail(g));
}

int gi_scratch(struct gi *g)
{
	uint16_t m = scratch_avail(g);
	int r;

	if (!m) {
		/* Statements ask for at most what gi_scratch_free promised: a generator bug. */
		if (!g->err)
			g->err = -ENOSPC;
		return 0;
	}
	r = __builtin_ctz(m);
	g->scratch_busy |= 1u << r;
	return r;
}

void gi_scratch_release(struct gi *g)
{
	g->scratch_busy = 0;
}

/* ---- variables ---- */

static int slot_alloc(struct gi *g)
{
	struct gi_fn *fn = g->fn;

	for (int off = fn->slot_next; off >= fn->slot_lo; off -= 8) {
		bool used = false;

		for (uint32_t i = 0; i < g->nvars; i++)
			if (g->vars[i].live && g->vars[i].slot == off)
				used = true;
		if (!used)
			return off;
	}
	return 0;
}

static int pick_reg(struct gi *g, uint16_t m)
{
	int n = __builtin_popcount(m), k;

	if (!n)
		return -1;
	k = (int)gen_pick(g->src, (uint32_t)n);
	for (int r = 0; r < 16; r++)
		if ((m >> r) & 1 && k-- == 0)
			return r;
	return -1;
}

/* A new variable of width 32 or 64, homed in a register or (want_slot, or when none is left)
 * in a stack slot.  Its value is undefined until written: callers write it at once.  Returns
 * -1 when nothing is left (the caller drops the feature). */
int gi_var_new(struct gi *g, uint8_t width, bool want_slot)
{
	struct gi_fn *fn = g->fn;
	uint16_t free_regs = fn->home_pool & ~homes_in_use(g) & ~g->scratch_busy;
	uint16_t callee = free_regs & 0x3c0, caller = free_regs & 0x3e;
	int slot, reg = -1, v;

	if (g->nvars >= GI_MAX_VARS)
		return -1;
	slot = slot_alloc(g);
	if (!slot)
		return -1;
	/* Keep enough scratch registers for any statement: homes in r0-r5 take them away. */
	if (__builtin_popcount(fn->caller_homes) >= (int)fn->max_caller_homes)
		caller = 0;
	if (!want_slot) {
		if (caller && (gen_bool(g->src, g->k->p_caller_home) || !callee))
			reg = pick_reg(g, caller);
		else if (callee)
			reg = pick_reg(g, callee);
	}
	for (v = 0; v < (int)g->nvars; v++)
		if (!g->vars[v].live)
			break;
	if (v == (int)g->nvars)
		g->nvars++;
	g->vars[v] = (struct gi_var){ .reg = (int8_t)reg, .slot = (int16_t)slot, .width = width,
				      .live = true };
	if (reg >= 0 && reg <= 5)
		fn->caller_homes |= 1u << reg;
	return v;
}

void gi_var_free(struct gi *g, int v)
{
	if (v < 0)
		return;
	if (g->vars[v].reg >= 0 && g->vars[v].reg <= 5)
		g->fn->caller_homes &= ~(1u << g->vars[v].reg);
	g->vars[v].live = false;
	while (g->nvars && !g->vars[g->nvars - 1].live)
		g->nvars--;
}

static uint8_t slot_size(const struct gi_var *x)
{
	return x->width == 32 ? BPF_W : BPF_DW;
}

uint32_t gi_var_loc(const struct gi *g, int v)
{
	const struct gi_var *x = &g->vars[v];

	if (x->reg >= 0)
		return (loc_t)(x->reg);
	return LOC_SLOT(x->slot, x->width / 8);
}

int gi_var_read(struct gi *g, int v)
{
	const struct gi_var *x = &g->vars[v];
	int s;

	if (x->reg >= 0)
		return x->reg;
	s = gi_scratch(g);
	gi_ldx(g, slot_size(x), s, EBPF_REG_FP, x->slot);
	return s;
}

/* dst = v (dst any register the caller owns). */
void gi_var_to_reg(struct gi *g, int v, int dst)
{
	const struct gi_var *x = &g->vars[v];

	if (x->reg >= 0) {
		if (x->reg != dst)
			gi_alux(g, true, BPF_MOV, dst, x->reg);
	} else {
		gi_ldx(g, slot_size(x), dst, EBPF_REG_FP, x->slot);
	}
}

int gi_var_copy(struct gi *g, int v)
{
	int s = gi_scratch(g);

	gi_var_to_reg(g, v, s);
	return s;
}

void gi_var_write(struct gi *g, int v, int reg)
{
	const struct gi_var *x = &g->vars[v];

	if (x->reg >= 0) {
		/* A 32-bit variable stays zero-extended: mov32 truncates. */
		if (x->reg != reg || x->width == 32)
			gi_alux(g, x->width == 64, BPF_MOV, x->reg, reg);
	} else {
		gi_stx(g, slot_size(x), EBPF_REG_FP, x->slot, reg);
	}
}

void gi_var_set(struct gi *g, int v, uint64_t val)
{
	const struct gi_var *x = &g->vars[v];
	int s;

	if (x->reg >= 0) {
		gi_mov_const(g, x->reg, val, x->width == 64);
	} else if (x->width == 32 || gi_fits_s32(val)) {
		/* ST stores the immediate sign-extended to the access width. */
		gi_st(g, slot_size(x), EBPF_REG_FP, x->slot, (int32_t)(uint32_t)val);
	} else {
		s = gi_scratch(g);
		gi_mov_const(g, s, val, true);
		gi_stx(g, BPF_DW, EBPF_REG_FP, x->slot, s);
	}
}

void gi_var_alu(struct gi *g, int v, uint8_t op, int32_t imm)
{
	const struct gi_var *x = &g->vars[v];
	int s;

	if (x->reg >= 0) {
		gi_alu(g, x->width == 64, op, x->reg, imm);
		return;
	}
	s = gi_scratch(g);
	gi_ldx(g, slot_size(x), s, EBPF_REG_FP, x->slot);
	gi_alu(g, x->width == 64, op, s, imm);
	gi_stx(g, slot_size(x), EBPF_REG_FP, x->slot, s);
}

void gi_var_alux(struct gi *g, int v, uint8_t op, int reg)
{
	const struct gi_var *x = &g->vars[v];
	int s;

	if (x->reg >= 0) {
		gi_alux(g, x->width == 64, op, x->reg, reg);
		return;
	}
	s = gi_scratch(g);
	gi_ldx(g, slot_size(x), s, EBPF_REG_FP, x->slot);
	gi_alux(g, x->width == 64, op, s, reg);
	gi_stx(g, slot_size(x), EBPF_REG_FP, x->slot, s);
}

/* v += val (mod 2^width); a 64-bit constant outside s32 goes through LD_IMM64 and a scratch. */
void gi_var_add_const(struct gi *g, int v, uint64_t val)
{
	int s;

	if (g->vars[v].width == 32 || gi_fits_s32(val)) {
		gi_var_alu(g, v, BPF_ADD, (int32_t)(uint32_t)val);
		return;
	}
	s = gi_scratch(g);
	gi_mov_const(g, s, val, true);
	gi_var_alux(g, v, BPF_ADD, s);
}

/* Around a call: homes in r1-r5 go to their slots and come back. */
void gi_spill_caller_homes(struct gi *g)
{
	for (uint32_t i = 0; i < g->nvars; i++) {
		const struct gi_var *x = &g->vars[i];

		if (x->live && x->reg >= 1 && x->reg <= 5)
			gi_stx(g, BPF_DW, EBPF_REG_FP, x->slot, x->reg);
	}
}

void gi_fill_caller_homes(struct gi *g)
{
	for (uint32_t i = 0; i < g->nvars; i++) {
		const struct gi_var *x = &g->vars[i];

		if (x->live && x->reg >= 1 && x->reg <= 5)
			gi_ldx(g, BPF_DW, x->reg, EBPF_REG_FP, x->slot);
	}
}
