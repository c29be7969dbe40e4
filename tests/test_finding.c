/* Finding directories and the reducer: a planted finding (claims made wrong the way a buggy
 * analyzer would make them) is written, read back field for field, its prog.s re-assembles to
 * prog.bin, `bpfscev replay` says it holds with the saved claims (exit 1) and is gone with the
 * real analyzer (exit 0), dedup and the earliest-program rule work, and `reduce` — through the
 * same library calls the command makes, with the bug planted by the mutate hook — shrinks
 * range, trip and induction findings to a fraction of their program.  Plus the deletion step
 * (jump re-targeting, LD_IMM64, dangling jumps, the final exit), the constant and register
 * steps against a synthetic predicate, and the crash classifier on sanitizer reports.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf/asm.h"
#include "casefile/casefile.h"
#include "fuzz/replay.h"
#include "oracle/exec/interp.h"
#include "triage/finding.h"
#include "triage/reduce.h"
#include "triage/verdict.h"
#include "tests/check.h"

static char root[256];

/* Two loops and bystanders the reducer should drop: r6, r7, r8 and r9 do nothing that
 * matters to the loops. */
static const char *const prog_text =
	"r0 = 0\n"
	"r6 = 0\n"
	"r7 = 5\n"
	"r9 = 0x123456789 ll\n"
	"r1 = 0\n"
	"l1: r0 += 3\n"
	"r6 += r7\n"
	"r9 ^= r6\n"
	"r1 += 1\n"
	"if r1 < 10 goto l1\n"
	"r2 = 0\n"
	"l2: r2 += 2\n"
	"r8 = r2\n"
	"r8 *= 7\n"
	"r0 += r2\n"
	"if r2 < 20 goto l2\n"
	"r0 += r6\n"
	"exit\n";

static struct bpf_insn *assemble(const char *text, size_t *len)
{
	struct bpf_insn *insns = NULL;
	uint32_t *lines = NULL;
	struct diag d;

	diag_clear(&d);
	CHECK(!ebpf_asm(&insns, len, &lines, text, strlen(text), 1, &d), "asm: %s", d.msg);
	free(lines);
	return insns;
}

/* ---- planted analyzer bugs (the mutate hook) ---- */

enum plant { PLANT_TRIP, PLANT_RANGE, PLANT_IV };

static void plant(void *arg, struct claim_prog *cp)
{
	enum plant what = *(enum plant *)arg;

	for (uint32_t l = 0; l < cp->nloops; l++) {
		struct claim_loop *cl = &cp->loops[l];

		if (what == PLANT_TRIP && cl->trip.kind != TRIP_UNKNOWN && cl->trip.max > 0) {
			cl->trip.kind = TRIP_BOUNDED;	/* the maximum one too small */
			cl->trip.max--;
			cl->trip.min = 0;
		}
		if (what == PLANT_IV)
			for (uint32_t i = 0; i < cl->nivs; i++)
				cl->ivs[i].step++;	/* a step one too large */
	}
	if (what == PLANT_RANGE)
		for (uint32_t i = 0; i < cp->nranges; i++) {
			struct range *r = &cp->ranges[i].r;

			if (!cp->ranges[i].is_ptr && r->umax > r->umin && cp->ranges[i].source ==
			    SRC_RECURRENCE)
				r->umax--;	/* a recurrence's last value left out */
		}
}

/* The finding a buggy analyzer would have produced: analyze, plant, check on the zero input. */
static int make_finding(struct finding *f, const struct bpf_insn *insns, size_t len,
			enum plant what, uint8_t kind)
{
	struct ebpf_object *obj = NULL;
	struct claim_prog cp = { 0 };
	struct scev_opts so = { .sz = sizeof(so) };
	static const uint8_t zeros[64];
	struct check_opts co = { .sz = sizeof(co), .input = zeros, .fixed_len = sizeof(zeros) };
	struct check_result res;
	struct diag d;
	int err = -ENOENT;

	diag_clear(&d);
	CHECK(!ebpf_object__from_insns(&obj, insns, len, "planted", &d), "object: %s", d.msg);
	if (!obj)
		return -EINVAL;
	CHECK(!scev_analyze(&cp, &obj->progs[0], NULL, 0, &so, &d), "analyze: %s", d.msg);
	plant(&what, &cp);
	CHECK(!oracle_check(&res, obj, &obj->progs[0], &cp, &co), "check");
	for (uint32_t i = 0; i < res.nfindings && err; i++)
		if (res.findings[i].kind == kind)
			err = finding__from_check(f, &res.findings[i], &obj->progs[0], NULL, 0, &cp);
	CHECK(!err, "no %s finding planted (%u findings)", finding_kind_name(kind), res.nfindings);
	check_result__free(&res);
	claim_prog__free(&cp);
	ebpf_object__free(obj);
	return err;
}

/* ---- round trip ---- */

