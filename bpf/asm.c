/* The assembler: text in any of the four dialects BPF developers read (see asm.h) to kernel
 * struct bpf_insn encodings, with labels resolved and every error located at file line:column.
 *
 * The dialect is told apart per statement by its first word: a ubpf mnemonic ("mov32", "ldxb",
 * "jslt", "lock add") selects the ubpf grammar, anything else (a register, "if", "goto", "*(",
 * "lock *(", "call", "exit") the kernel/LLVM grammar, which also covers llvm-objdump's text.
 *
 * Line decorations that are recognised and skipped:
 *   - comments: "//" and "#" (at the start or after a blank) to end of line, and C comments;
 *   - verifier log / bpftool columns "12: (07) " before an instruction, with the rest of the
 *     line after ';' (the register state); a "(07)" column must match the encoding, and a pc
 *     that repeats an earlier instruction with the same encoding is dropped, so a level-2
 *     verifier log that revisits instructions on several paths assembles to the program once;
 *     the same for the log's liveness listing "  1   4: 01...5.... (07) r0 += 1" (loop depth,
 *     pc, live registers).  Once a text has such "N: (07)" lines it is read as a log: every
 *     other line ("5: R1=ctx()", "from 4 to 6: ...", "mark_precise: ...") is the verifier's
 *     commentary, whose vocabulary changes with every kernel, and is skipped (label lines
 *     "L12:" excepted, as ebpf_disasm() prints them with pc and opcode columns);
 *   - "; source" annotations and "processed 12 insns ..." style lines of logs and bpftool;
 *   - llvm-objdump lines "  3:\t07 01 00 00 01 00 00 00\tr1 += 1": the hex bytes ARE the
 *     instruction and the text after them is not read (objdump text alone is ambiguous: a linked
 *     local call prints as "call 11", like helper 11); "<LBB0_1>" annotations, "Disassembly of
 *     section" and "0000000000000000 <prog>:" headers, "<L1>:" labels of --symbolize-operands,
 *     relocation lines of -r, "file format" lines;
 *   - bpftool function headers ("int prog(struct xdp_md * ctx):").
 * A "N:" without an opcode column is an LLVM local label (harmless when it was meant as a pc).
 *
 * Kernel/LLVM syntax, as kernel/bpf/disasm.c prints it plus LLVM's spellings:
 *   r1 = 0   w2 += 4   r1 s/= r2   r1 s%= 3   r1 s>>= 3   r1 = -r1   w1 = (s8)w2   r1 = (s32)r2
 *   r1 = be16 r1   r1 = le32 r1   r1 = bswap64 r1
 *   if r1 < 0xa goto pc-3   if w1 s> w2 goto +5   if r1 & 0x4 goto loop   goto pc+2   goto 1b
 *   gotol pc+70000   may_goto pc+3   exit
 *   r0 = *(u32 *)(r1 +4)   r0 = *(s16 *)(r1 - 2)   *(u64 *)(r10 -8) = r1   *(u32 *)(r10 -4) = 7
 *   lock *(u64 *)(r10 -8) += r1   (also |= &= ^=)
 *   r0 = atomic64_fetch_add((u64 *)(r10 -8), r0)   r0 = atomic_fetch_or((u32 *)(r1 +0), r0)
 *   r1 = atomic64_xchg((u64 *)(r2 +0), r1)   r0 = atomic64_cmpxchg((u64 *)(r1 +0), r0, r2)
 *   LLVM: r1 = atomic_fetch_add((u64 *)(r10 - 8), r1), r1 = xchg_64(r2 + 0, r1),
 *         w1 = xchg32_32(r2 + 0, w1), r0 = cmpxchg_64(r1 + 0, r0, r2), cmpxchg32_32
 *   r0 = load_acquire((u64 *)(r1 +0))   store_release((u64 *)(r1 +0), r2)
 *   r0 = *(u8 *)skb[12]   r0 = *(u16 *)skb[r1 + 4]   r0 = *(u16 *)skb[r1]
 *   call bpf_map_lookup_elem#1   call bpf_map_lookup_elem   call 7   call unknown#300
 *   call pc+5   call +5 / call -1 (a signed number is bpf-to-bpf, as llvm-objdump prints it)
 *   call func1 (a label: bpf-to-bpf; labels win over helper names)   call local func1
 *   call kernel-function#1234 (kfunc; also kfunc#1234, or NAME#1234 for a NAME that is not a
 *   helper, as the verifier log prints kfuncs)   call kernel-function#1234 off:2 (kfunc with
 *   a module BTF fd index)   callx r2   call r2
 *   r1 = 0x1234 ll (LD_IMM64; a constant that does not fit 32 bits, or a "(18)" opcode column,
 *   also selects LD_IMM64 without "ll")
 * LD_IMM64 pseudo sources ("ll" optional), spellings chosen here:
 *   r1 = map[fd:3] ll          BPF_PSEUDO_MAP_FD, imm = fd
 *   r1 = map[fd:3]+16 ll       BPF_PSEUDO_MAP_VALUE, value offset 16 (printed even when +0)
 *   r1 = map[idx:0] ll         BPF_PSEUDO_MAP_IDX
 *   r1 = map[idx:0]+8 ll       BPF_PSEUDO_MAP_IDX_VALUE
 *   r1 = btf_id 5 ll           BPF_PSEUDO_BTF_ID (btf_id 5 btf_fd:7 ll for a module BTF fd)
 *   r1 = func pc+4 ll          BPF_PSEUDO_FUNC (or func LABEL)
 * Raw slot: ".bytes 07 01 00 00 01 00 00 00", 8 bytes in memory order: how the disassembler
 * prints a slot that does not validate, so that any byte string round-trips.
 * Jump targets: pc+N, pc-N, +N, -N, N, a label, an LLVM local label reference 1b / 1f, or
 * "exit" (ubpf: the label "exit" when defined, else the first exit instruction).
 * Statements are separated by ';' or newlines; labels are "name:" before a statement.
 *
 * ubpf dialect (the conformance suite): mov32 %r0, 0   add %r0, %r1   neg32 %r0   sdiv, smod,
 * arsh ... with a "32" suffix for ALU; be16/le32/swap16/bswap16 %r0; movsx832, movsx1632,
 * movsx864, movsx1664, movsx3264 %r0, %r1; ldxb %r0, [%r1+0x2]; ldxsb/ldxsh/ldxsw;
 * stb [%r1+2], 0x11; stxdw [%r10-8], %r0; lddw %r0, 0x123456789abcdef0; ldabsb 12;
 * ldindh %r1, 4; ja L1 / ja +1; ja32 L1 (gotol); jslt %r1, 0xfffffffd, exit (32 suffix for
 * JMP32); lock [fetch] add|and|or|xor[32] [%r10-8], %r1; lock xchg[32] / cmpxchg[32];
 * call 5 / call helper 5 / call local func1 / call runtime 5 (kfunc) / call %r2 (callx, target
 * in dst_reg); exit.  The '%' before registers is optional.
 *
 * Immediates are decimal or hex, may be negative, and 32-bit fields take -2^31..0xffffffff
 * (stored as the int32 bit pattern, so 0xffffffff is -1).  Offsets are int16.  Nothing is
 * validated beyond the encoding: ebpf_validate() judges the program.
 */
#include "bpf/asm.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum fix_kind {
	FIX_OFF,	/* relative target in off (int16) */
	FIX_IMM,	/* relative target in imm (gotol, bpf-to-bpf call, ld_imm64 func) */
	FIX_CALL,	/* "call NAME": a label (bpf-to-bpf) or else a helper name */
};

/* A jump target as written, before resolution. */
struct target {
	enum { T_REL, T_LABEL, T_LOCAL } kind;
	int64_t rel;		/* T_REL: slots after pc + 1 */
	const char *name;	/* T_LABEL: points into the line buffer */
	size_t nlen;
	uint64_t num;		/* T_LOCAL: 1b / 1f */
	char dir;
	int col;
};

struct label {
	char *name;
	size_t pc;
	int line, col;
};

struct local_label {
	uint64_t num;
	size_t pc;
	size_t seq;		/* statement number of the definition */
};

struct fixup {
	size_t pc;
	enum fix_kind kind;
	char *name;		/* NULL for a local label reference */
	uint64_t num;
	char dir;
	size_t seq;		/* statement number of the reference */
	int line, col;
};

struct asm_state {
	struct diag *d;
	struct bpf_insn *insns;
	uint32_t *lines;
	size_t len, cap;
	struct label *labels;
	size_t nlabels, caplabels;
	struct local_label *locals;
	size_t nlocals, caplocals;
	struct fixup *fix;
	size_t nfix, capfix;
	size_t seq;		/* statements seen, for 1b/1f */
	long first_exit;	/* pc of the first exit instruction, -1 before */
	int line;		/* absolute line number being assembled */
	char *lbuf;		/* current line, comments blanked */
	size_t lcap;
	size_t nlines_seen;
	bool log_mode;		/* the text is a verifier log (see detect_log) */
	bool in_comment;	/* inside a C comment that started on an earlier line */
	int comment_line, comment_col;
};

/* A position in the current line. */
struct cur {
	struct asm_state *a;
	char *p;
};

static bool is_ident_start(int c)
{
	return isalpha(c) || c == '_' || c == '.' || c == '$';
}

static bool is_ident_char(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '$';
}

static bool is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r';
}

static unsigned hexv(char ch)
{
	return isdigit((unsigned char)ch) ? (unsigned)(ch - '0')
					  : (unsigned)(tolower((unsigned char)ch) - 'a' + 10);
}

static void skip_ws(struct cur *c)
{
	while (is_blank((unsigned char)*c->p))
		c->p++;
}

static int col_of(const struct cur *c)
{
	return (int)(c->p - c->a->lbuf) + 1;
}

/* What the cursor looks at, for messages: "'r11'" or "end of line". */
static const char *found(const struct cur *c, char *buf, size_t n)
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

static int errc(struct cur *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int errc(struct cur *c, const char *fmt, ...)
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
static int expected(struct cur *c, const char *what, const char *where)
{
	char buf[40];

	return errc(c, "expected %s%s%s, got %s", what, where && *where ? " " : "",
		    where ? where : "", found(c, buf, sizeof(buf)));
}

/* Punctuation or an operator. */
static bool lit(struct cur *c, const char *s)
{
	size_t l = strlen(s);

	skip_ws(c);
	if (strncmp(c->p, s, l))
		return false;
	c->p += l;
	return true;
}

/* A whole word: s followed by a character that cannot continue an identifier. */
static bool word(struct cur *c, const char *s)
{
	size_t l = strlen(s);

	skip_ws(c);
	if (strncmp(c->p, s, l) || is_ident_char((unsigned char)c->p[l]))
		return false;
	c->p += l;
	return true;
}

static int need(struct cur *c, const char *s, const char *where)
{
	char what[32];

	if (lit(c, s))
		return 0;
	snprintf(what, sizeof(what), "'%s'", s);
	return expected(c, what, where);
}

static int need_end(struct cur *c)
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
	return errc(c, "unexpected %s after the instruction", found(c, buf, sizeof(buf)));
}

