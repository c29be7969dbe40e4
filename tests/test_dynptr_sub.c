/* Dynptrs in static subprograms (scev/absint_dynptr.c): a subprogram that makes, uses and
 * releases a dynptr in its own frame, and one given a pointer to its caller's dynptr that reads,
 * writes or slices it.  Three parts, the kernel as the judge where bpf() is allowed:
 *  - the clang-built tests/bpf/dynptr_sub.o: each program's verdict and reason, and the
 *    kernel's agreement;
 *  - assembly cases, each with the kernel's class (both accept, both reject, or a regression the
 *    model answers unsupported): a ringbuf dynptr a subprogram leaves unreleased (its frame goes:
 *    the kernel refuses at the main program's exit), the caller's dynptr used after the caller
 *    released it, a slice read past its size in the callee, what stays unsupported (a callee
 *    releasing or making its caller's dynptr in a loop, reading its bytes); a caller's dynptr
 *    handed two and three levels down, read, made and released there; a bpf_loop callback
 *    making or releasing its caller's dynptr (each call starts where the last one left it, and
 *    it may run no time), and so by a for_each_map_elem or find_vma callback;
 *  - safe verdicts forged for the unsafe cases must fault when run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/exec/interp.h"
#include "tests/check.h"
#include "tests/verdict_case.h"
#include "triage/verdict.h"

/* map[fd:0]: an array of one 64-byte value; fd:1 a ring buffer of 4096 bytes */
static struct ebpf_map_def maps[] = {
	{ .name = "arr", .type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 64,
	  .max_entries = 1 },
	{ .name = "rb", .type = BPF_MAP_TYPE_RINGBUF, .max_entries = 4096 },
};

#define LOOKUP "r1 = 0\n*(u32 *)(r10 -4) = r1\nr1 = map[fd:0] ll\nr2 = r10\nr2 += -4\n" \
	       "call bpf_map_lookup_elem\nif r0 == 0 goto out\n"
#define FROM_MEM(n) "r1 = r0\nr2 = " #n "\nr3 = 0\nr4 = r10\nr4 += -24\ncall bpf_dynptr_from_mem\n"
#define RESERVE(n) "r1 = map[fd:1] ll\nr2 = " #n "\nr3 = 0\nr4 = r10\nr4 += -16\n" \
		   "call bpf_ringbuf_reserve_dynptr\n"
#define RELEASE(f) "r1 = r10\nr1 += -16\nr2 = 0\ncall bpf_ringbuf_" #f "_dynptr\n"
/* a subprogram given the dynptr in r1: bpf_dynptr_read(fp-8, 8, r1, off, 0) */
#define SUB_READ(off) "rd: r3 = r1\nr1 = r10\nr1 += -8\nr2 = 8\nr4 = " #off "\nr5 = 0\n" \
		      "call bpf_dynptr_read\nr0 = 0\nexit\n"
/* bpf_dynptr_data(r1, off, 8), NULL-checked, then a load at +at */
#define SUB_DATA(off, at) "dt: r2 = " #off "\nr3 = 8\ncall bpf_dynptr_data\nif r0 == 0 goto dn\n" \
			  "r0 = *(u64 *)(r0 +" #at ")\ndn: r0 = 0\nexit\n"
/* bpf_dynptr_write(r1, 0, fp-8, 8, 0) */
#define SUB_WRITE "wr: *(u64 *)(r10 -8) = 5\nr2 = 0\nr3 = r10\nr3 += -8\nr4 = 8\nr5 = 0\n" \
		  "call bpf_dynptr_write\nr0 = 0\nexit\n"
#define ARG(off) "r1 = r10\nr1 += " #off "\n"
/* subprograms given the caller's dynptr in r1 that make or release it: a ringbuf record of 16
 * bytes; a local dynptr over 64 bytes of the map value in r2; bpf_ringbuf_<f>_dynptr */
#define SUB_RESERVE "mk: r4 = r1\nr1 = map[fd:1] ll\nr2 = 16\nr3 = 0\n" \
		    "call bpf_ringbuf_reserve_dynptr\nr0 = 0\nexit\n"
#define SUB_FROM_MEM "fm: r4 = r1\nr1 = r2\nr2 = 64\nr3 = 0\ncall bpf_dynptr_from_mem\n" \
		     "r0 = 0\nexit\n"
#define SUB_RELEASE(f) "rl: r2 = 0\ncall bpf_ringbuf_" #f "_dynptr\nr0 = 0\nexit\n"
/* ... only when r2 is not 0, returning 0 then and what set says otherwise */
#define SUB_MAYBE_RESERVE(set) "mc: " set "\nif r2 == 0 goto mo\nr4 = r1\nr1 = map[fd:1] ll\n" \
			       "r2 = 16\nr3 = 0\ncall bpf_ringbuf_reserve_dynptr\nr0 = 0\nmo: exit\n"
#define SUB_MAYBE_RELEASE "rc: r0 = 1\nif r2 == 0 goto ro\nr2 = 0\n" \
			  "call bpf_ringbuf_discard_dynptr\nr0 = 0\nro: exit\n"
/* the caller reads 8 bytes of its dynptr at fp-16 into fp-32 */
#define READ16 "r1 = r10\nr1 += -32\nr2 = 8\nr3 = r10\nr3 += -16\nr4 = 0\nr5 = 0\n" \
	       "call bpf_dynptr_read\n"
/* bpf_for_each_map_elem(arr, cb, fp - 16, 0): the callback's context (r4) is the caller's
 * dynptr */
#define EACH_CB "r1 = map[fd:0] ll\nr2 = func cb ll\nr3 = r10\nr3 += -16\nr4 = 0\n" \
		"call bpf_for_each_map_elem\n"