static int run_cli(const char *args)
{
	const char *bin = getenv("BPFSCEV_BIN");
	char cmd[1024];
	int st;

	if (!bin)
		return -1;
	snprintf(cmd, sizeof(cmd), "%s %s >/dev/null 2>&1", bin, args);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_round_trip(void)
{
	struct finding f, g, h;
	struct ebpf_object *obj = NULL;
	enum finding_save_result res;
	struct finding_save_opts so = { .sz = sizeof(so), .prefer_earlier = true };
	struct replay_opts co = { .sz = sizeof(co) };
	struct replay_verdict v;
	char path[512], path2[600], args[700], dir[300];
	size_t len;
	struct bpf_insn *insns = assemble(prog_text, &len);
	struct diag d;

	if (make_finding(&f, insns, len, PLANT_TRIP, FIND_TRIP_MAX))
		goto out;
	f.has_origin = true;
	f.campaign_seed = 42;
	f.index = 100;
	snprintf(f.source, sizeof(f.source), "test");
	snprintf(dir, sizeof(dir), "%s/crashes", root);
	CHECK(!finding__save(&f, dir, &so, &res, path, sizeof(path)), "save");
	CHECK(res == FINDING_NEW, "first save: %d", res);
	CHECK(!finding__load(&g, path, &d), "load: %s", d.msg);
	CHECK_EQ_U64(g.kind, f.kind, "kind");
	CHECK_EQ_U64(g.len, f.len, "len");
	CHECK(!memcmp(g.insns, f.insns, f.len * sizeof(*f.insns)), "insns differ");
	CHECK_EQ_U64(g.input_len, f.input_len, "input_len");
	CHECK(!memcmp(g.input, f.input, f.input_len), "input differs");
	CHECK_EQ_U64(g.helper_len, f.helper_len, "helper_len");
	CHECK_EQ_U64(g.pc, f.pc, "pc");
	CHECK_EQ_U64(g.claim, f.claim, "claim");
	CHECK_EQ_U64(g.observed, f.observed, "observed");
	CHECK_EQ_U64(g.sig.full, f.sig.full, "signature after reading");
	CHECK_EQ_U64(g.sig.core, f.sig.core, "core signature after reading");
	CHECK(!strcmp(g.text, f.text), "text '%s' vs '%s'", g.text, f.text);
	CHECK(g.claims && g.claims->nloops == 2, "claims.json read back");
	CHECK(g.has_origin && g.campaign_seed == 42 && g.index == 100, "origin");
	/* prog.s assembles back to prog.bin */
	snprintf(path2, sizeof(path2), "%s/prog.s", path);
	CHECK(!casefile__open_object(&obj, path2, &d), "prog.s: %s", d.msg);
	if (obj) {
		CHECK(obj->progs[0].len == f.len &&
		      !memcmp(obj->progs[0].insns, f.insns, f.len * sizeof(*f.insns)),
		      "prog.s does not assemble to prog.bin");
		ebpf_object__free(obj);
	}
	/* saved claims: still holds; the real analyzer: gone */
	co.saved_claims = true;
	CHECK(!replay_check(&g, NULL, &co, &v) && v.holds, "saved claims: %s", v.text);
	co.saved_claims = false;
	CHECK(!replay_check(&g, NULL, &co, &v) && !v.holds, "the real analyzer: %s", v.text);
	snprintf(args, sizeof(args), "replay %s --claims-as-saved", path);
	CHECK(run_cli(args) == 1, "bpfscev %s: exit 1 wanted", args);
	snprintf(args, sizeof(args), "replay %s", path);
	CHECK(run_cli(args) == 0, "bpfscev %s: exit 0 wanted", args);
	/* dedup: another campaign is a duplicate; the same program is the same; an earlier
	 * program of the same campaign replaces it */
	f.campaign_seed = 43;
	CHECK(!finding__save(&f, dir, &so, &res, NULL, 0) && res == FINDING_DUP, "dup: %d", res);
	f.campaign_seed = 42;
	CHECK(!finding__save(&f, dir, &so, &res, NULL, 0) && res == FINDING_SAME, "same: %d", res);
	f.index = 7;
	CHECK(!finding__save(&f, dir, &so, &res, NULL, 0) && res == FINDING_REPLACED,
	      "replaced: %d", res);
	CHECK(!finding__load(&h, path, &d) && h.index == 7, "the earlier program is kept");
	finding__free(&h);
	f.index = 9;
	CHECK(!finding__save(&f, dir, &so, &res, NULL, 0) && res == FINDING_DUP, "later: %d", res);
	finding__free(&g);
	finding__free(&f);
out:
	free(insns);
}

/* ---- global functions' prototypes ---- */

/* The candidate as an object, as the kernel would be given it: g's prototype at the function
 * that reads through its argument. */
static int reads_through_global_arg(void *arg, const struct reduce_prog *p)
{
	const struct finding *f = arg;
	struct ebpf_object *obj = NULL;
	struct diag d;
	int holds = 0;

	if (finding__object(&obj, f, p->insns, p->len, p->globals, p->nglobals, &d))
		return 0;
	for (size_t k = 0; k < obj->progs[0].global_cnt; k++) {
		const struct ebpf_global_func *g = &obj->progs[0].globals[k];

		for (size_t pc = g->insn; pc < p->len && !ebpf_is_exit(&p->insns[pc]); pc++)
			holds |= !strcmp(g->name, "g") && g->args[0].kind == EBPF_FARG_PTR &&
				 ebpf_class(&p->insns[pc]) == BPF_LDX && p->insns[pc].src_reg == 1;
	}
	ebpf_object__free(obj);
	return holds;
}

/* A finding keeps its program's global prototypes: prog.s has the .global line, reading the
 * directory gives them back, the finding's object carries them (the kernel loads g on its own
 * from them), and the reducer moves them with g. */
static void test_globals(void)
{
	static const char src[] =
		"r6 = 7\nr7 = 9\nr6 += r7\n*(u64 *)(r10 - 8) = 0\nr1 = r10\nr1 += -8\n"
		"call g\nr0 = 0\nexit\n"
		".global g ptr:8\ng: r2 = 5\nr0 = *(u64 *)(r1 + 0)\nr0 += r2\nexit\n";
	struct ebpf_prog prog = { .name = "glob", .prog_type = BPF_PROG_TYPE_XDP };
	/* (a map whose value holds a struct bpf_timer at 8: finding.txt's map line keeps it) */
	struct ebpf_map_def map = { .name = "tm", .type = BPF_MAP_TYPE_ARRAY, .key_size = 4,
				    .value_size = 32, .max_entries = 1, .timer = 9 };
	struct reduce_prog in = { 0 }, out = { 0 }, back = { 0 };
	struct finding f, g = { 0 };
	struct ebpf_object *obj = NULL;
	enum finding_save_result res;
	char dir[300], path[512], s_path[600];
	struct diag d;
	FILE *fp;

	diag_clear(&d);
	CHECK(!ebpf_asm_globals(&prog.insns, &prog.len, NULL, &prog.globals, &prog.global_cnt,
				src, strlen(src), 1, &d) && prog.global_cnt == 1, "asm: %s", d.msg);
	if (!prog.insns || finding__init(&f, FIND_KERNEL, "kernel-invariant", "kernel", &prog,
					 &map, 1, NULL, 0, NULL, 0, NULL))
		goto out;
	snprintf(f.text, sizeof(f.text), "planted");
	finding_signature(&f, NULL);
	snprintf(dir, sizeof(dir), "%s/globals", root);
	CHECK(!finding__save(&f, dir, NULL, &res, path, sizeof(path)), "save");
	CHECK(!finding__load(&g, path, &d), "load: %s", d.msg);
	CHECK(g.nglobals == 1 && !memcmp(&g.globals[0], &prog.globals[0], sizeof(g.globals[0])),
	      "the prototype read back: %zu globals", g.nglobals);
	CHECK(g.map_cnt == 1 && g.maps[0].timer == 9 && g.maps[0].value_size == 32,
	      "the map's timer read back: %u", g.map_cnt ? g.maps[0].timer : 0);
	CHECK(!finding__object(&obj, &g, NULL, 0, NULL, 0, &d) && obj &&
	      obj->progs[0].global_cnt == 1 && obj->progs[0].globals[0].insn == 9,
	      "the finding's object has g's prototype");
	ebpf_object__free(obj);
	/* reduced: the bystanders go, g's prototype moves with g */
	in.insns = g.insns;
	in.len = g.len;
	in.globals = g.globals;
	in.nglobals = g.nglobals;
	CHECK(!reduce_run_opts(&out, &in, reads_through_global_arg, &g, NULL, NULL), "reduce");
	CHECK(out.len < g.len && out.nglobals == 1 && out.globals[0].insn < 9 &&
	      reads_through_global_arg(&g, &out), "reduced to %zu slots, g at %u", out.len,
	      out.nglobals ? out.globals[0].insn : 0);
	CHECK(!finding__write_program(&g, path, "reduced", out.insns, out.len, out.globals,
				      out.nglobals, "test"), "write reduced");
	CHECK(!finding__read_program(path, "reduced", &back.insns, &back.len, &back.globals,
				     &back.nglobals, &d) && back.len == out.len &&
	      back.nglobals == 1 && back.globals[0].insn == out.globals[0].insn,
	      "reduced.s gives the prototype back: %s", d.msg);
	/* a .s whose instructions are not the .bin's cannot place its .global lines */
	snprintf(s_path, sizeof(s_path), "%s/reduced.s", path);
	fp = fopen(s_path, "w");
	if (fp) {
		fputs("; edited\n-- asm\n.global g int:8\nr0 = 1\nexit\n", fp);
		fclose(fp);
	}
	reduce_prog__free(&back);
	diag_clear(&d);
	CHECK(finding__read_program(path, "reduced", &back.insns, &back.len, &back.globals,
				    &back.nglobals, &d) < 0 && strstr(d.file, "reduced.s") &&
	      strstr(d.msg, "does not assemble"), "a mismatched reduced.s: '%s'", d.msg);
	reduce_prog__free(&back);
	reduce_prog__free(&out);
	finding__free(&g);
	finding__free(&f);
out:
	free(prog.insns);
	free(prog.globals);
}

static void test_cleanup(void)
{
	char dir[300], tmp[400];
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);	/* a pid that is surely gone */
	snprintf(dir, sizeof(dir), "%s/clean", root);
	mkdir(dir, 0755);
	snprintf(tmp, sizeof(tmp), "%s/.tmp-range-0123-%d-0", dir, pid);
	mkdir(tmp, 0755);
	snprintf(tmp, sizeof(tmp), "%s/.tmp-range-0123-%d-0/prog.bin", dir, pid);
	fclose(fopen(tmp, "w"));
	snprintf(tmp, sizeof(tmp), "%s/.tmp-range-4567-%d-0", dir, getpid());
	mkdir(tmp, 0755);
	finding_dir_cleanup(dir);
	snprintf(tmp, sizeof(tmp), "%s/.tmp-range-0123-%d-0", dir, pid);
	CHECK(access(tmp, F_OK), "a dead writer's directory survived");
	snprintf(tmp, sizeof(tmp), "%s/.tmp-range-4567-%d-0", dir, getpid());
	CHECK(!access(tmp, F_OK), "a live writer's directory was removed");
}

