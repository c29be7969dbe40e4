/* Helper prototypes and read-only contexts (bpf/helper_proto.h, ebpf_ctx_ro_access): programs of
 * the tracing and networking types calling helpers with good and bad arguments, each with the
 * verdict bpfscev must give — and, where bpf() is allowed, the kernel's verifier as the
 * independent judge: every program called safe must be accepted and every program called
 * unsafe rejected.  Programs called safe are also run (verdict_compare runs them 32 times with
 * the helpers' outputs drawn from the run's data) and must not fault; forged safe verdicts on
 * unsafe programs must fault in the interpreter (a helper writing past the stack, a store to a
 * read-only context). */
#include <string.h>

#include "bpf/helper_proto.h"
#include "oracle/exec/interp.h"
#include "oracle/kernel/kernel.h"
#include "tests/check.h"
#include "tests/verdict_case.h"
#include "triage/verdict.h"

/* map[fd:0] array (4 -> 64), fd:1 perf event array, fd:2 prog array, fd:3 stack trace map,
 * fd:4 devmap, fd:5 sockmap, fd:6 sockhash (4-byte keys), fd:7 queue of u64, fd:8 per-CPU array
 * (4 -> 16), fd:9 and fd:10 cgroup storages of 16 bytes, fd:11 a per-CPU one of 8 */
static struct ebpf_map_def maps[] = {
	{ .name = "arr", .type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 64,
	  .max_entries = 4 },
	{ .name = "events", .type = BPF_MAP_TYPE_PERF_EVENT_ARRAY, .key_size = 4, .value_size = 4 },
	{ .name = "progs", .type = BPF_MAP_TYPE_PROG_ARRAY, .key_size = 4, .value_size = 4,
	  .max_entries = 4 },
	{ .name = "stacks", .type = BPF_MAP_TYPE_STACK_TRACE, .key_size = 4, .value_size = 127 * 8,
	  .max_entries = 16 },
	{ .name = "devs", .type = BPF_MAP_TYPE_DEVMAP, .key_size = 4, .value_size = 4,
	  .max_entries = 4 },
	{ .name = "socks", .type = BPF_MAP_TYPE_SOCKMAP, .key_size = 4, .value_size = 4,
	  .max_entries = 4 },
	{ .name = "sockh", .type = BPF_MAP_TYPE_SOCKHASH, .key_size = 4, .value_size = 4,
	  .max_entries = 4 },
	{ .name = "queue", .type = BPF_MAP_TYPE_QUEUE, .key_size = 0, .value_size = 8,
	  .max_entries = 4 },
	{ .name = "pcpu", .type = BPF_MAP_TYPE_PERCPU_ARRAY, .key_size = 4, .value_size = 16,
	  .max_entries = 4 },
	{ .name = "cgs", .type = BPF_MAP_TYPE_CGROUP_STORAGE, .key_size = 16, .value_size = 16 },
	{ .name = "cgs2", .type = BPF_MAP_TYPE_CGROUP_STORAGE, .key_size = 8, .value_size = 16 },
	{ .name = "pcgs", .type = BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE, .key_size = 16,
	  .value_size = 8 },
};

/* r3 = fp-4, a key written (the socket map helpers' key argument) */
#define KEY4 "*(u32 *)(r10 -4) = 0\nr3 = r10\nr3 += -4\n"

#define KP BPF_PROG_TYPE_KPROBE
#define TP BPF_PROG_TYPE_TRACEPOINT
#define XDP_PKT "r2 = *(u32 *)(r1 +0)\nr3 = *(u32 *)(r1 +4)\nr4 = r2\nr4 += 14\n" \
		"if r4 > r3 goto out\n"

