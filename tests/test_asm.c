/* Tests of the assembler and disassembler (bpf/asm.c, bpf/disasm.c).
 *
 * The round-trip property asm(disasm(x)) == x is checked exhaustively over every opcode byte with
 * representative register, offset and immediate values, on random valid instructions and on
 * random raw slots (which the disassembler prints as .bytes when they do not validate).  Each
 * input dialect is checked against expected encodings: LLVM's were taken from llvm-mc 14
 * (-show-encoding) and llvm-objdump 14; the cpu v4 forms, which LLVM 14 predates, were worked
 * out by hand from the uapi constants.  Which encodings are valid at all is checked against a
 * model of the ISA written here.  A captured llvm-objdump listing must give the object's bytes.
 * Error messages carry line:col.  With --conformance (the test_asm/conformance ctest): every
 * conformance file's program must assemble, and match the file's "-- raw" slots where it has
 * them.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "bpf/asm.h"
#include "bpf/prog.h"
#include "casefile/casefile.h"
#include "tests/check.h"

/* ---- helpers ---- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	return check_rand(&rng_state);
}

static int assemble(const char *text, struct bpf_insn **insns, size_t *len, struct diag *d)
{
	uint32_t *lines = NULL;
	int err;

	diag_clear(d);
	err = ebpf_asm(insns, len, &lines, text, strlen(text), 1, d);
	free(lines);
	return err;
}

static void hex_of(char *out, size_t n, const struct bpf_insn *insns, size_t len)
{
	const uint8_t *b = (const uint8_t *)insns;
	size_t o = 0;

	out[0] = '\0';
	for (size_t k = 0; k < len * 8 && o + 4 < n; k++)
		o += (size_t)snprintf(out + o, n - o, "%s%02x", k ? " " : "", b[k]);
}

/* disasm with flags, assemble, compare byte for byte. */
static bool roundtrip(const struct bpf_insn *insns, size_t len, unsigned flags, const char *ctx)
{
	struct sbuf sb = SBUF_INIT;
	struct bpf_insn *back = NULL;
	size_t blen = 0;
	struct diag d;
	bool ok;
	int err;

	ebpf_disasm(&sb, insns, len, flags);
	err = assemble(sbuf_cstr(&sb), &back, &blen, &d);
	ok = !err && blen == len && !memcmp(back, insns, len * sizeof(*insns));
	if (!ok) {
		char msg[600];

		diag_format(&d, msg, sizeof(msg));
		fprintf(stderr, "%s (flags %u): round trip failed: %s\n", ctx, flags,
			err ? msg : "different bytes");
		for (size_t pc = 0; !err && pc < len && pc < blen; pc++)
			if (memcmp(&back[pc], &insns[pc], sizeof(*insns))) {
				char h1[64], h2[64];
				struct sbuf one = SBUF_INIT;

				hex_of(h1, sizeof(h1), &insns[pc], 1);
				hex_of(h2, sizeof(h2), &back[pc], 1);
				ebpf_disasm_insn(&one, insns, len, pc, 0);
				fprintf(stderr, "  slot %zu: %s  printed '%s'  reassembled %s\n", pc, h1,
					sbuf_cstr(&one), h2);
				sbuf_free(&one);
				break;
			}
		if (err) {
			/* print the offending line */
			const char *t = sbuf_cstr(&sb);

			for (int l = 1; l < d.line && t; l++) {
				t = strchr(t, '\n');
				t = t ? t + 1 : NULL;
			}
			if (t)
				fprintf(stderr, "  line: %.*s\n", (int)strcspn(t, "\n"), t);
		}
	}
	sbuf_free(&sb);
	free(back);
	return ok;
}

static const unsigned all_flags[] = {
	0, EBPF_DISASM_PC | EBPF_DISASM_OPCODE, EBPF_DISASM_LABELS,
	EBPF_DISASM_PC | EBPF_DISASM_OPCODE | EBPF_DISASM_LABELS, EBPF_DISASM_PC,
};

/* Assembles text and compares with hex bytes. */
static void expect_bytes(const char *text, const char *hex, const char *ctx)
{
	struct bpf_insn *insns = NULL;
	uint8_t *want = NULL;
	size_t len = 0, wlen = 0;
	struct diag d;
	int err;

	err = assemble(text, &insns, &len, &d);
	if (err) {
		char msg[600];

		diag_format(&d, msg, sizeof(msg));
		CHECK(0, "%s: '%s' does not assemble: %s", ctx, text, msg);
		return;
	}
	diag_clear(&d);
	if (ebpf_parse_hex(&want, &wlen, hex, &d)) {
		CHECK(0, "%s: bad expected hex '%s'", ctx, hex);
		free(insns);
		return;
	}
	{
		char got[400];

		hex_of(got, sizeof(got), insns, len);
		CHECK(wlen == len * 8 && !memcmp(want, insns, wlen), "%s: '%s' gave %s, expected %s",
		      ctx, text, got, hex);
	}
	free(want);
	free(insns);
}

/* Expects an error at line:col whose message contains want. */
static void expect_error(const char *text, int first_line, int line, int col, const char *want)
{
	struct bpf_insn *insns = NULL;
	uint32_t *lines = NULL;
	size_t len = 0;
	struct diag d;
	int err;

	diag_clear(&d);
	err = ebpf_asm(&insns, &len, &lines, text, strlen(text), first_line, &d);
	CHECK(err == -EINVAL, "'%s': expected -EINVAL, got %d", text, err);
	CHECK(d.line == line && d.col == col, "'%s': error at %d:%d, expected %d:%d (%s)", text,
	      d.line, d.col, line, col, d.msg);
	CHECK(strstr(d.msg, want) != NULL, "'%s': message '%s' lacks '%s'", text, d.msg, want);
	CHECK(insns == NULL && len == 0, "'%s': output left behind on error", text);
	free(insns);
	free(lines);
}

static void expect_text(const char *hex, unsigned flags, const char *want)
{
	struct sbuf sb = SBUF_INIT;
	uint8_t *b = NULL;
	size_t n = 0;
	struct diag d;

	diag_clear(&d);
	if (ebpf_parse_hex(&b, &n, hex, &d) || n % 8) {
		CHECK(0, "bad hex %s", hex);
		free(b);
		return;
	}
	ebpf_disasm_insn(&sb, (const struct bpf_insn *)b, n / 8, 0, flags);
	CHECK(!strcmp(sbuf_cstr(&sb), want), "%s printed '%s', expected '%s'", hex, sbuf_cstr(&sb),
	      want);
	sbuf_free(&sb);
	free(b);
}

/* ---- round trips ---- */

static const int16_t offs[] = { 0, 1, -1, 2, 3, 8, 16, 32, 0x7fff, -0x8000 };
static const int32_t imms[] = {
	0, 1, -1, 2, 3, 12, 16, 32, 64, 211, 212, 0x40, 0x41, 0x50, 0x51, 0xa0, 0xa1, 0xe1, 0xf1,
	0x100, 0x110, 0x7fff, 70000, -70000, INT32_MIN, INT32_MAX,
};
static const int32_t his[] = { 0, 1, -1, INT32_MIN };

/* Which encodings are valid, written here from the ISA (the kernel's instruction-set.rst and its
 * reserved-field checks) as one case per opcode byte, not from bpf/isa.c: the exhaustive sweep
 * counts what this model accepts and asserts that ebpf_validate_insn agrees on every encoding,
 * so the number of valid opcode bytes and slots is checked, not only printed.  Registers: r0-r10
 * are read and written (a write to r10, the read-only frame pointer, is a valid encoding the
 * verifier refuses where its walk reaches it, check_reg_arg). */
static bool rd(unsigned r)
{
	return r <= 10;
}

static bool wr(unsigned r)
{
	return r <= 10;
}

