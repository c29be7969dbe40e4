/* Ringbuf records, acquired kernel objects and looked-up sockets in the range analysis and the
 * verdict, as the kernel tracks references.  Ringbuf records:
 * bpf_ringbuf_reserve(map, size, flags) acquires a record of size bytes (a constant) or returns
 * NULL; bpf_ringbuf_submit and bpf_ringbuf_discard release it, given the record itself (not NULL,
 * offset 0), and every copy of the pointer (registers, spills) is invalid from then on; a
 * program may not exit, tail-call or use LD_ABS/LD_IND while it holds one
 * (check_reference_leak: "Unreleased reference").
 *
 * A record is named by its reserve call, a site (scev_ctx.ref_sites): a REGION_RINGBUF pointer
 * holds the site in aval.map, and the states hold the sites whose record is held on some path
 * and on every path (astate.ref).  Two records of one site are never held at once: a reserve
 * whose site's record may still be held is answered unsupported.  So every non-null pointer of
 * site k in a state made by running instructions is the record the latest run of k returned, and
 * it is held: a release turns every holder of k into a scalar (the kernel's mark_reg_invalid
 * for a privileged loader), a null check of the reserve's own result (its maybe-null id, which
 * only the latest run's result carries) settles the record with it — NULL: nothing was
 * acquired; not NULL: held.  Joins keep the pointers of a site apart from scalars (a pointer
 * joined with a released copy is unknown) and the states' masks as may/must, but for one: a
 * record held on every path of one side and not NULL there, against the number 0 on a side that
 * holds none of its site, is the call's result again, maybe NULL with its id (a record keeps the
 * id once not NULL), held exactly when it is not (absint_ref_join_zero: "if r6 != 0 goto l; r3 =
 * 0; l: if r6 == 0 goto out; release r6", which the kernel walks apart).
 *
 * Loop headers and exits are made from the summaries, not by running the body: a pointer the
 * body does not write keeps its value there although the body may have released it.  In a loop
 * whose blocks reserve or release, every record pointer at the header (and at its exits) is
 * unknown; in the others nothing is acquired or released, so the entry's pointers stay valid.
 *
 * Sockets the same way: bpf_sk_lookup_tcp, bpf_sk_lookup_udp and bpf_skc_lookup_tcp acquire a
 * socket (REGION_SOCK, its map naming the site) or return NULL, bpf_sk_release releases it given
 * any socket holding the reference at offset 0 — the lookup's result or what bpf_sk_fullsock or
 * bpf_tcp_sock made of it, which share the reference (the kernel's ref_obj_id) — and every
 * holder of it becomes a scalar.  A NULL test of such a cast's result settles nothing (its id is
 * the cast's call).  bpf_map_lookup_elem on a sockmap or sockhash acquires a full socket the
 * same way (the kernel's is_acquire_function), a site when the call's block loads the map into r1
 * (sockmap_lookup_at), unsupported when it does not.
 *
 * What is not modeled is answered unsupported: ringbuf calls, socket lookups or their accesses
 * outside the main function (a subprogram, callback or global function), a record or socket
 * given to a bpf-to-bpf call or a callback helper, a call while one is held when subprograms
 * tail-call or use LD_ABS, a size that is not a constant set in the call's block, more than
 * SCEV_REF_SITES reserve, lookup and acquire calls, and the dynptr forms.
 */
#include <errno.h>
#include <stdio.h>

#include "scev/absint.h"

#include "bpf/helper_proto.h"
#include "util/arena.h"

/* The socket a lookup helper returns, 1 + enum ebpf_sock_kind, or 0 for another helper. */
static uint8_t sock_lookup(int32_t id)
{
	return id == BPF_FUNC_sk_lookup_tcp || id == BPF_FUNC_sk_lookup_udp ? 1 + EBPF_SOCK_FULL
	       : id == BPF_FUNC_skc_lookup_tcp ? 1 + EBPF_SOCK_COMMON : 0;
}

/* Whether map type t is a socket map whose lookup acquires a socket (the kernel's
 * is_acquire_function: a sockmap or sockhash). */
static bool sockmap_type(uint32_t t)
{
	return t == BPF_MAP_TYPE_SOCKMAP || t == BPF_MAP_TYPE_SOCKHASH;
}

