/* The kernel/LLVM grammar of the assembler: one statement (asm.c splits the lines into them and
 * sends here every one that does not start with a ubpf mnemonic) as the verifier log and bpftool
 * print it, or as LLVM spells it in selftests' inline asm and llvm-objdump's text.
 *
 * The syntax, as kernel/bpf/disasm.c prints it plus LLVM's spellings:
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
 * ubpf's "call helper 5", "call local func1", "call runtime 5" (kfunc) and "call %r2" are read
 * here too, since "call" starts a statement in both dialects.
 */
#include "bpf/asm_internal.h"

#include <errno.h>
#include <stdio.h>

/* The register must be a 64-bit one (or, with want32, a 32-bit one). */
static int need_reg_width(struct cur *c, uint8_t *reg, bool want32, const char *where)
{
	bool w;
	char *at;
	int err;

	skip_ws(c);
	at = c->p;
	if ((err = asm_need_reg(c, reg, &w, where)))
		return err;
	if (w != want32) {
		c->p = at;
		return asm_err(c, "expected a %s register (%s) %s, got '%c%u'",
			    want32 ? "32-bit" : "64-bit", want32 ? "w0-w10" : "r0-r10", where,
			    w ? 'w' : 'r', *reg);
	}
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
		if ((allow_sx || !sizes[k].sx) && asm_word(c, sizes[k].name)) {
			*size = sizes[k].size;
			if (sx)
				*sx = sizes[k].sx;
			return 0;
		}
	return asm_expected(c, allow_sx ? "a size (u8, u16, u32, u64, s8, s16, s32)"
				    : "a size (u8, u16, u32, u64)", "in the pointer cast");
}

/* "(SIZE *)" after the opening '(' was read. */
static int parse_cast(struct cur *c, uint8_t *size, bool *sx, bool allow_sx)
{
	int err;

	if ((err = parse_size(c, size, sx, allow_sx)))
		return err;
	if ((err = asm_need(c, "*", "after the size")))
		return err;
	return asm_need(c, ")", "to close the pointer cast");
}

/* "(REG +OFF)" */
static int parse_mem(struct cur *c, uint8_t *reg, int16_t *off)
{
	int err;

	if ((err = asm_need(c, "(", "before the address")))
		return err;
	if ((err = asm_parse_reg_off(c, reg, off)))
		return err;
	return asm_need(c, ")", "after the address");
}

/* "((SIZE *)(REG +OFF)" — the argument of atomic and acquire/release calls. */
static int parse_cast_mem(struct cur *c, uint8_t *size, uint8_t *reg, int16_t *off)
{
	int err;

	if ((err = asm_need(c, "(", "before the pointer cast")))
		return err;
	if ((err = parse_cast(c, size, NULL, false)))
		return err;
	return parse_mem(c, reg, off);
}

