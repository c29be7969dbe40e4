/* kfuncs modeled from their prototype alone (bpf/kfunc_table.c): the cpumask queries and
 * updates and bpf_task_under_cgroup, which neither take nor give references, in the range
 * analysis and the verdict; and, for every kfunc of that table, the program types that may call
 * it ("calling kernel function X is not allowed", where the kernel's walk reaches the call).
 *
 * The call's effect: r0 is a number of any value when the kfunc returns one (the kernel's
 * mark_reg_unknown: its BTF width is not a bound it keeps), unwritten when it returns void; no
 * memory of the program is written (no argument is memory) and the packet does not move.  The
 * verdict checks each argument as check_kfunc_args does: a number where the prototype has an
 * integer ("R%d is not a scalar"); where it has a pointer to a struct, a kernel object of that
 * struct or of one that starts with it (btf_struct_ids_match walks the first members at offset
 * 0; the cpumask kfuncs take a struct bpf_cpumask for a struct cpumask so), at offset 0, not
 * NULL unless the argument's name ends in __nullable ("Possibly NULL pointer passed to trusted
 * arg"), and trusted or referenced (held on every path): an acquired object of this program,
 * or a trusted one (a BTF context's argument).  An RCU or untrusted object (walked from
 * another), any other pointer, or a value joined of several kinds is not modeled
 * (unsupported); so are the cpumask kfuncs given anything but a cpumask this program
 * acquired, the one kind the interpreter runs them on.
 *
 * The reference kfuncs whose arguments are numbers (bpf_task_from_pid, bpf_cgroup_from_id) or
 * that take a number after their object (bpf_cgroup_ancestor) have those numbers checked here
 * too; the objects are absint_ref.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "scev/absint.h"

#define VFAIL(kind_, pc_, ...)                                                                   \
	do {                                                                                      \
		verdict_fail(v, (kind_), (pc_), __VA_ARGS__);                                    \
		return;                                                                           \
	} while (0)

static const char *kfunc_name_at(const struct scev_ctx *cx, uint32_t pc)
{
	const struct bpf_insn *i = &cx->insns[pc];

	if (!cx->prog || !ebpf_is_call(i) || i->src_reg != BPF_PSEUDO_KFUNC_CALL || ebpf_srcbit(i))
		return NULL;
	return ebpf_prog_kfunc_name(cx->prog, pc);
}

/* The table's entry of the kfunc at pc when it is modeled from its prototype. */
static const struct ebpf_kfunc_info *plain_at(const struct scev_ctx *cx, uint32_t pc)
{
	const struct ebpf_kfunc_info *ki = ebpf_kfunc_info(kfunc_name_at(cx, pc));

	return ki && ki->op != EBPF_KOP_NONE ? ki : NULL;
}

bool absint_kfunc_plain(const struct scev_ctx *cx, uint32_t pc)
{
	return plain_at(cx, pc) != NULL;
}

bool absint_kfunc_void(const struct scev_ctx *cx, uint32_t pc)
{
	const struct ebpf_kfunc_info *ki = plain_at(cx, pc);
	struct ebpf_kfunc_proto p;

	return ki && !ebpf_kfunc_proto(ki->name, &p) && p.ret == EBPF_KRET_VOID;
}

void absint_kfunc_call(const struct scev_ctx *cx, uint32_t pc, struct aval *r0)
{
	const struct ebpf_kfunc_info *ki = plain_at(cx, pc);
	struct ebpf_kfunc_proto p;

	if (!ki)
		return;
	/* (a prototype not modeled: the verdict says unsupported; r0 stays unknown) */
	if (!ebpf_kfunc_proto(ki->name, &p) && p.ret == EBPF_KRET_SCALAR)
		*r0 = aval_scalar(range_unknown());
}

