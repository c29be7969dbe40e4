/* The Z3 oracle's own view of a program's control flow: functions, a loop forest and, for each
 * loop body and function, the order in which a symbolic execution visits it.
 *
 * The oracle must not trust the analyzer's loops to be sound about cycles, so it finds them
 * itself: per function, the strongly connected components of the control-flow graph are loops;
 * each gets a header (the analyzer's claimed header when it is one of the component's nodes,
 * else the first node a depth-first search from the function entry reaches), and the component
 * without its header is decomposed again for the inner loops (Bourdoncle's recursive scheme).
 * Every cycle then passes through a header, so each region — a loop body without its inner
 * loops' bodies, or a function without its loops — is acyclic once edges back to its header
 * are removed, and a topological order of it exists.  Irreducible cycles come out as loops
 * with more than one entry node (entries other than the header are side entries).
 */
#ifndef BPFSCEV_ORACLE_SMT_CFG_H
#define BPFSCEV_ORACLE_SMT_CFG_H

#include <stdbool.h>
#include <stdint.h>

#include "bpf/prog.h"
#include "claims/claims.h"

struct cfg_loop {
	uint32_t header;
	int32_t parent;		/* enclosing loop, -1 */
	uint32_t func;		/* index into cfg.funcs */
	uint32_t depth;		/* 1 = outermost in its function */
	uint32_t *body;		/* instruction pcs of the component, sorted (header included) */
	uint32_t nbody;
	uint32_t *order;	/* the region's nodes in topological order: instructions of this
				 * loop outside inner loops, and inner loops by their headers;
				 * order[0] is the header */
	uint32_t norder;
	uint32_t regs_written;	/* registers some instruction of the body writes (calls: r0-r5) */
	bool has_call;		/* helper or bpf-to-bpf call in the body */
	bool has_may_goto;
	bool side_entries;	/* entered at a node other than the header */
	int32_t claim;		/* the claim_prog loop it matches (same header and body), -1 */
};

struct cfg_func {
	uint32_t entry;
	uint32_t *order;	/* the top-level region in topological order */
	uint32_t norder;
};

struct cfg {
	uint32_t nslots;
	int32_t *func_of;	/* per slot: function index, -1 for second LD_IMM64 slots and
				 * unreachable code */
	int32_t *loop_of;	/* per slot: innermost loop, -1 */
	uint32_t *pos;		/* per slot: position in the order of its innermost region */
	uint32_t *child_pos;	/* per loop: position of its header in the parent region's order */
	uint8_t *in_body;	/* per loop, nslots bytes each: membership (loops * nslots) */
	struct cfg_loop *loops;
	uint32_t nloops;
	struct cfg_func *funcs;
	uint32_t nfuncs;
};

/* Builds the forest for a validated program; claims (may be NULL) suggest headers and are
 * matched to loops.  0 or -ENOMEM. */
int cfg_build(struct cfg *g, const struct ebpf_prog *prog, const struct claim_prog *claims);
void cfg_free(struct cfg *g);

static inline bool cfg_in_loop(const struct cfg *g, int32_t loop, uint32_t pc)
{
	return pc < g->nslots && g->in_body[(size_t)loop * g->nslots + pc];
}

/* The node that stands for pc in the region of loop (or of pc's function when loop is -1):
 * pc itself, or the header of the inner loop of that region containing pc. */
uint32_t cfg_rep(const struct cfg *g, int32_t loop, uint32_t pc);
/* pc's position in the order of that region. */
uint32_t cfg_pos(const struct cfg *g, int32_t loop, uint32_t pc);

#endif
