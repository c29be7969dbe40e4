/* The call graph of a program (see calls.h); what the kernel demands of it is checked in
 * call_limits.c.
 *
 * Edges are the bpf-to-bpf calls and the function addresses a program loads (a helper such as
 * bpf_loop calls them in a frame nested in the caller's), taken from every instruction, reached
 * or not, as the kernel's check_max_stack_depth() walks them; the address of a timer's callback
 * (scev_cb_async_ref) is no edge: the kernel walks an async callback as a root of its own.  A
 * cycle is refused whatever stops it at run time: the kernel never allows recursion.  Depth counts frames, main included
 * (at most EBPF_MAX_CALL_DEPTH = 8); a chain's stack is the sum of its frames' depths, each
 * rounded up to 16 bytes as the kernel does for programs it JIT-compiles (at most 512).
 */
#include "scev/calls.h"
#include "scev/callbacks.h"
#include "util/arena.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void scev_calls__free(struct scev_calls *g)
{
	if (!g)
		return;
	arena_free(g->off);
	arena_free(g->sites);
	memset(g, 0, sizeof(*g));
}

int scev_calls__build(struct scev_calls *g, const struct scev_cfg *cfg)
{
	const struct bpf_insn *insns = cfg->insns;
	uint32_t nf = cfg->nfuncs, n = 0;

	memset(g, 0, sizeof(*g));
	g->nfuncs = nf;
	g->off = arena_zalloc(nf + 1, sizeof(*g->off));
	if (!g->off)
		return -ENOMEM;
	/* Count, then fill: sites of function f are [off[f], off[f + 1]), in address order. */
	for (int pass = 0; pass < 2; pass++) {
		n = 0;
		for (uint32_t f = 0; f < nf; f++) {
			g->off[f] = n;
			for (uint32_t pc = cfg->funcs[f].start; pc < cfg->funcs[f].end;
			     pc += ebpf_insn_slots(&insns[pc])) {
				const struct bpf_insn *i = &insns[pc];
				bool cb = ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC;

				/* (a timer's callback runs on its own: a root, no edge) */
				if ((!ebpf_is_pseudo_call(i) && !cb) || (cb && scev_cb_async_ref(cfg, pc)))
					continue;
				if (pass) {
					uint32_t t = pc + 1 + (uint32_t)i->imm;

					g->sites[n] = (struct scev_call_site){
						.pc = pc,
						.callee = cfg->blocks[cfg->block_of[t]].func,
						.callback = cb,
					};
				}
				n++;
			}
		}
		g->off[nf] = n;
		if (!pass && !(g->sites = arena_zalloc(n ? n : 1, sizeof(*g->sites))))
			return -ENOMEM;
	}
	g->nsites = n;
	return 0;
}
