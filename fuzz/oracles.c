/* The campaign's optional oracles: Z3 on every claim, the kernel's verdict and log (oracles.h). */
#include "fuzz/oracles.h"

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

static const char *const stat_names[ORACLE_STAT_COUNT] = {
	[ORACLE_STAT_Z3_PROGRAMS] = "z3_programs",
	[ORACLE_STAT_Z3_CLAIMS] = "z3_claims",
	[ORACLE_STAT_Z3_PROVED] = "z3_proved",
	[ORACLE_STAT_Z3_REFUTED] = "z3_refuted",
	[ORACLE_STAT_Z3_UNKNOWN] = "z3_unknown",
	[ORACLE_STAT_Z3_ENCODING] = "z3_encoding",
	[ORACLE_STAT_KERNEL_PROGRAMS] = "kernel_programs",
	[ORACLE_STAT_KERNEL_BOTH_ACCEPT] = "kernel_both_accept",
	[ORACLE_STAT_KERNEL_BOTH_REJECT] = "kernel_both_reject",
	[ORACLE_STAT_KERNEL_IMPROVEMENT] = "kernel_improvement",
	[ORACLE_STAT_KERNEL_REGRESSION] = "kernel_regression",
	[ORACLE_STAT_KERNEL_VERDICT_FAULTS] = "kernel_verdict_faults",
	[ORACLE_STAT_KERNEL_CLAIM_PROGRAMS] = "kernel_claim_programs",
	[ORACLE_STAT_KERNEL_CLAIMS] = "kernel_claims",
	[ORACLE_STAT_KERNEL_CLAIM_CHECKS] = "kernel_claim_checks",
	[ORACLE_STAT_KERNEL_CLAIMS_REFUTED] = "kernel_claims_refuted",
	[ORACLE_STAT_KERNEL_TEST_RUNS] = "kernel_test_runs",
	[ORACLE_STAT_KERNEL_RESULT_DIFF] = "kernel_result_diff",
	[ORACLE_STAT_KERNEL_INVARIANT] = "kernel_invariant",
	[ORACLE_STAT_KERNEL_ERRORS] = "kernel_errors",
};

const char *fuzz_oracle_stat_name(enum fuzz_oracle_stat stat)
{
	return (unsigned)stat < ORACLE_STAT_COUNT ? stat_names[stat] : "?";
}

static int add_finding(struct fuzz_oracle_result *r, struct finding *f)
{
	struct finding **n = realloc(r->findings, (r->nfindings + 1) * sizeof(*n));

	if (!n) {
		finding__free(f);
		free(f);
		return -ENOMEM;
	}
	r->findings = n;
	n[r->nfindings++] = f;
	return 0;
}

static int run_z3(struct fuzz_oracle_result *r, const struct fuzz_oracle_opts *opts,
		  const struct ebpf_object *obj, const struct ebpf_prog *prog,
		  const struct claim_prog *claims)
{
	/* a resource limit makes the verdicts the same on every machine: the clock limits are
	 * then only what the caller set (smt's own safety net otherwise) */
	bool rl = opts->z3_rlimit || opts->z3_program_rlimit;
	struct smt_opts so = { .sz = sizeof(so),
			       .timeout_ms = opts->z3_timeout_ms ? opts->z3_timeout_ms :
					     rl ? 0 : 500,
			       .budget_s = opts->z3_budget_s > 0 ? opts->z3_budget_s : rl ? 0 : 2,
			       .rlimit = opts->z3_rlimit, .program_rlimit = opts->z3_program_rlimit,
			       .input_len = GEN_INPUT_LEN, .replay_steps = 2000000 };
	struct smt_result sr;
	int err;

	if (!claims->nranges && !claims->nloops)
		return 0;
	if ((err = smt_check(&sr, obj, prog, claims, &so)))
		return err;
	r->stats[ORACLE_STAT_Z3_PROGRAMS]++;
	r->stats[ORACLE_STAT_Z3_CLAIMS] += sr.nclaims;
	r->stats[ORACLE_STAT_Z3_PROVED] += sr.proved;
	r->stats[ORACLE_STAT_Z3_REFUTED] += sr.refuted;
	r->stats[ORACLE_STAT_Z3_UNKNOWN] += sr.unknown;
	r->stats[ORACLE_STAT_Z3_ENCODING] += sr.encoding_bugs;
	for (uint32_t k = 0; k < sr.nfindings && !err; k++) {
		struct finding *f = calloc(1, sizeof(*f));

		if (!f) {
			err = -ENOMEM;
			break;
		}
		if ((err = finding__from_check(f, &sr.findings[k], prog, obj->maps, obj->map_cnt,
					       claims))) {
			free(f);
			break;
		}
		snprintf(f->source, sizeof(f->source), "z3");
		finding_signature(f, claims);
		err = add_finding(r, f);
	}
	smt_result__free(&sr);
	return err;
}

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

