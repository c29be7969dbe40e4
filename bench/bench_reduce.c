/* The reducer against the one it replaced, on kernel-message predicates: generated loop programs
 * of 100-1,000 instructions (generators/) whose main function's last instruction before its
 * exit is planted as a stack read out of bounds, so the kernel rejects them with a message that
 * only the planted read and the walk to it produce; both reducers keep "--rejects --msg
 * <that message>" (every candidate loaded into the running kernel).  Per program: instructions
 * left, predicate evaluations, wall time, and whether the result is 1-minimal (for the old
 * reducer checked here by testing every single removal; the new one proves it itself); the new
 * reducer also with --jobs 2.  The old reducer is the search of triage/reduce.c as it was at
 * commit 00164c0 (ddmin over instructions, constants, registers), kept below for this
 * comparison only.
 *
 *   bench_reduce [--programs N] [--seed S] [--max-tests N]   (needs bpf(); prints Markdown)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/prog.h"
#include "generators/gen.h"
#include "generators/producer.h"
#include "oracle/kernel/kernel.h"
#include "triage/predicate.h"
#include "triage/reduce.h"
#include "util/clock.h"
#include "util/heap.h"

/* ==== the old reducer (triage/reduce.c at 00164c0, unchanged but for names) ==== */

struct old_red {
	reduce_pred_fn pred;
	void *arg;
	const struct reduce_opts *o;
	unsigned max_tests;
	struct reduce_stats *st;
	struct bpf_insn *cur;
	size_t len;
	struct bpf_insn *cand;
	size_t cap;
	bool *keep;
	uint32_t *starts;
	bool stop;
};

static size_t count_insns(const struct bpf_insn *insns, size_t len)
{
	size_t n = 0;

	for (size_t pc = 0; pc < len; pc += ebpf_insn_slots(&insns[pc]))
		n++;
	return n;
}

/* Offers cand[clen] to the predicate; on success it becomes the working program. */
static bool try_cand(struct old_red *r, size_t clen)
{
	if (r->stop)
		return false;
	if (r->st->tests >= r->max_tests) {
		r->stop = true;
		r->st->budget_hit = true;
		return false;
	}
	r->st->tests++;
	if (!r->pred(r->arg, r->cand, clen))
		return false;
	memcpy(r->cur, r->cand, clen * sizeof(*r->cur));
	r->len = clen;
	r->st->accepted++;
	if (r->o->progress)
		r->o->progress(r->o->progress_arg, r->cur, r->len, r->st->tests);
	return true;
}

static size_t list_starts(struct old_red *r)
{
	size_t n = 0;

	for (size_t pc = 0; pc < r->len; pc += ebpf_insn_slots(&r->cur[pc]))
		r->starts[n++] = (uint32_t)pc;
	return n;
}

/* Deletes instructions [a, b) of the working program (by instruction number); true when the
 * smaller program still shows the finding. */
static bool try_delete(struct old_red *r, size_t a, size_t b)
{
	size_t n = list_starts(r), clen;

	for (size_t pc = 0; pc < r->len; pc++)
		r->keep[pc] = true;
	for (size_t i = a; i < b && i < n; i++)
		r->keep[r->starts[i]] = false;
	clen = oracle_reduce_delete(r->cand, r->cur, r->len, r->keep);
	if (!clen || clen >= r->len)
		return false;
	return try_cand(r, clen);
}

/* ddmin, complements only (removing a chunk), then single instructions: what tmin and
 * C-Reduce's line passes do for programs, where keeping one chunk alone is rarely valid. */
static bool pass_insns(struct old_red *r)
{
	size_t n = list_starts(r), gran = 2;
	bool any = false;

	while (n >= 2 && !r->stop) {
		size_t chunk = (n + gran - 1) / gran;
		bool reduced = false;

		for (size_t a = 0; a < n && !r->stop; a += chunk) {
			if (try_delete(r, a, a + chunk)) {
				reduced = any = true;
				n = list_starts(r);
				if (gran > 2)
					gran--;
				break;
			}
		}
		if (reduced)
			continue;
		if (gran >= n)
			break;
		gran = gran * 2 < n ? gran * 2 : n;
	}
	/* one at a time from the end, where exits and unused tails are */
	for (size_t i = list_starts(r); i-- > 0 && !r->stop;)
		if (i < list_starts(r) && try_delete(r, i, i + 1))
			any = true;
	return any;
}

