/* Reads of unwritten stack bytes during a run: see stackinit.h. */
#include "oracle/exec/stackinit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/helper_proto.h"

void stackinit_watch_init(struct stackinit_watch *w, const struct bpf_insn *insns, uint32_t len,
			  const struct stackinit_pc *pcs)
{
	memset(w, 0, sizeof(*w));
	w->insns = insns;
	w->pcs = pcs;
	w->len = len;
	w->regs = 1u << 1 | 1u << EBPF_REG_FP;
}

/* What the watch reads of i (struct stackinit_pc; the rule is stackinit.h's). */
static struct stackinit_pc decode(const struct bpf_insn *i)
{
	struct stackinit_pc d = { .read = (uint16_t)ebpf_regs_read(i), .keep = 0xffff,
				  .set = (uint16_t)ebpf_regs_written(i) };
	uint8_t cls = ebpf_class(i);

	d.mem = cls == BPF_LDX || cls == BPF_ST || cls == BPF_STX || ebpf_is_helper_call(i) ||
		(ebpf_is_call(i) && i->src_reg == BPF_PSEUDO_KFUNC_CALL);
	if (ebpf_is_call(i))
		d.read = 0;
	if (ebpf_is_call(i) || (cls == BPF_LD && !ebpf_is_ldimm64(i))) {
		const struct ebpf_helper_proto *p =
			ebpf_is_helper_call(i) ? ebpf_helper_proto(i->imm) : NULL;

		d.keep = 0xffff;
		d.set = 0;
		if (ebpf_is_pseudo_call(i))
			return d;	/* clobbers on the return (stackinit_visit) */
		d.keep = (uint16_t)~0x3fu;
		d.set = p && (p->flags & HF_NO_RETURN_VALUE) ? 0 : 1;
		/* bpf_throw: the exception callback starts with the cookie in r1 */
		if (ebpf_insn_is_throw(i)) {
			d.keep = (uint16_t)~0x3du;
			d.set = 0;
		}
	}
	return d;
}

struct stackinit_pc *stackinit_pcs_build(const struct bpf_insn *insns, uint32_t len)
{
	struct stackinit_pc *pcs = calloc(len ? len : 1, sizeof(*pcs));

	for (uint32_t pc = 0; pcs && pc < len; pc += ebpf_insn_slots(&insns[pc]))
		pcs[pc] = decode(&insns[pc]);
	return pcs;
}

#define REGS_ARGS 0x3fu	/* r0-r5: what a call leaves unwritten (r0 then set) */
#define REGS_CB (1u << 1 | 1u << 2 | 1u << 3 | 1u << EBPF_REG_FP)

/* Whether a timer's callback may run after the program (stackinit_regs_always_written). */
static bool timers_possible(const struct bpf_insn *insns, uint32_t len)
{
	for (uint32_t pc = 0; pc < len; pc += ebpf_insn_slots(&insns[pc]))
		if ((ebpf_is_helper_call(&insns[pc]) && insns[pc].imm == BPF_FUNC_timer_set_callback) ||
		    (ebpf_is_call(&insns[pc]) && ebpf_srcbit(&insns[pc]) == BPF_X))
			return true;
	return false;
}

/* in[to] met with regs (bitwise and: written on every path); to queued when it changed. */
static void regs_meet(uint16_t *in, uint8_t *reached, uint32_t *work, uint32_t *nwork,
		      uint32_t to, uint16_t regs)
{
	uint16_t m = reached[to] ? (uint16_t)(in[to] & regs) : regs;

	if (reached[to] && m == in[to])
		return;
	in[to] = m;
	if (reached[to] != 2)
		work[(*nwork)++] = to;
	reached[to] = 2;	/* (1: reached, not queued) */
}

