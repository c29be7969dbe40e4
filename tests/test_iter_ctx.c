/* iter/TARGET contexts (bpf/kfunc.c: iter_ctx_resolve) on the clang-built tests/bpf/iter_ctx.c:
 * the target resolves to the running kernel's bpf_iter_TARGET (the load names it), the context
 * is struct bpf_iter__TARGET (meta never NULL, the target maybe NULL), the return 0 or 1.  Each
 * program's verdict (and its reason's words) must be bpfscev's and the running kernel's must
 * agree; programs called safe are run (the target NULL in some runs) and must not fault.
 * Without bpf() the kernel's verdicts are skipped; without clang or vmlinux BTF, the whole test.
 */
#include <string.h>

#include "bpf/isa.h"
#include "bpf/prog.h"
#include "tests/check.h"
#include "tests/verdict_case.h"

int main(void)
{
	static const char *const progs[] = {
		"iter_task_safe", "iter_meta_safe", "iter_task_acquire_safe",
		"iter_acquire_reload_unsafe", "iter_task_nocheck_unsafe", "iter_ret2_unsafe",
		"iter_acquire_nocheck_unsafe", "iter_unix_flex_safe", "iter_unix_flex_across_unsafe",
	};
	static const enum scev_verdict_kind want[] = {
		SAFE, SAFE, SAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE, SAFE, UNSAFE,
	};
	static const char *const reasons[] = {
		NULL, NULL, NULL, "Possibly NULL pointer passed to trusted arg0", "may be NULL",
		"should have been in [0, 1] (an iterator)",
		"Possibly NULL pointer passed to trusted arg0", NULL, "past the end of the struct",
	};
	struct ebpf_btf_ctx c;
	char path[1024];

	if (!verdict_case_btf_object("iter_ctx.o", path, sizeof(path)))
		return 77;
	CHECK(ebpf_btf_ctx_resolve(&c, "iter/task") && c.attach_type == BPF_TRACE_ITER &&
	      c.attach_btf_id == ebpf_kfunc_by_name("bpf_iter_task") && c.nslots >= 2 &&
	      c.slot[0] == EBPF_SLOT_PTR && c.slot[1] == EBPF_SLOT_PTR_OR_NULL &&
	      c.obj_type[1] == ebpf_btf_struct_by_name("task_struct"),
	      "iter/task: %s, attach type %u, %u slots", c.why, c.attach_type, c.nslots);
	CHECK(!ebpf_btf_ctx_resolve(&c, "iter/bpfscev_no_such_target") &&
	      strstr(c.why, "no iterator"), "iter/bpfscev_no_such_target: %s", c.why);
	verdict_case_object_why(path, progs, want, reasons, sizeof(progs) / sizeof(progs[0]),
				verdict_case_kernel("the kernel's verdicts"));
	return check_done("test_iter_ctx");
}
