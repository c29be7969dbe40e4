/* The reducer's kernel predicates on the running kernel: for --rejects with --msg, --accepts
 * with --retval, --log, --invariant and --class, a program with the property planted among
 * instructions that do not matter is reduced, and the result is loaded again here (through
 * oracle/kernel.h, not the predicate) to see that it still has the property; the command on a
 * clang-built ELF program with its map, on raw bytes with --jobs 2, and its refusal of an input
 * without the property.  Skips (77) where bpf() is refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf/asm.h"
#include "bpf/prog.h"
#include "casefile/casefile.h"
#include "oracle/kernel/kernel.h"
#include "triage/predicate.h"
#include "triage/reduce.h"
#include "triage/verdict.h"
#include "tests/check.h"

#ifndef BPF_F_TEST_REG_INVARIANTS
#define BPF_F_TEST_REG_INVARIANTS (1U << 7)
#endif

static struct bpf_insn *assemble(const char *src, size_t *len)
{
	struct bpf_insn *insns = NULL;
	struct diag d;

	diag_clear(&d);
	if (ebpf_asm(&insns, len, NULL, src, strlen(src), 1, &d)) {
		CHECK(0, "asm: %s", d.msg);
		return NULL;
	}
	return insns;
}

/* The result loaded again: accepted?, message, log (caller frees), r0 of a test run. */
static int reload(const struct reduce_prog *p, uint32_t flags, bool *accepted, char *msg,
		  size_t n, char **log, long *retval)
{
	struct ebpf_object obj;
	struct ebpf_prog prog;
	struct kernel_prog_opts ko = { .sz = sizeof(ko), .prog_flags = flags };
	struct kernel_prog *kp = NULL;
	struct diag d;
	int err;

	pred_view(&obj, &prog, p);
	diag_clear(&d);
	if ((err = kernel_prog__load(&kp, &obj, &prog, &ko, &d))) {
		CHECK(0, "reload: %s", d.msg);
		return err;
	}
	*accepted = kp->accepted;
	snprintf(msg, n, "%s", kp->message);
	if (log)
		*log = strdup(kp->log);
	*retval = -1;
	if (kp->accepted) {
		struct kernel_run_opts ro = { .sz = sizeof(ro) };
		struct kernel_run_result res;

		if (!kernel_prog__test_run(kp, &ro, &res, &d))
			*retval = res.retval;
	}
	kernel_prog__free(kp);
	return 0;
}

/* Reduces src while the predicates (name, arg pairs, NULL-terminated) hold. */
static int reduce_src(struct reduce_prog *out, struct reduce_stats *st, const char *src,
		      uint32_t type, const char *const *preds, unsigned jobs)
{
	struct pred_set ps = { .o = { .sz = sizeof(ps.o) } };
	struct reduce_prog in = { .prog_type = type };
	struct reduce_run_opts ro = { .sz = sizeof(ro), .jobs = jobs };
	struct diag d;
	int err;

	diag_clear(&d);
	for (; preds[0]; preds += 2)
		if ((err = pred_set__add(&ps, preds[0], preds[1], &d))) {
			CHECK(0, "--%s: %s", preds[0], d.msg);
			pred_set__free(&ps);
			return err;
		}
	in.insns = assemble(src, &in.len);
	if (!in.insns) {
		pred_set__free(&ps);
		return -EINVAL;
	}
	err = reduce_run(out, &in, pred_set__test, &ps, &ro, st, &d);
	if (err && err != -EINVAL)
		CHECK(0, "reduce: %s", d.msg);
	if (!err)
		printf("%s%s: %zu -> %zu instructions, %u tests (%u cached), 1-minimal %s\n",
		       preds == NULL ? "" : "", ps.v[0].kind->name, st->insns_before, st->insns_after,
		       st->tests, st->cached, st->one_minimal ? "proved" : "not proved");
	free(in.insns);
	pred_set__free(&ps);
	return err;
}

static const char junk[] =
	"r6 = 5\nr7 = 7\nr2 = 0\nl: r2 += 1\nr6 += r7\nif r2 < 10 goto l\n"
	"r3 = r10\nr3 += -8\n*(u64 *)(r3 +0) = r6\nr8 = *(u64 *)(r10 -8)\n";

