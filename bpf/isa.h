/* The eBPF instruction set as the kernel runs it: RFC 9669 plus the kernel's cpu v4 additions
 * (sdiv/smod, movsx, sign-extending loads, bswap, gotol), load-acquire/store-release, may_goto.
 *
 * Programs are arrays of the kernel's own struct bpf_insn (8-byte slots; LD_IMM64 takes two).
 * ebpf_validate() is the gate every other stage relies on: after it returns 0, every opcode is
 * known, every register is r0..r10, every jump lands on the first slot of an instruction inside
 * its own function, and every function ends in exit or an unconditional jump.  Nothing
 * downstream re-checks these facts.  A write to r10 (ebpf_writes_fp) is valid here: the kernel
 * refuses it only where its walk reaches it (check_reg_arg), so the verdict refuses it where a
 * run may reach it and a run that does traps (the interpreter, the Z3 machine).
 */
#ifndef BPFSCEV_BPF_ISA_H
#define BPFSCEV_BPF_ISA_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* cpu v4 and later encodings that older uapi headers (Debian 12 ships 6.1) lack. */
#ifndef BPF_MEMSX
#define BPF_MEMSX 0x80
#endif
#ifndef BPF_JCOND
#define BPF_JCOND 0xe0
#endif
#ifndef BPF_MAY_GOTO
#define BPF_MAY_GOTO 0
#endif
#ifndef BPF_LOAD_ACQ
#define BPF_LOAD_ACQ 0x100
#endif
#ifndef BPF_STORE_REL
#define BPF_STORE_REL 0x110
#endif
#ifndef BPF_F_TEST_REG_INVARIANTS
#define BPF_F_TEST_REG_INVARIANTS (1U << 7)
#endif

#define EBPF_NREGS 11		/* r0..r10 */
#define EBPF_REG_FP 10
#define EBPF_STACK_SIZE 512	/* bytes per frame */
#define EBPF_MAX_CALL_DEPTH 8
#define EBPF_MAX_INSNS (1u << 20)	/* slots; larger programs are refused up front */

static inline uint8_t ebpf_class(const struct bpf_insn *i) { return BPF_CLASS(i->code); }
static inline uint8_t ebpf_op(const struct bpf_insn *i) { return BPF_OP(i->code); }
static inline uint8_t ebpf_srcbit(const struct bpf_insn *i) { return BPF_SRC(i->code); }
static inline uint8_t ebpf_mode(const struct bpf_insn *i) { return BPF_MODE(i->code); }
static inline uint8_t ebpf_size(const struct bpf_insn *i) { return BPF_SIZE(i->code); }

static inline bool ebpf_is_alu(const struct bpf_insn *i)
{
	return ebpf_class(i) == BPF_ALU || ebpf_class(i) == BPF_ALU64;
}

static inline bool ebpf_is_jmp(const struct bpf_insn *i)
{
	return ebpf_class(i) == BPF_JMP || ebpf_class(i) == BPF_JMP32;
}

static inline bool ebpf_is_ldimm64(const struct bpf_insn *i)
{
	return i->code == (BPF_LD | BPF_IMM | BPF_DW);
}

/* A legacy packet load: LD_ABS or LD_IND (class LD, not an LD_IMM64). */
static inline bool ebpf_is_ld_pkt(const struct bpf_insn *i)
{
	return ebpf_class(i) == BPF_LD && !ebpf_is_ldimm64(i);
}

static inline bool ebpf_is_exit(const struct bpf_insn *i)
{
	return i->code == (BPF_JMP | BPF_EXIT);
}

static inline bool ebpf_is_call(const struct bpf_insn *i)
{
	return ebpf_class(i) == BPF_JMP && ebpf_op(i) == BPF_CALL;
}

static inline bool ebpf_is_pseudo_call(const struct bpf_insn *i)
{
	return i->code == (BPF_JMP | BPF_CALL | BPF_K) && i->src_reg == BPF_PSEUDO_CALL;
}

static inline bool ebpf_is_helper_call(const struct bpf_insn *i)
{
	return i->code == (BPF_JMP | BPF_CALL | BPF_K) && i->src_reg == 0;
}

/* Unconditional jump: ja (off) or gotol (JMP32 ja, imm). */
static inline bool ebpf_is_ja(const struct bpf_insn *i)
{
	return (ebpf_class(i) == BPF_JMP || ebpf_class(i) == BPF_JMP32) && ebpf_op(i) == BPF_JA &&
	       ebpf_srcbit(i) == BPF_K;
}

