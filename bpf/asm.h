/* Assembler and disassembler for the syntaxes BPF developers read every day.
 *
 * Input dialects, detected per line: the kernel verifier log / bpftool xlated syntax
 * ("r1 = 0", "if r1 < 0xa goto pc-3", "r0 = *(u32 *)(r1 +4)", "lock *(u64 *)(r10 -8) += r1",
 * "call bpf_map_lookup_elem#1", "r1 = 0x1234 ll"), llvm-objdump -d output (address and hex columns
 * and <LBB0_1> annotations are skipped), LLVM's BPF assembler as in selftests' inline asm
 * (symbolic labels, "goto l", local labels 1:/1b/1f, ';' separators, comments), and the ubpf
 * dialect of the conformance suite ("mov32 %r0, 0", "ldxb %r0, [%r1+0x2]",
 * "lock add [%r10-8], %r1").
 * The disassembler (disasm.c) prints the kernel syntax, and asm(disasm(x)) == x byte for byte.
 * The exact spellings chosen where the kernel's text is ambiguous or absent (LD_IMM64 pseudo
 * sources "map[fd:3]+16 ll", "btf_id 5 ll", "func pc+4 ll"; kfuncs "call kernel-function#ID")
 * are listed in the file comment of asm_c.c, the kernel/LLVM grammar; ".bytes" for slots that
 * do not validate in asm.c's, which also says which file of the assembler does what.
 */
#ifndef BPFSCEV_BPF_ASM_H
#define BPFSCEV_BPF_ASM_H

#include <stddef.h>
#include <stdint.h>

#include "bpf/isa.h"
#include "bpf/prog.h"
#include "util/err.h"
#include "util/sbuf.h"

/* Assembles text.  first_line is the line number of text[0] in its file (for messages).
 * On success *insns and *lines (source line per slot) are heap arrays the caller frees.  The
 * result is not validated here beyond encoding (ebpf_object__open_* validates).
 * lines may be NULL.  An empty text gives *len == 0.  On error nothing is returned and d says
 * line:col and what was expected. */
int ebpf_asm(struct bpf_insn **insns, size_t *len, uint32_t **lines, const char *text,
	     size_t n, int first_line, struct diag *d);
/* The same, with the prototypes of the text's global functions (a heap array, NULL when none):
 *   .global NAME ARG... [ret:void|ret:other] [tagged] [exception_cb]
 * says that the function starting at the next instruction is global (ebpf_prog.globals), each
 * ARG one argument of its prototype: int:N (an integer of N bytes), ptr:N (a pointer to N
 * bytes), ptr:STRUCT:N (to struct STRUCT of N bytes, e.g. ptr:__sk_buff:192, the context),
 * void* (a pointer to nothing of known size) or other; exception_cb: it is the program's
 * exception callback (ebpf_global_func.exc_cb).  ebpf_global_func_print writes it. */
int ebpf_asm_globals(struct bpf_insn **insns, size_t *len, uint32_t **lines,
		     struct ebpf_global_func **globals, size_t *nglobals, const char *text,
		     size_t n, int first_line, struct diag *d);
void ebpf_global_func_print(struct sbuf *sb, const struct ebpf_global_func *g);

enum {
	EBPF_DISASM_PC = 1 << 0,	/* prefix "N: " */
	EBPF_DISASM_OPCODE = 1 << 1,	/* "(07) " after the pc, as the verifier log prints */
	EBPF_DISASM_LABELS = 1 << 2,	/* jump targets as "goto L12" with label lines */
};

/* One instruction at pc (which must not be the second slot of an LD_IMM64); no newline. */
void ebpf_disasm_insn(struct sbuf *sb, const struct bpf_insn *insns, size_t len, size_t pc,
		      unsigned flags);
/* The whole program, one instruction per line. */
void ebpf_disasm(struct sbuf *sb, const struct bpf_insn *insns, size_t len, unsigned flags);
/* The same with a ".global" line before the first slot of each global function. */
void ebpf_disasm_globals(struct sbuf *sb, const struct bpf_insn *insns, size_t len,
			 const struct ebpf_global_func *globals, size_t nglobals, unsigned flags);
/* A data file's "-- maps" section (casefile.c reads it: one map per line in LD_IMM64 index
 * order, "array key=K value=V entries=N [name=NAME] [timer=OFF]", "hash ...", "ringbuf
 * entries=N", "user_ringbuf entries=N"; an array's initial contents "init=HEX", up to the last
 * byte not 0); nothing when n is 0. */
/* The "-- maps" section's word of a map type (array, percpu_array, ringbuf, queue, ...; "hash"
 * for every other type with a key and a value) */
const char *ebpf_map_kind_word(uint32_t type);
void ebpf_maps_section(struct sbuf *sb, const struct ebpf_map_def *maps, size_t n);

#endif
