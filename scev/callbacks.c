/* Helper callbacks as loops (callbacks.h): which functions are bpf_loop bodies, and their trip
 * claims from the range claims at the calls.
 */
#include "scev/callbacks.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void scev_cb_loops__free(struct scev_cb_loops *c)
{
	if (!c)
		return;
	for (uint32_t k = 0; k < c->n; k++)
		free(c->v[k].calls);
	free(c->v);
	memset(c, 0, sizeof(*c));
}

static bool is_func_addr(const struct bpf_insn *i)
{
	return ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC;
}

static struct scev_cb_loop *cb_of(struct scev_cb_loops *c, uint32_t f)
{
	for (uint32_t k = 0; k < c->n; k++)
		if (c->v[k].func == f)
			return &c->v[k];
	return NULL;
}

static void not_only(struct scev_cb_loop *cb, const char *fmt, uint32_t pc)
{
	if (!cb->only_bpf_loop)
		return;
	cb->only_bpf_loop = false;
	snprintf(cb->why, sizeof(cb->why), fmt, pc);
}

static bool is_cb_helper(const struct bpf_insn *i)
{
	return ebpf_is_helper_call(i) && (i->imm == BPF_FUNC_loop ||
					  i->imm == BPF_FUNC_for_each_map_elem ||
					  i->imm == BPF_FUNC_find_vma ||
					  i->imm == BPF_FUNC_user_ringbuf_drain);
}

/* The register a callback helper takes its callback in (the kernel's ARG_PTR_TO_FUNC). */
static uint8_t cb_reg(int32_t helper)
{
	return helper == BPF_FUNC_find_vma ? 3 : 2;
}

/* Those helpers, and bpf_timer_set_callback, whose callback is no loop (an async entry). */
static bool takes_cb(const struct bpf_insn *i)
{
	return is_cb_helper(i) || (ebpf_is_helper_call(i) && i->imm == BPF_FUNC_timer_set_callback);
}

/* Whether i copies one register into another, all 64 bits (rd = rs): the copy holds what the
 * source held, a function's address too. */
static bool is_reg_copy(const struct bpf_insn *i)
{
	return i->code == (BPF_ALU64 | BPF_MOV | BPF_X) && i->off == 0;
}

/* The bpf_loop, bpf_for_each_map_elem or bpf_find_vma call that the address loaded at pc goes
 * to, or SCEV_NONE (*why says why).  The address may move through other registers on its way
 * (clang's `r8 = func; ...; r2 = r8`, the kernel's PTR_TO_FUNC copied): the registers holding it
 * are those it was copied into and not written since (a helper or kfunc call between, given
 * none of them in r1-r5, writes none of r6-r9); any other use of one of them before the
 * call is no such load (a copy past the call may call the callback some other way: only the
 * calls found here are its, absint_cb_at). */
static uint32_t feeds_bpf_loop(const struct scev_cfg *cfg, uint32_t pc, const char **why)
{
	const struct bpf_insn *insns = cfg->insns;
	uint32_t b = cfg->block_of[pc];
	uint16_t held = (uint16_t)(1u << insns[pc].dst_reg);

	for (uint32_t q = pc + 2; q <= cfg->blocks[b].last; q += ebpf_insn_slots(&insns[q])) {
		const struct bpf_insn *i = &insns[q];

		if (ebpf_is_call(i)) {
			if (takes_cb(i) && (held >> cb_reg(i->imm) & 1))
				return q;
			if (takes_cb(i)) {
				*why = "its address (loaded at %u) is not in the register the helper "
				       "takes its callback in";
				return SCEV_NONE;
			}
			/* a helper or kfunc call between keeps r6-r9 as they were (it writes
			 * r0-r5 only): the address held there still reaches the call after
			 * (clang's bpf_fastcall spills around a call before bpf_loop) */
			if (!ebpf_is_pseudo_call(i) && !(held & 0x3fu))
				continue;
			*why = "its address (loaded at %u) goes to a call other than bpf_loop or "
			       "another helper taking a callback";
			return SCEV_NONE;
		}
		if (is_reg_copy(i) && (held >> i->src_reg & 1)) {
			held |= (uint16_t)(1u << i->dst_reg);
			continue;
		}
		if (ebpf_regs_read(i) & held) {
			*why = "its address (loaded at %u) is used before the helper call";
			return SCEV_NONE;
		}
		held &= (uint16_t)~ebpf_regs_written(i);
	}
	*why = "its address (loaded at %u) reaches no call of a helper that takes a callback in "
	       "the same block";
	return SCEV_NONE;
}

