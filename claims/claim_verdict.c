/* Per-claim verdicts: see claim_verdict.h. */
#include "claims/claim_verdict.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int claim_verdicts__init(struct claim_verdicts *out, const struct claim_prog *cp)
{
	uint32_t n = cp->nranges, k = 0;

	memset(out, 0, sizeof(*out));
	for (uint32_t l = 0; l < cp->nloops; l++)
		n += 1 + cp->loops[l].nivs;
	if (!n)
		return 0;
	/* (every entry is written whole below: each byte once, where calloc cleared it first) */
	out->v = malloc(n * sizeof(*out->v));
	if (!out->v)
		return -ENOMEM;
	out->n = n;
	for (uint32_t i = 0; i < cp->nranges; i++, k++)
		out->v[k] = (struct claim_verdict){ .what = CLAIM_RANGE, .index = i,
						    .pc = cp->ranges[i].pc };
	for (uint32_t l = 0; l < cp->nloops; l++) {
		out->v[k++] = (struct claim_verdict){ .what = CLAIM_TRIP, .index = l,
						      .pc = cp->loops[l].header };
		for (uint32_t j = 0; j < cp->loops[l].nivs; j++, k++)
			out->v[k] = (struct claim_verdict){ .what = CLAIM_IV, .index = l, .iv = j,
							    .pc = cp->loops[l].header };
	}
	return 0;
}

void claim_verdicts__free(struct claim_verdicts *vs)
{
	if (!vs)
		return;
	free(vs->v);
	memset(vs, 0, sizeof(*vs));
}

struct claim_verdict *claim_verdicts__at(struct claim_verdicts *vs, const struct claim_prog *cp,
					 enum claim_what what, uint32_t index, uint32_t iv)
{
	uint32_t k = cp->nranges;

	if (what == CLAIM_RANGE)
		return index < cp->nranges && index < vs->n ? &vs->v[index] : NULL;
	if (index >= cp->nloops || (what == CLAIM_IV && iv >= cp->loops[index].nivs))
		return NULL;
	for (uint32_t l = 0; l < index; l++)
		k += 1 + cp->loops[l].nivs;
	k += what == CLAIM_IV ? 1 + iv : 0;
	return k < vs->n ? &vs->v[k] : NULL;
}

uint32_t claim_verdicts__count(const struct claim_verdicts *vs, enum claim_judgement j)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < vs->n; k++)
		n += vs->v[k].judgement == j;
	return n;
}

const char *claim_judgement_name(enum claim_judgement j)
{
	static const char *const names[] = { "not judged", "proved", "refuted", "unknown" };

	return (unsigned)j < sizeof(names) / sizeof(names[0]) ? names[j] : "?";
}
