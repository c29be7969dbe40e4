/* The disassembler: instructions printed in the kernel verifier log's syntax (kernel/bpf/disasm.c),
 * so that our output diffs against the kernel's and reads like every BPF developer's logs.
 *
 * Printed as the kernel prints them: ALU and store immediates in decimal ("r1 += -1",
 * "*(u32 *)(r10 -4) = 7"), jump immediates as unsigned hex ("if r1 > 0xffffffff goto pc+2"),
 * offsets with a sign ("(r1 +4)", "goto pc-3").  Where the kernel's text cannot be assembled
 * back exactly, the spelling documented in asm.c is used instead: LD_IMM64 ends in " ll" and its
 * pseudo sources read "map[fd:3]", "map[idx:0]+8", "btf_id 5", "func pc+4"; kfunc calls read
 * "call kernel-function#ID" (with " off:N" for a module BTF index); callx reads "callx r2".
 * Anything ebpf_validate_insn() rejects is printed as ".bytes" with its 8 raw bytes, so the
 * assembler reproduces every input byte for byte: asm(disasm(x)) == x.
 */
#include "bpf/asm.h"

#include <stdlib.h>
#include <string.h>

static const char *const alu_sym[16] = {
	[BPF_ADD >> 4] = "+=", [BPF_SUB >> 4] = "-=", [BPF_MUL >> 4] = "*=", [BPF_DIV >> 4] = "/=",
	[BPF_OR >> 4] = "|=", [BPF_AND >> 4] = "&=", [BPF_LSH >> 4] = "<<=", [BPF_RSH >> 4] = ">>=",
	[BPF_MOD >> 4] = "%=", [BPF_XOR >> 4] = "^=", [BPF_MOV >> 4] = "=", [BPF_ARSH >> 4] = "s>>=",
};

static const char *const jmp_sym[16] = {
	[BPF_JEQ >> 4] = "==", [BPF_JGT >> 4] = ">", [BPF_JGE >> 4] = ">=", [BPF_JSET >> 4] = "&",
	[BPF_JNE >> 4] = "!=", [BPF_JSGT >> 4] = "s>", [BPF_JSGE >> 4] = "s>=", [BPF_JLT >> 4] = "<",
	[BPF_JLE >> 4] = "<=", [BPF_JSLT >> 4] = "s<", [BPF_JSLE >> 4] = "s<=",
};

static const char *size_name(uint8_t size, bool sx)
{
	switch (size) {
	case BPF_B: return sx ? "s8" : "u8";
	case BPF_H: return sx ? "s16" : "u16";
	case BPF_W: return sx ? "s32" : "u32";
	default: return "u64";
	}
}

/* Slots ebpf_disasm steps over at pc: 2 for a well-formed LD_IMM64, else 1 (an ill-formed one
 * is printed slot by slot as .bytes). */
static unsigned disasm_slots(const struct bpf_insn *insns, size_t len, size_t pc)
{
	if (ebpf_is_ldimm64(&insns[pc]) && !ebpf_validate_insn(&insns[pc], len - pc, NULL))
		return 2;
	return 1;
}

/* Per slot: 1 where an instruction starts as ebpf_disasm walks the program, 0 otherwise. */
static uint8_t *start_map(const struct bpf_insn *insns, size_t len)
{
	uint8_t *m = calloc(len + 1, 1);

	if (!m)
		return NULL;
	for (size_t pc = 0; pc < len; pc += disasm_slots(insns, len, pc))
		m[pc] = 1;
	m[len] = 1;	/* a label may follow the last instruction */
	return m;
}

/* A target gets a label when a label line can stand before it. */
static bool labelable(const uint8_t *starts, size_t len, long t)
{
	return starts && t >= 0 && (size_t)t <= len && starts[t];
}

static void put_target(struct sbuf *sb, const uint8_t *starts, size_t len, size_t pc, int64_t rel)
{
	long t = (long)pc + 1 + (long)rel;

	if (labelable(starts, len, t))
		sbuf_printf(sb, "L%ld", t);
	else
		sbuf_printf(sb, "pc%+lld", (long long)rel);
}

