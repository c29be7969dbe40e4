/* The safety verdict of the range analysis (scev_verify): every reachable block replayed from
 * its fixpoint state with the kernel's checks — memory accesses within their region (stack,
 * map value, packet proven below data_end, context per program type) and aligned where the
 * kernel wants it (the stack, atomics: verify_alignment), registers and stack bytes
 * written before they are read, supported helpers and their arguments — and every loop that can
 * run bounded.  The first failure is the verdict.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "scev/absint.h"

#include "bpf/helper_proto.h"

#define VFAIL(kind_, pc_, ...)                                                                   \
	do {                                                                                      \
		verdict_fail(v, (kind_), (pc_), __VA_ARGS__);                                    \
		return;                                                                           \
	} while (0)

void verdict_fail(struct scev_verdict *v, uint8_t kind, uint32_t pc, const char *fmt, ...)
{
	if (v->kind != VERDICT_SAFE)
		return;
	v->kind = kind;
	v->pc = pc;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->reason, sizeof(v->reason), fmt, ap);
	va_end(ap);
}

static bool skb_field_writable(int64_t off, unsigned size)
{
	switch (off) {
	case offsetof(struct __sk_buff, mark): case offsetof(struct __sk_buff, queue_mapping):
	case offsetof(struct __sk_buff, priority): case offsetof(struct __sk_buff, tc_index):
	case offsetof(struct __sk_buff, tc_classid):
		return size == 4;
	case offsetof(struct __sk_buff, tstamp):
		return size == 8;
	default:	/* (cb[] at any size: bpf_skb_is_valid_access; aligned, checked by the caller) */
		return off >= (int64_t)offsetof(struct __sk_buff, cb) &&
		       off + size <= offsetof(struct __sk_buff, cb) + 5 * 4;
	}
}

/* Whether a load of size bytes at off of __sk_buff has the size the kernel's
 * bpf_skb_is_valid_access demands of that field: u32 fields read whole or narrower (the cb[]
 * words at any aligned size within cb), the packet pointers and addresses as whole u32s,
 * tstamp, hwtstamp and sk as whole u64s, flow_keys and tstamp_type not at all. */
static bool skb_field_readable(int64_t off, unsigned size)
{
#define SKB_IN(f, n) (off >= (int64_t)offsetof(struct __sk_buff, f) &&                          \
		      off < (int64_t)offsetof(struct __sk_buff, f) + (n))
	if (SKB_IN(cb, 20))
		return off + size <= offsetof(struct __sk_buff, cb) + 20;
	if (SKB_IN(tstamp, 8) || SKB_IN(hwtstamp, 8) || SKB_IN(sk, 8))
		return size == 8 && (off == (int64_t)offsetof(struct __sk_buff, tstamp) ||
				     off == (int64_t)offsetof(struct __sk_buff, hwtstamp) ||
				     off == (int64_t)offsetof(struct __sk_buff, sk));
	if (SKB_IN(flow_keys, 8) || SKB_IN(tstamp_type, 4))
		return false;
	if (SKB_IN(data, 4) || SKB_IN(data_end, 4) || SKB_IN(data_meta, 4) ||
	    SKB_IN(remote_ip4, 4) || SKB_IN(local_ip4, 4) || SKB_IN(remote_ip6, 16) ||
	    SKB_IN(local_ip6, 16))
		return size == 4;
	return size <= 4;
#undef SKB_IN
}

/* Whether a program of this skb type may write its packet directly (the kernel's
 * may_access_direct_pkt_data for BPF_WRITE): tc, lwt_xmit and sk_skb may; the other types with
 * direct packet access (lwt_in, lwt_out, lwt_seg6local, cgroup_skb, sk_reuseport,
 * flow_dissector) only read.  The packet-moving helpers kill every packet pointer
 * (HF_CHANGES_PKT), so a write after one needs a new check against data_end as in the kernel. */
static bool skb_pkt_writable(uint32_t type)
{
	return type == BPF_PROG_TYPE_SCHED_CLS || type == BPF_PROG_TYPE_SCHED_ACT ||
	       type == BPF_PROG_TYPE_LWT_XMIT || type == BPF_PROG_TYPE_SK_SKB;
}

/* (pc: the instruction of an access of the function's own frame, whose bpf_fastcall spills
 * and fills count apart: fastcall.c; UINT32_MAX for any other) */
static void frame_depth_at(struct scev_ctx *cx, uint32_t f, __int128 lo, uint32_t pc)
{
	uint32_t d;

	if (!cx->fn_stack || lo >= 0 || lo < -EBPF_STACK_SIZE || f >= cx->st.cfg->nfuncs)
		return;
	d = ((uint32_t)-lo + 7) & ~7u;
	if (d > cx->fn_stack[f])
		cx->fn_stack[f] = d;
	if (cx->fn_stack_np && !(pc < cx->len && cx->fc_pat && cx->fc_pat[pc]) &&
	    d > cx->fn_stack_np[f])
		cx->fn_stack_np[f] = d;
}

void absint_frame_depth(struct scev_ctx *cx, uint32_t f, __int128 lo)
{
	frame_depth_at(cx, f, lo, UINT32_MAX);
}

/* An access of [lo, hi) of this function's own frame. */
static void verify_own_stack(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			     uint32_t pc, __int128 lo, __int128 hi, bool write)
{
	/* (lo >= 0 matters only to a helper's zero-sized access: check_stack_slot_within_bounds
	 * refuses min_off > -1 whatever the size) */
	if (lo < -EBPF_STACK_SIZE || lo >= 0 || hi > 0)
		VFAIL(VERDICT_UNSAFE, pc, "stack access [%lld, %lld) outside [-512, 0)",
		      absint_ll_sat(lo), absint_ll_sat(hi));
	/* a zero-sized read's offset is bounded by the stack allocated so far without
	 * CAP_PERFMON (check_stack_slot_within_bounds: min_off >= -allocated_stack, the deepest
	 * access of the path): some byte at or below it must be written on every path */
	if (!write && cx->opts.unprivileged && lo == hi &&
	    !fpmask_any(&s->sinit, -EBPF_STACK_SIZE, (int64_t)lo + 1))
		VFAIL(VERDICT_UNSAFE, pc, "zero-sized read at stack offset %lld, below every byte "
		      "written on every path (the unprivileged kernel: invalid read from stack)",
		      absint_ll_sat(lo));
	/* the frame's depth, for the combined stack of call chains (calls.c) */
	frame_depth_at(cx, cx->st.cfg->blocks[cx->st.cfg->block_of[pc]].func, lo, pc);
	if (absint_iter_verify_stack(cx, v, s, pc, lo, hi) ||
	    absint_dynptr_verify_stack(cx, v, s, pc, lo, hi, write))
		return;
	if (!write && cx->opts.unprivileged && !fpmask_all(&s->sinit, (int64_t)lo, (int64_t)hi))
		VFAIL(VERDICT_UNSAFE, pc, "read of stack bytes [%lld, %lld) not written on every "
		      "path", absint_ll_sat(lo), absint_ll_sat(hi));
}

/* check_ptr_alignment as this machine's kernel applies it (x86: efficient unaligned access, and
 * the loaders here never set BPF_F_STRICT_ALIGNMENT): a stack access of 2 bytes or more must be
 * aligned to its size whatever the flags (the stack's spill tracking needs it), and so must the
 * access of every atomic instruction, into any region (check_atomic's strict_alignment_once:
 * read-modify-write, load-acquire, store-release); other accesses (map values, packets, memory
 * a helper or kfunc gave) may be misaligned, and the context's fields are each type's
 * is_valid_access (verify_access).  What must be aligned is the whole offset, the pointer's and
 * the instruction's: a variable one only when its known low bits prove it (the kernel's
 * tnum_is_aligned), so {-16, -8} is 8-byte aligned and {-16, -12} is not, although both lie
 * in the frame.  *t gets the offset as known. */
static bool access_aligned(const struct aval *a, int16_t off, unsigned size, struct tnum *t)
{
	*t = range_is_const(&a->r) ? tnum_const(a->r.umin + (uint64_t)(int64_t)off)
				   : tnum_add(a->r.var_off, tnum_const((uint64_t)(int64_t)off));
	return size <= 1 || !((t->value | t->mask) & (size - 1));
}

/* The kernel's words for what it knows of an offset: the constant, or "(value; mask)". */
static const char *tnum_words(char *buf, size_t n, struct tnum t)
{
	if (!t.mask)
		snprintf(buf, n, "%lld", (long long)t.value);
	else
		snprintf(buf, n, "(%#llx; %#llx)", (unsigned long long)t.value,
			 (unsigned long long)t.mask);
	return buf;
}

/* Whether the kernel's alignment rule (access_aligned above) refuses this access: stack
 * pointers always, every pointer for an atomic instruction (packets and the context are
 * refused before, verify_insn). */
static void verify_alignment(struct scev_verdict *v, const struct aval *a, uint32_t pc,
			     int16_t off, unsigned size, bool atomic)
{
	bool stack = a->region == REGION_STACK || a->region == REGION_CALLER_STACK;
	struct tnum t;
	char buf[48];

	if ((!stack && !atomic) || access_aligned(a, off, size, &t))
		return;
	verdict_fail(v, VERDICT_UNSAFE, pc, "misaligned %saccess off %s size %u (%s)",
		     stack ? "stack " : a->region == REGION_MAP_VALUE ? "value " : "",
		     tnum_words(buf, sizeof(buf), t), size,
		     stack ? "the kernel refuses every stack access not aligned to its size"
			   : "an atomic instruction's access must be aligned to its size");
}

/* Whether off is one of the context's packet pointer fields of 4 bytes (data, data_end,
 * data_meta of xdp_md or __sk_buff). */
static bool ctx_pkt_field(enum ebpf_ctx_model m, int64_t off)
{
	if (m == EBPF_CTX_XDP)
		return off == offsetof(struct xdp_md, data) ||
		       off == offsetof(struct xdp_md, data_end) ||
		       off == offsetof(struct xdp_md, data_meta);
	return m == EBPF_CTX_SKB && (off == offsetof(struct __sk_buff, data) ||
				     off == offsetof(struct __sk_buff, data_end) ||
				     off == offsetof(struct __sk_buff, data_meta));
}

/* Checks one memory access of size bytes at regs[reg] + off. */
/* A load or store through a map pointer (check_ptr_to_map_access): the kernel reads the struct
 * of the map's type (struct bpf_array, bpf_htab, ...: ebpf_map_btf_struct) by the running
 * kernel's BTF, for a privileged loader only, read only, at offsets from 0, as btf_struct_access
 * walks a PTR_TO_BTF_ID of that struct (this 6.18's struct bpf_map starts with a u8 sha[32], so
 * verifier_map_ptr.c's "read non-existent field", 4 bytes at 1, reads a byte array and is
 * accepted).  The load is the field's: a number, or a pointer to a struct (absint_transfer.c).
 * A read outside the struct, across a member's end or of part of a pointer member the kernel
 * refuses; what ebpf_btf_obj_access does not model (bitfields, holes, other member kinds), and a
 * map type not listed, are unsupported. */
static void verify_map_ptr_access(struct scev_ctx *cx, struct scev_verdict *v,
				  const struct aval *a, uint32_t pc, unsigned reg, __int128 lo,
				  __int128 hi, bool write)
{
	static const char *const refused[] = { "past the end of the struct",
					       "across the end of a member",
					       "a pointer member read in part" };
	const char *name = a->map < cx->nmaps ? cx->maps[a->map].name : "?";
	const char *sname = a->map < cx->nmaps ? ebpf_map_btf_struct(cx->maps[a->map].type) : NULL;
	int32_t id = sname ? ebpf_btf_struct_by_name(sname) : 0, next;
	const char *why;

	if (cx->opts.unprivileged)
		VFAIL(VERDICT_UNSAFE, pc, "R%u: access through map pointer '%s' is allowed only to "
		      "CAP_PERFMON and CAP_SYS_ADMIN", reg, name);
	if (!sname)
		VFAIL(VERDICT_UNSUPPORTED, pc, "R%u reads the kernel's struct of map '%s', of a type "
		      "whose struct is not modeled (check_ptr_to_map_access)", reg, name);
	if (id <= 0)
		VFAIL(VERDICT_UNSUPPORTED, pc, "R%u reads the kernel's struct %s of map '%s': not in "
		      "the running kernel's BTF", reg, sname, name);
	if (lo < 0)
		VFAIL(VERDICT_UNSAFE, pc, "R%u is %s invalid negative access: off=%lld (map pointer "
		      "'%s')", reg, sname, absint_ll_sat(lo), name);
	if (write)
		VFAIL(VERDICT_UNSAFE, pc, "only read from %s is supported (a store through R%u, map "
		      "pointer '%s')", sname, reg, name);
	if (!range_is_const(&a->r))
		VFAIL(VERDICT_UNSUPPORTED, pc, "R%u reads struct %s of map '%s' at a variable offset",
		      reg, sname, name);
	why = ebpf_btf_obj_access(id, (int64_t)lo, (unsigned)(hi - lo), &next);
	if (!why)
		return;
	for (size_t k = 0; k < sizeof(refused) / sizeof(refused[0]); k++)
		if (!strcmp(why, refused[k]))
			VFAIL(VERDICT_UNSAFE, pc, "R%u reads [%lld, %lld) of struct %s of map '%s': %s "
			      "(btf_struct_access refuses it)", reg, absint_ll_sat(lo),
			      absint_ll_sat(hi), sname, name, why);
	VFAIL(VERDICT_UNSUPPORTED, pc, "R%u reads [%lld, %lld) of struct %s of map '%s': %s (not "
	      "modeled)", reg, absint_ll_sat(lo), absint_ll_sat(hi), sname, name, why);
}

static const char *ptr_type_name(const struct aval *a);

