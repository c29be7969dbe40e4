/* The minimizer's driver: rounds of passes to a fixpoint, batches of candidates tested in this
 * process or in forked children, the cache of tested candidates and the budgets.  See reduce.h;
 * the passes are in reduce_passes.c.  The working program is always valid; each candidate is
 * built from it, checked to be smaller in the progress order and valid, looked up in the cache,
 * and tested; the first candidate of a batch (in pass order) that holds becomes the working
 * program.
 */
#include "triage/reduce_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"

static const char *const pass_names[RP_NR] = {
	[RP_SUBPROGS] = "subprograms", [RP_LOOPS] = "loops", [RP_BRANCHES] = "branches",
	[RP_DEAD] = "dead code", [RP_CHUNKS] = "chunks", [RP_HELPERS] = "helpers",
	[RP_MAPS] = "maps", [RP_TYPE] = "type", [RP_CONSTS] = "constants",
	[RP_REGS] = "registers", [RP_SINGLE] = "single",
};

const char *reduce_pass_name(enum reduce_pass_id p)
{
	return p < RP_NR ? pass_names[p] : "?";
}

void reduce_prog__free(struct reduce_prog *p)
{
	if (!p)
		return;
	free(p->insns);
	free(p->maps);
	free(p->globals);
	memset(p, 0, sizeof(*p));
}

size_t reduce_count_insns(const struct bpf_insn *insns, size_t len)
{
	size_t n = 0;

	for (size_t pc = 0; pc < len; pc += ebpf_insn_slots(&insns[pc]))
		n++;
	return n;
}

/* ---- the progress order ---- */

enum { C_SLOTS, C_CALLS, C_MAPS, C_MAPSIZE, C_TYPE, C_XREGS, C_CONSTS, C_REGNUMS, C_NR };

static uint64_t type_rank(uint32_t t)
{
	switch (t) {
	case BPF_PROG_TYPE_UNSPEC: return 0;
	case BPF_PROG_TYPE_SOCKET_FILTER: return 1;
	case BPF_PROG_TYPE_XDP: return 2;
	case BPF_PROG_TYPE_SCHED_CLS: return 3;
	default: return 4;
	}
}

static uint64_t mag(int64_t v)
{
	uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

	return m * 2 + (v < 0);
}

static void cost_of(uint64_t c[C_NR], const struct reduce_prog *p)
{
	memset(c, 0, C_NR * sizeof(*c));
	c[C_SLOTS] = p->len;
	c[C_MAPS] = p->map_cnt;
	for (size_t m = 0; m < p->map_cnt; m++)
		c[C_MAPSIZE] += (p->maps[m].type != BPF_MAP_TYPE_ARRAY) + p->maps[m].key_size +
				p->maps[m].value_size + p->maps[m].max_entries;
	c[C_TYPE] = type_rank(p->prog_type);
	for (size_t pc = 0; pc < p->len; pc += ebpf_insn_slots(&p->insns[pc])) {
		const struct bpf_insn *i = &p->insns[pc];
		uint8_t cls = ebpf_class(i);

		if (ebpf_is_call(i))
			c[C_CALLS]++;
		if ((cls == BPF_ALU || cls == BPF_ALU64 || ebpf_is_cond_jmp(i)) &&
		    ebpf_srcbit(i) == BPF_X)
			c[C_XREGS]++;
		if (ebpf_is_ldimm64(i) && i->src_reg == 0)
			c[C_CONSTS] += mag((int64_t)ebpf_ldimm64_value(i)) / 2;
		else if (!ebpf_is_call(i) && !ebpf_is_jmp(i) && cls != BPF_LD && cls != BPF_LDX &&
			 cls != BPF_STX)
			c[C_CONSTS] += mag(i->imm);
		else if (ebpf_is_cond_jmp(i))
			c[C_CONSTS] += mag(i->imm);
		c[C_REGNUMS] += i->dst_reg + i->src_reg;
	}
}

static bool smaller(const struct reduce_prog *a, const struct reduce_prog *b)
{
	uint64_t ca[C_NR], cb[C_NR];

	cost_of(ca, a);
	cost_of(cb, b);
	for (int k = 0; k < C_NR; k++)
		if (ca[k] != cb[k])
			return ca[k] < cb[k];
	return false;
}

/* ---- the cache ---- */

