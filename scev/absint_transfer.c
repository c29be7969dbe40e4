/* The transfer function of the range analysis: one instruction applied to an abstract state —
 * ALU operations, loads from the stack and the context, stores, atomics and calls (helpers by
 * what each returns, bpf-to-bpf calls by the summaries of the previous pass).  It also records
 * which frame bytes each store or call may write through pointers other than constant r10
 * offsets: the first pass for the symbolic execution, the last to check and narrow that
 * (try_stack_shrink in scev.c).
 */
#include <errno.h>

#include "scev/absint.h"

#include "bpf/helper_proto.h"
#include "util/arena.h"

/* The store or call at pc may write frame bytes [lo, hi). */
static void note_stack_write(struct engine *en, uint32_t pc, int64_t lo, int64_t hi)
{
	if (en->may_stack)	/* outside the frame, no cell can change: nothing added */
		stack_span_add(&en->may_stack[pc], lo, hi);
}

/* A call writes frame bytes w (nothing when w is empty): they are unknown after it (but for
 * a pointer a path that did not write keeps: astate__forget), and their slots no spill to the
 * kernel (astate__scrub_slots). */
static void call_writes(struct engine *en, struct astate *s, uint32_t pc,
			const struct stack_span *w)
{
	if (stack_span_any(w)) {
		astate__scrub_slots(s, w->lo, w->hi);
		astate__forget(s, w->lo, w->hi);
		note_stack_write(en, pc, w->lo, w->hi);
	}
}

/* call_writes of each run of bytes of m (what callees may write of this frame: two fields of
 * a struct are two runs, a pointer spilled between them kept). */
static void call_writes_mask(struct engine *en, struct astate *s, uint32_t pc,
			     const struct fpmask *m)
{
	int64_t o = -FP_FRAME;

	while (o < 0) {
		struct stack_span w;

		if (!m->w[(o + FP_FRAME) / 64] && (o + FP_FRAME) % 64 == 0) {
			o += 64;
			continue;
		}
		if (!fpmask_has(m, o)) {
			o++;
			continue;
		}
		w.lo = (int16_t)o;
		while (o < 0 && fpmask_has(m, o))
			o++;
		w.hi = (int16_t)o;
		call_writes(en, s, pc, &w);
	}
}

/* What src of a 64-bit 'dst += src' was on one more visit (symex.c: x += f(x)). */
static void add_src_note(struct add_src *n, const struct aval *b)
{
	int64_t lo = b->kind == AV_SCALAR ? b->r.smin : INT64_MIN;
	int64_t hi = b->kind == AV_SCALAR ? b->r.smax : INT64_MAX;

	if (range_is_empty(&b->r) && b->kind == AV_SCALAR)
		return;
	if (n->lo > n->hi) {
		n->lo = lo;
		n->hi = hi;
		return;
	}
	n->lo = lo < n->lo ? lo : n->lo;
	n->hi = hi > n->hi ? hi : n->hi;
}

/* A pointer into this frame or a caller's (aval.h: CALLER_SELF). */
static bool self_ptr(const struct aval *a)
{
	return a->kind == AV_PTR && a->region == REGION_CALLER_STACK && aval_caller_self(a->map);
}

/* Whether an argument of a call at s, r1-r5, may point into a caller's frame. */
static bool callers_frame_arg(const struct astate *s)
{
	for (int r = 1; r <= 5; r++)
		if (s->regs[r].kind == AV_TOP ||
		    (s->regs[r].kind == AV_PTR && s->regs[r].region == REGION_CALLER_STACK))
			return true;
	return false;
}

/* May this value point into the stack (this frame's)? */
static bool may_be_stack(const struct aval *a)
{
	return a->kind == AV_TOP || (a->kind == AV_PTR && a->region == REGION_STACK) ||
	       self_ptr(a);
}

/* Memory whose loads the kernel reads as numbers (check_mem_access's mark_reg_unknown): map
 * values (their special fields, bpf_timer, are refused: absint_verdict.c), the packet and its
 * metadata, a map key, a ringbuf record, PTR_TO_MEM (a global function's argument, dynptr
 * data).  The stack, a caller's frame, the context and kernel objects have their own rules. */
static bool scalar_mem(uint8_t region)
{
	switch (region) {
	case REGION_MAP_VALUE: case REGION_PKT: case REGION_PKT_META: case REGION_MAP_KEY:
	case REGION_RINGBUF: case REGION_GMEM: case REGION_DYNPTR_MEM:
		return true;
	default:
		return false;
	}
}

/* A load of size bytes at off past map value pointer a of a frozen read-only map: the number
 * there, as the kernel reads it (check_mem_access: a constant offset into a map that
 * bpf_map_is_rdonly calls read-only, BPF_F_RDONLY_PROG and frozen, is bpf_map_direct_read's
 * number).  Frozen here means given initial contents (ELF .rodata, a case's "init="): the loaders
 * (libbpf, the kernel oracle) freeze such a map after writing them, and a map without them is
 * not frozen.  Only an array of one value (array_map_direct_value_addr: any other is
 * -EOPNOTSUPP).  False where it does not apply. */
static bool rodata_load(const struct scev_ctx *cx, const struct aval *a, int16_t off,
			unsigned size, struct aval *v)
{
	const struct ebpf_map_def *m;
	uint64_t x = 0;
	int64_t at;

	if (a->kind != AV_PTR || a->region != REGION_MAP_VALUE || a->maybe_null ||
	    !range_is_const(&a->r) || a->map >= cx->nmaps)
		return false;
	m = &cx->maps[a->map];
	at = a->r.smin + off;
	if (!m->init || !(m->flags & BPF_F_RDONLY_PROG) || m->type != BPF_MAP_TYPE_ARRAY ||
	    m->max_entries != 1 || at < 0 || at + (int64_t)size > (int64_t)m->value_size)
		return false;
	for (unsigned k = 0; k < size; k++)
		x |= (uint64_t)m->init[at + k] << (8 * k);
	*v = aval_const(x);
	return true;
}

static bool ptr_in(const struct aval *a, uint8_t region, int64_t *off)
{
	if (a->kind != AV_PTR || a->region != region || a->maybe_null)
		return false;
	if (off) {
		if (!range_is_const(&a->r))
			return false;
		*off = (int64_t)a->r.umin;
	}
	return true;
}

/* A REGION_BTF pointer to the vmlinux struct id: its index in cx->btf_types, added when new;
 * an unknown value when the table cannot grow (or holds 2^16 structs). */
struct aval absint_btf_ptr_as(struct scev_ctx *cx, int32_t id, uint8_t trusted)
{
	uint32_t k;

	for (k = 0; k < cx->nbtf_types &&
		    (cx->btf_types[k] != id || cx->btf_trusted[k] != trusted); k++)
		;
	if (k == cx->nbtf_types) {
		int32_t *n = k < UINT16_MAX ? realloc(cx->btf_types, (k + 1) * sizeof(*n)) : NULL;
		uint8_t *t;

		if (!n)
			return absint_unknown_bytes(8);
		cx->btf_types = n;
		if (!(t = realloc(cx->btf_trusted, k + 1)))
			return absint_unknown_bytes(8);
		cx->btf_trusted = t;
		t[k] = trusted;
		n[cx->nbtf_types++] = id;
	}
	return aval_ptr(REGION_BTF, (uint16_t)k, range_const(0));
}

struct aval absint_btf_ptr(struct scev_ctx *cx, int32_t id)
{
	return absint_btf_ptr_as(cx, id, false);
}

/* A load through a REGION_BTF pointer: a pointer member that points to a struct is another one
 * (the kernel's btf_struct_walk), anything else a scalar (its SCALAR_VALUE: a number, a pointer
 * to something not a struct; an access it refuses is refused by absint_verdict.c). */
static struct aval btf_load(struct scev_ctx *cx, const struct aval *addr, int64_t off,
			    unsigned size)
{
	int32_t next = 0;

	if (!range_is_const(&addr->r) || addr->map >= cx->nbtf_types ||
	    ebpf_btf_obj_access(cx->btf_types[addr->map], (int64_t)addr->r.umin + off, size, &next) ||
	    !next)
		return absint_scalar_bytes(size);
	return absint_btf_ptr(cx, next);
}

/* A load through a map pointer (check_ptr_to_map_access): the map type's kernel struct
 * (ebpf_map_btf_struct) read as a kernel object, its pointer members to structs others
 * (PTR_TO_BTF_ID, as btf_load), the rest numbers; what the kernel refuses, absint_verdict.c
 * refuses. */
static struct aval map_struct_load(struct scev_ctx *cx, const struct aval *addr, int64_t off,
				   unsigned size)
{
	const char *name = addr->map < cx->nmaps ? ebpf_map_btf_struct(cx->maps[addr->map].type)
						 : NULL;
	int32_t id = name ? ebpf_btf_struct_by_name(name) : 0;
	struct aval o;

	if (id <= 0)
		return absint_unknown_bytes(size);
	o = absint_btf_ptr(cx, id);
	if (o.kind != AV_PTR)
		return absint_unknown_bytes(size);
	o.r = addr->r;
	return btf_load(cx, &o, off, size);
}

/* Context loads per the program's context model (bpf/prog.h). */
/* A socket a context field holds (no reference: ctx_load's sockets), of the kernel's kind
 * (EBPF_SOCK_*), NULL too when maybe_null. */
static struct aval ctx_sock(unsigned kind, bool maybe_null)
{
	struct aval v = aval_ptr(REGION_SOCK, aval_sock_map(kind, -1), range_const(0));

	v.maybe_null = maybe_null;
	return v;
}

/* Whether an LSM program attached to the hook of vmlinux BTF id hook has trusted arguments:
 * every hook but those the kernel's untrusted_lsm_hooks lists (kernel/bpf/bpf_lsm.c
 * bpf_lsm_is_trusted: the objects they are given are being made or freed), whose arguments are
 * plain PTR_TO_BTF_ID (task_kfunc_failure.c's task_kfunc_from_lsm_task_free: "R1 must be a rcu
 * pointer"). */
static bool lsm_hook_trusted(int32_t hook)
{
	static const char *const untrusted[] = {
		"bpf_lsm_bpf_map_free", "bpf_lsm_bpf_prog_free", "bpf_lsm_file_alloc_security",
		"bpf_lsm_file_free_security", "bpf_lsm_sk_alloc_security",
		"bpf_lsm_sk_free_security", "bpf_lsm_task_free",
	};
	const char *name = ebpf_kfunc_name(hook);

	if (!name)
		return false;
	for (size_t k = 0; k < sizeof(untrusted) / sizeof(untrusted[0]); k++)
		if (!strcmp(name, untrusted[k]))
			return false;
	return true;
}

