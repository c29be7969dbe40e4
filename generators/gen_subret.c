/* A static function returning a map lookup's result (issue 15): p_sub_ret_ptr and its unsafe twin
 * p_sub_ret_ptr_bad, a piece of the prologue.
 *
 * The kernel gives a static function's caller what the function returned: a map value or NULL
 * (PTR_TO_MAP_VALUE_OR_NULL; after a NULL test in the function, the value at an offset, or the
 * number 0), which the caller's NULL test of it or of any copy settles.  bpfscev's subprogram
 * summary returns the pointer with its map and range, and the call gives it an identity of its
 * own (scev/absint_transfer.c: call_result); before, the caller saw a number (the kernel
 * selftest test_cls_redirect_subprogs.o's first lookup).  The piece, r0-r5 clobbered:
 *
 *     r2 = data; r1 = *(u8 *)(r2 + b); r1 &= 3      main: a key of the input
 *     call f
 *     form 0: if (r0 == 0) goto out                  the test on r0
 *     form 1: r3 = r0; if (r3 == 0) goto out         on a copy, the load through r0
 *     form 2: *(u64 *)(fp + GEN_FP_VALUE) = r0; r3 = *(u64 *)(fp + GEN_FP_VALUE);
 *             if (r3 == 0) goto out                  on a spill's fill
 *     r1 = *(u64 *)(r0 + o)                          o in [0, 56 - c], 8-aligned
 *   out:
 *
 *     f(key): *(u32 *)(r10 - 4) = w1; r2 = r10 - 4; r0 = lookup(map 0, r2)
 *             (c > 0: if (r0 == 0) goto ret; r0 += c; ret:) return r0
 *
 * c in {0, 8, 16, 24, 32}.  The key is the input's (the kernel cannot tell a value is found;
 * over a hash map, p_map_hash, none may be).  The twins (GEN_PROG_SUB_RET_UNSAFE): kind 1 drops
 * main's test and asks for key 8 | (data[b] & 3), which no element has (an array's keys stop at
 * 3, the hash statements insert 0-7): every run loads through NULL; kind 2 (an array map 0
 * only, whose keys 0-3 are all found) loads at o = 64 - c, the 8 bytes past the value: every run
 * loads past it.  Both INTERP_TRAP_MEM on every run; the kernel refuses both ("invalid mem
 * access 'map_value_or_null'", "invalid access to map value").
 */
#include "generators/gen_internal.h"

#include "bpf/isa.h"

void gi_sub_ret_call(struct gi *g, bool bad)
{
	int s = gi_sub_new(g, SUBK_CALLBACK, 1), l_out = gi_label(g);
	bool array = !g->hash_piece;
	unsigned form = gen_pick(g->src, 3), kind = bad ? 1 + (array ? gen_pick(g->src, 2) : 0) : 0;
	uint32_t c = 8 * gen_pick(g->src, 5), b = gen_pick(g->src, GEN_INPUT_LEN);
	int16_t o = (int16_t)(kind == 2 ? GEN_MAP_VALUE_SIZE - c
				       : 8 * gen_pick(g->src, (GEN_MAP_VALUE_SIZE - c) / 8));
	struct gi_sub *f;

	if (s < 0)
		return;
	f = &g->subs[s];
	f->called = true;
	f->ret_ptr = (uint8_t)(1 + c);
	g->use_map = true;
	gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_2, (int16_t)b);
	gi_alu(g, true, BPF_AND, BPF_REG_1, 3);
	if (kind == 1)
		gi_alu(g, true, BPF_OR, BPF_REG_1, 8);
	gi_call_sub(g, f->label);
	if (kind != 1 && form == 0) {
		gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, l_out);
	} else if (kind != 1) {
		if (form == 1) {
			gi_alux(g, true, BPF_MOV, BPF_REG_3, BPF_REG_0);
		} else {
			gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_VALUE, BPF_REG_0);
			gi_ldx(g, BPF_DW, BPF_REG_3, EBPF_REG_FP, GEN_FP_VALUE);
		}
		gi_jmp(g, false, BPF_JEQ, BPF_REG_3, 0, l_out);
	}
	gi_ldx(g, BPF_DW, BPF_REG_1, BPF_REG_0, o);
	gi_bind(g, l_out);
	g->p->shapes |= GEN_SH(SUBPROG) | GEN_SH(HELPER);
	if (bad)
		g->p->flags |= GEN_PROG_SUB_RET_UNSAFE;
}

void gi_emit_sub_ret(struct gi *g, struct gi_sub *s)
{
	int l_ret = gi_label(g);
	int32_t c = s->ret_ptr - 1;

	gi_bind(g, s->label);
	gi_stx(g, BPF_W, EBPF_REG_FP, -4, BPF_REG_1);
	gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_2, -4);
	gi_ld_map(g, BPF_REG_1, 0);
	gi_call_helper(g, BPF_FUNC_map_lookup_elem);
	if (c) {
		gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, l_ret);
		gi_alu(g, true, BPF_ADD, BPF_REG_0, c);
		gi_bind(g, l_ret);
	}
	gi_exit(g);
}
