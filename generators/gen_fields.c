/* Map values the kernel does not read as plain bytes (issue 15).
 *
 *  - p_map_field (p_map_field_bad): a statement of main's top level looks up an element of the
 *    fields map (GEN_MAP_FIELDS: GEN_FIELDS_ENTRIES values of GEN_FIELDS_VALUE bytes, a struct
 *    bpf_spin_lock at GEN_FIELDS_LOCK, a __kptr_untrusted to a task_struct at GEN_FIELDS_KPTR)
 *    and uses the bytes around the fields: the u32 before the lock, a u64 after the kptr (at a
 *    constant or an input-chosen offset, maybe written back), the kptr loaded whole, tested
 *    against NULL and read through, or NULL stored into it.  The twin (GEN_PROG_FIELD_UNSAFE)
 *    reads or writes the lock's word, reads 8 bytes over it, reads one of the first four u32
 *    words (the lock's among them), or stores a number into the kptr (a register or BPF_ST):
 *    the kernel refuses each (check_map_access, check_map_kptr_access).  No run traps: the kptr
 *    is NULL in every run (nothing the safe forms write puts anything else there), and the
 *    twins' accesses are inside the value.  Not in a raw tracepoint (p_find_vma): tracing
 *    programs may not name a map with a spin lock.
 *  - p_spin_lock (p_spin_lock_bad): a statement of main's top level looks up an element of the
 *    fields map, spills its pointer (GEN_FP_VALUE), takes the element's lock (bpf_spin_lock at
 *    GEN_FIELDS_LOCK), fills the pointer back and updates the u32 before the lock (plus one) or
 *    the u64 after the kptr (plus an input byte), with no call between, then releases the lock
 *    through the same pointer (bpf_spin_unlock) and reads the u32.  The twin
 *    (GEN_PROG_SPIN_LOCK_UNSAFE) calls bpf_get_prandom_u32 while the lock is held, releases it
 *    never (the next helper call or the program's exit holds it), takes it twice, or releases
 *    it at the value's offset 0: the kernel refuses each (process_spin_lock, "function calls
 *    are not allowed while holding a lock", "bpf_spin_unlock is missing"); its runs may trap
 *    (the interpreter checks the lock held).  Not in a raw tracepoint, as p_map_field.
 *  - p_map_u64_ptr (p_map_u64_ptr_bad): a statement of main's top level loads a u64 from an
 *    element of the array map (which other statements may have written with any number) and
 *    adds it to a pointer: to the value itself after masking it to a multiple of 8 below the
 *    value's size or after testing it against that size, or (in programs that spill data_end,
 *    p_pkt) to the packet's data masked below GEN_INPUT_LEN / 2 and then tested against
 *    data_end; then it reads there.  The twin
 *    (GEN_PROG_U64_PTR_UNSAFE) adds it unmasked to the value or to data (the kernel: "math
 *    between map_value pointer and register with unbounded min value is not allowed"), or tests
 *    it one past the last offset at which the read fits (an access past the value).  Runs of the
 *    twin may trap (a number another statement wrote, past the value).  Over a hash map
 *    (p_map_hash, which starts empty), the twin puts its element in first and stores there the
 *    number that takes its read out of bounds (64, 57, or -1 before the packet), so that every
 *    run reaching it traps, as an array's runs may: the kernel, which does not follow a map
 *    value's bytes, refuses it all the same.
 * Each leaves its result in r0, added to the accumulator.
 */
#include "generators/gen_internal.h"

/* r0 = the element of map at an input-chosen key below entries (its pointer, or NULL: then to
 * l_skip with r0 = 0); the caller's homes are spilled first.  With put_in (map 0 only), the
 * element is put in first (update(map 0, key, the stack array, BPF_ANY)). */
static void lookup_input_key(struct gi *g, int map, uint32_t entries, int l_skip, bool put_in)
{
	gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_2, BPF_REG_2, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
	gi_alu(g, true, BPF_AND, BPF_REG_2, (int32_t)(entries - 1));
	gi_stx(g, BPF_W, EBPF_REG_FP, GEN_FP_KEY, BPF_REG_2);
	if (put_in)
		gi_map0_update(g, BPF_ANY);
	gi_ld_map(g, BPF_REG_1, map);
	gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_2, GEN_FP_KEY);
	gi_call_helper(g, BPF_FUNC_map_lookup_elem);
	gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, l_skip);
}

