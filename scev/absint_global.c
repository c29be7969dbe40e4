/* Global functions (ebpf_prog.globals: BTF_FUNC_GLOBAL linkage in the object's BTF), as the
 * kernel treats them: each is verified on its own, once, from arguments its BTF prototype gives
 * (btf_prepare_func_args: an integer or enum is any scalar, a pointer to the program type's
 * context struct is the context, a pointer to something of known size is that many bytes of
 * memory that may be NULL — REGION_GMEM — and the registers past the prototype's are unwritten),
 * whatever its callers pass; a call is checked against the prototype (btf_check_subprog_call)
 * and gives the caller an unknown scalar, with the memory it passed written (check_mem_reg).
 * Functions with no entry, and every function of a program without BTF, are static: their
 * callers' arguments flow into them (the summaries of scev.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scev/absint.h"
#include "util/arena.h"

/* Context struct names of the program types (the kernel's bpf_ctx_convert); a pointer to one
 * of them not the analyzed type's is not modeled. */
static const char *const ctx_names[] = {
	"__sk_buff", "xdp_md", "pt_regs", "bpf_perf_event_data", "bpf_sock_ops", "bpf_sock",
	"bpf_sock_addr", "sk_msg_md", "sk_reuseport_md", "bpf_sk_lookup", "bpf_sockopt",
	"bpf_sysctl", "bpf_cgroup_dev_ctx", "bpf_raw_tracepoint_args", "bpf_nf_ctx",
	"bpf_flow_keys", "user_pt_regs", "bpf_user_pt_regs_t", "sk_buff", "xdp_buff",
};

/* The context struct of a program type, as btf_is_prog_ctx_type compares a global function's
 * argument with it (the kernel's bpf_ctx_convert: __sk_buff, or its projection sk_buff, for the
 * packet types; struct pt_regs, which bpf_user_pt_regs_t names, for kprobes), NULL for the
 * types whose context is no named struct (tracepoint, tracing, lsm, syscall, ...). */
static bool own_ctx_struct(uint32_t prog_type, const char *tname)
{
	const char *own;

	switch (prog_type) {
	case BPF_PROG_TYPE_SOCKET_FILTER: case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT: case BPF_PROG_TYPE_CGROUP_SKB: case BPF_PROG_TYPE_LWT_IN:
	case BPF_PROG_TYPE_LWT_OUT: case BPF_PROG_TYPE_LWT_XMIT:
	case BPF_PROG_TYPE_LWT_SEG6LOCAL: case BPF_PROG_TYPE_SK_SKB:
	case BPF_PROG_TYPE_FLOW_DISSECTOR:
		return !strcmp(tname, "__sk_buff") || !strcmp(tname, "sk_buff");
	case BPF_PROG_TYPE_XDP:
		return !strcmp(tname, "xdp_md") || !strcmp(tname, "xdp_buff");
	case BPF_PROG_TYPE_KPROBE: own = "pt_regs"; break;
	case BPF_PROG_TYPE_PERF_EVENT: own = "bpf_perf_event_data"; break;
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE: own = "bpf_raw_tracepoint_args"; break;
	case BPF_PROG_TYPE_SOCK_OPS: own = "bpf_sock_ops"; break;
	case BPF_PROG_TYPE_CGROUP_SOCK: own = "bpf_sock"; break;
	case BPF_PROG_TYPE_CGROUP_SOCK_ADDR: own = "bpf_sock_addr"; break;
	case BPF_PROG_TYPE_SK_MSG: own = "sk_msg_md"; break;
	case BPF_PROG_TYPE_SK_REUSEPORT: own = "sk_reuseport_md"; break;
	case BPF_PROG_TYPE_SK_LOOKUP: own = "bpf_sk_lookup"; break;
	case BPF_PROG_TYPE_CGROUP_SOCKOPT: own = "bpf_sockopt"; break;
	case BPF_PROG_TYPE_CGROUP_SYSCTL: own = "bpf_sysctl"; break;
	case BPF_PROG_TYPE_CGROUP_DEVICE: own = "bpf_cgroup_dev_ctx"; break;
	default: return false;
	}
	return !strcmp(tname, own);
}

const struct ebpf_global_func *absint_global(const struct scev_ctx *cx, uint32_t f)
{
	return cx->fn_global ? cx->fn_global[f] : NULL;
}

