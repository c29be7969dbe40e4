/* bpfscev kernel: asks the running kernel about each program: the verifier's verdict, message and
 * statistics (and its log), then, for an accepted program, a test run whose r0 is the last line.
 * Three other modes: --compare (the verifier's cost beside bpfscev's analysis time), --claims
 * (the verifier's log as claims, JSON for `bpfscev check --claims`) and --diff (the kernel
 * differential of oracle/kernel/kdiff.h: claims against the interpreter, r0 and packet against
 * BPF_PROG_TEST_RUN; findings saved and reduced).
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "oracle/kernel/kdiff.h"
#include "triage/kfinding.h"
#include "oracle/kernel/kernel.h"
#include "oracle/kernel/klog.h"
#include "scev/scev.h"
#include "util/clock.h"
#include "util/json.h"
#include "util/sbuf.h"

static void kernel_usage(FILE *f)
{
	fprintf(f, "usage: bpfscev kernel FILE [--prog NAME] [--type TYPE] [--input HEX] [--log]\n"
		   "                      [--invariants] [--repeat N] [--json]\n"
		   "       bpfscev kernel FILE --compare [--prog NAME] [--type TYPE] [--json]\n"
		   "       bpfscev kernel FILE --claims [--prog NAME] [--type TYPE]\n"
		   "       bpfscev kernel FILE --diff [--prog NAME] [--type TYPE] [--input HEX]\n"
		   "                      [--runs N] [--seed N] [--save DIR [--reduce]]\n"
		   "  Loads each program into the running kernel (maps created as the object\n"
		   "  defines them) and reports the verifier's verdict, its last message, processed\n"
		   "  instructions, states and verification time; an accepted program is then run\n"
		   "  with BPF_PROG_TEST_RUN and r0 (unsigned decimal) is the last line.\n"
		   "  --type TYPE    load as this program type (socket, xdp, tc, sched_act, kprobe,\n"
		   "                 tracepoint, cgroup_skb, ... or any libbpf type name); default:\n"
		   "                 the section's type, socket filter when unknown\n"
		   "  --input HEX    packet (or context for non-packet types); default 64 zero bytes\n"
		   "  --log          print the full verifier log (level 2 with statistics)\n"
		   "  --invariants   load with BPF_F_TEST_REG_INVARIANTS\n"
		   "  --repeat N     run N times (the duration is the mean)\n"
		   "  --json         one JSON object per program in {\"programs\": [...]}\n"
		   "  --compare      one row per program: the verifier's verdict, processed\n"
		   "                 instructions and verification time (log at statistics level,\n"
		   "                 median of 3 loads when quick) beside bpfscev's analysis time\n"
		   "                 (median of repeated runs) and their ratio\n"
		   "  --claims       the verifier's level-2 log read as claims (oracle/kernel/klog.h), as the\n"
		   "                 JSON `bpfscev check --claims` reads\n"
		   "  --diff         load with BPF_F_TEST_REG_INVARIANTS, check the log's claims on\n"
		   "                 --runs inputs (default 48) in the interpreter, and compare r0\n"
		   "                 and the packet with BPF_PROG_TEST_RUN on --input; one verdict\n"
		   "                 line per program.  --save DIR writes kernel findings as finding\n"
		   "                 directories, --reduce also shrinks each (every candidate is\n"
		   "                 loaded into the kernel) into reduced.s beside prog.s\n"
		   "  Exit: 0 all accepted (--diff: nothing found), 1 a program was rejected (--diff:\n"
		   "  a finding), 2 usage/input error or bpf() unavailable (one SKIP line).\n");
}

static int type_by_name(const char *s, uint32_t *type)
{
	static const struct {
		const char *alias;
		uint32_t type;
	} aliases[] = {
		{ "socket", BPF_PROG_TYPE_SOCKET_FILTER },
		{ "tc", BPF_PROG_TYPE_SCHED_CLS },
		{ "classifier", BPF_PROG_TYPE_SCHED_CLS },
		{ "action", BPF_PROG_TYPE_SCHED_ACT },
		{ "sockops", BPF_PROG_TYPE_SOCK_OPS },
		{ "tp", BPF_PROG_TYPE_TRACEPOINT },
		{ "raw_tp", BPF_PROG_TYPE_RAW_TRACEPOINT },
	};

	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(s, aliases[i].alias)) {
			*type = aliases[i].type;
			return 0;
		}
	for (uint32_t t = 1; t < 64; t++) {
		const char *name = libbpf_bpf_prog_type_str((enum bpf_prog_type)t);

		if (name && !strcmp(name, s)) {
			*type = t;
			return 0;
		}
	}
	return -ENOENT;
}

static const char *type_name(uint32_t t)
{
	const char *s = libbpf_bpf_prog_type_str((enum bpf_prog_type)t);

	return s ? s : "unknown";
}

static void json_field_long(struct sbuf *sb, const char *key, long v)
{
	sbuf_printf(sb, ", \"%s\": ", key);
	if (v < 0)
		sbuf_puts(sb, "null");
	else
		sbuf_printf(sb, "%ld", v);
}


static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* bpfscev's analysis time: the median of runs repeated for about 0.2 s (3 to 101 runs). */
static int analysis_time(double *us, uint32_t *nranges, const struct ebpf_object *obj,
			 const struct ebpf_prog *prog, uint32_t type, struct diag *d)
{
	struct scev_opts so = { .sz = sizeof(so), .prog_type = type };
	double t[101], spent = 0;
	int n = 0;

	while (n < 101 && (n < 3 || spent < 2e5)) {
		struct claim_prog cp;
		double t0 = wall_s();
		int err = scev_analyze(&cp, prog, obj->maps, obj->map_cnt, &so, d);

		t[n] = 1e6 * (wall_s() - t0);
		if (err)
			return err;
		*nranges = cp.nranges;
		claim_prog__free(&cp);
		spent += t[n++];
	}
	qsort(t, (size_t)n, sizeof(t[0]), cmp_double);
	*us = t[n / 2];
	return 0;
}

