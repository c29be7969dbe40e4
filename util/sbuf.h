/* Growable byte/string buffer.  Every library that produces text (disassembly, claims JSON, DOT)
 * writes into one of these; the caller decides where it goes.  A buffer that failed to grow
 * remembers it (sbuf.oom) and ignores further writes, so producers need not check every call.
 */
#ifndef BPFSCEV_UTIL_SBUF_H
#define BPFSCEV_UTIL_SBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct sbuf {
	char *buf;	/* NUL-terminated when len > 0 or after sbuf_cstr() */
	size_t len;
	size_t cap;
	bool oom;
};

#define SBUF_INIT { 0 }

void sbuf_putc(struct sbuf *sb, char c);
void sbuf_puts(struct sbuf *sb, const char *s);
void sbuf_put(struct sbuf *sb, const void *data, size_t n);
/* Decimal, as "%llu" and "%lld" print it, without the cost of a printf (the analyzer writes
 * numbers into every trip expression). */
void sbuf_put_u64(struct sbuf *sb, unsigned long long v);
void sbuf_put_i64(struct sbuf *sb, long long v);
void sbuf_printf(struct sbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sbuf_vprintf(struct sbuf *sb, const char *fmt, va_list ap);
/* Returns the contents as a C string ("" for an empty buffer); never NULL. */
const char *sbuf_cstr(struct sbuf *sb);
void sbuf_reset(struct sbuf *sb);
/* Hands the heap string to the caller (who frees it) and leaves sb empty. */
char *sbuf_detach(struct sbuf *sb);
void sbuf_free(struct sbuf *sb);

#endif
