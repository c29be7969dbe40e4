/* Who may call each helper: the prototype table's program-type masks (bpf/helper_proto.c)
 * against the running kernel.  For every helper the table models and every program type the
 * kernel loads without an attach target, `call N; r0 = 0; exit` is loaded with that type: the
 * kernel looks the helper up in the type's func_proto before it checks any argument, so "program
 * of this type cannot use helper" (or, for ids it does not know, "unknown func") means the type
 * may not call it and any other outcome (accepted, or rejected at an
 * argument) means it may.  Every disagreement is listed and fails the test: a helper the table
 * refuses but the kernel allows is a false alarm of `verify`, one the table allows but the
 * kernel refuses a safe verdict the kernel contradicts.  Skips where bpf() is refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "bpf/helper_proto.h"
#include "bpf/isa.h"
#include "bpf/prog.h"
#include "oracle/kernel/kernel.h"
#include "tests/check.h"

#ifndef BPF_F_SLEEPABLE
#define BPF_F_SLEEPABLE (1U << 4)
#endif

static const struct {
	uint32_t type;
	const char *name;
} types[] = {
	{ BPF_PROG_TYPE_SOCKET_FILTER, "socket_filter" },
	{ BPF_PROG_TYPE_KPROBE, "kprobe" },
	{ BPF_PROG_TYPE_SCHED_CLS, "sched_cls" },
	{ BPF_PROG_TYPE_SCHED_ACT, "sched_act" },
	{ BPF_PROG_TYPE_TRACEPOINT, "tracepoint" },
	{ BPF_PROG_TYPE_XDP, "xdp" },
	{ BPF_PROG_TYPE_PERF_EVENT, "perf_event" },
	{ BPF_PROG_TYPE_CGROUP_SKB, "cgroup_skb" },
	{ BPF_PROG_TYPE_CGROUP_SOCK, "cgroup_sock" },
	{ BPF_PROG_TYPE_LWT_IN, "lwt_in" },
	{ BPF_PROG_TYPE_LWT_OUT, "lwt_out" },
	{ BPF_PROG_TYPE_LWT_XMIT, "lwt_xmit" },
	{ BPF_PROG_TYPE_SOCK_OPS, "sock_ops" },
	{ BPF_PROG_TYPE_SK_SKB, "sk_skb" },
	{ BPF_PROG_TYPE_CGROUP_DEVICE, "cgroup_device" },
	{ BPF_PROG_TYPE_SK_MSG, "sk_msg" },
	{ BPF_PROG_TYPE_RAW_TRACEPOINT, "raw_tracepoint" },
	{ BPF_PROG_TYPE_LWT_SEG6LOCAL, "lwt_seg6local" },
	{ BPF_PROG_TYPE_SK_REUSEPORT, "sk_reuseport" },
	{ BPF_PROG_TYPE_FLOW_DISSECTOR, "flow_dissector" },
	{ BPF_PROG_TYPE_CGROUP_SYSCTL, "cgroup_sysctl" },
	{ BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, "raw_tracepoint_writable" },
	{ BPF_PROG_TYPE_SYSCALL, "syscall" },
};
#define NTYPES (sizeof(types) / sizeof(types[0]))

/* 1: the kernel lets the type call helper id, 0: it refuses, -1: not asked (the load failed
 * before the verifier looked at the call). */
static int kernel_allows(uint32_t type, int32_t id)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_JMP | BPF_CALL, .imm = id },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct kernel_prog_opts ko = { .sz = sizeof(ko), .prog_type = type, .log_level = 1,
				       .prog_flags = type == BPF_PROG_TYPE_SYSCALL ?
						     BPF_F_SLEEPABLE : 0 };
	struct ebpf_object *obj = NULL;
	struct kernel_prog *kp = NULL;
	struct diag d;
	int rc = -1;

	diag_clear(&d);
	if (ebpf_object__from_insns(&obj, insns, 3, "helper_type", &d))
		return -1;
	if (!kernel_prog__load(&kp, obj, &obj->progs[0], &ko, &d)) {
		if (strstr(kp->log, "cannot use helper") || strstr(kp->log, "unknown func"))
			rc = 0;
		else
			rc = kp->accepted || strstr(kp->log, "0: (85) call") ? 1 : -1;
	}
	kernel_prog__free(kp);
	ebpf_object__free(obj);
	return rc;
}

int main(void)
{
	char why[256];
	unsigned asked = 0, not_asked = 0, wrong = 0;

	if (!kernel_available(why, sizeof(why)))
		return check_skip("test_helper_types", "%s", why);
	for (int32_t id = 1; id < 256; id++) {
		const struct ebpf_helper_proto *p = ebpf_helper_proto(id);
		const char *name = ebpf_helper_name(id);

		if (!p)
			continue;
		for (size_t t = 0; t < NTYPES; t++) {
			int k = kernel_allows(types[t].type, id);
			bool ours = (p->types >> types[t].type) & 1;

			if (k < 0) {
				not_asked++;
				continue;
			}
			asked++;
			if (k == (int)ours)
				continue;
			wrong++;
			printf("%s#%d %s: the kernel %s, the table %s\n", name ? name : "?", id,
			       types[t].name, k ? "allows it" : "refuses it",
			       ours ? "allows it" : "refuses it");
		}
	}
	printf("%u helper/type pairs asked, %u not asked (the load failed first), %u disagree\n",
	       asked, not_asked, wrong);
	CHECK(asked > 0, "no pair could be asked");
	CHECK(wrong == 0, "%u helper/type pairs disagree with the kernel (listed above)", wrong);
	return check_done("test_helper_types");
}