static int disagreement(struct fuzz_oracle_result *r, const struct verdict_report *vr,
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
	corpus_format_prog(&sb, prog->insns, prog->len, prog->prog_type, obj->maps, obj->map_cnt);
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

/* A program called safe that faults: the verdict is unsound. */
static int verdict_finding(struct fuzz_oracle_result *r, const struct verdict_report *vr,
			   const struct ebpf_object *obj, const struct ebpf_prog *prog)
{
	struct finding *f = calloc(1, sizeof(*f));
	int err;

	if (!f)
		return -ENOMEM;
	if ((err = finding__init(f, FIND_VERDICT, "verdict", "verify", prog, obj->maps,
				 obj->map_cnt, vr->fault_input, vr->fault_input_len, NULL, 0, NULL))) {
		free(f);
		return err;
	}
	snprintf(f->text, sizeof(f->text), "bpfscev verify calls it safe, but it faults when run: %s",
		 vr->fault);
	finding_signature(f, NULL);
	return add_finding(r, f);
}

static int run_kernel(struct fuzz_oracle_result *r, const struct fuzz_oracle_opts *opts,
		      const struct ebpf_object *obj, const struct ebpf_prog *prog)
{
	struct verdict_opts vo = { .sz = sizeof(vo), .kernel = true, .runs = 8,
				   .seed = opts->seed };
	struct kdiff_opts ko = { .sz = sizeof(ko), .check_runs = 16, .seed = opts->seed,
				 .step_budget = 1000000, .log_max = 16u << 20 };
	struct verdict_report vr;
	struct kdiff_result kr;
	struct diag d;
	int err;

	diag_clear(&d);
	if ((err = verdict_compare(&vr, obj, prog, &vo, &d))) {
		if (err == -ENOMEM)
			return err;
		r->stats[ORACLE_STAT_KERNEL_ERRORS]++;
		return 0;
	}
	if (vr.faults && (err = verdict_finding(r, &vr, obj, prog))) {
		verdict_report__free(&vr);
		return err;
	}
	r->stats[ORACLE_STAT_KERNEL_VERDICT_FAULTS] += vr.faults != 0;
	if (vr.cls == VC_NO_KERNEL) {
		r->stats[ORACLE_STAT_KERNEL_ERRORS]++;
		verdict_report__free(&vr);
		return 0;
	}
	r->stats[ORACLE_STAT_KERNEL_PROGRAMS]++;
	r->stats[ORACLE_STAT_KERNEL_BOTH_ACCEPT + (vr.cls - VC_BOTH_ACCEPT)]++;
	if ((vr.cls == VC_IMPROVEMENT || vr.cls == VC_REGRESSION) &&
	    (err = disagreement(r, &vr, obj, prog))) {
		verdict_report__free(&vr);
		return err;
	}
	if (!vr.kernel_accepted) {	/* nothing more to ask: no log to read, nothing runs */
		verdict_report__free(&vr);
		return 0;
	}
	verdict_report__free(&vr);

	diag_clear(&d);
	if ((err = kdiff_run(&kr, obj, prog, &ko, &d))) {
		if (err == -ENOMEM)
			return err;
		r->stats[ORACLE_STAT_KERNEL_ERRORS]++;
		return 0;
	}
	if (kr.claims.nranges)
		r->stats[ORACLE_STAT_KERNEL_CLAIM_PROGRAMS]++;
	r->stats[ORACLE_STAT_KERNEL_CLAIMS] += kr.claims.nranges;
	r->stats[ORACLE_STAT_KERNEL_CLAIM_CHECKS] += kr.check.checks;
	r->stats[ORACLE_STAT_KERNEL_TEST_RUNS] += kr.ran;
	switch (kr.kind) {
	case KDIFF_CLAIM: r->stats[ORACLE_STAT_KERNEL_CLAIMS_REFUTED]++; break;
	case KDIFF_RETVAL:
	case KDIFF_PACKET:
	case KDIFF_TRAP: r->stats[ORACLE_STAT_KERNEL_RESULT_DIFF]++; break;
	case KDIFF_INVARIANT: r->stats[ORACLE_STAT_KERNEL_INVARIANT]++; break;
	default: break;
	}
	if (kr.kind >= KDIFF_INVARIANT) {
		struct finding *f = calloc(1, sizeof(*f));

		if (!f) {
			err = -ENOMEM;
		} else if ((err = kdiff_finding(f, &kr, obj, prog))) {
			free(f);
		} else {
			err = add_finding(r, f);
		}
	}
	kdiff_result__free(&kr);
	return err;
}

int fuzz_oracles_run(struct fuzz_oracle_result *r, const struct fuzz_oracle_opts *opts,
		     const struct ebpf_object *obj, const struct ebpf_prog *prog,
		     const struct claim_prog *claims)
{
	double t0 = cpu_s(), t1;
	int err = 0;

	memset(r, 0, sizeof(*r));
	if (opts->z3)
		err = run_z3(r, opts, obj, prog, claims);
	t1 = cpu_s();
	r->t_z3 = t1 - t0;
	if (!err && opts->kernel)
		err = run_kernel(r, opts, obj, prog);
	r->t_kernel = cpu_s() - t1;
	if (err)
		fuzz_oracle_result__free(r);
	return err;
}

void fuzz_disagreement__free(struct fuzz_disagreement *d)
{
	if (!d)
		return;
	free(d->case_text);
	free(d->ours);
	free(d->kernel_log);
	free(d);
}

void fuzz_oracle_result__free(struct fuzz_oracle_result *r)
{
	for (uint32_t k = 0; k < r->nfindings; k++) {
		finding__free(r->findings[k]);
		free(r->findings[k]);
	}
	free(r->findings);
	fuzz_disagreement__free(r->dis);
	memset(r, 0, sizeof(*r));
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
