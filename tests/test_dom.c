/* Property tests of the CFG, dominator trees and loop forest on random graphs and random
 * programs: semi-NCA against a naive iterative data-flow computation, back-edge targets dominate
 * their sources in reducible loops, loop bodies are connected from their header, loops nest, and
 * a loop's recorded entries and irreducible flag match the edges that enter it from outside. */
#include <stdlib.h>
#include <string.h>

#include "scev/loop.h"
#include "tests/check.h"

static uint64_t rng_state = 88172645463325252ull;

static uint32_t rnd(uint32_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state % n);
}

/* Naive dominators: dom(v) = {v} ∪ ⋂ dom(p) over reached preds, to a fixpoint; then idom is the
 * strict dominator with the most dominators itself. */
static void naive_idom(uint32_t n, uint32_t root, const uint32_t *poff, const uint32_t *pred,
		       const bool *reached, uint32_t *idom)
{
	uint8_t *dom = malloc((size_t)n * n);
	bool changed = true;

	for (uint32_t v = 0; v < n; v++)
		memset(dom + (size_t)v * n, v == root ? 0 : 1, n);
	dom[(size_t)root * n + root] = 1;
	while (changed) {
		changed = false;
		for (uint32_t v = 0; v < n; v++) {
			if (v == root || !reached[v])
				continue;
			for (uint32_t u = 0; u < n; u++) {
				uint8_t x = 1;

				for (uint32_t k = poff[v]; k < poff[v + 1]; k++)
					if (reached[pred[k]])
						x &= dom[(size_t)pred[k] * n + u];
				if (u == v)
					x = 1;
				if (dom[(size_t)v * n + u] != x) {
					dom[(size_t)v * n + u] = x;
					changed = true;
				}
			}
		}
	}
	for (uint32_t v = 0; v < n; v++) {
		uint32_t best = SCEV_NONE, bestc = 0;

		idom[v] = SCEV_NONE;
		if (v == root || !reached[v])
			continue;
		for (uint32_t u = 0; u < n; u++) {
			uint32_t c = 0;

			if (u == v || !dom[(size_t)v * n + u])
				continue;
			for (uint32_t k = 0; k < n; k++)
				c += dom[(size_t)u * n + k];
			if (best == SCEV_NONE || c > bestc) {
				best = u;
				bestc = c;
			}
		}
		idom[v] = best;
	}
	free(dom);
}

static void test_random_graphs(void)
{
	for (int iter = 0; iter < 400; iter++) {
		uint32_t n = 1 + rnd(40), m = rnd(3 * n + 1);
		uint32_t *ef = malloc((m + 1) * 4), *et = malloc((m + 1) * 4);
		uint32_t *soff = calloc(n + 1, 4), *poff = calloc(n + 1, 4);
		uint32_t *s = malloc((m + 1) * 4), *p = malloc((m + 1) * 4);
		uint32_t *sf = calloc(n, 4), *pf = calloc(n, 4);
		uint32_t *idom = malloc(n * 4), *want = malloc(n * 4), *stack = malloc(n * 4);
		bool *reached = calloc(n, 1);
		uint32_t sp = 0;

		for (uint32_t e = 0; e < m; e++) {
			ef[e] = rnd(n);
			et[e] = rnd(n);
			soff[ef[e] + 1]++;
			poff[et[e] + 1]++;
		}
		for (uint32_t v = 0; v < n; v++) {
			soff[v + 1] += soff[v];
			poff[v + 1] += poff[v];
		}
		for (uint32_t e = 0; e < m; e++) {
			s[soff[ef[e]] + sf[ef[e]]++] = et[e];
			p[poff[et[e]] + pf[et[e]]++] = ef[e];
		}
		reached[0] = true;
		stack[sp++] = 0;
		while (sp) {
			uint32_t v = stack[--sp];

			for (uint32_t k = soff[v]; k < soff[v + 1]; k++)
				if (!reached[s[k]]) {
					reached[s[k]] = true;
					stack[sp++] = s[k];
				}
		}
		CHECK(scev_dom__compute(n, 0, soff, s, poff, p, idom) == 0, "compute failed");
		naive_idom(n, 0, poff, p, reached, want);
		for (uint32_t v = 0; v < n; v++)
			CHECK(idom[v] == want[v], "graph %d node %u: idom %u, naive %u", iter, v,
			      idom[v], want[v]);
		free(ef); free(et); free(soff); free(poff); free(s); free(p); free(sf); free(pf);
		free(idom); free(want); free(stack); free(reached);
	}
}