static void verify_access(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			  uint32_t pc, unsigned reg, int16_t off, unsigned size, bool write)
{
	const struct aval *a = &s->regs[reg];
	__int128 lo, hi;

	v->checks++;
	if (a->kind != AV_PTR)
		VFAIL(VERDICT_UNSAFE, pc, "R%u is not a known pointer (%s access of %u bytes)", reg,
		      write ? "write" : "read", size);
	if (a->maybe_null)
		VFAIL(VERDICT_UNSAFE, pc, "R%u may be NULL (%s not checked)", reg,
		      a->region == REGION_GMEM ? "a global function's pointer argument"
		      : a->region == REGION_DYNPTR_MEM ? "bpf_dynptr_data's result"
		      : a->region == REGION_BTF
			? "a kernel object: a helper's, an iterator's target, a kptr"
		      : a->region == REGION_KREF ? "an acquiring kfunc's result (ptr_or_null_)"
		      : a->region == REGION_ITER_VAL ? "bpf_iter_num_next's result"
		      : a->region == REGION_SOCK
			? "a socket of skb->sk, a lookup or a cast, the kernel's sock_or_null,"
		      : "map lookup");
	lo = (__int128)a->r.smin + off;
	hi = (__int128)a->r.smax + off + size;
	/* (a load's or a store's: a helper's or a global function's memory is the callee's to
	 * read as it reads it) */
	if (ebpf_class(&cx->insns[pc]) == BPF_LDX || ebpf_class(&cx->insns[pc]) == BPF_ST ||
	    ebpf_class(&cx->insns[pc]) == BPF_STX) {
		verify_alignment(v, a, pc, off, size, ebpf_mode(&cx->insns[pc]) == BPF_ATOMIC);
		if (v->kind != VERDICT_SAFE)
			return;
		if (a->region == REGION_MAP_HANDLE) {
			verify_map_ptr_access(cx, v, a, pc, reg, lo, hi, write);
			return;
		}
	}
	switch (a->region) {
	case REGION_STACK:
		verify_own_stack(cx, v, s, pc, lo, hi, write);
		return;
	case REGION_MAP_VALUE: {
		uint32_t vs = a->map < cx->nmaps ? cx->maps[a->map].value_size : 0;

		if (lo < 0 || hi > vs)
			VFAIL(VERDICT_UNSAFE, pc, "map value access [%lld, %lld) outside [0, %u)",
			      absint_ll_sat(lo), absint_ll_sat(hi), vs);
		/* the kernel's check_map_access_type: a load, an atomic's read, a helper's read
		 * (any size, 0 too) of a BPF_F_WRONLY_PROG map's value */
		if (!write && a->map < cx->nmaps && (cx->maps[a->map].flags & BPF_F_WRONLY_PROG))
			VFAIL(VERDICT_UNSAFE, pc, "read from the write-only map '%s' "
			      "(BPF_F_WRONLY_PROG)", cx->maps[a->map].name);
		/* check_map_access: no load, store or helper touches a special field */
		if (absint_timer_overlaps(cx, a->map, lo, hi))
			VFAIL(VERDICT_UNSAFE, pc, "bpf_timer cannot be accessed directly by load/store "
			      "([%lld, %lld) of a value of map '%s', whose struct bpf_timer is at %u)",
			      absint_ll_sat(lo), absint_ll_sat(hi), cx->maps[a->map].name,
			      cx->maps[a->map].timer - 1);
		if (absint_fields_verify(cx, v, s, pc, a, lo, hi, size))
			return;
		/* .rodata, .kconfig: the kernel's check_map_access_type */
		if (write && a->map < cx->nmaps && (cx->maps[a->map].flags & BPF_F_RDONLY_PROG))
			VFAIL(VERDICT_UNSAFE, pc, "write into the read-only map '%s'",
			      cx->maps[a->map].name);
		return;
	}
	case REGION_PKT:
		/* (sk_reuseport only reads its packet; sk_msg writes its message) */
		if (write && ((cx->ctx_model == EBPF_CTX_SKB && !skb_pkt_writable(cx->prog_type)) ||
			      (cx->ctx_model == EBPF_CTX_RO && cx->prog_type != BPF_PROG_TYPE_SK_MSG)))
			VFAIL(VERDICT_UNSAFE, pc, "cannot write into packet (a program of this type "
			      "may only read it)");
		/* below data_end (aval.h): through a pointer with a variable part, one never negative
		 * (check_packet_access: 'min value is negative'), within what a comparison of a
		 * holder of its id proved of its base, as the kernel resets a packet pointer's range
		 * at pkt += var, and the fixed offset c + off not below 0 (__check_mem_access);
		 * without, that or every byte before pkt_min or what data itself has */
		if (a->id == AVAL_PKT_NEG)
			VFAIL(VERDICT_UNSAFE, pc, "packet access [%lld, %lld) through a pointer whose "
			      "variable offset may be negative (the kernel: min value is negative)",
			      absint_ll_sat(lo), absint_ll_sat(hi));
		if (lo >= 0 && a->id && aval_pkt_c(a) + off >= 0 &&
		    (__int128)aval_pkt_c(a) + off + size <= astate__pkt_range_here(s, a->id))
			return;
		if (!aval_pkt_novar(a))
			VFAIL(VERDICT_UNSAFE, pc, "packet access [%lld, %lld) not proven below data_end "
			      "through a pointer with a variable offset (%u bytes checked past its base: "
			      "the kernel's range of its id)", absint_ll_sat(lo), absint_ll_sat(hi),
			      astate__pkt_range_here(s, a->id));
		if (lo < 0 || (hi > (__int128)s->pkt_min &&
			       hi > (__int128)astate__pkt_range_here(s, 0)))
			VFAIL(VERDICT_UNSAFE, pc, "packet access [%lld, %lld) not proven below data_end "
			      "(%llu bytes checked)", absint_ll_sat(lo), absint_ll_sat(hi),
			      (unsigned long long)s->pkt_min);
		return;
	case REGION_PKT_META:
		/* below data: what a comparison of data_meta + x with data proved; of the skb
		 * programs only tc's may use data_meta (the others' is_valid_access refuse it) */
		if (cx->ctx_model == EBPF_CTX_SKB && cx->prog_type != BPF_PROG_TYPE_SCHED_CLS &&
		    cx->prog_type != BPF_PROG_TYPE_SCHED_ACT)
			VFAIL(VERDICT_UNSAFE, pc, "packet metadata of a program type that has none");
		if (write && cx->ctx_model == EBPF_CTX_SKB && !skb_pkt_writable(cx->prog_type))
			VFAIL(VERDICT_UNSAFE, pc, "cannot write into packet (a program of this type "
			      "may only read it)");
		/* (a variable offset: the kernel gives the pointer a fresh id of range 0, which
		 * only a comparison of that pointer widens; bpfscev keeps no ids of data_meta) */
		if (!range_is_const(&a->r))
			VFAIL(VERDICT_UNSAFE, pc, "packet metadata access [%lld, %lld) through a "
			      "pointer with a variable offset (the kernel: its id's range, 0 here)",
			      absint_ll_sat(lo), absint_ll_sat(hi));
		if (lo < 0 || hi > (__int128)astate__pkt_range_here(s, PKT_META_ID))
			VFAIL(VERDICT_UNSAFE, pc, "packet metadata access [%lld, %lld) not proven below "
			      "data (%u bytes checked)", absint_ll_sat(lo), absint_ll_sat(hi),
			      astate__pkt_range_here(s, PKT_META_ID));
		return;
	case REGION_CTX:
		if (lo != hi - size)
			VFAIL(VERDICT_UNSAFE, pc, "context access at a variable offset");
		/* check_ptr_off_reg: the kernel rewrites a context access by the instruction's offset
		 * alone, so the register must hold the context's start */
		if (a->r.smin != 0)
			VFAIL(VERDICT_UNSAFE, pc, "dereference of modified ctx ptr R%u off=%lld "
			      "disallowed", reg, (long long)a->r.smin);
		/* xdp_is_valid_access, bpf_skb_is_valid_access, flow_dissector_is_valid_access: no
		 * sign-extending load (BPF_MEMSX) of a packet pointer field, whose value it would
		 * not be */
		if (ebpf_class(&cx->insns[pc]) == BPF_LDX && ebpf_mode(&cx->insns[pc]) == BPF_MEMSX &&
		    ctx_pkt_field(cx->ctx_model, (int64_t)lo))
			VFAIL(VERDICT_UNSAFE, pc, "invalid bpf_context access off=%lld size=%u: a "
			      "sign-extending load of a packet pointer field", absint_ll_sat(lo), size);
		if (cx->ctx_model == EBPF_CTX_XDP) {
			if (write || size != 4 || lo < 0 || hi > (__int128)sizeof(struct xdp_md) || lo % 4)
				VFAIL(VERDICT_UNSAFE, pc, "invalid xdp_md access (%s %u bytes at %lld)",
				      write ? "write" : "read", size, absint_ll_sat(lo));
			/* xdp_is_valid_access: egress_ifindex is a devmap program's only (the
			 * BPF_XDP_DEVMAP attach type, which nothing here loads with) */
			if (lo == offsetof(struct xdp_md, egress_ifindex)) {
				if (cx->prog && strstr(cx->prog->section, "devmap"))
					VFAIL(VERDICT_UNSUPPORTED, pc, "egress_ifindex of a devmap XDP "
					      "program (its attach type is not modeled)");
				VFAIL(VERDICT_UNSAFE, pc, "invalid xdp_md access (read 4 bytes at %lld): "
				      "egress_ifindex is a devmap program's only", absint_ll_sat(lo));
			}
			return;
		}
		if (cx->ctx_model == EBPF_CTX_SKB) {
			/* (tc_cls_act_is_valid_access: tc reads tstamp_type as a u8) */
			bool tstamp_type = (cx->prog_type == BPF_PROG_TYPE_SCHED_CLS ||
					    cx->prog_type == BPF_PROG_TYPE_SCHED_ACT) && !write &&
					   lo == offsetof(struct __sk_buff, tstamp_type) && size == 1;
			const char *why;

			if (lo < 0 || hi > (__int128)sizeof(struct __sk_buff) || lo % size ||
			    (write && !skb_field_writable((int64_t)lo, size)) ||
			    (!write && !tstamp_type && !skb_field_readable((int64_t)lo, size)))
				VFAIL(VERDICT_UNSAFE, pc, "invalid __sk_buff access (%s %u bytes at %lld)",
				      write ? "write" : "read", size, absint_ll_sat(lo));
			why = ebpf_skb_field_refused(cx->prog_type, (int64_t)lo, write);
			if (why)
				VFAIL(VERDICT_UNSAFE, pc, "invalid __sk_buff access (%s %u bytes at %lld): "
				      "%s", write ? "write" : "read", size, absint_ll_sat(lo), why);
			return;
		}
		if (cx->ctx_model == EBPF_CTX_RO) {
			const struct ebpf_btf_ctx *bc = &cx->prog->btf_ctx;
			const char *why;

			if (ebpf_prog_type_btf_ctx(cx->prog_type) && !bc->attach_btf_id)
				VFAIL(VERDICT_UNSUPPORTED, pc, "%s", bc->why[0] ? bc->why
				      : "BTF context of a program without a section naming its target");
			why = write ? ebpf_ctx_ro_write(cx->prog_type, (int64_t)lo, size)
			      : ebpf_prog_type_btf_ctx(cx->prog_type)
				? ebpf_btf_ctx_access(bc, (int64_t)lo, size)
				: ebpf_ctx_ro_access(cx->prog_type, (int64_t)lo, size);

			if (why)
				VFAIL(VERDICT_UNSAFE, pc, "invalid context access (%s %u bytes at %lld): %s",
				      write ? "write" : "read", size, absint_ll_sat(lo), why);
			return;
		}
		VFAIL(VERDICT_UNSUPPORTED, pc, "context of this program type (a plain buffer of "
		      "unknown size)");
	case REGION_CALLER_STACK:
		/* (a pointer into this frame or a caller's: each frame's rules, this one's from
		 * its own lowest offset) */
		if (aval_caller_self(a->map)) {
			verify_own_stack(cx, v, s, pc,
					 (__int128)aval_caller_lo(a, CALLER_SELF_IX) + off, hi, write);
			if (v->kind != VERDICT_SAFE)
				return;
		}
		absint_cb_verify_access(cx, v, s, a, pc, lo, hi, write);
		return;
	case REGION_KREF:	/* (an acquired one: held, then as any) */
		absint_ref_verify_kref(cx, v, s, a, pc);
		if (v->kind != VERDICT_SAFE)
			return;
		/* fall through */
	case REGION_BTF: {
		/* check_ptr_to_btf_access: reads only, at a constant offset, as btf_struct_walk
		 * allows them (a PROBE_MEM load: no fault, NULL included) */
		int32_t next, id = a->region == REGION_KREF
					   ? (a->map < cx->nref_sites ? cx->ref_sites[a->map].btf : 0)
					   : (a->map < cx->nbtf_types ? cx->btf_types[a->map] : 0);
		const char *why;

		if (write)
			VFAIL(VERDICT_UNSAFE, pc, "R%u is a kernel object (PTR_TO_BTF_ID): only read "
			      "is supported", reg);
		if (lo != hi - size)
			VFAIL(VERDICT_UNSAFE, pc, "R%u is a kernel object (PTR_TO_BTF_ID) at a variable "
			      "offset", reg);
		why = id ? ebpf_btf_obj_access(id, (int64_t)lo, size, &next) : "an unknown type";
		if (why)
			VFAIL(VERDICT_UNSAFE, pc, "kernel object access (%u bytes at %lld of R%u): %s",
			      size, absint_ll_sat(lo), reg, why);
		return;
	}
	case REGION_MAP_KEY: {
		/* PTR_TO_MAP_KEY: read-only, key_size bytes (check_mem_access) */
		uint32_t ks = a->map < cx->nmaps ? cx->maps[a->map].key_size : 0;

		if (write)
			VFAIL(VERDICT_UNSAFE, pc, "write to change key R%u not allowed (the key a "
			      "bpf_for_each_map_elem callback is given)", reg);
		if (lo < 0 || hi > ks)
			VFAIL(VERDICT_UNSAFE, pc, "map key access [%lld, %lld) outside [0, %u)",
			      absint_ll_sat(lo), absint_ll_sat(hi), ks);
		return;
	}
	case REGION_DYNPTR:
		VFAIL(VERDICT_UNSAFE, pc, "R%u invalid mem access 'dynptr_ptr' (the dynptr a "
		      "bpf_user_ringbuf_drain callback is given: only the dynptr helpers take it)", reg);
	case REGION_GMEM:
		/* a global function's pointer argument: PTR_TO_MEM of its BTF type's size */
		if (lo < 0 || hi > a->map)
			VFAIL(VERDICT_UNSAFE, pc, "access [%lld, %lld) outside the %u bytes of a global "
			      "function's argument (its BTF type's size)", absint_ll_sat(lo),
			      absint_ll_sat(hi), a->map);
		return;
	case REGION_DYNPTR_MEM:
		/* bpf_dynptr_data's or a slice's PTR_TO_MEM of its constant size
		 * (check_mem_region_access); bpf_dynptr_slice's MEM_RDONLY */
		if (write && (a->map & DYNPTR_MEM_RO))
			VFAIL(VERDICT_UNSAFE, pc, "R%u cannot write into rdonly_mem (the bytes "
			      "bpf_dynptr_slice returned)", reg);
		if (lo < 0 || hi > (a->map & DYNPTR_MEM_MAX))
			VFAIL(VERDICT_UNSAFE, pc, "R%u invalid access to memory, mem_size=%u: [%lld, "
			      "%lld) (the bytes bpf_dynptr_data or a slice returned)", reg,
			      a->map & DYNPTR_MEM_MAX, absint_ll_sat(lo), absint_ll_sat(hi));
		return;
	case REGION_RINGBUF:
		absint_ref_verify_access(cx, v, s, a, pc, lo, hi);
		return;
	case REGION_SOCK: {
		/* check_mem_access's sockets: loads only, at the offsets and sizes check_sock_access
		 * allows per kind (no arithmetic: the pointer's offset is 0); a lookup's held */
		uint8_t cls = ebpf_class(&cx->insns[pc]);
		const char *why;

		if (cls != BPF_LDX && cls != BPF_ST && cls != BPF_STX)
			VFAIL(VERDICT_UNSAFE, pc, "R%u type=%s is no helper's memory", reg,
			      ptr_type_name(a));
		absint_ref_verify_sock(cx, v, s, a, pc);
		if (v->kind != VERDICT_SAFE)
			return;
		if (write)
			VFAIL(VERDICT_UNSAFE, pc, "R%u cannot write into %s", reg, ptr_type_name(a));
		if (cls == BPF_LDX && ebpf_mode(&cx->insns[pc]) != BPF_MEM)
			VFAIL(VERDICT_UNSUPPORTED, pc, "a sign-extending load from a socket (%s) is not "
			      "modeled", ptr_type_name(a));
		if (lo != hi - size)
			VFAIL(VERDICT_UNSUPPORTED, pc, "R%u is a socket at a variable offset",
			      reg);
		if ((why = ebpf_sock_access(aval_sock_kind(a), (int64_t)lo, size)))
			VFAIL(VERDICT_UNSAFE, pc, "R%u invalid %s access off=%lld size=%u: %s", reg,
			      ptr_type_name(a), absint_ll_sat(lo), size, why);
		return;
	}

	case REGION_ITER_VAL:
		/* bpf_iter_num_next's int *: PTR_TO_MEM | MEM_RDONLY of 4 bytes */
		if (write)
			VFAIL(VERDICT_UNSAFE, pc, "R%u cannot write into rdonly_mem (the int "
			      "bpf_iter_num_next points to)", reg);
		if (lo < 0 || hi > 4)
			VFAIL(VERDICT_UNSAFE, pc, "access [%lld, %lld) outside the 4 bytes "
			      "bpf_iter_num_next points to", absint_ll_sat(lo), absint_ll_sat(hi));
		return;
	default:
		VFAIL(VERDICT_UNSAFE, pc, "R%u points to %s, which cannot be accessed", reg,
		      claim_region_name(a->region));
	}
}

