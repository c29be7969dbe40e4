/* bpfscev loops: the loop forest of each program, as text, JSON or a Graphviz picture. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "scev/report.h"

static void loops_usage(FILE *f)
{
	fprintf(f, "usage: bpfscev loops FILE [--prog NAME] [--json | --dot [--idom] | --svg OUT]\n"
		   "  Finds the loops of each program: header, depth, back edges, latch, exits,\n"
		   "  irreducible cycles and their entries.  Indexes are program-relative pcs.\n"
		   "  --json    {\"programs\": [{\"name\", \"insn_count\", \"loops\": [...]}]}\n"
		   "  --dot     Graphviz CFG: loops as nested clusters, back edges red, latches filled\n"
		   "  --idom    with --dot/--svg: also draw dominator-tree edges (dotted)\n"
		   "  --svg OUT render the picture with dot(1) (one program: use --prog)\n");
}

/* Pipes DOT text through `dot -Tsvg -o out`. */
static int render_svg(const char *dot_text, const char *out)
{
	int fd[2];
	pid_t pid;
	int status;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(fd[0], 0);
		close(fd[0]);
		close(fd[1]);
		execlp("dot", "dot", "-Tsvg", "-o", out, (char *)NULL);
		fprintf(stderr, "bpfscev: cannot run dot (install graphviz): %m\n");
		_exit(127);
	}
	close(fd[0]);
	for (size_t off = 0, n = strlen(dot_text); off < n;) {
		ssize_t w = write(fd[1], dot_text + off, n - off);

		if (w <= 0)
			break;
		off += (size_t)w;
	}
	close(fd[1]);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return 0;
}

int cmd_loops(int argc, char **argv)
{
	const char *file = NULL, *prog = NULL, *svg = NULL;
	bool json = false, dot = false, idom = false;
	const struct ebpf_prog **progs = NULL;
	struct ebpf_object *obj;
	struct sbuf out = SBUF_INIT;
	size_t n = 0;
	int rc = CLI_OK;

	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			loops_usage(stdout);
			return CLI_OK;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--dot")) {
			dot = true;
		} else if (!strcmp(argv[i], "--idom")) {
			idom = true;
		} else if (!strcmp(argv[i], "--prog") && i + 1 < argc) {
			prog = argv[++i];
		} else if (!strcmp(argv[i], "--svg") && i + 1 < argc) {
			svg = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "bpfscev loops: unknown or incomplete option '%s'\n", argv[i]);
			loops_usage(stderr);
			return CLI_USAGE;
		} else if (!file) {
			file = argv[i];
		} else {
			fprintf(stderr, "bpfscev loops: more than one FILE\n");
			return CLI_USAGE;
		}
	}
	if (!file || (json && (dot || svg))) {
		loops_usage(stderr);
		return CLI_USAGE;
	}
	obj = cli_open(file);
	if (!obj)
		return CLI_USAGE;
	if (cli_select_progs(obj, prog, &progs, &n)) {
		ebpf_object__free(obj);
		return CLI_USAGE;
	}
	if (svg && n != 1) {
		fprintf(stderr, "bpfscev loops: --svg draws one program; %zu selected (use --prog)\n", n);
		rc = CLI_USAGE;
		goto out;
	}
	if (json)
		sbuf_puts(&out, "{\"programs\": [\n  ");
	for (size_t i = 0; i < n; i++) {
		struct scev_structure st;
		struct diag d;
		char msg[1024];

		diag_clear(&d);
		if (scev_structure__build_entry(&st, progs[i]->insns, progs[i]->len,
						ebpf_prog_exc_cb(progs[i]) ?
						ebpf_prog_exc_cb(progs[i])->insn : 0, &d)) {
			diag_format(&d, msg, sizeof(msg));
			fprintf(stderr, "bpfscev loops: %s: %s\n", progs[i]->name, msg);
			rc = CLI_USAGE;
			goto out;
		}
		if (json) {
			if (i)
				sbuf_puts(&out, ",\n  ");
			scev_report_loops_json(&out, progs[i]->name, &st);
		} else if (dot || svg) {
			scev_report_loops_dot(&out, progs[i]->name, &st, idom ? SCEV_DOT_IDOM : 0);
		} else {
			scev_report_loops_text(&out, progs[i]->name, &st);
			/* (an entry of its own: main's BTF decl tag names it) */
			if (ebpf_prog_exc_cb(progs[i]))
				sbuf_printf(&out, "  exception callback %s at %u\n",
					    ebpf_prog_exc_cb(progs[i])->name,
					    ebpf_prog_exc_cb(progs[i])->insn);
		}
		scev_structure__free(&st);
	}
	if (json)
		sbuf_puts(&out, "\n]}\n");
	if (out.oom) {
		fprintf(stderr, "bpfscev loops: out of memory\n");
		rc = CLI_USAGE;
	} else if (svg) {
		if (render_svg(sbuf_cstr(&out), svg)) {
			fprintf(stderr, "bpfscev loops: rendering %s with dot failed\n", svg);
			rc = CLI_USAGE;
		}
	} else {
		fputs(sbuf_cstr(&out), stdout);
	}
out:
	sbuf_free(&out);
	free(progs);
	ebpf_object__free(obj);
	return rc;
}
