/* bpfscev corpus: the soundness regression corpus — add a finding as a case, or run cases. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "fuzz/corpus.h"

static void corpus_usage(FILE *f)
{
	fprintf(f, "usage: bpfscev corpus add DIR [--name NAME] [--cases corpus/cases]\n"
		   "       bpfscev corpus run CASE...\n"
		   "  add: turns a finding directory (crashes/<kind>-<hash>/) into a regression case,\n"
		   "       with its reduced program when bpfscev reduce made one.\n"
		   "  run: replays cases: expectations, then every claim through the oracles.\n");
}

int cmd_corpus(int argc, char **argv)
{
	if (argc < 2 || cli_is_help(argv[1])) {
		corpus_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? CLI_USAGE : CLI_OK;
	}
	if (!strcmp(argv[1], "add")) {
		const char *dir = NULL, *name = NULL, *cases = "corpus/cases";
		char path[1200], msg[1024];
		struct diag d;

		for (int i = 2; i < argc; i++) {
			if (!strcmp(argv[i], "--name") && i + 1 < argc)
				name = argv[++i];
			else if (!strcmp(argv[i], "--cases") && i + 1 < argc)
				cases = argv[++i];
			else if (argv[i][0] != '-' && !dir)
				dir = argv[i];
			else {
				corpus_usage(stderr);
				return CLI_USAGE;
			}
		}
		if (!dir) {
			corpus_usage(stderr);
			return CLI_USAGE;
		}
		diag_clear(&d);
		if (corpus_add_finding(dir, cases, name, path, sizeof(path), &d)) {
			diag_format(&d, msg, sizeof(msg));
			fprintf(stderr, "bpfscev corpus add: %s\n", msg);
			return CLI_USAGE;
		}
		printf("%s\n", path);
		return CLI_OK;
	}
	if (!strcmp(argv[1], "run")) {
		struct corpus_opts o = { .sz = sizeof(o) };
		struct sbuf log = SBUF_INIT;
		int fails = 0;

		for (int i = 2; i < argc; i++) {
			int r = corpus_run_case(argv[i], &o, &log);

			fails += r < 0 ? 1 : r;
		}
		fputs(sbuf_cstr(&log), stderr);
		sbuf_free(&log);
		printf("%d case(s), %d failure(s)\n", argc - 2, fails);
		return fails ? CLI_FINDING : CLI_OK;
	}
	corpus_usage(stderr);
	return CLI_USAGE;
}
