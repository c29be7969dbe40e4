/* Interpreter speed on a loop-heavy program, against the kernel running the same program.
 *
 * The program is   r0 = 0; r1 = 0; l: r0 += 3; r1 += 1; if r1 < N goto l; exit   (3N + 3
 * instructions executed).  For each N it reports the interpreter's ns per executed instruction
 * (thread CPU time, best of several runs, so a scheduling hiccup does not count) and, where the
 * kernel accepts the program (the verifier walks every iteration: about 333,000 is its limit for
 * this body), the kernel's ns per instruction through BPF_PROG_TEST_RUN of a socket filter with
 * repeat (JIT when enabled; the kernel's own per-repeat duration, best of 5).  Output is a
 * markdown table for docs/BENCHMARKS.md.
 *
 * Usage: bench_interp [N...]   (default 300000 1000000 10000000)
 */
#include <bpf/bpf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bpf/prog.h"
#include "oracle/exec/interp.h"
#include "util/clock.h"
#include "util/heap.h"

#define INSN(c, d, s, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
						.off = (o), .imm = (i) })

static void loop_prog(struct bpf_insn p[6], int32_t n)
{
	p[0] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0);
	p[1] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 0);
	p[2] = INSN(BPF_ALU64 | BPF_ADD | BPF_K, 0, 0, 0, 3);
	p[3] = INSN(BPF_ALU64 | BPF_ADD | BPF_K, 1, 0, 0, 1);
	p[4] = INSN(BPF_JMP | BPF_JLT | BPF_K, 1, 0, -3, n);
	p[5] = INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

/* Thread CPU time: on a shared machine, time spent descheduled is not the interpreter's. */
static void count_visit(void *arg, const struct interp_state *st, uint32_t pc)
{
	(void)st;
	(void)pc;
	(*(uint64_t *)arg)++;
}

/* Best ns/insn of `reps` runs; 0 on error.  hooked: a probe on the loop header (pc 2), the way
 * the oracles record values at loop headers. */
static double bench_interp(int32_t n, int reps, bool hooked, uint64_t *steps_out,
			   uint64_t *r0_out)
{
	uint8_t probes[6] = { 0, 0, 1, 0, 0, 0 };
	uint64_t visits = 0;
	struct bpf_insn p[6];
	struct ebpf_object *obj = NULL;
	struct interp_code *code = NULL;
	struct interp_env env;
	struct interp_result res;
	struct diag d;
	double best = 0;

	loop_prog(p, n);
	diag_clear(&d);
	if (ebpf_object__from_insns(&obj, p, 6, "loop", &d) ||
	    interp_prepare(&code, &obj->progs[0], &d)) {
		fprintf(stderr, "bench_interp: %s\n", d.msg);
		ebpf_object__free(obj);
		return 0;
	}
	memset(&env, 0, sizeof(env));
	env.step_budget = UINT64_MAX;
	if (hooked) {
		env.probes = probes;
		env.visit = count_visit;
		env.arg = &visits;
	}
	for (int k = 0; k < reps; k++) {
		double t0 = clock_s(CLOCK_THREAD_CPUTIME_ID), t;

		if (interp_run(code, &env, &res) || res.trap != INTERP_OK) {
			fprintf(stderr, "bench_interp: run failed: %s\n", res.reason);
			best = 0;
			break;
		}
		t = (1e9 * (clock_s(CLOCK_THREAD_CPUTIME_ID) - t0)) / (double)res.steps;
		if (k == 0 || t < best)
			best = t;
	}
	*steps_out = res.steps;
	*r0_out = res.r0;
	interp_code__free(code);
	ebpf_object__free(obj);
	return best;
}

/* Kernel: ns/insn from test_run's duration (per repeat), or a negative errno. */
static double bench_kernel(int32_t n, uint64_t *r0_out, char *why, size_t why_len)
{
	struct bpf_insn p[6];
	uint8_t pkt[64] = { 0 };
	LIBBPF_OPTS(bpf_prog_load_opts, lopts);
	LIBBPF_OPTS(bpf_test_run_opts, topts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = 20);
	double best = 0;
	int fd, err;

	loop_prog(p, n);
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "bench_loop", "GPL", p, 6, &lopts);
	if (fd < 0) {
		snprintf(why, why_len, "load failed: %s", strerror(errno));
		return -errno;
	}
	for (int k = 0; k < 5; k++) {
		err = bpf_prog_test_run_opts(fd, &topts);
		if (err) {
			snprintf(why, why_len, "test_run failed: %s", strerror(errno));
			close(fd);
			return -errno;
		}
		double t = (double)topts.duration / (3.0 * n + 3);

		if (k == 0 || t < best)
			best = t;
	}
	*r0_out = topts.retval;
	close(fd);
	return best;
}

int main(int argc, char **argv)
{
	int32_t def[] = { 300000, 1000000, 10000000 };
	int cnt = argc > 1 ? argc - 1 : 3;

	heap_tune();
	printf("| N | steps | interpreter ns/insn | interpreter, probe on the header | "
	       "kernel ns/insn (BPF_PROG_TEST_RUN) |\n");
	printf("|---:|---:|---:|---:|---:|\n");
	for (int i = 0; i < cnt; i++) {
		int32_t n = argc > 1 ? (int32_t)strtol(argv[i + 1], NULL, 0) : def[i];
		uint64_t steps = 0, r0 = 0, kr0 = 0;
		int reps = n >= 10000000 ? 7 : 20;
		double ti = bench_interp(n, reps, false, &steps, &r0), tk;
		double th = bench_interp(n, reps, true, &steps, &r0);
		char why[128] = "";
		char kcol[160];

		if (r0 != (uint64_t)3 * (uint64_t)n)
			fprintf(stderr, "bench_interp: r0 = %" PRIu64 ", expected %" PRIu64 "\n",
				r0, (uint64_t)3 * (uint64_t)n);
		if (n <= 333000) {
			tk = bench_kernel(n, &kr0, why, sizeof(why));
			if (tk >= 0 && kr0 != (uint32_t)((uint64_t)3 * (uint64_t)n))
				fprintf(stderr, "bench_interp: kernel r0 = %" PRIu64 "\n", kr0);
			if (tk >= 0)
				snprintf(kcol, sizeof(kcol), "%.3f", tk);
			else
				snprintf(kcol, sizeof(kcol), "n/a (%s)", why);
		} else {
			snprintf(kcol, sizeof(kcol), "n/a (verifier limit)");
		}
		printf("| %d | %" PRIu64 " | %.3f | %.3f | %s |\n", n, steps, ti, th, kcol);
	}
	return 0;
}
