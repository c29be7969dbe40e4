/* Instruction validation, successors and register use: see isa.h.  The rules follow the
 * kernel's decoding (kernel/bpf/verifier.c: check_subprogs, resolve_pseudo_ldimm64 and the
 * reserved-field checks of do_check), not its safety policy: a shift by 60 or a division by an
 * immediate zero is a valid encoding with defined semantics, so it is accepted here.
 */
#include "bpf/isa.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define BAD(...) diag_set(d, EINVAL, __VA_ARGS__)

/* (a write to r10 is a valid encoding: the verifier refuses it where its walk reaches it,
 * check_reg_arg, as the verdict does, and a run that reaches one traps) */
static int check_reg(const char *what, unsigned r, struct diag *d)
{
	if (r > 10)
		return BAD("invalid %s register r%u", what, r);
	return 0;
}

static int validate_alu(const struct bpf_insn *i, struct diag *d)
{
	bool is64 = ebpf_class(i) == BPF_ALU64;
	bool x = ebpf_srcbit(i) == BPF_X;
	uint8_t op = ebpf_op(i);
	int err;

	if ((err = check_reg("destination", i->dst_reg, d)))
		return err;
	switch (op) {
	case BPF_NEG:
		if (x || i->src_reg || i->imm || i->off)
			return BAD("neg uses reserved fields (src, imm and off must be 0)");
		return 0;
	case BPF_END:
		if (i->src_reg || i->off)
			return BAD("byte swap uses reserved fields (src and off must be 0)");
		if (is64 && x)
			return BAD("bswap must use BPF_TO_LE (0) in the source bit");
		if (i->imm != 16 && i->imm != 32 && i->imm != 64)
			return BAD("byte swap width must be 16, 32 or 64, not %d", i->imm);
		return 0;
	case BPF_ADD: case BPF_SUB: case BPF_MUL: case BPF_OR: case BPF_AND:
	case BPF_LSH: case BPF_RSH: case BPF_XOR: case BPF_ARSH:
		if (i->off)
			return BAD("offset must be 0 for this ALU operation, not %d", i->off);
		break;
	case BPF_DIV: case BPF_MOD:
		if (i->off != 0 && i->off != 1)
			return BAD("offset of div/mod must be 0 (unsigned) or 1 (signed), not %d", i->off);
		break;
	case BPF_MOV:
		if (i->off != 0) {
			if (!x)
				return BAD("sign-extending mov needs a register source");
			if (i->off != 8 && i->off != 16 && !(is64 && i->off == 32))
				return BAD("sign-extending mov from %d bits is not defined%s", i->off,
					   is64 ? "" : " for 32-bit mov");
		}
		break;
	default:
		return BAD("unknown ALU operation 0x%02x", op);
	}
	if (x) {
		if (i->imm)
			return BAD("register-source ALU instruction has non-zero imm %d", i->imm);
		return check_reg("source", i->src_reg, d);
	}
	if (i->src_reg)
		return BAD("immediate-source ALU instruction has non-zero src register r%u", i->src_reg);
	return 0;
}

static int validate_jmp(const struct bpf_insn *i, struct diag *d)
{
	bool j32 = ebpf_class(i) == BPF_JMP32;
	bool x = ebpf_srcbit(i) == BPF_X;
	uint8_t op = ebpf_op(i);
	int err;

	switch (op) {
	case BPF_JA:
		if (x || i->src_reg || i->dst_reg)
			return BAD("ja uses reserved fields (registers must be 0)");
		if (j32 ? i->off != 0 : i->imm != 0)
			return BAD(j32 ? "gotol must have off 0 (target is in imm)"
				       : "ja must have imm 0 (target is in off)");
		return 0;
	case BPF_EXIT:
		if (j32)
			return BAD("exit is not defined in the JMP32 class");
		if (x || i->src_reg || i->dst_reg || i->off || i->imm)
			return BAD("exit uses reserved fields (all must be 0)");
		return 0;
	case BPF_CALL:
		if (j32)
			return BAD("call is not defined in the JMP32 class");
		if (x) {	/* callx: target register in dst_reg (LLVM's encoding) */
			if (i->src_reg || i->off || i->imm)
				return BAD("callx uses reserved fields (src, off, imm must be 0)");
			return check_reg("call target", i->dst_reg, d);
		}
		if (i->dst_reg)
			return BAD("call has non-zero dst register r%u", i->dst_reg);
		if (i->src_reg == 0 || i->src_reg == BPF_PSEUDO_CALL) {
			if (i->off)
				return BAD("call has non-zero offset %d", i->off);
			if (i->src_reg == 0 && i->imm < 0)
				return BAD("helper id %d is negative", i->imm);
			return 0;
		}
		if (i->src_reg == BPF_PSEUDO_KFUNC_CALL)
			return 0;
		return BAD("unknown call kind (src %u)", i->src_reg);
	case BPF_JCOND:
		if (j32 || x || i->src_reg != BPF_MAY_GOTO || i->dst_reg || i->imm)
			return BAD("malformed may_goto (only JMP|JCOND|K with zero registers and imm)");
		return 0;
	case BPF_JEQ: case BPF_JGT: case BPF_JGE: case BPF_JSET: case BPF_JNE:
	case BPF_JSGT: case BPF_JSGE: case BPF_JLT: case BPF_JLE: case BPF_JSLT: case BPF_JSLE:
		if ((err = check_reg("compared", i->dst_reg, d)))
			return err;
		if (x) {
			if (i->imm)
				return BAD("register-source jump has non-zero imm %d", i->imm);
			return check_reg("source", i->src_reg, d);
		}
		if (i->src_reg)
			return BAD("immediate-source jump has non-zero src register r%u", i->src_reg);
		return 0;
	default:
		return BAD("unknown jump operation 0x%02x", op);
	}
}

