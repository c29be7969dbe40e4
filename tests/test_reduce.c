/* The reducer (triage/reduce.h) and the predicates that need no kernel (triage/predicate.h):
 * each pass on a program made for it, the fixpoint and the 1-minimality proof checked
 * independently (every single-instruction removal of the result re-tested here), parallel
 * tests giving the same result as serial ones, the cache, a per-test timeout, the budget; and
 * for the predicates --trap, --refuted and --test, a planted property that the reduction must
 * keep (checked on the result by an independent run, not by the predicate), with a clear
 * refusal when the input does not have it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf/asm.h"
#include "bpf/prog.h"
#include "oracle/exec/interp.h"
#include "triage/predicate.h"
#include "triage/reduce.h"
#include "tests/check.h"

static struct bpf_insn *assemble(const char *src, size_t *len)
{
	struct bpf_insn *insns = NULL;
	struct diag d;

	diag_clear(&d);
	if (ebpf_asm(&insns, len, NULL, src, strlen(src), 1, &d)) {
		CHECK(0, "asm: %s", d.msg);
		return NULL;
	}
	CHECK(!ebpf_validate(insns, *len, NULL), "the test program is not valid");
	return insns;
}

static bool has_insn(const struct reduce_prog *p, uint8_t code, uint8_t dst, int32_t imm)
{
	for (size_t pc = 0; pc < p->len; pc += ebpf_insn_slots(&p->insns[pc]))
		if (p->insns[pc].code == code && p->insns[pc].dst_reg == dst &&
		    p->insns[pc].imm == imm)
			return true;
	return false;
}

/* Every single-instruction removal of p, re-tested here: none may keep the property. */
static void check_one_minimal(const struct reduce_prog *p, reduce_test_fn test, void *arg,
			      const char *what)
{
	struct bpf_insn *cand = calloc(p->len + 1, sizeof(*cand));
	bool *keep = malloc(p->len);
	unsigned tried = 0;

	for (size_t pc = 0; cand && keep && pc < p->len; pc += ebpf_insn_slots(&p->insns[pc])) {
		struct reduce_prog c = *p;
		size_t n;

		memset(keep, 1, p->len);
		keep[pc] = false;
		n = oracle_reduce_delete(cand, p->insns, p->len, keep);
		if (!n || n >= p->len)
			continue;
		c.insns = cand;
		c.len = n;
		tried++;
		CHECK(test(arg, &c) != 1, "%s: removing instruction %zu keeps the property: the "
		      "result is not 1-minimal", what, pc);
	}
	printf("%s: %u single removals re-tested, none keeps it\n", what, tried);
	free(cand);
	free(keep);
}

/* ---- passes, with a static property ---- */

static unsigned calls;

/* Interesting: the main function (up to its first exit) still holds "r7 += 100". */
static int main_adds(void *arg, const struct reduce_prog *p)
{
	(void)arg;
	calls++;
	for (size_t pc = 0; pc < p->len; pc += ebpf_insn_slots(&p->insns[pc])) {
		if (ebpf_is_exit(&p->insns[pc]))
			break;
		if (p->insns[pc].code == (BPF_ALU64 | BPF_ADD | BPF_K) && p->insns[pc].dst_reg == 7 &&
		    p->insns[pc].imm == 100)
			return 1;
	}
	return 0;
}

