/* Random structured loop programs: the inputs of the campaign and of the fuzz targets.
 *
 * gen_program() turns a choice source (generators/producer.h: a seeded PRNG, or an arbitrary byte
 * string for the fuzzers) into a valid XDP program built around loop nests — while, do-while and
 * for forms, counters of both widths counting either way with any step, conditions of every kind,
 * bounds from constants, from the input or from outer counters, several exits, conditional
 * updates, derived and spilled counters, stack/map/packet accesses indexed by induction
 * variables, helper and bpf-to-bpf calls, irreducible cycles, wrap-around, huge and possibly
 * endless loops — each shape behind a knob.  Csmith and YARPGen keep loops tame by
 * construction; these are the loops they avoid, because that is where loop analyses go wrong.
 *
 * Programs are well formed for the kernel as a plain XDP program: registers are written before
 * they are read (also r1-r5 after calls), stack accesses stay in [-512, -1] and are written
 * before they are read, packet reads follow a bounds check against data_end, map values are
 * null-checked, the only helpers are bpf_map_lookup_elem on one small array map (a hash map
 * with p_map_hash, which also updates and deletes: generators/gen_hash.c),
 * bpf_ktime_get_ns and bpf_get_prandom_u32.  The verifier may still refuse many of them for
 * their loops (too many states, unbounded loops): that is on purpose.
 *
 * bpf-to-bpf calls (generators/gen_calls.c) come in shapes the kernel accepts and in unsafe
 * twins it refuses, each behind a knob:
 *  - p_subprog: one subprogram f(r1, r2) with loops over its arguments, called from loop bodies;
 *  - p_call_args: two or three such subprograms taking 2-5 arguments, one of which may be a
 *    pointer into the caller's frame (read, then written back), calling each other from loops;
 *  - p_call_chain: main -> f1 -> ... -> fn in straight-line code, 2..9 frames in all; 8 is the
 *    kernel's limit (the safe edge), 9 its unsafe twin, which traps in the interpreter;
 *  - p_big_frame: such a chain whose frames store deep into their stack (up to fp-512) so that
 *    the combined stack, each frame rounded as the kernel rounds it (gen_frame_round()), lands
 *    on 512 bytes, just over it (also when the unrounded sum is under it), or below;
 *  - p_recursion: direct (f -> f), mutual (f -> g -> f) or one level down (main -> s -> f -> f),
 *    unbounded (an unconditional call: the run traps at the interpreter's 8-frame limit) or
 *    bounded (a counter argument stops it within 8 frames: the run ends normally).  The kernel
 *    refuses all of them;
 *  - p_call_pkt: f(data + o) from the prologue, once or twice, reading a byte every call's
 *    check covers (or f(&data), through main's spill; or f(data + k, data_end) comparing, main
 *    reading data + k - 1 where it returned 1); its twin p_call_pkt_over reads at data_end
 *    (GEN_PROG_PKT_UNSAFE; main's read where f returned 0).
 *  - p_call_frames: f(p) reading *p, called with a pointer into main's frame and, through h,
 *    into h's (half the time through a relay m(p) = f(p) that both call); its twin
 *    p_call_frames_past reads past both frames (GEN_PROG_FRAMES_UNSAFE).
 *  - p_frames_reg: a loop in f(p) whose pointer moves from main's frame to f's own (half the
 *    time main's, then h's, then f's own: three frames); its twin p_frames_reg_stuck never
 *    leaves when main's cell is 0 (GEN_PROG_MAY_NOT_TERMINATE).
 *  - p_args_last: f(n) called from a loop with n = 1 .. k, writing n slots of its own k-slot
 *    array; its twin p_args_last_over calls it with n = k + 1 last, writing above its frame
 *    (GEN_PROG_CALL_CTX_UNSAFE).
 *  - p_dynptr_sub: f(&d) uses main's dynptr, or f makes, uses and releases one of its own frame
 *    (gen_dynptr.c); its twin p_dynptr_sub_unsafe uses main's after main discarded it or leaves
 *    its own unreleased (GEN_PROG_DYNPTR_LEAK), or loads past a slice (GEN_PROG_DYNPTR_PAST).
 *  - p_dynptr_sub_make: f(&d, x) makes main's dynptr (a ringbuf record, or a local dynptr over
 *    the map value x) and main releases it, or f(&d, bit) releases main's record (gen_dynptr.c);
 *    its twin p_dynptr_sub_make_unsafe leaks the record f made, has f reserve over main's live
 *    one, or uses or releases again the one f released (GEN_PROG_DYNPTR_LEAK).
 *  - p_dynptr_cb: a bpf_loop callback uses main's dynptr through its context pointer
 *    (gen_dynptr.c); its twin p_dynptr_cb_unsafe has main discard the record before bpf_loop
 *    (GEN_PROG_DYNPTR_LEAK) or the callback load past a slice (GEN_PROG_DYNPTR_PAST).
 *  - p_dynptr_deep: main's dynptr handed two levels down, main -> m(&d, x) -> f(&d, x), f using,
 *    making or releasing it (gen_dynptr.c); its twin p_dynptr_deep_unsafe uses a released
 *    record, leaks a made one (GEN_PROG_DYNPTR_LEAK) or loads past a slice
 *    (GEN_PROG_DYNPTR_PAST).
 *  - p_dynptr_cb_make: a bpf_loop callback makes or releases main's dynptr through its context
 *    pointer (gen_dynptr.c); its twin p_dynptr_cb_make_unsafe only discards main's record or
 *    leaves one it reserved there (GEN_PROG_DYNPTR_LEAK: the second call fails).
 *  - p_dynptr_keyed: f(&d, x) reserves or discards main's record on some paths only, saying so by
 *    its result, which main tests (gen_dynptr.c); its twin p_dynptr_keyed_unsafe takes the
 *    other side of the test (GEN_PROG_DYNPTR_LEAK).
 *  - p_dynptr_mid: main's dynptr handed through a middle function holding a record of its own
 *    (gen_dynptr.c); its twin p_dynptr_mid_unsafe leaves that record (GEN_PROG_DYNPTR_LEAK).
 *  - p_dynptr_global: a global function given main's dynptr (gen_dynptr.c); its twin
 *    p_dynptr_global_unsafe uses a released record (GEN_PROG_DYNPTR_LEAK) or loads past a slice
 *    (GEN_PROG_DYNPTR_PAST).
 *  - p_sub_ret_ptr: f(key) returns map 0's value (at an offset) or NULL, main loads through it
 *    after a NULL test of it, a copy or a spill (gen_subret.c); its twin p_sub_ret_ptr_bad loads
 *    untested through NULL or past the value (GEN_PROG_SUB_RET_UNSAFE).
 *  - p_sub_ref: a fields map value's spin lock taken and released across static functions
 *    (gen_subref.c); its twin p_sub_ref_bad never releases it, calls a helper under it in the
 *    callee, takes it twice or releases it twice (GEN_PROG_SUB_REF_UNSAFE).
 * Programs without GEN_PROG_CALLS_UNSAFE keep every promise above; those with it keep them all
 * except the kernel's rules on calls (recursion, at most 8 frames, at most 512 bytes of combined
 * stack), and run in the interpreter like any other (GEN_PROG_CALL_TRAP when a run may stop at
 * the interpreter's copy of those limits).  Likewise GEN_PROG_NULL_UNSAFE (p_null_stale, the
 * unsafe twin of p_null_copy) breaks only the promise on null checks, and
 * GEN_PROG_STACK_UNWRITTEN (p_array_fill_short) only the one on stack bytes written first, and
 * GEN_PROG_ALIGN_UNSAFE (p_stack_align_bad, generators/gen_align.c) only the kernel's rule that
 * stack accesses are aligned to their size, which no run shows, and GEN_PROG_KRULE_UNSAFE
 * (p_krules_bad, generators/gen_krules.c) only the kernel's rules on spills and shifts, and
 * GEN_PROG_KWIDEN_UNSAFE (p_kwiden_copy) only the kernel's widening at an iterator's next or a
 * may_goto, GEN_PROG_JEQ_UNSAFE (p_jeq_null_stack) only its NULL test of a map value, and
 * GEN_PROG_DEAD_ARM_UNSAFE (p_dead_arm_reached, generators/gen_kwalk.c) only its walk's arms:
 * a pointer's narrow spill (no run shows it) or a write to r10 (INTERP_TRAP_RULE where run),
 * and GEN_PROG_STACK_SHAPE_UNSAFE (p_frame_fields_over, p_fill_join_narrow, p_stack_walk_over,
 * generators/gen_stack.c) only the kernel's spill tracking: a spilled pointer stored over by a
 * callee or a loop, then loaded through (INTERP_TRAP_MEM where the address left the packet), or
 * one spilled on some paths read back narrower (no run shows it).
 * gen_program.funcs and the call-graph fields say which shape was emitted.
 *
 * The input is the packet: GEN_INPUT_LEN bytes.  The prologue loads data and data_end from
 * xdp_md (4-byte loads at 0 and 4), returns 0 when data + GEN_INPUT_LEN > data_end, and spills
 * the packet pointers to fp-8 and fp-16 for later reads.  The program returns its accumulator.
 * With p_find_vma (or its twin) drawn, the program is a raw tracepoint instead (bpf_find_vma is a
 * tracing helper): the input is its arguments, GEN_INPUT_LEN / 8 u64s read-only (BPF_PROG_TEST_RUN's
 * ctx_in), the prologue spills the context pointer to fp-8, every input read is a constant-offset
 * context load of its size aligned (as raw_tp_prog_is_valid_access demands), and nothing that needs
 * a packet or a program type of the network (p_pkt, the prologue's pieces, the other callback
 * forms, timers, p_ptr_alu) is drawn.
 *
 * The generator also writes down what it meant (struct gen_loop): each loop's header, body,
 * counter, step and trip count — computed exactly from the constants over every input the
 * masked operands allow, with the wrap-exact arithmetic of gen_first_exit() — so tests and the
 * campaign can hold the analyzer and the oracles against an independent statement of intent.
 */
#ifndef BPFSCEV_GENERATORS_GEN_H
#define BPFSCEV_GENERATORS_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf/prog.h"
#include "claims/loc.h"
#include "generators/producer.h"
#include "util/sbuf.h"

#define GEN_INPUT_LEN 64	/* packet bytes every generated program reads (and requires) */
/* gen_program.input's room: an sk_reuseport program's input is its struct sk_reuseport_md (56
 * bytes) then the GEN_INPUT_LEN-byte packet, an sk_lookup one's its struct bpf_sk_lookup (72),
 * an sk_msg one's its struct sk_msg_md (80) then the message */
#define GEN_INPUT_MAX (GEN_INPUT_LEN + 80)
#define GEN_HELPER_LEN 64	/* bytes of helper results supplied with each program */
#define GEN_MAX_LOOPS 48
#define GEN_MAX_IVS 4
#define GEN_MAX_INSNS 2048	/* hard limit; knobs.max_insns is the soft target */

/* Fixed stack layout of the main frame (offsets from r10). */
#define GEN_FP_DATA (-8)	/* spilled packet data pointer */
#define GEN_FP_DATA_END (-16)	/* spilled packet end pointer */
#define GEN_FP_KEY (-24)	/* u32 key of map lookups */
#define GEN_FP_ARRAY (-320)	/* 64-byte array indexed by IVs, zeroed up front */
#define GEN_FP_CELL (-232)	/* u64 written before a call that passes a pointer to it */
#define GEN_FP_VALUE (-240)	/* a map lookup's result spilled (p_null_copy, p_null_stale) */
#define GEN_FP_BOUND (-248)	/* p_call_bound: the n whose address the prologue passes (not
				 * GEN_FP_CELL, which p_call_args's callees write through theirs) */
#define GEN_FP_ITER (-328)	/* p_iter_num: the iterator (8 aligned bytes) */
#define GEN_FP_ITER_SUM (-336)	/* p_iter_num: the sum of its values */
#define GEN_FP_CB_CTX (-352)	/* p_cb_count: the bpf_loop ctx { u64 i; u64 *p; } */
#define GEN_FP_CB_CELL (-360)	/* p_cb_count: the cell ctx.p points to */
#define GEN_FP_TIMER (-368)	/* p_timer: the timer's map value, across the helper calls */
/* p_dynptr, in the cells of statements that never run inside one (so main's frame stays as
 * deep): the dynptr (16 bytes, p_cb_count's ctx), the loop's index and the sum of what it read
 * (p_iter_num's iterator and sum), bpf_dynptr_read's and _write's bytes (p_cb_count's cell) */
#define GEN_FP_DYNPTR (-352)
#define GEN_FP_DYNPTR_IDX (-328)
#define GEN_FP_DYNPTR_SUM (-336)
#define GEN_FP_DYNPTR_TMP (-360)
/* p_iter_bits, in the cells of statements that never run inside one: the iterator (16 bytes,
 * p_cb_count's ctx) and its two words (p_timer's value and p_cb_count's cell); the sum of its
 * values p_iter_num's */
#define GEN_FP_BITS (-352)
#define GEN_FP_BITS_WORDS (-368)
/* p_dynptr_kf (a prologue loop, before the statements): the context spilled by the prologue,
 * then the slices' buffer (p_dynptr's tmp), and the clone (p_iter_num's iterator and sum) */
#define GEN_FP_DKF_CTX (-360)
#define GEN_FP_DKF_CLONE (-336)
/* p_iter_task: the task iterator (24 bytes) and the task_vma iterator (8), below every other
 * cell (each family its own slot: bpfscev does not tell apart slots that hold iterators of
 * several families); their sum p_iter_num's */
