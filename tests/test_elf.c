/* ELF loading (bpf/elf.c): every public sample object opens or is rejected with a reason; exact
 * facts about linking, maps and program types on known objects; the objects compiled from the C
 * files in tests/bpf checked against llvm-objdump; malformed files (targeted corruptions, every
 * truncation, random mutations) rejected with a located message and never a crash (run under
 * ASan).
 *
 * Environment: BPFSCEV_SAMPLES_DIR (set by CMake from BPFSCEV_SHARED_DIR), BPFSCEV_TEST_BPF_DIR
 * (objects built from tests/bpf, set by CMake when clang is found), BPFSCEV_LLVM_OBJDUMP.  With
 * neither the samples nor the objects there is nothing to open: the test is reported as skipped
 * (exit 77); with one of them it passes, saying which part it skipped.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpf/prog.h"
#include "check.h"

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc(n ? (size_t)n : 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)n;
	}
	fclose(f);
	return buf;
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static bool contains(const char *s, const char *needle)
{
	return s && strstr(s, needle);
}

static long map_index(const struct ebpf_object *o, const char *name)
{
	for (size_t i = 0; i < o->map_cnt; i++)
		if (!strcmp(o->maps[i].name, name))
			return (long)i;
	return -1;
}

static void check_map(const struct ebpf_object *o, const char *name, uint32_t type, uint32_t key,
		      uint32_t value, uint32_t max, const char *ctx)
{
	long i = map_index(o, name);

	CHECK(i >= 0, "%s: no map '%s'", ctx, name);
	if (i < 0)
		return;
	CHECK_EQ_U64(o->maps[i].type, type, ctx);
	CHECK_EQ_U64(o->maps[i].key_size, key, ctx);
	CHECK_EQ_U64(o->maps[i].value_size, value, ctx);
	CHECK_EQ_U64(o->maps[i].max_entries, max, ctx);
}

/* What must hold for every program the loader accepts. */
static void check_prog_sane(const struct ebpf_object *o, const struct ebpf_prog *p, const char *ctx)
{
	struct diag d;

	diag_clear(&d);
	CHECK(p->len > 0 && p->insns, "%s: prog '%s' is empty", ctx, p->name);
	CHECK(ebpf_validate(p->insns, p->len, &d) == 0, "%s: prog '%s' fails validation: %s", ctx,
	      p->name, d.msg);
	for (size_t pc = 0; pc < p->len; pc += ebpf_insn_slots(&p->insns[pc])) {
		const struct bpf_insn *i = &p->insns[pc];

		if (ebpf_is_ldimm64(i) &&
		    (i->src_reg == BPF_PSEUDO_MAP_FD || i->src_reg == BPF_PSEUDO_MAP_VALUE))
			CHECK(i->imm >= 0 && (size_t)i->imm < o->map_cnt,
			      "%s: prog '%s' insn %zu: map index %d of %zu", ctx, p->name, pc, i->imm,
			      o->map_cnt);
	}
}

static int open_buf(struct ebpf_object **o, const void *buf, size_t len, const char *name,
		    struct diag *d)
{
	diag_clear(d);
	return ebpf_object__open_mem(o, buf, len, name, d);
}

/* ---- the public samples ---- */

/* invalid/ holds fuzzer reproducers from PREVAIL's pipeline.  These three crashed or timed out its
 * verifier, not its loader: their ELF structure and code are intact (checked by hand: readelf,
 * llvm-objdump and libbpf's BTF parser accept them), so a loader must open them. */
static const char *const invalid_but_loadable[] = {
	"dac31099c3bb5b6395908c82cc8540e77a6a1849",	/* "bind": BindMonitor, 94 insns */
	"ef2e42c0bfcf4dab6b9c3926759365b6dfa73634",	/* .debug_line renamed; func: r0 = 42 */
	"timeout-29db93548c671165313b314d4f83a3eefa24df37",	/* 35 tail-called programs */
};

/* The reason each truly invalid file must be rejected with. */
static const struct {
	const char *file, *reason;
} invalid_reasons[] = {
	{ "58087ea4ff41695f3186d628a3250b26dc8d237a", "name offset" },
	{ "662b334a22904023c13f11008e072076a4f4d215", "outside string table" },
	{ "806cc077e56f0ec32236c99055714f63649e7a38", "extend past the end of the file" },
	{ "ab3408afd06d68dd7e73bf21bde38350d9751a78", "section index 38 does not exist" },
	{ "af99e766f6ba44fd7f2135c3e325c817224b99a3", "section-name table" },
	{ "badsymsize.o", "entry size 8" },
	{ "c049438cf649269921736e7306231385350dea58", "section-name table" },
	{ "invalid-lddw.o", "LD_IMM64 is cut off" },
};

struct sweep {
	size_t files, opened, rejected, progs, compared_btf;
};

