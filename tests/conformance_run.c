/* Runs one bpf_conformance data file through the assembler and the interpreter and checks r0
 * against its "-- result" (one ctest per file, registered in tests/CMakeLists.txt).
 *
 * The file's "-- asm" goes through casefile__open_file (our ubpf-dialect assembler); when the
 * file also has "-- raw" instruction words, the assembler's encoding must be exactly those and
 * they run too and must agree — the suite's own runner prefers them, so both paths are checked.  "-- mem" is the input (r1 = its address,
 * r2 = its length).  The suite's runtime is ubpf's test plugin, whose conventions the env
 * reproduces: helper 5 is "unwind" (returns its argument and, when that is 0, ends the program
 * with r0 = 0), and callx takes a helper id in its register.  The expected value is compared in
 * full; the suite's runner compares only the low 32 bits, so a 64-bit mismatch whose low half
 * agrees is reported as a failure too (we hold ourselves to the file's value).
 *
 * Usage: conformance_run FILE...   Exit 0 when every file passes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/prog.h"
#include "casefile/casefile.h"
#include "oracle/exec/interp.h"

/* ubpf's test helper 5 ("unwind"): returns r1; a 0 result stops the program. */
static int conformance_helper(void *arg, int32_t id, const uint64_t args[5], uint64_t *ret)
{
	(void)arg;
	if (id != 5)
		return -ENOENT;
	*ret = args[0];
	return args[0] == 0 ? INTERP_HELPER_EXIT : 0;
}

/* "0x1122" or "4386": the first non-blank line of the section. */
static int parse_result(const char *text, uint64_t *out)
{
	const char *p = text;
	char *end;

	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	if (!*p)
		return -EINVAL;
	errno = 0;
	*out = strtoull(p, &end, (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) ? 16 : 10);
	if (errno || end == p)
		return -EINVAL;
	return 0;
}

/* "-- raw": one 64-bit word per instruction slot, as the suite's parser reads them. */
static int parse_raw(const char *text, struct bpf_insn **out, size_t *n)
{
	size_t cap = 16, len = 0;
	struct bpf_insn *v = malloc(cap * sizeof(*v));
	const char *p = text;

	if (!v)
		return -ENOMEM;
	for (;;) {
		char *end;
		uint64_t w;

		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (!*p)
			break;
		errno = 0;
		w = strtoull(p, &end, (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) ? 16 : 10);
		if (errno || end == p) {
			free(v);
			return -EINVAL;
		}
		p = end;
		if (len == cap) {
			struct bpf_insn *nv = realloc(v, 2 * cap * sizeof(*v));

			if (!nv) {
				free(v);
				return -ENOMEM;
			}
			v = nv;
			cap *= 2;
		}
		memcpy(&v[len++], &w, sizeof(w));
	}
	*out = v;
	*n = len;
	return 0;
}

/* Runs prog; 0 when r0 matches, else prints why. */
static int run_one(const char *file, const char *what, const struct ebpf_prog *prog,
		   const uint8_t *mem, size_t mem_len, uint64_t expect)
{
	struct interp_code *code = NULL;
	struct interp_result res;
	struct interp_env env;
	uint8_t *input = NULL;
	struct diag d;
	char msg[1024];
	int err;

	diag_clear(&d);
	if ((err = interp_prepare(&code, prog, &d))) {
		diag_format(&d, msg, sizeof(msg));
		fprintf(stderr, "FAIL %s (%s): interp_prepare: %s\n", file, what, msg);
		return -1;
	}
	/* A private copy: the program may write its input. */
	if (mem_len) {
		input = malloc(mem_len);
		if (!input) {
			interp_code__free(code);
			return -1;
		}
		memcpy(input, mem, mem_len);
	}
	memset(&env, 0, sizeof(env));
	env.ctx_kind = INTERP_CTX_PLAIN;
	env.input = input;
	env.input_len = mem_len;
	env.step_budget = 1000000;
	env.helper = conformance_helper;
	env.callx_helper_ids = true;
	err = interp_run(code, &env, &res);
	free(input);
	interp_code__free(code);
	if (err) {
		fprintf(stderr, "FAIL %s (%s): interp_run: %s\n", file, what, strerror(-err));
		return -1;
	}
	if (res.trap != INTERP_OK) {
		fprintf(stderr, "FAIL %s (%s): trap: %s\n", file, what, res.reason);
		return -1;
	}
	if (res.r0 != expect) {
		fprintf(stderr, "FAIL %s (%s): r0 = 0x%" PRIx64 ", expected 0x%" PRIx64 "%s\n",
			file, what, res.r0, expect,
			(uint32_t)res.r0 == (uint32_t)expect ? " (low 32 bits agree)" : "");
		return -1;
	}
	return 0;
}

static int run_file(const char *file)
{
	const struct casefile_section *sec;
	struct casefile *cf = NULL;
	struct ebpf_object *obj, *raw_obj = NULL;
	uint8_t *mem = NULL;
	size_t mem_len = 0;
	uint64_t expect;
	struct diag d;
	char msg[1024];
	int rc = -1;

	diag_clear(&d);
	if (casefile__open_file(&cf, file, &d)) {
		diag_format(&d, msg, sizeof(msg));
		fprintf(stderr, "FAIL %s: %s\n", file, msg);
		return -1;
	}
	obj = cf->obj;
	sec = casefile__section(cf, "result");
	if (!sec || parse_result(sec->text, &expect)) {
		fprintf(stderr, "FAIL %s: no readable '-- result' section\n", file);
		goto out;
	}
	sec = casefile__section(cf, "mem");
	if (sec && ebpf_parse_hex(&mem, &mem_len, sec->text, &d)) {
		diag_format(&d, msg, sizeof(msg));
		fprintf(stderr, "FAIL %s: -- mem: %s\n", file, msg);
		goto out;
	}
	if (run_one(file, "asm", &obj->progs[0], mem, mem_len, expect))
		goto out;
	sec = casefile__section(cf, "raw");
	if (sec) {
		struct bpf_insn *insns = NULL;
		size_t n = 0;

		if (parse_raw(sec->text, &insns, &n)) {
			fprintf(stderr, "FAIL %s: unreadable '-- raw' section\n", file);
			goto out;
		}
		if (n != obj->progs[0].len ||
		    memcmp(insns, obj->progs[0].insns, n * sizeof(*insns))) {
			fprintf(stderr, "FAIL %s: the assembler's encoding differs from -- raw\n",
				file);
			free(insns);
			goto out;
		}
		if (ebpf_object__from_insns(&raw_obj, insns, n, "raw", &d)) {
			diag_format(&d, msg, sizeof(msg));
			fprintf(stderr, "FAIL %s (raw): %s\n", file, msg);
			free(insns);
			goto out;
		}
		free(insns);
		if (run_one(file, "raw", &raw_obj->progs[0], mem, mem_len, expect))
			goto out;
	}
	printf("PASS %s\n", file);
	rc = 0;
out:
	free(mem);
	ebpf_object__free(raw_obj);
	casefile__free(cf);
	return rc;
}

int main(int argc, char **argv)
{
	int failed = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: conformance_run FILE...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++)
		if (run_file(argv[i]))
			failed++;
	if (argc > 2)
		printf("%d of %d passed\n", argc - 1 - failed, argc - 1);
	return failed ? 1 : 0;
}
