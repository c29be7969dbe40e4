/* Hash maps (issue 15): p_map_hash and its unsafe twin p_map_hash_bad.
 *
 * With either knob drawn, map 0 is a hash map instead of the array (gi_hash_plan): a
 * BPF_MAP_TYPE_HASH of GEN_MAP_ENTRIES elements, an LRU_HASH of GEN_MAP_LRU_ENTRIES (so many
 * that the kernel never evicts from it in the few updates of a run, which the kernel
 * differential's LRU rule, oracle/kernel/kdiff.c, checks), or a PERCPU_HASH when p_map_percpu is
 * drawn too.  Every statement that uses map 0 then uses the hash map: their lookups are
 * NULL-checked, so they stay safe; a bpf_for_each_map_elem callback (p_for_each) is then given no
 * early stop, so what it does (per element: its value's first u64 += key; the ctx's sum) does not
 * depend on the order it visits the elements in, which is the kernel's bucket order and the
 * interpreter's slot order.
 *
 * The interpreter's hash map starts empty in the campaign's runs (and from the kernel's elements
 * in the kernel differential's, kdiff.c), so a run's first lookup of a key the run has not
 * inserted gives NULL.  The prologue's piece (gi_hash_piece), r0-r8 clobbered (no variable has
 * a home yet):
 *
 *     a[0..8) = 0                                 the value buffer: the stack array's bytes
 *     n = data[j] & 7 (the twin's: | 1)
 *     for (i = 0; i < n; i++) {                   fill: -E2BIG past the 4 a HASH holds
 *             a[0] = 3i + c; a[1] = sum;
 *             sum += update(map, &i, a, flags)    flags BPF_ANY, or BPF_NOEXIST (-EEXIST when
 *     }                                           an earlier run left the key)
 *     i = 0; do {                                 lookups: keys [0, m), m in [1, 8]
 *             v = lookup(map, &i);
 *             if (v) { sum += v[o]; maybe v[o'] = sum; }
 *     } while (++i < m);
 *     sum += delete(map, &(data[k] & 7));         0 or -ENOENT
 *     a[0] = sum; update(map, &(data[l] & 7), a, BPF_ANY)
 *
 * so the results of the helpers end in the map, which the kernel differential compares.  The twin
 * drops the lookup loop's NULL check and looks up keys [8, 8 + m), which nothing inserts (every
 * run traps at its first lookup), or reads the 8 bytes at value_size - 4 of the values it finds
 * (key 0 is always inserted: n >= 1); the kernel refuses both ("map_value_or_null", "invalid
 * access to map value").
 */
#include "generators/gen_internal.h"

#include "bpf/isa.h"

void gi_hash_plan(struct gi *g)
{
	const struct gen_knobs *k = g->k;

	g->hash_piece = gen_bool(g->src, k->p_map_hash) ? 1 : gen_bool(g->src, k->p_map_hash_bad) ? 2
												       : 0;
	if (!g->hash_piece)
		return;
	g->use_map = true;
	g->map0_entries = GEN_MAP_ENTRIES;
	if (gen_bool(g->src, k->p_map_percpu)) {
		g->map0_type = BPF_MAP_TYPE_PERCPU_HASH;
	} else if (gen_bool(g->src, 30)) {
		g->map0_type = BPF_MAP_TYPE_LRU_HASH;
		g->map0_entries = GEN_MAP_LRU_ENTRIES;
	} else {
		g->map0_type = BPF_MAP_TYPE_HASH;
	}
	/* (the twins of p_null_copy and p_map_u64_ptr put the element they read in first: it
	 * must fit whatever the piece left, gen_stmt.c's stmt_map, gen_fields.c) */
	if ((k->p_null_stale || k->p_map_u64_ptr_bad) && g->map0_entries < GEN_MAP_HASH_KEYS)
		g->map0_entries = GEN_MAP_HASH_KEYS;
}

/* r2 = &key (GEN_FP_KEY), r1 = map 0 */
static void map_key_args(struct gi *g)
{
	gi_ld_map(g, BPF_REG_1, 0);
	gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_2, GEN_FP_KEY);
}

void gi_map0_update(struct gi *g, int32_t flags)
{
	map_key_args(g);
	gi_alux(g, true, BPF_MOV, BPF_REG_3, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_3, GEN_FP_ARRAY);
	gi_mov_const(g, BPF_REG_4, (uint64_t)flags, true);
	gi_call_helper(g, BPF_FUNC_map_update_elem);
}

/* key = data[drawn] & 7 */
static void input_key(struct gi *g)
{
	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_1, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
	gi_alu(g, true, BPF_AND, BPF_REG_1, 7);
	gi_stx(g, BPF_W, EBPF_REG_FP, GEN_FP_KEY, BPF_REG_1);
}