#define GEN_FP_TASK (-392)
#define GEN_FP_TASK_VMA (-400)
/* the most objects an iterator over kernel objects walks in the interpreter's runs
 * (oracle/exec/interp.c: iter_obj, 0 to 3 drawn) */
#define GEN_ITER_OBJS 3

/* The kernel's limits on bpf-to-bpf calls, which the interpreter shares for frames. */
#define GEN_MAX_FUNCS 16	/* main and its subprograms */
#define GEN_MAX_BPF_LOOPS (1u << 23)	/* bpf_loop's largest nr, the may_goto budget (count-based) */
#define GEN_MAX_FRAMES 8	/* frames of a call chain, main included */
#define GEN_MAX_STACK 512	/* combined stack of a call chain, frames rounded */
#define GEN_UNBOUNDED UINT32_MAX	/* max_frames, max_stack of unbounded recursion */

/* The one map a program may use: an array map of GEN_MAP_ENTRIES values of 64 bytes. */
#define GEN_MAP_VALUE_SIZE 64
#define GEN_MAP_ENTRIES 4
/* p_ringbuf: map 1 is a ring buffer of GEN_RINGBUF_SIZE bytes (map 0 the array map, defined
 * whether used or not), whose records are GEN_RINGBUF_RECORD bytes */
#define GEN_MAP_RINGBUF 1
/* p_urb: map 2 is a user ring buffer of GEN_RINGBUF_SIZE bytes (maps 0 and 1 defined whether used
 * or not); the interpreter's runs give its callback at most GEN_URB_RUN_SAMPLES samples per
 * drain (oracle/exec/interp.h), the kernel's test runs none (nothing writes it) */
#define GEN_MAP_URB 2
#define GEN_URB_RUN_SAMPLES 3
/* p_timer: map 3 is an array of GEN_TIMER_ENTRIES values of GEN_TIMER_VALUE bytes holding a
 * struct bpf_timer at GEN_TIMER_OFF (ebpf_map_def.timer; maps 0-2 defined whether used or not) */
#define GEN_MAP_TIMER 3
#define GEN_TIMER_ENTRIES 2
#define GEN_TIMER_VALUE 32
#define GEN_TIMER_OFF 8
/* p_timer_two: map 4 is an array of GEN_TIMER_ENTRIES values of GEN_TIMER2_VALUE bytes, its
 * struct bpf_timer at GEN_TIMER_OFF too: a definition other than map 3's, whose timer a
 * statement's callback is set for as well */
#define GEN_MAP_TIMER2 4
#define GEN_TIMER2_VALUE 48
/* p_map_hash: map 0 is a hash map instead, of GEN_MAP_ENTRIES elements (an LRU hash map:
 * GEN_MAP_LRU_ENTRIES, so that the kernel differential compares it: kdiff.c's LRU rule) */
#define GEN_MAP_LRU_ENTRIES 256
/* ... and a HASH or PERCPU_HASH of GEN_MAP_HASH_KEYS when the twins that put their element in
 * first are on (p_null_stale, p_map_u64_ptr_bad): every key any statement inserts (0-7) fits */
#define GEN_MAP_HASH_KEYS 8
/* p_map_field: map 5 is an array of GEN_FIELDS_ENTRIES values of GEN_FIELDS_VALUE bytes holding a
 * struct bpf_spin_lock at GEN_FIELDS_LOCK and a __kptr_untrusted to a task_struct at
 * GEN_FIELDS_KPTR (ebpf_map_def.fields; maps 1-4 defined whether used or not) */
#define GEN_MAP_FIELDS 5
#define GEN_FIELDS_ENTRIES 2
#define GEN_FIELDS_VALUE 32
#define GEN_FIELDS_LOCK 4
#define GEN_FIELDS_KPTR 8
/* p_access: map 6 is an array of one value of GEN_ACCESS_VALUE bytes, BPF_F_RDONLY_PROG (with
 * initial contents: frozen) or BPF_F_WRONLY_PROG (maps 0-5 defined whether used or not) */
#define GEN_MAP_ACCESS 6
#define GEN_ACCESS_VALUE 16
/* p_sock's socket-map form: map 7 is a sockmap or sockhash of one socket (maps 0-6 defined
 * whether used or not) */
#define GEN_MAP_SOCK 7
/* p_cg_storage: map 8 a cgroup storage of 64 bytes, map 9 a per-CPU one of 8 (maps 0-7 defined,
 * map 7 a sockmap nothing uses) */
#define GEN_MAP_CGS 8
#define GEN_MAP_PCGS 9
#define GEN_CGS_VALUE 64
/* p_queue: map 10 a queue of GEN_QUEUE_ENTRIES values of 8 bytes, map 11 a stack of as many of 16
 * (maps 0-9 defined: 8 and 9 the cgroup storages of a cgroup_skb program, else unused arrays) */
#define GEN_MAP_QUEUE 10
#define GEN_MAP_STACK 11
#define GEN_QUEUE_ENTRIES 4
#define GEN_RINGBUF_SIZE 4096
#define GEN_RINGBUF_RECORD 16

/* Locations (metadata such as gen_iv.loc) are claims/loc.h's loc_t, so metadata and claims
 * compare directly. */

/* Knobs: X(name, default, min, max, what).  Probabilities are percentages; "weight" fields are
 * relative weights among loop forms.  The default mix reaches every shape at least once in a few hundred
 * programs while keeping programs small (about 30-200 instructions) and runs short (total steps
 * per input under step_budget unless the program is marked GEN_PROG_HUGE or may not terminate). */