/* ---- reducing planted findings ---- */

struct pred {
	const struct finding *f;
	struct replay_opts co;
};

static bool holds(void *arg, const struct bpf_insn *insns, size_t len)
{
	struct pred *p = arg;
	struct replay_verdict v;

	struct reduce_prog c = { .insns = (struct bpf_insn *)insns, .len = len };

	return !replay_check(p->f, &c, &p->co, &v) && v.holds;
}

static void reduce_planted(enum plant what, uint8_t kind, size_t max_after)
{
	struct finding f;
	struct pred p = { .f = &f, .co = { .sz = sizeof(p.co), .match = REPLAY_MATCH_CORE,
					   .zero_input = true, .mutate = plant } };
	struct reduce_stats st;
	struct bpf_insn *out = NULL;
	size_t out_len, len;
	struct bpf_insn *insns = assemble(prog_text, &len);
	char dir[300];

	p.co.mutate_arg = &what;
	if (make_finding(&f, insns, len, what, kind)) {
		free(insns);
		return;
	}
	CHECK(holds(&p, f.insns, f.len), "%s: the planted finding does not hold",
	      finding_kind_name(kind));
	CHECK(!oracle_reduce(&out, &out_len, f.insns, f.len, holds, &p, NULL, &st), "reduce");
	printf("reduced planted %s finding (%s): %zu -> %zu slots, %zu -> %zu instructions, %u "
	       "tests, %u rounds\n", finding_kind_name(kind), f.sig.core_text, st.slots_before,
	       st.slots_after, st.insns_before, st.insns_after, st.tests, st.rounds);
	CHECK(out && out_len == st.slots_after, "result length");
	CHECK(st.slots_after < st.slots_before && st.slots_after <= max_after,
	      "%s: only reduced to %zu slots", finding_kind_name(kind), st.slots_after);
	CHECK(!st.budget_hit, "stopped by the budget, not at a fixpoint");
	CHECK(out && !ebpf_validate(out, out_len, NULL), "the result is not valid");
	CHECK(out && holds(&p, out, out_len), "the result does not show the finding");
	/* and the files the command writes */
	snprintf(dir, sizeof(dir), "%s/reduced-%s", root, finding_kind_name(kind));
	mkdir(dir, 0755);
	CHECK(out && !finding__write_program(&f, dir, "reduced", out, out_len, NULL, 0, "test"),
	      "write reduced");
	{
		struct ebpf_object *obj = NULL;
		struct diag d;
		char path[400];

		snprintf(path, sizeof(path), "%s/reduced.s", dir);
		CHECK(!casefile__open_object(&obj, path, &d), "reduced.s: %s", d.msg);
		CHECK(obj && out && obj->progs[0].len == out_len &&
		      !memcmp(obj->progs[0].insns, out, out_len * sizeof(*out)),
		      "reduced.s does not assemble to the result");
		ebpf_object__free(obj);
	}
	free(out);
	finding__free(&f);
	free(insns);
}

