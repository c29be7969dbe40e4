/* Error reports with a location: see err.h. */
#include "util/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void diag_clear(struct diag *d)
{
	if (!d)
		return;
	memset(d, 0, sizeof(*d));
	d->insn = -1;
	d->offset = -1;
}

static int diag_vset(struct diag *d, int err, const char *fmt, va_list ap)
{
	if (d)
		vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	return -err;
}

int diag_set(struct diag *d, int err, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = diag_vset(d, err, fmt, ap);
	va_end(ap);
	return r;
}

int diag_at_line(struct diag *d, int err, int line, int col, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (d) {
		d->line = line;
		d->col = col;
	}
	va_start(ap, fmt);
	r = diag_vset(d, err, fmt, ap);
	va_end(ap);
	return r;
}

int diag_at_insn(struct diag *d, int err, long insn, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (d)
		d->insn = insn;
	va_start(ap, fmt);
	r = diag_vset(d, err, fmt, ap);
	va_end(ap);
	return r;
}

void diag_set_file(struct diag *d, const char *file)
{
	if (d && file)
		snprintf(d->file, sizeof(d->file), "%s", file);
}

void diag_format(const struct diag *d, char *out, size_t n)
{
	const char *f = d->file[0] ? d->file : "<input>";

	if (d->line > 0 && d->col > 0)
		snprintf(out, n, "%s:%d:%d: %s", f, d->line, d->col, d->msg);
	else if (d->line > 0)
		snprintf(out, n, "%s:%d: %s", f, d->line, d->msg);
	else if (d->insn >= 0)
		snprintf(out, n, "%s: insn %ld: %s", f, d->insn, d->msg);
	else if (d->offset >= 0)
		snprintf(out, n, "%s: offset %ld: %s", f, d->offset, d->msg);
	else
		snprintf(out, n, "%s: %s", f, d->msg);
}
