/* bpfscev reduce: minimizes a program while a property holds.  Two forms:
 *   reduce FILE [--prog NAME] PREDICATE... — any program (asm in any syntax, raw bytes, an ELF
 *     program with its maps) while the predicates of triage/predicate.h hold; the result in the
 *     verifier-log syntax, as raw bytes, or as a kernel selftest (triage/selftest.h);
 *   reduce DIR — a saved finding, while the same finding still holds with the current analyzer
 *     (or the kernel, for kernel findings), written next to it as reduced.s / reduced.bin.
 * The reducer itself is triage/reduce.h. */
#include <errno.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "fuzz/replay.h"
#include "triage/finding.h"
#include "oracle/kernel/kernel.h"
#include "triage/predicate.h"
#include "triage/reduce.h"
#include "triage/selftest.h"
#include "util/sbuf.h"

static void reduce_usage(FILE *f)
{
	fprintf(f, "usage: bpfscev reduce FILE [--prog NAME] PREDICATE... [-o OUT] [options]\n"
		   "  Minimizes a program (asm in any supported syntax, raw bytes, or one program of\n"
		   "  an ELF object with its maps) while every PREDICATE holds: whole subprograms,\n"
		   "  loops and branches, dead code, chunks of instructions, helper calls replaced by\n"
		   "  constants, maps and the program type made simpler, constants and registers,\n"
		   "  in rounds until none makes progress; then says whether the result is proved\n"
		   "  1-minimal (no single instruction can be removed).  The predicates must hold\n"
		   "  for FILE itself.  PREDICATE is one of:\n");
	for (size_t k = 0; k < pred_kind_cnt; k++)
		fprintf(f, "    --%s%s%s%*s%s\n", pred_kinds[k].name, pred_kinds[k].arg ? " " : "",
			pred_kinds[k].arg ? pred_kinds[k].arg : "",
			(int)(16 - strlen(pred_kinds[k].name) -
			      (pred_kinds[k].arg ? strlen(pred_kinds[k].arg) + 1 : 0)), "",
			pred_kinds[k].help);
	fprintf(f, "  Options:\n"
		   "    -o OUT          where the result goes (default: FILE's name without its\n"
		   "                    extension + .reduced.s, .reduced.bin or .reduced.c)\n"
		   "    --emit FORM     asm (a data file in the verifier-log syntax, with -- type and\n"
		   "                    -- maps), raw (instruction bytes) or selftest (a kernel\n"
		   "                    verifier_*.c-style test; compile it against triage/selftest/)\n"
		   "    --name NAME     the selftest function's name (default: reduced)\n"
		   "    --type TYPE     load as this program type first (xdp, socket, tc, plain)\n"
		   "    --input HEX     input of test runs and interpreter runs (default 64 zeros)\n"
		   "    --invariants    load with BPF_F_TEST_REG_INVARIANTS (--invariant implies it)\n"
		   "    --runs N        inputs for --refuted (default 48)\n"
		   "    --jobs N        candidates tested at once, each in a child process (default 1)\n"
		   "    --timeout S     seconds per test, then it counts as not interesting\n"
		   "    --budget S      seconds in all; the best program so far is written\n"
		   "    --max-tests N   tests at most (default 20000)\n"
		   "    --no-cache      test candidates seen before again\n"
		   "    --keep PASS     do not run a pass (subprograms, loops, branches, dead, chunks,\n"
		   "                    helpers, maps, type, constants, registers, single); repeatable\n"
		   "    --test-raw      --test gets raw bytes instead of text\n"
		   "    --quiet         no progress line (shown on a terminal, or with --progress)\n"
		   "  Exit: 0 reduced, 2 usage or input error, or the predicates do not hold for FILE.\n\n");
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
	struct replay_opts co;
	unsigned errors;
};

