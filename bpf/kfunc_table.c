/* The kfuncs bpfscev knows by name: the flags the kernel declares for them and the program
 * types that may call them, and their prototypes from the running kernel's vmlinux BTF.
 *
 * The flags (KF_ACQUIRE, KF_RELEASE, KF_RET_NULL, KF_TRUSTED_ARGS, KF_RCU, KF_SLEEPABLE,
 * KF_DESTRUCTIVE, KF_RCU_PROTECTED) are not in BTF: each kfunc is restated here from the
 * kernel's BTF_ID_FLAGS list that declares it, one group per source file and set, and a kfunc
 * that is not here is not modeled (its flags are never guessed).  Which program types may
 * call a kfunc is its set's registration (register_btf_kfunc_id_set) through
 * bpf_prog_type_to_kfunc_hook (kernel/bpf/btf.c), which puts TRACING, TRACEPOINT, PERF_EVENT
 * and LSM on one hook and the cgroup types on another; tests/test_kfunc_general.c holds each
 * set's types against the running kernel.
 *
 * The prototype (ebpf_kfunc_proto) is read from BTF: FUNC -> FUNC_PROTO, each parameter a
 * scalar (an integer or enum of up to 8 bytes), a pointer to a struct (a kernel object) or
 * something bpfscev does not model (memory and size pairs, the kernel's argument-name suffixes
 * other than __nullable: __k, __sz, __szk, __str, __uninit, __ign, ...), and the result void, a
 * scalar or a pointer to a struct.
 */
#include "bpf/isa.h"
#include "bpf/prog.h"

#include <bpf/btf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#define A EBPF_KF_ACQUIRE
#define R EBPF_KF_RELEASE
#define N EBPF_KF_RET_NULL
#define T EBPF_KF_TRUSTED_ARGS
#define U EBPF_KF_RCU

