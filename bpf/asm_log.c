/* Lines as the assembler receives them: comments blanked (columns kept, so errors point at the
 * source), and the columns and commentary of verifier logs, bpftool and llvm-objdump recognised
 * and skipped, so that what the kernel or a tool printed assembles back to the program.  What is
 * left of a line goes to asm_stmts() (asm.c).
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
 */
#include "bpf/asm_internal.h"

#include <errno.h>
#include <stdlib.h>

/* Copies a line with comments blanked (columns kept). */
int asm_clean_line(struct asm_state *a, const char *s, size_t n)
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
		    (b[i] == '#' && (i == 0 || is_blank((unsigned char)b[i - 1]) ||
				     b[i - 1] == ';' || b[i - 1] == ','))) {
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
bool asm_state_text(const char *p)
{
	return (p[0] == 'R' && isdigit((unsigned char)p[1])) ||
	       (!strncmp(p, "frame", 5) && isdigit((unsigned char)p[5])) ||
	       (!strncmp(p, "fp-", 3));
}

/* A verifier log line "pc: (op) insn" just assembled at before: the opcode column must match,
 * and a pc the log already showed (a revisit on another path) must repeat that instruction, which
 * is then dropped. */
int asm_check_log_line(struct asm_state *a, size_t before, size_t nfix, int opcol,
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
		return diag_at_line(a->d, EINVAL, a->line, 1, "instruction %ld differs from the "
				    "one assembled earlier at that pc", pc);
	a->len = before;
	while (a->nfix > nfix)
		free(a->fix[--a->nfix].name);
	return 0;
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
	if (asm_state_text(r))
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

int asm_line(struct asm_state *a)
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
			if ((err = asm_emit(a, i)))
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
	return asm_stmts(a, p, opcol, opcol_col, pc);
}

/* A text with verifier log instruction lines is read as a log: other lines are the verifier's
 * commentary, whose vocabulary grows with every kernel. */
int asm_detect_log(struct asm_state *a, const char *text, size_t n)
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

		if ((err = asm_clean_line(a, text + pos, l)))
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
