/* The helper prototypes (see helper_proto.h).  Each line restates the kernel's func_proto for
 * that helper (kernel/bpf/helpers.c, kernel/trace/bpf_trace.c, net/core/filter.c): argument
 * kinds in order, result, who may call it (tests/test_helper_types.c holds the last against the
 * running kernel for every type it loads without an attach target: root's view, so the helpers
 * bpf_base_func_proto gives a CAP_PERFMON loader are every type's).  Helpers are added here when the analyzer and the
 * interpreter both handle every kind they use; anything else stays "not modeled".
 */
#include "bpf/helper_proto.h"

#include <stddef.h>

#define A(...) { __VA_ARGS__ }
#define ANY HARG_ANYTHING
#define MAP HARG_MAP
#define KEY HARG_MAP_KEY
#define VAL HARG_MAP_VALUE
#define MEM HARG_MEM
#define MEMN HARG_MEM_OR_NULL
#define MEMRW HARG_MEM_RW
#define OUT HARG_MEM_UNINIT
#define SZ HARG_SIZE
#define SZ0 HARG_SIZE_OR_ZERO
#define CTX HARG_CTX
#define ALLOC HARG_ALLOC_SIZE
#define RBREL HARG_RINGBUF_RELEASE
#define I64 HRET_INTEGER, 0, INT64_MIN, INT64_MAX
#define I64F(f) HRET_INTEGER, (f), INT64_MIN, INT64_MAX
#define U32 HRET_INTEGER, 0, 0, UINT32_MAX
/* the skb helpers of socket filters and tc alike (sk_filter_func_proto's common part) */
#define HPT_SKB (HPT(BPF_PROG_TYPE_SOCKET_FILTER) | HPT_TC | HPT(BPF_PROG_TYPE_CGROUP_SKB) |   \
		 HPT(BPF_PROG_TYPE_LWT_IN) | HPT(BPF_PROG_TYPE_LWT_OUT) |                     \
		 HPT(BPF_PROG_TYPE_LWT_XMIT) | HPT(BPF_PROG_TYPE_SK_SKB))
#define T(x) HPT(BPF_PROG_TYPE_##x)
#define HPT_LWT (T(LWT_IN) | T(LWT_OUT) | T(LWT_XMIT))
/* bpf_base_func_proto's part for a loader with CAP_PERFMON (root): every program type */
#define HPT_PERFMON HPT_ALL