/* Conditional jumps, including may_goto; not ja, call or exit. */
static inline bool ebpf_is_cond_jmp(const struct bpf_insn *i)
{
	uint8_t op = ebpf_op(i);

	return ebpf_is_jmp(i) && op != BPF_JA && op != BPF_CALL && op != BPF_EXIT;
}

/* Number of slots the instruction at i occupies (2 for LD_IMM64). */
static inline unsigned ebpf_insn_slots(const struct bpf_insn *i)
{
	return ebpf_is_ldimm64(i) ? 2 : 1;
}

/* Jump target of a ja/gotol/conditional jump/may_goto at pc. */
static inline long ebpf_jump_target(const struct bpf_insn *i, size_t pc)
{
	if (ebpf_class(i) == BPF_JMP32 && ebpf_op(i) == BPF_JA)
		return (long)pc + 1 + i->imm;
	return (long)pc + 1 + i->off;
}

/* Instructions whose target is another instruction: jumps (may_goto included), bpf-to-bpf calls
 * and function addresses (LD_IMM64 of BPF_PSEUDO_FUNC). */
static inline bool ebpf_insn_has_target(const struct bpf_insn *i)
{
	return ebpf_is_ja(i) || ebpf_is_cond_jmp(i) || ebpf_is_pseudo_call(i) ||
	       (ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC);
}

/* The target of such an instruction at pc. */
static inline long ebpf_insn_target(const struct bpf_insn *i, size_t pc)
{
	if (ebpf_is_pseudo_call(i) || ebpf_is_ldimm64(i))
		return (long)pc + 1 + i->imm;
	return ebpf_jump_target(i, pc);
}

/* Points such an instruction at pc to t: false (nothing written) when the distance does not fit
 * its field (a jump's 16-bit offset). */
static inline bool ebpf_insn_set_target(struct bpf_insn *i, size_t pc, size_t t)
{
	long rel = (long)t - (long)pc - 1;

	if (ebpf_is_pseudo_call(i) || ebpf_is_ldimm64(i) ||
	    (ebpf_class(i) == BPF_JMP32 && ebpf_op(i) == BPF_JA)) {
		if (rel < INT32_MIN || rel > INT32_MAX)
			return false;
		i->imm = (int32_t)rel;
	} else {
		if (rel < INT16_MIN || rel > INT16_MAX)
			return false;
		i->off = (int16_t)rel;
	}
	return true;
}

/* Copies the len slots of insns into out as a pc map says, the one copy behind every insertion
 * (ebpf_insns_insert) and deletion (the reducer): the instruction whose first slot is pc goes to
 * at[pc] (an LD_IMM64's second slot after it), or is left out where at[pc] is SIZE_MAX (at is
 * read at first slots only); at[len] is the new length, and the slots nothing goes to are
 * zeroed.  Every jump, call and function address of a copied instruction that was aimed at slot
 * t (0..len) is aimed at to[t] (to NULL: at[t]).  0; -E2BIG when a distance no longer fits its
 * field; -EINVAL when a copied instruction's target is out of the program or goes nowhere
 * (SIZE_MAX). */
int ebpf_insns_copy_map(struct bpf_insn *out, const struct bpf_insn *insns, size_t len,
			const size_t *at, const size_t *to);

/* Copies len slots of insns into out with extra[pc] empty (zeroed) slots after the instruction
 * at pc (0 elsewhere; extra has len entries), for the caller to fill: newpc (len + 1 entries)
 * receives where each slot went, newpc[len] the new length.  Every jump, call and function
 * address keeps its target: a target t goes to newpc[t], so slots inserted after the
 * instruction before t run only when that instruction falls through (a call returns), never
 * when a jump lands on t.  0, or -E2BIG when a jump's distance no longer fits its offset
 * (ebpf_insns_copy_map with at = to = newpc; ebpf_prog_copy_map for a whole program). */
int ebpf_insns_insert(struct bpf_insn *out, size_t *newpc, const struct bpf_insn *insns,
		      size_t len, const uint32_t *extra);

/* Full 64-bit immediate of an LD_IMM64 (i must have a second slot). */
static inline uint64_t ebpf_ldimm64_value(const struct bpf_insn *i)
{
	return (uint64_t)(uint32_t)i[0].imm | ((uint64_t)(uint32_t)i[1].imm << 32);
}

/* Checks a whole program; see the file comment for what holds afterwards.  Returns 0, or
 * -EINVAL with d naming the instruction index and the reason. */
