/* Control-flow graph construction: see cfg.h.  Two linear passes over the slots (leaders, then
 * blocks and edges) and one counting pass for the predecessor lists. */
#include "scev/cfg.h"
#include "util/arena.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { LEAD = 1, FUNC = 2 };

int scev_cfg__build(struct scev_cfg **out, const struct bpf_insn *insns, size_t len,
		    struct diag *d)
{
	return scev_cfg__build_entry(out, insns, len, 0, d);
}

int scev_cfg__build_entry(struct scev_cfg **out, const struct bpf_insn *insns, size_t len,
			  uint32_t entry, struct diag *d)
{
	struct scev_cfg *cfg = arena_zalloc(1, sizeof(*cfg));
	uint8_t *mark = arena_zalloc(len ? len : 1, 1);
	uint32_t *stack = NULL, *fill = NULL;
	uint32_t pc, nb = 0, nf = 0, npred = 0;
	bool ld = false, sub = false;
	int err = -ENOMEM;

	if (!cfg || !mark)
		goto fail;
	cfg->insns = insns;
	cfg->len = (uint32_t)len;

	/* Leaders and function starts. */
	mark[0] = LEAD | FUNC;
	if (entry && entry < len && !(entry > 0 && ebpf_is_ldimm64(&insns[entry - 1])))
		mark[entry] |= LEAD | FUNC;
	for (pc = 0; pc < len; pc += ebpf_insn_slots(&insns[pc])) {
		const struct bpf_insn *i = &insns[pc];
		uint32_t next = pc + ebpf_insn_slots(i);

		if (ebpf_is_pseudo_call(i) || (ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC))
			mark[pc + 1 + i->imm] |= LEAD | FUNC;
		if (ebpf_is_ja(i) || ebpf_is_cond_jmp(i)) {
			mark[ebpf_jump_target(i, pc)] |= LEAD;
			if (next < len)
				mark[next] |= LEAD;
		} else if (ebpf_is_exit(i) || ebpf_insn_is_throw(i)) {
			cfg->has_throw |= !ebpf_is_exit(i);
			if (next < len)
				mark[next] |= LEAD;
		} else if (!ld && ebpf_is_ld_pkt(i)) {
			ld = true;
		}
	}
	/* An LD_ABS / LD_IND past main's slots ends its block (cfg.h); functions start where the
	 * loop above marked them, backward calls' targets included, so this pass comes after. */
	for (pc = 0; ld && pc < len; pc += ebpf_insn_slots(&insns[pc])) {
		sub = sub || (pc && (mark[pc] & FUNC));
		if (sub && ebpf_is_ld_pkt(&insns[pc]) && pc + 1 < len)
			mark[pc + 1] |= LEAD;
	}
	for (pc = 0; pc < len; pc += ebpf_insn_slots(&insns[pc])) {
		nb += (mark[pc] & LEAD) != 0;
		nf += (mark[pc] & FUNC) != 0;
	}
	cfg->blocks = arena_zalloc(nb, sizeof(*cfg->blocks));
	cfg->funcs = arena_zalloc(nf, sizeof(*cfg->funcs));
	cfg->block_of = arena_alloc(len * sizeof(*cfg->block_of));
	if (!cfg->blocks || !cfg->funcs || !cfg->block_of)
		goto fail;
	cfg->nblocks = nb;
	cfg->nfuncs = nf;

	/* Blocks in address order, functions as contiguous block ranges. */
	nb = 0;
	nf = 0;
	for (pc = 0; pc < len; pc += ebpf_insn_slots(&insns[pc])) {
		if (mark[pc] & FUNC) {
			if (nf)
				cfg->funcs[nf - 1].end = pc;
			cfg->funcs[nf].start = pc;
			cfg->funcs[nf].first_block = nb;
			cfg->funcs[nf].entry = nb;
			nf++;
		}
		if (mark[pc] & LEAD) {
			cfg->blocks[nb].first = pc;
			cfg->blocks[nb].func = nf - 1;
			nb++;
		}
		cfg->blocks[nb - 1].last = pc;
		cfg->block_of[pc] = nb - 1;
		if (ebpf_is_ldimm64(&insns[pc]))
			cfg->block_of[pc + 1] = nb - 1;
	}
	cfg->funcs[nf - 1].end = (uint32_t)len;
	for (uint32_t f = 0; f < nf; f++)
		cfg->funcs[f].nblocks = (f + 1 < nf ? cfg->funcs[f + 1].first_block : nb) -
					cfg->funcs[f].first_block;

	/* Successor edges, then predecessor lists (CSR). */
	for (uint32_t b = 0; b < nb; b++) {
		struct scev_block *blk = &cfg->blocks[b];
		uint32_t succ[2];
		/* (a bpf_throw call ends the run: no successor, cfg.h) */
		unsigned n = cfg->has_throw && ebpf_insn_is_throw(&insns[blk->last]) ? 0 :
			     ebpf_succs(insns, len, blk->last, succ);

		blk->ld_exit = ld && blk->func && ebpf_is_ld_pkt(&insns[blk->last]);
		for (unsigned k = 0; k < n; k++)
			blk->succ[k] = cfg->block_of[succ[k]];
		blk->nsucc = (uint8_t)n;
		npred += n;
	}
	cfg->preds = arena_alloc((npred ? npred : 1) * sizeof(*cfg->preds));
	fill = arena_zalloc(nb, sizeof(*fill));
	if (!cfg->preds || !fill)
		goto fail;
	for (uint32_t b = 0; b < nb; b++)
		for (unsigned k = 0; k < cfg->blocks[b].nsucc; k++)
			cfg->blocks[cfg->blocks[b].succ[k]].npred++;
	npred = 0;
	for (uint32_t b = 0; b < nb; b++) {
		cfg->blocks[b].pred_off = npred;
		npred += cfg->blocks[b].npred;
	}
	for (uint32_t b = 0; b < nb; b++)
		for (unsigned k = 0; k < cfg->blocks[b].nsucc; k++) {
			uint32_t s = cfg->blocks[b].succ[k];

			cfg->preds[cfg->blocks[s].pred_off + fill[s]++] = b;
		}

	/* An entry no call names (the exception callback) splits a function ebpf_validate saw
	 * whole: no edge may cross into it or out of it (the kernel's subprogram bounds), and the
	 * function before it ends in an exit or a jump (check_subprogs). */
	if (entry && (entry >= len || !(mark[entry] & FUNC) ||
		      !(ebpf_is_exit(&insns[entry - 1]) || ebpf_is_ja(&insns[entry - 1])))) {
		err = diag_at_insn(d, EINVAL, (long)entry, "the exception callback's entry %u is not "
				   "the start of a function (after an exit or a jump)", entry);
		goto fail_err;
	}
	for (uint32_t b = 0; entry && b < nb; b++)
		for (unsigned k = 0; k < cfg->blocks[b].nsucc; k++)
			if (cfg->blocks[cfg->blocks[b].succ[k]].func != cfg->blocks[b].func) {
				err = diag_at_insn(d, EINVAL, (long)cfg->blocks[b].last,
						   "%s from insn %u crosses into function at insn %u "
						   "(the exception callback's entry is %u)",
						   k ? "jump" : "fall-through", cfg->blocks[b].last,
						   cfg->funcs[cfg->blocks[cfg->blocks[b].succ[k]].func].start,
						   entry);
				goto fail_err;
			}

	/* Reachability from each function entry (iterative, explicit stack). */
	stack = arena_alloc(nb * sizeof(*stack));
	if (!stack)
		goto fail;
	for (uint32_t f = 0; f < nf; f++) {
		uint32_t sp = 0;

		stack[sp++] = cfg->funcs[f].entry;
		cfg->blocks[cfg->funcs[f].entry].reachable = true;
		while (sp) {
			const struct scev_block *blk = &cfg->blocks[stack[--sp]];

			for (unsigned k = 0; k < blk->nsucc; k++)
				if (!cfg->blocks[blk->succ[k]].reachable) {
					cfg->blocks[blk->succ[k]].reachable = true;
					stack[sp++] = blk->succ[k];
				}
		}
	}
	for (uint32_t b = 0; b < nb; b++)
		cfg->nunreachable += !cfg->blocks[b].reachable;
	arena_free(stack);
	arena_free(fill);
	arena_free(mark);
	*out = cfg;
	return 0;
fail:
	arena_free(stack);
	arena_free(fill);
	arena_free(mark);
	scev_cfg__free(cfg);
	return diag_set(d, -err, "out of memory building the CFG");
fail_err:
	arena_free(fill);
	arena_free(mark);
	scev_cfg__free(cfg);
	return err;
}

void scev_cfg__free(struct scev_cfg *cfg)
{
	if (!cfg)
		return;
	arena_free(cfg->blocks);
	arena_free(cfg->preds);
	arena_free(cfg->block_of);
	arena_free(cfg->funcs);
	arena_free(cfg);
}
