/* The helper prototypes (see helper_proto.h): one line for every helper of the UAPI list
 * (__BPF_FUNC_MAPPER), in id order.  Each restates the kernel's func_proto for that helper
 * (kernel/bpf/helpers.c, kernel/trace/bpf_trace.c, net/core/filter.c, ...): argument kinds in
 * order, result, who may call it.  tests/test_helper_types.c holds the last against the running
 * kernel for every type it loads without an attach target or with the attach types it names:
 * root's view, so the helpers bpf_base_func_proto gives a CAP_PERFMON loader are every type's;
 * a type allowed where only some of its attach types are (cgroup_sock_addr, cgroup_sockopt,
 * tracing).  LSM programs are given what tracing programs are (bpf_lsm_func_proto falls back to
 * tracing_prog_func_proto); lsm, struct_ops, ext and lirc_mode2 programs cannot be loaded here
 * without a target, so their bits are read from the kernel's sources, unchecked.  A helper is
 * judged and run only when the analyzer and the interpreter handle every kind it uses
 * (ebpf_helper_unmodeled); the others are unsupported, the reason naming the kind.
 */
#include "bpf/helper_proto.h"

#include <stddef.h>
#include <stdio.h>

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
#define CTXN HARG_CTX_OR_NULL
#define MEMRWN HARG_MEM_RW_OR_NULL
#define VALN HARG_MAP_VALUE_OR_NULL
#define VALOUT HARG_MAP_VALUE_OUT
#define FIXED HARG_FIXED_MEM
#define LONG HARG_LONG_OUT
#define U32IO HARG_U32_INOUT
#define STACKN HARG_STACK_OR_NULL
#define STR HARG_CONST_STR
#define SKC HARG_SOCK_COMMON
#define SOCK HARG_SOCKET
#define BSKC HARG_BTF_SOCK_COMMON
#define BTF HARG_BTF_ID
#define PCPU HARG_PERCPU_BTF_ID
#define LOCK HARG_SPIN_LOCK
#define TIMER HARG_TIMER
#define KPTR HARG_KPTR
#define DYNPTR HARG_DYNPTR
#define FUNC HARG_CALLBACK
#define R(k) (k), 0, 0, 0
#define I64 HRET_INTEGER, 0, INT64_MIN, INT64_MAX
#define I64F(f) HRET_INTEGER, (f), INT64_MIN, INT64_MAX
#define U32 HRET_INTEGER, 0, 0, UINT32_MAX
/* the skb helpers of socket filters and tc alike (sk_filter_func_proto's common part) */
#define HPT_SKB (HPT(BPF_PROG_TYPE_SOCKET_FILTER) | HPT_TC | HPT(BPF_PROG_TYPE_CGROUP_SKB) |   \
		 HPT(BPF_PROG_TYPE_LWT_IN) | HPT(BPF_PROG_TYPE_LWT_OUT) |                     \
		 HPT(BPF_PROG_TYPE_LWT_XMIT) | HPT(BPF_PROG_TYPE_SK_SKB))
#define T(x) HPT(BPF_PROG_TYPE_##x)
#define HPT_LWT (T(LWT_IN) | T(LWT_OUT) | T(LWT_XMIT))
/* the socket casts (bpf_skc_to_*): the networking types' and tracing's, not kprobes' */
#define HPT_SK_CAST (HPT_ALL & ~(T(KPROBE) | T(TRACEPOINT) | T(PERF_EVENT) | T(CGROUP_SOCK) |  \
				 T(CGROUP_DEVICE) | T(RAW_TRACEPOINT) | T(SK_REUSEPORT) |          \
				 T(CGROUP_SYSCTL) | T(RAW_TRACEPOINT_WRITABLE) | T(CGROUP_SOCKOPT)))