static void sweep_file(struct sweep *sw, const char *path, bool in_invalid)
{
	const char *name = base(path);
	struct ebpf_object *o = NULL;
	bool loadable = !in_invalid;
	struct diag d;
	int err;

	sw->files++;
	for (size_t i = 0; in_invalid && i < sizeof(invalid_but_loadable) / sizeof(char *); i++)
		if (!strcmp(name, invalid_but_loadable[i]))
			loadable = true;
	diag_clear(&d);
	err = ebpf_object__open_file(&o, path, &d);
	if (!loadable) {
		const char *reason = NULL;

		for (size_t i = 0; i < sizeof(invalid_reasons) / sizeof(invalid_reasons[0]); i++)
			if (!strcmp(name, invalid_reasons[i].file))
				reason = invalid_reasons[i].reason;
		CHECK(err < 0, "%s: malformed object was accepted", path);
		CHECK(d.msg[0] && (d.offset >= 0 || d.insn >= 0),
		      "%s: rejection without a located message (msg '%s')", path, d.msg);
		CHECK(reason, "%s: unexpected file in invalid/ (add its reason to the table)", path);
		if (reason)
			CHECK(contains(d.msg, reason), "%s: message '%s' lacks '%s'", path, d.msg,
			      reason);
		sw->rejected += err < 0;
		ebpf_object__free(o);
		return;
	}
	CHECK(err == 0, "%s: failed to open: %s", path, d.msg);
	if (err)
		return;
	sw->opened++;
	CHECK(o->prog_cnt >= 1, "%s: no programs", path);
	CHECK(!contains(o->notes, "skipped"), "%s: programs skipped:\n%s", path, o->notes);
	for (size_t i = 0; i < o->prog_cnt; i++)
		check_prog_sane(o, &o->progs[i], path);
	sw->progs += o->prog_cnt;

	/* The two readers of BTF-defined maps (libbpf's object, and .BTF through libbpf's BTF API
	 * when libbpf refuses the object) must agree wherever both work. */
	if (!contains(o->notes, "libbpf refused")) {
		struct ebpf_object *o2 = NULL;
		size_t flen = 0;
		uint8_t *fbuf = slurp(path, &flen);
		bool has_btf_maps = fbuf && memmem(fbuf, flen, "\0.maps\0", 7);

		free(fbuf);
		setenv("BPFSCEV_ELF_NO_LIBBPF", "1", 1);
		diag_clear(&d);
		err = ebpf_object__open_file(&o2, path, &d);
		unsetenv("BPFSCEV_ELF_NO_LIBBPF");
		CHECK(err == 0, "%s: fails with the direct BTF reader: %s", path, d.msg);
		if (!err) {
			CHECK_EQ_U64(o2->map_cnt, o->map_cnt, path);
			for (size_t i = 0; i < o->map_cnt && i < o2->map_cnt; i++) {
				const struct ebpf_map_def *a = &o->maps[i], *b = &o2->maps[i];

				CHECK(!strcmp(a->name, b->name) && a->type == b->type &&
				      a->key_size == b->key_size && a->value_size == b->value_size &&
				      a->max_entries == b->max_entries && a->flags == b->flags,
				      "%s: map %zu: libbpf says %s %u/%u/%u/%u/%u, .BTF says %s "
				      "%u/%u/%u/%u/%u", path, i, a->name, a->type, a->key_size,
				      a->value_size, a->max_entries, a->flags, b->name, b->type,
				      b->key_size, b->value_size, b->max_entries, b->flags);
			}
			sw->compared_btf += has_btf_maps;
		}
		ebpf_object__free(o2);
	}
	ebpf_object__free(o);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void sweep_dir(struct sweep *sw, const char *dir, bool in_invalid)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;

	CHECK(dp, "cannot open %s: %s", dir, strerror(errno));
	if (!dp)
		return;
	while ((e = readdir(dp))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			names = realloc(names, cap * sizeof(*names));
			if (!names)
				abort();
		}
		names[n++] = strdup(e->d_name);
	}
	closedir(dp);
	qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		char path[1024];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			sweep_dir(sw, path, in_invalid || !strcmp(names[i], "invalid"));
		else if (S_ISREG(st.st_mode) && !strstr(names[i], ".md"))
			sweep_file(sw, path, in_invalid);
		free(names[i]);
	}
	free(names);
}

static struct ebpf_object *open_sample(const char *dir, const char *rel)
{
	char path[1024];
	struct ebpf_object *o = NULL;
	struct diag d;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	diag_clear(&d);
	CHECK(ebpf_object__open_file(&o, path, &d) == 0, "%s: %s", path, d.msg);
	return o;
}