static const struct ebpf_kfunc_info kfuncs[] = {
	/* kernel/bpf/cpumask.c, cpumask_kfunc_btf_ids (TRACING, STRUCT_OPS, SYSCALL) */
	{ "bpf_cpumask_create", A | N, EBPF_KSET_CPUMASK, EBPF_KOP_NONE },
	{ "bpf_cpumask_release", R, EBPF_KSET_CPUMASK, EBPF_KOP_NONE },
	{ "bpf_cpumask_acquire", A | T, EBPF_KSET_CPUMASK, EBPF_KOP_NONE },
	{ "bpf_cpumask_first", U, EBPF_KSET_CPUMASK, EBPF_KOP_CM_FIRST },
	{ "bpf_cpumask_first_zero", U, EBPF_KSET_CPUMASK, EBPF_KOP_CM_FIRST_ZERO },
	{ "bpf_cpumask_first_and", U, EBPF_KSET_CPUMASK, EBPF_KOP_CM_FIRST_AND },
	{ "bpf_cpumask_set_cpu", U, EBPF_KSET_CPUMASK, EBPF_KOP_CM_SET_CPU },
	{ "bpf_cpumask_clear_cpu", U, EBPF_KSET_CPUMASK, EBPF_KOP_CM_CLEAR_CPU },
	{ "bpf_cpumask_test_cpu", U, EBPF_KSET_CPUMASK, EBPF_KOP_CM_TEST_CPU },
	{ "bpf_cpumask_test_and_set_cpu", U, EBPF_KSET_CPUMASK, EBPF_KOP_CM_TEST_SET },
	{ "bpf_cpumask_test_and_clear_cpu", U, EBPF_KSET_CPUMASK, EBPF_KOP_CM_TEST_CLEAR },
	{ "bpf_cpumask_setall", U, EBPF_KSET_CPUMASK, EBPF_KOP_CM_SETALL },
	{ "bpf_cpumask_clear", U, EBPF_KSET_CPUMASK, EBPF_KOP_CM_CLEAR },
	{ "bpf_cpumask_and", U, EBPF_KSET_CPUMASK, EBPF_KOP_CM_AND },
	{ "bpf_cpumask_or", U, EBPF_KSET_CPUMASK, EBPF_KOP_CM_OR },
	{ "bpf_cpumask_xor", U, EBPF_KSET_CPUMASK, EBPF_KOP_CM_XOR },
	{ "bpf_cpumask_equal", U, EBPF_KSET_CPUMASK, EBPF_KOP_CM_EQUAL },
	{ "bpf_cpumask_intersects", U, EBPF_KSET_CPUMASK, EBPF_KOP_CM_INTERSECTS },
	{ "bpf_cpumask_subset", U, EBPF_KSET_CPUMASK, EBPF_KOP_CM_SUBSET },
	{ "bpf_cpumask_empty", U, EBPF_KSET_CPUMASK, EBPF_KOP_CM_EMPTY },
	{ "bpf_cpumask_full", U, EBPF_KSET_CPUMASK, EBPF_KOP_CM_FULL },
	{ "bpf_cpumask_copy", U, EBPF_KSET_CPUMASK, EBPF_KOP_CM_COPY },
	{ "bpf_cpumask_any_distribute", U, EBPF_KSET_CPUMASK, EBPF_KOP_CM_ANY },
	{ "bpf_cpumask_any_and_distribute", U, EBPF_KSET_CPUMASK, EBPF_KOP_CM_ANY_AND },
	{ "bpf_cpumask_weight", U, EBPF_KSET_CPUMASK, EBPF_KOP_CM_WEIGHT },
	/* kernel/bpf/helpers.c, generic_btf_ids (TRACING, SCHED_CLS, XDP, STRUCT_OPS, SYSCALL,
	 * CGROUP_SKB) */
	{ "bpf_task_acquire", A | U | N, EBPF_KSET_GENERIC, EBPF_KOP_NONE },
	{ "bpf_task_release", R, EBPF_KSET_GENERIC, EBPF_KOP_NONE },
	{ "bpf_task_from_pid", A | N, EBPF_KSET_GENERIC, EBPF_KOP_NONE },
	{ "bpf_cgroup_acquire", A | U | N, EBPF_KSET_GENERIC, EBPF_KOP_NONE },
	{ "bpf_cgroup_release", R, EBPF_KSET_GENERIC, EBPF_KOP_NONE },
	{ "bpf_cgroup_ancestor", A | U | N, EBPF_KSET_GENERIC, EBPF_KOP_NONE },
	{ "bpf_cgroup_from_id", A | N, EBPF_KSET_GENERIC, EBPF_KOP_NONE },
	{ "bpf_task_under_cgroup", U, EBPF_KSET_GENERIC, EBPF_KOP_DRAW },
	/* kernel/bpf/helpers.c, common_btf_ids (BPF_PROG_TYPE_UNSPEC: every program type) */
	{ "bpf_rcu_read_lock", 0, EBPF_KSET_COMMON, EBPF_KOP_RCU_LOCK },
	{ "bpf_rcu_read_unlock", 0, EBPF_KSET_COMMON, EBPF_KOP_RCU_UNLOCK },
	{ "bpf_preempt_disable", 0, EBPF_KSET_COMMON, EBPF_KOP_PREEMPT_OFF },
	{ "bpf_preempt_enable", 0, EBPF_KSET_COMMON, EBPF_KOP_PREEMPT_ON },
	/* kernel/bpf/helpers.c, generic_btf_ids: bpf_throw (no flags) ends the run with an
	 * exception (scev/absint_throw.c) */
	{ "bpf_throw", 0, EBPF_KSET_GENERIC, EBPF_KOP_THROW },
	/* kernel/bpf/map_iter.c, bpf_map_iter_kfunc_ids (BPF_PROG_TYPE_UNSPEC: every type) */
	{ "bpf_map_sum_elem_count", T, EBPF_KSET_COMMON, EBPF_KOP_DRAW },
};

#undef A
#undef R
#undef N
#undef T
#undef U

