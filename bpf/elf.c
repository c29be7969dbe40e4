/* ELF objects as clang writes them (clang -O2 -target bpf -c): programs, the subprograms they
 * call and the maps they reference, laid out exactly as libbpf hands them to the kernel, so an
 * instruction index here is the index in the verifier's log.
 *
 * libbpf cannot do the whole job: v1.0+ refuses the legacy "maps" sections most sample objects
 * use, and bpf_program__insns() before load lacks the subprograms.  So sections, symbols and
 * relocations are read with libelf and linked here; libbpf contributes BTF-defined map
 * definitions (.maps) and its section-name → program-type table.
 *
 * Failure policy.  A defect of the file itself (truncation, a section or symbol outside the file
 * or its section, code that is not a whole number of instructions, a relocation outside its
 * section, wrong machine or byte order) fails the open, naming the section and byte offset.  A
 * defect that concerns one program (it fails ebpf_validate, calls into the middle of a function, a
 * relocation that makes no sense for its instruction) skips that program with a line in
 * obj->notes: a user asking for one good program must not be blocked by a broken neighbour.  When
 * no program is left, the open fails with the first program's reason.  References to things
 * outside the object (extern variables, functions whose address is taken) are left in place and
 * noted; an extern call becomes a kfunc call (src_reg BPF_PSEUDO_KFUNC_CALL) with the running
 * kernel's BTF id for its name (0 and a note when there is none), which is what libbpf turns it
 * into and what keeps the program structurally valid; the name stays in ebpf_prog.kfuncs.
 *
 * Not thread-safe: libbpf's print hook is process-wide and is swapped while libbpf runs.
 */
#include "bpf/prog.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/core.h"
#include "util/sbuf.h"

#ifndef EM_BPF
#define EM_BPF 247
#endif
#ifndef BPF_PSEUDO_FUNC
#define BPF_PSEUDO_FUNC 4
#endif

enum sec_kind { SEC_OTHER, SEC_CODE, SEC_LEGACY_MAPS, SEC_BTF_MAPS, SEC_DATA };

struct erel {
	uint32_t insn;		/* slot index in the section */
	uint32_t sym;
	uint32_t nr;		/* relocation number, for messages */
	int64_t addend;		/* RELA (early LLVM); 0 for REL, whose addend is the imm */
};

struct esec {
	const char *name;
	GElf_Shdr sh;
	enum sec_kind kind;
	struct bpf_insn *insns;	/* SEC_CODE: aligned copy of the section */
	size_t insn_cnt;
	struct erel *rels;	/* SEC_CODE: sorted by insn */
	size_t rel_cnt;
	const char *rel_name;	/* the .rel section, for messages */
	long map;		/* SEC_DATA: its map in obj->maps, -1 when none */
	const struct core_relo_sec *core;	/* SEC_CODE: its CO-RE records; NULL when none */
};

/* A function: a program or a subprogram, [off, off + cnt) slots of a code section. */
struct efunc {
	size_t sec;
	size_t off, cnt;
	const char *name;
	bool global;
};

/* Where a legacy or BTF map is defined, parallel to obj->maps (data maps: sec 0). */
struct mloc {
	size_t sec;		/* SIZE_MAX: no symbol (an inner map's template) */
	uint64_t off;
	/* legacy records of maps of maps: how they name their inner map (read_legacy_maps) */
	uint32_t rec, f5, f7;
};

/* A .kconfig extern: where libbpf puts it in the .kconfig map and what it reads from the
 * kernel's configuration. */
enum kcfg_kind { KCFG_INT, KCFG_BOOL, KCFG_TRISTATE, KCFG_CHAR, KCFG_STR };
struct kcfg {
	const char *name;	/* the BTF's */
	uint32_t off, sz, align;
	uint8_t kind;
	bool is_signed, weak;
};

struct elf_ctx {
	struct ebpf_object *obj;
	struct diag *d;
	uint8_t *buf;		/* private copy handed to libelf */
	size_t len;
	Elf *elf;
	struct esec *secs;
	size_t sec_cnt;
	size_t text;		/* index of .text; 0 when absent */
	size_t symtab;		/* index of the symbol table; 0 when absent */
	GElf_Sym *syms;
	const char **sym_names;
	size_t sym_cnt;
	struct efunc *funcs;	/* sorted by (sec, off) */
	size_t func_cnt;
	struct mloc *mlocs;
	size_t map_cap;
	size_t legacy_base;	/* index of the first map of a legacy "maps" section */
	bool legacy_seen;
	struct sbuf notes;
	struct diag first_skip;	/* reason of the first skipped program */
	size_t skipped;
	struct core_relos core;	/* CO-RE records of .BTF.ext */
	struct btf *btf;	/* the object's .BTF when it has CO-RE records (their strings) */
	struct core_target target;	/* the kernel's BTF, loaded at the first CO-RE record */
	bool target_loaded;
	struct kcfg *kcfg;	/* the .kconfig externs, in libbpf's order (read_kconfig) */
	size_t kcfg_cnt;
	long kcfg_map;		/* their map's index; -1 when none */
};

/* Structural error at a byte offset of the file. */
static int bad_at(struct elf_ctx *c, long offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int bad_at(struct elf_ctx *c, long offset, const char *fmt, ...)
{
	va_list ap;

	if (c->d) {
		va_start(ap, fmt);
		vsnprintf(c->d->msg, sizeof(c->d->msg), fmt, ap);
		va_end(ap);
		c->d->offset = offset;
	}
	return -EINVAL;
}

static void note(struct elf_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct elf_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sbuf_vprintf(&c->notes, fmt, ap);
	va_end(ap);
	sbuf_putc(&c->notes, '\n');
}

/* libbpf prints its warnings; a library must not.  The last warning is kept for messages. */
static char libbpf_last_warning[256];

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	size_t n;

	if (level != LIBBPF_WARN)
		return 0;
	vsnprintf(libbpf_last_warning, sizeof(libbpf_last_warning), fmt, ap);
	n = strlen(libbpf_last_warning);
	while (n && libbpf_last_warning[n - 1] == '\n')
		libbpf_last_warning[--n] = '\0';
	return 0;
}

static const char *sym_name(const struct elf_ctx *c, size_t i)
{
	return c->sym_names[i] ? c->sym_names[i] : "?";
}

static uint32_t get_u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Old-style section names libbpf 1.x no longer maps ("socket/3", "xdp_prog", "classifier"):
 * a prefix followed by the end, '/', '_', '-', '.' or a digit. */
static const struct {
	const char *pfx;
	enum bpf_prog_type type;
} legacy_types[] = {
	{ "socket", BPF_PROG_TYPE_SOCKET_FILTER },
	{ "sk_reuseport", BPF_PROG_TYPE_SK_REUSEPORT },
	{ "kprobe", BPF_PROG_TYPE_KPROBE },
	{ "kretprobe", BPF_PROG_TYPE_KPROBE },
	{ "uprobe", BPF_PROG_TYPE_KPROBE },
	{ "uretprobe", BPF_PROG_TYPE_KPROBE },
	{ "tracepoint", BPF_PROG_TYPE_TRACEPOINT },
	{ "tp", BPF_PROG_TYPE_TRACEPOINT },
	{ "raw_tracepoint", BPF_PROG_TYPE_RAW_TRACEPOINT },
	{ "raw_tp", BPF_PROG_TYPE_RAW_TRACEPOINT },
	{ "xdp", BPF_PROG_TYPE_XDP },
	{ "perf_event", BPF_PROG_TYPE_PERF_EVENT },
	{ "classifier", BPF_PROG_TYPE_SCHED_CLS },
	{ "tc", BPF_PROG_TYPE_SCHED_CLS },
	{ "action", BPF_PROG_TYPE_SCHED_ACT },
	{ "lwt_in", BPF_PROG_TYPE_LWT_IN },
	{ "lwt_out", BPF_PROG_TYPE_LWT_OUT },
	{ "lwt_xmit", BPF_PROG_TYPE_LWT_XMIT },
	{ "lwt_seg6local", BPF_PROG_TYPE_LWT_SEG6LOCAL },
	{ "cgroup/skb", BPF_PROG_TYPE_CGROUP_SKB },
	{ "cgroup_skb", BPF_PROG_TYPE_CGROUP_SKB },
	{ "cgroup/sock", BPF_PROG_TYPE_CGROUP_SOCK },
	{ "cgroup/dev", BPF_PROG_TYPE_CGROUP_DEVICE },
	{ "cgroup/sysctl", BPF_PROG_TYPE_CGROUP_SYSCTL },
	{ "cgroup/getsockopt", BPF_PROG_TYPE_CGROUP_SOCKOPT },
	{ "cgroup/setsockopt", BPF_PROG_TYPE_CGROUP_SOCKOPT },
	{ "cgroup/bind", BPF_PROG_TYPE_CGROUP_SOCK_ADDR },
	{ "cgroup/connect", BPF_PROG_TYPE_CGROUP_SOCK_ADDR },
	{ "cgroup/sendmsg", BPF_PROG_TYPE_CGROUP_SOCK_ADDR },
	{ "cgroup/recvmsg", BPF_PROG_TYPE_CGROUP_SOCK_ADDR },
	{ "sockops", BPF_PROG_TYPE_SOCK_OPS },
	{ "sk_skb", BPF_PROG_TYPE_SK_SKB },
	{ "sk_msg", BPF_PROG_TYPE_SK_MSG },
	{ "flow_dissector", BPF_PROG_TYPE_FLOW_DISSECTOR },
};

static uint32_t prog_type_of(const char *sec, const char **from)
{
	enum bpf_prog_type type;
	enum bpf_attach_type attach;
	libbpf_print_fn_t old;
	int err;

	old = libbpf_set_print(libbpf_quiet);
	err = libbpf_prog_type_by_name(sec, &type, &attach);
	libbpf_set_print(old);
	*from = "section";
	if (!err)
		return type;
	*from = "legacy section name";
	for (size_t i = 0; i < sizeof(legacy_types) / sizeof(legacy_types[0]); i++) {
		size_t n = strlen(legacy_types[i].pfx);
		char next = sec[n];

		if (strncmp(sec, legacy_types[i].pfx, n))
			continue;
		if (!next || next == '/' || next == '_' || next == '-' || next == '.' ||
		    (next >= '0' && next <= '9'))
			return legacy_types[i].type;
	}
	*from = "";
	return BPF_PROG_TYPE_UNSPEC;
}

static bool has_prefix(const char *s, const char *pfx)
{
	return !strncmp(s, pfx, strlen(pfx));
}

/* libbpf's global data sections: .data, .rodata, .bss and their ".name" variants. */
static bool is_data_section(const char *name)
{
	return !strcmp(name, ".data") || has_prefix(name, ".data.") || !strcmp(name, ".rodata") ||
	       has_prefix(name, ".rodata.") || !strcmp(name, ".bss") || has_prefix(name, ".bss.");
}

/* ---- the file: header, sections, symbols ---- */

static int read_header(struct elf_ctx *c)
{
	const uint8_t *id = c->buf;
	bool host_le = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
	Elf64_Ehdr raw;
	GElf_Ehdr eh;

	if (c->len < EI_NIDENT)
		return bad_at(c, 0, "truncated ELF identification (%zu bytes)", c->len);
	if (id[EI_CLASS] != ELFCLASS64)
		return bad_at(c, EI_CLASS, "not a 64-bit ELF file (class %u); BPF objects are ELF64",
			      id[EI_CLASS]);
	if (id[EI_DATA] != (host_le ? ELFDATA2LSB : ELFDATA2MSB))
		return bad_at(c, EI_DATA, "%s ELF file (data encoding %u) on a %s host; "
			      "build with -target bpf%s", id[EI_DATA] == ELFDATA2MSB ? "big-endian" :
			      id[EI_DATA] == ELFDATA2LSB ? "little-endian" : "unknown byte order",
			      id[EI_DATA], host_le ? "little-endian" : "big-endian",
			      host_le ? "el" : "eb");
	if (c->len < sizeof(Elf64_Ehdr))
		return bad_at(c, 0, "truncated ELF header (%zu of %zu bytes)", c->len,
			      sizeof(Elf64_Ehdr));
	/* The section header table, checked here so the message can say where it should be
	 * (e_shnum 0 with a table means the count is in section 0: at least that entry). */
	memcpy(&raw, c->buf, sizeof(raw));
	if (raw.e_shoff || raw.e_shnum) {
		uint64_t cnt = raw.e_shnum ? raw.e_shnum : 1;

		if (raw.e_shentsize != sizeof(Elf64_Shdr))
			return bad_at(c, offsetof(Elf64_Ehdr, e_shentsize),
				      "section header size %u, expected %zu", raw.e_shentsize,
				      sizeof(Elf64_Shdr));
		if (raw.e_shoff > c->len || cnt * sizeof(Elf64_Shdr) > c->len - raw.e_shoff)
			return bad_at(c, offsetof(Elf64_Ehdr, e_shoff),
				      "section headers at 0x%llx (%llu x %zu bytes) extend past the "
				      "end of the file (%zu bytes): truncated?",
				      (unsigned long long)raw.e_shoff, (unsigned long long)cnt,
				      sizeof(Elf64_Shdr), c->len);
	}
	c->elf = elf_memory((char *)c->buf, c->len);
	if (!c->elf || elf_kind(c->elf) != ELF_K_ELF)
		return bad_at(c, 0, "not a readable ELF file: %s", elf_errmsg(-1));
	if (!gelf_getehdr(c->elf, &eh))
		return bad_at(c, 0, "unreadable ELF header: %s", elf_errmsg(-1));
	/* Early LLVM wrote EM_NONE; libbpf accepts it too. */
	if (eh.e_machine != EM_BPF && eh.e_machine != EM_NONE)
		return bad_at(c, offsetof(Elf64_Ehdr, e_machine),
			      "ELF machine is %u, not BPF (EM_BPF = %u)", eh.e_machine, EM_BPF);
	return 0;
}

