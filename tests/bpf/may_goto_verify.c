/* cond_break and can_loop loops as clang 14 compiles them, for `bpfscev verify` and `analyze`:
 * the selftests' bpf_experimental.h macros written out below (clang 14's assembler has no
 * may_goto, so the instruction is spelled in bytes, as those macros spell it: opcode 0xe5,
 * BPF_JMP | BPF_JCOND, then a .long whose low 16 bits land in the offset field).  A loop whose
 * only exit is may_goto, one with a bound of its own, one reading the packet under its own
 * bound and can_loop, and unsafe twins the kernel refuses: an index that only the count bounds,
 * and a write one past a stack array.  tests/test_may_goto.c loads them into the kernel, whose
 * verdict each must match, and holds bpfscev's loops and trip claims.
 */
#include "bpf_test.h"

/* may_goto to label l */
#define may_goto_(l)                                                                           \
	asm volatile goto("1:.byte 0xe5;\n"                                                    \
			  ".byte 0;\n"                                                         \
			  ".long ((%l[" #l "] - 1b - 8) / 8) & 0xffff;\n"                      \
			  ".short 0"                                                           \
			  :::: l)

#define __cond_break(expr)                                                                     \
	({                                                                                     \
		__label__ l_break, l_continue;                                                 \
		may_goto_(l_break);                                                            \
		goto l_continue;                                                               \
	l_break:                                                                               \
		expr;                                                                          \
	l_continue:;                                                                           \
	})
#define cond_break __cond_break(break)
#define can_loop                                                                               \
	({                                                                                     \
		int ret_ = 1;                                                                  \
		__cond_break(ret_ = 0);                                                        \
		ret_;                                                                          \
	})

/* the loop ends only by the kernel's may_goto budget */
SEC("xdp")
int cond_break_only_safe(struct xdp_md *xdp)
{
	__u64 n = 0;

	for (;;) {
		cond_break;
		n += 3;
	}
	return n & 1;
}

/* a bound of its own: at most 1000 iterations, fewer if the budget runs out */
SEC("xdp")
int cond_break_bounded_safe(struct xdp_md *xdp)
{
	volatile __u32 sum = 0;

	for (int i = 0; i < 1000; i++) {
		cond_break;
		sum += i;
	}
	return sum & 3;
}

/* while (i < 64 && can_loop), each byte checked against the packet's end: the loop's own bound
 * and the budget */
SEC("xdp")
int can_loop_pkt_safe(struct xdp_md *xdp)
{
	__u8 *data = (__u8 *)(long)xdp->data, *end = (__u8 *)(long)xdp->data_end;
	__u32 s = 0;

	for (__u32 i = 0; i < 64 && can_loop; i++) {
		if (data + i + 1 > end)
			break;
		s += data[i];
	}
	return s & 3;
}

/* a stack array indexed by the count of a cond_break loop: only the budget bounds it */
SEC("xdp")
int cond_break_index_unsafe(struct xdp_md *xdp)
{
	volatile __u8 buf[16] = { 0 };
	__u32 i = 0;

	for (;;) {
		cond_break;
		i++;
	}
	return buf[i];
}

/* a bound one past the array: the last write is past it */
SEC("xdp")
int cond_break_past_unsafe(struct xdp_md *xdp)
{
	__u64 buf[8];
	__u32 i;

	for (i = 0; i <= 8; i++) {
		cond_break;
		((volatile __u64 *)buf)[i] = i;
	}
	return buf[0] & 1;
}

char _license[] SEC("license") = "GPL";