uint32_t scev_cb_call_of(const struct scev_cfg *cfg, uint32_t pc)
{
	const char *why;

	return feeds_bpf_loop(cfg, pc, &why);
}

bool scev_cb_async_ref(const struct scev_cfg *cfg, uint32_t pc)
{
	uint32_t call = scev_cb_call_of(cfg, pc);

	return call != SCEV_NONE && cfg->insns[call].imm == BPF_FUNC_timer_set_callback;
}

int scev_cb_loops__find(struct scev_cb_loops *out, const struct scev_cfg *cfg)
{
	const struct bpf_insn *insns = cfg->insns;

	memset(out, 0, sizeof(*out));
	for (uint32_t pc = 0; pc < cfg->len; pc += ebpf_insn_slots(&insns[pc])) {
		const struct bpf_insn *i = &insns[pc];
		struct scev_cb_loop *cb;
		uint32_t f, call;
		const char *why = NULL;

		if (!is_func_addr(i))
			continue;
		f = cfg->blocks[cfg->block_of[pc + 1 + (uint32_t)i->imm]].func;
		cb = cb_of(out, f);
		if (!cb) {
			struct scev_cb_loop *nv = realloc(out->v, (out->n + 1) * sizeof(*nv));

			if (!nv)
				goto oom;
			out->v = nv;
			cb = &out->v[out->n++];
			memset(cb, 0, sizeof(*cb));
			cb->func = f;
			cb->header = cfg->funcs[f].start;
			cb->end = cfg->funcs[f].end;
			cb->only_bpf_loop = true;
			cb->helper = -1;
		}
		call = feeds_bpf_loop(cfg, pc, &why);
		if (call == SCEV_NONE) {
			not_only(cb, why, pc);
			continue;
		}
		if (cb->helper >= 0 && cb->helper != insns[call].imm)
			not_only(cb, "it is given to two different callback helpers (at %u)", call);
		cb->helper = insns[call].imm;
		if (cb->ncalls % 8 == 0) {
			uint32_t *nc = realloc(cb->calls, (cb->ncalls + 8) * sizeof(*nc));

			if (!nc)
				goto oom;
			cb->calls = nc;
		}
		cb->calls[cb->ncalls++] = call;
	}
	/* a direct call runs the callback outside any bpf_loop */
	for (uint32_t pc = 0; out->n && pc < cfg->len; pc += ebpf_insn_slots(&insns[pc])) {
		struct scev_cb_loop *cb;

		if (!ebpf_is_pseudo_call(&insns[pc]))
			continue;
		cb = cb_of(out, cfg->blocks[cfg->block_of[pc + 1 + (uint32_t)insns[pc].imm]].func);
		if (cb)
			not_only(cb, "it is also called directly (at %u)", pc);
	}
	return 0;
oom:
	scev_cb_loops__free(out);
	return -ENOMEM;
}

void scev_cb_facts__note(struct scev_cb_facts *f, uint32_t pc, bool nr_scalar,
			 const struct range *nr, bool flags_scalar, const struct range *flags)
{
	bool first = !f->seen[pc];

	f->seen[pc] |= CB_REACHED | (nr_scalar ? 0 : CB_NR_UNKNOWN) |
		       (flags_scalar ? 0 : CB_FLAGS_UNKNOWN);
	if (nr_scalar)
		f->nr[pc] = first ? *nr : range_join(&f->nr[pc], nr);
	if (flags_scalar)
		f->flags[pc] = first ? *flags : range_join(&f->flags[pc], flags);
}