/* check_stack_range_initialized without allow_ptr_leaks (a loader without CAP_PERFMON): a helper
 * or a global function may read stack bytes only where they hold numbers, never a byte of a
 * spilled pointer ("invalid indirect read from stack"; a pointer would leak through the
 * helper).  r[reg] points to size bytes the callee reads (its memory is in bounds: verify_access
 * has checked it); a byte no cell places may hold a pointer, unsupported, when a store of a
 * pointer reached its slot in some pass (absint_spill_may). */
static void verify_unpriv_mem_read(struct scev_ctx *cx, struct scev_verdict *v,
				   const struct astate *s, uint32_t pc, unsigned reg, uint64_t size,
				   const char *name)
{
	const struct aval *a = &s->regs[reg];
	uint32_t f = cx->st.cfg->blocks[cx->st.cfg->block_of[pc]].func;
	enum nums_over k;
	__int128 lo, hi;

	if (!cx->opts.unprivileged || a->kind != AV_PTR || !size ||
	    (a->region != REGION_STACK && a->region != REGION_CALLER_STACK))
		return;
	lo = a->r.smin;
	hi = (__int128)a->r.smax + size;
	if (a->region == REGION_STACK) {
		k = astate__nums_over(s, (int64_t)lo, (int64_t)hi);
		if (k == NUMS_MAYBE && !absint_spill_may(cx, f, lo, hi))
			k = NUMS_ALL;	/* (no store of a pointer reached those slots) */
	} else {
		k = absint_cb_nums_over(cx, a, lo, hi);
		if (aval_caller_self(a->map)) {
			__int128 slo = aval_caller_lo(a, CALLER_SELF_IX);
			enum nums_over ks = astate__nums_over(s, (int64_t)slo, (int64_t)hi);

			if (ks == NUMS_MAYBE && !absint_spill_may(cx, f, slo, hi))
				ks = NUMS_ALL;
			k = ks > k ? ks : k;
		}
	}
	if (k == NUMS_PTR)
		VFAIL(VERDICT_UNSAFE, pc, "R%u of %s: stack bytes [%lld, %lld) hold a spilled "
		      "pointer, which the unprivileged kernel does not let a helper read (invalid "
		      "indirect read from stack: a pointer leak)", reg, name, absint_ll_sat(lo),
		      absint_ll_sat(hi));
	if (k == NUMS_MAYBE)
		VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s: stack bytes [%lld, %lld) may hold a "
		      "spilled pointer, which the unprivileged kernel does not let a helper read",
		      reg, name, absint_ll_sat(lo), absint_ll_sat(hi));
}

/* A memory argument (r[reg]) of size r[reg + 1], as check_helper_mem_access and
 * check_mem_size_reg decide: a pointer into the stack, a map value or the packet, the size a
 * bounded scalar (not zero unless allowed), every byte inside the region, and readable bytes
 * initialized. */
static void verify_mem_arg(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			   uint32_t pc, const char *name, unsigned reg, enum ebpf_harg kind,
			   enum ebpf_harg size_kind)
{
	const struct aval *a = &s->regs[reg], *n = &s->regs[reg + 1];
	uint64_t zero;

	if (n->kind != AV_SCALAR)
		VFAIL(VERDICT_UNSAFE, pc, "R%u (size of %s's R%u) is not a known scalar", reg + 1,
		      name, reg);
	if ((kind == HARG_MEM_OR_NULL || kind == HARG_MEM_RW_OR_NULL) && aval_is_const(a, &zero) &&
	    zero == 0) {
		if (n->r.umax != 0)
			VFAIL(VERDICT_UNSAFE, pc, "R%u of %s is NULL with a size that may not be 0",
			      reg, name);
		return;
	}
	if (n->r.umin == 0 && size_kind != HARG_SIZE_OR_ZERO)
		VFAIL(VERDICT_UNSAFE, pc, "R%u of %s: invalid zero-sized access (size in [%llu, %llu])",
		      reg + 1, name, (unsigned long long)n->r.umin, (unsigned long long)n->r.umax);
	if (n->r.umax >= (1ull << 29))
		VFAIL(VERDICT_UNSAFE, pc, "R%u of %s: unbounded memory access (size up to %llu)",
		      reg + 1, name, (unsigned long long)n->r.umax);
	if (a->kind == AV_PTR && a->region == REGION_CTX)
		VFAIL(VERDICT_UNSAFE, pc, "R%u of %s points to the context, not to memory", reg, name);
	/* nothing accessed, but it must still point to memory, and within it: the kernel checks
	 * a zero-sized access's bounds as any other's (check_stack_access_within_bounds: min_off
	 * >= -512, max_off <= 0; check_mem_region_access; check_packet_access), and a helper's
	 * write into a read-only map whatever its size (check_map_access_type) */
	if (n->r.umax == 0 &&
	    (a->kind != AV_PTR || a->maybe_null ||
	     (a->region != REGION_STACK && a->region != REGION_MAP_VALUE &&
	      a->region != REGION_PKT && a->region != REGION_RINGBUF &&
	      a->region != REGION_DYNPTR_MEM)))
		VFAIL(VERDICT_UNSAFE, pc, "R%u of %s is not a pointer to memory", reg, name);
	/* memory the helper writes may not be a read-only map value (check_map_access_type);
	 * the initialization rules stay those of a read for HARG_MEM_RW */
	if (kind != HARG_MEM && kind != HARG_MEM_OR_NULL && a->kind == AV_PTR &&
	    a->region == REGION_MAP_VALUE && a->map < cx->nmaps &&
	    (cx->maps[a->map].flags & BPF_F_RDONLY_PROG))
		VFAIL(VERDICT_UNSAFE, pc, "R%u of %s: the helper writes the read-only map '%s'",
		      reg, name, cx->maps[a->map].name);
	verify_access(cx, v, s, pc, reg, 0, (unsigned)n->r.umax, kind == HARG_MEM_UNINIT);
	if (v->kind == VERDICT_SAFE && kind != HARG_MEM_UNINIT)
		verify_unpriv_mem_read(cx, v, s, pc, reg, n->r.umax, name);
}

/* A helper's 8 aligned bytes it writes a number into (HARG_LONG_OUT: bpf_strtol's long *res,
 * ARG_PTR_TO_FIXED_SIZE_MEM | MEM_UNINIT | MEM_WRITE | MEM_ALIGNED of 8 bytes): the stack or a
 * writable map value, at a constant offset aligned to 8 (check_ptr_alignment, strict for every
 * region with MEM_ALIGNED: "misaligned stack access off (0x0; 0x0)+-20+0 size 8"), the 8 bytes
 * inside it; unwritten stack bytes allowed (MEM_UNINIT), except unprivileged, where the kernel
 * reads them first.  Other memory (the packet, a ringbuf record) is not modeled.  n is 8, or 4
 * for HARG_U32_INOUT (bpf_check_mtu's u32 *mtu_len, aligned to 4, which the helper reads first:
 * as root the kernel lets it read unwritten stack bytes, unprivileged not — the same rule). */
static void verify_long_arg(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			    uint32_t pc, const char *name, unsigned reg, unsigned n)
{
	const struct aval *a = &s->regs[reg];

	if (a->kind != AV_PTR)
		VFAIL(VERDICT_UNSAFE, pc, "R%u of %s is not a pointer to %u bytes to write "
		      "(type=%s)", reg, name, n, a->kind == AV_SCALAR ? "scalar" : "unknown");
	if (a->region != REGION_STACK && a->region != REGION_CALLER_STACK &&
	    a->region != REGION_MAP_VALUE)
		VFAIL(a->region == REGION_CTX || a->region == REGION_MAP_HANDLE ? VERDICT_UNSAFE
									: VERDICT_UNSUPPORTED,
		      pc, "R%u of %s points to %s: %u aligned bytes the helper writes are modeled "
		      "in the stack and a map value only", reg, name, claim_region_name(a->region),
		      n);
	/* At a variable offset into its own stack (test_sysctl_loop's bpf_strtoul(..., tcp_mem + i)):
	 * as root, check_stack_range_initialized takes every byte of [smin, smax + 8) (written or
	 * not: allow_uninit_stack; spilled pointers too: allow_ptr_leaks) after the alignment of
	 * the offset's tnum (check_ptr_alignment, strict for the stack), and clobbers them all
	 * (helper_effects: numbers).  Unprivileged, the map value's, and bpf_check_mtu's 4 bytes,
	 * which the helper reads: not modeled. */
	if (!a->maybe_null && !range_is_const(&a->r)) {
		if (a->region != REGION_STACK || n != 8 || cx->opts.unprivileged)
			VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s: %u aligned bytes at a variable "
			      "offset [%lld, %lld]: not modeled", reg, name, n, (long long)a->r.smin,
			      (long long)a->r.smax);
		verify_alignment(v, a, pc, 0, n, false);
		if (v->kind == VERDICT_SAFE)
			verify_access(cx, v, s, pc, reg, 0, n, true);
		return;
	}
	if (!a->maybe_null && a->r.smin % (int64_t)n)
		VFAIL(VERDICT_UNSAFE, pc, "R%u of %s: misaligned %s access off %lld size %u (the "
		      "helper's %u bytes must be aligned)", reg, name,
		      a->region == REGION_MAP_VALUE ? "map value" : "stack", (long long)a->r.smin,
		      n, n);
	if (a->region == REGION_MAP_VALUE && a->map < cx->nmaps &&
	    (cx->maps[a->map].flags & BPF_F_RDONLY_PROG))
		VFAIL(VERDICT_UNSAFE, pc, "R%u of %s: the helper writes the read-only map '%s'",
		      reg, name, cx->maps[a->map].name);
	/* (bpf_check_mtu's 4 bytes are read first: written on every path, unprivileged) */
	verify_access(cx, v, s, pc, reg, 0, n, n == 8);
	if (v->kind == VERDICT_SAFE && cx->opts.unprivileged)
		verify_unpriv_mem_read(cx, v, s, pc, reg, n, name);
}