static struct aval ctx_load(struct scev_ctx *cx, const struct aval *addr, int64_t off,
			    unsigned size)
{
	int64_t base;

	if (!ptr_in(addr, REGION_CTX, &base))
		return absint_unknown_bytes(size);
	off += base;
	/* a BTF context's struct pointer argument, loaded whole */
	if (ebpf_prog_type_btf_ctx(cx->prog_type) && size == 8 && off >= 0 && off % 8 == 0 &&
	    off / 8 < cx->prog->btf_ctx.nslots &&
	    (cx->prog->btf_ctx.slot[off / 8] == EBPF_SLOT_PTR ||
	     cx->prog->btf_ctx.slot[off / 8] == EBPF_SLOT_PTR_OR_NULL)) {
		/* (trusted as the kernel's prog_args_trusted says: tp_btf/, iter/ and LSM programs'
		 * arguments; fentry's, fexit's and fmod_ret's are plain PTR_TO_BTF_ID, which no
		 * kfunc that wants a trusted or RCU object takes) */
		uint32_t at = cx->prog->btf_ctx.attach_type;
		bool trusted = cx->prog_type == BPF_PROG_TYPE_LSM
				       ? lsm_hook_trusted(cx->prog->btf_ctx.attach_btf_id)
				       : cx->prog_type == BPF_PROG_TYPE_TRACING &&
						 (at == BPF_TRACE_RAW_TP || at == BPF_TRACE_ITER);
		struct aval v = absint_btf_ptr_as(cx, cx->prog->btf_ctx.obj_type[off / 8],
						  trusted ? BTF_TRUSTED : BTF_PLAIN);

		/* (an iterator's target: its id is the load's, given by the caller) */
		v.maybe_null = v.kind == AV_PTR &&
			       cx->prog->btf_ctx.slot[off / 8] == EBPF_SLOT_PTR_OR_NULL;
		return v;
	}
	/* sk_lookup's sk (a socket an earlier program selected, or NULL: PTR_TO_SOCKET_OR_NULL),
	 * sk_reuseport's sk (PTR_TO_SOCKET) and migrating_sk (PTR_TO_SOCK_COMMON_OR_NULL): sockets
	 * of no reference (sk_lookup_is_valid_access, sk_reuseport_is_valid_access; a maybe-NULL
	 * one's id is the load's, given by the caller); sk_reuseport's data and data_end are the
	 * packet's start and end (PTR_TO_PACKET, PTR_TO_PACKET_END: skb->data and data +
	 * skb_headlen, sk_reuseport_convert_ctx_access), the packet read only (absint_verdict.c) */
	if (size == 8 && cx->prog_type == BPF_PROG_TYPE_SK_LOOKUP &&
	    off == (int64_t)offsetof(struct bpf_sk_lookup, sk))
		return ctx_sock(EBPF_SOCK_FULL, true);
	/* sock_ops's sk: the operation's socket if it is a full one, else NULL
	 * (sock_ops_is_valid_access: PTR_TO_SOCKET_OR_NULL; sock_ops_convert_ctx_access tests
	 * is_fullsock), of no reference */
	if (size == 8 && cx->prog_type == BPF_PROG_TYPE_SOCK_OPS &&
	    off == (int64_t)offsetof(struct bpf_sock_ops, sk))
		return ctx_sock(EBPF_SOCK_FULL, true);
	if (size == 8 && cx->prog_type == BPF_PROG_TYPE_SK_MSG &&	/* (sk_msg_md: the same) */
	    off == (int64_t)offsetof(struct sk_msg_md, sk))
		return ctx_sock(EBPF_SOCK_FULL, false);
	if (size == 8 && ebpf_ctx_ro_pkt(cx->prog_type)) {
		if (cx->prog_type == BPF_PROG_TYPE_SK_REUSEPORT &&
		    off == (int64_t)offsetof(struct sk_reuseport_md, sk))
			return ctx_sock(EBPF_SOCK_FULL, false);
		if (cx->prog_type == BPF_PROG_TYPE_SK_REUSEPORT &&
		    off == (int64_t)offsetof(struct sk_reuseport_md, migrating_sk))
			return ctx_sock(EBPF_SOCK_COMMON, true);
		/* (and sock_ops' skb_data, skb_data_end: PTR_TO_PACKET, PTR_TO_PACKET_END) */
		if (off == ebpf_ctx_ro_pkt_at(cx->prog_type))
			return aval_ptr(REGION_PKT, 0, range_const(0));
		if (off == ebpf_ctx_ro_pkt_at(cx->prog_type) + 8)
			return aval_ptr(REGION_PKT_END, 0, range_const(0));
	}
	if (cx->ctx_model == EBPF_CTX_RO)	/* plain fields: scalars */
		return absint_scalar_bytes(size);
	if (size == 4 && cx->ctx_model == EBPF_CTX_XDP) {
		if (off == 0)
			return aval_ptr(REGION_PKT, 0, range_const(0));
		if (off == 4)
			return aval_ptr(REGION_PKT_END, 0, range_const(0));
		if (off == 8)
			return aval_ptr(REGION_PKT_META, 0, range_const(0));
	}
	if (size == 4 && cx->ctx_model == EBPF_CTX_SKB) {
		if (off == 76)
			return aval_ptr(REGION_PKT, 0, range_const(0));
		if (off == 80)
			return aval_ptr(REGION_PKT_END, 0, range_const(0));
		if (off == 140)
			return aval_ptr(REGION_PKT_META, 0, range_const(0));
	}
	/* __sk_buff's u64 numbers, tstamp and hwtstamp (its other 8-byte fields are pointers:
	 * flow_keys, sk) */
	if (size == 8 && cx->ctx_model == EBPF_CTX_SKB && (off == 152 || off == 184))
		return absint_scalar_bytes(size);
	/* skb->sk: a socket, maybe a request or timewait one, or NULL (bpf_skb_is_valid_access:
	 * PTR_TO_SOCK_COMMON_OR_NULL; its id is the load's, given by the caller) */
	if (size == 8 && cx->ctx_model == EBPF_CTX_SKB &&
	    off == (int64_t)offsetof(struct __sk_buff, sk))
		return ctx_sock(EBPF_SOCK_COMMON, true);
	return absint_unknown_bytes(size);
}

/* Whether the kernel reads the 4-byte key at fp + off as a constant (get_constant_map_key): the
 * bytes lie in one 8-byte slot and are either a spilled scalar of exactly the key's size at the
 * slot's start — a privileged load spills only there (check_stack_write_fixed_off; a later store
 * into the slot's other bytes, which undoes the spill, leaves the cell no constant: the stores'
 * own rule) — or all zero stored as zero (STACK_ZERO: a store not at the slot's start, or any
 * store for an unprivileged load, since those are no spills).  An 8-byte spill read as a 4-byte key,
 * a key across two slots or a nonzero number stored off the slot's start is no constant to it. */
static bool key_kernel_const(const struct scev_ctx *cx, const struct astate *s, int64_t off)
{
	struct kslot k = astate__kslot(s, off, 4, !cx->opts.unprivileged);

	return off + 4 <= k.slot + 8 && ((k.spill == 4 && off == k.slot) || k.zero);
}

/* Whether a lookup in map m with the key at r2 surely finds an element as the kernel sees it:
 * an array's constant key below max_entries (can_elide_value_nullness, get_constant_map_key:
 * the kernel elides the null check for a constant key only; a key of a range, every value in
 * bounds, leaves the result maybe NULL, and a read through it unchecked is refused). */
static bool lookup_finds(const struct scev_ctx *cx, const struct astate *s, uint16_t m)
{
	const struct ebpf_map_def *def = m < cx->nmaps ? &cx->maps[m] : NULL;
	struct aval key;
	int64_t off;

	/* (an inner map template with BPF_F_INNER_MAP: the maps put in its place may have fewer
	 * entries) */
	if (!def || (def->type != BPF_MAP_TYPE_ARRAY && def->type != BPF_MAP_TYPE_PERCPU_ARRAY) ||
	    def->key_size != 4 || (def->flags & BPF_F_INNER_MAP) ||
	    !ptr_in(&s->regs[2], REGION_STACK, &off))
		return false;
	if (!key_kernel_const(cx, s, off))
		return false;
	key = astate__load(s, off, 4);
	return key.kind == AV_SCALAR && key.r.umin == key.r.umax && key.r.umax < def->max_entries;
}

/* r0 of a helper of HF_RET_SIZE: [-MAX_ERRNO, the size argument's maximum], in the 64-bit and
 * the 32-bit bounds, as the kernel sets both (do_refine_retval_range, from the size register's
 * umax, check_mem_size_reg's msize_max_value).  A size that is not a bounded scalar (the verdict
 * refuses the call) leaves r0 unknown. */
static struct aval ret_within_size(const struct ebpf_helper_proto *p, const struct astate *s)
{
	struct range r;
	int k = ebpf_helper_proto_size_arg(p);

	if (k < 0 || s->regs[k + 1].kind != AV_SCALAR || s->regs[k + 1].r.umax > INT32_MAX)
		return aval_scalar(range_unknown());
	r = range_srange(-4095, (int64_t)s->regs[k + 1].r.umax);
	if (r.s32_min < -4095)
		r.s32_min = -4095;
	if (r.s32_max > (int32_t)s->regs[k + 1].r.umax)
		r.s32_max = (int32_t)s->regs[k + 1].r.umax;
	range_sync(&r);
	return aval_scalar(r);
}

/* r0 after a helper call, from its prototype (bpf/helper_proto.h). */
static struct aval helper_result(struct scev_ctx *cx, int32_t id, const struct astate *s)
{
	const struct ebpf_helper_proto *p = absint_helper_proto(s, id);

	if (!p)
		return aval_top();
	switch (p->ret) {
	case HRET_MAP_VALUE_OR_NULL:
		if (s->regs[1].kind == AV_PTR && s->regs[1].region == REGION_MAP_HANDLE) {
			uint16_t m = s->regs[1].map;
			struct aval v = aval_ptr(REGION_MAP_VALUE, m, range_const(0));

			/* a map of maps: the inner map (its template: every inner map has its
			 * type and sizes) or NULL, as the kernel's CONST_PTR_TO_MAP_OR_NULL */
			if (m < cx->nmaps && cx->maps[m].inner && cx->maps[m].inner <= cx->nmaps &&
			    (cx->maps[m].type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
			     cx->maps[m].type == BPF_MAP_TYPE_HASH_OF_MAPS)) {
				v = aval_ptr(REGION_MAP_HANDLE,
					     absint_map_class(cx, cx->maps[m].inner - 1),
					     range_const(0));
				v.maybe_null = true;
				return v;
			}

			v.maybe_null = id != BPF_FUNC_map_lookup_elem ||
				       !lookup_finds(cx, s, s->regs[1].map);
			return v;
		}
		return aval_top();
	case HRET_MAP_VALUE:	/* (bpf_get_local_storage: the storage, never NULL) */
		if (s->regs[1].kind == AV_PTR && s->regs[1].region == REGION_MAP_HANDLE)
			return aval_ptr(REGION_MAP_VALUE, s->regs[1].map, range_const(0));
		return aval_top();
	case HRET_INTEGER:
		if (p->flags & HF_RET_SIZE)
			return ret_within_size(p, s);
		if (p->ret_min == 0 && p->ret_max == UINT32_MAX)
			return aval_scalar(range_zext_unknown(4));
		return aval_scalar(range_unknown());
	case HRET_BTF_ID:
	case HRET_BTF_ID_OR_NULL: {
		/* a kernel object (bpf_skc_to_*: the socket cast, or NULL) */
		int32_t obj = p->obj ? ebpf_btf_struct_by_name(p->obj) : 0;
		struct aval v;

		if (obj <= 0)
			return aval_top();
		/* A cast of a socket a lookup holds (bpf_skc_to_*) shares its reference (the
		 * kernel's is_ptr_cast_function), and the kernel drops the cast when the socket
		 * is released: a kernel object pointer here outlives the release
		 * (verifier_ref_tracking.c's to_tcp_sock_after_release was safe, "R7 invalid mem
		 * access 'scalar'"), so it is not known (corpus
		 * sk_lookup_skc_cast_after_release_unsafe) */
		if (p->ret == HRET_BTF_ID_OR_NULL && s->regs[1].kind == AV_PTR &&
		    s->regs[1].region == REGION_SOCK && aval_sock_site(&s->regs[1]) >= 0)
			return aval_top();
		/* (bpf_get_current_task_btf's is RET_PTR_TO_BTF_ID_TRUSTED: the iterator kfuncs and
		 * acquires take it) */
		v = absint_btf_ptr_as(cx, obj, id == BPF_FUNC_get_current_task_btf ? BTF_TRUSTED
										: BTF_PLAIN);
		v.maybe_null = v.kind == AV_PTR && p->ret == HRET_BTF_ID_OR_NULL;
		return v;
	}
	case HRET_SOCKET_OR_NULL:
	case HRET_TCP_SOCK_OR_NULL:
	case HRET_SOCK_COMMON_OR_NULL: {
		/* a socket or NULL: a lookup's is absint_ref_call's (referenced); bpf_sk_fullsock and
		 * bpf_tcp_sock cast their argument, the same socket sharing its reference (the
		 * kernel's is_ptr_cast_function); bpf_get_listener_sock's holds none */
		const struct aval *a = &s->regs[1];
		struct aval v;

		if (id == BPF_FUNC_get_listener_sock)
			v = aval_ptr(REGION_SOCK, aval_sock_map(EBPF_SOCK_FULL, -1), range_const(0));
		else if ((id == BPF_FUNC_sk_fullsock || id == BPF_FUNC_tcp_sock) &&
			 a->kind == AV_PTR && a->region == REGION_SOCK)
			v = aval_ptr(REGION_SOCK,
				     aval_sock_map(id == BPF_FUNC_tcp_sock ? EBPF_SOCK_TCP
									   : EBPF_SOCK_FULL,
						   aval_sock_site(a)), range_const(0));
		else
			return aval_top();
		v.maybe_null = true;
		return v;
	}
	case HRET_DYNPTR_MEM_OR_NULL: {
		/* (absint_helper_proto: bpf_dynptr_data of a user ring buffer sample) */
		uint64_t len;
		struct aval v;

		if (!aval_is_const(&s->regs[3], &len) || len > DYNPTR_MEM_MAX)
			return aval_top();
		v = aval_ptr(REGION_DYNPTR_MEM, (uint16_t)len, range_const(0));
		v.maybe_null = true;
		return v;
	}
	default:
		return aval_top();
	}
}

