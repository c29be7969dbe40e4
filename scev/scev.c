/* The analysis driver: structure, the forgetful first pass, the loop summaries innermost
 * first, and the range pass that emits claims (see scev.h). */
#include "scev/scev.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scev/internal.h"
#include "scev/callbacks.h"
#include "util/arena.h"
#include "util/zalloc.h"

struct dfs_frame {
	uint32_t b, k;
};

/* Reverse postorder of each function's reachable blocks. */
static int compute_rpo(struct scev_ctx *cx)
{
	const struct scev_cfg *cfg = cx->st.cfg;
	uint32_t nb = cfg->nblocks, n = 0;
	struct dfs_frame *st = arena_alloc((nb ? nb : 1) * sizeof(*st));
	uint32_t *post = arena_alloc((nb ? nb : 1) * sizeof(*post));
	uint8_t *seen = arena_zalloc(nb ? nb : 1, 1);
	int err = -ENOMEM;

	cx->rpo = arena_alloc((nb ? nb : 1) * sizeof(*cx->rpo));
	cx->rpo_index = arena_alloc((nb ? nb : 1) * sizeof(*cx->rpo_index));
	cx->rpo_off = arena_zalloc(cfg->nfuncs + 1, sizeof(*cx->rpo_off));
	if (!st || !post || !seen || !cx->rpo || !cx->rpo_index || !cx->rpo_off)
		goto out;
	for (uint32_t b = 0; b < nb; b++)
		cx->rpo_index[b] = UINT32_MAX;
	for (uint32_t f = 0; f < cfg->nfuncs; f++) {
		uint32_t sp = 0, np = 0, entry = cfg->funcs[f].entry;

		cx->rpo_off[f] = n;
		seen[entry] = 1;
		st[sp++] = (struct dfs_frame){ entry, 0 };
		while (sp) {
			struct dfs_frame *fr = &st[sp - 1];
			const struct scev_block *blk = &cfg->blocks[fr->b];

			if (fr->k == blk->nsucc) {
				post[np++] = fr->b;
				sp--;
				continue;
			}
			uint32_t s = blk->succ[fr->k++];

			if (!seen[s]) {
				seen[s] = 1;
				st[sp++] = (struct dfs_frame){ s, 0 };
			}
		}
		while (np) {
			cx->rpo_index[post[np - 1]] = n;
			cx->rpo[n++] = post[--np];
		}
	}
	cx->rpo_off[cfg->nfuncs] = n;
	err = 0;
out:
	arena_free(st);
	arena_free(post);
	arena_free(seen);
	return err;
}

/* Registers live at each function's entry (backward liveness over its blocks): a pseudo call
 * passes only those of r1-r5 its callee may read, the others are dead there.  Each block's
 * instructions are walked once, into live_in = (live_out & keep) | gen; the fixpoint then
 * iterates over the blocks alone. */
static int compute_args_read(struct scev_ctx *cx)
{
	const struct scev_cfg *cfg = cx->st.cfg;
	size_t nb = cfg->nblocks ? cfg->nblocks : 1;
	uint16_t *in = arena_zalloc(nb, sizeof(*in));
	uint16_t *keep = arena_alloc(nb * sizeof(*keep)), *gen = arena_alloc(nb * sizeof(*gen));
	bool changed = true;

	cx->args_read = arena_zalloc(cfg->nfuncs ? cfg->nfuncs : 1, sizeof(*cx->args_read));
	if (!in || !keep || !gen || !cx->args_read) {
		arena_free(in);
		arena_free(keep);
		arena_free(gen);
		return -ENOMEM;
	}
	for (uint32_t b = 0; b < cfg->nblocks; b++) {
		const struct scev_block *blk = &cfg->blocks[b];
		uint32_t pcs[64], n = 0;
		uint16_t k = 0xffff, g = 0;

		/* instructions backwards; blocks longer than 64 are conservative: all live */
		for (uint32_t pc = blk->first; pc <= blk->last;) {
			pcs[n++ % 64] = pc;
			pc += ebpf_insn_slots(&cx->insns[pc]);
		}
		if (n > 64) {
			k = 0;
			g = 0x7ff;
		} else {
			while (n--) {
				const struct bpf_insn *i = &cx->insns[pcs[n]];
				uint16_t w = (uint16_t)~ebpf_regs_written(i);

				k &= w;
				g = (uint16_t)((g & w) | (uint16_t)ebpf_regs_read(i));
			}
		}
		keep[b] = k;
		gen[b] = g;
	}
	while (changed) {
		changed = false;
		for (uint32_t b = cfg->nblocks; b-- > 0;) {
			const struct scev_block *blk = &cfg->blocks[b];
			uint16_t live = 0;

			for (unsigned k = 0; k < blk->nsucc; k++)
				live |= in[blk->succ[k]];
			if (blk->nsucc == 0)
				live |= 1;	/* r0 at exit */
			live = (uint16_t)((live & keep[b]) | gen[b]);
			if (live != in[b]) {
				in[b] = live;
				changed = true;
			}
		}
	}
	for (uint32_t f = 0; f < cfg->nfuncs; f++)
		cx->args_read[f] = in[cfg->funcs[f].entry] & 0x3e;
	arena_free(in);
	arena_free(keep);
	arena_free(gen);
	return 0;
}

bool scev_loop_holds(struct scev_ctx *cx, uint32_t l, unsigned kind)
{
	const struct scev_cfg *cfg = cx->st.cfg;
	const struct scev_loops *lf = cx->st.loops;

	if (!cx->loop_holds) {
		if (!(cx->loop_holds = arena_zalloc(lf->nloops ? lf->nloops : 1, 1)))
			return true;
		/* Each block's kinds go to its innermost loop and up to the first loop around it
		 * that has them already (whose outer loops have them too): the blocks of loop x
		 * at any depth are those whose innermost loop is x or nested in it. */
		for (uint32_t b = 0; b < cfg->nblocks; b++) {
			const struct scev_block *B = &cfg->blocks[b];
			const struct bpf_insn *j = scev_block_cond_jmp(cfg, b);
			unsigned k = j && ebpf_op(j) == BPF_JCOND ? LOOP_HOLDS_MAY_GOTO : 0;

			if (lf->loop_of[b] == SCEV_NONE)
				continue;
			for (uint32_t pc = B->first; pc <= B->last; pc += ebpf_insn_slots(&cx->insns[pc])) {
				const struct bpf_insn *i = &cx->insns[pc];

				if (ebpf_is_call(i))
					k |= LOOP_HOLDS_CALL | LOOP_HOLDS_CLOBBER;
				else if (ebpf_class(i) == BPF_LD && !ebpf_is_ldimm64(i))
					k |= LOOP_HOLDS_CLOBBER | LOOP_HOLDS_END;
				if (ebpf_is_exit(i) || (ebpf_is_helper_call(i) && i->imm == 12) ||
				    (cx->th_fn && absint_throw_ends(cx, pc)))
					k |= LOOP_HOLDS_END;
			}
			for (uint32_t x = lf->loop_of[b]; k && x != SCEV_NONE &&
			     (cx->loop_holds[x] & k) != k; x = lf->loops[x].parent)
				cx->loop_holds[x] |= (uint8_t)k;
		}
	}
	return cx->loop_holds[l] & kind;
}

int scev_own_blocks(const struct scev_ctx *cx, uint32_t **own_out, uint32_t **off_out)
{
	const struct scev_loops *lf = cx->st.loops;
	uint32_t nb = cx->st.cfg->nblocks, nl = lf->nloops;
	uint32_t *off = arena_zalloc(nl + 1, sizeof(*off));
	uint32_t *own = arena_alloc((nb ? nb : 1) * sizeof(*own));

	if (!off || !own) {
		arena_free(off);
		arena_free(own);
		return -ENOMEM;
	}
	for (uint32_t b = 0; b < nb; b++)
		if (lf->loop_of[b] != SCEV_NONE)
			off[lf->loop_of[b] + 1]++;
	for (uint32_t l = 0; l < nl; l++)
		off[l + 1] += off[l];
	/* (ascending, as in L->blocks; off[l] then ends l's run: shifted back below) */
	for (uint32_t b = 0; b < nb; b++)
		if (lf->loop_of[b] != SCEV_NONE)
			own[off[lf->loop_of[b]]++] = b;
	for (uint32_t l = nl; l > 0; l--)
		off[l] = off[l - 1];
	off[0] = 0;
	*own_out = own;
	*off_out = off;
	return 0;
}

