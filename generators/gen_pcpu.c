/* bpf_map_lookup_percpu_elem (issue 15): p_map_lookup_percpu and its unsafe twin
 * p_map_lookup_percpu_bad.
 *
 * With either knob drawn, map 0 is a per-CPU map (gi_pcpu_plan): a PERCPU_ARRAY, or, when the
 * hash piece (gen_hash.c) makes it a hash map, its per-CPU form (PERCPU_HASH, LRU_PERCPU_HASH).
 * The prologue's piece (gi_pcpu_piece, after the hash piece; r0-r8 clobbered, no variable has a
 * home yet) reads one key in the copies of several CPUs, the running one's included:
 *
 *     key = data[j] & 3 (a hash map's: & 7)
 *     sum = 0
 *     maybe: v = lookup_percpu(map, &key, get_smp_processor_id()); if (v) sum += v[o];
 *     cpu = 0; do {                               cpus [0, m), m in [1, 4]: past the possible
 *             v = lookup_percpu(map, &key, cpu);  CPUs (2 in the interpreter's runs; the
 *             if (v) {                            kernel's: libbpf_num_possible_cpus) NULL
 *                     sum += v[o] + cpu;
 *                     maybe v[o'] = sum;          another CPU's copy written
 *             }
 *     } while (++cpu < m);
 *
 * so what it reads and writes ends in the map's copies, which the kernel differential compares
 * CPU by CPU (oracle/kernel/kdiff.c).  The twin drops the NULL check and runs the cpus up to 3
 * or 4 (the interpreter's third CPU does not exist: NULL on every run, as the kernel gives on a
 * machine of fewer CPUs; the verifier refuses it on any, "map_value_or_null"), or, for an array
 * (whose key always finds its element), keeps the check and reads the 8 bytes at value_size - 4
 * ("invalid access to map value").
 */
#include "generators/gen_internal.h"

#include "bpf/isa.h"

/* the cpus of the safe form's loop: [0, m), m at most this */
#define PCPU_MAX_CPU 4

void gi_pcpu_plan(struct gi *g)
{
	const struct gen_knobs *k = g->k;

	g->pcpu_piece = gen_bool(g->src, k->p_map_lookup_percpu)	 ? 1
			: gen_bool(g->src, k->p_map_lookup_percpu_bad) ? 2
								       : 0;
	if (!g->pcpu_piece)
		return;
	g->use_map = true;
	if (g->map0_type == BPF_MAP_TYPE_HASH)
		g->map0_type = BPF_MAP_TYPE_PERCPU_HASH;
	else if (g->map0_type == BPF_MAP_TYPE_LRU_HASH)
		g->map0_type = BPF_MAP_TYPE_LRU_PERCPU_HASH;
	else if (!g->map0_type)
		g->map0_type = BPF_MAP_TYPE_PERCPU_ARRAY;
}

/* r0 = lookup_percpu(map 0, &key, r3) */
static void lookup_call(struct gi *g)
{
	gi_ld_map(g, BPF_REG_1, 0);
	gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_2, GEN_FP_KEY);
	gi_call_helper(g, BPF_FUNC_map_lookup_percpu_elem);
}

/* the cpus loop's call: r0 = lookup_percpu(map 0, &key, r6) */
static void lookup_cpu_r6(struct gi *g, bool unused)
{
	(void)unused;
	gi_alux(g, true, BPF_MOV, BPF_REG_3, BPF_REG_6);
	lookup_call(g);
}

void gi_pcpu_piece(struct gi *g)
{
	bool twin = g->pcpu_piece == 2, array = g->map0_type == BPF_MAP_TYPE_PERCPU_ARRAY;
	/* the twin: 0 no NULL check and a cpu past the interpreter's, 1 (arrays) past the value */
	unsigned twin_kind = twin && array ? gen_pick(g->src, 2) : 0;
	uint32_t m = twin && twin_kind == 0 ? gen_u32(g->src, 3, PCPU_MAX_CPU)
					    : gen_u32(g->src, 1, PCPU_MAX_CPU);
	int32_t off = twin && twin_kind == 1 ? GEN_MAP_VALUE_SIZE - 4
					     : 8 * (int32_t)gen_pick(g->src, GEN_MAP_VALUE_SIZE / 8);
	int32_t woff = 8 * (int32_t)gen_pick(g->src, GEN_MAP_VALUE_SIZE / 8);
	bool write = gen_bool(g->src, 60), smp = gen_bool(g->src, 30);
	uint8_t j = (uint8_t)gen_pick(g->src, GEN_INPUT_LEN);
	int lidx = (int)g->p->nloops++, sskip = gi_label(g);
	const struct gi_lookup_loop ll = { lookup_cpu_r6, false, !(twin && twin_kind == 0), true,
					   write, off, woff, m };

	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_1, j);
	gi_alu(g, true, BPF_AND, BPF_REG_1, array ? 3 : 7);
	gi_stx(g, BPF_W, EBPF_REG_FP, GEN_FP_KEY, BPF_REG_1);
	gi_mov_const(g, BPF_REG_8, 0, true);
	/* the running CPU's copy by its number (the kernel differential pins the run and tells
	 * the interpreter the CPU; elsewhere the id is drawn, any u32) */
	if (smp && !twin) {
		gi_call_helper(g, BPF_FUNC_get_smp_processor_id);
		gi_alux(g, true, BPF_MOV, BPF_REG_3, BPF_REG_0);
		lookup_call(g);
		gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, sskip);
		gi_ldx(g, BPF_DW, BPF_REG_1, BPF_REG_0, (int16_t)off);
		gi_alux(g, true, BPF_ADD, BPF_REG_8, BPF_REG_1);
		gi_bind(g, sskip);
	}
	/* the cpus: do ... while (++cpu < m) */
	gi_lookup_loop(g, lidx, &ll);
	if (twin)
		g->p->flags |= GEN_PROG_PCPU_UNSAFE;
}