struct cache_ent {
	uint64_t h1, h2;	/* 0, 0: empty */
	int8_t result;		/* 1 holds, 0 not */
};

static void mix(uint64_t *h1, uint64_t *h2, const void *data, size_t n)
{
	const uint8_t *p = data;

	for (size_t i = 0; i < n; i++) {
		*h1 = (*h1 ^ p[i]) * 0x100000001b3ull;
		*h2 = (*h2 ^ p[i]) * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
	}
}

static void hash_prog(uint64_t *h1, uint64_t *h2, const struct reduce_prog *p)
{
	*h1 = 0xcbf29ce484222325ull;
	*h2 = 0x84222325cbf29ce4ull;
	mix(h1, h2, &p->prog_type, sizeof(p->prog_type));
	mix(h1, h2, &p->len, sizeof(p->len));
	mix(h1, h2, p->insns, p->len * sizeof(*p->insns));
	for (size_t m = 0; m < p->map_cnt; m++) {
		uint32_t f[5] = { p->maps[m].type, p->maps[m].key_size, p->maps[m].value_size,
				  p->maps[m].max_entries, p->maps[m].flags };

		mix(h1, h2, f, sizeof(f));
	}
	if (!*h1 && !*h2)
		*h1 = 1;
}

static struct cache_ent *cache_find(struct red *r, uint64_t h1, uint64_t h2, bool insert)
{
	size_t i;

	if (r->o.no_cache)
		return NULL;
	if (insert && (r->cache_n + 1) * 2 > r->cache_cap) {
		size_t nc = r->cache_cap ? r->cache_cap * 2 : 1024;
		struct cache_ent *nv = calloc(nc, sizeof(*nv));

		if (!nv)
			return NULL;
		for (size_t k = 0; k < r->cache_cap; k++) {
			struct cache_ent *e = &r->cache[k];

			if (!e->h1 && !e->h2)
				continue;
			for (i = e->h1 & (nc - 1); nv[i].h1 || nv[i].h2; i = (i + 1) & (nc - 1))
				;
			nv[i] = *e;
		}
		free(r->cache);
		r->cache = nv;
		r->cache_cap = nc;
	}
	if (!r->cache_cap)
		return NULL;
	for (i = h1 & (r->cache_cap - 1); r->cache[i].h1 || r->cache[i].h2;
	     i = (i + 1) & (r->cache_cap - 1))
		if (r->cache[i].h1 == h1 && r->cache[i].h2 == h2)
			return &r->cache[i];
	if (!insert)
		return NULL;
	r->cache[i].h1 = h1;
	r->cache[i].h2 = h2;
	r->cache_n++;
	return &r->cache[i];
}

/* ---- testing ---- */

static bool out_of_budget(struct red *r)
{
	if (r->stop)
		return true;
	if (r->st->tests >= r->o.max_tests ||
	    (r->o.budget > 0 && wall_s() - r->t0 >= r->o.budget)) {
		r->stop = true;
		r->st->budget_hit = true;
	}
	return r->stop;
}

static void note_result(struct red *r, int res)
{
	if (res < 0) {
		r->st->errors++;
		r->pass_errors++;
		if (res == -ETIMEDOUT)
			r->st->timeouts++;
	}
}

/* Tests the candidates cands[0..n) whose res[k] is -2 (unknown) and fills res[] with 1, 0 or
 * -errno.  In this process, or in children when jobs > 1 or a timeout is set; children that
 * are no longer needed (an earlier candidate of the batch holds) are killed and left -2. */