#define GEN_KNOBS(X)                                                                               \
	X(max_depth, 4, 1, 4,                                                                      \
	  "deepest loop nest (1..4 in main, subprogram loops are at most 2 deep)")                 \
	X(max_nests, 2, 1, 8, "top-level loop nests per program (at least 1)")                     \
	X(max_stmts, 3, 1, 8, "statements per loop body (at least 1)")                             \
	X(max_insns, 200, 40, 1536, "soft size limit: no new statement or loop starts beyond it")  \
	X(max_trip, 40, 1, 1000000,                                                                \
	  "largest trip count of an ordinary loop (huge loops exceed it)")                         \
	X(step_budget, 100000, 1, UINT32_MAX,                                                      \
	  "instructions a run may take; larger bounds mark GEN_PROG_HUGE")                         \
	X(w_while, 30, 0, 1000, "weight: while loop, test at the top")                             \
	X(w_while_bottom, 15, 0, 1000,                                                             \
	  "weight: while loop entered by a jump to its test at the bottom")                        \
	X(w_do_while, 25, 0, 1000, "weight: do-while loop")                                        \
	X(w_for, 30, 0, 1000, "weight: for loop as compilers emit it (guard, then a do-while)")    \
	X(p_nest, 35, 0, 100, "a body statement is an inner loop")                                 \
	X(p_down, 40, 0, 100, "the counter counts down")                                           \
	X(p_big_step, 25, 0, 100, "the step is not +-1 (any size, up to 2^62)")                    \
	X(p_ctr32, 30, 0, 100, "the counter is 32-bit (ALU32)")                                    \
	X(p_cmp_mix, 20, 0, 100,                                                                   \
	  "the condition's width differs from the counter's (JMP32 on 64, JMP on 32)")             \
	X(p_signed, 35, 0, 100, "the condition is signed")                                         \
	X(p_eqne, 20, 0, 100, "the condition is == or !=")                                         \
	X(p_bound_input, 25, 0, 100, "the bound is read from the input and masked")                \
	X(p_bound_outer, 25, 0, 100, "an inner loop's bound is an outer counter, masked")          \
	X(p_init_input, 10, 0, 100, "the counter starts from a masked input value")                \
	X(p_bound_reg, 15, 0, 100, "a constant bound sits in a register (LD_IMM64 when it must)")  \
	X(p_break, 15, 0, 100, "a body statement is a conditional break")                          \
	X(p_break_outer, 30, 0, 100, "a break leaves an enclosing loop too")                       \
	X(p_return, 4, 0, 100, "a body statement returns from the function")                       \
	X(p_continue, 15, 0, 100, "a body statement is a conditional continue")                    \
	X(p_cond_update, 15, 0, 100, "the counter's update depends on the path")                   \
	X(p_derived, 30, 0, 100, "the loop has a derived induction variable")                      \
	X(p_spill, 20, 0, 100,                                                                     \
	  "a variable lives in a stack slot, spilled and filled at each use")                      \
	X(p_caller_home, 25, 0, 100,                                                               \
	  "a variable lives in r1-r5, spilled and filled around calls")                            \
	X(p_array, 30, 0, 100, "the program uses the stack array (reads indexed by an IV)")        \
	X(p_indirect_write, 50, 0, 100, "an array access is an indirect write to the stack")       \
	X(p_map, 15, 0, 100, "the program uses an array map indexed by an IV")                     \
	X(p_map_percpu, 0, 0, 100,                                                                 \
	  "the program's array map (map 0) is a per-CPU array: each CPU its own values, a run "    \
	  "the one of its CPU (the kernel differential compares that CPU's)")                      \
	X(p_pkt, 15, 0, 100, "the program reads the packet at IV-indexed offsets")                 \
	X(p_array_fill, 0, 0, 100,                                                                 \
	  "the stack array is written by a loop (a[i] = i, i < 8) instead of eight stores")       \
	X(p_array_fill_short, 0, 0, 100,                                                           \
	  "unsafe twin of p_array_fill: the loop stops one element short (a[7] never written)")   \
	X(p_loop_def, 0, 0, 100,                                                                   \
	  "a loop run at least once writes a register and a stack slot in every iteration, read "  \
	  "after it")                                                                               \
	X(p_loop_def_early, 0, 0, 100,                                                             \
	  "unsafe twin of p_loop_def: the loop may run no iteration (both read unwritten)")        \
	X(p_loop_once, 0, 0, 100,                                                                  \
	  "a loop whose exit test always holds on its first pass (r3 = x & 7; if r3 < 8 break): "  \
	  "its back edge is never taken")                                                           \
	X(p_loop_once_back, 0, 0, 100,                                                             \
	  "unsafe twin of p_loop_once: x & 15, and x unchanged: endless when x & 15 >= 8")         \
	X(p_cut_exits, 0, 0, 100,                                                                  \
	  "a loop of the prologue whose exit tests sit on different paths, one on every cycle")    \
	X(p_cut_exits_open, 0, 0, 100,                                                             \
	  "unsafe twin of p_cut_exits: a path the input takes forever tests nothing or ==")       \
	X(p_eq_paths, 0, 0, 100,                                                                   \
	  "a loop of the prologue stepping by s1 or s2 per path until it equals a*s1 + b*s2, a+b = K") \
	X(p_eq_paths_miss, 0, 0, 100,                                                              \
	  "unsafe twin of p_eq_paths: no exit at a multiple of s1: endless on the s1 path")       \
	X(p_iter_search, 0, 0, 100,                                                                \
	  "the prologue searches an iterator's values: found = 1, elem = v; if (found) *elem")     \
	X(p_iter_search_unset, 0, 0, 100,                                                          \
	  "unsafe twin of p_iter_search: found set for every value, elem never: reads NULL")      \
	X(p_toggle, 0, 0, 100,                                                                     \
	  "a loop of the prologue whose counter is a toggle (x ^= c, x = -x, x = c - x): twice")    \
	X(p_toggle_open, 0, 0, 100,                                                                \
	  "unsafe twin of p_toggle: the toggle starts from the input, endless unless at c0")       \
	X(p_zext_mix, 0, 0, 100,                                                                   \
	  "a loop of the prologue: a 64-bit counter also stepped by w1 += c or zext32(x) + c")     \
	X(p_zext_mix_wrap, 0, 0, 100,                                                              \
	  "unsafe twin of p_zext_mix: it starts near 2^32, where the 32-bit form wraps")          \
	X(p_mono_range, 0, 0, 100,                                                                 \
	  "a loop of the prologue: x += (x > t ? x : c), a step known only as a range, >= 1")      \
	X(p_mono_range_zero, 0, 0, 100,                                                            \
	  "unsafe twin of p_mono_range: x & 1 above t, a step range with 0 in it: endless")        \
	X(p_start_range, 0, 0, 100,                                                                \
	  "a loop of the prologue: i = data[b] & 63; do read fp[i - 64], i += s while i < n <= 64")     \
	X(p_start_range_over, 0, 0, 100,                                                           \
	  "unsafe twin of p_start_range: n = 64 + s, its last read past the frame's top")          \
	X(p_wrap_window, 0, 0, 100,                                                                \
	  "a 32-bit counter from c + data[11] & 3 up by about 2^32 / d while <= n: it passes its "   \
	  "narrow exit range by wrapping and lands in it later (within 4096 steps)")                \
	X(p_wrap_window_never, 0, 0, 100,                                                          \
	  "unsafe twin of p_wrap_window: the step is 2^31, and neither value the counter holds is " \
	  "in the exit range: endless")                                                             \
	X(p_eq_outer, 0, 0, 100,                                                                   \
	  "a nest: the inner loop steps by an odd s until it equals c - X * s of the outer X")     \
	X(p_eq_outer_off, 0, 0, 100,                                                               \
	  "unsafe twin of p_eq_outer: an even step and a bound one past its multiples: endless")   \
	X(p_inner_steps, 0, 0, 100,                                                                \
	  "a nest: the inner loop adds d to the outer counter on the iterations the input picks")  \
	X(p_inner_steps_still, 0, 0, 100,                                                          \
	  "unsafe twin of p_inner_steps: no step of its own: endless when the input picks none")   \
	X(p_side_steps, 0, 0, 100,                                                                 \
	  "a nest: an irreducible inner loop, entered where the input picks, moves the outer "     \
	  "counter")                                                                                \
	X(p_side_steps_still, 0, 0, 100,                                                           \
	  "unsafe twin of p_side_steps: no step of its own: endless when the side entry is taken")  \
	X(p_mixed_steps, 0, 0, 100,                                                                \
	  "a nest: the inner loop steps the outer counter at 32 bits (w1 += d) on the iterations " \
	  "the input picks and leaves it alone on the others")                                     \
	X(p_mixed_steps_still, 0, 0, 100,                                                          \
	  "unsafe twin of p_mixed_steps: no step of its own: endless when the input picks none")   \
	X(p_irr_side_only, 0, 0, 100,                                                              \
	  "a loop of the prologue: an irreducible loop entered only at one entry, the other's "   \
	  "edge dead by a test the constants decide (maybe in a plain loop)")                     \
	X(p_irr_side_only_bad, 0, 0, 100,                                                          \
	  "unsafe twin of p_irr_side_only: a load above the frame or through NULL where only the " \
	  "live entry's path reaches, or no step (endless)")                                       \
	X(p_rotated_eq, 0, 0, 100,                                                                 \
	  "a loop of the prologue a compiler rotated: if (x != n) do x++; while (x != n), x and n " \
	  "from the input, x in a stack slot or a register (the guard bounds the == exit)")         \
	X(p_rotated_eq_open, 0, 0, 100,                                                            \
	  "unsafe twin of p_rotated_eq: the guard tests x + 1, so x == n enters: endless")          \
	X(p_outer_continue, 0, 0, 100,                                                             \
	  "a nest of the prologue whose inner loop jumps back to the outer header (continue "      \
	  "outer) after adding 1 to the outer counter: an outer back edge from inside an inner loop")\
	X(p_outer_continue_still, 0, 0, 100,                                                       \
	  "unsafe twin of p_outer_continue: the jump back comes before the add: endless on "        \
	  "data[14] & 7 = 1")                                                                       \
	X(p_shift_ident, 0, 0, 100,                                                                \
	  "a nest of the prologue whose outer counter an exact inner loop moves by k * m, then "    \
	  "x <<= s; x >>= s (64- or 32-bit), identities while x < 2^(W-s)")                       \
	X(p_shift_ident_wrap, 0, 0, 100,                                                           \
	  "unsafe twin of p_shift_ident: x starts 16 below 2^(W-s) and is bounded past it, so the " \
	  "shifts drop its top bit: endless")                                                      \
	X(p_outer_latch, 0, 0, 100,                                                                \
	  "a nest of the prologue whose outer exit is on the outer latch, with a copy of it where " \
	  "the inner loop jumps back to the outer header (continue outer)")                        \
	X(p_outer_latch_still, 0, 0, 100,                                                          \
	  "unsafe twin of p_outer_latch: the jump back comes before the add: endless on "           \
	  "data[14] & 7 = 1")                                                                       \
	X(p_bound_body, 0, 0, 100,                                                                 \
	  "a loop of the prologue whose bound is recomputed in the body from a loop-invariant "     \
	  "value (b = n & mask in every iteration, n a 16-bit word of the input)")                 \
	X(p_bound_body_counter, 0, 0, 100,                                                         \
	  "unsafe twin of p_bound_body: the bound is recomputed from the counter (b = i + s + 1): " \
	  "endless")                                                                                \
	X(p_dead_branch, 0, 0, 100,                                                                \
	  "a loop of the prologue: a plain loop reached only through a branch the constants "     \
	  "decide (the dead arm skips it or enters it too; maybe in a plain loop)")               \
	X(p_dead_branch_bad, 0, 0, 100,                                                            \
	  "unsafe twin of p_dead_branch: the live arm's pointer above the frame or NULL, or no "  \
	  "step (endless from the live start only)")                                               \
	X(p_dead_outer, 0, 0, 100,                                                                 \
	  "a loop of the prologue: an outer loop entered only at its inner loop's preheader, or " \
	  "a nest whose edge into that preheader is dead, as the constants decide")               \
	X(p_dead_outer_bad, 0, 0, 100,                                                             \
	  "unsafe twin of p_dead_outer: a load above the frame or through NULL in the outer "     \
	  "loop's first block, or no outer or inner step (endless)")                              \
	X(p_dead_call, 0, 0, 100,                                                                  \
	  "the prologue calls a subprogram loop (p_call_bound's f(&n)) on both arms of a branch "  \
	  "the constants decide: n a constant on the live arm, the input's number on the dead one") \
	X(p_dead_call_bad, 0, 0, 100,                                                              \
	  "unsafe twin of p_dead_call: the live call passes the input's number, the dead one the " \
	  "constant (endless on all-ones input)")                                                   \
	X(p_dead_cb, 0, 0, 100,                                                                    \
	  "the prologue calls bpf_loop(n, cb, NULL) only on the dead arm of a branch the "         \
	  "constants decide; cb reads and writes through its ctx")                                  \
	X(p_dead_cb_bad, 0, 0, 100,                                                                \
	  "unsafe twin of p_dead_cb: the call is on the live arm (every run's callback loads "      \
	  "through NULL)")                                                                          \
	X(p_cell_shapes, 0, 0, 100,                                                                \
	  "a loop of the prologue: a spilled counter beside a slot its two paths store as 8 and " \
	  "as 4 bytes")                                                                             \
	X(p_cell_shapes_cut, 0, 0, 100,                                                            \
	  "unsafe twin of p_cell_shapes: the counter itself stored as 4 bytes of 0 on one path: "  \
	  "endless on an odd data[9]")                                                              \
	X(p_enum_cell, 0, 0, 100,                                                                  \
	  "a loop of the prologue: w1 += s or 0 as the low bit of a slot computed from w1 picks, " \
	  "while w1 s<= n (known numbers only: a chain of header states that ends)")                \
	X(p_enum_cell_stuck, 0, 0, 100,                                                            \
	  "unsafe twin of p_enum_cell: the slot is 1 in every iteration: endless unless data[9] & 2") \
	X(p_pkt_len, 0, 0, 100,                                                                    \
	  "len = data_end - (data + 0 or 16) before a loop reading the packet at i < len && "     \
	  "i < 96 (a relational bound)")                                                            \
	X(p_pkt_len_over, 0, 0, 100,                                                               \
	  "unsafe twin of p_pkt_len: i <= len, the last read at data_end")                         \
	X(p_pkt_join, 0, 0, 100,                                                                   \
	  "packet pointers of two variable bases (data + x, data + y + b) joined, then one copy "  \
	  "checked against data_end and the other read within it (gen_pkt.c)")                     \
	X(p_pkt_join_past, 0, 0, 100,                                                              \
	  "unsafe twin of p_pkt_join: the read is GEN_INPUT_LEN bytes past the joined pointer, "   \
	  "past data_end on every run")                                                             \
	X(p_pkt_var, 0, 0, 100,                                                                    \
	  "data + var (+ n) checked against data_end, then read through data + var within the n " \
	  "bytes its id was given (gen_pkt_var.c)")                                                 \
	X(p_pkt_var_data, 0, 0, 100,                                                               \
	  "unsafe twin of p_pkt_var: data itself read past what the check of data + var proves "   \
	  "(past data_end, or where no run passes it), or data + 40 - var read")                  \
	X(p_ptr_join, 0, 0, 100,                                                                   \
	  "a register is the packet's data or a stack pointer by the packet's first byte, or one " \
	  "of two constant packet offsets each checked on its own path, then read through "        \
	  "(pointers joined: the verdict's path states)")                                          \
	X(p_ptr_join_over, 0, 0, 100,                                                              \
	  "unsafe twin of p_ptr_join: on the odd path the read is past the frame's top or takes "  \
	  "the byte at data_end")                                                                   \
	X(p_identity, 0, 0, 100,                                                                   \
	  "the counter passes an identity chain before its step (negated twice at 64 bits, "      \
	  "be32 twice at 32); also a prologue loop whose counter does (neg or be32 pairs)")         \
	X(p_identity_once, 0, 0, 100,                                                              \
	  "unsafe twin of p_identity: the prologue loop's counter is negated once: it toggles "    \
	  "between 0 and 1 for ever")                                                               \
	X(p_spill_call, 0, 0, 100,                                                                 \
	  "a loop of the prologue whose counter lives in a stack slot across a helper call that "  \
	  "writes another slot (bpf_probe_read_kernel)")                                           \
	X(p_spill_call_clobber, 0, 0, 100,                                                         \
	  "unsafe twin of p_spill_call: the helper writes the counter's slot, which the != test "  \
	  "then meets only by chance: endless")                                                     \
	X(p_helper_mem, 0, 0, 100,                                                                 \
	  "a loop body has bpf_probe_read_kernel write 8 bytes to a[iv & 7] of the stack array")  \
	X(p_helper_mem_over, 0, 0, 100,                                                            \
	  "unsafe twin of p_helper_mem: index 1-7 put the destination at or past the frame's "    \
	  "top")                                                                                    \
	X(p_helper_zero, 0, 0, 100,                                                                \
	  "a loop body hands bpf_probe_read_kernel 0 bytes at fp-512 + 64 * (iv & 7): the frame's "\
	  "first slot to fp-64 (a zero-sized access must still start in a slot)")                  \
	X(p_helper_zero_over, 0, 0, 100,                                                           \
	  "unsafe twin of p_helper_zero: 0 bytes at fp+8 + 64 * (iv & 7), past the frame's top "   \
	  "(the kernel checks a zero-sized access's bounds too)")                                  \
	X(p_helper_str, 0, 0, 100,                                                                 \
	  "a loop body reads a string into 16 bytes of the stack array (bpf_probe_read_kernel_str) "\
	  "and, when the length is positive, the byte before it: the kernel bounds the result by "\
	  "the size (do_refine_retval_range)")                                                      \
	X(p_helper_str_neg, 0, 0, 100,                                                             \
	  "unsafe twin of p_helper_str: the byte at the length is read unchecked, and an error "   \
	  "(down to -4095) puts it below the frame")                                                \
	X(p_null_copy, 0, 0, 100,                                                                  \
	  "a map lookup's result is copied or spilled and null-checked through another copy")     \
	X(p_null_stale, 0, 0, 100,                                                                 \
	  "unsafe twin of p_null_copy: an earlier lookup's spilled result is read after a check "  \
	  "of a later one's")                                                                       \
	X(p_outer_mod, 20, 0, 100, "an inner loop changes an outer loop's variables")              \
	X(p_outer_back, 0, 0, 100,                                                                 \
	  "an inner loop moves an outer counter against its direction (may not end; main only)")   \
	X(p_wrap, 15, 0, 100, "the counter starts near 0, 2^31, 2^32 or 2^63 and may wrap")        \
	X(p_nonterminating, 2, 0, 100,                                                             \
	  "the program has a loop that may not terminate for some inputs (one of its first 3)")    \
	X(p_huge, 2, 0, 100,                                                                       \
	  "the program has a loop of 10^5..2^64 iterations (one of its first 3; GEN_LOOP_HUGE)")   \
	X(p_irreducible, 8, 0, 100, "a loop is an irreducible cycle with two entries")             \
	X(p_call, 10, 0, 100, "a body statement calls bpf_get_prandom_u32 or bpf_ktime_get_ns")    \
	X(p_subprog, 12, 0, 100, "the program has a subprogram called from loop bodies")          \
	X(p_call_args, 3, 0, 100,                                                                  \
	  "2-3 subprograms with 2-5 arguments (maybe a stack pointer) calling each other")         \
	X(p_call_chain, 2, 0, 100, "main calls a chain of subprograms, 2..9 frames deep")          \
	X(p_big_frame, 2, 0, 100,                                                                  \
	  "a call chain whose frames total just under, at or over 512 bytes of stack")             \
	X(p_recursion, 2, 0, 100, "a subprogram recurses (direct or mutual, bounded or not)")     \
	X(p_bpf_loop, 0, 0, 100,                                                                   \
	  "a statement of main calls bpf_loop with a callback (nr constant, input or huge; "       \
	  "ctx NULL or a stack cell; it may stop early and hold a loop)")                          \
	X(p_bpf_loop_unsafe, 0, 0, 100,                                                            \
	  "unsafe twin of p_bpf_loop: the callback returns 2, reads and writes its ctx past "      \
	  "main's frame, or loads through a NULL ctx")                                             \
	X(p_may_goto, 0, 0, 100, "a body statement is may_goto to the loop's exit (cond_break)")  \
	X(p_may_goto_loop, 0, 0, 100,                                                              \
	  "main ends with a loop whose only exit is may_goto; half of them the unsafe twin "       \
	  "(an access safe only if it ran at most 2^23 times)")                                   \
	X(p_may_goto_sat, 0, 0, 100,                                                               \
	  "p_may_goto_loop's safe form returns count >= 64, not count >> 20: a result no "        \
	  "budget of 64 iterations or more changes, which the kernel comparison judges")           \
	X(p_may_goto_off, 0, 0, 100,                                                               \
	  "p_may_goto_loop's count starts at a 64-bit number of the input and indexes two stack "   \
	  "cells once tested <= 1 (the twin: untested, an unbounded offset the kernel refuses)")    \
	X(p_iter_num, 0, 0, 100,                                                                   \
	  "a statement of main is an open-coded iterator loop (bpf_iter_num_new/next/destroy; "   \
	  "range empty, reversed, small, from the input or huge; maybe a plain loop inside)")      \
	X(p_iter_num_unsafe, 0, 0, 100,                                                            \
	  "unsafe twin of p_iter_num: the iterator leaked, destroyed twice or advanced after its " \
	  "destroy")                                                                               \
	X(p_iter_bits, 0, 0, 100,                                                                  \
	  "a statement of main is a bits iterator loop (bpf_iter_bits_new/next/destroy over 0, 1, " \
	  "2 or 512 words: zero, all ones or from the input, or none at NULL; maybe a plain loop "  \
	  "inside)")                                                                               \
	X(p_iter_bits_unsafe, 0, 0, 100,                                                           \
	  "unsafe twin of p_iter_bits: the iterator leaked, destroyed twice or advanced after its " \
	  "destroy")                                                                               \
	X(p_iter_task, 0, 0, 100,                                                                  \
	  "a statement of main is a loop over the kernel's tasks or the current task's vmas "       \
	  "(bpf_iter_task_* over all processes, all threads, the current task's threads or bad "    \
	  "flags; bpf_iter_task_vma_*), reading each pid or vm_start; maybe a plain loop inside")  \
	X(p_iter_task_unsafe, 0, 0, 100,                                                           \
	  "unsafe twin of p_iter_task: the iterator leaked, destroyed twice, advanced after its "   \
	  "destroy, or next's result read before its NULL test")                                   \
	X(p_iter_helper, 0, 0, 100,                                                                \
	  "p_iter_num's loop body calls bpf_probe_read_kernel into a stack cell beside the live "   \
	  "iterator (a helper given a frame pointer while the iterator is live)")                  \
	X(p_iter_helper_over, 0, 0, 100,                                                           \
	  "unsafe twin of p_iter_helper: the helper writes the live iterator's own 8 bytes")       \
	X(p_iter_deep, 0, 0, 100,                                                                  \
	  "the prologue runs an iterator loop in main and calls f(), which runs one or stores: "   \
	  "each iterator its frame's deepest slot, main's and f's frames at or near 512 bytes")    \
	X(p_iter_deep_over, 0, 0, 100,                                                             \
	  "unsafe twin of p_iter_deep: the two frames are 528 or 544 bytes combined")              \
	X(p_for_each, 0, 0, 100,                                                                   \
	  "a statement of main walks the array map with bpf_for_each_map_elem (ctx NULL or a "    \
	  "stack cell; the callback reads key and value, writes the value, may stop early)")      \
	X(p_for_each_unsafe, 0, 0, 100,                                                            \
	  "unsafe twin of p_for_each: the callback writes past its value or to its key, or "       \
	  "returns 2")                                                                               \
	X(p_urb, 0, 0, 100,                                                                        \
	  "a statement of main drains the user ring buffer with bpf_user_ringbuf_drain (ctx NULL "  \
	  "or a stack cell): the callback takes each sample's first 8 bytes by bpf_dynptr_read or " \
	  "through bpf_dynptr_data (NULL-checked), may write them back with bpf_dynptr_write or "  \
	  "in place, and may stop at a short sample")                                              \
	X(p_urb_unsafe, 0, 0, 100,                                                                 \
	  "unsafe twin of p_urb: the callback loads through its dynptr, reads bpf_dynptr_data's "  \
	  "result untested or past its 8 bytes, or returns 2")                                      \
	X(p_dynptr, 0, 0, 100,                                                                     \
	  "a statement of main makes a dynptr (bpf_dynptr_from_mem over a map value, or "          \
	  "bpf_ringbuf_reserve_dynptr) and reads or writes it by an index loop (bpf_dynptr_read, " \
	  "bpf_dynptr_data NULL-checked, bpf_dynptr_write), indexes past its size included; a "    \
	  "ringbuf one is submitted or discarded")                                                  \
	X(p_dynptr_unsafe, 0, 0, 100,                                                              \
	  "unsafe twin of p_dynptr: a load past bpf_dynptr_data's bytes, or a ringbuf dynptr "     \
	  "left unreleased on one path")                                                            \
	X(p_dynptr_sub, 0, 0, 100,                                                                 \
	  "the prologue's static subprogram makes or uses a dynptr: f(&d) reads, slices or "       \
	  "writes main's dynptr (from_mem over a map value or a ringbuf one, released by main "    \
	  "after the calls), or f makes one in its own frame, uses it and releases it")            \
	X(p_dynptr_sub_unsafe, 0, 0, 100,                                                          \
	  "unsafe twin of p_dynptr_sub: f reads main's ringbuf dynptr after main discarded it, "    \
	  "f leaves its own ringbuf dynptr unreleased, or f loads past a slice at the end of the "   \
	  "memory")                                                                                 \
	X(p_dynptr_sub_make, 0, 0, 100,                                                            \
	  "the prologue's static subprogram makes or releases main's dynptr: f(&d, x) reserves "   \
	  "a ringbuf record or makes a local dynptr over the map value x, uses it, and main reads " \
	  "and releases it; or f(&d, bit) uses main's record and submits or discards it")          \
	X(p_dynptr_sub_make_unsafe, 0, 0, 100,                                                     \
	  "unsafe twin of p_dynptr_sub_make: main leaks the record f reserved, f reserves over "   \
	  "main's live record, or main discards or reads the record f released")                   \
	X(p_dynptr_cb, 0, 0, 100,                                                                  \
	  "the prologue makes a dynptr (a ringbuf record, or local over a map value) and calls "   \
	  "bpf_loop(nr, cb, &d, 0): the callback reads, slices or writes main's dynptr through "   \
	  "its context pointer; main then releases a ringbuf one")                                  \
	X(p_dynptr_cb_unsafe, 0, 0, 100,                                                           \
	  "unsafe twin of p_dynptr_cb: main discards its record before bpf_loop, or the callback " \
	  "loads past a slice at the end of the map value")                                         \
	X(p_dynptr_deep, 0, 0, 100,                                                                \
	  "main's dynptr handed two levels down: main calls m(&d, x), which calls f(&d, x); f "    \
	  "reads, slices or writes main's dynptr, reserves it (main reads and releases it), or "   \
	  "submits or discards main's record")                                                      \
	X(p_dynptr_deep_unsafe, 0, 0, 100,                                                         \
	  "unsafe twin of p_dynptr_deep: f reads main's record after main discarded it, main "      \
	  "leaks the record f reserved, main reads the record f released, or f loads past a "      \
	  "slice at the end of the memory")                                                         \
	X(p_dynptr_cb_make, 0, 0, 100,                                                             \
	  "a bpf_loop callback makes or releases main's dynptr through its context pointer: it "   \
	  "swaps main's record for a new one, reserves a record there and releases it, or makes "  \
	  "a local dynptr there over a map value; each call finds what the last one left")         \
	X(p_dynptr_cb_make_unsafe, 0, 0, 100,                                                      \
	  "unsafe twin of p_dynptr_cb_make: the callback only discards main's record, or "          \
	  "reserves a record in main's dynptr and leaves it (the second call fails)")               \
	X(p_dynptr_keyed, 0, 0, 100,                                                               \
	  "a static subprogram reserves main's record, or discards it, on some paths only and "    \
	  "returns 0 then (-1 in w0 or 1 otherwise); main releases the record only on the side "   \
	  "of its test of the result where it is live")                                              \
	X(p_dynptr_keyed_unsafe, 0, 0, 100,                                                        \
	  "unsafe twin of p_dynptr_keyed: main's test of the result takes the other side (a "      \
	  "record released where it is not live, and leaked where it is)")                          \
	X(p_dynptr_keyed_test, 0, 0, 100,                                                          \
	  "p_dynptr_keyed and its twin: main tests the result signed (`if w0 s< 0`, when the "    \
	  "other result is -1) or through a copy (`r6 = r0; if w6 != 0`) (generators/gen_dynptr.c)") \
	X(p_dynptr_mid, 0, 0, 100,                                                                 \
	  "main's dynptr handed through m(&d, x), which holds a ringbuf record of its own around " \
	  "its call of f(&d, x) (f reads, slices or writes main's) and submits or discards it")    \
	X(p_dynptr_mid_unsafe, 0, 0, 100,                                                          \
	  "unsafe twin of p_dynptr_mid: m leaves its own record unreleased")                        \
	X(p_dynptr_global, 0, 0, 100,                                                              \
	  "a global function g(struct bpf_dynptr *) reads or slices main's dynptr (a ringbuf "     \
	  "record, or local over a map value): the kernel verifies it on its own")                  \
	X(p_dynptr_global_unsafe, 0, 0, 100,                                                       \
	  "unsafe twin of p_dynptr_global: main discards its record before the call, or g loads " \
	  "past a slice at the end of the memory")                                                   \
	X(p_dynptr_kf, 0, 0, 100,                                                                  \
	  "a prologue loop over slices of an xdp dynptr (bpf_dynptr_from_xdp; size, is_null, "     \
	  "is_rdonly; bpf_dynptr_slice of `step` bytes, NULL-tested, maybe with a stack buffer), "  \
	  "the dynptr adjusted first or cloned and both sliced")                                    \
	X(p_dynptr_kf_unsafe, 0, 0, 100,                                                           \
	  "unsafe twin of p_dynptr_kf: a read past a slice's bytes, a slice read without its NULL " \
	  "test, a store through bpf_dynptr_slice's read-only result, or a ringbuf dynptr's clone " \
	  "read after the original's discard")                                                      \
	X(p_timer, 0, 0, 100,                                                                      \
	  "a statement of main arms a timer of the timer map (init with a clock, set_callback, "   \
	  "start, maybe cancel); the callback adds its key to its value, may hold a loop and may " \
	  "start its timer again")                                                                  \
	X(p_timer_unsafe, 0, 0, 100,                                                               \
	  "unsafe twin of p_timer: the callback returns 1, the timer pointer is off the timer, "   \
	  "or bpf_timer_init is given another map")                                                 \
	X(p_timer_two, 0, 0, 100,                                                                  \
	  "a p_timer statement also arms the timer of map 4 (48-byte values; map 3's are 32) "    \
	  "with the same callback, which the kernel verifies once per map")                        \
	X(p_timer_two_past, 0, 0, 100,                                                             \
	  "unsafe twin of p_timer_two: the callback also writes its value's bytes [40, 48), "     \
	  "which map 4's values have and map 3's do not")                                           \
	X(p_find_vma, 0, 0, 100,                                                                   \
	  "the program is a raw tracepoint (its input the arguments) calling bpf_find_vma(current "\
	  "task, an argument, cb, ctx, 0) from main; the callback adds 1 and maybe an inner "      \
	  "loop's count to main's cell, and may return 1")                                          \
	X(p_find_vma_unsafe, 0, 0, 100,                                                            \
	  "unsafe twin of p_find_vma: the callback writes the vma, returns 2, reads and writes "   \
	  "its ctx past main's frame, or through a NULL ctx")                                       \
	X(p_cb_loop, 0, 0, 100,                                                                    \
	  "p_for_each and p_urb callbacks hold a plain loop: over the value's first n <= 8 words, " \
	  "or the sample's first n <= 8 bytes through bpf_dynptr_data (NULL-checked)")            \
	X(p_cb_loop_past, 0, 0, 100,                                                               \
	  "unsafe twin of p_cb_loop: the callback's loop runs one past, to the value's word 8 "    \
	  "(bytes 64-71) or the sample's byte 8")                                                   \
	X(p_timer_loop, 0, 0, 100,                                                                 \
	  "a loop-body statement of main arms a timer (p_timer's statement inside a plain loop)")  \
	X(p_timer_loop_null, 0, 0, 100,                                                            \
	  "unsafe twin of p_timer_loop: the timer's value looked up by (the loop's variable ^ "    \
	  "an input byte) & 3 (NULL for 2 and 3) and armed untested")                               \
	X(p_vma_loop, 0, 0, 100,                                                                   \
	  "in p_find_vma's raw tracepoints, a loop-body statement of main calls bpf_find_vma")     \
	X(p_vma_loop_bad, 0, 0, 100,                                                               \
	  "unsafe twin of p_vma_loop: the call in the loop has a p_find_vma_unsafe callback")      \
	X(p_timer_cross, 0, 0, 100,                                                                \
	  "a timer statement's callback arms map 4's timer of its own key with a callback of its " \
	  "own (timers of two maps; the statement drawn as p_timer's)")                             \
	X(p_timer_cross_null, 0, 0, 100,                                                           \
	  "unsafe twin of p_timer_cross: the callback arms map 4's timer of its key + 1 (NULL for " \
	  "the last key) untested")                                                                 \
	X(p_ptr_alu, 0, 0, 100,                                                                    \
	  "a statement of main takes a number from pointers by ALU forms the kernel accepts: "     \
	  "(r10 + k) - r10, data + k less data, k + r10 less r10, their 32-bit difference")        \
	X(p_ptr_alu_bad, 0, 0, 100,                                                                \
	  "unsafe twin of p_ptr_alu: a form the kernel refuses (subtraction from r10, 32-bit or "  \
	  "bitwise or multiplying ops on a pointer, pointer + pointer, scalar - pointer, 2^29)")   \
	X(p_map_field, 0, 0, 100,                                                                  \
	  "a statement of main uses a map value beside its special fields (map 5: a bpf_spin_lock " \
	  "at 4, a __kptr_untrusted at 8): the bytes around them, the kptr tested and read "      \
	  "through, NULL stored into it")                                                          \
	X(p_map_field_bad, 0, 0, 100,                                                              \
	  "unsafe twin of p_map_field: reads or writes the spin lock's word (alone, 8 bytes over "  \
	  "it, an input-chosen u32), or stores a number into the kptr")                           \
	X(p_map_u64_ptr, 0, 0, 100,                                                                \
	  "a statement of main adds a u64 loaded from a map value to a pointer: the value, masked "\
	  "or tested below its size, or the packet, masked and tested against data_end")           \
	X(p_map_u64_ptr_bad, 0, 0, 100,                                                            \
	  "unsafe twin of p_map_u64_ptr: the u64 added unmasked to the value or the packet, or "   \
	  "tested one past the last offset a read fits at")                                        \
	X(p_spin_lock, 0, 0, 100,                                                                  \
	  "a statement of main takes the spin lock of a fields map value (map 5, at 4), updates "  \
	  "the value's u32 before it or a u64 after the kptr (no call between), and releases it")  \
	X(p_spin_lock_bad, 0, 0, 100,                                                              \
	  "unsafe twin of p_spin_lock: a helper called while the lock is held, the lock not "      \
	  "released, taken twice, or released at the value's offset 0")                           \
	X(p_map_len, 0, 0, 100,                                                                    \
	  "a loop of the prologue: for (i = 0; i < len; i++) reads v[4 + i], len a u32 loaded "    \
	  "from the map value v (a run sets it from an input byte) and checked once, len <= 60 " \
	  "(a relational bound)")                                                                  \
	X(p_map_len_over, 0, 0, 100,                                                               \
	  "unsafe twin of p_map_len: len <= 61; the program's own input sets 61 and the last "     \
	  "read is past the 64-byte value (any of the array's elements)")                          \
	X(p_map_hash, 0, 0, 100,                                                                   \
	  "map 0 is a hash map (HASH of 4 entries, LRU_HASH of 256, PERCPU_HASH with "              \
	  "p_map_percpu), empty at start; the prologue fills keys [0, n) in a loop (n from the "   \
	  "input, up to 7: -E2BIG past 4), looks keys [0, m) up with NULL checks, deletes one")  \
	X(p_map_hash_bad, 0, 0, 100,                                                               \
	  "unsafe twin of p_map_hash: a value read without its NULL check on a key never "         \
	  "inserted, or 8 bytes read at value_size - 4 of an element every run finds")             \
	X(p_map_lookup_percpu, 0, 0, 100,                                                          \
	  "map 0 is per-CPU (PERCPU_ARRAY; with p_map_hash PERCPU_HASH or LRU_PERCPU_HASH); the "   \
	  "prologue reads one key in the copies of cpus [0, m), m up to 4, by "                    \
	  "bpf_map_lookup_percpu_elem (NULL-checked: NULL past the possible CPUs), maybe writes "  \
	  "them, maybe also the copy of bpf_get_smp_processor_id()")                               \
	X(p_map_lookup_percpu_bad, 0, 0, 100,                                                      \
	  "unsafe twin of p_map_lookup_percpu: no NULL check with cpus up to 3 or 4 (NULL past "   \
	  "the interpreter's 2 CPUs), or an array's 8 bytes read at value_size - 4")               \
	X(p_stack_align, 0, 0, 100,                                                                \
	  "a pointer recurrence fills 2-8 stack u64s, then one is read at a variable offset "      \
	  "(index << 3): every access aligned, as the kernel wants of the stack")                  \
	X(p_stack_align_bad, 0, 0, 100,                                                            \
	  "unsafe twin of p_stack_align: the cells start 1-7 bytes off (every store misaligned), " \
	  "or the index is shifted by 2 (a load the offset's low bits do not prove aligned)")      \
	X(p_links, 0, 0, 100,                                                                      \
	  "a packet byte copied (a move, a spill and fill, a move plus a constant, a 32-bit move), " \
	  "one copy bounded by a jump, the other an offset into 8 zeroed stack bytes: the kernel " \
	  "links them (gen_links.c)")                                                              \
	X(p_links_bad, 0, 0, 100,                                                                  \
	  "unsafe twin of p_links: the other copy written (|= 512, ^= 512, its slot stored again) " \
	  "between the copy and its use: the link dies, the load is above the frame")              \
	X(p_strtol, 0, 0, 100,                                                                     \
	  "a number's digits in a slot parsed by bpf_strtol or bpf_strtoul into 8 aligned bytes "  \
	  "of another slot (long *res), read back (gen_links.c)")                                  \
	X(p_strtol_bad, 0, 0, 100,                                                                 \
	  "unsafe twin of p_strtol: res misaligned (slot + 4) or past the frame's top (fp - 4)")   \
	X(p_check_mtu, 0, 0, 100,                                                                  \
	  "bpf_check_mtu's u32 *mtu_len in an aligned slot, read back (gen_mtu.c)")                \
	X(p_check_mtu_bad, 0, 0, 100,                                                              \
	  "unsafe twin of p_check_mtu: mtu_len misaligned (slot + 2) or past the frame's top "     \
	  "(fp - 2)")                                                                              \
	X(p_sock, 0, 0, 100,                                                                       \
	  "XDP: bpf_sk_lookup_tcp, _udp or bpf_skc_lookup_tcp of a zeroed tuple, a field of the "  \
	  "socket read after its NULL test, then bpf_sk_release; half put it in a socket map, "    \
	  "half of those look it up there (a referenced socket) (gen_sock.c)")                     \
	X(p_sock_unsafe, 0, 0, 100,                                                                \
	  "unsafe twin of p_sock: the socket leaked, read after its release, read before its NULL " \
	  "test, or read past struct bpf_sock; the socket map's lookup read before its NULL test " \
	  "and leaked, or released before it")                                                     \
	X(p_kfunc, 0, 0, 100,                                                                      \
	  "XDP: bpf_task_from_pid in a loop of 1-4 iterations, each task released after its NULL " \
	  "test (gen_kfunc.c)")                                                                    \
	X(p_kfunc_bad, 0, 0, 100,                                                                  \
	  "unsafe twin of p_kfunc: a task leaked, released twice or before its NULL test, a "      \
	  "stack pointer for the pid, or bpf_cpumask_create, which XDP may not call")             \
	X(p_sk_prog, 0, 0, 100,                                                                    \
	  "the program an sk_reuseport one (its loops read its packet, read only; "                 \
	  "bpf_sk_select_reuseport of a reuseport array's index) or an sk_lookup one (its loops "   \
	  "read its context's fields; a socket map's socket given to bpf_sk_assign, released), "   \
	  "as raw_tp's programs: plain loops only (gen_sock.c)")                                   \
	X(p_sk_prog_unsafe, 0, 0, 100,                                                             \
	  "unsafe twin of p_sk_prog: a store into the read-only context or into sk_reuseport's "   \
	  "packet, a read past its data_end, or sk_lookup's socket-map socket leaked")             \
	X(p_cg_storage, 0, 0, 100,                                                                 \
	  "the program a cgroup_skb one whose loops read its cgroup storage (64 bytes from "       \
	  "bpf_get_local_storage, the packet's length in its first u64), a per-CPU storage's "     \
	  "counter added to, as raw_tp's programs: plain loops only (gen_sock.c)")                  \
	X(p_cg_storage_unsafe, 0, 0, 100,                                                          \
	  "unsafe twin of p_cg_storage: bpf_get_local_storage with flags 1, or a read past the "   \
	  "storage's 64 bytes")                                                                    \
	X(p_sk_msg, 0, 0, 100,                                                                     \
	  "the program an sk_msg one whose loops read its message (after the prologue's test of "  \
	  "data_end), bpf_msg_redirect_map of a sockmap's index from a message byte, as raw_tp's "  \
	  "programs: plain loops only (gen_sock.c)")                                               \
	X(p_sk_msg_unsafe, 0, 0, 100,                                                              \
	  "unsafe twin of p_sk_msg: a store into the read-only context, or a read past data_end")   \
	X(p_krules, 0, 0, 100,                                                                     \
	  "a packet offset in [0, 31] spilled at a slot's start and read back there, or shifted "  \
	  "by a constant below the width: the kernel keeps its bounds; a third first read the "    \
	  "metadata after data_meta + c <= data (gen_krules.c)")                                   \
	X(p_krules_bad, 0, 0, 100,                                                                 \
	  "unsafe twin of p_krules: spilled 1-7 bytes into its slot, read past a spill's start, "  \
	  "the slot's spill touched, or shifted by the width or a variable: the kernel loses it; " \
	  "or the metadata read past what the kernel's data_meta range gives (gen_krules.c)")      \
	X(p_krules_key, 0, 0, 100,                                                                 \
	  "with p_krules: the piece first reads map 0's element c unchecked, the key c "           \
	  "spilled in 4 bytes, the slot's other half written before the spill; p_krules_bad's "    \
	  "after it (a store, bpf_xdp_load_bytes, an atomic, a byte at a variable offset): no "    \
	  "constant key to the kernel (gen_krules.c)")                                             \
	X(p_access, 0, 0, 100,                                                                     \
	  "map 6 is read-only or write-only (BPF_F_RDONLY_PROG, BPF_F_WRONLY_PROG) to the "         \
	  "program: the prologue reads its value, or writes it; and loads a scalar field of the "  \
	  "context sign-extended; a read-only value is frozen, a division by 0 guarded by its "    \
	  "byte (gen_krules.c)")                                                                   \
	X(p_access_bad, 0, 0, 100,                                                                 \
	  "unsafe twin of p_access: a store into the read-only value, a division by 0 its frozen " \
	  "byte does not skip, a load from the write-only "                                        \
	  "one, an atomic add into either, or a sign-extending load of a packet pointer field of " \
	  "the context: the kernel refuses it")                                                    \
	X(p_strncmp, 0, 0, 100,                                                                    \
	  "the prologue compares 4 stack bytes with a string of map 6, read-only and frozen "      \
	  "(bpf_strncmp's constant string: a 0 byte after its constant offset; gen_krules.c)")    \
	X(p_strncmp_bad, 0, 0, 100,                                                                \
	  "unsafe twin of p_strncmp: the string's offset is past the value's last 0 byte (not "    \
	  "zero-terminated): the kernel refuses it")                                                \
	X(p_queue, 0, 0, 100,                                                                      \
	  "an XDP program's prologue pushes up to 7 values into a queue or stack map (from the "   \
	  "stack, or straight from the packet) and pops or peeks them back into the stack in a "   \
	  "loop, summing what it reads (gen_queue.c)")                                              \
	X(p_queue_bad, 0, 0, 100,                                                                  \
	  "unsafe twin of p_queue: the popped value written past the frame's top, or the pushed "  \
	  "one read past what the packet's bounds check proved: the kernel refuses it")            \
	X(p_kwiden, 0, 0, 100,                                                                     \
	  "an iterator or may_goto loop steps a pointer over 3-5 cells of the stack or a map "     \
	  "value and ends by a test of its counter, which the kernel keeps precise (gen_iter.c)")  \
	X(p_kwiden_copy, 0, 0, 100,                                                                \
	  "unsafe twin of p_kwiden: the test is of the counter's copy, the kernel widens the "     \
	  "counter and walks the pointer out of the cells; no run traps")                          \
	X(p_ld_abs_sub, 0, 0, 100,                                                                 \
	  "the program a tc one whose statements call a static function that uses LD_ABS / "      \
	  "LD_IND (returning 0 from it when the load fails), the result used and a pointer "      \
	  "stored into main's frame before the load; as raw_tp's programs: plain loops only "      \
	  "(gen_ldabs.c)")                                                                         \
	X(p_ld_abs_sub_skip, 0, 0, 100,                                                            \
	  "unsafe twin of p_ld_abs_sub: the store after a load past the packet, which returns "    \
	  "first; main reads through the slot it did not write")                                   \
	X(p_frame_fields, 0, 0, 100,                                                               \
	  "a callee or bpf_loop callback writes two fields of main's frame around main's spilled "  \
	  "packet pointer, which main reads back (gen_stack.c)")                                   \
	X(p_frame_fields_over, 0, 0, 100,                                                          \
	  "unsafe twin of p_frame_fields: a field written over the spill's bytes")                 \
	X(p_fill_join, 0, 0, 100,                                                                  \
	  "a pointer spilled on some paths only (the others: nothing, or numbers of another "      \
	  "size), read back whole (gen_stack.c)")                                                  \
	X(p_fill_join_narrow, 0, 0, 100,                                                           \
	  "unsafe twin of p_fill_join: read back narrower; no run traps")                          \
	X(p_stack_walk, 0, 0, 100,                                                                 \
	  "a loop stores through a stepped stack pointer between two spills of the packet "       \
	  "pointer, read back after it (gen_stack.c)")                                             \
	X(p_stack_walk_over, 0, 0, 100,                                                            \
	  "unsafe twin of p_stack_walk: a spill placed over a cell the loop writes")               \
	X(p_loop_fields, 0, 0, 100,                                                                \
	  "a loop writes two fields of each element of a stack array through one stepped "         \
	  "pointer, a field read after it (gen_stack.c)")                                          \
	X(p_loop_fields_unset, 0, 0, 100,                                                          \
	  "unsafe twin of p_loop_fields (unprivileged): a byte of an element neither field "       \
	  "covers read, never written (root reads it)")                                            \
	X(p_jeq_null, 0, 0, 100,                                                                   \
	  "a map value that may be NULL read where `==` with a tested one says it is not (the "    \
	  "kernel's jeq inference; gen_kwalk.c)")                                                  \
	X(p_jeq_null_stack, 0, 0, 100,                                                             \
	  "unsafe twin of p_jeq_null: compared with the stack or data instead, which the kernel "  \
	  "infers nothing from; no run reads")                                                     \
	X(p_dead_arm, 0, 0, 100,                                                                   \
	  "code the kernel never walks: a pointer's narrow spill on a path of a dead value, a "    \
	  "write to r10 past a test the kernel decides (gen_kwalk.c)")                             \
	X(p_dead_arm_reached, 0, 0, 100,                                                           \
	  "unsafe twin of p_dead_arm: the spill or the write on an arm the kernel walks")          \
	X(p_call_frames, 0, 0, 100,                                                                \
	  "f(p) reads *p, called with a pointer into main's frame and, from h, into h's own: "      \
	  "the pointer joins two frames")                                                          \
	X(p_call_frames_past, 0, 0, 100,                                                           \
	  "unsafe twin of p_call_frames: f reads past the top of both frames on every run")        \
	X(p_frames_reg, 0, 0, 100,                                                                 \
	  "f(p), p into main's frame: a loop reads *p, leaves when it is not 0, else p = its own "  \
	  "slot (a number c != 0): 1 or 2 header executions (bounded_loop_stack_frames_reg); "     \
	  "half the time through h(p) = f(p, h's slot 0): p into any of 3 frames, 1 or 3")         \
	X(p_frames_reg_stuck, 0, 0, 100,                                                           \
	  "unsafe twin of p_frames_reg: f's own slot holds 0, endless when main's cell is 0")      \
	X(p_call_pkt, 0, 0, 100,                                                                   \
	  "the prologue passes data + o to a static subprogram once or twice (o constant); it "   \
	  "reads a byte every call's check covers (a packet range carried into a callee); or "    \
	  "f(&data), loading data from main's frame; or f(data + k, data_end) compares, and "     \
	  "main reads data + k - 1 where it returned 1")                                           \
	X(p_call_pkt_over, 0, 0, 100,                                                              \
	  "unsafe twin of p_call_pkt: the subprogram reads the byte at data_end for the first "   \
	  "call's o (or main reads data + k - 1 where f returned 0)")                              \
	X(p_call_bound, 0, 0, 100,                                                                 \
	  "the prologue calls f(&n), n on its stack (constant or from the input): f counts to n")  \
	X(p_call_bound_open, 0, 0, 100,                                                            \
	  "unsafe twin of p_call_bound: n is 8 bytes of the input: 2^63 steps or endless")         \
	X(p_call_ctx, 0, 0, 100,                                                                   \
	  "the prologue calls f(p, n) twice (or three times), f writing the n bytes below p: "     \
	  "[-512, -512 + a) and [-512 + a, -368) of main's frame, a in [8, 64] (per-call contexts)") \
	X(p_call_ctx_over, 0, 0, 100,                                                              \
	  "unsafe twin of p_call_ctx: the lower call's n is a + 1, writing the byte below the frame") \
	X(p_args_last, 0, 0, 100,                                                                 \
	  "the prologue calls f(i + 1) for i < k (k in [1, 8]), f(n) writing a[j] for j < n, a "   \
	  "k slots of its frame: the last pass narrows f's argument (callee_args_last_pass)")      \
	X(p_args_last_over, 0, 0, 100,                                                            \
	  "unsafe twin of p_args_last: i runs to k, the last call writes a[k] at f's fp + 0")     \
	X(p_cb_count, 0, 0, 100,                                                                   \
	  "the prologue calls bpf_loop(n <= 1, cb, &ctx): cb does ctx->i++ and *ctx->p = c (a "    \
	  "cell of main); main then reads the packet's last bytes at i and at c")                  \
	X(p_cb_count_over, 0, 0, 100,                                                              \
	  "unsafe twin of p_cb_count: n is 2 (or 1 + an input bit): i = 2 reads at data_end")      \
	X(p_cb_two_ctx, 0, 0, 100,                                                                 \
	  "the prologue calls one callback from two bpf_loop or for_each calls whose contexts "    \
	  "differ: a cell holding a pointer at one and NULL at the other (generators/gen_cbctx.c)") \
	X(p_cb_two_ctx_bad, 0, 0, 100,                                                             \
	  "unsafe twin of p_cb_two_ctx: the callback loads through its context's pointer untested" \
	  " (the call whose context holds NULL traps)")                                            \
	X(p_frame_rules, 0, 0, 100,                                                                \
	  "a callee or bpf_loop callback and its caller's frame: it reads the pointer its "        \
	  "caller spilled whole, adds into it in 8 bytes, stores a number there (its own r10 "     \
	  "into its own frame), or surely stores the number its caller then reads back as an "     \
	  "offset (gen_calls.c)")                                                                  \
	X(p_frame_rules_bad, 0, 0, 100,                                                            \
	  "unsafe twin of p_frame_rules: the spilled pointer read or added into narrower, a "      \
	  "stack pointer stored into the caller's frame, or the store made on some paths only "    \
	  "(the kernel refuses; no run traps but the last's)")                                     \
	X(p_sub_ret_ptr, 0, 0, 100,                                                                \
	  "the prologue calls f(key) returning map 0's value (at an offset c) or NULL, and loads " \
	  "through it after a NULL test of it, a copy or a spill (generators/gen_subret.c)")       \
	X(p_sub_ret_ptr_bad, 0, 0, 100,                                                            \
	  "unsafe twin of p_sub_ret_ptr: no NULL test (a key no element has), or a load past the " \
	  "value")                                                                                 \
	X(p_global, 0, 0, 100,                                                                     \
	  "a statement of main calls a global function (.global g ptr:8 int:8: verified on its "  \
	  "own from that prototype), given main's cell or NULL and a value; g tests the pointer, " \
	  "adds the value to the cell and returns it")                                             \
	X(p_global_unsafe, 0, 0, 100,                                                              \
	  "unsafe twin of p_global: g reads its pointer untested (main passes NULL) or 512 bytes " \
	  "before it (below main's frame)")                                                         \
	X(p_ringbuf, 0, 0, 100,                                                                    \
	  "a statement of main reserves a ringbuf record, NULL-checks it (maybe through a copy or " \
	  "a spill), writes it and submits or discards it")                                        \
	X(p_ringbuf_leak, 0, 0, 100,                                                               \
	  "unsafe twin of p_ringbuf: the release is skipped when the record's last byte is odd " \
	  "(a reference leak)")                                                                  \
	X(p_kfunc_region, 0, 0, 100,                                                               \
	  "XDP: a loop of 1-4 helper calls inside an RCU read-side region or 1-3 nested "         \
	  "non-preemptible ones (bpf_rcu_read_lock, bpf_preempt_disable; gen_kfunc.c)")           \
	X(p_kfunc_region_bad, 0, 0, 100,                                                           \
	  "unsafe twin of p_kfunc_region: a close too few or too many, the RCU lock taken twice, " \
	  "or the closes skipped on some paths") \
	X(p_throw, 0, 0, 100,                                                                      \
	  "the prologue calls bpf_throw on a data-dependent path, in main or a static function, " \
	  "half the time with an exception callback (generators/gen_throw.c)")                     \
	X(p_throw_bad, 0, 0, 100,                                                                  \
	  "unsafe twin of p_throw: the throw in a bpf_loop callback, with r10 as the cookie, "    \
	  "with an iterator live or inside a loop (6.18 refuses each)") \
	X(p_sub_ref, 0, 0, 100,                                                                    \
	  "the prologue takes a fields map value's spin lock and releases it across static "       \
	  "functions: f_lock(v) takes it for main, f_unlock(v) releases main's, or both "          \
	  "(generators/gen_subref.c)")                                                             \
	X(p_sub_ref_bad, 0, 0, 100,                                                                \
	  "unsafe twin of p_sub_ref: the lock f_lock took never released, f_unlock calling a "     \
	  "helper under main's lock, f_lock called twice, or released twice across the frames") \
	X(p_fastcall, 0, 0, 100,                                                                   \
	  "a statement of main stores at fp-512 and calls f, whose only stack is a bpf_fastcall "  \
	  "spill/fill of r1 around bpf_get_smp_processor_id, which the kernel removes: 512 + 0 "    \
	  "(generators/gen_fastcall.c)")                                                           \
	X(p_fastcall_bad, 0, 0, 100,                                                               \
	  "unsafe twin of p_fastcall: f also stores at fp-16, below the pattern, which keeps it: " \
	  "512 + 16")

