/* bpf_spin_lock and bpf_spin_unlock (kernel/bpf/helpers.c; the verifier's process_spin_lock,
 * check_resource_leak) in the range analysis and the verdict.
 *
 * The argument (ARG_PTR_TO_SPIN_LOCK) is a map value, not NULL, at a constant offset that is
 * the struct bpf_spin_lock of the map's value (ebpf_map_def.fields, from the map's BTF).  One
 * lock is held at a time; the kernel names it by the map and the register's id — a lookup's
 * result keeps its id past the null check when the map's value holds a spin lock
 * (reg_may_point_to_spin_lock), and a lookup that surely finds gives one too — so an unlock must
 * be of the value of the same run of the same lookup ("bpf_spin_unlock of different lock").
 * While a lock is held no helper but bpf_spin_unlock may be called, nor a kfunc ("function
 * calls are not allowed while holding a lock"), nor LD_ABS/LD_IND; the main function's exit
 * must not hold one ("bpf_spin_unlock is missing").
 *
 * Here the lock held is astate.lk: none, held on every path (map and id: aval.h's lookup id,
 * LK_ID_DIRECT for a value LD_IMM64 gives, 0 when not one), or held on some path only.  A
 * lookup's result keeps its id (absint.c: settle_copies, send_succs; aval_join keeps the id of
 * map values alike) only for maps with a spin lock (absint_lock_map), so nothing else changes.
 * The lock is the program's, not a frame's (the kernel's active_lock is in bpf_verifier_state):
 * a static function may take its caller's lock, release it or return holding one, and only the
 * main function's exit must not hold one (do_check's BPF_EXIT: "!curframe").  When functions
 * other than main call the lock helpers, each static function (not main, a callback, a global
 * function or one whose address is taken) has a lock summary, found with the arguments' in the
 * summary rounds (scev.c): the join of the lock states of its calls, which it starts with, and
 * of its exits, which its calls leave.  The verdict checks that the analysed states keep within
 * them (every call's lock in its callee's, every exit's in its function's), so the walk is the
 * kernel's with the calls inlined, joined.
 *
 * What is not followed is unsupported: a lock or unlock in a callback, a global function or one
 * whose address is taken, or in a program whose lock summaries did not settle, or inside a loop
 * (the loop's header takes its entry's lock state: nothing in the body may change it), nor a
 * call there of a function that takes or releases one; a call of a static function while a lock
 * may be held, without summaries, unless it and its callees call no helper, kfunc or function
 * address and read no packet by LD_ABS/LD_IND (callee_clean); an unlock whose lock is not known
 * to be the one held (joined ids), and a map of maps' inner map.  The interpreter takes both helpers as no-ops that check the lock
 * (oracle/exec/interp.c: lock_helper).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "scev/absint.h"

#include "util/arena.h"

#define LFAIL(kind_, ...)                                                                         \
	do {                                                                                      \
		verdict_fail(v, (kind_), pc, __VA_ARGS__);                                       \
		return true;                                                                      \
	} while (0)

const struct ebpf_helper_proto *absint_lock_proto(int32_t id)
{
	/* the table's entries (bpf/helper_proto.c) with the lock (ARG_PTR_TO_SPIN_LOCK) as
	 * anything: absint_lock_verify_insn checks it; no result (RET_VOID: r0 not readable) */
	static const struct ebpf_helper_proto protos[] = {
		{ BPF_FUNC_spin_lock, { HARG_ANYTHING }, HRET_INTEGER, HF_NO_RETURN_VALUE,
		  INT64_MIN, INT64_MAX, HPT_ALL },
		{ BPF_FUNC_spin_unlock, { HARG_ANYTHING }, HRET_INTEGER, HF_NO_RETURN_VALUE,
		  INT64_MIN, INT64_MAX, HPT_ALL },
	};

	return id == BPF_FUNC_spin_lock ? &protos[0] : id == BPF_FUNC_spin_unlock ? &protos[1]
										    : NULL;
}

/* The offset of map m's struct bpf_spin_lock, or -1 when its value holds none (or fields the
 * ELF reader could not all place: -2). */
