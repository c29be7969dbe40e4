; bpfscev gen: xdp program, 51 instructions, input 64 bytes
; max_steps 1060
; shapes: while nest-2 count-up count-down step-1 step-big counter-32 cond-signed cond-eq-ne bound-const bound-outer bound-ldimm64 return-in-loop continue cond-update spilled-counter narrow-spill wrap
; loop 0: header 8 body 8..46 depth 1 parent -1 while
;   counter r6 u32 step 0x1, continue while (u32) == bound
;   trip - max 2 early-exit
;   iv r6 u32 step 0x1 start 0
; loop 1: header 15 body 15..26 depth 2 parent 0 while
;   counter *(u32 *)(r10 -48) u32 step 0x2cd, continue while (u32) s<= bound
;   trip - max 6
;   iv *(u32 *)(r10 -48) u32 step 0x2cd start 0x17
; loop 2: header 28 body 28..44 depth 2 parent 0 while
;   counter r7 u32 step 0xffffffff or 0xfffffffe, continue while (u32) s>= bound
;   trip - max 26 early-exit
-- asm
r2 = *(u32 *)(r1 +0)
r3 = *(u32 *)(r1 +4)
r4 = r2
r4 += 64
if r4 > r3 goto pc+44
*(u64 *)(r10 -8) = r2
r9 = 0
w6 = 0
if w6 != 0x0 goto pc+38
r0 = r6
r0 &= 3
r0 *= 717
r0 += 740
*(u64 *)(r10 -56) = r0
*(u32 *)(r10 -48) = 23
r0 = *(u32 *)(r10 -48)
r1 = *(u64 *)(r10 -56)
if w0 s> w1 goto pc+9
r0 = r6
r0 *= 8
r0 += 29
r9 += r0
if r9 & 0x2 goto pc+0
r0 = *(u32 *)(r10 -48)
w0 += 717
*(u32 *)(r10 -48) = r0
goto pc-12
w7 = 2
r0 = 0xffffffea ll
if w7 s< w0 goto pc+14
if w7 > 0xfffffffd goto pc+2
r0 = r9
exit
r9 |= r6
r0 = r7
r0 >>= 4
r9 |= r0
r0 = *(u64 *)(r10 -8)
r0 = *(u8 *)(r0 +38)
if r0 > 0xa6 goto pc+2
w7 -= 1
goto pc+1
w7 += -2
goto pc-17
w6 += 1
goto pc-39
r0 = r9
exit
r0 = 0
exit
-- input
9c 74 a9 a9 91 7b 43 0e 1b 8d 0c 9f a3 f1 66 81
a5 a9 e2 88 c9 da bd 17 fe 55 f7 30 b1 04 ca 37
42 33 f8 30 98 47 7e c8 63 d7 28 63 ea 66 71 69
4d 8b ff bb af 14 cb 1d eb 1b bf 6d 27 bf 6b c0
-- helper
87 f9 fa 56 53 4a db a0 44 3c df e3 08 7b 19 65
74 67 c2 4d c2 4d bb 04 1e 0f 92 12 37 a3 53 3c
40 92 b1 58 b8 13 24 01 b7 06 f1 08 40 bb 9a 5e
70 4a 74 a2 2d 41 a9 52 21 87 c8 5f 53 dc ce 07
