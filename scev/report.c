/* Loop-structure reports (text, JSON, DOT): see report.h. */
#include "scev/report.h"

#include "scev/callbacks.h"

#include <stdlib.h>

#include "bpf/asm.h"
#include "util/json.h"

static void put_pc_or_null(struct sbuf *sb, const struct scev_cfg *cfg, uint32_t b, bool last)
{
	if (b == SCEV_NONE)
		sbuf_puts(sb, "null");
	else
		sbuf_printf(sb, "%u", last ? cfg->blocks[b].last : cfg->blocks[b].first);
}

void scev_report_loop_fields(struct sbuf *sb, const struct scev_structure *st, uint32_t l)
{
	const struct scev_cfg *cfg = st->cfg;
	const struct scev_loops *lf = st->loops;
	const struct scev_loop *L = &lf->loops[l];

	sbuf_printf(sb, "\"header\": %u, \"depth\": %u, \"parent\": ", cfg->blocks[L->header].first,
		    L->depth);
	put_pc_or_null(sb, cfg, L->parent == SCEV_NONE ? SCEV_NONE : lf->loops[L->parent].header,
		       false);
	sbuf_printf(sb, ", \"irreducible\": %s, \"entries\": [", L->irreducible ? "true" : "false");
	for (uint32_t i = 0; i < L->nentries; i++)
		sbuf_printf(sb, "%s%u", i ? ", " : "", cfg->blocks[L->entries[i]].first);
	sbuf_puts(sb, "], \"back_edges\": [");
	for (uint32_t i = 0; i < L->nback_edges; i++) {
		sbuf_printf(sb, "%s{\"from\": %u, \"to\": %u, \"latch\": ", i ? ", " : "",
			    cfg->blocks[L->back_edges[i].from].last,
			    cfg->blocks[L->back_edges[i].to].first);
		put_pc_or_null(sb, cfg, L->back_edges[i].latch, true);
		sbuf_putc(sb, '}');
	}
	sbuf_puts(sb, "], \"latch\": ");
	put_pc_or_null(sb, cfg, L->latch, true);
	sbuf_puts(sb, ", \"exits\": [");
	for (uint32_t i = 0; i < L->nexits; i++)
		sbuf_printf(sb, "%s{\"from\": %u, \"to\": %u}", i ? ", " : "",
			    cfg->blocks[L->exits[i].from].last, cfg->blocks[L->exits[i].to].first);
	sbuf_puts(sb, "], \"blocks\": [");
	for (uint32_t i = 0; i < L->nblocks; i++)
		sbuf_printf(sb, "%s[%u, %u]", i ? ", " : "", cfg->blocks[L->blocks[i]].first,
			    cfg->blocks[L->blocks[i]].last);
	sbuf_putc(sb, ']');
}

static void put_unreachable_json(struct sbuf *sb, const struct scev_cfg *cfg)
{
	bool first = true;

	sbuf_puts(sb, "\"unreachable\": [");
	for (uint32_t b = 0; b < cfg->nblocks; b++)
		if (!cfg->blocks[b].reachable) {
			sbuf_printf(sb, "%s[%u, %u]", first ? "" : ", ", cfg->blocks[b].first,
				    cfg->blocks[b].last);
			first = false;
		}
	sbuf_putc(sb, ']');
}

/* Helper callbacks that are loops (callbacks.h): JSON ", \"callback_loops\": [...]" or text
 * lines; nothing when the program takes no function's address. */
static void put_callbacks(struct sbuf *sb, const struct scev_structure *st, bool json)
{
	struct scev_cb_loops cb;

	if (scev_cb_loops__find(&cb, st->cfg)) {
		sbuf_puts(sb, json ? "" : "  callbacks: out of memory\n");
		return;
	}
	if (json && cb.n)
		sbuf_puts(sb, ", \"callback_loops\": [");
	for (uint32_t k = 0; k < cb.n; k++) {
		const struct scev_cb_loop *c = &cb.v[k];
		const char *kind = c->helper == BPF_FUNC_for_each_map_elem ? "for_each_map_elem"
				   : c->helper == BPF_FUNC_find_vma ? "find_vma"
				   : c->helper == BPF_FUNC_user_ringbuf_drain ? "user_ringbuf_drain"
				   : c->helper == BPF_FUNC_timer_set_callback ? "timer"
									       : "bpf_loop";

		if (json) {
			sbuf_printf(sb, "%s\n    {\"header\": %u, \"kind\": \"%s\", "
				    "\"blocks\": [[%u, %u]], \"calls\": [", k ? "," : "", c->header,
				    kind, c->header, c->end - 1);
			for (uint32_t i = 0; i < c->ncalls; i++)
				sbuf_printf(sb, "%s%u", i ? ", " : "", c->calls[i]);
			sbuf_printf(sb, "], \"only_bpf_loop\": %s",
				    c->only_bpf_loop ? "true" : "false");
			if (!c->only_bpf_loop) {
				sbuf_puts(sb, ", \"reason\": ");
				json_put_string(sb, c->why);
			}
			sbuf_putc(sb, '}');
			continue;
		}
		sbuf_printf(sb, "  callback header %u kind %s body %u-%u calls", c->header, kind,
			    c->header, c->end - 1);
		if (!c->ncalls)
			sbuf_puts(sb, " none");
		for (uint32_t i = 0; i < c->ncalls; i++)
			sbuf_printf(sb, "%s%u", i ? "," : " ", c->calls[i]);
		if (!c->only_bpf_loop)
			sbuf_printf(sb, " (not only bpf_loop's: %s)", c->why);
		sbuf_putc(sb, '\n');
	}
	if (json && cb.n)
		sbuf_puts(sb, "\n  ]");
	scev_cb_loops__free(&cb);
}

