/* The tokens of both assembler grammars, read from a cursor over the current line (its comments
 * already blanked): punctuation and whole words, identifiers, registers (r0-r10, w0-w10, with an
 * optional ubpf '%'), numbers (decimal or hex, with a sign, as a sign and a 64-bit magnitude, and
 * their checks for 32-bit immediates and 16-bit offsets), jump targets, the "REG +OFF" of memory
 * operands, and the error messages that say what was expected and what was found instead.
 */
#include "bpf/asm_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

/* What the cursor looks at, for messages: "'r11'" or "end of line". */
const char *asm_found(const struct cur *c, char *buf, size_t n)
{
	const char *p = c->p;
	size_t l = 0;

	while (is_blank((unsigned char)*p))
		p++;
	if (!*p)
		return "end of line";
	if (is_ident_char((unsigned char)*p) || *p == '%')
		while (p[l] && (is_ident_char((unsigned char)p[l]) || (l == 0 && p[l] == '%')) &&
		       l < 24)
			l++;
	else
		while (p[l] && !is_blank((unsigned char)p[l]) && l < 24)
			l++;
	snprintf(buf, n, "'%.*s'", (int)l, p);
	return buf;
}

int asm_err(struct cur *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int asm_err(struct cur *c, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	skip_ws(c);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return diag_at_line(c->a->d, EINVAL, c->a->line, col_of(c), "%s", msg);
}

/* "expected X WHERE, got 'y'" at the cursor. */
int asm_expected(struct cur *c, const char *what, const char *where)
{
	char buf[40];

	return asm_err(c, "expected %s%s%s, got %s", what, where && *where ? " " : "",
		    where ? where : "", asm_found(c, buf, sizeof(buf)));
}

/* Punctuation or an operator. */
bool asm_lit(struct cur *c, const char *s)
{
	size_t l = strlen(s);

	skip_ws(c);
	if (strncmp(c->p, s, l))
		return false;
	c->p += l;
	return true;
}

/* A whole word: s followed by a character that cannot continue an identifier. */
bool asm_word(struct cur *c, const char *s)
{
	size_t l = strlen(s);

	skip_ws(c);
	if (strncmp(c->p, s, l) || is_ident_char((unsigned char)c->p[l]))
		return false;
	c->p += l;
	return true;
}

int asm_need(struct cur *c, const char *s, const char *where)
{
	char what[32];

	if (asm_lit(c, s))
		return 0;
	snprintf(what, sizeof(what), "'%s'", s);
	return asm_expected(c, what, where);
}

int asm_need_end(struct cur *c)
{
	char buf[40];

	skip_ws(c);
	if (*c->p == '<') {	/* llvm-objdump annotation: "goto -3 <LBB0_1>" */
		char *q = strchr(c->p, '>');

		if (q) {
			c->p = q + 1;
			skip_ws(c);
		}
	}
	if (!*c->p)
		return 0;
	return asm_err(c, "unexpected %s after the instruction", asm_found(c, buf, sizeof(buf)));
}

/* Reads an identifier; returns its length (0 when there is none). */
size_t asm_ident(struct cur *c, const char **s)
{
	size_t l = 0;

	skip_ws(c);
	if (!is_ident_start((unsigned char)*c->p))
		return 0;
	while (is_ident_char((unsigned char)c->p[l]))
		l++;
	*s = c->p;
	c->p += l;
	return l;
}

/* Registers: r0..r10 or w0..w10, with an optional '%' (ubpf).  Returns 1 when one was read,
 * 0 when the text is not a register (nothing consumed), or an error for r11 and the like. */
int asm_try_reg(struct cur *c, uint8_t *reg, bool *w32)
{
	const char *p;
	unsigned v = 0;
	int digits = 0;

	skip_ws(c);
	p = c->p;
	if (*p == '%')
		p++;
	if (*p != 'r' && *p != 'w')
		return 0;
	if (!isdigit((unsigned char)p[1]))
		return 0;
	for (const char *q = p + 1; isdigit((unsigned char)*q); q++) {
		if (v < 1000)
			v = v * 10 + (unsigned)(*q - '0');
		digits++;
	}
	if (is_ident_char((unsigned char)p[1 + digits]))
		return 0;
	if (v > 10 || (digits > 1 && p[1] == '0'))
		return asm_err(c, "expected a register (r0-r10), got '%.*s'", digits + 1 +
			    (*c->p == '%'), c->p);
	if (w32)
		*w32 = *p == 'w';
	*reg = (uint8_t)v;
	c->p = (char *)p + 1 + digits;
	return 1;
}

int asm_need_reg(struct cur *c, uint8_t *reg, bool *w32, const char *where)
{
	int r = asm_try_reg(c, reg, w32);

	if (r < 0)
		return r;
	if (r == 0)
		return asm_expected(c, "a register (r0-r10)", where);
	return 0;
}

int asm_try_num(struct cur *c, struct num *n)
{
	char *p;
	uint64_t v = 0;

	skip_ws(c);
	p = c->p;
	n->col = col_of(c);
	n->neg = n->sign = false;
	if (*p == '+' || *p == '-') {
		n->sign = true;
		n->neg = *p == '-';
		p++;
	}
	if (!isdigit((unsigned char)*p))
		return 0;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		if (!isxdigit((unsigned char)*p)) {
			c->p = p;
			return asm_err(c, "expected hex digits after '0x'");
		}
		for (; isxdigit((unsigned char)*p); p++) {
			unsigned dv = hexv(*p);

			if (v >> 60)
				return asm_err(c, "number does not fit in 64 bits");
			v = v * 16 + dv;
		}
	} else {
		for (; isdigit((unsigned char)*p); p++) {
			unsigned dv = (unsigned)(*p - '0');

			if (v > (UINT64_MAX - dv) / 10)
				return asm_err(c, "number does not fit in 64 bits");
			v = v * 10 + dv;
		}
	}
	if (is_ident_char((unsigned char)*p)) {
		char buf[40];

		return asm_err(c, "malformed number %s", asm_found(c, buf, sizeof(buf)));
	}
	n->mag = v;
	c->p = p;
	return 1;
}

