/* The callback helpers scev/absint_callbacks.c models besides bpf_loop and
 * bpf_for_each_map_elem, on the clang-built tests/bpf/cb_helpers.c:
 *  - verdicts: each program's (and its reason's words) must be bpfscev's, and the running
 *    kernel's must agree; programs called safe are run and must not fault;
 *  - bpf_find_vma: the callback is a loop of kind find_vma with at most one call per entry,
 *    and the interpreter's runs call it (some run executes its header once per entry, none
 *    twice);
 *  - bpf_user_ringbuf_drain: a loop of kind user_ringbuf_drain (at most 2^17 calls per entry),
 *    which the runs call several times per entry (samples drawn from the helper data), with
 *    bpf_dynptr_read, bpf_dynptr_write and bpf_dynptr_data on its dynptr (the interpreter's
 *    semantics of them held against known samples).
 * Without bpf() the kernel's verdicts are skipped; without clang, the whole test.
 */
#include "oracle/exec/check.h"
#include "oracle/kernel/kernel.h"
#include "scev/scev.h"
#include "tests/check.h"
#include "tests/verdict_case.h"
#include "triage/verdict.h"

/* prog's one callback loop: of kind, claimed at most max per entry with nentries entries, held
 * by the runs, whose most calls in one entry must be at least least */
static void callback_runs(const char *path, const char *prog, uint8_t kind, uint64_t max,
			  uint32_t nentries, uint64_t least)
{
	struct scev_opts so = { .sz = sizeof(so) };
	struct check_opts co = { .sz = sizeof(co), .seed = 7 };
	struct ebpf_object *obj = NULL;
	const struct ebpf_prog *p;
	struct check_result res;
	struct claim_prog cp;
	struct diag d;

	diag_clear(&d);
	if (ebpf_object__open_file(&obj, path, &d)) {
		CHECK(0, "%s: %s", path, d.msg);
		return;
	}
	p = ebpf_object__find_prog(obj, prog);
	CHECK(p, "no program %s", prog);
	if (p && scev_analyze(&cp, p, obj->maps, obj->map_cnt, &so, &d) == 0) {
		CHECK(cp.nloops == 1 && cp.loops[0].kind == kind &&
		      cp.loops[0].trip.kind == TRIP_BOUNDED && cp.loops[0].trip.max == max &&
		      cp.loops[0].nentries == nentries,
		      "%s: %u loops, kind %s, trip kind %d max %llu, %u entries", prog, cp.nloops,
		      cp.nloops ? claim_loop_kind_name(cp.loops[0].kind) : "-",
		      cp.nloops ? cp.loops[0].trip.kind : -1,
		      cp.nloops ? (unsigned long long)cp.loops[0].trip.max : 0ull,
		      cp.nloops ? cp.loops[0].nentries : 0);
		if (oracle_check(&res, obj, p, &cp, &co) == 0) {
			CHECK(res.nfindings == 0, "%s: %u findings (%s)", prog, res.nfindings,
			      res.nfindings ? res.findings[0].text : "");
			CHECK(res.nloops == 1 && res.max_trip[0] >= least,
			      "%s: the runs called the callback too few times (most calls per entry: "
			      "%llu)", prog, res.nloops ? (unsigned long long)res.max_trip[0] : 0ull);
			check_result__free(&res);
		} else {
			CHECK(0, "%s: the check failed", prog);
		}
		claim_prog__free(&cp);
	} else if (p) {
		CHECK(0, "%s: %s", prog, d.msg);
	}
	ebpf_object__free(obj);
}

/* The interpreter's dynptr helpers on a user ring buffer sample (oracle/exec/interp.h): one
 * sample of 16 bytes 0x10..0x1f; the callback (r7 its dynptr) leaves its answer in the caller's
 * fp-8, which the program returns. */
#define URB_MAIN "r0 = 0\n*(u64 *)(r10 -8) = r0\nr1 = map[fd:0] ll\nr2 = func cb ll\n"        \
	"r3 = r10\nr3 += -8\nr4 = 0\ncall bpf_user_ringbuf_drain\nr0 = *(u64 *)(r10 -8)\n"  \
	"exit\ncb: r7 = r1\nr6 = r2\n"
#define URB_DATA(off, len) "r1 = r7\nr2 = " #off "\nr3 = " #len "\ncall bpf_dynptr_data\n"
#define URB_PUT(r) "*(u64 *)(r6 +0) = " #r "\nr0 = 0\nexit\n"
#define URB_WRITE(off, len, flags) "r1 = 0xaabb\n*(u64 *)(r10 -8) = r1\nr1 = r7\nr2 = " #off  \
	"\nr3 = r10\nr3 += -8\nr4 = " #len "\nr5 = " #flags "\ncall bpf_dynptr_write\n"

