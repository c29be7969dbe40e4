/* The reducer's passes: each builds its i-th candidate from the working program (reduce.h lists
 * them and the order that makes every accepted step progress).  A pass knows nothing of tests,
 * batches or the cache: the driver (reduce.c) asks for candidate i, tests it, and after an
 * accepted candidate asks for the same i again of the new program — for a deletion that is the
 * next thing to delete, for a rewrite the same place rewritten further.
 */
#include "triage/reduce_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/prog_copy.h"

/* oracle_reduce_delete, and the deleted program's global functions: globals[nglobals] are
 * moved with their functions' starts into *gout (NULL: none wanted; the caller frees it with
 * ebpf_prog_copy__free), left out where nothing of the function is kept.  moved (may be NULL;
 * len + 1 entries) receives where each slot went. */
static size_t delete_insns(struct bpf_insn *out, const struct bpf_insn *insns, size_t len,
			   const bool *keep, struct reduce_move *moved,
			   const struct ebpf_global_func *globals, size_t nglobals,
			   struct ebpf_prog *gout)
{
	bool *k = malloc(len + 1), *start = calloc(len + 1, 1);
	long *next = malloc((len + 1) * sizeof(*next));	/* first kept instruction at or after */
	size_t *at = malloc((len + 1) * sizeof(*at)), *to = malloc((len + 1) * sizeof(*to));
	struct ebpf_prog in = { .insns = (struct bpf_insn *)insns, .len = len,
				.globals = (struct ebpf_global_func *)globals,
				.global_cnt = nglobals }, c;
	size_t n = 0;
	bool changed;

	if (gout)
		memset(gout, 0, sizeof(*gout));
	if (!k || !start || !next || !at || !to)
		goto fail;
	for (size_t pc = 0; pc < len; pc += ebpf_insn_slots(&insns[pc])) {
		start[pc] = true;
		k[pc] = keep[pc];
	}
	/* A jump whose target has nothing kept at or after it has nowhere to go: it goes too.
	 * That can strand a jump that only had this one left to land on, hence the loop. */
	do {
		changed = false;
		next[len] = -1;
		for (size_t pc = len; pc-- > 0;)
			next[pc] = start[pc] && k[pc] ? (long)pc : next[pc + 1];
		for (size_t pc = 0; pc < len; pc += ebpf_insn_slots(&insns[pc])) {
			long t;

			if (!k[pc] || !ebpf_insn_has_target(&insns[pc]))
				continue;
			t = ebpf_insn_target(&insns[pc], pc);
			if (t < 0 || (size_t)t >= len || next[t] < 0) {
				k[pc] = false;
				changed = true;
			}
		}
	} while (changed);
	/* The pc map: a kept instruction goes to the end of the kept ones before it, a target to
	 * the first kept instruction at or after it (distances only shrink: each fits where it
	 * did). */
	for (size_t pc = 0; pc < len; pc += ebpf_insn_slots(&insns[pc])) {
		at[pc] = k[pc] ? n : SIZE_MAX;
		if (k[pc])
			n += ebpf_insn_slots(&insns[pc]);
	}
	at[len] = n;
	for (size_t pc = 0; pc <= len; pc++)
		to[pc] = next[pc] < 0 ? SIZE_MAX : at[next[pc]];
	if (ebpf_prog_copy_map(&c, &in, at, to))
		goto fail;
	memcpy(out, c.insns, n * sizeof(*out));
	if (moved)
		for (size_t pc = 0; pc <= len; pc++) {
			moved[pc].from = next[pc] < 0 ? SIZE_MAX : (size_t)next[pc];
			moved[pc].to = to[pc];
		}
	/* the last instruction must not fall off the end */
	if (!n || (!ebpf_is_exit(&out[n - 1]) && !ebpf_is_ja(&out[n - 1]))) {
		memset(&out[n], 0, sizeof(out[n]));
		out[n].code = BPF_JMP | BPF_EXIT;
		n++;
	}
	if (gout) {
		*gout = c;
		gout->insns = NULL;
	} else {
		ebpf_prog_copy__free(&c);
	}
	free(c.insns);
	free(k);
	free(start);
	free(next);
	free(at);
	free(to);
	if (ebpf_validate(out, n, NULL)) {
		if (gout)
			ebpf_prog_copy__free(gout);
		return 0;
	}
	return n;
fail:
	free(k);
	free(start);
	free(next);
	free(at);
	free(to);
	return 0;
}

