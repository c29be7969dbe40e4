/* Program types for untyped sections (bpf/progtype.c): each rule on small objects built here,
 * then, when the samples are present, that every program of the loaders' objects (Cilium, OVS,
 * Suricata, the Linux and prototype-kernel tc/lwt samples) gets a type and says how.  Whether
 * the kernel agrees with each decided type is measured by `bpfscev verify --kernel` over the
 * samples (docs/BENCHMARKS.md), which loads every program with the type decided here. */
#include <bpf/libbpf.h>
#include <dirent.h>
#include <string.h>

#include "bpf/prog.h"
#include "check.h"

#define CALL(id) { .code = BPF_JMP | BPF_CALL, .imm = (id) }
#define EXIT { .code = BPF_JMP | BPF_EXIT }
#define LDABS { .code = BPF_LD | BPF_ABS | BPF_B, .imm = 12 }

static const struct bpf_insn nothing[] = { EXIT };
static const struct bpf_insn xdp_only[] = { CALL(BPF_FUNC_xdp_adjust_head), EXIT };
static const struct bpf_insn xdp_meta[] = { CALL(BPF_FUNC_xdp_adjust_meta), EXIT };
static const struct bpf_insn tc_only[] = { CALL(BPF_FUNC_skb_vlan_push), EXIT };
static const struct bpf_insn tc_or_lwt[] = { CALL(BPF_FUNC_clone_redirect), EXIT };
static const struct bpf_insn under_cgroup[] = { CALL(BPF_FUNC_skb_under_cgroup), EXIT };
static const struct bpf_insn ldabs_xdp[] = { LDABS, CALL(BPF_FUNC_xdp_adjust_head), EXIT };
static const struct bpf_insn ldabs[] = { LDABS, EXIT };

struct p {
	const char *section;
	const struct bpf_insn *insns;
	size_t len;
	uint32_t type;		/* already decided by the section, else 0 */
};
#define P(sec, i) { sec, i, sizeof(i) / sizeof(i[0]), 0 }

/* Decides the types of an object of these programs; returns it in progs[]. */
static void decide(struct ebpf_prog *progs, const struct p *ps, size_t n)
{
	struct ebpf_object obj = { .progs = progs, .prog_cnt = n };

	for (size_t i = 0; i < n; i++) {
		memset(&progs[i], 0, sizeof(progs[i]));
		snprintf(progs[i].name, sizeof(progs[i].name), "p%zu", i);
		snprintf(progs[i].section, sizeof(progs[i].section), "%s", ps[i].section);
		progs[i].insns = (struct bpf_insn *)ps[i].insns;
		progs[i].len = ps[i].len;
		progs[i].prog_type = ps[i].type;
		if (ps[i].type)
			snprintf(progs[i].type_from, sizeof(progs[i].type_from), "section");
	}
	ebpf_object__decide_types(&obj);
}

static void expect(const struct ebpf_prog *p, uint32_t type, const char *from)
{
	CHECK(p->prog_type == type, "section '%s': type %u (%s), expected %u", p->section,
	      p->prog_type, p->type_from, type);
	CHECK(!strncmp(p->type_from, from, strlen(from)), "section '%s': decided by '%s', "
	      "expected '%s...'", p->section, p->type_from, from);
}

