/* The campaign and its oracle, tested as the product depends on them:
 *  1. seeded wrong claims — the analyzer's claims about many generated programs of every shape,
 *     each made wrong by one (a range bound moved past a value the program really produces, a
 *     trip maximum lowered below the longest run, an induction step or start off by one): the
 *     concrete oracle must refute every one on the input that shows it.  The values come from
 *     an observer written here on the interpreter, not from the oracle; the oracle's own trip
 *     counts are held against the generator's statement of intent.
 *  2. a campaign of 10,000 programs (3,000 under the sanitizers) in two worker processes ends
 *     with zero findings (an analyzer soundness bug fails this test: that is the point — the
 *     findings are kept in /tmp);
 *  3. same seed, same result: in process and with two workers, and interrupted then resumed;
 *  4. isolation: an analyzer that crashes or hangs on one program becomes a crash finding of
 *     that program, and a crash that does not happen again alone is not saved.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "casefile/casefile.h"
#include "fuzz/campaign.h"
#include "oracle/exec/interp.h"
#include "oracle/kernel/kernel.h"
#include "triage/verdict.h"
#include "tests/check.h"
#include "util/clock.h"

/* ---- 1. seeded wrong claims ---- */

#define NINPUTS 6
#define STEPS 300000

/* The registry index of the oracle called name (fuzz/pipeline.h). */
static unsigned oracle_index(const char *name)
{
	for (unsigned i = 0; i < pipeline_oracle_count(); i++)
		if (!strcmp(pipeline_oracle(i)->name, name))
			return i;
	CHECK(0, "no oracle %s", name);
	return 0;
}

struct input {
	uint8_t bytes[GEN_INPUT_LEN];
	uint8_t helper[256];
};

static void make_inputs(struct input *in, uint64_t seed)
{
	static const uint8_t fill[4] = { 0x00, 0xff, 0x80, 0x7f };

	for (int k = 0; k < NINPUTS; k++) {
		for (int i = 0; i < GEN_INPUT_LEN; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			in[k].bytes[i] = k < 4 ? fill[k] : (uint8_t)(seed >> 56);
		}
		for (int i = 0; i < 256; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			in[k].helper[i] = k == 0 ? 0 : k == 1 ? 0xff : (uint8_t)(seed >> 56);
		}
	}
}

/* What the observer saw for one range claim: extremes and the inputs that produced them. */
struct seen {
	bool any;
	uint64_t umin, umax;
	int64_t smin, smax;
	int in_umin, in_umax, in_smin, in_smax;
};

struct observer {
	const struct claim_prog *cp;
	uint32_t *off, *idx;	/* claims by pc (CSR) */
	struct seen *seen;
	int input;
};

static void observe(void *arg, const struct interp_state *st, uint32_t pc)
{
	struct observer *ob = arg;
	const uint64_t *regs = interp_state_regs(st);

	for (uint32_t k = ob->off[pc]; k < ob->off[pc + 1]; k++) {
		const struct claim_range *c = &ob->cp->ranges[ob->idx[k]];
		struct seen *s = &ob->seen[ob->idx[k]];
		uint64_t v;

		if (LOC_IS_REG(c->loc))
			v = regs[c->loc];
		else if (interp_state_read(st, regs[EBPF_REG_FP] + (int64_t)LOC_SLOT_OFF(c->loc),
					   LOC_SLOT_SIZE(c->loc), &v))
			continue;
		if (!s->any || v < s->umin) {
			s->umin = v;
			s->in_umin = ob->input;
		}
		if (!s->any || v > s->umax) {
			s->umax = v;
			s->in_umax = ob->input;
		}
		if (!s->any || (int64_t)v < s->smin) {
			s->smin = (int64_t)v;
			s->in_smin = ob->input;
		}
		if (!s->any || (int64_t)v > s->smax) {
			s->smax = (int64_t)v;
			s->in_smax = ob->input;
		}
		s->any = true;
	}
}

struct tally {
	unsigned programs, range_mutants, range_killed, tight, trip_mutants, trip_killed;
	unsigned iv_mutants, iv_killed, gen_trips_checked, unsound;
};

