/* Who may call each helper: the prototype table's program-type masks (bpf/helper_proto.c)
 * against the running kernel.  First, without the kernel: every id of the UAPI list
 * (__BPF_FUNC_MAPPER) has an entry in the table, in id order.  Then, for every helper and every
 * program type the kernel loads without an attach target (or with the attach types named
 * below: the type may call a helper when one of them may), `call N; r0 = 0; exit` is loaded
 * with that type: the kernel looks the helper up in the type's func_proto before it checks any
 * argument, so "program of this type cannot use helper" (or, for ids it does not know,
 * "unknown func"; or the checks right after the look-up that refuse a type whatever the
 * arguments: "not supported for program type", "not allowed in probe") means the type may not
 * call it and any other outcome (accepted, or rejected at an argument) means it may.  Every
 * disagreement is listed and fails the test: a helper the table refuses but the kernel allows
 * is a false alarm of `verify`, one the table allows but the kernel refuses a safe verdict the
 * kernel contradicts.  Helpers whose existence depends on the kernel's configuration
 * (HF_KCONFIG: verify answers unsupported) and ids this kernel does not know are listed, not
 * compared.  A pair the table allows and this kernel does not offer at all (libbpf's
 * libbpf_probe_bpf_helper, asked through kernel_helper_offered, the probe verdict_compare uses to
 * class such a refusal as no-load) is availability, listed and not compared; any other
 * disagreement — the probe saying it is offered, a refusal after the look-up, the kernel allowing
 * what the table refuses — fails.  Skips the kernel part where bpf() is refused. */
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
	const char *sec[3];	/* section names giving the expected attach types to try (NULL
				 * ends; none: one load without) */
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
	{ BPF_PROG_TYPE_CGROUP_SOCK_ADDR, "cgroup_sock_addr",
	  { "cgroup/connect4", "cgroup/bind4", "cgroup/getpeername4" } },
	{ BPF_PROG_TYPE_CGROUP_SOCKOPT, "cgroup_sockopt",
	  { "cgroup/getsockopt", "cgroup/setsockopt" } },
	{ BPF_PROG_TYPE_SK_LOOKUP, "sk_lookup", { "sk_lookup" } },
};
#define NTYPES (sizeof(types) / sizeof(types[0]))

/* 1: the kernel lets the type (with the attach type section sec names) call helper id, 0: it
 * refuses, 2: it does not know the id, -1: not asked (the load failed before the verifier
 * looked at the call). */
static int kernel_allows_one(uint32_t type, const char *sec, int32_t id)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_JMP | BPF_CALL, .imm = id },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct kernel_prog_opts ko = { .sz = sizeof(ko), .prog_type = sec ? 0 : type, .log_level = 1,
				       .log_size = 1 << 16,
				       .prog_flags = type == BPF_PROG_TYPE_SYSCALL ?
						     BPF_F_SLEEPABLE : 0 };
	struct ebpf_object *obj = NULL;
	struct kernel_prog *kp = NULL;
	struct diag d;
	int rc = -1;

	diag_clear(&d);
	if (ebpf_object__from_insns(&obj, insns, 3, "helper_type", &d))
		return -1;
	obj->progs[0].prog_type = type;
	if (sec)
		snprintf(obj->progs[0].section, sizeof(obj->progs[0].section), "%s", sec);
	if (!kernel_prog__load(&kp, obj, &obj->progs[0], &ko, &d)) {
		if (strstr(kp->log, "unknown func"))
			rc = 2;
		else if (strstr(kp->log, "cannot use helper") ||
		    strstr(kp->log, "not supported for program type") ||
		    strstr(kp->log, "is not allowed in probe"))
			rc = 0;
		else
			rc = kp->accepted || strstr(kp->log, "0: (85) call") ? 1 : -1;
	}
	kernel_prog__free(kp);
	ebpf_object__free(obj);
	return rc;
}

/* kernel_allows_one over the type's attach variants: 1 when one allows it, 0 when every asked
 * one refuses, 2 for an id the kernel does not know, -1 when none could be asked. */
static int kernel_allows(size_t t, int32_t id)
{
	int rc = -1;

	for (size_t a = 0; a < 3 && (a == 0 || types[t].sec[a]); a++) {
		int k = kernel_allows_one(types[t].type, types[t].sec[a], id);

		if (k == 1 || k == 2)
			return k;
		if (k == 0)
			rc = 0;
	}
	return rc;
}

/* Every id of the UAPI list has its entry, the entry's id is its own, and its argument list
 * is well formed (a size follows every memory argument, none follows anything else). */
static void check_table(void)
{
	unsigned n = 0;

	for (int32_t id = 1; id < __BPF_FUNC_MAX_ID; id++) {
		const struct ebpf_helper_proto *p = ebpf_helper_entry(id);
		const char *name = ebpf_helper_name(id);

		CHECK(p != NULL, "helper %s#%d of the UAPI list has no entry", name ? name : "?", id);
		if (!p)
			continue;
		n++;
		CHECK(p->id == id, "the entry of #%d is #%d's", id, p->id);
		for (int k = 0; k < 5; k++) {
			bool mem = p->args[k] == HARG_MEM || p->args[k] == HARG_MEM_OR_NULL ||
				   p->args[k] == HARG_MEM_RW || p->args[k] == HARG_MEM_UNINIT ||
				   p->args[k] == HARG_MEM_RW_OR_NULL;
			bool size = k < 4 && (p->args[k + 1] == HARG_SIZE ||
					      p->args[k + 1] == HARG_SIZE_OR_ZERO);

			CHECK(mem == size, "%s#%d: argument %d is %s, argument %d %s", name, id,
			      k + 1, ebpf_harg_name((enum ebpf_harg)p->args[k]), k + 2,
			      k < 4 ? ebpf_harg_name((enum ebpf_harg)p->args[k + 1]) : "-");
		}
		CHECK(!((p->args[0] == HARG_BTF_ID || p->ret == HRET_BTF_ID ||
			 p->ret == HRET_BTF_ID_OR_NULL) && !p->obj && p->id != BPF_FUNC_kptr_xchg),
		      "%s#%d: a kernel struct without its name", name, id);
	}
	CHECK(ebpf_helper_entry(0) == NULL && ebpf_helper_entry(__BPF_FUNC_MAX_ID) == NULL,
	      "entries past the UAPI list");
	printf("%u helpers of the UAPI list, every one with an entry\n", n);
}