static const struct ebpf_helper_proto protos[] = {
	{ BPF_FUNC_map_lookup_elem, A(MAP, KEY), HRET_MAP_VALUE_OR_NULL, HF_PKT_ACCESS, 0, 0,
	  HPT_ALL },
	{ BPF_FUNC_map_update_elem, A(MAP, KEY, VAL, ANY), I64F(HF_PKT_ACCESS), HPT_ALL },
	{ BPF_FUNC_map_delete_elem, A(MAP, KEY), I64F(HF_PKT_ACCESS), HPT_ALL },
	{ BPF_FUNC_probe_read, A(OUT, SZ0, ANY), I64, HPT_TRACE | T(LSM) | T(SYSCALL) },
	{ BPF_FUNC_ktime_get_ns, A(0), I64, HPT_ALL },
	/* r3-r5 are not checked */
	{ BPF_FUNC_trace_printk, A(MEM, SZ), I64, HPT_ALL },
	{ BPF_FUNC_get_prandom_u32, A(0), U32, HPT_ALL },
	{ BPF_FUNC_get_smp_processor_id, A(0), U32, HPT_ALL },
	{ BPF_FUNC_skb_store_bytes, A(CTX, ANY, MEM, SZ, ANY), I64F(HF_CHANGES_PKT),
	  HPT_TC | T(LWT_XMIT) | T(SK_SKB) },
	{ BPF_FUNC_l3_csum_replace, A(CTX, ANY, ANY, ANY, ANY), I64F(HF_CHANGES_PKT),
	  HPT_TC | T(LWT_XMIT) },
	{ BPF_FUNC_l4_csum_replace, A(CTX, ANY, ANY, ANY, ANY), I64F(HF_CHANGES_PKT),
	  HPT_TC | T(LWT_XMIT) },
	/* (the program's own packet pointers stay at a tail call, which returns only when it fails;
	 * a static function that tail-calls moves its callers' packet: scev's fn_effects) */
	{ BPF_FUNC_tail_call, A(CTX, MAP, ANY), I64F(HF_NO_RETURN_VALUE), HPT_ALL },
	{ BPF_FUNC_clone_redirect, A(CTX, ANY, ANY), I64F(HF_CHANGES_PKT), HPT_TC | T(LWT_XMIT) },
	{ BPF_FUNC_get_current_pid_tgid, A(0), I64, HPT_ALL },
	{ BPF_FUNC_get_current_uid_gid, A(0), I64, HPT_ALL },
	{ BPF_FUNC_get_current_comm, A(OUT, SZ), I64, HPT_ALL },
	/* the current task's elsewhere */
	{ BPF_FUNC_get_cgroup_classid, A(CTX), U32, HPT_ALL },
	{ BPF_FUNC_skb_vlan_push, A(CTX, ANY, ANY), I64F(HF_CHANGES_PKT), HPT_TC },
	{ BPF_FUNC_skb_vlan_pop, A(CTX), I64F(HF_CHANGES_PKT), HPT_TC },
	/* a key or option struct of a constant size, read from or written to memory; no packet
	 * data moves */
	{ BPF_FUNC_skb_get_tunnel_key, A(CTX, OUT, SZ, ANY), I64, HPT_TC | T(LWT_XMIT) },
	{ BPF_FUNC_skb_set_tunnel_key, A(CTX, MEM, SZ, ANY), I64, HPT_TC | T(LWT_XMIT) },
	{ BPF_FUNC_perf_event_read, A(MAP, ANY), I64, HPT_ALL },
	{ BPF_FUNC_redirect, A(ANY, ANY), I64, HPT_TC | T(XDP) | T(LWT_XMIT) },
	{ BPF_FUNC_get_route_realm, A(CTX), U32, HPT_LWT | HPT_TC | T(LWT_SEG6LOCAL) },
	{ BPF_FUNC_perf_event_output, A(CTX, MAP, ANY, MEM, SZ0), I64,
	  HPT_ALL & ~(T(SK_REUSEPORT) | T(FLOW_DISSECTOR)) },
	{ BPF_FUNC_skb_load_bytes, A(CTX, ANY, OUT, SZ), I64,
	  HPT_SKB | T(LWT_SEG6LOCAL) | T(SK_REUSEPORT) | T(FLOW_DISSECTOR) },
	{ BPF_FUNC_get_stackid, A(CTX, MAP, ANY), I64, HPT_TRACE | T(LSM) | T(SYSCALL) },
	{ BPF_FUNC_csum_diff, A(MEMN, SZ0, MEMN, SZ0, ANY), I64F(HF_PKT_ACCESS),
	  HPT_LWT | HPT_TC | T(XDP) | T(LWT_SEG6LOCAL) },
	{ BPF_FUNC_skb_get_tunnel_opt, A(CTX, OUT, SZ), I64, HPT_TC | T(LWT_XMIT) },
	{ BPF_FUNC_skb_set_tunnel_opt, A(CTX, MEM, SZ), I64, HPT_TC | T(LWT_XMIT) },
	{ BPF_FUNC_skb_change_proto, A(CTX, ANY, ANY), I64F(HF_CHANGES_PKT), HPT_TC },
	{ BPF_FUNC_skb_change_type, A(CTX, ANY), I64, HPT_TC },
	{ BPF_FUNC_skb_under_cgroup, A(CTX, MAP, ANY), I64, HPT_LWT | HPT_TC | T(LWT_SEG6LOCAL) },
	{ BPF_FUNC_get_hash_recalc, A(CTX), U32, HPT_LWT | HPT_TC | T(LWT_SEG6LOCAL) },
	{ BPF_FUNC_get_current_task, A(0), I64, HPT_ALL },
	/* offered unless the kernel is locked down (this one refuses it everywhere) */
	{ BPF_FUNC_probe_write_user, A(ANY, MEM, SZ), I64F(HF_KCONFIG), HPT_TRACE | T(LSM) },
	{ BPF_FUNC_current_task_under_cgroup, A(MAP, ANY), I64, HPT_ALL },
	{ BPF_FUNC_skb_change_tail, A(CTX, ANY, ANY), I64F(HF_CHANGES_PKT),
	  HPT_TC | T(LWT_XMIT) | T(SK_SKB) },
	{ BPF_FUNC_skb_pull_data, A(CTX, ANY), I64F(HF_CHANGES_PKT),
	  HPT_LWT | HPT_TC | T(SK_SKB) | T(LWT_SEG6LOCAL) },
	{ BPF_FUNC_csum_update, A(CTX, ANY), I64, HPT_TC | T(LWT_XMIT) },
	{ BPF_FUNC_set_hash_invalid, A(CTX), I64, HPT_TC | T(LWT_XMIT) },
	{ BPF_FUNC_get_numa_node_id, A(0), U32, HPT_ALL },
	{ BPF_FUNC_skb_change_head, A(CTX, ANY, ANY), I64F(HF_CHANGES_PKT),
	  HPT_TC | T(LWT_XMIT) | T(SK_SKB) },
	{ BPF_FUNC_xdp_adjust_head, A(CTX, ANY), I64F(HF_CHANGES_PKT), T(XDP) },
	{ BPF_FUNC_probe_read_str, A(OUT, SZ0, ANY), I64F(HF_RET_SIZE), HPT_TRACE | T(LSM) | T(SYSCALL) },
	/* tracing programs pass a socket (ARG_PTR_TO_BTF_ID_SOCK_COMMON) */
	{ BPF_FUNC_get_socket_cookie, A(CTX), I64,
	  HPT_TC | T(SOCKET_FILTER) | T(CGROUP_SKB) | T(CGROUP_SOCK) | T(SOCK_OPS) | T(SK_SKB) |
	  T(CGROUP_SOCK_ADDR) | T(SK_REUSEPORT) | T(TRACING) | T(LSM) |
	  T(SYSCALL), .other = T(TRACING) | T(LSM) | T(SYSCALL) },
	{ BPF_FUNC_get_socket_uid, A(CTX), U32,
	  HPT_TC | T(SOCKET_FILTER) | T(CGROUP_SKB) | T(SK_SKB) },
	{ BPF_FUNC_set_hash, A(CTX, ANY), I64, HPT_TC },
	{ BPF_FUNC_setsockopt, A(CTX, ANY, ANY, MEM, SZ), I64,
	  T(SOCK_OPS) | T(CGROUP_SOCK_ADDR) | T(CGROUP_SOCKOPT) },
	{ BPF_FUNC_skb_adjust_room, A(CTX, ANY, ANY, ANY), I64F(HF_CHANGES_PKT),
	  HPT_TC | T(SK_SKB) },
	{ BPF_FUNC_redirect_map, A(MAP, ANY, ANY), I64, T(XDP) },
	{ BPF_FUNC_sk_redirect_map, A(CTX, MAP, ANY, ANY), I64, T(SK_SKB) },
	{ BPF_FUNC_sock_map_update, A(CTX, MAP, KEY, ANY), I64, T(SOCK_OPS) },
	{ BPF_FUNC_xdp_adjust_meta, A(CTX, ANY), I64F(HF_CHANGES_PKT), T(XDP) },
	{ BPF_FUNC_perf_event_read_value, A(MAP, ANY, OUT, SZ), I64, HPT_ALL },
	{ BPF_FUNC_perf_prog_read_value, A(CTX, OUT, SZ), I64, T(PERF_EVENT) },
	{ BPF_FUNC_getsockopt, A(CTX, ANY, ANY, OUT, SZ), I64,
	  T(SOCK_OPS) | T(CGROUP_SOCK_ADDR) | T(CGROUP_SOCKOPT) },
	/* CONFIG_BPF_KPROBE_OVERRIDE (this kernel has none) */
	{ BPF_FUNC_override_return, A(CTX, ANY), I64F(HF_KCONFIG), T(KPROBE) },
	{ BPF_FUNC_sock_ops_cb_flags_set, A(CTX, ANY), I64, T(SOCK_OPS) },
	{ BPF_FUNC_msg_redirect_map, A(CTX, MAP, ANY, ANY), I64, T(SK_MSG) },
	{ BPF_FUNC_msg_apply_bytes, A(CTX, ANY), I64, T(SK_MSG) },
	{ BPF_FUNC_msg_cork_bytes, A(CTX, ANY), I64, T(SK_MSG) },
	{ BPF_FUNC_msg_pull_data, A(CTX, ANY, ANY, ANY), I64F(HF_CHANGES_PKT), T(SK_MSG) },
	{ BPF_FUNC_bind, A(CTX, MEM, SZ), I64, T(CGROUP_SOCK_ADDR) },
	{ BPF_FUNC_xdp_adjust_tail, A(CTX, ANY), I64F(HF_CHANGES_PKT), T(XDP) },
	{ BPF_FUNC_skb_get_xfrm_state, A(CTX, ANY, OUT, SZ, ANY), I64, HPT_TC },
	{ BPF_FUNC_get_stack, A(CTX, OUT, SZ0, ANY), I64F(HF_RET_SIZE), HPT_TRACE | T(LSM) | T(SYSCALL) },
	{ BPF_FUNC_skb_load_bytes_relative, A(CTX, ANY, OUT, SZ, ANY), I64,
	  HPT_TC | T(SOCKET_FILTER) | T(CGROUP_SKB) | T(SK_REUSEPORT) },
	{ BPF_FUNC_fib_lookup, A(CTX, MEMRW, SZ, ANY), I64, HPT_TC | T(XDP) },
	{ BPF_FUNC_sock_hash_update, A(CTX, MAP, KEY, ANY), I64, T(SOCK_OPS) },
	{ BPF_FUNC_msg_redirect_hash, A(CTX, MAP, KEY, ANY), I64, T(SK_MSG) },
	{ BPF_FUNC_sk_redirect_hash, A(CTX, MAP, KEY, ANY), I64, T(SK_SKB) },
	{ BPF_FUNC_lwt_push_encap, A(CTX, ANY, MEM, SZ), I64F(HF_CHANGES_PKT),
	  T(LWT_IN) | T(LWT_XMIT) },
	/* CONFIG_IPV6_SEG6_BPF (this kernel has none) */
	{ BPF_FUNC_lwt_seg6_store_bytes, A(CTX, ANY, MEM, SZ), I64F(HF_CHANGES_PKT | HF_KCONFIG),
	  T(LWT_SEG6LOCAL) },
	{ BPF_FUNC_lwt_seg6_adjust_srh, A(CTX, ANY, ANY), I64F(HF_CHANGES_PKT | HF_KCONFIG),
	  T(LWT_SEG6LOCAL) },
	{ BPF_FUNC_lwt_seg6_action, A(CTX, ANY, MEM, SZ), I64F(HF_CHANGES_PKT | HF_KCONFIG),
	  T(LWT_SEG6LOCAL) },
	/* CONFIG_BPF_LIRC_MODE2 */
	{ BPF_FUNC_rc_repeat, A(CTX), I64F(HF_KCONFIG), T(LIRC_MODE2) },
	{ BPF_FUNC_rc_keydown, A(CTX, ANY, ANY, ANY), I64F(HF_KCONFIG), T(LIRC_MODE2) },
	{ BPF_FUNC_skb_cgroup_id, A(CTX), I64, HPT_TC | T(CGROUP_SKB) },
	{ BPF_FUNC_get_current_cgroup_id, A(0), I64, HPT_ALL },
	{ BPF_FUNC_get_local_storage, A(MAP, ANY), R(HRET_MAP_VALUE),
	  T(CGROUP_SKB) | T(CGROUP_SOCK) | T(SOCK_OPS) | T(CGROUP_DEVICE) | T(CGROUP_SOCK_ADDR) |
	  T(CGROUP_SYSCTL) | T(CGROUP_SOCKOPT) },
	{ BPF_FUNC_sk_select_reuseport, A(CTX, MAP, KEY, ANY), I64, T(SK_REUSEPORT) },
	{ BPF_FUNC_skb_ancestor_cgroup_id, A(CTX, ANY), I64, HPT_TC | T(CGROUP_SKB) },
	/* (the tuple may be in the packet: .pkt_access) */
	{ BPF_FUNC_sk_lookup_tcp, A(CTX, MEM, SZ, ANY, ANY), HRET_SOCKET_OR_NULL, HF_PKT_ACCESS,
	  0, 0,
	  HPT_TC | T(XDP) | T(CGROUP_SKB) | T(SK_SKB) | T(CGROUP_SOCK_ADDR) },
	{ BPF_FUNC_sk_lookup_udp, A(CTX, MEM, SZ, ANY, ANY), HRET_SOCKET_OR_NULL, HF_PKT_ACCESS,
	  0, 0,
	  HPT_TC | T(XDP) | T(CGROUP_SKB) | T(SK_SKB) | T(CGROUP_SOCK_ADDR) },
	/* releases the reference of a lookup (scev/absint_ref.c) */
	{ BPF_FUNC_sk_release, A(BSKC), I64F(HF_RELEASES),
	  HPT_TC | T(XDP) | T(CGROUP_SKB) | T(SK_SKB) | T(CGROUP_SOCK_ADDR) | T(SK_LOOKUP) },
	{ BPF_FUNC_map_push_elem, A(MAP, VAL, ANY), I64F(HF_PKT_ACCESS), HPT_ALL },
	{ BPF_FUNC_map_pop_elem, A(MAP, VALOUT), I64, HPT_ALL },
	{ BPF_FUNC_map_peek_elem, A(MAP, VALOUT), I64, HPT_ALL },
	{ BPF_FUNC_msg_push_data, A(CTX, ANY, ANY, ANY), I64F(HF_CHANGES_PKT), T(SK_MSG) },
	{ BPF_FUNC_msg_pop_data, A(CTX, ANY, ANY, ANY), I64F(HF_CHANGES_PKT), T(SK_MSG) },
	{ BPF_FUNC_rc_pointer_rel, A(CTX, ANY, ANY), I64F(HF_KCONFIG), T(LIRC_MODE2) },
	{ BPF_FUNC_spin_lock, A(LOCK), I64F(HF_NO_RETURN_VALUE), HPT_ALL },
	{ BPF_FUNC_spin_unlock, A(LOCK), I64F(HF_NO_RETURN_VALUE), HPT_ALL },
	{ BPF_FUNC_sk_fullsock, A(SKC), R(HRET_SOCKET_OR_NULL), HPT_TC | T(CGROUP_SKB) },
	{ BPF_FUNC_tcp_sock, A(SKC), R(HRET_TCP_SOCK_OR_NULL),
	  HPT_TC | T(CGROUP_SKB) | T(SOCK_OPS) | T(CGROUP_SOCKOPT) },
	{ BPF_FUNC_skb_ecn_set_ce, A(CTX), I64, HPT_TC | T(CGROUP_SKB) },
	{ BPF_FUNC_get_listener_sock, A(SKC), R(HRET_SOCKET_OR_NULL), HPT_TC | T(CGROUP_SKB) },
	{ BPF_FUNC_skc_lookup_tcp, A(CTX, MEM, SZ, ANY, ANY), HRET_SOCK_COMMON_OR_NULL,
	  HF_PKT_ACCESS, 0, 0,
	  HPT_TC | T(XDP) | T(CGROUP_SKB) | T(SK_SKB) | T(CGROUP_SOCK_ADDR) },
	/* (the headers are the packet's: .pkt_access) */
	{ BPF_FUNC_tcp_check_syncookie, A(BSKC, MEM, SZ, MEM, SZ), I64F(HF_PKT_ACCESS),
	  HPT_TC | T(XDP) },
	{ BPF_FUNC_sysctl_get_name, A(CTX, MEMRW, SZ, ANY), I64, T(CGROUP_SYSCTL) },
	{ BPF_FUNC_sysctl_get_current_value, A(CTX, OUT, SZ), I64, T(CGROUP_SYSCTL) },
	{ BPF_FUNC_sysctl_get_new_value, A(CTX, OUT, SZ), I64, T(CGROUP_SYSCTL) },
	{ BPF_FUNC_sysctl_set_new_value, A(CTX, MEM, SZ), I64, T(CGROUP_SYSCTL) },
	/* the result through a long * (8 aligned bytes) */
	{ BPF_FUNC_strtol, A(MEM, SZ, ANY, LONG), I64, HPT_ALL },
	{ BPF_FUNC_strtoul, A(MEM, SZ, ANY, LONG), I64, HPT_ALL },
	/* (cgroup_sock's is bpf_sk_storage_get_cg_sock_proto: its socket the context) */
	{ BPF_FUNC_sk_storage_get, A(MAP, BSKC, VALN, ANY), R(HRET_MAP_VALUE_OR_NULL),
	  HPT_TC | T(CGROUP_SKB) | T(CGROUP_SOCK) | T(SOCK_OPS) | T(SK_MSG) |
	  T(CGROUP_SOCK_ADDR) | T(CGROUP_SOCKOPT) | T(TRACING) | T(LSM), .other = T(CGROUP_SOCK) },
	{ BPF_FUNC_sk_storage_delete, A(MAP, BSKC), I64,
	  HPT_TC | T(CGROUP_SKB) | T(SOCK_OPS) | T(SK_MSG) | T(CGROUP_SOCK_ADDR) |
	  T(CGROUP_SOCKOPT) | T(TRACING) | T(LSM) },
	{ BPF_FUNC_send_signal, A(ANY), I64, HPT_ALL },
	{ BPF_FUNC_tcp_gen_syncookie, A(BSKC, MEM, SZ, MEM, SZ), I64F(HF_PKT_ACCESS),
	  HPT_TC | T(XDP) },
	{ BPF_FUNC_skb_output, A(BTF, MAP, ANY, MEMN, SZ0), I64,
	  T(TRACING) | T(LSM) | T(SYSCALL), .obj = "sk_buff" },
	{ BPF_FUNC_probe_read_user, A(OUT, SZ0, ANY), I64, HPT_ALL },
	{ BPF_FUNC_probe_read_kernel, A(OUT, SZ0, ANY), I64, HPT_ALL },
	{ BPF_FUNC_probe_read_user_str, A(OUT, SZ0, ANY), I64F(HF_RET_SIZE), HPT_ALL },
	{ BPF_FUNC_probe_read_kernel_str, A(OUT, SZ0, ANY), I64F(HF_RET_SIZE), HPT_ALL },
	/* bpf_tcp_ca struct_ops only */
	{ BPF_FUNC_tcp_send_ack, A(BTF, ANY), I64, T(STRUCT_OPS), .obj = "tcp_sock" },
	{ BPF_FUNC_send_signal_thread, A(ANY), I64, HPT_ALL },
	{ BPF_FUNC_jiffies64, A(0), I64, HPT_ALL },
	{ BPF_FUNC_read_branch_records, A(CTX, MEMRWN, SZ0, ANY), I64, T(PERF_EVENT) },
	{ BPF_FUNC_get_ns_current_pid_tgid, A(ANY, ANY, OUT, SZ), I64, HPT_ALL },
	{ BPF_FUNC_xdp_output, A(BTF, MAP, ANY, MEMN, SZ0), I64,
	  T(TRACING) | T(LSM) | T(SYSCALL), .obj = "xdp_buff" },
	/* the context, NULL for the current netns where the type allows it */
	{ BPF_FUNC_get_netns_cookie, A(CTXN), I64,
	  HPT_TC | T(SOCKET_FILTER) | T(CGROUP_SKB) | T(CGROUP_SOCK) | T(SOCK_OPS) | T(SK_MSG) |
	  T(CGROUP_SOCK_ADDR) | T(CGROUP_SOCKOPT) },
	{ BPF_FUNC_get_current_ancestor_cgroup_id, A(ANY), I64, HPT_ALL },
	/* the socket may be NULL */
	{ BPF_FUNC_sk_assign, A(CTX, BSKC, ANY), I64, HPT_TC | T(SK_LOOKUP) },
	{ BPF_FUNC_ktime_get_boot_ns, A(0), I64, HPT_ALL },
	/* an iterator's struct seq_file (ctx->meta->seq); iter/ programs only
	 * (tracing_prog_func_proto) */
	{ BPF_FUNC_seq_printf, A(BTF, MEM, SZ, MEMN, SZ0), I64F(HF_BTF_ARG),
	  T(TRACING) | T(LSM), .obj = "seq_file", .attach = HAT(BPF_TRACE_ITER) },
	{ BPF_FUNC_seq_write, A(BTF, MEM, SZ0), I64F(HF_BTF_ARG), T(TRACING) | T(LSM),
	  .obj = "seq_file", .attach = HAT(BPF_TRACE_ITER) },
	{ BPF_FUNC_sk_cgroup_id, A(BSKC), I64, T(CGROUP_SKB) },
	{ BPF_FUNC_sk_ancestor_cgroup_id, A(BSKC, ANY), I64, T(CGROUP_SKB) },
	{ BPF_FUNC_ringbuf_output, A(MAP, MEM, SZ0, ANY), I64, HPT_ALL },
	/* the records of a ring buffer: reserve acquires a reference that submit or discard
	 * releases (scev/absint_ref.c), both of which return nothing */
	{ BPF_FUNC_ringbuf_reserve, A(MAP, ALLOC, ANY), R(HRET_RINGBUF_OR_NULL), HPT_ALL },
	{ BPF_FUNC_ringbuf_submit, A(RBREL, ANY), I64F(HF_NO_RETURN_VALUE), HPT_ALL },
	{ BPF_FUNC_ringbuf_discard, A(RBREL, ANY), I64F(HF_NO_RETURN_VALUE), HPT_ALL },
	{ BPF_FUNC_ringbuf_query, A(MAP, ANY), I64, HPT_ALL },
	{ BPF_FUNC_csum_level, A(CTX, ANY), I64, HPT_TC | T(LWT_XMIT) },
	{ BPF_FUNC_skc_to_tcp6_sock, A(BSKC), R(HRET_BTF_ID_OR_NULL),
	  HPT_SK_CAST, .obj = "tcp6_sock" },
	{ BPF_FUNC_skc_to_tcp_sock, A(BSKC), R(HRET_BTF_ID_OR_NULL),
	  HPT_SK_CAST, .obj = "tcp_sock" },
	{ BPF_FUNC_skc_to_tcp_timewait_sock, A(BSKC), R(HRET_BTF_ID_OR_NULL),
	  HPT_SK_CAST, .obj = "tcp_timewait_sock" },
	{ BPF_FUNC_skc_to_tcp_request_sock, A(BSKC), R(HRET_BTF_ID_OR_NULL),
	  HPT_SK_CAST, .obj = "tcp_request_sock" },
	{ BPF_FUNC_skc_to_udp6_sock, A(BSKC), R(HRET_BTF_ID_OR_NULL),
	  HPT_SK_CAST, .obj = "udp6_sock" },
	{ BPF_FUNC_get_task_stack, A(BTF, OUT, SZ0, ANY), I64F(HF_RET_SIZE | HF_BTF_ARG), HPT_ALL,
	  .obj = "task_struct" },
	{ BPF_FUNC_load_hdr_opt, A(CTX, MEMRW, SZ, ANY), I64, T(SOCK_OPS) },
	/* (in the kernel's bpf_helper_changes_pkt_data) */
	{ BPF_FUNC_store_hdr_opt, A(CTX, MEM, SZ, ANY), I64F(HF_CHANGES_PKT), T(SOCK_OPS) },
	{ BPF_FUNC_reserve_hdr_opt, A(CTX, ANY, ANY), I64, T(SOCK_OPS) },
	{ BPF_FUNC_inode_storage_get, A(MAP, BTF, VALN, ANY), R(HRET_MAP_VALUE_OR_NULL),
	  T(LSM), .obj = "inode" },
	{ BPF_FUNC_inode_storage_delete, A(MAP, BTF), I64, T(LSM), .obj = "inode" },
	{ BPF_FUNC_d_path, A(BTF, MEMRW, SZ0), I64, T(TRACING) | T(LSM), .obj = "path" },
	{ BPF_FUNC_copy_from_user, A(OUT, SZ0, ANY), I64F(HF_SLEEPS), HPT_ALL },
	{ BPF_FUNC_snprintf_btf, A(MEMRW, SZ, MEM, SZ, ANY), I64, HPT_ALL },
	{ BPF_FUNC_seq_printf_btf, A(BTF, MEM, SZ, ANY), I64,
	  T(TRACING) | T(LSM), .obj = "seq_file" },
	{ BPF_FUNC_skb_cgroup_classid, A(CTX), I64, HPT_TC },
	{ BPF_FUNC_redirect_neigh, A(ANY, MEMN, SZ0, ANY), I64, HPT_TC },
	{ BPF_FUNC_per_cpu_ptr, A(PCPU, ANY), R(HRET_MEM_OR_BTF_ID), HPT_ALL },
	{ BPF_FUNC_this_cpu_ptr, A(PCPU), R(HRET_MEM_OR_BTF_ID), HPT_ALL },
	{ BPF_FUNC_redirect_peer, A(ANY, ANY), I64, HPT_TC },
	{ BPF_FUNC_task_storage_get, A(MAP, BTF, VALN, ANY), R(HRET_MAP_VALUE_OR_NULL),
	  HPT_ALL, .obj = "task_struct" },
	{ BPF_FUNC_task_storage_delete, A(MAP, BTF), I64, HPT_ALL, .obj = "task_struct" },
	{ BPF_FUNC_get_current_task_btf, A(0), R(HRET_BTF_ID), HPT_ALL, .obj = "task_struct" },
	{ BPF_FUNC_bprm_opts_set, A(BTF, ANY), I64, T(LSM), .obj = "linux_binprm" },
	{ BPF_FUNC_ktime_get_coarse_ns, A(0), I64,
	  HPT_ALL & ~(HPT_TRACE | T(CGROUP_DEVICE) | T(CGROUP_SOCKOPT) | T(LSM) | T(SYSCALL)) },
	{ BPF_FUNC_ima_inode_hash, A(BTF, OUT, SZ), I64F(HF_SLEEPS), T(LSM), .obj = "inode" },
	/* returns a struct socket */
	{ BPF_FUNC_sock_from_file, A(BTF), R(HRET_BTF_ID_OR_NULL),
	  T(TRACING) | T(LSM) | T(SYSCALL), .obj = "file" },
	/* the length through a u32 * (4 aligned bytes, read and written) */
	{ BPF_FUNC_check_mtu, A(CTX, ANY, U32IO, ANY, ANY), I64, HPT_TC | T(XDP) },
	/* scev/absint_callbacks.c models it apart */
	{ BPF_FUNC_for_each_map_elem, A(MAP, FUNC, STACKN, ANY), I64, HPT_ALL },
	{ BPF_FUNC_snprintf, A(MEMRWN, SZ0, STR, MEMN, SZ0), I64, HPT_ALL },
	/* (attr: read-only to the verifier, but some commands write results into it) */
	{ BPF_FUNC_sys_bpf, A(ANY, MEMRW, SZ), I64, T(SYSCALL) },
	{ BPF_FUNC_btf_find_by_name_kind, A(MEM, SZ, ANY, ANY), I64, T(SYSCALL) },
	{ BPF_FUNC_sys_close, A(ANY), I64, T(SYSCALL) },
	{ BPF_FUNC_timer_init, A(TIMER, MAP, ANY), I64, HPT_ALL },
	{ BPF_FUNC_timer_set_callback, A(TIMER, FUNC), I64, HPT_ALL },
	{ BPF_FUNC_timer_start, A(TIMER, ANY, ANY), I64, HPT_ALL },
	{ BPF_FUNC_timer_cancel, A(TIMER), I64, HPT_ALL },
	/* tracing: fentry, fexit and fmod_ret only (check_get_func_ip) */
	{ BPF_FUNC_get_func_ip, A(CTX), I64, T(KPROBE) | T(TRACING) | T(LSM),
	  .attach = HAT_TRAMPOLINE,
	  .attach_msg = "func %s#%d supported only for fentry/fexit/fmod_ret programs" },
	/* tracing: with a trampoline, or tp_btf */
	{ BPF_FUNC_get_attach_cookie, A(CTX), I64, HPT_TRACE | T(LSM),
	  .attach = HAT_TRAMPOLINE | HAT(BPF_TRACE_RAW_TP) },
	/* returns a struct pt_regs */
	{ BPF_FUNC_task_pt_regs, A(BTF), R(HRET_BTF_ID), HPT_ALL, .obj = "task_struct" },
	{ BPF_FUNC_get_branch_snapshot, A(OUT, SZ0, ANY), I64, HPT_ALL },
	{ BPF_FUNC_trace_vprintk, A(MEM, SZ, MEMN, SZ0), I64, HPT_ALL },
	{ BPF_FUNC_skc_to_unix_sock, A(BSKC), R(HRET_BTF_ID_OR_NULL),
	  HPT_SK_CAST, .obj = "unix_sock" },
	{ BPF_FUNC_kallsyms_lookup_name, A(MEM, SZ, ANY, FIXED), I64, T(SYSCALL) },
	{ BPF_FUNC_find_vma, A(BTF, ANY, FUNC, STACKN, ANY), I64, HPT_ALL, .obj = "task_struct" },
	/* scev/absint_callbacks.c models it apart */
	{ BPF_FUNC_loop, A(ANY, FUNC, STACKN, ANY), I64, HPT_ALL },
	{ BPF_FUNC_strncmp, A(MEM, SZ, STR), I64, HPT_ALL },
	/* fentry, fexit, fmod_ret and lsm only (bpf_prog_has_trampoline) */
	{ BPF_FUNC_get_func_arg, A(CTX, ANY, FIXED), I64, T(TRACING) | T(LSM),
	  .attach = HAT_TRAMPOLINE },
	/* fexit and fmod_ret only (fentry's call is -EOPNOTSUPP) */
	{ BPF_FUNC_get_func_ret, A(CTX, FIXED), I64, T(TRACING) | T(LSM),
	  .attach = HAT_TRAMPOLINE },
	{ BPF_FUNC_get_func_arg_cnt, A(CTX), I64, T(TRACING) | T(LSM),
	  .attach = HAT_TRAMPOLINE },
	{ BPF_FUNC_get_retval, A(0), I64,
	  T(CGROUP_SOCK) | T(CGROUP_SOCK_ADDR) | T(CGROUP_SOCKOPT) },
	{ BPF_FUNC_set_retval, A(ANY), I64,
	  T(CGROUP_SOCK) | T(CGROUP_SOCK_ADDR) | T(CGROUP_SOCKOPT) },
	/* tracing programs pass a struct xdp_buff */
	{ BPF_FUNC_xdp_get_buff_len, A(CTX), I64,
	  T(XDP) | T(TRACING) | T(LSM) | T(SYSCALL), .other = T(TRACING) | T(LSM) | T(SYSCALL) },
	{ BPF_FUNC_xdp_load_bytes, A(CTX, ANY, OUT, SZ), I64, T(XDP) },
	{ BPF_FUNC_xdp_store_bytes, A(CTX, ANY, MEM, SZ), I64, T(XDP) },
	{ BPF_FUNC_copy_from_user_task, A(OUT, SZ0, ANY, BTF, ANY), I64F(HF_SLEEPS),
	  HPT_ALL, .obj = "task_struct" },
	{ BPF_FUNC_skb_set_tstamp, A(CTX, ANY, ANY), I64, HPT_TC },
	{ BPF_FUNC_ima_file_hash, A(BTF, OUT, SZ), I64F(HF_SLEEPS), T(LSM), .obj = "file" },
	/* r2 a referenced object or NULL, released into the map */
	{ BPF_FUNC_kptr_xchg, A(KPTR, BTF), R(HRET_BTF_ID_OR_NULL), HPT_ALL },
	/* (a key in the packet: .pkt_access, as map_lookup_elem) */
	{ BPF_FUNC_map_lookup_percpu_elem, A(MAP, KEY, ANY), HRET_MAP_VALUE_OR_NULL, HF_PKT_ACCESS,
	  0, 0, HPT_ALL },
	{ BPF_FUNC_skc_to_mptcp_sock, A(BSKC), R(HRET_BTF_ID_OR_NULL),
	  HPT_SK_CAST, .obj = "mptcp_sock" },
	{ BPF_FUNC_dynptr_from_mem, A(OUT, SZ0, ANY, DYNPTR), I64, HPT_ALL },
	{ BPF_FUNC_ringbuf_reserve_dynptr, A(MAP, ANY, ANY, DYNPTR), I64, HPT_ALL },
	{ BPF_FUNC_ringbuf_submit_dynptr, A(DYNPTR, ANY), I64F(HF_NO_RETURN_VALUE), HPT_ALL },
	{ BPF_FUNC_ringbuf_discard_dynptr, A(DYNPTR, ANY), I64F(HF_NO_RETURN_VALUE), HPT_ALL },
	{ BPF_FUNC_dynptr_read, A(OUT, SZ0, DYNPTR, ANY, ANY), I64, HPT_ALL },
	{ BPF_FUNC_dynptr_write, A(DYNPTR, ANY, MEM, SZ0, ANY), I64, HPT_ALL },
	{ BPF_FUNC_dynptr_data, A(DYNPTR, ANY, ALLOC), R(HRET_DYNPTR_MEM_OR_NULL), HPT_ALL },
	/* an iphdr / ipv6hdr, then the TCP header */
	{ BPF_FUNC_tcp_raw_gen_syncookie_ipv4, A(FIXED, MEM, SZ), I64, HPT_TC | T(XDP) },
	{ BPF_FUNC_tcp_raw_gen_syncookie_ipv6, A(FIXED, MEM, SZ), I64, HPT_TC | T(XDP) },
	{ BPF_FUNC_tcp_raw_check_syncookie_ipv4, A(FIXED, FIXED), I64, HPT_TC | T(XDP) },
	{ BPF_FUNC_tcp_raw_check_syncookie_ipv6, A(FIXED, FIXED), I64, HPT_TC | T(XDP) },
	{ BPF_FUNC_ktime_get_tai_ns, A(0), I64, HPT_ALL },
	{ BPF_FUNC_user_ringbuf_drain, A(MAP, FUNC, STACKN, ANY), I64, HPT_ALL },
};