static void test_passes(void)
{
	static const char *src =
		"r6 = 1\n"
		"call sub\n"			/* a subprogram */
		"r2 = 0\n"
		"l: r2 += 1\n"			/* a loop */
		"if r2 < 50 goto l\n"
		"if r6 > 3 goto skip\n"	/* a branch */
		"r8 = 0x123456789 ll\n"
		"skip: r7 += 100\n"
		"call 7\n"			/* a helper */
		"r0 = r7\n"
		"exit\n"
		"sub: r0 = 5\n"
		"r0 *= 3\n"
		"exit\n";
	struct reduce_prog in = { 0 }, out = { 0 };
	struct reduce_run_opts ro = { .sz = sizeof(ro) };
	struct reduce_stats st;
	struct diag d;

	in.insns = assemble(src, &in.len);
	if (!in.insns)
		return;
	calls = 0;
	diag_clear(&d);
	CHECK(!reduce_run(&out, &in, main_adds, NULL, &ro, &st, &d), "reduce: %s", d.msg);
	CHECK(out.len == 2 && has_insn(&out, BPF_ALU64 | BPF_ADD | BPF_K, 7, 100) &&
	      ebpf_is_exit(&out.insns[1]), "want 'r7 += 100; exit', got %zu slots", out.len);
	CHECK(st.fixpoint && st.one_minimal && !st.budget_hit, "fixpoint %d, 1-minimal %d",
	      st.fixpoint, st.one_minimal);
	CHECK_EQ_U64(st.tests, calls, "tests counted");
	CHECK(st.by_pass[RP_SUBPROGS] == 1, "the subprogram went whole (%u)",
	      st.by_pass[RP_SUBPROGS]);
	CHECK(st.by_pass[RP_LOOPS] >= 1, "the loop went whole (%u)", st.by_pass[RP_LOOPS]);
	CHECK(st.by_pass[RP_BRANCHES] >= 1, "a branch went whole (%u)", st.by_pass[RP_BRANCHES]);
	check_one_minimal(&out, main_adds, NULL, "passes");
	printf("passes: %zu -> %zu instructions in %u tests (%u cached), %u rounds; kept by pass:",
	       st.insns_before, st.insns_after, st.tests, st.cached, st.rounds);
	for (int p = 0; p < RP_NR; p++)
		printf(" %s %u", reduce_pass_name((enum reduce_pass_id)p), st.by_pass[p]);
	printf("\n");
	reduce_prog__free(&out);
	free(in.insns);
}

/* Interesting: a call of helper 1 remains (its result is not needed). */
static int calls_lookup(void *arg, const struct reduce_prog *p)
{
	(void)arg;
	return has_insn(p, BPF_JMP | BPF_CALL, 0, 1);
}

/* Interesting: some LD_IMM64 still names a map. */
static int uses_map(void *arg, const struct reduce_prog *p)
{
	(void)arg;
	for (size_t pc = 0; pc < p->len; pc += ebpf_insn_slots(&p->insns[pc]))
		if (ebpf_is_ldimm64(&p->insns[pc]) && p->insns[pc].src_reg == BPF_PSEUDO_MAP_FD)
			return (size_t)p->insns[pc].imm < p->map_cnt;
	return 0;
}

static void test_maps_helpers_type(void)
{
	static const char *src =
		"r1 = map[fd:1] ll\n"
		"r2 = r10\n"
		"r2 += -8\n"
		"call 1\n"			/* map_lookup_elem: kept */
		"call 7\n"			/* prandom: its result is r0 = 0 now */
		"r0 = 0\n"
		"exit\n";
	struct ebpf_map_def maps[2] = {
		{ .name = "unused", .type = BPF_MAP_TYPE_HASH, .key_size = 8, .value_size = 64,
		  .max_entries = 100 },
		{ .name = "counts", .type = BPF_MAP_TYPE_HASH, .key_size = 8, .value_size = 64,
		  .max_entries = 100 },
	};
	struct reduce_prog in = { .maps = maps, .map_cnt = 2, .prog_type = BPF_PROG_TYPE_SCHED_CLS },
			   out = { 0 };
	struct reduce_run_opts ro = { .sz = sizeof(ro) };
	struct reduce_stats st;
	struct diag d;

	in.insns = assemble(src, &in.len);
	if (!in.insns)
		return;
	diag_clear(&d);
	CHECK(!reduce_run(&out, &in, uses_map, NULL, &ro, &st, &d), "reduce: %s", d.msg);
	CHECK(out.map_cnt == 1 && out.maps[0].type == BPF_MAP_TYPE_ARRAY &&
	      out.maps[0].max_entries == 1 && out.maps[0].key_size == 4 &&
	      out.maps[0].value_size == 1 && !strcmp(out.maps[0].name, "counts"),
	      "maps: %zu, first %s type %u entries %u key %u value %u", out.map_cnt,
	      out.map_cnt ? out.maps[0].name : "-", out.map_cnt ? out.maps[0].type : 0,
	      out.map_cnt ? out.maps[0].max_entries : 0, out.map_cnt ? out.maps[0].key_size : 0,
	      out.map_cnt ? out.maps[0].value_size : 0);
	CHECK(out.len == 3 && ebpf_is_ldimm64(&out.insns[0]) && out.insns[0].imm == 0,
	      "want the map load re-numbered and an exit, got %zu slots", out.len);
	CHECK(out.prog_type == BPF_PROG_TYPE_SOCKET_FILTER, "type %u", out.prog_type);
	CHECK(st.one_minimal, "1-minimal");
	reduce_prog__free(&out);
	/* a helper call becomes a constant where its result is all that mattered: here the
	 * call must stay in place (slot 3) as something that is not a call */
	ro.skip = 1u << RP_CHUNKS | 1u << RP_SINGLE | 1u << RP_DEAD | 1u << RP_REGS |
		  1u << RP_CONSTS;
	CHECK(!reduce_run(&out, &in, calls_lookup, NULL, &ro, &st, &d), "reduce: %s", d.msg);
	CHECK(out.len == in.len && out.insns[5].code == (BPF_ALU64 | BPF_MOV | BPF_K) &&
	      out.insns[5].dst_reg == 0 && st.by_pass[RP_HELPERS] == 1,
	      "call 7 replaced by r0 = 0: %u steps of the helper pass", st.by_pass[RP_HELPERS]);
	CHECK(has_insn(&out, BPF_JMP | BPF_CALL, 0, 1), "call 1 kept");
	reduce_prog__free(&out);
	free(in.insns);
}

