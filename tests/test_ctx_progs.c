/* Sleepable programs' helpers and sock_ops' socket and header options (issue 15, session 30;
 * scev/absint_verdict.c prog_sleepable, scev/absint_transfer.c ctx_load, bpf/prog.h
 * ebpf_ctx_ro_pkt), the kernel as the judge where bpf() is allowed:
 *  - the clang-built tests/bpf/ctx_progs.o: bpf_copy_from_user from a uprobe.s program (loaded
 *    sleepable: safe; unsupported before, "whether this program is sleepable is not modeled")
 *    and from a uprobe and a kprobe program (not sleepable: unsafe, as the kernel's "helper call
 *    might sleep in a non-sleepable prog"); a sock_ops program giving skops->sk to
 *    bpf_sk_storage_get after its NULL test and reading the header options' bytes (safe;
 *    unsupported before: sk was loaded as a number), its twin reading sk before the test;
 *  - case-file programs: sock_ops' sk read as a u32 (the kernel: a whole u64 only), its header
 *    options read past skb_data_end or read narrower, bpf_copy_from_user in a sock_ops and an
 *    XDP program (never sleepable: unsafe, the kernel refuses it; unsupported before).
 * Every program called safe is also run (verdict_compare: no fault, the sockets drawn).
 */
#include <stdio.h>

#include "tests/check.h"
#include "tests/verdict_case.h"

static void test_object(bool kernel)
{
	static const char *const progs[] = {
		"uprobe_sleep_copy", "uprobe_copy", "kprobe_copy", "sockops_storage",
		"sockops_unchecked",
	};
	static const enum scev_verdict_kind want[] = { SAFE, UNSAFE, UNSAFE, SAFE, UNSAFE };
	static const char *const reasons[] = {
		NULL, "might sleep in a non-sleepable prog", "might sleep in a non-sleepable prog",
		NULL, "not a known pointer",
	};
	char path[1024];

	if (!verdict_case_bpf_part("ctx_progs.o", path, sizeof(path)))
		return;
	verdict_case_object_why(path, progs, want, reasons, sizeof(progs) / sizeof(progs[0]),
				kernel);
}

/* r2 skb_data, r3 skb_data_end of sock_ops, 4 bytes checked (else to out) */
#define PKT4 "r2 = *(u64 *)(r1 +192)\nr3 = *(u64 *)(r1 +200)\nr4 = r2\nr4 += 4\n" \
	     "if r4 > r3 goto out\n"
#define CASE(type, body) "-- type\n" type "\n-- asm\n" body

static const struct verdict_case_row cases[] = {
	{ "sock_ops: sk read as a u32",
	  CASE("sock_ops", "r2 = *(u32 *)(r1 +184)\nr0 = 1\nexit\n"), UNSAFE, "read narrower",
	  VC_BOTH_REJECT },
	{ "sock_ops: the socket's family after the NULL test",
	  CASE("sock_ops", "r2 = *(u64 *)(r1 +184)\nif r2 == 0 goto out\nr3 = *(u32 *)(r2 +4)\n"
	       "out: r0 = 1\nexit\n"), SAFE, NULL, VC_BOTH_ACCEPT },
	{ "sock_ops: bpf_skc_to_tcp_sock of sk, its snd_cwnd",
	  CASE("sock_ops", "r1 = *(u64 *)(r1 +184)\nif r1 == 0 goto out\n"
	       "call bpf_skc_to_tcp_sock\nif r0 == 0 goto out\nr3 = *(u32 *)(r0 +0)\n"
	       "out: r0 = 1\nexit\n"), SAFE, NULL, VC_BOTH_ACCEPT },
	{ "sock_ops: bpf_skc_to_tcp_sock of sk before its NULL test",
	  CASE("sock_ops", "r1 = *(u64 *)(r1 +184)\ncall bpf_skc_to_tcp_sock\nr0 = 1\nexit\n"),
	  UNSAFE, "NULL", VC_BOTH_REJECT },
	{ "sock_ops: the header options read below skb_data_end",
	  CASE("sock_ops", PKT4 "r0 = *(u32 *)(r2 +0)\nout: r0 = 1\nexit\n"), SAFE, NULL,
	  VC_BOTH_ACCEPT },
	{ "sock_ops: the header options read one byte past skb_data_end",
	  CASE("sock_ops", PKT4 "r0 = *(u32 *)(r2 +1)\nout: r0 = 1\nexit\n"), UNSAFE,
	  "not proven below data_end", VC_BOTH_REJECT },
	{ "sock_ops: skb_data read as a u32",
	  CASE("sock_ops", "r2 = *(u32 *)(r1 +192)\nr0 = 1\nexit\n"), UNSAFE, "read narrower",
	  VC_BOTH_REJECT },
	{ "sock_ops: bpf_copy_from_user (never sleepable)",
	  CASE("sock_ops", "r1 = r10\nr1 += -8\nr2 = 8\nr3 = 0\ncall bpf_copy_from_user\n"
	       "r0 = 1\nexit\n"), UNSAFE, "might sleep", VC_BOTH_REJECT },
	{ "xdp: bpf_copy_from_user",
	  CASE("xdp", "r1 = r10\nr1 += -8\nr2 = 8\nr3 = 0\ncall bpf_copy_from_user\n"
	       "r0 = 1\nexit\n"), UNSAFE, "might sleep", VC_BOTH_REJECT },
};

int main(void)
{
	bool kernel = verdict_case_kernel("the kernel's verdicts");
	struct verdict_opts vo = { .sz = sizeof(vo), .kernel = kernel };

	test_object(kernel);
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		verdict_case_file(cases[k].name, cases[k].text, &vo, (uint8_t)cases[k].want,
				  cases[k].reason, cases[k].kclass);
	printf("test_ctx_progs: %zu cases and the clang-built object\n",
	       sizeof(cases) / sizeof(cases[0]));
	return check_done("test_ctx_progs");
}
