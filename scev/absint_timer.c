/* Timers (kernel/bpf/helpers.c: bpf_timer_init, _set_callback, _start, _cancel) in the range
 * analysis and the verdict.
 *
 * A struct bpf_timer is 16 bytes of a map value, at the offset the map's BTF gives
 * (ebpf_map_def.timer: arrays and hashes).  The program hands it to the four helpers and never
 * touches its bytes otherwise: check_map_access refuses any access that overlaps it, a helper's
 * memory argument included ("bpf_timer cannot be accessed directly by load/store").  The
 * helpers' first argument (ARG_PTR_TO_TIMER, process_timer_func) is a map value, not NULL, at a
 * constant offset that is the timer's, of a map whose BTF has one; bpf_timer_init's map (r2)
 * is the map that value belongs to (check_func_arg: "timer pointer in R1 map_uid=... doesn't
 * match map pointer in R2").  A timer map is never one of absint_map_class's classes of maps
 * alike, so a map handle or value here names one map.  Programs of the tracing types (kprobe,
 * tracepoint, perf_event, raw_tracepoint) may not name a map with a timer at all
 * (check_map_prog_compatibility: "tracing progs cannot use bpf_timer yet"; fentry and the other
 * BPF_PROG_TYPE_TRACING programs may).
 *
 * The callback bpf_timer_set_callback takes runs later, on its own, each time the timer fires:
 * not a loop of the program, and nothing of its caller's state reaches it but the timer's map.
 * The kernel verifies it as an async entry (push_async_cb, set_timer_callback_state): a frame
 * of its own, r1 the map (CONST_PTR_TO_MAP), r2 the key (PTR_TO_MAP_KEY: key_size read-only
 * bytes), r3 the value (PTR_TO_MAP_VALUE), of the timer's map, r4-r5 not readable; it must
 * return 0 (callback_ret_range [0, 0]).  Here it is analyzed once, as a function of its own
 * (SCEV_CB_TIMER), from the join of the maps of every bpf_timer_set_callback call that takes
 * it, as bpf_for_each_map_elem's callbacks are (absint_callbacks.c: absint_cb_entry gives its
 * registers, absint_cb_verify_insn checks its exits).  Given the timers of two maps that differ
 * in their names only, it is analyzed once with the lower one standing for both (timer_twins:
 * every check the kernel makes of it once per map comes out the same), no claim names either
 * map (a pointer may be into the other), and bpf_timer_init outside main on their values is
 * unsupported (R2 must be the firing's own map).  Given the timers of maps of different
 * definitions, the first analysis joins their arguments (unsupported there: verify_callback),
 * and the analysis of the program with a copy of the callback per class of maps
 * (absint_timer_plan, scev/contexts.c) analyses each copy for its class, as the kernel verifies
 * it once per map: each copy's verdict is the kernel's walk for that map, and the claims at a
 * callback pc are the join over the copies.  The helpers write the timer's own bytes
 * only, which nothing may read: no effect on the caller's frame or on the packet.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "scev/absint.h"

#define TFAIL(kind_, pc_, ...)                                                                    \
	do {                                                                                      \
		verdict_fail(v, (kind_), (pc_), __VA_ARGS__);                                    \
		return true;                                                                      \
	} while (0)

const struct ebpf_helper_proto *absint_timer_proto(int32_t id)
{
	/* the table's entries (bpf/helper_proto.c), the timer (ARG_PTR_TO_TIMER) and the callback
	 * (ARG_PTR_TO_FUNC) as anything: absint_timer_verify_insn checks them */
	static const struct ebpf_helper_proto protos[] = {
		{ BPF_FUNC_timer_init, { HARG_ANYTHING, HARG_MAP, HARG_ANYTHING }, HRET_INTEGER, 0,
		  INT64_MIN, INT64_MAX, HPT_ALL },
		{ BPF_FUNC_timer_set_callback, { HARG_ANYTHING, HARG_ANYTHING }, HRET_INTEGER, 0,
		  INT64_MIN, INT64_MAX, HPT_ALL },
		{ BPF_FUNC_timer_start, { HARG_ANYTHING, HARG_ANYTHING, HARG_ANYTHING },
		  HRET_INTEGER, 0, INT64_MIN, INT64_MAX, HPT_ALL },
		{ BPF_FUNC_timer_cancel, { HARG_ANYTHING }, HRET_INTEGER, 0, INT64_MIN, INT64_MAX,
		  HPT_ALL },
	};

	for (size_t k = 0; k < sizeof(protos) / sizeof(protos[0]); k++)
		if (protos[k].id == id)
			return &protos[k];
	return NULL;
}