static bool is_pkt_ptr(const struct aval *a)
{
	return a->kind == AV_PTR && (a->region == REGION_PKT || a->region == REGION_PKT_END ||
				     a->region == REGION_PKT_META);
}

/* Stack bytes [lo, hi) something wrote but no store placed (a helper's output argument, a
 * global function's memory): the kernel's STACK_MISC, or a spilled register it clobbered to an
 * unknown scalar, some number, never a pointer; 8 bytes at a time where aligned. */
static int stack_misc(struct astate *s, int64_t lo, int64_t hi)
{
	astate__scrub_slots(s, lo, hi);
	for (int64_t o = lo, n; o < hi; o += n) {
		struct aval u;

		n = !(o % 8) && o + 8 <= hi ? 8 : 1;
		u = absint_scalar_bytes((unsigned)n);
		if (astate__store(s, o, (unsigned)n, &u))
			return -ENOMEM;
	}
	return 0;
}

/* A store of v at [off, off + size) of this frame, v not a pointer: the bytes of the cells it
 * cuts that it does not write stay numbers of no known value, one cell each, where those cells
 * held numbers (the kernel's STACK_MISC of the slot: save_register_state's narrow spill,
 * scrub_spilled_slot), so that a fill of them reads a number (stack_fill); a cut pointer's
 * bytes are left unknown. */
static int stack_store_cut(struct astate *s, int64_t off, unsigned size, const struct aval *v)
{
	int64_t lo = off, hi = off, end = off + (int64_t)size;
	struct aval u = absint_scalar_bytes(1);

	for (uint32_t k = 0; k < s->n; k++) {
		const struct acell *c = &s->cells[k];

		if (c->off < end && off < c->off + c->size && c->v.kind == AV_SCALAR) {
			lo = c->off < lo ? c->off : lo;
			hi = c->off + c->size > hi ? c->off + c->size : hi;
		}
	}
	if (astate__store(s, off, size, v))
		return -ENOMEM;
	for (int64_t o = lo; o < hi; o++)
		if ((o < off || o >= end) && astate__store(s, o, 1, &u))
			return -ENOMEM;
	return 0;
}

/* The kernel's stack rules for numbers (kernel/bpf/verifier.c, privileged: bpf_capable), which
 * the runs do not share.  A write at [off, off + size) of this frame (v NULL: an atomic's result,
 * which the kernel writes with no register: check_atomic_rmw): a number written at an 8-aligned
 * offset is a spill and keeps its value (check_stack_write_fixed_off, save_register_state), a
 * pointer is spilled as it is (a narrower one the kernel refuses); any other write leaves bytes
 * of no known value (STACK_MISC) or zeros (STACK_ZERO), and turns the slot's spill (a cell at
 * its 8-aligned start) and every other byte of the slot into numbers of no known value
 * (is_stack_slot_special, scrub_spilled_slot).  stack_fill reads as the kernel fills. */
static int stack_spill(struct astate *s, int64_t off, unsigned size, const struct aval *v)
{
	struct aval u = absint_scalar_bytes(size);
	uint64_t z = 1;

	if (v && v->kind == AV_PTR)
		return astate__store(s, off, size, v);
	if (v && !(off % 8))
		return stack_store_cut(s, off, size, v);
	astate__scrub_slots(s, off, off + (int64_t)size);
	if (v && aval_is_const(v, &z) && !z)
		u = *v;
	return stack_store_cut(s, off, size, &u);
}

/* A read of [off, off + size) of this frame as the kernel fills it (check_stack_read_fixed_off):
 * a spill read whole, or narrower at its start, gives its value; bytes of a cell past its start
 * give 0 when the whole cell is 0, else a number of no known value (a zero spill's bytes, or
 * STACK_ZERO); bytes that all lie in cells holding numbers, though no one cell holds them all
 * (a slot a narrow store cut: the kernel's STACK_MISC bytes, scrub_spilled_slot), a number of
 * no known value too.  A byte no cell holds may be a spilled pointer's: unknown. */
static struct aval stack_fill(const struct astate *s, int64_t off, unsigned size)
{
	struct aval v;

	for (uint32_t k = 0; k < s->n; k++) {
		const struct acell *c = &s->cells[k];
		uint64_t z;

		if (c->off < off && off < c->off + c->size && c->v.kind == AV_SCALAR &&
		    !(aval_is_const(&c->v, &z) && !z))
			return absint_scalar_bytes(size);
	}
	v = astate__load(s, off, size);
	if (v.kind == AV_TOP && astate__nums_over(s, off, off + size) == NUMS_ALL)
		return absint_scalar_bytes(size);
	return v;
}

/* A store of v (NULL: an atomic's result) somewhere in [lo, hi) of this frame, its offset
 * variable, as the kernel takes it (check_stack_write_var_off, privileged): every byte of the
 * range becomes a number of no known value (STACK_MISC; a pointer spilled there is erased,
 * whatever v is), but where v is 0, the bytes that hold 0 stay so (STACK_ZERO, a spill of 0).
 * The runs agree: a byte of the range holds its old value or one of v's bytes, some number.
 * The cells that overlap the range but reach past it go (their other bytes unknown, as the
 * kernel's slot then is no spill), and a spill of the slots the range touches is no spill to
 * the kernel (spilled_ptr erased: corpus array_lookup_key_var_half_unsafe), but a spill of 0 under
 * a 0 (kept).  Bytes outside the frame place nothing (the verdict refuses the access). */
static int stack_write_var(struct astate *s, int64_t lo, int64_t hi, const struct aval *v)
{
	uint64_t z = 1;
	bool zero = v && aval_is_const(v, &z) && !z;
	uint32_t k = 0;

	lo = lo < -FP_FRAME ? -FP_FRAME : lo;
	hi = hi > 0 ? 0 : hi;
	for (int64_t slot = lo - ((lo % 8) + 8) % 8; slot < hi; slot += 8) {
		struct aval sp = astate__load(s, slot, astate__kslot(s, slot, 8, true).spill);

		if (!zero || !aval_is_const(&sp, &z) || z)
			astate__scrub_slots(s, slot < lo ? lo : slot, slot + 8 > hi ? hi : slot + 8);
	}
	/* (the cells kept: zeros inside the range when v is 0, and those outside it) */
	for (uint32_t j = 0; j < s->n; j++) {
		const struct acell *c = &s->cells[j];
		bool out = c->off + c->size <= lo || c->off >= hi;

		if (out || (zero && c->off >= lo && c->off + c->size <= hi &&
			    aval_is_const(&c->v, &z) && !z))
			s->cells[k++] = *c;
	}
	s->n = k;
	for (int64_t o = lo, n; o < hi; o += n) {
		struct aval u;
		bool kept = false;

		n = !(o % 8) && o + 8 <= hi ? 8 : 1;
		for (uint32_t j = 0; j < s->n && !kept; j++) {
			const struct acell *c = &s->cells[j];

			if (c->off <= o && o < c->off + c->size) {
				kept = true;	/* (a zero kept: past it) */
				n = c->off + c->size - o;
			} else if (o < c->off && c->off < o + n)
				n = 1;
		}
		if (kept)
			continue;
		u = absint_scalar_bytes((unsigned)n);
		if (astate__store(s, o, (unsigned)n, &u))
			return -ENOMEM;
	}
	return 0;
}

/* Whether v = a op b is one number on every path where a and b are (aval.h aval_kconst): the
 * operations the kernel keeps exact on constants (adjust_scalar_min_max_vals; a shift by an
 * amount below the width: is_safe_to_compute_dst_reg_range), not a division, a negation or a
 * byte swap, which it has not always. */
static bool kc_alu(uint8_t op, bool is64, const struct aval *a, const struct aval *b)
{
	switch (op) {
	case BPF_ADD: case BPF_SUB: case BPF_MUL: case BPF_AND: case BPF_OR: case BPF_XOR:
		break;
	case BPF_LSH: case BPF_RSH: case BPF_ARSH:
		if (b->kind != AV_SCALAR || b->r.umax >= (is64 ? 64u : 32u))
			return false;
		break;
	default:
		return false;
	}
	return aval_kconst(a) && aval_kconst(b);
}

/* The kernel's is_safe_to_compute_dst_reg_range for a shift: by an amount not constant in the
 * instruction's width, or whose 64-bit maximum is at least the width, the result is a number of
 * no known value, all 64 bits (adjust_scalar_min_max_vals returns before the 32-bit zero
 * extension), though the interpreter and the JITs mask the amount. */
static bool shift_unknown(uint8_t op, bool is64, const struct aval *b)
{
	if (op != BPF_LSH && op != BPF_RSH && op != BPF_ARSH)
		return false;
	if (b->kind != AV_SCALAR)
		return true;
	if (is64 ? !range_is_const(&b->r)
		 : b->r.u32_min != b->r.u32_max || b->r.s32_min != b->r.s32_max)
		return true;
	return b->r.umax >= (is64 ? 64u : 32u);
}

/* The size output argument k of p writes (s's registers): the next argument's for memory
 * with its size, 8 for HARG_LONG_OUT and 4 for HARG_U32_INOUT (*eight); NULL for other kinds. */
static const struct aval *out_size(const struct scev_ctx *cx, const struct ebpf_helper_proto *p,
				   int k, const struct astate *s, struct aval *eight)
{
	if (p->args[k] == HARG_MEM_UNINIT || p->args[k] == HARG_MEM_RW ||
	    p->args[k] == HARG_MEM_RW_OR_NULL)
		return &s->regs[k + 2];
	/* (a map's value the helper writes: the map in r1, its value size) */
	if (p->args[k] == HARG_MAP_VALUE_OUT) {
		const struct aval *m = &s->regs[1];

		if (m->kind != AV_PTR || m->region != REGION_MAP_HANDLE || m->map >= cx->nmaps)
			return NULL;
		*eight = aval_const(cx->maps[m->map].value_size);
		return eight;
	}
	if (p->args[k] != HARG_LONG_OUT && p->args[k] != HARG_U32_INOUT)
		return NULL;
	*eight = aval_const(p->args[k] == HARG_LONG_OUT ? 8 : 4);
	return eight;
}

