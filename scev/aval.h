/* Abstract values of locations for the forward analysis: a scalar with a range, a pointer into
 * a region with a range of offsets, or TOP (anything, pointer or not).
 *
 * Pointer offsets are relative to the region's base: the frame's r10 for the stack (so fp-8 is
 * offset -8), the start of the context, packet, packet end or packet metadata, the start of a map
 * value element.  A maybe_null pointer may also be the scalar 0 (a map lookup before its null
 * check).  Operations follow the ISA's run-time semantics; pointer arithmetic keeps the region
 * only where the result certainly stays a pointer into it (pointer ± scalar), and everything
 * else that involves a pointer gives TOP.
 */
#ifndef BPFSCEV_SCEV_AVAL_H
#define BPFSCEV_SCEV_AVAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "claims/claims.h"
#include "claims/range.h"

enum aval_kind { AV_SCALAR, AV_PTR, AV_TOP };

/* A pointer into the frame of another function on the call chain: a bpf_loop callback's ctx
 * (absint_callbacks.c), map = that function's id.  The analyzer's own region, never in claims:
 * no oracle can tell which frame of a run it means. */
#define REGION_CALLER_STACK 32
/* Its map may also be a set of such functions: CALLER_SET | a mask of frame slots below 14 (a
 * pointer into one of those frames, which one not known: a callee called from two frames with
 * a pointer into each, the kernel's frame numbers joined), or CALLER_ANY (any frame of the call
 * chain: too many).  A function's slot (absint_frame_slot) is its id when below 14; a function of
 * id 14 and up whose frame may be passed down (one that calls) takes the slot of an id below 14
 * whose function calls nothing, whose frame no pointer of this region ever names; one with no
 * slot left is CALLER_ANY in a set.  A single frame of id 14 and up with a slot is the set of
 * that slot alone (aval_caller_ptr), so that a join with another frame stays a set; bit k of a
 * set is the function of slot k, one function.  Bit CALLER_SELF of a set is the frame of the
 * function whose state holds the pointer, its own r10's (a pointer into its frame joined with
 * one into a caller's at a loop header: verifier_loops1.c's bounded_loop_stack_frames_reg); it
 * becomes that function's slot wherever the pointer leaves the frame (a callee's argument or
 * view: aval_caller_rebase), and its accesses are those of the function's own stack as well
 * (absint_transfer.c, absint_verdict.c).  A plain REGION_STACK pointer joined with a
 * REGION_CALLER_STACK one is such a set. */
#define CALLER_SET 0x8000u
#define CALLER_ANY 0xffffu
#define CALLER_SELF_IX 14u
#define CALLER_SELF (1u << CALLER_SELF_IX)
#define CALLER_SLOT_NONE 0xffu	/* a function without a slot (absint_frame_slot) */
/* Whether a REGION_CALLER_STACK pointer with map m may point into function f's frame, f a
 * caller of the function holding it, slot k in sets (CALLER_SELF is not one; CALLER_SLOT_NONE:
 * none, never in a set). */
static inline bool aval_caller_may_at(uint16_t m, uint32_t f, uint32_t k)
{
	if (m == CALLER_ANY)
		return true;
	if (m & CALLER_SET)
		return k < CALLER_SELF_IX && (m >> k & 1);
	return m == f;
}
/* The same for callers that know no slots: a function of id 14 and up may be any set's (its
 * slot is not known here). */
static inline bool aval_caller_may(uint16_t m, uint32_t f)
{
	if (m != CALLER_ANY && (m & CALLER_SET) && f >= CALLER_SELF_IX)
		return true;
	return aval_caller_may_at(m, f, f);
}
/* Whether a REGION_CALLER_STACK map may point into the holder's own frame (CALLER_SELF). */
static inline bool aval_caller_self(uint16_t m)
{
	return m != CALLER_ANY && (m & CALLER_SET) && (m & CALLER_SELF);
}
/* A CALLER_SET pointer's id narrows one frame of its set, as the kernel keeps each frame's
 * offsets apart (one path each): frame id >> 12 holds offsets of at least r.smin + (id & 0xfff).
 * A join of pointers into two frames keeps the shallower one's own lower end this way (that
 * frame's depth is then its own accesses', not the deepest frame's).  0 narrows nothing;
 * dropping the id (every copy of a value into another frame does) only widens; p + x and p - x
 * keep it, both ends of every frame's offsets moving by x; the set's pointers take no range
 * refinement (aval.c: same_region), which would move r.smin alone. */