/* Reads an identifier; returns its length (0 when there is none). */
static size_t ident(struct cur *c, const char **s)
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

static bool ident_is(const char *s, size_t l, const char *w)
{
	return strlen(w) == l && !strncmp(s, w, l);
}

/* Registers: r0..r10 or w0..w10, with an optional '%' (ubpf).  Returns 1 when one was read,
 * 0 when the text is not a register (nothing consumed), or an error for r11 and the like. */
static int try_reg(struct cur *c, uint8_t *reg, bool *w32)
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
		return errc(c, "expected a register (r0-r10), got '%.*s'", digits + 1 +
			    (*c->p == '%'), c->p);
	if (w32)
		*w32 = *p == 'w';
	*reg = (uint8_t)v;
	c->p = (char *)p + 1 + digits;
	return 1;
}

static int need_reg(struct cur *c, uint8_t *reg, bool *w32, const char *where)
{
	int r = try_reg(c, reg, w32);

	if (r < 0)
		return r;
	if (r == 0)
		return expected(c, "a register (r0-r10)", where);
	return 0;
}

/* The register must be a 64-bit one (or, with want32, a 32-bit one). */
static int need_reg_width(struct cur *c, uint8_t *reg, bool want32, const char *where)
{
	bool w;
	char *at;
	int err;

	skip_ws(c);
	at = c->p;
	if ((err = need_reg(c, reg, &w, where)))
		return err;
	if (w != want32) {
		c->p = at;
		return errc(c, "expected a %s register (%s) %s, got '%c%u'",
			    want32 ? "32-bit" : "64-bit", want32 ? "w0-w10" : "r0-r10", where,
			    w ? 'w' : 'r', *reg);
	}
	return 0;
}

/* Numbers: [+-]?(0x hex | decimal) as a sign and a 64-bit magnitude.  Returns 1, 0 when there
 * is no number here (nothing consumed), or an error. */
struct num {
	bool neg;
	bool sign;	/* written with an explicit + or - */
	uint64_t mag;
	int col;
};

static int try_num(struct cur *c, struct num *n)
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
			return errc(c, "expected hex digits after '0x'");
		}
		for (; isxdigit((unsigned char)*p); p++) {
			unsigned dv = hexv(*p);

			if (v >> 60)
				return errc(c, "number does not fit in 64 bits");
			v = v * 16 + dv;
		}
	} else {
		for (; isdigit((unsigned char)*p); p++) {
			unsigned dv = (unsigned)(*p - '0');

			if (v > (UINT64_MAX - dv) / 10)
				return errc(c, "number does not fit in 64 bits");
			v = v * 10 + dv;
		}
	}
	if (is_ident_char((unsigned char)*p)) {
		char buf[40];

		return errc(c, "malformed number %s", found(c, buf, sizeof(buf)));
	}
	n->mag = v;
	c->p = p;
	return 1;
}

static int need_num(struct cur *c, struct num *n, const char *what, const char *where)
{
	int r = try_num(c, n);

	if (r < 0)
		return r;
	if (r == 0)
		return expected(c, what, where);
	return 0;
}

/* The value as an int64 when it is in [lo, hi]. */
static bool num_in(const struct num *n, int64_t lo, int64_t hi, int64_t *out)
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

static int32_t s32_of(int64_t v)	/* v in [INT32_MIN, UINT32_MAX]: the int32 bit pattern */
{
	uint32_t u = (uint32_t)v;

	return u > INT32_MAX ? (int32_t)(u - 0x80000000u) + INT32_MIN : (int32_t)u;
}

static int num_imm32(struct cur *c, const struct num *n, int32_t *out)
{
	int64_t v;

	if (!num_in(n, INT32_MIN, UINT32_MAX, &v))
		return diag_at_line(c->a->d, EINVAL, c->a->line, n->col,
				    "immediate %s%llu does not fit in 32 bits "
				    "(-2147483648..0xffffffff)",
				    n->neg ? "-" : "", (unsigned long long)n->mag);
	*out = s32_of(v);
	return 0;
}

static int num_off16(struct cur *c, const struct num *n, int16_t *out)
{
	int64_t v;

	if (!num_in(n, INT16_MIN, INT16_MAX, &v))
		return diag_at_line(c->a->d, EINVAL, c->a->line, n->col,
				    "offset %s%llu does not fit in 16 bits (-32768..32767)",
				    n->neg ? "-" : "", (unsigned long long)n->mag);
	*out = (int16_t)v;
	return 0;
}

static uint64_t num_u64(const struct num *n)	/* any 64-bit value, two's complement */
{
	return n->neg ? 0 - n->mag : n->mag;
}

static bool num_fits64(const struct num *n)
{
	return !n->neg || n->mag <= (uint64_t)INT64_MAX + 1;
}

static struct bpf_insn mk(uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	struct bpf_insn i;

	memset(&i, 0, sizeof(i));
	i.code = code;
	i.dst_reg = dst & 0xf;
	i.src_reg = src & 0xf;
	i.off = off;
	i.imm = imm;
	return i;
}

static int emit(struct asm_state *a, struct bpf_insn i)
{
	if (a->len == a->cap) {
		size_t nc = a->cap ? a->cap * 2 : 64;
		struct bpf_insn *ni;
		uint32_t *nl;

		if (a->len >= EBPF_MAX_INSNS)
			return diag_at_line(a->d, E2BIG, a->line, 1, "program has more than %u "
					    "instruction slots", EBPF_MAX_INSNS);
		ni = realloc(a->insns, nc * sizeof(*ni));
		if (!ni)
			return diag_set(a->d, ENOMEM, "out of memory");
		a->insns = ni;
		nl = realloc(a->lines, nc * sizeof(*nl));
		if (!nl)
			return diag_set(a->d, ENOMEM, "out of memory");
		a->lines = nl;
		a->cap = nc;
	}
	a->insns[a->len] = i;
	a->lines[a->len] = a->line > 0 ? (uint32_t)a->line : 0;
	a->len++;
	return 0;
}

static int emit_ldimm64(struct asm_state *a, uint8_t dst, uint8_t src, uint32_t lo, uint32_t hi)
{
	int err = emit(a, mk(BPF_LD | BPF_IMM | BPF_DW, dst, src, 0, s32_of(lo)));

	return err ? err : emit(a, mk(0, 0, 0, 0, s32_of(hi)));
}

/* Jump targets. */
static int parse_target(struct cur *c, struct target *t, const char *where)
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
			if ((r = need_num(c, &n, "an offset", "after 'pc'")))
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
	r = try_num(c, &n);
	if (r < 0)
		return r;
	if (r > 0)
		goto rel;
	l = ident(c, &s);
	if (!l)
		return expected(c, "a jump target (pc+N, +N, -N, a label or 1b/1f)", where);
	t->kind = T_LABEL;
	t->name = s;
	t->nlen = l;
	return 0;
rel:
	if (!num_in(&n, INT32_MIN, INT32_MAX, &t->rel))
		return diag_at_line(c->a->d, EINVAL, c->a->line, n.col,
				    "jump offset does not fit in 32 bits");
	t->kind = T_REL;
	return 0;
}

static int add_fixup(struct asm_state *a, size_t pc, enum fix_kind kind, const struct target *t)
{
	struct fixup *f;

	if (a->nfix == a->capfix) {
		size_t nc = a->capfix ? a->capfix * 2 : 32;
		struct fixup *nf = realloc(a->fix, nc * sizeof(*nf));

		if (!nf)
			return diag_set(a->d, ENOMEM, "out of memory");
		a->fix = nf;
		a->capfix = nc;
	}
	f = &a->fix[a->nfix];
	memset(f, 0, sizeof(*f));
	f->pc = pc;
	f->kind = kind;
	f->seq = a->seq;
	f->line = a->line;
	f->col = t->col;
	if (t->kind == T_LABEL) {
		f->name = strndup(t->name, t->nlen);
		if (!f->name)
			return diag_set(a->d, ENOMEM, "out of memory");
	} else {
		f->num = t->num;
		f->dir = t->dir;
	}
	a->nfix++;
	return 0;
}

static int set_rel(struct asm_state *a, struct bpf_insn *i, enum fix_kind kind, int64_t rel,
		   int line, int col)
{
	if (kind == FIX_OFF) {
		if (rel < INT16_MIN || rel > INT16_MAX)
			return diag_at_line(a->d, EINVAL, line, col,
					    "jump offset %lld does not fit in 16 bits (-32768..32767; "
					    "gotol takes 32)", (long long)rel);
		i->off = (int16_t)rel;
	} else {
		if (rel < INT32_MIN || rel > INT32_MAX)
			return diag_at_line(a->d, EINVAL, line, col,
					    "offset %lld does not fit in 32 bits", (long long)rel);
		i->imm = (int32_t)rel;
	}
	return 0;
}

/* Emits i with its target: a relative one now, a label at the end. */
static int emit_jump(struct cur *c, struct bpf_insn i, enum fix_kind kind, const struct target *t)
{
	struct asm_state *a = c->a;
	int err;

	if (t->kind == T_REL) {
		if ((err = set_rel(a, &i, kind, t->rel, a->line, t->col)))
			return err;
		return emit(a, i);
	}
	if ((err = add_fixup(a, a->len, kind, t)))
		return err;
	return emit(a, i);
}

/* Duplicates are found after sorting, in resolve(). */
static int define_label(struct asm_state *a, const char *s, size_t l, int col)
{
	if (a->nlabels == a->caplabels) {
		size_t nc = a->caplabels ? a->caplabels * 2 : 16;
		struct label *nl = realloc(a->labels, nc * sizeof(*nl));

		if (!nl)
			return diag_set(a->d, ENOMEM, "out of memory");
		a->labels = nl;
		a->caplabels = nc;
	}
	a->labels[a->nlabels].name = strndup(s, l);
	if (!a->labels[a->nlabels].name)
		return diag_set(a->d, ENOMEM, "out of memory");
	a->labels[a->nlabels].pc = a->len;
	a->labels[a->nlabels].line = a->line;
	a->labels[a->nlabels].col = col;
	a->nlabels++;
	return 0;
}

static int define_local(struct asm_state *a, uint64_t num)
{
	if (a->nlocals == a->caplocals) {
		size_t nc = a->caplocals ? a->caplocals * 2 : 16;
		struct local_label *nl = realloc(a->locals, nc * sizeof(*nl));

		if (!nl)
			return diag_set(a->d, ENOMEM, "out of memory");
		a->locals = nl;
		a->caplocals = nc;
	}
	a->locals[a->nlocals].num = num;
	a->locals[a->nlocals].pc = a->len;
	a->locals[a->nlocals].seq = a->seq;
	a->nlocals++;
	return 0;
}

