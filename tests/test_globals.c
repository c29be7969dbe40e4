/* Global data (tests/bpf/globals.c): .data, .bss, .rodata, a custom .data.* section and string
 * literals as the one-entry array maps libbpf makes of them, judged against libbpf itself and
 * the kernel:
 *   - the maps: one per section, value size = section size, .rodata read-only
 *     (BPF_F_RDONLY_PROG), initial contents — against libbpf's bpf_map__* of the same object;
 *   - the instructions: the program libbpf loads (bpf_object__load, then bpf_program__insns)
 *     equals ours instruction by instruction, each map reference naming the same section's map
 *     and the same offset;
 *   - the .kconfig externs: libbpf's layout and values of its .kconfig map, once loaded;
 *   - the verdicts: reading globals is safe, a store into .rodata or .kconfig and a .bss index
 *     past the end are unsafe, and the kernel agrees on each; a safe verdict forged for the .rodata store
 *     faults in the interpreter.
 * Environment: BPFSCEV_TEST_BPF_DIR (the clang-built objects; skips without them).
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/prog.h"
#include "oracle/kernel/kernel.h"
#include "tests/check.h"
#include "triage/verdict.h"

static const char *const data_secs[] = { ".data", ".bss", ".rodata", ".data.custom",
					  ".rodata.str1.1" };

static long our_map(const struct ebpf_object *o, const char *name)
{
	for (size_t i = 0; i < o->map_cnt; i++)
		if (!strcmp(o->maps[i].name, name))
			return (long)i;
	return -1;
}

/* libbpf names a data map after the object and its section ("globals.rodata") or, for custom
 * sections, after the section alone (".data.custom"): the section ends the name. */
static struct bpf_map *libbpf_map(struct bpf_object *lo, const char *sec)
{
	struct bpf_map *m;

	bpf_object__for_each_map(m, lo) {
		const char *n = bpf_map__name(m);
		size_t ln = strlen(n), ls = strlen(sec);

		if (ln >= ls && !strcmp(n + ln - ls, sec))
			return m;
	}
	return NULL;
}

static void test_maps(const struct ebpf_object *o, struct bpf_object *lo)
{
	for (size_t k = 0; k < sizeof(data_secs) / sizeof(data_secs[0]); k++) {
		long i = our_map(o, data_secs[k]);
		struct bpf_map *m = libbpf_map(lo, data_secs[k]);
		const void *init;
		size_t sz = 0;

		CHECK(i >= 0, "%s: no map", data_secs[k]);
		CHECK(m != NULL, "%s: libbpf has no map for it", data_secs[k]);
		if (i < 0 || !m)
			continue;
		CHECK_EQ_U64(o->maps[i].type, bpf_map__type(m), data_secs[k]);
		CHECK_EQ_U64(o->maps[i].value_size, bpf_map__value_size(m), data_secs[k]);
		CHECK_EQ_U64(o->maps[i].max_entries, bpf_map__max_entries(m), data_secs[k]);
		CHECK_EQ_U64(o->maps[i].flags & BPF_F_RDONLY_PROG,
			     bpf_map__map_flags(m) & BPF_F_RDONLY_PROG, data_secs[k]);
		init = bpf_map__initial_value(m, &sz);
		CHECK(init && sz == o->maps[i].value_size, "%s: libbpf's initial value (%zu bytes)",
		      data_secs[k], sz);
		if (init && sz == o->maps[i].value_size) {
			static const uint8_t zero[64];

			CHECK(!memcmp(o->maps[i].init ? o->maps[i].init : zero, init, sz),
			      "%s: initial contents differ from libbpf's", data_secs[k]);
		}
	}
}

/* The .kconfig map against libbpf's once it has loaded the object (it fills the map then, from
 * the same configuration): layout, flags and the values of each extern. */