int scev_sort_by_rpo(const struct scev_ctx *cx, uint32_t *v, uint32_t n)
{
	/* (the walk of a small loop's blocks, once per loop: no allocation) */
	uint32_t few[64], *tmp = n <= 64 ? few : malloc(n * sizeof(*tmp));

	if (!tmp)
		return -ENOMEM;
	/* bottom-up merge sort: stable, n log n, no context-free comparator needed */
	for (uint32_t w = 1; w < n; w *= 2) {
		for (uint32_t lo = 0; lo < n; lo += 2 * w) {
			uint32_t mid = lo + w < n ? lo + w : n;
			uint32_t hi = lo + 2 * w < n ? lo + 2 * w : n;
			uint32_t i = lo, j = mid, k = lo;

			while (i < mid || j < hi) {
				bool left = j >= hi ||
					    (i < mid && cx->rpo_index[v[i]] <= cx->rpo_index[v[j]]);

				tmp[k++] = left ? v[i++] : v[j++];
			}
		}
		memcpy(v, tmp, n * sizeof(*v));
	}
	if (tmp != few)
		free(tmp);
	return 0;
}

/* Every store and call may write the whole frame (all), or none has been seen yet. */
/* Re-runs of the last passes while the iterators' ranges grow between passes. */
#define SCEV_ITER_RERUNS 3
/* Analyses run again under what the last pass saw of the callers' frames (cross_rerun): at
 * most this many per analysis. */
#define SCEV_CROSS_RERUNS 2

static void stack_spans_reset(struct scev_ctx *cx, bool all)
{
	for (uint32_t pc = 0; pc < cx->len; pc++) {
		/* (seeded: may_stack kept for the passes that check it, the first pass's apart) */
		(cx->stack_seeded ? cx->stack_first : cx->may_stack)[pc] =
			all ? (struct stack_span){ -FP_FRAME, 0 } : (struct stack_span){ 0, 0 };
		cx->add_src[pc] = all ? (struct add_src){ INT64_MIN, INT64_MAX }
				      : (struct add_src){ 1, 0 };
	}
}

/* The linked scalars at each jump (links.h); global functions start with none. */
static int compute_links(struct scev_ctx *cx)
{
	const struct scev_cfg *cfg = cx->st.cfg;
	bool *global;
	int err;

	if (cfg->nfuncs <= 1)	/* (main alone: no function verified apart) */
		return scev_links__build(&cx->links, cfg, cx->rpo, cx->rpo_off, NULL,
					 !cx->opts.unprivileged);
	if (!(global = arena_zalloc(cfg->nfuncs, sizeof(*global))))
		return -ENOMEM;
	for (uint32_t f = 1; cx->prog && f < cfg->nfuncs; f++)
		global[f] = ebpf_prog_global(cx->prog, cfg->funcs[f].start) != NULL;
	err = scev_links__build(&cx->links, cfg, cx->rpo, cx->rpo_off, global,
				!cx->opts.unprivileged);
	arena_free(global);
	return err;
}

/* A global function's summary is its prototype's: the arguments it gives, an unknown result. */
static void global_summaries(struct scev_ctx *cx)
{
	for (uint32_t f = 0; f < cx->st.cfg->nfuncs; f++)
		if (absint_global(cx, f)) {
			absint_global_args(cx, f, cx->fn_args[f]);
			cx->fn_ret[f] = aval_scalar(range_unknown());
			cx->fn_seen[f] = 3;
		}
}

static void ctx_free(struct scev_ctx *cx)
{
	absint_free(cx);
	arena_free(cx->args_read);
	scev_links__free(cx->links);
	free(cx->btf_types);
	free(cx->btf_trusted);
	arena_free(cx->loop_args_def);
	arena_free(cx->fn_args);
	arena_free(cx->fn_args_acc);
	arena_free(cx->fn_args_last);
	arena_free(cx->fn_seen_last);
	arena_free(cx->fn_pkt);
	arena_free(cx->fn_pkt_acc);
	arena_free(cx->fn_exit);	/* (states without cells) */
	arena_free(cx->fn_exit_acc);
	arena_free(cx->fn_unreached);
	arena_free(cx->fn_ret);
	arena_free(cx->fn_ret_acc);
	arena_free(cx->fn_seen);
	arena_free(cx->fn_seen_acc);
	arena_free(cx->fn_r0);
	arena_free(cx->fn_r0_acc);
	arena_free(cx->fn_cb);
	arena_free(cx->timer_site);
	arena_free(cx->fn_effects);
	arena_free(cx->loop_moves_pkt);
	arena_free(cx->loop_holds);
	arena_free(cx->enum_walk);
	arena_free(cx->fn_global);
	arena_free(cx->th_fn);
	arena_free(cx->th_reach);
	arena_free(cx->outer_init);
	arena_free(cx->outer_init_acc);
	arena_free(cx->outer_seen_acc);
	arena_free(cx->outer_write);
	arena_free(cx->outer_write_acc);
	arena_free(cx->cb_pre_write);
	absint_outer_frames_free(cx);
	arena_free(cx->iter_slot);
	arena_free(cx->iter_fn);
	arena_free(cx->citer);
	arena_free(cx->citer_acc);
	arena_free(cx->dp_exit);
	arena_free(cx->dp_exit_acc);
	arena_free(cx->cbdp);
	arena_free(cx->cbdp_acc);
	arena_free(cx->iter_loop);
	arena_free(cx->ref_loop);
	arena_free(cx->dp_loop);
	scev_cb_loops__free(&cx->cbl);
	if (cx->sums)
		for (uint32_t l = 0; l < cx->st.loops->nloops; l++)
			sym_summary__free(&cx->sums[l]);
	arena_free(cx->sums);
	symex_done(cx);
	arena_free(cx->may_stack);
	arena_free(cx->stack_seen);
	arena_free(cx->stack_first);
	arena_free(cx->add_src);
	arena_free(cx->fn_stack);
	arena_free(cx->fn_stack_np);
	arena_free(cx->fc_pat);
	arena_free(cx->fc_top);
	arena_free(cx->ptr_spill);
	arena_free(cx->live);
	arena_free(cx->site_args);
	arena_free(cx->site_seen);
	scev_calls__free(&cx->calls);
	arena_free(cx->rpo);
	arena_free(cx->rpo_index);
	arena_free(cx->rpo_off);
	expr_arena__free(&cx->ar);
	scev_structure__free(&cx->st);
}

static void cb_facts_free(struct scev_cb_facts *f)
{
	arena_free(f->nr);
	arena_free(f->flags);
	arena_free(f->entries);
	arena_free(f->seen);
	arena_free((void *)f->ret);
	memset(f, 0, sizeof(*f));
}

/* Callbacks as loops (callbacks.h), with what the last pass saw at their calls and exits. */
static int claim_callback_loops(struct scev_ctx *cx, struct claim_prog *out,
				struct scev_cb_facts *facts)
{
	const struct scev_loops *lf = cx->st.loops;
	uint32_t nf = cx->st.cfg->nfuncs;
	const struct scev_cb_loops *cb = &cx->cbl;
	uint32_t *headers;
	struct range *ret;
	int err;

	if (!cb->n)
		return 0;
	headers = zalloc(lf->nloops ? lf->nloops : 1, sizeof(*headers));
	ret = zalloc(nf, sizeof(*ret));
	if (!headers || !ret) {
		free(headers);
		free(ret);
		return -ENOMEM;
	}
	for (uint32_t l = 0; l < lf->nloops; l++)
		headers[l] = cx->st.cfg->blocks[lf->loops[l].header].first;
	/* r0 at the exits: known only when every exit's r0 was a scalar */
	for (uint32_t f = 0; cx->fn_ret_acc && f < nf; f++) {
		if ((cx->fn_seen_acc[f] & 2) && cx->fn_ret_acc[f].kind == AV_SCALAR)
			ret[f] = cx->fn_ret_acc[f].r;
		else
			cx->fn_seen_acc[f] &= (uint8_t)~2u;
	}
	facts->ret = ret;
	facts->ret_seen = cx->fn_ret_acc ? cx->fn_seen_acc : NULL;
	err = scev_cb_loops__claim(out, cx->st.cfg, cb, facts, headers, lf->nloops);
	free(headers);
	return err;
}

/* What callbacks may write of each caller's frame (internal.h): everything, or nothing seen
 * yet by the running pass. */
static void outer_write_all(struct scev_ctx *cx)
{
	for (uint32_t f = 0; f < cx->st.cfg->nfuncs; f++)
		frame_writes_all(&cx->outer_write[f]);
}

static void outer_write_reset(struct scev_ctx *cx)
{
	memset(cx->outer_write_acc, 0, cx->st.cfg->nfuncs * sizeof(*cx->outer_write_acc));
	cx->outer_write_any_acc = false;
	absint_outer_wval_reset(cx);
}

/* What the running pass saw written of frame f through pointers into it. */
static struct frame_writes outer_seen(const struct scev_ctx *cx, uint32_t f)
{
	struct frame_writes all;