/* What a helper call does to memory and packet pointers beyond r0: the bytes a constant-sized
 * output argument writes at a known stack offset are written on every path from here; a helper
 * that may move the packet kills every packet pointer (the kernel's clear_all_pkt_pointers) and
 * what was known of the packet's length. */
static int helper_effects(const struct scev_ctx *cx, struct astate *s, int32_t id)
{
	const struct ebpf_helper_proto *p = absint_helper_proto(s, id);

	if (!p)
		return 0;
	for (int k = 0; k < 4; k++) {
		struct aval eight;
		const struct aval *a = &s->regs[k + 1], *n = out_size(cx, p, k, s, &eight);
		int64_t off;
		uint64_t len;

		if (!n)
			continue;
		/* as the kernel marks them: every byte up to the size's maximum, even when the
		 * helper may write fewer (a string read); numbers, as its STACK_MISC reads */
		len = n->kind == AV_SCALAR ? n->r.umax : 0;
		if (ptr_in(a, REGION_STACK, &off) && len && len <= EBPF_STACK_SIZE) {
			astate__invalidate(s, off, off + (int64_t)len);
			fpmask_add(&s->sinit, off, off + (int64_t)len);
			if (off + (int64_t)len <= 0 && stack_misc(s, off, off + (int64_t)len))
				return -ENOMEM;
		} else if (p->args[k] == HARG_LONG_OUT && ptr_in(a, REGION_STACK, NULL) &&
			   a->r.smin >= -EBPF_STACK_SIZE && a->r.smax <= -8) {
			/* (at a variable offset: each byte it may write the kernel's STACK_MISC, none
			 * newly written — the run's other bytes are not) */
			astate__invalidate(s, a->r.smin, a->r.smax + 8);
			if (stack_misc(s, a->r.smin, a->r.smax + 8))
				return -ENOMEM;
		}
	}
	if (p->flags & HF_CHANGES_PKT)
		absint_pkt_moved(s);
	return 0;
}

void absint_pkt_moved(struct astate *s)
{
	uint32_t k = 0;

	s->pkt_kept = false;	/* (and every caller's frame: clear_all_pkt_pointers) */
	absint_dynptr_pkt_moved(s);	/* (a packet dynptr's slices die with the pointers) */

	for (int r = 0; r < EBPF_NREGS; r++) {
		if (is_pkt_ptr(&s->regs[r]))
			s->regs[r] = aval_top();
		aval_drop_pkt_len(&s->regs[r]);
	}
	/* spilled packet pointers too; other spills (the context) keep their type */
	for (uint32_t c = 0; c < s->n; c++) {
		aval_drop_pkt_len(&s->cells[c].v);
		if (!is_pkt_ptr(&s->cells[c].v))
			s->cells[k++] = s->cells[c];
	}
	s->n = k;
	s->pkt_min = 0;
	astate__pkt_forget_all(s);
}

/* What a helper call may do besides its result (FN_*, internal.h): moving the packet (its
 * flag), writing memory through a pointer (an output argument), running a callback (bpf_loop)
 * that may do either; no prototype modeled: anything. */
static uint8_t helper_effects_of(int32_t id, uint8_t any_fn)
{
	const struct ebpf_helper_proto *p = ebpf_helper_proto(id);
	uint8_t e = 0;

	/* (no prototype in the table: their callbacks do what they do) */
	if (absint_cb_helper(id))
		return any_fn;
	/* the dynptr helpers (kernel/bpf/helpers.c): read writes its dst, data only returns a
	 * pointer (NULL for packet dynptrs), write writes the dynptr's memory and, to a packet
	 * dynptr (bpf_dynptr_from_skb, a kfunc), may move the packet (check_helper_call:
	 * changes_data), which call_effects decides */
	if (id == BPF_FUNC_dynptr_read || id == BPF_FUNC_dynptr_write)
		return FN_WRITES_OUT;
	/* (bpf_dynptr_from_mem, the ringbuf dynptr helpers: the dynptr's 16 bytes) */
	if (absint_dynptr_proto(id))
		return FN_WRITES_OUT;
	if (id == BPF_FUNC_dynptr_data || absint_timer_helper(id))
		return 0;	/* (a timer helper writes the timer's own bytes: absint_timer.c) */
	/* not modeled (its call is unsupported where a run reaches it: a socket lookup,
	 * bpf_sk_release): it may write what it is given, and moves the packet when the table's
	 * entry, the kernel's bpf_helper_changes_pkt_data, says so; no entry: anything.  (A static
	 * function calling a socket lookup leaves its callers' packet pointers valid: the main of
	 * test_cls_redirect_subprogs.o reads its packet after such calls) */
	if (!p) {
		const struct ebpf_helper_proto *t = ebpf_helper_entry(id);

		return t && !(t->flags & HF_CHANGES_PKT) ? FN_WRITES_OUT
							 : FN_MOVES_PKT | FN_WRITES_OUT;
	}
	if (p->flags & HF_CHANGES_PKT)
		e |= FN_MOVES_PKT;
	for (int k = 0; k < 5; k++) {
		if (p->args[k] == HARG_MEM_RW || p->args[k] == HARG_MEM_UNINIT ||
		    p->args[k] == HARG_MEM_RW_OR_NULL ||
		    p->args[k] == HARG_LONG_OUT || p->args[k] == HARG_U32_INOUT ||
		    p->args[k] == HARG_MAP_VALUE_OUT)
			e |= FN_WRITES_OUT;
	}
	return e;
}

static uint8_t any_fn_effects(const struct scev_ctx *cx)
{
	uint8_t e = 0;

	if (!cx->fn_effects)
		return FN_MOVES_PKT | FN_WRITES_OUT;
	for (uint32_t f = 0; f < cx->st.cfg->nfuncs; f++)
		e |= cx->fn_effects[f];
	return e;
}

/* What the call at pc may do (FN_*): a helper's own, a function's with everything it calls. */
static uint8_t call_effects(const struct scev_ctx *cx, uint32_t pc)
{
	const struct bpf_insn *i = &cx->insns[pc];

	if (ebpf_is_pseudo_call(i))
		return cx->fn_effects ?
		       cx->fn_effects[cx->st.cfg->blocks[cx->st.cfg->block_of[pc + 1 + i->imm]].func] :
		       FN_MOVES_PKT | FN_WRITES_OUT;
	if (ebpf_is_helper_call(i) && i->imm == BPF_FUNC_dynptr_write &&
	    (!cx->fn_effects || cx->kfunc_other))
		return FN_MOVES_PKT | FN_WRITES_OUT;
	if (ebpf_is_helper_call(i))
		return helper_effects_of(i->imm, any_fn_effects(cx));
	/* the iterator kfuncs write their iterator (kernel/bpf/bpf_iter.c; none is among the
	 * kfuncs that change packet data); other kfuncs: anything */
	if (ebpf_is_call(i) && absint_iter_kfunc(cx, pc))
		return FN_WRITES_OUT;
	/* the dynptr kfuncs write the dynptr they make or a slice's buffer; none changes packet
	 * data (bpf_dynptr_write to an skb dynptr does: kfunc_other above) */
	if (ebpf_is_call(i) && absint_dynptr_kfunc(cx, pc))
		return FN_WRITES_OUT;
	if (ebpf_is_call(i) && (absint_kfunc_plain(cx, pc) || absint_ref_kfunc(cx, pc)))
		return 0;	/* (bpf/kfunc_table.c's: no memory argument, no packet change) */
	return ebpf_is_call(i) ? FN_MOVES_PKT | FN_WRITES_OUT : 0;
}

static bool call_moves_pkt(const struct scev_ctx *cx, uint32_t pc)
{
	return call_effects(cx, pc) & FN_MOVES_PKT;
}

int absint_fn_effects(struct scev_ctx *cx)
{
	const struct scev_cfg *cfg = cx->st.cfg;
	bool changed = true;

	for (uint32_t pc = 0; pc < cx->len; pc += ebpf_insn_slots(&cx->insns[pc]))
		if (ebpf_is_call(&cx->insns[pc]) && !ebpf_is_helper_call(&cx->insns[pc]) &&
		    !ebpf_is_pseudo_call(&cx->insns[pc]) && !absint_iter_kfunc(cx, pc) &&
		    !absint_kfunc_plain(cx, pc) && !absint_ref_kfunc(cx, pc)) {
			int dk = absint_dynptr_kfunc(cx, pc);

			/* (bpf_dynptr_from_skb makes the dynptr whose writes may move the packet;
			 * the other dynptr kfuncs make or use none such) */
			if (dk == DK_NONE || dk == DK_FROM_SKB)
				cx->kfunc_other = true;
		}
	if (!(cx->fn_effects = arena_zalloc(cfg->nfuncs ? cfg->nfuncs : 1, 1)))
		return -ENOMEM;
	/* to a fixpoint: a function does what the functions it calls do, and one that takes a
	 * function's address (a callback) what any function does */
	while (changed) {
		uint8_t any = any_fn_effects(cx);

		changed = false;
		for (uint32_t f = 0; f < cfg->nfuncs; f++) {
			uint8_t e = cx->fn_effects[f];

			for (uint32_t pc = cfg->funcs[f].start; pc < cfg->funcs[f].end;
			     pc += ebpf_insn_slots(&cx->insns[pc])) {
				const struct bpf_insn *i = &cx->insns[pc];
				uint8_t cls = ebpf_class(i);

				if ((cls == BPF_ST || cls == BPF_STX) && i->dst_reg != EBPF_REG_FP)
					e |= FN_WRITES_OUT;
				else if (ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC)
					e |= any;
				else if (ebpf_is_call(i))
					e |= call_effects(cx, pc);
				/* a tail call from a static function returns to its caller when it
				 * succeeds too, after the program it called, which may have moved
				 * the packet (the kernel marks such a function changes_pkt_data;
				 * verifier_sock.c "invalidate_pkt_pointers_by_tail_call", 6.18) */
				if (f && ebpf_is_helper_call(i) && i->imm == BPF_FUNC_tail_call)
					e |= FN_MOVES_PKT;
			}
			if (e != cx->fn_effects[f]) {
				cx->fn_effects[f] = e;
				changed = true;
			}
		}
	}
	return 0;
}

bool absint_loop_moves_pkt(const struct scev_ctx *cx, uint32_t l)
{
	const struct scev_loop *L = &cx->st.loops->loops[l];

	for (uint32_t k = 0; k < L->nblocks; k++) {
		const struct scev_block *b = &cx->st.cfg->blocks[L->blocks[k]];

		for (uint32_t pc = b->first; pc <= b->last; pc += ebpf_insn_slots(&cx->insns[pc]))
			if (ebpf_is_call(&cx->insns[pc]) && call_moves_pkt(cx, pc))
				return true;
	}
	return false;
}

/* v = a - b: data_end - (data + x) with every x at most the bytes proven is L - x >= 0, so v
 * + min(x) <= L (aval.h: a scalar's relation to the packet's length). */
static void pkt_len_of_sub(const struct astate *s, const struct aval *a, const struct aval *b,
			   struct aval *v)
{
	uint64_t have = s->pkt_min;