/* Whether maps a and b differ in their names only (type, sizes, entries, flags, the timer's
 * offset; no initial contents, no inner map): a timer callback given the timers of both is
 * analyzed once, as for a (the kernel verifies it once per map, and each of its checks comes out
 * the same for both but the ones naming a map: absint_timer_verify_insn, claimable()). */
static bool timer_twins(const struct scev_ctx *cx, uint32_t a, uint32_t b)
{
	const struct ebpf_map_def *x = &cx->maps[a], *y = &cx->maps[b];

	return a < 64 && b < 64 && x->type == y->type && x->key_size == y->key_size &&
	       x->value_size == y->value_size && x->max_entries == y->max_entries &&
	       x->flags == y->flags && x->timer == y->timer && x->timer && !x->inner &&
	       !y->inner && !x->init && !y->init && !x->nfields && !y->nfields &&
	       !x->fields_over && !y->fields_over;
}

bool absint_timer_aliased(const struct scev_ctx *cx, uint32_t m)
{
	return m < 64 && (cx->timer_alias >> m & 1);
}

uint32_t absint_timer_canon(const struct scev_ctx *cx, uint32_t m)
{
	if (!absint_timer_aliased(cx, m))
		return m;
	for (uint32_t j = 0; j < m; j++)
		if (absint_timer_aliased(cx, j) && timer_twins(cx, j, m))
			return j;
	return m;
}

void absint_timer_call(struct scev_ctx *cx, const struct astate *s, uint32_t pc)
{
	const struct scev_cb_loop *cb = absint_cb_at(cx, pc);
	const struct aval *t = &s->regs[1];
	struct aval a[6], *acc;
	uint32_t m;

	if (cx->timer_site && !cx->first_pass) {
		uint32_t w = t->kind == AV_PTR && t->region == REGION_MAP_VALUE && t->map < cx->nmaps
				     ? t->map + 1u : UINT32_MAX;

		cx->timer_site[pc] = !cx->timer_site[pc] || cx->timer_site[pc] == w ? w : UINT32_MAX;
	}
	if (!cb || !cb->only_bpf_loop || cb->helper != BPF_FUNC_timer_set_callback ||
	    !cx->fn_args_acc)
		return;
	for (int r = 0; r < 6; r++)
		a[r] = aval_top();
	/* (any other r1 fails the call's check: the kernel verifies no callback after it) */
	if (t->kind == AV_PTR && t->region == REGION_MAP_VALUE && !t->maybe_null &&
	    t->map < cx->nmaps) {
		acc = cx->fn_args_acc[cb->func];
		m = t->map;
		/* another map's timers given before, of the same definition: one map for both */
		if ((cx->fn_seen_acc[cb->func] & 1) && acc[3].kind == AV_PTR &&
		    acc[3].region == REGION_MAP_VALUE && acc[3].map < cx->nmaps &&
		    absint_timer_canon(cx, acc[3].map) != absint_timer_canon(cx, m) &&
		    timer_twins(cx, acc[3].map, m))
			cx->timer_alias |= 1ull << acc[3].map | 1ull << m;
		m = absint_timer_canon(cx, m);
		for (int r = 1; r <= 3 && (cx->fn_seen_acc[cb->func] & 1); r++)
			if (acc[r].kind == AV_PTR && acc[r].map < cx->nmaps &&
			    (acc[r].region == REGION_MAP_HANDLE || acc[r].region == REGION_MAP_KEY ||
			     acc[r].region == REGION_MAP_VALUE))
				acc[r].map = (uint16_t)absint_timer_canon(cx, acc[r].map);
		a[1] = aval_ptr(REGION_MAP_HANDLE, (uint16_t)m, range_const(0));
		a[2] = aval_ptr(REGION_MAP_KEY, (uint16_t)m, range_const(0));
		a[3] = aval_ptr(REGION_MAP_VALUE, (uint16_t)m, range_const(0));
	}
	absint_cb_args_join(cx, cb->func, a);
}

