/* SPDX-License-Identifier: GPL-2.0 */
/* The test annotations of the kernel's BPF verifier selftests, for compiling the tests
 * `bpfscev reduce --emit selftest` writes outside the kernel tree.
 *
 * In tools/testing/selftests/bpf/progs/ a test includes the selftests' own bpf_misc.h; there
 * each annotation is a BTF declaration tag "comment:test_..." on the program, which the
 * selftests' test_loader reads from the compiled object to know what to expect of the load.
 * This header gives the same annotations the same tags, so a test compiled against it carries
 * the same expectations, and only what the tests bpfscev writes use:
 *   __success / __failure       the verifier accepts / rejects the program
 *   __msg("text")               text the verifier log must contain
 *   __description("text")       the test's name in the report
 *   __log_level(N)              verifier log level of the load
 *   __flag(F)                   a program load flag, e.g. BPF_F_TEST_REG_INVARIANTS
 *   __retval(N)                 r0 of a BPF_PROG_TEST_RUN of the accepted program
 *   __naked, __clobber_all      a function that is only its inline assembly
 *   __imm(helper), __imm_addr(map)   asm operands: a helper's number, a map's address
 * Compile with: clang -g -O2 -target bpf -mcpu=v3 -I<this directory> -I/usr/include/<multiarch>
 */
#ifndef BPFSCEV_SELFTEST_BPF_MISC_H
#define BPFSCEV_SELFTEST_BPF_MISC_H

#define BPFSCEV_TEST_TAG(text) __attribute__((btf_decl_tag("comment:" text)))

#define __success BPFSCEV_TEST_TAG("test_expect_success")
#define __failure BPFSCEV_TEST_TAG("test_expect_failure")
#define __msg(text) BPFSCEV_TEST_TAG("test_expect_msg=" text)
#define __description(text) BPFSCEV_TEST_TAG("test_description=" text)
#define __log_level(level) BPFSCEV_TEST_TAG("test_log_level=" #level)
#define __flag(flag) BPFSCEV_TEST_TAG("test_prog_flags=" #flag)
#define __retval(value) BPFSCEV_TEST_TAG("test_retval=" #value)

/* The function body is one asm statement that ends in exit: no prologue, no epilogue. */
#define __naked __attribute__((naked))
/* Every register the program may write, and memory. */
#define __clobber_all "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "memory"
/* "call %[bpf_map_lookup_elem]": the helper's number as an immediate operand. */
#define __imm(name) [name] "i"(name)
/* "r1 = %[map] ll": the map's address, which libbpf relocates to the map. */
#define __imm_addr(name) [name] "i"(&name)

#endif
