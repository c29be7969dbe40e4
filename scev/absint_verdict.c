/* The safety verdict of the range analysis (scev_verify): every reachable block replayed from
 * its fixpoint state with the kernel's checks — memory accesses within their region (stack,
 * map value, packet proven below data_end, context per program type), registers and stack bytes
 * written before they are read, supported helpers and their arguments — and every loop that can
 * run bounded.  The first failure is the verdict.
 */
#include <stddef.h>
#include <stdio.h>

#include "scev/absint.h"

#define VFAIL(kind_, pc_, ...)                                                                   \
	do {                                                                                      \
		if (v->kind == VERDICT_SAFE) {                                                    \
			v->kind = (kind_);                                                        \
			v->pc = (pc_);                                                            \
			snprintf(v->reason, sizeof(v->reason), __VA_ARGS__);                      \
		}                                                                                 \
		return;                                                                           \
	} while (0)

/* Arguments each supported helper reads (r1..rN), or -1 for an unsupported helper. */
static int helper_arity(int32_t id)
{
	switch (id) {
	case 1: case 3: return 2;		/* map_lookup_elem, map_delete_elem */
	case 2: return 4;			/* map_update_elem */
	case 5: case 7: case 8: case 14: case 15: case 125: return 0;
	case 12: return 3;			/* tail_call */
	default: return -1;
	}
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
	default:
		return off >= (int64_t)offsetof(struct __sk_buff, cb) &&
		       off + size <= offsetof(struct __sk_buff, cb) + 5 * 4 && size == 4 && !(off % 4);
	}
}

/* Checks one memory access of size bytes at regs[reg] + off. */
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
		VFAIL(VERDICT_UNSAFE, pc, "R%u may be NULL (map lookup not checked)", reg);
	lo = (__int128)a->r.smin + off;
	hi = (__int128)a->r.smax + off + size;
	switch (a->region) {
	case REGION_STACK:
		if (lo < -EBPF_STACK_SIZE || hi > 0)
			VFAIL(VERDICT_UNSAFE, pc, "stack access [%lld, %lld) outside [-512, 0)",
			      (long long)lo, (long long)hi);
		/* the frame's depth, for the combined stack of call chains (calls.c) */
		if (cx->fn_stack) {
			uint32_t f = cx->st.cfg->blocks[cx->st.cfg->block_of[pc]].func;

			if ((uint32_t)-lo > cx->fn_stack[f])
				cx->fn_stack[f] = (uint32_t)-lo;
		}
		if (!write && !fpmask_all(&s->sinit, (int64_t)lo, (int64_t)hi))
			VFAIL(VERDICT_UNSAFE, pc, "read of stack bytes [%lld, %lld) not written on every "
			      "path", (long long)lo, (long long)hi);
		return;
	case REGION_MAP_VALUE: {
		uint32_t vs = a->map < cx->nmaps ? cx->maps[a->map].value_size : 0;

		if (lo < 0 || hi > vs)
			VFAIL(VERDICT_UNSAFE, pc, "map value access [%lld, %lld) outside [0, %u)",
			      (long long)lo, (long long)hi, vs);
		return;
	}
	case REGION_PKT:
		if (write && cx->ctx_model == EBPF_CTX_SKB)
			VFAIL(VERDICT_UNSUPPORTED, pc, "packet writes of skb programs are not modeled");
		if (lo < 0 || hi > (__int128)s->pkt_min)
			VFAIL(VERDICT_UNSAFE, pc, "packet access [%lld, %lld) not proven below data_end "
			      "(%llu bytes checked)", (long long)lo, (long long)hi,
			      (unsigned long long)s->pkt_min);
		return;
	case REGION_CTX:
		if (lo != hi - size)
			VFAIL(VERDICT_UNSAFE, pc, "context access at a variable offset");
		if (cx->ctx_model == EBPF_CTX_XDP) {
			if (write || size != 4 || lo < 0 || hi > (__int128)sizeof(struct xdp_md) || lo % 4)
				VFAIL(VERDICT_UNSAFE, pc, "invalid xdp_md access (%s %u bytes at %lld)",
				      write ? "write" : "read", size, (long long)lo);
			return;
		}
		if (cx->ctx_model == EBPF_CTX_SKB) {
			if (lo < 0 || hi > (__int128)sizeof(struct __sk_buff) || lo % size ||
			    (write && !skb_field_writable((int64_t)lo, size)))
				VFAIL(VERDICT_UNSAFE, pc, "invalid __sk_buff access (%s %u bytes at %lld)",
				      write ? "write" : "read", size, (long long)lo);
			return;
		}
		VFAIL(VERDICT_UNSUPPORTED, pc, "context of this program type (a plain buffer of "
		      "unknown size)");
	default:
		VFAIL(VERDICT_UNSAFE, pc, "R%u points to %s, which cannot be accessed", reg,
		      claim_region_name(a->region));
	}
}

