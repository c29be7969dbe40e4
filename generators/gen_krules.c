/* Two kernel rules the runs do not share (issue 22): p_krules and its unsafe twin p_krules_bad,
 * a piece of the prologue.
 *
 * The kernel keeps a number written to the stack only as a spill: a register (or a BPF_ST
 * immediate) written at an 8-aligned offset, read back whole or narrower at the same offset
 * (check_stack_write_fixed_off, check_stack_read_fixed_off).  A number written anywhere else
 * reads back as unknown (STACK_MISC), as do a spill's bytes past its start, and a spill whose
 * slot another write touches.  And a shift by an amount not constant, or by at least the width,
 * leaves an unknown number (is_safe_to_compute_dst_reg_range), though the interpreter and the
 * JITs mask the amount.  No run shows either: the piece's value is right on every run, only
 * the kernel, and a verdict that models it, lose it.  The piece:
 *
 *     r5 = data; r4 = c                c in [0, 31] (the twin: [1, 31])
 *     r4 = F(r4)                       a constant of [0, 31] as every run computes it
 *     r5 += r4; r0 = *(u8 *)(r5 + 0)   within the GEN_INPUT_LEN bytes the prologue checked
 *
 * (a constant: the kernel gives a packet pointer plus a variable offset no range until it is
 * compared with data_end again, and a narrow fill's unknown value passes that comparison)
 *
 * F, the safe forms: a spill of 1, 2, 4 or 8 bytes at a slot's start read back as wide or
 * narrower there; a shift by a constant below the width, in a register.  The twin's forms: the
 * spill 1-7 bytes into its slot; an 8-byte spill of r4 << 32 read back at +4; a narrow spill
 * whose slot a write past it touches; a shift by the width (masked: by 0), or right by a
 * register of [0, 1] (data[k] & 1); a division of r4 by 1 or a modulo by [32, 999], 32- or
 * 64-bit, signed (cpu v4) or not, the divisor an immediate or in r0 (snd26: the kernel tracks
 * no quotient nor remainder, adjust_scalar_min_max_vals).  Either way GEN_PROG_KRULE_UNSAFE: the kernel refuses
 * the read (the offset unbounded), no run traps.  And two the kernel refuses wherever it meets
 * them (check_alu_op, aud23): a shift by an immediate of +-width or 2 * width (masked: by 0),
 * a division by the immediate 0 (0) or a modulo by it (r4 kept); no run traps either, each
 * notes the instruction (interp_result.refused).  And one more spill form: the packet pointer
 * r5 stored in 1, 2 or 4 bytes of the slot before a safe spill overwrites it (the kernel
 * refuses a pointer's narrow spill: "invalid size of register spill"; no run can tell), or
 * spilled whole and read back in 1, 2 or 4 bytes into r0, or spilled whole on one path and r4
 * on the other (data[k] > n) and read back so (snd26: the kernel walks the paths apart and
 * refuses the pointer's fill; snd27: or on one path, the other writing two 4-byte numbers
 * there, which bpfscev's join lost: corpus fill_join_ptr_cut_narrow), or added into in 4 bytes
 * atomically
 * (check_atomic_rmw reads first, a fill: "invalid size of register fill"); a store-release and a
 * load-acquire of 1, 2 or 4 bytes are the narrow spill and fill too.  The slot is one of
 * main's variable homes in fp-208 .. fp-32, which hold nothing yet in the prologue and are
 * written before they are read later; r0, r4 and r5 are clobbered (r1, r2 and r3 kept).  A third of the programs first read
 * the metadata (krule_meta, aud25): after data_meta + c <= data (c in [1, 0xffff]) within c
 * bytes; the twin's form instead reads it after a comparison that gives the kernel no range of
 * data_meta's (c past MAX_PACKET_OFF, data_meta < data itself, data_meta plus a variable part)
 * or through data_meta plus a variable part, and the rest of the piece is a safe form.  The
 * context comes from GEN_FP_DKF_CTX (the prologue spills it for p_krules too).  With
 * p_krules_key, a piece first takes the constant key's form (krule_key, snd27): map 0's element
 * read unchecked by a key spilled in 4 bytes, the slot's other half written before the spill (the
 * twin: after it, which makes the key no constant to the kernel).
 *
 * And p_access with its twin p_access_bad (aud24), what a program may read or write how: map 6
 * (GEN_MAP_ACCESS, one value of GEN_ACCESS_VALUE bytes) is BPF_F_RDONLY_PROG or BPF_F_WRONLY_PROG
 * (check_map_access_type), and the context's packet pointer fields are not loaded sign-extended
 * (xdp_is_valid_access: BPF_MEMSX).  The piece loads a scalar field of the context (ingress_ifindex
 * or rx_queue_index) sign-extended, looks map 6's value up and, when found, reads it (read-only)
 * or writes it (write-only), 1-8 bytes aligned anywhere in the value.  The twin does one thing the
 * kernel forbids: a store (BPF_ST or a register) into the read-only value, a load from the
 * write-only one, an atomic add (which reads and writes) into either, or the sign-extending load
 * of data, data_end or data_meta instead of the scalar field: GEN_PROG_ACCESS_UNSAFE.  The kernel
 * refuses each twin; a run traps on the write into the read-only value (the interpreter's
 * BPF_F_RDONLY_PROG) and on the sign-extending load of a packet pointer, not on a read of the
 * write-only value, whose bytes are there.  The context is read from GEN_FP_DKF_CTX, where the
 * prologue spills it for this piece too; r0-r5 clobbered.  A read-only map 6 has initial contents
 * (one of access_init's), which the loader freezes, so the kernel reads its constant offsets as
 * the numbers there (bpf_map_direct_read; verifier_global_subprogs.c's
 * guarded_unsupp_global_called): the safe read-only form then reads a byte and skips a division
 * by the immediate 0 when the byte is the frozen one (never reached), and a third of the twin's
 * read-only forms do the same when it is not (always reached: "div by zero", no run traps).
 */
