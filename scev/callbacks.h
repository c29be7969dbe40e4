/* Helper callbacks as loops: bpf_loop(nr, cb, ctx, flags) calls cb(i, ctx) for i = 0, 1, ...
 * until it returns non-zero or nr calls are made (none when flags != 0 or nr, a u32, exceeds
 * BPF_MAX_LOOPS = 2^23).  So the callback is a loop body whose header is its first instruction,
 * entered at each bpf_loop call and iterated once per call of the callback.
 * bpf_for_each_map_elem(map, cb, ctx, flags) likewise calls cb(map, &key, &value, ctx) once per
 * element of the map (an array's max_entries, a hash's elements: at most max_entries) until it
 * returns non-zero (none when flags != 0).  bpf_find_vma(task, addr, cb, ctx, flags), its
 * callback's address in r3, calls cb(task, vma, ctx) at most once; bpf_user_ringbuf_drain(map,
 * cb, ctx, flags) calls cb(dynptr, ctx) once per sample, at most 2^17 times.
 * bpf_timer_set_callback(timer, cb) takes one too (in r2), which is no loop: the timer calls it
 * later, on its own (an async entry, scev/absint_timer.c); it gets no loop claim.
 *
 * A callback is such a loop only when every load of its address goes straight into one helper
 * of those (LD_IMM64, copied from register to register or not, then, in the same block and with
 * the registers holding it neither read otherwise nor written in between, the helper call with
 * it in r2, r3 for bpf_find_vma), the same one for every load, and nothing calls it directly: then
 * every execution of it is one of those calls.  Otherwise it is reported with the reason and no
 * bound.
 */
#ifndef BPFSCEV_SCEV_CALLBACKS_H
#define BPFSCEV_SCEV_CALLBACKS_H

#include <stdbool.h>
#include <stdint.h>

#include "claims/claims.h"
#include "scev/cfg.h"

#define SCEV_MAX_LOOPS (1u << 23)	/* the kernel's BPF_MAX_LOOPS */
#define SCEV_MAX_USER_RINGBUF_SAMPLES (1u << 17)	/* BPF_MAX_USER_RINGBUF_SAMPLES */

struct scev_cb_loop {
	uint32_t func;		/* function id in the cfg */
	uint32_t header;	/* its first pc */
	uint32_t end;		/* one past its last slot */
	uint32_t *calls, ncalls;	/* pcs of the helper calls that take it */
	int32_t helper;		/* BPF_FUNC_loop, _for_each_map_elem, _find_vma, _user_ringbuf_drain,
				 * _timer_set_callback */
	bool only_bpf_loop;	/* every use is one of those calls (of that one helper) */
	char why[120];		/* when not only_bpf_loop */
};

struct scev_cb_loops {
	struct scev_cb_loop *v;
	uint32_t n;
};

/* What the range analysis saw at bpf_loop calls and callback exits, for the trip claims. */
struct scev_cb_facts {
	struct range *nr, *flags;	/* per pc: r1 and r4 at a bpf_loop call, joined */
	uint32_t *entries;	/* per pc: the largest max_entries of the maps a
				 * bpf_for_each_map_elem call walks (CB_MAP_* in seen) */
	uint8_t *seen;		/* per pc: CB_* bits */
	const struct range *ret;	/* per function: r0 at its exits (NULL: unknown) */
	const uint8_t *ret_seen;	/* per function: bit 1 set when ret is known */
};

#define CB_REACHED 1
#define CB_NR_UNKNOWN 2		/* r1 was not a scalar in some state */
#define CB_FLAGS_UNKNOWN 4	/* r4 likewise */
#define CB_MAP_UNKNOWN 8	/* for_each: r1 is not a map whose max_entries is known */
#define CB_MAP_HASH 16		/* for_each: a hash map (elements: up to max_entries) */

/* Joins the r1/r4 of one state reaching the bpf_loop call at pc. */
void scev_cb_facts__note(struct scev_cb_facts *f, uint32_t pc, bool nr_scalar,
			 const struct range *nr, bool flags_scalar, const struct range *flags);
/* Joins the map of one state reaching the bpf_for_each_map_elem call at pc: its largest
 * max_entries and CB_MAP_* bits. */
void scev_cb_facts__note_map(struct scev_cb_facts *f, uint32_t pc, uint32_t entries,
			     uint8_t bits);

/* The helper call the function address the LD_IMM64 at pc loads goes straight to (as callbacks
 * are found), or SCEV_NONE. */
uint32_t scev_cb_call_of(const struct scev_cfg *cfg, uint32_t pc);
/* Whether the function address the LD_IMM64 at pc loads goes straight to a
 * bpf_timer_set_callback call (as callbacks are found): an async callback, which the kernel's
 * check_max_stack_depth walks as a root of its own, not a frame above its caller's. */
bool scev_cb_async_ref(const struct scev_cfg *cfg, uint32_t pc);
/* Finds every function whose address the program loads.  0 or -ENOMEM. */
int scev_cb_loops__find(struct scev_cb_loops *out, const struct scev_cfg *cfg);
void scev_cb_loops__free(struct scev_cb_loops *c);

/* Appends one LOOP_BPF_LOOP claim per callback to out->loops, with a trip claim from the facts
 * (nr = r1 and flags = r4 at each call, r0 at the callback's exits): at most min(nr, 2^23)
 * calls per entry, exactly nr when nr and flags = 0 are constants and the callback always
 * returns 0; and one LOOP_FOR_EACH_MAP_ELEM claim per bpf_for_each_map_elem callback: at most
 * max_entries calls, exactly that many for an array walked with flags 0 by a callback that
 * always returns 0.  A callback whose entry is also a plain loop's header is left out (a header
 * execution would not tell the two loops apart).  0 or -ENOMEM. */
int scev_cb_loops__claim(struct claim_prog *out, const struct scev_cfg *cfg,
			 const struct scev_cb_loops *c, const struct scev_cb_facts *facts,
			 const uint32_t *plain_headers, uint32_t nplain);

#endif
