/* Campaign throughput on a fixed set of programs: the campaign of this build (fuzz_campaign,
 * `bpfscev fuzz --jobs 0` with default settings: analysis, every oracle run, findings counted)
 * with its generator replaced by files, so that builds whose generators differ are timed on the
 * same programs.  Linked with -Wl,--wrap=gen_program: the campaign's k-th program is
 * DIR/gen-(FIRST + k).txt, a `bpfscev gen -o DIR` file (its "-- asm", "-- input" and "-- helper"
 * sections, its "; map" lines), read by this build's assembler before the clock starts.  With --generate, the k-th
 * program is this build's generator's for seed FIRST + k instead (what `bpfscev gen --seed`
 * prints): the same summary both ways shows the files give the generator's programs.
 *
 * The file builds against issue 13's old tree (5c31576) as well (bench/same_programs.sh builds
 * it there), so the figures compare old and new on one program set: an additional measure beside
 * the campaign's own, whose programs differ between builds whose generators differ.
 *
 * Usage: bench_same_programs DIR FIRST N [--generate]
 * Prints one line: programs, CPU seconds (user + sys), programs per CPU-second, claims checked,
 * findings, loops.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "fuzz/campaign.h"
#include "generators/gen.h"
#include "generators/producer.h"
#if __has_include("util/heap.h")
#include "util/heap.h"	/* (what main() of the command does, where it does) */
#define HEAP_TUNE() heap_tune()
#else
#define HEAP_TUNE() ((void)0)
#endif

int __real_gen_program(struct gen_program *out, struct gen_src *src, const struct gen_knobs *k);
int __wrap_gen_program(struct gen_program *out, struct gen_src *src, const struct gen_knobs *k);

static const char *dir;
static uint64_t first, calls, count;
static bool generate;
static struct gen_program *progs;	/* the files, read before the clock starts */

