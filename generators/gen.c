/* gen_program(): the program around the loops — knobs, the XDP prologue, the accumulator, the
 * calls (gen_calls.c) — and the description that goes with it: loop pcs, the bound on steps a run can
 * take, and the text form with metadata that bpfscev gen prints and findings are saved in.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/asm.h"
#include "generators/gen_internal.h"

static const struct {
	const char *name, *what;
	uint32_t def, lo, hi;
	size_t off;
} knob_table[] = {
#define GEN_KNOB_ROW(n, d, lo, hi, w) { #n, w, d, lo, hi, offsetof(struct gen_knobs, n) },
	GEN_KNOBS(GEN_KNOB_ROW)
#undef GEN_KNOB_ROW
};

struct gen_knobs gen_knobs_default(void)
{
	struct gen_knobs k = {
#define GEN_KNOB_DEF(n, d, lo, hi, w) .n = d,
		GEN_KNOBS(GEN_KNOB_DEF)
#undef GEN_KNOB_DEF
	};

	return k;
}

bool gen_knob_info(size_t i, const char **name, uint32_t *def, const char **what)
{
	if (i >= sizeof(knob_table) / sizeof(knob_table[0]))
		return false;
	*name = knob_table[i].name;
	*def = knob_table[i].def;
	*what = knob_table[i].what;
	return true;
}

int gen_knobs_set(struct gen_knobs *k, const char *name, uint32_t value)
{
	for (size_t i = 0; i < sizeof(knob_table) / sizeof(knob_table[0]); i++) {
		if (strcmp(knob_table[i].name, name))
			continue;
		if (value < knob_table[i].lo || value > knob_table[i].hi)
			return -ERANGE;
		*(uint32_t *)((char *)k + knob_table[i].off) = value;
		return 0;
	}
	return -ENOENT;
}

static int knobs_valid(const struct gen_knobs *k)
{
	for (size_t i = 0; i < sizeof(knob_table) / sizeof(knob_table[0]); i++) {
		uint32_t v = *(const uint32_t *)((const char *)k + knob_table[i].off);

		if (v < knob_table[i].lo || v > knob_table[i].hi)
			return -EINVAL;
	}
	if (!k->w_while && !k->w_while_bottom && !k->w_do_while && !k->w_for)
		return -EINVAL;
	return 0;
}

const char *gen_shape_name(unsigned shape)
{
	static const char *const names[] = {
#define GEN_SHAPE_NAME(n, s) s,
		GEN_SHAPES(GEN_SHAPE_NAME)
#undef GEN_SHAPE_NAME
	};

	return shape < GEN_SHAPE__COUNT ? names[shape] : NULL;
}

const char *gen_form_name(unsigned form)
{
	static const char *const names[] = { "while", "while-bottom", "do-while", "for",
					      "irreducible" };

	return form < 5 ? names[form] : "?";
}

/* ---- the program ---- */

/* A loop the generator built to run forever on some input (an unsafe twin): it and the program
 * say so, for the oracles and test_gen. */
void mark_endless(struct gi *g, struct gen_loop *l)
{
	l->flags |= GEN_LOOP_MAY_NOT_TERMINATE;
	g->p->flags |= GEN_PROG_MAY_NOT_TERMINATE;
}

/* The description of a loop of the prologue (fill_loop, once_loop, def_loop): its labels, the
 * first level, a 64-bit counter in ctr compared with cmp_op; the caller adds its step, trip
 * counts and induction variables. */
struct gen_loop *prologue_loop(struct gi *g, int idx, int top, int end, uint8_t form,
			       uint64_t shapes, int ctr, uint8_t cmp_op)
{
	struct gen_loop *l = &g->p->loops[idx];

	memset(l, 0, sizeof(*l));
	g->loop_label_head[idx] = top;
	g->loop_label_top[idx] = top;
	g->loop_label_last[idx] = end;
	g->loop_label_entry2[idx] = -1;
	l->parent = -1;
	l->depth = 1;
	l->form = form;
	l->shapes = shapes;
	l->counter_loc = ctr;
	l->counter_width = l->cmp_width = 64;
	l->cmp_op = cmp_op;
	g->p->shapes |= shapes;
	return l;
}

struct gen_loop *up_loop_describe(struct gi *g, int idx, int top, int end, uint64_t extra,
				  bool endless, int64_t trip, uint64_t n)
{
	struct gen_loop *l;

	l = prologue_loop(g, idx, top, end, GEN_FORM_DO_WHILE,
			  GEN_SH(DO_WHILE) | GEN_SH(UP) | GEN_SH(STEP_UNIT) | GEN_SH(CTR64) |
				  GEN_SH(COND_UNSIGNED) | GEN_SH(BOUND_CONST) | extra |
				  (endless ? GEN_SH(NONTERM) : 0),
			  BPF_REG_1, BPF_JLT);
	l->step = 1;
	l->trip = endless ? -1 : trip;
	l->trip_max = endless ? UINT64_MAX : n;
	if (endless) {
		mark_endless(g, l);
	} else if (trip >= 0) {
		l->ivs[0] = (struct gen_iv){ .loc = BPF_REG_1, .width = 64, .has_start = true,
					     .step = 1 };
		l->nivs = 1;
	}
	return l;
}

struct gen_loop *unit_loop_describe(struct gi *g, int idx, int top, int end, uint8_t form,
				    uint64_t shapes, int ctr, int64_t trip, uint64_t trip_max)
{
	struct gen_loop *l;

	l = prologue_loop(g, idx, top, end, form,
			  shapes | GEN_SH(UP) | GEN_SH(STEP_UNIT) | GEN_SH(CTR64) |
				  GEN_SH(COND_UNSIGNED),
			  ctr, BPF_JLT);
	l->step = 1;
	l->trip = trip;
	l->trip_max = trip_max;
	l->ivs[0] = (struct gen_iv){ .loc = ctr, .width = 64, .has_start = true, .step = 1 };
	l->nivs = 1;
	return l;
}

void gi_while_up_head(struct gi *g, int ctr, int n, int top, int end)
{
	gi_bind(g, top);
	gi_jmpx(g, false, BPF_JGE, ctr, n, end);
}

void gi_while_up_tail(struct gi *g, int ctr, int top, int end)
{
	gi_alu(g, true, BPF_ADD, ctr, 1);
	gi_ja(g, top);
	gi_bind(g, end);
}

/* for (r1 = 0; r1 < n; r1++) a[r1] = r1, a do-while over the 8-element stack array: all of it
 * written when n is 8 (p_array_fill), all but a[7] when it is 7 (p_array_fill_short, which
 * flags the program).  The first loop of the program, described like the others. */
static void fill_loop(struct gi *g, uint32_t n)
{
	int idx = (int)g->p->nloops++, top = gi_label(g), end = gi_label(g);

	/* (a[0] also directly: the frame's depth is what its r10-based accesses reach) */
	gi_st(g, BPF_DW, EBPF_REG_FP, GEN_FP_ARRAY, 0);
	gi_mov_const(g, BPF_REG_1, 0, true);
	gi_bind(g, top);
	gi_alux(g, true, BPF_MOV, BPF_REG_2, BPF_REG_1);
	gi_alu(g, true, BPF_LSH, BPF_REG_2, 3);
	gi_alux(g, true, BPF_MOV, BPF_REG_3, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_3, GEN_FP_ARRAY);
	gi_alux(g, true, BPF_ADD, BPF_REG_3, BPF_REG_2);
	gi_stx(g, BPF_DW, BPF_REG_3, 0, BPF_REG_1);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, 1);
	gi_jmp(g, false, BPF_JLT, BPF_REG_1, (int32_t)n, top);
	gi_bind(g, end);
	unit_loop_describe(g, idx, top, end, GEN_FORM_DO_WHILE,
			   GEN_SH(DO_WHILE) | GEN_SH(BOUND_CONST), BPF_REG_1, n, n);
	g->p->flags |= n < 8 ? GEN_PROG_STACK_UNWRITTEN : GEN_PROG_ARRAY_FILL;
}

/* x = data[1]; do { r3 = x & 7; x += 1; if (r3 < 8) break; } while (1): the exit is taken on
 * the first pass, the back edge never (p_loop_once, one header execution); the twin
 * (p_loop_once_back) masks with 15 and leaves x unchanged, so it never ends when
 * data[1] & 15 >= 8, which flags the program. */
static void once_loop(struct gi *g, bool back)
{
	int idx = (int)g->p->nloops++, top = gi_label(g), end = gi_label(g);
	struct gen_loop *l;

	gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_2, 1);
	gi_bind(g, top);
	gi_alux(g, true, BPF_MOV, BPF_REG_3, BPF_REG_1);
	gi_alu(g, true, BPF_AND, BPF_REG_3, back ? 15 : 7);
	if (!back)
		gi_alu(g, true, BPF_ADD, BPF_REG_1, 1);
	gi_jmp(g, false, BPF_JLT, BPF_REG_3, 8, end);
	gi_ja(g, top);
	gi_bind(g, end);
	l = prologue_loop(g, idx, top, end, GEN_FORM_WHILE,
			  GEN_SH(WHILE) | GEN_SH(CTR64) | GEN_SH(COND_UNSIGNED) | GEN_SH(BOUND_CONST) |
				  GEN_SH(INIT_INPUT) |
				  (back ? GEN_SH(NONTERM) : GEN_SH(UP) | GEN_SH(STEP_UNIT)),
			  BPF_REG_1, BPF_JGE);
	l->step = back ? 0 : 1;
	l->trip = back ? -1 : 1;
	l->trip_max = back ? UINT64_MAX : 1;
	if (back) {
		mark_endless(g, l);
	} else {
		l->ivs[0] = (struct gen_iv){ .loc = BPF_REG_1, .width = 64, .step = 1 };
		l->nivs = 1;
	}
}

/* Exit tests on different paths (p_cut_exits): r1 starts at data[2] & 7 (up) or 64 + that
 * (down); r5 = data[3] picks the path with the counter's low bit (r1 ^ r5) & 1, maybe a third
 * path with bit 1; each path steps r1 by 1-3 towards its own exit test (>=, > or their signed or
 * 32-bit forms up; <, <= down), which no other path runs: no exit is tested in every
 * iteration, but every cycle passes one.  The header runs at most max(N) times up (the slowest
 * step reaches every bound by then), 72 - min(N) down.  The twin (p_cut_exits_open) adds a path
 * that data[3] & 0x80 takes in every iteration: either it steps the counter and tests nothing,
 * or it is the only path and its exit tests == against an odd number that a counter stepping
 * by 2 from an even start never meets — endless either way, which flags the loop. */
static void cut_loop(struct gi *g, bool open)
{
	int idx = (int)g->p->nloops++, top = gi_label(g), end = gi_label(g), b = gi_label(g);
	int c = gi_label(g), skip = gi_label(g);
	bool down = gen_bool(g->src, 40), third = gen_bool(g->src, 30);
	bool eq = open && gen_bool(g->src, 50);
	uint64_t step[3], trip_max = 0;
	uint32_t nmin = 64;
	struct gen_loop *l;

	/* (the twin's path that tests nothing is the third one) */
	if (open && !eq)
		third = false;
	for (int k = 0; k < 3; k++)
		step[k] = gen_u32(g->src, 1, 3);
	gi_ldx(g, BPF_B, BPF_REG_5, BPF_REG_2, 3);
	gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_2, 2);
	gi_alu(g, true, BPF_AND, BPF_REG_1, eq ? 6 : 7);
	if (down)
		gi_alu(g, true, BPF_ADD, BPF_REG_1, 64);
	gi_bind(g, top);
	if (open) {
		/* data[3] & 0x80: the twin's own path, in every iteration */
		gi_jmp(g, false, BPF_JSET, BPF_REG_5, 0x80, eq ? b : c);
	}
	gi_alux(g, true, BPF_MOV, BPF_REG_4, BPF_REG_1);
	gi_alux(g, true, BPF_XOR, BPF_REG_4, BPF_REG_5);
	gi_jmp(g, false, BPF_JSET, BPF_REG_4, 1, b);
	if (third)
		gi_jmp(g, false, BPF_JSET, BPF_REG_4, 2, c);
	for (int k = 0; k < 3; k++) {
		uint32_t n = down ? gen_u32(g->src, 3, 40) : gen_u32(g->src, 1, 40);
		bool j32 = gen_bool(g->src, 25), sgn = gen_bool(g->src, 35);
		bool le = gen_bool(g->src, 50);
		uint8_t op;

		if (k == 1)
			gi_bind(g, b);
		if (k == 2) {
			gi_bind(g, c);
			if (!third && !open) {
				gi_bind(g, skip);
				break;
			}
		}
		if (k == 1 && eq)
			step[1] = 2;
		gi_alu(g, true, down ? BPF_SUB : BPF_ADD, BPF_REG_1, (int32_t)step[k]);
		if (k == 2 && open && !third) {
			gi_ja(g, top);	/* the twin's path that tests nothing */
			gi_bind(g, skip);
			break;
		}
		if (k == 1 && eq) {
			int32_t odd = 2 * (int32_t)gen_u32(g->src, 0, 20) + 1;

			gi_jmp(g, false, BPF_JEQ, BPF_REG_1, odd, end);
			gi_ja(g, top);
			continue;
		}
		/* exit when r1 >= n (up) or r1 < n (down), in one of its forms */
		if (down)
			op = le ? (sgn ? BPF_JSLE : BPF_JLE) : (sgn ? BPF_JSLT : BPF_JLT);
		else
			op = le ? (sgn ? BPF_JSGT : BPF_JGT) : (sgn ? BPF_JSGE : BPF_JGE);
		gi_jmp(g, j32, op, BPF_REG_1, (int32_t)(le ? n - 1 : n), end);
		gi_ja(g, top);
		trip_max = n > trip_max ? n : trip_max;
		nmin = n < nmin ? n : nmin;
	}
	gi_bind(g, end);
	l = prologue_loop(g, idx, top, end, GEN_FORM_WHILE,
			  GEN_SH(WHILE) | GEN_SH(CTR64) | GEN_SH(COND_UPDATE) | GEN_SH(INIT_INPUT) |
				  GEN_SH(BREAK) | (down ? GEN_SH(DOWN) : GEN_SH(UP)) |
				  (open ? GEN_SH(NONTERM) : 0),
			  BPF_REG_1, down ? BPF_JGE : BPF_JLT);
	l->flags |= GEN_LOOP_COND_STEP | GEN_LOOP_EARLY_EXIT;
	l->step = down ? (uint64_t)-(int64_t)step[0] : step[0];
	l->step_alt = down ? (uint64_t)-(int64_t)step[1] : step[1];
	l->trip = -1;
	l->trip_max = open ? UINT64_MAX : down ? 72 - nmin : trip_max;
	if (open) {
		mark_endless(g, l);
	}
}

/* '==' exits that only together stop every path (p_eq_paths; the kernel selftests' loop5.c):
 * r1 starts at 0 and steps by s1 when data[11] is even, by s2 when odd (read in every
 * iteration; the step either added on its path or moved into r5 and added after the join, in
 * 64 or 32 bits), then leaves when r1 equals one of a * s1 + b * s2 with a + b = K (K in
 * [2, 4]), tested in a random order: every path meets one within K steps, though a step may
 * jump over any one of them.  The twin (p_eq_paths_miss) has an even s1 and an odd s2 and drops
 * the exits that s1's multiples may meet (those divisible by s1's lowest bit, wrapping
 * included): with data[11] even in every iteration, r1 = s1, 2 s1, ... meets none and the loop
 * runs forever.  r1, r4, r5 clobbered. */
static void eq_paths_loop(struct gi *g, bool miss)
{
	int idx = (int)g->p->nloops++, top = gi_label(g), end = gi_label(g), b = gi_label(g);
	int join = gi_label(g);
	uint32_t s1 = miss ? 2 * gen_u32(g->src, 1, 4) : gen_u32(g->src, 1, 9);
	uint32_t s2 = miss ? 2 * gen_u32(g->src, 0, 4) + 1 : gen_u32(g->src, 1, 11);
	uint32_t K = gen_u32(g->src, 2, 4), ex[5], n = 0;
	bool w = gen_bool(g->src, 40), reg = gen_bool(g->src, 50);
	struct gen_loop *l;

	if (s2 == s1)
		s2++;
	for (uint32_t a = 0; a <= K; a++) {
		uint32_t v = a * s1 + (K - a) * s2;
		bool dup = false;

		for (uint32_t k = 0; k < n; k++)
			dup |= ex[k] == v;
		/* (the twin: s1 even, so its multiples mod 2^32 or 2^64 are the multiples of
		 * s1's lowest bit; the values with K - a odd are odd and stay) */
		if (!dup && !(miss && v % (s1 & -s1) == 0))
			ex[n++] = v;
	}
	for (uint32_t k = n; k > 1; k--) {	/* (a random order) */
		uint32_t j = gen_pick(g->src, k), t = ex[k - 1];

		ex[k - 1] = ex[j];
		ex[j] = t;
	}
	gi_mov_const(g, BPF_REG_1, 0, true);
	gi_bind(g, top);
	/* (the pieces before may have clobbered r2: data from its slot) */
	gi_ldx(g, BPF_DW, BPF_REG_4, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_4, BPF_REG_4, 11);
	gi_jmp(g, false, BPF_JSET, BPF_REG_4, 1, b);
	if (reg) {
		gi_mov_const(g, BPF_REG_5, s1, true);
		gi_ja(g, join);
		gi_bind(g, b);
		gi_mov_const(g, BPF_REG_5, s2, true);
		gi_bind(g, join);
		gi_alux(g, !w, BPF_ADD, BPF_REG_1, BPF_REG_5);
	} else {
		gi_alu(g, !w, BPF_ADD, BPF_REG_1, (int32_t)s1);
		gi_ja(g, join);
		gi_bind(g, b);
		gi_alu(g, !w, BPF_ADD, BPF_REG_1, (int32_t)s2);
		gi_bind(g, join);
	}
	for (uint32_t k = 0; k < n; k++)
		gi_jmp(g, w, BPF_JEQ, BPF_REG_1, (int32_t)ex[k], end);
	gi_ja(g, top);
	gi_bind(g, end);
	l = prologue_loop(g, idx, top, end, GEN_FORM_WHILE,
			  GEN_SH(WHILE) | GEN_SH(COND_UPDATE) | GEN_SH(COND_EQNE) | GEN_SH(BREAK) |
				  GEN_SH(UP) | (w ? GEN_SH(CTR32) : GEN_SH(CTR64)) |
				  (miss ? GEN_SH(NONTERM) : 0),
			  BPF_REG_1, BPF_JNE);
	l->flags |= GEN_LOOP_COND_STEP | GEN_LOOP_EARLY_EXIT;
	l->counter_width = l->cmp_width = w ? 32 : 64;
	l->step = s1;
	l->step_alt = s2;
	l->trip = -1;
	l->trip_max = miss ? UINT64_MAX : K;
	if (miss) {
		mark_endless(g, l);
	}
}

/* A counter compiled into a toggle (p_toggle), as LLVM emits `for (i = 0; i < 2; i++)`: r1 starts
 * at a constant c0 in [1, 1000], each iteration adds data[5] to r3 and moves r1 by x ^= c,
 * x = -x or x = c - x (64-bit or 32-bit forms; c chosen so that c0 is no fixed point), and the
 * loop leaves when r1 is back at c0 (a 64-bit or 32-bit test): twice, whatever the input.  The
 * twin (p_toggle_open) starts r1 at data[4] instead: it leaves only when data[4] is c0 or
 * f(c0), and runs forever otherwise, which flags the loop. */
static void toggle_loop(struct gi *g, bool open)
{
	int idx = (int)g->p->nloops++, top = gi_label(g), end = gi_label(g);
	uint32_t c0 = gen_u32(g->src, 1, 1000), form = gen_u32(g->src, 0, 2), c;
	bool w = gen_bool(g->src, 40), j32 = gen_bool(g->src, 30);
	struct gen_loop *l;

	c = gen_u32(g->src, 1, 2000);
	if (form == 2 && c == 2 * c0)
		c++;	/* (c - x has the fixed point c / 2) */
	if (open)
		gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_2, 4);
	else
		gi_mov_const(g, BPF_REG_1, c0, !w);
	gi_ldx(g, BPF_B, BPF_REG_5, BPF_REG_2, 5);
	gi_mov_const(g, BPF_REG_3, 0, true);
	gi_bind(g, top);
	gi_alux(g, true, BPF_ADD, BPF_REG_3, BPF_REG_5);
	if (form == 0) {
		gi_alu(g, !w, BPF_XOR, BPF_REG_1, (int32_t)c);
	} else {
		gi_alu(g, !w, BPF_NEG, BPF_REG_1, 0);
		if (form == 2)
			gi_alu(g, !w, BPF_ADD, BPF_REG_1, (int32_t)c);
	}
	gi_jmp(g, j32, BPF_JNE, BPF_REG_1, (int32_t)c0, top);
	gi_bind(g, end);
	l = prologue_loop(g, idx, top, end, GEN_FORM_DO_WHILE,
			  GEN_SH(DO_WHILE) | (w ? GEN_SH(CTR32) : GEN_SH(CTR64)) |
				  GEN_SH(COND_EQNE) | GEN_SH(BOUND_CONST) |
				  (open ? GEN_SH(INIT_INPUT) | GEN_SH(NONTERM) : 0),
			  BPF_REG_1, BPF_JNE);
	l->counter_width = w ? 32 : 64;
	l->cmp_width = j32 ? 32 : 64;
	l->trip = open ? -1 : 2;
	l->trip_max = open ? UINT64_MAX : 2;
	if (open) {
		mark_endless(g, l);
	}
}

/* A 64-bit counter updated in a 32-bit form too (p_zext_mix): r1 starts at c0 in [0, 20], steps by
 * c in [1, 3] as w1 += c on the path data[6] & 1 picks and r1 += c on the other, or as
 * zext32(r1) + c (shifts left and right by 32, then r1 += c); the loop leaves when r1 >= n
 * (n in [21, 60]), ceil((n - c0) / c) header executions on every input: the 32-bit forms are
 * the 64-bit add while r1 stays below 2^32 - c.  The twin (p_zext_mix_wrap) starts at
 * 2^32 - 16 + c0 and leaves at 2^32 + n: the 32-bit form wraps to small values first, so a run
 * that always takes it never ends, which flags the loop. */