struct gen_knobs {
#define GEN_KNOB_FIELD(name, def, lo, hi, what) uint32_t name;
	GEN_KNOBS(GEN_KNOB_FIELD)
#undef GEN_KNOB_FIELD
};

struct gen_knobs gen_knobs_default(void);
/* Sets a knob by name ("p_wrap").  0, -ENOENT for an unknown name, -ERANGE for a value out of
 * range (probabilities over 100, max_depth outside 1..4, limits of 0). */
int gen_knobs_set(struct gen_knobs *k, const char *name, uint32_t value);
/* The knob table, for help texts: name, default and description of knob i; false past the end. */
bool gen_knob_info(size_t i, const char **name, uint32_t *def, const char **what);

/* Shapes a program exercises (gen_program.shapes, gen_loop.shapes): X(NAME, "name"). */
#define GEN_SHAPES(X)                                                                              \
	X(WHILE, "while")                                                                          \
	X(WHILE_BOTTOM, "while-bottom")                                                            \
	X(DO_WHILE, "do-while")                                                                    \
	X(FOR, "for")                                                                              \
	X(IRREDUCIBLE, "irreducible")                                                              \
	X(NEST2, "nest-2")                                                                         \
	X(NEST3, "nest-3")                                                                         \
	X(NEST4, "nest-4")                                                                         \
	X(SEQ_NESTS, "sequential-nests")                                                           \
	X(UP, "count-up")                                                                          \
	X(DOWN, "count-down")                                                                      \
	X(STEP_UNIT, "step-1")                                                                     \
	X(STEP_BIG, "step-big")                                                                    \
	X(CTR64, "counter-64")                                                                     \
	X(CTR32, "counter-32")                                                                     \
	X(CMP_MIX, "compare-width-mix")                                                            \
	X(COND_UNSIGNED, "cond-unsigned")                                                          \
	X(COND_SIGNED, "cond-signed")                                                              \
	X(COND_EQNE, "cond-eq-ne")                                                                 \
	X(BOUND_CONST, "bound-const")                                                              \
	X(BOUND_INPUT, "bound-input")                                                              \
	X(BOUND_OUTER, "bound-outer")                                                              \
	X(BOUND_REG, "bound-reg")                                                                  \
	X(BOUND_LDIMM64, "bound-ldimm64")                                                          \
	X(INIT_INPUT, "init-input")                                                                \
	X(BREAK, "break")                                                                          \
	X(BREAK_OUTER, "break-outer")                                                              \
	X(RETURN, "return-in-loop")                                                                \
	X(CONTINUE, "continue")                                                                    \
	X(COND_UPDATE, "cond-update")                                                              \
	X(DERIVED_IV, "derived-iv")                                                                \
	X(SPILL, "spilled-counter")                                                                \
	X(NARROW_SPILL, "narrow-spill")                                                            \
	X(SPILL_CALL, "spill-around-call")                                                         \
	X(ARRAY_READ, "stack-array-read")                                                          \
	X(INDIRECT_WRITE, "indirect-stack-write")                                                  \
	X(MAP, "map-access")                                                                       \
	X(NULL_COPY, "null-check-through-copy")                                                    \
	X(NULL_STALE, "null-check-of-another-lookup")                                              \
	X(PKT, "packet-access")                                                                    \
	X(OUTER_MOD, "inner-changes-outer")                                                        \
	X(OUTER_MOD_CTR, "inner-changes-outer-counter")                                            \
	X(WRAP, "wrap")                                                                            \
	X(NONTERM, "may-not-terminate")                                                            \
	X(HUGE, "huge-trip")                                                                       \
	X(HELPER, "helper-call")                                                                   \
	X(SUBPROG, "bpf-to-bpf-call")                                                              \
	X(SUBPROG_LOOP, "loop-in-subprogram")                                                      \
	X(CALL_ARGS, "call-args")                                                                  \
	X(CALL_PTR, "call-stack-pointer")                                                          \
	X(CALL_CHAIN, "call-chain")                                                                \
	X(CALL_TOO_DEEP, "call-chain-9-frames")                                                    \
	X(BIG_FRAME, "big-frame")                                                                  \
	X(STACK_OVER, "combined-stack-over-512")                                                   \
	X(RECURSION, "recursion")                                                                  \
	X(REC_MUTUAL, "recursion-mutual")                                                          \
	X(REC_BOUNDED, "recursion-bounded")                                                        \
	X(BPF_LOOP, "bpf-loop")                                                                    \
	X(BPF_LOOP_IN_LOOP, "bpf-loop-in-loop")                                                    \
	X(LOOP_IN_BPF_LOOP, "loop-in-bpf-loop")                                                    \
	X(BPF_LOOP_STOP, "bpf-loop-stops-early")                                                   \
	X(BPF_LOOP_HUGE, "bpf-loop-huge-nr")                                                       \
	X(MAY_GOTO, "may-goto-break")                                                              \
	X(MAY_GOTO_LOOP, "may-goto-loop")

