/* Control-flow graph of basic blocks, per function.
 *
 * A program splits into functions at its entry and at every bpf-to-bpf call or function-pointer
 * target (ebpf_validate guarantees functions are contiguous and jumps stay inside them).  Blocks
 * start at a function entry, at a jump target and after a jump or exit; calls do not end blocks
 * (they return).  In a function other than main an LD_ABS / LD_IND ends its block too: when the
 * load fails it returns 0 from the function (the kernel's check_ld_abs explores that exit, with
 * the state right after the load), so such a block has an exit besides its fallthrough edge
 * (ld_exit), which every analysis of a function's exits takes as one.  A call of bpf_throw
 * (ebpf_insn_is_throw) ends its block with no successor: it unwinds every frame and the run
 * ends (scev/absint_throw.c checks it as an exit of the program).  An LD_IMM64 is one
 * instruction of two slots.  Blocks are numbered in address order, so a function's blocks are a
 * contiguous id range.  Blocks not reachable from their
 * function's entry are marked, not dropped.
 */
#ifndef BPFSCEV_SCEV_CFG_H
#define BPFSCEV_SCEV_CFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf/isa.h"
#include "util/err.h"

#define SCEV_NONE UINT32_MAX

struct scev_block {
	uint32_t first;		/* pc of the first instruction */
	uint32_t last;		/* pc of the last instruction (first slot if it is an LD_IMM64) */
	uint32_t func;
	uint32_t succ[2];	/* fallthrough first, then jump target */
	uint8_t nsucc;
	bool reachable;		/* from its function's entry */
	bool ld_exit;		/* ends with an LD_ABS / LD_IND of a function other than main:
				 * also an exit of the function, with r0 = 0 (see above) */
	uint32_t pred_off, npred;	/* into scev_cfg.preds */
};

struct scev_func {
	uint32_t start, end;	/* slots [start, end) */
	uint32_t entry;		/* block id of the entry */
	uint32_t first_block, nblocks;
};

struct scev_cfg {
	const struct bpf_insn *insns;	/* borrowed: must outlive the cfg */
	uint32_t len;
	struct scev_block *blocks;
	uint32_t nblocks;
	uint32_t *preds;	/* predecessor lists, CSR */
	uint32_t *block_of;	/* slot → block id */
	struct scev_func *funcs;
	uint32_t nfuncs;
	uint32_t nunreachable;	/* blocks */
	bool has_throw;		/* a bpf_throw call somewhere (ebpf_insn_is_throw) */
};

/* insns must be a validated program (ebpf_validate). */
int scev_cfg__build(struct scev_cfg **out, const struct bpf_insn *insns, size_t len,
		    struct diag *d);
/* The same with one more function entry no call names (the exception callback's first slot;
 * 0: none): -EINVAL with d when an edge crosses into or out of it. */
int scev_cfg__build_entry(struct scev_cfg **out, const struct bpf_insn *insns, size_t len,
			  uint32_t entry, struct diag *d);
void scev_cfg__free(struct scev_cfg *cfg);

static inline const uint32_t *scev_block_preds(const struct scev_cfg *cfg, uint32_t b)
{
	return cfg->preds + cfg->blocks[b].pred_off;
}

/* The conditional jump ending block b, or NULL. */
static inline const struct bpf_insn *scev_block_cond_jmp(const struct scev_cfg *cfg, uint32_t b)
{
	const struct bpf_insn *i = &cfg->insns[cfg->blocks[b].last];

	return ebpf_is_cond_jmp(i) ? i : NULL;
}

#endif