/* Runs the oracle on one input and says whether it refuted claim (kind, index). */
static bool refuted(const struct gen_program *gp, const struct ebpf_prog *view,
		    const struct claim_prog *cp, const struct input *in, uint8_t kind,
		    uint32_t claim, struct check_result *keep)
{
	struct ebpf_object obj = { .maps = (struct ebpf_map_def *)gp->maps, .map_cnt = gp->map_cnt };
	struct check_opts co = { .sz = sizeof(co), .input = in->bytes, .fixed_len = GEN_INPUT_LEN,
				 .helper_data = in->helper, .helper_len = sizeof(in->helper),
				 .step_budget = STEPS };
	struct check_result res;
	bool hit = false;
	int err = oracle_check(&res, &obj, view, cp, &co);

	CHECK(!err, "oracle_check: %d", err);
	if (err)
		return false;
	for (uint32_t i = 0; i < res.nfindings; i++)
		if (res.findings[i].kind == kind && res.findings[i].claim == claim)
			hit = true;
	if (keep)
		*keep = res;
	else
		check_result__free(&res);
	return hit;
}

static void range_mutants(struct tally *t, const struct gen_program *gp,
			  const struct ebpf_prog *view, struct claim_prog *cp,
			  const struct input *in, const struct seen *seen)
{
	/* every claim would take long under ASan: a spread of up to 8 per program */
	uint32_t stride = cp->nranges > 8 ? cp->nranges / 8 : 1;

	for (uint32_t i = 0; i < cp->nranges; i += stride) {
		struct claim_range *c = &cp->ranges[i];
		const struct seen *s = &seen[i];
		struct range saved = c->r;

		if (c->is_ptr || !s->any)
			continue;
		if (c->r.umax == s->umax)
			t->tight++;
		for (int m = 0; m < 4; m++) {
			int which;

			c->r = saved;
			switch (m) {
			case 0:
				if (s->umax == 0)
					continue;
				c->r.umax = s->umax - 1;	/* the largest value seen is now out */
				which = s->in_umax;
				break;
			case 1:
				if (s->umin == UINT64_MAX)
					continue;
				c->r.umin = s->umin + 1;
				which = s->in_umin;
				break;
			case 2:
				if (s->smax == INT64_MIN)
					continue;
				c->r.smax = s->smax - 1;
				which = s->in_smax;
				break;
			default:
				if (s->smin == INT64_MAX)
					continue;
				c->r.smin = s->smin + 1;
				which = s->in_smin;
				break;
			}
			t->range_mutants++;
			if (refuted(gp, view, cp, &in[which], FIND_RANGE, i, NULL))
				t->range_killed++;
			else
				CHECK(0, "range mutant %d of claim %u (pc %u) not refuted", m, i, c->pc);
		}
		c->r = saved;
	}
}

