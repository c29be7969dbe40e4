/* The join's packet facts (scev/absint_state.c, pkt_var_join) take two shortcuts: when neither
 * side has a fact, and when both hold the same unguarded facts at the same indices, no two on one
 * base, each base held by a packet pointer on both sides.  Checked on random states (registers:
 * numbers, packet pointers of a few bases, TOP; a cell holding one of them; up to PKT_VARS
 * facts, guarded or not, bases held or not), plain and widening:
 *  - the same facts on both sides: against the whole join, made to run by moving src's facts
 *    to other indices, which changes no result when no two facts share a base (the state, and
 *    the facts in the same order; guarded facts, which the shortcut leaves to the whole join,
 *    as a set: the whole join orders those by src's order);
 *  - no fact: every entry left absent as the whole join writes them ({0, 0, PKT_NO_GUARD, 0}),
 *    whatever bytes dst's absent entries held (st_new's cleared states hold greg 0), and a join
 *    of equal registers and cells saying nothing changed.
 * Each fails when its shortcut is made wrong: facts kept whose base one side no longer holds,
 * guarded facts taken (written unguarded), absent entries left as they were. */
#include <string.h>

#include "scev/absint.h"
#include "tests/check.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t next(void)
{
	return check_rand(&rng);
}

static const uint16_t ids[] = { 0, 0, 5, 9, PKT_META_ID };

static struct aval random_val(void)
{
	struct aval v;

	switch (next() % 4) {
	case 0:
		return aval_top();
	case 1:
		return aval_scalar(range_const(next() % 4));
	case 2:
		return aval_scalar(range_urange(0, next() % 100));
	default:
		v = aval_ptr(REGION_PKT, 0, range_const(next() % 64));
		v.id = ids[next() % 4];
		v.map = v.id ? (uint16_t)(next() % 8) : 0;
		return v;
	}
}

/* A random state: its facts in facts[] (the caller places them). */
static void random_state(struct astate *s, struct acell *cell)
{
	memset(s, 0, sizeof(*s));
	s->live = true;
	for (int r = 0; r < EBPF_NREGS; r++)
		s->regs[r] = random_val();
	s->init = (uint16_t)next();
	fpmask_add(&s->sinit, -(int64_t)(next() % 64), 0);
	s->pkt_min = next() % 32;
	if (next() % 2) {
		*cell = (struct acell){ -8, 8, random_val() };
		s->cells = cell;
		s->n = s->cap = 1;
	}
}

static struct pkt_var random_fact(void)
{
	struct pkt_var f = { ids[next() % 5], (uint16_t)(1 + next() % 40), PKT_NO_GUARD, 0 };

	if (next() % 4 == 0) {
		f.greg = (uint8_t)(next() % EBPF_REG_FP);
		f.gval = (int32_t)(next() % 3);
	}
	return f;
}

static const struct pkt_var absent = { 0, 0, PKT_NO_GUARD, 0 };

static bool fact_eq(const struct pkt_var *a, const struct pkt_var *b)
{
	return a->id == b->id && a->range == b->range && a->greg == b->greg && a->gval == b->gval;
}

/* Fact f is among s's, as often as in t's. */
static int fact_count(const struct astate *s, const struct pkt_var *f)
{
	int n = 0;

	for (int k = 0; k < PKT_VARS; k++)
		n += fact_eq(&s->pkt_var[k], f);
	return n;
}

/* The two results the same: what the join changed, every register, cell and fact (in the same
 * order when in_order; the whole join orders guarded facts by src's order too). */
static void same_result(const struct astate *a, int ra, const struct astate *b, int rb,
			bool in_order, const char *what, int round)
{
	bool facts = true;

	CHECK(ra == rb, "%s, round %d: changed %d, whole join %d", what, round, ra, rb);
	CHECK(!memcmp(a->regs, b->regs, sizeof(a->regs)), "%s, round %d: registers differ", what,
	      round);
	CHECK(a->n == b->n && (!a->n || !memcmp(a->cells, b->cells, a->n * sizeof(*a->cells))),
	      "%s, round %d: cells differ", what, round);
	for (int k = 0; k < PKT_VARS; k++)
		facts = facts && (in_order ? fact_eq(&a->pkt_var[k], &b->pkt_var[k])
					   : fact_count(a, &a->pkt_var[k]) ==
						     fact_count(b, &a->pkt_var[k]));
	CHECK(facts, "%s, round %d: facts differ", what, round);
	CHECK(a->nn.p == b->nn.p && a->nn.g == b->nn.g && a->init == b->init &&
	      a->pkt_min == b->pkt_min, "%s, round %d: other parts differ", what, round);
}

