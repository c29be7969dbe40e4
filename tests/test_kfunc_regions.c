/* RCU read-side and non-preemptible regions (scev/absint_region.c, the interpreter's
 * kfunc_plain) and the reference join that keeps a maybe-null id (scev/absint_ref.c,
 * absint_ref_join_zero):
 *  - the table: the four region kfuncs in the common set (every program type), no arguments,
 *    no result;
 *  - verdicts of assembly cases and of the clang-built tests/bpf/kfunc_regions.c, each held
 *    against the kernel's (both accept or both reject); programs called safe are run and must
 *    not fault;
 *  - the interpreter: safe verdicts forged for the unsafe programs (a region open at the exit,
 *    an unmatched close, a nested RCU lock) fault with its words;
 *  - bpf_map_sum_elem_count from the clang-built tests/bpf/kfunc_map_iter.c, against the kernel.
 * Without bpf() the kernel's verdicts are skipped; without vmlinux BTF or the kfuncs, the whole
 * test.  Cost: about 25 loads, under a CPU second.
 */
#include <string.h>

#include "bpf/isa.h"
#include "tests/check.h"
#include "tests/verdict_case.h"

static void test_table(void)
{
	static const char *const names[] = {
		"bpf_rcu_read_lock", "bpf_rcu_read_unlock", "bpf_preempt_disable",
		"bpf_preempt_enable",
	};
	static const uint8_t ops[] = {
		EBPF_KOP_RCU_LOCK, EBPF_KOP_RCU_UNLOCK, EBPF_KOP_PREEMPT_OFF, EBPF_KOP_PREEMPT_ON,
	};

	for (size_t k = 0; k < 4; k++) {
		const struct ebpf_kfunc_info *ki = ebpf_kfunc_info(names[k]);
		struct ebpf_kfunc_proto p;

		CHECK(ki && ki->flags == 0 && ki->set == EBPF_KSET_COMMON && ki->op == ops[k],
		      "%s's entry", names[k]);
		CHECK(ebpf_kfunc_proto(names[k], &p) == 0 && p.nargs == 0 &&
		      p.ret == EBPF_KRET_VOID, "%s's prototype", names[k]);
	}
	CHECK(ebpf_kfunc_set_allows(EBPF_KSET_COMMON, BPF_PROG_TYPE_SOCKET_FILTER) == 1 &&
	      ebpf_kfunc_set_allows(EBPF_KSET_COMMON, BPF_PROG_TYPE_KPROBE) == 1,
	      "the common set: every program type");
}

#define TAIL "r2 = map[fd:0] ll\nr3 = 0\ncall bpf_tail_call\n"
#define PROG_ARRAY "-- maps\nprog_array key=4 value=4 entries=1\n"

static void test_cases(bool kernel)
{
	static const struct verdict_case_row rows[] = {
		{ "preempt_nested", "-- asm\ncall bpf_preempt_disable\ncall bpf_preempt_disable\n"
		  "call bpf_preempt_enable\ncall bpf_preempt_enable\n" END "-- type\nxdp\n",
		  SAFE, NULL, AGREE },
		{ "preempt_missing", "-- asm\ncall bpf_preempt_disable\ncall bpf_preempt_disable\n"
		  "call bpf_preempt_enable\n" END "-- type\nxdp\n",
		  UNSAFE, "(1 bpf_preempt_enable is missing)", AGREE },
		{ "preempt_unmatched", "-- asm\ncall bpf_preempt_enable\n" END "-- type\ntc\n",
		  UNSAFE, "unmatched attempt to enable preemption", AGREE },
		{ "rcu_socket", "-- asm\ncall bpf_rcu_read_lock\ncall bpf_rcu_read_unlock\n" END
		  "-- type\nsocket\n", SAFE, NULL, AGREE },
		{ "rcu_missing", "-- asm\ncall bpf_rcu_read_lock\n" END "-- type\nsocket\n",
		  UNSAFE, "bpf_rcu_read_unlock is missing", AGREE },
		{ "rcu_unmatched", "-- asm\ncall bpf_rcu_read_unlock\n" END "-- type\ncgroup_skb\n",
		  UNSAFE, "unmatched rcu read unlock", AGREE },
		{ "rcu_tail_after", "-- asm\nr6 = r1\ncall bpf_rcu_read_lock\n"
		  "call bpf_rcu_read_unlock\nr1 = r6\n" TAIL END PROG_ARRAY "-- type\ntc\n",
		  SAFE, NULL, AGREE },
		{ "preempt_tail_inside", "-- asm\nr6 = r1\ncall bpf_preempt_disable\nr1 = r6\n"
		  TAIL "call bpf_preempt_enable\n" END PROG_ARRAY "-- type\ntc\n",
		  UNSAFE, "tail_call cannot be used inside bpf_preempt_disable-ed region", AGREE },
		{ "rcu_ld_abs", "-- asm\nr6 = r1\ncall bpf_rcu_read_lock\nr0 = *(u8 *)skb[0]\n"
		  "call bpf_rcu_read_unlock\n" END "-- type\nsocket\n",
		  UNSAFE, "BPF_LD_[ABS|IND] cannot be used inside bpf_rcu_read_lock-ed region",
		  AGREE },
		/* (not followed: a region kfunc in a loop, a call inside a region) */
		{ "preempt_in_loop", "-- asm\nr6 = 0\nl: call bpf_preempt_disable\n"
		  "call bpf_preempt_enable\nr6 += 1\nif r6 < 4 goto l\n" END "-- type\ntc\n",
		  UNSUPPORTED, "inside a loop", VC_REGRESSION },
		{ "preempt_static_call", "-- asm\ncall bpf_preempt_disable\ncall f\n"
		  "call bpf_preempt_enable\n" END "f: " END "-- type\ntc\n",
		  UNSUPPORTED, "bpf-to-bpf function inside a non-preemptible region",
		  VC_REGRESSION },
		/* the reference join: each task released under its own null check */
		{ "join_null_ids", "-- asm\nr1 = 1\ncall bpf_task_from_pid\nr7 = r0\nr1 = 2\n"
		  "call bpf_task_from_pid\nr6 = r0\nif r7 == 0 goto out\nif r6 == 0 goto out\n"
		  "r0 = 0\nout: if r7 == 0 goto l5\nr1 = r7\ncall bpf_task_release\n"
		  "l5: if r6 == 0 goto l7\nr1 = r6\ncall bpf_task_release\nl7: " END
		  "-- type\ntc\n", SAFE, NULL, AGREE },
		{ "join_null_ids_leak", "-- asm\nr1 = 1\ncall bpf_task_from_pid\nr7 = r0\nr1 = 2\n"
		  "call bpf_task_from_pid\nr6 = r0\nif r7 == 0 goto out\nif r6 == 0 goto out\n"
		  "r0 = 0\nout: if r7 == 0 goto l7\nr1 = r7\ncall bpf_task_release\nl7: " END
		  "-- type\ntc\n", UNSAFE, "Unreleased reference", AGREE },
	};

	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		struct verdict_opts vo = { .sz = sizeof(vo), .kernel = kernel };

		verdict_case_file(rows[k].name, rows[k].text, &vo, rows[k].want, rows[k].reason,
				  rows[k].kclass);
	}
}

