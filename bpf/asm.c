/* The assembler: text in any of the four dialects BPF developers read (see asm.h) to kernel
 * struct bpf_insn encodings, with labels resolved and every error located at file line:column.
 *
 * A line goes through four files:
 *   asm_log.c   the line as it comes: comments blanked, the columns and commentary of verifier
 *               logs, bpftool and llvm-objdump skipped (the list of what is recognised is there);
 *   asm.c       (this file) the statements and labels on what is left, and the dialect of each
 *               statement; the instruction array, jump fix-ups and ebpf_asm() itself;
 *   asm_c.c     the kernel/LLVM grammar ("r1 += 2"), with its syntax in the file comment;
 *   asm_mnem.c  the ubpf grammar ("add %r1, 2"), likewise;
 * and both grammars read their tokens with asm_lex.c.  asm_internal.h is what they share.
 *
 * The dialect is told apart per statement by its first word: a ubpf mnemonic ("mov32", "ldxb",
 * "jslt", "lock add") selects the ubpf grammar, anything else (a register, "if", "goto", "*(",
 * "lock *(", "call", "exit") the kernel/LLVM grammar, which also covers llvm-objdump's text.
 *
 * Raw slot: ".bytes 07 01 00 00 01 00 00 00", 8 bytes in memory order: how the disassembler
 * prints a slot that does not validate, so that any byte string round-trips.
 * Jump targets: pc+N, pc-N, +N, -N, N, a label, an LLVM local label reference 1b / 1f, or
 * "exit" (ubpf: the label "exit" when defined, else the first exit instruction).
 * Statements are separated by ';' or newlines; labels are "name:" before a statement.
 *
 * Immediates are decimal or hex, may be negative, and 32-bit fields take -2^31..0xffffffff
 * (stored as the int32 bit pattern, so 0xffffffff is -1).  Offsets are int16.  Nothing is
 * validated beyond the encoding: ebpf_validate() judges the program.
 */
#include "bpf/asm_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* The operators both grammars know, by their kernel symbol and their ubpf mnemonic. */
const struct alu_op asm_alu_ops[] = {	/* longest symbols first */
	{ "s>>=", "arsh", BPF_ARSH, 0 }, { "s/=", "sdiv", BPF_DIV, 1 },
	{ "s%=", "smod", BPF_MOD, 1 }, { "<<=", "lsh", BPF_LSH, 0 }, { ">>=", "rsh", BPF_RSH, 0 },
	{ "+=", "add", BPF_ADD, 0 }, { "-=", "sub", BPF_SUB, 0 }, { "*=", "mul", BPF_MUL, 0 },
	{ "/=", "div", BPF_DIV, 0 }, { "|=", "or", BPF_OR, 0 }, { "&=", "and", BPF_AND, 0 },
	{ "%=", "mod", BPF_MOD, 0 }, { "^=", "xor", BPF_XOR, 0 }, { "=", "mov", BPF_MOV, 0 },
};
const size_t asm_nalu_ops = sizeof(asm_alu_ops) / sizeof(asm_alu_ops[0]);

const struct jmp_op asm_jmp_ops[] = {	/* longest symbols first */
	{ "s>=", "jsge", BPF_JSGE }, { "s<=", "jsle", BPF_JSLE }, { "s>", "jsgt", BPF_JSGT },
	{ "s<", "jslt", BPF_JSLT }, { "==", "jeq", BPF_JEQ }, { "!=", "jne", BPF_JNE },
	{ ">=", "jge", BPF_JGE }, { "<=", "jle", BPF_JLE }, { ">", "jgt", BPF_JGT },
	{ "<", "jlt", BPF_JLT }, { "&", "jset", BPF_JSET },
};
const size_t asm_njmp_ops = sizeof(asm_jmp_ops) / sizeof(asm_jmp_ops[0]);

int asm_emit(struct asm_state *a, struct bpf_insn i)
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

int asm_emit_ldimm64(struct asm_state *a, uint8_t dst, uint8_t src, uint32_t lo, uint32_t hi)
{
	int err = asm_emit(a, mk(BPF_LD | BPF_IMM | BPF_DW, dst, src, 0, s32_of(lo)));

	return err ? err : asm_emit(a, mk(0, 0, 0, 0, s32_of(hi)));
}

/* Room for one more element in the array *v of *cap (n in use): doubles it, from first. */
static int grow(struct asm_state *a, void **v, size_t *cap, size_t n, size_t elem, size_t first)
{
	size_t nc;
	void *nv;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : first;
	nv = realloc(*v, nc * elem);
	if (!nv)
		return diag_set(a->d, ENOMEM, "out of memory");
	*v = nv;
	*cap = nc;
	return 0;
}

static int add_fixup(struct asm_state *a, size_t pc, enum fix_kind kind, const struct target *t)
{
	int err = grow(a, (void **)&a->fix, &a->capfix, a->nfix, sizeof(*a->fix), 32);
	struct fixup *f;

	if (err)
		return err;
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
					    "jump offset %lld does not fit in 16 bits "
					    "(-32768..32767; gotol takes 32)", (long long)rel);
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
int asm_emit_jump(struct cur *c, struct bpf_insn i, enum fix_kind kind, const struct target *t)
{
	struct asm_state *a = c->a;
	int err;

	if (t->kind == T_REL) {
		if ((err = set_rel(a, &i, kind, t->rel, a->line, t->col)))
			return err;
		return asm_emit(a, i);
	}
	if ((err = add_fixup(a, a->len, kind, t)))
		return err;
	return asm_emit(a, i);
}

