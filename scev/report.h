/* Loop-structure reports: one text line per loop, the JSON of `bpfscev loops --json`, and a
 * Graphviz picture of the CFG with loops as nested clusters.  All instruction indexes are
 * program-relative pcs; a loop is named by its header pc (parents too).  Output goes to an sbuf.
 */
#ifndef BPFSCEV_SCEV_REPORT_H
#define BPFSCEV_SCEV_REPORT_H

#include "scev/loop.h"
#include "util/sbuf.h"

/* pc of the jump that ends block b (its last instruction). */
static inline uint32_t scev_block_last_pc(const struct scev_cfg *cfg, uint32_t b)
{
	return cfg->blocks[b].last;
}

void scev_report_loops_text(struct sbuf *sb, const char *name, const struct scev_structure *st);
/* One element of the "programs" array: {"name", "insn_count", "loops": [...], ...}. */
void scev_report_loops_json(struct sbuf *sb, const char *name, const struct scev_structure *st);
/* Fields of one loop object, without the braces (shared with the claims JSON). */
void scev_report_loop_fields(struct sbuf *sb, const struct scev_structure *st, uint32_t l);

enum { SCEV_DOT_IDOM = 1 << 0, SCEV_DOT_NO_INSNS = 1 << 1 };
void scev_report_loops_dot(struct sbuf *sb, const char *name, const struct scev_structure *st,
			   unsigned flags);

#endif