static void loop_mutants(struct tally *t, const struct gen_program *gp,
			 const struct ebpf_prog *view, struct claim_prog *cp, const struct input *in)
{
	uint64_t *most = calloc(cp->nloops + 1, sizeof(*most));
	int *where = calloc(cp->nloops + 1, sizeof(*where));
	bool trapped = false;

	/* the oracle's own trip counts per input, with the true claims (no findings wanted) */
	for (int k = 0; k < NINPUTS; k++) {
		struct check_result res;

		refuted(gp, view, cp, &in[k], 0xff, 0, &res);
		/* the analyzer's own mistakes are the big campaign's business; here they are
		 * only counted (a mutant of a wrong claim is still refuted) */
		if (res.nfindings && !t->unsound++)
			printf("note: the analyzer's own claim refuted: %s\n", res.findings[0].text);
		trapped |= res.traps > 0;
		for (uint32_t l = 0; l < cp->nloops && l < res.nloops; l++)
			if (res.max_trip[l] > most[l]) {
				most[l] = res.max_trip[l];
				where[l] = k;
			}
		check_result__free(&res);
	}
	/* the generator's intent: loops it says run a fixed number of times */
	for (size_t g = 0; g < gp->nloops && !trapped; g++) {
		const struct gen_loop *gl = &gp->loops[g];

		if (gl->trip < 0 || gl->header < 0 || (gl->flags & GEN_LOOP_EARLY_EXIT))
			continue;
		for (uint32_t l = 0; l < cp->nloops; l++) {
			if (cp->loops[l].header != (uint32_t)gl->header || !most[l])
				continue;
			t->gen_trips_checked++;
			CHECK(most[l] == (uint64_t)gl->trip, "loop at %d: generator says %lld header "
			      "executions, the oracle counted %llu", gl->header, (long long)gl->trip,
			      (unsigned long long)most[l]);
		}
	}
	for (uint32_t l = 0; l < cp->nloops; l++) {
		struct claim_loop *cl = &cp->loops[l];
		struct claim_trip saved = cl->trip;

		if (!most[l])
			continue;
		/* a maximum one below the longest entry seen */
		cl->trip.kind = TRIP_BOUNDED;
		cl->trip.max = most[l] - 1;
		cl->trip.min = 0;
		t->trip_mutants++;
		if (refuted(gp, view, cp, &in[where[l]], FIND_TRIP_MAX, l, NULL))
			t->trip_killed++;
		else
			CHECK(0, "trip mutant of loop %u (header %u, max %llu) not refuted", l,
			      cl->header, (unsigned long long)cl->trip.max);
		cl->trip = saved;
		for (uint32_t i = 0; i < cl->nivs; i++) {
			struct claim_iv *iv = &cl->ivs[i];
			struct claim_iv ivs = *iv;

			if (most[l] >= 2) {	/* a step is only checked from the second visit */
				iv->step = iv->width == 32 ? (uint32_t)(iv->step + 1) : iv->step + 1;
				t->iv_mutants++;
				if (refuted(gp, view, cp, &in[where[l]], FIND_IV, l, NULL))
					t->iv_killed++;
				else
					CHECK(0, "IV step mutant of loop %u not refuted", cl->header);
				*iv = ivs;
			}
			if (iv->has_start) {
				iv->start++;
				t->iv_mutants++;
				if (refuted(gp, view, cp, &in[where[l]], FIND_IV, l, NULL))
					t->iv_killed++;
				else
					CHECK(0, "IV start mutant of loop %u not refuted", cl->header);
				*iv = ivs;
			}
		}
	}
	free(most);
	free(where);
}

static void one_program(struct tally *t, const struct gen_knobs *k, uint64_t seed)
{
	struct gen_program gp = { 0 };
	struct claim_prog cp = { 0 };
	struct scev_opts so = { .sz = sizeof(so) };
	struct interp_code *code = NULL;
	struct interp_map maps[sizeof(gp.maps) / sizeof(gp.maps[0])];
	struct input in[NINPUTS];
	struct observer ob = { 0 };
	struct ebpf_prog view;
	struct gen_src src;
	uint8_t *probes;
	struct diag d;

	gen_src_init_seed(&src, seed);
	if (gen_program(&gp, &src, k)) {
		gen_program__free(&gp);
		return;
	}
	t->programs++;
	gen_program__prog(&gp, &view, "mut");
	diag_clear(&d);
	CHECK(!scev_analyze(&cp, &view, gp.maps, gp.map_cnt, &so, &d), "analyze: %s", d.msg);
	CHECK(!interp_prepare(&code, &view, &d), "prepare: %s", d.msg);
	probes = calloc(gp.len, 1);
	ob.cp = &cp;
	ob.seen = calloc(cp.nranges + 1, sizeof(*ob.seen));
	ob.off = calloc(gp.len + 1, sizeof(*ob.off));
	ob.idx = calloc(cp.nranges + 1, sizeof(*ob.idx));
	{
		uint32_t *fill = calloc(gp.len + 1, sizeof(*fill));

		for (uint32_t i = 0; i < cp.nranges; i++)
			ob.off[cp.ranges[i].pc + 1]++;
		for (size_t p = 0; p < gp.len; p++)
			ob.off[p + 1] += ob.off[p];
		for (uint32_t i = 0; i < cp.nranges; i++) {
			ob.idx[ob.off[cp.ranges[i].pc] + fill[cp.ranges[i].pc]++] = i;
			probes[cp.ranges[i].pc] = 1;
		}
		free(fill);
	}
	make_inputs(in, seed);
	for (int k = 0; k < NINPUTS && code; k++) {
		struct interp_env env = { .ctx_kind = INTERP_CTX_XDP, .input_len = GEN_INPUT_LEN,
					  .helper_len = sizeof(in[k].helper), .maps = maps,
					  .map_cnt = gp.map_cnt, .step_budget = STEPS, .probes = probes,
					  .visit = observe, .arg = &ob };
		uint8_t pkt[GEN_INPUT_LEN];
		struct interp_result ir;

		/* the program may write its packet: the oracle gets a fresh copy too */
		memcpy(pkt, in[k].bytes, sizeof(pkt));
		env.input = pkt;
		env.helper_data = in[k].helper;
		for (size_t m = 0; m < gp.map_cnt; m++) {
			maps[m].def = gp.maps[m];
			maps[m].values = NULL;
		}
		ob.input = k;
		CHECK(!interp_run(code, &env, &ir), "interp_run");
	}
	range_mutants(t, &gp, &view, &cp, in, ob.seen);
	loop_mutants(t, &gp, &view, &cp, in);
	free(probes);
	free(ob.seen);
	free(ob.off);
	free(ob.idx);
	interp_code__free(code);
	claim_prog__free(&cp);
	gen_program__free(&gp);
}