void scev_cb_facts__note_map(struct scev_cb_facts *f, uint32_t pc, uint32_t entries,
			     uint8_t bits)
{
	if (!(f->seen[pc] & CB_REACHED) || entries > f->entries[pc])
		f->entries[pc] = entries;
	f->seen[pc] |= CB_REACHED | bits;
}

/* Whether the callback's code may insert into a map: a bpf_map_update_elem call, or a call it
 * cannot see into (a hash walk may then meet elements inserted in buckets ahead of it). */
static bool may_insert(const struct scev_cfg *cfg, const struct scev_cb_loop *cb)
{
	for (uint32_t pc = cb->header; pc < cb->end; pc += ebpf_insn_slots(&cfg->insns[pc])) {
		const struct bpf_insn *i = &cfg->insns[pc];

		if (ebpf_is_call(i) && (!ebpf_is_helper_call(i) || i->imm == BPF_FUNC_map_update_elem ||
					is_cb_helper(i)))
			return true;
	}
	return false;
}

/* The trip claim of a bpf_for_each_map_elem callback.  0 or -ENOMEM (the texts). */
static int trip_of_each(struct claim_trip *t, const struct scev_cb_facts *facts,
			const struct scev_cfg *cfg, const struct scev_cb_loop *cb,
			const struct range *ret)
{
	char text[CLAIM_TRIP_TEXT];
	uint64_t max = 0, e0 = 0;
	bool exact = cb->ncalls > 0, hash = false;

	for (uint32_t k = 0; k < cb->ncalls; k++) {
		uint32_t pc = cb->calls[k];
		const struct range *fl = facts->seen[pc] & CB_FLAGS_UNKNOWN ? NULL
									  : &facts->flags[pc];

		if (!facts->seen[pc]) {	/* never reached: no entry from it */
			exact = false;
			continue;
		}
		if (facts->seen[pc] & CB_MAP_UNKNOWN) {
			t->kind = TRIP_UNKNOWN;
			snprintf(text, sizeof(text), "callback at %u: the map walked at %u has no known "
				 "max_entries (not known, or an inner map's)", cb->header, pc);
			return claim_trip__set_text(&t->reason, text);
		}
		hash = hash || (facts->seen[pc] & CB_MAP_HASH);
		if (facts->entries[pc] > max)
			max = facts->entries[pc];
		if ((k && facts->entries[pc] != e0) || !fl || fl->umin != 0 || fl->umax != 0)
			exact = false;
		e0 = facts->entries[pc];
	}
	if (hash && may_insert(cfg, cb)) {
		t->kind = TRIP_UNKNOWN;
		snprintf(text, sizeof(text), "callback at %u walks a hash map and may insert into a "
			 "map: the kernel's walk of the buckets may then visit more than max_entries "
			 "elements", cb->header);
		return claim_trip__set_text(&t->reason, text);
	}
	/* an array's walk visits every index; every call returning 0 lets it finish */
	exact = exact && !hash && ret && ret->umin == 0 && ret->umax == 0;
	t->kind = exact ? TRIP_EXACT : TRIP_BOUNDED;
	t->max = max;
	t->min = exact ? max : max ? 1 : 0;
	snprintf(text, sizeof(text), "max_entries of the map%s of the bpf_for_each_map_elem "
		 "call%s at %u%s", cb->ncalls > 1 ? "s" : "", cb->ncalls > 1 ? "s" : "",
		 cb->calls[0], cb->ncalls > 1 ? ", ..." : "");
	if (claim_trip__set_text(&t->expr, text))
		return -ENOMEM;
	if (exact)
		return 0;
	return claim_trip__set_text(&t->reason, hash ? "a hash map holds from 0 to max_entries "
				    "elements, and the callback may stop the walk early"
				    : "the callback may stop early, or flags are not 0");
}

