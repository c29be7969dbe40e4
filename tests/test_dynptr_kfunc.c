/* The dynptr kfuncs in the interpreter, judged by the kernel (kdiff.c: a run calling them is
 * compared on r0, the packet and the maps): bpf_dynptr_from_skb in a tc program (writable) and a
 * socket filter (read-only: bpf_dynptr_from_skb_rdonly), bpf_dynptr_from_xdp, each with flags 0
 * and 1 (a NULL dynptr, -EINVAL), then is_null, is_rdonly, adjust to [3, 40), size, clone, an
 * adjust of the clone with start > end (-EINVAL, the clone's view kept), a 4-byte slice of the
 * clone read, a slice past its end (NULL), bpf_dynptr_read of 4 bytes and bpf_dynptr_write of 2
 * (-EINVAL when read-only: the packet unchanged), their results packed into r0 and a map value.
 * Each must be compared (not "nondeterministic"), agree, and give the kernel's r0 this test
 * expects; without the interpreter's dynptr kfuncs (interp.c dp_kfunc) no run is compared.
 * Without bpf(), or without vmlinux BTF to name the kfuncs, the test skips.
 */
#include <stdio.h>
#include <string.h>

#include "bpf/isa.h"
#include "oracle/kernel/kdiff.h"
#include "oracle/kernel/kernel.h"
#include "tests/check.h"
#include "tests/kdiff_case.h"

/* r7: from's result (low byte), is_null << 8, is_rdonly << 9, adjust's << 16, size's << 24,
 * clone's << 32, the clone's bad adjust's << 40, write's << 48 (each a low byte); the map value
 * r7, the slice's word (0x7777 for NULL) | the past-the-end slice's NULL test << 32, and what
 * bpf_dynptr_read read (or its result's low byte << 32). */
#define KF_PROG(from, flags, type)                                                              \
	"-- asm\n"                                                                              \
	"r6 = r1\nr1 = r6\nr2 = " #flags "\nr3 = r10\nr3 += -16\ncall " from "\n"               \
	"r7 = r0\nr7 &= 0xff\n"                                                                 \
	"r1 = r10\nr1 += -16\ncall bpf_dynptr_is_null\nr0 &= 1\nr0 <<= 8\nr7 |= r0\n"          \
	"r1 = r10\nr1 += -16\ncall bpf_dynptr_is_rdonly\nr0 &= 1\nr0 <<= 9\nr7 |= r0\n"        \
	"r1 = r10\nr1 += -16\nr2 = 3\nr3 = 40\ncall bpf_dynptr_adjust\n"                        \
	"r0 &= 0xff\nr0 <<= 16\nr7 |= r0\n"                                                     \
	"r1 = r10\nr1 += -16\ncall bpf_dynptr_size\nr0 &= 0xff\nr0 <<= 24\nr7 |= r0\n"         \
	"r1 = r10\nr1 += -16\nr2 = r10\nr2 += -32\ncall bpf_dynptr_clone\n"                     \
	"r0 &= 0xff\nr0 <<= 32\nr7 |= r0\n"                                                     \
	"r1 = r10\nr1 += -32\nr2 = 2\nr3 = 1\ncall bpf_dynptr_adjust\n"                         \
	"r0 &= 0xff\nr0 <<= 40\nr7 |= r0\n"                                                     \
	"r1 = r10\nr1 += -32\nr2 = 1\nr3 = 0\nr4 = 4\ncall bpf_dynptr_slice\n"                  \
	"r8 = 0x7777\nif r0 == 0 goto s1\nr8 = *(u32 *)(r0 +0)\n"                               \
	"s1: r1 = r10\nr1 += -32\nr2 = 35\nr3 = 0\nr4 = 4\ncall bpf_dynptr_slice\n"            \
	"if r0 != 0 goto s2\nr1 = 1\nr1 <<= 32\nr8 |= r1\n"                                     \
	"s2: r1 = 0x5aa5\n*(u64 *)(r10 -40) = r1\n"                                             \
	"r1 = r10\nr1 += -16\nr2 = 0\nr3 = r10\nr3 += -40\nr4 = 2\nr5 = 0\n"                   \
	"call bpf_dynptr_write\nr0 &= 0xff\nr0 <<= 48\nr7 |= r0\n"                              \
	"r1 = 0\n*(u64 *)(r10 -48) = r1\n"                                                      \
	"r1 = r10\nr1 += -48\nr2 = 4\nr3 = r10\nr3 += -32\nr4 = 8\nr5 = 0\n"                   \
	"call bpf_dynptr_read\nr9 = *(u64 *)(r10 -48)\nr0 &= 0xff\nr0 <<= 32\nr9 |= r0\n"      \
	"*(u64 *)(r10 -72) = r7\n*(u64 *)(r10 -64) = r8\n*(u64 *)(r10 -56) = r9\n"              \
	"r1 = 0\n*(u32 *)(r10 -76) = r1\nr1 = map[fd:0] ll\nr2 = r10\nr2 += -76\n"              \
	"r3 = r10\nr3 += -72\nr4 = 0\ncall bpf_map_update_elem\n"                               \
	"r0 = r7\nexit\n"                                                                       \
	"-- type\n" type "\n-- maps\narray key=4 value=24 entries=1 name=m\n"

