/* bpfscev analyze: loops, induction variables, trip counts and ranges, as text or claims JSON. */
#include <bpf/libbpf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "scev/scev.h"

static void analyze_usage(FILE *f)
{
	fprintf(f, "usage: bpfscev analyze FILE [--prog NAME] [--json] [--strategy forget|iterate]\n"
		   "                       [--type xdp|socket|tc|plain] [--no-ranges]\n"
		   "  Finds each loop's induction variables and trip count and the range of every\n"
		   "  register and stack cell inside loops and at their exits, as claims\n"
		   "  (docs/claims.md).  --json prints the claims document the oracles read.\n");
}

uint32_t cli_prog_type(const char *name)
{
	if (!strcmp(name, "xdp"))
		return BPF_PROG_TYPE_XDP;
	if (!strcmp(name, "socket"))
		return BPF_PROG_TYPE_SOCKET_FILTER;
	if (!strcmp(name, "tc"))
		return BPF_PROG_TYPE_SCHED_CLS;
	if (!strcmp(name, "plain"))
		return BPF_PROG_TYPE_UNSPEC;
	/* any name libbpf gives a program type: kprobe, tracepoint, cgroup_skb, sock_ops, ... */
	for (uint32_t t = 1; t < 64; t++) {
		const char *n = libbpf_bpf_prog_type_str((enum bpf_prog_type)t);

		if (n && !strcmp(n, name))
			return t;
	}
	return UINT32_MAX;
}

static void print_text(const struct claim_prog *p)
{
	struct claim_text_buf rb;
	const char *reason;
	char loc[32];

	printf("%s: %u insns, %u loops, %u range claims (%s)\n", p->name, p->insn_count, p->nloops,
	       p->nranges, p->strategy);
	if (p->note[0])
		printf("  note: %s\n", p->note);
	for (uint32_t i = 0; i < p->nloops; i++) {
		const struct claim_loop *l = &p->loops[i];

		printf("  loop %u depth %u%s%s%s%s: trip ", l->header, l->depth,
		       l->irreducible ? " irreducible" : "", l->kind != LOOP_PLAIN ? " " : "",
		       l->kind != LOOP_PLAIN ? claim_loop_kind_name((enum loop_kind)l->kind) : "",
		       claim_loop_kind_callback(l->kind) ? " callback" : "");
		if (l->trip.kind == TRIP_EXACT)
			printf("exact %" PRIu64, l->trip.max);
		else if (l->trip.kind == TRIP_BOUNDED)
			printf("bounded [%" PRIu64 ", %" PRIu64 "]", l->trip.min, l->trip.max);
		else
			printf("unknown");
		if ((reason = claim_trip_reason(&l->trip, &rb))[0])
			printf(" (%s)", reason);
		printf("\n");
		for (uint32_t k = 0; k < l->nivs; k++) {
			const struct claim_iv *iv = &l->ivs[k];

			loc_format(iv->loc, loc, sizeof(loc));
			printf("    iv %s = {", loc);
			if (iv->has_start)
				printf("%" PRIu64, iv->start);
			else
				printf("%s@entry", loc);
			if (iv->width == 32)
				printf(", +, %" PRId32 "} (32-bit)\n", (int32_t)(uint32_t)iv->step);
			else
				printf(", +, %" PRId64 "}\n", (int64_t)iv->step);
		}
	}
}

int cmd_analyze(int argc, char **argv)
{
	const char *file = NULL, *prog = NULL;
	struct scev_opts opts = { .sz = sizeof(opts) };
	const struct ebpf_prog **progs = NULL;
	struct claims claims = { 0 };
	struct ebpf_object *obj;
	bool json = false;
	size_t n = 0;
	int rc = CLI_OK;

	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			analyze_usage(stdout);
			return CLI_OK;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--no-ranges")) {
			opts.no_ranges = true;
		} else if (!strcmp(argv[i], "--prog") && i + 1 < argc) {
			prog = argv[++i];
		} else if (!strcmp(argv[i], "--strategy") && i + 1 < argc) {
			i++;
			if (!strcmp(argv[i], "forget"))
				opts.strategy = SCEV_FORGET;
			else if (!strcmp(argv[i], "iterate"))
				opts.strategy = SCEV_ITERATE;
			else {
				fprintf(stderr, "bpfscev analyze: --strategy is forget or iterate\n");
				return CLI_USAGE;
			}
		} else if (!strcmp(argv[i], "--type") && i + 1 < argc) {
			opts.prog_type = cli_prog_type(argv[++i]);
			if (opts.prog_type == UINT32_MAX) {
				fprintf(stderr, "bpfscev analyze: unknown --type '%s'\n", argv[i]);
				return CLI_USAGE;
			}
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "bpfscev analyze: unknown or incomplete option '%s'\n", argv[i]);
			analyze_usage(stderr);
			return CLI_USAGE;
		} else if (!file) {
			file = argv[i];
		} else {
			fprintf(stderr, "bpfscev analyze: more than one FILE\n");
			return CLI_USAGE;
		}
	}
	if (!file) {
		analyze_usage(stderr);
		return CLI_USAGE;
	}
	obj = cli_open(file);
	if (!obj)
		return CLI_USAGE;
	if (cli_select_progs(obj, prog, &progs, &n)) {
		ebpf_object__free(obj);
		return CLI_USAGE;
	}
	claims.progs = calloc(n ? n : 1, sizeof(*claims.progs));
	if (!claims.progs) {
		rc = CLI_USAGE;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct diag d;
		char msg[1024];

		diag_clear(&d);
		if (scev_analyze(&claims.progs[i], progs[i], obj->maps, obj->map_cnt, &opts, &d)) {
			diag_format(&d, msg, sizeof(msg));
			fprintf(stderr, "bpfscev analyze: %s: %s\n", progs[i]->name, msg);
			rc = CLI_USAGE;
			goto out;
		}
		claims.nprogs++;
	}
	if (json) {
		struct sbuf sb = SBUF_INIT;

		claims_write(&sb, &claims);
		fputs(sbuf_cstr(&sb), stdout);
		sbuf_free(&sb);
	} else {
		for (uint32_t i = 0; i < claims.nprogs; i++)
			print_text(&claims.progs[i]);
	}
out:
	for (uint32_t i = 0; i < claims.nprogs; i++)
		claim_prog__free(&claims.progs[i]);
	free(claims.progs);
	free(progs);
	ebpf_object__free(obj);
	return rc;
}
