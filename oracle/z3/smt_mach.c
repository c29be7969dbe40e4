/* The BPF machine over Z3 terms (see smt_mach.h): one function per kind of instruction, each a
 * transcription of the interpreter's handler (oracle/exec/interp_loop.inc and the out-of-line paths
 * in interp.c) — same order of checks, same trap conditions, same results — so that
 * tests/test_smt.c can hold the two against each other on random states.
 */
#include "oracle/z3/smt_mach.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "bpf/helper_proto.h"

#define MAP_STORAGE_MAX (256ull << 20)	/* interp.c: per-run storage of one map */
/* The CPUs of a run and the one it runs on: interp_env's defaults (ncpus 0, cpu 0), the
 * replay's (oracle_check sets neither). */
#define MACH_NCPUS INTERP_NCPUS
#define MACH_CPU 0u

static sxt bv64(struct mach *m, uint64_t v) { return sx_bv(m->c, v, 64); }
static sxt lo32(struct mach *m, sxt a) { return sx_extract(m->c, 31, 0, a); }
static sxt z64(struct mach *m, sxt a) { return sx_zext(m->c, 64, a); }

static enum mach_map_kind map_kind(uint32_t type)
{
	switch (type) {
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
		return MACH_MAP_ARRAY;
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
		return MACH_MAP_HASH;
	default:
		return MACH_MAP_OTHER;
	}
}

int mach_init(struct mach *m, struct sx *c, const struct ebpf_prog *prog,
	      const struct ebpf_object *obj, enum interp_ctx_kind kind, uint64_t input_len)
{
	memset(m, 0, sizeof(*m));
	if (kind > INTERP_CTX_SKB)
		return -EOPNOTSUPP;	/* the read-only contexts are not encoded */
	m->c = c;
	m->prog = prog;
	m->insns = prog->insns;
	m->len = prog->len;
	m->ctx_kind = kind;
	m->input_len = input_len;
	m->nmaps = obj ? obj->map_cnt : 0;
	if (m->nmaps > INTERP_MAX_MAPS)
		m->nmaps = INTERP_MAX_MAPS;
	for (size_t k = 0; k < m->nmaps && k < MACH_MAX_MAPS; k++) {
		const struct ebpf_map_def *d = &obj->maps[k];
		struct mach_map *mm = &m->maps[k];

		mm->def = *d;
		mm->kind = map_kind(d->type);
		mm->shift = interp_map_shift(d);
		/* The storage interp.c's map_storage() gives on first use. */
		if (mm->kind == MACH_MAP_ARRAY) {
			uint64_t n = (uint64_t)d->max_entries * d->value_size;

			mm->len = n && n <= MAP_STORAGE_MAX ? n : 0;
			mm->nval = mm->len ? d->max_entries : 0;
		} else if (mm->kind == MACH_MAP_HASH) {
			uint32_t cap = d->max_entries < INTERP_HASH_CAP ? d->max_entries : INTERP_HASH_CAP;

			if (d->value_size && d->key_size && d->value_size <= (1u << 20) &&
			    d->key_size <= (1u << 16) && cap) {
				mm->len = (uint64_t)cap * d->value_size;
				mm->nval = cap;
			}
		}
	}
	for (size_t pc = 0; pc < m->len; pc += ebpf_insn_slots(&m->insns[pc]))
		if (ebpf_is_call(&m->insns[pc]) && m->insns[pc].src_reg == 0 &&
		    (m->insns[pc].imm == BPF_FUNC_ringbuf_reserve_dynptr ||
		     m->insns[pc].imm == BPF_FUNC_ringbuf_submit_dynptr ||
		     m->insns[pc].imm == BPF_FUNC_ringbuf_discard_dynptr))
			m->any_rb = true;
		else if (ebpf_is_call(&m->insns[pc]) && m->insns[pc].src_reg == 0 &&
			 m->insns[pc].imm == BPF_FUNC_map_lookup_percpu_elem)
			m->pcpu = true;
	m->helper = sx_fresh_mem(c, "helper");
	m->input0 = sx_fresh_mem(c, "input");
	m->poison = bv64(m, INTERP_POISON);
	return sx_failed(c) ? -ENOMEM : 0;
}

/* A map's storage as a run starts: zero, entry 0 from def.init. */
static sxt map_initial(struct mach *m, size_t k)
{
	const struct ebpf_map_def *d = &m->maps[k].def;
	sxt a = sx_mem_const(m->c, 0);

	if (m->maps[k].kind == MACH_MAP_ARRAY && d->init)
		for (uint32_t i = 0; i < d->value_size && i < m->maps[k].len; i++)
			if (d->init[i])
				a = sx_store(m->c, a, bv64(m, i), sx_bv(m->c, d->init[i], 8));
	return a;
}

/* Map k is a per-CPU map whose other CPUs' copies a run can hold (interp.c: pcpu_storage). */
static bool pcpu_held(const struct mach *m, size_t k)
{
	const struct mach_map *mm = &m->maps[k];
	uint32_t t = mm->def.type;

	return (t == BPF_MAP_TYPE_PERCPU_ARRAY || t == BPF_MAP_TYPE_PERCPU_HASH ||
		t == BPF_MAP_TYPE_LRU_PERCPU_HASH) &&
	       mm->len && mm->len <= MAP_STORAGE_MAX / MACH_NCPUS;
}

sxt mach_may_goto_budget(struct mach *m)
{
	return m->any_may_goto ? sx_fresh(m->c, "mg", 64) : bv64(m, INTERP_MAY_GOTO_BUDGET);
}

void mach_entry_state(struct mach *m, struct mstate *st)
{
	struct sx *c = m->c;

	memset(st, 0, sizeof(*st));
	st->guard = sx_true(c);
	for (int k = 0; k < EBPF_NREGS; k++)
		st->r[k] = bv64(m, 0);
	st->r[1] = bv64(m, INTERP_VA_CTX);
	st->r[10] = bv64(m, INTERP_VA_STACK + EBPF_STACK_SIZE);
	st->stack[0] = sx_mem_const(c, 0);
	st->input = m->input0;
	st->maygoto[0] = mach_may_goto_budget(m);
	st->iters[0] = bv64(m, 0);
	st->hpos = bv64(m, 0);
	if (m->ctx_kind == INTERP_CTX_PLAIN)
		st->r[2] = bv64(m, m->input_len);
	if (m->ctx_kind == INTERP_CTX_SKB) {
		/* len, and protocol from the frame's ethertype (interp_run without ctx_init) */
		sxt a = sx_mem_const(c, 0);
		uint32_t len = (uint32_t)m->input_len;

		for (unsigned k = 0; k < 4; k++)
			a = sx_store(c, a, bv64(m, offsetof(struct __sk_buff, len) + k),
				     sx_bv(c, (len >> (8 * k)) & 0xff, 8));
		if (m->input_len >= 14)
			for (unsigned k = 0; k < 2; k++)
				a = sx_store(c, a, bv64(m, offsetof(struct __sk_buff, protocol) + k),
					     sx_select(c, m->input0, bv64(m, 12 + k)));
		st->skbctx = a;
	}
	/* (a per-CPU array's own window, the running CPU's copies, as the other CPUs' below: any
	 * bytes in the induction, zero in BMC, as the interpreter's run starts them) */
	for (size_t k = 0; k < m->nmaps && k < MACH_MAX_MAPS; k++)
		st->maps[k] = m->any_hash && m->maps[k].kind == MACH_MAP_HASH
			      ? sx_fresh_mem(c, "hinit")
			      : m->any_pcpu && m->maps[k].def.type == BPF_MAP_TYPE_PERCPU_ARRAY
			      ? sx_fresh_mem(c, "pcown") : map_initial(m, k);
	for (size_t k = 0; m->pcpu && k < m->nmaps && k < MACH_MAX_MAPS; k++)
		if (pcpu_held(m, k))
			st->pcpu[k] = m->any_pcpu ? sx_fresh_mem(c, "pcinit") : sx_mem_const(c, 0);
	if (m->any_rb) {
		st->rb = st->rbsz = sx_mem_const(c, 0);
		st->rblive = st->nrecs = bv64(m, 0);
		st->dnull = st->refs = sx_bv(c, 0, 32);
	}
}

/* ---- merging ---- */

static sxt pick(struct sx *c, sxt g, sxt a, sxt b)
{
	if (!a || !b)
		return a ? a : b;
	return sx_ite(c, g, a, b);
}

bool mstate_merge(struct sx *c, struct mstate *acc, const struct mstate *b)
{
	sxt g = acc->guard;

	if (acc->depth != b->depth)
		return false;
	if (sx_is_false(c, b->guard))
		return true;
	if (sx_is_false(c, g)) {
		*acc = *b;
		return true;
	}
	for (int k = 0; k < EBPF_NREGS; k++)
		acc->r[k] = pick(c, g, acc->r[k], b->r[k]);
	for (unsigned f = 0; f <= acc->depth; f++) {
		acc->stack[f] = pick(c, g, acc->stack[f], b->stack[f]);
		acc->maygoto[f] = pick(c, g, acc->maygoto[f], b->maygoto[f]);
		acc->iters[f] = pick(c, g, acc->iters[f], b->iters[f]);
		/* (a key is readable or a load of it traps: no term says which) */
		if (!acc->keys[f] != !b->keys[f] || (acc->keys[f] && acc->klen[f] != b->klen[f]))
			return false;
		acc->keys[f] = pick(c, g, acc->keys[f], b->keys[f]);
		if (!acc->urb[f] != !b->urb[f])
			return false;
		acc->urb[f] = pick(c, g, acc->urb[f], b->urb[f]);
		acc->urbsz[f] = pick(c, g, acc->urbsz[f], b->urbsz[f]);
		if (f < acc->depth) {
			for (int k = 0; k < 5; k++)
				acc->saved[f][k] = pick(c, g, acc->saved[f][k], b->saved[f][k]);
			if (acc->ret_pc[f] != b->ret_pc[f])
				return false;
		}
	}
	acc->input = pick(c, g, acc->input, b->input);
	acc->skbctx = pick(c, g, acc->skbctx, b->skbctx);
	for (int k = 0; k < MACH_MAX_MAPS; k++) {
		acc->maps[k] = pick(c, g, acc->maps[k], b->maps[k]);
		acc->pcpu[k] = pick(c, g, acc->pcpu[k], b->pcpu[k]);
	}
	acc->hpos = pick(c, g, acc->hpos, b->hpos);
	acc->rb = pick(c, g, acc->rb, b->rb);
	acc->rbsz = pick(c, g, acc->rbsz, b->rbsz);
	acc->rblive = pick(c, g, acc->rblive, b->rblive);
	acc->nrecs = pick(c, g, acc->nrecs, b->nrecs);
	acc->dnull = pick(c, g, acc->dnull, b->dnull);
	acc->refs = pick(c, g, acc->refs, b->refs);
	acc->guard = sx_lor(c, g, b->guard);
	return true;
}

/* ---- memory ---- */

enum acc { ACC_LOAD, ACC_STORE, ACC_RAW };	/* RAW: atomics and helper arguments */

struct region {
	uint64_t lo, len;	/* addresses [lo, lo + len) */
	uint64_t index0;	/* array index of lo */
	sxt *arr;
	bool ro;		/* read-only: stores there trap */
	sxt slen;		/* set: only [lo, lo + slen) of it is accessible (a sample) */
	uint32_t evs;		/* set: a map's values, each its own region of evs bytes at the
				 * start of its 2^eshift-byte window (interp.h) */
	unsigned eshift;
	sxt rlive, rsz;		/* set: ringbuf records (mstate.rb), each its own region at the
				 * start of its 2^32-byte window while live (rlive, rsz: the
				 * state's rblive, rbsz) */
};

/* __sk_buff fields a program may write (interp.c's skb_writable). */
static const uint16_t skb_writable[][2] = {
#define SKB_FIELD(f, n) { offsetof(struct __sk_buff, f), offsetof(struct __sk_buff, f) + (n) }
	SKB_FIELD(mark, 4), SKB_FIELD(queue_mapping, 4), SKB_FIELD(priority, 4),
	SKB_FIELD(tc_index, 4), SKB_FIELD(cb, 20), SKB_FIELD(tc_classid, 4), SKB_FIELD(tstamp, 8),
#undef SKB_FIELD
};

/* The regions an access of this kind may use in this state.  The XDP and SKB context
 * structures are not among them: loads handle them apart (pointer fields), stores reach only
 * the writable __sk_buff fields, atomics and helpers none. */
