/* kfunc names and the running kernel's BTF ids for them.
 *
 * A kfunc call (src_reg BPF_PSEUDO_KFUNC_CALL) names its function by a BTF id of the running
 * kernel, which is what an ELF object's extern call becomes at load time (libbpf looks the name
 * up in vmlinux BTF).  The vmlinux BTF is read once per process, through libbpf's
 * btf__load_vmlinux_btf(); where there is none (a kernel built without it, an unreadable
 * /sys/kernel/btf/vmlinux, or BPFSCEV_NO_VMLINUX_BTF set in the environment to test that path),
 * nothing resolves and callers keep the name alone.
 */
#include "bpf/isa.h"
#include "bpf/prog.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t vmlinux_once = PTHREAD_ONCE_INIT;
static struct btf *vmlinux;

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static void load_vmlinux(void)
{
	const char *no = getenv("BPFSCEV_NO_VMLINUX_BTF");
	libbpf_print_fn_t old;

	if (no && *no && *no != '0')
		return;
	old = libbpf_set_print(quiet);
	vmlinux = btf__load_vmlinux_btf();
	libbpf_set_print(old);
	if (libbpf_get_error(vmlinux))
		vmlinux = NULL;
}

const struct btf *ebpf_vmlinux_btf(void)
{
	pthread_once(&vmlinux_once, load_vmlinux);
	return vmlinux;
}

bool ebpf_kfunc_btf_available(void)
{
	pthread_once(&vmlinux_once, load_vmlinux);
	return vmlinux != NULL;
}

/* The last names looked up: btf__find_by_name_kind walks every type, and the generators ask
 * for the same few kfuncs in every program. */
#define KFUNC_MEMO 8
static pthread_mutex_t memo_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	char name[64];
	int32_t id;
} memo[KFUNC_MEMO];
static unsigned memo_next;

int32_t ebpf_kfunc_by_name(const char *name)
{
	int id;

	if (!ebpf_kfunc_btf_available())
		return -ENODATA;
	pthread_mutex_lock(&memo_lock);
	for (unsigned k = 0; k < KFUNC_MEMO; k++)
		if (memo[k].name[0] && !strcmp(memo[k].name, name)) {
			id = memo[k].id;
			pthread_mutex_unlock(&memo_lock);
			return id;
		}
	pthread_mutex_unlock(&memo_lock);
	id = btf__find_by_name_kind(vmlinux, name, BTF_KIND_FUNC);
	id = id > 0 ? id : -ENOENT;
	if (strlen(name) < sizeof(memo[0].name)) {
		pthread_mutex_lock(&memo_lock);
		snprintf(memo[memo_next].name, sizeof(memo[0].name), "%s", name);
		memo[memo_next].id = id;
		memo_next = (memo_next + 1) % KFUNC_MEMO;
		pthread_mutex_unlock(&memo_lock);
	}
	return id;
}

static pthread_once_t throw_once = PTHREAD_ONCE_INIT;
static int32_t throw_id;

static void find_throw(void)
{
	throw_id = ebpf_kfunc_btf_available() ? btf__find_by_name_kind(vmlinux, "bpf_throw",
								       BTF_KIND_FUNC) : 0;
}

int32_t ebpf_throw_btf_id(void)
{
	pthread_once(&throw_once, find_throw);
	return throw_id;
}

int32_t ebpf_btf_struct_by_name(const char *name)
{
	int id;

	if (!ebpf_kfunc_btf_available())
		return -ENODATA;
	id = btf__find_by_name_kind(vmlinux, name, BTF_KIND_STRUCT);
	return id > 0 ? id : -ENOENT;
}

int64_t ebpf_btf_member_off(const char *name, const char *member)
{
	int32_t id = ebpf_btf_struct_by_name(name);
	const struct btf_type *t = id > 0 ? btf__type_by_id(vmlinux, (uint32_t)id) : NULL;

	for (int k = 0; t && k < btf_vlen(t); k++) {
		const char *n = btf__name_by_offset(vmlinux, btf_members(t)[k].name_off);

		if (n && !strcmp(n, member) && !btf_member_bitfield_size(t, (uint32_t)k) &&
		    btf_member_bit_offset(t, (uint32_t)k) % 8 == 0)
			return btf_member_bit_offset(t, (uint32_t)k) / 8;
	}
	return -1;
}

const char *ebpf_btf_type_name(int32_t id)
{
	const struct btf_type *t;

	if (id <= 0 || !ebpf_kfunc_btf_available())
		return NULL;
	t = btf__type_by_id(vmlinux, (uint32_t)id);
	return t ? btf__name_by_offset(vmlinux, t->name_off) : NULL;
}

