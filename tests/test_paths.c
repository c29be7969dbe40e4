/* The verdict's path states (scev/absint.c, verify_paths), judged by the running kernel: a
 * register or spilled cell that holds pointers of different kinds on the paths into a block (a
 * map value on one, the stack on another; two maps of different definitions) is unknown in the
 * joined state, and the kernel, which walks the paths apart, accepts the program when every
 * path's access is in bounds.  Each safe case has unsafe twins where one path's access is out of
 * bounds or through a scalar, which both must reject; and a header offset that is one of two
 * constants on the paths into one packet check (clang's VLAN walk), and packet pointers at
 * different constant offsets, each checked on its own path; and both after more combinations of
 * constants than the verdict keeps path states for (a spilled pointer's kinds kept apart; an error
 * code's guard carried through clang's zero-extension).  Programs called safe are also run and
 * must not fault.  Without bpf() bpfscev's verdicts are checked against the ones written here.
 *
 * Also the privilege rule (verdict_opts.unprivileged) on reads of stack bytes not written on
 * every path: by default bpfscev follows the kernel root loads with (allow_uninit_stack: both
 * accept, and the runs read drawn bytes without a fault); with unprivileged it refuses them, and
 * so does the kernel asked as an unprivileged loader (CAP_BPF without CAP_PERFMON): both
 * reject.
 */
#include <string.h>

#include "oracle/kernel/kernel.h"
#include "tests/check.h"
#include "tests/verdict_case.h"
#include "triage/verdict.h"

/* map[fd:0]: hash 4 -> 16; map[fd:1]: hash 4 -> 8 */
static struct ebpf_map_def maps[] = {
	{ .name = "big", .type = BPF_MAP_TYPE_HASH, .key_size = 4, .value_size = 16,
	  .max_entries = 8 },
	{ .name = "small", .type = BPF_MAP_TYPE_HASH, .key_size = 4, .value_size = 8,
	  .max_entries = 8 },
};

/* r6: a value from the context that picks the path; fp-8 the key, fp-16 written; r0 the
 * lookup's value in map 0, not NULL */
#define LOOKUP                                                                                   \
	"r7 = r1\nr6 = *(u32 *)(r1 +0)\nr1 = 0\n*(u64 *)(r10 -8) = r1\n*(u64 *)(r10 -16) = r1\n"          \
	"r2 = r10\nr2 += -8\nr1 = map[fd:0] ll\ncall bpf_map_lookup_elem\n"                      \
	"if r0 == 0 goto out\n"
#define OUT "exit\nout: r0 = 0\nexit\n"
/* r1 = map 0 or map 1 by r6, then the lookup of key fp-8 */
#define TWO_MAPS                                                                                 \
	"r6 = *(u32 *)(r1 +0)\nr1 = 0\n*(u32 *)(r10 -8) = r1\nr1 = map[fd:0] ll\n"               \
	"if r6 > 100 goto j\nr1 = map[fd:1] ll\nj: r2 = r10\nr2 += -8\n"                          \
	"call bpf_map_lookup_elem\nif r0 == 0 goto out\n"