static int read_sections(struct elf_ctx *c)
{
	size_t shnum, shstrndx;
	GElf_Ehdr eh;

	if (!gelf_getehdr(c->elf, &eh) || elf_getshdrnum(c->elf, &shnum) ||
	    elf_getshdrstrndx(c->elf, &shstrndx))
		return bad_at(c, offsetof(Elf64_Ehdr, e_shoff), "unreadable section headers: %s",
			      elf_errmsg(-1));
	if (shnum == 0)
		return bad_at(c, offsetof(Elf64_Ehdr, e_shnum), "no section headers");
	c->secs = calloc(shnum, sizeof(*c->secs));
	if (!c->secs)
		return diag_set(c->d, ENOMEM, "out of memory");
	c->sec_cnt = shnum;
	for (size_t i = 1; i < shnum; i++) {
		struct esec *s = &c->secs[i];
		Elf_Scn *scn = elf_getscn(c->elf, i);
		long hdr_off = (long)(eh.e_shoff + i * sizeof(Elf64_Shdr));

		if (!scn || !gelf_getshdr(scn, &s->sh))
			return bad_at(c, hdr_off, "section [%zu]: unreadable header: %s", i,
				      elf_errmsg(-1));
		s->map = -1;
		s->name = elf_strptr(c->elf, shstrndx, s->sh.sh_name);
		if (!s->name)
			return bad_at(c, hdr_off, "section [%zu]: name offset 0x%x is outside the "
				      "section-name table (or not terminated)", i, s->sh.sh_name);
		/* Every section's bytes must lie inside the file, whether or not we use them. */
		if (s->sh.sh_type != SHT_NOBITS &&
		    (s->sh.sh_offset > c->len || s->sh.sh_size > c->len - s->sh.sh_offset)) {
			return bad_at(c, hdr_off,
				      "section '%s' [%zu]: bytes 0x%llx..0x%llx extend past the end "
				      "of the file (%zu bytes)", s->name, i,
				      (unsigned long long)s->sh.sh_offset,
				      (unsigned long long)(s->sh.sh_offset + s->sh.sh_size), c->len);
		}
		if (s->sh.sh_type == SHT_PROGBITS && (s->sh.sh_flags & SHF_EXECINSTR)) {
			s->kind = SEC_CODE;
			if (s->sh.sh_size % sizeof(struct bpf_insn))
				return bad_at(c, (long)(s->sh.sh_offset + s->sh.sh_size -
							s->sh.sh_size % sizeof(struct bpf_insn)),
					      "section '%s': size %llu is not a multiple of 8 "
					      "(the size of an instruction)", s->name,
					      (unsigned long long)s->sh.sh_size);
			if (!strcmp(s->name, ".text"))
				c->text = i;
		} else if ((!strcmp(s->name, "maps") || has_prefix(s->name, "maps/")) &&
			   s->sh.sh_type == SHT_PROGBITS) {
			/* "maps/<name>": one definition per section (bcc, old samples) */
			s->kind = SEC_LEGACY_MAPS;
		} else if (!strcmp(s->name, ".maps") && s->sh.sh_type == SHT_PROGBITS) {
			s->kind = SEC_BTF_MAPS;
		} else if (is_data_section(s->name) &&
			   (s->sh.sh_type == SHT_PROGBITS || s->sh.sh_type == SHT_NOBITS)) {
			s->kind = SEC_DATA;
		} else if (s->sh.sh_type == SHT_SYMTAB) {
			if (c->symtab)
				return bad_at(c, (long)s->sh.sh_offset,
					      "section '%s': a second symbol table", s->name);
			c->symtab = i;
		}
	}
	return 0;
}

static const uint8_t *sec_bytes(const struct elf_ctx *c, size_t i)
{
	return c->buf + c->secs[i].sh.sh_offset;
}

static int read_symbols(struct elf_ctx *c)
{
	const struct esec *s;
	Elf_Data *data;
	size_t link;

	if (!c->symtab)
		return 0;	/* then no relocations and each code section is one program */
	s = &c->secs[c->symtab];
	link = s->sh.sh_link;
	if (s->sh.sh_entsize != sizeof(Elf64_Sym))
		return bad_at(c, (long)s->sh.sh_offset,
			      "symbol table '%s': entry size %llu, expected %zu", s->name,
			      (unsigned long long)s->sh.sh_entsize, sizeof(Elf64_Sym));
	if (s->sh.sh_size % sizeof(Elf64_Sym))
		return bad_at(c, (long)s->sh.sh_offset,
			      "symbol table '%s': size %llu is not a multiple of %zu", s->name,
			      (unsigned long long)s->sh.sh_size, sizeof(Elf64_Sym));
	if (link == 0 || link >= c->sec_cnt || c->secs[link].sh.sh_type != SHT_STRTAB)
		return bad_at(c, (long)s->sh.sh_offset,
			      "symbol table '%s': linked section %zu is not a string table", s->name,
			      link);
	data = elf_getdata(elf_getscn(c->elf, c->symtab), NULL);
	if (!data || data->d_size != s->sh.sh_size)
		return bad_at(c, (long)s->sh.sh_offset, "symbol table '%s': unreadable: %s",
			      s->name, elf_errmsg(-1));
	c->sym_cnt = s->sh.sh_size / sizeof(Elf64_Sym);
	c->syms = calloc(c->sym_cnt ? c->sym_cnt : 1, sizeof(*c->syms));
	c->sym_names = calloc(c->sym_cnt ? c->sym_cnt : 1, sizeof(*c->sym_names));
	if (!c->syms || !c->sym_names)
		return diag_set(c->d, ENOMEM, "out of memory");
	for (size_t i = 0; i < c->sym_cnt; i++) {
		GElf_Sym *sym = &c->syms[i];
		long at = (long)(s->sh.sh_offset + i * sizeof(Elf64_Sym));

		if (!gelf_getsym(data, (int)i, sym))
			return bad_at(c, at, "symbol %zu: unreadable: %s", i, elf_errmsg(-1));
		c->sym_names[i] = elf_strptr(c->elf, link, sym->st_name);
		if (!c->sym_names[i])
			return bad_at(c, at, "symbol %zu: name offset 0x%x is outside string table "
				      "'%s'", i, sym->st_name, c->secs[link].name);
		if (sym->st_shndx >= c->sec_cnt && sym->st_shndx < SHN_LORESERVE)
			return bad_at(c, at, "symbol '%s': section index %u does not exist (%zu "
				      "sections)", c->sym_names[i], sym->st_shndx, c->sec_cnt);
	}
	return 0;
}

/* ---- code: sections, functions, relocations ---- */

static int read_code(struct elf_ctx *c)
{
	for (size_t i = 1; i < c->sec_cnt; i++) {
		struct esec *s = &c->secs[i];

		if (s->kind != SEC_CODE || s->sh.sh_size == 0)
			continue;
		s->insn_cnt = s->sh.sh_size / sizeof(struct bpf_insn);
		s->insns = malloc(s->sh.sh_size);
		if (!s->insns)
			return diag_set(c->d, ENOMEM, "out of memory");
		memcpy(s->insns, sec_bytes(c, i), s->sh.sh_size);
	}
	return 0;
}

static int cmp_rel(const void *a, const void *b)
{
	const struct erel *x = a, *y = b;

	if (x->insn != y->insn)
		return x->insn < y->insn ? -1 : 1;
	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

static int read_relocations(struct elf_ctx *c)
{
	for (size_t i = 1; i < c->sec_cnt; i++) {
		const struct esec *r = &c->secs[i];
		bool rela = r->sh.sh_type == SHT_RELA;
		size_t esz = rela ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel);
		struct esec *t;
		Elf_Data *data;
		size_t n;

		if (r->sh.sh_type != SHT_REL && !rela)
			continue;
		if (r->sh.sh_info == 0 || r->sh.sh_info >= c->sec_cnt)
			return bad_at(c, (long)r->sh.sh_offset,
				      "relocation section '%s': target section %u does not exist",
				      r->name, r->sh.sh_info);
		t = &c->secs[r->sh.sh_info];
		if (t->kind != SEC_CODE)
			continue;	/* debug info, BTF, .maps initialisers: not ours */
		if (t->rels)
			return bad_at(c, (long)r->sh.sh_offset,
				      "relocation section '%s': section '%s' already has relocations",
				      r->name, t->name);
		if (r->sh.sh_entsize != esz || r->sh.sh_size % esz)
			return bad_at(c, (long)r->sh.sh_offset,
				      "relocation section '%s': entry size %llu and size %llu do not "
				      "describe %zu-byte entries", r->name,
				      (unsigned long long)r->sh.sh_entsize,
				      (unsigned long long)r->sh.sh_size, esz);
		if (r->sh.sh_link != c->symtab || !c->symtab)
			return bad_at(c, (long)r->sh.sh_offset,
				      "relocation section '%s': linked section %u is not the symbol "
				      "table", r->name, r->sh.sh_link);
		data = elf_getdata(elf_getscn(c->elf, i), NULL);
		if (!data || data->d_size != r->sh.sh_size)
			return bad_at(c, (long)r->sh.sh_offset,
				      "relocation section '%s': unreadable: %s", r->name,
				      elf_errmsg(-1));
		n = r->sh.sh_size / esz;
		t->rels = calloc(n ? n : 1, sizeof(*t->rels));
		if (!t->rels)
			return diag_set(c->d, ENOMEM, "out of memory");
		t->rel_name = r->name;
		for (size_t k = 0; k < n; k++) {
			long at = (long)(r->sh.sh_offset + k * esz);
			GElf_Rela rel = { 0 };
			GElf_Rel rel0;
			size_t sym;

			if (rela ? !gelf_getrela(data, (int)k, &rel)
				 : !gelf_getrel(data, (int)k, &rel0))
				return bad_at(c, at, "relocation #%zu in '%s': unreadable: %s", k,
					      r->name, elf_errmsg(-1));
			if (!rela) {
				rel.r_offset = rel0.r_offset;
				rel.r_info = rel0.r_info;
			}
			sym = GELF_R_SYM(rel.r_info);
			if (rel.r_offset % sizeof(struct bpf_insn) || rel.r_offset >= t->sh.sh_size)
				return bad_at(c, at,
					      "relocation #%zu in '%s': offset 0x%llx is %s section "
					      "'%s' (size 0x%llx)", k, r->name,
					      (unsigned long long)rel.r_offset,
					      rel.r_offset >= t->sh.sh_size ? "outside" :
					      "not on an instruction of", t->name,
					      (unsigned long long)t->sh.sh_size);
			if (sym == 0 || sym >= c->sym_cnt)
				return bad_at(c, at, "relocation #%zu in '%s': symbol %zu does not "
					      "exist (%zu symbols)", k, r->name, sym, c->sym_cnt);
			t->rels[t->rel_cnt].insn = (uint32_t)(rel.r_offset / sizeof(struct bpf_insn));
			t->rels[t->rel_cnt].sym = (uint32_t)sym;
			t->rels[t->rel_cnt].nr = (uint32_t)k;
			t->rels[t->rel_cnt].addend = rel.r_addend;
			t->rel_cnt++;
		}
		qsort(t->rels, t->rel_cnt, sizeof(*t->rels), cmp_rel);
		for (size_t k = 1; k < t->rel_cnt; k++)
			if (t->rels[k].insn == t->rels[k - 1].insn)
				return bad_at(c, (long)(r->sh.sh_offset + t->rels[k].nr * esz),
					      "relocations #%u and #%u in '%s' both patch instruction "
					      "%u of '%s'", t->rels[k - 1].nr, t->rels[k].nr, r->name,
					      t->rels[k].insn, t->name);
	}
	return 0;
}