/* The class of maps (absint_timer_canon) of the timers the function address loaded at ld is
 * set as the callback of, in the last pass: SCEV_NONE when not reached or not one map. */
static uint32_t site_class(const struct scev_ctx *cx, uint32_t ld)
{
	uint32_t call = scev_cb_call_of(cx->st.cfg, ld), m;

	if (call == SCEV_NONE)
		return SCEV_NONE;
	m = cx->timer_site[call];
	return m && m != UINT32_MAX ? absint_timer_canon(cx, m - 1) : SCEV_NONE;
}

/* A callback the timers of maps of different definitions are given: the kernel verifies it once
 * per map (push_async_cb at each bpf_timer_set_callback), with that map's r1-r3.  Here the
 * function gets a copy per class of maps beyond the first (contexts.c: the copies run the same
 * instructions, and each copy's claims join into the original pcs'), the function addresses at
 * that class's bpf_timer_set_callback calls redirected to it.  Its own address inside it (a
 * callback arming a timer with itself: the kernel selftests' timer_cb1 sets itself on the lru
 * map's timer while it fires for the array's) is a site too, of the class of the timer it is
 * set on: in every copy (the original included) it goes to that class's copy, so a callback
 * set on its own timer again stays in its copy.  Each copy is then analysed with its class's
 * map only, as verify_callback demands: a load of an address not reached, or of a timer not of
 * one map, stays with the original (the first class), whose arguments then join, and the
 * verdict stays unsupported there.  Which copy a site goes to changes no soundness: the
 * copied program is analysed as any program, from the arguments of the calls each copy has. */
int absint_timer_plan(const struct scev_ctx *cx, struct scev_ctx_plan *plan, uint32_t *budget)
{
	uint32_t *lds = NULL, *grp = NULL, *pcs = NULL;
	int err = 0;

	if (!cx->timer_site)
		return 0;
	for (uint32_t k = 0; k < cx->cbl.n && !err; k++) {
		const struct scev_cb_loop *cb = &cx->cbl.v[k];
		uint32_t rep[SCEV_CTX_MAX], clone_at[SCEV_CTX_MAX], ng = 0, n = 0, made = 1;
		uint32_t size = cb->end - cb->header;

		if (!cb->only_bpf_loop || cb->helper != BPF_FUNC_timer_set_callback)
			continue;
		free(lds);
		free(grp);
		lds = malloc(cb->ncalls * sizeof(*lds));
		grp = malloc(cb->ncalls * sizeof(*grp));
		if (!lds || !grp || (!pcs && !(pcs = malloc(cx->len * sizeof(*pcs))))) {
			err = -ENOMEM;
			break;
		}
		/* (every load of its address feeds one bpf_timer_set_callback: only_bpf_loop) */
		for (uint32_t pc = 0; pc < cx->len && n < cb->ncalls;
		     pc += ebpf_insn_slots(&cx->insns[pc])) {
			const struct bpf_insn *i = &cx->insns[pc];
			uint32_t c, j;

			if (!ebpf_is_ldimm64(i) || i->src_reg != BPF_PSEUDO_FUNC ||
			    pc + 1 + (uint32_t)i->imm != cb->header)
				continue;
			lds[n] = pc;
			grp[n] = pc >= cb->header && pc < cb->end ? SCEV_NONE : 0;
			if ((c = site_class(cx, pc)) != SCEV_NONE) {
				for (j = 0; j < ng && rep[j] != c; j++)
					;
				if (j == ng && ng < SCEV_CTX_MAX)
					rep[ng++] = c;
				grp[n] = j < ng ? j : 0;	/* (past the cap: the first) */
			}
			n++;
		}
		clone_at[0] = cb->header;
		for (uint32_t j = 1; j < ng && size <= *budget && !err; j++, made++) {
			uint32_t np = 0;

			for (uint32_t q = 0; q < n; q++)
				if (grp[q] == j && (lds[q] < cb->header || lds[q] >= cb->end))
					pcs[np++] = lds[q];
			clone_at[j] = plan->newlen;
			err = scev_ctx_plan_clone(plan, cb->header, cb->end, pcs, np, true);
			*budget -= size;
		}
		/* its own address inside it, of one class: in copy j (0 the original) to its
		 * class's copy (one not made: the original); of none (the value of the timer it
		 * arms is the firing's own, of every class), in its copy */
		for (uint32_t q = 0; q < n && !err && made > 1; q++) {
			uint32_t to = clone_at[grp[q] < made ? grp[q] : 0];

			if (lds[q] < cb->header || lds[q] >= cb->end || grp[q] == SCEV_NONE)
				continue;
			for (uint32_t j = 0; j < made && !err; j++)
				if (j != (grp[q] < made ? grp[q] : 0))
					err = scev_ctx_plan_push(plan, clone_at[j] + (lds[q] -
										 cb->header), to);
		}
	}
	free(lds);
	free(grp);
	free(pcs);
	return err;
}

