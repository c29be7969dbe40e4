/* The BPF machine over Z3 terms: the interpreter's semantics (oracle/exec/interp.h) instruction by
 * instruction, for the Z3 oracle's symbolic execution and for the interp-vs-Z3 differential test.
 *
 * A machine state is what the interpreter keeps, as terms: r0-r10 (bv64), one byte array per
 * live stack frame, the input (context bytes for PLAIN, packet for XDP and SKB), the __sk_buff
 * fields a program may write (SKB), the storage of each map, the position in the helper-result
 * stream, each frame's may_goto budget, and the callers' saved r6-r10.  Arrays are indexed by
 * the offset from their region's base; addresses are the interpreter's fixed virtual addresses
 * (INTERP_VA_*), so pointers are the same numbers in both.  A state also carries its guard: the
 * condition (over the inputs and whatever was assumed) under which execution is in this state.
 * The open-coded iterator kfuncs (bpf_iter_num_new/next/destroy) run on their 8 bytes of the frame
 * as interp.c's do_kfunc does, with the lifecycle's traps (not 8 aligned bytes of the current
 * frame, new on a live iterator, next or destroy on one that is not, a frame exiting with one
 * live); the limit of 64 live iterators and a helper's memory overlapping one are not traps here
 * (more runs go on than in the interpreter: what is proved holds for its runs too).  The key a
 * bpf_for_each_map_elem callback is given (array maps: 4 bytes, INTERP_VA_KEY) is readable by
 * loads and helpers, and kernel objects (INTERP_VA_BTF: bpf_find_vma's vma) read 1 to 8 bytes
 * as the interpreter's do, every aligned u64 INTERP_VA_BTF; stores and atomics on either trap.
 * The sample a bpf_user_ringbuf_drain callback is given (its size one byte of the helper stream
 * mod INTERP_URB_MAX + 1, its bytes the next ones) is a region of that symbolic size at
 * INTERP_VA_URB + 256k, read and written by loads, stores and helpers through
 * bpf_dynptr_data's pointer, and by bpf_dynptr_read/write, as interp.c's dynptr_helper runs
 * them (their length must be a constant here: unsupported otherwise).  A local dynptr
 * (bpf_dynptr_from_mem over a map value) is its 16 bytes on the stack as the interpreter writes
 * them (interp.h: INTERP_DP_*), which bpf_dynptr_read/write/data read back.  A ringbuf dynptr
 * (bpf_ringbuf_reserve_dynptr) is the same 16 bytes over a record of the ring: the records the
 * run reserved are one region at INTERP_VA_RINGBUF (record k at 2^32 k, its first size bytes
 * accessible while it is live), their sizes, the live set, the count reserved and the NULL
 * dynptrs not yet released in the state (mach.any_rb), with the interpreter's draws (whether
 * the ring has room, the byte the record holds) and its leak check at the main program's exit
 * and at tail calls; bpf_ringbuf_reserve's records (without a dynptr) are not encoded.
 * bpf_map_lookup_percpu_elem (helper 195) runs as interp.c's pcpu_lookup does in a run of the
 * interpreter's CPUs (INTERP_NCPUS, the program on CPU 0: interp_env's defaults): NULL for a u32
 * cpu not below them or a key that finds nothing, CPU 0's copy the map's own window, another
 * CPU's copy in its window at INTERP_VA_PCPU (mstate.pcpu: one byte array per map, CPU c's
 * copies at index 2^32 c + the offset in the window, each value a region of its own).  Those
 * copies, and the running CPU's copy of a per-CPU array (its own window), are zero as a run of
 * the interpreter starts (BMC, whose models replay) and any bytes in the induction
 * (mach.any_pcpu: whatever the kernel's CPUs left there); a hash map's
 * element found as hash_helper_on finds one (the induction; BMC stops the path there).  The
 * copies' windows are readable and writable from the program's start, not only once a lookup
 * made the interpreter allocate them (a forged address there runs on here where the
 * interpreter traps: more runs, so what is proved holds for its runs too).
 *
 * mach_step() runs one instruction: the successors with their guards (both sides of a branch),
 * the condition under which it traps (a trapping run stops: successors exclude it), the
 * condition under which the program ends there normally, and the stores it made (what a loop
 * may change).  What the interpreter does but this encoding does not (a map or callx target
 * that is not a constant) is reported as unsupported, never guessed; a helper on a hash map is
 * encoded for the induction as any kernel may run it (mach.any_hash) and ends a BMC path.
 */
#ifndef BPFSCEV_ORACLE_SMT_MACH_H
#define BPFSCEV_ORACLE_SMT_MACH_H

#include <stdbool.h>
#include <stdint.h>

