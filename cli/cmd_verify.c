/* bpfscev verify: a one-pass safety verdict from the analysis, optionally held against the
 * kernel's own verdict and against execution. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "triage/verdict.h"
#include "util/json.h"

static void verify_usage(FILE *f)
{
	fprintf(f, "usage: bpfscev verify FILE [--prog NAME] [--type xdp|socket|tc|plain] [--kernel]\n"
		   "                      [--log] [--json]\n"
		   "  Decides in one pass whether each program is safe: every loop bounded (by its\n"
		   "  trip count, never unrolled), every stack, context, packet and map-value access in\n"
		   "  bounds, no read of an unwritten register or stack byte, no recursion, call chains\n"
		   "  within the kernel's 8 frames and 512 bytes of combined stack.  A program called\n"
		   "  safe is also run on many inputs; a memory fault, a kernel limit or more\n"
		   "  instructions than its loops' trip counts allow is a finding.  --kernel loads it\n"
		   "  into the running kernel too and classifies: both-accept, both-reject, improvement,\n"
		   "  regression.  Exit 0 safe, 1 unsafe (or a finding), 2 unsupported or usage error.\n");
}

int cmd_verify(int argc, char **argv)
{
	const char *file = NULL, *prog = NULL;
	struct verdict_opts vo = { .sz = sizeof(vo) };
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
		} else if (!strcmp(argv[i], "--log")) {
			log = true;
			vo.full_log = true;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--type") && i + 1 < argc) {
			vo.prog_type = cli_prog_type(argv[++i]);
			if (vo.prog_type == UINT32_MAX) {
				fprintf(stderr, "bpfscev verify: unknown --type '%s'\n", argv[i]);
				return CLI_USAGE;
			}
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "bpfscev verify: unknown or incomplete option '%s'\n", argv[i]);
			verify_usage(stderr);
			return CLI_USAGE;
		} else if (!file) {
			file = argv[i];
		} else {
			fprintf(stderr, "bpfscev verify: more than one FILE\n");
			return CLI_USAGE;
		}
	}
	if (!file) {
		verify_usage(stderr);
		return CLI_USAGE;
	}
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

		diag_clear(&d);
		if (verdict_compare(&r, obj, progs[i], &vo, &d)) {
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
			sbuf_putc(&sb, '}');
			if (r.ours.kind == VERDICT_SAFE && r.ours.max_insns != UINT64_MAX)
				sbuf_printf(&sb, ", \"max_insns\": %" PRIu64, r.ours.max_insns);
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
				if (log && r.kernel_log)
					fputs(r.kernel_log, stdout);
			} else if (vo.kernel) {
				char why[256] = "";

				printf("  kernel: SKIP: bpf() refused\n");
				(void)why;
			}
		}
		if (r.faults)
			rc = CLI_FINDING;
		else if (rc != CLI_FINDING && r.ours.kind == VERDICT_UNSAFE)
			rc = CLI_FINDING;
		else if (rc == CLI_OK && r.ours.kind == VERDICT_UNSUPPORTED)
			rc = CLI_USAGE;
		verdict_report__free(&r);
	}
	if (json)
		printf("\n]}\n");
	free(progs);
	ebpf_object__free(obj);
	return rc;
}