#define CALLER_NARROW_MAX 0xfffu
/* A set of n >= 3 frames (CALLER_SELF counted) narrows every frame at once: frame id >> 12 is
 * CALLER_MULTI and the low 12 bits hold, for the set's frames in the order of their bits, a
 * field of 12 / n bits each: the frame's offsets are at least r.smin + field * (512 >> (12 /
 * n)) (units of 32 bytes for 3 frames, 64 for 4; rounded down when made, so only wider).  As
 * the kernel, which keeps each frame's offsets on its own path, a join of pointers into three
 * frames keeps each frame's depth its own (caller_multi, aval.c). */
#define CALLER_MULTI 15u
/* What bpf_iter_num_next returns: the int cur of the iterator at r10 - (map & 0x7fff), its value
 * known while bit 0x8000 (stale: a later call on the iterator) is clear (absint_iter.c). */
#define REGION_ITER_VAL 33
/* (an ITER_VAL pointer's map: the slot's -offset, and this bit once a later call on its iterator
 * made the value it points to unknown: stale, absint_iter.c) */
#define AVAL_ITER_STALE 0x8000
/* The key a bpf_for_each_map_elem callback is given (its r2): key_size read-only bytes of the
 * map class map (absint_callbacks.c). */
#define REGION_MAP_KEY 34
/* A kernel object a BTF-typed context gives (PTR_TO_BTF_ID): a struct of the running kernel's
 * vmlinux BTF whose id is scev_ctx.btf_types[map].  Loads through it are the kernel's PROBE_MEM
 * loads, which cannot fault (NULL included): only their offset and size are checked, against the
 * struct's members (ebpf_btf_obj_access); stores are refused.  Never maybe_null: a comparison
 * with 0 keeps both arms. */
#define REGION_BTF 35
/* The memory a global function's pointer argument gives it (absint_global.c): map bytes, from
 * its BTF type (the kernel's PTR_TO_MEM of that size; maybe NULL until tested). */
#define REGION_GMEM 36
/* A ringbuf record bpf_ringbuf_reserve returned (the kernel's PTR_TO_MEM | MEM_RINGBUF with a
 * ref_obj_id): map = its reserve call, scev_ctx.ref_sites[map], whose size it has; valid while
 * the state holds that record (astate.ref, absint_ref.c). */
#define REGION_RINGBUF 37
/* The dynptr a bpf_user_ringbuf_drain callback is given (CONST_PTR_TO_DYNPTR, local: its r1): no
 * access through it; only the dynptr helpers take it (absint_callbacks.c). */
#define REGION_DYNPTR 38
/* The bytes bpf_dynptr_data, bpf_dynptr_slice or bpf_dynptr_slice_rdwr returned of a dynptr (the
 * kernel's PTR_TO_MEM of len bytes, maybe NULL until tested): map holds len (at most
 * DYNPTR_MEM_MAX), DYNPTR_MEM_RO when they are read-only (bpf_dynptr_slice's MEM_RDONLY) and
 * DYNPTR_MEM_PKT when they may be a packet dynptr's, which a move of the packet invalidates
 * (absint_dynptr.c). */
#define REGION_DYNPTR_MEM 39
#define DYNPTR_MEM_MAX 0x3fffu	/* the largest size it holds */
#define DYNPTR_SLICE_MAX DYNPTR_MEM_MAX
#define DYNPTR_MEM_PKT 0x4000u
#define DYNPTR_MEM_RO 0x8000u
/* A kernel object a kfunc acquired (absint_ref.c: bpf_task_acquire, bpf_cpumask_create; the
 * kernel's PTR_TO_BTF_ID | PTR_TRUSTED with a ref_obj_id): map = its acquire call,
 * scev_ctx.ref_sites[map], whose struct (ref_site.btf) it is; valid while the state holds it. */
#define REGION_KREF 40
/* A socket (the kernel's PTR_TO_SOCK_COMMON, PTR_TO_SOCKET, PTR_TO_TCP_SOCK): map & 3 its kind
 * (enum ebpf_sock_kind: which struct its loads read, bpf_sock or bpf_tcp_sock, by which rules:
 * ebpf_sock_access), map >> 2 the reference it holds: 0 none (skb->sk and the casts of it,
 * bpf_get_listener_sock's), k + 1 that of ref site k (a lookup's, scev_ctx.ref_sites; the casts
 * bpf_sk_fullsock and bpf_tcp_sock of a referenced socket share it, as the kernel's ref_obj_id),
 * valid while the state holds it (absint_ref.c).  No arithmetic: its offset is 0. */
