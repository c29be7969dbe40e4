/* The pipeline's kernel oracle (pipeline.h): bpfscev verify's verdict against the running
 * kernel's accept or reject (triage/verdict.h), and for a program the kernel accepts, the kernel
 * differential (oracle/kernel/kdiff.h): the verifier's logged ranges as claims checked on the
 * interpreter, r0, the packet and the maps against BPF_PROG_TEST_RUN.  A verdict disagreement goes to
 * r->dis (saved by the campaign's parent with fuzz_save_disagreement, below); a program called
 * safe that faults and a kernel difference are findings. */
#include "fuzz/pipeline.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "fuzz/corpus.h"
#include "generators/gen.h"
#include "oracle/kernel/kdiff.h"
#include "triage/kfinding.h"
#include "triage/verdict.h"
#include "util/clock.h"
#include "util/sbuf.h"

enum {
	K_PROGRAMS,		/* programs the kernel verified */
	K_BOTH_ACCEPT,
	K_BOTH_REJECT,
	K_IMPROVEMENT,		/* bpfscev: safe, kernel: rejected */
	K_REGRESSION,		/* kernel: accepted, bpfscev: not shown safe */
	K_VERDICT_FAULTS,	/* called safe by bpfscev, faulted when run */
	K_CLAIM_PROGRAMS,	/* accepted programs whose verifier log gave claims */
	K_CLAIMS,		/* kernel range claims */
	K_CLAIM_CHECKS,		/* their evaluations on the interpreter */
	K_CLAIMS_REFUTED,	/* programs with a refuted kernel claim */
	K_TEST_RUNS,		/* programs whose BPF_PROG_TEST_RUN result was compared */
	K_RESULT_DIFF,		/* ... and differed from the interpreter (r0, packet, trap) */
	K_INVARIANT,		/* the verifier reported a bug in itself */
	K_ERRORS,		/* programs the kernel could not be asked about */
	K_EXIT_JUDGED,		/* test runs that judged bpfscev's r0 claims at the exits */
	K_EXIT_REFUTED,		/* ... and refuted them: the claim is false on this kernel */
	K_MAP_RUNS,		/* compared test runs whose maps were compared too */
	K_UNPRIV_RULE,		/* --unprivileged: refused by a rule bpfscev does not model
				 * (VC_UNPRIV_RULE: Spectre v1, pointer leaks, ...) */
	K_UNPRIV_SKIP,		/* --unprivileged: a type that needs CAP_PERFMON, not asked */
	K_MAP_HASH_RUNS,	/* compared test runs whose maps were compared: with hash maps */
	K_MAP_PERCPU_RUNS,	/* ... with per-CPU maps */
	K_MAP_LEFT_RUNS,	/* compared test runs that left maps out (kdiff.h: maps_left) */
	K_MAP_TIMER_RUNS,	/* compared test runs whose maps were compared: of programs that arm
				 * timers (after their callbacks, kdiff.h) */
	K_MAY_GOTO_FREE,	/* compared test runs that spent a may_goto budget, their result the
				 * same under other budgets (kdiff.h: may_goto_free) */
	K_MAY_GOTO_DEP,		/* test runs not compared: their result depends on the budget */
	K_RULE_GAP,		/* bpfscev: safe, kernel: rejected by none of its limits (a
				 * finding, FIND_RULE_GAP) */
	K_MAY_GOTO_DRAWN,	/* test runs that spent a budget, not compared before the budget
				 * was tried: helpers whose results the interpreter draws */
	K_TIMER_NOMEM,		/* compared test runs whose kernel's bpf_timer_init ran out of
				 * memory (kdiff.h: timer_nomem) */
	K_NOT_COMPARED,		/* test runs whose r0, packet and maps were not compared:
				 * nondeterministic (kdiff.h: helpers whose results the interpreter
				 * draws, a socket a lookup may find, ...) */
	K_REPLAYED,		/* compared test runs of the recording program, the interpreter
				 * replaying its logged helper results (kdiff.h) */
	K_NC_FIRST,		/* K_NOT_COMPARED by reason: K_NC_FIRST + enum kdiff_nc - 1 */
	K_NSTATS = K_NC_FIRST + KDIFF_NC_COUNT - 1

};