/* Duplicates are found after sorting, in resolve(). */
static int define_label(struct asm_state *a, const char *s, size_t l, int col)
{
	int err = grow(a, (void **)&a->labels, &a->caplabels, a->nlabels, sizeof(*a->labels), 16);

	if (err)
		return err;
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
	int err = grow(a, (void **)&a->locals, &a->caplocals, a->nlocals, sizeof(*a->locals), 16);

	if (err)
		return err;
	a->locals[a->nlocals].num = num;
	a->locals[a->nlocals].pc = a->len;
	a->locals[a->nlocals].seq = a->seq;
	a->nlocals++;
	return 0;
}

/* ".global NAME ARG...": the prototype of the global function at the next slot (asm.h). */
static int parse_global(struct cur *c)
{
	struct asm_state *a = c->a;
	struct ebpf_global_func g = { .insn = (uint32_t)a->len, .ret = EBPF_FARG_INT };
	const char *s;
	size_t l = asm_ident(c, &s);
	int err;

	if (!l)
		return asm_expected(c, "a function name", "after '.global'");
	snprintf(g.name, sizeof(g.name), "%.*s", (int)(l < 63 ? l : 63), s);
	for (skip_ws(c); *c->p; skip_ws(c)) {
		struct ebpf_func_arg arg = { .kind = EBPF_FARG_OTHER };
		struct num n;
		int64_t v;

		if (asm_word(c, "tagged")) {
			g.tagged = true;
			continue;
		}
		if (asm_word(c, "exception_cb")) {
			g.exc_cb = true;
			continue;
		}
		if (asm_lit(c, "ret:")) {
			if (!(l = asm_ident(c, &s)) || !(ident_is(s, l, "int") || ident_is(s, l, "void") ||
							ident_is(s, l, "other")))
				return asm_expected(c, "int, void or other", "after 'ret:'");
			g.ret = ident_is(s, l, "int") ? EBPF_FARG_INT : ident_is(s, l, "void")
				? EBPF_FARG_PTR_NOSIZE : EBPF_FARG_OTHER;
			continue;
		}
		if (asm_lit(c, "void*")) {
			arg.kind = EBPF_FARG_PTR_NOSIZE;
		} else if (asm_word(c, "other")) {
			arg.kind = EBPF_FARG_OTHER;
		} else if (asm_lit(c, "int:") || asm_lit(c, "ptr:")) {
			arg.kind = c->p[-4] == 'i' ? EBPF_FARG_INT : EBPF_FARG_PTR;
			if (arg.kind == EBPF_FARG_PTR && is_ident_start((unsigned char)*c->p)) {
				l = asm_ident(c, &s);
				snprintf(arg.tname, sizeof(arg.tname), "%.*s", (int)(l < 47 ? l : 47), s);
				if ((err = asm_need(c, ":", "after the struct name")))
					return err;
			}
			if ((err = asm_need_num(c, &n, "a size in bytes", "in a .global argument")))
				return err;
			if (!asm_num_in(&n, 1, UINT32_MAX, &v) ||
			    (arg.kind == EBPF_FARG_INT && v != 1 && v != 2 && v != 4 && v != 8))
				return asm_err(c, "a .global argument's size must be 1, 2, 4 or 8 for "
					       "an integer, at least 1 for a pointer");
			arg.size = (uint32_t)v;
		} else {
			return asm_expected(c, "int:N, ptr:N, ptr:STRUCT:N, void*, other, "
					    "ret:KIND, tagged or exception_cb", "in .global");
		}
		if (g.nargs == 255)
			return asm_err(c, "too many .global arguments");
		if (g.nargs < 5)
			g.args[g.nargs] = arg;
		g.nargs++;
	}
	if ((err = grow(a, (void **)&a->globals, &a->capglobals, a->nglobals,
			sizeof(*a->globals), 4)))
		return err;
	a->globals[a->nglobals++] = g;
	return 0;
}