bool absint_verify_mem_arg(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			   uint32_t pc, const char *name, unsigned reg)
{
	verify_mem_arg(cx, v, s, pc, name, reg, HARG_MEM_UNINIT, HARG_SIZE_OR_ZERO);
	return v->kind != VERDICT_SAFE;
}

/* A call of the global function g against its prototype (btf_prepare_func_args,
 * btf_check_func_arg_match): the prototype one the kernel takes, each argument written, a
 * scalar where it says integer, the context where it says the context, and where it says
 * memory NULL or a pointer to that many bytes the callee may read and write (check_mem_reg: a
 * map lookup's result before its null check counts as not NULL). */
static void verify_global_call(struct scev_ctx *cx, struct scev_verdict *v,
			       const struct astate *s, uint32_t pc, const struct ebpf_global_func *g)
{
	uint64_t zero;

	v->checks++;
	if (g->tagged)
		VFAIL(VERDICT_UNSUPPORTED, pc, "global function %s(): declaration tags on its "
		      "arguments are not modeled", g->name);
	if (g->nargs > 5)
		VFAIL(VERDICT_UNSAFE, pc, "Global function %s() with %u > 5 args", g->name,
		      g->nargs);
	if (g->ret != EBPF_FARG_INT)
		VFAIL(VERDICT_UNSAFE, pc, "Global function %s() doesn't return scalar. Only those "
		      "are supported.", g->name);
	for (unsigned k = 0; k < g->nargs; k++) {
		unsigned reg = k + 1;
		struct aval a = s->regs[reg];

		if (!(s->init & (1u << reg)))
			VFAIL(VERDICT_UNSAFE, pc, "R%u (argument %u of global function %s()) may be "
			      "read before it is written", reg, k, g->name);
		switch (absint_global_arg(cx, &g->args[k])) {
		case GARG_SCALAR:
			if (a.kind == AV_TOP)
				VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of global function %s() may be a "
				      "pointer, where its prototype says integer", reg, g->name);
			if (a.kind != AV_SCALAR)
				VFAIL(VERDICT_UNSAFE, pc, "R%u is not a scalar (argument %u of global "
				      "function %s())", reg, k, g->name);
			break;
		case GARG_CTX:
			if (a.kind != AV_PTR || a.region != REGION_CTX || a.maybe_null ||
			    !range_is_const(&a.r) || a.r.umin != 0)
				VFAIL(VERDICT_UNSAFE, pc, "R%u of global function %s() is not the "
				      "context at offset 0 (arg#%u expects pointer to ctx)", reg,
				      g->name, k);
			break;
		case GARG_MEM:
			if (aval_is_const(&a, &zero) && zero == 0)
				break;
			if (a.kind != AV_PTR || a.region == REGION_CTX ||
			    a.region == REGION_MAP_HANDLE || a.region == REGION_PKT_END)
				VFAIL(VERDICT_UNSAFE, pc, "R%u of global function %s() is not a pointer "
				      "to memory of %u bytes", reg, g->name, g->args[k].size);
			{
				struct astate t = *s;

				t.regs[reg].maybe_null = false;
				verify_access(cx, v, &t, pc, reg, 0, g->args[k].size, false);
				verify_access(cx, v, &t, pc, reg, 0, g->args[k].size, true);
				if (v->kind == VERDICT_SAFE)
					verify_unpriv_mem_read(cx, v, &t, pc, reg, g->args[k].size,
							       g->name);
			}
			break;
		case GARG_DYNPTR:
			if (absint_dynptr_verify_global_arg(cx, v, s, pc, reg, g->name))
				return;
			break;
		case GARG_BAD:
			VFAIL(VERDICT_UNSAFE, pc, "argument %u of global function %s() has a type the "
			      "kernel refuses (a pointer to something of no size, or not an integer "
			      "nor a pointer)", k, g->name);
		default:
			VFAIL(VERDICT_UNSUPPORTED, pc, "argument %u of global function %s(): a "
			      "pointer to struct %s is not modeled (the context of another program "
			      "type, or too large)", k, g->name, g->args[k].tname);
		}
		if (v->kind != VERDICT_SAFE)
			return;
	}
}

/* A socket argument: ARG_PTR_TO_BTF_ID_SOCK_COMMON (btf) takes a kernel object whose struct
 * starts with a sock_common (btf_struct_ids_match) at offset 0, or a socket of the context or of
 * a lookup (REGION_SOCK: PTR_TO_SOCK_COMMON, PTR_TO_SOCKET, PTR_TO_TCP_SOCK), as
 * ARG_PTR_TO_SOCK_COMMON takes the latter only; not NULL, a lookup's held.  A release
 * (bpf_sk_release) wants a socket a lookup acquired (absint_ref.c). */
static void verify_sock_arg(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			    uint32_t pc, unsigned reg, const char *name, bool btf, bool release)
{
	const struct aval *a = &s->regs[reg];
	uint64_t zero;

	/* sk_lookup's bpf_sk_assign (bpf_sk_lookup_assign_proto: ARG_PTR_TO_SOCKET_OR_NULL): a
	 * full socket, NULL or not, or the number 0; a lookup's held */
	if (cx->prog_type == BPF_PROG_TYPE_SK_LOOKUP && !strcmp(name, "bpf_sk_assign")) {
		if (aval_is_const(a, &zero) && zero == 0)
			return;
		if (a->kind == AV_TOP)
			VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s may be a socket or something else",
			      reg, name);
		if (a->kind != AV_PTR || a->region != REGION_SOCK ||
		    aval_sock_kind(a) != EBPF_SOCK_FULL)
			VFAIL(VERDICT_UNSAFE, pc, "R%u type=%s expected=sock (%s of sk_lookup takes a "
			      "full socket or NULL)", reg, a->kind == AV_SCALAR ? "scalar"
			      : ptr_type_name(a), name);
		if (!range_is_const(&a->r) || a->r.umin != 0)
			VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s: a socket at an offset", reg, name);
		absint_ref_verify_sock(cx, v, s, a, pc);
		return;
	}
	if (a->kind == AV_PTR && a->region == REGION_SOCK) {
		/* (bpf_sk_assign's socket may be NULL: PTR_MAYBE_NULL, which the table does not
		 * say) */
		if (a->maybe_null && !strcmp(name, "bpf_sk_assign"))
			VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s: a socket or NULL (not modeled)", reg,
			      name);
		if (a->maybe_null)
			VFAIL(VERDICT_UNSAFE, pc, "R%u type=%s expected=sock_common, sock, tcp_sock "
			      "(%s of a socket not checked for NULL)", reg, ptr_type_name(a), name);
		if (!range_is_const(&a->r) || a->r.umin != 0)
			VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s: a socket at an offset", reg, name);
		if (release)
			absint_ref_verify_sock_release(cx, v, s, pc, reg, name);
		else
			absint_ref_verify_sock(cx, v, s, a, pc);
		return;
	}
	/* (bpf_sock_ops's sk is PTR_TO_SOCKET_OR_NULL in the kernel, a number loaded here) */
	if (a->kind == AV_SCALAR && !range_is_const(&a->r) &&
	    cx->prog_type == BPF_PROG_TYPE_SOCK_OPS)
		VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s may be bpf_sock_ops's sk, which is loaded "
		      "as a number: not modeled", reg, name);
	if (a->kind == AV_SCALAR || (a->kind == AV_PTR && (a->region != REGION_BTF || !btf)))
		VFAIL(VERDICT_UNSAFE, pc, "R%u of %s is not a socket (%s)", reg, name,
		      btf ? "ARG_PTR_TO_BTF_ID_SOCK_COMMON" : "ARG_PTR_TO_SOCK_COMMON");
	if (a->kind != AV_PTR)
		VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s may be a socket of another kind (a socket "
		      "joined with something else)", reg, name);
	/* check_reg_type: a kernel object that may be NULL only where the argument may be
	 * ("Possibly NULL pointer": ARG_PTR_TO_BTF_ID_SOCK_COMMON is not PTR_MAYBE_NULL; a cast's
	 * result given on untested was called safe), the tracing types' socket storage helpers'
	 * (bpf_sk_storage_{get,delete}_tracing_proto: ARG_PTR_TO_BTF_ID_OR_NULL) */
	if (a->maybe_null && !((cx->prog_type == BPF_PROG_TYPE_TRACING ||
				cx->prog_type == BPF_PROG_TYPE_LSM) &&
			       (!strcmp(name, "bpf_sk_storage_get") ||
				!strcmp(name, "bpf_sk_storage_delete"))))
		VFAIL(VERDICT_UNSAFE, pc, "R%u type=ptr_or_null_ expected=sock_common, sock, tcp_sock "
		      "(%s of a kernel object not checked for NULL)", reg, name);
	if (release)
		VFAIL(VERDICT_UNSAFE, pc, "R%u must be referenced when passed to release function "
		      "(%s of a kernel object no lookup acquired)", reg, name);
	if (!range_is_const(&a->r) || a->r.umin != 0 || a->map >= cx->nbtf_types)
		VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s: a kernel object at an offset: not "
		      "modeled", reg, name);
	if (cx->btf_trusted[a->map] == BTF_UNTRUSTED)
		VFAIL(VERDICT_UNSAFE, pc, "R%u of %s is an untrusted kernel object (a kptr read "
		      "from a map value)", reg, name);
	if (!ebpf_btf_starts_with(cx->btf_types[a->map], "sock_common"))
		VFAIL(VERDICT_UNSAFE, pc, "R%u of %s is a kernel object that is not a socket "
		      "(sock_common is expected)", reg, name);
}

/* A kernel object argument (ARG_PTR_TO_BTF_ID, HF_BTF_ARG): one whose struct is obj or starts
 * with it (btf_struct_ids_match), at offset 0, not NULL, not untrusted (a kptr read from a map
 * value); a value that may be something else is unsupported. */
static void verify_btf_arg(struct scev_ctx *cx, struct scev_verdict *v, const struct aval *a,
			   uint32_t pc, unsigned reg, const char *name, const char *obj)
{
	int32_t id;

	if (a->kind == AV_TOP)
		VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s may be a kernel object or something else",
		      reg, name);
	if (a->kind != AV_PTR || (a->region != REGION_BTF && a->region != REGION_KREF))
		VFAIL(VERDICT_UNSAFE, pc, "R%u type=%s expected=ptr_%s (%s takes a kernel object)",
		      reg, a->kind == AV_SCALAR ? "scalar" : ptr_type_name(a), obj, name);
	if (a->maybe_null)
		VFAIL(VERDICT_UNSAFE, pc, "R%u of %s may be NULL (ptr_or_null_%s)", reg, name, obj);
	if (!range_is_const(&a->r) || a->r.umin != 0)
		VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s: a kernel object at an offset: not modeled",
		      reg, name);
	if (a->region == REGION_BTF && a->map < cx->nbtf_types &&
	    cx->btf_trusted[a->map] == BTF_UNTRUSTED)
		VFAIL(VERDICT_UNSAFE, pc, "R%u of %s is an untrusted kernel object (a kptr read from a "
		      "map value)", reg, name);
	id = a->region == REGION_KREF ? (a->map < cx->nref_sites ? cx->ref_sites[a->map].btf : 0)
				      : (a->map < cx->nbtf_types ? cx->btf_types[a->map] : 0);
	if (!ebpf_btf_starts_with(id, obj))
		VFAIL(VERDICT_UNSAFE, pc, "R%u of %s is a kernel object that is not a struct %s", reg,
		      name, obj);
}

/* A constant string argument (ARG_PTR_TO_CONST_STR, bpf_strncmp's: check_reg_const_str): a map
 * value pointer, not NULL, at a constant offset, into a map bpf_map_is_rdonly calls read-only
 * (BPF_F_RDONLY_PROG and frozen: given initial contents, as rodata_load's) whose type lets the
 * kernel read it (an array of one value), with a 0 byte between the offset and the value's end
 * in those contents. */
static void verify_const_str(struct scev_ctx *cx, struct scev_verdict *v, const struct aval *a,
			     uint32_t pc, unsigned reg, const char *name)
{
	const struct ebpf_map_def *m;
	uint64_t at;

	if (a->kind != AV_PTR || a->region != REGION_MAP_VALUE || a->maybe_null ||
	    a->map >= cx->nmaps)
		VFAIL(a->kind == AV_TOP ? VERDICT_UNSUPPORTED : VERDICT_UNSAFE, pc,
		      "R%u of %s: type=%s expected=map_value (a constant string)", reg, name,
		      a->kind == AV_SCALAR ? "scalar" : a->kind == AV_TOP ? "unknown"
						      : ptr_type_name(a));
	m = &cx->maps[a->map];
	if (!m->init || !(m->flags & BPF_F_RDONLY_PROG))
		VFAIL(VERDICT_UNSAFE, pc, "R%u does not point to a readonly map' (%s, map '%s')",
		      reg, name, m->name);
	if (!range_is_const(&a->r))
		VFAIL(VERDICT_UNSAFE, pc, "R%u is not a constant address' (%s)", reg, name);
	if (m->type != BPF_MAP_TYPE_ARRAY || m->max_entries != 1)
		VFAIL(VERDICT_UNSAFE, pc, "no direct value access support for this map type (%s, "
		      "map '%s')", name, m->name);
	at = a->r.umin;
	if (at >= m->value_size)
		VFAIL(VERDICT_UNSAFE, pc, "R%u of %s: map value access at %llu outside [0, %u)", reg,
		      name, (unsigned long long)at, m->value_size);
	if (!memchr(m->init + at, 0, m->value_size - at))
		VFAIL(VERDICT_UNSAFE, pc, "string is not zero-terminated (R%u of %s, map '%s' at %llu)",
		      reg, name, m->name, (unsigned long long)at);
}

