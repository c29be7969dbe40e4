/* bpfscev fuzz: the campaign — generate loop programs, analyze them, check every claim, save
 * what fails.  A thin shell over fuzz_campaign(): options, Ctrl-C, the progress line and the
 * summary. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "fuzz/campaign.h"
#include "oracle/kernel/kernel.h"

static void fuzz_usage(FILE *f)
{
	fprintf(f,
		"usage: bpfscev fuzz [--time S | --runs N] [--seed N] [--jobs N] [--crashes DIR]\n"
		"                    [--resume] [--first N] [--inputs N] [--steps N] [--timeout S]\n"
		"                    [--strategy forget|iterate] [--knob NAME=VALUE]... [--quiet]\n"
		"                    [--z3 [--z3-timeout MS] [--z3-budget S] [--z3-rlimit N]\n"
		"                    [--z3-program-rlimit N]] [--kernel]\n"
		"  Generates loop programs, analyzes each one and checks every claim in the\n"
		"  interpreter; each claim that fails and each analyzer crash or hang is saved as a\n"
		"  finding directory in DIR (default ./crashes), once per signature.  Without\n"
		"  --time or --runs it runs for 20 seconds.  Exit 1 when there were findings.\n"
		"  --time S       stop after S seconds (programs in flight are finished)\n"
		"  --runs N       the campaign is N programs (numbers FIRST..FIRST+N-1)\n"
		"  --seed N       campaign seed (default 1): program i depends on (seed, i) only\n"
		"  --jobs N       worker processes (default 1); 0 runs in this process, without\n"
		"                 crash and hang isolation\n"
		"  --resume       continue the campaign recorded in DIR/campaign.state (after\n"
		"                 Ctrl-C or a kill); its seed, knobs and oracle settings apply\n"
		"  --inputs N     inputs the oracle runs per program (default %d)\n"
		"  --steps N      instruction budget per run (default %d)\n"
		"  --timeout S    analyzer CPU-time limit per program (default 2): a hang finding\n"
		"  --strategy S   the analyzer's strategy for loop-carried values (default forget)\n"
		"  --knob N=V     a generator knob (bpfscev fuzz --knobs lists them)\n"
		"  --knobs        list the generator knobs and exit\n"
		"  --quiet        no progress line\n"
		"  --z3           also decide every claim with the Z3 oracle: proved, refuted (a\n"
		"                 counterexample the interpreter confirms: a finding) or unknown\n"
		"  --z3-timeout MS  per solver query (default 500)\n"
		"  --z3-budget S  Z3 time per program (default 2); what is left is unknown\n"
		"  --z3-rlimit N  Z3 resource units per query, --z3-program-rlimit N per program:\n"
		"                 verdicts that are the same on every machine, however loaded\n"
		"                 (the time limits are then only a safety net, unless given)\n"
		"  --kernel       also ask the running kernel: bpfscev verify's verdict against the\n"
		"                 verifier's (both accept, both reject, improvement, regression,\n"
		"                 rule gap: called safe, refused by none of the kernel's limits, a\n"
		"                 finding; disagreements saved in DIR/verdicts/ with both logs), the\n"
		"                 verifier's logged ranges checked as claims, r0 against\n"
		"                 BPF_PROG_TEST_RUN; skipped with one line where bpf() is refused\n"
		"  --unprivileged with --kernel: verdicts by the unprivileged loader's rule (a read\n"
		"                 of stack bytes not written on every path is unsafe), the kernel\n"
		"                 asked as that loader (CAP_BPF without CAP_PERFMON; its own\n"
		"                 Spectre and pointer-leak refusals and the tracing types it cannot\n"
		"                 load counted apart); by default the privileged kernel's, as root\n"
		"                 loads (such a read is allowed and the runs draw the bytes), as\n"
		"                 bpfscev verify\n",
		FUZZ_DEFAULT_RUNS, FUZZ_DEFAULT_STEPS);
}

/* A whole number in [lo, hi], decimal or 0x hex, and nothing else: strtoull alone takes ""
 * as 0 and "-1" as 2^64 - 1. */
static bool arg_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return false;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

/* A number of seconds above 0 (finite). */
static bool arg_f64(const char *s, double *out)
{
	double v;
	char *end;

	if (!isdigit((unsigned char)s[0]) && s[0] != '.')
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v <= 0)
		return false;
	*out = v;
	return true;
}