static const char *const kernel_stats[K_NSTATS] = {
	[K_PROGRAMS] = "kernel_programs",
	[K_BOTH_ACCEPT] = "kernel_both_accept",
	[K_BOTH_REJECT] = "kernel_both_reject",
	[K_IMPROVEMENT] = "kernel_improvement",
	[K_REGRESSION] = "kernel_regression",
	[K_VERDICT_FAULTS] = "kernel_verdict_faults",
	[K_CLAIM_PROGRAMS] = "kernel_claim_programs",
	[K_CLAIMS] = "kernel_claims",
	[K_CLAIM_CHECKS] = "kernel_claim_checks",
	[K_CLAIMS_REFUTED] = "kernel_claims_refuted",
	[K_TEST_RUNS] = "kernel_test_runs",
	[K_RESULT_DIFF] = "kernel_result_diff",
	[K_INVARIANT] = "kernel_invariant",
	[K_ERRORS] = "kernel_errors",
	[K_EXIT_JUDGED] = "kernel_exit_judged",
	[K_EXIT_REFUTED] = "kernel_exit_refuted",
	[K_MAP_RUNS] = "kernel_map_runs",
	[K_UNPRIV_RULE] = "kernel_unpriv_rule",
	[K_UNPRIV_SKIP] = "kernel_unpriv_skip",
	[K_MAP_HASH_RUNS] = "kernel_map_hash_runs",
	[K_MAP_PERCPU_RUNS] = "kernel_map_percpu_runs",
	[K_MAP_LEFT_RUNS] = "kernel_map_left_runs",
	[K_MAP_TIMER_RUNS] = "kernel_map_timer_runs",
	[K_MAY_GOTO_FREE] = "kernel_may_goto_free",
	[K_MAY_GOTO_DEP] = "kernel_may_goto_dep",
	[K_RULE_GAP] = "kernel_rule_gap",
	[K_MAY_GOTO_DRAWN] = "kernel_may_goto_drawn",
	[K_TIMER_NOMEM] = "kernel_timer_nomem",
	[K_NOT_COMPARED] = "kernel_not_compared",
	[K_REPLAYED] = "kernel_replayed",
	[K_NC_FIRST + KDIFF_NC_HELPER - 1] = "kernel_nc_helper",
	[K_NC_FIRST + KDIFF_NC_KFUNC - 1] = "kernel_nc_kfunc",
	[K_NC_FIRST + KDIFF_NC_CALLX - 1] = "kernel_nc_callx",
	[K_NC_FIRST + KDIFF_NC_SOCKMAP - 1] = "kernel_nc_sockmap",
	[K_NC_FIRST + KDIFF_NC_UNPINNED - 1] = "kernel_nc_unpinned",
	[K_NC_FIRST + KDIFF_NC_TRAP - 1] = "kernel_nc_trap",
	[K_NC_FIRST + KDIFF_NC_STEPS - 1] = "kernel_nc_steps",
	[K_NC_FIRST + KDIFF_NC_MAY_GOTO - 1] = "kernel_nc_may_goto",
	[K_NC_FIRST + KDIFF_NC_NR64 - 1] = "kernel_nc_nr64",
	[K_NC_FIRST + KDIFF_NC_KERNEL_READ - 1] = "kernel_nc_kernel_read",
	[K_NC_FIRST + KDIFF_NC_SOCK - 1] = "kernel_nc_sock",
	[K_NC_FIRST + KDIFF_NC_UNWRITTEN - 1] = "kernel_nc_unwritten",
	[K_NC_FIRST + KDIFF_NC_REPLAY_SHORT - 1] = "kernel_nc_replay_short",
	[K_NC_FIRST + KDIFF_NC_REPLAY_OTHER - 1] = "kernel_nc_replay_other",
	[K_NC_FIRST + KDIFF_NC_RECORD_REFUSED - 1] = "kernel_nc_record_refused",
	[K_NC_FIRST + KDIFF_NC_RECORD_FAILED - 1] = "kernel_nc_record_failed",
};
_Static_assert(KDIFF_NC_RECORD_FAILED + 1 == KDIFF_NC_COUNT,
	       "a reason of enum kdiff_nc without its counter's name");

