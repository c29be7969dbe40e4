/* bpfscev: entry point and subcommand dispatch, plus the helpers every subcommand shares. */
#include "cli/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

	if (!f) {
		fprintf(stderr, "bpfscev: %s: %s\n", path, strerror(errno));
		return NULL;
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
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "bpfscev: %s: read error\n", path);
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

struct ebpf_object *cli_open(const char *path)
{
	struct ebpf_object *obj = NULL;
	struct diag d;
	char msg[1024];

	diag_clear(&d);
	if (ebpf_object__open_file(&obj, path, &d)) {
		diag_format(&d, msg, sizeof(msg));
		fprintf(stderr, "bpfscev: %s\n", msg);
		return NULL;
	}
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