static int bad_value(const char *opt, const char *val, const char *want)
{
	fprintf(stderr, "bpfscev fuzz: %s '%s': expected %s\n", opt, val, want);
	return CLI_USAGE;
}

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	if (stop_flag < 2)
		stop_flag++;
}

struct ui {
	bool tty, quiet, line_shown;
	double last_line;
};

static void fmt_count(char *buf, size_t n, uint64_t v)
{
	if (v >= 10000000000ull)
		snprintf(buf, n, "%.1fG", v / 1e9);
	else if (v >= 10000000)
		snprintf(buf, n, "%.1fM", v / 1e6);
	else
		snprintf(buf, n, "%" PRIu64, v);
}

static void progress(void *arg, const struct fuzz_stats *st)
{
	struct ui *ui = arg;
	double rate = st->session_seconds > 0 ? st->session_programs / st->session_seconds : 0;
	char checks[32];

	if (ui->quiet)
		return;
	/* not a terminal (a log, CI): one line every 10 s instead of a redrawn one */
	if (!ui->tty && st->session_seconds - ui->last_line < 10)
		return;
	ui->last_line = st->session_seconds;
	fmt_count(checks, sizeof(checks), st->claims_checked);
	fprintf(stderr, "%s[%6.1fs] %" PRIu64 " programs (%.0f/s), %" PRIu64 " loops, %s claims "
		"checked, %" PRIu64 " findings (%" PRIu64 " saved)%s", ui->tty ? "\r" : "",
		st->session_seconds, st->programs, rate, st->loops, checks, fuzz_stats_findings(st),
		fuzz_stats_saved(st), ui->tty ? "\033[K" : "\n");
	ui->line_shown = ui->tty;
}

static void on_finding(void *arg, const struct finding *f, enum finding_save_result res,
		       const char *path)
{
	struct ui *ui = arg;

	if (res != FINDING_NEW && res != FINDING_REPLACED)
		return;
	if (ui->line_shown)
		fputs("\r\033[K", stderr);
	fprintf(stderr, "%s finding: %s\n  %s\n", res == FINDING_NEW ? "new" : "earlier",
		path[0] ? path : finding_kind_name(f->kind), f->text);
}

static void print_knobs(void)
{
	const char *name, *what;
	uint32_t def;

	printf("generator knobs (--knob NAME=VALUE; probabilities in percent):\n");
	for (size_t i = 0; gen_knob_info(i, &name, &def, &what); i++)
		printf("  %-18s %6u  %s\n", name, def, what);
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * a / b : 0;
}