const char *ebpf_kfunc_name(int32_t id)
{
	const struct btf_type *t;

	if (id <= 0 || !ebpf_kfunc_btf_available())
		return NULL;
	t = btf__type_by_id(vmlinux, (uint32_t)id);
	if (!t || !btf_is_func(t))
		return NULL;
	return btf__name_by_offset(vmlinux, t->name_off);
}

static const struct ebpf_kfunc_ref kfunc_refs[] = {
	/* kernel/bpf/helpers.c */
	{ "bpf_task_acquire", EBPF_KF_ACQUIRE | EBPF_KF_RCU | EBPF_KF_RET_NULL, "task_struct", 1 },
	{ "bpf_task_release", EBPF_KF_RELEASE, "task_struct", 1 },
	{ "bpf_cgroup_acquire", EBPF_KF_ACQUIRE | EBPF_KF_RCU | EBPF_KF_RET_NULL, "cgroup", 1 },
	{ "bpf_cgroup_release", EBPF_KF_RELEASE, "cgroup", 1 },
	{ "bpf_cgroup_ancestor", EBPF_KF_ACQUIRE | EBPF_KF_RCU | EBPF_KF_RET_NULL, "cgroup", 1 },
	/* (their arguments are numbers: a pid, a cgroup id) */
	{ "bpf_task_from_pid", EBPF_KF_ACQUIRE | EBPF_KF_RET_NULL, "task_struct", 0 },
	{ "bpf_cgroup_from_id", EBPF_KF_ACQUIRE | EBPF_KF_RET_NULL, "cgroup", 0 },
	/* kernel/bpf/cpumask.c */
	{ "bpf_cpumask_create", EBPF_KF_ACQUIRE | EBPF_KF_RET_NULL, "bpf_cpumask", 0 },
	{ "bpf_cpumask_acquire", EBPF_KF_ACQUIRE | EBPF_KF_TRUSTED_ARGS, "bpf_cpumask", 1 },
	{ "bpf_cpumask_release", EBPF_KF_RELEASE, "bpf_cpumask", 1 },
};

const struct ebpf_kfunc_ref *ebpf_kfunc_ref(const char *name)
{
	for (size_t k = 0; name && k < sizeof(kfunc_refs) / sizeof(kfunc_refs[0]); k++)
		if (!strcmp(kfunc_refs[k].name, name))
			return &kfunc_refs[k];
	return NULL;
}

static const struct ebpf_iter_info iter_families[EBPF_ITER__COUNT] = {
	[EBPF_ITER_NUM] = { "num", 8, true, false, false, false, NULL, NULL },
	[EBPF_ITER_BITS] = { "bits", 16, true, false, false, false, NULL, NULL },
	/* (bpf_iter_task_new(it, task__nullable, flags), KF_TRUSTED_ARGS | KF_RCU_PROTECTED) */
	[EBPF_ITER_TASK] = { "task", 24, true, true, true, false, "task_struct", "task_struct" },
	/* (bpf_iter_css_new(it, start, flags), KF_TRUSTED_ARGS | KF_RCU_PROTECTED) */
	[EBPF_ITER_CSS] = { "css", 24, true, false, true, false, "cgroup_subsys_state",
			    "cgroup_subsys_state" },
	/* (bpf_iter_css_task_new(it, css, flags), KF_TRUSTED_ARGS) */
	[EBPF_ITER_CSS_TASK] = { "css_task", 8, true, false, false, true, "task_struct",
				 "cgroup_subsys_state" },
	/* (bpf_iter_task_vma_new(it, task, addr), KF_RCU) */
	[EBPF_ITER_TASK_VMA] = { "task_vma", 8, true, false, false, false, "vm_area_struct",
				 "task_struct" },
	[EBPF_ITER_KMEM_CACHE] = { "kmem_cache", 8, false, false, false, false, "kmem_cache", NULL },
	[EBPF_ITER_DMABUF] = { "dmabuf", 8, false, false, false, false, "dma_buf", NULL },
};

const struct ebpf_iter_info *ebpf_iter_family(unsigned family)
{
	return family < EBPF_ITER__COUNT ? &iter_families[family] : NULL;
}

