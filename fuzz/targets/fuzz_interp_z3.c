/* Fuzz target "interp_z3": one instruction on one machine state, run by the interpreter and
 * evaluated in the Z3 encoding (oracle/z3/smt.h smt_diff_run); they must agree on every register,
 * every byte of stack, input and map, the next pc, and whether it traps or ends the program.
 *
 * The bytes are read through the generators' data producer (generators/producer.h), as zstd's
 * targets read theirs: first the instruction — an opcode byte taken as it comes, so every
 * encoding is tried and the validator turns away the invalid ones, registers, and offsets and
 * immediates drawn from boundary values or taken raw — then the context kind, the registers
 * (boundaries, raw values, or pointers near the stack, context, packet and map regions so that
 * memory operations both hit and miss), the helper stream, the input, the map values and the
 * stack.  Short inputs leave the later parts zero.  Jumps get the offset the harness needs
 * (target = the second exit after the instruction).  The Z3 context is made once and reset by
 * every run (see diff below).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <linux/bpf.h>

#include "bpf/asm.h"
#include "fuzz/targets/fuzz_check.h"
#include "fuzz/targets/fuzz_interp_z3.h"

/* The Z3 context and the variables of the state, made once: smt_diff_run() releases every term
 * it builds back to the mark it took after them, so no run sees what an earlier one built —
 * a cache of setup work (about 30 ms a call), not state that changes results. */
static struct smt_diff *diff;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct smt_diff_case c;
	char why[256];
	int rc;

	fuzz_interp_z3_decode(&c, data, size);
	if (!diff) {
		rc = smt_diff__new(&diff);
		CHECK(!rc, "smt_diff__new: %s", strerror(-rc));
	}
	rc = smt_diff_run(diff, &c, why, sizeof(why));
	if (rc == -EINVAL)
		return 0;	/* refused by the validator, or not runnable in the harness */
	if (rc) {
		struct sbuf sb = SBUF_INIT;

		ebpf_disasm_insn(&sb, c.insn, ebpf_is_ldimm64(&c.insn[0]) ? 2 : 1, 0, 0);
		fprintf(stderr, "\n==== bpfscev fuzz_interp_z3: %s ====\n",
			rc == 1 ? "interpreter and Z3 encoding disagree" : "harness error");
		/* the signature line fuzz/run deduplicates by: opcode and what differs */
		fprintf(stderr, "%s code 0x%02x %.*s\n", rc == 1 ? "MISMATCH" : "ERROR",
			c.insn[0].code, (int)strcspn(why, ":"), why);
		fprintf(stderr, "%s: %s\n", sbuf_cstr(&sb), why);
		fprintf(stderr, "insn: code 0x%02x dst r%u src r%u off %d imm %d (next imm %d)\n",
			c.insn[0].code, c.insn[0].dst_reg, c.insn[0].src_reg, c.insn[0].off,
			c.insn[0].imm, c.insn[1].imm);
		fprintf(stderr, "ctx kind %u, input %zu bytes, helper stream %zu bytes\n",
			c.ctx_kind, c.input_len, c.helper_len);
		for (int r = 0; r < 10; r++)
			fprintf(stderr, "r%d = %#" PRIx64 "\n", r, c.regs[r]);
		fuzz_hexdump(stderr, "input", c.input, c.input_len);
		fuzz_hexdump(stderr, "helper", c.helper, c.helper_len);
		fuzz_hexdump(stderr, "map", c.map, sizeof(c.map));
		fuzz_hexdump(stderr, "stack top", c.stack + sizeof(c.stack) - 64, 64);
		sbuf_free(&sb);
		CHECK(0, "interp vs Z3: %s", rc == 1 ? "mismatch" : strerror(-rc));
	}
	return 0;
}