bool stackinit_regs_always_written(const struct bpf_insn *insns, uint32_t len,
				   const struct stackinit_pc *pcs)
{
	uint16_t *in = malloc((len ? len : 1) * sizeof(*in));
	uint8_t *reached = calloc(len ? len : 1, 1), *start = calloc(len ? len : 1, 1);
	uint32_t *work = malloc((len ? len : 1) * sizeof(*work)), nwork = 0;
	bool timers, ok = in && reached && start && work && len && pcs;

	for (uint32_t pc = 0; ok && pc < len; pc += ebpf_insn_slots(&insns[pc])) {
		const struct bpf_insn *i = &insns[pc];
		int64_t t = (int64_t)pc + 1 + i->imm;

		start[pc] = 1;
		/* (a jump through a register: its targets are not edges here) */
		if (ebpf_is_jmp(i) && ebpf_op(i) == BPF_JA && ebpf_srcbit(i) == BPF_X)
			ok = false;
		if ((ebpf_is_pseudo_call(i) || (ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC)) &&
		    (t < 0 || t >= len))
			ok = false;
	}
	timers = ok && timers_possible(insns, len);
	if (ok)
		regs_meet(in, reached, work, &nwork, 0,
			  (uint16_t)((timers ? 0 : 1u << 1) | 1u << EBPF_REG_FP));
	for (uint32_t pc = 0; ok && timers && pc < len; pc += ebpf_insn_slots(&insns[pc])) {
		const struct bpf_insn *i = &insns[pc];
		uint32_t t = (uint32_t)((int64_t)pc + 1 + i->imm);

		if (ebpf_is_pseudo_call(i) || (ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC)) {
			if (!start[t])
				ok = false;
			else if (t != 0)
				regs_meet(in, reached, work, &nwork, t, REGS_CB);
		}
	}
	while (ok && nwork) {
		uint32_t pc = work[--nwork], succ[2];
		const struct stackinit_pc *d = &pcs[pc];
		uint16_t out = (uint16_t)((in[pc] & d->keep) | d->set);
		unsigned ns;

		reached[pc] = 1;
		if (d->read & ~in[pc]) {
			ok = false;	/* a read some path leaves unwritten */
			break;
		}
		/* a callee returns (its first instruction is visited in frame 1: there is no
		 * return without one); any other call leaves r1-r5 unwritten itself, and r0
		 * written at most as a return from its callbacks would */
		if (ebpf_is_pseudo_call(&insns[pc]))
			out = (uint16_t)((out & ~REGS_ARGS) | 1u);
		ns = ebpf_succs(insns, len, pc, succ);
		for (unsigned s = 0; s < ns; s++) {
			if (succ[s] >= len || !start[succ[s]]) {
				ok = false;
				break;
			}
			regs_meet(in, reached, work, &nwork, succ[s], out);
		}
	}
	free(in);
	free(reached);
	free(start);
	free(work);
	return ok;
}

__attribute__((noinline, cold)) void stackinit_regs_bad(struct stackinit_watch *w, uint32_t need,
							uint32_t pc)
{
	w->bad = true;
	w->bad_pc = pc;
	snprintf(w->reason, sizeof(w->reason), "pc %u: R%d read, never written", pc,
		 __builtin_ctz(need));
}

/* The stack offset of [a, a + size) when it lies in the live frames (and their deeper,
 * dead ones): its byte index in written[], or -1. */
static int64_t stack_index(uint64_t a, uint64_t size)
{
	uint64_t off = a - INTERP_VA_STACK;

	if (a < INTERP_VA_STACK || off >= sizeof(((struct stackinit_watch *)0)->written) ||
	    size > sizeof(((struct stackinit_watch *)0)->written) - off)
		return -1;
	return (int64_t)off;
}

static void mark(struct stackinit_watch *w, uint64_t a, uint64_t size)
{
	int64_t i = stack_index(a, size);

	if (i >= 0)
		memset(w->written + i, 1, size);
}

static void check(struct stackinit_watch *w, uint32_t pc, uint64_t a, uint64_t size,
		  unsigned frame, const char *what)
{
	int64_t i = stack_index(a, size);

	if (i < 0 || w->bad || w->allow_uninit_stack)
		return;
	for (uint64_t k = 0; k < size; k++)
		if (!w->written[i + k]) {
			int64_t fp = ((int64_t)frame + 1) * EBPF_STACK_SIZE;

			w->bad = true;
			w->bad_pc = pc;
			snprintf(w->reason, sizeof(w->reason), "pc %u: %s stack bytes [%lld, %lld) of "
				 "frame %u, byte %lld never written", pc, what, (long long)(i - fp),
				 (long long)(i - fp + (int64_t)size), frame,
				 (long long)(i - fp + (int64_t)k));
			return;
		}
}

/* A helper call: the memory its prototype reads is checked, what it may write marked. */
static void helper(struct stackinit_watch *w, const struct interp_state *st, uint32_t pc,
		   int32_t id, unsigned frame)
{
	const struct ebpf_helper_proto *p = ebpf_helper_proto(id);
	const uint64_t *r = interp_state_regs(st);

	if (!p)
		return;
	for (int k = 0; k < 4; k++) {
		uint64_t a = r[k + 1], n = r[k + 2];
		int64_t i;

		switch (p->args[k]) {
		case HARG_MEM: case HARG_MEM_OR_NULL:
			if (n && n <= EBPF_STACK_SIZE)
				check(w, pc, a, n, frame, "a helper reads");
			break;
		case HARG_MEM_UNINIT: case HARG_MEM_RW: case HARG_MEM_RW_OR_NULL:
		case HARG_MAP_VALUE_OUT:
			/* everything up to the end of the pointer's frame (stackinit.h) */
			if ((i = stack_index(a, 1)) >= 0)
				mark(w, a, EBPF_STACK_SIZE - ((uint64_t)i & (EBPF_STACK_SIZE - 1)));
			break;
		case HARG_LONG_OUT:	/* (its 8 bytes, all written) */
			if (stack_index(a, 8) >= 0)
				mark(w, a, 8);
			break;
		case HARG_U32_INOUT:	/* (its 4 bytes, read, then written) */
			if (stack_index(a, 4) >= 0) {
				check(w, pc, a, 4, frame, "a helper reads");
				mark(w, a, 4);
			}
			break;
		default:
			break;
		}
	}
}