/* ---- the reducer's steps ---- */

static void test_delete(void)
{
	static const char *src =
		"r0 = 0\n"			/* 0 */
		"r1 = 0x1234 ll\n"		/* 1-2 */
		"l: if r0 > 5 goto out\n"	/* 3 */
		"r0 += 1\n"			/* 4 */
		"goto l\n"			/* 5 */
		"out: exit\n";			/* 6 */
	size_t len, n;
	struct bpf_insn *p = assemble(src, &len), out[8];
	bool keep[7];

	CHECK_EQ_U64(len, 7, "slots");
	/* drop r0 += 1: the jumps keep their targets */
	memset(keep, 1, sizeof(keep));
	keep[4] = false;
	n = oracle_reduce_delete(out, p, len, keep);
	CHECK_EQ_U64(n, 6, "without insn 4");
	CHECK(n == 6 && out[3].off == 1 && ebpf_is_ja(&out[4]) && out[4].off == -2 &&
	      ebpf_is_exit(&out[5]), "re-targeted jumps");
	/* drop the LD_IMM64: both slots go */
	memset(keep, 1, sizeof(keep));
	keep[1] = false;
	n = oracle_reduce_delete(out, p, len, keep);
	CHECK_EQ_U64(n, 5, "without the LD_IMM64");
	CHECK(n == 5 && out[1].off == 2 && out[3].off == -3, "jumps around the removed pair");
	/* drop the exit: the forward jump has nowhere to land and goes; the goto ends it */
	memset(keep, 1, sizeof(keep));
	keep[6] = false;
	n = oracle_reduce_delete(out, p, len, keep);
	CHECK_EQ_U64(n, 5, "without the exit");
	CHECK(n == 5 && ebpf_is_ja(&out[4]) && out[4].off == -2, "goto re-targeted to r0 += 1");
	/* drop the goto: the program would fall off the end, so an exit is appended */
	memset(keep, 1, sizeof(keep));
	keep[5] = keep[6] = false;
	n = oracle_reduce_delete(out, p, len, keep);
	CHECK_EQ_U64(n, 5, "an exit appended");
	CHECK(n == 5 && ebpf_is_exit(&out[4]), "final exit");
	/* drop everything: a lone exit */
	memset(keep, 0, sizeof(keep));
	n = oracle_reduce_delete(out, p, len, keep);
	CHECK(n == 1 && ebpf_is_exit(&out[0]), "empty program");
	free(p);
}

