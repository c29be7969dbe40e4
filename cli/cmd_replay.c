/* bpfscev replay: reproduces a saved finding with the current analyzer (or the claims saved
 * with it) on the saved input.  Exit 1 while the finding still holds, 0 once it is gone: what a
 * regression script or a bisection wants. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "fuzz/replay.h"
#include "triage/finding.h"
#include "oracle/kernel/kernel.h"

static void replay_usage(FILE *f)
{
	fprintf(f, "usage: bpfscev replay DIR [--claims-as-saved] [--reduced] [--inputs N]\n"
		   "                      [--timeout S]\n"
		   "  Rebuilds the finding's program, analyzes it with the current analyzer and runs\n"
		   "  the oracle on the saved input; a crash finding runs the analyzer in a child\n"
		   "  process.  Exit 1 while the same finding still holds, 0 when it is gone.\n"
		   "  --claims-as-saved  check the claims saved with the finding (claims.json)\n"
		   "                     instead of analyzing again: did the oracle change?\n"
		   "  --reduced          replay reduced.bin (bpfscev reduce) instead of prog.bin\n"
		   "  --inputs N         also try N generated inputs and the all-zero one\n"
		   "  --timeout S        analyzer time limit for crash findings (default 5)\n");
}

/* Reads DIR/name as whole instruction slots; NULL (with a message) when it cannot. */
int cmd_replay(int argc, char **argv)
{
	struct replay_opts co = { .sz = sizeof(co), .match = REPLAY_MATCH_EXACT };
	struct replay_verdict v;
	struct reduce_prog reduced = { 0 };
	const char *dir = NULL;
	struct finding f;
	bool use_reduced = false;
	struct diag d;
	char msg[1024];
	int err, rc;

	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			replay_usage(stdout);
			return CLI_OK;
		} else if (!strcmp(argv[i], "--claims-as-saved")) {
			co.saved_claims = true;
		} else if (!strcmp(argv[i], "--reduced")) {
			use_reduced = true;
		} else if (!strcmp(argv[i], "--inputs") && i + 1 < argc) {
			if (cli_parse_u32("replay", "--inputs", argv[++i], 1, 100000000, &co.runs))
				return CLI_USAGE;
			co.zero_input = true;
		} else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) {
			if (cli_parse_double("replay", "--timeout", argv[++i], 0.001, 86400,
					     &co.timeout))
				return CLI_USAGE;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "bpfscev replay: unknown or incomplete option '%s'\n", argv[i]);
			replay_usage(stderr);
			return CLI_USAGE;
		} else if (!dir) {
			dir = argv[i];
		} else {
			fprintf(stderr, "bpfscev replay: more than one DIR\n");
			return CLI_USAGE;
		}
	}
	if (!dir) {
		replay_usage(stderr);
		return CLI_USAGE;
	}
	if (use_reduced && co.saved_claims) {
		fprintf(stderr, "bpfscev replay: the saved claims are about prog.bin, not reduced.bin\n");
		return CLI_USAGE;
	}
	if (finding__load(&f, dir, &d)) {
		diag_format(&d, msg, sizeof(msg));
		fprintf(stderr, "bpfscev replay: %s\n", msg);
		return CLI_USAGE;
	}
	if (use_reduced) {
		if (finding__read_program(dir, "reduced", &reduced.insns, &reduced.len,
					  &reduced.globals, &reduced.nglobals, &d)) {
			diag_format(&d, msg, sizeof(msg));
			fprintf(stderr, "bpfscev replay: %s\n", msg);
			finding__free(&f);
			return CLI_USAGE;
		}
		/* pcs moved: the same kind of failure of the same kind of claim is the finding */
		co.match = REPLAY_MATCH_CORE;
		co.zero_input = true;
	}
	printf("finding %s-%016llx (%s, from %s)\n  saved:    %s\n", finding_kind_name(f.kind),
	       (unsigned long long)f.sig.full, use_reduced ? "reduced program" : "program",
	       f.source[0] ? f.source : "?", f.text);
	err = replay_check(&f, use_reduced ? &reduced : NULL, &co, &v);
	if (err) {
		fprintf(stderr, "bpfscev replay: %s\n", strerror(-err));
		rc = CLI_USAGE;
	} else if (v.skipped) {
		printf("  skipped: %s\n", v.text);
		rc = CLI_USAGE;
	} else if (v.holds) {
		printf("  observed: %s\n  still holds%s\n", v.text,
		       f.kind == FIND_CRASH ? "" : v.input ? " on the saved input" :
		       " (on another input)");
		rc = CLI_FINDING;
	} else {
		printf("  observed: %s\n  gone: the finding does not hold any more\n", v.text);
		rc = CLI_OK;
	}
	reduce_prog__free(&reduced);
	finding__free(&f);
	return rc;
}