/* The number of conversions of the format fmt (zero-terminated) as the kernel's
 * bpf_bprintf_prepare counts them when it checks bpf_snprintf's at load time: -1 (*why) where
 * it refuses the string (a control character, an unknown conversion, %s or %c before a
 * letter), -2 where the model is not sure (bytes of 0x80 and above).  Conversions: [0+- ]*
 * flags, a [1-9][0-9]* width, then %s %c, %p (alone or before a space or punctuation), %pK
 * %px %ps %pS %pB, %pks %pus, %pi4 %pI4 %pi6 %pI6, or [l[l]] i d u x X. */
static int bprintf_specs(const char *fmt, const char **why)
{
	int n = 0;

	for (size_t i = 0; fmt[i]; i++) {
		unsigned char c = (unsigned char)fmt[i];

		if (c >= 0x80)
			return *why = "a byte of 0x80 or above (not modeled)", -2;
		if (!isprint(c) && !isspace(c))
			return *why = "a control character", -1;
		if (c != '%')
			continue;
		if (fmt[i + 1] == '%') {
			i++;
			continue;
		}
		n++;
		i++;
		if ((unsigned char)fmt[i] >= 0x80)
			return *why = "a byte of 0x80 or above after '%'", -1;
		while (fmt[i] == '0' || fmt[i] == '+' || fmt[i] == '-' || fmt[i] == ' ')
			i++;
		if (fmt[i] >= '1' && fmt[i] <= '9')
			for (i++; fmt[i] >= '0' && fmt[i] <= '9'; i++)
				;
		if (fmt[i] == 'p') {	/* %p, %pK %px %ps %pS %pB, %pks %pus, %pi4 %pI4 %pi6 %pI6 */
			char c1 = fmt[i + 1], c2 = c1 ? fmt[i + 2] : 0;

			if (!c1 || isspace((unsigned char)c1) || ispunct((unsigned char)c1))
				continue;
			if ((c1 == 'k' || c1 == 'u') && c2 == 's') {
				i += 2;
				if (fmt[i + 1] && !isspace((unsigned char)fmt[i + 1]) &&
				    !ispunct((unsigned char)fmt[i + 1]))
					return *why = "%pks or %pus followed by a letter or a digit", -1;
				continue;
			}
			if (strchr("KxsSB", c1)) {
				i++;
				continue;
			}
			if ((c1 != 'i' && c1 != 'I') || (c2 != '4' && c2 != '6'))
				return *why = "an unknown %p conversion", -1;
			i += 2;
			continue;
		}
		if (fmt[i] == 's') {
			if (fmt[i + 1] && !isspace((unsigned char)fmt[i + 1]) &&
			    !ispunct((unsigned char)fmt[i + 1]))
				return *why = "%s followed by a letter or a digit", -1;
			continue;
		}
		if (fmt[i] == 'c')
			continue;
		if (fmt[i] == 'l')
			i++;
		if (fmt[i] == 'l')
			i++;
		if (!fmt[i] || !strchr("iduxX", fmt[i]))
			return *why = "an unknown conversion", -1;
	}
	return n;
}

/* bpf_snprintf's format (check_bpf_snprintf_call): data_len (R5) a constant multiple of 8
 * (the kernel reads its tnum's value: a constant here, else not modeled), and the format's
 * conversions no more than data_len / 8 (bpf_bprintf_prepare: "Invalid format string").  R3
 * was checked a constant string of a frozen read-only map (verify_const_str). */
static void verify_snprintf(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			    uint32_t pc)
{
	const struct aval *f = &s->regs[3];
	const struct ebpf_map_def *m = &cx->maps[f->map];
	const char *why = NULL;
	uint64_t len;
	int n;

	if (!aval_is_const(&s->regs[5], &len))
		VFAIL(VERDICT_UNSUPPORTED, pc, "bpf_snprintf: data_len (R5) not a constant (the "
		      "kernel reads its known bits): not modeled");
	if (len % 8)
		VFAIL(VERDICT_UNSAFE, pc, "bpf_snprintf: data_len (R5) %llu is not a multiple of 8 "
		      "(check_bpf_snprintf_call: -EINVAL)", (unsigned long long)len);
	n = bprintf_specs((const char *)m->init + f->r.umin, &why);
	if (n == -2)
		VFAIL(VERDICT_UNSUPPORTED, pc, "bpf_snprintf's format: %s", why);
	if (n < 0)
		VFAIL(VERDICT_UNSAFE, pc, "Invalid format string (bpf_snprintf's: %s)", why);
	if ((uint64_t)n > len / 8)
		VFAIL(VERDICT_UNSAFE, pc, "Invalid format string (bpf_snprintf's: %d conversions, "
		      "data_len %llu holds %llu)", n, (unsigned long long)len,
		      (unsigned long long)(len / 8));
}

/* Whether the kernel loads the program sleepable (prog->sleepable): libbpf's ".s" sections
 * (absint_sleepable) of the types can_be_sleepable lets sleep — kprobe (uprobes), LSM but
 * lsm_cgroup, fentry, fexit, fmod_ret and iterators — and syscall programs. */
static bool prog_sleepable(const struct scev_ctx *cx)
{
	uint32_t at = cx->prog->btf_ctx.attach_type;

	if (!absint_sleepable(cx))
		return false;
	switch (cx->prog_type) {
	case BPF_PROG_TYPE_SYSCALL:
	case BPF_PROG_TYPE_KPROBE:
		return true;
	case BPF_PROG_TYPE_LSM:
		return at != BPF_LSM_CGROUP;
	case BPF_PROG_TYPE_TRACING:
		return at == BPF_TRACE_FENTRY || at == BPF_TRACE_FEXIT || at == BPF_MODIFY_RETURN ||
		       at == BPF_TRACE_ITER;
	default:
		return false;
	}
}

/* Whether p is modeled in a sleepable program of prog_type (then in another one only its
 * sleeping stands between it and the kernel's refusal). */
static bool unmodeled_if_sleepable(const struct ebpf_helper_proto *p, uint32_t prog_type)
{
	char buf[160];

	return ebpf_helper_unmodeled_sl(p, prog_type, true, buf, sizeof(buf)) != NULL;
}

/* A helper call against its prototype (bpf/helper_proto.h). */
static void verify_helper(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			  uint32_t pc, int32_t id)
{
	const struct ebpf_helper_proto *p = absint_helper_proto(s, id);
	const char *name = ebpf_helper_name(id), *why;
	int nargs, map_reg = 0;
	bool sock_map = false;
	char buf[160];

	if (!p)		/* not modeled: the table's entry says why */
		p = ebpf_helper_entry(id);
	/* (a prototype of this program type's own: bpf/helper_proto.c type_protos) */
	if (p && p->id == id && ebpf_helper_entry_for(id, cx->prog_type) != ebpf_helper_entry(id))
		p = ebpf_helper_entry_for(id, cx->prog_type);
	if (!name || !p)
		VFAIL(VERDICT_UNSAFE, pc, "call to unknown helper #%d", id);
	if (p->flags & HF_KCONFIG)
		VFAIL(VERDICT_UNSUPPORTED, pc, "helper %s#%d: %s", name, id,
		      ebpf_helper_unmodeled(p, cx->prog_type, buf, sizeof(buf)));
	if (cx->prog_type < 64 && cx->prog_type && !(p->types & (1ull << cx->prog_type)))
		VFAIL((HPT_UNCHECKED >> cx->prog_type) & 1 ? VERDICT_UNSUPPORTED : VERDICT_UNSAFE,
		      pc, "program of this type cannot use helper %s#%d%s", name, id,
		      (HPT_UNCHECKED >> cx->prog_type) & 1 ? " (so the table says; not checked "
		      "against the kernel for this type)" : "");
	/* check_helper_call: a helper that may sleep (might_sleep) only in a sleepable program
	 * (a program of a type without its prototype is refused too: unknown func); a section
	 * asking to sleep in a type this does not know sleepable (struct_ops.s) stays
	 * unsupported below */
	if ((p->flags & HF_SLEEPS) && !absint_sleepable(cx) &&
	    !unmodeled_if_sleepable(p, cx->prog_type))
		VFAIL(VERDICT_UNSAFE, pc, "helper call might sleep in a non-sleepable prog (%s#%d)",
		      name, id);
	if ((why = ebpf_helper_unmodeled_sl(p, cx->prog_type, prog_sleepable(cx), buf,
					    sizeof(buf))))
		VFAIL(VERDICT_UNSUPPORTED, pc, "helper %s#%d: %s", name, id, why);
	if ((why = ebpf_helper_attach_refused(p, name, cx->prog_type,
					      cx->prog->btf_ctx.attach_type, buf, sizeof(buf))))
		VFAIL(VERDICT_UNSAFE, pc, "%s", why);
	if ((p->ret == HRET_BTF_ID || p->ret == HRET_BTF_ID_OR_NULL) &&
	    ebpf_btf_struct_by_name(p->obj) <= 0)
		VFAIL(VERDICT_UNSUPPORTED, pc, "helper %s#%d: its result is a struct %s, which the "
		      "kernel's BTF does not describe here", name, id, p->obj);
	nargs = ebpf_helper_proto_nargs(p);
	v->checks++;
	for (int r = 1; r <= nargs; r++)
		if (!(s->init & (1u << r)))
			VFAIL(VERDICT_UNSAFE, pc, "R%d may be read before it is written (not written "
			      "on some path)", r);
	for (int k = 0; k < nargs; k++) {
		unsigned reg = (unsigned)k + 1;
		const struct aval *a = &s->regs[reg];
		uint64_t zero;
		uint32_t sz;

		/* check_func_arg: a packet pointer only for a helper with .pkt_access, and not in
		 * sock_ops (may_access_direct_pkt_data: not even to read) */
		if (a->kind == AV_PTR && (a->region == REGION_PKT || a->region == REGION_PKT_META) &&
		    p->args[k] != HARG_ANYTHING &&
		    (!(p->flags & HF_PKT_ACCESS) || cx->prog_type == BPF_PROG_TYPE_SOCK_OPS))
			VFAIL(VERDICT_UNSAFE, pc, "R%u of %s: helper access to the packet is not "
			      "allowed", reg, name);
		/* a kernel object is no helper's memory here (only ARG_ANYTHING, the sockets, a
		 * socket map's value and HF_BTF_ARG's take it), but a trusted one is read-only
		 * memory (mem_types' PTR_TO_BTF_ID | PTR_TRUSTED, for ARG_PTR_TO_MEM | MEM_RDONLY:
		 * bpf_strncmp(task->comm, ...) in a tp_btf program), its bytes read as a load's
		 * (check_helper_mem_access: check_ptr_to_btf_access, verify_access) */
		if (a->kind == AV_PTR && a->region == REGION_BTF && p->args[k] != HARG_ANYTHING &&
		    p->args[k] != HARG_BTF_SOCK_COMMON && p->args[k] != HARG_BTF_ID &&
		    !(sock_map && p->args[k] == HARG_MAP_VALUE) &&
		    !((p->args[k] == HARG_MEM || p->args[k] == HARG_MEM_OR_NULL) &&
		      a->map < cx->nbtf_types && cx->btf_trusted[a->map] == BTF_TRUSTED))
			VFAIL(VERDICT_UNSAFE, pc, "R%u of %s is a kernel object (PTR_TO_BTF_ID), not "
			      "modeled as this argument", reg, name);

		/* check_func_arg without allow_ptr_leaks: a pointer given as a number leaks */
		if (p->args[k] == HARG_ANYTHING && cx->opts.unprivileged && a->kind == AV_PTR)
			VFAIL(VERDICT_UNSAFE, pc, "R%u leaks addr into helper function (%s)", reg,
			      name);
		if (p->args[k] == HARG_ANYTHING && cx->opts.unprivileged && a->kind == AV_TOP)
			VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s may be a pointer: the unprivileged "
			      "kernel refuses it as a number (R%u leaks addr into helper function)",
			      reg, name, reg);

		switch (p->args[k]) {
		case HARG_MAP:
			if (a->kind != AV_PTR || a->region != REGION_MAP_HANDLE || a->map >= cx->nmaps ||
			    !range_is_const(&a->r) || a->r.umin != 0)
				VFAIL(VERDICT_UNSAFE, pc, "R%u of %s is not a map", reg, name);
			/* the result of a lookup in a map of maps before its null check */
			if (a->maybe_null)
				VFAIL(VERDICT_UNSAFE, pc, "R%u of %s may be NULL (lookup in a map of "
				      "maps not checked)", reg, name);
			if (ebpf_helper_map_compat(id, cx->maps[a->map].type))
				VFAIL(VERDICT_UNSAFE, pc, "%s#%d with map '%s' (type %u): %s", name, id,
				      cx->maps[a->map].name, cx->maps[a->map].type,
				      ebpf_helper_map_compat(id, cx->maps[a->map].type));
			/* (a sockmap's or sockhash's lookup: a referenced socket, absint_ref.c; a
			 * reuseport array takes bpf_sk_select_reuseport only) */
			if ((id == BPF_FUNC_map_update_elem || id == BPF_FUNC_map_delete_elem) &&
			    (cx->maps[a->map].type == BPF_MAP_TYPE_SOCKMAP ||
			     cx->maps[a->map].type == BPF_MAP_TYPE_SOCKHASH)) {
				if ((why = ebpf_helper_sockmap_refused(id, cx->maps[a->map].type,
								       cx->prog_type,
								       cx->prog->btf_ctx.attach_type)))
					VFAIL(VERDICT_UNSAFE, pc, "%s (%s#%d with the socket map '%s')",
					      why, name, id, cx->maps[a->map].name);
				sock_map = true;
			}
			if (id == BPF_FUNC_map_lookup_elem &&
			    (cx->maps[a->map].type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
			     cx->maps[a->map].type == BPF_MAP_TYPE_HASH_OF_MAPS) &&
			    (!cx->maps[a->map].inner || cx->maps[a->map].inner > cx->nmaps))
				VFAIL(VERDICT_UNSUPPORTED, pc, "lookup in the map of maps '%s', whose "
				      "inner map the object does not define", cx->maps[a->map].name);
			map_reg = (int)reg;
			break;
		case HARG_MAP_VALUE_OR_NULL:	/* (bpf_sk_storage_get's: NULL, the constant 0) */
			if (aval_is_const(a, &zero) && zero == 0)
				break;
			/* fallthrough */
		case HARG_MAP_KEY:
		case HARG_MAP_VALUE:
		case HARG_MAP_VALUE_OUT:
			if (!map_reg)
				VFAIL(VERDICT_UNSUPPORTED, pc, "%s: a key or value without a map", name);
			/* (a socket map's value is a socket: resolve_map_arg_type makes the argument
			 * ARG_PTR_TO_BTF_ID_SOCK_COMMON) */
			if (p->args[k] == HARG_MAP_VALUE && sock_map) {
				verify_sock_arg(cx, v, s, pc, reg, name, true, false);
				break;
			}
			sz = p->args[k] == HARG_MAP_KEY ? cx->maps[s->regs[map_reg].map].key_size
							: cx->maps[s->regs[map_reg].map].value_size;
			/* (check_reg_type lets a maybe-NULL pointer by for a maybe-NULL argument;
			 * what the kernel then checks of it is not modeled) */
			if (p->args[k] == HARG_MAP_VALUE_OR_NULL && a->kind == AV_PTR && a->maybe_null)
				VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s may be NULL (a pointer not "
				      "tested against NULL as a map value or NULL): not modeled", reg,
				      name);
			if (a->kind == AV_PTR && a->region == REGION_CTX)
				VFAIL(VERDICT_UNSAFE, pc, "R%u of %s points to the context", reg, name);
			/* (a key or value size the object leaves 0: its loader sets it before the
			 * load, so how much the helper touches is not known here) */
			if (!sz)
				VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s: map '%s' has no %s size in "
				      "the object (its loader sets it)", reg, name,
				      cx->maps[s->regs[map_reg].map].name,
				      p->args[k] == HARG_MAP_KEY ? "key" : "value");
			/* (bpf_map_pop_elem's and peek's: written, need not be initialized:
			 * ARG_PTR_TO_MAP_VALUE | MEM_UNINIT | MEM_WRITE) */
			if (sz)
				verify_access(cx, v, s, pc, reg, 0, sz,
					      p->args[k] == HARG_MAP_VALUE_OUT);
			if (sz && v->kind == VERDICT_SAFE && p->args[k] != HARG_MAP_VALUE_OUT)
				verify_unpriv_mem_read(cx, v, s, pc, reg, sz, name);
			break;
		case HARG_MEM:
		case HARG_MEM_OR_NULL:
		case HARG_MEM_RW:
		case HARG_MEM_RW_OR_NULL:
		case HARG_MEM_UNINIT:
			verify_mem_arg(cx, v, s, pc, name, reg, (enum ebpf_harg)p->args[k],
				       (enum ebpf_harg)p->args[k + 1]);
			break;
		case HARG_LONG_OUT:
		case HARG_U32_INOUT:
			verify_long_arg(cx, v, s, pc, name, reg,
					p->args[k] == HARG_LONG_OUT ? 8u : 4u);
			break;
		case HARG_ALLOC_SIZE:
		case HARG_RINGBUF_RELEASE:
			absint_ref_verify_arg(cx, v, s, pc, name, reg, (enum ebpf_harg)p->args[k]);
			break;
		case HARG_CTX_OR_NULL:	/* (or NULL: the constant 0, not a NULL pointer) */
			if (aval_is_const(a, &zero) && zero == 0)
				break;
			/* fallthrough */
		case HARG_CTX:
			if (a->kind != AV_PTR || a->region != REGION_CTX || a->maybe_null ||
			    !range_is_const(&a->r) || a->r.umin != 0)
				VFAIL(VERDICT_UNSAFE, pc, "R%u of %s is not the context at offset 0%s",
				      reg, name, p->args[k] == HARG_CTX_OR_NULL ? " nor NULL" : "");
			break;
		case HARG_CONST_STR:
			verify_const_str(cx, v, a, pc, reg, name);
			break;
		case HARG_BTF_ID:	/* (HF_BTF_ARG's: ebpf_helper_unmodeled lets no other by) */
			verify_btf_arg(cx, v, a, pc, reg, name, p->obj ? p->obj : "?");
			break;
		case HARG_BTF_SOCK_COMMON:
		case HARG_SOCK_COMMON:
			verify_sock_arg(cx, v, s, pc, reg, name, p->args[k] == HARG_BTF_SOCK_COMMON,
					(p->flags & HF_RELEASES) && k == 0);
			break;
		default:
			break;
		}
		if (v->kind != VERDICT_SAFE)
			return;
	}
	if (id == BPF_FUNC_snprintf) {
		verify_snprintf(cx, v, s, pc);
		if (v->kind != VERDICT_SAFE)
			return;
	}
	/* check_helper_call: get_local_storage() can't return an error, so its flags must be the
	 * constant 0 (register_is_null) */
	if (id == BPF_FUNC_get_local_storage) {
		uint64_t flags;

		if (!aval_is_const(&s->regs[2], &flags) || flags)
			VFAIL(VERDICT_UNSAFE, pc, "get_local_storage() doesn't support non-zero flags "
			      "(R2 is not the constant 0)");
	}
}