static int64_t lock_off(const struct scev_ctx *cx, uint32_t m)
{
	const struct ebpf_map_def *def;

	if (m >= cx->nmaps)
		return -1;
	def = &cx->maps[m];
	for (uint8_t k = 0; k < def->nfields && k < EBPF_MAP_FIELDS; k++) {
		if (def->fields[k].kind == EBPF_FIELD_UNSURE)
			return -2;
		if (def->fields[k].kind == EBPF_FIELD_SPIN_LOCK)
			return def->fields[k].off;
	}
	return def->fields_over ? -2 : -1;
}

bool absint_lock_map(const struct scev_ctx *cx, uint32_t m)
{
	return lock_off(cx, m) >= 0;
}

bool absint_lock_join(struct alock *d, const struct alock *s)
{
	struct alock o = *d;

	if (!s->held && !d->held)
		return false;
	if (!d->held) {
		*d = *s;
		d->held = LK_MAYBE;
	} else if (!s->held) {
		d->held = LK_MAYBE;
	} else {
		if (s->held == LK_MAYBE)
			d->held = LK_MAYBE;
		if (d->map != s->map)
			d->map = LK_MAP_ANY;
		if (d->id != s->id)
			d->id = 0;
	}
	return d->held != o.held || d->map != o.map || d->id != o.id;
}

void absint_lock_call(struct scev_ctx *cx, struct astate *s, uint32_t pc, struct aval *r0)
{
	const struct bpf_insn *i = &cx->insns[pc];
	const struct aval *a = &s->regs[1];

	if (i->imm == BPF_FUNC_spin_lock) {
		/* (a call the verdict refuses ends the path there; a state past it is any) */
		s->lk.held = LK_HELD;
		s->lk.map = a->kind == AV_PTR && a->region == REGION_MAP_VALUE ? a->map
									       : LK_MAP_ANY;
		s->lk.id = a->kind == AV_PTR && a->region == REGION_MAP_VALUE ? a->id : 0;
		return;
	}
	if (i->imm == BPF_FUNC_spin_unlock) {
		s->lk = (struct alock){ 0 };
		return;
	}
	/* a lookup that surely finds, in a map whose values hold a spin lock: an id of its own
	 * (check_helper_call: RET_PTR_TO_MAP_VALUE with BPF_SPIN_LOCK) */
	if (i->imm == BPF_FUNC_map_lookup_elem && r0->kind == AV_PTR &&
	    r0->region == REGION_MAP_VALUE && !r0->maybe_null && absint_lock_map(cx, r0->map)) {
		r0->id = aval_null_id(pc);
		astate__drop_id(s, r0->id);
	}
}

/* Whether a function other than main calls bpf_spin_lock or bpf_spin_unlock: the lock main's
 * calls of it see may be one a callee took or released, which is not followed. */
static bool lock_elsewhere(const struct scev_ctx *cx)
{
	const struct scev_cfg *cfg = cx->st.cfg;

	for (uint32_t pc = 0; pc < cx->len; pc += ebpf_insn_slots(&cx->insns[pc]))
		if (ebpf_is_helper_call(&cx->insns[pc]) && absint_lock_helper(cx->insns[pc].imm) &&
		    cfg->blocks[cfg->block_of[pc]].func != 0)
			return true;
	return false;
}

/* Whether function f has a lock summary: a static function, not main, a callback or one whose
 * address is taken (which helpers call with no lock of the caller's). */
static bool lk_applies(const struct scev_ctx *cx, uint32_t f)
{
	return cx->lk_in && f && f < cx->st.cfg->nfuncs && !(cx->fn_cb && cx->fn_cb[f]) &&
	       !(cx->lk_fn[f] & 2) && !absint_global(cx, f);
}

/* a is within b: b joined with it is b */
static bool lk_within(const struct alock *a, const struct alock *b)
{
	struct alock j = *b;

	return !absint_lock_join(&j, a);
}

