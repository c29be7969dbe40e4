/* Fuzz target "pipeline": bytes → the structure-aware generator → the analyzer → the concrete
 * oracle; any claim the oracle refutes aborts with a readable report.
 *
 * The bytes are the generator's choices (generators/producer.h byte mode): every string decodes
 * to a valid loop program, a one-byte mutation changes one decision, and the bytes left after
 * the program become its packet and helper results, so the fuzzer steers the shapes and the
 * input that meets a bound.  Each program is analyzed with both strategies and each claim set is
 * checked on that input plus two from the oracle's own sequence (all-zero, patterns, boundary
 * words), chosen by a hash of the bytes — nothing is kept between calls.  Work is bounded so one
 * input takes about a millisecond: programs of at most max_insns instructions, and runs of
 * FUZZ_STEPS instructions (FUZZ_STEPS_HUGE for programs the generator marks huge or possibly
 * endless, which the oracle then checks up to the budget).
 *
 * On a refuted claim the report gives the finding's signature line ("UNSOUND <kind>-<hash>
 * <signature>") and its core ("UNSOUND-CORE <kind>-<hash> <core>", what fuzz/run deduplicates
 * and minimizes by), the claim and the observation, the program in
 * kernel syntax and the input.  With BPFSCEV_FUZZ_FINDINGS=DIR in the environment the finding is
 * also saved as DIR/<kind>-<hash>/ (triage/finding.h), ready for `bpfscev replay` and
 * `bpfscev reduce`; that is how fuzz/run turns a minimized crash input into a reduced program.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/asm.h"
#include "fuzz/campaign.h"
#include "fuzz/pipeline.h"
#include "fuzz/targets/fuzz_check.h"
#include "fuzz/targets/fuzz_pipeline.h"
#include "generators/gen.h"
#include "oracle/exec/check.h"
#include "triage/finding.h"
#include "scev/scev.h"

#define FUZZ_STEPS FUZZ_PIPELINE_STEPS
#define FUZZ_STEPS_HUGE 4000	/* per run of a huge or possibly endless program */
#define FUZZ_RUNS 2		/* oracle-chosen inputs per claim set, besides the fuzzer's */

static void report(const struct gen_program *gp, const struct ebpf_prog *view,
		   const struct claim_prog *cp, const struct check_finding *cf)
{
	struct sbuf sb = SBUF_INIT;
	struct finding f;
	char dir[64] = "?";
	const char *save = getenv("BPFSCEV_FUZZ_FINDINGS");
	int err;

	err = finding__from_check(&f, cf, view, gp->maps, gp->map_cnt, cp);
	if (!err) {
		snprintf(f.source, sizeof(f.source), "fuzz-pipeline");
		finding_dir_name(&f, dir, sizeof(dir));
	}
	fprintf(stderr, "\n==== bpfscev fuzz_pipeline: a claim is refuted ====\n");
	fprintf(stderr, "UNSOUND %s %s\n", dir, err ? finding_kind_name(cf->kind) : f.sig.text);
	/* what fuzz/run deduplicates and minimizes by: the kind and the core signature (the
	 * claim's kind and source, not where in this program it sits) */
	if (!err)
		fprintf(stderr, "UNSOUND-CORE %s-%016llx %s\n", finding_kind_name(cf->kind),
			(unsigned long long)f.sig.core, f.sig.core_text);
	fprintf(stderr, "strategy: %s\n", cp->strategy);
	fprintf(stderr, "finding: %s\n", cf->text);
	fprintf(stderr, "program (%zu slots, %zu loops meant by the generator, flags %#llx):\n",
		view->len, gp->nloops, (unsigned long long)gp->flags);
	ebpf_disasm(&sb, view->insns, view->len, EBPF_DISASM_PC);
	fputs(sbuf_cstr(&sb), stderr);
	fuzz_hexdump(stderr, "input", cf->input, cf->input_len);
	fuzz_hexdump(stderr, "helper", cf->helper_data, cf->helper_len);
	if (!err && save && *save) {
		struct finding_save_opts so = { .sz = sizeof(so) };
		enum finding_save_result res;
		char path[4096];
		int serr = finding__save(&f, save, &so, &res, path, sizeof(path));

		if (serr)
			fprintf(stderr, "could not save the finding under %s: %s\n", save,
				strerror(-serr));
		else
			fprintf(stderr, "saved: %s\n", path);
	}
	fflush(stderr);
	sbuf_free(&sb);
	if (!err)
		finding__free(&f);
}

/* Aborts with a report on the first refuted claim of res. */
static void check(const struct gen_program *gp, const struct ebpf_prog *view,
		  const struct claim_prog *cp, const struct check_result *res)
{
	if (res->nfindings) {
		report(gp, view, cp, &res->findings[0]);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum scev_strategy strategies[] = { SCEV_FORGET, SCEV_ITERATE };
	struct gen_knobs knobs = fuzz_pipeline_knobs();
	struct pipeline_result first = { 0 }, again = { 0 };
	struct gen_src src;
	uint64_t h = fuzz_hash(data, size);
	int err;

	gen_src_init_bytes(&src, data, size);
	for (size_t s = 0; s < sizeof(strategies) / sizeof(strategies[0]); s++) {
		/* generated once, judged under each strategy */
		struct pipeline_subject ps = { .src = s ? NULL : &src, .knobs = &knobs,
					       .generated = s ? &first.gp : NULL,
					       .name = "fuzz_pipeline" };
		/* the fuzzer's own packet and helper results, and two of the oracle's inputs,
		 * where input-read bounds meet their extremes */
		struct pipeline_opts po = { .sz = sizeof(po), .strategy = strategies[s],
					    .seed = h, .runs = FUZZ_RUNS, .step_budget = FUZZ_STEPS,
					    .step_budget_huge = FUZZ_STEPS_HUGE,
					    .input_len = GEN_INPUT_LEN, .first_only = true,
					    .first_input = (uint32_t)(h % FUZZ_INPUT_CYCLE),
					    .generated_input = true };
		struct pipeline_result *r = s ? &again : &first;
		struct diag d;

		diag_clear(&d);
		err = pipeline_run(r, &ps, &po, &d);
		CHECK(!r->gen_err, "the generator must turn every byte string into a program: %s",
		      strerror(-r->gen_err));
		CHECK(!err || !r->failed || strcmp(r->failed, "analyze"),
		      "scev_analyze failed on a generated program: %s", d.msg);
		CHECK(!err, "oracle_check failed: %s", strerror(-err));
		/* the fuzzer's input first: its finding is the one reported */
		check(&first.gp, &r->view, r->cp, &r->exec_fixed);
		check(&first.gp, &r->view, r->cp, &r->exec);
	}
	pipeline_result__free(&again);
	pipeline_result__free(&first);
	return 0;
}