/* The kernel's name of a pointer's type (reg_type_str) in its messages. */
static const char *ptr_type_name(const struct aval *a)
{
	switch (a->region) {
	case REGION_STACK: case REGION_CALLER_STACK: return "fp";
	case REGION_CTX: return "ctx";
	case REGION_PKT: return "pkt";
	case REGION_PKT_META: return "pkt_meta";
	case REGION_PKT_END: return "pkt_end";
	case REGION_MAP_VALUE: return a->maybe_null ? "map_value_or_null" : "map_value";
	case REGION_MAP_HANDLE: return "map_ptr";
	case REGION_MAP_KEY: return "map_key";
	case REGION_BTF: case REGION_KREF: return "a kernel object (PTR_TO_BTF_ID)";
	case REGION_SOCK:
		return aval_sock_kind(a) == EBPF_SOCK_TCP ? (a->maybe_null ? "tcp_sock_or_null"
									  : "tcp_sock")
		       : aval_sock_kind(a) == EBPF_SOCK_FULL ? (a->maybe_null ? "sock_or_null"
									     : "sock")
		       : a->maybe_null ? "sock_common_or_null" : "sock_common";
	case REGION_DYNPTR: return "dynptr_ptr";
	default: return "mem";
	}
}

/* bpf_alu_string */
static const char *const alu_str[16] = { "+=", "-=", "*=", "/=", "|=", "&=", "<<=", ">>=",
					 "neg", "%=", "^=", "=", "s>>=", "endian", "?", "?" };

/* check_reg_sane_offset for the bounds this analysis knows: a constant of 2^29 or more either
 * way, an offset register whose minimum is unbounded or 2^29 or more either way. */
#define PTR_MAX_VAR_OFF (1ll << 29)

static void verify_sane_off(struct scev_verdict *v, uint32_t pc, const struct aval *ptr,
			    const struct aval *off)
{
	const char *t = ptr_type_name(ptr);

	if (range_is_const(&off->r) &&
	    (off->r.smin >= PTR_MAX_VAR_OFF || off->r.smin <= -PTR_MAX_VAR_OFF))
		VFAIL(VERDICT_UNSAFE, pc, "math between %s pointer and %lld is not allowed", t,
		      (long long)off->r.smin);
	if (off->r.smin == INT64_MIN)
		VFAIL(VERDICT_UNSAFE, pc, "math between %s pointer and register with unbounded min "
		      "value is not allowed", t);
	if (off->r.smin >= PTR_MAX_VAR_OFF || off->r.smin <= -PTR_MAX_VAR_OFF)
		VFAIL(VERDICT_UNSAFE, pc, "value %lld makes %s pointer be out of bounds",
		      (long long)off->r.smin, t);
	if (range_is_const(&ptr->r) &&
	    (ptr->r.smin >= PTR_MAX_VAR_OFF || ptr->r.smin <= -PTR_MAX_VAR_OFF))
		VFAIL(VERDICT_UNSAFE, pc, "%s pointer offset %lld is not allowed", t,
		      (long long)ptr->r.smin);
}

/* adjust_reg_min_max_vals and adjust_ptr_min_max_vals (6.18, privileged): what an ALU
 * instruction may do with a pointer.  Copies, negation, byte swaps and sign extensions of a
 * pointer give a scalar; so does a subtraction of two pointers (any types) and a 32-bit
 * subtraction with a pointer.  Every other 32-bit operation with a pointer is refused; so are
 * two pointers combined otherwise, arithmetic on a pointer that may be NULL, on the packet's end
 * or on a map handle (but adding 0), a scalar less a pointer, a subtraction from a stack
 * pointer, and every operation but addition and subtraction; the offsets as verify_sane_off
 * says.  A value that may be a pointer or a number (TOP: a join of both, bytes this analysis
 * lost track of; what the kernel reads as numbers is a scalar here, absint_scalar_bytes) is
 * judged as the kernel reads it: added to a pointer, refused whichever it is (pointer +=
 * pointer; a number this analysis cannot bound, unbounded); every operator but + and -, and
 * arithmetic on a pointer that may be NULL, on pkt_end or on a map handle, refused as well; a
 * subtraction with a pointer, which the kernel takes of two pointers and refuses of an
 * unbounded number, unsupported.  Two TOPs or a TOP and a number are not judged (no pointer
 * known).  A kernel object's offsets keep 2^29 both ways (check_reg_sane_offset on what the
 * struct's accesses need). */
static void verify_ptr_alu(struct scev_verdict *v, const struct astate *s, uint32_t pc,
			   const struct bpf_insn *i)
{
	const struct aval *d = &s->regs[i->dst_reg];
	struct aval imm = aval_const((uint64_t)(int64_t)i->imm);
	bool x = ebpf_srcbit(i) == BPF_X, w64 = ebpf_class(i) == BPF_ALU64;
	const struct aval *src = x ? &s->regs[i->src_reg] : &imm;
	bool dp = d->kind == AV_PTR, sp = src->kind == AV_PTR;
	const struct aval *ptr = dp ? d : src, *off = dp ? src : d;
	uint8_t op = ebpf_op(i);
	unsigned reg = i->dst_reg;

	if (op == BPF_MOV || op == BPF_NEG || op == BPF_END)
		return;
	if (!dp && !sp)
		return;	/* (no pointer known: see above) */
	if (op == BPF_SUB && (!w64 || (dp && sp)))
		return;
	if (!w64)
		VFAIL(VERDICT_UNSAFE, pc, "R%u 32-bit pointer arithmetic prohibited", reg);
	if (dp && sp)
		VFAIL(VERDICT_UNSAFE, pc, "R%u pointer %s pointer prohibited", reg, alu_str[op >> 4]);
	if (ptr->maybe_null)
		VFAIL(VERDICT_UNSAFE, pc, "R%u pointer arithmetic on %s prohibited, null-check it "
		      "first", reg, ptr->region == REGION_MAP_VALUE ? "map_value_or_null"
			: "a pointer that may be NULL");
	if (ptr->region == REGION_PKT_END || ptr->region == REGION_SOCK ||
	    (ptr->region == REGION_MAP_HANDLE &&
	     !(op == BPF_ADD && aval_is_const(off, NULL) && off->r.umin == 0)))
		VFAIL(VERDICT_UNSAFE, pc, "R%u pointer arithmetic on %s prohibited", reg,
		      ptr_type_name(ptr));
	if (off->kind == AV_TOP) {
		if (op == BPF_ADD)
			VFAIL(VERDICT_UNSAFE, pc, "R%u pointer += pointer prohibited (R%u may be a "
			      "pointer; as a number, math between %s pointer and register with "
			      "unbounded min value is not allowed)", reg, dp ? i->src_reg : i->dst_reg,
			      ptr_type_name(ptr));
		if (op == BPF_SUB)
			VFAIL(VERDICT_UNSUPPORTED, pc, "R%u %s a %s pointer where R%u may be a pointer "
			      "or a number (the kernel takes a pointer less a pointer, refuses an "
			      "unbounded number)", reg, dp ? "-= on" : "less", ptr_type_name(ptr),
			      dp ? i->src_reg : i->dst_reg);
	}
	if (op == BPF_AND || op == BPF_OR || op == BPF_XOR)
		VFAIL(VERDICT_UNSAFE, pc, "R%u bitwise operator %s on pointer prohibited", reg,
		      alu_str[op >> 4]);
	if (op != BPF_ADD && op != BPF_SUB)
		VFAIL(VERDICT_UNSAFE, pc, "R%u pointer arithmetic with %s operator prohibited", reg,
		      alu_str[op >> 4]);
	verify_sane_off(v, pc, ptr, off);
	if (v->kind != VERDICT_SAFE)
		return;
	if (op == BPF_SUB && !dp)
		VFAIL(VERDICT_UNSAFE, pc, "R%u tried to subtract pointer from scalar", reg);
	if (op == BPF_SUB && (ptr->region == REGION_STACK || ptr->region == REGION_CALLER_STACK))
		VFAIL(VERDICT_UNSAFE, pc, "R%u subtraction from stack pointer prohibited", reg);
	if (range_is_const(&ptr->r) && range_is_const(&off->r)) {
		/* (the result, a constant offset: check_reg_sane_offset of dst_reg) */
		struct aval res = *ptr, zero = aval_const(0);

		res.r = range_const((uint64_t)(op == BPF_ADD ? ptr->r.smin + off->r.smin
							     : ptr->r.smin - off->r.smin));
		verify_sane_off(v, pc, &res, &zero);
		if (v->kind != VERDICT_SAFE)
			return;
	}
	if (ptr->region == REGION_BTF &&
	    (ptr->r.smin <= -PTR_MAX_VAR_OFF || ptr->r.smax >= PTR_MAX_VAR_OFF ||
	     off->r.smax >= PTR_MAX_VAR_OFF ||
	     (op == BPF_ADD ? ptr->r.smax + off->r.smax >= PTR_MAX_VAR_OFF ||
			      ptr->r.smin + off->r.smin <= -PTR_MAX_VAR_OFF
			    : ptr->r.smax - off->r.smin >= PTR_MAX_VAR_OFF ||
			      ptr->r.smin - off->r.smax <= -PTR_MAX_VAR_OFF)))
		VFAIL(VERDICT_UNSAFE, pc, "a kernel object (PTR_TO_BTF_ID) offset out of bounds "
		      "(2^29)");
}

