/* The check two tests make of an object bpfscev loads against the same object libbpf loads:
 * a program's instructions as bpfscev relocated them (CO-RE records) equal
 * libbpf's (bpf_program__insns after bpf_object__load), instruction by instruction; and the
 * two loads that give libbpf's relocations of every program, the kernel's refused one too. */
#ifndef BPFSCEV_TESTS_LIBBPF_INSNS_H
#define BPFSCEV_TESTS_LIBBPF_INSNS_H

#include <stdarg.h>
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

static inline int libbpf_insns_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* libbpf relocates at bpf_object__load: the object at path is loaded twice, first every program
 * but refused (which the kernel refuses) and skip (NULL: none; one whose relocation libbpf
 * poisons), then refused alone, a load that fails after relocation (the instructions are kept);
 * each of names[n] is compared with ours after the load that holds it.  Closing the object
 * unloads every program. */
static inline void check_relocations_as_libbpf(const struct ebpf_object *o, const char *path,
					       const char *const *names, size_t n,
					       const char *refused, const char *skip)
{
	libbpf_set_print(libbpf_insns_quiet);
	for (int round = 0; round < 2; round++) {
		struct bpf_object *lo = bpf_object__open_file(path, NULL);
		struct bpf_program *lp;
		int err;

		CHECK(lo && !libbpf_get_error(lo), "libbpf cannot open %s", path);
		if (!lo || libbpf_get_error(lo))
			return;
		bpf_object__for_each_program(lp, lo) {
			const char *p = bpf_program__name(lp);

			bpf_program__set_autoload(lp, round == 0 ? strcmp(p, refused) &&
								   (!skip || strcmp(p, skip))
								 : !strcmp(p, refused));
		}
		err = bpf_object__load(lo);
		CHECK(round == 0 ? err == 0 : err != 0, "round %d: libbpf load of %s: %d", round,
		      path, err);
		for (size_t k = 0; k < n; k++)
			if ((round == 1) == !strcmp(names[k], refused))
				check_insns_as_libbpf(o, lo, names[k]);
		bpf_object__close(lo);
	}
}

#endif
