/* The ubpf grammar of the assembler, the mnemonic syntax of the bpf_conformance suite: a
 * mnemonic, then operands separated by commas.  asm.c sends here every statement whose first
 * word asm_ubpf_lookup() knows.
 *
 * ubpf dialect (the conformance suite): mov32 %r0, 0   add %r0, %r1   neg32 %r0   sdiv, smod,
 * arsh ... with a "32" suffix for ALU; be16/le32/swap16/bswap16 %r0; movsx832, movsx1632,
 * movsx864, movsx1664, movsx3264 %r0, %r1; ldxb %r0, [%r1+0x2]; ldxsb/ldxsh/ldxsw;
 * stb [%r1+2], 0x11; stxdw [%r10-8], %r0; lddw %r0, 0x123456789abcdef0; ldabsb 12;
 * ldindh %r1, 4; ja L1 / ja +1; ja32 L1 (gotol); jslt %r1, 0xfffffffd, exit (32 suffix for
 * JMP32); lock [fetch] add|and|or|xor[32] [%r10-8], %r1; lock xchg[32] / cmpxchg[32];
 * call 5 / call helper 5 / call local func1 / call runtime 5 (kfunc) / call %r2 (callx, target
 * in dst_reg); exit.  The '%' before registers is optional.
 * "call" and "exit" are read by the kernel/LLVM grammar (asm_c.c), which knows ubpf's forms.
 */
#include "bpf/asm_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* Looks up a ubpf mnemonic; returns false when the word is not one. */
bool asm_ubpf_lookup(const char *s, size_t l, struct ub_mnem *m)
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
	for (size_t k = 0; k < asm_nalu_ops; k++)
		if (!strcmp(w, asm_alu_ops[k].name)) {
			m->kind = UB_ALU;
			m->code = (is32 ? BPF_ALU : BPF_ALU64) | asm_alu_ops[k].op;
			m->off = asm_alu_ops[k].off;
			return true;
		}
	for (size_t k = 0; k < asm_njmp_ops; k++)
		if (!strcmp(w, asm_jmp_ops[k].name)) {
			m->kind = UB_JMP;
			m->code = (is32 ? BPF_JMP32 : BPF_JMP) | asm_jmp_ops[k].op;
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
			if (!strcmp(w + pl, "16") || !strcmp(w + pl, "32") ||
			    !strcmp(w + pl, "64")) {
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
			{ "ldxs", UB_LDX, BPF_LDX | BPF_MEMSX },
			{ "ldx", UB_LDX, BPF_LDX | BPF_MEM },
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

	if ((err = asm_need(c, "[", "before the address")) ||
	    (err = asm_parse_reg_off(c, reg, off)))
		return err;
	return asm_need(c, "]", "after the address");
}

static int ubpf_comma(struct cur *c)
{
	return asm_need(c, ",", "between operands");
}

static int ubpf_imm(struct cur *c, int32_t *imm, const char *where)
{
	struct num n;
	int err;

	if ((err = asm_need_num(c, &n, "an immediate", where)))
		return err;
	return asm_num_imm32(c, &n, imm);
}

static int parse_ubpf_lock(struct cur *c)
{
	static const struct { const char *n; int32_t imm; } ops[] = {
		{ "add", BPF_ADD }, { "and", BPF_AND }, { "or", BPF_OR }, { "xor", BPF_XOR },
		{ "xchg", BPF_XCHG }, { "cmpxchg", BPF_CMPXCHG },
	};
	bool fetch = asm_word(c, "fetch");
	const char *s = NULL;
	size_t l;
	uint8_t dst, src;
	int16_t off;
	int32_t imm = -1;
	uint8_t size = BPF_DW;
	int err;

	l = asm_ident(c, &s);
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
		return asm_expected(c, "an atomic operation (add, and, or, xor, xchg, cmpxchg)",
				"after 'lock'");
	}
	if (fetch)
		imm |= BPF_FETCH;
	if ((err = ubpf_mem(c, &dst, &off)) || (err = ubpf_comma(c)) ||
	    (err = asm_need_reg(c, &src, NULL, "as the operand")) || (err = asm_need_end(c)))
		return err;
	return asm_emit(c->a, mk(BPF_STX | BPF_ATOMIC | size, dst, src, off, imm));
}