static void test_batch(struct red *r, int *res, size_t n)
{
	pid_t pid[64];
	double start[64];
	bool fork_mode = r->jobs > 1 || r->o.timeout > 0;

	for (size_t k = 0; k < n; k++) {
		if (res[k] != -2)
			continue;
		r->st->tests++;
		if (!fork_mode) {
			res[k] = r->test(r->arg, &r->cands[k]);
			res[k] = res[k] > 0 ? 1 : res[k];
			note_result(r, res[k]);
			if (res[k] == 1)
				return;	/* the first that holds: the rest stay untested */
			continue;
		}
		pid[k] = fork();
		if (pid[k] == 0) {
			int v;

			setpgid(0, 0);
			v = r->test(r->arg, &r->cands[k]);
			_exit(v > 0 ? 0 : v == 0 ? 1 : 2);
		}
		if (pid[k] < 0) {
			res[k] = -errno;
			note_result(r, res[k]);
			continue;
		}
		setpgid(pid[k], pid[k]);
		start[k] = wall_s();
		res[k] = -3;	/* running */
	}
	if (!fork_mode)
		return;
	for (;;) {
		bool running = false, decided = false;
		long nap = 100000;	/* ns; grows to 5 ms */

		for (size_t k = 0; k < n; k++) {
			int st;
			pid_t w;

			if (res[k] != -3)
				continue;
			w = waitpid(pid[k], &st, WNOHANG);
			if (w == pid[k]) {
				res[k] = WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 1 :
					 WIFEXITED(st) && WEXITSTATUS(st) == 1 ? 0 : -ECHILD;
				note_result(r, res[k]);
			} else if (r->o.timeout > 0 && wall_s() - start[k] > r->o.timeout) {
				kill(-pid[k], SIGKILL);
				waitpid(pid[k], &st, 0);
				res[k] = -ETIMEDOUT;
				note_result(r, res[k]);
			} else {
				running = true;
			}
		}
		/* decided when some candidate holds and every one before it is known */
		for (size_t k = 0; k < n; k++) {
			if (res[k] == -3 || res[k] == -2)
				break;
			if (res[k] == 1) {
				decided = true;
				break;
			}
		}
		if (decided || !running) {
			for (size_t k = 0; k < n; k++)
				if (res[k] == -3) {
					int st;

					kill(-pid[k], SIGKILL);
					waitpid(pid[k], &st, 0);
					res[k] = -2;
				}
			return;
		}
		{
			struct timespec ts = { 0, nap };

			nanosleep(&ts, NULL);
			if (nap < 5000000)
				nap *= 2;
		}
	}
}

static void report(struct red *r)
{
	struct reduce_progress pr;

	if (!r->o.progress)
		return;
	pr.insns = reduce_count_insns(r->cur.insns, r->cur.len);
	pr.slots = r->cur.len;
	pr.insns_before = r->st->insns_before;
	pr.tests = r->st->tests;
	pr.cached = r->st->cached;
	pr.round = r->round;
	pr.seconds = wall_s() - r->t0;
	pr.pass = pass_names[r->pass];
	r->o.progress(r->o.progress_arg, &pr);
}

static void prepare_cand(struct red *r, struct reduce_prog *c)
{
	if (r->cur.map_cnt)
		memcpy(c->maps, r->cur.maps, r->cur.map_cnt * sizeof(*c->maps));
	c->map_cnt = r->cur.map_cnt;
	c->prog_type = r->cur.prog_type;
	c->len = r->cur.len;
	if (r->cur.nglobals)
		memcpy(c->globals, r->cur.globals, r->cur.nglobals * sizeof(*c->globals));
	c->nglobals = r->cur.nglobals;
}

static void take(struct red *r, const struct reduce_prog *c)
{
	memcpy(r->cur.insns, c->insns, c->len * sizeof(*c->insns));
	r->cur.len = c->len;
	if (c->map_cnt)
		memcpy(r->cur.maps, c->maps, c->map_cnt * sizeof(*c->maps));
	r->cur.map_cnt = c->map_cnt;
	r->cur.prog_type = c->prog_type;
	if (c->nglobals)
		memcpy(r->cur.globals, c->globals, c->nglobals * sizeof(*c->globals));
	r->cur.nglobals = c->nglobals;
	r->st->accepted++;
	r->st->by_pass[r->pass]++;
}