bool absint_sleepable(const struct scev_ctx *cx)
{
	const char *sec = cx->prog ? cx->prog->section : NULL, *dot;

	if (cx->prog_type == BPF_PROG_TYPE_SYSCALL)
		return true;
	if (!sec || !(dot = strstr(sec, ".s")))
		return false;
	return dot[2] == '/' || dot[2] == '\0';
}

/* The program types that may call kfunc ki (the kernel checks it where the walk reaches the
 * call: a call on a branch it prunes is loaded, probed on 6.18). */
static void verify_type(struct scev_ctx *cx, struct scev_verdict *v, uint32_t pc,
			const struct ebpf_kfunc_info *ki)
{
	switch (ebpf_kfunc_set_allows(ki->set, cx->prog_type)) {
	case 0:
		VFAIL(VERDICT_UNSAFE, pc, "calling kernel function %s is not allowed (the %s kfuncs "
		      "are not registered for this program type)", ki->name,
		      ki->set == EBPF_KSET_CPUMASK ? "cpumask" : "generic");
	case -1:
		VFAIL(VERDICT_UNSUPPORTED, pc, "%s: whether programs of type %u may call it is not "
		      "known", ki->name, cx->prog_type);
	}
}

/* The struct a kernel object a points to (REGION_BTF or REGION_KREF), 0 when not known. */
static int32_t obj_type(const struct scev_ctx *cx, const struct aval *a)
{
	if (a->region == REGION_KREF)
		return a->map < cx->nref_sites ? cx->ref_sites[a->map].btf : 0;
	return a->map < cx->nbtf_types ? cx->btf_types[a->map] : 0;
}

static void verify_obj_arg(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			   uint32_t pc, const struct ebpf_kfunc_info *ki,
			   const struct ebpf_kfunc_proto *p, unsigned a)
{
	const struct aval *r = &s->regs[a + 1];
	const char *want = ebpf_btf_type_name(p->obj[a]), *gname;
	bool strict_null = ki->flags & (EBPF_KF_TRUSTED_ARGS | EBPF_KF_RCU);
	int32_t got;

	want = want ? want : "?";
	if (r->kind == AV_TOP)
		VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s may be a pointer of another kind (a kernel "
		      "object joined with something else)", a + 1, ki->name);
	if (r->kind == AV_SCALAR) {
		uint64_t c;

		if (p->arg[a] == EBPF_KARG_OBJ_NULLABLE && aval_is_const(r, &c) && c == 0)
			return;
		if (!strict_null)
			VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s is a number (a kfunc without "
			      "KF_TRUSTED_ARGS or KF_RCU given one: not modeled)", a + 1, ki->name);
		VFAIL(VERDICT_UNSAFE, pc, "R%u type=scalar expected=ptr_%s (arg#%u of %s is a "
		      "kernel object: released already, or never one)", a + 1, want, a, ki->name);
	}
	if (r->kind != AV_PTR || (r->region != REGION_BTF && r->region != REGION_KREF))
		VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s is a %s pointer (arg#%u wants a struct %s "
		      "object: other pointers are not modeled)", a + 1, ki->name,
		      r->kind == AV_PTR ? claim_region_name(r->region) : "?", a, want);
	if (r->maybe_null && p->arg[a] != EBPF_KARG_OBJ_NULLABLE)
		VFAIL(VERDICT_UNSAFE, pc, "Possibly NULL pointer passed to trusted arg%u (%s before "
		      "the NULL check)", a, ki->name);
	if (!range_is_const(&r->r) || r->r.umin != 0)
		VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s is not at the object's start (an offset "
		      "into it is not modeled)", a + 1, ki->name);
	if (r->region == REGION_KREF) {
		if (cx->st.cfg->blocks[cx->st.cfg->block_of[pc]].func != 0)
			VFAIL(VERDICT_UNSUPPORTED, pc, "acquired kernel objects outside the main "
			      "function are not modeled");
		if (r->map >= cx->nref_sites || !(s->ref.must & (1ull << r->map)))
			VFAIL(VERDICT_UNSAFE, pc, "R%u of %s: the object acquired at %u may be released "
			      "on some path before this use", a + 1, ki->name,
			      r->map < cx->nref_sites ? cx->ref_sites[r->map].pc : 0);
	} else if (ki->set == EBPF_KSET_CPUMASK) {
		VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s is a cpumask this program did not acquire "
		      "(the interpreter runs the cpumask kfuncs on those only)", a + 1, ki->name);
	} else if (!(r->map < cx->nbtf_types && cx->btf_trusted[r->map] == BTF_TRUSTED)) {
		VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s is a kernel object read from another "
		      "(trusted, RCU or untrusted: not modeled)", a + 1, ki->name);
	}
	got = obj_type(cx, r);
	gname = ebpf_btf_type_name(got);
	if (got <= 0)
		VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s: a kernel object of no known struct",
		      a + 1, ki->name);
	if (got != p->obj[a] && !ebpf_btf_starts_with(got, want))
		VFAIL(VERDICT_UNSAFE, pc, "kernel function %s args#%u expected pointer to STRUCT %s "
		      "but R%u has a pointer to STRUCT %s", ki->name, a, want, a + 1,
		      gname ? gname : "?");
}