static const char *const iter_kfuncs[EBPF_ITER__COUNT][3] = {
#define NAMES(f) { "bpf_iter_" #f "_new", "bpf_iter_" #f "_next", "bpf_iter_" #f "_destroy" }
	[EBPF_ITER_NUM] = NAMES(num),
	[EBPF_ITER_BITS] = NAMES(bits),
	[EBPF_ITER_TASK] = NAMES(task),
	[EBPF_ITER_CSS] = NAMES(css),
	[EBPF_ITER_CSS_TASK] = NAMES(css_task),
	[EBPF_ITER_TASK_VMA] = NAMES(task_vma),
	[EBPF_ITER_KMEM_CACHE] = NAMES(kmem_cache),
	[EBPF_ITER_DMABUF] = NAMES(dmabuf),
#undef NAMES
};

bool ebpf_kfunc_iter(const char *name, struct ebpf_kfunc_iter *out)
{
	if (!name || strncmp(name, "bpf_iter_", 9))
		return false;
	for (unsigned f = 0; f < EBPF_ITER__COUNT; f++)
		for (unsigned op = 0; op < 3; op++)
			if (!strcmp(name, iter_kfuncs[f][op])) {
				*out = (struct ebpf_kfunc_iter){ (uint8_t)f, (uint8_t)(op + 1),
								 iter_families[f].size,
								 iter_families[f].name };
				return true;
			}
	return false;
}

const char *ebpf_kfunc_iter_name(unsigned family, unsigned op)
{
	return family < EBPF_ITER__COUNT && op >= EBPF_ITER_NEW && op <= EBPF_ITER_DESTROY
		       ? iter_kfuncs[family][op - 1] : NULL;
}

/* ---- BTF-typed contexts (struct ebpf_btf_ctx, prog.h) ---- */

static const struct btf_type *skip_mods(uint32_t *id)
{
	const struct btf_type *t = btf__type_by_id(vmlinux, *id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t))) {
		*id = t->type;
		t = btf__type_by_id(vmlinux, *id);
	}
	return t;
}

/* What btf_ctx_access (kernel/bpf/btf.c) makes of a load of a slot of type id: integers up to
 * 8 bytes and enums are scalars, void and integer pointers plain values read whole; a pointer to
 * a struct or union is PTR_TO_BTF_ID; anything else is refused ("Only pointer access is allowed", "is not a
 * struct").  -1 for a struct or union by value (it takes more than one slot: not modeled). */
static int slot_kind(uint32_t id, int32_t *obj)
{
	const struct btf_type *t;

	if (id == 0)
		return EBPF_SLOT_BAD;
	if (!(t = skip_mods(&id)))
		return EBPF_SLOT_BAD;
	if (btf_is_composite(t))
		return -1;
	if ((btf_is_int(t) && t->size <= 8) || btf_is_any_enum(t))
		return EBPF_SLOT_SCALAR;
	if (!btf_is_ptr(t))
		return EBPF_SLOT_BAD;
	id = t->type;
	if (id == 0)
		return EBPF_SLOT_PTR_SCALAR;
	/* is_int_ptr skips modifiers (not typedefs) before asking for an int */
	t = btf__type_by_id(vmlinux, id);
	while (t && btf_is_mod(t))
		t = btf__type_by_id(vmlinux, t->type);
	if (t && btf_is_int(t))
		return EBPF_SLOT_PTR_SCALAR;
	if (!(t = skip_mods(&id)))
		return EBPF_SLOT_BAD;
	*obj = (int32_t)id;
	return btf_is_composite(t) ? EBPF_SLOT_PTR : EBPF_SLOT_BAD;
}

/* What a function of return type id returns (EBPF_BTF_RET_*). */
static uint8_t ret_kind(uint32_t id)
{
	const struct btf_type *t;

	if (!id)
		return EBPF_BTF_RET_VOID;
	t = btf__type_by_id(vmlinux, id);
	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(vmlinux, t->type);
	if (t && btf_is_int(t))
		return btf_int_encoding(t) & BTF_INT_BOOL ? EBPF_BTF_RET_BOOL : EBPF_BTF_RET_INT;
	return t && btf_is_any_enum(t) ? EBPF_BTF_RET_INT : EBPF_BTF_RET_OTHER;
}

/* iter/TARGET: the kernel's bpf_iter_TARGET function names the target (attach_btf_id, as libbpf
 * finds it), and the context is struct bpf_iter__TARGET, one pointer slot per member
 * (bpf_iter_reg.ctx_arg_info): meta, a trusted struct bpf_iter_meta pointer never NULL, then the
 * target's objects, trusted and maybe NULL (the iteration's end calls the program with NULL). */