static void test_kconfig(const struct ebpf_object *o, struct bpf_object *lo)
{
	long i = our_map(o, ".kconfig");
	struct bpf_map *m = libbpf_map(lo, ".kconfig");
	const uint8_t *val;
	size_t sz = 0;
	char buf[64];

	CHECK(i >= 0 && m, ".kconfig: ours %ld, libbpf's %p", i, (void *)m);
	if (i < 0 || !m)
		return;
	CHECK_EQ_U64(o->maps[i].value_size, bpf_map__value_size(m), ".kconfig");
	CHECK_EQ_U64(o->maps[i].flags & BPF_F_RDONLY_PROG, BPF_F_RDONLY_PROG, ".kconfig");
	CHECK_EQ_U64(bpf_map__map_flags(m) & BPF_F_RDONLY_PROG, BPF_F_RDONLY_PROG, ".kconfig");
	val = bpf_map__initial_value(m, &sz);
	CHECK(val && sz == o->maps[i].value_size && o->maps[i].init &&
	      !memcmp(val, o->maps[i].init, sz), ".kconfig: values differ from libbpf's");
	for (size_t k = 0; val && o->maps[i].init && k < sz && k < o->maps[i].value_size; k++)
		CHECK(val[k] == o->maps[i].init[k], ".kconfig byte %zu: %02x, libbpf %02x", k,
		      o->maps[i].init[k], val[k]);
	/* and they are the configuration's: CONFIG_HZ, where the kernel has one */
	if (ebpf_kconfig_value("CONFIG_HZ", buf, sizeof(buf)) && o->maps[i].init) {
		uint32_t hz = (uint32_t)strtoul(buf, NULL, 0);
		bool found = false;

		for (size_t k = 0; k + 4 <= o->maps[i].value_size; k += 4)
			found |= !memcmp(o->maps[i].init + k, &hz, 4);
		CHECK(found, ".kconfig: CONFIG_HZ=%u is not in the map", hz);
	}
}

/* The program libbpf loads against ours, instruction by instruction. */
static void test_insns(const struct ebpf_object *o, struct bpf_object *lo, const char *name)
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

		CHECK(a->code == b->code && a->dst_reg == b->dst_reg && a->src_reg == b->src_reg &&
		      a->off == b->off, "%s insn %zu: %02x %u %u %d, libbpf %02x %u %u %d", name, k,
		      a->code, a->dst_reg, a->src_reg, a->off, b->code, b->dst_reg, b->src_reg,
		      b->off);
		if (a->code == (BPF_LD | BPF_IMM | BPF_DW) &&
		    (a->src_reg == BPF_PSEUDO_MAP_VALUE || a->src_reg == BPF_PSEUDO_MAP_FD) &&
		    k + 1 < n) {
			/* imm: our map index, libbpf's fd — the same section's map */
			struct bpf_map *m;
			const char *lname = NULL;

			bpf_object__for_each_map(m, lo)
				if (bpf_map__fd(m) == b->imm)
					lname = bpf_map__name(m);
			CHECK((size_t)a->imm < o->map_cnt && lname &&
			      libbpf_map(lo, o->maps[a->imm].name) ==
				      bpf_object__find_map_by_name(lo, lname),
			      "%s insn %zu: map %d ('%s'), libbpf fd %d ('%s')", name, k, a->imm,
			      (size_t)a->imm < o->map_cnt ? o->maps[a->imm].name : "?", b->imm,
			      lname ? lname : "?");
			CHECK(a[1].imm == b[1].imm, "%s insn %zu: offset %d, libbpf %d", name, k,
			      a[1].imm, b[1].imm);
			k++;
			continue;
		}
		CHECK(a->imm == b->imm, "%s insn %zu: imm %d, libbpf %d", name, k, a->imm, b->imm);
	}
}