/* Prototypes that differ by program type (the table's entry names the types in .other): the
 * kernel's func_proto of such a type gives another bpf_func_proto, with its own arguments. */
static const struct ebpf_helper_proto type_protos[] = {
	/* cg_sock_func_proto: bpf_sk_storage_get_cg_sock_proto, its socket the context ("context
	 * is 'struct sock'": ARG_PTR_TO_CTX) */
	{ BPF_FUNC_sk_storage_get, A(MAP, CTX, VALN, ANY), R(HRET_MAP_VALUE_OR_NULL),
	  T(CGROUP_SOCK) },
};

static bool one_of(uint32_t t, const uint32_t *types, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (types[i] == t)
			return true;
	return false;
}

#define ONE_OF(t, ...) one_of((t), (const uint32_t[]){ __VA_ARGS__ },                         \
			       sizeof((const uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t))

/* (Linux 6.2's cgroup storage, past the 6.1 uapi headers this may build against) */
enum { MAP_CGRP_STORAGE = 32, FUNC_CGRP_STORAGE_GET = 210, FUNC_CGRP_STORAGE_DELETE = 211 };

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
	case BPF_FUNC_ringbuf_reserve_dynptr:
		ok = map_type == BPF_MAP_TYPE_RINGBUF;
		break;
	case BPF_FUNC_sk_redirect_map: case BPF_FUNC_sock_map_update:
	case BPF_FUNC_msg_redirect_map:
		ok = map_type == BPF_MAP_TYPE_SOCKMAP;
		break;
	case BPF_FUNC_sk_redirect_hash: case BPF_FUNC_sock_hash_update:
	case BPF_FUNC_msg_redirect_hash:
		ok = map_type == BPF_MAP_TYPE_SOCKHASH;
		break;
	case BPF_FUNC_sk_select_reuseport:
		ok = ONE_OF(map_type, BPF_MAP_TYPE_REUSEPORT_SOCKARRAY, BPF_MAP_TYPE_SOCKMAP,
			    BPF_MAP_TYPE_SOCKHASH);
		break;
	case BPF_FUNC_map_push_elem: case BPF_FUNC_map_peek_elem:
		ok = ONE_OF(map_type, BPF_MAP_TYPE_QUEUE, BPF_MAP_TYPE_STACK,
			    BPF_MAP_TYPE_BLOOM_FILTER);
		break;
	case BPF_FUNC_map_pop_elem:
		ok = map_type == BPF_MAP_TYPE_QUEUE || map_type == BPF_MAP_TYPE_STACK;
		break;
	case BPF_FUNC_map_lookup_percpu_elem:
		ok = ONE_OF(map_type, BPF_MAP_TYPE_PERCPU_ARRAY, BPF_MAP_TYPE_PERCPU_HASH,
			    BPF_MAP_TYPE_LRU_PERCPU_HASH);
		break;
	case BPF_FUNC_sk_storage_get: case BPF_FUNC_sk_storage_delete:
		ok = map_type == BPF_MAP_TYPE_SK_STORAGE;
		break;
	case BPF_FUNC_inode_storage_get: case BPF_FUNC_inode_storage_delete:
		ok = map_type == BPF_MAP_TYPE_INODE_STORAGE;
		break;
	case BPF_FUNC_task_storage_get: case BPF_FUNC_task_storage_delete:
		ok = map_type == BPF_MAP_TYPE_TASK_STORAGE;
		break;
	case FUNC_CGRP_STORAGE_GET: case FUNC_CGRP_STORAGE_DELETE:
		ok = map_type == MAP_CGRP_STORAGE;
		break;
	case BPF_FUNC_get_local_storage:
		ok = map_type == BPF_MAP_TYPE_CGROUP_STORAGE ||
		     map_type == BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE;
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
			    BPF_FUNC_ringbuf_query, BPF_FUNC_ringbuf_reserve_dynptr);
		break;
	/* (a lookup in a socket map returns a referenced socket, an update takes one, and both
	 * updates and deletes depend on the program type: scev/absint_verdict.c) */
	case BPF_MAP_TYPE_SOCKMAP: case BPF_MAP_TYPE_SOCKHASH: {
		bool hash = map_type == BPF_MAP_TYPE_SOCKHASH;

		ok = ONE_OF((uint32_t)id,
			    hash ? BPF_FUNC_sk_redirect_hash : BPF_FUNC_sk_redirect_map,
			    hash ? BPF_FUNC_sock_hash_update : BPF_FUNC_sock_map_update,
			    hash ? BPF_FUNC_msg_redirect_hash : BPF_FUNC_msg_redirect_map,
			    BPF_FUNC_sk_select_reuseport, BPF_FUNC_map_lookup_elem,
			    BPF_FUNC_map_update_elem, BPF_FUNC_map_delete_elem);
		break;
	}
	/* (a program only selects from a reuseport array: "cannot pass map_type 20 into func
	 * bpf_map_lookup_elem#1", and so for updates and deletes) */
	case BPF_MAP_TYPE_REUSEPORT_SOCKARRAY:
		ok = id == BPF_FUNC_sk_select_reuseport;
		break;
	case BPF_MAP_TYPE_QUEUE: case BPF_MAP_TYPE_STACK:
		ok = ONE_OF((uint32_t)id, BPF_FUNC_map_push_elem, BPF_FUNC_map_pop_elem,
			    BPF_FUNC_map_peek_elem);
		break;
	case BPF_MAP_TYPE_BLOOM_FILTER:
		ok = id == BPF_FUNC_map_push_elem || id == BPF_FUNC_map_peek_elem;
		break;
	/* (a local storage is reached only through its own helpers: "cannot pass map_type 24
	 * into func bpf_map_lookup_elem#1"; kptr_xchg takes a value of one) */
	case BPF_MAP_TYPE_SK_STORAGE:
		ok = ONE_OF((uint32_t)id, BPF_FUNC_sk_storage_get, BPF_FUNC_sk_storage_delete,
			    BPF_FUNC_kptr_xchg);
		break;
	case BPF_MAP_TYPE_INODE_STORAGE:
		ok = ONE_OF((uint32_t)id, BPF_FUNC_inode_storage_get, BPF_FUNC_inode_storage_delete,
			    BPF_FUNC_kptr_xchg);
		break;
	case BPF_MAP_TYPE_TASK_STORAGE:
		ok = ONE_OF((uint32_t)id, BPF_FUNC_task_storage_get, BPF_FUNC_task_storage_delete,
			    BPF_FUNC_kptr_xchg);
		break;
	case MAP_CGRP_STORAGE:
		ok = ONE_OF((uint32_t)id, FUNC_CGRP_STORAGE_GET, FUNC_CGRP_STORAGE_DELETE,
			    BPF_FUNC_kptr_xchg);
		break;
	/* (the cgroup storage of the program's cgroup: bpf_get_local_storage only) */
	case BPF_MAP_TYPE_CGROUP_STORAGE: case BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE:
		ok = id == BPF_FUNC_get_local_storage;
		break;
	default:
		break;
	}
	return ok ? NULL : "a map of this type cannot be used with the helper";
}

