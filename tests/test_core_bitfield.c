/* CO-RE relocations of bitfields (bpf/core.c field_val, bitfield_load):
 *   - against a BTF built here: the byte offset and size of the aligned load holding the
 *     bitfield (the member type's size, doubled until the bits fit), the shifts and the
 *     signedness, into ALU immediates and a load's offset, the values worked out by hand; the
 *     checked kinds (signed, right shift) refuse an instruction holding another value; a
 *     bitfield no load of 8 bytes holds, a bitfield of a struct type, a shift of a 16-byte field
 *     or of an array element are clear errors;
 *   - tests/bpf/core_bitfield.c against the running kernel: what libbpf loads (bpf_object__load,
 *     then bpf_program__insns) equals ours instruction by instruction, and the verdicts (the
 *     direct and probed reads safe; a read of tcphdr's doff past a bound checked for the object's
 *     layout but not the kernel's unsafe) agree with the kernel.
 * Environment: BPFSCEV_TEST_BPF_DIR (the clang-built objects; that part skips without them).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpf/core.h"
#include "bpf/prog.h"
#include "oracle/kernel/kernel.h"
#include "tests/check.h"
#include "tests/libbpf_insns.h"
#include "triage/verdict.h"

/* ---- against a BTF built here ---- */

struct bf_btfs {
	struct btf *local, *target;
	uint32_t lroot;
};

/* local:  struct bfx___l { u8 a:3; int b:5; u16 c:12 (bit 8); u64 wide:6 (bit 32);
 *                          struct in inner (bit 64); u32 arr[2] (bit 192); struct in bad:3;
 *                          u8 plain:4 (bit 288) }
 * target: struct bfx { u32 pad; u16 c:12 (bit 38); u8 a:3 (bit 47); int b:5 (bit 64);
 *                      u64 wide:70 (bit 72); struct in inner (bit 192); u32 arr[2] (bit 320);
 *                      u8 plain (bit 384, not a bitfield) } */
static int bf_build(struct bf_btfs *b)
{
	for (int side = 0; side < 2; side++) {
		struct btf *t = btf__new_empty();
		int u8, s32, u16, u32, u64, in, arr, root;

		if (!t)
			return -1;
		u8 = btf__add_int(t, "unsigned char", 1, 0);
		s32 = btf__add_int(t, "int", 4, BTF_INT_SIGNED);
		u16 = btf__add_int(t, "unsigned short", 2, 0);
		u32 = btf__add_int(t, "unsigned int", 4, 0);
		u64 = btf__add_int(t, "unsigned long long", 8, 0);
		in = btf__add_struct(t, "in", 16);
		btf__add_field(t, "x", u64, 0, 0);
		btf__add_field(t, "y", u64, 64, 0);
		arr = btf__add_array(t, u32, u32, 2);
		if (side == 0) {
			root = btf__add_struct(t, "bfx___l", 40);
			btf__add_field(t, "a", u8, 0, 3);
			btf__add_field(t, "b", s32, 3, 5);
			btf__add_field(t, "c", u16, 8, 12);
			btf__add_field(t, "wide", u64, 32, 6);
			btf__add_field(t, "inner", in, 64, 0);
			btf__add_field(t, "arr", arr, 192, 0);
			btf__add_field(t, "bad", in, 256, 3);
			btf__add_field(t, "plain", u8, 288, 4);
			b->local = t;
			b->lroot = (uint32_t)root;
		} else {
			root = btf__add_struct(t, "bfx", 56);
			btf__add_field(t, "pad", u32, 0, 0);
			btf__add_field(t, "c", u16, 38, 12);
			btf__add_field(t, "a", u8, 47, 3);
			btf__add_field(t, "b", s32, 64, 5);
			btf__add_field(t, "wide", u64, 72, 70);
			btf__add_field(t, "inner", in, 192, 0);
			btf__add_field(t, "arr", arr, 320, 0);
			btf__add_field(t, "plain", u8, 384, 0);
			b->target = t;
		}
		if (root < 0)
			return -1;
	}
	return 0;
}

/* Applies one record of kind to insn (through access string acc); returns core_relo_apply's
 * result with why. */
static int bf_apply(const struct bf_btfs *b, const char *acc, uint32_t kind, struct bpf_insn *insn,
		    size_t slots, char *why, size_t n)
{
	struct core_target tg = { .btf = b->target, .modules = false };
	struct core_relo r = { 0, b->lroot, 0, kind };
	int off = btf__find_str(b->local, acc);

	if (off < 0)
		off = btf__add_str(b->local, acc);
	r.access_off = (uint32_t)off;
	why[0] = 0;
	return core_relo_apply(&r, insn, slots, b->local, &tg, why, n);
}

static struct bpf_insn alu(uint8_t op, int32_t imm)
{
	return (struct bpf_insn){ .code = BPF_ALU64 | op | BPF_K, .dst_reg = 1, .imm = imm };
}