/* dst joined with src, on copies of both (cells in copies of their own). */
static int join_copy(struct astate *out, struct acell *ocell, const struct astate *dst,
		     const struct astate *src, bool widen)
{
	*out = *dst;
	if (dst->n) {
		*ocell = dst->cells[0];
		out->cells = ocell;
	}
	return astate__join(out, src, widen);
}

int main(void)
{
	int shortcut_same = 0, shortcut_none = 0;

	for (int round = 0; round < 20000; round++) {
		struct astate dst, src, src2, a, b;
		struct acell dc, sc, ac, bc;
		bool widen = next() % 2, unguarded;
		int nf = (int)(next() % (PKT_VARS + 1)), ra, rb;
		(void)bc;

		random_state(&dst, &dc);
		if (next() % 2) {
			/* src a copy of dst with some registers changed (the joins a loop makes) */
			src = dst;
			if (dst.n) {
				sc = dc;
				src.cells = &sc;
			}
			for (int r = 0; r < EBPF_NREGS; r++)
				if (next() % 3 == 0)
					src.regs[r] = random_val();
		} else {
			random_state(&src, &sc);
		}
		if (nf == 0) {
			/* no fact: dst's absent entries as st_new leaves them (greg 0) or as
			 * random bytes of an absent fact */
			for (int k = 0; k < PKT_VARS; k++) {
				dst.pkt_var[k] = (struct pkt_var){ 0 };
				if (next() % 2)
					dst.pkt_var[k] = (struct pkt_var){ ids[next() % 5], 0,
									   (uint8_t)(next() % 256),
									   (int32_t)next() };
				src.pkt_var[k] = (struct pkt_var){ 0, 0, (uint8_t)(next() % 256), 0 };
			}
			ra = join_copy(&a, &ac, &dst, &src, widen);
			for (int k = 0; k < PKT_VARS; k++)
				CHECK(fact_eq(&a.pkt_var[k], &absent), "no fact, round %d: entry %d "
				      "not absent", round, k);
			/* (with dst's registers and cells: only the facts could change) */
			src2 = dst;
			memcpy(src2.pkt_var, src.pkt_var, sizeof(src.pkt_var));
			ra = join_copy(&a, &ac, &dst, &src2, widen);
			CHECK(ra == 0, "no fact, round %d: a join of equal values changed", round);
			shortcut_none++;
			continue;
		}
		/* the same facts on both sides, at the same random indices */
		for (int k = 0; k < PKT_VARS; k++)
			dst.pkt_var[k] = (struct pkt_var){ 0, 0, PKT_NO_GUARD, 0 };
		for (int k = 0; k < nf; k++) {
			int at = (int)(next() % PKT_VARS);

			dst.pkt_var[at] = random_fact();
		}
		memcpy(src.pkt_var, dst.pkt_var, sizeof(src.pkt_var));
		ra = join_copy(&a, &ac, &dst, &src, widen);
		/* src's facts rotated to other indices: the whole join */
		src2 = src;
		for (int k = 0; k < PKT_VARS; k++)
			src2.pkt_var[k] = src.pkt_var[(k + 1) % PKT_VARS];
		if (!memcmp(src2.pkt_var, src.pkt_var, sizeof(src.pkt_var)))
			continue;	/* (nothing moved: the same input) */
		{
			bool distinct = true;

			unguarded = true;
			for (int k = 0; k < PKT_VARS; k++) {
				unguarded = unguarded && (!dst.pkt_var[k].range ||
							  dst.pkt_var[k].greg == PKT_NO_GUARD);
				for (int j = 0; j < k; j++)
					distinct = distinct &&
						   !(dst.pkt_var[k].range && dst.pkt_var[j].range &&
						     dst.pkt_var[k].id == dst.pkt_var[j].id);
			}
			if (!distinct)
				continue;	/* (the order of src's facts may matter) */
		}
		rb = join_copy(&b, &bc, &dst, &src2, widen);
		same_result(&a, ra, &b, rb, unguarded, "same facts", round);
		shortcut_same++;
	}
	CHECK(shortcut_same > 1000 && shortcut_none > 1000, "cases: %d same facts, %d no fact",
	      shortcut_same, shortcut_none);
	return check_done("test_pkt_join");
}