/* Memory operands. */
static int parse_size(struct cur *c, uint8_t *size, bool *sx, bool allow_sx)
{
	static const struct { const char *name; uint8_t size; bool sx; } sizes[] = {
		{ "u8", BPF_B, false }, { "u16", BPF_H, false }, { "u32", BPF_W, false },
		{ "u64", BPF_DW, false }, { "s8", BPF_B, true }, { "s16", BPF_H, true },
		{ "s32", BPF_W, true },
	};

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
		if ((allow_sx || !sizes[k].sx) && word(c, sizes[k].name)) {
			*size = sizes[k].size;
			if (sx)
				*sx = sizes[k].sx;
			return 0;
		}
	return expected(c, allow_sx ? "a size (u8, u16, u32, u64, s8, s16, s32)"
				    : "a size (u8, u16, u32, u64)", "in the pointer cast");
}

/* "(SIZE *)" after the opening '(' was read. */
static int parse_cast(struct cur *c, uint8_t *size, bool *sx, bool allow_sx)
{
	int err;

	if ((err = parse_size(c, size, sx, allow_sx)))
		return err;
	if ((err = need(c, "*", "after the size")))
		return err;
	return need(c, ")", "to close the pointer cast");
}

/* "REG", "REG + N", "REG - N", "REG +N" up to (not including) the closing bracket. */
static int parse_reg_off(struct cur *c, uint8_t *reg, int16_t *off)
{
	struct num n;
	bool neg;
	int err;

	if ((err = need_reg(c, reg, NULL, "as the base address")))
		return err;
	*off = 0;
	skip_ws(c);
	if (*c->p != '+' && *c->p != '-')
		return 0;
	neg = *c->p == '-';
	c->p++;
	if ((err = need_num(c, &n, "an offset", neg ? "after '-'" : "after '+'")))
		return err;
	if (neg)
		n.neg = !n.neg;
	return num_off16(c, &n, off);
}

/* "(REG +OFF)" */
static int parse_mem(struct cur *c, uint8_t *reg, int16_t *off)
{
	int err;

	if ((err = need(c, "(", "before the address")))
		return err;
	if ((err = parse_reg_off(c, reg, off)))
		return err;
	return need(c, ")", "after the address");
}

/* "((SIZE *)(REG +OFF)" — the argument of atomic and acquire/release calls. */
static int parse_cast_mem(struct cur *c, uint8_t *size, uint8_t *reg, int16_t *off)
{
	int err;

	if ((err = need(c, "(", "before the pointer cast")))
		return err;
	if ((err = parse_cast(c, size, NULL, false)))
		return err;
	return parse_mem(c, reg, off);
}

/* ALU and jump operator tables: kernel symbol, ubpf mnemonic, opcode, off. */
struct alu_op {
	const char *sym, *name;
	uint8_t op;
	int16_t off;
};

static const struct alu_op alu_ops[] = {	/* longest symbols first */
	{ "s>>=", "arsh", BPF_ARSH, 0 }, { "s/=", "sdiv", BPF_DIV, 1 }, { "s%=", "smod", BPF_MOD, 1 },
	{ "<<=", "lsh", BPF_LSH, 0 }, { ">>=", "rsh", BPF_RSH, 0 }, { "+=", "add", BPF_ADD, 0 },
	{ "-=", "sub", BPF_SUB, 0 }, { "*=", "mul", BPF_MUL, 0 }, { "/=", "div", BPF_DIV, 0 },
	{ "|=", "or", BPF_OR, 0 }, { "&=", "and", BPF_AND, 0 }, { "%=", "mod", BPF_MOD, 0 },
	{ "^=", "xor", BPF_XOR, 0 }, { "=", "mov", BPF_MOV, 0 },
};

struct jmp_op {
	const char *sym, *name;
	uint8_t op;
};

static const struct jmp_op jmp_ops[] = {	/* longest symbols first */
	{ "s>=", "jsge", BPF_JSGE }, { "s<=", "jsle", BPF_JSLE }, { "s>", "jsgt", BPF_JSGT },
	{ "s<", "jslt", BPF_JSLT }, { "==", "jeq", BPF_JEQ }, { "!=", "jne", BPF_JNE },
	{ ">=", "jge", BPF_JGE }, { "<=", "jle", BPF_JLE }, { ">", "jgt", BPF_JGT },
	{ "<", "jlt", BPF_JLT }, { "&", "jset", BPF_JSET },
};

/* ---- call ---- */

static int emit_kfunc(struct cur *c, int32_t id)
{
	int16_t off = 0;
	struct num n;
	int err;

	if (word(c, "off")) {
		if ((err = need(c, ":", "after 'off'")))
			return err;
		if ((err = need_num(c, &n, "a BTF fd index", "after 'off:'")) ||
		    (err = num_off16(c, &n, &off)))
			return err;
	}
	if ((err = need_end(c)))
		return err;
	return emit(c->a, mk(BPF_JMP | BPF_CALL | BPF_K, 0, BPF_PSEUDO_KFUNC_CALL, off, id));
}

/* Everything after "call" (both dialects). */
static int parse_call(struct cur *c)
{
	struct target t;
	struct num n;
	const char *s;
	uint8_t reg;
	int32_t imm;
	size_t l;
	bool kf = false;
	int err, r;

	r = try_reg(c, &reg, NULL);
	if (r < 0)
		return r;
	if (r > 0) {
		if ((err = need_end(c)))
			return err;
		return emit(c->a, mk(BPF_JMP | BPF_CALL | BPF_X, reg, 0, 0, 0));
	}
	skip_ws(c);
	if (!strncmp(c->p, "kernel-function", 15) && !is_ident_char((unsigned char)c->p[15])) {
		c->p += 15;
		if ((err = need(c, "#", "after 'kernel-function'")) ||
		    (err = need_num(c, &n, "a kfunc BTF id", "after '#'")) ||
		    (err = num_imm32(c, &n, &imm)))
			return err;
		return emit_kfunc(c, imm);
	}
	if (word(c, "local")) {
		if ((err = parse_target(c, &t, "after 'call local'")) || (err = need_end(c)))
			return err;
		return emit_jump(c, mk(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 0), FIX_IMM, &t);
	}
	if (word(c, "helper") || (kf = word(c, "runtime"))) {
		if ((err = need_num(c, &n, kf ? "a kfunc id" : "a helper id", "")) ||
		    (err = num_imm32(c, &n, &imm)))
			return err;
		if (kf)
			return emit_kfunc(c, imm);
		if ((err = need_end(c)))
			return err;
		return emit(c->a, mk(BPF_JMP | BPF_CALL, 0, 0, 0, imm));
	}
	skip_ws(c);
	if (c->p[0] == 'p' && c->p[1] == 'c' && (c->p[2] == '+' || c->p[2] == '-')) {
		if ((err = parse_target(c, &t, "after 'call'")) || (err = need_end(c)))
			return err;
		return emit_jump(c, mk(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 0), FIX_IMM, &t);
	}
	r = try_num(c, &n);
	if (r < 0)
		return r;
	if (r > 0) {
		if (n.sign) {	/* "call -1", "call +5": bpf-to-bpf as llvm-objdump prints it */
			t.kind = T_REL;
			t.col = n.col;
			if (!num_in(&n, INT32_MIN, INT32_MAX, &t.rel))
				return errc(c, "call offset does not fit in 32 bits");
			if ((err = need_end(c)))
				return err;
			return emit_jump(c, mk(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 0), FIX_IMM,
					 &t);
		}
		if ((err = num_imm32(c, &n, &imm)) || (err = need_end(c)))
			return err;
		return emit(c->a, mk(BPF_JMP | BPF_CALL, 0, 0, 0, imm));
	}
	t.col = col_of(c);
	l = ident(c, &s);
	if (!l)
		return expected(c, "a helper, label, kfunc or register", "after 'call'");
	if (*c->p == '#') {	/* NAME#ID as the verifier log prints it */
		char name[128];
		int32_t hid;

		c->p++;
		if ((err = need_num(c, &n, "an id", "after '#'")) || (err = num_imm32(c, &n, &imm)))
			return err;
		snprintf(name, sizeof(name), "%.*s", (int)(l < 127 ? l : 127), s);
		if (ident_is(s, l, "kfunc"))
			return emit_kfunc(c, imm);
		if (ident_is(s, l, "unknown")) {
			if ((err = need_end(c)))
				return err;
			return emit(c->a, mk(BPF_JMP | BPF_CALL, 0, 0, 0, imm));
		}
		hid = l < 127 ? ebpf_helper_by_name(name) : -1;
		if (hid < 0)	/* not a helper: the verifier log names kfuncs this way */
			return emit_kfunc(c, imm);
		if (hid != imm)
			return diag_at_line(c->a->d, EINVAL, c->a->line, n.col,
					    "helper %s is #%d, not #%d", name, hid, imm);
		if ((err = need_end(c)))
			return err;
		return emit(c->a, mk(BPF_JMP | BPF_CALL, 0, 0, 0, imm));
	}
	if ((err = need_end(c)))
		return err;
	t.kind = T_LABEL;
	t.name = s;
	t.nlen = l;
	return emit_jump(c, mk(BPF_JMP | BPF_CALL, 0, 0, 0, 0), FIX_CALL, &t);
}

/* ---- kernel / LLVM syntax ---- */

/* "lock *(u64 *)(r10 -8) += r1" after "lock". */
static int parse_lock_kernel(struct cur *c)
{
	static const struct { const char *sym; int32_t imm; } ops[] = {
		{ "+=", BPF_ADD }, { "|=", BPF_OR }, { "&=", BPF_AND }, { "^=", BPF_XOR },
	};
	uint8_t size, dst, src;
	int16_t off;
	int err;

	if ((err = need(c, "*", "after 'lock'")) || (err = need(c, "(", "after 'lock *'")) ||
	    (err = parse_cast(c, &size, NULL, false)) || (err = parse_mem(c, &dst, &off)))
		return err;
	for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
		if (lit(c, ops[k].sym)) {
			if ((err = need_reg(c, &src, NULL, "as the operand")) || (err = need_end(c)))
				return err;
			return emit(c->a, mk(BPF_STX | BPF_ATOMIC | size, dst, src, off, ops[k].imm));
		}
	return expected(c, "an atomic operation (+=, |=, &=, ^=)", "after the address");
}