/* r2 = an input byte (the packet's, at a drawn offset) */
static void input_byte(struct gi *g, int reg)
{
	gi_ldx(g, BPF_DW, reg, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, reg, reg, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
}

/* The statement's end: the accumulator takes r0. */
static void stmt_end(struct gi *g, int l_skip)
{
	gi_bind(g, l_skip);
	gi_fill_caller_homes(g);
	g->scratch_busy = 1u << BPF_REG_0;
	gi_var_alux(g, g->fn->acc, BPF_ADD, BPF_REG_0);
	gi_scratch_release(g);
}

/* A fields-map statement's start: r0 = the value of a key drawn from the input, NULL to l_skip
 * (returned); -1 where none is made (a raw tracepoint, a subprogram). */
static int fields_begin(struct gi *g)
{
	int l_skip;

	if (g->raw_tp || g->fn->sub)
		return -1;
	l_skip = gi_label(g);
	gi_scratch_release(g);
	gi_spill_caller_homes(g);
	lookup_input_key(g, GEN_MAP_FIELDS, GEN_FIELDS_ENTRIES, l_skip, false);
	return l_skip;
}

/* Its end: stmt_end, the fields map used, the twin's flag. */
static void fields_end(struct gi *g, int l_skip, bool twin, uint64_t flag)
{
	stmt_end(g, l_skip);
	g->use_fields = true;
	if (twin)
		g->p->flags |= flag;
}

void gi_stmt_map_field(struct gi *g)
{
	bool twin = g->k->p_map_field_bad && (!g->k->p_map_field || gen_bool(g->src, 50));
	unsigned form = twin ? 6 + gen_pick(g->src, 6) : gen_pick(g->src, 6);
	int l_skip;

	if ((l_skip = fields_begin(g)) < 0)
		return;
	switch (form) {
	case 0:		/* the u32 before the lock */
		gi_ldx(g, BPF_W, BPF_REG_0, BPF_REG_0, 0);
		break;
	case 1:		/* a u64 after the kptr, written back one further */
		gi_ldx(g, BPF_DW, BPF_REG_2, BPF_REG_0, GEN_FIELDS_KPTR + 8);
		gi_alu(g, true, BPF_ADD, BPF_REG_2, 1);
		gi_stx(g, BPF_DW, BPF_REG_0, GEN_FIELDS_KPTR + 16, BPF_REG_2);
		gi_alux(g, true, BPF_MOV, BPF_REG_0, BPF_REG_2);
		break;
	case 2:		/* the kptr: loaded, tested, read through */
		gi_ldx(g, BPF_DW, BPF_REG_2, BPF_REG_0, GEN_FIELDS_KPTR);
		gi_mov_const(g, BPF_REG_0, 0, true);
		gi_jmp(g, false, BPF_JEQ, BPF_REG_2, 0, l_skip);
		gi_ldx(g, BPF_DW, BPF_REG_0, BPF_REG_2, 0);
		break;
	case 3:		/* NULL into the kptr (BPF_ST or a register) */
		if (gen_bool(g->src, 50)) {
			gi_st(g, BPF_DW, BPF_REG_0, GEN_FIELDS_KPTR, 0);
		} else {
			gi_mov_const(g, BPF_REG_2, 0, true);
			gi_stx(g, BPF_DW, BPF_REG_0, GEN_FIELDS_KPTR, BPF_REG_2);
		}
		gi_mov_const(g, BPF_REG_0, 1, true);
		break;
	case 4:		/* the u32 before the lock written, then the bytes after it read */
		input_byte(g, BPF_REG_2);
		gi_stx(g, BPF_W, BPF_REG_0, 0, BPF_REG_2);
		gi_ldx(g, BPF_DW, BPF_REG_0, BPF_REG_0, GEN_FIELDS_KPTR + 8);
		break;
	case 5:		/* one of the u64 after the kptr, at an input-chosen offset */
		input_byte(g, BPF_REG_2);
		gi_alu(g, true, BPF_AND, BPF_REG_2, 8);
		gi_alux(g, true, BPF_ADD, BPF_REG_0, BPF_REG_2);
		gi_ldx(g, BPF_DW, BPF_REG_0, BPF_REG_0, GEN_FIELDS_KPTR + 8);
		break;
	case 6:		/* the lock's word read */
		gi_ldx(g, BPF_W, BPF_REG_0, BPF_REG_0, GEN_FIELDS_LOCK);
		break;
	case 7:		/* the lock's word written */
		gi_st(g, BPF_W, BPF_REG_0, GEN_FIELDS_LOCK, (int32_t)gen_pick(g->src, 2));
		gi_mov_const(g, BPF_REG_0, 1, true);
		break;
	case 8:		/* 8 bytes over the lock */
		gi_ldx(g, BPF_DW, BPF_REG_0, BPF_REG_0, 0);
		break;
	case 9:		/* a number into the kptr, from a register */
		input_byte(g, BPF_REG_2);
		gi_alu(g, true, BPF_OR, BPF_REG_2, 1);
		gi_stx(g, BPF_DW, BPF_REG_0, GEN_FIELDS_KPTR, BPF_REG_2);
		gi_mov_const(g, BPF_REG_0, 1, true);
		break;
	case 10:	/* a number into the kptr, BPF_ST */
		gi_st(g, BPF_DW, BPF_REG_0, GEN_FIELDS_KPTR, (int32_t)gen_u32(g->src, 1, 1000));
		gi_mov_const(g, BPF_REG_0, 1, true);
		break;
	default:	/* one of the first four u32 words: the lock's among them */
		input_byte(g, BPF_REG_2);
		gi_alu(g, true, BPF_AND, BPF_REG_2, 12);
		gi_alux(g, true, BPF_ADD, BPF_REG_0, BPF_REG_2);
		gi_ldx(g, BPF_W, BPF_REG_0, BPF_REG_0, 0);
		break;
	}
	fields_end(g, l_skip, twin, GEN_PROG_FIELD_UNSAFE);
}

void gi_stmt_spin_lock(struct gi *g)
{
	bool twin = g->k->p_spin_lock_bad && (!g->k->p_spin_lock || gen_bool(g->src, 50));
	unsigned form = gen_pick(g->src, 2), bad = twin ? gen_pick(g->src, 4) : 4;
	int l_skip;

	if ((l_skip = fields_begin(g)) < 0)
		return;
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_VALUE, BPF_REG_0);
	gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_0);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, GEN_FIELDS_LOCK);
	gi_call_helper(g, BPF_FUNC_spin_lock);
	if (bad == 0)		/* a helper with the lock held */
		gi_call_helper(g, BPF_FUNC_get_prandom_u32);
	if (bad == 2) {		/* the lock taken again */
		gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_VALUE);
		gi_alu(g, true, BPF_ADD, BPF_REG_1, GEN_FIELDS_LOCK);
		gi_call_helper(g, BPF_FUNC_spin_lock);
	}
	gi_ldx(g, BPF_DW, BPF_REG_0, EBPF_REG_FP, GEN_FP_VALUE);
	if (form == 0) {	/* the u32 before the lock, plus one */
		gi_ldx(g, BPF_W, BPF_REG_2, BPF_REG_0, 0);
		gi_alu(g, true, BPF_ADD, BPF_REG_2, 1);
		gi_stx(g, BPF_W, BPF_REG_0, 0, BPF_REG_2);
	} else {		/* the u64 after the kptr, plus an input byte */
		input_byte(g, BPF_REG_3);
		gi_ldx(g, BPF_DW, BPF_REG_2, BPF_REG_0, GEN_FIELDS_KPTR + 8);
		gi_alux(g, true, BPF_ADD, BPF_REG_2, BPF_REG_3);
		gi_stx(g, BPF_DW, BPF_REG_0, GEN_FIELDS_KPTR + 8, BPF_REG_2);
	}
	if (bad != 1) {		/* (1: never released) */
		gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_0);
		if (bad != 3)	/* (3: released at offset 0, not the lock's) */
			gi_alu(g, true, BPF_ADD, BPF_REG_1, GEN_FIELDS_LOCK);
		gi_call_helper(g, BPF_FUNC_spin_unlock);
	}
	gi_ldx(g, BPF_DW, BPF_REG_0, EBPF_REG_FP, GEN_FP_VALUE);
	gi_ldx(g, BPF_W, BPF_REG_0, BPF_REG_0, 0);
	fields_end(g, l_skip, twin, GEN_PROG_SPIN_LOCK_UNSAFE);
}