static void test_rejects_msg(void)
{
	static const char *const preds[] = { "rejects", NULL, "msg", "R5 !read_ok", NULL };
	char src[1024], msg[512];
	struct reduce_prog out = { 0 };
	struct reduce_stats st;
	bool acc = true;
	long rv;

	snprintf(src, sizeof(src), "%sif r8 > 100 goto skip\nr0 += r5\nskip: r0 = 0\nexit\n", junk);
	if (reduce_src(&out, &st, src, 0, preds, 1))
		return;
	CHECK(!reload(&out, 0, &acc, msg, sizeof(msg), NULL, &rv) && !acc &&
	      strstr(msg, "R5 !read_ok"), "the result: accepted %d, '%s'", acc, msg);
	CHECK(st.insns_after <= 2 && st.one_minimal, "%zu instructions", st.insns_after);
	reduce_prog__free(&out);
}

static void test_accepts_retval(void)
{
	static const char *const preds[] = { "accepts", NULL, "retval", "42", NULL };
	char src[1024], msg[512];
	struct reduce_prog out = { 0 };
	struct reduce_stats st;
	bool acc = false;
	long rv = -1;

	snprintf(src, sizeof(src), "%sr0 = 6\nr1 = 7\nr0 *= r1\nexit\n", junk);
	if (reduce_src(&out, &st, src, BPF_PROG_TYPE_SOCKET_FILTER, preds, 2))
		return;
	CHECK(!reload(&out, 0, &acc, msg, sizeof(msg), NULL, &rv) && acc && rv == 42,
	      "the result: accepted %d, r0 %ld", acc, rv);
	CHECK(st.insns_after <= 4 && st.one_minimal, "%zu instructions", st.insns_after);
	reduce_prog__free(&out);
}

static void test_log(void)
{
	static const char *const preds[] = { "log", "call bpf_get_prandom_u32", NULL };
	char src[1024], msg[512], *log = NULL;
	struct reduce_prog out = { 0 };
	struct reduce_stats st;
	bool acc = false;
	long rv;

	snprintf(src, sizeof(src), "%scall 7\nr0 = 0\nexit\n", junk);
	if (reduce_src(&out, &st, src, 0, preds, 1))
		return;
	CHECK(!reload(&out, 0, &acc, msg, sizeof(msg), &log, &rv) && log &&
	      strstr(log, "call bpf_get_prandom_u32"), "the result's log lost the call");
	CHECK(st.insns_after <= 2 && st.one_minimal, "%zu instructions", st.insns_after);
	free(log);
	reduce_prog__free(&out);
}

static void test_class(void)
{
	static const char *const preds[] = { "class", "both-reject", NULL };
	char src[1024];
	struct reduce_prog out = { 0 };
	struct reduce_stats st;
	struct verdict_report vr;
	struct verdict_opts vo = { .sz = sizeof(vo), .kernel = true };
	struct ebpf_object obj;
	struct ebpf_prog prog;
	struct diag d;

	snprintf(src, sizeof(src), "%sr0 = *(u64 *)(r10 -64)\nr0 += r4\nexit\n", junk);
	if (reduce_src(&out, &st, src, 0, preds, 1))
		return;
	pred_view(&obj, &prog, &out);
	diag_clear(&d);
	CHECK(!verdict_compare(&vr, &obj, &prog, &vo, &d) && vr.cls == VC_BOTH_REJECT,
	      "the result's class: %s", verdict_class_name(vr.cls));
	verdict_report__free(&vr);
	CHECK(st.one_minimal, "1-minimal");
	reduce_prog__free(&out);
}

/* A global function's prototype is part of the program: the kernel verifies g on its own from
 * it (its pointer argument may be NULL, so reading through it unchecked is refused), so the
 * reducer keeps it, moved to where g starts in each candidate; without it the same
 * instructions load. */