/* Whether the call at pc is bpf_map_lookup_elem of a socket map the call's block loads into r1
 * (the last write of r1 before the call is r1 = map[...] ll, as clang emits it): a referenced
 * full socket or NULL (PTR_TO_SOCKET_OR_NULL with a ref_obj_id).  A lookup whose map is not
 * known so is no site: the verdict answers it unsupported (absint_ref_verify_insn). */
static bool sockmap_lookup_at(const struct scev_ctx *cx, uint32_t pc)
{
	const struct scev_block *b = &cx->st.cfg->blocks[cx->st.cfg->block_of[pc]];
	int64_t m = -1;

	if (!ebpf_is_helper_call(&cx->insns[pc]) || cx->insns[pc].imm != BPF_FUNC_map_lookup_elem)
		return false;
	for (uint32_t q = b->first; q < pc; q += ebpf_insn_slots(&cx->insns[q])) {
		const struct bpf_insn *i = &cx->insns[q];

		if (!(ebpf_regs_written(i) & (1u << 1)))
			continue;
		m = -1;
		if (ebpf_is_ldimm64(i) && i->dst_reg == 1 &&
		    (i->src_reg == BPF_PSEUDO_MAP_FD || i->src_reg == BPF_PSEUDO_MAP_IDX) &&
		    i->imm >= 0 && (uint32_t)i->imm < cx->nmaps)
			m = i->imm;
	}
	return m >= 0 && sockmap_type(cx->maps[m].type);
}

/* Whether r1 of a bpf_map_lookup_elem call is a socket map's handle. */
static bool sockmap_arg(const struct scev_ctx *cx, const struct aval *r1)
{
	return r1->kind == AV_PTR && r1->region == REGION_MAP_HANDLE && r1->map < cx->nmaps &&
	       sockmap_type(cx->maps[r1->map].type);
}

/* The helpers that acquire or release a reference: ringbuf records and sockets. */
static bool is_ringbuf_call(const struct bpf_insn *i)
{
	return ebpf_is_helper_call(i) &&
	       (i->imm == BPF_FUNC_ringbuf_reserve || i->imm == BPF_FUNC_ringbuf_submit ||
		i->imm == BPF_FUNC_ringbuf_discard || sock_lookup(i->imm) ||
		i->imm == BPF_FUNC_sk_release);
}

/* Whether helper call i acquires a reference (a reserve, a lookup). */
static bool helper_acquires(const struct bpf_insn *i)
{
	return i->imm == BPF_FUNC_ringbuf_reserve || sock_lookup(i->imm);
}

/* The kfunc at pc when it acquires or releases a kernel object (bpf/kfunc.c's table). */
static const struct ebpf_kfunc_ref *kfunc_ref_at(const struct scev_ctx *cx, uint32_t pc)
{
	const struct bpf_insn *i = &cx->insns[pc];

	if (!cx->prog || !ebpf_is_call(i) || i->src_reg != BPF_PSEUDO_KFUNC_CALL)
		return NULL;
	return ebpf_kfunc_ref(ebpf_prog_kfunc_name(cx->prog, pc));
}

static int site_of_pc(const struct scev_ctx *cx, uint32_t pc);

/* A socket map's lookup made a site (absint_ref_setup): 1 + EBPF_SOCK_FULL, else 0. */
static uint8_t sockmap_site(const struct scev_ctx *cx, uint32_t pc)
{
	int k;

	if (!ebpf_is_helper_call(&cx->insns[pc]) || cx->insns[pc].imm != BPF_FUNC_map_lookup_elem ||
	    (k = site_of_pc(cx, pc)) < 0)
		return 0;
	return cx->ref_sites[k].sock;
}

static bool is_ref_call(const struct scev_ctx *cx, uint32_t pc)
{
	return is_ringbuf_call(&cx->insns[pc]) || kfunc_ref_at(cx, pc) || sockmap_site(cx, pc);
}

bool absint_ref_kfunc(const struct scev_ctx *cx, uint32_t pc)
{
	return kfunc_ref_at(cx, pc) != NULL;
}

/* The constant the call at pc is given as its size: the last write of r2 before it in its
 * block must be r2 = imm (what clang emits); -1 when it is not. */