	if (a->kind != AV_PTR || a->region != REGION_PKT_END || !range_is_const(&a->r) ||
	    a->r.umin != 0 || b->kind != AV_PTR || b->region != REGION_PKT || b->maybe_null ||
	    b->r.smin < 0)
		return;
	if (astate__pkt_range_here(s, 0) > have)
		have = astate__pkt_range_here(s, 0);
	if ((uint64_t)b->r.smax > have)
		return;
	/* (L >= have, so L - x >= have - max(x); and a packet's length fits in 32 bits, as
	 * skb->len and an XDP frame within a page do, so L - x < 2^32 - min(x)) */
	*v = aval_scalar(range_urange(have - (uint64_t)b->r.smax,
				      0xffffffffull - (uint64_t)b->r.smin));
	aval_set_pkt_len(v, (uint64_t)b->r.smin);
}

/* v = a - k (a 64-bit sub of k, or add of -k, 0 < k <= min(a)): a + c <= L gives v + (c + k) <=
 * L, no value of a wrapping (len - 4 before a loop that reads 4 bytes at a time). */
static void pkt_len_less(uint8_t op, const struct aval *a, const struct aval *b, struct aval *v)
{
	uint64_t k;
	uint16_t c;

	if (!aval_pkt_len(a, &c) || !aval_is_const(b, &k) || (op != BPF_SUB && op != BPF_ADD))
		return;
	if (op == BPF_ADD)
		k = -k;
	if (!k || k > a->r.umin || k > AVAL_PKT_LEN_MAX)
		return;
	aval_set_pkt_len(v, c + k > AVAL_PKT_LEN_MAX ? AVAL_PKT_LEN_MAX : c + k);
}

/* v = a op b (64-bit add or sub) as a packet pointer's base (aval.h), v as aval_alu made it: a
 * constant moves c; any other number issues a new base with id of pc — older holders of that
 * id lose it, and what was proven of the older base is forgotten (the kernel's fresh id on
 * pkt += var; on pkt += a number that is one constant per path, which the kernel adds to the
 * fixed offset, one that relates the holders of the sum: c from below, and no variable part). */
static void pkt_var_step(struct astate *s, uint32_t pc, uint8_t op, const struct aval *a,
			 const struct aval *b, struct aval *v)
{
	const struct aval *p = a->kind == AV_PTR ? a : b, *k = p == a ? b : a;
	uint16_t lc = 0;
	uint64_t c;
	int64_t nc;
	bool novar;
	/* data + o + x with x + lc <= L (aval.h; the kernel has no such relation, and refuses the
	 * access): L - o - x >= lc - max(o) bytes follow v, v = base + nc */
	bool len = op == BPF_ADD && p->region == REGION_PKT && aval_pkt_len(k, &lc) && !p->id &&
		   p->r.smin >= 0 && p->r.smax < lc && k->r.smin >= 0;

	if (v->kind != AV_PTR || v->region != REGION_PKT || p->region != REGION_PKT ||
	    v->id == AVAL_PKT_NEG)
		return;	/* (a variable part that may be negative) */
	if (aval_is_const(k, &c)) {
		int64_t d = (int64_t)c;

		nc = aval_pkt_c(p) + (op == BPF_SUB ? -d : d);
		if (!p->id)
			return;	/* (data + another constant) */
		if (p->id != AVAL_PKT_VAR && d >= -65536 && d <= 65536 && nc >= INT16_MIN &&
		    nc <= INT16_MAX) {
			v->id = p->id;
			v->map = (uint16_t)(int16_t)nc;
			v->kc = p->kc;
			return;
		}
	}
	novar = !v->id;
	nc = aval_pkt_fixed_lo(v);
	v->id = aval_null_id(pc);
	v->map = (uint16_t)(int16_t)nc;
	v->kc = novar;
	astate__drop_id(s, v->id);	/* (p may be one of them: read before) */
	astate__pkt_forget(s, v->id);
	if (len && nc + lc - p->r.smax > 0)
		astate__pkt_prove(s, v->id, (uint64_t)(nc + lc - p->r.smax));
}

/* A 64-bit copy of a packet pointer of no base (aval.h: id 0, whose offset is no one constant;
 * or AVAL_PKT_VAR, a variable part whose base a join or a loop header forgot) issues a base of
 * the copy's pc, the value copied less its least fixed offset, to both registers, as the
 * kernel's copies share the pointer's id: a comparison of one with data_end then proves bytes
 * past the other (test_cls_redirect, in a loop: r1 = r9; r1 += 20; if r1 <= data_end, then
 * r9 + 12 is read).  Older holders of that base lose it, as at pkt_var_step. */
static void pkt_copy_base(struct astate *s, uint32_t pc, uint8_t src, struct aval *v)
{
	if (v->kind != AV_PTR || v->region != REGION_PKT || v->maybe_null ||
	    (v->id && v->id != AVAL_PKT_VAR) || (!v->id && range_is_const(&v->r)))
		return;
	v->map = (uint16_t)aval_pkt_fixed_lo(v);
	v->kc = !v->id;
	v->id = aval_null_id(pc);
	astate__drop_id(s, v->id);
	astate__pkt_forget(s, v->id);
	s->regs[src].id = v->id;
	s->regs[src].map = v->map;
	s->regs[src].kc = v->kc;
}

/* A helper with a prototype writes the stack only through its output arguments, and only
 * [ptr, ptr + size): those bytes are forgotten (and noted for the symbolic execution) when the
 * pointer's range and the size's maximum are known.  Returns true when an output argument may
 * point anywhere in the stack (the caller then forgets every cell). */
static bool helper_stack_writes(struct engine *en, struct astate *s, uint32_t pc, int32_t id)
{
	const struct ebpf_helper_proto *p = absint_helper_proto(s, id);

	for (int k = 0; k < 4; k++) {
		struct aval eight;
		const struct aval *a = &s->regs[k + 1], *n = out_size(en->cx, p, k, s, &eight);

		if (n)
			absint_cb_note_write(en->cx, pc, a, 0,
					     n->kind == AV_SCALAR ? n->r.umax : UINT64_MAX, NULL);
		if (!n || !may_be_stack(a))
			continue;
		if (a->kind == AV_PTR && !a->maybe_null && n->kind == AV_SCALAR &&
		    n->r.umax <= EBPF_STACK_SIZE && a->r.smin >= -1024 && a->r.smax <= 1024) {
			int64_t lo = a->r.smin, hi = a->r.smax + (int64_t)n->r.umax;

			astate__invalidate(s, lo, hi);
			note_stack_write(en, pc, lo, hi);
			continue;
		}
		return true;
	}
	return false;
}

static int ai_step_values(struct engine *en, struct astate *s, uint32_t pc);

bool absint_call_sets_r0(const struct scev_ctx *cx, uint32_t pc)
{
	const struct bpf_insn *i = &cx->insns[pc];
	const struct ebpf_helper_proto *p = ebpf_is_helper_call(i) ? ebpf_helper_proto(i->imm) : NULL;

	if ((p && (p->flags & HF_NO_RETURN_VALUE)) || absint_iter_void(cx, pc) ||
	    absint_kfunc_void(cx, pc))
		return false;	/* tail_call, a void kfunc: r0 is not a result */
	/* a static function that may exit with r0 unwritten gives its caller none */
	return !(ebpf_is_pseudo_call(i) && cx->fn_r0 &&
		 cx->fn_r0[cx->st.cfg->blocks[cx->st.cfg->block_of[pc + 1 + i->imm]].func] ==
			 FN_R0_UNSET);
}

/* One instruction: values, then what it surely writes. */
int absint_step(struct engine *en, struct astate *s, uint32_t pc)
{
	const struct bpf_insn *i = &en->cx->insns[pc];
	uint32_t w = ebpf_regs_written(i);
	struct pkt_var moved[PKT_VARS];
	uint32_t gregs = astate__pkt_guard_regs(s);
	int nmoved = gregs && (gregs & (1u << i->dst_reg | 1u << i->src_reg)) ?
			     astate__pkt_guards_moved(s, i, moved) : 0;
	/* (the written register's old value only where a null guard may need it: most states
	 * hold none, and the copy was a cost of every instruction) */
	bool nn = astate__nn_any(s) && (w & (1u << s->nn.p | 1u << s->nn.g));
	struct aval old;
	int err;

	if (nn)
		old = s->regs[i->dst_reg < EBPF_NREGS ? i->dst_reg : 0];
	if (s->dpg)	/* (before: a call's return may set a guard on r0) */
		absint_dynptr_guard_written(s, i, w);
	if (__builtin_expect(w >> EBPF_REG_FP & 1, 0)) {
		/* (a write to r10: the verdict refuses it, no run goes past it, so r10 stays the
		 * frame pointer in every state after it) */
		struct aval fp = s->regs[EBPF_REG_FP];

		err = ai_step_values(en, s, pc);
		s->regs[EBPF_REG_FP] = fp;
	} else {
		err = ai_step_values(en, s, pc);
	}
	if (nn)
		astate__nn_written(s, i, &old);
	astate__pkt_regs_written(s, w);
	for (int k = 0; k < nmoved; k++)
		astate__pkt_add(s, &moved[k]);
	if (ebpf_is_pseudo_call(i))	/* (after r0's write: a guard on it is the result's) */
		absint_call_exit_pkt(en->cx, s, pc);

	if (ebpf_is_call(i) || (ebpf_class(i) == BPF_LD && !ebpf_is_ldimm64(i))) {
		s->init &= (uint16_t)~0x3eu;	/* r1-r5 are dead after a call */
		s->init |= 1;
		if (!absint_call_sets_r0(en->cx, pc))
			s->init &= (uint16_t)~1u;
	} else {
		s->init |= (uint16_t)w;
	}
	if ((ebpf_class(i) == BPF_ST || ebpf_class(i) == BPF_STX) &&
	    !(ebpf_mode(i) == BPF_ATOMIC && i->imm == BPF_LOAD_ACQ)) {
		int64_t off;

		if (ptr_in(&s->regs[i->dst_reg], REGION_STACK, &off))
			fpmask_add(&s->sinit, off + i->off,
				   off + i->off + ebpf_size_bytes(ebpf_size(i)));
	}
	return err;
}

/* A bpf-to-bpf call: record the arguments for the callee's next analysis and return what its
 * exits returned in the previous pass (call_result).  Stack pointers do not cross frames as
 * such: the callee's r10 is another frame, so a pointer into the caller's frame (owner) becomes
 * one of REGION_CALLER_STACK, checked against what the caller wrote before its calls
 * (absint_callbacks.c). */
static struct aval frame_local(const struct scev_ctx *cx, const struct aval *a, uint32_t owner)
{
	struct aval v = *a;
	uint32_t k = absint_frame_slot(cx, owner);

	if (a->kind == AV_PTR && (a->region == REGION_STACK || a->region == REGION_CALLER_STACK))
		v = a->maybe_null ? aval_top()
		    : a->region == REGION_STACK ? aval_caller_ptr(owner, k, a->r)
						: aval_caller_rebase(a, k);
	/* two calls of one function may return different lookups' results; a pointer into
	 * callers' frames means the same frames in the callee, its id what each holds (aval.h);
	 * a value of a map with a spin lock, its lookup's (the lock's name, when callees take or
	 * release locks: absint_lock.c; a new run of the lookup forgets it, astate__drop_id) */
	if (!(v.kind == AV_PTR && v.region == REGION_CALLER_STACK) &&
	    !(cx->lk_in && v.kind == AV_PTR && v.region == REGION_MAP_VALUE &&
	      absint_lock_map(cx, v.map)))
		aval_drop_id(&v);
	return v;
}

