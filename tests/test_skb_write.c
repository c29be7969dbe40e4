/* Direct packet writes of skb programs (scev/absint_verdict.c, skb_pkt_writable): tc (sched_cls,
 * sched_act), lwt_xmit and sk_skb may write the bytes a check against data_end proved, the other
 * skb types with direct packet access (cgroup_skb, lwt_in, lwt_out) only read them; a helper
 * that may move the packet (bpf_skb_pull_data, bpf_skb_change_tail) kills every packet pointer,
 * so a write through one taken before it is unsafe and one through pointers reloaded and checked
 * again is not; a helper takes a packet pointer only when the kernel's prototype says
 * .pkt_access (HF_PKT_ACCESS).  Each case is held against the kernel's verdict where bpf() is allowed (the kernel
 * accepts what bpfscev calls safe and rejects what it calls unsafe), and programs called safe
 * run without a fault.
 */
#include "oracle/kernel/kernel.h"
#include "tests/check.h"
#include "tests/verdict_case.h"
#include "triage/verdict.h"

/* r2 = data, r3 = data_end of the __sk_buff in r1 (kept in r6), 14 bytes checked */
#define PKT14 "r6 = r1\nr2 = *(u32 *)(r1 +76)\nr3 = *(u32 *)(r1 +80)\nr4 = r2\nr4 += 14\n" \
	      "if r4 > r3 goto out\n"
#define OUT "out: r0 = 0\nexit\n"

static const struct {
	const char *name, *text;
	uint32_t type;
	enum scev_verdict_kind want;
	const char *reason;
} cases[] = {
	{ "tc: a checked byte written", PKT14 "*(u8 *)(r2 +12) = 8\n" OUT,
	  BPF_PROG_TYPE_SCHED_CLS, SAFE, NULL },
	{ "tc: a u16 written past the check", PKT14 "*(u16 *)(r2 +13) = 8\n" OUT,
	  BPF_PROG_TYPE_SCHED_CLS, UNSAFE, "packet access [13, 15)" },
	{ "sched_act: a checked u32 written", PKT14 "*(u32 *)(r2 +8) = 1\n" OUT,
	  BPF_PROG_TYPE_SCHED_ACT, SAFE, NULL },
	{ "lwt_xmit: a checked byte written", PKT14 "*(u8 *)(r2 +0) = 1\n" OUT,
	  BPF_PROG_TYPE_LWT_XMIT, SAFE, NULL },
	{ "sk_skb: a checked byte written", PKT14 "*(u8 *)(r2 +0) = 1\n" OUT,
	  BPF_PROG_TYPE_SK_SKB, SAFE, NULL },
	{ "cgroup_skb: a checked byte written", PKT14 "*(u8 *)(r2 +0) = 1\n" OUT,
	  BPF_PROG_TYPE_CGROUP_SKB, UNSAFE, "cannot write into packet" },
	{ "cgroup_skb: a checked byte read", PKT14 "r0 = *(u8 *)(r2 +0)\n" OUT,
	  BPF_PROG_TYPE_CGROUP_SKB, SAFE, NULL },
	{ "lwt_in: a checked byte written", PKT14 "*(u8 *)(r2 +0) = 1\n" OUT,
	  BPF_PROG_TYPE_LWT_IN, UNSAFE, "cannot write into packet" },
	/* (a helper takes a packet pointer only with the kernel's .pkt_access) */
	{ "tc: bpf_skb_load_bytes into the checked packet", PKT14
	  "r1 = r6\nr3 = r2\nr2 = 0\nr4 = 8\ncall bpf_skb_load_bytes\n" OUT,
	  BPF_PROG_TYPE_SCHED_CLS, UNSAFE, "helper access to the packet" },
	{ "tc: bpf_csum_diff of the checked packet", PKT14
	  "r1 = r2\nr2 = 8\nr3 = 0\nr4 = 0\nr5 = 0\ncall bpf_csum_diff\n" OUT,
	  BPF_PROG_TYPE_SCHED_CLS, SAFE, NULL },
	{ "tc: a write through data after bpf_skb_pull_data", PKT14
	  "r7 = r2\nr1 = r6\nr2 = 0\ncall bpf_skb_pull_data\n*(u8 *)(r7 +0) = 1\n" OUT,
	  BPF_PROG_TYPE_SCHED_CLS, UNSAFE, "not a known pointer" },
	{ "tc: data reloaded and checked after bpf_skb_pull_data, then written", PKT14
	  "r1 = r6\nr2 = 14\ncall bpf_skb_pull_data\nr2 = *(u32 *)(r6 +76)\n"
	  "r3 = *(u32 *)(r6 +80)\nr4 = r2\nr4 += 14\nif r4 > r3 goto out\n*(u32 *)(r2 +10) = 1\n"
	  OUT, BPF_PROG_TYPE_SCHED_CLS, SAFE, NULL },
	{ "tc: data_meta written below data",
	  "r2 = *(u32 *)(r1 +140)\nr3 = *(u32 *)(r1 +76)\nr4 = r2\nr4 += 4\n"
	  "if r4 > r3 goto out\n*(u32 *)(r2 +0) = 1\n" OUT, BPF_PROG_TYPE_SCHED_CLS, SAFE, NULL },
	{ "tc: data_meta written past data",
	  "r2 = *(u32 *)(r1 +140)\nr3 = *(u32 *)(r1 +76)\nr4 = r2\nr4 += 4\n"
	  "if r4 > r3 goto out\n*(u64 *)(r2 +0) = 1\n" OUT, BPF_PROG_TYPE_SCHED_CLS, UNSAFE,
	  "packet metadata access" },
};

int main(void)
{
	bool kernel = verdict_case_kernel("the kernel's verdicts");

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct verdict_opts vo = { .sz = sizeof(vo), .kernel = kernel,
					   .prog_type = cases[k].type };

		verdict_case_run(cases[k].name, cases[k].text, NULL, 0, &vo, (uint8_t)cases[k].want,
				 cases[k].reason, VERDICT_CASE_AGREE);
	}
	return check_done("test_skb_write");
}