bool absint_timer_overlaps(const struct scev_ctx *cx, uint32_t m, __int128 lo, __int128 hi)
{
	uint32_t t;

	if (m >= cx->nmaps || !cx->maps[m].timer)
		return false;
	t = cx->maps[m].timer - 1;
	return lo < (__int128)t + 16 && (__int128)t < hi;
}

/* Whether map m is the template of some map of maps' inner maps. */
static bool inner_template(const struct scev_ctx *cx, uint32_t m)
{
	for (uint32_t j = 0; j < cx->nmaps; j++)
		if (cx->maps[j].inner && cx->maps[j].inner - 1 == m)
			return true;
	return false;
}

/* bpf_timer_set_callback's callback (r2): one absint_callbacks.c analyzed from this map's
 * arguments. */
static bool verify_callback(struct scev_ctx *cx, struct scev_verdict *v, uint32_t pc,
			    uint32_t m)
{
	const struct scev_cb_loop *cb;
	const struct aval *val;
	bool dead;

	if (!(cb = absint_cb_of_call(cx, v, pc, "bpf_timer_set_callback", &dead)))
		return true;
	/* (a dead callback: this call is on a path no run reaches, and the kernel verifies no
	 * callback here) */
	if (dead)
		return false;
	val = &cx->fn_args[cb->func][3];
	if (val->kind != AV_PTR || val->region != REGION_MAP_VALUE ||
	    val->map != absint_timer_canon(cx, m))
		TFAIL(VERDICT_UNSUPPORTED, pc, "bpf_timer_set_callback: the callback at %u is "
		      "given the timers of different maps by its calls (of different definitions; "
		      "analyzed once, for one; the kernel verifies it for each)", cb->header);
	return false;
}

