/* Socket-map lookups, sk_lookup and sk_reuseport programs (issue 15; scev/absint_ref.c,
 * bpf/object.c's sk_lookup_load and sk_reuseport_load, oracle/exec/interp.c ctx_ro_sock), the
 * kernel as the judge where bpf() is allowed:
 *  - the clang-built tests/bpf/sock_progs.o: each program's verdict and reason, and the kernel's
 *    agreement (verdicts only: the kernel runs an sk_reuseport program only at a reuseport
 *    group's lookup; sk_lookup's test runs are compared in test_kdiff_sock);
 *  - case-file programs for what clang rarely writes on its own: a socket map's lookup whose map
 *    the call's block does not load (unsupported), a second release, a use after the release,
 *    bpf_sk_assign of sk_lookup given a scalar, a stack pointer or a released socket, a
 *    reuseport array given to map helpers (the kernel: only bpf_sk_select_reuseport), and the
 *    read-only contexts written; sk_reuseport's packet (data, data_end: read only, within
 *    what a test of data_end proved, the helpers' memory only through bpf_skb_load_bytes).
 * Every program called safe is also run (verdict_compare: no fault, the sockets drawn).
 */
#include <stdio.h>
#include <string.h>

#include "casefile/casefile.h"
#include "oracle/exec/check.h"
#include "scev/scev.h"
#include "tests/check.h"
#include "tests/verdict_case.h"

static void test_object(bool kernel)
{
	static const char *const progs[] = {
		"map_lookup_release", "map_lookup_leak", "map_lookup_unchecked", "lookup_assign",
		"lookup_assign_null", "lookup_assign_leak", "lookup_ret_protocol",
		"reuseport_select", "reuseport_select_map", "reuseport_migrating_unchecked",
	};
	static const enum scev_verdict_kind want[] = {
		SAFE, UNSAFE, UNSAFE, SAFE, SAFE, UNSAFE, UNSAFE, SAFE, SAFE, UNSAFE,
	};
	static const char *const reasons[] = {
		NULL, "Unreleased reference", "may be NULL", NULL, NULL, "Unreleased reference",
		"should have been in [0, 1]", NULL, NULL, "may be NULL",
	};
	char path[1024];

	if (!verdict_case_bpf_part("sock_progs.o", path, sizeof(path)))
		return;
	verdict_case_object_why(path, progs, want, reasons, sizeof(progs) / sizeof(progs[0]),
				kernel);
}

#define MAPS "-- maps\nsockmap key=4 value=8 entries=2 name=smap\n"                             \
	     "sockhash key=4 value=8 entries=2 name=shash\n"                                     \
	     "reuseport_sockarray key=4 value=8 entries=2 name=rarr\n"
/* r6 the context; r0 a lookup in map N with the key 0 at fp-4 */
#define LOOKUP(n) "r6 = r1\n*(u32 *)(r10 -4) = 0\nr2 = r10\nr2 += -4\nr1 = map[fd:" #n "] ll\n" \
		  "call bpf_map_lookup_elem\n"
/* r2 data, r3 data_end of sk_reuseport, 4 bytes checked (else to out) */
#define PKT4 "r2 = *(u64 *)(r1 +0)\nr3 = *(u64 *)(r1 +8)\nr4 = r2\nr4 += 4\n" \
	     "if r4 > r3 goto out\n"
#define CASE(type, body) "-- type\n" type "\n" MAPS "-- asm\n" body

