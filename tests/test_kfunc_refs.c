/* kfuncs that acquire and release kernel objects (bpf/kfunc.c's flag table, scev/absint_ref.c),
 * on the clang-built tests/bpf/kfunc_refs.c:
 *  - verdicts: each program's (and its reason's words) must be bpfscev's, and the running
 *    kernel's must agree; programs called safe are run and must not fault;
 *  - the interpreter: safe verdicts forged for the unsafe programs whose runs can tell (a leak,
 *    a second release, a release before the NULL check) must fault with INTERP_TRAP_REF's words;
 *  - the flag table: entries as the kernel's BTF_ID_FLAGS declare them.
 * Without bpf() the kernel's verdicts are skipped; without clang, vmlinux BTF or one of the four
 * kfuncs in the running kernel, the whole test.
 */
#include <string.h>

#include "bpf/isa.h"
#include "oracle/kernel/kernel.h"
#include "tests/check.h"
#include "tests/verdict_case.h"
#include "triage/verdict.h"

static void test_forged(const char *path)
{
	static const char *const unsafe[] = {
		"task_acq_leak", "task_leak_one_path", "task_rel_twice", "task_rel_nocheck",
	};
	static const char *const fault[] = {
		"reference leak", "reference leak", "not the start of a live acquired object",
		"not the start of a live acquired object",
	};
	verdict_case_forged_progs(path, unsafe, fault, sizeof(unsafe) / sizeof(unsafe[0]));
}

int main(void)
{
	static const char *const progs[] = {
		"task_acq_rel", "task_acq_read", "cpumask_cr_rel", "task_acq_leak",
		"task_leak_one_path", "task_rel_nocheck", "task_read_nocheck", "task_rel_twice",
		"task_read_after_rel", "task_rel_unacquired", "task_rel_as_cpumask",
	};
	static const enum scev_verdict_kind want[] = {
		SAFE, SAFE, SAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE,
	};
	static const char *const reasons[] = {
		NULL, NULL, NULL, "Unreleased reference", "Unreleased reference",
		"Possibly NULL pointer passed to trusted arg0", "may be NULL",
		"R1 type=scalar expected=ptr_task_struct", "not a known pointer",
		"expects refcounted PTR_TO_BTF_ID",
		"expected pointer to STRUCT bpf_cpumask but R1 has a pointer to STRUCT task_struct",
	};
	/* (task_acq_walked: the kernel accepts it, an RCU pointer; not asked, a known regression.
	 * The LSM programs: a kernel without the BPF LSM enabled refuses to load any (EPERM, no
	 * log), so the rule's source is kernel/bpf/bpf_lsm.c's untrusted_lsm_hooks: task_alloc's
	 * task trusted, task_free's not — called safe before) */
	static const char *const unsupported[] = { "task_acq_walked", "lsm_alloc_acq",
						   "lsm_free_acq" };
	static const enum scev_verdict_kind want_unsupported[] = { UNSUPPORTED, SAFE,
								   UNSUPPORTED };
	static const char *const why_unsupported[] = { "read from another", NULL,
						       "read from another" };
	const struct ebpf_kfunc_ref *kf;
	char path[1024];
	bool kernel;

	if (!verdict_case_btf_object("kfunc_refs.o", path, sizeof(path)))
		return 77;
	kf = ebpf_kfunc_ref("bpf_task_acquire");
	CHECK(kf && kf->flags == (EBPF_KF_ACQUIRE | EBPF_KF_RCU | EBPF_KF_RET_NULL) &&
	      kf->nargs == 1 && !strcmp(kf->obj, "task_struct"), "bpf_task_acquire's flags");
	kf = ebpf_kfunc_ref("bpf_cpumask_create");
	CHECK(kf && kf->flags == (EBPF_KF_ACQUIRE | EBPF_KF_RET_NULL) && !kf->nargs,
	      "bpf_cpumask_create's flags");
	CHECK(!ebpf_kfunc_ref("bpf_iter_num_new") && !ebpf_kfunc_ref(NULL),
	      "kfuncs outside the table");
	for (size_t k = 0; k < 4; k++) {
		static const char *const have[] = { "bpf_task_acquire", "bpf_task_release",
						    "bpf_cpumask_create", "bpf_cpumask_release" };

		if (ebpf_kfunc_by_name(have[k]) <= 0) {
			printf("SKIP: the running kernel has no %s\n", have[k]);
			return 77;
		}
	}
	kernel = verdict_case_kernel("the kernel's verdicts");
	verdict_case_object_why(path, progs, want, reasons, sizeof(progs) / sizeof(progs[0]),
				kernel);
	verdict_case_object_why(path, unsupported, want_unsupported, why_unsupported, 3, false);
	test_forged(path);
	return check_done("test_kfunc_refs");
}