/* ---- parallel tests, cache, timeout, budget ---- */

/* main_adds, but a candidate without "r6 = 1" as its first instruction never answers. */
static int hangs_sometimes(void *arg, const struct reduce_prog *p)
{
	(void)arg;
	if (!(p->insns[0].code == (BPF_ALU64 | BPF_MOV | BPF_K) && p->insns[0].dst_reg == 6))
		for (;;)
			pause();
	return main_adds(arg, p);
}

static void test_jobs(void)
{
	static const char *src =
		"r6 = 1\nr1 = 2\nr2 = 3\nr3 = r1\nr3 += r2\nr7 = 0\nr7 += 100\nr4 = 9\n"
		"if r4 > 2 goto +1\nr5 = 1\nr0 = 0\nexit\n";
	struct reduce_prog in = { 0 }, a = { 0 }, b = { 0 }, c = { 0 };
	struct reduce_run_opts ro = { .sz = sizeof(ro) };
	struct reduce_stats sa, sb, sc, sd;
	struct diag d;

	in.insns = assemble(src, &in.len);
	if (!in.insns)
		return;
	diag_clear(&d);
	CHECK(!reduce_run(&a, &in, main_adds, NULL, &ro, &sa, &d), "serial: %s", d.msg);
	ro.jobs = 2;
	CHECK(!reduce_run(&b, &in, main_adds, NULL, &ro, &sb, &d), "jobs 2: %s", d.msg);
	CHECK(a.len == b.len && !memcmp(a.insns, b.insns, a.len * sizeof(*a.insns)),
	      "--jobs 2 gives another result (%zu vs %zu slots)", a.len, b.len);
	CHECK(sa.one_minimal && sb.one_minimal, "1-minimal both ways");
	CHECK(sa.cached > 0, "the cache answered nothing");
	/* without the cache, the same result with more tests */
	ro.jobs = 1;
	ro.no_cache = true;
	CHECK(!reduce_run(&c, &in, main_adds, NULL, &ro, &sc, &d), "no cache: %s", d.msg);
	CHECK(c.len == a.len && sc.cached == 0 && sc.tests > sa.tests,
	      "no cache: %zu slots, %u tests vs %u", c.len, sc.tests, sa.tests);
	printf("jobs: serial %u tests (%u cached), jobs 2 %u tests, no cache %u tests\n", sa.tests,
	       sa.cached, sb.tests, sc.tests);
	reduce_prog__free(&b);
	reduce_prog__free(&c);
	/* a test that never answers is killed at the timeout and counts as not interesting */
	ro.no_cache = false;
	ro.timeout = 0.2;
	ro.jobs = 2;
	ro.skip = ~(1u << RP_CHUNKS);	/* the first chunk holds r6 = 1: it hangs */
	ro.max_tests = 8;
	CHECK(!reduce_run(&b, &in, hangs_sometimes, NULL, &ro, &sd, &d), "timeout: %s", d.msg);
	CHECK(sd.timeouts > 0 && sd.errors >= sd.timeouts, "timeouts %u", sd.timeouts);
	CHECK(!sd.one_minimal, "a round with timeouts proves nothing");
	CHECK(b.insns && b.insns[0].dst_reg == 6 && main_adds(NULL, &b),
	      "the result keeps the property");
	reduce_prog__free(&b);
	/* the budget stops it: the result still holds, and nothing is claimed */
	memset(&ro, 0, sizeof(ro));
	ro.sz = sizeof(ro);
	ro.max_tests = 3;
	CHECK(!reduce_run(&b, &in, main_adds, NULL, &ro, &sd, &d), "budget: %s", d.msg);
	CHECK(sd.budget_hit && !sd.one_minimal && sd.tests <= 3 && main_adds(NULL, &b),
	      "budget: hit %d, tests %u", sd.budget_hit, sd.tests);
	reduce_prog__free(&b);
	/* an input without the property is refused, saying so */
	a.insns[0].imm = 99;
	CHECK(reduce_run(&b, &a, main_adds, NULL, NULL, &sd, &d) == -EINVAL &&
	      strstr(d.msg, "does not have"), "a program without it: %s", d.msg);
	free(in.insns);
	reduce_prog__free(&a);
}