static unsigned regions(struct mach *m, struct mstate *st, enum acc acc, struct region *out)
{
	unsigned n = 0;

	for (unsigned f = 0; f <= st->depth; f++) {
		out[n++] = (struct region){ INTERP_VA_STACK + (uint64_t)f * EBPF_STACK_SIZE,
					    EBPF_STACK_SIZE, 0, &st->stack[f], false };
		/* a for_each callback's key: an array map's 4 bytes, a hash's key size
		 * (interp.c: xlate_acc) */
		if (st->keys[f] && acc != ACC_STORE)
			out[n++] = (struct region){ INTERP_VA_KEY + (uint64_t)f * EBPF_STACK_SIZE,
						    st->klen[f] ? st->klen[f] : 4, 0, &st->keys[f],
						    true };
		/* a bpf_user_ringbuf_drain callback's sample (interp.c: xlate_acc) */
		if (st->urb[f])
			out[n++] = (struct region){ INTERP_VA_URB + ((uint64_t)f << 8),
						    INTERP_URB_MAX, 0, &st->urb[f], false,
						    st->urbsz[f] };
	}
	if (m->input_len)
		out[n++] = (struct region){ m->ctx_kind == INTERP_CTX_PLAIN ? INTERP_VA_CTX
									  : INTERP_VA_PKT,
					    m->input_len, 0, &st->input };
	for (size_t k = 0; k < m->nmaps && k < MACH_MAX_MAPS; k++)
		if (m->maps[k].len)
			out[n++] = (struct region){ INTERP_VA_MAP + ((uint64_t)k << 32),
						    (uint64_t)m->maps[k].nval << m->maps[k].shift, 0,
						    &st->maps[k], false, NULL, m->maps[k].def.value_size,
						    m->maps[k].shift };
	/* the other CPUs' copies of per-CPU maps, each CPU's in its window (interp.c: xlate_acc) */
	for (size_t k = 0; k < m->nmaps && k < MACH_MAX_MAPS; k++)
		for (uint64_t cpu = 0; st->pcpu[k] && cpu < MACH_NCPUS; cpu++) {
			uint64_t w = cpu * m->nmaps + k;

			if (cpu != MACH_CPU && w < INTERP_MAX_MAPS)
				out[n++] = (struct region){ INTERP_VA_PCPU + (w << 32),
							    (uint64_t)m->maps[k].nval
								    << m->maps[k].shift,
							    cpu << 32, &st->pcpu[k], false, NULL,
							    m->maps[k].def.value_size,
							    m->maps[k].shift };
		}
	if (st->rb)
		out[n++] = (struct region){ INTERP_VA_RINGBUF, (uint64_t)INTERP_MAX_RECORDS << 32, 0,
					    &st->rb, false, NULL, 0, 0, st->rblive, st->rbsz };
	if (acc == ACC_STORE && m->ctx_kind == INTERP_CTX_SKB)
		for (size_t k = 0; k < sizeof(skb_writable) / sizeof(skb_writable[0]); k++)
			out[n++] = (struct region){ INTERP_VA_CTX + skb_writable[k][0],
						    skb_writable[k][1] - skb_writable[k][0],
						    skb_writable[k][0], &st->skbctx };
	return n;
}

#define MAX_REGIONS (3 * MACH_NFRAMES + 2 + MACH_NCPUS * MACH_MAX_MAPS + 8)

/* An address term's values when it is one of a few constants (an if-then-else of them, plus a
 * constant: a pointer that is NULL or one address, a dynptr's, a map lookup's): in_region decides
 * each region for them, so the regions none of them lies in get no term. */
#define ADDR_LEAVES 8

/* [a, a + n) lies inside the region. */
static sxt inside(struct mach *m, sxt a, uint64_t n, uint64_t lo, uint64_t len)
{
	uint64_t v, lv[ADDR_LEAVES];
	unsigned nl, hit = 0;

	if (len < n)
		return sx_false(m->c);
	if (sx_num(m->c, a, &v))
		return sx_bool(m->c, v - lo <= len - n);
	nl = sx_leaves(m->c, a, lv, ADDR_LEAVES);
	for (unsigned k = 0; k < nl; k++)
		hit += lv[k] - lo <= len - n;
	if (nl && !hit)
		return sx_false(m->c);
	if (!nl) {
		/* intervals: a dynptr's address plus an offset of 32 bits, a masked index */
		uint64_t rlo[ADDR_LEAVES], rhi[ADDR_LEAVES];
		unsigned nr = sx_ranges(m->c, a, rlo, rhi, ADDR_LEAVES);

		for (unsigned k = 0; k < nr; k++)
			hit += !(rhi[k] < lo || rlo[k] > lo + (len - n));
		if (nr && !hit)
			return sx_false(m->c);
	}
	return sx_ule(m->c, sx_sub(m->c, a, bv64(m, lo)), bv64(m, len - n));
}

static sxt read_le(struct mach *m, sxt arr, sxt idx, unsigned n);

/* Ringbuf records (region r, r->rsz set): [lo + off, lo + off + n) lies in a live record's
 * bytes (interp.c: xlate_acc), given that it lies in the region. */
static sxt in_record(struct mach *m, const struct region *r, sxt off, sxt n)
{
	struct sx *c = m->c;
	sxt k = sx_lshr(c, off, bv64(m, 32));
	sxt live = sx_ne(c, sx_and(c, r->rlive, sx_shl(c, bv64(m, 1), k)), bv64(m, 0));
	sxt size = read_le(m, r->rsz, sx_shl(c, k, bv64(m, 2)), 4);

	return sx_land(c, live, sx_ule(c, sx_add(c, sx_and(c, off, bv64(m, 0xffffffffu)), n),
					 size));
}

/* [a, a + n) lies inside what region r holds (a sample: its first slen bytes; a map: one of
 * its values; ringbuf records: a live one's bytes). */
static sxt in_region(struct mach *m, const struct region *r, sxt a, uint64_t n)
{
	struct sx *c = m->c;
	sxt in = inside(m, a, n, r->lo, r->len);

	if (r->rsz && !sx_is_false(c, in)) {
		uint64_t lv[ADDR_LEAVES];
		unsigned nl = sx_leaves(c, a, lv, ADDR_LEAVES);
		sxt any = sx_false(c);

		if (!nl)
			return sx_land(c, in, in_record(m, r, sx_sub(c, a, bv64(m, r->lo)),
							bv64(m, n)));
		/* (one of a few addresses: each one's record a constant) */
		for (unsigned k = 0; k < nl; k++)
			if (lv[k] - r->lo <= r->len - n)
				any = sx_lor(c, any, sx_land(c, sx_eq(c, a, bv64(m, lv[k])),
							     in_record(m, r, bv64(m, lv[k] - r->lo),
								       bv64(m, n))));
		return any;
	}
	if (r->evs && !sx_is_false(c, in)) {
		uint64_t mask = (1ull << r->eshift) - 1, v;

		if (n > r->evs)
			return sx_false(c);
		if (sx_num(c, a, &v))
			return sx_bool(c, ((v - r->lo) & mask) <= r->evs - n);
		in = sx_land(c, in, sx_ule(c, sx_and(c, sx_sub(c, a, bv64(m, r->lo)), bv64(m, mask)),
					    bv64(m, r->evs - n)));
	}
	if (!r->slen || sx_is_false(c, in))
		return in;
	return sx_land(c, in, sx_land(c, sx_ule(c, bv64(m, n), r->slen),
				      sx_ule(c, sx_sub(c, a, bv64(m, r->lo)),
					     sx_sub(c, r->slen, bv64(m, n)))));
}

/* in_region for a length that is a term (bv64, below 2^32): [a, a + n) inside what r holds. */
static sxt in_region_n(struct mach *m, const struct region *r, sxt a, sxt n)
{
	struct sx *c = m->c;
	sxt off = sx_sub(c, a, bv64(m, r->lo)), in;
	uint64_t v;

	if (sx_num(c, n, &v))
		return in_region(m, r, a, v);
	in = sx_land(c, sx_ule(c, n, bv64(m, r->len)), sx_ule(c, off, sx_sub(c, bv64(m, r->len), n)));
	if (r->rsz)
		in = sx_land(c, in, in_record(m, r, off, n));
	if (r->evs)
		in = sx_land(c, in, sx_land(c, sx_ule(c, n, bv64(m, r->evs)),
					    sx_ule(c, sx_and(c, off, bv64(m, (1ull << r->eshift) - 1)),
						   sx_sub(c, bv64(m, r->evs), n))));
	if (r->slen)
		in = sx_land(c, in, sx_land(c, sx_ule(c, n, r->slen),
					    sx_ule(c, off, sx_sub(c, r->slen, n))));
	return in;
}

/* A read of n bytes at a lands on a kernel object (INTERP_VA_BTF's window; interp.c: xlate_acc
 * reads 1 to 8 bytes there as if every aligned u64 held INTERP_VA_BTF; a load, also the window
 * of the map handles, INTERP_VA_MAPH: slow_load): the condition, and its bytes in *bytes (byte k
 * of the result in bytes[k]). */
static sxt btf_read(struct mach *m, sxt a, unsigned n, sxt *bytes, bool maph)
{
	struct sx *c = m->c;

	if (n > 8)
		return sx_false(c);
	for (unsigned k = 0; k < n; k++) {
		/* byte (a + k) & 7 of INTERP_VA_BTF, little-endian: only byte 5 is not zero */
		sxt at = sx_and(c, sx_add(c, a, bv64(m, k)), bv64(m, 7));
		unsigned b5 = (unsigned)(INTERP_VA_BTF >> 40) & 0xff;

		bytes[k] = sx_ite(c, sx_eq(c, at, bv64(m, 5)), sx_bv(c, b5, 8), sx_bv(c, 0, 8));
	}
	return sx_lor(c, sx_eq(c, sx_lshr(c, a, bv64(m, 44)), bv64(m, INTERP_VA_BTF >> 44)),
		      maph ? sx_eq(c, sx_lshr(c, a, bv64(m, 44)), bv64(m, INTERP_VA_MAPH >> 44))
			   : sx_false(c));
}

/* n bytes little-endian from arr at index idx, zero-extended to 64 bits. */
static sxt read_le(struct mach *m, sxt arr, sxt idx, unsigned n)
{
	sxt v = NULL;

	for (unsigned k = 0; k < n; k++) {
		sxt b = sx_select(m->c, arr, sx_add(m->c, idx, bv64(m, k)));

		v = v ? sx_concat(m->c, b, v) : b;
	}
	return z64(m, v);
}

static sxt write_le(struct mach *m, sxt arr, sxt idx, unsigned n, sxt val)
{
	for (unsigned k = 0; k < n; k++)
		arr = sx_store(m->c, arr, sx_add(m->c, idx, bv64(m, k)),
			       sx_extract(m->c, 8 * k + 7, 8 * k, val));
	return arr;
}

/* The XDP/SKB context pointer fields (interp.c's xdp_fields, skb_fields). */
struct ctx_field {
	uint16_t off, size;
	uint8_t what;		/* 0 data, 1 data_end, 2 null */
};

static const struct ctx_field xdp_fields[] = {
	{ offsetof(struct xdp_md, data), 4, 0 },
	{ offsetof(struct xdp_md, data_end), 4, 1 },
	{ offsetof(struct xdp_md, data_meta), 4, 0 },
};

static const struct ctx_field skb_fields[] = {
	{ offsetof(struct __sk_buff, data), 4, 0 },
	{ offsetof(struct __sk_buff, data_end), 4, 1 },
	{ offsetof(struct __sk_buff, data_meta), 4, 0 },
	{ offsetof(struct __sk_buff, flow_keys), 8, 2 },
	{ offsetof(struct __sk_buff, sk), 8, 2 },
};

struct loaded {
	sxt val;	/* the bytes, zero-extended */
	sxt isptr;	/* a context pointer field was read: ptr is the whole result */
	sxt ptr;
	sxt trap;
};

/* An access of n bytes at a = base + off into the XDP or SKB context structure traps unless base
 * is the context's start: the kernel rewrites a context access by the instruction's offset alone
 * and refuses a moved context pointer (check_ptr_off_reg; interp.c: ctx_access_ok). */
static sxt ctx_moved(struct mach *m, sxt a, unsigned n, int16_t off)
{
	struct sx *c = m->c;
	uint64_t size;

	if (m->ctx_kind == INTERP_CTX_PLAIN)
		return sx_false(c);
	size = m->ctx_kind == INTERP_CTX_XDP ? sizeof(struct xdp_md) : sizeof(struct __sk_buff);
	return sx_land(c, inside(m, a, n, INTERP_VA_CTX, size),
		       sx_not(c, sx_eq(c, a, bv64(m, INTERP_VA_CTX + (uint64_t)(int64_t)off))));
}

/* A load of n bytes at a (interp.c: xlate, then slow_load/ctx_load). */
static void load(struct mach *m, struct mstate *st, sxt a, unsigned n, enum acc acc,
		 struct loaded *out)
{
	struct sx *c = m->c;
	struct region rg[MAX_REGIONS];
	unsigned nr = regions(m, st, acc, rg);
	sxt ok = sx_false(c), val = bv64(m, 0);