static int64_t site_size(const struct scev_ctx *cx, uint32_t pc)
{
	const struct scev_block *b = &cx->st.cfg->blocks[cx->st.cfg->block_of[pc]];
	int64_t size = -1;

	for (uint32_t q = b->first; q < pc; q += ebpf_insn_slots(&cx->insns[q])) {
		const struct bpf_insn *i = &cx->insns[q];

		if (!(ebpf_regs_written(i) & (1u << 2)))
			continue;
		size = -1;
		if (ebpf_class(i) == BPF_ALU64 && ebpf_op(i) == BPF_MOV && ebpf_srcbit(i) == BPF_K &&
		    !i->off && i->imm >= 0)
			size = i->imm;
	}
	return size;
}

int absint_ref_setup(struct scev_ctx *cx)
{
	const struct scev_loops *lf = cx->st.loops;
	bool any = false;

	cx->nref_sites = 0;
	cx->ref_why = NULL;
	cx->ref_tail = false;
	for (uint32_t pc = 0; pc < cx->len; pc += ebpf_insn_slots(&cx->insns[pc])) {
		const struct bpf_insn *i = &cx->insns[pc];

		if (!ebpf_is_call(i) && ebpf_class(i) != BPF_LD)
			continue;	/* (none of the tests below holds) */
		/* (a callee's tail call or LD_ABS while main holds a record: the callee's states
		 * do not hold it) */
		if (((ebpf_is_helper_call(i) && i->imm == BPF_FUNC_tail_call) ||
		     (ebpf_class(i) == BPF_LD && !ebpf_is_ldimm64(i))) &&
		    cx->st.cfg->blocks[cx->st.cfg->block_of[pc]].func != 0)
			cx->ref_tail = true;
		const struct ebpf_kfunc_ref *kf = kfunc_ref_at(cx, pc);
		uint8_t sk = kf ? 0 : sock_lookup(i->imm);
		int32_t btf;

		if (!kf && !sk && sockmap_lookup_at(cx, pc))
			sk = 1 + EBPF_SOCK_FULL;
		if (!is_ringbuf_call(i) && !kf && !sk)
			continue;
		any = true;
		if (kf ? !(kf->flags & EBPF_KF_ACQUIRE) : !helper_acquires(i) && !sk)
			continue;
		if (cx->nref_sites == SCEV_REF_SITES) {
			cx->ref_why = "more ringbuf reserve, socket lookup and kfunc acquire calls "
				      "than the analysis tracks";
			continue;
		}
		btf = kf ? ebpf_btf_struct_by_name(kf->obj) : 0;
		cx->ref_sites[cx->nref_sites++] = (struct ref_site){
			pc, kf || sk ? -1 : site_size(cx, pc), kf, btf > 0 ? btf : 0, sk };
	}
	/* (the maybe-null ids name a pc modulo 2^16 - 2: two reserves must not share one) */
	if (any && cx->len >= UINT16_MAX - 1)
		cx->ref_why = "references (ringbuf records, acquired kernel objects) in a program of "
			      "more than 65534 instructions";
	if (!any)
		return 0;
	if (!(cx->ref_loop = arena_zalloc(lf->nloops ? lf->nloops : 1, 1)))
		return -ENOMEM;
	for (uint32_t l = 0; l < lf->nloops; l++) {
		const struct scev_loop *L = &lf->loops[l];

		for (uint32_t k = 0; k < L->nblocks && !cx->ref_loop[l]; k++) {
			const struct scev_block *b = &cx->st.cfg->blocks[L->blocks[k]];

			for (uint32_t pc = b->first; pc <= b->last;
			     pc += ebpf_insn_slots(&cx->insns[pc]))
				if (is_ref_call(cx, pc))
					cx->ref_loop[l] = 1;
		}
	}
	return 0;
}

static int site_of_pc(const struct scev_ctx *cx, uint32_t pc)
{
	for (uint32_t k = 0; k < cx->nref_sites; k++)
		if (cx->ref_sites[k].pc == pc)
			return (int)k;
	return -1;
}

/* A pointer whose validity is a reference the state holds: a ringbuf record, an acquired
 * kernel object (aval.map: its site) or a socket of a lookup (aval_sock_site). */
