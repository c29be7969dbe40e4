/* CO-RE relocations: the .BTF.ext records that say which instruction holds a field offset, a
 * field's size or existence, a type's id, size or existence, or an enum value, of a type as the
 * object's own BTF describes it.  libbpf rewrites those instructions for the running kernel
 * before loading; the analyzed program must be that rewritten one (elf.c asks core_relo_apply
 * for each record of each instruction it links into a program).
 */
#ifndef BPFSCEV_BPF_CORE_H
#define BPFSCEV_BPF_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf/isa.h"

struct btf;

/* enum bpf_core_relo_kind of the UAPI (linux/bpf.h), spelled out: libbpf 1.1's headers do not
 * export it. */
enum core_kind {
	CORE_FIELD_BYTE_OFFSET = 0,
	CORE_FIELD_BYTE_SIZE = 1,
	CORE_FIELD_EXISTS = 2,
	CORE_FIELD_SIGNED = 3,
	CORE_FIELD_LSHIFT_U64 = 4,
	CORE_FIELD_RSHIFT_U64 = 5,
	CORE_TYPE_ID_LOCAL = 6,
	CORE_TYPE_ID_TARGET = 7,
	CORE_TYPE_EXISTS = 8,
	CORE_TYPE_SIZE = 9,
	CORE_ENUMVAL_EXISTS = 10,
	CORE_ENUMVAL_VALUE = 11,
	CORE_TYPE_MATCHES = 12,
};

/* One record, its instruction as a slot index in its code section. */
struct core_relo {
	uint32_t insn;
	uint32_t type_id;	/* root type, in the object's BTF */
	uint32_t access_off;	/* access string ("0:1:2"), in the object's BTF strings */
	uint32_t kind;		/* enum core_kind */
};

/* The records of one code section, sorted by insn. */
struct core_relo_sec {
	const char *name;	/* the section's name, in the object's BTF strings */
	struct core_relo *relos;
	size_t cnt;
};

struct core_relos {
	struct core_relo_sec *secs;
	size_t cnt;
};

/* Reads the CO-RE records of a .BTF.ext section (ext, len bytes) whose strings are those of
 * btf (the object's .BTF).  Returns 0 (out empty when the section has none), -ENOMEM, or
 * -EINVAL with why and *at (byte offset in the section) when the records are malformed; out
 * is to be freed with core_relos_free whatever the result.  btf may be NULL (no readable .BTF):
 * records then are an error, since nothing names their sections. */
int core_relos_read(struct core_relos *out, const uint8_t *ext, size_t len,
		    const struct btf *btf, char *why, size_t why_sz, size_t *at);
void core_relos_free(struct core_relos *r);
/* The records of instruction slot insn of a section (NULL, *cnt 0 when none). */
const struct core_relo *core_relos_at(const struct core_relo_sec *s, uint32_t insn, size_t *cnt);

const char *core_kind_name(uint32_t kind);

/* What relocations are applied against: the running kernel's BTF (NULL when it cannot be read)
 * and whether modules have BTF of their own (not searched: a type found in no vmlinux type is
 * then not known to be missing). */
struct core_target {
	struct btf *btf;
	bool modules;
};

void core_target_load(struct core_target *t);
void core_target_free(struct core_target *t);

/* Applies record r to insn (slots instructions from it to the end of the program) as libbpf
 * would for the target: 0 when the instruction now holds the kernel's value, 1 with why when
 * the record is one this does not apply (a kind or case not handled, a field the kernel lacks,
 * an ambiguous or malformed record) — the program is then not the loaded one. */
int core_relo_apply(const struct core_relo *r, struct bpf_insn *insn, size_t slots,
		    const struct btf *local, const struct core_target *target, char *why,
		    size_t n);

#endif
