/* The kernel verifier's log as claims (oracle/kernel/klog.c) and the kernel differential (kdiff.c).
 *
 *  - forms: hand-written log lines in every form the shared prior-art notes list (section 2 of
 *    ../shared/PRIOR-ART.md, outside this repository; and those of 6.10-6.17), against the
 *    values they must parse to;
 *  - fixtures: logs captured from Linux 6.18 (tests/data/klog/NAME.klog: the program, its type and
 *    maps, expected joins and claims at a few instructions, the log) parse without a warning,
 *    give the expected values, and every claim holds on 48 interpreter runs; the earlier
 *    captured logs of tests/data/verifier_log_*.txt parse too;
 *  - pruning: on a captured log with a pruned path, the plain union of the logged states is
 *    refuted by a run while the claims klog_claims() keeps hold — why it keeps what it keeps;
 *  - kernel (skipped with one line where bpf() is refused): logs of many more programs taken
 *    now — generated loop programs, the tests/bpf objects, the accepted ebpf-samples programs —
 *    parse without warnings and their claims hold (a refutation would be a kernel finding: it is
 *    printed with its input), generated programs' r0 and packets agree with the kernel, and the
 *    differential finds, saves and reduces a known difference.
 * BPFSCEV_KLOG_DUMP=FILE.klog prints every join and claim of one fixture (to write expectations).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf/asm.h"
#include "bpf/prog.h"
#include "casefile/casefile.h"
#include "generators/gen.h"
#include "oracle/exec/check.h"
#include "oracle/kernel/kdiff.h"
#include "triage/kfinding.h"
#include "oracle/kernel/kernel.h"
#include "oracle/kernel/klog.h"
#include "tests/check.h"

/* ---- helpers ---- */

static struct ebpf_object *asm_object(const char *text, uint32_t type)
{
	struct ebpf_object *obj = NULL;
	struct diag d;

	diag_clear(&d);
	if (ebpf_object__open_mem(&obj, text, strlen(text), "prog", &d)) {
		CHECK(0, "assembling: %s", d.msg);
		return NULL;
	}
	obj->progs[0].prog_type = type;
	return obj;
}

static struct klog *parse(const char *log, const struct ebpf_object *obj)
{
	struct klog *k = NULL;
	struct diag d;

	diag_clear(&d);
	CHECK(!klog_parse(&k, log, strlen(log), &obj->progs[0], obj, &d), "klog_parse: %s", d.msg);
	return k;
}

static void fmt_val(char *buf, size_t n, const struct klog_val *v)
{
	klog_val_format(buf, n, v);
}

static void fmt_claim(char *buf, size_t n, const struct claim_range *c)
{
	struct klog_val v = { .kind = c->is_ptr ? KLOG_PTR : KLOG_SCALAR, .region = c->region,
			      .maybe_null = c->maybe_null, .map = c->map, .r = c->r };

	klog_val_format(buf, n, &v);
}

static const struct claim_range *find_claim(const struct claim_prog *cp, uint32_t pc, loc_t loc)
{
	for (uint32_t i = 0; i < cp->nranges; i++)
		if (cp->ranges[i].pc == pc && cp->ranges[i].loc == loc)
			return &cp->ranges[i];
	return NULL;
}

static void expect_val(const struct klog *k, uint32_t pc, int reg, const char *want, int line)
{
	char got[400];

	if (!k || pc >= k->npcs) {
		CHECK(0, "line %d: no instruction %u", line, pc);
		return;
	}
	fmt_val(got, sizeof(got), &k->pcs[pc].regs[reg]);
	CHECK(!strcmp(got, want), "line %d: pc %u r%d: got '%s', expected '%s'", line, pc, reg,
	      got, want);
}
#define EXPECT(k, pc, reg, want) expect_val(k, pc, reg, want, __LINE__)

static enum interp_ctx_kind ctx_of(uint32_t prog_type)
{
	/* asm programs without a type load as socket filters (oracle/kernel/kernel.c) */
	return check_ctx_kind(prog_type ? prog_type : BPF_PROG_TYPE_SOCKET_FILTER);
}

