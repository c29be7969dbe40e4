/* bpfscev verify: a one-pass safety verdict from the analysis, optionally held against the
 * kernel's own verdict and against execution. */
#include <dirent.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "casefile/casefile.h"
#include "cli/cli.h"
#include "triage/verdict.h"
#include "triage/vtable.h"
#include "util/json.h"

static void verify_usage(FILE *f)
{
	fprintf(f, "usage: bpfscev verify FILE [--prog NAME] [--type TYPE] [--kernel] [--log] [--json]\n"
		   "                      [--unprivileged]\n"
		   "       bpfscev verify FILE|DIR... --table|--csv|--json [--kernel] [--type TYPE]\n"
		   "                      [--default-type TYPE] [--prog NAME] [--unprivileged]\n"
		   "       bpfscev verify --compare BEFORE.csv AFTER.csv [--csv|--json]\n"
		   "  Decides in one pass whether each program is safe: every loop bounded (by its\n"
		   "  trip count, never unrolled), every stack, context, packet and map-value access in\n"
		   "  bounds, no read of an unwritten register (nor stack byte, --unprivileged), no\n"
		   "  recursion, call chains within the kernel's 8 frames and 512 bytes of combined\n"
		   "  stack.  A program called\n"
		   "  safe is also run on many inputs; a memory fault, a kernel limit or more\n"
		   "  instructions than its loops' trip counts allow is a finding.  --kernel loads it\n"
		   "  into the running kernel too and classifies: both-accept, both-reject, improvement\n"
		   "  (called safe, refused by one of the kernel's limits: processed instructions,\n"
		   "  jump complexity, loop detection), rule-gap (called safe, refused for anything\n"
		   "  else: a kernel rule bpfscev does not model, or the kernel's imprecision; a\n"
		   "  finding), regression, or no-load (the kernel could not be asked: a map it\n"
		   "  refuses, a load refused before verification, or a helper this kernel does not\n"
		   "  offer to the type).  Exit 0 safe, 1 unsafe (or a finding), 2 unsupported, a\n"
		   "  program the loader left out (named on stderr) or usage error.\n"
		   "  Several FILEs, a directory (every ELF file below it) or --table/--csv give the\n"
		   "  report: one row per program (object, program, kernel verdict, processed insns,\n"
		   "  verification time, bpfscev verdict, analysis time, class, reason), totals, and\n"
		   "  the kernel-accepted programs bpfscev does not call safe grouped by reason; a\n"
		   "  program the loader left out is a row with verdict error and its reason; --csv\n"
		   "  and --json give the same as CSV (rows only) and JSON.  Exit 0, or 1 when a\n"
		   "  program called safe faulted when run.  --compare reads two saved --csv reports\n"
		   "  and lists the programs whose verdict or class changed, with both totals.\n"
		   "  --type TYPE         analyze and load every program as TYPE (xdp, socket, tc,\n"
		   "                      plain, or a libbpf type name: kprobe, tracepoint, ...)\n"
		   "  --default-type TYPE the same, only for programs whose section names no type\n"
		   "  --unprivileged      the rule of a loader without CAP_PERFMON: a read of stack\n"
		   "                      bytes not written on every path is unsafe, and so are\n"
		   "                      pointers leaked through stores and helpers (a pointer as a\n"
		   "                      number, a spilled one in a helper's memory); with --kernel the\n"
		   "                      kernel is asked as that loader too (a thread holding only\n"
		   "                      CAP_BPF and CAP_NET_ADMIN), and two more classes: unpriv-rule\n"
		   "                      (refused by a rule only it applies and bpfscev does not\n"
		   "                      model: Spectre v1, pointer leaks, pointer comparisons) and\n"
		   "                      unpriv-skip (a tracing type, which needs CAP_PERFMON).  By\n"
		   "                      default the privileged kernel's (root): such a read is\n"
		   "                      allowed and gives an unknown value (the runs of a safe\n"
		   "                      program start every frame with drawn bytes, not zeros)\n");
}