static void sample_facts(const char *dir)
{
	struct ebpf_object *o;
	const struct ebpf_prog *p;

	/* bpf2bpf.o: func (37 slots, section "test") calls add2 twice; add2 calls add1 twice.  libbpf
	 * appends add2 at the first call (37..44), then, recursing, add1 (45..57). */
	if ((o = open_sample(dir, "build/bpf2bpf.o"))) {
		CHECK_EQ_U64(o->prog_cnt, 1, "bpf2bpf programs");
		p = ebpf_object__find_prog(o, "func");
		CHECK(p, "bpf2bpf: no 'func'");
		if (p && p->len == 58) {
			static const size_t call_at[] = { 7, 9, 41, 43 };
			static const size_t target[] = { 37, 37, 45, 45 };

			CHECK(!strcmp(p->section, "test"), "bpf2bpf section '%s'", p->section);
			for (size_t k = 0; k < 4; k++) {
				const struct bpf_insn *i = &p->insns[call_at[k]];

				CHECK(ebpf_is_pseudo_call(i), "bpf2bpf: insn %zu is not a call",
				      call_at[k]);
				CHECK_EQ_U64(call_at[k] + 1 + i->imm, target[k],
					     "bpf2bpf call target");
			}
			/* add2 stores 13, add1 stores 1: tells the two apart. */
			CHECK(p->insns[38].code == (BPF_ALU64 | BPF_MOV | BPF_K) &&
			      p->insns[38].imm == 13, "bpf2bpf: add2 is not at 37");
			CHECK(p->insns[46].code == (BPF_ALU64 | BPF_MOV | BPF_K) &&
			      p->insns[46].imm == 1, "bpf2bpf: add1 is not at 45");
			CHECK(ebpf_is_exit(&p->insns[44]) && ebpf_is_exit(&p->insns[57]),
			      "bpf2bpf: subprograms do not end where expected");
		} else {
			CHECK(0, "bpf2bpf: func has %zu slots, expected 58", p ? p->len : 0);
		}
		ebpf_object__free(o);
	}

	/* loop.o: one program in "test_md" (a name libbpf does not know: type stays UNSPEC),
	 * 28 slots, two loops (backward jumps at 17 and 26). */
	if ((o = open_sample(dir, "build/loop.o"))) {
		CHECK_EQ_U64(o->prog_cnt, 1, "loop.o programs");
		p = &o->progs[0];
		CHECK(!strcmp(p->section, "test_md"), "loop.o section '%s'", p->section);
		CHECK_EQ_U64(p->prog_type, BPF_PROG_TYPE_UNSPEC, "loop.o type");
		CHECK_EQ_U64(p->len, 28, "loop.o slots");
		if (p->len == 28) {
			CHECK_EQ_U64(ebpf_jump_target(&p->insns[17], 17), 9, "loop.o back edge 1");
			CHECK_EQ_U64(ebpf_jump_target(&p->insns[26], 26), 20, "loop.o back edge 2");
		}
		ebpf_object__free(o);
	}

	/* Legacy "maps" records of 28 bytes (section 0x54 / 3 symbols), and the same maps in the
	 * BTF-defined rewrite of the sample. */
	if ((o = open_sample(dir, "linux/sockex3_kern.o"))) {
		CHECK_EQ_U64(o->map_cnt, 3, "sockex3 maps");
		check_map(o, "jmp_table", BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 8, "sockex3 jmp_table");
		check_map(o, "percpu_map", BPF_MAP_TYPE_ARRAY, 4, 16, 32, "sockex3 percpu_map");
		check_map(o, "hash_map", BPF_MAP_TYPE_HASH, 16, 16, 1024, "sockex3 hash_map");
		CHECK_EQ_U64(o->prog_cnt, 5, "sockex3 programs");
		p = ebpf_object__find_prog(o, "main_prog");
		CHECK(p && !strcmp(p->section, "socket/0") &&
		      p->prog_type == BPF_PROG_TYPE_SOCKET_FILTER,
		      "sockex3: main_prog in socket/0 as a socket filter");
		ebpf_object__free(o);
	}
	if ((o = open_sample(dir, "new_linux/sockex3_kern.o"))) {
		check_map(o, "jmp_table", BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 8, "new sockex3 jmp_table");
		check_map(o, "percpu_map", BPF_MAP_TYPE_ARRAY, 4, 16, 32, "new sockex3 percpu_map");
		check_map(o, "hash_map", BPF_MAP_TYPE_HASH, 16, 16, 1024, "new sockex3 hash_map");
		ebpf_object__free(o);
	}
	/* One definition per "maps/<name>" section. */
	if ((o = open_sample(dir, "build/map_in_map_legacy.o"))) {
		check_map(o, "array_of_maps", BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, 4, 1,
			  "map_in_map_legacy");
		check_map(o, "inner_map", BPF_MAP_TYPE_ARRAY, 4, 8, 1, "map_in_map_legacy");
		ebpf_object__free(o);
	}
	/* .bss/.rodata/.data: one-entry arrays the size of the section; globals are map values. */
	if ((o = open_sample(dir, "build/global_variable.o"))) {
		long bss = map_index(o, ".bss"), ro = map_index(o, ".rodata");

		check_map(o, ".bss", BPF_MAP_TYPE_ARRAY, 4, 8, 1, "global_variable");
		check_map(o, ".rodata", BPF_MAP_TYPE_ARRAY, 4, 4, 1, "global_variable");
		check_map(o, ".data", BPF_MAP_TYPE_ARRAY, 4, 40, 1, "global_variable");
		CHECK(bss >= 0 && !o->maps[bss].init, "global_variable: .bss has initial data");
		CHECK(ro >= 0 && o->maps[ro].init && (o->maps[ro].flags & BPF_F_RDONLY_PROG),
		      "global_variable: .rodata is not read-only with contents");
		p = &o->progs[0];
		CHECK(p->len == 16 && p->insns[5].src_reg == BPF_PSEUDO_MAP_VALUE &&
		      p->insns[5].imm == bss && p->insns[6].imm == 4,
		      "global_variable: insn 5 is not &.bss[4] (global_var_2)");
		ebpf_object__free(o);
	}
	/* A call to an undefined function: kept, as a kfunc call, and noted; libbpf refuses the object
	 * so the BTF map comes from the direct reader. */
	if ((o = open_sample(dir, "build/externalfunction.o"))) {
		p = &o->progs[0];
		CHECK(p->len == 12 && p->insns[6].src_reg == BPF_PSEUDO_KFUNC_CALL,
		      "externalfunction: insn 6 is not a kfunc call");
		/* the name is kept; the id is the running kernel's, a note says when there is none */
		CHECK(p->kfunc_cnt == 1 && p->kfuncs[0].insn == 6 &&
		      !strcmp(p->kfuncs[0].name, "bpf_map_lookup_elem") &&
		      p->insns[6].imm == p->kfuncs[0].btf_id &&
		      (p->kfuncs[0].btf_id > 0 || contains(o->notes, "extern 'bpf_map_lookup_elem'")),
		      "externalfunction kfunc: notes %s", o->notes ? o->notes : "(none)");
		check_map(o, "test_map", BPF_MAP_TYPE_ARRAY, 4, 4, 1, "externalfunction");
		ebpf_object__free(o);
	}
	/* Five global .text functions, no other code: all are programs. */
	if ((o = open_sample(dir, "build/prog_array.o"))) {
		CHECK_EQ_U64(o->prog_cnt, 5, "prog_array programs");
		check_map(o, "prog_array_map", BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 4, "prog_array");
		ebpf_object__free(o);
	}
	/* Early LLVM: EM_NONE and RELA relocations, as libbpf accepts. */
	if ((o = open_sample(dir, "ovs/datapath.o"))) {
		CHECK_EQ_U64(o->prog_cnt, 19, "ovs programs");
		CHECK_EQ_U64(o->map_cnt, 11, "ovs maps");
		ebpf_object__free(o);
	}
}

