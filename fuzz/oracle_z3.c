/* The pipeline's Z3 oracle (pipeline.h): every claim decided for all inputs by oracle/z3/smt.h —
 * proved, refuted (a counterexample the interpreter confirmed: a finding) or unknown (timeout,
 * budget, not inductive, unsupported); a model the interpreter does not confirm is an encoding
 * finding.  The whole answer stays in r->z3 (per-claim verdicts, findings, resource use). */
#include "fuzz/pipeline.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

enum { Z3_PROGRAMS, Z3_CLAIMS, Z3_PROVED, Z3_REFUTED, Z3_UNKNOWN, Z3_ENCODING,
       /* the unknown ones by why (smt_unknown_why: SMT_WHY_SOCKET on, in its order) */
       Z3_UNKNOWN_WHY, Z3_NO_ENCODING = Z3_UNKNOWN_WHY + SMT_WHY_NR - 1, Z3_NSTATS };

static const char *const z3_stats[Z3_NSTATS] = {
	[Z3_PROGRAMS] = "z3_programs",	/* programs whose claims went to Z3 */
	[Z3_CLAIMS] = "z3_claims",
	[Z3_PROVED] = "z3_proved",
	[Z3_REFUTED] = "z3_refuted",	/* counterexamples the interpreter confirmed */
	[Z3_UNKNOWN] = "z3_unknown",	/* timeout, budget, not inductive, unsupported */
	[Z3_ENCODING] = "z3_encoding",	/* models the interpreter did not confirm: oracle bugs */
	[Z3_UNKNOWN_WHY + SMT_WHY_SOCKET - 1] = "z3_unknown_socket",
	[Z3_UNKNOWN_WHY + SMT_WHY_ITER - 1] = "z3_unknown_iterator",
	[Z3_UNKNOWN_WHY + SMT_WHY_KFUNC - 1] = "z3_unknown_kfunc",
	[Z3_UNKNOWN_WHY + SMT_WHY_HELPER - 1] = "z3_unknown_helper",
	[Z3_UNKNOWN_WHY + SMT_WHY_INSN - 1] = "z3_unknown_instruction",
	[Z3_UNKNOWN_WHY + SMT_WHY_OPEN - 1] = "z3_unknown_open",
	/* programs Z3 did not judge: a read-only context (kprobe, tracepoint, sock_ops,
	 * cgroup_device, iter/ ...), which the encoding does not cover */
	[Z3_NO_ENCODING] = "z3_no_encoding",
};

static bool z3_wanted(const struct pipeline_opts *o)
{
	return o->z3;
}

/* smt's answer per claim in the common shape; a refuted claim's counterexample is the finding
 * the interpreter confirmed. */
static void z3_verdicts(struct claim_verdicts *v, const struct claim_prog *cp,
			const struct smt_result *z)
{
	for (uint32_t k = 0; k < z->nclaims; k++) {
		const struct smt_claim_result *c = &z->claims[k];
		struct claim_verdict *e = claim_verdicts__at(v, cp, c->kind == SMT_CLAIM_RANGE ?
							     CLAIM_RANGE : c->kind == SMT_CLAIM_IV ?
							     CLAIM_IV : CLAIM_TRIP, c->index, c->iv);

		if (!e)
			continue;
		e->judgement = c->verdict == SMT_PROVED ? CLAIM_PROVED :
			       c->verdict == SMT_REFUTED ? CLAIM_REFUTED : CLAIM_UNKNOWN;
		e->reason = c->reason;
		if (c->finding >= 0 && (uint32_t)c->finding < z->nfindings) {
			const struct check_finding *f = &z->findings[c->finding];

			e->finding_kind = f->kind;
			e->input = f->input;
			e->input_len = f->input_len;
			e->helper = f->helper_data;
			e->helper_len = f->helper_len;
			e->observed = f->observed;
		}
	}
}

