/* Many instruction forms, accepted as a socket filter: verifier_log_forms.txt is its log. */
r6 = r1
r0 = *(u8 *)skb[12]
r7 = 2
r0 = *(u32 *)skb[r7 + 4]
r0 = *(u16 *)skb[r7 + -1]
w1 = 5
w1 = -w1
w2 = w1
w2 s/= 3
w3 = (s8)w1
w3 = (s16)w2
r4 = (s32)r1
r4 s%= 7
r4 = -r4
r5 = 0x1122334455667788 ll
r5 = le64 r5
r5 = le16 r5
r5 = be32 r5
r5 = bswap16 r5
*(u64 *)(r10 -8) = 0
*(u32 *)(r10 -16) = -3
*(u16 *)(r10 -18) = 2
*(u8 *)(r10 -19) = 1
r1 = *(s8 *)(r10 -19)
r1 = *(s16 *)(r10 -18)
r1 = *(s32 *)(r10 -16)
w1 = *(u32 *)(r10 -16)
lock *(u32 *)(r10 -16) += r1
lock *(u64 *)(r10 -8) |= r1
lock *(u64 *)(r10 -8) &= r1
lock *(u64 *)(r10 -8) ^= r1
r2 = 1
r2 = atomic_fetch_add((u32 *)(r10 -16), r2)
r2 = atomic64_fetch_and((u64 *)(r10 -8), r2)
r2 = atomic64_fetch_or((u64 *)(r10 -8), r2)
r2 = atomic_fetch_xor((u32 *)(r10 -16), r2)
r2 = atomic64_xchg((u64 *)(r10 -8), r2)
r2 = atomic_xchg((u32 *)(r10 -16), r2)
r0 = 0
r0 = atomic_cmpxchg((u32 *)(r10 -16), r0, r2)
r0 = atomic64_cmpxchg((u64 *)(r10 -8), r0, r2)
r3 = load_acquire((u64 *)(r10 -8))
r3 = load_acquire((u8 *)(r10 -19))
store_release((u64 *)(r10 -8), r3)
store_release((u16 *)(r10 -18), r3)
r0 = 0
may_goto pc+1
r0 = 1
if r0 == 0 goto pc+1
gotol pc+1
r0 = 2
if w0 > 0x10 goto pc+1
if r0 s<= r1 goto pc+0
if w0 & 0x1 goto +0
if r0 != r4 goto pc+0
w0 <<= 3
r0 >>= r7
r0 s>>= 1
r0 ^= 0xff
r0 *= r7
r0 /= 3
r0 %= r7
r0 |= 8
w0 -= w7
call bpf_get_prandom_u32
r0 &= 1
exit