static void test_rules(void)
{
	struct ebpf_prog g[4];

	/* helpers: one call no other type may make decides, whatever the section */
	decide(g, (struct p[]){ P("whatever", xdp_only), P("other", tc_only) }, 2);
	expect(&g[0], BPF_PROG_TYPE_XDP, "helpers");
	expect(&g[1], BPF_PROG_TYPE_SCHED_CLS, "helpers");
	/* LD_ABS and an XDP helper: no type allows both */
	decide(g, (struct p[]){ P("x", ldabs_xdp) }, 1);
	expect(&g[0], 0, "none: its helpers allow no single type");
	/* LD_ABS alone: socket filter or tc, undecided without a loader */
	decide(g, (struct p[]){ P("x", ldabs) }, 1);
	expect(&g[0], 0, "none: its helpers allow socket_filter, sched_cls");
	decide(g, (struct p[]){ P("x", nothing) }, 1);
	expect(&g[0], 0, "none: nothing");
	/* Suricata's "filter": socket filter, unless its helpers forbid one: then samples/bpf's
	 * test_cgrp2_tc, which uses the same section name for tc (bpf_skb_under_cgroup alone
	 * allows tc and the lwt types, so the helpers cannot decide) */
	decide(g, (struct p[]){ P("filter", ldabs) }, 1);
	expect(&g[0], BPF_PROG_TYPE_SOCKET_FILTER, "loader: Suricata");
	decide(g, (struct p[]){ P("filter", under_cgroup) }, 1);
	expect(&g[0], BPF_PROG_TYPE_SCHED_CLS, "loader: samples/bpf test_cgrp2_tc");
	/* a loader's type the helpers forbid is not taken */
	decide(g, (struct p[]){ P("loadbalancer", xdp_only), P("tail-1", xdp_only) }, 2);
	expect(&g[0], BPF_PROG_TYPE_XDP, "helpers");
	expect(&g[1], BPF_PROG_TYPE_XDP, "helpers");
	/* Cilium: entry and tail-call slots share the object's type; tc by default ... */
	decide(g, (struct p[]){ P("from-netdev", nothing), P("2/1", nothing), P("2/7", tc_or_lwt),
				P("1/0x1010", nothing) }, 4);
	expect(&g[0], BPF_PROG_TYPE_SCHED_CLS, "loader: Cilium");
	expect(&g[1], BPF_PROG_TYPE_SCHED_CLS, "slot");
	expect(&g[2], BPF_PROG_TYPE_SCHED_CLS, "slot");
	expect(&g[3], BPF_PROG_TYPE_SCHED_CLS, "slot");
	/* ... XDP when a program of the object calls an XDP-only helper (bpf_xdp.c's) */
	decide(g, (struct p[]){ P("from-netdev", nothing), P("2/1", nothing), P("2/7", xdp_meta) },
	       3);
	expect(&g[0], BPF_PROG_TYPE_XDP, "loader: iproute2");
	expect(&g[1], BPF_PROG_TYPE_XDP, "object");
	expect(&g[2], BPF_PROG_TYPE_XDP, "helpers");
	/* OVS: af_xdp is XDP beside tc programs, a libbpf-typed program does not vote */
	decide(g, (struct p[]){ P("tail-3", tc_only), P("af_xdp", nothing), P("ingress", nothing),
				{ "xdp", nothing, 1, BPF_PROG_TYPE_XDP } }, 4);
	expect(&g[0], BPF_PROG_TYPE_SCHED_CLS, "helpers");
	expect(&g[1], BPF_PROG_TYPE_XDP, "loader: OVS");
	expect(&g[2], BPF_PROG_TYPE_SCHED_CLS, "loader: OVS");
	expect(&g[3], BPF_PROG_TYPE_XDP, "section");
	/* slots whose entries disagree stay undecided */
	decide(g, (struct p[]){ P("af_xdp", nothing), P("ingress", nothing), P("3/4", nothing) }, 3);
	expect(&g[2], 0, "none");
	/* not a slot: a name with a slash that is not ID/KEY */
	decide(g, (struct p[]){ P("from-x", nothing), P("2/x", nothing), P("/1", nothing) }, 3);
	expect(&g[1], 0, "none");
	expect(&g[2], 0, "none");
}

/* Every program of the loaders' objects in the samples gets a type. */
static void test_samples(const char *dir)
{
	static const char *const subdirs[] = { "cilium", "ovs", "suricata", "linux",
					       "prototype-kernel", "new_linux" };
	size_t progs = 0;

	for (size_t s = 0; s < sizeof(subdirs) / sizeof(subdirs[0]); s++) {
		char path[4096];
		DIR *d;
		struct dirent *e;

		snprintf(path, sizeof(path), "%s/%s", dir, subdirs[s]);
		if (!(d = opendir(path)))
			continue;
		while ((e = readdir(d))) {
			struct ebpf_object *obj = NULL;
			struct diag dg;
			size_t l = strlen(e->d_name);

			if (l < 3 || strcmp(e->d_name + l - 2, ".o"))
				continue;
			snprintf(path, sizeof(path), "%s/%s/%s", dir, subdirs[s], e->d_name);
			diag_clear(&dg);
			if (ebpf_object__open_file(&obj, path, &dg))
				continue;
			for (size_t i = 0; i < obj->prog_cnt; i++, progs++)
				CHECK(obj->progs[i].prog_type && obj->progs[i].type_from[0],
				      "%s %s (section '%s'): no type: %s", path,
				      obj->progs[i].name, obj->progs[i].section,
				      obj->progs[i].type_from);
			ebpf_object__free(obj);
		}
		closedir(d);
	}
	if (!progs)
		check_skip_part("the ebpf-samples objects");
}

int main(void)
{
	const char *dir = getenv("BPFSCEV_SAMPLES_DIR");

	test_rules();
	if (dir)
		test_samples(dir);
	else
		check_skip_part("the ebpf-samples objects (BPFSCEV_SAMPLES_DIR is not set)");
	return check_done("test_progtype");
}
