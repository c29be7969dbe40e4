/* Replays one regression-corpus case (fuzz/corpus.h): expectations and oracles, the concrete
 * one and Z3 under its default resource limit (so the verdicts are the same on any machine).
 * ctest runs it once per file in corpus/cases/, so a failure names the file; what Z3 left
 * undecided is printed, not failed. */
#include <inttypes.h>
#include <stdio.h>

#include "fuzz/corpus.h"

int main(int argc, char **argv)
{
	struct corpus_opts opts = { .sz = sizeof(opts), .use_z3 = true };
	struct corpus_stats st = { 0 };
	struct sbuf log = SBUF_INIT;
	int fails = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: corpus_run CASE...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		int r = corpus_replay(argv[i], &opts, &log, &st);

		fails += r < 0 ? 1 : r;
	}
	fputs(sbuf_cstr(&log), stderr);
	sbuf_free(&log);
	printf("z3: %" PRIu64 " claim set(s), %" PRIu64 " claims: %" PRIu64 " proved, %" PRIu64
	       " refuted, %" PRIu64 " unknown (%" PRIu64 " resource units)\n", st.z3_programs,
	       st.z3_claims, st.z3_proved, st.z3_refuted, st.z3_unknown, st.z3_rlimit);
	if (!fails)
		printf("%d case(s) pass\n", argc - 1);
	return fails ? 1 : 0;
}