/* Every claim on 48 runs; findings are printed (a kernel finding or a bug here). */
static uint32_t check_claims(const struct ebpf_object *obj, const struct ebpf_prog *prog,
			     const struct claim_prog *cp, const char *what)
{
	struct check_opts co = { .sz = sizeof(co), .seed = 1, .runs = 48,
				 .ctx_kind = (int)ctx_of(prog->prog_type) + 1 };
	struct check_result res;
	uint32_t n;

	if (oracle_check(&res, obj, prog, cp, &co)) {
		CHECK(0, "%s: oracle_check failed", what);
		return 0;
	}
	for (uint32_t i = 0; i < res.nfindings; i++)
		CHECK(0, "%s: kernel claim refuted (a kernel finding or a klog bug): %s", what,
		      res.findings[i].text);
	n = res.nfindings;
	check_result__free(&res);
	return n;
}

/* ---- forms ---- */

static void forms(void)
{
	/* six instructions; the log below is hand-written in the kernel's spellings */
	static const char prog[] =
		"r1 = 0\n"
		"r2 = 0\n"
		"r3 = 0\n"
		"r4 = 0\n"
		"r5 = 0\n"
		"exit\n";
	static const char log[] =
		"func#0 @0\n"
		"0: R1=ctx() R10=fp0\n"
		"0: (b7) r1 = 0                        ; R1_w=P4 R2=0x10000 R3=-3 R4=0xfffffffffffffff0\n"
		/* joined names, defaults omitted, hex bounds */
		"1: (b7) r2 = 0                        ; R2=scalar(id=3,smin=umin=smin32=umin32=4,"
		"smax=umax=smax32=umax32=259,var_off=(0x0; 0x1ff))\n"
		/* negative joined only with signed names, 32-bit hex stored zero-extended */
		"2: (b7) r3 = 0                        ; R3=scalar(smin=smin32=-5,smax=smax32=7,"
		"umin32=0x80000000)\n"
		/* pointers: stack constant, stack variable, packet, packet end, map value, null */
		"3: (b7) r4 = 0                        ; R1=fp-16 R2=pkt(id=2,off=14,r=14,smin=smin32=0,"
		"smax=umax=smax32=umax32=255,var_off=(0x0; 0xff)) R3=pkt_end() R4=map_value_or_null(id=1,map=m,ks=4,vs=8,off=4) "
		"R5=fp(off=-64,smin=smin32=0,smax=umax=smax32=umax32=63,var_off=(0x0; 0x3f))\n"
		/* another frame's stack, unnamed types, an unknown token */
		"4: (b7) r5 = 0                        ; R1=fp[1]-8 R2=sock(ref_obj_id=2) "
		"R3=scalar(wibble=3) R4=ctx(off=8) R5=map_value(map=m,ks=4,vs=8,imm=16) "
		"fp-8=00000000 fp-16=mmmmmmmm fp-24_w=P7 fp-32=????0 fp-40=ctx()\n"
		"5: (95) exit\n"
		"processed 6 insns (limit 1000000) max_states_per_insn 0 total_states 0 "
		"peak_states 0 mark_read 0\n";
	struct ebpf_object *obj = asm_object(prog, BPF_PROG_TYPE_XDP);
	struct klog *k;
	char got[400];

	if (!obj)
		return;
	obj->maps = calloc(1, sizeof(*obj->maps));
	obj->map_cnt = 1;
	snprintf(obj->maps[0].name, sizeof(obj->maps[0].name), "m");
	obj->maps[0].type = 2;
	obj->maps[0].key_size = 4;
	obj->maps[0].value_size = 8;
	obj->maps[0].max_entries = 1;
	k = parse(log, obj);
	if (!k)
		goto out;
	CHECK(k->complete && k->processed == 6, "statistics line: complete %d processed %ld",
	      k->complete, k->processed);
	CHECK(k->insn_lines == 6, "insn lines %u", k->insn_lines);
	EXPECT(k, 0, 1, "ctx pointer, offset u[0, 0] s[0, 0] u32[0, 0] s32[0, 0] var_off (0; 0)");
	/* "P4" with the 6.10-6.17 suffix: precise constant 4 */
	EXPECT(k, 1, 1, "scalar u[4, 4] s[4, 4] u32[4, 4] s32[4, 4] var_off (0x4; 0)");
	EXPECT(k, 1, 2, "scalar u[65536, 65536] s[65536, 65536] u32[65536, 65536] s32[65536, 65536] "
			"var_off (0x10000; 0)");
	EXPECT(k, 1, 3, "scalar u[18446744073709551613, 18446744073709551613] s[-3, -3] "
			"u32[4294967293, 4294967293] s32[-3, -3] var_off (0xfffffffffffffffd; 0)");
	EXPECT(k, 1, 4, "scalar u[18446744073709551600, 18446744073709551600] s[-16, -16] "
			"u32[4294967280, 4294967280] s32[-16, -16] var_off (0xfffffffffffffff0; 0)");
	EXPECT(k, 2, 2, "scalar u[4, 259] s[4, 259] u32[4, 259] s32[4, 259] var_off (0; 0x1ff)");
	EXPECT(k, 3, 3, "scalar u[0, 18446744073709551615] s[-5, 7] u32[2147483648, 4294967295] "
			"s32[-5, 7] var_off (0; 0xffffffffffffffff)");
	EXPECT(k, 4, 1, "stack pointer, offset u[18446744073709551600, 18446744073709551600] "
			"s[-16, -16] u32[4294967280, 4294967280] s32[-16, -16] "
			"var_off (0xfffffffffffffff0; 0)");
	EXPECT(k, 4, 2, "packet pointer, offset u[14, 269] s[14, 269] u32[14, 269] s32[14, 269] "
			"var_off (0; 0x1ff)");
	EXPECT(k, 4, 3, "packet_end pointer, offset u[0, 0] s[0, 0] u32[0, 0] s32[0, 0] var_off (0; 0)");
	EXPECT(k, 4, 4, "map 0 value maybe-null pointer, offset u[4, 4] s[4, 4] u32[4, 4] s32[4, 4] "
			"var_off (0x4; 0)");
	EXPECT(k, 4, 5, "stack pointer, offset u[18446744073709551552, 18446744073709551615] "
			"s[-64, -1] u32[4294967232, 4294967295] s32[-64, -1] "
			"var_off (0xffffffffffffffc0; 0x3f)");
	EXPECT(k, 5, 1, "top");		/* fp[1]-8: another frame */
	EXPECT(k, 5, 2, "top");		/* a socket */
	EXPECT(k, 5, 3, "top");		/* not understood */
	EXPECT(k, 5, 4, "ctx pointer, offset u[8, 8] s[8, 8] u32[8, 8] s32[8, 8] var_off (0x8; 0)");
	EXPECT(k, 5, 5, "map 0 value pointer, offset u[16, 16] s[16, 16] u32[16, 16] s32[16, 16] "
			"var_off (0x10; 0)");
	CHECK(k->warnings == 1 && strstr(k->warning, "R3=scalar(wibble=3)"),
	      "one warning for the unknown attribute: %u, '%s'", k->warnings, k->warning);
	/* cells: zero (8 bytes), misc (nothing), spill with suffix, narrow spill, pointer */
	{
		const struct klog_pc *e = &k->pcs[5];
		bool z = false, seven = false, ctx = false;

		for (uint32_t i = 0; i < e->ncells; i++) {
			fmt_val(got, sizeof(got), &e->cells[i].v);
			z |= e->cells[i].off == -8 && !strncmp(got, "scalar u[0, 0]", 14);
			seven |= e->cells[i].off == -24 && !strncmp(got, "scalar u[7, 7]", 14);
			ctx |= e->cells[i].off == -40 && !strncmp(got, "ctx pointer", 11);
		}
		CHECK(e->ncells == 3 && z && seven && ctx, "cells at 5: %u (zero %d, P7 %d, ctx %d)",
		      e->ncells, z, seven, ctx);
	}
	klog__free(k);

	/* a log of another program is refused, not misread */
	{
		static const char other[] = "0: R1=ctx() R10=fp0\n0: (07) r1 += 1\n";
		struct diag d;

		diag_clear(&d);
		k = NULL;
		CHECK(klog_parse(&k, other, strlen(other), &obj->progs[0], obj, &d) == -EINVAL &&
		      strstr(d.msg, "not of this program"), "opcode mismatch: %s", d.msg);
		klog__free(k);
	}
	/* garbage: no crash, no claims */
	{
		static const char junk[] = "1: R1=\n7: (zz\nfrom 1 to\n99999999999: safe\n"
					   "mark_precise: frame0: regs=r1 stack= before 99999:\n"
					   "0: R1=scalar(smin=\n0: (b7) r1 = 0 ; R1=fp[\n";
		struct claim_prog cp;

		k = parse(junk, obj);
		CHECK(k && k->warnings >= 3, "junk: %u warnings", k ? k->warnings : 0);
		if (k) {
			CHECK(!klog_claims(&cp, k, &obj->progs[0], NULL, NULL) && cp.nranges == 0,
			      "junk gives no claims (incomplete)");
			claim_prog__free(&cp);
		}
		klog__free(k);
	}
out:
	ebpf_object__free(obj);
}