static int emit_kfunc(struct cur *c, int32_t id)
{
	int16_t off = 0;
	struct num n;
	int err;

	if (asm_word(c, "off")) {
		if ((err = asm_need(c, ":", "after 'off'")))
			return err;
		if ((err = asm_need_num(c, &n, "a BTF fd index", "after 'off:'")) ||
		    (err = asm_num_off16(c, &n, &off)))
			return err;
	}
	if ((err = asm_need_end(c)))
		return err;
	return asm_emit(c->a, mk(BPF_JMP | BPF_CALL | BPF_K, 0, BPF_PSEUDO_KFUNC_CALL, off, id));
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

	r = asm_try_reg(c, &reg, NULL);
	if (r < 0)
		return r;
	if (r > 0) {
		if ((err = asm_need_end(c)))
			return err;
		return asm_emit(c->a, mk(BPF_JMP | BPF_CALL | BPF_X, reg, 0, 0, 0));
	}
	skip_ws(c);
	if (!strncmp(c->p, "kernel-function", 15) && !is_ident_char((unsigned char)c->p[15])) {
		c->p += 15;
		if ((err = asm_need(c, "#", "after 'kernel-function'")) ||
		    (err = asm_need_num(c, &n, "a kfunc BTF id", "after '#'")) ||
		    (err = asm_num_imm32(c, &n, &imm)))
			return err;
		return emit_kfunc(c, imm);
	}
	if (asm_word(c, "local")) {
		if ((err = asm_parse_target(c, &t, "after 'call local'")) ||
		    (err = asm_need_end(c)))
			return err;
		return asm_emit_jump(c, mk(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 0), FIX_IMM,
				     &t);
	}
	if (asm_word(c, "helper") || (kf = asm_word(c, "runtime"))) {
		if ((err = asm_need_num(c, &n, kf ? "a kfunc id" : "a helper id", "")) ||
		    (err = asm_num_imm32(c, &n, &imm)))
			return err;
		if (kf)
			return emit_kfunc(c, imm);
		if ((err = asm_need_end(c)))
			return err;
		return asm_emit(c->a, mk(BPF_JMP | BPF_CALL, 0, 0, 0, imm));
	}
	skip_ws(c);
	if (c->p[0] == 'p' && c->p[1] == 'c' && (c->p[2] == '+' || c->p[2] == '-')) {
		if ((err = asm_parse_target(c, &t, "after 'call'")) || (err = asm_need_end(c)))
			return err;
		return asm_emit_jump(c, mk(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 0), FIX_IMM,
				     &t);
	}
	r = asm_try_num(c, &n);
	if (r < 0)
		return r;
	if (r > 0) {
		if (n.sign) {	/* "call -1", "call +5": bpf-to-bpf as llvm-objdump prints it */
			t.kind = T_REL;
			t.col = n.col;
			if (!asm_num_in(&n, INT32_MIN, INT32_MAX, &t.rel))
				return asm_err(c, "call offset does not fit in 32 bits");
			if ((err = asm_need_end(c)))
				return err;
			return asm_emit_jump(c, mk(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 0),
					     FIX_IMM, &t);
		}
		if ((err = asm_num_imm32(c, &n, &imm)) || (err = asm_need_end(c)))
			return err;
		return asm_emit(c->a, mk(BPF_JMP | BPF_CALL, 0, 0, 0, imm));
	}
	t.col = col_of(c);
	l = asm_ident(c, &s);
	if (!l)
		return asm_expected(c, "a helper, label, kfunc or register", "after 'call'");
	if (*c->p == '#') {	/* NAME#ID as the verifier log prints it */
		char name[128];
		int32_t hid;

		c->p++;
		if ((err = asm_need_num(c, &n, "an id", "after '#'")) ||
		    (err = asm_num_imm32(c, &n, &imm)))
			return err;
		snprintf(name, sizeof(name), "%.*s", (int)(l < 127 ? l : 127), s);
		if (ident_is(s, l, "kfunc"))
			return emit_kfunc(c, imm);
		if (ident_is(s, l, "unknown")) {
			if ((err = asm_need_end(c)))
				return err;
			return asm_emit(c->a, mk(BPF_JMP | BPF_CALL, 0, 0, 0, imm));
		}
		hid = l < 127 ? ebpf_helper_by_name(name) : -1;
		if (hid < 0)	/* not a helper: the verifier log names kfuncs this way */
			return emit_kfunc(c, imm);
		if (hid != imm)
			return diag_at_line(c->a->d, EINVAL, c->a->line, n.col,
					    "helper %s is #%d, not #%d", name, hid, imm);
		if ((err = asm_need_end(c)))
			return err;
		return asm_emit(c->a, mk(BPF_JMP | BPF_CALL, 0, 0, 0, imm));
	}
	if ((err = asm_need_end(c)))
		return err;
	t.kind = T_LABEL;
	t.name = s;
	t.nlen = l;
	return asm_emit_jump(c, mk(BPF_JMP | BPF_CALL, 0, 0, 0, 0), FIX_CALL, &t);
}

/* "lock *(u64 *)(r10 -8) += r1" after "lock". */
static int parse_lock_kernel(struct cur *c)
{
	static const struct { const char *sym; int32_t imm; } ops[] = {
		{ "+=", BPF_ADD }, { "|=", BPF_OR }, { "&=", BPF_AND }, { "^=", BPF_XOR },
	};
	uint8_t size, dst, src;
	int16_t off;
	int err;

	if ((err = asm_need(c, "*", "after 'lock'")) ||
	    (err = asm_need(c, "(", "after 'lock *'")) ||
	    (err = parse_cast(c, &size, NULL, false)) || (err = parse_mem(c, &dst, &off)))
		return err;
	for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
		if (asm_lit(c, ops[k].sym)) {
			if ((err = asm_need_reg(c, &src, NULL, "as the operand")) ||
			    (err = asm_need_end(c)))
				return err;
			return asm_emit(c->a,
					mk(BPF_STX | BPF_ATOMIC | size, dst, src, off, ops[k].imm));
		}
	return asm_expected(c, "an atomic operation (+=, |=, &=, ^=)", "after the address");
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
	    (err = asm_need(c, "=", "after the address")))
		return err;
	r = asm_try_reg(c, &src, NULL);
	if (r < 0)
		return r;
	if (r > 0) {
		if ((err = asm_need_end(c)))
			return err;
		return asm_emit(c->a, mk(BPF_STX | BPF_MEM | size, dst, src, off, 0));
	}
	if ((err = asm_need_num(c, &n, "a register or an immediate", "after '='")) ||
	    (err = asm_num_imm32(c, &n, &imm)) || (err = asm_need_end(c)))
		return err;
	return asm_emit(c->a, mk(BPF_ST | BPF_MEM | size, dst, 0, off, imm));
}

