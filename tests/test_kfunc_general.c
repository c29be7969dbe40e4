/* kfuncs modeled from their prototype and the program types that may call kfuncs
 * (bpf/kfunc_table.c, scev/absint_kfunc.c, the interpreter's kfunc_plain):
 *  - the table: flags as the kernel's BTF_ID_FLAGS declare them, a prototype in the running
 *    kernel's BTF for every entry it has;
 *  - program types: a cpumask kfunc and a generic one called from each program type a case file
 *    can name: unsafe ("is not allowed") exactly where the running kernel refuses the load;
 *  - verdicts of the clang-built tests/bpf/kfunc_cpumask.c, each held against the kernel's;
 *    programs called safe are run and must not fault;
 *  - the interpreter: safe verdicts forged for the unsafe programs (a leak, a second release, a
 *    use after the release, before the NULL check) fault with INTERP_TRAP_REF's words, and the
 *    cpumask kfuncs compute what kernel/bpf/cpumask.c does on 2 CPUs.
 * Without bpf() the kernel's verdicts are skipped; without vmlinux BTF or the kfuncs, the whole
 * test.  Cost: about 30 loads.
 */
#include <errno.h>
#include <string.h>

#include "bpf/isa.h"
#include "oracle/kernel/kernel.h"
#include "tests/check.h"
#include "tests/verdict_case.h"
#include "triage/verdict.h"

static void test_table(void)
{
	const struct ebpf_kfunc_info *ki;
	struct ebpf_kfunc_proto p;

	ki = ebpf_kfunc_info("bpf_cpumask_set_cpu");
	CHECK(ki && ki->flags == EBPF_KF_RCU && ki->set == EBPF_KSET_CPUMASK &&
	      ki->op == EBPF_KOP_CM_SET_CPU, "bpf_cpumask_set_cpu's entry");
	ki = ebpf_kfunc_info("bpf_task_from_pid");
	CHECK(ki && ki->flags == (EBPF_KF_ACQUIRE | EBPF_KF_RET_NULL) &&
	      ki->set == EBPF_KSET_GENERIC && ki->op == EBPF_KOP_NONE,
	      "bpf_task_from_pid's entry");
	CHECK(!ebpf_kfunc_info("bpf_iter_num_new") && !ebpf_kfunc_info(NULL) &&
	      !ebpf_kfunc_info("bpf_obj_drop_impl"), "kfuncs outside the table");
	/* every entry with a reference, with the reference table (and the other way round) */
	for (size_t k = 0; (ki = ebpf_kfunc_info_at(k)); k++) {
		const struct ebpf_kfunc_ref *kf = ebpf_kfunc_ref(ki->name);
		int err;

		CHECK((ki->op == EBPF_KOP_NONE) == (kf != NULL) &&
		      (!kf || kf->flags == ki->flags), "%s: reference table and flag table "
		      "disagree", ki->name);
		if (ebpf_kfunc_by_name(ki->name) <= 0)
			continue;
		err = ebpf_kfunc_proto(ki->name, &p);
		CHECK(err == 0, "%s: prototype %d (%s)", ki->name, err, p.why);
	}
	CHECK(ebpf_kfunc_proto("bpf_cpumask_set_cpu", &p) == 0 && p.nargs == 2 &&
	      p.arg[0] == EBPF_KARG_SCALAR && p.size[0] == 4 && p.arg[1] == EBPF_KARG_OBJ &&
	      p.ret == EBPF_KRET_VOID && !strcmp(ebpf_btf_type_name(p.obj[1]), "bpf_cpumask"),
	      "bpf_cpumask_set_cpu's prototype");
	CHECK(ebpf_kfunc_proto("bpf_cpumask_weight", &p) == 0 && p.ret == EBPF_KRET_SCALAR &&
	      p.ret_size == 4 && !strcmp(ebpf_btf_type_name(p.obj[0]), "cpumask"),
	      "bpf_cpumask_weight's prototype");
	/* (a memory argument: bpf_dynptr_slice's buffer__opt, a suffix not modeled) */
	CHECK(ebpf_kfunc_proto("bpf_dynptr_slice", &p) == -EOPNOTSUPP && strstr(p.why, "__"),
	      "bpf_dynptr_slice's prototype: %s", p.why);
}

static void test_types(bool kernel)
{
	static const uint32_t types[] = {
		BPF_PROG_TYPE_XDP, BPF_PROG_TYPE_SOCKET_FILTER, BPF_PROG_TYPE_SCHED_CLS,
		BPF_PROG_TYPE_CGROUP_SKB, BPF_PROG_TYPE_RAW_TRACEPOINT, BPF_PROG_TYPE_SOCK_OPS,
		BPF_PROG_TYPE_CGROUP_SOCK, BPF_PROG_TYPE_SK_LOOKUP, BPF_PROG_TYPE_SK_REUSEPORT,
		BPF_PROG_TYPE_CGROUP_DEVICE,
	};
	static const char *const text[] = {
		"call bpf_cpumask_create\nif r0 == 0 goto +2\nr1 = r0\n"
		"call bpf_cpumask_release\nr0 = 1\nexit\n",
		"r1 = 1\ncall bpf_task_from_pid\nif r0 == 0 goto +2\nr1 = r0\n"
		"call bpf_task_release\nr0 = 1\nexit\n",
	};
	static const unsigned set[] = { EBPF_KSET_CPUMASK, EBPF_KSET_GENERIC };

	for (size_t s = 0; s < 2; s++)
		for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
			struct verdict_opts vo = { .sz = sizeof(vo), .kernel = kernel,
						   .prog_type = types[t] };
			bool ok = ebpf_kfunc_set_allows(set[s], types[t]) == 1;
			char name[64];

			snprintf(name, sizeof(name), "set %u, type %u", set[s], types[t]);
			CHECK(ebpf_kfunc_set_allows(set[s], types[t]) >= 0, "%s: not known", name);
			verdict_case_run(name, text[s], NULL, 0, &vo, ok ? SAFE : UNSAFE,
					 ok ? NULL : "is not allowed", VERDICT_CASE_AGREE);
		}
}