/* Runs one pass over the working program; true when it accepted a candidate. */
static bool run_pass(struct red *r, enum reduce_pass_id pass, size_t param)
{
	reduce_make_fn make = reduce_makers[pass];
	size_t i = 0;
	bool any = false, end = false;

	r->pass = pass;
	while (!end && !out_of_budget(r)) {
		size_t idx[64], n = 0;
		int res[64];
		uint64_t h1[64], h2[64];
		size_t hit = SIZE_MAX;

		while (n < r->jobs) {
			struct reduce_prog *c = &r->cands[n];
			struct cache_ent *e;
			int rc;

			prepare_cand(r, c);
			rc = make(r, i, param, c);
			if (rc < 0) {
				end = true;
				break;
			}
			i++;
			if (rc == 0 || !smaller(c, &r->cur) || ebpf_validate(c->insns, c->len, NULL))
				continue;
			hash_prog(&h1[n], &h2[n], c);
			r->pass_offered++;
			if ((e = cache_find(r, h1[n], h2[n], false))) {
				r->st->cached++;
				if (e->result != 1)
					continue;
				res[n] = 1;
			} else {
				res[n] = -2;
			}
			idx[n++] = i - 1;
			if (res[n - 1] == 1)
				break;	/* nothing after it can come first */
		}
		if (!n)
			continue;
		test_batch(r, res, n);
		for (size_t k = 0; k < n; k++) {
			struct cache_ent *e;

			if (res[k] == 0 || res[k] == 1) {
				if ((e = cache_find(r, h1[k], h2[k], true)))
					e->result = (int8_t)res[k];
			}
			if (res[k] == 1 && hit == SIZE_MAX)
				hit = k;
		}
		if (hit != SIZE_MAX) {
			take(r, &r->cands[hit]);
			i = idx[hit];	/* the same place, of the new program */
			end = false;
			any = true;
			report(r);
		} else if (r->o.progress) {
			report(r);
		}
	}
	return any;
}

static int alloc_prog(struct reduce_prog *p, size_t cap, size_t map_cap, size_t globals_cap)
{
	p->insns = calloc(cap, sizeof(*p->insns));
	p->maps = calloc(map_cap ? map_cap : 1, sizeof(*p->maps));
	p->globals = calloc(globals_cap ? globals_cap : 1, sizeof(*p->globals));
	return p->insns && p->maps && p->globals ? 0 : -ENOMEM;
}

int reduce_run(struct reduce_prog *out, const struct reduce_prog *in, reduce_test_fn test,
	       void *arg, const struct reduce_run_opts *uopts, struct reduce_stats *ust,
	       struct diag *d)
{
	struct reduce_stats st = { 0 };
	struct red r = { 0 };
	int err = -ENOMEM, first;

	memset(out, 0, sizeof(*out));
	if (uopts)
		memcpy(&r.o, uopts, uopts->sz && uopts->sz < sizeof(r.o) ? uopts->sz : sizeof(r.o));
	r.o.max_tests = r.o.max_tests ? r.o.max_tests : 20000;
	r.jobs = r.o.jobs ? (r.o.jobs > 64 ? 64 : r.o.jobs) : 1;
	r.test = test;
	r.arg = arg;
	r.st = &st;
	r.t0 = wall_s();
	if (!in->len || ebpf_validate(in->insns, in->len, d)) {
		err = -EINVAL;
		goto out;
	}
	r.cap = in->len + 1;
	r.map_cap = in->map_cnt;
	r.cands = calloc(r.jobs + 1, sizeof(*r.cands));
	r.keep = malloc(r.cap);
	r.starts = malloc(r.cap * sizeof(*r.starts));
	r.moved = malloc((r.cap + 1) * sizeof(*r.moved));
	if (!r.cands || !r.keep || !r.starts || !r.moved ||
	    alloc_prog(&r.cur, r.cap, r.map_cap, in->nglobals))
		goto out;
	for (unsigned k = 0; k <= r.jobs; k++)
		if (alloc_prog(&r.cands[k], r.cap, r.map_cap, in->nglobals))
			goto out;
	memcpy(r.cur.insns, in->insns, in->len * sizeof(*in->insns));
	r.cur.len = in->len;
	if (in->map_cnt)
		memcpy(r.cur.maps, in->maps, in->map_cnt * sizeof(*in->maps));
	r.cur.map_cnt = in->map_cnt;
	r.cur.prog_type = in->prog_type;
	if (in->nglobals)
		memcpy(r.cur.globals, in->globals, in->nglobals * sizeof(*in->globals));
	r.cur.nglobals = in->nglobals;
	st.slots_before = in->len;
	st.insns_before = reduce_count_insns(in->insns, in->len);
	st.maps_before = in->map_cnt;
	/* the property must hold on the input itself (tested here, in this process) */
	st.tests++;
	first = test(arg, &r.cur);
	if (first != 1) {
		err = -EINVAL;
		if (first < 0)
			diag_set(d, EINVAL, "the test could not be run on the input: %s",
				 strerror(-first));
		else
			diag_set(d, EINVAL, "the input does not have the property: nothing to reduce");
		goto out;
	}
	for (;;) {
		bool any = false;
		size_t n;

		st.rounds++;
		r.round = st.rounds;
		for (int p = 0; p < RP_NR && !r.stop; p++) {
			if (r.o.skip & (1u << p))
				continue;
			r.pass_errors = 0;
			r.pass_offered = 0;
			if (p == RP_CHUNKS) {
				n = reduce_count_insns(r.cur.insns, r.cur.len);
				for (size_t s = n / 2; s >= 2 && !r.stop; s /= 2)
					any |= run_pass(&r, RP_CHUNKS, s);
				continue;
			}
			any |= run_pass(&r, (enum reduce_pass_id)p, 0);
			if (p == RP_SINGLE && !any && !r.stop) {
				/* the whole round accepted nothing: every single removal of the
				 * final program was offered in this pass */
				st.fixpoint = true;
				st.one_minimal = !(r.o.skip & (1u << RP_SINGLE)) && !r.pass_errors;
				st.proof_tests = r.pass_offered;
			}
		}
		if (!any || r.stop)
			break;
	}
	st.slots_after = r.cur.len;
	st.insns_after = reduce_count_insns(r.cur.insns, r.cur.len);
	st.maps_after = r.cur.map_cnt;
	*out = r.cur;
	memset(&r.cur, 0, sizeof(r.cur));
	err = 0;
out:
	reduce_prog__free(&r.cur);
	if (r.cands)
		for (unsigned k = 0; k <= r.jobs; k++)
			reduce_prog__free(&r.cands[k]);
	free(r.cands);
	free(r.keep);
	free(r.starts);
	free(r.moved);
	free(r.cache);
	st.seconds = wall_s() - r.t0;
	if (ust)
		*ust = st;
	if (err == -ENOMEM)
		diag_set(d, ENOMEM, "out of memory");
	return err;
}

