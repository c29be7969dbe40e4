/* Issue 13 §4's small-program target: the 5-instruction loop of bench_scev
 * (r0 = 0; r1 = 0; r2 = 1000; l: r0 += 3; r1 += 1; if r1 < r2 goto l; exit) analyzed N times by
 * scev_analyze, claims included.  Prints the CPU µs per analysis (user + sys of the process over
 * the N analyses) and the loop's claimed trip, so that one run per build, alternated, compares
 * builds; instructions per analysis come from callgrind, which only the analysis counts:
 *
 *   valgrind --tool=callgrind --toggle-collect=scev_analyze bench_loop5 201
 *
 * (total Ir / 201).  The file builds against issue 13's old tree (5c31576) as well:
 * bench/loop5.sh builds it there and runs both ways.  It is the "/tmp/one_X" harness of the
 * earlier rounds' sections of docs/BENCHMARKS.md, kept in the tree.
 *
 * Usage: bench_loop5 [N]   (default 100000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/prog.h"
#include "scev/scev.h"
#include "util/clock.h"

static const char loop5[] = "r0 = 0\nr1 = 0\nr2 = 1000\nl: r0 += 3\nr1 += 1\n"
			    "if r1 < r2 goto l\nexit\n";

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 100000;
	struct scev_opts so = { .sz = sizeof(so) };
	struct ebpf_object *obj = NULL;
	struct claim_prog cp;
	struct diag d;
	double t0, t1;

	if (n < 1) {
		fprintf(stderr, "usage: bench_loop5 [N]   (N >= 1 analyses)\n");
		return 2;
	}
	diag_clear(&d);
	if (ebpf_object__open_mem(&obj, loop5, strlen(loop5), "loop5", &d)) {
		fprintf(stderr, "%s\n", d.msg);
		return 1;
	}
	t0 = cpu_s();
	for (long k = 0; k < n; k++) {
		if (scev_analyze(&cp, &obj->progs[0], NULL, 0, &so, &d)) {
			fprintf(stderr, "analysis %ld: %s\n", k, d.msg);
			ebpf_object__free(obj);
			return 1;
		}
		if (k < n - 1)
			claim_prog__free(&cp);
	}
	t1 = cpu_s();
	printf("%ld analyses, %.3f CPU µs per analysis, loop trip %s %llu..%llu\n", n,
	       1e6 * (t1 - t0) / (double)n,
	       cp.nloops && cp.loops[0].trip.kind == TRIP_EXACT ? "exact" : "bounded",
	       cp.nloops ? (unsigned long long)cp.loops[0].trip.min : 0ull,
	       cp.nloops ? (unsigned long long)cp.loops[0].trip.max : 0ull);
	claim_prog__free(&cp);
	ebpf_object__free(obj);
	return 0;
}