/* "pc 12: R3 invalid mem access" -> "pc #: R# invalid mem access": numbers out, for signatures */
static void skeleton(struct sbuf *sb, const char *s, size_t max)
{
	bool in_num = false;

	for (size_t i = 0; s && s[i] && s[i] != '\n' && i < max; i++) {
		if (isdigit((unsigned char)s[i])) {
			if (!in_num)
				sbuf_putc(sb, '#');
			in_num = true;
			continue;
		}
		in_num = false;
		sbuf_putc(sb, s[i]);
	}
}

static uint64_t fnv(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
	return h;
}

static int disagreement(struct pipeline_result *r, const struct verdict_report *vr,
			const struct ebpf_object *obj, const struct ebpf_prog *prog)
{
	struct fuzz_disagreement *d = calloc(1, sizeof(*d));
	struct sbuf sb = SBUF_INIT;

	if (!d)
		return -ENOMEM;
	d->cls = (uint8_t)vr->cls;
	sbuf_printf(&sb, "%s|%s|", verdict_class_name(vr->cls), scev_verdict_name(vr->ours.kind));
	skeleton(&sb, vr->ours.reason, 120);
	sbuf_putc(&sb, '|');
	skeleton(&sb, vr->kernel_message, 120);
	d->sig = sb.oom ? 0 : fnv(sbuf_cstr(&sb));
	sbuf_reset(&sb);
	corpus_format_prog(&sb, prog->insns, prog->len, prog->globals, prog->global_cnt,
			   prog->prog_type, obj->maps, obj->map_cnt);
	d->case_text = sbuf_detach(&sb);
	sbuf_printf(&sb, "class: %s\n", verdict_class_name(vr->cls));
	if (vr->ours.kind == VERDICT_SAFE)
		sbuf_printf(&sb, "bpfscev: safe (%" PRIu64 " checks)\n", vr->ours.checks);
	else
		sbuf_printf(&sb, "bpfscev: %s at pc %u: %s\n", scev_verdict_name(vr->ours.kind),
			    vr->ours.pc, vr->ours.reason);
	sbuf_printf(&sb, "kernel: %s%s%s%s, %ld instructions processed, %ld us\n",
		    vr->kernel_accepted ? "accepted" : "rejected", vr->kernel_message[0] ? " (" : "",
		    vr->kernel_message, vr->kernel_message[0] ? ")" : "", vr->kernel_processed,
		    vr->kernel_usec);
	d->ours = sbuf_detach(&sb);
	d->kernel_log = strdup(vr->kernel_log ? vr->kernel_log : "");
	if (!d->case_text || !d->ours || !d->kernel_log) {
		fuzz_disagreement__free(d);
		return -ENOMEM;
	}
	r->dis = d;
	return 0;
}

/* bpfscev's r0 claims at the exits against the kernel's own run (kdiff_judge_exit_r0): the
 * judge of what the interpreter cannot reproduce, the timed may_goto first. */