/* Size of a constant for the progress order: 0 < 1 < -1 < 2 < -2 ... */
static uint64_t const_cost(int64_t v)
{
	uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

	return m * 2 + (v < 0);
}

static bool imm_is_value(const struct bpf_insn *i)
{
	uint8_t cls = ebpf_class(i);

	if ((cls == BPF_ALU || cls == BPF_ALU64) && ebpf_srcbit(i) == BPF_K)
		return ebpf_op(i) != BPF_NEG && ebpf_op(i) != BPF_END;
	if (ebpf_is_cond_jmp(i) && ebpf_srcbit(i) == BPF_K)
		return ebpf_op(i) != BPF_JCOND;
	return cls == BPF_ST && ebpf_mode(i) == BPF_MEM;
}

static bool pass_consts(struct old_red *r)
{
	bool any = false;

	for (size_t pc = 0; pc < r->len && !r->stop; pc += ebpf_insn_slots(&r->cur[pc])) {
		bool wide = ebpf_is_ldimm64(&r->cur[pc]) && r->cur[pc].src_reg == 0;
		bool progress = true;

		if (!wide && !imm_is_value(&r->cur[pc]))
			continue;
		while (progress && !r->stop) {
			int64_t v = wide ? (int64_t)ebpf_ldimm64_value(&r->cur[pc]) : r->cur[pc].imm;
			int64_t tries[4] = { 0, 1, v / 2, v > 0 ? v - 1 : v + 1 };

			progress = false;
			for (int t = 0; t < 4 && !progress; t++) {
				if (const_cost(tries[t]) >= const_cost(v))
					continue;
				memcpy(r->cand, r->cur, r->len * sizeof(*r->cand));
				if (wide) {
					r->cand[pc].imm = (int32_t)(uint32_t)(uint64_t)tries[t];
					r->cand[pc + 1].imm = (int32_t)(uint32_t)((uint64_t)tries[t] >> 32);
				} else {
					r->cand[pc].imm = (int32_t)tries[t];
				}
				if (ebpf_validate(r->cand, r->len, NULL))
					continue;
				progress = try_cand(r, r->len);
				any |= progress;
			}
		}
	}
	return any;
}

/* Register operands that may be renamed: destination of ALU, loads, stores (base) and
 * conditional jumps; source of register ALU, jumps, loads and stores. */
static bool uses_dst(const struct bpf_insn *i)
{
	uint8_t cls = ebpf_class(i);

	return cls == BPF_ALU || cls == BPF_ALU64 || cls == BPF_LDX || cls == BPF_ST ||
	       cls == BPF_STX || (ebpf_is_cond_jmp(i) && ebpf_op(i) != BPF_JCOND) ||
	       ebpf_is_ldimm64(i);
}

static bool uses_src(const struct bpf_insn *i)
{
	uint8_t cls = ebpf_class(i);

	if (cls == BPF_LDX || cls == BPF_STX)
		return true;
	return (cls == BPF_ALU || cls == BPF_ALU64 || ebpf_is_cond_jmp(i)) &&
	       ebpf_srcbit(i) == BPF_X && ebpf_op(i) != BPF_END && ebpf_op(i) != BPF_JCOND;
}

