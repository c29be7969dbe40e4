/* What the generator files share: the emitter (instructions, labels and fix-ups in fixed arrays,
 * no allocation per instruction), variables with homes in registers or stack slots, the
 * scratch-register pool, and the state of the loops being built.
 *
 * Register discipline, which is what keeps every program kernel-loadable:
 *  - a variable (counter, bound, derived value, accumulator) has a home: r6-r9, r1-r5 (then it
 *    is spilled before every call and filled after it, as compilers do), or a stack slot; it is
 *    written when created, so it is never read uninitialised;
 *  - scratch registers (r0-r5 not holding a home) live within one statement and never across a
 *    call;
 *  - the subprogram of p_subprog keeps to r0-r5 and its own frame: r0 is its accumulator, r1
 *    and r2 its arguments; the subprograms of gen_calls.c also home variables in r6-r9 (the
 *    kernel keeps a caller's r6-r9 across a call) and keep r1, r2 as argument homes.
 */
#ifndef BPFSCEV_GENERATORS_GEN_INTERNAL_H
#define BPFSCEV_GENERATORS_GEN_INTERNAL_H

#include "generators/gen.h"

#define GI_MAX_LABELS GEN_MAX_INSNS
#define GI_MAX_FIXUPS GEN_MAX_INSNS	/* at most one per instruction */
#define GI_MAX_VARS 64
#define GI_MAX_OPEN 8		/* open loops (main nest up to 4, then subprogram loops) */

/* Stack slots for variable homes: main [-216, -32], subprogram [-8, -96]. */
#define GI_MAIN_SLOT_HI (-32)
#define GI_MAIN_SLOT_LO (-216)
#define GI_SUB_SLOT_HI (-8)
#define GI_SUB_SLOT_LO (-96)
#define GI_SUB_CELL (-104)	/* a subprogram's cell passed by pointer to its callees */
#define GI_LINK_SLOT_LO (-32)	/* chain and recursive subprograms: small frames */
#define GI_MAX_SUBS (GEN_MAX_FUNCS - 1)
#define GI_MAX_ITERS 16	/* p_iter_num statements of one program */

struct gi_var {
	int8_t reg;		/* home register, -1 when the home is a stack slot */
	int16_t slot;		/* home slot, or spill slot of a home in r1-r5 */
	uint8_t width;		/* 32: kept zero-extended with ALU32, stored 4 bytes in a slot */
	bool live;
};

/* A loop operand (init or bound): base + (v & mask) * mul, v from the input, an outer variable,
 * a subprogram argument (the subprogram's input) or nothing (constant). */
enum { OPND_CONST, OPND_INPUT, OPND_VAR, OPND_ARG };
struct gi_opnd {
	uint8_t kind;
	uint8_t in_size;	/* input: bytes read (1, 2, 4, 8) at in_off */
	uint8_t in_off;
	int var;		/* OPND_VAR, OPND_ARG: variable index */
	uint32_t mask;		/* 2^j - 1 */
	uint32_t mul;
	uint64_t base;
};

/* What an exit test says over every combination of operand values. */
struct gi_eval {
	bool nonterm;		/* some combination never leaves by the test (or unknown) */
	bool entered;		/* some combination enters the loop */
	bool all_enter;		/* every combination enters (for the guarded form) */
	uint64_t tmin, tmax;	/* header executions per entry over the entering combinations */
};

enum { CAT_NORMAL, CAT_WRAP, CAT_HUGE, CAT_NONTERM };

struct gi_loop {
	int idx;		/* in gen_program.loops */
	int parent;		/* open-loop index of the enclosing loop, -1 */
	int depth;
	uint8_t form, cat;
	uint8_t cw, jw, op;	/* counter width, compare width, continue condition */
	struct gi_opnd init, bound;
	uint64_t step;		/* own update, cw-bit two's complement */
	int ctr, bvar, dvar;	/* variables (-1 none) */
	uint64_t dstart, dstep;	/* derived IV: start and step */
	uint8_t dwidth;
	bool d_iv;		/* derived still an induction variable */
	bool bound_imm;		/* compare against an immediate */
	bool bound_ld64;	/* constant bound loaded by LD_IMM64 at each test */
	int l_head, l_cont, l_exit, l_top;	/* labels; l_top = first pc of the body range */
	/* how the counter changes per iteration, as a signed range */
	__int128 inc_lo, inc_hi;
	bool inc_exact;
	bool cond_step;
	uint64_t step_alt;
	bool early_exit;	/* a break/return may leave before the test says so */
	bool skip;		/* a continue/break was emitted: what follows is conditional */
	bool inner_nonterm;
	bool need_break;	/* endless test: the body must contain an input break */
	bool has_break_stmt;
	bool ctr_changed;	/* an inner loop changes the counter */
	bool started_skipped;	/* entered only on some iterations of the parent */
	__int128 mod_d;		/* added to the parent's counter per body execution */
	bool mod_cond;		/* ... on some body executions only */
	uint64_t budget;	/* largest trip count allowed */
	uint64_t child_remaining;	/* iteration product left for inner loops */
	uint64_t shapes;
	struct gi_eval ev;	/* evaluation of the planned parameters */
};