size_t oracle_reduce_delete(struct bpf_insn *out, const struct bpf_insn *insns, size_t len,
			    const bool *keep)
{
	return delete_insns(out, insns, len, keep, NULL, NULL, 0, NULL);
}

/* Whether some call or function address of p goes to a slot in [a, b]. */
static bool has_entry(const struct reduce_prog *p, size_t a, size_t b)
{
	for (size_t pc = 0; pc < p->len; pc += ebpf_insn_slots(&p->insns[pc])) {
		const struct bpf_insn *i = &p->insns[pc];
		long t;

		if (!ebpf_is_pseudo_call(i) && !(ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC))
			continue;
		t = ebpf_insn_target(i, pc);
		if (t >= (long)a && t <= (long)b)
			return true;
	}
	return false;
}

/* cand's global prototypes after a deletion from r->cur moved its slots as r->moved says and
 * the copy (c, in r->cur.globals' order) moved each prototype to where its function now starts
 * (the first instruction kept at or after its old start): one is kept when that instruction is
 * still the function's own (no other function starts between; calls are re-targeted there)
 * and something still calls it or takes its address. */
static void move_globals(struct red *r, struct reduce_prog *cand, const struct ebpf_prog *c)
{
	size_t n = 0, j = 0;

	for (size_t k = 0; k < r->cur.nglobals; k++) {
		const struct ebpf_global_func *g = &r->cur.globals[k];
		const struct reduce_move *m = g->insn < r->cur.len ? &r->moved[g->insn] : NULL;

		if (!m || m->to == SIZE_MAX)
			continue;	/* (the copy left it out too) */
		j++;
		if (!m->to || !has_entry(cand, m->to, m->to) ||
		    (m->from > g->insn && has_entry(&r->cur, g->insn + 1, m->from)))
			continue;
		cand->globals[n++] = c->globals[j - 1];
	}
	cand->nglobals = n;
}

size_t reduce_list_starts(struct red *r)
{
	size_t n = 0;

	for (size_t pc = 0; pc < r->cur.len; pc += ebpf_insn_slots(&r->cur.insns[pc]))
		r->starts[n++] = (uint32_t)pc;
	return n;
}

/* cand = cur without the slots [a, b) marked in r->keep by the caller; 1 when it is a valid,
 * shorter program. */
static int build_deleted(struct red *r, struct reduce_prog *cand)
{
	struct ebpf_prog c;
	size_t clen = delete_insns(cand->insns, r->cur.insns, r->cur.len, r->keep, r->moved,
				   r->cur.globals, r->cur.nglobals, &c);

	if (!clen || clen >= r->cur.len) {
		ebpf_prog_copy__free(&c);
		return 0;
	}
	cand->len = clen;
	move_globals(r, cand, &c);
	ebpf_prog_copy__free(&c);
	return 1;
}

static void keep_all(struct red *r)
{
	for (size_t pc = 0; pc < r->cur.len; pc++)
		r->keep[pc] = true;
}

/* Deletes the instructions whose first slot lies in [a, b). */
static void drop_slots(struct red *r, size_t a, size_t b)
{
	for (size_t pc = a; pc < b && pc < r->cur.len; pc++)
		r->keep[pc] = false;
}

static void copy_cur(struct red *r, struct reduce_prog *cand)
{
	memcpy(cand->insns, r->cur.insns, r->cur.len * sizeof(*cand->insns));
	cand->len = r->cur.len;
}

/* ---- subprograms ---- */

