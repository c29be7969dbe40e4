/* bpfscev corpus: the soundness regression corpus — add a finding as a case, or run cases. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "fuzz/corpus.h"

/* Runs one case, or every *.case of a directory.  Returns the failures, or -1 when a case cannot
 * be read or is malformed, or when a directory holds no case (after a message). */
static int run_path(const char *path, const struct corpus_opts *o, struct sbuf *log,
		    struct corpus_stats *st, int *ncases)
{
	char **names = NULL, file[4096];
	struct stat sb;
	long n;
	int fails = 0, bad = 0;

	if (stat(path, &sb) || !S_ISDIR(sb.st_mode)) {
		int r = corpus_replay(path, o, log, st);

		++*ncases;
		return r < 0 ? -1 : r;
	}
	if ((n = corpus_list_cases(path, &names)) <= 0) {
		sbuf_printf(log, "%s: %s\n", path, n ? strerror((int)-n) : "no *.case files");
		return -1;
	}
	for (long i = 0; i < n; i++) {
		int r;

		snprintf(file, sizeof(file), "%s/%s", path, names[i]);
		r = corpus_replay(file, o, log, st);
		++*ncases;
		if (r < 0)
			bad = 1;
		else
			fails += r;
		free(names[i]);
	}
	free(names);
	return bad ? -1 : fails;
}

static void corpus_usage(FILE *f)
{
	fprintf(f, "usage: bpfscev corpus add DIR [--name NAME] [--cases corpus/cases]\n"
		   "       bpfscev corpus run [--no-z3] [--rlimit N] [--program-rlimit N]\n"
		   "                          CASE|DIR...\n"
		   "  add: turns a finding directory (crashes/<kind>-<hash>/) into a regression case,\n"
		   "       with its reduced program when bpfscev reduce made one.\n"
		   "  run: replays cases: expectations, then every claim through the oracles, the\n"
		   "       concrete one and Z3 (claims Z3 cannot decide are counted, not failed);\n"
		   "       a DIR stands for its *.case files.  Exit 1 when a case fails, 2 when one\n"
		   "       cannot be read or is malformed, or a DIR holds no case.\n"
		   "  --no-z3             the concrete oracle only\n"
		   "  --rlimit N          Z3 resource units per query (default %u)\n"
		   "  --program-rlimit N  Z3 resource units per program and strategy (default %llu);\n"
		   "                      resource limits make the verdicts the same on any machine\n",
		CORPUS_Z3_RLIMIT, (unsigned long long)CORPUS_Z3_PROGRAM_RLIMIT);
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
		struct corpus_opts o = { .sz = sizeof(o), .use_z3 = true };
		struct corpus_stats st = { 0 };
		struct sbuf log = SBUF_INIT;
		int fails = 0, ncases = 0, bad = 0, npaths = 0;
		const char **paths = calloc((size_t)argc, sizeof(*paths));
		uint64_t v;

		if (!paths)
			return CLI_USAGE;
		/* options may stand anywhere among the paths */
		for (int i = 2; i < argc; i++) {
			if (!strcmp(argv[i], "--no-z3")) {
				o.use_z3 = false;
			} else if (!strcmp(argv[i], "--rlimit") && i + 1 < argc) {
				if (cli_parse_u64("corpus run", argv[i], argv[i + 1], 1, UINT32_MAX,
						  &v)) {
					free(paths);
					return CLI_USAGE;
				}
				o.z3_rlimit = (unsigned)v;
				i++;
			} else if (!strcmp(argv[i], "--program-rlimit") && i + 1 < argc) {
				if (cli_parse_u64("corpus run", argv[i], argv[i + 1], 1, UINT64_MAX,
						  &v)) {
					free(paths);
					return CLI_USAGE;
				}
				o.z3_program_rlimit = v;
				i++;
			} else if (argv[i][0] == '-') {
				fprintf(stderr, "bpfscev corpus run: unknown or incomplete option '%s'\n",
					argv[i]);
				corpus_usage(stderr);
				free(paths);
				return CLI_USAGE;
			} else {
				paths[npaths++] = argv[i];
			}
		}
		if (!npaths) {
			corpus_usage(stderr);
			free(paths);
			return CLI_USAGE;
		}
		for (int i = 0; i < npaths; i++) {
			int r = run_path(paths[i], &o, &log, &st, &ncases);

			if (r < 0)
				bad++;
			else
				fails += r;
		}
		free(paths);
		fputs(sbuf_cstr(&log), stderr);
		sbuf_free(&log);
		if (o.use_z3)
			printf("z3: %" PRIu64 " claims: %" PRIu64 " proved, %" PRIu64 " refuted, %" PRIu64
			       " unknown (%" PRIu64 " resource units)\n", st.z3_claims, st.z3_proved,
			       st.z3_refuted, st.z3_unknown, st.z3_rlimit);
		printf("%d case(s), %d failure(s)\n", ncases, fails);
		if (bad) {
			/* what cannot be judged is an input error, whatever the other cases did */
			fprintf(stderr, "bpfscev corpus run: %d input(s) missing, unreadable, "
				"malformed or without cases (above)\n", bad);
			return CLI_USAGE;
		}
		return fails ? CLI_FINDING : CLI_OK;
	}
	corpus_usage(stderr);
	return CLI_USAGE;
}