static void zext_mix_loop(struct gi *g, bool wrap)
{
	int idx = (int)g->p->nloops++, top = gi_label(g), end = gi_label(g), a = gi_label(g);
	int j = gi_label(g);
	uint32_t c0 = gen_u32(g->src, 0, 20), c = gen_u32(g->src, 1, 3), n = gen_u32(g->src, 21, 60);
	bool shifts = gen_bool(g->src, 35);
	uint64_t base = wrap ? (1ull << 32) - 16 : 0;
	struct gen_loop *l;

	gi_ldx(g, BPF_B, BPF_REG_5, BPF_REG_2, 6);
	gi_mov_const(g, BPF_REG_1, base + c0, true);
	gi_mov_const(g, BPF_REG_4, base + (wrap ? 16 : 0) + n, true);
	gi_mov_const(g, BPF_REG_3, 0, true);
	gi_bind(g, top);
	gi_alu(g, true, BPF_ADD, BPF_REG_3, 1);
	if (shifts) {
		gi_alu(g, true, BPF_LSH, BPF_REG_1, 32);
		gi_alu(g, true, BPF_RSH, BPF_REG_1, 32);
		gi_alu(g, true, BPF_ADD, BPF_REG_1, (int32_t)c);
	} else {
		gi_jmp(g, false, BPF_JSET, BPF_REG_5, 1, a);
		gi_alu(g, false, BPF_ADD, BPF_REG_1, (int32_t)c);
		gi_ja(g, j);
		gi_bind(g, a);
		gi_alu(g, true, BPF_ADD, BPF_REG_1, (int32_t)c);
		gi_bind(g, j);
	}
	gi_jmpx(g, false, BPF_JLT, BPF_REG_1, BPF_REG_4, top);
	gi_bind(g, end);
	l = prologue_loop(g, idx, top, end, GEN_FORM_DO_WHILE,
			  GEN_SH(DO_WHILE) | GEN_SH(UP) | GEN_SH(CTR64) | GEN_SH(COND_UNSIGNED) |
				  GEN_SH(BOUND_REG) | (wrap ? GEN_SH(WRAP) | GEN_SH(NONTERM) : 0),
			  BPF_REG_1, BPF_JLT);
	l->step = c;
	l->trip = wrap ? -1 : (int64_t)((n - c0 + c - 1) / c);
	l->trip_max = wrap ? UINT64_MAX : (n - c0 + c - 1) / c;
	if (wrap) {
		mark_endless(g, l);
	} else {
		l->ivs[0] = (struct gen_iv){ .loc = BPF_REG_1, .width = 64, .has_start = true,
					     .step = c, .start = c0 };
		l->nivs = 1;
	}
}

/* A counter whose step is known only as a range (p_mono_range), as LLVM compiles x += (x > t ? x :
 * c): r1 starts at data[7] & 7 and moves by c in [1, 3] while r1 <= t (t in [3, 12]), by r1
 * itself (a branch: r1 += r1; or a select r2 = c, r2 = r1, r1 += r2) or by (r1 >> 1) | 1 above
 * it; the loop leaves when r1 >= n (n in [40, 200]).  Every step is at least 1, so it runs at
 * most n times, a number of times that depends on the input.  The twin (p_mono_range_zero)
 * adds r1 & 1 above t: past t, r1 becomes even and stays there for ever (t + 3 < n), which
 * flags the loop. */
static void mono_loop(struct gi *g, bool zero)
{
	int idx = (int)g->p->nloops++, top = gi_label(g), end = gi_label(g), a = gi_label(g);
	int j = gi_label(g);
	uint32_t c = gen_u32(g->src, 1, 3), t = gen_u32(g->src, 3, 12), n = gen_u32(g->src, 40, 200);
	uint32_t form = zero ? 1 : gen_u32(g->src, 0, 2);
	struct gen_loop *l;

	gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_2, 7);
	gi_alu(g, true, BPF_AND, BPF_REG_1, 7);
	gi_mov_const(g, BPF_REG_3, 0, true);
	gi_bind(g, top);
	gi_alu(g, true, BPF_ADD, BPF_REG_3, 1);
	if (form == 0) {
		gi_jmp(g, false, BPF_JLE, BPF_REG_1, (int32_t)t, a);
		gi_alux(g, true, BPF_ADD, BPF_REG_1, BPF_REG_1);
		gi_ja(g, j);
		gi_bind(g, a);
		gi_alu(g, true, BPF_ADD, BPF_REG_1, (int32_t)c);
		gi_bind(g, j);
	} else {
		gi_mov_const(g, BPF_REG_4, c, true);
		gi_jmp(g, false, BPF_JLE, BPF_REG_1, (int32_t)t, a);
		gi_alux(g, true, BPF_MOV, BPF_REG_4, BPF_REG_1);
		if (zero) {
			gi_alu(g, true, BPF_AND, BPF_REG_4, 1);
		} else if (form == 2) {
			gi_alu(g, true, BPF_RSH, BPF_REG_4, 1);
			gi_alu(g, true, BPF_OR, BPF_REG_4, 1);
		}
		gi_bind(g, a);
		gi_alux(g, true, BPF_ADD, BPF_REG_1, BPF_REG_4);
		gi_bind(g, j);
	}
	gi_jmp(g, false, BPF_JLT, BPF_REG_1, (int32_t)n, top);
	gi_bind(g, end);
	l = prologue_loop(g, idx, top, end, GEN_FORM_DO_WHILE,
			  GEN_SH(DO_WHILE) | GEN_SH(UP) | GEN_SH(CTR64) | GEN_SH(COND_UNSIGNED) |
				  GEN_SH(BOUND_CONST) | GEN_SH(INIT_INPUT) | GEN_SH(COND_UPDATE) |
				  (zero ? GEN_SH(NONTERM) : 0),
			  BPF_REG_1, BPF_JLT);
	l->step = c;
	l->trip = -1;
	l->trip_max = zero ? UINT64_MAX : n;
	if (zero) {
		mark_endless(g, l);
	}
}

/* A counter that starts anywhere below its bound (p_start_range; cond_break1 of the kernel's
 * verifier_iterating_callbacks.c): r1 = data[b] & 63, then do { read fp[r1 - 64]; r1 += s; }
 * while (r1 < n), s in [1, 3], n in [16, 64] — at 64 or 32 bits (w1), the test unsigned, signed
 * or r1 <= n - 1.  The start plus the steps of the trip count reaches 63 + n - 1; the test
 * itself keeps every read in the frame's top 64 bytes (written first: zeros below the spilled
 * data pointer).  The twin (p_start_range_over) has n = 64 + s: the last read is at r10 + 0 to
 * + 2, past the frame, on every input, which flags the program.  r1, r4 clobbered. */
static void start_range_loop(struct gi *g, bool over)
{
	int idx = (int)g->p->nloops++, top = gi_label(g), end = gi_label(g);
	uint32_t s = gen_u32(g->src, 1, 3), n = over ? 64 + s : gen_u32(g->src, 16, 64);
	uint32_t form = gen_u32(g->src, 0, 2);
	bool w32 = gen_bool(g->src, 40);
	uint8_t op = form == 0 ? BPF_JLT : form == 1 ? BPF_JSLT : BPF_JLE;
	struct gen_loop *l;

	for (int16_t off = -64; off < (g->use_pkt ? GEN_FP_DATA_END : GEN_FP_DATA); off += 8)
		gi_st(g, BPF_DW, EBPF_REG_FP, off, 0);
	/* (the pieces before may have clobbered r2: data from its slot) */
	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_1, (int16_t)gen_u32(g->src, 0, 7));
	gi_alu(g, !w32, BPF_AND, BPF_REG_1, 63);
	gi_bind(g, top);
	gi_alux(g, true, BPF_MOV, BPF_REG_4, EBPF_REG_FP);
	gi_alux(g, true, BPF_ADD, BPF_REG_4, BPF_REG_1);
	gi_ldx(g, BPF_B, BPF_REG_4, BPF_REG_4, -64);
	gi_alu(g, !w32, BPF_ADD, BPF_REG_1, (int32_t)s);
	gi_jmp(g, w32, op, BPF_REG_1, (int32_t)(op == BPF_JLE ? n - 1 : n), top);
	gi_bind(g, end);
	l = prologue_loop(g, idx, top, end, GEN_FORM_DO_WHILE,
			  GEN_SH(DO_WHILE) | GEN_SH(UP) | (s == 1 ? GEN_SH(STEP_UNIT) : 0) |
				  (w32 ? GEN_SH(CTR32) : GEN_SH(CTR64)) |
				  (form == 1 ? GEN_SH(COND_SIGNED) : GEN_SH(COND_UNSIGNED)) |
				  GEN_SH(BOUND_CONST) | GEN_SH(INIT_INPUT),
			  BPF_REG_1, op);
	if (w32)
		l->counter_width = l->cmp_width = 32;
	l->step = s;
	l->trip = -1;
	l->trip_max = (n + s - 1) / s;
	if (over)
		g->p->flags |= GEN_PROG_START_RANGE_UNSAFE;
}

/* '==' against a bound the outer loop computes from its counter (p_eq_outer; the kernel
 * campaign's programs 35 and 126): for (r1 = 0; r1 < m; r1++) { r4 = c0 + (q - r1) * s, as
 * r4 = r1 * -s + (c0 + q s), kept in r4 or stored to GEN_FP_CELL and read back in every inner
 * iteration; r5 = c0; do r5 += s; while (r5 != r4); }, s odd (either sign, |s| in [3, 2001]),
 * m in [2, 5], q in [m, m + 8]: the inner loop runs q - r1 times.  The bound's range alone
 * does not show it (an odd step meets most numbers of an interval only after about 2^64
 * steps).  The twin (p_eq_outer_off) steps by 2 s and puts the bound one past the multiples:
 * the distance is odd, the counter never meets it, on every input.  r1, r4, r5 clobbered. */
static void eq_outer_loop(struct gi *g, bool off)
{
	int idx = (int)g->p->nloops++, in = (int)g->p->nloops++;
	int top = gi_label(g), end = gi_label(g), itop = gi_label(g), iend = gi_label(g);
	uint32_t m = gen_u32(g->src, 2, 5), q = gen_u32(g->src, m, m + 8);
	int32_t c0 = (int32_t)gen_u32(g->src, 0, 200) - 100;
	int32_t s = (int32_t)(2 * gen_u32(g->src, 1, 1000) + 1) * (off ? 2 : 1);
	bool spill = gen_bool(g->src, 50);
	struct gen_loop *l;

	if (gen_bool(g->src, 50))
		s = -s;
	gi_mov_const(g, BPF_REG_1, 0, true);
	gi_bind(g, top);
	gi_alux(g, true, BPF_MOV, BPF_REG_4, BPF_REG_1);
	gi_alu(g, true, BPF_MUL, BPF_REG_4, -s);
	gi_alu(g, true, BPF_ADD, BPF_REG_4, c0 + (int32_t)q * s + (off ? 1 : 0));
	if (spill)
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_CELL, BPF_REG_4);
	gi_mov_const(g, BPF_REG_5, (uint64_t)(int64_t)c0, true);
	gi_bind(g, itop);
	gi_alu(g, true, BPF_ADD, BPF_REG_5, s);
	if (spill)
		gi_ldx(g, BPF_DW, BPF_REG_4, EBPF_REG_FP, GEN_FP_CELL);
	gi_jmpx(g, false, BPF_JNE, BPF_REG_5, BPF_REG_4, itop);
	gi_bind(g, iend);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, 1);
	gi_jmp(g, false, BPF_JLT, BPF_REG_1, (int32_t)m, top);
	gi_bind(g, end);
	up_loop_describe(g, idx, top, end, GEN_SH(NEST2), off, (int64_t)m, m);
	l = prologue_loop(g, in, itop, iend, GEN_FORM_DO_WHILE,
			  GEN_SH(DO_WHILE) | (s < 0 ? GEN_SH(DOWN) : GEN_SH(UP)) | GEN_SH(STEP_BIG) |
				  GEN_SH(CTR64) | GEN_SH(COND_EQNE) | GEN_SH(BOUND_OUTER) |
				  (off ? GEN_SH(NONTERM) : 0),
			  BPF_REG_5, BPF_JNE);
	l->parent = idx;
	l->depth = 2;
	l->step = (uint64_t)(int64_t)s;
	l->trip = -1;
	l->trip_max = off ? UINT64_MAX : q;
	l->ivs[0] = (struct gen_iv){ .loc = BPF_REG_5, .width = 64, .has_start = true,
				     .step = (uint64_t)(int64_t)s, .start = (uint64_t)(int64_t)c0 };
	l->nivs = 1;
	if (off)
		mark_endless(g, l);
}

/* The end of the outer loops of inner_steps_loop, side_steps_loop and mixed_steps_loop: r1 += B
 * (none when B is 0; through r3 when big), while (r1 < n), n in r3; or, w32, w1 += B while (w1 <
 * n) at 32 bits, n an immediate; the outer loop's description, counter r1, with the shapes of
 * both and extra. */
static struct gen_loop *outer_close(struct gi *g, int idx, int top, int end, uint64_t B,
				    uint64_t n, bool big, bool w32, uint64_t extra)
{
	struct gen_loop *l;

	if (B && big) {
		gi_mov_const(g, BPF_REG_3, B, true);
		gi_alux(g, true, BPF_ADD, BPF_REG_1, BPF_REG_3);
	} else if (B) {
		gi_alu(g, !w32, BPF_ADD, BPF_REG_1, (int32_t)B);
	}
	if (w32) {
		gi_jmp(g, true, BPF_JLT, BPF_REG_1, (int32_t)n, top);
	} else {
		gi_mov_const(g, BPF_REG_3, n, true);
		gi_jmpx(g, false, BPF_JLT, BPF_REG_1, BPF_REG_3, top);
	}
	gi_bind(g, end);
	l = prologue_loop(g, idx, top, end, GEN_FORM_DO_WHILE,
			  GEN_SH(DO_WHILE) | GEN_SH(UP) | GEN_SH(COND_UNSIGNED) |
				  (w32 ? GEN_SH(CTR32) | GEN_SH(BOUND_CONST) : GEN_SH(CTR64)) |
				  (big ? GEN_SH(STEP_BIG) | GEN_SH(BOUND_LDIMM64)
				       : w32 ? 0 : GEN_SH(BOUND_REG)) |
				  GEN_SH(NEST2) | GEN_SH(OUTER_MOD) | GEN_SH(OUTER_MOD_CTR) | extra,
			  BPF_REG_1, BPF_JLT);
	l->flags |= GEN_LOOP_CTR_CHANGED;
	if (w32)
		l->counter_width = l->cmp_width = 32;
	l->step = B;
	l->trip = -1;
	return l;
}

/* An outer counter that an inner loop moves by a number of steps known only as a range
 * (p_inner_steps; the longer kernel campaign's largest class): r4 = data[9]; r1 = c0; do { r5
 * = (r4 & 3) + 1; r3 = 0; do { if (r4 <= r3) r1 += d; r3++; } while (r3 < r5); r1 += B; }
 * while (r1 < c0 + m B), d in [1, 3], B in [1, 3] (m in [5, 20]) or 2^33 + [1, 3] (m in [2,
 * 6], the bound an LD_IMM64 in r3).  The inner loop runs 1-4 times and adds d on the
 * iterations the input picks, so the outer step is B plus a range, at least B: at most m
 * iterations.  The twin (p_inner_steps_still) has B = 0: on data[9] >= 4 the inner loop
 * never adds and the outer loop runs for ever.  r1, r3-r5 clobbered.
 *
 * mixed (p_mixed_steps; the longer kernel campaign's program 964, seed 2): the inner loop runs
 * K times, K in [1, 4], and the counter is a 32-bit one: w1 = c0 (or, with K = 1, r1 = h << 32
 * | c0); do { r3 = 0; do { if (r4 <= r3) w1 += d; r3++; } while (r3 < K); w1 += B; } while
 * (w1 < c0 + m B) at 32 bits, B in [1, 3].  The inner loop's back edges hold zext32(r1 + d) on
 * one path and r1 on the other: one 32-bit accumulation where its header never sees r1 at 2^32
 * or above (after any write of w1), and the high bits of the K = 1 form's entry value meet only
 * a loop whose exit is taken in its first iteration, which leaves r1 as it came in.  Its twin
 * (p_mixed_steps_still) has B = 0 too: endless on data[9] >= K.  r1, r3, r4 clobbered. */
static void inner_moves_loop(struct gi *g, bool still, bool mixed)
{
	int idx = (int)g->p->nloops++, in = (int)g->p->nloops++;
	int top = gi_label(g), end = gi_label(g), itop = gi_label(g), iend = gi_label(g);
	int skip = gi_label(g);
	bool big = !mixed && gen_bool(g->src, 40);
	uint32_t d = gen_u32(g->src, 1, 3), m = big ? gen_u32(g->src, 2, 6) : gen_u32(g->src, 5, 20);
	uint64_t b = gen_u32(g->src, 1, 3), B = big ? (1ull << 33) + b : b;
	uint64_t c0 = gen_u32(g->src, 0, 100), n = c0 + m * B;
	uint32_t K = mixed ? gen_u32(g->src, 1, 4) : 0;
	uint64_t h = K == 1 && gen_bool(g->src, 50) ? gen_u32(g->src, 1, 0xffffffffu) : 0;
	struct gen_loop *l;

	/* (the data pointer from its slot: def_loop, before, counts in r2) */
	gi_ldx(g, BPF_DW, BPF_REG_4, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_4, BPF_REG_4, 9);
	gi_mov_const(g, BPF_REG_1, h << 32 | c0, !mixed || h);
	gi_bind(g, top);
	if (!mixed) {
		gi_alux(g, true, BPF_MOV, BPF_REG_5, BPF_REG_4);
		gi_alu(g, true, BPF_AND, BPF_REG_5, 3);
		gi_alu(g, true, BPF_ADD, BPF_REG_5, 1);
	}
	gi_mov_const(g, BPF_REG_3, 0, true);
	gi_bind(g, itop);
	gi_jmpx(g, false, BPF_JGT, BPF_REG_4, BPF_REG_3, skip);
	gi_alu(g, !mixed, BPF_ADD, BPF_REG_1, (int32_t)d);
	gi_bind(g, skip);
	gi_alu(g, true, BPF_ADD, BPF_REG_3, 1);
	if (mixed)
		gi_jmp(g, false, BPF_JLT, BPF_REG_3, (int32_t)K, itop);
	else
		gi_jmpx(g, false, BPF_JLT, BPF_REG_3, BPF_REG_5, itop);
	gi_bind(g, iend);
	l = outer_close(g, idx, top, end, still ? 0 : B, n, big, mixed,
			(mixed ? GEN_SH(CMP_MIX) : 0) | (still ? GEN_SH(NONTERM) : 0));
	l->trip_max = still ? UINT64_MAX : m;
	l = prologue_loop(g, in, itop, iend, GEN_FORM_DO_WHILE,
			  GEN_SH(DO_WHILE) | GEN_SH(UP) | GEN_SH(STEP_UNIT) | GEN_SH(CTR64) |
				  GEN_SH(COND_UNSIGNED) | GEN_SH(COND_UPDATE) |
				  (mixed ? GEN_SH(BOUND_CONST) : GEN_SH(BOUND_INPUT)),
			  BPF_REG_3, BPF_JLT);
	l->parent = idx;
	l->depth = 2;
	l->step = 1;
	l->trip = mixed ? (int)K : -1;
	l->trip_max = mixed ? K : 4;
	l->ivs[0] = (struct gen_iv){ .loc = BPF_REG_3, .width = 64, .has_start = true, .step = 1 };
	l->nivs = 1;
	if (still) {
		mark_endless(g, &g->p->loops[idx]);
	}
}

static void inner_steps_loop(struct gi *g, bool still)
{
	inner_moves_loop(g, still, false);
}

static void mixed_steps_loop(struct gi *g, bool still)
{
	inner_moves_loop(g, still, true);
}

/* An outer counter that an irreducible inner loop moves, entered at its header or at its side
 * entry as the input picks (p_side_steps; the longer kernel campaign's programs 99, 618, 670):
 * r4 = data[9]; r1 = c0; do { w5 = K; if (r4 & 1) goto side; head: r1 += d; side: r1 += e;
 * w5 -= 1; if (w5 != 0) goto head; r4 >>= 1; r1 += B; } while (r1 < c0 + m B), K in [1, 4],
 * d in [1, 3], e in [0, 2], B in [1, 3] (m in [5, 20]) or 2^33 + [1, 3] (m in [2, 6], the bound
 * an LD_IMM64 in r3).  Entered at the header the inner cycle runs K times, at its side entry K
 * - 1 after a first pass of the side block: the outer step is B plus a number that depends on
 * the entry, at least B: at most m iterations.  The twin (p_side_steps_still) has K = 1, B = 0,
 * e = 0 and keeps r4: on an odd data[9] the side entry is taken every time, adds nothing, and
 * the outer loop runs for ever.  r1, r3-r5 clobbered. */
