/* Fuzz target "asm": the assembler and the data-file reader on arbitrary text.
 *
 * The bytes are handed over as they are — not NUL-terminated, so a read past the end is an ASan
 * report.  Three readers see them: ebpf_asm() on the whole text (every dialect of bpf/asm.h,
 * detected per line), casefile__open_mem() (format detection, "-- name" sections, assembly of
 * the asm section and validation), and ebpf_parse_hex() on every section (how -- input and
 * -- helper are read).  When the text assembles, the disassembly of the result must assemble to
 * the same slots: the round trip bpf/asm.h promises for any instructions.
 */
#include <stdlib.h>
#include <string.h>

#include "bpf/asm.h"
#include "bpf/prog.h"
#include "casefile/casefile.h"
#include "fuzz/targets/fuzz_check.h"

#define FUZZ_MAX_TEXT (64 * 1024)	/* longer texts add time, not coverage */

static void check_roundtrip(const struct bpf_insn *insns, size_t len, const char *src)
{
	struct sbuf sb = SBUF_INIT;
	struct bpf_insn *back = NULL;
	size_t blen = 0;
	struct diag d;
	int err;

	ebpf_disasm(&sb, insns, len, 0);
	diag_clear(&d);
	err = ebpf_asm(&back, &blen, NULL, sbuf_cstr(&sb), sb.len, 1, &d);
	CHECK(!err, "the disassembly does not assemble: line %d:%d: %s\n--- source:\n%s\n--- "
		    "disassembly:\n%s", d.line, d.col, d.msg, src, sbuf_cstr(&sb));
	CHECK(blen == len && (!len || !memcmp(back, insns, len * sizeof(*insns))),
	      "asm(disasm(asm(text))) != asm(text): %zu slots, then %zu\n--- source:\n%s\n--- "
	      "disassembly:\n%s", len, blen, src, sbuf_cstr(&sb));
	free(back);
	sbuf_free(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct bpf_insn *insns = NULL;
	struct casefile *cf = NULL;
	struct casefile_section *secs = NULL;
	uint32_t *lines = NULL;
	size_t len = 0, nsecs = 0;
	struct diag d;

	if (size > FUZZ_MAX_TEXT)
		return 0;

	diag_clear(&d);
	if (!ebpf_asm(&insns, &len, &lines, text, size, 1, &d)) {
		char *src = strndup(text, size);	/* for the report only */

		size_t nlines = 1;

		CHECK(src, "out of memory");
		for (size_t i = 0; i < size; i++)
			nlines += text[i] == '\n';
		for (size_t i = 0; i < len; i++)
			CHECK(lines[i] <= nlines, "slot %zu has source line %u in a %zu-line text",
			      i, lines[i], nlines);
		check_roundtrip(insns, len, src);
		free(src);
		free(insns);
		free(lines);
	}

	diag_clear(&d);
	if (!casefile__open_mem(&cf, data, size, "fuzz.s", &d)) {
		const struct ebpf_object *obj = cf->obj;

		CHECK(obj->prog_cnt >= 1, "an object without programs opened");
		/* well encoded always; valid unless the loader recorded a structure defect */
		for (size_t i = 0; i < obj->prog_cnt; i++) {
			const struct ebpf_prog *p = &obj->progs[i];

			CHECK(!ebpf_validate_encoding(p->insns, p->len, NULL),
			      "program %zu of an opened object is not well encoded", i);
			CHECK(!ebpf_validate(p->insns, p->len, NULL) == !p->defect[0],
			      "program %zu: defect '%s' disagrees with ebpf_validate", i, p->defect);
		}
		casefile__free(cf);
	}

	diag_clear(&d);
	if (!casefile_sections__parse(&secs, &nsecs, text, size, &d)) {
		for (size_t i = 0; i < nsecs; i++) {
			uint8_t *bytes = NULL;
			size_t n = 0;

			diag_clear(&d);
			if (!ebpf_parse_hex(&bytes, &n, secs[i].text, &d))
				free(bytes);
		}
		casefile_sections__free(secs, nsecs);
	}
	return 0;
}