static const struct {
	const char *name, *text;
	uint32_t type;
	enum scev_verdict_kind want;
	const char *reason;
	/* want and reason are the unprivileged rule's (verdict_opts.unprivileged): the kernel,
	 * asked by root, allows reading stack bytes never written (allow_uninit_stack for
	 * CAP_PERFMON), and so does bpfscev by default — safe, both accept; asked as an
	 * unprivileged loader it refuses them — both reject —, or for a tracing type, which
	 * needs CAP_PERFMON to load, is not asked (unpriv-skip) */
	bool privileged_kernel_accepts;
} cases[] = {
	{ "probe_read into the stack, then read back",
	  "r3 = *(u64 *)(r1 +104)\nr1 = r10\nr1 += -16\nr2 = 16\ncall bpf_probe_read\n"
	  "r0 = *(u64 *)(r10 -8)\nexit\n", KP, SAFE, NULL },
	{ "probe_read_kernel past the frame",
	  "r3 = *(u64 *)(r1 +104)\nr1 = r10\nr1 += -16\nr2 = 24\ncall bpf_probe_read_kernel\n"
	  "r0 = 0\nexit\n", KP, UNSAFE, "stack access" },
	{ "probe_read with a size from the context",
	  "r2 = *(u64 *)(r1 +96)\nr3 = *(u64 *)(r1 +104)\nr1 = r10\nr1 += -16\n"
	  "call bpf_probe_read\nr0 = 0\nexit\n", KP, UNSAFE, "unbounded" },
	{ "probe_read with a masked size",
	  "r2 = *(u64 *)(r1 +96)\nr2 &= 15\nr3 = *(u64 *)(r1 +104)\nr1 = r10\nr1 += -16\n"
	  "call bpf_probe_read\nr0 = 0\nexit\n", KP, SAFE, NULL },
	/* the kernel counts every byte up to the size's maximum as written */
	{ "probe_read_str of a variable size, then its first byte",
	  "r2 = *(u64 *)(r1 +96)\nr2 &= 7\nr2 += 1\nr3 = *(u64 *)(r1 +104)\nr1 = r10\n"
	  "r1 += -16\ncall bpf_probe_read_str\nr0 = *(u8 *)(r10 -16)\nexit\n", KP, SAFE, NULL },
	{ "probe_read_str of a variable size, then a byte past its maximum",
	  "r2 = *(u64 *)(r1 +96)\nr2 &= 7\nr2 += 1\nr3 = *(u64 *)(r1 +104)\nr1 = r10\n"
	  "r1 += -16\ncall bpf_probe_read_str\nr0 = *(u8 *)(r10 -8)\nexit\n", KP, UNSAFE,
	  "stack bytes", true },
	{ "kprobe context write", "r2 = 0\n*(u64 *)(r1 +0) = r2\nr0 = 0\nexit\n", KP, UNSAFE,
	  "read-only" },
	{ "kprobe context past pt_regs", "r0 = *(u64 *)(r1 +168)\nexit\n", KP, UNSAFE,
	  "outside the context" },
	{ "kprobe context misaligned", "r0 = *(u32 *)(r1 +2)\nexit\n", KP, UNSAFE, "misaligned" },
	{ "kprobe context narrow read", "r0 = *(u8 *)(r1 +9)\nexit\n", KP, SAFE, NULL },
	{ "tracepoint common fields", "r0 = *(u32 *)(r1 +0)\nexit\n", TP, UNSAFE,
	  "common fields" },
	{ "tracepoint first field", "r0 = *(u64 *)(r1 +8)\nexit\n", TP, SAFE, NULL },
	{ "perf_event register as u32", "r0 = *(u32 *)(r1 +0)\nexit\n",
	  BPF_PROG_TYPE_PERF_EVENT, UNSAFE, "whole u64" },
	{ "perf_event sample_period as u32", "r0 = *(u32 *)(r1 +168)\nexit\n",
	  BPF_PROG_TYPE_PERF_EVENT, SAFE, NULL },
	{ "raw_tp last argument", "r0 = *(u64 *)(r1 +88)\nexit\n",
	  BPF_PROG_TYPE_RAW_TRACEPOINT, SAFE, NULL },
	{ "raw_tp past the arguments", "r0 = *(u64 *)(r1 +96)\nexit\n",
	  BPF_PROG_TYPE_RAW_TRACEPOINT, UNSAFE, "outside" },
	{ "probe_read of size 0 into a scalar",
	  "r3 = 0\nr1 = 0\nr2 = 0\ncall bpf_probe_read\nr0 = 0\nexit\n", KP, UNSAFE,
	  "not a pointer to memory" },
	{ "get_current_comm, then read back",
	  "r1 = r10\nr1 += -16\nr2 = 16\ncall bpf_get_current_comm\nr0 = *(u64 *)(r10 -16)\n"
	  "exit\n", KP, SAFE, NULL },
	{ "get_current_comm of size 0",
	  "r1 = r10\nr1 += -16\nr2 = 0\ncall bpf_get_current_comm\nr0 = 0\nexit\n", KP, UNSAFE,
	  "zero-sized" },
	{ "perf_event_output of stack bytes",
	  "*(u64 *)(r10 -8) = 1\nr4 = r10\nr4 += -8\nr2 = map[fd:1] ll\nr3 = 0xffffffff ll\n"
	  "r5 = 8\ncall bpf_perf_event_output\nr0 = 0\nexit\n", KP, SAFE, NULL },
	{ "perf_event_output of unwritten stack bytes",
	  "r4 = r10\nr4 += -8\nr2 = map[fd:1] ll\nr3 = 0xffffffff ll\n"
	  "r5 = 8\ncall bpf_perf_event_output\nr0 = 0\nexit\n", KP, UNSAFE, "stack bytes", true },
	{ "perf_event_output to an array map",
	  "*(u64 *)(r10 -8) = 1\nr4 = r10\nr4 += -8\nr2 = map[fd:0] ll\nr3 = 0\n"
	  "r5 = 8\ncall bpf_perf_event_output\nr0 = 0\nexit\n", KP, UNSAFE, "map" },
	{ "perf_event_output without the context",
	  "*(u64 *)(r10 -8) = 1\nr4 = r10\nr4 += -8\nr1 = 0\nr2 = map[fd:1] ll\nr3 = 0\n"
	  "r5 = 8\ncall bpf_perf_event_output\nr0 = 0\nexit\n", KP, UNSAFE, "context" },
	{ "get_stackid", "r2 = map[fd:3] ll\nr3 = 0\ncall bpf_get_stackid\nr0 = 0\nexit\n", KP,
	  SAFE, NULL },
	/* bpf_map_lookup_percpu_elem: NULL past the CPUs whatever the key; per-CPU maps only */
	{ "lookup_percpu_elem checked",
	  "*(u32 *)(r10 -4) = 1\nr1 = map[fd:8] ll\nr2 = r10\nr2 += -4\nr3 = 1\n"
	  "call bpf_map_lookup_percpu_elem\nif r0 == 0 goto out\nr1 = *(u64 *)(r0 +8)\n"
	  "*(u64 *)(r0 +0) = r1\nout: r0 = 0\nexit\n", KP, SAFE, NULL },
	{ "lookup_percpu_elem unchecked",
	  "*(u32 *)(r10 -4) = 1\nr1 = map[fd:8] ll\nr2 = r10\nr2 += -4\nr3 = 0\n"
	  "call bpf_map_lookup_percpu_elem\nr0 = *(u64 *)(r0 +8)\nexit\n", KP, UNSAFE, "NULL" },
	{ "lookup_percpu_elem past the value",
	  "*(u32 *)(r10 -4) = 1\nr1 = map[fd:8] ll\nr2 = r10\nr2 += -4\nr3 = 0\n"
	  "call bpf_map_lookup_percpu_elem\nif r0 == 0 goto out\nr0 = *(u64 *)(r0 +12)\n"
	  "out: exit\n", KP, UNSAFE, "map" },
	{ "lookup_percpu_elem of a packet key", XDP_PKT
	  "r1 = map[fd:8] ll\nr3 = 0\ncall bpf_map_lookup_percpu_elem\nout: r0 = 0\nexit\n",
	  BPF_PROG_TYPE_XDP, SAFE, NULL },
	{ "lookup_percpu_elem on an array",
	  "*(u32 *)(r10 -4) = 1\nr1 = map[fd:0] ll\nr2 = r10\nr2 += -4\nr3 = 0\n"
	  "call bpf_map_lookup_percpu_elem\nr0 = 0\nexit\n", KP, UNSAFE, "map" },
	{ "a lookup in a prog array",
	  "r1 = map[fd:2] ll\nr2 = r10\nr2 += -4\n*(u32 *)(r10 -4) = 0\n"
	  "call bpf_map_lookup_elem\nr0 = 0\nexit\n", KP, UNSAFE, "map" },
	{ "trace_printk of a stack string",
	  "*(u64 *)(r10 -8) = 0x0a6968\nr1 = r10\nr1 += -8\nr2 = 8\ncall bpf_trace_printk\n"
	  "r0 = 0\nexit\n", KP, SAFE, NULL },
	{ "xdp calling a tracing helper",
	  "r3 = 0\nr1 = r10\nr1 += -16\nr2 = 16\ncall bpf_probe_read\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_XDP, UNSAFE, "cannot use helper" },
	{ "xdp_adjust_head, then the old packet pointer", "r6 = r1\n" XDP_PKT
	  "r7 = r2\nr1 = r6\nr2 = 4\ncall bpf_xdp_adjust_head\nr0 = *(u8 *)(r7 +0)\n"
	  "r0 = 2\nexit\nout: r0 = 2\nexit\n", BPF_PROG_TYPE_XDP, UNSAFE, "pointer" },
	{ "xdp_adjust_head, then the packet checked again", "r6 = r1\nr2 = 4\n"
	  "call bpf_xdp_adjust_head\nr1 = r6\n" XDP_PKT "r0 = *(u8 *)(r2 +13)\nr0 = 2\nexit\n"
	  "out: r0 = 2\nexit\n", BPF_PROG_TYPE_XDP, SAFE, NULL },
	{ "redirect_map to a devmap", "r1 = map[fd:4] ll\nr2 = 0\nr3 = 0\ncall bpf_redirect_map\n"
	  "exit\n", BPF_PROG_TYPE_XDP, SAFE, NULL },
	{ "tail_call, then r0", "r2 = map[fd:2] ll\nr3 = 0\ncall bpf_tail_call\nexit\n",
	  BPF_PROG_TYPE_XDP, UNSAFE, "R0 may be read" },
	{ "tail_call into an array map", "r2 = map[fd:0] ll\nr3 = 0\ncall bpf_tail_call\nr0 = 0\n"
	  "exit\n", BPF_PROG_TYPE_XDP, UNSAFE, "map" },
	{ "skb_load_bytes, then read back",
	  "r2 = 0\nr3 = r10\nr3 += -8\nr4 = 8\ncall bpf_skb_load_bytes\nr0 = *(u64 *)(r10 -8)\n"
	  "r0 = 0\nexit\n", BPF_PROG_TYPE_SCHED_CLS, SAFE, NULL },
	{ "csum_diff of NULL and stack bytes",
	  "*(u64 *)(r10 -8) = 7\nr1 = 0\nr2 = 0\nr3 = r10\nr3 += -8\nr4 = 8\nr5 = 0\n"
	  "call bpf_csum_diff\nr0 = 0\nexit\n", BPF_PROG_TYPE_SCHED_CLS, SAFE, NULL },
	{ "csum_diff of NULL with a size",
	  "*(u64 *)(r10 -8) = 7\nr1 = 0\nr2 = 4\nr3 = r10\nr3 += -8\nr4 = 8\nr5 = 0\n"
	  "call bpf_csum_diff\nr0 = 0\nexit\n", BPF_PROG_TYPE_SCHED_CLS, UNSAFE, "NULL" },
	/* __sk_buff field sizes (bpf_skb_is_valid_access) */
	{ "__sk_buff mark read as a u64", "r0 = *(u64 *)(r1 +8)\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_SCHED_CLS, UNSAFE, "__sk_buff" },
	{ "__sk_buff mark read as a u16", "r0 = *(u16 *)(r1 +10)\nexit\n",
	  BPF_PROG_TYPE_SCHED_CLS, SAFE, NULL },
	{ "__sk_buff tstamp read as a u64", "r0 = *(u64 *)(r1 +152)\nexit\n",
	  BPF_PROG_TYPE_SCHED_CLS, SAFE, NULL },
	{ "__sk_buff tstamp read as a u32", "r0 = *(u32 *)(r1 +152)\nexit\n",
	  BPF_PROG_TYPE_SCHED_CLS, UNSAFE, "__sk_buff" },
	{ "__sk_buff data read as a u16", "r0 = *(u16 *)(r1 +76)\nexit\n",
	  BPF_PROG_TYPE_SCHED_CLS, UNSAFE, "__sk_buff" },
	{ "__sk_buff cb read as a u64", "r0 = *(u64 *)(r1 +48)\nexit\n",
	  BPF_PROG_TYPE_SCHED_CLS, SAFE, NULL },
	{ "skb_get_tunnel_key into the stack, then read back",
	  "r2 = r10\nr2 += -44\nr3 = 44\nr4 = 0\ncall bpf_skb_get_tunnel_key\n"
	  "r0 = *(u32 *)(r10 -44)\nr0 = 0\nexit\n", BPF_PROG_TYPE_SCHED_CLS, SAFE, NULL },
	{ "skb_set_tunnel_key past the frame",
	  "*(u64 *)(r10 -8) = 0\nr2 = r10\nr2 += -8\nr3 = 16\nr4 = 0\n"
	  "call bpf_skb_set_tunnel_key\nr0 = 0\nexit\n", BPF_PROG_TYPE_SCHED_CLS, UNSAFE,
	  "stack access" },
	{ "skb_get_tunnel_opt in a socket filter",
	  "r2 = r10\nr2 += -8\nr3 = 8\ncall bpf_skb_get_tunnel_opt\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_SOCKET_FILTER, UNSAFE, "cannot use" },
	/* bpf_get_local_storage (issue 15): the program's cgroup storage, never NULL; flags the
	 * constant 0; one storage map of each type */
	{ "get_local_storage, its 16 bytes read and written",
	  "r1 = map[fd:9] ll\nr2 = 0\ncall bpf_get_local_storage\nr1 = *(u64 *)(r0 +8)\n"
	  "r1 += 1\n*(u64 *)(r0 +8) = r1\nr0 = 1\nexit\n", BPF_PROG_TYPE_CGROUP_SKB, SAFE, NULL },
	{ "get_local_storage, a read past its 16 bytes",
	  "r1 = map[fd:9] ll\nr2 = 0\ncall bpf_get_local_storage\nr1 = *(u64 *)(r0 +16)\n"
	  "r0 = 1\nexit\n", BPF_PROG_TYPE_CGROUP_SKB, UNSAFE, "map value" },
	{ "get_local_storage with flags 1",
	  "r1 = map[fd:9] ll\nr2 = 1\ncall bpf_get_local_storage\nr0 = 1\nexit\n",
	  BPF_PROG_TYPE_CGROUP_SKB, UNSAFE, "non-zero flags" },
	{ "get_local_storage with flags from the context",
	  "r2 = *(u32 *)(r1 +0)\nr2 &= 1\nr1 = map[fd:9] ll\ncall bpf_get_local_storage\n"
	  "r0 = 1\nexit\n", BPF_PROG_TYPE_CGROUP_SKB, UNSAFE, "non-zero flags" },
	{ "get_local_storage of an array",
	  "r1 = map[fd:0] ll\nr2 = 0\ncall bpf_get_local_storage\nr0 = 1\nexit\n",
	  BPF_PROG_TYPE_CGROUP_SKB, UNSAFE, "map" },
	{ "a lookup in a cgroup storage", KEY4 "r2 = r3\nr1 = map[fd:9] ll\n"
	  "call bpf_map_lookup_elem\nr0 = 1\nexit\n", BPF_PROG_TYPE_CGROUP_SKB, UNSAFE, "map" },
	{ "get_local_storage of both types",
	  "r1 = map[fd:9] ll\nr2 = 0\ncall bpf_get_local_storage\nr6 = r0\n"
	  "r1 = map[fd:11] ll\nr2 = 0\ncall bpf_get_local_storage\nr1 = *(u64 *)(r0 +0)\n"
	  "*(u64 *)(r6 +0) = r1\nr0 = 1\nexit\n", BPF_PROG_TYPE_CGROUP_SKB, SAFE, NULL },
	{ "the per-CPU storage read past its 8 bytes",
	  "r1 = map[fd:11] ll\nr2 = 0\ncall bpf_get_local_storage\nr1 = *(u32 *)(r0 +8)\n"
	  "r0 = 1\nexit\n", BPF_PROG_TYPE_CGROUP_SKB, UNSAFE, "map value" },
	{ "two cgroup storages of one type",
	  "r1 = map[fd:9] ll\nr2 = 0\ncall bpf_get_local_storage\nr6 = r0\n"
	  "r1 = map[fd:10] ll\nr2 = 0\ncall bpf_get_local_storage\nr0 = 1\nexit\n",
	  BPF_PROG_TYPE_CGROUP_SKB, UNSAFE, "only one cgroup storage of each type" },
	{ "get_local_storage in a sock_ops program",
	  "r1 = map[fd:9] ll\nr2 = 0\ncall bpf_get_local_storage\nr1 = *(u32 *)(r0 +12)\n"
	  "r0 = 1\nexit\n", BPF_PROG_TYPE_SOCK_OPS, SAFE, NULL },
	{ "get_local_storage in an xdp program",
	  "r1 = map[fd:9] ll\nr2 = 0\ncall bpf_get_local_storage\nr0 = 1\nexit\n",
	  BPF_PROG_TYPE_XDP, UNSAFE, "cannot use" },
	/* the reason names the kind the analyzer lacks */
	{ "a kptr", "r1 = 0\nr2 = 0\ncall bpf_kptr_xchg\nr0 = 0\nexit\n", BPF_PROG_TYPE_SCHED_CLS,
	  VERDICT_UNSUPPORTED, "argument 1 (R1) is a kptr: not modeled" },
	/* (a spin lock is modeled: scev/absint_lock.c, corpus spin_lock_*) */
	{ "a spin lock of a number", "r1 = 0\ncall bpf_spin_lock\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_SCHED_CLS, UNSAFE, "R1 type=scalar expected=map_value" },
	{ "skc_to_tcp_sock of a scalar", "r1 = 0\ncall bpf_skc_to_tcp_sock\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_SCHED_CLS, UNSAFE, "not a socket" },
	{ "sk_release of a number", "r1 = 0\ncall bpf_sk_release\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_SCHED_CLS, UNSAFE, "not a socket" },
	{ "sk_storage_get of an array and no socket", "r2 = 0\nr3 = 0\nr4 = 0\n"
	  "r1 = map[fd:0] ll\ncall bpf_sk_storage_get\nr0 = 0\nexit\n", BPF_PROG_TYPE_SCHED_CLS,
	  UNSAFE, NULL },
	{ "bpf_override_return (kernel configuration)", "r2 = 0\ncall bpf_override_return\n"
	  "r0 = 0\nexit\n", KP, VERDICT_UNSUPPORTED, "configuration" },
	/* socket maps (issue 16 §2) */
	{ "sock_map_update from sock_ops", KEY4 "r2 = map[fd:5] ll\nr4 = 0\n"
	  "call bpf_sock_map_update\nr0 = 1\nexit\n", BPF_PROG_TYPE_SOCK_OPS, SAFE, NULL },
	{ "sock_map_update with a sockhash", KEY4 "r2 = map[fd:6] ll\nr4 = 0\n"
	  "call bpf_sock_map_update\nr0 = 1\nexit\n", BPF_PROG_TYPE_SOCK_OPS, UNSAFE,
	  "does not take a map" },
	{ "sock_map_update with the key not written", "r3 = r10\nr3 += -4\n"
	  "r2 = map[fd:5] ll\nr4 = 0\ncall bpf_sock_map_update\nr0 = 1\nexit\n",
	  BPF_PROG_TYPE_SOCK_OPS, UNSAFE, NULL, true },
	{ "sock_map_update with the key a scalar", "r3 = 0\nr2 = map[fd:5] ll\nr4 = 0\n"
	  "call bpf_sock_map_update\nr0 = 1\nexit\n", BPF_PROG_TYPE_SOCK_OPS, UNSAFE, NULL },
	{ "sock_map_update from a kprobe", KEY4 "r2 = map[fd:5] ll\nr4 = 0\n"
	  "call bpf_sock_map_update\nr0 = 0\nexit\n", KP, UNSAFE, "cannot use" },
	{ "sock_hash_update from sock_ops", KEY4 "r2 = map[fd:6] ll\nr4 = 0\n"
	  "call bpf_sock_hash_update\nr0 = 1\nexit\n", BPF_PROG_TYPE_SOCK_OPS, SAFE, NULL },
	{ "sock_hash_update with r1 not the context", KEY4 "r1 = r10\nr2 = map[fd:6] ll\n"
	  "r4 = 0\ncall bpf_sock_hash_update\nr0 = 1\nexit\n", BPF_PROG_TYPE_SOCK_OPS, UNSAFE,
	  "not the context" },
	{ "sk_redirect_map from sk_skb", "r2 = map[fd:5] ll\nr3 = 0\nr4 = 0\n"
	  "call bpf_sk_redirect_map\nexit\n", BPF_PROG_TYPE_SK_SKB, SAFE, NULL },
	{ "sk_redirect_hash from sk_skb", KEY4 "r2 = map[fd:6] ll\nr4 = 0\n"
	  "call bpf_sk_redirect_hash\nexit\n", BPF_PROG_TYPE_SK_SKB, SAFE, NULL },
	{ "sk_redirect_map from tc", "r2 = map[fd:5] ll\nr3 = 0\nr4 = 0\n"
	  "call bpf_sk_redirect_map\nexit\n", BPF_PROG_TYPE_SCHED_CLS, UNSAFE, "cannot use" },
	{ "msg_redirect_hash from sk_msg", KEY4 "r2 = map[fd:6] ll\nr4 = 0\n"
	  "call bpf_msg_redirect_hash\nexit\n", BPF_PROG_TYPE_SK_MSG, SAFE, NULL },
	{ "msg_redirect_map with a sockhash", "r2 = map[fd:6] ll\nr3 = 0\nr4 = 0\n"
	  "call bpf_msg_redirect_map\nexit\n", BPF_PROG_TYPE_SK_MSG, UNSAFE,
	  "does not take a map" },
	{ "msg_apply_bytes, msg_cork_bytes and msg_pull_data", "r6 = r1\nr2 = 8\n"
	  "call bpf_msg_apply_bytes\nr1 = r6\nr2 = 8\ncall bpf_msg_cork_bytes\nr1 = r6\n"
	  "r2 = 0\nr3 = 8\nr4 = 0\ncall bpf_msg_pull_data\nr0 = 1\nexit\n",
	  BPF_PROG_TYPE_SK_MSG, SAFE, NULL },
	{ "msg_pull_data with r4 not written", "r2 = 0\nr3 = 8\ncall bpf_msg_pull_data\n"
	  "r0 = 1\nexit\n", BPF_PROG_TYPE_SK_MSG, UNSAFE, "R4" },
	/* (a socket map's lookup acquires a socket: sock_ops may not release it) */
	{ "a lookup in a sockmap", KEY4 "r2 = r3\nr1 = map[fd:5] ll\ncall bpf_map_lookup_elem\n"
	  "r0 = 1\nexit\n", BPF_PROG_TYPE_SOCK_OPS, UNSAFE, "Unreleased reference" },
	{ "a lookup in a sockhash, released", KEY4 "r2 = r3\nr1 = map[fd:6] ll\n"
	  "call bpf_map_lookup_elem\nif r0 == 0 goto out\nr1 = r0\ncall bpf_sk_release\n"
	  "out: r0 = 0\nexit\n", BPF_PROG_TYPE_SCHED_CLS, SAFE, NULL },
	{ "a lookup in a sockmap whose map is not loaded in the call's block", KEY4 "r2 = r3\n"
	  "r1 = map[fd:5] ll\nif r2 == 0 goto next\nnext: call bpf_map_lookup_elem\n"
	  "if r0 == 0 goto out\nr1 = r0\ncall bpf_sk_release\nout: r0 = 0\nexit\n",
	  BPF_PROG_TYPE_SCHED_CLS, VERDICT_UNSUPPORTED, "socket map whose map" },
	/* tracing and tc helpers with all-modeled kinds */
	{ "get_func_ip and get_attach_cookie from a kprobe", "r6 = r1\ncall bpf_get_func_ip\n"
	  "r1 = r6\ncall bpf_get_attach_cookie\nr0 = 0\nexit\n", KP, SAFE, NULL },
	{ "get_func_ip from a tracepoint", "call bpf_get_func_ip\nr0 = 0\nexit\n", TP, UNSAFE,
	  "cannot use" },
	{ "get_attach_cookie with r1 not the context", "r1 = 0\ncall bpf_get_attach_cookie\n"
	  "r0 = 0\nexit\n", KP, UNSAFE, "not the context" },
	{ "skb_cgroup_id and skb_ecn_set_ce from tc", "r6 = r1\ncall bpf_skb_cgroup_id\n"
	  "r1 = r6\ncall bpf_skb_ecn_set_ce\nr0 = 0\nexit\n", BPF_PROG_TYPE_SCHED_CLS, SAFE,
	  NULL },
	{ "get_ns_current_pid_tgid into the stack", "r1 = 0\nr2 = 0\nr3 = r10\nr3 += -8\n"
	  "r4 = 8\ncall bpf_get_ns_current_pid_tgid\nr0 = *(u32 *)(r10 -8)\nr0 = 0\nexit\n",
	  KP, SAFE, NULL },
	{ "get_ns_current_pid_tgid past the frame", "r1 = 0\nr2 = 0\nr3 = r10\nr3 += -8\n"
	  "r4 = 16\ncall bpf_get_ns_current_pid_tgid\nr0 = 0\nexit\n", KP, UNSAFE,
	  "stack access" },
	{ "map_push_elem into a queue", "*(u64 *)(r10 -8) = 1\nr2 = r10\nr2 += -8\n"
	  "r1 = map[fd:7] ll\nr3 = 0\ncall bpf_map_push_elem\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_SCHED_CLS, SAFE, NULL },
	{ "map_push_elem into an array", "*(u64 *)(r10 -8) = 1\nr2 = r10\nr2 += -8\n"
	  "r1 = map[fd:0] ll\nr3 = 0\ncall bpf_map_push_elem\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_SCHED_CLS, UNSAFE, "does not take a map" },
	{ "map_pop_elem (a value the helper writes, unwritten before)", "r2 = r10\nr2 += -8\n"
	  "r1 = map[fd:7] ll\ncall bpf_map_pop_elem\nr0 = *(u64 *)(r10 -8)\nexit\n",
	  BPF_PROG_TYPE_SCHED_CLS, SAFE, NULL },
	{ "map_pop_elem past the frame", "r2 = r10\nr2 += -4\n"
	  "r1 = map[fd:7] ll\ncall bpf_map_pop_elem\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_SCHED_CLS, UNSAFE, "stack access [-4, 4)" },
};

static int open_case(struct ebpf_object **obj, size_t k)
{
	struct diag d;

	diag_clear(&d);
	if (ebpf_object__open_mem(obj, cases[k].text, strlen(cases[k].text), cases[k].name, &d)) {
		CHECK(0, "%s: %s (line %d)", cases[k].name, d.msg, d.line);
		return -1;
	}
	(*obj)->maps = maps;
	(*obj)->map_cnt = sizeof(maps) / sizeof(maps[0]);
	return 0;
}

static void close_case(struct ebpf_object *obj)
{
	obj->maps = NULL;
	obj->map_cnt = 0;
	ebpf_object__free(obj);
}

static void test_cases(bool kernel)
{
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct ebpf_object *obj = NULL;
		struct verdict_opts vo = { .sz = sizeof(vo), .prog_type = cases[k].type,
					   .kernel = kernel,
					   .unprivileged = cases[k].privileged_kernel_accepts };
		struct verdict_report r;
		struct diag d;

		if (open_case(&obj, k))
			continue;
		diag_clear(&d);
		if (cases[k].privileged_kernel_accepts) {
			/* the default, privileged rule: safe, and the runs draw the bytes */
			struct verdict_opts po = vo;

			po.unprivileged = false;
			CHECK(verdict_compare(&r, obj, &obj->progs[0], &po, &d) == 0, "%s: %s",
			      cases[k].name, d.msg);
			verdict_case_check(cases[k].name, &r, VERDICT_SAFE, NULL, kernel,
					   VC_BOTH_ACCEPT);
			verdict_report__free(&r);
		}
		CHECK(verdict_compare(&r, obj, &obj->progs[0], &vo, &d) == 0, "%s: %s",
		      cases[k].name, d.msg);
		verdict_case_check_ours(cases[k].name, &r, cases[k].want, cases[k].reason);
		/* the kernel's verifier judges the model: accept what we call safe, reject what
		 * we call unsafe */
		if (kernel && cases[k].privileged_kernel_accepts)
			CHECK(r.cls == (kernel_type_needs_perfmon(cases[k].type) ? VC_UNPRIV_SKIP
										 : VC_BOTH_REJECT),
			      "%s: %s (kernel: %s)", cases[k].name, verdict_class_name(r.cls),
			      r.kernel_accepted ? "accepted" : r.kernel_message);
		else if (kernel && cases[k].want != VERDICT_UNSUPPORTED)
			CHECK(r.cls == VC_BOTH_ACCEPT || r.cls == VC_BOTH_REJECT,
			      "%s: %s (ours: %s %s; kernel: %s)", cases[k].name,
			      verdict_class_name(r.cls), scev_verdict_name(r.ours.kind),
			      r.ours.reason, r.kernel_accepted ? "accepted" : r.kernel_message);
		verdict_report__free(&r);
		close_case(obj);
	}
}

/* A safe verdict forged for an unsafe program must fault when run: the interpreter checks a
 * helper's memory arguments and the read-only context itself, and the run's stack watch
 * (oracle/exec/stackinit.h) the bytes a helper reads. */
static void test_forged(void)
{
	static const char *const unsafe[] = { "probe_read_kernel past the frame",
					      "kprobe context write", "kprobe context past pt_regs",
					      "perf_event_output of unwritten stack bytes" };

	for (size_t u = 0; u < sizeof(unsafe) / sizeof(unsafe[0]); u++) {
		for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
			struct ebpf_object *obj = NULL;
			struct verdict_opts vo = { .sz = sizeof(vo), .prog_type = cases[k].type,
						   .runs = 4, .unprivileged = true };
			struct verdict_report r;

			if (strcmp(cases[k].name, unsafe[u]) || open_case(&obj, k))
				continue;
			verdict_case_forge(cases[k].name, obj, &vo, &r);
			/* the unwritten bytes are zero in the interpreter's fresh frame: the stack
			 * watch, not the memory model, sees the helper read them */
			CHECK(r.faults == r.runs && r.runs == 4, "%s: %llu of %llu runs faulted",
			      cases[k].name, (unsigned long long)r.faults,
			      (unsigned long long)r.runs);
			if (strstr(unsafe[u], "unwritten"))
				CHECK(strstr(r.fault, "never written") != NULL, "%s: %s",
				      cases[k].name, r.fault);
			close_case(obj);
		}
	}
}

/* The interpreter draws what a helper writes and returns from the run's helper data, in order:
 * the 8 bytes probe_read writes, its 8-byte result, then get_prandom_u32's 4. */
static void test_interp_draws(void)
{
	static const char text[] = "r3 = *(u64 *)(r1 +104)\nr1 = r10\nr1 += -8\nr2 = 8\n"
				   "call bpf_probe_read\nr6 = *(u64 *)(r10 -8)\n"
				   "call bpf_get_prandom_u32\nr0 += r6\nexit\n";
	uint8_t ctx[168] = { 0 }, hd[20];
	struct ebpf_object *obj = NULL;
	struct interp_code *code = NULL;
	struct interp_env env = { 0 };
	struct interp_result res;
	struct diag d;

	for (size_t i = 0; i < sizeof(hd); i++)
		hd[i] = (uint8_t)(i + 1);
	diag_clear(&d);
	if (ebpf_object__open_mem(&obj, text, strlen(text), "draws", &d) ||
	    interp_prepare(&code, &obj->progs[0], &d)) {
		CHECK(0, "draws: %s", d.msg);
		ebpf_object__free(obj);
		return;
	}
	env.ctx_kind = INTERP_CTX_RO;
	env.input = ctx;
	env.input_len = sizeof(ctx);
	env.helper_data = hd;
	env.helper_len = sizeof(hd);
	CHECK(interp_run(code, &env, &res) == 0 && res.trap == INTERP_OK, "draws: %s", res.reason);
	CHECK_EQ_U64(res.r0, 0x0807060504030201ull + 0x14131211ull, "probe_read bytes + prandom");
	interp_code__free(code);
	ebpf_object__free(obj);
}

/* A helper the running kernel does not offer to the program's type (some kernels refuse
 * bpf_xdp_adjust_meta to XDP, a build option) says nothing about the program: bpfscev calls
 * the program safe, and the class must be "no-load" with the kernel's message, never an
 * improvement.  The kernel decides which side is taken: where it accepts, both accept. */
static void test_helper_kernel_lacks(bool kernel)
{
	static const char text[] = "r2 = -8\ncall bpf_xdp_adjust_meta\nr0 = 2\nexit\n";
	struct verdict_opts vo = { .sz = sizeof(vo), .kernel = true, .runs = 4,
				   .prog_type = BPF_PROG_TYPE_XDP, .keep_load_errors = true };
	struct ebpf_object *obj;
	struct verdict_report r;
	struct diag d;

	if (!kernel || !(obj = verdict_case_open("adjust_meta", text, NULL, 0)))
		return;
	diag_clear(&d);
	if (verdict_compare(&r, obj, &obj->progs[0], &vo, &d)) {
		CHECK(0, "adjust_meta: %s", d.msg);
	} else {
		CHECK(r.ours.kind == VERDICT_SAFE, "adjust_meta: %s %s",
		      scev_verdict_name(r.ours.kind), r.ours.reason);
		if (r.kernel_accepted)
			CHECK(r.cls == VC_BOTH_ACCEPT, "adjust_meta: %s", verdict_class_name(r.cls));
		else
			CHECK(r.cls == VC_NO_LOAD &&
			      strstr(r.kernel_message, "cannot use helper") != NULL,
			      "adjust_meta: %s, kernel: %s", verdict_class_name(r.cls),
			      r.kernel_message);
		verdict_report__free(&r);
	}
	verdict_case_close(obj);
}

/* The kernel's may_update_sockmap, one statement for the analyzer and the interpreter
 * (ebpf_helper_sockmap_refused): a delete from the sockmap fd:5 (and a sock_ops program's update
 * of its own socket) in programs of each type.  The rule's answer is the verdict bpfscev must
 * give ("cannot update sockmap in this context" or safe), the kernel's verifier agrees, a
 * program allowed runs without a fault, and a refused one forged safe traps in the runs that
 * make the call (INTERP_TRAP_RULE: the interpreter ran such a call from any type before). */
static void test_sockmap_rule(bool kernel)
{
	static const char del[] = "*(u32 *)(r10 -4) = 0\nr2 = r10\nr2 += -4\n"
				  "r1 = map[fd:5] ll\ncall bpf_map_delete_elem\nr0 = 1\nexit\n";
	/* (bpf_sock_ops->sk: a full socket or NULL) */
	static const char upd[] = "r3 = *(u64 *)(r1 +184)\nif r3 == 0 goto out\n" KEY4
				  "r2 = r3\nr3 = *(u64 *)(r1 +184)\nr4 = 0\nr1 = map[fd:5] ll\n"
				  "call bpf_map_update_elem\nout: r0 = 1\nexit\n";
	static const struct {
		uint32_t type;
		bool update, refused;
	} progs[] = {
		{ BPF_PROG_TYPE_SOCKET_FILTER, false, false }, { BPF_PROG_TYPE_SCHED_CLS, false, false },
		{ BPF_PROG_TYPE_XDP, false, false }, { BPF_PROG_TYPE_SOCK_OPS, false, false },
		{ BPF_PROG_TYPE_SOCK_OPS, true, true }, { BPF_PROG_TYPE_CGROUP_SKB, false, true },
		{ BPF_PROG_TYPE_CGROUP_SOCK, false, true }, { KP, false, true },
		{ BPF_PROG_TYPE_RAW_TRACEPOINT, false, true },
	};

	/* (the attach type decides for tracing programs: an iterator may, fentry may not) */
	CHECK(!ebpf_helper_sockmap_refused(BPF_FUNC_map_update_elem, BPF_MAP_TYPE_SOCKHASH,
					   BPF_PROG_TYPE_TRACING, BPF_TRACE_ITER), "iter update");
	CHECK(ebpf_helper_sockmap_refused(BPF_FUNC_map_delete_elem, BPF_MAP_TYPE_SOCKMAP,
					  BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY), "fentry delete");
	CHECK(!ebpf_helper_sockmap_refused(BPF_FUNC_map_lookup_elem, BPF_MAP_TYPE_SOCKMAP,
					   BPF_PROG_TYPE_KPROBE, 0), "a lookup is not the rule's");
	CHECK(!ebpf_helper_sockmap_refused(BPF_FUNC_map_delete_elem, BPF_MAP_TYPE_HASH,
					   BPF_PROG_TYPE_KPROBE, 0), "a hash map is not the rule's");
	for (size_t k = 0; k < sizeof(progs) / sizeof(progs[0]); k++) {
		const char *why = ebpf_helper_sockmap_refused(
			progs[k].update ? BPF_FUNC_map_update_elem : BPF_FUNC_map_delete_elem,
			BPF_MAP_TYPE_SOCKMAP, progs[k].type, 0);
		struct verdict_opts vo = { .sz = sizeof(vo), .prog_type = progs[k].type,
					   .kernel = kernel };
		struct ebpf_object *obj;
		struct verdict_report r;
		char name[64];

		snprintf(name, sizeof(name), "sockmap %s, type %u", progs[k].update ? "update" :
			 "delete", progs[k].type);
		CHECK(!why == !progs[k].refused, "%s: the rule says %s", name, why ? why : "yes");
		if (!(obj = verdict_case_open(name, progs[k].update ? upd : del, maps,
					      sizeof(maps) / sizeof(maps[0]))))
			continue;
		verdict_case_judge(name, obj, &vo, why ? UNSAFE : SAFE,
				   why ? "cannot update sockmap in this context" : NULL, AGREE);
		if (why) {
			vo.kernel = false;
			vo.runs = 8;
			verdict_case_forge(name, obj, &vo, &r);
			/* (the update skipped where the context's socket is NULL) */
			CHECK(r.runs == 8 && r.faults > 0 &&
			      (progs[k].update || r.faults == r.runs) &&
			      strstr(r.fault, "cannot update sockmap in this context"),
			      "%s forged safe: %llu of %llu runs faulted (%s)", name,
			      (unsigned long long)r.faults, (unsigned long long)r.runs, r.fault);
		}
		verdict_case_close(obj);
	}
}

int main(void)
{
	bool kernel = verdict_case_kernel("the kernel's verdicts on the cases");

	test_cases(kernel);
	test_helper_kernel_lacks(kernel);
	test_forged();
	test_interp_draws();
	test_sockmap_rule(kernel);
	return check_done("test_helpers");
}
