/* Program types for ELF programs whose section names none, decided the way their loaders decide
 * them.  libbpf's section names and the legacy prefixes (elf.c) come first; a program they leave
 * untyped was written for a loader that takes the type from elsewhere: iproute2 (`tc ... bpf obj
 * F sec S` loads every program of F as sched_cls, `ip link ... xdp obj F` as XDP, and tail-call
 * slots "ID/KEY" get the type of the program that owns the slot), Suricata (util-ebpf.c:
 * bpf_program__set_socket_filter unless the XDP option is given), OVS's datapath (tc, and its
 * "af_xdp" program XDP), or a test script.  The type is decided from, in order:
 *
 *   helpers  the program calls a helper only one type class may call (bpf_xdp_adjust_head: XDP;
 *            bpf_skb_vlan_push: tc), or LD_ABS/LD_IND (socket filter or tc) together with such
 *            a helper: the kernel would refuse it with any other type;
 *   object   iproute2 loads an object's programs with one type: another program of the object
 *            has unique helper evidence and nothing in this one contradicts it;
 *   loader   the section is one a known loader names (table below, each with its source) and
 *            the program's helpers allow that type;
 *   slot     an iproute2 tail-call slot "ID/KEY" takes the object's entry type (the programs
 *            decided above, when they agree).
 *
 * Anything else stays BPF_PROG_TYPE_UNSPEC with the reason in ebpf_prog.type_from ("none: ...").
 * Which type was decided does not bear on soundness — every verdict is for the program as that
 * type, and `verify --kernel` loads it with the same type — only on whether the verdict is the
 * one its users care about.  sched_act is never chosen: its verifier rules are sched_cls's.
 */
#include "bpf/prog.h"

#include <bpf/libbpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/helper_proto.h"
#include "bpf/isa.h"

/* The types decided between: those whose programs get a modeled context or that a helper may
 * single out.  Tracing types are not here: nothing in a program tells kprobe from tracepoint. */
#define PT_CANDIDATES (HPT(BPF_PROG_TYPE_SOCKET_FILTER) | HPT(BPF_PROG_TYPE_SCHED_CLS) |       \
		       HPT(BPF_PROG_TYPE_XDP) | HPT(BPF_PROG_TYPE_LWT_IN) |                    \
		       HPT(BPF_PROG_TYPE_LWT_OUT) | HPT(BPF_PROG_TYPE_LWT_XMIT) |              \
		       HPT(BPF_PROG_TYPE_CGROUP_SKB) | HPT(BPF_PROG_TYPE_SK_SKB))

