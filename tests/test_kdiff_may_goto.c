/* The kernel differential on runs that spend a may_goto budget (issue 15): this kernel's x86-64
 * JIT times may_goto (a count of 0xffff refilled until 250 ms passed), the interpreter counts
 * 2^23 iterations a frame, so such runs were never compared.  kdiff now runs the interpreter to
 * the end of the count-based budget (with the campaign's step budget of 10^6, which this test
 * uses: the run is made again with 2^28 steps) and compares a run whose result (trap, r0, packet, maps) is the
 * same under budgets of 0xffff and 5 * 2^16 + 1 (kdiff.h, may_goto_free).  Checked against the
 * running kernel:
 *  - corpus may_goto_spent_result: r0 = 7 and a map element = 1, written only after the loop's
 *    only exit, the may_goto: compared and agrees; a forged byte of the interpreter's map is reported as a difference;
 *  - a loop counting its iterations into r0: its result depends on the budget, not compared
 *    (nondeterministic, may_goto_spent without may_goto_free).
 * Without bpf() the test skips.
 */
#include <string.h>

#include "casefile/casefile.h"
#include "oracle/kernel/kdiff.h"
#include "oracle/kernel/kernel.h"
#include "tests/check.h"

#define SPENT_CASE "corpus/cases/may_goto_spent_result.case"

/* r0 = the number of iterations the budget allowed (low 32 bits) */
#define COUNTS                                                                                  \
	"-- asm\n"                                                                              \
	"r0 = 0\n"                                                                              \
	"r1 = 0\n"                                                                              \
	"l: may_goto out\n"                                                                     \
	"r1 += 1\n"                                                                             \
	"r1 &= 0xffffff\n"                                                                      \
	"goto l\n"                                                                              \
	"out: r0 = r1\n"                                                                        \
	"exit\n"                                                                                \
	"-- type\nxdp\n"

static unsigned forged;

static void forge(void *arg, uint32_t map, uint8_t *values, size_t len)
{
	(void)arg;
	if (map == 0 && len) {
		values[0] ^= 0x40;
		forged++;
	}
}

static void run(const char *name, struct casefile *cf, uint64_t steps, bool forge_it,
		struct kdiff_result *res)
{
	uint8_t pkt[64] = { 0 };
	struct kdiff_opts ko = { .sz = sizeof(ko), .input = pkt, .input_len = sizeof(pkt),
				 .check_runs = 4, .step_budget = steps };
	struct diag d;
	int err;

	if (forge_it)
		ko.forge_map = forge;
	diag_clear(&d);
	err = kdiff_run(res, cf->obj, &cf->obj->progs[0], &ko, &d);
	CHECK(err == 0, "%s: kdiff: %s", name, d.msg);
	if (err)
		memset(res, 0, sizeof(*res));
	CHECK(res->accepted && res->ran, "%s: %s", name, res->message);
}

static void spent_result(void)
{
	struct casefile *cf = NULL;
	struct kdiff_result res;
	struct diag d;
	/* the campaign's step budget (the compared run made again with 2^28; the claims' runs
	 * stay cut, which keeps the test short) */
	static const uint64_t steps[] = { 1000000 };

	diag_clear(&d);
	CHECK(casefile__open_file(&cf, SPENT_CASE, &d) == 0, "%s: %s", SPENT_CASE, d.msg);
	if (!cf)
		return;
	for (size_t k = 0; k < sizeof(steps) / sizeof(steps[0]); k++) {
		run(SPENT_CASE, cf, steps[k], false, &res);
		CHECK(res.kind == KDIFF_AGREE, "%s, steps %lu: %s: %s", SPENT_CASE,
		      (unsigned long)steps[k], kdiff_kind_name(res.kind), res.text);
		CHECK(res.may_goto_spent && res.may_goto_free && !res.nondeterministic,
		      "%s, steps %lu: spent %d, free %d, nondeterministic %d: %s", SPENT_CASE,
		      (unsigned long)steps[k], res.may_goto_spent, res.may_goto_free,
		      res.nondeterministic, res.text);
		CHECK(res.same_retval && res.kernel_retval == 7 && res.interp_r0 == 7,
		      "%s: kernel r0 %u, interpreter %lu", SPENT_CASE, res.kernel_retval,
		      (unsigned long)res.interp_r0);
		CHECK_EQ_U64(res.maps_compared, 1, SPENT_CASE);
		CHECK(strstr(res.text, "a may_goto budget spent"), "%s: %s", SPENT_CASE, res.text);
		kdiff_result__free(&res);
	}
	run("spent, forged", cf, 1000000, true, &res);
	CHECK(res.kind == KDIFF_MAP && strstr(res.text, "map 0 'm'"), "spent, forged: %s: %s",
	      kdiff_kind_name(res.kind), res.text);
	CHECK(forged >= 1, "the forge was not called");
	kdiff_result__free(&res);
	casefile__free(cf);
}

static void counts(void)
{
	struct casefile *cf = NULL;
	struct kdiff_result res;
	struct diag d;

	diag_clear(&d);
	CHECK(casefile__open_mem(&cf, COUNTS, strlen(COUNTS), "counts", &d) == 0, "counts: %s",
	      d.msg);
	if (!cf)
		return;
	run("counts", cf, 1000000, false, &res);
	CHECK(res.kind == KDIFF_AGREE && res.nondeterministic && res.may_goto_spent &&
	      !res.may_goto_free, "counts: %s: %s (nondeterministic %d, spent %d, free %d)",
	      kdiff_kind_name(res.kind), res.text, res.nondeterministic, res.may_goto_spent,
	      res.may_goto_free);
	CHECK(strstr(res.text, "depends on may_goto's budget"), "counts: %s", res.text);
	kdiff_result__free(&res);
	casefile__free(cf);
}

int main(void)
{
	char why[256];

	if (!kernel_available(why, sizeof(why)))
		return check_skip("test_kdiff_may_goto", "%s", why);
	spent_result();
	counts();
	printf("test_kdiff_may_goto: runs that spend a may_goto budget compared with the kernel's "
	       "when their result does not depend on it\n");
	return check_done("test_kdiff_may_goto");
}