static bool is_record(const struct aval *a)
{
	return a->kind == AV_PTR && (a->region == REGION_RINGBUF || a->region == REGION_KREF ||
				     (a->region == REGION_SOCK && aval_sock_site(a) >= 0));
}

/* The site of record a (is_record). */
static uint16_t rec_site(const struct aval *a)
{
	return a->region == REGION_SOCK ? (uint16_t)aval_sock_site(a) : a->map;
}

/* Every holder of a record of site k (registers and cells) becomes what the release leaves. */
static void invalidate_site(struct astate *s, uint16_t k)
{
	for (int r = 0; r < EBPF_NREGS; r++)
		if (is_record(&s->regs[r]) && rec_site(&s->regs[r]) == k)
			s->regs[r] = aval_scalar(range_unknown());
	for (uint32_t c = 0; c < s->n; c++)
		if (is_record(&s->cells[c].v) && rec_site(&s->cells[c].v) == k)
			s->cells[c].v = aval_scalar(s->cells[c].size >= 8 ? range_unknown()
						    : range_zext_unknown(s->cells[c].size));
}

void absint_ref_call(const struct scev_ctx *cx, struct astate *s, uint32_t pc, struct aval *r0)
{
	const struct bpf_insn *i = &cx->insns[pc];
	const struct ebpf_kfunc_ref *kf = kfunc_ref_at(cx, pc);
	const struct aval *r1 = &s->regs[1];
	bool smap = !kf && ebpf_is_helper_call(i) && i->imm == BPF_FUNC_map_lookup_elem &&
		    sockmap_arg(cx, r1);
	bool sock = !kf && (sock_lookup(i->imm) || i->imm == BPF_FUNC_sk_release || smap);
	uint8_t region = kf ? REGION_KREF : sock ? REGION_SOCK : REGION_RINGBUF;
	int k;

	if (!is_ringbuf_call(i) && !kf && !smap)
		return;
	/* (a socket map's lookup with no site: its map not known at the call, unsupported) */
	if (smap && ((k = site_of_pc(cx, pc)) < 0 || !cx->ref_sites[k].sock)) {
		*r0 = aval_top();
		return;
	}
	if (kf ? (kf->flags & EBPF_KF_ACQUIRE) : helper_acquires(i) || smap) {
		if ((k = site_of_pc(cx, pc)) < 0 || (kf && !cx->ref_sites[k].btf)) {
			*r0 = aval_top();
			return;
		}
		*r0 = aval_ptr(region, sock ? aval_sock_map(cx->ref_sites[k].sock - 1u, k)
					   : (uint16_t)k, range_const(0));
		/* (its id: the caller's, as for every maybe-null result) */
		r0->maybe_null = !kf || (kf->flags & EBPF_KF_RET_NULL);
		s->ref.may |= 1ull << k;
		s->ref.must |= 1ull << k;
		return;
	}
	/* a release: the verdict lets only a held reference of the kind pass */
	if (is_record(r1) && r1->region == region && !r1->maybe_null) {
		k = rec_site(r1);
		s->ref.may &= ~(1ull << k);
		s->ref.must &= ~(1ull << k);
		invalidate_site(s, (uint16_t)k);
	}
}

void absint_ref_null(const struct scev_ctx *cx, struct astate *s, const struct aval *before,
		     bool is_null)
{
	uint64_t bit;

	if (!is_record(before) || !before->id || rec_site(before) >= cx->nref_sites ||
	    before->id != aval_null_id(cx->ref_sites[rec_site(before)].pc))
		return;
	bit = 1ull << rec_site(before);
	if (is_null) {
		s->ref.may &= ~bit;
		s->ref.must &= ~bit;
	} else {
		s->ref.may |= bit;
		s->ref.must |= bit;
	}
}

bool absint_ref_keep_id(const struct scev_ctx *cx, const struct aval *before)
{
	return is_record(before) && before->id && rec_site(before) < cx->nref_sites &&
	       before->id == aval_null_id(cx->ref_sites[rec_site(before)].pc);
}

