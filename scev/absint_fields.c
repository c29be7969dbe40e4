/* The special fields of map values (ebpf_map_def.fields: bpf_spin_lock, bpf_list_head, kptrs,
 * ...; the struct bpf_timer of .timer is absint_timer.c's) in the range analysis and the
 * verdict, as the kernel's check_map_access and check_map_kptr_access take them.
 *
 * No load, store or helper may touch the bytes of a field but a kptr's ("bpf_spin_lock cannot be
 * accessed directly by load/store").  A kptr (a pointer tagged __kptr or __kptr_untrusted) is
 * read and written whole, by a plain BPF_MEM instruction of 8 bytes at its constant offset, never
 * by a helper.  A load gives a PTR_TO_BTF_ID of the struct it points to, or NULL (the kernel's
 * btf_ld_kptr_type: PTR_MAYBE_NULL | PTR_UNTRUSTED, or MEM_RCU for a __kptr in a program that is
 * not sleepable): here an untrusted REGION_BTF pointer, which must be tested against NULL before
 * a read through it and is passed to no helper or kfunc that wants a trusted one — stricter than
 * MEM_RCU, never looser.  A store must be of NULL to a __kptr_untrusted (a BPF_ST of 0, or a
 * register known 0); a __kptr takes none (bpf_kptr_xchg only, not modeled).  Storing a kernel
 * object into a __kptr_untrusted, which the kernel allows for the matching struct, is answered
 * unsupported, as are percpu kptrs and uptrs, and fields the ELF reader could not place (inside
 * a union).  The interpreter sees a kptr as the number the value holds, which stays 0: nothing
 * the verdict calls safe writes anything else, and an update's copy skips the fields as the
 * kernel's copy_map_value does (oracle/exec/interp.c: value_update).
 */
#include <stdio.h>

#include "scev/absint.h"

#define FFAIL(kind_, ...)                                                                         \
	do {                                                                                      \
		verdict_fail(v, (kind_), pc, __VA_ARGS__);                                       \
		return true;                                                                      \
	} while (0)

const struct ebpf_map_field *absint_map_field(const struct scev_ctx *cx, uint32_t m,
					      __int128 lo, __int128 hi)
{
	if (m >= cx->nmaps || !cx->maps[m].nfields || hi <= 0 || lo >= (__int128)UINT32_MAX)
		return NULL;
	return ebpf_map_field_at(&cx->maps[m], lo < 0 ? 0 : (int64_t)lo,
				 hi > (__int128)UINT32_MAX ? (int64_t)UINT32_MAX : (int64_t)hi);
}

struct aval absint_field_load(struct scev_ctx *cx, const struct ebpf_map_field *f,
			      const struct aval *addr, const struct bpf_insn *i, unsigned size)
{
	int32_t id;
	struct aval v;

	if ((f->kind != EBPF_FIELD_KPTR_UNREF && f->kind != EBPF_FIELD_KPTR_REF) || size != 8 ||
	    ebpf_mode(i) != BPF_MEM || !range_is_const(&addr->r) ||
	    (int64_t)addr->r.umin + i->off != (int64_t)f->off ||
	    (id = ebpf_btf_struct_by_name(f->obj)) <= 0)
		return absint_unknown_bytes(size);	/* (refused: absint_fields_verify) */
	v = absint_btf_ptr_as(cx, id, BTF_UNTRUSTED);
	v.maybe_null = v.kind == AV_PTR;
	return v;
}