static void side_steps_loop(struct gi *g, bool still)
{
	int idx = (int)g->p->nloops++, in = (int)g->p->nloops++;
	int top = gi_label(g), end = gi_label(g), head = gi_label(g), side = gi_label(g);
	int iend = gi_label(g);
	bool big = !still && gen_bool(g->src, 40);
	uint32_t d = gen_u32(g->src, 1, 3), e = still ? 0 : gen_u32(g->src, 0, 2);
	uint32_t K = still ? 1 : gen_u32(g->src, 1, 4);
	uint32_t m = big ? gen_u32(g->src, 2, 6) : gen_u32(g->src, 5, 20);
	uint64_t b = gen_u32(g->src, 1, 3), B = still ? 0 : big ? (1ull << 33) + b : b;
	uint64_t c0 = gen_u32(g->src, 0, 100), n = c0 + m * (still ? b : B);
	struct gen_loop *l;

	/* (the data pointer from its slot: def_loop, before, counts in r2) */
	gi_ldx(g, BPF_DW, BPF_REG_4, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_4, BPF_REG_4, 9);
	gi_mov_const(g, BPF_REG_1, c0, true);
	gi_bind(g, top);
	gi_mov_const(g, BPF_REG_5, K, false);
	gi_jmp(g, false, BPF_JSET, BPF_REG_4, 1, side);
	gi_bind(g, head);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, (int32_t)d);
	gi_bind(g, side);
	if (e)
		gi_alu(g, true, BPF_ADD, BPF_REG_1, (int32_t)e);
	gi_alu(g, false, BPF_SUB, BPF_REG_5, 1);
	gi_jmp(g, true, BPF_JNE, BPF_REG_5, 0, head);
	gi_bind(g, iend);
	if (!still)
		gi_alu(g, true, BPF_RSH, BPF_REG_4, 1);
	l = outer_close(g, idx, top, end, B, n, big, false,
			GEN_SH(IRREDUCIBLE) | (still ? GEN_SH(NONTERM) : 0));
	l->trip_max = still ? UINT64_MAX : m;
	l = prologue_loop(g, in, head, iend, GEN_FORM_IRREDUCIBLE,
			  GEN_SH(IRREDUCIBLE) | GEN_SH(DOWN) | GEN_SH(STEP_UNIT) | GEN_SH(CTR32) |
				  GEN_SH(COND_EQNE),
			  BPF_REG_5, BPF_JNE);
	g->loop_label_head[in] = -1;
	g->loop_label_entry2[in] = side;
	l->flags |= GEN_LOOP_IRREDUCIBLE;
	l->parent = idx;
	l->depth = 2;
	l->counter_width = l->cmp_width = 32;
	l->step = 0xffffffff;
	l->trip = -1;
	l->trip_max = K;
	if (still) {
		mark_endless(g, &g->p->loops[idx]);
	}
}

/* An irreducible loop entered only through one of its two entries, the other's edge dead by a
 * test the constants decide (p_irr_side_only; the shape of 3a5d367, corpus
 * irreducible_side_entry_only, which no generator made before): [r1 = 0; outer:] r5 = c; if (rT
 * op k) goto side; head: fp-40 = r5; r0 = fp-40; side: r5 -= s; if (r5 cmp lo) goto head; [r1 +=
 * 1; if (r1 < m) goto outer].  rT is r5 itself or r4 = d, set before the outer loop, maybe
 * through a spill at fp-48 read back inside it; op is signed, unsigned, == or != at 64 or 32
 * bits (JMP32), with k near d or anywhere: the test always jumps (the fall-through into head is
 * dead: the loop is entered only at its side entry) or never does (the jump to side is dead:
 * entered only at head), about as often.  cmp is > or s> at 64 or 32 bits against lo = c - n
 * s, s in [1, 3], n in [1, 8]; the trip (side executions per entry) is exact.  The twin
 * (p_irr_side_only_bad) keeps the shape with n >= 2, so that head runs on every entry, and
 * puts there what only the live entry's path reaches: a load above the frame (through r0 = r10
 * + 0 or + 8) or through a null r0 (GEN_PROG_SIDE_ONLY_UNSAFE), or it drops the step (r5 |= 0:
 * endless on every input).  r0, r1, r4, r5 clobbered. */
#define GEN_FP_SIDE_BODY (-40)
#define GEN_FP_SIDE_CONST (-48)
static void side_only_loop(struct gi *g, bool bad)
{
	static const uint8_t ops[] = { BPF_JEQ, BPF_JNE, BPF_JGT, BPF_JGE, BPF_JLT, BPF_JLE,
				       BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE };
	bool nest = gen_bool(g->src, 40), own = gen_bool(g->src, 50);
	bool spill = !own && gen_bool(g->src, 50);
	int idx = nest ? (int)g->p->nloops++ : -1, in = (int)g->p->nloops++;
	int otop = gi_label(g), oend = gi_label(g), head = gi_label(g), side = gi_label(g);
	int iend = gi_label(g);
	unsigned kind = bad ? gen_u32(g->src, 0, 2) : 3;	/* 0 above, 1 null, 2 endless */
	bool endless = kind == 2;
	uint32_t s = gen_u32(g->src, 1, 3), want = gen_u32(g->src, bad ? 2 : 1, 8);
	uint32_t m = gen_u32(g->src, 2, 4);
	int64_t c = (int64_t)gen_u32(g->src, 0, 200) - 100, lo = c - (int64_t)want * s;
	int64_t d = own ? c : (int64_t)(int32_t)gen_u32(g->src, 0, UINT32_MAX);
	int32_t kk = gen_bool(g->src, 50) ? (int32_t)((uint32_t)d + gen_u32(g->src, 0, 6) - 3)
					  : (int32_t)gen_u32(g->src, 0, UINT32_MAX);
	bool jw32 = gen_bool(g->src, 35), ew32 = gen_bool(g->src, 35);
	uint8_t op = ops[gen_u32(g->src, 0, sizeof(ops) - 1)];
	uint8_t eop = gen_bool(g->src, 50) ? BPF_JSGT : BPF_JGT;
	uint64_t k, n;
	int rt = own ? BPF_REG_5 : BPF_REG_4;
	struct gen_loop *l;

	/* the exit test's trip from the constants; s> at 64 bits when another takes long (or, for
	 * the endless twin, exits at c, which it never leaves) */
	if (!gen_first_exit(eop, ew32 ? 32 : 64, 64, (uint64_t)(c - (int64_t)s), (uint64_t)-(int64_t)s,
			    (uint64_t)lo, &k) ||
	    k + 1 > 16 || (bad && k + 1 < 2) ||
	    (endless && !gen_cond_holds(eop, ew32 ? 32 : 64, 64, (uint64_t)c, (uint64_t)lo))) {
		eop = BPF_JSGT;
		ew32 = false;
		k = want - 1;
	}
	n = k + 1;
	if (!own)
		gi_mov_const(g, BPF_REG_4, (uint64_t)d, true);
	if (spill)
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_SIDE_CONST, BPF_REG_4);
	if (nest) {
		gi_mov_const(g, BPF_REG_1, 0, true);
		gi_bind(g, otop);
	}
	if (spill)
		gi_ldx(g, BPF_DW, BPF_REG_4, EBPF_REG_FP, GEN_FP_SIDE_CONST);
	gi_mov_const(g, BPF_REG_5, (uint64_t)c, true);
	gi_jmp(g, jw32, op, rt, kk, side);
	gi_bind(g, head);
	if (kind == 0) {
		gi_alux(g, true, BPF_MOV, BPF_REG_0, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_0, gen_bool(g->src, 50) ? 8 : 0);
		gi_ldx(g, BPF_DW, BPF_REG_0, BPF_REG_0, 0);
	} else if (kind == 1) {
		gi_mov_const(g, BPF_REG_0, 0, true);
		gi_ldx(g, BPF_DW, BPF_REG_0, BPF_REG_0, 0);
	} else {
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_SIDE_BODY, BPF_REG_5);
		gi_ldx(g, BPF_DW, BPF_REG_0, EBPF_REG_FP, GEN_FP_SIDE_BODY);
	}
	gi_bind(g, side);
	if (endless)
		gi_alu(g, true, BPF_OR, BPF_REG_5, 0);
	else
		gi_alu(g, true, BPF_ADD, BPF_REG_5, -(int32_t)s);
	gi_jmp(g, ew32, eop, BPF_REG_5, (int32_t)lo, head);
	gi_bind(g, iend);
	if (nest) {
		gi_alu(g, true, BPF_ADD, BPF_REG_1, 1);
		gi_jmp(g, false, BPF_JLT, BPF_REG_1, (int32_t)m, otop);
		gi_bind(g, oend);
		l = prologue_loop(g, idx, otop, oend, GEN_FORM_DO_WHILE,
				  GEN_SH(DO_WHILE) | GEN_SH(UP) | GEN_SH(STEP_UNIT) | GEN_SH(CTR64) |
					  GEN_SH(COND_UNSIGNED) | GEN_SH(BOUND_CONST) |
					  GEN_SH(NEST2) | (endless ? GEN_SH(NONTERM) : 0),
				  BPF_REG_1, BPF_JLT);
		l->step = 1;
		l->trip = endless ? -1 : (int64_t)m;
		l->trip_max = endless ? UINT64_MAX : m;
		if (!endless) {
			l->ivs[0] = (struct gen_iv){ .loc = BPF_REG_1, .width = 64,
						     .has_start = true, .step = 1 };
			l->nivs = 1;
		} else {
			l->flags |= GEN_LOOP_MAY_NOT_TERMINATE;
		}
	}
	l = prologue_loop(g, in, head, iend, GEN_FORM_IRREDUCIBLE,
			  GEN_SH(IRREDUCIBLE) | GEN_SH(DOWN) | (s == 1 ? GEN_SH(STEP_UNIT) : 0) |
				  GEN_SH(CTR64) | (ew32 ? GEN_SH(CMP_MIX) : 0) |
				  (eop == BPF_JSGT ? GEN_SH(COND_SIGNED) : GEN_SH(COND_UNSIGNED)) |
				  GEN_SH(BOUND_CONST) | (spill ? GEN_SH(SPILL) : 0) |
				  (endless ? GEN_SH(NONTERM) : 0),
			  BPF_REG_5, eop);
	g->loop_label_head[in] = -1;
	g->loop_label_entry2[in] = side;
	l->flags |= GEN_LOOP_IRREDUCIBLE;
	l->cmp_width = ew32 ? 32 : 64;
	if (nest) {
		l->parent = idx;
		l->depth = 2;
	}
	l->step = (uint64_t)-(int64_t)s;
	l->trip = endless ? -1 : (int64_t)n;
	l->trip_max = endless ? UINT64_MAX : n;
	if (endless) {
		mark_endless(g, l);
	} else {
		l->ivs[0] = (struct gen_iv){ .loc = BPF_REG_5, .width = 64, .has_start = true,
					     .step = l->step, .start = (uint64_t)c };
		l->nivs = 1;
	}
	if (kind < 2)
		g->p->flags |= GEN_PROG_SIDE_ONLY_UNSAFE;
}

/* A counter spilled at fp-40 that the loop updates after its two paths store a slot in two
 * shapes (p_cell_shapes; the longer kernel campaign's program 537, seed 2): r4 = data[9]; fp-40 =
 * c0; do { if (r4 & 1) *(u32 *)(fp-32) = r4; else *(u64 *)(fp-32) = r4; r4 >>= 1; fp-40 += s; }
 * while (fp-40 < c0 + m s), s in [1, 3], m in [2, 20]: m iterations.  Where the paths join, the
 * two shapes at fp-32 are unknown bytes; the counter, which neither path wrote, was forgotten
 * with the whole frame.  The twin (p_cell_shapes_cut) has its paths store the counter itself, as
 * it is (8 bytes) on one and as 4 bytes of 0 on the other, which sets it back, and keeps r4:
 * endless on an odd data[9].  Both slots lie above the program's own spills, which write before
 * they read.  r1, r4 clobbered. */
#define GEN_FP_SHAPES_CTR (-40)
#define GEN_FP_SHAPES_SLOT (-32)
static void cell_shapes_loop(struct gi *g, bool cut)
{
	int idx = (int)g->p->nloops++, top = gi_label(g), end = gi_label(g), a = gi_label(g);
	int j = gi_label(g);
	uint32_t s = gen_u32(g->src, 1, 3), m = gen_u32(g->src, 2, 20), c0 = gen_u32(g->src, 0, 100);
	struct gen_loop *l;

	gi_ldx(g, BPF_DW, BPF_REG_4, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_4, BPF_REG_4, 9);
	gi_mov_const(g, BPF_REG_1, c0, true);
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_SHAPES_CTR, BPF_REG_1);
	gi_bind(g, top);
	gi_jmp(g, false, BPF_JSET, BPF_REG_4, 1, a);
	if (cut) {
		gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_SHAPES_CTR);
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_SHAPES_CTR, BPF_REG_1);
	} else {
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_SHAPES_SLOT, BPF_REG_4);
	}
	gi_ja(g, j);
	gi_bind(g, a);
	if (cut)
		gi_st(g, BPF_W, EBPF_REG_FP, GEN_FP_SHAPES_CTR, 0);
	else
		gi_stx(g, BPF_W, EBPF_REG_FP, GEN_FP_SHAPES_SLOT, BPF_REG_4);
	gi_bind(g, j);
	if (!cut)
		gi_alu(g, true, BPF_RSH, BPF_REG_4, 1);
	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_SHAPES_CTR);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, (int32_t)s);
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_SHAPES_CTR, BPF_REG_1);
	gi_jmp(g, false, BPF_JLT, BPF_REG_1, (int32_t)(c0 + m * s), top);
	gi_bind(g, end);
	l = prologue_loop(g, idx, top, end, GEN_FORM_DO_WHILE,
			  GEN_SH(DO_WHILE) | GEN_SH(UP) | GEN_SH(CTR64) | GEN_SH(COND_UNSIGNED) |
				  GEN_SH(BOUND_CONST) | GEN_SH(SPILL) | GEN_SH(NARROW_SPILL) |
				  (cut ? GEN_SH(NONTERM) : s == 1 ? GEN_SH(STEP_UNIT) : 0),
			  LOC_SLOT(GEN_FP_SHAPES_CTR, 8), BPF_JLT);
	l->step = s;
	l->trip = cut ? -1 : (int)m;
	l->trip_max = cut ? UINT64_MAX : m;
	if (cut) {
		mark_endless(g, l);
	} else {
		l->ivs[0] = (struct gen_iv){ .loc = LOC_SLOT(GEN_FP_SHAPES_CTR, 8), .width = 64,
					     .has_start = true, .step = s, .start = c0 };
		l->nivs = 1;
	}
}

/* A loop a compiler rotated (p_rotated_eq; the longer kernel campaign's program 1165, seed 2): x =
 * (data[12] & 3) + c0, n = (data[13] & 7) + c0 + 3 (c0 in [-100, 100]), x kept at fp-40 or in
 * r1; if (x == n) skip the loop (a 64-bit or a 32-bit test); do x += 1; while (x != n): n - x
 * header executions, in [1, 10], when it is entered.  The bottom test alone, from x = n, would
 * run 2^64 times: only the guard bounds it.  The twin (p_rotated_eq_open) tests r3 = x + 1
 * against n instead, so x == n (data[12] = 3, data[13] = 0) enters and never leaves, which
 * flags the loop.  r1, r3, r4, r5 clobbered. */
static void rotated_eq_loop(struct gi *g, bool open)
{
	int idx = (int)g->p->nloops++, top = gi_label(g), end = gi_label(g);
	int32_t c0 = (int32_t)gen_u32(g->src, 0, 200) - 100;
	bool slot = gen_bool(g->src, 60), j32 = gen_bool(g->src, 30);
	struct gen_loop *l;

	gi_ldx(g, BPF_DW, BPF_REG_4, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_4, 12);
	gi_alu(g, true, BPF_AND, BPF_REG_1, 3);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, c0);
	gi_ldx(g, BPF_B, BPF_REG_5, BPF_REG_4, 13);
	gi_alu(g, true, BPF_AND, BPF_REG_5, 7);
	gi_alu(g, true, BPF_ADD, BPF_REG_5, c0 + 3);
	if (slot)
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_SHAPES_CTR, BPF_REG_1);
	if (open) {
		gi_alux(g, true, BPF_MOV, BPF_REG_3, BPF_REG_1);
		gi_alu(g, true, BPF_ADD, BPF_REG_3, 1);
		gi_jmpx(g, j32, BPF_JEQ, BPF_REG_3, BPF_REG_5, end);
	} else {
		gi_jmpx(g, j32, BPF_JEQ, BPF_REG_1, BPF_REG_5, end);
	}
	gi_bind(g, top);
	if (slot)
		gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_SHAPES_CTR);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, 1);
	if (slot)
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_SHAPES_CTR, BPF_REG_1);
	gi_jmpx(g, false, BPF_JNE, BPF_REG_1, BPF_REG_5, top);
	gi_bind(g, end);
	l = prologue_loop(g, idx, top, end, GEN_FORM_FOR,
			  GEN_SH(FOR) | GEN_SH(UP) | GEN_SH(CTR64) | GEN_SH(COND_EQNE) |
				  GEN_SH(STEP_UNIT) | GEN_SH(INIT_INPUT) | GEN_SH(BOUND_INPUT) |
				  (slot ? GEN_SH(SPILL) : 0) | (open ? GEN_SH(NONTERM) : 0),
			  slot ? (int)LOC_SLOT(GEN_FP_SHAPES_CTR, 8) : BPF_REG_1, BPF_JNE);
	l->step = 1;
	l->trip = -1;
	l->trip_max = open ? UINT64_MAX : 10;
	if (open) {
		mark_endless(g, l);
	}
}

/* An outer back edge that leaves from inside an inner loop (p_outer_continue, issue 14 §5): r4 =
 * data[14] & 7; r1 = 0; while (r1 < N) { r3 = 0; do { r3 += 1; r1 += 1; if (r3 == r4) continue
 * outer; } while (r3 < m); }, N in [10, 60], m in [2, 6]: every outer iteration adds 1 to m to
 * r1 before either back edge, at most N of them.  The twin (p_outer_continue_still) jumps back
 * before the add, so r4 = 1 (data[14] = 1) goes round the outer loop with r1 unchanged for
 * ever, which flags it.  r1, r3, r4 clobbered.
 *
 * The outer exit on the outer latch, with a copy of it where the inner loop jumps back to the outer
 * header (p_outer_latch, issue 14 §5), as a compiler leaves `do { ... if (j == n) continue; ...
 * } while (i < N)` in a nest: r4 = data[14] & 7; r1 = 0; do { r3 = 0; do { r3 += 1; r1 += 1; if
 * (r3 == r4) { if (r1 < N) continue outer; break outer; } } while (r3 < m); } while (r1 < N), N
 * in [10, 60], m in [2, 6]: every outer cycle adds 1 to m to r1 and passes one of the two tests,
 * at most N header executions.  The twin (p_outer_latch_still) adds after the jump back, so r4
 * = 1 (data[14] = 1) goes round with r1 unchanged for ever, which flags it.  r1, r3, r4
 * clobbered. */
static void outer_back_nest(struct gi *g, bool still, bool latch)
{
	int idx = (int)g->p->nloops++, in = (int)g->p->nloops++;
	int top = gi_label(g), end = gi_label(g), head = gi_label(g), iend = gi_label(g);
	int nxt = gi_label(g);
	uint32_t n = gen_u32(g->src, 10, 60), m = gen_u32(g->src, 2, 6);
	struct gen_loop *l;

	gi_ldx(g, BPF_DW, BPF_REG_4, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_4, BPF_REG_4, 14);
	gi_alu(g, true, BPF_AND, BPF_REG_4, 7);
	gi_mov_const(g, BPF_REG_1, 0, true);
	gi_bind(g, top);
	if (!latch)
		gi_jmp(g, false, BPF_JGE, BPF_REG_1, (int32_t)n, end);
	gi_mov_const(g, BPF_REG_3, 0, true);
	gi_bind(g, head);
	gi_alu(g, true, BPF_ADD, BPF_REG_3, 1);
	if (!still)
		gi_alu(g, true, BPF_ADD, BPF_REG_1, 1);
	if (latch) {
		gi_jmpx(g, false, BPF_JNE, BPF_REG_3, BPF_REG_4, nxt);
		gi_jmp(g, false, BPF_JLT, BPF_REG_1, (int32_t)n, top);
		gi_ja(g, end);
		gi_bind(g, nxt);
	} else {
		gi_jmpx(g, false, BPF_JEQ, BPF_REG_3, BPF_REG_4, top);
	}
	if (still)
		gi_alu(g, true, BPF_ADD, BPF_REG_1, 1);
	gi_jmp(g, false, BPF_JLT, BPF_REG_3, (int32_t)m, head);
	gi_bind(g, iend);
	if (latch)
		gi_jmp(g, false, BPF_JLT, BPF_REG_1, (int32_t)n, top);
	else
		gi_ja(g, top);
	gi_bind(g, end);
	l = prologue_loop(g, idx, top, end, latch ? GEN_FORM_DO_WHILE : GEN_FORM_WHILE,
			  (latch ? GEN_SH(DO_WHILE) : GEN_SH(WHILE)) | GEN_SH(NEST2) | GEN_SH(UP) |
				  GEN_SH(CTR64) | GEN_SH(COND_UNSIGNED) | GEN_SH(BOUND_CONST) |
				  GEN_SH(OUTER_MOD) | GEN_SH(OUTER_MOD_CTR) |
				  (still ? GEN_SH(NONTERM) : 0),
			  BPF_REG_1, BPF_JLT);
	l->flags |= GEN_LOOP_CTR_CHANGED;
	l->trip = -1;
	l->trip_max = still ? UINT64_MAX : n + !latch;
	if (still)
		mark_endless(g, l);
	l = prologue_loop(g, in, head, iend, GEN_FORM_DO_WHILE,
			  GEN_SH(DO_WHILE) | GEN_SH(UP) | GEN_SH(STEP_UNIT) | GEN_SH(CTR64) |
				  GEN_SH(COND_UNSIGNED) | GEN_SH(BOUND_CONST) | GEN_SH(BREAK_OUTER),
			  BPF_REG_3, BPF_JLT);
	l->flags |= GEN_LOOP_EARLY_EXIT;
	l->parent = idx;
	l->depth = 2;
	l->step = 1;
	l->trip = -1;
	l->trip_max = m;
}

static void outer_continue_loop(struct gi *g, bool still)
{
	outer_back_nest(g, still, false);
}

static void outer_latch_loop(struct gi *g, bool still)
{
	outer_back_nest(g, still, true);
}

/* An outer counter kept exact through operations that are identities on its range (p_shift_ident,
 * issue 14 §1): r1 = data[16] & 7; do { r3 = 0; do { r1 += k; r3 += 1; } while (r3 < m); r1 <<=
 * s; r1 >>= s; } while (r1 < n), the shifts at 64 bits (s in [1, 8]) or 32 bits (w1, s in [1,
 * 8]), the outer test at the latch or, as a while loop, at the outer header; k in [1, 4], m in
 * [2, 6], n in [21, 200]: the shifts give r1 back (r1 < 2^(W-s)), so the outer counter steps by
 * k * m and the outer loop runs ceil((n - r1) / (k * m)) times (one test more at the header).  The
 * twin (p_shift_ident_wrap) starts at 2^(W-s) - 16 + (data[16] & 7) and is bounded by 2^(W-s) +
 * n: the shifts drop the bit r1 reaches, which sets it back below 2^(W-s), so no input ends it,
 * which flags it.  r1, r3-r5 clobbered. */
