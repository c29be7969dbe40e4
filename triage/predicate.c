/* Predicates over candidate programs: the table of kinds, the facts they share per candidate,
 * and the candidate written as a file.  See predicate.h.
 */
#include "triage/predicate.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bpf/asm.h"
#include "oracle/exec/check.h"
#include "oracle/kernel/kdiff.h"
#include "scev/scev.h"
#include "triage/verdict.h"
#include "util/clock.h"

#ifndef BPF_F_TEST_REG_INVARIANTS
#define BPF_F_TEST_REG_INVARIANTS (1U << 7)
#endif

/* ---- facts computed once per candidate ---- */

static int need_kernel(struct pred_eval *ev)
{
	struct kernel_prog_opts ko = { .sz = sizeof(ko),
				       .prog_flags = ev->set->o.invariants ?
						     BPF_F_TEST_REG_INVARIANTS : 0,
				       /* the walk's trace only when a predicate reads it: a
					* rejection's reason and the verifier's own bug reports are
					* printed at the statistics level too, and printing a
					* million-instruction walk costs more than the walk */
				       .log_level = ev->set->full_log ? 0 : 4,
				       .log_size = ev->set->full_log ? 0 : 1 << 20,
				       .log_max = ev->set->full_log ? 0 : 16 << 20 };
	struct kernel_prog *kp = NULL;
	struct diag d;

	if (ev->loaded)
		return ev->load_err;
	ev->loaded = true;
	diag_clear(&d);
	ev->load_err = kernel_prog__load(&kp, ev->obj, ev->prog, &ko, &d);
	if (ev->load_err) {
		snprintf(ev->why, sizeof(ev->why), "the kernel could not be asked: %.200s", d.msg);
		return ev->load_err;
	}
	ev->accepted = kp->accepted;
	ev->kerr = kp->err;
	snprintf(ev->message, sizeof(ev->message), "%s", kp->message);
	ev->log = kp->log;
	kp->log = NULL;
	ev->run_err = -ENOEXEC;
	if (kp->accepted) {
		struct kernel_run_opts ro = { .sz = sizeof(ro), .data_in = ev->set->o.input,
					      .data_size_in = ev->set->o.input_len };
		struct kernel_run_result res = { 0 };

		diag_clear(&d);
		ev->run_err = kernel_prog__test_run(kp, &ro, &res, &d);
		ev->retval = res.retval;
	}
	ev->run_done = true;
	kernel_prog__free(kp);	/* nothing stays loaded */
	return 0;
}

static int need_interp(struct pred_eval *ev)
{
	struct interp_code *code = NULL;
	struct interp_map *maps = NULL;
	struct interp_env env = { 0 };
	uint8_t zeros[64] = { 0 }, *input;
	size_t input_len;
	struct diag d;

	if (ev->interp_done)
		return ev->interp_err;
	ev->interp_done = true;
	input_len = ev->set->o.input ? ev->set->o.input_len : sizeof(zeros);
	input = malloc(input_len ? input_len : 1);
	if (!input)
		return ev->interp_err = -ENOMEM;
	memcpy(input, ev->set->o.input ? ev->set->o.input : zeros, input_len);
	if (ev->obj->map_cnt) {
		maps = calloc(ev->obj->map_cnt, sizeof(*maps));
		if (!maps) {
			free(input);
			return ev->interp_err = -ENOMEM;
		}
		for (size_t k = 0; k < ev->obj->map_cnt; k++)
			maps[k].def = ev->obj->maps[k];
	}
	env.ctx_kind = check_ctx_kind(ev->prog->prog_type);
	env.prog_type = ev->prog->prog_type;
	env.input = input;
	env.input_len = input_len;
	env.maps = maps;
	env.map_cnt = ev->obj->map_cnt;
	env.step_budget = ev->set->o.step_budget ? ev->set->o.step_budget : 1000000;
	diag_clear(&d);
	ev->interp_err = interp_prepare(&code, ev->prog, &d);
	if (!ev->interp_err)
		ev->interp_err = interp_run(code, &env, &ev->ir);
	interp_code__free(code);
	free(maps);
	free(input);
	if (ev->interp_err)
		snprintf(ev->why, sizeof(ev->why), "the interpreter could not run it: %.200s",
			 d.msg[0] ? d.msg : strerror(-ev->interp_err));
	return ev->interp_err;
}

