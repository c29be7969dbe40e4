/* Maps of maps (BPF_MAP_TYPE_ARRAY_OF_MAPS, HASH_OF_MAPS): the inner map a lookup returns, as
 * the loaders define it and as the kernel's verifier treats it.
 *   - the ELF loader finds each outer map's inner template the way its loader does: libbpf's
 *     "values" member (appended as "OUTER.inner"), samples/bpf's and PREVAIL's inner_map_idx
 *     in 28-byte legacy records, iproute2's inner_id naming another map's id (Cilium) — held
 *     against the definitions in the objects' sources;
 *   - the case file's "inner=LINE" and its located errors;
 *   - the verdicts of the corpus cases corpus/cases/map_of_maps_*.case and of the samples'
 *     map-in-map programs against the kernel, which is given the same inner template (both
 *     accept the safe ones, both reject the unsafe twins), and every program called safe runs
 *     without a fault (verdict_compare runs it, lookups drawing full or empty slots).
 * Environment: BPFSCEV_SAMPLES_DIR (the samples; that part skips without them),
 * BPFSCEV_SOURCE_DIR (the corpus cases).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/prog.h"
#include "casefile/casefile.h"
#include "oracle/kernel/kernel.h"
#include "tests/check.h"
#include "triage/verdict.h"

static long map_index(const struct ebpf_object *o, const char *name)
{
	for (size_t i = 0; i < o->map_cnt; i++)
		if (!strcmp(o->maps[i].name, name))
			return (long)i;
	return -1;
}

/* The inner template of outer in object o has this type and sizes (and, when inner_name is
 * given, is that map of the object). */
static void check_inner(const struct ebpf_object *o, const char *ctx, const char *outer,
			const char *inner_name, uint32_t type, uint32_t key, uint32_t value,
			uint32_t max)
{
	long i = map_index(o, outer);
	const struct ebpf_map_def *t;

	CHECK(i >= 0, "%s: no map '%s'", ctx, outer);
	if (i < 0)
		return;
	CHECK(o->maps[i].inner && o->maps[i].inner <= o->map_cnt,
	      "%s: '%s' has no inner map (%u)", ctx, outer, o->maps[i].inner);
	if (!o->maps[i].inner || o->maps[i].inner > o->map_cnt)
		return;
	t = &o->maps[o->maps[i].inner - 1];
	if (inner_name)
		CHECK(!strcmp(t->name, inner_name), "%s: '%s' has the inner map '%s', expected '%s'",
		      ctx, outer, t->name, inner_name);
	CHECK_EQ_U64(t->type, type, ctx);
	CHECK_EQ_U64(t->key_size, key, ctx);
	CHECK_EQ_U64(t->value_size, value, ctx);
	CHECK_EQ_U64(t->max_entries, max, ctx);
}

static struct ebpf_object *open_sample(const char *dir, const char *rel)
{
	char path[1024];
	struct ebpf_object *o = NULL;
	struct diag d;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	diag_clear(&d);
	CHECK(ebpf_object__open_file(&o, path, &d) == 0, "%s: %s", path, d.msg);
	return o;
}

/* The definitions, from the samples' sources: PREVAIL's map_in_map*.c (an array of maps of
 * arrays of one u32), samples/bpf test_map_in_map_kern.c (inner_map_idx 0 = port_a, 1 =
 * port_h), Cilium's lb.h (the maglev maps' inner_id names the _inner map's id). */
