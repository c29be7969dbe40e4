/* Semi-NCA dominators: see dom.h.  Everything is iterative (programs reach 1M instructions, far
 * deeper than a C stack allows for recursion). */
#include "scev/dom.h"

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
	uint32_t *num = NULL, *vert = NULL, *parent = NULL, *semi = NULL, *anc = NULL,
		 *label = NULL, *path = NULL;
	struct dfs_frame *st = NULL;
	uint32_t cnt = 0, sp = 0;
	int err = -ENOMEM;

	num = calloc(n, sizeof(*num));		/* DFS preorder number + 1; 0 = unreached */
	vert = malloc(n * sizeof(*vert));
	parent = malloc(n * sizeof(*parent));
	semi = malloc(n * sizeof(*semi));
	anc = malloc(n * sizeof(*anc));
	label = malloc(n * sizeof(*label));
	path = malloc(n * sizeof(*path));
	st = malloc(n * sizeof(*st));
	if (!num || !vert || !parent || !semi || !anc || !label || !path || !st)
		goto out;
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
	err = 0;
out:
	free(num);
	free(vert);
	free(parent);
	free(semi);
	free(anc);
	free(label);
	free(path);
	free(st);
	return err;
}

/* Tree intervals for O(1) dominance queries: iterative DFS from each root over children. */
static int number_tree(struct scev_domtree *dt, const bool *is_root)
{
	uint32_t nodes = dt->n;
	uint32_t *coff = calloc(nodes + 1, sizeof(*coff)), *child = NULL, *fill = NULL;
	struct dfs_frame *st = NULL;
	uint32_t t = 0;
	int err = -ENOMEM;

	if (!coff)
		return err;
	for (uint32_t v = 0; v < nodes; v++)
		if (dt->idom[v] != SCEV_NONE)
			coff[dt->idom[v] + 1]++;
	for (uint32_t v = 0; v < nodes; v++)
		coff[v + 1] += coff[v];
	child = malloc((coff[nodes] ? coff[nodes] : 1) * sizeof(*child));
	fill = calloc(nodes, sizeof(*fill));
	st = malloc(nodes * sizeof(*st));
	if (!child || !fill || !st)
		goto out;
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
	err = 0;
out:
	free(coff);
	free(child);
	free(fill);
	free(st);
	return err;
}

int scev_dom__build(struct scev_domtree **out, const struct scev_cfg *cfg, bool post,
		    struct diag *d)
{
	/* Graph: the blocks plus one virtual root (index nb) with an edge to every function entry,
	 * or for post-dominators to every block that ends in exit, in the reversed CFG.  Functions
	 * share no edges, so one computation gives every function's tree at once. */
	uint32_t nb = cfg->nblocks, n = nb + 1, root = nb;
	uint32_t *soff = calloc(n + 1, sizeof(*soff)), *poff = calloc(n + 1, sizeof(*poff));
	uint32_t *s = NULL, *p = NULL, *sf = NULL, *pf = NULL, *idom = NULL;
	struct scev_domtree *dt = calloc(1, sizeof(*dt));
	bool *is_root = calloc(n, sizeof(*is_root));
	uint32_t ne = 0;
	int err = -ENOMEM;

	if (!soff || !poff || !dt || !is_root)
		goto out;
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
	FOR_EACH_EDGE({ soff[from + 1]++; poff[to + 1]++; ne++; });
	for (uint32_t v = 0; v < n; v++) {
		soff[v + 1] += soff[v];
		poff[v + 1] += poff[v];
	}
	s = malloc((ne ? ne : 1) * sizeof(*s));
	p = malloc((ne ? ne : 1) * sizeof(*p));
	sf = calloc(n, sizeof(*sf));
	pf = calloc(n, sizeof(*pf));
	idom = malloc(n * sizeof(*idom));
	dt->idom = malloc(n * sizeof(*dt->idom));
	dt->tin = calloc(n, sizeof(*dt->tin));
	dt->tout = calloc(n, sizeof(*dt->tout));
	if (!s || !p || !sf || !pf || !idom || !dt->idom || !dt->tin || !dt->tout)
		goto out;
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
	free(soff);
	free(poff);
	free(s);
	free(p);
	free(sf);
	free(pf);
	free(idom);
	free(is_root);
	scev_dom__free(dt);
	return err ? diag_set(d, -err, "out of memory computing dominators") : 0;
}

void scev_dom__free(struct scev_domtree *dt)
{
	if (!dt)
		return;
	free(dt->idom);
	free(dt->tin);
	free(dt->tout);
	free(dt);
}