/* What a static callee's exits returned (its summary r0), as its caller sees it: a number, or a
 * pointer whose meaning is no frame's nor state's (the context, a map value or NULL with its
 * map, the packet, a map), with its range.  Any other pointer is an unknown value: one into a
 * frame (the kernel refuses to return it: absint_verdict.c), an iterator's value, a reference
 * (absint_ref.c: not modeled across calls), a dynptr's.  The packet pointer's base and the
 * lookup's identity are the callee's: dropped (the call gives a new identity, absint_step). */
static struct aval call_result(const struct aval *ret)
{
	struct aval v = *ret;

	v.id = 0;
	if (v.kind != AV_PTR)
		return v;
	switch (v.region) {
	case REGION_PKT:
		v.map = 0;
		return v;
	case REGION_CTX: case REGION_PKT_END: case REGION_PKT_META: case REGION_MAP_VALUE:
	case REGION_MAP_HANDLE:
		return v;
	default:
		return aval_top();
	}
}

/* The bytes a comparison with data_end proved to follow packet pointer a in s (0 when a is not
 * one): past data, pkt_min or what data itself has (a pointer without a variable part); past
 * a's variable base, what it has (aval.h: the kernel's range of its id alone). */
static uint16_t pkt_tail(const struct astate *s, const struct aval *a, uint64_t data)
{
	int64_t t = 0;

	if (a->kind != AV_PTR || a->region != REGION_PKT || a->maybe_null || a->r.smin < 0)
		return 0;
	if (aval_pkt_novar(a) && (uint64_t)a->r.smax < data)
		t = (int64_t)(data - (uint64_t)a->r.smax);
	if (a->id && a->id != AVAL_PKT_VAR && a->id != AVAL_PKT_NEG &&
	    astate__pkt_range_here(s, a->id) - aval_pkt_c(a) > t)
		t = astate__pkt_range_here(s, a->id) - aval_pkt_c(a);
	return t > UINT16_MAX ? UINT16_MAX : (uint16_t)t;
}

/* Whether function f starts from what its calls proved of the packet: not a global function,
 * verified on its own, nor a callback, which a helper calls; with known arguments. */
static bool pkt_entry_applies(const struct scev_ctx *cx, uint32_t f)
{
	return cx->fn_seen && (cx->fn_seen[f] & 1) && !absint_global(cx, f) &&
	       !(cx->fn_cb && cx->fn_cb[f]);
}

/* What every call of function f proved of the packet (scev_ctx.fn_pkt), at its entry s when f
 * is a plain static function: the bytes after data and data_meta, and each packet pointer
 * argument made a base of its own (aval.h: an id, as of a pc of f's, whose issue there only
 * forgets it) with its bytes. */
void absint_pkt_entry(const struct scev_ctx *cx, uint32_t f, struct astate *s)
{
	const struct fn_pkt *p;

	if (!pkt_entry_applies(cx, f))
		return;
	p = &cx->fn_pkt[f];
	s->pkt_min = p->data;
	astate__pkt_prove(s, PKT_META_ID, p->meta);
	for (int r = 1; r <= 5; r++) {
		struct aval *a = &s->regs[r];
		int64_t c;

		if (!p->tail[r] || a->kind != AV_PTR || a->region != REGION_PKT ||
		    a->id == AVAL_PKT_NEG)
			continue;
		/* (c its least fixed offset, as the kernel keeps it: aval.h) */
		c = aval_pkt_fixed_lo(a);
		a->id = aval_null_id(cx->st.cfg->funcs[f].start + (uint32_t)r);
		a->map = (uint16_t)(int16_t)c;
		if (c + p->tail[r] > 0)
			astate__pkt_prove(s, a->id, (uint64_t)(c + p->tail[r]));
	}
}

/* The proofs of data (id 0) of s: s->pkt_min and its pkt_var entries of id 0, unguarded or
 * guarded by r0 (others dropped: a caller sees no other register of the callee's), with r0. */
static void exit_pkt_of(const struct astate *s, struct astate *e)
{
	int n = 0;

	memset(e, 0, sizeof(*e));
	e->live = true;
	for (int r = 0; r < EBPF_NREGS; r++)
		e->regs[r] = aval_top();
	e->regs[0] = s->regs[0];
	e->pkt_min = s->pkt_min;
	for (int k = 0; k < PKT_VARS; k++) {
		const struct pkt_var *v = &s->pkt_var[k];

		if (v->range && !v->id && (v->greg == PKT_NO_GUARD || v->greg == 0))
			e->pkt_var[n++] = *v;
	}
	for (; n < PKT_VARS; n++)
		e->pkt_var[n] = (struct pkt_var){ 0, 0, PKT_NO_GUARD, 0 };
}

void absint_exit_pkt_note(struct scev_ctx *cx, uint32_t f, const struct astate *s)
{
	struct astate e;

	if (!cx->fn_exit_acc || !f || !pkt_entry_applies(cx, f))
		return;	/* (main's exits return to the loader) */
	exit_pkt_of(s, &e);
	/* (no cells: nothing to free; a join with r0 as the only guard register) */
	if (!cx->fn_exit_acc[f].live)
		cx->fn_exit_acc[f] = e;
	else if (astate__join_guards(&cx->fn_exit_acc[f], &e, false, 1u) < 0)
		cx->fn_exit_acc[f].live = false;
}

/* The bytes of data s proves where r0 may hold what g says (g NULL: unguarded): pkt_min, or an
 * entry of id 0 unguarded or guarded by that value of r0. */
static uint64_t exit_pkt_range(const struct astate *s, const struct pkt_var *g)
{
	uint64_t r = s->pkt_min;

	for (int k = 0; k < PKT_VARS; k++) {
		const struct pkt_var *v = &s->pkt_var[k];

		if (v->range && !v->id && v->range > r &&
		    (v->greg == PKT_NO_GUARD || (g && v->greg == g->greg && v->gval == g->gval)))
			r = v->range;
	}
	return r;
}

bool absint_exit_pkt_held(const struct scev_ctx *cx, uint32_t f)
{
	const struct astate *u, *a;

	if (!cx->fn_exit || !cx->fn_exit[f].live || !cx->fn_seen || !(cx->fn_seen[f] & 2))
		return true;
	u = &cx->fn_exit[f];
	a = &cx->fn_exit_acc[f];
	if (!a->live)
		return true;	/* (no exit reached: no call returned) */
	if (exit_pkt_range(u, NULL) > exit_pkt_range(a, NULL))
		return false;
	for (int k = 0; k < PKT_VARS; k++)
		if (u->pkt_var[k].range && u->pkt_var[k].greg != PKT_NO_GUARD &&
		    u->pkt_var[k].range > exit_pkt_range(a, &u->pkt_var[k]))
			return false;
	return true;
}

int absint_exit_pkt_alloc(struct scev_ctx *cx)
{
	uint32_t nf = cx->st.cfg->nfuncs;

	cx->fn_exit = arena_zalloc(nf, sizeof(*cx->fn_exit));
	cx->fn_exit_acc = arena_zalloc(nf, sizeof(*cx->fn_exit_acc));
	return cx->fn_exit && cx->fn_exit_acc ? 0 : -ENOMEM;
}

bool absint_exit_pkt_round(struct scev_ctx *cx)
{
	bool held = true;

	for (uint32_t f = 0; f < cx->st.cfg->nfuncs; f++) {
		held = absint_exit_pkt_held(cx, f) && held;
		cx->fn_exit[f] = cx->fn_exit_acc[f];	/* (no cells) */
	}
	return held;
}

void absint_exit_pkt_drop(struct scev_ctx *cx)
{
	for (uint32_t f = 0; cx->fn_exit && f < cx->st.cfg->nfuncs; f++)
		cx->fn_exit[f].live = false;
}

void absint_call_exit_pkt(const struct scev_ctx *cx, struct astate *s, uint32_t pc)
{
	const struct bpf_insn *i = &cx->insns[pc];
	uint32_t f;
	const struct astate *e;

	if (!ebpf_is_pseudo_call(i) || !cx->fn_exit || !cx->fn_seen || call_moves_pkt(cx, pc))
		return;
	f = cx->st.cfg->blocks[cx->st.cfg->block_of[pc + 1 + i->imm]].func;
	e = &cx->fn_exit[f];
	if (!(cx->fn_seen[f] & 2) || !pkt_entry_applies(cx, f) || !e->live)
		return;
	/* (data is the caller's: the callee's proofs of it hold after its return, no helper
	 * having moved the packet; a guard on r0 is the call's result) */
	if (e->pkt_min > s->pkt_min)
		s->pkt_min = e->pkt_min;
	for (int k = 0; k < PKT_VARS; k++)
		if (e->pkt_var[k].range)
			astate__pkt_add(s, &e->pkt_var[k]);
}

/* What the call of function f in state s of function caller proves of the packet, met with what
 * its other calls proved (scev_ctx.fn_pkt); in the last pass, whether it proves less than f was
 * run with. */
static void call_pkt_note(struct scev_ctx *cx, const struct astate *s, uint32_t f, uint32_t caller)
{
	uint64_t data = s->pkt_min > astate__pkt_range_here(s, 0) ? s->pkt_min
								  : astate__pkt_range_here(s, 0);
	struct fn_pkt p = { data > UINT16_MAX ? UINT16_MAX : (uint16_t)data,
			    astate__pkt_range_here(s, PKT_META_ID), { 0 }, 0 };
	struct fn_pkt run;

	/* (the frames whose packet pointers f may read: aval.h, scev/internal.h fn_pkt) */
	if (s->pkt_kept && pkt_entry_applies(cx, caller))
		p.frames = cx->fn_pkt[caller].frames;
	if (caller < 64)
		p.frames |= 1ull << caller;

	for (int r = 1; r <= 5; r++)
		p.tail[r] = pkt_tail(s, &s->regs[r], data);
	if (!(cx->fn_seen_acc[f] & 1))
		cx->fn_pkt_acc[f] = p;
	fn_pkt_meet(&cx->fn_pkt_acc[f], &p);
	run = cx->fn_pkt[f];
	if (!cx->first_pass && pkt_entry_applies(cx, f) && fn_pkt_meet(&run, &p))
		cx->fn_pkt_short = true;
}

static struct aval call_summary(struct scev_ctx *cx, const struct astate *s, uint32_t pc,
				uint32_t target)
{
	uint32_t f = cx->st.cfg->blocks[cx->st.cfg->block_of[target]].func;
	uint32_t caller = cx->st.cfg->blocks[cx->st.cfg->block_of[pc]].func;


	/* the bytes written before the call, which the callee may read through an argument */
	for (int r = 1; r <= 5; r++)
		if (s->regs[r].kind == AV_PTR && s->regs[r].region == REGION_STACK) {
			absint_cb_note_frame(cx, caller, s);
			break;
		}
	if (cx->fn_args_acc) {
		struct aval args[6];

		call_pkt_note(cx, s, f, caller);
		for (int r = 1; r <= 5; r++) {
			struct aval a = frame_local(cx, &s->regs[r], caller);

			args[r] = a;
			cx->fn_args_acc[f][r] = cx->fn_seen_acc[f] & 1 ?
				aval_join(&cx->fn_args_acc[f][r], &a) : a;
		}
		cx->fn_seen_acc[f] |= 1;
		if (cx->site_args && !cx->first_pass)
			scev_ctx_note_site(cx, pc, args);
		if (cx->fn_args_last && !cx->first_pass) {
			for (int r = 1; r <= 5; r++)
				cx->fn_args_last[f][r] = cx->fn_seen_last[f] ?
					aval_join(&cx->fn_args_last[f][r], &args[r]) : args[r];
			cx->fn_seen_last[f] = 1;
		}
	}
	absint_iter_note_call(cx, caller, f, s);
	if (cx->fn_seen && (cx->fn_seen[f] & 2))
		return call_result(&cx->fn_ret[f]);
	return aval_top();
}

