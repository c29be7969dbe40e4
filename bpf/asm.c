/* PLACEHOLDER while the assembler is written (owner: asm helper). */
#include "bpf/asm.h"
#include <errno.h>
int ebpf_asm(struct bpf_insn **insns, size_t *len, uint32_t **lines, const char *text,
	     size_t n, int first_line, struct diag *d)
{
	return diag_set(d, ENOSYS, "assembler not built yet");
}
void ebpf_disasm_insn(struct sbuf *sb, const struct bpf_insn *insns, size_t len, size_t pc,
		      unsigned flags) {}
void ebpf_disasm(struct sbuf *sb, const struct bpf_insn *insns, size_t len, unsigned flags) {}