static bool iter_ctx_resolve(struct ebpf_btf_ctx *c, const char *target)
{
	const struct btf_type *t = NULL;
	const struct btf_member *m;
	char name[160];
	int id, sid;

	if (!ebpf_kfunc_btf_available()) {
		snprintf(c->why, sizeof(c->why), "BTF context: no vmlinux BTF");
		return false;
	}
	if (!*target || strchr(target, '/') || strchr(target, ':')) {
		snprintf(c->why, sizeof(c->why), "BTF context: no single iterator target in "
			 "'iter/%.80s'", target);
		return false;
	}
	snprintf(name, sizeof(name), "bpf_iter_%s", target);
	id = btf__find_by_name_kind(vmlinux, name, BTF_KIND_FUNC);
	snprintf(name, sizeof(name), "bpf_iter__%s", target);
	sid = btf__find_by_name_kind(vmlinux, name, BTF_KIND_STRUCT);
	if (sid > 0)
		t = btf__type_by_id(vmlinux, (uint32_t)sid);
	if (id <= 0 || !t) {
		snprintf(c->why, sizeof(c->why), "BTF context: the running kernel has no iterator "
			 "'%.60s'", target);
		return false;
	}
	m = btf_members(t);
	for (int a = 0; a < btf_vlen(t); a++) {
		uint32_t mt = m[a].type;
		const struct btf_type *u = skip_mods(&mt);
		int kind;

		/* (__bpf_md_ptr(type, name): union { type name; __u64 :64; }, aligned 8) */
		if (u && btf_is_union(u) && btf_vlen(u))
			mt = btf_members(u)[0].type;
		kind = slot_kind(mt, &c->obj_type[a]);

		if (a >= EBPF_BTF_CTX_SLOTS || btf_member_bit_offset(t, (uint32_t)a) != 64u * a ||
		    kind < 0) {
			snprintf(c->why, sizeof(c->why), "BTF context: %.100s is not a struct of "
				 "8-byte members", name);
			return false;
		}
		c->slot[c->nslots++] = (uint8_t)(kind == EBPF_SLOT_PTR && a ? EBPF_SLOT_PTR_OR_NULL
									    : kind);
	}
	c->attach_btf_id = id;
	c->attach_type = BPF_TRACE_ITER;
	c->ret = EBPF_BTF_RET_BOOL;
	return true;
}