/* ---- the kinds ---- */

static int eval_accepts(const struct pred *p, struct pred_eval *ev)
{
	int err = need_kernel(ev);

	(void)p;
	if (err)
		return err;
	if (!ev->accepted)
		snprintf(ev->why, sizeof(ev->why), "the kernel rejects it: %.200s", ev->message);
	return ev->accepted;
}

static int eval_rejects(const struct pred *p, struct pred_eval *ev)
{
	int err = need_kernel(ev);

	(void)p;
	if (err)
		return err;
	if (ev->accepted)
		snprintf(ev->why, sizeof(ev->why), "the kernel accepts it");
	return !ev->accepted;
}

static int init_re(struct pred *p, const char *arg, struct diag *d)
{
	int rc = regcomp(&p->re, arg, REG_EXTENDED | REG_NEWLINE);

	if (rc) {
		char buf[128];

		regerror(rc, &p->re, buf, sizeof(buf));
		return diag_set(d, EINVAL, "--%s '%s': %s", p->kind->name, arg, buf);
	}
	p->has_re = true;
	return 0;
}

static int eval_msg(const struct pred *p, struct pred_eval *ev)
{
	int err = need_kernel(ev);

	if (err)
		return err;
	if (regexec(&p->re, ev->message, 0, NULL, 0)) {
		snprintf(ev->why, sizeof(ev->why), "the kernel's message '%.150s' does not match",
			 ev->message);
		return 0;
	}
	return 1;
}

static int eval_log(const struct pred *p, struct pred_eval *ev)
{
	int err = need_kernel(ev);

	if (err)
		return err;
	if (regexec(&p->re, ev->log ? ev->log : "", 0, NULL, 0)) {
		snprintf(ev->why, sizeof(ev->why), "the kernel's log does not match '%.150s'",
			 p->arg);
		return 0;
	}
	return 1;
}

static int eval_invariant(const struct pred *p, struct pred_eval *ev)
{
	int err = need_kernel(ev);

	(void)p;
	if (err)
		return err;
	if (ev->accepted || !ev->log || !kdiff_log_reports_bug(ev->log, NULL, 0)) {
		snprintf(ev->why, sizeof(ev->why), "no invariant violation (%.200s%.150s)",
			 ev->accepted ? "accepted" : "rejected: ", ev->accepted ? "" : ev->message);
		return 0;
	}
	return 1;
}

static int parse_i64(const char *s, int64_t *v)
{
	char *end;
	long long x;

	errno = 0;
	x = strtoll(s, &end, 0);
	if (errno || end == s || *end) {
		unsigned long long u = strtoull(s, &end, 0);

		if (errno || end == s || *end || s[0] == '-')
			return -EINVAL;
		x = (long long)u;
	}
	*v = x;
	return 0;
}

static int init_num(struct pred *p, const char *arg, struct diag *d)
{
	if (parse_i64(arg, &p->num))
		return diag_set(d, EINVAL, "--%s '%s': not a number", p->kind->name, arg);
	return 0;
}

static int eval_retval(const struct pred *p, struct pred_eval *ev)
{
	int err = need_kernel(ev);

	if (err)
		return err;
	if (!ev->accepted || ev->run_err) {
		snprintf(ev->why, sizeof(ev->why), "%.200s", ev->accepted ? "the test run failed" :
			 "the kernel rejects it");
		return 0;
	}
	if (ev->retval != (uint32_t)p->num) {
		snprintf(ev->why, sizeof(ev->why), "the test run returns %u", ev->retval);
		return 0;
	}
	return 1;
}

static const char *const trap_names[] = {
	[INTERP_OK] = "none", [INTERP_TRAP_MEM] = "mem", [INTERP_TRAP_STEPS] = "steps",
	[INTERP_TRAP_CALL] = "call", [INTERP_TRAP_HELPER] = "helper",
	[INTERP_TRAP_LIMIT] = "limit", [INTERP_TRAP_REF] = "ref", [INTERP_TRAP_RULE] = "rule",
};

