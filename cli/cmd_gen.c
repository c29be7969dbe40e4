/* bpfscev gen: print generated loop programs as data files (metadata as "; " comments, then
 * "-- asm", "-- type", "-- maps", "-- input" and "-- helper"), so a developer sees exactly what the campaign runs and
 * can feed any of them back to the other commands. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "generators/gen.h"

static void gen_usage(FILE *f)
{
	fprintf(f, "usage: bpfscev gen [--seed N] [--count N] [--knob NAME=VALUE ...] [-o DIR]\n"
		   "       bpfscev gen --bytes FILE [--knob NAME=VALUE ...] [-o DIR]\n"
		   "       bpfscev gen --knobs\n"
		   "  Generates random loop programs (XDP; the input is a %d-byte packet) and prints\n"
		   "  each as kernel-syntax assembly with the generator's intent as '; ' comments:\n"
		   "  loop headers and bodies, counters, steps, exact trip counts or bounds, induction\n"
		   "  variables, shapes; then '-- type', '-- maps' (its maps, which check, verify\n"
		   "  and run read) and the '-- input' and '-- helper' hex sections.\n"
		   "  --seed N      seed of the first program (default 0); program i uses N + i\n"
		   "  --count N     how many programs (default 1)\n"
		   "  --bytes FILE  decode FILE as the fuzzers do (a byte string of choices)\n"
		   "  --knob K=V    change a knob (repeatable); --knobs lists them with defaults\n"
		   "  -o DIR        one file per program, DIR/gen-SEED.txt (or gen-bytes.txt)\n",
		   GEN_INPUT_LEN);
}

static void list_knobs(void)
{
	const char *name, *what;
	uint32_t def;

	for (size_t i = 0; gen_knob_info(i, &name, &def, &what); i++)
		printf("%-18s %8u  %s\n", name, def, what);
}

static int set_knob(struct gen_knobs *k, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char name[64], opt[80];
	uint32_t v;
	int err;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(name)) {
		fprintf(stderr, "bpfscev gen: --knob wants NAME=VALUE, not '%s'\n", arg);
		return -EINVAL;
	}
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = 0;
	snprintf(opt, sizeof(opt), "--knob %s", name);
	if (cli_parse_u32("gen", opt, eq + 1, 0, UINT32_MAX, &v))
		return -EINVAL;
	err = gen_knobs_set(k, name, v);
	if (err == -ENOENT)
		fprintf(stderr, "bpfscev gen: unknown knob '%s' (bpfscev gen --knobs lists them)\n",
			name);
	else if (err)
		fprintf(stderr, "bpfscev gen: knob %s: %" PRIu32 " is out of range\n", name, v);
	return err;
}

/* Writes one program to DIR/file or stdout; 0 or -1 after a message. */
static int emit(const struct gen_program *p, const char *dir, const char *file, const char *title)
{
	struct sbuf sb = SBUF_INIT;
	FILE *f = stdout;
	char path[4096];
	int rc = 0;

	sbuf_printf(&sb, "; %s\n", title);
	gen_program__to_asm(&sb, p);
	if (sb.oom) {
		fprintf(stderr, "bpfscev gen: out of memory\n");
		sbuf_free(&sb);
		return -1;
	}
	if (dir) {
		snprintf(path, sizeof(path), "%s/%s", dir, file);
		f = fopen(path, "w");
		if (!f) {
			fprintf(stderr, "bpfscev gen: %s: %s\n", path, strerror(errno));
			sbuf_free(&sb);
			return -1;
		}
	}
	if (fwrite(sb.buf, 1, sb.len, f) != sb.len || (!dir && fputc('\n', f) == EOF))
		rc = -1;
	if (dir && fclose(f))
		rc = -1;
	if (rc)
		fprintf(stderr, "bpfscev gen: write error\n");
	sbuf_free(&sb);
	return rc;
}

int cmd_gen(int argc, char **argv)
{
	struct gen_knobs k = gen_knobs_default();
	const char *dir = NULL, *bytes_file = NULL;
	uint64_t seed = 0, count = 1;
	struct gen_program p = { 0 };
	struct gen_src src;
	char title[128], file[64];
	int rc = CLI_OK, err;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (cli_is_help(a)) {
			gen_usage(stdout);
			return CLI_OK;
		} else if (!strcmp(a, "--knobs")) {
			list_knobs();
			return CLI_OK;
		} else if (!strcmp(a, "--seed") && i + 1 < argc) {
			if (cli_parse_u64("gen", a, argv[++i], 0, UINT64_MAX, &seed))
				return CLI_USAGE;
		} else if (!strcmp(a, "--count") && i + 1 < argc) {
			/* each program is printed: a count beyond this is a typo, not a plan */
			if (cli_parse_u64("gen", a, argv[++i], 1, 100000000, &count))
				return CLI_USAGE;
		} else if (!strcmp(a, "--knob") && i + 1 < argc) {
			if (set_knob(&k, argv[++i]))
				return CLI_USAGE;
		} else if (!strncmp(a, "--knob=", 7)) {
			if (set_knob(&k, a + 7))
				return CLI_USAGE;
		} else if (!strcmp(a, "--bytes") && i + 1 < argc) {
			bytes_file = argv[++i];
		} else if (!strcmp(a, "-o") && i + 1 < argc) {
			dir = argv[++i];
		} else {
			fprintf(stderr, "bpfscev gen: unknown or incomplete option '%s'\n", a);
			gen_usage(stderr);
			return CLI_USAGE;
		}
	}
	if (dir && mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "bpfscev gen: %s: %s\n", dir, strerror(errno));
		return CLI_USAGE;
	}
	if (bytes_file) {
		size_t n;
		char *data = cli_read_file(bytes_file, &n);

		if (!data)
			return CLI_USAGE;
		gen_src_init_bytes(&src, data, n);
		err = gen_program(&p, &src, &k);
		if (err) {
			fprintf(stderr, "bpfscev gen: %s: %s\n", bytes_file, strerror(-err));
			rc = CLI_USAGE;
		} else {
			snprintf(title, sizeof(title), "from %zu bytes of %s (%zu used)", n, bytes_file,
				 src.pos);
			if (emit(&p, dir, "gen-bytes.txt", title))
				rc = CLI_USAGE;
		}
		free(data);
		gen_program__free(&p);
		return rc;
	}
	for (uint64_t i = 0; i < count && rc == CLI_OK; i++) {
		gen_src_init_seed(&src, seed + i);
		err = gen_program(&p, &src, &k);
		if (err) {
			fprintf(stderr, "bpfscev gen: seed %" PRIu64 ": %s\n", seed + i, strerror(-err));
			rc = CLI_USAGE;
			break;
		}
		snprintf(title, sizeof(title), "seed %" PRIu64, seed + i);
		snprintf(file, sizeof(file), "gen-%" PRIu64 ".txt", seed + i);
		if (emit(&p, dir, file, title))
			rc = CLI_USAGE;
	}
	gen_program__free(&p);
	return rc;
}