const char *ebpf_helper_sockmap_refused(int32_t id, uint32_t map_type, uint32_t prog_type,
					uint32_t attach_type)
{
	if ((id != BPF_FUNC_map_update_elem && id != BPF_FUNC_map_delete_elem) ||
	    (map_type != BPF_MAP_TYPE_SOCKMAP && map_type != BPF_MAP_TYPE_SOCKHASH))
		return NULL;
	switch (prog_type) {
	case BPF_PROG_TYPE_TRACING:
		if (attach_type == BPF_TRACE_ITER)
			return NULL;
		break;
	case BPF_PROG_TYPE_SOCK_OPS:
		if (id == BPF_FUNC_map_delete_elem)
			return NULL;
		break;
	case BPF_PROG_TYPE_SOCKET_FILTER:
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_XDP:
	case BPF_PROG_TYPE_SK_REUSEPORT:
	case BPF_PROG_TYPE_FLOW_DISSECTOR:
	case BPF_PROG_TYPE_SK_LOOKUP:
		return NULL;
	default:
		break;
	}
	return "cannot update sockmap in this context";
}

const struct ebpf_helper_proto *ebpf_helper_entry(int32_t id)
{
	/* (the table is in id order from 1: the index is the id, checked) */
	if (id >= 1 && (size_t)id <= sizeof(protos) / sizeof(protos[0]) &&
	    protos[id - 1].id == id)
		return &protos[id - 1];
	for (size_t i = 0; i < sizeof(protos) / sizeof(protos[0]); i++)
		if (protos[i].id == id)
			return &protos[i];
	return NULL;
}