/* Per-function environment: main or the subprogram. */
struct gi_fn {
	bool sub;
	uint16_t home_pool;	/* registers free for homes */
	uint16_t caller_homes;	/* homes currently in r1-r5 */
	unsigned max_caller_homes;
	uint16_t scratch_pool;	/* registers that may serve as scratch when no home is there */
	int slot_next, slot_lo;	/* next free slot (grows down) and the lowest allowed */
	int acc;		/* accumulator variable */
	int arg_a, arg_b;	/* subprogram arguments (variables in r1, r2) */
	int callee_lo, callee_hi;	/* subprograms its loop bodies may call: [lo, hi) */
};

/* A planned subprogram (gen_calls.c). */
enum { SUBK_LEGACY, SUBK_WORKER, SUBK_LINK, SUBK_REC, SUBK_CALLBACK };
struct gi_sub {
	int label;
	uint8_t kind;
	uint8_t nargs;		/* 2..5: r1 and r2 are kept, r3.. folded into the accumulator */
	int8_t ptr_arg;		/* register passed a pointer to the caller's cell, -1 */
	int8_t next;		/* subprogram called once in straight-line code, -1 */
	bool bounded;		/* calls next only while r1 != 0, passing r1 - 1 */
	bool pad;		/* has a big-frame store, patched once all frames are known */
	bool called;
	int callee_lo, callee_hi;	/* workers its loop bodies may call */
	uint32_t pad_pc;
	/* SUBK_CALLBACK (gen_forms.c) */
	bool cb_ctx;		/* r2 points to main's cell */
	int32_t cb_stop;	/* returns 1 when r1 equals it; -1 never */
	uint32_t cb_inner;	/* trip count of its inner loop, 0 none */
	uint8_t cb_loop_bad;	/* a bpf_loop callback's twin (p_bpf_loop_unsafe): 1 returns 2, 2
				 * reads and writes its ctx at main's frame top (ctx + 232), 3
				 * through a NULL ctx; 0 safe */
	uint8_t cb_each;	/* a bpf_for_each_map_elem callback: 1 safe, 2 writes past the
				 * value, 3 writes the key, 4 returns 2 */
	uint8_t cb_urb;		/* a bpf_user_ringbuf_drain callback: 1 safe, 2 loads through
				 * its dynptr, 3 reads bpf_dynptr_data's result untested, 4 past
				 * its 8 bytes, 5 returns 2 */
	uint8_t cb_timer;	/* a timer's callback (p_timer): 1 returns 0, 2 returns 1 */
	bool cb_timer_rearm;	/* ... starts its timer again */
	bool cb_timer_past;	/* ... writes its value's bytes [40, 48) (p_timer_two_past) */
	uint8_t cb_cross;	/* ... arms map 4's timer of its key (p_timer_cross: 1) or of its
				 * key + 1, untested (p_timer_cross_null: 2), with subs[cb_callee] */
	int cb_callee;
	uint8_t cb_loop_n;	/* a for_each or urb callback's plain loop: its trip count (the
				 * value's words or the sample's bytes it reads; 9 one past), 0 none */
	uint8_t cb_vma;		/* a bpf_find_vma callback (p_find_vma): 1 safe, 2 writes the
				 * vma, 3 returns 2, 4 reads and writes its ctx past main's
				 * frame, 5 through a NULL ctx */
	bool cb_urb_data;	/* ... takes the sample through bpf_dynptr_data (else read) */
	uint8_t cb_urb_write;	/* ... writes it back: 0 no, 1 bpf_dynptr_write, 2 in place */
	uint8_t global;		/* a global function (p_global): 1 safe, 2 reads its pointer
				 * untested, 3 reads 512 bytes before it (called, not a
				 * callback) */
	uint8_t fastcall;	/* p_fastcall's f (gen_fastcall.c): 1 a bpf_fastcall pattern
				 * only, 2 and a store below it (p_fastcall_bad) */
	bool pkt;		/* p_call_pkt: f(p) reads the byte at p + pkt_at (called, not a
				 * callback) */
	bool pkt_spill;		/* ... f(&data) instead: it loads p from main's spill first */
	bool pkt_end;		/* ... f(p, data_end) instead: 1 when p <= data_end, else 0 */
	int16_t pkt_at;
	uint8_t bound;		/* p_call_bound: f(&n) counts to n, read through its pointer: 1 n
				 * in [0, 40], 2 n a 64-bit number of the input (the twin) */
	uint32_t bound_max;	/* n's largest value (bound 1) */
	int8_t cb_count;	/* p_cb_count: a bpf_loop callback doing ctx->i++ and *ctx->p =
				 * cb_count - 1 (called, not an entry of gi_emit_callback's own) */
	uint64_t cb_nr;		/* calls per bpf_loop at most */
	uint64_t cb_steps;	/* instructions per call at most */
	uint8_t frames;		/* p_call_frames: 1 the reader, f(p) = *(u64 *)(p + frames_at); 2 a
				 * caller of it from its own frame, *(u64 *)(r10 - 16) = 7;
				 * f(r10 - 16) (f: subs[frames_callee]); 3 a relay m(p) = f(p)
				 * between the callers and the reader */
	int16_t frames_at;
	int8_t frames_callee;
	bool kw_may_goto;	/* p_kwiden's f2: r0 = 0; m: may_goto out; r0 += 1; if r0 < 2
				 * goto m; out: r0 = 0 (called through a relay, frames 3) */
	bool ctx_fill;		/* p_call_ctx: f(p, n) writes the n bytes below p (called) */
	uint8_t args_last;	/* p_args_last: f(n) writes a[j] = j for j < n, a the args_last
				 * slots at fp - 8 * args_last (called; bound_max: n's largest) */
	uint8_t frames_reg;	/* p_frames_reg: 1 the loop, 2 its endless twin (loops[reg_loop],
				 * its own slot at fp + reg_off holding reg_c); 3 the relay h of
				 * the three-frame form (subs[reg_loop] is f, its slot fp + reg_off
				 * holding 0) */
	bool reg_three;		/* ... f of the three-frame form: f(p, q), p = q, q = r10 + o */
	int16_t reg_loop, reg_off;
	uint16_t reg_c;
	uint8_t iter_deep;	/* p_iter_deep's f: 1 an iterator loop over [0, cb_nr) at its
				 * deepest slot, 2 a store there; deep_pc: the pcs of its three
				 * `r1 += off` (1) or of the store (2), placed by gi_calls_finish */
	uint32_t deep_pc[3];
	/* p_dynptr_sub (gen_dynptr.c): 1 f(p) uses its caller's dynptr, 2 f(bit) makes one in its
	 * own frame; a ringbuf one (else from_mem over map 0's value dp_key), dp_size bytes; the
	 * use: 0 read, 1 data, 2 write, of dp_step bytes at dp_off; the twin (DPS_*), a leak on
	 * every path (dp_always) or when bit is 1; p_dynptr_sub_make: 3 f(p, x) makes its
	 * caller's dynptr p (over the map value x, or a ringbuf one), 4 f(p, bit) releases it;
	 * p_dynptr_cb: 5 a bpf_loop callback cb(i, p) uses its caller's dynptr p; p_dynptr_deep:
	 * 6 a relay m(p, x) = subs[dp_callee](p, x) between main and one of 1, 3, 4;
	 * p_dynptr_cb_make: 7 a bpf_loop callback cb(i, p) making or releasing its caller's
	 * dynptr p (dp_key_form: gen_dynptr.c's DPC_*), or (dp_each) a bpf_for_each_map_elem
	 * callback cb(map, key, value, p); p_dynptr_keyed: 8 f(p, x) making (dp_key_form 0) or
	 * releasing (1) its caller's record when x is 1, saying so by its result (0), its other
	 * result -1 in w0 (dp_always) or 1; p_dynptr_mid: 9 a relay m(p, x) holding a record of its
	 * own (dp_size bytes; the twin DPS_LEAK leaves it) around subs[dp_callee](p, x), one of 1;
	 * p_dynptr_global: 10 a global function g(p) (global 4) using its caller's dynptr */
	uint8_t dp_sub, dp_op, dp_step, dp_twin, dp_key, dp_key_form;
	/* p_cb_two_ctx (gen_cbctx.c): 1 a callback called in two contexts, loading through its
	 * context's pointer when not NULL; its twins' 2 untested, 3 untested and setting the
	 * pointer to NULL after; a for_each one (else bpf_loop's) */
	uint8_t cb_two_ctx;
	bool cb_two_each;
	/* p_sub_ret_ptr (gen_subret.c): 1 + c, f(key) returning map 0's value for key, at offset c
	 * when found (else NULL) */
	uint8_t ret_ptr;
	/* p_sub_ref (gen_subref.c): 1 f_lock(v) takes v's spin lock, 2 f_unlock(v) releases it,
	 * 3 (the twin) f_unlock calling bpf_get_prandom_u32 first; 0 not such a function */
	uint8_t sub_ref;
	/* p_ld_abs_sub (gen_ldabs.c): f(ctx, p) loads ld_size bytes of the packet at ld_base +
	 * ld_off with LD_ABS (LD_IND: r8 = ld_base): form 1 stores ctx at *p before the load, 2
	 * not at all, 3 (the twin) after it; 0 not such a function */
	uint8_t ld_form, ld_size, ld_base;
	bool ld_ind;
	int16_t ld_off;
	/* p_frame_rules (gen_calls.c): the form (FR_*), the callee's or (frame_cb) bpf_loop
	 * callback's side; its twin's with frame_bad; the narrow size (0-2: BPF_B, _H, _W) and
	 * offset of the twin's fill or atomic, the number it stores */
	uint8_t frame_rule;
	bool frame_bad, frame_cb;
	uint8_t frame_size;
	int16_t frame_at;
	int32_t frame_k;
	/* p_frame_fields (gen_stack.c): a callee's or (ff_cb) bpf_loop callback's writes of two
	 * fields of its caller's struct (ff_size 0-3: 1-8 bytes, at ff_at from the struct's start;
	 * the third, over the spill, written by the twin's form 3; forms 1 and 2 put the first or
	 * the second there), ff_k or (ff_reg) a register holding it */
	uint8_t ff_form;
	bool ff_cb, ff_reg, ff_on;
	uint8_t ff_size[3];
	int16_t ff_at[3];
	int32_t ff_k;
	bool dp_each;
	int8_t dp_callee;
	bool dp_rb, dp_always;
	uint32_t dp_size, dp_off;
	/* p_throw (gen_throw.c): 1 a bpf_loop callback throwing at index throw_k, 2 or 3 the
	 * exception callback, 4 f(x) throwing throw_cookie when x is throw_k (5: r10 instead) */
	uint8_t throw_sub;
	int32_t throw_k;
	uint64_t throw_cookie;
};