#include "bpf/prog.h"
#include "oracle/exec/interp.h"
#include "oracle/z3/smt_term.h"

#define MACH_MAX_MAPS 16	/* maps with modeled storage; more maps: accesses unsupported */
#define MACH_NFRAMES EBPF_MAX_CALL_DEPTH
#define MACH_MAX_STORES 4	/* store events one instruction can make */

enum mach_map_kind { MACH_MAP_OTHER, MACH_MAP_ARRAY, MACH_MAP_HASH };

struct mach_map {
	enum mach_map_kind kind;
	uint64_t len;		/* bytes of storage (0: accesses trap) */
	uint32_t nval;		/* values (an array's elements, a hash's slots) with storage */
	unsigned shift;		/* interp_map_shift: value i at i << shift in the map's window */
	struct ebpf_map_def def;
};

/* What stays the same for every state of one program. */
struct mach {
	struct sx *c;
	const struct ebpf_prog *prog;	/* (kfunc names) */
	const struct bpf_insn *insns;
	size_t len;
	enum interp_ctx_kind ctx_kind;
	uint64_t input_len;
	struct mach_map maps[MACH_MAX_MAPS];
	size_t nmaps;		/* of the object; only the first MACH_MAX_MAPS have storage */
	sxt helper;		/* the helper-result stream: byte array indexed by position */
	sxt input0;		/* the input as the program starts (offset-indexed byte array) */
	sxt poison;		/* INTERP_POISON */
	bool no_iters;		/* the iterator kfuncs are unsupported (a first pass) */
	/* Every frame's may_goto budget is a fresh number as the frame starts (the program's
	 * entry, a call, a callback's call), not the interpreter's INTERP_MAY_GOTO_BUDGET: a
	 * may_goto falls through any number of times, then jumps every time (its count at 0).
	 * That is every kernel's may_goto: counted (BPF_MAX_LOOPS per frame) and the timed one of
	 * x86-64 JITs (6.15+: refilled by 0xffff while a quarter second has not passed, then 0),
	 * so what is proved with it holds for both.  Not a run of the interpreter: for the
	 * induction only, never where a model must replay (BMC keeps the interpreter's budget). */
	bool any_may_goto;
	/* Hash maps as every kernel may hold and change them (smt_mach.c: hash_helper_on): their
	 * bytes any at entry, their helpers' results any of what the kernel and the interpreter
	 * may return.  For the induction only; BMC stops a path at a hash map helper (mstep.cut). */
	bool any_hash;
	/* The program calls a ringbuf dynptr helper: its states carry the records (mstate.rb). */
	bool any_rb;
	/* The program calls bpf_map_lookup_percpu_elem: its states carry the other CPUs' copies
	 * of its per-CPU maps (mstate.pcpu). */
	bool pcpu;
	/* Those copies any bytes at entry, and a hash update that inserts may zero them (the
	 * kernel's other CPUs may have written them), and so is the running CPU's copy of a
	 * per-CPU array (earlier runs on that CPU may have; the kernel differential starts the
	 * interpreter from every copy the kernel holds; a per-CPU hash map's is, as any_hash):
	 * for the induction only; BMC starts them at zero as the interpreter does, so its models
	 * replay, and covering every path proves nothing once a run reads a per-CPU map. */
	bool any_pcpu;
};

/* A new frame's may_goto budget (see any_may_goto). */
sxt mach_may_goto_budget(struct mach *m);

struct mstate {
	sxt guard;
	sxt r[EBPF_NREGS];
	unsigned depth;		/* call depth: frames 0..depth are live */
	sxt stack[MACH_NFRAMES];
	sxt input;
	sxt skbctx;		/* SKB: the __sk_buff's plain fields, offset-indexed */
	sxt maps[MACH_MAX_MAPS];
	sxt hpos;		/* next position in the helper stream */
	sxt maygoto[MACH_NFRAMES];
	sxt iters[MACH_NFRAMES];		/* live open-coded iterators of frame k: bit j for
						 * the 8 bytes at offset 8j of the frame (bv64) */
	sxt keys[MACH_NFRAMES];		/* frame k runs a bpf_for_each_map_elem callback: its
					 * key's bytes (a byte array, read-only at
					 * INTERP_VA_KEY + 512k), else NULL */
	uint16_t klen[MACH_NFRAMES];	/* ... its bytes (4 for an array, a hash's key size) */
	sxt urb[MACH_NFRAMES];		/* frame k runs a bpf_user_ringbuf_drain callback: its
					 * sample's bytes (offset-indexed, INTERP_URB_MAX of them
					 * at INTERP_VA_URB + 256k, the first urbsz[k] readable
					 * and writable), else NULL */
	sxt urbsz[MACH_NFRAMES];	/* ... the sample's size (bv64, at most INTERP_URB_MAX) */
	/* Ringbuf dynptrs' records (interp.c: recs, dp_nulls, live_recs), NULL unless
	 * mach.any_rb: */
	sxt rb;			/* their bytes: record k's at index 2^32 k + offset */
	sxt rbsz;		/* record k's size at index 4k (u32, little-endian) */
	sxt rblive;		/* bv64: bit k, record k is reserved and not released */
	sxt nrecs;		/* bv64: records reserved so far */
	sxt dnull;		/* bv32: NULL ringbuf dynptrs not released */
	sxt refs;		/* bv32: references held (live records and dnull) */
	/* Per-CPU map k's copies of the CPUs other than the running one (mach.pcpu; NULL for
	 * other maps, or copies too large for the interpreter): CPU c's at index 2^32 c + the
	 * offset in its window, INTERP_VA_PCPU + ((c * maps + k) << 32). */
	sxt pcpu[MACH_MAX_MAPS];
	sxt saved[MACH_NFRAMES][5];	/* saved[k]: r6-r10 of frame k while frame k+1 runs */
	uint32_t ret_pc[MACH_NFRAMES];	/* where frame k resumes */
};