static int judge_exits(struct pipeline_result *r, uint64_t *stats, const struct kdiff_result *kr,
		       const struct ebpf_object *obj, const struct ebpf_prog *prog)
{
	struct finding *f;
	uint32_t pc = 0;
	int j, err;

	if (!kr->ran || !r->cp)
		return 0;
	j = kdiff_judge_exit_r0(r->cp, prog, kr->kernel_retval, &pc);
	stats[K_EXIT_JUDGED] += j >= 0;
	if (j <= 0)
		return 0;
	stats[K_EXIT_REFUTED]++;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	if ((err = finding__init(f, FIND_RANGE, "kernel-run", r->cp->strategy, prog, obj->maps,
				 obj->map_cnt, kr->input, kr->input_len, NULL, 0, r->cp))) {
		free(f);
		return err;
	}
	f->prog_type = kr->prog_type ? kr->prog_type : prog->prog_type;
	f->pc = pc;
	f->observed = kr->kernel_retval;
	snprintf(f->text, sizeof(f->text), "BPF_PROG_TEST_RUN returned %u, which no r0 claim at "
		 "the exits admits (exit at %u)", kr->kernel_retval, pc);
	finding_signature(f, r->cp);
	return pipeline_add_finding(r, f);
}

/* A program called safe that the kernel refuses by none of its limits (VC_RULE_GAP). */
static int rule_gap_finding(struct pipeline_result *r, const struct verdict_report *vr)
{
	struct finding *f = calloc(1, sizeof(*f));
	int err;

	if (!f)
		return -ENOMEM;
	if ((err = finding__from_rule_gap(f, &r->view, r->obj.maps, r->obj.map_cnt,
					  vr->kernel_message))) {
		free(f);
		return err;
	}
	return pipeline_add_finding(r, f);
}

/* bpfscev verify's verdict against the kernel's: *ask says whether the differential has
 * anything to ask (a log to read, a program that runs, or a rejection in which the verifier
 * reports a bug in itself: that is a finding, whatever the verdict class). */
static int judge_verdict(struct pipeline_result *r, uint64_t *stats, const struct verdict_opts *vo,
			 bool *ask)
{
	const struct ebpf_object *obj = &r->obj;
	const struct ebpf_prog *prog = &r->view;
	struct verdict_report vr;
	struct diag d;
	int err;

	*ask = false;
	diag_clear(&d);
	if ((err = verdict_compare(&vr, obj, prog, vo, &d))) {
		if (err == -ENOMEM)
			return err;
		stats[K_ERRORS]++;
		return 0;
	}
	if (vr.faults && (err = pipeline_verdict_finding(r, &vr))) {
		verdict_report__free(&vr);
		return err;
	}
	stats[K_VERDICT_FAULTS] += vr.faults != 0;
	if (vr.cls == VC_NO_KERNEL) {
		stats[K_ERRORS]++;
		verdict_report__free(&vr);
		return 0;
	}
	if (vr.cls == VC_UNPRIV_SKIP) {
		stats[K_UNPRIV_SKIP]++;
	} else {
		stats[K_PROGRAMS]++;
		if (vr.cls == VC_UNPRIV_RULE)
			stats[K_UNPRIV_RULE]++;
		else if (vr.cls == VC_RULE_GAP)
			stats[K_RULE_GAP]++;
		else
			stats[K_BOTH_ACCEPT + (vr.cls - VC_BOTH_ACCEPT)]++;
	}
	/* (an unpriv-rule refusal is saved too, in its own class, to read which rule; a rule gap
	 * is also a finding: a safe verdict the kernel refuses for what the program does) */
	if ((vr.cls == VC_IMPROVEMENT || vr.cls == VC_REGRESSION || vr.cls == VC_UNPRIV_RULE ||
	     vr.cls == VC_RULE_GAP) &&
	    ((err = disagreement(r, &vr, obj, prog)) ||
	     (vr.cls == VC_RULE_GAP && (err = rule_gap_finding(r, &vr))))) {
		verdict_report__free(&vr);
		return err;
	}
	/* (the differential loads as root: with --unprivileged, whatever the unprivileged
	 * loader's answer, it has the root kernel's to ask) */
	*ask = vr.kernel_accepted || vo->unprivileged ||
	       kdiff_log_reports_bug(vr.kernel_message, NULL, 0);
	verdict_report__free(&vr);
	return 0;
}