static void put_raw(struct sbuf *sb, const struct bpf_insn *i)
{
	uint8_t b[8];

	memcpy(b, i, sizeof(b));
	sbuf_puts(sb, ".bytes");
	for (int k = 0; k < 8; k++)
		sbuf_printf(sb, " %02x", b[k]);
}

static void put_alu(struct sbuf *sb, const struct bpf_insn *i)
{
	char r = ebpf_class(i) == BPF_ALU ? 'w' : 'r';
	uint8_t op = ebpf_op(i);
	const char *sym = alu_sym[op >> 4];

	if (op == BPF_END) {
		if (ebpf_class(i) == BPF_ALU64)
			sbuf_printf(sb, "r%u = bswap%d r%u", i->dst_reg, i->imm, i->dst_reg);
		else
			sbuf_printf(sb, "r%u = %s%d r%u", i->dst_reg,
				    ebpf_srcbit(i) == BPF_TO_BE ? "be" : "le", i->imm, i->dst_reg);
		return;
	}
	if (op == BPF_NEG) {
		sbuf_printf(sb, "%c%u = -%c%u", r, i->dst_reg, r, i->dst_reg);
		return;
	}
	if ((op == BPF_DIV || op == BPF_MOD) && i->off == 1)
		sym = op == BPF_DIV ? "s/=" : "s%=";
	if (ebpf_srcbit(i) == BPF_X) {
		const char *cast = "";

		if (op == BPF_MOV && i->off)
			cast = i->off == 8 ? "(s8)" : i->off == 16 ? "(s16)" : "(s32)";
		sbuf_printf(sb, "%c%u %s %s%c%u", r, i->dst_reg, sym, cast, r, i->src_reg);
	} else {
		sbuf_printf(sb, "%c%u %s %d", r, i->dst_reg, sym, i->imm);
	}
}

static void put_atomic(struct sbuf *sb, const struct bpf_insn *i)
{
	const char *sz = size_name(ebpf_size(i), false);
	const char *w64 = ebpf_size(i) == BPF_DW ? "64" : "";
	int32_t imm = i->imm;

	switch (imm) {
	case BPF_ADD: case BPF_OR: case BPF_AND: case BPF_XOR:
		sbuf_printf(sb, "lock *(%s *)(r%u %+d) %s r%u", sz, i->dst_reg, i->off,
			    alu_sym[imm >> 4], i->src_reg);
		return;
	case BPF_ADD | BPF_FETCH: case BPF_OR | BPF_FETCH:
	case BPF_AND | BPF_FETCH: case BPF_XOR | BPF_FETCH: {
		const char *name = (imm & ~BPF_FETCH) == BPF_ADD ? "add" :
				   (imm & ~BPF_FETCH) == BPF_OR ? "or" :
				   (imm & ~BPF_FETCH) == BPF_AND ? "and" : "xor";

		sbuf_printf(sb, "r%u = atomic%s_fetch_%s((%s *)(r%u %+d), r%u)", i->src_reg, w64, name,
			    sz, i->dst_reg, i->off, i->src_reg);
		return;
	}
	case BPF_XCHG:
		sbuf_printf(sb, "r%u = atomic%s_xchg((%s *)(r%u %+d), r%u)", i->src_reg, w64, sz,
			    i->dst_reg, i->off, i->src_reg);
		return;
	case BPF_CMPXCHG:
		sbuf_printf(sb, "r0 = atomic%s_cmpxchg((%s *)(r%u %+d), r0, r%u)", w64, sz, i->dst_reg,
			    i->off, i->src_reg);
		return;
	case BPF_LOAD_ACQ:
		sbuf_printf(sb, "r%u = load_acquire((%s *)(r%u %+d))", i->dst_reg, sz, i->src_reg,
			    i->off);
		return;
	default:	/* BPF_STORE_REL */
		sbuf_printf(sb, "store_release((%s *)(r%u %+d), r%u)", sz, i->dst_reg, i->off,
			    i->src_reg);
		return;
	}
}