	out->isptr = sx_false(c);
	out->ptr = bv64(m, 0);
	for (unsigned k = nr; k-- > 0;) {
		sxt in = in_region(m, &rg[k], a, n), v;

		if (sx_is_false(c, in))
			continue;
		v = read_le(m, *rg[k].arr,
			    sx_add(c, sx_sub(c, a, bv64(m, rg[k].lo)), bv64(m, rg[k].index0)), n);
		val = sx_ite(c, in, v, val);
		ok = sx_lor(c, ok, in);
	}
	if (acc != ACC_STORE) {
		sxt b[8], in = btf_read(m, a, n, b, acc == ACC_LOAD), v = NULL;

		if (!sx_is_false(c, in)) {
			for (unsigned k = 0; k < n; k++)
				v = v ? sx_concat(c, b[k], v) : b[k];
			val = sx_ite(c, in, z64(m, v), val);
			ok = sx_lor(c, ok, in);
		}
	}
	if (acc == ACC_LOAD && m->ctx_kind != INTERP_CTX_PLAIN) {
		bool xdp = m->ctx_kind == INTERP_CTX_XDP;
		const struct ctx_field *f = xdp ? xdp_fields : skb_fields;
		size_t nf = xdp ? sizeof(xdp_fields) / sizeof(xdp_fields[0])
				: sizeof(skb_fields) / sizeof(skb_fields[0]);
		uint64_t size = xdp ? sizeof(struct xdp_md) : sizeof(struct __sk_buff);
		sxt in = inside(m, a, n, INTERP_VA_CTX, size), off = sx_sub(c, a, bv64(m, INTERP_VA_CTX));
		sxt bad = sx_false(c), plain;

		if (!sx_is_false(c, in)) {
			for (size_t k = 0; k < nf; k++) {
				/* overlaps field k (off + n cannot wrap inside the structure) */
				sxt ov = sx_land(c, sx_ult(c, off, bv64(m, f[k].off + f[k].size)),
						 sx_ult(c, bv64(m, f[k].off), sx_add(c, off, bv64(m, n))));
				sxt exact = n == f[k].size ? sx_eq(c, off, bv64(m, f[k].off))
							   : sx_false(c);
				uint64_t pv = f[k].what == 0 ? INTERP_VA_PKT
					    : f[k].what == 1 ? INTERP_VA_PKT + m->input_len : 0;

				bad = sx_lor(c, bad, sx_land(c, ov, sx_not(c, exact)));
				out->ptr = sx_ite(c, exact, bv64(m, pv), out->ptr);
				out->isptr = sx_lor(c, out->isptr, exact);
			}
			out->isptr = sx_land(c, in, out->isptr);
			/* plain fields: ctx_init is not used (zero) except SKB's len and protocol */
			plain = xdp ? bv64(m, 0) : read_le(m, st->skbctx, off, n);
			val = sx_ite(c, in, plain, val);
			ok = sx_lor(c, ok, sx_land(c, in, sx_not(c, bad)));
		}
	}
	out->val = val;
	out->trap = sx_not(c, ok);
}

/* A store of n bytes (value's low bytes) at a; returns the trap condition.  The arrays change
 * only where the address lies (regions are disjoint); what they hold on paths that trap does
 * not matter, since those paths stop. */
static sxt store(struct mach *m, struct mstate *st, sxt a, unsigned n, sxt val, enum acc acc)
{
	struct sx *c = m->c;
	struct region rg[MAX_REGIONS];
	unsigned nr = regions(m, st, acc, rg);
	sxt ok = sx_false(c);

	for (unsigned k = 0; k < nr; k++) {
		sxt in = in_region(m, &rg[k], a, n), w;

		if (rg[k].ro || sx_is_false(c, in))
			continue;
		w = write_le(m, *rg[k].arr,
			     sx_add(c, sx_sub(c, a, bv64(m, rg[k].lo)), bv64(m, rg[k].index0)), n, val);
		*rg[k].arr = sx_ite(c, in, w, *rg[k].arr);
		ok = sx_lor(c, ok, in);
	}
	return sx_not(c, ok);
}

/* The n bytes at a, for a helper's memory argument: the whole range must lie in one region
 * (interp.c: mem_ptr).  Returns the trap condition. */
static sxt bytes_at(struct mach *m, struct mstate *st, sxt a, unsigned n, enum acc acc,
		    sxt *bytes)
{
	struct sx *c = m->c;
	struct region rg[MAX_REGIONS];
	unsigned nr = regions(m, st, acc, rg);
	sxt ok = sx_false(c);

	for (unsigned b = 0; b < n; b++)
		bytes[b] = sx_bv(c, 0, 8);
	for (unsigned k = nr; k-- > 0;) {
		sxt in = in_region(m, &rg[k], a, n), idx;

		if (sx_is_false(c, in))
			continue;
		idx = sx_add(c, sx_sub(c, a, bv64(m, rg[k].lo)), bv64(m, rg[k].index0));
		for (unsigned b = 0; b < n; b++)
			bytes[b] = sx_ite(c, in, sx_select(c, *rg[k].arr,
							   sx_add(c, idx, bv64(m, b))), bytes[b]);
		ok = sx_lor(c, ok, in);
	}
	if (n <= 8) {	/* (btf_read: a kernel object's 1 to 8 bytes) */
		sxt b[8], in = btf_read(m, a, n, b, false);

		if (!sx_is_false(c, in)) {
			for (unsigned k = 0; k < n; k++)
				bytes[k] = sx_ite(c, in, b[k], bytes[k]);
			ok = sx_lor(c, ok, in);
		}
	}
	return sx_not(c, ok);
}

static void note_store(struct mstep *out, sxt addr, sxt guard, uint32_t size)
{
	if (out->nstores < MACH_MAX_STORES)
		out->stores[out->nstores++] = (struct mach_store){ addr, guard, size };
	else
		snprintf(out->unsupported, sizeof(out->unsupported), "too many stores");
}

/* ---- ALU ---- */

static sxt alu(struct mach *m, uint8_t op, bool is64, bool sign, sxt d, sxt s)
{
	struct sx *c = m->c;
	unsigned w = is64 ? 64 : 32;
	sxt zero = sx_bv(c, 0, w), ones = sx_bv(c, UINT64_MAX, w);
	sxt mask = sx_bv(c, w - 1, w), r;

	if (!is64) {
		d = lo32(m, d);
		s = lo32(m, s);
	}
	switch (op) {
	case BPF_ADD: r = sx_add(c, d, s); break;
	case BPF_SUB: r = sx_sub(c, d, s); break;
	case BPF_MUL: r = sx_mul(c, d, s); break;
	case BPF_OR: r = sx_or(c, d, s); break;
	case BPF_AND: r = sx_and(c, d, s); break;
	case BPF_XOR: r = sx_xor(c, d, s); break;
	case BPF_LSH: r = sx_shl(c, d, sx_and(c, s, mask)); break;
	case BPF_RSH: r = sx_lshr(c, d, sx_and(c, s, mask)); break;
	case BPF_ARSH: r = sx_ashr(c, d, sx_and(c, s, mask)); break;
	case BPF_MOV: r = s; break;
	case BPF_DIV:
		/* by 0 gives 0; sdiv by -1 negates (INT_MIN stays INT_MIN) */
		if (sign)
			r = sx_ite(c, sx_eq(c, s, zero), zero,
				   sx_ite(c, sx_eq(c, s, ones), sx_neg(c, d), sx_sdiv(c, d, s)));
		else
			r = sx_ite(c, sx_eq(c, s, zero), zero, sx_udiv(c, d, s));
		break;
	case BPF_MOD:
		/* by 0 keeps dst; smod by -1 gives 0; the remainder has the dividend's sign */
		if (sign)
			r = sx_ite(c, sx_eq(c, s, zero), d,
				   sx_ite(c, sx_eq(c, s, ones), zero, sx_srem(c, d, s)));
		else
			r = sx_ite(c, sx_eq(c, s, zero), d, sx_urem(c, d, s));
		break;
	default:
		return NULL;
	}
	return is64 ? r : z64(m, r);
}

static sxt bswap(struct mach *m, sxt v, unsigned bits)
{
	sxt r = NULL;

	for (unsigned k = 0; k < bits / 8; k++) {
		sxt b = sx_extract(m->c, 8 * k + 7, 8 * k, v);

		r = r ? sx_concat(m->c, r, b) : b;	/* byte 0 ends up most significant */
	}
	return z64(m, r);
}

static void do_alu(struct mach *m, const struct bpf_insn *in, struct mstate *st, struct mstep *o)
{
	struct sx *c = m->c;
	bool is64 = ebpf_class(in) == BPF_ALU64, x = ebpf_srcbit(in) == BPF_X;
	uint8_t op = ebpf_op(in);
	sxt *dst = &st->r[in->dst_reg], src = st->r[in->src_reg];
	sxt imm = is64 ? bv64(m, (uint64_t)(int64_t)in->imm) : bv64(m, (uint32_t)in->imm);

	switch (op) {
	case BPF_NEG:
		*dst = is64 ? sx_neg(c, *dst) : z64(m, sx_neg(c, lo32(m, *dst)));
		return;
	case BPF_END:
		if (!is64 && !x)	/* to_le: a truncation on this little-endian machine */
			*dst = in->imm == 16 ? z64(m, sx_extract(c, 15, 0, *dst))
			     : in->imm == 32 ? z64(m, lo32(m, *dst)) : *dst;
		else
			*dst = bswap(m, *dst, in->imm == 16 ? 16 : in->imm == 32 ? 32 : 64);
		return;
	case BPF_MOV:
		if (in->off) {	/* movsx */
			unsigned bits = in->off == 8 ? 8 : in->off == 16 ? 16 : 32;
			sxt low = sx_extract(c, bits - 1, 0, src);

			*dst = is64 ? sx_sext(c, 64, low) : z64(m, sx_sext(c, 32, low));
			return;
		}
		break;
	default:
		break;
	}
	*dst = alu(m, op, is64, in->off != 0, *dst, x ? src : imm);
	if (!*dst)
		snprintf(o->unsupported, sizeof(o->unsupported), "ALU op 0x%02x", in->code);
}

/* ---- jumps ---- */

static sxt cond(struct mach *m, const struct bpf_insn *in, const struct mstate *st)
{
	struct sx *c = m->c;
	bool is32 = ebpf_class(in) == BPF_JMP32;
	sxt d = st->r[in->dst_reg];
	sxt s = ebpf_srcbit(in) == BPF_X ? st->r[in->src_reg] : bv64(m, (uint64_t)(int64_t)in->imm);

	if (is32) {
		d = lo32(m, d);
		s = lo32(m, s);
	}
	switch (ebpf_op(in)) {
	case BPF_JEQ: return sx_eq(c, d, s);
	case BPF_JNE: return sx_ne(c, d, s);
	case BPF_JGT: return sx_ult(c, s, d);
	case BPF_JGE: return sx_ule(c, s, d);
	case BPF_JLT: return sx_ult(c, d, s);
	case BPF_JLE: return sx_ule(c, d, s);
	case BPF_JSGT: return sx_slt(c, s, d);
	case BPF_JSGE: return sx_sle(c, s, d);
	case BPF_JSLT: return sx_slt(c, d, s);
	case BPF_JSLE: return sx_sle(c, d, s);
	case BPF_JSET: return sx_ne(c, sx_and(c, d, s), sx_bv(c, 0, is32 ? 32 : 64));
	default: return NULL;
	}
}

/* ---- calls ---- */

static void poison_args(struct mach *m, struct mstate *st)
{
	for (int k = 1; k <= 5; k++)
		st->r[k] = m->poison;
}

/* The next n bytes of the helper stream, little-endian. */
static sxt draw(struct mach *m, struct mstate *st, unsigned n)
{
	sxt v = read_le(m, m->helper, st->hpos, n);

	st->hpos = sx_add(m->c, st->hpos, bv64(m, n));
	return v;
}

#define ERR(e) ((uint64_t) - (int64_t)(e))

/* An update's bytes as interp.c's value_update leaves them in the element: val's, but the
 * struct bpf_timer and the other special fields zero (the kernel's copy_map_value skips them,
 * bpf_obj_free_fields clears them). */
static void value_update_bytes(struct mach *m, const struct ebpf_map_def *def, sxt *vbytes)
{
	sxt zero = sx_bv(m->c, 0, 8);

	if (def->timer && def->timer - 1 + 16 <= def->value_size)
		for (uint32_t k = 0; k < 16; k++)
			vbytes[def->timer - 1 + k] = zero;
	for (uint8_t f = 0; f < def->nfields && f < EBPF_MAP_FIELDS; f++)
		if ((uint64_t)def->fields[f].off + def->fields[f].size <= def->value_size)
			for (uint32_t k = 0; k < def->fields[f].size; k++)
				vbytes[def->fields[f].off + k] = zero;
}

/* A per-CPU hash map's update that may insert an element at slot (when ok): an insertion
 * zeroes the other CPUs' copies of it (interp.c: pcpu_init_value, as the kernel does); whether
 * the key was new is any here, as the slot is. */
static void pcpu_insert(struct mach *m, struct mstate *st, const struct mstate *pre, size_t h,
			sxt slot, sxt ok, struct mstep *o)
{
	struct sx *c = m->c;
	const struct mach_map *mm = &m->maps[h];
	sxt arr = pre->pcpu[h], ins = sx_land(c, ok, sx_fresh_bool(c, "hins"));

	for (uint64_t cpu = 0; cpu < MACH_NCPUS; cpu++) {
		uint64_t w = cpu * m->nmaps + h;
		sxt at = sx_add(c, bv64(m, cpu << 32), slot);

		if (cpu == MACH_CPU || w >= INTERP_MAX_MAPS)
			continue;
		for (uint32_t k = 0; k < mm->def.value_size; k++)
			arr = sx_store(c, arr, sx_add(c, at, bv64(m, k)), sx_bv(c, 0, 8));
		note_store(o, sx_add(c, bv64(m, INTERP_VA_PCPU + (w << 32)), slot),
			   sx_land(c, pre->guard, ins), mm->def.value_size);
	}
	st->pcpu[h] = sx_ite(c, ins, arr, st->pcpu[h]);
}

