# Linux 6.18.44: REG INVARIANTS VIOLATION (true_reg1) with BPF_F_TEST_REG_INVARIANTS
# Found by 'bpfscev fuzz --runs 2000 --kernel --seed 78' (program 1910, 138 slots), reduced by
# 'bpfscev reduce' (every candidate asked of the kernel) to 17 slots.  Reproduce with
#   bpfscev kernel --invariants docs/kernel-findings/reg-invariants-true-reg1.s   (an XDP program)
# The load fails with EFAULT and 'verifier bug: REG INVARIANTS VIOLATION (true_reg1): range
# bounds violation u64=[0x83, 0xffffffff0000004f] s64=[0x8000000000000083, 0x7fffffff0000004f]
# u32=[0x83, 0x4f] s32=[0x83, 0x4f] var_off=(0x83, 0xffffffff0000007c)' (numbers vary by build).
-- asm
r9 = 42
L1:
r0 = *(u64 *)(r10 -32)
r0 -= 1
if r0 & 0x80 goto L4
L4:
r2 = 2147483645
*(u32 *)(r10 -72) = -73
r0 = *(u32 *)(r10 -72)
r0 s>>= 1
r1 = *(u64 *)(r10 -32)
r1 |= r0
*(u64 *)(r10 -32) = r1
r0 = *(u64 *)(r10 -32)
r0 ^= r2
r0 += r9
*(u64 *)(r10 -32) = r0
if r0 != 0x0 goto L1
exit
-- type
xdp