/* The join of a record p holding a maybe-null id (NULL or not) with the number 0 on paths
 * where p's reference is held on none (z_may, the zero side's mask before the join): p, maybe
 * NULL, keeping its id.  On the zero side no value holds the id (a record of site k exists only
 * while k may be held), so every holder of the id is still one value per path: 0 where the
 * reference is not held, the site's latest result on p's side, where it is held when not NULL;
 * a null check of it then settles the reference again (absint_ref_null) instead of losing it
 * (cpumask_success test_refcount_null_tracking: two results checked together, each released
 * under a null check of its own).  False where the rule does not apply. */
bool absint_ref_join_zero(const struct aval *p, const struct aval *z, uint64_t z_may,
			  struct aval *out)
{
	uint64_t c;

	if (!is_record(p) || !p->id || rec_site(p) >= 64 || z->kind != AV_SCALAR ||
	    !aval_is_const(z, &c) || c != 0 || (z_may & (1ull << rec_site(p))))
		return false;
	*out = *p;
	out->maybe_null = true;
	return true;
}

void absint_ref_loop_state(const struct scev_ctx *cx, uint32_t l, struct astate *s)
{
	uint32_t k = 0;

	if (!cx->ref_loop || !cx->ref_loop[l])
		return;
	for (int r = 0; r < EBPF_NREGS; r++)
		if (is_record(&s->regs[r]))
			s->regs[r] = aval_top();
	for (uint32_t c = 0; c < s->n; c++)
		if (!is_record(&s->cells[c].v))
			s->cells[k++] = s->cells[c];
	s->n = k;
}

#define VFAIL(kind_, pc_, ...)                                                                   \
	do {                                                                                      \
		verdict_fail(v, (kind_), (pc_), __VA_ARGS__);                                    \
		return;                                                                           \
	} while (0)

static uint32_t func_of(const struct scev_ctx *cx, uint32_t pc)
{
	return cx->st.cfg->blocks[cx->st.cfg->block_of[pc]].func;
}

/* The reserve call of a record held on some path, for messages. */
static uint32_t held_pc(const struct scev_ctx *cx, const struct astate *s)
{
	int k = __builtin_ctzll(s->ref.may);

	return k < (int)cx->nref_sites ? cx->ref_sites[k].pc : 0;
}

/* What the reference of site k is, for messages: "the ringbuf record reserved", "the socket
 * bpf_sk_lookup_tcp looked up" or "the task_struct bpf_task_acquire acquired". */
static const char *site_what(const struct scev_ctx *cx, uint32_t k, char *buf, size_t n)
{
	const struct ebpf_kfunc_ref *kf = k < cx->nref_sites ? cx->ref_sites[k].kf : NULL;

	if (k < cx->nref_sites && cx->ref_sites[k].sock) {
		snprintf(buf, n, "the socket %s looked up%s",
			 ebpf_helper_name(cx->insns[cx->ref_sites[k].pc].imm),
			 cx->insns[cx->ref_sites[k].pc].imm == BPF_FUNC_map_lookup_elem
			 ? " in a socket map" : "");
		return buf;
	}
	if (!kf)
		return "the ringbuf record reserved";
	snprintf(buf, n, "the %s %s acquired", kf->obj, kf->name);
	return buf;
}