bool absint_fields_verify(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			  uint32_t pc, const struct aval *a, __int128 lo, __int128 hi, unsigned size)
{
	const struct ebpf_map_def *def = a->map < cx->nmaps ? &cx->maps[a->map] : NULL;
	const struct bpf_insn *i = &cx->insns[pc];
	uint8_t cls = ebpf_class(i);
	const struct ebpf_map_field *f;
	const char *name;

	if (!def)
		return false;
	if (def->fields_over)
		FFAIL(VERDICT_UNSUPPORTED, "a value of map '%s' holds more than %d special fields "
		      "(spin locks, kptrs, ...): where the others are is not known", def->name,
		      EBPF_MAP_FIELDS);
	if (!(f = absint_map_field(cx, a->map, lo, hi)))
		return false;
	name = ebpf_field_name(f->kind);
	if (f->kind == EBPF_FIELD_UNSURE)
		FFAIL(VERDICT_UNSUPPORTED, "[%lld, %lld) of a value of map '%s' overlaps a special "
		      "field inside a union (at %u), which is not modeled", absint_ll_sat(lo),
		      absint_ll_sat(hi), def->name, f->off);
	if (!ebpf_field_is_kptr(f->kind))
		FFAIL(VERDICT_UNSAFE, "%s cannot be accessed directly by load/store ([%lld, %lld) of "
		      "a value of map '%s', whose %s is at %u)", name, absint_ll_sat(lo),
		      absint_ll_sat(hi), def->name, name, f->off);
	if (cls != BPF_LDX && cls != BPF_ST && cls != BPF_STX)
		FFAIL(VERDICT_UNSAFE, "%s cannot be accessed indirectly by helper ([%lld, %lld) of a "
		      "value of map '%s', whose %s is at %u)", name, absint_ll_sat(lo),
		      absint_ll_sat(hi), def->name, name, f->off);
	if (lo != hi - size)
		FFAIL(VERDICT_UNSAFE, "%s access cannot have variable offset", name);
	if (lo != f->off)
		FFAIL(VERDICT_UNSAFE, "%s access misaligned expected=%u off=%lld", name, f->off,
		      absint_ll_sat(lo));
	if (size != 8)
		FFAIL(VERDICT_UNSAFE, "%s access size must be BPF_DW", name);
	if (ebpf_mode(i) != BPF_MEM)
		FFAIL(VERDICT_UNSAFE, "kptr in map can only be accessed using BPF_MEM instruction "
		      "mode");
	if (cls != BPF_LDX && (f->kind == EBPF_FIELD_KPTR_REF || f->kind == EBPF_FIELD_KPTR_PERCPU))
		FFAIL(VERDICT_UNSAFE, "store to referenced kptr disallowed (map '%s', at %u)",
		      def->name, f->off);
	if (cls != BPF_LDX && f->kind == EBPF_FIELD_UPTR)
		FFAIL(VERDICT_UNSAFE, "store to uptr disallowed");
	if (f->kind == EBPF_FIELD_KPTR_PERCPU || f->kind == EBPF_FIELD_UPTR)
		FFAIL(VERDICT_UNSUPPORTED, "a load of a %s field (map '%s', at %u) is not modeled",
		      f->kind == EBPF_FIELD_UPTR ? "uptr" : "percpu_kptr", def->name, f->off);
	if (cls == BPF_LDX && ebpf_btf_struct_by_name(f->obj) <= 0)
		FFAIL(VERDICT_UNSUPPORTED, "a kptr to struct %s (map '%s', at %u), which the "
		      "kernel's BTF does not describe here", f->obj, def->name, f->off);
	if (cls == BPF_ST && i->imm)
		FFAIL(VERDICT_UNSAFE, "BPF_ST imm must be 0 when storing to kptr at off=%u", f->off);
	if (cls == BPF_STX) {
		const struct aval *x = &s->regs[i->src_reg];
		uint64_t c;

		if (x->kind == AV_SCALAR && !(aval_is_const(x, &c) && c == 0))
			FFAIL(VERDICT_UNSAFE, "invalid kptr access, R%u type=scalar (only NULL or a "
			      "kernel object may be stored into the kptr at %u of map '%s')",
			      i->src_reg, f->off, def->name);
		if (x->kind != AV_SCALAR)
			FFAIL(VERDICT_UNSUPPORTED, "a store of R%u into the kptr at %u of map '%s': "
			      "only NULL is modeled", i->src_reg, f->off, def->name);
	}
	return false;
}

/* What check_map_prog_compatibility refuses of a map with fields, before verifying: no socket
 * filter or tracing program may name a map with a spin lock, no tracing program one with a
 * list, a tree or a bpf_wq; NULL when the program type may. */