static bool ref_valid(uint8_t code, unsigned dst, unsigned src, int16_t off, int32_t imm,
		      int32_t hi)
{
	switch (code) {
	/* ALU/ALU64 add sub mul or and lsh rsh xor arsh, immediate / register source */
	case 0x04: case 0x14: case 0x24: case 0x44: case 0x54: case 0x64: case 0x74: case 0xa4:
	case 0xc4: case 0x07: case 0x17: case 0x27: case 0x47: case 0x57: case 0x67: case 0x77:
	case 0xa7: case 0xc7:
		return wr(dst) && src == 0 && off == 0;
	case 0x0c: case 0x1c: case 0x2c: case 0x4c: case 0x5c: case 0x6c: case 0x7c: case 0xac:
	case 0xcc: case 0x0f: case 0x1f: case 0x2f: case 0x4f: case 0x5f: case 0x6f: case 0x7f:
	case 0xaf: case 0xcf:
		return wr(dst) && rd(src) && off == 0 && imm == 0;
	/* div, mod: off 1 is the signed form */
	case 0x34: case 0x94: case 0x37: case 0x97:
		return wr(dst) && src == 0 && (off == 0 || off == 1);
	case 0x3c: case 0x9c: case 0x3f: case 0x9f:
		return wr(dst) && rd(src) && (off == 0 || off == 1) && imm == 0;
	/* mov; movsx takes the source width in off (32 only for 64-bit mov) */
	case 0xb4: case 0xb7:
		return wr(dst) && src == 0 && off == 0;
	case 0xbc:
		return wr(dst) && rd(src) && (off == 0 || off == 8 || off == 16) && imm == 0;
	case 0xbf:
		return wr(dst) && rd(src) && (off == 0 || off == 8 || off == 16 || off == 32) &&
		       imm == 0;
	/* neg */
	case 0x84: case 0x87:
		return wr(dst) && src == 0 && off == 0 && imm == 0;
	/* le, be, bswap: the width in imm */
	case 0xd4: case 0xdc: case 0xd7:
		return wr(dst) && src == 0 && off == 0 && (imm == 16 || imm == 32 || imm == 64);
	/* ja (target in off), gotol (target in imm) */
	case 0x05:
		return dst == 0 && src == 0 && imm == 0;
	case 0x06:
		return dst == 0 && src == 0 && off == 0;
	/* conditional jumps of JMP and JMP32 */
	case 0x15: case 0x25: case 0x35: case 0x45: case 0x55: case 0x65: case 0x75: case 0xa5:
	case 0xb5: case 0xc5: case 0xd5: case 0x16: case 0x26: case 0x36: case 0x46: case 0x56:
	case 0x66: case 0x76: case 0xa6: case 0xb6: case 0xc6: case 0xd6:
		return rd(dst) && src == 0;
	case 0x1d: case 0x2d: case 0x3d: case 0x4d: case 0x5d: case 0x6d: case 0x7d: case 0xad:
	case 0xbd: case 0xcd: case 0xdd: case 0x1e: case 0x2e: case 0x3e: case 0x4e: case 0x5e:
	case 0x6e: case 0x7e: case 0xae: case 0xbe: case 0xce: case 0xde:
		return rd(dst) && rd(src) && imm == 0;
	/* call: helper (non-negative id), bpf-to-bpf (src 1), kfunc (src 2, off is the BTF fd
	 * index); callx takes its target in dst */
	case 0x85:
		return dst == 0 && ((src == 0 && off == 0 && imm >= 0) || (src == 1 && off == 0) ||
				    src == 2);
	case 0x8d:
		return rd(dst) && src == 0 && off == 0 && imm == 0;
	case 0x95:
		return dst == 0 && src == 0 && off == 0 && imm == 0;
	/* may_goto */
	case 0xe5:
		return dst == 0 && src == 0 && imm == 0;
	/* lddw: src is the pseudo kind (0..6); map fd/idx and func have no upper half */
	case 0x18:
		return wr(dst) && off == 0 && src <= 6 &&
		       !((src == 1 || src == 4 || src == 5) && hi != 0);
	/* legacy packet loads: abs (no register), ind (index in src) */
	case 0x20: case 0x28: case 0x30:
		return dst == 0 && src == 0 && off == 0;
	case 0x40: case 0x48: case 0x50:
		return dst == 0 && rd(src) && off == 0;
	/* ldx and ldxs (sign-extending, no 8-byte form) */
	case 0x61: case 0x69: case 0x71: case 0x79: case 0x81: case 0x89: case 0x91:
		return wr(dst) && rd(src) && imm == 0;
	/* st, stx */
	case 0x62: case 0x6a: case 0x72: case 0x7a:
		return rd(dst) && src == 0;
	case 0x63: case 0x6b: case 0x73: case 0x7b:
		return rd(dst) && rd(src) && imm == 0;
	/* atomics: read-modify-write (4 and 8 bytes; the fetching ones write src), load-acquire
	 * (writes dst) and store-release at every size */
	case 0xc3: case 0xcb: case 0xd3: case 0xdb: {
		bool wide = code == 0xc3 || code == 0xdb;

		switch (imm) {
		case 0x00: case 0x40: case 0x50: case 0xa0:
		case 0xf1:	/* cmpxchg: the old value goes to r0, not src */
			return wide && rd(dst) && rd(src);
		case 0x01: case 0x41: case 0x51: case 0xa1: case 0xe1:
			return wide && rd(dst) && wr(src);
		case 0x100:
			return wr(dst) && rd(src);
		case 0x110:
			return rd(dst) && rd(src);
		default:
			return false;
		}
	}
	default:
		return false;
	}
}

/* Every opcode byte with representative fields: keeps what ebpf_validate_insn accepts, which
 * must be what ref_valid() accepts. */
static void test_exhaustive(void)
{
	struct bpf_insn *v = malloc(sizeof(*v) * 400000);
	size_t total = 0, codes = 0, want_total = 0, want_codes = 0;
	bool seen[256] = { false };
	struct diag d;

	if (!v) {
		CHECK(0, "out of memory");
		return;
	}
	for (unsigned code = 0; code < 256; code++) {
		size_t n = 0, want = 0, differ = 0;
		bool ld64 = code == (BPF_LD | BPF_IMM | BPF_DW);
		struct bpf_insn first_diff[2] = { { 0 } };

		for (unsigned dst = 0; dst < 13; dst++)
			for (unsigned src = 0; src < 13; src++)
				for (size_t o = 0; o < sizeof(offs) / sizeof(offs[0]); o++)
					for (size_t m = 0; m < sizeof(imms) / sizeof(imms[0]); m++)
						for (size_t h = 0; h < (ld64 ? 4 : 1); h++) {
							struct bpf_insn i[2];

							memset(i, 0, sizeof(i));
							i[0].code = (uint8_t)code;
							i[0].dst_reg = dst & 0xf;
							i[0].src_reg = src == 12 ? 15 : src;
							i[0].off = offs[o];
							i[0].imm = imms[m];
							i[1].imm = his[h];
							bool ok = !ebpf_validate_insn(i, 2, &d);
							bool ref = ref_valid(i[0].code,
									     i[0].dst_reg,
									     i[0].src_reg,
									     i[0].off, i[0].imm,
									     i[1].imm);

							want += ref ? (ld64 ? 2 : 1) : 0;
							if (ok != ref && !differ++)
								memcpy(first_diff, i,
								       sizeof(i));
							if (!ok)
								continue;
							if (n + 2 > 400000)
								continue;
							v[n++] = i[0];
							if (ld64)
								v[n++] = i[1];
						}
		CHECK(!differ, "opcode 0x%02x: the validator and the model differ on %zu encodings, "
		      "first dst %u src %u off %d imm %d hi %d (model: %s)", code, differ,
		      first_diff[0].dst_reg, first_diff[0].src_reg, first_diff[0].off,
		      first_diff[0].imm, first_diff[1].imm,
		      differ && ref_valid(first_diff[0].code, first_diff[0].dst_reg,
					  first_diff[0].src_reg, first_diff[0].off, first_diff[0].imm,
					  first_diff[1].imm) ? "valid" : "invalid");
		want_total += want;
		want_codes += want > 0;
		if (!n)
			continue;
		seen[code] = true;
		codes++;
		total += n;
		for (size_t f = 0; f < sizeof(all_flags) / sizeof(all_flags[0]); f++) {
			char ctx[64];

			snprintf(ctx, sizeof(ctx), "exhaustive code 0x%02x", code);
			CHECK(roundtrip(v, n, all_flags[f], ctx), "%s", ctx);
		}
	}
	free(v);
	printf("exhaustive: %zu opcode bytes valid, %zu slots round-tripped\n", codes, total);
	CHECK_EQ_U64(codes, want_codes, "valid opcode bytes (the model's count)");
	CHECK_EQ_U64(total, want_total, "valid slots (the model's count)");
	/* Every instruction family must be among them (the validator's view of the ISA). */
	{
		static const uint8_t must[] = {
			0x07, 0x0f, 0x04, 0x0c, 0x87, 0x84, 0xd4, 0xdc, 0xd7, 0xbf, 0xbc, 0x3f, 0x9f,
			0x18, 0x20, 0x28, 0x30, 0x40, 0x48, 0x50, 0x61, 0x69, 0x71, 0x79, 0x81, 0x89,
			0x91, 0x62, 0x6a, 0x72, 0x7a, 0x63, 0x6b, 0x73, 0x7b, 0xc3, 0xdb, 0xd3, 0xcb,
			0x05, 0x06, 0x15, 0x1d, 0x16, 0x1e, 0x45, 0x4d, 0xa5, 0xd5, 0xde, 0x85, 0x8d,
			0x95, 0xe5,
		};

		for (size_t k = 0; k < sizeof(must); k++)
			CHECK(seen[must[k]], "opcode 0x%02x never validated", must[k]);
	}
}

/* A random instruction, biased towards fields that validate. */
static struct bpf_insn random_insn(void)
{
	static const int16_t soffs[] = { 0, 1, 8, 16, 32, -1 };
	static const int32_t simms[] = { 16, 32, 64, 0, 1, 0x41, 0xe1, 0xf1, 0x100, 0x110 };
	struct bpf_insn i;
	uint64_t r = rnd();

	memset(&i, 0, sizeof(i));
	i.code = (uint8_t)r;
	i.dst_reg = (r >> 8) % 11;
	i.src_reg = (r >> 12) % ((r >> 16) & 1 ? 7 : 11);
	switch ((r >> 20) % 4) {
	case 0: i.off = 0; break;
	case 1: i.off = soffs[(r >> 24) % 6]; break;
	default: i.off = (int16_t)(uint16_t)(r >> 24); break;
	}
	switch ((r >> 40) % 4) {
	case 0: i.imm = 0; break;
	case 1: i.imm = simms[(r >> 44) % 10]; break;
	default: i.imm = (int32_t)(uint32_t)rnd(); break;
	}
	return i;
}

static void test_random(void)
{
	enum { WANT = 120000, MAXP = 64 };
	struct bpf_insn p[MAXP + 1];
	size_t got = 0, progs = 0, raw = 0;
	struct diag d;

	while (got < WANT) {
		size_t n = 1 + rnd() % MAXP, k = 0;
		char ctx[64];

		while (k < n) {
			struct bpf_insn i[2] = { random_insn(), { 0 } };

			if (i[0].code == (BPF_LD | BPF_IMM | BPF_DW)) {
				i[1].imm = (int32_t)(uint32_t)rnd();
				i[0].src_reg %= 7;
				if (i[0].src_reg == BPF_PSEUDO_MAP_FD || i[0].src_reg == BPF_PSEUDO_MAP_IDX ||
				    i[0].src_reg == BPF_PSEUDO_FUNC)
					i[1].imm = 0;
				i[0].off = 0;
				if (k + 2 > n)
					continue;
			}
			if (ebpf_validate_insn(i, 2, &d))
				continue;
			p[k++] = i[0];
			if (ebpf_is_ldimm64(i))
				p[k++] = i[1];
		}
		got += n;
		progs++;
		snprintf(ctx, sizeof(ctx), "random program %zu", progs);
		CHECK(roundtrip(p, n, all_flags[rnd() % 5], ctx), "%s", ctx);
	}
	/* Raw slots, valid or not: what cannot be named is printed as .bytes and comes back. */
	while (raw < 60000) {
		size_t n = 1 + rnd() % MAXP;
		char ctx[64];

		for (size_t k = 0; k < n; k++) {
			uint64_t r = rnd();

			memcpy(&p[k], &r, sizeof(r));
			if (rnd() % 4 == 0)
				p[k] = random_insn();
		}
		raw += n;
		snprintf(ctx, sizeof(ctx), "raw program %zu", progs++);
		CHECK(roundtrip(p, n, all_flags[rnd() % 5], ctx), "%s", ctx);
	}
	printf("random: %zu valid and %zu raw slots round-tripped\n", got, raw);
}