struct gi_fix {
	uint32_t pc;
	uint16_t label;
};

struct gi {
	struct gen_src *src;
	const struct gen_knobs *k;
	struct gen_program *p;
	int err;		/* first error (-E2BIG, -ENOSPC): the program is abandoned */
	struct bpf_insn *insns;	/* emitter: the program's buffer */
	uint32_t len, cap;
	uint32_t nlabels, nfix, nvars;
	uint16_t scratch_busy;
	struct gi_fn *fn;
	int nopen;
	/* program-wide choices */
	bool use_array, use_map, use_pkt, use_sub;
	bool raw_tp;		/* p_find_vma: a raw tracepoint, its input the context */
	bool use_ringbuf;	/* a p_ringbuf statement was emitted (map 1, GEN_MAP_RINGBUF) */
	bool use_urb;		/* a p_urb statement was emitted (map 2, GEN_MAP_URB) */
	bool use_timer;		/* a p_timer statement was emitted (map 3, GEN_MAP_TIMER) */
	bool use_timer2;	/* ... arming map 4's timer too (GEN_MAP_TIMER2) */
	bool use_fields;	/* a p_map_field statement was emitted (map 5, GEN_MAP_FIELDS) */
	bool use_queue;		/* the p_queue piece was emitted (maps 10, 11) */
	uint8_t queue_at;	/* p_queue_bad's push past the packet: 1 + the offset of the input
				 * byte whose low bits count the pushes (made odd: one at least) */
	bool use_access;	/* the p_access piece was emitted (map 6, GEN_MAP_ACCESS) */
	bool sock_found;	/* p_sock_unsafe: the first helper data byte odd (its lookup finds) */
	uint8_t sock_map;	/* p_sock's socket-map form: map 7 a sockmap (1) or sockhash (2);
				 * p_sk_prog's sk_reuseport: a reuseport array (3) */
	uint8_t sk_prog;	/* p_sk_prog: GI_SK_REUSEPORT or GI_SK_LOOKUP (with raw_tp's rules);
				 * p_ld_abs_sub: GI_SK_TC (gen_ldabs.c); p_cg_storage: GI_CG_SKB;
				 * p_sk_msg: GI_SK_MSG */
	bool sk_bad;		/* ... its twin (p_sk_prog_unsafe, p_ld_abs_sub_skip,
				 * p_cg_storage_unsafe, p_sk_msg_unsafe) */
	uint32_t access_flags;	/* ... with map 6's flags, BPF_F_RDONLY_PROG or BPF_F_WRONLY_PROG */
	const uint8_t *access_init;	/* ... and a read-only map 6's initial contents (frozen) */
	unsigned ntimers;	/* p_timer statements given a key of their own so far */
	bool sub_called;
	struct gi_sub subs[GI_MAX_SUBS];
	int nsubs;
	int main_tail;		/* subprogram main calls once after its loops, -1 */
	uint32_t tail_arg;	/* its r1: the recursion counter */
	bool big_frame;
	uint32_t stack_target;	/* big frame: the chain's combined stack to aim at */
	uint8_t call_shape, rec_cycle;
	uint32_t rec_frames;	/* bounded recursion: frames a run reaches */
	int main_loops;		/* loops begun in main so far */
	int huge_at, nonterm_at;	/* which of them is huge / possibly endless (-1 none) */
	uint64_t nest_budget;	/* iterations (product over a nest) a top-level nest may take */
	uint64_t may_goto_steps;	/* the may_goto loop's instructions (count-based rule) */
	/* p_iter_num statements: the label at each one's first instruction, and its instructions
	 * per run of it (times the loops around it, gi_calls_finish) */
	int niters;
	int iter_label[GI_MAX_ITERS];
	uint64_t iter_steps[GI_MAX_ITERS];
	/* p_iter_deep: f's plan entry, whether main has an iterator loop too (the pcs of its three
	 * `r1 += off`), and the combined stack of main and f to aim at */
	bool iter_deep, iter_deep_main;
	int iter_deep_sub;
	uint32_t iter_deep_pc[3];
	uint32_t iter_deep_target;
	/* p_map_len: the pc of its `w1 += c` (0: none), the input byte it adds to, and the length
	 * the program's own input is to set (c is chosen once the input is drawn) */
	uint32_t map_len_pc;
	uint8_t map_len_at, map_len_own;
	/* p_links_bad: 1 + the input byte its jump bounds (0: none), and the bound, which the
	 * program's own input is made to pass */
	uint8_t links_at, links_bound;
	/* p_map_hash (p_map_hash_bad): 1 the prologue's hash piece, 2 its twin, 0 none; map 0's
	 * type and max_entries then (0: the array's) */
	uint8_t hash_piece;
	uint32_t map0_type, map0_entries;
	/* p_map_lookup_percpu (p_map_lookup_percpu_bad): 1 the prologue's piece, 2 its twin */
	uint8_t pcpu_piece;
	/* main has a return in a loop, or a loop that may never end: what follows may be dead for
	 * the kernel, whose constants may decide their tests (gi_kernel_reaches) */
	bool main_reach_lost;
	/* Tables: everything from here on is written before it is read (not cleared per program). */
	int32_t label_pc[GI_MAX_LABELS];
	struct gi_fix fix[GI_MAX_FIXUPS];
	struct gi_var vars[GI_MAX_VARS];
	struct gi_loop open[GI_MAX_OPEN];	/* loops being built, outermost first */
	int loop_label_head[GEN_MAX_LOOPS], loop_label_top[GEN_MAX_LOOPS];
	int loop_label_last[GEN_MAX_LOOPS];	/* label bound just after the last body pc */
	int loop_label_entry2[GEN_MAX_LOOPS];	/* irreducible: the second entry, else -1 */
};

