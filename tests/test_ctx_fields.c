/* The sock_ops (struct bpf_sock_ops) and cgroup_sock (struct bpf_sock) contexts, the xdp_md of
 * XDP, the __sk_buff of the eight skb types, sk_lookup's struct bpf_sk_lookup and sk_reuseport's
 * struct sk_reuseport_md against the kernel's is_valid_access: for every
 * offset from 8 bytes before the structure to 8 past it and every access size, a load, a
 * register store (BPF_STX) and an immediate store (BPF_ST) of the context are verified by
 * bpfscev and loaded into the kernel; the two must agree (both accept or both reject), and every
 * program called safe runs without a fault (verdict_compare runs it 32 times: the loads read the
 * input, the allowed stores write it).  Then the same for an atomic add on each field (the
 * kernel refuses atomics on any context), and for a load through a copy of r1 moved 8 bytes on
 * (the kernel refuses a context access through a modified pointer: check_ptr_off_reg).  And the
 * value main returns (check_return_code: 0 or 1 for some of these types), and spills of the
 * context, a stack pointer and a number at each size (only whole ones of a pointer).  Skips where
 * bpf() is refused. */
#include <stdio.h>
#include <string.h>

#include <linux/bpf.h>

#include "bpf/prog.h"
#include "oracle/kernel/kernel.h"
#include "tests/check.h"
#include "triage/verdict.h"

static const uint8_t sizes[] = { BPF_B, BPF_H, BPF_W, BPF_DW };

enum form { LOAD, STORE_REG, STORE_IMM, ATOMIC_ADD, LOAD_MOVED };
static const char *const form_names[] = { "load", "store", "store imm", "atomic add",
					   "load through r1 + 8" };

static unsigned disagree, agreed, faulted;

/* bpfscev's verdict and the kernel's on insns as a program of type: counted, and printed with
 * what when they differ or a program called safe faults. */
static void judge(uint32_t type, const char *tname, const char *what, const struct bpf_insn *insns,
		  unsigned n)
{
	struct verdict_opts vo = { .sz = sizeof(vo), .kernel = true, .prog_type = type };
	struct ebpf_object *obj = NULL;
	struct verdict_report r;
	struct diag d;

	diag_clear(&d);
	if (ebpf_object__from_insns(&obj, insns, n, "ctx_field", &d)) {
		CHECK(0, "%s: %s", tname, d.msg);
		return;
	}
	obj->progs[0].prog_type = type;
	diag_clear(&d);
	if (verdict_compare(&r, obj, &obj->progs[0], &vo, &d)) {
		CHECK(0, "%s %s: %s", tname, what, d.msg);
		ebpf_object__free(obj);
		return;
	}
	if (r.cls == VC_BOTH_ACCEPT || r.cls == VC_BOTH_REJECT) {
		agreed++;
	} else if (r.cls != VC_NO_LOAD) {
		disagree++;
		printf("%s %s: ours %s (%s), kernel %s (%s)\n", tname, what,
		       scev_verdict_name(r.ours.kind), r.ours.reason,
		       r.kernel_accepted ? "accepts" : "rejects", r.kernel_message);
	}
	if (r.faults) {
		faulted++;
		printf("%s %s: called safe, faults: %s\n", tname, what, r.fault);
	}
	verdict_report__free(&r);
	ebpf_object__free(obj);
}

static void one(uint32_t type, const char *tname, enum form f, int16_t off, uint8_t sz)
{
	struct bpf_insn insns[6];
	unsigned n = 0, bytes = sz == BPF_B ? 1 : sz == BPF_H ? 2 : sz == BPF_W ? 4 : 8;
	char what[64];

	if (f == ATOMIC_ADD && bytes < 4)
		return;
	memset(insns, 0, sizeof(insns));
	insns[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 2 };
	if (f == LOAD)
		insns[n++] = (struct bpf_insn){ .code = BPF_LDX | BPF_MEM | sz, .dst_reg = 3,
						.src_reg = 1, .off = off };
	else if (f == STORE_REG)
		insns[n++] = (struct bpf_insn){ .code = BPF_STX | BPF_MEM | sz, .dst_reg = 1,
						.src_reg = 2, .off = off };
	else if (f == STORE_IMM)
		insns[n++] = (struct bpf_insn){ .code = BPF_ST | BPF_MEM | sz, .dst_reg = 1,
						.off = off, .imm = 1 };
	else if (f == ATOMIC_ADD)
		insns[n++] = (struct bpf_insn){ .code = BPF_STX | BPF_ATOMIC | sz, .dst_reg = 1,
						.src_reg = 2, .off = off, .imm = BPF_ADD };
	else {
		insns[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 4,
						.src_reg = 1 };
		insns[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = 4,
						.imm = 8 };
		insns[n++] = (struct bpf_insn){ .code = BPF_LDX | BPF_MEM | sz, .dst_reg = 3,
						.src_reg = 4, .off = (int16_t)(off - 8) };
	}
	insns[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0,
					.imm = 1 };
	insns[n++] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };
	snprintf(what, sizeof(what), "%s of %u bytes at %d", form_names[f], bytes, off);
	judge(type, tname, what, insns, n);
}