static void test_seeded_wrong_claims(void)
{
	static const char *const presets[] = {
		"", "p_wrap=70", "p_eqne=70 p_signed=70", "p_big_step=80", "p_ctr32=80 p_cmp_mix=60",
		"p_bound_input=80 p_init_input=60", "p_nest=80 max_depth=4", "p_irreducible=50",
		"p_spill=70 p_caller_home=70", "p_derived=90", "p_cond_update=70",
		"p_break=60 p_continue=60 p_break_outer=60", "p_subprog=80",
		"p_array=90 p_map=70 p_pkt=70", "w_while=0 w_do_while=0 w_for=0 w_while_bottom=100",
		"w_while=0 w_while_bottom=0 w_for=0 w_do_while=100",
	};
	struct tally t = { 0 };
	unsigned per = 3;

	for (size_t p = 0; p < sizeof(presets) / sizeof(presets[0]); p++) {
		struct gen_knobs k;
		struct diag d;

		CHECK(!fuzz_knobs_parse(&k, presets[p], &d), "knobs '%s': %s", presets[p], d.msg);
		for (unsigned i = 0; i < per; i++)
			one_program(&t, &k, 0x5eed0000ull + p * 1000 + i);
	}
	printf("seeded wrong claims: %u programs; range mutants %u killed of %u (%u claims tight, "
	       "i.e. shrunk by exactly one); trip-max mutants %u of %u; induction mutants %u of "
	       "%u; %u generator trip counts matched; %u runs refuted the analyzer's own claims\n",
	       t.programs, t.range_killed, t.range_mutants, t.tight, t.trip_killed, t.trip_mutants,
	       t.iv_killed, t.iv_mutants, t.gen_trips_checked, t.unsound);
	CHECK(t.programs >= 45, "only %u programs", t.programs);
	CHECK(t.range_mutants >= 300 && t.range_killed == t.range_mutants, "range mutants");
	CHECK(t.trip_mutants >= 100 && t.trip_killed == t.trip_mutants, "trip mutants");
	CHECK(t.iv_mutants >= 50 && t.iv_killed == t.iv_mutants, "iv mutants");
	CHECK(t.gen_trips_checked >= 30, "generator trip cross-checks: %u", t.gen_trips_checked);
	/* the analyzer's true claims about these programs hold: a refuted one is a soundness bug
	 * (the note above names the first) */
	CHECK(t.unsound == 0, "%u runs refuted the analyzer's own claims", t.unsound);
}

/* ---- 2-4. campaigns ---- */

static char tmp_root[256];