const struct ebpf_kfunc_info *ebpf_kfunc_info(const char *name)
{
	for (size_t k = 0; name && k < sizeof(kfuncs) / sizeof(kfuncs[0]); k++)
		if (!strcmp(kfuncs[k].name, name))
			return &kfuncs[k];
	return NULL;
}

const struct ebpf_kfunc_info *ebpf_kfunc_info_at(size_t k)
{
	return k < sizeof(kfuncs) / sizeof(kfuncs[0]) ? &kfuncs[k] : NULL;
}

/* The kernel's hooks (bpf_prog_type_to_kfunc_hook) of the types each set is registered for:
 * kernel/bpf/btf.c puts TRACING, TRACEPOINT, PERF_EVENT and LSM on one hook, the cgroup types on
 * another (6.18 loads a generic kfunc from SOCK_OPS too: probed, tests/test_kfunc_general.c). */
static bool tracing_hook(uint32_t t)
{
	return t == BPF_PROG_TYPE_TRACING || t == BPF_PROG_TYPE_TRACEPOINT ||
	       t == BPF_PROG_TYPE_PERF_EVENT || t == BPF_PROG_TYPE_LSM;
}

static bool cgroup_hook(uint32_t t)
{
	return t == BPF_PROG_TYPE_CGROUP_SKB || t == BPF_PROG_TYPE_CGROUP_SOCK ||
	       t == BPF_PROG_TYPE_CGROUP_DEVICE || t == BPF_PROG_TYPE_CGROUP_SOCK_ADDR ||
	       t == BPF_PROG_TYPE_CGROUP_SOCKOPT || t == BPF_PROG_TYPE_CGROUP_SYSCTL ||
	       t == BPF_PROG_TYPE_SOCK_OPS;
}

/* The types whose refusals were probed on the running 6.18 (the case files' types; KPROBE:
 * the outside set's kretprobe programs calling bpf_task_acquire and bpf_cgroup_acquire are
 * refused "calling kernel function ... is not allowed"; the cpumask set's refusal there is
 * inferred, not probed: KPROBE has a hook of its own, which neither set is registered for). */
static bool probed(uint32_t t)
{
	return t == BPF_PROG_TYPE_KPROBE || t == BPF_PROG_TYPE_XDP || t == BPF_PROG_TYPE_SCHED_CLS ||
	       t == BPF_PROG_TYPE_SOCKET_FILTER || t == BPF_PROG_TYPE_RAW_TRACEPOINT ||
	       t == BPF_PROG_TYPE_CGROUP_SKB || t == BPF_PROG_TYPE_SOCK_OPS ||
	       t == BPF_PROG_TYPE_CGROUP_SOCK || t == BPF_PROG_TYPE_CGROUP_DEVICE ||
	       t == BPF_PROG_TYPE_SK_LOOKUP || t == BPF_PROG_TYPE_SK_REUSEPORT;
}

int ebpf_kfunc_set_allows(unsigned set, uint32_t prog_type)
{
	bool yes;

	switch (set) {
	case EBPF_KSET_CPUMASK:
		yes = tracing_hook(prog_type) || prog_type == BPF_PROG_TYPE_STRUCT_OPS ||
		      prog_type == BPF_PROG_TYPE_SYSCALL;
		break;
	case EBPF_KSET_GENERIC:
		yes = tracing_hook(prog_type) || cgroup_hook(prog_type) ||
		      prog_type == BPF_PROG_TYPE_SCHED_CLS || prog_type == BPF_PROG_TYPE_XDP ||
		      prog_type == BPF_PROG_TYPE_STRUCT_OPS || prog_type == BPF_PROG_TYPE_SYSCALL;
		break;
	case EBPF_KSET_COMMON:
		/* (registered for BPF_PROG_TYPE_UNSPEC, the common hook every type reads:
		 * btf_kfunc_id_set_contains) */
		return 1;
	default:
		return -1;
	}
	return yes ? 1 : probed(prog_type) ? 0 : -1;
}

/* The argument-name suffixes kernel/bpf/verifier.c reads (is_kfunc_arg_*): any of them but
 * __nullable makes the argument one bpfscev does not model. */