/* Entry slots of the subprograms (targets of calls and function addresses), sorted. */
static size_t subprog_entries(struct red *r, uint32_t *out)
{
	size_t n = 0;

	for (size_t pc = 0; pc < r->cur.len; pc += ebpf_insn_slots(&r->cur.insns[pc])) {
		const struct bpf_insn *i = &r->cur.insns[pc];
		long t;

		if (!ebpf_is_pseudo_call(i) && !(ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC))
			continue;
		t = ebpf_insn_target(i, pc);
		if (t <= 0 || (size_t)t >= r->cur.len)
			continue;
		out[n++] = (uint32_t)t;
	}
	/* sort and unique (few entries: insertion sort) */
	for (size_t a = 1; a < n; a++)
		for (size_t b = a; b > 0 && out[b - 1] > out[b]; b--) {
			uint32_t x = out[b];

			out[b] = out[b - 1];
			out[b - 1] = x;
		}
	{
		size_t m = 0;

		for (size_t a = 0; a < n; a++)
			if (!m || out[m - 1] != out[a])
				out[m++] = out[a];
		n = m;
	}
	return n;
}

static int make_subprogs(struct red *r, size_t i, size_t param, struct reduce_prog *cand)
{
	uint32_t *entries = malloc((r->cur.len + 1) * sizeof(*entries));
	size_t n, a, b;
	int rc;

	(void)param;
	if (!entries)
		return -1;
	n = subprog_entries(r, entries);
	if (i >= n) {
		free(entries);
		return -1;
	}
	a = entries[i];
	b = i + 1 < n ? entries[i + 1] : r->cur.len;
	free(entries);
	/* calls to it return 0; its address becomes the number 0 */
	copy_cur(r, cand);
	for (size_t pc = 0; pc < r->cur.len; pc += ebpf_insn_slots(&r->cur.insns[pc])) {
		struct bpf_insn *c = &cand->insns[pc];

		if ((pc >= a && pc < b) || !ebpf_insn_has_target(c) ||
		    ebpf_insn_target(c, pc) != (long)a)
			continue;
		if (ebpf_is_pseudo_call(c)) {
			memset(c, 0, sizeof(*c));
			c->code = BPF_ALU64 | BPF_MOV | BPF_K;
		} else if (ebpf_is_ldimm64(c)) {
			c->src_reg = 0;
			c->imm = 0;
			c[1].imm = 0;
		}
	}
	keep_all(r);
	drop_slots(r, a, b);
	{
		/* delete from the rewritten copy, through the spare candidate */
		struct bpf_insn *spare = r->cands[r->jobs].insns;
		struct ebpf_prog c;
		size_t clen = delete_insns(spare, cand->insns, r->cur.len, r->keep, r->moved,
					   r->cur.globals, r->cur.nglobals, &c);

		rc = clen && clen < r->cur.len;
		if (rc) {
			memcpy(cand->insns, spare, clen * sizeof(*cand->insns));
			cand->len = clen;
			move_globals(r, cand, &c);
		}
		ebpf_prog_copy__free(&c);
	}
	return rc;
}

/* ---- loops and branches ---- */

/* The i-th instruction with a jump (back edges for loops, forward conditional jumps for
 * branches); its slot in *pc, its target in *t. */
static bool nth_jump(struct red *r, size_t i, bool back, size_t *pc, long *t)
{
	size_t k = 0;

	for (size_t p = 0; p < r->cur.len; p += ebpf_insn_slots(&r->cur.insns[p])) {
		const struct bpf_insn *in = &r->cur.insns[p];
		long tt;

		if (!(ebpf_is_ja(in) || ebpf_is_cond_jmp(in)))
			continue;
		tt = ebpf_jump_target(in, p);
		if (back ? tt > (long)p : (tt <= (long)p + 1 || !ebpf_is_cond_jmp(in)))
			continue;
		if (k++ == i) {
			*pc = p;
			*t = tt;
			return true;
		}
	}
	return false;
}

static int make_loops(struct red *r, size_t i, size_t param, struct reduce_prog *cand)
{
	size_t pc;
	long t;

	(void)param;
	if (!nth_jump(r, i, true, &pc, &t))
		return -1;
	if (t < 0)
		return 0;
	keep_all(r);
	drop_slots(r, (size_t)t, pc + 1);	/* the whole loop, back edge included */
	return build_deleted(r, cand);
}

/* Candidates 2i and 2i+1 for the i-th forward conditional jump: always taken (the jump and the
 * block it skips go), never taken (the jump goes, with the else block when the block it skips
 * ends in a goto past the target: an if/else). */