static const char *tmpdir(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s", tmp_root, name);
	return path;
}

static void rm_rf(const char *path)
{
	char cmd[700];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	if (system(cmd)) {
		/* leftovers in /tmp are harmless */
	}
}

static unsigned count_dirs(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, prefix, strlen(prefix)))
			n++;
	closedir(d);
	return n;
}

static void same_stats(const struct fuzz_stats *a, const struct fuzz_stats *b, const char *what)
{
	CHECK_EQ_U64(a->programs, b->programs, what);
	CHECK_EQ_U64(a->gen_failures, b->gen_failures, what);
	CHECK_EQ_U64(a->loops, b->loops, what);
	CHECK_EQ_U64(a->loops_bounded, b->loops_bounded, what);
	CHECK_EQ_U64(a->loops_exact, b->loops_exact, what);
	CHECK_EQ_U64(a->loops_ran, b->loops_ran, what);
	CHECK_EQ_U64(a->loops_entered, b->loops_entered, what);
	CHECK_EQ_U64(a->range_claims, b->range_claims, what);
	CHECK_EQ_U64(a->claims_checked, b->claims_checked, what);
	CHECK_EQ_U64(a->runs, b->runs, what);
	CHECK_EQ_U64(a->traps, b->traps, what);
	CHECK_EQ_U64(fuzz_stats_findings(a), fuzz_stats_findings(b), what);
	CHECK(!memcmp(a->ratio, b->ratio, sizeof(a->ratio)), "%s: ratio histograms differ", what);
}

/* 10,000 programs; 3,000 in a sanitizer build, where the analyzer alone takes about 6 ms per
 * program (BPFSCEV_CAMPAIGN_PROGRAMS sets the number). */
#if defined(__SANITIZE_ADDRESS__)
#define BIG_CAMPAIGN 3000
#else
#define BIG_CAMPAIGN 10000
#endif

static void test_big_campaign(void)
{
	const char *env = getenv("BPFSCEV_CAMPAIGN_PROGRAMS");
	uint64_t n = env ? strtoull(env, NULL, 0) : BIG_CAMPAIGN;
	struct fuzz_opts o = { .sz = sizeof(o), .seed = 20261203, .count = n, .jobs = 2,
			       .oracle_runs = 1, .step_budget = 2000 };
	struct fuzz_stats st;
	struct diag d;
	int err;

	o.crashes = tmpdir("big");
	err = fuzz_campaign(&st, &o, &d);
	CHECK(!err, "campaign: %s", d.msg);
	printf("campaign: %llu programs (%llu refused by the generator), %llu loops (finite bound "
	       "%.1f%%, exact %.1f%%), median max/observed %.2f, %llu claims checked, %.1f s, "
	       "%llu findings\n", (unsigned long long)st.programs,
	       (unsigned long long)st.gen_failures, (unsigned long long)st.loops,
	       st.loops ? 100.0 * st.loops_bounded / st.loops : 0,
	       st.loops ? 100.0 * st.loops_exact / st.loops : 0, fuzz_stats_median_ratio(&st),
	       (unsigned long long)st.claims_checked, st.session_seconds,
	       (unsigned long long)fuzz_stats_findings(&st));
	CHECK_EQ_U64(st.programs + st.gen_failures, n, "programs");
	CHECK(st.loops > n, "loops: %llu", (unsigned long long)st.loops);
	CHECK(st.claims_checked > 100 * n, "claims checked");
	CHECK(fuzz_stats_findings(&st) == 0, "the analyzer is unsound: %llu findings, saved in %s",
	      (unsigned long long)fuzz_stats_findings(&st), o.crashes);
	CHECK(st.gen_failures == 0, "the generator refused %llu seeds",
	      (unsigned long long)st.gen_failures);
	if (!fuzz_stats_findings(&st))
		rm_rf(o.crashes);
}

static volatile sig_atomic_t stop_at_flag;

/* Pulls the stop flag as program *arg starts, like a Ctrl-C arriving then. */
static void stop_at(void *arg, uint64_t index)
{
	if (index == *(uint64_t *)arg)
		stop_at_flag = 1;
}