/* bpf_loop(4, cb, fp + off, 0): the callback's context is the caller's dynptr */
#define LOOP_CB(off) "r1 = 4\nr2 = func cb ll\nr3 = r10\nr3 += " #off "\nr4 = 0\ncall bpf_loop\n"

static const struct verdict_case_row cases[] = {
	/* (b) a caller's dynptr used by a static callee */
	{ "the caller's ringbuf dynptr read by a subprogram",
	  RESERVE(16) ARG(-16) "call rd\n" RELEASE(discard) "r0 = 0\nexit\n" SUB_READ(8), SAFE,
	  NULL, VC_BOTH_ACCEPT },
	{ "the caller's ringbuf dynptr written by a subprogram",
	  RESERVE(16) ARG(-16) "call wr\n" RELEASE(submit) "r0 = 0\nexit\n" SUB_WRITE, SAFE, NULL,
	  VC_BOTH_ACCEPT },
	{ "the caller's local dynptr sliced by a subprogram",
	  LOOKUP FROM_MEM(64) ARG(-24) "call dt\nout: r0 = 0\nexit\n" SUB_DATA(56, 0), SAFE, NULL,
	  VC_BOTH_ACCEPT },
	{ "two calls, the dynptr at the same place",
	  RESERVE(16) ARG(-16) "call rd\n" ARG(-16) "call rd\n" RELEASE(discard) "r0 = 0\nexit\n"
	  SUB_READ(0), SAFE, NULL, VC_BOTH_ACCEPT },
	{ "a subprogram reads the caller's dynptr after the caller released it",
	  RESERVE(16) RELEASE(discard) ARG(-16) "call rd\nr0 = 0\nexit\n" SUB_READ(0), UNSAFE,
	  "Expected an initialized dynptr", VC_BOTH_REJECT },
	{ "a subprogram reads the caller's dynptr, released before one of two calls",
	  "r6 = *(u32 *)(r1 +16)\n" RESERVE(16) "if r6 == 0 goto rel\n" ARG(-16) "call rd\n"
	  "rel: " RELEASE(discard) ARG(-16) "call rd\nr0 = 0\nexit\n" SUB_READ(0), UNSAFE,
	  "Expected an initialized dynptr", VC_BOTH_REJECT },
	{ "a subprogram reads past the slice of the caller's dynptr",
	  RESERVE(16) ARG(-16) "call dt\n" RELEASE(discard) "r0 = 0\nexit\n" SUB_DATA(8, 8),
	  UNSAFE, "mem_size=8", VC_BOTH_REJECT },
	{ "a subprogram discards the caller's ringbuf dynptr",
	  RESERVE(16) ARG(-16) "call f\nr0 = 0\nexit\nf: r2 = 0\ncall bpf_ringbuf_discard_dynptr\n"
	  "r0 = 0\nexit\n", SAFE, NULL, VC_BOTH_ACCEPT },
	/* (c) a caller's dynptr made or released by a static callee: its exits give it back */
	{ "a subprogram reserves the caller's ringbuf dynptr, the caller submits it",
	  ARG(-16) "call mk\n" READ16 RELEASE(submit) "r0 = 0\nexit\n" SUB_RESERVE, SAFE, NULL,
	  VC_BOTH_ACCEPT },
	{ "a subprogram reserves the caller's ringbuf dynptr, the caller leaks it",
	  ARG(-16) "call mk\nr0 = 0\nexit\n" SUB_RESERVE, UNSAFE, "reference leak",
	  VC_BOTH_REJECT },
	{ "a subprogram reserves over the caller's live ringbuf dynptr",
	  RESERVE(16) ARG(-16) "call mk\n" RELEASE(discard) "r0 = 0\nexit\n" SUB_RESERVE, UNSAFE,
	  "cannot overwrite referenced dynptr", VC_BOTH_REJECT },
	{ "a subprogram reserves and writes the caller's dynptr, the caller submits it twice",
	  ARG(-16) "call wm\n" RELEASE(submit) RELEASE(submit) "r0 = 0\nexit\n"
	  "wm: r6 = r1\nr4 = r1\nr1 = map[fd:1] ll\nr2 = 16\nr3 = 0\n"
	  "call bpf_ringbuf_reserve_dynptr\n*(u64 *)(r10 -8) = 7\nr1 = r6\nr2 = 8\nr3 = r10\n"
	  "r3 += -8\nr4 = 8\nr5 = 0\ncall bpf_dynptr_write\nr0 = 0\nexit\n", UNSAFE,
	  "Expected an initialized dynptr", VC_BOTH_REJECT },
	{ "a subprogram discards the caller's ringbuf dynptr, the caller reads it",
	  RESERVE(16) ARG(-16) "call rl\n" READ16 "r0 = 0\nexit\n" SUB_RELEASE(discard), UNSAFE,
	  "Expected an initialized dynptr", VC_BOTH_REJECT },
	{ "a subprogram submits the caller's local dynptr",
	  LOOKUP FROM_MEM(64) ARG(-24) "call rl\nout: r0 = 0\nexit\n" SUB_RELEASE(submit), UNSAFE,
	  "unacquired reference", VC_BOTH_REJECT },
	{ "a subprogram makes the caller's local dynptr, the caller slices it",
	  LOOKUP "r2 = r0\n" ARG(-24) "call fm\nr1 = r10\nr1 += -24\nr2 = 56\nr3 = 8\n"
	  "call bpf_dynptr_data\nif r0 == 0 goto out\nr0 = *(u64 *)(r0 +0)\nout: r0 = 0\nexit\n"
	  SUB_FROM_MEM, SAFE, NULL, VC_BOTH_ACCEPT },
	{ "a subprogram remakes the caller's local dynptr, the caller reads its old slice",
	  LOOKUP FROM_MEM(64) "r6 = r0\nr1 = r10\nr1 += -24\nr2 = 0\nr3 = 8\n"
	  "call bpf_dynptr_data\nif r0 == 0 goto out\nr7 = r0\nr2 = r6\n" ARG(-24) "call fm\n"
	  "r0 = *(u64 *)(r7 +0)\nout: r0 = 0\nexit\n" SUB_FROM_MEM, UNSAFE, "not a known pointer",
	  VC_BOTH_REJECT },
	{ "the caller reserves in a loop through a subprogram and submits",
	  "r6 = 4\nl: " ARG(-16) "call mk\n" RELEASE(submit) "r6 += -1\nif r6 != 0 goto l\n"
	  "r0 = 0\nexit\n" SUB_RESERVE, SAFE, NULL, VC_BOTH_ACCEPT },
	{ "a subprogram reserves the caller's dynptr on one path only",
	  "r6 = *(u32 *)(r1 +16)\n" ARG(-16) "r2 = r6\ncall mc\n" RELEASE(discard) "r0 = 0\nexit\n"
	  "mc: if r2 == 0 goto mo\nr4 = r1\nr1 = map[fd:1] ll\nr2 = 16\nr3 = 0\n"
	  "call bpf_ringbuf_reserve_dynptr\nmo: r0 = 0\nexit\n", UNSUPPORTED,
	  "caller's frame", VC_BOTH_REJECT },
	/* (h) ... on some paths only, told apart by its result: the caller's test of r0 takes
	 * the masks of the exits that return 0, or of the others (astate.dpg) */
	{ "a subprogram reserves the caller's dynptr when it returns 0",
	  "r6 = *(u32 *)(r1 +16)\n" ARG(-16) "r2 = r6\ncall mc\nif r0 != 0 goto o\n"
	  RELEASE(discard) "o: r0 = 0\nexit\n" SUB_MAYBE_RESERVE("r0 = 1"), SAFE, NULL,
	  VC_BOTH_ACCEPT },
	{ "a subprogram reserves the caller's dynptr when it returns 0, the caller discards "
	  "otherwise",
	  "r6 = *(u32 *)(r1 +16)\n" ARG(-16) "r2 = r6\ncall mc\nif r0 == 0 goto o\n"
	  RELEASE(discard) "o: r0 = 0\nexit\n" SUB_MAYBE_RESERVE("r0 = 1"), UNSUPPORTED,
	  "caller's frame", VC_BOTH_REJECT },
	{ "a subprogram reserves the caller's dynptr when w0 is 0 (clang's 32-bit test)",
	  "r6 = *(u32 *)(r1 +16)\n" ARG(-16) "r2 = r6\ncall mc\nif w0 != 0 goto o\n"
	  RELEASE(discard) "o: r0 = 0\nexit\n" SUB_MAYBE_RESERVE("w0 = -1"), SAFE, NULL,
	  VC_BOTH_ACCEPT },
	{ "a subprogram reserves the caller's dynptr when w0 is 0, the caller leaks it",
	  "r6 = *(u32 *)(r1 +16)\n" ARG(-16) "r2 = r6\ncall mc\nif w0 == 0 goto o\n"
	  RELEASE(discard) "o: r0 = 0\nexit\n" SUB_MAYBE_RESERVE("w0 = -1"), UNSUPPORTED,
	  "caller's frame", VC_BOTH_REJECT },
	{ "a subprogram's result kept in r6, copied to w0 at its exit",
	  "r6 = *(u32 *)(r1 +16)\n" ARG(-16) "r2 = r6\ncall mc\nif w0 != 0 goto o\n"
	  RELEASE(discard) "o: r0 = 0\nexit\n"
	  "mc: w6 = -1\nif r2 == 0 goto mo\nr4 = r1\nr1 = map[fd:1] ll\nr2 = 16\nr3 = 0\n"
	  "call bpf_ringbuf_reserve_dynptr\nw6 = 0\nmo: w0 = w6\nexit\n", SAFE, NULL,
	  VC_BOTH_ACCEPT },
	{ "a subprogram's result kept in r6, copied to w0 at its exit, the caller leaks it",
	  "r6 = *(u32 *)(r1 +16)\n" ARG(-16) "r2 = r6\ncall mc\nif w0 == 0 goto o\n"
	  RELEASE(discard) "o: r0 = 0\nexit\n"
	  "mc: w6 = -1\nif r2 == 0 goto mo\nr4 = r1\nr1 = map[fd:1] ll\nr2 = 16\nr3 = 0\n"
	  "call bpf_ringbuf_reserve_dynptr\nw6 = 0\nmo: w0 = w6\nexit\n", UNSUPPORTED,
	  "caller's frame", VC_BOTH_REJECT },
	{ "a subprogram returning 0x100000000 when it does not reserve, tested in 32 bits",
	  "r6 = *(u32 *)(r1 +16)\n" ARG(-16) "r2 = r6\ncall mc\nif w0 != 0 goto o\n"
	  RELEASE(discard) "o: r0 = 0\nexit\n" SUB_MAYBE_RESERVE("r0 = 1 ll\nr0 <<= 32"),
	  UNSUPPORTED, "caller's frame", VC_BOTH_REJECT },
	/* (r0's classes told by its range at the return, which a static function now gives:
	 * 7398462) */
	{ "a subprogram returning -22 when it does not reserve, tested signed",
	  "r6 = *(u32 *)(r1 +16)\n" ARG(-16) "r2 = r6\ncall mc\nif r0 s< 0 goto o\n"
	  RELEASE(discard) "o: r0 = 0\nexit\n" SUB_MAYBE_RESERVE("r0 = -22"), SAFE, NULL,
	  VC_BOTH_ACCEPT },
	{ "a subprogram discards the caller's record when it returns 0, the caller otherwise",
	  "r6 = *(u32 *)(r1 +16)\n" RESERVE(16) ARG(-16) "r2 = r6\ncall rc\nif r0 == 0 goto o\n"
	  RELEASE(discard) "o: r0 = 0\nexit\n" SUB_MAYBE_RELEASE, SAFE, NULL, VC_BOTH_ACCEPT },
	{ "a subprogram discards the caller's record when it returns 0, the caller always",
	  "r6 = *(u32 *)(r1 +16)\n" RESERVE(16) ARG(-16) "r2 = r6\ncall rc\n"
	  RELEASE(discard) "r0 = 0\nexit\n" SUB_MAYBE_RELEASE, UNSUPPORTED, "caller's frame",
	  VC_BOTH_REJECT },
	{ "a subprogram discards the caller's record when it returns 0, the caller reads it then",
	  "r6 = *(u32 *)(r1 +16)\n" RESERVE(16) ARG(-16) "r2 = r6\ncall rc\nif r0 != 0 goto k\n"
	  READ16 "r0 = 0\nexit\nk: " RELEASE(discard) "r0 = 0\nexit\n" SUB_MAYBE_RELEASE,
	  UNSUPPORTED, "caller's frame", VC_BOTH_REJECT },
	{ "two levels down, a record reserved when the last one returns 0, the middle passes it on",
	  "r6 = *(u32 *)(r1 +16)\n" ARG(-16) "r2 = r6\ncall f\nif r0 != 0 goto o\n"
	  RELEASE(submit) "o: r0 = 0\nexit\nf: call mc\nexit\n" SUB_MAYBE_RESERVE("r0 = 1"),
	  SAFE, NULL, VC_BOTH_ACCEPT },
	{ "two levels down, a record reserved when the last one returns 0, the middle returns 0",
	  "r6 = *(u32 *)(r1 +16)\n" ARG(-16) "r2 = r6\ncall f\nif r0 != 0 goto o\n"
	  RELEASE(submit) "o: r0 = 0\nexit\nf: call mc\nr0 = 0\nexit\n"
	  SUB_MAYBE_RESERVE("r0 = 1"), UNSUPPORTED, "caller's frame", VC_BOTH_REJECT },
	/* (d) a caller's dynptr used by a bpf_loop callback through its context pointer */
	{ "a bpf_loop callback reads the caller's ringbuf dynptr",
	  RESERVE(16) LOOP_CB(-16) RELEASE(discard) "r0 = 0\nexit\n"
	  "cb: r3 = r2\nr1 = r10\nr1 += -8\nr2 = 8\nr4 = 0\nr5 = 0\ncall bpf_dynptr_read\n"
	  "r0 = 0\nexit\n", SAFE, NULL, VC_BOTH_ACCEPT },
	{ "a bpf_loop callback writes the caller's ringbuf dynptr at its index",
	  RESERVE(64) LOOP_CB(-16) RELEASE(submit) "r0 = 0\nexit\n"
	  "cb: *(u64 *)(r10 -8) = r1\nr1 <<= 3\nr1 &= 63\nr6 = r2\nr2 = r1\nr1 = r6\nr3 = r10\n"
	  "r3 += -8\nr4 = 8\nr5 = 0\ncall bpf_dynptr_write\nr0 = 0\nexit\n", SAFE, NULL,
	  VC_BOTH_ACCEPT },
	{ "a bpf_loop callback slices the caller's local dynptr",
	  LOOKUP FROM_MEM(64) LOOP_CB(-24) "out: r0 = 0\nexit\n"
	  "cb: r1 = r2\nr2 = 56\nr3 = 8\ncall bpf_dynptr_data\nif r0 == 0 goto e\n"
	  "r0 = *(u64 *)(r0 +0)\ne: r0 = 0\nexit\n", SAFE, NULL, VC_BOTH_ACCEPT },
	{ "a bpf_loop callback reads the caller's dynptr after the caller discarded it",
	  RESERVE(16) RELEASE(discard) LOOP_CB(-16) "r0 = 0\nexit\n"
	  "cb: r3 = r2\nr1 = r10\nr1 += -8\nr2 = 8\nr4 = 0\nr5 = 0\ncall bpf_dynptr_read\n"
	  "r0 = 0\nexit\n", UNSAFE, "Expected an initialized dynptr", VC_BOTH_REJECT },
	{ "a bpf_loop callback reads past its slice of the caller's dynptr",
	  RESERVE(16) LOOP_CB(-16) RELEASE(discard) "r0 = 0\nexit\n"
	  "cb: r1 = r2\nr2 = 8\nr3 = 8\ncall bpf_dynptr_data\nif r0 == 0 goto e\n"
	  "r0 = *(u64 *)(r0 +8)\ne: r0 = 0\nexit\n", UNSAFE, "mem_size=8", VC_BOTH_REJECT },
	/* (f) a caller's dynptr made or released by a bpf_loop callback: each call starts where
	 * the last one's exits left it, and the callback may run no time */
	{ "a bpf_loop callback discards the caller's ringbuf dynptr",
	  RESERVE(16) LOOP_CB(-16) "r0 = 0\nexit\n"
	  "cb: r1 = r2\nr2 = 0\ncall bpf_ringbuf_discard_dynptr\nr0 = 1\nexit\n", UNSAFE,
	  "reference leak", VC_BOTH_REJECT },
	{ "a bpf_loop callback reserves and discards the caller's dynptr",
	  LOOP_CB(-16) "r0 = 0\nexit\n"
	  "cb: r6 = r2\nr4 = r2\nr1 = map[fd:1] ll\nr2 = 16\nr3 = 0\n"
	  "call bpf_ringbuf_reserve_dynptr\nr1 = r6\nr2 = 0\ncall bpf_ringbuf_discard_dynptr\n"
	  "r0 = 0\nexit\n", SAFE, NULL, VC_BOTH_ACCEPT },
	{ "a bpf_loop callback reserves the caller's dynptr and leaves it",
	  LOOP_CB(-16) "r0 = 0\nexit\n"
	  "cb: r4 = r2\nr1 = map[fd:1] ll\nr2 = 16\nr3 = 0\ncall bpf_ringbuf_reserve_dynptr\n"
	  "r0 = 0\nexit\n", UNSAFE, "reference leak", VC_BOTH_REJECT },
	{ "a bpf_loop callback swaps the caller's record for a new one",
	  RESERVE(16) LOOP_CB(-16) RELEASE(submit) "r0 = 0\nexit\n"
	  "cb: r6 = r2\nr1 = r2\nr2 = 0\ncall bpf_ringbuf_discard_dynptr\nr4 = r6\n"
	  "r1 = map[fd:1] ll\nr2 = 16\nr3 = 0\ncall bpf_ringbuf_reserve_dynptr\nr0 = 0\nexit\n",
	  SAFE, NULL, VC_BOTH_ACCEPT },
	{ "a bpf_loop callback makes the caller's local dynptr",
	  LOOP_CB(-24) "r0 = 0\nexit\ncb: r6 = r2\n" LOOKUP "r1 = r0\nr2 = 64\nr3 = 0\nr4 = r6\n"
	  "call bpf_dynptr_from_mem\nout: r0 = 0\nexit\n", SAFE, NULL, VC_BOTH_ACCEPT },
	{ "a bpf_loop callback makes the caller's local dynptr, the caller reads it",
	  LOOP_CB(-16) READ16 "r0 = 0\nexit\ncb: r6 = r2\n" LOOKUP
	  "r1 = r0\nr2 = 64\nr3 = 0\nr4 = r6\ncall bpf_dynptr_from_mem\nout: r0 = 0\nexit\n",
	  UNSAFE, "Expected an initialized dynptr", VC_BOTH_REJECT },
	{ "a bpf_loop callback has a subprogram swap the caller's record",
	  RESERVE(16) LOOP_CB(-16) RELEASE(submit) "r0 = 0\nexit\n"
	  "cb: r1 = r2\ncall sw\nr0 = 0\nexit\n"
	  "sw: r6 = r1\nr2 = 0\ncall bpf_ringbuf_discard_dynptr\nr4 = r6\n"
	  "r1 = map[fd:1] ll\nr2 = 16\nr3 = 0\ncall bpf_ringbuf_reserve_dynptr\nr0 = 0\nexit\n",
	  SAFE, NULL, VC_BOTH_ACCEPT },
	{ "a bpf_loop callback reads the bytes of the caller's dynptr",
	  RESERVE(16) LOOP_CB(-16) RELEASE(discard) "r0 = 0\nexit\n"
	  "cb: r0 = *(u64 *)(r2 +0)\nr0 = 0\nexit\n", UNSUPPORTED, "while a dynptr is live there",
	  VC_BOTH_REJECT },
	{ "a bpf_loop callback reads the caller's dynptr, then its bytes",
	  RESERVE(16) LOOP_CB(-16) RELEASE(discard) "r0 = 0\nexit\n"
	  "cb: r6 = r2\nr3 = r2\nr1 = r10\nr1 += -8\nr2 = 8\nr4 = 0\nr5 = 0\n"
	  "call bpf_dynptr_read\nr0 = *(u64 *)(r6 +8)\nr0 = 0\nexit\n", UNSUPPORTED,
	  "access to the bytes of the dynptr", VC_BOTH_REJECT },
	{ "a subprogram reserves and discards the caller's dynptr in a loop",
	  ARG(-16) "call lp\nr0 = 0\nexit\n"
	  "lp: r6 = r1\nr7 = 3\nll: r4 = r6\nr1 = map[fd:1] ll\nr2 = 16\nr3 = 0\n"
	  "call bpf_ringbuf_reserve_dynptr\nr1 = r6\nr2 = 0\ncall bpf_ringbuf_discard_dynptr\n"
	  "r7 += -1\nif r7 != 0 goto ll\nr0 = 0\nexit\n", UNSUPPORTED, "in a loop",
	  VC_REGRESSION },
	{ "a subprogram reads the bytes of the caller's dynptr",
	  RESERVE(16) ARG(-16) "call f\n" RELEASE(discard) "r0 = 0\nexit\n"
	  "f: r0 = *(u64 *)(r1 +0)\nexit\n", UNSUPPORTED, "access to the bytes of the dynptr",
	  VC_BOTH_REJECT },
	/* (g) ... by a bpf_for_each_map_elem callback, its context in r4 */
	{ "a for_each_map_elem callback reads the caller's record",
	  RESERVE(16) EACH_CB RELEASE(discard) "r0 = 0\nexit\n"
	  "cb: r3 = r4\nr1 = r10\nr1 += -8\nr2 = 8\nr4 = 0\nr5 = 0\ncall bpf_dynptr_read\n"
	  "r0 = 0\nexit\n", SAFE, NULL, VC_BOTH_ACCEPT },
	{ "a for_each_map_elem callback swaps the caller's record for a new one",
	  RESERVE(16) EACH_CB RELEASE(submit) "r0 = 0\nexit\n"
	  "cb: r6 = r4\nr1 = r4\nr2 = 0\ncall bpf_ringbuf_discard_dynptr\nr4 = r6\n"
	  "r1 = map[fd:1] ll\nr2 = 16\nr3 = 0\ncall bpf_ringbuf_reserve_dynptr\nr0 = 0\nexit\n",
	  SAFE, NULL, VC_BOTH_ACCEPT },
	{ "a for_each_map_elem callback discards the caller's record",
	  RESERVE(16) EACH_CB "r0 = 0\nexit\n"
	  "cb: r1 = r4\nr2 = 0\ncall bpf_ringbuf_discard_dynptr\nr0 = 0\nexit\n", UNSAFE,
	  "reference leak", VC_BOTH_REJECT },
	{ "a for_each_map_elem callback reads the caller's record after the caller discarded it",
	  RESERVE(16) RELEASE(discard) EACH_CB "r0 = 0\nexit\n"
	  "cb: r3 = r4\nr1 = r10\nr1 += -8\nr2 = 8\nr4 = 0\nr5 = 0\ncall bpf_dynptr_read\n"
	  "r0 = 0\nexit\n", UNSAFE, "Expected an initialized dynptr", VC_BOTH_REJECT },
	/* (e) a caller's dynptr handed two levels down: main -> f -> g */
	{ "a subprogram hands the caller's dynptr to another one",
	  RESERVE(16) ARG(-16) "call f\n" RELEASE(discard) "r0 = 0\nexit\n"
	  "f: call rd\nr0 = 0\nexit\n" SUB_READ(0), SAFE, NULL, VC_BOTH_ACCEPT },
	{ "two levels down, the caller's record discarded",
	  RESERVE(16) ARG(-16) "call f\nr0 = 0\nexit\nf: call rl\nr0 = 0\nexit\n"
	  SUB_RELEASE(discard), SAFE, NULL, VC_BOTH_ACCEPT },
	{ "two levels down, the caller's record reserved, the caller submits it",
	  ARG(-16) "call f\n" RELEASE(submit) "r0 = 0\nexit\nf: call mk\nr0 = 0\nexit\n"
	  SUB_RESERVE, SAFE, NULL, VC_BOTH_ACCEPT },
	{ "two levels down, the caller's local dynptr made, the caller slices it",
	  LOOKUP "r2 = r0\n" ARG(-24) "call f\nr1 = r10\nr1 += -24\nr2 = 56\nr3 = 8\n"
	  "call bpf_dynptr_data\nif r0 == 0 goto out\nr0 = *(u64 *)(r0 +0)\nout: r0 = 0\nexit\n"
	  "f: call fm\nr0 = 0\nexit\n" SUB_FROM_MEM, SAFE, NULL, VC_BOTH_ACCEPT },
	{ "two levels down, the caller's record reserved, the caller leaks it",
	  ARG(-16) "call f\nr0 = 0\nexit\nf: call mk\nr0 = 0\nexit\n" SUB_RESERVE, UNSAFE,
	  "reference leak", VC_BOTH_REJECT },
	{ "two levels down, the caller's record discarded, the caller reads it",
	  RESERVE(16) ARG(-16) "call f\n" READ16 "r0 = 0\nexit\nf: call rl\nr0 = 0\nexit\n"
	  SUB_RELEASE(discard), UNSAFE, "Expected an initialized dynptr", VC_BOTH_REJECT },
	{ "two levels down, the middle one reads the record the last one discarded",
	  RESERVE(16) ARG(-16) "call f\nr0 = 0\nexit\n"
	  "f: r6 = r1\ncall rl\nr3 = r6\nr1 = r10\nr1 += -8\nr2 = 8\nr4 = 0\nr5 = 0\n"
	  "call bpf_dynptr_read\nr0 = 0\nexit\n" SUB_RELEASE(discard), UNSAFE,
	  "Expected an initialized dynptr", VC_BOTH_REJECT },
	{ "two levels down, a read after the caller discarded its record",
	  RESERVE(16) RELEASE(discard) ARG(-16) "call f\nr0 = 0\nexit\nf: call rd\nr0 = 0\nexit\n"
	  SUB_READ(0), UNSAFE, "Expected an initialized dynptr", VC_BOTH_REJECT },
	/* (i) a middle function holding a dynptr of its own while it hands its caller's on */
	{ "two levels down, the middle one holding a record of its own too",
	  RESERVE(16) ARG(-16) "call f\n" RELEASE(discard) "r0 = 0\nexit\n"
	  "f: r6 = r1\n" RESERVE(8) "r1 = r6\ncall rd\n" RELEASE(submit) "r0 = 0\nexit\n"
	  SUB_READ(0), SAFE, NULL, VC_BOTH_ACCEPT },
	{ "two levels down, the middle one holding its own, the last one discards the caller's",
	  RESERVE(16) ARG(-16) "call f\nr0 = 0\nexit\n"
	  "f: r6 = r1\n" RESERVE(8) "r1 = r6\ncall rl\n" RELEASE(submit) "r0 = 0\nexit\n"
	  SUB_RELEASE(discard), SAFE, NULL, VC_BOTH_ACCEPT },
	{ "two levels down, the middle one holding its own, the caller's discarded twice",
	  RESERVE(16) ARG(-16) "call f\n" RELEASE(discard) "r0 = 0\nexit\n"
	  "f: r6 = r1\n" RESERVE(8) "r1 = r6\ncall rl\n" RELEASE(submit) "r0 = 0\nexit\n"
	  SUB_RELEASE(discard), UNSAFE, "Expected an initialized dynptr", VC_BOTH_REJECT },
	{ "two levels down, the middle one leaks its own",
	  RESERVE(16) ARG(-16) "call f\n" RELEASE(discard) "r0 = 0\nexit\n"
	  "f: r6 = r1\n" RESERVE(8) "r1 = r6\ncall rd\nr0 = 0\nexit\n" SUB_READ(0), UNSAFE,
	  "Unreleased reference", VC_BOTH_REJECT },
	{ "two levels down, the middle one holding its own, the last one given both",
	  RESERVE(16) ARG(-16) "call f\n" RELEASE(discard) "r0 = 0\nexit\n"
	  "f: r6 = r1\n" RESERVE(8) "r1 = r6\nr2 = r10\nr2 += -16\ncall rd\n" RELEASE(submit)
	  "r0 = 0\nexit\n" SUB_READ(0), UNSUPPORTED, "not known live at every call",
	  VC_REGRESSION },
	{ "two levels down, the middle one holding its own, the last one reads its bytes",
	  RESERVE(16) ARG(-16) "call f\n" RELEASE(discard) "r0 = 0\nexit\n"
	  "f: r6 = r1\n" RESERVE(8) "*(u64 *)(r6 -8) = r10\nr1 = r6\ncall g\n" RELEASE(submit)
	  "r0 = 0\nexit\ng: r2 = *(u64 *)(r1 -8)\nr0 = *(u64 *)(r2 -16)\nr0 = 0\nexit\n",
	  UNSAFE, "cannot spill pointers to stack into stack frame of the caller", VC_BOTH_REJECT },
	{ "three levels down, the caller's record discarded",
	  RESERVE(16) ARG(-16) "call f\nr0 = 0\nexit\nf: call h\nr0 = 0\nexit\n"
	  "h: call rl\nr0 = 0\nexit\n" SUB_RELEASE(discard), SAFE, NULL, VC_BOTH_ACCEPT },
	/* (a) a dynptr in a static subprogram's own frame */
	{ "a subprogram reserves, reads and discards its own ringbuf dynptr",
	  "call f\nr0 = 0\nexit\nf: " RESERVE(16) "r1 = r10\nr1 += -32\nr2 = 8\nr3 = r10\n"
	  "r3 += -16\nr4 = 0\nr5 = 0\ncall bpf_dynptr_read\n" RELEASE(submit) "r0 = 0\nexit\n",
	  SAFE, NULL, VC_BOTH_ACCEPT },
	{ "a subprogram's local dynptr over a map value, sliced",
	  "call f\nr0 = 0\nexit\nf: " LOOKUP FROM_MEM(64) ARG(-24) "r2 = 0\nr3 = 8\n"
	  "call bpf_dynptr_data\nif r0 == 0 goto out\nr0 = *(u64 *)(r0 +0)\nout: r0 = 0\nexit\n",
	  SAFE, NULL, VC_BOTH_ACCEPT },
	{ "a subprogram leaves its ringbuf dynptr unreleased",
	  "call f\nr0 = 0\nexit\nf: " RESERVE(16) "r0 = 0\nexit\n", UNSAFE,
	  "Unreleased reference", VC_BOTH_REJECT },
	{ "a subprogram releases its ringbuf dynptr only when the reserve succeeded",
	  "call f\nr0 = 0\nexit\nf: " RESERVE(16) "if r0 != 0 goto o\n" RELEASE(discard)
	  "o: r0 = 0\nexit\n", UNSAFE,
	  "Unreleased reference", VC_BOTH_REJECT },
	{ "a subprogram gives its own ringbuf dynptr to another one",
	  "call f\nr0 = 0\nexit\nf: " RESERVE(16) ARG(-16) "call rd\n" RELEASE(discard)
	  "r0 = 0\nexit\n" SUB_READ(4), SAFE, NULL, VC_BOTH_ACCEPT },
	{ "a subprogram uses its ringbuf dynptr after discarding it",
	  "call f\nr0 = 0\nexit\nf: " RESERVE(16) RELEASE(discard) ARG(-16) "r2 = 0\nr3 = 8\n"
	  "call bpf_dynptr_data\nr0 = 0\nexit\n", UNSAFE, "Expected an initialized dynptr",
	  VC_BOTH_REJECT },
	{ "main's and a subprogram's ringbuf dynptrs at the same offset",
	  RESERVE(16) "call f\n" RELEASE(submit) "r0 = 0\nexit\nf: " RESERVE(8) RELEASE(discard)
	  "r0 = 0\nexit\n", SAFE, NULL, VC_BOTH_ACCEPT },
};