int ebpf_validate(const struct bpf_insn *insns, size_t len, struct diag *d);
/* The encoding part alone: every instruction well formed, every jump and call target an
 * instruction.  What it leaves out is the function structure (a jump into another function,
 * falling through into the next one): programs that break only that are programs the kernel
 * refuses, which a loader may keep for `verify` to call unsafe (ebpf_prog.defect). */
int ebpf_validate_encoding(const struct bpf_insn *insns, size_t len, struct diag *d);

/* Checks one instruction in isolation (fields and opcode, not jump targets).  n is the number of
 * slots available from i (an LD_IMM64 needs 2). */
int ebpf_validate_insn(const struct bpf_insn *i, size_t n, struct diag *d);

/* Control-flow successors of the instruction at pc, within its function: fallthrough first, then
 * the jump target.  Calls fall through; exit has none.  Returns the count (0..2).  Valid programs
 * only. */
unsigned ebpf_succs(const struct bpf_insn *insns, size_t len, size_t pc, uint32_t succ[2]);

/* Registers read and written by the instruction, as bit masks over r0..r10 (calls: helper reads
 * r1..r5, writes r0..r5). */
uint32_t ebpf_regs_read(const struct bpf_insn *i);
uint32_t ebpf_regs_written(const struct bpf_insn *i);

/* Whether i writes r10, the read-only frame pointer (ebpf_regs_written's bit 10). */
static inline bool ebpf_writes_fp(const struct bpf_insn *i)
{
	return ebpf_regs_written(i) >> EBPF_REG_FP & 1;
}

/* Names: "bpf_map_lookup_elem" for 1, NULL when unknown. */
const char *ebpf_helper_name(int32_t id);
int32_t ebpf_helper_by_name(const char *name);	/* -1 when unknown */

/* kfuncs of the running kernel (kfunc.c): vmlinux BTF is read once per process.
 * ebpf_kfunc_by_name returns the BTF id (> 0), -ENOENT when the kernel has no such function,
 * -ENODATA when there is no vmlinux BTF (or BPFSCEV_NO_VMLINUX_BTF is set).  ebpf_kfunc_name
 * is the reverse; NULL when unknown.  Thread-safe. */
bool ebpf_kfunc_btf_available(void);
int32_t ebpf_kfunc_by_name(const char *name);
const char *ebpf_kfunc_name(int32_t id);
/* Whether i calls bpf_throw (a kfunc call, off 0, of the running kernel's BTF id for it): the
 * exception exit, which ends its block and the run (scev/cfg.c, scev/absint_throw.c).  false
 * without vmlinux BTF (the name alone is then unsupported where it is called). */
int32_t ebpf_throw_btf_id(void);	/* (bpf/kfunc.c: vmlinux's id of bpf_throw, else <= 0) */
static inline bool ebpf_insn_is_throw(const struct bpf_insn *i)
{
	/* (inline: the CFG and the analysis ask it of every instruction) */
	return ebpf_is_call(i) && i->src_reg == BPF_PSEUDO_KFUNC_CALL && i->off == 0 &&
	       i->imm > 0 && i->imm == ebpf_throw_btf_id();
}
/* The vmlinux BTF id of struct name (> 0), or -ENOENT / -ENODATA as ebpf_kfunc_by_name. */
int32_t ebpf_btf_struct_by_name(const char *name);
/* The byte offset of member (a direct one, not inside an anonymous union) of vmlinux struct
 * name, -1 when there is none (or no BTF, or a bitfield). */
int64_t ebpf_btf_member_off(const char *name, const char *member);
/* The name of vmlinux BTF type id (any kind), NULL when unknown. */
const char *ebpf_btf_type_name(int32_t id);

/* The flags of the kfuncs that take or give references, as the kernel's BTF_ID_FLAGS sets
 * declare them (include/linux/btf.h values).  vmlinux BTF does not carry them (its decl tags say
 * only "bpf_kfunc" and "bpf_fastcall"), so they are restated here from the kernel's sources
 * (kernel/bpf/helpers.c generic_btf_ids, kernel/bpf/cpumask.c) for the kfuncs bpfscev models. */
#define EBPF_KF_ACQUIRE 0x1u
#define EBPF_KF_RELEASE 0x2u
#define EBPF_KF_RET_NULL 0x4u
#define EBPF_KF_TRUSTED_ARGS 0x10u
#define EBPF_KF_RCU 0x80u