static bool kernel_wanted(const struct pipeline_opts *o)
{
	return o->kernel;
}

/* The analyzer's claims stay not judged in v: this oracle judges the program's verdict and the
 * kernel's own claims, not the analyzer's. */
static int kernel_run(struct pipeline_result *r, uint64_t *stats, struct claim_verdicts *v,
		      const struct pipeline_opts *o)
{
	struct verdict_opts vo = { .sz = sizeof(vo), .kernel = true,
				   .runs = o->kernel_verdict_runs ? o->kernel_verdict_runs :
					   PIPELINE_KERNEL_VERDICT_RUNS,
				   .seed = o->seed, .input = o->kernel_input,
				   .input_len = o->kernel_input_len, .unprivileged = o->unprivileged };
	struct kdiff_opts ko = { .sz = sizeof(ko), .input = o->kernel_input,
				 .input_len = o->kernel_input_len,
				 .check_runs = o->kernel_check_runs ? o->kernel_check_runs :
					       PIPELINE_KERNEL_CHECK_RUNS,
				 .seed = o->seed,
				 .step_budget = o->kernel_steps ? o->kernel_steps :
						PIPELINE_KERNEL_STEPS,
				 .log_max = o->kernel_log_max ? o->kernel_log_max :
					    PIPELINE_KERNEL_LOG_MAX };
	const struct ebpf_object *obj = &r->obj;
	const struct ebpf_prog *prog = &r->view;
	struct kdiff_result kr;
	struct diag d;
	int err;

	if (!o->kernel_diff_only) {
		bool ask;

		if ((err = judge_verdict(r, stats, &vo, &ask)))
			return err;
		if (!ask)	/* nothing more to ask: no log to read, nothing runs */
			return 0;
	}
	diag_clear(&d);
	if ((err = kdiff_run(&kr, obj, prog, &ko, &d))) {
		if (err == -ENOMEM)
			return err;
		stats[K_ERRORS]++;
		return 0;
	}
	if (kr.claims.nranges)
		stats[K_CLAIM_PROGRAMS]++;
	stats[K_CLAIMS] += kr.claims.nranges;
	stats[K_CLAIM_CHECKS] += kr.check.checks;
	stats[K_TEST_RUNS] += kr.ran;
	stats[K_MAP_RUNS] += kr.ran && kr.maps_compared;
	stats[K_MAP_HASH_RUNS] += kr.ran && kr.hash_maps_compared;
	stats[K_MAP_PERCPU_RUNS] += kr.ran && kr.percpu_maps_compared;
	stats[K_MAP_LEFT_RUNS] += kr.ran && kr.maps_left;
	stats[K_MAP_TIMER_RUNS] += kr.ran && kr.timer_maps_compared;
	stats[K_MAY_GOTO_FREE] += kr.ran && kr.may_goto_free && !kr.nondeterministic;
	stats[K_MAY_GOTO_DEP] += kr.ran && kr.may_goto_dep;
	stats[K_MAY_GOTO_DRAWN] += kr.ran && kr.may_goto_spent && !kr.may_goto_free &&
				   !kr.may_goto_dep;
	stats[K_TIMER_NOMEM] += kr.ran && kr.timer_nomem;
	stats[K_NOT_COMPARED] += kr.ran && kr.nondeterministic;
	stats[K_REPLAYED] += kr.ran && kr.replay && !kr.nondeterministic;
	if (kr.ran && kr.nondeterministic && kr.nc > KDIFF_NC_NONE && kr.nc < KDIFF_NC_COUNT)
		stats[K_NC_FIRST + kr.nc - 1]++;
	switch (kr.kind) {
	case KDIFF_CLAIM: stats[K_CLAIMS_REFUTED]++; break;
	case KDIFF_RETVAL:
	case KDIFF_PACKET:
	case KDIFF_TRAP:
	case KDIFF_MAP: stats[K_RESULT_DIFF]++; break;
	case KDIFF_INVARIANT: stats[K_INVARIANT]++; break;
	default: break;
	}
	if ((err = judge_exits(r, stats, &kr, obj, prog))) {
		kdiff_result__free(&kr);
		return err;
	}
	if (kr.kind >= KDIFF_INVARIANT) {
		struct finding *f = calloc(1, sizeof(*f));

		if (!f) {
			err = -ENOMEM;
		} else if ((err = kdiff_finding(f, &kr, obj, prog))) {
			free(f);
		} else {
			err = pipeline_add_finding(r, f);
		}
	}
	kdiff_result__free(&kr);
	return err;
}