static const struct erel *find_rel(const struct esec *s, size_t insn)
{
	size_t lo = 0, hi = s->rel_cnt;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->rels[mid].insn == insn)
			return &s->rels[mid];
		if (s->rels[mid].insn < insn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

struct fsym {
	size_t sym;
	uint64_t off;
};

static int cmp_fsym(const void *a, const void *b)
{
	const struct fsym *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->sym < y->sym ? -1 : x->sym > y->sym;
}

static int add_func(struct elf_ctx *c, size_t *cap, size_t sec, size_t off, size_t cnt,
		    const char *name, bool global)
{
	if (c->func_cnt == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		struct efunc *nf = realloc(c->funcs, nc * sizeof(*nf));

		if (!nf)
			return diag_set(c->d, ENOMEM, "out of memory");
		c->funcs = nf;
		*cap = nc;
	}
	c->funcs[c->func_cnt++] = (struct efunc){ sec, off, cnt, name, global };
	return 0;
}

/* Functions of one code section, as libbpf splits it: one per function symbol (STT_FUNC, or a
 * global STT_NOTYPE symbol as older clang wrote them), st_size long, or up to the next symbol
 * when the size is 0 (older clang).  A section without such symbols is one function named after
 * the section. */
static int split_section(struct elf_ctx *c, size_t si, size_t *cap)
{
	const struct esec *s = &c->secs[si];
	struct fsym *v;
	size_t n = 0;
	int err = 0;

	v = calloc(c->sym_cnt ? c->sym_cnt : 1, sizeof(*v));
	if (!v)
		return diag_set(c->d, ENOMEM, "out of memory");
	for (size_t i = 1; i < c->sym_cnt; i++) {
		const GElf_Sym *sym = &c->syms[i];
		int type = GELF_ST_TYPE(sym->st_info), bind = GELF_ST_BIND(sym->st_info);

		if (sym->st_shndx != si)
			continue;
		if (type != STT_FUNC && !(type == STT_NOTYPE && bind != STB_LOCAL))
			continue;
		v[n].sym = i;
		v[n].off = sym->st_value;
		n++;
	}
	qsort(v, n, sizeof(*v), cmp_fsym);
	for (size_t k = 0; k < n; k++) {
		const GElf_Sym *sym = &c->syms[v[k].sym];
		const char *name = sym_name(c, v[k].sym);
		long at = (long)(c->secs[c->symtab].sh.sh_offset + v[k].sym * sizeof(Elf64_Sym));
		uint64_t end, next = s->sh.sh_size;
		size_t j = k + 1;

		if (k > 0 && v[k - 1].off == v[k].off)
			continue;	/* an alias of the previous function */
		while (j < n && v[j].off == v[k].off)
			j++;
		if (j < n)
			next = v[j].off;
		if (sym->st_value % sizeof(struct bpf_insn) ||
		    sym->st_size % sizeof(struct bpf_insn) || sym->st_value > s->sh.sh_size ||
		    sym->st_size > s->sh.sh_size - sym->st_value) {
			err = bad_at(c, at, "symbol '%s': offset 0x%llx size 0x%llx is not a whole "
				     "number of instructions inside section '%s' (size 0x%llx)",
				     name, (unsigned long long)sym->st_value,
				     (unsigned long long)sym->st_size, s->name,
				     (unsigned long long)s->sh.sh_size);
			goto out;
		}
		end = sym->st_size ? sym->st_value + sym->st_size : next;
		if (end > next) {
			err = bad_at(c, at, "symbol '%s' (offset 0x%llx size 0x%llx) overlaps the "
				     "function at 0x%llx in section '%s'", name,
				     (unsigned long long)sym->st_value,
				     (unsigned long long)sym->st_size, (unsigned long long)next,
				     s->name);
			goto out;
		}
		if (end == sym->st_value)
			continue;	/* empty */
		err = add_func(c, cap, si, sym->st_value / 8, (end - sym->st_value) / 8, name,
			       GELF_ST_BIND(sym->st_info) != STB_LOCAL);
		if (err)
			goto out;
	}
	if (n == 0 && s->insn_cnt)
		err = add_func(c, cap, si, 0, s->insn_cnt, s->name, true);
out:
	free(v);
	return err;
}

static int read_functions(struct elf_ctx *c)
{
	size_t cap = 0;
	int err;

	for (size_t i = 1; i < c->sec_cnt; i++)
		if (c->secs[i].kind == SEC_CODE && c->secs[i].insn_cnt &&
		    (err = split_section(c, i, &cap)))
			return err;
	return 0;
}

/* The function of section sec containing slot insn, or -1. */
static long func_at(const struct elf_ctx *c, size_t sec, uint64_t insn)
{
	size_t lo = 0, hi = c->func_cnt;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct efunc *f = &c->funcs[mid];

		if (f->sec < sec || (f->sec == sec && f->off + f->cnt <= insn))
			lo = mid + 1;
		else if (f->sec > sec || f->off > insn)
			hi = mid;
		else
			return (long)mid;
	}
	return -1;
}

/* ---- maps ---- */

static int add_map(struct elf_ctx *c, const struct ebpf_map_def *def, size_t sec, uint64_t off)
{
	struct ebpf_object *o = c->obj;

	if (o->map_cnt == c->map_cap) {
		size_t nc = c->map_cap ? c->map_cap * 2 : 8;
		struct ebpf_map_def *nm = realloc(o->maps, nc * sizeof(*nm));
		struct mloc *nl;

		if (!nm)
			return diag_set(c->d, ENOMEM, "out of memory");
		o->maps = nm;
		nl = realloc(c->mlocs, nc * sizeof(*nl));
		if (!nl)
			return diag_set(c->d, ENOMEM, "out of memory");
		c->mlocs = nl;
		c->map_cap = nc;
	}
	o->maps[o->map_cnt] = *def;
	c->mlocs[o->map_cnt] = (struct mloc){ .sec = sec, .off = off };
	o->map_cnt++;
	return 0;
}

/* Symbols naming maps in section si, sorted by offset, aliases dropped. */
static int map_symbols(struct elf_ctx *c, size_t si, struct fsym **out, size_t *cnt)
{
	struct fsym *v = calloc(c->sym_cnt ? c->sym_cnt : 1, sizeof(*v));
	size_t n = 0, m = 0;

	if (!v)
		return diag_set(c->d, ENOMEM, "out of memory");
	for (size_t i = 1; i < c->sym_cnt; i++) {
		int type = GELF_ST_TYPE(c->syms[i].st_info);

		if (c->syms[i].st_shndx != si || type == STT_SECTION || type == STT_FILE)
			continue;
		v[n].sym = i;
		v[n].off = c->syms[i].st_value;
		n++;
	}
	qsort(v, n, sizeof(*v), cmp_fsym);
	for (size_t k = 0; k < n; k++)
		if (m == 0 || v[m - 1].off != v[k].off)
			v[m++] = v[k];
	*out = v;
	*cnt = m;
	return 0;
}

/* struct bpf_map_def records in "maps": type, key_size, value_size, max_entries, map_flags, then
 * fields we do not need (inner map index, NUMA node, iproute2's id and pinning).  As libbpf did,
 * the record size is the section size over the number of map symbols. */
static int read_legacy_maps(struct elf_ctx *c, size_t si)
{
	const struct esec *s = &c->secs[si];
	const uint8_t *p = sec_bytes(c, si);
	struct fsym *v = NULL;
	size_t n, rec;
	int err;

	err = map_symbols(c, si, &v, &n);
	if (err)
		return err;
	if (n == 0)
		goto out;
	rec = s->sh.sh_size / n;
	if (s->sh.sh_size % n || rec < 4 * sizeof(uint32_t)) {
		err = bad_at(c, (long)s->sh.sh_offset,
			     "section '%s': %llu bytes do not divide into %zu map definitions of at "
			     "least 16 bytes", s->name, (unsigned long long)s->sh.sh_size, n);
		goto out;
	}
	for (size_t k = 0; k < n; k++) {
		struct ebpf_map_def def = { 0 };
		uint32_t f[8] = { 0 };
		const char *name = sym_name(c, v[k].sym);

		if (v[k].off > s->sh.sh_size || rec > s->sh.sh_size - v[k].off) {
			err = bad_at(c, (long)(s->sh.sh_offset + (v[k].off < s->sh.sh_size ?
								 v[k].off : 0)),
				     "map '%s': definition at 0x%llx (%zu bytes) runs past the end of "
				     "section '%s' (size 0x%llx)", name,
				     (unsigned long long)v[k].off, rec, s->name,
				     (unsigned long long)s->sh.sh_size);
			goto out;
		}
		for (size_t j = 0; j < 8 && (j + 1) * 4 <= rec; j++)
			f[j] = get_u32(p + v[k].off + j * 4);
		snprintf(def.name, sizeof(def.name), "%s", name);
		def.type = f[0];
		def.key_size = f[1];
		def.value_size = f[2];
		def.max_entries = f[3];
		def.flags = f[4];
		err = add_map(c, &def, si, v[k].off);
		if (err)
			goto out;
		c->mlocs[c->obj->map_cnt - 1].rec = (uint32_t)rec;
		c->mlocs[c->obj->map_cnt - 1].f5 = f[5];
		c->mlocs[c->obj->map_cnt - 1].f7 = f[7];
		if (!c->legacy_seen)
			c->legacy_base = c->obj->map_cnt - 1;
		c->legacy_seen = true;
	}
out:
	free(v);
	return err;
}

static bool is_map_of_maps(uint32_t type)
{
	return type == BPF_MAP_TYPE_ARRAY_OF_MAPS || type == BPF_MAP_TYPE_HASH_OF_MAPS;
}

/* The inner maps of legacy maps of maps, as their loaders find them: samples/bpf's bpf_load
 * and PREVAIL records of 28 bytes hold inner_map_idx (the index among the object's legacy
 * maps) after the flags; iproute2's struct bpf_elf_map (36 bytes: ..., flags, id, pinning,
 * inner_id, inner_idx) names the template by the id of another map (Cilium's maglev maps).
 * An index or id that names nothing, or names another map of maps, leaves it unknown. */
static void resolve_legacy_inner(struct elf_ctx *c)
{
	struct ebpf_object *o = c->obj;

	for (size_t i = 0; c->legacy_seen && i < o->map_cnt; i++) {
		const struct mloc *l = &c->mlocs[i];
		size_t t = SIZE_MAX;

		if (!l->rec || !is_map_of_maps(o->maps[i].type))
			continue;
		if (l->rec >= 24 && l->rec < 36 && c->legacy_base + l->f5 < o->map_cnt &&
		    c->mlocs[c->legacy_base + l->f5].rec)
			t = c->legacy_base + l->f5;
		for (size_t j = 0; l->rec >= 36 && l->f7 && j < o->map_cnt && t == SIZE_MAX; j++)
			if (j != i && c->mlocs[j].rec >= 36 && c->mlocs[j].f5 == l->f7)
				t = j;
		if (t != SIZE_MAX && t != i && !is_map_of_maps(o->maps[t].type))
			o->maps[i].inner = (uint32_t)t + 1;
	}
}