/* The context pointer, a stack pointer and a number stored to fp-8 at each size: the kernel
 * spills a pointer only whole ("invalid size of register spill"), a number at any size. */
static void spills(uint32_t type, const char *tname)
{
	static const char *const what[] = { "the context", "a stack pointer", "a number" };
	char text[64];

	for (int w = 0; w < 3; w++)
		for (size_t k = 0; k < sizeof(sizes); k++) {
			struct bpf_insn insns[] = {
				w == 0 ? (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_X,
							    .dst_reg = 2, .src_reg = 1 }
				: w == 1 ? (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_X,
							      .dst_reg = 2, .src_reg = 10 }
					 : (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K,
							      .dst_reg = 2, .imm = 7 },
				{ .code = BPF_STX | BPF_MEM | sizes[k], .dst_reg = 10, .src_reg = 2,
				  .off = -8 },
				{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 1 },
				{ .code = BPF_JMP | BPF_EXIT },
			};

			snprintf(text, sizeof(text), "%s stored in %d bytes at fp-8", what[w], 1 << k);
			judge(type, tname, text, insns, 4);
		}
}

/* The value main returns (check_return_code: cgroup_skb, sock_ops and cgroup_sock 0 or 1, the
 * others anything): constants and a random number, whole or & 1. */
static void returns(uint32_t type, const char *tname)
{
	static const int32_t k[] = { 0, 1, 2, 3, -1, 100 };
	char what[64];

	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		struct bpf_insn insns[] = {
			{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = k[i] },
			{ .code = BPF_JMP | BPF_EXIT },
		};

		snprintf(what, sizeof(what), "return %d", k[i]);
		judge(type, tname, what, insns, 2);
	}
	for (int mask = 0; mask < 2; mask++) {
		struct bpf_insn insns[] = {
			{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_get_prandom_u32 },
			{ .code = BPF_ALU64 | BPF_AND | BPF_K, .dst_reg = 0, .imm = mask ? 1 : -1 },
			{ .code = BPF_JMP | BPF_EXIT },
		};

		judge(type, tname, mask ? "return a random number & 1" : "return a random number",
		      insns, 3);
	}
}

int main(void)
{
	static const struct {
		uint32_t type;
		const char *name;
		int size;	/* (0: ebpf_ctx_size's) */
	} types[] = {
		{ BPF_PROG_TYPE_SOCK_OPS, "sock_ops", 0 },
		{ BPF_PROG_TYPE_CGROUP_SOCK, "cgroup_sock", 0 },
		{ BPF_PROG_TYPE_XDP, "xdp", sizeof(struct xdp_md) },
		{ BPF_PROG_TYPE_SOCKET_FILTER, "socket", sizeof(struct __sk_buff) },
		{ BPF_PROG_TYPE_SCHED_CLS, "tc", sizeof(struct __sk_buff) },
		{ BPF_PROG_TYPE_SCHED_ACT, "sched_act", sizeof(struct __sk_buff) },
		{ BPF_PROG_TYPE_CGROUP_SKB, "cgroup_skb", sizeof(struct __sk_buff) },
		{ BPF_PROG_TYPE_LWT_IN, "lwt_in", sizeof(struct __sk_buff) },
		{ BPF_PROG_TYPE_LWT_OUT, "lwt_out", sizeof(struct __sk_buff) },
		{ BPF_PROG_TYPE_LWT_XMIT, "lwt_xmit", sizeof(struct __sk_buff) },
		{ BPF_PROG_TYPE_SK_SKB, "sk_skb", sizeof(struct __sk_buff) },
		{ BPF_PROG_TYPE_SK_LOOKUP, "sk_lookup", 0 },
		{ BPF_PROG_TYPE_SK_REUSEPORT, "sk_reuseport", 0 },
		{ BPF_PROG_TYPE_SK_MSG, "sk_msg", 0 },
		{ BPF_PROG_TYPE_CGROUP_SYSCTL, "cgroup_sysctl", 0 },
	};
	char why[256];

	if (!kernel_available(why, sizeof(why)))
		return check_skip("test_ctx_fields", "%s", why);
	for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		int size = types[t].size ? types[t].size : (int)ebpf_ctx_size(types[t].type);

		CHECK(size > 0, "%s: no context size", types[t].name);
		returns(types[t].type, types[t].name);
		spills(types[t].type, types[t].name);
		/* (every offset for the first of the skb types; the others, whose own rules are
		 * per field, at the offsets aligned to the size; a moved pointer near the start) */
		for (int off = -8; off < size + 8; off++)
			for (size_t k = 0; k < sizeof(sizes); k++)
				for (int f = LOAD; f <= LOAD_MOVED; f++)
					if ((t <= 3 || off % (1 << k) == 0) &&
					    (f != LOAD_MOVED || off < 16))
						one(types[t].type, types[t].name, (enum form)f,
						    (int16_t)off, sizes[k]);
	}
	printf("%u accesses agree with the kernel, %u disagree, %u safe ones faulted\n", agreed,
	       disagree, faulted);
	CHECK(agreed > 0, "no access could be compared");
	CHECK(disagree == 0, "%u accesses disagree with the kernel (listed above)", disagree);
	CHECK(faulted == 0, "%u programs called safe faulted when run", faulted);
	return check_done("test_ctx_fields");
}