#include "generators/gen_internal.h"

#include <string.h>

#include "bpf/isa.h"

static const uint8_t sizes[] = { BPF_B, BPF_H, BPF_W, BPF_DW };

/* The spill forms: r4 written at slot + off (size s) and read back (size l) at slot + at. */
static void krule_spill(struct gi *g, int16_t slot, bool bad)
{
	unsigned s = gen_pick(g->src, 4), l, kind = bad ? gen_pick(g->src, 5) : 0;
	int16_t off = 0;

	if (kind >= 3) {	/* the packet pointer stored narrower first, then the safe form */
		unsigned n = gen_pick(g->src, 3), how = kind == 4 ? 5 : gen_pick(g->src, 5);

		if (how == 5 && gen_bool(g->src, 50)) {
			/* or spilled on one path, two 4-byte numbers on the other (snd27: a join of
			 * a pointer with cells of other sizes) */
			int join = gi_label(g);

			gi_ldx(g, BPF_B, BPF_REG_0, BPF_REG_5,
			       (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
			gi_st(g, BPF_W, EBPF_REG_FP, slot, (int32_t)gen_pick(g->src, 32));
			gi_st(g, BPF_W, EBPF_REG_FP, (int16_t)(slot + 4), (int32_t)gen_pick(g->src, 32));
			gi_jmp(g, false, BPF_JGT, BPF_REG_0, (int32_t)gen_pick(g->src, 256), join);
			gi_stx(g, BPF_DW, EBPF_REG_FP, slot, BPF_REG_5);
			gi_bind(g, join);
			gi_ldx(g, sizes[n], BPF_REG_0, EBPF_REG_FP,
			       (int16_t)(slot + (1 << n) * (int)gen_pick(g->src, 8u >> n)));
		} else if (how == 5) {	/* or spilled on one path, a number on the other (snd26) */
			int join = gi_label(g);

			gi_ldx(g, BPF_B, BPF_REG_0, BPF_REG_5, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
			gi_stx(g, BPF_DW, EBPF_REG_FP, slot, BPF_REG_4);
			gi_jmp(g, false, BPF_JGT, BPF_REG_0, (int32_t)gen_pick(g->src, 256), join);
			gi_stx(g, BPF_DW, EBPF_REG_FP, slot, BPF_REG_5);
			gi_bind(g, join);
			gi_ldx(g, sizes[n], BPF_REG_0, EBPF_REG_FP,
			       (int16_t)(slot + (1 << n) * (int)gen_pick(g->src, 8u >> n)));
		} else if (how == 0) {
			gi_stx(g, sizes[n], EBPF_REG_FP, slot, BPF_REG_5);
		} else if (how == 3) {	/* or store-released so (a spill too; aud25) */
			gi_emit(g, (struct bpf_insn){ .code = BPF_STX | BPF_ATOMIC | sizes[n],
						      .dst_reg = EBPF_REG_FP, .src_reg = BPF_REG_5,
						      .off = slot, .imm = BPF_STORE_REL });
		} else if (how == 4) {	/* or spilled whole and load-acquired narrower (a fill) */
			gi_stx(g, BPF_DW, EBPF_REG_FP, slot, BPF_REG_5);
			gi_emit(g, (struct bpf_insn){ .code = BPF_STX | BPF_ATOMIC | sizes[n],
						      .dst_reg = BPF_REG_0, .src_reg = EBPF_REG_FP,
						      .off = (int16_t)(slot + (1 << n) *
								       (int)gen_pick(g->src, 8u >> n)),
						      .imm = BPF_LOAD_ACQ });
		} else if (how == 1) {	/* or spilled whole and read back narrower, into r0 */
			gi_stx(g, BPF_DW, EBPF_REG_FP, slot, BPF_REG_5);
			gi_ldx(g, sizes[n], BPF_REG_0, EBPF_REG_FP,
			       (int16_t)(slot + (1 << n) * (int)gen_pick(g->src, 8u >> n)));
		} else {	/* or an atomic add of 4 bytes into it (a narrow fill first; aud25) */
			gi_stx(g, BPF_DW, EBPF_REG_FP, slot, BPF_REG_5);
			gi_mov_const(g, BPF_REG_0, gen_pick(g->src, 10), true);
			gi_emit(g, (struct bpf_insn){ .code = BPF_STX | BPF_ATOMIC | BPF_W,
						      .dst_reg = EBPF_REG_FP, .src_reg = BPF_REG_0,
						      .off = (int16_t)(slot + 4 * (int)gen_pick(g->src, 2)),
						      .imm = BPF_ADD });
		}
		bad = false;
	}
	if (kind == 1) {	/* r4 << 32 spilled, its high half read */
		gi_alu(g, true, BPF_LSH, BPF_REG_4, 32);
		gi_stx(g, BPF_DW, EBPF_REG_FP, slot, BPF_REG_4);
		gi_ldx(g, BPF_W, BPF_REG_4, EBPF_REG_FP, (int16_t)(slot + 4));
		return;
	}
	if (kind == 0 && bad) {	/* 1-7 bytes into the slot, aligned to the size */
		s = gen_pick(g->src, 3);
		off = (int16_t)((1 << s) * gen_u32(g->src, 1, (8u >> s) - 1));
	}
	if (kind == 2)		/* (room past the spill in the slot) */
		s = gen_pick(g->src, 3);
	gi_stx(g, sizes[s], EBPF_REG_FP, (int16_t)(slot + off), BPF_REG_4);
	if (kind == 2) {	/* a write past the spill, 1-7 bytes into the slot */
		unsigned w = gen_pick(g->src, 3);
		int16_t at = (int16_t)((1 << w) * gen_u32(g->src, 1, (8u >> w) - 1));

		while (at < (1 << s))
			at = (int16_t)(at + (1 << w));
		if (at + (1 << w) > 8) {
			w = 0;
			at = 7;
		}
		gi_st(g, sizes[w], EBPF_REG_FP, (int16_t)(slot + at), (int32_t)gen_u32(g->src, 0, 9));
	}
	/* (read back as wide, or narrower: the value fits a byte) */
	l = bad ? s : gen_u32(g->src, 0, s);
	gi_ldx(g, sizes[l], BPF_REG_4, EBPF_REG_FP, (int16_t)(slot + off));
}

/* The shift forms: r4 (in [0, 31]) shifted by r0, the result in [0, 31] on every run. */
static void krule_shift(struct gi *g, bool bad)
{
	bool is64 = gen_bool(g->src, 50);
	unsigned width = is64 ? 64 : 32, kind = bad ? gen_pick(g->src, 5) : 0;
	static const uint8_t ops[] = { BPF_LSH, BPF_RSH, BPF_ARSH };
	uint8_t op = ops[gen_pick(g->src, 3)];

	if (kind == 2) {	/* an immediate the kernel refuses: masked to 0 */
		static const int32_t by[] = { 1, -1, 2 };

		gi_alu(g, is64, op, BPF_REG_4, by[gen_pick(g->src, 3)] * (int32_t)width);
		return;
	}
	if (kind == 3) {	/* by the immediate 0: r4 = 0, or r4 kept */
		gi_alu(g, is64, gen_bool(g->src, 50) ? BPF_DIV : BPF_MOD, BPF_REG_4, 0);
		return;
	}
	if (kind == 4) {	/* a quotient or a remainder of r4 (in [1, 31]) that is r4 */
		bool mod = gen_bool(g->src, 50), reg = gen_bool(g->src, 34);
		int32_t by = mod ? (int32_t)gen_u32(g->src, 32, 1000) : 1;
		struct bpf_insn i = { .code = (uint8_t)((is64 ? BPF_ALU64 : BPF_ALU) |
							(mod ? BPF_MOD : BPF_DIV) | BPF_K),
				      .dst_reg = BPF_REG_4, .off = (int16_t)gen_bool(g->src, 34),
				      .imm = by };

		if (reg) {	/* (the divisor in r0) */
			gi_mov_const(g, BPF_REG_0, (uint64_t)by, true);
			i.code = (uint8_t)(i.code | BPF_X);
			i.src_reg = BPF_REG_0;
			i.imm = 0;
		}
		gi_emit(g, i);
		return;
	}
	if (kind == 1) {	/* a register of [0, 1], shifting right */
		gi_ldx(g, BPF_B, BPF_REG_0, BPF_REG_5, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
		gi_alu(g, true, BPF_AND, BPF_REG_0, 1);
		gi_alux(g, is64, op == BPF_LSH ? BPF_RSH : op, BPF_REG_4, BPF_REG_0);
		return;
	}
	if (bad) {		/* by the width, which every run masks to 0 */
		gi_mov_const(g, BPF_REG_0, width, true);
		gi_alux(g, is64, op, BPF_REG_4, BPF_REG_0);
		return;
	}
	if (op == BPF_LSH) {	/* [0, 3] << [0, 3] */
		gi_mov_const(g, BPF_REG_4, gen_pick(g->src, 4), true);
		gi_mov_const(g, BPF_REG_0, gen_pick(g->src, 4), true);
	} else {
		gi_mov_const(g, BPF_REG_0, gen_pick(g->src, 8), true);
	}
	gi_alux(g, is64, op, BPF_REG_4, BPF_REG_0);
}

/* The data_meta forms (aud25): r5 = data_meta, r4 = data from the spilled context, and a read
 * of the metadata after a comparison of data_meta + c with data (c in [1, 0xffff]: the kernel's
 * range c, one more where the comparison is strict; the read within it).  The twin's kinds: c
 * past MAX_PACKET_OFF (1), data_meta itself compared strictly (2), data_meta plus a variable
 * part compared (3), and the read through data_meta plus a variable part after a safe
 * comparison (4); find_good_pkt_pointers gives the first three no range of data_meta's, and the
 * fourth's pointer a fresh id of range 0: the kernel refuses each read.  The interpreter's
 * data_meta is data, so no run reads the metadata: the kernel judges. */
static void krule_meta(struct gi *g, bool bad)
{
	unsigned kind = bad ? 1 + gen_pick(g->src, 4) : 0, sz = gen_pick(g->src, 3);
	bool strict = gen_bool(g->src, 50);
	int32_t c = (int32_t)gen_u32(g->src, 1u << sz, 0xffff);
	int16_t at = 0;
	int skip = gi_label(g);

	gi_ldx(g, BPF_DW, BPF_REG_5, EBPF_REG_FP, GEN_FP_DKF_CTX);
	gi_ldx(g, BPF_W, BPF_REG_4, BPF_REG_5, 0);	/* xdp_md->data */
	gi_ldx(g, BPF_W, BPF_REG_5, BPF_REG_5, 8);	/* xdp_md->data_meta */
	if (kind == 3) {	/* data_meta + [8, 16] */
		gi_ldx(g, BPF_DW, BPF_REG_0, EBPF_REG_FP, GEN_FP_DATA);
		gi_ldx(g, BPF_B, BPF_REG_0, BPF_REG_0, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
		gi_alu(g, true, BPF_AND, BPF_REG_0, 8);
		gi_alu(g, true, BPF_ADD, BPF_REG_0, 8);
		gi_alux(g, true, BPF_ADD, BPF_REG_0, BPF_REG_5);
	} else if (kind != 2) {
		gi_alux(g, true, BPF_MOV, BPF_REG_0, BPF_REG_5);
		gi_alu(g, true, BPF_ADD, BPF_REG_0, kind == 1 ? (int32_t)gen_u32(g->src, 0x10000, 0x1ffff)
					    : kind == 4 ? 8 + c % 0xfff8 : c);
	}
	if (kind == 2 && gen_bool(g->src, 50))	/* data <= data_meta, or data_meta >= data */
		gi_jmpx(g, false, BPF_JLE, BPF_REG_4, BPF_REG_5, skip);
	else
		gi_jmpx(g, false, strict || kind == 2 ? BPF_JGE : BPF_JGT,
			kind == 2 ? BPF_REG_5 : BPF_REG_0, BPF_REG_4, skip);
	if (kind == 0) {	/* (within the range: c + strict bytes; an instruction's offset) */
		uint32_t hi = (uint32_t)(c + strict) - (1u << sz);

		at = (int16_t)gen_u32(g->src, 0, hi < INT16_MAX ? hi : INT16_MAX);
	}
	if (kind == 4) {	/* data_meta + [0, 7] */
		gi_ldx(g, BPF_DW, BPF_REG_0, EBPF_REG_FP, GEN_FP_DATA);
		gi_ldx(g, BPF_B, BPF_REG_0, BPF_REG_0, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
		gi_alu(g, true, BPF_AND, BPF_REG_0, 7);
		gi_alux(g, true, BPF_ADD, BPF_REG_0, BPF_REG_5);
		gi_ldx(g, sizes[0], BPF_REG_0, BPF_REG_0, 0);
	} else {
		gi_ldx(g, sizes[kind ? 0 : sz], BPF_REG_0, BPF_REG_5, at);
	}
	gi_bind(g, skip);
}

/* The constant key's forms (snd27): element c of map 0 (an array) looked up by the key c
 * spilled in 4 bytes at the slot's start and read with no NULL test, which the kernel elides for
 * a constant key (get_constant_map_key).  The slot's other half is written too: before the spill
 * in the safe forms — a number stored, bpf_xdp_load_bytes's output, an atomic add — and after
 * it in the twin's, which the kernel takes as a write that is no spill, so the key is no
 * constant any more (scrub_spilled_slot; a store at a variable offset erases the spill) and the
 * read unchecked is refused (the corpus's array_lookup_key_helper_half_unsafe).  The key is
 * below GEN_MAP_ENTRIES: every lookup finds, no run traps.  r0-r5 clobbered. */
static void krule_key(struct gi *g, int16_t slot, bool bad)
{
	unsigned how = gen_pick(g->src, 4);
	uint32_t c = gen_pick(g->src, GEN_MAP_ENTRIES);
	int16_t half = (int16_t)(slot + 4);

	/* (initialized first: the atomic reads it, the variable store's other byte too) */
	gi_st(g, BPF_W, EBPF_REG_FP, half, (int32_t)gen_pick(g->src, 100));
	for (int after = 0; after < 2; after++) {
		if (after == 1) {
			gi_mov_const(g, BPF_REG_1, c, true);
			gi_stx(g, BPF_W, EBPF_REG_FP, slot, BPF_REG_1);
		}
		if (after != bad)
			continue;
		if (how == 0) {
			gi_st(g, gen_bool(g->src, 50) ? BPF_W : BPF_B, EBPF_REG_FP, half,
			      (int32_t)gen_pick(g->src, 100));
		} else if (how == 1) {	/* bpf_xdp_load_bytes(ctx, off, fp + half, 4) */
			gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DKF_CTX);
			gi_mov_const(g, BPF_REG_2, gen_pick(g->src, GEN_INPUT_LEN - 4), true);
			gi_alux(g, true, BPF_MOV, BPF_REG_3, EBPF_REG_FP);
			gi_alu(g, true, BPF_ADD, BPF_REG_3, half);
			gi_mov_const(g, BPF_REG_4, 4, true);
			gi_call_helper(g, BPF_FUNC_xdp_load_bytes);
		} else if (how == 2) {	/* lock *(u32 *)(fp + half) += k */
			gi_mov_const(g, BPF_REG_0, gen_pick(g->src, 10), true);
			gi_emit(g, (struct bpf_insn){ .code = BPF_STX | BPF_ATOMIC | BPF_W,
						      .dst_reg = EBPF_REG_FP, .src_reg = BPF_REG_0,
						      .off = half, .imm = BPF_ADD });
		} else {		/* a byte at fp + half + (data[k] & 1) */
			gi_ldx(g, BPF_DW, BPF_REG_0, EBPF_REG_FP, GEN_FP_DATA);
			gi_ldx(g, BPF_B, BPF_REG_0, BPF_REG_0,
			       (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
			gi_alu(g, true, BPF_AND, BPF_REG_0, 1);
			gi_alux(g, true, BPF_ADD, BPF_REG_0, EBPF_REG_FP);
			gi_st(g, BPF_B, BPF_REG_0, half, (int32_t)gen_pick(g->src, 100));
		}
	}
	gi_const_key_read(g, slot);
}

void gi_krules(struct gi *g, bool bad)
{
	int16_t slot = (int16_t)(-32 - 8 * (int32_t)gen_pick(g->src, 23));
	bool twin = bad;

	/* (map 0 an array: p_map_hash's plan, made before the pieces, has not made it a hash map;
	 * drawn only with p_krules_key, so that other programs stay as they were) */
	if (g->k->p_krules_key && gen_bool(g->src, g->k->p_krules_key) && !g->raw_tp &&
	    (!g->map0_type || g->map0_type == BPF_MAP_TYPE_ARRAY ||
	     g->map0_type == BPF_MAP_TYPE_PERCPU_ARRAY)) {
		krule_key(g, slot, bad);
		bad = false;
	}
	if (gen_bool(g->src, 34)) {	/* (then the forms below the safe ones) */
		krule_meta(g, bad);
		bad = false;
	}
	gi_ldx(g, BPF_DW, BPF_REG_5, EBPF_REG_FP, GEN_FP_DATA);
	/* (the twin's value not 0, which the kernel keeps anywhere: STACK_ZERO) */
	gi_mov_const(g, BPF_REG_4, bad ? gen_u32(g->src, 1, 31) : gen_pick(g->src, 32), true);
	if (gen_bool(g->src, 50))
		krule_spill(g, slot, bad);
	else
		krule_shift(g, bad);
	gi_alux(g, true, BPF_ADD, BPF_REG_5, BPF_REG_4);
	gi_ldx(g, BPF_B, BPF_REG_0, BPF_REG_5, 0);
	if (twin)
		g->p->flags |= GEN_PROG_KRULE_UNSAFE;
}

/* A read-only map 6's initial contents (GEN_ACCESS_VALUE bytes each), which the loader freezes. */
static const uint8_t access_init[4][GEN_ACCESS_VALUE] = {
	{ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 },
	{ 0x80, 0xff, 0, 0x7f, 0x55, 0xaa, 1, 0, 0, 0, 0x10, 0x20, 0x40, 0x80, 0xfe, 0x01 },
	{ 0 },
	{ 0x5d, 0x17, 0x93, 0x2c, 0x06, 0xe1, 0x48, 0xb0, 0x3f, 0x71, 0xc8, 0x0a, 0x64, 0x99,
	  0xd2, 0x37 },
};

void gi_access(struct gi *g, bool bad)
{
	bool ro = gen_bool(g->src, 50), ctx_bad = bad && gen_bool(g->src, 25);
	bool map_bad = bad && !ctx_bad, atomic = map_bad && gen_bool(g->src, 34);
	/* (the twin's guard form: the read-only value's byte at goff equals the test's) */
	bool guard_live = map_bad && ro && !atomic && gen_bool(g->src, 34);
	const uint8_t *init = access_init[gen_pick(g->src, 4)];
	int16_t goff = (int16_t)gen_pick(g->src, GEN_ACCESS_VALUE);
	unsigned sz = atomic ? 2 + gen_pick(g->src, 2) : gen_pick(g->src, 4);
	int16_t off = (int16_t)((1 << sz) * gen_pick(g->src, GEN_ACCESS_VALUE >> sz));
	/* (data, data_end, data_meta; ingress_ifindex, rx_queue_index) */
	static const int16_t ptr_field[] = { 0, 4, 8 }, scalar_field[] = { 12, 16 };
	int end = gi_label(g);

	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DKF_CTX);
	gi_emit(g, (struct bpf_insn){ .code = BPF_LDX | BPF_MEMSX | BPF_W, .dst_reg = BPF_REG_3,
				      .src_reg = BPF_REG_1,
				      .off = ctx_bad ? ptr_field[gen_pick(g->src, 3)]
						     : scalar_field[gen_pick(g->src, 2)] });
	gi_st(g, BPF_W, EBPF_REG_FP, GEN_FP_KEY, 0);
	gi_ld_map(g, BPF_REG_1, GEN_MAP_ACCESS);
	gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_2, GEN_FP_KEY);
	gi_call_helper(g, BPF_FUNC_map_lookup_elem);
	gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, end);
	gi_mov_const(g, BPF_REG_1, gen_pick(g->src, 100), true);
	if (atomic)	/* lock *(u32/u64 *)(r0 + off) += r1 */
		gi_emit(g, (struct bpf_insn){ .code = BPF_STX | BPF_ATOMIC | sizes[sz],
					      .dst_reg = BPF_REG_0, .src_reg = BPF_REG_1,
					      .off = off, .imm = BPF_ADD });
	else if (ro == map_bad && !guard_live && gen_bool(g->src, 50))
		gi_st(g, sizes[sz], BPF_REG_0, off, (int32_t)gen_pick(g->src, 100));
	else if (ro == map_bad && !guard_live)
		gi_stx(g, sizes[sz], BPF_REG_0, off, BPF_REG_1);
	else
		gi_ldx(g, sizes[sz], BPF_REG_1, BPF_REG_0, off);
	if (ro && (!map_bad || guard_live)) {
		/* r4 = value[goff]; a division by the immediate 0 where r4 is not (the twin: is)
		 * the frozen byte there: dead (live) for a reader that knows it */
		gi_ldx(g, BPF_B, BPF_REG_4, BPF_REG_0, goff);
		gi_jmp(g, false, guard_live ? BPF_JNE : BPF_JEQ, BPF_REG_4, init[goff], end);
		gi_alu(g, true, BPF_DIV, BPF_REG_4, 0);
	}
	gi_bind(g, end);
	g->use_access = true;
	g->access_flags = ro ? BPF_F_RDONLY_PROG : BPF_F_WRONLY_PROG;
	g->access_init = ro ? init : NULL;
	if (bad)
		g->p->flags |= GEN_PROG_ACCESS_UNSAFE;
}

/* bpf_strncmp(fp-24, 4, s2) with s2 a constant address into the read-only, frozen map 6
 * (p_strncmp: check_reg_const_str): a 0 byte follows the offset in the value; the 4 bytes at the
 * key slot, stored first, are compared with it; r0 (-1, 0 or 1: the interpreter computes it as
 * the kernel does) is left.  The twin (p_strncmp_bad, GEN_PROG_ACCESS_UNSAFE) takes an offset
 * past the value's last 0 byte: "string is not zero-terminated", and a run traps reading past
 * the value.  With p_access's piece before it, its map 6 is kept: a write-only one, or contents
 * with no offset of the wanted kind, leave the piece out.  r0-r5 clobbered. */
void gi_strncmp(struct gi *g, bool bad)
{
	int16_t offs[GEN_ACCESS_VALUE];
	const uint8_t *init = g->use_access ? g->access_init : NULL;
	unsigned n = 0;

	if (g->use_access && !(g->access_flags & BPF_F_RDONLY_PROG))
		return;
	if (!init)	/* (the safe form: contents with a 0 byte; the twin's: 0, 1 or 3) */
		init = access_init[bad ? (unsigned[]){ 0, 1, 3 }[gen_pick(g->src, 3)]
				       : 1 + gen_pick(g->src, 2)];
	for (int16_t off = 0; off < GEN_ACCESS_VALUE; off++) {
		bool term = memchr(init + off, 0, GEN_ACCESS_VALUE - (size_t)off) != NULL;

		if (term != bad)
			offs[n++] = off;
	}
	if (!n)
		return;
	gi_st(g, BPF_W, EBPF_REG_FP, GEN_FP_KEY, (int32_t)gen_pick(g->src, 0x100));
	gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, GEN_FP_KEY);
	gi_mov_const(g, BPF_REG_2, 4, true);
	gi_emit(g, (struct bpf_insn){ .code = BPF_LD | BPF_IMM | BPF_DW, .dst_reg = BPF_REG_3,
				      .src_reg = BPF_PSEUDO_MAP_VALUE, .imm = GEN_MAP_ACCESS });
	gi_emit(g, (struct bpf_insn){ .imm = offs[gen_pick(g->src, n)] });
	gi_call_helper(g, BPF_FUNC_strncmp);
	g->use_access = true;
	g->access_flags = BPF_F_RDONLY_PROG;
	g->access_init = init;
	if (bad)
		g->p->flags |= GEN_PROG_ACCESS_UNSAFE;
}
