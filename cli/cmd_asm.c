/* bpfscev asm: assembly text (any dialect) to raw instruction bytes, the form the kernel loads and
 * every other subcommand reads back.  On a terminal it shows an objdump-style listing instead,
 * which is itself valid assembler input.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf/asm.h"
#include "casefile/casefile.h"
#include "cli/cli.h"

static void asm_usage(FILE *f)
{
	fprintf(f, "usage: bpfscev asm FILE [-o OUT] [--prog NAME] [--hex] [--no-validate]\n"
		   "  Assembles FILE (kernel verifier-log, LLVM, llvm-objdump or ubpf syntax; a data\n"
		   "  file's '-- asm' section; also raw bytes or an ELF object) to raw 8-byte\n"
		   "  instruction slots.  Output goes to OUT ('-' for stdout), else to stdout when it\n"
		   "  is not a terminal; on a terminal, or with --hex, a listing 'pc: bytes  insn'.\n"
		   "  --prog NAME    the program to write when FILE holds several (ELF)\n"
		   "  --no-validate  encode only, without checking the program (for negative tests)\n"
		   "Errors are printed as file:line:col: message, exit status 2.\n");
}

static int write_all(FILE *f, const void *p, size_t n)
{
	return fwrite(p, 1, n, f) == n ? 0 : -1;
}

static void hex_listing(struct sbuf *sb, const struct bpf_insn *insns, size_t len)
{
	for (size_t pc = 0; pc < len;) {
		const uint8_t *b = (const uint8_t *)&insns[pc];
		size_t n = ebpf_is_ldimm64(&insns[pc]) && pc + 1 < len &&
				   !ebpf_validate_insn(&insns[pc], len - pc, NULL) ? 2 : 1;

		sbuf_printf(sb, "%6zu:\t", pc);
		for (size_t k = 0; k < 8 * n; k++)
			sbuf_printf(sb, "%02x%s", b[k], k + 1 < 8 * n ? " " : "\t");
		ebpf_disasm_insn(sb, insns, len, pc, 0);
		sbuf_putc(sb, '\n');
		pc += n;
	}
}

/* --no-validate: the '-- asm' section (or the whole text) through the assembler only. */
static int assemble_only(const char *file, struct bpf_insn **insns, size_t *len)
{
	struct casefile_section *secs = NULL;
	size_t nsec = 0, tlen = 0;
	const struct casefile_section *s = NULL;
	char *text = cli_read_file(file, &tlen);
	struct diag d;
	char msg[1024];
	int err;

	if (!text)
		return -1;
	diag_clear(&d);
	diag_set_file(&d, file);
	err = casefile_sections__parse(&secs, &nsec, text, tlen, &d);
	for (size_t k = 0; !err && k < nsec; k++)
		if (!strcmp(secs[k].name, "asm"))
			s = &secs[k];
	if (!err && !s)
		err = diag_set(&d, EINVAL, "data file has no '-- asm' section");
	if (!err)
		err = ebpf_asm(insns, len, NULL, s->text, strlen(s->text), s->line, &d);
	if (err) {
		diag_format(&d, msg, sizeof(msg));
		fprintf(stderr, "bpfscev: %s\n", msg);
	}
	casefile_sections__free(secs, nsec);
	free(text);
	return err ? -1 : 0;
}

int cmd_asm(int argc, char **argv)
{
	const char *file = NULL, *out = NULL, *prog = NULL;
	bool hex = false, novalidate = false;
	struct ebpf_object *obj = NULL;
	struct bpf_insn *own = NULL;
	const struct bpf_insn *insns;
	size_t len;
	FILE *f = NULL;
	int rc = CLI_OK;

	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			asm_usage(stdout);
			return CLI_OK;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strcmp(argv[i], "--prog") && i + 1 < argc) {
			prog = argv[++i];
		} else if (!strcmp(argv[i], "--hex")) {
			hex = true;
		} else if (!strcmp(argv[i], "--no-validate")) {
			novalidate = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "bpfscev asm: unknown or incomplete option '%s'\n", argv[i]);
			asm_usage(stderr);
			return CLI_USAGE;
		} else if (!file) {
			file = argv[i];
		} else {
			fprintf(stderr, "bpfscev asm: more than one FILE\n");
			return CLI_USAGE;
		}
	}
	if (!file) {
		asm_usage(stderr);
		return CLI_USAGE;
	}
	if (novalidate) {
		if (assemble_only(file, &own, &len))
			return CLI_USAGE;
		insns = own;
	} else {
		const struct ebpf_prog **progs = NULL;
		size_t n = 0;

		obj = cli_open(file);
		if (!obj)
			return CLI_USAGE;
		if (cli_select_progs(obj, prog, &progs, &n)) {
			ebpf_object__free(obj);
			return CLI_USAGE;
		}
		if (n != 1) {
			fprintf(stderr, "bpfscev asm: %s holds %zu programs; choose one with --prog\n",
				file, n);
			free(progs);
			ebpf_object__free(obj);
			return CLI_USAGE;
		}
		insns = progs[0]->insns;
		len = progs[0]->len;
		free(progs);
	}
	if (!out && !hex && isatty(STDOUT_FILENO))
		hex = true;
	if (hex && !out) {
		struct sbuf sb = SBUF_INIT;

		hex_listing(&sb, insns, len);
		fputs(sbuf_cstr(&sb), stdout);
		sbuf_free(&sb);
		goto done;
	}
	f = !out || !strcmp(out, "-") ? stdout : fopen(out, "wb");
	if (!f) {
		fprintf(stderr, "bpfscev asm: %s: %s\n", out, strerror(errno));
		rc = CLI_USAGE;
		goto done;
	}
	if (hex) {
		struct sbuf sb = SBUF_INIT;

		hex_listing(&sb, insns, len);
		if (write_all(f, sbuf_cstr(&sb), sb.len))
			rc = CLI_USAGE;
		sbuf_free(&sb);
	} else if (write_all(f, insns, len * sizeof(*insns))) {
		rc = CLI_USAGE;
	}
	if ((f != stdout && fclose(f)) || (f == stdout && fflush(stdout)))
		rc = CLI_USAGE;
	if (rc)
		fprintf(stderr, "bpfscev asm: write error on %s\n", out ? out : "stdout");
done:
	free(own);
	ebpf_object__free(obj);
	return rc;
}