#define REGION_SOCK 41

/* The range first: a value is mostly copied just after its range was written (a transfer's
 * result, a join's), and the copy moves 16 bytes at a time; with the 8 bytes below in front,
 * each of those loads spanned two of the stores that wrote the range and waited for them to
 * retire instead of taking their bytes (perf: aval_alu's copy of its result 1.2 % of the
 * campaign's time, 0.6 % with the range first). */
struct aval {
	struct range r;		/* value (scalar) or offset (pointer) */
	uint8_t kind;
	uint8_t region;		/* enum claim_region */
	bool maybe_null;
	uint8_t src : 7;	/* enum claim_source, for reports */
	/* A scalar that is one number on every path the kernel walks, though this value joins
	 * several (aval_kconst below); a packet pointer of an id without a variable part
	 * (aval_pkt_novar) */
	uint8_t kc : 1;
	uint16_t map;
	/* A maybe_null pointer's identity, as the kernel's register ids: every value holding
	 * id X equals the result of the latest run of the lookup that issued X (the call's pc,
	 * aval_null_id), so a null check of one copy settles them all.  0 for no identity. */
	uint16_t id;
};

/* A REGION_SOCK pointer's map (above): its kind, and the ref site it holds (-1: none). */
static inline uint16_t aval_sock_map(unsigned kind, int site)
{
	return (uint16_t)(kind | (unsigned)(site + 1) << 2);
}
static inline unsigned aval_sock_kind(const struct aval *a)
{
	return a->map & 3u;
}
/* the ref site whose reference socket a holds, or -1 */
static inline int aval_sock_site(const struct aval *a)
{
	return (int)(a->map >> 2) - 1;
}

/* The lowest offset a REGION_CALLER_STACK pointer a may have in function f's frame, f of slot k
 * in sets (k = CALLER_SELF_IX: the holder's own frame, CALLER_SELF; INT64_MAX: not one of its
 * frames; CALLER_NARROW_MAX above). */
static inline int64_t aval_caller_lo_at(const struct aval *a, uint32_t f, uint32_t k)
{
	uint32_t n12 = a->id & CALLER_NARROW_MAX;

	if (k == CALLER_SELF_IX ? !aval_caller_self(a->map) : !aval_caller_may_at(a->map, f, k))
		return INT64_MAX;
	if (a->map != CALLER_ANY && (a->map & CALLER_SET) && (uint32_t)(a->id >> 12) == CALLER_MULTI) {
		uint32_t m = a->map & 0x7fffu, n = (uint32_t)__builtin_popcount(m), bits, field;

		if (n < 3 || n > 12)
			return a->r.smin;
		bits = 12 / n;
		field = n12 >> (bits * (uint32_t)__builtin_popcount(m & ((1u << k) - 1))) &
			((1u << bits) - 1);
		if (a->r.smin > INT64_MAX - (int64_t)(field * (512u >> bits)))
			return a->r.smin;
		return a->r.smin + (int64_t)(field * (512u >> bits));
	}
	if (a->map != CALLER_ANY && (a->map & CALLER_SET) && n12 && (uint32_t)(a->id >> 12) == k &&
	    a->r.smin <= INT64_MAX - (int64_t)n12)
		return a->r.smin + (int64_t)n12;
	return a->r.smin;
}
/* The same with f a slot itself (aval.c's walks of a set's bits: a single frame's slot is its
 * id) or CALLER_SELF_IX. */
static inline int64_t aval_caller_lo(const struct aval *a, uint32_t f)
{
	return aval_caller_lo_at(a, f, f);
}

/* REGION_CALLER_STACK pointer a of some function's state as a callee of it sees it: its
 * CALLER_SELF frame is that function's, slot k (aval.h above; CALLER_SLOT_NONE: CALLER_ANY);
 * other values as they are. */
struct aval aval_caller_rebase(const struct aval *a, uint32_t k);
/* A pointer into function owner's frame, slot k, at offsets r, as a callee of owner sees it:
 * one frame (map owner), or the set of slot k alone for an id of 14 and up (aval.h above). */
struct aval aval_caller_ptr(uint32_t owner, uint32_t k, struct range r);