static void verify_insn(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			uint32_t pc)
{
	const struct bpf_insn *i = &cx->insns[pc];
	uint32_t need = ebpf_regs_read(i);
	uint8_t cls = ebpf_class(i);

	if (v->kind != VERDICT_SAFE)
		return;
	if (ebpf_is_call(i)) {
		int n;

		if (!ebpf_is_helper_call(i)) {
			if (ebpf_is_pseudo_call(i))
				return;	/* arguments are the callee's to check */
			VFAIL(VERDICT_UNSUPPORTED, pc, "kfunc and indirect calls are not modeled");
		}
		n = helper_arity(i->imm);
		if (n < 0)
			VFAIL(VERDICT_UNSUPPORTED, pc, "helper %s#%d is not modeled",
			      ebpf_helper_name(i->imm) ? ebpf_helper_name(i->imm) : "unknown", i->imm);
		need = (1u << (n + 1)) - 2;	/* r1..rn */
	}
	v->checks++;
	for (unsigned r = 0; r < EBPF_NREGS; r++)
		if ((need & (1u << r)) && !(s->init & (1u << r)))
			VFAIL(VERDICT_UNSAFE, pc, "R%u may be read before it is written (not written on some path)", r);
	if (ebpf_is_helper_call(i) && (i->imm >= 1 && i->imm <= 3)) {
		const struct aval *m = &s->regs[1];
		uint32_t ks, vsz;

		if (m->kind != AV_PTR || m->region != REGION_MAP_HANDLE || m->map >= cx->nmaps)
			VFAIL(VERDICT_UNSAFE, pc, "R1 of %s is not a map", ebpf_helper_name(i->imm));
		ks = cx->maps[m->map].key_size;
		vsz = cx->maps[m->map].value_size;
		for (uint32_t k = 0; k < ks; k += (ks - k >= 8 ? 8 : ks - k >= 4 ? 4 : 1))
			verify_access(cx, v, s, pc, 2, (int16_t)k, ks - k >= 8 ? 8 : ks - k >= 4 ? 4 : 1,
				      false);
		if (i->imm == 2)
			for (uint32_t k = 0; k < vsz; k += (vsz - k >= 8 ? 8 : vsz - k >= 4 ? 4 : 1))
				verify_access(cx, v, s, pc, 3, (int16_t)k,
					      vsz - k >= 8 ? 8 : vsz - k >= 4 ? 4 : 1, false);
		return;
	}
	switch (cls) {
	case BPF_LD:
		if (!ebpf_is_ldimm64(i) && cx->ctx_model != EBPF_CTX_SKB)
			VFAIL(VERDICT_UNSAFE, pc, "legacy packet load outside a socket program");
		if (!ebpf_is_ldimm64(i) && !(s->regs[6].kind == AV_PTR &&
					     s->regs[6].region == REGION_CTX))
			VFAIL(VERDICT_UNSAFE, pc, "legacy packet load needs the context in R6");
		return;
	case BPF_LDX:
		verify_access(cx, v, s, pc, i->src_reg, i->off, ebpf_size_bytes(ebpf_size(i)), false);
		return;
	case BPF_ST: case BPF_STX:
		if (ebpf_mode(i) == BPF_ATOMIC && i->imm == BPF_LOAD_ACQ) {
			verify_access(cx, v, s, pc, i->src_reg, i->off, ebpf_size_bytes(ebpf_size(i)),
				      false);
			return;
		}
		verify_access(cx, v, s, pc, i->dst_reg, i->off, ebpf_size_bytes(ebpf_size(i)), true);
		if (ebpf_mode(i) == BPF_ATOMIC && i->imm != BPF_STORE_REL)
			verify_access(cx, v, s, pc, i->dst_reg, i->off, ebpf_size_bytes(ebpf_size(i)),
				      false);
		return;
	default:
		return;
	}
}

/* Replays reachable block b from its fixpoint state with the checks. */
int absint_verify_block(struct engine *en, uint32_t b)
{
	struct scev_ctx *cx = en->cx;
	struct scev_verdict *v = cx->verdict;
	const struct scev_block *blk = &cx->st.cfg->blocks[b];
	struct astate s = { 0 };
	uint32_t l;
	int err;

	if (!st_peek(en->in, b)->live)
		return 0;
	if (cx->live)
		cx->live[b] = 1;
	err = astate__copy(&s, absint_is_header(cx, b, &l) ? st_peek(en->hdr, l)
							    : st_peek(en->in, b));
	for (uint32_t pc = blk->first; pc <= blk->last && !err;
	     pc += ebpf_insn_slots(&cx->insns[pc])) {
		verify_insn(cx, v, &s, pc);
		if (pc == blk->last && ebpf_is_jmp(&cx->insns[pc]) && !ebpf_is_call(&cx->insns[pc]))
			break;
		err = absint_step(en, &s, pc);
	}
	astate__free(&s);
	return err;
}

/* After every block's checks: every loop that can run must be bounded. */
int absint_verify_loops(struct engine *en)
{
	struct scev_ctx *cx = en->cx;
	struct scev_verdict *v = cx->verdict;
	int err = 0;

	for (uint32_t l = 0; l < cx->st.loops->nloops && !err; l++) {
		const struct scev_loop *L = &cx->st.loops->loops[l];
		uint32_t hpc = cx->st.cfg->blocks[L->header].first;

		/* (every cycle of a loop at its own level passes its header: an irreducible loop
		 * that never reaches it cannot go round) */
		if (!en->reached[L->header])
			continue;
		if (en->res[l].trip.kind == TRIP_UNKNOWN && v->kind == VERDICT_SAFE) {
			v->kind = VERDICT_UNSAFE;
			v->pc = hpc;
			snprintf(v->reason, sizeof(v->reason), "loop at %u may not terminate: %s", hpc,
				 en->res[l].trip.reason[0] ? en->res[l].trip.reason : "no bound");
		}
	}
	return err;
}