static bool pass_regs(struct old_red *r)
{
	bool any = false;

	for (size_t pc = 0; pc < r->len && !r->stop; pc += ebpf_insn_slots(&r->cur[pc])) {
		const struct bpf_insn *i = &r->cur[pc];
		uint8_t cls = ebpf_class(i);

		/* a register operand replaced by a constant (not sign-extending movs) */
		if (uses_src(i) && cls != BPF_LDX && cls != BPF_STX &&
		    !(ebpf_op(i) == BPF_MOV && i->off)) {
			for (int32_t c = 0; c <= 1; c++) {
				memcpy(r->cand, r->cur, r->len * sizeof(*r->cand));
				r->cand[pc].code = (uint8_t)((r->cand[pc].code & ~BPF_X) | BPF_K);
				r->cand[pc].src_reg = 0;
				r->cand[pc].imm = c;
				if (ebpf_validate(r->cand, r->len, NULL))
					continue;
				if (try_cand(r, r->len)) {
					any = true;
					break;
				}
			}
		}
		i = &r->cur[pc];
		if (uses_dst(i))
			for (uint8_t reg = 0; reg < i->dst_reg && reg < 10 && !r->stop; reg++) {
				memcpy(r->cand, r->cur, r->len * sizeof(*r->cand));
				r->cand[pc].dst_reg = reg;
				if (ebpf_validate(r->cand, r->len, NULL))
					continue;
				if (try_cand(r, r->len)) {
					any = true;
					break;
				}
			}
		i = &r->cur[pc];
		if (uses_src(i))
			for (uint8_t reg = 0; reg < i->src_reg && !r->stop; reg++) {
				memcpy(r->cand, r->cur, r->len * sizeof(*r->cand));
				r->cand[pc].src_reg = reg;
				if (ebpf_validate(r->cand, r->len, NULL))
					continue;
				if (try_cand(r, r->len)) {
					any = true;
					break;
				}
			}
	}
	return any;
}

static int old_reduce(struct bpf_insn **out, size_t *out_len, const struct bpf_insn *insns,
		  size_t len, reduce_pred_fn pred, void *arg, const struct reduce_opts *uopts,
		  struct reduce_stats *ust)
{
	struct reduce_opts o = { 0 };
	struct reduce_stats st = { 0 };
	struct old_red r = { 0 };
	int err = -ENOMEM;

	*out = NULL;
	*out_len = 0;
	if (uopts)
		memcpy(&o, uopts, uopts->sz && uopts->sz < sizeof(o) ? uopts->sz : sizeof(o));
	if (!len || ebpf_validate(insns, len, NULL))
		return -EINVAL;
	r.pred = pred;
	r.arg = arg;
	r.o = &o;
	r.max_tests = o.max_tests ? o.max_tests : 20000;
	r.st = &st;
	r.cap = len + 1;
	r.cur = malloc(r.cap * sizeof(*r.cur));
	r.cand = malloc(r.cap * sizeof(*r.cand));
	r.keep = malloc(r.cap);
	r.starts = malloc(r.cap * sizeof(*r.starts));
	if (!r.cur || !r.cand || !r.keep || !r.starts)
		goto out;
	memcpy(r.cur, insns, len * sizeof(*insns));
	r.len = len;
	st.slots_before = len;
	st.insns_before = count_insns(insns, len);
	st.tests++;
	if (!pred(arg, insns, len)) {
		err = -EINVAL;
		goto out;
	}
	for (;;) {
		bool any = false;

		st.rounds++;
		if (!o.no_insns)
			any |= pass_insns(&r);
		if (!o.no_consts)
			any |= pass_consts(&r);
		if (!o.no_regs)
			any |= pass_regs(&r);
		if (!any || r.stop)
			break;
	}
	st.slots_after = r.len;
	st.insns_after = count_insns(r.cur, r.len);
	*out = r.cur;
	*out_len = r.len;
	r.cur = NULL;
	err = 0;
out:
	free(r.cur);
	free(r.cand);
	free(r.keep);
	free(r.starts);
	if (ust)
		*ust = st;
	return err;
}

/* ==== the comparison ==== */

struct old_arg {
	struct pred_set *ps;
	uint32_t type;
};

static bool old_pred(void *arg, const struct bpf_insn *insns, size_t len)
{
	struct old_arg *a = arg;
	struct reduce_prog p = { .insns = (struct bpf_insn *)insns, .len = len,
				 .prog_type = a->type };

	return pred_set__test(a->ps, &p) == 1;
}