static void test_global_prototype(void)
{
	static const char src[] =
		"r6 = 7\nr7 = 9\nr6 += r7\n*(u64 *)(r10 - 8) = 0\nr1 = r10\nr1 += -8\n"
		"call g\nr0 = 0\nexit\n"
		".global g ptr:8\ng: r2 = 5\nr0 = *(u64 *)(r1 + 0)\nr0 += r2\nexit\n";
	struct pred_set ps = { .o = { .sz = sizeof(ps.o) } };
	struct reduce_prog in = { .prog_type = BPF_PROG_TYPE_XDP }, out = { 0 };
	struct reduce_run_opts ro = { .sz = sizeof(ro) };
	struct reduce_stats st;
	char msg[512];
	bool acc = true;
	long rv;
	struct diag d;

	diag_clear(&d);
	CHECK(!ebpf_asm_globals(&in.insns, &in.len, NULL, &in.globals, &in.nglobals, src,
				strlen(src), 1, &d) && in.nglobals == 1, "asm: %s", d.msg);
	if (!in.insns)
		return;
	CHECK(!pred_set__add(&ps, "rejects", NULL, &d) &&
	      !pred_set__add(&ps, "msg", "mem_or_null", &d), "predicates: %s", d.msg);
	CHECK(!reload(&in, 0, &acc, msg, sizeof(msg), NULL, &rv) && !acc &&
	      strstr(msg, "mem_or_null"), "the input: accepted %d, '%s'", acc, msg);
	{
		struct reduce_prog no_proto = in;

		no_proto.globals = NULL;
		no_proto.nglobals = 0;
		CHECK(!reload(&no_proto, 0, &acc, msg, sizeof(msg), NULL, &rv) && acc,
		      "without its prototype g is static and the program loads: '%s'", msg);
	}
	if (!reduce_run(&out, &in, pred_set__test, &ps, &ro, &st, &d)) {
		const struct ebpf_global_func *g = out.nglobals == 1 ? &out.globals[0] : NULL;

		printf("global prototype: %zu -> %zu instructions, %u tests\n", st.insns_before,
		       st.insns_after, st.tests);
		CHECK(st.insns_after < st.insns_before && st.insns_after <= 7,
		      "%zu instructions", st.insns_after);
		CHECK(g && !strcmp(g->name, "g") && g->nargs == 1 &&
		      g->args[0].kind == EBPF_FARG_PTR && g->args[0].size == 8 && g->insn < out.len,
		      "the result's prototype: %zu globals", out.nglobals);
		if (g) {
			bool called = false;

			for (size_t pc = 0; pc < out.len; pc += ebpf_insn_slots(&out.insns[pc]))
				called |= ebpf_is_pseudo_call(&out.insns[pc]) &&
					  pc + 1 + (size_t)(long)out.insns[pc].imm == g->insn;
			CHECK(called, "the prototype is not at the called function (slot %u)",
			      g->insn);
		}
		CHECK(!reload(&out, 0, &acc, msg, sizeof(msg), NULL, &rv) && !acc &&
		      strstr(msg, "mem_or_null"), "the result: accepted %d, '%s'", acc, msg);
	} else {
		CHECK(0, "reduce: %s", d.msg);
	}
	reduce_prog__free(&out);
	free(in.insns);
	free(in.globals);
	pred_set__free(&ps);
}

/* The saved kernel finding: still shown by this kernel?  Then it must survive reduction. */
static void test_invariant(void)
{
	static const char *const preds[] = { "invariant", NULL, NULL };
	struct ebpf_object *obj = NULL;
	struct reduce_prog out = { 0 }, in;
	struct reduce_stats st;
	struct pred_set ps = { .o = { .sz = sizeof(ps.o) } };
	/* deletions only (a candidate whose loop the verifier walks to its limit costs a second) */
	struct reduce_run_opts ro = { .sz = sizeof(ro), .jobs = 2,
				      .skip = 1u << RP_CONSTS | 1u << RP_REGS };
	char path[4096], msg[512], *log = NULL;
	struct diag d;
	bool acc = true;
	long rv;

	snprintf(path, sizeof(path), "%s/docs/kernel-findings/reg-invariants-true-reg1.s",
		 check_source_dir());
	diag_clear(&d);
	if (casefile__open_object(&obj, path, &d)) {
		CHECK(0, "%s: %s", path, d.msg);
		return;
	}
	CHECK(!pred_set__add(&ps, preds[0], NULL, &d), "--invariant");
	in = (struct reduce_prog){ .insns = obj->progs[0].insns, .len = obj->progs[0].len,
				   .prog_type = obj->progs[0].prog_type };
	if (pred_set__test(&ps, &in) != 1) {
		check_skip_part("--invariant: this kernel no longer shows %s (fixed?)", path);
	} else {
		diag_clear(&d);
		CHECK(!reduce_run(&out, &in, pred_set__test, &ps, &ro, &st, &d), "reduce: %s",
		      d.msg);
		CHECK(!reload(&out, BPF_F_TEST_REG_INVARIANTS, &acc, msg, sizeof(msg), &log, &rv) &&
		      !acc && log && strstr(log, "INVARIANTS VIOLATION"),
		      "the result does not show the violation: %s", msg);
		printf("invariant: %zu -> %zu instructions, %u tests, 1-minimal %s\n",
		       st.insns_before, st.insns_after, st.tests, st.one_minimal ? "proved" : "no");
		CHECK(st.insns_after <= st.insns_before && st.one_minimal, "1-minimal");
		free(log);
		reduce_prog__free(&out);
	}
	pred_set__free(&ps);
	ebpf_object__free(obj);
}