static const struct verdict_case_row cases[] = {
	{ "sockhash lookup, released after the NULL test (tc)",
	  CASE("tc", LOOKUP(1) "if r0 == 0 goto out\nr7 = *(u32 *)(r0 +4)\nr1 = r0\n"
	       "call bpf_sk_release\nout: r0 = 0\nexit\n"), SAFE, NULL, VC_BOTH_ACCEPT },
	{ "sockmap lookup whose map register is set in another block",
	  CASE("xdp", "*(u32 *)(r10 -4) = 0\nr2 = r10\nr2 += -4\nr1 = map[fd:0] ll\n"
	       "if r2 == 0 goto next\nnext: call bpf_map_lookup_elem\nif r0 == 0 goto out\n"
	       "r1 = r0\ncall bpf_sk_release\nout: r0 = 2\nexit\n"), UNSUPPORTED,
	  "does not load into r1", VC_REGRESSION },
	{ "sockmap lookup released twice",
	  CASE("xdp", LOOKUP(0) "if r0 == 0 goto out\nr7 = r0\nr1 = r0\ncall bpf_sk_release\n"
	       "r1 = r7\ncall bpf_sk_release\nout: r0 = 2\nexit\n"), UNSAFE, "not a socket",
	  VC_BOTH_REJECT },
	{ "sockmap lookup read through a spilled copy after the release",
	  CASE("xdp", LOOKUP(0) "if r0 == 0 goto out\n*(u64 *)(r10 -16) = r0\nr1 = r0\n"
	       "call bpf_sk_release\nr7 = *(u64 *)(r10 -16)\nr7 = *(u32 *)(r7 +4)\n"
	       "out: r0 = 2\nexit\n"), UNSAFE, "not a known pointer", VC_BOTH_REJECT },
	{ "sockmap lookup in a loop, released each round",
	  CASE("xdp", "r8 = 0\nl: *(u32 *)(r10 -4) = 0\nr2 = r10\nr2 += -4\nr1 = map[fd:0] ll\n"
	       "call bpf_map_lookup_elem\nif r0 == 0 goto n\nr1 = r0\ncall bpf_sk_release\n"
	       "n: r8 += 1\nif r8 < 3 goto l\nr0 = 2\nexit\n"), SAFE, NULL, VC_BOTH_ACCEPT },
	{ "sockmap lookup from a socket filter: no bpf_sk_release there",
	  CASE("socket", LOOKUP(0) "if r0 == 0 goto out\nr1 = r0\ncall bpf_sk_release\n"
	       "out: r0 = 0\nexit\n"), UNSAFE, "cannot use helper bpf_sk_release", VC_BOTH_REJECT },
	{ "sk_lookup: bpf_sk_assign of NULL",
	  CASE("sk_lookup", "r2 = 0\nr3 = 0\ncall bpf_sk_assign\nr0 = 1\nexit\n"), SAFE, NULL,
	  VC_BOTH_ACCEPT },
	{ "sk_lookup: bpf_sk_assign of the lookup's socket before its NULL test",
	  CASE("sk_lookup", LOOKUP(0) "r7 = r0\nr1 = r6\nr2 = r7\nr3 = 0\ncall bpf_sk_assign\n"
	       "if r7 == 0 goto out\nr1 = r7\ncall bpf_sk_release\nout: r0 = 1\nexit\n"), SAFE,
	  NULL, VC_BOTH_ACCEPT },
	{ "sk_lookup: bpf_sk_assign of a number",
	  CASE("sk_lookup", "r2 = 5\nr3 = 0\ncall bpf_sk_assign\nr0 = 1\nexit\n"), UNSAFE,
	  "expected=sock", VC_BOTH_REJECT },
	{ "sk_lookup: bpf_sk_assign of a stack pointer",
	  CASE("sk_lookup", "r2 = r10\nr2 += -8\nr3 = 0\ncall bpf_sk_assign\nr0 = 1\nexit\n"),
	  UNSAFE, "expected=sock", VC_BOTH_REJECT },
	{ "sk_lookup: bpf_sk_assign of a released socket",
	  CASE("sk_lookup", LOOKUP(0) "if r0 == 0 goto out\nr7 = r0\nr1 = r0\n"
	       "call bpf_sk_release\nr1 = r6\nr2 = r7\nr3 = 0\ncall bpf_sk_assign\n"
	       "out: r0 = 1\nexit\n"), UNSAFE, "expected=sock", VC_BOTH_REJECT },
	{ "sk_lookup: ctx->sk released (no lookup acquired it)",
	  CASE("sk_lookup", "r2 = *(u64 *)(r1 +0)\nif r2 == 0 goto out\nr1 = r2\n"
	       "call bpf_sk_release\nout: r0 = 1\nexit\n"), UNSAFE, "must be referenced",
	  VC_BOTH_REJECT },
	{ "sk_lookup: ctx->sk read as a u32",
	  CASE("sk_lookup", "r2 = *(u32 *)(r1 +0)\nr0 = 1\nexit\n"), UNSAFE, "whole u64",
	  VC_BOTH_REJECT },
	{ "sk_lookup: a field written",
	  CASE("sk_lookup", "*(u32 *)(r1 +60) = 0\nr0 = 1\nexit\n"), UNSAFE, "read-only",
	  VC_BOTH_REJECT },
	{ "sk_lookup: bpf_sk_lookup_tcp (not an sk_lookup helper)",
	  CASE("sk_lookup", "*(u64 *)(r10 -16) = 0\n*(u64 *)(r10 -8) = 0\nr2 = r10\n"
	       "r2 += -16\nr3 = 12\nr4 = -1\nr5 = 0\ncall bpf_sk_lookup_tcp\nr0 = 1\nexit\n"),
	  UNSAFE, "cannot use helper", VC_BOTH_REJECT },
	{ "sk_reuseport: bpf_sk_select_reuseport of a sockhash",
	  CASE("sk_reuseport", "*(u32 *)(r10 -4) = 0\nr3 = r10\nr3 += -4\nr2 = map[fd:1] ll\n"
	       "r4 = 0\ncall bpf_sk_select_reuseport\nr0 = 1\nexit\n"), SAFE, NULL,
	  VC_BOTH_ACCEPT },
	{ "sk_reuseport: a lookup in the reuseport array",
	  CASE("sk_reuseport", "*(u32 *)(r10 -4) = 0\nr2 = r10\nr2 += -4\nr1 = map[fd:2] ll\n"
	       "call bpf_map_lookup_elem\nr0 = 1\nexit\n"), UNSAFE, "cannot be used with",
	  VC_BOTH_REJECT },
	{ "xdp: a delete from the reuseport array",
	  CASE("xdp", "*(u32 *)(r10 -4) = 0\nr2 = r10\nr2 += -4\nr1 = map[fd:2] ll\n"
	       "call bpf_map_delete_elem\nr0 = 2\nexit\n"), UNSAFE, "cannot be used with",
	  VC_BOTH_REJECT },
	{ "sk_reuseport: a packet read below data_end",
	  CASE("sk_reuseport", PKT4 "r0 = *(u32 *)(r2 +0)\nout: r0 = 1\nexit\n"), SAFE, NULL,
	  VC_BOTH_ACCEPT },
	{ "sk_reuseport: a packet read one byte past data_end",
	  CASE("sk_reuseport", PKT4 "r0 = *(u32 *)(r2 +1)\nout: r0 = 1\nexit\n"), UNSAFE,
	  "not proven below data_end", VC_BOTH_REJECT },
	{ "sk_reuseport: a packet read without a test of data_end",
	  CASE("sk_reuseport", "r2 = *(u64 *)(r1 +0)\nr0 = *(u8 *)(r2 +0)\nexit\n"), UNSAFE,
	  "not proven below data_end", VC_BOTH_REJECT },
	{ "sk_reuseport: a packet write (read only)",
	  CASE("sk_reuseport", PKT4 "*(u8 *)(r2 +0) = 1\nout: r0 = 1\nexit\n"), UNSAFE,
	  "cannot write into packet", VC_BOTH_REJECT },
	{ "sk_reuseport: an atomic on the packet",
	  CASE("sk_reuseport", PKT4 "r5 = 1\nlock *(u32 *)(r2 +0) += r5\nout: r0 = 1\nexit\n"),
	  UNSAFE, "atomic", VC_BOTH_REJECT },
	{ "sk_reuseport: bpf_skb_load_bytes into the stack",
	  CASE("sk_reuseport", "r2 = 0\nr3 = r10\nr3 += -8\nr4 = 8\ncall bpf_skb_load_bytes\n"
	       "r0 = *(u64 *)(r10 -8)\nexit\n"), SAFE, NULL, VC_BOTH_ACCEPT },
	{ "sk_reuseport: bpf_skb_load_bytes into the packet",
	  CASE("sk_reuseport", "r6 = r1\n" PKT4 "r1 = r6\nr3 = r2\nr2 = 0\nr4 = 4\n"
	       "call bpf_skb_load_bytes\nout: r0 = 1\nexit\n"), UNSAFE,
	  "helper access to the packet", VC_BOTH_REJECT },
	{ "sk_reuseport: data read as a u32",
	  CASE("sk_reuseport", "r2 = *(u32 *)(r1 +0)\nr0 = 1\nexit\n"), UNSAFE, "narrower",
	  VC_BOTH_REJECT },
	{ "sk_reuseport: hash read as a u16",
	  CASE("sk_reuseport", "r2 = *(u16 *)(r1 +32)\nr0 = 1\nexit\n"), UNSAFE, "whole u32",
	  VC_BOTH_REJECT },
	{ "sk_reuseport: the socket's field (sk is never NULL)",
	  CASE("sk_reuseport", "r2 = *(u64 *)(r1 +40)\nr0 = *(u32 *)(r2 +4)\nexit\n"), SAFE, NULL,
	  VC_BOTH_ACCEPT },
};

