/* The claims do not depend on whether the verdict is computed: scev_verify's claims are
 * scev_analyze's, range for range and loop for loop.  The last pass records a block's claims
 * either in a run of its own (analyze) or in the verdict's replay of the block from the same
 * state (verify, when the block has no path states: absint.c, verify_paths); a replay that
 * recorded none, or recorded them from another state, fails this test (the campaign, which
 * verifies, would check fewer claims and nothing else would say so).  Generated programs of
 * several mixes: nests, irreducible cycles, subprograms, bpf_loop, iterators, packets, maps,
 * dynptrs made by a callee. */
#include <string.h>

#include "generators/gen.h"
#include "generators/producer.h"
#include "scev/scev.h"
#include "tests/check.h"

static const struct {
	const char *knob;
	uint32_t value;
} mixes[][3] = {
	{ { NULL, 0 } },
	{ { "p_nest", 80 }, { "p_irreducible", 30 } },
	{ { "p_subprog", 60 }, { "p_call_args", 30 } },
	{ { "p_bpf_loop", 60 }, { "p_for_each", 30 } },
	{ { "p_iter_num", 60 }, { "p_may_goto", 30 } },
	{ { "p_pkt", 60 }, { "p_map", 60 } },
	{ { "p_dynptr_sub_make", 60 }, { "p_dynptr_deep", 40 } },
};

static bool range_same(const struct claim_range *a, const struct claim_range *b)
{
	return a->pc == b->pc && a->loc == b->loc && a->is_ptr == b->is_ptr &&
	       a->region == b->region && a->map == b->map && a->maybe_null == b->maybe_null &&
	       a->source == b->source && !memcmp(&a->r, &b->r, sizeof(a->r));
}

/* Whether a and b claim the same; *why the first difference. */
static bool claims_same(const struct claim_prog *a, const struct claim_prog *b, const char **why)
{
	if (a->nranges != b->nranges) {
		*why = "number of range claims";
		return false;
	}
	for (uint32_t k = 0; k < a->nranges; k++)
		if (!range_same(&a->ranges[k], &b->ranges[k])) {
			*why = "a range claim";
			return false;
		}
	if (a->nloops != b->nloops) {
		*why = "number of loops";
		return false;
	}
	for (uint32_t l = 0; l < a->nloops; l++) {
		const struct claim_trip *x = &a->loops[l].trip, *y = &b->loops[l].trip;

		if (a->loops[l].header != b->loops[l].header || x->kind != y->kind ||
		    x->min != y->min || x->max != y->max) {
			*why = "a loop's trip";
			return false;
		}
	}
	return true;
}

int main(void)
{
	uint32_t programs = 0, verified = 0;
	uint64_t ranges = 0;

	for (size_t m = 0; m < sizeof(mixes) / sizeof(mixes[0]); m++) {
		struct gen_knobs k = gen_knobs_default();

		for (int j = 0; j < 3 && mixes[m][j].knob; j++)
			CHECK(!gen_knobs_set(&k, mixes[m][j].knob, mixes[m][j].value), "knob %s",
			      mixes[m][j].knob);
		for (uint64_t seed = 1; seed <= 30; seed++) {
			struct scev_opts o = { .sz = sizeof(o) };
			struct claim_prog ca = { 0 }, cv = { 0 };
			struct gen_program gp = { 0 };
			struct scev_verdict v;
			struct ebpf_prog view;
			struct gen_src src;
			const char *why = "";
			struct diag d;

			gen_src_init_seed(&src, seed * 7919 + m);
			if (gen_program(&gp, &src, &k)) {
				gen_program__free(&gp);
				continue;
			}
			gen_program__prog(&gp, &view, "verify_claims");
			diag_clear(&d);
			CHECK(!scev_analyze(&ca, &view, gp.maps, gp.map_cnt, &o, &d), "mix %zu seed "
			      "%llu: %s", m, (unsigned long long)seed, d.msg);
			CHECK(!scev_verify(&v, &cv, &view, gp.maps, gp.map_cnt, &o, &d), "mix %zu seed "
			      "%llu: %s", m, (unsigned long long)seed, d.msg);
			CHECK(claims_same(&ca, &cv, &why), "mix %zu seed %llu (%s): %s differs between "
			      "analyze (%u ranges) and verify (%u ranges)", m, (unsigned long long)seed,
			      mixes[m][0].knob ? mixes[m][0].knob : "default", why, ca.nranges,
			      cv.nranges);
			programs++;
			verified += v.kind == VERDICT_SAFE;
			ranges += ca.nranges;
			claim_prog__free(&ca);
			claim_prog__free(&cv);
			gen_program__free(&gp);
		}
	}
	/* (the programs must have claims, and most be called safe: the verdict's replays then
	 * run to every block's end) */
	CHECK(programs > 150 && ranges > 10000 && verified > programs / 2,
	      "%u programs, %llu range claims, %u called safe", programs,
	      (unsigned long long)ranges, verified);
	return check_done("test_verify_claims");
}