void scev_report_loops_json(struct sbuf *sb, const char *name, const struct scev_structure *st)
{
	const struct scev_cfg *cfg = st->cfg;

	sbuf_puts(sb, "{\"name\": ");
	json_put_string(sb, name);
	sbuf_printf(sb, ", \"insn_count\": %u, \"functions\": [", cfg->len);
	for (uint32_t f = 0; f < cfg->nfuncs; f++)
		sbuf_printf(sb, "%s[%u, %u]", f ? ", " : "", cfg->funcs[f].start,
			    cfg->funcs[f].end - 1);
	sbuf_puts(sb, "], ");
	put_unreachable_json(sb, cfg);
	sbuf_puts(sb, ", \"loops\": [");
	for (uint32_t l = 0; l < st->loops->nloops; l++) {
		sbuf_puts(sb, l ? ",\n    {" : "\n    {");
		scev_report_loop_fields(sb, st, l);
		sbuf_putc(sb, '}');
	}
	sbuf_puts(sb, st->loops->nloops ? "\n  ]" : "]");
	put_callbacks(sb, st, true);
	sbuf_putc(sb, '}');
}

void scev_report_loops_text(struct sbuf *sb, const char *name, const struct scev_structure *st)
{
	const struct scev_cfg *cfg = st->cfg;
	const struct scev_loops *lf = st->loops;

	sbuf_printf(sb, "%s: %u insns, %u functions, %u loops (%u irreducible)", name, cfg->len,
		    cfg->nfuncs, lf->nloops, lf->nirreducible);
	if (cfg->nunreachable)
		sbuf_printf(sb, ", %u unreachable blocks", cfg->nunreachable);
	sbuf_putc(sb, '\n');
	for (uint32_t b = 0; b < cfg->nblocks; b++)
		if (!cfg->blocks[b].reachable)
			sbuf_printf(sb, "  unreachable %u-%u\n", cfg->blocks[b].first,
				    cfg->blocks[b].last);
	for (uint32_t l = 0; l < lf->nloops; l++) {
		const struct scev_loop *L = &lf->loops[l];

		sbuf_printf(sb, "  loop header %u depth %u", cfg->blocks[L->header].first, L->depth);
		if (L->parent != SCEV_NONE)
			sbuf_printf(sb, " in %u", cfg->blocks[lf->loops[L->parent].header].first);
		sbuf_puts(sb, " back_edges");
		for (uint32_t i = 0; i < L->nback_edges; i++)
			sbuf_printf(sb, "%s%u->%u", i ? "," : " ", cfg->blocks[L->back_edges[i].from].last,
				    cfg->blocks[L->header].first);
		if (L->latch != SCEV_NONE)
			sbuf_printf(sb, " latch %u", cfg->blocks[L->latch].last);
		else
			sbuf_puts(sb, " latch none");
		sbuf_puts(sb, " exits");
		if (!L->nexits)
			sbuf_puts(sb, " none");
		for (uint32_t i = 0; i < L->nexits; i++)
			sbuf_printf(sb, "%s%u->%u", i ? "," : " ", cfg->blocks[L->exits[i].from].last,
				    cfg->blocks[L->exits[i].to].first);
		if (L->irreducible) {
			sbuf_puts(sb, " IRREDUCIBLE entries");
			for (uint32_t i = 0; i < L->nentries; i++)
				sbuf_printf(sb, "%s%u", i ? "," : " ", cfg->blocks[L->entries[i]].first);
		}
		sbuf_putc(sb, '\n');
	}
	put_callbacks(sb, st, false);
}

/* DOT string escaping for record-free labels. */
static void dot_escape(struct sbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\' || *s == '{' || *s == '}' || *s == '<' || *s == '>' ||
		    *s == '|')
			sbuf_putc(sb, '\\');
		sbuf_putc(sb, *s);
	}
}

static void dot_block(struct sbuf *sb, const struct scev_structure *st, uint32_t b,
		      bool is_latch, bool is_header, unsigned flags, int indent)
{
	const struct scev_cfg *cfg = st->cfg;
	const struct scev_block *blk = &cfg->blocks[b];

	sbuf_printf(sb, "%*sb%u [label=\"%u-%u", indent, "", b, blk->first, blk->last);
	if (!(flags & SCEV_DOT_NO_INSNS)) {
		for (uint32_t pc = blk->first; pc <= blk->last;
		     pc += ebpf_insn_slots(&cfg->insns[pc])) {
			struct sbuf line = SBUF_INIT;

			ebpf_disasm_insn(&line, cfg->insns, cfg->len, pc, EBPF_DISASM_PC);
			sbuf_puts(sb, "\\l");
			dot_escape(sb, sbuf_cstr(&line));
			sbuf_free(&line);
		}
		sbuf_puts(sb, "\\l");
	}
	sbuf_putc(sb, '"');
	if (is_header)
		sbuf_puts(sb, ", penwidth=2");
	if (is_latch)
		sbuf_puts(sb, ", style=filled, fillcolor=\"#ffe0a0\"");
	if (!blk->reachable)
		sbuf_puts(sb, ", color=gray, fontcolor=gray");
	sbuf_puts(sb, "];\n");
}