static int read_table(const char *path, struct vtable *t)
{
	size_t len;
	char *text = cli_read_file(path, &len);
	struct diag d;
	char msg[512];

	if (!text)
		return -1;
	diag_clear(&d);
	if (strlen(text) != len || vtable_read_csv(t, text, path, &d)) {
		if (!d.msg[0])
			snprintf(d.msg, sizeof(d.msg), "%s: contains a NUL byte", path);
		diag_format(&d, msg, sizeof(msg));
		fprintf(stderr, "bpfscev verify: %s\n", msg);
		free(text);
		return -1;
	}
	free(text);
	return 0;
}

static int compare_tables(const char *a, const char *b, enum vtable_format f)
{
	struct vtable before, after;
	struct sbuf sb = SBUF_INIT;

	if (read_table(a, &before))
		return CLI_USAGE;
	if (read_table(b, &after)) {
		vtable_free(&before);
		return CLI_USAGE;
	}
	vtable_compare(&sb, &before, &after, f);
	fputs(sbuf_cstr(&sb), stdout);
	sbuf_free(&sb);
	vtable_free(&before);
	vtable_free(&after);
	return CLI_OK;
}

struct paths {
	char **v;
	size_t n, cap;
};

static int paths_add(struct paths *p, const char *s)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 64;
		char **v = realloc(p->v, cap * sizeof(*v));

		if (!v)
			return -1;
		p->v = v;
		p->cap = cap;
	}
	if (!(p->v[p->n] = strdup(s)))
		return -1;
	p->n++;
	return 0;
}

static int path_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_elf_file(const char *path)
{
	unsigned char m[4];
	FILE *f = fopen(path, "rb");
	bool elf = f && fread(m, 1, 4, f) == 4 && !memcmp(m, "\x7f" "ELF", 4);

	if (f)
		fclose(f);
	return elf;
}

/* Every ELF file below dir, depth first; the caller sorts. */
static int walk(struct paths *out, const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d) {
		fprintf(stderr, "bpfscev verify: %s: cannot open the directory\n", dir);
		return -1;
	}
	while ((e = readdir(d))) {
		char path[4096 + 256];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		size_t dl = strlen(dir), nl = strlen(e->d_name);

		if (dl + nl + 2 > sizeof(path))
			continue;
		memcpy(path, dir, dl);
		path[dl] = '/';
		memcpy(path + dl + 1, e->d_name, nl + 1);
		if (stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode) && depth < 16) {
			if (walk(out, path, depth + 1)) {
				closedir(d);
				return -1;
			}
		} else if (S_ISREG(st.st_mode) && is_elf_file(path) && paths_add(out, path)) {
			closedir(d);
			return -1;
		}
	}
	closedir(d);
	return 0;
}