/* The verifier's cost: statistics-level log (a level-2 log costs more than the walk), the
 * median of three loads when one takes under 0.1 s. */
static int kernel_cost(struct kernel_prog **out, double *usec, const struct ebpf_object *obj,
		       const struct ebpf_prog *prog, uint32_t type, uint32_t flags, struct diag *d)
{
	struct kernel_prog_opts ko = { .sz = sizeof(ko), .prog_type = type, .prog_flags = flags,
				       .log_level = 4, .log_size = 1 << 20, .log_max = 1 << 20 };
	double t[3];
	int n = 0, err;

	*out = NULL;
	do {
		struct kernel_prog *kp;

		if ((err = kernel_prog__load(&kp, obj, prog, &ko, d)))
			break;
		t[n++] = (double)kp->verification_usec;
		kernel_prog__free(*out);
		*out = kp;
	} while (n < 3 && (*out)->verification_usec >= 0 && (*out)->verification_usec < 100000);
	if (err) {
		kernel_prog__free(*out);
		*out = NULL;
		return err;
	}
	qsort(t, (size_t)n, sizeof(t[0]), cmp_double);
	*usec = t[n / 2];
	return 0;
}

static int run_compare(const struct ebpf_object *obj, const struct ebpf_prog **progs, size_t n,
		       uint32_t type, uint32_t flags, bool json, const char *file)
{
	struct sbuf js = SBUF_INIT;
	int rc = CLI_OK;

	if (json)
		sbuf_puts(&js, "{\"programs\": [");
	else
		printf("%-28s %-22s %10s %12s %12s %10s\n", "program", "kernel", "processed",
		       "kernel_us", "bpfscev_us", "ratio");
	for (size_t k = 0; k < n; k++) {
		struct kernel_prog *kp = NULL;
		double kus = -1, sus = -1;
		uint32_t nranges = 0;
		char verdict[64], msg[1024];
		struct diag d;

		diag_clear(&d);
		if (kernel_cost(&kp, &kus, obj, progs[k], type, flags, &d)) {
			diag_set_file(&d, file);
			diag_format(&d, msg, sizeof(msg));
			fprintf(stderr, "bpfscev kernel: %s: %s\n", progs[k]->name, msg);
			rc = CLI_USAGE;
			continue;
		}
		diag_clear(&d);
		if (analysis_time(&sus, &nranges, obj, progs[k], type ? type : kp->prog_type, &d)) {
			fprintf(stderr, "bpfscev kernel: %s: program '%s': analysis failed: %s\n",
				file, progs[k]->name, d.msg);
			sus = -1;
		}
		if (kp->accepted)
			snprintf(verdict, sizeof(verdict), "accepted");
		else
			snprintf(verdict, sizeof(verdict), "rejected (%s)",
				 kp->err == E2BIG ? "E2BIG" : kp->err == EACCES ? "EACCES" :
				 kp->err == EINVAL ? "EINVAL" : strerror(kp->err));
		if (!kp->accepted && rc == CLI_OK)
			rc = CLI_FINDING;
		if (json) {
			sbuf_puts(&js, k ? ",\n  {" : "\n  {");
			sbuf_puts(&js, "\"name\": ");
			json_put_string(&js, progs[k]->name);
			sbuf_printf(&js, ", \"accepted\": %s, \"errno\": %d, \"message\": ",
				    kp->accepted ? "true" : "false", kp->err);
			json_put_string(&js, kp->message);
			json_field_long(&js, "processed", kp->processed);
			sbuf_printf(&js, ", \"kernel_usec\": %.1f, \"bpfscev_usec\": %.2f, "
				    "\"claims\": %u}", kus, sus, nranges);
		} else {
			char ratio[32] = "-";

			if (kus >= 0 && sus > 0)
				snprintf(ratio, sizeof(ratio), "%.1fx", kus / sus);
			printf("%-28.28s %-22s %10ld %12.0f %12.1f %10s\n", progs[k]->name, verdict,
			       kp->processed, kus, sus, ratio);
		}
		kernel_prog__free(kp);
	}
	if (json) {
		sbuf_puts(&js, "\n]}\n");
		fputs(sbuf_cstr(&js), stdout);
	}
	sbuf_free(&js);
	return rc;
}