static void test_forged(const char *path)
{
	static const char *const unsafe[] = {
		"cm_leak", "cm_rel_twice", "cm_use_after_rel", "cm_nocheck", "task_from_pid_leak",
	};
	static const char *const fault[] = {
		"reference leak", "not the start of a live acquired object",
		"not the start of a live acquired object", "not the start of a live acquired object",
		"reference leak",
	};
	verdict_case_forged_progs(path, unsafe, fault, sizeof(unsafe) / sizeof(unsafe[0]));
}

/* What the cpumask kfuncs compute on the interpreter's 2 CPUs (helper data of zeros: every
 * create succeeds), as kernel/bpf/cpumask.c does: r0 = the digits of eight results. */
static void test_values(void)
{
	static const char text[] =
		"call bpf_cpumask_create\nr6 = r0\ncall bpf_cpumask_create\nr7 = r0\n"
		/* a = {1} (cpu 5 is past nr_cpu_ids: ignored) */
		"r1 = 1\nr2 = r6\ncall bpf_cpumask_set_cpu\nr1 = 5\nr2 = r6\n"
		"call bpf_cpumask_set_cpu\n"
		"r1 = r6\ncall bpf_cpumask_weight\nr8 = r0\n"		/* 1 */
		"r8 *= 10\nr1 = r6\ncall bpf_cpumask_first\nr8 += r0\n"	/* 1 */
		"r8 *= 10\nr1 = r6\ncall bpf_cpumask_first_zero\nr8 += r0\n"	/* 0 */
		"r8 *= 10\nr1 = r7\ncall bpf_cpumask_first\nr8 += r0\n"	/* 2: none */
		"r8 *= 10\nr1 = r7\ncall bpf_cpumask_setall\n"
		"r1 = r7\ncall bpf_cpumask_weight\nr8 += r0\n"		/* 2 */
		"r8 *= 10\nr1 = r6\nr2 = r7\ncall bpf_cpumask_subset\nr8 += r0\n"	/* 1 */
		"r8 *= 10\nr1 = 0\nr2 = r7\ncall bpf_cpumask_test_and_clear_cpu\nr8 += r0\n" /* 1 */
		"r8 *= 10\nr1 = r7\nr2 = r6\nr3 = r7\ncall bpf_cpumask_xor\n"
		"r1 = r7\ncall bpf_cpumask_empty\nr8 += r0\n"		/* 1: {1} ^ {1} */
		"r1 = r6\ncall bpf_cpumask_release\nr1 = r7\ncall bpf_cpumask_release\n"
		"r0 = r8\nexit\n";
	uint8_t data[64] = { 0 };
	uint64_t r0 = 0;

	if (verdict_case_interp("values", text, NULL, 0, data, sizeof(data), &r0))
		CHECK(r0 == 11022111, "cpumask values: r0 = %llu, expected 11022111",
		      (unsigned long long)r0);
}

int main(int argc, char **argv)
{
	static const char *const progs[] = {
		"cm_ops", "cm_loop", "task_from_pid", "cm_leak", "cm_rel_twice",
		"cm_use_after_rel", "cm_nocheck", "cm_given_task", "task_from_pid_leak",
	};
	static const enum scev_verdict_kind want[] = {
		SAFE, SAFE, SAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE,
	};
	static const char *const reasons[] = {
		NULL, NULL, NULL, "Unreleased reference", "R1 type=scalar expected=ptr_bpf_cpumask",
		"R2 type=scalar expected=ptr_bpf_cpumask",
		"Possibly NULL pointer passed to trusted arg1",
		"expected pointer to STRUCT cpumask but R1 has a pointer to STRUCT task_struct",
		"Unreleased reference",
	};
	char path[1024];
	bool kernel;

	check_parts(&argc, argv);
	if (!verdict_case_btf_object("kfunc_cpumask.o", path, sizeof(path)))
		return 77;
	for (size_t k = 0; k < 2; k++) {
		static const char *const have[] = { "bpf_cpumask_create", "bpf_task_from_pid" };

		if (ebpf_kfunc_by_name(have[k]) <= 0) {
			printf("SKIP: the running kernel has no %s\n", have[k]);
			return 77;
		}
	}
	kernel = verdict_case_kernel("the kernel's verdicts");
	CHECK_STEP(test_table());
	CHECK_STEP(test_types(kernel));
	CHECK_STEP(verdict_case_object_why(path, progs, want, reasons,
					   sizeof(progs) / sizeof(progs[0]), kernel));
	CHECK_STEP(test_forged(path));
	CHECK_STEP(test_values());
	return check_done("test_kfunc_general");
}
