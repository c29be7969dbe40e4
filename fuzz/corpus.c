/* The regression corpus runner: see corpus.h. */
#include "fuzz/corpus.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf/prog.h"
#include "bpf/asm.h"
#include "casefile/casefile.h"
#include "fuzz/pipeline.h"
#include "oracle/exec/check.h"
#include "oracle/kernel/kernel.h"
#include "triage/finding.h"
#include "oracle/z3/smt.h"
#include "triage/verdict.h"
#include "scev/scev.h"

struct cctx {
	const char *path;
	struct sbuf *log;
	int fails;
	int malformed;		/* lines that cannot be read: the case is broken, not failing */
};

static void fail(struct cctx *c, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void fail(struct cctx *c, int line, const char *fmt, ...)
{
	va_list ap;

	sbuf_printf(c->log, "%s:%d: ", c->path, line);
	va_start(ap, fmt);
	sbuf_vprintf(c->log, fmt, ap);
	va_end(ap);
	sbuf_putc(c->log, '\n');
	c->fails++;
}

/* A line the runner cannot read: reported as a failure is, and the case is malformed. */
#define malformed(c, line, ...)                                                            \
	do {                                                                               \
		fail(c, line, __VA_ARGS__);                                                \
		(c)->malformed++;                                                          \
	} while (0)

/* Iterates the non-empty, non-comment lines of a section: *line gets the file line. */
static const char *next_line(const char **p, char *buf, size_t n, int *line)
{
	while (**p) {
		const char *e = strchr(*p, '\n');
		size_t len = e ? (size_t)(e - *p) : strlen(*p);
		const char *s = *p;

		*p = e ? e + 1 : *p + len;
		(*line)++;
		while (len && (*s == ' ' || *s == '\t')) {
			s++;
			len--;
		}
		while (len && (s[len - 1] == ' ' || s[len - 1] == '\r'))
			len--;
		if (!len || *s == '#')
			continue;
		if (len >= n)
			len = n - 1;
		memcpy(buf, s, len);
		buf[len] = '\0';
		return buf;
	}
	return NULL;
}

static const struct claim_loop *find_loop(const struct claim_prog *cp, uint32_t header)
{
	for (uint32_t i = 0; i < cp->nloops; i++)
		if (cp->loops[i].header == header)
			return &cp->loops[i];
	return NULL;
}

static void fmt_loop(char *buf, size_t n, const struct claim_loop *l)
{
	struct sbuf sb = SBUF_INIT;

	sbuf_printf(&sb, "header=%u depth=%u parent=", l->header, l->depth);
	if (l->parent < 0)
		sbuf_putc(&sb, '-');
	else
		sbuf_printf(&sb, "%" PRId64, l->parent);
	sbuf_puts(&sb, " back=");
	for (uint32_t k = 0; k < l->nback_edges; k++)
		sbuf_printf(&sb, "%s%u", k ? "," : "", l->back_edges[k][0]);
	sbuf_puts(&sb, " latch=");
	if (l->latch == UINT32_MAX)
		sbuf_putc(&sb, '-');
	else
		sbuf_printf(&sb, "%u", l->latch);
	sbuf_puts(&sb, " exits=");
	for (uint32_t k = 0; k < l->nexits; k++)
		sbuf_printf(&sb, "%s%u>%u", k ? "," : "", l->exits[k][0], l->exits[k][1]);
	if (!l->nexits)
		sbuf_putc(&sb, '-');
	if (l->irreducible) {
		sbuf_puts(&sb, " irreducible entries=");
		for (uint32_t k = 0; k < l->nentries; k++)
			sbuf_printf(&sb, "%s%u", k ? "," : "", l->entries[k]);
	}
	snprintf(buf, n, "%s", sbuf_cstr(&sb));
	sbuf_free(&sb);
}

static void check_loops(struct cctx *c, const struct casefile_section *sec, const struct claim_prog *cp)
{
	const char *p = sec->text;
	char buf[512], got[512];
	int line = sec->line - 1;
	uint32_t i = 0;

	while (next_line(&p, buf, sizeof(buf), &line)) {
		if (i >= cp->nloops) {
			fail(c, line, "expected loop '%s', the analysis found only %u loops", buf,
			     cp->nloops);
			return;
		}
		fmt_loop(got, sizeof(got), &cp->loops[i]);
		if (strcmp(got, buf))
			fail(c, line, "loop %u: expected '%s', found '%s'", i, buf, got);
		i++;
	}
	if (i < cp->nloops) {
		fmt_loop(got, sizeof(got), &cp->loops[i]);
		fail(c, line, "unexpected extra loop '%s'", got);
	}
}

static void check_trip(struct cctx *c, const struct casefile_section *sec, const struct claim_prog *cp)
{
	const char *p = sec->text;
	char buf[256], kind[32];
	struct claim_text_buf rb;
	int line = sec->line - 1;

	while (next_line(&p, buf, sizeof(buf), &line)) {
		unsigned header;
		unsigned long long v = 0;
		const struct claim_loop *l;

		if (sscanf(buf, "%u: %31s", &header, kind) != 2) {
			malformed(c, line, "expected '<header>: exact N | bounded <=N | unknown'");
			continue;
		}
		l = find_loop(cp, header);
		if (!l) {
			fail(c, line, "no loop with header %u", header);
			continue;
		}
		if (!strcmp(kind, "exact") && sscanf(buf, "%*u: exact %llu", &v) == 1) {
			if (l->trip.kind != TRIP_EXACT || l->trip.max != v)
				fail(c, line, "loop %u: expected exactly %llu header executions, claimed "
				     "%s max %" PRIu64 " (%s)", header, v,
				     l->trip.kind == TRIP_EXACT ? "exact" : l->trip.kind == TRIP_BOUNDED ?
				     "bounded" : "unknown", l->trip.max, claim_trip_reason(&l->trip, &rb));
		} else if (!strcmp(kind, "bounded") && sscanf(buf, "%*u: bounded <=%llu", &v) == 1) {
			if (l->trip.kind == TRIP_UNKNOWN || l->trip.max > v)
				fail(c, line, "loop %u: expected at most %llu header executions, claimed "
				     "%s %" PRIu64 " (%s)", header, v,
				     l->trip.kind == TRIP_UNKNOWN ? "unknown" : "max", l->trip.max,
				     claim_trip_reason(&l->trip, &rb));
		} else if (!strcmp(kind, "unknown")) {
			if (l->trip.kind != TRIP_UNKNOWN)
				fail(c, line, "loop %u: expected no bound (it may not terminate), claimed "
				     "max %" PRIu64, header, l->trip.max);
		} else {
			malformed(c, line, "expected '<header>: exact N | bounded <=N | unknown'");
		}
	}
}

static void check_iv(struct cctx *c, const struct casefile_section *sec, const struct claim_prog *cp)
{
	const char *p = sec->text;
	char buf[256], locs[32];
	int line = sec->line - 1;

	while (next_line(&p, buf, sizeof(buf), &line)) {
		unsigned header, width;
		long long step;
		unsigned long long start = 0;
		bool has_start = strstr(buf, "start=") != NULL, found = false;
		const struct claim_loop *l;
		loc_t loc;

		if (sscanf(buf, "%u: %31s %u step=%lld", &header, locs, &width, &step) != 4 ||
		    loc_parse(locs, &loc) || (has_start && sscanf(strstr(buf, "start="), "start=%llu",
								&start) != 1)) {
			malformed(c, line, "expected '<header>: <loc> <width> step=S [start=V]'");
			continue;
		}
		l = find_loop(cp, header);
		if (!l) {
			fail(c, line, "no loop with header %u", header);
			continue;
		}
		for (uint32_t k = 0; k < l->nivs; k++) {
			const struct claim_iv *iv = &l->ivs[k];
			uint64_t want = width == 32 ? (uint32_t)step : (uint64_t)step;

			if (iv->loc != loc)
				continue;
			found = true;
			if (iv->width != width || iv->step != want ||
			    (has_start && (!iv->has_start || iv->start != start)))
				fail(c, line, "loop %u: %s claimed as %u-bit step %" PRId64 " start %s%"
				     PRIu64, header, locs, iv->width, (int64_t)iv->step,
				     iv->has_start ? "" : "unknown ", iv->start);
		}
		if (!found)
			fail(c, line, "loop %u: %s is not claimed as an induction variable", header, locs);
	}
}

/* "-- verdict": bpfscev verify's verdict, "safe" or "unsafe|unsupported [reason substring]", by
 * the privileged rule, then optionally "unprivileged: VERDICT" by the unprivileged one
 * (verdict_opts.unprivileged); a program called safe is also run by the verdict oracle, and a
 * fault fails the case.  Where bpf() works, the unprivileged verdict is also held against the
 * kernel asked as an unprivileged loader (CAP_BPF without CAP_PERFMON, kernel.h's
 * kernel_unpriv_call): an improvement, a rule gap or a regression fails the case; a refusal
 * by a rule only the unprivileged kernel applies (VC_UNPRIV_RULE) or a type it cannot load
 * (VC_UNPRIV_SKIP) judges nothing. */
static void check_verdict(struct cctx *c, const struct casefile_section *sec,
			  const struct ebpf_object *obj, uint32_t prog_type)
{
	static const char strict[] = "unprivileged:";
	const char *p = sec->text;
	char buf[256];
	int line = sec->line, lines = 0;

	while (next_line(&p, buf, sizeof(buf), &line)) {
		struct verdict_opts vo = { .sz = sizeof(vo), .prog_type = prog_type };
		struct verdict_report r;
		char *want = buf + strspn(buf, " \t");
		struct diag d;
		size_t n;

		if (!*want)
			continue;
		if (!strncmp(want, strict, sizeof(strict) - 1)) {
			vo.unprivileged = true;
			vo.kernel = kernel_available(NULL, 0);
			want += sizeof(strict) - 1;
			want += strspn(want, " \t");
		} else if (lines) {
			malformed(c, line, "a verdict section has one verdict and one "
				  "'unprivileged:' verdict at most");
			return;
		}
		lines++;
		n = strcspn(want, " \t");
		diag_clear(&d);
		if (verdict_compare(&r, obj, &obj->progs[0], &vo, &d)) {
			fail(c, line, "verify failed: %s", d.msg);
			return;
		}
		if (strlen(scev_verdict_name(r.ours.kind)) != n ||
		    strncmp(want, scev_verdict_name(r.ours.kind), n))
			fail(c, line, "%sverdict %s at insn %u (%s), expected %.*s",
			     vo.unprivileged ? "unprivileged " : "", scev_verdict_name(r.ours.kind),
			     r.ours.pc, r.ours.reason, (int)n, want);
		else if (want[n] && !strstr(r.ours.reason, want + n + strspn(want + n, " \t")))
			fail(c, line, "verdict reason '%s' lacks '%s'", r.ours.reason,
			     want + n + strspn(want + n, " \t"));
		if (r.faults)
			fail(c, line, "called safe, but faults when run: %s", r.fault);
		if (r.cls == VC_IMPROVEMENT || r.cls == VC_REGRESSION || r.cls == VC_RULE_GAP)
			fail(c, line, "the unprivileged kernel %s it (%s): %s",
			     r.kernel_accepted ? "accepts" : "rejects", verdict_class_name(r.cls),
			     r.kernel_accepted ? "" : r.kernel_message);
		verdict_report__free(&r);
	}
	if (!lines)
		malformed(c, sec->line, "empty verdict section");
}

static void check_range(struct cctx *c, const struct casefile_section *sec, const struct claim_prog *cp)
{
	const char *p = sec->text;
	char buf[256], locs[32];
	int line = sec->line - 1;

	while (next_line(&p, buf, sizeof(buf), &line)) {
		unsigned pc;
		const char *u = strstr(buf, "u["), *s = strstr(buf, "s[");
		unsigned long long ulo = 0, uhi = 0;
		long long slo = 0, shi = 0;
		const struct claim_range *r = NULL;
		loc_t loc;

		if (sscanf(buf, "%u %31[^:]:", &pc, locs) != 2 || loc_parse(locs, &loc) ||
		    (!u && !s) || (u && sscanf(u, "u[%llu, %llu]", &ulo, &uhi) != 2) ||
		    (s && sscanf(s, "s[%lld, %lld]", &slo, &shi) != 2)) {
			malformed(c, line, "expected '<pc> <loc>: u[lo, hi]' and/or 's[lo, hi]'");
			continue;
		}
		for (uint32_t k = 0; k < cp->nranges; k++)
			if (cp->ranges[k].pc == pc && cp->ranges[k].loc == loc)
				r = &cp->ranges[k];
		if (!r) {
			fail(c, line, "no range is claimed for %s at pc %u", locs, pc);
			continue;
		}
		if (u && (r->r.umin < ulo || r->r.umax > uhi))
			fail(c, line, "%s at %u: claimed u[%" PRIu64 ", %" PRIu64 "], expected within "
			     "u[%llu, %llu]", locs, pc, r->r.umin, r->r.umax, ulo, uhi);
		if (s && (r->r.smin < slo || r->r.smax > shi))
			fail(c, line, "%s at %u: claimed s[%" PRId64 ", %" PRId64 "], expected within "
			     "s[%lld, %lld]", locs, pc, r->r.smin, r->r.smax, slo, shi);
	}
}

/* The execution oracle's findings on one set of runs: each fails the case. */
static void exec_findings(struct cctx *c, const struct check_result *res, const char *what)
{
	for (uint32_t k = 0; k < res->nfindings; k++)
		fail(c, 0, "UNSOUND (%s, %s): %s", what, finding_kind_name(res->findings[k].kind),
		     res->findings[k].text);
}

/* The Z3 oracle's answer on one claim set: a refuted claim (its counterexample confirmed by the
 * interpreter) and an encoding disagreement fail the case; unknown claims are only counted.
 * The budget is Z3's resource limit, so the verdicts do not depend on the machine; the clock
 * limits smt_check keeps as a safety net are never what decides. */
static void z3_findings(struct cctx *c, const struct smt_result *r,
			const struct claim_verdicts *v, const char *what, struct corpus_stats *st)
{
	for (uint32_t k = 0; k < r->nfindings; k++)
		fail(c, 0, "UNSOUND (%s, z3, %s): %s", what, finding_kind_name(r->findings[k].kind),
		     r->findings[k].text);
	if (r->refuted + r->encoding_bugs > r->nfindings)
		fail(c, 0, "Z3 refuted %u claim(s) (%s) without a finding", r->refuted, what);
	st->z3_programs++;
	st->z3_claims += r->nclaims;
	st->z3_proved += claim_verdicts__count(v, CLAIM_PROVED);
	st->z3_refuted += claim_verdicts__count(v, CLAIM_REFUTED);
	st->z3_unknown += claim_verdicts__count(v, CLAIM_UNKNOWN);
	st->z3_rlimit += r->rlimit_used;
}

/* The claims as JSON without the strategy's name: equal text, equal claims. */
static void claims_text(struct sbuf *sb, const struct claim_prog *cp)
{
	struct claim_prog anon = *cp;

	anon.strategy[0] = 0;
	sbuf_reset(sb);
	claims_write_prog(sb, &anon);
}

/* Z3 covers every input at once: a claim set equal to the other strategy's has been decided
 * already (the pipeline's judge hook; the other oracles judge every claim set). */
struct z3_dedup {
	int strategy;
	struct sbuf prev, cur;
};

static bool z3_new_claims(void *arg, const struct oracle_ops *op, const struct claim_prog *cp)
{
	struct z3_dedup *zd = arg;
	bool fresh;

	if (strcmp(op->name, "z3"))
		return true;
	claims_text(&zd->cur, cp);
	fresh = zd->strategy == SCEV_FORGET || strcmp(sbuf_cstr(&zd->cur), sbuf_cstr(&zd->prev));
	sbuf_reset(&zd->prev);
	sbuf_puts(&zd->prev, sbuf_cstr(&zd->cur));
	return fresh;
}

int corpus_run_case(const char *path, const struct corpus_opts *opts, struct sbuf *log)
{
	return corpus_replay(path, opts, log, NULL);
}

int corpus_replay(const char *path, const struct corpus_opts *uopts, struct sbuf *log,
		  struct corpus_stats *ustats)
{
	struct corpus_stats stats = { 0 };
	struct z3_dedup zd = { .prev = SBUF_INIT, .cur = SBUF_INIT };
	struct pipeline_result pr = { 0 };
	struct corpus_opts opts = { 0 };
	struct cctx c = { .path = path, .log = log };
	struct casefile *cf = NULL;
	struct ebpf_object *obj;
	const struct casefile_section *sec;
	uint8_t *input = NULL, *helper = NULL;
	size_t ilen = 0, hlen = 0;
	uint32_t prog_type = BPF_PROG_TYPE_UNSPEC;
	struct diag d;
	char msg[1024];
	int err;

	if (uopts)
		memcpy(&opts, uopts, uopts->sz && uopts->sz < sizeof(opts) ? uopts->sz : sizeof(opts));
	diag_clear(&d);
	err = casefile__open_file(&cf, path, &d);
	if (err) {
		diag_format(&d, msg, sizeof(msg));
		sbuf_printf(log, "%s\n", msg);
		return err;
	}
	obj = cf->obj;
	prog_type = obj->progs[0].prog_type;	/* "-- type" and "-- maps": casefile/ */
	if ((sec = casefile__section(cf, "input")) && ebpf_parse_hex(&input, &ilen, sec->text, &d))
		malformed(&c, sec->line + (d.line > 0 ? d.line - 1 : 0), "bad hex input: %s",
			  d.msg);
	if ((sec = casefile__section(cf, "helper")) && ebpf_parse_hex(&helper, &hlen, sec->text, &d))
		malformed(&c, sec->line + (d.line > 0 ? d.line - 1 : 0), "bad hex helper data: %s",
			  d.msg);
	if ((sec = casefile__section(cf, "verdict")))
		check_verdict(&c, sec, obj, prog_type);
	/* a structure defect: the verdict is all there is to check (nothing can be analyzed) */
	if (obj->progs[0].defect[0] && !sec)
		fail(&c, 0, "the program cannot be analyzed (insn %ld: %s) and the case states no "
		     "verdict", obj->progs[0].defect_insn, obj->progs[0].defect);
	for (int strategy = SCEV_FORGET; strategy <= SCEV_ITERATE && !obj->progs[0].defect[0];
	     strategy++) {
		const char *what = strategy == SCEV_FORGET ? "forget" : "iterate";
		struct pipeline_subject ps = { .obj = obj, .prog = &obj->progs[0] };
		/* Loops that run for billions of iterations or forever meet the step budget: keep
		 * it modest so every case stays fast, the long ones are checked up to it. */
		struct pipeline_opts po = {
			.sz = sizeof(po), .strategy = strategy, .prog_type = prog_type,
			.runs = opts.oracle_runs ? opts.oracle_runs : CORPUS_RUNS,
			.step_budget = CORPUS_STEPS,
			.ctx_kind = (int)check_ctx_kind(prog_type) + 1,
			.input = input, .fixed_len = ilen, .helper_data = helper, .helper_len = hlen,
			.z3 = opts.use_z3, .z3_empty = true,
			.z3_rlimit = opts.z3_rlimit ? opts.z3_rlimit : CORPUS_Z3_RLIMIT,
			.z3_program_rlimit = opts.z3_program_rlimit ? opts.z3_program_rlimit :
					     CORPUS_Z3_PROGRAM_RLIMIT,
			.z3_replay_steps = CORPUS_Z3_REPLAY_STEPS,
			.arg = &zd, .judge = z3_new_claims,
		};

		zd.strategy = strategy;
		diag_clear(&d);
		err = pipeline_run(&pr, &ps, &po, &d);
		if (err && pr.failed && !strcmp(pr.failed, "analyze")) {
			fail(&c, 0, "analysis failed: %s", d.msg);
			break;
		}
		/* Precision floors apply to the default strategy; soundness to both. */
		if (strategy == SCEV_FORGET) {
			if ((sec = casefile__section(cf, "loops")))
				check_loops(&c, sec, pr.cp);
			if ((sec = casefile__section(cf, "trip")))
				check_trip(&c, sec, pr.cp);
			if ((sec = casefile__section(cf, "iv")))
				check_iv(&c, sec, pr.cp);
			if ((sec = casefile__section(cf, "range")))
				check_range(&c, sec, pr.cp);
		}
		if (pr.has_exec)
			exec_findings(&c, &pr.exec, what);
		if (pr.has_exec_fixed)
			exec_findings(&c, &pr.exec_fixed, what);
		if (pr.has_z3)
			z3_findings(&c, &pr.z3, &pr.verdicts[pipeline_oracle_index("z3")], what,
				    &stats);
		if (err && !strcmp(pr.failed, "exec"))
			fail(&c, 0, "the concrete oracle could not run (%s)", what);
		else if (err && !strcmp(pr.failed, "z3"))
			fail(&c, 0, "the Z3 oracle could not run (%s): %s", what, strerror(-err));
		else if (err)
			fail(&c, 0, "the %s oracle could not run (%s): %s", pr.failed, what,
			     strerror(-err));
	}
	pipeline_result__free(&pr);
	free(input);
	free(helper);
	sbuf_free(&zd.prev);
	sbuf_free(&zd.cur);
	casefile__free(cf);
	if (ustats) {
		ustats->z3_programs += stats.z3_programs;
		ustats->z3_claims += stats.z3_claims;
		ustats->z3_proved += stats.z3_proved;
		ustats->z3_refuted += stats.z3_refuted;
		ustats->z3_unknown += stats.z3_unknown;
		ustats->z3_rlimit += stats.z3_rlimit;
	}
	return c.malformed ? -EINVAL : c.fails;
}

static const char *type_word(uint32_t t)
{
	switch (ebpf_prog_ctx_model(t)) {
	case EBPF_CTX_XDP: return "xdp";
	case EBPF_CTX_SKB: return t == BPF_PROG_TYPE_SOCKET_FILTER ? "socket"
			   : t == BPF_PROG_TYPE_CGROUP_SKB ? "cgroup_skb" : "tc";
	default:
		return t == BPF_PROG_TYPE_RAW_TRACEPOINT ? "raw_tp"
		     : t == BPF_PROG_TYPE_SOCK_OPS ? "sock_ops"
		     : t == BPF_PROG_TYPE_CGROUP_SOCK ? "cgroup_sock"
		     : t == BPF_PROG_TYPE_CGROUP_DEVICE ? "cgroup_device"
		     : t == BPF_PROG_TYPE_SK_LOOKUP ? "sk_lookup"
		     : t == BPF_PROG_TYPE_SK_REUSEPORT ? "sk_reuseport"
		     : t == BPF_PROG_TYPE_SK_MSG ? "sk_msg"
		     : t == BPF_PROG_TYPE_CGROUP_SYSCTL ? "cgroup_sysctl" : "plain";
	}
}

static void put_hex(struct sbuf *sb, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sbuf_printf(sb, "%02x%s", p[i], (i % 16 == 15 || i + 1 == n) ? "\n" : " ");
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

long corpus_list_cases(const char *dir, char ***names)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	size_t n = 0;

	*names = NULL;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		char **nv;

		if (l < 6 || strcmp(de->d_name + l - 5, ".case"))
			continue;
		nv = realloc(v, (n + 1) * sizeof(*nv));
		if (!nv || !(nv[n] = strdup(de->d_name))) {
			v = nv ? nv : v;
			while (n)
				free(v[--n]);
			free(v);
			closedir(d);
			return -ENOMEM;
		}
		v = nv;
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_name);
	*names = v;
	return (long)n;
}

