/* bpfscev check: runs a program on many inputs and checks every claim about it — the
 * analyzer's, or claims from a file in the documented format (docs/claims.md); with --z3 the Z3
 * oracle also decides each claim for all inputs (proved, refuted, unknown). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "fuzz/pipeline.h"
#include "oracle/exec/check.h"
#include "triage/finding.h"
#include "oracle/z3/smt.h"
#include "scev/scev.h"

/* This command's budgets in the pipeline (fuzz/pipeline.h), kept from before the pipeline was
 * written once: one program checked thoroughly, not many quickly. */
#define CHECK_RUNS 48			/* drawn inputs */
#define CHECK_STEPS 2000000		/* instructions per run */
#define CHECK_Z3_TIMEOUT_MS 2000	/* per query, without a resource limit */
#define CHECK_Z3_REPLAY_STEPS 100000000ull	/* a Z3 model replayed on the interpreter */

static void check_usage(FILE *f)
{
	fprintf(f, "usage: bpfscev check FILE [--prog NAME] [--claims CLAIMS.json] [--runs N]\n"
		   "                     [--seed N] [--input HEX] [--steps N] [--type xdp|socket|tc|plain]\n"
		   "                     [--z3 [--precision] [--timeout MS] [--rlimit N]\n"
		   "                     [--program-rlimit N] [--depth N] [--crashes DIR]]\n"
		   "  Runs each program in the interpreter on many inputs (or the one given) and\n"
		   "  checks every range, induction-variable and trip-count claim: the analyzer's,\n"
		   "  or those in CLAIMS.json.  Exit 0 when none is refuted, 1 when one is.\n"
		   "  --z3         also decide every claim for all inputs with Z3: proved, refuted\n"
		   "               (a counterexample the interpreter confirmed) or unknown (why)\n"
		   "  --precision  with --z3: the tightest true trip counts and ranges, and each\n"
		   "               claim's slack from them (programs whose loops Z3 can unroll)\n"
		   "  --timeout MS with --z3: time limit per solver query (default 2000; 60000\n"
		   "               with a resource limit, which then decides)\n"
		   "  --rlimit N   with --z3: Z3 resource units per query: the same verdicts on\n"
		   "               every machine, however loaded\n"
		   "  --program-rlimit N  with --z3: Z3 resource units for the whole program;\n"
		   "               once spent, the claims left are unknown\n"
		   "  --depth N    with --z3: header executions per loop entry for bounded model\n"
		   "               checking (default 64)\n"
		   "  --crashes DIR with --z3: save its findings there as finding directories\n");
}

static void print_claim(const struct claim_prog *cp, const struct smt_claim_result *r)
{
	char loc[32];

	if (r->kind == SMT_CLAIM_RANGE) {
		const struct claim_range *c = &cp->ranges[r->index];

		loc_format(c->loc, loc, sizeof(loc));
		printf("    range pc %u %s u[%" PRIu64 ", %" PRIu64 "]: ", c->pc, loc, c->r.umin,
		       c->r.umax);
	} else if (r->kind == SMT_CLAIM_TRIP) {
		const struct claim_loop *l = &cp->loops[r->index];

		printf("    trip loop %u %s %" PRIu64 ": ", l->header,
		       l->trip.kind == TRIP_EXACT ? "exactly" : "at most", l->trip.max);
	} else {
		const struct claim_iv *iv = &cp->loops[r->index].ivs[r->iv];

		loc_format(iv->loc, loc, sizeof(loc));
		printf("    iv loop %u %s step %" PRId64 ": ", r->pc, loc, (int64_t)iv->step);
	}
	printf("%s (%s) %.1f ms", smt_verdict_name(r->verdict),
	       r->verdict == SMT_PROVED ? smt_method_name(r->method) : r->reason, r->ms);
	if (r->has_tight && r->kind == SMT_CLAIM_TRIP)
		printf("; tightest %" PRIu64 ", slack %" PRIu64, r->tight_trip, r->slack);
	else if (r->has_tight && r->tight_umin > r->tight_umax)
		printf("; never reached");
	else if (r->has_tight)
		printf("; tightest u[%" PRIu64 ", %" PRIu64 "] s[%" PRId64 ", %" PRId64 "], slack %"
		       PRIu64, r->tight_umin, r->tight_umax, r->tight_smin, r->tight_smax, r->slack);
	printf("\n");
}

/* The Z3 oracle's answer on one program: a line per claim, its findings (saved under crashes
 * when given).  Returns the number of findings. */