static void test_same_seed(void)
{
	struct fuzz_opts o = { .sz = sizeof(o), .seed = 7, .count = 200, .oracle_runs = 2 };
	struct fuzz_stats a, b, c, r;
	uint64_t limit = 80;
	struct diag d;

	CHECK(!fuzz_campaign(&a, &o, &d), "in process: %s", d.msg);
	o.jobs = 2;
	o.batch = 7;	/* small batches: out-of-order completion */
	o.crashes = tmpdir("same");
	CHECK(!fuzz_campaign(&b, &o, &d), "two workers: %s", d.msg);
	same_stats(&a, &b, "in process vs two workers");
	CHECK_EQ_U64(b.next, 200, "next after a whole campaign");

	/* interrupted after ~80 programs, then resumed: the same totals */
	rm_rf(o.crashes);
	o.jobs = 0;
	o.batch = 0;
	o.crashes = tmpdir("resume");
	o.fault = stop_at;
	o.arg = &limit;
	o.stop = &stop_at_flag;
	stop_at_flag = 0;
	CHECK(!fuzz_campaign(&c, &o, &d), "interrupted: %s", d.msg);
	CHECK_EQ_U64(c.programs + c.gen_failures, 81, "programs before the stop");
	stop_at_flag = 0;
	o.fault = NULL;
	o.resume = true;
	o.seed = 999;	/* the state's seed wins */
	o.count = 0;
	CHECK(!fuzz_campaign(&r, &o, &d), "resumed: %s", d.msg);
	same_stats(&a, &r, "uninterrupted vs interrupted and resumed");
	CHECK_EQ_U64(r.seed, 7, "resumed seed");
	rm_rf(o.crashes);
	rm_rf(tmpdir("same"));
}

/* The optional oracles: Z3 decides the claims of a short campaign (the counts add up, some of
 * them proved, none refuted), the kernel classifies every program (one line when bpf() is
 * refused) and its logs give claims; the counts survive a resume through the state file; a
 * disagreement is saved once per signature with both logs.  Z3 works under resource limits,
 * not time: its verdicts are the same however slow or loaded the machine (the clock limits
 * are only smt's safety net). */