enum gen_shape {
#define GEN_SHAPE_ENUM(n, s) GEN_SHAPE_##n,
	GEN_SHAPES(GEN_SHAPE_ENUM)
#undef GEN_SHAPE_ENUM
	GEN_SHAPE__COUNT
};
#define GEN_SH(n) (1ull << GEN_SHAPE_##n)
_Static_assert(GEN_SHAPE__COUNT <= 64, "gen_program.shapes is a 64-bit mask");
const char *gen_shape_name(unsigned shape);	/* NULL past the end */

enum gen_form { GEN_FORM_WHILE, GEN_FORM_WHILE_BOTTOM, GEN_FORM_DO_WHILE, GEN_FORM_FOR,
		GEN_FORM_IRREDUCIBLE };
const char *gen_form_name(unsigned form);

/* gen_loop.flags */
#define GEN_LOOP_MAY_NOT_TERMINATE (1u << 0)	/* some input keeps it (or a loop in it) running */
#define GEN_LOOP_HUGE (1u << 1)		/* trip_max above knobs.max_trip, on purpose */
#define GEN_LOOP_IRREDUCIBLE (1u << 2)	/* two entries; header is -1 */
#define GEN_LOOP_SUBPROG (1u << 3)	/* in the subprogram: counted per call */
#define GEN_LOOP_COND_STEP (1u << 4)	/* the counter's update depends on the path (step_alt) */
#define GEN_LOOP_EARLY_EXIT (1u << 5)	/* break, break from an inner loop, or return inside */
#define GEN_LOOP_CTR_CHANGED (1u << 6)	/* an inner loop also changes the counter */