static size_t z3_report(const struct ebpf_object *obj, const struct ebpf_prog *prog,
			const struct claim_prog *cp, const struct smt_result *zr,
			const char *crashes)
{
	printf("%s: z3: %u claims: %u proved, %u refuted, %u unknown (%.0f ms, %" PRIu64
	       " queries, %.0f ms in the solver)\n", prog->name, zr->nclaims, zr->proved,
	       zr->refuted, zr->unknown, zr->ms, zr->queries, zr->solver_ms);
	if (zr->note[0])
		printf("  note: %s\n", zr->note);
	for (uint32_t k = 0; k < zr->nclaims; k++)
		print_claim(cp, &zr->claims[k]);
	for (uint32_t k = 0; k < zr->nfindings; k++) {
		const struct check_finding *f = &zr->findings[k];

		printf("  Z3 FINDING %s: %s\n    input:", finding_kind_name(f->kind), f->text);
		for (size_t b = 0; b < f->input_len; b++)
			printf(" %02x", f->input[b]);
		printf("\n");
		if (crashes) {
			struct finding fd = { 0 };
			enum finding_save_result sr;
			char path[512];

			if (!finding__from_check(&fd, f, prog, obj->maps, obj->map_cnt, cp)) {
				snprintf(fd.source, sizeof(fd.source), "z3");
				if (!finding__save(&fd, crashes, NULL, &sr, path, sizeof(path)))
					printf("    saved: %s%s\n", path,
					       sr == FINDING_DUP ? " (already there)" : "");
			}
			finding__free(&fd);
		}
	}
	return zr->nfindings;
}