static void put_ldimm64(struct sbuf *sb, const struct bpf_insn *i, const uint8_t *starts,
			size_t len, size_t pc)
{
	uint32_t hi = (uint32_t)i[1].imm;

	sbuf_printf(sb, "r%u = ", i->dst_reg);
	switch (i->src_reg) {
	case BPF_PSEUDO_MAP_FD:
		sbuf_printf(sb, "map[fd:%d]", i->imm);
		break;
	case BPF_PSEUDO_MAP_VALUE:
		sbuf_printf(sb, "map[fd:%d]+%u", i->imm, hi);
		break;
	case BPF_PSEUDO_MAP_IDX:
		sbuf_printf(sb, "map[idx:%d]", i->imm);
		break;
	case BPF_PSEUDO_MAP_IDX_VALUE:
		sbuf_printf(sb, "map[idx:%d]+%u", i->imm, hi);
		break;
	case BPF_PSEUDO_BTF_ID:
		sbuf_printf(sb, "btf_id %d", i->imm);
		if (hi)
			sbuf_printf(sb, " btf_fd:%d", i[1].imm);
		break;
	case BPF_PSEUDO_FUNC:
		sbuf_puts(sb, "func ");
		put_target(sb, starts, len, pc, i->imm);
		break;
	default:
		sbuf_printf(sb, "0x%llx", (unsigned long long)ebpf_ldimm64_value(i));
		break;
	}
	sbuf_puts(sb, " ll");
}

static void put_jmp(struct sbuf *sb, const struct bpf_insn *i, const uint8_t *starts, size_t len,
		    size_t pc)
{
	char r = ebpf_class(i) == BPF_JMP32 ? 'w' : 'r';
	uint8_t op = ebpf_op(i);

	switch (op) {
	case BPF_EXIT:
		sbuf_puts(sb, "exit");
		return;
	case BPF_JA:
		if (ebpf_class(i) == BPF_JMP32) {
			sbuf_puts(sb, "gotol ");
			put_target(sb, starts, len, pc, i->imm);
		} else {
			sbuf_puts(sb, "goto ");
			put_target(sb, starts, len, pc, i->off);
		}
		return;
	case BPF_JCOND:
		sbuf_puts(sb, "may_goto ");
		put_target(sb, starts, len, pc, i->off);
		return;
	case BPF_CALL:
		if (ebpf_srcbit(i) == BPF_X) {
			sbuf_printf(sb, "callx r%u", i->dst_reg);
		} else if (i->src_reg == BPF_PSEUDO_CALL) {
			sbuf_puts(sb, "call ");
			put_target(sb, starts, len, pc, i->imm);
		} else if (i->src_reg == BPF_PSEUDO_KFUNC_CALL) {
			sbuf_printf(sb, "call kernel-function#%d", i->imm);
			if (i->off)
				sbuf_printf(sb, " off:%d", i->off);
		} else {
			const char *name = ebpf_helper_name(i->imm);

			sbuf_printf(sb, "call %s#%d", name ? name : "unknown", i->imm);
		}
		return;
	default:
		if (ebpf_srcbit(i) == BPF_X)
			sbuf_printf(sb, "if %c%u %s %c%u goto ", r, i->dst_reg, jmp_sym[op >> 4], r,
				    i->src_reg);
		else
			sbuf_printf(sb, "if %c%u %s 0x%x goto ", r, i->dst_reg, jmp_sym[op >> 4],
				    (uint32_t)i->imm);
		put_target(sb, starts, len, pc, i->off);
		return;
	}
}