/* ---- objects compiled from tests/bpf ---- */

/* Slots of function fn in llvm-objdump -d output, -1 when unknown. */
static long objdump_slots(const char *objdump, const char *path, const char *fn)
{
	char cmd[2048], line[512], hdr[160];
	long slots = -1;
	bool in = false;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "'%s' -d '%s' 2>/dev/null", objdump, path);
	snprintf(hdr, sizeof(hdr), "<%s>:", fn);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *tab;
		int bytes = 0;

		if (strchr(line, '<') && strstr(line, ">:")) {
			/* a symbol header: a function, or an LBB label inside one */
			if (strstr(line, hdr)) {
				in = true;
				slots = 0;
			} else if (!strstr(line, "<LBB")) {
				in = false;
			}
			continue;
		}
		if (!in || !(tab = strchr(line, '\t')) || !strchr(line, ':'))
			continue;
		for (char *s = tab + 1; s[0] && s[1] && s[0] != '\t'; s++)
			if (s[0] != ' ' && s[1] != ' ' && (s == tab + 1 || s[-1] == ' ')) {
				bytes++;
				s++;
			}
		slots += bytes / 8;
	}
	pclose(f);
	return slots;
}

static void built_objects(void)
{
	const char *dir = getenv("BPFSCEV_TEST_BPF_DIR");
	const char *objdump = getenv("BPFSCEV_LLVM_OBJDUMP");
	char path[1024];
	struct ebpf_object *o;
	const struct ebpf_prog *p;
	struct diag d;
	struct stat st;

	snprintf(path, sizeof(path), "%s/nested_loops.o", dir ? dir : "");
	if (!dir || stat(path, &st))
		return;
	if (objdump && !*objdump)
		objdump = NULL;

	diag_clear(&d);
	CHECK(ebpf_object__open_file(&o, path, &d) == 0, "%s: %s", path, d.msg);
	if (o) {
		size_t back = 0;

		p = ebpf_object__find_prog(o, "nested_loops");
		CHECK(p && o->prog_cnt == 1, "nested_loops.o: one program 'nested_loops'");
		if (p) {
			CHECK(!strcmp(p->section, "socket") &&
			      p->prog_type == BPF_PROG_TYPE_SOCKET_FILTER, "nested_loops: type");
			for (size_t pc = 0; pc < p->len; pc += ebpf_insn_slots(&p->insns[pc]))
				if ((ebpf_is_ja(&p->insns[pc]) || ebpf_is_cond_jmp(&p->insns[pc])) &&
				    ebpf_jump_target(&p->insns[pc], pc) <= (long)pc)
					back++;
			CHECK(back >= 2, "nested_loops: %zu backward jumps, expected 2 loops", back);
			if (objdump)
				CHECK_EQ_U64(p->len, objdump_slots(objdump, path, "nested_loops"),
					     "nested_loops slots vs llvm-objdump");
		}
		ebpf_object__free(o);
	}

	snprintf(path, sizeof(path), "%s/call_in_loop.o", dir);
	diag_clear(&d);
	CHECK(ebpf_object__open_file(&o, path, &d) == 0, "%s: %s", path, d.msg);
	if (o) {
		/* step and mix live in .text: subprograms, not programs. */
		CHECK_EQ_U64(o->prog_cnt, 1, "call_in_loop programs");
		p = ebpf_object__find_prog(o, "call_in_loop");
		CHECK(p, "call_in_loop: no program");
		if (p && objdump) {
			long m = objdump_slots(objdump, path, "call_in_loop");
			long s = objdump_slots(objdump, path, "step");
			long x = objdump_slots(objdump, path, "mix");
			size_t calls = 0;

			CHECK_EQ_U64(p->len, m + s + x, "call_in_loop = main + step + mix");
			/* main calls step (appended first, at m), step calls mix (at m + s). */
			for (size_t pc = 0; pc < p->len; pc++) {
				if (!ebpf_is_pseudo_call(&p->insns[pc]))
					continue;
				calls++;
				CHECK_EQ_U64(pc + 1 + p->insns[pc].imm, pc < (size_t)m ? m : m + s,
					     "call_in_loop call target");
			}
			CHECK_EQ_U64(calls, 2, "call_in_loop calls");
		}
		ebpf_object__free(o);
	}

	snprintf(path, sizeof(path), "%s/map_rodata.o", dir);
	diag_clear(&d);
	CHECK(ebpf_object__open_file(&o, path, &d) == 0, "%s: %s", path, d.msg);
	if (o) {
		long counts = map_index(o, "counts"), ro = map_index(o, ".rodata");
		bool saw_fd = false, saw7 = false, saw_pad = false;

		check_map(o, "counts", BPF_MAP_TYPE_ARRAY, 4, 8, 4, "map_rodata counts");
		check_map(o, ".rodata", BPF_MAP_TYPE_ARRAY, 4, 8, 1, "map_rodata .rodata");
		p = ebpf_object__find_prog(o, "map_rodata");
		CHECK(p && p->prog_type == BPF_PROG_TYPE_XDP, "map_rodata: XDP program");
		for (size_t pc = 0; p && pc < p->len; pc += ebpf_insn_slots(&p->insns[pc])) {
			const struct bpf_insn *i = &p->insns[pc];

			if (!ebpf_is_ldimm64(i))
				continue;
			if (i->src_reg == BPF_PSEUDO_MAP_FD) {
				CHECK_EQ_U64(i->imm, counts, "map_rodata: map fd index");
				saw_fd = true;
			} else if (i->src_reg == BPF_PSEUDO_MAP_VALUE && ro >= 0 &&
				   o->maps[ro].init) {
				uint32_t off = (uint32_t)i[1].imm, v = 0;

				CHECK_EQ_U64(i->imm, ro, "map_rodata: .rodata index");
				CHECK(off + 4 <= o->maps[ro].value_size, "map_rodata: offset %u", off);
				if (off + 4 <= o->maps[ro].value_size)
					memcpy(&v, o->maps[ro].init + off, 4);
				saw7 |= v == 7;
				saw_pad |= v == 0x11223344;
			}
		}
		CHECK(saw_fd && saw7 && saw_pad, "map_rodata: map %d, limit %d, pad %d", saw_fd, saw7,
		      saw_pad);
		ebpf_object__free(o);
	}
}