void gi_stmt_map_u64_ptr(struct gi *g)
{
	bool twin = g->k->p_map_u64_ptr_bad && (!g->k->p_map_u64_ptr || gen_bool(g->src, 50));
	unsigned form = twin ? 3 + gen_pick(g->src, 3) : gen_pick(g->src, 3);
	int16_t at = (int16_t)(8 * gen_pick(g->src, GEN_MAP_VALUE_SIZE / 8));
	int l_skip;

	if (g->raw_tp || g->fn->sub)
		return;
	/* (data_end is spilled only in programs that read the packet: p_pkt) */
	if ((form == 2 || form == 5) && !g->use_pkt)
		form = form == 2 ? 0 : 3;
	l_skip = gi_label(g);
	gi_scratch_release(g);
	gi_spill_caller_homes(g);
	lookup_input_key(g, 0, GEN_MAP_ENTRIES, l_skip, twin && g->hash_piece);
	if (twin && g->hash_piece)
		gi_st(g, BPF_DW, BPF_REG_0, at,
		      form == 3 ? GEN_MAP_VALUE_SIZE : form == 4 ? GEN_MAP_VALUE_SIZE - 7 : -1);
	/* r3 = a u64 of the value: any number another statement wrote */
	gi_ldx(g, BPF_DW, BPF_REG_3, BPF_REG_0, at);
	switch (form) {
	case 0:		/* masked to a multiple of 8 below the value's size */
		gi_alu(g, true, BPF_AND, BPF_REG_3, GEN_MAP_VALUE_SIZE - 8);
		gi_alux(g, true, BPF_ADD, BPF_REG_0, BPF_REG_3);
		gi_ldx(g, BPF_DW, BPF_REG_0, BPF_REG_0, 0);
		break;
	case 1:		/* tested against the last offset an 8-byte read fits at */
	case 4:		/* (the twin: one past it) */
		gi_alux(g, true, BPF_MOV, BPF_REG_4, BPF_REG_0);
		gi_mov_const(g, BPF_REG_0, 0, true);
		gi_jmp(g, false, BPF_JGT, BPF_REG_3,
		       GEN_MAP_VALUE_SIZE - 8 + (form == 4), l_skip);
		gi_alux(g, true, BPF_ADD, BPF_REG_4, BPF_REG_3);
		gi_ldx(g, BPF_DW, BPF_REG_0, BPF_REG_4, 0);
		break;
	case 2:		/* the packet's data plus it masked, tested against data_end */
	case 5:		/* (the twin: unmasked) */
		if (form == 2)
			gi_alu(g, true, BPF_AND, BPF_REG_3, GEN_INPUT_LEN / 2 - 1);
		gi_ldx(g, BPF_DW, BPF_REG_4, EBPF_REG_FP, GEN_FP_DATA);
		gi_alux(g, true, BPF_ADD, BPF_REG_4, BPF_REG_3);
		gi_alux(g, true, BPF_MOV, BPF_REG_5, BPF_REG_4);
		gi_alu(g, true, BPF_ADD, BPF_REG_5, 1);
		gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA_END);
		gi_mov_const(g, BPF_REG_0, 0, true);
		gi_jmpx(g, false, BPF_JGT, BPF_REG_5, BPF_REG_2, l_skip);
		gi_ldx(g, BPF_B, BPF_REG_0, BPF_REG_4, 0);
		break;
	default:	/* case 3: added to the value unmasked */
		gi_alux(g, true, BPF_ADD, BPF_REG_0, BPF_REG_3);
		gi_ldx(g, BPF_B, BPF_REG_0, BPF_REG_0, 0);
		break;
	}
	stmt_end(g, l_skip);
	g->use_map = true;
	if (twin)
		g->p->flags |= GEN_PROG_U64_PTR_UNSAFE;
}
