# helper and bpf-to-bpf calls, map references, kfuncs, LD_IMM64 pseudo sources
r1 = map[fd:3] ll
r2 = r10
r2 += -4
*(u32 *)(r10 -4) = 0
call bpf_map_lookup_elem#1
if r0 == 0x0 goto pc+2
r1 = map[fd:3]+16 ll
call pc+6
r1 = map[idx:0]+8 ll
r2 = btf_id 5 ll
call kernel-function#1234
exit
r0 = 1
r3 = func pc+3 ll
callx r3
exit
r0 = 2
exit
