/* Kernel-style selftests written by the reducer (triage/selftest.h) compile, and say what they
 * should: each test program is written as a verifier_*.c-style test, compiled with clang
 * (-target bpf) against triage/selftest/bpf_misc.h, and the object read back must hold the same
 * program instruction for instruction (jumps as labels, maps and helpers as asm operands).
 * Where bpf() works, each object is then loaded as the selftests' test loader would, from the
 * annotations in its source: __success / __failure, every __msg in the log, __flag, __retval
 * against a test run.  The saved kernel finding docs/kernel-findings/ (.c beside .s) is checked the same
 * way against its .s, and `bpfscev reduce --emit selftest` on a hand-written program of 120
 * instructions must give a 1-minimal program and a test that passes.  Skips (77) without
 * clang; the loading part is skipped where bpf() is refused.
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf/asm.h"
#include "bpf/prog.h"
#include "casefile/casefile.h"
#include "oracle/kernel/kernel.h"
#include "triage/selftest.h"
#include "tests/check.h"

#ifndef BPF_F_TEST_REG_INVARIANTS
#define BPF_F_TEST_REG_INVARIANTS (1U << 7)
#endif

static const char *clang, *asm_dir;
static char tmp[] = "/tmp/bpfscev-selftest.XXXXXX";
static bool kernel;

static int run(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) &&
	    (buf = malloc((size_t)n + 1))) {
		if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		} else {
			buf[n] = '\0';
		}
	}
	fclose(f);
	return buf;
}

/* Compiles src_path into obj_path; 0 or the compiler's exit status. */
static int compile(const char *src_path, const char *obj_path)
{
	char cmd[8192];

	snprintf(cmd, sizeof(cmd), "'%s' -g -O2 -target bpf -mcpu=v3 -I'%s/triage/selftest' %s%s%s "
		 "-c '%s' -o '%s' 2>'%s.err'", clang, check_source_dir(), asm_dir ? "-I'" : "",
		 asm_dir ? asm_dir : "", asm_dir ? "'" : "", src_path, obj_path, obj_path);
	return run(cmd);
}

/* The same program: instructions equal, a map reference naming a map of the same shape. */
static void same_program(const struct ebpf_object *obj, const struct ebpf_prog *got,
			 const struct reduce_prog *want, const char *what)
{
	bool same = got->len == want->len;

	for (size_t pc = 0; same && pc < want->len; pc++) {
		struct bpf_insn a = got->insns[pc], b = want->insns[pc];

		if (pc && ebpf_is_ldimm64(&want->insns[pc - 1]) && want->insns[pc - 1].src_reg) {
			same = a.code == b.code && a.imm == b.imm;	/* second half of a map load */
			continue;
		}
		if (ebpf_is_ldimm64(&b) && b.src_reg) {
			const struct ebpf_map_def *gm = (size_t)a.imm < obj->map_cnt ?
							&obj->maps[a.imm] : NULL;
			const struct ebpf_map_def *wm = &want->maps[b.imm];

			same = a.code == b.code && a.dst_reg == b.dst_reg && a.src_reg == b.src_reg &&
			       gm && gm->type == wm->type && gm->key_size == wm->key_size &&
			       gm->value_size == wm->value_size && gm->max_entries == wm->max_entries;
			continue;
		}
		same = !memcmp(&a, &b, sizeof(a));
		if (!same)
			fprintf(stderr, "%s: slot %zu differs\n", what, pc);
	}
	CHECK(same, "%s: the compiled selftest is not the program (%zu vs %zu slots)", what,
	      got->len, want->len);
}