static const char *field_refused(uint32_t prog_type, uint8_t kind)
{
	bool tracing = prog_type == BPF_PROG_TYPE_KPROBE || prog_type == BPF_PROG_TYPE_TRACEPOINT ||
		       prog_type == BPF_PROG_TYPE_PERF_EVENT ||
		       prog_type == BPF_PROG_TYPE_RAW_TRACEPOINT ||
		       prog_type == BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE;

	switch (kind) {
	case EBPF_FIELD_SPIN_LOCK: case EBPF_FIELD_RES_SPIN_LOCK:
		return prog_type == BPF_PROG_TYPE_SOCKET_FILTER
		       ? "socket filter progs cannot use bpf_spin_lock yet"
		       : tracing ? "tracing progs cannot use bpf_spin_lock yet" : NULL;
	case EBPF_FIELD_LIST_HEAD: case EBPF_FIELD_RB_ROOT:
		return tracing ? "tracing progs cannot use bpf_{list_head,rb_root} yet" : NULL;
	case EBPF_FIELD_WQ:
		return tracing ? "tracing progs cannot use bpf_wq yet" : NULL;
	case EBPF_FIELD_TIMER:
		return tracing ? "tracing progs cannot use bpf_timer yet" : NULL;
	default:
		return NULL;
	}
}

void absint_fields_maps_check(const struct scev_ctx *cx, struct scev_verdict *v)
{
	int64_t storage[2] = { -1, -1 };	/* the cgroup storage named first, of each type */

	/* (every map the program names, reached or not, as the kernel's resolve_pseudo_ldimm64) */
	for (uint32_t pc = 0; pc < cx->len; pc += ebpf_insn_slots(&cx->insns[pc])) {
		const struct bpf_insn *i = &cx->insns[pc];
		const struct ebpf_map_def *def;
		int st;

		if (!ebpf_is_ldimm64(i) || (i->src_reg != BPF_PSEUDO_MAP_FD &&
					    i->src_reg != BPF_PSEUDO_MAP_IDX &&
					    i->src_reg != BPF_PSEUDO_MAP_VALUE &&
					    i->src_reg != BPF_PSEUDO_MAP_IDX_VALUE) ||
		    (uint32_t)i->imm >= cx->nmaps)
			continue;
		def = &cx->maps[i->imm];
		/* __add_used_map, bpf_cgroup_storage_assign: a program keeps one cgroup storage
		 * map of each type (shared and per-CPU); a second is a load error (-EBUSY) */
		st = def->type == BPF_MAP_TYPE_CGROUP_STORAGE ? 0
		     : def->type == BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE ? 1 : -1;
		if (st >= 0 && storage[st] >= 0 && storage[st] != i->imm) {
			verdict_fail(v, VERDICT_UNSAFE, pc, "only one cgroup storage of each type is "
				     "allowed (map '%s' after '%s')", def->name,
				     cx->maps[storage[st]].name);
			return;
		}
		if (st >= 0)
			storage[st] = i->imm;
		if ((def->fields_over || ebpf_map_field_at(def, 0, INT64_MAX)) &&
		    field_refused(cx->prog_type, EBPF_FIELD_SPIN_LOCK)) {
			for (uint8_t k = 0; k < def->nfields && k < EBPF_MAP_FIELDS; k++)
				if (def->fields[k].kind == EBPF_FIELD_UNSURE)
					def = NULL;
			if (!def || cx->maps[i->imm].fields_over) {
				verdict_fail(v, VERDICT_UNSUPPORTED, pc, "map '%s' holds special fields "
					     "not placed (in a union, or too many): whether a program "
					     "of this type may name it is not known",
					     cx->maps[i->imm].name);
				return;
			}
		}
		for (uint8_t k = 0; k < def->nfields && k < EBPF_MAP_FIELDS; k++) {
			const char *why = field_refused(cx->prog_type, def->fields[k].kind);

			if (why) {
				verdict_fail(v, VERDICT_UNSAFE, pc, "%s (map '%s' holds a struct %s)",
					     why, def->name, ebpf_field_name(def->fields[k].kind));
				return;
			}
		}
	}
}