/* ---- dialects ---- */

struct enc {
	const char *text, *hex;
};

static void test_kernel_syntax(void)
{
	static const struct enc k[] = {
		{ "r1 = 0", "b7 01 00 00 00 00 00 00" },
		{ "w2 += 4", "04 02 00 00 04 00 00 00" },
		{ "r1 = -r1", "87 01 00 00 00 00 00 00" },
		{ "w1 = -w1", "84 01 00 00 00 00 00 00" },
		{ "w1 = (s8)w2", "bc 21 08 00 00 00 00 00" },
		{ "w1 = (s16)w2", "bc 21 10 00 00 00 00 00" },
		{ "r1 = (s32)r2", "bf 21 20 00 00 00 00 00" },
		{ "r1 s/= r2", "3f 21 01 00 00 00 00 00" },
		{ "w1 s/= 3", "34 01 01 00 03 00 00 00" },
		{ "r1 s%= 3", "97 01 01 00 03 00 00 00" },
		{ "w1 s%= w2", "9c 21 01 00 00 00 00 00" },
		{ "r1 %= r2", "9f 21 00 00 00 00 00 00" },
		{ "r1 = be16 r1", "dc 01 00 00 10 00 00 00" },
		{ "r1 = le32 r1", "d4 01 00 00 20 00 00 00" },
		{ "r1 = bswap64 r1", "d7 01 00 00 40 00 00 00" },
		{ "if r1 < 0xa goto pc-3", "a5 01 fd ff 0a 00 00 00" },
		{ "if w1 s> w2 goto +5", "6e 21 05 00 00 00 00 00" },
		{ "if r1 & 0x4 goto pc+1", "45 01 01 00 04 00 00 00" },
		{ "if r1 & r2 goto pc+1", "4d 21 01 00 00 00 00 00" },
		{ "if r1 > 0xffffffff goto pc+0", "25 01 00 00 ff ff ff ff" },
		{ "goto pc+2", "05 00 02 00 00 00 00 00" },
		{ "gotol pc+70000", "06 00 00 00 70 11 01 00" },
		{ "gotol pc-1", "06 00 00 00 ff ff ff ff" },
		{ "may_goto pc+3", "e5 00 03 00 00 00 00 00" },
		{ "r0 = *(u32 *)(r1 +4)", "61 10 04 00 00 00 00 00" },
		{ "r0 = *(s16 *)(r1 -2)", "89 10 fe ff 00 00 00 00" },
		{ "r0 = *(s8 *)(r1 +0)", "91 10 00 00 00 00 00 00" },
		{ "r0 = *(s32 *)(r1 +0)", "81 10 00 00 00 00 00 00" },
		{ "*(u64 *)(r10 -8) = r1", "7b 1a f8 ff 00 00 00 00" },
		{ "*(u32 *)(r10 -4) = 7", "62 0a fc ff 07 00 00 00" },
		{ "*(u8 *)(r10 -1) = -1", "72 0a ff ff ff ff ff ff" },
		{ "lock *(u64 *)(r10 -8) += r1", "db 1a f8 ff 00 00 00 00" },
		{ "lock *(u32 *)(r10 -8) ^= r1", "c3 1a f8 ff a0 00 00 00" },
		{ "r0 = atomic64_fetch_add((u64 *)(r10 -8), r0)", "db 0a f8 ff 01 00 00 00" },
		{ "r0 = atomic_fetch_or((u32 *)(r1 +0), r0)", "c3 01 00 00 41 00 00 00" },
		{ "r2 = atomic64_fetch_and((u64 *)(r1 +0), r2)", "db 21 00 00 51 00 00 00" },
		{ "r2 = atomic_fetch_xor((u32 *)(r1 +0), r2)", "c3 21 00 00 a1 00 00 00" },
		{ "r1 = atomic64_xchg((u64 *)(r2 +0), r1)", "db 12 00 00 e1 00 00 00" },
		{ "r1 = atomic_xchg((u32 *)(r2 +0), r1)", "c3 12 00 00 e1 00 00 00" },
		{ "r0 = atomic64_cmpxchg((u64 *)(r1 +0), r0, r2)", "db 21 00 00 f1 00 00 00" },
		{ "r0 = atomic_cmpxchg((u32 *)(r1 +0), r0, r2)", "c3 21 00 00 f1 00 00 00" },
		{ "r0 = load_acquire((u64 *)(r1 +0))", "db 10 00 00 00 01 00 00" },
		{ "r0 = load_acquire((u8 *)(r1 +2))", "d3 10 02 00 00 01 00 00" },
		{ "store_release((u64 *)(r1 +0), r2)", "db 21 00 00 10 01 00 00" },
		{ "store_release((u16 *)(r1 -4), r2)", "cb 21 fc ff 10 01 00 00" },
		{ "r0 = *(u8 *)skb[12]", "30 00 00 00 0c 00 00 00" },
		{ "r0 = *(u16 *)skb[r1 + 4]", "48 10 00 00 04 00 00 00" },
		{ "r0 = *(u32 *)skb[r1 + -4]", "40 10 00 00 fc ff ff ff" },
		{ "call bpf_map_lookup_elem#1", "85 00 00 00 01 00 00 00" },
		{ "call bpf_map_lookup_elem", "85 00 00 00 01 00 00 00" },
		{ "call 7", "85 00 00 00 07 00 00 00" },
		{ "call unknown#300", "85 00 00 00 2c 01 00 00" },
		{ "call pc+5", "85 10 00 00 05 00 00 00" },
		{ "call pc-2", "85 10 00 00 fe ff ff ff" },
		{ "call -1", "85 10 00 00 ff ff ff ff" },
		{ "call kernel-function#1234", "85 20 00 00 d2 04 00 00" },
		{ "call kfunc#1234 off:2", "85 20 02 00 d2 04 00 00" },
		{ "call bpf_obj_new_impl#54321", "85 20 00 00 31 d4 00 00" },
		{ "callx r2", "8d 02 00 00 00 00 00 00" },
		{ "call r3", "8d 03 00 00 00 00 00 00" },
		{ "r1 = 0x1234 ll", "18 01 00 00 34 12 00 00 00 00 00 00 00 00 00 00" },
		{ "r1 = 0xffffffffffffffff ll", "18 01 00 00 ff ff ff ff 00 00 00 00 ff ff ff ff" },
		{ "r3 = 0x100000000", "18 03 00 00 00 00 00 00 00 00 00 00 01 00 00 00" },
		{ "(18) r1 = 0x5", "18 01 00 00 05 00 00 00 00 00 00 00 00 00 00 00" },
		{ "r1 = map[fd:3] ll", "18 11 00 00 03 00 00 00 00 00 00 00 00 00 00 00" },
		{ "r1 = map[fd:3]+16 ll", "18 21 00 00 03 00 00 00 00 00 00 00 10 00 00 00" },
		{ "r1 = map[fd:3]+0", "18 21 00 00 03 00 00 00 00 00 00 00 00 00 00 00" },
		{ "r1 = map[idx:0] ll", "18 51 00 00 00 00 00 00 00 00 00 00 00 00 00 00" },
		{ "r1 = map[idx:0]+8 ll", "18 61 00 00 00 00 00 00 00 00 00 00 08 00 00 00" },
		{ "r1 = btf_id 5 ll", "18 31 00 00 05 00 00 00 00 00 00 00 00 00 00 00" },
		{ "r1 = btf_id 5 btf_fd:7 ll", "18 31 00 00 05 00 00 00 00 00 00 00 07 00 00 00" },
		{ "r1 = func pc+4 ll", "18 41 00 00 04 00 00 00 00 00 00 00 00 00 00 00" },
		{ "r2 = 0xffffffff", "b7 02 00 00 ff ff ff ff" },
		{ "w2 = -2147483648", "b4 02 00 00 00 00 00 80" },
		{ "exit", "95 00 00 00 00 00 00 00" },
		{ "(07) r1 += 1   ; R1_w=scalar(smin=1)", "07 01 00 00 01 00 00 00" },
		{ ".bytes 07 01 00 00 01 00 00 00", "07 01 00 00 01 00 00 00" },
	};

	for (size_t n = 0; n < sizeof(k) / sizeof(k[0]); n++)
		expect_bytes(k[n].text, k[n].hex, "kernel syntax");

	/* A level-2 verifier log: pure state lines, source annotations and instructions the
	 * verifier revisits on a second path are skipped. */
	expect_bytes("func#0 @0\n"
		     "0: R1=ctx() R10=fp0\n"
		     "; int x = 0; @ prog.c:3\n"
		     "0: (b7) r0 = 0                        ; R0_w=0\n"
		     "1: (b7) r1 = 3                        ; R1_w=3\n"
		     "2: (07) r0 += 1                       ; R0_w=1\n"
		     "3: (07) r1 += -1                      ; R1_w=2\n"
		     "4: (55) if r1 != 0x0 goto pc-3        ; R1_w=2\n"
		     "2: R0_w=1 R1_w=2 R10=fp0\n"
		     "2: (07) r0 += 1                       ; R0_w=2\n"
		     "3: (07) r1 += -1                      ; R1_w=1\n"
		     "4: (55) if r1 != 0x0 goto pc-3\n"
		     "5: (18) r2 = 0x1122334455667788\n"
		     "7: (95) exit\n"
		     "from 4 to 5: R0=3 R1=0 R10=fp0\n"
		     "processed 12 insns (limit 1000000) max_states_per_insn 0 total_states 1\n",
		     "b7 00 00 00 00 00 00 00  b7 01 00 00 03 00 00 00  07 00 00 00 01 00 00 00"
		     " 07 01 00 00 ff ff ff ff  55 01 fd ff 00 00 00 00"
		     " 18 02 00 00 88 77 66 55 00 00 00 00 44 33 22 11  95 00 00 00 00 00 00 00",
		     "verifier log");
	/* bpftool prog dump xlated */
	expect_bytes("int prog(struct __sk_buff * skb):\n"
		     "; return skb->len;\n"
		     "   0: (61) r0 = *(u32 *)(r1 +0)\n"
		     "   1: (95) exit\n",
		     "61 10 00 00 00 00 00 00  95 00 00 00 00 00 00 00", "bpftool xlated");

	/* The printer's exact text, as kernel/bpf/disasm.c prints it. */
	expect_text("07 01 00 00 01 00 00 00", EBPF_DISASM_PC | EBPF_DISASM_OPCODE, "0: (07) r1 += 1");
	expect_text("07 01 00 00 ff ff ff ff", 0, "r1 += -1");
	expect_text("a5 01 fd ff 0a 00 00 00", 0, "if r1 < 0xa goto pc-3");
	expect_text("a6 01 fd ff ff ff ff ff", 0, "if w1 < 0xffffffff goto pc-3");
	expect_text("2d 21 02 00 00 00 00 00", 0, "if r1 > r2 goto pc+2");
	expect_text("61 10 04 00 00 00 00 00", 0, "r0 = *(u32 *)(r1 +4)");
	expect_text("89 10 fe ff 00 00 00 00", 0, "r0 = *(s16 *)(r1 -2)");
	expect_text("7b 1a f8 ff 00 00 00 00", 0, "*(u64 *)(r10 -8) = r1");
	expect_text("62 0a fc ff 07 00 00 00", 0, "*(u32 *)(r10 -4) = 7");
	expect_text("db 1a f8 ff 00 00 00 00", 0, "lock *(u64 *)(r10 -8) += r1");
	expect_text("db 0a f8 ff 01 00 00 00", 0, "r0 = atomic64_fetch_add((u64 *)(r10 -8), r0)");
	expect_text("c3 01 00 00 41 00 00 00", 0, "r0 = atomic_fetch_or((u32 *)(r1 +0), r0)");
	expect_text("db 21 00 00 f1 00 00 00", 0, "r0 = atomic64_cmpxchg((u64 *)(r1 +0), r0, r2)");
	expect_text("db 10 00 00 00 01 00 00", 0, "r0 = load_acquire((u64 *)(r1 +0))");
	expect_text("db 21 00 00 10 01 00 00", 0, "store_release((u64 *)(r1 +0), r2)");
	expect_text("dc 01 00 00 10 00 00 00", 0, "r1 = be16 r1");
	expect_text("d7 01 00 00 40 00 00 00", 0, "r1 = bswap64 r1");
	expect_text("bc 21 08 00 00 00 00 00", 0, "w1 = (s8)w2");
	expect_text("3f 21 01 00 00 00 00 00", 0, "r1 s/= r2");
	expect_text("48 10 00 00 04 00 00 00", 0, "r0 = *(u16 *)skb[r1 + 4]");
	expect_text("30 00 00 00 0c 00 00 00", 0, "r0 = *(u8 *)skb[12]");
	expect_text("85 00 00 00 01 00 00 00", 0, "call bpf_map_lookup_elem#1");
	expect_text("85 10 00 00 05 00 00 00", 0, "call pc+5");
	expect_text("85 20 02 00 d2 04 00 00", 0, "call kernel-function#1234 off:2");
	expect_text("06 00 00 00 70 11 01 00", 0, "gotol pc+70000");
	expect_text("e5 00 03 00 00 00 00 00", 0, "may_goto pc+3");
	expect_text("18 21 00 00 03 00 00 00 00 00 00 00 10 00 00 00", 0, "r1 = map[fd:3]+16 ll");
	expect_text("18 01 00 00 34 12 00 00 00 00 00 00 00 00 00 00", 0, "r1 = 0x1234 ll");
	expect_text("05 00 00 00 00 00 00 00", EBPF_DISASM_LABELS, "goto L1");
	expect_text("07 0b 00 00 01 00 00 00", 0, ".bytes 07 0b 00 00 01 00 00 00");
}

