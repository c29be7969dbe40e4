/* What the kernel's walk decides that no run shows (issue 26): two pieces of an XDP program's
 * prologue, each with its unsafe twin, before main's variables take r6-r9 (r0-r8 clobbered).
 *
 * p_jeq_null and its twin p_jeq_null_stack: the kernel's jeq inference (check_cond_jmp_op,
 * mark_ptr_not_null_reg; the kernel selftests' verifier_jeq_infer_not_null.c, the corpus's
 * ptr_eq_not_null*).  Map 0's element e looked up twice, r6 and r7 (e an input byte & 3, which
 * the kernel does not know: a constant key in range would make an array's value not NULL); r6
 * tested against NULL; then r7, which may be NULL, compared with r6 (== or !=, either side
 * first) and read on the arm where they are equal, 1-8 bytes anywhere in the value: the kernel
 * infers r7 not NULL there.  The twin compares r7 with a pointer the kernel infers nothing
 * from: the stack (a home of main's) or the checked packet pointer data.  No run of the twin
 * reads (its pointers are never equal); the kernel refuses the read ("invalid mem access
 * 'map_value_or_null'"): GEN_PROG_JEQ_UNSAFE, no run traps.  A third of the pieces (map 0 an
 * array) first look element c up by the constant key c and read it with no NULL test: the key
 * spilled in 4 bytes at a home's start is a constant to the kernel (get_constant_map_key), which
 * elides the test; a twin may spill it in 8 bytes instead, read as the 4-byte key: no constant
 * to the kernel, which refuses the read (the corpus's array_lookup_key_spill4 /
 * _spill8_unsafe); no run traps.
 *
 * p_dead_arm and its twin p_dead_arm_reached: code the kernel never walks.
 *  - the path spill (cil25, the corpus's paths_dead_arm_spill): err = 0 or -E by an input
 *    byte's test, E in [1, 4095]; err != 0 reaches `if 0 s> err` and, not taken, a 1, 2 or
 *    4-byte spill of data (a pointer), which the err == 0 arm reaches with r2 = 5; the kernel
 *    walks the two values of err apart and never spills the pointer narrow.  The twin's err is
 *    +E: its arm reaches the spill, the kernel refuses it ("invalid size of register spill");
 *    no run traps (a narrow spill is not a trap).
 *  - a write to r10 (r10 += c, r10 = r1, r10 = (s8)r1; f2c42ac, the corpus's
 *    fp_write_dead_arm, fp_movsx_dead_arm) where the kernel never goes: past `if b <= 255`
 *    taken, b an input byte, or past `if v == 0 goto out; if v != 0 goto out`, v a map lookup's
 *    result.  The twin's write is on an arm the kernel walks, which refuses it (6.18 here:
 *    EACCES, its log empty; "frame pointer is read only" in the corpus's fp_write_reached_unsafe):
 *    past `if b > 255` (every run traps there: INTERP_TRAP_RULE) or past `if v != 0 goto out`
 *    alone (the runs whose lookup finds nothing: map 0 a hash map).
 *  GEN_PROG_DEAD_ARM_UNSAFE.
 */
#include "generators/gen_internal.h"

#include "bpf/isa.h"

/* A home of main's (fp-208 .. fp-40: nothing in them yet in the prologue), 8-aligned. */
static int16_t kwalk_home(struct gi *g)
{
	return (int16_t)(-208 + 8 * (int32_t)gen_pick(g->src, 22));
}

/* r0 = map 0's element for the key at fp + key, a lookup's result; r1-r5 clobbered. */
static void lookup0_at(struct gi *g, int16_t key)
{
	gi_ld_map(g, BPF_REG_1, 0);
	gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_2, key);
	gi_call_helper(g, BPF_FUNC_map_lookup_elem);
	g->use_map = true;
}

void gi_lookup0(struct gi *g, uint8_t k)
{
	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_1, k);
	gi_alu(g, true, BPF_AND, BPF_REG_1, GEN_MAP_ENTRIES - 1);
	gi_stx(g, BPF_W, EBPF_REG_FP, GEN_FP_KEY, BPF_REG_1);
	lookup0_at(g, GEN_FP_KEY);
}

void gi_const_key_read(struct gi *g, int16_t key)
{
	lookup0_at(g, key);
	gi_ldx(g, BPF_B, BPF_REG_0, BPF_REG_0, 0);
}

/* The constant key's lookup of p_jeq_null (bad: the 8-byte spill), r0-r2 clobbered. */
static void jeq_const_key(struct gi *g, bool bad)
{
	int16_t home = kwalk_home(g);

	gi_mov_const(g, BPF_REG_1, gen_pick(g->src, GEN_MAP_ENTRIES), true);
	gi_stx(g, bad ? BPF_DW : BPF_W, EBPF_REG_FP, home, BPF_REG_1);
	gi_const_key_read(g, home);
}