static const struct btf_type *skip_mods(const struct btf *btf, uint32_t id, uint32_t *res_id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	for (int guard = 0; t && guard < 64; guard++) {
		int k = btf_kind(t);

		if (k != BTF_KIND_TYPEDEF && k != BTF_KIND_VOLATILE && k != BTF_KIND_CONST &&
		    k != BTF_KIND_RESTRICT && k != BTF_KIND_TYPE_TAG)
			break;
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	if (res_id)
		*res_id = id;
	return t;
}

/* ebpf_map_def.timer of a map whose value is BTF type id: 1 + the offset of a struct bpf_timer
 * member of it (the kernel finds the field by the struct's name), 0 when it has none. */
static uint32_t btf_timer_of(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = skip_mods(btf, id, NULL);

	if (!t || !btf_is_struct(t))
		return 0;
	for (int i = 0; i < btf_vlen(t); i++) {
		const struct btf_type *mt = skip_mods(btf, btf_members(t)[i].type, NULL);
		const char *n = mt ? btf__name_by_offset(btf, mt->name_off) : NULL;
		uint32_t bit = btf_member_bit_offset(t, (uint32_t)i);

		if (mt && btf_is_struct(mt) && n && !strcmp(n, "bpf_timer") && !(bit % 64) &&
		    !btf_member_bitfield_size(t, (uint32_t)i))
			return bit / 8 + 1;
	}
	return 0;
}

/* The special fields of a map value of BTF type id (struct ebpf_map_field), as the kernel's
 * btf_parse_fields finds them: members that are a struct named bpf_spin_lock, bpf_timer, ...,
 * pointers tagged kptr, kptr_untrusted, percpu_kptr or uptr, in nested structs and arrays too
 * (each element), and the variables of a DATASEC (global data).  What the kernel may read
 * otherwise is marked, not guessed: a field in a union is EBPF_FIELD_UNSURE, and so is a struct
 * nested deeper than the walk goes.  The struct bpf_timer of def->timer is that one's. */
static const struct {
	const char *name;
	uint8_t kind;
} special_structs[] = {
	{ "bpf_spin_lock", EBPF_FIELD_SPIN_LOCK }, { "bpf_res_spin_lock", EBPF_FIELD_RES_SPIN_LOCK },
	{ "bpf_timer", EBPF_FIELD_TIMER }, { "bpf_wq", EBPF_FIELD_WQ },
	{ "bpf_task_work", EBPF_FIELD_TASK_WORK }, { "bpf_list_head", EBPF_FIELD_LIST_HEAD },
	{ "bpf_list_node", EBPF_FIELD_LIST_NODE }, { "bpf_rb_root", EBPF_FIELD_RB_ROOT },
	{ "bpf_rb_node", EBPF_FIELD_RB_NODE }, { "bpf_refcount", EBPF_FIELD_REFCOUNT },
};

/* The field kind of a pointer type ptr (kptr tags), with the struct it points to in obj;
 * EBPF_FIELD_NONE for a plain pointer. */
static uint8_t btf_kptr_kind(const struct btf *btf, const struct btf_type *ptr, char *obj,
			     size_t n)
{
	const struct btf_type *t = btf__type_by_id(btf, ptr->type);
	uint8_t kind = EBPF_FIELD_NONE;

	for (int guard = 0; t && guard < 64; guard++) {
		int k = btf_kind(t);

		if (k == BTF_KIND_TYPE_TAG) {
			const char *tag = btf__name_by_offset(btf, t->name_off);

			if (tag && !strcmp(tag, "kptr_untrusted"))
				kind = EBPF_FIELD_KPTR_UNREF;
			else if (tag && !strcmp(tag, "kptr"))
				kind = EBPF_FIELD_KPTR_REF;
			else if (tag && !strcmp(tag, "percpu_kptr"))
				kind = EBPF_FIELD_KPTR_PERCPU;
			else if (tag && !strcmp(tag, "uptr"))
				kind = EBPF_FIELD_UPTR;
		} else if (k != BTF_KIND_TYPEDEF && k != BTF_KIND_VOLATILE &&
			   k != BTF_KIND_CONST && k != BTF_KIND_RESTRICT) {
			break;
		}
		t = btf__type_by_id(btf, t->type);
	}
	if (kind && t) {
		const char *name = btf__name_by_offset(btf, t->name_off);

		snprintf(obj, n, "%s", name ? name : "");
	}
	return kind;
}

static void btf_fields_walk(const struct btf *btf, uint32_t id, uint32_t base, int depth,
			    bool in_union, struct ebpf_map_def *def)
{
	const struct btf_type *t = skip_mods(btf, id, NULL);
	uint32_t nelems = 1;
	long long esz;

	if (!t)
		return;
	/* arrays: each element (the kernel repeats a field over them) */
	while (btf_is_array(t)) {
		uint32_t elem = btf_array(t)->type;

		nelems = btf_array(t)->nelems > 0 && nelems <= UINT32_MAX / btf_array(t)->nelems
				 ? nelems * btf_array(t)->nelems : 0;
		t = skip_mods(btf, elem, &id);
		if (!t || !nelems)
			return;
	}
	if (btf_is_ptr(t)) {
		char obj[sizeof(def->fields[0].obj)] = "";
		uint8_t kind = btf_kptr_kind(btf, t, obj, sizeof(obj));

		for (uint32_t e = 0; kind && e < nelems && !def->fields_over; e++)
			ebpf_map_field_add(def, in_union ? EBPF_FIELD_UNSURE : kind, base + e * 8, 8,
					   obj);
		return;
	}
	if (!btf_is_composite(t) && !btf_is_datasec(t))
		return;
	esz = btf_is_datasec(t) ? 0 : t->size;
	if (btf_is_struct(t)) {
		const char *n = btf__name_by_offset(btf, t->name_off);

		for (size_t k = 0; n && k < sizeof(special_structs) / sizeof(special_structs[0]); k++) {
			if (strcmp(n, special_structs[k].name))
				continue;
			for (uint32_t e = 0; e < nelems && !def->fields_over; e++) {
				uint32_t off = base + e * (uint32_t)esz;

				/* (.timer's own) */
				if (special_structs[k].kind == EBPF_FIELD_TIMER && def->timer &&
				    def->timer - 1 == off && !in_union)
					continue;
				ebpf_map_field_add(def, in_union ? EBPF_FIELD_UNSURE
								 : special_structs[k].kind,
						   off, (uint32_t)esz, NULL);
			}
			return;
		}
	}
	for (uint32_t e = 0; e < nelems && !def->fields_over; e++) {
		uint32_t at = base + e * (uint32_t)esz;
		uint32_t before = def->nfields;

		if (depth >= 8) {
			/* (too deep to look: unsure when anything below may be special) */
			ebpf_map_field_add(def, EBPF_FIELD_UNSURE, at, (uint32_t)esz, NULL);
			return;
		}
		if (btf_is_datasec(t)) {
			const struct btf_var_secinfo *v = btf_var_secinfos(t);

			for (int i = 0; i < btf_vlen(t); i++, v++) {
				const struct btf_type *var = btf__type_by_id(btf, v->type);

				if (var && btf_is_var(var))
					btf_fields_walk(btf, var->type, at + v->offset, depth + 1,
							in_union, def);
			}
			continue;
		}
		for (int i = 0; i < btf_vlen(t); i++) {
			uint32_t bit = btf_member_bit_offset(t, (uint32_t)i);

			if (btf_member_bitfield_size(t, (uint32_t)i))
				continue;	/* (an integer) */
			btf_fields_walk(btf, btf_members(t)[i].type, at + bit / 8, depth + 1,
					in_union || btf_is_union(t), def);
		}
		if (def->nfields == before && e == 0)
			return;	/* (no element holds one) */
	}
}

static void btf_fields_of(const struct btf *btf, uint32_t id, struct ebpf_map_def *def)
{
	if (btf && id)
		btf_fields_walk(btf, id, 0, 0, false, def);
}

/* One argument or result type of a global function's prototype, as btf_prepare_func_args
 * tells them apart. */
static struct ebpf_func_arg func_arg_of(const struct btf *btf, uint32_t type)
{
	struct ebpf_func_arg a = { .kind = EBPF_FARG_OTHER };
	const struct btf_type *t = skip_mods(btf, type, NULL);
	uint32_t pid;

	if (!type || !t) {
		a.kind = EBPF_FARG_PTR_NOSIZE;	/* void (a result only) */
		return a;
	}
	if (btf_is_int(t) || btf_is_any_enum(t)) {
		a.kind = EBPF_FARG_INT;
		a.size = t->size;
	} else if (btf_is_ptr(t)) {
		const struct btf_type *p = skip_mods(btf, t->type, &pid);
		long long sz = p && t->type ? btf__resolve_size(btf, pid) : -1;

		a.kind = sz > 0 && sz <= UINT32_MAX ? EBPF_FARG_PTR : EBPF_FARG_PTR_NOSIZE;
		a.size = a.kind == EBPF_FARG_PTR ? (uint32_t)sz : 0;
		if (p && btf_is_composite(p))
			snprintf(a.tname, sizeof(a.tname), "%s", btf__name_by_offset(btf, p->name_off));
	}
	return a;
}

/* The prototype of function name when the object's BTF gives it global linkage (the kernel then
 * verifies it on its own); false when it is static or the BTF has no FUNC of that name. */
static bool global_func_of(const struct btf *btf, const char *name, struct ebpf_global_func *g)
{
	int id = btf ? btf__find_by_name_kind(btf, name, BTF_KIND_FUNC) : -1;
	const struct btf_type *f = id > 0 ? btf__type_by_id(btf, (uint32_t)id) : NULL;
	const struct btf_type *proto = f ? btf__type_by_id(btf, f->type) : NULL;
	const struct btf_param *p;

	/* (a FUNC's vlen is its linkage) */
	if (!f || btf_vlen(f) != BTF_FUNC_GLOBAL || !proto || !btf_is_func_proto(proto))
		return false;
	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "%s", name);
	g->nargs = (uint8_t)(btf_vlen(proto) < 255 ? btf_vlen(proto) : 255);
	g->ret = func_arg_of(btf, proto->type).kind;
	p = btf_params(proto);
	for (int k = 0; k < btf_vlen(proto) && k < 5; k++)
		g->args[k] = func_arg_of(btf, p[k].type);
	for (uint32_t t = 1; t < btf__type_cnt(btf); t++) {
		const struct btf_type *d = btf__type_by_id(btf, t);

		if (btf_is_decl_tag(d) && d->type == (uint32_t)id)
			g->tagged = true;
	}
	return true;
}

/* __uint(name, N) is "int (*name)[N]": N is the element count of the pointed-to array. */
static int btf_uint_field(const struct btf *btf, uint32_t type, uint32_t *val)
{
	const struct btf_type *t = skip_mods(btf, type, NULL);

	if (!t || !btf_is_ptr(t))
		return -EINVAL;
	t = skip_mods(btf, t->type, NULL);
	if (!t || !btf_is_array(t))
		return -EINVAL;
	*val = btf_array(t)->nelems;
	return 0;
}

/* The members of a map definition struct st; *inner_st, when not NULL, is set to the struct
 * of the inner map's definition a map of maps names in its "values" member (an array of
 * pointers to it), or NULL. */
static int btf_map_struct(const struct btf *btf, const struct btf_type *st,
			  struct ebpf_map_def *def, const char **why,
			  const struct btf_type **inner_st)
{
	const struct btf_member *m;
	bool has_values = false;

	if (inner_st)
		*inner_st = NULL;
	m = btf_members(st);
	for (int i = 0; i < btf_vlen(st); i++, m++) {
		const char *mn = btf__name_by_offset(btf, m->name_off);
		uint32_t *field = NULL;

		if (!mn)
			continue;
		if (!strcmp(mn, "type"))
			field = &def->type;
		else if (!strcmp(mn, "key_size"))
			field = &def->key_size;
		else if (!strcmp(mn, "value_size"))
			field = &def->value_size;
		else if (!strcmp(mn, "max_entries"))
			field = &def->max_entries;
		else if (!strcmp(mn, "map_flags"))
			field = &def->flags;
		if (field) {
			if (btf_uint_field(btf, m->type, field)) {
				*why = "a __uint() member is not a pointer to an array";
				return -EINVAL;
			}
		} else if (!strcmp(mn, "key") || !strcmp(mn, "value")) {
			const struct btf_type *p = skip_mods(btf, m->type, NULL);
			long long sz;

			if (!p || !btf_is_ptr(p) || (sz = btf__resolve_size(btf, p->type)) < 0 ||
			    sz > UINT32_MAX) {
				*why = "a __type() member is not a pointer to a sized type";
				return -EINVAL;
			}
			if (mn[0] == 'k') {
				def->key_size = (uint32_t)sz;
			} else {
				def->value_size = (uint32_t)sz;
				def->timer = btf_timer_of(btf, p->type);
				btf_fields_of(btf, p->type, def);
			}
		} else if (!strcmp(mn, "values")) {
			const struct btf_type *t = skip_mods(btf, m->type, NULL);

			has_values = true;
			/* __array(values, struct inner): struct inner *values[] */
			if (inner_st && t && btf_is_array(t) &&
			    (t = skip_mods(btf, btf_array(t)->type, NULL)) && btf_is_ptr(t) &&
			    (t = skip_mods(btf, t->type, NULL)) && btf_is_struct(t))
				*inner_st = t;
		}
	}
	/* Maps of maps and program arrays hold ids: 4-byte values unless declared. */
	if (has_values && !def->value_size)
		def->value_size = 4;
	return 0;
}

/* Reads one BTF-defined map the way libbpf's parse_btf_map_def does, for objects libbpf itself
 * refuses to open (extern functions without kernel BTF, .maps initialisers naming .text
 * functions).  Unknown members are ignored, as libbpf does for the ones it does not need here.
 * A map of maps' inner definition goes to *idef (type 0 when there is none). */