/* ---- fixtures ---- */

struct fixture {
	struct casefile *cf;
	struct ebpf_object *obj;	/* cf->obj */
	const char *log;
	const struct casefile_section *expect;
	struct klog *k;
	struct claim_prog cp;
};

static int fixture_open(struct fixture *fx, const char *path)
{
	const struct casefile_section *type, *log;
	struct diag d;

	memset(fx, 0, sizeof(*fx));
	diag_clear(&d);
	if (casefile__open_file(&fx->cf, path, &d)) {
		CHECK(0, "%s: %s", path, d.msg);
		return -1;
	}
	fx->obj = fx->cf->obj;
	type = casefile__section(fx->cf, "type");
	log = casefile__section(fx->cf, "log");
	fx->expect = casefile__section(fx->cf, "expect");
	if (!type || !log) {
		CHECK(0, "%s: needs '-- type' and '-- log'", path);
		return -1;
	}
	/* "-- type" and "-- maps" are read with the program (casefile/) */
	fx->log = log->text;
	fx->k = parse(fx->log, fx->obj);
	if (!fx->k)
		return -1;
	if (klog_claims(&fx->cp, fx->k, &fx->obj->progs[0], NULL, NULL)) {
		CHECK(0, "%s: klog_claims failed", path);
		return -1;
	}
	return 0;
}