void absint_ref_verify_insn(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			    uint32_t pc)
{
	const struct bpf_insn *i = &cx->insns[pc];
	const struct ebpf_kfunc_ref *kf;
	bool helper = ebpf_is_helper_call(i);
	char what[96];
	bool smap = helper && i->imm == BPF_FUNC_map_lookup_elem && sockmap_arg(cx, &s->regs[1]);

	if (smap && !sockmap_site(cx, pc))
		VFAIL(VERDICT_UNSUPPORTED, pc, "bpf_map_lookup_elem in a socket map whose map the "
		      "call's block does not load into r1 (its referenced socket is not tracked)");
	if (!cx->ref_loop)
		return;	/* (no ringbuf or kfunc reference call: nothing to hold) */
	if (ebpf_is_exit(i) && func_of(cx, pc) == 0 && s->ref.may)
		VFAIL(VERDICT_UNSAFE, pc, "Unreleased reference: %s at %u may be held at exit (not "
		      "%s on some path)", site_what(cx, (uint32_t)__builtin_ctzll(s->ref.may), what,
						    sizeof(what)), held_pc(cx, s),
		      cx->ref_sites[__builtin_ctzll(s->ref.may)].kf ||
		      cx->ref_sites[__builtin_ctzll(s->ref.may)].sock ? "released"
								      : "submitted or discarded");
	if (helper && i->imm == BPF_FUNC_tail_call && s->ref.may)
		VFAIL(VERDICT_UNSAFE, pc, "tail_call would lead to reference leak (%s at %u may be "
		      "held)", site_what(cx, (uint32_t)__builtin_ctzll(s->ref.may), what,
					 sizeof(what)), held_pc(cx, s));
	if (ebpf_class(i) == BPF_LD && !ebpf_is_ldimm64(i) && s->ref.may)
		VFAIL(VERDICT_UNSAFE, pc, "BPF_LD_[ABS|IND] cannot be mixed with socket references "
		      "(%s at %u may be held)", site_what(cx, (uint32_t)__builtin_ctzll(s->ref.may),
							  what, sizeof(what)), held_pc(cx, s));
	if ((ebpf_is_pseudo_call(i) ||
	     (helper && (i->imm == BPF_FUNC_loop || i->imm == BPF_FUNC_for_each_map_elem))) &&
	    s->ref.may && cx->ref_tail)
		VFAIL(VERDICT_UNSUPPORTED, pc, "a call while a reference is held, in a program "
		      "whose subprograms tail-call or use LD_ABS (the callee's states do not hold "
		      "it)");
	if (ebpf_is_pseudo_call(i) ||
	    (helper && (i->imm == BPF_FUNC_loop || i->imm == BPF_FUNC_for_each_map_elem)))
		for (int r = 1; r <= 5; r++)
			if (is_record(&s->regs[r]))
				VFAIL(VERDICT_UNSUPPORTED, pc, "a reference (a ringbuf record, an "
				      "acquired kernel object, a socket of a lookup) given to another "
				      "function (R%d) is not modeled", r);
	if ((kf = kfunc_ref_at(cx, pc))) {
		int k = site_of_pc(cx, pc);

		if (cx->ref_why)
			VFAIL(VERDICT_UNSUPPORTED, pc, "%s", cx->ref_why);
		if (func_of(cx, pc) != 0)
			VFAIL(VERDICT_UNSUPPORTED, pc, "%s outside the main function is not modeled",
			      kf->name);
		if ((kf->flags & EBPF_KF_ACQUIRE) && (k < 0 || !cx->ref_sites[k].btf))
			VFAIL(VERDICT_UNSUPPORTED, pc, "%s: no struct %s in the running kernel's BTF",
			      kf->name, kf->obj);
		if ((kf->flags & EBPF_KF_ACQUIRE) && (s->ref.may & (1ull << k)))
			VFAIL(VERDICT_UNSUPPORTED, pc, "%s again while the object of its previous run "
			      "may be held (two references of one call are not modeled)", kf->name);
		absint_ref_verify_kfunc(cx, v, s, pc, kf);
		return;
	}
	if (!is_ringbuf_call(i) && !smap)
		return;
	if (cx->ref_why)
		VFAIL(VERDICT_UNSUPPORTED, pc, "%s", cx->ref_why);
	if (func_of(cx, pc) != 0)
		VFAIL(VERDICT_UNSUPPORTED, pc, "%s outside the main function are not modeled",
		      sock_lookup(i->imm) || i->imm == BPF_FUNC_sk_release || smap
		      ? "socket references" : "ringbuf records");
	if ((sock_lookup(i->imm) || smap) && (s->ref.may & (1ull << site_of_pc(cx, pc))))
		VFAIL(VERDICT_UNSUPPORTED, pc, "%s again while the socket of its previous run may be "
		      "held (two references of one call are not modeled)",
		      ebpf_helper_name(i->imm));
	if (i->imm == BPF_FUNC_ringbuf_reserve) {
		int k = site_of_pc(cx, pc);

		if (k < 0 || cx->ref_sites[k].size < 0)
			VFAIL(VERDICT_UNSUPPORTED, pc, "bpf_ringbuf_reserve: the size is not a constant "
			      "set in the call's block");
		if (s->ref.may & (1ull << k))
			VFAIL(VERDICT_UNSUPPORTED, pc, "bpf_ringbuf_reserve again while the record of "
			      "its previous run may be held (two records of one call are not "
			      "modeled)");
	}
}