static void summary(const struct fuzz_stats *st, const struct fuzz_opts *o, const char *dir)
{
	double rate = st->session_seconds > 0 ? st->session_programs / st->session_seconds : 0;
	double cpu = st->t_gen + st->t_analyze + st->t_check;
	uint64_t total = fuzz_stats_findings(st);

	printf("bpfscev fuzz: seed %" PRIu64 ", programs %" PRIu64 "..%" PRIu64 "%s, %.1f s, %.0f "
	       "programs/s (%u %s)\n", st->seed, st->first, st->next ? st->next - 1 : 0,
	       st->done_extra ? " and some after" : "", st->session_seconds, rate,
	       o->jobs ? o->jobs : 1, o->jobs ? (o->jobs == 1 ? "worker" : "workers") :
	       "process, not isolated");
	printf("  programs        %" PRIu64, st->programs);
	if (st->gen_failures)
		printf(" (and %" PRIu64 " seeds the generator refused)", st->gen_failures);
	printf("\n  loops           %" PRIu64 ": finite bound %.1f%%, exact %.1f%%\n", st->loops,
	       pct(st->loops_bounded, st->loops), pct(st->loops_exact, st->loops));
	if (st->loops_entered)
		printf("  loops that ran  %" PRIu64 ": finite bound %.1f%% (the runs entered them; "
		       "dead code's loops, which no run enters, are left out)\n", st->loops_entered,
		       pct(st->loops_ran, st->loops_entered));
	if (st->loops_ran)
		printf("  max/observed    median %.2f over %" PRIu64 " bounded loops that ran "
		       "(claimed maximum / most header executions seen)\n",
		       fuzz_stats_median_ratio(st), st->loops_ran);
	printf("  claims checked  %" PRIu64 " in %" PRIu64 " runs (%.1f%% stopped by a trap or the "
	       "step budget)\n", st->claims_checked, st->runs, pct(st->traps, st->runs));
	if (cpu > 0)
		printf("  cpu             generate %.0f%%, analyze %.0f%%, check %.0f%% (%.0f "
		       "programs per cpu-second)\n", pct(st->t_gen * 1e6, cpu * 1e6),
		       pct(st->t_analyze * 1e6, cpu * 1e6), pct(st->t_check * 1e6, cpu * 1e6),
		       st->programs / cpu);
	printf("  findings        %" PRIu64, total);
	if (total) {
		const char *sep = ": ";

		for (int k = 0; k < FUZZ_KINDS; k++) {
			if (!st->found[k])
				continue;
			printf("%s%s %" PRIu64 " (%" PRIu64 " signatures saved)", sep,
			       finding_kind_name(k), st->found[k], st->saved[k]);
			sep = ", ";
		}
	}
	printf("\n");
	for (unsigned i = 0; i < pipeline_oracle_count(); i++) {	/* each oracle's lines */
		const struct oracle_ops *op = pipeline_oracle(i);
		struct sbuf sb = SBUF_INIT;

		if (!op->summary)
			continue;
		op->summary(&sb, st->oracle_stats + pipeline_stat_offset(i), st->t_oracles[i], dir,
			    st->disagreements_saved);
		fputs(sbuf_cstr(&sb), stdout);
		sbuf_free(&sb);
	}
	if (st->unconfirmed)
		printf("  worker deaths   %" PRIu64 " that did not happen again alone (not saved)\n",
		       st->unconfirmed);
	if (dir && total)
		printf("  saved in        %s/ ('bpfscev replay DIR' reproduces one, 'bpfscev reduce "
		       "DIR' shrinks it)\n", dir);
	if (dir && (!o->count || st->next < o->first + o->count))
		printf("  resume with     bpfscev fuzz --resume --crashes %s\n", dir);
}

