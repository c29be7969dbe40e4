; bpfscev gen: xdp program, 124 instructions, input 64 bytes
; max_steps 7273
; shapes: while-bottom do-while for nest-2 sequential-nests count-up count-down step-1 step-big counter-64 counter-32 compare-width-mix cond-unsigned cond-signed bound-const bound-input bound-outer return-in-loop cond-update derived-iv narrow-spill spill-around-call stack-array-read indirect-stack-write inner-changes-outer helper-call bpf-to-bpf-call loop-in-subprogram
; subprogram at pc 107
; loop 0: header 17 body 17..29 depth 1 parent -1 for
;   counter r6 u64 step 0x9, continue while (u32) s< bound
;   trip 10 max 10
;   iv r6 u64 step 0x9 start 0xd
; loop 1: header 102 body 42..102 depth 1 parent -1 while-bottom
;   counter r9 u32 step 0x1, continue while s<= bound
;   trip - max 18 early-exit
;   iv r9 u32 step 0x1 start 0xffffffd0
; loop 2: header 52 body 52..67 depth 2 parent 1 for
;   counter r6 u64 step 0xffffffffffffffff or 0xfffffffffffffffe, continue while s> bound
;   trip - max 4
;   iv *(u32 *)(r10 -80) u32 step 0xf start 0x1d945b10
; loop 3: header 99 body 81..99 depth 2 parent 1 while-bottom
;   counter r6 u64 step 0xffffffdffffffffd, continue while (u32) s> bound
;   trip - max 3 early-exit
;   iv r6 u64 step 0xffffffdffffffffd start 0xffffffffffffff9e
; loop 4: header 113 body 113..121 depth 1 parent -1 do-while (subprogram)
;   counter r3 u64 step 0x1, continue while (u32) < bound
;   trip 6 max 6
;   iv r3 u64 step 0x1 start 0x1148cfa6787c9896
;   iv *(u64 *)(r10 -40) u64 step 0xc start 0x75e9b4cf15cddb12
-- asm
r2 = *(u32 *)(r1 +0)
r3 = *(u32 *)(r1 +4)
r4 = r2
r4 += 64
if r4 > r3 goto pc+100
*(u64 *)(r10 -8) = r2
*(u64 *)(r10 -320) = 0
*(u64 *)(r10 -312) = 0
*(u64 *)(r10 -304) = 0
*(u64 *)(r10 -296) = 0
*(u64 *)(r10 -288) = 0
*(u64 *)(r10 -280) = 0
*(u64 *)(r10 -272) = 0
*(u64 *)(r10 -264) = 0
r2 = 59998
r6 = 13
if w6 s>= 0x67 goto pc+13
r0 = r6
r0 &= 15
r0 <<= 2
r1 = r10
r1 += r0
r0 = *(u32 *)(r1 -320)
r2 += r0
*(u64 *)(r10 -32) = r2
call bpf_get_prandom_u32#7
r2 = *(u64 *)(r10 -32)
r2 += r0
r6 += 9
if w6 s< 0x67 goto pc-13
r2 += 900
r0 = *(u64 *)(r10 -8)
r0 = *(u32 *)(r0 +60)
r0 &= 15
r1 = 0xffffffd1 ll
r0 += r1
r3 = r0
w9 = -48
r7 = 0xc5e0f7b5d1449ec ll
goto pc+60
r0 = r7
r0 &= 3
r1 = 0xaf7e924d738d87e8 ll
r0 += r1
r8 = r0
r6 = 0xaf7e924d738d87ec ll
*(u32 *)(r10 -80) = 496261904
if r6 s<= r8 goto pc+16
*(u64 *)(r10 -32) = r2
*(u64 *)(r10 -48) = r3
r1 = r6
r2 = *(u64 *)(r10 -32)
call pc+50
r2 = *(u64 *)(r10 -32)
r3 = *(u64 *)(r10 -48)
r2 += r0
if r2 & 0x2 goto pc+2
r6 += -1
goto pc+1
r6 -= 2
r0 = *(u32 *)(r10 -80)
w0 += 15
*(u32 *)(r10 -80) = r0
if r6 s> r8 goto pc-16
r0 = r7
r0 &= 63
r1 = r10
r1 += r0
*(u8 *)(r1 -320) = r9
r0 = r9
r0 &= 3
r1 = 0xffffffdfffffff98 ll
r0 += r1
r8 = r0
r6 = -98
goto pc+18
*(u64 *)(r10 -32) = r2
*(u64 *)(r10 -48) = r3
call bpf_get_prandom_u32#7
r2 = *(u64 *)(r10 -32)
r3 = *(u64 *)(r10 -48)
if r0 & 0x1 goto pc+2
r0 = r2
exit
*(u64 *)(r10 -32) = r2
*(u64 *)(r10 -48) = r3
call bpf_ktime_get_ns#5
r2 = *(u64 *)(r10 -32)
r3 = *(u64 *)(r10 -48)
r2 ^= r0
r7 += 8
r0 = 0xffffffdffffffffd ll
r6 += r0
if w6 s> w8 goto pc-19
w9 += 1
r7 += -3
if r9 s<= r3 goto pc-61
r0 = r2
exit
r0 = 0
exit
r0 = r2
r3 = 0x1148cfa6787c9896 ll
r4 = 0x75e9b4cf15cddb12 ll
*(u64 *)(r10 -40) = r4
r4 = r3
r4 *= 3
r4 += -2
r0 += r4
r3 += 1
r4 = *(u64 *)(r10 -40)
r4 += 12
*(u64 *)(r10 -40) = r4
if w3 < 0x787c989c goto pc-9
r0 += r1
exit
-- input
d6 e3 71 7e 39 f7 42 96 26 23 4a 05 f8 de de 57
d0 7b 7f b2 4c 79 d7 0e 71 32 ee e1 9f 94 dd f7
99 8c 0c 16 20 43 6e 64 c6 48 19 b6 07 59 b5 fb
dd a2 2d 1a 3b 4c 27 2a 40 c4 17 ca 19 79 1f 4d
-- helper
95 57 c7 b6 04 62 9d 9f e8 4d fa bc 98 8a f4 f0
f5 a4 91 3d 12 9a 09 44 60 a4 b9 d7 c1 61 8a 4f
df 07 95 bb 57 9b 61 fc eb 4c 77 8e bd 43 bb a4
a0 48 10 5c 31 71 1a 8f e2 63 70 08 2a d1 c9 16