int absint_lock_setup(struct scev_ctx *cx)
{
	const struct scev_cfg *cfg = cx->st.cfg;
	uint32_t nf = cfg->nfuncs;
	bool changed = true;

	cx->lk_in = cx->lk_in_acc = cx->lk_out = cx->lk_out_acc = NULL;
	cx->lk_seen_acc = cx->lk_fn = NULL;
	cx->lk_stable = false;
	if (nf < 2 || !lock_elsewhere(cx))
		return 0;
	if (!(cx->lk_in = arena_zalloc(nf, sizeof(*cx->lk_in))) ||
	    !(cx->lk_in_acc = arena_zalloc(nf, sizeof(*cx->lk_in_acc))) ||
	    !(cx->lk_out = arena_zalloc(nf, sizeof(*cx->lk_out))) ||
	    !(cx->lk_out_acc = arena_zalloc(nf, sizeof(*cx->lk_out_acc))) ||
	    !(cx->lk_seen_acc = arena_zalloc(nf, 1)) || !(cx->lk_fn = arena_zalloc(nf, 1)))
		return -ENOMEM;
	for (uint32_t pc = 0; pc < cx->len; pc += ebpf_insn_slots(&cx->insns[pc])) {
		const struct bpf_insn *i = &cx->insns[pc];

		if (ebpf_is_helper_call(i) && absint_lock_helper(i->imm))
			cx->lk_fn[cfg->blocks[cfg->block_of[pc]].func] |= 1;
		if (ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC)
			cx->lk_fn[cfg->blocks[cfg->block_of[pc + 1 + (uint32_t)i->imm]].func] |= 2;
	}
	/* (bit 1 through the calls, to a fixpoint) */
	while (changed) {
		changed = false;
		for (uint32_t pc = 0; pc < cx->len; pc += ebpf_insn_slots(&cx->insns[pc])) {
			const struct bpf_insn *i = &cx->insns[pc];
			uint32_t f = cfg->blocks[cfg->block_of[pc]].func, g;

			if (!ebpf_is_pseudo_call(i) || (cx->lk_fn[f] & 1))
				continue;
			g = cfg->blocks[cfg->block_of[pc + 1 + (uint32_t)i->imm]].func;
			if (cx->lk_fn[g] & 1) {
				cx->lk_fn[f] |= 1;
				changed = true;
			}
		}
	}
	return 0;
}

static bool lk_equal(const struct alock *a, const struct alock *b)
{
	return a->held == b->held && a->map == b->map && a->id == b->id;
}

bool absint_lock_round(struct scev_ctx *cx)
{
	bool stable = true;

	/* Each round's calls and exits are the next round's summaries (replaced, not joined: a
	 * callee's first rounds ran with its calls' lock not known yet); the rounds end when one
	 * saw what it ran with.  (Whatever they end with, the verdict checks the last pass's
	 * calls and exits keep within them.) */
	for (uint32_t f = 0; cx->lk_in && f < cx->st.cfg->nfuncs; f++) {
		uint8_t *seen = &cx->lk_seen_acc[f];

		if ((*seen & 1) && (!(*seen & 4) || !lk_equal(&cx->lk_in[f], &cx->lk_in_acc[f]))) {
			cx->lk_in[f] = cx->lk_in_acc[f];
			stable = false;
		}
		if ((*seen & 2) && (!(*seen & 8) || !lk_equal(&cx->lk_out[f], &cx->lk_out_acc[f]))) {
			cx->lk_out[f] = cx->lk_out_acc[f];
			stable = false;
		}
		*seen = (uint8_t)((*seen & 12) | (*seen & 3) << 2);
	}
	return stable;
}

void absint_lock_entry(const struct scev_ctx *cx, uint32_t f, struct astate *s)
{
	if (lk_applies(cx, f))
		s->lk = cx->lk_in[f];
}

void absint_lock_call_return(struct scev_ctx *cx, struct astate *s, uint32_t pc)
{
	const struct scev_cfg *cfg = cx->st.cfg;
	uint32_t f = cfg->blocks[cfg->block_of[pc + 1 + (uint32_t)cx->insns[pc].imm]].func;

	if (!lk_applies(cx, f))
		return;
	if (cx->lk_seen_acc[f] & 1)
		absint_lock_join(&cx->lk_in_acc[f], &s->lk);
	else
		cx->lk_in_acc[f] = s->lk;
	cx->lk_seen_acc[f] |= 1;
	s->lk = cx->lk_out[f];
}