static void shift_ident_loop(struct gi *g, bool wrap)
{
	int idx = (int)g->p->nloops++, in = (int)g->p->nloops++;
	int top = gi_label(g), end = gi_label(g), head = gi_label(g), iend = gi_label(g);
	uint32_t k = gen_u32(g->src, 1, 4), m = gen_u32(g->src, 2, 6), n = gen_u32(g->src, 21, 200);
	uint32_t s = gen_u32(g->src, 1, 8), S = k * m;
	bool w32 = gen_bool(g->src, 40), at_header = gen_bool(g->src, 40);
	uint64_t lim = 1ull << ((w32 ? 32 : 64) - s), base = wrap ? lim - 16 : 0;
	struct gen_loop *l;

	gi_ldx(g, BPF_DW, BPF_REG_4, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_4, 16);
	gi_alu(g, true, BPF_AND, BPF_REG_1, 7);
	if (wrap)
		gi_mov_const(g, BPF_REG_5, base, true);
	if (wrap)
		gi_alux(g, true, BPF_ADD, BPF_REG_1, BPF_REG_5);
	gi_mov_const(g, BPF_REG_5, wrap ? lim + n : n, true);
	gi_bind(g, top);
	if (at_header)
		gi_jmpx(g, false, BPF_JGE, BPF_REG_1, BPF_REG_5, end);
	gi_mov_const(g, BPF_REG_3, 0, true);
	gi_bind(g, head);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, (int32_t)k);
	gi_alu(g, true, BPF_ADD, BPF_REG_3, 1);
	gi_jmp(g, false, BPF_JLT, BPF_REG_3, (int32_t)m, head);
	gi_bind(g, iend);
	gi_alu(g, !w32, BPF_LSH, BPF_REG_1, (int32_t)s);
	gi_alu(g, !w32, BPF_RSH, BPF_REG_1, (int32_t)s);
	if (at_header)
		gi_ja(g, top);
	else
		gi_jmpx(g, false, BPF_JLT, BPF_REG_1, BPF_REG_5, top);
	gi_bind(g, end);
	l = prologue_loop(g, idx, top, end, at_header ? GEN_FORM_WHILE : GEN_FORM_DO_WHILE,
			  (at_header ? GEN_SH(WHILE) : GEN_SH(DO_WHILE)) | GEN_SH(NEST2) | GEN_SH(UP) |
				  GEN_SH(CTR64) | GEN_SH(COND_UNSIGNED) | GEN_SH(BOUND_REG) |
				  GEN_SH(INIT_INPUT) | GEN_SH(OUTER_MOD) | GEN_SH(OUTER_MOD_CTR) |
				  (wrap ? GEN_SH(WRAP) | GEN_SH(NONTERM) : 0),
			  BPF_REG_1, BPF_JLT);
	l->flags |= GEN_LOOP_CTR_CHANGED;
	l->step = S;
	l->trip = -1;
	l->trip_max = wrap ? UINT64_MAX : (n + S - 1) / S + at_header;
	if (wrap)
		mark_endless(g, l);
	l = prologue_loop(g, in, head, iend, GEN_FORM_DO_WHILE,
			  GEN_SH(DO_WHILE) | GEN_SH(UP) | GEN_SH(STEP_UNIT) | GEN_SH(CTR64) |
				  GEN_SH(COND_UNSIGNED) | GEN_SH(BOUND_CONST),
			  BPF_REG_3, BPF_JLT);
	l->parent = idx;
	l->depth = 2;
	l->step = 1;
	l->trip = (int64_t)m;
	l->trip_max = m;
	l->ivs[0] = (struct gen_iv){ .loc = BPF_REG_3, .width = 64, .has_start = true, .step = 1,
				     .start = 0 };
	l->nivs = 1;
}

/* A counter that passes an identity chain before its step (p_identity's prologue loop, issue 14
 * §3): r1 = data[17] & 1; do { chain; r1 += 1 (or w1 += 1); } while (r1 < n), n in [4, 40], the
 * chain -(-x) at 64 bits, at 32 bits, or be32 twice: n - r1 header executions.  The twin
 * (p_identity_once) negates once, x -> 1 - x at the width of its add, so from 0 or 1 it toggles
 * between them and never reaches n, which flags it.  r1, r4 clobbered. */
static void identity_loop(struct gi *g, bool once)
{
	int idx = (int)g->p->nloops++, top = gi_label(g), end = gi_label(g);
	uint32_t n = gen_u32(g->src, 4, 40), form = gen_u32(g->src, 0, once ? 1 : 2);
	bool w = form == 1 || (form == 2 && gen_bool(g->src, 50));

	gi_ldx(g, BPF_DW, BPF_REG_4, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_4, 17);
	gi_alu(g, true, BPF_AND, BPF_REG_1, 1);
	gi_bind(g, top);
	for (int k = 0; k < (once ? 1 : 2); k++) {
		if (form == 2)
			gi_emit(g, (struct bpf_insn){ .code = BPF_ALU | BPF_END | BPF_TO_BE,
						      .dst_reg = BPF_REG_1, .imm = 32 });
		else
			gi_alu(g, form == 0, BPF_NEG, BPF_REG_1, 0);
	}
	gi_alu(g, !w, BPF_ADD, BPF_REG_1, 1);
	gi_jmp(g, false, BPF_JLT, BPF_REG_1, (int32_t)n, top);
	gi_bind(g, end);
	up_loop_describe(g, idx, top, end, GEN_SH(INIT_INPUT), once, -1, n);
}

/* A counter kept in a stack slot across a helper call in the loop (p_spill_call, issue 14 §5):
 * fp-40 = 0; do { bpf_probe_read_kernel(fp - 48, 8, data); r1 = fp-40 + 1; fp-40 = r1; } while
 * (r1 != n), n in [4, 40]: exactly n header executions (the call writes its own slot).  The twin
 * (p_spill_call_clobber) has the call write the counter's slot (the packet's first 8 bytes; the
 * interpreter's helper bytes), so the counter is whatever the call left plus 1, which meets n
 * only by chance: endless, which flags it.  r0-r5 clobbered. */
static void spill_call_loop(struct gi *g, bool clobber)
{
	int idx = (int)g->p->nloops++, top = gi_label(g), end = gi_label(g);
	uint32_t n = gen_u32(g->src, 4, 40);
	struct gen_loop *l;

	gi_st(g, BPF_DW, EBPF_REG_FP, GEN_FP_SHAPES_CTR, 0);
	gi_bind(g, top);
	gi_probe_read_data(g, clobber ? GEN_FP_SHAPES_CTR : GEN_FP_SIDE_CONST);
	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_SHAPES_CTR);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, 1);
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_SHAPES_CTR, BPF_REG_1);
	gi_jmp(g, false, BPF_JNE, BPF_REG_1, (int32_t)n, top);
	gi_bind(g, end);
	l = prologue_loop(g, idx, top, end, GEN_FORM_DO_WHILE,
			  GEN_SH(DO_WHILE) | GEN_SH(UP) | GEN_SH(STEP_UNIT) | GEN_SH(CTR64) |
				  GEN_SH(COND_EQNE) | GEN_SH(BOUND_CONST) | GEN_SH(SPILL) |
				  GEN_SH(SPILL_CALL) | GEN_SH(HELPER) |
				  (clobber ? GEN_SH(NONTERM) : 0),
			  (int)LOC_SLOT(GEN_FP_SHAPES_CTR, 8), BPF_JNE);
	l->step = 1;
	l->trip = clobber ? -1 : (int64_t)n;
	l->trip_max = clobber ? UINT64_MAX : n;
	if (clobber) {
		mark_endless(g, l);
	} else {
		l->ivs[0] = (struct gen_iv){ .loc = LOC_SLOT(GEN_FP_SHAPES_CTR, 8), .width = 64,
					     .has_start = true, .step = 1, .start = 0 };
		l->nivs = 1;
	}
}

/* A bound recomputed in the body from a loop-invariant value (p_bound_body, issue 14 §3): r5 =
 * *(u16 *)(data + 15); r1 = 0; do { r3 = r5 & mask; r1 += s; } while (r1 < r3), mask in [15,
 * 255], s in [1, 3]: at most mask / s + 1 header executions.  The twin (p_bound_body_counter)
 * recomputes the bound from the counter, r3 = r1 + s + 1 before the step, which r1 never
 * reaches: endless on every input, which flags it.  r1, r3-r5 clobbered. */
static void bound_body_loop(struct gi *g, bool counter)
{
	int idx = (int)g->p->nloops++, top = gi_label(g), end = gi_label(g);
	uint32_t mask = gen_u32(g->src, 15, 255), s = gen_u32(g->src, 1, 3);
	struct gen_loop *l;

	gi_ldx(g, BPF_DW, BPF_REG_4, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_H, BPF_REG_5, BPF_REG_4, 15);
	gi_mov_const(g, BPF_REG_1, 0, true);
	gi_bind(g, top);
	if (counter) {
		gi_alux(g, true, BPF_MOV, BPF_REG_3, BPF_REG_1);
		gi_alu(g, true, BPF_ADD, BPF_REG_3, (int32_t)(s + 1));
	} else {
		gi_alux(g, true, BPF_MOV, BPF_REG_3, BPF_REG_5);
		gi_alu(g, true, BPF_AND, BPF_REG_3, (int32_t)mask);
	}
	gi_alu(g, true, BPF_ADD, BPF_REG_1, (int32_t)s);
	gi_jmpx(g, false, BPF_JLT, BPF_REG_1, BPF_REG_3, top);
	gi_bind(g, end);
	l = prologue_loop(g, idx, top, end, GEN_FORM_DO_WHILE,
			  GEN_SH(DO_WHILE) | GEN_SH(UP) | GEN_SH(CTR64) | GEN_SH(COND_UNSIGNED) |
				  (counter ? GEN_SH(NONTERM) : GEN_SH(BOUND_INPUT)) |
				  (s == 1 ? GEN_SH(STEP_UNIT) : 0),
			  BPF_REG_1, BPF_JLT);
	l->step = s;
	l->trip = -1;
	l->trip_max = counter ? UINT64_MAX : mask / s + 1;
	if (counter) {
		mark_endless(g, l);
	} else {
		l->ivs[0] = (struct gen_iv){ .loc = BPF_REG_1, .width = 64, .has_start = true,
					     .step = s, .start = 0 };
		l->nivs = 1;
	}
}

/* The header executions of enum_cell_loop's loop on an input that never leaves it early, or 0
 * when that takes more than 48 (a step of 0 may repeat). */
static uint32_t enum_cell_trip(uint64_t c, uint32_t a, int32_t e, uint32_t s, int32_t n)
{
	uint32_t i = 0;

	for (uint32_t k = 1; k <= 48; k++) {
		c += (uint64_t)i * a + (uint64_t)(int64_t)e;
		c ^= i >> 1;
		if ((int32_t)i > n)
			return k;
		if (!(c & 1))
			i += s;
	}
	return 0;
}

/* A counter that steps by s or by 0 as the low bit of a stack slot picks, the slot computed in
 * the body from the counter (p_enum_cell; the longer kernel campaign's program 1411, seed 2):
 * r4 = data[9]; fp-32 = c; w1 = 0; while (1) { fp-32 += r1 * a + e; fp-32 ^= w1 >> 1; if (w1 s>
 * n) break; if (r4 & 2) break; if (!(fp-32 & 1)) w1 += s; }, a in [1, 7], e in [-64, 64], s in
 * [1, 3], n in [4, 20], c drawn until the loop leaves within 48 header executions.  No summary
 * of the steps bounds it (the step 0 may repeat); the header states of known numbers, the slot
 * among them, make a chain that ends.  The twin (p_enum_cell_stuck) stores 1 in the slot in every
 * iteration: the counter never steps, and on data[9] & 2 = 0 the loop never ends.  r1, r4, r5
 * clobbered. */
static void enum_cell_loop(struct gi *g, bool stuck)
{
	int idx = (int)g->p->nloops++, top = gi_label(g), end = gi_label(g), skip = gi_label(g);
	uint32_t a = 0, s = 0, k = 0;
	int32_t e = 0, n = 0;
	uint64_t c = 0;
	struct gen_loop *l;

	for (int tries = 0; tries < 64 && !k; tries++) {
		a = gen_u32(g->src, 1, 7);
		e = (int32_t)gen_u32(g->src, 0, 128) - 64;
		s = gen_u32(g->src, 1, 3);
		n = (int32_t)gen_u32(g->src, 4, 20);
		c = gen_u32(g->src, 0, 10000);
		k = enum_cell_trip(c, a, e, s, n);
	}
	if (!k) {
		/* (none drawn fits: program 1411's constants, five header executions) */
		a = 5, e = -43, s = 2, n = 4, c = 8067;
		k = enum_cell_trip(c, a, e, s, n);
	}
	gi_ldx(g, BPF_DW, BPF_REG_4, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_4, BPF_REG_4, 9);
	gi_mov_const(g, BPF_REG_1, c, true);
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_SHAPES_SLOT, BPF_REG_1);
	gi_mov_const(g, BPF_REG_1, 0, false);
	gi_bind(g, top);
	if (stuck) {
		gi_st(g, BPF_DW, EBPF_REG_FP, GEN_FP_SHAPES_SLOT, 1);
	} else {
		gi_alux(g, true, BPF_MOV, BPF_REG_5, BPF_REG_1);
		gi_alu(g, true, BPF_MUL, BPF_REG_5, (int32_t)a);
		gi_alu(g, true, BPF_ADD, BPF_REG_5, e);
		gi_ldx(g, BPF_DW, BPF_REG_0, EBPF_REG_FP, GEN_FP_SHAPES_SLOT);
		gi_alux(g, true, BPF_ADD, BPF_REG_0, BPF_REG_5);
		gi_alux(g, true, BPF_MOV, BPF_REG_5, BPF_REG_1);
		gi_alu(g, false, BPF_RSH, BPF_REG_5, 1);
		gi_alux(g, true, BPF_XOR, BPF_REG_0, BPF_REG_5);
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_SHAPES_SLOT, BPF_REG_0);
	}
	gi_jmp(g, true, BPF_JSGT, BPF_REG_1, n, end);
	gi_jmp(g, false, BPF_JSET, BPF_REG_4, 2, end);
	gi_ldx(g, BPF_DW, BPF_REG_5, EBPF_REG_FP, GEN_FP_SHAPES_SLOT);
	gi_jmp(g, false, BPF_JSET, BPF_REG_5, 1, skip);
	gi_alu(g, false, BPF_ADD, BPF_REG_1, (int32_t)s);
	gi_bind(g, skip);
	gi_ja(g, top);
	gi_bind(g, end);
	l = prologue_loop(g, idx, top, end, GEN_FORM_WHILE,
			  GEN_SH(WHILE) | GEN_SH(UP) | GEN_SH(CTR32) | GEN_SH(COND_SIGNED) |
				  GEN_SH(BOUND_CONST) | GEN_SH(COND_UPDATE) | GEN_SH(BREAK) |
				  (stuck ? GEN_SH(NONTERM) : 0),
			  BPF_REG_1, BPF_JSLE);
	l->counter_width = l->cmp_width = 32;
	l->step = s;
	l->trip = -1;
	l->trip_max = stuck ? UINT64_MAX : k;
	l->flags |= GEN_LOOP_COND_STEP;
	if (stuck) {
		mark_endless(g, l);
	}
}

/* n = (data[0] & 7) + 1 (p_loop_def) or data[0] & 7 (p_loop_def_early, which flags the
 * program); for (r2 = 0; r2 < n; r2++) { r5 = r2; key slot = r2; } then both are read:
 * written when the loop ran at least once, which the twin's n = 0 breaks (r5: the prologue
 * writes r1-r4, so the twin's read is of a register no path wrote).  A while loop, its
 * exit test before the writes; the first loop of the program, described like the others. */
static void def_loop(struct gi *g, bool early)
{
	int idx = (int)g->p->nloops++, top = gi_label(g), end = gi_label(g);

	gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_2, 0);
	gi_alu(g, true, BPF_AND, BPF_REG_1, 7);
	if (!early)
		gi_alu(g, true, BPF_ADD, BPF_REG_1, 1);
	gi_mov_const(g, BPF_REG_2, 0, true);
	gi_while_up_head(g, BPF_REG_2, BPF_REG_1, top, end);
	gi_alux(g, true, BPF_MOV, BPF_REG_5, BPF_REG_2);
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_KEY, BPF_REG_2);
	gi_while_up_tail(g, BPF_REG_2, top, end);
	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_KEY);
	gi_alux(g, true, BPF_ADD, BPF_REG_1, BPF_REG_5);
	unit_loop_describe(g, idx, top, end, GEN_FORM_WHILE, GEN_SH(WHILE) | GEN_SH(BOUND_INPUT),
			   BPF_REG_2, -1, early ? 8 : 9);
	g->p->flags |= early ? GEN_PROG_REG_UNWRITTEN : GEN_PROG_LOOP_DEF;
}

/* A relational packet bound (p_pkt_len): p = data + o (o 0 or 16, within the GEN_INPUT_LEN bytes
 * the prologue proved), len = data_end - p, then for (r1 = 0; r1 < len && r1 < 96; r1++) read
 * p[r1] — past the proven bytes, safe only through r1 < len (the kernel refuses it, PREVAIL
 * and bpfscev do not).  The length may be copied at 32 bits first ((u32)len: w3 = w3) and may
 * be len - k (k in [1, 4], by a sub or an add of -k; the read then at p[r1 + k]).  The twin
 * (p_pkt_len_over) tests r1 <= len and reads the byte at data_end, which flags the program.
 * The first test signed or unsigned; r2 (data) kept. */
static void pkt_len_loop(struct gi *g, bool over)
{
	int idx = (int)g->p->nloops++, top = gi_label(g), end = gi_label(g);
	int16_t o = gen_bool(g->src, 50) ? 16 : 0;
	bool sign = gen_bool(g->src, 30), w32 = gen_bool(g->src, 30);
	int16_t k = gen_bool(g->src, 40) ? (int16_t)gen_u32(g->src, 1, 4) : 0;
	struct gen_loop *l;

	gi_alux(g, true, BPF_MOV, BPF_REG_4, BPF_REG_2);
	if (o)
		gi_alu(g, true, BPF_ADD, BPF_REG_4, o);
	gi_alux(g, true, BPF_SUB, BPF_REG_3, BPF_REG_4);
	if (w32)
		gi_alux(g, false, BPF_MOV, BPF_REG_3, BPF_REG_3);
	if (k && gen_bool(g->src, 50))
		gi_alu(g, true, BPF_ADD, BPF_REG_3, -k);
	else if (k)
		gi_alu(g, true, BPF_SUB, BPF_REG_3, k);
	gi_mov_const(g, BPF_REG_1, 0, true);
	gi_bind(g, top);
	gi_jmpx(g, false, over ? (sign ? BPF_JSGT : BPF_JGT) : (sign ? BPF_JSGE : BPF_JGE),
		BPF_REG_1, BPF_REG_3, end);
	gi_jmp(g, false, BPF_JGE, BPF_REG_1, 96, end);
	gi_alux(g, true, BPF_MOV, BPF_REG_5, BPF_REG_4);
	gi_alux(g, true, BPF_ADD, BPF_REG_5, BPF_REG_1);
	gi_ldx(g, BPF_B, BPF_REG_5, BPF_REG_5, k);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, 1);
	gi_ja(g, top);
	gi_bind(g, end);
	l = prologue_loop(g, idx, top, end, GEN_FORM_WHILE,
			  GEN_SH(WHILE) | GEN_SH(UP) | GEN_SH(STEP_UNIT) | GEN_SH(CTR64) |
				  (sign ? GEN_SH(COND_SIGNED) : GEN_SH(COND_UNSIGNED)) |
				  GEN_SH(BOUND_INPUT) | GEN_SH(PKT),
			  BPF_REG_1, sign ? BPF_JSLT : BPF_JLT);
	l->step = 1;
	l->trip = -1;
	l->trip_max = 97;
	l->ivs[0] = (struct gen_iv){ .loc = BPF_REG_1, .width = 64, .has_start = true, .step = 1 };
	l->nivs = 1;
	if (over)
		g->p->flags |= GEN_PROG_PKT_UNSAFE;
}

/* An index against a length loaded from a map value and checked once against the value's size
 * (p_map_len, issue 14 section 6): v = any element of the array map (never NULL; a read past
 * any of them traps, each value being a region of its own in the interpreter); its first u32
 * is set to (data[j] + c) & 63,
 * then read back as len; if (len > 60) skip; for (r2 = 0; r2 < len; r2++) read v[4 + r2].  The
 * 60 bytes after the field fit only through the relation r2 < len <= 60 (the kernel narrows r2
 * by the register it is compared with).  c is chosen after the input is drawn so that the
 * program's own input sets 60 (the whole value read), the twin's 61: the twin
 * (p_map_len_over) tests len > 61 and its own input reads v[64], one past the value.  The
 * length test may be `>= 61` (`>= 62`), the address r0 + r2 or r2 + r0.  r0-r5 clobbered. */