enum global_arg absint_global_arg(const struct scev_ctx *cx, const struct ebpf_func_arg *a)
{
	switch (a->kind) {
	case EBPF_FARG_INT:
		return GARG_SCALAR;
	case EBPF_FARG_PTR:
		if (own_ctx_struct(cx->prog_type, a->tname))
			return GARG_CTX;
		if (!strcmp(a->tname, "bpf_dynptr"))
			return GARG_DYNPTR;	/* (btf_prepare_func_args: ARG_PTR_TO_DYNPTR) */
		for (size_t k = 0; k < sizeof(ctx_names) / sizeof(ctx_names[0]); k++)
			if (!strcmp(a->tname, ctx_names[k]))
				return GARG_UNMODELED;
		return a->size <= UINT16_MAX ? GARG_MEM : GARG_UNMODELED;
	default:
		return GARG_BAD;
	}
}

int absint_global_setup(struct scev_ctx *cx)
{
	const struct scev_cfg *cfg = cx->st.cfg;
	bool any = false;

	if (!cx->prog || !cx->prog->global_cnt || cfg->nfuncs < 2)
		return 0;
	cx->fn_global = arena_zalloc(cfg->nfuncs, sizeof(*cx->fn_global));
	if (!cx->fn_global)
		return -ENOMEM;
	for (uint32_t f = 1; f < cfg->nfuncs; f++) {
		cx->fn_global[f] = ebpf_prog_global(cx->prog, cfg->funcs[f].start);
		any = any || cx->fn_global[f];
	}
	/* a global function whose address is taken is a callback, which the kernel refuses
	 * (check_ld_imm: "callback function not static"; absint_verdict.c); analyzed as one */
	for (uint32_t pc = 0; any && pc < cx->len; pc += ebpf_insn_slots(&cx->insns[pc]))
		if (ebpf_is_ldimm64(&cx->insns[pc]) && cx->insns[pc].src_reg == BPF_PSEUDO_FUNC)
			cx->fn_global[cfg->blocks[cfg->block_of[pc + 1 + cx->insns[pc].imm]].func] =
				NULL;
	return 0;
}

void absint_global_args(const struct scev_ctx *cx, uint32_t f, struct aval args[6])
{
	const struct ebpf_global_func *g = absint_global(cx, f);

	for (int r = 0; r < 6; r++)
		args[r] = aval_top();
	for (int k = 0; g && k < g->nargs && k < 5; k++) {
		struct aval *a = &args[k + 1];

		switch (absint_global_arg(cx, &g->args[k])) {
		case GARG_SCALAR:
			*a = aval_scalar(range_unknown());
			break;
		case GARG_CTX:
			*a = aval_ptr(REGION_CTX, 0, range_const(0));
			break;
		case GARG_DYNPTR:
			*a = aval_ptr(REGION_DYNPTR, 0, range_const(0));
			break;
		case GARG_MEM:
			*a = aval_ptr(REGION_GMEM, (uint16_t)g->args[k].size, range_const(0));
			a->maybe_null = true;
			a->id = aval_null_id(cx->st.cfg->funcs[f].start + (uint32_t)k);
			break;
		default:
			break;
		}
	}
}

uint16_t absint_global_init(const struct scev_ctx *cx, uint32_t f)
{
	const struct ebpf_global_func *g = absint_global(cx, f);
	unsigned n = g ? (g->nargs < 5 ? g->nargs : 5) : 5;

	return (uint16_t)(((1u << n) - 1) << 1);
}

struct aval absint_global_call(struct scev_ctx *cx, const struct astate *s, uint32_t pc,
			       const struct ebpf_global_func *g, struct stack_span *w)
{
	bool whole = false;

	*w = (struct stack_span){ 0, 0 };
	for (int r = 1; r <= 5; r++) {
		const struct aval *a = &s->regs[r];
		enum global_arg k = r <= g->nargs ? absint_global_arg(cx, &g->args[r - 1])
						  : GARG_UNMODELED;
		bool mem = k == GARG_MEM;

		/* (a dynptr: the function reads, writes or slices its memory, never its 16 bytes) */
		if (k == GARG_DYNPTR && a->kind == AV_PTR && a->region == REGION_STACK)
			continue;

		/* a pointer into a caller's frame: the function writes its bytes there, which
		 * that frame's other readers through pointers must forget (outer_write) */
		if (a->kind == AV_PTR && a->region == REGION_CALLER_STACK)
			absint_cb_note_write(cx, pc, a, 0, mem ? g->args[r - 1].size : FP_FRAME,
					     NULL);
		if (a->kind == AV_TOP && r <= g->nargs)
			whole = true;	/* (verify refuses it; the runs may pass anything) */
		else if (a->kind == AV_PTR && a->region == REGION_STACK) {
			if (!mem || a->r.smin < -FP_FRAME || a->r.smax > 0)
				whole = true;
			else
				stack_span_add(w, a->r.smin, a->r.smax + (int64_t)g->args[r - 1].size);
		}
	}
	if (whole)
		stack_span_add(w, -FP_FRAME, 0);
	return aval_scalar(range_unknown());
}