/* The report over every program of every object. */
static int report(struct paths *args, const char *prog, const struct verdict_opts *base,
		  uint32_t default_type, enum vtable_format f)
{
	struct paths files = { 0 };
	struct vtable t = { 0 };
	struct sbuf sb = SBUF_INIT;
	int rc = CLI_OK;

	for (size_t i = 0; i < args->n; i++) {
		struct stat st;

		if (!stat(args->v[i], &st) && S_ISDIR(st.st_mode)) {
			size_t first = files.n;
			char dir[4096];
			size_t l;

			snprintf(dir, sizeof(dir), "%s", args->v[i]);
			l = strlen(dir);
			while (l > 1 && dir[l - 1] == '/')
				dir[--l] = '\0';
			if (walk(&files, dir, 0)) {
				rc = CLI_USAGE;
				goto out;
			}
			if (files.n == first) {
				fprintf(stderr, "bpfscev verify: %s: no ELF object in the directory (text "
					"programs are named one by one)\n", dir);
				rc = CLI_USAGE;
				goto out;
			}
			qsort(files.v + first, files.n - first, sizeof(*files.v), path_cmp);
		} else if (paths_add(&files, args->v[i])) {
			rc = CLI_USAGE;
			goto out;
		}
	}
	for (size_t i = 0; i < files.n; i++) {
		struct ebpf_object *obj = NULL;
		const struct ebpf_prog **progs = NULL;
		struct diag d;
		size_t n = 0;
		char msg[1024];

		diag_clear(&d);
		if (casefile__open_object(&obj, files.v[i], &d)) {
			diag_format(&d, msg, sizeof(msg));
			vtable_add_bad(&t, files.v[i], msg);
			continue;
		}
		if (prog) {
			const struct ebpf_prog *p = ebpf_object__find_prog(obj, prog);

			if (p) {
				progs = malloc(sizeof(*progs));
				if (progs) {
					progs[0] = p;
					n = 1;
				}
			}
		} else if ((progs = malloc((obj->prog_cnt ? obj->prog_cnt : 1) * sizeof(*progs)))) {
			for (n = 0; n < obj->prog_cnt; n++)
				progs[n] = &obj->progs[n];
		}
		for (size_t k = 0; k < n; k++) {
			struct verdict_opts vo = *base;
			struct verdict_report r;

			if (!vo.prog_type && progs[k]->prog_type == 0)
				vo.prog_type = default_type;
			diag_clear(&d);
			if (verdict_compare(&r, obj, progs[k], &vo, &d)) {
				diag_format(&d, msg, sizeof(msg));
				vtable_add_bad(&t, files.v[i], msg);
				snprintf(t.rows[t.n - 1].prog, sizeof(t.rows[0].prog), "%s",
					 progs[k]->name);
				verdict_report__free(&r);
				continue;
			}
			vtable_add(&t, files.v[i], progs[k],
				   vo.prog_type ? vo.prog_type : progs[k]->prog_type,
				   base->prog_type ? "--type" : "--default-type", &r, vo.kernel);
			if (r.faults)
				rc = CLI_FINDING;
			verdict_report__free(&r);
		}
		/* a program the loader left out is a row, not a silent gap */
		for (size_t k = 0; k < obj->skipped_cnt; k++) {
			const struct ebpf_skipped_prog *sp = &obj->skipped[k];

			if ((prog && strcmp(prog, sp->name)) ||
			    vtable_add_bad(&t, files.v[i], sp->reason))
				continue;
			snprintf(t.rows[t.n - 1].prog, sizeof(t.rows[0].prog), "%s", sp->name);
			snprintf(t.rows[t.n - 1].section, sizeof(t.rows[0].section), "%s",
				 sp->section);
		}
		free(progs);
		ebpf_object__free(obj);
	}
	vtable_format(&sb, &t, f);
	fputs(sbuf_cstr(&sb), stdout);
out:
	sbuf_free(&sb);
	vtable_free(&t);
	for (size_t i = 0; i < files.n; i++)
		free(files.v[i]);
	free(files.v);
	return rc;
}