struct ebpf_kfunc_ref {
	const char *name;
	uint32_t flags;
	const char *obj;	/* the struct it acquires or releases (its argument, its result) */
	uint8_t nargs;		/* 0: no object (a constructor: numbers, if any); 1: R1, a
				 * pointer to obj (numbers after it: absint_kfunc.c checks them) */
};

/* The entry of kfunc name, NULL when it is not one of them. */
const struct ebpf_kfunc_ref *ebpf_kfunc_ref(const char *name);

#define EBPF_KF_SLEEPABLE 0x20u
#define EBPF_KF_DESTRUCTIVE 0x40u
#define EBPF_KF_RCU_PROTECTED 0x800u

/* The kfuncs bpfscev knows (bpf/kfunc_table.c): their flags, the set that registers them
 * (which program types may call them: ebpf_kfunc_set_allows) and, for those the analyzer
 * models from their prototype alone (neither a reference, an iterator nor a dynptr kfunc), what
 * the interpreter runs (op). */
enum ebpf_kfunc_set { EBPF_KSET_GENERIC, EBPF_KSET_CPUMASK, EBPF_KSET_COMMON };
enum ebpf_kfunc_op {
	EBPF_KOP_NONE,		/* a reference kfunc (ebpf_kfunc_ref) */
	EBPF_KOP_DRAW,		/* no effect, a result of the helper data */
	EBPF_KOP_CM_FIRST, EBPF_KOP_CM_FIRST_ZERO, EBPF_KOP_CM_FIRST_AND, EBPF_KOP_CM_SET_CPU,
	EBPF_KOP_CM_CLEAR_CPU, EBPF_KOP_CM_TEST_CPU, EBPF_KOP_CM_TEST_SET, EBPF_KOP_CM_TEST_CLEAR,
	EBPF_KOP_CM_SETALL, EBPF_KOP_CM_CLEAR, EBPF_KOP_CM_AND, EBPF_KOP_CM_OR, EBPF_KOP_CM_XOR,
	EBPF_KOP_CM_EQUAL, EBPF_KOP_CM_INTERSECTS, EBPF_KOP_CM_SUBSET, EBPF_KOP_CM_EMPTY,
	EBPF_KOP_CM_FULL, EBPF_KOP_CM_COPY, EBPF_KOP_CM_ANY, EBPF_KOP_CM_ANY_AND,
	EBPF_KOP_CM_WEIGHT,
	/* the regions (kernel/bpf/helpers.c common_btf_ids; scev/absint_region.c) */
	EBPF_KOP_RCU_LOCK, EBPF_KOP_RCU_UNLOCK, EBPF_KOP_PREEMPT_OFF, EBPF_KOP_PREEMPT_ON,
	EBPF_KOP_THROW,		/* bpf_throw: ends the run (the program's exception exit) */
};
#define EBPF_KOP_LAST EBPF_KOP_THROW
struct ebpf_kfunc_info {
	const char *name;
	uint32_t flags;		/* EBPF_KF_* */
	uint8_t set;		/* enum ebpf_kfunc_set */
	uint8_t op;		/* enum ebpf_kfunc_op */
};
/* The entry of kfunc name, NULL when bpfscev does not know it; the k-th entry, NULL past them. */
const struct ebpf_kfunc_info *ebpf_kfunc_info(const char *name);
const struct ebpf_kfunc_info *ebpf_kfunc_info_at(size_t k);
/* Whether a program of type prog_type may call the kfuncs of set (the kernel's
 * register_btf_kfunc_id_set through bpf_prog_type_to_kfunc_hook): 1 yes, 0 no (a type whose
 * refusal was probed), -1 not known. */
int ebpf_kfunc_set_allows(unsigned set, uint32_t prog_type);

/* A kfunc's prototype from vmlinux BTF: each argument a scalar of size bytes, a pointer to
 * struct obj (a kernel object; OBJ_NULLABLE: its name ends in __nullable, NULL allowed), and
 * the result. */
enum ebpf_karg { EBPF_KARG_OTHER, EBPF_KARG_SCALAR, EBPF_KARG_OBJ, EBPF_KARG_OBJ_NULLABLE };
enum ebpf_kret { EBPF_KRET_VOID, EBPF_KRET_SCALAR, EBPF_KRET_OBJ };
struct ebpf_kfunc_proto {
	uint8_t nargs;
	uint8_t arg[5], size[5];
	int32_t obj[5];
	uint8_t ret, ret_size;
	int32_t ret_obj;
	char why[160];		/* what is not modeled, when the answer is -EOPNOTSUPP */
};
/* 0; -ENODATA without vmlinux BTF, -ENOENT when the kernel has no such kfunc, -E2BIG or
 * -EOPNOTSUPP (why says) for a prototype bpfscev does not model. */