static void fixture_close(struct fixture *fx)
{
	claim_prog__free(&fx->cp);
	klog__free(fx->k);
	casefile__free(fx->cf);
}

static void dump(const char *path)
{
	struct fixture fx;
	char buf[400], loc[32];

	if (fixture_open(&fx, path))
		return;
	for (uint32_t pc = 0; pc < fx.k->npcs; pc++) {
		const struct klog_pc *e = &fx.k->pcs[pc];

		for (int r = 0; r < EBPF_REG_FP; r++) {
			if (e->regs[r].kind == KLOG_NONE)
				continue;
			fmt_val(buf, sizeof(buf), &e->regs[r]);
			printf("join %u r%d: %s\n", pc, r, buf);
		}
		printf("# pc %u: %u states, %u pruned, live %#x\n", pc, e->nstates, e->npruned, e->live);
	}
	for (uint32_t i = 0; i < fx.cp.nranges; i++) {
		loc_format(fx.cp.ranges[i].loc, loc, sizeof(loc));
		fmt_claim(buf, sizeof(buf), &fx.cp.ranges[i]);
		printf("claim %u %s: %s\n", fx.cp.ranges[i].pc, loc, buf);
	}
	printf("stats insn_lines=%u prunes=%u full_states=%u warnings=%u %s\n", fx.k->insn_lines,
	       fx.k->prunes, fx.k->full_states, fx.k->warnings, fx.k->warning);
	fixture_close(&fx);
}

/* "-- expect" lines: "join PC rN: <value>", "claim PC LOC: <value>" or "claim PC LOC: none",
 * "stats insn_lines=N prunes=N full_states=N warnings=N". */
static unsigned check_expectations(const struct fixture *fx, const char *path)
{
	const char *p = fx->expect ? fx->expect->text : "";
	unsigned n = 0;

	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char line[512], what[16], locs[32];
		unsigned pc, a, b, c, w;
		int used = 0;

		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		p = eol ? eol + 1 : p + len;
		if (!line[0] || line[0] == '#')
			continue;
		n++;
		if (sscanf(line, "stats insn_lines=%u prunes=%u full_states=%u warnings=%u", &a, &b,
			   &c, &w) == 4) {
			CHECK(fx->k->insn_lines == a && fx->k->prunes == b && fx->k->full_states == c &&
			      fx->k->warnings == w, "%s: %s: got insn_lines=%u prunes=%u "
			      "full_states=%u warnings=%u", path, line, fx->k->insn_lines,
			      fx->k->prunes, fx->k->full_states, fx->k->warnings);
		} else if (sscanf(line, "%15s %u %31[^:]: %n", what, &pc, locs, &used) == 3 && used) {
			const char *want = line + used;
			char got[400];
			loc_t loc;

			if (loc_parse(locs, &loc) || pc >= fx->k->npcs) {
				CHECK(0, "%s: bad expectation '%s'", path, line);
				continue;
			}
			if (!strcmp(what, "join") && LOC_IS_REG(loc)) {
				fmt_val(got, sizeof(got), &fx->k->pcs[pc].regs[loc]);
			} else if (!strcmp(what, "claim")) {
				const struct claim_range *cr = find_claim(&fx->cp, pc, loc);

				if (cr)
					fmt_claim(got, sizeof(got), cr);
				else
					snprintf(got, sizeof(got), "none");
			} else {
				CHECK(0, "%s: bad expectation '%s'", path, line);
				continue;
			}
			CHECK(!strcmp(got, want), "%s: %s %u %s: got '%s', expected '%s'", path, what,
			      pc, locs, got, want);
		} else {
			CHECK(0, "%s: bad expectation '%s'", path, line);
		}
	}
	return n;
}

