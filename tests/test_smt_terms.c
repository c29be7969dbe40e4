/* The Z3 oracle's term layer (oracle/z3/smt_term.h): the two shortcuts the machine encoding
 * takes to keep its terms small, held against Z3's own semantics on random terms.
 *
 *  1. sx_select at a numeral index walks through the stores at numeral indexes and into both
 *     arms of array if-then-elses, and remembers what it answered until sx_release (smt.c:
 *     sel_walk).  Its answer must equal the plain select at an index variable that equals the
 *     numeral: "v = k and select(a, v) != sx_select(a, k)" unsatisfiable, for random arrays
 *     made of constant and variable arrays, stores at numeral and variable indexes and merges,
 *     read in random order, with releases between them (the cache emptied).
 *  2. sx_ranges bounds a bit-vector term by intervals (smt.c: ranges), which smt_mach.c's
 *     inside() uses to leave out the regions an address cannot lie in.  Every value the term can
 *     take must lie in one of them: "t outside every interval" unsatisfiable, for random terms
 *     of numerals, variables, additions, if-then-elses, zero extensions, masks, shifts,
 *     products and remainders.  The share of terms it bounds at all is printed and must not
 *     be small (the check would hold vacuously).
 * Run in parts (`--part K/N`, tests/check.h), every part builds every term from the same random
 * stream and asks Z3 about its share of the cases (the Z3 checks are the test's time).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/z3/smt_term.h"
#include "tests/check.h"

#define TIMEOUT_MS 60000u

static uint64_t rng_state = 0x7e57a11ce5ull;

static uint64_t rnd(void)
{
	return check_rand(&rng_state);
}

/* ---- 1. reads at numeral indexes ---- */

#define NARR 24

static void test_select(unsigned cases)
{
	struct sx *c;
	unsigned checked = 0, mine = 0;

	CHECK(sx_new(&c) == 0, "sx_new");
	for (unsigned t = 0; t < cases && !sx_failed(c); t++) {
		size_t mark = sx_mark(c);
		sxt arr[NARR];
		unsigned n = 0;

		arr[n++] = sx_mem_const(c, (uint8_t)rnd());
		arr[n++] = sx_fresh_mem(c, "m");
		while (n < NARR) {
			sxt a = arr[rnd() % n], b = arr[rnd() % n];
			unsigned op = rnd() % 8;

			if (op < 4)	/* a store at a numeral index among a few */
				arr[n++] = sx_store(c, a, sx_bv(c, rnd() % 6, 64),
						    rnd() % 2 ? sx_bv(c, rnd(), 8) : sx_fresh(c, "b", 8));
			else if (op < 5)	/* at an index variable */
				arr[n++] = sx_store(c, a, sx_fresh(c, "i", 64), sx_fresh(c, "b", 8));
			else	/* a merge of two paths' memories */
				arr[n++] = sx_ite(c, sx_fresh_bool(c, "g"), a, b);
		}
		for (unsigned r = 0; r < 12; r++) {
			sxt a = arr[rnd() % NARR], v = sx_fresh(c, "v", 64), sk, sv;
			uint64_t k = rnd() % 7;
			enum sx_res res;
			char why[96];

			sk = sx_select(c, a, sx_bv(c, k, 64));
			sv = sx_select(c, a, v);	/* (not a numeral: Z3's plain select) */
			/* (every part builds every case, the same random stream; each asks Z3
			 * about its share: tests/check.h) */
			if (check_share(t)) {
				res = sx_check(c, sx_land(c, sx_eq(c, v, sx_bv(c, k, 64)),
							  sx_ne(c, sk, sv)),
					       TIMEOUT_MS, NULL, why, sizeof(why));
				CHECK(res == SX_UNSAT, "case %u read %u: select at %llu differs "
				      "from Z3's (%s)", t, r, (unsigned long long)k,
				      res == SX_SAT ? "a model" : why);
				checked++;
			}
			if (rnd() % 4 == 0)
				sx_release(c, sx_mark(c));	/* (empties the cache) */
		}
		mine += check_share(t);
		sx_release(c, mark);
	}
	CHECK(!sx_failed(c), "%s", sx_failed(c));
	printf("select: %u reads of %u of %u random arrays equal Z3's\n", checked, mine, cases);
	CHECK(checked == mine * 12 && mine >= cases / check_part_n, "reads checked: %u", checked);
	sx_free(c);
}