	if (!cx->outer_write_any_acc)
		return cx->outer_write_acc[f];
	frame_writes_all(&all);
	return all;
}

/* Callees' and callbacks' writes into their callers' frames, assumed (outer_write) from the
 * summary rounds, whose first passes widen a loop's offsets past any bound (f(p, n) writing
 * p[-i] for i < n: the whole frame); the last pass, with the loops' summaries, places them.
 * When it saw less of some frame than was assumed (and nothing outside), outer_write becomes
 * what it saw and the analysis runs again, once (true).  Sound: that run's last pass is then
 * checked to see nothing outside it (outer_write_grow), and a run that assumes W and whose
 * last pass sees every write into a caller's frame within W assumed only what holds — the
 * first write outside W a run could make follows a prefix the passes cover (every earlier
 * write inside W), so the last pass would have seen it.  When the check fails, try_outer_shrink
 * puts back what the rounds found (saved) and the analysis runs once more (outer_try 2). */
static bool try_outer_shrink(struct scev_ctx *cx, struct frame_writes *saved, int *outer_try)
{
	uint32_t nf = cx->st.cfg->nfuncs;
	bool smaller = false;

	if (!saved || !cx->outer_write_acc)
		return false;
	if (*outer_try == 1) {
		for (uint32_t f = 0; f < nf; f++) {
			struct frame_writes a = outer_seen(cx, f);

			if (!frame_writes_covers(&cx->outer_write[f], &a))
				break;
			if (f + 1 == nf)
				return false;	/* (covered: kept) */
		}
		memcpy(cx->outer_write, saved, nf * sizeof(*saved));
		*outer_try = 2;
		return true;
	}
	if (*outer_try)
		return false;
	for (uint32_t f = 0; f < nf; f++) {
		struct frame_writes a = outer_seen(cx, f);

		if (!frame_writes_covers(&cx->outer_write[f], &a))
			return false;	/* (outside what was assumed: outer_write_grow says so) */
		smaller = smaller || !frame_writes_covers(&a, &cx->outer_write[f]);
	}
	if (!smaller)
		return false;
	memcpy(saved, cx->outer_write, nf * sizeof(*saved));
	for (uint32_t f = 0; f < nf; f++)
		cx->outer_write[f] = outer_seen(cx, f);
	*outer_try = 1;
	return true;
}

/* The bytes two spans both cover. */
static struct stack_span stack_span_meet(const struct stack_span *a, const struct stack_span *b)
{
	struct stack_span m = { a->lo > b->lo ? a->lo : b->lo, a->hi < b->hi ? a->hi : b->hi };

	return stack_span_any(a) && stack_span_any(b) && m.lo < m.hi ? m : (struct stack_span){ 0 };
}

/* The frame bytes each store or call may write through a pointer other than a constant r10
 * offset (may_stack, which the symbolic execution forgets: its summaries' havoc, sym_hv) are
 * placed by the first pass, which forgets a loop's registers at its header (it reads no
 * summary): a loop storing through r7 = r10 - 80 stepped by 8 four times writes, for it, from
 * fp-80 to the frame's top, and the loop's summary forgets a packet pointer spilled at fp-8 —
 * at fp-96 too, r7's range being any number.  The last pass, with the summaries, places the
 * stores (stack_seen: [-80, -48)).  When what both passes saw (their meet: a pass with a
 * widened counter may see more than the other) is, at some store or call in a loop, less than
 * assumed, may_stack becomes that meet at every pc (stack_seeded; the first pass's own go to
 * stack_first) and the analysis runs again, once (true; stack_try 1).  Sound by
 * try_outer_shrink's argument: after every last pass of a seeded run the meet is checked (here,
 * stack_try 1) to lie inside may_stack, and a run that assumes spans W and whose passes' meet
 * lies inside W assumed only what holds — the first write of a run outside W (at pc, outside
 * W[pc]) follows a prefix whose writes all lie inside W, on which the summaries, so both passes'
 * states, hold; each pass's state at pc then holds the address, so both spans, and their meet,
 * hold the bytes written.  (An unseeded run passes that check: W is the first pass's.)  When
 * the check fails, the first pass's spans come back and the analysis runs once more (stack_try
 * 2, after which nothing is seeded).  Only a loop's spans ask for the run (elsewhere no summary
 * reads them); every pc's are seeded and checked. */
static bool try_stack_shrink(struct scev_ctx *cx, int *stack_try)
{
	const struct scev_loops *lf = cx->st.loops;
	const struct stack_span *first = cx->stack_seeded ? cx->stack_first : cx->may_stack;
	bool smaller = false;

	if (!cx->stack_seen || *stack_try == 2)
		return false;
	for (uint32_t pc = 0; pc < cx->len; pc++) {
		struct stack_span a = stack_span_meet(&cx->stack_seen[pc], &first[pc]);
		const struct stack_span *u = &cx->may_stack[pc];

		if (*stack_try && stack_span_any(&a) &&
		    !(stack_span_any(u) && u->lo <= a.lo && a.hi <= u->hi)) {
			cx->stack_seeded = false;	/* (the first pass fills them again) */
			*stack_try = 2;
			return true;
		}
		/* (unseeded, u is first: a lies inside it) */
		smaller = smaller || (!*stack_try && stack_span_any(u) &&
				      (a.lo != u->lo || a.hi != u->hi) &&
				      lf->loop_of[cx->st.cfg->block_of[pc]] != SCEV_NONE);
	}
	if (*stack_try || !smaller)
		return false;	/* (seeded and covered: kept) */
	memcpy(cx->stack_first, cx->may_stack, cx->len * sizeof(*cx->may_stack));
	for (uint32_t pc = 0; pc < cx->len; pc++)
		cx->may_stack[pc] = stack_span_meet(&cx->stack_seen[pc], &cx->stack_first[pc]);
	cx->stack_seeded = true;
	*stack_try = 1;
	return true;
}

/* The cross-pass checks of the callers' frames (below the last pass in run_analysis): what
 * callees read of each caller's frame (absint_outer_frame_covered), the values and the span
 * callees and callbacks wrote into them (absint_outer_wval_covered, outer_write).  Each was
 * assumed from the summary rounds, whose passes are the first, forgetful one only; the last
 * pass, with the loops' summaries, may see other values (a cell the first pass knew exactly
 * from one iteration is a range under the summary) or a write the rounds never ran.  When one
 * fails, the assumption grows by what the last pass saw (joins: only wider) and the analysis
 * runs again, at most SCEV_CROSS_RERUNS times; its last pass is checked again below (true: run
 * again).  Sound as try_outer_shrink: an analysis under any assumption whose last pass sees
 * nothing outside it assumed only what holds (the first run leaving the assumption would do so
 * after a prefix every pass covers, so the last pass would have seen it); an assumption that
 * still fails after the reruns makes the verdict unsupported, as before. */
static bool outer_write_grow(struct scev_ctx *cx);

static bool cross_rerun(struct scev_ctx *cx, uint32_t *cross)
{
	uint32_t nf = cx->st.cfg->nfuncs;
	bool covered = absint_outer_wval_covered(cx);

	if (*cross >= SCEV_CROSS_RERUNS || cx->cb_once_broken || !cx->outer_write_acc)
		return false;
	for (uint32_t f = 0; f < nf && covered; f++)
		covered = absint_outer_frame_covered(cx, f);
	for (uint32_t f = 0; f < nf && covered; f++) {
		struct frame_writes a = outer_seen(cx, f);

		covered = frame_writes_covers(&cx->outer_write[f], &a);
	}
	if (covered)
		return false;
	/* (as the rounds grow them: the values before the span, read against the old one) */
	absint_outer_wval_grow(cx, false);
	outer_write_grow(cx);
	absint_outer_frame_grow(cx, false);
	(*cross)++;
	return !cx->outer_frame_bad;
}

/* Grows outer_write by what the pass saw; true when it already covered it. */
static bool outer_write_grow(struct scev_ctx *cx)
{
	bool covered = true;

	for (uint32_t f = 0; f < cx->st.cfg->nfuncs; f++) {
		struct frame_writes a = outer_seen(cx, f);

		if (frame_writes_grow(&cx->outer_write[f], &a))
			covered = false;
	}
	return covered;
}

/* The verdict read the callers' frames through pointers into them (bpf_loop's ctx, bpf-to-bpf
 * arguments) with what the first pass knew written before the calls (outer_init): the last
 * pass must know at least that much (false when it does not: the verdict unsupported). */