/* "*(u32 *)(r1 +4) = r2" / "= 7" after "*(". */
static int parse_store(struct cur *c)
{
	uint8_t size, dst, src;
	int16_t off;
	struct num n;
	int32_t imm;
	int err, r;

	if ((err = parse_cast(c, &size, NULL, false)) || (err = parse_mem(c, &dst, &off)) ||
	    (err = need(c, "=", "after the address")))
		return err;
	r = try_reg(c, &src, NULL);
	if (r < 0)
		return r;
	if (r > 0) {
		if ((err = need_end(c)))
			return err;
		return emit(c->a, mk(BPF_STX | BPF_MEM | size, dst, src, off, 0));
	}
	if ((err = need_num(c, &n, "a register or an immediate", "after '='")) ||
	    (err = num_imm32(c, &n, &imm)) || (err = need_end(c)))
		return err;
	return emit(c->a, mk(BPF_ST | BPF_MEM | size, dst, 0, off, imm));
}

/* "store_release((u64 *)(r1 +0), r2)" after the name. */
static int parse_store_release(struct cur *c)
{
	uint8_t size, dst, src;
	int16_t off;
	int err;

	if ((err = need(c, "(", "after 'store_release'")) ||
	    (err = parse_cast_mem(c, &size, &dst, &off)) || (err = need(c, ",", "after the address")) ||
	    (err = need_reg(c, &src, NULL, "as the value")) || (err = need(c, ")", "")) ||
	    (err = need_end(c)))
		return err;
	return emit(c->a, mk(BPF_STX | BPF_ATOMIC | size, dst, src, off, BPF_STORE_REL));
}

/* "r0 = *(u8 *)skb[12]" / "skb[r1 + 4]" after "skb". */
static int parse_skb(struct cur *c, uint8_t dst, uint8_t size, int size_col)
{
	uint8_t src = 0;
	struct num n;
	int32_t imm = 0;
	int err, r;

	if (size == BPF_DW)
		return diag_at_line(c->a->d, EINVAL, c->a->line, size_col,
				    "legacy packet loads have no 8-byte form");
	if (dst != 0)
		return diag_at_line(c->a->d, EINVAL, c->a->line, 1,
				    "legacy packet loads always write r0");
	if ((err = need(c, "[", "after 'skb'")))
		return err;
	r = try_reg(c, &src, NULL);
	if (r < 0)
		return r;
	if (r > 0) {
		skip_ws(c);
		if (*c->p == '+' || *c->p == '-') {
			bool neg = *c->p == '-';

			c->p++;
			if ((err = need_num(c, &n, "an offset", "in skb[]")))
				return err;
			if (neg)
				n.neg = !n.neg;
			if ((err = num_imm32(c, &n, &imm)))
				return err;
		}
	} else {
		if ((err = need_num(c, &n, "an offset or a register", "in skb[]")) ||
		    (err = num_imm32(c, &n, &imm)))
			return err;
	}
	if ((err = need(c, "]", "")) || (err = need_end(c)))
		return err;
	return emit(c->a, mk(BPF_LD | (r > 0 ? BPF_IND : BPF_ABS) | size, 0, src, 0, imm));
}

/* Atomic calls on the right of "REG =": kernel atomic[64]_*, LLVM xchg_64 / cmpxchg_64. */
static int parse_atomic_rhs(struct cur *c, uint8_t dst, bool dst32, const char *s, size_t l,
			    int name_col)
{
	static const struct { const char *name; int32_t imm; } fetch[] = {
		{ "fetch_add", BPF_ADD | BPF_FETCH }, { "fetch_and", BPF_AND | BPF_FETCH },
		{ "fetch_or", BPF_OR | BPF_FETCH }, { "fetch_xor", BPF_XOR | BPF_FETCH },
		{ "xchg", BPF_XCHG }, { "cmpxchg", BPF_CMPXCHG },
	};
	uint8_t size = 0, addr, src, r0;
	int16_t off;
	int32_t imm = -1;
	int want = -1;		/* size the name implies: -1 any */
	bool llvm = false;
	const char *rest = s;
	size_t rl = l;
	int err;

	if (l > 9 && !strncmp(s, "atomic64_", 9)) {
		want = BPF_DW;
		rest = s + 9;
		rl = l - 9;
	} else if (l > 7 && !strncmp(s, "atomic_", 7)) {
		rest = s + 7;
		rl = l - 7;
	} else {
		llvm = true;
		if (ident_is(s, l, "xchg_64") || ident_is(s, l, "cmpxchg_64"))
			want = BPF_DW;
		else
			want = BPF_W;	/* xchg32_32, cmpxchg32_32 */
		imm = s[0] == 'x' ? BPF_XCHG : BPF_CMPXCHG;
	}
	if (!llvm) {
		for (size_t k = 0; k < sizeof(fetch) / sizeof(fetch[0]); k++)
			if (ident_is(rest, rl, fetch[k].name))
				imm = fetch[k].imm;
		if (imm < 0)
			return diag_at_line(c->a->d, EINVAL, c->a->line, name_col,
					    "unknown atomic operation '%.*s'", (int)l, s);
	}
	if ((err = need(c, "(", "after the atomic operation")))
		return err;
	if (llvm) {	/* xchg_64(r2 + 0, r1) */
		size = (uint8_t)want;
		if ((err = parse_reg_off(c, &addr, &off)))
			return err;
	} else {
		int size_col;

		skip_ws(c);
		size_col = col_of(c) + 1;	/* after the cast's "(" */
		if ((err = parse_cast_mem(c, &size, &addr, &off)))
			return err;
		if (size != BPF_W && size != BPF_DW)
			return diag_at_line(c->a->d, EINVAL, c->a->line, size_col,
					    "atomic operations are 4 or 8 bytes wide");
		if (want == BPF_DW && size != BPF_DW)
			return diag_at_line(c->a->d, EINVAL, c->a->line, size_col,
					    "atomic64_ operations take a (u64 *) address");
	}
	if ((err = need(c, ",", "after the address")))
		return err;
	if (imm == BPF_CMPXCHG) {
		char *at;

		skip_ws(c);
		at = c->p;
		if ((err = need_reg(c, &r0, NULL, "as the expected value")))
			return err;
		if (r0 != 0 || dst != 0) {
			c->p = at;
			return errc(c, "cmpxchg compares with r0 and writes r0 "
				       "(r0 = ...cmpxchg(addr, r0, REG))");
		}
		if ((err = need(c, ",", "after r0")))
			return err;
	}
	{
		char *at;

		skip_ws(c);
		at = c->p;
		if ((err = need_reg(c, &src, NULL, "as the operand")))
			return err;
		if (imm != BPF_CMPXCHG && src != dst) {
			c->p = at;
			return errc(c, "the fetched value goes to the operand register: expected %c%u, "
				       "got r%u", dst32 ? 'w' : 'r', dst, src);
		}
	}
	if ((err = need(c, ")", "")) || (err = need_end(c)))
		return err;
	return emit(c->a, mk(BPF_STX | BPF_ATOMIC | size, addr, src, off, imm));
}

/* LD_IMM64 pseudo sources: "map[fd:3]+16", "btf_id 5", "func pc+4"; then an optional "ll". */
static int need_ll_end(struct cur *c)
{
	word(c, "ll");
	return need_end(c);
}

static int parse_map(struct cur *c, uint8_t dst)
{
	struct num n, v;
	bool idx;
	int32_t id;
	int32_t voff = 0;
	bool value = false;
	int err;

	if ((err = need(c, "[", "after 'map'")))
		return err;
	if (word(c, "fd"))
		idx = false;
	else if (word(c, "idx"))
		idx = true;
	else if (word(c, "id"))
		return errc(c, "map[id:N] names a loaded map and cannot be encoded; use map[fd:N] or "
			       "map[idx:N]");
	else
		return expected(c, "'fd' or 'idx'", "in map[]");
	if ((err = need(c, ":", "")) || (err = need_num(c, &n, "a number", "in map[]")) ||
	    (err = num_imm32(c, &n, &id)) || (err = need(c, "]", "")))
		return err;
	skip_ws(c);
	if (*c->p == '+') {
		c->p++;
		if ((err = need_num(c, &v, "a value offset", "after '+'")) ||
		    (err = num_imm32(c, &v, &voff)))
			return err;
		value = true;
	}
	if ((err = need_ll_end(c)))
		return err;
	return emit_ldimm64(c->a, dst,
			    idx ? (value ? BPF_PSEUDO_MAP_IDX_VALUE : BPF_PSEUDO_MAP_IDX)
				: (value ? BPF_PSEUDO_MAP_VALUE : BPF_PSEUDO_MAP_FD),
			    (uint32_t)id, (uint32_t)voff);
}