/* One map helper on hash map h, after its key (and update's value) were read as interp.c's
 * map_helper reads them.  The induction (m->any_hash) runs it as any kernel may, the
 * interpreter's table among them: lookup NULL or the address of any of the map's values (slots),
 * delete any result, update -EINVAL for flags, else any result, and on 0 the value's bytes
 * (value_update_bytes) written into any one slot — what the interpreter's insertion-ordered
 * slots and key comparison pick is one of those choices, and the map's bytes at entry are any
 * (mach_entry_state: the kernel's map may hold elements already).  BMC, whose models must be
 * runs of the interpreter, stops the path there unexplored (o->cut): no run is claimed to
 * cover every path, nothing is refuted past it. */
static sxt hash_helper_on(struct mach *m, struct mstate *st, const struct mstate *pre,
			  int32_t id, size_t h, sxt is_h, sxt *ret, struct mstep *o)
{
	struct sx *c = m->c;
	const struct mach_map *mm = &m->maps[h];
	const struct ebpf_map_def *def = &mm->def;
	sxt trap, slot, base = bv64(m, INTERP_VA_MAP + ((uint64_t)h << 32)), kb[512], vb[512];

	*ret = bv64(m, 0);
	if (!m->any_hash) {
		o->cut = true;
		return sx_false(c);
	}
	if (def->key_size > 512 || (id == BPF_FUNC_map_update_elem && def->value_size > 512)) {
		snprintf(o->unsupported, sizeof(o->unsupported), "helper %d on hash map '%s' of "
			 "%u-byte keys, %u-byte values", id, def->name, def->key_size,
			 def->value_size);
		return sx_false(c);
	}
	trap = bytes_at(m, (struct mstate *)pre, pre->r[2], def->key_size, ACC_RAW, kb);
	if (id == BPF_FUNC_map_update_elem) {
		if (def->value_size == 0)
			return sx_true(c);
		trap = sx_lor(c, trap, bytes_at(m, (struct mstate *)pre, pre->r[3],
						def->value_size, ACC_RAW, vb));
	}
	if (!mm->len)
		return sx_true(c);	/* (interp.c: map_storage refuses it) */
	slot = sx_shl(c, sx_urem(c, sx_fresh(c, "hslot", 64), bv64(m, mm->nval)),
		      bv64(m, mm->shift));
	if (id == BPF_FUNC_map_lookup_elem) {
		*ret = sx_ite(c, sx_fresh_bool(c, "hnull"), bv64(m, 0), sx_add(c, base, slot));
	} else if (id == BPF_FUNC_map_delete_elem) {
		*ret = sx_fresh(c, "hdel", 64);
	} else {
		sxt flags = sx_and(c, pre->r[4], bv64(m, ~(uint64_t)BPF_F_LOCK));
		sxt arr = pre->maps[h], ok;

		*ret = sx_ite(c, sx_ult(c, bv64(m, BPF_EXIST), flags), bv64(m, ERR(EINVAL)),
			      sx_fresh(c, "hupd", 64));
		value_update_bytes(m, def, vb);
		ok = sx_land(c, is_h, sx_eq(c, *ret, bv64(m, 0)));
		for (uint32_t k = 0; k < def->value_size; k++)
			arr = sx_store(c, arr, sx_add(c, slot, bv64(m, k)), vb[k]);
		st->maps[h] = sx_ite(c, ok, arr, st->maps[h]);
		note_store(o, sx_add(c, base, slot),
			   sx_land(c, sx_land(c, pre->guard, sx_not(c, trap)), ok), def->value_size);
		if (pre->pcpu[h])
			pcpu_insert(m, st, pre, h, slot, sx_land(c, ok, sx_not(c, trap)), o);
	}
	return trap;
}

/* One map helper on map h (interp.c: map_helper after map_arg): sets *ret, the map's storage
 * (st->maps[h], changed only where is_h holds), and returns the trap condition.  Hash maps:
 * hash_helper_on. */
static sxt map_helper_on(struct mach *m, struct mstate *st, const struct mstate *pre, int32_t id,
			 size_t h, sxt is_h, sxt *ret, struct mstep *o)
{
	struct sx *c = m->c;
	const struct mach_map *mm = &m->maps[h];
	const struct ebpf_map_def *def = &mm->def;
	struct loaded key;
	sxt trap, idx, inr, vbytes[512];

	*ret = bv64(m, 0);
	/* (the interpreter draws whether a slot of a map of maps holds its inner map) */
	if ((def->type == BPF_MAP_TYPE_ARRAY_OF_MAPS || def->type == BPF_MAP_TYPE_HASH_OF_MAPS) &&
	    def->inner) {
		snprintf(o->unsupported, sizeof(o->unsupported), "helper %d on the map of maps '%s'",
			 id, def->name);
		return sx_false(c);
	}
	/* (a socket map's elements are sockets put there from outside the run: the interpreter
	 * draws what a call finds, interp.c sockmap_helper; encoded as a trap, every path through
	 * the call would be cut and what lies past it proved vacuously) */
	if (def->type == BPF_MAP_TYPE_SOCKMAP || def->type == BPF_MAP_TYPE_SOCKHASH ||
	    def->type == BPF_MAP_TYPE_REUSEPORT_SOCKARRAY) {
		snprintf(o->unsupported, sizeof(o->unsupported), "helper %s (id %d) on the socket "
			 "map '%s' is run by the interpreter, not encoded", ebpf_helper_name(id), id,
			 def->name);
		return sx_false(c);
	}
	if (mm->kind == MACH_MAP_OTHER)
		return sx_true(c);
	if (def->key_size == 0 || (mm->kind == MACH_MAP_ARRAY && def->key_size != 4))
		return sx_true(c);
	if (mm->kind == MACH_MAP_HASH)
		return hash_helper_on(m, st, pre, id, h, is_h, ret, o);
	load(m, (struct mstate *)pre, pre->r[2], 4, ACC_RAW, &key);
	trap = key.trap;
	if (id == BPF_FUNC_map_update_elem) {
		if (def->value_size == 0)
			return sx_true(c);
		if (def->value_size > 512) {
			snprintf(o->unsupported, sizeof(o->unsupported),
				 "map update of %u-byte values", def->value_size);
			return sx_false(c);
		}
		trap = sx_lor(c, trap, bytes_at(m, (struct mstate *)pre, pre->r[3],
						def->value_size, ACC_RAW, vbytes));
		value_update_bytes(m, def, vbytes);
	}
	if (!mm->len)
		return sx_true(c);	/* storage too large to model: the interpreter traps too */
	idx = z64(m, lo32(m, key.val));
	inr = sx_ult(c, idx, bv64(m, def->max_entries));
	if (id == BPF_FUNC_map_lookup_elem) {
		*ret = sx_ite(c, inr, sx_add(c, bv64(m, INTERP_VA_MAP + ((uint64_t)h << 32)),
					     sx_shl(c, idx, bv64(m, mm->shift))),
			      bv64(m, 0));
	} else if (id == BPF_FUNC_map_delete_elem) {
		*ret = bv64(m, ERR(EINVAL));
	} else {
		sxt flags = sx_and(c, pre->r[4], bv64(m, ~(uint64_t)BPF_F_LOCK));
		sxt dst, ok, arr = pre->maps[h];

		*ret = sx_ite(c, sx_ult(c, bv64(m, BPF_EXIST), flags), bv64(m, ERR(EINVAL)),
			      sx_ite(c, sx_not(c, inr), bv64(m, ERR(E2BIG)),
				     sx_ite(c, sx_eq(c, flags, bv64(m, BPF_NOEXIST)),
					    bv64(m, ERR(EEXIST)), bv64(m, 0))));
		/* the copy: value_size bytes from r3 to the element (memmove: all read first) */
		ok = sx_land(c, is_h, sx_eq(c, *ret, bv64(m, 0)));
		dst = sx_shl(c, idx, bv64(m, mm->shift));	/* value idx's window */
		for (uint32_t k = 0; k < def->value_size; k++)
			arr = sx_store(c, arr, sx_add(c, dst, bv64(m, k)), vbytes[k]);
		st->maps[h] = sx_ite(c, ok, arr, st->maps[h]);
		note_store(o, sx_add(c, bv64(m, INTERP_VA_MAP + ((uint64_t)h << 32)), dst),
			   sx_land(c, sx_land(c, pre->guard, sx_not(c, trap)), ok),
			   def->value_size);
	}
	return trap;
}

/* bpf_map_lookup_percpu_elem(map, key, cpu) on map h (interp.c: pcpu_lookup after map_arg):
 * sets *ret and returns the trap condition.  Not a per-CPU map, a key size other than an
 * array's 4, a key not readable or a map without storage trap; then NULL for a u32 cpu not
 * below MACH_NCPUS or a key that finds no element, MACH_CPU's copy in the map's own window,
 * another's in its INTERP_VA_PCPU window (a trap when that lies past the region or the copies
 * are too large to hold).  An array's key finds element key when below max_entries; a hash
 * map's as hash_helper_on's lookup does (any slot or none; BMC stops the path). */
static sxt pcpu_lookup_on(struct mach *m, const struct mstate *pre, size_t h, sxt *ret,
			  struct mstep *o)
{
	struct sx *c = m->c;
	const struct mach_map *mm = &m->maps[h];
	const struct ebpf_map_def *def = &mm->def;
	uint32_t t = def->type;
	sxt trap, slot, found, none, own, far, w, kb[512];
	sxt cpu = z64(m, lo32(m, pre->r[3]));

	*ret = bv64(m, 0);
	if (t != BPF_MAP_TYPE_PERCPU_ARRAY && t != BPF_MAP_TYPE_PERCPU_HASH &&
	    t != BPF_MAP_TYPE_LRU_PERCPU_HASH)
		return sx_true(c);
	if (def->key_size == 0 || (mm->kind == MACH_MAP_ARRAY && def->key_size != 4))
		return sx_true(c);
	if (mm->kind == MACH_MAP_HASH) {
		if (!m->any_hash) {
			o->cut = true;
			return sx_false(c);
		}
		if (def->key_size > 512) {
			snprintf(o->unsupported, sizeof(o->unsupported), "helper %d on hash map "
				 "'%s' of %u-byte keys", BPF_FUNC_map_lookup_percpu_elem, def->name,
				 def->key_size);
			return sx_false(c);
		}
		trap = bytes_at(m, (struct mstate *)pre, pre->r[2], def->key_size, ACC_RAW, kb);
		if (!mm->len)
			return sx_true(c);
		slot = sx_shl(c, sx_urem(c, sx_fresh(c, "hslot", 64), bv64(m, mm->nval)),
			      bv64(m, mm->shift));
		found = sx_not(c, sx_fresh_bool(c, "hnull"));
	} else {
		struct loaded key;
		sxt idx;

		load(m, (struct mstate *)pre, pre->r[2], 4, ACC_RAW, &key);
		trap = key.trap;
		if (!mm->len)
			return sx_true(c);
		idx = z64(m, lo32(m, key.val));
		found = sx_ult(c, idx, bv64(m, def->max_entries));
		slot = sx_shl(c, idx, bv64(m, mm->shift));
	}
	none = sx_lor(c, sx_not(c, found), sx_ule(c, bv64(m, MACH_NCPUS), cpu));
	own = sx_add(c, bv64(m, INTERP_VA_MAP + ((uint64_t)h << 32)), slot);
	w = sx_add(c, sx_mul(c, cpu, bv64(m, m->nmaps)), bv64(m, h));
	far = sx_add(c, sx_add(c, bv64(m, INTERP_VA_PCPU), sx_shl(c, w, bv64(m, 32))), slot);
	*ret = sx_ite(c, none, bv64(m, 0), sx_ite(c, sx_eq(c, cpu, bv64(m, MACH_CPU)), own, far));
	/* (the other CPU's copies: past the region, or too large for a run to hold) */
	trap = sx_lor(c, trap, sx_land(c, sx_land(c, sx_not(c, none),
						  sx_ne(c, cpu, bv64(m, MACH_CPU))),
				       pcpu_held(m, h) ? sx_ule(c, bv64(m, INTERP_MAX_MAPS), w)
						       : sx_true(c)));
	return trap;
}

/* bpf_map_lookup/update/delete_elem and lookup_percpu_elem: r1 must be a map handle (a trap
 * otherwise).  Returns the trap condition and sets r0. */
