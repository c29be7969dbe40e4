/* Semi-NCA dominators: see dom.h.  Everything is iterative (programs reach 1M instructions, far
 * deeper than a C stack allows for recursion). */
#include "scev/dom.h"
#include "util/arena.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct dfs_frame {
	uint32_t v, next;
};

/* Path-compressed evaluation: label[v] ends as the vertex of minimum semi on the compressed path
 * from v up to (excluding) the processed ancestor.  Iterative two-phase compression. */
static uint32_t eval(uint32_t v, uint32_t *anc, uint32_t *label, const uint32_t *semi,
		     uint32_t *path)
{
	uint32_t n = 0, u = v;

	if (anc[v] == SCEV_NONE)
		return v;
	/* The vertices whose ancestor still has an ancestor, bottom up ... */
	while (anc[anc[u]] != SCEV_NONE) {
		path[n++] = u;
		u = anc[u];
	}
	/* ... compressed top down, carrying the minimum-semi label along. */
	while (n--) {
		uint32_t w = path[n];

		if (semi[label[anc[w]]] < semi[label[w]])
			label[w] = label[anc[w]];
		anc[w] = anc[anc[w]];
	}
	return label[v];
}

int scev_dom__compute(uint32_t n, uint32_t root, const uint32_t *succ_off, const uint32_t *succ,
		      const uint32_t *pred_off, const uint32_t *pred, uint32_t *idom)
{
	/* One allocation for the scratch arrays (this runs twice per analysis, and a small
	 * program's analysis would otherwise spend more in malloc than in the algorithm). */
	uint32_t *num, *vert, *parent, *semi, *anc, *label, *path;
	struct dfs_frame *st;
	uint32_t cnt = 0, sp = 0;
	void *mem = arena_alloc((n ? n : 1) * (7 * sizeof(uint32_t) + sizeof(*st)));

	if (!mem)
		return -ENOMEM;
	st = mem;
	num = (uint32_t *)(st + n);		/* DFS preorder number + 1; 0 = unreached */
	memset(num, 0, n * sizeof(*num));
	vert = num + n;
	parent = vert + n;
	semi = parent + n;
	anc = semi + n;
	label = anc + n;
	path = label + n;
	for (uint32_t v = 0; v < n; v++)
		idom[v] = SCEV_NONE;

	/* DFS preorder numbering; semi, label and anc are indexed by preorder number. */
	num[root] = ++cnt;
	vert[0] = root;
	parent[0] = SCEV_NONE;
	st[sp++] = (struct dfs_frame){ root, succ_off[root] };
	while (sp) {
		struct dfs_frame *f = &st[sp - 1];

		if (f->next == succ_off[f->v + 1]) {
			sp--;
			continue;
		}
		uint32_t w = succ[f->next++];

		if (num[w])
			continue;
		num[w] = ++cnt;
		vert[cnt - 1] = w;
		parent[cnt - 1] = num[f->v] - 1;
		st[sp++] = (struct dfs_frame){ w, succ_off[w] };
	}
	for (uint32_t i = 0; i < cnt; i++) {
		semi[i] = i;
		label[i] = i;
		anc[i] = SCEV_NONE;
	}
	/* Semidominators in reverse preorder. */
	for (uint32_t i = cnt; i-- > 1;) {
		uint32_t w = vert[i];

		for (uint32_t k = pred_off[w]; k < pred_off[w + 1]; k++) {
			uint32_t p = pred[k], u;

			if (!num[p])
				continue;	/* predecessor not reached from root */
			u = eval(num[p] - 1, anc, label, semi, path);
			if (semi[u] < semi[i])
				semi[i] = semi[u];
		}
		anc[i] = parent[i];	/* link */
	}
	/* Immediate dominators: NCA of parent and semidominator, in preorder. */
	{
		uint32_t *dom = label;	/* reuse: dom[i] in preorder numbers */

		dom[0] = 0;
		for (uint32_t i = 1; i < cnt; i++) {
			uint32_t d = parent[i];

			while (d > semi[i])
				d = dom[d];
			dom[i] = d;
		}
		for (uint32_t i = 1; i < cnt; i++)
			idom[vert[i]] = vert[dom[i]];
	}
	arena_free(mem);
	return 0;
}