void gi_lookup_loop(struct gi *g, int idx, const struct gi_lookup_loop *ll)
{
	int top = gi_label(g), skip = gi_label(g), end = gi_label(g);

	gi_mov_const(g, BPF_REG_6, 0, true);
	gi_bind(g, top);
	ll->lookup(g, ll->arg);
	if (ll->checked)
		gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, skip);
	gi_ldx(g, BPF_DW, BPF_REG_1, BPF_REG_0, (int16_t)ll->off);
	gi_alux(g, true, BPF_ADD, BPF_REG_8, BPF_REG_1);
	if (ll->add_iv)
		gi_alux(g, true, BPF_ADD, BPF_REG_8, BPF_REG_6);
	if (ll->write)
		gi_stx(g, BPF_DW, BPF_REG_0, (int16_t)ll->woff, BPF_REG_8);
	gi_bind(g, skip);
	gi_alu(g, true, BPF_ADD, BPF_REG_6, 1);
	gi_jmp(g, false, BPF_JLT, BPF_REG_6, (int32_t)ll->m, top);
	gi_bind(g, end);
	unit_loop_describe(g, idx, top, end, GEN_FORM_DO_WHILE,
			   GEN_SH(DO_WHILE) | GEN_SH(BOUND_CONST) | GEN_SH(MAP) | GEN_SH(HELPER),
			   BPF_REG_6, ll->m, ll->m);
}

/* the lookup loop's call: r0 = lookup(map 0, &key), the key r6 (never_in: r6 + 8, which nothing
 * inserts) */
static void lookup_r6(struct gi *g, bool never_in)
{
	if (never_in) {
		gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_6);
		gi_alu(g, true, BPF_ADD, BPF_REG_1, 8);
		gi_stx(g, BPF_W, EBPF_REG_FP, GEN_FP_KEY, BPF_REG_1);
	} else {
		gi_stx(g, BPF_W, EBPF_REG_FP, GEN_FP_KEY, BPF_REG_6);
	}
	map_key_args(g);
	gi_call_helper(g, BPF_FUNC_map_lookup_elem);
}

void gi_hash_piece(struct gi *g)
{
	bool twin = g->hash_piece == 2;
	/* the twin: 0 reads without the NULL check (keys never inserted), 1 past the value */
	unsigned twin_kind = twin ? gen_pick(g->src, 2) : 0;
	uint32_t m = gen_u32(g->src, 1, 8), c = gen_u32(g->src, 0, 1000);
	int32_t off = twin && twin_kind == 1 ? GEN_MAP_VALUE_SIZE - 4
					     : 8 * (int32_t)gen_pick(g->src, GEN_MAP_VALUE_SIZE / 8);
	int32_t woff = 8 * (int32_t)gen_pick(g->src, GEN_MAP_VALUE_SIZE / 8);
	bool write = gen_bool(g->src, 50), noexist = gen_bool(g->src, 30);
	uint8_t j = (uint8_t)gen_pick(g->src, GEN_INPUT_LEN);
	int fidx = (int)g->p->nloops++, ftop = gi_label(g), fend = gi_label(g);
	int lidx = (int)g->p->nloops++;
	/* the twin: 0 no NULL check, keys never inserted */
	const struct gi_lookup_loop ll = { lookup_r6, twin && twin_kind == 0,
					   !(twin && twin_kind == 0), false, write, off, woff, m };

	for (int o = 0; o < GEN_MAP_VALUE_SIZE; o += 8)
		gi_st(g, BPF_DW, EBPF_REG_FP, (int16_t)(GEN_FP_ARRAY + o), 0);
	gi_ldx(g, BPF_DW, BPF_REG_7, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_7, BPF_REG_7, j);
	gi_alu(g, true, BPF_AND, BPF_REG_7, 7);
	if (twin)
		gi_alu(g, true, BPF_OR, BPF_REG_7, 1);
	gi_mov_const(g, BPF_REG_6, 0, true);
	gi_mov_const(g, BPF_REG_8, 0, true);
	/* the fill: while (i < n) */
	gi_while_up_head(g, BPF_REG_6, BPF_REG_7, ftop, fend);
	gi_stx(g, BPF_W, EBPF_REG_FP, GEN_FP_KEY, BPF_REG_6);
	gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_6);
	gi_alu(g, true, BPF_MUL, BPF_REG_1, 3);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, (int32_t)c);
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_ARRAY, BPF_REG_1);
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_ARRAY + 8, BPF_REG_8);
	gi_map0_update(g, noexist ? BPF_NOEXIST : BPF_ANY);
	gi_alux(g, true, BPF_ADD, BPF_REG_8, BPF_REG_0);
	gi_while_up_tail(g, BPF_REG_6, ftop, fend);
	unit_loop_describe(g, fidx, ftop, fend, GEN_FORM_WHILE,
			   GEN_SH(WHILE) | GEN_SH(BOUND_INPUT) | GEN_SH(MAP) | GEN_SH(HELPER), BPF_REG_6,
			   -1, 8);
	/* the lookups: do ... while (++i < m) */
	gi_lookup_loop(g, lidx, &ll);
	/* a delete, then the sum into an element */
	input_key(g);
	map_key_args(g);
	gi_call_helper(g, BPF_FUNC_map_delete_elem);
	gi_alux(g, true, BPF_ADD, BPF_REG_8, BPF_REG_0);
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_ARRAY, BPF_REG_8);
	input_key(g);
	gi_map0_update(g, BPF_ANY);
	if (twin)
		g->p->flags |= GEN_PROG_HASH_UNSAFE;
}