static int run_claims(const struct ebpf_object *obj, const struct ebpf_prog **progs, size_t n,
		      uint32_t type, const char *file)
{
	struct claims all = { 0 };
	struct sbuf sb = SBUF_INIT;
	int rc = CLI_OK;

	all.progs = calloc(n ? n : 1, sizeof(*all.progs));
	if (!all.progs) {
		fprintf(stderr, "bpfscev kernel: out of memory\n");
		return CLI_USAGE;
	}
	for (size_t k = 0; k < n; k++) {
		struct kdiff_opts o = { .sz = sizeof(o), .prog_type = type };
		struct klog_claim_stats st;
		bool accepted = false;
		char msg[1024];
		struct diag d;

		diag_clear(&d);
		if (kdiff_kernel_claims(&all.progs[all.nprogs], &accepted, obj, progs[k], &o, &st,
					&d)) {
			diag_set_file(&d, file);
			diag_format(&d, msg, sizeof(msg));
			fprintf(stderr, "bpfscev kernel: %s: %s\n", progs[k]->name, msg);
			rc = CLI_USAGE;
			continue;
		}
		fprintf(stderr, "bpfscev kernel: %s: %s; %s\n", progs[k]->name,
			accepted ? "accepted" : "rejected", all.progs[all.nprogs].note);
		if (!accepted && rc == CLI_OK)
			rc = CLI_FINDING;
		all.nprogs++;
	}
	claims_write(&sb, &all);
	fputs(sbuf_cstr(&sb), stdout);
	sbuf_free(&sb);
	for (uint32_t i = 0; i < all.nprogs; i++)
		claim_prog__free(&all.progs[i]);
	free(all.progs);
	return rc;
}

