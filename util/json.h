/* A small JSON reader and writer that keeps 64-bit integers exact.
 *
 * Claims carry full-range u64 and s64 bounds (umax = 18446744073709551615); the JSON libraries in
 * Debian (jansson, cJSON) store numbers as long long or double and lose them, so numbers are kept
 * here as their source text and converted on request.  The reader builds a tree; every value
 * remembers the line and column it started at so callers can report "claims.json:12:7: expected
 * an unsigned integer for umax".
 */
#ifndef BPFSCEV_UTIL_JSON_H
#define BPFSCEV_UTIL_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"
#include "util/sbuf.h"

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	int line, col;
	bool boolean;
	char *text;		/* JSON_STRING: the unescaped string; JSON_NUMBER: the literal */
	size_t len;		/* JSON_STRING: byte length (may contain NUL) */
	struct json **items;	/* JSON_ARRAY / JSON_OBJECT values */
	char **keys;		/* JSON_OBJECT keys, parallel to items */
	size_t count;
};

/* Parses a whole document.  On error returns NULL and fills d (line:col and what was expected). */
struct json *json_parse(const char *text, size_t len, struct diag *d);
void json_free(struct json *j);

/* Member of an object, NULL when absent or when j is not an object. */
const struct json *json_get(const struct json *j, const char *key);
/* Exact integer conversions: 0 on success, -ERANGE / -EINVAL otherwise (no rounding, no floats). */
int json_u64(const struct json *j, uint64_t *out);
int json_s64(const struct json *j, int64_t *out);

/* Writer: appends JSON text to an sbuf; the caller places commas and brackets. */
void json_put_string(struct sbuf *sb, const char *s);

#endif