/* LLVM's assembler syntax; encodings from llvm-mc 14 -show-encoding (the atomics from
 * llvm-objdump 14 --mattr=+alu32, whose asm parser does not read them). */
static void test_llvm_syntax(void)
{
	static const struct enc k[] = {
		{ "r1 += 1", "07 01 00 00 01 00 00 00" },
		{ "w2 -= 3", "14 02 00 00 03 00 00 00" },
		{ "r3 *= r4", "2f 43 00 00 00 00 00 00" },
		{ "w5 /= w6", "3c 65 00 00 00 00 00 00" },
		{ "r7 |= 0xff", "47 07 00 00 ff 00 00 00" },
		{ "r8 &= -1", "57 08 00 00 ff ff ff ff" },
		{ "r9 <<= 63", "67 09 00 00 3f 00 00 00" },
		{ "w0 >>= 31", "74 00 00 00 1f 00 00 00" },
		{ "r1 s>>= r2", "cf 21 00 00 00 00 00 00" },
		{ "w1 ^= w2", "ac 21 00 00 00 00 00 00" },
		{ "r1 = r10", "bf a1 00 00 00 00 00 00" },
		{ "w1 = 2147483647", "b4 01 00 00 ff ff ff 7f" },
		{ "r1 = -1", "b7 01 00 00 ff ff ff ff" },
		{ "w1 = -1", "b4 01 00 00 ff ff ff ff" },
		{ "r1 = be64 r1", "dc 01 00 00 40 00 00 00" },
		{ "r1 = le16 r1", "d4 01 00 00 10 00 00 00" },
		{ "r0 = *(u8 *)(r1 + 0)", "71 10 00 00 00 00 00 00" },
		{ "r0 = *(u16 *)(r1 - 2)", "69 10 fe ff 00 00 00 00" },
		{ "r0 = *(u64 *)(r10 - 512)", "79 a0 00 fe 00 00 00 00" },
		{ "w2 = *(u32 *)(r1 + 4)", "61 12 04 00 00 00 00 00" },
		{ "*(u8 *)(r10 - 1) = r1", "73 1a ff ff 00 00 00 00" },
		{ "*(u16 *)(r1 + 32767) = r2", "6b 21 ff 7f 00 00 00 00" },
		{ "*(u32 *)(r1 - 32768) = w2", "63 21 00 80 00 00 00 00" },
		{ "r0 = *(u32 *)skb[4]", "20 00 00 00 04 00 00 00" },
		{ "r0 = *(u32 *)skb[r3]", "40 30 00 00 00 00 00 00" },
		{ "r0 = *(u16 *)skb[r1]", "48 10 00 00 00 00 00 00" },
		{ "if r1 == r2 goto +1", "1d 21 01 00 00 00 00 00" },
		{ "if r1 != 0 goto -1", "55 01 ff ff 00 00 00 00" },
		{ "if r1 < 10 goto -3", "a5 01 fd ff 0a 00 00 00" },
		{ "if w1 >= 5 goto +2", "36 01 02 00 05 00 00 00" },
		{ "if w1 <= w3 goto +0", "be 31 00 00 00 00 00 00" },
		{ "if r1 s>= -1 goto +7", "75 01 07 00 ff ff ff ff" },
		{ "if r1 s<= r2 goto +7", "dd 21 07 00 00 00 00 00" },
		{ "if r1 s< 3 goto +7", "c5 01 07 00 03 00 00 00" },
		{ "if r1 > r2 goto +7", "2d 21 07 00 00 00 00 00" },
		{ "if r1 > -1 goto +0", "25 01 00 00 ff ff ff ff" },
		{ "lock *(u64 *)(r1 + 8) += r2", "db 21 08 00 00 00 00 00" },
		{ "lock *(u32 *)(r10 - 8) += w1", "c3 1a f8 ff 00 00 00 00" },
		{ "lock *(u32 *)(r1 + 0) |= w2", "c3 21 00 00 40 00 00 00" },
		{ "lock *(u64 *)(r1 + 0) ^= r2", "db 21 00 00 a0 00 00 00" },
		{ "lock *(u32 *)(r2 + 0) &= w1", "c3 12 00 00 50 00 00 00" },
		{ "r5 = atomic_fetch_add((u64 *)(r1 + 0), r5)", "db 51 00 00 01 00 00 00" },
		{ "w4 = atomic_fetch_or((u32 *)(r2 + 0), w4)", "c3 42 00 00 41 00 00 00" },
		{ "r7 = xchg_64(r1 + 0, r7)", "db 71 00 00 e1 00 00 00" },
		{ "w3 = xchg32_32(r2 + 0, w3)", "c3 32 00 00 e1 00 00 00" },
		{ "r0 = cmpxchg_64(r1 + 0, r0, r3)", "db 31 00 00 f1 00 00 00" },
		{ "w0 = cmpxchg32_32(r2 + 0, w0, w3)", "c3 32 00 00 f1 00 00 00" },
		{ "r0 = 9223372036854775807 ll", "18 00 00 00 ff ff ff ff 00 00 00 00 ff ff ff 7f" },
		{ "r1 = -1 ll", "18 01 00 00 ff ff ff ff 00 00 00 00 ff ff ff ff" },
		{ "r1 = 4660 ll", "18 01 00 00 34 12 00 00 00 00 00 00 00 00 00 00" },
		{ "call 12", "85 00 00 00 0c 00 00 00" },
		{ "exit", "95 00 00 00 00 00 00 00" },
	};

	for (size_t n = 0; n < sizeof(k) / sizeof(k[0]); n++)
		expect_bytes(k[n].text, k[n].hex, "llvm syntax");

	/* Selftest inline-asm style: labels, ';' separators, every comment kind, 1b/1f. */
	expect_bytes("/* a comment\n"
		     "   over lines */ r0 = 0          // line comment\n"
		     "loop: r0 += 1; if r0 < 10 goto loop   # hash comment\n"
		     "1: r1 = 2\n"
		     "if r1 > 3 goto 1f\n"
		     "goto 1b\n"
		     "1:\n"
		     "\tcall sub; exit\n"
		     "sub:\n"
		     "\tr0 = 1 /* inline */ ; exit;\n",
		     "b7 00 00 00 00 00 00 00"	/* 0: r0 = 0 */
		     " 07 00 00 00 01 00 00 00"	/* 1: loop */
		     " a5 00 fe ff 0a 00 00 00"	/* 2: if r0 < 10 goto 1 */
		     " b7 01 00 00 02 00 00 00"	/* 3: 1: */
		     " 25 01 01 00 03 00 00 00"	/* 4: goto 1f (6) */
		     " 05 00 fd ff 00 00 00 00"	/* 5: goto 1b (3) */
		     " 85 10 00 00 01 00 00 00"	/* 6: call sub (8) */
		     " 95 00 00 00 00 00 00 00"	/* 7 */
		     " b7 00 00 00 01 00 00 00"	/* 8: sub */
		     " 95 00 00 00 00 00 00 00",
		     "llvm program");
	/* "1: goto 1b" is a jump to itself; "call name" prefers a label over a helper. */
	expect_bytes("1: goto 1b", "05 00 ff ff 00 00 00 00", "local label on own line");
	expect_bytes("\xef\xbb\xbfr0 = 0\r\nexit\r\n", "b7 00 00 00 00 00 00 00 95 00 00 00 00 00 00 00",
		     "byte order mark and CRLF");
	expect_bytes("call bpf_ktime_get_ns\nexit\nbpf_ktime_get_ns: exit",
		     "85 10 00 00 01 00 00 00 95 00 00 00 00 00 00 00 95 00 00 00 00 00 00 00",
		     "label wins over helper");
	expect_bytes("r1 = func f ll\nexit\nf: exit",
		     "18 41 00 00 02 00 00 00 00 00 00 00 00 00 00 00 95 00 00 00 00 00 00 00"
		     " 95 00 00 00 00 00 00 00", "func label");
	expect_bytes("gotol far\nfar: exit", "06 00 00 00 00 00 00 00 95 00 00 00 00 00 00 00",
		     "gotol label");
}