bool absint_timer_verify_insn(struct scev_ctx *cx, struct scev_verdict *v,
			      const struct astate *s, uint32_t pc)
{
	const struct bpf_insn *i = &cx->insns[pc];
	const struct aval *t = &s->regs[1], *map = &s->regs[2];
	const char *name;
	uint32_t m, off;
	int nargs;

	if (!ebpf_is_helper_call(i) || !absint_timer_helper(i->imm))
		return false;
	name = ebpf_helper_name(i->imm);
	nargs = ebpf_helper_proto_nargs(absint_timer_proto(i->imm));
	v->checks++;
	for (int r = 1; r <= nargs; r++)
		if (!(s->init & (1u << r)))
			TFAIL(VERDICT_UNSAFE, pc, "R%d may be read before it is written (not written "
			      "on some path)", r);
	/* ARG_PTR_TO_TIMER */
	if (t->kind == AV_TOP)
		TFAIL(VERDICT_UNSUPPORTED, pc, "%s: R1 is not known to be a map value (the timer)",
		      name);
	if (t->kind != AV_PTR || t->region != REGION_MAP_VALUE)
		TFAIL(VERDICT_UNSAFE, pc, "R1 type=%s expected=map_value (%s's struct bpf_timer)",
		      t->kind == AV_SCALAR ? "scalar" : claim_region_name(t->region), name);
	if (t->maybe_null)
		TFAIL(VERDICT_UNSAFE, pc, "R1 type=map_value_or_null expected=map_value (%s: the "
		      "lookup not checked)", name);
	if (!range_is_const(&t->r))
		TFAIL(VERDICT_UNSAFE, pc, "R1 doesn't have constant offset. bpf_timer has to be at "
		      "the constant offset (%s)", name);
	m = t->map;
	if (m >= cx->nmaps)
		TFAIL(VERDICT_UNSUPPORTED, pc, "%s: R1 is a value of a map the program does not "
		      "define", name);
	if (inner_template(cx, m))
		TFAIL(VERDICT_UNSUPPORTED, pc, "%s: a timer of an inner map ('%s'): the kernel ties "
		      "it to the inner map of its lookup (map_uid), not modeled", name,
		      cx->maps[m].name);
	if (!cx->maps[m].timer)
		TFAIL(VERDICT_UNSAFE, pc, "map '%s' has no struct bpf_timer in its value (the "
		      "kernel: 'has to have BTF in order to use bpf_timer', or 'has no valid "
		      "bpf_timer') (%s)", cx->maps[m].name, name);
	off = cx->maps[m].timer - 1;
	if (t->r.umin != off)
		TFAIL(VERDICT_UNSAFE, pc, "off %lld doesn't point to 'struct bpf_timer' that is at "
		      "%u (%s, map '%s')", (long long)t->r.smin, off, name, cx->maps[m].name);
	/* (a value of an aliased map outside main may be any of them: the map R2 must be is
	 * each firing's own, which one value here cannot tell) */
	if (i->imm == BPF_FUNC_timer_init && absint_timer_aliased(cx, m) &&
	    cx->st.cfg->blocks[cx->st.cfg->block_of[pc]].func != 0)
		TFAIL(VERDICT_UNSUPPORTED, pc, "bpf_timer_init outside main on a timer of map '%s', "
		      "which a callback shares with a map like it: R2 must be each firing's own "
		      "map (not modeled)", cx->maps[m].name);
	if (i->imm == BPF_FUNC_timer_init && map->kind == AV_PTR &&
	    map->region == REGION_MAP_HANDLE && !map->maybe_null && map->map != m)
		TFAIL(VERDICT_UNSAFE, pc, "timer pointer in R1 map_uid=0 doesn't match map pointer "
		      "in R2 map_uid=0 (bpf_timer_init: a value of map '%s', map '%s')",
		      cx->maps[m].name, map->map < cx->nmaps ? cx->maps[map->map].name : "?");
	if (i->imm == BPF_FUNC_timer_set_callback)
		return verify_callback(cx, v, pc, m);
	return false;	/* (the rest is verify_helper's: r2 a map, the program type) */
}

void absint_timer_maps_check(const struct scev_ctx *cx, struct scev_verdict *v)
{
	switch (cx->prog_type) {
	case BPF_PROG_TYPE_KPROBE: case BPF_PROG_TYPE_TRACEPOINT: case BPF_PROG_TYPE_PERF_EVENT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT: case BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE:
		break;
	default:
		return;
	}
	/* (every map the program names, reached or not, as the kernel's resolve_pseudo_ldimm64) */
	for (uint32_t pc = 0; pc < cx->len; pc += ebpf_insn_slots(&cx->insns[pc])) {
		const struct bpf_insn *i = &cx->insns[pc];

		if (!ebpf_is_ldimm64(i) || (i->src_reg != BPF_PSEUDO_MAP_FD &&
					    i->src_reg != BPF_PSEUDO_MAP_IDX &&
					    i->src_reg != BPF_PSEUDO_MAP_VALUE &&
					    i->src_reg != BPF_PSEUDO_MAP_IDX_VALUE) ||
		    (uint32_t)i->imm >= cx->nmaps || !cx->maps[i->imm].timer)
			continue;
		verdict_fail(v, VERDICT_UNSAFE, pc, "tracing progs cannot use bpf_timer yet (map "
			     "'%s' holds a struct bpf_timer)", cx->maps[i->imm].name);
		return;
	}
}
