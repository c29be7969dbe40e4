/* Growable string buffer: see sbuf.h. */
#include "util/sbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool sbuf_grow(struct sbuf *sb, size_t extra)
{
	size_t need, cap;
	char *nb;

	if (sb->oom)
		return false;
	need = sb->len + extra + 1;
	if (need <= sb->cap)
		return true;
	cap = sb->cap ? sb->cap : 64;
	while (cap < need)
		cap *= 2;
	nb = realloc(sb->buf, cap);
	if (!nb) {
		sb->oom = true;
		return false;
	}
	sb->buf = nb;
	sb->cap = cap;
	return true;
}

void sbuf_put(struct sbuf *sb, const void *data, size_t n)
{
	if (!sbuf_grow(sb, n))
		return;
	memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sbuf_putc(struct sbuf *sb, char c)
{
	sbuf_put(sb, &c, 1);
}

void sbuf_puts(struct sbuf *sb, const char *s)
{
	sbuf_put(sb, s, strlen(s));
}

void sbuf_put_u64(struct sbuf *sb, unsigned long long v)
{
	char d[20];
	unsigned n = 0;

	do {
		d[sizeof(d) - ++n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	sbuf_put(sb, d + sizeof(d) - n, n);
}

void sbuf_put_i64(struct sbuf *sb, long long v)
{
	if (v < 0) {
		sbuf_putc(sb, '-');
		/* (the magnitude in unsigned arithmetic: -LLONG_MIN does not fit) */
		sbuf_put_u64(sb, 0ull - (unsigned long long)v);
		return;
	}
	sbuf_put_u64(sb, (unsigned long long)v);
}

void sbuf_vprintf(struct sbuf *sb, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0 || !sbuf_grow(sb, (size_t)n))
		return;
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void sbuf_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sbuf_vprintf(sb, fmt, ap);
	va_end(ap);
}

const char *sbuf_cstr(struct sbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

void sbuf_reset(struct sbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

char *sbuf_detach(struct sbuf *sb)
{
	char *s = sb->buf;

	if (!s)
		s = calloc(1, 1);
	*sb = (struct sbuf)SBUF_INIT;
	return s;
}

void sbuf_free(struct sbuf *sb)
{
	if (!sb)
		return;
	free(sb->buf);
	*sb = (struct sbuf)SBUF_INIT;
}