static void map_len_loop(struct gi *g, bool over)
{
	int idx = (int)g->p->nloops++, top = gi_label(g), end = gi_label(g);
	uint8_t j = (uint8_t)gen_pick(g->src, GEN_INPUT_LEN);
	bool ge = gen_bool(g->src, 50), swap = gen_bool(g->src, 50);
	int32_t lim = GEN_MAP_VALUE_SIZE - 4 + over;
	int32_t elem = (int32_t)gen_pick(g->src, GEN_MAP_ENTRIES);

	gi_st(g, BPF_W, EBPF_REG_FP, GEN_FP_KEY, elem);
	if (g->hash_piece) {
		/* map 0 a hash map (p_map_hash), empty before the prologue's hash piece (gen_hash.c):
		 * the element put in first (zeroed), so that the lookup finds it as an array's does
		 * and the twin's read past it traps whatever the map's type */
		for (int o = 0; o < GEN_MAP_VALUE_SIZE; o += 8)
			gi_st(g, BPF_DW, EBPF_REG_FP, (int16_t)(GEN_FP_ARRAY + o), 0);
		gi_map0_update(g, BPF_ANY);
	}
	gi_ld_map(g, BPF_REG_1, 0);
	gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_2, GEN_FP_KEY);
	gi_call_helper(g, BPF_FUNC_map_lookup_elem);
	gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, end);
	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_1, j);
	g->map_len_pc = g->len;
	g->map_len_at = j;
	g->map_len_own = (uint8_t)lim;
	gi_alu(g, false, BPF_ADD, BPF_REG_1, 0);	/* (c, set once the input is drawn) */
	gi_alu(g, false, BPF_AND, BPF_REG_1, 63);
	gi_stx(g, BPF_W, BPF_REG_0, 0, BPF_REG_1);
	gi_ldx(g, BPF_W, BPF_REG_1, BPF_REG_0, 0);
	gi_jmp(g, false, ge ? BPF_JGE : BPF_JGT, BPF_REG_1, lim + ge, end);
	gi_mov_const(g, BPF_REG_2, 0, true);
	gi_while_up_head(g, BPF_REG_2, BPF_REG_1, top, end);
	gi_alux(g, true, BPF_MOV, BPF_REG_3, swap ? BPF_REG_2 : BPF_REG_0);
	gi_alux(g, true, BPF_ADD, BPF_REG_3, swap ? BPF_REG_0 : BPF_REG_2);
	gi_ldx(g, BPF_B, BPF_REG_3, BPF_REG_3, 4);
	gi_while_up_tail(g, BPF_REG_2, top, end);
	unit_loop_describe(g, idx, top, end, GEN_FORM_WHILE,
			   GEN_SH(WHILE) | GEN_SH(BOUND_INPUT) | GEN_SH(MAP), BPF_REG_2, -1,
			   (uint64_t)lim + 1);
	g->use_map = true;
	if (over)
		g->p->flags |= GEN_PROG_MAP_LEN_UNSAFE;
}

/* A packet pointer passed to a static subprogram (p_call_pkt): f(p) reads the byte at p + j;
 * the prologue calls it once or twice with p = data + o (o constant, below the GEN_INPUT_LEN
 * bytes its check proved), j a byte every call's pointer has checked.  Two times in five the
 * pointer goes through main's frame instead (test_cls_redirect_subprogs.o's buf->head): f(fp +
 * GEN_FP_DATA) loads data from the prologue's spill (o = 0), which the kernel keeps typed in
 * every frame.  The twin (p_call_pkt_over) reads at p + GEN_INPUT_LEN - o of the first call: that
 * call reads the byte at data_end, which flags the program.  r0-r5 clobbered. */
static void pkt_end_call(struct gi *g, bool over);

static void pkt_call(struct gi *g, bool over)
{
	int s, n;
	bool spill;

	if (gen_bool(g->src, 25)) {
		pkt_end_call(g, over);
		return;
	}
	s = gi_sub_new(g, SUBK_CALLBACK, 1);
	n = gen_bool(g->src, 50) ? 2 : 1;
	spill = gen_bool(g->src, 40);
	int16_t o[2] = { (int16_t)gen_u32(g->src, 0, GEN_INPUT_LEN - 1),
			 (int16_t)gen_u32(g->src, 0, GEN_INPUT_LEN - 1) };
	int16_t hi;

	if (spill)
		o[0] = o[1] = 0;
	hi = n == 2 && o[1] > o[0] ? o[1] : o[0];
	if (s < 0)
		return;
	g->subs[s].called = true;
	g->subs[s].pkt = true;
	g->subs[s].pkt_spill = spill;
	g->subs[s].pkt_at = over ? (int16_t)(GEN_INPUT_LEN - o[0])
				 : (int16_t)gen_u32(g->src, 0, (uint32_t)(GEN_INPUT_LEN - 1 - hi));
	for (int k = 0; k < n; k++) {
		if (spill) {
			gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
			gi_alu(g, true, BPF_ADD, BPF_REG_1, GEN_FP_DATA);
		} else {
			gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DATA);
		}
		if (o[k])
			gi_alu(g, true, BPF_ADD, BPF_REG_1, o[k]);
		gi_call_sub(g, g->subs[s].label);
	}
	g->p->shapes |= GEN_SH(SUBPROG) | GEN_SH(PKT);
	if (over)
		g->p->flags |= GEN_PROG_PKT_UNSAFE;
}

/* p_call_pkt's third form, a comparison with data_end in the callee (the kernel selftests'
 * reg_pkt_end_in_subprog): f(data + k, data_end) returns 1 when data + k <= data_end, else 0, k
 * in GEN_INPUT_LEN + [1, 16] (past what the prologue proved); the caller reads the byte at data +
 * k - 1 where f returned 1 (never on the runs: their packet is GEN_INPUT_LEN bytes), as the
 * kernel, which walks f's paths into the caller, proves it there.  The twin reads it where f
 * returned 0: past data_end on every run.  r0-r5 clobbered. */
static void pkt_end_call(struct gi *g, bool over)
{
	int s = gi_sub_new(g, SUBK_CALLBACK, 2), skip = gi_label(g);
	int16_t k = (int16_t)(GEN_INPUT_LEN + gen_u32(g->src, 1, 16));

	if (s < 0)
		return;
	g->subs[s].called = true;
	g->subs[s].pkt_end = true;
	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DATA);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, k);
	gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA_END);
	gi_call_sub(g, g->subs[s].label);
	gi_jmp(g, false, over ? BPF_JNE : BPF_JEQ, BPF_REG_0, 0, skip);
	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_0, BPF_REG_1, (int16_t)(k - 1));
	gi_bind(g, skip);
	g->p->shapes |= GEN_SH(SUBPROG) | GEN_SH(PKT);
	if (over)
		g->p->flags |= GEN_PROG_PKT_UNSAFE;
}

/* A static subprogram given pointers into two frames (p_call_frames; db55fbe's shape, the longer
 * kernel campaign's programs 604, 665 and 785, seed 2): main stores c at GEN_FP_CELL and calls
 * f(r10 + GEN_FP_CELL), then h(), which stores 7 at its own fp-16 and calls f(r10 - 16); f reads
 * the 8 bytes at its pointer (frames_at 0).  The pointer f is given joins two frames.  Half the
 * time main and h call a relay m(p) that calls f(p) instead: m has a copy per call site
 * (scev/contexts.c), f one level down is given the join (each frame's own depth: aval.h,
 * aval_caller_lo; main's 232 bytes grown into h's frame would make 464 combined).  The twin
 * (p_call_frames_past) reads at its pointer + 2048: past the top of both frames, and past every
 * frame the interpreter has live, on every run (the first call traps on memory: a read just past
 * main's top would land in the interpreter's next frame and trap on the stack limit instead).
 * r0-r5 clobbered. */
static void frames_call(struct gi *g, bool past)
{
	int f = gi_sub_new(g, SUBK_CALLBACK, 1), h = f < 0 ? -1 : gi_sub_new(g, SUBK_CALLBACK, 0);
	int m = h >= 0 && gen_pick(g->src, 2) ? gi_sub_new(g, SUBK_CALLBACK, 1) : -1;
	uint32_t c = gen_u32(g->src, 0, 1000);
	int to = m >= 0 ? m : f;	/* (what main and h call) */

	if (h < 0)
		return;
	g->subs[f].called = g->subs[h].called = true;
	g->subs[f].frames = 1;
	g->subs[f].frames_at = past ? 2048 : 0;
	g->subs[h].frames = 2;
	g->subs[h].frames_callee = (int8_t)to;
	if (m >= 0) {
		g->subs[m].called = true;
		g->subs[m].frames = 3;
		g->subs[m].frames_callee = (int8_t)f;
	}
	gi_st(g, BPF_DW, EBPF_REG_FP, GEN_FP_CELL, (int32_t)c);
	gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, GEN_FP_CELL);
	gi_call_sub(g, g->subs[to].label);
	gi_call_sub(g, g->subs[h].label);
	g->p->shapes |= GEN_SH(SUBPROG) | GEN_SH(CALL_PTR);
	if (past)
		g->p->flags |= GEN_PROG_FRAMES_UNSAFE;
}

/* A loop whose pointer moves from the caller's frame to the callee's own (p_frames_reg; the
 * kernel selftests' verifier_loops1.c bounded_loop_stack_frames_reg): main stores data[9] & 1 at
 * GEN_FP_CELL and calls f(r10 + GEN_FP_CELL); f stores c at its own fp + o (o in [-64, -8], a
 * multiple of 8; c in [1, 1000]) and loops { r0 = *p; if (r0 != 0) break; p = r10 + o; }: main's
 * cell in the first iteration, f's slot from the second on, 1 or 2 header executions.  At the
 * header p joins a pointer into main's frame with one into f's (aval.h: CALLER_SELF); the count
 * is the header states' enumeration's (p = r10 + o read as its slot).  Half the time the form of
 * three frames: main calls h(r10 + GEN_FP_CELL), h stores 0 at its own fp + oh and calls f(p,
 * r10 + oh), and f loops { r0 = *p; if (r0 != 0) break; p = q; q = r10 + o; }: main's cell, h's
 * (0), f's slot: 1 or 3 header executions, p a pointer into any of the three frames at the
 * header (CALLER_SET with CALLER_SELF).  The twin (p_frames_reg_stuck) stores 0 in f's slot: on
 * data[9] even the loop never ends.  The loop is the program's first (its index taken here).
 * r0-r5 clobbered. */
static void frames_reg_call(struct gi *g, bool stuck)
{
	int s = gi_sub_new(g, SUBK_CALLBACK, 1), h = -1;
	bool three = gen_bool(g->src, 50);

	if (s < 0 || (three && (h = gi_sub_new(g, SUBK_CALLBACK, 1)) < 0))
		return;
	g->subs[s].called = true;
	g->subs[s].frames_reg = stuck ? 2 : 1;
	g->subs[s].reg_three = three;
	g->subs[s].nargs = three ? 2 : 1;
	g->subs[s].reg_loop = (int16_t)g->p->nloops++;
	g->subs[s].reg_off = (int16_t)(-8 * (int32_t)gen_u32(g->src, 1, 8));
	g->subs[s].reg_c = stuck ? 0 : (uint16_t)gen_u32(g->src, 1, 1000);
	if (three) {
		/* (h: the relay, frames_reg 3; reg_loop names f) */
		g->subs[h].called = true;
		g->subs[h].frames_reg = 3;
		g->subs[h].reg_loop = (int16_t)s;
		g->subs[h].reg_off = (int16_t)(-8 * (int32_t)gen_u32(g->src, 1, 8));
	}
	gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_2, 9);
	gi_alu(g, true, BPF_AND, BPF_REG_1, 1);
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_CELL, BPF_REG_1);
	gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, GEN_FP_CELL);
	gi_call_sub(g, g->subs[three ? h : s].label);
	g->p->shapes |= GEN_SH(SUBPROG) | GEN_SH(SUBPROG_LOOP) | GEN_SH(CALL_PTR);
	if (stuck)
		g->p->flags |= GEN_PROG_MAY_NOT_TERMINATE;
}

void gi_emit_frames_reg_sub(struct gi *g, struct gi_sub *s)
{
	int top = gi_label(g), end = gi_label(g);
	struct gen_loop *l;

	gi_bind(g, s->label);
	if (s->frames_reg == 3) {
		/* h(p): its own slot 0, f(p, r10 + oh) */
		gi_mov_const(g, BPF_REG_0, 0, true);
		gi_stx(g, BPF_DW, EBPF_REG_FP, s->reg_off, BPF_REG_0);
		gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_2, s->reg_off);
		gi_call_sub(g, g->subs[s->reg_loop].label);
		gi_exit(g);
		return;
	}
	gi_mov_const(g, BPF_REG_0, s->reg_c, true);
	gi_stx(g, BPF_DW, EBPF_REG_FP, s->reg_off, BPF_REG_0);
	gi_bind(g, top);
	gi_ldx(g, BPF_DW, BPF_REG_0, BPF_REG_1, 0);
	gi_jmp(g, false, BPF_JNE, BPF_REG_0, 0, end);
	if (s->reg_three) {
		gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_2);
		gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_2, s->reg_off);
	} else {
		gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_1, s->reg_off);
	}
	gi_ja(g, top);
	gi_bind(g, end);
	gi_exit(g);
	l = prologue_loop(g, s->reg_loop, top, end, GEN_FORM_WHILE,
			  GEN_SH(WHILE) | GEN_SH(SUBPROG_LOOP) | GEN_SH(BREAK) |
				  (s->frames_reg == 2 ? GEN_SH(NONTERM) : 0),
			  BPF_REG_1, BPF_JNE);
	l->flags |= GEN_LOOP_SUBPROG;
	l->trip = -1;
	l->trip_max = s->frames_reg == 2 ? UINT64_MAX : s->reg_three ? 3 : 2;
	if (s->frames_reg == 2)
		l->flags |= GEN_LOOP_MAY_NOT_TERMINATE;
}

/* A loop in a static subprogram bounded by a number its caller keeps on its stack (p_call_bound,
 * issue 14 shape 5): the prologue stores n at GEN_FP_BOUND, a constant in [0, 40] or (data[10]
 * & 31) + c (c in [0, 8]), and calls f(&n) once or twice (the second time with n + 1 .. n + 3);
 * f: r2 = *(u64 *)(r1 + 0); r0 = 0; r3 = 0; do { r0++; r3++; } while (r3 <= r2): n + 1
 * iterations.  The twin (p_call_bound_open) stores the input's 8 bytes at data + 16: on
 * data[23] = 0x80 the loop runs 2^63 times, and on all-ones input for ever.  r1-r3 clobbered. */
static void bound_call(struct gi *g, bool open)
{
	int s = gi_sub_new(g, SUBK_CALLBACK, 1), n = gen_bool(g->src, 50) ? 2 : 1;
	bool input = gen_bool(g->src, 50);
	uint32_t c = input ? gen_u32(g->src, 0, 8) : gen_u32(g->src, 0, 40), add = 0;

	if (s < 0)
		return;
	g->subs[s].called = true;
	g->subs[s].bound = open ? 2 : 1;
	gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA);
	if (open) {
		gi_ldx(g, BPF_DW, BPF_REG_1, BPF_REG_2, 16);
	} else if (input) {
		gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_2, 10);
		gi_alu(g, true, BPF_AND, BPF_REG_1, 31);
		gi_alu(g, true, BPF_ADD, BPF_REG_1, (int32_t)c);
	} else {
		gi_mov_const(g, BPF_REG_1, c, true);
	}
	for (int k = 0; k < n; k++) {
		if (k) {
			uint32_t a = gen_u32(g->src, 1, 3);

			gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_BOUND);
			gi_alu(g, true, BPF_ADD, BPF_REG_1, (int32_t)a);
			add += a;
		}
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_BOUND, BPF_REG_1);
		gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_1, GEN_FP_BOUND);
		gi_call_sub(g, g->subs[s].label);
	}
	g->subs[s].bound_max = (input ? 31 + c : c) + add;
	g->p->shapes |= GEN_SH(SUBPROG) | GEN_SH(SUBPROG_LOOP) | GEN_SH(CALL_PTR);
	if (open)
		g->p->flags |= GEN_PROG_MAY_NOT_TERMINATE;
}

/* The end of a subprogram's do-while loop from top counting ctr up by 1 from 0 while below
 * register bound (its add already emitted), and of the subprogram: r0 = 0; exit; the loop
 * described as loops[idx], at most trip_max header executions a call (p_call_ctx's and
 * p_args_last's f). */
static void sub_count_loop_end(struct gi *g, int idx, int top, int end, uint8_t ctr,
			       uint8_t bound, uint64_t trip_max)
{
	struct gen_loop *l;

	gi_jmpx(g, false, BPF_JLT, ctr, bound, top);
	gi_bind(g, end);
	gi_mov_const(g, BPF_REG_0, 0, true);
	gi_exit(g);
	l = prologue_loop(g, idx, top, end, GEN_FORM_DO_WHILE,
			  GEN_SH(DO_WHILE) | GEN_SH(UP) | GEN_SH(STEP_UNIT) | GEN_SH(CTR64) |
				  GEN_SH(COND_UNSIGNED) | GEN_SH(BOUND_REG) | GEN_SH(SUBPROG_LOOP),
			  ctr, BPF_JLT);
	l->flags |= GEN_LOOP_SUBPROG;
	l->step = 1;
	l->trip = -1;
	l->trip_max = trip_max;
	l->ivs[0] = (struct gen_iv){ .loc = ctr, .width = 64, .has_start = true, .step = 1 };
	l->nivs = 1;
}

/* One static subprogram called with two contexts (p_call_ctx; the kernel selftests' iters.c
 * iter_pass_iter_ptr_to_subprog, fill(arr1, 16) and fill(arr2, 32)): f(p, n) writes the n bytes
 * below p, and main calls f(fp - 512 + a, a) and f(fp - 368, 144 - a), a in [8, 64], in either
 * order, the first again (the same context) one time in three: the calls fill [-512, -368) of
 * main's frame between them.  Analysed once from both calls joined (p in [-512 + a, -368], n in
 * [a, 144 - a]) the lowest write would be 144 - 2a bytes below the frame; the kernel verifies f
 * per call.  The twin (p_call_ctx_over) gives the lower call n = a + 1: every run writes the
 * byte at fp - 513.  r1-r5 clobbered (f: p + (0 - i), as the kernel allows). */
static void call_ctx_calls(struct gi *g, bool over)
{
	int s = gi_sub_new(g, SUBK_CALLBACK, 2);
	uint32_t a = gen_u32(g->src, 8, 64), again = gen_u32(g->src, 0, 2) == 0;
	bool low_first = gen_bool(g->src, 50);

	if (s < 0)
		return;
	g->subs[s].called = true;
	g->subs[s].ctx_fill = true;
	g->subs[s].bound_max = 144 - a;
	/* (main's frame is 512 bytes: the calls write down to its last byte) */
	gi_st(g, BPF_DW, EBPF_REG_FP, -512, 0);
	for (int k = 0; k < 2 + (int)again; k++) {
		bool low = k == 1 ? !low_first : low_first;	/* (the third: the first again) */

		gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_1, low ? -512 + (int32_t)a : -368);
		gi_mov_const(g, BPF_REG_2, low ? a + over : 144 - a, true);
		gi_call_sub(g, g->subs[s].label);
	}
	g->p->shapes |= GEN_SH(SUBPROG) | GEN_SH(SUBPROG_LOOP) | GEN_SH(CALL_PTR);
	if (over)
		g->p->flags |= GEN_PROG_CALL_CTX_UNSAFE;
}

void gi_emit_ctx_fill(struct gi *g, struct gi_sub *s)
{
	int idx = (int)g->p->nloops++, top = gi_label(g), end = gi_label(g);

	gi_bind(g, s->label);
	gi_mov_const(g, BPF_REG_3, 0, true);
	gi_bind(g, top);
	gi_alu(g, true, BPF_ADD, BPF_REG_3, 1);
	/* (p - r3 as p + (0 - r3): the kernel refuses a register subtracted from a stack
	 * pointer) */
	gi_mov_const(g, BPF_REG_5, 0, true);
	gi_alux(g, true, BPF_SUB, BPF_REG_5, BPF_REG_3);
	gi_alux(g, true, BPF_MOV, BPF_REG_4, BPF_REG_1);
	gi_alux(g, true, BPF_ADD, BPF_REG_4, BPF_REG_5);
	gi_stx(g, BPF_B, BPF_REG_4, 0, BPF_REG_3);
	sub_count_loop_end(g, idx, top, end, BPF_REG_3, BPF_REG_2, s->bound_max + 1ull);
}

/* A static subprogram called from a loop with an argument that only the last pass bounds well
 * (p_args_last; issue 14's fn_args_acc, corpus callee_args_last_pass): the prologue runs r6 over
 * [0, k) (k in [1, 8], a do-while) calling f(r6 + 1); f(n) writes a[j] = j for j < n, a the k
 * slots at its fp - 8k (a[0] also directly: the frame's depth is what its r10-based accesses
 * reach).  The summary rounds' first, forgetful passes give the call n up to k + 1, a store at
 * f's fp + 0; the last pass gives at most k (scev.c: try_args_shrink).  The twin
 * (p_args_last_over) runs r6 over [0, k]: the last call writes a[k] at f's fp + 0 on every run,
 * the frame above it (interp.h: not live, a trap).  r0-r6 clobbered (no variable has a home
 * yet). */
static void args_last_call(struct gi *g, bool over)
{
	int s = gi_sub_new(g, SUBK_CALLBACK, 1), idx, top, end;
	uint32_t k = gen_u32(g->src, 1, 8);
	struct gen_loop *l;

	if (s < 0)
		return;
	idx = (int)g->p->nloops++;
	top = gi_label(g);
	end = gi_label(g);
	g->subs[s].called = true;
	g->subs[s].args_last = (uint8_t)k;
	g->subs[s].bound_max = k + over;
	gi_mov_const(g, BPF_REG_6, 0, true);
	gi_bind(g, top);
	gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_6);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, 1);
	gi_call_sub(g, g->subs[s].label);
	gi_alu(g, true, BPF_ADD, BPF_REG_6, 1);
	gi_jmp(g, false, BPF_JLT, BPF_REG_6, (int32_t)(k + over), top);
	gi_bind(g, end);
	l = prologue_loop(g, idx, top, end, GEN_FORM_DO_WHILE,
			  GEN_SH(DO_WHILE) | GEN_SH(UP) | GEN_SH(STEP_UNIT) | GEN_SH(CTR64) |
				  GEN_SH(COND_UNSIGNED) | GEN_SH(BOUND_CONST),
			  BPF_REG_6, BPF_JLT);
	l->step = 1;
	l->trip = k + over;
	l->trip_max = k + over;
	l->ivs[0] = (struct gen_iv){ .loc = BPF_REG_6, .width = 64, .has_start = true, .step = 1 };
	l->nivs = 1;
	g->p->shapes |= GEN_SH(SUBPROG) | GEN_SH(SUBPROG_LOOP);
	if (over)
		g->p->flags |= GEN_PROG_ARGS_LAST_UNSAFE;
}