int ebpf_kfunc_proto(const char *name, struct ebpf_kfunc_proto *out);
/* The vmlinux BTF (NULL without it), for the files of this folder that read it. */
struct btf;
const struct btf *ebpf_vmlinux_btf(void);

/* The open-coded iterator kfuncs (KF_ITER_NEW, _NEXT, _DESTROY in the kernel's BTF_ID_FLAGS sets):
 * bpf_iter_<family>_new, _next and _destroy, each given the struct bpf_iter_<family> of size
 * bytes on the stack as its first argument (vmlinux BTF's sizes: 8 for num, 16 for bits, 24 for
 * task and css, 8 for the others).  The number iterator (kernel/bpf/bpf_iter.c) and the bits
 * iterator (kernel/bpf/helpers.c) are bounded by their arguments; the others (task, css,
 * css_task, task_vma, kmem_cache, dmabuf) end only when the kernel's objects run out. */
enum ebpf_iter_family {
	EBPF_ITER_NUM,
	EBPF_ITER_BITS,
	EBPF_ITER_TASK,
	EBPF_ITER_CSS,
	EBPF_ITER_CSS_TASK,
	EBPF_ITER_TASK_VMA,
	EBPF_ITER_KMEM_CACHE,
	EBPF_ITER_DMABUF,
	EBPF_ITER__COUNT
};
enum ebpf_iter_op { EBPF_ITER_NEW = 1, EBPF_ITER_NEXT, EBPF_ITER_DESTROY };
/* bpf_iter_bits_new's most words (helpers.c's BITS_ITER_NR_WORDS_MAX): more give -E2BIG */
#define EBPF_ITER_BITS_MAX_WORDS 511

struct ebpf_kfunc_iter {
	uint8_t family;		/* enum ebpf_iter_family */
	uint8_t op;		/* enum ebpf_iter_op */
	uint8_t size;		/* of struct bpf_iter_<family>: a multiple of 8 */
	const char *family_name;	/* "num", "bits", "css_task", ... */
};

/* What the kernel asks of an iterator family's new and gives by its next (kernel/bpf/task_iter.c,
 * the BTF_ID_FLAGS of kernel/bpf/helpers.c's common_btf_ids, checked against the running 6.18):
 * obj is the struct next returns a pointer to, or NULL (num and bits: next returns a pointer into
 * the iterator); arg the struct new's R2 must point to (KF_TRUSTED_ARGS or KF_RCU: a trusted
 * object, at offset 0), arg_null when R2 may be NULL instead (task__nullable); next_rcu when
 * next's result is MEM_RCU (new is KF_RCU_PROTECTED: task, css), PTR_TRUSTED otherwise;
 * lsm_iter_only for css_task (check_css_task_iter_allowlist: LSM, iter/ and sleepable programs
 * only); modeled when bpfscev runs it (num, bits, task, css, css_task, task_vma; kmem_cache and
 * dmabuf are KF_SLEEPABLE, not modeled). */
struct ebpf_iter_info {
	const char *name;
	uint8_t size;
	bool modeled, arg_null, next_rcu, lsm_iter_only;
	const char *obj, *arg;
};
/* The entry of family (enum ebpf_iter_family), NULL past them. */
const struct ebpf_iter_info *ebpf_iter_family(unsigned family);
/* Whether family's next returns a kernel object (task, css, css_task, task_vma, ...): its loops
 * end when the kernel's objects run out, with no count. */
static inline bool ebpf_iter_family_obj(unsigned family)
{
	return family != EBPF_ITER_NUM && family != EBPF_ITER_BITS;
}

/* Whether kfunc name is one of them, and which (*out); false for NULL. */
bool ebpf_kfunc_iter(const char *name, struct ebpf_kfunc_iter *out);
/* The kfunc name of family's op: "bpf_iter_bits_next". */
const char *ebpf_kfunc_iter_name(unsigned family, unsigned op);

/* Access width in bytes of a load/store size field (BPF_B → 1 … BPF_DW → 8). */
static inline unsigned ebpf_size_bytes(uint8_t size)
{
	switch (size) {
	case BPF_B: return 1;
	case BPF_H: return 2;
	case BPF_W: return 4;
	default: return 8;
	}
}

#endif