static int validate_mem(const struct bpf_insn *i, struct diag *d)
{
	uint8_t mode = ebpf_mode(i), size = ebpf_size(i);
	int err;

	switch (ebpf_class(i)) {
	case BPF_LD:
		if (mode == BPF_ABS || mode == BPF_IND) {
			if (size == BPF_DW)
				return BAD("legacy packet load has no 8-byte form");
			if (i->dst_reg || i->off || (mode == BPF_ABS && i->src_reg))
				return BAD("legacy packet load uses reserved fields");
			return mode == BPF_IND ? check_reg("index", i->src_reg, d) : 0;
		}
		return BAD("unknown LD instruction (mode 0x%02x size 0x%02x)", mode, size);
	case BPF_LDX:
		if (mode != BPF_MEM && !(mode == BPF_MEMSX && size != BPF_DW))
			return BAD("unknown LDX mode 0x%02x%s", mode,
				   mode == BPF_MEMSX ? " (no sign-extending 8-byte load)" : "");
		if (i->imm)
			return BAD("load has non-zero imm %d", i->imm);
		if ((err = check_reg("destination", i->dst_reg, d)))
			return err;
		return check_reg("address", i->src_reg, d);
	case BPF_ST:
		if (mode != BPF_MEM)
			return BAD("unknown ST mode 0x%02x", mode);
		if (i->src_reg)
			return BAD("immediate store has non-zero src register r%u", i->src_reg);
		return check_reg("address", i->dst_reg, d);
	default: /* BPF_STX */
		if (mode == BPF_MEM) {
			if (i->imm)
				return BAD("register store has non-zero imm %d", i->imm);
		} else if (mode == BPF_ATOMIC) {
			switch (i->imm) {
			case BPF_ADD: case BPF_OR: case BPF_AND: case BPF_XOR:
			case BPF_ADD | BPF_FETCH: case BPF_OR | BPF_FETCH:
			case BPF_AND | BPF_FETCH: case BPF_XOR | BPF_FETCH:
			case BPF_XCHG: case BPF_CMPXCHG:
				if (size != BPF_W && size != BPF_DW)
					return BAD("atomic read-modify-write must be 4 or 8 bytes");
				break;
			case BPF_LOAD_ACQ:
				if ((err = check_reg("destination", i->dst_reg, d)))
					return err;
				return check_reg("address", i->src_reg, d);
			case BPF_STORE_REL:
				break;
			default:
				return BAD("unknown atomic operation 0x%x", (unsigned)i->imm);
			}
		} else {
			return BAD("unknown STX mode 0x%02x", mode);
		}
		if ((err = check_reg("address", i->dst_reg, d)))
			return err;
		return check_reg("source", i->src_reg, d);
	}
}

int ebpf_validate_insn(const struct bpf_insn *i, size_t n, struct diag *d)
{
	if (ebpf_is_ldimm64(i)) {
		const struct bpf_insn *hi = i + 1;

		if (n < 2)
			return BAD("LD_IMM64 is missing its second slot");
		if (hi->code || hi->dst_reg || hi->src_reg || hi->off)
			return BAD("second slot of LD_IMM64 must be zero except imm");
		if (i->off)
			return BAD("LD_IMM64 has non-zero offset %d", i->off);
		if (i->src_reg > BPF_PSEUDO_MAP_IDX_VALUE)
			return BAD("unknown LD_IMM64 source %u", i->src_reg);
		if ((i->src_reg == BPF_PSEUDO_MAP_FD || i->src_reg == BPF_PSEUDO_MAP_IDX ||
		     i->src_reg == BPF_PSEUDO_FUNC) && hi->imm)
			return BAD("LD_IMM64 of a map or function has non-zero upper imm");
		return check_reg("destination", i->dst_reg, d);
	}
	switch (ebpf_class(i)) {
	case BPF_ALU: case BPF_ALU64:
		return validate_alu(i, d);
	case BPF_JMP: case BPF_JMP32:
		return validate_jmp(i, d);
	default:
		return validate_mem(i, d);
	}
}