/* emit.c: instructions and labels */
void gi_emit(struct gi *g, struct bpf_insn insn);
int gi_label(struct gi *g);
void gi_bind(struct gi *g, int label);
void gi_alu(struct gi *g, bool is64, uint8_t op, int dst, int32_t imm);
void gi_alux(struct gi *g, bool is64, uint8_t op, int dst, int src);
void gi_mov_const(struct gi *g, int dst, uint64_t v, bool is64);
void gi_ldx(struct gi *g, uint8_t size, int dst, int base, int16_t off);
void gi_stx(struct gi *g, uint8_t size, int base, int16_t off, int src);
void gi_st(struct gi *g, uint8_t size, int base, int16_t off, int32_t imm);
void gi_jmp(struct gi *g, bool j32, uint8_t op, int dst, int32_t imm, int label);
void gi_jmpx(struct gi *g, bool j32, uint8_t op, int dst, int src, int label);
void gi_ja(struct gi *g, int label);
void gi_call_helper(struct gi *g, int32_t id);
/* bpf_probe_read_kernel(fp + fp_off, 8, data): 8 packet bytes into a stack cell; r0-r5 clobbered */
void gi_probe_read_data(struct gi *g, int16_t fp_off);
void gi_call_sub(struct gi *g, int label);
void gi_ld_func(struct gi *g, int dst, int label);	/* dst = the function at label */
void gi_may_goto(struct gi *g, int label);
void gi_ld_map(struct gi *g, int dst, int map);
void gi_exit(struct gi *g);
int gi_resolve(struct gi *g);
static inline bool gi_fits_s32(uint64_t v)
{
	return (int64_t)v == (int64_t)(int32_t)v;
}