/* ... by a bpf_find_vma callback (raw tracepoints), its context in r3: find_vma(task, addr, cb,
 * fp - 16, 0) */
#define VMA_CB "call bpf_get_current_task_btf\nr1 = r0\nr2 = *(u64 *)(r6 +8)\n" \
	       "r3 = func cb ll\nr4 = r10\nr4 += -16\nr5 = 0\ncall bpf_find_vma\n"

static const struct verdict_case_row vma_cases[] = {
	{ "a find_vma callback reads the caller's record",
	  "r6 = r1\n" RESERVE(16) VMA_CB RELEASE(submit) "r0 = 0\nexit\n"
	  "cb: r1 = r10\nr1 += -8\nr2 = 8\nr4 = 0\nr5 = 0\ncall bpf_dynptr_read\nr0 = 0\n"
	  "exit\n", SAFE, NULL, VC_BOTH_ACCEPT },
	{ "a find_vma callback swaps the caller's record for a new one",
	  "r6 = r1\n" RESERVE(16) VMA_CB RELEASE(submit) "r0 = 0\nexit\n"
	  "cb: r6 = r3\nr1 = r3\nr2 = 0\ncall bpf_ringbuf_discard_dynptr\nr4 = r6\n"
	  "r1 = map[fd:1] ll\nr2 = 16\nr3 = 0\ncall bpf_ringbuf_reserve_dynptr\nr0 = 0\nexit\n",
	  SAFE, NULL, VC_BOTH_ACCEPT },
	{ "a find_vma callback discards the caller's record",
	  "r6 = r1\n" RESERVE(16) VMA_CB "r0 = 0\nexit\n"
	  "cb: r1 = r3\nr2 = 0\ncall bpf_ringbuf_discard_dynptr\nr0 = 0\nexit\n", UNSAFE,
	  "reference leak", VC_BOTH_REJECT },
};