static const struct ebpf_helper_proto protos[] = {
	{ BPF_FUNC_map_lookup_elem, A(MAP, KEY), HRET_MAP_VALUE_OR_NULL, HF_PKT_ACCESS, 0, 0,
	  HPT_ALL },
	{ BPF_FUNC_map_update_elem, A(MAP, KEY, VAL, ANY), I64F(HF_PKT_ACCESS), HPT_ALL },
	{ BPF_FUNC_map_delete_elem, A(MAP, KEY), I64F(HF_PKT_ACCESS), HPT_ALL },
	{ BPF_FUNC_probe_read, A(OUT, SZ0, ANY), I64, HPT_TRACE | T(SYSCALL) },
	{ BPF_FUNC_ktime_get_ns, A(0), I64, HPT_ALL },
	{ BPF_FUNC_trace_printk, A(MEM, SZ), I64, HPT_ALL },	/* r3-r5 are not checked */
	{ BPF_FUNC_get_prandom_u32, A(0), U32, HPT_ALL },
	{ BPF_FUNC_get_smp_processor_id, A(0), U32, HPT_ALL },
	{ BPF_FUNC_skb_store_bytes, A(CTX, ANY, MEM, SZ, ANY), I64F(HF_CHANGES_PKT),
	  HPT_TC | HPT(BPF_PROG_TYPE_LWT_XMIT) | HPT(BPF_PROG_TYPE_SK_SKB) },
	{ BPF_FUNC_l3_csum_replace, A(CTX, ANY, ANY, ANY, ANY), I64F(HF_CHANGES_PKT),
	  HPT_TC | HPT(BPF_PROG_TYPE_LWT_XMIT) },
	{ BPF_FUNC_l4_csum_replace, A(CTX, ANY, ANY, ANY, ANY), I64F(HF_CHANGES_PKT),
	  HPT_TC | HPT(BPF_PROG_TYPE_LWT_XMIT) },
	{ BPF_FUNC_tail_call, A(CTX, MAP, ANY), I64F(HF_NO_RETURN_VALUE), HPT_ALL },
	{ BPF_FUNC_clone_redirect, A(CTX, ANY, ANY), I64F(HF_CHANGES_PKT),
	  HPT_TC | HPT(BPF_PROG_TYPE_LWT_XMIT) },
	{ BPF_FUNC_get_current_pid_tgid, A(0), I64, HPT_ALL },
	{ BPF_FUNC_get_current_uid_gid, A(0), I64, HPT_ALL },
	{ BPF_FUNC_get_current_comm, A(OUT, SZ), I64, HPT_ALL },
	{ BPF_FUNC_get_cgroup_classid, A(CTX), U32, HPT_ALL },	/* the current task's elsewhere */
	{ BPF_FUNC_skb_vlan_push, A(CTX, ANY, ANY), I64F(HF_CHANGES_PKT), HPT_TC },
	{ BPF_FUNC_skb_vlan_pop, A(CTX), I64F(HF_CHANGES_PKT), HPT_TC },
	{ BPF_FUNC_perf_event_read, A(MAP, ANY), I64, HPT_PERFMON },
	/* the tunnel metadata helpers (net/core/filter.c): a key or option struct of a constant
	 * size, read from or written to memory; no packet data moves */
	{ BPF_FUNC_skb_get_tunnel_key, A(CTX, OUT, SZ, ANY), I64,
	  HPT_TC | HPT(BPF_PROG_TYPE_LWT_XMIT) },
	{ BPF_FUNC_skb_set_tunnel_key, A(CTX, MEM, SZ, ANY), I64,
	  HPT_TC | HPT(BPF_PROG_TYPE_LWT_XMIT) },
	{ BPF_FUNC_redirect, A(ANY, ANY), I64, HPT_TC | HPT(BPF_PROG_TYPE_XDP) |
	  HPT(BPF_PROG_TYPE_LWT_XMIT) },
	{ BPF_FUNC_perf_event_output, A(CTX, MAP, ANY, MEM, SZ0), I64,
	  HPT_ALL & ~T(SK_REUSEPORT) & ~T(FLOW_DISSECTOR) },
	{ BPF_FUNC_skb_load_bytes, A(CTX, ANY, OUT, SZ), I64,
	  HPT_SKB | T(LWT_SEG6LOCAL) | T(SK_REUSEPORT) | T(FLOW_DISSECTOR) },
	{ BPF_FUNC_get_stackid, A(CTX, MAP, ANY), I64, HPT_TRACE | T(SYSCALL) },
	{ BPF_FUNC_csum_diff, A(MEMN, SZ0, MEMN, SZ0, ANY), I64F(HF_PKT_ACCESS),
	  HPT_TC | HPT_LWT | T(LWT_SEG6LOCAL) | T(XDP) },
	{ BPF_FUNC_skb_change_proto, A(CTX, ANY, ANY), I64F(HF_CHANGES_PKT), HPT_TC },
	{ BPF_FUNC_skb_change_type, A(CTX, ANY), I64, HPT_TC },
	{ BPF_FUNC_get_hash_recalc, A(CTX), U32, HPT_TC | HPT_LWT | T(LWT_SEG6LOCAL) },
	{ BPF_FUNC_skb_get_tunnel_opt, A(CTX, OUT, SZ), I64, HPT_TC | HPT(BPF_PROG_TYPE_LWT_XMIT) },
	{ BPF_FUNC_skb_set_tunnel_opt, A(CTX, MEM, SZ), I64, HPT_TC | HPT(BPF_PROG_TYPE_LWT_XMIT) },
	{ BPF_FUNC_get_current_task, A(0), I64, HPT_PERFMON },
	{ BPF_FUNC_skb_under_cgroup, A(CTX, MAP, ANY), I64, HPT_TC | HPT_LWT | T(LWT_SEG6LOCAL) },
	{ BPF_FUNC_current_task_under_cgroup, A(MAP, ANY), I64, HPT_PERFMON },
	{ BPF_FUNC_skb_change_tail, A(CTX, ANY, ANY), I64F(HF_CHANGES_PKT),
	  HPT_TC | T(SK_SKB) | T(LWT_XMIT) },
	{ BPF_FUNC_skb_pull_data, A(CTX, ANY), I64F(HF_CHANGES_PKT),
	  HPT_TC | HPT_LWT | T(LWT_SEG6LOCAL) | T(SK_SKB) },
	{ BPF_FUNC_csum_update, A(CTX, ANY), I64, HPT_TC | T(LWT_XMIT) },
	{ BPF_FUNC_set_hash_invalid, A(CTX), I64, HPT_TC | T(LWT_XMIT) },
	{ BPF_FUNC_get_numa_node_id, A(0), U32, HPT_ALL },
	{ BPF_FUNC_skb_change_head, A(CTX, ANY, ANY), I64F(HF_CHANGES_PKT),
	  HPT_TC | T(SK_SKB) | T(LWT_XMIT) },
	{ BPF_FUNC_xdp_adjust_head, A(CTX, ANY), I64F(HF_CHANGES_PKT), HPT(BPF_PROG_TYPE_XDP) },
	{ BPF_FUNC_probe_read_str, A(OUT, SZ0, ANY), I64, HPT_TRACE | T(SYSCALL) },
	{ BPF_FUNC_set_hash, A(CTX, ANY), I64, HPT_TC },
	/* sock_ops' own (the cgroup_sock_addr and lsm ones depend on the attach type) */
	{ BPF_FUNC_setsockopt, A(CTX, ANY, ANY, MEM, SZ), I64, T(SOCK_OPS) },
	{ BPF_FUNC_redirect_map, A(MAP, ANY, ANY), I64, HPT(BPF_PROG_TYPE_XDP) },
	{ BPF_FUNC_xdp_adjust_meta, A(CTX, ANY), I64F(HF_CHANGES_PKT), HPT(BPF_PROG_TYPE_XDP) },
	{ BPF_FUNC_perf_event_read_value, A(MAP, ANY, OUT, SZ), I64, HPT_PERFMON },
	{ BPF_FUNC_perf_prog_read_value, A(CTX, OUT, SZ), I64, HPT(BPF_PROG_TYPE_PERF_EVENT) },
	{ BPF_FUNC_getsockopt, A(CTX, ANY, ANY, OUT, SZ), I64, T(SOCK_OPS) },
	{ BPF_FUNC_sock_ops_cb_flags_set, A(CTX, ANY), I64, T(SOCK_OPS) },
	{ BPF_FUNC_xdp_adjust_tail, A(CTX, ANY), I64F(HF_CHANGES_PKT), HPT(BPF_PROG_TYPE_XDP) },
	{ BPF_FUNC_get_stack, A(CTX, OUT, SZ0, ANY), I64, HPT_TRACE | T(SYSCALL) },
	{ BPF_FUNC_skb_load_bytes_relative, A(CTX, ANY, OUT, SZ, ANY), I64,
	  T(SOCKET_FILTER) | HPT_TC | T(CGROUP_SKB) | T(SK_REUSEPORT) },
	{ BPF_FUNC_fib_lookup, A(CTX, MEMRW, SZ, ANY), I64, HPT_TC | HPT(BPF_PROG_TYPE_XDP) },
	{ BPF_FUNC_get_current_cgroup_id, A(0), I64, HPT_ALL },
	{ BPF_FUNC_probe_read_user, A(OUT, SZ0, ANY), I64, HPT_PERFMON },
	{ BPF_FUNC_probe_read_kernel, A(OUT, SZ0, ANY), I64, HPT_PERFMON },
	{ BPF_FUNC_probe_read_user_str, A(OUT, SZ0, ANY), I64, HPT_PERFMON },
	{ BPF_FUNC_probe_read_kernel_str, A(OUT, SZ0, ANY), I64, HPT_PERFMON },
	{ BPF_FUNC_jiffies64, A(0), I64, HPT_ALL },
	{ BPF_FUNC_ktime_get_boot_ns, A(0), I64, HPT_ALL },
	{ BPF_FUNC_ringbuf_output, A(MAP, MEM, SZ0, ANY), I64, HPT_ALL },
	/* the records of a ring buffer: reserve acquires a reference that submit or discard
	 * releases (scev/absint_ref.c), both of which return nothing */
	{ BPF_FUNC_ringbuf_reserve, A(MAP, ALLOC, ANY), HRET_RINGBUF_OR_NULL, 0, 0, 0, HPT_ALL },
	{ BPF_FUNC_ringbuf_submit, A(RBREL, ANY), I64F(HF_NO_RETURN_VALUE), HPT_ALL },
	{ BPF_FUNC_ringbuf_discard, A(RBREL, ANY), I64F(HF_NO_RETURN_VALUE), HPT_ALL },
	{ BPF_FUNC_ringbuf_query, A(MAP, ANY), I64, HPT_ALL },
	{ BPF_FUNC_ktime_get_coarse_ns, A(0), I64,	/* not where tracing protos refuse it */
	  HPT_ALL & ~HPT_TRACE & ~T(CGROUP_DEVICE) & ~T(SYSCALL) },
	{ BPF_FUNC_ktime_get_tai_ns, A(0), I64, HPT_ALL },
};

