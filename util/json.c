/* JSON reader and writer with exact 64-bit integers: see json.h. */
#include "util/json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 200

struct jparser {
	const char *s;
	size_t len, pos;
	int line, col;
	struct diag *d;
	int depth;
};

static int jp_peek(struct jparser *p)
{
	return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static void jp_adv(struct jparser *p)
{
	if (p->pos >= p->len)
		return;
	if (p->s[p->pos] == '\n') {
		p->line++;
		p->col = 1;
	} else {
		p->col++;
	}
	p->pos++;
}

static void jp_ws(struct jparser *p)
{
	int c;

	while ((c = jp_peek(p)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		jp_adv(p);
}

static struct json *jp_fail(struct jparser *p, const char *what)
{
	int c = jp_peek(p);

	if (c < 0)
		diag_at_line(p->d, EINVAL, p->line, p->col, "expected %s, found end of input", what);
	else if (c >= 0x20 && c < 0x7f)
		diag_at_line(p->d, EINVAL, p->line, p->col, "expected %s, found '%c'", what, c);
	else
		diag_at_line(p->d, EINVAL, p->line, p->col, "expected %s, found byte 0x%02x", what, c);
	return NULL;
}

static struct json *jnew(struct jparser *p, enum json_type t)
{
	struct json *j = calloc(1, sizeof(*j));

	if (!j) {
		diag_set(p->d, ENOMEM, "out of memory");
		return NULL;
	}
	j->type = t;
	j->line = p->line;
	j->col = p->col;
	return j;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static void put_utf8(struct sbuf *sb, unsigned cp)
{
	if (cp < 0x80) {
		sbuf_putc(sb, (char)cp);
	} else if (cp < 0x800) {
		sbuf_putc(sb, (char)(0xc0 | (cp >> 6)));
		sbuf_putc(sb, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		sbuf_putc(sb, (char)(0xe0 | (cp >> 12)));
		sbuf_putc(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		sbuf_putc(sb, (char)(0x80 | (cp & 0x3f)));
	} else {
		sbuf_putc(sb, (char)(0xf0 | (cp >> 18)));
		sbuf_putc(sb, (char)(0x80 | ((cp >> 12) & 0x3f)));
		sbuf_putc(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		sbuf_putc(sb, (char)(0x80 | (cp & 0x3f)));
	}
}

static int jp_hex4(struct jparser *p, unsigned *out)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		int h = hexval(jp_peek(p));

		if (h < 0)
			return -1;
		v = v * 16 + (unsigned)h;
		jp_adv(p);
	}
	*out = v;
	return 0;
}

/* Parses a string literal at p (which is at '"') into sb. */
static int jp_string_raw(struct jparser *p, struct sbuf *sb)
{
	jp_adv(p);
	for (;;) {
		int c = jp_peek(p);

		if (c < 0) {
			jp_fail(p, "closing '\"'");
			return -1;
		}
		if (c < 0x20) {
			jp_fail(p, "a string character (control characters must be escaped)");
			return -1;
		}
		if (c == '"') {
			jp_adv(p);
			return sb->oom ? -1 : 0;
		}
		if (c != '\\') {
			sbuf_putc(sb, (char)c);
			jp_adv(p);
			continue;
		}
		jp_adv(p);
		c = jp_peek(p);
		switch (c) {
		case '"': case '\\': case '/':
			sbuf_putc(sb, (char)c);
			break;
		case 'b': sbuf_putc(sb, '\b'); break;
		case 'f': sbuf_putc(sb, '\f'); break;
		case 'n': sbuf_putc(sb, '\n'); break;
		case 'r': sbuf_putc(sb, '\r'); break;
		case 't': sbuf_putc(sb, '\t'); break;
		case 'u': {
			unsigned cp, lo;

			jp_adv(p);
			if (jp_hex4(p, &cp)) {
				jp_fail(p, "four hex digits after \\u");
				return -1;
			}
			if (cp >= 0xd800 && cp < 0xdc00 && jp_peek(p) == '\\') {
				jp_adv(p);
				if (jp_peek(p) != 'u') {
					jp_fail(p, "a low surrogate \\u escape");
					return -1;
				}
				jp_adv(p);
				if (jp_hex4(p, &lo) || lo < 0xdc00 || lo > 0xdfff) {
					jp_fail(p, "a low surrogate \\u escape");
					return -1;
				}
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			}
			put_utf8(sb, cp);
			continue;
		}
		default:
			jp_fail(p, "an escape character (\" \\ / b f n r t u)");
			return -1;
		}
		jp_adv(p);
	}
}

static struct json *jp_value(struct jparser *p);

static struct json *jp_container(struct jparser *p, bool object)
{
	struct json *j = jnew(p, object ? JSON_OBJECT : JSON_ARRAY);
	size_t cap = 0;
	char close = object ? '}' : ']';

	if (!j)
		return NULL;
	if (++p->depth > JSON_MAX_DEPTH) {
		diag_at_line(p->d, EINVAL, p->line, p->col, "nesting deeper than %d", JSON_MAX_DEPTH);
		goto fail;
	}
	jp_adv(p);
	jp_ws(p);
	if (jp_peek(p) == close) {
		jp_adv(p);
		p->depth--;
		return j;
	}
	for (;;) {
		char *key = NULL;
		struct json *v;

		jp_ws(p);
		if (object) {
			struct sbuf kb = SBUF_INIT;

			if (jp_peek(p) != '"') {
				jp_fail(p, "a string key");
				goto fail;
			}
			if (jp_string_raw(p, &kb)) {
				sbuf_free(&kb);
				goto fail;
			}
			key = sbuf_detach(&kb);
			jp_ws(p);
			if (jp_peek(p) != ':') {
				free(key);
				jp_fail(p, "':'");
				goto fail;
			}
			jp_adv(p);
		}
		v = jp_value(p);
		if (!v) {
			free(key);
			goto fail;
		}
		if (j->count == cap) {
			size_t nc = cap ? cap * 2 : 4;
			struct json **ni = realloc(j->items, nc * sizeof(*ni));
			char **nk = ni && object ? realloc(j->keys, nc * sizeof(*nk)) : NULL;

			if (ni)
				j->items = ni;
			if (nk)
				j->keys = nk;
			if (!ni || (object && !nk)) {
				free(key);
				json_free(v);
				diag_set(p->d, ENOMEM, "out of memory");
				goto fail;
			}
			cap = nc;
		}
		j->items[j->count] = v;
		if (object)
			j->keys[j->count] = key;
		j->count++;
		jp_ws(p);
		if (jp_peek(p) == ',') {
			jp_adv(p);
			continue;
		}
		if (jp_peek(p) == close) {
			jp_adv(p);
			break;
		}
		jp_fail(p, object ? "',' or '}'" : "',' or ']'");
		goto fail;
	}
	p->depth--;
	return j;
fail:
	json_free(j);
	return NULL;
}

static struct json *jp_number(struct jparser *p)
{
	struct json *j = jnew(p, JSON_NUMBER);
	size_t start = p->pos;
	int c;

	if (!j)
		return NULL;
	if (jp_peek(p) == '-')
		jp_adv(p);
	c = jp_peek(p);
	if (c == '0') {
		jp_adv(p);
	} else if (c >= '1' && c <= '9') {
		while ((c = jp_peek(p)) >= '0' && c <= '9')
			jp_adv(p);
	} else {
		json_free(j);
		return jp_fail(p, "a digit");
	}
	if (jp_peek(p) == '.') {
		jp_adv(p);
		if (!((c = jp_peek(p)) >= '0' && c <= '9')) {
			json_free(j);
			return jp_fail(p, "a digit after '.'");
		}
		while ((c = jp_peek(p)) >= '0' && c <= '9')
			jp_adv(p);
	}
	if (jp_peek(p) == 'e' || jp_peek(p) == 'E') {
		jp_adv(p);
		if (jp_peek(p) == '+' || jp_peek(p) == '-')
			jp_adv(p);
		if (!((c = jp_peek(p)) >= '0' && c <= '9')) {
			json_free(j);
			return jp_fail(p, "an exponent digit");
		}
		while ((c = jp_peek(p)) >= '0' && c <= '9')
			jp_adv(p);
	}
	j->len = p->pos - start;
	j->text = malloc(j->len + 1);
	if (!j->text) {
		json_free(j);
		diag_set(p->d, ENOMEM, "out of memory");
		return NULL;
	}
	memcpy(j->text, p->s + start, j->len);
	j->text[j->len] = '\0';
	return j;
}

static bool jp_word(struct jparser *p, const char *w)
{
	size_t n = strlen(w);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, w, n))
		return false;
	for (size_t i = 0; i < n; i++)
		jp_adv(p);
	return true;
}

static struct json *jp_value(struct jparser *p)
{
	struct json *j;
	int c;

	jp_ws(p);
	c = jp_peek(p);
	if (c == '{')
		return jp_container(p, true);
	if (c == '[')
		return jp_container(p, false);
	if (c == '"') {
		struct sbuf sb = SBUF_INIT;

		j = jnew(p, JSON_STRING);
		if (!j)
			return NULL;
		if (jp_string_raw(p, &sb)) {
			sbuf_free(&sb);
			json_free(j);
			return NULL;
		}
		j->len = sb.len;
		j->text = sbuf_detach(&sb);
		return j;
	}
	if (c == '-' || (c >= '0' && c <= '9'))
		return jp_number(p);
	j = jnew(p, JSON_NULL);
	if (!j)
		return NULL;
	if (jp_word(p, "null"))
		return j;
	j->type = JSON_BOOL;
	if (jp_word(p, "true")) {
		j->boolean = true;
		return j;
	}
	if (jp_word(p, "false"))
		return j;
	json_free(j);
	return jp_fail(p, "a JSON value");
}

struct json *json_parse(const char *text, size_t len, struct diag *d)
{
	struct jparser p = { .s = text, .len = len, .line = 1, .col = 1, .d = d };
	struct json *j = jp_value(&p);

	if (!j)
		return NULL;
	jp_ws(&p);
	if (p.pos != p.len) {
		json_free(j);
		return jp_fail(&p, "end of input after the JSON value");
	}
	return j;
}

void json_free(struct json *j)
{
	if (!j)
		return;
	for (size_t i = 0; i < j->count; i++) {
		json_free(j->items[i]);
		if (j->keys)
			free(j->keys[i]);
	}
	free(j->items);
	free(j->keys);
	free(j->text);
	free(j);
}

const struct json *json_get(const struct json *j, const char *key)
{
	if (!j || j->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < j->count; i++)
		if (!strcmp(j->keys[i], key))
			return j->items[i];
	return NULL;
}

int json_u64(const struct json *j, uint64_t *out)
{
	uint64_t v = 0;

	if (!j || j->type != JSON_NUMBER || j->text[0] == '-')
		return -EINVAL;
	for (const char *s = j->text; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;	/* fraction or exponent: not an integer literal */
		if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

int json_s64(const struct json *j, int64_t *out)
{
	uint64_t mag = 0;
	bool neg;
	const char *s;

	if (!j || j->type != JSON_NUMBER)
		return -EINVAL;
	neg = j->text[0] == '-';
	for (s = j->text + neg; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		if (mag > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -ERANGE;
		mag = mag * 10 + (uint64_t)(*s - '0');
	}
	if (neg ? mag > (uint64_t)INT64_MAX + 1 : mag > (uint64_t)INT64_MAX)
		return -ERANGE;
	*out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
	return 0;
}

void json_put_string(struct sbuf *sb, const char *s)
{
	sbuf_putc(sb, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			sbuf_putc(sb, '\\');
			sbuf_putc(sb, (char)c);
		} else if (c == '\n') {
			sbuf_puts(sb, "\\n");
		} else if (c == '\t') {
			sbuf_puts(sb, "\\t");
		} else if (c < 0x20) {
			sbuf_printf(sb, "\\u%04x", c);
		} else {
			sbuf_putc(sb, (char)c);
		}
	}
	sbuf_putc(sb, '"');
}
