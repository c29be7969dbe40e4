/* bpfscev reduce: shrinks a saved finding's program — instructions, then constants and
 * registers, to a fixpoint — while the same finding still holds with the current analyzer,
 * and writes the result next to the original as reduced.s / reduced.bin. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "triage/finding.h"
#include "oracle/kernel/kdiff.h"
#include "triage/kfinding.h"
#include "oracle/kernel/kernel.h"
#include "triage/reduce.h"

static void reduce_usage(FILE *f)
{
	fprintf(f, "usage: bpfscev reduce DIR [--max-tests N] [--timeout S] [--quiet]\n"
		   "  Minimizes the program of the finding in DIR by delta debugging: chunks of\n"
		   "  instructions, then single ones (jumps re-targeted, LD_IMM64 kept whole, a final\n"
		   "  exit kept), then constants towards 0 and registers towards r0 — keeping each\n"
		   "  step only while the current analyzer and the oracle still show the same kind of\n"
		   "  finding on the same kind of claim (the core signature), on the saved input or\n"
		   "  the all-zero one.  Writes DIR/reduced.s and DIR/reduced.bin ('bpfscev replay\n"
		   "  DIR --reduced' checks them) and prints the sizes before and after.\n"
		   "  --max-tests N  predicate evaluations at most (default 20000)\n"
		   "  --timeout S    analyzer time limit per test for crash findings (default 5)\n"
		   "  --quiet        no progress line\n");
}

struct pred_ctx {
	const struct finding *f;
	struct finding_check_opts co;
	unsigned errors;
};

static bool still_holds(void *arg, const struct bpf_insn *insns, size_t len)
{
	struct pred_ctx *p = arg;
	struct finding_verdict v;

	if (finding__check(p->f, insns, len, &p->co, &v)) {
		p->errors++;
		return false;
	}
	return v.holds;
}

static void progress(void *arg, const struct bpf_insn *insns, size_t len, unsigned tests)
{
	(void)insns;
	(void)arg;
	fprintf(stderr, "\r  %zu slots after %u tests\033[K", len, tests);
}

static size_t count_insns(const struct bpf_insn *insns, size_t len)
{
	size_t n = 0;

	for (size_t pc = 0; pc < len; pc += ebpf_insn_slots(&insns[pc]))
		n++;
	return n;
}

int cmd_reduce(int argc, char **argv)
{
	struct reduce_opts ro = { .sz = sizeof(ro) };
	struct pred_ctx pc = { .co = { .sz = sizeof(pc.co), .match = FINDING_MATCH_CORE,
				       .zero_input = true } };
	struct reduce_stats st;
	struct bpf_insn *out = NULL;
	const char *dir = NULL;
	bool quiet = false;
	struct finding f;
	size_t out_len = 0;
	struct diag d;
	char msg[1024], note[256];
	int err, rc = CLI_OK;

	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			reduce_usage(stdout);
			return CLI_OK;
		} else if (!strcmp(argv[i], "--max-tests") && i + 1 < argc) {
			if (cli_parse_u32("reduce", "--max-tests", argv[++i], 1, UINT32_MAX,
					  &ro.max_tests))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) {
			if (cli_parse_double("reduce", "--timeout", argv[++i], 0.001, 86400,
					     &pc.co.timeout))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--quiet")) {
			quiet = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "bpfscev reduce: unknown or incomplete option '%s'\n", argv[i]);
			reduce_usage(stderr);
			return CLI_USAGE;
		} else if (!dir) {
			dir = argv[i];
		} else {
			fprintf(stderr, "bpfscev reduce: more than one DIR\n");
			return CLI_USAGE;
		}
	}
	if (!dir) {
		reduce_usage(stderr);
		return CLI_USAGE;
	}
	if (finding__load(&f, dir, &d)) {
		diag_format(&d, msg, sizeof(msg));
		fprintf(stderr, "bpfscev reduce: %s\n", msg);
		return CLI_USAGE;
	}
	pc.f = &f;
	if (!quiet && isatty(2)) {
		ro.progress = progress;
		ro.progress_arg = &pc;
	}
	printf("reducing %s-%016llx: %s\n", finding_kind_name(f.kind),
	       (unsigned long long)f.sig.full, f.text);
	if (f.kind == FIND_KERNEL) {
		/* every candidate is asked of the kernel (oracle/kernel/kdiff.h) */
		struct kdiff_opts ko = { .sz = sizeof(ko), .prog_type = f.prog_type,
					 .input = f.input_len ? f.input : NULL,
					 .input_len = f.input_len };
		char why[256];

		if (!kernel_available(why, sizeof(why))) {
			printf("  skipped: a kernel finding needs the kernel: %s\n", why);
			rc = CLI_USAGE;
			goto out;
		}
		diag_clear(&d);
		if (kdiff_reduce(&out, &out_len, &f, &ko, ro.max_tests, &d)) {
			fprintf(stderr, "bpfscev reduce: %s\n", d.msg);
			rc = CLI_USAGE;
			goto out;
		}
		snprintf(note, sizeof(note), "reduced by the kernel from %zu slots to %zu", f.len,
			 out_len);
		if ((err = finding__write_program(&f, dir, "reduced", out, out_len, note))) {
			fprintf(stderr, "bpfscev reduce: %s: cannot write reduced.s/reduced.bin: %s\n",
				dir, strerror(-err));
			rc = CLI_USAGE;
			goto out;
		}
		printf("  %s (%s/reduced.s, reduced.bin)\n", note, dir);
		goto out;
	}
	err = oracle_reduce(&out, &out_len, f.insns, f.len, still_holds, &pc, &ro, &st);
	if (ro.progress)
		fputs("\r\033[K", stderr);
	if (err == -EINVAL) {
		printf("  the finding does not hold for its own program with the current analyzer: "
		       "nothing to reduce ('bpfscev replay %s' tells more)\n", dir);
		rc = CLI_OK;
		goto out;
	}
	if (err) {
		fprintf(stderr, "bpfscev reduce: %s\n", strerror(-err));
		rc = CLI_USAGE;
		goto out;
	}
	snprintf(note, sizeof(note), "reduced from %zu instructions (%zu slots) to %zu (%zu slots) "
		 "in %u tests", st.insns_before, st.slots_before, count_insns(out, out_len), out_len,
		 st.tests);
	err = finding__write_program(&f, dir, "reduced", out, out_len, note);
	if (err) {
		fprintf(stderr, "bpfscev reduce: %s: cannot write reduced.s/reduced.bin: %s\n", dir,
			strerror(-err));
		rc = CLI_USAGE;
		goto out;
	}
	printf("  %s%s\n  before: %zu instructions, %zu slots\n  after:  %zu instructions, %zu "
	       "slots (%s/reduced.s, reduced.bin)\n", note,
	       st.budget_hit ? " (stopped at --max-tests before the fixpoint)" : ", a fixpoint",
	       st.insns_before, st.slots_before, st.insns_after, st.slots_after, dir);
	if (pc.errors)
		printf("  %u tests failed to run (counted as not showing the finding)\n", pc.errors);
out:
	free(out);
	finding__free(&f);
	return rc;
}