/* The trip claim of a bpf_find_vma callback: at most one call per bpf_find_vma call (none when
 * flags are not 0, the task has no mm or addr lies in no vma of it).  0 or -ENOMEM. */
static int trip_of_vma(struct claim_trip *t, const struct scev_cb_loop *cb)
{
	char text[CLAIM_TRIP_TEXT];

	t->kind = TRIP_BOUNDED;
	t->min = 0;
	t->max = 1;
	snprintf(text, sizeof(text), "bpf_find_vma call%s at %u%s: one call of the callback, "
		 "when addr lies in a vma of the task", cb->ncalls > 1 ? "s" : "", cb->calls[0],
		 cb->ncalls > 1 ? ", ..." : "");
	if (claim_trip__set_text(&t->expr, text))
		return -ENOMEM;
	return claim_trip__set_text(&t->reason, "no call when the task has no vma at addr, or "
				    "flags are not 0");
}

/* The trip claim of a bpf_user_ringbuf_drain callback: one call per sample drained, at most
 * BPF_MAX_USER_RINGBUF_SAMPLES per helper call (none for flags other than the wakeup bits, a
 * busy or empty ring).  0 or -ENOMEM. */
static int trip_of_urb(struct claim_trip *t, const struct scev_cb_loop *cb)
{
	char text[CLAIM_TRIP_TEXT];

	t->kind = TRIP_BOUNDED;
	t->min = 0;
	t->max = SCEV_MAX_USER_RINGBUF_SAMPLES;
	snprintf(text, sizeof(text), "samples drained by the bpf_user_ringbuf_drain call%s at "
		 "%u%s, at most %u (BPF_MAX_USER_RINGBUF_SAMPLES)", cb->ncalls > 1 ? "s" : "",
		 cb->calls[0], cb->ncalls > 1 ? ", ..." : "", SCEV_MAX_USER_RINGBUF_SAMPLES);
	if (claim_trip__set_text(&t->expr, text))
		return -ENOMEM;
	return claim_trip__set_text(&t->reason, "the samples waiting in the ring are not known, "
				    "and the callback may stop early");
}

/* 0 or -ENOMEM (the texts). */
static int trip_of(struct claim_trip *t, const struct scev_cb_facts *facts,
		   const struct scev_cfg *cfg, const struct scev_cb_loop *cb)
{
	char text[CLAIM_TRIP_TEXT];
	uint64_t max = 0, nr0 = 0;
	bool exact = cb->ncalls > 0, capped = false;
	const struct range *ret = facts->ret_seen && (facts->ret_seen[cb->func] & 2)
				  ? &facts->ret[cb->func] : NULL;

	if (!cb->only_bpf_loop) {
		t->kind = TRIP_UNKNOWN;
		snprintf(text, sizeof(text), "callback at %u: %s", cb->header, cb->why);
		return claim_trip__set_text(&t->reason, text);
	}
	if (cb->helper == BPF_FUNC_for_each_map_elem)
		return trip_of_each(t, facts, cfg, cb, ret);
	if (cb->helper == BPF_FUNC_find_vma)
		return trip_of_vma(t, cb);
	if (cb->helper == BPF_FUNC_user_ringbuf_drain)
		return trip_of_urb(t, cb);
	for (uint32_t k = 0; k < cb->ncalls; k++) {
		uint32_t pc = cb->calls[k];
		const struct range *nr = facts->seen[pc] & CB_NR_UNKNOWN ? NULL : &facts->nr[pc];
		const struct range *fl = facts->seen[pc] & CB_FLAGS_UNKNOWN ? NULL
									  : &facts->flags[pc];
		uint64_t m;

		if (!facts->seen[pc]) {	/* never reached: no entry from it */
			exact = false;
			continue;
		}
		/* nr is the low 32 bits; above 2^23 the helper returns -E2BIG without a call */
		m = nr ? nr->u32_max : UINT32_MAX;
		if (m > SCEV_MAX_LOOPS) {
			m = SCEV_MAX_LOOPS;
			capped = true;
		}
		if (m > max)
			max = m;
		if (!nr || nr->u32_min != nr->u32_max || nr->u32_max > SCEV_MAX_LOOPS ||
		    (k && nr->u32_min != nr0) || !fl || fl->umin != 0 || fl->umax != 0)
			exact = false;
		else
			nr0 = nr->u32_min;
	}
	/* every call returns 0: the helper makes all nr calls */
	exact = exact && ret && ret->umin == 0 && ret->umax == 0;
	t->kind = exact ? TRIP_EXACT : TRIP_BOUNDED;
	t->max = max;
	t->min = exact ? max : max ? 1 : 0;
	snprintf(text, sizeof(text), "nr (r1 as u32) of the bpf_loop call%s at %u%s, at "
		 "most %u (BPF_MAX_LOOPS)", cb->ncalls > 1 ? "s" : "", cb->calls[0],
		 cb->ncalls > 1 ? ", ..." : "", SCEV_MAX_LOOPS);
	if (claim_trip__set_text(&t->expr, text))
		return -ENOMEM;
	if (exact)
		return 0;
	return claim_trip__set_text(&t->reason, capped ? "nr is not known to be below 2^23 at a "
				    "bpf_loop call: bounded by BPF_MAX_LOOPS"
				    : "the callback may stop early, or nr or flags are not constants");
}