/* ---- the predicates without a kernel ---- */

static int interp_trap(const struct reduce_prog *p, enum interp_trap *trap)
{
	struct ebpf_object obj;
	struct ebpf_prog prog;
	struct interp_code *code = NULL;
	uint8_t input[64] = { 0 };
	struct interp_env env = { .ctx_kind = INTERP_CTX_PLAIN, .input = input,
				  .input_len = sizeof(input), .step_budget = 1000000 };
	struct interp_result res;
	struct diag d;
	int err;

	pred_view(&obj, &prog, p);
	diag_clear(&d);
	if ((err = interp_prepare(&code, &prog, &d)))
		return err;
	err = interp_run(code, &env, &res);
	interp_code__free(code);
	*trap = res.trap;
	return err;
}

static void test_trap(void)
{
	static const char *src =
		"r6 = r1\nr2 = 0\nl: r2 += 1\nif r2 < 20 goto l\nr3 = 7\nr3 *= r2\n"
		"r0 = *(u8 *)(r6 +1000)\n"	/* outside the 64-byte input: a memory trap */
		"r0 += r3\nexit\n";
	struct pred_set ps = { .o = { .sz = sizeof(ps.o) } };
	struct reduce_prog in = { 0 }, out = { 0 };
	struct reduce_run_opts ro = { .sz = sizeof(ro) };
	struct reduce_stats st;
	enum interp_trap trap = INTERP_OK;
	struct diag d;

	in.insns = assemble(src, &in.len);
	diag_clear(&d);
	CHECK(!pred_set__add(&ps, "trap", "mem", &d), "--trap mem: %s", d.msg);
	CHECK(pred_set__add(&ps, "trap", "sometimes", &d) == -EINVAL && strstr(d.msg, "sometimes"),
	      "a bad trap kind is refused: %s", d.msg);
	if (!in.insns)
		return;
	CHECK(!reduce_run(&out, &in, pred_set__test, &ps, &ro, &st, &d), "reduce: %s", d.msg);
	CHECK(!interp_trap(&out, &trap) && trap == INTERP_TRAP_MEM, "the result does not trap "
	      "(%d)", trap);
	CHECK(out.len <= 2 && st.one_minimal, "--trap mem: %zu slots", out.len);
	check_one_minimal(&out, pred_set__test, &ps, "trap");
	reduce_prog__free(&out);
	free(in.insns);
	pred_set__free(&ps);
}

/* The analyzer's trip-count maximum made one too small: a planted analyzer bug. */
static void plant_trip(void *arg, struct claim_prog *cp)
{
	(void)arg;
	for (uint32_t l = 0; l < cp->nloops; l++) {
		struct claim_trip *t = &cp->loops[l].trip;

		if (t->kind != TRIP_UNKNOWN && t->max > 0) {
			t->kind = TRIP_BOUNDED;
			t->max--;
			t->min = 0;
		}
	}
}

