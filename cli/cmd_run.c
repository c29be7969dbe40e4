/* bpfscev run: runs one program on the concrete interpreter and prints r0 (or, with --json,
 * every register, the steps and the trap).  Input comes from --input/--input-file, else from a
 * data file's "-- input" or "-- mem" section.  ELF maps get the interpreter's per-run storage.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "casefile/casefile.h"
#include "cli/cli.h"
#include "oracle/exec/interp.h"
#include "util/json.h"
#include "util/sbuf.h"

static void run_usage(FILE *f)
{
	fputs("usage: bpfscev run FILE [--prog NAME] [--input HEX | --input-file F]\n"
	      "                 [--helper-data HEX] [--ctx plain|xdp|skb] [--steps N] [--json]\n",
	      f);
	fputs("  Runs the program on the interpreter and prints r0 (unsigned decimal) last.\n"
	      "  --input HEX      input bytes (\"00 01 ff\" or \"0001ff\"); default: the file's\n"
	      "                   '-- input' or '-- mem' section, else empty\n"
	      "  --input-file F   input bytes from a file, as they are\n"
	      "  --helper-data HEX  what bpf_get_prandom_u32, bpf_ktime_get_ns, ... return\n"
	      "  --ctx KIND       plain: r1 = input, r2 = length; xdp: struct xdp_md over\n"
	      "                   the input as packet; skb: struct __sk_buff likewise.  Default:\n"
	      "                   plain for text and raw files, the program type's for ELF\n"
	      "  --steps N        step budget (default 100000000)\n"
	      "  --json           {\"program\", \"r0\", \"regs\", \"steps\", \"frame\", \"trap\"}\n"
	      "  Exit: 0 the program exited, 1 it trapped, 2 usage or input error.\n", f);
}

static const char *const trap_names[] = {
	[INTERP_OK] = "ok",
	[INTERP_TRAP_MEM] = "mem",
	[INTERP_TRAP_STEPS] = "steps",
	[INTERP_TRAP_CALL] = "call",
	[INTERP_TRAP_HELPER] = "helper",
	[INTERP_TRAP_LIMIT] = "limit",
	[INTERP_TRAP_REF] = "ref",
	[INTERP_TRAP_RULE] = "rule",
};

static enum interp_ctx_kind ctx_for_type(uint32_t type)
{
	switch (type) {
	case BPF_PROG_TYPE_XDP:
		return INTERP_CTX_XDP;
	case BPF_PROG_TYPE_SOCKET_FILTER:
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_CGROUP_SKB:
		return INTERP_CTX_SKB;
	default:
		return INTERP_CTX_PLAIN;
	}
}

/* Hex bytes from an option (file = "--input") or from a data file's section (file = its path,
 * line0 = the file line of the section's first line), so the error points where to edit. */
static int parse_hex_arg(const char *file, int line0, const char *text, uint8_t **out,
			 size_t *len)
{
	struct diag d;
	char msg[800];

	diag_clear(&d);
	if (ebpf_parse_hex(out, len, text, &d)) {
		diag_set_file(&d, file);
		if (d.line > 0)
			d.line += line0 - 1;
		diag_format(&d, msg, sizeof(msg));
		fprintf(stderr, "bpfscev run: %s\n", msg);
		return -1;
	}
	return 0;
}

static void print_json(const struct ebpf_prog *prog, const struct interp_result *res)
{
	struct sbuf sb = SBUF_INIT;

	sbuf_puts(&sb, "{\"program\": ");
	json_put_string(&sb, prog->name);
	sbuf_printf(&sb, ", \"r0\": %" PRIu64 ", \"regs\": [", res->r0);
	for (int k = 0; k < EBPF_NREGS; k++)
		sbuf_printf(&sb, "%s%" PRIu64, k ? ", " : "", res->regs[k]);
	sbuf_printf(&sb, "], \"steps\": %" PRIu64 ", \"frame\": %u, \"trap\": ", res->steps,
		    res->frame);
	if (res->trap == INTERP_OK) {
		sbuf_puts(&sb, "null");
	} else {
		sbuf_printf(&sb, "{\"kind\": \"%s\", \"pc\": %u, \"reason\": ",
			    trap_names[res->trap], res->trap_pc);
		json_put_string(&sb, res->reason);
		sbuf_puts(&sb, "}");
	}
	sbuf_puts(&sb, "}\n");
	fputs(sbuf_cstr(&sb), stdout);
	sbuf_free(&sb);
}