static sxt map_helper(struct mach *m, struct mstate *st, int32_t id, struct mstep *o)
{
	struct sx *c = m->c;
	const struct mstate pre = *st;
	sxt any = sx_false(c), trap = sx_false(c), r0 = bv64(m, 0);
	uint64_t h;
	bool known = sx_num(c, st->r[1], &h);

	if (!known && m->nmaps > MACH_MAX_MAPS) {
		snprintf(o->unsupported, sizeof(o->unsupported),
			 "a map helper whose map argument r1 is not a constant, with %zu maps",
			 m->nmaps);
		return sx_false(c);
	}
	if (known && h - INTERP_VA_MAPH < m->nmaps && h - INTERP_VA_MAPH >= MACH_MAX_MAPS) {
		snprintf(o->unsupported, sizeof(o->unsupported), "map %llu (only %d are modeled)",
			 (unsigned long long)(h - INTERP_VA_MAPH), MACH_MAX_MAPS);
		return sx_false(c);
	}
	for (size_t k = 0; k < m->nmaps && k < MACH_MAX_MAPS; k++) {
		sxt is_k = sx_eq(c, st->r[1], bv64(m, INTERP_VA_MAPH + k)), ret, t;

		if (sx_is_false(c, is_k))
			continue;
		t = id == BPF_FUNC_map_lookup_percpu_elem ? pcpu_lookup_on(m, &pre, k, &ret, o)
			: map_helper_on(m, st, &pre, id, k, is_k, &ret, o);
		if (o->unsupported[0])
			return sx_false(c);
		trap = sx_lor(c, trap, sx_land(c, is_k, t));
		r0 = sx_ite(c, is_k, ret, r0);
		any = sx_lor(c, any, is_k);
	}
	st->r[0] = r0;
	return sx_lor(c, sx_not(c, any), trap);
}

/* n bytes into whichever writable region holds [a, a + n), where cond holds (interp.c: mem_ptr
 * for a store, then memmove): returns the condition that one does. */
static sxt copy_into(struct mach *m, struct mstate *st, sxt a, unsigned n, const sxt *bytes,
		     sxt cond)
{
	struct sx *c = m->c;
	struct region rg[MAX_REGIONS];
	unsigned nr = regions(m, st, ACC_STORE, rg);
	sxt in_any = sx_false(c);

	for (unsigned k = 0; k < nr; k++) {
		sxt in = in_region(m, &rg[k], a, n), arr = *rg[k].arr, idx;

		if (rg[k].ro || sx_is_false(c, in))
			continue;
		idx = sx_add(c, sx_sub(c, a, bv64(m, rg[k].lo)), bv64(m, rg[k].index0));
		for (unsigned b = 0; b < n; b++)
			arr = sx_store(c, arr, sx_add(c, idx, bv64(m, b)), bytes[b]);
		*rg[k].arr = sx_ite(c, sx_land(c, in, cond), arr, *rg[k].arr);
		in_any = sx_lor(c, in_any, in);
	}
	return in_any;
}

/* [a, a + n) lies in one writable region, n a term (interp.c: mem_ptr for a store). */
static sxt writable_n(struct mach *m, struct mstate *st, sxt a, sxt n)
{
	struct sx *c = m->c;
	struct region rg[MAX_REGIONS];
	unsigned nr = regions(m, st, ACC_STORE, rg);
	sxt in_any = sx_false(c);

	for (unsigned k = 0; k < nr; k++)
		if (!rg[k].ro)
			in_any = sx_lor(c, in_any, in_region_n(m, &rg[k], a, n));
	return in_any;
}

/* n bytes as one little-endian bit-vector of 8n bits. */
static sxt le_of(struct mach *m, const sxt *b, unsigned n)
{
	sxt v = b[0];

	for (unsigned k = 1; k < n; k++)
		v = sx_concat(m->c, b[k], v);
	return v;
}

/* The 16 bytes at a as a dynptr on the stack (interp.c: dp_slot): 8 aligned bytes of the
 * stack, all 16 in one live frame; *va, *size (bv32) and *tag (bv32) from them (interp.h:
 * INTERP_DP_*).  Returns the trap condition. */
static sxt dp_slot(struct mach *m, struct mstate *st, sxt a, sxt *va, sxt *size, sxt *tag)
{
	struct sx *c = m->c;
	sxt b[16];
	sxt trap = sx_lor(c, sx_ne(c, sx_lshr(c, a, bv64(m, 44)), bv64(m, INTERP_VA_STACK >> 44)),
			  sx_ne(c, sx_and(c, a, bv64(m, 7)), bv64(m, 0)));

	trap = sx_lor(c, trap, bytes_at(m, st, a, 16, ACC_STORE, b));
	*va = sx_simplify(c, le_of(m, b, 8));
	*size = le_of(m, b + 8, 4);
	*tag = le_of(m, b + 12, 4);
	return trap;
}

/* The tag is a dynptr's (made, not released). */
static sxt dp_live(struct mach *m, sxt tag)
{
	struct sx *c = m->c;

	return sx_eq(c, sx_and(c, tag, sx_bv(c, 0xffff0000u, 32)), sx_bv(c, INTERP_DP_MAGIC, 32));
}

/* bpf_dynptr_from_mem(data, size, flags, ptr) (interp.c: dp_make_helper): a local dynptr at r4
 * over size bytes of a map value: r4 a dynptr slot not holding a ringbuf dynptr, r1 a map
 * value's address with size writable bytes (size 0: none), else a trap; flags give -EINVAL, a
 * size past INTERP_DP_MAX_SIZE -E2BIG, both a NULL dynptr.  Sets r0 and the slot's 16 bytes;
 * returns the trap condition. */
static sxt dp_from_mem(struct mach *m, struct mstate *st, struct mstep *o)
{
	struct sx *c = m->c;
	const struct mstate pre = *st;
	sxt va, size, tag, trap, flags, big, bad, sz = z64(m, lo32(m, pre.r[2])), hi;

	trap = dp_slot(m, st, pre.r[4], &va, &size, &tag);
	trap = sx_lor(c, trap, sx_land(c, dp_live(m, tag),
				       sx_eq(c, sx_and(c, tag, sx_bv(c, 0xff, 32)),
					     sx_bv(c, INTERP_DP_RINGBUF, 32))));
	trap = sx_lor(c, trap, sx_ne(c, sx_lshr(c, pre.r[1], bv64(m, 44)),
				     bv64(m, INTERP_VA_MAP >> 44)));
	trap = sx_lor(c, trap, sx_land(c, sx_ne(c, sz, bv64(m, 0)),
				       sx_not(c, writable_n(m, st, pre.r[1], sz))));
	flags = sx_ne(c, pre.r[3], bv64(m, 0));
	big = sx_ult(c, bv64(m, INTERP_DP_MAX_SIZE), sz);
	bad = sx_lor(c, flags, big);
	st->r[0] = sx_ite(c, flags, bv64(m, ERR(EINVAL)),
			  sx_ite(c, big, bv64(m, ERR(E2BIG)), bv64(m, 0)));
	hi = sx_concat(c, sx_ite(c, bad, sx_bv(c, INTERP_DP_MAGIC | INTERP_DP_LOCAL | INTERP_DP_NULL,
						32),
				 sx_bv(c, INTERP_DP_MAGIC | INTERP_DP_LOCAL, 32)),
		       sx_ite(c, bad, sx_bv(c, 0, 32), lo32(m, pre.r[2])));
	store(m, st, pre.r[4], 8, sx_ite(c, bad, bv64(m, 0), pre.r[1]), ACC_STORE);
	store(m, st, sx_add(c, pre.r[4], bv64(m, 8)), 8, z64(m, hi), ACC_STORE);
	note_store(o, pre.r[4], sx_land(c, pre.guard, sx_not(c, trap)), 16);
	return trap;
}

/* The map handle r1 of a ringbuf map's (interp.c: dp_make_helper), its max_entries in *room:
 * the condition.  Unsupported (false) when r1 may be a map past MACH_MAX_MAPS. */
static sxt ringbuf_map(struct mach *m, sxt r1, sxt *room, struct mstep *o)
{
	struct sx *c = m->c;
	sxt any = sx_false(c);
	uint64_t h;

	*room = bv64(m, 0);
	if (m->nmaps > MACH_MAX_MAPS &&
	    (!sx_num(c, r1, &h) || (h - INTERP_VA_MAPH < m->nmaps &&
				    h - INTERP_VA_MAPH >= MACH_MAX_MAPS))) {
		snprintf(o->unsupported, sizeof(o->unsupported), "a ringbuf helper whose map r1 may "
			 "be past the first %d of %zu maps", MACH_MAX_MAPS, m->nmaps);
		return sx_false(c);
	}
	for (size_t k = 0; k < m->nmaps && k < MACH_MAX_MAPS; k++) {
		sxt is_k;

		if (m->maps[k].def.type != BPF_MAP_TYPE_RINGBUF)
			continue;
		is_k = sx_eq(c, r1, bv64(m, INTERP_VA_MAPH + k));
		any = sx_lor(c, any, is_k);
		*room = sx_ite(c, is_k, bv64(m, m->maps[k].def.max_entries), *room);
	}
	return any;
}

/* bpf_ringbuf_reserve_dynptr(map, size, flags, ptr) (interp.c: dp_make_helper, rec_reserve): a
 * ringbuf dynptr at r4, a slot not holding one already, r1 a ringbuf map, else a trap.  Flags,
 * a size past INTERP_DP_MAX_SIZE (-E2BIG) or past the ring, then a drawn byte that is odd (the
 * ring full) or INTERP_MAX_RECORDS reserved give a NULL dynptr (-EINVAL); the byte is drawn only
 * when the first three pass.  Else record nrecs, size bytes that all hold the next drawn byte
 * (what the ring held), is live.  Either way a reference more (refs; a NULL one counts in
 * dnull).  Sets r0 and the slot's 16 bytes; returns the trap condition. */
static sxt dp_reserve(struct mach *m, struct mstate *st, struct mstep *o)
{
	struct sx *c = m->c;
	const struct mstate pre = *st;
	sxt va, size, tag, trap, room, isrb, sz = z64(m, lo32(m, pre.r[2])), flags, big, drawn;
	sxt ok, k = pre.nrecs, rva, hi, rbsz;

	trap = dp_slot(m, st, pre.r[4], &va, &size, &tag);
	trap = sx_lor(c, trap, sx_land(c, dp_live(m, tag),
				       sx_eq(c, sx_and(c, tag, sx_bv(c, 0xff, 32)),
					     sx_bv(c, INTERP_DP_RINGBUF, 32))));
	isrb = ringbuf_map(m, pre.r[1], &room, o);
	if (o->unsupported[0])
		return sx_false(c);
	trap = sx_lor(c, trap, sx_not(c, isrb));
	flags = sx_ne(c, pre.r[3], bv64(m, 0));
	big = sx_ult(c, bv64(m, INTERP_DP_MAX_SIZE), sz);
	drawn = sx_land(c, sx_not(c, flags), sx_land(c, sx_not(c, big), sx_ule(c, sz, room)));
	ok = sx_land(c, drawn, sx_land(c, sx_eq(c, sx_and(c, sx_select(c, m->helper, pre.hpos),
							   sx_bv(c, 1, 8)),
						    sx_bv(c, 0, 8)),
				       sx_ne(c, k, bv64(m, INTERP_MAX_RECORDS))));
	st->hpos = sx_ite(c, drawn, sx_add(c, pre.hpos, sx_ite(c, ok, bv64(m, 2), bv64(m, 1))),
			  pre.hpos);
	st->rb = sx_ite(c, ok, sx_mem_fill_hi(c, pre.rb, lo32(m, k),
					       sx_select(c, m->helper,
							 sx_add(c, pre.hpos, bv64(m, 1)))),
			pre.rb);
	rbsz = pre.rbsz;
	for (unsigned b = 0; b < 4; b++)
		rbsz = sx_store(c, rbsz, sx_add(c, sx_shl(c, k, bv64(m, 2)), bv64(m, b)),
				sx_extract(c, 8 * b + 7, 8 * b, sz));
	st->rbsz = sx_ite(c, ok, rbsz, pre.rbsz);
	st->rblive = sx_ite(c, ok, sx_or(c, pre.rblive, sx_shl(c, bv64(m, 1), k)), pre.rblive);
	st->nrecs = sx_ite(c, ok, sx_add(c, k, bv64(m, 1)), k);
	st->dnull = sx_ite(c, ok, pre.dnull, sx_add(c, pre.dnull, sx_bv(c, 1, 32)));
	st->refs = sx_add(c, pre.refs, sx_bv(c, 1, 32));
	st->r[0] = sx_ite(c, ok, bv64(m, 0),
			  sx_ite(c, sx_land(c, sx_not(c, flags), big), bv64(m, ERR(E2BIG)),
				 bv64(m, ERR(EINVAL))));
	rva = sx_add(c, bv64(m, INTERP_VA_RINGBUF), sx_shl(c, k, bv64(m, 32)));
	hi = sx_concat(c, sx_ite(c, ok, sx_bv(c, INTERP_DP_MAGIC | INTERP_DP_RINGBUF, 32),
				 sx_bv(c, INTERP_DP_MAGIC | INTERP_DP_RINGBUF | INTERP_DP_NULL, 32)),
		       sx_ite(c, ok, lo32(m, pre.r[2]), sx_bv(c, 0, 32)));
	store(m, st, pre.r[4], 8, sx_ite(c, ok, rva, bv64(m, 0)), ACC_STORE);
	store(m, st, sx_add(c, pre.r[4], bv64(m, 8)), 8, z64(m, hi), ACC_STORE);
	note_store(o, pre.r[4], sx_land(c, pre.guard, sx_not(c, trap)), 16);
	return trap;
}