/* Interesting: some instruction adds at least 100 to r7 (immediate). */
static bool adds_100(void *arg, const struct bpf_insn *insns, size_t len)
{
	(*(unsigned *)arg)++;
	for (size_t pc = 0; pc < len; pc += ebpf_insn_slots(&insns[pc]))
		if (insns[pc].code == (BPF_ALU64 | BPF_ADD | BPF_K) && insns[pc].dst_reg == 7 &&
		    insns[pc].imm >= 100)
			return true;
	return false;
}

/* Interesting: a register-register add into something from r3 or higher. */
static bool adds_reg(void *arg, const struct bpf_insn *insns, size_t len)
{
	(void)arg;
	for (size_t pc = 0; pc < len; pc += ebpf_insn_slots(&insns[pc]))
		if (insns[pc].code == (BPF_ALU64 | BPF_ADD | BPF_X) && insns[pc].src_reg >= 3)
			return true;
	return false;
}

static void test_steps(void)
{
	static const char *src =
		"r1 = 1\nr2 = 2\nr7 = 0\nr3 = 0x7fffffff00000000 ll\nl: r7 += 12345\n"
		"r2 += 1\nif r2 < 9 goto l\nr8 = r3\nr8 += r9\nr0 = r7\nexit\n";
	size_t len, n;
	struct bpf_insn *p = assemble(src, &len), *out = NULL;
	struct reduce_stats st;
	unsigned calls = 0;

	CHECK(!oracle_reduce(&out, &n, p, len, adds_100, &calls, NULL, &st), "reduce");
	CHECK(n == 2 && out[0].code == (BPF_ALU64 | BPF_ADD | BPF_K) && out[0].dst_reg == 7 &&
	      out[0].imm == 100 && ebpf_is_exit(&out[1]), "want 'r7 += 100; exit', got %zu slots "
	      "imm %d", n, n ? out[0].imm : 0);
	CHECK_EQ_U64(st.tests, calls, "tests counted");
	free(out);
	/* registers go down to the smallest that still works; constants replace registers
	 * only where the predicate allows */
	CHECK(!oracle_reduce(&out, &n, p, len, adds_reg, NULL, NULL, &st), "reduce regs");
	CHECK(n == 2 && out[0].dst_reg == 0 && out[0].src_reg == 3, "want 'r0 += r3; exit', got "
	      "%zu slots r%u += r%u", n, n ? out[0].dst_reg : 0, n ? out[0].src_reg : 0);
	free(out);
	/* a program that does not show it is refused */
	CHECK(oracle_reduce(&out, &n, p, 1, adds_100, &calls, NULL, &st) == -EINVAL,
	      "invalid start");
	free(p);
}

/* ---- crashes ---- */