int cmd_run(int argc, char **argv)
{
	const char *file = NULL, *prog_name = NULL, *input_hex = NULL, *input_file = NULL;
	const char *helper_hex = NULL, *ctx_arg = NULL, *steps_arg = NULL;
	bool json = false;
	struct casefile *cf = NULL;
	struct ebpf_object *obj = NULL;
	const struct ebpf_prog *prog;
	struct interp_code *code = NULL;
	struct interp_map *maps = NULL;
	struct interp_env env;
	struct interp_result res;
	uint8_t *input = NULL, *helper_data = NULL;
	size_t input_len = 0, helper_len = 0;
	struct diag d;
	char msg[1024];
	int rc = CLI_USAGE, err;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (cli_is_help(a)) {
			run_usage(stdout);
			return CLI_OK;
		} else if (!strcmp(a, "--json")) {
			json = true;
		} else if (!strcmp(a, "--prog") && i + 1 < argc) {
			prog_name = argv[++i];
		} else if (!strcmp(a, "--input") && i + 1 < argc) {
			input_hex = argv[++i];
		} else if (!strcmp(a, "--input-file") && i + 1 < argc) {
			input_file = argv[++i];
		} else if (!strcmp(a, "--helper-data") && i + 1 < argc) {
			helper_hex = argv[++i];
		} else if (!strcmp(a, "--ctx") && i + 1 < argc) {
			ctx_arg = argv[++i];
		} else if (!strcmp(a, "--steps") && i + 1 < argc) {
			steps_arg = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "bpfscev run: unknown or incomplete option '%s'\n", a);
			run_usage(stderr);
			return CLI_USAGE;
		} else if (!file) {
			file = a;
		} else {
			fprintf(stderr, "bpfscev run: more than one FILE\n");
			return CLI_USAGE;
		}
	}
	if (!file || (input_hex && input_file)) {
		run_usage(stderr);
		return CLI_USAGE;
	}
	memset(&env, 0, sizeof(env));
	if (steps_arg &&
	    cli_parse_u64("run", "--steps", steps_arg, 1, UINT64_MAX, &env.step_budget))
		return CLI_USAGE;
	if (ctx_arg && strcmp(ctx_arg, "plain") && strcmp(ctx_arg, "xdp") &&
	    strcmp(ctx_arg, "skb")) {
		fprintf(stderr, "bpfscev run: --ctx is plain, xdp or skb, not '%s'\n", ctx_arg);
		return CLI_USAGE;
	}
	cf = cli_open_case(file);
	if (cf)
		obj = cf->obj;
	if (!obj)
		return CLI_USAGE;
	if (prog_name) {
		prog = ebpf_object__find_prog(obj, prog_name);
		if (!prog) {
			const struct ebpf_prog **unused;
			size_t n;

			cli_select_progs(obj, prog_name, &unused, &n);	/* prints the names */
			goto out;
		}
	} else if (obj->prog_cnt == 1) {
		prog = &obj->progs[0];
	} else {
		fprintf(stderr, "bpfscev run: %s has %zu programs; choose one with --prog:", file,
			obj->prog_cnt);
		for (size_t k = 0; k < obj->prog_cnt; k++)
			fprintf(stderr, " %s", obj->progs[k].name);
		fprintf(stderr, "\n");
		goto out;
	}

	/* input */
	if (input_hex) {
		if (parse_hex_arg("--input", 1, input_hex, &input, &input_len))
			goto out;
	} else if (input_file) {
		char *buf = cli_read_file(input_file, &input_len);

		if (!buf)
			goto out;
		input = (uint8_t *)buf;
	} else {
		const struct casefile_section *sec = casefile__section(cf, "input");

		if (!sec)
			sec = casefile__section(cf, "mem");
		if (sec && parse_hex_arg(file, sec->line, sec->text, &input, &input_len))
			goto out;
	}
	if (helper_hex &&
	    parse_hex_arg("--helper-data", 1, helper_hex, &helper_data, &helper_len))
		goto out;

	/* ELF maps: the interpreter gives each its own zeroed storage on first use */
	if (obj->map_cnt) {
		maps = calloc(obj->map_cnt, sizeof(*maps));
		if (!maps) {
			fprintf(stderr, "bpfscev run: out of memory\n");
			goto out;
		}
		for (size_t k = 0; k < obj->map_cnt; k++)
			maps[k].def = obj->maps[k];
	}
	env.ctx_kind = !ctx_arg ? (obj->format == EBPF_FMT_ELF ? ctx_for_type(prog->prog_type)
								: INTERP_CTX_PLAIN)
		     : !strcmp(ctx_arg, "xdp") ? INTERP_CTX_XDP
		     : !strcmp(ctx_arg, "skb") ? INTERP_CTX_SKB : INTERP_CTX_PLAIN;
	env.prog_type = prog->prog_type;
	env.input = input;
	env.input_len = input_len;
	env.helper_data = helper_data;
	env.helper_len = helper_len;
	env.maps = maps;
	env.map_cnt = obj->map_cnt;

	diag_clear(&d);
	if (interp_prepare(&code, prog, &d)) {
		diag_format(&d, msg, sizeof(msg));
		fprintf(stderr, "bpfscev run: %s: %s\n", prog->name, msg);
		goto out;
	}
	err = interp_run(code, &env, &res);
	if (err) {
		fprintf(stderr, "bpfscev run: %s: %s\n", prog->name, strerror(-err));
		goto out;
	}
	if (json) {
		print_json(prog, &res);
	} else {
		if (res.trap != INTERP_OK)
			fprintf(stderr, "bpfscev run: %s: trap (%s) after %" PRIu64 " steps: %s\n",
				prog->name, trap_names[res.trap], res.steps, res.reason);
		printf("%" PRIu64 "\n", res.r0);
	}
	rc = res.trap == INTERP_OK ? CLI_OK : CLI_FINDING;
out:
	interp_code__free(code);
	free(maps);
	free(input);
	free(helper_data);
	casefile__free(cf);
	return rc;
}