/* bpf_ringbuf_submit_dynptr(ptr, flags) and bpf_ringbuf_discard_dynptr(ptr, flags) (interp.c:
 * dp_make_helper, rec_release): r1 must hold a live dynptr (else a trap), a ringbuf one (a
 * local one traps); a NULL one ends a reference of dnull, another the live record starting at
 * its address (none: a trap, released already).  The slot's 16 bytes are cleared, r0 = 0. */
static sxt dp_release(struct mach *m, struct mstate *st, struct mstep *o)
{
	struct sx *c = m->c;
	const struct mstate pre = *st;
	sxt va, size, tag, trap, null, bit, rec;

	trap = dp_slot(m, st, pre.r[1], &va, &size, &tag);
	trap = sx_lor(c, trap, sx_not(c, dp_live(m, tag)));
	trap = sx_lor(c, trap, sx_ne(c, sx_and(c, tag, sx_bv(c, 0xff, 32)),
				     sx_bv(c, INTERP_DP_RINGBUF, 32)));
	null = sx_ne(c, sx_and(c, tag, sx_bv(c, INTERP_DP_NULL, 32)), sx_bv(c, 0, 32));
	/* (a record k past 63 has no bit: not live, as k >= nrecs in the interpreter) */
	bit = sx_shl(c, bv64(m, 1), sx_lshr(c, sx_sub(c, va, bv64(m, INTERP_VA_RINGBUF)),
					    bv64(m, 32)));
	rec = sx_land(c, sx_eq(c, sx_lshr(c, va, bv64(m, 44)), bv64(m, INTERP_VA_RINGBUF >> 44)),
		      sx_land(c, sx_eq(c, sx_and(c, va, bv64(m, 0xffffffffu)), bv64(m, 0)),
			      sx_ne(c, sx_and(c, pre.rblive, bit), bv64(m, 0))));
	trap = sx_lor(c, trap, sx_land(c, sx_not(c, null), sx_not(c, rec)));
	st->dnull = sx_ite(c, null, sx_sub(c, pre.dnull, sx_bv(c, 1, 32)), pre.dnull);
	st->rblive = sx_ite(c, null, pre.rblive, sx_and(c, pre.rblive, sx_bvnot(c, bit)));
	st->refs = sx_sub(c, pre.refs, sx_bv(c, 1, 32));
	st->r[0] = bv64(m, 0);
	store(m, st, pre.r[1], 8, bv64(m, 0), ACC_STORE);
	store(m, st, sx_add(c, pre.r[1], bv64(m, 8)), 8, bv64(m, 0), ACC_STORE);
	note_store(o, pre.r[1], sx_land(c, pre.guard, sx_not(c, trap)), 16);
	return trap;
}

/* A reference still held where the interpreter checks for leaks (the main program's exit, a
 * tail call: interp.c's ringbuf_leak, reached when live_recs is not 0). */
static sxt rb_leak(struct mach *m, const struct mstate *st)
{
	struct sx *c = m->c;

	if (!st->rb)
		return sx_false(c);
	return sx_land(c, sx_ne(c, st->refs, sx_bv(c, 0, 32)),
		       sx_lor(c, sx_ne(c, st->rblive, bv64(m, 0)),
			      sx_ne(c, st->dnull, sx_bv(c, 0, 32))));
}

/* The bytes bpf_dynptr_read and bpf_dynptr_write copy at most (a length that is not a constant
 * or is larger is unsupported). */
#define DP_COPY_MAX 64

/* bpf_dynptr_read(dst, len, src, offset, flags), bpf_dynptr_write(dst, offset, src, len, flags)
 * and bpf_dynptr_data(ptr, offset, len) on a dynptr over size bytes at va (null: a NULL one),
 * what every kind of dynptr shares (interp.c: dynptr_helper): the bounds, data's result (the
 * bytes' address, NULL past them or for a NULL dynptr), the length (a constant of at most
 * DP_COPY_MAX, else unsupported; 2^29 or more traps: "size is too large"), the memory argument
 * (read: len writable bytes at r1; write: len readable ones at r3, their bytes into bytes), r0
 * (-EINVAL for a NULL dynptr or flags, -E2BIG past the bytes; read tests flags first, write
 * after the bounds).  *trap holds the dynptr's own trap condition and gains the argument's.
 * Returns true when bytes must still move: *n of them, at *at, where *ok holds. */
static bool dp_args(struct mach *m, struct mstate *st, int32_t id, sxt va, sxt size, sxt null,
		    sxt *trap, sxt *at, sxt *ok, sxt *bytes, uint64_t *n, struct mstep *o)
{
	struct sx *c = m->c;
	const struct mstate pre = *st;
	bool rd = id == BPF_FUNC_dynptr_read, wr = id == BPF_FUNC_dynptr_write;
	sxt len = z64(m, lo32(m, pre.r[rd ? 2 : wr ? 4 : 3]));
	sxt off = z64(m, lo32(m, pre.r[rd ? 4 : 2])), flags = sx_ne(c, pre.r[5], bv64(m, 0));
	sxt past = sx_lor(c, sx_ult(c, size, off), sx_ult(c, sx_sub(c, size, off), len)), ret;

	*at = sx_add(c, va, off);
	if (!rd && !wr) {
		st->r[0] = sx_ite(c, sx_lor(c, null, past), bv64(m, 0), *at);
		return false;
	}
	if (!sx_num(c, len, n) || *n > DP_COPY_MAX) {
		if (sx_num(c, len, n) && *n >= (1u << 29)) {
			*trap = sx_true(c);	/* (interp.c: "size is too large") */
			return false;
		}
		snprintf(o->unsupported, sizeof(o->unsupported), "%s with a length that is not a "
			 "constant of at most %d", ebpf_helper_name(id), DP_COPY_MAX);
		*trap = sx_false(c);
		return false;
	}
	if (*n && rd)
		*trap = sx_lor(c, *trap, sx_not(c, writable_n(m, st, pre.r[1], bv64(m, *n))));
	else if (*n)
		*trap = sx_lor(c, *trap, bytes_at(m, st, pre.r[3], (unsigned)*n, ACC_RAW, bytes));
	ret = rd ? sx_ite(c, sx_lor(c, null, flags), bv64(m, ERR(EINVAL)),
			  sx_ite(c, past, bv64(m, ERR(E2BIG)), bv64(m, 0)))
		 : sx_ite(c, null, bv64(m, ERR(EINVAL)),
			  sx_ite(c, past, bv64(m, ERR(E2BIG)),
				 sx_ite(c, flags, bv64(m, ERR(EINVAL)), bv64(m, 0))));
	st->r[0] = ret;
	*ok = sx_land(c, sx_not(c, *trap), sx_eq(c, ret, bv64(m, 0)));
	return *n != 0;
}

/* bpf_dynptr_read, _write and _data on a dynptr on the stack (interp.c: dp_get,
 * dynptr_helper): not a live dynptr traps; the bytes are its memory's [offset, offset + len),
 * a map value's (from_mem), reached through the regions as the interpreter's mem_ptr does. */
static sxt dp_stack_helper(struct mach *m, struct mstate *st, int32_t id, struct mstep *o)
{
	struct sx *c = m->c;
	const struct mstate pre = *st;
	bool rd = id == BPF_FUNC_dynptr_read;
	sxt va, size, tag, trap, null, ok, at, bytes[DP_COPY_MAX];
	uint64_t n;

	trap = dp_slot(m, st, pre.r[rd ? 3 : 1], &va, &size, &tag);
	trap = sx_lor(c, trap, sx_not(c, dp_live(m, tag)));
	null = sx_ne(c, sx_and(c, tag, sx_bv(c, INTERP_DP_NULL, 32)), sx_bv(c, 0, 32));
	if (!dp_args(m, st, id, va, z64(m, size), null, &trap, &at, &ok, bytes, &n, o))
		return trap;
	if (rd) {
		/* the dynptr's bytes (a load), then into the destination */
		sxt miss = bytes_at(m, st, at, (unsigned)n, ACC_LOAD, bytes);

		trap = sx_lor(c, trap, sx_land(c, ok, miss));
		ok = sx_land(c, ok, sx_not(c, miss));
		copy_into(m, st, pre.r[1], (unsigned)n, bytes, ok);
		note_store(o, pre.r[1], sx_land(c, pre.guard, ok), (uint32_t)n);
	} else {
		sxt in = copy_into(m, st, at, (unsigned)n, bytes, ok);

		trap = sx_lor(c, trap, sx_land(c, ok, sx_not(c, in)));
		note_store(o, at, sx_land(c, pre.guard, sx_land(c, ok, in)), (uint32_t)n);
	}
	return trap;
}

/* bpf_dynptr_read, _write and _data (dp_args) on the dynptr of a running
 * bpf_user_ringbuf_drain callback (interp.c: urb_dynptr, dynptr_helper): a dynptr argument
 * that is not INTERP_VA_DYNPTR + k of a frame k with a sample traps; the bytes are the
 * sample's, data's result INTERP_VA_URB + 256k + offset.  A dynptr on the stack:
 * dp_stack_helper. */
static sxt dynptr_helper(struct mach *m, struct mstate *st, int32_t id, struct mstep *o)
{
	struct sx *c = m->c;
	const struct mstate pre = *st;
	bool rd = id == BPF_FUNC_dynptr_read;
	sxt dp = pre.r[rd ? 3 : 1], is[MACH_NFRAMES] = { 0 };
	sxt any = sx_false(c), size = bv64(m, 0), base = bv64(m, 0), ok, trap, stk, at;
	sxt off = z64(m, lo32(m, pre.r[rd ? 4 : 2])), bytes[DP_COPY_MAX];
	uint64_t n;

	for (unsigned f = 1; f <= pre.depth && f < MACH_NFRAMES; f++) {
		if (!pre.urb[f])
			continue;
		is[f] = sx_eq(c, dp, bv64(m, INTERP_VA_DYNPTR + f));
		any = sx_lor(c, any, is[f]);
		size = sx_ite(c, is[f], pre.urbsz[f], size);
		base = sx_ite(c, is[f], bv64(m, INTERP_VA_URB + ((uint64_t)f << 8)), base);
	}
	/* a dynptr on the stack (bpf_dynptr_from_mem, bpf_ringbuf_reserve_dynptr: interp.c's
	 * dp_get): dp_stack_helper; an argument that may be either is not encoded */
	stk = sx_eq(c, sx_lshr(c, dp, bv64(m, 44)), bv64(m, INTERP_VA_STACK >> 44));
	if (sx_is_true(c, stk))
		return dp_stack_helper(m, st, id, o);
	if (!sx_is_false(c, stk)) {
		snprintf(o->unsupported, sizeof(o->unsupported), "%s on a dynptr argument that may "
			 "or may not be on the stack: not encoded", ebpf_helper_name(id));
		return sx_false(c);
	}
	trap = sx_not(c, any);
	if (!dp_args(m, st, id, base, size, sx_false(c), &trap, &at, &ok, bytes, &n, o))
		return trap;
	if (rd) {
		/* the sample's bytes first (memmove), then into the destination's region */
		for (unsigned b = 0; b < n; b++) {
			bytes[b] = sx_bv(c, 0, 8);
			for (unsigned f = 1; f <= pre.depth && f < MACH_NFRAMES; f++)
				if (is[f])
					bytes[b] = sx_ite(c, is[f], sx_select(c, pre.urb[f],
									      sx_add(c, off,
										     bv64(m, b))),
							  bytes[b]);
		}
		copy_into(m, st, pre.r[1], (unsigned)n, bytes, ok);
		note_store(o, pre.r[1], sx_land(c, pre.guard, ok), (uint32_t)n);
	} else {
		for (unsigned f = 1; f <= pre.depth && f < MACH_NFRAMES; f++) {
			sxt arr = pre.urb[f];

			if (!is[f])
				continue;
			for (unsigned b = 0; b < n; b++)
				arr = sx_store(c, arr, sx_add(c, off, bv64(m, b)), bytes[b]);
			st->urb[f] = sx_ite(c, sx_land(c, is[f], ok), arr, st->urb[f]);
		}
		note_store(o, at, sx_land(c, pre.guard, ok), (uint32_t)n);
	}
	return trap;
}