/* An induction variable as scev's claim defines it: at every header execution after the first
 * within one entry, loc equals its previous value plus step (mod 2^width, zero-extended for 32);
 * start, when known, is its value at the first. */
struct gen_iv {
	uint32_t loc;		/* loc_t (claims/loc.h) */
	uint8_t width;		/* 32 or 64 */
	bool has_start;
	uint64_t step;		/* width-bit two's complement */
	uint64_t start;
};

struct gen_loop {
	int32_t header;		/* pc of the header, -1 when the shape does not fix it */
	uint32_t first, last;	/* pcs of the body, header included; contiguous */
	int32_t entry2;		/* irreducible: the second entry (first is the other), else -1;
				 * it runs once per iteration, like a header */
	int32_t parent;		/* index of the enclosing loop in gen_program.loops, -1 */
	uint8_t depth;		/* 1 = outermost (of its function) */
	uint8_t form;		/* enum gen_form */
	uint32_t flags;		/* GEN_LOOP_* */
	uint64_t shapes;	/* GEN_SH() bits of this loop alone */
	/* the counter and its exit test: continue while (counter cmp_op bound) */
	uint32_t counter_loc;	/* loc_t where it lives at the header */
	uint8_t counter_width;	/* 32 or 64 (ALU32 or ALU64 updates) */
	uint8_t cmp_width;	/* 32 (JMP32) or 64 */
	uint8_t cmp_op;		/* BPF_JLT, BPF_JSGE, BPF_JNE, ... */
	uint64_t step;		/* own update per iteration; the first path's with COND_STEP */
	uint64_t step_alt;	/* the other path's (COND_STEP only) */
	/* header executions per entry into the loop (a run that never enters adds none); for an
	 * irreducible loop, executions of entry2, whichever entry was taken */
	int64_t trip;		/* the same for every input; -1 when it is not (or not known) */
	uint64_t trip_max;	/* bound for every input on entries that leave the loop;
				 * UINT64_MAX when unbounded or unknown */
	struct gen_iv ivs[GEN_MAX_IVS];
	uint8_t nivs;
};