static int parse_reg_rhs(struct cur *c, uint8_t dst, bool dst32, int opcol)
{
	const char *s;
	uint8_t src, size;
	bool sx, w;
	int16_t off;
	struct num n;
	size_t l;
	char *at;
	int name_col, err, r;

	skip_ws(c);
	/* r1 = -r1 */
	if (*c->p == '-') {
		char *save = c->p;

		c->p++;
		r = try_reg(c, &src, &w);
		if (r < 0)
			return r;
		if (r > 0) {
			if (src != dst || w != dst32) {
				c->p = save + 1;
				return errc(c, "negation is in place: expected %c%u = -%c%u",
					    dst32 ? 'w' : 'r', dst, dst32 ? 'w' : 'r', dst);
			}
			if ((err = need_end(c)))
				return err;
			return emit(c->a, mk((dst32 ? BPF_ALU : BPF_ALU64) | BPF_NEG, dst, 0, 0, 0));
		}
		c->p = save;
	}
	/* r1 = (s8)r2 */
	if (lit(c, "(")) {
		static const struct { const char *n; int16_t off; } sx_casts[] = {
			{ "s8", 8 }, { "s16", 16 }, { "s32", 32 },
		};
		int16_t moff = 0;

		for (size_t k = 0; k < 3; k++)
			if (word(c, sx_casts[k].n))
				moff = sx_casts[k].off;
		if (!moff)
			return expected(c, "a sign-extension cast (s8, s16, s32)", "after '('");
		if ((err = need(c, ")", "after the cast")) ||
		    (err = need_reg_width(c, &src, dst32, "after the cast")) || (err = need_end(c)))
			return err;
		return emit(c->a, mk((dst32 ? BPF_ALU : BPF_ALU64) | BPF_MOV | BPF_X, dst, src, moff,
				     0));
	}
	/* loads */
	if (lit(c, "*")) {
		int size_col;

		if ((err = need(c, "(", "after '*'")))
			return err;
		skip_ws(c);
		size_col = col_of(c);
		if ((err = parse_cast(c, &size, &sx, true)))
			return err;
		if (word(c, "skb")) {
			if (sx)
				return diag_at_line(c->a->d, EINVAL, c->a->line, size_col,
						    "legacy packet loads are unsigned");
			return parse_skb(c, dst, size, size_col);
		}
		if ((err = parse_mem(c, &src, &off)) || (err = need_end(c)))
			return err;
		return emit(c->a, mk(BPF_LDX | (sx ? BPF_MEMSX : BPF_MEM) | size, dst, src, off, 0));
	}
	skip_ws(c);
	at = c->p;
	r = try_reg(c, &src, &w);
	if (r < 0)
		return r;
	if (r > 0) {	/* mov */
		if (w != dst32) {
			c->p = at;
			return errc(c, "mov needs registers of the same width (%c%u = %c%u)",
				    dst32 ? 'w' : 'r', dst, dst32 ? 'w' : 'r', src);
		}
		if ((err = need_end(c)))
			return err;
		return emit(c->a, mk((dst32 ? BPF_ALU : BPF_ALU64) | BPF_MOV | BPF_X, dst, src, 0, 0));
	}
	r = try_num(c, &n);
	if (r < 0)
		return r;
	if (r > 0) {
		bool ll = word(c, "ll");
		int64_t v;

		if (!ll && opcol != (BPF_LD | BPF_IMM | BPF_DW) &&
		    num_in(&n, INT32_MIN, UINT32_MAX, &v)) {
			if ((err = need_end(c)))
				return err;
			return emit(c->a, mk((dst32 ? BPF_ALU : BPF_ALU64) | BPF_MOV | BPF_K, dst, 0, 0,
					     s32_of(v)));
		}
		if (dst32)
			return diag_at_line(c->a->d, EINVAL, c->a->line, n.col,
					    "a 64-bit immediate needs a 64-bit register (r%u)", dst);
		if (!num_fits64(&n))
			return diag_at_line(c->a->d, EINVAL, c->a->line, n.col,
					    "immediate does not fit in 64 bits");
		if ((err = need_end(c)))
			return err;
		return emit_ldimm64(c->a, dst, 0, (uint32_t)num_u64(&n), (uint32_t)(num_u64(&n) >> 32));
	}
	skip_ws(c);
	name_col = col_of(c);
	l = ident(c, &s);
	if (!l)
		return expected(c, "a register (r0-r10), an immediate or an expression", "after '='");
	/* byte swaps: be16/le16 are ALU, bswap16 is ALU64 */
	{
		static const struct { const char *n; uint8_t code; int32_t bits; } ends[] = {
			{ "be16", BPF_ALU | BPF_END | BPF_TO_BE, 16 },
			{ "be32", BPF_ALU | BPF_END | BPF_TO_BE, 32 },
			{ "be64", BPF_ALU | BPF_END | BPF_TO_BE, 64 },
			{ "le16", BPF_ALU | BPF_END | BPF_TO_LE, 16 },
			{ "le32", BPF_ALU | BPF_END | BPF_TO_LE, 32 },
			{ "le64", BPF_ALU | BPF_END | BPF_TO_LE, 64 },
			{ "bswap16", BPF_ALU64 | BPF_END | BPF_TO_LE, 16 },
			{ "bswap32", BPF_ALU64 | BPF_END | BPF_TO_LE, 32 },
			{ "bswap64", BPF_ALU64 | BPF_END | BPF_TO_LE, 64 },
		};

		for (size_t k = 0; k < sizeof(ends) / sizeof(ends[0]); k++) {
			char *at;

			if (!ident_is(s, l, ends[k].n))
				continue;
			skip_ws(c);
			at = c->p;
			if ((err = need_reg(c, &src, NULL, "to swap")))
				return err;
			if (src != dst) {
				c->p = at;
				return errc(c, "byte swaps are in place: expected r%u = %s r%u", dst,
					    ends[k].n, dst);
			}
			if ((err = need_end(c)))
				return err;
			return emit(c->a, mk(ends[k].code, dst, 0, 0, ends[k].bits));
		}
	}
	if ((l > 7 && !strncmp(s, "atomic_", 7)) || (l > 9 && !strncmp(s, "atomic64_", 9)) ||
	    ident_is(s, l, "xchg_64") || ident_is(s, l, "xchg32_32") || ident_is(s, l, "cmpxchg_64") ||
	    ident_is(s, l, "cmpxchg32_32"))
		return parse_atomic_rhs(c, dst, dst32, s, l, name_col);
	if (ident_is(s, l, "load_acquire")) {
		if ((err = need(c, "(", "after 'load_acquire'")) ||
		    (err = parse_cast_mem(c, &size, &src, &off)) || (err = need(c, ")", "")) ||
		    (err = need_end(c)))
			return err;
		return emit(c->a, mk(BPF_STX | BPF_ATOMIC | size, dst, src, off, BPF_LOAD_ACQ));
	}
	if (ident_is(s, l, "map") || ident_is(s, l, "btf_id") || ident_is(s, l, "func")) {
		if (dst32)
			return diag_at_line(c->a->d, EINVAL, c->a->line, name_col,
					    "a 64-bit load needs a 64-bit register (r%u)", dst);
		if (s[0] == 'm')
			return parse_map(c, dst);
		if (s[0] == 'b') {
			struct num fd;
			int32_t id, bfd = 0;

			if ((err = need_num(c, &n, "a BTF id", "after 'btf_id'")) ||
			    (err = num_imm32(c, &n, &id)))
				return err;
			if (word(c, "btf_fd")) {
				if ((err = need(c, ":", "after 'btf_fd'")) ||
				    (err = need_num(c, &fd, "a BTF fd", "after 'btf_fd:'")) ||
				    (err = num_imm32(c, &fd, &bfd)))
					return err;
			}
			if ((err = need_ll_end(c)))
				return err;
			return emit_ldimm64(c->a, dst, BPF_PSEUDO_BTF_ID, (uint32_t)id, (uint32_t)bfd);
		} else {
			struct target t;

			if ((err = parse_target(c, &t, "after 'func'")) || (err = need_ll_end(c)))
				return err;
			if ((err = emit_jump(c, mk(BPF_LD | BPF_IMM | BPF_DW, dst, BPF_PSEUDO_FUNC, 0,
						   0), FIX_IMM, &t)))
				return err;
			return emit(c->a, mk(0, 0, 0, 0, 0));
		}
	}
	c->p = (char *)s;
	return expected(c, "a register (r0-r10), an immediate or an expression", "after '='");
}

/* A statement that starts with a register. */
static int parse_reg_stmt(struct cur *c, uint8_t dst, bool dst32, int opcol)
{
	uint8_t src;
	bool w;
	struct num n;
	int32_t imm;
	char where[16], *at;
	int err, r;

	for (size_t k = 0; k < sizeof(alu_ops) / sizeof(alu_ops[0]); k++) {
		const struct alu_op *o = &alu_ops[k];
		uint8_t cls = dst32 ? BPF_ALU : BPF_ALU64;

		if (!lit(c, o->sym))
			continue;
		if (o->op == BPF_MOV)
			return parse_reg_rhs(c, dst, dst32, opcol);
		snprintf(where, sizeof(where), "after '%s'", o->sym);
		skip_ws(c);
		at = c->p;
		r = try_reg(c, &src, &w);
		if (r < 0)
			return r;
		if (r > 0) {
			c->p = at;
			if (w != dst32)
				return errc(c, "expected a %s register (%s) %s",
					    dst32 ? "32-bit" : "64-bit", dst32 ? "w0-w10" : "r0-r10",
					    where);
			c->p = at;
			try_reg(c, &src, &w);
			if ((err = need_end(c)))
				return err;
			return emit(c->a, mk(cls | o->op | BPF_X, dst, src, o->off, 0));
		}
		if ((err = need_num(c, &n, "a register or an immediate", where)) ||
		    (err = num_imm32(c, &n, &imm)) || (err = need_end(c)))
			return err;
		return emit(c->a, mk(cls | o->op | BPF_K, dst, 0, o->off, imm));
	}
	return expected(c, "an assignment or ALU operator (=, +=, -=, ...)", "after the register");
}

/* "if REG OP SRC goto T" after "if". */
static int parse_if(struct cur *c)
{
	uint8_t dst, src = 0;
	bool w32;
	struct target t;
	struct num n;
	int32_t imm = 0;
	const struct jmp_op *o = NULL;
	int err, r;

	if ((err = need_reg(c, &dst, &w32, "after 'if'")))
		return err;
	for (size_t k = 0; k < sizeof(jmp_ops) / sizeof(jmp_ops[0]) && !o; k++)
		if (lit(c, jmp_ops[k].sym))
			o = &jmp_ops[k];
	if (!o)
		return expected(c, "a comparison (==, !=, >, >=, <, <=, s>, s>=, s<, s<=, &)",
				"after the register");
	r = try_reg(c, &src, NULL);
	if (r < 0)
		return r;
	if (r == 0) {
		if ((err = need_num(c, &n, "a register or an immediate", "in the comparison")) ||
		    (err = num_imm32(c, &n, &imm)))
			return err;
	}
	if ((err = need(c, "goto", "after the comparison")) ||
	    (err = parse_target(c, &t, "after 'goto'")) || (err = need_end(c)))
		return err;
	return emit_jump(c, mk((w32 ? BPF_JMP32 : BPF_JMP) | o->op | (r ? BPF_X : BPF_K), dst, src, 0,
			       imm),
			 FIX_OFF, &t);
}

static int parse_kernel(struct cur *c, int opcol)
{
	struct target t;
	uint8_t reg;
	bool w32;
	int err, r;

	if (word(c, "exit")) {
		if ((err = need_end(c)))
			return err;
		return emit(c->a, mk(BPF_JMP | BPF_EXIT, 0, 0, 0, 0));
	}
	if (word(c, "goto")) {
		if ((err = parse_target(c, &t, "after 'goto'")) || (err = need_end(c)))
			return err;
		return emit_jump(c, mk(BPF_JMP | BPF_JA, 0, 0, 0, 0), FIX_OFF, &t);
	}
	if (word(c, "gotol")) {
		if ((err = parse_target(c, &t, "after 'gotol'")) || (err = need_end(c)))
			return err;
		return emit_jump(c, mk(BPF_JMP32 | BPF_JA, 0, 0, 0, 0), FIX_IMM, &t);
	}
	if (word(c, "may_goto")) {
		if ((err = parse_target(c, &t, "after 'may_goto'")) || (err = need_end(c)))
			return err;
		return emit_jump(c, mk(BPF_JMP | BPF_JCOND, 0, BPF_MAY_GOTO, 0, 0), FIX_OFF, &t);
	}
	if (word(c, "callx")) {
		if ((err = need_reg(c, &reg, NULL, "after 'callx'")) || (err = need_end(c)))
			return err;
		return emit(c->a, mk(BPF_JMP | BPF_CALL | BPF_X, reg, 0, 0, 0));
	}
	if (word(c, "call"))
		return parse_call(c);
	if (word(c, "if"))
		return parse_if(c);
	if (word(c, "lock"))
		return parse_lock_kernel(c);
	if (word(c, "store_release"))
		return parse_store_release(c);
	if (lit(c, "*")) {
		if ((err = need(c, "(", "after '*'")))
			return err;
		return parse_store(c);
	}
	r = try_reg(c, &reg, &w32);
	if (r < 0)
		return r;
	if (r > 0)
		return parse_reg_stmt(c, reg, w32, opcol);
	skip_ws(c);
	if (is_ident_start((unsigned char)*c->p)) {
		char buf[40];

		return errc(c, "unknown instruction %s", found(c, buf, sizeof(buf)));
	}
	return expected(c, "an instruction", "");
}

