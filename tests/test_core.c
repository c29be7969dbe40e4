/* CO-RE relocations (tests/bpf/core.c, clang-built with __builtin_preserve_access_index and the
 * field, type and enum value builtins), applied against the running kernel's BTF:
 *   - the instructions: what libbpf loads (bpf_object__load, then bpf_program__insns) equals
 *     ours instruction by instruction — a kprobe reading task_struct fields through a local
 *     view in another order, field size and existence, type size and existence, enum value and
 *     existence, a tc program reading and writing __sk_buff through a local view;
 *   - the verdicts: the relocated programs are judged (safe, and the store to __sk_buff.len
 *     unsafe), the kernel agreeing; a field the kernel lacks (libbpf poisons the instruction)
 *     answers unsupported and `analyze` emits no claims for it;
 *   - a malformed .BTF.ext is a located error of the object, not a crash.
 * Environment: BPFSCEV_TEST_BPF_DIR (the clang-built objects; skips without them).
 */
#include <elf.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "bpf/prog.h"
#include "claims/claims.h"
#include "oracle/kernel/kernel.h"
#include "scev/scev.h"
#include "tests/check.h"
#include "tests/libbpf_insns.h"
#include "triage/verdict.h"
#include "util/file.h"

/* The programs whose records all apply, the one whose field the kernel lacks (libbpf poisons
 * its instruction; bpfscev answers unsupported) and the store the kernel refuses. */
static const char *const applied[] = { "core_task", "core_info", "core_skb", "core_skb_write" };

/* libbpf applies the records at bpf_object__load; the programs it loads are compared with
 * ours, then closed (every program unloaded).  core_skb_write is refused by the kernel, so it
 * is relocated by libbpf in a load of its own that fails after relocation (the instructions are
 * kept).  core_missing's poisoned instruction is libbpf's: not compared. */
static void test_libbpf(const struct ebpf_object *o, const char *path)
{
	check_relocations_as_libbpf(o, path, applied, sizeof(applied) / sizeof(applied[0]),
				    "core_skb_write", "core_missing");
}

static void test_verdicts(struct ebpf_object *o, bool kernel)
{
	static const struct {
		const char *prog;
		enum scev_verdict_kind want;
		const char *reason;
	} cases[] = {
		{ "core_task", VERDICT_SAFE, NULL },
		{ "core_info", VERDICT_SAFE, NULL },
		{ "core_skb", VERDICT_SAFE, NULL },
		{ "core_skb_write", VERDICT_UNSAFE, "__sk_buff" },
		{ "core_missing", VERDICT_UNSUPPORTED, "not in the kernel's BTF" },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct ebpf_prog *p = ebpf_object__find_prog(o, cases[k].prog);
		struct verdict_opts vo = { .sz = sizeof(vo), .kernel = kernel };
		struct scev_opts so = { .sz = sizeof(so) };
		struct claim_prog cp = { 0 };
		struct verdict_report r;
		struct diag d;

		CHECK(p != NULL, "%s: missing", cases[k].prog);
		if (!p)
			continue;
		diag_clear(&d);
		CHECK(verdict_compare(&r, o, p, &vo, &d) == 0, "%s: %s", cases[k].prog, d.msg);
		CHECK(r.ours.kind == cases[k].want, "%s: %s (%s)", cases[k].prog,
		      scev_verdict_name(r.ours.kind), r.ours.reason);
		if (cases[k].reason)
			CHECK(strstr(r.ours.reason, cases[k].reason), "%s: reason '%s'",
			      cases[k].prog, r.ours.reason);
		CHECK(r.faults == 0, "%s: faults: %s", cases[k].prog, r.fault);
		if (kernel && cases[k].want != VERDICT_UNSUPPORTED)
			CHECK(r.cls == VC_BOTH_ACCEPT || r.cls == VC_BOTH_REJECT, "%s: %s (kernel: %s)",
			      cases[k].prog, verdict_class_name(r.cls),
			      r.kernel_accepted ? "accepted" : r.kernel_message);
		verdict_report__free(&r);
		/* analyze: claims for the relocated programs, none for the unsupported one */
		CHECK(scev_analyze(&cp, p, o->maps, o->map_cnt, &so, &d) == 0, "%s: analyze: %s",
		      cases[k].prog, d.msg);
		CHECK((cases[k].want == VERDICT_UNSUPPORTED) == (strstr(cp.note, "CO-RE") != NULL),
		      "%s: note '%s'", cases[k].prog, cp.note);
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
	char path[4096], why[256];
	struct diag d;
	bool kernel;

	if (!dir)
		return check_skip("test_core", "BPFSCEV_TEST_BPF_DIR is not set (no clang)");
	snprintf(path, sizeof(path), "%s/core.o", dir);
	diag_clear(&d);
	if (ebpf_object__open_file(&o, path, &d))
		return check_skip("test_core", "%s: %s", path, d.msg);
	kernel = kernel_available(why, sizeof(why));
	if (!kernel)
		check_skip_part("libbpf's loaded instructions and the kernel's verdicts: %s", why);
	else
		test_libbpf(o, path);
	test_verdicts(o, kernel);
	test_malformed(path);
	ebpf_object__free(o);
	return check_done("test_core");
}