/* gen_program.flags */
#define GEN_PROG_MAY_NOT_TERMINATE (1u << 0)	/* some input may run forever */
#define GEN_PROG_HUGE (1u << 1)		/* max_steps above knobs.step_budget (or unknown) */
#define GEN_PROG_CALL_TRAP (1u << 2)	/* a run may stop at the interpreter's call limits
					 * (INTERP_TRAP_LIMIT: 8 frames, 512 bytes) */
#define GEN_PROG_TWIN_UNSAFE (1u << 9)	/* the may_goto twin: safe only if a may_goto loop ran at
					 * most 2^23 times, which a timed kernel exceeds */
#define GEN_PROG_CALLS_UNSAFE (1u << 3)	/* the kernel refuses its calls: recursion, more than
					 * GEN_MAX_FRAMES or GEN_MAX_STACK */
#define GEN_PROG_NULL_UNSAFE (1u << 4)	/* p_null_stale: a run may read through a NULL map value
					 * (INTERP_TRAP_MEM); the kernel refuses it
					 * (p_iter_task_unsafe: through next's NULL) */
#define GEN_PROG_STACK_UNWRITTEN (1u << 5)	/* p_array_fill_short: a run may read stack bytes
						 * never written (the kernel, asked by root,
						 * allows it; the unprivileged rule does not) */
#define GEN_PROG_ARRAY_FILL (1u << 6)	/* p_array_fill: the stack array is written by a loop
					 * (shapes are 64 bits, all taken: a flag) */
#define GEN_PROG_ITER (1u << 12)	/* p_iter_num, p_iter_bits, p_iter_task: an open-coded
					 * iterator loop (the kfuncs named through vmlinux BTF) */
#define GEN_PROG_ITER_UNSAFE (1u << 13)	/* p_iter_num_unsafe, p_iter_bits_unsafe,
					 * p_iter_task_unsafe: an iterator leaked, destroyed
					 * twice or advanced after its destroy (p_iter_task_unsafe:
					 * or next's result read untested, INTERP_TRAP_MEM);
					 * p_iter_helper_over: a helper writes a live one (the
					 * interpreter traps, INTERP_TRAP_HELPER; the kernel
					 * refuses it) */
/* p_dynptr_unsafe shares two bits (chosen when the word was 32 bits, all taken): a ringbuf dynptr may be left unreleased
 * (p_ringbuf_leak's: INTERP_TRAP_REF at exit), or a load reads past bpf_dynptr_data's bytes at
 * the end of the memory (p_urb_unsafe's: INTERP_TRAP_MEM); the kernel refuses both */
#define GEN_PROG_DYNPTR_LEAK GEN_PROG_REF_UNSAFE
#define GEN_PROG_DYNPTR_PAST GEN_PROG_URB_UNSAFE
#define GEN_PROG_DYNPTR_UNSAFE (GEN_PROG_DYNPTR_LEAK | GEN_PROG_DYNPTR_PAST)
#define GEN_PROG_REF_UNSAFE (1u << 17)	/* p_ringbuf_leak: a ringbuf record may be left
					 * unreleased (INTERP_TRAP_REF at exit); the kernel
					 * refuses it */
#define GEN_PROG_GLOBAL_UNSAFE (1u << 16)	/* p_global_unsafe: a global function reads
						 * through NULL or past its frame (INTERP_TRAP_MEM);
						 * the kernel refuses it */
#define GEN_PROG_URB_UNSAFE (1u << 19)	/* p_urb_unsafe: a user ring buffer callback loads
					 * through its dynptr or bpf_dynptr_data's result untested
					 * or past its size (INTERP_TRAP_MEM on some runs) or
					 * returns 2; the kernel refuses it */
#define GEN_PROG_TIMER_UNSAFE (1u << 21)	/* p_timer_unsafe: a timer's callback returns 1 (the
					 * interpreter never runs it), or bpf_timer_init is given
					 * a pointer off the timer or another map (INTERP_TRAP_HELPER);
					 * the kernel refuses it */
#define GEN_PROG_TIMER_TWO_UNSAFE (1u << 26)	/* p_timer_two_past: a callback set for the
					 * timers of maps 3 and 4 writes bytes only map 4's values
					 * have (a firing of map 3's traps, INTERP_TRAP_MEM); the
					 * kernel refuses it */
#define GEN_PROG_EACH_UNSAFE (1u << 15)	/* p_for_each_unsafe: a for_each callback writes past
					 * its value or to its key (INTERP_TRAP_MEM) or returns 2;
					 * the kernel refuses it */
#define GEN_PROG_HELPER_MEM_UNSAFE (1u << 10)	/* p_helper_mem_over, p_helper_zero_over,
						 * p_helper_str_neg: a helper's write, or a read
						 * at its result, may leave the frame
						 * (INTERP_TRAP_MEM); the kernel refuses it */
#define GEN_PROG_PKT_UNSAFE (1u << 11)	/* p_pkt_len_over, p_call_pkt_over, p_pkt_join_past:
					 * a run reads the packet byte at data_end (or past
					 * it: INTERP_TRAP_MEM); the kernel refuses it */
#define GEN_PROG_START_RANGE_UNSAFE (1u << 18)	/* p_start_range_over: a run reads past the
						 * frame's top (INTERP_TRAP_MEM); the kernel
						 * refuses it */
#define GEN_PROG_CALL_CTX_UNSAFE (1u << 23)	/* p_call_ctx_over: every run writes the byte below
						 * main's frame (a callee's context) */
#define GEN_PROG_ARGS_LAST_UNSAFE (1ull << 32)	/* p_args_last_over: every run's last call
						 * writes the 8 bytes above the callee's frame */
#define GEN_PROG_HASH_UNSAFE (1ull << 33)	/* p_map_hash_bad: a hash map's value read without
						 * its NULL check (a key never inserted) or at
						 * value_size - 4 (8 bytes, of an element every run
						 * finds): INTERP_TRAP_MEM on every run; the kernel
						 * refuses it */
#define GEN_PROG_PCPU_UNSAFE (1ull << 34)	/* p_map_lookup_percpu_bad: a per-CPU value read
						 * without its NULL check (cpus past the
						 * interpreter's 2) or at value_size - 4 (8 bytes,
						 * of an element every run finds): INTERP_TRAP_MEM
						 * on every run; the kernel refuses it */
#define GEN_PROG_CB_CTX_UNSAFE (1ull << 35)	/* p_cb_two_ctx_bad: a callback loads through the
						 * NULL one of its calls' contexts holds
						 * (INTERP_TRAP_MEM on every run); the kernel
						 * refuses it */
#define GEN_PROG_LOOP_CB_UNSAFE (1ull << 36)	/* p_bpf_loop_unsafe: a bpf_loop callback returns
						 * 2, or reads its ctx at main's frame top or
						 * through NULL (INTERP_TRAP_MEM on runs that call
						 * it); the kernel refuses it */
#define GEN_PROG_SUB_REF_UNSAFE (1ull << 51)	/* p_sub_ref_bad: a spin lock taken in a static
						 * function never released, a helper called in
						 * one under main's lock, a lock taken twice or
						 * released twice across the frames (every run:
						 * INTERP_TRAP_REF or _RULE); the kernel refuses
						 * it */
#define GEN_PROG_SUB_RET_UNSAFE (1ull << 38)	/* p_sub_ret_ptr_bad: main loads through a static
						 * function's map lookup result untested (NULL)
						 * or past the value (INTERP_TRAP_MEM on every
						 * run); the kernel refuses it */
#define GEN_PROG_THROW_UNSAFE (1ull << 42)	/* p_throw_bad: bpf_throw in a bpf_loop callback,
						 * with r10 as the cookie, with an iterator live
						 * (INTERP_TRAP_HELPER on runs that throw) or in a
						 * loop; the kernel refuses each */
#define GEN_PROG_ALIGN_UNSAFE (1ull << 40)	/* p_stack_align_bad: a stack store or load not
						 * aligned to its size, which the kernel refuses
						 * and no run shows (x86 does it) */
#define GEN_PROG_PKT_VAR_UNSAFE (1ull << 54)	/* p_pkt_var_data: data read past what a
						 * check of data + var proves (INTERP_TRAP_MEM
						 * on every run where it is past data_end, else
						 * no run reads it), or through data + 40 - var
						 * (in the packet); the kernel refuses it */
#define GEN_PROG_KRULE_UNSAFE (1ull << 41)	/* p_krules_bad: a packet offset the kernel loses
						 * (a number spilled where it keeps none, or
						 * shifted by the width or a variable) and every
						 * run computes right, or an immediate the
						 * kernel refuses (a shift by +-width, a
						 * division or modulo by 0; refused), or a
						 * pointer spilled narrower than 8 bytes:
						 * refused, no run traps */
#define GEN_PROG_LINK_UNSAFE (1ull << 52)	/* p_links_bad: a copy of a packet byte written
						 * between a jump that bounds the other copy and
						 * its use as a stack offset (above the frame:
						 * INTERP_TRAP_MEM on runs that pass the jump, the
						 * own input's among them); the kernel refuses it */
#define GEN_PROG_STRTOL_UNSAFE (1ull << 53)	/* p_strtol_bad: bpf_strtol's res misaligned
						 * or past the frame's top (INTERP_TRAP_MEM on
						 * every run); the kernel refuses it */
#define GEN_PROG_KWIDEN_UNSAFE (1ull << 61)	/* p_kwiden_copy: the kernel widens a loop's counter
							 * and refuses a write its pointer reaches; no run
							 * traps */
#define GEN_PROG_JEQ_UNSAFE (1ull << 62)	/* p_jeq_null_stack: a map value read through
						 * where the kernel infers no NULL test; no run
						 * reads it */
#define GEN_PROG_FRAME_RULE_UNSAFE (1ull << 39)	/* p_frame_rules_bad: a caller's spilled
						 * pointer read or added into narrower by a callee
						 * or callback, a stack pointer stored into a
						 * caller's frame (no run traps), or a store into
						 * it on some paths only, read back as an offset
						 * (runs that did not store may trap); the kernel
						 * refuses it */
#define GEN_PROG_STACK_SHAPE_UNSAFE (1ull << 57)	/* p_frame_fields_over, p_stack_walk_over:
						 * a spilled packet pointer overwritten by a
						 * callee's or a loop's store, then loaded
						 * through (INTERP_TRAP_MEM on runs where the
						 * address left the packet); p_fill_join_narrow:
						 * a pointer spilled on some paths read back
						 * narrower (no run traps); the kernel refuses
						 * them */
#define GEN_PROG_DEAD_ARM_UNSAFE (1ull << 63)	/* p_dead_arm_reached: a pointer's narrow spill
						 * (no run traps) or a write to r10 (a run that
						 * reaches it traps: INTERP_TRAP_RULE) where the
						 * kernel walks */
#define GEN_PROG_MTU_UNSAFE (1ull << 59)	/* p_check_mtu_bad: bpf_check_mtu's mtu_len
						 * misaligned or past the frame's top
						 * (INTERP_TRAP_MEM on every run); the kernel
						 * refuses it */
#define GEN_PROG_LD_ABS_UNSAFE (1ull << 58)	/* p_ld_abs_sub_skip: a static function's
						 * LD_ABS / LD_IND past the packet returns 0
						 * before its store into main's frame, which main
						 * reads through (INTERP_TRAP_MEM on every run);
						 * the kernel refuses it */
#define GEN_PROG_NEST (1ull << 46)	/* p_cb_loop, p_timer_loop, p_vma_loop, p_timer_cross: a
					 * plain loop in a for_each or user_ringbuf_drain callback,
					 * a timer armed or bpf_find_vma called in a plain loop, or
					 * a timer callback arming map 4's timer */
#define GEN_PROG_KFUNC_UNSAFE (1ull << 45)	/* p_kfunc_bad: a kfunc's task leaked, released
						 * twice or before its NULL test
						 * (INTERP_TRAP_REF on runs whose acquire gives
						 * one), a pointer for its pid, or a kfunc XDP may
						 * not call (no run traps); the kernel refuses it */
#define GEN_PROG_SOCK_UNSAFE (1ull << 60)	/* p_sock_unsafe: a socket leaked, used after its
						 * release, read before its NULL test or past
						 * struct bpf_sock (INTERP_TRAP_REF or _MEM on
						 * the own helper data, whose lookup finds one);
						 * the kernel refuses it */
#define GEN_PROG_ACCESS_UNSAFE (1ull << 56)	/* p_access_bad: a store into a
						 * BPF_F_RDONLY_PROG map's value (a run traps),
						 * a load from a BPF_F_WRONLY_PROG one's (no run
						 * traps), an atomic add into either, or a
						 * sign-extending load of the context's data,
						 * data_end or data_meta (a run traps), or
						 * (p_strncmp_bad) bpf_strncmp given a string
						 * with no 0 byte after it (a run traps); the
						 * kernel refuses it */