/* bpf_probe_write_user and bpf_override_return are left out on purpose: whether the kernel
 * offers them depends on its lockdown state and configuration (CONFIG_BPF_KPROBE_OVERRIDE), not
 * on the program. */

static bool one_of(uint32_t t, const uint32_t *types, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (types[i] == t)
			return true;
	return false;
}

#define ONE_OF(t, ...) one_of((t), (const uint32_t[]){ __VA_ARGS__ },                         \
			       sizeof((const uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t))

const char *ebpf_helper_map_compat(int32_t id, uint32_t map_type)
{
	bool ok;

	/* what the helper needs */
	switch (id) {
	case BPF_FUNC_tail_call:
		ok = map_type == BPF_MAP_TYPE_PROG_ARRAY;
		break;
	case BPF_FUNC_perf_event_read: case BPF_FUNC_perf_event_output:
	case BPF_FUNC_perf_event_read_value:
		ok = map_type == BPF_MAP_TYPE_PERF_EVENT_ARRAY;
		break;
	case BPF_FUNC_get_stackid:
		ok = map_type == BPF_MAP_TYPE_STACK_TRACE;
		break;
	case BPF_FUNC_current_task_under_cgroup: case BPF_FUNC_skb_under_cgroup:
		ok = map_type == BPF_MAP_TYPE_CGROUP_ARRAY;
		break;
	case BPF_FUNC_redirect_map:
		ok = ONE_OF(map_type, BPF_MAP_TYPE_DEVMAP, BPF_MAP_TYPE_DEVMAP_HASH,
			    BPF_MAP_TYPE_CPUMAP, BPF_MAP_TYPE_XSKMAP);
		break;
	case BPF_FUNC_ringbuf_output: case BPF_FUNC_ringbuf_reserve: case BPF_FUNC_ringbuf_query:
		ok = map_type == BPF_MAP_TYPE_RINGBUF;
		break;
	default:
		ok = true;
		break;
	}
	if (!ok)
		return "the helper does not take a map of this type";
	/* what the map allows */
	switch (map_type) {
	case BPF_MAP_TYPE_PROG_ARRAY:
		ok = id == BPF_FUNC_tail_call;
		break;
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
		ok = ONE_OF((uint32_t)id, BPF_FUNC_perf_event_read, BPF_FUNC_perf_event_output,
			    BPF_FUNC_perf_event_read_value, BPF_FUNC_skb_output, BPF_FUNC_xdp_output);
		break;
	case BPF_MAP_TYPE_STACK_TRACE:
		ok = id == BPF_FUNC_get_stackid;
		break;
	case BPF_MAP_TYPE_CGROUP_ARRAY:
		ok = id == BPF_FUNC_current_task_under_cgroup || id == BPF_FUNC_skb_under_cgroup;
		break;
	case BPF_MAP_TYPE_CPUMAP:
		ok = id == BPF_FUNC_redirect_map;
		break;
	case BPF_MAP_TYPE_DEVMAP: case BPF_MAP_TYPE_DEVMAP_HASH: case BPF_MAP_TYPE_XSKMAP:
		ok = id == BPF_FUNC_redirect_map || id == BPF_FUNC_map_lookup_elem;
		break;
	case BPF_MAP_TYPE_RINGBUF:
		ok = ONE_OF((uint32_t)id, BPF_FUNC_ringbuf_output, BPF_FUNC_ringbuf_reserve,
			    BPF_FUNC_ringbuf_query);
		break;
	default:
		break;
	}
	return ok ? NULL : "a map of this type cannot be used with the helper";
}

const struct ebpf_helper_proto *ebpf_helper_proto(int32_t id)
{
	for (size_t i = 0; i < sizeof(protos) / sizeof(protos[0]); i++)
		if (protos[i].id == id)
			return &protos[i];
	return NULL;
}

int ebpf_helper_proto_nargs(const struct ebpf_helper_proto *p)
{
	int n = 0;

	for (int k = 0; k < 5; k++)
		if (p->args[k] != HARG_NONE)
			n = k + 1;
	return n;
}

int ebpf_helper_proto_unmodeled_arg(const struct ebpf_helper_proto *p)
{
	for (int k = 0; k < 5; k++)
		if (p->args[k] == HARG_UNMODELED)
			return k + 1;
	return 0;
}

const char *ebpf_harg_name(enum ebpf_harg k)
{
	static const char *const names[] = {
		"none", "anything", "map", "map key", "map value", "readable memory",
		"readable memory or NULL", "memory", "memory the helper writes", "size",
		"size or zero", "context", "constant allocation size", "ringbuf record to release",
		"unmodeled",
	};

	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}