static bool check_outer_init(struct scev_ctx *cx, struct scev_verdict *v)
{
	bool held = true;

	for (uint32_t f = 0; f < cx->st.cfg->nfuncs; f++) {
		if (!cx->outer_seen_acc[f])
			continue;
		for (int k = 0; k < FP_FRAME / 64; k++) {
			held = held && !(cx->outer_init[f].w[k] & ~cx->outer_init_acc[f].w[k]);
			if (v && cx->outer_init[f].w[k] & ~cx->outer_init_acc[f].w[k] &&
			    v->kind == VERDICT_SAFE) {
				v->kind = VERDICT_UNSUPPORTED;
				v->pc = cx->st.cfg->funcs[f].start;
				snprintf(v->reason, sizeof(v->reason), "the stack bytes written before "
					 "the calls of the function at %u that pass pointers to them "
					 "differ between passes", cx->st.cfg->funcs[f].start);
			}
		}
	}
	return held;
}

/* Whether the arguments the last round saw for function f are the ones it was run with. */
static bool args_equal(const struct scev_ctx *cx, uint32_t f)
{
	for (int r = 1; r <= 5; r++)
		if (!aval_equal(&cx->fn_args[f][r], &cx->fn_args_acc[f][r]))
			return false;
	return !memcmp(&cx->fn_pkt[f], &cx->fn_pkt_acc[f], sizeof(cx->fn_pkt[f]));
}

/* The arguments of the summary rounds are joined over their first, forgetful passes, which
 * widen a caller's loop past the values its last pass, with the loops' summaries, gives the
 * calls (main calls f(i + 1) for i < 4: the first pass has i in [0, 4], the last [0, 3]).  The
 * last pass's arguments hold for every run: that pass is sound, every assumption of the run
 * checked (the caller's held), and it saw every call a run makes.  So when the last pass saw
 * narrower arguments at some static callee's calls than it was analysed with (and none wider),
 * those become its arguments and the analysis runs again, once (true): the callee's loops and
 * claims then follow the arguments its calls really pass.  Not for main, callbacks, global
 * functions (their prototype fixes them) or functions whose address is taken (no summary). */
static bool try_args_shrink(struct scev_ctx *cx)
{
	uint32_t nf = cx->st.cfg->nfuncs;
	bool smaller = false;

	if (!cx->fn_args_last || !cx->fn_seen)
		return false;
	for (uint32_t f = 1; f < nf; f++) {
		bool sub = true, eq = true;

		if (!(cx->fn_seen[f] & 1) || !cx->fn_seen_last[f] || cx->fn_cb[f] ||
		    absint_global(cx, f))
			continue;
		for (int r = 1; r <= 5; r++) {
			sub = sub && aval_subset(&cx->fn_args_last[f][r], &cx->fn_args[f][r]);
			eq = eq && aval_equal(&cx->fn_args_last[f][r], &cx->fn_args[f][r]);
		}
		if (!sub || eq)
			continue;
		for (int r = 1; r <= 5; r++)
			cx->fn_args[f][r] = cx->fn_args_last[f][r];
		smaller = true;
	}
	return smaller;
}

/* Before a re-run of the last passes (the first, forgetful one and the one with the loop
 * summaries): the claims of the run that ended go, the syntactic summaries the first pass
 * reads come back, the iterator facts join from now on.  What the passes accumulate for the
 * verdict (frame depths, reached blocks, the callers' bytes written before calls) and for the
 * callbacks (their writes into callers' frames) only grows or shrinks the safe way; the caller
 * restores the verdict.  0 or -ENOMEM. */
static int rerun_reset(struct scev_ctx *cx, struct claim_prog *out, struct scev_cb_facts *f)
{
	uint32_t nloops = cx->st.loops->nloops;
	struct claim_prog keep = *out;

	claim_prog__free(out);
	memset(out, 0, sizeof(*out));
	memcpy(out->name, keep.name, sizeof(out->name));
	memcpy(out->strategy, keep.strategy, sizeof(out->strategy));
	out->insn_count = keep.insn_count;
	if (f->seen) {
		memset(f->nr, 0, cx->len * sizeof(*f->nr));
		memset(f->flags, 0, cx->len * sizeof(*f->flags));
		memset(f->entries, 0, cx->len * sizeof(*f->entries));
		memset(f->seen, 0, cx->len);
	}
	memset(cx->iter_loop, 0, nloops ? nloops : 1);
	arena_free(cx->sums);
	if (!(cx->sums = arena_zalloc(nloops ? nloops : 1, sizeof(*cx->sums))))
		return -ENOMEM;
	stack_spans_reset(cx, false);	/* (the first pass reads no summary: step 1) */
	cx->first_pass = true;
	cx->iter_join = true;
	/* (the blocks the verdict's instruction bound counts are the next last pass's: a block
	 * only this run reached, under arguments or assumptions the next one narrows, would have
	 * its loop counted with no trip claim, and the bound lost) */
	if (cx->live)
		memset(cx->live, 0, cx->st.cfg->nblocks ? cx->st.cfg->nblocks : 1);
	return 0;
}

/* cx cleared for an analysis, but for the slot arrays of the iterators and the ringbuf
 * reserves, which are read only below their counts (niter_acc, niter_used, nref_sites, cleared
 * here): 6 KB of the context's 7 KB, cleared for every program (a tenth of the instructions
 * of a program of a few instructions, counted by callgrind). */
#define CTX_SKIP(f) { offsetof(struct scev_ctx, f), sizeof(((struct scev_ctx *)0)->f) }
static void ctx_clear(struct scev_ctx *cx)
{
	static const struct {
		size_t off, len;
	} skip[] = { CTX_SKIP(iter_acc), CTX_SKIP(iter_used), CTX_SKIP(ref_sites) };
	size_t at = 0;

	for (size_t k = 0; k < sizeof(skip) / sizeof(skip[0]); k++) {
		memset((char *)cx + at, 0, skip[k].off - at);
		at = skip[k].off + skip[k].len;
	}
	memset((char *)cx + at, 0, sizeof(*cx) - at);
}
_Static_assert(offsetof(struct scev_ctx, iter_acc) < offsetof(struct scev_ctx, iter_used) &&
	       offsetof(struct scev_ctx, iter_used) < offsetof(struct scev_ctx, ref_sites),
	       "ctx_clear's slot arrays in the order of struct scev_ctx");
#undef CTX_SKIP

/* One analysis of prog.  plan: prog is a program with copies of callees (contexts.c), NULL for
 * a program as given; make: where to put the copies worth making (NULL: none). */
static int run_analysis(struct claim_prog *out, const struct ebpf_prog *prog,
			const struct ebpf_map_def *maps, size_t nmaps,
			const struct scev_opts *opts, struct scev_verdict *verdict,
			const struct scev_ctx_plan *plan, struct scev_ctx_plan *make,
			struct diag *d)
{
	struct scev_ctx cx;
	struct scev_cb_facts cb_facts = { 0 };
	struct scev_verdict saved;
	struct frame_writes *outer_saved = NULL;
	uint32_t nloops, reruns = 0, cross = 0;
	int err, outer_try = 0, stack_try = 0;
	bool held, args_shrunk = false, first_done = false, settled;

