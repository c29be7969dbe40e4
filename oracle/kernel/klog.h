/* The kernel verifier's level-2 log read back as claims: what the kernel believed about every
 * register before every instruction, in the claim format the oracles check (claims/claims.h).
 *
 * At log level 2 the verifier prints its walk: "N: (op) insn" before it processes instruction N,
 * followed by "; R1=... fp-8=..." with the registers and stack slots the instruction changed
 * (the state the walk continues with); "N: R1=..." lines carry such changes on a line of their
 * own (the first state of a walk, or after precision-tracking lines); "from X to Y: <state>"
 * starts a branch the walk had queued, with the complete state of the current frame; "caller:",
 * "callee:", "returning from callee:" and "to caller at N:" carry complete frame states around
 * bpf-to-bpf calls; "N: safe" and "from X to Y: safe" end a path that an earlier state covers
 * (pruning).  klog_parse() replays that walk: it keeps the state of each frame, applies each
 * change, clobbers r0-r5 at helper calls and legacy packet loads (the kernel does, but never
 * prints registers that became uninitialised), and at every instruction line joins the current
 * frame's registers and 8-byte stack cells into that instruction's entry.  It also keeps the
 * kernel's own liveness table ("Live regs before insn:") and the registers precision
 * backtracking asked for at each instruction ("mark_precise: ... regs=r1 ... before N:").
 *
 * Which of those joins are claims — that every run reaching N has its value inside — is not
 * obvious, and klog_claims() is careful about it.  Pruning compares a new state with an old one
 * only on live registers, and on scalars only where the old state's value was needed precisely
 * (pointers always): a pruned path may carry imprecise or dead values the log never shows
 * again, here or at any instruction after.  So:
 *   - at an instruction no pruned path can reach (in the control-flow graph, calls and returns
 *     included), every path was walked and logged: every register and cell is a claim;
 *   - elsewhere only pointers live before the instruction (by the kernel's own table), whose
 *     type, offset and variable offset pruning does compare.  Scalars there are not claimed:
 *     reading the per-instruction precision marks as "compared by pruning" is refuted in
 *     practice (13 of some 10,000 such claims on 138 generated programs, against none of the
 *     31,000 claims kept), because a mark belongs to one state and the log does not say which;
 *     the plain union of all logged states is refuted 2,130 times on the same programs;
 *   - an instruction the walk never reached is claimed unreachable (an empty range on r10):
 *     the kernel treats it as dead code.
 * A claim refuted by a real run is then a kernel verifier unsoundness, or a mistake here.
 *
 * Register forms understood (kernels 6.1-6.18): a bare constant in decimal or hex, optional "P"
 * (precise), "scalar(...)" with id=, the range fields smin smax umin umax smin32 smax32 umin32
 * umax32 (omitted at their defaults, equal neighbours joined as "smin=umin=4") and
 * var_off=(0x..; 0x..); pointers "fp-8", "fp[1]-8", "fp(off=..,smin=..)", ctx(), pkt(off=,r=),
 * pkt_meta(), pkt_end(), map_value(map=NAME,ks=,vs=,off=,imm=), "_or_null" variants and other
 * types (kept as "some pointer", never claimed); the "_w"/"_rw" suffixes of 6.10-6.17; stack
 * slots "fp-8=<value>" (spill), "fp-8=00000000" (zero), "mmmmmmmm" and narrow spills.  A token
 * that does not parse makes that register unknown and is counted as a warning; nothing in a log
 * makes the parser fail.
 */
#ifndef BPFSCEV_ORACLE_KLOG_H
#define BPFSCEV_ORACLE_KLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf/prog.h"
#include "claims/claims.h"
#include "util/err.h"

enum klog_kind {
	KLOG_NONE,	/* uninitialised (a cell: nothing spilled) in every state so far */
	KLOG_SCALAR,
	KLOG_PTR,	/* a pointer into a region the claims can name */
	KLOG_TOP,	/* nothing to claim: states disagree on the type, a pointer the
			 * claims cannot name (another frame's stack, sockets, BTF objects),
			 * or the walk lost track (a token it did not understand, a frame it
			 * never saw printed) */
};

struct klog_val {
	uint8_t kind;		/* enum klog_kind */
	uint8_t region;		/* KLOG_PTR: enum claim_region */
	bool maybe_null;	/* KLOG_PTR: an "_or_null" type */
	uint16_t map;		/* REGION_MAP_VALUE: index into the object's maps */
	struct range r;		/* the value, or the offset from the region's base */
};

/* An 8-byte stack cell at fp + off of the frame running the instruction. */
struct klog_cell {
	int16_t off;
	struct klog_val v;
};

struct klog_pc {
	uint32_t nstates;	/* instruction lines: states the walk brought here */
	uint32_t npruned;	/* states pruned here */
	uint16_t live;		/* bit r: r live before the instruction (kernel's table) */
	uint16_t precise;	/* bit r: backtracking needed r precise before it (in some
				 * state: not a claim, see above) */
	struct klog_val regs[EBPF_NREGS];	/* join over the states; r10 is not kept */
	struct klog_cell *cells;	/* cells spilled or zero in every state here */
	uint32_t ncells;
};

struct klog {
	uint32_t npcs;		/* the program's slots */
	struct klog_pc *pcs;
	bool has_live;		/* the liveness table was in the log */
	bool complete;		/* the statistics line ("processed N insns") closes the log */
	bool callbacks;		/* the program passes functions to helpers (callbacks) */
	long processed;		/* from the statistics line; -1 without */
	/* what the parser saw */
	uint32_t lines, insn_lines, state_lines, full_states, prunes, precise_marks;
	uint32_t warnings;	/* tokens or lines it did not understand (each made a register,
				 * a frame or a state unknown) */
	char warning[256];	/* the first: "line N: ..." */
};

/* Parses a level-2 log of prog (as loaded: obj gives the map names the log prints; may be NULL
 * for a program without maps).  Returns 0 with *out set, -EINVAL when the log is not one of
 * this program (an instruction index beyond it, an opcode that differs), -ENOMEM.  Free with
 * klog__free(). */
int klog_parse(struct klog **out, const char *log, size_t len, const struct ebpf_prog *prog,
	       const struct ebpf_object *obj, struct diag *d);
void klog__free(struct klog *k);

struct klog_claim_opts {
	size_t sz;			/* sizeof(struct klog_claim_opts) */
	bool no_unreachable;		/* no claims for instructions the walk never reached */
	bool no_cells;			/* no stack-cell claims */
};

struct klog_claim_stats {
	uint32_t pcs;			/* instructions the walk reached */
	uint32_t exhaustive;		/* of those, unreachable from any pruned path */
	uint32_t unreachable;		/* instructions it never reached */
	uint32_t scalars, pointers, cells;	/* claims of each kind */
};

/* The claims of an accepted program's complete log (see the file comment), as a claim_prog
 * with source SRC_KERNEL, no loops and strategy "kernel".  out is overwritten (free it with
 * claim_prog__free).  An incomplete log gives no claims and a note.  0 or -ENOMEM. */
int klog_claims(struct claim_prog *out, const struct klog *k, const struct ebpf_prog *prog,
		const struct klog_claim_opts *opts, struct klog_claim_stats *st);

/* "scalar u[4, 259] s[...] var_off (0x0; 0x1ff)", "pkt+[14, 14]", "none", "top": for messages
 * and tests. */
void klog_val_format(char *buf, size_t n, const struct klog_val *v);

#endif