static void test_oracles(void)
{
	struct fuzz_opts o = { .sz = sizeof(o), .seed = 3, .count = 6, .oracle_runs = 2, .z3 = true,
			       .z3_rlimit = 50000, .z3_program_rlimit = 300000 };
	struct gen_knobs small = gen_knobs_default();
	struct fuzz_stats a, r;
	char why[256];
	bool kernel = kernel_available(why, sizeof(why));
	struct diag d;
	uint64_t limit = 2;
	const uint64_t *n = a.oracle_stats;

	/* small programs: Z3 runs slowly inside the sanitizers' allocator */
	CHECK(!gen_knobs_set(&small, "max_insns", 90) && !gen_knobs_set(&small, "max_depth", 2),
	      "knobs");
	o.knobs = &small;
	o.kernel = kernel;
	if (!kernel)
		printf("test_oracles: kernel part skipped: %s\n", why);
	o.crashes = tmpdir("oracles");
	CHECK(!fuzz_campaign(&a, &o, &d), "campaign: %s", d.msg);
	/* the counters by the names the oracles give them (fuzz/pipeline.h) */
#define N(key) pipeline_stat(n, key)
	CHECK(N("z3_claims") > 0 &&
	      N("z3_claims") == N("z3_proved") + N("z3_refuted") + N("z3_unknown"),
	      "z3: %" PRIu64 " claims, %" PRIu64 " + %" PRIu64 " + %" PRIu64, N("z3_claims"),
	      N("z3_proved"), N("z3_refuted"), N("z3_unknown"));
	/* (small limits, for the sanitizers' sake: about half the claims are left unknown, the
	 * same half on every machine) */
	CHECK(N("z3_proved") > 0, "z3 proved only %" PRIu64 " of %" PRIu64, N("z3_proved"),
	      N("z3_claims"));
	CHECK(N("z3_refuted") == 0 && N("z3_encoding") == 0,
	      "z3 refuted %" PRIu64 ", encoding %" PRIu64, N("z3_refuted"), N("z3_encoding"));
	CHECK(fuzz_stats_findings(&a) == 0, "%" PRIu64 " findings", fuzz_stats_findings(&a));
	printf("oracles: %" PRIu64 " programs, z3 %" PRIu64 "/%" PRIu64 " proved (%.1f cpu-s), "
	       "kernel %" PRIu64 " programs (%.1f cpu-s)\n", a.programs, N("z3_proved"),
	       N("z3_claims"), a.t_oracles[oracle_index("z3")], N("kernel_programs"),
	       a.t_oracles[oracle_index("kernel")]);
	if (kernel) {
		uint64_t accepted = N("kernel_both_accept") + N("kernel_regression");
		uint64_t classes = accepted + N("kernel_both_reject") + N("kernel_improvement") +
				   N("kernel_rule_gap");

		CHECK(N("kernel_programs") == a.programs && classes == a.programs,
		      "kernel: %" PRIu64 " programs, %" PRIu64 " classified, campaign %" PRIu64,
		      N("kernel_programs"), classes, a.programs);
		CHECK(accepted > 0 && N("kernel_claims") > 0 && N("kernel_claim_checks") > 0,
		      "kernel: accepted %" PRIu64 ", %" PRIu64 " log claims", accepted,
		      N("kernel_claims"));
		CHECK(count_dirs(o.crashes, "verdicts") == (a.disagreements_saved ? 1u : 0u),
		      "verdicts directory");
	}
	/* interrupted and resumed: the same counts, the oracles' settings from the state */
	rm_rf(o.crashes);
	o.crashes = tmpdir("oracles-resume");
	o.fault = stop_at;
	o.arg = &limit;
	o.stop = &stop_at_flag;
	stop_at_flag = 0;
	CHECK(!fuzz_campaign(&r, &o, &d), "interrupted: %s", d.msg);
	stop_at_flag = 0;
	o.fault = NULL;
	o.resume = true;
	o.z3 = o.kernel = false;	/* the state's settings win */
	o.z3_rlimit = 0;
	o.z3_program_rlimit = 0;
	o.count = 0;
	CHECK(!fuzz_campaign(&r, &o, &d), "resumed: %s", d.msg);
#define R(key) pipeline_stat(r.oracle_stats, key)
	CHECK_EQ_U64(R("z3_claims"), N("z3_claims"), "z3 claims after a resume");
	/* the resource limits came back from the state file: the same verdicts */
	CHECK_EQ_U64(R("z3_proved"), N("z3_proved"), "z3 proved after a resume");
	CHECK_EQ_U64(R("z3_unknown"), N("z3_unknown"), "z3 unknown after a resume");
	CHECK_EQ_U64(R("kernel_programs"), N("kernel_programs"), "kernel programs after a resume");
#undef R
#undef N
	rm_rf(o.crashes);

	/* a disagreement: one directory per signature, its count raised by the next one */
	{
		char dir[512], path[4096], file[4200];
		struct fuzz_disagreement dis = { .cls = VC_REGRESSION, .sig = 0x1234,
						 .case_text = "-- asm\nr0 = 0\nexit\n",
						 .ours = "class: regression\n", .kernel_log = "processed 2\n" };
		bool is_new = false;
		FILE *fp;
		unsigned long count = 0;

		snprintf(dir, sizeof(dir), "%s", tmpdir("dis"));
		CHECK(!fuzz_save_disagreement(dir, &dis, "test", &is_new, path, sizeof(path)) &&
		      is_new, "first save");
		CHECK(!fuzz_save_disagreement(dir, &dis, "test", &is_new, path, sizeof(path)) &&
		      !is_new, "second save");
		snprintf(file, sizeof(file), "%s/count", path);
		fp = fopen(file, "r");
		CHECK(fp && fscanf(fp, "%lu", &count) == 1 && count == 2, "count %lu", count);
		if (fp)
			fclose(fp);
		snprintf(file, sizeof(file), "%s/kernel.log", path);
		CHECK(access(file, R_OK) == 0, "%s missing", file);
		snprintf(file, sizeof(file), "%s/prog.case", path);
		{
			struct ebpf_object *obj = NULL;

			CHECK(casefile__open_object(&obj, file, &d) == 0, "prog.case: %s", d.msg);
			ebpf_object__free(obj);
		}
		rm_rf(dir);
	}
}

