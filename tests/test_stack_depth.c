/* Each function's stack depth (scev_verdict.frame) is never below what the kernel counts: the
 * combined stack of a call chain (512 bytes) is judged on these depths, so a frame counted short
 * lets bpfscev call safe a program whose chain the kernel refuses, and which needs more stack
 * than any JIT gives it.  Found this way: an iterator's slot (bpf_iter_num_new(&it) at fp-200
 * with nothing else below fp-192) was not counted.
 *
 * Two judges, over every corpus case and over generated programs with calls, iterators and
 * callbacks that bpfscev calls safe (p_iter_deep: an iterator the deepest slot of main's frame,
 * of a callee's or of both, the frames together at or near 512 bytes):
 * - the kernel (when bpf() works): its log's "stack depth A+B+..." (print_verification_stats,
 *   each subprogram's stack_depth, grown 8 bytes at a time by grow_stack_state).  Those are
 *   printed after the fix-ups that give an inlined bpf_loop call 24 bytes (optimize_bpf_loop)
 *   and a may_goto its counter slots (do_misc_fixups): both measured here on two small
 *   programs and taken off the functions that hold such a call or may_goto in an accepted
 *   program.  A program whose dead subprograms the kernel removed (fewer in its line) is judged
 *   on main's frame only.
 * - the interpreter, always: the deepest stack byte each function's frame is accessed at in
 *   runs of the program (loads, stores and atomics through any register, an iterator kfunc's
 *   r1), by whichever frame makes the access — a count of real accesses, independent of the
 *   analysis.  Run only on programs of the interpreter's own context (XDP).
 * The comparison itself is checked to fail: iter_num_ptr_to_subprog with main's depth 8 short
 * must be flagged by both judges.
 * Run in parts (`--part K/N`, tests/check.h), each part judges its share of the programs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casefile/casefile.h"
#include "fuzz/corpus.h"
#include "generators/gen.h"
#include "oracle/exec/interp.h"
#include "oracle/kernel/kernel.h"
#include "scev/scev.h"
#include "tests/check.h"
#include "triage/verdict.h"

#define MAX_FUNCS SCEV_VERDICT_FRAMES

/* What the kernel adds after its check to a function with an inlined bpf_loop call, and with
 * a may_goto (measured by calibrate()). */
static uint32_t extra_loop, extra_goto;
static bool kernel;

struct funcs {
	uint32_t n, start[MAX_FUNCS + 1];
	bool loop[MAX_FUNCS], may_goto[MAX_FUNCS];
};

/* The functions as the kernel delimits them (add_subprog): main and every target of a
 * bpf-to-bpf call or of a function address; what each holds of the fix-ups' kinds. */
static void find_funcs(const struct ebpf_prog *p, struct funcs *fs)
{
	memset(fs, 0, sizeof(*fs));
	fs->start[fs->n++] = 0;
	for (uint32_t pc = 0; pc < p->len; pc += ebpf_insn_slots(&p->insns[pc])) {
		const struct bpf_insn *i = &p->insns[pc];
		uint32_t t = pc + 1 + (uint32_t)i->imm, k;

		if (!ebpf_is_pseudo_call(i) && !(ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC))
			continue;
		for (k = 0; k < fs->n && fs->start[k] != t; k++)
			;
		if (k == fs->n && fs->n < MAX_FUNCS)
			fs->start[fs->n++] = t;
	}
	for (uint32_t a = 1; a < fs->n; a++)	/* (few: insertion sort) */
		for (uint32_t b = a; b > 0 && fs->start[b - 1] > fs->start[b]; b--) {
			uint32_t t = fs->start[b];

			fs->start[b] = fs->start[b - 1];
			fs->start[b - 1] = t;
		}
	fs->start[fs->n] = (uint32_t)p->len;
	for (uint32_t f = 0; f < fs->n; f++)
		for (uint32_t pc = fs->start[f]; pc < fs->start[f + 1]; pc++) {
			const struct bpf_insn *i = &p->insns[pc];

			fs->loop[f] |= ebpf_is_helper_call(i) && i->imm == BPF_FUNC_loop;
			fs->may_goto[f] |= i->code == (BPF_JMP | BPF_JCOND);
		}
}

static uint32_t func_of(const struct funcs *fs, uint32_t pc)
{
	uint32_t f = 0;

	while (f + 1 < fs->n && fs->start[f + 1] <= pc)
		f++;
	return f;
}