static void test_interp(void)
{
	static struct ebpf_map_def maps[] = {
		{ .name = "urb", .type = 31 /* USER_RINGBUF */, .max_entries = 4096 },
	};
	static const struct {
		const char *text;
		uint64_t r0;
	} runs[] = {
		/* data: the sample's bytes, NULL past its end */
		{ URB_DATA(0, 8) "r1 = 0\nif r0 == 0 goto out\nr1 = *(u64 *)(r0 +0)\nout: "
		  URB_PUT(r1), 0x1716151413121110ull },
		{ URB_DATA(8, 8) "r1 = 1\nif r0 != 0 goto out\nr1 = 2\nout: " URB_PUT(r1), 1 },
		{ URB_DATA(12, 8) "r1 = 1\nif r0 != 0 goto out\nr1 = 2\nout: " URB_PUT(r1), 2 },
		/* write: into the sample (read back through data), -E2BIG past it before flags'
		 * -EINVAL */
		{ URB_WRITE(4, 2, 0) "r8 = r0\n" URB_DATA(0, 8) "r1 = 0\nif r0 == 0 goto out\n"
		  "r1 = *(u64 *)(r0 +0)\nr1 += r8\nout: " URB_PUT(r1), 0x1716aabb13121110ull },
		{ URB_WRITE(4, 2, 1) URB_PUT(r0), (uint64_t)-22 },
		{ URB_WRITE(10, 8, 1) URB_PUT(r0), (uint64_t)-7 },
		/* a store through data, seen by read; read's flags before its bounds */
		{ URB_DATA(0, 4) "if r0 == 0 goto out\nr1 = 0x01020304\n*(u32 *)(r0 +0) = r1\n"
		  "r1 = r10\nr1 += -16\nr2 = 8\nr3 = r7\nr4 = 0\nr5 = 0\ncall bpf_dynptr_read\n"
		  "r1 = *(u64 *)(r10 -16)\nr1 += r0\n" URB_PUT(r1) "out: r0 = 0\nexit\n",
		  0x1716151401020304ull },
		{ "r1 = r10\nr1 += -16\nr2 = 8\nr3 = r7\nr4 = 12\nr5 = 1\ncall bpf_dynptr_read\n"
		  URB_PUT(r0), (uint64_t)-22 },
	};
	uint8_t data[18] = { 1, 16 };

	for (int b = 0; b < 16; b++)
		data[2 + b] = (uint8_t)(0x10 + b);
	for (size_t k = 0; k < sizeof(runs) / sizeof(runs[0]); k++) {
		char text[1024], name[32];
		uint64_t r0;

		snprintf(text, sizeof(text), "%s%s", URB_MAIN, runs[k].text);
		snprintf(name, sizeof(name), "run %zu", k);
		if (verdict_case_interp(name, text, maps, 1, data, sizeof(data), &r0))
			CHECK(r0 == runs[k].r0, "%s: r0 = 0x%llx, expected 0x%llx", name,
			      (unsigned long long)r0, (unsigned long long)runs[k].r0);
	}
}

int main(void)
{
	static const char *const progs[] = {
		"vma_safe", "vma_null_ctx_safe", "vma_ret2_unsafe", "vma_write_unsafe",
		"vma_scalar_task_unsafe", "vma_ctx_past_unsafe", "urb_read_safe",
		"urb_deref_unsafe", "urb_ret2_unsafe", "urb_array_unsafe", "urb_read_past_unsafe",
		"urb_data_safe", "urb_write_safe", "urb_data_past_unsafe", "urb_data_null_unsafe",
		"urb_write_past_unsafe",
	};
	static const enum scev_verdict_kind want[] = {
		SAFE, SAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE, SAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE,
		SAFE, SAFE, UNSAFE, UNSAFE, UNSAFE,
	};
	static const char *const reasons[] = {
		NULL, NULL, "should have been in [0, 1] (bpf_find_vma)", "only read is supported",
		"R1 type=scalar expected=ptr_", "outside [-512, 0)", NULL,
		"invalid mem access 'dynptr_ptr'", "should have been in [0, 1] (bpf_user_ringbuf_drain)",
		"cannot pass map_type 2 into func bpf_user_ringbuf_drain#209",
		"stack access [-16, 8) outside", NULL, NULL, "invalid access to memory, mem_size=8",
		"bpf_dynptr_data's result not checked", "stack access [-8, 8) outside",
	};
	char path[1024];
	bool kernel;

	if (!verdict_case_btf_object("cb_helpers.o", path, sizeof(path)))
		return 77;
	kernel = verdict_case_kernel("the kernel's verdicts");
	verdict_case_object_why(path, progs, want, reasons, sizeof(progs) / sizeof(progs[0]),
				kernel);
	callback_runs(path, "vma_safe", LOOP_FIND_VMA, 1, 2, 1);
	callback_runs(path, "urb_read_safe", LOOP_USER_RINGBUF, 1u << 17, 1, 2);
	callback_runs(path, "urb_write_safe", LOOP_USER_RINGBUF, 1u << 17, 1, 2);
	test_interp();
	return check_done("test_cb_helpers");
}