static void test_forged(void)
{
	verdict_case_forged_faults("forged_preempt_missing", "call bpf_preempt_disable\n" END,
				   NULL, 0, "bpf_preempt_enable is missing");
	verdict_case_forged_faults("forged_rcu_missing", "call bpf_rcu_read_lock\n" END, NULL, 0,
				   "bpf_rcu_read_unlock is missing");
	verdict_case_forged_faults("forged_preempt_unmatched", "call bpf_preempt_disable\n"
				   "call bpf_preempt_enable\ncall bpf_preempt_enable\n" END, NULL,
				   0, "unmatched attempt to enable preemption");
	verdict_case_forged_faults("forged_rcu_nested", "call bpf_rcu_read_lock\n"
				   "call bpf_rcu_read_lock\n" END, NULL, 0, "nested rcu read lock");
	verdict_case_forged_faults("forged_rcu_unmatched", "call bpf_rcu_read_unlock\n" END, NULL,
				   0, "unmatched rcu read unlock");
}

/* bpf_map_sum_elem_count (KF_TRUSTED_ARGS, the common hook) from the clang-built
 * tests/bpf/kfunc_map_iter.c: the bpf_map iterator's map after its NULL test, before it, a
 * number. */
static void test_map_iter(const char *path, bool kernel)
{
	static const char *const progs[] = { "map_count", "map_count_nocheck",
					     "map_count_number" };
	static const enum scev_verdict_kind want[] = { SAFE, UNSAFE, UNSAFE };
	static const char *const reasons[] = {
		NULL, "Possibly NULL pointer passed to trusted arg0",
		"R1 type=scalar expected=ptr_bpf_map",
	};

	verdict_case_object_why(path, progs, want, reasons, 3, kernel);
}

int main(int argc, char **argv)
{
	static const char *const progs[] = {
		"preempt_loop", "preempt_cond", "rcu_loop_tail", "preempt_cond_reread",
		"preempt_missing", "preempt_unmatched", "rcu_tail_inside", "rcu_nested",
	};
	static const enum scev_verdict_kind want[] = {
		SAFE, SAFE, SAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE,
	};
	static const char *const reasons[] = {
		NULL, NULL, NULL, "unmatched attempt to enable preemption",
		"(1 bpf_preempt_enable is missing)", "unmatched attempt to enable preemption",
		"tail_call cannot be used inside bpf_rcu_read_lock-ed region",
		"nested rcu read lock",
	};
	char path[1024];
	bool kernel, obj;

	check_parts(&argc, argv);
	if (!ebpf_kfunc_btf_available() || ebpf_kfunc_by_name("bpf_preempt_disable") <= 0 ||
	    ebpf_kfunc_by_name("bpf_task_from_pid") <= 0) {
		printf("SKIP: no vmlinux BTF, or the running kernel has no bpf_preempt_disable or "
		       "bpf_task_from_pid\n");
		return 77;
	}
	kernel = verdict_case_kernel("the kernel's verdicts");
	obj = verdict_case_bpf_part("kfunc_regions.o", path, sizeof(path));
	CHECK_STEP(test_table());
	CHECK_STEP(test_cases(kernel));
	if (obj)
		CHECK_STEP(verdict_case_object_why(path, progs, want, reasons,
						   sizeof(progs) / sizeof(progs[0]), kernel));
	CHECK_STEP(test_forged());
	if (verdict_case_bpf_part("kfunc_map_iter.o", path, sizeof(path)))
		CHECK_STEP(test_map_iter(path, kernel));
	return check_done("test_kfunc_regions");
}
