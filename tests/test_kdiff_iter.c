/* The kernel differential on open-coded number and bits iterators (issue 15, kdiff.c
 * iter_run_kfunc):
 * bpf_iter_num_new/next/destroy give the range's values, which the interpreter computes as
 * kernel/bpf/bpf_iter.c does, so a run calling them is compared on r0, the packet and the maps
 * like any other (every kfunc call made a run "nondeterministic" before: iterator programs were
 * judged on the verifier's verdict and logged ranges only).  Checked against the running kernel,
 * r0 = the sum of [start, end) for inputs picking the range from the packet's first bytes:
 *  - an empty, a small, a reversed (-EINVAL: no value) and a 2^23 + 1 (-E2BIG: no value)
 *    range, the loop's sum in a map element too: compared, and the same on both sides (each
 *    fails without the change: not compared);
 *  - the kernel's r0 forged (kdiff_opts.forge_retval): a difference, reported;
 *  - bpf_iter_bits_new/next/destroy over 0 to 2 words the packet gives (the set bits of the
 *    words new copied, as kernel/bpf/helpers.c): no words (-EINVAL), zero words, all ones, a
 *    pattern, 512 words (-E2BIG, before any byte is read): compared, the same on both sides
 *    (each fails without the change: not compared);
 *  - words of stack bytes the program never wrote (the kernel's are what was there): not
 *    compared.
 * Without bpf(), or without vmlinux BTF to name the kfuncs, the test skips.
 */
#include <string.h>

#include "bpf/isa.h"
#include "casefile/casefile.h"
#include "oracle/kernel/kdiff.h"
#include "oracle/kernel/kernel.h"
#include "tests/check.h"
#include "tests/kdiff_case.h"

/* sum of [start, end) of the iterator, start = data[0] - 8 (as s32), end = data[1] | data[2] << 16
 * << 8 (so 2^23 + 1 can be asked); the sum also stored in element 0 of map m */
#define ITER_SUM                                                                                \
	"-- asm\n"                                                                              \
	"r2 = *(u32 *)(r1 +4)\nr1 = *(u32 *)(r1 +0)\nr3 = r1\nr3 += 3\nif r3 > r2 goto out\n"   \
	"r6 = *(u8 *)(r1 +0)\nr6 -= 8\nr7 = *(u8 *)(r1 +1)\nr8 = *(u8 *)(r1 +2)\nr8 <<= 16\n"  \
	"r7 |= r8\nr1 = r10\nr1 += -8\nr2 = r6\nr3 = r7\ncall bpf_iter_num_new\nr9 = r0\n"    \
	"r6 = 0\nl: r1 = r10\nr1 += -8\ncall bpf_iter_num_next\nif r0 == 0 goto done\n"        \
	"r1 = *(s32 *)(r0 +0)\nr6 += r1\ngoto l\n"                                              \
	"done: r1 = r10\nr1 += -8\ncall bpf_iter_num_destroy\n"                                 \
	"*(u64 *)(r10 -16) = r6\nr1 = 0\n*(u32 *)(r10 -20) = r1\nr1 = map[fd:0] ll\n"          \
	"r2 = r10\nr2 += -20\nr3 = r10\nr3 += -16\nr4 = 0\ncall bpf_map_update_elem\n"          \
	"r9 &= 0xff\nr9 <<= 24\nr0 = r6\nr0 ^= r9\nexit\n"                                      \
	"out: r0 = 0\nexit\n"                                                                   \
	"-- type\nxdp\n-- maps\narray key=4 value=8 entries=1 name=m\n"

/* the bits of the words at fp-16 (packet bytes 8 to 23; at fp-32, never written, with WORDS
 * -32), nr_words the packet's first u16: r0 = the sum of the set bits' indexes + 2^16 times
 * their count, new's result in its top byte */
#define ITER_BITS(WORDS)                                                                        \
	"-- asm\n"                                                                              \
	"r2 = *(u32 *)(r1 +4)\nr1 = *(u32 *)(r1 +0)\nr3 = r1\nr3 += 24\nif r3 > r2 goto out\n"  \
	"r6 = *(u64 *)(r1 +8)\n*(u64 *)(r10 -16) = r6\nr6 = *(u64 *)(r1 +16)\n"               \
	"*(u64 *)(r10 -8) = r6\nr3 = *(u16 *)(r1 +0)\nr1 = r10\nr1 += -56\nr2 = r10\n"        \
	"r2 += " WORDS "\ncall bpf_iter_bits_new\nr9 = r0\nr6 = 0\nr7 = 0\n"                 \
	"l: r1 = r10\nr1 += -56\ncall bpf_iter_bits_next\nif r0 == 0 goto done\n"             \
	"r1 = *(u32 *)(r0 +0)\nr6 += r1\nr7 += 1\ngoto l\n"                                    \
	"done: r1 = r10\nr1 += -56\ncall bpf_iter_bits_destroy\nr7 <<= 16\nr0 = r6\n"        \
	"r0 += r7\nr9 &= 0xff\nr9 <<= 24\nr0 ^= r9\nexit\n"                                    \
	"out: r0 = 0\nexit\n"                                                                   \
	"-- type\nxdp\n"