/* A helper call: returns the trap condition; r0 and the stream position updated. */
bool mach_helper_unrun(int32_t id)
{
	const struct ebpf_helper_proto *p;

	switch (id) {	/* helper()'s cases, each encoded or run by the interpreter */
	case BPF_FUNC_map_lookup_elem: case BPF_FUNC_map_update_elem:
	case BPF_FUNC_map_delete_elem: case BPF_FUNC_map_lookup_percpu_elem:
	case BPF_FUNC_trace_printk: case BPF_FUNC_tail_call:
	case BPF_FUNC_ringbuf_reserve: case BPF_FUNC_ringbuf_submit:
	case BPF_FUNC_ringbuf_discard: case BPF_FUNC_dynptr_read: case BPF_FUNC_dynptr_write:
	case BPF_FUNC_dynptr_data: case BPF_FUNC_dynptr_from_mem:
	case BPF_FUNC_ringbuf_reserve_dynptr: case BPF_FUNC_ringbuf_submit_dynptr:
	case BPF_FUNC_ringbuf_discard_dynptr: case BPF_FUNC_timer_init:
	case BPF_FUNC_timer_set_callback: case BPF_FUNC_timer_start: case BPF_FUNC_timer_cancel:
	case BPF_FUNC_spin_lock: case BPF_FUNC_spin_unlock:
	/* (callback helpers: mach_step leaves them to the prover's exec_cb_helper) */
	case BPF_FUNC_loop: case BPF_FUNC_for_each_map_elem: case BPF_FUNC_find_vma:
	case BPF_FUNC_user_ringbuf_drain:
	case BPF_FUNC_get_local_storage: case BPF_FUNC_sk_storage_get:
		return false;
	}
	if (interp_helper_draw_width(id))
		return false;
	p = ebpf_helper_proto(id);
	return !p || (p->ret != HRET_INTEGER && p->ret != HRET_BTF_ID &&
		      p->ret != HRET_BTF_ID_OR_NULL && p->ret != HRET_SOCKET_OR_NULL &&
		      p->ret != HRET_TCP_SOCK_OR_NULL && p->ret != HRET_SOCK_COMMON_OR_NULL);
}

static sxt helper(struct mach *m, struct mstate *st, int32_t id, struct mstep *o)
{
	struct sx *c = m->c;
	sxt trap = sx_false(c);

	switch (id) {
	case BPF_FUNC_map_lookup_elem:
	case BPF_FUNC_map_update_elem:
	case BPF_FUNC_map_delete_elem:
	case BPF_FUNC_map_lookup_percpu_elem:
		trap = map_helper(m, st, id, o);
		break;
	case BPF_FUNC_trace_printk:
	case BPF_FUNC_tail_call:
		trap = rb_leak(m, st);
		st->r[0] = bv64(m, 0);
		break;
	case BPF_FUNC_ringbuf_reserve:
	case BPF_FUNC_ringbuf_submit:
	case BPF_FUNC_ringbuf_discard:
		goto interp_only;
	case BPF_FUNC_dynptr_read:
	case BPF_FUNC_dynptr_write:
	case BPF_FUNC_dynptr_data:
		trap = dynptr_helper(m, st, id, o);
		break;
	case BPF_FUNC_dynptr_from_mem:
		trap = dp_from_mem(m, st, o);
		break;
	case BPF_FUNC_ringbuf_reserve_dynptr:
		trap = dp_reserve(m, st, o);
		break;
	case BPF_FUNC_ringbuf_submit_dynptr:
	case BPF_FUNC_ringbuf_discard_dynptr:
		trap = dp_release(m, st, o);
		break;
	/* (the timer's state in its bytes; the callback runs later, on its own: never in a run) */
	case BPF_FUNC_timer_init:
	case BPF_FUNC_timer_set_callback:
	case BPF_FUNC_timer_start:
	case BPF_FUNC_timer_cancel:
	/* (a cgroup storage: the map's one element, not encoded) */
	case BPF_FUNC_get_local_storage:
	case BPF_FUNC_sk_storage_get:	/* (a socket storage: the same, and drawn) */
		goto interp_only;
	/* (the lock held: the interpreter's lock_helper checks it) */
	case BPF_FUNC_spin_lock:
	case BPF_FUNC_spin_unlock:
		goto interp_only;
	default: {
		/* the interpreter runs every helper of the prototype table whose result is an
		 * integer or a kernel object (interp.c: do_helper, proto_helper): not encoded; a
		 * trap here would make the paths through the call vacuous */
		unsigned w = interp_helper_draw_width(id);

		if (w) {
			/* (a result the interpreter draws: a time, a random number, a CPU id) */
			st->r[0] = draw(m, st, w);
			break;
		}
		if (!mach_helper_unrun(id))
			goto interp_only;
		/* not run by the interpreter: it traps, and so does the machine (smt_diff holds
		 * them to one step); the prover says unknown past it (smt_prove.c) */
		return sx_true(c);
	}
	}
	poison_args(m, st);
	return trap;
interp_only:
	snprintf(o->unsupported, sizeof(o->unsupported),
		 "helper %s (id %d) is run by the interpreter, not encoded",
		 ebpf_helper_name(id) ? ebpf_helper_name(id) : "?", id);
	return sx_false(c);
}

/* bpf_iter_num_new ('n'), _next ('x') and _destroy ('d') on the iterator at r1 (interp.c:
 * iter_lifecycle, do_kfunc): sets r0, the iterator's bytes, the frame's live iterators; returns
 * the trap condition. */
static sxt iter_kfunc(struct mach *m, struct mstate *st, char kind, struct mstep *o)
{
	struct sx *c = m->c;
	uint64_t lo = INTERP_VA_STACK + (uint64_t)st->depth * EBPF_STACK_SIZE;
	sxt a = st->r[1], off = sx_sub(c, a, bv64(m, lo)), arr = st->stack[st->depth];
	sxt bit = sx_shl(c, bv64(m, 1), sx_lshr(c, off, bv64(m, 3)));
	sxt live = sx_ne(c, sx_and(c, st->iters[st->depth], bit), bv64(m, 0));
	sxt inframe = sx_land(c, sx_ult(c, off, bv64(m, EBPF_STACK_SIZE)),
			      sx_eq(c, sx_and(c, off, bv64(m, 7)), bv64(m, 0)));
	sxt cur = sx_extract(c, 31, 0, read_le(m, arr, off, 4));
	sxt end = sx_extract(c, 31, 0, read_le(m, arr, sx_add(c, off, bv64(m, 4)), 4));
	sxt zero32 = sx_bv(c, 0, 32), ncur, nend, trap;

	if (kind == 'n') {
		sxt start = sx_extract(c, 31, 0, st->r[2]), e = sx_extract(c, 31, 0, st->r[3]);
		sxt inv = sx_slt(c, e, start);
		sxt big = sx_slt(c, bv64(m, INTERP_MAX_LOOPS),
				 sx_sub(c, sx_sext(c, 64, e), sx_sext(c, 64, start)));
		sxt bad = sx_lor(c, inv, big);

		trap = sx_lor(c, sx_not(c, inframe), live);
		ncur = sx_ite(c, bad, zero32, sx_sub(c, start, sx_bv(c, 1, 32)));
		nend = sx_ite(c, bad, zero32, e);
		st->r[0] = sx_ite(c, inv, bv64(m, ERR(EINVAL)),
				  sx_ite(c, big, bv64(m, ERR(E2BIG)), bv64(m, 0)));
		st->iters[st->depth] = sx_or(c, st->iters[st->depth], bit);
	} else if (kind == 'x') {
		sxt c1 = sx_add(c, cur, sx_bv(c, 1, 32)), done = sx_sle(c, end, c1);

		trap = sx_lor(c, sx_not(c, inframe), sx_not(c, live));
		ncur = sx_ite(c, done, zero32, c1);
		nend = sx_ite(c, done, zero32, end);
		st->r[0] = sx_ite(c, done, bv64(m, 0), a);
	} else {
		trap = sx_lor(c, sx_not(c, inframe), sx_not(c, live));
		ncur = nend = zero32;
		st->r[0] = m->poison;
		st->iters[st->depth] = sx_and(c, st->iters[st->depth], sx_bvnot(c, bit));
	}
	arr = write_le(m, arr, off, 4, sx_zext(c, 64, ncur));
	st->stack[st->depth] = write_le(m, arr, sx_add(c, off, bv64(m, 4)), 4, sx_zext(c, 64, nend));
	note_store(o, a, sx_land(c, st->guard, sx_not(c, trap)), 8);
	poison_args(m, st);
	return trap;
}

/* A function starts at slot: a pseudo-call target or an LD_IMM64 function reference. */
static bool is_function(struct mach *m, uint64_t slot)
{
	if (slot == 0)
		return true;
	for (size_t pc = 0; pc < m->len; pc += ebpf_insn_slots(&m->insns[pc])) {
		const struct bpf_insn *in = &m->insns[pc];

		if ((ebpf_is_pseudo_call(in) || (ebpf_is_ldimm64(in) && in->src_reg == BPF_PSEUDO_FUNC)) &&
		    (uint64_t)((int64_t)pc + 1 + in->imm) == slot)
			return true;
	}
	return false;
}

/* ---- one instruction ---- */

static void succ(struct mstep *o, const struct mstate *st, sxt g, uint32_t pc)
{
	o->succ[o->n] = *st;
	o->succ[o->n].guard = g;
	o->pc[o->n++] = pc;
}