void gi_jeq_null(struct gi *g, bool stack)
{
	static const uint8_t sizes[] = { BPF_B, BPF_H, BPF_W, BPF_DW };
	uint8_t e = (uint8_t)gen_pick(g->src, GEN_INPUT_LEN);
	unsigned other = stack ? gen_pick(g->src, 2) : 0;	/* 0 the stack, 1 data */
	bool eq = gen_bool(g->src, 50), swap = gen_bool(g->src, 50);
	unsigned sz = gen_pick(g->src, 4);
	int16_t off = (int16_t)(gen_pick(g->src, GEN_MAP_VALUE_SIZE >> sz) << sz);
	int16_t home = kwalk_home(g);
	int l_out = gi_label(g), l_rd = gi_label(g);

	if (g->raw_tp)
		return;
	/* (an array: p_map_hash's plan, made before the pieces, has not made it a hash map) */
	if ((!g->map0_type || g->map0_type == BPF_MAP_TYPE_ARRAY ||
	     g->map0_type == BPF_MAP_TYPE_PERCPU_ARRAY) && !gen_pick(g->src, 3))
		jeq_const_key(g, stack && gen_bool(g->src, 50));
	gi_lookup0(g, e);
	gi_alux(g, true, BPF_MOV, BPF_REG_6, BPF_REG_0);
	gi_lookup0(g, e);
	gi_alux(g, true, BPF_MOV, BPF_REG_7, BPF_REG_0);
	if (!stack) {
		gi_jmp(g, false, BPF_JEQ, BPF_REG_6, 0, l_out);
	} else if (other == 0) {
		gi_st(g, BPF_DW, EBPF_REG_FP, home, 0);
		gi_alux(g, true, BPF_MOV, BPF_REG_6, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_6, home);
	} else {
		gi_ldx(g, BPF_DW, BPF_REG_6, EBPF_REG_FP, GEN_FP_DATA);
	}
	if (eq) {
		gi_jmpx(g, false, BPF_JEQ, swap ? BPF_REG_7 : BPF_REG_6, swap ? BPF_REG_6 : BPF_REG_7,
			l_rd);
		gi_ja(g, l_out);
		gi_bind(g, l_rd);
	} else {
		gi_jmpx(g, false, BPF_JNE, swap ? BPF_REG_7 : BPF_REG_6, swap ? BPF_REG_6 : BPF_REG_7,
			l_out);
	}
	gi_ldx(g, sizes[sz], BPF_REG_0, BPF_REG_7, off);
	gi_bind(g, l_out);
	if (stack)
		g->p->flags |= GEN_PROG_JEQ_UNSAFE;
}

/* The path spill of p_dead_arm (reached: the twin's). */
static void dead_spill(struct gi *g, bool reached)
{
	static const uint8_t sizes[] = { BPF_B, BPF_H, BPF_W };
	uint8_t k = (uint8_t)gen_pick(g->src, GEN_INPUT_LEN);
	int32_t c = (int32_t)gen_pick(g->src, 256), err = (int32_t)gen_u32(g->src, 1, 4095);
	int16_t home = kwalk_home(g);
	uint8_t size = sizes[gen_pick(g->src, 3)];
	int l1 = gi_label(g), l2 = gi_label(g), l3 = gi_label(g), l4 = gi_label(g),
	    l_out = gi_label(g);

	gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_2, k);
	gi_jmp(g, false, BPF_JGT, BPF_REG_1, c, l1);
	gi_mov_const(g, BPF_REG_3, 0, true);
	gi_ja(g, l2);
	gi_bind(g, l1);
	gi_mov_const(g, BPF_REG_3, (uint64_t)(int64_t)(reached ? err : -err), true);
	gi_bind(g, l2);
	gi_alu(g, true, BPF_LSH, BPF_REG_3, 32);
	gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_3);
	gi_alu(g, true, BPF_RSH, BPF_REG_1, 32);
	gi_jmp(g, false, BPF_JNE, BPF_REG_1, 0, l3);
	gi_mov_const(g, BPF_REG_2, 5, true);
	gi_ja(g, l4);
	gi_bind(g, l3);
	gi_alu(g, true, BPF_ARSH, BPF_REG_3, 32);
	gi_mov_const(g, BPF_REG_4, 0, true);
	gi_jmpx(g, false, BPF_JSGT, BPF_REG_4, BPF_REG_3, l_out);
	gi_bind(g, l4);
	gi_stx(g, size, EBPF_REG_FP, home, BPF_REG_2);
	gi_bind(g, l_out);
}

/* A write to r10 (p_dead_arm's form kind 1 to 3, as the header says). */
static void fp_write(struct gi *g, unsigned kind)
{
	struct bpf_insn i = { .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = EBPF_REG_FP,
			      .imm = (int32_t)gen_u32(g->src, 1, 64) };

	if (kind >= 2) {	/* r10 = r1, r10 = (s8)r1 */
		i = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = EBPF_REG_FP,
				       .src_reg = BPF_REG_1, .off = kind == 3 ? 8 : 0 };
	}
	gi_emit(g, i);
}

void gi_dead_arm(struct gi *g, bool reached)
{
	unsigned form = gen_pick(g->src, 3), kind = 1 + gen_pick(g->src, 3);
	uint8_t k = (uint8_t)gen_pick(g->src, GEN_INPUT_LEN);
	int l_out = gi_label(g);

	if (g->raw_tp)
		return;
	if (form == 0) {
		dead_spill(g, reached);
	} else if (form == 1) {	/* b <= 255 (the twin: b > 255) */
		gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DATA);
		gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_1, k);
		gi_jmp(g, false, reached ? BPF_JGT : BPF_JLE, BPF_REG_1, 255, l_out);
		fp_write(g, kind);
		gi_bind(g, l_out);
	} else {	/* a map value not NULL is not 0 (the twin: the NULL arm) */
		gi_lookup0(g, k);
		gi_alux(g, true, BPF_MOV, BPF_REG_6, BPF_REG_0);
		gi_mov_const(g, BPF_REG_1, 10, true);
		if (!reached)
			gi_jmp(g, false, BPF_JEQ, BPF_REG_6, 0, l_out);
		gi_jmp(g, false, BPF_JNE, BPF_REG_6, 0, l_out);
		fp_write(g, kind);
		gi_bind(g, l_out);
	}
	if (reached)
		g->p->flags |= GEN_PROG_DEAD_ARM_UNSAFE;
}
