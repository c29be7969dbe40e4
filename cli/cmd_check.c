/* bpfscev check: runs a program on many inputs and checks every claim about it — the
 * analyzer's, or claims from a file in the documented format (docs/claims.md). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "oracle/check.h"
#include "scev/scev.h"

static void check_usage(FILE *f)
{
	fprintf(f, "usage: bpfscev check FILE [--prog NAME] [--claims CLAIMS.json] [--runs N]\n"
		   "                     [--seed N] [--input HEX] [--steps N] [--type xdp|socket|tc|plain]\n"
		   "  Runs each program in the interpreter on many inputs (or the one given) and\n"
		   "  checks every range, induction-variable and trip-count claim: the analyzer's,\n"
		   "  or those in CLAIMS.json.  Exit 0 when none is refuted, 1 when one is.\n");
}

int cmd_check(int argc, char **argv)
{
	const char *file = NULL, *prog = NULL, *claims_path = NULL, *input_hex = NULL;
	struct check_opts copts = { .sz = sizeof(copts) };
	struct scev_opts sopts = { .sz = sizeof(sopts) };
	const struct ebpf_prog **progs = NULL;
	struct claims *ext = NULL;
	struct ebpf_object *obj = NULL;
	uint8_t *input = NULL;
	size_t n = 0, findings = 0;
	int rc = CLI_OK;

	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			check_usage(stdout);
			return CLI_OK;
		} else if (!strcmp(argv[i], "--prog") && i + 1 < argc) {
			prog = argv[++i];
		} else if (!strcmp(argv[i], "--claims") && i + 1 < argc) {
			claims_path = argv[++i];
		} else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
			copts.runs = (uint32_t)strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			copts.seed = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--steps") && i + 1 < argc) {
			copts.step_budget = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--input") && i + 1 < argc) {
			input_hex = argv[++i];
		} else if (!strcmp(argv[i], "--type") && i + 1 < argc) {
			sopts.prog_type = cli_prog_type(argv[++i]);
			if (sopts.prog_type == UINT32_MAX) {
				fprintf(stderr, "bpfscev check: unknown --type '%s'\n", argv[i]);
				return CLI_USAGE;
			}
			copts.ctx_kind = (int)check_ctx_kind(sopts.prog_type) + 1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "bpfscev check: unknown or incomplete option '%s'\n", argv[i]);
			check_usage(stderr);
			return CLI_USAGE;
		} else if (!file) {
			file = argv[i];
		} else {
			fprintf(stderr, "bpfscev check: more than one FILE\n");
			return CLI_USAGE;
		}
	}
	if (!file) {
		check_usage(stderr);
		return CLI_USAGE;
	}
	obj = cli_open(file);
	if (!obj)
		return CLI_USAGE;
	if (cli_select_progs(obj, prog, &progs, &n)) {
		rc = CLI_USAGE;
		goto out;
	}
	if (input_hex) {
		struct diag d;
		char msg[512];

		diag_clear(&d);
		if (ebpf_parse_hex(&input, &copts.fixed_len, input_hex, &d)) {
			diag_format(&d, msg, sizeof(msg));
			fprintf(stderr, "bpfscev check: --input: %s\n", msg);
			rc = CLI_USAGE;
			goto out;
		}
		copts.input = input;
	}
	if (claims_path) {
		size_t len;
		char *text = cli_read_file(claims_path, &len), msg[1024];
		struct diag d;

		if (!text) {
			rc = CLI_USAGE;
			goto out;
		}
		diag_clear(&d);
		diag_set_file(&d, claims_path);
		if (claims_read(&ext, text, len, &d)) {
			diag_format(&d, msg, sizeof(msg));
			fprintf(stderr, "bpfscev check: %s\n", msg);
			free(text);
			rc = CLI_USAGE;
			goto out;
		}
		free(text);
	}
	for (size_t i = 0; i < n; i++) {
		struct claim_prog own = { 0 };
		const struct claim_prog *cp = &own;
		struct check_result res;
		struct diag d;
		char msg[1024];
		int err;

		diag_clear(&d);
		if (ext) {
			cp = claims_find_prog(ext, ext->nprogs == 1 ? NULL : progs[i]->name);
			if (!cp) {
				fprintf(stderr, "bpfscev check: %s: no claims for this program\n",
					progs[i]->name);
				continue;
			}
		} else if (scev_analyze(&own, progs[i], obj->maps, obj->map_cnt, &sopts, &d)) {
			diag_format(&d, msg, sizeof(msg));
			fprintf(stderr, "bpfscev check: %s: %s\n", progs[i]->name, msg);
			rc = CLI_USAGE;
			goto out;
		}
		err = oracle_check(&res, obj, progs[i], cp, &copts);
		if (err) {
			fprintf(stderr, "bpfscev check: %s: %s\n", progs[i]->name, strerror(-err));
			claim_prog__free(&own);
			rc = CLI_USAGE;
			goto out;
		}
		printf("%s: %u loops, %u range claims, %" PRIu64 " runs (%" PRIu64 " trapped), %"
		       PRIu64 " checks, %u refuted\n", progs[i]->name, cp->nloops, cp->nranges,
		       res.runs, res.traps, res.checks, res.nfindings);
		for (uint32_t k = 0; k < res.nfindings; k++) {
			const struct check_finding *f = &res.findings[k];

			printf("  FINDING %s: %s\n    input:", finding_kind_name(f->kind), f->text);
			for (size_t b = 0; b < f->input_len; b++)
				printf(" %02x", f->input[b]);
			printf("\n");
		}
		findings += res.nfindings;
		check_result__free(&res);
		claim_prog__free(&own);
	}
	if (findings)
		rc = CLI_FINDING;
out:
	claims__free(ext);
	free(input);
	free(progs);
	ebpf_object__free(obj);
	return rc;
}