static int make_branches(struct red *r, size_t i, size_t param, struct reduce_prog *cand)
{
	size_t pc;
	long t;

	(void)param;
	if (!nth_jump(r, i / 2, false, &pc, &t))
		return -1;
	keep_all(r);
	if (i % 2 == 0) {
		drop_slots(r, pc, (size_t)t);
	} else {
		size_t before = (size_t)t - 1;
		const struct bpf_insn *j;

		r->keep[pc] = false;
		/* the slot before the target may be an LD_IMM64's second half */
		if (before > pc && before >= 1 && ebpf_is_ldimm64(&r->cur.insns[before - 1]))
			before = 0;
		j = before > pc ? &r->cur.insns[before] : NULL;
		if (j && ebpf_is_ja(j) && ebpf_jump_target(j, before) > t)
			drop_slots(r, (size_t)t, (size_t)ebpf_jump_target(j, before));
	}
	return build_deleted(r, cand);
}

/* ---- dead code ---- */

static int make_dead(struct red *r, size_t i, size_t param, struct reduce_prog *cand)
{
	bool *seen;
	uint32_t *work;
	size_t nw = 0;
	bool any = false;
	int rc = 0;

	(void)param;
	if (i > 0)
		return -1;
	seen = calloc(r->cur.len + 1, 1);
	work = malloc((r->cur.len + 1) * sizeof(*work));
	if (!seen || !work) {
		free(seen);
		free(work);
		return -1;
	}
	seen[0] = true;
	work[nw++] = 0;
	while (nw) {
		size_t pc = work[--nw];
		const struct bpf_insn *in = &r->cur.insns[pc];
		long succ[2];
		int ns = 0;

		if (!ebpf_is_exit(in) && !ebpf_is_ja(in))
			succ[ns++] = (long)(pc + ebpf_insn_slots(in));
		if (ebpf_insn_has_target(in))
			succ[ns++] = ebpf_insn_target(in, pc);
		for (int s = 0; s < ns; s++)
			if (succ[s] >= 0 && (size_t)succ[s] < r->cur.len && !seen[succ[s]]) {
				seen[succ[s]] = true;
				work[nw++] = (uint32_t)succ[s];
			}
	}
	keep_all(r);
	for (size_t pc = 0; pc < r->cur.len; pc += ebpf_insn_slots(&r->cur.insns[pc]))
		if (!seen[pc]) {
			r->keep[pc] = false;
			any = true;
		}
	if (any)
		rc = build_deleted(r, cand);
	free(seen);
	free(work);
	return rc;
}

/* ---- instructions ---- */

static int make_chunks(struct red *r, size_t i, size_t size, struct reduce_prog *cand)
{
	size_t n = reduce_list_starts(r), a = i * size, b = a + size;

	if (a >= n)
		return -1;
	keep_all(r);
	for (size_t k = a; k < b && k < n; k++)
		r->keep[r->starts[k]] = false;
	return build_deleted(r, cand);
}

/* One instruction at a time, from the last: exits and unused tails first. */
static int make_single(struct red *r, size_t i, size_t param, struct reduce_prog *cand)
{
	size_t n = reduce_list_starts(r);

	(void)param;
	if (i >= n)
		return -1;
	keep_all(r);
	r->keep[r->starts[n - 1 - i]] = false;
	return build_deleted(r, cand);
}

/* ---- helpers ---- */

static int make_helpers(struct red *r, size_t i, size_t param, struct reduce_prog *cand)
{
	size_t k = 0;

	(void)param;
	for (size_t pc = 0; pc < r->cur.len; pc += ebpf_insn_slots(&r->cur.insns[pc])) {
		const struct bpf_insn *in = &r->cur.insns[pc];

		if (!ebpf_is_call(in) || ebpf_is_pseudo_call(in))
			continue;
		if (k == i / 2) {
			copy_cur(r, cand);
			memset(&cand->insns[pc], 0, sizeof(cand->insns[pc]));
			cand->insns[pc].code = BPF_ALU64 | BPF_MOV | BPF_K;
			cand->insns[pc].imm = (int32_t)(i % 2);
			return 1;
		}
		k++;
	}
	return -1;
}

/* ---- maps and program type ---- */