/* Target slot of the PSEUDO_FUNC LD_IMM64 at pc. */
static size_t func_target(const struct ebpf_prog *p, size_t pc)
{
	return pc + 1 + (size_t)(long)p->insns[pc].imm;
}

/* Callback addresses (clang 14: LD_IMM64 src_reg 0 + a relocation into code) become
 * BPF_PSEUDO_FUNC loads of the appended callbacks; calls sharing a callback share its copy. */
static void callback_objects(const char *dir)
{
	char path[1024];
	struct ebpf_object *o;
	const struct ebpf_prog *p;
	struct diag d;

	snprintf(path, sizeof(path), "%s/callbacks.o", dir);
	diag_clear(&d);
	CHECK(ebpf_object__open_file(&o, path, &d) == 0, "%s: %s", path, d.msg);
	if (!o)
		return;
	p = ebpf_object__find_prog(o, "shared_cb");
	CHECK(p, "callbacks.o: no program shared_cb");
	if (p) {
		size_t tg[8], n = 0;

		for (size_t pc = 0; pc < p->len; pc += ebpf_insn_slots(&p->insns[pc])) {
			const struct bpf_insn *i = &p->insns[pc];

			CHECK(!ebpf_is_ldimm64(i) || i->src_reg == BPF_PSEUDO_FUNC,
			      "shared_cb: insn %zu: LD_IMM64 src_reg %u", pc, i->src_reg);
			if (ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC && n < 8) {
				tg[n++] = func_target(p, pc);
				CHECK(i[1].imm == 0, "shared_cb: insn %zu: upper half", pc);
			}
		}
		CHECK_EQ_U64(n, 4, "shared_cb: callback addresses");
		if (n == 4) {
			/* add_index twice (one copy), count_hit, global_cb: three distinct
			 * functions appended after main, each starting with its first insn. */
			CHECK_EQ_U64(tg[0], tg[1], "shared_cb: shared callback");
			CHECK(tg[0] != tg[2] && tg[2] != tg[3] && tg[0] != tg[3],
			      "shared_cb: callbacks %zu %zu %zu", tg[0], tg[2], tg[3]);
			for (size_t k = 0; k < n; k++) {
				size_t t = tg[k];

				CHECK(t > 0 && t < p->len && ebpf_is_exit(&p->insns[t - 1]),
				      "shared_cb: callback %zu at %zu does not follow an exit", k, t);
			}
		}
	}
	p = ebpf_object__find_prog(o, "section_cb");
	CHECK(p, "callbacks.o: no program section_cb");
	if (p) {
		size_t n = 0;

		for (size_t pc = 0; pc < p->len; pc += ebpf_insn_slots(&p->insns[pc]))
			if (ebpf_is_ldimm64(&p->insns[pc])) {
				size_t t = func_target(p, pc);

				n++;
				CHECK(p->insns[pc].src_reg == BPF_PSEUDO_FUNC && t < p->len &&
				      ebpf_is_exit(&p->insns[t - 1]),
				      "section_cb: callback in the program's section at %zu", t);
			}
		CHECK_EQ_U64(n, 1, "section_cb: callback addresses");
	}
	ebpf_object__free(o);
}

/* Extern calls resolve by name to the running kernel's kfunc BTF ids; the names stay.  Without
 * vmlinux BTF (forced in a child: the BTF is read once per process, so this runs before
 * anything else here touches it) they are kfunc calls with id 0 and a note. */
/* optional_sec.o: SEC("?xdp") and SEC("?socket") are XDP and socket programs, their sections
 * named without the '?' (libbpf's bpf_object__init_prog drops it). */
static void optional_sections(const char *dir)
{
	static const struct {
		const char *prog, *section;
		uint32_t type;
	} want[] = { { "optional_xdp", "xdp", BPF_PROG_TYPE_XDP },
		     { "optional_socket", "socket", BPF_PROG_TYPE_SOCKET_FILTER } };
	char path[1024];
	struct ebpf_object *o;
	struct diag d;

	snprintf(path, sizeof(path), "%s/optional_sec.o", dir);
	diag_clear(&d);
	CHECK(ebpf_object__open_file(&o, path, &d) == 0, "%s: %s", path, d.msg);
	if (!o)
		return;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct ebpf_prog *p = ebpf_object__find_prog(o, want[i].prog);

		CHECK(p && !strcmp(p->section, want[i].section) && p->prog_type == want[i].type &&
			      !strcmp(p->type_from, "section"),
		      "%s: section '%s', type %u from '%s'", want[i].prog, p ? p->section : "-",
		      p ? p->prog_type : 0, p ? p->type_from : "-");
	}
	ebpf_object__free(o);
}