const struct ebpf_helper_proto *ebpf_helper_entry_for(int32_t id, uint32_t prog_type)
{
	for (size_t i = 0; i < sizeof(type_protos) / sizeof(type_protos[0]); i++)
		if (type_protos[i].id == id && prog_type < 64 &&
		    ((type_protos[i].types >> prog_type) & 1))
			return &type_protos[i];
	return ebpf_helper_entry(id);
}

bool ebpf_harg_modeled(enum ebpf_harg k)
{
	return k <= HARG_U32_INOUT || k == HARG_BTF_SOCK_COMMON || k == HARG_CTX_OR_NULL ||
	       k == HARG_SOCK_COMMON || k == HARG_CONST_STR || k == HARG_MAP_VALUE_OUT ||
	       k == HARG_MAP_VALUE_OR_NULL || k == HARG_MEM_RW_OR_NULL;
}

/* The results the analyzer and the interpreter make: integers, kernel objects (REGION_BTF,
 * INTERP_VA_BTF), ringbuf records, sockets (REGION_SOCK, INTERP_VA_SOCK: the lookups', the casts'
 * and bpf_get_listener_sock's), map_lookup_elem's values (the interpreter's own) and a dynptr's
 * memory (bpf_dynptr_data of a user ring buffer sample, whose dynptr argument the table's entry
 * does not model: scev/absint_callbacks.c gives the prototype). */