/* What the selftests' loader would check, read from the test's annotations. */
static void load_as_selftest(const char *src, const struct ebpf_object *obj,
			     const struct ebpf_prog *prog, const char *what)
{
	struct kernel_prog_opts ko = { .sz = sizeof(ko), .log_level = 1 | 4 };
	struct kernel_prog *kp = NULL;
	bool success = strstr(src, "__success") != NULL;
	const char *m;
	struct diag d;

	if (strstr(src, "__flag(BPF_F_TEST_REG_INVARIANTS)"))
		ko.prog_flags |= BPF_F_TEST_REG_INVARIANTS;
	diag_clear(&d);
	if (kernel_prog__load(&kp, obj, prog, &ko, &d)) {
		CHECK(0, "%s: load: %s", what, d.msg);
		return;
	}
	CHECK(kp->accepted == success, "%s: %s expected, the kernel %s it (%s)", what,
	      success ? "__success" : "__failure", kp->accepted ? "accepts" : "rejects",
	      kp->message);
	for (m = strstr(src, "__msg(\""); m; m = strstr(m + 1, "__msg(\"")) {
		char text[512];
		size_t n = strcspn(m + 7, "\"");

		snprintf(text, sizeof(text), "%.*s", (int)n, m + 7);
		CHECK(strstr(kp->log, text) != NULL, "%s: __msg(\"%s\") is not in the log", what,
		      text);
	}
	if ((m = strstr(src, "__retval("))) {
		struct kernel_run_opts ro = { .sz = sizeof(ro) };
		struct kernel_run_result res;
		long want = strtol(m + 9, NULL, 0);

		CHECK(kp->accepted && !kernel_prog__test_run(kp, &ro, &res, &d) &&
		      (int32_t)res.retval == want, "%s: __retval(%ld) but the run: %s", what, want,
		      d.msg);
	}
	kernel_prog__free(kp);
}

/* Writes p as a selftest, compiles it, reads it back, compares, loads. */
static void round_trip(const struct reduce_prog *p, const struct selftest_opts *so,
		       const char *what)
{
	struct sbuf sb = SBUF_INIT;
	struct ebpf_object *obj = NULL;
	const struct ebpf_prog *prog;
	char src[4200], objp[4300];
	struct diag d;
	FILE *f;

	diag_clear(&d);
	CHECK(!selftest_emit(&sb, p, so, &d), "%s: emit: %s", what, d.msg);
	snprintf(src, sizeof(src), "%s/%s.c", tmp, what);
	snprintf(objp, sizeof(objp), "%s/%s.o", tmp, what);
	f = fopen(src, "w");
	if (!f || fwrite(sb.buf, 1, sb.len, f) != sb.len) {
		CHECK(0, "write %s", src);
		if (f)
			fclose(f);
		sbuf_free(&sb);
		return;
	}
	fclose(f);
	if (compile(src, objp)) {
		char err[4400], *e;

		snprintf(err, sizeof(err), "%s.err", objp);
		e = slurp(err);
		CHECK(0, "%s: clang fails on the selftest:\n%s\n%s", what, sbuf_cstr(&sb),
		      e ? e : "");
		free(e);
		sbuf_free(&sb);
		return;
	}
	diag_clear(&d);
	CHECK(!casefile__open_object(&obj, objp, &d), "%s: the object: %s", what, d.msg);
	prog = obj ? ebpf_object__find_prog(obj, so->name) : NULL;
	CHECK(prog != NULL, "%s: no program '%s' in the object", what, so->name);
	if (prog) {
		same_program(obj, prog, p, what);
		if (kernel)
			load_as_selftest(sbuf_cstr(&sb), obj, prog, what);
	}
	printf("%s: compiled%s\n", what, kernel ? " and loaded as the annotations say" : "");
	ebpf_object__free(obj);
	sbuf_free(&sb);
}

static struct bpf_insn *assemble(const char *src, size_t *len)
{
	struct bpf_insn *insns = NULL;
	struct diag d;

	diag_clear(&d);
	if (ebpf_asm(&insns, len, NULL, src, strlen(src), 1, &d))
		CHECK(0, "asm: %s", d.msg);
	return insns;
}

