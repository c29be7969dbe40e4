/* The check two tests make of an object bpfscev loads against the same object libbpf loads:
 * a program's instructions as bpfscev relocated them (CO-RE records) equal
 * libbpf's (bpf_program__insns after bpf_object__load), instruction by instruction. */
#ifndef BPFSCEV_TESTS_LIBBPF_INSNS_H
#define BPFSCEV_TESTS_LIBBPF_INSNS_H

#include <string.h>

#include <bpf/libbpf.h>

#include "bpf/prog.h"
#include "tests/check.h"

static inline void check_insns_as_libbpf(const struct ebpf_object *o, struct bpf_object *lo,
					 const char *name)
{
	struct bpf_program *lp = bpf_object__find_program_by_name(lo, name);
	const struct ebpf_prog *p = ebpf_object__find_prog(o, name);
	const struct bpf_insn *li;
	size_t n;

	CHECK(lp && p, "%s: missing (libbpf %p, ours %p)", name, (void *)lp, (const void *)p);
	if (!lp || !p)
		return;
	li = bpf_program__insns(lp);
	n = bpf_program__insn_cnt(lp);
	CHECK_EQ_U64(p->len, n, name);
	for (size_t k = 0; k < n && k < p->len; k++) {
		const struct bpf_insn *a = &p->insns[k], *b = &li[k];

		CHECK(!memcmp(a, b, sizeof(*a)), "%s insn %zu: %02x %u %u %d %d, libbpf %02x %u %u "
		      "%d %d", name, k, a->code, a->dst_reg, a->src_reg, a->off, a->imm, b->code,
		      b->dst_reg, b->src_reg, b->off, b->imm);
	}
}

#endif
