/* The first pass reads no loop summary: they are computed after it, from what it found (since
 * a5af097 nothing computes them before it), so a read there would see an empty summary.
 * scev_sum (scev/internal.h), through which every summary is read, stops a debug build at such
 * a read.  Checked two ways: a read with first_pass set stops a child process, a read after it
 * does not; and generated programs with nests, irreducible cycles, subprograms, calls,
 * bpf_loop and open-coded iterators are analyzed (both strategies) and verified in this build
 * to the end — a first-pass path that reads a summary aborts this test. */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "generators/gen.h"
#include "generators/producer.h"
#include "scev/internal.h"
#include "scev/scev.h"
#include "tests/check.h"

/* How a child that reads loop 0's summary ends: its exit status (0 when the read returned), or
 * 128 + the signal that ended it. */
static int read_in_child(bool first_pass)
{
	static struct scev_ctx cx;
	static struct scev_loops lf = { .nloops = 1 };
	static struct sym_summary sum;
	int status = 0;
	pid_t pid;

	cx.st.loops = &lf;
	cx.sums = &sum;
	cx.first_pass = first_pass;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, 2);	/* (the assertion's message) */
		_exit(scev_sum(&cx, 0) == &sum ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

static void guard(void)
{
	int r;

	r = read_in_child(true);
	CHECK(r == 128 + SIGABRT, "a summary read in the first pass: the child ended with %d, "
	      "not SIGABRT", r);
	r = read_in_child(false);
	CHECK(r == 0, "a summary read after the first pass: the child ended with %d", r);
}

static const struct {
	const char *knob;
	uint32_t value;
} mixes[][3] = {
	{ { "p_nest", 80 }, { "p_irreducible", 30 } },
	{ { "p_irreducible", 60 }, { "p_call", 40 } },
	{ { "p_subprog", 60 }, { "p_nest", 50 } },
	{ { "p_bpf_loop", 60 }, { "p_nest", 40 } },
	{ { "p_iter_num", 60 }, { "p_nest", 40 } },
};

static void analyses(void)
{
	uint32_t loops = 0, programs = 0;

	for (size_t m = 0; m < sizeof(mixes) / sizeof(mixes[0]); m++) {
		struct gen_knobs k = gen_knobs_default();

		for (int j = 0; j < 3 && mixes[m][j].knob; j++)
			CHECK(!gen_knobs_set(&k, mixes[m][j].knob, mixes[m][j].value), "knob %s",
			      mixes[m][j].knob);
		for (uint64_t seed = 1; seed <= 40; seed++) {
			struct gen_program gp = { 0 };
			struct ebpf_prog view;
			struct gen_src src;

			gen_src_init_seed(&src, seed * 131 + m);
			if (gen_program(&gp, &src, &k)) {
				gen_program__free(&gp);
				continue;
			}
			gen_program__prog(&gp, &view, "first_pass");
			for (int strategy = 0; strategy < 3; strategy++) {
				struct scev_opts o = { .sz = sizeof(o) };
				struct claim_prog cp = { 0 };
				struct scev_verdict v;
				struct diag d;

				diag_clear(&d);
				o.strategy = strategy == 1 ? SCEV_ITERATE : SCEV_FORGET;
				if (strategy < 2)
					CHECK(!scev_analyze(&cp, &view, gp.maps, gp.map_cnt, &o, &d),
					      "seed %llu: %s", (unsigned long long)seed, d.msg);
				else
					CHECK(!scev_verify(&v, &cp, &view, gp.maps, gp.map_cnt, &o,
							   &d), "seed %llu: %s",
					      (unsigned long long)seed, d.msg);
				if (strategy == 0)
					loops += cp.nloops;
				claim_prog__free(&cp);
			}
			gen_program__free(&gp);
			programs++;
		}
	}
	/* (the programs must have loops for their summaries to be read at all) */
	CHECK(programs > 150 && loops > 300, "%u programs, %u loops", programs, loops);
}

int main(void)
{
#ifdef NDEBUG
	printf("SKIP: built with NDEBUG: scev_sum does not check the pass\n");
	return 77;
#endif
	guard();
	analyses();
	return check_done("test_sum_first_pass");
}