int cmd_check(int argc, char **argv)
{
	const char *file = NULL, *prog = NULL, *claims_path = NULL, *input_hex = NULL;
	const char *crashes = NULL;
	/* the pipeline with this command's own defaults (fuzz/pipeline.h): CHECK_* below */
	struct pipeline_opts po = { .sz = sizeof(po) };
	struct pipeline_result pr = { 0 };
	const struct ebpf_prog **progs = NULL;
	struct claims *ext = NULL;
	struct ebpf_object *obj = NULL;
	uint8_t *input = NULL;
	size_t n = 0, findings = 0;
	int rc = CLI_OK;

	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			check_usage(stdout);
			return CLI_OK;
		} else if (!strcmp(argv[i], "--prog") && i + 1 < argc) {
			prog = argv[++i];
		} else if (!strcmp(argv[i], "--claims") && i + 1 < argc) {
			claims_path = argv[++i];
		} else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
			if (cli_parse_u32("check", "--runs", argv[++i], 1, 100000000, &po.runs))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			if (cli_parse_u64("check", "--seed", argv[++i], 0, UINT64_MAX, &po.seed))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--steps") && i + 1 < argc) {
			if (cli_parse_u64("check", "--steps", argv[++i], 1, UINT64_MAX,
					  &po.step_budget))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--input") && i + 1 < argc) {
			input_hex = argv[++i];
		} else if (!strcmp(argv[i], "--z3")) {
			po.z3 = true;
		} else if (!strcmp(argv[i], "--precision")) {
			po.z3_precision = true;
		} else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) {
			if (cli_parse_u32("check", "--timeout", argv[++i], 1, 86400000,
					  &po.z3_timeout_ms))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--rlimit") && i + 1 < argc) {
			if (cli_parse_u32("check", "--rlimit", argv[++i], 1, UINT32_MAX,
					  &po.z3_rlimit))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--program-rlimit") && i + 1 < argc) {
			if (cli_parse_u64("check", "--program-rlimit", argv[++i], 1, UINT64_MAX,
					  &po.z3_program_rlimit))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--depth") && i + 1 < argc) {
			if (cli_parse_u32("check", "--depth", argv[++i], 1, 1000000, &po.z3_bmc_depth))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--crashes") && i + 1 < argc) {
			crashes = argv[++i];
		} else if (!strcmp(argv[i], "--type") && i + 1 < argc) {
			po.prog_type = cli_prog_type(argv[++i]);
			if (po.prog_type == UINT32_MAX) {
				fprintf(stderr, "bpfscev check: unknown --type '%s'\n", argv[i]);
				return CLI_USAGE;
			}
			po.ctx_kind = (int)check_ctx_kind(po.prog_type) + 1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "bpfscev check: unknown or incomplete option '%s'\n", argv[i]);
			check_usage(stderr);
			return CLI_USAGE;
		} else if (!file) {
			file = argv[i];
		} else {
			fprintf(stderr, "bpfscev check: more than one FILE\n");
			return CLI_USAGE;
		}
	}
	if (!file) {
		check_usage(stderr);
		return CLI_USAGE;
	}
	obj = cli_open(file);
	if (!obj)
		return CLI_USAGE;
	if (cli_select_progs(obj, prog, &progs, &n)) {
		rc = CLI_USAGE;
		goto out;
	}
	if (input_hex) {
		struct diag d;
		char msg[512];

		diag_clear(&d);
		if (ebpf_parse_hex(&input, &po.fixed_len, input_hex, &d)) {
			diag_set_file(&d, "--input");
			diag_format(&d, msg, sizeof(msg));
			fprintf(stderr, "bpfscev check: %s\n", msg);
			rc = CLI_USAGE;
			goto out;
		}
		po.input = input;
		po.no_drawn = true;	/* exactly one run, on this input */
	}
	if (claims_path) {
		size_t len;
		char *text = cli_read_file(claims_path, &len), msg[1024];
		struct diag d;

		if (!text) {
			rc = CLI_USAGE;
			goto out;
		}
		diag_clear(&d);
		diag_set_file(&d, claims_path);
		if (claims_read(&ext, text, len, &d)) {
			diag_format(&d, msg, sizeof(msg));
			fprintf(stderr, "bpfscev check: %s\n", msg);
			free(text);
			rc = CLI_USAGE;
			goto out;
		}
		free(text);
	}
	/* this command's defaults where they differ from the pipeline's */
	if (!po.runs)
		po.runs = CHECK_RUNS;
	if (!po.step_budget)
		po.step_budget = CHECK_STEPS;
	if (!po.z3_timeout_ms && !po.z3_rlimit && !po.z3_program_rlimit)
		po.z3_timeout_ms = CHECK_Z3_TIMEOUT_MS;
	po.z3_budget_s = -1;	/* none: the whole program is decided */
	po.z3_replay_steps = CHECK_Z3_REPLAY_STEPS;
	po.z3_empty = true;
	for (size_t i = 0; i < n; i++) {
		struct pipeline_subject ps = { .obj = obj, .prog = progs[i] };
		const struct check_result *res;
		struct diag d;
		char msg[1024];
		int err;

		diag_clear(&d);
		if (ext) {
			ps.claims = claims_find_prog(ext, ext->nprogs == 1 ? NULL : progs[i]->name);
			if (!ps.claims) {
				fprintf(stderr, "bpfscev check: %s: no claims for this program\n",
					progs[i]->name);
				continue;
			}
		}
		err = pipeline_run(&pr, &ps, &po, &d);
		if (err && pr.failed && !strcmp(pr.failed, "analyze")) {
			diag_format(&d, msg, sizeof(msg));
			fprintf(stderr, "bpfscev check: %s: %s\n", progs[i]->name, msg);
			rc = CLI_USAGE;
			goto out;
		}
		if (err && !pr.has_exec && !pr.has_exec_fixed) {
			fprintf(stderr, "bpfscev check: %s: %s\n", progs[i]->name, strerror(-err));
			rc = CLI_USAGE;
			goto out;
		}
		res = pr.has_exec_fixed ? &pr.exec_fixed : &pr.exec;
		printf("%s: %u loops, %u range claims, %" PRIu64 " runs (%" PRIu64 " trapped), %"
		       PRIu64 " checks, %u refuted\n", progs[i]->name, pr.cp->nloops,
		       pr.cp->nranges, res->runs, res->traps, res->checks, res->nfindings);
		if (pipeline_stat(pr.stats, "exec_timer_claims") || res->timer_fires)
			printf("  timer callbacks: %" PRIu64 " claims inside them, %" PRIu64 " judged "
			       "(the runs fired %" PRIu64 " callbacks after the program)\n",
			       pipeline_stat(pr.stats, "exec_timer_claims"),
			       pipeline_stat(pr.stats, "exec_timer_judged"), res->timer_fires);
		for (uint32_t k = 0; k < res->nfindings; k++) {
			const struct check_finding *f = &res->findings[k];

			printf("  FINDING %s: %s\n    input:", finding_kind_name(f->kind), f->text);
			for (size_t b = 0; b < f->input_len; b++)
				printf(" %02x", f->input[b]);
			printf("\n");
		}
		findings += res->nfindings;
		if (err) {	/* the Z3 oracle could not run */
			fprintf(stderr, "bpfscev check: %s: z3: %s\n", progs[i]->name,
				strerror(-err));
			rc = CLI_USAGE;
			goto out;
		}
		if (pr.has_z3)
			findings += z3_report(obj, progs[i], pr.cp, &pr.z3, crashes);
		else if (po.z3)	/* (smt_check's -EOPNOTSUPP: said, not silent) */
			printf("%s: z3: not run: its encoding covers the plain, XDP and skb contexts, "
			       "not this program type's read-only one (--type plain judges the program "
			       "as a plain one)\n", progs[i]->name);
	}
	if (findings)
		rc = CLI_FINDING;
out:
	pipeline_result__free(&pr);
	claims__free(ext);
	free(input);
	free(progs);
	ebpf_object__free(obj);
	return rc;
}
