/* Reads of stack bytes no instruction wrote, watched during an interpreter run (a visit callback
 * on every instruction): the judge of the verdict's promise that every stack byte read was
 * written before on every path — which neither the interpreter's memory model (frames start
 * zeroed) nor the kernel asked by root (it allows uninitialized stack reads) checks.
 *
 * A frame's bytes start unwritten when the frame is entered (main, a bpf-to-bpf callee, a
 * bpf_loop callback).  Stores and atomics write; loads, atomics and the memory a helper reads
 * (its prototype's readable memory arguments, with the size the run passes) read.  A helper
 * writing through a stack pointer (an output argument) counts as writing everything from that
 * pointer to the frame's end: the kernel counts every byte up to the size's largest possible
 * value as written, which a run cannot know, and the watch must never call a read unwritten
 * that the kernel's rule calls written.
 *
 * A timer's callback, which the interpreter runs after the program in frame 0 (interp.h), starts
 * that frame again: its bytes unwritten, r1-r3 and r10 written.
 *
 * Registers are watched the same way in main's frame: r1 and r10 start written, an instruction
 * writes its destination, a helper or kfunc call (and LD_ABS/LD_IND) leaves r1-r5 unwritten and
 * writes r0 (not tail_call's), and so does a return from a bpf-to-bpf call; reading an
 * unwritten register by an ALU, jump, store, load or exit instruction is flagged.  Calls'
 * arguments are not checked (the kernel checks only those a prototype names), and callee
 * frames count every register as written: again weaker, never stricter, than the kernel.
 */
#ifndef BPFSCEV_ORACLE_EXEC_STACKINIT_H
#define BPFSCEV_ORACLE_EXEC_STACKINIT_H

#include <stdbool.h>
#include <stdint.h>

#include "bpf/isa.h"
#include "oracle/exec/interp.h"

/* An instruction as the watch reads it, decoded once per program (stackinit_pcs_build): the
 * registers of main's frame it reads (0 for a call: arguments are not checked), those still
 * written after it (keep) and those it writes (set), and whether it reaches memory (a load, a
 * store, an atomic, a helper or kfunc call). */
struct stackinit_pc {
	uint16_t read, keep, set;
	bool mem;
};

struct stackinit_watch {
	const struct bpf_insn *insns;
	const struct stackinit_pc *pcs;	/* NULL: each instruction decoded at its visit */
	uint32_t len;
	unsigned depth;		/* frame of the last visit */
	uint16_t regs;		/* registers of main's frame written so far (bit r) */
	bool bad;		/* a read of unwritten bytes was seen (the first is described) */
	/* the privileged kernel's rule (allow_uninit_stack): reads of unwritten stack bytes are
	 * not flagged (registers still are); stackinit_watch_init clears it */
	bool allow_uninit_stack;
	uint32_t bad_pc;
	char reason[160];
	uint8_t written[EBPF_MAX_CALL_DEPTH * EBPF_STACK_SIZE];
};

/* Prepares w for one run of the program insns[0..len): set env->visit = stackinit_visit,
 * env->arg = w and env->probes to an array of interp_code__slots() ones.  pcs: the program's
 * stackinit_pcs_build() (the same visits, cheaper), or NULL. */
void stackinit_watch_init(struct stackinit_watch *w, const struct bpf_insn *insns, uint32_t len,
			  const struct stackinit_pc *pcs);
/* The decoded instructions of insns[0..len) for stackinit_watch_init (heap; NULL: no memory). */
struct stackinit_pc *stackinit_pcs_build(const struct bpf_insn *insns, uint32_t len);
void stackinit_visit(void *arg, const struct interp_state *st, uint32_t pc);

/* Whether no run of insns[0..len) can read a register of main's frame that the watch calls
 * unwritten (stackinit.h's register rule; pcs: stackinit_pcs_build's): every instruction frame 0
 * may run reads only registers written on every path to it.  The paths are the program's edges
 * from its frame-0 entries: pc 0 with r1 and r10 written, and, when a timer's callback may run
 * after the program (a bpf_timer_set_callback call, or a callx, which may call a helper), every
 * function's first pc with r1-r3 and r10 (pc 0 itself then with r10 alone: the watch does not
 * start a callback at pc 0 afresh); an instruction leaves (written & keep) | set, and a call
 * whatever it leaves less r1-r5 and with r0 (a return from a callee, stackinit_visit).  When
 * true, a run of insns watched by the privileged rule can never set the watch's bad flag, so
 * its visits may be left out (check.c); false (also: no memory) says nothing. */
bool stackinit_regs_always_written(const struct bpf_insn *insns, uint32_t len,
				   const struct stackinit_pc *pcs);

/* A read of main's registers d->read not all written: w's first bad read (cold). */
void stackinit_regs_bad(struct stackinit_watch *w, uint32_t need, uint32_t pc);

/* Main's registers at a visit of pc decoded as d: reads checked, then what it writes. */
static inline void stackinit_regs_step(struct stackinit_watch *w, const struct stackinit_pc *d,
				       uint32_t pc)
{
	uint32_t need = d->read & ~(uint32_t)w->regs;

	if (need && !w->bad)
		stackinit_regs_bad(w, need, pc);
	w->regs = (uint16_t)((w->regs & d->keep) | d->set);
}

/* stackinit_visit's most common visit, for a caller to inline: by the privileged rule, main's
 * frame as at the last visit, decoded, not a timer callback's start, where the full visit would
 * only look at the registers.  False (nothing done) for any other: stackinit_visit then. */
static inline bool stackinit_visit_regs(struct stackinit_watch *w, const struct interp_state *st,
					uint32_t pc)
{
	if (!w->allow_uninit_stack || !w->pcs || interp_state_frame(st) != 0 || w->depth != 0 ||
	    pc >= w->len || (pc != 0 && interp_state_prev_pc(st) == UINT32_MAX))
		return false;
	stackinit_regs_step(w, &w->pcs[pc], pc);
	return true;
}

#endif