static void kfunc_objects(const char *dir)
{
	static const char *const want[] = { "bpf_iter_num_new", "bpf_iter_num_next",
					     "bpf_iter_num_next", "bpf_iter_num_destroy" };
	char path[1024];
	struct ebpf_object *o;
	const struct ebpf_prog *p;
	struct diag d;
	pid_t pid;
	int status = 0;

	snprintf(path, sizeof(path), "%s/kfuncs.o", dir);
	pid = fork();
	CHECK(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		setenv("BPFSCEV_NO_VMLINUX_BTF", "1", 1);
		diag_clear(&d);
		CHECK(ebpf_object__open_file(&o, path, &d) == 0, "%s: %s", path, d.msg);
		p = o ? ebpf_object__find_prog(o, "iter_sum") : NULL;
		CHECK(p && p->kfunc_cnt == 4, "kfuncs.o without BTF: iter_sum kfunc calls");
		for (size_t k = 0; p && k < p->kfunc_cnt && k < 4; k++) {
			const struct ebpf_kfunc_call *kf = &p->kfuncs[k];

			CHECK(!strcmp(kf->name, want[k]) && kf->btf_id == 0 &&
			      p->insns[kf->insn].src_reg == BPF_PSEUDO_KFUNC_CALL &&
			      p->insns[kf->insn].imm == 0 &&
			      !strcmp(ebpf_prog_kfunc_name(p, kf->insn), want[k]),
			      "kfuncs.o without BTF: call %zu '%s' id %d", k, kf->name, kf->btf_id);
		}
		CHECK(o && o->notes && strstr(o->notes, "'bpf_iter_num_new' left as an unresolved "
					      "kfunc call (no vmlinux BTF)"),
		      "kfuncs.o without BTF: notes %s", o && o->notes ? o->notes : "(none)");
		ebpf_object__free(o);
		_exit(check_failures ? 1 : 0);
	}
	if (pid > 0) {
		CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		      WEXITSTATUS(status) == 0, "kfuncs.o without vmlinux BTF: see above");
	}

	diag_clear(&d);
	CHECK(ebpf_object__open_file(&o, path, &d) == 0, "%s: %s", path, d.msg);
	if (!o)
		return;
	if (!ebpf_kfunc_btf_available()) {
		check_skip_part("kfunc ids: the running kernel has no vmlinux BTF");
		ebpf_object__free(o);
		return;
	}
	p = ebpf_object__find_prog(o, "iter_sum");
	CHECK(p && p->kfunc_cnt == 4, "kfuncs.o: iter_sum kfunc calls");
	for (size_t k = 0; p && k < p->kfunc_cnt && k < 4; k++) {
		const struct ebpf_kfunc_call *kf = &p->kfuncs[k];
		const struct bpf_insn *i = &p->insns[kf->insn];

		CHECK(!strcmp(kf->name, want[k]) && kf->btf_id > 0 &&
		      kf->btf_id == ebpf_kfunc_by_name(want[k]) && i->imm == kf->btf_id &&
		      i->src_reg == BPF_PSEUDO_KFUNC_CALL && i->off == 0 &&
		      !strcmp(ebpf_kfunc_name(i->imm), want[k]),
		      "kfuncs.o: call %zu '%s' id %d (imm %d)", k, kf->name, kf->btf_id, i->imm);
	}
	p = ebpf_object__find_prog(o, "missing_kfunc");
	CHECK(p && p->kfunc_cnt == 1 && p->kfuncs[0].btf_id == 0 &&
	      p->insns[p->kfuncs[0].insn].imm == 0 &&
	      !strcmp(p->kfuncs[0].name, "bpfscev_no_such_kfunc"),
	      "kfuncs.o: missing_kfunc is kept with id 0");
	CHECK(o->notes && strstr(o->notes, "'bpfscev_no_such_kfunc' left as an unresolved kfunc "
				 "call (the running kernel has no such function)"),
	      "kfuncs.o: notes %s", o->notes ? o->notes : "(none)");
	CHECK(!o->notes || !strstr(o->notes, "bpf_iter_num_new"), "kfuncs.o: notes %s",
	      o->notes);
	ebpf_object__free(o);
}

/* ---- malformed input ---- */

static Elf64_Shdr *shdr(uint8_t *buf, size_t i)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;

	return (Elf64_Shdr *)(buf + eh->e_shoff + i * sizeof(Elf64_Shdr));
}

static const char *shname(uint8_t *buf, size_t i)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;

	return (const char *)buf + shdr(buf, eh->e_shstrndx)->sh_offset + shdr(buf, i)->sh_name;
}

static long find_shdr(uint8_t *buf, const char *name)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;

	for (size_t i = 1; i < eh->e_shnum; i++)
		if (!strcmp(shname(buf, i), name))
			return (long)i;
	return -1;
}

/* Applies one corruption to a copy of obj and expects a rejection naming what. */
static void expect_reject(const uint8_t *obj, size_t len, void (*mutate)(uint8_t *, size_t *),
			  const char *what, const char *label)
{
	uint8_t *buf = malloc(len);
	struct ebpf_object *o = NULL;
	struct diag d;
	size_t n = len;
	int err;

	memcpy(buf, obj, len);
	mutate(buf, &n);
	err = open_buf(&o, buf, n, label, &d);
	CHECK(err < 0, "%s: corrupted object accepted", label);
	CHECK(contains(d.msg, what), "%s: message '%s' lacks '%s'", label, d.msg, what);
	CHECK(d.offset >= 0 || d.insn >= 0, "%s: message without a location: %s", label, d.msg);
	ebpf_object__free(o);
	free(buf);
}