static int btf_map_def(const struct btf *btf, const char *name, struct ebpf_map_def *def,
		       struct ebpf_map_def *idef, const char **why)
{
	const struct btf_type *st, *ist = NULL;
	int id, err;

	id = btf__find_by_name_kind(btf, name, BTF_KIND_VAR);
	if (id <= 0) {
		*why = "no BTF variable of that name";
		return -ENOENT;
	}
	st = skip_mods(btf, btf__type_by_id(btf, id)->type, NULL);
	if (!st || !btf_is_struct(st)) {
		*why = "its BTF type is not a struct";
		return -EINVAL;
	}
	if ((err = btf_map_struct(btf, st, def, why, &ist)))
		return err;
	memset(idef, 0, sizeof(*idef));
	if (ist && (def->type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
		    def->type == BPF_MAP_TYPE_HASH_OF_MAPS)) {
		if ((err = btf_map_struct(btf, ist, idef, why, NULL)))
			return err;
		snprintf(idef->name, sizeof(idef->name), "%.57s.inner", name);
	}
	return 0;
}

/* Type ids a BTF type refers to; *by_value says whether the reference is by value (a struct
 * member, an array element, a typedef or modifier) rather than through a pointer or a function
 * signature.  Returns the count (at most 1 + vlen). */
static size_t btf_refs(const struct btf_type *t, uint32_t *out, bool *by_value)
{
	size_t n = 0;

	*by_value = true;
	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
	case BTF_KIND_FUNC:
	case BTF_KIND_FUNC_PROTO:
		*by_value = false;
		out[n++] = t->type;
		if (btf_kind(t) == BTF_KIND_FUNC_PROTO)
			for (int i = 0; i < btf_vlen(t); i++)
				out[n++] = btf_params(t)[i].type;
		return n;
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		out[n++] = t->type;
		return n;
	case BTF_KIND_ARRAY:
		out[n++] = btf_array(t)->type;
		out[n++] = btf_array(t)->index_type;
		return n;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		for (int i = 0; i < btf_vlen(t); i++)
			out[n++] = btf_members(t)[i].type;
		return n;
	case BTF_KIND_DATASEC:
		for (int i = 0; i < btf_vlen(t); i++)
			out[n++] = btf_var_secinfos(t)[i].type;
		return n;
	default:
		return 0;
	}
}

/* libbpf 1.1 trusts the BTF it parses: a member naming a type that does not exist, or a struct
 * that contains itself, crashes bpf_object__open_mem() or loops in it (later libbpf versions
 * validate).  So before handing it an object: every referenced type exists, every name is in
 * the string section, and by-value references (members, elements, typedefs, modifiers) form no
 * cycle.  Returns NULL when sane, else what is wrong. */
static const char *btf_insane(const struct btf *btf, char *why, size_t n)
{
	uint32_t cnt = btf__type_cnt(btf), *refs = NULL, *stack = NULL;
	uint8_t *color = NULL;	/* 0 unvisited, 1 on the DFS path, 2 done */
	const char *bad = NULL;

	refs = malloc((1 + 65536) * sizeof(*refs));
	stack = malloc(2 * (size_t)cnt * sizeof(*stack) + 2);
	color = calloc(cnt ? cnt : 1, 1);
	if (!refs || !stack || !color) {
		bad = "out of memory";
		goto out;
	}
	for (uint32_t id = 1; id < cnt && !bad; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		bool by_value;
		size_t k;

		if (!t || !btf__name_by_offset(btf, t->name_off)) {
			snprintf(why, n, "type %u: bad name offset", id);
			bad = why;
			break;
		}
		k = btf_refs(t, refs, &by_value);
		for (size_t i = 0; i < k; i++)
			if (refs[i] >= cnt) {
				snprintf(why, n, "type %u refers to type %u of %u", id, refs[i], cnt);
				bad = why;
				break;
			}
		if (btf_is_composite(t))
			for (int i = 0; i < btf_vlen(t) && !bad; i++)
				if (!btf__name_by_offset(btf, btf_members(t)[i].name_off)) {
					snprintf(why, n, "type %u member %d: bad name offset", id, i);
					bad = why;
				}
	}
	/* Cycles along by-value references: iterative DFS, (id, next ref) pairs on the stack. */
	for (uint32_t root = 1; root < cnt && !bad; root++) {
		size_t sp = 0;

		if (color[root])
			continue;
		stack[sp++] = root;
		stack[sp++] = 0;
		color[root] = 1;
		while (sp && !bad) {
			uint32_t id = stack[sp - 2], next = stack[sp - 1];
			const struct btf_type *t = btf__type_by_id(btf, id);
			bool by_value;
			size_t k = btf_refs(t, refs, &by_value);
			uint32_t r;

			if (!by_value || next >= k) {
				color[id] = 2;
				sp -= 2;
				continue;
			}
			stack[sp - 1]++;
			r = refs[next];
			if (r == 0 || color[r] == 2)
				continue;
			if (color[r] == 1) {
				snprintf(why, n, "type %u contains itself (through type %u)", r, id);
				bad = why;
				break;
			}
			color[r] = 1;
			stack[sp++] = r;
			stack[sp++] = 0;
		}
	}
out:
	free(refs);
	free(stack);
	free(color);
	return bad;
}

static bool no_libbpf_maps(void)
{
	const char *e = getenv("BPFSCEV_ELF_NO_LIBBPF");

	return e && *e && strcmp(e, "0");
}

/* BTF-defined maps.  Definitions come from libbpf when it opens the object; when it refuses (or
 * BPFSCEV_ELF_NO_LIBBPF=1 asks, so tests can compare both readers), from the .BTF section
 * directly through libbpf's BTF API.  Either way the .BTF section must exist and pass
 * btf_insane() first: libbpf 1.1 does not survive malformed BTF. */
static int read_btf_maps(struct elf_ctx *c, size_t si)
{
	const struct esec *s = &c->secs[si];
	struct bpf_object *bo = NULL;
	struct btf *btf = NULL;
	const char *insane;
	void *copy = NULL;
	char why[128];
	libbpf_print_fn_t old;
	struct fsym *v = NULL;
	size_t n;
	int err;

	err = map_symbols(c, si, &v, &n);
	if (err || n == 0)
		goto out;
	old = libbpf_set_print(libbpf_quiet);
	libbpf_last_warning[0] = '\0';
	for (size_t i = 1; i < c->sec_cnt && !btf; i++)
		if (!strcmp(c->secs[i].name, ".BTF") && c->secs[i].sh.sh_type == SHT_PROGBITS &&
		    c->secs[i].sh.sh_size <= UINT32_MAX) {
			btf = btf__new(sec_bytes(c, i), (uint32_t)c->secs[i].sh.sh_size);
			if (libbpf_get_error(btf))
				btf = NULL;
		}
	if (btf && (insane = btf_insane(btf, why, sizeof(why)))) {
		libbpf_set_print(old);
		err = bad_at(c, (long)s->sh.sh_offset, "section '%s': BTF-defined maps, but the .BTF "
			     "section is malformed: %s", s->name, insane);
		goto out;
	}
	if (btf && !no_libbpf_maps()) {
		LIBBPF_OPTS(bpf_object_open_opts, oo, .object_name = "bpfscev");

		/* libbpf hands the buffer to libelf as writable: give it its own. */
		copy = malloc(c->len);
		if (!copy) {
			libbpf_set_print(old);
			err = diag_set(c->d, ENOMEM, "out of memory");
			goto out;
		}
		memcpy(copy, c->buf, c->len);
		bo = bpf_object__open_mem(copy, c->len, &oo);
		if (libbpf_get_error(bo)) {
			bo = NULL;
			note(c, "libbpf refused the object (%s); BTF map definitions read from .BTF",
			     libbpf_last_warning[0] ? libbpf_last_warning : "no reason given");
		}
	}
	libbpf_set_print(old);
	if (!btf) {
		err = bad_at(c, (long)s->sh.sh_offset,
			     "section '%s': BTF-defined maps but no readable .BTF section%s%s",
			     s->name, libbpf_last_warning[0] ? ": " : "", libbpf_last_warning);
		goto out;
	}
	for (size_t k = 0; k < n; k++) {
		const char *name = sym_name(c, v[k].sym);
		struct ebpf_map_def def = { 0 };

		snprintf(def.name, sizeof(def.name), "%s", name);
		if (bo) {
			const struct bpf_map *m = bpf_object__find_map_by_name(bo, name);

			if (!m) {
				err = bad_at(c, (long)(s->sh.sh_offset + v[k].off),
					     "map '%s' in section '%s': libbpf does not know it",
					     name, s->name);
				goto out;
			}
			def.type = bpf_map__type(m);
			def.key_size = bpf_map__key_size(m);
			def.value_size = bpf_map__value_size(m);
			def.max_entries = bpf_map__max_entries(m);
			def.flags = bpf_map__map_flags(m);
			if (bpf_object__btf(bo)) {
				def.timer = btf_timer_of(bpf_object__btf(bo),
							 bpf_map__btf_value_type_id(m));
				btf_fields_of(bpf_object__btf(bo), bpf_map__btf_value_type_id(m),
					      &def);
			}
			err = add_map(c, &def, si, v[k].off);
			if (err)
				goto out;
			/* a map of maps: its template, as libbpf reads it from the "values"
			 * member, right after it */
			if (is_map_of_maps(def.type) && bpf_map__inner_map((struct bpf_map *)m)) {
				const struct bpf_map *im = bpf_map__inner_map((struct bpf_map *)m);
				struct ebpf_map_def idef = { 0 };

				snprintf(idef.name, sizeof(idef.name), "%.57s.inner", name);
				idef.type = bpf_map__type(im);
				idef.key_size = bpf_map__key_size(im);
				idef.value_size = bpf_map__value_size(im);
				idef.max_entries = bpf_map__max_entries(im);
				idef.flags = bpf_map__map_flags(im);
				if (bpf_object__btf(bo))
					btf_fields_of(bpf_object__btf(bo),
						      bpf_map__btf_value_type_id(im), &idef);
				c->obj->maps[c->obj->map_cnt - 1].inner = (uint32_t)c->obj->map_cnt + 1;
				err = add_map(c, &idef, SIZE_MAX, 0);
				if (err)
					goto out;
			}
			continue;
		} else {
			struct ebpf_map_def idef;
			const char *why = "";

			if (btf_map_def(btf, name, &def, &idef, &why)) {
				err = bad_at(c, (long)(s->sh.sh_offset + v[k].off),
					     "map '%s' in section '%s': %s", name, s->name, why);
				goto out;
			}
			if (idef.type)
				def.inner = (uint32_t)c->obj->map_cnt + 2;
			err = add_map(c, &def, si, v[k].off);
			if (!err && idef.type)
				err = add_map(c, &idef, SIZE_MAX, 0);
			if (err)
				goto out;
		}
	}
out:
	bpf_object__close(bo);
	btf__free(btf);
	free(copy);
	free(v);
	return err;
}

/* The special fields of global data: each variable of the section's DATASEC at its symbol's
 * offset, as libbpf fixes the DATASEC up (clang leaves the offsets 0); a variable with fields
 * and no such symbol makes the whole section unsure. */
static void data_fields(struct elf_ctx *c, const struct btf_type *ds, size_t si,
			struct ebpf_map_def *def)
{
	const struct btf_var_secinfo *vs = btf_var_secinfos(ds);

	for (int k = 0; k < btf_vlen(ds); k++, vs++) {
		const struct btf_type *var = btf__type_by_id(c->btf, vs->type);
		const char *vn = var && btf_is_var(var) ? btf__name_by_offset(c->btf, var->name_off)
							: NULL;
		struct ebpf_map_def probe = { 0 };
		size_t j;

		if (!vn)
			continue;
		btf_fields_walk(c->btf, var->type, 0, 1, false, &probe);
		if (!probe.nfields && !probe.fields_over)
			continue;
		for (j = 0; j < c->sym_cnt; j++)
			if (c->syms[j].st_shndx == si && c->sym_names[j] &&
			    !strcmp(c->sym_names[j], vn))
				break;
		if (j == c->sym_cnt || c->syms[j].st_value > def->value_size) {
			def->nfields = 0;
			def->fields_over = false;
			ebpf_map_field_add(def, EBPF_FIELD_UNSURE, 0, def->value_size, NULL);
			return;
		}
		btf_fields_walk(c->btf, var->type, (uint32_t)c->syms[j].st_value, 1, false, def);
	}
}