int asm_need_num(struct cur *c, struct num *n, const char *what, const char *where)
{
	int r = asm_try_num(c, n);

	if (r < 0)
		return r;
	if (r == 0)
		return asm_expected(c, what, where);
	return 0;
}

/* The value as an int64 when it is in [lo, hi]. */
bool asm_num_in(const struct num *n, int64_t lo, int64_t hi, int64_t *out)
{
	if (n->neg) {
		if (n->mag > (uint64_t)INT64_MAX + 1)
			return false;
		*out = n->mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)n->mag;
	} else {
		if (n->mag > (uint64_t)INT64_MAX)
			return false;
		*out = (int64_t)n->mag;
	}
	return *out >= lo && *out <= hi;
}

/* The number as a 32-bit immediate / a 16-bit offset.  *out is written on every path, 0 with an
 * error: callers write "if ((err = asm_need_num(...)) || (err = asm_num_imm32(c, &n, &imm)))
 * return err;" and then use imm, and a compiler that cannot see that diag_at_line() never returns
 * 0 (it is in another file) would take imm as possibly uninitialised (-Wmaybe-uninitialized). */
int asm_num_imm32(struct cur *c, const struct num *n, int32_t *out)
{
	int64_t v;

	if (!asm_num_in(n, INT32_MIN, UINT32_MAX, &v)) {
		*out = 0;
		return diag_at_line(c->a->d, EINVAL, c->a->line, n->col,
				    "immediate %s%llu does not fit in 32 bits "
				    "(-2147483648..0xffffffff)",
				    n->neg ? "-" : "", (unsigned long long)n->mag);
	}
	*out = s32_of(v);
	return 0;
}

int asm_num_off16(struct cur *c, const struct num *n, int16_t *out)
{
	int64_t v;

	if (!asm_num_in(n, INT16_MIN, INT16_MAX, &v)) {
		*out = 0;
		return diag_at_line(c->a->d, EINVAL, c->a->line, n->col,
				    "offset %s%llu does not fit in 16 bits (-32768..32767)",
				    n->neg ? "-" : "", (unsigned long long)n->mag);
	}
	*out = (int16_t)v;
	return 0;
}

/* Jump targets. */
int asm_parse_target(struct cur *c, struct target *t, const char *where)
{
	struct num n;
	const char *s;
	size_t l;
	int r;

	skip_ws(c);
	t->col = col_of(c);
	if (c->p[0] == 'p' && c->p[1] == 'c' && (c->p[2] == '+' || c->p[2] == '-' ||
						 is_blank((unsigned char)c->p[2]))) {
		char *save = c->p;

		c->p += 2;
		skip_ws(c);
		if (*c->p == '+' || *c->p == '-') {
			if ((r = asm_need_num(c, &n, "an offset", "after 'pc'")))
				return r;
			goto rel;
		}
		c->p = save;	/* a label named "pc" */
	}
	if (isdigit((unsigned char)*c->p)) {
		char *q = c->p;

		while (isdigit((unsigned char)*q))
			q++;
		if ((*q == 'b' || *q == 'f') && !is_ident_char((unsigned char)q[1])) {
			uint64_t v = 0;

			for (char *p = c->p; p < q; p++)
				v = v > UINT64_MAX / 100 ? v : v * 10 + (uint64_t)(*p - '0');
			t->kind = T_LOCAL;
			t->num = v;
			t->dir = *q;
			c->p = q + 1;
			return 0;
		}
	}
	r = asm_try_num(c, &n);
	if (r < 0)
		return r;
	if (r > 0)
		goto rel;
	l = asm_ident(c, &s);
	if (!l)
		return asm_expected(c, "a jump target (pc+N, +N, -N, a label or 1b/1f)", where);
	t->kind = T_LABEL;
	t->name = s;
	t->nlen = l;
	return 0;
rel:
	if (!asm_num_in(&n, INT32_MIN, INT32_MAX, &t->rel))
		return diag_at_line(c->a->d, EINVAL, c->a->line, n.col,
				    "jump offset does not fit in 32 bits");
	t->kind = T_REL;
	return 0;
}

/* "REG", "REG + N", "REG - N", "REG +N" up to (not including) the closing bracket. */
int asm_parse_reg_off(struct cur *c, uint8_t *reg, int16_t *off)
{
	struct num n;
	bool neg;
	int err;

	if ((err = asm_need_reg(c, reg, NULL, "as the base address")))
		return err;
	*off = 0;
	skip_ws(c);
	if (*c->p != '+' && *c->p != '-')
		return 0;
	neg = *c->p == '-';
	c->p++;
	if ((err = asm_need_num(c, &n, "an offset", neg ? "after '-'" : "after '+'")))
		return err;
	if (neg)
		n.neg = !n.neg;
	return asm_num_off16(c, &n, off);
}
