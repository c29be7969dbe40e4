-- type
socket
-- asm
r6 = r1
r0 = *(u8 *)skb[12]
r0 = *(u16 *)skb[r1 + 4]
r0 = *(u32 *)skb[r1]
if r0 & 0x4 goto pc+1
gotol pc+1
may_goto pc+0
r0 = 0
exit
-- input
00 01 02 03 04 05 06 07 08 09 0a 0b 08 00 45 00 00 1c