static uint32_t forged;

static void forge(void *arg, uint32_t *retval)
{
	(void)arg;
	*retval = forged;
}

/* kdiff_run of text on the 64-byte packet pkt, the kernel's r0 forged when asked; false when it
 * could not run. */
static bool run_pkt(const char *name, const char *text, uint8_t *pkt, bool forge_it,
		    struct kdiff_result *res)
{
	return kdiff_case_ran(res, name, text, pkt, 64, forge_it ? forge : NULL);
}

/* run_pkt on a packet of bytes b0, b1, b2, then zeros */
static bool run(const char *name, const char *text, uint8_t b0, uint8_t b1, uint8_t b2,
		bool forge_it, struct kdiff_result *res)
{
	uint8_t pkt[64] = { b0, b1, b2 };

	return run_pkt(name, text, pkt, forge_it, res);
}

/* The bits iterator's runs: each compared and the same, r0 the one wanted; then words of
 * unwritten stack bytes, not compared. */
static void bits_cases(void)
{
	static const struct {
		const char *name;
		uint16_t nr_words;
		uint64_t w[2];
		uint32_t want;
	} cases[] = {
		{ "bits: no words (-EINVAL)", 0, { 1, 1 }, (uint32_t)((-22 & 0xff) << 24) },
		{ "bits: a zero word", 1, { 0, ~0ull }, 0 },
		{ "bits: two words of ones", 2, { ~0ull, ~0ull }, (128u << 16) + 127 * 128 / 2 },
		{ "bits: 0, 63 and 68", 2, { 1ull << 63 | 1, 1ull << 4 }, (3u << 16) + 131 },
		{ "bits: 512 words (-E2BIG)", 512, { 1, 1 }, (uint32_t)((-7 & 0xff) << 24) },
	};
	struct kdiff_result res;
	uint8_t pkt[64];

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		memset(pkt, 0, sizeof(pkt));
		memcpy(pkt, &cases[k].nr_words, 2);
		memcpy(pkt + 8, cases[k].w, 16);
		if (!run_pkt(cases[k].name, ITER_BITS("-16"), pkt, false, &res))
			continue;
		CHECK(!res.nondeterministic && res.kind == KDIFF_AGREE && res.same_retval &&
			      res.kernel_retval == cases[k].want,
		      "%s: compared %d, %s: %s (kernel r0 %#x, wanted %#x)", cases[k].name,
		      !res.nondeterministic, kdiff_kind_name(res.kind), res.text,
		      res.kernel_retval, cases[k].want);
		kdiff_result__free(&res);
	}
	memset(pkt, 0, sizeof(pkt));
	pkt[0] = 2;
	if (run_pkt("bits: unwritten words", ITER_BITS("-32"), pkt, false, &res)) {
		CHECK(res.nondeterministic, "bits: unwritten words: compared (%s: %s)",
		      kdiff_kind_name(res.kind), res.text);
		kdiff_result__free(&res);
	}
}

int main(void)
{
	static const struct {
		const char *name;
		uint8_t b[3];
		uint32_t want;	/* the kernel's r0 */
	} cases[] = {
		{ "empty [0, 0)", { 8, 0, 0 }, 0 },
		{ "small [-3, 5)", { 5, 5, 0 }, (uint32_t)(-3 - 2 - 1 + 0 + 1 + 2 + 3 + 4) },
		{ "reversed [7, 2): -EINVAL", { 15, 2, 0 }, (uint32_t)((-22 & 0xff) << 24) },
		{ "2^23 + 1 values: -E2BIG", { 8, 1, 0x80 }, (uint32_t)((-7 & 0xff) << 24) },
	};
	char why[256];
	struct kdiff_result res;

	if (!kernel_available(why, sizeof(why)))
		return check_skip("test_kdiff_iter", "%s", why);
	if (!ebpf_kfunc_btf_available())
		return check_skip("test_kdiff_iter", "no vmlinux BTF: the kfuncs cannot be named");
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		if (!run(cases[k].name, ITER_SUM, cases[k].b[0], cases[k].b[1], cases[k].b[2], false,
			 &res))
			continue;
		CHECK(!res.nondeterministic && res.kind == KDIFF_AGREE && res.same_retval &&
			      res.kernel_retval == cases[k].want && res.maps_compared == 1,
		      "%s: compared %d, %s: %s (kernel r0 %#x, wanted %#x; %u maps compared)",
		      cases[k].name, !res.nondeterministic, kdiff_kind_name(res.kind), res.text,
		      res.kernel_retval, cases[k].want, res.maps_compared);
		kdiff_result__free(&res);
	}
	forged = 1234;
	if (run("small, the kernel's r0 forged", ITER_SUM, 5, 5, 0, true, &res)) {
		CHECK(res.kind == KDIFF_RETVAL && !res.same_retval, "forged r0: %s: %s",
		      kdiff_kind_name(res.kind), res.text);
		kdiff_result__free(&res);
	}
	if (ebpf_kfunc_by_name("bpf_iter_bits_new") > 0)
		bits_cases();
	printf("test_kdiff_iter: iterator runs compared with the kernel's\n");
	return check_done("test_kdiff_iter");
}