/* A store one instruction made: size bytes at addr, when guard holds (and it did not trap). */
struct mach_store {
	sxt addr, guard;
	uint32_t size;
};

/* The room for why an instruction is not encoded (mstep.unsupported, the prover's notes). */
#define MACH_WHY_LEN 256

struct mstep {
	unsigned n;			/* successors: 0, 1 or 2 */
	struct mstate succ[2];
	uint32_t pc[2];
	sxt trap;			/* it traps (guard included) */
	sxt end;			/* the program ends here normally (guard included) */
	bool call;			/* succ[0] is a bpf-to-bpf callee's entry, frame pushed */
	bool ret;			/* succ[0] is the caller after a return, frame popped */
	struct mach_store stores[MACH_MAX_STORES];
	unsigned nstores;
	/* set: the instruction could not be encoded, and why (room for a helper's and a map's
	 * full names: map_helper_on) */
	char unsupported[MACH_WHY_LEN];
	bool cut;			/* BMC: the path ends here unexplored (not a trap: no
					 * claim is decided by it; mach.any_hash) */
};

/* obj may be NULL (no maps). */
int mach_init(struct mach *m, struct sx *c, const struct ebpf_prog *prog,
	      const struct ebpf_object *obj, enum interp_ctx_kind kind, uint64_t input_len);
/* The state at program entry: inputs are m->input0 and m->helper, maps hold their initial
 * contents, the stack is zero. */
void mach_entry_state(struct mach *m, struct mstate *st);
void mach_step(struct mach *m, const struct mstate *in, uint32_t pc, struct mstep *out);
/* Whether the machine traps at helper id because the interpreter does not run it (its result
 * neither an integer nor a kernel object, nor encoded here): every path through such a call is
 * vacuous, so the prover must not prove claims past it. */
bool mach_helper_unrun(int32_t id);

/* Merging states that reach one point on exclusive paths: the guard becomes the disjunction,
 * every component an if-then-else on a's guard.  False when they cannot merge (other depth). */
bool mstate_merge(struct sx *c, struct mstate *acc, const struct mstate *b);

/* A range claim's location in a state: a register, or the zero-extended cell at r10 + off in
 * the running frame.  NULL when the cell is outside the frame (nothing to check). */
sxt mach_loc_value(struct mach *m, const struct mstate *st, uint32_t loc);
/* The same cell written with v (its low bytes).  False when outside the frame. */
bool mach_loc_write(struct mach *m, struct mstate *st, uint32_t loc, sxt v);

/* Memory a loop may change, for havocking: the storage backing address range [addr, addr+len)
 * in this state: which array (a pointer into st) and the array index of addr.  NULL when the
 * range is not inside one region. */
sxt *mach_region_of(struct mach *m, struct mstate *st, uint64_t addr, uint64_t len,
		    uint64_t *index, uint64_t *region_lo, uint64_t *region_len);
/* Every array of the state that a store can reach, with its address range, for whole-region
 * havoc: fills up to max entries and returns how many. */
struct mach_region {
	sxt *arr;
	uint64_t lo, len;	/* address range */
	uint64_t index0;	/* array index of lo */
	bool value;		/* one value of a map (its array holds the map's other values) */
};
/* The regions a store may reach, a map's values one region each while they fit in out (the
 * rest of a map's values, then, one region of the whole window). */
unsigned mach_regions(struct mach *m, struct mstate *st, struct mach_region *out, unsigned max);

#endif