static bool map_used(const struct reduce_prog *p, size_t m)
{
	for (size_t pc = 0; pc < p->len; pc += ebpf_insn_slots(&p->insns[pc])) {
		const struct bpf_insn *in = &p->insns[pc];

		if (ebpf_is_ldimm64(in) && (in->src_reg == BPF_PSEUDO_MAP_FD ||
					    in->src_reg == BPF_PSEUDO_MAP_VALUE ||
					    in->src_reg == BPF_PSEUDO_MAP_IDX ||
					    in->src_reg == BPF_PSEUDO_MAP_IDX_VALUE) &&
		    (size_t)in->imm == m)
			return true;
	}
	return false;
}

/* Six candidates per map: removed when unused, an array, one entry, keys of 4 bytes (arrays
 * must have them), values of 1 byte, values of half the size. */
static int make_maps(struct red *r, size_t i, size_t param, struct reduce_prog *cand)
{
	size_t m = i / 6;
	struct ebpf_map_def *d;

	(void)param;
	if (m >= r->cur.map_cnt)
		return -1;
	copy_cur(r, cand);
	d = &cand->maps[m];
	switch (i % 6) {
	case 0:
		if (map_used(&r->cur, m))
			return 0;
		memmove(&cand->maps[m], &cand->maps[m + 1],
			(cand->map_cnt - m - 1) * sizeof(*cand->maps));
		cand->map_cnt--;
		for (size_t pc = 0; pc < cand->len; pc += ebpf_insn_slots(&cand->insns[pc])) {
			struct bpf_insn *in = &cand->insns[pc];

			if (ebpf_is_ldimm64(in) && in->src_reg >= BPF_PSEUDO_MAP_FD &&
			    in->src_reg != BPF_PSEUDO_FUNC && in->src_reg != BPF_PSEUDO_BTF_ID &&
			    (size_t)in->imm > m)
				in->imm--;
		}
		return 1;
	case 1:
		if (d->type == BPF_MAP_TYPE_ARRAY)
			return 0;
		d->type = BPF_MAP_TYPE_ARRAY;
		d->key_size = 4;
		d->flags = 0;
		return 1;
	case 2:
		if (d->max_entries <= 1)
			return 0;
		d->max_entries = 1;
		return 1;
	case 3:
		if (d->key_size <= 4)
			return 0;
		d->key_size = 4;
		return 1;
	case 4:
		if (d->value_size <= 1 || d->init)
			return 0;
		d->value_size = 1;
		return 1;
	default:
		if (d->value_size <= 1 || d->init)
			return 0;
		d->value_size /= 2;
		return 1;
	}
}

static const uint32_t simple_types[] = { BPF_PROG_TYPE_SOCKET_FILTER, BPF_PROG_TYPE_XDP,
					 BPF_PROG_TYPE_SCHED_CLS };

static int make_type(struct red *r, size_t i, size_t param, struct reduce_prog *cand)
{
	(void)param;
	if (i >= sizeof(simple_types) / sizeof(simple_types[0]))
		return -1;
	if (r->cur.prog_type == BPF_PROG_TYPE_UNSPEC)
		return -1;	/* loads as a socket filter already */
	copy_cur(r, cand);
	cand->prog_type = simple_types[i];
	return 1;
}

/* ---- constants ---- */

/* Size of a constant for the progress order: 0 < 1 < -1 < 2 < -2 ... */
static uint64_t const_cost(int64_t v)
{
	uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

	return m * 2 + (v < 0);
}

static bool imm_is_value(const struct bpf_insn *i)
{
	uint8_t cls = ebpf_class(i);

	if ((cls == BPF_ALU || cls == BPF_ALU64) && ebpf_srcbit(i) == BPF_K)
		return ebpf_op(i) != BPF_NEG && ebpf_op(i) != BPF_END;
	if (ebpf_is_cond_jmp(i) && ebpf_srcbit(i) == BPF_K)
		return ebpf_op(i) != BPF_JCOND;
	return cls == BPF_ST && ebpf_mode(i) == BPF_MEM;
}

static bool wide_const(const struct bpf_insn *i)
{
	return ebpf_is_ldimm64(i) && i->src_reg == 0;
}

static int64_t const_of(const struct bpf_insn *i)
{
	return wide_const(i) ? (int64_t)ebpf_ldimm64_value(i) : i->imm;
}