static unsigned fixtures_seen, expectations_seen, fixture_claims;

static void fixture(const char *path)
{
	struct fixture fx;
	char what[600];

	if (fixture_open(&fx, path))
		goto out;
	fixtures_seen++;
	CHECK(fx.k->complete && fx.k->warnings == 0, "%s: complete %d, %u warnings (%s)", path,
	      fx.k->complete, fx.k->warnings, fx.k->warning);
	CHECK(fx.cp.nranges > 0, "%s: no claims", path);
	expectations_seen += check_expectations(&fx, path);
	fixture_claims += fx.cp.nranges;
	snprintf(what, sizeof(what), "%.590s", path);
	check_claims(fx.obj, &fx.obj->progs[0], &fx.cp, what);
out:
	fixture_close(&fx);
}

static void fixtures(void)
{
	char dir[1024];
	DIR *dd;
	struct dirent *de;

	snprintf(dir, sizeof(dir), "%s/tests/data/klog", check_source_dir());
	dd = opendir(dir);
	CHECK(dd != NULL, "no fixture directory %s", dir);
	while (dd && (de = readdir(dd))) {
		char p[2048];
		size_t n = strlen(de->d_name);

		if (n < 6 || strcmp(de->d_name + n - 5, ".klog"))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		fixture(p);
	}
	if (dd)
		closedir(dd);
	CHECK(fixtures_seen >= 8 && expectations_seen >= 30, "fixtures %u, expectations %u",
	      fixtures_seen, expectations_seen);
}

/* The logs test_asm captured: assembly beside a '#'-commented log, all from Linux 6.18. */
static void earlier_logs(void)
{
	static const char *const names[] = { "verifier_log_accepted", "verifier_log_forms",
					      "verifier_log_rejected" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char sp[1024], lp[1024];
		struct ebpf_object *obj = NULL;
		struct claim_prog cp;
		struct klog *k;
		struct diag d;
		char *log;
		FILE *f;
		long n;

		snprintf(sp, sizeof(sp), "%s/tests/data/%s.s", check_source_dir(), names[i]);
		snprintf(lp, sizeof(lp), "%s/tests/data/%s.txt", check_source_dir(), names[i]);
		diag_clear(&d);
		if (casefile__open_object(&obj, sp, &d)) {
			CHECK(0, "%s: %s", sp, d.msg);
			continue;
		}
		obj->progs[0].prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
		f = fopen(lp, "r");
		CHECK(f != NULL, "%s", lp);
		if (!f) {
			ebpf_object__free(obj);
			continue;
		}
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		rewind(f);
		log = calloc(1, (size_t)n + 1);
		if (log && fread(log, 1, (size_t)n, f) != (size_t)n)
			n = 0;
		fclose(f);
		k = log ? parse(log, obj) : NULL;
		if (k) {
			CHECK(k->complete && k->warnings == 0 && k->insn_lines > 10, "%s: complete %d, "
			      "%u insn lines, %u warnings (%s)", lp, k->complete, k->insn_lines,
			      k->warnings, k->warning);
			if (!strstr(names[i], "rejected") && !klog_claims(&cp, k, &obj->progs[0], NULL,
									  NULL)) {
				CHECK(cp.nranges > 0, "%s: no claims", lp);
				check_claims(obj, &obj->progs[0], &cp, lp);
				claim_prog__free(&cp);
			}
		}
		klog__free(k);
		free(log);
		ebpf_object__free(obj);
	}
}

/* ---- why not the plain union ---- */

