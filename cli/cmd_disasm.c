/* bpfscev disasm: programs of any input format printed in the kernel verifier log's syntax, so
 * they diff against `bpftool prog dump xlated` and the verifier log, and assemble back unchanged.
 */
#include <stdlib.h>
#include <string.h>

#include "bpf/asm.h"
#include "cli/cli.h"
#include "util/json.h"

static void disasm_usage(FILE *f)
{
	fprintf(f, "usage: bpfscev disasm FILE [--prog NAME] [--pc] [--opcodes] [--labels] [--json]\n"
		   "  Prints each program in the kernel verifier log's syntax ('r1 += 1',\n"
		   "  'if r1 < 0xa goto pc-3'); the output assembles back to the same bytes.\n"
		   "  --pc       prefix each instruction with its index, 'N: '\n"
		   "  --opcodes  print the opcode byte as the verifier log does, '(07) '\n"
		   "  --labels   jump targets as labels ('goto L12') with 'L12:' lines\n"
		   "  --json     {\"programs\": [{\"name\", \"section\", \"insns\": [{\"pc\", \"code\",\n"
		   "             \"bytes\", \"text\", \"line\"?}]}]} (text without pc or opcode columns)\n");
}

static void put_json_prog(struct sbuf *sb, const struct ebpf_prog *p)
{
	sbuf_puts(sb, "{\"name\": ");
	json_put_string(sb, p->name);
	sbuf_puts(sb, ", \"section\": ");
	json_put_string(sb, p->section);
	sbuf_printf(sb, ", \"slots\": %zu, \"insns\": [", p->len);
	for (size_t pc = 0; pc < p->len;) {
		struct sbuf t = SBUF_INIT;
		size_t n = ebpf_is_ldimm64(&p->insns[pc]) &&
				   !ebpf_validate_insn(&p->insns[pc], p->len - pc, NULL) ? 2 : 1;
		const uint8_t *b = (const uint8_t *)&p->insns[pc];

		ebpf_disasm_insn(&t, p->insns, p->len, pc, 0);
		sbuf_printf(sb, "%s\n    {\"pc\": %zu, \"code\": %u, \"bytes\": \"", pc ? "," : "", pc,
			    p->insns[pc].code);
		for (size_t k = 0; k < 8 * n; k++)
			sbuf_printf(sb, "%s%02x", k ? " " : "", b[k]);
		sbuf_puts(sb, "\", \"text\": ");
		json_put_string(sb, sbuf_cstr(&t));
		if (p->lines && p->lines[pc])
			sbuf_printf(sb, ", \"line\": %u", p->lines[pc]);
		sbuf_putc(sb, '}');
		sbuf_free(&t);
		pc += n;
	}
	sbuf_puts(sb, "\n  ]}");
}

int cmd_disasm(int argc, char **argv)
{
	const char *file = NULL, *prog = NULL;
	const struct ebpf_prog **progs = NULL;
	struct ebpf_object *obj;
	struct sbuf out = SBUF_INIT;
	unsigned flags = 0;
	bool json = false;
	size_t n = 0;
	int rc = CLI_OK;

	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			disasm_usage(stdout);
			return CLI_OK;
		} else if (!strcmp(argv[i], "--pc")) {
			flags |= EBPF_DISASM_PC;
		} else if (!strcmp(argv[i], "--opcodes")) {
			flags |= EBPF_DISASM_OPCODE;
		} else if (!strcmp(argv[i], "--labels")) {
			flags |= EBPF_DISASM_LABELS;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--prog") && i + 1 < argc) {
			prog = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "bpfscev disasm: unknown or incomplete option '%s'\n", argv[i]);
			disasm_usage(stderr);
			return CLI_USAGE;
		} else if (!file) {
			file = argv[i];
		} else {
			fprintf(stderr, "bpfscev disasm: more than one FILE\n");
			return CLI_USAGE;
		}
	}
	if (!file) {
		disasm_usage(stderr);
		return CLI_USAGE;
	}
	obj = cli_open(file);
	if (!obj)
		return CLI_USAGE;
	if (cli_select_progs(obj, prog, &progs, &n)) {
		ebpf_object__free(obj);
		return CLI_USAGE;
	}
	if (json)
		sbuf_puts(&out, "{\"programs\": [\n  ");
	for (size_t i = 0; i < n; i++) {
		if (json) {
			if (i)
				sbuf_puts(&out, ",\n  ");
			put_json_prog(&out, progs[i]);
			continue;
		}
		/* A header only when there is a choice; '#' lines are comments to the assembler. */
		if (n > 1)
			sbuf_printf(&out, "%s# program %s%s%s%s\n", i ? "\n" : "", progs[i]->name,
				    progs[i]->section[0] ? " (section " : "", progs[i]->section,
				    progs[i]->section[0] ? ")" : "");
		ebpf_disasm(&out, progs[i]->insns, progs[i]->len, flags);
	}
	if (json)
		sbuf_puts(&out, "\n]}\n");
	if (out.oom) {
		fprintf(stderr, "bpfscev disasm: out of memory\n");
		rc = CLI_USAGE;
	} else {
		fputs(sbuf_cstr(&out), stdout);
	}
	sbuf_free(&out);
	free(progs);
	ebpf_object__free(obj);
	return rc;
}