/* Sections known loaders give a type; "*" at the end matches any rest. */
static const struct {
	const char *sec;
	enum bpf_prog_type type;
	const char *loader;
	bool iproute2;		/* loaded by iproute2 with the object's one type: the object rule
				 * may override the type named here */
} loaders[] = {
	/* Cilium's datapath (bpf_lxc.c, bpf_netdev.c, bpf_overlay.c, bpf_lb.c): attached by
	 * tc (iproute2, later Cilium's own loader with the same types); bpf_xdp.c's programs are
	 * told apart by their helpers (object rule). */
	{ "from-*", BPF_PROG_TYPE_SCHED_CLS, "Cilium (tc)", true },
	{ "to-*", BPF_PROG_TYPE_SCHED_CLS, "Cilium (tc)", true },
	/* OVS's eBPF datapath (bpf/datapath.c): tc ingress/egress, its tail calls and the
	 * downcall program; the AF_XDP program is XDP. */
	{ "tail-*", BPF_PROG_TYPE_SCHED_CLS, "OVS datapath (tc)" },
	{ "ingress", BPF_PROG_TYPE_SCHED_CLS, "OVS datapath (tc)" },
	{ "egress", BPF_PROG_TYPE_SCHED_CLS, "OVS datapath (tc)" },
	{ "downcall", BPF_PROG_TYPE_SCHED_CLS, "OVS datapath (tc)" },
	{ "af_xdp", BPF_PROG_TYPE_XDP, "OVS datapath (XDP)" },
	/* Suricata's af-packet filters and its load balancer (PACKET_FANOUT_EBPF takes socket
	 * filters): util-ebpf.c sets socket filter for every program not loaded as XDP. */
	{ "filter", BPF_PROG_TYPE_SOCKET_FILTER, "Suricata (socket filter)" },
	{ "loadbalancer", BPF_PROG_TYPE_SOCKET_FILTER, "Suricata (socket filter)" },
	/* samples/bpf test_cgrp2_tc.sh: tc filter ... bpf obj test_cgrp2_tc_kern.o sec filter
	 * (its bpf_skb_under_cgroup rules out a socket filter, not lwt: the next entry of a
	 * section is tried when the helpers forbid the type of one) */
	{ "filter", BPF_PROG_TYPE_SCHED_CLS, "samples/bpf test_cgrp2_tc.sh (tc)" },
	/* Linux samples/bpf, loaded by their scripts: tc_l2_redirect.sh and test_cls_bpf.sh
	 * (tc filter ... bpf obj), lwt_len_hist.sh (ip route ... encap bpf out). */
	{ "l2_to_iptun_ingress_forward", BPF_PROG_TYPE_SCHED_CLS, "samples/bpf tc_l2_redirect.sh (tc)" },
	{ "l2_to_iptun_ingress_redirect", BPF_PROG_TYPE_SCHED_CLS, "samples/bpf tc_l2_redirect.sh (tc)" },
	{ "l2_to_ip6tun_ingress_redirect", BPF_PROG_TYPE_SCHED_CLS, "samples/bpf tc_l2_redirect.sh (tc)" },
	{ "drop_non_tun_vip", BPF_PROG_TYPE_SCHED_CLS, "samples/bpf tc_l2_redirect.sh (tc)" },
	{ "redirect_xmit", BPF_PROG_TYPE_SCHED_CLS, "samples/bpf tcbpf1 (tc)" },
	{ "redirect_recv", BPF_PROG_TYPE_SCHED_CLS, "samples/bpf tcbpf1 (tc)" },
	{ "clone_redirect_xmit", BPF_PROG_TYPE_SCHED_CLS, "samples/bpf tcbpf1 (tc)" },
	{ "clone_redirect_recv", BPF_PROG_TYPE_SCHED_CLS, "samples/bpf tcbpf1 (tc)" },
	{ "len_hist", BPF_PROG_TYPE_LWT_OUT, "samples/bpf lwt_len_hist.sh (lwt out)" },
	/* prototype-kernel tc_bench01_redirect: tc filter ... bpf obj ... sec ingress_redirect */
	{ "ingress_redirect", BPF_PROG_TYPE_SCHED_CLS, "prototype-kernel tc_bench01 (tc)" },
};

static bool sec_matches(const char *pattern, const char *sec)
{
	size_t n = strlen(pattern);

	if (n && pattern[n - 1] == '*')
		return !strncmp(pattern, sec, n - 1);
	return !strcmp(pattern, sec);
}

/* iproute2's tail-call slot sections: "ID/KEY", both numbers (KEY may be hex). */
static bool is_tail_slot(const char *sec)
{
	const char *s = sec;

	if (*s < '0' || *s > '9')
		return false;
	while (*s >= '0' && *s <= '9')
		s++;
	if (*s++ != '/' || !*s)
		return false;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2])
		s += 2;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') ||
		      (*s >= 'A' && *s <= 'F')))
			return false;
	return true;
}

struct evidence {
	uint64_t mask;		/* candidate types the program's helpers allow */
	char what[48];		/* the last helper that narrowed it, for the reason */
};

static void gather(struct evidence *e, const struct ebpf_prog *p)
{
	e->mask = PT_CANDIDATES;
	e->what[0] = '\0';
	for (size_t i = 0; i < p->len; i++) {
		const struct bpf_insn *in = &p->insns[i];
		uint64_t before = e->mask;

		if (in->code == (BPF_JMP | BPF_CALL) && in->src_reg == 0) {
			const struct ebpf_helper_proto *h = ebpf_helper_entry(in->imm);

			if (!h)
				continue;
			e->mask &= h->types | HPT(BPF_PROG_TYPE_SCHED_ACT);
			if (e->mask != before)
				snprintf(e->what, sizeof(e->what), "%s", ebpf_helper_name(in->imm));
		} else if (BPF_CLASS(in->code) == BPF_LD &&
			   (BPF_MODE(in->code) == BPF_ABS || BPF_MODE(in->code) == BPF_IND)) {
			/* the kernel's may_access_skb() */
			e->mask &= HPT(BPF_PROG_TYPE_SOCKET_FILTER) | HPT_TC;
			if (e->mask != before)
				snprintf(e->what, sizeof(e->what), "LD_ABS/LD_IND");
		} else if (in->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			i++;
		}
	}
	e->mask &= PT_CANDIDATES;
}

