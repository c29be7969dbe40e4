/* CO-RE relocations (tests/bpf/core.c, clang-built with __builtin_preserve_access_index and the
 * field, type and enum value builtins):
 *   - every program of the object carries CO-RE records, and until they are applied against
 *     the running kernel's BTF its instructions are not the loaded ones: `verify` answers
 *     unsupported ("CO-RE relocations not applied") and `analyze` emits no claims;
 *   - a malformed .BTF.ext is a located error of the object, not a crash.
 * Environment: BPFSCEV_TEST_BPF_DIR (the clang-built objects; skips without them).
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/prog.h"
#include "claims/claims.h"
#include "scev/scev.h"
#include "tests/check.h"
#include "util/file.h"

static const char *const progs[] = { "core_task", "core_info", "core_skb" };

static void test_unsupported(const struct ebpf_object *o)
{
	for (size_t k = 0; k < sizeof(progs) / sizeof(progs[0]); k++) {
		const struct ebpf_prog *p = ebpf_object__find_prog(o, progs[k]);
		struct scev_opts so = { .sz = sizeof(so) };
		struct claim_prog cp = { 0 };
		struct scev_verdict v;
		struct diag d;

		CHECK(p != NULL, "%s: missing", progs[k]);
		if (!p)
			continue;
		diag_clear(&d);
		CHECK(scev_verify(&v, NULL, p, o->maps, o->map_cnt, &so, &d) == 0, "%s: %s",
		      progs[k], d.msg);
		CHECK(v.kind == VERDICT_UNSUPPORTED && strstr(v.reason, "CO-RE relocations not "
							       "applied"),
		      "%s: %s (%s)", progs[k], scev_verdict_name(v.kind), v.reason);
		CHECK(scev_analyze(&cp, p, o->maps, o->map_cnt, &so, &d) == 0, "%s: analyze: %s",
		      progs[k], d.msg);
		CHECK(cp.nloops == 0 && cp.nranges == 0 && strstr(cp.note, "CO-RE"),
		      "%s: %u loops, %u ranges, note '%s'",
		      progs[k], cp.nloops, cp.nranges, cp.note);
		claim_prog__free(&cp);
	}
}

/* The file offset of section name in an ELF64 image, 0 when absent. */
static size_t section_offset(const uint8_t *buf, size_t len, const char *name)
{
	const Elf64_Ehdr *eh = (const void *)buf;
	const Elf64_Shdr *sh, *strs;

	if (len < sizeof(*eh) || eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(*sh) > len ||
	    eh->e_shstrndx >= eh->e_shnum)
		return 0;
	sh = (const void *)(buf + eh->e_shoff);
	strs = &sh[eh->e_shstrndx];
	for (unsigned i = 1; i < eh->e_shnum; i++)
		if (strs->sh_offset + sh[i].sh_name < len &&
		    !strcmp((const char *)buf + strs->sh_offset + sh[i].sh_name, name))
			return sh[i].sh_offset;
	return 0;
}

static void test_malformed(const char *path)
{
	uint8_t *buf = NULL;
	size_t len = 0, off;
	struct ebpf_object *o = NULL;
	struct diag d;

	CHECK(read_file(&buf, &len, path, NULL) == 0, "%s: cannot read", path);
	if (!buf)
		return;
	off = section_offset(buf, len, ".BTF.ext");
	CHECK(off != 0, "%s: no .BTF.ext section", path);
	if (off) {
		uint32_t big = 0x7fffffff;

		memcpy(buf + off + 24, &big, 4);	/* core_relo_off far past the end */
		diag_clear(&d);
		CHECK(ebpf_object__open_mem(&o, buf, len, "core.o", &d) != 0 &&
		      strstr(d.msg, ".BTF.ext") && d.offset >= (long)off,
		      "a CO-RE offset past the section: '%s' at %ld", d.msg, d.offset);
		ebpf_object__free(o);
	}
	free(buf);
}

int main(void)
{
	const char *dir = getenv("BPFSCEV_TEST_BPF_DIR");
	struct ebpf_object *o = NULL;
	char path[4096];
	struct diag d;

	if (!dir)
		return check_skip("test_core", "BPFSCEV_TEST_BPF_DIR is not set (no clang)");
	snprintf(path, sizeof(path), "%s/core.o", dir);
	diag_clear(&d);
	if (ebpf_object__open_file(&o, path, &d))
		return check_skip("test_core", "%s: %s", path, d.msg);
	test_unsupported(o);
	test_malformed(path);
	ebpf_object__free(o);
	return check_done("test_core");
}