static const struct {
	const char *name, *fault;
} forged[] = {
	{ "a subprogram reads the caller's dynptr after the caller released it",
	  "not an initialized dynptr" },
	{ "a subprogram reads the caller's dynptr, released before one of two calls",
	  "not an initialized dynptr" },
	{ "a subprogram reads past the slice of the caller's dynptr", "is outside every region" },
	{ "a subprogram leaves its ringbuf dynptr unreleased", "reference leak" },
	{ "a subprogram releases its ringbuf dynptr only when the reserve succeeded",
	  "reference leak" },
	{ "a subprogram uses its ringbuf dynptr after discarding it", "not an initialized dynptr" },
	{ "a subprogram reserves the caller's ringbuf dynptr, the caller leaks it",
	  "reference leak" },
	{ "a subprogram reserves over the caller's live ringbuf dynptr",
	  "cannot overwrite referenced dynptr" },
	{ "a subprogram reserves and writes the caller's dynptr, the caller submits it twice",
	  "not an initialized dynptr" },
	{ "a subprogram discards the caller's ringbuf dynptr, the caller reads it",
	  "not an initialized dynptr" },
	{ "a subprogram submits the caller's local dynptr", "not a ringbuf one" },
	{ "a bpf_loop callback reads the caller's dynptr after the caller discarded it",
	  "not an initialized dynptr" },
	{ "a bpf_loop callback reads past its slice of the caller's dynptr",
	  "is outside every region" },
	{ "two levels down, the caller's record reserved, the caller leaks it", "reference leak" },
	/* (the second call reserves over the first one's record; the other bpf_loop twins fail
	 * on the path where the callback runs no time, which no run of bpf_loop(4, ...) takes) */
	{ "a bpf_loop callback reserves the caller's dynptr and leaves it",
	  "cannot overwrite referenced dynptr" },
	{ "a for_each_map_elem callback reads the caller's record after the caller discarded it",
	  "not an initialized dynptr" },
	{ "two levels down, the caller's record discarded, the caller reads it",
	  "not an initialized dynptr" },
	{ "two levels down, the middle one reads the record the last one discarded",
	  "not an initialized dynptr" },
	{ "two levels down, a read after the caller discarded its record",
	  "not an initialized dynptr" },
	{ "two levels down, the middle one holding its own, the caller's discarded twice",
	  "not an initialized dynptr" },
	{ "two levels down, the middle one leaks its own", "reference leak" },
};