/* The claim checker's runs (oracle_check, inputs drawn): an sk_lookup program's input is its
 * whole context (reading ingress_ifindex at 64 traps in no run; every run trapped when the
 * input was 64 bytes), an sk_reuseport one's its context then a 64-byte packet, which the loop
 * over the packet walks 16 times in some run (its claims held, data_end's base the packet's
 * end: no finding). */
static void checker_run(const char *name, const char *text, uint64_t least_trip)
{
	struct scev_opts so = { .sz = sizeof(so) };
	struct check_opts co = { .sz = sizeof(co), .seed = 7 };
	struct casefile *cf = NULL;
	struct check_result res;
	struct claim_prog cp;
	struct diag d;

	diag_clear(&d);
	if (casefile__open_mem(&cf, text, strlen(text), name, &d)) {
		CHECK(0, "%s: %s", name, d.msg);
		return;
	}
	if (scev_analyze(&cp, &cf->obj->progs[0], cf->obj->maps, cf->obj->map_cnt, &so, &d)) {
		CHECK(0, "%s: %s", name, d.msg);
		casefile__free(cf);
		return;
	}
	if (oracle_check(&res, cf->obj, &cf->obj->progs[0], &cp, &co) == 0) {
		CHECK(res.traps == 0 && res.nfindings == 0, "%s: %llu of %llu runs trapped, %u "
		      "findings (%s)", name, (unsigned long long)res.traps,
		      (unsigned long long)res.runs, res.nfindings,
		      res.nfindings ? res.findings[0].text : "");
		CHECK(!least_trip || (res.nloops == 1 && res.max_trip[0] >= least_trip),
		      "%s: the loop ran %llu times at most, wanted %llu", name,
		      res.nloops ? (unsigned long long)res.max_trip[0] : 0ull,
		      (unsigned long long)least_trip);
		check_result__free(&res);
	} else {
		CHECK(0, "%s: the check failed", name);
	}
	claim_prog__free(&cp);
	casefile__free(cf);
}

int main(void)
{
	bool kernel = verdict_case_kernel("the kernel's verdicts");
	struct verdict_opts vo = { .sz = sizeof(vo), .kernel = kernel };

	test_object(kernel);
	checker_run("sk_lookup: ingress_ifindex read",
		    "-- type\nsk_lookup\n-- asm\nr2 = *(u32 *)(r1 +64)\nr0 = 1\nexit\n", 0);
	checker_run("sk_reuseport: a loop over the packet",
		    "-- type\nsk_reuseport\n-- asm\nr2 = *(u64 *)(r1 +0)\nr3 = *(u64 *)(r1 +8)\n"
		    "r0 = 0\nr5 = 0\nl: r4 = r2\nr4 += 1\nif r4 > r3 goto out\n"
		    "r6 = *(u8 *)(r2 +0)\nr0 += r6\nr2 = r4\nr5 += 1\nif r5 < 16 goto l\n"
		    "out: exit\n", 16);
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		verdict_case_file(cases[k].name, cases[k].text, &vo, (uint8_t)cases[k].want,
				  cases[k].reason, cases[k].kclass);
	printf("test_sock_progs: %zu cases and the clang-built object\n",
	       sizeof(cases) / sizeof(cases[0]));
	return check_done("test_sock_progs");
}