/* .data/.rodata/.bss: one-entry array maps the size of the section, as libbpf creates them. */
static int read_data_maps(struct elf_ctx *c)
{
	for (size_t i = 1; i < c->sec_cnt; i++) {
		struct esec *s = &c->secs[i];
		struct ebpf_map_def def = { 0 };
		int err;

		if (s->kind != SEC_DATA || s->sh.sh_size == 0)
			continue;
		if (s->sh.sh_size > UINT32_MAX)
			return bad_at(c, (long)s->sh.sh_offset, "section '%s': %llu bytes is too "
				      "large for a map value", s->name,
				      (unsigned long long)s->sh.sh_size);
		snprintf(def.name, sizeof(def.name), "%s", s->name);
		def.type = BPF_MAP_TYPE_ARRAY;
		def.key_size = 4;
		def.value_size = (uint32_t)s->sh.sh_size;
		def.max_entries = 1;
		if (has_prefix(s->name, ".rodata"))
			def.flags = BPF_F_RDONLY_PROG;
		/* (global data's special fields: its DATASEC's variables) */
		if (c->btf) {
			int id = btf__find_by_name_kind(c->btf, s->name, BTF_KIND_DATASEC);

			const struct btf_type *ds = id > 0 ? btf__type_by_id(c->btf, (uint32_t)id)
							   : NULL;

			if (ds)
				data_fields(c, ds, i, &def);
		}
		if (s->sh.sh_type != SHT_NOBITS) {
			def.init = malloc(s->sh.sh_size);
			if (!def.init)
				return diag_set(c->d, ENOMEM, "out of memory");
			memcpy(def.init, sec_bytes(c, i), s->sh.sh_size);
		}
		err = add_map(c, &def, i, 0);
		if (err) {
			free(def.init);
			return err;
		}
		s->map = (long)c->obj->map_cnt - 1;
	}
	return 0;
}