void absint_lock_exit(struct scev_ctx *cx, uint32_t f, const struct astate *s)
{
	if (!lk_applies(cx, f))
		return;
	if (cx->lk_seen_acc[f] & 2)
		absint_lock_join(&cx->lk_out_acc[f], &s->lk);
	else
		cx->lk_out_acc[f] = s->lk;
	cx->lk_seen_acc[f] |= 2;
}

/* Whether static function f, and every function it calls, calls no helper, kfunc or function
 * address and loads no packet bytes (LD_ABS, LD_IND): called with a lock held, nothing in it
 * breaks the kernel's rules, on any path, and nothing changes the lock (the kernel walks a
 * static callee with the caller's lock, check_func_call; a global one it refuses).  False
 * also when memory runs out (unsupported then: never a wrong safe). */
static bool callee_clean(const struct scev_ctx *cx, uint32_t f)
{
	const struct scev_cfg *cfg = cx->st.cfg;
	uint32_t *stack = calloc(cfg->nfuncs + 1, sizeof(*stack)), n = 0;
	uint8_t *seen = calloc(cfg->nfuncs + 1, 1);
	bool clean = stack && seen && f < cfg->nfuncs;

	if (clean) {
		stack[n++] = f;
		seen[f] = 1;
	}
	while (clean && n) {
		const struct scev_func *fn = &cfg->funcs[stack[--n]];

		for (uint32_t pc = fn->start; pc < fn->end && clean;
		     pc += ebpf_insn_slots(&cx->insns[pc])) {
			const struct bpf_insn *i = &cx->insns[pc];
			uint32_t g;

			if (ebpf_class(i) == BPF_LD && !ebpf_is_ldimm64(i))
				clean = false;	/* (LD_ABS, LD_IND) */
			else if (ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC)
				clean = false;
			else if (ebpf_is_call(i) && !ebpf_is_pseudo_call(i))
				clean = false;
			else if (ebpf_is_pseudo_call(i) &&
				 (g = cfg->blocks[cfg->block_of[pc + 1 + (uint32_t)i->imm]].func,
				  absint_global(cx, g) != NULL))
				clean = false;
			else if (ebpf_is_pseudo_call(i) && !seen[g]) {
				seen[g] = 1;
				stack[n++] = g;
			}
		}
	}
	free(stack);
	free(seen);
	return clean;
}

