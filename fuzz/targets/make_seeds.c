/* Writes the generated part of the fuzz targets' seed corpora (a tool, run by hand; the output is
 * committed under corpus/<target>/ and replayed by ctest).
 *
 *   fuzz_make_seeds pipeline DIR [N]   byte strings for the pipeline target: among the programs
 *                                      of PRNG seeds 0..N-1 (default 4000), smallest first,
 *                                      each that shows a generator shape fewer than three
 *                                      programs chosen before it show
 *   fuzz_make_seeds asm DIR [N]        data files (gen_program__to_asm: metadata comments,
 *                                      -- asm, -- input, -- helper) of seeds 0..N-1 (default 4)
 *   fuzz_make_seeds interp_z3 DIR      for each opcode byte, the first of a few hundred random
 *                                      byte strings starting with it that the harness runs and
 *                                      agrees on (none for invalid opcodes)
 *   fuzz_make_seeds analyzer DIR FILE...   raw slots for the analyzer target: each FILE's first
 *                                      program (any format: corpus cases, .s, .o), plus a byte
 *                                      for the program type when it is not plain
 *
 * A pipeline seed is the PRNG's byte stream cut where the generator stopped reading: the data
 * producer reads bytes the same way in both modes, so those bytes decode, in the target, to
 * exactly the program (and packet and helper results) the seed made.
 */
#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "bpf/prog.h"
#include "casefile/casefile.h"
#include "fuzz/targets/fuzz_interp_z3.h"
#include "fuzz/targets/fuzz_pipeline.h"

#define STREAM_LEN 16384	/* more than any program of the pipeline knobs reads */
#define SEEDS_PER_SHAPE 3