/* The last "stack depth A+B+..." of a log: the count, 0 when absent. */
static uint32_t kernel_depths(const char *log, uint32_t *d)
{
	const char *p = log, *last = NULL;
	uint32_t n = 0;

	while (p && (p = strstr(p, "stack depth ")))
		last = p++;
	if (!last)
		return 0;
	for (const char *q = last + strlen("stack depth "); n < MAX_FUNCS;) {
		char *end;
		unsigned long v = strtoul(q, &end, 10);

		if (end == q)
			break;
		d[n++] = (uint32_t)v;
		if (*end != '+')
			break;
		q = end + 1;
	}
	return n;
}

/* Under-counts of v's frames against the kernel's log (0 when it has no depths): printed. */
static unsigned judge_kernel(const char *name, const struct scev_verdict *v, const struct funcs *fs,
			     const char *log, bool accepted)
{
	uint32_t k[MAX_FUNCS], n = log ? kernel_depths(log, k) : 0;
	unsigned bad = 0;

	if (n != v->nframes)
		n = n && v->nframes ? 1 : 0;	/* (dead subprograms removed: main only) */
	for (uint32_t f = 0; f < n; f++) {
		uint32_t checked = k[f], extra = 0;

		if (accepted && f < fs->n)
			extra = (fs->loop[f] ? extra_loop : 0) + (fs->may_goto[f] ? extra_goto : 0);
		checked = checked > extra ? checked - extra : 0;
		if (v->frame[f] < checked) {
			printf("%s: function %u (at %u): stack depth %u, the kernel's %u (%u after its "
			       "fix-ups)\n", name, f, fs->start[f], v->frame[f], checked, k[f]);
			bad++;
		}
	}
	return bad;
}

struct watch {
	const struct ebpf_prog *p;
	const struct funcs *fs;
	uint32_t fn_at[EBPF_MAX_CALL_DEPTH + 2];
	uint32_t deepest[MAX_FUNCS];
};

static void touch(struct watch *w, uint64_t a)
{
	uint64_t off = a - INTERP_VA_STACK;
	uint32_t k, d;

	if (a < INTERP_VA_STACK || off >= (uint64_t)EBPF_STACK_SIZE * (EBPF_MAX_CALL_DEPTH + 2))
		return;
	k = (uint32_t)(off / EBPF_STACK_SIZE);
	d = (EBPF_STACK_SIZE - (uint32_t)(off % EBPF_STACK_SIZE) + 7) & ~7u;
	if (w->fn_at[k] < MAX_FUNCS && d > w->deepest[w->fn_at[k]])
		w->deepest[w->fn_at[k]] = d;
}

static void visit(void *arg, const struct interp_state *st, uint32_t pc)
{
	struct watch *w = arg;
	const struct bpf_insn *i = &w->p->insns[pc];
	const uint64_t *r = interp_state_regs(st);
	unsigned fr = interp_state_frame(st);
	uint8_t c = ebpf_class(i);

	if (fr < EBPF_MAX_CALL_DEPTH + 2)
		w->fn_at[fr] = func_of(w->fs, pc);
	if (c == BPF_LDX)
		touch(w, r[i->src_reg] + (uint64_t)(int64_t)i->off);
	else if (c == BPF_ST || c == BPF_STX)
		touch(w, r[i->dst_reg] + (uint64_t)(int64_t)i->off);
	else if (ebpf_is_call(i) && i->src_reg == BPF_PSEUDO_KFUNC_CALL)
		touch(w, r[1]);
}

/* Under-counts of v's frames against the deepest bytes runs of the XDP program p touch in
 * each function's frame (inputs: the given one, zeros, then drawn bytes). */
