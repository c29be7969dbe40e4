/* Campaign throughput: generated programs analyzed and checked per second on one core, with
 * the time split between generating, analyzing and checking.
 *
 * Each configuration runs a campaign in this process (what `bpfscev fuzz --jobs 0` does: same
 * seeds, same oracle settings, findings counted but not saved) and, for the default settings,
 * also with one worker process (`--jobs 1`, the default of the command: the isolation costs a
 * process and a message per program).  Programs per CPU-second use the process CPU time, so
 * time spent descheduled on a shared machine does not count; wall-clock rates are printed
 * beside them.  Output is a markdown table for docs/BENCHMARKS.md.
 *
 * Usage: bench_campaign [PROGRAMS]   (default 20000 per configuration)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "fuzz/campaign.h"
#include "util/clock.h"
#include "util/heap.h"

/* CPU of this process and its finished children (the worker, for --jobs 1). */
static double cpu_all_s(void)
{
	struct rusage self, kids;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	return self.ru_utime.tv_sec + self.ru_stime.tv_sec + kids.ru_utime.tv_sec +
	       kids.ru_stime.tv_sec + (self.ru_utime.tv_usec + self.ru_stime.tv_usec +
				       kids.ru_utime.tv_usec + kids.ru_stime.tv_usec) * 1e-6;
}

static void run(uint64_t n, uint32_t inputs, uint64_t steps, unsigned jobs)
{
	struct fuzz_opts o = { .sz = sizeof(o), .seed = 1, .count = n, .jobs = jobs,
			       .oracle_runs = inputs, .step_budget = steps };
	struct fuzz_stats st;
	struct diag d;
	double w0 = wall_s(), c0 = cpu_all_s(), w, c, phases;

	if (fuzz_campaign(&st, &o, &d)) {
		fprintf(stderr, "bench_campaign: %s\n", d.msg);
		exit(1);
	}
	w = wall_s() - w0;
	c = cpu_all_s() - c0;
	phases = st.t_gen + st.t_analyze + st.t_check;
	printf("| %u x %" PRIu64 "%s | %s | %" PRIu64 " | %.0f | %.0f | %.1f | %.1f | %.1f | %.1f | "
	       "%.1f | %" PRIu64 " |\n", inputs, steps,
	       inputs == FUZZ_DEFAULT_RUNS && steps == FUZZ_DEFAULT_STEPS ? " (default)" : "",
	       jobs ? "1 worker" : "in process", st.programs, st.programs / c, st.programs / w,
	       st.t_gen / st.programs * 1e6, st.t_analyze / st.programs * 1e6,
	       st.t_check / st.programs * 1e6, (c - phases) / st.programs * 1e6,
	       (double)st.claims_checked / st.programs, fuzz_stats_findings(&st));
	fflush(stdout);
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : 20000;

	heap_tune();
	printf("| inputs x steps | process | programs | programs per cpu-s | programs per wall-s | "
	       "generate us | analyze us | check us | other us | claim checks per program | "
	       "findings |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (unsigned inputs = 1; inputs <= 3; inputs++)
		run(n, inputs, 10000, 0);
	run(n, FUZZ_DEFAULT_RUNS, FUZZ_DEFAULT_STEPS, 1);
	run(n, 6, 20000, 0);
	return 0;
}