void absint_ref_verify_arg(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			   uint32_t pc, const char *name, unsigned reg, enum ebpf_harg kind)
{
	const struct aval *a = &s->regs[reg];

	if (kind == HARG_ALLOC_SIZE) {
		int k = site_of_pc(cx, pc);
		uint64_t c;

		if (a->kind == AV_TOP)
			VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s may be a pointer", reg, name);
		if (a->kind != AV_SCALAR)
			VFAIL(VERDICT_UNSAFE, pc, "R%u of %s is not a scalar", reg, name);
		if (!aval_is_const(a, &c))
			VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s is not a known constant (a range: "
			      "one per path is not modeled)", reg, name);
		if (k < 0 || (uint64_t)cx->ref_sites[k].size != c)
			VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s is not the constant set in the call's "
			      "block", reg, name);
		return;
	}
	/* HARG_RINGBUF_RELEASE */
	if (a->kind == AV_TOP)
		VFAIL(VERDICT_UNSUPPORTED, pc, "R%u of %s may not be a ringbuf record (a record "
		      "joined with something else)", reg, name);
	if (!is_record(a) || a->region != REGION_RINGBUF)
		VFAIL(VERDICT_UNSAFE, pc, "R%u type=%s expected=ringbuf_mem (%s of a record "
		      "already released, or of no record)", reg,
		      a->kind == AV_SCALAR ? "scalar" : claim_region_name(a->region), name);
	if (a->maybe_null)
		VFAIL(VERDICT_UNSAFE, pc, "R%u type=ringbuf_mem_or_null expected=ringbuf_mem (%s "
		      "before the NULL check)", reg, name);
	if (!range_is_const(&a->r) || a->r.umin != 0)
		VFAIL(VERDICT_UNSAFE, pc, "R%u must have zero offset when passed to release func "
		      "(%s)", reg, name);
	if (!(s->ref.must & (1ull << a->map)))
		VFAIL(VERDICT_UNSAFE, pc, "%s: the ringbuf record reserved at %u may be released "
		      "already on some path", name, cx->ref_sites[a->map].pc);
}

void absint_ref_verify_access(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			      const struct aval *a, uint32_t pc, __int128 lo, __int128 hi)
{
	int64_t size = a->map < cx->nref_sites ? cx->ref_sites[a->map].size : -1;

	if (func_of(cx, pc) != 0)
		VFAIL(VERDICT_UNSUPPORTED, pc, "ringbuf records outside the main function are not "
		      "modeled");
	if (size < 0)
		VFAIL(VERDICT_UNSUPPORTED, pc, "a ringbuf record of a size not modeled");
	if (!(s->ref.must & (1ull << a->map)))
		VFAIL(VERDICT_UNSAFE, pc, "the ringbuf record reserved at %u may be released on some "
		      "path before this access", cx->ref_sites[a->map].pc);
	if (lo < 0 || hi > size)
		VFAIL(VERDICT_UNSAFE, pc, "ringbuf record access [%lld, %lld) outside the %lld bytes "
		      "reserved at %u", absint_ll_sat(lo), absint_ll_sat(hi), (long long)size,
		      cx->ref_sites[a->map].pc);
}