/* Four tries per instruction: 0, 1, half, one closer to 0. */
static int make_consts(struct red *r, size_t i, size_t param, struct reduce_prog *cand)
{
	size_t n = reduce_list_starts(r), pc;
	const struct bpf_insn *in;
	int64_t v, t;

	(void)param;
	if (i / 4 >= n)
		return -1;
	pc = r->starts[i / 4];
	in = &r->cur.insns[pc];
	if (!wide_const(in) && !imm_is_value(in))
		return 0;
	v = const_of(in);
	switch (i % 4) {
	case 0: t = 0; break;
	case 1: t = 1; break;
	case 2: t = v / 2; break;
	default: t = v > 0 ? v - 1 : v + 1; break;
	}
	if (const_cost(t) >= const_cost(v))
		return 0;
	copy_cur(r, cand);
	if (wide_const(in)) {
		cand->insns[pc].imm = (int32_t)(uint32_t)(uint64_t)t;
		cand->insns[pc + 1].imm = (int32_t)(uint32_t)((uint64_t)t >> 32);
	} else {
		cand->insns[pc].imm = (int32_t)t;
	}
	return 1;
}

/* ---- registers ---- */

/* Register operands that may be renamed: destination of ALU, loads, stores (base) and
 * conditional jumps; source of register ALU, jumps, loads and stores. */
static bool uses_dst(const struct bpf_insn *i)
{
	uint8_t cls = ebpf_class(i);

	return cls == BPF_ALU || cls == BPF_ALU64 || cls == BPF_LDX || cls == BPF_ST ||
	       cls == BPF_STX || (ebpf_is_cond_jmp(i) && ebpf_op(i) != BPF_JCOND) ||
	       ebpf_is_ldimm64(i);
}

static bool uses_src(const struct bpf_insn *i)
{
	uint8_t cls = ebpf_class(i);

	if (cls == BPF_LDX || cls == BPF_STX)
		return true;
	return (cls == BPF_ALU || cls == BPF_ALU64 || ebpf_is_cond_jmp(i)) &&
	       ebpf_srcbit(i) == BPF_X && ebpf_op(i) != BPF_END && ebpf_op(i) != BPF_JCOND;
}

/* 2 + 10 + 10 tries per instruction: the source register as the constant 0 or 1, the
 * destination as r0..r9, the source as r0..r9 (only lower numbers make progress). */
static int make_regs(struct red *r, size_t i, size_t param, struct reduce_prog *cand)
{
	size_t n = reduce_list_starts(r), pc, k = i % 22;
	const struct bpf_insn *in;
	uint8_t cls;

	(void)param;
	if (i / 22 >= n)
		return -1;
	pc = r->starts[i / 22];
	in = &r->cur.insns[pc];
	cls = ebpf_class(in);
	if (k < 2) {
		if (!uses_src(in) || cls == BPF_LDX || cls == BPF_STX ||
		    (ebpf_op(in) == BPF_MOV && in->off))
			return 0;
		copy_cur(r, cand);
		cand->insns[pc].code = (uint8_t)((cand->insns[pc].code & ~BPF_X) | BPF_K);
		cand->insns[pc].src_reg = 0;
		cand->insns[pc].imm = (int32_t)k;
		return 1;
	}
	if (k < 12) {
		uint8_t reg = (uint8_t)(k - 2);

		if (!uses_dst(in) || reg >= in->dst_reg)
			return 0;
		copy_cur(r, cand);
		cand->insns[pc].dst_reg = reg;
		return 1;
	}
	{
		uint8_t reg = (uint8_t)(k - 12);

		if (!uses_src(in) || reg >= in->src_reg)
			return 0;
		copy_cur(r, cand);
		cand->insns[pc].src_reg = reg;
		return 1;
	}
}

const reduce_make_fn reduce_makers[RP_NR] = {
	[RP_SUBPROGS] = make_subprogs, [RP_LOOPS] = make_loops, [RP_BRANCHES] = make_branches,
	[RP_DEAD] = make_dead, [RP_CHUNKS] = make_chunks, [RP_HELPERS] = make_helpers,
	[RP_MAPS] = make_maps, [RP_TYPE] = make_type, [RP_CONSTS] = make_consts,
	[RP_REGS] = make_regs, [RP_SINGLE] = make_single,
};