static unsigned judge_runs(const char *name, const struct scev_verdict *v, const struct funcs *fs,
			   const struct ebpf_prog *p, const struct ebpf_object *obj,
			   const uint8_t *input, size_t input_len, const uint8_t *hdata,
			   size_t hlen)
{
	struct watch w = { .p = p, .fs = fs };
	struct interp_code *code = NULL;
	uint8_t *probes = NULL, pkt[64];
	struct interp_map rt[8];
	unsigned bad = 0;
	uint64_t rs = 0x5eed;
	struct diag d;

	diag_clear(&d);
	if (fs->n != v->nframes || obj->map_cnt > 8 || interp_prepare(&code, p, &d))
		return 0;
	probes = malloc(interp_code__slots(code));
	if (!probes)
		goto out;
	memset(probes, 1, interp_code__slots(code));
	for (int run = 0; run < 8; run++) {
		struct interp_env env = { .ctx_kind = INTERP_CTX_XDP, .input = pkt,
					  .input_len = sizeof(pkt), .helper_data = hdata,
					  .helper_len = hlen, .maps = rt, .map_cnt = obj->map_cnt,
					  .step_budget = 2000000, .probes = probes, .visit = visit,
					  .arg = &w, .prog_type = p->prog_type };
		struct interp_result res;
		uint8_t values[8][1024];

		memset(rt, 0, sizeof(rt));
		memset(values, 0, sizeof(values));
		for (size_t m = 0; m < obj->map_cnt; m++) {
			rt[m].def = obj->maps[m];
			if (obj->maps[m].type == BPF_MAP_TYPE_ARRAY &&
			    (uint64_t)obj->maps[m].value_size * obj->maps[m].max_entries <= 1024)
				rt[m].values = values[m];
		}
		for (size_t b = 0; b < sizeof(pkt); b++)
			pkt[b] = run == 0 && input && b < input_len ? input[b]
				 : run <= 1 ? 0 : (uint8_t)check_rand(&rs);
		for (uint32_t k = 0; k < EBPF_MAX_CALL_DEPTH + 2; k++)
			w.fn_at[k] = UINT32_MAX;
		interp_run(code, &env, &res);
	}
	for (uint32_t f = 0; f < fs->n; f++)
		if (v->frame[f] < w.deepest[f]) {
			printf("%s: function %u (at %u): stack depth %u, a run accesses its frame %u "
			       "bytes deep\n", name, f, fs->start[f], v->frame[f], w.deepest[f]);
			bad++;
		}
out:
	free(probes);
	interp_code__free(code);
	return bad;
}

struct tally {
	unsigned programs, safe, kernel_judged, run_judged, under;
};

/* One program: its verdict and, when safe, both judges. */
static void one(const char *name, const struct ebpf_object *obj, const struct ebpf_prog *p,
		uint32_t type, const uint8_t *input, size_t input_len, const uint8_t *hdata,
		size_t hlen, struct tally *t)
{
	struct verdict_opts vo = { .sz = sizeof(vo), .kernel = kernel, .runs = 4,
				   .prog_type = type, .keep_load_errors = true };
	struct verdict_report r;
	struct funcs fs;
	struct diag d;
	unsigned bad;

	diag_clear(&d);
	if (verdict_compare(&r, obj, p, &vo, &d)) {
		CHECK(0, "%s: %s", name, d.msg);
		return;
	}
	t->programs++;
	if (r.ours.kind != VERDICT_SAFE) {
		verdict_report__free(&r);
		return;
	}
	t->safe++;
	find_funcs(p, &fs);
	bad = 0;
	if (r.kernel_log && kernel_depths(r.kernel_log, (uint32_t[MAX_FUNCS]){ 0 })) {
		t->kernel_judged++;
		bad += judge_kernel(name, &r.ours, &fs, r.kernel_log, r.kernel_accepted);
	}
	if ((type ? type : p->prog_type) == BPF_PROG_TYPE_XDP && fs.n == r.ours.nframes) {
		t->run_judged++;
		bad += judge_runs(name, &r.ours, &fs, p, obj, input, input_len, hdata, hlen);
	}
	CHECK(!bad, "%s: %u frame(s) counted short", name, bad);
	t->under += bad != 0;
	verdict_report__free(&r);
}

/* The kernel's fix-up bytes: a main touching fp-8 with a bpf_loop call, and with a may_goto. */
static uint32_t calibrate_one(const char *text)
{
	struct ebpf_object *obj = NULL;
	struct kernel_prog *kp = NULL;
	struct kernel_prog_opts ko = { .sz = sizeof(ko), .prog_type = BPF_PROG_TYPE_XDP };
	uint32_t k[MAX_FUNCS], n = 0;
	struct diag d;

	diag_clear(&d);
	if (ebpf_object__open_mem(&obj, text, strlen(text), "calibrate", &d) ||
	    kernel_prog__load(&kp, obj, &obj->progs[0], &ko, &d) || !kp->accepted ||
	    !(n = kernel_depths(kp->log, k)) || k[0] < 8) {
		CHECK(0, "calibration program not loaded as expected: %s", d.msg[0] ? d.msg
		      : kp ? kp->message : "");
		n = 0;
	}
	kernel_prog__free(kp);
	ebpf_object__free(obj);
	return n ? k[0] - 8 : 0;
}

static void calibrate(void)
{
	extra_loop = calibrate_one("r1 = 0\n*(u64 *)(r10 -8) = r1\nr1 = 4\nr2 = func cb ll\n"
				   "r3 = 0\nr4 = 0\ncall bpf_loop\nr0 = 0\nexit\ncb: r0 = 0\nexit\n");
	extra_goto = calibrate_one("r1 = 0\n*(u64 *)(r10 -8) = r1\nr0 = 0\nl: may_goto out\n"
				   "r0 += 1\ngoto l\nout: exit\n");
	printf("kernel fix-ups: an inlined bpf_loop call +%u bytes, may_goto +%u\n", extra_loop,
	       extra_goto);
}

