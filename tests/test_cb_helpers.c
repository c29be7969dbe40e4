/* The callback helpers scev/absint_callbacks.c models besides bpf_loop and
 * bpf_for_each_map_elem, on the clang-built tests/bpf/cb_helpers.c:
 *  - verdicts: each program's (and its reason's words) must be bpfscev's, and the running
 *    kernel's must agree; programs called safe are run and must not fault;
 *  - bpf_find_vma: the callback is a loop of kind find_vma with at most one call per entry,
 *    and the interpreter's runs call it (some run executes its header once per entry, none
 *    twice);
 *  - bpf_user_ringbuf_drain: a loop of kind user_ringbuf_drain (at most 2^17 calls per entry),
 *    which the runs call several times per entry (samples drawn from the helper data).
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

int main(void)
{
	static const char *const progs[] = {
		"vma_safe", "vma_null_ctx_safe", "vma_ret2_unsafe", "vma_write_unsafe",
		"vma_scalar_task_unsafe", "vma_ctx_past_unsafe", "urb_read_safe",
		"urb_deref_unsafe", "urb_ret2_unsafe", "urb_array_unsafe", "urb_read_past_unsafe",
	};
	static const enum scev_verdict_kind want[] = {
		SAFE, SAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE, SAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE,
	};
	static const char *const reasons[] = {
		NULL, NULL, "should have been in [0, 1] (bpf_find_vma)", "only read is supported",
		"R1 type=scalar expected=ptr_", "outside [-512, 0)", NULL,
		"invalid mem access 'dynptr_ptr'", "should have been in [0, 1] (bpf_user_ringbuf_drain)",
		"cannot pass map_type 2 into func bpf_user_ringbuf_drain#209",
		"stack access [-16, 8) outside",
	};
	/* (the kernel accepts it: not asked, a known regression) */
	static const char *const unsupported[] = { "urb_data_unsupported" };
	static const enum scev_verdict_kind want_unsupported[] = { UNSUPPORTED };
	static const char *const why_unsupported[] = { "only bpf_dynptr_read is modeled" };
	char path[1024];
	bool kernel;

	if (!verdict_case_bpf_object("cb_helpers.o", path, sizeof(path)))
		return 77;
	if (!ebpf_kfunc_btf_available()) {
		printf("SKIP: no vmlinux BTF (the tp_btf programs' context and kernel objects)\n");
		return 77;
	}
	kernel = verdict_case_kernel("the kernel's verdicts");
	verdict_case_object_why(path, progs, want, reasons, sizeof(progs) / sizeof(progs[0]),
				kernel);
	verdict_case_object_why(path, unsupported, want_unsupported, why_unsupported, 1, false);
	callback_runs(path, "vma_safe", LOOP_FIND_VMA, 1, 2, 1);
	callback_runs(path, "urb_read_safe", LOOP_USER_RINGBUF, 1u << 17, 1, 2);
	return check_done("test_cb_helpers");
}