static const char *const suffixes[] = {
	"__sz", "__szk", "__k", "__ign", "__uninit", "__str", "__opt", "__refcounted_kptr",
	"__map", "__alloc", "__prog", "__irq_flag", "__async",
};

static bool has_suffix(const char *name, const char *sfx)
{
	size_t n = strlen(name), m = strlen(sfx);

	return n > m && !strcmp(name + n - m, sfx);
}

/* The struct a pointer type id points to (modifiers and typedefs skipped), 0 when it points
 * to anything else. */
static int32_t ptr_struct(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(btf, id = t->type);
	if (!t || !btf_is_ptr(t))
		return 0;
	id = t->type;
	t = btf__type_by_id(btf, id);
	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(btf, id = t->type);
	return t && btf_is_struct(t) ? (int32_t)id : 0;
}

/* Whether type id is an integer or enum of up to 8 bytes (a scalar the kernel takes whole). */
static bool scalar_type(const struct btf *btf, uint32_t id, uint8_t *size)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(btf, t->type);
	if (!t || !(btf_is_int(t) || btf_is_any_enum(t)) || t->size > 8)
		return false;
	*size = (uint8_t)t->size;
	return true;
}

int ebpf_kfunc_proto(const char *name, struct ebpf_kfunc_proto *out)
{
	const struct btf *btf = ebpf_vmlinux_btf();
	const struct btf_type *f, *p;
	const struct btf_param *par;
	int32_t id;

	memset(out, 0, sizeof(*out));
	if (!btf)
		return -ENODATA;
	if ((id = ebpf_kfunc_by_name(name)) <= 0)
		return id < 0 ? id : -ENOENT;
	f = btf__type_by_id(btf, (uint32_t)id);
	p = f ? btf__type_by_id(btf, f->type) : NULL;
	if (!p || !btf_is_func_proto(p))
		return -ENOENT;
	if (btf_vlen(p) > 5) {
		snprintf(out->why, sizeof(out->why), "%s takes %d arguments", name, btf_vlen(p));
		return -E2BIG;
	}
	out->nargs = (uint8_t)btf_vlen(p);
	par = btf_params(p);
	for (int a = 0; a < out->nargs; a++) {
		const char *pn = btf__name_by_offset(btf, par[a].name_off);

		pn = pn ? pn : "";
		out->arg[a] = EBPF_KARG_OTHER;
		for (size_t s = 0; s < sizeof(suffixes) / sizeof(suffixes[0]); s++)
			if (has_suffix(pn, suffixes[s]))
				snprintf(out->why, sizeof(out->why), "%s's argument %d '%s' (the "
					 "kernel's '%s' rule is not modeled)", name, a + 1, pn,
					 suffixes[s]);
		if (out->why[0])
			return -EOPNOTSUPP;
		if (scalar_type(btf, par[a].type, &out->size[a])) {
			out->arg[a] = EBPF_KARG_SCALAR;
		} else if ((out->obj[a] = ptr_struct(btf, par[a].type)) > 0) {
			out->arg[a] = has_suffix(pn, "__nullable") ? EBPF_KARG_OBJ_NULLABLE
								   : EBPF_KARG_OBJ;
		} else {
			snprintf(out->why, sizeof(out->why), "%s's argument %d '%s' is neither a "
				 "number nor a pointer to a struct (memory arguments are not "
				 "modeled)", name, a + 1, pn);
			return -EOPNOTSUPP;
		}
	}
	if (!p->type) {
		out->ret = EBPF_KRET_VOID;
	} else if (scalar_type(btf, p->type, &out->ret_size)) {
		out->ret = EBPF_KRET_SCALAR;
	} else if ((out->ret_obj = ptr_struct(btf, p->type)) > 0) {
		out->ret = EBPF_KRET_OBJ;
	} else {
		snprintf(out->why, sizeof(out->why), "%s returns neither a number nor a pointer to "
			 "a struct", name);
		return -EOPNOTSUPP;
	}
	return 0;
}