void corpus_format_prog(struct sbuf *sb, const struct bpf_insn *insns, size_t len,
			const struct ebpf_global_func *globals, size_t nglobals,
			uint32_t prog_type, const struct ebpf_map_def *maps, size_t map_cnt)
{
	sbuf_puts(sb, "-- asm\n");
	ebpf_disasm_globals(sb, insns, len, globals, nglobals, 0);
	sbuf_printf(sb, "-- type\n%s\n", type_word(prog_type));
	ebpf_maps_section(sb, maps, map_cnt);
}

int corpus_add_finding(const char *finding_dir, const char *cases_dir, const char *name,
		       char *path, size_t path_len, struct diag *d)
{
	struct finding f;
	struct sbuf sb = SBUF_INIT;
	struct bpf_insn *insns = NULL;
	struct ebpf_global_func *globals = NULL;
	size_t len = 0, nglobals = 0;
	char rpath[1024], dname[128], tmp[1100];
	struct diag rd;
	FILE *fp;
	int err;

	memset(&f, 0, sizeof(f));
	if ((err = finding__load(&f, finding_dir, d)))
		return err;
	/* the reduced program (and its global functions' prototypes) when reduce wrote one */
	snprintf(rpath, sizeof(rpath), "%s/reduced.bin", finding_dir);
	if (!access(rpath, F_OK) &&
	    (finding__read_program(finding_dir, "reduced", &insns, &len, &globals, &nglobals, &rd) ||
	     ebpf_validate(insns, len, NULL))) {
		free(insns);
		free(globals);
		insns = NULL;
		globals = NULL;
		len = nglobals = 0;
	}
	finding_dir_name(&f, dname, sizeof(dname));
	sbuf_printf(&sb, "# %s finding %s (%s), added with bpfscev corpus add\n",
		    finding_kind_name(f.kind), dname, f.source);
	sbuf_printf(&sb, "# %s\n", f.sig.text);
	sbuf_puts(&sb, "# ");
	for (const char *s = f.text; *s; s++)
		sbuf_putc(&sb, *s == '\n' ? ' ' : *s);
	sbuf_printf(&sb, "\n# program: %s (%zu slots)\n", insns ? "reduced" : "as found",
		    insns ? len : f.len);
	corpus_format_prog(&sb, insns ? insns : f.insns, insns ? len : f.len,
			   insns ? globals : f.globals, insns ? nglobals : f.nglobals, f.prog_type,
			   f.maps, f.map_cnt);
	if (f.input_len) {
		sbuf_puts(&sb, "-- input\n");
		put_hex(&sb, f.input, f.input_len);
	}
	if (f.helper_len) {
		sbuf_puts(&sb, "-- helper\n");
		put_hex(&sb, f.helper, f.helper_len);
	}
	snprintf(path, path_len, "%s/%s.case", cases_dir, name && *name ? name : dname);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fp = fopen(tmp, "w");
	if (!fp) {
		err = diag_set(d, errno, "cannot write %s: %s", tmp, strerror(errno));
	} else {
		fputs(sbuf_cstr(&sb), fp);
		if (fclose(fp) || rename(tmp, path))
			err = diag_set(d, errno, "cannot write %s: %s", path, strerror(errno));
	}
	sbuf_free(&sb);
	free(insns);
	free(globals);
	finding__free(&f);
	return err;
}