static int z3_run(struct pipeline_result *r, uint64_t *stats, struct claim_verdicts *v,
		  const struct pipeline_opts *o)
{
	/* a resource limit makes the verdicts the same on every machine: the clock limits are
	 * then only what the caller set (smt's own safety net otherwise) */
	bool rl = o->z3_rlimit || o->z3_program_rlimit;
	struct smt_opts so = { .sz = sizeof(so),
			       .timeout_ms = o->z3_timeout_ms ? o->z3_timeout_ms :
					     rl ? 0 : PIPELINE_Z3_TIMEOUT_MS,
			       .budget_s = o->z3_budget_s > 0 ? o->z3_budget_s :
					   o->z3_budget_s < 0 || rl ? 0 : PIPELINE_Z3_BUDGET_S,
			       .rlimit = o->z3_rlimit, .program_rlimit = o->z3_program_rlimit,
			       .input_len = o->input_len ? o->input_len : PIPELINE_INPUT_LEN,
			       .ctx_kind = o->ctx_kind,
			       .replay_steps = o->z3_replay_steps ? o->z3_replay_steps :
					       PIPELINE_Z3_REPLAY_STEPS,
			       .precision = o->z3_precision, .bmc_depth = o->z3_bmc_depth };
	const struct claim_prog *cp = r->cp;
	int err;

	if (!cp->nranges && !cp->nloops && !o->z3_empty)
		return 0;
	/* (the encoding covers the plain, XDP and skb contexts: on the read-only ones — kprobe,
	 * tracepoint, sock_ops, cgroup_sock, ... — the claims are left to the other judges) */
	if ((err = smt_check(&r->z3, &r->obj, &r->view, cp, &so)) == -EOPNOTSUPP) {
		stats[Z3_NO_ENCODING]++;
		return 0;
	}
	if (err)
		return err;
	r->has_z3 = true;
	z3_verdicts(v, cp, &r->z3);
	stats[Z3_PROGRAMS]++;
	stats[Z3_CLAIMS] += r->z3.nclaims;
	stats[Z3_PROVED] += claim_verdicts__count(v, CLAIM_PROVED);
	stats[Z3_REFUTED] += claim_verdicts__count(v, CLAIM_REFUTED);
	stats[Z3_UNKNOWN] += claim_verdicts__count(v, CLAIM_UNKNOWN);
	stats[Z3_ENCODING] += r->z3.encoding_bugs;
	for (uint32_t k = 0; k < r->z3.nclaims; k++) {
		enum smt_unknown_why w = smt_unknown_why(&r->view, &r->z3.claims[k]);

		if (w != SMT_WHY_NONE)
			stats[Z3_UNKNOWN_WHY + w - 1]++;
	}
	for (uint32_t k = 0; o->triage && k < r->z3.nfindings && !err; k++) {
		struct finding *f = calloc(1, sizeof(*f));

		if (!f)
			return -ENOMEM;
		if ((err = finding__from_check(f, &r->z3.findings[k], &r->view, r->obj.maps,
					       r->obj.map_cnt, cp))) {
			free(f);
			break;
		}
		snprintf(f->source, sizeof(f->source), "z3");
		finding_signature(f, cp);
		err = pipeline_add_finding(r, f);
	}
	return err;
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0;
}

static void z3_summary(struct sbuf *sb, const uint64_t *n, double cpu, const char *dir,
		       uint64_t saved)
{
	if (!n[Z3_PROGRAMS])
		return;
	sbuf_printf(sb, "  z3              %" PRIu64 " claims of %" PRIu64 " programs: proved %"
		    PRIu64 " (%.1f%%), refuted %" PRIu64 ", unknown %" PRIu64 "; %" PRIu64
		    " encoding findings; %.0f claims per z3 cpu-second\n", n[Z3_CLAIMS],
		    n[Z3_PROGRAMS], n[Z3_PROVED], pct(n[Z3_PROVED], n[Z3_CLAIMS]), n[Z3_REFUTED],
		    n[Z3_UNKNOWN], n[Z3_ENCODING], cpu > 0 ? n[Z3_CLAIMS] / cpu : 0);
	if (n[Z3_UNKNOWN] || n[Z3_NO_ENCODING]) {
		sbuf_puts(sb, "  z3 unknown by  ");
		for (unsigned w = SMT_WHY_SOCKET; w < SMT_WHY_NR; w++)
			sbuf_printf(sb, "%s%s %" PRIu64, w == SMT_WHY_SOCKET ? "" : ", ",
				    smt_unknown_why_name((enum smt_unknown_why)w),
				    n[Z3_UNKNOWN_WHY + w - 1]);
		sbuf_printf(sb, " (the instruction that cut them; open: undecided without a cut); %"
			    PRIu64 " programs not encoded (read-only contexts)\n",
			    n[Z3_NO_ENCODING]);
	}
}

const struct oracle_ops oracle_z3 = {
	.name = "z3",
	.stats = z3_stats,
	.nstats = Z3_NSTATS,
	.wanted = z3_wanted,
	.run = z3_run,
	.summary = z3_summary,
};