static void test_object(bool kernel)
{
	static const char *const progs[] = {
		"sub_parse", "sub_own_rb", "sub_twice", "sub_after_release", "sub_leak",
		"sub_past", "sub_make_rb", "sub_close", "sub_make_local", "sub_make_leak",
		"sub_close_twice", "cb_read", "cb_after_release", "glob_read", "glob_slice_local",
		"glob_after_release", "glob_past", "deep_read", "deep_close", "deep_make",
		"deep_make_leak", "deep_close_twice", "cb_swap", "cb_close", "part_open",
		"part_open_bad", "part_close", "part_close_bad", "mid_own", "mid_own_leak",
	};
	static const enum scev_verdict_kind want[] = {
		SAFE, SAFE, SAFE, UNSAFE, UNSAFE, UNSAFE, SAFE, SAFE, SAFE, UNSAFE, UNSAFE, SAFE,
		UNSAFE, SAFE, SAFE, UNSAFE, UNSAFE, SAFE, SAFE, SAFE, UNSAFE, UNSAFE, SAFE, UNSAFE,
		SAFE, UNSUPPORTED, SAFE, UNSUPPORTED, SAFE, UNSAFE,
	};
	static const char *const reasons[] = {
		NULL, NULL, NULL, "Expected an initialized dynptr", "Unreleased reference",
		"mem_size=", NULL, NULL, NULL, "reference leak", "Expected an initialized dynptr",
		NULL, "Expected an initialized dynptr", NULL, NULL, "Expected an initialized dynptr",
		"mem_size=8", NULL, NULL, NULL, "reference leak", "Expected an initialized dynptr",
		NULL, "reference leak", NULL, "caller's frame", NULL, "caller's frame", NULL,
		"Unreleased reference",
	};
	char path[1024];

	if (!verdict_case_bpf_part("dynptr_sub.o", path, sizeof(path)))
		return;
	verdict_case_object_why(path, progs, want, reasons, sizeof(progs) / sizeof(progs[0]),
				kernel);
}

