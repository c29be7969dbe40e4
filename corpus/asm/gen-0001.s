; bpfscev gen: xdp program, 122 instructions, input 64 bytes
; max_steps 2798
; shapes: while while-bottom do-while nest-2 nest-3 nest-4 sequential-nests count-up count-down step-1 step-big counter-64 compare-width-mix cond-unsigned cond-signed cond-eq-ne bound-const bound-input bound-outer bound-ldimm64 continue cond-update derived-iv spilled-counter stack-array-read indirect-stack-write
; loop 0: header 19 body 19..44 depth 1 parent -1 while
;   counter r6 u64 step 0x800002 or 0x800005, continue while <= bound
;   trip - max 17
;   iv r9 u64 step 0xfffffffffffffff1 start 0x123004ef8df510e6
; loop 1: header 31 body 31..38 depth 2 parent 0 do-while
;   counter r8 u64 step 0xfdfffffffffffffe, continue while >= bound
;   trip 2 max 2
;   iv r8 u64 step 0xfdfffffffffffffe start 0x1000000000000010
;   iv r5 u32 step 0 start 0xfa
; loop 2: header 54 body 54..117 depth 1 parent -1 do-while
;   counter r5 u64 step 0x800000000001, continue while <= bound
;   trip 2 max 2
;   iv r5 u64 step 0x800000000001 start 0
; loop 3: header 60 body 60..106 depth 2 parent 2 while
;   counter r8 u64 step 0x1, continue while != bound
;   trip 3 max 3
;   iv r8 u64 step 0x1 start 0x3b
; loop 4: header 98 body 71..98 depth 3 parent 3 while-bottom
;   counter r7 u64 step 0xffffffffffffffff, continue while >= bound
;   trip - max 4
;   iv r7 u64 step 0xffffffffffffffff start 0x25dabc01ca5e89b9
; loop 5: header 72 body 72..80 depth 4 parent 4 do-while
;   counter *(u64 *)(r10 -80) u64 step 0xffffffffffffffff, continue while (u32) s>= bound
;   trip 6 max 6
;   iv *(u64 *)(r10 -80) u64 step 0xffffffffffffffff start 0xffffffffffffffd5
; loop 6: header 85 body 85..96 depth 4 parent 4 do-while
;   counter *(u64 *)(r10 -80) u64 step 0x1, continue while <= bound
;   trip 2 max 2
;   iv *(u64 *)(r10 -80) u64 step 0x1 start 0x9
-- asm
r2 = *(u32 *)(r1 +0)
r3 = *(u32 *)(r1 +4)
r4 = r2
r4 += 64
if r4 > r3 goto pc+115
*(u64 *)(r10 -8) = r2
*(u64 *)(r10 -320) = 0
*(u64 *)(r10 -312) = 0
*(u64 *)(r10 -304) = 0
*(u64 *)(r10 -296) = 0
*(u64 *)(r10 -288) = 0
*(u64 *)(r10 -280) = 0
*(u64 *)(r10 -272) = 0
*(u64 *)(r10 -264) = 0
r2 = 38471
r6 = 0x9a233673642e1c7b ll
r9 = 0x123004ef8df510e6 ll
r0 = 0x9a2336736c2e1c9a ll
if r6 > r0 goto pc+23
r0 = r9
r0 &= 3
r1 = 0xe0000000000000b ll
r0 += r1
r7 = r0
r8 = 0x1000000000000010 ll
w5 = 250
r0 = *(u64 *)(r10 -8)
r0 = *(u8 *)(r0 +25)
if r0 & 0x20 goto pc+0
r0 = 0xfdfffffffffffffe ll
r8 += r0
w5 += 0
if r8 >= r7 goto pc-8
if r2 & 0x10 goto pc+2
r6 += 8388610
goto pc+1
r6 += 8388613
r9 += -15
goto pc-26
r2 += 424
r0 = *(u64 *)(r10 -8)
r0 = *(u8 *)(r0 +14)
r0 &= 15
r1 = 0x800000000001 ll
r0 += r1
r9 = r0
r5 = 0
r0 = r5
r0 &= 63
r1 = r10
r1 += r0
*(u8 *)(r1 -320) = r5
r8 = 59
r0 = 61
if r8 == r0 goto pc+45
r0 = r5
r0 &= 1
r1 = 0x25dabc01ca5e89b7 ll
r0 += r1
r6 = r0
r7 = 0x25dabc01ca5e89b9 ll
goto pc+27
*(u64 *)(r10 -80) = -43
r2 -= r8
r0 = *(u64 *)(r10 -8)
r0 = *(u16 *)(r0 +46)
r2 += r0
r0 = *(u64 *)(r10 -80)
r0 += -1
*(u64 *)(r10 -80) = r0
r0 = *(u64 *)(r10 -80)
if w0 s>= 0xffffffd0 goto pc-9
r0 = *(u64 *)(r10 -8)
r0 = *(u16 *)(r0 +40)
r2 += r0
*(u64 *)(r10 -80) = 9
r0 = *(u64 *)(r10 -8)
r0 = *(u16 *)(r0 +0)
r2 += r0
r0 = *(u64 *)(r10 -80)
r0 *= 9
r0 += 40
r2 += r0
r0 = *(u64 *)(r10 -80)
r0 += 1
*(u64 *)(r10 -80) = r0
r0 = *(u64 *)(r10 -80)
if r0 <= 0xa goto pc-12
r7 -= 1
if r7 >= r6 goto pc-28
r0 = r8
r0 &= 63
r1 = r10
r1 += r0
r0 = *(u8 *)(r1 -320)
r2 += r0
r8 += 1
goto pc-47
r0 = r5
r0 &= 15
r0 <<= 2
r1 = r10
r1 += r0
r0 = *(u32 *)(r1 -320)
r2 += r0
r0 = 0x800000000001 ll
r5 += r0
if r5 <= r9 goto pc-64
r0 = r2
exit
r0 = 0
exit
-- input
29 70 bc 78 99 3a 1d 4a 4d 81 3b 77 e4 83 d8 2f
30 83 fa fb 32 b2 92 cb d9 f3 61 46 8a e6 18 d0
61 6b 69 71 5a 48 9f b3 f9 36 79 55 93 e5 63 21
78 a2 ef 74 07 48 08 49 2d e6 f7 e2 24 ca 00 53
-- helper
f5 f4 10 22 ee bd c0 4b 03 e6 72 6a a8 36 c9 86
8c 3e 0b 3e b4 5d ab 76 76 af a8 65 d6 fd 0e de
e3 33 7d ad a9 44 97 57 ef 86 fc 0e c9 2e 78 95
94 cc 0b 30 7f 20 ed 5c bd 9e a1 d1 77 10 dc 02