/* The first map the verifier cannot tell from map m: the same type, key and value sizes and
 * flags, the same number of entries unless it is a hash (arrays: a key below it is found), and
 * neither is global data (initial contents, read-only); maps of maps name the same inner map.
 * Handles of such maps are one value, so
 * a join of two paths that load one or the other keeps a map (the kernel walks the paths apart:
 * Cilium's ct4 and ct_any4 maps). */
uint16_t absint_map_class(const struct scev_ctx *cx, uint32_t m)
{
	const struct ebpf_map_def *a = m < cx->nmaps ? &cx->maps[m] : NULL;

	/* global data: contents and read-only rule are its own; a timer map: its timer is
	 * bpf_timer_init's map's only (absint_timer.c); special fields: each map's own */
	if (!a || a->init || a->name[0] == '.' || (a->flags & BPF_F_RDONLY_PROG) || a->timer ||
	    a->nfields || a->fields_over)
		return (uint16_t)m;
	for (uint32_t j = 0; j < m; j++) {
		const struct ebpf_map_def *b = &cx->maps[j];
		bool hash = a->type == BPF_MAP_TYPE_HASH || a->type == BPF_MAP_TYPE_LRU_HASH ||
			    a->type == BPF_MAP_TYPE_PERCPU_HASH ||
			    a->type == BPF_MAP_TYPE_LRU_PERCPU_HASH;

		if (!b->init && b->name[0] != '.' && !b->timer && !b->nfields && !b->fields_over &&
		    b->type == a->type &&
		    b->key_size == a->key_size && b->value_size == a->value_size &&
		    b->flags == a->flags && b->inner == a->inner &&
		    (hash || b->max_entries == a->max_entries))
			return (uint16_t)j;
	}
	return (uint16_t)m;
}

bool absint_map_shared(const struct scev_ctx *cx, uint16_t m)
{
	for (uint32_t j = m + 1u; j < cx->nmaps; j++)
		if (absint_map_class(cx, j) == m)
			return true;
	return false;
}