static void test_programs(void)
{
	static const char *loop =
		"r0 = 0\nr1 = 0x1122334455667788 ll\nw2 = 3\n"
		"l: r0 += 1\nw2 += -1\nif w2 != 0 goto l\n"
		"*(u64 *)(r10 -8) = r1\nr3 = 1\nlock *(u64 *)(r10 -8) += r3\n"
		"r4 = *(u32 *)(r10 -8)\nif r4 & 0x80 goto +1\nr0 += 40\nr0 = be16 r0\n"
		"r0 = be16 r0\nexit\n";
	static const char *maps =
		"r1 = map[fd:1] ll\nr2 = r10\nr2 += -4\n*(u32 *)(r10 -4) = 0\ncall 1\n"
		"if r0 == 0 goto out\nr1 = *(u64 *)(r0 +0)\nr1 += 1\n*(u64 *)(r0 +0) = r1\n"
		"r1 = map[fd:0] ll\ncall 7\nout: r0 = 0\nexit\n";
	static const char *bad = "r0 = 1\nr0 += r5\nexit\n";
	struct ebpf_map_def defs[2] = {
		{ .name = "other", .type = BPF_MAP_TYPE_HASH, .key_size = 8, .value_size = 16,
		  .max_entries = 8 },
		{ .name = "counts", .type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 8,
		  .max_entries = 4 },
	};
	struct reduce_prog p = { .prog_type = BPF_PROG_TYPE_SOCKET_FILTER };
	struct selftest_opts so = { .sz = sizeof(so), .name = "loop", .accepted = true,
				    .has_retval = true, .description = "a loop" };
	struct sbuf sb = SBUF_INIT;
	struct diag d;

	/* accepted, a test run: r0 = 3 (bit 7 of the loaded word is set: +40 skipped), swapped
	 * twice */
	p.insns = assemble(loop, &p.len);
	so.retval = 3;
	if (p.insns)
		round_trip(&p, &so, "loop");
	free(p.insns);
	/* maps and helpers, an XDP program */
	p = (struct reduce_prog){ .prog_type = BPF_PROG_TYPE_XDP, .maps = defs, .map_cnt = 2 };
	p.insns = assemble(maps, &p.len);
	so = (struct selftest_opts){ .sz = sizeof(so), .name = "maps", .accepted = true,
				     .has_retval = true, .retval = 0 };
	if (p.insns)
		round_trip(&p, &so, "maps");
	free(p.insns);
	/* rejected, with the message */
	p = (struct reduce_prog){ .prog_type = BPF_PROG_TYPE_SOCKET_FILTER };
	p.insns = assemble(bad, &p.len);
	so = (struct selftest_opts){ .sz = sizeof(so), .name = "bad", .msg = "R5 !read_ok",
				     .comment = "reading \"r5\" before it is written\n*/ in a comment" };
	if (p.insns)
		round_trip(&p, &so, "bad");
	/* what cannot be written is refused, naming the instruction */
	p.insns[1] = (struct bpf_insn){ .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_CALL,
					.imm = 0 };
	diag_clear(&d);
	CHECK(selftest_emit(&sb, &p, &so, &d) == -EINVAL && strstr(d.msg, "instruction 1") &&
	      strstr(d.msg, "bpf-to-bpf"), "a call refused: %s", d.msg);
	free(p.insns);
	sbuf_free(&sb);
}

/* docs/kernel-findings/NAME.c is the selftest of NAME.s. */
static void test_kernel_finding(void)
{
	char s_path[4096], c_path[4096], o_path[4300];
	struct ebpf_object *s_obj = NULL, *o_obj = NULL;
	const struct ebpf_prog *prog;
	struct reduce_prog p;
	char *src;
	struct diag d;

	snprintf(s_path, sizeof(s_path), "%s/docs/kernel-findings/reg-invariants-true-reg1.s",
		 check_source_dir());
	snprintf(c_path, sizeof(c_path), "%s/docs/kernel-findings/reg-invariants-true-reg1.c",
		 check_source_dir());
	snprintf(o_path, sizeof(o_path), "%s/finding.o", tmp);
	src = slurp(c_path);
	CHECK(src != NULL, "%s is missing", c_path);
	diag_clear(&d);
	CHECK(!casefile__open_object(&s_obj, s_path, &d), "%s: %s", s_path, d.msg);
	if (!src || !s_obj)
		goto out;
	CHECK(strstr(src, "__failure") && strstr(src, "__flag(BPF_F_TEST_REG_INVARIANTS)") &&
	      strstr(src, "__msg(\"REG INVARIANTS VIOLATION"), "the finding's test does not say "
	      "what it shows");
	CHECK(compile(c_path, o_path) == 0, "clang fails on %s", c_path);
	diag_clear(&d);
	CHECK(!casefile__open_object(&o_obj, o_path, &d), "finding.o: %s", d.msg);
	prog = o_obj && o_obj->prog_cnt ? &o_obj->progs[0] : NULL;
	if (!prog)
		goto out;
	p = (struct reduce_prog){ .insns = s_obj->progs[0].insns, .len = s_obj->progs[0].len };
	same_program(o_obj, prog, &p, "kernel finding");
	if (kernel)
		load_as_selftest(src, o_obj, prog, "kernel finding");
out:
	free(src);
	ebpf_object__free(s_obj);
	ebpf_object__free(o_obj);
}