/* The fault hook: an analyzer that segfaults on program 17, hangs on 23 (a true infinite loop,
 * using the CPU as a stuck analyzer would), and dies on 30 only the first time (a
 * state-dependent crash the lone re-run does not reproduce). */
static void fault(void *arg, uint64_t index)
{
	const char *flag = arg;

	if (index == 17)
		raise(SIGSEGV);
	if (index == 23)
		for (volatile unsigned long spin = 0;; spin++)
			;
	if (index == 30 && access(flag, F_OK)) {
		FILE *f = fopen(flag, "w");

		if (f)
			fclose(f);
		abort();
	}
}

static void test_isolation(void)
{
	/* The watchdog counts the analyzer's CPU time, not the clock: a loaded machine does not
	 * make a normal program (milliseconds of CPU) reach the 2 s that only the hang does. */
	struct fuzz_opts o = { .sz = sizeof(o), .seed = 3, .count = 40, .jobs = 1, .batch = 8,
			       .oracle_runs = 1, .timeout = 2, .fault = fault };
	char flag[600];
	struct fuzz_stats st;
	struct diag d;
	struct finding f;
	DIR *dir;
	struct dirent *e;
	unsigned segv = 0, hang = 0;

	o.crashes = tmpdir("iso");
	snprintf(flag, sizeof(flag), "%s/flaky-done", tmp_root);
	o.arg = flag;
	CHECK(!fuzz_campaign(&st, &o, &d), "campaign: %s", d.msg);
	CHECK_EQ_U64(st.programs + st.gen_failures, 40, "every program accounted for");
	CHECK_EQ_U64(st.found[FIND_CRASH], 2, "crash findings");
	CHECK_EQ_U64(st.unconfirmed, 1, "unconfirmed deaths");
	CHECK_EQ_U64(count_dirs(o.crashes, "crash-"), 2, "crash directories");
	dir = opendir(o.crashes);
	while (dir && (e = readdir(dir))) {
		char path[800];

		if (strncmp(e->d_name, "crash-", 6))
			continue;
		snprintf(path, sizeof(path), "%s/%s", o.crashes, e->d_name);
		if (finding__load(&f, path, &d)) {
			CHECK(0, "%s: %s", path, d.msg);
			continue;
		}
		CHECK(!strcmp(f.phase, "analyze"), "phase %s", f.phase);
		/* "SIGSEGV" plain, "asan:SEGV" under the sanitizer */
		if (strstr(f.crash, "SEGV") && f.index == 17)
			segv++;
		if (!strcmp(f.crash, "timeout") && f.index == 23)
			hang++;
		CHECK(f.len > 0, "the program is saved");
		finding__free(&f);
	}
	if (dir)
		closedir(dir);
	CHECK(segv == 1 && hang == 1, "segv %u hang %u", segv, hang);
	rm_rf(o.crashes);
	unlink(flag);
}

#define TIMED(call)                                                                         \
	do {                                                                                \
		double t0_ = wall_s();                                                       \
		call;                                                                       \
		printf("  (%s: %.1f s)\n", #call, wall_s() - t0_);                             \
		fflush(stdout);                                                             \
	} while (0)

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(tmp_root, sizeof(tmp_root), "/tmp/bpfscev-test-campaign-%ld", (long)getpid());
	mkdir(tmp_root, 0755);
	TIMED(test_seeded_wrong_claims());
	TIMED(test_same_seed());
	TIMED(test_isolation());
	TIMED(test_oracles());
	TIMED(test_big_campaign());
	if (!check_failures)
		rm_rf(tmp_root);
	else
		fprintf(stderr, "test_campaign: files kept in %s\n", tmp_root);
	return check_done("test_campaign");
}