/* libbpf's cmp_externs for kconfig ones: alignment descending, size ascending, then name */
static int kcfg_cmp(const void *pa, const void *pb)
{
	const struct kcfg *a = pa, *b = pb;

	if (a->align != b->align)
		return a->align > b->align ? -1 : 1;
	if (a->sz != b->sz)
		return a->sz < b->sz ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The extern's value into v (sz bytes, zeroed), as libbpf's set_kcfg_value_tri/_num/_str read
 * the configuration; NULL, or why it stays 0. */
static const char *kcfg_value(const struct kcfg *e, uint8_t *v)
{
	char val[256];
	unsigned long long n;
	char *end;

	if (!strcmp(e->name, "LINUX_KERNEL_VERSION")) {
		uint32_t kv = ebpf_kernel_version();

		if (e->kind != KCFG_INT || e->sz != 4)
			return "LINUX_KERNEL_VERSION is not a 4-byte integer";
		memcpy(v, &kv, 4);
		return NULL;
	}
	if (!strncmp(e->name, "LINUX_", 6))
		return "a LINUX_ extern libbpf answers by probing the kernel (not modeled)";
	if (!ebpf_kconfig_value(e->name, val, sizeof(val)))
		return e->weak ? NULL : "no value in the kernel's configuration (libbpf refuses to "
				       "load it)";
	if ((val[0] == 'y' || val[0] == 'm' || val[0] == 'n') && !val[1]) {
		if (e->kind == KCFG_CHAR)
			v[0] = (uint8_t)val[0];
		else if (e->kind == KCFG_TRISTATE)
			v[0] = val[0] == 'y' ? 1 : val[0] == 'm' ? 2 : 0;
		else if (e->kind == KCFG_BOOL && val[0] != 'm')
			v[0] = val[0] == 'y';
		else
			return "a y/m/n value for an extern of another type";
		return NULL;
	}
	if (val[0] == '"') {
		size_t len = strlen(val);

		if (e->kind != KCFG_STR || len < 2 || val[len - 1] != '"')
			return "a string value for an extern that is not a char array";
		len -= 2;
		if (len >= e->sz)
			len = e->sz - 1;
		memcpy(v, val + 1, len);
		return NULL;
	}
	n = strtoull(val, &end, 0);
	if (*end || (e->kind != KCFG_INT && e->kind != KCFG_CHAR))
		return "a number for an extern that is not an integer";
	if (e->sz < 8 && (e->is_signed ? (long long)n >= 1ll << (e->sz * 8 - 1) ||
						 (long long)n < -(1ll << (e->sz * 8 - 1))
					 : n >> (e->sz * 8)))
		return "a value too large for the extern";
	memcpy(v, &n, e->sz);	/* (little-endian) */
	return NULL;
}

/* .kconfig externs (the object's BTF section ".kconfig"): one read-only array map, laid out and
 * filled as libbpf does (bpf_object__collect_externs, bpf_object__resolve_externs), whose values
 * the verifier knows (it is frozen) and the analysis does not (it reads map values as unknown). */
static int read_kconfig(struct elf_ctx *c)
{
	struct ebpf_map_def def = { 0 };
	const struct btf_var_secinfo *vs;
	const struct btf_type *ds;
	int id, err, n;

	c->kcfg_map = -1;
	if (!c->btf || (id = btf__find_by_name_kind(c->btf, ".kconfig", BTF_KIND_DATASEC)) <= 0)
		return 0;
	ds = btf__type_by_id(c->btf, (uint32_t)id);
	n = btf_vlen(ds);
	vs = btf_var_secinfos(ds);
	if (n <= 0)
		return 0;
	if (!(c->kcfg = calloc((size_t)n, sizeof(*c->kcfg))))
		return diag_set(c->d, ENOMEM, "out of memory");
	for (int k = 0; k < n; k++) {
		const struct btf_type *var = btf__type_by_id(c->btf, vs[k].type), *t;
		struct kcfg *e = &c->kcfg[c->kcfg_cnt];
		uint32_t tid;
		long long sz;
		int al;

		if (!var || !btf_is_var(var))
			continue;
		e->name = btf__name_by_offset(c->btf, var->name_off);
		t = skip_mods(c->btf, var->type, &tid);
		sz = btf__resolve_size(c->btf, var->type);
		al = btf__align_of(c->btf, var->type);
		if (!e->name || !t || sz <= 0 || al <= 0) {
			note(c, "extern '%s' in .kconfig: a type libbpf cannot lay out", e->name ? e->name : "?");
			continue;
		}
		e->sz = (uint32_t)sz;
		e->align = (uint32_t)al;
		if (btf_is_int(t)) {
			uint8_t enc = btf_int_encoding(t);

			/* (libbpf's find_kcfg_type: every other 1-byte integer is a char) */
			e->kind = enc & BTF_INT_BOOL ? KCFG_BOOL : sz == 1 ? KCFG_CHAR : KCFG_INT;
			e->is_signed = enc & BTF_INT_SIGNED;
		} else if (btf_is_enum(t) &&
			   !strcmp(btf__name_by_offset(c->btf, t->name_off), "libbpf_tristate")) {
			e->kind = KCFG_TRISTATE;
		} else if (btf_is_array(t)) {
			uint32_t eid;
			const struct btf_type *el = skip_mods(c->btf, btf_array(t)->type, &eid);

			if (!el || !btf_is_int(el) || el->size != 1) {
				note(c, "extern '%s' in .kconfig: an array of other than chars", e->name);
				continue;
			}
			e->kind = KCFG_STR;
		} else {
			note(c, "extern '%s' in .kconfig: a type libbpf does not take", e->name);
			continue;
		}
		for (size_t i = 0; i < c->sym_cnt; i++)
			if (c->syms[i].st_shndx == SHN_UNDEF && c->sym_names[i] &&
			    !strcmp(c->sym_names[i], e->name))
				e->weak = GELF_ST_BIND(c->syms[i].st_info) == STB_WEAK;
		c->kcfg_cnt++;
	}
	if (!c->kcfg_cnt)
		return 0;
	qsort(c->kcfg, c->kcfg_cnt, sizeof(*c->kcfg), kcfg_cmp);
	for (size_t k = 0, off = 0; k < c->kcfg_cnt; k++) {
		off = (off + c->kcfg[k].align - 1) / c->kcfg[k].align * c->kcfg[k].align;
		c->kcfg[k].off = (uint32_t)off;
		off += c->kcfg[k].sz;
		def.value_size = (uint32_t)off;
	}
	snprintf(def.name, sizeof(def.name), ".kconfig");
	def.type = BPF_MAP_TYPE_ARRAY;
	def.key_size = 4;
	def.max_entries = 1;
	def.flags = BPF_F_RDONLY_PROG;
	if (!(def.init = calloc(1, def.value_size)))
		return diag_set(c->d, ENOMEM, "out of memory");
	for (size_t k = 0; k < c->kcfg_cnt; k++) {
		const char *why = kcfg_value(&c->kcfg[k], def.init + c->kcfg[k].off);

		if (why)
			note(c, "extern '%s' in .kconfig: %s; it reads 0", c->kcfg[k].name, why);
	}
	if ((err = add_map(c, &def, SIZE_MAX, 0))) {
		free(def.init);
		return err;
	}
	c->kcfg_map = (long)c->obj->map_cnt - 1;
	return 0;
}

static long map_at(const struct elf_ctx *c, size_t sec, uint64_t off)
{
	for (size_t i = 0; i < c->obj->map_cnt; i++)
		if (c->mlocs[i].sec == sec && c->mlocs[i].off == off)
			return (long)i;
	return -1;
}

/* CO-RE records (.BTF.ext), each code section given its own.  The .BTF names the sections;
 * a malformed record, or one for a section that holds no code, is an error of the object. */
static int read_core(struct elf_ctx *c)
{
	size_t ext = 0, at = 0;
	char why[160];
	int err;

	for (size_t i = 1; i < c->sec_cnt; i++) {
		if (!strcmp(c->secs[i].name, ".BTF.ext") && c->secs[i].sh.sh_type == SHT_PROGBITS)
			ext = i;
		if (!c->btf && !strcmp(c->secs[i].name, ".BTF") &&
		    c->secs[i].sh.sh_type == SHT_PROGBITS && c->secs[i].sh.sh_size <= UINT32_MAX) {
			libbpf_print_fn_t old = libbpf_set_print(libbpf_quiet);

			c->btf = btf__new(sec_bytes(c, i), (uint32_t)c->secs[i].sh.sh_size);
			libbpf_set_print(old);
			if (libbpf_get_error(c->btf) || btf_insane(c->btf, why, sizeof(why)))
				btf__free(c->btf), c->btf = NULL;
		}
	}
	if (!ext)
		return 0;
	err = core_relos_read(&c->core, sec_bytes(c, ext), c->secs[ext].sh.sh_size, c->btf, why,
			      sizeof(why), &at);
	if (err == -ENOMEM)
		return diag_set(c->d, ENOMEM, "out of memory");
	if (err)
		return bad_at(c, (long)(c->secs[ext].sh.sh_offset + at), "section '.BTF.ext': %s",
			      why);
	for (size_t k = 0; k < c->core.cnt; k++) {
		const struct core_relo_sec *cs = &c->core.secs[k];
		size_t i;

		for (i = 1; i < c->sec_cnt; i++)
			if (c->secs[i].kind == SEC_CODE && !strcmp(c->secs[i].name, cs->name))
				break;
		if (i == c->sec_cnt)
			return bad_at(c, (long)c->secs[ext].sh.sh_offset, "section '.BTF.ext': CO-RE "
				      "records for '%s', which is not a code section", cs->name);
		if (cs->relos[cs->cnt - 1].insn >= c->secs[i].insn_cnt)
			return bad_at(c, (long)c->secs[ext].sh.sh_offset, "section '.BTF.ext': CO-RE "
				      "record for insn %u of '%s' (%zu instructions)",
				      cs->relos[cs->cnt - 1].insn, cs->name, c->secs[i].insn_cnt);
		c->secs[i].core = cs;
	}
	return 0;
}

/* ---- linking one program ---- */

struct link {
	struct elf_ctx *c;
	const struct efunc *main;
	struct bpf_insn *out;
	size_t len, cap;
	size_t *placed;		/* per function: where it was appended; 0 = not yet (as libbpf) */
	struct ebpf_kfunc_call *kfuncs;
	size_t kfunc_cnt, kfunc_cap;
	struct ebpf_global_func *globals;
	size_t global_cnt;
	struct diag why;	/* reason when the program is skipped */
	char unsupported[160];	/* first CO-RE relocation not applied ("" when none) */
	long unsupported_insn;
	long exc_fi;		/* the exception callback's function (main's BTF decl tag
				 * "exception_callback:NAME"); -1 when none */
};

static int append_func(struct link *l, size_t fi)
{
	const struct efunc *f = &l->c->funcs[fi];
	const struct esec *s = &l->c->secs[f->sec];

	if (l->len + f->cnt > EBPF_MAX_INSNS)
		return diag_set(&l->why, E2BIG, "with its subprograms the program exceeds %u slots",
				EBPF_MAX_INSNS);
	if (l->len + f->cnt > l->cap) {
		size_t nc = l->cap ? l->cap : 64;
		struct bpf_insn *ni;

		while (nc < l->len + f->cnt)
			nc *= 2;
		ni = realloc(l->out, nc * sizeof(*ni));
		if (!ni)
			return diag_set(&l->why, ENOMEM, "out of memory");
		l->out = ni;
		l->cap = nc;
	}
	memcpy(l->out + l->len, s->insns + f->off, f->cnt * sizeof(*l->out));
	l->len += f->cnt;
	return 0;
}

/* Resolves the call or function address at pc (slot i of function f) to a function index. */
static int call_target(struct link *l, const struct efunc *f, size_t i, size_t pc,
		       const struct erel *rel, long *target)
{
	struct elf_ctx *c = l->c;
	const struct bpf_insn *insn = &l->out[pc];
	bool is_call = !ebpf_is_ldimm64(insn);
	size_t tsec = f->sec;
	int64_t tslot;
	long fi;

	if (rel) {
		const GElf_Sym *sym = &c->syms[rel->sym];

		tsec = sym->st_shndx;
		if (rel->addend)
			return diag_at_insn(&l->why, EINVAL, (long)pc, "RELA relocation #%u to '%s' "
					    "has an addend (%lld) on a %s", rel->nr,
					    sym_name(c, rel->sym), (long long)rel->addend,
					    is_call ? "call" : "function address");
		if (is_call)	/* global functions: imm = -1; static: section symbol + imm */
			tslot = (int64_t)(sym->st_value / 8) + insn->imm + 1;
		else if (((int64_t)sym->st_value + insn->imm) % 8)
			return diag_at_insn(&l->why, EINVAL, (long)pc, "function address '%s'%+d "
					    "is not on an instruction", sym_name(c, rel->sym),
					    insn->imm);
		else
			tslot = ((int64_t)sym->st_value + insn->imm) / 8;
	} else {
		/* No relocation: a call inside the caller's own section, imm relative. */
		tslot = (int64_t)(f->off + i) + insn->imm + 1;
	}
	if (tsec == 0 || tsec >= c->sec_cnt || c->secs[tsec].kind != SEC_CODE)
		return diag_at_insn(&l->why, EINVAL, (long)pc, "%s target is not in a code section",
				    is_call ? "call" : "function address");
	if (tslot < 0 || (uint64_t)tslot >= c->secs[tsec].insn_cnt)
		return diag_at_insn(&l->why, EINVAL, (long)pc,
				    "%s target %lld is outside section '%s' (%zu instructions)",
				    is_call ? "call" : "function address", (long long)tslot,
				    c->secs[tsec].name, c->secs[tsec].insn_cnt);
	fi = func_at(c, tsec, (uint64_t)tslot);
	if (fi < 0 || c->funcs[fi].off != (uint64_t)tslot)
		return diag_at_insn(&l->why, EINVAL, (long)pc,
				    "%s target %s+%lld is not the start of a function%s%s",
				    is_call ? "call" : "function address", c->secs[tsec].name,
				    (long long)tslot, fi < 0 ? "" : ": it is inside ",
				    fi < 0 ? "" : c->funcs[fi].name);
	*target = fi;
	return 0;
}

/* Whether the LD_IMM64's source field says it loads a map or a map value. */
static bool names_map(const struct bpf_insn *insn)
{
	return insn->src_reg == BPF_PSEUDO_MAP_FD || insn->src_reg == BPF_PSEUDO_MAP_VALUE ||
	       insn->src_reg == BPF_PSEUDO_MAP_IDX || insn->src_reg == BPF_PSEUDO_MAP_IDX_VALUE;
}

/* An LD_IMM64 with a relocation to a map or global data becomes a pseudo map load (*mapped
 * says so); other relocations leave it as it is. */
static int relocate_ldimm64(struct link *l, size_t pc, const struct erel *rel, bool *mapped)
{
	struct elf_ctx *c = l->c;
	const GElf_Sym *sym = &c->syms[rel->sym];
	const char *name = sym_name(c, rel->sym);
	struct bpf_insn *insn = &l->out[pc];
	const struct esec *s;
	long m;

	if (sym->st_shndx == SHN_UNDEF) {
		for (size_t k = 0; k < c->kcfg_cnt; k++)
			if (!strcmp(c->kcfg[k].name, name)) {
				/* as libbpf: the .kconfig map at the extern's offset */
				insn[0].src_reg = BPF_PSEUDO_MAP_VALUE;
				insn[0].imm = (int32_t)c->kcfg_map;
				insn[1].imm = (int32_t)c->kcfg[k].off;
				*mapped = true;
				return 0;
			}
		note(c, "prog '%s': insn %zu: extern '%s' left unresolved (loads 0)", l->main->name,
		     pc, name);
		return 0;
	}
	if (sym->st_shndx >= c->sec_cnt) {
		note(c, "prog '%s': insn %zu: relocation to '%s' (special section 0x%x) left as is",
		     l->main->name, pc, name, sym->st_shndx);
		return 0;
	}
	s = &c->secs[sym->st_shndx];
	switch (s->kind) {
	case SEC_LEGACY_MAPS:
	case SEC_BTF_MAPS:
		m = map_at(c, sym->st_shndx, (uint64_t)(rel->addend +
				(GELF_ST_TYPE(sym->st_info) == STT_SECTION ? insn->imm :
									     (int64_t)sym->st_value)));
		if (m < 0)
			return diag_at_insn(&l->why, EINVAL, (long)pc,
					    "map relocation to '%s' in '%s' names no map", name,
					    s->name);
		insn[0].src_reg = BPF_PSEUDO_MAP_FD;
		insn[0].imm = (int32_t)m;
		insn[1].imm = 0;
		*mapped = true;
		return 0;
	case SEC_DATA:
		if (s->map < 0)
			break;
		insn[0].src_reg = BPF_PSEUDO_MAP_VALUE;
		insn[1].imm = (int32_t)((int64_t)insn[0].imm + (int64_t)sym->st_value + rel->addend);
		insn[0].imm = (int32_t)s->map;
		*mapped = true;
		return 0;
	case SEC_CODE:
		return diag_at_insn(&l->why, EINVAL, (long)pc,
				    "LD_IMM64 refers to code '%s' but is not a function address "
				    "(src_reg %u, not BPF_PSEUDO_FUNC)", name, insn->src_reg);
	default:
		break;
	}
	note(c, "prog '%s': insn %zu: relocation to '%s' in section '%s' left unresolved",
	     l->main->name, pc, name, s->name);
	return 0;
}

/* A call to an extern function at pc: a kfunc call with the running kernel's BTF id for the
 * name (libbpf's bpf_object__resolve_ksym_func_btf_id, vmlinux only), 0 when it has none. */
static int add_kfunc(struct link *l, size_t pc, const char *name)
{
	struct bpf_insn *insn = &l->out[pc];
	struct ebpf_kfunc_call *k;
	int32_t id = ebpf_kfunc_by_name(name);

	if (l->kfunc_cnt == l->kfunc_cap) {
		size_t nc = l->kfunc_cap ? l->kfunc_cap * 2 : 4;
		struct ebpf_kfunc_call *nk = realloc(l->kfuncs, nc * sizeof(*nk));

		if (!nk)
			return diag_set(&l->why, ENOMEM, "out of memory");
		l->kfuncs = nk;
		l->kfunc_cap = nc;
	}
	k = &l->kfuncs[l->kfunc_cnt++];
	memset(k, 0, sizeof(*k));
	k->insn = (uint32_t)pc;
	k->btf_id = id > 0 ? id : 0;
	snprintf(k->name, sizeof(k->name), "%s", name);
	insn->src_reg = BPF_PSEUDO_KFUNC_CALL;
	insn->off = 0;
	insn->imm = k->btf_id;
	if (id <= 0)
		note(l->c, "prog '%s': insn %zu: call to extern '%s' left as an unresolved kfunc "
		     "call (%s)", l->main->name, pc, name,
		     id == -ENODATA ? "no vmlinux BTF" : "the running kernel has no such function");
	return 0;
}

/* Walks function f appended at base: relocates data references and appends callees depth
 * first, exactly in libbpf's order (bpf_object__reloc_code), with an explicit stack so deep call
 * chains in hostile files cannot exhaust ours. */
/* The CO-RE records of slot si of section s, applied at pc of the program being linked against
 * the running kernel's BTF (loaded at the first record).  A record not applied marks the program
 * unsupported: its instructions are not the ones libbpf would load. */
static void core_relocate(struct link *l, const struct esec *s, size_t si, size_t pc)
{
	struct elf_ctx *c = l->c;
	const struct core_relo *r;
	char why[160];
	size_t n;

	r = core_relos_at(s->core, (uint32_t)si, &n);
	if (!n)
		return;
	if (!c->target_loaded) {
		core_target_load(&c->target);
		c->target_loaded = true;
	}
	for (size_t k = 0; k < n; k++) {
		if (!core_relo_apply(&r[k], &l->out[pc], l->len - pc, c->btf, &c->target, why,
				     sizeof(why)) || l->unsupported[0])
			continue;
		snprintf(l->unsupported, sizeof(l->unsupported), "CO-RE relocation not applied "
			 "(insn %zu, %s): %.100s", pc, core_kind_name(r[k].kind), why);
		l->unsupported_insn = (long)pc;
	}
}

/* The exception callback main_fi names with its BTF decl tag "exception_callback:NAME", as
 * libbpf finds it (bpf_object__relocate: appended after main's subprograms, with its own) and
 * the kernel reads it (bpf_find_exception_callback_insn_off): l->exc_fi, or -1 when there is
 * no tag.  A tag the kernel or libbpf refuses (two tags, a name that is no function of the
 * object) makes the program unsupported with the reason. */
static void find_exc_cb(struct link *l, size_t main_fi)
{
	const struct btf *btf = l->c->btf;
	const char *name = NULL;
	int id, tags = 0;

	l->exc_fi = -1;
	id = btf ? btf__find_by_name_kind(btf, l->c->funcs[main_fi].name, BTF_KIND_FUNC) : -1;
	for (uint32_t t = 1; id > 0 && t < btf__type_cnt(btf); t++) {
		const struct btf_type *d = btf__type_by_id(btf, t);
		const char *v;

		if (!btf_is_decl_tag(d) || d->type != (uint32_t)id ||
		    btf_decl_tag(d)->component_idx != -1)
			continue;
		v = btf__name_by_offset(btf, d->name_off);
		if (v && !strncmp(v, "exception_callback:", 19)) {
			name = v + 19;
			tags++;
		}
	}
	if (!tags)
		return;
	if (tags > 1) {
		snprintf(l->unsupported, sizeof(l->unsupported), "multiple exception callback tags "
			 "for main subprog (the kernel refuses the program)");
		l->unsupported_insn = 0;
		return;
	}
	for (size_t fi = 0; fi < l->c->func_cnt; fi++)
		if (fi != main_fi && !strcmp(l->c->funcs[fi].name, name)) {
			l->exc_fi = (long)fi;
			return;
		}
	snprintf(l->unsupported, sizeof(l->unsupported), "exception callback '%.60s' is no "
		 "function of the object", name);
	l->unsupported_insn = 0;
}

static int link_prog(struct link *l, size_t main_fi)
{
	struct elf_ctx *c = l->c;
	struct frame {
		size_t fi, base, i;
	} *stack;
	size_t depth = 0;
	int err = 0;

	/* Each function is pushed once, the main function at most twice (libbpf appends a copy of
	 * it when it is called recursively): func_cnt + 1 frames. */
	stack = calloc(c->func_cnt + 1, sizeof(*stack));
	if (!stack)
		return diag_set(&l->why, ENOMEM, "out of memory");
	err = append_func(l, main_fi);
	if (err)
		goto out;
	stack[depth++] = (struct frame){ main_fi, 0, 0 };
	while (depth || (l->exc_fi >= 0 && !l->placed[l->exc_fi])) {
		if (!depth) {	/* (the exception callback after main's subprograms: libbpf's) */
			size_t fi = (size_t)l->exc_fi;

			l->placed[fi] = l->len;
			if ((err = append_func(l, fi)))
				goto out;
			stack[depth++] = (struct frame){ fi, l->placed[fi], 0 };
		}
		struct frame *fr = &stack[depth - 1];
		const struct efunc *f = &c->funcs[fr->fi];
		const struct esec *s = &c->secs[f->sec];
		size_t i = fr->i, pc = fr->base + i;
		const struct erel *rel;
		struct bpf_insn *insn;
		long target = -1;

		if (i >= f->cnt) {
			depth--;
			continue;
		}
		insn = &l->out[pc];
		fr->i += ebpf_is_ldimm64(insn) ? 2 : 1;
		rel = find_rel(s, f->off + i);
		core_relocate(l, s, f->off + i, pc);
		if (ebpf_is_ldimm64(insn) && i + 1 >= f->cnt) {
			err = diag_at_insn(&l->why, EINVAL, (long)pc,
					   "LD_IMM64 is cut off by the end of function '%s'", f->name);
			goto out;
		}
		/* clang before 15 writes a callback's address (bpf_loop(n, cb, ...)) as a plain
		 * LD_IMM64 with a relocation into a code section; libbpf marks it BPF_PSEUDO_FUNC,
		 * and so do we (static functions: the section symbol + imm bytes; global ones: the
		 * function symbol + imm). */
		if (ebpf_is_ldimm64(insn) && rel && insn->src_reg == 0 &&
		    c->syms[rel->sym].st_shndx != SHN_UNDEF &&
		    c->syms[rel->sym].st_shndx < c->sec_cnt &&
		    c->secs[c->syms[rel->sym].st_shndx].kind == SEC_CODE) {
			if (insn[1].imm) {
				err = diag_at_insn(&l->why, EINVAL, (long)pc,
						   "function address '%s' has a non-zero upper "
						   "half (%d)", sym_name(c, rel->sym), insn[1].imm);
				goto out;
			}
			insn->src_reg = BPF_PSEUDO_FUNC;
		}
		if (ebpf_is_ldimm64(insn) && insn->src_reg != BPF_PSEUDO_FUNC) {
			bool mapped = false;

			if (rel && (err = relocate_ldimm64(l, pc, rel, &mapped)))
				goto out;
			if (!mapped && names_map(insn)) {
				/* a map reference in the bytes themselves names no map of this
				 * object (found by the AFL++ elf target, and by libFuzzer with a
				 * relocation that is left unresolved) */
				err = diag_at_insn(&l->why, EINVAL, (long)pc,
						   "LD_IMM64 with map source %u that no map "
						   "relocation sets: it names no map of the object",
						   insn->src_reg);
				goto out;
			}
			continue;
		}
		if (rel && !ebpf_is_ldimm64(insn) && !ebpf_is_call(insn)) {
			err = diag_at_insn(&l->why, EINVAL, (long)pc,
					   "relocation #%u of '%s' patches an instruction that is "
					   "neither LD_IMM64 nor a call (code 0x%02x)", rel->nr,
					   s->rel_name, insn->code);
			goto out;
		}
		if (ebpf_is_call(insn) && rel && insn->src_reg != BPF_PSEUDO_CALL) {
			err = diag_at_insn(&l->why, EINVAL, (long)pc,
					   "relocation to '%s' on a call that is not a BPF-to-BPF "
					   "call (src_reg %u)", sym_name(c, rel->sym), insn->src_reg);
			goto out;
		}
		if (!ebpf_is_pseudo_call(insn) && !ebpf_is_ldimm64(insn))
			continue;
		if (rel && c->syms[rel->sym].st_shndx == SHN_UNDEF) {
			if (ebpf_is_ldimm64(insn)) {
				note(c, "prog '%s': insn %zu: address of extern function '%s' left "
				     "unresolved", l->main->name, pc, sym_name(c, rel->sym));
				continue;
			}
			/* libbpf makes a call to an extern a kfunc call; the id is the kernel's. */
			err = add_kfunc(l, pc, sym_name(c, rel->sym));
			if (err)
				goto out;
			continue;
		}
		err = call_target(l, f, i, pc, rel, &target);
		if (err)
			goto out;
		if (l->placed[target] == 0) {
			l->placed[target] = l->len;
			err = append_func(l, (size_t)target);
			if (err)
				goto out;
			stack[depth++] = (struct frame){ (size_t)target, l->placed[target], 0 };
		}
		l->out[pc].imm = (int32_t)((long)l->placed[target] - (long)pc - 1);
	}
out:
	free(stack);
	return err;
}

/* The global functions the program main_fi was linked with (libbpf hands the kernel the
 * object's BTF with them, and the kernel verifies each on its own). */
static int link_globals(struct link *l, size_t main_fi)
{
	struct elf_ctx *c = l->c;
	size_t n = 0;

	for (size_t fi = 0; fi < c->func_cnt; fi++)
		n += fi != main_fi && l->placed[fi] && c->funcs[fi].global;
	if (!n || !c->btf)
		return 0;
	l->globals = calloc(n, sizeof(*l->globals));
	if (!l->globals)
		return diag_set(&l->why, ENOMEM, "out of memory");
	for (size_t fi = 0; fi < c->func_cnt; fi++)
		if (fi != main_fi && l->placed[fi] && c->funcs[fi].global &&
		    global_func_of(c->btf, c->funcs[fi].name, &l->globals[l->global_cnt])) {
			l->globals[l->global_cnt].insn = (uint32_t)l->placed[fi];
			l->globals[l->global_cnt].exc_cb = (long)fi == l->exc_fi;
			l->global_cnt++;
		}
	return 0;
}

/* Records a program left out (struct ebpf_skipped_prog); -ENOMEM when it cannot. */
static int add_skipped(struct ebpf_object *o, const char *name, const char *sec,
		       const char *where, const char *why)
{
	struct ebpf_skipped_prog *v = realloc(o->skipped, (o->skipped_cnt + 1) * sizeof(*v)), *p;

	if (!v)
		return -ENOMEM;
	o->skipped = v;
	p = &v[o->skipped_cnt++];
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->section, sizeof(p->section), "%s", sec);
	snprintf(p->reason, sizeof(p->reason), "%s%s", where, why);
	return 0;
}

