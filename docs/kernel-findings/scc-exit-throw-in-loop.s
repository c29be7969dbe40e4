# Linux 6.18.44: 'verifier bug: scc exit: no visit info for call chain (2)' (load fails)
# Found by 'bpfscev fuzz --kernel --runs 300 --seed 1 --knob p_throw=30 --knob p_throw_bad=30'
# (program 0, 52 slots: p_throw_bad's twin that calls bpf_throw inside a loop, on a path the
# input picks), saved as a kernel invariant finding; reduced by 'bpfscev reduce DIR' (every
# candidate asked of the kernel) to 4 instructions in 54 tests, a fixpoint.  Reproduce with
#   bpfscev kernel docs/kernel-findings/scc-exit-throw-in-loop.s   (an XDP program)
# bpf_throw never returns, but the verifier's CFG follows its fall-through, so the jump back to
# the call makes a strongly connected component whose only way out is the throw's exception
# exit; leaving it the verifier finds no visit info for the call chain and reports a bug in
# itself instead of accepting or refusing the program with a reason.  (bpfscev calls such
# programs unsupported: scev/absint_throw.c, "a throw on a cycle of the kernel's CFG".)
-- asm
l: r1 = 0
call bpf_throw
if r0 < 0 goto l
exit
-- type
xdp