static void m_machine(uint8_t *b, size_t *n) { ((Elf64_Ehdr *)b)->e_machine = EM_X86_64; }
static void m_endian(uint8_t *b, size_t *n) { b[EI_DATA] = ELFDATA2MSB; }
static void m_class(uint8_t *b, size_t *n) { b[EI_CLASS] = ELFCLASS32; }
static void m_shoff(uint8_t *b, size_t *n) { ((Elf64_Ehdr *)b)->e_shoff = *n - 10; }
static void m_code_size(uint8_t *b, size_t *n) { shdr(b, find_shdr(b, "socket"))->sh_size -= 3; }
static void m_code_off(uint8_t *b, size_t *n) { shdr(b, find_shdr(b, "socket"))->sh_offset = *n; }

static void m_rel_off(uint8_t *b, size_t *n)
{
	Elf64_Shdr *r = shdr(b, find_shdr(b, ".relsocket"));
	Elf64_Rel *rel = (Elf64_Rel *)(b + r->sh_offset);

	rel->r_offset = 0x10000;
}

static void m_rel_unaligned(uint8_t *b, size_t *n)
{
	Elf64_Shdr *r = shdr(b, find_shdr(b, ".relsocket"));
	Elf64_Rel *rel = (Elf64_Rel *)(b + r->sh_offset);

	rel->r_offset += 4;
}

/* The symbol 'call_in_loop' grows past the end of its section. */
static void m_sym_size(uint8_t *b, size_t *n)
{
	Elf64_Shdr *st = shdr(b, find_shdr(b, ".symtab"));
	Elf64_Shdr *str = shdr(b, st->sh_link);
	Elf64_Sym *sym = (Elf64_Sym *)(b + st->sh_offset);

	for (size_t i = 0; i < st->sh_size / sizeof(*sym); i++)
		if (!strcmp((char *)b + str->sh_offset + sym[i].st_name, "call_in_loop"))
			sym[i].st_size += 8;
}

/* An instruction of the program becomes an unknown opcode: the program is skipped, and being the
 * only one, the open fails naming it and the instruction. */
static void m_bad_insn(uint8_t *b, size_t *n)
{
	Elf64_Shdr *s = shdr(b, find_shdr(b, "socket"));

	b[s->sh_offset + 8 * 3] = 0xff;
}

/* The BTF map definition of map_rodata.o's 'counts', corrupted in its max_entries member: the
 * member's type becomes what (a type id).  libbpf 1.1 crashes on both forms; the loader must
 * reject them before libbpf sees them. */
static void btf_member_type(const uint8_t *obj, size_t len, uint32_t what_rel, bool self,
			    const char *expect)
{
	uint8_t *buf = malloc(len);
	long si = find_shdr((uint8_t *)obj, ".BTF");
	struct ebpf_object *o = NULL;
	struct btf *btf;
	struct diag d;
	bool patched = false;

	memcpy(buf, obj, len);
	btf = si > 0 ? btf__new(obj + shdr(buf, si)->sh_offset, (uint32_t)shdr(buf, si)->sh_size)
		     : NULL;
	CHECK(btf && !libbpf_get_error(btf), "map_rodata.o: no readable .BTF");
	if (!btf || libbpf_get_error(btf)) {
		free(buf);
		return;
	}
	for (uint32_t id = 1; id < btf__type_cnt(btf) && !patched; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_member *m = btf_members(t);

		for (int i = 0; btf_is_struct(t) && i < btf_vlen(t); i++, m++) {
			const char *mn = btf__name_by_offset(btf, m->name_off);
			uint32_t size, v = self ? id : what_rel;
			const uint8_t *raw = btf__raw_data(btf, &size);

			if (!mn || strcmp(mn, "max_entries"))
				continue;
			memcpy(buf + shdr(buf, si)->sh_offset + ((const uint8_t *)&m->type - raw), &v,
			       4);
			patched = true;
			break;
		}
	}
	btf__free(btf);
	CHECK(patched, "map_rodata.o: no max_entries member in .BTF");
	CHECK(open_buf(&o, buf, len, "bad-btf", &d) < 0 && contains(d.msg, expect),
	      "corrupted BTF (%s): %s", expect, d.msg);
	ebpf_object__free(o);
	free(buf);
}

static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void malformed(const uint8_t *obj, size_t len, const char *label)
{
	struct ebpf_object *o = NULL;
	struct diag d;
	size_t opened = 0;

	CHECK(len > sizeof(Elf64_Ehdr) && find_shdr((uint8_t *)obj, "socket") > 0 &&
	      find_shdr((uint8_t *)obj, ".relsocket") > 0, "%s: not the expected object", label);
	expect_reject(obj, len, m_machine, "machine", "e_machine x86-64");
	expect_reject(obj, len, m_endian, "big-endian", "big-endian");
	expect_reject(obj, len, m_class, "64-bit", "ELF32");
	expect_reject(obj, len, m_shoff, "section headers", "e_shoff past the end");
	expect_reject(obj, len, m_code_size, "multiple of 8", "code size");
	expect_reject(obj, len, m_code_off, "'socket'", "code offset");
	expect_reject(obj, len, m_rel_off, "outside section 'socket'", "relocation offset");
	expect_reject(obj, len, m_rel_unaligned, "not on an instruction", "relocation unaligned");
	expect_reject(obj, len, m_sym_size, "symbol 'call_in_loop'", "symbol size");
	expect_reject(obj, len, m_bad_insn, "program 'call_in_loop' in section 'socket'",
		      "bad instruction");

	/* Every truncation: the section headers sit at the end, so each one must fail cleanly. */
	for (size_t n = 0; n < len; n++) {
		int err = open_buf(&o, obj, n, "truncated", &d);

		CHECK(err < 0 && d.msg[0], "truncated to %zu bytes: err %d msg '%s'", n, err, d.msg);
		ebpf_object__free(o);
		o = NULL;
		if (err == 0 || !d.msg[0])
			break;
	}

	/* Random corruptions: never a crash (ASan), and whatever opens is valid. */
	rng_state = 0x9e3779b97f4a7c15ull;
	for (int it = 0; it < 3000; it++) {
		uint8_t *buf = malloc(len);
		int flips = 1 + (int)(rnd() % 4);

		memcpy(buf, obj, len);
		for (int k = 0; k < flips; k++) {
			size_t at = rnd() % len;

			if (rnd() % 4 == 0 && at + 4 <= len) {
				uint32_t v = (uint32_t)rnd();

				memcpy(buf + at, &v, 4);
			} else {
				buf[at] ^= (uint8_t)(1u << (rnd() % 8));
			}
		}
		if (open_buf(&o, buf, len, "mutated", &d) == 0) {
			opened++;
			for (size_t i = 0; i < o->prog_cnt; i++)
				check_prog_sane(o, &o->progs[i], "mutated");
		} else {
			CHECK(d.msg[0], "mutation %d rejected without a message", it);
		}
		ebpf_object__free(o);
		o = NULL;
		free(buf);
	}
	printf("test_elf: %s: 3000 random mutations, %zu still open\n", label, opened);
}