/* ---- 2. intervals ---- */

static sxt rand_term(struct sx *c, unsigned depth)
{
	static const uint64_t nums[] = { 0, 1, 7, 64, 0xff, 0x1000, 0x0000400000000000ull,
					 0x0000100000000200ull, 0xffffffffull, UINT64_MAX - 3 };
	unsigned op = depth ? rnd() % 12 : rnd() % 3;

	switch (op) {
	case 0:
		return sx_bv(c, nums[rnd() % (sizeof(nums) / sizeof(nums[0]))], 64);
	case 1:
		return sx_zext(c, 64, sx_fresh(c, "x", rnd() % 2 ? 8 : 32));
	case 2:
		return sx_fresh(c, "x", 64);
	case 3:
	case 4:
		return sx_add(c, rand_term(c, depth - 1), rand_term(c, depth - 1));
	case 5:
		return sx_ite(c, sx_fresh_bool(c, "g"), rand_term(c, depth - 1),
			      rand_term(c, depth - 1));
	case 6:
		return sx_and(c, rand_term(c, depth - 1), sx_bv(c, rnd() % 0x200, 64));
	case 7:
		return sx_shl(c, rand_term(c, depth - 1), sx_bv(c, rnd() % 70, 64));
	case 8:
		return rnd() % 2 ? sx_mul(c, rand_term(c, depth - 1), sx_bv(c, rnd() % 40, 64))
				 : sx_mul(c, sx_bv(c, rnd() % 40, 64), rand_term(c, depth - 1));
	case 9:
		return sx_urem(c, rand_term(c, depth - 1), sx_bv(c, rnd() % 9, 64));
	case 10:
		return sx_lshr(c, rand_term(c, depth - 1), sx_bv(c, rnd() % 70, 64));
	default:
		return sx_zext(c, 64, sx_extract(c, 31, 0, rand_term(c, depth - 1)));
	}
}

static void test_ranges(unsigned cases)
{
	struct sx *c;
	unsigned bounded = 0, narrow = 0, asked = 0;

	CHECK(sx_new(&c) == 0, "sx_new");
	for (unsigned t = 0; t < cases && !sx_failed(c); t++) {
		size_t mark = sx_mark(c);
		sxt x = rand_term(c, 1 + rnd() % 4), out;
		uint64_t lo[8], hi[8];
		unsigned n = sx_ranges(c, x, lo, hi, 8);
		enum sx_res res;
		char why[96];

		if (!n) {
			sx_release(c, mark);
			continue;
		}
		bounded++;
		out = sx_true(c);
		for (unsigned k = 0; k < n; k++) {
			CHECK(lo[k] <= hi[k], "case %u: interval %u [%llu, %llu]", t, k,
			      (unsigned long long)lo[k], (unsigned long long)hi[k]);
			out = sx_land(c, out, sx_lor(c, sx_ult(c, x, sx_bv(c, lo[k], 64)),
						      sx_ult(c, sx_bv(c, hi[k], 64), x)));
			narrow += k == 0 && hi[k] - lo[k] < (1ull << 40);
		}
		if (check_share(t)) {
			asked++;
			res = sx_check(c, out, TIMEOUT_MS, NULL, why, sizeof(why));
			CHECK(res == SX_UNSAT, "case %u: the term takes a value outside its %u "
			      "intervals (%s)", t, n, res == SX_SAT ? "a model" : why);
		}
		sx_release(c, mark);
	}
	CHECK(!sx_failed(c), "%s", sx_failed(c));
	printf("ranges: %u of %u random terms bounded (%u narrower than 2^40), every value inside"
	       " (%u of them asked of Z3 here)\n", bounded, cases, narrow, asked);
	CHECK(bounded > cases / 3 && narrow > cases / 10, "too few terms bounded: %u, %u narrow",
	      bounded, narrow);
	sx_free(c);
}

int main(int argc, char **argv)
{
	unsigned cases;

	check_parts(&argc, argv);
	cases = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 300;

	test_select(cases);
	test_ranges(cases * 4);
	return check_done("test_smt_terms");
}