static void test_crash_class(void)
{
	static const char asan[] =
		"=================================================================\n"
		"==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x6230 at pc 0x55\n"
		"READ of size 1 at 0x6230006a3578 thread T0\n"
		"    #0 0x7f310bcb78d5 in __interceptor_memcpy asan_interceptors.cpp:85\n"
		"    #1 0x5569a33864c8 in operands /work/main/scev/expr.c:500\n";
	static const char ubsan[] =
		"/work/main/claims/range.c:120:5: runtime error: signed integer overflow: "
		"9223372036854775807 + 1 cannot be represented in type 'long int'\n";
	char c[96], fr[96];

	finding_crash_class(c, sizeof(c), 1 << 8, false, asan);
	CHECK(!strcmp(c, "asan:heap-use-after-free"), "asan class '%s'", c);
	finding_crash_frame(fr, sizeof(fr), asan);
	CHECK(!strcmp(fr, "operands"), "asan frame '%s'", fr);
	finding_crash_class(c, sizeof(c), 1 << 8, false, ubsan);
	CHECK(!strcmp(c, "ubsan:signed integer overflow"), "ubsan class '%s'", c);
	finding_crash_frame(fr, sizeof(fr), ubsan);
	CHECK(!strcmp(fr, "range.c:120"), "ubsan frame '%s'", fr);
	finding_crash_class(c, sizeof(c), 11, false, NULL);	/* killed by SIGSEGV */
	CHECK(!strcmp(c, "SIGSEGV"), "signal class '%s'", c);
	finding_crash_class(c, sizeof(c), 3 << 8, false, NULL);
	CHECK(!strcmp(c, "exit 3"), "exit class '%s'", c);
	finding_crash_class(c, sizeof(c), 0, true, NULL);
	CHECK(!strcmp(c, "timeout"), "timeout class '%s'", c);
	finding_crash_class(c, sizeof(c), 0, false, NULL);
	CHECK(!c[0], "clean exit '%s'", c);
	{
		size_t len;
		struct bpf_insn *p = assemble(prog_text, &len);
		struct ebpf_prog prog = { .insns = p, .len = len };
		struct scev_opts so = { .sz = sizeof(so) };
		char *log = NULL;

		CHECK(!finding_analyze_isolated(&prog, NULL, 0, &so, 10, c, sizeof(c), &log),
		      "isolated");
		CHECK(!c[0], "the analyzer crashed on a plain program: %s", c);
		free(log);
		free(p);
	}
}

/* ---- verdict findings' signatures ---- */

/* The verdict finding of src run as if called safe (the termination oracle's and the kernel
 * oracle's runs: triage/verdict.c), with a verdict bound of max_insns; saved and read back, the
 * signature is the same.  Returns 0 and fills f when the runs fault. */
static int verdict_finding(struct finding *f, const char *name, const char *src,
			   uint64_t max_insns)
{
	struct ebpf_object obj = { 0 };
	struct ebpf_prog prog = { .prog_type = BPF_PROG_TYPE_XDP };
	struct verdict_opts vo = { .sz = sizeof(vo), .runs = 2, .step_budget = 100000 };
	struct verdict_report rep;
	struct finding g = { 0 };
	enum finding_save_result res;
	char dir[300], path[512];
	struct diag d;
	int err = -ENOENT;

	snprintf(prog.name, sizeof(prog.name), "%s", name);
	prog.insns = assemble(src, &prog.len);
	memset(&rep, 0, sizeof(rep));
	rep.ours.kind = VERDICT_SAFE;
	rep.ours.max_insns = max_insns;
	rep.ours.ends = max_insns == UINT64_MAX ? SCEV_ENDS_NONE : SCEV_ENDS_BOUND;
	CHECK(prog.insns && !verdict_execute(&rep, &obj, &prog, &vo) && rep.faults,
	      "%s: the runs fault (%s)", name, rep.fault);
	if (prog.insns && rep.faults)
		err = finding__from_verdict(f, &prog, NULL, 0, rep.fault, rep.fault_input,
					    rep.fault_input_len);
	CHECK(!err, "%s: the finding", name);
	if (!err) {
		snprintf(dir, sizeof(dir), "%s/verdict-%s", root, name);
		diag_clear(&d);
		CHECK(!finding__save(f, dir, NULL, &res, path, sizeof(path)) &&
		      !finding__load(&g, path, &d) && g.sig.full == f->sig.full &&
		      !strcmp(g.sig.text, f->sig.text),
		      "%s: read back, the signature '%s' is '%s' (%s)", name, f->sig.text,
		      g.sig.text, d.msg);
		finding__free(&g);
	}
	free(prog.insns);
	return err;
}

/* Verdict findings used to share one signature ("verdict|verdict"), so the campaign's
 * deduplication kept one of many different bugs.  Now the same bug in two programs (other
 * pcs, constants and bystanders) signs the same, and different bugs differently: a load above
 * the frame in a loop of main, the same load through NULL, a loop that never ends, a run past
 * the verdict's own bound, the load in a subprogram. */