static void test_elf(const char *dir)
{
	struct ebpf_object *o;

	if ((o = open_sample(dir, "build/map_in_map.o"))) {
		check_inner(o, "map_in_map (BTF)", "array_of_maps", "array_of_maps.inner",
			    BPF_MAP_TYPE_ARRAY, 4, 4, 1);
		ebpf_object__free(o);
	}
	if ((o = open_sample(dir, "build/map_in_map_legacy.o"))) {
		check_inner(o, "map_in_map_legacy", "array_of_maps", "inner_map",
			    BPF_MAP_TYPE_ARRAY, 4, 8, 1);
		ebpf_object__free(o);
	}
	if ((o = open_sample(dir, "linux/test_map_in_map_kern.o"))) {
		check_inner(o, "test_map_in_map a_of_port_a", "a_of_port_a", "port_a",
			    BPF_MAP_TYPE_ARRAY, 4, 4, 65536);
		check_inner(o, "test_map_in_map h_of_port_a", "h_of_port_a", "port_a",
			    BPF_MAP_TYPE_ARRAY, 4, 4, 65536);
		check_inner(o, "test_map_in_map h_of_port_h", "h_of_port_h", "port_h",
			    BPF_MAP_TYPE_HASH, 4, 4, 1);
		ebpf_object__free(o);
	}
	if ((o = open_sample(dir, "cilium/bpf_xdp_snat_linux.o"))) {
		check_inner(o, "cilium lb6 maglev", "cilium_lb6_maglev", "cilium_lb6_maglev_inner",
			    BPF_MAP_TYPE_ARRAY, 4, 4078, 1);
		check_inner(o, "cilium lb4 maglev", "cilium_lb4_maglev", "cilium_lb4_maglev_inner",
			    BPF_MAP_TYPE_ARRAY, 4, 4078, 1);
		ebpf_object__free(o);
	}
}

static void test_casefile(void)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "-- asm\nexit\n-- maps\narray key=4 value=4 entries=1 inner=0\n", "expected" },
		{ "-- asm\nexit\n-- maps\narray_of_maps key=4 value=4 entries=1 inner=3\n"
		  "array key=4 value=4 entries=1\n", "names no map" },
		{ "-- asm\nexit\n-- maps\narray_of_maps key=4 value=4 entries=1 inner=0\n",
		  "names no map" },
		{ "-- asm\nexit\n-- maps\nhash_of_maps key=4 value=4 entries=1 inner=1\n"
		  "array_of_maps key=4 value=4 entries=1 inner=0\n", "names no map" },
		{ "-- asm\nexit\n-- maps\narray_of_maps key=4 value=4 entries=1 inner=x\n",
		  "expected" },
	};
	struct casefile *cf = NULL;
	struct diag d;
	const char *good = "-- asm\nexit\n-- maps\n# comment\nhash key=4 value=8 entries=2\n"
			   "hash_of_maps value=4 key=8 entries=3 inner=0 name=outer\n";

	diag_clear(&d);
	CHECK(casefile__open_mem(&cf, good, strlen(good), "good", &d) == 0, "good: %s", d.msg);
	if (cf) {
		const struct ebpf_object *o = cf->obj;

		CHECK_EQ_U64(o->map_cnt, 2, "good");
		if (o->map_cnt == 2) {
			CHECK(!strcmp(o->maps[1].name, "outer"), "good: name '%s'", o->maps[1].name);
			CHECK_EQ_U64(o->maps[1].type, BPF_MAP_TYPE_HASH_OF_MAPS, "good");
			CHECK_EQ_U64(o->maps[1].key_size, 8, "good");
			CHECK_EQ_U64(o->maps[1].inner, 1, "good");
			CHECK_EQ_U64(o->maps[0].inner, 0, "good");
		}
		casefile__free(cf);
	}
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		cf = NULL;
		diag_clear(&d);
		CHECK(casefile__open_mem(&cf, bad[k].text, strlen(bad[k].text), "bad", &d) != 0,
		      "bad case %zu opened", k);
		CHECK(strstr(d.msg, bad[k].err) && d.line > 0, "bad case %zu: '%s' (line %d)", k,
		      d.msg, d.line);
		casefile__free(cf);
	}
}