int main(void)
{
	bool kernel = verdict_case_kernel("the kernel's verdicts");

	test_object(kernel);
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct verdict_opts vo = { .sz = sizeof(vo), .kernel = kernel,
					   .prog_type = BPF_PROG_TYPE_XDP };

		verdict_case_run(cases[k].name, cases[k].text, maps, sizeof(maps) / sizeof(maps[0]),
				 &vo, (uint8_t)cases[k].want, cases[k].reason, cases[k].kclass);
	}
	for (size_t k = 0; k < sizeof(vma_cases) / sizeof(vma_cases[0]); k++) {
		struct verdict_opts vo = { .sz = sizeof(vo), .kernel = kernel,
					   .prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT };

		verdict_case_run(vma_cases[k].name, vma_cases[k].text, maps,
				 sizeof(maps) / sizeof(maps[0]), &vo, (uint8_t)vma_cases[k].want,
				 vma_cases[k].reason, vma_cases[k].kclass);
	}
	for (size_t u = 0; u < sizeof(forged) / sizeof(forged[0]); u++)
		for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
			if (!strcmp(cases[k].name, forged[u].name))
				verdict_case_forged_faults(cases[k].name, cases[k].text, maps,
							   sizeof(maps) / sizeof(maps[0]),
							   forged[u].fault);
	return check_done("test_dynptr_sub");
}
