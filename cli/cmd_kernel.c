/* bpfscev kernel: asks the running kernel about each program: the verifier's verdict, message and
 * statistics (and its log), then, for an accepted program, a test run whose r0 is the last line.
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "oracle/kernel.h"
#include "util/json.h"
#include "util/sbuf.h"

static void kernel_usage(FILE *f)
{
	fprintf(f, "usage: bpfscev kernel FILE [--prog NAME] [--type TYPE] [--input HEX] [--log]\n"
		   "                      [--invariants] [--repeat N] [--json]\n"
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
		   "  Exit: 0 all accepted, 1 a program was rejected, 2 usage/input error or bpf()\n"
		   "  unavailable (one SKIP line).\n");
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

int cmd_kernel(int argc, char **argv)
{
	const char *file = NULL, *prog = NULL, *type_arg = NULL, *input = NULL;
	bool json = false, show_log = false;
	uint32_t type = 0, flags = 0, repeat = 1;
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
		} else if (!strcmp(argv[i], "--prog") && i + 1 < argc) {
			prog = argv[++i];
		} else if (!strcmp(argv[i], "--type") && i + 1 < argc) {
			type_arg = argv[++i];
		} else if (!strcmp(argv[i], "--input") && i + 1 < argc) {
			input = argv[++i];
		} else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
			char *end;
			unsigned long r = strtoul(argv[++i], &end, 0);

			if (*end || r == 0 || r > UINT32_MAX) {
				fprintf(stderr, "bpfscev kernel: --repeat needs a count 1..%u\n",
					UINT32_MAX);
				return CLI_USAGE;
			}
			repeat = (uint32_t)r;
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
	if (!file) {
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
	out_buf = malloc(data_len + 4096);
	if (!out_buf) {
		fprintf(stderr, "bpfscev kernel: out of memory\n");
		rc = CLI_USAGE;
		goto out;
	}
	if (json)
		sbuf_puts(&js, "{\"programs\": [");
	for (size_t k = 0; k < n; k++) {
		struct kernel_prog_opts ko = { .sz = sizeof(ko), .prog_type = type,
					       .prog_flags = flags };
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
			fprintf(stderr, "bpfscev kernel: %s: test run: %s\n", progs[k]->name, run_err);
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
