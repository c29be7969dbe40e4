/* bpfscev: entry point and subcommand dispatch, plus the helpers every subcommand shares. */
#include "cli/cli.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "casefile/casefile.h"
#include "util/heap.h"

static const struct cli_cmd commands[] = {
#define CLI_ENTRY(name, summary) { #name, summary, cmd_##name },
	CLI_COMMANDS(CLI_ENTRY)
#undef CLI_ENTRY
	{ NULL, NULL, NULL },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: bpfscev COMMAND [ARGS]   (bpfscev COMMAND --help for each)\n\n");
	for (size_t i = 0; commands[i].name; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nFILE may be assembly text (kernel, LLVM, objdump or ubpf syntax), raw\n"
		   "instruction bytes or a BPF ELF object.  Exit: 0 ok, 1 finding, 2 usage/input error.\n");
}

bool cli_is_help(const char *arg)
{
	return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}

char *cli_read_file(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	char *buf = NULL;
	size_t cap = 0, n = 0;
	struct stat st;

	if (!f) {
		fprintf(stderr, "bpfscev: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	/* fopen() opens a directory for reading; only the first read fails, with a bare EISDIR */
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "bpfscev: %s: is a directory\n", path);
		goto out;
	}
	for (;;) {
		size_t got;

		if (n + 4096 + 1 > cap) {
			size_t nc = cap ? cap * 2 : 65536;
			char *nb = realloc(buf, nc);

			if (!nb) {
				fprintf(stderr, "bpfscev: %s: out of memory\n", path);
				free(buf);
				buf = NULL;
				goto out;
			}
			buf = nb;
			cap = nc;
		}
		errno = 0;
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "bpfscev: %s: read error: %s\n", path,
			strerror(errno ? errno : EIO));
		free(buf);
		buf = NULL;
		goto out;
	}
	buf[n] = '\0';
	*len = n;
out:
	if (f != stdin)
		fclose(f);
	return buf;
}

static int bad_number(const char *cmd, const char *opt, const char *s, const char *range)
{
	fprintf(stderr, "bpfscev %s: option %s: '%s' is not a number in %s\n", cmd, opt, s, range);
	return -1;
}

int cli_parse_u64(const char *cmd, const char *opt, const char *s, uint64_t lo, uint64_t hi,
		  uint64_t *out)
{
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *digits = hex ? s + 2 : s;
	char range[64];
	uint64_t v = 0;

	snprintf(range, sizeof(range), "[%" PRIu64 ", %" PRIu64 "]", lo, hi);
	/* by hand: strtoull() takes "-1" as 2^64 - 1, skips blanks and reads "010" as octal */
	if (!*digits)
		return bad_number(cmd, opt, s, range);
	for (const char *p = digits; *p; p++) {
		unsigned dv;

		if (*p >= '0' && *p <= '9')
			dv = (unsigned)(*p - '0');
		else if (hex && *p >= 'a' && *p <= 'f')
			dv = (unsigned)(*p - 'a' + 10);
		else if (hex && *p >= 'A' && *p <= 'F')
			dv = (unsigned)(*p - 'A' + 10);
		else
			return bad_number(cmd, opt, s, range);
		if (v > (UINT64_MAX - dv) / (hex ? 16 : 10))
			return bad_number(cmd, opt, s, range);
		v = v * (hex ? 16 : 10) + dv;
	}
	if (v < lo || v > hi)
		return bad_number(cmd, opt, s, range);
	*out = v;
	return 0;
}

int cli_parse_u32(const char *cmd, const char *opt, const char *s, uint32_t lo, uint32_t hi,
		  uint32_t *out)
{
	uint64_t v;

	if (cli_parse_u64(cmd, opt, s, lo, hi, &v))
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int cli_parse_double(const char *cmd, const char *opt, const char *s, double lo, double hi,
		     double *out)
{
	char range[64], *end;
	double v;

	snprintf(range, sizeof(range), "[%g, %g]", lo, hi);
	/* strtod() alone accepts blanks, "inf", "nan" and hexadecimal floats */
	if (!((*s >= '0' && *s <= '9') || *s == '.') || strpbrk(s, "xXnN"))
		return bad_number(cmd, opt, s, range);
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < lo || v > hi)
		return bad_number(cmd, opt, s, range);
	*out = v;
	return 0;
}

struct casefile *cli_open_case(const char *path)
{
	struct casefile *cf = NULL;
	struct diag d;
	char msg[1024];

	diag_clear(&d);
	if (casefile__open_file(&cf, path, &d)) {
		diag_format(&d, msg, sizeof(msg));
		fprintf(stderr, "bpfscev: %s\n", msg);
		return NULL;
	}
	return cf;
}

struct ebpf_object *cli_open(const char *path)
{
	struct casefile *cf = cli_open_case(path);
	struct ebpf_object *obj;

	if (!cf)
		return NULL;
	obj = cf->obj;
	cf->obj = NULL;
	casefile__free(cf);
	for (size_t i = 0; i < obj->skipped_cnt; i++)
		fprintf(stderr, "bpfscev: %s: program '%s' (section '%s') left out: %s\n", path,
			obj->skipped[i].name, obj->skipped[i].section, obj->skipped[i].reason);
	return obj;
}

int cli_select_progs(const struct ebpf_object *obj, const char *name,
		     const struct ebpf_prog ***out, size_t *cnt)
{
	const struct ebpf_prog **v = calloc(obj->prog_cnt ? obj->prog_cnt : 1, sizeof(*v));
	size_t n = 0;

	if (!v)
		return -1;
	for (size_t i = 0; i < obj->prog_cnt; i++)
		if (!name || !strcmp(obj->progs[i].name, name))
			v[n++] = &obj->progs[i];
	for (size_t i = 0; name && n == 0 && i < obj->skipped_cnt; i++) {
		if (strcmp(obj->skipped[i].name, name))
			continue;
		fprintf(stderr, "bpfscev: %s: program '%s' was left out when loading: %s\n",
			obj->path, name, obj->skipped[i].reason);
		free(v);
		return -1;
	}
	if (name && n == 0) {
		fprintf(stderr, "bpfscev: %s: no program named '%s' (have:", obj->path, name);
		for (size_t i = 0; i < obj->prog_cnt; i++)
			fprintf(stderr, " %s", obj->progs[i].name);
		fprintf(stderr, ")\n");
		free(v);
		return -1;
	}
	*out = v;
	*cnt = n;
	return 0;
}

int main(int argc, char **argv)
{
	heap_tune();
	if (argc < 2 || cli_is_help(argv[1])) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? CLI_USAGE : CLI_OK;
	}
	for (size_t i = 0; commands[i].name; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "bpfscev: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return CLI_USAGE;
}
