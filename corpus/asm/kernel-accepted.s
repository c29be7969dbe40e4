/* An accepted socket filter with a bounded loop whose body the verifier walks several times:
 * verifier_log_accepted.txt is its log. */
r0 = 0
r1 = 5
r5 = 0
*(u64 *)(r10 -8) = r1
*(u32 *)(r10 -12) = 7
loop:
r0 += 1
w2 = w0
w2 s%= 3
r3 = (s16)r0
r3 s/= 2
r4 = *(u64 *)(r10 -8)
r4 = bswap32 r4
r4 = be16 r4
lock *(u64 *)(r10 -8) += r0
r5 = atomic64_fetch_add((u64 *)(r10 -8), r5)
r7 = r0
r0 = atomic64_cmpxchg((u64 *)(r10 -8), r0, r1)
r0 = r7
r6 = *(s32 *)(r10 -12)
if w0 s< 3 goto loop
r1 = 0x1234567890 ll
r1 -= 1
if r1 & 0x10 goto +1
r0 = -r0
call bpf_get_prandom_u32
r0 &= 1
exit