void gi_emit_args_last(struct gi *g, struct gi_sub *s)
{
	int idx = (int)g->p->nloops++, top = gi_label(g), end = gi_label(g);
	int16_t a = (int16_t)(-8 * (int32_t)s->args_last);

	gi_bind(g, s->label);
	gi_st(g, BPF_DW, EBPF_REG_FP, a, 0);
	gi_mov_const(g, BPF_REG_2, 0, true);
	gi_bind(g, top);
	gi_alux(g, true, BPF_MOV, BPF_REG_3, EBPF_REG_FP);
	gi_alux(g, true, BPF_MOV, BPF_REG_4, BPF_REG_2);
	gi_alu(g, true, BPF_LSH, BPF_REG_4, 3);
	gi_alux(g, true, BPF_ADD, BPF_REG_3, BPF_REG_4);
	gi_stx(g, BPF_DW, BPF_REG_3, a, BPF_REG_2);
	gi_alu(g, true, BPF_ADD, BPF_REG_2, 1);
	sub_count_loop_end(g, idx, top, end, BPF_REG_2, BPF_REG_1, s->bound_max);
}

/* A bpf_loop callback that keeps a count in its caller's frame (p_cb_count; the kernel
 * selftests' bpf_loop_iter_limit_ok and pyperf600_bpf_loop's ctx->frame): ctx at GEN_FP_CB_CTX
 * is { i = 0, p = fp + GEN_FP_CB_CELL }, the cell 0; bpf_loop(n, cb, &ctx, 0) with n 0, 1 or
 * data[b] & 1; cb(idx, ctx): ctx->i += 1; *ctx->p = c (c in [0, 7]); return 0.  Then main reads
 * the packet's byte at GEN_INPUT_LEN - 2 + i (i <= 1) and at GEN_INPUT_LEN - 8 + *p (0 or c),
 * through the spilled data pointer.  The twin (p_cb_count_over) has n = 2 or 1 + (data[b] & 1):
 * i = 2 reads the byte at data_end, on every run of n = 2.  r0-r5 clobbered. */
static void cb_count_call(struct gi *g, bool over)
{
	int s = gi_sub_new(g, SUBK_CALLBACK, 2);
	uint32_t form = gen_u32(g->src, 0, 2), c = gen_u32(g->src, 0, 7);

	if (s < 0)
		return;
	g->subs[s].called = true;
	g->subs[s].cb_count = (int8_t)(c + 1);
	g->subs[s].cb_nr = over ? 2 : 1;
	g->subs[s].cb_steps = 8;
	gi_st(g, BPF_DW, EBPF_REG_FP, GEN_FP_CB_CTX, 0);
	gi_st(g, BPF_DW, EBPF_REG_FP, GEN_FP_CB_CELL, 0);
	gi_alux(g, true, BPF_MOV, BPF_REG_1, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_1, GEN_FP_CB_CELL);
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_CB_CTX + 8, BPF_REG_1);
	if (form == 2) {
		gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DATA);
		gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_1, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
		gi_alu(g, true, BPF_AND, BPF_REG_1, 1);
		if (over)
			gi_alu(g, true, BPF_ADD, BPF_REG_1, 1);
	} else {
		gi_mov_const(g, BPF_REG_1, over ? 2 : form, true);
	}
	gi_ld_func(g, BPF_REG_2, g->subs[s].label);
	gi_alux(g, true, BPF_MOV, BPF_REG_3, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_3, GEN_FP_CB_CTX);
	gi_mov_const(g, BPF_REG_4, 0, true);
	gi_call_helper(g, BPF_FUNC_loop);
	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_CB_CTX);
	gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA);
	gi_alux(g, true, BPF_ADD, BPF_REG_2, BPF_REG_1);
	gi_ldx(g, BPF_B, BPF_REG_0, BPF_REG_2, GEN_INPUT_LEN - 2);
	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_CB_CELL);
	gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA);
	gi_alux(g, true, BPF_ADD, BPF_REG_2, BPF_REG_1);
	gi_ldx(g, BPF_B, BPF_REG_0, BPF_REG_2, GEN_INPUT_LEN - 8);
	g->p->shapes |= GEN_SH(BPF_LOOP) | GEN_SH(CALL_PTR);
	if (over)
		g->p->flags |= GEN_PROG_CB_COUNT_UNSAFE;
}

void gi_emit_cb_count(struct gi *g, struct gi_sub *s)
{
	gi_bind(g, s->label);
	gi_ldx(g, BPF_DW, BPF_REG_3, BPF_REG_2, 0);
	gi_alu(g, true, BPF_ADD, BPF_REG_3, 1);
	gi_stx(g, BPF_DW, BPF_REG_2, 0, BPF_REG_3);
	gi_ldx(g, BPF_DW, BPF_REG_4, BPF_REG_2, 8);
	gi_st(g, BPF_DW, BPF_REG_4, 0, s->cb_count - 1);
	gi_mov_const(g, BPF_REG_0, 0, true);
	gi_exit(g);
}

void gi_emit_bound_sub(struct gi *g, struct gi_sub *s)
{
	int idx = (int)g->p->nloops++, top = gi_label(g), end = gi_label(g);
	struct gen_loop *l;

	gi_bind(g, s->label);
	gi_ldx(g, BPF_DW, BPF_REG_2, BPF_REG_1, 0);
	gi_mov_const(g, BPF_REG_0, 0, true);
	gi_mov_const(g, BPF_REG_3, 0, true);
	gi_bind(g, top);
	gi_alu(g, true, BPF_ADD, BPF_REG_0, 1);
	gi_alu(g, true, BPF_ADD, BPF_REG_3, 1);
	gi_jmpx(g, false, BPF_JLE, BPF_REG_3, BPF_REG_2, top);
	gi_bind(g, end);
	gi_exit(g);
	l = prologue_loop(g, idx, top, end, GEN_FORM_DO_WHILE,
			  GEN_SH(DO_WHILE) | GEN_SH(UP) | GEN_SH(STEP_UNIT) | GEN_SH(CTR64) |
				  GEN_SH(COND_UNSIGNED) | GEN_SH(BOUND_REG) | GEN_SH(SUBPROG_LOOP) |
				  (s->bound == 2 ? GEN_SH(NONTERM) : 0),
			  BPF_REG_3, BPF_JLE);
	l->flags |= GEN_LOOP_SUBPROG;
	l->step = 1;
	l->trip = -1;
	l->trip_max = s->bound == 2 ? UINT64_MAX : s->bound_max + 1ull;
	l->ivs[0] = (struct gen_iv){ .loc = BPF_REG_3, .width = 64, .has_start = true, .step = 1 };
	l->ivs[1] = (struct gen_iv){ .loc = BPF_REG_0, .width = 64, .has_start = true, .step = 1 };
	l->nivs = 2;
	if (s->bound == 2)
		l->flags |= GEN_LOOP_MAY_NOT_TERMINATE;
}

/* Packet pointers at two constant offsets joined (the other half of p_ptr_join; Cilium's
 * tail_rev_nodeport_lb6): r4 = data + GEN_INPUT_LEN + 6 when the packet's first byte is even,
 * data + GEN_INPUT_LEN - 2 when it is odd; each path checks its own 2 bytes against data_end
 * (leaving on failure), then, past the join, a 2-byte read through r4.  The kernel walks the
 * paths apart; a joined state's offset [62, 70] outruns the 64 bytes both paths proved (the
 * verdict's path states keep constant packet offsets apart).  The twin (p_ptr_join_over) puts
 * the odd path at GEN_INPUT_LEN - 1 and checks 1 byte: its read takes the byte at data_end.
 * The even path's check fails on every run (the packet is GEN_INPUT_LEN bytes).  r4, r5
 * clobbered. */
static void pkt_offs_join(struct gi *g, bool over)
{
	int odd = gi_label(g), join = gi_label(g), skip = gi_label(g);

	gi_ldx(g, BPF_B, BPF_REG_5, BPF_REG_2, 0);
	gi_alu(g, true, BPF_AND, BPF_REG_5, 1);
	gi_jmp(g, false, BPF_JNE, BPF_REG_5, 0, odd);
	gi_alux(g, true, BPF_MOV, BPF_REG_4, BPF_REG_2);
	gi_alu(g, true, BPF_ADD, BPF_REG_4, GEN_INPUT_LEN + 6);
	gi_alux(g, true, BPF_MOV, BPF_REG_5, BPF_REG_4);
	gi_alu(g, true, BPF_ADD, BPF_REG_5, 2);
	gi_jmpx(g, false, BPF_JGT, BPF_REG_5, BPF_REG_3, skip);
	gi_ja(g, join);
	gi_bind(g, odd);
	gi_alux(g, true, BPF_MOV, BPF_REG_4, BPF_REG_2);
	gi_alu(g, true, BPF_ADD, BPF_REG_4, over ? GEN_INPUT_LEN - 1 : GEN_INPUT_LEN - 2);
	gi_alux(g, true, BPF_MOV, BPF_REG_5, BPF_REG_4);
	gi_alu(g, true, BPF_ADD, BPF_REG_5, over ? 1 : 2);
	gi_jmpx(g, false, BPF_JGT, BPF_REG_5, BPF_REG_3, skip);
	gi_bind(g, join);
	gi_ldx(g, BPF_H, BPF_REG_5, BPF_REG_4, 0);
	gi_bind(g, skip);
	if (over)
		g->p->flags |= GEN_PROG_PTR_JOIN_UNSAFE;
}

/* Pointers of two kinds joined (p_ptr_join): r4 = data, or fp + GEN_FP_KEY (8 bytes written
 * here; the lookups write their key there themselves) when the packet's first byte is odd;
 * then an 8-byte read through r4.  The kernel walks the two paths apart; a joined state knows
 * nothing of r4 (the verdict's path states keep them apart).  The twin (p_ptr_join_over) sets
 * r4 = fp - 8 and reads at r4 + 8, past the frame's top, on the odd path.  r4, r5 clobbered. */
static void ptr_join(struct gi *g, bool over)
{
	int j = gi_label(g);

	if (gen_bool(g->src, 50)) {
		pkt_offs_join(g, over);
		return;
	}
	gi_st(g, BPF_DW, EBPF_REG_FP, GEN_FP_KEY, 0);
	gi_ldx(g, BPF_B, BPF_REG_5, BPF_REG_2, 0);
	gi_alux(g, true, BPF_MOV, BPF_REG_4, BPF_REG_2);
	gi_alu(g, true, BPF_AND, BPF_REG_5, 1);
	gi_jmp(g, false, BPF_JEQ, BPF_REG_5, 0, j);
	gi_alux(g, true, BPF_MOV, BPF_REG_4, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_4, over ? -8 : GEN_FP_KEY);
	gi_bind(g, j);
	gi_ldx(g, BPF_DW, BPF_REG_5, BPF_REG_4, over ? 8 : 0);
	if (over)
		g->p->flags |= GEN_PROG_PTR_JOIN_UNSAFE;
}

/* Whether the 32-bit counter from a, stepped by s before each test "v <= n" (signed or not),
 * leaves within WRAP_WINDOW_STEPS tests: how many (header executions), or 0; *skip when some
 * step carried it over the exit range (past the largest number, signed or not, to the least). */
#define WRAP_WINDOW_STEPS 4096
static uint32_t wrap_window_steps(uint32_t a, uint32_t s, uint32_t n, bool sgn, bool *skip)
{
	for (uint32_t k = 1; k <= WRAP_WINDOW_STEPS; k++) {
		uint32_t b = a + s;

		*skip = *skip || (sgn ? (int32_t)b < (int32_t)a : b < a);
		a = b;
		if (sgn ? (int32_t)a > (int32_t)n : a > n)
			return k;
	}
	return 0;
}

/* A 32-bit counter that passes its exit range by wrapping and lands in it later
 * (p_wrap_window; the longer kernel campaign's programs 931, 1048 and 1231, seed 2):
 * w1 = c + (data[11] & 3), then do { w1 += s } while (w1 <= n), signed or unsigned, with
 * s = 2^32 / d + e (d in [2, 9], e in [-3, 3]) and n = the largest number less w, w below s / 2:
 * a step carries the counter over the exit range more often than into it.  The generator walks
 * each of the four starts and keeps a (c, n) for which all leave within 4096 steps (else the
 * loop is the twin's).  The twin (p_wrap_window_never) steps by 2^31: the counter holds its
 * start and the start plus 2^31 in turn, neither of them in the exit range, on every input.
 * r1 clobbered. */
static void wrap_window_loop(struct gi *g, bool never)
{
	int idx = (int)g->p->nloops++, top = gi_label(g), end = gi_label(g);
	bool sgn = gen_bool(g->src, 50);
	uint32_t top_v = sgn ? 0x7fffffffu : 0xffffffffu, c = 0, s = 0, n = 0, kmax = 0, kmin = 0;
	struct gen_loop *l;

	for (int tries = 0; tries < 64 && !kmax; tries++) {
		s = never ? 0x80000000u
			  : 0xffffffffu / gen_u32(g->src, 2, 9) + gen_u32(g->src, 0, 6) - 3;
		n = top_v - gen_u32(g->src, 1, never ? 64 : s / 2);
		c = gen_u32(g->src, 0, 0xffffffffu);
		bool skip = false;

		kmax = 1;
		kmin = WRAP_WINDOW_STEPS;
		for (uint32_t j = 0; j < 4 && kmax; j++) {
			uint32_t k = wrap_window_steps(c + j, s, n, sgn, &skip);

			/* (the twin: no start may leave; the safe form: every start) */
			if (never ? k != 0 : k == 0)
				kmax = 0;
			kmax = kmax && k > kmax ? k : kmax;
			kmin = k && k < kmin ? k : kmin;
		}
		/* (the safe form: some start passes the exit range before it lands there) */
		if (!never && !skip)
			kmax = 0;
	}
	if (!kmax && never) {
		c = 0;	/* (0 and 2^31 are both below n) */
	} else if (!kmax) {
		/* (none drawn fits: program 931's, every start leaves at the 30th test) */
		sgn = true;
		s = 0x40000001u;
		c = (uint32_t)-68;
		n = 0x7fffffd9u;
		kmin = kmax = 30;
	}
	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_B, BPF_REG_1, BPF_REG_1, 11);
	gi_alu(g, false, BPF_AND, BPF_REG_1, 3);
	gi_alu(g, false, BPF_ADD, BPF_REG_1, (int32_t)c);
	gi_bind(g, top);
	gi_alu(g, false, BPF_ADD, BPF_REG_1, (int32_t)s);
	gi_jmp(g, true, sgn ? BPF_JSLE : BPF_JLE, BPF_REG_1, (int32_t)n, top);
	gi_bind(g, end);
	l = prologue_loop(g, idx, top, end, GEN_FORM_DO_WHILE,
			  GEN_SH(DO_WHILE) | GEN_SH(UP) | GEN_SH(STEP_BIG) | GEN_SH(CTR32) |
				  (sgn ? GEN_SH(COND_SIGNED) : GEN_SH(COND_UNSIGNED)) |
				  GEN_SH(BOUND_CONST) | GEN_SH(INIT_INPUT) | GEN_SH(WRAP) |
				  (never ? GEN_SH(NONTERM) : 0),
			  BPF_REG_1, sgn ? BPF_JSLE : BPF_JLE);
	l->counter_width = l->cmp_width = 32;
	l->step = s;
	l->trip = never ? -1 : kmin == kmax ? (int)kmax : -1;
	l->trip_max = never ? UINT64_MAX : kmax;
	if (never) {
		mark_endless(g, l);
	}
}

/* A piece the prologue emits with the probability of its knob, or else as its unsafe twin with
 * the twin knob's (never both): the knobs are struct gen_knobs fields, named by their offsets. */
struct twin_piece {
	size_t safe, twin;
	void (*emit)(struct gi *g, bool twin);
};
#define TWIN_PIECE(safe, twin, emit) \
	{ offsetof(struct gen_knobs, safe), offsetof(struct gen_knobs, twin), emit }

static void twin_piece(struct gi *g, const struct twin_piece *p)
{
	const uint8_t *k = (const uint8_t *)g->k;
	uint32_t safe, twin;

	memcpy(&safe, k + p->safe, sizeof(safe));
	memcpy(&twin, k + p->twin, sizeof(twin));
	if (gen_bool(g->src, safe))
		p->emit(g, false);
	else if (gen_bool(g->src, twin))
		p->emit(g, true);
}

/* In this order; eq_outer_loop after def_loop, whose read of the key slot the tests place within
 * the first 128 instructions; start_range_loop after both (it zeroes the frame's top bytes, the
 * key slot among them). */
static const struct twin_piece prologue_loops[] = {
	TWIN_PIECE(p_sock, p_sock_unsafe, gi_sock),	/* (first: r1 the context, no draw before) */
	TWIN_PIECE(p_kfunc, p_kfunc_bad, gi_kfunc),
	TWIN_PIECE(p_kfunc_region, p_kfunc_region_bad, gi_kfunc_region),
	TWIN_PIECE(p_pkt_join, p_pkt_join_past, gi_pkt_join),
	TWIN_PIECE(p_ptr_join, p_ptr_join_over, ptr_join),
	TWIN_PIECE(p_pkt_len, p_pkt_len_over, pkt_len_loop),
	TWIN_PIECE(p_loop_once, p_loop_once_back, once_loop),
	TWIN_PIECE(p_cut_exits, p_cut_exits_open, cut_loop),
	TWIN_PIECE(p_toggle, p_toggle_open, toggle_loop),
	TWIN_PIECE(p_zext_mix, p_zext_mix_wrap, zext_mix_loop),
	TWIN_PIECE(p_mono_range, p_mono_range_zero, mono_loop),
	TWIN_PIECE(p_loop_def, p_loop_def_early, def_loop),
	TWIN_PIECE(p_eq_outer, p_eq_outer_off, eq_outer_loop),
	TWIN_PIECE(p_inner_steps, p_inner_steps_still, inner_steps_loop),
	TWIN_PIECE(p_side_steps, p_side_steps_still, side_steps_loop),
	TWIN_PIECE(p_mixed_steps, p_mixed_steps_still, mixed_steps_loop),
	TWIN_PIECE(p_cell_shapes, p_cell_shapes_cut, cell_shapes_loop),
	TWIN_PIECE(p_rotated_eq, p_rotated_eq_open, rotated_eq_loop),
	TWIN_PIECE(p_outer_continue, p_outer_continue_still, outer_continue_loop),
	TWIN_PIECE(p_outer_latch, p_outer_latch_still, outer_latch_loop),
	TWIN_PIECE(p_bound_body, p_bound_body_counter, bound_body_loop),
	TWIN_PIECE(p_shift_ident, p_shift_ident_wrap, shift_ident_loop),
	TWIN_PIECE(p_identity, p_identity_once, identity_loop),
	TWIN_PIECE(p_spill_call, p_spill_call_clobber, spill_call_loop),
	TWIN_PIECE(p_enum_cell, p_enum_cell_stuck, enum_cell_loop),
	TWIN_PIECE(p_start_range, p_start_range_over, start_range_loop),
	TWIN_PIECE(p_wrap_window, p_wrap_window_never, wrap_window_loop),
	TWIN_PIECE(p_eq_paths, p_eq_paths_miss, eq_paths_loop),
	TWIN_PIECE(p_iter_search, p_iter_search_unset, gi_iter_search),
	TWIN_PIECE(p_irr_side_only, p_irr_side_only_bad, side_only_loop),
	TWIN_PIECE(p_dead_branch, p_dead_branch_bad, gi_dead_branch),
	TWIN_PIECE(p_dead_outer, p_dead_outer_bad, gi_dead_outer),
	TWIN_PIECE(p_map_len, p_map_len_over, map_len_loop),
	TWIN_PIECE(p_stack_align, p_stack_align_bad, gi_align_loop),
	TWIN_PIECE(p_links, p_links_bad, gi_links),
	TWIN_PIECE(p_krules, p_krules_bad, gi_krules),
	TWIN_PIECE(p_pkt_var, p_pkt_var_data, gi_pkt_var),	/* (late: the key slot's reads) */
	TWIN_PIECE(p_access, p_access_bad, gi_access),
	TWIN_PIECE(p_strncmp, p_strncmp_bad, gi_strncmp),
	TWIN_PIECE(p_queue, p_queue_bad, gi_queue),
	TWIN_PIECE(p_kwiden, p_kwiden_copy, gi_kwiden),
	TWIN_PIECE(p_jeq_null, p_jeq_null_stack, gi_jeq_null),
	TWIN_PIECE(p_dead_arm, p_dead_arm_reached, gi_dead_arm),
	TWIN_PIECE(p_fill_join, p_fill_join_narrow, gi_fill_join),
	TWIN_PIECE(p_stack_walk, p_stack_walk_over, gi_stack_walk),
	TWIN_PIECE(p_loop_fields, p_loop_fields_unset, gi_loop_fields),
	TWIN_PIECE(p_dynptr_kf, p_dynptr_kf_unsafe, gi_dynptr_kf),	/* (last: the context) */
};
static const struct twin_piece call_pieces[] = {
	TWIN_PIECE(p_call_pkt, p_call_pkt_over, pkt_call),
	TWIN_PIECE(p_call_bound, p_call_bound_open, bound_call),
	TWIN_PIECE(p_cb_count, p_cb_count_over, cb_count_call),
	TWIN_PIECE(p_call_frames, p_call_frames_past, frames_call),
	TWIN_PIECE(p_frames_reg, p_frames_reg_stuck, frames_reg_call),
	TWIN_PIECE(p_call_ctx, p_call_ctx_over, call_ctx_calls),
	TWIN_PIECE(p_args_last, p_args_last_over, args_last_call),
	TWIN_PIECE(p_iter_deep, p_iter_deep_over, gi_iter_deep_call),
	TWIN_PIECE(p_dead_call, p_dead_call_bad, gi_dead_call),
	TWIN_PIECE(p_dead_cb, p_dead_cb_bad, gi_dead_cb),
	TWIN_PIECE(p_dynptr_sub, p_dynptr_sub_unsafe, gi_dynptr_sub_call),
	TWIN_PIECE(p_dynptr_sub_make, p_dynptr_sub_make_unsafe, gi_dynptr_sub_make_call),
	TWIN_PIECE(p_dynptr_cb, p_dynptr_cb_unsafe, gi_dynptr_cb_call),
	TWIN_PIECE(p_dynptr_deep, p_dynptr_deep_unsafe, gi_dynptr_deep_call),
	TWIN_PIECE(p_dynptr_cb_make, p_dynptr_cb_make_unsafe, gi_dynptr_cb_make_call),
	TWIN_PIECE(p_cb_two_ctx, p_cb_two_ctx_bad, gi_cb_two_ctx_call),
	TWIN_PIECE(p_frame_rules, p_frame_rules_bad, gi_frame_rules_call),
	TWIN_PIECE(p_sub_ret_ptr, p_sub_ret_ptr_bad, gi_sub_ret_call),
	TWIN_PIECE(p_dynptr_keyed, p_dynptr_keyed_unsafe, gi_dynptr_keyed_call),
	TWIN_PIECE(p_dynptr_mid, p_dynptr_mid_unsafe, gi_dynptr_mid_call),
	TWIN_PIECE(p_dynptr_global, p_dynptr_global_unsafe, gi_dynptr_global_call),
	TWIN_PIECE(p_strtol, p_strtol_bad, gi_strtol),
	TWIN_PIECE(p_check_mtu, p_check_mtu_bad, gi_check_mtu),
	TWIN_PIECE(p_frame_fields, p_frame_fields_over, gi_frame_fields_call),
	TWIN_PIECE(p_throw, p_throw_bad, gi_throw),
	TWIN_PIECE(p_sub_ref, p_sub_ref_bad, gi_sub_ref_call),
};