	memset(out, 0, sizeof(*out));
	ctx_clear(&cx);
	copy_text(out->name, sizeof(out->name), prog->name);
	out->insn_count = (uint32_t)prog->len;
	if (opts)
		memcpy(&cx.opts, opts, opts->sz && opts->sz < sizeof(cx.opts) ? opts->sz : sizeof(cx.opts));
	strcpy(out->strategy, cx.opts.strategy == SCEV_ITERATE ? "iterate" : "forget");
	cx.verdict = verdict;
	cx.prog = prog;
	cx.insns = prog->insns;
	cx.len = (uint32_t)prog->len;
	cx.maps = maps;
	cx.nmaps = nmaps;
	cx.prog_type = cx.opts.prog_type ? cx.opts.prog_type : prog->prog_type;
	cx.ctx_model = ebpf_prog_ctx_model(cx.prog_type);
	if ((err = scev_structure__build_entry(&cx.st, prog->insns, prog->len,
					       ebpf_prog_exc_cb(prog) ? ebpf_prog_exc_cb(prog)->insn
								      : 0, d)))
		return err;
	err = -ENOMEM;
	if (expr_arena__init(&cx.ar) || compute_rpo(&cx) || compute_args_read(&cx) ||
	    compute_links(&cx))
		goto fail;
	if (scev_calls__build(&cx.calls, cx.st.cfg))
		goto fail;
	cx.ctx_plan = plan;
	cx.plan_make = make && !plan;
	if (make && !plan && cx.st.cfg->nfuncs > 1 && cx.calls.nsites > 1 &&
	    (!(cx.site_args = arena_zalloc(cx.calls.nsites, sizeof(*cx.site_args))) ||
	     !(cx.site_seen = arena_zalloc(cx.calls.nsites, 1))))
		goto fail;
	/* bpf_loop callbacks: analyzed from the arguments at their bpf_loop calls */
	if (scev_cb_loops__find(&cx.cbl, cx.st.cfg) ||
	    !(cx.fn_cb = arena_zalloc(cx.st.cfg->nfuncs, 1)) ||
	    !(cx.outer_init = arena_zalloc(cx.st.cfg->nfuncs, sizeof(*cx.outer_init))) ||
	    !(cx.outer_init_acc = arena_zalloc(cx.st.cfg->nfuncs, sizeof(*cx.outer_init_acc))) ||
	    !(cx.outer_seen_acc = arena_zalloc(2 * cx.st.cfg->nfuncs, 1)) ||	/* (cb_view) */
	    !(cx.outer_write = arena_zalloc(cx.st.cfg->nfuncs, sizeof(*cx.outer_write))) ||
	    !(cx.outer_write_acc = arena_zalloc(cx.st.cfg->nfuncs, sizeof(*cx.outer_write_acc))))
		goto fail;
	if (absint_fn_effects(&cx) || absint_global_setup(&cx) || absint_ref_setup(&cx) ||
	    absint_dynptr_setup(&cx) || absint_throw_setup(&cx) ||
	    absint_lock_setup(&cx))
		goto fail;
	outer_write_all(&cx);	/* (until the summary rounds know better) */
	if (!(cx.iter_slot = arena_alloc((cx.len ? cx.len : 1) * sizeof(*cx.iter_slot))) ||
	    !(cx.iter_fn = arena_alloc((cx.len ? cx.len : 1) * sizeof(*cx.iter_fn))) ||
	    !(cx.citer = arena_zalloc(cx.st.cfg->nfuncs, sizeof(*cx.citer))) ||
	    !(cx.citer_acc = arena_zalloc(cx.st.cfg->nfuncs, sizeof(*cx.citer_acc))) ||
	    !(cx.iter_loop = arena_zalloc(cx.st.loops->nloops ? cx.st.loops->nloops : 1, 1)))
		goto fail;
	for (uint32_t k = 0; k < cx.cbl.n; k++)
		if (cx.cbl.v[k].only_bpf_loop)
			cx.fn_cb[cx.cbl.v[k].func] =
				cx.cbl.v[k].helper == BPF_FUNC_for_each_map_elem ? SCEV_CB_EACH
				: cx.cbl.v[k].helper == BPF_FUNC_find_vma ? SCEV_CB_VMA
				: cx.cbl.v[k].helper == BPF_FUNC_user_ringbuf_drain ? SCEV_CB_URB
				: cx.cbl.v[k].helper == BPF_FUNC_timer_set_callback ? SCEV_CB_TIMER
										    : SCEV_CB_LOOP;
	for (uint32_t k = 0; k < cx.cbl.n && make && !plan && !cx.timer_site; k++)
		if (cx.cbl.v[k].only_bpf_loop && cx.cbl.v[k].helper == BPF_FUNC_timer_set_callback &&
		    !(cx.timer_site = arena_zalloc(cx.len, sizeof(*cx.timer_site))))
			goto fail;
	if (absint_cb_pre_write(&cx))
		goto fail;
	/* Recursion and call depth first: they are the kernel's first word on a program. */
	if (verdict) {
		cx.fn_stack = arena_zalloc(cx.st.cfg->nfuncs, sizeof(*cx.fn_stack));
		cx.live = arena_zalloc(cx.st.cfg->nblocks ? cx.st.cfg->nblocks : 1, 1);
		if (!cx.fn_stack || !cx.live || scev_calls_check(&cx, verdict, NULL) ||
		    scev_fastcall_mark(&cx))
			goto fail;
		/* (the marks of slots a pointer was stored into: the unprivileged rule's, and
		 * any loader's narrow fills, absint_verdict.c verify_narrow_fill) */
		if (!(cx.ptr_spill = arena_zalloc(cx.st.cfg->nfuncs, sizeof(*cx.ptr_spill))))
			goto fail;
		absint_timer_maps_check(&cx, verdict);
		absint_fields_maps_check(&cx, verdict);
	}
	nloops = cx.st.loops->nloops;
	cx.may_stack = arena_alloc((cx.len ? cx.len : 1) * sizeof(*cx.may_stack));
	cx.add_src = arena_alloc((cx.len ? cx.len : 1) * sizeof(*cx.add_src));
	cx.sums = arena_zalloc(nloops ? nloops : 1, sizeof(*cx.sums));
	if (!cx.may_stack || !cx.add_src || !cx.sums ||
	    (nloops && (!(cx.stack_seen = arena_alloc(cx.len * sizeof(*cx.stack_seen))) ||
			!(cx.stack_first = arena_alloc(cx.len * sizeof(*cx.stack_first))))))
		goto fail;

