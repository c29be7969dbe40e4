/* corpus add: a finding directory becomes a regression case that assembles back to the same
 * program with its input, maps and type, and replays through the corpus runner.  The finding is
 * made here by lowering a true trip-count claim by one (the current analyzer is sound, so the
 * case must pass once written — as it will for every fixed finding). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "casefile/casefile.h"
#include "fuzz/corpus.h"
#include "triage/finding.h"
#include "scev/scev.h"
#include "tests/check.h"

static const char prog_text[] =
	"r1 = map[fd:0] ll\nr2 = r10\nr2 += -4\n*(u32 *)(r10 -4) = 0\ncall bpf_map_lookup_elem\n"
	"if r0 == 0 goto out\nr1 = 0\nl: r3 = *(u64 *)(r0 +0)\nr1 += 1\nif r1 < 7 goto l\n"
	"out: r0 = 0\nexit\n";

/* A case's "-- maps" lines name every kind of map a generated program has (array, ring buffer,
 * user ring buffer), and the case reads back with the same maps. */
static void test_map_lines(void)
{
	static const struct ebpf_map_def maps[] = {
		{ .name = "a", .type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 64,
		  .max_entries = 4 },
		{ .name = "rb", .type = BPF_MAP_TYPE_RINGBUF, .max_entries = 4096 },
		{ .name = "urb", .type = BPF_MAP_TYPE_USER_RINGBUF, .max_entries = 4096 },
	};
	static const struct bpf_insn exit0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct sbuf sb = SBUF_INIT;
	struct casefile *cf = NULL;
	struct diag d;

	corpus_format_prog(&sb, exit0, 2, NULL, 0, BPF_PROG_TYPE_XDP, maps, 3);
	diag_clear(&d);
	CHECK(casefile__open_mem(&cf, sbuf_cstr(&sb), strlen(sbuf_cstr(&sb)), "maps", &d) == 0,
	      "the map lines read back: %s (%s)", d.msg, sbuf_cstr(&sb));
	if (cf) {
		CHECK(cf->obj->map_cnt == 3, "%zu maps", cf->obj->map_cnt);
		for (size_t m = 0; m < 3 && m < cf->obj->map_cnt; m++)
			CHECK(cf->obj->maps[m].type == maps[m].type &&
			      cf->obj->maps[m].max_entries == maps[m].max_entries &&
			      !strcmp(cf->obj->maps[m].name, maps[m].name), "map %zu: type %u", m,
			      cf->obj->maps[m].type);
		casefile__free(cf);
	}
	sbuf_free(&sb);
}

int main(void)
{
	struct ebpf_map_def map = { .name = "m", .type = BPF_MAP_TYPE_ARRAY, .key_size = 4,
				    .value_size = 64, .max_entries = 4 };
	struct ebpf_object *obj = NULL;
	struct casefile *back = NULL;
	struct scev_opts so = { .sz = sizeof(so), .prog_type = BPF_PROG_TYPE_XDP };
	struct check_opts co = { .sz = sizeof(co), .runs = 4 };
	struct finding f;
	struct check_result res;
	struct claim_prog cp;
	enum finding_save_result sr;
	char tmpl[] = "/tmp/bpfscev_corpus_add_XXXXXX", dir[1200], cases[1200], path[1200];
	struct sbuf log = SBUF_INIT;
	struct corpus_opts opts = { .sz = sizeof(opts) };
	struct diag d;

	diag_clear(&d);
	CHECK(mkdtemp(tmpl) != NULL, "mkdtemp");
	snprintf(cases, sizeof(cases), "%s/cases", tmpl);
	CHECK(mkdir(cases, 0755) == 0, "mkdir");
	CHECK(ebpf_object__open_mem(&obj, prog_text, strlen(prog_text), "plant", &d) == 0, "%s",
	      d.msg);
	obj->maps = calloc(1, sizeof(map));
	obj->maps[0] = map;
	obj->map_cnt = 1;
	obj->progs[0].prog_type = BPF_PROG_TYPE_XDP;
	CHECK(scev_analyze(&cp, &obj->progs[0], obj->maps, 1, &so, &d) == 0, "%s", d.msg);
	CHECK(cp.nloops == 1 && cp.loops[0].trip.kind == TRIP_EXACT && cp.loops[0].trip.max == 7,
	      "trip claim");
	cp.loops[0].trip.max = cp.loops[0].trip.min = 6;	/* the planted wrong claim */
	CHECK(oracle_check(&res, obj, &obj->progs[0], &cp, &co) == 0 && res.nfindings >= 1,
	      "the oracle refutes the lowered maximum");
	memset(&f, 0, sizeof(f));
	CHECK(res.nfindings && finding__from_check(&f, &res.findings[0], &obj->progs[0], obj->maps, 1,
						   &cp) == 0, "finding");
	snprintf(f.source, sizeof(f.source), "test");
	CHECK(finding__save(&f, tmpl, NULL, &sr, dir, sizeof(dir)) == 0 && sr == FINDING_NEW, "save");
	CHECK(corpus_add_finding(dir, cases, "planted", path, sizeof(path), &d) == 0, "add: %s",
	      d.msg);
	CHECK(casefile__open_file(&back, path, &d) == 0, "the case opens: %s", d.msg);
	if (back) {
		CHECK(back->obj->progs[0].len == obj->progs[0].len &&
		      !memcmp(back->obj->progs[0].insns, obj->progs[0].insns,
			      obj->progs[0].len * sizeof(struct bpf_insn)), "same program");
		CHECK(casefile__section(back, "input") && casefile__section(back, "maps") &&
		      casefile__section(back, "type"), "sections");
		casefile__free(back);
	}
	CHECK(corpus_run_case(path, &opts, &log) == 0, "the case replays clean: %s", sbuf_cstr(&log));
	sbuf_free(&log);
	finding__free(&f);
	check_result__free(&res);
	claim_prog__free(&cp);
	ebpf_object__free(obj);
	{
		char cmd[1300];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl);
		CHECK(system(cmd) == 0, "cleanup");
	}
	test_map_lines();
	return check_done("test_corpus_add");
}