static void test_verdict_signatures(void)
{
	static const char above[] =
		"r1 = 0\nl: r0 = r10\nr0 += 8\nr0 = *(u64 *)(r0 +0)\nr1 += 1\nif r1 < 4 goto l\n"
		"r0 = 0\nexit\n";
	static const char above_again[] =
		"r6 = 5\nr7 = 9\nr1 = 0\nl: r7 += 3\nr0 = r10\nr0 += 8\nr0 = *(u64 *)(r0 +0)\n"
		"r1 += 1\nif r1 < 7 goto l\nr0 = r6\nexit\n";
	static const char null[] =
		"r1 = 0\nl: r0 = 0\nr0 = *(u64 *)(r0 +0)\nr1 += 1\nif r1 < 4 goto l\nr0 = 0\nexit\n";
	static const char endless[] = "r1 = 0\nl: r1 |= 0\nif r1 < 4 goto l\nr0 = 0\nexit\n";
	static const char sub[] =
		"r1 = 0\ncall f\nr0 = 0\nexit\nf: r1 = 0\nl: r0 = r10\nr0 += 8\n"
		"r0 = *(u64 *)(r0 +0)\nr1 += 1\nif r1 < 4 goto l\nr0 = 0\nexit\n";
	struct finding f[6];
	const char *names[6] = { "above", "above_again", "null", "endless", "past_bound", "sub" };
	int err[6];

	memset(f, 0, sizeof(f));
	err[0] = verdict_finding(&f[0], names[0], above, UINT64_MAX);
	err[1] = verdict_finding(&f[1], names[1], above_again, UINT64_MAX);
	err[2] = verdict_finding(&f[2], names[2], null, UINT64_MAX);
	err[3] = verdict_finding(&f[3], names[3], endless, UINT64_MAX);
	/* (the counted loop of `above_again` without its load: 7 iterations, bound 10) */
	err[4] = verdict_finding(&f[4], names[4],
				 "r1 = 0\nl: r1 += 1\nif r1 < 7 goto l\nr0 = 0\nexit\n", 10);
	err[5] = verdict_finding(&f[5], names[5], sub, UINT64_MAX);
	for (int i = 0; i < 6; i++)
		if (!err[i])
			printf("verdict signature %-12s %s\n", names[i], f[i].sig.text);
	if (!err[0] && !err[1])
		CHECK(f[0].sig.full == f[1].sig.full, "the same bug twice: '%s' and '%s'",
		      f[0].sig.text, f[1].sig.text);
	for (int i = 0; i < 6; i++)
		for (int j = i + 1; j < 6; j++)
			if (!err[i] && !err[j] && j != 1)
				CHECK(f[i].sig.full != f[j].sig.full, "%s and %s share '%s'", names[i],
				      names[j], f[i].sig.text);
	for (int i = 0; i < 6; i++)
		if (!err[i])
			finding__free(&f[i]);
}

/* A run of obj's program from its maps' initial contents (the interpreter, the judge
 * independent of the analyzer): 1 when it does what the verifier refuses
 * (interp_result.refused: the division by the immediate 0 the frozen byte guards), 0 when not,
 * -1 when it traps or cannot run. */
static int run_refused(const struct ebpf_object *obj)
{
	struct interp_map maps[2] = { { .def = obj->maps[0] } };
	struct interp_env env = { .ctx_kind = INTERP_CTX_SKB, .maps = maps, .map_cnt = 1 };
	struct interp_code *code = NULL;
	struct interp_result r = { 0 };
	uint8_t pkt[64] = { 0 };
	struct diag d;
	int rc = -1;

	env.input = pkt;
	env.input_len = sizeof(pkt);
	if (!interp_prepare(&code, &obj->progs[0], &d) && !interp_run(code, &env, &r) &&
	    r.trap == INTERP_OK)
		rc = r.refused;
	interp_code__free(code);
	return rc;
}

/* The reducer's predicate: the candidate still divides by the immediate 0 and a run from its
 * maps' contents reaches no such division. */
static int guarded_division(void *arg, const struct reduce_prog *p)
{
	struct ebpf_prog prog = { .insns = p->insns, .len = p->len, .prog_type = p->prog_type };
	struct ebpf_object obj = { .progs = &prog, .prog_cnt = 1, .maps = p->maps,
				   .map_cnt = p->map_cnt };
	bool div = false;

	(void)arg;
	for (size_t pc = 0; pc < p->len; pc++)
		div |= p->insns[pc].code == (BPF_ALU64 | BPF_DIV | BPF_K) && !p->insns[pc].imm;
	return div && p->map_cnt == 1 && run_refused(&obj) == 0;
}

/* A finding keeps its maps' initial contents ("-- maps" init=, a frozen read-only map's bytes,
 * which decide the program: corpus rodata_guard_dead's division by 0 is dead only with them):
 * finding.txt's map line has them, reading the directory gives them back, and so do the
 * finding's object and the reducer's output; a run of the saved finding's object does not
 * reach the division (it did with the contents dropped: every init NULL, a map of zeros). */