bool ebpf_btf_ctx_resolve(struct ebpf_btf_ctx *c, const char *sec)
{
	static const struct {
		const char *pfx, *btf_pfx;
		uint32_t attach;
		bool ret;		/* the return value follows the arguments */
		bool tp;		/* the target is a tracepoint's btf_trace_X typedef */
	} kinds[] = {
		{ "fentry/", "", BPF_TRACE_FENTRY, false, false },
		{ "fexit/", "", BPF_TRACE_FEXIT, true, false },
		{ "fmod_ret/", "", BPF_MODIFY_RETURN, true, false },
		/* (an LSM hook's program reads the arguments, then what the programs before it
		 * returned: btf_ctx_access's is_retval) */
		{ "lsm/", "bpf_lsm_", BPF_LSM_MAC, true, false },
		{ "tp_btf/", "btf_trace_", BPF_TRACE_RAW_TP, false, true },
	};
	const struct btf_type *t = NULL;
	const struct btf_param *p;
	char name[160];
	size_t k, n;
	int id, skip, nargs;

	memset(c, 0, sizeof(*c));
	if (!strncmp(sec, "iter/", 5))
		return iter_ctx_resolve(c, sec + 5);
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (!strncmp(sec, kinds[k].pfx, strlen(kinds[k].pfx)))
			break;
	if (k == sizeof(kinds) / sizeof(kinds[0])) {
		snprintf(c->why, sizeof(c->why), "BTF context of section '%.60s' (only fentry/, "
			 "fexit/, fmod_ret/, lsm/, tp_btf/ and iter/ are modeled)", sec);
		return false;
	}
	if (!ebpf_kfunc_btf_available()) {
		snprintf(c->why, sizeof(c->why), "BTF context: no vmlinux BTF");
		return false;
	}
	n = strlen(kinds[k].pfx);
	snprintf(name, sizeof(name), "%s%s", kinds[k].btf_pfx, sec + n);
	if (!sec[n] || strchr(sec + n, '/') || strchr(sec + n, ':')) {
		snprintf(c->why, sizeof(c->why), "BTF context: no single target in '%.80s'", sec);
		return false;
	}
	id = btf__find_by_name_kind(vmlinux, name, kinds[k].tp ? BTF_KIND_TYPEDEF : BTF_KIND_FUNC);
	if (id > 0)
		t = btf__type_by_id(vmlinux, (uint32_t)id);
	if (t && btf_is_typedef(t)) {	/* btf_trace_X: a pointer to the probe's prototype */
		t = btf__type_by_id(vmlinux, t->type);
		t = t && btf_is_ptr(t) ? btf__type_by_id(vmlinux, t->type) : NULL;
	} else if (t) {
		t = btf__type_by_id(vmlinux, t->type);
	}
	if (!t || !btf_is_func_proto(t)) {
		snprintf(c->why, sizeof(c->why), "BTF context: the running kernel has no %s '%.60s'",
			 kinds[k].tp ? "tracepoint" : kinds[k].btf_pfx[0] ? "LSM hook" : "function",
			 sec + n);
		return false;
	}
	skip = kinds[k].tp ? 1 : 0;	/* btf_trace_X's first argument is void *__data */
	nargs = btf_vlen(t) - skip;
	p = btf_params(t) + skip;
	if (nargs < 0 || nargs + kinds[k].ret > EBPF_BTF_CTX_SLOTS ||
	    (nargs > 0 && p[nargs - 1].type == 0)) {
		snprintf(c->why, sizeof(c->why), "BTF context: '%.80s' has %d arguments%s", name,
			 nargs, nargs > 0 && p[nargs - 1].type == 0 ? " (variadic)" : "");
		return false;
	}
	for (int a = 0; a <= nargs; a++) {
		int kind;

		if (a == nargs && !kinds[k].ret)
			break;
		kind = slot_kind(a < nargs ? p[a].type : t->type, &c->obj_type[c->nslots]);
		/* fexit's return value may be NULL (and a NULL check comes first): a plain value */
		if (a == nargs && kind == EBPF_SLOT_PTR)
			kind = EBPF_SLOT_PTR_SCALAR;
		if (kind < 0) {
			snprintf(c->why, sizeof(c->why), "BTF context: '%.80s' takes or returns a "
				 "struct by value", name);
			return false;
		}
		c->slot[c->nslots++] = (uint8_t)kind;
	}
	c->attach_btf_id = id;
	c->attach_type = kinds[k].attach;
	c->ret = ret_kind(t->type);
	return true;
}

const char *ebpf_btf_ctx_access(const struct ebpf_btf_ctx *c, int64_t off, unsigned size)
{
	if (off < 0 || off >= EBPF_BTF_CTX_SLOTS * 8)
		return "outside the 12 argument slots";
	if (off % size)
		return "misaligned";
	if (off % 8)
		return "offset not a multiple of 8";
	if (off / 8 >= c->nslots)
		return c->attach_type == BPF_TRACE_FEXIT ? "past the return value"
							  : "the function has no such argument";
	if (c->slot[off / 8] == EBPF_SLOT_BAD)
		return "the slot's type is not readable (only integers, enums and pointers)";
	if (c->slot[off / 8] != EBPF_SLOT_SCALAR && size != 8)
		return "a pointer argument is read whole (8 bytes)";
	return NULL;
}

bool ebpf_btf_starts_with(int32_t id, const char *name)
{
	uint32_t tid = (uint32_t)id;

	if (id <= 0 || !ebpf_kfunc_btf_available())
		return false;
	for (int depth = 0; depth < 64; depth++) {
		const struct btf_type *t = skip_mods(&tid);
		const char *n;

		if (!t || !btf_is_struct(t))
			return false;
		n = btf__name_by_offset(vmlinux, t->name_off);
		if (n && !strcmp(n, name))
			return true;
		if (!btf_vlen(t) || btf_member_bit_offset(t, 0) != 0)
			return false;
		tid = btf_members(t)[0].type;
	}
	return false;
}

