/* The call graph: which function calls which, and what the kernel demands of it.
 *
 * The kernel refuses recursion through bpf-to-bpf calls (any cycle, even one a counter stops),
 * call chains of more than 8 frames and chains whose frames together use more than 512 bytes of
 * stack ("combined stack size of N calls is M. Too large").  These are properties of the call
 * graph and of each function's stack depth, not of any loop, so they are checked here once per
 * program.  The same graph bounds how many instructions a run executes, from the loops' trip
 * claims: an oracle that sees a run go past it has found an unsound verdict.
 */
#ifndef BPFSCEV_SCEV_CALLS_H
#define BPFSCEV_SCEV_CALLS_H

#include <stdbool.h>
#include <stdint.h>

#include "scev/cfg.h"

struct scev_call_site {
	uint32_t pc;		/* the call, or the LD_IMM64 of a function address */
	uint32_t callee;	/* function id */
	bool callback;		/* a function address: a helper calls it */
};

struct scev_calls {
	uint32_t nfuncs;
	uint32_t *off;		/* sites of function f: [off[f], off[f + 1]) */
	struct scev_call_site *sites;
	uint32_t nsites;
};

int scev_calls__build(struct scev_calls *g, const struct scev_cfg *cfg);
void scev_calls__free(struct scev_calls *g);

#endif
