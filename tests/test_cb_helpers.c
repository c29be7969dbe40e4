/* The callback helpers scev/absint_callbacks.c models besides bpf_loop and
 * bpf_for_each_map_elem, on the clang-built tests/bpf/cb_helpers.c:
 *  - verdicts: each program's (and its reason's words) must be bpfscev's, and the running
 *    kernel's must agree; programs called safe are run and must not fault;
 *  - bpf_find_vma: the callback is a loop of kind find_vma with at most one call per entry,
 *    and the interpreter's runs call it (some run executes its header once per entry, none
 *    twice).
 * Without bpf() the kernel's verdicts are skipped; without clang, the whole test.
 */
#include "oracle/exec/check.h"
#include "oracle/kernel/kernel.h"
#include "scev/scev.h"
#include "tests/check.h"
#include "tests/verdict_case.h"
#include "triage/verdict.h"

/* vma_safe: one find_vma loop claimed at most 1, held by the runs, which call it */
static void find_vma_runs(const char *path)
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
	p = ebpf_object__find_prog(obj, "vma_safe");
	CHECK(p, "no program vma_safe");
	if (p && scev_analyze(&cp, p, obj->maps, obj->map_cnt, &so, &d) == 0) {
		CHECK(cp.nloops == 1 && cp.loops[0].kind == LOOP_FIND_VMA &&
		      cp.loops[0].trip.kind == TRIP_BOUNDED && cp.loops[0].trip.max == 1 &&
		      cp.loops[0].nentries == 2,
		      "vma_safe: %u loops, kind %s, trip kind %d max %llu, %u entries", cp.nloops,
		      cp.nloops ? claim_loop_kind_name(cp.loops[0].kind) : "-",
		      cp.nloops ? cp.loops[0].trip.kind : -1,
		      cp.nloops ? (unsigned long long)cp.loops[0].trip.max : 0ull,
		      cp.nloops ? cp.loops[0].nentries : 0);
		if (oracle_check(&res, obj, p, &cp, &co) == 0) {
			CHECK(res.nfindings == 0, "vma_safe: %u findings (%s)", res.nfindings,
			      res.nfindings ? res.findings[0].text : "");
			CHECK(res.nloops == 1 && res.max_trip[0] == 1,
			      "vma_safe: the runs never called the callback (most calls per entry: "
			      "%llu)", res.nloops ? (unsigned long long)res.max_trip[0] : 0ull);
			check_result__free(&res);
		} else {
			CHECK(0, "vma_safe: the check failed");
		}
		claim_prog__free(&cp);
	} else if (p) {
		CHECK(0, "vma_safe: %s", d.msg);
	}
	ebpf_object__free(obj);
}

int main(void)
{
	static const char *const progs[] = {
		"vma_safe", "vma_null_ctx_safe", "vma_ret2_unsafe", "vma_write_unsafe",
		"vma_scalar_task_unsafe", "vma_ctx_past_unsafe",
	};
	static const enum scev_verdict_kind want[] = {
		VERDICT_SAFE, VERDICT_SAFE, VERDICT_UNSAFE, VERDICT_UNSAFE, VERDICT_UNSAFE,
		VERDICT_UNSAFE,
	};
	static const char *const reasons[] = {
		NULL, NULL, "should have been in [0, 1] (bpf_find_vma)", "only read is supported",
		"R1 type=scalar expected=ptr_", "outside [-512, 0)",
	};
	char why[256], path[1024];
	bool kernel;

	if (!verdict_case_bpf_object("cb_helpers.o", path, sizeof(path)))
		return 77;
	if (!ebpf_kfunc_btf_available()) {
		printf("SKIP: no vmlinux BTF (the tp_btf programs' context and kernel objects)\n");
		return 77;
	}
	kernel = kernel_available(why, sizeof(why));
	if (!kernel)
		check_skip_part("the kernel's verdicts: %s", why);
	verdict_case_object_why(path, progs, want, reasons, sizeof(progs) / sizeof(progs[0]),
				kernel);
	find_vma_runs(path);
	return check_done("test_cb_helpers");
}