int cmd_fuzz(int argc, char **argv)
{
	struct fuzz_opts o = { .sz = sizeof(o), .seed = 1, .jobs = 1, .crashes = "crashes" };
	struct gen_knobs knobs = gen_knobs_default();
	struct ui ui = { .tty = isatty(2) };
	struct sigaction sa = { 0 }, old_int, old_term;
	struct fuzz_stats st;
	bool have_time = false, have_runs = false;
	uint64_t v;
	struct diag d;
	char msg[1024];
	int err;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool more = i + 1 < argc;

		if (cli_is_help(a)) {
			fuzz_usage(stdout);
			return CLI_OK;
		} else if (!strcmp(a, "--knobs")) {
			print_knobs();
			return CLI_OK;
		} else if (!strcmp(a, "--time") && more) {
			if (!arg_f64(argv[++i], &o.seconds))
				return bad_value(a, argv[i], "a number of seconds above 0");
			have_time = true;
		} else if (!strcmp(a, "--runs") && more) {
			/* 0 would be a campaign without end: that is what leaving --runs out is */
			if (!arg_u64(argv[++i], 1, UINT64_MAX, &o.count))
				return bad_value(a, argv[i], "a whole number of programs from 1");
			have_runs = true;
		} else if (!strcmp(a, "--seed") && more) {
			if (!arg_u64(argv[++i], 0, UINT64_MAX, &o.seed))
				return bad_value(a, argv[i], "a whole number");
		} else if (!strcmp(a, "--first") && more) {
			if (!arg_u64(argv[++i], 0, UINT64_MAX, &o.first))
				return bad_value(a, argv[i], "a whole number");
		} else if (!strcmp(a, "--jobs") && more) {
			if (!arg_u64(argv[++i], 0, 256, &v))
				return bad_value(a, argv[i], "a whole number from 0 to 256");
			o.jobs = (unsigned)v;
		} else if (!strcmp(a, "--crashes") && more) {
			o.crashes = argv[++i];
		} else if (!strcmp(a, "--resume")) {
			o.resume = true;
		} else if (!strcmp(a, "--inputs") && more) {
			if (!arg_u64(argv[++i], 1, UINT32_MAX, &v))
				return bad_value(a, argv[i], "a whole number of inputs from 1");
			o.oracle_runs = (uint32_t)v;
		} else if (!strcmp(a, "--steps") && more) {
			if (!arg_u64(argv[++i], 1, UINT64_MAX, &o.step_budget))
				return bad_value(a, argv[i], "a count of instructions from 1");
		} else if (!strcmp(a, "--timeout") && more) {
			if (!arg_f64(argv[++i], &o.timeout))
				return bad_value(a, argv[i], "a number of seconds above 0");
		} else if (!strcmp(a, "--strategy") && more) {
			i++;
			if (!strcmp(argv[i], "forget"))
				o.strategy = SCEV_FORGET;
			else if (!strcmp(argv[i], "iterate"))
				o.strategy = SCEV_ITERATE;
			else
				return bad_value(a, argv[i], "forget or iterate");
		} else if (!strcmp(a, "--knob") && more) {
			char *eq = strchr(argv[++i], '='), name[64];

			if (!eq || !arg_u64(eq + 1, 0, UINT32_MAX, &v))
				return bad_value(a, argv[i], "NAME=VALUE, a whole number");
			snprintf(name, sizeof(name), "%.*s", (int)(eq - argv[i]), argv[i]);
			if ((err = gen_knobs_set(&knobs, name, (uint32_t)v))) {
				fprintf(stderr, "bpfscev fuzz: --knob %s: %s\n", argv[i],
					err == -ENOENT ? "unknown knob (see --knobs)" :
							 "value out of range");
				return CLI_USAGE;
			}
		} else if (!strcmp(a, "--quiet")) {
			ui.quiet = true;
		} else if (!strcmp(a, "--z3")) {
			o.z3 = true;
		} else if (!strcmp(a, "--z3-timeout") && more) {
			if (!arg_u64(argv[++i], 1, UINT32_MAX, &v))
				return bad_value(a, argv[i], "milliseconds, a whole number from 1");
			o.z3_timeout_ms = (unsigned)v;
		} else if (!strcmp(a, "--z3-budget") && more) {
			if (!arg_f64(argv[++i], &o.z3_budget))
				return bad_value(a, argv[i], "a number of seconds above 0");
		} else if (!strcmp(a, "--z3-rlimit") && more) {
			if (!arg_u64(argv[++i], 1, UINT32_MAX, &v))
				return bad_value(a, argv[i], "resource units, from 1");
			o.z3_rlimit = (unsigned)v;
		} else if (!strcmp(a, "--z3-program-rlimit") && more) {
			if (!arg_u64(argv[++i], 1, UINT64_MAX, &o.z3_program_rlimit))
				return bad_value(a, argv[i], "resource units, from 1");
		} else if (!strcmp(a, "--kernel")) {
			o.kernel = true;
		} else if (!strcmp(a, "--unprivileged")) {
			o.unprivileged = true;
		} else {
			fprintf(stderr, "bpfscev fuzz: unknown or incomplete option '%s'\n", a);
			fuzz_usage(stderr);
			return CLI_USAGE;
		}
	}
	if (have_time && have_runs) {
		fprintf(stderr, "bpfscev fuzz: --time and --runs exclude each other\n");
		return CLI_USAGE;
	}
	if (!have_time && !have_runs && !o.resume)
		o.seconds = 20;
	if (o.kernel) {
		char why[256];

		if (!kernel_available(why, sizeof(why))) {
			fprintf(stderr, "bpfscev fuzz: --kernel skipped: %s\n", why);
			o.kernel = false;
		}
	}
	o.knobs = &knobs;
	o.progress = progress;
	o.on_finding = on_finding;
	o.arg = &ui;
	o.stop = &stop_flag;
	{
		/* replay.sh names this very binary (BPFSCEV overrides it) */
		static char self[4096];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

		if (n > 0) {
			self[n] = '\0';
			o.replay_cmd = self;
		}
	}
	sa.sa_handler = on_signal;	/* no SA_RESTART: poll must wake up */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	diag_clear(&d);
	err = fuzz_campaign(&st, &o, &d);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (ui.line_shown)
		fputs("\r\033[K", stderr);
	if (stop_flag)
		fprintf(stderr, "bpfscev fuzz: interrupted; the state is saved\n");
	if (err) {
		diag_format(&d, msg, sizeof(msg));
		fprintf(stderr, "bpfscev fuzz: %s\n", msg);
		if (!st.programs)
			return CLI_USAGE;
	}
	summary(&st, &o, o.crashes);
	if (err)
		return CLI_USAGE;
	return fuzz_stats_findings(&st) ? CLI_FINDING : CLI_OK;
}