/* ---- ubpf dialect ---- */

enum ub_kind { UB_ALU, UB_NEG, UB_END, UB_MOVSX, UB_LDX, UB_ST, UB_STX, UB_LDDW, UB_LDABS,
	       UB_LDIND, UB_JA, UB_JMP, UB_LOCK };

struct ub_mnem {
	enum ub_kind kind;
	uint8_t code;	/* class and operation bits */
	int16_t off;	/* sdiv/smod: 1; movsx: width */
	int32_t imm;	/* byte swaps: width */
};

/* Looks up a ubpf mnemonic; returns false when the word is not one. */
static bool ubpf_lookup(const char *s, size_t l, struct ub_mnem *m)
{
	static const struct { const char *n; uint8_t size; } sizes[] = {
		{ "b", BPF_B }, { "h", BPF_H }, { "w", BPF_W }, { "dw", BPF_DW },
	};
	char w[24];
	size_t bl = l;
	bool is32 = false;

	if (l == 0 || l >= sizeof(w))
		return false;
	memcpy(w, s, l);
	w[l] = '\0';
	memset(m, 0, sizeof(*m));
	if (l > 2 && !strcmp(w + l - 2, "32") && strncmp(w, "movsx", 5) && strncmp(w, "be", 2) &&
	    strncmp(w, "le", 2) && strncmp(w, "swap", 4) && strncmp(w, "bswap", 5)) {
		is32 = true;
		bl = l - 2;
		w[bl] = '\0';
	}
	if (!strcmp(w, "neg")) {
		m->kind = UB_NEG;
		m->code = (is32 ? BPF_ALU : BPF_ALU64) | BPF_NEG;
		return true;
	}
	for (size_t k = 0; k < sizeof(alu_ops) / sizeof(alu_ops[0]); k++)
		if (!strcmp(w, alu_ops[k].name)) {
			m->kind = UB_ALU;
			m->code = (is32 ? BPF_ALU : BPF_ALU64) | alu_ops[k].op;
			m->off = alu_ops[k].off;
			return true;
		}
	for (size_t k = 0; k < sizeof(jmp_ops) / sizeof(jmp_ops[0]); k++)
		if (!strcmp(w, jmp_ops[k].name)) {
			m->kind = UB_JMP;
			m->code = (is32 ? BPF_JMP32 : BPF_JMP) | jmp_ops[k].op;
			return true;
		}
	if (!strcmp(w, "ja")) {
		m->kind = UB_JA;
		m->code = (is32 ? BPF_JMP32 : BPF_JMP) | BPF_JA;
		return true;
	}
	if (is32)
		return false;
	{
		static const struct { const char *p; uint8_t code; } ends[] = {
			{ "be", BPF_ALU | BPF_END | BPF_TO_BE },
			{ "le", BPF_ALU | BPF_END | BPF_TO_LE },
			{ "swap", BPF_ALU64 | BPF_END | BPF_TO_LE },
			{ "bswap", BPF_ALU64 | BPF_END | BPF_TO_LE },
		};

		for (size_t k = 0; k < 4; k++) {
			size_t pl = strlen(ends[k].p);

			if (strncmp(w, ends[k].p, pl))
				continue;
			if (!strcmp(w + pl, "16") || !strcmp(w + pl, "32") || !strcmp(w + pl, "64")) {
				m->kind = UB_END;
				m->code = ends[k].code;
				m->imm = atoi(w + pl);
				return true;
			}
		}
	}
	{
		static const struct { const char *n; uint8_t cls; int16_t off; } msx[] = {
			{ "movsx832", BPF_ALU, 8 }, { "movsx1632", BPF_ALU, 16 },
			{ "movsx864", BPF_ALU64, 8 }, { "movsx1664", BPF_ALU64, 16 },
			{ "movsx3264", BPF_ALU64, 32 },
		};

		for (size_t k = 0; k < 5; k++)
			if (!strcmp(w, msx[k].n)) {
				m->kind = UB_MOVSX;
				m->code = msx[k].cls | BPF_MOV | BPF_X;
				m->off = msx[k].off;
				return true;
			}
	}
	if (!strcmp(w, "lddw")) {
		m->kind = UB_LDDW;
		m->code = BPF_LD | BPF_IMM | BPF_DW;
		return true;
	}
	if (!strcmp(w, "lock")) {
		m->kind = UB_LOCK;
		return true;
	}
	for (size_t k = 0; k < 4; k++) {
		static const struct { const char *p; enum ub_kind kind; uint8_t code; } mem[] = {
			{ "ldxs", UB_LDX, BPF_LDX | BPF_MEMSX }, { "ldx", UB_LDX, BPF_LDX | BPF_MEM },
			{ "stx", UB_STX, BPF_STX | BPF_MEM }, { "st", UB_ST, BPF_ST | BPF_MEM },
			{ "ldabs", UB_LDABS, BPF_LD | BPF_ABS },
			{ "ldind", UB_LDIND, BPF_LD | BPF_IND },
		};

		for (size_t j = 0; j < sizeof(mem) / sizeof(mem[0]); j++) {
			size_t pl = strlen(mem[j].p);

			if (strncmp(w, mem[j].p, pl) || strcmp(w + pl, sizes[k].n))
				continue;
			if ((mem[j].kind == UB_LDABS || mem[j].kind == UB_LDIND ||
			     mem[j].code == (BPF_LDX | BPF_MEMSX)) && sizes[k].size == BPF_DW)
				continue;
			m->kind = mem[j].kind;
			m->code = mem[j].code | sizes[k].size;
			return true;
		}
	}
	return false;
}

/* "[%r1+0x2]" */
static int ubpf_mem(struct cur *c, uint8_t *reg, int16_t *off)
{
	int err;

	if ((err = need(c, "[", "before the address")) || (err = parse_reg_off(c, reg, off)))
		return err;
	return need(c, "]", "after the address");
}

static int ubpf_comma(struct cur *c)
{
	return need(c, ",", "between operands");
}

static int ubpf_imm(struct cur *c, int32_t *imm, const char *where)
{
	struct num n;
	int err;

	if ((err = need_num(c, &n, "an immediate", where)))
		return err;
	return num_imm32(c, &n, imm);
}

static int parse_ubpf_lock(struct cur *c)
{
	static const struct { const char *n; int32_t imm; } ops[] = {
		{ "add", BPF_ADD }, { "and", BPF_AND }, { "or", BPF_OR }, { "xor", BPF_XOR },
		{ "xchg", BPF_XCHG }, { "cmpxchg", BPF_CMPXCHG },
	};
	bool fetch = word(c, "fetch");
	const char *s = NULL;
	size_t l;
	uint8_t dst, src;
	int16_t off;
	int32_t imm = -1;
	uint8_t size = BPF_DW;
	int err;

	l = ident(c, &s);
	if (l > 2 && s[l - 2] == '3' && s[l - 1] == '2') {
		size = BPF_W;
		l -= 2;
	}
	for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
		if (ident_is(s, l, ops[k].n))
			imm = ops[k].imm;
	if (imm < 0) {
		if (l)
			c->p = (char *)s;
		return expected(c, "an atomic operation (add, and, or, xor, xchg, cmpxchg)",
				"after 'lock'");
	}
	if (fetch)
		imm |= BPF_FETCH;
	if ((err = ubpf_mem(c, &dst, &off)) || (err = ubpf_comma(c)) ||
	    (err = need_reg(c, &src, NULL, "as the operand")) || (err = need_end(c)))
		return err;
	return emit(c->a, mk(BPF_STX | BPF_ATOMIC | size, dst, src, off, imm));
}

static int parse_ubpf(struct cur *c, const struct ub_mnem *m, const char *name)
{
	uint8_t dst = 0, src = 0;
	int16_t off = 0;
	int32_t imm = 0;
	struct target t;
	struct num n;
	char where[40];
	int err, r;

	snprintf(where, sizeof(where), "after '%s'", name);
	switch (m->kind) {
	case UB_ALU:
		if ((err = need_reg(c, &dst, NULL, where)) || (err = ubpf_comma(c)))
			return err;
		r = try_reg(c, &src, NULL);
		if (r < 0)
			return r;
		if (r == 0 && (err = ubpf_imm(c, &imm, "as the source")))
			return err;
		if ((err = need_end(c)))
			return err;
		return emit(c->a, mk(m->code | (r ? BPF_X : BPF_K), dst, src, m->off, imm));
	case UB_NEG:
		if ((err = need_reg(c, &dst, NULL, where)) || (err = need_end(c)))
			return err;
		return emit(c->a, mk(m->code, dst, 0, 0, 0));
	case UB_END:
		if ((err = need_reg(c, &dst, NULL, where)) || (err = need_end(c)))
			return err;
		return emit(c->a, mk(m->code, dst, 0, 0, m->imm));
	case UB_MOVSX:
		if ((err = need_reg(c, &dst, NULL, where)) || (err = ubpf_comma(c)) ||
		    (err = need_reg(c, &src, NULL, "as the source")) || (err = need_end(c)))
			return err;
		return emit(c->a, mk(m->code, dst, src, m->off, 0));
	case UB_LDX:
		if ((err = need_reg(c, &dst, NULL, where)) || (err = ubpf_comma(c)) ||
		    (err = ubpf_mem(c, &src, &off)) || (err = need_end(c)))
			return err;
		return emit(c->a, mk(m->code, dst, src, off, 0));
	case UB_ST:
		if ((err = ubpf_mem(c, &dst, &off)) || (err = ubpf_comma(c)) ||
		    (err = ubpf_imm(c, &imm, "as the value")) || (err = need_end(c)))
			return err;
		return emit(c->a, mk(m->code, dst, 0, off, imm));
	case UB_STX:
		if ((err = ubpf_mem(c, &dst, &off)) || (err = ubpf_comma(c)) ||
		    (err = need_reg(c, &src, NULL, "as the value")) || (err = need_end(c)))
			return err;
		return emit(c->a, mk(m->code, dst, src, off, 0));
	case UB_LDDW:
		if ((err = need_reg(c, &dst, NULL, where)) || (err = ubpf_comma(c)) ||
		    (err = need_num(c, &n, "a 64-bit immediate", "")))
			return err;
		if (!num_fits64(&n))
			return diag_at_line(c->a->d, EINVAL, c->a->line, n.col,
					    "immediate does not fit in 64 bits");
		if ((err = need_end(c)))
			return err;
		return emit_ldimm64(c->a, dst, 0, (uint32_t)num_u64(&n), (uint32_t)(num_u64(&n) >> 32));
	case UB_LDABS:
		if ((err = ubpf_imm(c, &imm, where)) || (err = need_end(c)))
			return err;
		return emit(c->a, mk(m->code, 0, 0, 0, imm));
	case UB_LDIND:
		if ((err = need_reg(c, &src, NULL, where)) || (err = ubpf_comma(c)) ||
		    (err = ubpf_imm(c, &imm, "as the offset")) || (err = need_end(c)))
			return err;
		return emit(c->a, mk(m->code, 0, src, 0, imm));
	case UB_JA:
		if ((err = parse_target(c, &t, where)) || (err = need_end(c)))
			return err;
		return emit_jump(c, mk(m->code, 0, 0, 0, 0),
				 BPF_CLASS(m->code) == BPF_JMP32 ? FIX_IMM : FIX_OFF, &t);
	case UB_JMP:
		if ((err = need_reg(c, &dst, NULL, where)) || (err = ubpf_comma(c)))
			return err;
		r = try_reg(c, &src, NULL);
		if (r < 0)
			return r;
		if (r == 0 && (err = ubpf_imm(c, &imm, "in the comparison")))
			return err;
		if ((err = ubpf_comma(c)) || (err = parse_target(c, &t, "as the jump target")) ||
		    (err = need_end(c)))
			return err;
		return emit_jump(c, mk(m->code | (r ? BPF_X : BPF_K), dst, src, 0, imm), FIX_OFF, &t);
	case UB_LOCK:
		return parse_ubpf_lock(c);
	}
	return expected(c, "an instruction", "");
}