/* A random valid program: ALU, conditional and unconditional jumps anywhere, exits. */
static size_t random_prog(struct bpf_insn *v, size_t n)
{
	for (size_t pc = 0; pc < n; pc++) {
		uint32_t k = rnd(10);
		long t = (long)rnd((uint32_t)n);

		memset(&v[pc], 0, sizeof(v[pc]));
		if (pc == n - 1 || k == 0) {
			v[pc].code = BPF_JMP | BPF_EXIT;
		} else if (k <= 3) {
			v[pc].code = BPF_JMP | BPF_JLT | BPF_K;
			v[pc].dst_reg = 1;
			v[pc].imm = 10;
			v[pc].off = (int16_t)(t - (long)pc - 1);
		} else if (k == 4) {
			v[pc].code = BPF_JMP | BPF_JA;
			v[pc].off = (int16_t)(t - (long)pc - 1);
		} else {
			v[pc].code = BPF_ALU64 | BPF_ADD | BPF_K;
			v[pc].dst_reg = 1;
			v[pc].imm = 1;
		}
	}
	return n;
}

/* Loops whose blocks are a run of the forest's one body array, and those that needed a sorted
 * copy (a child's blocks interleaved with the loop's own): both must occur. */
static uint32_t n_runs, n_sorted_copies;