static int run_diff(const struct ebpf_object *obj, const struct ebpf_prog **progs, size_t n,
		    uint32_t type, const uint8_t *input, size_t input_len, uint32_t runs,
		    uint64_t seed, const char *save, bool reduce, const char *file)
{
	int rc = CLI_OK;

	for (size_t k = 0; k < n; k++) {
		struct kdiff_opts o = { .sz = sizeof(o), .prog_type = type, .input = input,
					.input_len = input_len, .check_runs = runs, .seed = seed };
		struct kdiff_result res;
		char msg[1024];
		struct diag d;

		diag_clear(&d);
		if (kdiff_run(&res, obj, progs[k], &o, &d)) {
			diag_set_file(&d, file);
			diag_format(&d, msg, sizeof(msg));
			fprintf(stderr, "bpfscev kernel: %s: %s\n", progs[k]->name, msg);
			rc = CLI_USAGE;
			continue;
		}
		printf("%s: %s: %s\n", progs[k]->name, kdiff_kind_name(res.kind), res.text);
		if (res.log_warnings)
			printf("  the log had %u lines it did not understand; the first: %s\n",
			       res.log_warnings, res.log_warning);
		if (res.kind >= KDIFF_INVARIANT) {
			struct finding f;
			enum finding_save_result sr;
			char path[4096];

			if (rc == CLI_OK)
				rc = CLI_FINDING;
			if (save && !kdiff_finding(&f, &res, obj, progs[k])) {
				if (finding__save(&f, save, NULL, &sr, path, sizeof(path))) {
					fprintf(stderr, "bpfscev kernel: cannot save under %s\n", save);
					rc = CLI_USAGE;
				} else {
					printf("  %s %s\n", sr == FINDING_NEW ? "saved" : "already saved",
					       path);
				}
				if (reduce && sr == FINDING_NEW) {
					struct reduce_prog small;

					diag_clear(&d);
					if (kdiff_reduce(&small, &f, &o, 0, &d)) {
						fprintf(stderr, "bpfscev kernel: reduce: %s\n", d.msg);
					} else {
						finding__write_program(&f, path, "reduced", small.insns,
								       small.len, small.globals,
								       small.nglobals,
								       "reduced by bpfscev kernel "
								       "--diff --reduce");
						printf("  reduced from %zu to %zu slots: %s/reduced.s\n",
						       f.len, small.len, path);
					}
					reduce_prog__free(&small);
				}
				finding__free(&f);
			}
		}
		kdiff_result__free(&res);
	}
	return rc;
}