static void corpus_cases(struct tally *t)
{
	char dir[1024], path[2048], **names = NULL;
	long n;

	snprintf(dir, sizeof(dir), "%s/corpus/cases", check_source_dir());
	n = corpus_list_cases(dir, &names);
	CHECK(n > 300, "corpus cases in %s: %ld", dir, n);
	for (long c = 0; c < n; c++) {
		struct ebpf_object *obj = NULL;
		struct diag d;

		if (!check_share((uint64_t)c)) {
			free(names[c]);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, names[c]);
		diag_clear(&d);
		if (casefile__open_object(&obj, path, &d) == 0 && obj->prog_cnt)
			one(names[c], obj, &obj->progs[0], 0, NULL, 0, NULL, 0, t);
		else
			CHECK(0, "%s: %s", names[c], d.msg);
		ebpf_object__free(obj);
		free(names[c]);
	}
	free(names);
}

static void generated(struct tally *t)
{
	static const char *const knobs[] = {
		"p_call_ctx", "p_call_frames", "p_call_args", "p_big_frame", "p_call_chain",
		"p_iter_num", "p_iter_helper", "p_bpf_loop", "p_cb_count", "p_call_bound",
		"p_caller_home", "p_iter_deep",
	};
	struct gen_program gp = { 0 };

	for (size_t k = 0; k < sizeof(knobs) / sizeof(knobs[0]); k++)
		for (uint64_t seed = 700; seed < 712; seed++) {
			struct gen_knobs kn = gen_knobs_default();
			struct ebpf_object obj = { 0 };
			struct ebpf_prog view;
			struct gen_src src;
			char name[64];

			if (!check_share(k * 12 + seed - 700))
				continue;
			gen_knobs_set(&kn, knobs[k], 100);
			gen_src_init_seed(&src, seed);
			if (gen_program(&gp, &src, &kn))
				continue;
			gen_program__object(&gp, &obj, &view, "gen");
			snprintf(name, sizeof(name), "%s seed %llu", knobs[k], (unsigned long long)seed);
			one(name, &obj, &view, BPF_PROG_TYPE_XDP, gp.input, gp.input_len,
			    gp.helper_data, gp.helper_len, t);
		}
	gen_program__free(&gp);
}

/* Both judges flag a frame counted 8 bytes short (the iterator slot this test found). */
static void judges_fail(void)
{
	char path[2048];
	struct ebpf_object *obj = NULL;
	struct verdict_opts vo = { .sz = sizeof(vo), .kernel = kernel, .runs = 1 };
	struct verdict_report r;
	struct funcs fs;
	struct diag d;

	snprintf(path, sizeof(path), "%s/corpus/cases/iter_num_ptr_to_subprog.case",
		 check_source_dir());
	diag_clear(&d);
	if (casefile__open_object(&obj, path, &d) || verdict_compare(&r, obj, &obj->progs[0], &vo,
								      &d)) {
		CHECK(0, "%s: %s", path, d.msg);
		ebpf_object__free(obj);
		return;
	}
	find_funcs(&obj->progs[0], &fs);
	CHECK(r.ours.kind == VERDICT_SAFE && r.ours.nframes == 2 && r.ours.frame[0] == 200,
	      "iter_num_ptr_to_subprog: %s, main's stack depth %u (its iterator at fp-200)",
	      scev_verdict_name(r.ours.kind), r.ours.frame[0]);
	r.ours.frame[0] -= 8;
	printf("planted: main's depth 8 bytes short; the judges say:\n");
	CHECK(judge_runs("planted", &r.ours, &fs, &obj->progs[0], obj, NULL, 0, NULL, 0) == 1,
	      "the runs' judge missed a frame 8 bytes short");
	if (kernel)
		CHECK(judge_kernel("planted", &r.ours, &fs, r.kernel_log, r.kernel_accepted) == 1,
		      "the kernel's judge missed a frame 8 bytes short");
	verdict_report__free(&r);
	ebpf_object__free(obj);
}

int main(int argc, char **argv)
{
	char why[256];
	struct tally t = { 0 };

	check_parts(&argc, argv);

	kernel = kernel_available(why, sizeof(why));
	if (!kernel)
		check_skip_part("the kernel's stack depths: %s (the runs still judge)", why);
	else
		calibrate();
	CHECK_STEP(judges_fail());
	corpus_cases(&t);
	generated(&t);
	printf("%u programs, %u called safe: %u judged by the kernel's log, %u by runs; %u with a "
	       "frame counted short\n", t.programs, t.safe, t.kernel_judged, t.run_judged, t.under);
	return check_done("test_stack_depth");
}