static double cpu_s(void)
{
	struct rusage u;

	getrusage(RUSAGE_SELF, &u);
	return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

/* Hex bytes ("0a 1b ...", any spacing) of text into out, at most cap. */
static size_t hex_bytes(const char *text, uint8_t *out, size_t cap)
{
	size_t n = 0;
	int hi = -1;

	for (const char *p = text; *p && n < cap; p++) {
		int v = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 :
			*p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : -1;

		if (v < 0) {
			hi = -1;
			continue;
		}
		if (hi < 0) {
			hi = v;
		} else {
			out[n++] = (uint8_t)(hi << 4 | v);
			hi = -1;
		}
	}
	return n;
}

/* The program of a `bpfscev gen` file into out (its other fields cleared). */
static int load(struct gen_program *out, const char *path)
{
	FILE *f = fopen(path, "r");
	enum { OTHER, ASM, INPUT, HELPER } sec = OTHER;
	char *line = NULL, *text = NULL;
	size_t cap = 0, len = 0;
	struct ebpf_object *obj = NULL;
	struct bpf_insn *insns;
	struct diag d;
	ssize_t n;

	if (!f) {
		fprintf(stderr, "bench_same_programs: cannot read %s\n", path);
		exit(1);
	}
	free(out->insns);
	memset(out, 0, sizeof(*out));
	out->prog_type = BPF_PROG_TYPE_XDP;
	out->subprog = -1;
	out->max_steps = UINT64_MAX;
	while ((n = getline(&line, &cap, f)) > 0) {
		unsigned m, key, value, entries;
		char name[64], type[16];

		if (sscanf(line, "; map %u: %63s %15s key_size %u value_size %u max_entries %u", &m,
			   name, type, &key, &value, &entries) == 6 &&
		    m < sizeof(out->maps) / sizeof(out->maps[0])) {
			struct ebpf_map_def *md = &out->maps[m];

			snprintf(md->name, sizeof(md->name), "%s", name);
			md->type = !strcmp(type, "array") ? BPF_MAP_TYPE_ARRAY : BPF_MAP_TYPE_HASH;
			md->key_size = key;
			md->value_size = value;
			md->max_entries = entries;
			if (m + 1 > out->map_cnt)
				out->map_cnt = m + 1;
		} else if (strstr(line, "; bpfscev gen: ") == line && !strstr(line, " xdp program")) {
			fprintf(stderr, "bench_same_programs: %s: not an XDP program\n", path);
			exit(1);
		} else if (!strncmp(line, "-- ", 3)) {
			sec = !strcmp(line, "-- asm\n") ? ASM : !strcmp(line, "-- input\n") ? INPUT :
			      !strcmp(line, "-- helper\n") ? HELPER : OTHER;
		} else if (sec == ASM) {
			char *t = realloc(text, len + (size_t)n + 1);

			if (!t)
				exit(1);
			text = t;
			memcpy(text + len, line, (size_t)n + 1);
			len += (size_t)n;
		} else if (sec == INPUT) {
			out->input_len += hex_bytes(line, out->input + out->input_len,
						    sizeof(out->input) - out->input_len);
		} else if (sec == HELPER) {
			out->helper_len += hex_bytes(line, out->helper_data + out->helper_len,
						     sizeof(out->helper_data) - out->helper_len);
		}
	}
	free(line);
	fclose(f);
	diag_clear(&d);
	if (!text || ebpf_object__open_mem(&obj, text, len, path, &d)) {
		fprintf(stderr, "bench_same_programs: %s: %s\n", path, text ? d.msg : "no -- asm");
		exit(1);
	}
	insns = malloc(obj->progs[0].len * sizeof(*insns));
	if (!insns)
		return -ENOMEM;
	memcpy(insns, obj->progs[0].insns, obj->progs[0].len * sizeof(*insns));
	out->insns = insns;
	out->len = out->cap = obj->progs[0].len;
	ebpf_object__free(obj);
	free(text);
	return 0;
}

int __wrap_gen_program(struct gen_program *out, struct gen_src *src, const struct gen_knobs *k)
{
	uint64_t n = first + calls++;
	char path[4096];

	if (generate) {
		struct gen_src s;

		gen_src_init_seed(&s, n);
		return __real_gen_program(out, &s, k);
	}
	(void)src;
	(void)path;
	if (n - first >= count)
		return -EINVAL;
	/* (a copy: the campaign's struct is reused and freed by it) */
	struct bpf_insn *insns = realloc(out->insns, progs[n - first].len * sizeof(*insns));

	if (!insns)
		return -ENOMEM;
	memcpy(insns, progs[n - first].insns, progs[n - first].len * sizeof(*insns));
	*out = progs[n - first];
	out->insns = insns;
	out->cap = out->len;
	return 0;
}

int main(int argc, char **argv)
{
	struct fuzz_stats st;
	struct diag d;
	uint64_t n;
	double c0, c;

	if (argc < 4) {
		fprintf(stderr, "usage: bench_same_programs DIR FIRST N [--generate]\n");
		return 2;
	}
	dir = argv[1];
	first = strtoull(argv[2], NULL, 0);
	n = strtoull(argv[3], NULL, 0);
	generate = argc > 4 && !strcmp(argv[4], "--generate");
	count = n;
	progs = calloc(n ? n : 1, sizeof(*progs));
	if (!progs)
		return 1;
	for (uint64_t k = 0; k < n && !generate; k++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/gen-%" PRIu64 ".txt", dir, first + k);
		if (load(&progs[k], path))
			return 1;
	}
	HEAP_TUNE();
	struct fuzz_opts o = { .sz = sizeof(o), .seed = 1, .count = n, .jobs = 0 };

	c0 = cpu_s();
	if (fuzz_campaign(&st, &o, &d)) {
		fprintf(stderr, "bench_same_programs: %s\n", d.msg);
		return 1;
	}
	c = cpu_s() - c0;
	if (calls != n) {
		fprintf(stderr, "bench_same_programs: %" PRIu64 " programs read for %" PRIu64 "\n", calls,
			n);
		return 1;
	}
	printf("programs %" PRIu64 " cpu %.3f per-cpu-s %.0f claims %" PRIu64 " findings %" PRIu64
	       " loops %" PRIu64 "\n", st.programs, c, st.programs / c, st.claims_checked,
	       fuzz_stats_findings(&st), st.loops);
	return 0;
}
