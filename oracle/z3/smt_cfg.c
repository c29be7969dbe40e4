/* Functions, loop forest and region orders for the Z3 oracle (see smt_cfg.h). */
#include "oracle/z3/smt_cfg.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FOREST_BYTES (64u << 20)	/* loops * slots of membership bytes */

struct builder {
	struct cfg *g;
	const struct bpf_insn *insns;
	uint32_t n;
	uint32_t *succ;		/* 2 per slot */
	uint8_t *nsucc;
	uint32_t *dfs_index;	/* preorder from the function entry, UINT32_MAX unreached */
	uint8_t *claimed;	/* per slot: a claimed loop header */
	const struct claim_prog *claims;	/* (NULL: none) */
	uint8_t *start;		/* per slot: an instruction starts here */
	uint32_t *mark;		/* per slot: set stamp for the current decomposition */
	uint32_t stamp;
	/* Tarjan */
	uint32_t *idx, *low, *stk, *cstack, *citer;
	uint8_t *onstk;
	uint32_t counter;
};

static int add_loop(struct cfg *g, struct cfg_loop **out)
{
	struct cfg_loop *nv = realloc(g->loops, (g->nloops + 1) * sizeof(*nv));
	uint8_t *nb;

	if (!nv)
		return -ENOMEM;
	g->loops = nv;
	if ((size_t)(g->nloops + 1) * g->nslots > MAX_FOREST_BYTES)
		return -E2BIG;
	nb = realloc(g->in_body, (size_t)(g->nloops + 1) * g->nslots);
	if (!nb)
		return -ENOMEM;
	g->in_body = nb;
	memset(g->in_body + (size_t)g->nloops * g->nslots, 0, g->nslots);
	*out = &g->loops[g->nloops++];
	memset(*out, 0, sizeof(**out));
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The claimed loop's body is exactly body (instruction starts). */
static bool claim_body_is(const struct claim_loop *cl, uint32_t nslots, const uint32_t *body,
			  uint32_t nbody, const uint8_t *start)
{
	uint32_t count = 0;

	for (uint32_t k = 0; k < nbody; k++)
		if (!claim_loop__contains(cl, body[k]))
			return false;
	for (uint32_t b = 0; b < cl->nblocks; b++)
		for (uint32_t pc = cl->blocks[b].first; pc <= cl->blocks[b].last; pc++) {
			if (pc >= nslots)
				return false;
			count += start[pc];
		}
	return count == nbody;
}

/* The claimed loop has this header and exactly this body. */
static bool claim_matches(const struct cfg *g, const struct cfg_loop *l,
			  const struct claim_loop *cl, const uint8_t *start)
{
	return cl->header == l->header && claim_body_is(cl, g->nslots, l->body, l->nbody, start);
}

static int decompose(struct builder *b, uint32_t *set, uint32_t nset, int32_t parent,
		     uint32_t func, uint32_t depth);

/* One strongly connected component found: a loop when it has a cycle. */
static int component(struct builder *b, uint32_t *comp, uint32_t ncomp, int32_t parent,
		     uint32_t func, uint32_t depth)
{
	struct cfg *g = b->g;
	struct cfg_loop *l;
	uint32_t h = comp[0], li, *rest;
	bool cyc = ncomp > 1;
	int err;

	if (!cyc)
		for (unsigned k = 0; k < b->nsucc[comp[0]]; k++)
			cyc |= b->succ[2 * comp[0] + k] == comp[0];
	if (!cyc)
		return 0;
	/* header: the header of the claimed loop whose body is the component, else a claimed
	 * header in it, else the first node the DFS reached (a while loop entered at its test,
	 * with a loop nested in its body: the component holds both claimed headers, and the first
	 * by pc is the inner one's, whose claim is not this body) */
	for (uint32_t k = 0; k < ncomp; k++)
		if (b->dfs_index[comp[k]] < b->dfs_index[h])
			h = comp[k];
	for (uint32_t k = 0; k < ncomp; k++)
		if (b->claimed[comp[k]]) {
			h = comp[k];
			break;
		}
	for (uint32_t c = 0; b->claims && c < b->claims->nloops; c++) {
		const struct claim_loop *cl = &b->claims->loops[c];

		if (cl->header < b->n && b->claimed[cl->header] && bsearch(&cl->header, comp, ncomp,
		    sizeof(*comp), cmp_u32) && claim_body_is(cl, b->n, comp, ncomp, b->start)) {
			h = cl->header;
			break;
		}
	}
	if ((err = add_loop(g, &l)))
		return err;
	li = g->nloops - 1;
	l->header = h;
	l->parent = parent;
	l->func = func;
	l->depth = depth;
	l->claim = -1;
	l->body = malloc(ncomp * sizeof(*l->body));
	if (!l->body)
		return -ENOMEM;
	memcpy(l->body, comp, ncomp * sizeof(*comp));
	l->nbody = ncomp;
	for (uint32_t k = 0; k < ncomp; k++) {
		g->in_body[(size_t)li * g->nslots + comp[k]] = 1;
		g->loop_of[comp[k]] = (int32_t)li;
	}
	rest = malloc(ncomp * sizeof(*rest));
	if (!rest)
		return -ENOMEM;
	{
		uint32_t nr = 0;

		for (uint32_t k = 0; k < ncomp; k++)
			if (comp[k] != h)
				rest[nr++] = comp[k];
		err = decompose(b, rest, nr, (int32_t)li, func, depth + 1);
	}
	free(rest);
	return err;
}

/* Tarjan's algorithm, iterative, on the subgraph induced by set. */
static int decompose(struct builder *b, uint32_t *set, uint32_t nset, int32_t parent,
		     uint32_t func, uint32_t depth)
{
	uint32_t stamp = ++b->stamp, sp = 0, cp = 0;
	uint32_t **comps = NULL, *ncomps = NULL, nc = 0;
	int err = 0;

	if (!nset)
		return 0;
	for (uint32_t k = 0; k < nset; k++) {
		b->mark[set[k]] = stamp;
		b->idx[set[k]] = UINT32_MAX;
		b->onstk[set[k]] = 0;
	}
	b->counter = 0;
	for (uint32_t s0 = 0; s0 < nset && !err; s0++) {
		if (b->idx[set[s0]] != UINT32_MAX)
			continue;
		b->cstack[cp] = set[s0];
		b->citer[cp++] = 0;
		b->idx[set[s0]] = b->low[set[s0]] = b->counter++;
		b->stk[sp++] = set[s0];
		b->onstk[set[s0]] = 1;
		while (cp && !err) {
			uint32_t v = b->cstack[cp - 1];

			if (b->citer[cp - 1] < b->nsucc[v]) {
				uint32_t w = b->succ[2 * v + b->citer[cp - 1]++];

				if (b->mark[w] != stamp)
					continue;
				if (b->idx[w] == UINT32_MAX) {
					b->idx[w] = b->low[w] = b->counter++;
					b->stk[sp++] = w;
					b->onstk[w] = 1;
					b->cstack[cp] = w;
					b->citer[cp++] = 0;
				} else if (b->onstk[w] && b->idx[w] < b->low[v]) {
					b->low[v] = b->idx[w];
				}
				continue;
			}
			cp--;
			if (cp && b->low[v] < b->low[b->cstack[cp - 1]])
				b->low[b->cstack[cp - 1]] = b->low[v];
			if (b->low[v] == b->idx[v]) {
				uint32_t n = 0, *c, **nv, *nn;

				while (b->stk[sp - 1 - n] != v)
					n++;
				n++;
				c = malloc(n * sizeof(*c));
				nv = realloc(comps, (nc + 1) * sizeof(*nv));
				if (nv)
					comps = nv;
				nn = realloc(ncomps, (nc + 1) * sizeof(*nn));
				if (nn)
					ncomps = nn;
				if (!c || !nv || !nn) {
					free(c);
					err = -ENOMEM;
					break;
				}
				for (uint32_t k = 0; k < n; k++) {
					c[k] = b->stk[--sp];
					b->onstk[c[k]] = 0;
				}
				qsort(c, n, sizeof(*c), cmp_u32);
				comps[nc] = c;
				ncomps[nc++] = n;
			}
		}
	}
	/* Tarjan's scratch is shared by the recursion: components first, then recurse. */
	for (uint32_t k = 0; k < nc && !err; k++)
		err = component(b, comps[k], ncomps[k], parent, func, depth);
	for (uint32_t k = 0; k < nc; k++)
		free(comps[k]);
	free(comps);
	free(ncomps);
	return err;
}

uint32_t cfg_rep(const struct cfg *g, int32_t loop, uint32_t pc)
{
	int32_t l = g->loop_of[pc];

	if (l == loop)
		return pc;
	while (l >= 0 && g->loops[l].parent != loop)
		l = g->loops[l].parent;
	return l >= 0 ? g->loops[l].header : pc;
}

uint32_t cfg_pos(const struct cfg *g, int32_t loop, uint32_t pc)
{
	int32_t l = g->loop_of[pc];

	if (l == loop)
		return g->pos[pc];
	while (l >= 0 && g->loops[l].parent != loop)
		l = g->loops[l].parent;
	return l >= 0 ? g->child_pos[l] : g->pos[pc];
}

static bool member(const struct cfg *g, int32_t loop, uint32_t func, uint32_t pc)
{
	if (loop >= 0)
		return cfg_in_loop(g, loop, pc);
	return g->func_of[pc] == (int32_t)func;
}

/* Topological order of the region of loop (or of function func's top level). */
static int region_order(struct builder *b, int32_t loop, uint32_t func, const uint32_t *nodes,
			uint32_t nnodes, uint32_t **out, uint32_t *nout)
{
	struct cfg *g = b->g;
	uint32_t header = loop >= 0 ? g->loops[loop].header : UINT32_MAX;
	uint32_t *order = NULL, *indeg = NULL, *queue = NULL, n = 0, qh = 0, qt = 0;
	uint32_t *edges = NULL, nedges = 0, cap = 0;
	int err = -ENOMEM;

	/* the region's nodes: direct instructions and inner loops' headers */
	order = malloc((nnodes + 1) * sizeof(*order));
	indeg = calloc(g->nslots, sizeof(*indeg));
	queue = malloc((nnodes + 1) * sizeof(*queue));
	if (!order || !indeg || !queue)
		goto out;
	/* edges as (from rep, to rep) pairs */
	for (uint32_t k = 0; k < nnodes; k++) {
		uint32_t p = nodes[k];

		for (unsigned s = 0; s < b->nsucc[p]; s++) {
			uint32_t t = b->succ[2 * p + s], rf, rt;

			if (!member(g, loop, func, t) || t == header)
				continue;
			rf = cfg_rep(g, loop, p);
			rt = cfg_rep(g, loop, t);
			if (rf == rt && g->loop_of[p] != loop)
				continue;	/* inside an inner loop */
			if (nedges + 1 > cap) {
				uint32_t nc = cap ? cap * 2 : 64, *ne = realloc(edges, 2 * nc * sizeof(*ne));

				if (!ne)
					goto out;
				edges = ne;
				cap = nc;
			}
			edges[2 * nedges] = rf;
			edges[2 * nedges + 1] = rt;
			nedges++;
			indeg[rt]++;
		}
	}
	/* Kahn, the header first, then nodes in pc order as they become free */
	{
		uint8_t *isnode = calloc(g->nslots, 1);
		uint32_t *reps = malloc((nnodes + 1) * sizeof(*reps)), nreps = 0;

		if (!isnode || !reps) {
			free(isnode);
			free(reps);
			goto out;
		}
		for (uint32_t k = 0; k < nnodes; k++) {
			uint32_t r = cfg_rep(g, loop, nodes[k]);

			if (!isnode[r]) {
				isnode[r] = 1;
				reps[nreps++] = r;
			}
		}
		qsort(reps, nreps, sizeof(*reps), cmp_u32);
		if (header != UINT32_MAX)
			queue[qt++] = header;
		for (uint32_t k = 0; k < nreps; k++)
			if (reps[k] != header && indeg[reps[k]] == 0)
				queue[qt++] = reps[k];
		while (qh < qt) {
			uint32_t v = queue[qh++];

			order[n++] = v;
			for (uint32_t e = 0; e < nedges; e++)
				if (edges[2 * e] == v && --indeg[edges[2 * e + 1]] == 0)
					queue[qt++] = edges[2 * e + 1];
		}
		free(isnode);
		err = n == nreps ? 0 : -EDEADLK;	/* a cycle without a header: a bug here */
		free(reps);
	}
	if (!err) {
		for (uint32_t k = 0; k < n; k++)
			if (g->loop_of[order[k]] == loop || order[k] == header)
				g->pos[order[k]] = k;
		for (uint32_t k = 0; k < n; k++) {
			uint32_t v = order[k];
			int32_t l = g->loop_of[v];

			if (l != loop && v != header) {
				while (l >= 0 && g->loops[l].parent != loop)
					l = g->loops[l].parent;
				if (l >= 0)
					g->child_pos[l] = k;
			}
		}
		*out = order;
		*nout = n;
		order = NULL;
	}
out:
	free(order);
	free(indeg);
	free(queue);
	free(edges);
	return err;
}

int cfg_build(struct cfg *g, const struct ebpf_prog *prog, const struct claim_prog *claims)
{
	struct builder b = { .g = g, .insns = prog->insns, .n = (uint32_t)prog->len,
			     .claims = claims };
	uint32_t n = (uint32_t)prog->len, *entries = NULL, nentries = 0, *work = NULL;
	int err = -ENOMEM;

	memset(g, 0, sizeof(*g));
	g->nslots = n;
	g->func_of = malloc(n * sizeof(*g->func_of));
	g->loop_of = malloc(n * sizeof(*g->loop_of));
	g->pos = calloc(n, sizeof(*g->pos));
	b.succ = malloc(2 * n * sizeof(*b.succ));
	b.nsucc = calloc(n, 1);
	b.dfs_index = malloc(n * sizeof(*b.dfs_index));
	b.claimed = calloc(n, 1);
	b.start = calloc(n, 1);
	b.mark = calloc(n, sizeof(*b.mark));
	b.idx = malloc(n * sizeof(*b.idx));
	b.low = malloc(n * sizeof(*b.low));
	b.stk = malloc(n * sizeof(*b.stk));
	b.cstack = malloc(n * sizeof(*b.cstack));
	b.citer = malloc(n * sizeof(*b.citer));
	b.onstk = calloc(n, 1);
	entries = malloc((n + 1) * sizeof(*entries));
	work = malloc((n + 1) * sizeof(*work));
	if (!g->func_of || !g->loop_of || !g->pos || !b.succ || !b.nsucc || !b.dfs_index ||
	    !b.claimed || !b.start || !b.mark || !b.idx || !b.low || !b.stk || !b.cstack || !b.citer ||
	    !b.onstk || !entries || !work)
		goto out;
	for (uint32_t pc = 0; pc < n; pc++) {
		g->func_of[pc] = -1;
		g->loop_of[pc] = -1;
		b.dfs_index[pc] = UINT32_MAX;
	}
	if (claims)
		for (uint32_t l = 0; l < claims->nloops; l++)
			if (claims->loops[l].header < n)
				b.claimed[claims->loops[l].header] = 1;
	/* function entries and successors */
	entries[nentries++] = 0;
	for (uint32_t pc = 0; pc < n; pc += ebpf_insn_slots(&prog->insns[pc])) {
		const struct bpf_insn *in = &prog->insns[pc];
		uint32_t s[2];

		b.start[pc] = 1;
		b.nsucc[pc] = (uint8_t)ebpf_succs(prog->insns, n, pc, s);
		b.succ[2 * pc] = s[0];
		b.succ[2 * pc + 1] = s[1];
		if (ebpf_is_pseudo_call(in) || (ebpf_is_ldimm64(in) && in->src_reg == BPF_PSEUDO_FUNC)) {
			uint32_t t = (uint32_t)((int64_t)pc + 1 + in->imm);
			bool seen = false;

			for (uint32_t k = 0; k < nentries; k++)
				seen |= entries[k] == t;
			if (!seen && t < n)
				entries[nentries++] = t;
		}
	}
	g->funcs = calloc(nentries, sizeof(*g->funcs));
	if (!g->funcs)
		goto out;
	g->nfuncs = nentries;
	for (uint32_t f = 0; f < nentries; f++) {
		uint32_t nw = 0, nnodes = 0, counter = 0, *nodes;

		g->funcs[f].entry = entries[f];
		/* depth-first from the entry: membership and preorder */
		work[nw++] = entries[f];
		while (nw) {
			uint32_t v = work[--nw];

			if (g->func_of[v] >= 0)
				continue;
			g->func_of[v] = (int32_t)f;
			b.dfs_index[v] = counter++;
			for (int s = b.nsucc[v] - 1; s >= 0; s--)
				if (g->func_of[b.succ[2 * v + s]] < 0)
					work[nw++] = b.succ[2 * v + s];
		}
		nodes = malloc((counter + 1) * sizeof(*nodes));
		if (!nodes)
			goto out;
		for (uint32_t pc = 0; pc < n; pc++)
			if (g->func_of[pc] == (int32_t)f)
				nodes[nnodes++] = pc;
		err = decompose(&b, nodes, nnodes, -1, f, 1);
		free(nodes);
		if (err)
			goto out;
		err = -ENOMEM;
	}
	g->child_pos = calloc(g->nloops ? g->nloops : 1, sizeof(*g->child_pos));
	if (!g->child_pos)
		goto out;
	/* region orders, and per-loop facts */
	for (uint32_t f = 0; f < g->nfuncs; f++) {
		uint32_t *nodes = malloc((n + 1) * sizeof(*nodes)), nn = 0;

		if (!nodes)
			goto out;
		for (uint32_t pc = 0; pc < n; pc++)
			if (g->func_of[pc] == (int32_t)f)
				nodes[nn++] = pc;
		err = region_order(&b, -1, f, nodes, nn, &g->funcs[f].order, &g->funcs[f].norder);
		free(nodes);
		if (err)
			goto out;
	}
	for (uint32_t l = 0; l < g->nloops; l++) {
		struct cfg_loop *lp = &g->loops[l];

		err = region_order(&b, (int32_t)l, lp->func, lp->body, lp->nbody, &lp->order,
				   &lp->norder);
		if (err)
			goto out;
		for (uint32_t k = 0; k < lp->nbody; k++) {
			const struct bpf_insn *in = &prog->insns[lp->body[k]];

			lp->regs_written |= ebpf_regs_written(in);
			lp->has_call |= ebpf_is_call(in) ||
					(ebpf_class(in) == BPF_LD && !ebpf_is_ldimm64(in));
			lp->has_may_goto |= ebpf_class(in) == BPF_JMP && ebpf_op(in) == BPF_JCOND;
		}
		/* side entries: a body node other than the header with a predecessor outside */
		for (uint32_t pc = 0; pc < n; pc++) {
			if (g->func_of[pc] != (int32_t)lp->func || cfg_in_loop(g, (int32_t)l, pc))
				continue;
			for (unsigned s = 0; s < b.nsucc[pc]; s++) {
				uint32_t t = b.succ[2 * pc + s];

				if (t != lp->header && cfg_in_loop(g, (int32_t)l, t))
					lp->side_entries = true;
			}
		}
		if (g->funcs[lp->func].entry != lp->header &&
		    cfg_in_loop(g, (int32_t)l, g->funcs[lp->func].entry))
			lp->side_entries = true;
		lp->claim = -1;
		if (claims)
			for (uint32_t c = 0; c < claims->nloops; c++)
				if (claim_matches(g, lp, &claims->loops[c], b.start)) {
					lp->claim = (int32_t)c;
					break;
				}
	}
	err = 0;
out:
	free(b.succ);
	free(b.nsucc);
	free(b.dfs_index);
	free(b.claimed);
	free(b.start);
	free(b.mark);
	free(b.idx);
	free(b.low);
	free(b.stk);
	free(b.cstack);
	free(b.citer);
	free(b.onstk);
	free(entries);
	free(work);
	if (err)
		cfg_free(g);
	return err;
}

void cfg_free(struct cfg *g)
{
	if (!g)
		return;
	for (uint32_t l = 0; l < g->nloops; l++) {
		free(g->loops[l].body);
		free(g->loops[l].order);
	}
	for (uint32_t f = 0; f < g->nfuncs; f++)
		free(g->funcs[f].order);
	free(g->loops);
	free(g->funcs);
	free(g->func_of);
	free(g->loop_of);
	free(g->pos);
	free(g->child_pos);
	free(g->in_body);
	memset(g, 0, sizeof(*g));
}