void mach_step(struct mach *m, const struct mstate *in, uint32_t pc, struct mstep *o)
{
	struct sx *c = m->c;
	const struct bpf_insn *i = &m->insns[pc];
	uint8_t cls = ebpf_class(i);
	uint32_t next = pc + ebpf_insn_slots(i);
	struct mstate st = *in;
	sxt g = in->guard, trap = sx_false(c);

	memset(o, 0, sizeof(*o));
	o->end = sx_false(c);
	if (ebpf_writes_fp(i)) {	/* (interp.c: FP_WRITE, a trap wherever a run reaches it) */
		o->trap = g;
		return;
	}
	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		do_alu(m, i, &st, o);
		succ(o, &st, g, next);
		break;
	case BPF_JMP:
	case BPF_JMP32: {
		uint8_t op = ebpf_op(i);
		uint32_t tgt = (uint32_t)ebpf_jump_target(i, pc);

		if (op == BPF_JA) {
			succ(o, &st, g, tgt);
		} else if (op == BPF_EXIT) {
			/* a live iterator of the frame leaks (interp.c: iter_leak) */
			trap = sx_ne(c, st.iters[st.depth], bv64(m, 0));
			if (st.depth == 0) {
				/* ... and a reference held (ringbuf_leak) */
				trap = sx_lor(c, trap, rb_leak(m, &st));
				o->end = sx_land(c, g, sx_not(c, trap));
				break;
			}
			g = sx_land(c, g, sx_not(c, trap));
			/* return: the caller's r6-r10 come back, r1-r5 are poisoned */
			st.depth--;
			for (int k = 0; k < 5; k++)
				st.r[6 + k] = st.saved[st.depth][k];
			poison_args(m, &st);
			st.stack[st.depth + 1] = NULL;
			st.maygoto[st.depth + 1] = NULL;
			st.iters[st.depth + 1] = NULL;
			st.keys[st.depth + 1] = NULL;
			st.urb[st.depth + 1] = st.urbsz[st.depth + 1] = NULL;
			o->ret = true;
			succ(o, &st, g, st.ret_pc[st.depth]);
		} else if (op == BPF_CALL) {
			uint64_t target;

			if (ebpf_srcbit(i) == BPF_X) {
				if (!sx_is_const(c, st.r[i->dst_reg], &target)) {
					snprintf(o->unsupported, sizeof(o->unsupported),
						 "callx through r%u, which is not a constant",
						 i->dst_reg);
					break;
				}
				target -= INTERP_VA_FUNC;
				if (target >= m->len || !is_function(m, target)) {
					trap = sx_true(c);
					break;
				}
			} else if (i->src_reg == BPF_PSEUDO_CALL) {
				target = pc + 1 + (int64_t)i->imm;
			} else if (i->src_reg == BPF_PSEUDO_KFUNC_CALL) {
				const char *kn = ebpf_prog_kfunc_name(m->prog, pc);
				struct ebpf_kfunc_iter ik;

				/* the interpreter runs the open-coded iterator kfuncs (their state in
				 * the frame, next's result a pointer into it: iter_kfunc) and the
				 * reference kfuncs (not encoded); any other kfunc traps there */
				if (kn && (!strcmp(kn, "bpf_iter_num_new") ||
					   !strcmp(kn, "bpf_iter_num_next") ||
					   !strcmp(kn, "bpf_iter_num_destroy")) && m->no_iters) {
					snprintf(o->unsupported, sizeof(o->unsupported),
						 "%s at %u (the first pass cuts it)", kn, pc);
					break;
				}
				if (kn && (!strcmp(kn, "bpf_iter_num_new") ||
					   !strcmp(kn, "bpf_iter_num_next") ||
					   !strcmp(kn, "bpf_iter_num_destroy"))) {
					trap = iter_kfunc(m, &st, !strcmp(kn, "bpf_iter_num_new") ? 'n'
							  : !strcmp(kn, "bpf_iter_num_next") ? 'x' : 'd', o);
					if (!o->unsupported[0])
						succ(o, &st, sx_land(c, g, sx_not(c, trap)), next);
					break;
				}
				if (kn && ebpf_kfunc_ref(kn)) {
					snprintf(o->unsupported, sizeof(o->unsupported),
						 "%s at %u: kfunc references are not encoded", kn, pc);
					break;
				}
				/* (the kfuncs of bpf/kfunc_table.c the interpreter runs from their
				 * prototype: the cpumask objects it keeps are not encoded) */
				if (kn && ebpf_kfunc_info(kn)) {
					snprintf(o->unsupported, sizeof(o->unsupported),
						 "%s at %u: run by the interpreter, not encoded", kn, pc);
					break;
				}
				/* (the dynptr kfuncs: run by the interpreter on its dynptr records,
				 * not encoded; the claims past one are unknown with its name) */
				if (interp_dynptr_kfunc(kn)) {
					snprintf(o->unsupported, sizeof(o->unsupported),
						 "%s at %u: the dynptr kfuncs are run by the interpreter, "
						 "not encoded", kn, pc);
					break;
				}
				if (kn && ebpf_kfunc_iter(kn, &ik) && ik.family != EBPF_ITER_NUM) {
					/* (the interpreter runs it too: the bits iterator's copy of
					 * the words, the object iterators' drawn walks) */
					snprintf(o->unsupported, sizeof(o->unsupported),
						 "%s at %u: the %s iterator is not encoded", kn, pc,
						 ik.family_name);
					break;
				}
				trap = sx_true(c);
				break;
			} else if (i->imm == BPF_FUNC_loop || i->imm == BPF_FUNC_for_each_map_elem ||
				   i->imm == BPF_FUNC_find_vma ||
				   i->imm == BPF_FUNC_user_ringbuf_drain) {
				/* the interpreter runs the callback in a frame of its own, again and
				 * again: encoded by the prover (smt_prove.c: exec_cb_helper), not here
				 * (a trap would make the paths through the call vacuous) */
				snprintf(o->unsupported, sizeof(o->unsupported), "%s at %u: encoded by "
					 "the prover, not instruction by instruction",
					 ebpf_helper_name(i->imm) ? ebpf_helper_name(i->imm) : "?", pc);
				break;
			} else {
				trap = helper(m, &st, i->imm, o);
				if (!o->unsupported[0])
					succ(o, &st, sx_land(c, g, sx_not(c, trap)), next);
				break;
			}
			/* bpf-to-bpf: a fresh zeroed frame, r0 and r6-r9 poisoned */
			if (st.depth + 1 >= MACH_NFRAMES) {
				trap = sx_true(c);
				break;
			}
			st.ret_pc[st.depth] = next;
			for (int k = 0; k < 5; k++)
				st.saved[st.depth][k] = st.r[6 + k];
			st.depth++;
			st.stack[st.depth] = sx_mem_const(c, 0);
			st.maygoto[st.depth] = mach_may_goto_budget(m);
			st.iters[st.depth] = bv64(m, 0);
			st.keys[st.depth] = NULL;
			st.urb[st.depth] = st.urbsz[st.depth] = NULL;
			st.r[0] = m->poison;
			for (int k = 6; k <= 9; k++)
				st.r[k] = m->poison;
			st.r[10] = bv64(m, INTERP_VA_STACK + (uint64_t)(st.depth + 1) * EBPF_STACK_SIZE);
			o->call = true;
			succ(o, &st, g, (uint32_t)target);
		} else if (op == BPF_JCOND) {	/* may_goto: jumps once the budget is spent */
			sxt cnt = st.maygoto[st.depth], zero = sx_eq(c, cnt, bv64(m, 0));
			struct mstate dec = st;

			dec.maygoto[st.depth] = sx_sub(c, cnt, bv64(m, 1));
			succ(o, &dec, sx_land(c, g, sx_not(c, zero)), next);
			succ(o, &st, sx_land(c, g, zero), tgt);
		} else {
			sxt k = cond(m, i, &st);

			if (!k) {
				snprintf(o->unsupported, sizeof(o->unsupported), "jump op 0x%02x",
					 i->code);
				break;
			}
			succ(o, &st, sx_land(c, g, sx_not(c, k)), next);
			succ(o, &st, sx_land(c, g, k), tgt);
		}
		break;
	}
	case BPF_LD:
		if (ebpf_is_ldimm64(i)) {
			uint64_t v = ebpf_ldimm64_value(i), idx = (uint32_t)i->imm;

			switch (i->src_reg) {
			case 0:
				break;
			case BPF_PSEUDO_MAP_FD:
			case BPF_PSEUDO_MAP_IDX:
				v = INTERP_VA_MAPH + idx;
				break;
			case BPF_PSEUDO_MAP_VALUE:
			case BPF_PSEUDO_MAP_IDX_VALUE:
				if (idx >= INTERP_MAX_MAPS)
					trap = sx_true(c);
				v = INTERP_VA_MAP + (idx << 32) + (uint32_t)i[1].imm;
				break;
			case BPF_PSEUDO_FUNC:
				v = INTERP_VA_FUNC + pc + 1 + (int64_t)i->imm;
				break;
			default:	/* BTF ids */
				trap = sx_true(c);
				break;
			}
			if (sx_is_true(c, trap))
				break;
			st.r[i->dst_reg] = bv64(m, v);
			succ(o, &st, g, next);
		} else {
			/* LD_ABS/LD_IND: big-endian from the input; out of bounds ends the program */
			unsigned n = ebpf_size_bytes(ebpf_size(i));
			sxt o32 = sx_bv(c, (uint32_t)i->imm, 32), off, oob, v = NULL;

			if (ebpf_mode(i) == BPF_IND)
				o32 = sx_add(c, o32, lo32(m, st.r[i->src_reg]));
			off = sx_sext(c, 64, o32);
			oob = sx_lor(c, sx_slt(c, off, bv64(m, 0)),
				     sx_ult(c, bv64(m, m->input_len), sx_add(c, off, bv64(m, n))));
			for (unsigned k = 0; k < n; k++) {
				sxt b = sx_select(c, st.input, sx_add(c, off, bv64(m, k)));

				v = v ? sx_concat(c, v, b) : b;
			}
			o->end = sx_land(c, g, oob);
			st.r[0] = z64(m, v);
			poison_args(m, &st);
			succ(o, &st, sx_land(c, g, sx_not(c, oob)), next);
		}
		break;
	case BPF_LDX:
	case BPF_STX:
		if (cls == BPF_LDX || (ebpf_mode(i) == BPF_ATOMIC && i->imm == BPF_LOAD_ACQ)) {
			unsigned n = ebpf_size_bytes(ebpf_size(i));
			sxt a = sx_add(c, st.r[i->src_reg], bv64(m, (uint64_t)(int64_t)i->off)), v;
			struct loaded ld;

			load(m, &st, a, n, ACC_LOAD, &ld);
			trap = sx_lor(c, ld.trap, ctx_moved(m, a, n, i->off));
			v = ld.val;
			if (cls == BPF_LDX && ebpf_mode(i) == BPF_MEMSX)
				v = sx_sext(c, 64, sx_extract(c, 8 * n - 1, 0, v));
			st.r[i->dst_reg] = sx_ite(c, ld.isptr, ld.ptr, v);
			succ(o, &st, sx_land(c, g, sx_not(c, trap)), next);
			break;
		}
		if (ebpf_mode(i) == BPF_MEM || i->imm == BPF_STORE_REL) {
			unsigned n = ebpf_size_bytes(ebpf_size(i));
			sxt a = sx_add(c, st.r[i->dst_reg], bv64(m, (uint64_t)(int64_t)i->off));

			trap = sx_lor(c, store(m, &st, a, n, st.r[i->src_reg], ACC_STORE),
				      ctx_moved(m, a, n, i->off));
			note_store(o, a, sx_land(c, g, sx_not(c, trap)), n);
			succ(o, &st, sx_land(c, g, sx_not(c, trap)), next);
			break;
		}
		{
			/* atomics: read, compute, write back; fetch forms return the old value */
			unsigned n = ebpf_size_bytes(ebpf_size(i)), w = 8 * n;
			sxt a = sx_add(c, st.r[i->dst_reg], bv64(m, (uint64_t)(int64_t)i->off));
			sxt s = sx_extract(c, w - 1, 0, st.r[i->src_reg]), old, nv;
			struct loaded ld;
			int32_t aop = i->imm & ~BPF_FETCH;

			load(m, &st, a, n, ACC_RAW, &ld);
			trap = ld.trap;
			old = sx_extract(c, w - 1, 0, ld.val);
			if (i->imm == BPF_CMPXCHG) {
				nv = sx_ite(c, sx_eq(c, old, sx_extract(c, w - 1, 0, st.r[0])), s, old);
			} else if (i->imm == BPF_XCHG) {
				nv = s;
			} else {
				nv = aop == BPF_ADD ? sx_add(c, old, s)
				   : aop == BPF_OR ? sx_or(c, old, s)
				   : aop == BPF_AND ? sx_and(c, old, s)
				   : aop == BPF_XOR ? sx_xor(c, old, s) : NULL;
			}
			if (!nv) {
				snprintf(o->unsupported, sizeof(o->unsupported), "atomic op 0x%x",
					 i->imm);
				break;
			}
			/* (the key and kernel objects read, but an atomic writes too) */
			trap = sx_lor(c, trap, store(m, &st, a, n, nv, ACC_RAW));
			note_store(o, a, sx_land(c, g, sx_not(c, trap)), n);
			if (i->imm == BPF_CMPXCHG)
				st.r[0] = z64(m, old);
			else if (i->imm & BPF_FETCH)
				st.r[i->src_reg] = z64(m, old);
			succ(o, &st, sx_land(c, g, sx_not(c, trap)), next);
		}
		break;
	case BPF_ST: {
		unsigned n = ebpf_size_bytes(ebpf_size(i));
		sxt a = sx_add(c, st.r[i->dst_reg], bv64(m, (uint64_t)(int64_t)i->off));

		trap = sx_lor(c, store(m, &st, a, n, bv64(m, (uint64_t)(int64_t)i->imm), ACC_STORE),
			      ctx_moved(m, a, n, i->off));
		note_store(o, a, sx_land(c, g, sx_not(c, trap)), n);
		succ(o, &st, sx_land(c, g, sx_not(c, trap)), next);
		break;
	}
	default:
		snprintf(o->unsupported, sizeof(o->unsupported), "instruction class %u", cls);
		break;
	}
	o->trap = sx_land(c, g, trap);
	if (o->unsupported[0]) {
		o->n = 0;
		o->trap = sx_false(c);
	}
	if (sx_failed(c) && !o->unsupported[0]) {
		snprintf(o->unsupported, sizeof(o->unsupported), "%s", sx_failed(c));
		o->n = 0;
	}
}

/* ---- locations and regions for the prover ---- */

sxt mach_loc_value(struct mach *m, const struct mstate *st, uint32_t loc)
{
	int32_t off;
	uint32_t size;

	if (loc < EBPF_NREGS)
		return st->r[loc];
	off = -(int32_t)((loc - 16) / 4);
	size = 1u << ((loc - 16) % 4);
	if (loc < 16 || off < -EBPF_STACK_SIZE || off + (int32_t)size > 0)
		return NULL;
	return read_le(m, st->stack[st->depth], bv64(m, (uint64_t)(EBPF_STACK_SIZE + off)), size);
}

bool mach_loc_write(struct mach *m, struct mstate *st, uint32_t loc, sxt v)
{
	int32_t off;
	uint32_t size;

	if (loc < EBPF_NREGS) {
		st->r[loc] = v;
		return true;
	}
	off = -(int32_t)((loc - 16) / 4);
	size = 1u << ((loc - 16) % 4);
	if (loc < 16 || off < -EBPF_STACK_SIZE || off + (int32_t)size > 0)
		return false;
	st->stack[st->depth] = write_le(m, st->stack[st->depth],
					bv64(m, (uint64_t)(EBPF_STACK_SIZE + off)), size, v);
	return true;
}

unsigned mach_regions(struct mach *m, struct mstate *st, struct mach_region *out, unsigned max)
{
	struct region rg[MAX_REGIONS];
	unsigned nr = regions(m, st, ACC_STORE, rg), n = 0;

	for (unsigned k = 0; k < nr && n < max; k++) {
		uint64_t cnt = rg[k].evs ? rg[k].len >> rg[k].eshift : 0;

		if (cnt && cnt <= max - n - (nr - k - 1)) {
			/* a map's values, one region each (the gaps between them are no one's) */
			for (uint64_t e = 0; e < cnt; e++)
				out[n++] = (struct mach_region){ rg[k].arr,
								 rg[k].lo + (e << rg[k].eshift),
								 rg[k].evs,
								 rg[k].index0 + (e << rg[k].eshift),
								 true };
			continue;
		}
		out[n++] = (struct mach_region){ rg[k].arr, rg[k].lo, rg[k].len, rg[k].index0 };
	}
	return n;
}

sxt *mach_region_of(struct mach *m, struct mstate *st, uint64_t addr, uint64_t len,
		    uint64_t *index, uint64_t *region_lo, uint64_t *region_len)
{
	struct region rg[MAX_REGIONS];
	unsigned nr = regions(m, st, ACC_STORE, rg);

	for (unsigned k = 0; k < nr; k++) {
		uint64_t lo = rg[k].lo, rlen = rg[k].len;

		if (rg[k].evs && addr - lo < rlen) {	/* a map: the value addr's window holds */
			lo += (addr - lo) & ~((1ull << rg[k].eshift) - 1);
			rlen = rg[k].evs;
		}
		if (addr - lo < rlen && len <= rlen - (addr - lo)) {
			*index = addr - rg[k].lo + rg[k].index0;
			*region_lo = lo;
			*region_len = rlen;
			return rg[k].arr;
		}
	}
	return NULL;
}