static bool hret_modeled(const struct ebpf_helper_proto *p)
{
	return p->ret == HRET_INTEGER || p->ret == HRET_BTF_ID || p->ret == HRET_BTF_ID_OR_NULL ||
	       p->ret == HRET_RINGBUF_OR_NULL || p->ret == HRET_DYNPTR_MEM_OR_NULL ||
	       p->ret == HRET_SOCKET_OR_NULL || p->ret == HRET_TCP_SOCK_OR_NULL ||
	       p->ret == HRET_SOCK_COMMON_OR_NULL ||
	       (p->ret == HRET_MAP_VALUE && p->id == BPF_FUNC_get_local_storage) ||
	       (p->ret == HRET_MAP_VALUE_OR_NULL && (p->id == BPF_FUNC_map_lookup_elem ||
						       p->id == BPF_FUNC_map_lookup_percpu_elem ||
						       p->id == BPF_FUNC_sk_storage_get));
}

/* What of p no prototype-driven code handles, whatever the program type: NULL, or why. */
static const char *unmodeled_kinds(const struct ebpf_helper_proto *p, char *buf, size_t n)
{
	int k = ebpf_helper_proto_unmodeled_arg(p);

	if (p->flags & HF_KCONFIG)
		return "whether the kernel offers it depends on its configuration or lockdown "
		       "state: not modeled";
	if (k) {
		snprintf(buf, n, "argument %d (R%d) is %s%s%s: not modeled", k, k,
			 ebpf_harg_name((enum ebpf_harg)p->args[k - 1]),
			 p->args[k - 1] == HARG_BTF_ID ? " " : "",
			 p->args[k - 1] == HARG_BTF_ID ? (p->obj ? p->obj : "(any)") : "");
		return buf;
	}
	if (!hret_modeled(p)) {
		snprintf(buf, n, "its result is %s%s%s: not modeled",
			 ebpf_hret_name((enum ebpf_hret)p->ret), p->obj ? " " : "",
			 p->obj ? p->obj : "");
		return buf;
	}
	return NULL;
}