static int still_holds(void *arg, const struct reduce_prog *cand)
{
	struct pred_ctx *p = arg;
	struct replay_verdict v;

	if (replay_check(p->f, cand, &p->co, &v)) {
		p->errors++;
		return 0;
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

static int reduce_dir(int argc, char **argv)
{
	struct reduce_opts ro = { .sz = sizeof(ro) };
	struct pred_ctx pc = { .co = { .sz = sizeof(pc.co), .match = REPLAY_MATCH_CORE,
				       .zero_input = true } };
	struct reduce_stats st;
	struct reduce_prog in = { 0 }, out = { 0 };
	const char *dir = NULL;
	bool quiet = false;
	struct finding f;
	struct diag d;
	char msg[1024], note[256], why[256];
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
	if (replay_needs_kernel(&f) && !kernel_available(why, sizeof(why))) {
		/* every candidate is asked of the kernel (the pipeline's kernel oracle) */
		printf("  skipped: a kernel finding needs the kernel: %s\n", why);
		rc = CLI_USAGE;
		goto out;
	}
	in.insns = f.insns;
	in.len = f.len;
	in.globals = f.globals;
	in.nglobals = f.nglobals;
	err = reduce_run_opts(&out, &in, still_holds, &pc, &ro, &st);
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
		 "in %u tests", st.insns_before, st.slots_before, count_insns(out.insns, out.len), out.len,
		 st.tests);
	err = finding__write_program(&f, dir, "reduced", out.insns, out.len, out.globals,
				     out.nglobals, note);
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
	reduce_prog__free(&out);
	finding__free(&f);
	return rc;
}

struct file_opts {
	const char *file, *prog_name, *out, *emit, *fname;
	struct pred_set ps;
	struct reduce_run_opts ro;
	uint32_t type;
	bool type_set, quiet, progress;
	uint8_t *input;
	size_t input_len;
};

static void file_progress(void *arg, const struct reduce_progress *pr)
{
	static double last;

	(void)arg;
	if (pr->seconds - last < 0.2 && pr->seconds > 0.2)
		return;
	last = pr->seconds;
	fprintf(stderr, "\r  %zu instructions (from %zu), %u tests, %u cached, %.1f s, round %u, "
		"%s\033[K", pr->insns, pr->insns_before, pr->tests, pr->cached, pr->seconds,
		pr->round, pr->pass);
}

static int pass_by_name(const char *s)
{
	for (int p = 0; p < RP_NR; p++)
		if (!strcmp(s, reduce_pass_name((enum reduce_pass_id)p)) ||
		    (p == RP_DEAD && !strcmp(s, "dead")))
			return p;
	return -1;
}

/* The default output: FILE's base name without extension, + .reduced.EXT, in FILE's dir. */
static void default_out(char *buf, size_t n, const char *file, const char *ext)
{
	const char *slash = strrchr(file, '/'), *base = slash ? slash + 1 : file;
	const char *dot = strrchr(base, '.');
	size_t l = dot && dot != base ? (size_t)(dot - file) : strlen(file);

	snprintf(buf, n, "%.*s.reduced.%s", (int)l, file, ext);
}

static int write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	int err = 0;

	if (!f)
		return -errno;
	if (fwrite(data, 1, len, f) != len)
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

static int reduce_file(struct file_opts *fo)
{
	struct ebpf_object *obj = NULL;
	const struct ebpf_prog *prog;
	struct reduce_prog in = { 0 }, res = { 0 };
	struct reduce_stats st;
	struct pred_eval ev = { 0 };
	struct ebpf_object vobj;
	struct ebpf_prog vprog;
	struct sbuf desc = SBUF_INIT, text = SBUF_INIT, note = SBUF_INIT;
	struct diag d;
	char out[4200], why[128];
	const char *emit = fo->emit ? fo->emit : "asm";
	int rc = CLI_USAGE, err;

	if (strcmp(emit, "asm") && strcmp(emit, "raw") && strcmp(emit, "selftest")) {
		fprintf(stderr, "bpfscev reduce: --emit '%s': expected asm, raw or selftest\n", emit);
		return CLI_USAGE;
	}
	if (!fo->ps.n) {
		fprintf(stderr, "bpfscev reduce: no predicate: say what to keep (--rejects, --msg RE, "
			"--test CMD, ...; 'bpfscev reduce --help')\n");
		return CLI_USAGE;
	}
	if (pred_set__needs_kernel(&fo->ps) && !kernel_available(why, sizeof(why))) {
		fprintf(stderr, "bpfscev reduce: the predicates ask the kernel: %s\n", why);
		return CLI_USAGE;
	}
	if (!(obj = cli_open(fo->file)))
		return CLI_USAGE;
	if (fo->prog_name) {
		prog = ebpf_object__find_prog(obj, fo->prog_name);
		if (!prog) {
			fprintf(stderr, "bpfscev reduce: %s: no program '%s' (programs:", fo->file,
				fo->prog_name);
			for (size_t k = 0; k < obj->prog_cnt; k++)
				fprintf(stderr, " %s", obj->progs[k].name);
			fprintf(stderr, ")\n");
			goto out;
		}
	} else if (obj->prog_cnt != 1) {
		fprintf(stderr, "bpfscev reduce: %s holds %zu programs: choose one with --prog NAME "
			"(", fo->file, obj->prog_cnt);
		for (size_t k = 0; k < obj->prog_cnt; k++)
			fprintf(stderr, "%s%s", k ? " " : "", obj->progs[k].name);
		fprintf(stderr, ")\n");
		goto out;
	} else {
		prog = &obj->progs[0];
	}
	if (prog->defect[0]) {
		fprintf(stderr, "bpfscev reduce: %s: program '%s' is not valid: instruction %ld: %s\n",
			fo->file, prog->name, prog->defect_insn, prog->defect);
		goto out;
	}
	in.insns = prog->insns;
	in.len = prog->len;
	in.globals = prog->globals;
	in.nglobals = prog->global_cnt;
	in.maps = obj->maps;
	in.map_cnt = obj->map_cnt;
	in.prog_type = fo->type_set ? fo->type : prog->prog_type;
	fo->ps.o.input = fo->input;
	fo->ps.o.input_len = fo->input_len;
	if (obj->format == EBPF_FMT_RAW && !fo->ps.o.test_raw)
		fo->ps.o.test_raw = true;	/* raw in, raw to the external test */
	pred_set__describe(&fo->ps, &desc);
	if ((fo->progress || !fo->quiet) && (fo->progress || isatty(2))) {
		fo->ro.progress = file_progress;
		fo->ro.progress_arg = fo;
	}
	printf("reducing %s (program '%s', %zu instructions, %zu maps) while %s\n", fo->file,
	       prog->name, reduce_count_insns(in.insns, in.len), in.map_cnt, sbuf_cstr(&desc));
	fflush(stdout);
	diag_clear(&d);
	err = reduce_run(&res, &in, pred_set__test, &fo->ps, &fo->ro, &st, &d);
	if (fo->ro.progress)
		fputs("\r\033[K", stderr);
	if (err == -EINVAL) {
		/* say why the input does not show it */
		struct pred_eval e0;

		pred_view(&vobj, &vprog, &in);
		if (!strcmp(d.msg, "the input does not have the property: nothing to reduce") &&
		    pred_set__eval(&fo->ps, &vobj, &vprog, &e0) != 1)
			fprintf(stderr, "bpfscev reduce: %s: the predicates do not hold for the input "
				"(%s): nothing to reduce\n", fo->file, e0.why);
		else
			fprintf(stderr, "bpfscev reduce: %s: %s\n", fo->file, d.msg);
		pred_eval__free(&e0);
		goto out;
	}
	if (err) {
		fprintf(stderr, "bpfscev reduce: %s\n", d.msg[0] ? d.msg : strerror(-err));
		goto out;
	}
	/* the facts of the result, for the report and the selftest */
	pred_view(&vobj, &vprog, &res);
	if (pred_set__eval(&fo->ps, &vobj, &vprog, &ev) != 1)
		printf("  warning: the result no longer shows it when tested again (%s): "
		       "a flaky predicate?\n", ev.why);
	sbuf_printf(&note, "%s,\nreduced by 'bpfscev reduce' from %zu instructions (%zu slots, "
		    "%zu maps)\nto %zu (%zu slots, %zu maps) in %u tests (%u cached), %u rounds,\n"
		    "keeping: %s\n", fo->file, st.insns_before, st.slots_before, st.maps_before,
		    st.insns_after, st.slots_after, st.maps_after, st.tests, st.cached, st.rounds,
		    sbuf_cstr(&desc));
	if (st.one_minimal)
		sbuf_printf(&note, "1-minimal: proved (no single instruction of the %zu can be removed:\n"
			    "%u removals tested, none keeps it; the others leave no smaller valid "
			    "program)", st.insns_after, st.proof_tests);
	else
		sbuf_printf(&note, "1-minimal: not proved (%s)", st.budget_hit ?
			    "stopped by the budget" : !st.fixpoint ? "no fixpoint" :
			    "tests of the last round failed to run");
	default_out(out, sizeof(out), fo->file, !strcmp(emit, "raw") ? "bin" :
		    !strcmp(emit, "selftest") ? "c" : "s");
	if (fo->out)
		snprintf(out, sizeof(out), "%s", fo->out);
	if (!strcmp(emit, "raw")) {
		sbuf_put(&text, res.insns, res.len * sizeof(*res.insns));
	} else if (!strcmp(emit, "asm")) {
		pred_write_text(&text, &res, sbuf_cstr(&note));
	} else {
		struct selftest_opts so = { .sz = sizeof(so), .name = fo->fname,
					    .comment = sbuf_cstr(&note) };
		char m[512] = "";

		/* the kernel's view of the result, whatever the predicates asked */
		if (!ev.loaded) {
			struct pred_set ks = { .o = fo->ps.o };

			pred_eval__free(&ev);
			memset(&ev, 0, sizeof(ev));
			if (!pred_set__add(&ks, "accepts", NULL, NULL)) {
				(void)pred_set__eval(&ks, &vobj, &vprog, &ev);
				pred_set__free(&ks);
			}
		}
		if (!ev.loaded || ev.load_err) {
			fprintf(stderr, "bpfscev reduce: --emit selftest needs the kernel's verdict "
				"of the result: %s\n", ev.why);
			goto out;
		}
		so.accepted = ev.accepted;
		so.invariants = fo->ps.o.invariants;
		if (!ev.accepted) {
			selftest_msg_of(m, sizeof(m), ev.message, ev.log);
			so.msg = m;
		} else if (!ev.run_err) {
			so.has_retval = true;
			so.retval = (int32_t)ev.retval;
		}
		diag_clear(&d);
		if (selftest_emit(&text, &res, &so, &d)) {
			fprintf(stderr, "bpfscev reduce: --emit selftest: %s\n", d.msg);
			goto out;
		}
	}
	if (text.oom || (err = write_file(out, text.buf, text.len))) {
		fprintf(stderr, "bpfscev reduce: cannot write %s: %s\n", out,
			strerror(text.oom ? ENOMEM : -err));
		goto out;
	}
	printf("  from %zu instructions (%zu slots, %zu maps) to %zu (%zu slots, %zu maps) in %u "
	       "tests (%u cached, %u failed to run), %u rounds, %.1f s%s\n", st.insns_before,
	       st.slots_before, st.maps_before, st.insns_after, st.slots_after, st.maps_after,
	       st.tests, st.cached, st.errors, st.rounds, st.seconds,
	       st.budget_hit ? " (stopped by the budget)" : ", a fixpoint");
	printf("  ");
	for (const char *c = strstr(sbuf_cstr(&note), "1-minimal"); c && *c; c++)
		putchar(*c == '\n' ? ' ' : *c);
	printf("\n");
	printf("  steps kept by pass:");
	for (int p = 0; p < RP_NR; p++)
		if (st.by_pass[p])
			printf(" %s %u", reduce_pass_name((enum reduce_pass_id)p), st.by_pass[p]);
	printf("\n  written to %s\n", out);
	rc = CLI_OK;
out:
	pred_eval__free(&ev);
	reduce_prog__free(&res);
	sbuf_free(&desc);
	sbuf_free(&text);
	sbuf_free(&note);
	ebpf_object__free(obj);
	return rc;
}

int cmd_reduce(int argc, char **argv)
{
	struct file_opts fo = { .ro = { .sz = sizeof(fo.ro) }, .ps = { .o = { .sz = sizeof(fo.ps.o) } } };
	const char *path = NULL;
	struct diag d;
	struct stat sb;
	int rc = CLI_USAGE;

	/* the first operand decides the form */
	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			reduce_usage(stdout);
			return CLI_OK;
		}
	}
	for (int i = 1; i < argc && !path; i++) {
		const struct pred_kind *k;

		if (argv[i][0] != '-') {
			path = argv[i];
			break;
		}
		/* skip an option's argument */
		k = !strncmp(argv[i], "--", 2) ? pred_kind_find(argv[i] + 2) : NULL;
		if ((k && k->arg) || !strcmp(argv[i], "-o") || !strcmp(argv[i], "--prog") ||
		    !strcmp(argv[i], "--emit") || !strcmp(argv[i], "--type") ||
		    !strcmp(argv[i], "--input") || !strcmp(argv[i], "--runs") ||
		    !strcmp(argv[i], "--jobs") || !strcmp(argv[i], "--timeout") ||
		    !strcmp(argv[i], "--budget") || !strcmp(argv[i], "--max-tests") ||
		    !strcmp(argv[i], "--keep") || !strcmp(argv[i], "--name"))
			i++;
	}
	if (!path) {
		reduce_usage(stderr);
		return CLI_USAGE;
	}
	if (!stat(path, &sb) && S_ISDIR(sb.st_mode))
		return reduce_dir(argc, argv);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct pred_kind *k = !strncmp(a, "--", 2) ? pred_kind_find(a + 2) : NULL;
		bool has_val = i + 1 < argc;

		if (k) {
			if (k->arg && !has_val) {
				fprintf(stderr, "bpfscev reduce: %s needs %s\n", a, k->arg);
				goto out;
			}
			diag_clear(&d);
			if (pred_set__add(&fo.ps, k->name, k->arg ? argv[++i] : NULL, &d)) {
				fprintf(stderr, "bpfscev reduce: %s\n", d.msg);
				goto out;
			}
		} else if (!strcmp(a, "-o") && has_val) {
			fo.out = argv[++i];
		} else if (!strcmp(a, "--prog") && has_val) {
			fo.prog_name = argv[++i];
		} else if (!strcmp(a, "--emit") && has_val) {
			fo.emit = argv[++i];
		} else if (!strcmp(a, "--name") && has_val) {
			fo.fname = argv[++i];
			for (const char *c = fo.fname; *c; c++)
				if (!(*c == '_' || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
				      (c > fo.fname && *c >= '0' && *c <= '9'))) {
					fprintf(stderr, "bpfscev reduce: --name '%s' is not a C "
						"identifier\n", fo.fname);
					goto out;
				}
		} else if (!strcmp(a, "--type") && has_val) {
			fo.type = cli_prog_type(argv[++i]);
			if (fo.type == UINT32_MAX) {
				fprintf(stderr, "bpfscev reduce: --type '%s': expected xdp, socket, tc "
					"or plain\n", argv[i]);
				goto out;
			}
			fo.type_set = true;
		} else if (!strcmp(a, "--input") && has_val) {
			diag_clear(&d);
			free(fo.input);
			fo.input = NULL;
			if (ebpf_parse_hex(&fo.input, &fo.input_len, argv[++i], &d)) {
				fprintf(stderr, "bpfscev reduce: --input: col %d: %s\n", d.col, d.msg);
				goto out;
			}
		} else if (!strcmp(a, "--invariants")) {
			fo.ps.o.invariants = true;
		} else if (!strcmp(a, "--runs") && has_val) {
			if (cli_parse_u32("reduce", a, argv[++i], 1, 1000000, &fo.ps.o.runs))
				goto out;
		} else if (!strcmp(a, "--jobs") && has_val) {
			if (cli_parse_u32("reduce", a, argv[++i], 1, 64, &fo.ro.jobs))
				goto out;
		} else if (!strcmp(a, "--timeout") && has_val) {
			if (cli_parse_double("reduce", a, argv[++i], 0.001, 86400, &fo.ro.timeout))
				goto out;
			fo.ps.o.test_timeout = fo.ro.timeout;
		} else if (!strcmp(a, "--budget") && has_val) {
			if (cli_parse_double("reduce", a, argv[++i], 0.001, 1e7, &fo.ro.budget))
				goto out;
		} else if (!strcmp(a, "--max-tests") && has_val) {
			if (cli_parse_u32("reduce", a, argv[++i], 1, UINT32_MAX, &fo.ro.max_tests))
				goto out;
		} else if (!strcmp(a, "--keep") && has_val) {
			int p = pass_by_name(argv[++i]);

			if (p < 0) {
				fprintf(stderr, "bpfscev reduce: --keep '%s': no such pass (subprograms, "
					"loops, branches, dead, chunks, helpers, maps, type, "
					"constants, registers, single)\n", argv[i]);
				goto out;
			}
			fo.ro.skip |= 1u << p;
		} else if (!strcmp(a, "--no-cache")) {
			fo.ro.no_cache = true;
		} else if (!strcmp(a, "--test-raw")) {
			fo.ps.o.test_raw = true;
		} else if (!strcmp(a, "--quiet")) {
			fo.quiet = true;
		} else if (!strcmp(a, "--progress")) {
			fo.progress = true;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "bpfscev reduce: unknown or incomplete option '%s'\n", a);
			reduce_usage(stderr);
			goto out;
		} else if (!fo.file) {
			fo.file = a;
		} else {
			fprintf(stderr, "bpfscev reduce: more than one FILE ('%s', '%s')\n", fo.file, a);
			goto out;
		}
	}
	rc = reduce_file(&fo);
out:
	pred_set__free(&fo.ps);
	free(fo.input);
	return rc;
}