/* Tree intervals for O(1) dominance queries: iterative DFS from each root over children. */
static int number_tree(struct scev_domtree *dt, const bool *is_root)
{
	uint32_t nodes = dt->n;
	/* coff (nodes + 1), child (at most nodes), fill, and the stack, in one allocation */
	struct dfs_frame *st = arena_zalloc(1, nodes * sizeof(*st) + (3 * (size_t)nodes + 1) * 4);
	uint32_t *coff, *child, *fill;
	uint32_t t = 0;

	if (!st)
		return -ENOMEM;
	coff = (uint32_t *)(st + nodes);
	child = coff + nodes + 1;
	fill = child + nodes;
	for (uint32_t v = 0; v < nodes; v++)
		if (dt->idom[v] != SCEV_NONE)
			coff[dt->idom[v] + 1]++;
	for (uint32_t v = 0; v < nodes; v++)
		coff[v + 1] += coff[v];
	for (uint32_t v = 0; v < nodes; v++)
		if (dt->idom[v] != SCEV_NONE)
			child[coff[dt->idom[v]] + fill[dt->idom[v]]++] = v;
	for (uint32_t r = 0; r < nodes; r++) {
		uint32_t sp = 0;

		if (!is_root[r])
			continue;
		dt->tin[r] = ++t;
		st[sp++] = (struct dfs_frame){ r, coff[r] };
		while (sp) {
			struct dfs_frame *f = &st[sp - 1];

			if (f->next == coff[f->v + 1]) {
				dt->tout[f->v] = ++t;
				sp--;
				continue;
			}
			uint32_t c = child[f->next++];

			dt->tin[c] = ++t;
			st[sp++] = (struct dfs_frame){ c, coff[c] };
		}
	}
	arena_free(st);
	return 0;
}

int scev_dom__build(struct scev_domtree **out, const struct scev_cfg *cfg, bool post,
		    struct diag *d)
{
	/* Graph: the blocks plus one virtual root (index nb) with an edge to every function entry,
	 * or for post-dominators to every block that ends in exit, in the reversed CFG.  Functions
	 * share no edges, so one computation gives every function's tree at once. */
	uint32_t nb = cfg->nblocks, n = nb + 1, root = nb;
	uint32_t *soff = NULL, *poff, *s, *p, *sf, *pf, *idom;
	struct scev_domtree *dt;
	bool *is_root;
	uint32_t ne = 0;
	int err = -ENOMEM;

	/* The tree and its three arrays in one allocation, freed by scev_dom__free. */
	dt = arena_zalloc(1, sizeof(*dt) + 3 * (size_t)n * sizeof(uint32_t));
	if (!dt)
		goto out;
	dt->idom = (uint32_t *)(dt + 1);
	dt->tin = dt->idom + n;
	dt->tout = dt->tin + n;
#define FOR_EACH_EDGE(BODY)                                                                   \
	for (uint32_t b = 0; b < nb; b++) {                                                   \
		const struct scev_block *blk = &cfg->blocks[b];                               \
		for (unsigned k = 0; k < blk->nsucc; k++) {                                   \
			uint32_t from = post ? blk->succ[k] : b, to = post ? b : blk->succ[k]; \
			BODY;                                                                 \
		}                                                                             \
		if (post ? blk->nsucc == 0 : cfg->funcs[blk->func].entry == b) {              \
			uint32_t from = root, to = b;                                         \
			BODY;                                                                 \
		}                                                                             \
	}
	FOR_EACH_EDGE({ (void)from; (void)to; ne++; });
	/* The scratch arrays in one zeroed allocation: soff and poff (n + 1 each), s and p (ne
	 * each), sf, pf and idom (n each), is_root (n bools). */
	soff = arena_zalloc(1, (2 * ((size_t)n + 1) + 2 * (size_t)ne + 3 * (size_t)n) *
				    sizeof(uint32_t) + n * sizeof(bool));
	if (!soff)
		goto out;
	poff = soff + n + 1;
	s = poff + n + 1;
	p = s + ne;
	sf = p + ne;
	pf = sf + n;
	idom = pf + n;
	is_root = (bool *)(idom + n);
	FOR_EACH_EDGE({ soff[from + 1]++; poff[to + 1]++; });
	for (uint32_t v = 0; v < n; v++) {
		soff[v + 1] += soff[v];
		poff[v + 1] += poff[v];
	}
	FOR_EACH_EDGE({ s[soff[from] + sf[from]++] = to; p[poff[to] + pf[to]++] = from; });
#undef FOR_EACH_EDGE
	err = scev_dom__compute(n, root, soff, s, poff, p, idom);
	if (err)
		goto out;
	/* Children of the virtual root are the roots of the forest the caller sees. */
	dt->n = nb;
	dt->post = post;
	for (uint32_t b = 0; b < nb; b++) {
		dt->idom[b] = idom[b] == root ? SCEV_NONE : idom[b];
		is_root[b] = idom[b] == root;
	}
	err = number_tree(dt, is_root);
	if (err)
		goto out;
	*out = dt;
	dt = NULL;
out:
	arena_free(soff);
	scev_dom__free(dt);
	return err ? diag_set(d, -err, "out of memory computing dominators") : 0;
}

void scev_dom__free(struct scev_domtree *dt)
{
	if (!dt)
		return;
	arena_free(dt);	/* (its arrays are in the same allocation) */
}
