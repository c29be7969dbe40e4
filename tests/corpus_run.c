/* Replays one regression-corpus case (fuzz/corpus.h): expectations and oracles.  ctest runs
 * it once per file in corpus/cases/, so a failure names the file. */
#include <stdio.h>

#include "fuzz/corpus.h"

int main(int argc, char **argv)
{
	struct corpus_opts opts = { .sz = sizeof(opts) };
	struct sbuf log = SBUF_INIT;
	int fails = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: corpus_run CASE...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		int r = corpus_run_case(argv[i], &opts, &log);

		fails += r < 0 ? 1 : r;
	}
	fputs(sbuf_cstr(&log), stderr);
	sbuf_free(&log);
	if (!fails)
		printf("%d case(s) pass\n", argc - 1);
	return fails ? 1 : 0;
}