static void dot_cluster(struct sbuf *sb, const struct scev_structure *st, uint32_t l,
			const bool *latch, unsigned flags, int indent)
{
	const struct scev_loops *lf = st->loops;
	const struct scev_loop *L = &lf->loops[l];

	sbuf_printf(sb, "%*ssubgraph cluster_loop%u {\n", indent, "", l);
	sbuf_printf(sb, "%*slabel=\"loop %u depth %u%s\"; color=%s;\n", indent + 2, "",
		    st->cfg->blocks[L->header].first, L->depth, L->irreducible ? " irreducible" : "",
		    L->irreducible ? "red" : "blue");
	for (uint32_t i = 0; i < L->nblocks; i++)
		if (lf->loop_of[L->blocks[i]] == l)
			dot_block(sb, st, L->blocks[i], latch[L->blocks[i]], L->blocks[i] == L->header,
				  flags, indent + 2);
	for (uint32_t i = 0; i < L->nchildren; i++)
		dot_cluster(sb, st, L->children[i], latch, flags, indent + 2);
	sbuf_printf(sb, "%*s}\n", indent, "");
}

void scev_report_loops_dot(struct sbuf *sb, const char *name, const struct scev_structure *st,
			   unsigned flags)
{
	const struct scev_cfg *cfg = st->cfg;
	const struct scev_loops *lf = st->loops;
	bool *latch = calloc(cfg->nblocks ? cfg->nblocks : 1, sizeof(bool));
	bool *back = NULL;

	if (!latch) {
		sb->oom = true;
		return;
	}
	for (uint32_t l = 0; l < lf->nloops; l++)
		for (uint32_t i = 0; i < lf->loops[l].nback_edges; i++)
			if (lf->loops[l].back_edges[i].latch != SCEV_NONE)
				latch[lf->loops[l].back_edges[i].latch] = true;
	sbuf_puts(sb, "digraph \"");
	dot_escape(sb, name);
	sbuf_puts(sb, "\" {\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n");
	for (uint32_t f = 0; f < cfg->nfuncs; f++) {
		sbuf_printf(sb, "  subgraph cluster_func%u {\n    label=\"function at %u\"; "
			    "style=dashed;\n", f, cfg->funcs[f].start);
		for (uint32_t b = cfg->funcs[f].first_block;
		     b < cfg->funcs[f].first_block + cfg->funcs[f].nblocks; b++)
			if (lf->loop_of[b] == SCEV_NONE)
				dot_block(sb, st, b, false, false, flags, 4);
		for (uint32_t l = 0; l < lf->nloops; l++)
			if (lf->loops[l].func == f && lf->loops[l].parent == SCEV_NONE)
				dot_cluster(sb, st, l, latch, flags, 4);
		sbuf_puts(sb, "  }\n");
	}
	back = calloc(cfg->nblocks ? cfg->nblocks * 2 : 1, sizeof(bool));
	if (back)
		for (uint32_t l = 0; l < lf->nloops; l++)
			for (uint32_t i = 0; i < lf->loops[l].nback_edges; i++) {
				uint32_t from = lf->loops[l].back_edges[i].from;
				const struct scev_block *blk = &cfg->blocks[from];

				for (unsigned k = 0; k < blk->nsucc; k++)
					if (blk->succ[k] == lf->loops[l].header)
						back[from * 2 + k] = true;
			}
	for (uint32_t b = 0; b < cfg->nblocks; b++) {
		const struct scev_block *blk = &cfg->blocks[b];

		for (unsigned k = 0; k < blk->nsucc; k++) {
			bool taken = k == 1 || (blk->nsucc == 1 && ebpf_is_ja(&cfg->insns[blk->last]));

			sbuf_printf(sb, "  b%u -> b%u [", b, blk->succ[k]);
			if (back && back[b * 2 + k])
				sbuf_puts(sb, "color=red, penwidth=2, label=\"back\"");
			else
				sbuf_printf(sb, "label=\"%s\"", taken ? "T" : "");
			sbuf_puts(sb, "];\n");
		}
	}
	if (flags & SCEV_DOT_IDOM)
		for (uint32_t b = 0; b < cfg->nblocks; b++)
			if (st->dom->idom[b] != SCEV_NONE)
				sbuf_printf(sb, "  b%u -> b%u [style=dotted, color=gray, "
					    "constraint=false];\n", st->dom->idom[b], b);
	sbuf_puts(sb, "}\n");
	free(back);
	free(latch);
}