static void test_libbpf(const struct ebpf_object *o, const char *path, bool kernel)
{
	struct bpf_object *lo = bpf_object__open_file(path, NULL);
	struct bpf_program *lp;

	CHECK(lo && !libbpf_get_error(lo), "libbpf cannot open %s", path);
	if (!lo || libbpf_get_error(lo))
		return;
	test_maps(o, lo);
	if (kernel) {
		/* only the program the kernel accepts: one refusal fails the whole load */
		bpf_object__for_each_program(lp, lo)
			bpf_program__set_autoload(lp, !strcmp(bpf_program__name(lp),
							      "globals_read"));
		CHECK(bpf_object__load(lo) == 0, "libbpf cannot load %s", path);
		test_insns(o, lo, "globals_read");
		test_kconfig(o, lo);
	}
	bpf_object__close(lo);	/* unloads and closes every map */
}

static void test_verdicts(struct ebpf_object *o, bool kernel)
{
	static const struct {
		const char *prog;
		enum scev_verdict_kind want;
		const char *reason;
	} cases[] = {
		{ "globals_read", VERDICT_SAFE, NULL },
		{ "globals_write_rodata", VERDICT_UNSAFE, "read-only map '.rodata'" },
		{ "globals_write_kconfig", VERDICT_UNSAFE, "read-only map '.kconfig'" },
		{ "globals_past_end", VERDICT_UNSAFE, "outside [0, 16)" },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct ebpf_prog *p = ebpf_object__find_prog(o, cases[k].prog);
		struct verdict_opts vo = { .sz = sizeof(vo), .kernel = kernel };
		struct verdict_report r;
		struct diag d;

		CHECK(p != NULL, "%s: missing", cases[k].prog);
		if (!p)
			continue;
		diag_clear(&d);
		CHECK(verdict_compare(&r, o, p, &vo, &d) == 0, "%s: %s", cases[k].prog, d.msg);
		CHECK(r.ours.kind == cases[k].want, "%s: %s (%s)", cases[k].prog,
		      scev_verdict_name(r.ours.kind), r.ours.reason);
		if (cases[k].reason)
			CHECK(strstr(r.ours.reason, cases[k].reason), "%s: reason '%s'",
			      cases[k].prog, r.ours.reason);
		CHECK(r.faults == 0, "%s: faults: %s", cases[k].prog, r.fault);
		if (kernel)
			CHECK(r.cls == VC_BOTH_ACCEPT || r.cls == VC_BOTH_REJECT, "%s: %s (kernel: %s)",
			      cases[k].prog, verdict_class_name(r.cls),
			      r.kernel_accepted ? "accepted" : r.kernel_message);
		verdict_report__free(&r);
	}
	/* a forged safe verdict on the .rodata store faults in every run */
	{
		const struct ebpf_prog *p = ebpf_object__find_prog(o, "globals_write_rodata");
		struct verdict_opts vo = { .sz = sizeof(vo), .runs = 4 };
		struct verdict_report r;

		memset(&r, 0, sizeof(r));
		r.ours.kind = VERDICT_SAFE;
		r.ours.max_insns = UINT64_MAX;
		CHECK(p && verdict_execute(&r, o, p, &vo) == 0, "forged: runs");
		CHECK(r.runs == 4 && r.faults == r.runs && strstr(r.fault, "read-only map"),
		      "forged .rodata store: %llu of %llu runs faulted (%s)",
		      (unsigned long long)r.faults, (unsigned long long)r.runs, r.fault);
	}
}

int main(void)
{
	const char *dir = getenv("BPFSCEV_TEST_BPF_DIR");
	struct ebpf_object *o = NULL;
	char path[4096], why[256];
	struct diag d;
	bool kernel;

	if (!dir)
		return check_skip("test_globals", "BPFSCEV_TEST_BPF_DIR is not set (no clang)");
	snprintf(path, sizeof(path), "%s/globals.o", dir);
	diag_clear(&d);
	if (ebpf_object__open_file(&o, path, &d))
		return check_skip("test_globals", "%s: %s", path, d.msg);
	kernel = kernel_available(why, sizeof(why));
	if (!kernel)
		check_skip_part("libbpf's loaded instructions and the kernel's verdicts: %s", why);
	test_libbpf(o, path, kernel);
	test_verdicts(o, kernel);
	ebpf_object__free(o);
	return check_done("test_globals");
}