/* "exit", "call" and "callx" read the same in both dialects. */
static int parse_stmt(struct cur *c, int opcol)
{
	struct ub_mnem m;
	const char *s;
	char *start;
	size_t l;

	skip_ws(c);
	start = c->p;
	if (!strncmp(start, ".bytes", 6) && !is_ident_char((unsigned char)start[6])) {
		/* One raw slot, as the disassembler prints what it cannot name. */
		struct bpf_insn i;
		uint8_t b[8];
		int err;

		c->p += 6;
		for (int k = 0; k < 8; k++) {
			skip_ws(c);
			if (!isxdigit((unsigned char)c->p[0]) || !isxdigit((unsigned char)c->p[1]) ||
			    is_ident_char((unsigned char)c->p[2]))
				return expected(c, "8 hex bytes", "after '.bytes'");
			b[k] = (uint8_t)(hexv(c->p[0]) * 16 + hexv(c->p[1]));
			c->p += 2;
		}
		if ((err = need_end(c)))
			return err;
		memcpy(&i, b, sizeof(i));
		return emit(c->a, i);
	}
	l = ident(c, &s);
	if (l && !ident_is(s, l, "lock") && ubpf_lookup(s, l, &m)) {
		char name[24];

		snprintf(name, sizeof(name), "%.*s", (int)l, s);
		return parse_ubpf(c, &m, name);
	}
	if (l && ident_is(s, l, "lock")) {
		skip_ws(c);
		if (*c->p != '*') {
			ubpf_lookup(s, l, &m);
			return parse_ubpf(c, &m, "lock");
		}
	}
	c->p = start;
	return parse_kernel(c, opcol);
}

/* ---- lines ---- */

/* Copies a line with comments blanked (columns kept). */
static int clean_line(struct asm_state *a, const char *s, size_t n)
{
	char *b;

	if (n + 1 > a->lcap) {
		size_t nc = n + 1 > 256 ? n + 1 : 256;
		char *nb = realloc(a->lbuf, nc);

		if (!nb)
			return diag_set(a->d, ENOMEM, "out of memory");
		a->lbuf = nb;
		a->lcap = nc;
	}
	b = a->lbuf;
	for (size_t i = 0; i < n; i++)
		b[i] = s[i] == '\0' || s[i] == '\r' || s[i] == '\n' ? ' ' : s[i];
	b[n] = '\0';
	if (a->nlines_seen++ == 0 && n >= 3 && !memcmp(b, "\xef\xbb\xbf", 3))
		memset(b, ' ', 3);	/* UTF-8 byte order mark */
	for (size_t i = 0; i < n; i++) {
		if (a->in_comment) {
			if (b[i] == '*' && i + 1 < n && b[i + 1] == '/') {
				a->in_comment = false;
				b[i + 1] = ' ';
			}
			b[i] = ' ';
			continue;
		}
		if (b[i] == '/' && i + 1 < n && b[i + 1] == '*') {
			a->in_comment = true;
			a->comment_line = a->line;
			a->comment_col = (int)i + 1;
			b[i] = ' ';
			b[i + 1] = ' ';
			i++;
			continue;
		}
		if ((b[i] == '/' && i + 1 < n && b[i + 1] == '/') ||
		    (b[i] == '#' && (i == 0 || is_blank((unsigned char)b[i - 1]) || b[i - 1] == ';' ||
				     b[i - 1] == ','))) {
			b[i] = '\0';
			break;
		}
	}
	return 0;
}

static bool is_hex2(const char *p)
{
	return isxdigit((unsigned char)p[0]) && isxdigit((unsigned char)p[1]) &&
	       (p[2] == '\0' || is_blank((unsigned char)p[2]));
}

/* llvm-objdump raw bytes: 8 (or 16 for LD_IMM64) "hh" pairs separated by one space. */
static size_t objdump_bytes(const char *p, uint8_t out[16])
{
	size_t n = 0;

	while (n < 16 && is_hex2(p)) {
		out[n++] = (uint8_t)(hexv(p[0]) * 16 + hexv(p[1]));
		p += 2;
		if (*p != ' ' || !is_hex2(p + 1))
			break;
		p++;
	}
	if (n == 16 && out[0] == (BPF_LD | BPF_IMM | BPF_DW))
		return 16;
	return n >= 8 ? 8 : 0;
}

/* Lines that carry no instruction in verifier logs, objdump and bpftool output. */
static bool noise_line(const char *p)
{
	static const char *const prefixes[] = {
		"Disassembly of section", "processed ", "mark_precise:", "last_idx ", "regs=",
		"propagating ", "func#", "Live regs", "Validating ", "verification time",
		"stack depth ", "returning from callee", "caller:", "callee:", "to caller at",
	};
	const char *q;

	if (*p == ';')		/* verifier/bpftool source line annotation */
		return true;
	for (size_t k = 0; k < sizeof(prefixes) / sizeof(prefixes[0]); k++)
		if (!strncmp(p, prefixes[k], strlen(prefixes[k])))
			return true;
	if (!strncmp(p, "from ", 5) && isdigit((unsigned char)p[5]))
		return true;
	if (strstr(p, "file format ") || strstr(p, "R_BPF_"))	/* objdump header, -r line */
		return true;
	/* llvm-objdump --symbolize-operands: "<L1>:" */
	if (*p == '<' && (q = strchr(p, '>')) && q[1] == ':') {
		for (q += 2; is_blank((unsigned char)*q); q++)
			;
		if (!*q)
			return true;
	}
	/* "0000000000000040 <LBB0_2>:" */
	for (q = p; isxdigit((unsigned char)*q); q++)
		;
	if (q > p && *q == ' ' && q[1] == '<' && strstr(q, ">:"))
		return true;
	/* bpftool's "int prog(struct xdp_md * ctx):" */
	q = p + strlen(p);
	while (q > p && is_blank((unsigned char)q[-1]))
		q--;
	if (q - p >= 3 && q[-1] == ':' && q[-2] == ')' && strchr(p, '(') && strchr(p, ' ') &&
	    !strchr(p, '='))
		return true;
	return false;
}

/* Register state printed by the verifier: "R1=ctx()", "R0_w=1", "frame1: ...", "fp-8=...". */
static bool state_text(const char *p)
{
	return (p[0] == 'R' && isdigit((unsigned char)p[1])) ||
	       (!strncmp(p, "frame", 5) && isdigit((unsigned char)p[5])) ||
	       (!strncmp(p, "fp-", 3));
}

/* A verifier log line "pc: (op) insn" just assembled at before: the opcode column must match,
 * and a pc the log already showed (a revisit on another path) must repeat that instruction, which
 * is then dropped. */
static int check_log_line(struct asm_state *a, size_t before, size_t nfix, int opcol,
			  int opcol_col, long pc)
{
	size_t n = a->len - before;

	if (n && a->insns[before].code != (uint8_t)opcol)
		return diag_at_line(a->d, EINVAL, a->line, opcol_col,
				    "opcode column (%02x) does not match the instruction (%02x)",
				    (unsigned)opcol, a->insns[before].code);
	if (pc < 0 || (size_t)pc == before)
		return 0;
	if ((size_t)pc > before)
		return diag_at_line(a->d, EINVAL, a->line, 1,
				    "pc %ld skips instructions (next is %zu)", pc, before);
	if ((size_t)pc + n > before ||
	    memcmp(&a->insns[pc], &a->insns[before], n * sizeof(*a->insns)))
		return diag_at_line(a->d, EINVAL, a->line, 1,
				    "instruction %ld differs from the one assembled earlier at that pc",
				    pc);
	a->len = before;
	while (a->nfix > nfix)
		free(a->fix[--a->nfix].name);
	return 0;
}

static int do_stmts(struct asm_state *a, char *p, int opcol, int opcol_col, long pc)
{
	struct cur c = { a, p };

	for (;;) {
		char *semi, *q;
		size_t before = a->len, nfix = a->nfix;
		int err;

		skip_ws(&c);
		if (!*c.p)
			return 0;
		if (state_text(c.p))
			return 0;
		/* labels: "name:" and "1:" (not on verifier log lines, whose pc may repeat) */
		for (; opcol < 0;) {
			const char *s;
			char *save = c.p;
			size_t l;

			if (isdigit((unsigned char)*c.p)) {
				uint64_t v = 0;

				for (q = c.p; isdigit((unsigned char)*q); q++)
					v = v > UINT64_MAX / 100 ? v : v * 10 + (uint64_t)(*q - '0');
				if (*q == ':') {
					if ((err = define_local(a, v)))
						return err;
					c.p = q + 1;
					skip_ws(&c);
					continue;
				}
				break;
			}
			l = ident(&c, &s);
			if (l && *c.p == ':' && c.p[1] != ':') {
				if ((err = define_label(a, s, l, (int)(s - a->lbuf) + 1)))
					return err;
				c.p++;
				skip_ws(&c);
				continue;
			}
			c.p = save;
			break;
		}
		if (!*c.p)
			return 0;
		if (state_text(c.p))
			return 0;
		/* One statement up to ';' (the verifier log's ';' starts the register state). */
		semi = strchr(c.p, ';');
		if (semi)
			*semi = '\0';
		a->seq++;
		err = parse_stmt(&c, opcol);
		if (err)
			return err;
		if (opcol >= 0 && (err = check_log_line(a, before, nfix, opcol, opcol_col, pc)))
			return err;
		if (!semi || opcol >= 0)
			return 0;
		c.p = semi + 1;
		skip_ws(&c);
		if (state_text(c.p))
			return 0;
	}
}