int scev_cb_loops__claim(struct claim_prog *out, const struct scev_cfg *cfg,
			 const struct scev_cb_loops *c, const struct scev_cb_facts *facts,
			 const uint32_t *plain_headers, uint32_t nplain)
{
	uint32_t n = 0;

	if (!c->n)
		return 0;
	if (claim_prog__grow_loops(out, out->nloops + c->n))
		return -ENOMEM;
	for (uint32_t k = 0; k < c->n; k++) {
		const struct scev_cb_loop *cb = &c->v[k];
		struct claim_loop *cl = &out->loops[out->nloops + n];
		bool shared = false;

		for (uint32_t h = 0; h < nplain; h++)
			shared = shared || plain_headers[h] == cb->header;
		/* (a timer's callback runs on its own, later: an entry, not a loop) */
		if (shared || (cb->only_bpf_loop && cb->helper == BPF_FUNC_timer_set_callback))
			continue;
		memset(cl, 0, sizeof(*cl));
		cl->kind = !cb->only_bpf_loop ? LOOP_BPF_LOOP
			   : cb->helper == BPF_FUNC_for_each_map_elem ? LOOP_FOR_EACH_MAP_ELEM
			   : cb->helper == BPF_FUNC_find_vma ? LOOP_FIND_VMA
			   : cb->helper == BPF_FUNC_user_ringbuf_drain ? LOOP_USER_RINGBUF
								       : LOOP_BPF_LOOP;
		cl->header = cb->header;
		cl->depth = 1;
		cl->parent = -1;
		cl->latch = UINT32_MAX;
		cl->entries = calloc(cb->ncalls ? cb->ncalls : 1, sizeof(*cl->entries));
		cl->blocks = calloc(1, sizeof(*cl->blocks));
		cl->back_edges = calloc(1, sizeof(*cl->back_edges));
		cl->exits = calloc(1, sizeof(*cl->exits));
		if (!cl->entries || !cl->blocks || !cl->back_edges || !cl->exits ||
		    trip_of(&cl->trip, facts, cfg, cb)) {
			free(cl->entries);
			free(cl->blocks);
			free(cl->back_edges);
			free(cl->exits);
			claim_trip__free_text(&cl->trip);
			return -ENOMEM;
		}
		if (cb->ncalls)
			memcpy(cl->entries, cb->calls, cb->ncalls * sizeof(*cl->entries));
		cl->nentries = cb->ncalls;
		cl->blocks[0] = (struct claim_pcrange){ cb->header, cb->end - 1 };
		cl->nblocks = 1;
		n++;
	}
	out->nloops += n;
	return 0;
}
