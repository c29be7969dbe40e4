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
		case HARG_MEM_UNINIT: case HARG_MEM_RW:
			/* everything up to the end of the pointer's frame (stackinit.h) */
			if ((i = stack_index(a, 1)) >= 0)
				mark(w, a, EBPF_STACK_SIZE - ((uint64_t)i & (EBPF_STACK_SIZE - 1)));
			break;
		default:
			break;
		}
	}
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
		 * r1, which next's result points to; any other traps */
		else if (ebpf_is_call(i) && i->src_reg == BPF_PSEUDO_KFUNC_CALL)
			mark(w, r[1], 8);
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