static void test_built(void)
{
	static const struct {
		const char *acc;	/* member: 0:index */
		uint32_t kind;
		uint8_t op;		/* the instruction: r1 op= imm */
		int32_t local, want;	/* the object's value (in the instruction), the kernel's */
	} ok[] = {
		/* c: u16:12 at bit 38 — 2 bytes at 4 hold bits 32..47, not 38..49: 4 bytes at 4 */
		{ "0:2", CORE_FIELD_BYTE_OFFSET, BPF_ADD, 0, 4 },
		{ "0:2", CORE_FIELD_BYTE_SIZE, BPF_MOV, 4, 4 },
		{ "0:2", CORE_FIELD_LSHIFT_U64, BPF_LSH, 44, 64 - (38 + 12 - 32) },
		{ "0:2", CORE_FIELD_RSHIFT_U64, BPF_RSH, 52, 52 },
		{ "0:2", CORE_FIELD_SIGNED, BPF_MOV, 0, 0 },
		/* a: u8:3 at bit 47 — 1 byte at 5 and 2 at 4 too small: 4 bytes at 4 */
		{ "0:0", CORE_FIELD_BYTE_OFFSET, BPF_ADD, 0, 4 },
		{ "0:0", CORE_FIELD_BYTE_SIZE, BPF_MOV, 1, 4 },
		{ "0:0", CORE_FIELD_LSHIFT_U64, BPF_LSH, 61, 64 - (47 + 3 - 32) },
		{ "0:0", CORE_FIELD_RSHIFT_U64, BPF_RSH, 61, 61 },
		/* b: int:5 at bit 64 — 4 bytes at 8, signed */
		{ "0:1", CORE_FIELD_BYTE_OFFSET, BPF_ADD, 0, 8 },
		{ "0:1", CORE_FIELD_BYTE_SIZE, BPF_MOV, 4, 4 },
		{ "0:1", CORE_FIELD_LSHIFT_U64, BPF_LSH, 56, 59 },
		{ "0:1", CORE_FIELD_RSHIFT_U64, BPF_RSH, 59, 59 },
		{ "0:1", CORE_FIELD_SIGNED, BPF_MOV, 1, 1 },
		/* not bitfields: inner's byte offset and size, arr[1]'s offset */
		{ "0:4", CORE_FIELD_BYTE_SIZE, BPF_MOV, 16, 16 },
		{ "0:5:1", CORE_FIELD_BYTE_OFFSET, BPF_ADD, 28, 44 },
		/* plain: a bitfield here, a byte there — into an ALU immediate the offset moves */
		{ "0:7", CORE_FIELD_BYTE_OFFSET, BPF_ADD, 36, 48 },
		{ "0:7", CORE_FIELD_BYTE_SIZE, BPF_MOV, 1, 1 },
	};
	static const struct {
		const char *acc;
		uint32_t kind;
		const char *msg;
	} bad[] = {
		{ "0:3", CORE_FIELD_BYTE_OFFSET, "no load of at most 8 bytes holds it" },
		{ "0:3", CORE_FIELD_LSHIFT_U64, "no load of at most 8 bytes holds it" },
		{ "0:6", CORE_FIELD_BYTE_SIZE, "neither an integer nor an enum" },
		{ "0:4", CORE_FIELD_LSHIFT_U64, "of a field of 16 bytes" },
		{ "0:5:1", CORE_FIELD_RSHIFT_U64, "of an array element" },
	};
	struct bf_btfs b = { 0 };
	char why[256];

	CHECK(bf_build(&b) == 0, "cannot build the BTF");
	if (!b.local || !b.target)
		goto out;
	for (size_t k = 0; k < sizeof(ok) / sizeof(ok[0]); k++) {
		struct bpf_insn insn = alu(ok[k].op, ok[k].local);
		int err = bf_apply(&b, ok[k].acc, ok[k].kind, &insn, 1, why, sizeof(why));

		CHECK(err == 0 && insn.imm == ok[k].want, "%s %s: %d (%s), imm %d, want %d",
		      ok[k].acc, core_kind_name(ok[k].kind), err, why, insn.imm, ok[k].want);
	}
	/* the byte offset of a bitfield into a load's offset: the load's size is kept */
	{
		struct bpf_insn ld = { .code = BPF_LDX | BPF_MEM | BPF_B, .dst_reg = 0, .src_reg = 1 };
		int err = bf_apply(&b, "0:0", CORE_FIELD_BYTE_OFFSET, &ld, 1, why, sizeof(why));

		CHECK(err == 0 && ld.off == 4 && ld.code == (BPF_LDX | BPF_MEM | BPF_B),
		      "load of a: %d (%s), off %d code 0x%02x", err, why, ld.off, ld.code);
	}
	/* ... but into a load's offset, a bitfield that is a whole field in the kernel (or the
	 * other way round) is not applied: libbpf poisons the load (its size would change) */
	{
		struct bpf_insn ld = { .code = BPF_LDX | BPF_MEM | BPF_B, .dst_reg = 0, .src_reg = 1,
				       .off = 36 };
		int err = bf_apply(&b, "0:7", CORE_FIELD_BYTE_OFFSET, &ld, 1, why, sizeof(why));

		CHECK(err == 1 && strstr(why, "the access size would change") && ld.off == 36,
		      "load of plain: %d (%s), off %d", err, why, ld.off);
	}
	/* the signedness and the right shift are checked: the instruction holds the object's */
	{
		struct bpf_insn s = alu(BPF_MOV, 0), r = alu(BPF_RSH, 60), l = alu(BPF_LSH, 3);

		CHECK(bf_apply(&b, "0:1", CORE_FIELD_SIGNED, &s, 1, why, sizeof(why)) == 1 &&
		      strstr(why, "the instruction holds 0"), "signed, wrong local value: '%s'", why);
		CHECK(bf_apply(&b, "0:1", CORE_FIELD_RSHIFT_U64, &r, 1, why, sizeof(why)) == 1 &&
		      strstr(why, "the instruction holds 60"), "rshift, wrong local value: '%s'",
		      why);
		/* the left shift is not (libbpf: the compiler may have chosen another load) */
		CHECK(bf_apply(&b, "0:1", CORE_FIELD_LSHIFT_U64, &l, 1, why, sizeof(why)) == 0 &&
		      l.imm == 59, "lshift of another local value: '%s', %d", why, l.imm);
	}
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		struct bpf_insn insn = alu(BPF_MOV, 0);

		CHECK(bf_apply(&b, bad[k].acc, bad[k].kind, &insn, 1, why, sizeof(why)) == 1 &&
		      strstr(why, bad[k].msg) && insn.imm == 0, "%s %s: '%s', want '%s'",
		      bad[k].acc, core_kind_name(bad[k].kind), why, bad[k].msg);
	}
