/* The set of finished programs (doneset.h): sorted, disjoint, non-adjacent ranges, merged as
 * programs are added. */
#include "fuzz/doneset.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int done_set_add(struct done_set *s, uint64_t a, uint64_t b)
{
	size_t i = 0, j;

	if (a >= b)
		return 0;
	while (i < s->n && s->r[i].b < a)
		i++;
	/* merge every range that touches [a, b) */
	j = i;
	while (j < s->n && s->r[j].a <= b) {
		if (s->r[j].a < a)
			a = s->r[j].a;
		if (s->r[j].b > b)
			b = s->r[j].b;
		j++;
	}
	if (j == i) {
		if (s->n == s->cap) {
			size_t nc = s->cap ? s->cap * 2 : 16;
			void *nr = realloc(s->r, nc * sizeof(*s->r));

			if (!nr)
				return -ENOMEM;
			s->r = nr;
			s->cap = nc;
		}
		memmove(&s->r[i + 1], &s->r[i], (s->n - i) * sizeof(*s->r));
		s->n++;
	} else if (j > i + 1) {
		memmove(&s->r[i + 1], &s->r[j], (s->n - j) * sizeof(*s->r));
		s->n -= j - i - 1;
	}
	s->r[i].a = a;
	s->r[i].b = b;
	return 0;
}

/* The first number at or after x that is not done. */
uint64_t done_set_next_gap(const struct done_set *s, uint64_t x)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->r[i].a <= x && x < s->r[i].b)
			x = s->r[i].b;
	return x;
}

/* The end of the run of done numbers starting at x (x when x is not done). */
uint64_t done_set_run_end(const struct done_set *s, uint64_t x)
{
	return done_set_next_gap(s, x);
}

/* Of [a, b): the end of the first stretch of numbers that are not done, starting at a. */
uint64_t done_set_gap_end(const struct done_set *s, uint64_t a, uint64_t b)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->r[i].a > a && s->r[i].a < b)
			return s->r[i].a;
	return b;
}
