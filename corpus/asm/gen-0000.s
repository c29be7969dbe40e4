; bpfscev gen: xdp program, 33 instructions, input 64 bytes
; max_steps 101
; shapes: while-bottom for sequential-nests count-up step-1 counter-32 compare-width-mix cond-unsigned cond-signed bound-const indirect-stack-write wrap
; map 0: gen_array array key_size 4 value_size 64 max_entries 4
; loop 0: header 23 body 17..23 depth 1 parent -1 while-bottom
;   counter r3 u32 step 0x1, continue while <= bound
;   trip 6 max 6
;   iv r3 u32 step 0x1 start 0
; loop 1: header 26 body 26..28 depth 1 parent -1 for
;   counter r6 u32 step 0x1, continue while (u32) s<= bound
;   trip 12 max 12
;   iv r6 u32 step 0x1 start 0x2
-- asm
r2 = *(u32 *)(r1 +0)
r3 = *(u32 *)(r1 +4)
r4 = r2
r4 += 64
if r4 > r3 goto pc+26
*(u64 *)(r10 -8) = r2
*(u64 *)(r10 -320) = 0
*(u64 *)(r10 -312) = 0
*(u64 *)(r10 -304) = 0
*(u64 *)(r10 -296) = 0
*(u64 *)(r10 -288) = 0
*(u64 *)(r10 -280) = 0
*(u64 *)(r10 -272) = 0
*(u64 *)(r10 -264) = 0
r7 = 30793
w3 = 0
goto pc+6
r0 = r3
r0 &= 63
r1 = r10
r1 += r0
*(u8 *)(r1 -320) = r3
w3 += 1
if r3 <= 0x4 goto pc-7
w6 = 2
if w6 s> 0xd goto pc+3
r7 -= r6
w6 += 1
if w6 s<= 0xd goto pc-3
r0 = r7
exit
r0 = 0
exit
-- input
1d b5 4b a1 26 f5 1b 36 11 9c 8e 3d ab a5 07 4f
1b 7f db 86 69 7f 25 a3 a7 9c fc 5d 60 95 aa fd
7e b8 aa 8e a7 c0 97 de 4b 6c 66 18 35 c4 ea 55
b4 90 06 73 06 6c bf 4d 30 8c 79 8a 59 76 77 be
-- helper
8c e5 27 d7 fc 7f df cb 0e 70 e2 3f 53 57 21 f5
4f 2e 2f 24 87 5b 47 61 7e 24 68 31 a9 68 8c 55
52 76 11 47 92 c5 00 bd a0 9e 3b c6 a0 a3 83 9b
fc ef 88 8b 0a 0f 6c 78 4d 38 23 2f f6 c4 73 24
