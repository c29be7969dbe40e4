// LLVM BPF assembler as in selftests' inline asm: symbolic and local labels, ';' separators
	r1 = 0; r0 = 0
1:	r0 += r1
	r1 += 1
	if r1 < 10 goto 1b
	if w0 s> 100 goto 2f
	w0 = w0
2:	r2 = 0x100000000 ll
	r0 &= r2
	goto out
out:
	exit