static void pruning(void)
{
	char path[1024];
	struct fixture fx;
	struct claim_prog naive = { 0 };
	struct check_opts co = { .sz = sizeof(co), .seed = 1, .runs = 8,
				 .ctx_kind = INTERP_CTX_SKB + 1 };
	struct check_result res;

	snprintf(path, sizeof(path), "%s/tests/data/klog/pruned_branch.klog", check_source_dir());
	if (fixture_open(&fx, path))
		goto out;
	/* the second path (r7 = 5) is pruned at 13 against the first (r7 = 7): r7 is dead
	 * there, so pruning ignores it, and the log never shows 5 at 13 */
	CHECK(fx.k->pcs[13].npruned == 1, "pruned at 13: %u", fx.k->pcs[13].npruned);
	EXPECT(fx.k, 13, 7, "scalar u[7, 7] s[7, 7] u32[7, 7] s32[7, 7] var_off (0x7; 0)");
	CHECK(!find_claim(&fx.cp, 13, 7) && !find_claim(&fx.cp, 16, 7),
	      "r7 is not claimed where the pruned path goes");
	CHECK(find_claim(&fx.cp, 12, 7) != NULL, "r7 is claimed before the pruning point");
	for (uint32_t pc = 13; pc < fx.k->npcs; pc++)
		for (int r = 0; r < EBPF_REG_FP; r++) {
			const struct klog_val *v = &fx.k->pcs[pc].regs[r];
			struct claim_range c = { .pc = pc, .loc = (loc_t)r, .source = SRC_KERNEL,
						 .r = v->r, .is_ptr = v->kind == KLOG_PTR,
						 .region = v->region };

			if (v->kind == KLOG_SCALAR || v->kind == KLOG_PTR)
				claim_prog__add_range(&naive, &c);
		}
	/* a 64-byte packet has an even length: every run takes the pruned path */
	if (!oracle_check(&res, fx.obj, &fx.obj->progs[0], &naive, &co)) {
		CHECK(res.nfindings > 0, "the plain union survived (%u claims)", naive.nranges);
		check_result__free(&res);
	}
	check_claims(fx.obj, &fx.obj->progs[0], &fx.cp, "pruned_branch claims");
out:
	claim_prog__free(&naive);
	fixture_close(&fx);
}

/* ---- the running kernel ---- */

static unsigned k_logs, k_claims, k_rejected, k_agree, k_unrunnable;

static void kernel_one(const struct ebpf_object *obj, const struct ebpf_prog *prog,
		       const uint8_t *input, size_t input_len, bool expect_agree, const char *what)
{
	struct kdiff_opts o = { .sz = sizeof(o), .input = input, .input_len = input_len,
				.seed = 7, .check_runs = 24, .log_max = 64ul << 20,
				.step_budget = 5000000 };
	struct kdiff_result res;
	struct diag d;

	diag_clear(&d);
	if (kdiff_run(&res, obj, prog, &o, &d)) {
		/* a map this kernel will not create: the program cannot be asked about */
		CHECK(strstr(d.msg, "refuses to create") != NULL, "%s: %s", what, d.msg);
		return;
	}
	if (res.accepted && res.claims.insn_count && res.cstats.pcs) {
		k_logs++;
		k_claims += res.claims.nranges;
		CHECK(res.log_warnings == 0, "%s: %u log warnings: %s", what, res.log_warnings,
		      res.log_warning);
	}
	switch (res.kind) {
	case KDIFF_REJECTED:
		k_rejected++;
		break;
	case KDIFF_AGREE:
		k_agree++;
		break;
	case KDIFF_UNRUNNABLE:
		k_unrunnable++;
		break;
	case KDIFF_INVARIANT:
		/* (a kernel bug a test object reproduces on purpose: 6.18 refuses a data-dependent
		 * bpf_throw in a loop with its own "verifier bug: scc exit" — tests/bpf/throw.c's
		 * throw_in_loop, test_throw's unsupported case) */
		if (strstr(what, "throw.o throw_in_loop") &&
		    strstr(res.text, "verifier bug: scc exit")) {
			printf("test_klog: note: %s: the kernel's own bug, as expected: %s\n", what,
			       res.text);
			k_rejected++;
			break;
		}
		/* fallthrough */
	case KDIFF_CLAIM:
		CHECK(0, "%s: KERNEL FINDING (%s): %s", what, kdiff_kind_name(res.kind), res.text);
		break;
	default:
		/* execution differs: the interpreter's model of this program type, or the JIT */
		CHECK(!expect_agree, "%s: %s: %s", what, kdiff_kind_name(res.kind), res.text);
		if (!expect_agree)
			printf("test_klog: note: %s: %s: %s\n", what, kdiff_kind_name(res.kind),
			       res.text);
		break;
	}
	kdiff_result__free(&res);
}

