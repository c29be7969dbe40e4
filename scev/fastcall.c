/* The kernel's bpf_fastcall rewrite and the stack depth it leaves (verifier.c:
 * mark_fastcall_patterns, check_fastcall_stack_contract, remove_fastcall_spills_fills).  Around
 * a call the kernel inlines without touching the registers it does not clobber
 * (bpf_get_smp_processor_id on x86-64, in the program types inlines_cpu_id lists: r0 only),
 * spills of those registers just before it and their fills just after it, pair by pair
 * outwards from the function's lowest 8-byte spill offset upwards (the i-th pair at lowest_off
 * + 8(i - 1), one register each, none of the instructions after the first spill a jump
 * target), are removed after verification, and when nothing else of the function touches its
 * stack below the pattern's top (fastcall_stack_off) its stack depth becomes the bytes above
 * it: the combined stack of call chains (check_max_stack_depth) is counted with that depth.  A
 * pattern around another call (a helper or kfunc the kernel does not inline) keeps the
 * function's whole stack (keep_fastcall_stack); here any spill/fill pair of r0-r5 at the lowest
 * offset around one counts as such a pattern, which the kernel's clobber masks only make rarer
 * (a kept stack is the larger depth).
 *
 * Only a function with one such pattern is lowered (see scev_fastcall_mark); its probes against
 * the running kernel are corpus/cases/fastcall_*.case and tests/test_verify.c's "bpf_fastcall"
 * call cases.
 *
 * scev_fastcall_mark marks the patterns' instructions before the verdict's pass (the verdict
 * then counts a frame's depth apart for the accesses that are not theirs: fn_stack_np,
 * absint_verdict.c frame_depth_at); scev_fastcall_depths lowers each function's depth after
 * it.  The kernel checks the contract on the paths it walks; the accesses with r10 as their
 * base in a function are counted here whether or not the analysis reaches them.
 */
#include <errno.h>
#include <stdlib.h>

#include "scev/internal.h"
#include "util/arena.h"

#define FC_NONE INT32_MIN	/* a function with no pattern the kernel removes */

/* The pairs of the pattern around the call at pc (0: none), marked in pat; *top its top. */
static unsigned pattern(const struct bpf_insn *insns, uint32_t start, uint32_t end,
			const uint8_t *target, uint32_t pc, int16_t lowest, uint16_t want,
			uint8_t *pat, int32_t *top)
{
	int32_t off = lowest;
	unsigned i;

	for (i = 1; i <= 6; i++, off += 8) {	/* (caller_saved: r0-r5) */
		const struct bpf_insn *stx, *ldx;

		if (pc < start + i || pc + i >= end)
			break;
		if (target[pc - i + 1] || target[pc + i])
			break;
		stx = &insns[pc - i];
		ldx = &insns[pc + i];
		if (stx->code != (BPF_STX | BPF_MEM | BPF_DW) ||
		    ldx->code != (BPF_LDX | BPF_MEM | BPF_DW) || stx->dst_reg != EBPF_REG_FP ||
		    ldx->src_reg != EBPF_REG_FP || stx->src_reg != ldx->dst_reg)
			break;
		if (stx->src_reg > 5 || !(want & (1u << stx->src_reg)))
			break;
		if (stx->off != off || ldx->off != off)
			break;
		want &= (uint16_t)~(1u << stx->src_reg);
		pat[pc - i] = pat[pc + i] = 1;
	}
	*top = off;
	return i - 1;
}

/* The program types whose bpf_get_smp_processor_id is the kernel's bpf_fastcall one
 * (bpf_get_smp_processor_id_proto, .allow_fastcall: tc_cls_act_func_proto, xdp_func_proto,
 * lwt_out_func_proto and the tracing types'), each probed on the running kernel (a callee's
 * pattern with 512 bytes in main: accepted); the others get bpf_base_func_proto's
 * bpf_get_raw_smp_processor_id_proto, which the kernel does not inline (socket, cgroup_skb,
 * sock_ops, flow_dissector, sk_skb, ...: refused for 528 bytes).  TRACING and LSM are not
 * probed here (the kernel refuses their loads before verifying): no pattern is removed. */
static bool inlines_cpu_id(uint32_t type)
{
	switch (type) {
	case BPF_PROG_TYPE_SCHED_CLS: case BPF_PROG_TYPE_SCHED_ACT: case BPF_PROG_TYPE_XDP:
	case BPF_PROG_TYPE_KPROBE: case BPF_PROG_TYPE_TRACEPOINT: case BPF_PROG_TYPE_PERF_EVENT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT: case BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE:
	case BPF_PROG_TYPE_LWT_IN: case BPF_PROG_TYPE_LWT_OUT: case BPF_PROG_TYPE_LWT_XMIT:
	case BPF_PROG_TYPE_LWT_SEG6LOCAL: case BPF_PROG_TYPE_SYSCALL:
		return true;
	default:
		return false;
	}
}