/* Packet pointers (REGION_PKT) use id and map otherwise, as the kernel tracks a packet pointer:
 * a fixed offset, a variable part (var_off, never below 0 where it is read: check_packet_access)
 * and an id, fresh at every pkt += var, whose holders alone a comparison with data_end gives a
 * range past their fixed offset (find_good_pkt_pointers).
 *  - id 0: no variable part on any path: data plus a number that is one constant on every path
 *    the kernel walks (r, the offsets of all of them: the kernel's fixed offset on each).
 *  - id X (aval_null_id of the pc of the instruction that issued it): the value is base_X + c,
 *    c = (int16_t)map, where base_X is what the latest run of that instruction took as base,
 *    every copy sharing X with its own c; c is at most the kernel's fixed offset, and by the
 *    same number on every holder of X; the variable part is not negative.  What a comparison
 *    with data_end proves of base_X is the state's (absint.h: pkt_var).  With kc, no variable
 *    part either (data + a constant per path, as id 0, a number that is no constant in this
 *    value added: base_X relates the holders, and data's bytes hold too).
 *  - AVAL_PKT_VAR: the same of a base not known (a join of pointers of different bases, a loop
 *    header, a call's boundary): c still a least fixed offset, nothing proven past the base.
 *  - AVAL_PKT_NEG: a variable part that may be negative (pkt -= var, pkt += a number that may
 *    be negative): the kernel refuses every access ("min value is negative").
 * aval_null_id issues neither of the last two. */
static inline int16_t aval_pkt_c(const struct aval *a)
{
	return a->id ? (int16_t)a->map : 0;
}
#define AVAL_PKT_VAR 0xfffeu
#define AVAL_PKT_NEG 0xfffdu
/* A least fixed offset of packet pointer a (the least of r where it has no variable part),
 * clamped to what c holds. */
static inline int16_t aval_pkt_fixed_lo(const struct aval *a)
{
	int64_t c = a->id ? aval_pkt_c(a) : a->r.smin;

	return (int16_t)(c < INT16_MIN ? INT16_MIN : c > INT16_MAX ? INT16_MAX : c);
}
/* Whether packet pointer a has no variable part (aval.h above: data + a constant per path). */
static inline bool aval_pkt_novar(const struct aval *a)
{
	return !a->id || (a->kc && a->id != AVAL_PKT_VAR && a->id != AVAL_PKT_NEG);
}
/* Drops a's identity: a packet pointer with a variable part keeps that it has one, and its
 * least fixed offset. */
static inline void aval_drop_id(struct aval *a)
{
	if (a->kind == AV_PTR && a->region == REGION_PKT && a->id) {
		if (aval_pkt_novar(a)) {
			a->id = 0;
			a->map = 0;
		} else if (a->id != AVAL_PKT_NEG) {
			a->id = AVAL_PKT_VAR;
		}
		a->kc = 0;
		return;
	}
	a->id = 0;
}

/* Whether scalar a is one number on every path the kernel walks: a constant, or (kc) a value
 * made only of constants by copies, joins and the operations the kernel keeps exact on constants
 * (absint_transfer.c: kc_alu), a loop counter of a constant start and step included, as the
 * kernel walks a loop iteration by iteration.  Not where the kernel widens: at an iterator's
 * next call, a may_goto and a callback (widen_imprecise_scalars; absint_transfer.c, the header
 * summary), nor what memory, a helper or an argument of unknown source gives (every
 * constructor clears it).  data + such a value is data plus a fixed offset for the kernel (id
 * 0, aval.h below), any other number added to a packet pointer a variable part. */
static inline bool aval_kconst(const struct aval *a)
{
	return a->kind == AV_SCALAR && (a->kc || range_is_const(&a->r));
}

/* A scalar may carry a relation to the packet's length L = data_end - data, as PREVAIL's
 * relational packet bounds (the kernel has none): region REGION_PKT_END on a scalar says
 * value + c <= L as integers, with c = map.  data_end - (data + c) makes it when c bytes are
 * proven (so the difference does not wrap), unsigned comparisons pass it on (i < len: i + c +
 * 1 <= L), copies, spills of 8 bytes and joins of two holders keep it; every other operation
 * makes a value without it, and the states drop it wherever the packet may move. */
#define AVAL_PKT_LEN_MAX 0xffff

static inline bool aval_pkt_len(const struct aval *a, uint16_t *c)
{
	if (a->kind != AV_SCALAR || a->region != REGION_PKT_END)
		return false;
	if (c)
		*c = a->map;
	return true;
}