/* "store_release((u64 *)(r1 +0), r2)" after the name. */
static int parse_store_release(struct cur *c)
{
	uint8_t size, dst, src;
	int16_t off;
	int err;

	if ((err = asm_need(c, "(", "after 'store_release'")) ||
	    (err = parse_cast_mem(c, &size, &dst, &off)) ||
	    (err = asm_need(c, ",", "after the address")) ||
	    (err = asm_need_reg(c, &src, NULL, "as the value")) || (err = asm_need(c, ")", "")) ||
	    (err = asm_need_end(c)))
		return err;
	return asm_emit(c->a, mk(BPF_STX | BPF_ATOMIC | size, dst, src, off, BPF_STORE_REL));
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
	if ((err = asm_need(c, "[", "after 'skb'")))
		return err;
	r = asm_try_reg(c, &src, NULL);
	if (r < 0)
		return r;
	if (r > 0) {
		skip_ws(c);
		if (*c->p == '+' || *c->p == '-') {
			bool neg = *c->p == '-';

			c->p++;
			if ((err = asm_need_num(c, &n, "an offset", "in skb[]")))
				return err;
			if (neg)
				n.neg = !n.neg;
			if ((err = asm_num_imm32(c, &n, &imm)))
				return err;
		}
	} else {
		if ((err = asm_need_num(c, &n, "an offset or a register", "in skb[]")) ||
		    (err = asm_num_imm32(c, &n, &imm)))
			return err;
	}
	if ((err = asm_need(c, "]", "")) || (err = asm_need_end(c)))
		return err;
	return asm_emit(c->a, mk(BPF_LD | (r > 0 ? BPF_IND : BPF_ABS) | size, 0, src, 0, imm));
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
	if ((err = asm_need(c, "(", "after the atomic operation")))
		return err;
	if (llvm) {	/* xchg_64(r2 + 0, r1) */
		size = (uint8_t)want;
		if ((err = asm_parse_reg_off(c, &addr, &off)))
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
	if ((err = asm_need(c, ",", "after the address")))
		return err;
	if (imm == BPF_CMPXCHG) {
		char *at;

		skip_ws(c);
		at = c->p;
		if ((err = asm_need_reg(c, &r0, NULL, "as the expected value")))
			return err;
		if (r0 != 0 || dst != 0) {
			c->p = at;
			return asm_err(c, "cmpxchg compares with r0 and writes r0 "
				       "(r0 = ...cmpxchg(addr, r0, REG))");
		}
		if ((err = asm_need(c, ",", "after r0")))
			return err;
	}
	{
		char *at;

		skip_ws(c);
		at = c->p;
		if ((err = asm_need_reg(c, &src, NULL, "as the operand")))
			return err;
		if (imm != BPF_CMPXCHG && src != dst) {
			c->p = at;
			return asm_err(c, "the fetched value goes to the operand register: "
				       "expected %c%u, got r%u", dst32 ? 'w' : 'r', dst, src);
		}
	}
	if ((err = asm_need(c, ")", "")) || (err = asm_need_end(c)))
		return err;
	return asm_emit(c->a, mk(BPF_STX | BPF_ATOMIC | size, addr, src, off, imm));
}

/* LD_IMM64 pseudo sources: "map[fd:3]+16", "btf_id 5", "func pc+4"; then an optional "ll". */
static int need_ll_end(struct cur *c)
{
	asm_word(c, "ll");
	return asm_need_end(c);
}

static int parse_map(struct cur *c, uint8_t dst)
{
	struct num n, v;
	bool idx;
	int32_t id;
	int32_t voff = 0;
	bool value = false;
	int err;

	if ((err = asm_need(c, "[", "after 'map'")))
		return err;
	if (asm_word(c, "fd"))
		idx = false;
	else if (asm_word(c, "idx"))
		idx = true;
	else if (asm_word(c, "id"))
		return asm_err(c, "map[id:N] names a loaded map and cannot be encoded; use "
			       "map[fd:N] or map[idx:N]");
	else
		return asm_expected(c, "'fd' or 'idx'", "in map[]");
	if ((err = asm_need(c, ":", "")) || (err = asm_need_num(c, &n, "a number", "in map[]")) ||
	    (err = asm_num_imm32(c, &n, &id)) || (err = asm_need(c, "]", "")))
		return err;
	skip_ws(c);
	if (*c->p == '+') {
		c->p++;
		if ((err = asm_need_num(c, &v, "a value offset", "after '+'")) ||
		    (err = asm_num_imm32(c, &v, &voff)))
			return err;
		value = true;
	}
	if ((err = need_ll_end(c)))
		return err;
	return asm_emit_ldimm64(c->a, dst,
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
		r = asm_try_reg(c, &src, &w);
		if (r < 0)
			return r;
		if (r > 0) {
			if (src != dst || w != dst32) {
				c->p = save + 1;
				return asm_err(c, "negation is in place: expected %c%u = -%c%u",
					    dst32 ? 'w' : 'r', dst, dst32 ? 'w' : 'r', dst);
			}
			if ((err = asm_need_end(c)))
				return err;
			return asm_emit(c->a,
					mk((dst32 ? BPF_ALU : BPF_ALU64) | BPF_NEG, dst, 0, 0, 0));
		}
		c->p = save;
	}
	/* r1 = (s8)r2 */
	if (asm_lit(c, "(")) {
		static const struct { const char *n; int16_t off; } sx_casts[] = {
			{ "s8", 8 }, { "s16", 16 }, { "s32", 32 },
		};
		int16_t moff = 0;

		for (size_t k = 0; k < 3; k++)
			if (asm_word(c, sx_casts[k].n))
				moff = sx_casts[k].off;
		if (!moff)
			return asm_expected(c, "a sign-extension cast (s8, s16, s32)", "after '('");
		if ((err = asm_need(c, ")", "after the cast")) ||
		    (err = need_reg_width(c, &src, dst32, "after the cast")) ||
		    (err = asm_need_end(c)))
			return err;
		return asm_emit(c->a, mk((dst32 ? BPF_ALU : BPF_ALU64) | BPF_MOV | BPF_X, dst, src,
					 moff, 0));
	}
	/* loads */
	if (asm_lit(c, "*")) {
		int size_col;

		if ((err = asm_need(c, "(", "after '*'")))
			return err;
		skip_ws(c);
		size_col = col_of(c);
		if ((err = parse_cast(c, &size, &sx, true)))
			return err;
		if (asm_word(c, "skb")) {
			if (sx)
				return diag_at_line(c->a->d, EINVAL, c->a->line, size_col,
						    "legacy packet loads are unsigned");
			return parse_skb(c, dst, size, size_col);
		}
		if ((err = parse_mem(c, &src, &off)) || (err = asm_need_end(c)))
			return err;
		return asm_emit(c->a,
				mk(BPF_LDX | (sx ? BPF_MEMSX : BPF_MEM) | size, dst, src, off, 0));
	}
	skip_ws(c);
	at = c->p;
	r = asm_try_reg(c, &src, &w);
	if (r < 0)
		return r;
	if (r > 0) {	/* mov */
		if (w != dst32) {
			c->p = at;
			return asm_err(c, "mov needs registers of the same width (%c%u = %c%u)",
				    dst32 ? 'w' : 'r', dst, dst32 ? 'w' : 'r', src);
		}
		if ((err = asm_need_end(c)))
			return err;
		return asm_emit(c->a, mk((dst32 ? BPF_ALU : BPF_ALU64) | BPF_MOV | BPF_X, dst, src,
					 0, 0));
	}
	r = asm_try_num(c, &n);
	if (r < 0)
		return r;
	if (r > 0) {
		bool ll = asm_word(c, "ll");
		int64_t v;

		if (!ll && opcol != (BPF_LD | BPF_IMM | BPF_DW) &&
		    asm_num_in(&n, INT32_MIN, UINT32_MAX, &v)) {
			if ((err = asm_need_end(c)))
				return err;
			return asm_emit(c->a, mk((dst32 ? BPF_ALU : BPF_ALU64) | BPF_MOV | BPF_K,
						 dst, 0, 0, s32_of(v)));
		}
		if (dst32)
			return diag_at_line(c->a->d, EINVAL, c->a->line, n.col,
					    "a 64-bit immediate needs a 64-bit register (r%u)",
					    dst);
		if (!num_fits64(&n))
			return diag_at_line(c->a->d, EINVAL, c->a->line, n.col,
					    "immediate does not fit in 64 bits");
		if ((err = asm_need_end(c)))
			return err;
		return asm_emit_ldimm64(c->a, dst, 0, (uint32_t)num_u64(&n),
					(uint32_t)(num_u64(&n) >> 32));
	}
	skip_ws(c);
	name_col = col_of(c);
	l = asm_ident(c, &s);
	if (!l)
		return asm_expected(c, "a register (r0-r10), an immediate or an expression",
				    "after '='");
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
			if ((err = asm_need_reg(c, &src, NULL, "to swap")))
				return err;
			if (src != dst) {
				c->p = at;
				return asm_err(c, "byte swaps are in place: expected r%u = %s r%u",
					       dst, ends[k].n, dst);
			}
			if ((err = asm_need_end(c)))
				return err;
			return asm_emit(c->a, mk(ends[k].code, dst, 0, 0, ends[k].bits));
		}
	}
	if ((l > 7 && !strncmp(s, "atomic_", 7)) || (l > 9 && !strncmp(s, "atomic64_", 9)) ||
	    ident_is(s, l, "xchg_64") || ident_is(s, l, "xchg32_32") ||
	    ident_is(s, l, "cmpxchg_64") || ident_is(s, l, "cmpxchg32_32"))
		return parse_atomic_rhs(c, dst, dst32, s, l, name_col);
	if (ident_is(s, l, "load_acquire")) {
		if ((err = asm_need(c, "(", "after 'load_acquire'")) ||
		    (err = parse_cast_mem(c, &size, &src, &off)) || (err = asm_need(c, ")", "")) ||
		    (err = asm_need_end(c)))
			return err;
		return asm_emit(c->a, mk(BPF_STX | BPF_ATOMIC | size, dst, src, off, BPF_LOAD_ACQ));
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

			if ((err = asm_need_num(c, &n, "a BTF id", "after 'btf_id'")) ||
			    (err = asm_num_imm32(c, &n, &id)))
				return err;
			if (asm_word(c, "btf_fd")) {
				if ((err = asm_need(c, ":", "after 'btf_fd'")) ||
				    (err = asm_need_num(c, &fd, "a BTF fd", "after 'btf_fd:'")) ||
				    (err = asm_num_imm32(c, &fd, &bfd)))
					return err;
			}
			if ((err = need_ll_end(c)))
				return err;
			return asm_emit_ldimm64(c->a, dst, BPF_PSEUDO_BTF_ID, (uint32_t)id,
						(uint32_t)bfd);
		} else {
			struct target t;

			if ((err = asm_parse_target(c, &t, "after 'func'")) ||
			    (err = need_ll_end(c)))
				return err;
			if ((err = asm_emit_jump(c, mk(BPF_LD | BPF_IMM | BPF_DW, dst,
						       BPF_PSEUDO_FUNC, 0, 0), FIX_IMM, &t)))
				return err;
			return asm_emit(c->a, mk(0, 0, 0, 0, 0));
		}
	}
	c->p = (char *)s;
	return asm_expected(c, "a register (r0-r10), an immediate or an expression", "after '='");
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

	for (size_t k = 0; k < asm_nalu_ops; k++) {
		const struct alu_op *o = &asm_alu_ops[k];
		uint8_t cls = dst32 ? BPF_ALU : BPF_ALU64;

		if (!asm_lit(c, o->sym))
			continue;
		if (o->op == BPF_MOV)
			return parse_reg_rhs(c, dst, dst32, opcol);
		snprintf(where, sizeof(where), "after '%s'", o->sym);
		skip_ws(c);
		at = c->p;
		r = asm_try_reg(c, &src, &w);
		if (r < 0)
			return r;
		if (r > 0) {
			c->p = at;
			if (w != dst32)
				return asm_err(c, "expected a %s register (%s) %s",
					       dst32 ? "32-bit" : "64-bit",
					       dst32 ? "w0-w10" : "r0-r10", where);
			c->p = at;
			asm_try_reg(c, &src, &w);
			if ((err = asm_need_end(c)))
				return err;
			return asm_emit(c->a, mk(cls | o->op | BPF_X, dst, src, o->off, 0));
		}
		if ((err = asm_need_num(c, &n, "a register or an immediate", where)) ||
		    (err = asm_num_imm32(c, &n, &imm)) || (err = asm_need_end(c)))
			return err;
		return asm_emit(c->a, mk(cls | o->op | BPF_K, dst, 0, o->off, imm));
	}
	return asm_expected(c, "an assignment or ALU operator (=, +=, -=, ...)",
			    "after the register");
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

	if ((err = asm_need_reg(c, &dst, &w32, "after 'if'")))
		return err;
	for (size_t k = 0; k < asm_njmp_ops && !o; k++)
		if (asm_lit(c, asm_jmp_ops[k].sym))
			o = &asm_jmp_ops[k];
	if (!o)
		return asm_expected(c, "a comparison (==, !=, >, >=, <, <=, s>, s>=, s<, s<=, &)",
				"after the register");
	r = asm_try_reg(c, &src, NULL);
	if (r < 0)
		return r;
	if (r == 0) {
		if ((err = asm_need_num(c, &n, "a register or an immediate",
					"in the comparison")) ||
		    (err = asm_num_imm32(c, &n, &imm)))
			return err;
	}
	if ((err = asm_need(c, "goto", "after the comparison")) ||
	    (err = asm_parse_target(c, &t, "after 'goto'")) || (err = asm_need_end(c)))
		return err;
	return asm_emit_jump(c, mk((w32 ? BPF_JMP32 : BPF_JMP) | o->op | (r ? BPF_X : BPF_K), dst,
				   src, 0, imm), FIX_OFF, &t);
}