int scev_fastcall_mark(struct scev_ctx *cx)
{
	const struct scev_cfg *cfg = cx->st.cfg;
	const struct bpf_insn *in = cx->insns;
	uint8_t *target;

	cx->fc_pat = arena_zalloc(cx->len ? cx->len : 1, 1);
	cx->fc_top = arena_zalloc(cfg->nfuncs ? cfg->nfuncs : 1, sizeof(*cx->fc_top));
	cx->fn_stack_np = arena_zalloc(cfg->nfuncs ? cfg->nfuncs : 1, sizeof(*cx->fn_stack_np));
	target = calloc(cx->len + 1, 1);
	if (!cx->fc_pat || !cx->fc_top || !cx->fn_stack_np || !target) {
		free(target);
		return -ENOMEM;
	}
	/* (check_cfg's jump targets: a jump's, a bpf-to-bpf call's and a function address's) */
	for (uint32_t pc = 0; pc < cx->len; pc += ebpf_insn_slots(&in[pc])) {
		long t;

		if (ebpf_insn_has_target(&in[pc]) && (t = ebpf_insn_target(&in[pc], pc)) >= 0 &&
		    (uint64_t)t < cx->len)
			target[t] = 1;
	}
	for (uint32_t f = 0; f < cfg->nfuncs; f++) {
		uint32_t start = cfg->funcs[f].start, end = cfg->funcs[f].end;
		int16_t lowest = 0;
		int32_t top = 0, low_top = INT32_MAX;
		bool modified = false, keep = false;
		unsigned npat = 0;

		for (uint32_t pc = start; pc < end; pc += ebpf_insn_slots(&in[pc]))
			if (in[pc].code == (BPF_STX | BPF_MEM | BPF_DW) &&
			    in[pc].dst_reg == EBPF_REG_FP && in[pc].off < lowest)
				lowest = in[pc].off;
		for (uint32_t pc = start; pc < end; pc += ebpf_insn_slots(&in[pc])) {
			bool inlined = ebpf_is_helper_call(&in[pc]) &&
				       in[pc].imm == BPF_FUNC_get_smp_processor_id &&
				       inlines_cpu_id(cx->prog_type);
			unsigned n;

			if (!ebpf_is_call(&in[pc]) || ebpf_is_pseudo_call(&in[pc]))
				continue;
			/* (bpf_get_smp_processor_id: r0 clobbered, r1-r5 kept; another call:
			 * any of r0-r5 may be kept, as far as this file knows) */
			n = pattern(in, start, end, target, pc, lowest, inlined ? 0x3e : 0x3f,
				    cx->fc_pat, &top);
			if (!n)
				continue;
			npat++;
			if (inlined)
				modified = true;
			else
				keep = true;
			if (top < low_top)
				low_top = top;
		}
		/* (one pattern in the function only: with two, this kernel (6.18) keeps the
		 * bytes below the higher top, not 6.12's lower one (a pair at -16 around one call
		 * and pairs at -16 and -8 around the other, either order: 0 bytes; a pair at -16
		 * around each: 8), a rule not read in its source: a function with two keeps its
		 * whole depth, which is only the larger) */
		cx->fc_top[f] = modified && !keep && npat == 1 ? low_top : FC_NONE;
		/* (every access with r10 as its base that is not a pattern's, reached or not) */
		for (uint32_t pc = start; pc < end; pc += ebpf_insn_slots(&in[pc])) {
			const struct bpf_insn *i = &in[pc];
			uint8_t cls = ebpf_class(i);
			bool fp = cls == BPF_LDX ? i->src_reg == EBPF_REG_FP
				  : (cls == BPF_ST || cls == BPF_STX) && i->dst_reg == EBPF_REG_FP;

			if (fp && !cx->fc_pat[pc] && i->off < 0 &&
			    (uint32_t)(-(int32_t)i->off + 7) / 8 * 8 > cx->fn_stack_np[f])
				cx->fn_stack_np[f] = (uint32_t)(-(int32_t)i->off + 7) / 8 * 8;
		}
	}
	free(target);
	return 0;
}

void scev_fastcall_depths(const struct scev_ctx *cx, uint32_t *fn_stack)
{
	if (!cx->fc_top || !cx->fn_stack_np || !fn_stack)
		return;
	for (uint32_t f = 0; f < cx->st.cfg->nfuncs; f++) {
		int32_t top = cx->fc_top[f];

		/* (check_fastcall_stack_contract: an access below the top by anything but a
		 * pattern keeps the whole stack) */
		if (top == FC_NONE || top > 0 || cx->fn_stack_np[f] > (uint32_t)-top)
			continue;
		if ((uint32_t)-top < fn_stack[f])
			fn_stack[f] = (uint32_t)-top;
	}
}