static bool is_opcol(const char *p)
{
	return p[0] == '(' && isxdigit((unsigned char)p[1]) && isxdigit((unsigned char)p[2]) &&
	       p[3] == ')';
}

/* The liveness column of the verifier log's "Live regs before insn:" listing, "01...5....":
 * one character per register r0..r9, a digit when live. */
static char *skip_live_mask(char *r)
{
	char *q = r;

	while (*q == '.' || isdigit((unsigned char)*q))
		q++;
	if (q - r < 10 || !is_blank((unsigned char)*q))
		return r;
	while (is_blank((unsigned char)*q))
		q++;
	return is_opcol(q) ? q : r;
}

enum prefix { PFX_NONE, PFX_LOG, PFX_OBJDUMP, PFX_STATE };

/* Classifies a line (leading blanks skipped) by its columns: verifier log "12: (07) " (also
 * the liveness listing "  1   4: 01...5.... (07) " whose first number is the loop depth),
 * llvm-objdump "  3:\t07 01 00 00 01 00 00 00\t", or a log state line "12: R1=ctx()".  For
 * PFX_LOG *rest is the opcode column; for PFX_OBJDUMP bytes holds *nbytes bytes. */
static enum prefix line_prefix(char *p, long *pc, char **rest, uint8_t bytes[16], size_t *nbytes)
{
	char *q = p, *r;
	long v = 0;

	if (!isdigit((unsigned char)*p))
		return PFX_NONE;
	while (isdigit((unsigned char)*q))
		q++;
	if (is_blank((unsigned char)*q)) {	/* loop depth, then the pc? */
		r = q;
		while (is_blank((unsigned char)*r))
			r++;
		if (isdigit((unsigned char)*r)) {
			char *t = r;

			while (isdigit((unsigned char)*t))
				t++;
			if (*t == ':' && is_opcol(skip_live_mask(t + 1 + strspn(t + 1, " \t")))) {
				p = r;
				q = t;
			}
		}
	}
	if (*q != ':')
		return PFX_NONE;
	for (char *t = p; t < q; t++)
		v = v > 100000000L ? v : v * 10 + (*t - '0');
	r = q + 1;
	while (is_blank((unsigned char)*r))
		r++;
	if (state_text(r))
		return PFX_STATE;
	r = skip_live_mask(r);
	if (is_opcol(r)) {
		*pc = v;
		*rest = r;
		return PFX_LOG;
	}
	if ((*nbytes = objdump_bytes(r, bytes)))
		return PFX_OBJDUMP;
	return PFX_NONE;
}

/* "name:" alone on its line. */
static bool label_line(const char *p)
{
	if (!is_ident_start((unsigned char)*p))
		return false;
	while (is_ident_char((unsigned char)*p))
		p++;
	if (*p++ != ':')
		return false;
	while (is_blank((unsigned char)*p))
		p++;
	return !*p;
}

static int do_line(struct asm_state *a)
{
	char *p = a->lbuf, *rest = NULL;
	uint8_t bytes[16];
	size_t nb = 0;
	long pc = -1;
	int opcol = -1, opcol_col = 0;

	while (is_blank((unsigned char)*p))
		p++;
	if (!*p || noise_line(p))
		return 0;
	switch (line_prefix(p, &pc, &rest, bytes, &nb)) {
	case PFX_STATE:
		return 0;
	case PFX_OBJDUMP:
		for (size_t k = 0; k < nb; k += 8) {
			struct bpf_insn i;
			int err;

			memcpy(&i, bytes + k, sizeof(i));
			if ((err = emit(a, i)))
				return err;
		}
		return 0;
	case PFX_LOG:
		p = rest;
		break;
	default:
		/* A verifier log: only its instruction lines count, and label lines as
		 * ebpf_disasm() prints them with pc and opcode columns ("L12:"). */
		if (a->log_mode && !label_line(p))
			return 0;
		break;
	}
	if (is_opcol(p)) {
		opcol = (int)(hexv(p[1]) * 16 + hexv(p[2]));
		opcol_col = (int)(p - a->lbuf) + 2;
		p += 4;
	}
	return do_stmts(a, p, opcol, opcol_col, pc);
}

/* A text with verifier log instruction lines is read as a log: other lines are the verifier's
 * commentary, whose vocabulary grows with every kernel. */
static int detect_log(struct asm_state *a, const char *text, size_t n)
{
	size_t pos = 0;

	while (pos < n && !a->log_mode) {
		const char *eol = memchr(text + pos, '\n', n - pos);
		size_t l = eol ? (size_t)(eol - (text + pos)) : n - pos;
		char *p, *rest;
		uint8_t bytes[16];
		size_t nb;
		long pc;
		int err;

		if ((err = clean_line(a, text + pos, l)))
			return err;
		for (p = a->lbuf; is_blank((unsigned char)*p); p++)
			;
		if (line_prefix(p, &pc, &rest, bytes, &nb) == PFX_LOG)
			a->log_mode = true;
		pos += l + 1;
	}
	a->in_comment = false;
	a->nlines_seen = 0;
	return 0;
}

/* ---- labels ---- */

static int cmp_label(const void *x, const void *y)
{
	const struct label *p = x, *q = y;
	int r = strcmp(p->name, q->name);

	if (r)
		return r;
	if (p->line != q->line)
		return p->line < q->line ? -1 : 1;
	return (p->col > q->col) - (p->col < q->col);
}

static const struct label *find_label(const struct asm_state *a, const char *name)
{
	size_t lo = 0, hi = a->nlabels;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = strcmp(a->labels[mid].name, name);

		if (r == 0)
			return &a->labels[mid];
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Local label "Nb": the last definition of N before the reference (one on the referencing
 * statement's own line counts, "1: goto 1b"); "Nf": the first definition after it.  Labels are
 * numbered with the statement they precede, references with their own statement. */
static long find_local(const struct asm_state *a, const struct fixup *f)
{
	size_t lo = 0, hi = a->nlocals;

	while (lo < hi) {	/* first definition with seq >= f->seq */
		size_t mid = lo + (hi - lo) / 2;

		if (a->locals[mid].seq < f->seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (f->dir == 'b') {
		for (size_t k = lo; k-- > 0;)
			if (a->locals[k].num == f->num)
				return (long)a->locals[k].pc;
		return -1;
	}
	for (size_t k = lo; k < a->nlocals; k++)
		if (a->locals[k].num == f->num)
			return (long)a->locals[k].pc;
	return -1;
}

static int resolve(struct asm_state *a)
{
	if (a->nlabels)
		qsort(a->labels, a->nlabels, sizeof(a->labels[0]), cmp_label);
	for (size_t k = 1; k < a->nlabels; k++)
		if (!strcmp(a->labels[k - 1].name, a->labels[k].name))
			return diag_at_line(a->d, EINVAL, a->labels[k].line, a->labels[k].col,
					    "label '%s' is already defined at line %d",
					    a->labels[k].name, a->labels[k - 1].line);
	for (size_t k = 0; k < a->nfix; k++) {
		struct fixup *f = &a->fix[k];
		struct bpf_insn *i = &a->insns[f->pc];
		long t = -1;
		int err;

		if (!f->name) {
			t = find_local(a, f);
			if (t < 0)
				return diag_at_line(a->d, EINVAL, f->line, f->col,
						    "no local label '%llu:' %s this reference",
						    (unsigned long long)f->num,
						    f->dir == 'b' ? "before" : "after");
		} else {
			const struct label *lb = find_label(a, f->name);

			if (lb)
				t = (long)lb->pc;
			else if (!strcmp(f->name, "exit") && a->first_exit >= 0)
				t = a->first_exit;
		}
		if (t < 0 && f->kind == FIX_CALL) {
			int32_t id = ebpf_helper_by_name(f->name);

			if (id < 0)
				return diag_at_line(a->d, EINVAL, f->line, f->col, "'%s' is neither "
						    "a label nor a helper name", f->name);
			i->src_reg = 0;
			i->imm = id;
			continue;
		}
		if (t < 0)
			return diag_at_line(a->d, EINVAL, f->line, f->col, "undefined label '%s'",
					    f->name);
		if (f->kind == FIX_CALL)
			i->src_reg = BPF_PSEUDO_CALL;
		err = set_rel(a, i, f->kind == FIX_OFF ? FIX_OFF : FIX_IMM,
			      (int64_t)t - (int64_t)f->pc - 1, f->line, f->col);
		if (err)
			return err;
	}
	return 0;
}

static void state_free(struct asm_state *a)
{
	for (size_t k = 0; k < a->nlabels; k++)
		free(a->labels[k].name);
	for (size_t k = 0; k < a->nfix; k++)
		free(a->fix[k].name);
	free(a->labels);
	free(a->locals);
	free(a->fix);
	free(a->lbuf);
	free(a->insns);
	free(a->lines);
}

int ebpf_asm(struct bpf_insn **insns, size_t *len, uint32_t **lines, const char *text,
	     size_t n, int first_line, struct diag *d)
{
	struct asm_state a;
	size_t pos = 0;
	int err = 0;

	memset(&a, 0, sizeof(a));
	a.d = d;
	a.first_exit = -1;
	a.line = first_line;
	*insns = NULL;
	*len = 0;
	if (lines)
		*lines = NULL;
	if ((err = detect_log(&a, text, n)))
		goto out;
	while (pos < n) {
		const char *eol = memchr(text + pos, '\n', n - pos);
		size_t l = eol ? (size_t)(eol - (text + pos)) : n - pos;
		size_t before = a.len;

		if ((err = clean_line(&a, text + pos, l)) || (err = do_line(&a)))
			goto out;
		for (size_t k = before; k < a.len; k += ebpf_insn_slots(&a.insns[k]))
			if (ebpf_is_exit(&a.insns[k]) && a.first_exit < 0)
				a.first_exit = (long)k;
		pos += l + 1;
		if (a.line < INT32_MAX)
			a.line++;
	}
	if (a.in_comment) {
		err = diag_at_line(d, EINVAL, a.comment_line, a.comment_col, "unterminated comment");
		goto out;
	}
	if ((err = resolve(&a)))
		goto out;
	*insns = a.insns;
	*len = a.len;
	if (lines)
		*lines = a.lines;
	else
		free(a.lines);
	a.insns = NULL;
	a.lines = NULL;
out:
	state_free(&a);
	return err;
}