const char *ebpf_helper_unmodeled(const struct ebpf_helper_proto *p, uint32_t prog_type,
				  char *buf, size_t n)
{
	return ebpf_helper_unmodeled_sl(p, prog_type, prog_type == BPF_PROG_TYPE_SYSCALL, buf, n);
}

const char *ebpf_helper_unmodeled_sl(const struct ebpf_helper_proto *p, uint32_t prog_type,
				     bool sleepable, char *buf, size_t n)
{
	const char *why = unmodeled_kinds(p, buf, n);

	if (why)
		return why;
	if (prog_type < 64 && ((p->other >> prog_type) & 1))
		return "its prototype for this program type takes other arguments: not modeled";
	if ((p->flags & HF_SLEEPS) && !sleepable)
		return "it may sleep, and whether this program is sleepable is not modeled";
	return NULL;
}

const char *ebpf_helper_attach_refused(const struct ebpf_helper_proto *p, const char *name,
				       uint32_t prog_type, uint32_t attach_type, char *buf,
				       size_t n)
{
	if (prog_type != BPF_PROG_TYPE_TRACING || !p->attach || attach_type >= 64 ||
	    ((p->attach >> attach_type) & 1))
		return NULL;
	snprintf(buf, n, p->attach_msg ? p->attach_msg : "program of this type cannot use helper "
		 "%s#%d", name ? name : "?", p->id);
	return buf;
}