	/* 1. Forget everything loops may change (a plain fixpoint with widening at every loop),
	 *    learning where the stack may really be written.  The first pass reads no loop
	 *    summary (the header steps and the exits' refinement are the last pass's), so the
	 *    summaries stay empty until the symbolic execution writes them. */
	stack_spans_reset(&cx, false);
	cx.first_pass = true;
	/* With subprograms, function summaries (arguments over call sites, r0 at exits) come from
	 * a fixpoint over repeated first passes: start from "some number" for every argument and
	 * return value, run, and widen the summaries with what the run saw until a run sees
	 * nothing outside them — then every run's assumptions held.  If that takes too long, the
	 * summaries are dropped (everything unknown), which needs no fixpoint. */
	if (cx.st.cfg->nfuncs > 1) {
		uint32_t nf = cx.st.cfg->nfuncs;
		bool stable = false;

		cx.fn_args = arena_zalloc(nf, sizeof(*cx.fn_args));
		cx.fn_args_acc = arena_zalloc(nf, sizeof(*cx.fn_args_acc));
		cx.fn_ret = arena_zalloc(nf, sizeof(*cx.fn_ret));
		cx.fn_ret_acc = arena_zalloc(nf, sizeof(*cx.fn_ret_acc));
		cx.fn_seen = arena_zalloc(nf, 1);
		cx.fn_seen_acc = arena_zalloc(nf, 1);
		cx.fn_r0 = arena_zalloc(nf, 1);
		cx.fn_r0_acc = arena_zalloc(nf, 1);
		cx.fn_pkt = arena_zalloc(nf, sizeof(*cx.fn_pkt));
		cx.fn_pkt_acc = arena_zalloc(nf, sizeof(*cx.fn_pkt_acc));
		cx.fn_unreached = arena_zalloc(nf, sizeof(*cx.fn_unreached));
		cx.fn_args_last = arena_zalloc(nf, sizeof(*cx.fn_args_last));
		cx.fn_seen_last = arena_zalloc(nf, 1);
		if (!cx.fn_args || !cx.fn_args_acc || !cx.fn_ret || !cx.fn_ret_acc || !cx.fn_seen ||
		    !cx.fn_seen_acc || !cx.fn_pkt || !cx.fn_pkt_acc || !cx.fn_r0 || !cx.fn_r0_acc ||
		    absint_exit_pkt_alloc(&cx) ||
		    !cx.fn_unreached || !cx.fn_args_last || !cx.fn_seen_last ||
		    absint_outer_frames_alloc(&cx)) {
			err = -ENOMEM;
			goto fail;
		}
		for (uint32_t f = 0; f < nf; f++) {
			for (int r = 0; r < 6; r++)
				cx.fn_args[f][r] = aval_scalar(range_unknown());
			cx.fn_ret[f] = aval_scalar(range_unknown());
			cx.fn_seen[f] = 3;
		}
		global_summaries(&cx);
		/* Functions whose address is taken are called by helpers with anything (and must
		 * leave them an r0, as main and global functions their loaders). */
		for (uint32_t pc = 0; pc < cx.len; pc += ebpf_insn_slots(&cx.insns[pc]))
			if (ebpf_is_ldimm64(&cx.insns[pc]) && cx.insns[pc].src_reg == BPF_PSEUDO_FUNC) {
				uint32_t f = cx.st.cfg->blocks[cx.st.cfg->block_of[pc + 1 +
									   cx.insns[pc].imm]].func;

				cx.fn_seen[f] &= 2;
				cx.fn_r0[f] = FN_R0_KEEP;
			}
		cx.fn_r0[0] = FN_R0_KEEP;
		for (uint32_t f = 0; f < nf; f++)
			if (absint_global(&cx, f) || cx.fn_cb[f])
				cx.fn_r0[f] = FN_R0_KEEP;
		cx.cb_unseen_dead = true;
		memset(cx.outer_write, 0, nf * sizeof(*cx.outer_write));
		/* (a callback is first run in the round after its first bpf_loop call is reached:
		 * up to one round more per frame of a call chain, at most 8) */
		uint32_t seed_rounds = nf < 8 ? nf : 8;
		uint32_t rounds = 6 + seed_rounds + (cx.cbl.n ? seed_rounds : 0);
		bool seeded;

		for (uint32_t round = 0; round < rounds && !stable; round++) {
			memset(cx.fn_seen_acc, 0, nf);
			memset(cx.fn_r0_acc, 0, nf);
			memset(cx.outer_seen_acc, 0, 2 * nf);
			outer_write_reset(&cx);
			stack_spans_reset(&cx, false);
			cx.cb_once_broken = false;
			if ((err = absint_run(&cx, out)))
				goto fail;
			/* (the values before the span: they are read against the old one) */
			stable = absint_outer_wval_grow(&cx, round > 0);
			stable = outer_write_grow(&cx) && stable;
			stable = absint_outer_frame_grow(&cx, round > 0) && stable;
			/* (what the exits proved of data: the next round's calls take it; a round
			 * whose exits proved less than its calls took is not the last) */
			stable = absint_exit_pkt_round(&cx) && stable;
			stable = absint_lock_round(&cx) && stable;
			seeded = false;
			for (uint32_t f = 0; f < nf; f++) {
				/* (monotone: once some exit leaves r0 unwritten, its callers' r0
				 * after the call is unwritten in every later round) */
				if ((cx.fn_r0_acc[f] & FN_R0_UNSET) && !cx.fn_r0[f]) {
					cx.fn_r0[f] = FN_R0_UNSET;
					stable = false;
				}
				if (absint_global(&cx, f)) {
					/* fixed by its prototype; run (and checked, as the kernel
					 * does) only while some call to it is reached */
					uint8_t seen = (uint8_t)(2 | (cx.fn_seen_acc[f] & 1) |
								 absint_throw_is_exc_cb(&cx, f));

					stable = stable && seen == cx.fn_seen[f];
					cx.fn_seen[f] = seen;
					continue;
				}
				/* a bpf_loop callback starts from its first calls' arguments (not
				 * from "some number", which would make a ctx pointer unknown) */
				if (cx.fn_cb[f] && (cx.fn_seen_acc[f] & 1) && !(cx.fn_seen[f] & 1)) {
					memcpy(cx.fn_args[f], cx.fn_args_acc[f], sizeof(cx.fn_args[f]));
					cx.fn_pkt[f] = cx.fn_pkt_acc[f];
					cx.fn_seen[f] |= 1;
					stable = false;
					seeded = true;
				} else if (round < seed_rounds && (cx.fn_seen_acc[f] & 1) &&
					   (cx.fn_seen[f] & 1) && !args_equal(&cx, f)) {
					/* so does a bpf-to-bpf callee, for as many rounds as a call
					 * chain has frames: a context, map value or stack pointer joined
					 * with an earlier round's "some number" would be unknown for
					 * good (the rounds after these join, then widen) */
					memcpy(cx.fn_args[f], cx.fn_args_acc[f], sizeof(cx.fn_args[f]));
					cx.fn_pkt[f] = cx.fn_pkt_acc[f];
					stable = false;
					seeded = true;
				} else if (cx.fn_seen_acc[f] & 1) {
					/* (the packet: the least any round's calls proved) */
					if (fn_pkt_meet(&cx.fn_pkt[f], &cx.fn_pkt_acc[f]))
						stable = false;
					for (int r = 1; r <= 5; r++)
						if (!aval_subset(&cx.fn_args_acc[f][r], &cx.fn_args[f][r])) {
							stable = false;
							cx.fn_args[f][r] = round ?
								aval_widen(&cx.fn_args[f][r], &cx.fn_args_acc[f][r]) :
								aval_join(&cx.fn_args[f][r], &cx.fn_args_acc[f][r]);
						}
				}
				/* the result too, while the arguments are: a map value, ctx or
				 * packet pointer joined with the first round's "some number" would
				 * be unknown for good (a callback's result is the helper's) */
				if ((cx.fn_seen_acc[f] & 2) && round < seed_rounds && !cx.fn_cb[f] &&
				    !aval_equal(&cx.fn_ret_acc[f], &cx.fn_ret[f])) {
					cx.fn_ret[f] = cx.fn_ret_acc[f];
					stable = false;
					seeded = true;
				} else if ((cx.fn_seen_acc[f] & 2) &&
				    !aval_subset(&cx.fn_ret_acc[f], &cx.fn_ret[f])) {
					stable = false;
					cx.fn_ret[f] = round ? aval_widen(&cx.fn_ret[f], &cx.fn_ret_acc[f]) :
							       aval_join(&cx.fn_ret[f], &cx.fn_ret_acc[f]);
				}
			}
			/* what callees wrote of their callers' frames with the arguments before
			 * these (at first "some number", which may point anywhere: the whole
			 * frame) is no bound on what they write with these: found again from
			 * nothing, the rounds after the seeding only grow it, and the last round
			 * checks it covers what it saw */
			if (seeded) {
				memset(cx.outer_write, 0, nf * sizeof(*cx.outer_write));
				absint_outer_wval_drop(&cx);
			}
		}
		cx.lk_stable = stable;	/* (the lock summaries: absint_lock.c) */
		for (uint32_t f = 1; f < nf && stable; f++)
			cx.fn_unreached[f] = (cx.fn_seen[f] & 1) && !(cx.fn_seen_acc[f] & 1) &&
					     !cx.fn_cb[f] && !absint_global(&cx, f);
		/* The first pass below repeats the last round when it reads what that round read:
		 * the same summaries (stable), every function reached, the same caller bytes before
		 * the calls (outer_init) and iterator facts.  Then the round's pass is that pass
		 * (first_done): what it left (header states, stack spans, what it saw written
		 * before the calls, cb_once_broken, reset per round) is what the pass would leave. */
		first_done = stable && absint_iter_same(&cx);
		for (uint32_t f = 0; f < nf && first_done; f++)
			first_done = !cx.fn_unreached[f] &&
				     (!cx.outer_seen_acc[f] ||
				      !memcmp(&cx.outer_init[f], &cx.outer_init_acc[f],
					      sizeof(cx.outer_init[f])));
		if (!stable) {
			/* (no summaries: every exit needs r0, as without subprograms) */
			memset(cx.fn_r0, FN_R0_KEEP, nf);
			memset(cx.fn_seen, 0, nf);	/* no summaries: arguments and results unknown */
			absint_exit_pkt_drop(&cx);
			global_summaries(&cx);
			cx.cb_unseen_dead = false;
			outer_write_all(&cx);
			absint_outer_frames_drop(&cx);	/* (callees read unknowns) */
		}
		outer_write_reset(&cx);	/* (the passes below check against outer_write) */
		/* the caller bytes callbacks may read: what the last round saw (checked below) */
		for (uint32_t f = 0; f < nf; f++)
			if (cx.outer_seen_acc[f])
				cx.outer_init[f] = cx.outer_init_acc[f];
		if (!first_done) {
			memset(cx.outer_seen_acc, 0, 2 * nf);
			stack_spans_reset(&cx, false);
		}
	}
	if (verdict)
		saved = *verdict;
	if (cx.cbl.n) {
		/* what the bpf_loop calls see is kept per pc only when there are callbacks to
		 * claim (step 4): 133 bytes per instruction */
		cb_facts.nr = arena_zalloc(cx.len ? cx.len : 1, sizeof(*cb_facts.nr));
		cb_facts.flags = arena_zalloc(cx.len ? cx.len : 1, sizeof(*cb_facts.flags));
		cb_facts.seen = arena_zalloc(cx.len ? cx.len : 1, 1);
		cb_facts.entries = arena_zalloc(cx.len ? cx.len : 1, sizeof(*cb_facts.entries));
		if (!cb_facts.nr || !cb_facts.flags || !cb_facts.seen || !cb_facts.entries) {
			err = -ENOMEM;
			goto fail;
		}
	}
again:
	if (!first_done) {
		cx.cb_once_broken = false;
		if ((err = absint_run(&cx, out)))
			goto fail;
	}
	first_done = false;
	cx.first_pass = false;

	/* 2. Loop summaries, innermost first (a loop's summary uses its children's). */
	for (uint32_t l = 0; l < nloops; l++)
		sym_summary__free(&cx.sums[l]);
	for (uint32_t i = 0; i < nloops; i++)
		if ((err = symex_loop(&cx, cx.st.loops->order[i])))
			goto fail;
	symex_done(&cx);