static void check_structure(const struct scev_structure *st, int iter)
{
	const struct scev_cfg *cfg = st->cfg;
	const struct scev_loops *lf = st->loops;
	uint32_t nb = cfg->nblocks;
	uint32_t *soff = calloc(nb + 1, 4), *poff = calloc(nb + 1, 4), *s, *p, *want, *idom;
	bool *reached = calloc(nb, 1), *seen = calloc(nb, 1);
	uint32_t ne = 0, *stack = malloc(nb * 4), in_loops = 0;

	/* Dominators against the naive computation (function 0 only: random programs have one). */
	for (uint32_t b = 0; b < nb; b++) {
		soff[b + 1] = soff[b] + cfg->blocks[b].nsucc;
		poff[b + 1] = poff[b] + cfg->blocks[b].npred;
		reached[b] = cfg->blocks[b].reachable;
		ne += cfg->blocks[b].nsucc;
	}
	s = malloc((ne + 1) * 4);
	p = malloc((ne + 1) * 4);
	want = malloc(nb * 4);
	idom = malloc(nb * 4);
	for (uint32_t b = 0; b < nb; b++) {
		memcpy(s + soff[b], cfg->blocks[b].succ, cfg->blocks[b].nsucc * 4);
		memcpy(p + poff[b], scev_block_preds(cfg, b), cfg->blocks[b].npred * 4);
	}
	naive_idom(nb, 0, poff, p, reached, want);
	for (uint32_t b = 0; b < nb; b++) {
		CHECK(st->dom->idom[b] == want[b], "prog %d block %u: idom %u, naive %u", iter, b,
		      st->dom->idom[b], want[b]);
		if (want[b] != SCEV_NONE)
			CHECK(scev_dom__dominates(st->dom, want[b], b), "prog %d: dominates() wrong",
			      iter);
	}
	/* Loops. */
	for (uint32_t b = 0; b < nb; b++)
		in_loops += lf->loop_of[b] != SCEV_NONE;
	for (uint32_t l = 0; l < lf->nloops; l++) {
		const struct scev_loop *L = &lf->loops[l];
		uint32_t sp = 0, reach = 0;

		CHECK(L->nback_edges > 0, "prog %d loop %u has no back edge", iter, l);
		for (uint32_t k = 0; k < L->nback_edges; k++) {
			CHECK(scev_loop__contains(lf, l, L->back_edges[k].from),
			      "prog %d: back edge source outside its loop", iter);
			if (!L->irreducible)
				CHECK(scev_dom__dominates(st->dom, L->header, L->back_edges[k].from),
				      "prog %d: header %u does not dominate back-edge source %u", iter,
				      L->header, L->back_edges[k].from);
		}
		/* Every block reachable from the header (or an entry) without leaving the loop. */
		memset(seen, 0, nb);
		for (uint32_t e = 0; e < L->nentries; e++) {
			seen[L->entries[e]] = true;
			stack[sp++] = L->entries[e];
		}
		while (sp) {
			uint32_t b = stack[--sp];

			reach++;
			for (unsigned k = 0; k < cfg->blocks[b].nsucc; k++) {
				uint32_t x = cfg->blocks[b].succ[k];

				if (!seen[x] && scev_loop__contains(lf, l, x)) {
					seen[x] = true;
					stack[sp++] = x;
				}
			}
		}
		CHECK(reach == L->nblocks, "prog %d loop at block %u: %u of %u blocks reachable "
		      "inside", iter, L->header, reach, L->nblocks);
		/* The loop's blocks, each once, ascending: those whose innermost loop is l or
		 * inside it (stored once for the whole forest, loop.h) */
		{
			uint32_t inside = 0;

			for (uint32_t b = 0; b < nb; b++) {
				bool walk = false;	/* (the parents of b's innermost loop) */

				for (uint32_t x = lf->loop_of[b]; x != SCEV_NONE && !walk;
				     x = lf->loops[x].parent)
					walk = x == l;
				CHECK(scev_loop__contains(lf, l, b) == walk, "prog %d loop %u block "
				      "%u: contains %d, the walk up its parents %d", iter, l, b,
				      scev_loop__contains(lf, l, b), walk);
				inside += walk;
			}
			CHECK(inside == L->nblocks, "prog %d loop %u: %u blocks listed, %u inside",
			      iter, l, L->nblocks, inside);
			for (uint32_t i = 1; i < L->nblocks; i++)
				CHECK(L->blocks[i - 1] < L->blocks[i], "prog %d loop %u: blocks not "
				      "ascending at %u", iter, l, i);
			if (L->blocks >= lf->body && L->blocks < lf->body + in_loops)
				n_runs++;
			else
				n_sorted_copies++;
		}
		/* block_index finds exactly the loop's blocks, at their place */
		for (uint32_t b = 0; b < nb; b++) {
			uint32_t at = scev_loop__block_index(L, b);

			CHECK(at == SCEV_NONE ? !scev_loop__contains(lf, l, b) :
			      at < L->nblocks && L->blocks[at] == b,
			      "prog %d loop %u: block_index(%u) = %u", iter, l, b, at);
		}
		/* Nesting: a child's blocks are a subset of the parent's; depth consistent. */
		if (L->parent != SCEV_NONE) {
			const struct scev_loop *P = &lf->loops[L->parent];

			CHECK(L->depth == P->depth + 1, "prog %d: depth", iter);
			for (uint32_t i = 0; i < L->nblocks; i++)
				CHECK(scev_loop__contains(lf, L->parent, L->blocks[i]),
				      "prog %d: child block outside parent", iter);
			CHECK(L->nblocks < P->nblocks, "prog %d: child not smaller", iter);
		}
		/* Entries, found independently from the edges: a block of the loop other than the
		 * header with a reachable predecessor outside the loop is entered from outside, and
		 * the loop is irreducible exactly when there is one.  The recorded entries are the
		 * header (first) and exactly those blocks. */
		{
			uint32_t outside_entered = 0;

			CHECK(L->nentries >= 1 && L->entries[0] == L->header,
			      "prog %d loop %u: the header is not the first entry", iter, L->header);
			for (uint32_t i = 0; i < L->nblocks; i++) {
				uint32_t b = L->blocks[i], rec = 0;
				bool entered = false;

				for (uint32_t k = 0; k < cfg->blocks[b].npred; k++) {
					uint32_t pb = scev_block_preds(cfg, b)[k];

					if (cfg->blocks[pb].reachable &&
					    !scev_loop__contains(lf, l, pb))
						entered = true;
				}
				for (uint32_t e = 0; e < L->nentries; e++)
					rec += L->entries[e] == b;
				if (b == L->header) {
					CHECK(rec == 1, "prog %d loop %u: header recorded %u times",
					      iter, L->header, rec);
					continue;
				}
				outside_entered += entered;
				CHECK(rec == (entered ? 1u : 0u), "prog %d loop %u: block %u %s from "
				      "outside but recorded %u times as an entry", iter, L->header, b,
				      entered ? "entered" : "not entered", rec);
			}
			CHECK(L->nentries == 1 + outside_entered, "prog %d loop %u: %u entries "
			      "recorded, %u blocks entered from outside besides the header", iter,
			      L->header, L->nentries, outside_entered);
			CHECK(L->irreducible == (outside_entered > 0), "prog %d loop %u: irreducible "
			      "%d, but %u blocks besides the header are entered from outside", iter,
			      L->header, L->irreducible, outside_entered);
		}
		/* No edge from outside enters a reducible loop except at its header. */
		if (!L->irreducible)
			for (uint32_t i = 0; i < L->nblocks; i++) {
				uint32_t b = L->blocks[i];

				if (b == L->header)
					continue;
				for (uint32_t k = 0; k < cfg->blocks[b].npred; k++) {
					uint32_t pb = scev_block_preds(cfg, b)[k];

					if (cfg->blocks[pb].reachable)
						CHECK(scev_loop__contains(lf, l, pb),
						      "prog %d: reducible loop %u entered at %u from %u",
						      iter, L->header, b, pb);
				}
			}
		/* Exits leave the loop. */
		for (uint32_t k = 0; k < L->nexits; k++)
			CHECK(scev_loop__contains(lf, l, L->exits[k].from) &&
			      !scev_loop__contains(lf, l, L->exits[k].to), "prog %d: bad exit", iter);
		/* A latch is inside, at this loop's level, ends in a conditional jump that exits. */
		for (uint32_t k = 0; k < L->nback_edges; k++) {
			uint32_t lt = L->back_edges[k].latch;

			if (lt == SCEV_NONE)
				continue;
			CHECK(lf->loop_of[lt] == l && scev_block_cond_jmp(cfg, lt),
			      "prog %d: latch block %u", iter, lt);
		}
	}
	/* Innermost-first order: children before parents, each loop once. */
	memset(seen, 0, nb);
	for (uint32_t i = 0; i < lf->nloops; i++) {
		uint32_t l = lf->order[i];

		CHECK(!seen[l], "prog %d: loop twice in order", iter);
		seen[l] = true;
		for (uint32_t c = 0; c < lf->loops[l].nchildren; c++)
			CHECK(seen[lf->loops[l].children[c]], "prog %d: parent before child", iter);
	}
	free(soff); free(poff); free(s); free(p); free(want); free(idom); free(reached);
	free(seen); free(stack);
}

static void test_random_programs(void)
{
	struct bpf_insn prog[64];
	int irreducible = 0, loops = 0;

	for (int iter = 0; iter < 3000; iter++) {
		size_t n = random_prog(prog, 2 + rnd(60));
		struct scev_structure st;
		struct diag d;

		diag_clear(&d);
		if (ebpf_validate(prog, n, &d))
			continue;
		CHECK(scev_structure__build(&st, prog, n, &d) == 0, "build: %s", d.msg);
		check_structure(&st, iter);
		loops += st.loops->nloops;
		irreducible += st.loops->nirreducible;
		scev_structure__free(&st);
	}
	/* The generator must exercise both kinds, or the properties above prove little. */
	CHECK(loops > 1000 && irreducible > 100, "random programs gave %d loops, %d irreducible",
	      loops, irreducible);
	CHECK(n_runs > 1000 && n_sorted_copies > 10, "random programs gave %u loops listed in "
	      "place and %u with sorted copies", n_runs, n_sorted_copies);
}

int main(void)
{
	test_random_graphs();
	test_random_programs();
	return check_done("test_dom");
}