static void kernel_generated(unsigned count)
{
	struct gen_knobs kn = gen_knobs_default();

	/* small trip counts keep the logs small; every other knob at its default */
	gen_knobs_set(&kn, "max_trip", 8);
	gen_knobs_set(&kn, "p_huge", 0);
	gen_knobs_set(&kn, "p_nonterminating", 0);
	for (unsigned s = 1; s <= count; s++) {
		struct gen_program gp = { 0 };
		struct ebpf_object obj = { 0 };
		struct ebpf_prog view;
		struct gen_src src;
		char what[64];

		gen_src_init_seed(&src, s);
		if (gen_program(&gp, &src, &kn)) {
			CHECK(0, "gen_program %u", s);
			gen_program__free(&gp);
			continue;
		}
		gen_program__object(&gp, &obj, &view, "gen");
		snprintf(what, sizeof(what), "generated program %u", s);
		kernel_one(&obj, &view, gp.input, gp.input_len, true, what);
		gen_program__free(&gp);
	}
}

static void kernel_objects(const char *dir, unsigned max_files)
{
	DIR *dd = opendir(dir);
	struct dirent *de;
	unsigned files = 0;

	while (dd && (de = readdir(dd)) && files < max_files) {
		char p[2048];
		struct ebpf_object *obj = NULL;
		struct stat st;
		struct diag d;
		size_t n = strlen(de->d_name);

		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		if (stat(p, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			kernel_objects(p, max_files - files);
			continue;
		}
		if (n < 3 || strcmp(de->d_name + n - 2, ".o"))
			continue;
		diag_clear(&d);
		if (casefile__open_object(&obj, p, &d))
			continue;	/* test_elf covers files we cannot open */
		files++;
		for (size_t i = 0; i < obj->prog_cnt; i++) {
			char what[2300];

			snprintf(what, sizeof(what), "%s %s", p, obj->progs[i].name);
			kernel_one(obj, &obj->progs[i], NULL, 0, false, what);
		}
		ebpf_object__free(obj);
	}
	if (dd)
		closedir(dd);
}

/* An XDP program reading ingress_ifindex: BPF_PROG_TEST_RUN runs XDP on the loopback device
 * (ifindex 1), the interpreter's xdp_md has 0 — a modeling difference the differential must
 * report, save and shrink. */
static void kernel_difference(void)
{
	static const char text[] = "r2 = 5\n"
				   "r3 = r2\n"
				   "r0 = *(u32 *)(r1 +12)\n"
				   "r3 += 7\n"
				   "r0 += r3\n"
				   "exit\n";
	struct ebpf_object *obj = asm_object(text, BPF_PROG_TYPE_XDP);
	struct kdiff_opts o = { .sz = sizeof(o) };
	struct kdiff_result res;
	struct finding f;
	struct reduce_prog small = { 0 };
	char dir[] = "/tmp/test_klog.XXXXXX", path[512];
	enum finding_save_result sr;
	struct diag d;

	if (!obj)
		return;
	diag_clear(&d);
	if (kdiff_run(&res, obj, &obj->progs[0], &o, &d)) {
		CHECK(0, "kdiff: %s", d.msg);
		ebpf_object__free(obj);
		return;
	}
	CHECK(res.kind == KDIFF_RETVAL && res.kernel_retval == 13 && res.interp_r0 == 12,
	      "ingress_ifindex: %s: %s", kdiff_kind_name(res.kind), res.text);
	CHECK(!kdiff_finding(&f, &res, obj, &obj->progs[0]), "kdiff_finding");
	CHECK(f.kind == FIND_KERNEL && !strcmp(f.source, "kernel-retval"), "finding kind %u %s",
	      f.kind, f.source);
	if (mkdtemp(dir)) {
		CHECK(!finding__save(&f, dir, NULL, &sr, path, sizeof(path)) && sr == FINDING_NEW,
		      "finding__save");
		CHECK(access(path, F_OK) == 0, "saved at %s", path);
	}
	diag_clear(&d);
	CHECK(!kdiff_reduce(&small, &f, NULL, 300, &d), "kdiff_reduce: %s", d.msg);
	/* what must stay: the load of ingress_ifindex and the exit */
	CHECK(small.insns && small.len <= 3 && small.len >= 2, "reduced to %zu slots", small.len);
	reduce_prog__free(&small);
	finding__free(&f);
	kdiff_result__free(&res);
	ebpf_object__free(obj);
	if (dir[0]) {
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		CHECK(system(cmd) == 0, "cleanup");
	}
}


/* The command: --compare rows, --claims JSON that claims_read takes, --diff verdicts. */
static int run_cli(const char *args, char *out, size_t n)
{
	const char *bin = getenv("BPFSCEV_BIN");
	char cmd[2048];
	size_t got = 0;
	FILE *p;
	int st;

	if (!bin) {
		printf("test_klog: SKIP command checks: BPFSCEV_BIN is not set\n");
		return -1;
	}
	snprintf(cmd, sizeof(cmd), "%s kernel %s 2>/dev/null", bin, args);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (got + 1 < n && fgets(out + got, (int)(n - got), p))
		got += strlen(out + got);
	out[got] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void command(void)
{
	char dir[] = "/tmp/test_klog_cli.XXXXXX", loop[600], ifidx[600], args[1400];
	static char out[1 << 16];
	struct claims *c = NULL;
	struct diag d;
	FILE *f;
	int rc;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(loop, sizeof(loop), "%s/loop.s", dir);
	snprintf(ifidx, sizeof(ifidx), "%s/ifidx.s", dir);
	f = fopen(loop, "w");
	if (f) {
		fputs("r0 = 0\nr1 = 0\nr0 += 3\nr1 += 1\nif r1 < 5 goto pc-3\nexit\n", f);
		fclose(f);
	}
	f = fopen(ifidx, "w");
	if (f) {
		fputs("r2 = 5\nr0 = *(u32 *)(r1 +12)\nr0 += r2\nexit\n", f);
		fclose(f);
	}
	snprintf(args, sizeof(args), "%s --compare", loop);
	rc = run_cli(args, out, sizeof(out));
	if (rc < 0)
		goto out;
	CHECK(rc == 0 && strstr(out, "kernel_us") && strstr(out, "loop") &&
	      strstr(out, "accepted") && strstr(out, " 18 "), "--compare: rc %d: %s", rc, out);
	snprintf(args, sizeof(args), "%s --claims", loop);
	rc = run_cli(args, out, sizeof(out));
	diag_clear(&d);
	CHECK(rc == 0 && !claims_read(&c, out, strlen(out), &d) && c->nprogs == 1 &&
	      c->progs[0].nranges == 11 && c->progs[0].ranges[0].source == SRC_KERNEL,
	      "--claims: rc %d, %s: %.300s", rc, d.msg, out);
	claims__free(c);
	snprintf(args, sizeof(args), "%s --diff --runs 4", loop);
	rc = run_cli(args, out, sizeof(out));
	CHECK(rc == 0 && strstr(out, "loop: agree:"), "--diff on a loop: rc %d: %s", rc, out);
	snprintf(args, sizeof(args), "%s --type xdp --diff --runs 4 --save %s/found", ifidx, dir);
	rc = run_cli(args, out, sizeof(out));
	CHECK(rc == 1 && strstr(out, "ifidx: retval: r0 differs: kernel 6") && strstr(out, "saved "),
	      "--diff finding: rc %d: %s", rc, out);
	snprintf(args, sizeof(args), "%s --diff --reduce", loop);
	CHECK(run_cli(args, out, sizeof(out)) == 2, "--reduce without --save is a usage error");
out:
	snprintf(args, sizeof(args), "rm -rf '%s'", dir);
	CHECK(system(args) == 0, "cleanup");
}

static void kernel(void)
{
	char why[256];
	const char *bpfdir = getenv("BPFSCEV_TEST_BPF_DIR"), *samples = getenv("BPFSCEV_SAMPLES_DIR");
	const char *count = getenv("BPFSCEV_KLOG_PROGRAMS");

	if (!kernel_available(why, sizeof(why))) {
		printf("test_klog: SKIP kernel part: %s\n", why);
		return;
	}
	kernel_generated(count ? (unsigned)atoi(count) : 60);
	if (bpfdir)
		kernel_objects(bpfdir, 100);
	if (samples)	/* set by CMake from BPFSCEV_SHARED_DIR */
		kernel_objects(samples, 40);
	printf("test_klog: kernel: %u logs parsed (%u claims), %u agree, %u rejected, %u not "
	       "test-runnable\n", k_logs, k_claims, k_agree, k_rejected, k_unrunnable);
	CHECK(k_logs >= 50, "only %u kernel logs parsed", k_logs);
	kernel_difference();
	command();
}

int main(void)
{
	const char *d = getenv("BPFSCEV_KLOG_DUMP");

	if (d) {
		dump(d);
		return 0;
	}
	forms();
	fixtures();
	earlier_logs();
	pruning();
	printf("test_klog: %u fixtures, %u expectations, %u claims checked\n", fixtures_seen,
	       expectations_seen, fixture_claims);
	kernel();
	return check_done("test_klog");
}