/* The one type the mask allows, or BPF_PROG_TYPE_UNSPEC. */
static uint32_t only_type(uint64_t mask)
{
	return mask && !(mask & (mask - 1)) ? (uint32_t)__builtin_ctzll(mask) : 0;
}

static void list_types(char *out, size_t n, uint64_t mask)
{
	size_t len = 0;

	out[0] = '\0';
	for (uint32_t t = 0; t < 64 && len < n; t++) {
		const char *name;

		if (!(mask & HPT(t)) || !(name = libbpf_bpf_prog_type_str(t)))
			continue;
		len += (size_t)snprintf(out + len, n - len, "%s%s", len ? ", " : "", name);
	}
}

static void decide(struct ebpf_prog *p, uint32_t type, const char *fmt, const char *arg)
{
	p->prog_type = type;
	snprintf(p->type_from, sizeof(p->type_from), fmt, arg);
}

void ebpf_object__decide_types(struct ebpf_object *obj)
{
	struct evidence *ev = calloc(obj->prog_cnt ? obj->prog_cnt : 1, sizeof(*ev));
	uint64_t obj_mask = PT_CANDIDATES;
	uint32_t obj_type, entry_type = 0;
	bool entries_agree = true;
	size_t n = obj->prog_cnt;

	if (!ev)
		return;		/* out of memory: the programs stay untyped */

	for (size_t i = 0; i < n; i++) {
		struct ebpf_prog *p = &obj->progs[i];

		if (p->prog_type)
			continue;
		gather(&ev[i], p);
		obj_mask &= ev[i].mask;
		if (only_type(ev[i].mask))
			decide(p, only_type(ev[i].mask), "helpers: with %s its calls allow one type",
			       ev[i].what);
	}
	/* object: an untyped object's programs share one type (iproute2) */
	obj_type = only_type(obj_mask);
	for (size_t i = 0; i < n; i++) {
		struct ebpf_prog *p = &obj->progs[i];

		if (p->prog_type)
			continue;
		if (obj_type && is_tail_slot(p->section)) {
			decide(p, obj_type, "object: the helpers of the object's untyped programs "
			       "allow only %s", libbpf_bpf_prog_type_str(obj_type));
			continue;
		}
		if (is_tail_slot(p->section) || !p->section[0])
			continue;
		for (size_t k = 0; k < sizeof(loaders) / sizeof(loaders[0]); k++) {
			if (!sec_matches(loaders[k].sec, p->section))
				continue;
			if (ev[i].mask & HPT(loaders[k].type)) {
				uint32_t t = loaders[k].iproute2 && obj_type &&
							     (ev[i].mask & HPT(obj_type)) ?
						     obj_type : loaders[k].type;

				decide(p, t, "loader: %s", t == loaders[k].type ? loaders[k].loader :
				       "iproute2 (one type per object)");
				break;
			}
		}
	}
	/* slot: tail-call slots take the type of the object's decided programs */
	for (size_t i = 0; i < n; i++) {
		const struct ebpf_prog *p = &obj->progs[i];

		if (!p->prog_type || is_tail_slot(p->section) || !strncmp(p->type_from, "section", 7))
			continue;
		if (entry_type && entry_type != p->prog_type)
			entries_agree = false;
		entry_type = p->prog_type;
	}
	for (size_t i = 0; i < n; i++) {
		struct ebpf_prog *p = &obj->progs[i];
		char types[128];

		if (p->prog_type)
			continue;
		if (is_tail_slot(p->section) && entry_type && entries_agree &&
		    (ev[i].mask & HPT(entry_type))) {
			decide(p, entry_type, "slot: iproute2 tail-call slot of the object's %s "
			       "programs", libbpf_bpf_prog_type_str(entry_type));
			continue;
		}
		list_types(types, sizeof(types), ev[i].mask);
		if (!ev[i].mask)
			decide(p, 0, "none: %s", "its helpers allow no single type");
		else if (ev[i].mask == PT_CANDIDATES)
			decide(p, 0, "none: %s", "nothing in the program or its section names a type");
		else
			decide(p, 0, "none: its helpers allow %s", types);
	}
	free(ev);
}
