/* The campaign's totals (struct fuzz_stats): the histogram of claimed over observed trip
 * counts, its median, and the findings summed over their kinds. */
#include "fuzz/campaign_internal.h"

#include <math.h>

unsigned campaign_ratio_bucket(uint64_t claimed, uint64_t observed)
{
	double r;
	unsigned b;

	if (claimed < observed)
		return 0;
	if (claimed == observed)
		return 1;
	r = log2((double)claimed / (double)observed) * FUZZ_RATIO_STEPS;
	b = 2 + (unsigned)r;
	return b < FUZZ_RATIO_BUCKETS ? b : FUZZ_RATIO_BUCKETS - 1;
}

double fuzz_stats_median_ratio(const struct fuzz_stats *st)
{
	uint64_t total = 0, acc = 0;

	for (unsigned b = 0; b < FUZZ_RATIO_BUCKETS; b++)
		total += st->ratio[b];
	if (!total)
		return 0;
	for (unsigned b = 0; b < FUZZ_RATIO_BUCKETS; b++) {
		acc += st->ratio[b];
		if (acc * 2 >= total) {
			if (b == 0)
				return 0.5;	/* below 1: an unsound claim; no better number */
			if (b == 1)
				return 1;
			return exp2((b - 2 + 0.5) / FUZZ_RATIO_STEPS);
		}
	}
	return 0;
}

uint64_t fuzz_stats_findings(const struct fuzz_stats *st)
{
	uint64_t n = 0;

	for (int k = 0; k < FUZZ_KINDS; k++)
		n += st->found[k];
	return n;
}

uint64_t fuzz_stats_saved(const struct fuzz_stats *st)
{
	uint64_t n = 0;

	for (int k = 0; k < FUZZ_KINDS; k++)
		n += st->saved[k];
	return n;
}