bool absint_lock_verify_insn(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			     uint32_t pc)
{
	const struct bpf_insn *i = &cx->insns[pc];
	const struct scev_cfg *cfg = cx->st.cfg;
	const struct aval *a = &s->regs[1];
	const char *name;
	int64_t off;
	bool lock;

	if (s->lk.held) {
		if (ebpf_is_exit(i) && cfg->blocks[cfg->block_of[pc]].func == 0)
			LFAIL(VERDICT_UNSAFE, "bpf_spin_unlock is missing (the lock taken at map "
			      "'%s' is held at the exit%s)", s->lk.map < cx->nmaps ?
			      cx->maps[s->lk.map].name : "?", s->lk.held == LK_MAYBE ?
			      " on some path" : "");
		if (ebpf_class(i) == BPF_LD && (ebpf_mode(i) == BPF_ABS || ebpf_mode(i) == BPF_IND))
			LFAIL(VERDICT_UNSAFE, "BPF_LD_[ABS|IND] cannot be used inside "
			      "bpf_spin_lock-ed region");
		if (ebpf_is_pseudo_call(i)) {
			uint32_t g = cfg->blocks[cfg->block_of[pc + 1 + (uint32_t)i->imm]].func;

			if (absint_global(cx, g))
				LFAIL(VERDICT_UNSAFE, "global function calls are not allowed while "
				      "holding a lock, use static function instead");
			/* (with summaries, the callee's states hold the lock: its calls are
			 * checked there) */
			if (!(cx->lk_stable && lk_applies(cx, g)) && !callee_clean(cx, g))
				LFAIL(VERDICT_UNSUPPORTED, "a call of a static function that "
				      "calls helpers, kfuncs or functions by address, or reads "
				      "the packet by LD_ABS/LD_IND, while a spin lock may be "
				      "held: not modeled");
		}
		/* (the kernel allows a few kfuncs, of lists and trees: kfunc_spin_allowed) */
		if (ebpf_is_call(i) && !ebpf_is_helper_call(i) && !ebpf_is_pseudo_call(i))
			LFAIL(VERDICT_UNSUPPORTED, "a kfunc or indirect call while a spin lock may "
			      "be held: not modeled");
		if (ebpf_is_helper_call(i) && i->imm != BPF_FUNC_spin_unlock &&
		    i->imm != BPF_FUNC_spin_lock)
			LFAIL(VERDICT_UNSAFE, "function calls are not allowed while holding a lock "
			      "(helper %s#%d)", ebpf_helper_name(i->imm) ? ebpf_helper_name(i->imm)
			      : "?", i->imm);
	}
	if (cx->lk_in && ebpf_is_pseudo_call(i)) {
		uint32_t g = cfg->blocks[cfg->block_of[pc + 1 + (uint32_t)i->imm]].func;

		if ((cx->lk_fn[g] & 1) && cx->st.loops->loop_of[cfg->block_of[pc]] != SCEV_NONE)
			LFAIL(VERDICT_UNSUPPORTED, "a call inside a loop of a function that takes or "
			      "releases a spin lock: not modeled");
		if (cx->lk_stable && lk_applies(cx, g) && !lk_within(&s->lk, &cx->lk_in[g]))
			LFAIL(VERDICT_UNSUPPORTED, "the spin lock state at this call is not within "
			      "the one its callee (at %u) was analysed with", cfg->funcs[g].start);
	}
	/* (a callback's or a global function's exit returns to no call that takes its lock state:
	 * bpf_loop's caller, the loader; one that may hold a lock a callee took is not followed) */
	if (cx->lk_in && ebpf_is_exit(i) && s->lk.held && cfg->blocks[cfg->block_of[pc]].func &&
	    !lk_applies(cx, cfg->blocks[cfg->block_of[pc]].func))
		LFAIL(VERDICT_UNSUPPORTED, "the exit of a callback or global function while a spin "
		      "lock may be held: not modeled");
	if (cx->lk_stable && ebpf_is_exit(i) && lk_applies(cx, cfg->blocks[cfg->block_of[pc]].func) &&
	    !lk_within(&s->lk, &cx->lk_out[cfg->blocks[cfg->block_of[pc]].func]))
		LFAIL(VERDICT_UNSUPPORTED, "the spin lock state at this exit is not within the one "
		      "its calls were analysed with");
	if (!ebpf_is_helper_call(i) || !absint_lock_helper(i->imm))
		return false;
	lock = i->imm == BPF_FUNC_spin_lock;
	name = lock ? "bpf_spin_lock" : "bpf_spin_unlock";
	v->checks++;
	if (!(s->init & 2u))
		LFAIL(VERDICT_UNSAFE, "R1 may be read before it is written (not written on some "
		      "path)");
	/* (an extension program takes its target's type, which may be one that cannot use
	 * bpf_spin_lock: check_map_prog_compatibility after resolve_prog_type) */
	if (cx->prog_type == BPF_PROG_TYPE_EXT)
		LFAIL(VERDICT_UNSUPPORTED, "%s in an extension (freplace) program: whether its "
		      "target's type may use spin locks is not known", name);
	if (cfg->blocks[cfg->block_of[pc]].func != 0 &&
	    !(cx->lk_stable && lk_applies(cx, cfg->blocks[cfg->block_of[pc]].func)))
		LFAIL(VERDICT_UNSUPPORTED, "%s outside the main function (a lock taken or released "
		      "across a call) is not modeled%s", name, !cx->lk_in ? "" : !cx->lk_stable ?
		      " (the function summaries did not settle)" : " (in a callback, a global "
		      "function or one whose address is taken)");
	if (lock_elsewhere(cx) && !cx->lk_stable)
		LFAIL(VERDICT_UNSUPPORTED, "%s in a program whose other functions take or release "
		      "locks: not modeled", name);
	if (cx->st.loops->loop_of[cfg->block_of[pc]] != SCEV_NONE)
		LFAIL(VERDICT_UNSUPPORTED, "%s inside a loop is not modeled", name);
	/* ARG_PTR_TO_SPIN_LOCK */
	if (a->kind == AV_TOP)
		LFAIL(VERDICT_UNSUPPORTED, "%s: R1 is not known to be a map value (the lock)",
		      name);
	if (a->kind != AV_PTR || a->region != REGION_MAP_VALUE)
		LFAIL(VERDICT_UNSAFE, "R1 type=%s expected=map_value (%s's struct bpf_spin_lock)",
		      a->kind == AV_SCALAR ? "scalar" : claim_region_name(a->region), name);
	if (a->maybe_null)
		LFAIL(VERDICT_UNSAFE, "R1 type=map_value_or_null expected=map_value (%s: the "
		      "lookup not checked)", name);
	if (!range_is_const(&a->r))
		LFAIL(VERDICT_UNSAFE, "R1 doesn't have constant offset. bpf_spin_lock has to be at "
		      "the constant offset (%s)", name);
	if (a->map >= cx->nmaps)
		LFAIL(VERDICT_UNSUPPORTED, "%s: R1 is a value of a map the program does not define",
		      name);
	for (uint32_t j = 0; j < cx->nmaps; j++)
		if (cx->maps[j].inner && cx->maps[j].inner - 1 == a->map)
			LFAIL(VERDICT_UNSUPPORTED, "%s: a lock of an inner map ('%s'): the kernel "
			      "ties it to the inner map of its lookup, not modeled", name,
			      cx->maps[a->map].name);
	off = lock_off(cx, a->map);
	if (off == -2)
		LFAIL(VERDICT_UNSUPPORTED, "%s: map '%s' holds special fields not placed (in a "
		      "union, or too many)", name, cx->maps[a->map].name);
	if (off < 0)
		LFAIL(VERDICT_UNSAFE, "map '%s' has no valid bpf_spin_lock (%s)",
		      cx->maps[a->map].name, name);
	if (a->r.smin != off)
		LFAIL(VERDICT_UNSAFE, "off %lld doesn't point to 'struct bpf_spin_lock' that is at "
		      "%lld (%s, map '%s')", (long long)a->r.smin, (long long)off, name,
		      cx->maps[a->map].name);
	if (lock) {
		if (s->lk.held)
			LFAIL(VERDICT_UNSAFE, "Locking two bpf_spin_locks are not allowed (a lock "
			      "of map '%s' may be held)", s->lk.map < cx->nmaps ?
			      cx->maps[s->lk.map].name : "?");
		return false;
	}
	if (s->lk.held != LK_HELD)
		LFAIL(VERDICT_UNSAFE, "bpf_spin_unlock without taking a lock%s",
		      s->lk.held ? " (on some path)" : "");
	if (s->lk.map != LK_MAP_ANY && s->lk.map != a->map)
		LFAIL(VERDICT_UNSAFE, "bpf_spin_unlock of different lock (a value of map '%s', the "
		      "lock held is of map '%s')", cx->maps[a->map].name,
		      s->lk.map < cx->nmaps ? cx->maps[s->lk.map].name : "?");
	/* (ids are pcs modulo UINT16_MAX - 3: unique only in programs shorter than that) */
	if (s->lk.map == LK_MAP_ANY || !s->lk.id || s->lk.id != a->id ||
	    cx->len >= UINT16_MAX - 3)
		LFAIL(VERDICT_UNSUPPORTED, "bpf_spin_unlock of a value of map '%s' not known to be "
		      "the one locked (the same run of the same lookup)", cx->maps[a->map].name);
	return false;
}
