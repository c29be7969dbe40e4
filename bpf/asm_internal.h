/* What the parts of the assembler share (bpf/asm.c says which part does what): the state of
 * one ebpf_asm() call, the cursor over the current line, the tokens both grammars read, the
 * operator tables, and the entry points each part offers the others.  Not part of the public API:
 * only bpf/asm*.c include it.
 */
#ifndef BPFSCEV_BPF_ASM_INTERNAL_H
#define BPFSCEV_BPF_ASM_INTERNAL_H

#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bpf/asm.h"

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
	bool log_mode;		/* the text is a verifier log (see asm_detect_log) */
	bool in_comment;	/* inside a C comment that started on an earlier line */
	int comment_line, comment_col;
	struct ebpf_global_func *globals;	/* ".global" directives, by the slot after them */
	size_t nglobals, capglobals;
};

/* A position in the current line. */
struct cur {
	struct asm_state *a;
	char *p;
};

/* Character classes and the cursor (asm_lex.c reads the tokens). */
static inline bool is_ident_start(int c)
{
	return isalpha(c) || c == '_' || c == '.' || c == '$';
}

static inline bool is_ident_char(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '$';
}

static inline bool is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r';
}

static inline unsigned hexv(char ch)
{
	return isdigit((unsigned char)ch) ? (unsigned)(ch - '0')
					  : (unsigned)(tolower((unsigned char)ch) - 'a' + 10);
}

static inline void skip_ws(struct cur *c)
{
	while (is_blank((unsigned char)*c->p))
		c->p++;
}

static inline int col_of(const struct cur *c)
{
	return (int)(c->p - c->a->lbuf) + 1;
}

static inline bool ident_is(const char *s, size_t l, const char *w)
{
	return strlen(w) == l && !strncmp(s, w, l);
}

/* Numbers: [+-]?(0x hex | decimal) as a sign and a 64-bit magnitude.  Returns 1, 0 when there
 * is no number here (nothing consumed), or an error. */
struct num {
	bool neg;
	bool sign;	/* written with an explicit + or - */
	uint64_t mag;
	int col;
};

static inline int32_t s32_of(int64_t v)	/* v in [INT32_MIN, UINT32_MAX]: the int32 bit pattern */
{
	uint32_t u = (uint32_t)v;

	return u > INT32_MAX ? (int32_t)(u - 0x80000000u) + INT32_MIN : (int32_t)u;
}

static inline uint64_t num_u64(const struct num *n)	/* any 64-bit value, two's complement */
{
	return n->neg ? 0 - n->mag : n->mag;
}

static inline bool num_fits64(const struct num *n)
{
	return !n->neg || n->mag <= (uint64_t)INT64_MAX + 1;
}

static inline struct bpf_insn mk(uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
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

/* ALU and jump operator tables (asm.c): kernel symbol, ubpf mnemonic, opcode, off. */
struct alu_op {
	const char *sym, *name;
	uint8_t op;
	int16_t off;
};

struct jmp_op {
	const char *sym, *name;
	uint8_t op;
};

extern const struct alu_op asm_alu_ops[];	/* longest symbols first */
extern const size_t asm_nalu_ops;
extern const struct jmp_op asm_jmp_ops[];	/* longest symbols first */
extern const size_t asm_njmp_ops;

/* asm_lex.c: tokens.  Each returns 0 or an error set in the state's diag; the try_ forms return
 * 1 when they read one, 0 when the text is something else (nothing consumed), or an error. */
const char *asm_found(const struct cur *c, char *buf, size_t n);
int asm_err(struct cur *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int asm_expected(struct cur *c, const char *what, const char *where);
bool asm_lit(struct cur *c, const char *s);
bool asm_word(struct cur *c, const char *s);
int asm_need(struct cur *c, const char *s, const char *where);
int asm_need_end(struct cur *c);
size_t asm_ident(struct cur *c, const char **s);
int asm_try_reg(struct cur *c, uint8_t *reg, bool *w32);
int asm_need_reg(struct cur *c, uint8_t *reg, bool *w32, const char *where);
int asm_try_num(struct cur *c, struct num *n);
int asm_need_num(struct cur *c, struct num *n, const char *what, const char *where);
bool asm_num_in(const struct num *n, int64_t lo, int64_t hi, int64_t *out);
int asm_num_imm32(struct cur *c, const struct num *n, int32_t *out);
int asm_num_off16(struct cur *c, const struct num *n, int16_t *out);
int asm_parse_target(struct cur *c, struct target *t, const char *where);
int asm_parse_reg_off(struct cur *c, uint8_t *reg, int16_t *off);

/* asm.c: the instruction array, jumps and the statements of a line. */
int asm_emit(struct asm_state *a, struct bpf_insn i);
int asm_emit_ldimm64(struct asm_state *a, uint8_t dst, uint8_t src, uint32_t lo, uint32_t hi);
int asm_emit_jump(struct cur *c, struct bpf_insn i, enum fix_kind kind, const struct target *t);
int asm_stmts(struct asm_state *a, char *p, int opcol, int opcol_col, long pc);

/* asm_c.c: one statement of the kernel/LLVM grammar; opcol is the verifier log's opcode column
 * (-1 without one), which makes "r1 = 5" an LD_IMM64 when it says 0x18. */
int asm_parse_kernel(struct cur *c, int opcol);

/* asm_mnem.c: the ubpf grammar. */
enum ub_kind { UB_ALU, UB_NEG, UB_END, UB_MOVSX, UB_LDX, UB_ST, UB_STX, UB_LDDW, UB_LDABS,
	       UB_LDIND, UB_JA, UB_JMP, UB_LOCK };

struct ub_mnem {
	enum ub_kind kind;
	uint8_t code;	/* class and operation bits */
	int16_t off;	/* sdiv/smod: 1; movsx: width */
	int32_t imm;	/* byte swaps: width */
};

bool asm_ubpf_lookup(const char *s, size_t l, struct ub_mnem *m);
int asm_parse_ubpf(struct cur *c, const struct ub_mnem *m, const char *name);

/* asm_log.c: lines as they come, before and around the statements. */
int asm_clean_line(struct asm_state *a, const char *s, size_t n);
int asm_detect_log(struct asm_state *a, const char *text, size_t n);
int asm_line(struct asm_state *a);
bool asm_state_text(const char *p);
int asm_check_log_line(struct asm_state *a, size_t before, size_t nfix, int opcol,
		       int opcol_col, long pc);

#endif