static void kernel_summary(struct sbuf *sb, const uint64_t *n, double cpu, const char *dir,
			   uint64_t saved)
{
	if (!n[K_PROGRAMS] && !n[K_ERRORS] && !n[K_UNPRIV_SKIP])
		return;
	sbuf_printf(sb, "  kernel verdicts %" PRIu64 " programs: both accept %" PRIu64 ", both reject %"
		    PRIu64 ", improvement %" PRIu64 " (kernel limits), rule gap %" PRIu64
		    " (refused by none: findings), regression %" PRIu64, n[K_PROGRAMS],
		    n[K_BOTH_ACCEPT], n[K_BOTH_REJECT], n[K_IMPROVEMENT], n[K_RULE_GAP],
		    n[K_REGRESSION]);
	if (n[K_UNPRIV_RULE] || n[K_UNPRIV_SKIP])
		sbuf_printf(sb, ", unprivileged kernel's own rule (Spectre, pointer leaks) %" PRIu64
			    "; %" PRIu64 " not judgeable unprivileged (types that need CAP_PERFMON)",
			    n[K_UNPRIV_RULE], n[K_UNPRIV_SKIP]);
	sbuf_printf(sb, " (%" PRIu64 " disagreement signatures saved in %s/verdicts/)\n", saved,
		    dir ? dir : ".");
	sbuf_printf(sb, "  kernel claims   %" PRIu64 " range claims from the logs of %" PRIu64
		    " programs, %" PRIu64 " checks: %" PRIu64 " programs refuted one; %" PRIu64
		    " test runs compared (%" PRIu64 " on their maps too: %" PRIu64 " with hash maps, %"
		    PRIu64 " with per-CPU maps, %" PRIu64 " of programs arming timers; %" PRIu64
		    " left maps out; %" PRIu64 " of them not compared: nondeterministic), %" PRIu64
		    " differed; %"
		    PRIu64 " invariant violations; %" PRIu64 " safe verdicts faulted", n[K_CLAIMS],
		    n[K_CLAIM_PROGRAMS], n[K_CLAIM_CHECKS], n[K_CLAIMS_REFUTED], n[K_TEST_RUNS],
		    n[K_MAP_RUNS], n[K_MAP_HASH_RUNS], n[K_MAP_PERCPU_RUNS], n[K_MAP_TIMER_RUNS],
		    n[K_MAP_LEFT_RUNS], n[K_NOT_COMPARED],
		    n[K_RESULT_DIFF], n[K_INVARIANT], n[K_VERDICT_FAULTS]);
	if (n[K_REPLAYED])
		sbuf_printf(sb, "; %" PRIu64 " runs compared by replaying the kernel's logged "
			    "helper results", n[K_REPLAYED]);
	if (n[K_NOT_COMPARED]) {
		const char *sep = "; not compared: ";

		for (unsigned k = KDIFF_NC_NONE + 1; k < KDIFF_NC_COUNT; k++) {
			if (!n[K_NC_FIRST + k - 1])
				continue;
			sbuf_printf(sb, "%s%" PRIu64 " %s", sep, n[K_NC_FIRST + k - 1],
				    kdiff_nc_name(k));
			sep = ", ";
		}
	}
	sbuf_printf(sb, "; %" PRIu64 " runs judged bpfscev's exit claims, %" PRIu64 " refuted",
		    n[K_EXIT_JUDGED], n[K_EXIT_REFUTED]);
	if (n[K_MAY_GOTO_FREE] || n[K_MAY_GOTO_DEP] || n[K_MAY_GOTO_DRAWN])
		sbuf_printf(sb, "; %" PRIu64 " runs spent a may_goto budget and were compared (the "
			    "same result under other budgets), %" PRIu64 " not (it depends on the "
			    "budget), %" PRIu64 " not (helpers whose results the interpreter draws)",
			    n[K_MAY_GOTO_FREE], n[K_MAY_GOTO_DEP], n[K_MAY_GOTO_DRAWN]);
	if (n[K_TIMER_NOMEM])
		sbuf_printf(sb, "; %" PRIu64 " runs compared with bpf_timer_init calls failing "
			    "with -ENOMEM (the kernel's allocation under memory pressure)",
			    n[K_TIMER_NOMEM]);
	if (n[K_ERRORS])
		sbuf_printf(sb, "; %" PRIu64 " programs the kernel could not be asked about",
			    n[K_ERRORS]);
	sbuf_printf(sb, " (%.1f kernel-phase cpu-seconds)\n", cpu);
}