int asm_parse_kernel(struct cur *c, int opcol)
{
	struct target t;
	uint8_t reg;
	bool w32;
	int err, r;

	if (asm_word(c, "exit")) {
		if ((err = asm_need_end(c)))
			return err;
		return asm_emit(c->a, mk(BPF_JMP | BPF_EXIT, 0, 0, 0, 0));
	}
	if (asm_word(c, "goto")) {
		if ((err = asm_parse_target(c, &t, "after 'goto'")) || (err = asm_need_end(c)))
			return err;
		return asm_emit_jump(c, mk(BPF_JMP | BPF_JA, 0, 0, 0, 0), FIX_OFF, &t);
	}
	if (asm_word(c, "gotol")) {
		if ((err = asm_parse_target(c, &t, "after 'gotol'")) || (err = asm_need_end(c)))
			return err;
		return asm_emit_jump(c, mk(BPF_JMP32 | BPF_JA, 0, 0, 0, 0), FIX_IMM, &t);
	}
	if (asm_word(c, "may_goto")) {
		if ((err = asm_parse_target(c, &t, "after 'may_goto'")) || (err = asm_need_end(c)))
			return err;
		return asm_emit_jump(c, mk(BPF_JMP | BPF_JCOND, 0, BPF_MAY_GOTO, 0, 0), FIX_OFF,
				     &t);
	}
	if (asm_word(c, "callx")) {
		if ((err = asm_need_reg(c, &reg, NULL, "after 'callx'")) || (err = asm_need_end(c)))
			return err;
		return asm_emit(c->a, mk(BPF_JMP | BPF_CALL | BPF_X, reg, 0, 0, 0));
	}
	if (asm_word(c, "call"))
		return parse_call(c);
	if (asm_word(c, "if"))
		return parse_if(c);
	if (asm_word(c, "lock"))
		return parse_lock_kernel(c);
	if (asm_word(c, "store_release"))
		return parse_store_release(c);
	if (asm_lit(c, "*")) {
		if ((err = asm_need(c, "(", "after '*'")))
			return err;
		return parse_store(c);
	}
	r = asm_try_reg(c, &reg, &w32);
	if (r < 0)
		return r;
	if (r > 0)
		return parse_reg_stmt(c, reg, w32, opcol);
	skip_ws(c);
	if (is_ident_start((unsigned char)*c->p)) {
		char buf[40];

		return asm_err(c, "unknown instruction %s", asm_found(c, buf, sizeof(buf)));
	}
	return asm_expected(c, "an instruction", "");
}