/* ---- the command ---- */

static int run(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_cli(const char *bin)
{
	const char *bpf_dir = getenv("BPFSCEV_TEST_BPF_DIR");
	char dir[] = "/tmp/bpfscev-reduce-k.XXXXXX", cmd[8192], path[4200], out[4200];
	struct ebpf_object *obj = NULL;
	struct diag d;
	FILE *f;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	/* raw bytes in, --jobs 2, --emit raw out */
	snprintf(path, sizeof(path), "%s/prog.s", dir);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%sif r8 > 100 goto skip\nr0 += r5\nskip: r0 = 0\nexit\n", junk);
		fclose(f);
	}
	snprintf(cmd, sizeof(cmd), "'%s' asm '%s' -o '%s/prog.bin' && '%s' reduce '%s/prog.bin' "
		 "--rejects --msg 'R5 !read_ok' --jobs 2 --emit raw -o '%s/out.bin' --quiet "
		 ">'%s/log' 2>&1", bin, path, dir, bin, dir, dir, dir);
	CHECK(run(cmd) == 0, "raw input: %s", cmd);
	snprintf(out, sizeof(out), "%s/out.bin", dir);
	diag_clear(&d);
	CHECK(!casefile__open_object(&obj, out, &d) && obj->progs[0].len <= 2,
	      "raw output: %s", d.msg);
	ebpf_object__free(obj);
	obj = NULL;
	snprintf(cmd, sizeof(cmd), "grep -q '1-minimal: proved' '%s/log'", dir);
	CHECK(run(cmd) == 0, "the command does not say it proved 1-minimality");
	/* an input without the property: exit 2 and why */
	snprintf(cmd, sizeof(cmd), "'%s' reduce '%s' --accepts -o '%s/x.s' --quiet >'%s/log' 2>&1",
		 bin, path, dir, dir);
	CHECK(run(cmd) == 2, "accepts on a rejected program: exit 2");
	snprintf(cmd, sizeof(cmd), "grep -q 'do not hold for the input (the kernel rejects it' "
		 "'%s/log'", dir);
	CHECK(run(cmd) == 0, "no clear error for a predicate that does not hold");
	/* an ELF program with its map: the map shrinks and stays */
	if (!bpf_dir) {
		check_skip_part("ELF input: no clang-built test objects (BPFSCEV_TEST_BPF_DIR)");
	} else {
		snprintf(cmd, sizeof(cmd), "'%s' reduce '%s/map_rodata.o' --prog map_rodata "
			 "--accepts --log 'call bpf_map_lookup_elem' -o '%s/elf.s' --quiet "
			 ">'%s/log' 2>&1", bin, bpf_dir, dir, dir);
		CHECK(run(cmd) == 0, "ELF input: %s", cmd);
		snprintf(out, sizeof(out), "%s/elf.s", dir);
		diag_clear(&d);
		CHECK(!casefile__open_object(&obj, out, &d), "ELF result: %s", d.msg);
		CHECK(obj && obj->map_cnt == 1 && obj->maps[0].max_entries == 1 &&
		      obj->progs[0].len <= 8, "ELF result: %zu maps, %u entries, %zu slots",
		      obj ? obj->map_cnt : 0, obj && obj->map_cnt ? obj->maps[0].max_entries : 0,
		      obj ? obj->progs[0].len : 0);
		ebpf_object__free(obj);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	run(cmd);
}

int main(void)
{
	const char *bin = getenv("BPFSCEV_BIN");
	char why[256];

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!kernel_available(why, sizeof(why)))
		return check_skip("test_reduce_kernel", "%s", why);
	test_rejects_msg();
	test_accepts_retval();
	test_log();
	test_class();
	test_global_prototype();
	test_invariant();
	if (bin)
		test_cli(bin);
	else
		check_skip_part("the command: BPFSCEV_BIN not set");
	return check_done("test_reduce_kernel");
}