int asm_parse_ubpf(struct cur *c, const struct ub_mnem *m, const char *name)
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
		if ((err = asm_need_reg(c, &dst, NULL, where)) || (err = ubpf_comma(c)))
			return err;
		r = asm_try_reg(c, &src, NULL);
		if (r < 0)
			return r;
		if (r == 0 && (err = ubpf_imm(c, &imm, "as the source")))
			return err;
		if ((err = asm_need_end(c)))
			return err;
		return asm_emit(c->a, mk(m->code | (r ? BPF_X : BPF_K), dst, src, m->off, imm));
	case UB_NEG:
		if ((err = asm_need_reg(c, &dst, NULL, where)) || (err = asm_need_end(c)))
			return err;
		return asm_emit(c->a, mk(m->code, dst, 0, 0, 0));
	case UB_END:
		if ((err = asm_need_reg(c, &dst, NULL, where)) || (err = asm_need_end(c)))
			return err;
		return asm_emit(c->a, mk(m->code, dst, 0, 0, m->imm));
	case UB_MOVSX:
		if ((err = asm_need_reg(c, &dst, NULL, where)) || (err = ubpf_comma(c)) ||
		    (err = asm_need_reg(c, &src, NULL, "as the source")) || (err = asm_need_end(c)))
			return err;
		return asm_emit(c->a, mk(m->code, dst, src, m->off, 0));
	case UB_LDX:
		if ((err = asm_need_reg(c, &dst, NULL, where)) || (err = ubpf_comma(c)) ||
		    (err = ubpf_mem(c, &src, &off)) || (err = asm_need_end(c)))
			return err;
		return asm_emit(c->a, mk(m->code, dst, src, off, 0));
	case UB_ST:
		if ((err = ubpf_mem(c, &dst, &off)) || (err = ubpf_comma(c)) ||
		    (err = ubpf_imm(c, &imm, "as the value")) || (err = asm_need_end(c)))
			return err;
		return asm_emit(c->a, mk(m->code, dst, 0, off, imm));
	case UB_STX:
		if ((err = ubpf_mem(c, &dst, &off)) || (err = ubpf_comma(c)) ||
		    (err = asm_need_reg(c, &src, NULL, "as the value")) || (err = asm_need_end(c)))
			return err;
		return asm_emit(c->a, mk(m->code, dst, src, off, 0));
	case UB_LDDW:
		if ((err = asm_need_reg(c, &dst, NULL, where)) || (err = ubpf_comma(c)) ||
		    (err = asm_need_num(c, &n, "a 64-bit immediate", "")))
			return err;
		if (!num_fits64(&n))
			return diag_at_line(c->a->d, EINVAL, c->a->line, n.col,
					    "immediate does not fit in 64 bits");
		if ((err = asm_need_end(c)))
			return err;
		return asm_emit_ldimm64(c->a, dst, 0, (uint32_t)num_u64(&n),
					(uint32_t)(num_u64(&n) >> 32));
	case UB_LDABS:
		if ((err = ubpf_imm(c, &imm, where)) || (err = asm_need_end(c)))
			return err;
		return asm_emit(c->a, mk(m->code, 0, 0, 0, imm));
	case UB_LDIND:
		if ((err = asm_need_reg(c, &src, NULL, where)) || (err = ubpf_comma(c)) ||
		    (err = ubpf_imm(c, &imm, "as the offset")) || (err = asm_need_end(c)))
			return err;
		return asm_emit(c->a, mk(m->code, 0, src, 0, imm));
	case UB_JA:
		if ((err = asm_parse_target(c, &t, where)) || (err = asm_need_end(c)))
			return err;
		return asm_emit_jump(c, mk(m->code, 0, 0, 0, 0),
				 BPF_CLASS(m->code) == BPF_JMP32 ? FIX_IMM : FIX_OFF, &t);
	case UB_JMP:
		if ((err = asm_need_reg(c, &dst, NULL, where)) || (err = ubpf_comma(c)))
			return err;
		r = asm_try_reg(c, &src, NULL);
		if (r < 0)
			return r;
		if (r == 0 && (err = ubpf_imm(c, &imm, "in the comparison")))
			return err;
		if ((err = ubpf_comma(c)) ||
		    (err = asm_parse_target(c, &t, "as the jump target")) ||
		    (err = asm_need_end(c)))
			return err;
		return asm_emit_jump(c, mk(m->code | (r ? BPF_X : BPF_K), dst, src, 0, imm),
				     FIX_OFF, &t);
	case UB_LOCK:
		return parse_ubpf_lock(c);
	}
	return asm_expected(c, "an instruction", "");
}