static void test_ubpf_syntax(void)
{
	static const struct enc k[] = {
		{ "mov32 %r0, 0", "b4 00 00 00 00 00 00 00" },
		{ "mov %r0, -1", "b7 00 00 00 ff ff ff ff" },
		{ "mov32 %r1, 0xffffffff", "b4 01 00 00 ff ff ff ff" },
		{ "add %r0, %r1", "0f 10 00 00 00 00 00 00" },
		{ "add32 %r0, 3", "04 00 00 00 03 00 00 00" },
		{ "sub %r1, %r2", "1f 21 00 00 00 00 00 00" },
		{ "mul32 %r1, 7", "24 01 00 00 07 00 00 00" },
		{ "div %r1, %r2", "3f 21 00 00 00 00 00 00" },
		{ "sdiv %r1, %r2", "3f 21 01 00 00 00 00 00" },
		{ "sdiv32 %r1, -3", "34 01 01 00 fd ff ff ff" },
		{ "mod %r1, 5", "97 01 00 00 05 00 00 00" },
		{ "smod32 %r1, %r2", "9c 21 01 00 00 00 00 00" },
		{ "or %r1, 1", "47 01 00 00 01 00 00 00" },
		{ "and32 %r1, 1", "54 01 00 00 01 00 00 00" },
		{ "lsh %r1, 60", "67 01 00 00 3c 00 00 00" },
		{ "rsh32 %r1, %r2", "7c 21 00 00 00 00 00 00" },
		{ "arsh %r1, 3", "c7 01 00 00 03 00 00 00" },
		{ "xor32 %r1, %r1", "ac 11 00 00 00 00 00 00" },
		{ "neg %r2", "87 02 00 00 00 00 00 00" },
		{ "neg32 %r0", "84 00 00 00 00 00 00 00" },
		{ "be16 %r0", "dc 00 00 00 10 00 00 00" },
		{ "be64 %r0", "dc 00 00 00 40 00 00 00" },
		{ "le32 %r0", "d4 00 00 00 20 00 00 00" },
		{ "swap16 %r0", "d7 00 00 00 10 00 00 00" },
		{ "bswap32 %r0", "d7 00 00 00 20 00 00 00" },
		{ "movsx832 %r0, %r1", "bc 10 08 00 00 00 00 00" },
		{ "movsx1632 %r0, %r1", "bc 10 10 00 00 00 00 00" },
		{ "movsx864 %r0, %r1", "bf 10 08 00 00 00 00 00" },
		{ "movsx1664 %r0, %r1", "bf 10 10 00 00 00 00 00" },
		{ "movsx3264 %r0, %r1", "bf 10 20 00 00 00 00 00" },
		{ "ldxb %r0, [%r1+0x2]", "71 10 02 00 00 00 00 00" },
		{ "ldxh %r0, [%r1]", "69 10 00 00 00 00 00 00" },
		{ "ldxw %r0, [%r1-4]", "61 10 fc ff 00 00 00 00" },
		{ "ldxdw %r0, [%r10-8]", "79 a0 f8 ff 00 00 00 00" },
		{ "ldxsb %r0, [%r10-1]", "91 a0 ff ff 00 00 00 00" },
		{ "ldxsh %r0, [%r1+2]", "89 10 02 00 00 00 00 00" },
		{ "ldxsw %r0, [%r1+4]", "81 10 04 00 00 00 00 00" },
		{ "stb [%r1+2], 0x11", "72 01 02 00 11 00 00 00" },
		{ "sth [%r1+2], -1", "6a 01 02 00 ff ff ff ff" },
		{ "stw [%r1], 0xffffffff", "62 01 00 00 ff ff ff ff" },
		{ "stdw [%r10-8], 5", "7a 0a f8 ff 05 00 00 00" },
		{ "stxb [%r1+1], %r2", "73 21 01 00 00 00 00 00" },
		{ "stxh [%r1+1], %r2", "6b 21 01 00 00 00 00 00" },
		{ "stxw [%r1+1], %r2", "63 21 01 00 00 00 00 00" },
		{ "stxdw [%r10-8], %r0", "7b 0a f8 ff 00 00 00 00" },
		{ "lddw %r0, 0x123456789abcdef0", "18 00 00 00 f0 de bc 9a 00 00 00 00 78 56 34 12" },
		{ "lddw %r1, 0xFFFFFFFF80000000", "18 01 00 00 00 00 00 80 00 00 00 00 ff ff ff ff" },
		{ "ldabsh 12", "28 00 00 00 0c 00 00 00" },
		{ "ldindb %r1, 4", "50 10 00 00 04 00 00 00" },
		{ "lock add [%r10-8], %r1", "db 1a f8 ff 00 00 00 00" },
		{ "lock add32 [%r10-4], %r1", "c3 1a fc ff 00 00 00 00" },
		{ "lock fetch add [%r10-8], %r1", "db 1a f8 ff 01 00 00 00" },
		{ "lock fetch or32 [%r10-4], %r3", "c3 3a fc ff 41 00 00 00" },
		{ "lock and [%r10-8], %r1", "db 1a f8 ff 50 00 00 00" },
		{ "lock fetch xor [%r10-8], %r1", "db 1a f8 ff a1 00 00 00" },
		{ "lock xchg [%r10-8], %r1", "db 1a f8 ff e1 00 00 00" },
		{ "lock xchg32 [%r10-8], %r1", "c3 1a f8 ff e1 00 00 00" },
		{ "lock cmpxchg [%r10-8], %r1", "db 1a f8 ff f1 00 00 00" },
		{ "lock cmpxchg32 [%r10-8], %r1", "c3 1a f8 ff f1 00 00 00" },
		{ "ja +1", "05 00 01 00 00 00 00 00" },
		{ "ja -1", "05 00 ff ff 00 00 00 00" },
		{ "jeq %r1, 0x80000000, +1", "15 01 01 00 00 00 00 80" },
		{ "jslt %r1, 0xfffffffd, +2", "c5 01 02 00 fd ff ff ff" },
		{ "jne32 %r1, %r0, +3", "5e 01 03 00 00 00 00 00" },
		{ "jset %r1, 8, -2", "45 01 fe ff 08 00 00 00" },
		{ "jsge32 %r1, -1, +0", "76 01 00 00 ff ff ff ff" },
		{ "call 5", "85 00 00 00 05 00 00 00" },
		{ "call helper 5", "85 00 00 00 05 00 00 00" },
		{ "call runtime 9", "85 20 00 00 09 00 00 00" },
		{ "call %r2", "8d 02 00 00 00 00 00 00" },
		{ "exit", "95 00 00 00 00 00 00 00" },
	};

	for (size_t n = 0; n < sizeof(k) / sizeof(k[0]); n++)
		expect_bytes(k[n].text, k[n].hex, "ubpf syntax");

	/* Labels, ja32 (gotol), "call local", and "exit" as a target: the first exit instruction
	 * when no label is named exit (bpf_conformance's assembler does the same). */
	expect_bytes("mov %r0, 0\n"
		     "jeq %r0, 1, exit   # to pc 5\n"
		     "ja32 L1\n"
		     "L1:\n"
		     "call local func1\n"
		     "ja L2\n"
		     "exit\n"
		     "L2:\n"
		     "exit\n"
		     "func1:\n"
		     "exit\n",
		     "b7 00 00 00 00 00 00 00"
		     " 15 00 03 00 01 00 00 00"
		     " 06 00 00 00 00 00 00 00"
		     " 85 10 00 00 03 00 00 00"
		     " 05 00 01 00 00 00 00 00"
		     " 95 00 00 00 00 00 00 00"
		     " 95 00 00 00 00 00 00 00"
		     " 95 00 00 00 00 00 00 00",
		     "ubpf program");
	expect_bytes("ja exit\nmov %r0, 1\nexit:\nexit", "05 00 01 00 00 00 00 00 b7 00 00 00 01 00 00 00"
		     " 95 00 00 00 00 00 00 00", "explicit exit label");
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) == (size_t)n) {
		buf[n] = '\0';
		*len = (size_t)n;
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* A captured llvm-objdump -d listing gives the object's bytes, with and without raw bytes. */
static void test_objdump(void)
{
	static const char *const txts[] = { "objdump_sample.txt", "objdump_sample_noraw.txt" };
	char path[1024];
	size_t blen = 0;
	char *bin;

	snprintf(path, sizeof(path), "%s/tests/data/objdump_sample.bin", check_source_dir());
	bin = read_all(path, &blen);
	CHECK(bin && blen > 100 && blen % 8 == 0, "cannot read %s", path);
	if (!bin)
		return;
	for (size_t k = 0; k < 2; k++) {
		struct bpf_insn *insns = NULL;
		size_t tlen = 0, len = 0;
		struct diag d;
		char *txt;
		int err;

		snprintf(path, sizeof(path), "%s/tests/data/%s", check_source_dir(), txts[k]);
		txt = read_all(path, &tlen);
		CHECK(txt != NULL, "cannot read %s", path);
		if (!txt)
			continue;
		err = assemble(txt, &insns, &len, &d);
		CHECK(!err, "%s: %s (line %d col %d)", txts[k], d.msg, d.line, d.col);
		CHECK(!err && len * 8 == blen && !memcmp(insns, bin, blen),
		      "%s does not assemble to objdump_sample.bin (%zu slots vs %zu)", txts[k], len,
		      blen / 8);
		if (!err)
			CHECK(!ebpf_validate(insns, len, &d), "objdump sample invalid: %s", d.msg);
		free(insns);
		free(txt);
	}
	/* ...and our own disassembly of those bytes comes back too. */
	CHECK(roundtrip((const struct bpf_insn *)bin, blen / 8, EBPF_DISASM_LABELS, "objdump bin"),
	      "objdump bin round trip");
	free(bin);
}

/* Real verifier logs (Linux 6.18, level 2) assemble to the program they were taken from, the
 * accepted one although it shows the loop body several times. */
static void test_kernel_logs(void)
{
	static const char *const names[] = {
		"verifier_log_accepted", "verifier_log_rejected", "verifier_log_forms",
	};

	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		struct bpf_insn *a = NULL, *b = NULL;
		size_t alen = 0, blen = 0, tlen = 0, slen = 0, log_lines = 0, compared = 0;
		char path[1024];
		char *log, *src;
		struct diag d;
		int ea, eb;

		snprintf(path, sizeof(path), "%s/tests/data/%s.txt", check_source_dir(), names[k]);
		log = read_all(path, &tlen);
		snprintf(path, sizeof(path), "%s/tests/data/%s.s", check_source_dir(), names[k]);
		src = read_all(path, &slen);
		CHECK(log && src, "cannot read %s", names[k]);
		if (!log || !src) {
			free(log);
			free(src);
			continue;
		}
		for (const char *p = strstr(log, ": ("); p; p = strstr(p + 1, ": ("))
			log_lines++;
		ea = assemble(log, &a, &alen, &d);
		CHECK(!ea, "%s.txt: %d:%d: %s", names[k], d.line, d.col, d.msg);
		eb = assemble(src, &b, &blen, &d);
		CHECK(!eb, "%s.s: %d:%d: %s", names[k], d.line, d.col, d.msg);
		CHECK(!ea && !eb && alen == blen && alen > 20 && !memcmp(a, b, alen * sizeof(*a)),
		      "%s: the log gives %zu slots, the source %zu", names[k], alen, blen);
		/* Our printer says what the kernel's says, line for line (LD_IMM64 but " ll"). */
		for (const char *p = log; !ea && p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
			const char *e = strchr(p, '\n'), *op = strstr(p, ") "), *colon = strchr(p, ':');
			size_t l = e ? (size_t)(e - p) : strlen(p), tl;
			struct sbuf ours = SBUF_INIT;
			unsigned long pc;
			const char *q;

			if (!op || !colon || op > p + l || colon > op || op - p < 4 || op[-3] != '(')
				continue;
			for (q = colon; q > p && q[-1] >= '0' && q[-1] <= '9'; q--)
				;
			if (q == colon)
				continue;
			pc = strtoul(q, NULL, 10);
			op += 2;
			tl = strcspn(op, ";\n");
			while (tl && op[tl - 1] == ' ')
				tl--;
			if (pc >= alen)
				continue;
			ebpf_disasm_insn(&ours, a, alen, pc, 0);
			if (ebpf_is_ldimm64(&a[pc]) && ours.len > 3)
				ours.buf[ours.len -= 3] = '\0';
			compared++;
			CHECK(strlen(sbuf_cstr(&ours)) == tl && !strncmp(sbuf_cstr(&ours), op, tl),
			      "%s: pc %lu: kernel prints '%.*s', we print '%s'", names[k], pc, (int)tl, op,
			      sbuf_cstr(&ours));
			sbuf_free(&ours);
		}
		CHECK(compared >= alen - 1, "%s: only %zu lines compared with the kernel's text",
		      names[k], compared);
		/* the accepted log repeats the loop body: the dedup path was taken */
		if (k == 0)
			CHECK(log_lines > alen + 20, "%s: only %zu path lines", names[k], log_lines);
		free(a);
		free(b);
		free(log);
		free(src);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A "-- raw" section: one instruction slot a line, as the 64-bit little-endian number the slot's
 * eight bytes make (0x5566778800000018 is lddw's first slot: code 0x18, imm 0x55667788).  Read
 * here with strtoull, not with the assembler's hex parser.  Returns the count, or -1. */
static long parse_raw(const char *text, uint64_t *out, size_t max)
{
	const char *s = text;
	long n = 0;

	for (;;) {
		char *end;
		uint64_t v;

		while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			s++;
		if (!*s)
			return n;
		errno = 0;
		v = strtoull(s, &end, 16);
		if (end == s || errno || (size_t)n == max)
			return -1;
		out[n++] = v;
		s = end;
	}
}

/* The assembled slots against the raw ones, byte order spelled out. */
static void check_raw(const char *name, const struct bpf_insn *insns, size_t len, const char *raw)
{
	uint64_t want[256];
	long n = parse_raw(raw, want, sizeof(want) / sizeof(want[0]));

	CHECK(n > 0, "%s: unreadable -- raw section", name);
	if (n <= 0)
		return;
	CHECK_EQ_U64(len, (size_t)n, name);
	for (size_t k = 0; k < len && k < (size_t)n; k++) {
		const uint8_t *b = (const uint8_t *)&insns[k];
		uint64_t got = 0;
		char ctx[300];

		for (int j = 7; j >= 0; j--)
			got = got << 8 | b[j];
		snprintf(ctx, sizeof(ctx), "%s: raw slot %zu", name, k);
		CHECK_EQ_U64(got, want[k], ctx);
	}
}

/* Every conformance program assembles, validates and round-trips, and where the file has a
 * "-- raw" section the assembler's bytes are exactly those.  The directory comes from
 * BPFSCEV_CONFORMANCE_DIR (set by CMake for the test_asm/conformance test). */
static int test_conformance(void)
{
	const char *dir = getenv("BPFSCEV_CONFORMANCE_DIR");
	char **names = NULL;
	size_t n = 0, cap = 0, ok = 0, valid = 0, raws = 0;
	struct dirent *e;
	DIR *dp;

	if (!dir)
		return check_skip("test_asm/conformance", "BPFSCEV_CONFORMANCE_DIR is not set");
	dp = opendir(dir);
	if (!dp)
		return check_skip("test_asm/conformance", "%s not found (set BPFSCEV_SHARED_DIR or "
				  "BPFSCEV_CONFORMANCE_DIR)", dir);
	while ((e = readdir(dp))) {
		size_t l = strlen(e->d_name);

		if (l < 6 || strcmp(e->d_name + l - 5, ".data"))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 512;
			names = realloc(names, cap * sizeof(*names));
			if (!names)
				break;
		}
		names[n++] = strdup(e->d_name);
	}
	closedir(dp);
	if (!names)
		return check_skip("test_asm/conformance", "no *.data files in %s", dir);
	qsort(names, n, sizeof(*names), cmp_str);
	for (size_t k = 0; k < n; k++) {
		char path[2048];
		struct casefile_section *secs = NULL;
		size_t nsec = 0, tlen = 0;
		char *txt;
		struct diag d;

		snprintf(path, sizeof(path), "%s/%s", dir, names[k]);
		txt = read_all(path, &tlen);
		diag_clear(&d);
		if (!txt || casefile_sections__parse(&secs, &nsec, txt, tlen, &d)) {
			CHECK(0, "%s: cannot read or split", names[k]);
			free(txt);
			continue;
		}
		for (size_t s = 0; s < nsec; s++) {
			struct bpf_insn *insns = NULL;
			uint32_t *lines = NULL;
			size_t len = 0;
			int err;

			if (strcmp(secs[s].name, "asm"))
				continue;
			diag_clear(&d);
			err = ebpf_asm(&insns, &len, &lines, secs[s].text, strlen(secs[s].text),
				       secs[s].line, &d);
			CHECK(!err && len > 0, "%s:%d:%d: %s", names[k], d.line, d.col, d.msg);
			if (!err && len) {
				ok++;
				CHECK(lines[0] >= (uint32_t)secs[s].line, "%s: line of slot 0", names[k]);
				if (!ebpf_validate(insns, len, &d))
					valid++;
				CHECK(roundtrip(insns, len, EBPF_DISASM_LABELS, names[k]), "%s", names[k]);
				for (size_t r = 0; r < nsec; r++)
					if (!strcmp(secs[r].name, "raw")) {
						check_raw(names[k], insns, len, secs[r].text);
						raws++;
					}
			}
			free(insns);
			free(lines);
		}
		casefile_sections__free(secs, nsec);
		free(txt);
	}
	printf("conformance: %zu of %zu files assemble, %zu validate, %zu raw sections compared "
	       "(%s)\n", ok, n, valid, raws, dir);
	CHECK(ok == n && n > 0, "%zu of %zu conformance files assemble", ok, n);
	for (size_t k = 0; k < n; k++)
		free(names[k]);
	free(names);
	return check_done("test_asm/conformance");
}

static void test_errors(void)
{
	expect_error("foo r1, 2", 1, 1, 1, "unknown instruction 'foo'");
	expect_error("r11 = 1", 1, 1, 1, "expected a register (r0-r10), got 'r11'");
	expect_error("r1 = r11", 1, 1, 6, "expected a register (r0-r10), got 'r11'");
	expect_error("mov %r1, %r12", 1, 1, 10, "expected a register (r0-r10)");
	expect_error("r1 = ", 1, 1, 6, "expected a register (r0-r10), an immediate or an expression "
				       "after '='");
	expect_error("r1 +=", 1, 1, 6, "expected a register or an immediate after '+='");
	expect_error("r0 = *(u32 *)(r1 +40000)", 1, 1, 19, "offset 40000 does not fit in 16 bits");
	expect_error("ldxw %r0, [%r1-32769]", 1, 1, 16, "does not fit in 16 bits");
	expect_error("exit\ngoto nowhere", 1, 2, 6, "undefined label 'nowhere'");
	expect_error("exit exit", 1, 1, 6, "unexpected 'exit' after the instruction");
	expect_error("r1 = 1 2", 1, 1, 8, "unexpected '2' after the instruction");
	expect_error("lddw %r0", 1, 1, 9, "expected ','");
	expect_error("r1 = map[fd:3", 1, 1, 14, "expected ']'");
	expect_error("r1 = map[", 1, 1, 10, "expected 'fd' or 'idx'");
	expect_error("r1 = map[id:3] ll", 1, 1, 12, "cannot be encoded");
	expect_error("mov32 %r0, 0x100000000", 1, 1, 12, "does not fit in 32 bits");
	expect_error("if r1 > 2 goto pc+40000", 1, 1, 16, "does not fit in 16 bits");
	expect_error("ldxb %r0, [%r1+2", 1, 1, 17, "expected ']'");
	expect_error("x: exit\n x: exit", 1, 2, 2, "label 'x' is already defined at line 1");
	expect_error("goto 1b", 1, 1, 6, "no local label '1:' before");
	expect_error("exit\n/* unterminated", 1, 2, 1, "unterminated comment");
	expect_error("w1 += r2", 1, 1, 7, "expected a 32-bit register (w0-w10)");
	expect_error("call nosuch", 1, 1, 6, "'nosuch' is neither a label, a helper name nor a kfunc");
	expect_error("r1 = 0x", 1, 1, 8, "expected hex digits after '0x'");
	expect_error("lock foo [%r1], %r2", 1, 1, 6, "expected an atomic operation");
	expect_error("(07) r1 += r2", 1, 1, 2, "opcode column (07) does not match the instruction (0f)");
	expect_error("r0 = atomic64_fetch_add((u32 *)(r1 +0), r0)", 1, 1, 26,
		     "atomic64_ operations take a (u64 *) address");
	expect_error("r1 = atomic64_xchg((u64 *)(r2 +0), r3)", 1, 1, 36,
		     "the fetched value goes to the operand register");
	expect_error("r1 = be16 r2", 1, 1, 11, "byte swaps are in place");
	expect_error("if r1 ~ 2 goto +1", 1, 1, 7, "expected a comparison");
	expect_error("call bpf_map_lookup_elem#2", 1, 1, 26, "helper bpf_map_lookup_elem is #1, not #2");
	expect_error("r1 = 99999999999999999999", 1, 1, 6, "number does not fit in 64 bits");
	expect_error("w1 = 0x1234 ll", 1, 1, 6, "needs a 64-bit register");
	expect_error("exit\n\n  r1 = r12\n", 10, 12, 8, "expected a register (r0-r10), got 'r12'");
	expect_error("0: (b7) r0 = 0\n2: (95) exit", 1, 2, 1, "pc 2 skips instructions (next is 1)");
	expect_error("0: (b7) r0 = 0\n0: (b7) r0 = 1", 1, 2, 1, "differs from the one assembled");
	expect_error("r0 = *(u64 *)skb[1]", 1, 1, 8, "no 8-byte form");
	expect_error("*(u32 *)(r10 -4) = 0x1ffffffff", 1, 1, 20, "does not fit in 32 bits");
	expect_error("jeq %r1, 1", 1, 1, 11, "expected ','");
	expect_error("r0 = atomic64_cmpxchg((u64 *)(r1 +0), r1, r2)", 1, 1, 39, "cmpxchg compares with r0");
	expect_error(".bytes 07 01", 1, 1, 13, "expected 8 hex bytes");
	expect_error("mov %r0, 1,", 1, 1, 11, "unexpected ','");
	expect_error("r1 = w2", 1, 1, 6, "mov needs registers of the same width");
	expect_error("r0 = *(s8 *)skb[1]", 1, 1, 8, "legacy packet loads are unsigned");
	expect_error("r1 = *(u8 *)skb[1]", 1, 1, 1, "always write r0");

	/* Through the data-file reader (casefile/): the file name and line:col reach the message. */
	{
		struct casefile *cf = NULL;
		const char *src = "-- asm\nr0 = 0\nif r0 > 1 goto nowhere\nexit\n-- result\n0x0\n";
		struct diag d;
		char msg[600];
		int err;

		diag_clear(&d);
		err = casefile__open_mem(&cf, src, strlen(src), "case.data", &d);
		diag_format(&d, msg, sizeof(msg));
		CHECK(err == -EINVAL && !strcmp(msg, "case.data:3:16: undefined label 'nowhere'"),
		      "object error: %d '%s'", err, msg);
		casefile__free(cf);
	}
	/* "-- type" and "-- maps" of a data file: read with the program, errors at their line */
	{
#define MAP_LINE_HELP                                                                           \
	"expected 'array|hash|array_of_maps|hash_of_maps|percpu_array|percpu_hash|lru_hash|"     \
	"lru_percpu_hash|sockmap|sockhash|reuseport_sockarray|prog_array key=K value=V "       \
	"entries=N "                                                                             \
	"[name=NAME] "                                                                           \
	"[inner=LINE] [timer=OFF] [spin_lock=OFF] [kptr=OFF:STRUCT] [kptr_ref=OFF:STRUCT] "   \
	"[rdonly_prog] [wronly_prog] [init=HEX]' "                                               \
	"(all nonzero; inner= only for maps of maps, timer= and the fields for arrays and "   \
	"hashes, init= for arrays), 'queue|stack value=V entries=N [name=NAME]' or "             \
	"'ringbuf|user_ringbuf entries=N [name=NAME]'"
		static const struct { const char *src, *msg; } bad[] = {
			{ "-- asm\nexit\n-- type\nkprobe\n",
			  "c.case:4:1: unknown program type 'kprobe' (xdp, socket, tc, cgroup_skb, "
			  "sock_ops, cgroup_sock, cgroup_device, raw_tp, sk_lookup, sk_reuseport, "
			  "sk_msg, cgroup_sysctl, plain)" },
			{ "-- asm\nexit\n-- maps\narray key=4 value=8 entries=1\nhash key=4 value=0 "
			  "entries=1\n", "c.case:5:1: " MAP_LINE_HELP },
			{ "-- asm\nexit\n-- maps\narray key=4 value=8 entries=1 size=3\n",
			  "c.case:4:1: " MAP_LINE_HELP },
			{ "-- asm\nexit\n-- maps\ncgroup_storage key=8 value=8 entries=1\n",
			  "c.case:4:1: expected 'cgroup_storage|percpu_cgroup_storage|sk_storage key=K "
			  "value=V entries=0 [name=NAME]' (key and value nonzero)" },
			{ "-- asm\nexit\n-- maps\nhash key=4 value=8 entries=1 init=01\n",
			  "c.case:4:1: " MAP_LINE_HELP },
			{ "-- asm\nexit\n-- maps\narray key=4 value=8 entries=1 init=0g\n",
			  "c.case:4:1: 'init=0g': init= is the first value's bytes in hex, 2 digits "
			  "each, at most 4096 bytes" },
			{ "-- asm\nexit\n-- maps\narray key=4 value=2 entries=1 init=010203\n",
			  "c.case:4:1: init=: 3 bytes, past the value (2 bytes)" },
			{ "-- asm\nexit\n-- maps\narray key=4 value=32 entries=1 timer=4\n",
			  "c.case:4:1: timer=4: a struct bpf_timer is 16 bytes at an 8-aligned offset "
			  "of the value (32 bytes)" },
			{ "-- asm\nexit\n-- maps\nhash key=4 value=24 entries=1 timer=16\n",
			  "c.case:4:1: timer=16: a struct bpf_timer is 16 bytes at an 8-aligned offset "
			  "of the value (24 bytes)" },
		};
		const char *good = "-- asm\nexit\n-- type\ntc\n-- maps\n# two maps\n"
				   "array key=4 value=8 entries=2 name=counts\n\nhash key=8 value=16 "
				   "entries=64\n";
		struct casefile *cf = NULL;
		struct diag d;
		char msg[600];

		for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
			diag_clear(&d);
			CHECK(casefile__open_mem(&cf, bad[k].src, strlen(bad[k].src), "c.case",
						    &d) == -EINVAL, "bad case %zu accepted", k);
			diag_format(&d, msg, sizeof(msg));
			CHECK(!strcmp(msg, bad[k].msg), "bad case %zu: '%s'", k, msg);
			casefile__free(cf);
			cf = NULL;
		}
		diag_clear(&d);
		CHECK(casefile__open_mem(&cf, good, strlen(good), "c.case", &d) == 0, "good: %s",
		      d.msg);
		if (cf) {
			const struct ebpf_object *obj = cf->obj;

			CHECK(obj->progs[0].prog_type == BPF_PROG_TYPE_SCHED_CLS, "type %u",
			      obj->progs[0].prog_type);
			CHECK(obj->map_cnt == 2 && !strcmp(obj->maps[0].name, "counts") &&
			      obj->maps[0].type == BPF_MAP_TYPE_ARRAY && obj->maps[0].max_entries == 2 &&
			      !strcmp(obj->maps[1].name, "map1") && obj->maps[1].type == BPF_MAP_TYPE_HASH &&
			      obj->maps[1].key_size == 8 && obj->maps[1].value_size == 16,
			      "maps: %zu", obj->map_cnt);
		}
		casefile__free(cf);
	}
}

/* Line numbers per slot, and an empty text. */
static void test_lines(void)
{
	const char *src = "# comment\nr0 = 0\n\nr1 = 0x1122334455667788 ll\nexit\n";
	struct bpf_insn *insns = NULL;
	uint32_t *lines = NULL;
	size_t len = 0;
	struct diag d;
	int err;

	diag_clear(&d);
	err = ebpf_asm(&insns, &len, &lines, src, strlen(src), 5, &d);
	CHECK(!err && len == 4, "lines program: %d %zu", err, len);
	if (!err && len == 4)
		CHECK(lines[0] == 6 && lines[1] == 8 && lines[2] == 8 && lines[3] == 9,
		      "lines %u %u %u %u", lines[0], lines[1], lines[2], lines[3]);
	free(insns);
	free(lines);
	err = ebpf_asm(&insns, &len, NULL, "// nothing\n", 11, 1, &d);
	CHECK(!err && len == 0, "empty text: %d %zu", err, len);
	free(insns);
}

/* Arbitrary text never crashes (ASan/UBSan watch), and whatever assembles round-trips. */
static void test_garbage(void)
{
	static const char *const frag[] = {
		"r1", "w2", "r10", "r11", "%r3", " ", " ", "=", "+=", "s>>=", "-", "(", ")", "*", "[",
		"]", ",", ";", ":", "#", "//", "/*", "*/", "0x", "0xffffffff", "-1", "+3", "70000",
		"99999999999999999999", "goto", "gotol", "if", "pc", "pc+1", "ll", "map", "fd", "idx",
		"btf_id", "func", "call", "callx", "exit", "lock", "fetch", "add", "mov32", "ldxb",
		"stxdw", "lddw", "ja", "jslt", "u8", "u64", "s16", "skb", "atomic64_fetch_add",
		"xchg_64", "load_acquire", "store_release", "be16", "bswap32", "kernel-function#",
		"1b", "1f", "1:", "L:", "\n", "\t", "12: (07) ", "  3:\t07 01 00 00 01 00 00 00\t",
		".bytes", "<LBB0_1>", "\r", "R1=", "off:", "local", "may_goto", "(s8)", "?", "\"",
	};
	const size_t nfrag = sizeof(frag) / sizeof(frag[0]);
	char buf[512];
	size_t assembled = 0;

	for (int it = 0; it < 40000; it++) {
		size_t o = 0, parts = 1 + rnd() % 24;
		struct bpf_insn *insns = NULL;
		size_t len = 0;
		struct diag d;

		if (it % 4 == 0) {	/* raw bytes, NUL included */
			o = rnd() % 64;
			for (size_t k = 0; k < o; k++)
				buf[k] = (char)rnd();
		} else {
			for (size_t k = 0; k < parts; k++) {
				const char *f = frag[rnd() % nfrag];
				size_t l = strlen(f);

				if (o + l >= sizeof(buf))
					break;
				memcpy(buf + o, f, l);
				o += l;
			}
		}
		diag_clear(&d);
		if (!ebpf_asm(&insns, &len, NULL, buf, o, 1, &d) && len) {
			assembled++;
			CHECK(roundtrip(insns, len, all_flags[rnd() % 5], "garbage"), "garbage %.*s",
			      (int)o, buf);
		} else {
			CHECK(d.msg[0] || len == 0, "error without message");
		}
		free(insns);
	}
	printf("garbage: 40000 inputs, %zu assembled and round-tripped\n", assembled);
}

static bool write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	bool ok = f && fwrite(data, 1, n, f) == n;

	if (f && fclose(f))
		ok = false;
	return ok;
}