static int write_file(const char *dir, const char *name, const void *p, size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* The bytes seed's program reads; *len receives how many. */
static uint8_t *seed_bytes(uint64_t seed, const struct gen_knobs *k, struct gen_program *gp,
			   size_t *len)
{
	uint8_t *stream = malloc(STREAM_LEN);
	struct gen_src src;

	if (!stream)
		return NULL;
	gen_src_init_seed(&src, seed);
	gen_bytes(&src, stream, STREAM_LEN);
	gen_src_init_bytes(&src, stream, STREAM_LEN);
	if (gen_program(gp, &src, k) || src.pos >= STREAM_LEN) {
		free(stream);
		return NULL;
	}
	*len = src.pos;
	return stream;
}

struct cand {
	uint64_t seed, shapes;
	size_t len;
};

static int by_len(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	return x->len != y->len ? (x->len < y->len ? -1 : 1) : (x->seed < y->seed ? -1 : 1);
}

static int make_pipeline(const char *dir, unsigned n)
{
	struct gen_knobs k = fuzz_pipeline_knobs();
	struct gen_program gp = { 0 };
	unsigned per_shape[GEN_SHAPE__COUNT] = { 0 }, written = 0, nc = 0;
	struct cand *c = calloc(n, sizeof(*c));

	if (!c)
		return 1;
	for (uint64_t seed = 0; seed < n; seed++) {
		size_t len;
		uint8_t *b = seed_bytes(seed, &k, &gp, &len);

		if (b)
			c[nc++] = (struct cand){ seed, gp.shapes, len };
		free(b);
	}
	/* smallest first, so each shape is shown by the smallest programs that have it */
	qsort(c, nc, sizeof(*c), by_len);
	for (unsigned i = 0; i < nc; i++) {
		bool gain = false;
		size_t len;
		uint8_t *b;
		char name[128];

		for (unsigned s = 0; s < GEN_SHAPE__COUNT; s++)
			gain |= (c[i].shapes >> s & 1) && per_shape[s] < SEEDS_PER_SHAPE;
		if (!gain)
			continue;
		b = seed_bytes(c[i].seed, &k, &gp, &len);
		if (!b)
			return 1;
		for (unsigned s = 0; s < GEN_SHAPE__COUNT; s++)
			per_shape[s] += c[i].shapes >> s & 1;
		snprintf(name, sizeof(name), "seed-%04" PRIu64 "-%zu-loops-%zu-insns", c[i].seed,
			 gp.nloops, gp.len);
		if (write_file(dir, name, b, len)) {
			free(b);
			return 1;
		}
		written++;
		free(b);
	}
	gen_program__free(&gp);
	free(c);
	for (unsigned s = 0; s < GEN_SHAPE__COUNT; s++)
		if (!per_shape[s])
			fprintf(stderr, "no seed shows shape %s\n", gen_shape_name(s));
	printf("%u pipeline seeds in %s\n", written, dir);
	return 0;
}

static int make_asm(const char *dir, unsigned n)
{
	struct gen_knobs k = fuzz_pipeline_knobs();
	struct gen_program gp = { 0 };
	struct sbuf sb = SBUF_INIT;

	for (uint64_t seed = 0; seed < n; seed++) {
		struct gen_src src;
		char name[64];

		gen_src_init_seed(&src, seed);
		if (gen_program(&gp, &src, &k))
			continue;
		sbuf_reset(&sb);
		gen_program__to_asm(&sb, &gp);
		snprintf(name, sizeof(name), "gen-%04" PRIu64 ".s", seed);
		if (write_file(dir, name, sbuf_cstr(&sb), sb.len))
			return 1;
	}
	sbuf_free(&sb);
	gen_program__free(&gp);
	return 0;
}

/* One byte string per opcode the harness runs: the opcode byte, then random bytes until the
 * instruction validates and interpreter and encoding agree on it. */
static int make_interp_z3(const char *dir)
{
	struct gen_src rng;
	unsigned written = 0;

	gen_src_init_seed(&rng, 7);
	for (unsigned code = 0; code < 256; code++) {
		for (unsigned attempt = 0; attempt < 1000; attempt++) {
			struct smt_diff_case c;
			uint8_t buf[400];
			size_t len = gen_u32(&rng, 24, sizeof(buf));
			char name[64], why[256];

			gen_bytes(&rng, buf, len);
			buf[0] = (uint8_t)code;
			fuzz_interp_z3_decode(&c, buf, len);
			if (smt_diff_one(&c, why, sizeof(why)))
				continue;
			snprintf(name, sizeof(name), "op-%02x", code);
			if (write_file(dir, name, buf, len))
				return 1;
			written++;
			break;
		}
	}
	printf("%u interp_z3 seeds in %s\n", written, dir);
	return 0;
}

static int make_analyzer(const char *dir, int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		struct casefile *cf;
		struct ebpf_object *obj;
		const struct casefile_section *ty;
		struct diag d;
		char name[256], msg[1024];
		const char *base = strrchr(argv[i], '/');
		uint8_t *buf;
		size_t n;

		diag_clear(&d);
		if (casefile__open_file(&cf, argv[i], &d)) {
			diag_format(&d, msg, sizeof(msg));
			fprintf(stderr, "skipped: %s\n", msg);
			continue;
		}
		obj = cf->obj;
		n = obj->progs[0].len * sizeof(struct bpf_insn);
		buf = malloc(n + 1);
		if (!buf)
			return 1;
		memcpy(buf, obj->progs[0].insns, n);
		/* the type byte: see fuzz_analyzer.c (1 XDP, 2 tc, 3 socket filter) */
		ty = casefile__section(cf, "type");
		if (ty && strstr(ty->text, "xdp"))
			buf[n++] = 1;
		else if (ty && strstr(ty->text, "tc"))
			buf[n++] = 2;
		else if (ty && strstr(ty->text, "socket"))
			buf[n++] = 3;
		else if (obj->progs[0].prog_type == BPF_PROG_TYPE_XDP)
			buf[n++] = 1;
		snprintf(name, sizeof(name), "%s.bin", base ? base + 1 : argv[i]);
		if (strchr(name, '.') != strrchr(name, '.'))
			*strchr(name, '.') = '\0', strcat(name, ".bin");
		if (write_file(dir, name, buf, n))
			return 1;
		free(buf);
		casefile__free(cf);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "pipeline"))
		return make_pipeline(argv[2], argc > 3 ? (unsigned)strtoul(argv[3], NULL, 0) : 4000);
	if (argc >= 3 && !strcmp(argv[1], "asm"))
		return make_asm(argv[2], argc > 3 ? (unsigned)strtoul(argv[3], NULL, 0) : 4);
	if (argc >= 3 && !strcmp(argv[1], "interp_z3"))
		return make_interp_z3(argv[2]);
	if (argc >= 4 && !strcmp(argv[1], "analyzer"))
		return make_analyzer(argv[2], argc - 3, argv + 3);
	fprintf(stderr, "usage: fuzz_make_seeds pipeline DIR [N]\n"
			"       fuzz_make_seeds asm DIR [N]\n"
			"       fuzz_make_seeds interp_z3 DIR\n"
			"       fuzz_make_seeds analyzer DIR FILE...\n");
	return 2;
}
