/* A reduced program as a kernel selftest: a C file in the style of the kernel's
 * tools/testing/selftests/bpf/progs/verifier_*.c — the program as a __naked function whose body
 * is inline assembly (LLVM's BPF syntax, local labels "l0_%=", maps and helpers as asm
 * operands), its SEC() from the program type, __success or __failure, __msg("...") with text
 * taken from the kernel's log, __flag(BPF_F_TEST_REG_INVARIANTS) where the load needs it,
 * __retval(N) from a test run, and the maps it uses as BTF map definitions.
 *
 * The file includes <linux/bpf.h>, <bpf/bpf_helpers.h> and "bpf_misc.h": in the kernel tree
 * the selftests' own bpf_misc.h; here triage/selftest/bpf_misc.h, which defines the same test
 * annotations, so the file compiles with
 *     clang -g -O2 -target bpf -mcpu=v3 -I triage/selftest -I /usr/include/$(multiarch) -c F.c
 * and the object holds the program instruction for instruction (tests/test_selftest.c checks
 * both; -g gives the BTF that libbpf reads the map definitions from).  Instructions clang 14's
 * assembler cannot read (JSET, BPF_ST stores, modulo, fetching atomics) are written as raw
 * ".8byte" slots, listed in the comment above the test in the verifier-log syntax.  Programs
 * with bpf-to-bpf calls, kfuncs, map-value or BTF references and cpu v4 instructions
 * (sign extension, gotol, may_goto) are refused with a message naming the instruction.
 */
#ifndef BPFSCEV_TRIAGE_SELFTEST_H
#define BPFSCEV_TRIAGE_SELFTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "triage/reduce.h"
#include "util/err.h"
#include "util/sbuf.h"

struct selftest_opts {
	size_t sz;
	const char *name;		/* the function's name (a C identifier); NULL: "reduced" */
	const char *description;	/* __description("..."); NULL: none */
	const char *comment;		/* a comment above the test (may hold newlines) */
	bool accepted;			/* __success, else __failure */
	const char *msg;		/* __msg("...") text, NULL or "" for none */
	bool invariants;		/* __flag(BPF_F_TEST_REG_INVARIANTS) */
	bool has_retval;
	int32_t retval;			/* __retval(N) */
};

/* Writes the test for p.  0, or -EINVAL with d naming the instruction that cannot be written. */
int selftest_emit(struct sbuf *sb, const struct reduce_prog *p, const struct selftest_opts *o,
		  struct diag *d);

/* The text for __msg: a literal part of the kernel's log that shows the property.  The
 * reported verifier bug's name ("REG INVARIANTS VIOLATION (true_reg1)") when the log has one;
 * else the message (the rejection's reason) up to its first line break.  "" when neither. */
void selftest_msg_of(char *buf, size_t n, const char *message, const char *log);

/* The SEC() name for a program type: "socket", "xdp", "tc", ...; NULL when it has none
 * without an attach target. */
const char *selftest_section(uint32_t prog_type);

#endif