/* The asm and disasm commands, through the built binary (ctest sets BPFSCEV_BIN). */
static void test_cli(void)
{
	const char *bin = getenv("BPFSCEV_BIN");
	const char *good = "mov %r0, 1\nlddw %r1, 0x100000000\njne %r1, 0, done\nmov %r0, 2\ndone:\nexit\n";
	const char *bad = "r0 = 0\nif r0 > 1 goto nowhere\nexit\n";
	const char *want = "0: (b7) r0 = 1\n1: (18) r1 = 0x100000000 ll\n3: (55) if r1 != 0x0 goto pc+1\n"
			   "4: (b7) r0 = 2\n5: (95) exit\n";
	char dir[] = "/tmp/test_asm.XXXXXX", cmd[2048], p_in[256], p_bin[256], p_out[256], p_err[256],
	     p_bad[256];
	size_t n = 0;
	char *got;
	int st;

	if (!bin) {
		printf("cli: SKIPPED, BPFSCEV_BIN not set (run through ctest)\n");
		return;
	}
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp failed");
		return;
	}
	snprintf(p_in, sizeof(p_in), "%s/prog.s", dir);
	snprintf(p_bin, sizeof(p_bin), "%s/prog.bin", dir);
	snprintf(p_out, sizeof(p_out), "%s/out.txt", dir);
	snprintf(p_err, sizeof(p_err), "%s/err.txt", dir);
	snprintf(p_bad, sizeof(p_bad), "%s/bad.s", dir);
	CHECK(write_file(p_in, good, strlen(good)) && write_file(p_bad, bad, strlen(bad)),
	      "cannot write test inputs");
	snprintf(cmd, sizeof(cmd), "'%s' asm '%s' -o '%s'", bin, p_in, p_bin);
	st = system(cmd);
	CHECK(st == 0, "%s: status %d", cmd, st);
	got = read_all(p_bin, &n);
	CHECK(got && n == 48 && (uint8_t)got[8] == 0x18 && (uint8_t)got[8 + 4] == 0 &&
	      (uint8_t)got[16 + 4] == 1, "asm -o wrote %zu bytes", n);
	free(got);
	snprintf(cmd, sizeof(cmd), "'%s' disasm '%s' --pc --opcodes > '%s'", bin, p_bin, p_out);
	st = system(cmd);
	got = read_all(p_out, &n);
	CHECK(st == 0 && got && !strcmp(got, want), "disasm printed '%s'", got ? got : "(nothing)");
	free(got);
	snprintf(cmd, sizeof(cmd), "'%s' asm '%s' -o '%s' 2> '%s'", bin, p_bad, p_bin, p_err);
	st = system(cmd);
	got = read_all(p_err, &n);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 2, "asm of a bad file: status %d", st);
	CHECK(got && strstr(got, "bad.s:2:16: undefined label 'nowhere'"), "asm error: '%s'",
	      got ? got : "(nothing)");
	free(got);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", dir);
}