/* The bytes of the open-coded iterator the kfunc of BTF id imm takes (8 when not known), and
 * whether it is bpf_iter_bits_new (which reads nr_words words at r2). */
static uint64_t iter_bytes(int32_t imm, bool *bits_new)
{
	struct ebpf_kfunc_iter it;

	if (!ebpf_kfunc_iter(ebpf_kfunc_name(imm), &it))
		return 8;
	*bits_new = it.family == EBPF_ITER_BITS && it.op == EBPF_ITER_NEW;
	return it.size;
}

/* stackinit_visit() in full. */
static __attribute__((noinline)) void visit_any(struct stackinit_watch *w,
						const struct interp_state *st, uint32_t pc,
						unsigned frame)
{
	const struct bpf_insn *i;
	const uint64_t *r;
	struct stackinit_pc dec;
	const struct stackinit_pc *d;
	uint8_t cls;
	unsigned size;

	if (pc >= w->len || frame >= EBPF_MAX_CALL_DEPTH)
		return;
	/* frames entered since the last visit start unwritten (stackinit_watch_init: main's);
	 * under allow_uninit_stack nothing reads written[], so it is not kept */
	if (frame > w->depth && !w->allow_uninit_stack)
		for (unsigned f = w->depth + 1; f <= frame; f++)
			memset(w->written + (size_t)f * EBPF_STACK_SIZE, 0, EBPF_STACK_SIZE);
	if (frame == 0 && w->depth > 0)	/* back from a bpf-to-bpf call */
		w->regs = (uint16_t)((w->regs & ~0x3fu) | 1u);
	/* the exception callback after a bpf_throw: main's frame afresh, the cookie in r1 (a
	 * throw in main's own frame keeps what main wrote: not followed, read leniently) */
	if (frame == 0 && interp_state_prev_pc(st) < w->len &&
	    ebpf_insn_is_throw(&w->insns[interp_state_prev_pc(st)]) && w->depth > 0) {
		w->regs = 1u << 1 | 1u << EBPF_REG_FP;
		memset(w->written, 0, EBPF_STACK_SIZE);
	}
	/* a timer's callback after the program (interp.h): a frame 0 of its own, r1-r3 given */
	if (frame == 0 && pc != 0 && interp_state_prev_pc(st) == UINT32_MAX) {
		w->regs = 1u << 1 | 1u << 2 | 1u << 3 | 1u << EBPF_REG_FP;
		memset(w->written, 0, EBPF_STACK_SIZE);
	}
	w->depth = frame;
	i = &w->insns[pc];
	if (w->pcs) {
		d = &w->pcs[pc];
	} else {
		dec = decode(i);
		d = &dec;
	}
	if (frame == 0)
		stackinit_regs_step(w, d, pc);
	if (!d->mem || w->allow_uninit_stack)
		return;	/* the stack's bytes: only reads of them are judged, and these are not */
	r = interp_state_regs(st);
	cls = ebpf_class(i);
	size = ebpf_size_bytes(ebpf_size(i));
	switch (cls) {
	case BPF_LDX:
		check(w, pc, r[i->src_reg] + (uint64_t)(int64_t)i->off, size, frame, "a load reads");
		break;
	case BPF_ST:
		mark(w, r[i->dst_reg] + (uint64_t)(int64_t)i->off, size);
		break;
	case BPF_STX:
		if (ebpf_mode(i) == BPF_ATOMIC && i->imm == BPF_LOAD_ACQ) {
			check(w, pc, r[i->src_reg] + (uint64_t)(int64_t)i->off, size, frame,
			      "a load-acquire reads");
			break;
		}
		if (ebpf_mode(i) == BPF_ATOMIC && i->imm != BPF_STORE_REL)
			check(w, pc, r[i->dst_reg] + (uint64_t)(int64_t)i->off, size, frame,
			      "an atomic reads");
		mark(w, r[i->dst_reg] + (uint64_t)(int64_t)i->off, size);
		break;
	default:
		if (ebpf_is_helper_call(i))
			helper(w, st, pc, i->imm, frame);
		/* the kfuncs the interpreter runs (the open-coded iterators) write the 8 bytes at
		 * r1 (16 for bits), which next's result points into; any other traps */
		else if (ebpf_is_call(i) && i->src_reg == BPF_PSEUDO_KFUNC_CALL) {
			bool bits_new = false;
			uint64_t n = iter_bytes(i->imm, &bits_new);

			if (bits_new && (uint32_t)r[3] <= EBPF_STACK_SIZE / 8)
				check(w, pc, r[2], (uint32_t)r[3] * 8, frame,
				      "bpf_iter_bits_new reads");
			mark(w, r[1], n);
		}
		break;
	}
}

void stackinit_visit(void *arg, const struct interp_state *st, uint32_t pc)
{
	struct stackinit_watch *w = arg;

	/* (most visits, by the privileged rule: visit_any() would only look at the registers) */
	if (!stackinit_visit_regs(w, st, pc))
		visit_any(w, st, pc, interp_state_frame(st));
}
