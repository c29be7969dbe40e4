; slots that do not validate, as the disassembler prints them
.bytes 07 01 00 00 01 00 00 00
.bytes ff ff ff ff ff ff ff ff
r0 = 0
exit
