/* The kernel differential on sockets (session 26, interp_env.test_run_sock): BPF_PROG_TEST_RUN
 * of an skb program gives skb->sk a socket of its own (6.18 net/bpf/test_run.c
 * bpf_prog_test_run_skb: zeroed, TCP_CLOSE, family and addresses from the frame), which the
 * interpreter now models (interp_test_run_sock), so runs touching it are compared on r0 and the
 * maps; they were all "r0 not compared (helpers)" before (skb->sk NULL in the interpreter, the
 * socket helpers drawn).  Checked against the running kernel:
 *  - tc: the sum of skb->sk's family, IPv4 and IPv6 addresses and state, bpf_sk_fullsock's
 *    rx_queue_mapping and type, bpf_tcp_sock and bpf_get_listener_sock (both NULL), stored in
 *    an array map too, on an IPv4, an IPv6 and an all-zero frame: compared, the same, r0 the
 *    one wanted (each fails without the change: not compared);
 *  - a socket filter reading skb->sk's family and source address: compared, the same (the
 *    interpreter's frame lacks the Ethernet header: the socket is made from the whole frame;
 *    with the interpreter's frame the family would be 0, a difference);
 *  - cgroup_skb: the family's test: compared, the same; len and the packet's first byte (the
 *    test run pulls the Ethernet header: len 50 of a 64-byte frame, data at the IP header):
 *    the same, 1 (session 30; the interpreter's r0 was 0 before kdiff.c's l2_skip took
 *    cgroup_skb too);
 *  - XDP: bpf_sk_lookup_tcp, bpf_sk_lookup_udp and bpf_skc_lookup_tcp of the zero tuple (local
 *    port 0, p_sock's): nothing found on both sides, compared (fails without the change); of
 *    local port 22: not compared (a socket of this machine may be found: interp_result.sock_drawn);
 *  - sk_lookup (session 28): its context's fields and ctx->sk summed into a map, r0 the
 *    family's test, on inputs of every byte set (IPv4, IPv6) and a short one: compared, the
 *    same (fails without the change: the kernel oracle did not test-run sk_lookup);
 *  - the kernel's r0 forged (kdiff_opts.forge_retval): a difference, reported.
 * Without bpf() the test skips.
 */
#include <string.h>

#include "oracle/kernel/kdiff.h"
#include "oracle/kernel/kernel.h"
#include "tests/check.h"
#include "tests/kdiff_case.h"

/* skb->sk's fields summed (family 4, src_ip4 24, dst_ip4 52, src_ip6[3] 40, dst_ip6[3] 68,
 * state 72), bpf_sk_fullsock's rx_queue_mapping (76) and type (8), 1000 if bpf_tcp_sock finds
 * it a TCP socket, 2000 if bpf_get_listener_sock a listener; 99 when skb->sk is NULL, 98 when
 * not a full socket.  The sum also in element 0 of map m. */
#define SK_SUM                                                                                  \
	"-- asm\n"                                                                              \
	"r6 = *(u64 *)(r1 +168)\nr0 = 99\nif r6 == 0 goto out\n"                              \
	"r7 = *(u32 *)(r6 +4)\nr8 = *(u32 *)(r6 +24)\nr7 += r8\nr8 = *(u32 *)(r6 +52)\n"       \
	"r7 += r8\nr8 = *(u32 *)(r6 +72)\nr7 += r8\nr8 = *(u32 *)(r6 +40)\nr7 += r8\n"         \
	"r8 = *(u32 *)(r6 +68)\nr7 += r8\nr1 = r6\ncall bpf_sk_fullsock\nr9 = r0\nr0 = 98\n"   \
	"if r9 == 0 goto out\nr8 = *(u32 *)(r9 +76)\nr7 += r8\nr8 = *(u32 *)(r9 +8)\n"         \
	"r7 += r8\nr1 = r9\ncall bpf_tcp_sock\nif r0 == 0 goto t1\nr7 += 1000\n"               \
	"t1: r1 = r9\ncall bpf_get_listener_sock\nif r0 == 0 goto t2\nr7 += 2000\n"            \
	"t2: *(u64 *)(r10 -16) = r7\nr1 = 0\n*(u32 *)(r10 -20) = r1\nr1 = map[fd:0] ll\n"      \
	"r2 = r10\nr2 += -20\nr3 = r10\nr3 += -16\nr4 = 0\ncall bpf_map_update_elem\n"          \
	"r0 = r7\nout: exit\n"                                                                  \
	"-- type\ntc\n-- maps\narray key=4 value=8 entries=1 name=m\n"

/* family * 2^24 + the first two bytes of src_ip4 (a narrow read) */
#define SK_FILTER                                                                               \
	"-- asm\n"                                                                              \
	"r6 = *(u64 *)(r1 +168)\nr0 = 99\nif r6 == 0 goto out\nr0 = *(u32 *)(r6 +4)\n"         \
	"r0 <<= 24\nr7 = *(u16 *)(r6 +24)\nr0 += r7\nout: exit\n"                               \
	"-- type\nsocket\n"