/* "test_asm --conformance" is its own ctest (test_asm/conformance), so that test_asm itself
 * never depends on the outside data. */
/* ".global": the prototype of the function at the next slot, printed back as read. */
static void test_globals(void)
{
	static const char text[] = "call f\nexit\nf:\n.global f int:4 ptr:8 ptr:__sk_buff:192 "
				   "void* other ret:void tagged\nr0 = 0\nexit\n";
	struct ebpf_global_func *g = NULL;
	struct bpf_insn *insns = NULL;
	struct sbuf sb = SBUF_INIT;
	size_t n = 0, ng = 0;
	struct diag d;

	diag_clear(&d);
	CHECK(!ebpf_asm_globals(&insns, &n, NULL, &g, &ng, text, strlen(text), 1, &d),
	      ".global: %s", d.msg);
	CHECK(n == 4 && ng == 1 && g && g->insn == 2 && !strcmp(g->name, "f") && g->nargs == 5 &&
	      g->args[0].kind == EBPF_FARG_INT && g->args[0].size == 4 &&
	      g->args[1].kind == EBPF_FARG_PTR && g->args[1].size == 8 && !g->args[1].tname[0] &&
	      !strcmp(g->args[2].tname, "__sk_buff") && g->args[2].size == 192 &&
	      g->args[3].kind == EBPF_FARG_PTR_NOSIZE && g->args[4].kind == EBPF_FARG_OTHER &&
	      g->ret == EBPF_FARG_PTR_NOSIZE && g->tagged, ".global: the prototype as written");
	if (g)
		ebpf_global_func_print(&sb, g);
	CHECK(!strcmp(sbuf_cstr(&sb), ".global f int:4 ptr:8 ptr:__sk_buff:192 void* other "
		      "ret:void tagged"), ".global printed: %s", sbuf_cstr(&sb));
	sbuf_free(&sb);
	free(insns);
	free(g);
	expect_error("r0 = 0\n.global f int:3\nexit", 1, 2, 16, "1, 2, 4 or 8");
	expect_error(".global f ptr:x\nexit", 1, 1, 16, "':' after the struct name");
	expect_error(".global f ptr:s:\nexit", 1, 1, 17, "a size in bytes");
	expect_error(".global f bogus\nexit", 1, 1, 11, "int:N, ptr:N");
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--conformance"))
		return test_conformance();
	test_kernel_syntax();
	test_llvm_syntax();
	test_ubpf_syntax();
	test_errors();
	test_globals();
	test_lines();
	test_objdump();
	test_kernel_logs();
	test_exhaustive();
	test_random();
	test_garbage();
	test_cli();
	return check_done("test_asm");
}