/* The numbers of a kfunc's prototype (from argument first on): written, and numbers. */
static void verify_scalars(struct scev_verdict *v, const struct astate *s, uint32_t pc,
			   const char *name, const struct ebpf_kfunc_proto *p, unsigned first)
{
	for (unsigned a = first; a < p->nargs; a++) {
		const struct aval *r = &s->regs[a + 1];

		if (p->arg[a] != EBPF_KARG_SCALAR)
			continue;
		if (!(s->init & (1u << (a + 1))))
			VFAIL(VERDICT_UNSAFE, pc, "R%u !read_ok (arg#%u of %s not written on some "
			      "path)", a + 1, a, name);
		if (r->kind == AV_TOP)
			VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s may be a pointer", a + 1, name);
		if (r->kind != AV_SCALAR)
			VFAIL(VERDICT_UNSAFE, pc, "R%u is not a scalar (arg#%u of %s is a number)",
			      a + 1, a, name);
	}
}

void absint_kfunc_verify_insn(struct scev_ctx *cx, struct scev_verdict *v,
			      const struct astate *s, uint32_t pc)
{
	const char *name = kfunc_name_at(cx, pc);
	const struct ebpf_kfunc_info *ki = ebpf_kfunc_info(name);
	const struct ebpf_kfunc_ref *kf;
	struct ebpf_kfunc_proto p;
	int err;

	if (!ki)
		return;
	verify_type(cx, v, pc, ki);
	if (v->kind != VERDICT_SAFE)
		return;
	err = ebpf_kfunc_proto(ki->name, &p);
	if (err)
		VFAIL(VERDICT_UNSUPPORTED, pc, "%s: %s", ki->name, err == -ENODATA
		      ? "no vmlinux BTF (its prototype is not known)" : err == -ENOENT
		      ? "the running kernel has no such kfunc" : p.why);
	if (ki->op == EBPF_KOP_NONE) {
		/* a reference kfunc: its object is absint_ref.c's, the numbers after it here */
		kf = ebpf_kfunc_ref(name);
		if (kf)
			verify_scalars(v, s, pc, ki->name, &p, kf->nargs);
		return;
	}
	v->checks++;
	for (unsigned a = 0; a < p.nargs && v->kind == VERDICT_SAFE; a++)
		if (p.arg[a] != EBPF_KARG_SCALAR) {
			if (!(s->init & (1u << (a + 1))))
				VFAIL(VERDICT_UNSAFE, pc, "R%u !read_ok (arg#%u of %s not written on "
				      "some path)", a + 1, a, ki->name);
			verify_obj_arg(cx, v, s, pc, ki, &p, a);
		}
	if (v->kind == VERDICT_SAFE)
		verify_scalars(v, s, pc, ki->name, &p, 0);
}