/* emit.c: variables and scratch registers */
int gi_scratch(struct gi *g);
void gi_scratch_release(struct gi *g);
unsigned gi_scratch_free(const struct gi *g);
int gi_var_new(struct gi *g, uint8_t width, bool want_slot);
void gi_var_free(struct gi *g, int v);
int gi_var_read(struct gi *g, int v);
int gi_var_copy(struct gi *g, int v);
void gi_var_write(struct gi *g, int v, int reg);
void gi_var_set(struct gi *g, int v, uint64_t val);
void gi_var_alu(struct gi *g, int v, uint8_t op, int32_t imm);
void gi_var_alux(struct gi *g, int v, uint8_t op, int reg);
void gi_var_add_const(struct gi *g, int v, uint64_t val);
uint32_t gi_var_loc(const struct gi *g, int v);
void gi_spill_caller_homes(struct gi *g);
void gi_fill_caller_homes(struct gi *g);
void gi_var_to_reg(struct gi *g, int v, int dst);

/* gen_loop.c */
void gi_gen_loop(struct gi *g, int kind);
bool gi_kernel_reaches(const struct gi *g);
void gi_gen_body(struct gi *g, struct gi_loop *lp);
bool gi_room(const struct gi *g, uint32_t need);
void gi_loop_eval(const struct gi *g, const struct gi_loop *lp, __int128 lo, __int128 hi,
		  bool exact, struct gi_eval *ev);
void gi_emit_opnd(struct gi *g, const struct gi_opnd *o, int v, uint8_t width);

/* gen_calls.c */
void gi_calls_plan(struct gi *g);
void gi_calls_main_tail(struct gi *g);
void gi_calls_emit_subs(struct gi *g);
void gi_emit_frames_reg_sub(struct gi *g, struct gi_sub *s);	/* (p_frames_reg's f) */
void gi_calls_finish(struct gi *g);	/* after gi_resolve: funcs, frames, call graph, steps */
/* A call of subprogram s from a statement (lp may be NULL): arguments from a (r1) and the
 * accumulator (r2), the result added to the accumulator. */
void gi_emit_call(struct gi *g, int s, int a, struct gi_loop *lp);
int gi_sub_new(struct gi *g, uint8_t kind, uint8_t nargs);	/* plan index, -1 when full */