/* check_alu_op's refusals of an immediate operand, wherever the verifier reaches the
 * instruction: a division or modulo by 0 and a shift by an amount outside [0, width).  The ISA
 * defines both (0 or the dividend; the amount masked), so no run tells: the interpreter notes
 * such an instruction when it runs one (interp_result.refused). */
static void verify_alu_imm(struct scev_verdict *v, uint32_t pc, const struct bpf_insn *i)
{
	int32_t width = ebpf_class(i) == BPF_ALU64 ? 64 : 32;
	uint8_t op = ebpf_op(i);

	if (ebpf_srcbit(i) != BPF_K)
		return;
	if ((op == BPF_DIV || op == BPF_MOD) && i->imm == 0)
		VFAIL(VERDICT_UNSAFE, pc, "div by zero (%s by the immediate 0)",
		      op == BPF_DIV ? "a division" : "a modulo");
	if ((op == BPF_LSH || op == BPF_RSH || op == BPF_ARSH) && (i->imm < 0 || i->imm >= width))
		VFAIL(VERDICT_UNSAFE, pc, "invalid shift %d (an immediate amount outside [0, %d))",
		      i->imm, width);
}

/* A store of a pointer anywhere but the stack, as check_mem_access and check_atomic refuse it
 * from a loader without CAP_PERFMON (is_pointer_value; the privileged kernel stores it, and a
 * load reads it back as a number: absint_scalar_bytes). */
static void verify_leak(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			uint32_t pc, const struct bpf_insn *i)
{
	const struct aval *a = &s->regs[i->dst_reg], *b = &s->regs[i->src_reg];
	bool rmw = ebpf_mode(i) == BPF_ATOMIC && i->imm != BPF_STORE_REL;
	const char *into;

	/* (a spill of a pointer is no leak; an atomic operation's operand anywhere is) */
	if (!cx->opts.unprivileged || ebpf_class(i) != BPF_STX || a->kind != AV_PTR ||
	    (!rmw && (a->region == REGION_STACK || a->region == REGION_CALLER_STACK)))
		return;
	switch (rmw ? REGION_STACK : a->region) {
	case REGION_STACK: into = "mem"; break;	/* (check_atomic) */
	case REGION_MAP_VALUE: into = "map"; break;
	case REGION_CTX: into = "ctx"; break;
	case REGION_PKT: case REGION_PKT_META: into = "packet"; break;
	default: into = "mem"; break;
	}
	if (b->kind == AV_TOP)
		VFAIL(VERDICT_UNSUPPORTED, pc, "R%u may be a pointer: the unprivileged kernel refuses "
		      "it stored into %s (R%u leaks addr into %s)", i->src_reg, into, i->src_reg,
		      into);
	if (b->kind == AV_PTR)
		VFAIL(VERDICT_UNSAFE, pc, "R%u leaks addr into %s", i->src_reg, into);
}

/* check_return_code for the BTF-context programs: fentry and fexit return 0; an LSM program
 * what its hook's callers take, [-MAX_ERRNO, 0] for an int hook, [0, 1] for a bool one, anything
 * for a void one (bpf_lsm_get_retval_range); fmod_ret and tp_btf programs anything.  LSM
 * ranges are checked on the low 32 bits (the kernel's return_32bit, 6.12 on: clang returns an int
 * as w0 = -EPERM; before 6.12 the kernel took any value), fentry/fexit's on all 64. */
static void verify_btf_return(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			      uint32_t pc)
{
	const struct ebpf_btf_ctx *bc = &cx->prog->btf_ctx;
	const struct aval *r0 = &s->regs[0];
	int64_t lo = 0, hi = 0, smin, smax;
	const char *what;
	bool w32 = false;

	if (!ebpf_prog_type_btf_ctx(cx->prog_type) || !bc->attach_btf_id)
		return;
	switch (bc->attach_type) {
	case BPF_TRACE_FENTRY: case BPF_TRACE_FEXIT:
		what = "fentry/fexit";
		break;
	case BPF_TRACE_ITER:	/* (check_return_code's default range) */
		what = "an iterator";
		hi = 1;
		break;
	case BPF_LSM_MAC:
		if (bc->ret == EBPF_BTF_RET_VOID)
			return;
		if (bc->ret != EBPF_BTF_RET_BOOL && bc->ret != EBPF_BTF_RET_INT)
			VFAIL(VERDICT_UNSUPPORTED, pc, "the return range of an LSM hook that returns "
			      "neither an integer nor a bool is not modeled");
		what = bc->ret == EBPF_BTF_RET_BOOL ? "an LSM hook returning bool"
						    : "an LSM hook returning int";
		lo = bc->ret == EBPF_BTF_RET_BOOL ? 0 : -4095;
		hi = bc->ret == EBPF_BTF_RET_BOOL ? 1 : 0;
		w32 = true;
		break;
	default:
		return;
	}
	if (r0->kind != AV_SCALAR)
		VFAIL(VERDICT_UNSAFE, pc, "At program exit the register R0 is not a known value (%s: "
		      "[%lld, %lld])", what, (long long)lo, (long long)hi);
	smin = w32 ? r0->r.s32_min : r0->r.smin;
	smax = w32 ? r0->r.s32_max : r0->r.smax;
	if (smin < lo || smax > hi)
		VFAIL(VERDICT_UNSAFE, pc, "At program exit R0 in s%s[%lld, %lld], should have been in "
		      "[%lld, %lld] (%s)", w32 ? "32" : "", (long long)smin, (long long)smax,
		      (long long)lo, (long long)hi, what);
}

/* check_stack_write_fixed_off: a pointer goes to the stack (this frame's or a caller's) only as
 * a whole 8-byte spill ("invalid size of register spill"); the interpreter cannot tell a pointer
 * from a number by its bits, so only the kernel judges this (test_ctx_fields' spills).  At a
 * variable offset the kernel stores any register's bytes as a number's
 * (check_stack_write_var_off: corpus spill_ptr_narrow_var_off). */
static void verify_narrow_spill(struct scev_verdict *v, const struct astate *s, uint32_t pc,
				const struct bpf_insn *i)
{
	const struct aval *d = &s->regs[i->dst_reg], *src = &s->regs[i->src_reg];
	unsigned bytes = ebpf_size_bytes(ebpf_size(i));

	if (ebpf_class(i) != BPF_STX || ebpf_mode(i) != BPF_MEM || d->kind != AV_PTR ||
	    (d->region != REGION_STACK && d->region != REGION_CALLER_STACK) ||
	    !range_is_const(&d->r))
		return;
	/* a pointer into a stack never goes to a caller's frame ("cannot spill pointers to
	 * stack into stack frame of the caller"; corpus spill_stack_ptr_caller_frame_unsafe) */
	if (bytes == 8 && d->region == REGION_CALLER_STACK && src->kind == AV_PTR &&
	    (src->region == REGION_STACK || src->region == REGION_CALLER_STACK))
		VFAIL(aval_caller_self(d->map) ? VERDICT_UNSUPPORTED : VERDICT_UNSAFE, pc,
		      "cannot spill pointers to stack into stack frame of the caller (R%u, a stack "
		      "pointer, stored through R%u)", i->src_reg, i->dst_reg);
	if (bytes == 8)
		return;
	if (src->kind == AV_PTR)
		VFAIL(VERDICT_UNSAFE, pc, "invalid size of register spill (R%u, a pointer, stored in "
		      "%u bytes)", i->src_reg, bytes);
	if (src->kind == AV_TOP)
		VFAIL(VERDICT_UNSUPPORTED, pc, "R%u may be a pointer, stored in %u bytes of the stack "
		      "(the kernel refuses a pointer's narrow spill)", i->src_reg, bytes);
}

/* check_stack_read_fixed_off: a slot holding a spilled pointer is read back only whole ("invalid
 * size of register fill"); a spilled number may be read in any size.  Constant offset, this
 * frame's or a caller's (a callee reading what its caller spilled, a bpf_loop callback through
 * its context: absint_cb_nums_over, its own frame too where the pointer may be into it).  The
 * kernel walks the paths apart, so a slot that holds the pointer on one path is refused as one
 * that holds it on all: unsafe where a cell of the slot holds a pointer on every path,
 * unsupported where one holds a value of no known kind (a join of a pointer and a number or
 * another pointer keeps it so: astate__join_regs) or, in a caller's frame, where bytes no cell
 * places may hold one (absint_spill_may: a store of a pointer reached the slot); a slot a
 * narrow store cut holds numbers (stack_spill).  The runs cannot tell a pointer's bytes from a
 * number's: only the kernel judges this (corpus fill_ptr_narrow*, fill_join_ptr_narrow*,
 * callee_fill_caller_ptr*). */
static void verify_narrow_fill(struct scev_ctx *cx, struct scev_verdict *v,
			       const struct astate *s, uint32_t pc, const struct bpf_insn *i)
{
	const struct aval *p = &s->regs[i->src_reg];
	unsigned bytes = ebpf_size_bytes(ebpf_size(i));
	bool caller = p->region == REGION_CALLER_STACK;
	enum nums_over k = NUMS_ALL, ks = NUMS_ALL;
	int64_t off, slot;

	if (bytes == 8 || p->kind != AV_PTR || p->maybe_null || !range_is_const(&p->r) ||
	    (p->region != REGION_STACK && !caller))
		return;
	off = (int64_t)p->r.umin + i->off;
	slot = off - ((off % 8) + 8) % 8;
	if (caller)
		k = absint_cb_nums_over(cx, p, slot, slot + 8);
	if (caller && aval_caller_self(p->map) && aval_caller_lo(p, CALLER_SELF_IX) <= 0) {
		off = aval_caller_lo(p, CALLER_SELF_IX) + i->off;
		slot = off - ((off % 8) + 8) % 8;
	}
	/* (bytes no cell places here: no pointer on every path the kernel walks, which a join
	 * would have kept as a cell of no known kind: astate__kslot) */
	if (!caller || aval_caller_self(p->map))
		ks = astate__kslot(s, slot, 8, !cx->opts.unprivileged).ptr;
	k = ks > k ? ks : k;
	if (k == NUMS_PTR)
		VFAIL(VERDICT_UNSAFE, pc, "invalid size of register fill (%u bytes of the pointer "
		      "spilled at %sfp%lld)", bytes, caller ? "a caller's " : "", (long long)slot);
	if (k == NUMS_MAYBE)
		VFAIL(VERDICT_UNSUPPORTED, pc, "%u bytes read from %sfp%lld, a slot that may hold a "
		      "spilled pointer (the kernel reads a pointer's slot back only whole)", bytes,
		      caller ? "a caller's " : "", (long long)slot);
}

/* check_return_code for the types it bounds without a BTF context (ebpf_prog_ret_bool):
 * cgroup_skb, sock_ops, cgroup_sock and cgroup_device return 0 or 1 (on all 64 bits); a
 * cgroup_skb program attached for egress may also return 2 or 3, which its "cgroup_skb/egress"
 * section says to the loader: unsupported there. */
static void verify_prog_return(struct scev_ctx *cx, struct scev_verdict *v,
			       const struct astate *s, uint32_t pc)
{
	const struct aval *r0 = &s->regs[0];

	if (!ebpf_prog_ret_bool(cx->prog_type))
		return;
	if (r0->kind == AV_TOP)
		VFAIL(VERDICT_UNSUPPORTED, pc, "R0 at program exit may be a pointer (the kernel wants "
		      "a number in [0, 1])");
	if (r0->kind != AV_SCALAR)
		VFAIL(VERDICT_UNSAFE, pc, "At program exit the register R0 is not a known value "
		      "([0, 1])");
	if (r0->r.smin >= 0 && r0->r.smax <= 1)
		return;
	if (cx->prog_type == BPF_PROG_TYPE_CGROUP_SKB && r0->r.smin >= 0 && r0->r.smax <= 3 &&
	    cx->prog && !strcmp(cx->prog->section, "cgroup_skb/egress"))
		VFAIL(VERDICT_UNSUPPORTED, pc, "At program exit R0 in [%lld, %lld]: 2 and 3 only with "
		      "the egress attach type, which is not modeled", (long long)r0->r.smin,
		      (long long)r0->r.smax);
	VFAIL(VERDICT_UNSAFE, pc, "At program exit R0 in s[%lld, %lld], should have been in [0, 1] "
	      "(check_return_code)", (long long)r0->r.smin, (long long)r0->r.smax);
}