int main(void)
{
	/* the kernel's r0 (r7's low 32 bits): a 64-byte packet, 50 bytes of it a socket
	 * filter's (after the Ethernet header); adjust to [3, 40) leaves 37 (0x25) */
	static const struct {
		const char *name, *text;
		uint32_t want;
	} cases[] = {
		{ "from_skb, tc", KF_PROG("bpf_dynptr_from_skb", 0, "tc"), 0x25000000u },
		{ "from_skb, socket (read-only)", KF_PROG("bpf_dynptr_from_skb", 0, "socket"),
		  0x25000200u },
		{ "from_xdp", KF_PROG("bpf_dynptr_from_xdp", 0, "xdp"), 0x25000000u },
		/* (flags: a NULL dynptr; -EINVAL everywhere, size's -EINVAL as a u32) */
		{ "from_skb flags 1, tc", KF_PROG("bpf_dynptr_from_skb", 1, "tc"), 0xeaea01eau },
		{ "from_xdp flags 1", KF_PROG("bpf_dynptr_from_xdp", 1, "xdp"), 0xeaea01eau },
	};
	uint8_t pkt[64];
	char why[256];
	struct kdiff_result res;

	if (!kernel_available(why, sizeof(why)))
		return check_skip("test_dynptr_kfunc", "%s", why);
	if (!ebpf_kfunc_btf_available() || ebpf_kfunc_by_name("bpf_dynptr_from_skb") <= 0)
		return check_skip("test_dynptr_kfunc", "no vmlinux BTF naming the dynptr kfuncs");
	for (unsigned k = 0; k < sizeof(pkt); k++)
		pkt[k] = (uint8_t)(7 * k + 1);
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct kdiff_opts ko = { .sz = sizeof(ko), .input = pkt, .input_len = sizeof(pkt),
					 .check_runs = 4 };

		if (!kdiff_case(&res, cases[k].name, cases[k].text, &ko))
			continue;
		CHECK(res.accepted && res.ran, "%s: accepted %d, ran %d: %s", cases[k].name,
		      res.accepted, res.ran, res.accepted ? res.text : res.message);
		CHECK(!res.nondeterministic && res.kind == KDIFF_AGREE && res.same_retval &&
			      res.same_packet && res.kernel_retval == cases[k].want &&
			      res.maps_compared == 1,
		      "%s: compared %d, %s: %s (kernel r0 %#x, wanted %#x; %u maps compared)",
		      cases[k].name, !res.nondeterministic, kdiff_kind_name(res.kind), res.text,
		      res.kernel_retval, cases[k].want, res.maps_compared);
		kdiff_result__free(&res);
	}
	printf("test_dynptr_kfunc: dynptr kfunc runs compared with the kernel's\n");
	return check_done("test_dynptr_kfunc");
}