#define GEN_PROG_QUEUE_UNSAFE (1ull << 37)	/* p_queue_bad: bpf_map_pop_elem or peek writing
						 * a value past the frame's top, or
						 * bpf_map_push_elem reading one past the packet's
						 * checked bytes (every run traps); the kernel
						 * refuses it */
#define GEN_PROG_NEST_UNSAFE (1ull << 47)	/* their twins: a callback's loop reading one past
						 * its value or sample bytes, a timer armed on a
						 * value that may be NULL (in a loop, or by a
						 * callback), a p_find_vma_unsafe callback called
						 * in a loop (INTERP_TRAP_MEM or _HELPER, or
						 * _LIMIT for the vma's, on some runs); the kernel
						 * refuses them */
#define GEN_PROG_CB_COUNT_UNSAFE (1u << 20)	/* p_cb_count_over: a run may read the byte at
						 * data_end at a count a callback kept */
#define GEN_PROG_FRAMES_UNSAFE (1u << 22)	/* p_call_frames_past: a callee given pointers into
						 * two frames reads past both (INTERP_TRAP_MEM); the
						 * kernel refuses it */
#define GEN_PROG_PTR_ALU_UNSAFE (1u << 24)	/* p_ptr_alu_bad: an ALU form on a pointer the
						 * kernel refuses (adjust_ptr_min_max_vals); runs
						 * do not trap */
#define GEN_PROG_PTR_JOIN_UNSAFE (1u << 14)	/* p_ptr_join_over: a run whose packet starts
						 * with an odd byte reads past the frame or
						 * at data_end (INTERP_TRAP_MEM); the kernel
						 * refuses it */
#define GEN_PROG_SIDE_ONLY_UNSAFE (1u << 25)	/* p_irr_side_only_bad: a run loads above the
						 * frame or through NULL in an irreducible loop
						 * entered only at one entry (INTERP_TRAP_MEM);
						 * the kernel refuses it */
#define GEN_PROG_DEAD_ENTRY_UNSAFE (1u << 27)	/* p_dead_branch_bad, p_dead_outer_bad,
						 * p_dead_cb_bad: a run
						 * loads above the frame or through NULL where
						 * only the live one of two entries reaches
						 * (INTERP_TRAP_MEM); the kernel refuses it */
#define GEN_PROG_VMA_UNSAFE (1u << 28)	/* p_find_vma_unsafe: a bpf_find_vma callback writes
					 * its vma, returns 2, or reads past main's frame or
					 * through NULL by its ctx (INTERP_TRAP_MEM on runs that
					 * find the vma); the kernel refuses it */
#define GEN_PROG_FIELD_UNSAFE (1u << 29)	/* p_map_field_bad: the spin lock's bytes read or
						 * written, or a number stored into the kptr;
						 * the kernel refuses it (runs do not trap) */
#define GEN_PROG_KREGION_UNSAFE (1ull << 43)	/* p_kfunc_region_bad: an RCU or
						 * non-preemptible region left open at the
						 * exit, closed once too often or the RCU lock
						 * nested (INTERP_TRAP_RULE on the runs that
						 * reach it); the kernel refuses it */
#define GEN_PROG_FASTCALL_UNSAFE (1ull << 50)	/* p_fastcall_bad: a store below a bpf_fastcall
						 * pattern keeps its stack (528 bytes) */
#define GEN_PROG_SPIN_LOCK_UNSAFE (1ull << 55)	/* p_spin_lock_bad: a helper called with the lock
						 * held, no unlock, a second lock, an unlock at
						 * offset 0 (runs may trap); the kernel refuses */
#define GEN_PROG_U64_PTR_UNSAFE (1u << 30)	/* p_map_u64_ptr_bad: a map value's u64 added to a
						 * pointer unbounded, or tested one too far
						 * (a run may trap); the kernel refuses it */
#define GEN_PROG_MAP_LEN_UNSAFE (1u << 31)	/* p_map_len_over: a map value's length checked
						 * one too high; the run on the program's own
						 * input reads the byte past the value
						 * (INTERP_TRAP_MEM); the kernel refuses it */
#define GEN_PROG_LOOP_DEF (1u << 7)	/* p_loop_def: a register and a slot written by every
					 * iteration of a loop run at least once, read after it */
#define GEN_PROG_REG_UNWRITTEN (1u << 8)	/* p_loop_def_early: a run may read a register and
						 * stack bytes never written (the kernel refuses
						 * the register) */

/* The call graph's shape: no calls, calls without a cycle, or recursion that nothing stops
 * (through one function or two), or that a counter argument stops. */
enum gen_call_shape { GEN_CALLS_NONE, GEN_CALLS_CHAIN, GEN_CALLS_REC_DIRECT, GEN_CALLS_REC_MUTUAL,
		      GEN_CALLS_REC_BOUNDED };
const char *gen_call_shape_name(unsigned shape);

/* A frame's share of a chain's combined stack as a JITing kernel counts it (check_max_stack_depth:
 * round_up(depth, 16); 0 stays 0).  Checked against the running kernel: a main touching fp-8
 * and a callee touching fp-500 are refused as 528 bytes, fp-484 accepted.  (Without a JIT the
 * kernel rounds to 32 and counts at least 32 per frame.) */
static inline uint32_t gen_frame_round(uint32_t depth)
{
	return (depth + 15) & ~15u;
}

/* A function of the program, as the kernel delimits them: from its entry to the next one. */
struct gen_func {
	uint32_t pc, end;	/* first instruction, one past the last */
	uint16_t frame;		/* stack depth: the largest -off of its r10-based accesses */
	uint8_t nargs;		/* registers r1..r<nargs> it reads as arguments (main: 1) */
	int8_t ptr_arg;		/* the argument that points into the caller's frame, -1 */
};

struct gen_program {
	struct bpf_insn *insns;	/* heap, reused by the next gen_program() on the same struct */
	size_t len, cap;
	uint32_t prog_type;	/* BPF_PROG_TYPE_XDP; BPF_PROG_TYPE_RAW_TRACEPOINT with p_find_vma;
				 * BPF_PROG_TYPE_SK_REUSEPORT or _SK_LOOKUP with p_sk_prog;
				 * BPF_PROG_TYPE_SCHED_CLS with p_ld_abs_sub;
				 * BPF_PROG_TYPE_CGROUP_SKB with p_cg_storage, _SK_MSG with
				 * p_sk_msg */
	uint8_t input[GEN_INPUT_MAX];	/* a packet to run it on (any GEN_INPUT_LEN bytes will do;
					 * p_sk_prog's: the context first, input_len bytes in all) */
	size_t input_len;
	uint8_t helper_data[GEN_HELPER_LEN];	/* results for prandom/ktime, in call order */
	size_t helper_len;
	struct ebpf_map_def maps[16];	/* the array map (p_map_hash: a hash map) when
					 * map_cnt >= 1, the ring buffer when
					 * map_cnt >= 2 (GEN_MAP_RINGBUF), the user ring buffer when
					 * map_cnt >= 3 (GEN_MAP_URB), the timer map when map_cnt >= 4
					 * (GEN_MAP_TIMER), the second timer map when map_cnt >= 5
					 * (GEN_MAP_TIMER2), the fields map when map_cnt >= 6
					 * (GEN_MAP_FIELDS), the read- or write-only map when
					 * map_cnt >= 7 (GEN_MAP_ACCESS), the socket map when
					 * map_cnt >= 8 (GEN_MAP_SOCK), the cgroup storages at 8
					 * and 9, the queue and the stack at 10 and 11 */
	size_t map_cnt;
	struct gen_loop loops[GEN_MAX_LOOPS];	/* main's loops in pc order, then the subprogram's */
	size_t nloops;
	int32_t subprog;	/* pc of the first subprogram, -1 without */
	struct gen_func funcs[GEN_MAX_FUNCS];	/* main, then the subprograms in pc order */
	size_t nfuncs;
	uint8_t call_shape;	/* enum gen_call_shape */
	uint8_t rec_cycle;	/* functions on the recursive cycle (1 direct, 2 mutual), 0 */
	/* Frames (main included) of the deepest chain of calls and the largest combined stack
	 * (sum of gen_frame_round()) of a chain: over every path of the call graph when it has
	 * no cycle (what the kernel checks), over the frames a run reaches with bounded
	 * recursion, GEN_UNBOUNDED with unbounded recursion. */
	uint32_t max_frames;
	uint32_t max_stack;
	uint64_t flags;		/* GEN_PROG_* (bits 0-31 once a uint32_t, full; new ones from 32) */
	uint64_t shapes;	/* union of what the program exercises */
	uint32_t cond_kinds;	/* bit (op >> 4) + 16 * (cmp_width == 32) of every loop test */
	uint64_t max_steps;	/* bound on instructions run for any input; UINT64_MAX unknown */
	/* the global functions' prototypes (p_global; ebpf_prog.globals), by their first pc */
	struct ebpf_global_func globals[GEN_MAX_FUNCS];
	size_t nglobals;
};

/* Builds one program from src.  out must be zeroed before its first use; it may be reused (its
 * buffer is kept) and is released with gen_program__free.  Returns 0, or -errno (-EINVAL for
 * bad knobs, -ENOMEM); every choice sequence, including an empty byte string, yields a program. */
int gen_program(struct gen_program *out, struct gen_src *src, const struct gen_knobs *knobs);
void gen_program__free(struct gen_program *p);	/* frees members, not p; NULL ok */

/* A view of the program for the interpreter and the analyzer (no copy; valid while p is). */
void gen_program__prog(const struct gen_program *p, struct ebpf_prog *view, const char *name);
/* The same view as a one-program object with the program's maps (obj->progs = view). */
void gen_program__object(const struct gen_program *p, struct ebpf_object *obj,
			 struct ebpf_prog *view, const char *name);

/* The program as a data file: metadata as "; " comment lines, then "-- asm" (kernel syntax,
 * reassembles to the same instructions), "-- type" and "-- maps" (what `check`, `verify` and
 * `run` need to run it as the campaign does), "-- input" and "-- helper" hex sections. */
void gen_program__to_asm(struct sbuf *sb, const struct gen_program *p);

/* Wrap-exact trip arithmetic (exposed for tests).  The loop continues while
 * (c cmp b), compared at cmp_width bits, where c is a counter of counter_width bits that starts
 * at a and adds s per iteration.  gen_first_exit() sets *k to the smallest k >= 0 for which
 * a + k*s fails the test, or returns false when no k does (the loop never exits by its test). */
bool gen_cond_holds(uint8_t op, unsigned cmp_width, unsigned counter_width, uint64_t c, uint64_t b);
bool gen_first_exit(uint8_t op, unsigned cmp_width, unsigned counter_width, uint64_t a, uint64_t s,
		    uint64_t b, uint64_t *k);
/* The core: smallest k >= 0 with lo <= (a + k*s) mod 2^w <= hi (1 <= w <= 64, lo <= hi < 2^w). */
bool gen_first_hit(unsigned w, uint64_t a, uint64_t s, uint64_t lo, uint64_t hi, uint64_t *k);

#endif