/* gen_forms.c: bpf_loop callbacks and may_goto */
void gi_stmt_bpf_loop(struct gi *g, struct gi_loop *lp);	/* lp NULL: main's top level */
void gi_emit_callback(struct gi *g, struct gi_sub *s);
/* p_call_bound's subprogram (gen.c): the loop to *r1, described as a subprogram's loop. */
void gi_emit_bound_sub(struct gi *g, struct gi_sub *s);
/* p_iter_search and its twin p_iter_search_unset (gen_iter.c): the prologue's search in an
 * iterator loop, a flag telling whether its pointer is set. */
void gi_iter_search(struct gi *g, bool unset);
/* p_cb_count's callback (gen.c): ctx->i++, *ctx->p = cb_count - 1, return 0. */
void gi_emit_cb_count(struct gi *g, struct gi_sub *s);
void gi_emit_ctx_fill(struct gi *g, struct gi_sub *s);
void gi_emit_args_last(struct gi *g, struct gi_sub *s);	/* (p_args_last's f) */
void gi_stmt_for_each(struct gi *g, struct gi_loop *lp);
void gi_stmt_urb(struct gi *g, struct gi_loop *lp);
void gi_stmt_dynptr(struct gi *g, struct gi_loop *lp);
void gi_dynptr_sub_call(struct gi *g, bool twin);	/* p_dynptr_sub's piece (prologue) */
void gi_emit_dynptr_sub(struct gi *g, struct gi_sub *s);	/* ... and its f */
void gi_dynptr_sub_make_call(struct gi *g, bool twin);	/* p_dynptr_sub_make's piece */
void gi_dynptr_cb_call(struct gi *g, bool twin);	/* p_dynptr_cb's piece */
void gi_dynptr_deep_call(struct gi *g, bool twin);	/* p_dynptr_deep's piece */
void gi_dynptr_cb_make_call(struct gi *g, bool twin);	/* p_dynptr_cb_make's piece */
void gi_dynptr_keyed_call(struct gi *g, bool twin);	/* p_dynptr_keyed's piece */
void gi_dynptr_mid_call(struct gi *g, bool twin);	/* p_dynptr_mid's piece */
void gi_dynptr_global_call(struct gi *g, bool twin);	/* p_dynptr_global's piece */
void gi_dynptr_kf(struct gi *g, bool twin);	/* p_dynptr_kf's prologue loop */
struct ebpf_global_func;
void gi_dynptr_global_proto(struct ebpf_global_func *gf);	/* (its BTF prototype) */
void gi_stmt_timer(struct gi *g, struct gi_loop *lp);
void gi_stmt_find_vma(struct gi *g, struct gi_loop *lp);	/* (raw tracepoints only) */
void gi_stmt_global(struct gi *g, struct gi_loop *lp);
/* gen_fastcall.c: p_fastcall's statement of main's top level and its f */
void gi_stmt_fastcall(struct gi *g);
void gi_emit_fastcall(struct gi *g, struct gi_sub *s);
void gi_stmt_may_goto(struct gi *g, struct gi_loop *lp);
void gi_may_goto_loop(struct gi *g);
/* gen_iter.c: an open-coded iterator loop (lp NULL: main's top level) */
void gi_stmt_iter(struct gi *g, struct gi_loop *lp);
void gi_stmt_bits(struct gi *g, struct gi_loop *lp);
void gi_stmt_task(struct gi *g, struct gi_loop *lp);
/* p_iter_deep (p_iter_deep_over): main's iterator loop and the call of f, from the prologue;
 * f's body */
void gi_iter_deep_call(struct gi *g, bool over);
void gi_emit_iter_deep_sub(struct gi *g, struct gi_sub *s);

/* gen.c: the description of a loop of the prologue, and an unsafe twin's endless loop */
struct gen_loop *prologue_loop(struct gi *g, int idx, int top, int end, uint8_t form,
			       uint64_t shapes, int ctr, uint8_t cmp_op);
void mark_endless(struct gi *g, struct gen_loop *l);
/* A do-while of the prologue counting r1 up by 1 while r1 < n (unsigned, a constant bound), with
 * the shapes extra: trip executions of its header (-1: not known exactly) and at most n, r1 its
 * induction variable from 0 when trip is known; endless (the twin's step dropped), neither, and
 * marked so. */
struct gen_loop *up_loop_describe(struct gi *g, int idx, int top, int end, uint64_t extra,
				  bool endless, int64_t trip, uint64_t n);
/* A loop of the prologue whose 64-bit counter ctr counts up by 1 from 0 while ctr < a bound
 * (unsigned), with the shapes given (its form's, its bound's, ...): trip executions of its
 * header (-1: not known exactly), at most trip_max, ctr its induction variable. */
struct gen_loop *unit_loop_describe(struct gi *g, int idx, int top, int end, uint8_t form,
				    uint64_t shapes, int ctr, int64_t trip, uint64_t trip_max);
/* Such a loop as a while loop: its head (top bound here; to end when ctr >= n, registers) and its
 * tail (ctr += 1; back to top; end bound here). */
void gi_while_up_head(struct gi *g, int ctr, int n, int top, int end);
void gi_while_up_tail(struct gi *g, int ctr, int top, int end);
/* gen_align.c: p_stack_align (p_stack_align_bad): a pointer recurrence fills stack cells, a
 * variable offset reads one, aligned (the twin: misaligned) */