/* A target is valid when it is inside the program, on the first slot of an instruction. */
static int check_target(const uint8_t *kind, size_t len, size_t pc, long t, const char *what,
			struct diag *d)
{
	if (t < 0 || (size_t)t >= len)
		return diag_at_insn(d, EINVAL, (long)pc, "%s target %ld is outside the program (0..%zu)",
				    what, t, len - 1);
	if (kind[t] == 2)
		return diag_at_insn(d, EINVAL, (long)pc,
				    "%s target %ld is the second slot of an LD_IMM64", what, t);
	return 0;
}

static int validate(const struct bpf_insn *insns, size_t len, bool structure, struct diag *d);

int ebpf_validate(const struct bpf_insn *insns, size_t len, struct diag *d)
{
	return validate(insns, len, true, d);
}

int ebpf_validate_encoding(const struct bpf_insn *insns, size_t len, struct diag *d)
{
	return validate(insns, len, false, d);
}

static int validate(const struct bpf_insn *insns, size_t len, bool structure, struct diag *d)
{
	uint8_t *kind;		/* per slot: 1 first slot of an insn, 2 second slot, 3 function start */
	uint8_t few[256];	/* (a short program's, without an allocation) */
	size_t pc;
	int err = 0;

	if (len == 0)
		return diag_set(d, EINVAL, "empty program");
	if (len > EBPF_MAX_INSNS)
		return diag_set(d, E2BIG, "program has %zu slots, more than %u", len, EBPF_MAX_INSNS);
	kind = len <= sizeof(few) ? memset(few, 0, len) : calloc(len, 1);
	if (!kind)
		return diag_set(d, ENOMEM, "out of memory");
	for (pc = 0; pc < len; pc++) {
		err = ebpf_validate_insn(&insns[pc], len - pc, d);
		if (err) {
			if (d)
				d->insn = (long)pc;
			goto out;
		}
		kind[pc] = 1;
		if (ebpf_is_ldimm64(&insns[pc]))
			kind[++pc] = 2;
	}
	/* Targets of jumps, calls and function pointers; mark function starts. */
	kind[0] = 3;
	for (pc = 0; pc < len; pc += ebpf_insn_slots(&insns[pc])) {
		const struct bpf_insn *i = &insns[pc];

		if (ebpf_is_pseudo_call(i) ||
		    (ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC)) {
			long t = (long)pc + 1 + i->imm;

			if ((err = check_target(kind, len, pc, t, "call", d)))
				goto out;
			kind[t] = 3;
		}
	}
	/* Jumps stay inside their function; every function ends with exit or ja. */
	for (pc = 0; pc < len; pc += ebpf_insn_slots(&insns[pc])) {
		const struct bpf_insn *i = &insns[pc];
		size_t next = pc + ebpf_insn_slots(i);

		if (ebpf_is_ja(i) || ebpf_is_cond_jmp(i)) {
			long t = ebpf_jump_target(i, pc);
			size_t lo = pc, hi = next;

			if ((err = check_target(kind, len, pc, t, "jump", d)))
				goto out;
			if (!structure)
				continue;
			/* No function start strictly between pc and t (or at t > pc). */
			if ((size_t)t > pc) {
				lo = pc + 1;
				hi = (size_t)t + 1;
			} else {
				lo = (size_t)t + 1;
				hi = pc + 1;
			}
			for (size_t k = lo; k < hi; k++)
				if (kind[k] == 3) {
					err = diag_at_insn(d, EINVAL, (long)pc,
							   "jump to %ld crosses into the function at %zu",
							   t, k);
					goto out;
				}
		}
		if (structure && (next == len || (next < len && kind[next] == 3))) {
			if (!ebpf_is_exit(i) && !ebpf_is_ja(i)) {
				err = diag_at_insn(d, EINVAL, (long)pc,
						   next == len ? "last instruction falls off the end of the program"
							       : "instruction falls through into the function at %zu",
						   next);
				goto out;
			}
		}
	}
out:
	if (kind != few)
		free(kind);
	return err;
}