static int init_trap(struct pred *p, const char *arg, struct diag *d)
{
	if (!strcmp(arg, "any")) {
		p->num = -1;
		return 0;
	}
	for (size_t k = 1; k < sizeof(trap_names) / sizeof(trap_names[0]); k++)
		if (!strcmp(arg, trap_names[k])) {
			p->num = (int64_t)k;
			return 0;
		}
	return diag_set(d, EINVAL, "--trap '%s': expected any, mem, steps, call, helper or limit",
			arg);
}

static int eval_trap(const struct pred *p, struct pred_eval *ev)
{
	int err = need_interp(ev);

	if (err)
		return err;
	if (ev->ir.trap == INTERP_OK || (p->num >= 0 && ev->ir.trap != p->num)) {
		snprintf(ev->why, sizeof(ev->why), "the interpreter %.200s%.200s",
			 ev->ir.trap ? "traps with " : "runs it to the end",
			 ev->ir.trap ? trap_names[ev->ir.trap] : "");
		return 0;
	}
	return 1;
}

static int init_class(struct pred *p, const char *arg, struct diag *d)
{
	for (int c = VC_BOTH_ACCEPT; c <= VC_RULE_GAP; c++)
		if ((c < VC_NO_KERNEL || c == VC_RULE_GAP) &&
		    !strcmp(arg, verdict_class_name((enum verdict_class)c))) {
			p->num = c;
			return 0;
		}
	return diag_set(d, EINVAL, "--class '%s': expected both-accept, both-reject, improvement, "
			"regression or rule-gap", arg);
}

static int eval_class(const struct pred *p, struct pred_eval *ev)
{
	struct scev_opts so = { .sz = sizeof(so), .prog_type = ev->prog->prog_type,
				.no_ranges = true };
	struct scev_verdict v;
	struct diag d;
	int err = need_kernel(ev), cls;
	bool ours;

	if (err)
		return err;
	diag_clear(&d);
	if ((err = scev_verify(&v, NULL, ev->prog, ev->obj->maps, ev->obj->map_cnt, &so, &d))) {
		snprintf(ev->why, sizeof(ev->why), "bpfscev verify failed: %.200s", d.msg);
		return err;
	}
	ours = v.kind == VERDICT_SAFE;
	cls = verdict_classify(ours, ev->accepted, ev->message);
	if (cls != p->num) {
		snprintf(ev->why, sizeof(ev->why), "the class is %.200s",
			 verdict_class_name((enum verdict_class)cls));
		return 0;
	}
	return 1;
}

static int init_refuted(struct pred *p, const char *arg, struct diag *d)
{
	static const uint8_t kinds[] = { FIND_RANGE, FIND_TRIP_MAX, FIND_TRIP_MIN, FIND_IV };

	if (!strcmp(arg, "any")) {
		p->num = -1;
		return 0;
	}
	for (size_t k = 0; k < sizeof(kinds); k++)
		if (!strcmp(arg, finding_kind_name(kinds[k]))) {
			p->num = kinds[k];
			return 0;
		}
	return diag_set(d, EINVAL, "--refuted '%s': expected range, trip-max, trip-min, induction "
			"or any", arg);
}

static int eval_refuted(const struct pred *p, struct pred_eval *ev)
{
	struct scev_opts so = { .sz = sizeof(so), .prog_type = ev->prog->prog_type };
	struct check_opts co = { .sz = sizeof(co), .runs = ev->set->o.runs,
				 .step_budget = ev->set->o.step_budget ?
						ev->set->o.step_budget : 200000 };
	struct claim_prog cp;
	struct check_result cr;
	struct diag d;
	int err, holds = 0;

	diag_clear(&d);
	if ((err = scev_analyze(&cp, ev->prog, ev->obj->maps, ev->obj->map_cnt, &so, &d))) {
		snprintf(ev->why, sizeof(ev->why), "the analyzer failed: %.200s", d.msg);
		return 0;	/* no claims: none refuted */
	}
	if (ev->set->o.mutate)
		ev->set->o.mutate(ev->set->o.mutate_arg, &cp);
	if ((err = oracle_check(&cr, ev->obj, ev->prog, &cp, &co))) {
		claim_prog__free(&cp);
		snprintf(ev->why, sizeof(ev->why), "the check failed: %.200s", strerror(-err));
		return err;
	}
	for (uint32_t k = 0; k < cr.nfindings && !holds; k++)
		holds = p->num < 0 || cr.findings[k].kind == p->num;
	if (!holds)
		snprintf(ev->why, sizeof(ev->why), "no %.200s claim refuted (%u findings)", p->arg,
			 cr.nfindings);
	check_result__free(&cr);
	claim_prog__free(&cp);
	return holds;
}

