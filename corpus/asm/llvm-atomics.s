/* atomics, acquire/release and sign extension in LLVM spellings */
r1 = 7
*(u64 *)(r10 - 8) = r1
*(u32 *)(r10 - 16) = 3
r2 = r10
r2 += -8
r1 = atomic_fetch_add((u64 *)(r10 - 8), r1)
r1 = xchg_64(r2 + 0, r1)
w3 = 5
w3 = xchg32_32(r10 - 16, w3)
r0 = 7
r0 = cmpxchg_64(r2 + 0, r0, r1)
lock *(u64 *)(r10 -8) += r1
lock *(u32 *)(r10 -16) |= w3
r4 = load_acquire((u64 *)(r10 -8))
store_release((u64 *)(r10 -8), r4)
w5 = (s8)w3
r6 = (s32)r4
r6 s/= 3
r6 s%= 5
r6 = -r6
r6 = be16 r6
r6 = bswap64 r6
r0 = r6
exit
