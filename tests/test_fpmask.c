/* The stack-byte sets (scev/fpmask.h) take a range a word at a time; checked against the
 * definition, byte by byte, for every range with ends from 530 bytes below the frame to 20
 * above it (inside, straddling and outside the 512 bytes, empty and reversed), on masks of
 * random words, runs of set bytes and the empty and full masks: fpmask_add sets exactly the
 * range's bytes inside the frame, fpmask_any says whether one of them is set, fpmask_all whether
 * all are (and the range inside the frame).  Fails when a piece's bits are shifted or cut wrong,
 * a whole word is taken for less, or the frame's edges are not clamped. */
#include <string.h>

#include "scev/fpmask.h"
#include "tests/check.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static bool ref_has(const struct fpmask *m, int64_t o)
{
	return m->w[(o + FP_FRAME) / 64] >> ((o + FP_FRAME) % 64) & 1;
}

static void ref_add(struct fpmask *m, int64_t lo, int64_t hi)
{
	for (int64_t o = lo < -FP_FRAME ? -FP_FRAME : lo; o < hi && o < 0; o++)
		m->w[(o + FP_FRAME) / 64] |= 1ull << ((o + FP_FRAME) % 64);
}

static bool ref_any(const struct fpmask *m, int64_t lo, int64_t hi)
{
	for (int64_t o = lo < -FP_FRAME ? -FP_FRAME : lo; o < hi && o < 0; o++)
		if (ref_has(m, o))
			return true;
	return false;
}

static bool ref_all(const struct fpmask *m, int64_t lo, int64_t hi)
{
	if (lo < -FP_FRAME || hi > 0)
		return false;
	for (int64_t o = lo; o < hi; o++)
		if (!ref_has(m, o))
			return false;
	return true;
}

static void make_mask(struct fpmask *m, int kind)
{
	memset(m, 0, sizeof(*m));
	switch (kind) {
	case 0:
		break;
	case 1:
		fpmask_fill(m);
		break;
	case 2:
		for (int k = 0; k < FP_FRAME / 64; k++)
			m->w[k] = check_rand(&rng);
		break;
	default: {	/* a few runs of set bytes, so that some ranges are all set */
		for (int r = 0; r < 3; r++) {
			int64_t lo = -(int64_t)(check_rand(&rng) % FP_FRAME);

			ref_add(m, lo, lo + (int64_t)(check_rand(&rng) % 100));
		}
	}
	}
}

int main(void)
{
	int bad_add = 0, bad_any = 0, bad_all = 0;

	for (int kind = 0; kind < 6; kind++) {
		struct fpmask m;

		make_mask(&m, kind);
		for (int64_t lo = -FP_FRAME - 18; lo <= 20; lo++)
			for (int64_t hi = -FP_FRAME - 18; hi <= 20; hi++) {
				struct fpmask got = m, want = m;

				fpmask_add(&got, lo, hi);
				ref_add(&want, lo, hi);
				bad_add += memcmp(&got, &want, sizeof(got)) != 0;
				bad_any += fpmask_any(&m, lo, hi) != ref_any(&m, lo, hi);
				bad_all += fpmask_all(&m, lo, hi) != ref_all(&m, lo, hi);
			}
	}
	CHECK(bad_add == 0, "fpmask_add differs from setting byte by byte for %d ranges", bad_add);
	CHECK(bad_any == 0, "fpmask_any differs from testing byte by byte for %d ranges", bad_any);
	CHECK(bad_all == 0, "fpmask_all differs from testing byte by byte for %d ranges", bad_all);
	/* ranges far outside the frame (a pointer's offset bounds) */
	{
		struct fpmask got, want;

		make_mask(&got, 0);
		want = got;
		fpmask_add(&got, INT64_MIN / 2, INT64_MAX / 2);
		fpmask_fill(&want);
		CHECK(memcmp(&got, &want, sizeof(got)) == 0, "a range past both ends fills the frame");
		CHECK(fpmask_all(&got, -FP_FRAME, 0), "the full frame is all set");
		CHECK(!fpmask_all(&got, -FP_FRAME - 1, 0), "a range leaving the frame is not all set");
		CHECK(fpmask_any(&got, INT64_MIN / 2, -FP_FRAME + 1), "the frame's first byte is set");
		CHECK(!fpmask_any(&got, 0, INT64_MAX / 2), "no byte above the frame");
	}
	return check_done("test_fpmask");
}