/* The local storages (sk, inode, task, cgroup: map types 24, 28, 29, 32) go only with their own
 * helpers and kptr_xchg, and their helpers only with them (check_map_func_compatibility:
 * "cannot pass map_type 24 into func bpf_map_lookup_elem#1", verifier_sock.c's
 * map_lookup_elem_smap_key, which verify called safe before session 28). */
static void check_storage_maps(void)
{
	static const struct { uint32_t map; int32_t get, del; } st[] = {
		{ BPF_MAP_TYPE_SK_STORAGE, BPF_FUNC_sk_storage_get, BPF_FUNC_sk_storage_delete },
		{ BPF_MAP_TYPE_INODE_STORAGE, BPF_FUNC_inode_storage_get,
		  BPF_FUNC_inode_storage_delete },
		{ BPF_MAP_TYPE_TASK_STORAGE, BPF_FUNC_task_storage_get,
		  BPF_FUNC_task_storage_delete },
		{ 32, 210, 211 },	/* cgroup storage (Linux 6.2, past 6.1's uapi) */
	};
	static const int32_t plain[] = { BPF_FUNC_map_lookup_elem, BPF_FUNC_map_update_elem,
					 BPF_FUNC_map_delete_elem };

	for (size_t k = 0; k < sizeof(st) / sizeof(st[0]); k++) {
		for (size_t j = 0; j < sizeof(plain) / sizeof(plain[0]); j++)
			CHECK(ebpf_helper_map_compat(plain[j], st[k].map) != NULL,
			      "helper #%d takes a map of type %u", plain[j], st[k].map);
		CHECK(!ebpf_helper_map_compat(st[k].get, st[k].map) &&
		      !ebpf_helper_map_compat(st[k].del, st[k].map) &&
		      !ebpf_helper_map_compat(BPF_FUNC_kptr_xchg, st[k].map),
		      "map type %u refuses its own helpers", st[k].map);
		CHECK(ebpf_helper_map_compat(st[k].get, BPF_MAP_TYPE_HASH) != NULL &&
		      ebpf_helper_map_compat(st[k].del, BPF_MAP_TYPE_ARRAY) != NULL &&
		      ebpf_helper_map_compat(st[k].get, st[(k + 1) % 4].map) != NULL,
		      "helper #%d takes a map that is not its storage", st[k].get);
	}
}

int main(void)
{
	char why[256];
	unsigned asked = 0, not_asked = 0, wrong = 0, unoffered = 0;

	check_table();
	check_storage_maps();
	if (!kernel_available(why, sizeof(why)))
		return check_skip("test_helper_types", "%s", why);
	for (int32_t id = 1; id < __BPF_FUNC_MAX_ID; id++) {
		const struct ebpf_helper_proto *p = ebpf_helper_entry(id);
		const char *name = ebpf_helper_name(id);

		if (!p)
			continue;
		if (kernel_allows(0, id) == 2) {
			printf("%s#%d: this kernel does not know it (skipped)\n", name, id);
			continue;
		}
		if (p->flags & HF_KCONFIG) {
			printf("%s#%d: offered by the kernel's configuration (not compared):", name,
			       id);
			for (size_t t = 0; t < NTYPES; t++)
				if (kernel_allows(t, id) == 1)
					printf(" %s", types[t].name);
			printf("\n");
			continue;
		}
		for (size_t t = 0; t < NTYPES; t++) {
			int k = kernel_allows(t, id);
			bool ours = (p->types >> types[t].type) & 1;

			if (k < 0) {
				not_asked++;
				continue;
			}
			asked++;
			if (k == (int)ours)
				continue;
			/* the table allows it, this kernel does not offer it: availability,
			 * when the kernel's own probe (the one verdict_compare asks) says so */
			if (ours && types[t].sec[0] == NULL &&
			    kernel_helper_offered(types[t].type, id) == 0) {
				unoffered++;
				printf("%s#%d %s: this kernel does not offer it (libbpf's probe), the "
				       "table does (availability: not compared)\n", name ? name : "?",
				       id, types[t].name);
				continue;
			}
			wrong++;
			printf("%s#%d %s: the kernel %s, the table %s\n", name ? name : "?", id,
			       types[t].name, k ? "allows it" : "refuses it",
			       ours ? "allows it" : "refuses it");
		}
	}
	printf("%u helper/type pairs asked, %u not asked (the load failed first), %u not offered "
	       "by this kernel, %u disagree\n", asked, not_asked, unoffered, wrong);
	CHECK(asked > 0, "no pair could be asked");
	CHECK(wrong == 0, "%u helper/type pairs disagree with the kernel (listed above)", wrong);
	return check_done("test_helper_types");
}