const struct ebpf_helper_proto *ebpf_helper_proto(int32_t id)
{
	const struct ebpf_helper_proto *p = ebpf_helper_entry(id);

	/* (unmodeled_kinds' conditions, without the words) */
	return p && !(p->flags & HF_KCONFIG) &&
	       !ebpf_helper_proto_unmodeled_arg(p) && hret_modeled(p) ? p : NULL;
}

int ebpf_helper_proto_nargs(const struct ebpf_helper_proto *p)
{
	int n = 0;

	for (int k = 0; k < 5; k++)
		if (p->args[k] != HARG_NONE)
			n = k + 1;
	return n;
}

int ebpf_helper_proto_size_arg(const struct ebpf_helper_proto *p)
{
	for (int k = 0; k < 5; k++)
		if (p->args[k] == HARG_SIZE || p->args[k] == HARG_SIZE_OR_ZERO)
			return k;
	return -1;
}

int ebpf_helper_proto_unmodeled_arg(const struct ebpf_helper_proto *p)
{
	for (int k = 0; k < 5; k++)
		if (!ebpf_harg_modeled((enum ebpf_harg)p->args[k]) &&
		    !(p->args[k] == HARG_BTF_ID && (p->flags & HF_BTF_ARG)))
			return k + 1;
	return 0;
}

const char *ebpf_harg_name(enum ebpf_harg k)
{
	static const char *const names[] = {
		[HARG_NONE] = "none",
		[HARG_ANYTHING] = "anything",
		[HARG_MAP] = "a map",
		[HARG_MAP_KEY] = "a map key",
		[HARG_MAP_VALUE] = "a map value",
		[HARG_MEM] = "readable memory",
		[HARG_MEM_OR_NULL] = "readable memory or NULL",
		[HARG_MEM_RW] = "memory",
		[HARG_MEM_UNINIT] = "memory the helper writes",
		[HARG_SIZE] = "a size",
		[HARG_SIZE_OR_ZERO] = "a size or zero",
		[HARG_CTX] = "the context",
		[HARG_ALLOC_SIZE] = "a constant allocation size",
		[HARG_RINGBUF_RELEASE] = "a ringbuf record to release",
		[HARG_LONG_OUT] = "8 aligned bytes the helper writes",
		[HARG_U32_INOUT] = "4 aligned bytes the helper reads and writes",
		[HARG_CTX_OR_NULL] = "the context or NULL",
		[HARG_MEM_RW_OR_NULL] = "memory the helper writes, or NULL",
		[HARG_MAP_VALUE_OR_NULL] = "a map value or NULL",
		[HARG_MAP_VALUE_OUT] = "a map value the helper writes",
		[HARG_FIXED_MEM] = "aligned memory of a fixed size",
		[HARG_STACK_OR_NULL] = "a stack pointer or NULL",
		[HARG_CONST_STR] = "a constant string",
		[HARG_SOCK_COMMON] = "a socket (sock_common)",
		[HARG_SOCKET] = "a full socket",
		[HARG_BTF_SOCK_COMMON] = "a kernel socket (BTF sock_common)",
		[HARG_BTF_ID] = "a pointer to kernel struct",
		[HARG_PERCPU_BTF_ID] = "a per-CPU kernel variable",
		[HARG_SPIN_LOCK] = "a spin lock",
		[HARG_TIMER] = "a timer",
		[HARG_KPTR] = "a kptr",
		[HARG_DYNPTR] = "a dynptr",
		[HARG_CALLBACK] = "a callback",
	};

	return (unsigned)k < sizeof(names) / sizeof(names[0]) && names[k] ? names[k] : "?";
}

const char *ebpf_hret_name(enum ebpf_hret r)
{
	static const char *const names[] = {
		[HRET_INTEGER] = "an integer",
		[HRET_MAP_VALUE_OR_NULL] = "a map value or NULL",
		[HRET_RINGBUF_OR_NULL] = "a ringbuf record or NULL",
		[HRET_MAP_VALUE] = "a map value",
		[HRET_SOCKET_OR_NULL] = "a socket or NULL",
		[HRET_TCP_SOCK_OR_NULL] = "a tcp_sock or NULL",
		[HRET_SOCK_COMMON_OR_NULL] = "a sock_common or NULL",
		[HRET_BTF_ID] = "a pointer to kernel struct",
		[HRET_BTF_ID_OR_NULL] = "NULL or a pointer to kernel struct",
		[HRET_MEM_OR_BTF_ID] = "a per-CPU variable",
		[HRET_DYNPTR_MEM_OR_NULL] = "dynptr memory or NULL",
	};

	return (unsigned)r < sizeof(names) / sizeof(names[0]) && names[r] ? names[r] : "?";
}