int cmd_verify(int argc, char **argv)
{
	const char *file = NULL, *prog = NULL, *cmp[2] = { NULL, NULL };
	struct verdict_opts vo = { .sz = sizeof(vo) };
	struct paths args = { 0 };
	bool table = false, csv = false, any_dir = false;
	uint32_t default_type = 0;
	const struct ebpf_prog **progs = NULL;
	struct ebpf_object *obj;
	bool json = false, log = false;
	int rc = CLI_OK;
	size_t n = 0;

	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			verify_usage(stdout);
			return CLI_OK;
		} else if (!strcmp(argv[i], "--prog") && i + 1 < argc) {
			prog = argv[++i];
		} else if (!strcmp(argv[i], "--kernel")) {
			vo.kernel = true;
		} else if (!strcmp(argv[i], "--unprivileged")) {
			vo.unprivileged = true;
		} else if (!strcmp(argv[i], "--log")) {
			log = true;
			vo.full_log = true;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--table")) {
			table = true;
		} else if (!strcmp(argv[i], "--csv")) {
			csv = true;
		} else if (!strcmp(argv[i], "--compare") && i + 2 < argc) {
			cmp[0] = argv[++i];
			cmp[1] = argv[++i];
		} else if ((!strcmp(argv[i], "--type") || !strcmp(argv[i], "--default-type")) &&
			   i + 1 < argc) {
			bool dflt = !strcmp(argv[i], "--default-type");
			uint32_t t = cli_prog_type(argv[++i]);

			if (t == UINT32_MAX) {
				fprintf(stderr, "bpfscev verify: unknown %s '%s'\n",
					dflt ? "--default-type" : "--type", argv[i]);
				return CLI_USAGE;
			}
			if (dflt)
				default_type = t;
			else
				vo.prog_type = t;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "bpfscev verify: unknown or incomplete option '%s'\n", argv[i]);
			verify_usage(stderr);
			return CLI_USAGE;
		} else {
			struct stat st;

			if (!file)
				file = argv[i];
			any_dir = any_dir || (!stat(argv[i], &st) && S_ISDIR(st.st_mode));
			if (paths_add(&args, argv[i])) {
				fprintf(stderr, "bpfscev verify: out of memory\n");
				rc = CLI_USAGE;
				goto out_args;
			}
		}
	}
	if (cmp[0]) {
		rc = file ? CLI_USAGE : compare_tables(cmp[0], cmp[1], csv ? VT_CSV : json ? VT_JSON
										       : VT_TEXT);
		if (file)
			fprintf(stderr, "bpfscev verify: --compare takes two saved tables, no FILE\n");
		goto out_args;
	}
	if (!file) {
		verify_usage(stderr);
		rc = CLI_USAGE;
		goto out_args;
	}
	if (table || csv || any_dir || args.n > 1) {
		vo.keep_load_errors = true;
		rc = report(&args, prog, &vo, default_type, csv ? VT_CSV : json ? VT_JSON : VT_TEXT);
		goto out_args;
	}
	for (size_t i = 0; i < args.n; i++)
		free(args.v[i]);
	free(args.v);
	args.v = NULL;
	obj = cli_open(file);
	if (!obj)
		return CLI_USAGE;
	if (cli_select_progs(obj, prog, &progs, &n)) {
		ebpf_object__free(obj);
		return CLI_USAGE;
	}
	if (json)
		printf("{\"programs\": [");
	for (size_t i = 0; i < n; i++) {
		struct verdict_report r;
		struct diag d;
		char msg[1024];

		struct verdict_opts po = vo;

		if (!po.prog_type && progs[i]->prog_type == 0)
			po.prog_type = default_type;
		diag_clear(&d);
		if (verdict_compare(&r, obj, progs[i], &po, &d)) {
			diag_format(&d, msg, sizeof(msg));
			fprintf(stderr, "bpfscev verify: %s: %s\n", progs[i]->name, msg);
			rc = CLI_USAGE;
			break;
		}
		if (json) {
			struct sbuf sb = SBUF_INIT;

			sbuf_printf(&sb, "%s\n  {\"name\": ", i ? "," : "");
			json_put_string(&sb, progs[i]->name);
			sbuf_printf(&sb, ", \"verdict\": \"%s\", \"pc\": %u, \"reason\": ",
				    scev_verdict_name(r.ours.kind), r.ours.pc);
			json_put_string(&sb, r.ours.reason);
			sbuf_printf(&sb, ", \"checks\": %" PRIu64 ", \"runs\": %" PRIu64 ", \"faults\": %"
				    PRIu64, r.ours.checks, r.runs, r.faults);
			sbuf_printf(&sb, ", \"calls\": {\"recursive\": %s",
				    r.ours.acyclic ? "false" : "true");
			if (r.ours.acyclic)
				sbuf_printf(&sb, ", \"max_frames\": %u, \"frame_limit\": %u, "
					    "\"max_stack\": %u, \"stack_limit\": %u", r.ours.max_frames,
					    EBPF_MAX_CALL_DEPTH, r.ours.max_stack, EBPF_STACK_SIZE);
			if (r.ours.acyclic && r.ours.nframes) {
				sbuf_puts(&sb, ", \"stack_depths\": [");
				for (uint16_t f = 0; f < r.ours.nframes; f++)
					sbuf_printf(&sb, "%s%u", f ? ", " : "", r.ours.frame[f]);
				sbuf_putc(&sb, ']');
			}
			sbuf_putc(&sb, '}');
			if (r.ours.kind == VERDICT_SAFE && r.ours.max_insns != UINT64_MAX)
				sbuf_printf(&sb, ", \"max_insns\": %" PRIu64, r.ours.max_insns);
			if (r.ours.kind == VERDICT_SAFE && r.ours.mg_insns)
				sbuf_printf(&sb, ", \"max_insns_may_goto_%u\": %" PRIu64,
					    SCEV_MG_ORACLE_BUDGET, r.ours.mg_insns);
			for (unsigned k = 0; r.ours.kind == VERDICT_SAFE && k < SCEV_MG_MORE; k++)
				if (r.ours.mg_more[k])
					sbuf_printf(&sb, ", \"max_insns_may_goto_%u\": %" PRIu64,
						    scev_mg_more_budget(k), r.ours.mg_more[k]);
			if (r.ours.kind == VERDICT_SAFE && r.ours.ncall_bounds) {
				sbuf_puts(&sb, ", \"call_bounds\": [");
				for (uint16_t k = 0; k < r.ours.ncall_bounds; k++) {
					const struct scev_call_bound *b = &r.ours.call_bound[k];

					sbuf_printf(&sb, "%s{\"start\": %u", k ? ", " : "", b->start);
					if (b->insns != UINT64_MAX)
						sbuf_printf(&sb, ", \"insns\": %" PRIu64, b->insns);
					if (b->insns != UINT64_MAX && b->mg)
						sbuf_printf(&sb, ", \"may_goto_budget_at_most\": %u",
							    SCEV_MG_ORACLE_BUDGET);
					if (b->calls != UINT32_MAX)
						sbuf_printf(&sb, ", \"calls\": %u", b->calls);
					sbuf_putc(&sb, '}');
				}
				sbuf_putc(&sb, ']');
			}
			if (r.ours.kind == VERDICT_SAFE && r.ours.main_own) {
				sbuf_printf(&sb, ", \"main_own\": %" PRIu64, r.ours.main_own);
				if (r.ours.main_own_mg)
					sbuf_printf(&sb, ", \"main_own_may_goto_budget_at_most\": %u",
						    SCEV_MG_ORACLE_BUDGET);
			}
			if (r.faults) {
				sbuf_puts(&sb, ", \"fault\": ");
				json_put_string(&sb, r.fault);
			}
			if (r.cls != VC_NO_KERNEL) {
				sbuf_printf(&sb, ", \"kernel\": {\"accepted\": %s, \"processed\": %ld, "
					    "\"usec\": %ld, \"message\": ", r.kernel_accepted ? "true" : "false",
					    r.kernel_processed, r.kernel_usec);
				json_put_string(&sb, r.kernel_message);
				sbuf_printf(&sb, "}, \"class\": \"%s\"", verdict_class_name(r.cls));
			}
			sbuf_putc(&sb, '}');
			fputs(sbuf_cstr(&sb), stdout);
			sbuf_free(&sb);
		} else {
			printf("%s: %s", progs[i]->name, scev_verdict_name(r.ours.kind));
			if (r.ours.kind != VERDICT_SAFE)
				printf(" at insn %u: %s", r.ours.pc, r.ours.reason);
			printf(" (%" PRIu64 " checks)\n", r.ours.checks);
			if (r.ours.acyclic && r.ours.max_frames > 1)
				printf("  calls: %u frames deep (kernel: %u), %u bytes of stack combined "
				       "(kernel: %u)\n", r.ours.max_frames, EBPF_MAX_CALL_DEPTH,
				       r.ours.max_stack, EBPF_STACK_SIZE);
			if (r.ours.kind == VERDICT_SAFE && r.ours.max_insns != UINT64_MAX)
				printf("  runs: at most %" PRIu64 " instructions\n", r.ours.max_insns);
			else if (r.ours.kind == VERDICT_SAFE && r.ours.mg_insns)
				printf("  runs: ended by may_goto; at most %" PRIu64 " instructions with a "
				       "may_goto budget of %u a frame\n", r.ours.mg_insns,
				       SCEV_MG_ORACLE_BUDGET);
			for (unsigned k = 0; r.ours.kind == VERDICT_SAFE && k < SCEV_MG_MORE; k++)
				if (r.ours.mg_more[k])
					printf("  runs: at most %" PRIu64 " instructions with a may_goto "
					       "budget of %u a frame\n", r.ours.mg_more[k],
					       scev_mg_more_budget(k));
			for (uint16_t k = 0; r.ours.kind == VERDICT_SAFE && k < r.ours.ncall_bounds;
			     k++) {
				const struct scev_call_bound *b = &r.ours.call_bound[k];

				printf("  per call: func@%u", b->start);
				if (b->insns != UINT64_MAX)
					printf(" at most %" PRIu64 " instructions a call", b->insns);
				if (b->insns != UINT64_MAX && b->mg)
					printf(" (at may_goto budgets up to %u a frame)",
					       SCEV_MG_ORACLE_BUDGET);
				if (b->calls != UINT32_MAX)
					printf("%s at most %u calls per helper call",
					       b->insns != UINT64_MAX ? "," : "", b->calls);
				putchar('\n');
			}
			if (r.ours.kind == VERDICT_SAFE && r.ours.main_own) {
				printf("  main: at most %" PRIu64 " instructions of its own (callbacks "
				       "not counted)", r.ours.main_own);
				if (r.ours.main_own_mg)
					printf(" at may_goto budgets up to %u a frame",
					       SCEV_MG_ORACLE_BUDGET);
				putchar('\n');
			}
			if (r.faults)
				printf("  FINDING verdict: called safe but faults when run: %s\n", r.fault);
			if (r.cls != VC_NO_KERNEL) {
				printf("  kernel: %s", r.kernel_accepted ? "accepted" : "rejected");
				if (r.kernel_processed >= 0)
					printf(", %ld insns processed, %ld usec", r.kernel_processed,
					       r.kernel_usec);
				if (!r.kernel_accepted)
					printf(": %s", r.kernel_message);
				printf("\n  class: %s\n", verdict_class_name(r.cls));
				if (r.cls == VC_RULE_GAP)
					printf("  FINDING rule-gap: called safe, and the kernel refuses it "
					       "by none of its limits: a kernel rule bpfscev does not "
					       "model, or the kernel's imprecision (read its log)\n");
				if (log && r.kernel_log)
					fputs(r.kernel_log, stdout);
			} else if (vo.kernel) {
				char why[256] = "";

				printf("  kernel: SKIP: bpf() refused\n");
				(void)why;
			}
		}
		if (r.faults || r.cls == VC_RULE_GAP)
			rc = CLI_FINDING;
		else if (rc != CLI_FINDING && r.ours.kind == VERDICT_UNSAFE)
			rc = CLI_FINDING;
		else if (rc == CLI_OK && r.ours.kind == VERDICT_UNSUPPORTED)
			rc = CLI_USAGE;
		verdict_report__free(&r);
	}
	if (rc == CLI_OK && obj->skipped_cnt && !prog)
		rc = CLI_USAGE;	/* a program left out (cli_open named it) was not judged */
	if (json)
		printf("\n]}\n");
	free(progs);
	ebpf_object__free(obj);
	return rc;
out_args:
	for (size_t i = 0; i < args.n; i++)
		free(args.v[i]);
	free(args.v);
	return rc;
}