static const struct {
	const char *name, *text;
	enum scev_verdict_kind want;
	const char *reason;
	bool unprivileged;	/* the strict rule, judged by the unprivileged kernel */
	uint32_t type;		/* 0: socket filter */
} cases[] = {
	{ "map value or stack", LOOKUP "if r6 > 100 goto use\nr0 = r10\nr0 += -16\n"
	  "use: r0 = *(u64 *)(r0 +8)\n" OUT, SAFE, NULL },
	{ "map value or stack, spilled", LOOKUP "if r6 > 100 goto sp\nr0 = r10\nr0 += -16\n"
	  "sp: *(u64 *)(r10 -24) = r0\nr0 = 0\nr0 = *(u64 *)(r10 -24)\n"
	  "r0 = *(u64 *)(r0 +0)\n" OUT, SAFE, NULL },
	{ "map value or context", LOOKUP "if r6 > 100 goto use\nr0 = r7\n"
	  "use: r0 = *(u32 *)(r0 +0)\n" OUT, UNSAFE, "the same instruction" },
	{ "two maps, bytes both have", TWO_MAPS "r0 = *(u64 *)(r0 +0)\n" OUT, SAFE, NULL },
	/* twins */
	{ "map value or stack past the frame", LOOKUP "if r6 > 100 goto use\nr0 = r10\n"
	  "r0 += -8\nuse: r0 = *(u64 *)(r0 +8)\n" OUT, UNSAFE, "stack access" },
	{ "map value or scalar", LOOKUP "if r6 > 100 goto use\nr0 = 16\n"
	  "use: r0 = *(u64 *)(r0 +0)\n" OUT, UNSAFE, "not a known pointer" },
	{ "two maps, past the small one", TWO_MAPS "r0 = *(u64 *)(r0 +8)\n" OUT, UNSAFE,
	  "map value access" },
	/* fp-32 is written on one path only */
#define HALF_WRITTEN "r6 = *(u32 *)(r1 +0)\nif r6 > 100 goto j\nr1 = 7\n*(u64 *)(r10 -32) = r1\n" \
		     "j: r0 = *(u64 *)(r10 -32)\n"
	{ "stack read written on one path", HALF_WRITTEN "exit\n", SAFE, NULL },
	{ "stack read written on one path, unprivileged", HALF_WRITTEN "exit\n", UNSAFE,
	  "not written on every path", true },
	{ "map value or unwritten stack", LOOKUP "if r6 > 100 goto use\nr0 = r10\n"
	  "r0 += -40\nuse: r0 = *(u64 *)(r0 +8)\n" OUT, SAFE, NULL },
	{ "map value or unwritten stack, unprivileged", LOOKUP "if r6 > 100 goto use\nr0 = r10\n"
	  "r0 += -40\nuse: r0 = *(u64 *)(r0 +8)\n" OUT, UNSAFE, "not written", true },
	/* XDP: a header offset of 14 or 18 (a VLAN tag), data + off + 4 checked, then 2 bytes
	 * at data + off + 2 read (4 bytes: past the check on both paths) */
#define VLAN_OFF(sz) "r2 = *(u32 *)(r1 +4)\nr1 = *(u32 *)(r1 +0)\nr3 = r1\nr3 += 14\n"          \
		     "if r3 > r2 goto out\nr4 = *(u8 *)(r1 +12)\nr3 = 14\nif r4 != 0x81 goto j\n"     \
		     "r3 = 18\nj: r5 = r3\nr5 += 4\nr4 = r1\nr4 += r5\nif r4 > r2 goto out\n"       \
		     "r4 = r1\nr4 += r3\nr0 = *(" sz " *)(r4 +2)\n" OUT
	{ "header offset 14 or 18", VLAN_OFF("u16"), SAFE, NULL, false, BPF_PROG_TYPE_XDP },
	{ "header offset 14 or 18, read past", VLAN_OFF("u32"), UNSAFE, "packet access", false,
	  BPF_PROG_TYPE_XDP },
	/* XDP: data + 20 or data + 40, each checked for 2 bytes on its own path, then read
	 * after the join (Cilium's tail_rev_nodeport_lb6: a header length, one per path); the
	 * twin checks only 1 byte on the data + 40 path */
#define PKT_CONST_OFFS(n) "r2 = *(u32 *)(r1 +4)\nr1 = *(u32 *)(r1 +0)\nr3 = r1\nr3 += 14\n"    \
		     "if r3 > r2 goto out\nr4 = *(u8 *)(r1 +12)\nif r4 != 0x81 goto b\n"          \
		     "r3 = r1\nr3 += 20\nr5 = r3\nr5 += 2\nif r5 > r2 goto out\ngoto j\n"         \
		     "b: r3 = r1\nr3 += 40\nr5 = r3\nr5 += " n "\nif r5 > r2 goto out\n"            \
		     "j: r0 = *(u16 *)(r3 +0)\n" OUT
	{ "packet pointer at data + 20 or data + 40", PKT_CONST_OFFS("2"), SAFE, NULL, false,
	  BPF_PROG_TYPE_XDP },
	{ "packet pointer at data + 20 or data + 40, one byte short", PKT_CONST_OFFS("1"),
	  UNSAFE, "packet access", false, BPF_PROG_TYPE_XDP },
	/* four independent bits of r6 make r5, r7, r8, r9 constants: 16 combinations, more than
	 * the verdict keeps path states for (PATHS_MAX), so paths into later blocks are joined */
#define BITS(r, a)                                                                               \
	"r0 = r6\nr0 &= " #a "\nif r0 != 0 goto b" #a "\n" r " = 1\nb" #a ": "
#define FOUR_BITS "r5 = 0\nr7 = 0\nr8 = 0\nr9 = 0\n" BITS("r5", 1) BITS("r7", 2) BITS("r8", 4) \
		  BITS("r9", 8)
#define USE_BITS "r0 += r5\nr0 += r7\nr0 += r8\nr0 += r9\n"
	/* fp-32 holds a stack pointer (fp-8) or a map value, then 16 combinations of constants,
	 * then the pointer read back and dereferenced (Cilium's tail_nodeport_nat_ipv4): the
	 * path states keep the kinds of fill cells apart before constants; the twin reads 8 bytes
	 * at 8, in the map value, past the frame */
#define SPILL_KINDS(off) LOOKUP "if r6 > 100 goto sp\nr0 = r10\nr0 += -8\n"                    \
		      "sp: *(u64 *)(r10 -32) = r0\n" FOUR_BITS "r1 = *(u64 *)(r10 -32)\n"          \
		      "r0 = *(u64 *)(r1 +" off ")\n" USE_BITS OUT
	{ "map value or stack spilled, 16 combinations of constants", SPILL_KINDS("0"), SAFE,
	  NULL },
	{ "map value or stack spilled, 16 combinations, past the frame", SPILL_KINDS("8"),
	  UNSAFE, "stack access" },
	/* XDP: clang's "err = data + x + 4 > data_end ? -EINVAL : 0" zero-extended before its
	 * test, the test's register reloaded before the access, after 16 combinations of
	 * constants (Cilium's tail_handle_nat_fwd_ipv6 and tail_nodeport_nat_ipv6): the fact
	 * guarded by r3 == 0 goes through the shift, the copy and the shift back, and holds once
	 * r1 == 0.  Twins: 3 bytes checked; the other arm; 0 or 4 shifted by 62 (both 0) */
#define ERR_ZEXT(n, bad, ext, br)                                                                \
	"r6 = *(u32 *)(r1 +12)\nr2 = *(u32 *)(r1 +4)\nr1 = *(u32 *)(r1 +0)\n" FOUR_BITS             \
	"r3 = r6\nr3 &= 255\nr1 += r3\nr4 = r1\nr1 += " n "\nif r1 > r2 goto bad\nr3 = 0\n"      \
	"goto join\nbad: r3 = " bad "\njoin: " ext "if r1 " br " 0 goto out\nr1 = 7\n"           \
	"r0 = *(u32 *)(r4 +0)\nr0 += r1\n" USE_BITS OUT
#define ZEXT "r3 <<= 32\nr1 = r3\nr1 >>= 32\n"
	{ "error code zero-extended, 16 combinations", ERR_ZEXT("4", "-22", ZEXT, "!="), SAFE,
	  NULL, false, BPF_PROG_TYPE_XDP },
	{ "error code zero-extended, 16 combinations, 3 bytes checked",
	  ERR_ZEXT("3", "-22", ZEXT, "!="), UNSAFE, "packet access", false, BPF_PROG_TYPE_XDP },
	{ "error code zero-extended, 16 combinations, other arm",
	  ERR_ZEXT("4", "-22", ZEXT, "=="), UNSAFE, "packet access", false, BPF_PROG_TYPE_XDP },
	{ "error code 0 or 4 shifted by 62", ERR_ZEXT("4", "4", "r3 <<= 62\nr1 = r3\n", "!="),
	  UNSAFE, "packet access", false, BPF_PROG_TYPE_XDP },
	/* the value read is unknown: as an offset it must be bounded first */
	{ "unwritten stack as an offset", "r0 = *(u64 *)(r10 -8)\nr1 = r10\nr1 += -16\n"
	  "r1 += r0\nr0 = *(u8 *)(r1 +0)\nexit\n", UNSAFE, NULL },
};

int main(void)
{
	bool kernel = verdict_case_kernel("the kernel's verdicts");

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct verdict_opts vo = { .sz = sizeof(vo),
					   .prog_type = cases[k].type ? cases[k].type
								      : BPF_PROG_TYPE_SOCKET_FILTER,
					   .kernel = kernel, .unprivileged = cases[k].unprivileged };

		verdict_case_run(cases[k].name, cases[k].text, maps, 2, &vo, cases[k].want,
				 cases[k].reason, AGREE);
	}
	return check_done("test_paths");
}
