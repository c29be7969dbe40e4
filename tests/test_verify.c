/* The one-pass verdict: hand-written programs with their expected verdicts (loops bounded and
 * not, accesses in and out of bounds for every region, unwritten registers and stack bytes,
 * unmodeled helpers, recursion, call depth and combined stack), which the kernel confirms for
 * the call graph; forged safe verdicts the execution oracle must catch; generated programs
 * called safe must run without a fault; and with the kernel, a loop past the 1M-instruction
 * limit is an improvement. */
#include <string.h>

#include "bpf/asm.h"
#include "casefile/casefile.h"
#include "generators/gen.h"
#include "oracle/kernel/kernel.h"
#include "triage/verdict.h"
#include "tests/check.h"

#define XDP_PROLOGUE                                                                              \
	"r2 = *(u32 *)(r1 +0)\nr3 = *(u32 *)(r1 +4)\nr4 = r2\nr4 += 64\nif r4 > r3 goto out\n"
#define XDP_EPILOGUE "exit\nout: r0 = 0\nexit\n"

static const struct {
	const char *name, *text;
	uint32_t type;
	enum scev_verdict_kind want;
	const char *reason;	/* substring of the reason */
	bool unprivileged;	/* verdict_opts.unprivileged (the default: the privileged rule) */
} cases[] = {
	{ "bounded packet loop", XDP_PROLOGUE "r0 = 0\nr1 = 0\nl: r5 = r2\nr6 = r1\nr6 &= 63\n"
	  "r5 += r6\nr7 = *(u8 *)(r5 +0)\nr0 += r7\nr1 += 1\nif r1 < 1000000 goto l\n" XDP_EPILOGUE,
	  BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	{ "index past the checked packet", XDP_PROLOGUE "r0 = 0\nr1 = 0\nl: r5 = r2\nr6 = r1\n"
	  "r6 &= 127\nr5 += r6\nr7 = *(u8 *)(r5 +0)\nr0 += r7\nr1 += 1\nif r1 < 100 goto l\n"
	  XDP_EPILOGUE, BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "packet access" },
	{ "loop with no bound", XDP_PROLOGUE "r0 = 0\nr1 = 1\nl: r1 += 2\nif r1 != 100 goto l\n"
	  XDP_EPILOGUE, BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "may not terminate" },
	{ "stack array indexed by an IV", "r1 = 0\nl: r2 = r10\nr3 = r1\nr3 <<= 3\nr2 += r3\n"
	  "*(u64 *)(r2 -64) = r1\nr1 += 1\nif r1 < 8 goto l\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	{ "stack array one past the end", "r1 = 0\nl: r2 = r10\nr3 = r1\nr3 <<= 3\nr2 += r3\n"
	  "*(u64 *)(r2 -64) = r1\nr1 += 1\nif r1 < 9 goto l\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "stack access" },
	/* the kernel refuses the addition itself (check_reg_sane_offset), before the access
	 * (whose bounds, 128-bit, printed INT64_MIN - 8 as INT64_MIN before that rule) */
	{ "stack pointer plus any 64-bit number", "call bpf_ktime_get_ns\nr1 = r10\nr1 += r0\n"
	  "*(u8 *)(r1 -8) = 0\nr0 = 0\nexit\n", BPF_PROG_TYPE_XDP, VERDICT_UNSAFE,
	  "math between fp pointer and register with unbounded min value is not allowed" },
	{ "unwritten register", "r0 = r2\nexit\n", BPF_PROG_TYPE_XDP, VERDICT_UNSAFE,
	  "R2 may be read" },
	{ "register written on one path only", "r2 = *(u32 *)(r1 +16)\nif r2 == 0 goto l\nr3 = 1\n"
	  "l: r0 = r3\nexit\n", BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "R3 may be read" },
	{ "unwritten stack read", "r0 = *(u64 *)(r10 -8)\nexit\n", BPF_PROG_TYPE_XDP,
	  VERDICT_UNSAFE, "stack bytes", true },
	{ "unwritten stack read, privileged", "r0 = *(u64 *)(r10 -8)\nexit\n", BPF_PROG_TYPE_XDP,
	  VERDICT_SAFE, NULL },
	{ "r1-r5 dead after a call", "call bpf_get_prandom_u32\nr0 = r1\nexit\n",
	  BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "R1 may be read" },
	{ "r2 filled again after a call in a loop", "r2 = 0\nl: if w2 == 0x492 goto o\n"
	  "*(u64 *)(r10 -40) = r2\ncall bpf_get_prandom_u32\nr2 = *(u64 *)(r10 -40)\n"
	  "r2 += 117\ngoto l\no: r0 = 0\nexit\n", BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	{ "r2 filled again on one path only", "r2 = 0\nl: if w2 == 0x492 goto o\n"
	  "*(u64 *)(r10 -40) = r2\ncall bpf_get_prandom_u32\nif r0 > 5 goto s\n"
	  "r2 = *(u64 *)(r10 -40)\nr2 += 117\ngoto l\ns: r0 = 0\ngoto l\no: r0 = 0\nexit\n",
	  BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "R2 may be read" },
	{ "packet pointer spilled across a loop that forgets another cell", XDP_PROLOGUE
	  "*(u64 *)(r10 -8) = r2\nw9 = 20\nl: r0 = *(u64 *)(r10 -8)\nr0 = *(u16 *)(r0 +26)\n"
	  "*(u64 *)(r10 -48) = r2\nw9 += -1\nif w9 s> 0 goto l\n" XDP_EPILOGUE,
	  BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	{ "a narrow cell written in a loop keeps the other spills", XDP_PROLOGUE
	  "*(u64 *)(r10 -8) = r2\nr9 = -99\nl: r0 = *(u64 *)(r10 -8)\nr0 = *(u32 *)(r0 +0)\n"
	  "*(u32 *)(r10 -56) = r0\nr9 += 1\nif r9 s< -80 goto l\n" XDP_EPILOGUE,
	  BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	{ "an IV-indexed stack write keeps the spills it cannot reach", XDP_PROLOGUE
	  "*(u64 *)(r10 -8) = r2\nr9 = 0\nl: r3 = r9\nr3 &= 7\nr3 <<= 3\nr4 = r10\nr4 += r3\n"
	  "*(u64 *)(r4 -320) = r9\nr0 = *(u64 *)(r10 -8)\nr0 = *(u16 *)(r0 +26)\nr9 += 1\n"
	  "if r9 < 20 goto l\n" XDP_EPILOGUE, BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	{ "an IV-indexed stack write that may reach the spill", XDP_PROLOGUE
	  "*(u64 *)(r10 -8) = r2\nr9 = 0\nl: r3 = r9\nr3 &= 63\nr3 <<= 3\nr4 = r10\nr4 += r3\n"
	  "*(u64 *)(r4 -512) = r9\nr0 = *(u64 *)(r10 -8)\nr0 = *(u16 *)(r0 +26)\nr9 += 1\n"
	  "if r9 < 64 goto l\n" XDP_EPILOGUE, BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "pointer" },
	/* (the counter stays below 20, so the writes stay below fp-352: the first pass's widening
	 * stops at the exit test's bound) */
	{ "an IV-indexed stack write that stops short of the spill", XDP_PROLOGUE
	  "*(u64 *)(r10 -8) = r2\nr9 = 0\nl: r3 = r9\nr3 &= 63\nr3 <<= 3\nr4 = r10\nr4 += r3\n"
	  "*(u64 *)(r4 -512) = r9\nr0 = *(u64 *)(r10 -8)\nr0 = *(u16 *)(r0 +26)\nr9 += 1\n"
	  "if r9 < 20 goto l\n" XDP_EPILOGUE, BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	{ "a register the loop forgets stays a scalar for a call's argument", XDP_PROLOGUE
	  "*(u64 *)(r10 -8) = r2\nr9 = 1\nr6 = 0\nl: r1 = r9\ncall f\nr0 = *(u64 *)(r10 -8)\n"
	  "r0 = *(u16 *)(r0 +14)\nr9 *= 3\nr9 += r0\nr6 += 1\nif r6 < 20 goto l\nr0 = 0\n"
	  "exit\nout: r0 = 0\nexit\nf: r0 = r1\nr0 &= 7\nexit\n", BPF_PROG_TYPE_XDP,
	  VERDICT_SAFE, NULL },
	{ "a counter stepped by 1 or 3 on different paths", XDP_PROLOGUE
	  "r6 = 0\nl: if r6 > 25 goto o\nr0 = r6\nr0 &= 63\nr5 = r2\nr5 += r0\n"
	  "r0 = *(u8 *)(r5 +0)\nif r0 == 0 goto t\nr6 += 1\ngoto l\nt: r6 += 3\ngoto l\n"
	  "o: r0 = 0\n" XDP_EPILOGUE, BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	{ "a counter stepped by 1 or -1 on different paths", XDP_PROLOGUE
	  "r6 = 0\nl: if r6 > 25 goto o\nr0 = r6\nr0 &= 63\nr5 = r2\nr5 += r0\n"
	  "r0 = *(u8 *)(r5 +0)\nif r0 == 0 goto t\nr6 += 1\ngoto l\nt: r6 += -1\ngoto l\n"
	  "o: r0 = 0\n" XDP_EPILOGUE, BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "terminate" },
	{ "a two-entry cycle with a counter", XDP_PROLOGUE
	  "r6 = 9\nr0 = *(u8 *)(r2 +0)\nif r0 > 0x38 goto m\nt: r7 = r6\nr7 &= 63\nr5 = r2\n"
	  "r5 += r7\nr0 = *(u8 *)(r5 +0)\nm: r6 += -1\nif r6 >= 1 goto t\nr0 = 0\n"
	  XDP_EPILOGUE, BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	{ "a two-entry cycle whose side entry reads past the packet", XDP_PROLOGUE
	  "r6 = 9\nr0 = *(u8 *)(r2 +0)\nif r0 > 0x38 goto m\nt: r6 += -1\nif r6 < 1 goto o\n"
	  "m: r5 = r2\nr5 += r6\nr0 = *(u8 *)(r5 +56)\ngoto t\no: r0 = 0\n" XDP_EPILOGUE,
	  BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "packet" },
	{ "a two-entry cycle without a bound", XDP_PROLOGUE
	  "r6 = 9\nr0 = *(u8 *)(r2 +0)\nif r0 > 0x38 goto m\nt: r6 += 1\n"
	  "m: r6 &= 7\nif r6 != 8 goto t\nr0 = 0\n" XDP_EPILOGUE, BPF_PROG_TYPE_XDP,
	  VERDICT_UNSAFE, "terminate" },
	{ "xdp_md write", "r2 = 0\n*(u32 *)(r1 +0) = r2\nr0 = 0\nexit\n", BPF_PROG_TYPE_XDP,
	  VERDICT_UNSAFE, "xdp_md" },
	{ "skb mark write", "r2 = 7\n*(u32 *)(r1 +8) = r2\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_SCHED_CLS, VERDICT_SAFE, NULL },
	{ "skb len write", "r2 = 7\n*(u32 *)(r1 +0) = r2\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_SCHED_CLS, VERDICT_UNSAFE, "__sk_buff" },
	{ "map value within bounds",
	  "r1 = map[fd:0] ll\nr2 = r10\nr2 += -4\n*(u32 *)(r10 -4) = 0\ncall bpf_map_lookup_elem\n"
	  "if r0 == 0 goto out\nr1 = 0\nl: r3 = r1\nr3 &= 7\nr3 <<= 3\nr4 = r0\nr4 += r3\n"
	  "r5 = *(u64 *)(r4 +0)\nr1 += 1\nif r1 < 100 goto l\nout: r0 = 0\nexit\n",
	  BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	/* (a key from the context: an array lookup with a key known in range needs no check) */
	{ "map value without the null check",
	  "r3 = *(u32 *)(r1 +12)\nr1 = map[fd:0] ll\nr2 = r10\nr2 += -4\n*(u32 *)(r10 -4) = r3\n"
	  "call bpf_map_lookup_elem\nr5 = *(u64 *)(r0 +0)\nr0 = 0\nexit\n", BPF_PROG_TYPE_XDP,
	  VERDICT_UNSAFE, "NULL" },
	{ "map value of an array key known in range, without the null check",
	  "r1 = map[fd:0] ll\nr2 = r10\nr2 += -4\n*(u32 *)(r10 -4) = 0\ncall bpf_map_lookup_elem\n"
	  "r5 = *(u64 *)(r0 +0)\nr0 = 0\nexit\n", BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	{ "map value past its size",
	  "r1 = map[fd:0] ll\nr2 = r10\nr2 += -4\n*(u32 *)(r10 -4) = 0\ncall bpf_map_lookup_elem\n"
	  "if r0 == 0 goto out\nr5 = *(u64 *)(r0 +64)\nout: r0 = 0\nexit\n", BPF_PROG_TYPE_XDP,
	  VERDICT_UNSAFE, "map value" },
	{ "map key not written",
	  "r1 = map[fd:0] ll\nr2 = r10\nr2 += -4\ncall bpf_map_lookup_elem\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "stack bytes", true },
	{ "map key not written, privileged",
	  "r1 = map[fd:0] ll\nr2 = r10\nr2 += -4\ncall bpf_map_lookup_elem\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	{ "unmodeled helper", "r1 = 0\ncall bpf_kptr_xchg\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_CGROUP_SKB, VERDICT_UNSUPPORTED, "not modeled" },
	{ "plain context", "r0 = *(u32 *)(r1 +0)\nexit\n", BPF_PROG_TYPE_UNSPEC,
	  VERDICT_UNSUPPORTED, "context" },
	/* The call graph: the kernel's limits, whatever happens at run time. */
	{ "a subprogram that calls itself", "r1 = 0\ncall f\nexit\nf: r1 += 1\ncall f\nr0 = 0\n"
	  "exit\n", BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "recursive call at insn 4: func@3 -> func@3" },
	{ "two subprograms that call each other", "call f\nexit\nf: call g\nr0 = 0\nexit\n"
	  "g: call f\nr0 = 0\nexit\n", BPF_PROG_TYPE_XDP, VERDICT_UNSAFE,
	  "func@2 -> func@5 -> func@2" },
	{ "main calls a subprogram whose callee recurses",
	  "call a\nr0 = 0\nexit\na: call b\nexit\nb: r0 = 1\ncall b\nexit\n",
	  BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "recursive call at insn 6: func@5 -> func@5" },
	{ "recursion that stops after 5 frames", "r1 = 0\ncall f\nr0 = 0\nexit\n"
	  "f: if r1 > 4 goto d\nr1 += 1\ncall f\nd: r0 = 0\nexit\n", BPF_PROG_TYPE_XDP,
	  VERDICT_UNSAFE, "recursive" },
	{ "a chain of 8 frames", "call f1\nexit\nf1: call f2\nexit\nf2: call f3\nexit\n"
	  "f3: call f4\nexit\nf4: call f5\nexit\nf5: call f6\nexit\nf6: call f7\nexit\n"
	  "f7: r0 = 0\nexit\n", BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	{ "a chain of 9 frames", "call f1\nexit\nf1: call f2\nexit\nf2: call f3\nexit\n"
	  "f3: call f4\nexit\nf4: call f5\nexit\nf5: call f6\nexit\nf6: call f7\nexit\n"
	  "f7: call f8\nexit\nf8: r0 = 0\nexit\n", BPF_PROG_TYPE_XDP, VERDICT_UNSAFE,
	  "call stack of 9 frames is too deep" },
	{ "two frames of 256 bytes", "*(u8 *)(r10 -256) = 0\ncall f\nr0 = 0\nexit\n"
	  "f: *(u8 *)(r10 -256) = 0\nr0 = 0\nexit\n", BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	{ "256 and 257 bytes of stack", "*(u8 *)(r10 -256) = 0\ncall f\nr0 = 0\nexit\n"
	  "f: *(u8 *)(r10 -257) = 0\nr0 = 0\nexit\n", BPF_PROG_TYPE_XDP, VERDICT_UNSAFE,
	  "combined stack size of 2 calls is 528" },
	{ "three frames of 200, 200 and 100 bytes (rounded to 16: 528)",
	  "*(u8 *)(r10 -200) = 0\ncall f\nr0 = 0\nexit\nf: *(u8 *)(r10 -200) = 0\ncall g\n"
	  "r0 = 0\nexit\ng: *(u8 *)(r10 -100) = 0\nr0 = 0\nexit\n", BPF_PROG_TYPE_XDP,
	  VERDICT_UNSAFE, "combined stack size of 3 calls is 528" },
	{ "the deepest frame is in the callee's loop",
	  "*(u8 *)(r10 -300) = 0\ncall f\nr0 = 0\nexit\nf: r1 = 0\nl: r2 = r10\nr3 = r1\n"
	  "r3 <<= 3\nr2 += r3\n*(u64 *)(r2 -256) = r1\nr1 += 1\nif r1 < 8 goto l\nr0 = 0\n"
	  "exit\n", BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "combined stack size of 2 calls is 560" },
	{ "a jump from main into a subprogram", "r1 = 0\ncall f\nif r0 == 0 goto g\nr0 = 0\n"
	  "exit\nf: r0 = 1\ng: r0 = 2\nexit\n", BPF_PROG_TYPE_XDP, VERDICT_UNSAFE,
	  "jump to 6 crosses into the function at 5" },
	{ "main falls through into a subprogram", "call f\nr0 = 0\nf: r0 = 1\nexit\n",
	  BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "falls through into the function at 2" },
	{ "a loop calling a subprogram with a loop", "r6 = 0\nl: r1 = r6\ncall f\nr6 += 1\n"
	  "if r6 < 100 goto l\nr0 = 0\nexit\nf: r0 = 0\nr2 = 0\nm: r0 += r1\nr2 += 1\n"
	  "if r2 < 7 goto m\nexit\n", BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	/* bpf_fastcall (scev/fastcall.c): the spill and fill of r1 around an inlined
	 * bpf_get_smp_processor_id are removed with their stack (verifier_bpf_fastcall.c's
	 * cumulative_stack_depth: 512 + 0), in tc; not in a socket filter (the raw, not inlined,
	 * helper), not around another helper, not when the fill is a jump target, not when
	 * anything else touches the stack below the pattern (a store, a helper's read), not
	 * with two patterns in the function (this kernel's rule for them is not 6.12's) */
#define FC_MAIN "r1 = 42\n*(u64 *)(r10 -512) = r1\ncall f\nr0 = 0\nexit\n"
#define FC_PAT "*(u64 *)(r10 -8) = r1\ncall bpf_get_smp_processor_id\nr1 = *(u64 *)(r10 -8)\n"
	{ "bpf_fastcall: a callee's pattern", FC_MAIN "f: " FC_PAT "r0 = 0\nexit\n",
	  BPF_PROG_TYPE_SCHED_CLS, VERDICT_SAFE, NULL },
	{ "bpf_fastcall: a callee's pattern in a socket filter", FC_MAIN "f: " FC_PAT
	  "r0 = 0\nexit\n", BPF_PROG_TYPE_SOCKET_FILTER, VERDICT_UNSAFE,
	  "combined stack size of 2 calls is 528" },
	{ "bpf_fastcall: around bpf_ktime_get_ns", FC_MAIN "f: *(u64 *)(r10 -8) = r1\n"
	  "call bpf_ktime_get_ns\nr1 = *(u64 *)(r10 -8)\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_SCHED_CLS, VERDICT_UNSAFE, "combined stack size of 2 calls is 528" },
	{ "bpf_fastcall: the call a jump target", FC_MAIN "f: r2 = r1\nif r2 > 7 goto l\n"
	  "*(u64 *)(r10 -8) = r1\nl: call bpf_get_smp_processor_id\nr1 = *(u64 *)(r10 -8)\n"
	  "r0 = 0\nexit\n", BPF_PROG_TYPE_SCHED_CLS, VERDICT_UNSAFE,
	  "combined stack size of 2 calls is 528" },
	{ "bpf_fastcall: a store below the pattern", FC_MAIN "f: " FC_PAT
	  "r2 = 1\n*(u32 *)(r10 -16) = r2\nr0 = 0\nexit\n", BPF_PROG_TYPE_SCHED_CLS,
	  VERDICT_UNSAFE, "combined stack size of 2 calls is 528" },
	{ "bpf_fastcall: a helper reads the pattern's slot", FC_MAIN "f: " FC_PAT
	  "r1 = r10\nr1 += -8\nr2 = 8\nr3 = 0\ncall bpf_probe_read_kernel\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_SCHED_CLS, VERDICT_UNSAFE, "combined stack size of 2 calls is 528" },
	{ "bpf_fastcall: two pairs and a slot above them",
	  "r1 = 42\n*(u64 *)(r10 -496) = r1\ncall f\nr0 = 0\nexit\nf: r3 = 3\n"
	  "*(u64 *)(r10 -8) = r3\nr2 = 2\n*(u64 *)(r10 -16) = r2\n*(u64 *)(r10 -24) = r1\n"
	  "call bpf_get_smp_processor_id\nr1 = *(u64 *)(r10 -24)\nr2 = *(u64 *)(r10 -16)\n"
	  "r0 = *(u64 *)(r10 -8)\nexit\n", BPF_PROG_TYPE_SCHED_CLS, VERDICT_SAFE, NULL },
	{ "bpf_fastcall: two pairs and 4 bytes inside their top slot",
	  "r1 = 42\n*(u64 *)(r10 -496) = r1\ncall f\nr0 = 0\nexit\nf: r3 = 3\n"
	  "*(u32 *)(r10 -12) = r3\nr2 = 2\n*(u64 *)(r10 -16) = r2\n*(u64 *)(r10 -24) = r1\n"
	  "call bpf_get_smp_processor_id\nr1 = *(u64 *)(r10 -24)\nr2 = *(u64 *)(r10 -16)\n"
	  "r0 = 0\nexit\n", BPF_PROG_TYPE_SCHED_CLS, VERDICT_UNSAFE,
	  "combined stack size of 2 calls is 528" },
	{ "bpf_fastcall: two patterns", FC_MAIN "f: *(u64 *)(r10 -16) = r1\n"
	  "call bpf_get_smp_processor_id\nr1 = *(u64 *)(r10 -16)\n*(u64 *)(r10 -16) = r1\n"
	  "call bpf_get_smp_processor_id\nr1 = *(u64 *)(r10 -16)\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_SCHED_CLS, VERDICT_UNSAFE, "combined stack size of 2 calls is 528" },
#undef FC_PAT
#undef FC_MAIN
};

static struct ebpf_map_def array_map = { .name = "arr", .type = BPF_MAP_TYPE_ARRAY,
					 .key_size = 4, .value_size = 64, .max_entries = 4 };

static void test_cases(void)
{
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct ebpf_object *obj = NULL;
		struct verdict_opts vo = { .sz = sizeof(vo), .prog_type = cases[k].type,
					   .unprivileged = cases[k].unprivileged };
		struct verdict_report r;
		struct diag d;

		diag_clear(&d);
		if (ebpf_object__open_mem(&obj, cases[k].text, strlen(cases[k].text), cases[k].name,
					  &d)) {
			CHECK(0, "%s: %s (line %d)", cases[k].name, d.msg, d.line);
			continue;
		}
		obj->maps = &array_map;
		obj->map_cnt = 1;
		CHECK(verdict_compare(&r, obj, &obj->progs[0], &vo, &d) == 0, "%s: %s", cases[k].name,
		      d.msg);
		CHECK(r.ours.kind == cases[k].want, "%s: verdict %s (%s), expected %s", cases[k].name,
		      scev_verdict_name(r.ours.kind), r.ours.reason, scev_verdict_name(cases[k].want));
		if (cases[k].reason)
			CHECK(strstr(r.ours.reason, cases[k].reason), "%s: reason '%s' lacks '%s'",
			      cases[k].name, r.ours.reason, cases[k].reason);
		CHECK(r.faults == 0, "%s: called safe but faults: %s", cases[k].name, r.fault);
		verdict_report__free(&r);
		obj->maps = NULL;
		obj->map_cnt = 0;
		ebpf_object__free(obj);
	}
}

/* The kernel, an independent judge, agrees with every call-graph verdict above: it accepts
 * the safe ones and refuses the others (for the same kind of reason). */
static void test_call_cases_against_kernel(void)
{
	char why[256];

	if (!kernel_available(why, sizeof(why))) {
		printf("SKIP: call-graph cases against the kernel: %s\n", why);
		return;
	}
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct ebpf_object *obj = NULL;
		struct verdict_opts vo = { .sz = sizeof(vo), .prog_type = cases[k].type,
					   .kernel = true };
		struct verdict_report r;
		struct diag d;

		if (!strstr(cases[k].text, "call f") && !strstr(cases[k].text, "call a"))
			continue;
		diag_clear(&d);
		if (ebpf_object__open_mem(&obj, cases[k].text, strlen(cases[k].text), cases[k].name,
					  &d)) {
			CHECK(0, "%s: %s", cases[k].name, d.msg);
			continue;
		}
		CHECK(verdict_compare(&r, obj, &obj->progs[0], &vo, &d) == 0, "%s: %s",
		      cases[k].name, d.msg);
		CHECK(r.cls == VC_BOTH_ACCEPT || r.cls == VC_BOTH_REJECT,
		      "%s: %s (ours: %s; kernel: %s)", cases[k].name, verdict_class_name(r.cls),
		      r.ours.reason, r.kernel_message);
		if (strstr(r.ours.reason, "frames") || strstr(r.ours.reason, "recursive"))
			CHECK(strstr(r.kernel_message, "call stack of"), "%s: kernel says '%s'",
			      cases[k].name, r.kernel_message);
		if (strstr(r.ours.reason, "combined stack"))
			CHECK(strstr(r.kernel_message, "combined stack size"), "%s: kernel says '%s'",
			      cases[k].name, r.kernel_message);
		verdict_report__free(&r);
		ebpf_object__free(obj);
	}
}

/* The execution oracle catches a safe verdict the analyzer would never give: recursion (the
 * interpreter's 8-frame limit), a combined stack over 512 bytes, a run longer than the bound, a
 * run that does not end when the verdict's ending rests on nothing (an analyzer that skipped a
 * loop's termination: 3a5d367's irreducible loop entered only at its side entry).  A loop
 * whose bound passes the budget, or whose ending the verdict puts on may_goto with no bound
 * stated at the oracle's may_goto budget, is not held to the budget (a legitimately long
 * loop); one with that bound is, on runs that take that budget. */
#define ENDLESS "r1 = 0\nl: r1 |= 0\nif r1 < 100 goto l\nr0 = 0\nexit\n"
#define HUNDRED "r1 = 0\nl: r1 += 1\nif r1 < 100 goto l\nr0 = 0\nexit\n"
/* may_goto ends it: 2 + 3 a pass, 27 at a budget of 8 */
#define MAY_GOTO "r0 = 0\nl: may_goto out\nr0 += 1\ngoto l\nout: exit\n"
/* bpf_loop(1000, cb), cb at pc 8: 2 instructions a call */
#define LOOP1000 "r1 = 1000\nr2 = func cb ll\nr3 = 0\nr4 = 0\ncall bpf_loop\nr0 = 0\nexit\n" \
		 "cb: r0 = 0\nexit\n"
/* f at pc 2: a loop only may_goto ends, 3b + 3 instructions a call at a budget of b */
#define MGF "call f\nexit\nf: r0 = 0\nl: may_goto out\nr0 += 1\ngoto l\nout: exit\n"
static void test_forged_verdicts(void)
{
	static const struct {
		const char *name, *text, *fault;
		uint64_t max_insns;
		uint8_t ends;
		uint64_t budget;
		uint64_t mg_insns;	/* the bound at the oracle's may_goto budget */
		struct scev_call_bound call;	/* a per-call bound (start 0: none) */
		uint64_t mg_more[SCEV_MG_MORE];	/* the bounds at may_goto budgets 0, 1, 64, 2^23 */
		unsigned faults;		/* runs that fault (0: all four) */
	} forged[] = {
		{ "an endless loop, ending on nothing", ENDLESS, "its ending rests on nothing",
		  UINT64_MAX, SCEV_ENDS_NONE, 10000 },
		{ "an endless side-entry-only loop, ending on nothing",
		  "r9 = -52\nr5 = -47\nif r5 s> -51 goto side\nbody: r0 = 1\nside: r5 |= 0\n"
		  "if r5 > r9 goto body\nr0 = 0\nexit\n", "its ending rests on nothing", UINT64_MAX,
		  SCEV_ENDS_NONE, 100000 },
		{ "an endless loop, ending by may_goto", ENDLESS, NULL, UINT64_MAX, SCEV_ENDS_MAY_GOTO,
		  10000 },
		/* ... held to the bound it states at the oracle's may_goto budget, which the runs
		 * take (at the kernel's 2^23 the may_goto loop would pass 27 too) */
		{ "an endless loop, ending by may_goto, bounded at its budget", ENDLESS,
		  "with a may_goto budget of 8 a frame", UINT64_MAX, SCEV_ENDS_MAY_GOTO, 10000, 1000 },
		{ "a may_goto loop within its bound at that budget", MAY_GOTO, NULL, UINT64_MAX,
		  SCEV_ENDS_MAY_GOTO, 10000, 27 },
		{ "a may_goto loop past its bound at that budget", MAY_GOTO, "ran past 26 instructions",
		  UINT64_MAX, SCEV_ENDS_MAY_GOTO, 10000, 26 },
		/* ... and at the other budgets it states: the four runs take 8, 0, 1 and 64 (3b + 3
		 * instructions at a budget of b); one past the bound at one budget faults there */
		{ "a may_goto loop within its bounds at four budgets", MAY_GOTO, NULL, UINT64_MAX,
		  SCEV_ENDS_MAY_GOTO, 10000, 27, { 0 }, { 3, 6, 195, 0 } },
		{ "a may_goto loop past its bound at a budget of 0", MAY_GOTO,
		  "ran past 2 instructions, the most the loops' trip counts allow with a may_goto "
		  "budget of 0 a frame", UINT64_MAX, SCEV_ENDS_MAY_GOTO, 10000, 27, { 0 },
		  { 2, 6, 195, 0 }, 1 },
		{ "a may_goto loop past its bound at a budget of 64", MAY_GOTO,
		  "ran past 194 instructions, the most the loops' trip counts allow with a may_goto "
		  "budget of 64 a frame", UINT64_MAX, SCEV_ENDS_MAY_GOTO, 10000, 27, { 0 },
		  { 3, 6, 194, 0 }, 1 },
		/* (a bound past the runs' budget is not run to) */
		{ "a may_goto loop bounded past the budget at 64", MAY_GOTO, NULL, UINT64_MAX,
		  SCEV_ENDS_MAY_GOTO, 100, 27, { 0 }, { 3, 6, 194, 0 } },
		{ "a loop ending on nothing within the budget", HUNDRED, NULL, UINT64_MAX,
		  SCEV_ENDS_NONE, 10000 },
		{ "a loop bounded past the budget", HUNDRED, NULL, 203, SCEV_ENDS_BOUND, 50 },
		{ "a loop bounded past 2^64", HUNDRED, NULL, UINT64_MAX, SCEV_ENDS_BOUND, 50 },
		{ "a loop longer than its bound, under the budget", HUNDRED,
		  "ran past 150 instructions", 150, SCEV_ENDS_BOUND, 10000 },
		{ "recursion", "call f\nexit\nf: call f\nr0 = 0\nexit\n", "deeper than 8 frames",
		  UINT64_MAX },
		{ "528 bytes of stack", "*(u8 *)(r10 -256) = 0\ncall f\nr0 = 0\nexit\n"
		  "f: *(u8 *)(r10 -257) = 0\nr0 = 0\nexit\n", "more than the kernel's 512",
		  UINT64_MAX },
		{ "a loop longer than its bound", "r1 = 0\nl: r1 += 1\nif r1 < 100 goto l\nr0 = 0\n"
		  "exit\n", "ran past 150 instructions", 150 },
		{ "a loop within its bound", "r1 = 0\nl: r1 += 1\nif r1 < 100 goto l\nr0 = 0\n"
		  "exit\n", NULL, 203 },
		/* bpf_loop(1000, cb): 2,006 instructions, past a budget of 500, but each call of
		 * cb (2 instructions) and the calls of it so far are held to their per-call
		 * bounds */
		{ "bpf_loop past the budget, within its per-call bounds", LOOP1000, NULL, 2006,
		  SCEV_ENDS_BOUND, 500, 0, { 8, 1000, 2 } },
		{ "bpf_loop past the budget, a callback call past its bound", LOOP1000,
		  "one call of func@8 ran past 1 instructions", 2006, SCEV_ENDS_BOUND, 500, 0,
		  { 8, 1000, 1 } },
		{ "bpf_loop past the budget, more callback calls than its bound", LOOP1000,
		  "called func@8 101 times, more than its callback loop's trip count allows (100)",
		  2006, SCEV_ENDS_BOUND, 500, 0, { 8, 100, 2 } },
		/* a subprogram's call (3 instructions) held to its bound, and the callback's
		 * bound below its caller's */
		{ "a subprogram call past its bound", "call f\nexit\nf: r0 = 0\nr0 += 1\nexit\n",
		  "one call of func@2 ran past 2 instructions", UINT64_MAX, SCEV_ENDS_CALLS, 500, 0,
		  { 2, UINT32_MAX, 2 } },
		{ "a subprogram call within its bound", "call f\nexit\nf: r0 = 0\nr0 += 1\nexit\n",
		  NULL, UINT64_MAX, SCEV_ENDS_CALLS, 500, 0, { 2, UINT32_MAX, 3 } },
		/* a function with a may_goto loop (3b + 3 instructions a call at a budget of b),
		 * its bound stated at the oracle's budget of 8: held on runs at 8 (no whole bound
		 * stated: every run takes 8) ... */
		{ "a may_goto function past its bound at budget 8", MGF,
		  "one call of func@2 ran past 26 instructions", UINT64_MAX, SCEV_ENDS_MAY_GOTO,
		  10000, 0, { 2, UINT32_MAX, 26, true } },
		{ "a may_goto function within its bound at budget 8", MGF, NULL, UINT64_MAX,
		  SCEV_ENDS_MAY_GOTO, 10000, 0, { 2, UINT32_MAX, 27, true } },
		/* ... and on the runs at 0 and 1, not on the one at 64 (195 instructions, within
		 * the whole bound at 64): the four runs take 8, 0, 1, 64 */
		{ "a may_goto function bounded at 8, runs at 8, 0, 1 and 64", MGF, NULL, UINT64_MAX,
		  SCEV_ENDS_MAY_GOTO, 10000, 31, { 2, UINT32_MAX, 27, true }, { 7, 10, 199, 0 } },
		{ "a may_goto function past its bound at 8, runs at 8, 0, 1 and 64", MGF,
		  "one call of func@2 ran past 26 instructions", UINT64_MAX, SCEV_ENDS_MAY_GOTO,
		  10000, 31, { 2, UINT32_MAX, 26, true }, { 7, 10, 199, 0 }, 1 },
	};

	for (size_t k = 0; k < sizeof(forged) / sizeof(forged[0]); k++) {
		struct ebpf_object *obj = NULL;
		struct verdict_opts vo = { .sz = sizeof(vo), .prog_type = BPF_PROG_TYPE_XDP,
					   .runs = 4, .step_budget = forged[k].budget };
		struct verdict_report r;
		struct diag d;

		diag_clear(&d);
		if (ebpf_object__open_mem(&obj, forged[k].text, strlen(forged[k].text),
					  forged[k].name, &d)) {
			CHECK(0, "%s: %s", forged[k].name, d.msg);
			continue;
		}
		memset(&r, 0, sizeof(r));
		r.ours.kind = VERDICT_SAFE;
		r.ours.max_insns = forged[k].max_insns;
		r.ours.ends = forged[k].ends;
		r.ours.mg_insns = forged[k].mg_insns;
		memcpy(r.ours.mg_more, forged[k].mg_more, sizeof(r.ours.mg_more));
		if (forged[k].call.start) {
			r.ours.ncall_bounds = 1;
			r.ours.call_bound[0] = forged[k].call;
		}
		CHECK(verdict_execute(&r, obj, &obj->progs[0], &vo) == 0, "%s: run failed",
		      forged[k].name);
		CHECK(r.runs == 4, "%s: %llu runs", forged[k].name, (unsigned long long)r.runs);
		if (forged[k].fault)
			CHECK(r.faults == (forged[k].faults ? forged[k].faults : 4) &&
			      strstr(r.fault, forged[k].fault),
			      "%s: %llu faults, first '%s'", forged[k].name,
			      (unsigned long long)r.faults, r.fault);
		else
			CHECK(r.faults == 0, "%s: fault '%s'", forged[k].name, r.fault);
		verdict_report__free(&r);
		ebpf_object__free(obj);
	}
}

/* A read one past an element of a 4-element array of 64-byte values that is not the last one
 * (element 0): the kernel bounds every access through a map value pointer by the value size and
 * refuses it, bpfscev calls it unsafe, and a forged safe verdict's runs trap on it as on a read
 * past the last element (each value is a region of its own in the interpreter; when its
 * elements lay side by side, the read landed in element 1 and the runs passed).  The same
 * program reading its element's last byte runs clean. */
static void test_map_value_elements(void)
{
	static const struct {
		const char *name, *text, *fault;
	} progs[] = {
		{ "one past element 0", "r1 = 0\n*(u32 *)(r10 -4) = r1\nr2 = r10\nr2 += -4\n"
		  "r1 = map[fd:0] ll\ncall bpf_map_lookup_elem\nif r0 == 0 goto out\n"
		  "r0 = *(u8 *)(r0 +64)\nout: r0 = 0\nexit\n", "is outside every region" },
		{ "one before element 2", "r1 = 2\n*(u32 *)(r10 -4) = r1\nr2 = r10\nr2 += -4\n"
		  "r1 = map[fd:0] ll\ncall bpf_map_lookup_elem\nif r0 == 0 goto out\n"
		  "r0 = *(u8 *)(r0 -1)\nout: r0 = 0\nexit\n", "is outside every region" },
		{ "the last byte of element 0", "r1 = 0\n*(u32 *)(r10 -4) = r1\nr2 = r10\n"
		  "r2 += -4\nr1 = map[fd:0] ll\ncall bpf_map_lookup_elem\nif r0 == 0 goto out\n"
		  "r0 = *(u8 *)(r0 +63)\nout: r0 = 0\nexit\n", NULL },
	};
	char why[256];
	bool kernel = kernel_available(why, sizeof(why));

	if (!kernel)
		printf("SKIP: map value elements against the kernel: %s\n", why);
	for (size_t k = 0; k < sizeof(progs) / sizeof(progs[0]); k++) {
		struct ebpf_object *obj = NULL;
		struct verdict_opts vo = { .sz = sizeof(vo), .prog_type = BPF_PROG_TYPE_XDP,
					   .runs = 4, .kernel = kernel };
		struct verdict_report r;
		struct diag d;

		diag_clear(&d);
		if (ebpf_object__open_mem(&obj, progs[k].text, strlen(progs[k].text), progs[k].name,
					  &d)) {
			CHECK(0, "%s: %s", progs[k].name, d.msg);
			continue;
		}
		obj->maps = &array_map;
		obj->map_cnt = 1;
		CHECK(verdict_compare(&r, obj, &obj->progs[0], &vo, &d) == 0, "%s: %s",
		      progs[k].name, d.msg);
		CHECK(r.ours.kind == (progs[k].fault ? VERDICT_UNSAFE : VERDICT_SAFE),
		      "%s: verdict %s (%s)", progs[k].name, scev_verdict_name(r.ours.kind),
		      r.ours.reason);
		if (kernel)
			CHECK(r.cls == (progs[k].fault ? VC_BOTH_REJECT : VC_BOTH_ACCEPT),
			      "%s: %s (ours: %s; kernel: %s)", progs[k].name,
			      verdict_class_name(r.cls), r.ours.reason, r.kernel_message);
		verdict_report__free(&r);
		/* the verdict forged safe: every run reads past the value */
		memset(&r, 0, sizeof(r));
		r.ours.kind = VERDICT_SAFE;
		r.ours.max_insns = UINT64_MAX;
		vo.kernel = false;
		CHECK(verdict_execute(&r, obj, &obj->progs[0], &vo) == 0, "%s: run failed",
		      progs[k].name);
		if (progs[k].fault)
			CHECK(r.runs == 4 && r.faults == 4 && strstr(r.fault, progs[k].fault),
			      "%s forged safe: %llu of %llu runs fault, first '%s'", progs[k].name,
			      (unsigned long long)r.faults, (unsigned long long)r.runs, r.fault);
		else
			CHECK(r.runs == 4 && r.faults == 0, "%s forged safe: fault '%s'",
			      progs[k].name, r.fault);
		verdict_report__free(&r);
		obj->maps = NULL;
		obj->map_cnt = 0;
		ebpf_object__free(obj);
	}
}

/* A map whose key or value size the object leaves 0 (libbpf's loader may set it before the load,
 * as bloom_filter_bench's): a helper's key or value argument of that map is unsupported, not left
 * unchecked (bpf_map_update_elem's value given 8 bytes of stack; a lookup's key given none). */
static void test_unsized_maps(void)
{
	static const char text[] = "r1 = 0\n*(u64 *)(r10 -8) = r1\nr2 = r10\nr2 += -8\n"
				   "r3 = r10\nr3 += -8\nr4 = 0\nr1 = map[fd:0] ll\n"
				   "call bpf_map_update_elem\nr0 = 0\nexit\n";
	static const struct {
		uint32_t key, value;
		const char *why;
	} sizes[] = { { 4, 0, "has no value size" }, { 0, 8, "has no key size" } };

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		struct ebpf_map_def m = { .name = "unsized", .type = BPF_MAP_TYPE_HASH,
					  .key_size = sizes[k].key, .value_size = sizes[k].value,
					  .max_entries = 4 };
		struct verdict_opts vo = { .sz = sizeof(vo), .prog_type = BPF_PROG_TYPE_XDP,
					   .runs = 4 };
		struct ebpf_object *obj = NULL;
		struct verdict_report r;
		struct diag d;

		diag_clear(&d);
		if (ebpf_object__open_mem(&obj, text, strlen(text), "unsized", &d)) {
			CHECK(0, "unsized map: %s", d.msg);
			continue;
		}
		obj->maps = &m;
		obj->map_cnt = 1;
		CHECK(verdict_compare(&r, obj, &obj->progs[0], &vo, &d) == 0, "unsized map: %s",
		      d.msg);
		CHECK(r.ours.kind == VERDICT_UNSUPPORTED && strstr(r.ours.reason, sizes[k].why),
		      "key %u value %u: verdict %s (%s), expected unsupported '%s'", sizes[k].key,
		      sizes[k].value, scev_verdict_name(r.ours.kind), r.ours.reason, sizes[k].why);
		verdict_report__free(&r);
		obj->maps = NULL;
		obj->map_cnt = 0;
		ebpf_object__free(obj);
	}
}

/* Runs a forged verdict v of the program text (a case file: maps) on 4 runs of budget budget;
 * want: the first fault's words, NULL for none; faults: how many runs fault (0: all four). */
static void forged_case(const char *name, const char *text, const struct scev_verdict *v,
			uint64_t budget, const char *want, unsigned faults)
{
	struct casefile *cf = NULL;
	struct verdict_opts vo = { .sz = sizeof(vo), .prog_type = BPF_PROG_TYPE_XDP, .runs = 4,
				   .step_budget = budget };
	struct verdict_report r;
	struct diag d;

	diag_clear(&d);
	if (casefile__open_mem(&cf, text, strlen(text), name, &d)) {
		CHECK(0, "%s: %s (line %d)", name, d.msg, d.line);
		return;
	}
	memset(&r, 0, sizeof(r));
	r.ours = *v;
	CHECK(verdict_execute(&r, cf->obj, &cf->obj->progs[0], &vo) == 0, "%s: run failed", name);
	CHECK(r.runs == 4, "%s: %llu runs", name, (unsigned long long)r.runs);
	if (want)
		CHECK(r.faults == (faults ? faults : 4) && strstr(r.fault, want),
		      "%s: %llu faults, first '%s'", name, (unsigned long long)r.faults, r.fault);
	else
		CHECK(r.faults == 0, "%s: fault '%s'", name, r.fault);
	verdict_report__free(&r);
	casefile__free(cf);
}

/* Main's own instructions (scev_verdict.main_own: those run while no callback runs) held to
 * their bound when the whole bound passes the budget: bpf_loop(1000, cb) takes 2,007, main 7 of
 * them, 5 before the callbacks (the budget of 500 cuts the run in them). */
static void test_forged_main_own(void)
{
	struct scev_verdict v = { .kind = VERDICT_SAFE, .max_insns = 2007,
				  .ends = SCEV_ENDS_BOUND, .ncall_bounds = 1,
				  .call_bound = { { 8, 1000, 2 } }, .main_own = 7 };

	forged_case("main's own within its bound", "-- asm\n" LOOP1000 "-- type\nxdp\n", &v, 500,
		    NULL, 0);
	v.main_own = 4;
	forged_case("main's own past its bound", "-- asm\n" LOOP1000 "-- type\nxdp\n", &v, 500,
		    "main ran past 4 instructions of its own", 0);
	/* (held to the whole bound when it fits: main's own is not watched then) */
	forged_case("main's own past its bound, the whole bound held", "-- asm\n" LOOP1000
		    "-- type\nxdp\n", &v, 5000, NULL, 0);
}

/* A timer armed with bpf_timer_start(0) and bpf_loop(N, cb): the step budget cuts the run (the
 * interpreter then fires the timer: tcb runs in frame 0, 403 instructions), in cb's frame
 * (TIMER_CUT_CB: N = 1000, 2,028 instructions, main's own 28) or in main's (TIMER_CUT_MAIN:
 * N = 100 and a loop of 200 in main after it: 629, main's own 429; cut at 500, where main has
 * run 300 of its own).  The per-call watch stops where the program does: tcb's instructions
 * are no call of cb nor main's own (a false finding if the watch went on), while what the
 * program did before the cut is still held to its bounds. */
#define TIMER_ARM                                                                               \
	"-- asm\n"                                                                              \
	"r1 = map[fd:0] ll\n*(u32 *)(r10 -4) = 0\nr2 = r10\nr2 += -4\n"                         \
	"call bpf_map_lookup_elem\nif r0 == 0 goto out\nr6 = r0\n"                             \
	"r1 = r6\nr1 += 8\nr2 = map[fd:0] ll\nr3 = 1\ncall bpf_timer_init\n"                    \
	"r1 = r6\nr1 += 8\nr2 = func tcb ll\ncall bpf_timer_set_callback\n"                      \
	"r1 = r6\nr1 += 8\nr2 = 0\nr3 = 0\ncall bpf_timer_start\n"
#define TIMER_TAIL                                                                              \
	"cb: r0 = 0\nexit\n"                                                                     \
	"tcb: r1 = 0\nl: r1 += 1\nif r1 < 200 goto l\nr0 = 0\nexit\n"                          \
	"-- maps\narray key=4 value=32 entries=1 timer=8\n-- type\nxdp\n"
#define TIMER_CUT_CB                                                                            \
	TIMER_ARM "out: r1 = 1000\nr2 = func cb ll\nr3 = 0\nr4 = 0\ncall bpf_loop\nr0 = 0\n"     \
	"exit\n" TIMER_TAIL
#define TIMER_CUT_MAIN                                                                          \
	TIMER_ARM "out: r1 = 100\nr2 = func cb ll\nr3 = 0\nr4 = 0\ncall bpf_loop\nr1 = 0\n"      \
	"m: r1 += 1\nif r1 < 200 goto m\nr0 = 0\nexit\n" TIMER_TAIL
static void test_watch_after_cut(void)
{
	struct scev_verdict v = { .kind = VERDICT_SAFE, .max_insns = 2028,
				  .ends = SCEV_ENDS_BOUND, .ncall_bounds = 2,
				  .call_bound = { { 32, 1000, 2 }, { 34, UINT32_MAX, 403 } },
				  .main_own = 28 };

	/* the cut in cb's frame: the timer's callback after it is not main's own */
	forged_case("cut in a callback, the timer after it", TIMER_CUT_CB, &v, 500, NULL, 0);
	/* ... and what came before the cut is still watched (main runs 26 of its own before
	 * bpf_loop's callbacks) */
	v.main_own = 25;
	forged_case("cut in a callback, main's own past its bound before it", TIMER_CUT_CB, &v,
		    500, "main ran past 25 instructions of its own", 0);
	v.main_own = 28;
	v.call_bound[0].calls = 100;
	forged_case("cut in a callback, too many calls before it", TIMER_CUT_CB, &v, 500,
		    "called func@32 101 times", 0);
	/* the cut in main's frame (frame 0, as the timer's callback) */
	v = (struct scev_verdict){ .kind = VERDICT_SAFE, .max_insns = 629,
				   .ends = SCEV_ENDS_BOUND, .ncall_bounds = 2,
				   .call_bound = { { 35, 100, 2 }, { 37, UINT32_MAX, 403 } },
				   .main_own = 429 };
	forged_case("cut in main, the timer after it", TIMER_CUT_MAIN, &v, 500, NULL, 0);
	v.main_own = 250;
	forged_case("cut in main, main's own past its bound before it", TIMER_CUT_MAIN, &v, 500,
		    "main ran past 250 instructions of its own", 0);
}

/* Bounds for every function, not the first 16: main calls 20 functions of 3 instructions each
 * (f_k at pc 22 + 3k); and for one with a may_goto loop, at the oracle's budget: MGF's f runs
 * 3 * 8 + 3 instructions a call at a budget of 8. */
static void test_call_bounds_more(void)
{
	char text[2048];
	size_t n = 0;
	struct ebpf_object *obj = NULL;
	struct verdict_opts vo = { .sz = sizeof(vo), .prog_type = BPF_PROG_TYPE_XDP };
	struct verdict_report r;
	struct scev_verdict v = { .kind = VERDICT_SAFE, .max_insns = UINT64_MAX,
				  .ends = SCEV_ENDS_CALLS, .ncall_bounds = 20 };
	struct diag d;

	for (int k = 0; k < 20; k++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "call f%d\n", k);
	n += (size_t)snprintf(text + n, sizeof(text) - n, "r0 = 0\nexit\n");
	for (int k = 0; k < 20; k++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "f%d: r0 = 0\nr0 += 1\nexit\n", k);
	diag_clear(&d);
	if (!ebpf_object__open_mem(&obj, text, n, "twenty", &d) &&
	    !verdict_compare(&r, obj, &obj->progs[0], &vo, &d)) {
		CHECK(r.ours.kind == VERDICT_SAFE && r.faults == 0 && r.ours.ncall_bounds == 20,
		      "twenty functions: %s, %u bounds", r.ours.reason, r.ours.ncall_bounds);
		for (unsigned k = 0; k < r.ours.ncall_bounds && k < 20; k++)
			CHECK(r.ours.call_bound[k].start == 22 + 3 * k &&
			      r.ours.call_bound[k].insns == 3 && !r.ours.call_bound[k].mg,
			      "twenty functions: bound %u {%u, %llu}", k, r.ours.call_bound[k].start,
			      (unsigned long long)r.ours.call_bound[k].insns);
		verdict_report__free(&r);
	} else {
		CHECK(0, "twenty functions: %s", d.msg);
	}
	/* the same bounds forged, the last one below its 3 instructions: the runs see it */
	for (unsigned k = 0; k < 20; k++)
		v.call_bound[k] = (struct scev_call_bound){ 22 + 3 * k, UINT32_MAX, k == 19 ? 2 : 3 };
	if (obj) {
		struct verdict_opts fo = { .sz = sizeof(fo), .prog_type = BPF_PROG_TYPE_XDP,
					   .runs = 4, .step_budget = 100 };

		memset(&r, 0, sizeof(r));
		r.ours = v;
		CHECK(verdict_execute(&r, obj, &obj->progs[0], &fo) == 0, "twenty: run failed");
		CHECK(r.faults == 4 && strstr(r.fault, "one call of func@79 ran past 2"),
		      "twenty functions, the 20th past its bound: %llu faults, '%s'",
		      (unsigned long long)r.faults, r.fault);
		verdict_report__free(&r);
	}
	ebpf_object__free(obj);
	obj = NULL;

	diag_clear(&d);
	if (!ebpf_object__open_mem(&obj, MGF, strlen(MGF), "mgf", &d) &&
	    !verdict_compare(&r, obj, &obj->progs[0], &vo, &d)) {
		const struct scev_call_bound *b = &r.ours.call_bound[0];

		CHECK(r.ours.kind == VERDICT_SAFE && r.faults == 0 && r.ours.ncall_bounds == 1 &&
		      b->start == 2 && b->mg && b->insns >= 27 && b->insns < 40,
		      "may_goto function: %s, %u bounds, {%u, %llu, mg %d}", r.ours.reason,
		      r.ours.ncall_bounds, b->start, (unsigned long long)b->insns, b->mg);
		verdict_report__free(&r);
	} else {
		CHECK(0, "may_goto function: %s", d.msg);
	}
	ebpf_object__free(obj);
}

/* The per-call bounds a verdict states: bpf_loop(1000, cb) calls cb (2 instructions) at most
 * 1,000 times a call; f's one call takes 3 instructions (the program's semantics, not the
 * analyzer's). */
static void test_call_bounds_stated(void)
{
	static const struct {
		const char *text;
		struct scev_call_bound want;
	} cases[] = {
		{ LOOP1000, { 8, 1000, 2 } },
		{ "call f\nexit\nf: r0 = 0\nr0 += 1\nexit\n", { 2, UINT32_MAX, 3 } },
	};
	/* may_goto's loop at budgets 0, 1, 8, 64 (each loop b + 1 passes of 3 a frame): at least
	 * the 3b + 3 a run takes, held to on runs at each (at 2^23 past the budget) */
	static const uint64_t least[SCEV_MG_MORE] = { 3, 6, 195, 3 * (1ull << 23) + 3 };
	struct ebpf_object *obj = NULL;
	struct verdict_opts vo = { .sz = sizeof(vo), .prog_type = BPF_PROG_TYPE_XDP, .runs = 8 };
	struct verdict_report r;
	struct diag d;

	diag_clear(&d);
	if (!ebpf_object__open_mem(&obj, MAY_GOTO, strlen(MAY_GOTO), "m", &d) &&
	    !verdict_compare(&r, obj, &obj->progs[0], &vo, &d)) {
		CHECK(r.ours.kind == VERDICT_SAFE && r.faults == 0 && r.runs == 8 &&
		      r.ours.mg_insns >= 27 && r.ours.mg_insns < 100, "may_goto: %s, %llu faults: %s, "
		      "bound %llu", r.ours.reason, (unsigned long long)r.faults, r.fault,
		      (unsigned long long)r.ours.mg_insns);
		for (unsigned k = 0; k < SCEV_MG_MORE; k++)
			CHECK(r.ours.mg_more[k] >= least[k] && r.ours.mg_more[k] < least[k] + 10,
			      "may_goto at %u: %llu", scev_mg_more_budget(k),
			      (unsigned long long)r.ours.mg_more[k]);
		verdict_report__free(&r);
	} else {
		CHECK(0, "may_goto: %s", d.msg);
	}
	ebpf_object__free(obj);

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct ebpf_object *obj = NULL;
		struct verdict_opts vo = { .sz = sizeof(vo), .prog_type = BPF_PROG_TYPE_XDP };
		struct verdict_report r;
		struct diag d;

		diag_clear(&d);
		if (ebpf_object__open_mem(&obj, cases[k].text, strlen(cases[k].text), "c", &d)) {
			CHECK(0, "case %zu: %s", k, d.msg);
			continue;
		}
		CHECK(verdict_compare(&r, obj, &obj->progs[0], &vo, &d) == 0, "case %zu: %s", k,
		      d.msg);
		CHECK(r.ours.kind == VERDICT_SAFE && r.faults == 0 && r.ours.ncall_bounds == 1 &&
		      r.ours.call_bound[0].start == cases[k].want.start &&
		      r.ours.call_bound[0].calls == cases[k].want.calls &&
		      r.ours.call_bound[0].insns == cases[k].want.insns,
		      "case %zu: %s, %u bounds, first {%u, %u, %llu}", k, r.ours.reason,
		      r.ours.ncall_bounds, r.ours.call_bound[0].start, r.ours.call_bound[0].calls,
		      (unsigned long long)r.ours.call_bound[0].insns);
		/* main's own: bpf_loop(1000, cb)'s main runs 7 instructions, f's 2 */
		CHECK(r.ours.main_own == (k == 0 ? 7 : 0) && !r.ours.main_own_mg,
		      "case %zu: main's own %llu", k, (unsigned long long)r.ours.main_own);
		verdict_report__free(&r);
		ebpf_object__free(obj);
	}
	test_call_bounds_more();
}

/* A verdict after try_args_shrink's re-run (scev.c): main calls f(i), i < N, and f runs its loop
 * only for n >= N.  The rounds' forgetful passes give the call i in [0, N], so the first run's
 * last pass reaches f's loop; the re-run's, with n in [0, N - 1], does not (no trip claim).
 * The instruction bound must count the re-run's blocks: the runs, judged by the interpreter,
 * take at most the bound (N = 4), and a run past the step budget faults only when the verdict
 * bounds nothing (N = 40000, 280,003 instructions). */
static void test_args_rerun_bound(void)
{
	static const char *const texts[] = {
		"r6 = 0\nl: r1 = r6\ncall f\nr6 += 1\nif r6 < 4 goto l\nr0 = 0\nexit\n"
		"f: r0 = 0\nif r1 < 4 goto out\nr2 = 0\nm: r2 += 1\nif r2 < r1 goto m\nout: exit\n",
		"r6 = 0\nl: r1 = r6\ncall f\nr6 += 1\nif r6 < 40000 goto l\nr0 = 0\nexit\n"
		"f: r0 = 0\nif r1 < 40000 goto out\nr2 = 0\nm: r2 += 1\nif r2 < r1 goto m\n"
		"out: exit\n",
	};

	for (size_t k = 0; k < sizeof(texts) / sizeof(texts[0]); k++) {
		struct ebpf_object *obj = NULL;
		struct verdict_opts vo = { .sz = sizeof(vo), .prog_type = BPF_PROG_TYPE_XDP,
					   .runs = 4, .step_budget = k ? 2000 : 0 };
		struct verdict_report r;
		struct diag d;

		diag_clear(&d);
		if (ebpf_object__open_mem(&obj, texts[k], strlen(texts[k]), "args", &d) ||
		    verdict_compare(&r, obj, &obj->progs[0], &vo, &d)) {
			CHECK(0, "args re-run %zu: %s", k, d.msg);
			ebpf_object__free(obj);
			continue;
		}
		CHECK(r.ours.kind == VERDICT_SAFE && r.faults == 0 && r.runs > 0 &&
		      r.ours.max_insns != UINT64_MAX,
		      "args re-run %zu: %s, %llu of %llu runs fault (%s), bound %llu", k,
		      r.ours.reason, (unsigned long long)r.faults, (unsigned long long)r.runs,
		      r.fault, (unsigned long long)r.ours.max_insns);
		verdict_report__free(&r);
		ebpf_object__free(obj);
	}
}

/* Generated programs called safe never fault; count how many are called safe. */
static void test_generated(void)
{
	struct gen_knobs k = gen_knobs_default();
	struct gen_program gp = { 0 };
	unsigned safe = 0, total = 0;

	for (uint64_t seed = 0; seed < 300; seed++) {
		struct gen_src src;
		struct ebpf_prog view;
		struct ebpf_object obj;
		struct verdict_opts vo = { .sz = sizeof(vo), .runs = 8, .seed = seed };
		struct verdict_report r;
		struct diag d;

		gen_src_init_seed(&src, seed);
		if (gen_program(&gp, &src, &k))
			continue;
		gen_program__object(&gp, &obj, &view, "g");
		diag_clear(&d);
		if (verdict_compare(&r, &obj, &view, &vo, &d)) {
			CHECK(0, "seed %llu: %s", (unsigned long long)seed, d.msg);
			continue;
		}
		total++;
		safe += r.ours.kind == VERDICT_SAFE;
		CHECK(r.faults == 0, "seed %llu: called safe but faults: %s", (unsigned long long)seed,
		      r.fault);
		verdict_report__free(&r);
	}
	gen_program__free(&gp);
	printf("generated: %u of %u called safe\n", safe, total);
	CHECK(safe > total / 4, "only %u of %u generated programs called safe", safe, total);
}

static void test_kernel_improvement(void)
{
	char why[256];
	struct ebpf_object *obj = NULL;
	struct verdict_opts vo = { .sz = sizeof(vo), .kernel = true, .prog_type = BPF_PROG_TYPE_XDP };
	struct verdict_report r;
	struct diag d;

	if (!kernel_available(why, sizeof(why))) {
		printf("SKIP: kernel comparison: %s\n", why);
		return;
	}
	diag_clear(&d);
	CHECK(ebpf_object__open_mem(&obj, cases[0].text, strlen(cases[0].text), "big", &d) == 0,
	      "%s", d.msg);
	if (!obj)
		return;
	CHECK(verdict_compare(&r, obj, &obj->progs[0], &vo, &d) == 0, "%s", d.msg);
	CHECK(r.cls == VC_IMPROVEMENT, "a 10^6-iteration loop: class %s (kernel %s: %s)",
	      verdict_class_name(r.cls), r.kernel_accepted ? "accepted" : "rejected",
	      r.kernel_message);
	verdict_report__free(&r);
	ebpf_object__free(obj);
}

int main(void)
{
	test_cases();
	test_call_cases_against_kernel();
	test_forged_verdicts();
	test_map_value_elements();
	test_unsized_maps();
	test_forged_main_own();
	test_watch_after_cut();
	test_call_bounds_stated();
	test_args_rerun_bound();
	test_generated();
	test_kernel_improvement();
	return check_done("test_verify");
}
