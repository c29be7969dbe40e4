# Linux 6.18.44: 'verifier bug: No program to jit at insn 6 (subprog < 0)' (load fails, EFAULT)
# Found by 'bpfscev fuzz --runs 100 --seed 51 --kernel --knob p_cb_count=100' (program 58, 173
# slots: a bpf_loop callback's address loaded and the call made with nr = 0), classified then as
# an improvement (the kernel rejected a program bpfscev calls safe); reduced by 'bpfscev reduce
# --rejects --msg "No program to jit"' (every candidate asked of the kernel) to 6 instructions,
# proved 1-minimal.  Reproduce with
#   bpfscev kernel docs/kernel-findings/no-program-to-jit-dead-subprog.s   (a socket filter)
# The address of the subprogram at slot 6 is loaded (BPF_PSEUDO_FUNC) but never called or passed
# to a helper, so the verifier never walks it; dead-code removal then drops it, and jit_subprogs
# finds no subprogram where the LD_IMM64 points.  The verifier accepted the program's every path;
# a valid program is refused with a self-reported bug.
-- asm
r0 = func pc+5 ll
call pc+2
r0 = 0
exit
exit
exit
-- type
socket