out:
	btf__free(b.local);
	btf__free(b.target);
}

/* ---- tests/bpf/core_bitfield.c against the running kernel ---- */

static const char *const progs[] = { "bf_ip", "bf_tcp_wide", "bf_tcp_short", "bf_task",
				     "bf_info" };

static void test_libbpf(const struct ebpf_object *o, const char *path)
{
	check_relocations_as_libbpf(o, path, progs, sizeof(progs) / sizeof(progs[0]),
				    "bf_tcp_short", NULL);
}

static void test_verdicts(struct ebpf_object *o)
{
	for (size_t k = 0; k < sizeof(progs) / sizeof(progs[0]); k++) {
		const struct ebpf_prog *p = ebpf_object__find_prog(o, progs[k]);
		struct verdict_opts vo = { .sz = sizeof(vo), .kernel = true };
		enum scev_verdict_kind want = strcmp(progs[k], "bf_tcp_short") ? VERDICT_SAFE :
										  VERDICT_UNSAFE;
		struct verdict_report r;
		struct diag d;

		CHECK(p != NULL, "%s: missing", progs[k]);
		if (!p)
			continue;
		diag_clear(&d);
		CHECK(verdict_compare(&r, o, p, &vo, &d) == 0, "%s: %s", progs[k], d.msg);
		CHECK(r.ours.kind == want, "%s: %s (%s)", progs[k], scev_verdict_name(r.ours.kind),
		      r.ours.reason);
		CHECK(r.faults == 0, "%s: faults: %s", progs[k], r.fault);
		CHECK(r.cls == VC_BOTH_ACCEPT || r.cls == VC_BOTH_REJECT, "%s: %s (kernel: %s)",
		      progs[k], verdict_class_name(r.cls),
		      r.kernel_accepted ? "accepted" : r.kernel_message);
		verdict_report__free(&r);
	}
}

int main(void)
{
	const char *dir = getenv("BPFSCEV_TEST_BPF_DIR");
	struct ebpf_object *o = NULL;
	char path[4096], why[256];
	struct diag d;

	test_built();
	if (!dir) {
		check_skip_part("the clang-built object: BPFSCEV_TEST_BPF_DIR is not set (no clang)");
		return check_done("test_core_bitfield");
	}
	snprintf(path, sizeof(path), "%s/core_bitfield.o", dir);
	diag_clear(&d);
	CHECK(ebpf_object__open_file(&o, path, &d) == 0, "%s: %s", path, d.msg);
	if (!o)
		return check_done("test_core_bitfield");
	if (!kernel_available(why, sizeof(why))) {
		check_skip_part("libbpf's loaded instructions and the kernel's verdicts: %s", why);
	} else {
		test_libbpf(o, path);
		test_verdicts(o);
	}
	ebpf_object__free(o);
	return check_done("test_core_bitfield");
}