/* Prints the instruction at pc (no prefix, no newline); starts enables labels. */
static void put_insn(struct sbuf *sb, const struct bpf_insn *insns, size_t len, size_t pc,
		     const uint8_t *starts)
{
	const struct bpf_insn *i = &insns[pc];

	if (ebpf_validate_insn(i, len - pc, NULL)) {
		put_raw(sb, i);
		return;
	}
	switch (ebpf_class(i)) {
	case BPF_ALU: case BPF_ALU64:
		put_alu(sb, i);
		return;
	case BPF_JMP: case BPF_JMP32:
		put_jmp(sb, i, starts, len, pc);
		return;
	case BPF_LD:
		if (ebpf_is_ldimm64(i))
			put_ldimm64(sb, i, starts, len, pc);
		else if (ebpf_mode(i) == BPF_ABS)
			sbuf_printf(sb, "r0 = *(%s *)skb[%d]", size_name(ebpf_size(i), false), i->imm);
		else
			sbuf_printf(sb, "r0 = *(%s *)skb[r%u + %d]", size_name(ebpf_size(i), false),
				    i->src_reg, i->imm);
		return;
	case BPF_LDX:
		sbuf_printf(sb, "r%u = *(%s *)(r%u %+d)", i->dst_reg,
			    size_name(ebpf_size(i), ebpf_mode(i) == BPF_MEMSX), i->src_reg, i->off);
		return;
	case BPF_ST:
		sbuf_printf(sb, "*(%s *)(r%u %+d) = %d", size_name(ebpf_size(i), false), i->dst_reg,
			    i->off, i->imm);
		return;
	default:
		if (ebpf_mode(i) == BPF_ATOMIC)
			put_atomic(sb, i);
		else
			sbuf_printf(sb, "*(%s *)(r%u %+d) = r%u", size_name(ebpf_size(i), false),
				    i->dst_reg, i->off, i->src_reg);
		return;
	}
}

static void put_line(struct sbuf *sb, const struct bpf_insn *insns, size_t len, size_t pc,
		     unsigned flags, const uint8_t *starts)
{
	if (flags & EBPF_DISASM_PC)
		sbuf_printf(sb, "%zu: ", pc);
	if (flags & EBPF_DISASM_OPCODE)
		sbuf_printf(sb, "(%02x) ", insns[pc].code);
	put_insn(sb, insns, len, pc, starts);
}

void ebpf_disasm_insn(struct sbuf *sb, const struct bpf_insn *insns, size_t len, size_t pc,
		      unsigned flags)
{
	uint8_t *starts = NULL;

	if (pc >= len)
		return;
	if (flags & EBPF_DISASM_LABELS) {
		starts = start_map(insns, len);
		if (!starts) {
			sb->oom = true;
			return;
		}
	}
	put_line(sb, insns, len, pc, flags, starts);
	free(starts);
}

/* Where a label line goes: targets of jumps, bpf-to-bpf calls and function pointers. */
static int64_t target_of(const struct bpf_insn *insns, size_t len, size_t pc, bool *has)
{
	const struct bpf_insn *i = &insns[pc];

	*has = false;
	if (ebpf_validate_insn(i, len - pc, NULL))
		return 0;
	if (ebpf_is_ja(i) || ebpf_is_cond_jmp(i)) {
		*has = true;
		return ebpf_jump_target(i, pc);
	}
	if (ebpf_is_pseudo_call(i) || (ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC)) {
		*has = true;
		return (int64_t)pc + 1 + i->imm;
	}
	return 0;
}

void ebpf_disasm(struct sbuf *sb, const struct bpf_insn *insns, size_t len, unsigned flags)
{
	ebpf_disasm_globals(sb, insns, len, NULL, 0, flags);
}