void gi_align_loop(struct gi *g, bool bad);
void gi_cb_two_ctx_call(struct gi *g, bool bad);
void gi_emit_cb_two_ctx(struct gi *g, struct gi_sub *s);
/* gen_calls.c: p_frame_rules (p_frame_rules_bad): a callee or bpf_loop callback and its
 * caller's frame as the kernel rules it (a spilled pointer read back whole, a number stored, a
 * store its caller reads back; the twin: narrower, a stack pointer, a store on some paths) */
void gi_frame_rules_call(struct gi *g, bool bad);
void gi_emit_frame_rule(struct gi *g, struct gi_sub *s);
/* gen_stack.c: p_frame_fields (p_frame_fields_over): a callee or callback writes two fields
 * around its caller's spilled pointer (the twin: one over it); p_fill_join (p_fill_join_narrow):
 * a pointer spilled on some paths, read back whole (the twin: narrower); p_stack_walk
 * (p_stack_walk_over): a loop's stepped stores between two spills (the twin: over one) */
void gi_frame_fields_call(struct gi *g, bool over);
void gi_emit_frame_fields(struct gi *g, struct gi_sub *s);
void gi_fill_join(struct gi *g, bool narrow);
void gi_stack_walk(struct gi *g, bool over);
/* ... p_loop_fields (p_loop_fields_unset): a loop writes two fields of each element of a stack
 * array, one of them read after it (the twin: a byte of neither) */
void gi_loop_fields(struct gi *g, bool unset);
/* gen_subret.c: p_sub_ret_ptr (p_sub_ret_ptr_bad): main loads through what f's map lookup
 * returned, NULL-tested (the twin: untested, or past the value); f's body */
void gi_sub_ret_call(struct gi *g, bool bad);
void gi_emit_sub_ret(struct gi *g, struct gi_sub *s);
/* gen_subref.c: p_sub_ref (p_sub_ref_bad): a spin lock taken and released across static
 * functions (the twin: never released, a helper under it, taken or released twice); f's body */
void gi_sub_ref_call(struct gi *g, bool bad);
void gi_emit_sub_ref(struct gi *g, struct gi_sub *s);
/* gen_links.c: p_links (p_links_bad): a packet byte's copies, one bounded, the other used
 * (the twin: written between) */
void gi_links(struct gi *g, bool bad);
/* gen_sock.c: p_sock (p_sock_unsafe): a socket looked up, read after its NULL test, released (the
 * twin: leaked, read after the release or before the test, or past struct bpf_sock) */
void gi_sock(struct gi *g, bool bad);
/* gen_kfunc.c: p_kfunc (p_kfunc_bad): bpf_task_from_pid and its release in a loop */
void gi_kfunc(struct gi *g, bool bad);
void gi_kfunc_region(struct gi *g, bool bad);
/* gen_sock.c: p_sk_prog (p_sk_prog_unsafe): an sk_reuseport or sk_lookup program's prologue
 * (the twin's unsafe access right after it) and its statement (bpf_sk_select_reuseport, or a
 * socket map's socket given to bpf_sk_assign) */
enum { GI_SK_REUSEPORT = 1, GI_SK_LOOKUP = 2, GI_SK_TC = 3, GI_CG_SKB = 4, GI_SK_MSG = 5 };
void gi_sk_prologue(struct gi *g, int l_short);
/* gen.c: the packet prologue's bounds check (r2 = data, r3 = data_end from sz-byte context
 * fields; data + GEN_INPUT_LEN past data_end goes to l_short; data spilled at GEN_FP_DATA), and
 * the stack array's zeroing when the program uses it */
void gi_pkt_bounds(struct gi *g, uint8_t sz, int16_t off_data, int16_t off_end, int l_short);
void gi_array_zero(struct gi *g);
void gi_sk_stmt(struct gi *g, struct gi_loop *lp);
/* gen_ldabs.c: p_ld_abs_sub (p_ld_abs_sub_skip): a tc program's prologue (the twin's call right
 * after it), its statement (a call of a static function that uses LD_ABS / LD_IND) and that
 * function */
void gi_ld_prologue(struct gi *g, int l_short);
void gi_ld_stmt(struct gi *g, struct gi_loop *lp);
void gi_emit_ld_sub(struct gi *g, struct gi_sub *s);
/* gen_strtol.c: p_strtol (p_strtol_bad): bpf_strtol's 8 bytes written into an aligned slot (the twin:
 * misaligned, or past the frame) */
void gi_strtol(struct gi *g, bool bad);
/* gen_mtu.c: p_check_mtu (p_check_mtu_bad): bpf_check_mtu's mtu_len an aligned slot (the twin:
 * misaligned, or past the frame) */
void gi_check_mtu(struct gi *g, bool bad);
/* gen_queue.c: p_queue (p_queue_bad), a prologue piece of an XDP program */
void gi_queue(struct gi *g, bool bad);
/* gen_krules.c: p_krules (p_krules_bad): a packet offset through a spill or a shift the kernel
 * keeps (the twin: loses) */
void gi_krules(struct gi *g, bool bad);
/* ... and p_access (p_access_bad): map 6's value read (read-only map) or written
 * (write-only map), a scalar context field loaded sign-extended; the twin does what the map's
 * flag forbids or loads a packet pointer field sign-extended */