#define SK_CGROUP                                                                               \
	"-- asm\n"                                                                              \
	"r6 = *(u64 *)(r1 +168)\nr0 = 0\nif r6 == 0 goto out\nr7 = *(u32 *)(r6 +4)\n"          \
	"if r7 != 10 goto out\nr0 = 1\nout: exit\n"                                             \
	"-- type\ncgroup_skb\n"

/* cgroup_skb's len and its packet's first byte (session 30: BPF_PROG_TEST_RUN pulls the
 * Ethernet header, kdiff.c l2_skip): r0 = 1 when len is 50 and data[0] 0x45 (a 64-byte IPv4
 * frame's), else 0 */
#define CG_LEN                                                                                  \
	"-- asm\n"                                                                              \
	"r0 = 0\nr5 = *(u32 *)(r1 +0)\nr2 = *(u32 *)(r1 +76)\nr3 = *(u32 *)(r1 +80)\n"         \
	"r4 = r2\nr4 += 1\nif r4 > r3 goto out\nif r5 != 50 goto out\nr4 = *(u8 *)(r2 +0)\n"   \
	"if r4 != 0x45 goto out\nr0 = 1\nout: exit\n"                                             \
	"-- type\ncgroup_skb\n"

/* a lookup (HELPER) of the IPv4 tuple at fp-16, its local port (dport) PORT: r0 = 1 + 2 *
 * family when found (released), else 0 */
#define SK_LOOKUP(HELPER, PORT)                                                                 \
	"-- asm\n"                                                                              \
	"r6 = r1\n*(u64 *)(r10 -16) = 0\n*(u64 *)(r10 -8) = 0\nr1 = " PORT "\n"               \
	"*(u16 *)(r10 -6) = r1\nr1 = r6\nr2 = r10\nr2 += -16\nr3 = 12\nr4 = -1\nr5 = 0\n"      \
	"call " HELPER "\nif r0 == 0 goto out\nr7 = *(u32 *)(r0 +4)\nr1 = r0\n"                \
	"call bpf_sk_release\nr0 = r7\nr0 <<= 1\nr0 += 1\nexit\nout: r0 = 0\nexit\n"          \
	"-- type\nxdp\n"

/* sk_lookup (session 28: BPF_PROG_TEST_RUN runs it on the struct bpf_sk_lookup the oracle makes
 * of the input, interp_sk_lookup_test_ctx): family (8), protocol (12), remote_ip4 (16),
 * remote_ip6[0] (20), remote_port as a u32 (36), local_ip4 (40), local_ip6[3] (56), local_port
 * (60), ingress_ifindex (64) summed, 1000 more when ctx->sk is not NULL, in element 0 of map m;
 * r0 1 for IPv6 */
#define SK_LOOKUP_CTX                                                                           \
	"-- asm\n"                                                                              \
	"r7 = *(u32 *)(r1 +8)\nr2 = *(u32 *)(r1 +12)\nr7 += r2\nr2 = *(u32 *)(r1 +16)\n"       \
	"r7 += r2\nr2 = *(u32 *)(r1 +20)\nr7 += r2\nr2 = *(u32 *)(r1 +36)\nr7 += r2\n"         \
	"r2 = *(u32 *)(r1 +40)\nr7 += r2\nr2 = *(u32 *)(r1 +56)\nr7 += r2\n"                   \
	"r2 = *(u32 *)(r1 +60)\nr7 += r2\nr2 = *(u32 *)(r1 +64)\nr7 += r2\n"                   \
	"r2 = *(u64 *)(r1 +0)\nif r2 == 0 goto nosk\nr7 += 1000\n"                              \
	"nosk: r6 = *(u32 *)(r1 +8)\n*(u64 *)(r10 -16) = r7\nr1 = 0\n*(u32 *)(r10 -20) = r1\n" \
	"r1 = map[fd:0] ll\nr2 = r10\nr2 += -20\nr3 = r10\nr3 += -16\nr4 = 0\n"               \
	"call bpf_map_update_elem\nr0 = 0\nif r6 != 10 goto out\nr0 = 1\nout: exit\n"          \
	"-- type\nsk_lookup\n-- maps\narray key=4 value=8 entries=1 name=m\n"

static uint32_t forged;

static void forge(void *arg, uint32_t *retval)
{
	(void)arg;
	*retval = forged;
}

/* kdiff_run of text on the n-byte frame pkt, the kernel's r0 forged when asked; false when it
 * could not run. */
static bool run(const char *name, const char *text, const uint8_t *pkt, size_t n, bool forge_it,
		struct kdiff_result *res)
{
	if (kdiff_case_ran(res, name, text, pkt, n, forge_it ? forge : NULL))
		return true;
	kdiff_result__free(res);
	return false;
}

