/* Locations: their text forms (see loc.h). */
#include "claims/loc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void loc_format(loc_t l, char *buf, unsigned n)
{
	if (LOC_IS_REG(l)) {
		snprintf(buf, n, "r%u", l);
		return;
	}
	if (LOC_SLOT_SIZE(l) == 8)
		snprintf(buf, n, "fp%d", LOC_SLOT_OFF(l));
	else
		snprintf(buf, n, "fp%d/u%u", LOC_SLOT_OFF(l), LOC_SLOT_SIZE(l) * 8);
}

int loc_parse(const char *s, loc_t *out)
{
	char *end;
	long v;

	if (s[0] == 'r') {
		v = strtol(s + 1, &end, 10);
		if (end == s + 1 || *end || v < 0 || v > 10)
			return -1;
		*out = (loc_t)v;
		return 0;
	}
	if (strncmp(s, "fp-", 3))
		return -1;
	v = strtol(s + 3, &end, 10);
	if (end == s + 3 || v < 1 || v > 512)
		return -1;
	if (!*end) {
		if (v < 8)
			return -1;
		*out = LOC_SLOT(-v, 8);
		return 0;
	}
	if (!strcmp(end, "/u32") || !strcmp(end, "/u16") || !strcmp(end, "/u8")) {
		unsigned size = end[2] == '3' ? 4 : end[2] == '1' ? 2 : 1;

		if ((unsigned long)v < size)
			return -1;
		*out = LOC_SLOT(-v, size);
		return 0;
	}
	return -1;
}
