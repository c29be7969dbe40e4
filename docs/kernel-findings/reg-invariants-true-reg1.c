// SPDX-License-Identifier: GPL-2.0
/* docs/kernel-findings/reg-invariants-true-reg1.s,
 * reduced by 'bpfscev reduce' from 17 instructions (17 slots, 0 maps)
 * to 17 (17 slots, 0 maps) in 48 tests (16 cached), 2 rounds,
 * keeping: --invariant
 * 1-minimal: proved (no single instruction of the 17 can be removed:
 * 16 removals tested, none keeps it; the others leave no smaller valid program)
 * Slot 3 is written as .8byte (clang 14 cannot assemble it): if r0 & 0x80 goto pc+0
 * Slot 5 is written as .8byte (clang 14 cannot assemble it): *(u32 *)(r10 -72) = -73
 */

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_misc.h"

SEC("socket")
__failure __msg("REG INVARIANTS VIOLATION (true_reg1)")
__flag(BPF_F_TEST_REG_INVARIANTS)
__naked void reg_invariants_true_reg1(void)
{
	asm volatile ("							\
	r9 = 42;					\
l1_%=:							\
	r0 = *(u64 *)(r10 -32);				\
	r0 -= 1;					\
	.8byte 0x0000008000000045;			\
l4_%=:							\
	r2 = 2147483645;				\
	.8byte 0xffffffb7ffb80a62;			\
	r0 = *(u32 *)(r10 -72);				\
	r0 s>>= 1;					\
	r1 = *(u64 *)(r10 -32);				\
	r1 |= r0;					\
	*(u64 *)(r10 -32) = r1;				\
	r0 = *(u64 *)(r10 -32);				\
	r0 ^= r2;					\
	r0 += r9;					\
	*(u64 *)(r10 -32) = r0;				\
	if r0 != 0x0 goto l1_%=;			\
	exit;						\
"	:
	:
	: __clobber_all);
}

char _license[] SEC("license") = "GPL";