static int add_prog(struct elf_ctx *c, size_t fi, size_t *cap)
{
	const struct efunc *f = &c->funcs[fi];
	const char *sec = c->secs[f->sec].name;
	struct ebpf_object *o = c->obj;
	struct link l = { .c = c, .main = f };
	struct ebpf_prog *p;
	int err;

	diag_clear(&l.why);
	l.placed = calloc(c->func_cnt, sizeof(*l.placed));
	if (!l.placed)
		return diag_set(c->d, ENOMEM, "out of memory");
	find_exc_cb(&l, fi);
	err = link_prog(&l, fi);
	if (!err)
		err = ebpf_validate(l.out, l.len, &l.why);
	if (!err)
		err = link_globals(&l, fi);
	if (!err && l.exc_fi >= 0 && !l.unsupported[0] &&
	    !(l.globals && ebpf_prog_exc_cb(&(struct ebpf_prog){ .globals = l.globals,
							     .global_cnt = l.global_cnt }))) {
		snprintf(l.unsupported, sizeof(l.unsupported), "exception callback '%.60s' must "
			 "have global linkage (the kernel refuses the program)",
			 c->funcs[l.exc_fi].name);
		l.unsupported_insn = 0;
	}
	free(l.placed);
	if (err) {
		free(l.kfuncs);
		free(l.globals);
	}
	if (err == -ENOMEM) {
		free(l.out);
		return diag_set(c->d, ENOMEM, "out of memory");
	}
	if (err) {
		char where[32] = "";

		if (l.why.insn >= 0)
			snprintf(where, sizeof(where), "insn %ld: ", l.why.insn);
		note(c, "prog '%s' (section '%s'): skipped: %s%s", f->name, sec, where, l.why.msg);
		if (add_skipped(c->obj, f->name, sec, where, l.why.msg)) {
			free(l.out);
			return diag_set(c->d, ENOMEM, "out of memory");
		}
		if (c->skipped++ == 0) {
			c->first_skip = l.why;
			snprintf(c->first_skip.msg, sizeof(c->first_skip.msg),
				 "program '%s' in section '%s': %.400s", f->name, sec, l.why.msg);
		}
		free(l.out);
		return 0;
	}
	if (o->prog_cnt == *cap) {
		size_t nc = *cap ? *cap * 2 : 8;
		struct ebpf_prog *np = realloc(o->progs, nc * sizeof(*np));

		if (!np) {
			free(l.out);
			free(l.kfuncs);
			free(l.globals);
			return diag_set(c->d, ENOMEM, "out of memory");
		}
		o->progs = np;
		*cap = nc;
	}
	p = &o->progs[o->prog_cnt++];
	memset(p, 0, sizeof(*p));
	/* SEC("?raw_tp"): a leading '?' only turns off libbpf's autoload, and libbpf forgets it
	 * before it reads the type from the name (bpf_object__init_prog); so do we */
	if (sec[0] == '?')
		sec++;
	snprintf(p->name, sizeof(p->name), "%s", f->name);
	snprintf(p->section, sizeof(p->section), "%s", sec);
	if (f->sec != c->text) {
		const char *from;

		p->prog_type = prog_type_of(sec, &from);
		snprintf(p->type_from, sizeof(p->type_from), "%s", from);
		if (ebpf_prog_type_btf_ctx(p->prog_type))
			ebpf_btf_ctx_resolve(&p->btf_ctx, sec);
	}
	p->insns = l.out;
	p->len = l.len;
	p->kfuncs = l.kfuncs;
	p->kfunc_cnt = l.kfunc_cnt;
	p->globals = l.globals;
	p->global_cnt = l.global_cnt;
	snprintf(p->unsupported, sizeof(p->unsupported), "%s", l.unsupported);
	p->unsupported_insn = l.unsupported[0] ? l.unsupported_insn : -1;
	return 0;
}

/* Programs: every function outside .text, in section then offset order (libbpf's order).  An
 * object whose code is all in .text has its global functions as programs (all functions when
 * none is global): PREVAIL's samples are built that way. */
static int add_progs(struct elf_ctx *c)
{
	size_t cap = 0, total = 0;
	bool only_text = true, any_global = false;
	int err;

	for (size_t i = 0; i < c->func_cnt; i++) {
		if (c->funcs[i].sec != c->text)
			only_text = false;
		else if (c->funcs[i].global)
			any_global = true;
	}
	for (size_t i = 0; i < c->func_cnt; i++) {
		const struct efunc *f = &c->funcs[i];

		if (only_text ? any_global && !f->global : f->sec == c->text)
			continue;
		total++;
		err = add_prog(c, i, &cap);
		if (err)
			return err;
	}
	if (total == 0)
		return diag_set(c->d, ENOENT, "no programs: the object has no code");
	if (c->obj->prog_cnt == 0) {
		if (c->d) {
			*c->d = c->first_skip;
			diag_set_file(c->d, c->obj->path);
			if (total > 1) {
				size_t n = strlen(c->d->msg);

				snprintf(c->d->msg + n, sizeof(c->d->msg) - n,
					 " (and %zu more programs rejected)", total - 1);
			}
		}
		return -EINVAL;
	}
	return 0;
}

int ebpf_elf_open(struct ebpf_object *obj, const void *data, size_t len, struct diag *d)
{
	struct elf_ctx c = { .obj = obj, .d = d, .len = len };
	int err;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return diag_set(d, ENOSYS, "libelf: %s", elf_errmsg(-1));
	c.buf = malloc(len ? len : 1);
	if (!c.buf)
		return diag_set(d, ENOMEM, "out of memory");
	memcpy(c.buf, data, len);
	if ((err = read_header(&c)) || (err = read_sections(&c)) || (err = read_symbols(&c)) ||
	    (err = read_code(&c)) || (err = read_relocations(&c)) || (err = read_functions(&c)) ||
	    (err = read_core(&c)))
		goto out;
	for (size_t i = 1; i < c.sec_cnt; i++) {
		if (c.secs[i].kind == SEC_LEGACY_MAPS)
			err = read_legacy_maps(&c, i);
		else if (c.secs[i].kind == SEC_BTF_MAPS)
			err = read_btf_maps(&c, i);
		if (err)
			goto out;
	}
	resolve_legacy_inner(&c);
	if ((err = read_data_maps(&c)) || (err = read_kconfig(&c)) || (err = add_progs(&c)))
		goto out;
	ebpf_object__decide_types(obj);
out:
	if (!err && c.notes.len && !c.notes.oom)
		obj->notes = sbuf_detach(&c.notes);
	sbuf_free(&c.notes);
	for (size_t i = 0; i < c.sec_cnt; i++) {
		free(c.secs[i].insns);
		free(c.secs[i].rels);
	}
	free(c.secs);
	core_relos_free(&c.core);
	btf__free(c.btf);
	core_target_free(&c.target);
	free(c.syms);
	free(c.sym_names);
	free(c.funcs);
	free(c.mlocs);
	free(c.kcfg);
	elf_end(c.elf);
	free(c.buf);
	return err;
}