/* One of two programs broken: the other stays usable and the broken one is noted. */
static void skip_policy(const char *samples)
{
	char path[1024];
	uint8_t *buf;
	size_t len;
	struct ebpf_object *o = NULL;
	struct diag d;
	long s;

	snprintf(path, sizeof(path), "%s/linux/sockex3_kern.o", samples);
	buf = slurp(path, &len);
	CHECK(buf != NULL, "%s: cannot read it", path);
	if (!buf)
		return;
	s = find_shdr(buf, "socket/2");
	CHECK(s > 0, "sockex3: no socket/2");
	if (s > 0) {
		buf[shdr(buf, s)->sh_offset + 8] = 0xff;	/* insn 1 of PARSE_MPLS */
		CHECK(open_buf(&o, buf, len, "sockex3-broken", &d) == 0, "sockex3 with one broken "
		      "program: %s", d.msg);
		if (o) {
			CHECK_EQ_U64(o->prog_cnt, 4, "sockex3 with one broken program");
			CHECK(!ebpf_object__find_prog(o, "bpf_func_PARSE_MPLS"),
			      "broken program still listed");
			CHECK(contains(o->notes, "prog 'bpf_func_PARSE_MPLS' (section 'socket/2'): "
					"skipped: insn 1: "), "notes: %s", o->notes ? o->notes : "");
			CHECK(o->skipped_cnt == 1 && !strcmp(o->skipped[0].name, "bpf_func_PARSE_MPLS") &&
			      !strcmp(o->skipped[0].section, "socket/2") &&
			      !strncmp(o->skipped[0].reason, "insn 1: ", 8),
			      "sockex3 with one broken program: %zu programs left out", o->skipped_cnt);
		}
		ebpf_object__free(o);
	}
	free(buf);
}

int main(void)
{
	const char *samples = getenv("BPFSCEV_SAMPLES_DIR");
	const char *dir = getenv("BPFSCEV_TEST_BPF_DIR");
	bool have_samples, have_objects;
	struct stat st;
	char path[1024];
	uint8_t *obj;
	size_t len;

	have_samples = samples && !stat(samples, &st) && S_ISDIR(st.st_mode);
	snprintf(path, sizeof(path), "%s/nested_loops.o", dir ? dir : "");
	have_objects = dir && !stat(path, &st);
	if (have_objects)
		kfunc_objects(dir);	/* first: see its comment */
	if (!have_samples && !have_objects)
		return check_skip("test_elf", "neither the sample objects (%s) nor the tests/bpf "
				  "objects (no clang at configure time) are there",
				  samples ? samples : "BPFSCEV_SAMPLES_DIR not set");
	if (!have_samples) {
		check_skip_part("sample objects: %s is absent",
				samples ? samples : "BPFSCEV_SAMPLES_DIR not set");
	} else {
		struct sweep sw = { 0 };

		sweep_dir(&sw, samples, false);
		printf("test_elf: %zu sample files: %zu opened (%zu programs), %zu rejected; BTF maps "
		       "compared with libbpf in %zu\n", sw.files, sw.opened, sw.progs, sw.rejected,
		       sw.compared_btf);
		CHECK(sw.files == sw.opened + sw.rejected, "%zu files, %zu opened, %zu rejected",
		      sw.files, sw.opened, sw.rejected);
		sample_facts(samples);
		skip_policy(samples);
	}
	if (!have_objects)
		check_skip_part("tests/bpf objects not built (no clang at configure time): built "
				"objects, BTF and malformed-object checks");
	built_objects();
	if (have_objects) {
		callback_objects(dir);
		optional_sections(dir);
	}
	snprintf(path, sizeof(path), "%s/map_rodata.o", dir ? dir : "");
	obj = have_objects ? slurp(path, &len) : NULL;
	CHECK(obj || !have_objects, "%s: cannot read it", path);
	if (obj) {
		btf_member_type(obj, len, 0x8000005, false, "refers to type 134217733");
		btf_member_type(obj, len, 0, true, "contains itself");
	}
	free(obj);
	snprintf(path, sizeof(path), "%s/call_in_loop.o", dir ? dir : "");
	obj = have_objects ? slurp(path, &len) : NULL;
	CHECK(obj || !have_objects, "%s: cannot read it", path);
	if (obj)
		malformed(obj, len, "call_in_loop.o");
	free(obj);
	return check_done("test_elf");
}