void ebpf_disasm_globals(struct sbuf *sb, const struct bpf_insn *insns, size_t len,
			 const struct ebpf_global_func *globals, size_t nglobals, unsigned flags)
{
	uint8_t *starts = NULL, *marks = NULL;

	if (flags & EBPF_DISASM_LABELS) {
		starts = start_map(insns, len);
		marks = calloc(len + 1, 1);
		if (!starts || !marks) {
			sb->oom = true;
			goto out;
		}
		for (size_t pc = 0; pc < len; pc += disasm_slots(insns, len, pc)) {
			bool has;
			int64_t t = target_of(insns, len, pc, &has);

			if (has && labelable(starts, len, (long)t))
				marks[t] = 1;
		}
	}
	for (size_t pc = 0; pc < len; pc += disasm_slots(insns, len, pc)) {
		if (marks && marks[pc])
			sbuf_printf(sb, "L%zu:\n", pc);
		for (size_t k = 0; k < nglobals; k++)
			if (globals[k].insn == pc) {	/* (the next slot's prototype) */
				ebpf_global_func_print(sb, &globals[k]);
				sbuf_putc(sb, '\n');
			}
		put_line(sb, insns, len, pc, flags, starts);
		sbuf_putc(sb, '\n');
	}
	if (marks && marks[len])
		sbuf_printf(sb, "L%zu:\n", len);
out:
	free(starts);
	free(marks);
}

/* The "-- maps" word of a map type (casefile/casefile.c reads them back); every other type
 * that has a key and a value is written as a hash. */
const char *ebpf_map_kind_word(uint32_t type)
{
	switch (type) {
	case BPF_MAP_TYPE_ARRAY: return "array";
	case BPF_MAP_TYPE_RINGBUF: return "ringbuf";
	case BPF_MAP_TYPE_USER_RINGBUF: return "user_ringbuf";
	case BPF_MAP_TYPE_QUEUE: return "queue";
	case BPF_MAP_TYPE_STACK: return "stack";
	case BPF_MAP_TYPE_PERCPU_ARRAY: return "percpu_array";
	case BPF_MAP_TYPE_PERCPU_HASH: return "percpu_hash";
	case BPF_MAP_TYPE_LRU_HASH: return "lru_hash";
	case BPF_MAP_TYPE_LRU_PERCPU_HASH: return "lru_percpu_hash";
	case BPF_MAP_TYPE_SOCKMAP: return "sockmap";
	case BPF_MAP_TYPE_SOCKHASH: return "sockhash";
	case BPF_MAP_TYPE_REUSEPORT_SOCKARRAY: return "reuseport_sockarray";
	case BPF_MAP_TYPE_CGROUP_STORAGE: return "cgroup_storage";
	case BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE: return "percpu_cgroup_storage";
	case BPF_MAP_TYPE_SK_STORAGE: return "sk_storage";
	default: return "hash";
	}
}

void ebpf_maps_section(struct sbuf *sb, const struct ebpf_map_def *maps, size_t n)
{
	if (n)
		sbuf_puts(sb, "-- maps\n");
	for (size_t m = 0; m < n; m++) {
		bool named = maps[m].name[0] && !strpbrk(maps[m].name, " \t#");
		const char *name = named ? maps[m].name : "";

		if (maps[m].type == BPF_MAP_TYPE_RINGBUF ||
		    maps[m].type == BPF_MAP_TYPE_USER_RINGBUF) {
			sbuf_printf(sb, "%s entries=%u%s%s\n", ebpf_map_kind_word(maps[m].type),
				    maps[m].max_entries, named ? " name=" : "", name);
			continue;
		}
		if (maps[m].type == BPF_MAP_TYPE_QUEUE || maps[m].type == BPF_MAP_TYPE_STACK) {
			sbuf_printf(sb, "%s value=%u entries=%u%s%s\n", ebpf_map_kind_word(maps[m].type),
				    maps[m].value_size, maps[m].max_entries, named ? " name=" : "",
				    name);
			continue;
		}
		sbuf_printf(sb, "%s key=%u value=%u entries=%u%s%s", ebpf_map_kind_word(maps[m].type),
			    maps[m].key_size, maps[m].value_size, maps[m].max_entries,
			    named ? " name=" : "", name);
		if (maps[m].timer)
			sbuf_printf(sb, " timer=%u", maps[m].timer - 1);
		ebpf_map_fields_print(sb, &maps[m]);
		ebpf_map_init_print(sb, &maps[m]);
		sbuf_putc(sb, '\n');
	}
}