/* r2 = data, r3 = data_end (sz-byte context fields at off_data and off_end); if (data +
 * GEN_INPUT_LEN > data_end) goto l_short; data spilled at GEN_FP_DATA. */
void gi_pkt_bounds(struct gi *g, uint8_t sz, int16_t off_data, int16_t off_end, int l_short)
{
	gi_ldx(g, sz, BPF_REG_2, BPF_REG_1, off_data);
	gi_ldx(g, sz, BPF_REG_3, BPF_REG_1, off_end);
	gi_alux(g, true, BPF_MOV, BPF_REG_4, BPF_REG_2);
	gi_alu(g, true, BPF_ADD, BPF_REG_4, GEN_INPUT_LEN);
	gi_jmpx(g, false, BPF_JGT, BPF_REG_4, BPF_REG_3, l_short);
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_DATA, BPF_REG_2);
}

void gi_array_zero(struct gi *g)
{
	if (g->use_array)
		for (int off = 0; off < 64; off += 8)
			gi_st(g, BPF_DW, EBPF_REG_FP, (int16_t)(GEN_FP_ARRAY + off), 0);
}

/* r2 = data, r3 = data_end; if (data + GEN_INPUT_LEN > data_end) return 0; spill both.  A raw
 * tracepoint's input is its context: the context pointer spilled where data would be, read at
 * the same constant offsets (none of the pieces, which need a packet or a network program). */
static void prologue(struct gi *g, int l_short)
{
	if (g->sk_prog) {
		gi_sk_prologue(g, l_short);
		return;
	}
	if (g->raw_tp) {
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_DATA, BPF_REG_1);
		gi_array_zero(g);
		return;
	}
	gi_pkt_bounds(g, BPF_W, 0, 4, l_short);
	/* (p_call_pkt's comparison in a callee reads data_end too) */
	if (g->use_pkt || g->k->p_call_pkt || g->k->p_call_pkt_over)
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_DATA_END, BPF_REG_3);
	/* (p_dynptr_kf's bpf_dynptr_from_xdp, after the other prologue loops, takes the context;
	 * p_access's sign-extending load reads it too, p_krules's data_meta and p_check_mtu) */
	if (g->k->p_dynptr_kf || g->k->p_dynptr_kf_unsafe || g->k->p_access || g->k->p_access_bad ||
	    g->k->p_krules || g->k->p_krules_bad || g->k->p_check_mtu || g->k->p_check_mtu_bad)
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_DKF_CTX, BPF_REG_1);
	for (size_t i = 0; i < sizeof(prologue_loops) / sizeof(prologue_loops[0]); i++)
		twin_piece(g, &prologue_loops[i]);
	if (g->hash_piece)
		gi_hash_piece(g);
	if (g->pcpu_piece)
		gi_pcpu_piece(g);
	/* The array is read at variable offsets: every byte of it must be written first. */
	if (g->use_array && gen_bool(g->src, g->k->p_array_fill))
		fill_loop(g, 8);
	else if (g->use_array && gen_bool(g->src, g->k->p_array_fill_short))
		fill_loop(g, 7);
	else
		gi_array_zero(g);
	/* (last: the calls clobber r2 and r3, which the pieces above read) */
	for (size_t i = 0; i < sizeof(call_pieces) / sizeof(call_pieces[0]); i++)
		twin_piece(g, &call_pieces[i]);
}

static void reset(struct gen_program *p)
{
	p->len = 0;
	p->prog_type = BPF_PROG_TYPE_XDP;
	p->input_len = GEN_INPUT_LEN;
	p->helper_len = GEN_HELPER_LEN;
	p->map_cnt = 0;
	memset(p->maps, 0, sizeof(p->maps));
	p->nloops = 0;
	p->subprog = -1;
	p->nfuncs = 0;
	p->call_shape = GEN_CALLS_NONE;
	p->rec_cycle = 0;
	p->max_frames = 1;
	p->max_stack = 0;
	p->flags = 0;
	p->shapes = 0;
	p->cond_kinds = 0;
	p->max_steps = 0;
	p->nglobals = 0;
}

/* Map idx of out, the last so far: an array of entries values of value_size bytes, keys of 4. */
static struct ebpf_map_def *array_def(struct gen_program *out, size_t idx, const char *name,
				      uint32_t value_size, uint32_t entries)
{
	struct ebpf_map_def *m = &out->maps[idx];

	memset(m, 0, sizeof(*m));
	out->map_cnt = idx + 1;
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->type = BPF_MAP_TYPE_ARRAY;
	m->key_size = 4;
	m->value_size = value_size;
	m->max_entries = entries;
	return m;
}

int gen_program(struct gen_program *out, struct gen_src *src, const struct gen_knobs *knobs)
{
	struct gen_knobs def;
	struct gi_fn fn_main = { .home_pool = 0x3c0 | 0x3e, .scratch_pool = 0x3f,
				 .max_caller_homes = 2, .slot_next = GI_MAIN_SLOT_HI,
				 .slot_lo = GI_MAIN_SLOT_LO };
	struct gi gs, *g = &gs;
	unsigned nests;
	int l_short, err;

	if (!out || !src)
		return -EINVAL;
	if (!knobs) {
		def = gen_knobs_default();
		knobs = &def;
	}
	if (knobs_valid(knobs))
		return -EINVAL;
	if (!out->insns) {
		out->insns = malloc(GEN_MAX_INSNS * sizeof(*out->insns));
		if (!out->insns)
			return -ENOMEM;
		out->cap = GEN_MAX_INSNS;
	}
	reset(out);
	/* The tables at the end are written before they are read. */
	memset(g, 0, offsetof(struct gi, label_pc));
	g->src = src;
	g->k = knobs;
	g->p = out;
	g->insns = out->insns;
	g->cap = (uint32_t)out->cap;
	g->fn = &fn_main;

	/* Program-wide choices first: the prologue prepares what they need.  (No draw for a knob
	 * at 0: programs of the knobs that are not set stay as they were.) */
	g->raw_tp = gen_bool(src, knobs->p_find_vma) || gen_bool(src, knobs->p_find_vma_unsafe);
	if (g->raw_tp)
		out->prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT;
	/* p_sk_prog (gen_sock.c): an sk_reuseport or sk_lookup program under raw_tp's rules (plain
	 * loops reading an input at constant offsets, nothing of the network's pieces) */
	if (!g->raw_tp && (gen_bool(src, knobs->p_sk_prog) ||
			   (g->sk_bad = gen_bool(src, knobs->p_sk_prog_unsafe)))) {
		g->raw_tp = true;
		g->sk_prog = (uint8_t)(gen_bool(src, 50) ? GI_SK_REUSEPORT : GI_SK_LOOKUP);
		out->prog_type = g->sk_prog == GI_SK_REUSEPORT ? BPF_PROG_TYPE_SK_REUSEPORT
							       : BPF_PROG_TYPE_SK_LOOKUP;
		out->input_len = g->sk_prog == GI_SK_REUSEPORT
					 ? sizeof(struct sk_reuseport_md) + GEN_INPUT_LEN
					 : sizeof(struct bpf_sk_lookup);
		g->sock_map = g->sk_prog == GI_SK_REUSEPORT ? 3 : (uint8_t)(1 + gen_pick(src, 2));
	}
	/* p_ld_abs_sub (gen_ldabs.c): a tc program under raw_tp's rules, its statements calls of
	 * a static function that uses LD_ABS / LD_IND */
	if (!g->raw_tp && (gen_bool(src, knobs->p_ld_abs_sub) ||
			   (g->sk_bad = gen_bool(src, knobs->p_ld_abs_sub_skip)))) {
		g->raw_tp = true;
		g->sk_prog = GI_SK_TC;
		out->prog_type = BPF_PROG_TYPE_SCHED_CLS;
	}
	/* p_cg_storage (gen_sock.c): a cgroup_skb program under raw_tp's rules, its loops reading
	 * its cgroup storage (the input is its packet) */
	if (!g->raw_tp && (gen_bool(src, knobs->p_cg_storage) ||
			   (g->sk_bad = gen_bool(src, knobs->p_cg_storage_unsafe)))) {
		g->raw_tp = true;
		g->sk_prog = GI_CG_SKB;
		out->prog_type = BPF_PROG_TYPE_CGROUP_SKB;
		g->sock_map = 1;	/* (maps 0-7 defined: map 7 a sockmap, unused) */
	}
	/* p_sk_msg (gen_sock.c): an sk_msg program under raw_tp's rules, its loops reading its
	 * message (its context, then the message, in the input) */
	if (!g->raw_tp && (gen_bool(src, knobs->p_sk_msg) ||
			   (g->sk_bad = gen_bool(src, knobs->p_sk_msg_unsafe)))) {
		g->raw_tp = true;
		g->sk_prog = GI_SK_MSG;
		out->prog_type = BPF_PROG_TYPE_SK_MSG;
		out->input_len = sizeof(struct sk_msg_md) + GEN_INPUT_LEN;
		g->sock_map = 1;	/* (map 7 a sockmap: bpf_msg_redirect_map's) */
	}
	g->use_array = gen_bool(src, knobs->p_array);
	/* (sk_lookup's context is copied into the array's 64 bytes) */
	if (g->sk_prog == GI_SK_LOOKUP)
		g->use_array = false;
	g->use_map = gen_bool(src, knobs->p_map);
	/* (the walks of p_for_each need the map; no draw when both knobs are 0) */
	if (!g->use_map && !g->raw_tp && (knobs->p_for_each || knobs->p_for_each_unsafe))
		g->use_map = gen_bool(src, 80);
	g->use_pkt = !g->raw_tp && gen_bool(src, knobs->p_pkt);
	/* (p_pkt_var's piece fills data_end from its slot; no draw, as above) */
	if (!g->raw_tp && (knobs->p_pkt_var || knobs->p_pkt_var_data))
		g->use_pkt = true;
	if (!g->raw_tp) {
		gi_hash_plan(g);
		gi_pcpu_plan(g);
	}
	g->use_sub = gen_bool(src, knobs->p_subprog);
	gi_calls_plan(g);
	/* At most one huge and one possibly endless loop per program, among its first three. */
	g->huge_at = gen_bool(src, knobs->p_huge) ? (int)gen_u32(src, 0, 2) : -1;
	g->nonterm_at = gen_bool(src, knobs->p_nonterminating) ? (int)gen_u32(src, 0, 2) : -1;
	if (g->nonterm_at >= 0 && g->nonterm_at == g->huge_at)
		g->nonterm_at = (g->huge_at + 1) % 3;
	nests = gen_u32(src, 1, knobs->max_nests);
	/* A run's budget shared by the nests, at ~48 instructions per innermost iteration (the
	 * bound multiplies every enclosing trip count, so it is loose). */
	g->nest_budget = knobs->step_budget / 48 / nests;
	if (g->nest_budget < 2)
		g->nest_budget = 2;

	l_short = gi_label(g);
	prologue(g, l_short);
	fn_main.acc = gi_var_new(g, 64, gen_bool(src, knobs->p_spill));
	gi_var_set(g, fn_main.acc, gen_bool(src, 50) ? 0 : gen_u32(src, 0, 0xffff));
	gi_scratch_release(g);
	for (unsigned i = 0; i < nests && gi_room(g, 40); i++) {
		if (i > 0 && gen_bool(src, 50))
			gi_stmt_acc(g, NULL);
		if (g->raw_tp) {
			/* (the first nest's always, a later one's seven times in ten) */
			if ((i == 0 || gen_bool(src, 70)) && gi_room(g, 40)) {
				if (g->sk_prog)
					gi_sk_stmt(g, NULL);
				else
					gi_stmt_find_vma(g, NULL);
			}
			gi_gen_loop(g, LOOPK_ANY);
			continue;
		}
		if ((gen_bool(src, knobs->p_bpf_loop) || gen_bool(src, knobs->p_bpf_loop_unsafe)) &&
		    gi_room(g, 40))
			gi_stmt_bpf_loop(g, NULL);
		if ((gen_bool(src, knobs->p_iter_num) || gen_bool(src, knobs->p_iter_num_unsafe)) &&
		    gi_room(g, 60))
			gi_stmt_iter(g, NULL);
		if ((gen_bool(src, knobs->p_iter_bits) || gen_bool(src, knobs->p_iter_bits_unsafe)) &&
		    gi_room(g, 70))
			gi_stmt_bits(g, NULL);
		if ((gen_bool(src, knobs->p_iter_task) || gen_bool(src, knobs->p_iter_task_unsafe)) &&
		    gi_room(g, 50))
			gi_stmt_task(g, NULL);
		if ((gen_bool(src, knobs->p_for_each) || gen_bool(src, knobs->p_for_each_unsafe)) &&
		    gi_room(g, 40))
			gi_stmt_for_each(g, NULL);
		if ((gen_bool(src, knobs->p_global) || gen_bool(src, knobs->p_global_unsafe)) &&
		    gi_room(g, 40))
			gi_stmt_global(g, NULL);
		if ((gen_bool(src, knobs->p_urb) || gen_bool(src, knobs->p_urb_unsafe)) &&
		    gi_room(g, 60))
			gi_stmt_urb(g, NULL);
		if ((gen_bool(src, knobs->p_dynptr) || gen_bool(src, knobs->p_dynptr_unsafe)) &&
		    gi_room(g, 60))
			gi_stmt_dynptr(g, NULL);
		if ((gen_bool(src, knobs->p_timer) || gen_bool(src, knobs->p_timer_unsafe) ||
		     gen_bool(src, knobs->p_timer_two) || gen_bool(src, knobs->p_timer_two_past) ||
		     gen_bool(src, knobs->p_timer_cross) ||
		     gen_bool(src, knobs->p_timer_cross_null)) &&
		    gi_room(g, knobs->p_timer_two || knobs->p_timer_two_past ? 90 : 60))
			gi_stmt_timer(g, NULL);
		if ((gen_bool(src, knobs->p_ptr_alu) || gen_bool(src, knobs->p_ptr_alu_bad)) &&
		    gi_room(g, 12))
			gi_stmt_ptr_alu(g);
		if ((gen_bool(src, knobs->p_map_field) || gen_bool(src, knobs->p_map_field_bad)) &&
		    gi_room(g, 24))
			gi_stmt_map_field(g);
		if ((gen_bool(src, knobs->p_spin_lock) || gen_bool(src, knobs->p_spin_lock_bad)) &&
		    gi_room(g, 30))
			gi_stmt_spin_lock(g);
		if ((gen_bool(src, knobs->p_map_u64_ptr) ||
		     gen_bool(src, knobs->p_map_u64_ptr_bad)) && gi_room(g, 28))
			gi_stmt_map_u64_ptr(g);
		if ((gen_bool(src, knobs->p_fastcall) || gen_bool(src, knobs->p_fastcall_bad)) &&
		    gi_room(g, 16))
			gi_stmt_fastcall(g);
		gi_gen_loop(g, LOOPK_ANY);
	}
	gi_calls_main_tail(g);
	if (gen_bool(src, knobs->p_may_goto_loop))
		gi_may_goto_loop(g);
	gi_var_to_reg(g, fn_main.acc, BPF_REG_0);
	gi_exit(g);
	/* (a raw tracepoint has no short packet, nor sk_lookup: no jump there) */
	if (!g->raw_tp || g->sk_prog == GI_SK_REUSEPORT || g->sk_prog == GI_SK_TC ||
	    g->sk_prog == GI_SK_MSG) {
		gi_bind(g, l_short);
		gi_mov_const(g, BPF_REG_0, 0, true);
		gi_exit(g);
	}
	gi_var_free(g, fn_main.acc);
	gi_calls_emit_subs(g);

	err = g->err;
	if (!err)
		err = gi_resolve(g);
	if (err)
		goto out;
	out->len = g->len;
	for (size_t i = 0; i < out->nloops; i++) {
		struct gen_loop *l = &out->loops[i];

		l->header = g->loop_label_head[i] >= 0 ? g->label_pc[g->loop_label_head[i]] : -1;
		l->first = (uint32_t)g->label_pc[g->loop_label_top[i]];
		l->last = (uint32_t)g->label_pc[g->loop_label_last[i]] - 1;
		l->entry2 = g->loop_label_entry2[i] >= 0 ? g->label_pc[g->loop_label_entry2[i]] : -1;
		if (l->flags & GEN_LOOP_MAY_NOT_TERMINATE)
			out->flags |= GEN_PROG_MAY_NOT_TERMINATE;
	}
	if (nests > 1 && out->nloops > 1)
		out->shapes |= GEN_SH(SEQ_NESTS);
	gi_calls_finish(g);
	if (out->max_steps > knobs->step_budget)
		out->flags |= GEN_PROG_HUGE;
	/* (p_access's map 6 after every other but p_sock's socket map 7) */
	bool all = g->use_fields || g->use_access || g->sock_map || g->use_queue;

	if (g->use_map || g->use_ringbuf || g->use_urb || g->use_timer || all) {
		struct ebpf_map_def *m = &out->maps[0];

		out->map_cnt = 1;
		strcpy(m->name, "gen_array");
		m->type = g->map0_type				  ? g->map0_type
			  : gen_bool(src, knobs->p_map_percpu) ? BPF_MAP_TYPE_PERCPU_ARRAY
							       : BPF_MAP_TYPE_ARRAY;
		m->key_size = 4;
		m->value_size = GEN_MAP_VALUE_SIZE;
		m->max_entries = g->map0_entries ? g->map0_entries : GEN_MAP_ENTRIES;
	}
	if (g->use_ringbuf || g->use_urb || g->use_timer || all) {
		struct ebpf_map_def *m = &out->maps[GEN_MAP_RINGBUF];

		out->map_cnt = GEN_MAP_RINGBUF + 1;
		strcpy(m->name, "gen_ringbuf");
		m->type = BPF_MAP_TYPE_RINGBUF;
		m->max_entries = GEN_RINGBUF_SIZE;
	}
	if (g->use_urb || g->use_timer || all) {
		struct ebpf_map_def *m = &out->maps[GEN_MAP_URB];

		out->map_cnt = GEN_MAP_URB + 1;
		strcpy(m->name, "gen_urb");
		m->type = BPF_MAP_TYPE_USER_RINGBUF;
		m->max_entries = GEN_RINGBUF_SIZE;
	}
	if (g->use_timer || all) {
		struct ebpf_map_def *m = &out->maps[GEN_MAP_TIMER];

		out->map_cnt = GEN_MAP_TIMER + 1;
		strcpy(m->name, "gen_timer");
		m->type = BPF_MAP_TYPE_ARRAY;
		m->key_size = 4;
		m->value_size = GEN_TIMER_VALUE;
		m->max_entries = GEN_TIMER_ENTRIES;
		m->timer = GEN_TIMER_OFF + 1;
	}
	if (g->use_timer2 || all) {
		struct ebpf_map_def *m = &out->maps[GEN_MAP_TIMER2];

		*m = out->maps[GEN_MAP_TIMER];
		out->map_cnt = GEN_MAP_TIMER2 + 1;
		strcpy(m->name, "gen_timer2");
		m->value_size = GEN_TIMER2_VALUE;
	}
	if (all) {
		struct ebpf_map_def *m = array_def(out, GEN_MAP_FIELDS, "gen_fields",
						   GEN_FIELDS_VALUE, GEN_FIELDS_ENTRIES);

		ebpf_map_field_add(m, EBPF_FIELD_SPIN_LOCK, GEN_FIELDS_LOCK, 4, NULL);
		ebpf_map_field_add(m, EBPF_FIELD_KPTR_UNREF, GEN_FIELDS_KPTR, 8, "task_struct");
	}
	if (g->use_access || g->sock_map || g->use_queue) {
		struct ebpf_map_def *m = array_def(out, GEN_MAP_ACCESS, "gen_access",
						   GEN_ACCESS_VALUE, 1);

		m->flags = g->access_flags;
		m->init = (uint8_t *)g->access_init;	/* (static: never freed, a view) */
	}
	if (g->use_queue && !g->sock_map)
		g->sock_map = 1;	/* (map 7 a sockmap nothing uses) */
	if (g->sock_map) {
		struct ebpf_map_def *m = array_def(out, GEN_MAP_SOCK, "gen_sockmap", 8,
						   g->sock_map == 3 ? 2 : 1);

		m->type = g->sock_map == 1 ? BPF_MAP_TYPE_SOCKMAP
			  : g->sock_map == 2 ? BPF_MAP_TYPE_SOCKHASH
					     : BPF_MAP_TYPE_REUSEPORT_SOCKARRAY;
	}
	if (g->sk_prog == GI_CG_SKB) {	/* (the kernel's: entries 0, a u64 key) */
		struct ebpf_map_def *m = array_def(out, GEN_MAP_CGS, "gen_cgs", GEN_CGS_VALUE, 0);

		m->type = BPF_MAP_TYPE_CGROUP_STORAGE;
		m->key_size = 8;
		m = array_def(out, GEN_MAP_PCGS, "gen_pcgs", 8, 0);
		m->type = BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE;
		m->key_size = 8;
	}
	if (g->use_queue) {
		struct ebpf_map_def *m;

		if (g->sk_prog != GI_CG_SKB) {	/* (maps 8 and 9: arrays nothing uses) */
			array_def(out, GEN_MAP_CGS, "gen_unused8", 8, 1);
			array_def(out, GEN_MAP_PCGS, "gen_unused9", 8, 1);
		}
		m = array_def(out, GEN_MAP_QUEUE, "gen_queue", 8, GEN_QUEUE_ENTRIES);
		m->type = BPF_MAP_TYPE_QUEUE;
		m->key_size = 0;
		m = array_def(out, GEN_MAP_STACK, "gen_stack", 16, GEN_QUEUE_ENTRIES);
		m->type = BPF_MAP_TYPE_STACK;
		m->key_size = 0;
	}
	/* A packet and helper results to run it with: any bytes do, the metadata holds for all
	 * (p_sk_prog's: its context, then sk_reuseport's packet). */
	gen_bytes(src, out->input, out->input_len);
	gen_bytes(src, out->helper_data, GEN_HELPER_LEN);
	if (g->sock_found)	/* (p_sock_unsafe: its lookup, the first draw, finds a socket) */
		out->helper_data[0] |= 1;
	if (g->queue_at)	/* (p_queue_bad: the own input pushes once at least) */
		out->input[g->queue_at - 1] |= 1;
	if (g->links_at)	/* (p_links_bad: the own input passes the jump) */
		out->input[g->links_at - 1] %= (uint8_t)(g->links_bound + 1);
	if (g->map_len_pc)	/* (p_map_len: the length the own input sets) */
		out->insns[g->map_len_pc].imm = (int32_t)((g->map_len_own -
							   out->input[g->map_len_at]) & 63);
	err = ebpf_validate(out->insns, out->len, NULL);
out:
	if (err)
		out->len = 0;
	return err;
}