/* ---- the instruction-only interface ---- */

struct insn_pred {
	reduce_pred_fn pred;
	void *arg;
	const struct reduce_opts *o;
};

static void insn_progress(void *arg, const struct reduce_progress *pr)
{
	struct insn_pred *ip = arg;

	ip->o->progress(ip->o->progress_arg, NULL, pr->slots, pr->tests);
}

static int insn_test(void *arg, const struct reduce_prog *p)
{
	struct insn_pred *ip = arg;

	return ip->pred(ip->arg, p->insns, p->len) ? 1 : 0;
}

int reduce_run_opts(struct reduce_prog *out, const struct reduce_prog *in, reduce_test_fn test,
		    void *arg, const struct reduce_opts *uopts, struct reduce_stats *st)
{
	struct reduce_opts o = { 0 };
	struct reduce_run_opts ro = { .sz = sizeof(ro) };
	struct insn_pred ip = { NULL, NULL, &o };

	if (uopts)
		memcpy(&o, uopts, uopts->sz && uopts->sz < sizeof(o) ? uopts->sz : sizeof(o));
	ro.max_tests = o.max_tests;
	ro.skip = 1u << RP_MAPS | 1u << RP_TYPE;
	if (o.no_insns)
		ro.skip |= 1u << RP_SUBPROGS | 1u << RP_LOOPS | 1u << RP_BRANCHES | 1u << RP_DEAD |
			   1u << RP_CHUNKS | 1u << RP_SINGLE | 1u << RP_HELPERS;
	if (o.no_consts)
		ro.skip |= 1u << RP_CONSTS;
	if (o.no_regs)
		ro.skip |= 1u << RP_REGS;
	if (o.progress) {
		ro.progress = insn_progress;
		ro.progress_arg = &ip;
	}
	return reduce_run(out, in, test, arg, &ro, st, NULL);
}

int oracle_reduce(struct bpf_insn **out, size_t *out_len, const struct bpf_insn *insns,
		  size_t len, reduce_pred_fn pred, void *arg, const struct reduce_opts *o,
		  struct reduce_stats *st)
{
	struct insn_pred ip = { pred, arg, NULL };
	struct reduce_prog in = { .insns = (struct bpf_insn *)insns, .len = len }, res;
	int err;

	*out = NULL;
	*out_len = 0;
	err = reduce_run_opts(&res, &in, insn_test, &ip, o, st);
	if (err)
		return err;
	*out = res.insns;
	*out_len = res.len;
	free(res.maps);
	free(res.globals);
	return 0;
}