/* 1-minimal: no single removal keeps it (tested here). */
static bool one_minimal(const struct reduce_prog *p, struct pred_set *ps, unsigned *tests)
{
	struct bpf_insn *cand = calloc(p->len + 1, sizeof(*cand));
	bool *keep = malloc(p->len), ok = true;

	for (size_t pc = 0; ok && pc < p->len; pc += ebpf_insn_slots(&p->insns[pc])) {
		struct reduce_prog c = *p;
		size_t n;

		memset(keep, 1, p->len);
		keep[pc] = false;
		n = oracle_reduce_delete(cand, p->insns, p->len, keep);
		if (!n || n >= p->len)
			continue;
		c.insns = cand;
		c.len = n;
		(*tests)++;
		ok = pred_set__test(ps, &c) != 1;
	}
	free(cand);
	free(keep);
	return ok;
}

/* Regular-expression metacharacters escaped: the message as a literal. */
static void re_quote(char *out, size_t n, const char *s, size_t max)
{
	size_t k = 0;

	for (; *s && max-- && k + 3 < n; s++) {
		if (strchr(".[]()*+?{}|^$\\", *s))
			out[k++] = '\\';
		out[k++] = *s;
	}
	out[k] = '\0';
}

int main(int argc, char **argv)
{
	unsigned programs = 6, max_tests = 4000;
	uint64_t seed = 1;
	char why[256];
	unsigned done = 0, old_min = 0, new_min = 0, j2_min = 0;
	double old_t = 0, new_t = 0, j2_t = 0;
	size_t old_n = 0, new_n = 0, j2_n = 0, in_n = 0;
	unsigned long old_tests = 0, new_tests = 0, j2_tests = 0;

	heap_tune();
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--programs") && i + 1 < argc)
			programs = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--max-tests") && i + 1 < argc)
			max_tests = (unsigned)strtoul(argv[++i], NULL, 0);
		else {
			fprintf(stderr, "usage: bench_reduce [--programs N] [--seed S] "
				"[--max-tests N]\n");
			return 2;
		}
	}
	if (!kernel_available(why, sizeof(why))) {
		fprintf(stderr, "bench_reduce: %s\n", why);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("| program | insns | old: insns, tests, s, 1-minimal | new: insns, tests (cached), s, "
	       "1-minimal | new --jobs 2: insns, tests, s |\n|---|---|---|---|---|\n");
	for (uint64_t s = seed; done < programs && s < seed + 2000; s++) {
		struct gen_knobs k;
		struct gen_program g = { 0 };
		struct gen_src src;
		struct pred_set ps = { .o = { .sz = sizeof(ps.o) } };
		struct pred_eval ev;
		struct ebpf_object obj;
		struct ebpf_prog prog;
		struct reduce_prog in = { 0 }, res = { 0 }, res2 = { 0 };
		struct reduce_run_opts ro = { .sz = sizeof(ro), .max_tests = max_tests };
		struct reduce_opts oo = { .sz = sizeof(oo), .max_tests = max_tests };
		struct reduce_stats st, st2, ost = { 0 };
		struct old_arg oa = { &ps, 0 };
		struct bpf_insn *old_out = NULL;
		size_t old_len = 0, target = 100 + (size_t)done * 900 / (programs > 1 ? programs - 1 : 1);
		char re[200];
		unsigned extra = 0;
		size_t last = 0;
		double t0, ot;
		bool om;

		k = gen_knobs_default();
		gen_knobs_set(&k, "max_insns", (uint32_t)(target < 1000 ? target : 1000));
		gen_knobs_set(&k, "max_nests", 8);
		gen_knobs_set(&k, "max_stmts", 6);
		gen_knobs_set(&k, "p_subprog", 0);
		gen_knobs_set(&k, "p_map", 0);
		gen_knobs_set(&k, "p_nonterminating", 0);
		gen_knobs_set(&k, "p_huge", 0);
		gen_src_init_seed(&src, s);
		if (gen_program(&g, &src, &k) || g.len < 100 || g.len > 1000 ||
		    g.len < target * 3 / 4) {
			gen_program__free(&g);
			continue;
		}
		/* the last instruction before main's final exit reads the stack out of bounds */
		for (size_t pc = 0; pc < g.funcs[0].end; pc += ebpf_insn_slots(&g.insns[pc]))
			if (ebpf_is_exit(&g.insns[pc]))
				last = pc;
		if (!last || ebpf_is_ldimm64(&g.insns[last - 1]) ||
		    (last >= 2 && ebpf_is_ldimm64(&g.insns[last - 2]))) {
			gen_program__free(&g);
			continue;
		}
		g.insns[last - 1] = (struct bpf_insn){ .code = BPF_LDX | BPF_MEM | BPF_DW,
						       .dst_reg = 0, .src_reg = 10, .off = -1000 };
		in.insns = g.insns;
		in.len = g.len;
		in.prog_type = g.prog_type;
		oa.type = g.prog_type;
		pred_view(&obj, &prog, &in);
		pred_set__add(&ps, "rejects", NULL, NULL);
		if (pred_set__eval(&ps, &obj, &prog, &ev) != 1 || !strstr(ev.message, "-1000")) {
			pred_eval__free(&ev);
			pred_set__free(&ps);
			gen_program__free(&g);
			continue;	/* rejected before the walk reached it */
		}
		re_quote(re, sizeof(re), ev.message, 40);
		pred_eval__free(&ev);
		pred_set__add(&ps, "msg", re, NULL);
		done++;
		/* old */
		t0 = wall_s();
		if (old_reduce(&old_out, &old_len, in.insns, in.len, old_pred, &oa, &oo, &ost))
			fprintf(stderr, "seed %llu: old reducer failed\n", (unsigned long long)s);
		ot = wall_s() - t0;
		old_t += ot;
		{
			struct reduce_prog op = { .insns = old_out, .len = old_len,
						  .prog_type = g.prog_type };

			om = old_out && one_minimal(&op, &ps, &extra);
		}
		/* new, one job and two */
		reduce_run(&res, &in, pred_set__test, &ps, &ro, &st, NULL);
		new_t += st.seconds;
		ro.jobs = 2;
		reduce_run(&res2, &in, pred_set__test, &ps, &ro, &st2, NULL);
		j2_t += st2.seconds;
		printf("| seed %llu | %zu | %zu, %u, %.1f, %s | %zu, %u (%u), %.1f, %s | %zu, %u, %.1f "
		       "|\n", (unsigned long long)s, reduce_count_insns(in.insns, in.len),
		       reduce_count_insns(old_out, old_len), ost.tests, ot, om ? "yes" : "no",
		       st.insns_after, st.tests, st.cached, st.seconds,
		       st.one_minimal ? "proved" : "no", st2.insns_after, st2.tests, st2.seconds);
		in_n += reduce_count_insns(in.insns, in.len);
		old_n += reduce_count_insns(old_out, old_len);
		new_n += st.insns_after;
		j2_n += st2.insns_after;
		old_tests += ost.tests;
		new_tests += st.tests;
		j2_tests += st2.tests;
		old_min += om;
		new_min += st.one_minimal;
		j2_min += st2.one_minimal;
		free(old_out);
		reduce_prog__free(&res);
		reduce_prog__free(&res2);
		pred_set__free(&ps);
		gen_program__free(&g);
	}
	printf("\n%u programs, %zu instructions in all: old %zu left, %lu tests, 1-minimal %u; new "
	       "%zu left, %lu tests, 1-minimal proved %u; --jobs 2 %zu left, %lu tests, proved %u; "
	       "time old %.1f s, new %.1f s, --jobs 2 %.1f s\n", done, in_n, old_n, old_tests, old_min,
	       new_n, new_tests, new_min, j2_n, j2_tests, j2_min, old_t, new_t, j2_t);
	return 0;
}