static void test_map_init(void)
{
	static const char text[] =
		"-- asm\nr1 = map[fd:0]+0 ll\nr2 = *(u8 *)(r1 +2)\nr0 = 0\nif r2 == 7 goto out\n"
		"r0 /= 0\nout: r3 = *(u16 *)(r1 +4)\nif r3 == 0x1234 goto ok\nr0 /= 0\nok: exit\n"
		"-- maps\narray key=4 value=8 entries=1 rdonly_prog init=0000070034120000\n"
		"-- type\nsocket\n";
	static const uint8_t want[8] = { 0, 0, 7, 0, 0x34, 0x12, 0, 0 };
	struct casefile *cf = NULL;
	struct finding f = { 0 }, g = { 0 };
	struct ebpf_object *obj = NULL;
	enum finding_save_result res;
	char dir[300], path[512];
	struct diag d;

	diag_clear(&d);
	if (casefile__open_mem(&cf, text, strlen(text), "rodata.case", &d)) {
		CHECK(0, "rodata.case: %s", d.msg);
		return;
	}
	CHECK(run_refused(cf->obj) == 0, "the case's own run reaches the division");
	if (finding__init(&f, FIND_RULE_GAP, "verdict", "verify", &cf->obj->progs[0],
			  cf->obj->maps, cf->obj->map_cnt, NULL, 0, NULL, 0, NULL)) {
		CHECK(0, "finding__init");
		goto out;
	}
	CHECK(f.maps[0].init && f.maps[0].init != cf->obj->maps[0].init &&
	      !memcmp(f.maps[0].init, want, 8), "the finding owns a copy of the contents");
	snprintf(f.text, sizeof(f.text), "planted");
	finding_signature(&f, NULL);
	snprintf(dir, sizeof(dir), "%s/init", root);
	CHECK(!finding__save(&f, dir, NULL, &res, path, sizeof(path)), "save");
	CHECK(!finding__load(&g, path, &d), "load: %s", d.msg);
	CHECK(g.map_cnt == 1 && g.maps[0].init && !memcmp(g.maps[0].init, want, 8) &&
	      (g.maps[0].flags & BPF_F_RDONLY_PROG), "the contents read back");
	CHECK(!finding__object(&obj, &g, NULL, 0, NULL, 0, &d) && obj && obj->maps[0].init &&
	      !memcmp(obj->maps[0].init, want, 8), "the finding's object has them: %s", d.msg);
	if (obj)
		CHECK(run_refused(obj) == 0, "the saved finding's run reaches the division");
	ebpf_object__free(obj);
	/* reduced with a predicate the contents decide (the divisions stay, no run reaches
	 * one): the map and its contents are the finding's */
	{
		struct reduce_prog in = { .insns = g.insns, .len = g.len, .maps = g.maps,
					  .map_cnt = g.map_cnt, .prog_type = g.prog_type },
				   out = { 0 };

		CHECK(!reduce_run(&out, &in, guarded_division, NULL, NULL, NULL, &d) &&
		      out.map_cnt == 1 && out.maps[0].init == g.maps[0].init &&
		      out.maps[0].value_size == 8 && guarded_division(NULL, &out),
		      "reduced: %zu maps, contents %s (%s)", out.map_cnt,
		      out.map_cnt && out.maps[0].init ? "kept" : "lost", d.msg);
		reduce_prog__free(&out);
	}
	finding__free(&g);
	/* a bad init= is an error with the line */
	{
		static char txt[8192];
		char name[700], *at = NULL;
		FILE *fp;
		size_t n = 0;

		snprintf(name, sizeof(name), "%s/finding.txt", path);
		if ((fp = fopen(name, "r"))) {
			n = fread(txt, 1, sizeof(txt) - 1, fp);
			fclose(fp);
		}
		txt[n] = 0;
		if ((at = strstr(txt, " init=")))
			at[6] = 'z';
		if (at && (fp = fopen(name, "w"))) {
			fputs(txt, fp);
			fclose(fp);
		}
		diag_clear(&d);
		CHECK(at && finding__load(&g, path, &d) < 0 && strstr(d.msg, "init="),
		      "a bad init= refused: '%s'", d.msg);
		finding__free(&g);
	}
	finding__free(&f);
out:
	casefile__free(cf);
}

int main(void)
{
	snprintf(root, sizeof(root), "/tmp/bpfscev-test-finding-%ld", (long)getpid());
	mkdir(root, 0755);
	test_round_trip();
	test_cleanup();
	test_delete();
	test_steps();
	test_crash_class();
	test_globals();
	test_map_init();
	test_verdict_signatures();
	reduce_planted(PLANT_TRIP, FIND_TRIP_MAX, 6);
	reduce_planted(PLANT_RANGE, FIND_RANGE, 8);
	reduce_planted(PLANT_IV, FIND_IV, 6);
	if (!check_failures) {
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd)) {
			/* leftovers in /tmp are harmless */
		}
	}
	return check_done("test_finding");
}