	/* 3. Ranges with the summaries; claims.  (What it writes into callers' frames is
	 *    checked against what was assumed: its own writes, try_outer_shrink.) */
	if (cx.cbl.n)
		cx.cb = &cb_facts;
	if (cx.outer_write_acc)
		outer_write_reset(&cx);
	if (cx.fn_seen_last)
		memset(cx.fn_seen_last, 0, cx.st.cfg->nfuncs);
	if (cx.stack_seen)
		memset(cx.stack_seen, 0, cx.len * sizeof(*cx.stack_seen));
	if ((err = absint_run(&cx, out)))
		goto fail;
	cx.cb = NULL;
	/* The first pass's stack spans narrowed to the last pass's, or (seeded) checked. */
	if (try_stack_shrink(&cx, &stack_try)) {
		if ((err = rerun_reset(&cx, out, &cb_facts)))
			goto fail;
		if (verdict)
			*verdict = saved;
		goto again;
	}
	/* (what the passes saw of the iterators, dynptrs and callbacks: nothing below changes it
	 * before the next pass, so it is asked once) */
	settled = absint_iter_settled(&cx);
	/* The values next points to were read with the iterator ranges the first pass saw; when
	 * the last pass saw wider ones, run both again with the ranges every pass saw so far. */
	if (!settled && reruns < SCEV_ITER_RERUNS) {
		reruns++;
		if ((err = rerun_reset(&cx, out, &cb_facts)))
			goto fail;
		if (verdict)
			*verdict = saved;
		goto again;
	}
	if (!settled) {
		/* the values next points to were read with the previous pass's iterator facts */
		if (verdict && verdict->kind == VERDICT_SAFE) {
			verdict->kind = VERDICT_UNSUPPORTED;
			snprintf(verdict->reason, sizeof(verdict->reason), "the iterators' ranges "
				 "differ between passes");
		}
		snprintf(out->note, sizeof(out->note), "the iterators' ranges differ between "
			 "passes: values read through bpf_iter_num_next's result may be wrong");
	}
	if (settled && !cx.opts.rounds_outer_writes && cx.st.cfg->nfuncs > 1 &&
	    (outer_saved || (outer_saved = arena_alloc(cx.st.cfg->nfuncs * sizeof(*outer_saved)))) &&
	    try_outer_shrink(&cx, outer_saved, &outer_try)) {
		if ((err = rerun_reset(&cx, out, &cb_facts)))
			goto fail;
		if (verdict)
			*verdict = saved;
		goto again;
	}
	if (settled && cross_rerun(&cx, &cross)) {
		/* (what the callees read and the caller bytes they may read: the next run's) */
		memset(cx.outer_seen_acc, 0, 2 * cx.st.cfg->nfuncs);
		if ((err = rerun_reset(&cx, out, &cb_facts)))
			goto fail;
		if (verdict)
			*verdict = saved;
		goto again;
	}
	for (uint32_t l = 0; l < out->nloops && l < cx.st.loops->nloops; l++)
		if (cx.iter_loop[l])	/* (the family + 1: iter_num, then iter_bits, ...) */
			out->loops[l].kind = cx.iter_loop[l] == 1 + EBPF_ITER_NUM ? LOOP_ITER_NUM
					     : (uint8_t)(LOOP_ITER_BITS + cx.iter_loop[l] - 1 -
							 EBPF_ITER_BITS);
	/* a subprogram making or releasing a dynptr of a caller's frame (absint_dynptr.c): the
	 * callers' states do not see it, so what they were found to break (a leak, a dynptr
	 * used uninitialized) may not be broken */
	if (verdict && cx.dp_out && verdict->kind == VERDICT_UNSAFE) {
		verdict->kind = VERDICT_UNSUPPORTED;
		snprintf(verdict->reason, sizeof(verdict->reason), "a subprogram making or releasing "
			 "a dynptr of its caller's frame is not modeled (the callers' states do not "
			 "see it)");
	}
	held = check_outer_init(&cx, verdict);
	for (uint32_t f = 0; f < cx.st.cfg->nfuncs; f++)
		if (!absint_exit_pkt_held(&cx, f))
			cx.fn_pkt_short = true;	/* (a call took more of its callee's exits) */
	held = held && settled && !cx.fn_pkt_short;
	if (verdict && cx.fn_pkt_short && verdict->kind == VERDICT_SAFE) {
		/* a callee was run with more packet than one of its calls proves */
		verdict->kind = VERDICT_UNSUPPORTED;
		snprintf(verdict->reason, sizeof(verdict->reason), "a call proves less of the "
			 "packet in the last pass than its callee was analyzed with (or a callee's "
			 "exits less than its calls took)");
	}
	for (uint32_t f = 0; f < cx.st.cfg->nfuncs; f++) {
		if (absint_outer_frame_covered(&cx, f))
			continue;
		held = false;
		/* the callees read numbers of this frame other than the last pass's calls leave */
		if (verdict && verdict->kind == VERDICT_SAFE) {
			verdict->kind = VERDICT_UNSUPPORTED;
			verdict->pc = cx.st.cfg->funcs[f].start;
			snprintf(verdict->reason, sizeof(verdict->reason), "the stack of the function "
				 "at %u holds other numbers at its calls in the last pass than its "
				 "callees read", cx.st.cfg->funcs[f].start);
		}
		snprintf(out->note, sizeof(out->note), "the stack of the function at %u holds other "
			 "numbers at its calls in the last pass than its callees read: their claims "
			 "may not hold", cx.st.cfg->funcs[f].start);
	}
	if (!absint_outer_wval_covered(&cx) || cx.cb_once_broken) {
		held = false;
		/* a callback wrote other values into a caller's frame than the calls assumed, or
		 * was called more than once by a call that assumed once */
		if (verdict && verdict->kind == VERDICT_SAFE) {
			verdict->kind = VERDICT_UNSUPPORTED;
			snprintf(verdict->reason, sizeof(verdict->reason), "callbacks write other "
				 "values into their callers' frames in the last pass than in the "
				 "first");
		}
		snprintf(out->note, sizeof(out->note), "callbacks write other values into their "
			 "callers' frames in the last pass than in the first: the claims after "
			 "their calls may not hold");
	}
	if (!outer_write_grow(&cx)) {
		held = false;
		/* a callback wrote more of a caller's frame than the bpf_loop calls forgot */
		if (verdict && verdict->kind == VERDICT_SAFE) {
			verdict->kind = VERDICT_UNSUPPORTED;
			snprintf(verdict->reason, sizeof(verdict->reason), "callbacks write more of "
				 "their callers' frames in the last pass than in the first");
		}
		snprintf(out->note, sizeof(out->note), "callbacks write more of their callers' "
			 "frames in the last pass than in the first: the claims after bpf_loop "
			 "calls may not hold");
	}
	/* Every assumption of this run held: a callee its calls pass narrower arguments is
	 * analysed again with them, once. */
	if (held && !args_shrunk && !out->note[0] && try_args_shrink(&cx)) {
		args_shrunk = true;
		if ((err = rerun_reset(&cx, out, &cb_facts)))
			goto fail;
		if (verdict)
			*verdict = saved;
		goto again;
	}
	/* 4. Helper callbacks as loops, from the claims at their calls (before the verdict's
	 *    instruction bound, which counts each callback at its loop's trip claim). */
	if ((err = claim_callback_loops(&cx, out, &cb_facts)))
		goto fail;
	if (verdict) {
		err = -ENOMEM;
		scev_fastcall_depths(&cx, cx.fn_stack);
		scev_ctx_stack_depths(&cx, cx.fn_stack);
		if (scev_calls_check(&cx, verdict, cx.fn_stack))
			goto fail;
		/* (the program's own functions: the copies come after them) */
		verdict->nframes = 0;
		for (uint32_t f = 0; f < cx.st.cfg->nfuncs && f < SCEV_VERDICT_FRAMES &&
				     (!plan || cx.st.cfg->funcs[f].start < plan->len); f++)
			verdict->frame[verdict->nframes++] = (uint16_t)cx.fn_stack[f];
		verdict->ends = SCEV_ENDS_BOUND;
		verdict->mg_insns = 0;
		memset(verdict->mg_more, 0, sizeof(verdict->mg_more));
		verdict->ncall_bounds = 0;
		verdict->main_own = 0;
		verdict->main_own_mg = false;
		verdict->max_insns = UINT64_MAX;
		if (verdict->kind == VERDICT_SAFE)
			scev_calls_insn_bound(&cx, out, cx.live, verdict);
	}
	if (cx.ar.oom)
		snprintf(out->note, sizeof(out->note), "expression table ran out of memory: some "
			 "locations were treated as unknown");
	if (make && (err = scev_ctx_plan_make(&cx, make)))
		goto fail;
	cb_facts_free(&cb_facts);
	arena_free(outer_saved);
	ctx_free(&cx);
	return 0;
fail:
	cb_facts_free(&cb_facts);
	arena_free(outer_saved);
	ctx_free(&cx);
	claim_prog__free(out);
	return diag_set(d, -err, "analysis failed: %s", strerror(-err));
}