/* The command, end to end, on a program from outside the campaign. */
static void test_command(void)
{
	const char *bin = getenv("BPFSCEV_BIN");
	char path[4200], out[4200], objp[4300], cmd[12000];
	struct ebpf_object *obj = NULL;
	struct diag d;
	char *src, *log;
	FILE *f;

	if (!bin || !kernel) {
		check_skip_part("the command: %s", bin ? "no kernel" : "BPFSCEV_BIN not set");
		return;
	}
	snprintf(path, sizeof(path), "%s/outside.s", tmp);
	f = fopen(path, "w");
	if (!f) {
		CHECK(0, "write %s", path);
		return;
	}
	/* 120 instructions: arithmetic on the stack and a loop, then an unchecked map value */
	fputs("-- asm\nr6 = 0\n", f);
	for (int k = 0; k < 50; k++)
		fprintf(f, "r%d = %d\n*(u64 *)(r10 -%d) = r%d\n", 1 + k % 5, k * 7, 8 + 8 * (k % 8),
			1 + k % 5);
	fputs("l: r6 += 1\nif r6 < 30 goto l\n"
	      "r1 = map[fd:0] ll\nr2 = r10\nr2 += -8\ncall 1\n"
	      "r1 = *(u64 *)(r0 +0)\n"		/* r0 may be NULL */
	      "r0 = 0\nexit\n-- maps\nhash key=8 value=16 entries=64 name=values\n", f);
	fclose(f);
	snprintf(out, sizeof(out), "%s/outside.c", tmp);
	snprintf(cmd, sizeof(cmd), "'%s' reduce '%s' --rejects --msg 'invalid mem access "
		 ".map_value_or_null' --emit selftest --name outside -o '%s' --jobs 2 --quiet "
		 ">'%s/cmd.log' 2>&1", bin, path, out, tmp);
	CHECK(run(cmd) == 0, "the command fails: %s", cmd);
	snprintf(cmd, sizeof(cmd), "%s/cmd.log", tmp);
	log = slurp(cmd);
	CHECK(log && strstr(log, "1-minimal: proved"), "not proved 1-minimal:\n%s", log);
	free(log);
	snprintf(objp, sizeof(objp), "%s/outside.o", tmp);
	CHECK(compile(out, objp) == 0, "clang fails on the command's selftest");
	src = slurp(out);
	diag_clear(&d);
	if (src && !casefile__open_object(&obj, objp, &d) && obj->prog_cnt) {
		printf("the command's selftest: %zu slots, %zu maps\n", obj->progs[0].len,
		       obj->map_cnt);
		CHECK(obj->progs[0].len <= 8 && obj->map_cnt == 1 &&
		      obj->maps[0].max_entries == 1, "not reduced: %zu slots", obj->progs[0].len);
		load_as_selftest(src, obj, &obj->progs[0], "the command's selftest");
	} else {
		CHECK(0, "the command's selftest: %s", d.msg);
	}
	ebpf_object__free(obj);
	free(src);
}

int main(void)
{
	char why[256], cmd[200];

	setvbuf(stdout, NULL, _IOLBF, 0);
	clang = getenv("BPFSCEV_CLANG");
	asm_dir = getenv("BPFSCEV_ASM_TYPES_DIR");
	if (asm_dir && !asm_dir[0])
		asm_dir = NULL;
	if (!clang || !clang[0])
		return check_skip("test_selftest", "no clang (BPFSCEV_CLANG) to compile selftests");
	if (!mkdtemp(tmp))
		return check_skip("test_selftest", "mkdtemp: %s", strerror(errno));
	kernel = kernel_available(why, sizeof(why));
	if (!kernel)
		check_skip_part("loading the selftests: %s", why);
	test_programs();
	test_kernel_finding();
	test_command();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	run(cmd);
	return check_done("test_selftest");
}