static int ai_step_values(struct engine *en, struct astate *s, uint32_t pc)
{
	struct scev_ctx *cx = en->cx;
	const struct bpf_insn *i = &cx->insns[pc];
	uint8_t cls = ebpf_class(i), op = ebpf_op(i);
	struct aval a, b, v;
	int64_t off;

	switch (cls) {
	case BPF_ALU: case BPF_ALU64: {
		bool is64 = cls == BPF_ALU64;

		a = s->regs[i->dst_reg];
		b = ebpf_srcbit(i) == BPF_X ? s->regs[i->src_reg]
					     : aval_const(is64 ? (uint64_t)(int64_t)i->imm : (uint32_t)i->imm);
		switch (op) {
		case BPF_MOV:
			if (i->off) {
				v = aval_sext(&b, (unsigned)i->off / 8);
				v = is64 ? v : aval_zext(&v, 4);
			} else {
				uint16_t c;

				v = aval_alu(BPF_MOV, is64, false, &a, &b);
				if (v.kind == AV_SCALAR)
					v.kc = aval_kconst(&b);
				if (is64 && ebpf_srcbit(i) == BPF_X)
					pkt_copy_base(s, pc, i->src_reg, &v);
				/* (w = w of a length: zext(x) <= x, so zext(x) + c <= L too) */
				if (!is64 && aval_pkt_len(&b, &c))
					aval_set_pkt_len(&v, c);
			}
			break;
		case BPF_NEG:
			v = aval_neg(&a, is64);
			break;
		case BPF_END:
			if (is64 || ebpf_srcbit(i) == BPF_TO_BE)
				v = aval_bswap(&a, (unsigned)i->imm);
			else
				v = aval_zext(&a, (unsigned)i->imm / 8);
			break;
		default:
			v = aval_alu(op, is64, i->off == 1, &a, &b);
			if (a.kind != AV_PTR && shift_unknown(op, is64, &b))
				v = aval_scalar(range_unknown());
			if (v.kind == AV_SCALAR && kc_alu(op, is64, &a, &b))
				v.kc = 1;
			if (is64 && op == BPF_ADD && ebpf_srcbit(i) == BPF_X && cx->first_pass &&
			    cx->add_src)
				add_src_note(&cx->add_src[pc], &b);
			if (is64 && (op == BPF_ADD || op == BPF_SUB))
				pkt_var_step(s, pc, op, &a, &b, &v);
			if (is64 && op == BPF_SUB)
				pkt_len_of_sub(s, &a, &b, &v);
			if (is64)
				pkt_len_less(op, &a, &b, &v);
			break;
		}
		if (op != BPF_MOV || i->off)
			v.src = SRC_FLOW;
		s->regs[i->dst_reg] = v;
		return 0;
	}
	case BPF_LD:
		if (ebpf_is_ldimm64(i)) {
			switch (i->src_reg) {
			case 0:
				v = aval_const(ebpf_ldimm64_value(i));
				break;
			case BPF_PSEUDO_MAP_FD: case BPF_PSEUDO_MAP_IDX:
				v = aval_ptr(REGION_MAP_HANDLE, absint_map_class(cx, (uint32_t)i->imm),
					     range_const(0));
				break;
			case BPF_PSEUDO_MAP_VALUE: case BPF_PSEUDO_MAP_IDX_VALUE:
				v = aval_ptr(REGION_MAP_VALUE, (uint16_t)i->imm,
					     range_const((uint64_t)(uint32_t)i[1].imm));
				v.id = absint_lock_map(cx, (uint32_t)i->imm) ? LK_ID_DIRECT : 0;
				break;
			default:
				v = aval_top();
				break;
			}
			s->regs[i->dst_reg] = v;
			return 0;
		}
		for (int r = 1; r <= 5; r++)
			s->regs[r] = aval_top();
		s->regs[0] = absint_unknown_bytes(ebpf_size_bytes(ebpf_size(i)));
		return 0;
	case BPF_LDX: {
		unsigned size = ebpf_size_bytes(ebpf_size(i));
		const struct ebpf_map_field *f;

		a = s->regs[i->src_reg];
		if (ptr_in(&a, REGION_STACK, &off))
			v = stack_fill(s, off + i->off, size);
		else if (ptr_in(&a, REGION_STACK, NULL) && a.r.smin >= -2 * FP_FRAME &&
			 a.r.smax <= 2 * FP_FRAME && a.r.smin + i->off >= -EBPF_STACK_SIZE &&
			 a.r.smax + i->off + (int64_t)size <= 0 &&
			 astate__zero_over(s, a.r.smin + i->off, a.r.smax + i->off + size))
			v = aval_const(0);	/* (a variable offset into bytes all 0) */
		else if (ptr_in(&a, REGION_STACK, NULL) && !cx->opts.unprivileged)
			/* (any other read at a variable offset: a number, as the kernel reads
			 * even a spilled pointer's bytes so, mark_reg_stack_read) */
			v = absint_scalar_bytes(size);
		else if (a.kind == AV_PTR && a.region == REGION_CTX) {
			v = ctx_load(cx, &a, i->off, size);
			if (v.kind == AV_PTR && v.maybe_null) {
				v.id = aval_null_id(pc);
				astate__drop_id(s, v.id);
			}
		}
		else if (a.kind == AV_PTR && a.region == REGION_ITER_VAL)
			v = absint_iter_load(cx, &a, pc, i->off, size);
		else if (a.kind == AV_PTR && a.region == REGION_BTF)
			v = btf_load(cx, &a, i->off, size);
		else if (a.kind == AV_PTR && a.region == REGION_MAP_HANDLE)
			v = map_struct_load(cx, &a, i->off, size);
		else if (a.kind == AV_PTR && a.region == REGION_SOCK)
			v = absint_scalar_bytes(size);	/* (a field: check_sock_access) */
		else if (a.kind == AV_PTR && a.region == REGION_KREF && a.map < cx->nref_sites &&
			 cx->ref_sites[a.map].btf) {
			struct aval o = absint_btf_ptr(cx, cx->ref_sites[a.map].btf);

			o.r = a.r;	/* (the acquired object, read as an untrusted one) */
			v = btf_load(cx, &o, i->off, size);
		} else if (a.kind == AV_PTR && a.region == REGION_CALLER_STACK) {
			uint32_t r = cx->st.cfg->blocks[cx->st.cfg->block_of[pc]].func;

			/* (the callers' frames whose packet pointers are valid here) */
			v = absint_caller_load(cx, s->pkt_kept && pkt_entry_applies(cx, r) ?
						   cx->fn_pkt[r].frames : 0,
					       &a, i->off, size, pc);
			if (self_ptr(&a)) {	/* (or this frame's bytes there) */
				struct aval o = ptr_in(&a, REGION_CALLER_STACK, &off)
						? astate__load(s, off + i->off, size)
						: absint_unknown_bytes(size);

				v = aval_join(&v, &o);
			}
		} else if (a.kind == AV_PTR && a.region == REGION_MAP_VALUE &&
			   (f = absint_map_field(cx, a.map, (__int128)a.r.smin + i->off,
						 (__int128)a.r.smax + i->off + size))) {
			v = absint_field_load(cx, f, &a, i, size);
			if (v.kind == AV_PTR && v.maybe_null) {
				v.id = aval_null_id(pc);
				astate__drop_id(s, v.id);
			}
		} else if (rodata_load(cx, &a, i->off, size, &v)) {
			/* (a number of read-only data: v) */
		} else if (a.kind == AV_PTR && scalar_mem(a.region))
			v = absint_scalar_bytes(size);
		else
			v = absint_unknown_bytes(size);
		if (ebpf_mode(i) == BPF_MEMSX)
			v = aval_sext(&v, size);
		v.src = SRC_FLOW;
		/* (one constant per path: a spill the privileged kernel keeps, read in this frame;
		 * the unprivileged kernel keeps no number spilled, and a callback's reads of its
		 * caller's frame see what the kernel widens: aval.h aval_kconst) */
		if (v.kind == AV_SCALAR &&
		    (cx->opts.unprivileged || a.kind != AV_PTR || a.region != REGION_STACK))
			v.kc = 0;
		s->regs[i->dst_reg] = v;
		return 0;
	}
	case BPF_ST: case BPF_STX: {
		unsigned size = ebpf_size_bytes(ebpf_size(i));
		bool atomic = cls == BPF_STX && ebpf_mode(i) == BPF_ATOMIC;
		struct aval old;

		if (atomic && i->imm == BPF_LOAD_ACQ) {
			a = s->regs[i->src_reg];
			v = ptr_in(&a, REGION_STACK, &off) ? stack_fill(s, off + i->off, size)
			    : a.kind == AV_PTR && scalar_mem(a.region) ? absint_scalar_bytes(size)
			    : absint_unknown_bytes(size);
			s->regs[i->dst_reg] = v;
			return 0;
		}
		a = s->regs[i->dst_reg];
		b = cls == BPF_ST ? aval_const((uint64_t)(int64_t)i->imm) : s->regs[i->src_reg];
		/* (the unprivileged rule's marks of slots that may hold a spilled pointer) */
		if (cx->ptr_spill && b.kind == AV_PTR) {
			if (ptr_in(&a, REGION_STACK, &off))
				absint_spill_note(cx, cx->st.cfg->blocks[cx->st.cfg->block_of[pc]].func,
						  off + i->off, off + i->off + size, &b);
			else if (a.kind != AV_PTR || a.region == REGION_STACK ||
				 a.region == REGION_CALLER_STACK)
				absint_spill_note(cx, UINT32_MAX, 0, 0, &b);
		}
		/* The symbolic execution places only stores at constant offsets from r10 itself;
		 * tell it which bytes every other store that may reach the stack may write. */
		if (i->dst_reg != EBPF_REG_FP && ptr_in(&a, REGION_STACK, &off))
			note_stack_write(en, pc, off + i->off, off + i->off + size);
		if (!ptr_in(&a, REGION_STACK, &off)) {
			absint_cb_note_write(cx, pc, &a, i->off, size,	/* (other frames) */
					     atomic ? NULL : &b);
			if (a.kind == AV_PTR && (a.region == REGION_STACK || self_ptr(&a)) &&
			    !a.maybe_null && a.r.smin >= -1024 && a.r.smax <= 1024) {
				/* (a pointer into this frame or a caller's: these bytes of this
				 * one, besides what absint_cb_note_write noted of the callers') */
				int64_t lo = a.r.smin + i->off, hi = a.r.smax + i->off + size;

				if (a.region == REGION_STACK && !atomic && !cx->opts.unprivileged) {
					if (stack_write_var(s, lo, hi, &b))
						return -ENOMEM;
				} else
					astate__invalidate(s, lo, hi);
				note_stack_write(en, pc, lo, hi);
			} else if (may_be_stack(&a) || a.kind == AV_SCALAR) {
				/* an address we cannot place may be anywhere, the stack included */
				s->n = 0;
				note_stack_write(en, pc, -FP_FRAME, 0);
			}
			/* (the old value: a number, as a load of that memory reads) */
			v = a.kind == AV_PTR && scalar_mem(a.region) ? absint_scalar_bytes(size)
								      : absint_unknown_bytes(size);
			if (atomic && i->imm == BPF_CMPXCHG)
				s->regs[0] = v;
			else if (atomic && (i->imm & BPF_FETCH))
				s->regs[i->src_reg] = v;
			return 0;
		}
		off += i->off;
		if (!atomic || i->imm == BPF_STORE_REL)
			return stack_spill(s, off, size, &b);
		/* (the old value filled, the new one of no known value: stack_spill) */
		old = stack_fill(s, off, size);
		if (i->imm == BPF_CMPXCHG)
			s->regs[0] = old;
		else if (i->imm & BPF_FETCH)
			s->regs[i->src_reg] = old;
		return stack_spill(s, off, size, NULL);
	}
	default:
		if (ebpf_is_call(i)) {
			const struct ebpf_global_func *g;
			bool stack_arg = false, self_arg = false;
			uint16_t args = 0x3e;

			/* (a pointer into this frame or a caller's given to anything but a static
			 * function, which sees it as one into callers' frames: unplaced writes
			 * here; absint_verdict.c refuses the call) */
			for (int r = 1; r <= 5; r++)
				self_arg = self_arg || self_ptr(&s->regs[r]);
			if (ebpf_is_pseudo_call(i) && !absint_global(cx, cx->st.cfg->blocks[
					cx->st.cfg->block_of[pc + 1 + i->imm]].func))
				self_arg = false;

			if (ebpf_is_pseudo_call(i))
				args = cx->args_read[cx->st.cfg->blocks[cx->st.cfg->block_of[pc + 1 + i->imm]].func];
			for (int r = 1; r <= 5; r++)
				stack_arg = stack_arg || ((args >> r & 1) && may_be_stack(&s->regs[r]));
			if (ebpf_is_helper_call(i) && absint_cb_helper(i->imm)) {
				struct stack_span w;

				struct astate keep = { 0 };
				int err;

				/* what the callbacks may write in this frame: forgotten, but for
				 * the values they wrote */
				v = absint_cb_call(en, s, pc, &w);
				stack_arg = false;
				err = absint_cb_kept(cx, s, pc, &w, &keep);
				/* (w is their hull: the bytes themselves, as after a bpf-to-bpf call) */
				if (cx->outer_write)
					call_writes_mask(en, s, pc, &cx->outer_write[cx->st.cfg->blocks[
						cx->st.cfg->block_of[pc]].func].m);
				else
					call_writes(en, s, pc, &w);
				if (!err)
					err = absint_cb_restore(s, &keep);
				astate__free(&keep);
				if (err)
					return err;
			} else if (ebpf_is_helper_call(i)) {
				if (i->imm == BPF_FUNC_timer_set_callback)
					absint_timer_call(cx, s, pc);
				v = helper_result(cx, i->imm, s);
				absint_ref_call(cx, s, pc, &v);
				absint_lock_call(cx, s, pc, &v);
				if (v.kind == AV_PTR && v.maybe_null) {
					v.id = aval_null_id(pc);
					astate__drop_id(s, v.id);
				}
				if (helper_is_pure(i->imm))
					stack_arg = false;
				else if (absint_helper_proto(s, i->imm))
					stack_arg = helper_stack_writes(en, s, pc, i->imm);
				{
					struct stack_span dw;

					/* (a dynptr made or released: its 16 bytes) */
					if (absint_dynptr_call(cx, s, pc, &dw))
						call_writes(en, s, pc, &dw);
					if (absint_dynptr_mark(cx, s, pc))
						return -ENOMEM;
				}
			} else if (ebpf_is_pseudo_call(i) &&
				   (g = absint_global(cx, cx->st.cfg->blocks[cx->st.cfg->block_of[
						pc + 1 + i->imm]].func))) {
				struct stack_span w;

				/* the memory it is given, written (check_mem_reg); called, so
				 * the kernel verifies it */
				v = absint_global_call(cx, s, pc, g, &w);
				/* (what it writes through a pointer into a caller's frame may
				 * reach an iterator there: absint_iter.c) */
				for (int r = 1; r <= 5; r++)
					if (s->regs[r].kind == AV_PTR &&
					    s->regs[r].region == REGION_CALLER_STACK)
						cx->iter_hit_acc = true;
				if (cx->fn_seen_acc)
					cx->fn_seen_acc[cx->st.cfg->blocks[cx->st.cfg->block_of[
						pc + 1 + i->imm]].func] |= 1;
				stack_arg = false;
				call_writes(en, s, pc, &w);
				/* and what writes past a global function's argument may reach
				 * (absint_cb_note_write; the kernel refuses them, the runs not) */
				if (cx->outer_write && (call_effects(cx, pc) & FN_WRITES_OUT))
					call_writes_mask(en, s, pc, &cx->outer_write[cx->st.cfg->blocks[
						cx->st.cfg->block_of[pc]].func].m);
				if (stack_misc(s, w.lo, w.hi))
					return -ENOMEM;
			} else if (ebpf_is_pseudo_call(i)) {
				uint32_t f = cx->st.cfg->blocks[cx->st.cfg->block_of[pc]].func;

				v = call_summary(cx, s, pc, pc + 1 + i->imm);
				absint_lock_call_return(cx, s, pc);
				/* (a result that may be NULL: this call's, as a helper's) */
				if (v.kind == AV_PTR && v.maybe_null) {
					v.id = aval_null_id(pc);
					astate__drop_id(s, v.id);
				}
				/* (the dynptrs of this frame it made or released) */
				absint_dynptr_return(cx, s, pc, cx->st.cfg->blocks[
					cx->st.cfg->block_of[pc + 1 + i->imm]].func);
				/* a function that writes no memory but its own frame, nor anything
				 * it calls, leaves this frame as it is whatever it is given */
				if (!(call_effects(cx, pc) & FN_WRITES_OUT))
					stack_arg = false;
				/* else what the callees may write in this frame through pointers into
				 * it, as for bpf_loop (scev.c checks the last pass against it) */
				if (stack_arg && cx->outer_write) {
					struct astate keep = { 0 };
					int err;

					/* (but for the values they wrote, as a callback's) */
					stack_arg = false;
					err = absint_cb_kept(cx, s, pc, &cx->outer_write[f].s, &keep);
					call_writes_mask(en, s, pc, &cx->outer_write[f].m);
					if (!err)
						err = absint_cb_restore(s, &keep);
					astate__free(&keep);
					if (err)
						return err;
				}
			} else if (i->src_reg == BPF_PSEUDO_KFUNC_CALL && !ebpf_srcbit(i) &&
				   absint_dynptr_kfunc(cx, pc)) {
				struct stack_span w, b;
				int dk = absint_dynptr_kfunc(cx, pc);

				/* (the dynptr it makes; a slice's buffer in this frame, bytes of no
				 * known value after it, as a helper's output; one not placed there:
				 * anywhere, and the verdict refuses it) */
				v = absint_dynptr_kfunc_call(cx, s, pc, dk, &w, &b);
				stack_arg = (dk == DK_SLICE || dk == DK_SLICE_RDWR) &&
					    !stack_span_any(&b) && may_be_stack(&s->regs[3]);
				call_writes(en, s, pc, &w);
				if (absint_dynptr_mark(cx, s, pc))
					return -ENOMEM;
				if (stack_span_any(&b)) {
					call_writes(en, s, pc, &b);
					fpmask_add(&s->sinit, b.lo, b.hi);
					if (stack_misc(s, b.lo, b.hi))
						return -ENOMEM;
				}
			} else if (i->src_reg == BPF_PSEUDO_KFUNC_CALL && !ebpf_srcbit(i)) {
				struct stack_span w;

				v = aval_top();
				bool iter = absint_iter_call(en, s, pc, &v, &w);

				if (iter) {
					/* (its slot, in this frame or a caller's: noted) */
					stack_arg = false;
					call_writes(en, s, pc, &w);
				} else {
					/* (a kfunc given a pointer into a caller's frame may write
					 * there) */
					for (int r = 1; r <= 5; r++)
						if (s->regs[r].kind == AV_PTR &&
						    s->regs[r].region == REGION_CALLER_STACK)
							absint_cb_note_unknown(cx, pc);
				}
				if (!iter && absint_kfunc_plain(cx, pc)) {
					stack_arg = false;
					absint_kfunc_call(cx, pc, &v);
					absint_region_call(cx, s, pc);
				}
				if (!iter && absint_ref_kfunc(cx, pc)) {
					/* (no memory argument: a kernel object or nothing) */
					stack_arg = false;
					absint_ref_call(cx, s, pc, &v);
					/* (a result not NULL too: its site's id, absint_ref_keep_id) */
					if (v.kind == AV_PTR &&
					    (v.maybe_null || v.region == REGION_KREF)) {
						v.id = aval_null_id(pc);
						astate__drop_id(s, v.id);
					}
				}
			} else {
				v = aval_top();
			}
			if (stack_arg || self_arg) {
				s->n = 0;
				note_stack_write(en, pc, -FP_FRAME, 0);
				/* an unmodeled helper may write any frame it is given: a caller's
				 * when an argument may point into one (numbers are numbers, and a
				 * pointer into this frame is this frame's) */
				if (ebpf_is_helper_call(i) && callers_frame_arg(s))
					absint_cb_note_unknown(cx, pc);
			}
			if (ebpf_is_helper_call(i) && helper_effects(cx, s, i->imm))
				return -ENOMEM;
			/* bpf_dynptr_write to an skb dynptr (which a kfunc makes) changes packet
			 * data (check_helper_call: changes_data) */
			if (ebpf_is_helper_call(i) && i->imm == BPF_FUNC_dynptr_write &&
			    cx->kfunc_other)
				absint_pkt_moved(s);
			/* a function or a bpf_loop callback that may move the packet moves it for
			 * this frame too (the kernel clears packet pointers in every frame) */
			if ((ebpf_is_pseudo_call(i) ||
			     (ebpf_is_helper_call(i) && absint_cb_helper(i->imm))) &&
			    call_moves_pkt(cx, pc))
				absint_pkt_moved(s);
			s->regs[0] = v;
			for (int r = 1; r <= 5; r++)
				s->regs[r] = aval_top();
		}
		return 0;
	}
}