const struct oracle_ops oracle_kernel = {
	.name = "kernel",
	.stats = kernel_stats,
	.nstats = K_NSTATS,
	.wanted = kernel_wanted,
	.run = kernel_run,
	.summary = kernel_summary,
};

void fuzz_disagreement__free(struct fuzz_disagreement *d)
{
	if (!d)
		return;
	free(d->case_text);
	free(d->ours);
	free(d->kernel_log);
	free(d);
}

static int write_text(const char *dir, const char *name, const char *text)
{
	char path[4200];
	FILE *fp;
	int err = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	if (!fp)
		return -errno;
	if (fputs(text, fp) < 0)
		err = -EIO;
	if (fclose(fp) && !err)
		err = -EIO;
	return err;
}

int fuzz_save_disagreement(const char *dir, const struct fuzz_disagreement *d, const char *origin,
			   bool *is_new, char *path, size_t path_len)
{
	char top[4096], tmp[4200], cpath[4300];
	unsigned long count = 0;
	FILE *fp;
	int err;

	*is_new = false;
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	snprintf(top, sizeof(top), "%s/verdicts", dir);
	if (mkdir(top, 0755) && errno != EEXIST)
		return -errno;
	snprintf(path, path_len, "%s/%s-%016" PRIx64, top, verdict_class_name(d->cls), d->sig);
	snprintf(cpath, sizeof(cpath), "%s/count", path);
	fp = fopen(cpath, "r");
	if (fp) {	/* seen before: one more */
		if (fscanf(fp, "%lu", &count) != 1)
			count = 1;
		fclose(fp);
		snprintf(tmp, sizeof(tmp), "%lu\n", count + 1);
		return write_text(path, "count", tmp);
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (mkdir(tmp, 0755) && errno != EEXIST)
		return -errno;
	{
		struct sbuf sb = SBUF_INIT;

		sbuf_printf(&sb, "# verdict disagreement (%s), found by %s\n# replay: bpfscev verify "
			    "--kernel prog.case\n", verdict_class_name(d->cls), origin);
		sbuf_puts(&sb, d->case_text);
		err = sb.oom ? -ENOMEM : write_text(tmp, "prog.case", sbuf_cstr(&sb));
		sbuf_free(&sb);
	}
	if (!err)
		err = write_text(tmp, "bpfscev.txt", d->ours);
	if (!err)
		err = write_text(tmp, "kernel.log", d->kernel_log);
	if (!err)
		err = write_text(tmp, "count", "1\n");
	if (!err && rename(tmp, path))
		err = -errno;
	if (!err)
		*is_new = true;
	return err;
}
