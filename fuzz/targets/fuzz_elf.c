/* Fuzz target "elf": the ELF loader on arbitrary bytes.
 *
 * Inputs that do not start with the ELF magic are skipped (the other formats have their own
 * targets), the rest go through ebpf_object__open_mem(): our checks of the headers, sections,
 * relocations and BTF, then libbpf's bpf_object__open_mem(), then the linking of subprograms
 * and map references.  Whatever the bytes, nothing may crash, hang or leak; what opens must hold
 * valid programs whose map references name maps of the object, and each program then goes
 * through the disassembler and the analyzer, as `bpfscev analyze prog.o` would take it.
 */
#include <string.h>

#include "bpf/asm.h"
#include "bpf/prog.h"
#include "fuzz/targets/fuzz_check.h"
#include "scev/scev.h"

#define FUZZ_MAX_ELF (256 * 1024)

/* Every LD_IMM64 that refers to a map names one of the object's maps. */
static void check_map_refs(const struct ebpf_object *obj, const struct ebpf_prog *p)
{
	for (size_t pc = 0; pc < p->len; pc += ebpf_insn_slots(&p->insns[pc])) {
		const struct bpf_insn *i = &p->insns[pc];

		if (!ebpf_is_ldimm64(i))
			continue;
		if (i->src_reg == BPF_PSEUDO_MAP_FD || i->src_reg == BPF_PSEUDO_MAP_VALUE)
			CHECK((uint32_t)i->imm < obj->map_cnt,
			      "prog '%s' pc %zu refers to map %d of %zu", p->name, pc, i->imm,
			      obj->map_cnt);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ebpf_object *obj = NULL;
	struct diag d;

	if (size < 4 || size > FUZZ_MAX_ELF || memcmp(data, "\177ELF", 4))
		return 0;
	diag_clear(&d);
	if (ebpf_object__open_mem(&obj, data, size, "fuzz.o", &d))
		return 0;
	CHECK(obj->format == EBPF_FMT_ELF, "ELF magic but format %d", obj->format);
	CHECK(obj->prog_cnt >= 1, "an object without programs opened");
	for (size_t k = 0; k < obj->prog_cnt; k++) {
		const struct ebpf_prog *p = &obj->progs[k];
		struct scev_opts so = { .sz = sizeof(so) };
		struct claim_prog cp = { 0 };
		struct sbuf sb = SBUF_INIT;
		int err;

		CHECK(!ebpf_validate(p->insns, p->len, NULL), "prog '%s' does not validate",
		      p->name);
		check_map_refs(obj, p);
		ebpf_disasm(&sb, p->insns, p->len, EBPF_DISASM_PC | EBPF_DISASM_LABELS);
		sbuf_free(&sb);
		diag_clear(&d);
		err = scev_analyze(&cp, p, obj->maps, obj->map_cnt, &so, &d);
		CHECK(!err, "scev_analyze failed on prog '%s': %s", p->name, d.msg);
		claim_prog__free(&cp);
	}
	ebpf_object__free(obj);
	return 0;
}