void gen_program__free(struct gen_program *p)
{
	if (!p)
		return;
	free(p->insns);
	p->insns = NULL;
	p->len = p->cap = 0;
}

/* The case-file word and section of a generated program's type (casefile.c parse_type) */
static const char *gen_type_word(uint32_t prog_type)
{
	switch (prog_type) {
	case BPF_PROG_TYPE_XDP: return "xdp";
	case BPF_PROG_TYPE_RAW_TRACEPOINT: return "raw_tp";
	case BPF_PROG_TYPE_SK_REUSEPORT: return "sk_reuseport";
	case BPF_PROG_TYPE_SK_LOOKUP: return "sk_lookup";
	case BPF_PROG_TYPE_SCHED_CLS: return "tc";
	case BPF_PROG_TYPE_CGROUP_SKB: return "cgroup_skb";
	case BPF_PROG_TYPE_SK_MSG: return "sk_msg";
	default: return "plain";
	}
}

void gen_program__prog(const struct gen_program *p, struct ebpf_prog *view, const char *name)
{
	memset(view, 0, sizeof(*view));
	snprintf(view->name, sizeof(view->name), "%s", name ? name : "gen");
	strcpy(view->section, gen_type_word(p->prog_type));
	view->prog_type = p->prog_type;
	view->insns = p->insns;
	view->len = p->len;
	view->globals = p->nglobals ? (struct ebpf_global_func *)p->globals : NULL;
	view->global_cnt = p->nglobals;
}

void gen_program__object(const struct gen_program *p, struct ebpf_object *obj,
			 struct ebpf_prog *view, const char *name)
{
	gen_program__prog(p, view, name);
	memset(obj, 0, sizeof(*obj));
	obj->progs = view;
	obj->prog_cnt = 1;
	obj->maps = (struct ebpf_map_def *)p->maps;	/* a view: never written */
	obj->map_cnt = p->map_cnt;
}

/* ---- text ---- */

static const char *op_name(uint8_t op)
{
	switch (op) {
	case BPF_JEQ: return "==";
	case BPF_JNE: return "!=";
	case BPF_JLT: return "<";
	case BPF_JLE: return "<=";
	case BPF_JGT: return ">";
	case BPF_JGE: return ">=";
	case BPF_JSLT: return "s<";
	case BPF_JSLE: return "s<=";
	case BPF_JSGT: return "s>";
	case BPF_JSGE: return "s>=";
	default: return "?";
	}
}

static void put_loc(struct sbuf *sb, uint32_t loc)
{
	if (LOC_IS_REG(loc))
		sbuf_printf(sb, "r%u", loc);
	else
		sbuf_printf(sb, "*(u%u *)(r10 %d)", LOC_SLOT_SIZE(loc) * 8,
			    LOC_SLOT_OFF(loc));
}

static void put_hex(struct sbuf *sb, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sbuf_printf(sb, "%02x%c", b[i], i + 1 == n || i % 16 == 15 ? '\n' : ' ');
}

/* The words gen_program__to_asm gives a program's GEN_PROG_ flags (those of issue 26; the
 * others it tests one by one). */
static const struct {
	uint64_t flag;
	const char *words;
} flag_words[] = {
	{ GEN_PROG_KWIDEN_UNSAFE, " kwiden-unsafe (a loop's counter copied, the kernel widens it)" },
	{ GEN_PROG_JEQ_UNSAFE, " jeq-unsafe (a map value compared with the stack or data, read)" },
	{ GEN_PROG_DEAD_ARM_UNSAFE,
	  " dead-arm-unsafe (a narrow pointer spill or an r10 write the kernel reaches)" },
	{ GEN_PROG_STACK_SHAPE_UNSAFE,
	  " stack-shape-unsafe (a spilled pointer stored over by a callee or a loop, or read back "
	  "narrower where it was spilled on some paths)" },
	{ GEN_PROG_FRAME_RULE_UNSAFE,
	  " frame-rule-unsafe (a caller's spilled pointer read narrower by a callee, a stack "
	  "pointer stored into a caller's frame, or a store there on some paths only)" },
	{ GEN_PROG_KFUNC_UNSAFE,
	  " kfunc-unsafe (a kfunc's task leaked, released twice or unchecked, a pointer for its "
	  "pid, or a kfunc XDP may not call)" },
};

/* Every gen_program flag its own bit (two once shared one). */
#define F(x) GEN_PROG_##x
_Static_assert((F(MAY_NOT_TERMINATE) | F(HUGE) | F(CALL_TRAP) | F(CALLS_UNSAFE) | F(NULL_UNSAFE) |
		F(STACK_UNWRITTEN) | F(ARRAY_FILL) | F(LOOP_DEF) | F(REG_UNWRITTEN) | F(TWIN_UNSAFE) |
		F(HELPER_MEM_UNSAFE) | F(PKT_UNSAFE) | F(ITER) | F(ITER_UNSAFE) | F(REF_UNSAFE) | F(URB_UNSAFE) |
		F(GLOBAL_UNSAFE) | F(EACH_UNSAFE) | F(START_RANGE_UNSAFE) | F(PTR_JOIN_UNSAFE) |
		F(CB_COUNT_UNSAFE) | F(TIMER_UNSAFE) | F(FRAMES_UNSAFE) |
		F(CALL_CTX_UNSAFE) | F(PTR_ALU_UNSAFE) | F(SIDE_ONLY_UNSAFE) | F(TIMER_TWO_UNSAFE) |
		F(DEAD_ENTRY_UNSAFE) | F(ARGS_LAST_UNSAFE) | F(HASH_UNSAFE)) ==
	       (F(MAY_NOT_TERMINATE) + F(HUGE) + F(CALL_TRAP) + F(CALLS_UNSAFE) + F(NULL_UNSAFE) +
		F(STACK_UNWRITTEN) + F(ARRAY_FILL) + F(LOOP_DEF) + F(REG_UNWRITTEN) + F(TWIN_UNSAFE) +
		F(HELPER_MEM_UNSAFE) + F(PKT_UNSAFE) + F(ITER) + F(ITER_UNSAFE) + F(REF_UNSAFE) + F(URB_UNSAFE) +
		F(GLOBAL_UNSAFE) + F(EACH_UNSAFE) + F(START_RANGE_UNSAFE) + F(PTR_JOIN_UNSAFE) +
		F(CB_COUNT_UNSAFE) + F(TIMER_UNSAFE) + F(FRAMES_UNSAFE) +
		F(CALL_CTX_UNSAFE) + F(PTR_ALU_UNSAFE) + F(SIDE_ONLY_UNSAFE) + F(TIMER_TWO_UNSAFE) +
		F(DEAD_ENTRY_UNSAFE) + F(ARGS_LAST_UNSAFE) + F(HASH_UNSAFE)),
	       "two gen_program flags share a bit");
#undef F

void gen_program__to_asm(struct sbuf *sb, const struct gen_program *p)
{
	bool raw_tp = p->prog_type == BPF_PROG_TYPE_RAW_TRACEPOINT;

	sbuf_printf(sb, "; bpfscev gen: %s program, %zu instructions, input %zu bytes%s\n",
		    gen_type_word(p->prog_type), p->len, p->input_len,
		    raw_tp ? " (its arguments)"
		    : p->prog_type == BPF_PROG_TYPE_SK_REUSEPORT ? " (its context, then the packet)"
		    : p->prog_type == BPF_PROG_TYPE_SK_LOOKUP ? " (its context)" : "");
	if (p->max_steps == UINT64_MAX)
		sbuf_puts(sb, "; max_steps unknown");
	else
		sbuf_printf(sb, "; max_steps %llu", (unsigned long long)p->max_steps);
	if (p->flags & GEN_PROG_HUGE)
		sbuf_puts(sb, " huge");
	if (p->flags & GEN_PROG_MAY_NOT_TERMINATE)
		sbuf_puts(sb, " may-not-terminate");
	if (p->flags & GEN_PROG_NULL_UNSAFE)
		sbuf_puts(sb, " null-unsafe");
	if (p->flags & GEN_PROG_STACK_UNWRITTEN)
		sbuf_puts(sb, " stack-unwritten (array fill one short)");
	if (p->flags & GEN_PROG_ARRAY_FILL)
		sbuf_puts(sb, " array-filled-by-loop");
	if (p->flags & GEN_PROG_LOOP_DEF)
		sbuf_puts(sb, " written-by-every-iteration");
	if (p->flags & GEN_PROG_REG_UNWRITTEN)
		sbuf_puts(sb, " register-unwritten (loop may run no iteration)");
	if (p->flags & GEN_PROG_HELPER_MEM_UNSAFE)
		sbuf_puts(sb, " helper-memory-out-of-frame");
	if (p->flags & GEN_PROG_PKT_UNSAFE)
		sbuf_puts(sb, " packet-read-at-data-end");
	if (p->flags & GEN_PROG_PTR_JOIN_UNSAFE)
		sbuf_puts(sb, " joined-pointer-read-past-frame");
	if (p->flags & GEN_PROG_START_RANGE_UNSAFE)
		sbuf_puts(sb, " start-range-read-past-frame");
	if (p->flags & GEN_PROG_CB_COUNT_UNSAFE)
		sbuf_puts(sb, " cb-count-read-at-data-end");
	if (p->flags & GEN_PROG_FRAMES_UNSAFE)
		sbuf_puts(sb, " callee-read-past-both-frames");
	if (p->flags & (GEN_PROG_CALL_CTX_UNSAFE | GEN_PROG_ARGS_LAST_UNSAFE))
		sbuf_puts(sb, " callee-write-outside-frame (below main's, or above its own)");
	if (p->flags & GEN_PROG_PTR_ALU_UNSAFE)
		sbuf_puts(sb, " ptr-alu-unsafe (an ALU form on a pointer the kernel refuses)");
	if (p->flags & GEN_PROG_FIELD_UNSAFE)
		sbuf_puts(sb, " field-unsafe (a spin lock's bytes touched, a number into a kptr)");
	if (p->flags & GEN_PROG_SPIN_LOCK_UNSAFE)
		sbuf_puts(sb, " spin-lock-unsafe (a helper under the lock, no unlock, a second lock, "
			  "an unlock elsewhere)");
	if (p->flags & GEN_PROG_U64_PTR_UNSAFE)
		sbuf_puts(sb, " u64-ptr-unsafe (a map value's u64 added to a pointer unbounded)");
	if (p->flags & GEN_PROG_MAP_LEN_UNSAFE)
		sbuf_puts(sb, " map-len-read-past-value (a length checked one too high)");
	if (p->flags & GEN_PROG_HASH_UNSAFE)
		sbuf_puts(sb, " hash-unsafe (a hash value read without its NULL check, or past it)");
	if (p->flags & GEN_PROG_PCPU_UNSAFE)
		sbuf_puts(sb, " percpu-lookup-unsafe (a CPU's copy read without its NULL check, or "
			  "past it)");
	if (p->flags & GEN_PROG_CB_CTX_UNSAFE)
		sbuf_puts(sb, " cb-ctx-unsafe (a callback loads through the NULL one call's context "
			  "holds)");
	if (p->flags & GEN_PROG_SUB_REF_UNSAFE)
		sbuf_puts(sb, " sub-ref-unsafe (a spin lock across static functions never released, "
			  "a helper under it, taken or released twice)");
	if (p->flags & GEN_PROG_SUB_RET_UNSAFE)
		sbuf_puts(sb, " sub-ret-unsafe (a function's map lookup result loaded through "
			  "untested, or past the value)");
	if (p->flags & GEN_PROG_ALIGN_UNSAFE)
		sbuf_puts(sb, " stack-misaligned (a stack store or load not aligned to its size)");
	if (p->flags & GEN_PROG_KRULE_UNSAFE)
		sbuf_puts(sb, " krule-unsafe (a packet offset spilled or shifted as the kernel loses "
			  "it)");
	if (p->flags & GEN_PROG_PKT_VAR_UNSAFE)
		sbuf_puts(sb, " pkt-var-unsafe (data read past what a check of data + var proves, or "
			  "through data + 40 - var)");
	for (size_t i = 0; i < sizeof(flag_words) / sizeof(flag_words[0]); i++)
		if (p->flags & flag_words[i].flag)
			sbuf_puts(sb, flag_words[i].words);
	if (p->flags & GEN_PROG_TWIN_UNSAFE)
		sbuf_puts(sb, " may-goto-twin (safe only within 2^23 iterations)");
	if (p->flags & GEN_PROG_ITER)
		sbuf_puts(sb, " iter-num");
	if (p->flags & GEN_PROG_ITER_UNSAFE)
		sbuf_puts(sb, " iter-num-unsafe (leaked, destroyed twice or used after destroy)");
	if (p->flags & GEN_PROG_EACH_UNSAFE)
		sbuf_puts(sb, " for-each-unsafe (writes past the value or to the key, returns 2)");
	if (p->flags & GEN_PROG_LOOP_CB_UNSAFE)
		sbuf_puts(sb, " bpf-loop-unsafe (a callback returns 2, or reads its ctx past main's "
			  "frame or through NULL)");
	if (p->flags & GEN_PROG_GLOBAL_UNSAFE)
		sbuf_puts(sb, " global-unsafe (a global function reads NULL or past its argument)");
	if (p->flags & GEN_PROG_FASTCALL_UNSAFE)
		sbuf_puts(sb, " fastcall-unsafe (a store below a bpf_fastcall pattern keeps its "
			  "stack: 528 bytes)");
	if (p->flags & GEN_PROG_REF_UNSAFE)
		sbuf_puts(sb, " ref-unsafe (a ringbuf record may be left unreleased)");
	if (p->flags & GEN_PROG_URB_UNSAFE)
		sbuf_puts(sb, " urb-unsafe (a drain callback loads through its dynptr or past "
			  "bpf_dynptr_data's bytes, or returns 2)");
	if (p->flags & GEN_PROG_TIMER_UNSAFE)
		sbuf_puts(sb, " timer-unsafe (a timer's callback returns 1, or bpf_timer_init is "
			  "given a pointer off the timer or another map)");
	if (p->flags & GEN_PROG_NEST)
		sbuf_puts(sb, " nest-cb (a loop in a for_each or drain callback, a timer or find_vma "
			  "in a loop, or a timer callback arming map 4's)");
	if (p->flags & GEN_PROG_NEST_UNSAFE)
		sbuf_puts(sb, " nest-cb-unsafe (a callback's loop one past its memory, a timer armed "
			  "on a value that may be NULL, or find_vma's twin callback in a loop)");
	sbuf_puts(sb, "\n; shapes:");
	for (unsigned s = 0; s < GEN_SHAPE__COUNT; s++)
		if (p->shapes & (1ull << s))
			sbuf_printf(sb, " %s", gen_shape_name(s));
	sbuf_putc(sb, '\n');
	for (size_t i = 0; i < p->map_cnt; i++) {
		sbuf_printf(sb, "; map %zu: %s %s key_size %u value_size %u max_entries %u", i,
			    p->maps[i].name,
			    ebpf_map_kind_word(p->maps[i].type),
			    p->maps[i].key_size, p->maps[i].value_size, p->maps[i].max_entries);
		if (p->maps[i].timer)
			sbuf_printf(sb, " timer %u", p->maps[i].timer - 1);
		ebpf_map_fields_print(sb, &p->maps[i]);
		sbuf_putc(sb, '\n');
	}
	if (p->subprog >= 0)
		sbuf_printf(sb, "; subprogram at pc %d\n", p->subprog);
	if (p->nfuncs > 1) {
		sbuf_printf(sb, "; calls: %s", gen_call_shape_name(p->call_shape));
		if (p->rec_cycle)
			sbuf_printf(sb, ", cycle of %u", p->rec_cycle);
		if (p->max_frames == GEN_UNBOUNDED)
			sbuf_puts(sb, ", frames unbounded");
		else
			sbuf_printf(sb, ", %u frames, combined stack %u", p->max_frames,
				    p->max_stack);
		if (p->flags & GEN_PROG_CALLS_UNSAFE)
			sbuf_puts(sb, " (the kernel refuses it)");
		if (p->flags & GEN_PROG_CALL_TRAP)
			sbuf_puts(sb, " (runs may trap at 8 frames)");
		sbuf_putc(sb, '\n');
	}
	for (size_t i = 0; i < p->nfuncs; i++) {
		const struct gen_func *f = &p->funcs[i];

		sbuf_printf(sb, "; function %zu: pc %u..%u frame %u (counts %u), %u args", i, f->pc,
			    f->end - 1, f->frame, gen_frame_round(f->frame), f->nargs);
		if (f->ptr_arg > 0)
			sbuf_printf(sb, ", r%d points into the caller's frame", f->ptr_arg);
		sbuf_putc(sb, '\n');
	}
	for (size_t i = 0; i < p->nloops; i++) {
		const struct gen_loop *l = &p->loops[i];

		sbuf_printf(sb, "; loop %zu: header %d body %u..%u depth %u parent %d %s", i,
			    l->header, l->first, l->last, l->depth, l->parent,
			    gen_form_name(l->form));
		if (l->entry2 >= 0)
			sbuf_printf(sb, " (entries %u and %d)", l->first, l->entry2);
		sbuf_puts(sb, l->flags & GEN_LOOP_SUBPROG ? " (subprogram)\n" : "\n");
		sbuf_puts(sb, ";   counter ");
		put_loc(sb, l->counter_loc);
		sbuf_printf(sb, " u%u step %#llx", l->counter_width, (unsigned long long)l->step);
		if (l->flags & GEN_LOOP_COND_STEP)
			sbuf_printf(sb, " or %#llx", (unsigned long long)l->step_alt);
		sbuf_printf(sb, ", continue while %s%s bound\n", l->cmp_width == 32 ? "(u32) " : "",
			    op_name(l->cmp_op));
		sbuf_puts(sb, ";   trip ");
		if (l->trip >= 0)
			sbuf_printf(sb, "%lld", (long long)l->trip);
		else
			sbuf_puts(sb, "-");
		if (l->trip_max == UINT64_MAX)
			sbuf_puts(sb, " max unbounded");
		else
			sbuf_printf(sb, " max %llu", (unsigned long long)l->trip_max);
		if (l->flags & GEN_LOOP_MAY_NOT_TERMINATE)
			sbuf_puts(sb, " may-not-terminate");
		if (l->flags & GEN_LOOP_HUGE)
			sbuf_puts(sb, " huge");
		if (l->flags & GEN_LOOP_EARLY_EXIT)
			sbuf_puts(sb, " early-exit");
		if (l->flags & GEN_LOOP_CTR_CHANGED)
			sbuf_puts(sb, " counter-changed-inside");
		sbuf_putc(sb, '\n');
		for (unsigned j = 0; j < l->nivs; j++) {
			sbuf_puts(sb, ";   iv ");
			put_loc(sb, l->ivs[j].loc);
			sbuf_printf(sb, " u%u step %#llx", l->ivs[j].width,
				    (unsigned long long)l->ivs[j].step);
			if (l->ivs[j].has_start)
				sbuf_printf(sb, " start %#llx",
					    (unsigned long long)l->ivs[j].start);
			sbuf_putc(sb, '\n');
		}
	}
	sbuf_puts(sb, "-- asm\n");
	ebpf_disasm_globals(sb, p->insns, p->len, p->globals, p->nglobals, 0);
	/* what `check`, `verify` and `run` need to run it as the campaign does */
	sbuf_printf(sb, "-- type\n%s\n", gen_type_word(p->prog_type));
	ebpf_maps_section(sb, p->maps, p->map_cnt);
	sbuf_puts(sb, "-- input\n");
	put_hex(sb, p->input, p->input_len);
	sbuf_puts(sb, "-- helper\n");
	put_hex(sb, p->helper_data, p->helper_len);
}