void gi_access(struct gi *g, bool bad);
void gi_strncmp(struct gi *g, bool bad);
/* gen_pkt_var.c: p_pkt_var (p_pkt_var_data): a read through data + var within what its
 * comparison with data_end gave its id (the twin: of data itself past it, or data + 40 - var) */
void gi_pkt_var(struct gi *g, bool bad);
void gi_pkt_join(struct gi *g, bool past);	/* p_pkt_join's piece (gen_pkt.c) */
/* gen_iter.c: p_kwiden (p_kwiden_copy): a loop the kernel widens at, ended by its counter's test
 * (the twin: its copy's) */
void gi_kwiden(struct gi *g, bool copy);
/* gen_kwalk.c: p_jeq_null (p_jeq_null_stack), the kernel's jeq inference; p_dead_arm
 * (p_dead_arm_reached), code the kernel never walks */
void gi_jeq_null(struct gi *g, bool stack);
/* r0 = map 0's element data[k] & 3 (the key at GEN_FP_KEY; not a constant to the kernel, so
 * NULL or not even for an array), a lookup's result; r1-r5 clobbered; map 0 used */
void gi_lookup0(struct gi *g, uint8_t k);
/* r0 = the first byte of map 0's element for the key at fp + key, read with no NULL test (the
 * kernel's elided one of a constant key: gen_kwalk.c, gen_krules.c); r1-r5 clobbered */
void gi_const_key_read(struct gi *g, int16_t key);
void gi_dead_arm(struct gi *g, bool reached);
/* gen_dead.c: dead-entry shapes of the prologue (p_dead_branch, p_dead_outer and their twins) */
void gi_dead_branch(struct gi *g, bool bad);
void gi_dead_outer(struct gi *g, bool bad);
/* ... and of the call pieces (p_dead_call, p_dead_cb and their twins) */
void gi_dead_call(struct gi *g, bool bad);
void gi_dead_cb(struct gi *g, bool bad);

/* gen_hash.c: p_map_hash (p_map_hash_bad): the program-wide draw (map 0 a hash map), and the
 * prologue's piece on it */
void gi_hash_plan(struct gi *g);
void gi_hash_piece(struct gi *g);
/* update(map 0, &key, a, flags): the key at GEN_FP_KEY, the value the stack array's first
 * GEN_MAP_VALUE_SIZE bytes (GEN_FP_ARRAY, written before); r0-r5 clobbered */
void gi_map0_update(struct gi *g, int32_t flags);
/* A loop of the prologue's pieces over map 0's values (the hash piece's lookups, gen_pcpu.c's
 * CPUs), r6 its counter and r8 its sum:
 *
 *     r6 = 0; do {
 *             r0 = a value or NULL (lookup(g, arg): r6 picks the key or the CPU)
 *             if (r0) {                       no check when !checked
 *                     r8 += *(u64 *)(r0 + off) (and r6 with add_iv)
 *                     maybe *(u64 *)(r0 + woff) = r8 (write)
 *             }
 *     } while (++r6 < m);
 *
 * described as loop idx (m iterations, exactly). */
struct gi_lookup_loop {
	void (*lookup)(struct gi *g, bool arg);
	bool arg, checked, add_iv, write;
	int32_t off, woff;
	uint32_t m;
};
void gi_lookup_loop(struct gi *g, int idx, const struct gi_lookup_loop *ll);
/* gen_pcpu.c: p_map_lookup_percpu (p_map_lookup_percpu_bad): map 0 per-CPU, and the prologue's
 * piece of bpf_map_lookup_percpu_elem calls (after the hash piece) */
void gi_pcpu_plan(struct gi *g);
void gi_pcpu_piece(struct gi *g);

/* reg = bit 0 of an input byte (the packet's, at a drawn offset; gen_forms.c) */
void gi_input_bit(struct gi *g, int reg);

/* gen_stmt.c */
enum { COND_ANY = -1, COND_INPUT, COND_COUNTER, COND_ACC, COND_HELPER };
void gi_gen_stmt(struct gi *g, struct gi_loop *lp);
void gi_stmt_acc(struct gi *g, struct gi_loop *lp);
/* p_ptr_alu (p_ptr_alu_bad): a statement of main's top level, pointers in ALU forms */
void gi_stmt_ptr_alu(struct gi *g);
/* gen_fields.c: p_map_field (p_map_field_bad), p_map_u64_ptr (p_map_u64_ptr_bad), statements of
 * main's top level */
void gi_stmt_map_field(struct gi *g);
void gi_stmt_spin_lock(struct gi *g);
void gi_stmt_map_u64_ptr(struct gi *g);
/* if (something of the input, the counter, the accumulator or a helper's result) goto label;
 * returns the COND_* kind used. */
int gi_emit_cond_jump(struct gi *g, struct gi_loop *lp, int label, bool allow_helper, int kind);

enum { LOOPK_ANY, LOOPK_STRUCTURED, LOOPK_IRREDUCIBLE };

/* gen_throw.c: p_throw (p_throw_bad): a prologue piece throwing on a data-dependent path, in
 * main or a static function, maybe with an exception callback; its functions */
void gi_throw(struct gi *g, bool bad);
void gi_emit_throw_sub(struct gi *g, struct gi_sub *s);

#endif