static int write_all(int fd, const void *data, size_t n)
{
	const char *p = data;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Runs /bin/sh -c 'CMD "$1"' sh PATH in its own process group: its exit status, -ETIMEDOUT,
 * or -errno. */
static int run_command(const char *cmd, const char *path, double timeout)
{
	struct sbuf sc = { 0 };
	double t0 = wall_s();
	long nap = 200000;
	pid_t pid;
	int st;

	sbuf_printf(&sc, "%s \"$1\"", cmd);
	if (sc.oom) {
		sbuf_free(&sc);
		return -ENOMEM;
	}
	pid = fork();
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDWR);

		setpgid(0, 0);
		if (devnull >= 0) {
			dup2(devnull, 0);
			dup2(devnull, 1);
			dup2(devnull, 2);
		}
		execl("/bin/sh", "sh", "-c", sbuf_cstr(&sc), "sh", path, (char *)NULL);
		_exit(127);
	}
	sbuf_free(&sc);
	if (pid < 0)
		return -errno;
	setpgid(pid, pid);
	for (;;) {
		pid_t w = waitpid(pid, &st, timeout > 0 ? WNOHANG : 0);
		struct timespec ts;

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return -errno;
		if (timeout > 0 && wall_s() - t0 > timeout) {
			kill(-pid, SIGKILL);
			waitpid(pid, &st, 0);
			return -ETIMEDOUT;
		}
		ts.tv_sec = 0;
		ts.tv_nsec = nap;
		nanosleep(&ts, NULL);
		if (nap < 10000000)
			nap *= 2;
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

static int eval_test(const struct pred *p, struct pred_eval *ev)
{
	const char *dir = ev->set->o.tmpdir ? ev->set->o.tmpdir : getenv("TMPDIR");
	struct reduce_prog rp = { .insns = ev->prog->insns, .len = ev->prog->len,
				  .maps = ev->obj->maps, .map_cnt = ev->obj->map_cnt,
				  .prog_type = ev->prog->prog_type, .globals = ev->prog->globals,
				  .nglobals = ev->prog->global_cnt };
	char path[4200];
	struct sbuf sb = { 0 };
	int fd, err, rc;

	snprintf(path, sizeof(path), "%s/bpfscev-reduce-XXXXXX%s", dir && dir[0] ? dir : "/tmp",
		 ev->set->o.test_raw ? ".bin" : ".s");
	fd = mkstemps(path, ev->set->o.test_raw ? 4 : 2);
	if (fd < 0) {
		err = -errno;
		snprintf(ev->why, sizeof(ev->why), "cannot create %.200s: %.200s", path, strerror(errno));
		return err;
	}
	if (ev->set->o.test_raw)
		sbuf_put(&sb, rp.insns, rp.len * sizeof(*rp.insns));
	else
		pred_write_text(&sb, &rp, "a candidate of bpfscev reduce");
	err = sb.oom ? -ENOMEM : write_all(fd, sb.buf, sb.len);
	close(fd);
	sbuf_free(&sb);
	if (err) {
		unlink(path);
		snprintf(ev->why, sizeof(ev->why), "cannot write %.200s: %.200s", path, strerror(-err));
		return err;
	}
	rc = run_command(p->arg, path, ev->set->o.test_timeout);
	unlink(path);
	if (rc < 0) {
		snprintf(ev->why, sizeof(ev->why), "--test: %.200s", strerror(-rc));
		return rc;
	}
	if (rc) {
		snprintf(ev->why, sizeof(ev->why), "--test exits with %d", rc);
		return 0;
	}
	return 1;
}

const struct pred_kind pred_kinds[] = {
	{ "accepts", NULL, "the kernel's verifier accepts it", PRED_COST_KERNEL, true, NULL,
	  eval_accepts },
	{ "rejects", NULL, "the kernel's verifier rejects it", PRED_COST_KERNEL, true, NULL,
	  eval_rejects },
	{ "msg", "RE", "the kernel's message (a rejection's reason) matches RE (extended)",
	  PRED_COST_KERNEL, true, init_re, eval_msg },
	{ "log", "RE", "the kernel's whole verifier log (level 2) matches RE", PRED_COST_KERNEL,
	  true, init_re, eval_log },
	{ "invariant", NULL, "loaded with BPF_F_TEST_REG_INVARIANTS, the verifier reports a bug in "
	  "itself", PRED_COST_KERNEL, true, NULL, eval_invariant },
	{ "retval", "N", "accepted, and BPF_PROG_TEST_RUN on the input returns N",
	  PRED_COST_KERNEL, true, init_num, eval_retval },
	{ "trap", "KIND", "the interpreter traps on the input: any, mem, steps, call, helper, limit",
	  PRED_COST_STATIC, false, init_trap, eval_trap },
	{ "class", "C", "bpfscev verify against the kernel: both-accept, both-reject, improvement, "
	  "regression, rule-gap", PRED_COST_KERNEL, true, init_class, eval_class },
	{ "refuted", "KIND", "a claim of the analyzer refuted by runs: range, trip-max, trip-min, "
	  "induction, any", PRED_COST_ANALYZER, false, init_refuted, eval_refuted },
	{ "test", "CMD", "the shell command CMD, with the candidate's path as its last word, exits "
	  "with 0", PRED_COST_EXTERNAL, false, NULL, eval_test },
};
const size_t pred_kind_cnt = sizeof(pred_kinds) / sizeof(pred_kinds[0]);

const struct pred_kind *pred_kind_find(const char *name)
{
	for (size_t k = 0; k < pred_kind_cnt; k++)
		if (!strcmp(pred_kinds[k].name, name))
			return &pred_kinds[k];
	return NULL;
}

/* ---- the set ---- */

int pred_set__add(struct pred_set *s, const char *name, const char *arg, struct diag *d)
{
	const struct pred_kind *k = pred_kind_find(name);
	struct pred *nv, *p;
	int err;

	if (!k)
		return diag_set(d, EINVAL, "unknown predicate '%s'", name);
	if (!k->arg != !arg)
		return diag_set(d, EINVAL, "--%s %s", name, k->arg ? "needs an argument" :
				"takes no argument");
	if (arg && strlen(arg) >= sizeof(p->arg))
		return diag_set(d, EINVAL, "--%s: argument longer than %zu bytes", name,
				sizeof(p->arg) - 1);
	nv = realloc(s->v, (s->n + 1) * sizeof(*nv));
	if (!nv)
		return diag_set(d, ENOMEM, "out of memory");
	s->v = nv;
	p = &nv[s->n];
	memset(p, 0, sizeof(*p));
	p->kind = k;
	snprintf(p->arg, sizeof(p->arg), "%s", arg ? arg : "");
	if (k->init && (err = k->init(p, p->arg, d)))
		return err;
	s->n++;
	/* cheapest first; stable among equals */
	for (size_t a = s->n - 1; a > 0 && s->v[a - 1].kind->cost > s->v[a].kind->cost; a--) {
		struct pred t = s->v[a];

		s->v[a] = s->v[a - 1];
		s->v[a - 1] = t;
	}
	if (!strcmp(name, "invariant"))
		s->o.invariants = true;
	if (!strcmp(name, "log"))
		s->full_log = true;
	return 0;
}

void pred_set__free(struct pred_set *s)
{
	if (!s)
		return;
	for (size_t k = 0; k < s->n; k++)
		if (s->v[k].has_re)
			regfree(&s->v[k].re);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

bool pred_set__needs_kernel(const struct pred_set *s)
{
	for (size_t k = 0; k < s->n; k++)
		if (s->v[k].kind->kernel)
			return true;
	return false;
}

void pred_set__describe(const struct pred_set *s, struct sbuf *sb)
{
	for (size_t k = 0; k < s->n; k++) {
		sbuf_printf(sb, "%s--%s", k ? " " : "", s->v[k].kind->name);
		if (s->v[k].kind->arg)
			sbuf_printf(sb, " '%s'", s->v[k].arg);
	}
}

int pred_set__eval(const struct pred_set *s, const struct ebpf_object *obj,
		   const struct ebpf_prog *prog, struct pred_eval *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->set = s;
	ev->obj = obj;
	ev->prog = prog;
	for (size_t k = 0; k < s->n; k++) {
		int rc = s->v[k].kind->eval(&s->v[k], ev);

		if (rc != 1)
			return rc;
	}
	ev->why[0] = '\0';
	return 1;
}

void pred_eval__free(struct pred_eval *ev)
{
	if (!ev)
		return;
	free(ev->log);
	ev->log = NULL;
}

void pred_view(struct ebpf_object *obj, struct ebpf_prog *prog, const struct reduce_prog *p)
{
	memset(obj, 0, sizeof(*obj));
	memset(prog, 0, sizeof(*prog));
	snprintf(prog->name, sizeof(prog->name), "reduced");
	prog->prog_type = p->prog_type;
	prog->insns = p->insns;
	prog->len = p->len;
	prog->globals = p->globals;
	prog->global_cnt = p->nglobals;
	obj->format = EBPF_FMT_RAW;
	obj->progs = prog;
	obj->prog_cnt = 1;
	obj->maps = p->maps;
	obj->map_cnt = p->map_cnt;
}

int pred_set__test(void *arg, const struct reduce_prog *p)
{
	const struct pred_set *s = arg;
	struct ebpf_object obj;
	struct ebpf_prog prog;
	struct pred_eval ev;
	int rc;

	pred_view(&obj, &prog, p);
	rc = pred_set__eval(s, &obj, &prog, &ev);
	pred_eval__free(&ev);
	return rc;
}

void pred_write_text(struct sbuf *sb, const struct reduce_prog *p, const char *comment)
{
	const char *type = p->prog_type == BPF_PROG_TYPE_XDP ? "xdp" :
			   p->prog_type == BPF_PROG_TYPE_SOCKET_FILTER ? "socket" :
			   p->prog_type == BPF_PROG_TYPE_SCHED_CLS ? "tc" :
			   p->prog_type == BPF_PROG_TYPE_RAW_TRACEPOINT ? "raw_tp" : NULL;

	if (comment) {
		const char *c = comment;

		while (*c) {
			size_t l = strcspn(c, "\n");

			sbuf_printf(sb, "# %.*s\n", (int)l, c);
			c += l + (c[l] == '\n');
		}
	}
	if (p->prog_type && !type)
		sbuf_printf(sb, "# program type %u (not one '-- type' names: load it with "
			    "--type)\n", p->prog_type);
	sbuf_puts(sb, "-- asm\n");
	ebpf_disasm_globals(sb, p->insns, p->len, p->globals, p->nglobals, 0);
	if (type)
		sbuf_printf(sb, "-- type\n%s\n", type);
	if (p->map_cnt) {
		sbuf_puts(sb, "-- maps\n");
		for (size_t m = 0; m < p->map_cnt; m++) {
			const struct ebpf_map_def *d = &p->maps[m];
			bool plain = d->type == BPF_MAP_TYPE_ARRAY || d->type == BPF_MAP_TYPE_HASH;

			sbuf_printf(sb, "%s%s key=%u value=%u entries=%u name=%s",
				    plain ? "" : "# not an array or hash: map type ",
				    d->type == BPF_MAP_TYPE_ARRAY ? "array" :
				    d->type == BPF_MAP_TYPE_HASH ? "hash" : "other", d->key_size,
				    d->value_size, d->max_entries, d->name[0] ? d->name : "map");
			if (d->timer)
				sbuf_printf(sb, " timer=%u", d->timer - 1);
			ebpf_map_fields_print(sb, d);
			sbuf_putc(sb, '\n');
		}
	}
}