/* A program's verdict against the kernel's: safe and accepted, or unsafe and rejected. */
static void against_kernel(const char *ctx, const struct ebpf_object *obj,
			   const struct ebpf_prog *p, bool want_safe)
{
	struct verdict_opts vo = { .sz = sizeof(vo), .kernel = true };
	struct verdict_report r;
	struct diag d;

	diag_clear(&d);
	if (verdict_compare(&r, obj, p, &vo, &d)) {
		CHECK(0, "%s: %s", ctx, d.msg);
		return;
	}
	CHECK(r.ours.kind == (want_safe ? VERDICT_SAFE : VERDICT_UNSAFE),
	      "%s: ours %s (%s), expected %s", ctx, scev_verdict_name(r.ours.kind), r.ours.reason,
	      want_safe ? "safe" : "unsafe");
	CHECK(r.cls == (want_safe ? VC_BOTH_ACCEPT : VC_BOTH_REJECT),
	      "%s: class %s (ours: %s; kernel: %s)", ctx, verdict_class_name(r.cls), r.ours.reason,
	      r.kernel_message);
	CHECK(r.faults == 0, "%s: called safe, faults when run: %s", ctx, r.fault);
	verdict_report__free(&r);
}

static void test_cases_against_kernel(const char *src)
{
	char dir[1024];
	struct dirent *e;
	DIR *dp;
	int n = 0;

	snprintf(dir, sizeof(dir), "%s/corpus/cases", src);
	dp = opendir(dir);
	CHECK(dp != NULL, "cannot open %s", dir);
	while (dp && (e = readdir(dp))) {
		char path[2048], want[16] = "";
		struct casefile *cf = NULL;
		const struct casefile_section *sec;
		struct diag d;

		if (strncmp(e->d_name, "map_of_maps_", 12) || !strstr(e->d_name, ".case"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		diag_clear(&d);
		if (casefile__open_file(&cf, path, &d)) {
			CHECK(0, "%s: %s", path, d.msg);
			continue;
		}
		sec = casefile__section(cf, "verdict");
		CHECK(sec && sscanf(sec->text, "%15s", want) == 1, "%s: no verdict", e->d_name);
		against_kernel(e->d_name, cf->obj, &cf->obj->progs[0], !strcmp(want, "safe"));
		casefile__free(cf);
		n++;
	}
	if (dp)
		closedir(dp);
	CHECK(n >= 4, "only %d map_of_maps_ cases in %s", n, dir);
}

static void test_samples_against_kernel(const char *dir)
{
	static const char *const objs[] = { "build/map_in_map.o", "build/map_in_map_anonymous.o",
					    "build/map_in_map_legacy.o",
					    "build/map_in_map_typedef.o" };

	for (size_t k = 0; k < sizeof(objs) / sizeof(objs[0]); k++) {
		struct ebpf_object *o = open_sample(dir, objs[k]);

		if (!o)
			continue;
		CHECK_EQ_U64(o->prog_cnt, 1, objs[k]);
		if (o->prog_cnt)
			against_kernel(objs[k], o, &o->progs[0], true);
		ebpf_object__free(o);
	}
}

static bool opendir_ok(const char *path)
{
	DIR *dp = opendir(path);

	if (dp)
		closedir(dp);
	return dp != NULL;
}

int main(void)
{
	const char *samples = getenv("BPFSCEV_SAMPLES_DIR");
	const char *src = getenv("BPFSCEV_SOURCE_DIR");
	bool have_samples = samples && opendir_ok(samples);
	char why[256];

	test_casefile();
	if (have_samples)
		test_elf(samples);
	else
		printf("SKIP: the samples' inner maps: no %s\n", samples ? samples :
		       "BPFSCEV_SAMPLES_DIR");
	if (!have_samples)
		check_parts_skipped++;
	if (!kernel_available(why, sizeof(why))) {
		printf("SKIP: the verdicts against the kernel: %s\n", why);
		check_parts_skipped++;
		return check_done("test_map_of_maps");
	}
	test_cases_against_kernel(src ? src : ".");
	if (have_samples)
		test_samples_against_kernel(samples);
	return check_done("test_map_of_maps");
}