unsigned ebpf_succs(const struct bpf_insn *insns, size_t len, size_t pc, uint32_t succ[2])
{
	const struct bpf_insn *i = &insns[pc];
	unsigned n = 0;

	if (ebpf_is_exit(i))
		return 0;
	if (ebpf_is_ja(i)) {
		succ[0] = (uint32_t)ebpf_jump_target(i, pc);
		return 1;
	}
	if (pc + ebpf_insn_slots(i) < len)
		succ[n++] = (uint32_t)(pc + ebpf_insn_slots(i));
	if (ebpf_is_cond_jmp(i)) {
		uint32_t t = (uint32_t)ebpf_jump_target(i, pc);

		if (n == 0 || succ[0] != t)
			succ[n++] = t;
	}
	return n;
}

uint32_t ebpf_regs_read(const struct bpf_insn *i)
{
	uint32_t m = 0;
	uint8_t cls = ebpf_class(i), op = ebpf_op(i);

	switch (cls) {
	case BPF_ALU: case BPF_ALU64:
		if (op != BPF_MOV)
			m |= 1u << i->dst_reg;
		if (ebpf_srcbit(i) == BPF_X && op != BPF_END && op != BPF_NEG)
			m |= 1u << i->src_reg;
		return m;
	case BPF_JMP: case BPF_JMP32:
		if (op == BPF_CALL) {
			if (ebpf_srcbit(i) == BPF_X)
				return (1u << i->dst_reg) | 0x3e;
			return 0x3e;	/* r1..r5 */
		}
		if (op == BPF_EXIT)
			return 1u;
		if (op == BPF_JA || op == BPF_JCOND)
			return 0;
		m |= 1u << i->dst_reg;
		if (ebpf_srcbit(i) == BPF_X)
			m |= 1u << i->src_reg;
		return m;
	case BPF_LD:
		if (ebpf_is_ldimm64(i))
			return 0;
		m = 1u << 6;	/* legacy packet loads read the skb from r6 */
		if (ebpf_mode(i) == BPF_IND)
			m |= 1u << i->src_reg;
		return m;
	case BPF_LDX:
		return 1u << i->src_reg;
	case BPF_ST:
		return 1u << i->dst_reg;
	default:
		if (ebpf_mode(i) == BPF_ATOMIC && i->imm == BPF_LOAD_ACQ)
			return 1u << i->src_reg;
		m = (1u << i->dst_reg) | (1u << i->src_reg);
		if (ebpf_mode(i) == BPF_ATOMIC && i->imm == BPF_CMPXCHG)
			m |= 1u;
		return m;
	}
}

uint32_t ebpf_regs_written(const struct bpf_insn *i)
{
	uint8_t cls = ebpf_class(i), op = ebpf_op(i);

	switch (cls) {
	case BPF_ALU: case BPF_ALU64:
	case BPF_LDX:
		return 1u << i->dst_reg;
	case BPF_JMP: case BPF_JMP32:
		if (op == BPF_CALL)
			return 0x3f;	/* r0 result, r1..r5 clobbered */
		return 0;
	case BPF_LD:
		if (ebpf_is_ldimm64(i))
			return 1u << i->dst_reg;
		return 0x3f;		/* legacy packet loads clobber r0..r5 */
	case BPF_ST:
		return 0;
	default:
		if (ebpf_mode(i) != BPF_ATOMIC)
			return 0;
		if (i->imm == BPF_LOAD_ACQ)
			return 1u << i->dst_reg;
		if (i->imm == BPF_CMPXCHG)
			return 1u;
		if (i->imm & BPF_FETCH)
			return 1u << i->src_reg;
		return 0;
	}
}

int ebpf_insns_copy_map(struct bpf_insn *out, const struct bpf_insn *insns, size_t len,
			const size_t *at, const size_t *to)
{
	if (!to)
		to = at;
	memset(out, 0, at[len] * sizeof(*out));
	for (size_t pc = 0; pc < len; pc += ebpf_insn_slots(&insns[pc])) {
		unsigned s = pc + 1 < len ? ebpf_insn_slots(&insns[pc]) : 1;
		long t;

		if (at[pc] == SIZE_MAX)
			continue;
		memcpy(&out[at[pc]], &insns[pc], s * sizeof(*out));
		if (!ebpf_insn_has_target(&insns[pc]))
			continue;
		t = ebpf_insn_target(&insns[pc], pc);
		if (t < 0 || (size_t)t > len || to[t] == SIZE_MAX)
			return -EINVAL;
		if (!ebpf_insn_set_target(&out[at[pc]], at[pc], to[t]))
			return -E2BIG;
	}
	return 0;
}

int ebpf_insns_insert(struct bpf_insn *out, size_t *newpc, const struct bpf_insn *insns,
		      size_t len, const uint32_t *extra)
{
	size_t n = 0;

	for (size_t pc = 0; pc < len; pc++) {
		newpc[pc] = n;
		n += 1 + extra[pc];
	}
	newpc[len] = n;
	return ebpf_insns_copy_map(out, insns, len, newpc, NULL);
}