static void test_refuted(void)
{
	static const char *src =
		"r6 = 3\nr7 = r6\nr7 *= 5\nr2 = 0\nl: r2 += 1\nr6 += 2\nif r2 < 12 goto l\n"
		"r0 = r6\nr0 += r7\nexit\n";
	struct pred_set ps = { .o = { .sz = sizeof(ps.o), .mutate = plant_trip, .runs = 2 } };
	struct reduce_prog in = { 0 }, out = { 0 };
	struct reduce_run_opts ro = { .sz = sizeof(ro) };
	struct reduce_stats st;
	bool loop = false;
	struct diag d;

	in.insns = assemble(src, &in.len);
	diag_clear(&d);
	CHECK(!pred_set__add(&ps, "refuted", "trip-max", &d), "--refuted: %s", d.msg);
	if (!in.insns)
		return;
	CHECK(pred_set__test(&ps, &in) == 1, "the planted bug shows on the input");
	/* without the plant, the analyzer is right: nothing to reduce */
	ps.o.mutate = NULL;
	CHECK(reduce_run(&out, &in, pred_set__test, &ps, &ro, &st, &d) == -EINVAL,
	      "a sound analyzer's program is refused");
	ps.o.mutate = plant_trip;
	CHECK(!reduce_run(&out, &in, pred_set__test, &ps, &ro, &st, &d), "reduce: %s", d.msg);
	for (size_t pc = 0; pc < out.len; pc += ebpf_insn_slots(&out.insns[pc]))
		if ((ebpf_is_cond_jmp(&out.insns[pc]) || ebpf_is_ja(&out.insns[pc])) &&
		    ebpf_jump_target(&out.insns[pc], pc) <= (long)pc)
			loop = true;
	CHECK(loop && pred_set__test(&ps, &out) == 1, "the result has no loop whose trip claim "
	      "is refuted");
	CHECK(out.len < in.len && st.one_minimal, "--refuted: %zu of %zu slots", out.len, in.len);
	printf("refuted: %zu -> %zu slots in %u tests\n", in.len, out.len, st.tests);
	reduce_prog__free(&out);
	free(in.insns);
	pred_set__free(&ps);
}

static void test_external(void)
{
	static const char *src = "r1 = 5\nr9 = 4\nr2 = r1\nr9 *= 3\nr0 = r9\nr0 += r2\nexit\n";
	struct pred_set ps = { .o = { .sz = sizeof(ps.o) } };
	struct reduce_prog in = { 0 }, out = { 0 };
	struct reduce_run_opts ro = { .sz = sizeof(ro), .jobs = 2 };
	struct reduce_stats st;
	struct diag d;

	in.insns = assemble(src, &in.len);
	diag_clear(&d);
	/* the candidate's path is the last word; a text file in the verifier-log syntax */
	CHECK(!pred_set__add(&ps, "test", "grep -q '^r9 \\*= 3$'", &d), "--test: %s", d.msg);
	CHECK(pred_set__add(&ps, "test", NULL, &d) == -EINVAL, "--test needs a command");
	if (!in.insns)
		return;
	CHECK(!reduce_run(&out, &in, pred_set__test, &ps, &ro, &st, &d), "reduce: %s", d.msg);
	CHECK(out.len == 2 && has_insn(&out, BPF_ALU64 | BPF_MUL | BPF_K, 9, 3),
	      "want 'r9 *= 3; exit', got %zu slots", out.len);
	CHECK(st.one_minimal, "1-minimal");
	reduce_prog__free(&out);
	pred_set__free(&ps);
	/* a command that fails on the input: refused */
	memset(&ps, 0, sizeof(ps));
	ps.o.sz = sizeof(ps.o);
	CHECK(!pred_set__add(&ps, "test", "false", &d), "--test false");
	CHECK(reduce_run(&out, &in, pred_set__test, &ps, &ro, &st, &d) == -EINVAL &&
	      strstr(d.msg, "does not have"), "refused: %s", d.msg);
	pred_set__free(&ps);
	free(in.insns);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_passes();
	test_maps_helpers_type();
	test_jobs();
	test_trap();
	test_refuted();
	test_external();
	return check_done("test_reduce");
}