/* A run compared and the same on both sides, the kernel's r0 want (maps: maps compared) */
static void same(const char *name, const char *text, const uint8_t *pkt, size_t n,
		 uint32_t want, uint32_t maps)
{
	struct kdiff_result res;

	if (!run(name, text, pkt, n, false, &res))
		return;
	CHECK(!res.nondeterministic && res.kind == KDIFF_AGREE && res.same_retval &&
		      res.kernel_retval == want && res.maps_compared == maps,
	      "%s: compared %d, %s: %s (kernel r0 %u, wanted %u; %u maps compared)", name,
	      !res.nondeterministic, kdiff_kind_name(res.kind), res.text, res.kernel_retval,
	      want, res.maps_compared);
	kdiff_result__free(&res);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int main(void)
{
	uint8_t v4[64] = { 0 }, v6[64] = { 0 }, zero[64] = { 0 };
	struct kdiff_result res;
	char why[256];
	uint32_t base = 7 /* TCP_CLOSE */ + UINT32_MAX /* rx_queue_mapping -1 */;

	if (!kernel_available(why, sizeof(why)))
		return check_skip("test_kdiff_sock", "%s", why);
	/* IPv4: saddr 1.2.3.4, daddr 5.6.7.8; IPv6: saddr bytes 1..16, daddr 17..32 */
	v4[12] = 0x08;
	v4[14] = 0x45;
	for (int k = 0; k < 8; k++)
		v4[26 + k] = (uint8_t)(k + 1);
	v6[12] = 0x86;
	v6[13] = 0xdd;
	v6[14] = 0x60;
	for (int k = 0; k < 32; k++)
		v6[22 + k] = (uint8_t)(k + 1);
	same("tc, IPv4", SK_SUM, v4, sizeof(v4), base + 2 + le32(v4 + 26) + le32(v4 + 30), 1);
	same("tc, IPv6", SK_SUM, v6, sizeof(v6), base + 10 + le32(v6 + 34) + le32(v6 + 50), 1);
	same("tc, no IP", SK_SUM, zero, sizeof(zero), base, 1);
	same("socket filter, IPv4", SK_FILTER, v4, sizeof(v4), (2u << 24) + (le32(v4 + 26) & 0xffff),
	     0);
	same("cgroup_skb, IPv6", SK_CGROUP, v6, sizeof(v6), 1, 0);
	same("cgroup_skb, IPv4", SK_CGROUP, v4, sizeof(v4), 0, 0);
	same("cgroup_skb, len and data[0]", CG_LEN, v4, sizeof(v4), 1, 0);
	same("xdp, bpf_sk_lookup_tcp of port 0", SK_LOOKUP("bpf_sk_lookup_tcp", "0"), v4,
	     sizeof(v4), 0, 0);
	same("xdp, bpf_sk_lookup_udp of port 0", SK_LOOKUP("bpf_sk_lookup_udp", "0"), v4,
	     sizeof(v4), 0, 0);
	same("xdp, bpf_skc_lookup_tcp of port 0", SK_LOOKUP("bpf_skc_lookup_tcp", "0"), v4,
	     sizeof(v4), 0, 0);
	if (run("xdp, bpf_sk_lookup_tcp of port 22", SK_LOOKUP("bpf_sk_lookup_tcp", "0x1600"), v4,
		sizeof(v4), false, &res)) {
		CHECK(res.nondeterministic, "port 22: compared (%s: %s)", kdiff_kind_name(res.kind),
		      res.text);
		kdiff_result__free(&res);
	}
	/* sk_lookup: every byte of the input set (the kernel refuses a context of sk not 0, of
	 * another family, of a local_port past 65535 or a byte past it: the oracle's context
	 * clears them), so the family's other addresses, the padding and ingress_ifindex must
	 * read 0 on both sides; odd family: IPv6 */
	{
		uint8_t in[72];

		for (size_t k = 0; k < sizeof(in); k++)
			in[k] = (uint8_t)(0x11 * (k + 1));
		in[8] = 2;
		same("sk_lookup, IPv4", SK_LOOKUP_CTX, in, sizeof(in), 0, 1);
		in[8] = 3;
		same("sk_lookup, IPv6", SK_LOOKUP_CTX, in, sizeof(in), 1, 1);
		same("sk_lookup, a short input (IPv4)", SK_LOOKUP_CTX, zero, 20, 0, 1);
	}
	forged = 1234;
	if (run("tc, IPv4, the kernel's r0 forged", SK_SUM, v4, sizeof(v4), true, &res)) {
		CHECK(res.kind == KDIFF_RETVAL && !res.same_retval, "forged r0: %s: %s",
		      kdiff_kind_name(res.kind), res.text);
		kdiff_result__free(&res);
	}
	printf("test_kdiff_sock: socket runs compared with the kernel's\n");
	return check_done("test_kdiff_sock");
}
