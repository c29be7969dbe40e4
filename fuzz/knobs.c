/* Program seeds and generator knobs (campaign.h): program i of a campaign comes from its seed
 * alone, and the knobs the campaign changed are written as text in the state file and in each
 * finding, so that a campaign and each of its programs can be made again. */
#include "fuzz/campaign.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t fuzz_program_seed(uint64_t seed, uint64_t index)
{
	uint64_t x = seed;
	uint64_t a = splitmix64(&x);

	x = a ^ index;
	return splitmix64(&x);
}

void fuzz_knobs_format(char *buf, size_t n, const struct gen_knobs *k)
{
	struct gen_knobs def = gen_knobs_default();
	const uint32_t *v = (const uint32_t *)k, *dv = (const uint32_t *)&def;
	const char *name, *what;
	uint32_t d;
	size_t used = 0;

	if (n)
		buf[0] = '\0';
	for (size_t i = 0; gen_knob_info(i, &name, &d, &what); i++) {
		int w;

		if (v[i] == dv[i])
			continue;
		w = snprintf(buf + used, n - used, "%s%s=%u", used ? " " : "", name, v[i]);
		if (w < 0 || (size_t)w >= n - used)
			break;
		used += (size_t)w;
	}
}

int fuzz_knobs_parse(struct gen_knobs *k, const char *text, struct diag *d)
{
	char *copy = strdup(text ? text : ""), *save = NULL;
	int err = 0;

	*k = gen_knobs_default();
	if (!copy)
		return diag_set(d, ENOMEM, "out of memory");
	for (char *tok = strtok_r(copy, " ,\t\n", &save); tok; tok = strtok_r(NULL, " ,\t\n", &save)) {
		char *eq = strchr(tok, '='), *end;
		unsigned long v;

		if (!eq) {
			err = diag_set(d, EINVAL, "knob '%s' needs a value (name=value)", tok);
			break;
		}
		*eq = '\0';
		v = strtoul(eq + 1, &end, 0);
		if (end == eq + 1 || *end || v > UINT32_MAX) {
			err = diag_set(d, EINVAL, "knob %s: '%s' is not a number", tok, eq + 1);
			break;
		}
		err = gen_knobs_set(k, tok, (uint32_t)v);
		if (err == -ENOENT) {
			diag_set(d, ENOENT, "unknown knob '%s'", tok);
			break;
		}
		if (err) {
			diag_set(d, ERANGE, "knob %s: %lu is out of range", tok, v);
			break;
		}
	}
	free(copy);
	return err;
}