const char *ebpf_btf_obj_access(int32_t id, int64_t off, unsigned size, int32_t *next)
{
	const struct btf_type *t;
	uint32_t tid = (uint32_t)id;

	*next = 0;
	if (id <= 0 || !ebpf_kfunc_btf_available())
		return "no BTF type";
	if (!(t = skip_mods(&tid)) || !btf_is_composite(t))
		return "not a struct";
	if (off < 0)
		return "a negative offset";
	/* btf_struct_walk: the first member holding off, into nested structs and arrays */
	for (int depth = 0; depth < 64; depth++) {
		const struct btf_member *m = btf_members(t);
		const struct btf_type *mt = NULL;
		int64_t moff = 0, msize = 0, mend = 0;
		int k, n = btf_vlen(t);

		if (off + size > t->size) {
			/* past the end: only into a flexible array that ends the struct, from its
			 * start on (btf_struct_walk's walk_flex_arrays, on for kernel objects): an
			 * element of integers is read as a number whatever the bytes, one of a
			 * struct is walked at the offset within its element */
			uint32_t lid = n ? m[n - 1].type : 0, eid;
			const struct btf_type *last = lid ? skip_mods(&lid) : NULL, *et;

			if (!last || !btf_is_array(last) || btf_array(last)->nelems)
				return "past the end of the struct";
			moff = btf_member_bit_offset(t, (uint32_t)n - 1) / 8;
			eid = btf_array(last)->type;
			et = skip_mods(&eid);
			if (off < moff || !et)
				return "past the end of the struct";
			if (btf_is_int(et))
				return NULL;
			if (!btf_is_composite(et) || !et->size)
				return "past the end of the struct, into a flexible array of neither "
				       "integers nor structs";
			off = (off - moff) % et->size;
			t = et;
			continue;
		}

		for (k = 0; k < n; k++) {
			uint32_t mid = m[k].type, bit = btf_member_bit_offset(t, k);
			uint32_t bits = btf_member_bitfield_size(t, k);
			long long sz;

			if (bits) {	/* bytes [bit / 8, roundup(bit + bits) / 8) */
				if (off + size > bit / 8 && off < (bit + bits + 7) / 8)
					return "a bitfield member";
				continue;
			}
			moff = bit / 8;
			if (off + size <= moff)
				break;
			if (off < moff || bit % 8)
				return "a hole before a member";
			sz = btf__resolve_size(vmlinux, mid);
			if (sz < 0)
				return "a member of unknown size";
			if (off >= moff + sz)
				continue;
			mt = skip_mods(&mid);
			msize = sz;
			/* (the member's true end: a number may be read across an array's elements,
			 * the array a scratch space, as btf_struct_walk's mtrue_end) */
			mend = moff + sz;
			/* arrays: the element holding off (multi-dimensional ones in turn) */
			while (mt && btf_is_array(mt)) {
				uint32_t eid = btf_array(mt)->type;
				long long esz = btf__resolve_size(vmlinux, eid);

				if (esz <= 0)
					return "an array of unknown element size";
				moff += (off - moff) / esz * esz;
				msize = esz;
				mt = skip_mods(&eid);
			}
			break;
		}
		if (!mt)
			return "no member at this offset";
		if (btf_is_composite(mt)) {
			if (off + size > moff + msize)
				return "across the end of a member";
			t = mt;
			off -= moff;
			continue;
		}
		if (btf_is_ptr(mt)) {
			uint32_t pid = mt->type;
			const struct btf_type *pt;

			if (off != moff || size != 8)
				return "a pointer member read in part";
			pt = skip_mods(&pid);
			if (pt && btf_is_composite(pt))
				*next = (int32_t)pid;
			return NULL;
		}
		if ((btf_is_int(mt) || btf_is_any_enum(mt)) && off + size <= mend)
			return NULL;
		return btf_is_int(mt) || btf_is_any_enum(mt) ? "across the end of a member"
							     : "a member that is not an integer";
	}
	return "nested too deep";
}

const char *ebpf_map_btf_struct(uint32_t map_type)
{
	switch (map_type) {
	case BPF_MAP_TYPE_ARRAY: case BPF_MAP_TYPE_PERCPU_ARRAY: case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY: case BPF_MAP_TYPE_CGROUP_ARRAY:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
		return "bpf_array";
	case BPF_MAP_TYPE_HASH: case BPF_MAP_TYPE_PERCPU_HASH: case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH: case BPF_MAP_TYPE_HASH_OF_MAPS:
		return "bpf_htab";
	case BPF_MAP_TYPE_RINGBUF: case BPF_MAP_TYPE_USER_RINGBUF:
		return "bpf_ringbuf_map";
	case BPF_MAP_TYPE_STACK_TRACE:
		return "bpf_stack_map";
	case BPF_MAP_TYPE_QUEUE: case BPF_MAP_TYPE_STACK:
		return "bpf_queue_stack";
	case BPF_MAP_TYPE_LPM_TRIE:
		return "lpm_trie";
	case BPF_MAP_TYPE_BLOOM_FILTER:
		return "bpf_bloom_filter";
	default:
		return NULL;
	}
}