int cmd_kernel(int argc, char **argv)
{
	const char *file = NULL, *prog = NULL, *type_arg = NULL, *input = NULL;
	bool json = false, show_log = false, compare = false, claims = false, diff = false;
	bool reduce = false;
	const char *save = NULL;
	uint32_t type = 0, flags = 0, repeat = 1, runs = 0;
	uint64_t seed = 1;
	const struct ebpf_prog **progs = NULL;
	struct ebpf_object *obj = NULL;
	uint8_t *data = NULL, *out_buf = NULL;
	struct sbuf js = SBUF_INIT;
	size_t n = 0, data_len = 0;
	char why[256];
	int rc = CLI_OK;

	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			kernel_usage(stdout);
			return CLI_OK;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--log")) {
			show_log = true;
		} else if (!strcmp(argv[i], "--invariants")) {
			flags |= BPF_F_TEST_REG_INVARIANTS;
		} else if (!strcmp(argv[i], "--compare")) {
			compare = true;
		} else if (!strcmp(argv[i], "--claims")) {
			claims = true;
		} else if (!strcmp(argv[i], "--diff")) {
			diff = true;
		} else if (!strcmp(argv[i], "--reduce")) {
			reduce = true;
		} else if (!strcmp(argv[i], "--save") && i + 1 < argc) {
			save = argv[++i];
		} else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
			if (cli_parse_u32("kernel", argv[i], argv[i + 1], 1, 1000000, &runs))
				return CLI_USAGE;
			i++;
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			if (cli_parse_u64("kernel", argv[i], argv[i + 1], 0, UINT64_MAX, &seed))
				return CLI_USAGE;
			i++;
		} else if (!strcmp(argv[i], "--prog") && i + 1 < argc) {
			prog = argv[++i];
		} else if (!strcmp(argv[i], "--type") && i + 1 < argc) {
			type_arg = argv[++i];
		} else if (!strcmp(argv[i], "--input") && i + 1 < argc) {
			input = argv[++i];
		} else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
			if (cli_parse_u32("kernel", "--repeat", argv[++i], 1, UINT32_MAX, &repeat))
				return CLI_USAGE;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "bpfscev kernel: unknown or incomplete option '%s'\n",
				argv[i]);
			kernel_usage(stderr);
			return CLI_USAGE;
		} else if (!file) {
			file = argv[i];
		} else {
			fprintf(stderr, "bpfscev kernel: more than one FILE ('%s')\n", argv[i]);
			return CLI_USAGE;
		}
	}
	if (!file || compare + claims + diff > 1 || ((save || reduce) && !diff) ||
	    (reduce && !save)) {
		if (file)
			fprintf(stderr, "bpfscev kernel: --compare, --claims and --diff exclude each "
				"other; --save goes with --diff, --reduce with --save\n");
		kernel_usage(stderr);
		return CLI_USAGE;
	}
	if (type_arg && type_by_name(type_arg, &type)) {
		fprintf(stderr, "bpfscev kernel: unknown program type '%s'\n", type_arg);
		return CLI_USAGE;
	}
	if (input) {
		struct diag d;
		char msg[1024];

		diag_clear(&d);
		diag_set_file(&d, "--input");
		if (ebpf_parse_hex(&data, &data_len, input, &d)) {
			diag_format(&d, msg, sizeof(msg));
			fprintf(stderr, "bpfscev kernel: %s\n", msg);
			return CLI_USAGE;
		}
	}
	if (!kernel_available(why, sizeof(why))) {
		printf("SKIP: %s\n", why);
		rc = CLI_USAGE;
		goto out;
	}
	obj = cli_open(file);
	if (!obj) {
		rc = CLI_USAGE;
		goto out;
	}
	if (obj->notes)
		fprintf(stderr, "bpfscev kernel: %s: notes from loading:\n%s", file, obj->notes);
	if (cli_select_progs(obj, prog, &progs, &n)) {
		rc = CLI_USAGE;
		goto out;
	}
	if (compare || claims || diff) {
		rc = compare ? run_compare(obj, progs, n, type, flags, json, file) :
		     claims ? run_claims(obj, progs, n, type, file) :
			      run_diff(obj, progs, n, type, data, data_len, runs, seed, save, reduce,
				       file);
		goto out;
	}
	out_buf = malloc(data_len + 4096);
	if (!out_buf) {
		fprintf(stderr, "bpfscev kernel: out of memory\n");
		rc = CLI_USAGE;
		goto out;
	}
	if (json)
		sbuf_puts(&js, "{\"programs\": [");
	for (size_t k = 0; k < n; k++) {
		/* The verdict, message and statistics need only the statistics level; the
		 * level-2 walk costs seconds and hundreds of MB on a program that reaches the
		 * verifier's limit, so it is asked for only when it is printed. */
		struct kernel_prog_opts ko = { .sz = sizeof(ko), .prog_type = type,
					       .prog_flags = flags,
					       .log_level = show_log ? 0 : 4,
					       .log_size = show_log ? 0 : 1 << 20 };
		struct kernel_run_opts ro = { .sz = sizeof(ro), .repeat = repeat,
					      .data_out = out_buf,
					      .data_size_out = data_len + 4096 };
		struct kernel_run_result res;
		struct kernel_prog *kp = NULL;
		bool ran = false;
		char run_err[768] = "";
		struct diag d;

		diag_clear(&d);
		if (kernel_prog__load(&kp, obj, progs[k], &ko, &d)) {
			char msg[1024];

			diag_set_file(&d, file);
			diag_format(&d, msg, sizeof(msg));
			fprintf(stderr, "bpfscev kernel: %s: %s\n", progs[k]->name, msg);
			rc = CLI_USAGE;
			continue;	/* the others may not need what failed here */
		}
		if (kp->accepted) {
			/* The input is the packet for packet programs, else the context. */
			bool packet = kp->prog_type == BPF_PROG_TYPE_SOCKET_FILTER ||
				      kp->prog_type == BPF_PROG_TYPE_XDP ||
				      kp->prog_type == BPF_PROG_TYPE_SCHED_CLS ||
				      kp->prog_type == BPF_PROG_TYPE_SCHED_ACT ||
				      kp->prog_type == BPF_PROG_TYPE_CGROUP_SKB ||
				      kp->prog_type == BPF_PROG_TYPE_LWT_IN ||
				      kp->prog_type == BPF_PROG_TYPE_LWT_OUT ||
				      kp->prog_type == BPF_PROG_TYPE_LWT_XMIT ||
				      kp->prog_type == BPF_PROG_TYPE_FLOW_DISSECTOR;

			if (data && packet) {
				ro.data_in = data;
				ro.data_size_in = data_len;
			} else if (data) {
				ro.ctx_in = data;
				ro.ctx_size_in = data_len;
			}
			diag_clear(&d);
			if (kernel_prog__test_run(kp, &ro, &res, &d))
				snprintf(run_err, sizeof(run_err), "%s", d.msg);
			else
				ran = true;
		} else if (rc == CLI_OK) {
			rc = CLI_FINDING;
		}
		if (json) {
			sbuf_puts(&js, k ? ",\n  {" : "\n  {");
			sbuf_puts(&js, "\"name\": ");
			json_put_string(&js, progs[k]->name);
			sbuf_puts(&js, ", \"section\": ");
			json_put_string(&js, progs[k]->section);
			sbuf_puts(&js, ", \"type\": ");
			json_put_string(&js, type_name(kp->prog_type));
			sbuf_printf(&js, ", \"accepted\": %s, \"errno\": %d, \"message\": ",
				    kp->accepted ? "true" : "false", kp->err);
			json_put_string(&js, kp->message);
			json_field_long(&js, "processed", kp->processed);
			json_field_long(&js, "total_states", kp->total_states);
			json_field_long(&js, "peak_states", kp->peak_states);
			json_field_long(&js, "verification_usec", kp->verification_usec);
			if (ran)
				sbuf_printf(&js, ", \"r0\": %" PRIu32 ", \"duration_ns\": %" PRIu32
					    ", \"data_out_len\": %zu", res.retval, res.duration_ns,
					    res.data_size_out);
			else if (run_err[0]) {
				sbuf_puts(&js, ", \"run_error\": ");
				json_put_string(&js, run_err);
			}
			if (show_log) {
				sbuf_printf(&js, ", \"log_truncated\": %s, \"log\": ",
					    kp->log_truncated ? "true" : "false");
				json_put_string(&js, kp->log);
			}
			sbuf_putc(&js, '}');
		} else {
			printf("%s (section '%s', %s): %s", progs[k]->name,
			       progs[k]->section[0] ? progs[k]->section : "-",
			       type_name(kp->prog_type), kp->accepted ? "accepted" : "rejected");
			if (!kp->accepted)
				printf(" (%s)", strerror(kp->err));
			printf("\n");
			if (show_log) {
				if (kp->log_truncated)
					printf("--- verifier log (truncated: the tail) ---\n");
				else
					printf("--- verifier log ---\n");
				fputs(kp->log, stdout);
				if (kp->log_len && kp->log[kp->log_len - 1] != '\n')
					putchar('\n');
				printf("--- end of log ---\n");
			}
			printf("  message: %s\n", kp->message[0] ? kp->message : "-");
			if (kp->processed >= 0)
				printf("  processed %ld insns, %ld states (peak %ld), verification "
				       "time %ld usec\n", kp->processed, kp->total_states,
				       kp->peak_states, kp->verification_usec);
			if (ran) {
				printf("  test run: %zu bytes out, %" PRIu32 " ns per run\n",
				       res.data_size_out, res.duration_ns);
				printf("%" PRIu32 "\n", res.retval);
			}
		}
		if (run_err[0]) {
			fprintf(stderr, "bpfscev kernel: %s: program '%s': test run: %s\n", file,
				progs[k]->name, run_err);
			/* a type the kernel cannot run is a fact, not an input error */
			if (!strstr(run_err, "ENOTSUPP") && rc == CLI_OK)
				rc = CLI_USAGE;
		}
		kernel_prog__free(kp);
	}
	if (json) {
		sbuf_puts(&js, "\n]}\n");
		fputs(sbuf_cstr(&js), stdout);
	}
out:
	sbuf_free(&js);
	free(progs);
	free(out_buf);
	free(data);
	ebpf_object__free(obj);
	return rc;
}