/* Gives scalar a the relation value + c <= L (the stronger of c and the one it has). */
void aval_set_pkt_len(struct aval *a, uint64_t c);
/* The scalar a without a relation to the packet's length (other values as they are). */
void aval_drop_pkt_len(struct aval *a);

/* (The constructors are inline: the transfer and the joins build values at most steps.  Each
 * clears the whole value first, padding included, as they did: is_top compares bytewise.) */
static const struct aval aval_top_value = {
	.r = { 0, UINT64_MAX, INT64_MIN, INT64_MAX, 0, UINT32_MAX, INT32_MIN, INT32_MAX,
	       { 0, UINT64_MAX } },	/* (range_unknown()) */
	.kind = AV_TOP,
};
/* (a copy of a constant: built in place, field by field, each copy of it out waited for the
 * narrower stores it reads, a stall the 11 registers of every function's entry state took) */
static inline struct aval aval_top(void)
{
	return aval_top_value;
}

static inline struct aval aval_scalar(struct range r)
{
	struct aval a;

	memset(&a, 0, sizeof(a));
	a.kind = AV_SCALAR;
	a.r = r;
	return a;
}

static inline struct aval aval_const(uint64_t v)
{
	return aval_scalar(range_const(v));
}

static inline struct aval aval_ptr(uint8_t region, uint16_t map, struct range off)
{
	struct aval a;

	memset(&a, 0, sizeof(a));
	a.kind = AV_PTR;
	a.region = region;
	a.map = map;
	a.r = off;
	return a;
}

/* A scalar of exactly one value (*v, when v).  Inline, as aval_equal: the joins and the
 * transfer ask them of most values they meet. */
static inline bool aval_is_const(const struct aval *a, uint64_t *v)
{
	if (a->kind != AV_SCALAR || !range_is_const(&a->r))
		return false;
	if (v)
		*v = a->r.umin;
	return true;
}
/* The identity a lookup at pc gives its result (never 0; ids of two sites may coincide, which
 * only loses precision: a new result takes the id from every older holder). */
uint16_t aval_null_id(uint32_t pc);
static inline bool aval_equal(const struct aval *a, const struct aval *b)
{
	uint16_t ca, cb;
	bool la, lb;

	if (a->kind != b->kind)
		return false;
	if (a->kind == AV_TOP)
		return true;
	if (a->kind == AV_PTR && (a->region != b->region ||
				  (a->map != b->map && a->region != REGION_PKT) ||
				  a->maybe_null != b->maybe_null || a->id != b->id ||
				  aval_pkt_c(a) != aval_pkt_c(b) || a->kc != b->kc))
		return false;
	/* scalars: the same relation to the packet's length, or none on both */
	la = aval_pkt_len(a, &ca);
	lb = aval_pkt_len(b, &cb);
	if (la != lb || (la && ca != cb) || !range_equal(&a->r, &b->r))
		return false;
	/* (of equal ranges and kinds, aval_kconst differs only where kc does) */
	return a->kc == b->kc || aval_kconst(a) == aval_kconst(b);
}
bool aval_subset(const struct aval *a, const struct aval *b);
struct aval aval_join(const struct aval *a, const struct aval *b);
struct aval aval_widen(const struct aval *prev, const struct aval *next);

/* ALU at run-time semantics (op BPF_ADD..BPF_ARSH, BPF_MOV); sign for sdiv/smod. */
struct aval aval_alu(uint8_t op, bool is64, bool sign, const struct aval *a, const struct aval *b);
struct aval aval_neg(const struct aval *a, bool is64);
struct aval aval_zext(const struct aval *a, unsigned bytes);
struct aval aval_sext(const struct aval *a, unsigned bytes);
struct aval aval_bswap(const struct aval *a, unsigned bits);
/* a + k*step for k in [kmin, kmax] (recurrence ranges; pointers shift their offset). */
struct aval aval_add_scaled(const struct aval *a, uint64_t step, uint64_t kmin, uint64_t kmax,
			    unsigned width);
struct aval aval_add_accum(const struct aval *a, const struct aval *d, uint64_t kmin,
			   uint64_t kmax, bool is64);
/* Narrows a and b for the branch 'a op b' taken or not; returns false when the edge cannot be
 * taken (some refined range is empty). */
bool aval_refine(uint8_t op, bool is32, bool taken, struct aval *a, struct aval *b);
/* 1 always, 0 never, -1 unknown. */
int aval_branch_outcome(uint8_t op, bool is32, const struct aval *a, const struct aval *b);

#endif