void ebpf_global_func_print(struct sbuf *sb, const struct ebpf_global_func *g)
{
	sbuf_printf(sb, ".global %s", g->name);
	for (unsigned k = 0; k < g->nargs && k < 5; k++) {
		const struct ebpf_func_arg *x = &g->args[k];

		if (x->kind == EBPF_FARG_INT)
			sbuf_printf(sb, " int:%u", x->size);
		else if (x->kind == EBPF_FARG_PTR)
			sbuf_printf(sb, " ptr:%s%s%u", x->tname, x->tname[0] ? ":" : "", x->size);
		else
			sbuf_puts(sb, x->kind == EBPF_FARG_PTR_NOSIZE ? " void*" : " other");
	}
	for (unsigned k = 5; k < g->nargs; k++)
		sbuf_puts(sb, " other");
	if (g->ret != EBPF_FARG_INT)
		sbuf_puts(sb, g->ret == EBPF_FARG_PTR_NOSIZE ? " ret:void" : " ret:other");
	if (g->tagged)
		sbuf_puts(sb, " tagged");
	if (g->exc_cb)
		sbuf_puts(sb, " exception_cb");
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
	if (!strncmp(start, ".global", 7) && !is_ident_char((unsigned char)start[7])) {
		c->p += 7;
		return parse_global(c);
	}
	if (!strncmp(start, ".bytes", 6) && !is_ident_char((unsigned char)start[6])) {
		/* One raw slot, as the disassembler prints what it cannot name. */
		struct bpf_insn i;
		uint8_t b[8];
		int err;

		c->p += 6;
		for (int k = 0; k < 8; k++) {
			skip_ws(c);
			if (!isxdigit((unsigned char)c->p[0]) ||
			    !isxdigit((unsigned char)c->p[1]) ||
			    is_ident_char((unsigned char)c->p[2]))
				return asm_expected(c, "8 hex bytes", "after '.bytes'");
			b[k] = (uint8_t)(hexv(c->p[0]) * 16 + hexv(c->p[1]));
			c->p += 2;
		}
		if ((err = asm_need_end(c)))
			return err;
		memcpy(&i, b, sizeof(i));
		return asm_emit(c->a, i);
	}
	l = asm_ident(c, &s);
	if (l && !ident_is(s, l, "lock") && asm_ubpf_lookup(s, l, &m)) {
		char name[24];

		snprintf(name, sizeof(name), "%.*s", (int)l, s);
		return asm_parse_ubpf(c, &m, name);
	}
	if (l && ident_is(s, l, "lock")) {
		skip_ws(c);
		if (*c->p != '*') {
			asm_ubpf_lookup(s, l, &m);
			return asm_parse_ubpf(c, &m, "lock");
		}
	}
	c->p = start;
	return asm_parse_kernel(c, opcol);
}

int asm_stmts(struct asm_state *a, char *p, int opcol, int opcol_col, long pc)
{
	struct cur c = { a, p };

	for (;;) {
		char *semi, *q;
		size_t before = a->len, nfix = a->nfix;
		int err;

		skip_ws(&c);
		if (!*c.p)
			return 0;
		if (asm_state_text(c.p))
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
			l = asm_ident(&c, &s);
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
		if (asm_state_text(c.p))
			return 0;
		/* One statement up to ';' (the verifier log's ';' starts the register state). */
		semi = strchr(c.p, ';');
		if (semi)
			*semi = '\0';
		a->seq++;
		err = parse_stmt(&c, opcol);
		if (err)
			return err;
		if (opcol >= 0 && (err = asm_check_log_line(a, before, nfix, opcol, opcol_col, pc)))
			return err;
		if (!semi || opcol >= 0)
			return 0;
		c.p = semi + 1;
		skip_ws(&c);
		if (asm_state_text(c.p))
			return 0;
	}
}

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

			if (id < 0) {
				/* a kfunc of the running kernel, by its BTF id */
				id = ebpf_kfunc_by_name(f->name);
				if (id < 0)
					return diag_at_line(a->d, EINVAL, f->line, f->col,
							    "'%s' is neither a label, a helper name "
							    "nor a kfunc of the running kernel%s",
							    f->name, id == -ENODATA ?
							    " (no vmlinux BTF here)" : "");
				i->src_reg = BPF_PSEUDO_KFUNC_CALL;
				i->imm = id;
				continue;
			}
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
	free(a->globals);
}

int ebpf_asm(struct bpf_insn **insns, size_t *len, uint32_t **lines, const char *text,
	     size_t n, int first_line, struct diag *d)
{
	return ebpf_asm_globals(insns, len, lines, NULL, NULL, text, n, first_line, d);
}

int ebpf_asm_globals(struct bpf_insn **insns, size_t *len, uint32_t **lines,
		     struct ebpf_global_func **globals, size_t *nglobals, const char *text,
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
	if (globals) {
		*globals = NULL;
		*nglobals = 0;
	}
	if ((err = asm_detect_log(&a, text, n)))
		goto out;
	while (pos < n) {
		const char *eol = memchr(text + pos, '\n', n - pos);
		size_t l = eol ? (size_t)(eol - (text + pos)) : n - pos;
		size_t before = a.len;

		if ((err = asm_clean_line(&a, text + pos, l)) || (err = asm_line(&a)))
			goto out;
		for (size_t k = before; k < a.len; k += ebpf_insn_slots(&a.insns[k]))
			if (ebpf_is_exit(&a.insns[k]) && a.first_exit < 0)
				a.first_exit = (long)k;
		pos += l + 1;
		if (a.line < INT32_MAX)
			a.line++;
	}
	if (a.in_comment) {
		err = diag_at_line(d, EINVAL, a.comment_line, a.comment_col,
				   "unterminated comment");
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
	if (globals) {
		*globals = a.globals;
		*nglobals = a.nglobals;
		a.globals = NULL;
	}
	a.insns = NULL;
	a.lines = NULL;
out:
	state_free(&a);
	return err;
}