void absint_verify_return(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			  uint32_t pc)
{
	verify_btf_return(cx, v, s, pc);
	if (v->kind == VERDICT_SAFE)
		verify_prog_return(cx, v, s, pc);
}

static void verify_insn(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			uint32_t pc)
{
	const struct bpf_insn *i = &cx->insns[pc];
	uint32_t need = ebpf_regs_read(i);
	uint8_t cls = ebpf_class(i);

	if (v->kind != VERDICT_SAFE || (cx->th_fn && absint_throw_verify_insn(cx, v, s, pc)))
		return;
	/* a pointer into this frame or a caller's (aval.h: CALLER_SELF) goes to static functions
	 * only, which see it as one into callers' frames; what anything else would do with it is
	 * not placed (absint_step forgets this frame) */
	if (ebpf_is_call(i) &&
	    !(ebpf_is_pseudo_call(i) &&
	      !absint_global(cx, cx->st.cfg->blocks[cx->st.cfg->block_of[pc + 1 + i->imm]].func)))
		for (unsigned r = 1; r <= 5; r++)
			if (s->regs[r].kind == AV_PTR && s->regs[r].region == REGION_CALLER_STACK &&
			    aval_caller_self(s->regs[r].map))
				VFAIL(VERDICT_UNSUPPORTED, pc, "R%u, a pointer into this frame or a "
				      "caller's (joined at a loop header), given to a helper, kfunc or "
				      "global function", r);
	if ((absint_lock_verify_insn(cx, v, s, pc) || absint_cb_verify_insn(cx, v, s, pc) ||
	     absint_timer_verify_insn(cx, v, s, pc)) && v->kind != VERDICT_SAFE)
		return;
	/* (a region's rules: at its kfuncs, or where one may be open) */
	if (s->rg.phi || s->rg.rhi || ebpf_is_call(i))
		absint_region_verify_insn(cx, v, s, pc);
	if (v->kind != VERDICT_SAFE || absint_iter_verify_insn(cx, v, s, pc) ||
	    v->kind != VERDICT_SAFE)
		return;
	absint_kfunc_verify_insn(cx, v, s, pc);
	if (v->kind != VERDICT_SAFE)
		return;
	absint_ref_verify_insn(cx, v, s, pc);
	if (v->kind != VERDICT_SAFE || absint_dynptr_verify_insn(cx, v, s, pc))
		return;
	if (ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC && cx->prog &&
	    ebpf_prog_global(cx->prog, pc + 1 + (uint32_t)i->imm))
		VFAIL(VERDICT_UNSAFE, pc, "callback function not static (the global function %s() "
		      "given as a callback)", ebpf_prog_global(cx->prog, pc + 1 + (uint32_t)i->imm)->name);
	if (ebpf_is_exit(i) && absint_global(cx, cx->st.cfg->blocks[cx->st.cfg->block_of[pc]].func)) {
		/* a global function is verified as a program: its result a scalar */
		v->checks++;
		if (!(s->init & 1))
			VFAIL(VERDICT_UNSAFE, pc, "R0 !read_ok (a global function's result not written "
			      "on some path)");
		if (s->regs[0].kind == AV_TOP)
			VFAIL(VERDICT_UNSUPPORTED, pc, "R0 at a global function's exit may be a "
			      "pointer");
		if (s->regs[0].kind != AV_SCALAR)
			VFAIL(VERDICT_UNSAFE, pc, "At subprogram exit the register R0 is not a scalar "
			      "value");
		return;
	}
	if (ebpf_is_helper_call(i) && absint_cb_helper(i->imm))
		return;	/* (checked above) */
	if (ebpf_is_call(i)) {
		if (!ebpf_is_helper_call(i)) {
			const struct ebpf_global_func *g = ebpf_is_pseudo_call(i) ?
				absint_global(cx, cx->st.cfg->blocks[cx->st.cfg->block_of[
						pc + 1 + i->imm]].func) : NULL;

			if (g)
				verify_global_call(cx, v, s, pc, g);
			if (ebpf_is_pseudo_call(i) || absint_ref_kfunc(cx, pc) ||
			    absint_dynptr_kfunc(cx, pc) || absint_kfunc_plain(cx, pc))
				return;	/* (a static function's arguments are its to check; a
					 * reference kfunc's, absint_ref_verify_insn's; a dynptr
					 * kfunc's, absint_dynptr_verify_insn's; one modeled from
					 * its prototype, absint_kfunc_verify_insn's) */
			if (i->src_reg == BPF_PSEUDO_KFUNC_CALL && cx->prog &&
			    ebpf_prog_kfunc_name(cx->prog, pc))
				VFAIL(VERDICT_UNSUPPORTED, pc, "kfunc and indirect calls are not modeled "
				      "(%s is not in bpf/kfunc_table.c)",
				      ebpf_prog_kfunc_name(cx->prog, pc));
			VFAIL(VERDICT_UNSUPPORTED, pc, "kfunc and indirect calls are not modeled");
		}
		verify_helper(cx, v, s, pc, i->imm);
		return;
	}
	/* the exit of a static function the summaries found may leave r0 unwritten: its callers'
	 * r0 is unwritten after the call (absint_step), as the kernel passes it on */
	if (ebpf_is_exit(i) && cx->fn_r0 &&
	    cx->fn_r0[cx->st.cfg->blocks[cx->st.cfg->block_of[pc]].func] == FN_R0_UNSET)
		need &= ~1u;
	v->checks++;
	for (unsigned r = 0; r < EBPF_NREGS; r++)
		if ((need & (1u << r)) && !(s->init & (1u << r)))
			VFAIL(VERDICT_UNSAFE, pc, "R%u may be read before it is written (not written on some path)", r);
	/* (check_reg_arg, where the walk meets it: a valid encoding, bpf/isa.h) */
	if (ebpf_writes_fp(i))
		VFAIL(VERDICT_UNSAFE, pc, "frame pointer is read only (a write to r10)");
	if (ebpf_is_exit(i) && cx->st.cfg->blocks[cx->st.cfg->block_of[pc]].func == 0) {
		verify_btf_return(cx, v, s, pc);
		verify_prog_return(cx, v, s, pc);
	}
	/* (the kernel's prepare_func_exit: not even a pointer into a caller's frame) */
	else if (ebpf_is_exit(i) && s->regs[0].kind == AV_PTR &&
		 (s->regs[0].region == REGION_STACK || s->regs[0].region == REGION_CALLER_STACK))
		VFAIL(VERDICT_UNSAFE, pc, "cannot return stack pointer to the caller");
	if (cls == BPF_ALU || cls == BPF_ALU64) {
		verify_alu_imm(v, pc, i);
		if (v->kind == VERDICT_SAFE)
			verify_ptr_alu(v, s, pc, i);
		return;
	}
	switch (cls) {
	case BPF_LD:
		if (!ebpf_is_ldimm64(i) && cx->ctx_model != EBPF_CTX_SKB)
			VFAIL(VERDICT_UNSAFE, pc, "legacy packet load outside a socket program");
		if (!ebpf_is_ldimm64(i) && !(s->regs[6].kind == AV_PTR && !s->regs[6].maybe_null &&
					     s->regs[6].region == REGION_CTX))
			VFAIL(VERDICT_UNSAFE, pc, "legacy packet load needs the context in R6");
		return;
	case BPF_LDX:
		verify_access(cx, v, s, pc, i->src_reg, i->off, ebpf_size_bytes(ebpf_size(i)), false);
		if (v->kind == VERDICT_SAFE)
			verify_narrow_fill(cx, v, s, pc, i);
		return;
	case BPF_ST: case BPF_STX:
		if (ebpf_mode(i) == BPF_ATOMIC) {
			/* the kernel's atomic_ptr_type_ok: no atomic instruction (a load-acquire
			 * either) on the context or a packet, whatever it allows plain accesses */
			bool load = i->imm == BPF_LOAD_ACQ;
			unsigned r = load ? i->src_reg : i->dst_reg;
			const struct aval *p = &s->regs[r];

			if (p->kind == AV_PTR && (p->region == REGION_CTX || p->region == REGION_PKT ||
						  p->region == REGION_PKT_META))
				VFAIL(VERDICT_UNSAFE, pc, "BPF_ATOMIC %s R%u %s is not allowed (an atomic "
				      "instruction on the %s)", load ? "loads from" : "stores into", r,
				      p->region == REGION_CTX ? "ctx" : "pkt",
				      p->region == REGION_CTX ? "context" : "packet");
		}
		if (ebpf_mode(i) == BPF_ATOMIC && i->imm == BPF_LOAD_ACQ) {
			verify_access(cx, v, s, pc, i->src_reg, i->off, ebpf_size_bytes(ebpf_size(i)),
				      false);
			if (v->kind == VERDICT_SAFE)	/* (check_load_mem: a fill; aud25) */
				verify_narrow_fill(cx, v, s, pc, i);
			return;
		}
		verify_leak(cx, v, s, pc, i);
		if (v->kind != VERDICT_SAFE)
			return;
		if (ebpf_mode(i) == BPF_ATOMIC && i->imm == BPF_STORE_REL) {
			/* (check_store_reg: a store-release writes the stack as a plain store does,
			 * a spill; aud25) */
			struct bpf_insn st = *i;

			st.code = (uint8_t)(BPF_STX | BPF_MEM | ebpf_size(i));
			verify_narrow_spill(v, s, pc, &st);
		} else {
			verify_narrow_spill(v, s, pc, i);
		}
		if (v->kind != VERDICT_SAFE)
			return;
		verify_access(cx, v, s, pc, i->dst_reg, i->off, ebpf_size_bytes(ebpf_size(i)), true);
		if (ebpf_mode(i) == BPF_ATOMIC && i->imm != BPF_STORE_REL) {
			/* (check_atomic_rmw reads the memory first, as a fill: a slot holding a
			 * spilled pointer only whole, "invalid size of register fill"; the fill's
			 * base is the atomic's dst_reg; aud25) */
			struct bpf_insn rd = *i;

			rd.src_reg = i->dst_reg;
			verify_access(cx, v, s, pc, i->dst_reg, i->off, ebpf_size_bytes(ebpf_size(i)),
				      false);
			if (v->kind == VERDICT_SAFE)
				verify_narrow_fill(cx, v, s, pc, &rd);
		}
		return;
	default:
		return;
	}
}

/* Replays block b on s with the checks into v, up to its final jump or call, which it checks
 * but does not run (the caller sends s to the successors).  With ctx_kinds (one byte per slot
 * of the block), notes for each load or store whether its base was the context (bit 0) or
 * another pointer (bit 1): the kernel refuses an instruction that does both on different paths
 * (its save_aux_ptr_type, "same insn cannot be used with different pointers"). */
int absint_verify_run(struct engine *en, uint32_t b, struct astate *s, struct scev_verdict *v,
		      uint8_t *ctx_kinds, bool claims)
{
	struct scev_ctx *cx = en->cx;
	const struct scev_block *blk = &cx->st.cfg->blocks[b];
	int err = 0;

	for (uint32_t pc = blk->first; pc <= blk->last && !err;
	     pc += ebpf_insn_slots(&cx->insns[pc])) {
		const struct bpf_insn *i = &cx->insns[pc];
		uint8_t cls = ebpf_class(i);

		verify_insn(cx, v, s, pc);
		if (claims)
			absint_put_claims(en, s, pc);
		if (ctx_kinds && (cls == BPF_LDX || cls == BPF_ST || cls == BPF_STX)) {
			const struct aval *a = &s->regs[cls == BPF_LDX ? i->src_reg : i->dst_reg];

			if (a->kind == AV_PTR)
				ctx_kinds[pc - blk->first] |= a->region == REGION_CTX ? 1
							      : a->region == REGION_BTF ? 4 : 2;
		}
		if (pc == blk->last && ebpf_is_jmp(i))
			break;
		err = absint_step(en, s, pc);
	}
	return err;
}

/* After every block's checks: no instruction is unreachable, and every loop that can run must
 * be bounded. */
int absint_verify_loops(struct engine *en)
{
	struct scev_ctx *cx = en->cx;
	struct scev_verdict *v = cx->verdict;
	struct claim_text_buf rb;
	int err = 0;

	/* the kernel's check_cfg, before it verifies anything: an instruction no path from its
	 * function's entry reaches, following both arms of every branch whatever the values
	 * (clang leaves a jump after an exit: "unreachable insn 6") */
	for (uint32_t b = 0; b < cx->st.cfg->nblocks; b++)
		if (!cx->st.cfg->blocks[b].reachable && !absint_throw_kernel_reach(cx, b)) {
			verdict_fail(v, VERDICT_UNSAFE, cx->st.cfg->blocks[b].first, "unreachable insn "
				     "%u (the kernel refuses code no path from the entry reaches)",
				     cx->st.cfg->blocks[b].first);
			break;
		}

	for (uint32_t l = 0; l < cx->st.loops->nloops && !err; l++) {
		const struct scev_loop *L = &cx->st.loops->loops[l];
		uint32_t hpc = cx->st.cfg->blocks[L->header].first;
		const struct claim_trip *t = loop_trip(en, l);

		/* (every cycle of a loop at its own level passes its header: an irreducible loop
		 * that never reaches it cannot go round) */
		if (!en->reached[L->header])
			continue;
		/* (a loop the may_goto budget ends terminates as the kernel runs it) */
		if (t->kind == TRIP_UNKNOWN && !t->ends_by && v->kind == VERDICT_SAFE) {
			const char *why = claim_trip_reason(t, &rb);

			v->kind = absint_iter_loop_unmodeled(en, l) ? VERDICT_UNSUPPORTED
								     : VERDICT_UNSAFE;
			v->pc = hpc;
			snprintf(v->reason, sizeof(v->reason), "loop at %u may not terminate: %s", hpc,
				 why[0] ? why : "no bound");
		}
	}
	return err;
}