/* Both analyses' per-call bounds hold (the claims checked are the meet of theirs): each
 * function's smaller one, and those only one states; a bound at every may_goto budget before
 * one at the oracle's (it holds in more runs). */
static void call_bounds_meet(struct scev_verdict *v, const struct scev_verdict *o)
{
	if (o->main_own && (!v->main_own || (v->main_own_mg && !o->main_own_mg) ||
			    (v->main_own_mg == o->main_own_mg && o->main_own < v->main_own))) {
		v->main_own = o->main_own;
		v->main_own_mg = o->main_own_mg;
	}
	for (uint32_t j = 0; j < o->ncall_bounds; j++) {
		const struct scev_call_bound *b = &o->call_bound[j];
		uint32_t k = 0;

		while (k < v->ncall_bounds && v->call_bound[k].start < b->start)
			k++;
		if (k < v->ncall_bounds && v->call_bound[k].start == b->start) {
			struct scev_call_bound *a = &v->call_bound[k];

			if (a->insns == UINT64_MAX || (a->mg && !b->mg && b->insns != UINT64_MAX) ||
			    (a->mg == b->mg && b->insns < a->insns)) {
				a->insns = b->insns;
				a->mg = b->mg;
			}
			a->calls = a->calls < b->calls ? a->calls : b->calls;
		} else if (v->ncall_bounds < SCEV_VERDICT_CALL_BOUNDS) {
			memmove(&v->call_bound[k + 1], &v->call_bound[k],
				(v->ncall_bounds - k) * sizeof(v->call_bound[0]));
			v->call_bound[k] = *b;
			v->ncall_bounds++;
		}
	}
}

/* The analysis again with static callees copied per distinct call context (contexts.c): its
 * claims met into out, its verdict taken when it is safe and verdict (the first's) is not, or
 * when both give the same kind (its reason comes from one context). */
static int analyze_contexts(struct claim_prog *out, const struct ebpf_prog *prog,
			    const struct ebpf_map_def *maps, size_t nmaps,
			    const struct scev_opts *opts, struct scev_verdict *verdict,
			    const struct scev_verdict *v0, struct scev_ctx_plan *plan, struct diag *d)
{
	struct scev_verdict vc = verdict ? *v0 : (struct scev_verdict){ 0 };
	struct ebpf_prog cp;
	struct claim_prog c;
	struct arena ar;
	int err;

	if ((err = scev_ctx_prog(prog, plan, &cp))) {
		claim_prog__free(out);
		return diag_set(d, -err, "analysis failed: %s", strerror(-err));
	}
	arena_open(&ar);
	err = run_analysis(&c, &cp, maps, nmaps, opts, verdict ? &vc : NULL, plan, NULL, d);
	arena_close(&ar);
	scev_ctx_prog_free(&cp);
	if (err) {
		claim_prog__free(out);
		return err;
	}
	if (!c.note[0]) {
		/* (a note: something of its claims may not hold; the first's stand alone) */
		err = scev_ctx_claims_meet(out, &c, plan);
		if (verdict && vc.kind == VERDICT_SAFE && verdict->kind != VERDICT_SAFE) {
			*verdict = vc;
		} else if (verdict && vc.kind == VERDICT_SAFE) {
			if (vc.max_insns < verdict->max_insns) {
				verdict->max_insns = vc.max_insns;
				verdict->ends = vc.ends;
			}
			call_bounds_meet(verdict, &vc);
		} else if (verdict && vc.kind == VERDICT_UNSAFE &&
			   verdict->kind == VERDICT_UNSUPPORTED && scev_ctx_in_cb_copy(plan, vc.pc)) {
			/* (a callback the first analysed for all its calls' contexts at once (a
			 * timer's maps, a for_each's), unsupported; a copy per context finds where
			 * the kernel's walk for one of them fails.  Only there: an unsafe verdict
			 * elsewhere the first did not reach, past its unsupported one, stays
			 * unsupported) */
			*verdict = vc;
			if (vc.pc < plan->newlen)
				verdict->pc = plan->orig_of[vc.pc];
		} else if (verdict && vc.kind == verdict->kind) {
			/* (the same answer: the copies' reason, which one context's state gave,
			 * at the original pc) */
			*verdict = vc;
			if (vc.pc < plan->newlen)
				verdict->pc = plan->orig_of[vc.pc];
		}
	}
	claim_prog__free(&c);
	if (err) {
		claim_prog__free(out);
		return diag_set(d, -err, "analysis failed: %s", strerror(-err));
	}
	if (verdict && verdict->kind != VERDICT_SAFE && plan->cb_joined) {
		size_t n = strlen(verdict->reason);

		snprintf(verdict->reason + n, sizeof(verdict->reason) - n, " (the callback at %u "
			 "has more call contexts than are analysed apart, %d or the program's size: "
			 "the others joined)", plan->cb_joined - 1, SCEV_CTX_MAX);
	}
	return 0;
}

/* One analysis, its working arrays in an arena of its own (util/arena.h): what run_analysis
 * keeps until it returns goes at once.  Then, when static callees see different arguments at
 * their calls, the analysis of the program with a copy of them per context (contexts.c). */
static int analyze(struct claim_prog *out, const struct ebpf_prog *prog,
		   const struct ebpf_map_def *maps, size_t nmaps, const struct scev_opts *opts,
		   struct scev_verdict *verdict, struct diag *d)
{
	struct scev_verdict v0;	/* (the verdict as given, for the copies' analysis: only with one) */
	struct scev_ctx_plan plan = { 0 };
	struct arena ar;
	int err;

	if (verdict)
		v0 = *verdict;
	arena_open(&ar);
	err = run_analysis(out, prog, maps, nmaps, opts, verdict, NULL,
			   opts && opts->merged_calls ? NULL : &plan, d);
	arena_close(&ar);
	if (!err && plan.nclones)
		err = analyze_contexts(out, prog, maps, nmaps, opts, verdict, &v0, &plan, d);
	scev_ctx_plan_free(&plan);
	return err;
}

/* A program whose instructions are not the loaded ones (prog.h: a CO-RE relocation not
 * applied) is not analyzed: claims about other instructions would be wrong ones. */
static void not_analyzed(struct claim_prog *claims, const struct ebpf_prog *prog, const char *why)
{
	memset(claims, 0, sizeof(*claims));
	snprintf(claims->name, sizeof(claims->name), "%s", prog->name);
	claims->insn_count = (uint32_t)prog->len;
	snprintf(claims->note, sizeof(claims->note), "not analyzed: %s", why);
}

int scev_analyze(struct claim_prog *out, const struct ebpf_prog *prog,
		 const struct ebpf_map_def *maps, size_t nmaps, const struct scev_opts *opts,
		 struct diag *d)
{
	if (prog->unsupported[0]) {
		not_analyzed(out, prog, prog->unsupported);
		return 0;
	}
	return analyze(out, prog, maps, nmaps, opts, NULL, d);
}

int scev_verify(struct scev_verdict *v, struct claim_prog *claims, const struct ebpf_prog *prog,
		const struct ebpf_map_def *maps, size_t nmaps, const struct scev_opts *opts,
		struct diag *d)
{
	struct claim_prog local;
	int err;

	memset(v, 0, sizeof(*v));
	v->kind = VERDICT_SAFE;
	v->max_insns = UINT64_MAX;
	if (prog->defect[0]) {
		/* the kernel refuses it before anything else (check_cfg): nothing to analyze */
		v->kind = VERDICT_UNSAFE;
		v->pc = prog->defect_insn >= 0 ? (uint32_t)prog->defect_insn : 0;
		snprintf(v->reason, sizeof(v->reason), "%s (the kernel refuses control flow that "
			 "leaves its function other than by call and exit)", prog->defect);
		if (claims)
			not_analyzed(claims, prog, prog->defect);
		return 0;
	}
	if (prog->unsupported[0]) {
		v->kind = VERDICT_UNSUPPORTED;
		v->pc = prog->unsupported_insn >= 0 ? (uint32_t)prog->unsupported_insn : 0;
		snprintf(v->reason, sizeof(v->reason), "%s", prog->unsupported);
		if (claims)
			not_analyzed(claims, prog, prog->unsupported);
		return 0;
	}
	err = analyze(claims ? claims : &local, prog, maps, nmaps, opts, v, d);
	if (!err && !claims)
		claim_prog__free(&local);
	return err;
}

const char *scev_verdict_name(enum scev_verdict_kind k)
{
	return k == VERDICT_SAFE ? "safe" : k == VERDICT_UNSAFE ? "unsafe" : "unsupported";
}