void absint_ref_verify_kfunc(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			     uint32_t pc, const struct ebpf_kfunc_ref *kf)
{
	const struct aval *a = &s->regs[1];
	int32_t want = ebpf_btf_struct_by_name(kf->obj), got;
	const char *gname;

	v->checks++;
	if (!kf->nargs)
		return;
	if (want <= 0)
		VFAIL(VERDICT_UNSUPPORTED, pc, "%s: no struct %s in the running kernel's BTF",
		      kf->name, kf->obj);
	if (a->kind == AV_TOP)
		VFAIL(VERDICT_UNSUPPORTED, pc, "R1 of %s may be a pointer of another kind (a kernel "
		      "object joined with something else)", kf->name);
	if (a->kind != AV_PTR || (a->region != REGION_BTF && a->region != REGION_KREF))
		VFAIL(VERDICT_UNSAFE, pc, "R1 type=%s expected=ptr_%s (%s takes a kernel object)",
		      a->kind == AV_SCALAR ? "scalar" : claim_region_name(a->region), kf->obj,
		      kf->name);
	if (a->maybe_null)
		VFAIL(VERDICT_UNSAFE, pc, "Possibly NULL pointer passed to trusted arg0 (%s before "
		      "the NULL check)", kf->name);
	got = a->region == REGION_KREF ? (a->map < cx->nref_sites ? cx->ref_sites[a->map].btf : 0)
				       : (a->map < cx->nbtf_types ? cx->btf_types[a->map] : 0);
	gname = ebpf_btf_type_name(got);
	if (got != want)
		VFAIL(VERDICT_UNSAFE, pc, "kernel function %s args#0 expected pointer to STRUCT %s but "
		      "R1 has a pointer to STRUCT %s", kf->name, kf->obj, gname ? gname : "?");
	if (!range_is_const(&a->r) || a->r.umin != 0)
		VFAIL(VERDICT_UNSAFE, pc, "R1 must have zero offset when passed to %s (a kernel "
		      "object's start)", kf->name);
	if (kf->flags & EBPF_KF_RELEASE) {
		char what[96];

		if (a->region != REGION_KREF)
			VFAIL(VERDICT_UNSAFE, pc, "release kernel function %s expects refcounted "
			      "PTR_TO_BTF_ID (R1 was not acquired)", kf->name);
		if (!(s->ref.must & (1ull << a->map)))
			VFAIL(VERDICT_UNSAFE, pc, "%s: %s at %u may be released already on some path",
			      kf->name, site_what(cx, a->map, what, sizeof(what)),
			      cx->ref_sites[a->map].pc);
		return;
	}
	/* an acquire of an object given: referenced (acquired) or trusted (a BTF context's
	 * argument); one walked from another may be untrusted or RCU, which is not modeled */
	if (a->region == REGION_BTF &&
	    !(a->map < cx->nbtf_types && cx->btf_trusted[a->map] == BTF_TRUSTED))
		VFAIL(VERDICT_UNSUPPORTED, pc, "R1 of %s is a kernel object read from another (trusted, "
		      "RCU or untrusted: not modeled)", kf->name);
}

void absint_ref_verify_kref(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			    const struct aval *a, uint32_t pc)
{
	char what[96];

	if (func_of(cx, pc) != 0)
		VFAIL(VERDICT_UNSUPPORTED, pc, "acquired kernel objects outside the main function "
		      "are not modeled");
	if (!(s->ref.must & (1ull << a->map)))
		VFAIL(VERDICT_UNSAFE, pc, "%s at %u may be released on some path before this "
		      "access", site_what(cx, a->map, what, sizeof(what)), cx->ref_sites[a->map].pc);
}

void absint_ref_verify_sock(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			    const struct aval *a, uint32_t pc)
{
	char what[96];
	int k = aval_sock_site(a);

	if (k < 0)
		return;	/* (no reference: skb->sk's, a listener's) */
	if (func_of(cx, pc) != 0)
		VFAIL(VERDICT_UNSUPPORTED, pc, "socket references outside the main function are not "
		      "modeled");
	if (k >= (int)cx->nref_sites || !(s->ref.must & (1ull << k)))
		VFAIL(VERDICT_UNSAFE, pc, "%s at %u may be released on some path before this use",
		      site_what(cx, (uint32_t)k, what, sizeof(what)),
		      k < (int)cx->nref_sites ? cx->ref_sites[k].pc : 0);
}

void absint_ref_verify_sock_release(struct scev_ctx *cx, struct scev_verdict *v,
				    const struct astate *s, uint32_t pc, unsigned reg,
				    const char *name)
{
	const struct aval *a = &s->regs[reg];

	/* (verify_sock_arg has checked a socket, not NULL, at offset 0) */
	if (a->region != REGION_SOCK || aval_sock_site(a) < 0)
		VFAIL(VERDICT_UNSAFE, pc, "R%u must be referenced when passed to release function "
		      "(%s of a socket no lookup acquired)", reg, name);
	absint_ref_verify_sock(cx, v, s, a, pc);
}
