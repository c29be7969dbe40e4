/* The generator keeps its promises: the data producer is deterministic and decodes every byte
 * string; the wrap-exact trip arithmetic agrees with brute force; every program validates,
 * passes a small static check of what the kernel demands (registers and stack slots written
 * before they are read, stack offsets in bounds and aligned, a valid exit), runs in the
 * interpreter without a memory or call trap and within its stated step bound; and its metadata is
 * honest: exact trip counts and induction variables are checked at every header execution
 * through the interpreter's visit hook (never through the analyzer).  The default mix reaches
 * every shape and every loop-test kind, and each knob switches its shape off and on.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/asm.h"
#include "casefile/casefile.h"
#include "generators/gen.h"
#include "oracle/exec/check.h"
#include "oracle/kernel/kernel.h"
#include "oracle/exec/interp.h"
#include "scev/loop.h"
#include "tests/check.h"
#include "triage/verdict.h"

#define NSEEDS 20000

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd64(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint64_t wmask(unsigned w)
{
	return w >= 64 ? UINT64_MAX : (1ull << w) - 1;
}

/* ---- the producer ---- */

static void test_producer(void)
{
	struct gen_src a, b;
	uint8_t bytes[64], buf[40], buf2[40];
	unsigned hist[10] = { 0 }, yes = 0;

	/* Same seed, same choices; another seed, other choices. */
	gen_src_init_seed(&a, 42);
	gen_src_init_seed(&b, 42);
	for (int i = 0; i < 1000; i++)
		CHECK(gen_u64(&a, 0, UINT64_MAX) == gen_u64(&b, 0, UINT64_MAX), "seeded stream %d", i);
	gen_src_init_seed(&b, 43);
	CHECK(gen_u64(&a, 0, UINT64_MAX) != gen_u64(&b, 0, UINT64_MAX), "seeds 42 and 43 agree");
	/* A known first value pins the PRNG across machines and refactorings. */
	gen_src_init_seed(&a, 0);
	CHECK_EQ_U64(gen_u64(&a, 0, UINT64_MAX), 0x99ec5f36cb75f2b4ull, "xoshiro256** seed 0");

	/* Ranges, probabilities. */
	gen_src_init_seed(&a, 7);
	for (int i = 0; i < 100000; i++) {
		uint32_t v = gen_u32(&a, 10, 19);

		CHECK(v >= 10 && v <= 19, "gen_u32 out of range: %u", v);
		hist[v - 10]++;
		yes += gen_bool(&a, 30);
		CHECK(!gen_bool(&a, 0) && gen_bool(&a, 100), "gen_bool(0/100)");
		CHECK(gen_pick(&a, 3) < 3, "gen_pick");
	}
	for (int i = 0; i < 10; i++)
		CHECK(hist[i] > 9000 && hist[i] < 11000, "bucket %d: %u of 100000", i, hist[i]);
	CHECK(yes > 29000 && yes < 31000, "gen_bool(30) said yes %u times in 100000", yes);

	/* Byte mode: each choice takes the bytes its range needs, little-endian, scaled. */
	for (int i = 0; i < 64; i++)
		bytes[i] = (uint8_t)(i * 37 + 11);
	gen_src_init_bytes(&a, bytes, sizeof(bytes));
	CHECK_EQ_U64(gen_u32(&a, 5, 5), 5, "an empty range draws nothing");
	CHECK_EQ_U64(a.pos, 0, "bytes used by an empty range");
	CHECK_EQ_U64(gen_u32(&a, 0, 255), bytes[0], "one byte");
	CHECK_EQ_U64(gen_u32(&a, 100, 100 + 65535), 100 + (bytes[1] | bytes[2] << 8), "two bytes");
	CHECK_EQ_U64(gen_u32(&a, 0, 9), bytes[3] * 10 >> 8, "one byte scaled to 0..9");
	CHECK_EQ_U64(a.pos, 4, "bytes used");
	/* Exhausted: the smallest choice, whatever the range. */
	gen_src_init_bytes(&a, NULL, 0);
	CHECK(gen_src_exhausted(&a), "empty string exhausted");
	CHECK(gen_u32(&a, 3, 1000) == 3 && !gen_bool(&a, 99) && gen_pick(&a, 7) == 0 &&
		      gen_u64(&a, 9, UINT64_MAX) == 9,
	      "exhausted source gives the smallest choices");
	gen_src_init_bytes(&a, bytes, 1);
	CHECK_EQ_U64(gen_u32(&a, 0, 65535), bytes[0], "a choice cut short uses what is left");
	CHECK_EQ_U64(gen_u32(&a, 0, 65535), 0, "then the smallest");

	/* gen_bytes is n one-byte draws, in both modes. */
	for (int mode = 0; mode < 2; mode++) {
		if (mode)
			gen_src_init_bytes(&a, bytes, 30), gen_src_init_bytes(&b, bytes, 30);
		else
			gen_src_init_seed(&a, 5), gen_src_init_seed(&b, 5);
		gen_u32(&a, 0, 65535);
		gen_u32(&b, 0, 65535);
		gen_bytes(&a, buf, sizeof(buf));
		for (size_t i = 0; i < sizeof(buf); i++)
			buf2[i] = (uint8_t)gen_u32(&b, 0, 255);
		CHECK(!memcmp(buf, buf2, sizeof(buf)), "gen_bytes differs from draws (mode %d)", mode);
		CHECK_EQ_U64(gen_u32(&a, 0, 1 << 20), gen_u32(&b, 0, 1 << 20), "stream after gen_bytes");
	}
}

/* ---- the trip arithmetic ---- */

static void test_first_hit(void)
{
	/* Against brute force over a whole period at small widths. */
	for (int it = 0; it < 40000; it++) {
		unsigned w = 1 + (unsigned)(rnd64() % 11);
		uint64_t m = 1ull << w, a = rnd64() % m, s = rnd64() % m, lo = rnd64() % m,
			 hi = rnd64() % m, k = 0, want = 0;
		bool found = false, got;

		if (lo > hi) {
			uint64_t t = lo;

			lo = hi, hi = t;
		}
		if (it % 3 == 0)
			hi = lo;	/* single points: the != case */
		for (uint64_t j = 0, x = a; j < m && !found; j++, x = (x + s) & (m - 1))
			if (x >= lo && x <= hi)
				found = true, want = j;
		got = gen_first_hit(w, a, s, lo, hi, &k);
		CHECK(got == found && (!got || k == want),
		      "first_hit(w=%u a=%llu s=%llu [%llu,%llu]) = %d/%llu, brute force %d/%llu", w,
		      (unsigned long long)a, (unsigned long long)s, (unsigned long long)lo,
		      (unsigned long long)hi, got, (unsigned long long)k, found,
		      (unsigned long long)want);
	}
}

static void test_first_exit(void)
{
	static const uint8_t ops[] = { BPF_JEQ, BPF_JNE, BPF_JLT, BPF_JLE, BPF_JGT,
				       BPF_JGE, BPF_JSLT, BPF_JSLE, BPF_JSGT, BPF_JSGE };
	static const uint64_t pts[] = { 0, 1ull << 31, 1ull << 32, 1ull << 63 };
	uint64_t k;

	/* Short runs near every wrap point, against simulation. */
	for (int it = 0; it < 60000; it++) {
		uint8_t op = ops[rnd64() % 10];
		unsigned cw = rnd64() & 1 ? 32 : 64, jw = rnd64() & 1 ? 32 : 64;
		uint64_t a = (pts[rnd64() % 4] + rnd64() % 64 - 32) & wmask(cw);
		uint64_t s = (rnd64() & 1 ? rnd64() % 9 : -(rnd64() % 9)) & wmask(cw);
		uint64_t b = rnd64() & 1 ? pts[rnd64() % 4] + rnd64() % 64 - 32 : a + (rnd64() % 200) * s;
		uint64_t c = a, j, limit = 4096;
		bool got = gen_first_exit(op, jw, cw, a, s, b, &k);

		for (j = 0; j < limit && gen_cond_holds(op, jw, cw, c, b); j++)
			c = (c + s) & wmask(cw);
		if (j < limit)
			CHECK(got && k == j, "first_exit(op %#x jw %u cw %u a %#llx s %#llx b %#llx) = %d/%llu,"
			      " simulation %llu", op, jw, cw, (unsigned long long)a, (unsigned long long)s,
			      (unsigned long long)b, got, (unsigned long long)k, (unsigned long long)j);
		else
			CHECK(!got || k >= limit, "first_exit says %llu, simulation runs past %llu",
			      (unsigned long long)k, (unsigned long long)limit);
	}
	/* Whole circles. */
	CHECK(gen_first_exit(BPF_JNE, 32, 32, 1, 1, 0, &k) && k == 0xffffffffull, "32-bit wrap");
	CHECK(gen_first_exit(BPF_JNE, 32, 64, 1ull << 32, 1, (1ull << 32) - 1, &k) &&
		      k == 0xffffffffull,
	      "64-bit counter, JMP32 test");
	CHECK(gen_first_exit(BPF_JNE, 64, 64, 5, 3, 4, &k) && k == 0x5555555555555555ull,
	      "odd step around 2^64");
	CHECK(!gen_first_exit(BPF_JNE, 64, 64, 0, 2, 1, &k), "even step never meets odd bound");
	CHECK(!gen_first_exit(BPF_JLE, 32, 64, 0, 1, 0xffffffff, &k), "u32 <= max never fails");
	/* 10, 7, 4, 1, then around 2^64 until it meets 0 exactly: 3k = 10 (mod 2^64). */
	CHECK(gen_first_exit(BPF_JGT, 64, 64, 10, -3ull, 0, &k) && k * 3 == 10 && k > 4,
	      "unsigned > 0 counting down by 3 from 10");
	CHECK(gen_first_exit(BPF_JSGT, 32, 32, 0x7ffffffe, 1, 0, &k) && k == 2, "s32 overflow exit");
	CHECK(!gen_first_exit(BPF_JLT, 64, 32, 0xfffffffe, 1, 1ull << 32, &k),
	      "a zero-extended u32 is always below 2^32");
}

/* ---- a small static check of what the kernel demands ---- */

struct sstate {
	bool seen;
	uint16_t regs;		/* registers written on every path */
	uint64_t stack[8];	/* bytes of the frame written on every path (bit i: fp-512+i) */
};

static bool stack_range_ok(int off, unsigned size)
{
	return off >= -EBPF_STACK_SIZE && off + (int)size <= 0 && off % (int)size == 0;
}

static bool bytes_set(const uint64_t *m, int off, unsigned size)
{
	for (unsigned i = 0; i < size; i++) {
		unsigned b = (unsigned)(off + EBPF_STACK_SIZE) + i;

		if (!((m[b / 64] >> (b % 64)) & 1))
			return false;
	}
	return true;
}

static void bytes_mark(uint64_t *m, int off, unsigned size)
{
	for (unsigned i = 0; i < size; i++) {
		unsigned b = (unsigned)(off + EBPF_STACK_SIZE) + i;

		m[b / 64] |= 1ull << (b % 64);
	}
}

/* r1..r<nargs> of the function the metadata says starts at pc; none when it says nothing. */
static uint16_t args_mask(const struct gen_program *p, uint32_t pc)
{
	for (size_t i = 0; i < p->nfuncs; i++)
		if (p->funcs[i].pc == pc)
			return (uint16_t)((1u << (p->funcs[i].nargs + 1)) - 2);
	return 0;
}

/* Registers an instruction reads as the kernel checks them: helpers only their arguments
 * (prandom and ktime none, map lookup two), a subprogram the ones it takes. */
static uint16_t reads_of(const struct gen_program *p, size_t pc)
{
	const struct bpf_insn *in = &p->insns[pc];

	if (ebpf_is_helper_call(in))
		return in->imm == BPF_FUNC_map_lookup_elem ? 0x6 : 0;
	if (ebpf_is_pseudo_call(in))
		return args_mask(p, (uint32_t)((int64_t)pc + 1 + in->imm));
	if (ebpf_is_call(in) && in->src_reg == BPF_PSEUDO_KFUNC_CALL) {	/* p_iter_num */
		const char *n = ebpf_kfunc_name(in->imm);

		/* (p_kfunc_region's regions take no argument) */
		if (n && (!strncmp(n, "bpf_rcu_read_", 13) || !strncmp(n, "bpf_preempt_", 12)))
			return 0;
		return n && !strcmp(n, "bpf_iter_num_new") ? 0xe : 0x2;
	}
	return (uint16_t)ebpf_regs_read(in);
}

/* The two reads after p_loop_def's loop (pcs tolerated_lo and tolerated_lo + 1): written on
 * every path only because the loop runs at least once, which this path-insensitive check does
 * not know (the twin's: not written; the run watch of test_loop_def_knobs judges both). */
static size_t tolerated_lo = SIZE_MAX;

static bool tolerated(size_t pc)
{
	return pc >= tolerated_lo && pc <= tolerated_lo + 1;
}

/* Must-analysis over one function: every read register and stack byte was written on every
 * path; every r10 access is in the frame and aligned.  Returns the number of violations. */
static int static_check_fn(const struct gen_program *p, size_t start, size_t end, uint16_t entry_regs,
			   const char *what, uint64_t seed)
{
	struct sstate *st = calloc(end - start, sizeof(*st));
	uint32_t *work = malloc((end - start) * sizeof(*work)), nwork = 0;
	int bad = 0;

	st[0] = (struct sstate){ .seen = true, .regs = entry_regs | (1u << 10) };
	work[nwork++] = 0;
	while (nwork) {
		size_t pc = start + work[--nwork];
		const struct bpf_insn *in = &p->insns[pc];
		struct sstate s = st[pc - start];
		uint32_t succ[2];
		unsigned n;

		if (ebpf_class(in) == BPF_LDX && in->src_reg == EBPF_REG_FP) {
			unsigned sz = ebpf_size_bytes(ebpf_size(in));

			if (!stack_range_ok(in->off, sz) ||
			    (!bytes_set(s.stack, in->off, sz) && !tolerated(pc)))
				bad++, fprintf(stderr, "%s seed %llu pc %zu: stack read fp%+d (%u) out of "
					       "range, misaligned or unwritten\n", what,
					       (unsigned long long)seed, pc, in->off, sz);
		}
		if ((ebpf_class(in) == BPF_STX || ebpf_class(in) == BPF_ST) &&
		    in->dst_reg == EBPF_REG_FP) {
			unsigned sz = ebpf_size_bytes(ebpf_size(in));

			if (!stack_range_ok(in->off, sz))
				bad++, fprintf(stderr, "%s seed %llu pc %zu: stack write fp%+d out of "
					       "range or misaligned\n", what, (unsigned long long)seed,
					       pc, in->off);
			else
				bytes_mark(s.stack, in->off, sz);
		}
		if ((reads_of(p, pc) & ~s.regs) && !tolerated(pc))
			bad++, fprintf(stderr, "%s seed %llu pc %zu: reads registers %#x before they are "
				       "written\n", what, (unsigned long long)seed, pc,
				       reads_of(p, pc) & ~s.regs);
		if (ebpf_is_ldimm64(in) && in->src_reg == BPF_PSEUDO_MAP_FD &&
		    (size_t)in->imm >= p->map_cnt)
			bad++, fprintf(stderr, "%s pc %zu: map %d undefined\n", what, pc, in->imm);
		if (ebpf_is_call(in))
			s.regs = (uint16_t)((s.regs & ~0x3eu) | 1u);
		else
			s.regs |= (uint16_t)ebpf_regs_written(in);
		n = ebpf_succs(p->insns, p->len, pc, succ);
		for (unsigned i = 0; i < n; i++) {
			struct sstate *t = &st[succ[i] - start];
			bool changed = !t->seen;

			if (succ[i] < start || succ[i] >= end) {
				bad++;
				continue;
			}
			if (!t->seen) {
				*t = s;
			} else {
				uint16_t r = t->regs & s.regs;

				changed = r != t->regs;
				t->regs = r;
				for (int w = 0; w < 8; w++) {
					uint64_t m = t->stack[w] & s.stack[w];

					changed |= m != t->stack[w];
					t->stack[w] = m;
				}
			}
			if (changed)
				work[nwork++] = succ[i] - (uint32_t)start;
			if (nwork >= end - start) {	/* compact: duplicates are harmless */
				nwork = 0;
				for (size_t k = 0; k < end - start; k++)
					if (st[k].seen)
						work[nwork++] = (uint32_t)k;
			}
		}
	}
	free(work);
	free(st);
	return bad;
}

/* ---- the call graph, recomputed from the instructions ---- */

/* A frame's share of the combined stack as the running (JITing) kernel counts it. */
static uint32_t round16(uint32_t depth)
{
	return (depth + 15) / 16 * 16;
}

/* Functions as the kernel delimits them: entry 0 and every pseudo-call target, each up to the
 * next entry; frames from their r10-relative accesses; edges from their calls. */
struct cgraph {
	uint32_t n, pc[GEN_MAX_FUNCS + 1];
	uint32_t frame[GEN_MAX_FUNCS];
	uint32_t edges[GEN_MAX_FUNCS];
	bool overflow;
};

static int cg_func(const struct cgraph *cg, uint32_t pc)
{
	for (uint32_t i = 0; i < cg->n; i++)
		if (pc >= cg->pc[i] && pc < cg->pc[i + 1])
			return (int)i;
	return -1;
}

/* At a kfunc call: the depth of the stack slot r1 points to (r1 = r10 + off set by the last
 * write of r1 in straight-line code before it), else 0. */
static int iter_slot_at(const struct gen_program *p, uint32_t pc)
{
	const struct bpf_insn *in = &p->insns[pc];
	int64_t off = 0;

	if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg != BPF_PSEUDO_KFUNC_CALL)
		return 0;
	while (pc-- > 0) {
		in = &p->insns[pc];
		if ((in->code & 7) == BPF_JMP || (in->code & 7) == BPF_JMP32 ||
		    (pc > 0 && ebpf_is_ldimm64(&p->insns[pc - 1])))
			return 0;
		if (in->dst_reg != BPF_REG_1 || (in->code & 7) == BPF_STX || (in->code & 7) == BPF_ST)
			continue;
		if (in->code == (BPF_ALU64 | BPF_ADD | BPF_K))
			off += in->imm;
		else if (in->code == (BPF_ALU64 | BPF_MOV | BPF_X) && in->src_reg == 10)
			return off < 0 ? (int)-off : 0;
		else
			return 0;
	}
	return 0;
}

static void cg_build(struct cgraph *cg, const struct gen_program *p)
{
	memset(cg, 0, sizeof(*cg));
	cg->pc[cg->n++] = 0;
	for (size_t pc = 0; pc < p->len; pc++) {
		const struct bpf_insn *in = &p->insns[pc];
		uint32_t t = (uint32_t)((int64_t)pc + 1 + in->imm), i;

		if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg != BPF_PSEUDO_CALL)
			continue;
		for (i = 0; i < cg->n && cg->pc[i] < t; i++)
			;
		if (i < cg->n && cg->pc[i] == t)
			continue;
		if (cg->n >= GEN_MAX_FUNCS) {
			cg->overflow = true;
			continue;
		}
		memmove(&cg->pc[i + 1], &cg->pc[i], (cg->n - i) * sizeof(cg->pc[0]));
		cg->pc[i] = t;
		cg->n++;
	}
	cg->pc[cg->n] = (uint32_t)p->len;
	for (uint32_t pc = 0; pc < p->len; pc++) {
		const struct bpf_insn *in = &p->insns[pc];
		uint8_t c = in->code & 7;
		int f = cg_func(cg, pc), it = iter_slot_at(p, pc);

		if (((c == BPF_LDX && in->src_reg == 10) ||
		     ((c == BPF_STX || c == BPF_ST) && in->dst_reg == 10)) &&
		    in->off < 0 && (uint32_t)-in->off > cg->frame[f])
			cg->frame[f] = (uint32_t)-in->off;
		if (it > 0 && (uint32_t)it > cg->frame[f])	/* an iterator's 8 bytes */
			cg->frame[f] = (uint32_t)it;
		if (in->code == (BPF_JMP | BPF_CALL) && in->src_reg == BPF_PSEUDO_CALL)
			cg->edges[f] |= 1u << cg_func(cg, (uint32_t)((int64_t)pc + 1 + in->imm));
	}
}

/* The deepest chain from f and its largest combined stack; a call back into the path is a
 * cycle. */
static void cg_longest(const struct cgraph *cg, uint32_t f, uint32_t depth, uint32_t stack,
		       uint32_t on_path, uint32_t *frames, uint32_t *mstack, bool *cycle)
{
	depth++;
	stack += round16(cg->frame[f]);
	*frames = depth > *frames ? depth : *frames;
	*mstack = stack > *mstack ? stack : *mstack;
	on_path |= 1u << f;
	for (uint32_t t = 0; t < cg->n; t++) {
		if (!((cg->edges[f] >> t) & 1))
			continue;
		if ((on_path >> t) & 1)
			*cycle = true;
		else
			cg_longest(cg, t, depth, stack, on_path, frames, mstack, cycle);
	}
}

/* Length of the shortest cycle through the call graph, 0 without one. */
static uint32_t cg_shortest_cycle(const struct cgraph *cg)
{
	uint32_t best = 0;

	for (uint32_t f = 0; f < cg->n; f++) {
		uint32_t seen = cg->edges[f], frontier = seen;

		for (uint32_t len = 1; frontier && len <= cg->n; len++) {
			uint32_t next = 0;

			if ((frontier >> f) & 1) {
				if (!best || len < best)
					best = len;
				break;
			}
			for (uint32_t t = 0; t < cg->n; t++)
				if ((frontier >> t) & 1)
					next |= cg->edges[t];
			frontier = next & ~seen;
			seen |= next;
			if ((next >> f) & 1)
				frontier |= 1u << f;
		}
	}
	return best;
}

static int static_check(const struct gen_program *p, uint64_t seed, const char *what)
{
	struct cgraph cg;
	int bad = 0;

	cg_build(&cg, p);
	for (uint32_t i = 0; i < cg.n; i++) {
		bad += static_check_fn(p, cg.pc[i], cg.pc[i + 1],
				       i ? args_mask(p, cg.pc[i]) : 1u << 1, what, seed);
		CHECK(cg.pc[i + 1] > cg.pc[i] && ebpf_is_exit(&p->insns[cg.pc[i + 1] - 1]),
		      "%s seed %llu: function %u does not end in exit", what,
		      (unsigned long long)seed, i);
	}
	return bad;
}

/* ---- running it, and checking the metadata at every header ---- */

struct watch {
	const struct gen_program *p;
	uint64_t seed;
	int16_t loop_at[GEN_MAX_INSNS];	/* pc -> loop whose header (or second entry) it is, -1 */
	int16_t entry_at[GEN_MAX_INSNS];	/* pc -> irreducible loop whose first entry it is */
	bool active[GEN_MAX_LOOPS];
	bool fresh[GEN_MAX_LOOPS];	/* entered, second entry not reached yet */
	uint64_t count[GEN_MAX_LOOPS];
	uint64_t last[GEN_MAX_LOOPS][GEN_MAX_IVS];
	int bad;
	uint64_t exact_entries;	/* entries whose exact trip count was confirmed */
	uint64_t iv_checks;
	uint64_t entries_at[GEN_MAX_LOOPS][2];	/* entries into an irreducible loop at its first,
						 * second entry */
};

static uint64_t read_loc(const struct interp_state *st, uint32_t loc, unsigned width)
{
	uint64_t v = 0;

	if (LOC_IS_REG(loc))
		return interp_state_regs(st)[loc];
	interp_state_read(st, interp_state_regs(st)[10] + (uint64_t)(int64_t)LOC_SLOT_OFF(loc),
			  LOC_SLOT_SIZE(loc), &v);
	(void)width;
	return v;
}

static void close_entry(struct watch *w, int i, bool complete)
{
	const struct gen_loop *l = &w->p->loops[i];

	if (!w->active[i])
		return;
	w->active[i] = false;
	if (w->count[i] > l->trip_max) {
		w->bad++;
		fprintf(stderr, "seed %llu loop %d: %llu header executions, trip_max %llu\n",
			(unsigned long long)w->seed, i, (unsigned long long)w->count[i],
			(unsigned long long)l->trip_max);
	}
	if (complete && l->trip >= 0) {
		if (w->count[i] != (uint64_t)l->trip) {
			w->bad++;
			fprintf(stderr, "seed %llu loop %d: %llu header executions, exact trip %lld\n",
				(unsigned long long)w->seed, i, (unsigned long long)w->count[i],
				(long long)l->trip);
		} else {
			w->exact_entries++;
		}
	}
}

/* pcs whose executions run_watched records in cb_seen (timer_fires: callbacks' entries) */
static uint8_t cb_watch[GEN_MAX_INSNS], cb_seen[GEN_MAX_INSNS];

static void visit(void *arg, const struct interp_state *st, uint32_t pc)
{
	struct watch *w = arg;
	int i = w->loop_at[pc], e = w->entry_at[pc];
	const struct gen_loop *l;
	uint32_t prev = interp_state_prev_pc(st);
	bool iter;

	cb_seen[pc] |= cb_watch[pc];
	/* An irreducible loop entered at its first entry: a new entry, counted at the second. */
	if (e >= 0 && !(prev >= w->p->loops[e].first && prev <= w->p->loops[e].last)) {
		close_entry(w, e, true);
		w->active[e] = true;
		w->count[e] = 0;
		w->fresh[e] = true;
		w->entries_at[e][0]++;
	}
	if (i < 0)
		return;
	l = &w->p->loops[i];
	iter = w->active[i] && !w->fresh[i] && prev >= l->first && prev <= l->last;
	if (w->fresh[i] && w->active[i]) {
		w->fresh[i] = false;
		goto first_visit;
	}
	if (!iter) {
		close_entry(w, i, true);
		w->active[i] = true;
		w->count[i] = 0;
		w->entries_at[i][1] += l->header < 0;
	}
first_visit:
	w->count[i]++;
	for (unsigned j = 0; j < l->nivs; j++) {
		const struct gen_iv *iv = &l->ivs[j];
		uint64_t v = read_loc(st, iv->loc, iv->width);
		uint64_t want = iter ? (w->last[i][j] + iv->step) & wmask(iv->width) : iv->start;

		if ((iter || iv->has_start) && v != want) {
			w->bad++;
			fprintf(stderr, "seed %llu loop %d iv %u at header execution %llu: %#llx, "
				"expected %#llx\n", (unsigned long long)w->seed, i, j,
				(unsigned long long)w->count[i], (unsigned long long)v,
				(unsigned long long)want);
		}
		w->iv_checks++;
		w->last[i][j] = v;
	}
}

struct run_stats {
	uint64_t runs, exact_entries, iv_checks, steps;
	uint64_t alu_refused;	/* runs that ran an immediate check_alu_op refuses */
	uint64_t entries_at[GEN_MAX_LOOPS][2];	/* the last run's: struct watch's */
};

/* The flags of programs whose runs may trap on memory (generators/gen.h says which). */
#define MEM_TRAP_FLAGS                                                                            \
	(GEN_PROG_NULL_UNSAFE | GEN_PROG_HELPER_MEM_UNSAFE | GEN_PROG_PKT_UNSAFE |                \
	 GEN_PROG_PTR_JOIN_UNSAFE | GEN_PROG_EACH_UNSAFE | GEN_PROG_GLOBAL_UNSAFE |               \
	 GEN_PROG_START_RANGE_UNSAFE | GEN_PROG_URB_UNSAFE | GEN_PROG_CB_COUNT_UNSAFE |           \
	 GEN_PROG_FRAMES_UNSAFE | GEN_PROG_CALL_CTX_UNSAFE | GEN_PROG_SIDE_ONLY_UNSAFE |          \
	 GEN_PROG_ARGS_LAST_UNSAFE | GEN_PROG_HASH_UNSAFE | GEN_PROG_PCPU_UNSAFE |                \
	 GEN_PROG_DEAD_ENTRY_UNSAFE | GEN_PROG_VMA_UNSAFE | GEN_PROG_TIMER_TWO_UNSAFE |           \
	 GEN_PROG_MAP_LEN_UNSAFE | GEN_PROG_U64_PTR_UNSAFE | GEN_PROG_CB_CTX_UNSAFE |                \
	 GEN_PROG_LOOP_CB_UNSAFE | GEN_PROG_SUB_RET_UNSAFE | GEN_PROG_NEST_UNSAFE |               \
	 GEN_PROG_ACCESS_UNSAFE | GEN_PROG_QUEUE_UNSAFE | GEN_PROG_LINK_UNSAFE |                 \
	 GEN_PROG_STRTOL_UNSAFE |                                                                 \
	 GEN_PROG_PKT_VAR_UNSAFE | GEN_PROG_SOCK_UNSAFE | GEN_PROG_STACK_SHAPE_UNSAFE |            \
	 GEN_PROG_LD_ABS_UNSAFE | GEN_PROG_MTU_UNSAFE)

#define GEN_MAPS (sizeof(((struct gen_program *)0)->maps) / sizeof(struct ebpf_map_def))

/* The interpreter's maps of p: its definitions, map 0's values the zeroed values. */
static void gen_maps(const struct gen_program *p, struct interp_map *map, uint8_t *values)
{
	for (size_t i = 0; i < GEN_MAPS; i++)
		map[i] = (struct interp_map){ .def = p->maps[i] };
	map[0].values = values;
}

/* Runs p on input (p->input_len bytes: GEN_INPUT_LEN, p_sk_prog's more) with every header
 * watched; returns the trap. */
static enum interp_trap run_watched(const struct gen_program *p, uint64_t seed,
				    const uint8_t *input, uint64_t budget, struct run_stats *rs,
				    uint64_t *steps)
{
	static struct watch w;
	static uint8_t probes[GEN_MAX_INSNS];
	uint8_t pkt[GEN_INPUT_MAX], values[GEN_MAP_ENTRIES * GEN_MAP_VALUE_SIZE] = { 0 };
	struct interp_map map[GEN_MAPS];
	struct interp_env env = { .ctx_kind = check_ctx_kind(p->prog_type),
				  .prog_type = p->prog_type, .input = pkt, .input_len = p->input_len,
				  .helper_data = p->helper_data, .helper_len = p->helper_len,
				  .maps = p->map_cnt ? map : NULL, .map_cnt = p->map_cnt,
				  .step_budget = budget, .probes = probes, .visit = visit,
				  .arg = &w };
	struct interp_result res;
	struct interp_code *code;
	struct ebpf_prog view;
	struct diag d;

	gen_maps(p, map, values);
	memcpy(pkt, input, p->input_len);
	memset(&w, 0, sizeof(w));
	memset(w.loop_at, 0xff, sizeof(w.loop_at));
	memset(w.entry_at, 0xff, sizeof(w.entry_at));
	memcpy(probes, cb_watch, sizeof(probes));
	w.p = p;
	w.seed = seed;
	for (size_t i = 0; i < p->nloops; i++) {
		const struct gen_loop *l = &p->loops[i];
		int32_t h = l->header >= 0 ? l->header : l->entry2;

		w.loop_at[h] = (int16_t)i;
		probes[h] = 1;
		if (l->header < 0) {
			w.entry_at[l->first] = (int16_t)i;
			probes[l->first] = 1;
		}
	}
	gen_program__prog(p, &view, "gen");
	if (interp_prepare(&code, &view, &d)) {
		CHECK(0, "seed %llu: interp_prepare: %s", (unsigned long long)seed, d.msg);
		return INTERP_TRAP_CALL;
	}
	CHECK(interp_run(code, &env, &res) == 0, "interp_run misuse");
	interp_code__free(code);
	for (size_t i = 0; i < p->nloops; i++)
		close_entry(&w, (int)i, res.trap == INTERP_OK);
	CHECK(!w.bad, "seed %llu: %d metadata violations (see above)", (unsigned long long)seed, w.bad);
	rs->runs++;
	rs->exact_entries += w.exact_entries;
	rs->iv_checks += w.iv_checks;
	rs->steps += res.steps;
	rs->alu_refused += res.refused;
	memcpy(rs->entries_at, w.entries_at, sizeof(rs->entries_at));
	*steps = res.steps;
	if (res.trap != INTERP_OK && res.trap != INTERP_TRAP_STEPS &&
	    !(res.trap == INTERP_TRAP_LIMIT &&
	      (p->flags & (GEN_PROG_CALL_TRAP | GEN_PROG_VMA_UNSAFE | GEN_PROG_LOOP_CB_UNSAFE))) &&
	    !(res.trap == INTERP_TRAP_MEM && (p->flags & MEM_TRAP_FLAGS)) &&
	    !(res.trap == INTERP_TRAP_HELPER &&
	      (p->flags & (GEN_PROG_ITER_UNSAFE | GEN_PROG_TIMER_UNSAFE |
			   GEN_PROG_SPIN_LOCK_UNSAFE))) &&
	    !(res.trap == INTERP_TRAP_REF &&
	      (p->flags & (GEN_PROG_REF_UNSAFE | GEN_PROG_SPIN_LOCK_UNSAFE |
			   GEN_PROG_KFUNC_UNSAFE | GEN_PROG_SUB_REF_UNSAFE))) &&
	    !(res.trap == INTERP_TRAP_RULE &&
	      (p->flags & (GEN_PROG_DEAD_ARM_UNSAFE | GEN_PROG_SPIN_LOCK_UNSAFE |
			   GEN_PROG_KREGION_UNSAFE | GEN_PROG_SUB_REF_UNSAFE))))
		fprintf(stderr, "seed %llu: trap %d at pc %u: %s\n", (unsigned long long)seed, res.trap,
			res.trap_pc, res.reason);
	return res.trap;
}

/* Everything a program must satisfy, on its own input and on another. */
static void check_program(const struct gen_program *p, const struct gen_knobs *k, uint64_t seed,
			  const char *what, struct run_stats *rs)
{
	bool endless = p->flags & GEN_PROG_MAY_NOT_TERMINATE, huge = p->flags & GEN_PROG_HUGE;
	/* (p_find_vma_unsafe's and p_bpf_loop_unsafe's callbacks reaching their cell at main's
	 * frame top: the interpreter reads it as a frame grown past the combined limit) */
	bool deep = p->flags & (GEN_PROG_CALL_TRAP | GEN_PROG_VMA_UNSAFE | GEN_PROG_LOOP_CB_UNSAFE |
				GEN_PROG_NEST_UNSAFE);
	bool null = p->flags & MEM_TRAP_FLAGS;
	/* (p_timer_loop_null's and p_timer_cross_null's timers armed on NULL, p_sock_unsafe's
	 * socket map given a stack value: a helper's trap) */
	bool iter_bad = p->flags & (GEN_PROG_ITER_UNSAFE | GEN_PROG_TIMER_UNSAFE |
				    GEN_PROG_NEST_UNSAFE | GEN_PROG_SOCK_UNSAFE |
				    GEN_PROG_SPIN_LOCK_UNSAFE | GEN_PROG_THROW_UNSAFE);
	/* (p_sock_unsafe's leak: a trap at the exit; p_spin_lock_bad's lock held, or taken
	 * twice, or released elsewhere: lock_helper's traps; p_kfunc_bad's task leaked or
	 * released twice) */
	bool ref_bad = p->flags & (GEN_PROG_REF_UNSAFE | GEN_PROG_SOCK_UNSAFE |
				   GEN_PROG_SPIN_LOCK_UNSAFE | GEN_PROG_KFUNC_UNSAFE |
				   GEN_PROG_SUB_REF_UNSAFE);
	/* (p_dead_arm_reached's write to r10, where a run reaches it; p_spin_lock_bad's helper
	 * with the lock held) */
	bool rule_bad = p->flags & (GEN_PROG_DEAD_ARM_UNSAFE | GEN_PROG_SPIN_LOCK_UNSAFE |
				    GEN_PROG_KREGION_UNSAFE |
				    GEN_PROG_SUB_REF_UNSAFE);
	uint64_t budget = endless || huge ? k->step_budget : p->max_steps + 1, steps;
	uint8_t other[GEN_INPUT_MAX];
	enum interp_trap t;
	struct diag d;

	diag_clear(&d);
	CHECK(ebpf_validate(p->insns, p->len, &d) == 0, "%s seed %llu: %s", what,
	      (unsigned long long)seed, d.msg);
	CHECK(((p->prog_type == BPF_PROG_TYPE_XDP ||
		(p->prog_type == BPF_PROG_TYPE_RAW_TRACEPOINT && (k->p_find_vma ||
								  k->p_find_vma_unsafe))) &&
	       p->input_len == GEN_INPUT_LEN) ||
	      (p->prog_type == BPF_PROG_TYPE_SK_REUSEPORT && (k->p_sk_prog || k->p_sk_prog_unsafe) &&
	       p->input_len == sizeof(struct sk_reuseport_md) + GEN_INPUT_LEN) ||
	      (p->prog_type == BPF_PROG_TYPE_SK_LOOKUP && (k->p_sk_prog || k->p_sk_prog_unsafe) &&
	       p->input_len == sizeof(struct bpf_sk_lookup)) ||
	      (p->prog_type == BPF_PROG_TYPE_SCHED_CLS &&
	       (k->p_ld_abs_sub || k->p_ld_abs_sub_skip) && p->input_len == GEN_INPUT_LEN) ||
	      (p->prog_type == BPF_PROG_TYPE_CGROUP_SKB &&
	       (k->p_cg_storage || k->p_cg_storage_unsafe) && p->input_len == GEN_INPUT_LEN) ||
	      (p->prog_type == BPF_PROG_TYPE_SK_MSG && (k->p_sk_msg || k->p_sk_msg_unsafe) &&
	       p->input_len == sizeof(struct sk_msg_md) + GEN_INPUT_LEN),
	      "program type");
	tolerated_lo = SIZE_MAX;
	/* (p_loop_def's reads, in the prologue: r1 = *(u64 *)(r10 + key slot); r1 += r5; within
	 * its first 160 instructions: up to pc 140 with every knob at 100, p_pkt_join's 16 and
	 * p_sock's socket-map form's 15 before them, the first such pair) */
	for (size_t pc = 0; pc + 1 < p->len && pc < 160; pc++)
		if (p->flags & (GEN_PROG_LOOP_DEF | GEN_PROG_REG_UNWRITTEN) &&
		    p->insns[pc].code == (BPF_LDX | BPF_MEM | BPF_DW) && p->insns[pc].dst_reg == 1 &&
		    p->insns[pc].src_reg == EBPF_REG_FP && p->insns[pc].off == GEN_FP_KEY &&
		    p->insns[pc + 1].code == (BPF_ALU64 | BPF_ADD | BPF_X) &&
		    p->insns[pc + 1].src_reg == 5) {
			tolerated_lo = pc;
			break;
		}
	CHECK(static_check(p, seed, what) == 0, "%s seed %llu: static check", what,
	      (unsigned long long)seed);
	tolerated_lo = SIZE_MAX;
	CHECK(huge || endless || p->max_steps <= k->step_budget, "unmarked max_steps %llu",
	      (unsigned long long)p->max_steps);
	for (size_t i = 0; i < p->nloops; i++) {
		const struct gen_loop *l = &p->loops[i];

		CHECK(l->first <= l->last && l->last < p->len &&
			      (l->header < 0 || ((uint32_t)l->header >= l->first &&
						 (uint32_t)l->header <= l->last)),
		      "seed %llu loop %zu: header %d body %u..%u", (unsigned long long)seed, i,
		      l->header, l->first, l->last);
		CHECK((l->header < 0) == (l->entry2 >= 0) &&
			      (l->entry2 < 0 || ((uint32_t)l->entry2 > l->first &&
						 (uint32_t)l->entry2 <= l->last)),
		      "seed %llu loop %zu: header %d, second entry %d", (unsigned long long)seed, i,
		      l->header, l->entry2);
		CHECK(l->parent < (int32_t)i &&
			      (l->parent < 0 || (p->loops[l->parent].first <= l->first &&
						 l->last <= p->loops[l->parent].last &&
						 l->depth == p->loops[l->parent].depth + 1)),
		      "seed %llu loop %zu: not inside its parent", (unsigned long long)seed, i);
		CHECK(l->trip < 0 || (uint64_t)l->trip == l->trip_max, "seed %llu loop %zu: trip %lld "
		      "max %llu", (unsigned long long)seed, i, (long long)l->trip,
		      (unsigned long long)l->trip_max);
		CHECK(!(l->flags & GEN_LOOP_MAY_NOT_TERMINATE) || (p->flags & GEN_PROG_MAY_NOT_TERMINATE),
		      "loop flag without program flag");
	}
	t = run_watched(p, seed, p->input, budget, rs, &steps);
	if ((deep && t == INTERP_TRAP_LIMIT) || (null && t == INTERP_TRAP_MEM) ||
	    (iter_bad && t == INTERP_TRAP_HELPER) || (ref_bad && t == INTERP_TRAP_REF) ||
	    (rule_bad && t == INTERP_TRAP_RULE))
		t = INTERP_OK;	/* the calls reached the kernel's limits, as the metadata says */
	if (endless || huge) {
		CHECK(t == INTERP_OK || t == INTERP_TRAP_STEPS, "%s seed %llu: trap %d", what,
		      (unsigned long long)seed, t);
	} else {
		CHECK(t == INTERP_OK, "%s seed %llu: trap %d", what, (unsigned long long)seed, t);
		CHECK(steps <= p->max_steps, "%s seed %llu: %llu steps, max_steps %llu", what,
		      (unsigned long long)seed, (unsigned long long)steps,
		      (unsigned long long)p->max_steps);
	}
	/* The metadata holds for every input, not just the one that came with the program. */
	for (size_t i = 0; i < p->input_len; i++)	/* (p_sk_prog's: its context too) */
		other[i] = (uint8_t)rnd64();
	if (seed & 1)
		memset(other, seed & 2 ? 0xff : 0, p->input_len);
	t = run_watched(p, seed, other, budget, rs, &steps);
	CHECK(t == INTERP_OK || (deep && t == INTERP_TRAP_LIMIT) || (null && t == INTERP_TRAP_MEM) ||
		      (iter_bad && t == INTERP_TRAP_HELPER) || (ref_bad && t == INTERP_TRAP_REF) ||
		      (rule_bad && t == INTERP_TRAP_RULE) || ((endless || huge) && t == INTERP_TRAP_STEPS),
	      "%s seed %llu, other input: trap %d", what, (unsigned long long)seed, t);
}

/* The loops the generator meant are the loops scev's loop forest finds. */
static void check_structure(const struct gen_program *p, uint64_t seed)
{
	struct scev_structure st;
	struct diag d;
	uint32_t nirr = 0;

	if (scev_structure__build(&st, p->insns, p->len, &d)) {
		CHECK(0, "seed %llu: scev_structure__build: %s", (unsigned long long)seed, d.msg);
		return;
	}
	CHECK_EQ_U64(st.loops->nloops, p->nloops, "loops found vs generated");
	for (size_t i = 0; i < p->nloops; i++) {
		const struct gen_loop *l = &p->loops[i];
		bool found = false;

		for (uint32_t j = 0; j < st.loops->nloops; j++) {
			const struct scev_loop *s = &st.loops->loops[j];
			uint32_t h = st.cfg->blocks[s->header].first;

			if (l->header >= 0 ? h == (uint32_t)l->header && !s->irreducible
					   : s->irreducible && h >= l->first && h <= l->last)
				found = true;
		}
		nirr += l->header < 0;
		CHECK(found, "seed %llu loop %zu (header %d, %s) not found by scev",
		      (unsigned long long)seed, i, l->header, gen_form_name(l->form));
	}
	CHECK_EQ_U64(st.loops->nirreducible, nirr, "irreducible loops");
	scev_structure__free(&st);
}

/* ---- the call metadata against the recomputed graph and against runs ---- */

struct frame_watch {
	const struct cgraph *cg;
	int fn_at[EBPF_MAX_CALL_DEPTH];
	uint32_t frames, stack;
};

static void frame_visit(void *arg, const struct interp_state *st, uint32_t pc)
{
	struct frame_watch *w = arg;
	unsigned d = interp_state_frame(st);
	uint32_t stack = 0;

	if (d >= EBPF_MAX_CALL_DEPTH)
		return;
	w->fn_at[d] = cg_func(w->cg, pc);
	for (unsigned i = 0; i <= d; i++)
		stack += w->fn_at[i] >= 0 ? round16(w->cg->frame[w->fn_at[i]]) : 0;
	w->frames = d + 1 > w->frames ? d + 1 : w->frames;
	w->stack = stack > w->stack ? stack : w->stack;
}

/* Runs p with every pc probed: the deepest frame and the largest combined stack reached. */
static enum interp_trap run_frames(const struct gen_program *p, const struct cgraph *cg,
				   const uint8_t *input, uint64_t budget, struct frame_watch *w)
{
	static uint8_t probes[GEN_MAX_INSNS];
	uint8_t pkt[GEN_INPUT_MAX], values[GEN_MAP_ENTRIES * GEN_MAP_VALUE_SIZE] = { 0 };
	struct interp_map map[GEN_MAPS];
	struct interp_env env = { .ctx_kind = check_ctx_kind(p->prog_type),
				  .prog_type = p->prog_type, .input = pkt, .input_len = p->input_len,
				  .helper_data = p->helper_data, .helper_len = p->helper_len,
				  .maps = p->map_cnt ? map : NULL, .map_cnt = p->map_cnt,
				  .step_budget = budget, .probes = probes, .visit = frame_visit,
				  .arg = w };
	struct interp_result res = { 0 };
	struct interp_code *code;
	struct ebpf_prog view;
	struct diag d;

	gen_maps(p, map, values);
	memcpy(pkt, input, p->input_len);
	memset(probes, 1, sizeof(probes));
	memset(w, 0, sizeof(*w));
	w->cg = cg;
	gen_program__prog(p, &view, "gen");
	if (interp_prepare(&code, &view, &d))
		return INTERP_TRAP_CALL;
	CHECK(interp_run(code, &env, &res) == 0, "interp_run misuse");
	interp_code__free(code);
	return res.trap;
}

struct call_stats {
	unsigned programs, bounded, bounded_reached, unbounded, unbounded_trapped;
	unsigned frames8, frames9, stack512, stack_over, stack_over_raw_under, ptr_calls;
};

/* The graph fields and flags against cg_build(), then a run against both. */
static void check_calls(const struct gen_program *p, uint64_t seed, struct call_stats *cs)
{
	struct cgraph cg;
	struct frame_watch w;
	uint32_t frames = 0, stack = 0, cyc, raw = 0;
	bool cycle = false, bounded = p->call_shape == GEN_CALLS_REC_BOUNDED;
	enum interp_trap t;

	cg_build(&cg, p);
	CHECK(!cg.overflow, "seed %llu: more than %d functions", (unsigned long long)seed,
	      GEN_MAX_FUNCS);
	CHECK_EQ_U64(p->nfuncs, cg.n, "functions");
	for (uint32_t i = 0; i < cg.n && i < p->nfuncs; i++)
		CHECK(p->funcs[i].pc == cg.pc[i] && p->funcs[i].end == cg.pc[i + 1] &&
			      p->funcs[i].frame == cg.frame[i],
		      "seed %llu function %u: pc %u..%u frame %u, recomputed %u..%u frame %u",
		      (unsigned long long)seed, i, p->funcs[i].pc, p->funcs[i].end,
		      p->funcs[i].frame, cg.pc[i], cg.pc[i + 1], cg.frame[i]);
	CHECK(p->subprog == (cg.n > 1 ? (int32_t)cg.pc[1] : -1), "seed %llu: subprog %d",
	      (unsigned long long)seed, p->subprog);
	cg_longest(&cg, 0, 0, 0, 0, &frames, &stack, &cycle);
	cyc = cg_shortest_cycle(&cg);
	CHECK(cycle == (cyc > 0), "seed %llu: cycle searches disagree", (unsigned long long)seed);
	if (cycle) {
		CHECK(p->call_shape >= GEN_CALLS_REC_DIRECT && p->rec_cycle == cyc &&
			      (p->call_shape != GEN_CALLS_REC_DIRECT || cyc == 1) &&
			      (p->call_shape != GEN_CALLS_REC_MUTUAL || cyc == 2) &&
			      (p->flags & GEN_PROG_CALLS_UNSAFE),
		      "seed %llu: a cycle of %u, metadata says %s cycle %u flags %#llx",
		      (unsigned long long)seed, cyc, gen_call_shape_name(p->call_shape),
		      p->rec_cycle, (unsigned long long)p->flags);
		CHECK(bounded ? p->max_frames <= GEN_MAX_FRAMES : p->max_frames == GEN_UNBOUNDED &&
			      p->max_stack == GEN_UNBOUNDED && (p->flags & GEN_PROG_CALL_TRAP),
		      "seed %llu: recursion with max_frames %u", (unsigned long long)seed,
		      p->max_frames);
	} else {
		bool unsafe = frames > GEN_MAX_FRAMES || stack > GEN_MAX_STACK;

		CHECK(p->call_shape == (cg.n > 1 ? GEN_CALLS_CHAIN : GEN_CALLS_NONE) && !p->rec_cycle,
		      "seed %llu: no cycle, metadata says %s", (unsigned long long)seed,
		      gen_call_shape_name(p->call_shape));
		CHECK(p->max_frames == frames && p->max_stack == stack,
		      "seed %llu: %u frames, stack %u; recomputed %u, %u", (unsigned long long)seed,
		      p->max_frames, p->max_stack, frames, stack);
		CHECK(!!(p->flags & GEN_PROG_CALLS_UNSAFE) == unsafe &&
			      !!(p->flags & GEN_PROG_CALL_TRAP) == unsafe,
		      "seed %llu: flags %#llx for %u frames, stack %u", (unsigned long long)seed,
		      (unsigned long long)p->flags, frames, stack);
		cs->frames8 += frames == GEN_MAX_FRAMES;
		cs->frames9 += frames == GEN_MAX_FRAMES + 1;
		cs->stack512 += stack == GEN_MAX_STACK;
		cs->stack_over += stack > GEN_MAX_STACK;
		for (uint32_t i = 0; i < cg.n; i++)
			raw += cg.frame[i];
		cs->stack_over_raw_under += stack > GEN_MAX_STACK && raw <= GEN_MAX_STACK;
	}
	/* Only the unsafe twins break the kernel's rules on calls. */
	CHECK(!(p->flags & GEN_PROG_CALLS_UNSAFE) ||
		      (p->shapes & (GEN_SH(BIG_FRAME) | GEN_SH(CALL_TOO_DEEP) | GEN_SH(RECURSION))),
	      "seed %llu: unsafe calls from a safe shape", (unsigned long long)seed);
	for (uint32_t i = 0; i < cg.n && i < p->nfuncs; i++)
		cs->ptr_calls += p->funcs[i].ptr_arg > 0;
	cs->programs++;
	if (cg.n < 2)
		return;
	/* A run never goes deeper or uses more stack than stated; it traps only at the frame
	 * limit, and only when the metadata says it may. */
	t = run_frames(p, &cg, p->input, p->flags & (GEN_PROG_HUGE | GEN_PROG_MAY_NOT_TERMINATE) ?
				 100000 : p->max_steps + 1, &w);
	CHECK(t == INTERP_OK || t == INTERP_TRAP_STEPS ||
		      (t == INTERP_TRAP_LIMIT && (p->flags & GEN_PROG_CALL_TRAP)),
	      "seed %llu: trap %d at %u frames", (unsigned long long)seed, t, w.frames);
	if (p->max_frames != GEN_UNBOUNDED)
		CHECK(w.frames <= p->max_frames && w.stack <= p->max_stack,
		      "seed %llu: a run reached %u frames and %u bytes, metadata %u and %u",
		      (unsigned long long)seed, w.frames, w.stack, p->max_frames, p->max_stack);
	if (bounded) {
		cs->bounded++;
		cs->bounded_reached += w.frames == p->max_frames && w.stack == p->max_stack;
	} else if (cycle) {
		cs->unbounded++;
		cs->unbounded_trapped += t == INTERP_TRAP_LIMIT;
	}
}

static void test_calls(void)
{
	static const char *const knobs[] = { "p_call_args", "p_call_chain", "p_big_frame",
					     "p_recursion", NULL };
	struct gen_program p = { 0 };
	struct run_stats rs = { 0 };
	struct call_stats cs[5] = { { 0 } };

	/* Each call knob at 100 alone, then all together. */
	for (int v = 0; v < 5; v++) {
		struct gen_knobs k = gen_knobs_default();

		for (int j = 0; knobs[j]; j++)
			if (v == 4 || j == v)
				CHECK(!gen_knobs_set(&k, knobs[j], 100), "set %s", knobs[j]);
		for (uint64_t seed = 0; seed < 600; seed++) {
			struct gen_src src;

			gen_src_init_seed(&src, 5000000 + 1000 * (uint64_t)v + seed);
			if (gen_program(&p, &src, &k)) {
				CHECK(0, "calls %d seed %llu: gen_program failed", v,
				      (unsigned long long)seed);
				continue;
			}
			check_program(&p, &k, seed, "calls", &rs);
			check_calls(&p, seed, &cs[v]);
		}
		printf("calls %s: %u programs; frames 8: %u, 9: %u; stack 512: %u, over: %u (raw sum "
		       "under: %u); pointer args %u; bounded recursion %u (deepest reached %u), "
		       "unbounded %u (trapped %u)\n", v < 4 ? knobs[v] : "all", cs[v].programs,
		       cs[v].frames8, cs[v].frames9, cs[v].stack512, cs[v].stack_over,
		       cs[v].stack_over_raw_under, cs[v].ptr_calls, cs[v].bounded,
		       cs[v].bounded_reached, cs[v].unbounded, cs[v].unbounded_trapped);
	}
	/* The edges are met: safe and unsafe depths, stacks at and over the limit (also over
	 * only by rounding), recursion that ends and recursion that reaches the frame limit. */
	CHECK(cs[0].ptr_calls > 50, "p_call_args=100: %u pointer arguments", cs[0].ptr_calls);
	CHECK(cs[1].frames8 > 50 && cs[1].frames9 > 50, "p_call_chain=100: %u of 8 frames, %u of 9",
	      cs[1].frames8, cs[1].frames9);
	CHECK(cs[2].stack512 > 100 && cs[2].stack_over > 50 && cs[2].stack_over_raw_under > 5,
	      "p_big_frame=100: %u at 512, %u over (%u by rounding)", cs[2].stack512,
	      cs[2].stack_over, cs[2].stack_over_raw_under);
	CHECK(cs[3].bounded > 100 && cs[3].bounded_reached > cs[3].bounded / 2 &&
		      cs[3].unbounded > 100 && cs[3].unbounded_trapped > cs[3].unbounded / 2,
	      "p_recursion=100: %u bounded (%u reached their depth), %u unbounded (%u trapped)",
	      cs[3].bounded, cs[3].bounded_reached, cs[3].unbounded, cs[3].unbounded_trapped);
	gen_program__free(&p);
}

static bool same_program(const struct gen_program *a, const struct gen_program *b)
{
	if (a->len != b->len || memcmp(a->insns, b->insns, a->len * sizeof(*a->insns)) ||
	    a->nloops != b->nloops || memcmp(a->input, b->input, sizeof(a->input)) ||
	    memcmp(a->helper_data, b->helper_data, sizeof(a->helper_data)) ||
	    a->shapes != b->shapes || a->max_steps != b->max_steps || a->flags != b->flags)
		return false;
	for (size_t i = 0; i < a->nloops; i++)
		if (memcmp(&a->loops[i], &b->loops[i], sizeof(a->loops[i])))
			return false;
	return true;
}

static void test_default_mix(void)
{
	struct gen_knobs k = gen_knobs_default();
	struct gen_program p = { 0 }, q = { 0 };
	uint64_t shape_count[GEN_SHAPE__COUNT] = { 0 }, cond = 0, len_sum = 0, huge = 0, endless = 0;
	struct run_stats rs = { 0 };
	size_t max_len = 0;

	for (uint64_t seed = 0; seed < NSEEDS; seed++) {
		struct gen_src src;

		gen_src_init_seed(&src, seed);
		if (gen_program(&p, &src, &k)) {
			CHECK(0, "seed %llu: gen_program failed", (unsigned long long)seed);
			continue;
		}
		check_program(&p, &k, seed, "default", &rs);
		if (seed % 8 == 0)
			check_structure(&p, seed);
		if (seed % 16 == 0) {
			gen_src_init_seed(&src, seed);
			CHECK(gen_program(&q, &src, &k) == 0 && same_program(&p, &q),
			      "seed %llu: not reproducible", (unsigned long long)seed);
		}
		for (unsigned s = 0; s < GEN_SHAPE__COUNT; s++)
			shape_count[s] += (p.shapes >> s) & 1;
		cond |= p.cond_kinds;
		len_sum += p.len;
		max_len = p.len > max_len ? p.len : max_len;
		huge += !!(p.flags & GEN_PROG_HUGE);
		endless += !!(p.flags & GEN_PROG_MAY_NOT_TERMINATE);
	}
	/* (the null-check and array-fill forms are off by default: test_null_knobs,
	 * test_fill_knobs; bpf_loop and may_goto likewise: test_knobs_control and
	 * test_other_forms) */
	for (unsigned s = 0; s < GEN_SHAPE_BPF_LOOP; s++)
		CHECK(shape_count[s] > 0 || s == GEN_SHAPE_NULL_COPY || s == GEN_SHAPE_NULL_STALE,
		      "shape %s never produced by the default mix", gen_shape_name(s));
	for (unsigned op = 0; op < 16; op++) {
		static const uint8_t ops[] = { BPF_JEQ, BPF_JNE, BPF_JLT, BPF_JLE, BPF_JGT,
					       BPF_JGE, BPF_JSLT, BPF_JSLE, BPF_JSGT, BPF_JSGE };

		for (unsigned j = 0; j < 10; j++)
			if (ops[j] >> 4 == op)
				CHECK(((cond >> op) & 1) && ((cond >> (op + 16)) & 1),
				      "loop test op %#x never produced at both widths", op << 4);
	}
	CHECK(len_sum / NSEEDS <= 120 && max_len <= 2 * k.max_insns,
	      "programs too large: average %llu, largest %zu", (unsigned long long)(len_sum / NSEEDS),
	      max_len);
	CHECK(huge < NSEEDS * 7 / 100 && endless < NSEEDS * 3 / 100,
	      "too many huge (%llu) or endless (%llu)",
	      (unsigned long long)huge, (unsigned long long)endless);
	CHECK(rs.exact_entries > NSEEDS, "only %llu exact trip counts confirmed",
	      (unsigned long long)rs.exact_entries);
	printf("default mix: %d programs, %llu instructions on average (largest %zu), %llu huge, "
	       "%llu possibly endless; %llu runs, %llu steps, %llu exact loop entries and %llu IV "
	       "values confirmed\n", NSEEDS, (unsigned long long)(len_sum / NSEEDS), max_len,
	       (unsigned long long)huge, (unsigned long long)endless, (unsigned long long)rs.runs,
	       (unsigned long long)rs.steps, (unsigned long long)rs.exact_entries,
	       (unsigned long long)rs.iv_checks);
	printf("shapes:");
	for (unsigned s = 0; s < GEN_SHAPE__COUNT; s++)
		printf(" %s=%llu", gen_shape_name(s), (unsigned long long)shape_count[s]);
	printf("\n");
	gen_program__free(&p);
	gen_program__free(&q);
}

/* ---- every knob controls its shape ---- */

struct sample {
	uint64_t shape_count[GEN_SHAPE__COUNT];
	unsigned n, failed, huge_prog, endless_prog, max_len;
	bool all_irr, all_while, all_depth1, all_slot_ctr, trips_within, map_always, map_never;
};

static void sample(struct sample *sm, const struct gen_knobs *k, unsigned n, uint64_t seed0)
{
	struct gen_program p = { 0 };
	struct run_stats rs = { 0 };

	memset(sm, 0, sizeof(*sm));
	sm->all_irr = sm->all_while = sm->all_depth1 = sm->all_slot_ctr = sm->trips_within = true;
	sm->map_always = sm->map_never = true;
	for (unsigned i = 0; i < n; i++) {
		struct gen_src src;
		bool hl = false;

		gen_src_init_seed(&src, seed0 + i);
		if (gen_program(&p, &src, k)) {
			sm->failed++;
			continue;
		}
		sm->n++;
		check_program(&p, k, seed0 + i, "knob sample", &rs);
		for (unsigned s = 0; s < GEN_SHAPE__COUNT; s++)
			sm->shape_count[s] += (p.shapes >> s) & 1;
		for (size_t j = 0; j < p.nloops; j++) {
			const struct gen_loop *l = &p.loops[j];
			bool sub = l->flags & GEN_LOOP_SUBPROG;

			sm->all_irr &= l->form == GEN_FORM_IRREDUCIBLE;
			sm->all_while &= l->form == GEN_FORM_WHILE;
			sm->all_depth1 &= sub || l->depth == 1;
			sm->all_slot_ctr &= !LOC_IS_REG(l->counter_loc);
			sm->trips_within &= l->trip_max <= k->max_trip;
			hl |= (l->flags & GEN_LOOP_HUGE) != 0;
		}
		sm->huge_prog += hl;
		sm->endless_prog += !!(p.flags & GEN_PROG_MAY_NOT_TERMINATE);
		sm->max_len = p.len > sm->max_len ? (unsigned)p.len : sm->max_len;
		sm->map_always &= p.map_cnt == 1;
		sm->map_never &= p.map_cnt == 0;
	}
	CHECK(!sm->failed, "%u programs failed", sm->failed);
	gen_program__free(&p);
}

static struct gen_knobs knobs_with(const char *a, uint32_t va, const char *b, uint32_t vb)
{
	struct gen_knobs k = gen_knobs_default();

	/* "Clean": no wrap, huge or endless loops, whose parameters come from their own recipes. */
	CHECK(!gen_knobs_set(&k, "p_wrap", 0) && !gen_knobs_set(&k, "p_huge", 0) &&
		      !gen_knobs_set(&k, "p_nonterminating", 0),
	      "clean knobs");
	if (a)
		CHECK(!gen_knobs_set(&k, a, va), "set %s", a);
	if (b)
		CHECK(!gen_knobs_set(&k, b, vb), "set %s", b);
	return k;
}

static void test_knobs_control(void)
{
	static const struct {
		const char *knob;
		unsigned shape;
	} pairs[] = {
		{ "p_irreducible", GEN_SHAPE_IRREDUCIBLE }, { "p_nest", GEN_SHAPE_NEST2 },
		{ "p_subprog", GEN_SHAPE_SUBPROG },	  { "p_map", GEN_SHAPE_MAP },
		{ "p_pkt", GEN_SHAPE_PKT },		  { "p_call", GEN_SHAPE_HELPER },
		{ "p_break", GEN_SHAPE_BREAK },		  { "p_return", GEN_SHAPE_RETURN },
		{ "p_continue", GEN_SHAPE_CONTINUE },	  { "p_cond_update", GEN_SHAPE_COND_UPDATE },
		{ "p_derived", GEN_SHAPE_DERIVED_IV },	  { "p_outer_mod", GEN_SHAPE_OUTER_MOD },
		{ "p_bound_input", GEN_SHAPE_BOUND_INPUT }, { "p_bound_outer", GEN_SHAPE_BOUND_OUTER },
		{ "p_init_input", GEN_SHAPE_INIT_INPUT }, { "p_signed", GEN_SHAPE_COND_SIGNED },
		{ "p_eqne", GEN_SHAPE_COND_EQNE },	  { "p_down", GEN_SHAPE_DOWN },
		{ "p_big_step", GEN_SHAPE_STEP_BIG },	  { "p_ctr32", GEN_SHAPE_CTR32 },
		{ "p_cmp_mix", GEN_SHAPE_CMP_MIX },	  { "p_bound_reg", GEN_SHAPE_BOUND_REG },
		{ "p_wrap", GEN_SHAPE_WRAP },		  { "p_huge", GEN_SHAPE_HUGE },
		{ "p_nonterminating", GEN_SHAPE_NONTERM }, { "p_call_args", GEN_SHAPE_CALL_ARGS },
		{ "p_call_chain", GEN_SHAPE_CALL_CHAIN },  { "p_big_frame", GEN_SHAPE_BIG_FRAME },
		{ "p_recursion", GEN_SHAPE_RECURSION },	   { "p_bpf_loop", GEN_SHAPE_BPF_LOOP },
		{ "p_may_goto", GEN_SHAPE_MAY_GOTO },	   { "p_may_goto_loop", GEN_SHAPE_MAY_GOTO_LOOP },
	};
	struct gen_knobs k;
	struct sample off, on;

	/* Each knob at 0 removes its shape; at 100 it appears, and more often than by default. */
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		const char *kn = pairs[i].knob;
		unsigned sh = pairs[i].shape;

		k = knobs_with(kn, 0, NULL, 0);
		sample(&off, &k, 300, 1000000 + i * 1000);
		k = knobs_with(kn, 100, NULL, 0);
		if (sh == GEN_SHAPE_ARRAY_READ)
			gen_knobs_set(&k, "p_indirect_write", 0);
		sample(&on, &k, 300, 2000000 + i * 1000);
		CHECK(off.shape_count[sh] == 0, "%s=0 still gives %s in %llu programs", kn,
		      gen_shape_name(sh), (unsigned long long)off.shape_count[sh]);
		CHECK(on.shape_count[sh] > 30, "%s=100 gives %s in only %llu of 300 programs", kn,
		      gen_shape_name(sh), (unsigned long long)on.shape_count[sh]);
	}
	/* The stack array: reads and indirect writes. */
	k = knobs_with("p_array", 0, NULL, 0);
	sample(&off, &k, 300, 3000000);
	CHECK(!off.shape_count[GEN_SHAPE_ARRAY_READ] && !off.shape_count[GEN_SHAPE_INDIRECT_WRITE],
	      "p_array=0 still accesses the array");
	k = knobs_with("p_array", 100, "p_indirect_write", 0);
	sample(&on, &k, 300, 3001000);
	CHECK(on.shape_count[GEN_SHAPE_ARRAY_READ] > 30 && !on.shape_count[GEN_SHAPE_INDIRECT_WRITE],
	      "p_indirect_write=0: reads only");
	k = knobs_with("p_array", 100, "p_indirect_write", 100);
	sample(&on, &k, 300, 3002000);
	CHECK(on.shape_count[GEN_SHAPE_INDIRECT_WRITE] > 30 && !on.shape_count[GEN_SHAPE_ARRAY_READ],
	      "p_indirect_write=100: writes only");
	/* Whole-program effects. */
	k = knobs_with("p_irreducible", 100, NULL, 0);
	sample(&on, &k, 200, 3003000);
	CHECK(on.all_irr, "p_irreducible=100: every loop irreducible");
	k = knobs_with("w_while_bottom", 0, "w_do_while", 0);
	gen_knobs_set(&k, "w_for", 0);
	gen_knobs_set(&k, "p_irreducible", 0);
	sample(&on, &k, 200, 3004000);
	CHECK(on.all_while, "only while loops when the other weights are 0");
	k = knobs_with("max_depth", 1, NULL, 0);
	sample(&on, &k, 300, 3005000);
	CHECK(on.all_depth1 && !on.shape_count[GEN_SHAPE_NEST2], "max_depth=1 nests");
	k = knobs_with("max_depth", 2, "p_nest", 100);
	sample(&on, &k, 300, 3006000);
	CHECK(on.shape_count[GEN_SHAPE_NEST2] > 100 && !on.shape_count[GEN_SHAPE_NEST3],
	      "max_depth=2");
	k = knobs_with("p_nest", 100, NULL, 0);
	sample(&on, &k, 300, 3007000);
	CHECK(on.shape_count[GEN_SHAPE_NEST4] > 10, "p_nest=100 reaches depth 4 in %llu",
	      (unsigned long long)on.shape_count[GEN_SHAPE_NEST4]);
	k = knobs_with("p_spill", 100, NULL, 0);
	sample(&on, &k, 200, 3008000);
	CHECK(on.all_slot_ctr, "p_spill=100: every counter in a stack slot");
	k = knobs_with("max_trip", 5, NULL, 0);
	sample(&on, &k, 300, 3009000);
	CHECK(on.trips_within, "max_trip=5 exceeded");
	k = knobs_with("max_insns", 60, NULL, 0);
	sample(&on, &k, 300, 3010000);
	CHECK(on.max_len <= 180, "max_insns=60: a program of %u instructions", on.max_len);
	k = knobs_with("max_nests", 1, NULL, 0);
	sample(&on, &k, 300, 3011000);
	CHECK(!on.shape_count[GEN_SHAPE_SEQ_NESTS], "max_nests=1");
	k = knobs_with("p_map", 100, NULL, 0);
	sample(&on, &k, 100, 3012000);
	CHECK(on.map_always, "p_map=100: the map is always defined");
	k = knobs_with("p_map", 0, NULL, 0);
	sample(&on, &k, 100, 3013000);
	CHECK(on.map_never, "p_map=0: no map");
	k = knobs_with("p_huge", 100, NULL, 0);
	sample(&on, &k, 300, 3014000);
	CHECK(on.huge_prog > 150 && on.endless_prog == 0, "p_huge=100: %u huge, %u endless",
	      on.huge_prog, on.endless_prog);
	k = knobs_with("p_nonterminating", 100, NULL, 0);
	sample(&on, &k, 300, 3015000);
	CHECK(on.endless_prog > 150 && on.huge_prog == 0, "p_nonterminating=100: %u endless",
	      on.endless_prog);
	k = knobs_with(NULL, 0, NULL, 0);
	sample(&on, &k, 300, 3016000);
	CHECK(!on.huge_prog && !on.endless_prog, "clean knobs: no huge or endless loops");

	/* Extremes: every probability 0, every probability 100, the largest sizes. */
	for (int v = 0; v <= 3; v++) {
		const char *name, *what;
		uint32_t def;

		k = gen_knobs_default();
		/* (p_find_vma makes every program a raw tracepoint, which none of the network
		 * forms: v = 3 is every probability 100 with it) */
		for (size_t i = 0; gen_knob_info(i, &name, &def, &what); i++)
			if ((!strncmp(name, "p_", 2) &&
			     (v != 1 || strncmp(name, "p_find_vma", 10))) ||
			    (v == 2 && !strncmp(name, "max_", 4)))
				gen_knobs_set(&k, name, v == 0 ? 0 : v == 1 || v == 3 ? 100 : def);
		if (v == 2) {
			k.max_depth = 4, k.max_nests = 8, k.max_stmts = 8, k.max_insns = 1536;
			k.max_trip = 1000, k.p_nest = 60;
		}
		sample(&on, &k, 200, 3020000 + (uint64_t)v * 1000);
		if (v == 2)
			CHECK(on.max_len > 1000, "max_insns=1536: largest program %u", on.max_len);
	}
}

/* One program of a twin-knob test, generated with its knob (the safe form's or the twin's) and
 * already checked against its intent (check_program). */
struct twin_run {
	struct gen_program *p;
	const struct gen_knobs *k;
	const char *name;	/* the knob that made it */
	uint64_t seed;
	int twin;		/* 0: the safe knob, 1: its twin */
	struct run_stats *rs;
};

/* A twin-knob test's programs: n seeds from seed0 with knob[0] at pct, then the same seeds with
 * knob[1], each with the other knobs of also set (clean knobs otherwise: knobs_with). */
struct twin_spec {
	const char *knob[2];
	uint32_t pct;
	uint64_t seed0;
	unsigned n;
	struct {
		const char *name;
		uint32_t pct;
	} also[6];
};

#define TW "%s seed %llu: "
#define TW_ARGS(r) (r)->name, (unsigned long long)(r)->seed

static void for_twin_programs(const struct twin_spec *s,
			      void (*fn)(void *arg, const struct twin_run *r), void *arg)
{
	struct gen_program p = { 0 };
	struct run_stats rs = { 0 };

	for (int twin = 0; twin < 2; twin++) {
		struct gen_knobs k = knobs_with(s->knob[twin], s->pct, NULL, 0);

		for (size_t i = 0; i < sizeof(s->also) / sizeof(s->also[0]) && s->also[i].name; i++)
			CHECK(!gen_knobs_set(&k, s->also[i].name, s->also[i].pct), "set %s",
			      s->also[i].name);
		for (uint64_t seed = s->seed0; seed < s->seed0 + s->n; seed++) {
			struct twin_run r = { &p, &k, s->knob[twin], seed, twin, &rs };
			struct gen_src src;

			gen_src_init_seed(&src, seed);
			if (gen_program(&p, &src, &k)) {
				CHECK(0, TW "gen_program failed", TW_ARGS(&r));
				continue;
			}
			check_program(&p, &k, seed, s->knob[twin], &rs);
			fn(arg, &r);
		}
	}
	gen_program__free(&p);
}

/* The interpreter's trap running the program on in (its own input when NULL), one step past
 * its budget. */
static enum interp_trap twin_trap(const struct twin_run *r, const uint8_t *in)
{
	uint64_t steps;

	return run_watched(r->p, r->seed, in ? in : r->p->input, r->p->max_steps + 1, r->rs,
			   &steps);
}

/* Whether a run ended by a trap (a cut by the step budget is not one). */
static bool trapped(enum interp_trap t)
{
	return t != INTERP_OK && t != INTERP_TRAP_STEPS;
}

/* The last verdict twin_verdict gave, with the program it was given for (its instructions,
 * type, maps and global functions: all scev_verify reads), so that twin_kernel_report, asked
 * about the same program next, hands it to verdict_compare instead of analyzing it again. */
static struct {
	struct bpf_insn *insns;
	size_t len, cap, map_cnt, nglobals;
	uint32_t prog_type;
	struct ebpf_map_def maps[8];
	struct ebpf_global_func globals[GEN_MAX_FUNCS];
	struct scev_verdict v;
	bool valid;
} last_verdict;

static void last_verdict_keep(const struct gen_program *p, const struct scev_verdict *v)
{
	last_verdict.valid = false;
	if (p->len > last_verdict.cap) {
		struct bpf_insn *n = realloc(last_verdict.insns, p->len * sizeof(*n));

		if (!n)
			return;
		last_verdict.insns = n;
		last_verdict.cap = p->len;
	}
	memcpy(last_verdict.insns, p->insns, p->len * sizeof(*p->insns));
	last_verdict.len = p->len;
	last_verdict.prog_type = p->prog_type;
	last_verdict.map_cnt = p->map_cnt;
	memcpy(last_verdict.maps, p->maps, sizeof(last_verdict.maps));
	last_verdict.nglobals = p->nglobals;
	memcpy(last_verdict.globals, p->globals, sizeof(last_verdict.globals));
	last_verdict.v = *v;
	last_verdict.valid = true;
}

/* twin_kernel_report's given verdicts checked against verdict_compare's own analysis */
static unsigned given_checked;

/* twin_verdict's verdict when p is the program it was last given, else NULL. */
static const struct scev_verdict *last_verdict_of(const struct gen_program *p)
{
	if (!last_verdict.valid || p->len != last_verdict.len ||
	    p->prog_type != last_verdict.prog_type || p->map_cnt != last_verdict.map_cnt ||
	    p->nglobals != last_verdict.nglobals ||
	    memcmp(p->insns, last_verdict.insns, p->len * sizeof(*p->insns)) ||
	    memcmp(p->maps, last_verdict.maps, sizeof(last_verdict.maps)) ||
	    memcmp(p->globals, last_verdict.globals, sizeof(last_verdict.globals)))
		return NULL;
	return &last_verdict.v;
}

/* bpfscev's verdict on the program; false when verify itself fails. */
static bool twin_verdict(const struct twin_run *r, struct scev_verdict *v)
{
	struct ebpf_prog view;
	struct diag d;

	gen_program__prog(r->p, &view, "g");
	diag_clear(&d);
	last_verdict.valid = false;
	if (scev_verify(v, NULL, &view, r->p->maps, r->p->map_cnt, NULL, &d))
		return false;
	last_verdict_keep(r->p, v);
	return true;
}

/* The verdict runs (four, with the stack and register watch of oracle/exec/stackinit.h) of the
 * program as if it had been called safe, so that they happen whatever bpfscev says. */
static void twin_forged_runs(const struct twin_run *r, bool unprivileged, struct verdict_report *rep)
{
	struct ebpf_object obj;
	struct verdict_opts vo = { .sz = sizeof(vo), .prog_type = BPF_PROG_TYPE_XDP, .runs = 4,
				   .unprivileged = unprivileged };
	struct ebpf_prog view;

	gen_program__object(r->p, &obj, &view, "gen");
	memset(rep, 0, sizeof(*rep));
	rep->ours.kind = VERDICT_SAFE;
	rep->ours.max_insns = UINT64_MAX;
	CHECK(verdict_execute(rep, &obj, &view, &vo) == 0, TW "runs", TW_ARGS(r));
}

/* Whether the program has a call with this src_reg and imm (any imm when imm < 0). */
static bool has_call(const struct gen_program *p, uint8_t src_reg, int64_t imm)
{
	for (size_t pc = 0; pc < p->len; pc++)
		if (p->insns[pc].code == (BPF_JMP | BPF_CALL) && p->insns[pc].src_reg == src_reg &&
		    (imm < 0 || p->insns[pc].imm == imm))
			return true;
	return false;
}

/* What the twin-knob tests below count: programs with the knob's call or shape per form,
 * flagged twins, twins that trap, safe forms verified safe, runs reading unwritten bytes. */
struct twin_counts {
	unsigned calls[2], shaped[2], flagged[2], traps, safe, dirty[2], bad;
	unsigned seen[2], loaded[2], refused[2];	/* (mem_twin_kernel) */
	const void *arg;
};

/* How judge_twin judges a knob's program: flag is the twin's; call, whether the program makes
 * the knob's call (only those safe forms are counted); traps, the trap kinds of a flagged
 * program's run counted (TRAPS); run_all, every program run (else the flagged ones); run, the
 * run made instead of r's (NULL: r's, on its own input). */
struct twin_judge {
	uint64_t flag;
	bool call;
	unsigned traps;
	bool run_all;
	const struct twin_run *run;
};
#define TRAPS(t) (1u << (t))

/* What the flagged-twin callbacks share: bpfscev's verdict v (*safe: called safe) — the safe
 * forms with the call called safe counted in safe, the flagged programs not called safe in
 * dirty[1] —, the flagged programs counted in flagged, their runs trapping with one of j->traps
 * counted in traps, and no program called safe whose run traps.  False when verify failed (v
 * then says nothing).  A twin may sit where no run goes, which the kernel does not verify
 * either: called safe then, but never one whose runs trap. */
static bool judge_twin(struct twin_counts *c, const struct twin_run *r, const struct twin_judge *j,
		       struct scev_verdict *v, bool *safe)
{
	bool flagged = r->p->flags & j->flag, verified = twin_verdict(r, v);
	enum interp_trap t = INTERP_OK;

	*safe = verified && v->kind == VERDICT_SAFE;
	if (verified) {
		c->safe += !r->twin && j->call && *safe;
		c->dirty[1] += flagged && !*safe;
	}
	c->flagged[r->twin] += flagged;
	if (flagged || j->run_all)
		t = twin_trap(j->run ? j->run : r, NULL);
	if (flagged)
		c->traps += !!(j->traps & TRAPS(t));
	CHECK(!*safe || t == INTERP_OK || t == INTERP_TRAP_STEPS, TW "called safe, but its run "
	      "traps (%d)", TW_ARGS(r), t);
	return verified;
}

/* p_iter_num and its unsafe twin p_iter_num_unsafe: the safe form never traps and stays within
 * max_steps (check_program, two inputs), the twin, flagged, breaks the iterator's lifecycle on
 * some runs (the interpreter traps with INTERP_TRAP_HELPER); both call bpf_iter_num_new. */
static void iter_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	const struct gen_program *p = r->p;
	bool call = has_call(p, BPF_PSEUDO_KFUNC_CALL, -1);

	c->calls[r->twin] += call;
	CHECK(!!(p->flags & GEN_PROG_ITER) == call, TW "iter flag %d, kfunc call %d", TW_ARGS(r),
	      !!(p->flags & GEN_PROG_ITER), call);
	CHECK(!(p->flags & GEN_PROG_ITER_UNSAFE) || r->twin, TW "twin flag without its knob",
	      TW_ARGS(r));
	c->flagged[r->twin] += !!(p->flags & GEN_PROG_ITER_UNSAFE);
	if (p->flags & GEN_PROG_ITER_UNSAFE)
		c->traps += twin_trap(r, NULL) == INTERP_TRAP_HELPER;
}

static void test_iter_knobs(void)
{
	static const struct twin_spec s = { { "p_iter_num", "p_iter_num_unsafe" }, 60, 3400000,
					    120, { { "p_array", 50 } } };
	struct twin_counts c = { 0 };

	if (!ebpf_kfunc_btf_available()) {
		check_skip_part("p_iter_num: no vmlinux BTF to name the kfuncs");
		return;
	}
	for_twin_programs(&s, iter_program, &c);
	CHECK(c.calls[0] > 40 && c.calls[1] > 40, "p_iter_num: %u and %u of 120 programs call the "
	      "kfuncs", c.calls[0], c.calls[1]);
	CHECK(c.traps > 10, "p_iter_num_unsafe: %u of %u flagged programs trap", c.traps,
	      c.flagged[1]);
}

/* p_iter_deep and its twin p_iter_deep_over: main's iterator loop, f's, or both, each the
 * deepest slot of its frame (the iterator slot d97a1fd's stack depth missed); the frames'
 * combined stack, rounded as the kernel rounds them, at or near 512 bytes for the safe form, 528
 * or 544 for the twin.  Checked: the call metadata against the instructions and a run
 * (check_calls, which counts an iterator's slot in its frame); every iterator the deepest of
 * its frame; the stack in range; the twin flagged and never called safe; bpfscev's depth of
 * every frame of a program it calls safe at least the frame's; most safe forms called safe. */
struct deep_counts {
	unsigned in_main[2], in_callee[2], at512, near512, over, safe, refused;
	struct call_stats cs;
};

static void iter_deep_program(void *arg, const struct twin_run *r)
{
	struct deep_counts *c = arg;
	const struct gen_program *p = r->p;
	struct scev_verdict v;
	struct cgraph cg;
	bool deepest[GEN_MAX_FUNCS] = { false };
	int bad = 0, callee = -1;

	check_calls(p, r->seed, &c->cs);
	cg_build(&cg, p);
	for (uint32_t pc = 0; pc < p->len; pc++) {
		int it = iter_slot_at(p, pc), f = cg_func(&cg, pc);

		if (it <= 0 || f < 0)
			continue;
		deepest[f] |= (uint32_t)it == cg.frame[f];
		bad += f > 0 && callee >= 0 && f != callee;
		callee = f > 0 ? f : callee;
	}
	CHECK(!bad && cg.n >= 2, TW "%u functions, iterators in more than one callee", TW_ARGS(r),
	      cg.n);
	CHECK(deepest[0] || (callee > 0 && deepest[callee]),
	      TW "no iterator is its frame's deepest slot", TW_ARGS(r));
	c->in_main[r->twin] += deepest[0];
	c->in_callee[r->twin] += callee > 0 && deepest[callee];
	if (!r->twin) {
		c->at512 += p->max_stack == GEN_MAX_STACK;
		c->near512 += p->max_stack >= GEN_MAX_STACK - 64 && p->max_stack <= GEN_MAX_STACK;
	} else {
		CHECK(p->max_stack > GEN_MAX_STACK && (p->flags & GEN_PROG_CALLS_UNSAFE),
		      TW "combined stack %u, flags %#llx", TW_ARGS(r), p->max_stack,
		      (unsigned long long)p->flags);
		c->over += p->max_stack > GEN_MAX_STACK;
	}
	if (!twin_verdict(r, &v))
		return;
	CHECK(!(p->flags & GEN_PROG_CALLS_UNSAFE) || v.kind != VERDICT_SAFE,
	      TW "combined stack %u called safe", TW_ARGS(r), p->max_stack);
	if (v.kind == VERDICT_SAFE) {
		CHECK(v.nframes == p->nfuncs, TW "%u frames, %zu functions", TW_ARGS(r), v.nframes,
		      p->nfuncs);
		for (uint32_t f = 0; f < v.nframes && f < p->nfuncs; f++)
			CHECK(v.frame[f] >= p->funcs[f].frame, TW "function %u: depth %u, its "
			      "deepest slot %u", TW_ARGS(r), f, v.frame[f], p->funcs[f].frame);
	}
	c->safe += !r->twin && v.kind == VERDICT_SAFE;
	c->refused += r->twin && strstr(v.reason, "Too large") != NULL;
}

static void test_iter_deep_knobs(void)
{
	static const struct twin_spec s = { { "p_iter_deep", "p_iter_deep_over" }, 100, 3470000,
					    100 };
	struct deep_counts c = { 0 };

	if (!ebpf_kfunc_btf_available()) {
		check_skip_part("p_iter_deep: no vmlinux BTF to name the kfuncs");
		return;
	}
	for_twin_programs(&s, iter_deep_program, &c);
	CHECK(c.in_main[0] > 30 && c.in_callee[0] > 30 && c.in_main[1] > 30 && c.in_callee[1] > 30,
	      "p_iter_deep: the deepest slot is main's iterator in %u and %u programs, f's in %u "
	      "and %u", c.in_main[0], c.in_main[1], c.in_callee[0], c.in_callee[1]);
	CHECK(c.at512 > 30 && c.near512 > 80, "p_iter_deep: %u of 100 at 512 bytes, %u within 64 "
	      "below", c.at512, c.near512);
	CHECK(c.over == 100 && c.refused > 90, "p_iter_deep_over: %u of 100 over 512 bytes, %u "
	      "refused for it", c.over, c.refused);
	CHECK(c.safe > 60, "p_iter_deep: %u of 100 called safe", c.safe);
	printf("p_iter_deep: main's iterator deepest in %u/%u, f's in %u/%u (safe/twin); %u at 512, "
	       "%u near; %u called safe; p_iter_deep_over: %u over, %u refused for it\n",
	       c.in_main[0], c.in_main[1], c.in_callee[0], c.in_callee[1], c.at512, c.near512,
	       c.safe, c.over, c.refused);
}

/* p_iter_helper and its twin p_iter_helper_over (with p_iter_num): the iterator loop's body gives
 * bpf_probe_read_kernel a pointer into the frame beside the live iterator, or, the twin, the
 * iterator itself.  Every program is verified: no safe form is refused for the helper call
 * while the iterator is live, some are safe; most twins trap at the helper (INTERP_TRAP_HELPER:
 * its memory overlaps the live iterator) and none of those is called safe.  With every such
 * call unsupported (absint_iter.c's helper_spans_checked false) the first check fails; without
 * the interpreter's iter_overlap the trap count. */
static void iter_helper_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	bool call = has_call(r->p, 0, BPF_FUNC_probe_read_kernel), trap;
	struct scev_verdict v;

	c->calls[r->twin] += call;
	CHECK(!call || (r->p->flags & GEN_PROG_ITER), TW "the helper call without an iterator",
	      TW_ARGS(r));
	CHECK(!call || !r->twin == !(r->p->flags & GEN_PROG_ITER_UNSAFE),
	      TW "the twin's flag is not the twin's", TW_ARGS(r));
	trap = r->twin && call && twin_trap(r, NULL) == INTERP_TRAP_HELPER;
	c->flagged[1] += r->twin && call;
	c->traps += trap;
	if (twin_verdict(r, &v)) {
		CHECK(!trap || v.kind != VERDICT_SAFE, TW "a twin whose run traps at the helper "
		      "called safe", TW_ARGS(r));
		CHECK(r->twin || !strstr(v.reason, "open-coded iterator is live"), TW "%s",
		      TW_ARGS(r), v.reason);
		c->safe += !r->twin && call && v.kind == VERDICT_SAFE;
	}
}

static void test_iter_helper_knobs(void)
{
	static const struct twin_spec s = { { "p_iter_helper", "p_iter_helper_over" }, 100, 3450000,
					    80, { { "p_iter_num", 60 } } };
	struct twin_counts c = { 0 };

	if (!ebpf_kfunc_btf_available()) {
		check_skip_part("p_iter_helper: no vmlinux BTF to name the kfuncs");
		return;
	}
	for_twin_programs(&s, iter_helper_program, &c);
	CHECK(c.calls[0] > 30 && c.calls[1] > 30, "p_iter_helper: %u and %u of 80 programs call "
	      "the helper", c.calls[0], c.calls[1]);
	CHECK(c.safe > 20, "p_iter_helper: %u of the safe forms verified safe", c.safe);
	CHECK(c.traps > c.flagged[1] / 2, "p_iter_helper_over: %u of %u twins trap at the helper",
	      c.traps, c.flagged[1]);
}

/* p_for_each and its unsafe twin p_for_each_unsafe: the safe form never traps and stays within
 * max_steps (check_program, two inputs), the twin, flagged, writes past its value or to its key
 * on some runs (the interpreter traps with INTERP_TRAP_MEM) or returns 2; both call
 * bpf_for_each_map_elem on the program's map. */
static void for_each_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	const struct gen_program *p = r->p;
	bool call = has_call(p, 0, BPF_FUNC_for_each_map_elem);

	c->calls[r->twin] += call;
	CHECK(!call || p->map_cnt == 1, TW "a walk without the map", TW_ARGS(r));
	CHECK(!(p->flags & GEN_PROG_EACH_UNSAFE) || (r->twin && call), TW "twin flag without its "
	      "knob or its call", TW_ARGS(r));
	c->flagged[r->twin] += !!(p->flags & GEN_PROG_EACH_UNSAFE);
	if (p->flags & GEN_PROG_EACH_UNSAFE)
		c->traps += twin_trap(r, NULL) == INTERP_TRAP_MEM;
}

static void test_for_each_knobs(void)
{
	static const struct twin_spec s = { { "p_for_each", "p_for_each_unsafe" }, 60, 3500000,
					    120, { { "p_array", 50 } } };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, for_each_program, &c);
	CHECK(c.calls[0] > 40 && c.calls[1] > 40, "p_for_each: %u and %u of 120 programs walk the "
	      "map", c.calls[0], c.calls[1]);
	CHECK(c.traps > 10, "p_for_each_unsafe: %u of %u flagged programs trap", c.traps,
	      c.flagged[1]);
}

/* p_bpf_loop and its unsafe twin p_bpf_loop_unsafe: both call bpf_loop; the safe form never
 * traps and stays within max_steps (check_program), and bpfscev calls none whose run traps; the
 * twin, flagged, is not called safe but where the kernel accepts it too (its bpf_loop in code
 * no path reaches: counted in bad), its runs trap when a callback that reads past main's frame
 * (INTERP_TRAP_LIMIT: read as a frame grown past the combined limit) or through its NULL ctx
 * (INTERP_TRAP_MEM) runs, and the kernel refuses the first 25 twins not called safe, where
 * bpf() works (a callback returning 2, which no run shows, included). */
static bool twin_kernel_report(const struct twin_run *r, struct verdict_report *rep);

static bool bpf_loop_kernel_accepts(struct twin_counts *c, const struct twin_run *r)
{
	struct verdict_report rep;
	bool accepted;

	if (!twin_kernel_report(r, &rep))
		return false;
	c->loaded[1]++;
	accepted = rep.kernel_accepted;
	verdict_report__free(&rep);
	return accepted;
}

static void bpf_loop_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	const struct gen_program *p = r->p;
	bool call = has_call(p, 0, BPF_FUNC_loop), safe = false,
	     flagged = p->flags & GEN_PROG_LOOP_CB_UNSAFE, bpf = kernel_available(NULL, 0);
	struct scev_verdict v;

	c->calls[r->twin] += call;
	CHECK(!flagged || (r->twin && call), TW "twin flag without its knob or its call",
	      TW_ARGS(r));
	if (!judge_twin(c, r, &(struct twin_judge){ GEN_PROG_LOOP_CB_UNSAFE, call,
						    TRAPS(INTERP_TRAP_MEM) |
							    TRAPS(INTERP_TRAP_LIMIT) },
			&v, &safe))
		CHECK(0, TW "verify failed", TW_ARGS(r));
	if (flagged && safe) {	/* (only where the kernel accepts it too) */
		c->bad++;
		CHECK(bpf && c->bad <= 5 && bpf_loop_kernel_accepts(c, r), TW "the twin called safe; "
		      "the kernel refuses it%s", TW_ARGS(r),
		      bpf ? "" : " (or bpf() is refused)");
	} else if (flagged && c->seen[1]++ < 25 && bpf) {
		bool accepted = bpf_loop_kernel_accepts(c, r);

		c->refused[1] += !accepted;
		CHECK(!accepted, TW "the kernel accepts a twin not called safe", TW_ARGS(r));
	}
}

static void test_bpf_loop_knobs(void)
{
	static const struct twin_spec s = { { "p_bpf_loop", "p_bpf_loop_unsafe" }, 60, 3520000,
					    120 };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, bpf_loop_program, &c);
	CHECK(c.calls[0] > 60 && c.calls[1] > 60, "p_bpf_loop: %u and %u of 120 programs call "
	      "bpf_loop", c.calls[0], c.calls[1]);
	CHECK(c.flagged[1] > 60 && c.dirty[1] + c.bad == c.flagged[1] && c.bad <= 5,
	      "p_bpf_loop_unsafe: %u flagged, %u not called safe, %u called safe (the kernel "
	      "accepts them)", c.flagged[1], c.dirty[1], c.bad);
	CHECK(c.traps > c.flagged[1] / 3, "p_bpf_loop_unsafe: %u of %u flagged programs trap",
	      c.traps, c.flagged[1]);
	CHECK(c.safe > 30, "p_bpf_loop: %u of the safe forms called safe", c.safe);
	if (!c.loaded[1])
		check_skip_part("p_bpf_loop_unsafe: the kernel's verdicts (bpf() refused)");
	printf("p_bpf_loop: %u of 120 call bpf_loop, %u called safe; p_bpf_loop_unsafe: %u "
	       "flagged, %u not called safe (%u called safe, in code the kernel finds dead), %u "
	       "trap, the kernel refuses %u of %u\n", c.calls[0], c.safe, c.flagged[1], c.dirty[1],
	       c.bad, c.traps, c.refused[1], c.seen[1] < 25 ? c.seen[1] : 25);
}

/* What iter_knob_program looks for: the new kfunc the knob's programs call (one of them), and
 * the trap kinds its twins' runs count. */
struct iter_knob {
	const char *kfunc[2];
	unsigned traps;
};

/* p_iter_bits and its unsafe twin p_iter_bits_unsafe: both call bpf_iter_bits_new (over no
 * words, NULL, zero words, ones, an input byte's or 512 words); the safe form never traps and
 * stays within max_steps (check_program), and bpfscev calls most of them safe, none whose run
 * traps; the twin, flagged, is not called safe but where no run goes (dead code, which the
 * kernel does not verify either: counted in bad), and its runs trap when the statement runs
 * (INTERP_TRAP_HELPER: the iterator leaked, destroyed twice or advanced after it); the kernel
 * accepts the first 25 safe forms called safe or refuses them by one of its limits (a plain loop
 * in the iterator's loop: an improvement), and refuses the first 25 twins not called safe,
 * where bpf() works. */
static void iter_knob_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	const struct iter_knob *ik = c->arg;
	const struct gen_program *p = r->p;
	bool call = has_call(p, BPF_PSEUDO_KFUNC_CALL, ebpf_kfunc_by_name(ik->kfunc[0])) ||
		    (ik->kfunc[1] &&
		     has_call(p, BPF_PSEUDO_KFUNC_CALL, ebpf_kfunc_by_name(ik->kfunc[1]))),
	     flagged = p->flags & GEN_PROG_ITER_UNSAFE, safe = false;
	struct verdict_report rep;
	struct scev_verdict v;

	c->calls[r->twin] += call;
	CHECK(!flagged || (r->twin && call), TW "twin flag without its knob or its call",
	      TW_ARGS(r));
	if (!judge_twin(c, r, &(struct twin_judge){ GEN_PROG_ITER_UNSAFE, call, ik->traps }, &v,
			&safe))
		CHECK(0, TW "verify failed", TW_ARGS(r));
	c->bad += flagged && safe;
	if (!call || (r->twin ? !flagged || safe : !safe) || c->seen[r->twin]++ >= 25 ||
	    !twin_kernel_report(r, &rep))
		return;
	c->loaded[r->twin]++;
	c->refused[r->twin] += !rep.kernel_accepted;
	c->shaped[r->twin] += rep.cls == VC_IMPROVEMENT;
	CHECK(r->twin ? !rep.kernel_accepted
		      : rep.cls == VC_BOTH_ACCEPT || rep.cls == VC_IMPROVEMENT,
	      TW "%s: the kernel %s it: %s", TW_ARGS(r), verdict_class_name(rep.cls),
	      rep.kernel_accepted ? "accepts" : "refuses", rep.kernel_message);
	verdict_report__free(&rep);
}

/* A pair of iterator knobs judged by iter_knob_program, the counts held to what the comments
 * above say; what names the calls counted. */
static void iter_knobs(const struct twin_spec *s, const struct iter_knob *ik, const char *what)
{
	struct twin_counts c = { .arg = ik };

	for_twin_programs(s, iter_knob_program, &c);
	CHECK(c.calls[0] > 60 && c.calls[1] > 60, "%s: %u and %u of 120 programs call %s",
	      s->knob[0], c.calls[0], c.calls[1], what);
	CHECK(c.flagged[1] > 60 && c.dirty[1] + c.bad == c.flagged[1] && c.bad <= 5,
	      "%s: %u flagged, %u not called safe, %u called safe (dead code)", s->knob[1],
	      c.flagged[1], c.dirty[1], c.bad);
	CHECK(c.traps > c.flagged[1] / 2, "%s: %u of %u flagged programs trap", s->knob[1],
	      c.traps, c.flagged[1]);
	CHECK(c.safe > c.calls[0] / 2, "%s: %u of %u safe forms called safe", s->knob[0], c.safe,
	      c.calls[0]);
	if (!c.loaded[0] && !c.loaded[1])
		check_skip_part("iterator knobs: the kernel's verdicts (bpf() refused)");
	printf("%s: %u of 120 call %s, %u called safe, the kernel accepts %u of %u (%u refused by "
	       "its limits); %s: %u flagged, %u not called safe (%u called safe, dead code), %u "
	       "trap, the kernel refuses %u of %u\n", s->knob[0], c.calls[0], what, c.safe,
	       c.loaded[0] - c.refused[0], c.loaded[0], c.shaped[0], s->knob[1], c.flagged[1],
	       c.dirty[1], c.bad, c.traps, c.refused[1], c.loaded[1]);
}

static void test_iter_bits_knobs(void)
{
	static const struct twin_spec s = { { "p_iter_bits", "p_iter_bits_unsafe" }, 60, 3530000,
					    120 };
	static const struct iter_knob ik = { { "bpf_iter_bits_new", NULL },
					     TRAPS(INTERP_TRAP_HELPER) };

	if (ebpf_kfunc_by_name("bpf_iter_bits_new") <= 0) {
		check_skip_part("p_iter_bits: no vmlinux BTF to name the kfuncs, or no bits iterator");
		return;
	}
	iter_knobs(&s, &ik, "bpf_iter_bits_new");
}

/* p_iter_task and its unsafe twin p_iter_task_unsafe: loops over the kernel's tasks or the
 * current task's vmas (bpf_iter_task_new or bpf_iter_task_vma_new), judged as p_iter_bits's
 * (iter_knob_program): the safe forms never trap and most are called safe, none whose run traps;
 * the twins (leaked, destroyed twice, advanced after the destroy, next's result read untested)
 * are not called safe but in dead code, and trap when the statement runs (INTERP_TRAP_HELPER,
 * or INTERP_TRAP_MEM for the untested read); the kernel accepts the first 25 safe forms called
 * safe (or refuses them by its limits: an improvement) and refuses the first 25 twins.  The
 * kernel's walks are its own tasks and vmas: its verdicts are compared, not its runs. */
static void test_iter_task_knobs(void)
{
	static const struct twin_spec s = { { "p_iter_task", "p_iter_task_unsafe" }, 60, 3540000,
					    120 };
	static const struct iter_knob ik = { { "bpf_iter_task_new", "bpf_iter_task_vma_new" },
					     TRAPS(INTERP_TRAP_HELPER) | TRAPS(INTERP_TRAP_MEM) };

	if (ebpf_kfunc_by_name("bpf_iter_task_new") <= 0 ||
	    ebpf_kfunc_by_name("bpf_iter_task_vma_new") <= 0) {
		check_skip_part("p_iter_task: no vmlinux BTF to name the kfuncs, or no task iterator");
		return;
	}
	iter_knobs(&s, &ik, "the task or task_vma iterator");
}

/* p_urb and its unsafe twin p_urb_unsafe: both drain the program's user ring buffer (map 2,
 * maps 0 and 1 defined beside it); the safe form never traps and stays within max_steps
 * (check_program, with the interpreter's samples), and bpfscev calls most safe forms safe; the
 * twin, flagged, is mostly not called safe (never when its run traps), and its runs trap
 * (INTERP_TRAP_MEM) when its callback loads through the dynptr or past bpf_dynptr_data's bytes
 * on a short sample. */
static void urb_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	const struct gen_program *p = r->p;
	bool call = has_call(p, 0, BPF_FUNC_user_ringbuf_drain), safe;
	struct scev_verdict v;

	c->calls[r->twin] += call;
	CHECK(!call || (p->map_cnt == GEN_MAP_URB + 1 &&
			p->maps[GEN_MAP_URB].type == BPF_MAP_TYPE_USER_RINGBUF &&
			p->maps[GEN_MAP_RINGBUF].type == BPF_MAP_TYPE_RINGBUF &&
			p->maps[0].type == BPF_MAP_TYPE_ARRAY), TW "a drain without its maps",
	      TW_ARGS(r));
	CHECK(!(p->flags & GEN_PROG_URB_UNSAFE) || (r->twin && call), TW "twin flag without its "
	      "knob or its call", TW_ARGS(r));
	c->shaped[r->twin] += has_call(p, 0, BPF_FUNC_dynptr_data) ||
			      has_call(p, 0, BPF_FUNC_dynptr_write);
	judge_twin(c, r, &(struct twin_judge){ GEN_PROG_URB_UNSAFE, call, TRAPS(INTERP_TRAP_MEM) },
		   &v, &safe);
}

/* p_dynptr and its unsafe twin p_dynptr_unsafe: a dynptr on the stack (bpf_dynptr_from_mem over
 * a map value, or bpf_ringbuf_reserve_dynptr) read or written by an index loop; the safe form
 * never traps and stays within max_steps (check_program), and bpfscev calls most safe forms
 * safe, none whose run traps; the twin, flagged, is not called safe (but where no run and no
 * kernel goes: dead code), and its runs trap when
 * they read past bpf_dynptr_data's bytes at the memory's end (INTERP_TRAP_MEM) or leave a
 * ringbuf dynptr unreleased (INTERP_TRAP_REF). */
static void dynptr_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	const struct gen_program *p = r->p;
	bool call = has_call(p, 0, BPF_FUNC_dynptr_from_mem) ||
		    has_call(p, 0, BPF_FUNC_ringbuf_reserve_dynptr), safe;
	struct scev_verdict v;

	c->calls[r->twin] += call;
	c->shaped[r->twin] += has_call(p, 0, BPF_FUNC_ringbuf_reserve_dynptr);
	CHECK(!(p->flags & GEN_PROG_DYNPTR_UNSAFE) || (r->twin && call), TW "twin flag without its "
	      "knob or its call", TW_ARGS(r));
	judge_twin(c, r, &(struct twin_judge){ GEN_PROG_DYNPTR_UNSAFE, call,
					       TRAPS(INTERP_TRAP_MEM) | TRAPS(INTERP_TRAP_REF) },
		   &v, &safe);
}

static void test_dynptr_knobs(void)
{
	static const struct twin_spec s = { { "p_dynptr", "p_dynptr_unsafe" }, 60, 4400000, 60 };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, dynptr_program, &c);
	CHECK(c.calls[0] > 40 && c.flagged[1] > 40, "p_dynptr: %u safe forms and %u twins of 60 "
	      "make a dynptr", c.calls[0], c.flagged[1]);
	CHECK(c.shaped[0] > 10, "p_dynptr: %u of 60 programs reserve a ringbuf dynptr", c.shaped[0]);
	CHECK(c.safe > c.calls[0] * 3 / 4, "p_dynptr: %u of %u safe forms verified safe", c.safe,
	      c.calls[0]);
	CHECK(c.traps > 10, "p_dynptr_unsafe: %u of %u flagged programs trap", c.traps,
	      c.flagged[1]);
	CHECK(c.dirty[1] > c.flagged[1] * 3 / 4, "p_dynptr_unsafe: %u of %u flagged programs not "
	      "called safe", c.dirty[1], c.flagged[1]);
	printf("p_dynptr: %u of 60 programs make a dynptr, %u a ringbuf one; %u safe forms verified "
	       "safe; p_dynptr_unsafe: %u flagged, %u trap, %u not called safe\n", c.calls[0],
	       c.shaped[0], c.safe, c.flagged[1], c.traps, c.dirty[1]);
}

static bool twin_kernel_report(const struct twin_run *r, struct verdict_report *rep);

/* p_dynptr_kf and its unsafe twin p_dynptr_kf_unsafe (gen_dynptr.c gi_dynptr_kf): the dynptr
 * kfuncs on an xdp dynptr (slices in a loop, adjust, clone).  Judged by the verdict (most safe
 * forms called safe, no flagged twin), by the interpreter (no safe form's run traps:
 * check_program and judge_twin; the twins reading past a slice or without its NULL test trap on
 * memory, the clone read after its original's discard on the reference) and by the kernel on
 * the first 25 of each where bpf() works: it refuses every twin and accepts every safe form
 * bpfscev calls safe. */
static void dynptr_kf_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	const struct gen_program *p = r->p;
	bool call = has_call(p, BPF_PSEUDO_KFUNC_CALL, -1), safe;
	struct verdict_report rep;
	struct scev_verdict v;

	c->calls[r->twin] += call;
	CHECK(!(p->flags & GEN_PROG_DYNPTR_UNSAFE) || (r->twin && call), TW "twin flag without its "
	      "knob or its call", TW_ARGS(r));
	judge_twin(c, r, &(struct twin_judge){ GEN_PROG_DYNPTR_UNSAFE, call,
					       TRAPS(INTERP_TRAP_MEM) | TRAPS(INTERP_TRAP_REF) },
		   &v, &safe);
	if (!call || c->seen[r->twin]++ >= 25 || !twin_kernel_report(r, &rep))
		return;
	c->loaded[r->twin]++;
	c->refused[r->twin] += !rep.kernel_accepted;
	/* (a safe form the kernel refuses only at one of its limits: an improvement) */
	CHECK(r->twin ? !rep.kernel_accepted
		      : !safe || rep.kernel_accepted || rep.cls == VC_IMPROVEMENT,
	      TW "the kernel %s (bpfscev: %s, %s): %s", TW_ARGS(r),
	      rep.kernel_accepted ? "accepts" : "refuses", scev_verdict_name(v.kind),
	      verdict_class_name(rep.cls), rep.kernel_accepted ? "" : rep.kernel_message);
	verdict_report__free(&rep);
}

static void test_dynptr_kf_knobs(void)
{
	static const struct twin_spec s = { { "p_dynptr_kf", "p_dynptr_kf_unsafe" }, 100, 7800000,
					    60, { { "p_recursion", 0 }, { "p_call_chain", 0 },
						  { "p_big_frame", 0 } } };
	struct twin_counts c = { 0 };

	if (ebpf_kfunc_by_name("bpf_dynptr_from_xdp") <= 0) {
		check_skip_part("p_dynptr_kf: no vmlinux BTF naming the dynptr kfuncs");
		return;
	}
	for_twin_programs(&s, dynptr_kf_program, &c);
	printf("p_dynptr_kf: %u of 60 call the kfuncs, %u called safe, the kernel refuses %u of %u; "
	       "p_dynptr_kf_unsafe: %u flagged, %u trap, %u not called safe, the kernel refuses %u "
	       "of %u\n", c.calls[0], c.safe, c.refused[0], c.loaded[0], c.flagged[1], c.traps,
	       c.dirty[1], c.refused[1], c.loaded[1]);
	CHECK(c.calls[0] > 50 && c.flagged[1] > 50, "p_dynptr_kf: %u safe forms and %u twins of 60",
	      c.calls[0], c.flagged[1]);
	CHECK(c.safe > c.calls[0] * 3 / 4, "p_dynptr_kf: %u of %u safe forms verified safe", c.safe,
	      c.calls[0]);
	CHECK(c.traps > c.flagged[1] / 2, "p_dynptr_kf_unsafe: %u of %u flagged programs trap",
	      c.traps, c.flagged[1]);
	CHECK(c.dirty[1] == c.flagged[1], "p_dynptr_kf_unsafe: %u of %u flagged programs not "
	      "called safe", c.dirty[1], c.flagged[1]);
	if (!c.loaded[0])
		check_skip_part("p_dynptr_kf: the kernel's verdicts (bpf() refused)");
}

/* Whether a dynptr helper (from_mem .. data) is called outside main (funcs[0]). */
static bool sub_dynptr_call(const struct gen_program *p)
{
	for (size_t pc = p->nfuncs > 1 ? p->funcs[1].pc : p->len; pc < p->len; pc++)
		if (p->insns[pc].code == (BPF_JMP | BPF_CALL) && p->insns[pc].src_reg == 0 &&
		    p->insns[pc].imm >= BPF_FUNC_dynptr_from_mem &&
		    p->insns[pc].imm <= BPF_FUNC_dynptr_data)
			return true;
	return false;
}

/* p_dynptr_sub and its unsafe twin p_dynptr_sub_unsafe (gen_dynptr.c): a static subprogram
 * makes or uses a dynptr (main's, given by pointer, or one of its own frame).  The safe form
 * never traps and stays within max_steps (check_program), and bpfscev calls most of its programs
 * safe, none whose run traps; the twin, flagged (f uses main's dynptr after main discarded it,
 * leaves its own ringbuf dynptr unreleased, or loads past a slice at the memory's end), is never
 * called safe, and most of its runs trap (INTERP_TRAP_REF, INTERP_TRAP_MEM). */
static void dynptr_sub_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	const struct gen_program *p = r->p;
	bool call = sub_dynptr_call(p), safe;
	struct scev_verdict v;

	c->calls[r->twin] += call;
	/* (the own-frame form: the subprogram makes the dynptr) */
	for (size_t pc = p->nfuncs > 1 ? p->funcs[1].pc : p->len; pc < p->len; pc++)
		if (p->insns[pc].code == (BPF_JMP | BPF_CALL) && p->insns[pc].src_reg == 0 &&
		    (p->insns[pc].imm == BPF_FUNC_dynptr_from_mem ||
		     p->insns[pc].imm == BPF_FUNC_ringbuf_reserve_dynptr)) {
			c->shaped[r->twin]++;
			break;
		}
	CHECK(!(p->flags & GEN_PROG_DYNPTR_UNSAFE) || (r->twin && call), TW "twin flag without its "
	      "knob or its call", TW_ARGS(r));
	if (judge_twin(c, r, &(struct twin_judge){ GEN_PROG_DYNPTR_UNSAFE, call,
						   TRAPS(INTERP_TRAP_MEM) | TRAPS(INTERP_TRAP_REF) },
		       &v, &safe))
		CHECK(!r->twin || !(p->flags & GEN_PROG_DYNPTR_UNSAFE) || !safe, TW "the twin called "
		      "safe", TW_ARGS(r));
}

static void test_dynptr_sub_knobs(void)
{
	static const struct twin_spec s = { { "p_dynptr_sub", "p_dynptr_sub_unsafe" }, 100, 5960000,
					    60 };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, dynptr_sub_program, &c);
	CHECK(c.calls[0] > 50 && c.flagged[1] > 50, "p_dynptr_sub: %u safe forms and %u twins of 60 "
	      "call a dynptr helper in a subprogram", c.calls[0], c.flagged[1]);
	CHECK(c.shaped[0] > 10, "p_dynptr_sub: %u of 60 subprograms make their own dynptr",
	      c.shaped[0]);
	CHECK(c.safe > c.calls[0] * 3 / 4, "p_dynptr_sub: %u of %u safe forms verified safe", c.safe,
	      c.calls[0]);
	CHECK(c.traps > c.flagged[1] * 3 / 4, "p_dynptr_sub_unsafe: %u of %u flagged programs trap",
	      c.traps, c.flagged[1]);
	CHECK(c.dirty[1] == c.flagged[1], "p_dynptr_sub_unsafe: %u of %u flagged programs not "
	      "called safe", c.dirty[1], c.flagged[1]);
	printf("p_dynptr_sub: %u of 60 programs call a dynptr helper in a subprogram, %u make one "
	       "there; %u safe forms verified safe; p_dynptr_sub_unsafe: %u flagged, %u trap, %u not "
	       "called safe\n", c.calls[0], c.shaped[0], c.safe, c.flagged[1], c.traps, c.dirty[1]);
}

/* p_dynptr_sub_make and its unsafe twin p_dynptr_sub_make_unsafe (gen_dynptr.c): a static
 * subprogram makes main's dynptr (main releases it) or releases main's record.  Judged as
 * p_dynptr_sub's forms (dynptr_sub_program): the twin (main leaks the record f reserved, f
 * reserves over main's live one, main uses or releases again the one f released) is never called
 * safe and most of its runs trap (INTERP_TRAP_REF). */
static void test_dynptr_sub_make_knobs(void)
{
	static const struct twin_spec s = { { "p_dynptr_sub_make", "p_dynptr_sub_make_unsafe" }, 100,
					    6010000, 60 };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, dynptr_sub_program, &c);
	CHECK(c.calls[0] > 50 && c.flagged[1] > 50, "p_dynptr_sub_make: %u safe forms and %u twins "
	      "of 60 call a dynptr helper in a subprogram", c.calls[0], c.flagged[1]);
	CHECK(c.shaped[0] > 10 && c.shaped[0] < c.calls[0], "p_dynptr_sub_make: %u of %u "
	      "subprograms make main's dynptr (the others release it)", c.shaped[0], c.calls[0]);
	CHECK(c.safe > c.calls[0] * 3 / 4, "p_dynptr_sub_make: %u of %u safe forms verified safe",
	      c.safe, c.calls[0]);
	CHECK(c.traps > c.flagged[1] * 3 / 4, "p_dynptr_sub_make_unsafe: %u of %u flagged programs "
	      "trap", c.traps, c.flagged[1]);
	CHECK(c.dirty[1] == c.flagged[1], "p_dynptr_sub_make_unsafe: %u of %u flagged programs not "
	      "called safe", c.dirty[1], c.flagged[1]);
	printf("p_dynptr_sub_make: %u of 60 programs call a dynptr helper in a subprogram, %u make "
	       "main's there; %u safe forms verified safe; p_dynptr_sub_make_unsafe: %u flagged, %u "
	       "trap, %u not called safe\n", c.calls[0], c.shaped[0], c.safe, c.flagged[1], c.traps,
	       c.dirty[1]);
}

/* p_dynptr_cb and its unsafe twin p_dynptr_cb_unsafe (gen_dynptr.c): a bpf_loop callback uses
 * main's dynptr through its context pointer.  Judged as p_dynptr_sub's forms
 * (dynptr_sub_program): the twin (main discards its record before bpf_loop, or the callback
 * loads past a slice) is never called safe and most of its runs trap. */
static void test_dynptr_cb_knobs(void)
{
	static const struct twin_spec s = { { "p_dynptr_cb", "p_dynptr_cb_unsafe" }, 100, 6020000,
					    60 };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, dynptr_sub_program, &c);
	CHECK(c.calls[0] > 50 && c.flagged[1] > 50, "p_dynptr_cb: %u safe forms and %u twins of 60 "
	      "call a dynptr helper in a callback", c.calls[0], c.flagged[1]);
	CHECK(c.safe > c.calls[0] * 3 / 4, "p_dynptr_cb: %u of %u safe forms verified safe", c.safe,
	      c.calls[0]);
	CHECK(c.traps > c.flagged[1] * 3 / 4, "p_dynptr_cb_unsafe: %u of %u flagged programs trap",
	      c.traps, c.flagged[1]);
	CHECK(c.dirty[1] == c.flagged[1], "p_dynptr_cb_unsafe: %u of %u flagged programs not called "
	      "safe", c.dirty[1], c.flagged[1]);
	printf("p_dynptr_cb: %u of 60 programs call a dynptr helper in a callback; %u safe forms "
	       "verified safe; p_dynptr_cb_unsafe: %u flagged, %u trap, %u not called safe\n",
	       c.calls[0], c.safe, c.flagged[1], c.traps, c.dirty[1]);
}

/* p_dynptr_deep, p_dynptr_cb_make, p_dynptr_keyed, p_dynptr_mid and p_dynptr_global, with their
 * unsafe twins (gen_dynptr.c): main's dynptr handed two levels down through a relay, used, made
 * or released there; a bpf_loop callback making or releasing main's dynptr through its context
 * pointer; a subprogram making or releasing it on some paths, saying so by its result; a relay
 * holding a record of its own; a global function using it.  Judged as p_dynptr_sub's forms
 * (dynptr_sub_program): the twins (a released record read, a made one leaked, a read past a
 * slice; a callback that only discards main's record or leaves one it reserved there, so its
 * second call fails; the other side of the result's test; the relay's record left) are never
 * called safe and most of their runs trap. */
static void dynptr_twin_knobs_with(const char *knob, const char *twin, uint64_t seed, int make,
				   const char *also,
				   void (*judge)(void *arg, const struct twin_run *r))
{
	const struct twin_spec s = { { knob, twin }, 100, seed, 60, { { also, 100 } } };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, judge, &c);
	CHECK(c.calls[0] > 50 && c.flagged[1] > 50, "%s: %u safe forms and %u twins of 60 call a "
	      "dynptr helper in a subprogram", knob, c.calls[0], c.flagged[1]);
	/* (make: 1 every subprogram makes a dynptr, 0 some, -1 none) */
	CHECK(make < 0 ? c.shaped[0] == 0 : c.shaped[0] > 10 && (make ? c.shaped[0] == c.calls[0]
								     : c.shaped[0] < c.calls[0]),
	      "%s: %u of %u subprograms make main's dynptr", knob, c.shaped[0], c.calls[0]);
	CHECK(c.safe > c.calls[0] * 3 / 4, "%s: %u of %u safe forms verified safe", knob, c.safe,
	      c.calls[0]);
	CHECK(c.traps > c.flagged[1] * 3 / 4, "%s: %u of %u flagged programs trap", twin, c.traps,
	      c.flagged[1]);
	CHECK(c.dirty[1] == c.flagged[1], "%s: %u of %u flagged programs not called safe", twin,
	      c.dirty[1], c.flagged[1]);
	printf("%s%s%s: %u of 60 programs call a dynptr helper in a subprogram, %u make main's "
	       "there; %u safe forms verified safe; %s: %u flagged, %u trap, %u not called safe\n",
	       knob, also ? " with " : "", also ? also : "", c.calls[0], c.shaped[0], c.safe, twin,
	       c.flagged[1], c.traps, c.dirty[1]);
}

static void dynptr_twin_knobs(const char *knob, const char *twin, uint64_t seed, int make)
{
	dynptr_twin_knobs_with(knob, twin, seed, make, NULL, dynptr_sub_program);
}

static bool kernel_judge(const struct twin_run *r, bool limit_ok, unsigned loaded[2],
			 unsigned refused[2]);

/* p_dynptr_keyed with p_dynptr_keyed_test (main tests f's result signed, `if w0 s< 0`, or on a
 * copy, `r6 = r0; if w6 != 0`): judged as dynptr_twin_knobs's forms, and by the kernel on the
 * first 20 of each form: it accepts every safe form bpfscev calls safe (or refuses it for one of
 * its limits only) and refuses every twin.  With scev at c0e58dd (its result seeded, so the
 * signed test tells the sides; no copy in the guard) 18 of 60 safe forms are called safe (the
 * copy forms unsupported), under the 3/4 asked; with it 57. */
static void dynptr_keyed_test_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	unsigned refused[2];

	dynptr_sub_program(arg, r);
	if (r->seed < 6090000 + 20)
		kernel_judge(r, true, c->loaded, refused);
}

/* The dynptr call pieces in a big-frame chain (p_big_frame=100): main's dynptr at GEN_FP_DYNPTR
 * is reached only through r10 + off moved into a register (a helper's or a subprogram's
 * argument), so a frame size counted from r10-based accesses alone misses it, and a chain the
 * generator calls within 512 bytes passes the kernel's limit.  Judged by the analyzer's own
 * count (scev_verdict's frame[], max_stack; the kernel's agrees, bpfscev verify --kernel): no
 * function's frame is deeper than the generator says, and no program the generator calls
 * within the kernel's limits is refused for its combined stack. */
static void test_dynptr_frames(void)
{
	static const char *const knobs[] = { "p_dynptr_sub", "p_dynptr_sub_make", "p_dynptr_cb",
					     "p_dynptr_deep", "p_dynptr_cb_make", "p_dynptr_keyed",
					     "p_dynptr_mid", "p_dynptr_global" };
	struct gen_program p = { 0 };

	for (size_t j = 0; j < sizeof(knobs) / sizeof(knobs[0]); j++) {
		struct gen_knobs k = gen_knobs_default();
		unsigned fits = 0, at512 = 0, judged = 0, refused = 0, deeper = 0;

		CHECK(!gen_knobs_set(&k, knobs[j], 100) && !gen_knobs_set(&k, "p_big_frame", 100),
		      "set %s", knobs[j]);
		for (uint64_t seed = 0; seed < 60; seed++) {
			struct gen_src src;
			struct scev_verdict v;
			struct ebpf_prog view;
			struct diag d;
			bool fit;

			gen_src_init_seed(&src, 6030000 + 1000 * (uint64_t)j + seed);
			if (gen_program(&p, &src, &k)) {
				CHECK(0, "%s seed %llu: gen_program failed", knobs[j],
				      (unsigned long long)seed);
				continue;
			}
			fit = !(p.flags & GEN_PROG_CALLS_UNSAFE);
			fits += fit;
			at512 += fit && p.max_stack == GEN_MAX_STACK;
			gen_program__prog(&p, &view, "g");
			diag_clear(&d);
			if (scev_verify(&v, NULL, &view, p.maps, p.map_cnt, NULL, &d))
				continue;
			for (uint32_t f = 0; f < v.nframes && f < p.nfuncs; f++) {
				judged++;
				deeper += v.frame[f] > p.funcs[f].frame;
				CHECK(v.frame[f] <= p.funcs[f].frame, "%s seed %llu function %u: frame "
				      "%u, the analyzer counts %u", knobs[j], (unsigned long long)seed,
				      f, p.funcs[f].frame, v.frame[f]);
			}
			refused += fit && strstr(v.reason, "combined stack") != NULL;
			CHECK(!fit || !strstr(v.reason, "combined stack"), "%s seed %llu: combined "
			      "stack %u within the limit, the analyzer: %s", knobs[j],
			      (unsigned long long)seed, p.max_stack, v.reason);
		}
		CHECK(fits > 20 && at512 > 10 && judged > 200, "%s with p_big_frame: %u of 60 within "
		      "the limits, %u at 512 bytes; %u frames judged", knobs[j], fits, at512, judged);
		printf("%s with p_big_frame=100: %u of 60 within the limits (%u at 512 bytes), %u "
		       "refused for their stack; %u frames judged, %u deeper than counted\n", knobs[j],
		       fits, at512, refused, judged, deeper);
	}
	gen_program__free(&p);
}

/* p_timer and its unsafe twin p_timer_unsafe: both arm a timer of the timer map (map 3, maps
 * 0-2 defined beside it, the timer at GEN_TIMER_OFF); the safe form never traps and stays within
 * max_steps (check_program), and bpfscev calls most safe forms safe (never a timer rule's
 * refusal); the twin, flagged, is mostly not called safe (never when its run traps), and its
 * runs trap at bpf_timer_init (INTERP_TRAP_HELPER) when the pointer is off the timer or the map
 * is another (a callback returning 1 no run shows: the timer calls it later).  The callbacks
 * the safe forms set are fired by some run (timer_fires): their cancels and refused start flags
 * hang on an input bit, so the claims in them are judged (c->bad counts the callbacks whose
 * bpf_timer_set_callback some run reaches, c->dirty[0] those of them no run fires). */
/* The bpf_timer_set_callback calls of p that a run reaches (the function loaded into R2 right
 * before it: the callback), added to *set, and those whose callback no run fires to *unfired
 * (runs on the program's own input, on all-zero and on all-one bytes; a program with a run that
 * traps, which fires nothing, left out). */
static void timer_fires(const struct twin_run *r, unsigned *set, unsigned *unfired)
{
	const struct gen_program *p = r->p;
	uint8_t in[GEN_INPUT_LEN];
	bool ended = true;

	memset(cb_seen, 0, sizeof(cb_seen));
	for (size_t pc = 0; pc + 2 < p->len; pc++)
		if (p->insns[pc].code == (BPF_LD | BPF_IMM | BPF_DW) &&
		    p->insns[pc].src_reg == BPF_PSEUDO_FUNC &&
		    p->insns[pc + 2].code == (BPF_JMP | BPF_CALL) &&
		    p->insns[pc + 2].src_reg == 0 &&
		    p->insns[pc + 2].imm == BPF_FUNC_timer_set_callback &&
		    pc + 1 + (uint32_t)p->insns[pc].imm < p->len)
			cb_watch[pc + 1 + (uint32_t)p->insns[pc].imm] = cb_watch[pc + 2] = 1;
	ended = !trapped(twin_trap(r, NULL));
	for (int k = 0; k < 2; k++) {
		memset(in, k ? 0xff : 0, sizeof(in));
		ended = !trapped(twin_trap(r, in)) && ended;
	}
	for (size_t pc = 0; ended && pc + 2 < p->len; pc++)
		if (cb_watch[pc + 2] && cb_seen[pc + 2] &&
		    p->insns[pc].code == (BPF_LD | BPF_IMM | BPF_DW) &&
		    p->insns[pc].src_reg == BPF_PSEUDO_FUNC) {
			(*set)++;
			*unfired += !cb_seen[pc + 1 + (uint32_t)p->insns[pc].imm];
		}
	memset(cb_watch, 0, sizeof(cb_watch));
}

static void timer_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	const struct gen_program *p = r->p;
	bool call = has_call(p, 0, BPF_FUNC_timer_set_callback), safe;
	struct scev_verdict v;

	c->calls[r->twin] += call;
	CHECK(!call || (p->map_cnt == GEN_MAP_TIMER + 1 &&
			p->maps[GEN_MAP_TIMER].type == BPF_MAP_TYPE_ARRAY &&
			p->maps[GEN_MAP_TIMER].timer == GEN_TIMER_OFF + 1), TW "a timer without its "
	      "map", TW_ARGS(r));
	CHECK(!(p->flags & GEN_PROG_TIMER_UNSAFE) || (r->twin && call), TW "twin flag without its "
	      "knob or its call", TW_ARGS(r));
	c->shaped[r->twin] += has_call(p, 0, BPF_FUNC_timer_cancel);
	/* (the other statements' reasons are theirs: recursion, loops not bounded) */
	if (judge_twin(c, r, &(struct twin_judge){ GEN_PROG_TIMER_UNSAFE, call,
						   TRAPS(INTERP_TRAP_HELPER) }, &v, &safe))
		CHECK(r->twin || !call || safe || (!strstr(v.reason, "timer") &&
						   !strstr(v.reason, "async")),
		      TW "a safe form not called safe: %s", TW_ARGS(r), v.reason);
	if (!r->twin && call)
		timer_fires(r, &c->bad, &c->dirty[0]);
}

static void test_timer_knobs(void)
{
	static const struct twin_spec s = { { "p_timer", "p_timer_unsafe" }, 60, 3800000, 60 };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, timer_program, &c);
	CHECK(c.calls[0] > 20 && c.calls[1] > 20, "p_timer: %u and %u of 60 programs arm a timer",
	      c.calls[0], c.calls[1]);
	CHECK(c.shaped[0] > 5, "p_timer: %u of 60 programs cancel it", c.shaped[0]);
	CHECK(c.safe > c.calls[0] * 3 / 4, "p_timer: %u of %u safe forms verified safe", c.safe,
	      c.calls[0]);
	CHECK(c.traps > 5, "p_timer_unsafe: %u of %u flagged programs trap", c.traps, c.flagged[1]);
	CHECK(c.dirty[1] > c.flagged[1] * 3 / 4, "p_timer_unsafe: %u of %u flagged programs not "
	      "called safe", c.dirty[1], c.flagged[1]);
	CHECK(c.dirty[0] * 10 < c.bad, "p_timer: %u of the %u callbacks the safe forms' runs set "
	      "fired by no run", c.dirty[0], c.bad);
	printf("p_timer: %u and %u of 60 programs arm a timer; %u cancel it; %u safe forms "
	       "verified safe, %u of the %u callbacks their runs set fired by no run; "
	       "p_timer_unsafe: %u flagged, %u trap, %u not called safe\n", c.calls[0],
	       c.calls[1], c.shaped[0], c.safe, c.dirty[0], c.bad, c.flagged[1], c.traps,
	       c.dirty[1]);
}

/* p_timer_two and its unsafe twin p_timer_two_past: a statement arms the timers of map 3 (32-byte
 * values) and map 4 (48-byte values, GEN_MAP_TIMER2) with one callback.  The safe form never
 * traps and stays within max_steps (check_program), and bpfscev calls most of them safe (a copy
 * of the callback per map, absint_timer_plan; never a timer rule's refusal); the twin's callback
 * writes bytes only map 4's values have: flagged, never called safe, and its runs trap in the
 * firing of map 3's timer (INTERP_TRAP_MEM) when it is armed (check_program allows that trap
 * to the flag only). */
static void timer_two_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	const struct gen_program *p = r->p;
	bool two = p->map_cnt == GEN_MAP_TIMER2 + 1, safe;
	struct scev_verdict v;

	c->calls[r->twin] += two;
	CHECK(!two || (p->maps[GEN_MAP_TIMER2].timer == GEN_TIMER_OFF + 1 &&
		       p->maps[GEN_MAP_TIMER2].value_size == GEN_TIMER2_VALUE &&
		       p->maps[GEN_MAP_TIMER].value_size != GEN_TIMER2_VALUE), TW "map 4 is not "
	      "the second timer map", TW_ARGS(r));
	CHECK(!(p->flags & GEN_PROG_TIMER_TWO_UNSAFE) || (r->twin && two), TW "twin flag without "
	      "its knob or map 4", TW_ARGS(r));
	if (judge_twin(c, r, &(struct twin_judge){ GEN_PROG_TIMER_TWO_UNSAFE, two,
						   TRAPS(INTERP_TRAP_MEM), true }, &v, &safe)) {
		CHECK(r->twin || !two || safe || (!strstr(v.reason, "timer") &&
						  !strstr(v.reason, "async")),
		      TW "a safe form not called safe: %s", TW_ARGS(r), v.reason);
		CHECK(!(p->flags & GEN_PROG_TIMER_TWO_UNSAFE) || !safe, TW "the twin called safe",
		      TW_ARGS(r));
	}
}

static void test_timer_two_knobs(void)
{
	static const struct twin_spec s = { { "p_timer_two", "p_timer_two_past" }, 60, 3900000,
					    60 };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, timer_two_program, &c);
	CHECK(c.calls[0] > 20 && c.calls[1] > 20, "p_timer_two: %u and %u of 60 programs arm "
	      "map 4's timer", c.calls[0], c.calls[1]);
	CHECK(c.safe > c.calls[0] * 3 / 4, "p_timer_two: %u of %u safe forms verified safe",
	      c.safe, c.calls[0]);
	CHECK(c.traps > 5, "p_timer_two_past: %u of %u flagged programs trap", c.traps,
	      c.flagged[1]);
	CHECK(c.dirty[1] == c.flagged[1], "p_timer_two_past: %u of %u flagged programs not called "
	      "safe", c.dirty[1], c.flagged[1]);
	printf("p_timer_two: %u and %u of 60 programs arm map 4's timer; %u safe forms verified "
	       "safe; p_timer_two_past: %u flagged, %u trap, %u not called safe\n", c.calls[0],
	       c.calls[1], c.safe, c.flagged[1], c.traps, c.dirty[1]);
}

/* p_find_vma and its unsafe twin p_find_vma_unsafe: both make a raw tracepoint calling
 * bpf_find_vma(bpf_get_current_task_btf(), ...) with a callback of its own; the safe form never
 * traps and stays within max_steps (check_program, two inputs, the helper's outcome drawn from
 * the helper data) and bpfscev calls most safe forms safe (never for a find_vma rule); no twin
 * (flagged: its statement is in main's straight line, verified whatever the runs find) is
 * called safe, and the runs of the twins that read or write memory they may not trap
 * (INTERP_TRAP_MEM) once the helper data says the vma is found. */
static void vma_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	const struct gen_program *p = r->p;
	bool call = has_call(p, 0, BPF_FUNC_find_vma), flagged = p->flags & GEN_PROG_VMA_UNSAFE;
	struct gen_program q = *p;
	struct twin_run rq = *r;
	struct scev_verdict v;
	bool safe;

	c->calls[r->twin] += call;
	CHECK(p->prog_type == BPF_PROG_TYPE_RAW_TRACEPOINT && call &&
	      has_call(p, 0, BPF_FUNC_get_current_task_btf), TW "not a raw tracepoint calling "
	      "bpf_find_vma", TW_ARGS(r));
	CHECK(!flagged || r->twin, TW "twin flag without its knob", TW_ARGS(r));
	/* (the twins run with every call finding its vma: the helper data's bytes all odd) */
	memset(q.helper_data, 1, sizeof(q.helper_data));
	rq.p = &q;
	/* (every safe form calls bpf_find_vma, checked above: counted as making the call) */
	if (judge_twin(c, r, &(struct twin_judge){ GEN_PROG_VMA_UNSAFE, true,
						   TRAPS(INTERP_TRAP_MEM) | TRAPS(INTERP_TRAP_LIMIT),
						   false, &rq }, &v, &safe)) {
		CHECK(r->twin || safe || (!strstr(v.reason, "find_vma") &&
					  !strstr(v.reason, "task") && !strstr(v.reason, "vm_area")),
		      TW "a safe form not called safe: %s", TW_ARGS(r), v.reason);
		CHECK(!flagged || !safe, TW "a twin called safe", TW_ARGS(r));
	}
}

static void test_find_vma_knobs(void)
{
	static const struct twin_spec s = { { "p_find_vma", "p_find_vma_unsafe" }, 100, 4100000,
					    60 };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, vma_program, &c);
	CHECK(c.calls[0] == 60 && c.calls[1] == 60, "p_find_vma: %u and %u of 60 programs call "
	      "bpf_find_vma", c.calls[0], c.calls[1]);
	CHECK(c.safe > c.calls[0] * 3 / 4, "p_find_vma: %u of %u safe forms verified safe", c.safe,
	      c.calls[0]);
	CHECK(c.flagged[1] == 60 && c.dirty[1] == c.flagged[1], "p_find_vma_unsafe: %u of %u "
	      "flagged programs not called safe", c.dirty[1], c.flagged[1]);
	CHECK(c.traps > 20, "p_find_vma_unsafe: %u of %u flagged programs trap", c.traps,
	      c.flagged[1]);
	printf("p_find_vma: %u and %u of 60 programs call bpf_find_vma; %u safe forms verified "
	       "safe; p_find_vma_unsafe: %u flagged, %u trap, %u not called safe\n", c.calls[0],
	       c.calls[1], c.safe, c.flagged[1], c.traps, c.dirty[1]);
}

/* p_ptr_alu and its unsafe twin p_ptr_alu_bad: a statement of main puts pointers through ALU
 * instructions; the safe forms (what the kernel accepts of a privileged loader) never trap and
 * are called safe, never for a pointer rule; every twin (flagged) is not called safe, most for
 * the kernel's own words ("prohibited", "not allowed"), and its runs do not trap either (the
 * forms are arithmetic: only the verifier refuses them). */
static bool has_fp_alu(const struct gen_program *p)
{
	for (size_t pc = 0; pc < p->len; pc++) {
		uint8_t cls = BPF_CLASS(p->insns[pc].code), op = BPF_OP(p->insns[pc].code);

		if ((cls == BPF_ALU || cls == BPF_ALU64) && op != BPF_MOV &&
		    BPF_SRC(p->insns[pc].code) == BPF_X && p->insns[pc].src_reg == EBPF_REG_FP)
			return true;
		if (cls == BPF_ALU64 && op == BPF_MOV && p->insns[pc].src_reg == EBPF_REG_FP &&
		    pc + 1 < p->len && p->insns[pc + 1].dst_reg == p->insns[pc].dst_reg &&
		    BPF_CLASS(p->insns[pc + 1].code) != BPF_STX &&
		    BPF_CLASS(p->insns[pc + 1].code) != BPF_LDX &&
		    BPF_OP(p->insns[pc + 1].code) != BPF_MOV)
			return true;
	}
	return false;
}

/* One program of a twin-knob test: counted (formed, flagged), its runs checked, its verdict held
 * to the rule: a flagged twin is never called safe.  With `words`, the forms are ones only the
 * verifier refuses (no run traps, twins included): a safe form is not refused for the rule's
 * words (safe1, safe2), and a twin is counted in dirty[1] when refused for them (twin1, twin2).
 * Without, a twin's runs may trap (memory traps counted in traps). */
static void verifier_twin(struct twin_counts *c, const struct twin_run *r, bool formed,
			  bool flagged, const char *const words[4])
{
	const struct gen_program *p = r->p;
	struct scev_verdict v;
	enum interp_trap t;

	c->calls[r->twin] += formed;
	c->flagged[r->twin] += flagged;
	CHECK(!flagged || r->twin, TW "twin flag without its knob", TW_ARGS(r));
	if (!formed)
		return;
	t = twin_trap(r, NULL);
	c->traps += !words && r->twin && t == INTERP_TRAP_MEM;
	CHECK((!words && r->twin) || t == INTERP_OK || t == INTERP_TRAP_STEPS ||
	      (t == INTERP_TRAP_LIMIT && (p->flags & GEN_PROG_CALL_TRAP)), TW "a run traps (%d)",
	      TW_ARGS(r), t);
	if (!twin_verdict(r, &v))
		return;
	if (!r->twin) {
		c->safe += v.kind == VERDICT_SAFE;
		if (words)
			CHECK(!strstr(v.reason, words[0]) && !strstr(v.reason, words[1]),
			      TW "a safe form refused: %s", TW_ARGS(r), v.reason);
	} else if (flagged) {
		CHECK(v.kind != VERDICT_SAFE, TW "a twin called safe", TW_ARGS(r));
		c->dirty[1] += words && (strstr(v.reason, words[2]) || strstr(v.reason, words[3]));
	}
}

static void ptr_alu_program(void *arg, const struct twin_run *r)
{
	static const char *const words[4] = { "prohibited", "is not allowed", "prohibited",
					      "not allowed" };
	bool flagged = r->p->flags & GEN_PROG_PTR_ALU_UNSAFE;

	verifier_twin(arg, r, has_fp_alu(r->p) || flagged, flagged, words);
}

/* A pair of knobs judged by verifier_twin: enough safe forms and twins drawn, most safe forms
 * verified safe, most twins refused for the rule (`rule` names it in the messages). */
static void verifier_twin_knobs(const struct twin_spec *s,
				void (*fn)(void *arg, const struct twin_run *r), const char *rule)
{
	struct twin_counts c = { 0 };

	for_twin_programs(s, fn, &c);
	CHECK(c.calls[0] > 40 && c.flagged[1] > 40, "%s: %u safe forms, %u twins of %u", s->knob[0],
	      c.calls[0], c.flagged[1], s->n);
	CHECK(c.safe > c.calls[0] * 3 / 4, "%s: %u of %u safe forms verified safe", s->knob[0],
	      c.safe, c.calls[0]);
	CHECK(c.dirty[1] > c.flagged[1] * 3 / 4, "%s: %u of %u twins refused for %s", s->knob[1],
	      c.dirty[1], c.flagged[1], rule);
	printf("%s: %u safe forms, %u verified safe; %s: %u twins, %u refused for %s\n", s->knob[0],
	       c.calls[0], c.safe, s->knob[1], c.flagged[1], c.dirty[1], rule);
}

static void test_ptr_alu_knobs(void)
{
	static const struct twin_spec s = { { "p_ptr_alu", "p_ptr_alu_bad" }, 100, 3900000, 60 };

	verifier_twin_knobs(&s, ptr_alu_program, "the pointer rule");
}

/* p_map_field and its unsafe twin p_map_field_bad: a statement of main uses the fields map (map
 * 5: a spin lock at 4, a __kptr_untrusted at 8).  The safe forms never trap and are called safe,
 * never for a field's rule; every twin (flagged) is not called safe, most for the kernel's words
 * ("cannot be accessed directly", "kptr"), and does not trap either (its accesses stay inside
 * the value; no run reads through the kptr, which is NULL or a number no safe form follows). */
static void map_field_program(void *arg, const struct twin_run *r)
{
	static const char *const words[4] = { "cannot be accessed", "kptr",
					      "cannot be accessed directly", "kptr" };
	const struct gen_program *p = r->p;
	bool formed = p->map_cnt == GEN_MAP_FIELDS + 1;

	CHECK(!formed || (p->maps[GEN_MAP_FIELDS].nfields == 2 &&
			  p->maps[GEN_MAP_FIELDS].fields[0].kind == EBPF_FIELD_SPIN_LOCK &&
			  p->maps[GEN_MAP_FIELDS].fields[1].kind == EBPF_FIELD_KPTR_UNREF),
	      TW "the fields map lacks its fields", TW_ARGS(r));
	verifier_twin(arg, r, formed, p->flags & GEN_PROG_FIELD_UNSAFE, words);
}

static void test_map_field_knobs(void)
{
	static const struct twin_spec s = { { "p_map_field", "p_map_field_bad" }, 100, 4100000, 60 };

	verifier_twin_knobs(&s, map_field_program, "a field's rule");
}

/* p_spin_lock and its unsafe twin p_spin_lock_bad: a statement of main takes the lock of a
 * fields map value (map 5, at 4), updates a word beside it and releases it.  The safe forms
 * called safe never trap (judge_twin), most are called safe, none is refused for a lock's rule;
 * no twin is called safe, most are refused for a lock's rule ("lock" in the reason), and most
 * of their runs trap (a helper or the exit with the lock held: INTERP_TRAP_RULE, _REF; a second
 * lock: _REF; an unlock at offset 0: _HELPER). */
static void spin_lock_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	bool call = has_call(r->p, 0, BPF_FUNC_spin_lock), safe;
	const struct twin_judge j = { GEN_PROG_SPIN_LOCK_UNSAFE, call,
				      TRAPS(INTERP_TRAP_RULE) | TRAPS(INTERP_TRAP_REF) |
					      TRAPS(INTERP_TRAP_HELPER),
				      true, NULL };
	struct scev_verdict v;

	c->calls[r->twin] += call;
	CHECK(!(r->p->flags & GEN_PROG_SPIN_LOCK_UNSAFE) || (r->twin && call),
	      TW "twin flag without its knob or its lock", TW_ARGS(r));
	if (!call || !judge_twin(c, r, &j, &v, &safe))
		return;
	if (!r->twin)
		CHECK(!strstr(v.reason, "lock"), TW "a safe form refused for a lock: %s",
		      TW_ARGS(r), v.reason);
	else if (r->p->flags & GEN_PROG_SPIN_LOCK_UNSAFE)
		c->bad += strstr(v.reason, "lock") != NULL;
}

static void test_spin_lock_knobs(void)
{
	static const struct twin_spec s = { { "p_spin_lock", "p_spin_lock_bad" }, 100, 4150000,
					    40 };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, spin_lock_program, &c);
	CHECK(c.calls[0] > 30 && c.flagged[1] > 30, "p_spin_lock: %u safe forms, %u twins",
	      c.calls[0], c.flagged[1]);
	CHECK(c.safe > c.calls[0] * 3 / 4, "p_spin_lock: %u of %u safe forms verified safe",
	      c.safe, c.calls[0]);
	CHECK(c.dirty[1] == c.flagged[1], "p_spin_lock_bad: %u of %u twins not called safe",
	      c.dirty[1], c.flagged[1]);
	CHECK(c.bad > c.flagged[1] * 3 / 4, "p_spin_lock_bad: %u of %u twins refused for a lock",
	      c.bad, c.flagged[1]);
	CHECK(c.traps > c.flagged[1] / 2, "p_spin_lock_bad: %u of %u twins' runs trap", c.traps,
	      c.flagged[1]);
	printf("p_spin_lock: %u safe forms, %u verified safe; p_spin_lock_bad: %u twins, %u refused "
	       "for a lock, %u runs trapped\n", c.calls[0], c.safe, c.flagged[1], c.bad, c.traps);
}

/* p_sub_ref and its unsafe twin p_sub_ref_bad (generators/gen_subref.c): a fields map value's
 * spin lock taken and released across static functions (f_lock for main, f_unlock of main's
 * lock, or both).  bpfscev follows the lock through the functions' lock summaries
 * (scev/absint_lock.c; base d996b52: none of them safe, "other functions take or release
 * locks: not modeled").  The safe forms called safe never trap (judge_twin), most are called
 * safe, none refused for a lock's rule; no twin is called safe, most are refused for a lock's
 * rule, and every twin's run traps (the lock held at main's exit, a helper under it, a second
 * lock, an unlock of none).  The kernel judges the first 25 of each where bpf() works: it
 * accepts every safe form called safe (or refuses it at one of its limits) and refuses every
 * twin.  (~2 CPU-seconds under ASan.) */
static void sub_ref_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	bool call = has_call(r->p, 0, BPF_FUNC_spin_lock) || has_call(r->p, 0, BPF_FUNC_spin_unlock);
	const struct twin_judge j = { GEN_PROG_SUB_REF_UNSAFE, call,
				      TRAPS(INTERP_TRAP_RULE) | TRAPS(INTERP_TRAP_REF), true, NULL };
	struct scev_verdict v;
	bool safe;
	unsigned loaded[2] = { 0 }, refused[2] = { 0 };

	c->calls[r->twin] += call;
	CHECK(!(r->p->flags & GEN_PROG_SUB_REF_UNSAFE) || (r->twin && call),
	      TW "twin flag without its knob or its lock", TW_ARGS(r));
	if (!call || !judge_twin(c, r, &j, &v, &safe))
		return;
	if (!r->twin)
		CHECK(!strstr(v.reason, "lock"), TW "a safe form refused for a lock: %s",
		      TW_ARGS(r), v.reason);
	else if (r->p->flags & GEN_PROG_SUB_REF_UNSAFE)
		c->bad += strstr(v.reason, "lock") != NULL;
	if (r->seed < 7600000 + 25)
		kernel_judge(r, false, loaded, refused);
}

static void test_sub_ref_knobs(void)
{
	static const struct twin_spec s = { { "p_sub_ref", "p_sub_ref_bad" }, 100, 7600000, 40 };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, sub_ref_program, &c);
	CHECK(c.calls[0] > 30 && c.flagged[1] > 30, "p_sub_ref: %u safe forms, %u twins",
	      c.calls[0], c.flagged[1]);
	CHECK(c.safe > c.calls[0] * 3 / 4, "p_sub_ref: %u of %u safe forms verified safe", c.safe,
	      c.calls[0]);
	CHECK(c.dirty[1] == c.flagged[1], "p_sub_ref_bad: %u of %u twins not called safe",
	      c.dirty[1], c.flagged[1]);
	CHECK(c.bad > c.flagged[1] * 3 / 4, "p_sub_ref_bad: %u of %u twins refused for a lock",
	      c.bad, c.flagged[1]);
	CHECK(c.traps == c.flagged[1], "p_sub_ref_bad: %u of %u twins' runs trap", c.traps,
	      c.flagged[1]);
	printf("p_sub_ref: %u safe forms, %u verified safe; p_sub_ref_bad: %u twins, %u refused "
	       "for a lock, %u runs trapped\n", c.calls[0], c.safe, c.flagged[1], c.bad, c.traps);
}

/* Whether the program loads a u64 of a map value right after a lookup's null test (the
 * p_map_u64_ptr statement: "if r0 == 0 goto; r3 = *(u64 *)(r0 + k)"). */
static bool has_map_u64_load(const struct gen_program *p)
{
	for (size_t pc = 1; pc < p->len; pc++)
		if (p->insns[pc].code == (BPF_LDX | BPF_MEM | BPF_DW) && p->insns[pc].dst_reg == 3 &&
		    p->insns[pc].src_reg == 0 && p->insns[pc - 1].code == (BPF_JMP | BPF_JEQ | BPF_K) &&
		    p->insns[pc - 1].dst_reg == 0 && p->insns[pc - 1].imm == 0)
			return true;
	return false;
}

/* p_map_u64_ptr and its unsafe twin p_map_u64_ptr_bad: a u64 of a map value added to a pointer.
 * The safe forms (masked, or tested below the value's size, or masked and tested against
 * data_end) never trap and are called safe; every twin (flagged) is not called safe, whatever
 * its runs do (the u64 is 0 in most runs: only the verifier refuses an unbounded one). */
static void map_u64_program(void *arg, const struct twin_run *r)
{
	bool flagged = r->p->flags & GEN_PROG_U64_PTR_UNSAFE;

	verifier_twin(arg, r, has_map_u64_load(r->p), flagged, NULL);
}

static void test_map_u64_knobs(void)
{
	static const struct twin_spec s = { { "p_map_u64_ptr", "p_map_u64_ptr_bad" }, 100, 4200000,
					    60, { { "p_pkt", 50 } } };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, map_u64_program, &c);
	CHECK(c.calls[0] > 40 && c.flagged[1] > 40, "p_map_u64_ptr: %u safe forms, %u twins of 60",
	      c.calls[0], c.flagged[1]);
	CHECK(c.safe > c.calls[0] * 3 / 4, "p_map_u64_ptr: %u of %u safe forms verified safe",
	      c.safe, c.calls[0]);
	printf("p_map_u64_ptr: %u safe forms, %u verified safe; p_map_u64_ptr_bad: %u twins, none "
	       "called safe\n", c.calls[0], c.safe, c.flagged[1]);
}

static void test_urb_knobs(void)
{
	static const struct twin_spec s = { { "p_urb", "p_urb_unsafe" }, 60, 3700000, 60 };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, urb_program, &c);
	CHECK(c.calls[0] > 20 && c.calls[1] > 20, "p_urb: %u and %u of 60 programs drain the user "
	      "ring buffer", c.calls[0], c.calls[1]);
	CHECK(c.shaped[0] > 10, "p_urb: %u of 60 programs call bpf_dynptr_data or bpf_dynptr_write",
	      c.shaped[0]);
	CHECK(c.safe > c.calls[0] / 2, "p_urb: %u of %u safe forms verified safe", c.safe,
	      c.calls[0]);
	CHECK(c.traps > 5, "p_urb_unsafe: %u of %u flagged programs trap", c.traps, c.flagged[1]);
	CHECK(c.dirty[1] > c.flagged[1] / 2, "p_urb_unsafe: %u of %u flagged programs not called "
	      "safe", c.dirty[1], c.flagged[1]);
	printf("p_urb: %u and %u of 60 programs drain; %u call bpf_dynptr_data or _write; %u safe "
	       "forms verified safe; p_urb_unsafe: %u flagged, %u trap, %u not called safe\n",
	       c.calls[0], c.calls[1], c.shaped[0], c.safe, c.flagged[1], c.traps, c.dirty[1]);
}

/* p_global and its unsafe twin p_global_unsafe: the safe form never traps and stays within
 * max_steps (check_program), its global functions' prototypes (ptr:8 int:8 at each one's first
 * pc) survive the text (gen_program__to_asm, read back by the assembler) and bpfscev calls no
 * safe form unsafe for its global function's sake; the twin, flagged, reads through NULL or past
 * the frame on its runs (INTERP_TRAP_MEM) and is never called safe. */
static void global_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	const struct gen_program *p = r->p;
	struct sbuf sb = SBUF_INIT;
	struct ebpf_object *o = NULL;
	struct scev_verdict v;
	const char *text;
	struct diag d;

	c->calls[r->twin] += p->nglobals > 0;
	for (size_t j = 0; j < p->nglobals; j++)
		CHECK(p->globals[j].nargs == 2 && p->globals[j].args[0].size == 8 &&
		      p->globals[j].insn > 0 && p->globals[j].insn < p->len,
		      TW "prototype %zu", TW_ARGS(r), j);
	CHECK(!(p->flags & GEN_PROG_GLOBAL_UNSAFE) || (r->twin && p->nglobals), TW "twin flag "
	      "without its knob or its function", TW_ARGS(r));
	gen_program__to_asm(&sb, p);
	text = strstr(sbuf_cstr(&sb), "-- asm\n");
	diag_clear(&d);
	/* (the "-- asm" section alone: up to the next section, "-- type") */
	if (text && ebpf_object__open_asm(&o, text + 7, text ? (size_t)(strstr(text + 7,
				"\n-- ") - text) - 6 : 0, 1, "g", &d))
		o = NULL;
	CHECK(o, TW "the text does not assemble: %s", TW_ARGS(r), d.msg);
	if (o) {
		CHECK(o->progs[0].global_cnt == p->nglobals &&
		      (!p->nglobals || (o->progs[0].globals[0].insn == p->globals[0].insn &&
				       o->progs[0].globals[0].args[1].kind == EBPF_FARG_INT)),
		      TW "the prototypes read back", TW_ARGS(r));
		ebpf_object__free(o);
	}
	sbuf_free(&sb);
	if (twin_verdict(r, &v)) {
		CHECK(!(p->flags & GEN_PROG_GLOBAL_UNSAFE) || v.kind != VERDICT_SAFE,
		      TW "a flagged twin called safe", TW_ARGS(r));
		CHECK((!strstr(v.reason, "global function's argument") &&
		       !strstr(v.reason, "pointer argument not checked")) ||
		      (p->flags & GEN_PROG_GLOBAL_UNSAFE), TW "%s", TW_ARGS(r), v.reason);
		c->safe += !r->twin && v.kind == VERDICT_SAFE;
	}
	c->flagged[r->twin] += !!(p->flags & GEN_PROG_GLOBAL_UNSAFE);
	if (p->flags & GEN_PROG_GLOBAL_UNSAFE)
		c->traps += twin_trap(r, NULL) == INTERP_TRAP_MEM;
}

static void test_global_knobs(void)
{
	static const struct twin_spec s = { { "p_global", "p_global_unsafe" }, 60, 3600000, 60 };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, global_program, &c);
	CHECK(c.calls[0] > 20 && c.calls[1] > 20, "p_global: %u and %u of 60 programs call a "
	      "global function", c.calls[0], c.calls[1]);
	CHECK(c.traps > 10 && c.traps == c.flagged[1], "p_global_unsafe: %u of %u flagged programs "
	      "trap", c.traps, c.flagged[1]);
	CHECK(c.safe > 20, "p_global: %u of 60 safe forms verified safe", c.safe);
}

/* p_call_pkt and its unsafe twin p_call_pkt_over: the safe form never traps (check_program, two
 * inputs) and bpfscev calls none of them unsafe for a packet access (the callee's read is
 * covered by what every call checked: a false alarm when the range is dropped at the call), the
 * twin, flagged, reads the byte at data_end on every run and is never called safe.  The forms
 * whose callee loads the pointer from main's spill (f(fp - 8)) are called safe when the others
 * are (before, a packet pointer loaded from a caller's frame was unknown: "R1 is not a known
 * pointer"), and so are those whose callee compares data + k with data_end for main's read
 * (before: "packet access ... not proven", the callee's proof lost at its return). */
/* Whether p's callee compares r1 with data_end in r2 (p_call_pkt's f(data + k, data_end)). */
static bool call_pkt_end(const struct gen_program *p)
{
	for (size_t pc = 0; pc < p->len; pc++)
		if (p->insns[pc].code == (BPF_JMP | BPF_JGT | BPF_X) && p->insns[pc].dst_reg == 1 &&
		    p->insns[pc].src_reg == 2)
			return true;
	return false;
}

static bool call_pkt_spilled(const struct gen_program *p)
{
	for (size_t pc = 0; pc + 1 < p->len; pc++)
		if (p->insns[pc].code == (BPF_ALU64 | BPF_MOV | BPF_X) && p->insns[pc].dst_reg == 1 &&
		    p->insns[pc].src_reg == EBPF_REG_FP &&
		    p->insns[pc + 1].code == (BPF_ALU64 | BPF_ADD | BPF_K) &&
		    p->insns[pc + 1].dst_reg == 1 && p->insns[pc + 1].imm == GEN_FP_DATA)
			return true;
	return false;
}

static void call_pkt_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	struct scev_verdict v;
	bool spilled = call_pkt_spilled(r->p), end = call_pkt_end(r->p);

	CHECK(!!(r->p->flags & GEN_PROG_PKT_UNSAFE) == r->twin && r->p->nfuncs >= 2,
	      TW "the twin's flag is not the twin's, or no call", TW_ARGS(r));
	if (twin_verdict(r, &v)) {
		CHECK(!r->twin || v.kind != VERDICT_SAFE, TW "a flagged twin called safe",
		      TW_ARGS(r));
		CHECK(r->twin || !strstr(v.reason, "packet access"), TW "%s", TW_ARGS(r), v.reason);
		CHECK(r->twin || !spilled || v.kind != VERDICT_UNSAFE, TW "f(&data) called unsafe: %s",
		      TW_ARGS(r), v.reason);
		c->safe += !r->twin && v.kind == VERDICT_SAFE;
		c->loaded[0] += !r->twin && spilled && v.kind == VERDICT_SAFE;
		c->loaded[1] += !r->twin && end && v.kind == VERDICT_SAFE;
	}
	c->flagged[r->twin] += r->twin;
	if (r->twin)
		c->traps += twin_trap(r, NULL) == INTERP_TRAP_MEM;
}

static void test_call_pkt_knobs(void)
{
	static const struct twin_spec s = { { "p_call_pkt", "p_call_pkt_over" }, 100, 3700000, 60,
					    { { "p_pkt", 0 } } };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, call_pkt_program, &c);
	CHECK(c.traps == c.flagged[1], "p_call_pkt_over: %u of %u flagged programs read at "
	      "data_end", c.traps, c.flagged[1]);
	CHECK(c.safe > 20 && c.loaded[0] >= 8 && c.loaded[1] >= 5, "p_call_pkt: %u of 60 safe forms "
	      "verified safe, %u of them f(&data), %u f(data + k, data_end)", c.safe, c.loaded[0],
	      c.loaded[1]);
}

/* p_call_bound and its unsafe twin p_call_bound_open (issue 14, shape 5): f(&n) counts to the n
 * its caller keeps on its stack.  The safe form stays within max_steps (check_program, two
 * inputs) and bpfscev calls most of them safe (before the caller's cells were carried into the
 * callee, none: "the compared values are not numbers"); the twin, flagged, takes n from 8 bytes
 * of the input: data[23] = 0x80 makes it 2^63, and the run out of steps; never called safe. */
static void call_bound_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	uint8_t in[GEN_INPUT_LEN] = { 0 };
	struct scev_verdict v;
	uint64_t steps;

	CHECK(!!(r->p->flags & GEN_PROG_MAY_NOT_TERMINATE) == r->twin && r->p->nfuncs >= 2,
	      TW "the twin's flag is not the twin's, or no call", TW_ARGS(r));
	if (twin_verdict(r, &v)) {
		CHECK(!r->twin || v.kind != VERDICT_SAFE, TW "a flagged twin called safe",
		      TW_ARGS(r));
		c->safe += !r->twin && v.kind == VERDICT_SAFE;
	}
	c->flagged[r->twin] += r->twin;
	in[23] = 0x80;
	if (r->twin && run_watched(r->p, r->seed, in, r->k->step_budget, r->rs, &steps) ==
			       INTERP_TRAP_STEPS)
		c->traps++;
}

static void test_call_bound_knobs(void)
{
	static const struct twin_spec s = { { "p_call_bound", "p_call_bound_open" }, 100, 4100000,
					    60, { { "p_pkt", 0 } } };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, call_bound_program, &c);
	CHECK(c.flagged[1] == 60 && c.traps == 60, "p_call_bound_open: %u of 60 flagged, %u run "
	      "out of steps on data[23] = 0x80", c.flagged[1], c.traps);
	CHECK(c.safe > 40, "p_call_bound: %u of 60 safe forms verified safe", c.safe);
}

/* p_ringbuf and its unsafe twin p_ringbuf_leak: the safe form releases every record it
 * reserves (check_program allows no trap on two inputs) and bpfscev calls none of them unsafe
 * for a reference or a record access (a false alarm: every path releases, the accesses stay in
 * the 16 bytes), most of them safe; the twin, flagged, leaks a record on some runs (the
 * interpreter's INTERP_TRAP_REF at exit), and none that leaks on its input is called safe (a
 * flagged statement may be dead code: a return before it); some are called unsafe by the exit's
 * leak check itself ("Unreleased reference": those whose leaking path returns at once), which
 * a disabled check would let through as safe. */
static void ringbuf_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	struct scev_verdict v;

	CHECK(!(r->p->flags & GEN_PROG_REF_UNSAFE) || r->twin, TW "the twin's flag on a safe form",
	      TW_ARGS(r));
	c->calls[r->twin] += r->p->map_cnt == GEN_MAP_RINGBUF + 1;
	CHECK(twin_verdict(r, &v), TW "verify failed", TW_ARGS(r));
	CHECK(r->twin || (!strstr(v.reason, "ringbuf") && !strstr(v.reason, "reference")),
	      TW "%s", TW_ARGS(r), v.reason);
	c->safe += !r->twin && v.kind == VERDICT_SAFE;
	if (!(r->p->flags & GEN_PROG_REF_UNSAFE))
		return;
	c->flagged[1]++;
	c->shaped[1] += v.kind == VERDICT_UNSAFE && strstr(v.reason, "Unreleased reference");
	if (twin_trap(r, NULL) != INTERP_TRAP_REF)
		return;
	c->traps++;
	CHECK(v.kind != VERDICT_SAFE, TW "a twin that leaks on its input called safe", TW_ARGS(r));
}

static void test_ringbuf_knobs(void)
{
	static const struct twin_spec s = { { "p_ringbuf", "p_ringbuf_leak" }, 60, 3800000, 60,
					    { { "p_call", 0 } } };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, ringbuf_program, &c);
	printf("p_ringbuf: %u and %u of 60 programs reserve a record; %u of 60 safe forms verified "
	       "safe; p_ringbuf_leak: %u flagged, %u leak on their input, %u unsafe by the exit's "
	       "leak check\n", c.calls[0], c.calls[1], c.safe, c.flagged[1], c.traps, c.shaped[1]);
	CHECK(c.calls[0] > 40 && c.calls[1] > 40, "p_ringbuf: %u and %u of 60 programs reserve a "
	      "record", c.calls[0], c.calls[1]);
	CHECK(c.flagged[1] > 30 && c.traps > 5, "p_ringbuf_leak: %u of %u flagged programs leak a "
	      "record on their input", c.traps, c.flagged[1]);
	CHECK(c.safe > 20, "p_ringbuf: %u of 60 safe forms verified safe", c.safe);
	CHECK(c.shaped[1] > 5, "p_ringbuf_leak: %u of %u flagged programs called unsafe by the exit's "
	      "leak check", c.shaped[1], c.flagged[1]);
}

/* p_helper_mem and its unsafe twin p_helper_mem_over: the safe form's helper writes stay in
 * the stack array (check_program allows no memory trap on two inputs), the twin, flagged, writes
 * past the frame on some runs; both emit the call. */
static void helper_mem_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	const struct gen_program *p = r->p;
	bool call = has_call(p, 0, BPF_FUNC_probe_read_kernel);

	c->calls[r->twin] += call;
	CHECK(!!(p->flags & GEN_PROG_HELPER_MEM_UNSAFE) == (r->twin && call),
	      TW "the twin's flag without its call, or the reverse", TW_ARGS(r));
	c->flagged[r->twin] += !!(p->flags & GEN_PROG_HELPER_MEM_UNSAFE);
	if (p->flags & GEN_PROG_HELPER_MEM_UNSAFE)
		c->traps += twin_trap(r, NULL) == INTERP_TRAP_MEM;
}

static void test_helper_mem_knobs(void)
{
	static const struct twin_spec s = { { "p_helper_mem", "p_helper_mem_over" }, 100, 3300000,
					    200, { { "p_array", 100 } } };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, helper_mem_program, &c);
	CHECK(c.calls[0] > 50 && c.calls[1] > 50, "p_helper_mem: %u and %u of 200 programs call "
	      "the helper", c.calls[0], c.calls[1]);
	CHECK(c.traps > 10, "p_helper_mem_over: %u of %u flagged programs write out of the frame",
	      c.traps, c.flagged[1]);
}

/* What test_helper_zero_knobs counts: safe forms called safe, flagged twins, twins whose run
 * traps on memory, programs the kernel judged and refused per form. */
struct zero_counts {
	unsigned safe, flagged, traps, loaded[2], refused[2];
};

static bool twin_kernel_report(const struct twin_run *r, struct verdict_report *rep);

/* Whether msg holds one of words, separated by '|'. */
static bool has_word(const char *msg, const char *words)
{
	for (const char *w = words, *e; *w; w = *e ? e + 1 : e) {
		char one[96];

		e = strchr(w, '|');
		e = e ? e : w + strlen(w);
		snprintf(one, sizeof(one), "%.*s", (int)(e - w), w);
		if (strstr(msg, one))
			return true;
	}
	return false;
}

/* The kernel's verdict on the first 25 runs of each form (seeds from seed0), where bpf() works:
 * the twin refused with one of twin_word's words ('|' between them) in its message, the safe
 * form's message without any of safe_word's. */
static void zero_kernel(struct zero_counts *c, const struct twin_run *r, uint64_t seed0,
			const char *twin_word, const char *safe_word)
{
	struct verdict_report rep;

	if (r->seed >= seed0 + 25 || !twin_kernel_report(r, &rep))
		return;
	c->loaded[r->twin]++;
	c->refused[r->twin] += !rep.kernel_accepted;
	CHECK(r->twin ? !rep.kernel_accepted && has_word(rep.kernel_message, twin_word)
		      : !has_word(rep.kernel_message, safe_word),
	      TW "the kernel %s: %s", TW_ARGS(r), rep.kernel_accepted ? "accepts" : "refuses",
	      rep.kernel_message);
	verdict_report__free(&rep);
}

/* p_helper_zero and its unsafe twin p_helper_zero_over: bpf_probe_read_kernel given 0 bytes at
 * a stack pointer the loop's variable moves; the safe form's pointer stays in fp-512..fp-64, the
 * twin's is past the frame's top (fp+8 and up), which the kernel refuses although nothing is
 * accessed.  Judged by the verdict, by the interpreter (the
 * twin's run traps on memory when the call is reached, the safe form's never: check_program) and
 * by the kernel on the first 25 of each. */
static void helper_zero_program(void *arg, const struct twin_run *r)
{
	struct zero_counts *c = arg;
	const struct gen_program *p = r->p;
	bool call = has_call(p, 0, BPF_FUNC_probe_read_kernel);
	struct scev_verdict v;

	CHECK(!!(p->flags & GEN_PROG_HELPER_MEM_UNSAFE) == (r->twin && call), TW "the twin's flag "
	      "without its call, or the reverse", TW_ARGS(r));
	c->flagged += r->twin && call;
	c->traps += r->twin && call && twin_trap(r, NULL) == INTERP_TRAP_MEM;
	if (call && twin_verdict(r, &v)) {
		CHECK(!r->twin || v.kind != VERDICT_SAFE, TW "the twin called safe", TW_ARGS(r));
		CHECK(r->twin || !strstr(v.reason, "probe_read_kernel"), TW "%s", TW_ARGS(r),
		      v.reason);
		c->safe += !r->twin && v.kind == VERDICT_SAFE;
	}
	if (call)
		zero_kernel(c, r, 7400000, "stack", "stack R1");
}

static void test_helper_zero_knobs(void)
{
	static const struct twin_spec s = { { "p_helper_zero", "p_helper_zero_over" }, 100, 7400000,
					    100, { { "p_recursion", 0 }, { "p_call_chain", 0 },
						   { "p_big_frame", 0 } } };
	struct zero_counts c = { 0 };

	for_twin_programs(&s, helper_zero_program, &c);
	printf("p_helper_zero: %u of 100 called safe, the kernel refuses %u of %u; "
	       "p_helper_zero_over: %u flagged, %u trap on memory, the kernel refuses %u of %u\n",
	       c.safe, c.refused[0], c.loaded[0], c.flagged, c.traps, c.refused[1],
	       c.loaded[1]);
	CHECK(c.flagged > 80 && c.traps > c.flagged / 2 && c.safe >= 60,
	      "p_helper_zero: %u of 100 safe; p_helper_zero_over: %u flagged, %u trap", c.safe,
	      c.flagged, c.traps);
	if (!c.loaded[0])
		check_skip_part("the kernel's verdicts (bpf() refused)");
}

/* What test_helper_str_knobs counts: zero_counts', and the twins called safe (whose call no run
 * of the verdict reaches: dead code) and how many of them the kernel judged. */
struct str_counts {
	struct zero_counts z;
	unsigned twin_safe, twin_safe_loaded;
};

/* p_helper_str and its unsafe twin p_helper_str_neg: the length bpf_probe_read_kernel_str returns
 * indexes the 16 bytes it wrote.  The safe form (length checked positive, the byte before it) is
 * called safe by the verdict, whose reason never names the stack, and never traps
 * (check_program); the twin (the byte at the length, unchecked) is flagged, traps on memory in
 * some runs (a failed call: interp.c draws an error in a quarter of them), and the kernel refuses
 * it for the read's variable offset while it accepts the safe form (the first 25 of each).  A
 * twin whose call is dead code (a loop the generator's break leaves at once) may be called safe:
 * then the kernel, where it can judge, must accept it too, and such twins stay few. */
static void helper_str_program(void *arg, const struct twin_run *r)
{
	struct str_counts *c = arg;
	const struct gen_program *p = r->p;
	bool call = has_call(p, 0, BPF_FUNC_probe_read_kernel_str);
	struct verdict_report rep;
	struct scev_verdict v;

	CHECK(!!(p->flags & GEN_PROG_HELPER_MEM_UNSAFE) == (r->twin && call), TW "the twin's flag "
	      "without its call, or the reverse", TW_ARGS(r));
	c->z.flagged += r->twin && call;
	c->z.traps += r->twin && call && twin_trap(r, NULL) == INTERP_TRAP_MEM;
	if (!call || !twin_verdict(r, &v))
		return;
	if (r->twin && v.kind == VERDICT_SAFE) {
		c->twin_safe++;
		if (twin_kernel_report(r, &rep)) {
			c->twin_safe_loaded++;
			CHECK(rep.kernel_accepted, TW "the twin called safe, and the kernel refuses "
			      "it: %s", TW_ARGS(r), rep.kernel_message);
			verdict_report__free(&rep);
		}
		return;
	}
	CHECK(r->twin || !strstr(v.reason, "stack"), TW "%s", TW_ARGS(r), v.reason);
	c->z.safe += !r->twin && v.kind == VERDICT_SAFE;
	zero_kernel(&c->z, r, 7500000, "variable-offset read from stack", "stack R");
}

static void test_helper_str_knobs(void)
{
	static const struct twin_spec s = { { "p_helper_str", "p_helper_str_neg" }, 100, 7500000,
					    60, { { "p_array", 100 } } };
	struct str_counts c = { { 0 }, 0, 0 };

	for_twin_programs(&s, helper_str_program, &c);
	printf("p_helper_str: %u of 60 called safe, the kernel refuses %u of %u; p_helper_str_neg: "
	       "%u flagged, %u trap on memory, the kernel refuses %u of %u; %u called safe (the "
	       "kernel accepts the %u it judged)\n", c.z.safe, c.z.refused[0], c.z.loaded[0],
	       c.z.flagged, c.z.traps, c.z.refused[1], c.z.loaded[1], c.twin_safe,
	       c.twin_safe_loaded);
	CHECK(c.z.flagged > 40 && c.z.traps > c.z.flagged / 4 && c.z.safe >= 40 &&
		      c.twin_safe <= c.z.flagged / 10,
	      "p_helper_str: %u of 60 safe; p_helper_str_neg: %u flagged, %u trap, %u safe",
	      c.z.safe, c.z.flagged, c.z.traps, c.twin_safe);
	if (!c.z.loaded[0])
		check_skip_part("the kernel's verdicts (bpf() refused)");
}

/* p_strncmp and its unsafe twin p_strncmp_bad: bpf_strncmp given a string of map 6 (read-only,
 * frozen).  The safe form's verdict never names the call (whatever else the program holds) and
 * its runs never trap (check_program); the twin, flagged, is never called safe, every run traps
 * at the call (the string runs past the value: the interpreter's own check), and the kernel
 * refuses it ("zero-terminated") while it accepts the safe form (the first 25 of each). */
static void strncmp_program(void *arg, const struct twin_run *r)
{
	struct zero_counts *c = arg;
	const struct gen_program *p = r->p;
	bool call = has_call(p, 0, BPF_FUNC_strncmp);
	struct scev_verdict v;

	CHECK(!!(p->flags & GEN_PROG_ACCESS_UNSAFE) == (r->twin && call), TW "the twin's flag "
	      "without its call, or the reverse", TW_ARGS(r));
	c->flagged += r->twin && call;
	c->traps += r->twin && call && trapped(twin_trap(r, NULL));
	if (call && twin_verdict(r, &v)) {
		CHECK(!r->twin || v.kind != VERDICT_SAFE, TW "the twin called safe", TW_ARGS(r));
		CHECK(r->twin || !strstr(v.reason, "strncmp"), TW "%s", TW_ARGS(r), v.reason);
		c->safe += !r->twin && v.kind == VERDICT_SAFE;
	}
	if (call)
		zero_kernel(c, r, 7600000, "zero-terminated", "strncmp|string|readonly");
}

static void test_strncmp_knobs(void)
{
	static const struct twin_spec s = { { "p_strncmp", "p_strncmp_bad" }, 100, 7600000, 60,
					    { { "p_recursion", 0 } } };
	struct zero_counts c = { 0 };

	for_twin_programs(&s, strncmp_program, &c);
	printf("p_strncmp: %u of 60 called safe, the kernel refuses %u of %u; p_strncmp_bad: %u "
	       "flagged, %u trap, the kernel refuses %u of %u\n", c.safe, c.refused[0], c.loaded[0],
	       c.flagged, c.traps, c.refused[1], c.loaded[1]);
	CHECK(c.flagged > 50 && c.traps == c.flagged && c.safe >= 45,
	      "p_strncmp: %u of 60 safe; p_strncmp_bad: %u flagged, %u trap", c.safe, c.flagged,
	      c.traps);
	if (!c.loaded[0])
		check_skip_part("the kernel's verdicts (bpf() refused)");
}

/* What p_pkt_join's and p_pkt_var's programs must do (flag: the twin's GEN_PROG_ bit; words:
 * what the kernel's refusal of a twin says, '|' between them, and no safe form's message). */
static void pkt_twin_program(struct zero_counts *c, const struct twin_run *r, uint64_t flag,
			     uint64_t seed0, const char *words)
{
	struct scev_verdict v;

	CHECK(!!(r->p->flags & flag) == r->twin, TW "the twin's flag is not the twin's",
	      TW_ARGS(r));
	c->flagged += r->twin;
	c->traps += r->twin && twin_trap(r, NULL) == INTERP_TRAP_MEM;
	if (twin_verdict(r, &v)) {
		CHECK(!r->twin || v.kind != VERDICT_SAFE, TW "the twin called safe", TW_ARGS(r));
		CHECK(r->twin || !strstr(v.reason, "packet access"), TW "%s", TW_ARGS(r), v.reason);
		c->safe += !r->twin && v.kind == VERDICT_SAFE;
	} else {
		CHECK(0, TW "verify failed", TW_ARGS(r));
	}
	zero_kernel(c, r, seed0, words, words);
}

/* p_pkt_join and its unsafe twin p_pkt_join_past (generators/gen_pkt.c): packet pointers of two
 * variable bases joined, one copy checked against data_end, the other read.  The safe form
 * never traps (check_program, two inputs) and bpfscev calls none of its programs unsafe for a
 * packet access, most safe; the twin, flagged, reads past data_end on every run
 * (INTERP_TRAP_MEM) and is never called safe.  The kernel judges the first 25 of each where
 * bpf() works: it refuses every twin, for its packet read, and no safe form for one. */
static void pkt_join_program(void *arg, const struct twin_run *r)
{
	pkt_twin_program(arg, r, GEN_PROG_PKT_UNSAFE, 7800000, "outside of the packet");
}

static void test_pkt_join_knobs(void)
{
	static const struct twin_spec s = { { "p_pkt_join", "p_pkt_join_past" }, 100, 7800000,
					    100, { { "p_recursion", 0 }, { "p_call_chain", 0 },
						   { "p_big_frame", 0 } } };
	struct zero_counts c = { 0 };

	for_twin_programs(&s, pkt_join_program, &c);
	printf("p_pkt_join: %u of 100 called safe, the kernel refuses %u of %u; "
	       "p_pkt_join_past: %u flagged, %u trap on memory, the kernel refuses %u of %u\n",
	       c.safe, c.refused[0], c.loaded[0], c.flagged, c.traps, c.refused[1], c.loaded[1]);
	CHECK(c.flagged == 100 && c.traps == c.flagged && c.safe >= 60,
	      "p_pkt_join: %u of 100 safe; p_pkt_join_past: %u flagged, %u trap", c.safe,
	      c.flagged, c.traps);
	if (!c.loaded[0])
		check_skip_part("the kernel's verdicts (bpf() refused)");
}

/* p_pkt_var and its unsafe twin p_pkt_var_data (generators/gen_pkt_var.c): data + var checked
 * against data_end, read through data + var within the bytes its id was given (the twin: data
 * itself past them, or data + 40 - var).  The safe form never traps (check_program, two inputs)
 * and bpfscev calls at least 90 of 100 safe, none unsafe for a packet access; the twin, flagged,
 * is never called safe (main at ef8d155 called 17 of 30 safe), and its runs trap on memory only
 * where it reads past data_end (every run of those; the others read in the packet or never:
 * there the kernel is the judge).  The kernel judges the first 25 of each where bpf() works:
 * it refuses every twin, for its packet read ('outside of the packet' or 'min value is
 * negative'), and no safe form for one. */
static void pkt_var_program(void *arg, const struct twin_run *r)
{
	pkt_twin_program(arg, r, GEN_PROG_PKT_VAR_UNSAFE, 7900000,
			 "outside of the packet|min value is negative");
}

static void test_pkt_var_knobs(void)
{
	static const struct twin_spec s = { { "p_pkt_var", "p_pkt_var_data" }, 100, 7900000,
					    100, { { "p_recursion", 0 }, { "p_call_chain", 0 },
						   { "p_big_frame", 0 } } };
	struct zero_counts c = { 0 };

	for_twin_programs(&s, pkt_var_program, &c);
	printf("p_pkt_var: %u of 100 called safe, the kernel refuses %u of %u; "
	       "p_pkt_var_data: %u flagged, %u trap on memory, the kernel refuses %u of %u\n",
	       c.safe, c.refused[0], c.loaded[0], c.flagged, c.traps, c.refused[1], c.loaded[1]);
	CHECK(c.flagged == 100 && c.traps >= 10 && c.traps < c.flagged && c.safe >= 90,
	      "p_pkt_var: %u of 100 safe; p_pkt_var_data: %u flagged, %u trap", c.safe,
	      c.flagged, c.traps);
	if (!c.loaded[0])
		check_skip_part("the kernel's verdicts (bpf() refused)");
}

/* p_pkt_len and its unsafe twin p_pkt_len_over: the safe form reads the packet up to its end
 * and never past it (check_program allows no memory trap on two inputs; every run takes the
 * exit i >= len, GEN_INPUT_LEN bytes after data + 0 or 16, before i >= 96), the twin, flagged,
 * reads the byte at data_end on every run. */
static void pkt_len_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;

	CHECK(!!(r->p->flags & GEN_PROG_PKT_UNSAFE) == r->twin, TW "the twin's flag is not the "
	      "twin's", TW_ARGS(r));
	c->flagged[r->twin] += r->twin;
	if (r->twin)
		c->traps += twin_trap(r, NULL) == INTERP_TRAP_MEM;
}

static void test_pkt_len_knobs(void)
{
	static const struct twin_spec s = { { "p_pkt_len", "p_pkt_len_over" }, 100, 3400000, 100 };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, pkt_len_program, &c);
	CHECK(c.traps == c.flagged[1], "p_pkt_len_over: %u of %u flagged programs read at "
	      "data_end", c.traps, c.flagged[1]);
}

/* p_start_range and its unsafe twin p_start_range_over: the safe form's loop starts anywhere in
 * [0, 63] and reads the frame's top 64 bytes at its counter until the test stops it below 64:
 * it never traps (check_program, two inputs) and bpfscev calls none of its programs unsafe for
 * a stack access (the start plus the trip count's steps would reach 63 + n - 1: what the test
 * lets through bounds the counter); the twin, flagged, reads past the frame on every run and is
 * never called safe.  safe counts the safe form's programs called safe. */
/* A twin whose flag is flag and who traps on memory: the flag is the twin's (counted in
 * flagged), the twin's run on its own input traps (counted in traps), and bpfscev never calls
 * the twin safe; safe counts the safe form's programs called safe.  False when verify fails. */
static bool mem_twin_verdict(struct twin_counts *c, const struct twin_run *r, uint64_t flag,
			     struct scev_verdict *v)
{
	CHECK(!!(r->p->flags & flag) == r->twin, TW "the twin's flag is not the twin's",
	      TW_ARGS(r));
	c->flagged[r->twin] += r->twin;
	if (r->twin)
		c->traps += twin_trap(r, NULL) == INTERP_TRAP_MEM;
	if (!twin_verdict(r, v)) {
		CHECK(0, TW "verify failed", TW_ARGS(r));
		return false;
	}
	if (r->twin)
		CHECK(v->kind != VERDICT_SAFE, TW "the twin called safe", TW_ARGS(r));
	c->safe += !r->twin && v->kind == VERDICT_SAFE;
	return true;
}

/* The counts of mem_twin_verdict over 100 programs of each form: every twin's flagged and
 * trapping on memory, more than min_safe of the safe form's called safe. */
static void check_mem_twins(const struct twin_spec *s, const struct twin_counts *c,
			    unsigned min_safe)
{
	CHECK(c->traps == 100 && c->flagged[1] == 100, "%s=100: %u of %u flagged programs trap "
	      "on memory", s->knob[1], c->traps, c->flagged[1]);
	CHECK(c->safe > min_safe, "%s=100: only %u of 100 programs called safe", s->knob[0],
	      c->safe);
}

/* A memory twin's knob (mem_twin_knobs): its twin's flag, and the words no reason of a safe
 * form may hold (NULL: none).  A twin whose access no run can tell (twin_word: x86 does a
 * misaligned access, and so does the interpreter) holds twin_word in every reason (counted in
 * shaped[1]); with kernel_n, the kernel judges the first kernel_n programs of each form where
 * bpf() works (mem_twin_kernel). */
struct mem_twin {
	uint64_t flag;
	const char *words[2];
	const char *twin_word;
	unsigned kernel_n;
};

/* The kernel's word on r (the first m->kernel_n of its form): it refuses every twin with
 * m->twin_word in its message, and no safe form with m->words[0]; counted in c->loaded and
 * c->refused (refusals holding words[0]). */
static bool twin_kernel_report(const struct twin_run *r, struct verdict_report *rep);

static void mem_twin_kernel(struct twin_counts *c, const struct twin_run *r,
			    const struct mem_twin *m)
{
	struct verdict_report rep;

	if (c->seen[r->twin]++ >= m->kernel_n || !twin_kernel_report(r, &rep))
		return;
	c->loaded[r->twin]++;
	c->refused[r->twin] += !rep.kernel_accepted && strstr(rep.kernel_message, m->words[0]);
	CHECK(r->twin ? !rep.kernel_accepted && strstr(rep.kernel_message, m->twin_word)
		      : !strstr(rep.kernel_message, m->words[0]),
	      TW "the kernel %s: %s", TW_ARGS(r), rep.kernel_accepted ? "accepts" : "refuses",
	      rep.kernel_message);
	verdict_report__free(&rep);
}

/* mem_twin_verdict on each program (c->arg: the struct mem_twin), the safe form's reason
 * without the knob's words, a quiet twin's with its word, and the kernel's word when asked. */
static void mem_twin_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	const struct mem_twin *m = c->arg;
	struct scev_verdict v;

	if (mem_twin_verdict(c, r, m->flag, &v)) {
		if (!r->twin && m->words[0])
			CHECK(!strstr(v.reason, m->words[0]) &&
			      (!m->words[1] || !strstr(v.reason, m->words[1])), TW "%s",
			      TW_ARGS(r), v.reason);
		if (r->twin && m->twin_word) {
			CHECK(strstr(v.reason, m->twin_word), TW "%s: %s", TW_ARGS(r),
			      scev_verdict_name(v.kind), v.reason);
			c->shaped[1] += strstr(v.reason, m->twin_word) != NULL;
		}
	}
	if (m->kernel_n)
		mem_twin_kernel(c, r, m);
}

/* The programs of s judged by mem_twin_program with m, into c. */
static void mem_twin_knobs(const struct twin_spec *s, const struct mem_twin *m,
			   struct twin_counts *c)
{
	c->arg = m;
	for_twin_programs(s, mem_twin_program, c);
}

static void test_start_range_knobs(void)
{
	static const struct twin_spec s = { { "p_start_range", "p_start_range_over" }, 100,
					    3460000, 100 };
	static const struct mem_twin m = { GEN_PROG_START_RANGE_UNSAFE, { "stack" } };
	struct twin_counts c = { 0 };

	mem_twin_knobs(&s, &m, &c);
	check_mem_twins(&s, &c, 50);
}

/* p_map_len and its unsafe twin p_map_len_over (issue 14 section 6: an index against a length
 * loaded from a map value and checked once; corpus map_len_checked_once): the twin, flagged,
 * reads the byte past the 64-byte value on its own input (which sets the length to 61) and is
 * never called safe; the safe form never traps (check_program, two inputs) and bpfscev never
 * calls it unsafe for a map-value access, and calls most of its programs safe. */
static const struct mem_twin map_len_twin = { GEN_PROG_MAP_LEN_UNSAFE, { "map value" } };

static void test_map_len_knobs(void)
{
	static const struct twin_spec s = { { "p_map_len", "p_map_len_over" }, 100, 4300000,
					    100 };
	struct twin_counts c = { 0 };

	mem_twin_knobs(&s, &map_len_twin, &c);
	check_mem_twins(&s, &c, 80);
	printf("p_map_len: %u of 100 called safe; p_map_len_over: %u of %u trap, none called "
	       "safe\n", c.safe, c.traps, c.flagged[1]);
}

/* p_map_percpu: map 0 a per-CPU array (each CPU its own values; a run sees its CPU's, so the
 * program's safety is the array's).  With p_map_len and its twin p_map_len_over on top: every
 * program's map 0 is a per-CPU array, the twins, flagged, trap and are never called safe, the
 * safe forms never trap and are called safe at the plain array's rate. */
static void map_percpu_program(void *arg, const struct twin_run *r)
{
	CHECK(r->p->map_cnt >= 1 && r->p->maps[0].type == BPF_MAP_TYPE_PERCPU_ARRAY,
	      TW "map 0 has type %u", TW_ARGS(r), r->p->map_cnt ? r->p->maps[0].type : 0);
	mem_twin_program(arg, r);
}

static void test_map_percpu_knob(void)
{
	static const struct twin_spec s = { { "p_map_len", "p_map_len_over" }, 100, 4300000,
					    100, { { "p_map_percpu", 100 } } };
	struct twin_counts c = { .arg = &map_len_twin };

	for_twin_programs(&s, map_percpu_program, &c);
	check_mem_twins(&s, &c, 80);
	printf("p_map_percpu: p_map_len %u of 100 called safe; p_map_len_over: %u of %u trap, "
	       "none called safe\n", c.safe, c.traps, c.flagged[1]);
}

/* p_call_frames and its unsafe twin p_call_frames_past (a callee given pointers into main's
 * frame and into its other caller's own, db55fbe's shape): the twin, flagged, reads past both
 * frames on every run and is never called safe; the safe form never traps, and bpfscev never
 * calls it unsafe for the joined pointer ("not a known pointer" before db55fbe) and calls most
 * of its programs safe (the others for the default mix's calls: a chain over 512 bytes, ...). */
static void test_call_frames_knobs(void)
{
	static const struct twin_spec s = { { "p_call_frames", "p_call_frames_past" }, 100,
					    4800000, 100 };
	static const struct mem_twin m = { GEN_PROG_FRAMES_UNSAFE,
					   { "not a known pointer", "caller's stack" } };
	struct twin_counts c = { 0 };

	mem_twin_knobs(&s, &m, &c);
	check_mem_twins(&s, &c, 30);
}

/* The kernel's word on r's program, loaded as XDP (and bpfscev's, run once), into *rep (freed by
 * the caller): false where bpf() is refused or the comparison failed (a check failed then). */
static bool twin_kernel_report(const struct twin_run *r, struct verdict_report *rep)
{
	struct ebpf_object obj;
	struct ebpf_prog view;
	/* (the verdict twin_verdict gave this program, where it was asked first: scev_verify's
	 * options are verdict_compare's, the program's type and the privileged rule) */
	struct verdict_opts vo = { .sz = sizeof(vo), .kernel = true, .runs = 1,
				   .prog_type = r->p->prog_type, .ours = last_verdict_of(r->p) };
	struct diag d;

	if (!kernel_available(NULL, 0))
		return false;
	gen_program__object(r->p, &obj, &view, "gen");
	diag_clear(&d);
	if (verdict_compare(rep, &obj, &view, &vo, &d)) {
		CHECK(0, TW "verdict_compare: %s", TW_ARGS(r), d.msg);
		return false;
	}
	/* (the first few given verdicts are also asked of verdict_compare's own analysis: the
	 * verdict it would have used, byte for byte) */
	if (vo.ours && given_checked < 8) {
		struct verdict_opts own = vo;
		struct verdict_report again;

		given_checked++;
		own.kernel = false;
		own.ours = NULL;
		diag_clear(&d);
		CHECK(verdict_compare(&again, &obj, &view, &own, &d) == 0 &&
		      !memcmp(&again.ours, &rep->ours, sizeof(again.ours)),
		      TW "the verdict given to verdict_compare is not its own: %s at %u (%s), its "
		      "own %s at %u (%s)", TW_ARGS(r), scev_verdict_name(rep->ours.kind),
		      rep->ours.pc, rep->ours.reason, scev_verdict_name(again.ours.kind),
		      again.ours.pc, again.ours.reason);
		verdict_report__free(&again);
	}
	return true;
}

/* p_stack_align and its unsafe twin p_stack_align_bad (generators/gen_align.c): a loop fills
 * stack cells at fp + base + 8i, a load reads one at a variable offset.  No run can tell them
 * apart (x86 does a misaligned access, and so does the interpreter: check_program allows no
 * trap of either); the kernel can, and judges the first 25 of each where bpf() works: it
 * accepts no twin and refuses it as misaligned, and refuses no safe form as misaligned.
 * bpfscev calls no twin safe, each for its alignment, and most safe forms safe (none
 * misaligned). */
static void test_stack_align_knobs(void)
{
	/* (no call shapes the kernel refuses: the verdict's reason is the piece's) */
	static const struct twin_spec s = { { "p_stack_align", "p_stack_align_bad" }, 100, 7300000,
					    100, { { "p_recursion", 0 }, { "p_call_chain", 0 },
						   { "p_big_frame", 0 } } };
	static const struct mem_twin m = { GEN_PROG_ALIGN_UNSAFE, { "misaligned" },
					   "misaligned stack access", 25 };
	struct twin_counts c = { 0 };

	mem_twin_knobs(&s, &m, &c);
	CHECK(c.flagged[1] == 100 && c.safe >= 80 && c.shaped[1] == 100, "p_stack_align: %u of "
	      "100 safe; p_stack_align_bad: %u flagged, %u misaligned", c.safe, c.flagged[1],
	      c.shaped[1]);
	if (!c.loaded[0])
		check_skip_part("the kernel's verdicts (bpf() refused)");
	printf("p_stack_align: %u of 100 called safe, the kernel refuses %u of %u as misaligned; "
	       "p_stack_align_bad: %u of 100 misaligned, the kernel refuses %u of %u\n", c.safe,
	       c.refused[0], c.loaded[0], c.shaped[1], c.refused[1], c.loaded[1]);
}

/* A memory twin's knob the kernel judges too (kernel_twin_knobs): its mem_twin, and the seeds
 * below kernel_end the kernel is asked about. */
struct kernel_twin {
	struct mem_twin m;
	uint64_t kernel_end;
};

struct kernel_twin_counts {
	struct twin_counts t;
	unsigned loaded[2], refused[2];
	const struct kernel_twin *k;
};

/* The kernel's word on r where bpf() works, counted in loaded and refused: it refuses every
 * twin, not at one of its limits (limit_ok: at one too, where the walk may first go down
 * another arm than the twin's: p_cb_two_ctx_bad's "infinite loop detected", p_sub_ret_ptr_bad's
 * size limit), and accepts every program bpfscev calls safe or refuses it at one of its limits
 * only (an improvement; not a rule gap).  Whether it refused r at a limit. */
static bool kernel_judge(const struct twin_run *r, bool limit_ok, unsigned loaded[2],
			 unsigned refused[2])
{
	struct verdict_report rep;
	bool limit;

	if (!twin_kernel_report(r, &rep))
		return false;
	limit = !rep.kernel_accepted && verdict_kernel_limit(rep.kernel_message);
	loaded[r->twin]++;
	refused[r->twin] += !rep.kernel_accepted;
	CHECK(r->twin ? !rep.kernel_accepted && (limit_ok || !limit)
		      : verdict_classify(rep.ours.kind == VERDICT_SAFE, rep.kernel_accepted,
					 rep.kernel_message) != VC_RULE_GAP,
	      TW "ours %s, the kernel %s: %s", TW_ARGS(r), scev_verdict_name(rep.ours.kind),
	      rep.kernel_accepted ? "accepts" : "refuses", rep.kernel_message);
	verdict_report__free(&rep);
	return limit;
}

static void kernel_twin_program(void *arg, const struct twin_run *r)
{
	struct kernel_twin_counts *c = arg;

	c->t.arg = &c->k->m;
	mem_twin_program(&c->t, r);
	if (r->seed < c->k->kernel_end)
		kernel_judge(r, true, c->loaded, c->refused);
}

/* The 100 programs of each form of s judged by mem_twin_program with k->m (every twin traps on
 * memory and is never called safe, more than 95 safe forms called safe), those below
 * k->kernel_end by the kernel too (kernel_judge). */
static void kernel_twin_knobs(const struct twin_spec *s, const struct kernel_twin *k)
{
	struct kernel_twin_counts c = { .k = k };

	for_twin_programs(s, kernel_twin_program, &c);
	check_mem_twins(s, &c.t, 95);
	if (!c.loaded[0])
		check_skip_part("%s: the kernel's verdicts (bpf() refused)", s->knob[0]);
	printf("%s: %u of 100 called safe, the kernel accepts %u of %u; %s: %u of %u trap, none "
	       "called safe, the kernel refuses %u of %u\n", s->knob[0], c.t.safe,
	       c.loaded[0] - c.refused[0], c.loaded[0], s->knob[1], c.t.traps, c.t.flagged[1],
	       c.refused[1],
	       c.loaded[1]);
}

/* (no call shapes the kernel refuses: the verdict's reason is the piece's) */
#define KERNEL_TWIN_SPEC(safe, twin, seed)                                                        \
	{ { safe, twin }, 100, seed, 100, { { "p_recursion", 0 }, { "p_call_chain", 0 },           \
					    { "p_big_frame", 0 } } }

/* p_cb_two_ctx and its unsafe twin p_cb_two_ctx_bad (generators/gen_cbctx.c): one bpf_loop or
 * for_each callback called from two calls whose contexts differ (a cell of main holding a
 * pointer into main's frame at one, NULL at the other: two cells, or one cell rewritten between
 * the calls).  The kernel verifies the callback per call; bpfscev analyses a copy per context
 * (scev/absint_callbacks.c).  The safe form never traps (check_program, two inputs) and is
 * called safe, 98 of 100 (base22, analysing the callback once from the joined contexts: none
 * of 40, "R1 is not a known pointer"; the 2 left: another piece's write into main's frame
 * that nothing places, which makes main's cells unknown to every callback); the twin, flagged, loads through NULL on every run and is never
 * called safe.  The kernel's word on the first 25 of each: it accepts every safe form bpfscev
 * calls safe (or refuses it for one of its limits only: an improvement), and refuses every
 * twin. */
static void test_cb_two_ctx_knobs(void)
{
	static const struct twin_spec s = KERNEL_TWIN_SPEC("p_cb_two_ctx", "p_cb_two_ctx_bad",
							   7400000);
	static const struct kernel_twin k = { { GEN_PROG_CB_CTX_UNSAFE }, 7400000 + 25 };

	kernel_twin_knobs(&s, &k);
}

/* p_sub_ret_ptr and its unsafe twin p_sub_ret_ptr_bad (generators/gen_subret.c): main loads
 * through what a static function's map lookup returned (the value at an offset, or NULL) after
 * a NULL test of it, of a copy or of a spill's fill; the twin loads untested through NULL or
 * past the value.  The safe form never traps (check_program, two inputs) and is called safe,
 * more than 95 of 100 (100; base23, whose summary returned a number: none, "R0 is not a known
 * pointer"), no reason of it naming R0; the twin, flagged, traps on every run and is never
 * called safe.  The kernel judges the first 25 of each (kernel_judge). */
static void test_sub_ret_knobs(void)
{
	static const struct twin_spec s = KERNEL_TWIN_SPEC("p_sub_ret_ptr", "p_sub_ret_ptr_bad",
							   7500000);
	static const struct kernel_twin k = { { GEN_PROG_SUB_RET_UNSAFE, { "R0" } }, 7500000 + 25 };

	kernel_twin_knobs(&s, &k);
}

/* p_krules and its unsafe twin p_krules_bad (generators/gen_krules.c): a packet offset in
 * [0, 31] through a stack spill or a shift, which the kernel keeps (the safe forms) or loses (the
 * twin: a spill it does not keep, a shift by the width or a variable).  No run can tell them
 * apart (every run's offset is right: check_program allows no trap of either); the kernel can,
 * and judges the first 25 of each where bpf() works: it refuses every twin (not at one of its
 * limits) and accepts every program bpfscev calls safe (or refuses it at one of its limits: no
 * rule gap).  bpfscev calls no twin safe and most safe forms safe.  The twin's immediates the
 * kernel refuses wherever it meets them (a shift by +-width, a division or modulo by 0) the
 * interpreter notes on the run (alu_refused), and only those. */
struct krule_counts {
	unsigned safe, flagged, twin_safe, loaded[2], refused[2], alu;
};

/* Whether p holds an ALU instruction whose immediate check_alu_op refuses. */
static bool has_alu_refused(const struct gen_program *p)
{
	for (size_t pc = 0; pc < p->len; pc++) {
		const struct bpf_insn *i = &p->insns[pc];
		uint8_t op = ebpf_op(i);
		int32_t width = ebpf_class(i) == BPF_ALU64 ? 64 : 32;

		if ((ebpf_class(i) == BPF_ALU || ebpf_class(i) == BPF_ALU64) &&
		    ebpf_srcbit(i) == BPF_K &&
		    (((op == BPF_DIV || op == BPF_MOD) && i->imm == 0) ||
		     ((op == BPF_LSH || op == BPF_RSH || op == BPF_ARSH) &&
		      (i->imm < 0 || i->imm >= width))))
			return true;
	}
	return false;
}

static void krule_program(void *arg, const struct twin_run *r)
{
	struct krule_counts *c = arg;
	struct scev_verdict v;
	bool safe = false;

	bool alu = has_alu_refused(r->p);
	uint64_t noted = r->rs->alu_refused;

	CHECK(!!(r->p->flags & GEN_PROG_KRULE_UNSAFE) == r->twin, TW "the twin's flag is not the "
	      "twin's", TW_ARGS(r));
	c->flagged += r->twin && (r->p->flags & GEN_PROG_KRULE_UNSAFE);
	CHECK(!trapped(twin_trap(r, NULL)) && (r->rs->alu_refused > noted) == alu && (!alu || r->twin),
	      TW "%s an immediate the kernel refuses, the run %s it", TW_ARGS(r),
	      alu ? "holds" : "holds no", r->rs->alu_refused > noted ? "notes" : "does not note");
	c->alu += alu;
	if (twin_verdict(r, &v)) {
		safe = v.kind == VERDICT_SAFE;
		CHECK(!r->twin || !safe, TW "called safe", TW_ARGS(r));
		c->safe += !r->twin && safe;
		c->twin_safe += r->twin && safe;
	}
	if (r->seed < 7400000 + 25)
		kernel_judge(r, false, c->loaded, c->refused);
}

/* p_access and its unsafe twin p_access_bad (generators/gen_krules.c): map 6 is
 * BPF_F_RDONLY_PROG or BPF_F_WRONLY_PROG, the prologue reads or writes its value as the flag
 * allows, and loads a scalar field of the context sign-extended (the twin: the map's value as the
 * flag forbids, or an atomic add, which does both; or data, data_end or data_meta sign-extended).
 * A read-only value is frozen (initial contents): the safe form skips a division by the
 * immediate 0 where a byte of it is the frozen one, which only a reader of the contents (the
 * kernel, bpfscev) knows is never reached; some twins take the division there (no run traps).
 * Judged by the verdict (no twin called safe, most safe forms called safe), by the interpreter (a
 * run traps on memory exactly when it writes the read-only value or loads the packet pointer
 * sign-extended; a read of the write-only value is harmless, no run traps) and by the kernel on
 * the first 25 of each where bpf() works: it refuses every twin and accepts every safe form
 * bpfscev calls safe. */
struct access_counts {
	unsigned safe, flagged, twin_safe, traps, wo, ldsx, loaded[2], refused[2], guard[2];
};

/* Whether p loads a packet pointer field of the context sign-extended (xdp_md's data, data_end,
 * data_meta: BPF_MEMSX, 4 bytes, at 0, 4 or 8). */
static bool has_ldsx_pkt_field(const struct gen_program *p)
{
	for (size_t pc = 0; pc < p->len; pc++)
		if (p->insns[pc].code == (BPF_LDX | BPF_MEMSX | BPF_W) && p->insns[pc].off >= 0 &&
		    p->insns[pc].off <= 8)
			return true;
	return false;
}

/* Whether p divides by the immediate 0 (p_access's guard of a frozen byte). */
static bool has_div_imm0(const struct gen_program *p)
{
	for (size_t pc = 0; pc < p->len; pc++)
		if (p->insns[pc].code == (BPF_ALU64 | BPF_DIV | BPF_K) && !p->insns[pc].imm)
			return true;
	return false;
}

static void access_program(void *arg, const struct twin_run *r)
{
	struct access_counts *c = arg;
	const struct ebpf_map_def *m = &r->p->maps[GEN_MAP_ACCESS];
	bool ro, ldsx = has_ldsx_pkt_field(r->p), safe = false, guard = has_div_imm0(r->p);
	enum interp_trap t;
	struct scev_verdict v;

	CHECK(!!(r->p->flags & GEN_PROG_ACCESS_UNSAFE) == r->twin && r->p->map_cnt == 7 &&
		      (m->flags == BPF_F_RDONLY_PROG || m->flags == BPF_F_WRONLY_PROG) &&
		      (!ldsx || r->twin),
	      TW "flag %d, %zu maps, map 6's flags 0x%x, %s sign-extending load of a packet pointer",
	      TW_ARGS(r), !!(r->p->flags & GEN_PROG_ACCESS_UNSAFE), r->p->map_cnt, m->flags,
	      ldsx ? "a" : "no");
	ro = m->flags == BPF_F_RDONLY_PROG;
	/* (a read-only value is frozen: initial contents; the safe read-only form guards) */
	CHECK(!!m->init == ro && (r->twin || guard == ro),
	      TW "map 6 %s, initial contents %s, %s division by the immediate 0", TW_ARGS(r),
	      ro ? "read-only" : "write-only", m->init ? "given" : "none", guard ? "a" : "no");
	c->flagged += r->twin && (r->p->flags & GEN_PROG_ACCESS_UNSAFE);
	c->wo += r->twin && !ro && !ldsx;
	c->ldsx += ldsx;
	c->guard[r->twin] += guard;
	t = twin_trap(r, NULL);
	/* (a twin's guard is the live one unless the twin is the sign-extending load's) */
	CHECK(t == (r->twin && (ldsx || (ro && !guard)) ? INTERP_TRAP_MEM : INTERP_OK),
	      TW "%s map%s: the run ends %d", TW_ARGS(r), ro ? "read-only" : "write-only",
	      ldsx ? ", a packet pointer loaded sign-extended" : "", t);
	c->traps += t == INTERP_TRAP_MEM;
	if (twin_verdict(r, &v)) {
		safe = v.kind == VERDICT_SAFE;
		CHECK(!r->twin || !safe, TW "called safe", TW_ARGS(r));
		c->safe += !r->twin && safe;
		c->twin_safe += r->twin && safe;
	}
	if (r->seed < 7610000 + 25)
		kernel_judge(r, false, c->loaded, c->refused);
}

static void test_access_knobs(void)
{
	static const struct twin_spec s = { { "p_access", "p_access_bad" }, 100, 7610000,
					    100, { { "p_recursion", 0 }, { "p_call_chain", 0 },
						   { "p_big_frame", 0 } } };
	struct access_counts c = { 0 };

	for_twin_programs(&s, access_program, &c);
	CHECK(c.flagged == 100 && c.safe >= 80 && !c.twin_safe && c.wo >= 15 && c.ldsx >= 10 &&
		      c.traps >= 20 && c.guard[0] >= 30 && c.guard[1] >= 5,
	      "p_access: %u of 100 safe, %u guarding by a frozen byte; p_access_bad: %u flagged, "
	      "%u safe, %u reading the write-only map, %u loading a packet pointer sign-extended, "
	      "%u trap, %u dividing by 0 past the frozen byte", c.safe, c.guard[0], c.flagged,
	      c.twin_safe, c.wo, c.ldsx, c.traps, c.guard[1]);
	if (!c.loaded[0])
		check_skip_part("the kernel's verdicts (bpf() refused)");
	printf("p_access: %u of 100 called safe, the kernel refuses %u of %u; "
	       "p_access_bad: %u of 100 called safe (%u reading the write-only map, %u loading a "
	       "packet pointer sign-extended, %u runs trap), the kernel refuses %u of %u\n", c.safe,
	       c.refused[0], c.loaded[0], c.twin_safe, c.wo, c.ldsx, c.traps, c.refused[1],
	       c.loaded[1]);
}

/* Issue 15's nested shapes (generators/gen_forms.c): p_cb_loop (a plain loop in a for_each or
 * user_ringbuf_drain callback), p_timer_loop (a timer armed in a plain loop), p_vma_loop
 * (bpf_find_vma called in a plain loop) and p_timer_cross (a timer callback arming map 4's
 * timer), each with its unsafe twin (the loop one past the value's words or the sample's bytes,
 * a timer armed on a value that may be NULL, find_vma's twin callbacks in the loop).  Judged by
 * the verdict (no twin called safe, most safe forms called safe), the interpreter (no program
 * called safe whose run traps, check_program; twins' traps counted: find_vma's run with every
 * call finding its vma) and the kernel, where bpf() works: it refuses the first 25 twins of
 * each, and accepts the first 10 safe forms bpfscev calls safe (or stops at its own size
 * limit). */
struct nest_form {
	struct twin_spec s;
	bool vma;	/* a raw tracepoint: its twins run with the vma found */
	unsigned min_traps;
};

static void nest_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	const struct nest_form *f = c->arg;
	const struct gen_program *p = r->p;
	bool shaped = p->flags & GEN_PROG_NEST, flagged = p->flags & GEN_PROG_NEST_UNSAFE, safe;
	struct gen_program q = *p;
	struct twin_run rq = *r;
	struct verdict_report rep;
	struct scev_verdict v;

	c->calls[r->twin] += r->twin ? flagged : shaped;
	CHECK(!flagged || r->twin, TW "twin flag without its knob", TW_ARGS(r));
	memset(q.helper_data, 1, sizeof(q.helper_data));
	rq.p = &q;
	if (!judge_twin(c, r, &(struct twin_judge){ GEN_PROG_NEST_UNSAFE, shaped,
						    TRAPS(INTERP_TRAP_MEM) | TRAPS(INTERP_TRAP_HELPER) |
							    TRAPS(INTERP_TRAP_LIMIT),
						    false, f->vma ? &rq : NULL },
			&v, &safe)) {
		CHECK(0, TW "verify failed", TW_ARGS(r));
		return;
	}
	CHECK(!flagged || !safe, TW "a twin called safe", TW_ARGS(r));
	if (r->twin ? !flagged || c->seen[1] >= 25 : !shaped || !safe || c->seen[0] >= 10)
		return;
	c->seen[r->twin]++;
	if (!twin_kernel_report(r, &rep))
		return;
	c->loaded[r->twin]++;
	c->refused[r->twin] += !rep.kernel_accepted;
	CHECK(r->twin ? !rep.kernel_accepted
		      : rep.kernel_accepted || strstr(rep.kernel_message, "too large") ||
				strstr(rep.kernel_message, "too complex"),
	      TW "the kernel %s: %s", TW_ARGS(r), rep.kernel_accepted ? "accepts" : "refuses",
	      rep.kernel_message);
	verdict_report__free(&rep);
}

static void test_nest_knobs(void)
{
	/* (no nested plain loops: the kernel walks a callback per pass of the loops around it) */
	static const struct nest_form forms[] = {
		{ { { "p_cb_loop", "p_cb_loop_past" }, 100, 2310000, 60,
		    { { "p_for_each", 60 }, { "p_urb", 60 }, { "p_nest", 0 } } }, false, 20 },
		{ { { "p_timer_loop", "p_timer_loop_null" }, 100, 2320000, 60, { { "p_nest", 0 } } },
		  false, 5 },
		{ { { "p_vma_loop", "p_vma_loop_bad" }, 100, 2330000, 60,
		    { { "p_find_vma", 100 }, { "p_nest", 0 } } }, true, 5 },
		{ { { "p_timer_cross", "p_timer_cross_null" }, 100, 2340000, 60,
		    { { "p_nest", 0 } } }, false, 0 },
	};

	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		const struct nest_form *f = &forms[i];
		struct twin_counts c = { .arg = f };

		for_twin_programs(&f->s, nest_program, &c);
		CHECK(c.calls[0] > 30 && c.calls[1] > 30, "%s: %u of 60 programs have the shape, "
		      "%u of 60 the twin", f->s.knob[0], c.calls[0], c.calls[1]);
		CHECK(c.safe > c.calls[0] / 2, "%s: %u of %u safe forms called safe", f->s.knob[0],
		      c.safe, c.calls[0]);
		CHECK(c.dirty[1] == c.flagged[1], "%s: %u of %u flagged twins not called safe",
		      f->s.knob[1], c.dirty[1], c.flagged[1]);
		CHECK(c.traps >= f->min_traps, "%s: %u of %u flagged twins trap", f->s.knob[1],
		      c.traps, c.flagged[1]);
		if (!c.loaded[1])
			check_skip_part("%s: the kernel's verdicts (bpf() refused)", f->s.knob[1]);
		printf("%s: %u of 60 shaped, %u called safe, the kernel refuses %u of %u; %s: %u "
		       "flagged, %u trap, %u not called safe, the kernel refuses %u of %u\n",
		       f->s.knob[0], c.calls[0], c.safe, c.refused[0], c.loaded[0], f->s.knob[1],
		       c.flagged[1], c.traps, c.dirty[1], c.refused[1], c.loaded[1]);
	}
}

/* p_frame_rules and its unsafe twin p_frame_rules_bad (generators/gen_calls.c), and p_krules /
 * p_krules_bad with p_krules_key (generators/gen_krules.c): rules of the kernel's on stack slots
 * that no run shows (a caller's spilled pointer read or added into narrower by a callee or a
 * bpf_loop callback, a stack pointer stored into a caller's frame, a callee's store into its
 * caller's frame made on some paths only; a 4-byte constant map key whose slot's other half is
 * written after the spill).  The safe forms never trap and more than 90 of 100 are called safe;
 * the twins are flagged and never called safe; the kernel judges the first 25 of each where
 * bpf() works (kernel_judge: every twin refused, not at a limit; no safe verdict refused). */
struct slot_rule_counts {
	uint64_t flag, kernel_end;
	unsigned safe, flagged, twin_safe, loaded[2], refused[2];
};

static void slot_rule_program(void *arg, const struct twin_run *r)
{
	struct slot_rule_counts *c = arg;
	struct scev_verdict v;

	CHECK(!!(r->p->flags & c->flag) == r->twin, TW "the twin's flag is not the twin's",
	      TW_ARGS(r));
	c->flagged += r->twin && (r->p->flags & c->flag);
	if (!r->twin)
		CHECK(!trapped(twin_trap(r, NULL)), TW "the safe form traps", TW_ARGS(r));
	if (twin_verdict(r, &v)) {
		CHECK(!r->twin || v.kind != VERDICT_SAFE, TW "called safe", TW_ARGS(r));
		c->safe += !r->twin && v.kind == VERDICT_SAFE;
		c->twin_safe += r->twin && v.kind == VERDICT_SAFE;
	} else {
		CHECK(0, TW "verify failed", TW_ARGS(r));
	}
	/* (a twin refused at a limit: the walk may go down another arm first) */
	if (r->seed < c->kernel_end)
		kernel_judge(r, true, c->loaded, c->refused);
}

static void slot_rule_knobs(const struct twin_spec *s, uint64_t flag)
{
	struct slot_rule_counts c = { .flag = flag, .kernel_end = s->seed0 + 25 };

	for_twin_programs(s, slot_rule_program, &c);
	CHECK(c.flagged == 100 && c.safe > 90 && !c.twin_safe, "%s: %u of 100 safe; %s: %u "
	      "flagged, %u safe", s->knob[0], c.safe, s->knob[1], c.flagged, c.twin_safe);
	if (!c.loaded[0])
		check_skip_part("%s: the kernel's verdicts (bpf() refused)", s->knob[0]);
	printf("%s: %u of 100 called safe, the kernel refuses %u of %u; %s: %u of 100 called "
	       "safe, the kernel refuses %u of %u\n", s->knob[0], c.safe, c.refused[0], c.loaded[0],
	       s->knob[1], c.twin_safe, c.refused[1], c.loaded[1]);
}

static void test_frame_rules_knobs(void)
{
	static const struct twin_spec s = KERNEL_TWIN_SPEC("p_frame_rules", "p_frame_rules_bad",
							   8400000);

	slot_rule_knobs(&s, GEN_PROG_FRAME_RULE_UNSAFE);
}

static void test_krules_key_knobs(void)
{
	static const struct twin_spec s = { { "p_krules", "p_krules_bad" }, 100, 8410000, 100,
					    { { "p_krules_key", 100 }, { "p_recursion", 0 },
					      { "p_call_chain", 0 }, { "p_big_frame", 0 } } };

	slot_rule_knobs(&s, GEN_PROG_KRULE_UNSAFE);
}

static void test_krules_knobs(void)
{
	/* (no call shapes the kernel refuses: the verdict's reason is the piece's) */
	static const struct twin_spec s = { { "p_krules", "p_krules_bad" }, 100, 7400000,
					    100, { { "p_recursion", 0 }, { "p_call_chain", 0 },
						   { "p_big_frame", 0 } } };
	struct krule_counts c = { 0 };

	for_twin_programs(&s, krule_program, &c);
	CHECK(c.flagged == 100 && c.safe >= 80 && !c.twin_safe && c.alu >= 10, "p_krules: %u of "
	      "100 safe; p_krules_bad: %u flagged, %u safe, %u with a refused immediate", c.safe,
	      c.flagged, c.twin_safe, c.alu);
	if (!c.loaded[0])
		check_skip_part("the kernel's verdicts (bpf() refused)");
	printf("p_krules: %u of 100 called safe, the kernel refuses %u of %u; p_krules_bad: %u "
	       "of 100 called safe (%u with an immediate the kernel refuses, each noted by its "
	       "run), the kernel refuses %u of %u\n", c.safe, c.refused[0], c.loaded[0],
	       c.twin_safe, c.alu, c.refused[1], c.loaded[1]);
}

/* p_kfunc and its unsafe twin p_kfunc_bad (generators/gen_kfunc.c): bpf_task_from_pid and its
 * release in a loop of 1-4 iterations (the twin: a leak, a second release, a release before the
 * NULL test, a pointer for the pid, bpf_cpumask_create, which XDP may not call).  Checked: the
 * flag is the twin's; a run traps only on a twin and then on its reference (INTERP_TRAP_REF); no
 * twin called safe, more than 80 of 100 safe forms called safe (base: none, "kfunc and indirect
 * calls are not modeled"); the kernel on the first 25 of each where bpf() works (kernel_judge: it
 * refuses every twin, no rule gap).  Skipped without vmlinux BTF naming the kfuncs. */
struct kfunc_counts {
	unsigned calls[2], flagged, safe, twin_safe, traps, loaded[2], refused[2];
};

static void kfunc_program(void *arg, const struct twin_run *r)
{
	struct kfunc_counts *c = arg;
	struct scev_verdict v;
	enum interp_trap t;

	CHECK(!!(r->p->flags & GEN_PROG_KFUNC_UNSAFE) == r->twin, TW "the twin's flag is not the "
	      "twin's", TW_ARGS(r));
	c->flagged += r->twin && (r->p->flags & GEN_PROG_KFUNC_UNSAFE);
	c->calls[r->twin] += has_call(r->p, BPF_PSEUDO_KFUNC_CALL, -1);
	t = twin_trap(r, NULL);
	CHECK(!trapped(t) || (r->twin && t == INTERP_TRAP_REF), TW "trap %d", TW_ARGS(r), t);
	c->traps += trapped(t);
	if (twin_verdict(r, &v)) {
		CHECK(!r->twin || v.kind != VERDICT_SAFE, TW "called safe", TW_ARGS(r));
		c->safe += !r->twin && v.kind == VERDICT_SAFE;
		c->twin_safe += r->twin && v.kind == VERDICT_SAFE;
	}
	if (r->seed < 8450000 + 25)
		kernel_judge(r, false, c->loaded, c->refused);
}

static void test_kfunc_knobs(void)
{
	/* (no call shapes the kernel refuses: the verdict's reason is the piece's) */
	static const struct twin_spec s = { { "p_kfunc", "p_kfunc_bad" }, 100, 8450000, 100,
					    { { "p_recursion", 0 }, { "p_call_chain", 0 },
					      { "p_big_frame", 0 } } };
	struct kfunc_counts c = { 0 };

	if (ebpf_kfunc_by_name("bpf_task_from_pid") <= 0 ||
	    ebpf_kfunc_by_name("bpf_cpumask_create") <= 0) {
		check_skip_part("p_kfunc: no vmlinux BTF naming bpf_task_from_pid");
		return;
	}
	for_twin_programs(&s, kfunc_program, &c);
	CHECK(c.calls[0] == 100 && c.calls[1] == 100 && c.flagged == 100, "p_kfunc: %u and %u of "
	      "100 programs call the kfuncs, %u twins flagged", c.calls[0], c.calls[1], c.flagged);
	CHECK(c.safe > 80 && !c.twin_safe, "p_kfunc: %u of 100 called safe; p_kfunc_bad: %u",
	      c.safe, c.twin_safe);
	if (!c.loaded[0])
		check_skip_part("the kernel's verdicts (bpf() refused)");
	printf("p_kfunc: %u of 100 called safe, the kernel refuses %u of %u; p_kfunc_bad: %u runs "
	       "trap, the kernel refuses %u of %u\n", c.safe, c.refused[0], c.loaded[0], c.traps,
	       c.refused[1], c.loaded[1]);
}

/* p_kfunc_region and its unsafe twin p_kfunc_region_bad (generators/gen_kfunc.c): a loop of
 * helper calls inside an RCU or non-preemptible region (the twin: a close too few or too many,
 * the RCU lock twice, the closes skipped on some paths).  Checked: the flag is the twin's; a
 * run traps only on a twin and then by the kernel's rule (INTERP_TRAP_RULE); no twin called
 * safe, more than 80 of 100 safe forms called safe (100; base: none, "bpf_rcu_read_lock is not
 * in bpf/kfunc_table.c"); the kernel on the first 25 of each where bpf() works (kernel_judge: it
 * refuses every twin, 2 of the 25 by its limits, which the rest of the program reaches; no rule
 * gap).  Skipped without vmlinux BTF naming the kfuncs.  Cost:
 * 200 programs, 50 loads. */
static void kregion_program(void *arg, const struct twin_run *r)
{
	struct kfunc_counts *c = arg;
	struct scev_verdict v;
	enum interp_trap t;

	CHECK(!!(r->p->flags & GEN_PROG_KREGION_UNSAFE) == r->twin, TW "the twin's flag is not "
	      "the twin's", TW_ARGS(r));
	c->flagged += r->twin && (r->p->flags & GEN_PROG_KREGION_UNSAFE);
	c->calls[r->twin] += has_call(r->p, BPF_PSEUDO_KFUNC_CALL, -1);
	t = twin_trap(r, NULL);
	CHECK(!trapped(t) || (r->twin && t == INTERP_TRAP_RULE), TW "trap %d", TW_ARGS(r), t);
	c->traps += trapped(t);
	if (twin_verdict(r, &v)) {
		CHECK(!r->twin || v.kind != VERDICT_SAFE, TW "called safe", TW_ARGS(r));
		c->safe += !r->twin && v.kind == VERDICT_SAFE;
		c->twin_safe += r->twin && v.kind == VERDICT_SAFE;
	}
	/* (a twin the kernel refuses by a limit, the rest of the program's: limit_ok) */
	if (r->seed < 8743000 + 25)
		kernel_judge(r, true, c->loaded, c->refused);
}

static void test_kregion_knobs(void)
{
	static const struct twin_spec s = { { "p_kfunc_region", "p_kfunc_region_bad" }, 100,
					    8743000, 100, { { "p_recursion", 0 },
							    { "p_call_chain", 0 },
							    { "p_big_frame", 0 } } };
	struct kfunc_counts c = { 0 };

	if (ebpf_kfunc_by_name("bpf_rcu_read_lock") <= 0 ||
	    ebpf_kfunc_by_name("bpf_preempt_disable") <= 0) {
		check_skip_part("p_kfunc_region: no vmlinux BTF naming the region kfuncs");
		return;
	}
	for_twin_programs(&s, kregion_program, &c);
	CHECK(c.calls[0] == 100 && c.calls[1] == 100 && c.flagged == 100, "p_kfunc_region: %u "
	      "and %u of 100 programs call the kfuncs, %u twins flagged", c.calls[0], c.calls[1],
	      c.flagged);
	CHECK(c.safe > 80 && !c.twin_safe && c.traps > 0, "p_kfunc_region: %u of 100 called safe; "
	      "p_kfunc_region_bad: %u called safe, %u runs trap", c.safe, c.twin_safe, c.traps);
	if (!c.loaded[0])
		check_skip_part("the kernel's verdicts (bpf() refused)");
	printf("p_kfunc_region: %u of 100 called safe, the kernel refuses %u of %u; "
	       "p_kfunc_region_bad: %u runs trap, the kernel refuses %u of %u\n", c.safe,
	       c.refused[0], c.loaded[0], c.traps, c.refused[1], c.loaded[1]);
}

/* p_links and its unsafe twin p_links_bad (generators/gen_links.c): a packet byte copied (a
 * register move, a spill and its fill, a move plus a constant, a 32-bit move of the
 * zero-extended byte), one copy bounded by a jump, the other an offset into 8 zeroed stack
 * bytes before a load.  The kernel links the copies (scalar ids, sync_linked_regs) and accepts;
 * bpfscev links them at the jump (scev/links.c) and calls the safe form safe, more than 95 of
 * 100 (97; the 3 others for loops of other pieces; base24, which bounded the tested copy alone:
 * none, "stack access [-96, 160) outside [-512, 0)").  The twin writes the used copy between
 * the copy and its use, so the link dies: the load is above the frame, which every run on its
 * own input reaches (traps, INTERP_TRAP_MEM), the kernel refuses, and a link that outlived the
 * write would hide (the arm's bound and the written value have no number in common: the arm
 * would be dropped, the program called safe).  The kernel judges the first 25 of each
 * (kernel_judge). */
static void test_links_knobs(void)
{
	static const struct twin_spec s = KERNEL_TWIN_SPEC("p_links", "p_links_bad", 7600000);
	static const struct kernel_twin k = { { GEN_PROG_LINK_UNSAFE }, 7600000 + 25 };

	kernel_twin_knobs(&s, &k);
}

/* p_strtol and its unsafe twin p_strtol_bad (generators/gen_strtol.c): bpf_strtol or
 * bpf_strtoul parses digits from one stack slot into the 8 bytes of another, aligned (long
 * *res: ARG_PTR_TO_FIXED_SIZE_MEM | MEM_UNINIT | MEM_WRITE | MEM_ALIGNED; zeroed first),
 * read back after the call; the twin's res is misaligned (a slot + 4, or fp - 4, which also ends
 * past the frame).  The safe form never traps and is called safe, more than 95 of 100 (99;
 * base24: none, "aligned memory of a fixed size: not modeled"); the twin traps on every run at
 * the call (the interpreter's alignment check) and is never called safe.  Half of them (session
 * 30) give res at a variable offset, a pair of slots + (an input byte & 8), the twin's | 4
 * (the tnum misaligned): d996b52 called those unsupported ("aligned bytes at a variable offset:
 * not modeled"), about half of the safe form.  The kernel judges the first 25 of each
 * (kernel_judge). */
static void test_strtol_knobs(void)
{
	static const struct twin_spec s = KERNEL_TWIN_SPEC("p_strtol", "p_strtol_bad", 7650000);
	static const struct kernel_twin k = { { GEN_PROG_STRTOL_UNSAFE }, 7650000 + 25 };

	kernel_twin_knobs(&s, &k);
}

/* p_check_mtu and its unsafe twin p_check_mtu_bad (generators/gen_mtu.c, session 29):
 * bpf_check_mtu's u32 *mtu_len an aligned stack slot holding the length to check, read back
 * after the call; the twin's is misaligned (a slot + 2) or past the frame's top (fp - 2).  The
 * safe form never traps and is called safe, more than 95 of 100 (the session-28 base 62a8ebc:
 * none, "argument 3 (R3) is aligned memory of a fixed size: not modeled", out28's fifteen
 * outside regressions); the twin traps on every run at the call and is never called safe.  The
 * kernel judges the first 25 of each (kernel_judge). */
static void test_check_mtu_knobs(void)
{
	static const struct twin_spec s =
		KERNEL_TWIN_SPEC("p_check_mtu", "p_check_mtu_bad", 8150000);
	static const struct kernel_twin k = { { GEN_PROG_MTU_UNSAFE }, 8150000 + 25 };

	kernel_twin_knobs(&s, &k);
}

/* p_fastcall and its unsafe twin p_fastcall_bad (generators/gen_fastcall.c, session 30): main
 * stores at fp-512 and calls f, whose only stack is a bpf_fastcall spill/fill of r1 around
 * bpf_get_smp_processor_id, which the kernel removes with its stack (512 + 0); the twin's f
 * also stores below the pattern, which keeps it (512 + 16).  With the other call shapes off,
 * the safe form never traps and is called safe, more than 90 of 100 (d996b52: none, "combined
 * stack size of 2 calls is 528"); the twin stops at the interpreter's 512 bytes on every run
 * (INTERP_TRAP_LIMIT), is never called safe, and its reason is the combined stack (more than
 * 90 of 100: another piece's rule may come first).  The kernel judges the first 10 of each
 * (kernel_judge: no rule gap, every twin refused, some at its 1M-instruction walk, which
 * comes before its stack check). */
static void fastcall_program(void *arg, const struct twin_run *r)
{
	struct kernel_twin_counts *c = arg;
	const struct gen_program *p = r->p;
	bool flagged = p->flags & GEN_PROG_FASTCALL_UNSAFE, fc = false;
	struct scev_verdict v;

	for (size_t pc = 0; pc < p->len; pc++)
		fc |= p->insns[pc].code == (BPF_JMP | BPF_CALL) && !p->insns[pc].src_reg &&
		      p->insns[pc].imm == BPF_FUNC_get_smp_processor_id;
	c->t.calls[r->twin] += fc;
	c->t.flagged[r->twin] += flagged;
	CHECK(!flagged || (r->twin && fc), TW "twin flag without its knob or its call",
	      TW_ARGS(r));
	if (twin_verdict(r, &v)) {
		CHECK(!flagged || v.kind != VERDICT_SAFE, TW "a flagged twin called safe",
		      TW_ARGS(r));
		c->t.shaped[1] += flagged && strstr(v.reason, "combined stack size") != NULL;
		c->t.safe += !r->twin && fc && v.kind == VERDICT_SAFE;
	}
	if (flagged)
		c->t.traps += twin_trap(r, NULL) == INTERP_TRAP_LIMIT;
	if (r->seed < c->k->kernel_end)
		kernel_judge(r, true, c->loaded, c->refused);
}

static void test_fastcall_knobs(void)
{
	static const struct twin_spec s = {
		{ "p_fastcall", "p_fastcall_bad" }, 100, 8250000, 100,
		{ { "p_recursion", 0 }, { "p_call_chain", 0 }, { "p_big_frame", 0 },
		  { "p_subprog", 0 }, { "p_call_args", 0 } } };
	static const struct kernel_twin k = { { GEN_PROG_FASTCALL_UNSAFE }, 8250000 + 10 };
	struct kernel_twin_counts c = { .k = &k };

	for_twin_programs(&s, fastcall_program, &c);
	CHECK(c.t.calls[0] > 95 && c.t.calls[1] > 95, "p_fastcall: %u and %u of 100 programs call "
	      "f", c.t.calls[0], c.t.calls[1]);
	CHECK(c.t.safe > 90, "p_fastcall: only %u of 100 called safe", c.t.safe);
	CHECK(c.t.traps == c.t.flagged[1] && c.t.flagged[1] > 95 && c.t.shaped[1] > 90,
	      "p_fastcall_bad: %u flagged, %u stop at 512 bytes, %u refused for the combined stack",
	      c.t.flagged[1], c.t.traps, c.t.shaped[1]);
	if (!c.loaded[0])
		check_skip_part("p_fastcall: the kernel's verdicts (bpf() refused)");
	printf("p_fastcall: %u of 100 called safe, the kernel accepts %u of %u; p_fastcall_bad: "
	       "%u flagged, %u stop at 512 bytes, none called safe, the kernel refuses %u of %u\n",
	       c.t.safe, c.loaded[0] - c.refused[0], c.loaded[0], c.t.flagged[1], c.t.traps,
	       c.refused[1], c.loaded[1]);
}

/* p_sock and its unsafe twin p_sock_unsafe (generators/gen_sock.c): an XDP program looks up a
 * socket (bpf_sk_lookup_tcp, _udp, bpf_skc_lookup_tcp), reads a field after its NULL test and
 * releases it; the twin leaks it, reads it after the release, before the NULL test (flags 1: no
 * lookup finds one) or past struct bpf_sock.  The safe form never traps (check_program) and is
 * called safe, more than 95 of 100 (base25: none, "its result is a socket or NULL: not
 * modeled"); the twin traps on its own helper data on every run (a reference leak at the exit,
 * INTERP_TRAP_REF, or a load from a released socket, NULL or past the socket's bytes,
 * INTERP_TRAP_MEM) and is never called safe.  The kernel judges the first 25 of each
 * (kernel_judge).  Half the pieces put the socket in a sockmap or sockhash (map 7) and delete
 * it again, whose twin gives the map a stack value: at least 30 of each hundred (before socket
 * maps were modeled, "bpf_map_update_elem#2 with the socket map: not modeled" made the safe
 * count fail).  Half of those look the socket up in the map between (a referenced socket of its
 * own, released after its NULL test), whose twins read it before the test and leak it, or
 * release it before the test and read it after: at least 12 of each hundred (before socket-map
 * lookups were modeled, "a lookup returns a referenced socket or NULL: not modeled" made the
 * safe count fail). */
struct sock_counts {
	struct twin_counts t;
	unsigned traps, loaded[2], refused[2], sock_map[2], map_lookup[2];
};

/* Whether p looks a socket up in the socket map (the lookup form: map 7 loaded into r1 and
 * bpf_map_lookup_elem called two instructions later, after r2's two). */
static bool sock_map_lookup(const struct gen_program *p)
{
	for (size_t k = 0; k + 4 < p->len; k++)
		if (ebpf_is_ldimm64(&p->insns[k]) && p->insns[k].dst_reg == BPF_REG_1 &&
		    p->insns[k].imm == GEN_MAP_SOCK && ebpf_is_helper_call(&p->insns[k + 4]) &&
		    p->insns[k + 4].imm == BPF_FUNC_map_lookup_elem)
			return true;
	return false;
}

static void sock_program(void *arg, const struct twin_run *r)
{
	struct sock_counts *c = arg;
	struct scev_verdict v;

	/* (the flag, the verdict, the safe count; any trap of the twin, a leak's too) */
	mem_twin_verdict(&c->t, r, GEN_PROG_SOCK_UNSAFE, &v);
	c->traps += r->twin && trapped(twin_trap(r, NULL));
	c->sock_map[r->twin] += r->p->map_cnt > GEN_MAP_SOCK &&
				(r->p->maps[GEN_MAP_SOCK].type == BPF_MAP_TYPE_SOCKMAP ||
				 r->p->maps[GEN_MAP_SOCK].type == BPF_MAP_TYPE_SOCKHASH);
	c->map_lookup[r->twin] += r->p->map_cnt > GEN_MAP_SOCK && sock_map_lookup(r->p);
	if (r->seed < 7700000 + 25)
		kernel_judge(r, true, c->loaded, c->refused);
}

static void test_sock_knobs(void)
{
	static const struct twin_spec s = KERNEL_TWIN_SPEC("p_sock", "p_sock_unsafe", 7700000);
	struct sock_counts c = { 0 };

	for_twin_programs(&s, sock_program, &c);
	CHECK(c.t.flagged[1] == 100 && c.traps == 100, "p_sock_unsafe: %u of %u flagged programs "
	      "trap on their own helper data", c.traps, c.t.flagged[1]);
	CHECK(c.t.safe > 95, "p_sock: only %u of 100 programs called safe", c.t.safe);
	CHECK(c.sock_map[0] >= 30 && c.sock_map[1] >= 30, "p_sock: %u and %u of 100 programs (safe "
	      "form, twin) use a socket map", c.sock_map[0], c.sock_map[1]);
	CHECK(c.map_lookup[0] >= 12 && c.map_lookup[1] >= 12, "p_sock: %u and %u of 100 programs "
	      "(safe form, twin) look a socket up in the socket map", c.map_lookup[0],
	      c.map_lookup[1]);
	if (!c.loaded[0])
		check_skip_part("p_sock: the kernel's verdicts (bpf() refused)");
	printf("p_sock: %u of 100 called safe (%u with a socket map, %u of them looking it up), the "
	       "kernel accepts %u of %u; p_sock_unsafe: %u of %u trap (%u with a socket map, %u "
	       "looking it up), none called safe, the kernel refuses %u of %u\n", c.t.safe,
	       c.sock_map[0], c.map_lookup[0], c.loaded[0] - c.refused[0], c.loaded[0], c.traps,
	       c.t.flagged[1], c.sock_map[1], c.map_lookup[1], c.refused[1], c.loaded[1]);
}

/* p_sk_prog and its twin p_sk_prog_unsafe (generators/gen_sock.c, session 28): sk_reuseport
 * programs reading their packet (bpf_sk_select_reuseport of a reuseport array) and sk_lookup
 * programs reading a copy of their context (a socket map's socket given to bpf_sk_assign, then
 * released); the twins store into the read-only context or sk_reuseport's packet, read past
 * data_end or leak the socket, right after the prologue, so that every run of their own input
 * traps.  Each type at least 30 of 100 for both knobs; the safe forms called safe (at least 95:
 * the kernel refuses some at its limits, the analysis none), every twin flagged, trapping and
 * not called safe; the kernel judges the first 25 of each (every twin refused). */
struct sk_prog_counts {
	struct twin_counts t;
	unsigned traps, loaded[2], refused[2], reuse[2], lookup[2], select, assign;
};

static unsigned calls_of(const struct gen_program *p, int32_t id)
{
	unsigned n = 0;

	for (size_t k = 0; k < p->len; k++)
		n += ebpf_is_helper_call(&p->insns[k]) && p->insns[k].imm == id;
	return n;
}

static void sk_prog_program(void *arg, const struct twin_run *r)
{
	struct sk_prog_counts *c = arg;
	bool reuse = r->p->prog_type == BPF_PROG_TYPE_SK_REUSEPORT;
	struct scev_verdict v;

	CHECK(reuse || r->p->prog_type == BPF_PROG_TYPE_SK_LOOKUP, TW "type %u", TW_ARGS(r),
	      r->p->prog_type);
	mem_twin_verdict(&c->t, r, GEN_PROG_SOCK_UNSAFE, &v);
	c->traps += r->twin && trapped(twin_trap(r, NULL));
	c->reuse[r->twin] += reuse;
	c->lookup[r->twin] += !reuse;
	CHECK(r->p->map_cnt > GEN_MAP_SOCK &&
		      r->p->maps[GEN_MAP_SOCK].type == (reuse ? BPF_MAP_TYPE_REUSEPORT_SOCKARRAY
							      : r->p->maps[GEN_MAP_SOCK].type) &&
		      (reuse || r->p->maps[GEN_MAP_SOCK].type == BPF_MAP_TYPE_SOCKMAP ||
		       r->p->maps[GEN_MAP_SOCK].type == BPF_MAP_TYPE_SOCKHASH),
	      TW "map 7", TW_ARGS(r));
	if (!r->twin) {
		c->select += reuse && calls_of(r->p, BPF_FUNC_sk_select_reuseport) > 0;
		c->assign += !reuse && calls_of(r->p, BPF_FUNC_sk_assign) > 0 &&
			     calls_of(r->p, BPF_FUNC_sk_assign) ==
				     calls_of(r->p, BPF_FUNC_sk_release);
	}
	if (r->seed < 7800000 + 25)
		kernel_judge(r, true, c->loaded, c->refused);
}

static void test_sk_prog_knobs(void)
{
	static const struct twin_spec s =
		KERNEL_TWIN_SPEC("p_sk_prog", "p_sk_prog_unsafe", 7800000);
	struct sk_prog_counts c = { 0 };

	for_twin_programs(&s, sk_prog_program, &c);
	CHECK(c.t.flagged[1] == 100 && c.traps == 100, "p_sk_prog_unsafe: %u of %u flagged "
	      "programs trap on their own input", c.traps, c.t.flagged[1]);
	CHECK(c.t.safe >= 95, "p_sk_prog: only %u of 100 programs called safe", c.t.safe);
	CHECK(c.reuse[0] >= 30 && c.lookup[0] >= 30 && c.reuse[1] >= 30 && c.lookup[1] >= 30,
	      "p_sk_prog: %u sk_reuseport and %u sk_lookup programs; the twin's %u and %u",
	      c.reuse[0], c.lookup[0], c.reuse[1], c.lookup[1]);
	CHECK(c.select == c.reuse[0] && c.assign == c.lookup[0], "p_sk_prog: %u of %u "
	      "sk_reuseport programs select, %u of %u sk_lookup ones assign and release",
	      c.select, c.reuse[0], c.assign, c.lookup[0]);
	if (!c.loaded[0])
		check_skip_part("p_sk_prog: the kernel's verdicts (bpf() refused)");
	printf("p_sk_prog: %u of 100 called safe (%u sk_reuseport, %u sk_lookup), the kernel "
	       "accepts %u of %u; p_sk_prog_unsafe: %u of %u trap (%u sk_reuseport, %u sk_lookup), "
	       "none called safe, the kernel refuses %u of %u\n", c.t.safe, c.reuse[0],
	       c.lookup[0], c.loaded[0] - c.refused[0], c.loaded[0], c.traps, c.t.flagged[1],
	       c.reuse[1], c.lookup[1], c.refused[1], c.loaded[1]);
}

/* p_ld_abs_sub and its twin p_ld_abs_sub_skip (generators/gen_ldabs.c, session 29): tc programs
 * whose statements call a static function that uses LD_ABS / LD_IND (a failed load returns 0
 * from the function, not from the program), storing the context into main's frame before the
 * load or not at all, the result used; the twin stores after a load past the packet, right
 * after the prologue, and main reads through the slot's 0 on every run.  Both load kinds at
 * least 30 of 100 for each knob; the safe forms called safe (at least 95: the kernel refuses
 * some at its limits, the analysis none), every twin flagged, trapping on memory and not called
 * safe; the kernel judges the first 25 of each (every twin refused).  On 2724396 no twin traps:
 * its interpreter ended the program at a failed legacy load in any function (its verdict called
 * the twins unsafe already: out28's patches); the session-28 base 62a8ebc calls 19 of the first
 * 20 twins of `gen --seed 1` safe. */
struct ld_abs_counts {
	struct twin_counts t;
	unsigned abs[2], ind[2], loaded[2], refused[2];
};

static void ld_abs_program(void *arg, const struct twin_run *r)
{
	struct ld_abs_counts *c = arg;
	struct scev_verdict v;
	bool abs = false, ind = false;

	CHECK(r->p->prog_type == BPF_PROG_TYPE_SCHED_CLS, TW "type %u", TW_ARGS(r),
	      r->p->prog_type);
	mem_twin_verdict(&c->t, r, GEN_PROG_LD_ABS_UNSAFE, &v);
	for (size_t k = r->p->funcs[0].end; k < r->p->len; k++) {
		uint8_t code = r->p->insns[k].code;

		abs = abs || code == (BPF_LD | BPF_ABS | BPF_SIZE(code));
		ind = ind || code == (BPF_LD | BPF_IND | BPF_SIZE(code));
	}
	CHECK(abs || ind, TW "no legacy packet load in a static function", TW_ARGS(r));
	c->abs[r->twin] += abs;
	c->ind[r->twin] += ind;
	if (r->seed < 8100000 + 25)
		kernel_judge(r, true, c->loaded, c->refused);
}

static void test_ld_abs_knobs(void)
{
	static const struct twin_spec s =
		KERNEL_TWIN_SPEC("p_ld_abs_sub", "p_ld_abs_sub_skip", 8100000);
	struct ld_abs_counts c = { 0 };

	for_twin_programs(&s, ld_abs_program, &c);
	CHECK(c.t.flagged[1] == 100 && c.t.traps == 100, "p_ld_abs_sub_skip: %u of %u flagged "
	      "programs trap on memory on their own input", c.t.traps, c.t.flagged[1]);
	CHECK(c.t.safe >= 95, "p_ld_abs_sub: only %u of 100 programs called safe", c.t.safe);
	CHECK(c.abs[0] >= 30 && c.ind[0] >= 30 && c.abs[1] >= 30 && c.ind[1] >= 30,
	      "p_ld_abs_sub: %u with LD_ABS, %u with LD_IND; the twin's %u and %u", c.abs[0],
	      c.ind[0], c.abs[1], c.ind[1]);
	if (!c.loaded[0])
		check_skip_part("p_ld_abs_sub: the kernel's verdicts (bpf() refused)");
	printf("p_ld_abs_sub: %u of 100 called safe (%u LD_ABS, %u LD_IND), the kernel accepts %u "
	       "of %u; p_ld_abs_sub_skip: %u of %u trap, none called safe, the kernel refuses %u "
	       "of %u\n", c.t.safe, c.abs[0], c.ind[0], c.loaded[0] - c.refused[0], c.loaded[0],
	       c.t.traps, c.t.flagged[1], c.refused[1], c.loaded[1]);
}

/* p_cg_storage and its twin p_cg_storage_unsafe (generators/gen_sock.c, session 29): cgroup_skb
 * programs whose loops read their cgroup storage (bpf_get_local_storage of map 8, 64 bytes) and
 * add to a per-CPU storage's counter (map 9); the twins call bpf_get_local_storage with flags 1
 * or read a byte past the storage, right after the prologue, so that every run traps.  The
 * safe forms called safe (at least 95 of 100), every twin flagged, trapping and not called
 * safe; every program of type cgroup_skb with maps 8 and 9 the two storages; the kernel judges
 * the first 25 of each (every twin refused, no rule gap). */
struct cg_counts {
	struct twin_counts t;
	unsigned traps, loaded[2], refused[2], storage;
};

static void cg_program(void *arg, const struct twin_run *r)
{
	struct cg_counts *c = arg;
	struct scev_verdict v;

	CHECK(r->p->prog_type == BPF_PROG_TYPE_CGROUP_SKB, TW "type %u", TW_ARGS(r),
	      r->p->prog_type);
	CHECK(r->p->map_cnt == GEN_MAP_PCGS + 1 &&
		      r->p->maps[GEN_MAP_CGS].type == BPF_MAP_TYPE_CGROUP_STORAGE &&
		      r->p->maps[GEN_MAP_PCGS].type == BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE,
	      TW "maps 8 and 9", TW_ARGS(r));
	mem_twin_verdict(&c->t, r, GEN_PROG_SOCK_UNSAFE, &v);
	c->traps += r->twin && trapped(twin_trap(r, NULL));
	c->storage += !r->twin && calls_of(r->p, BPF_FUNC_get_local_storage) > 0;
	if (r->seed < 7900000 + 25)
		kernel_judge(r, true, c->loaded, c->refused);
}

static void test_cg_storage_knobs(void)
{
	static const struct twin_spec s =
		KERNEL_TWIN_SPEC("p_cg_storage", "p_cg_storage_unsafe", 7900000);
	struct cg_counts c = { 0 };

	for_twin_programs(&s, cg_program, &c);
	CHECK(c.t.flagged[1] == 100 && c.traps == 100, "p_cg_storage_unsafe: %u of %u flagged "
	      "programs trap on their own input", c.traps, c.t.flagged[1]);
	CHECK(c.t.safe >= 95, "p_cg_storage: only %u of 100 programs called safe", c.t.safe);
	CHECK(c.storage == 100, "p_cg_storage: %u of 100 programs call bpf_get_local_storage",
	      c.storage);
	if (!c.loaded[0])
		check_skip_part("p_cg_storage: the kernel's verdicts (bpf() refused)");
	printf("p_cg_storage: %u of 100 called safe, the kernel accepts %u of %u; "
	       "p_cg_storage_unsafe: %u of %u trap, none called safe, the kernel refuses %u of "
	       "%u\n", c.t.safe, c.loaded[0] - c.refused[0], c.loaded[0], c.traps,
	       c.t.flagged[1], c.refused[1], c.loaded[1]);
}

/* p_sk_msg and its twin p_sk_msg_unsafe (generators/gen_sock.c, session 29): sk_msg programs
 * whose loops read their message (bpf_msg_redirect_map of map 7, a sockmap, by a message byte);
 * the twins store into the read-only context or read past data_end right after the prologue,
 * so that every run traps.  The safe forms called safe (at least 95 of 100), every twin flagged,
 * trapping and not called safe; the kernel judges the first 25 of each (verdicts only: it
 * cannot test-run sk_msg). */
static void sk_msg_program(void *arg, const struct twin_run *r)
{
	struct cg_counts *c = arg;
	struct scev_verdict v;

	CHECK(r->p->prog_type == BPF_PROG_TYPE_SK_MSG, TW "type %u", TW_ARGS(r), r->p->prog_type);
	mem_twin_verdict(&c->t, r, GEN_PROG_SOCK_UNSAFE, &v);
	c->traps += r->twin && trapped(twin_trap(r, NULL));
	c->storage += !r->twin && calls_of(r->p, BPF_FUNC_msg_redirect_map) > 0;
	if (r->seed < 7950000 + 25)
		kernel_judge(r, true, c->loaded, c->refused);
}

static void test_sk_msg_knobs(void)
{
	static const struct twin_spec s = KERNEL_TWIN_SPEC("p_sk_msg", "p_sk_msg_unsafe", 7950000);
	struct cg_counts c = { 0 };

	for_twin_programs(&s, sk_msg_program, &c);
	CHECK(c.t.flagged[1] == 100 && c.traps == 100, "p_sk_msg_unsafe: %u of %u flagged "
	      "programs trap on their own input", c.traps, c.t.flagged[1]);
	CHECK(c.t.safe >= 95, "p_sk_msg: only %u of 100 programs called safe", c.t.safe);
	CHECK(c.storage >= 50, "p_sk_msg: %u of 100 programs redirect", c.storage);
	if (!c.loaded[0])
		check_skip_part("p_sk_msg: the kernel's verdicts (bpf() refused)");
	printf("p_sk_msg: %u of 100 called safe (%u redirect), the kernel accepts %u of %u; "
	       "p_sk_msg_unsafe: %u of %u trap, none called safe, the kernel refuses %u of %u\n",
	       c.t.safe, c.storage, c.loaded[0] - c.refused[0], c.loaded[0], c.traps,
	       c.t.flagged[1], c.refused[1], c.loaded[1]);
}

/* The kernel walk's pieces (generators/gen_iter.c gi_kwiden, gen_kwalk.c), each with its twin
 * that only the kernel's walk tells apart (no run of the twin traps, but a write to r10 it
 * reaches: INTERP_TRAP_RULE).  Each form's n programs (KERNEL_TWIN_SPEC's knobs, seeds from
 * the spec's) are judged by the interpreter (check_program: the safe form never traps; the twin's
 * runs on its own input trap only as kwalk_form.rule says), by the verdict (flagged exactly when
 * a twin, no twin called safe, at least min_safe safe forms called safe) and by the kernel on the
 * first 25 of each where bpf() works (kernel_judge: every twin refused, no rule gap).  Z3 judges
 * the claims of their loops in the campaign (fuzz --z3), not here. */
struct kwalk_form {
	struct twin_spec s;
	uint64_t flag;
	bool rule;	/* a twin's run may trap on a write to r10 */
	unsigned min_safe;
};

struct kwalk_counts {
	const struct kwalk_form *f;
	unsigned safe, flagged, twin_safe, traps, loaded[2], refused[2], limit;
};

static void kwalk_program(void *arg, const struct twin_run *r)
{
	struct kwalk_counts *c = arg;
	enum interp_trap t = twin_trap(r, NULL);
	struct scev_verdict v;

	CHECK(!!(r->p->flags & c->f->flag) == r->twin, TW "the twin's flag is not the twin's",
	      TW_ARGS(r));
	c->flagged += r->twin && (r->p->flags & c->f->flag);
	CHECK(!trapped(t) || (r->twin && c->f->rule && t == INTERP_TRAP_RULE), TW "the run traps: %d",
	      TW_ARGS(r), t);
	c->traps += trapped(t);
	if (twin_verdict(r, &v)) {
		CHECK(!r->twin || v.kind != VERDICT_SAFE, TW "the twin called safe", TW_ARGS(r));
		c->safe += !r->twin && v.kind == VERDICT_SAFE;
		c->twin_safe += r->twin && v.kind == VERDICT_SAFE;
	} else {
		CHECK(0, TW "verify failed", TW_ARGS(r));
	}
	if (r->seed < c->f->s.seed0 + 25)
		c->limit += kernel_judge(r, true, c->loaded, c->refused);
}

static void kwalk_knobs(const struct kwalk_form *f)
{
	struct kwalk_counts c = { .f = f };

	for_twin_programs(&f->s, kwalk_program, &c);
	CHECK(c.flagged == f->s.n && !c.twin_safe && c.safe >= f->min_safe,
	      "%s: %u of %u called safe; %s: %u flagged, %u called safe", f->s.knob[0], c.safe,
	      f->s.n, f->s.knob[1], c.flagged, c.twin_safe);
	if (!c.loaded[0])
		check_skip_part("%s: the kernel's verdicts (bpf() refused)", f->s.knob[0]);
	printf("%s: %u of %u called safe, the kernel refuses %u of %u; %s: %u flagged, %u called "
	       "safe, %u runs trap, the kernel refuses %u of %u (%u of the %u at one of its limits)\n",
	       f->s.knob[0], c.safe, f->s.n, c.refused[0], c.loaded[0], f->s.knob[1], c.flagged,
	       c.twin_safe, c.traps, c.refused[1], c.loaded[1], c.limit, c.refused[0] + c.refused[1]);
}

/* p_kwiden and its twin p_kwiden_copy (gen_iter.c gi_kwiden): an iterator or may_goto loop
 * steps a pointer over 3-5 cells of the stack or of a map value and ends by a test of its
 * counter (the twin: of the counter's copy, which the kernel widens); the may_goto may be two
 * static calls down (the twin refused the same way), and the safe form's body may call
 * bpf_loop instead, which widens nothing, and test the copy.  The twin is refused by the kernel
 * (its pointer walks out of the cells) and never called safe.  The safe form's stack cells made
 * bpfscev lose main's spilled packet pointer at fp-8 ("R0 is not a known pointer" where main
 * reads the packet after the piece, which the kernel accepts: 61 of 100 called safe) until the
 * stack spans the symbolic execution forgets were narrowed to both passes' (scev.c
 * try_stack_shrink): at least 90 of 100 (98; the two others unsafe for other pieces: a loop
 * with an even step, a call chain of 9 frames).
 *
 * p_jeq_null and its twin p_jeq_null_stack (gen_kwalk.c): a map value that may be NULL read
 * where `==` with one tested not NULL says it is not (the kernel's jeq inference); the twin
 * compares it with the stack or data, which the kernel infers nothing from, and is refused.
 * Safe forms called safe: at least 90 of 100 (100).  (main at c6dda2c called every twin
 * safe: its array lookups with a key in bounds were never NULL, a rule gap;
 * array_lookup_key_range_unsafe.)
 *
 * p_dead_arm and its twin p_dead_arm_reached (gen_kwalk.c): a pointer's narrow spill on a path
 * of a value the kernel walks apart, a write to r10 past a test the kernel decides; the twin's
 * on an arm the kernel walks (the runs that reach the write trap, INTERP_TRAP_RULE).  Safe forms
 * called safe: at least 90 of 100 (100). */
static void test_kwalk_knobs(void)
{
	static const struct kwalk_form forms[] = {
		{ KERNEL_TWIN_SPEC("p_kwiden", "p_kwiden_copy", 8100000), GEN_PROG_KWIDEN_UNSAFE,
		  false, 90 },
		{ KERNEL_TWIN_SPEC("p_jeq_null", "p_jeq_null_stack", 8200000), GEN_PROG_JEQ_UNSAFE,
		  false, 90 },
		{ KERNEL_TWIN_SPEC("p_dead_arm", "p_dead_arm_reached", 8300000),
		  GEN_PROG_DEAD_ARM_UNSAFE, true, 90 },
	};

	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		kwalk_knobs(&forms[i]);
}

/* The stack shapes session 27 fixed by hand (generators/gen_stack.c), each with its twin, judged
 * as slot_rule_knobs judges the frame rules: the safe forms never trap and more than 90 of 100
 * are called safe, the twins (GEN_PROG_STACK_SHAPE_UNSAFE) are never called safe, and the
 * kernel judges the first 25 of each where bpf() works (every twin refused, no safe verdict
 * refused).
 *  - p_frame_fields / p_frame_fields_over: a callee or bpf_loop callback writes two fields of
 *    main's frame around main's spilled packet pointer (the twin: one over it).  Before what
 *    callees write of a caller's frame was a byte mask (kw27b), one span joined both fields and
 *    main lost the spill ("R2 is not a known pointer"): f9255aa called 0 of 40 safe (seed 1,
 *    gen --count 40), 2176d64 (kw27 and snd27 in, kw27b not) 0 of 40.
 *  - p_fill_join / p_fill_join_narrow: the pointer spilled on some paths only, read back whole
 *    (the twin: in 1, 2 or 4 bytes, "invalid size of register fill"; f9255aa called 38 of 40
 *    such twins safe, a rule gap: the join dropped the pointer's cell, snd27).
 *  - p_stack_walk / p_stack_walk_over: a loop's stores through a stepped stack pointer between
 *    two spills (the twin spills over a cell the loop writes).  Before try_stack_shrink (kw27)
 *    the first pass's span of the store reached the frame's top and the spill above was lost:
 *    f9255aa called 0 of 40 safe. */
static void test_stack_shape_knobs(void)
{
	static const struct twin_spec s[] = {
		KERNEL_TWIN_SPEC("p_frame_fields", "p_frame_fields_over", 8500000),
		KERNEL_TWIN_SPEC("p_fill_join", "p_fill_join_narrow", 8510000),
		KERNEL_TWIN_SPEC("p_stack_walk", "p_stack_walk_over", 8520000),
	};

	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		slot_rule_knobs(&s[i], GEN_PROG_STACK_SHAPE_UNSAFE);
}

/* p_loop_fields and its twin p_loop_fields_unset (generators/gen_stack.c gi_loop_fields): a loop
 * writes two fields of each element of a stack array through one stepped pointer, and one field
 * of an element it wrote is read after it; the twin reads a byte neither field covers.  Judged
 * with the unprivileged rule, under which only the twin is unsafe (root reads unwritten stack):
 * bpfscev's unprivileged verdict calls at least 90 of 100 safe forms safe (99) and none "read of
 * stack bytes ... not written on every path" (the base, 62a8ebc, whose exit_fills took only a store stepping by its own
 * width, called 0 of 40 safe, all but one for that read), and no twin safe; the verdict's
 * unprivileged runs (stack watch, a safe verdict forged) see no unwritten read of the safe form
 * and one on every twin's run (GEN_PROG_STACK_UNWRITTEN, the twin's flag); the kernel asked as an
 * unprivileged loader, on the first 25 of each where bpf() works, refuses every twin for that
 * read ("invalid read from stack") and no safe form for it. */
struct loop_fields_counts {
	unsigned safe, unwritten, flagged, dirty, twin_safe, loaded[2], refused[2];
};

static void loop_fields_program(void *arg, const struct twin_run *r)
{
	struct loop_fields_counts *c = arg;
	struct verdict_opts vo = { .sz = sizeof(vo), .kernel = true, .runs = 1, .unprivileged = true,
				   .prog_type = r->p->prog_type };
	struct scev_opts o = { .sz = sizeof(o), .unprivileged = true };
	struct verdict_report rep;
	struct scev_verdict v;
	struct ebpf_object obj;
	struct ebpf_prog view;
	struct diag d;

	CHECK(!!(r->p->flags & GEN_PROG_STACK_UNWRITTEN) == r->twin, TW "the twin's flag is not the "
	      "twin's", TW_ARGS(r));
	c->flagged += r->twin && (r->p->flags & GEN_PROG_STACK_UNWRITTEN);
	gen_program__prog(r->p, &view, "g");
	diag_clear(&d);
	if (scev_verify(&v, NULL, &view, r->p->maps, r->p->map_cnt, &o, &d)) {
		CHECK(0, TW "verify failed: %s", TW_ARGS(r), d.msg);
		return;
	}
	CHECK(!r->twin || v.kind != VERDICT_SAFE, TW "the twin called safe", TW_ARGS(r));
	c->safe += !r->twin && v.kind == VERDICT_SAFE;
	c->twin_safe += r->twin && v.kind == VERDICT_SAFE;
	/* (main's own bytes: a callee's read of a cell main writes later in its loops, p_call_args's,
	 * is another piece's) */
	c->unwritten += !r->twin && v.kind != VERDICT_SAFE && strstr(v.reason, "read of stack bytes");
	CHECK(r->twin || v.kind == VERDICT_SAFE || !strstr(v.reason, "read of stack bytes"),
	      TW "pc %u: %s",
	      TW_ARGS(r), v.pc, v.reason);
	twin_forged_runs(r, true, &rep);
	if (!r->twin)
		CHECK(rep.faults == 0, TW "%s", TW_ARGS(r), rep.fault);
	c->dirty += r->twin && rep.faults && strstr(rep.fault, "never written");
	verdict_report__free(&rep);
	if (r->seed >= 8530000 + 25 || !kernel_available(NULL, 0))
		return;
	gen_program__object(r->p, &obj, &view, "gen");
	diag_clear(&d);
	if (verdict_compare(&rep, &obj, &view, &vo, &d)) {
		CHECK(0, TW "verdict_compare: %s", TW_ARGS(r), d.msg);
		return;
	}
	c->loaded[r->twin]++;
	c->refused[r->twin] += !rep.kernel_accepted &&
			       strstr(rep.kernel_message, "invalid read from stack");
	CHECK(r->twin ? !rep.kernel_accepted && strstr(rep.kernel_message, "invalid read from stack")
		      : !strstr(rep.kernel_message, "invalid read from stack"),
	      TW "the unprivileged kernel %s: %s", TW_ARGS(r),
	      rep.kernel_accepted ? "accepts" : "refuses", rep.kernel_message);
	verdict_report__free(&rep);
}

static void test_loop_fields_knobs(void)
{
	static const struct twin_spec s = KERNEL_TWIN_SPEC("p_loop_fields", "p_loop_fields_unset",
							   8530000);
	struct loop_fields_counts c = { 0 };

	for_twin_programs(&s, loop_fields_program, &c);
	CHECK(c.safe >= 90 && !c.unwritten && c.flagged == 100 && c.dirty == 100 && !c.twin_safe,
	      "p_loop_fields (unprivileged): %u of 100 called safe, %u read as unwritten; "
	      "p_loop_fields_unset: %u flagged, %u read unwritten in the runs, %u called safe",
	      c.safe, c.unwritten, c.flagged, c.dirty, c.twin_safe);
	if (!c.loaded[0])
		check_skip_part("p_loop_fields: the unprivileged kernel's verdicts (bpf() refused)");
	printf("p_loop_fields (unprivileged): %u of 100 called safe, the kernel refuses %u of %u for "
	       "an unwritten read; p_loop_fields_unset: %u of 100 called safe, %u read unwritten, "
	       "the kernel refuses %u of %u for it\n", c.safe, c.refused[0], c.loaded[0],
	       c.twin_safe, c.dirty, c.refused[1], c.loaded[1]);
}

/* p_iter_search and its unsafe twin p_iter_search_unset (the kernel selftests' iter_search_loop:
 * found = 1, elem = v in an iterator loop, `if (found) *elem` after it): the safe form never
 * traps, and bpfscev calls most of its programs safe (before the null guard: "R8 is not a known
 * pointer", none of them); the twin, flagged, reads NULL on every run and is never called
 * safe. */
static void test_iter_search_knobs(void)
{
	static const struct twin_spec s = { { "p_iter_search", "p_iter_search_unset" }, 100,
					    4300000, 100 };
	static const struct mem_twin m = { GEN_PROG_NULL_UNSAFE };
	struct twin_counts c = { 0 };

	if (!ebpf_kfunc_btf_available()) {
		check_skip_part("p_iter_search: no vmlinux BTF to name the kfuncs");
		return;
	}
	mem_twin_knobs(&s, &m, &c);
	CHECK(c.flagged[1] == 100 && c.traps == 100, "p_iter_search_unset: %u of %u flagged "
	      "programs read NULL on their input", c.traps, c.flagged[1]);
	CHECK(c.safe > 50, "p_iter_search: only %u of 100 programs called safe", c.safe);
}

/* p_cb_count and its unsafe twin p_cb_count_over: bpf_loop(n <= 1, cb, &ctx) whose callback
 * does ctx->i++ and *ctx->p = c (a cell of main, through a pointer read from main's frame);
 * main then reads the packet's last bytes at i and c.  The safe form never traps (check_program,
 * two inputs), and bpfscev calls most of its programs safe: the callback, run once per call,
 * reads the 0 main left and its writes come back as values (main forgot i, and with the write
 * through ctx->p unplaced, its whole frame, the spilled data pointer included: main called
 * none of the first 40 safe, "R2 is not a known pointer").  The twin, flagged, runs the callback twice (n = 2, or 1 + an input bit): i = 2 reads
 * the byte at data_end; it is never called safe. */
static void test_cb_count_knobs(void)
{
	static const struct twin_spec s = { { "p_cb_count", "p_cb_count_over" }, 100, 3470000,
					    100 };
	static const struct mem_twin m = { GEN_PROG_CB_COUNT_UNSAFE };
	struct twin_counts c = { 0 };

	mem_twin_knobs(&s, &m, &c);
	CHECK(c.flagged[1] == 100 && c.traps > 50, "p_cb_count_over: %u of %u flagged programs "
	      "read at data_end on their input", c.traps, c.flagged[1]);
	CHECK(c.safe > 50, "p_cb_count: only %u of 100 programs called safe", c.safe);
}

/* p_call_ctx and its unsafe twin p_call_ctx_over: one static subprogram f(p, n) writing the n
 * bytes below p, called with [-512, -512 + a) and [-512 + a, -368) of main's frame.  The safe
 * form never traps (check_program, two inputs), and bpfscev never finds its writes outside the
 * frame: f is analysed per call context (scev/contexts.c; from both calls joined, p in
 * [-512 + a, -368] and n in [a, 144 - a], every program was "access [...) of the caller's stack
 * outside [-512, 0)").  (Most are not called safe for another reason: a loop's writes into
 * its caller's frame make the caller forget its frame, the spilled data pointer included.)
 * The twin, flagged, writes the byte below the frame on every run (n = a + 1) and is never
 * called safe. */
static void test_call_ctx_knobs(void)
{
	static const struct twin_spec s = { { "p_call_ctx", "p_call_ctx_over" }, 100, 3480000,
					    100 };
	static const struct mem_twin m = { GEN_PROG_CALL_CTX_UNSAFE, { "caller's stack outside" } };
	struct twin_counts c = { 0 };

	mem_twin_knobs(&s, &m, &c);
	CHECK(c.flagged[1] == 100 && c.traps == 100, "p_call_ctx_over: %u of %u flagged programs "
	      "write below the frame on their input", c.traps, c.flagged[1]);
}

/* p_args_last and its unsafe twin p_args_last_over (issue 14's fn_args_acc; corpus
 * callee_args_last_pass): f(n) called from a loop of k for n = 1 .. k writes a[j] for j < n, k
 * slots of its frame.  The twin, flagged, calls it with n = k + 1 last, which writes above f's
 * frame on every run, and is never called safe; the safe form never traps (check_program, two
 * inputs), bpfscev never finds its writes outside the frame and calls most of its programs
 * safe.  Analysed with the summary rounds' arguments (n up to k + 1, their first passes widen
 * the loop), every one is "stack access ... outside": scev.c's try_args_shrink analyses f
 * again with the last pass's. */
static void test_args_last_knobs(void)
{
	static const struct twin_spec s = { { "p_args_last", "p_args_last_over" }, 100, 5900000,
					    100 };
	static const struct mem_twin m = { GEN_PROG_ARGS_LAST_UNSAFE, { "outside" } };
	struct twin_counts c = { 0 };

	mem_twin_knobs(&s, &m, &c);
	check_mem_twins(&s, &c, 80);
	printf("p_args_last: %u of 100 called safe; p_args_last_over: %u of %u trap, none called "
	       "safe\n", c.safe, c.traps, c.flagged[1]);
}

/* p_queue and its unsafe twin p_queue_bad (issue 15, session 30; generators/gen_queue.c): an XDP
 * prologue pushing into a queue or stack map (from the stack or the packet) and popping or
 * peeking into the stack, in two loops.  Every safe form calls push and pop or peek, never traps
 * (check_program, two inputs), and bpfscev calls more than 80 of 100 safe, none unsafe for an
 * access outside the frame or the packet; every twin, flagged, traps on memory on its own input
 * (the value popped past the frame's top, or pushed from past the checked packet bytes) and is
 * never called safe. */
static void queue_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	struct scev_verdict v;

	c->calls[r->twin] += has_call(r->p, 0, BPF_FUNC_map_push_elem) &&
			     (has_call(r->p, 0, BPF_FUNC_map_pop_elem) ||
			      has_call(r->p, 0, BPF_FUNC_map_peek_elem));
	if (mem_twin_verdict(c, r, GEN_PROG_QUEUE_UNSAFE, &v) && !r->twin)
		CHECK(!strstr(v.reason, "outside [-512, 0)") && !strstr(v.reason, "packet access"),
		      TW "%s", TW_ARGS(r), v.reason);
}

static void test_queue_knobs(void)
{
	static const struct twin_spec s = { { "p_queue", "p_queue_bad" }, 100, 7700000, 100 };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, queue_program, &c);
	check_mem_twins(&s, &c, 80);
	CHECK(c.calls[0] == 100 && c.calls[1] == 100, "p_queue: %u and p_queue_bad: %u of 100 "
	      "programs push and pop", c.calls[0], c.calls[1]);
	printf("p_queue: %u of 100 called safe; p_queue_bad: %u of %u trap, none called safe\n",
	       c.safe, c.traps, c.flagged[1]);
}

/* p_map_hash and its unsafe twin p_map_hash_bad (issue 15; generators/gen_hash.c): map 0 is a
 * hash map (HASH, LRU_HASH, or PERCPU_HASH with p_map_percpu), filled by a loop of updates, read
 * by a loop of NULL-checked lookups, an element deleted.  The safe form never traps
 * (check_program, two inputs, from an empty map) and bpfscev calls most of its programs safe; the
 * twin, flagged, reads a value without the NULL check on a key never inserted, or 8 bytes at
 * value_size - 4 of key 0 (inserted on every run): it traps on its own input, and is never
 * called safe. */
struct hash_counts {
	struct twin_counts c;
	unsigned types[3];	/* HASH, LRU_HASH, PERCPU_HASH */
	unsigned helpers[3];	/* programs calling update, delete, lookup */
};

static void map_hash_program(void *arg, const struct twin_run *r)
{
	struct hash_counts *h = arg;
	const struct ebpf_map_def *m = &r->p->maps[0];
	struct scev_verdict v;

	CHECK(r->p->map_cnt >= 1 && (m->type == BPF_MAP_TYPE_HASH ||
				     m->type == BPF_MAP_TYPE_LRU_HASH ||
				     m->type == BPF_MAP_TYPE_PERCPU_HASH),
	      TW "map 0 is not a hash map (%u maps, type %u)", TW_ARGS(r), (unsigned)r->p->map_cnt,
	      r->p->map_cnt ? m->type : 0);
	h->types[0] += m->type == BPF_MAP_TYPE_HASH;
	h->types[1] += m->type == BPF_MAP_TYPE_LRU_HASH;
	h->types[2] += m->type == BPF_MAP_TYPE_PERCPU_HASH;
	h->helpers[0] += has_call(r->p, 0, BPF_FUNC_map_update_elem);
	h->helpers[1] += has_call(r->p, 0, BPF_FUNC_map_delete_elem);
	h->helpers[2] += has_call(r->p, 0, BPF_FUNC_map_lookup_elem);
	mem_twin_verdict(&h->c, r, GEN_PROG_HASH_UNSAFE, &v);
}

static void test_map_hash_knobs(void)
{
	static const struct twin_spec s = { { "p_map_hash", "p_map_hash_bad" }, 100, 6100000, 100,
					    { { "p_map_percpu", 30 }, { "p_map", 50 } } };
	struct hash_counts h = { 0 };

	for_twin_programs(&s, map_hash_program, &h);
	check_mem_twins(&s, &h.c, 80);
	CHECK(h.types[0] > 0 && h.types[1] > 0 && h.types[2] > 0, "hash map types %u %u %u",
	      h.types[0], h.types[1], h.types[2]);
	CHECK(h.helpers[0] == 200 && h.helpers[1] == 200 && h.helpers[2] == 200,
	      "programs calling update %u, delete %u, lookup %u of 200", h.helpers[0],
	      h.helpers[1], h.helpers[2]);
	printf("p_map_hash: %u of 100 called safe; p_map_hash_bad: %u of %u trap, none called safe "
	       "(HASH %u, LRU_HASH %u, PERCPU_HASH %u)\n", h.c.safe, h.c.traps, h.c.flagged[1],
	       h.types[0], h.types[1], h.types[2]);
}

/* The twins of other knobs that read map 0's elements, with p_map_hash on (map 0 then a hash map,
 * which starts empty in a run where an array has every element): each twin program is run as it
 * is and again with map 0 an array of GEN_MAP_ENTRIES (the same instructions): a twin whose run
 * traps with the array must trap with the hash map too (the hash map must not hide its fault from
 * the runs), most of them trap, and bpfscev calls none of them safe.  p_map_len_over looked up
 * its element before anything put it in, and p_dynptr_unsafe's map form a key the hash piece may
 * not have inserted: their runs ended at the lookup's NULL check (gen.c's map_len_loop now puts
 * its element in first; the dynptr twin takes the ring buffer's record over a hash map).  So did
 * p_dynptr_sub_unsafe's read past the last value (21 of 100 hidden: it takes the ring buffer's
 * record too, whose reserve fails in half the runs, hence fewer traps), p_null_stale's second
 * lookup (10 of 83: now of an element put in first, the first lookup's key one nothing inserts)
 * and p_map_u64_ptr_bad's lookup (2 of 100: it puts its element in first, with the number that
 * takes its read out of bounds). */
struct hash_twin_counts {
	uint64_t flag;
	unsigned flagged, traps, array_traps, hidden;
	uint64_t hidden_seed;	/* the first hidden one's */
};

static void hash_twin_program(void *arg, const struct twin_run *r)
{
	struct hash_twin_counts *h = arg;
	struct ebpf_map_def keep = r->p->maps[0];
	struct scev_verdict v;
	bool hash, as_array;

	if (!r->twin || !(r->p->flags & h->flag))
		return;
	CHECK(twin_verdict(r, &v) && v.kind != VERDICT_SAFE, TW "the twin called safe (or verify "
	      "failed)", TW_ARGS(r));
	CHECK(r->p->map_cnt >= 1 && (keep.type == BPF_MAP_TYPE_HASH ||
				     keep.type == BPF_MAP_TYPE_LRU_HASH ||
				     keep.type == BPF_MAP_TYPE_PERCPU_HASH),
	      TW "map 0 is not a hash map", TW_ARGS(r));
	h->flagged++;
	hash = trapped(twin_trap(r, NULL));
	r->p->maps[0].type = BPF_MAP_TYPE_ARRAY;
	r->p->maps[0].max_entries = GEN_MAP_ENTRIES;
	as_array = trapped(twin_trap(r, NULL));
	r->p->maps[0] = keep;
	h->traps += hash;
	h->array_traps += as_array;
	if (as_array && !hash && !h->hidden++)
		h->hidden_seed = r->seed;
}

static void test_twins_over_hash(void)
{
	/* (programs per twin, more flagged than this, more than pct % of them trap) */
	static const struct {
		const char *knob[2];
		uint64_t flag;
		unsigned n, flagged, pct;
	} tw[] = {
		{ { "p_map_len", "p_map_len_over" }, GEN_PROG_MAP_LEN_UNSAFE, 100, 80, 75 },
		{ { "p_dynptr", "p_dynptr_unsafe" }, GEN_PROG_DYNPTR_UNSAFE, 100, 80, 75 },
		{ { "p_for_each", "p_for_each_unsafe" }, GEN_PROG_EACH_UNSAFE, 100, 80, 75 },
		{ { "p_dynptr_sub", "p_dynptr_sub_unsafe" }, GEN_PROG_DYNPTR_UNSAFE, 100, 80, 66 },
		{ { "p_null_copy", "p_null_stale" }, GEN_PROG_NULL_UNSAFE, 300, 60, 75 },
		{ { "p_map_u64_ptr", "p_map_u64_ptr_bad" }, GEN_PROG_U64_PTR_UNSAFE, 100, 80, 75 },
	};

	for (size_t i = 0; i < sizeof(tw) / sizeof(tw[0]); i++) {
		struct twin_spec s = { { tw[i].knob[0], tw[i].knob[1] }, 100, 7700000, tw[i].n,
				       { { "p_map", 50 }, { "p_map_hash", 100 },
					 { "p_map_percpu", 30 } } };
		struct hash_twin_counts h = { .flag = tw[i].flag };

		for_twin_programs(&s, hash_twin_program, &h);
		CHECK(h.hidden == 0, "%s with p_map_hash: %u of %u flagged programs trap with map 0 "
		      "an array but not with the hash map (seed %llu)", tw[i].knob[1], h.hidden,
		      h.flagged, (unsigned long long)h.hidden_seed);
		CHECK(h.flagged > tw[i].flagged && h.traps * 100 > h.flagged * tw[i].pct,
		      "%s with p_map_hash: %u of %u flagged programs trap", tw[i].knob[1], h.traps,
		      h.flagged);
		printf("%s with p_map_hash: %u of %u twins trap (%u with map 0 an array, %u hidden "
		       "by the hash map)\n", tw[i].knob[1], h.traps, h.flagged, h.array_traps,
		       h.hidden);
	}
}

/* p_map_lookup_percpu and its unsafe twin p_map_lookup_percpu_bad (issue 15;
 * generators/gen_pcpu.c): map 0 is per-CPU (PERCPU_ARRAY, or PERCPU_HASH / LRU_PERCPU_HASH with
 * the hash piece), one key read in the copies of cpus [0, m) by bpf_map_lookup_percpu_elem.  The
 * safe form never traps (check_program, two inputs; the interpreter's 2 CPUs: NULL from cpu 2 on,
 * checked) and bpfscev calls most of its programs safe; the twin, flagged, reads without the NULL
 * check up to cpu 2 or 3, or past an array's value: it traps on its own input, and is never
 * called safe. */
struct pcpu_counts {
	struct twin_counts c;
	unsigned types[3];	/* PERCPU_ARRAY, PERCPU_HASH, LRU_PERCPU_HASH */
	unsigned smp;		/* safe forms asking bpf_get_smp_processor_id */
};

static void map_pcpu_program(void *arg, const struct twin_run *r)
{
	struct pcpu_counts *h = arg;
	const struct ebpf_map_def *m = &r->p->maps[0];
	struct scev_verdict v;

	CHECK(r->p->map_cnt >= 1 && (m->type == BPF_MAP_TYPE_PERCPU_ARRAY ||
				     m->type == BPF_MAP_TYPE_PERCPU_HASH ||
				     m->type == BPF_MAP_TYPE_LRU_PERCPU_HASH),
	      TW "map 0 is not per-CPU (%u maps, type %u)", TW_ARGS(r), (unsigned)r->p->map_cnt,
	      r->p->map_cnt ? m->type : 0);
	CHECK(has_call(r->p, 0, BPF_FUNC_map_lookup_percpu_elem),
	      TW "no bpf_map_lookup_percpu_elem call", TW_ARGS(r));
	h->types[0] += m->type == BPF_MAP_TYPE_PERCPU_ARRAY;
	h->types[1] += m->type == BPF_MAP_TYPE_PERCPU_HASH;
	h->types[2] += m->type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
	h->smp += !r->twin && has_call(r->p, 0, BPF_FUNC_get_smp_processor_id);
	mem_twin_verdict(&h->c, r, GEN_PROG_PCPU_UNSAFE, &v);
}

static void test_map_pcpu_knobs(void)
{
	static const struct twin_spec s = { { "p_map_lookup_percpu", "p_map_lookup_percpu_bad" },
					    100, 6200000, 100,
					    { { "p_map_hash", 30 }, { "p_map", 50 } } };
	struct pcpu_counts h = { 0 };

	for_twin_programs(&s, map_pcpu_program, &h);
	check_mem_twins(&s, &h.c, 80);
	CHECK(h.types[0] > 0 && h.types[1] > 0 && h.types[2] > 0, "per-CPU map types %u %u %u",
	      h.types[0], h.types[1], h.types[2]);
	CHECK(h.smp > 0, "no safe form asks bpf_get_smp_processor_id");
	printf("p_map_lookup_percpu: %u of 100 called safe (%u with the smp id); "
	       "p_map_lookup_percpu_bad: %u of %u trap, none called safe (PERCPU_ARRAY %u, "
	       "PERCPU_HASH %u, LRU_PERCPU_HASH %u)\n", h.c.safe, h.smp, h.c.traps, h.c.flagged[1],
	       h.types[0], h.types[1], h.types[2]);
}

/* p_ptr_join and its unsafe twin p_ptr_join_over: the safe form never traps (check_program, two
 * inputs) and bpfscev calls none of its programs unsafe for a packet access (the constant
 * offsets each path checked: a false alarm when joined states meet the read), the twin, flagged,
 * traps past the frame or at data_end exactly when the packet's first byte is odd (its own
 * input and one with that bit flipped). */
static void ptr_join_program(void *arg, const struct twin_run *r)
{
	uint8_t in[GEN_INPUT_LEN];
	struct scev_verdict v;

	(void)arg;
	CHECK(!!(r->p->flags & GEN_PROG_PTR_JOIN_UNSAFE) == r->twin, TW "the twin's flag is not "
	      "the twin's", TW_ARGS(r));
	if (twin_verdict(r, &v))
		CHECK(r->twin ? v.kind != VERDICT_SAFE : !strstr(v.reason, "packet access"),
		      TW "%s", TW_ARGS(r), v.reason);
	if (!r->twin)
		return;
	memcpy(in, r->p->input, sizeof(in));
	for (int odd = 0; odd < 2; odd++) {
		in[0] = (uint8_t)((in[0] & ~1u) | (unsigned)odd);
		CHECK((twin_trap(r, in) == INTERP_TRAP_MEM) == odd, TW "first byte %s", TW_ARGS(r),
		      odd ? "odd, no trap" : "even, a trap");
	}
}

static void test_ptr_join_knobs(void)
{
	static const struct twin_spec s = { { "p_ptr_join", "p_ptr_join_over" }, 100, 3450000, 100,
					    { { "p_pkt", 0 } } };

	for_twin_programs(&s, ptr_join_program, NULL);
}

/* p_null_copy and its unsafe twin p_null_stale: the safe form never reads through NULL
 * (check_program runs each program on two inputs and allows no memory trap), its lookups do
 * return NULL (keys 4-7 of the four-entry map), and the twin, flagged, does read through NULL
 * on some runs.  calls[] counts copies, shaped[] stale reloads. */
static void null_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	const struct gen_program *p = r->p;

	c->calls[r->twin] += !!(p->shapes & GEN_SH(NULL_COPY));
	c->shaped[r->twin] += !!(p->shapes & GEN_SH(NULL_STALE));
	CHECK(!(p->flags & GEN_PROG_NULL_UNSAFE) == !(p->shapes & GEN_SH(NULL_STALE)),
	      TW "the flag and the shape disagree", TW_ARGS(r));
	c->flagged[r->twin] += !!(p->flags & GEN_PROG_NULL_UNSAFE);
	if (p->flags & GEN_PROG_NULL_UNSAFE)
		c->traps += twin_trap(r, NULL) == INTERP_TRAP_MEM;
}

static void test_null_knobs(void)
{
	static const struct twin_spec s = { { "p_null_copy", "p_null_stale" }, 100, 3100000, 300,
					    { { "p_map", 100 } } };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, null_program, &c);
	CHECK(c.calls[0] > 100 && !c.shaped[0], "p_null_copy=100: %u copies, %u stale of 300",
	      c.calls[0], c.shaped[0]);
	CHECK(c.shaped[1] > 100 && !c.calls[1], "p_null_stale=100: %u copies, %u stale of 300",
	      c.calls[1], c.shaped[1]);
	CHECK(c.flagged[0] + c.flagged[1] == c.shaped[1] && c.traps > 10, "p_null_stale: %u of %u "
	      "flagged programs read through NULL", c.traps, c.flagged[0] + c.flagged[1]);
}

/* p_array_fill and its unsafe twin p_array_fill_short, judged by the stack watch of verdict
 * runs (oracle/exec/stackinit.h, a safe verdict forged so that the runs happen): the fill loop
 * writes the whole array, so no run reads a stack byte never written; the twin's loop leaves
 * a[7] unwritten, and some runs read it. */
static void fill_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	struct verdict_report rep;

	c->shaped[r->twin] +=
		!!(r->p->flags & (r->twin ? GEN_PROG_STACK_UNWRITTEN : GEN_PROG_ARRAY_FILL));
	c->flagged[r->twin] += !!(r->p->flags & GEN_PROG_STACK_UNWRITTEN);
	twin_forged_runs(r, true, &rep);
	if (!r->twin)
		CHECK(rep.faults == 0, TW "%s", TW_ARGS(r), rep.fault);
	c->dirty[r->twin] += rep.faults && strstr(rep.fault, "never written");
	/* the privileged rule (the default): a[7] unwritten is read as drawn bytes, not a fault */
	twin_forged_runs(r, false, &rep);
	CHECK(rep.faults == 0, TW "privileged: %s", TW_ARGS(r), rep.fault);
}

static void test_fill_knobs(void)
{
	static const struct twin_spec s = {
		{ "p_array_fill", "p_array_fill_short" }, 100, 3200000, 200,
		{ { "p_array", 100 }, { "p_call_chain", 0 }, { "p_big_frame", 0 },
		  { "p_recursion", 0 } }
	};
	struct twin_counts c = { 0 };

	for_twin_programs(&s, fill_program, &c);
	CHECK(c.shaped[0] == 200 && c.flagged[0] == 0, "p_array_fill=100: %u fills, %u flagged of "
	      "200", c.shaped[0], c.flagged[0]);
	CHECK(c.shaped[1] == 200 && c.flagged[1] == 200, "p_array_fill_short=100: %u fills, %u "
	      "flagged of 200", c.shaped[1], c.flagged[1]);
	CHECK(c.dirty[1] > 20, "p_array_fill_short: only %u of 200 programs read a[7] unwritten",
	      c.dirty[1]);
}

/* p_loop_def and its unsafe twin p_loop_def_early, judged by the register and stack watch of
 * verdict_execute: no run of the first reads anything unwritten; with data[0] & 7 = 0 the
 * twin's loop runs no iteration and its reads of r5 and the key slot are of nothing written,
 * which the watch must see (in a quarter of the programs at least: one run in four of each is
 * random, the first all-zero). */
static void loop_def_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	struct verdict_report rep;

	c->shaped[r->twin] +=
		!!(r->p->flags & (r->twin ? GEN_PROG_REG_UNWRITTEN : GEN_PROG_LOOP_DEF));
	twin_forged_runs(r, true, &rep);
	if (!r->twin)
		CHECK(rep.faults == 0 || !strstr(rep.fault, "never written"), TW "%s", TW_ARGS(r),
		      rep.fault);
	c->dirty[r->twin] += rep.faults && strstr(rep.fault, "never written");
}

static void test_loop_def_knobs(void)
{
	static const struct twin_spec s = { { "p_loop_def", "p_loop_def_early" }, 100, 3300000,
					    200, { { "p_array", 0 } } };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, loop_def_program, &c);
	for (int twin = 0; twin < 2; twin++)
		CHECK(c.shaped[twin] == 200, "%s=100: %u of 200 programs have the shape",
		      s.knob[twin], c.shaped[twin]);
	CHECK(c.dirty[1] > 50, "p_loop_def_early: only %u of 200 programs read unwritten bytes or "
	      "registers", c.dirty[1]);
}

/* A knob whose loops have a known trip count and its twin whose loops may not end: check_program
 * runs each of 100 programs against the intent, the first loop must have the trip (and flags)
 * the knob promises, the twin must flag every program as possibly endless, and the twin's
 * programs must really run on to the step budget on the input that picks their endless path.
 * calls[] counts flagged programs, traps the twin's endless runs. */
struct twin_knobs {
	const char *safe, *twin;
	uint64_t seed;		/* the first of 100 seeds */
	int trip;		/* the safe form's first loop: this trip, or at least 1 when 0 */
	uint32_t loop_flags;	/* flags both forms' first loop carries */
	bool safe_unflagged;	/* the safe form is never flagged endless */
	unsigned in_byte;	/* data[in_byte] = in_val sends the twin on */
	uint8_t in_val;
	unsigned min_endless;	/* of the twin's 100 programs */
	const char *why;	/* what the input picks, for the message */
};

static void twin_loop_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	const struct twin_knobs *t = c->arg;
	uint8_t in[GEN_INPUT_LEN] = { 0 };
	int trip = r->p->nloops ? r->p->loops[0].trip : 0;
	uint64_t steps;

	CHECK(r->p->nloops && (r->twin ? trip == -1 : t->trip ? trip == t->trip : trip >= 1) &&
		      (r->p->loops[0].flags & t->loop_flags) == t->loop_flags,
	      TW "first loop (trip %d)", TW_ARGS(r), trip);
	c->flagged[r->twin] += !!(r->p->flags & GEN_PROG_MAY_NOT_TERMINATE);
	in[t->in_byte] = t->in_val;
	if (r->twin && run_watched(r->p, r->seed, in, r->k->step_budget, r->rs, &steps) ==
			       INTERP_TRAP_STEPS)
		c->traps++;
}

static void test_twin_knobs(const struct twin_knobs *t)
{
	const struct twin_spec s = { { t->safe, t->twin }, 100, t->seed, 100 };
	struct twin_counts c = { .arg = t };

	for_twin_programs(&s, twin_loop_program, &c);
	CHECK(c.flagged[1] == 100u && c.traps >= t->min_endless, "%s=100: %u of 100 flagged "
	      "endless, %u run out of steps on data[%u] = %#x (%s)", t->twin, c.flagged[1], c.traps,
	      t->in_byte, t->in_val, t->why);
	if (t->safe_unflagged)
		CHECK(c.flagged[0] == 0, "%s=100: %u of 100 flagged endless", t->safe, c.flagged[0]);
}

/* The loop-shape knobs and their endless twins: trip-1 loops (p_loop_once), exits on different
 * paths (p_cut_exits; the twin's own path tests nothing, or == against a number the counter
 * never meets), toggles (p_toggle; data[4] = 0 is neither c0 nor the other value, except in the
 * programs where x ^= c or x = c - x has c = c0), w and r forms mixed (p_zext_mix; the shift
 * form wraps on every input), steps known only as a range (p_mono_range; the twin's step r1 & 1
 * stops the counter on every input), '==' against a bound c - X * s of an outer counter
 * (p_eq_outer; the twin's even step never meets its odd distance), an outer counter that an
 * inner loop moves on the iterations the input picks (p_inner_steps; the twin has no step of
 * its own, and data[9] = 0x80 picks none). */
static void test_loop_shape_knobs(void)
{
	static const struct twin_knobs t[] = {
		{ "p_loop_once", "p_loop_once_back", 3400000, 1, 0, true, 1, 8, 100,
		  "the back edge taken" },
		{ "p_cut_exits", "p_cut_exits_open", 3500000, -1, GEN_LOOP_COND_STEP, false, 3, 0x80,
		  100, "the path that tests nothing" },
		{ "p_toggle", "p_toggle_open", 3600000, 2, 0, false, 4, 0, 90,
		  "neither toggle value" },
		{ "p_zext_mix", "p_zext_mix_wrap", 3700000, 0, 0, false, 6, 0, 100,
		  "the 32-bit form" },
		{ "p_mono_range", "p_mono_range_zero", 3800000, -1, 0, true, 7, 0, 100,
		  "the step r1 & 1 past t" },
		{ "p_eq_outer", "p_eq_outer_off", 3900000, 0, 0, true, 0, 0, 100,
		  "every input: the distance is odd" },
		{ "p_inner_steps", "p_inner_steps_still", 4000000, -1, GEN_LOOP_CTR_CHANGED, true, 9,
		  0x80, 100, "no inner iteration adds" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		test_twin_knobs(&t[i]);
}

/* bpfscev on program r's first loop: a twin's is never bounded nor the program safe; a safe
 * form's bounded first loop counts in c->safe. */
static void first_loop_judged(struct twin_counts *c, const struct twin_run *r)
{
	struct claim_prog cp = { 0 };
	struct scev_verdict v;
	struct ebpf_prog view;
	struct diag d;
	int bounded = -1;

	gen_program__prog(r->p, &view, "g");
	diag_clear(&d);
	if (scev_verify(&v, &cp, &view, r->p->maps, r->p->map_cnt, NULL, &d)) {
		CHECK(0, TW "verify failed: %s", TW_ARGS(r), d.msg);
		return;
	}
	for (uint32_t k = 0; k < cp.nloops; k++)
		if (r->p->nloops && cp.loops[k].header == (uint32_t)r->p->loops[0].header)
			bounded = cp.loops[k].trip.kind != TRIP_UNKNOWN;
	CHECK(bounded >= 0, TW "the first loop not found", TW_ARGS(r));
	if (r->twin)
		CHECK(bounded == 0 && v.kind != VERDICT_SAFE, TW "the twin bounded (%d) or safe",
		      TW_ARGS(r), bounded);
	c->safe += !r->twin && bounded == 1;
	claim_prog__free(&cp);
}

/* The counts of 100 programs of each form: the twin's all flagged and endless on their input, the
 * safe form's never flagged and its first loop bounded in all. */
static void check_bounded_twins(const struct twin_spec *s, const struct twin_counts *c)
{
	CHECK(c->flagged[1] == 100u && c->traps == 100u, "%s=100: %u of 100 flagged endless, %u run "
	      "out of steps on their input", s->knob[1], c->flagged[1], c->traps);
	CHECK(c->flagged[0] == 0, "%s=100: %u of 100 flagged endless", s->knob[0], c->flagged[0]);
	CHECK(c->safe == 100, "%s=100: the first loop bounded in %u of 100 programs", s->knob[0],
	      c->safe);
}

static void side_steps_program(void *arg, const struct twin_run *r)
{
	twin_loop_program(arg, r);
	first_loop_judged(arg, r);
}

/* One of test_bounded_knobs' (twin_loop_program, first_loop_judged, check_bounded_twins). */
static void test_bounded_knob(const struct twin_knobs *t)
{
	const struct twin_spec s = { { t->safe, t->twin }, 100, t->seed, 100 };
	struct twin_counts c = { .arg = t };

	for_twin_programs(&s, side_steps_program, &c);
	check_bounded_twins(&s, &c);
}

/* Twin knobs run against the intent like the knobs above (the twin flagged, endless on its
 * input) whose safe form's first loop bpfscev bounds in every program, never the twin's.
 * p_side_steps and its unsafe twin p_side_steps_still (an irreducible inner loop, entered at its
 * header or at its side entry as the input picks, moving the outer counter): the twin endless on
 * data[9] = 1, which takes the side entry that adds nothing every time; before, the irreducible
 * inner loop's collapse forgot the counter ("the exit test does not compare a recurrence").
 * p_eq_paths and its unsafe twin p_eq_paths_miss ('==' exits that only together stop every
 * path: the kernel selftests' loop5.c): the twin endless on data[11] = 0 (the even step every
 * time); before, "the tested offset differs between paths" (the header states enumerated now,
 * absint_enum.c).  p_mixed_steps and p_mixed_steps_still (an inner loop that steps the outer
 * counter at 32 bits on the iterations the input picks and leaves it as it is on the others: the
 * longer kernel campaign's program 964): the twin endless on data[9] = 0x80 (no inner iteration
 * adds); before, "the exit test does not compare a recurrence" (the two widths no one
 * accumulation).  p_cell_shapes and p_cell_shapes_cut (a spilled counter the loop updates after
 * its two paths store a slot as 8 and as 4 bytes: program 537): the twin endless on data[9] = 1
 * (the path that sets the counter back, every time); before, the join of the two shapes forgot
 * the whole frame, the counter with it.  p_enum_cell and p_enum_cell_stuck (a counter stepped by
 * s or 0 as the low bit of a slot computed from it picks: program 1411): the twin endless on
 * data[9] = 0; before, the header states' enumeration read the slot as any value.
 * p_frames_reg and p_frames_reg_stuck (a loop in f(p) reading through p, main's cell first, then
 * f's own slot: verifier_loops1.c's bounded_loop_stack_frames_reg): the twin, whose slot holds
 * 0, endless on data[9] = 0 (main's cell data[9] & 1); before, "R1 is not a known pointer" (the
 * two frames joined), then "the exit test does not compare a recurrence" (the enumeration read
 * no slot through r1 = r10 + o).  p_rotated_eq and p_rotated_eq_open (a rotated loop, `if (x !=
 * n) do x++; while (x != n)`, x in a slot or a register: program 1165): the twin, whose guard
 * tests x + 1, endless on data[12] = 3 (x == n); before, "the count does not fit in 64 bits" (the
 * bottom exit alone, from x = n, wraps; the guard bounds it now: exits.c entry_guarded).
 * p_outer_continue and p_outer_continue_still (an outer back edge from inside an inner loop,
 * issue 14 §5): the twin, whose jump back comes before the add, endless on data[14] = 1.
 * p_bound_body and p_bound_body_counter (a bound recomputed in the body, issue 14 §3: from a
 * loop-invariant word, or from the counter itself): the twin endless on every input.
 * p_shift_ident and p_shift_ident_wrap (an outer counter an exact inner loop moves, then x <<= s;
 * x >>= s, issue 14 §1): the twin, which starts 16 below 2^(W-s), endless on every input (the
 * shifts drop the bit it reaches); before, "the exit test does not compare a recurrence".
 * p_outer_latch and p_outer_latch_still (the outer exit on the outer latch and a copy of it
 * where the inner loop jumps back to the outer header, issue 14 §5): the twin, whose jump back
 * comes before the add, endless on data[14] = 1; before, "no exit is tested in every
 * iteration; ... the tested offset differs between paths".  p_identity's prologue loop and
 * p_identity_once (a counter negated twice or byte-swapped twice, or negated once): the twin
 * endless on every input (data[17] & 1 starts a toggle between 0 and 1).  p_spill_call and
 * p_spill_call_clobber (a counter in a stack slot across a helper call that writes another
 * slot, or the counter's: issue 14 §5): the twin, tested with !=, endless on its input. */
static void test_bounded_knobs(void)
{
	static const struct twin_knobs t[] = {
		{ "p_side_steps", "p_side_steps_still", 4100000, -1, GEN_LOOP_CTR_CHANGED, true, 9, 1,
		  100, "the side entry, which adds nothing, every time" },
		{ "p_eq_paths", "p_eq_paths_miss", 4400000, -1, GEN_LOOP_COND_STEP, true, 11, 0, 100,
		  "the even step, which meets no exit, every time" },
		{ "p_mixed_steps", "p_mixed_steps_still", 4500000, -1, GEN_LOOP_CTR_CHANGED, true, 9,
		  0x80, 100, "no inner iteration adds" },
		{ "p_cell_shapes", "p_cell_shapes_cut", 4600000, 0, 0, true, 9, 1, 100,
		  "the path that sets the counter back, every time" },
		{ "p_enum_cell", "p_enum_cell_stuck", 4700000, -1, GEN_LOOP_COND_STEP, true, 9, 0, 100,
		  "data[9] & 2 clear: no early exit, the counter stuck" },
		{ "p_frames_reg", "p_frames_reg_stuck", 4900000, -1, GEN_LOOP_SUBPROG, true, 9, 0, 100,
		  "main's cell 0, then f's slot 0, every time" },
		{ "p_rotated_eq", "p_rotated_eq_open", 5200000, -1, 0, true, 12, 3, 100,
		  "x == n, which the twin's guard lets in" },
		{ "p_outer_continue", "p_outer_continue_still", 5300000, -1, GEN_LOOP_CTR_CHANGED,
		  true, 14, 1, 100, "the jump back to the outer header before the add, every time" },
		{ "p_bound_body", "p_bound_body_counter", 5400000, -1, 0, true, 0, 0, 100,
		  "the bound one past the counter, every time" },
		{ "p_outer_latch", "p_outer_latch_still", 5600000, -1, GEN_LOOP_CTR_CHANGED, true,
		  14, 1, 100, "the jump back to the outer header before the add, every time" },
		{ "p_identity", "p_identity_once", 5700000, -1, 0, true, 17, 0, 100,
		  "the counter toggling between 0 and 1" },
		{ "p_spill_call", "p_spill_call_clobber", 5800000, 0, 0, true, 0, 0, 100,
		  "the call writing the counter's slot, every time" },
		{ "p_shift_ident", "p_shift_ident_wrap", 5500000, -1, GEN_LOOP_CTR_CHANGED, true, 16,
		  0, 100, "the shifts drop the bit the counter reaches, on every input" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		test_bounded_knob(&t[i]);
}

/* p_frames_reg's three-frame form (main -> h -> f; f's loop reads main's cell, then h's slot,
 * which holds 0, then its own: half the programs), with the other call knobs off so that a
 * program of three functions is that form.  At f's header the pointer may point into any of the
 * three frames; each frame's own lowest offset is kept (CALLER_MULTI, aval.h), so no program is
 * "combined stack size ..." and most are called safe.  With one frame's lowest offset kept
 * (before CALLER_MULTI) the other two frames grew to the joined pointer's lowest offset: 22 of
 * the 42 three-frame programs below were "combined stack size of 3 calls is 528" to 608, 20
 * called safe (the kernel campaign of the knob: 25 regressions in 150, 0 with it).  The twin is
 * judged by test_bounded_knobs (endless on data[9] = 0, never called safe). */
static void frames_three_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	struct scev_verdict v;

	if (r->twin)
		return;
	CHECK(r->p->nfuncs == 2 || r->p->nfuncs == 3, TW "%zu functions", TW_ARGS(r),
	      (size_t)r->p->nfuncs);
	if (r->p->nfuncs != 3)
		return;
	c->shaped[0]++;
	if (!twin_verdict(r, &v)) {
		CHECK(0, TW "verify failed", TW_ARGS(r));
		return;
	}
	c->safe += v.kind == VERDICT_SAFE;
	if (strstr(v.reason, "combined stack size")) {
		c->bad++;
		fprintf(stderr, TW "%s\n", TW_ARGS(r), v.reason);
	}
}

static void test_frames_three(void)
{
	static const struct twin_spec s = { { "p_frames_reg", "p_frames_reg_stuck" }, 100, 6000000,
					    100, { { "p_subprog", 0 }, { "p_call_args", 0 },
						   { "p_call_chain", 0 }, { "p_big_frame", 0 },
						   { "p_recursion", 0 } } };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, frames_three_program, &c);
	CHECK(c.shaped[0] > 30, "p_frames_reg: only %u of 100 programs of three frames",
	      c.shaped[0]);
	CHECK(c.bad == 0, "p_frames_reg: %u of %u three-frame programs over the combined stack",
	      c.bad, c.shaped[0]);
	CHECK(c.safe * 10 > c.shaped[0] * 8, "p_frames_reg: %u of %u three-frame programs called "
	      "safe", c.safe, c.shaped[0]);
	printf("p_frames_reg: %u of %u three-frame programs called safe\n", c.safe, c.shaped[0]);
}

/* The judging the entry-shape knobs share (side_only_program, dead_program): the program is
 * verified; a twin, flagged `unsafe` or as may-not-terminate, faults or runs out of steps on its
 * own input and is never called safe; a safe form is not flagged and is counted when called
 * safe.  Returns whether r is the safe form (its verdict in *v), for the caller's checks of
 * where the runs enter. */
struct entry_judged {
	unsigned *safe, *faults, *endless, *bad;
};

static bool judge_entry_twin(const struct twin_run *r, uint64_t unsafe, struct entry_judged j,
			     struct scev_verdict *v)
{
	uint64_t flags = r->p->flags, steps;
	enum interp_trap t;

	if (!twin_verdict(r, v)) {
		CHECK(0, TW "verify failed", TW_ARGS(r));
		return false;
	}
	if (r->twin) {
		t = run_watched(r->p, r->seed, r->p->input, r->k->step_budget, r->rs, &steps);
		CHECK(flags & (unsafe | GEN_PROG_MAY_NOT_TERMINATE), TW "the twin not flagged",
		      TW_ARGS(r));
		*j.faults += t == INTERP_TRAP_MEM && (flags & unsafe);
		*j.endless += t == INTERP_TRAP_STEPS && (flags & GEN_PROG_MAY_NOT_TERMINATE);
		CHECK(v->kind != VERDICT_SAFE, TW "the twin called safe", TW_ARGS(r));
		*j.bad += v->kind == VERDICT_SAFE;
		return false;
	}
	CHECK(!(flags & (unsafe | GEN_PROG_MAY_NOT_TERMINATE)), TW "the safe form flagged",
	      TW_ARGS(r));
	*j.safe += v->kind == VERDICT_SAFE;
	if (v->kind != VERDICT_SAFE)
		fprintf(stderr, TW "not called safe: %s\n", TW_ARGS(r), v->reason);
	return true;
}

/* p_irr_side_only and its unsafe twin p_irr_side_only_bad: an irreducible loop of the prologue
 * entered only at one of its entries, the other's edge dead by a test the constants decide (the
 * shape 3a5d367 fixed: before it, the last pass read a header's entry state, dead here, instead
 * of its header state, and called both kinds of twin safe).  Every run of the safe form enters
 * the loop at one entry only, which entry it is varies, and so does where scev's header falls:
 * the dead edge into scev's header (3a5d367's case) and into its side block both occur; the
 * safe form never traps and bpfscev calls at least 95 of its 100 programs safe (98: the other
 * two recurse, from the default mix).  The twin, flagged, faults (a load above the frame or through NULL where only the
 * live entry's path reaches: the interpreter traps on memory on its own input) or runs out of
 * steps (no step), and is never called safe. */
struct side_only_counts {
	unsigned safe, shaped[2], into_header, into_side, nested, faults, endless, bad;
};

static void side_only_program(void *arg, const struct twin_run *r)
{
	struct side_only_counts *c = arg;
	const struct gen_loop *l = NULL;
	const uint64_t *at;
	enum interp_trap t;
	struct scev_structure st;
	struct scev_verdict v;
	struct diag d;
	uint64_t steps;

	for (size_t i = 0; i < r->p->nloops && !l; i++)
		if (r->p->loops[i].flags & GEN_LOOP_IRREDUCIBLE)
			l = &r->p->loops[i];
	if (!l || l != &r->p->loops[l->parent >= 0 ? 1 : 0]) {
		CHECK(0, TW "no irreducible first loop", TW_ARGS(r));
		return;
	}
	c->shaped[r->twin]++;
	c->nested += l->parent >= 0;
	if (!judge_entry_twin(r, GEN_PROG_SIDE_ONLY_UNSAFE,
			      (struct entry_judged){ &c->safe, &c->faults, &c->endless, &c->bad }, &v))
		return;
	/* which entry the runs take (one only), and which of the two scev calls the header */
	/* (the default mix's recursion may stop a run at the interpreter's call limits) */
	at = r->rs->entries_at[l - r->p->loops];
	t = run_watched(r->p, r->seed, r->p->input, r->p->max_steps + 1, r->rs, &steps);
	CHECK((t == INTERP_OK || (t == INTERP_TRAP_LIMIT && (r->p->flags & GEN_PROG_CALL_TRAP))) &&
		      !at[0] != !at[1],
	      TW "entries %llu at the first, %llu at the second", TW_ARGS(r),
	      (unsigned long long)at[0], (unsigned long long)at[1]);
	diag_clear(&d);
	if (scev_structure__build(&st, r->p->insns, r->p->len, &d)) {
		CHECK(0, TW "structure: %s", TW_ARGS(r), d.msg);
		return;
	}
	for (uint32_t j = 0; j < st.loops->nloops; j++) {
		const struct scev_loop *s = &st.loops->loops[j];
		uint32_t h = st.cfg->blocks[s->header].first;

		if (!s->irreducible || h < l->first || h > l->last)
			continue;
		/* (the entry the runs do not take is the dead edge's) */
		if ((h == l->first) == !at[0])
			c->into_header++;
		else
			c->into_side++;
	}
	scev_structure__free(&st);
}

static void test_side_only_knobs(void)
{
	static const struct twin_spec s = { { "p_irr_side_only", "p_irr_side_only_bad" }, 100,
					    5100000, 100 };
	struct side_only_counts c = { 0 };

	for_twin_programs(&s, side_only_program, &c);
	CHECK(c.shaped[0] == 100 && c.shaped[1] == 100, "p_irr_side_only: %u and %u of 100 "
	      "programs hold the loop", c.shaped[0], c.shaped[1]);
	CHECK(c.safe >= 95, "p_irr_side_only=100: %u of 100 programs called safe", c.safe);
	CHECK(c.into_header >= 20 && c.into_side >= 20 && c.nested >= 40,
	      "p_irr_side_only: the dead edge into scev's header %u, into the side block %u; %u "
	      "nested (of 200)", c.into_header, c.into_side, c.nested);
	CHECK(c.faults >= 50 && c.endless >= 20 && c.faults + c.endless == 100 && !c.bad,
	      "p_irr_side_only_bad=100: %u fault, %u endless of 100; %u called safe", c.faults,
	      c.endless, c.bad);
	printf("test_gen: p_irr_side_only: %u of 100 called safe, dead edge into the header %u, "
	       "into the side block %u, %u of 200 nested; twins: %u fault, %u endless, %u called "
	       "safe\n", c.safe, c.into_header, c.into_side, c.nested, c.faults, c.endless, c.bad);
}

/* The dead-entry pieces (generators/gen_dead.c) and their unsafe twins: p_dead_branch (a plain
 * loop reached only through a branch the constants decide) and p_dead_outer (an outer loop
 * entered only at its inner loop's preheader, or a nest whose edge into that preheader is dead).
 * The safe forms never trap, every run enters the piece's loop, the live edge varies (for
 * p_dead_outer: the runs enter the outer loop at its first block in some programs and at the
 * inner preheader in others, each run at one only), and bpfscev calls at least 90 of 100
 * programs safe.  The twins, flagged, fault on memory where only the live path reaches or run
 * out of steps, and none is called safe. */
struct dead_counts {
	unsigned safe, shaped[2], at_first, at_second, nested, faults, endless, bad;
};

static void dead_program(void *arg, const struct twin_run *r)
{
	struct dead_counts *c = arg;
	bool outer = strstr(r->name, "outer") != NULL;
	const struct gen_loop *l = NULL;
	const uint64_t *at;
	enum interp_trap t;
	struct scev_verdict v;
	uint64_t steps;
	size_t li = 0;

	/* the piece's loop, the program's first (p_dead_outer: the outer one, loop 0; p_dead_branch:
	 * loop 0, or loop 1 under loop 0 when nested) */
	if (r->p->nloops > 1 && !outer && r->p->loops[1].parent == 0)
		li = 1;
	if (r->p->nloops)
		l = &r->p->loops[li];
	if (!l || (outer && !(l->flags & GEN_LOOP_IRREDUCIBLE))) {
		CHECK(0, TW "no dead-entry loop first", TW_ARGS(r));
		return;
	}
	c->shaped[r->twin]++;
	c->nested += !outer && l->parent >= 0;
	if (!judge_entry_twin(r, GEN_PROG_DEAD_ENTRY_UNSAFE,
			      (struct entry_judged){ &c->safe, &c->faults, &c->endless, &c->bad }, &v))
		return;
	at = r->rs->entries_at[li];
	t = run_watched(r->p, r->seed, r->p->input, r->p->max_steps + 1, r->rs, &steps);
	CHECK(t == INTERP_OK || (t == INTERP_TRAP_LIMIT && (r->p->flags & GEN_PROG_CALL_TRAP)),
	      TW "trap %d", TW_ARGS(r), (int)t);
	if (outer) {
		/* each run enters the outer loop at one of its entries only */
		CHECK(!at[0] != !at[1], TW "entries %llu at the first, %llu at the second",
		      TW_ARGS(r), (unsigned long long)at[0], (unsigned long long)at[1]);
		c->at_first += at[0] != 0;
		c->at_second += at[1] != 0;
	}
}

static void test_dead_knob(const char *safe, const char *twin, uint64_t seed0)
{
	struct twin_spec s = { { safe, twin }, 100, seed0, 100 };
	struct dead_counts c = { 0 };

	for_twin_programs(&s, dead_program, &c);
	CHECK(c.shaped[0] == 100 && c.shaped[1] == 100, "%s: %u and %u of 100 programs hold the "
	      "loop", safe, c.shaped[0], c.shaped[1]);
	/* (p_dead_outer: where the loop forest takes the inner preheader for the irreducible
	 * loop's header, its one exit, on the latch, is passed by every cycle but dominates no
	 * back edge's source; main's cut bound refused every irreducible loop, "no exit is tested
	 * in every iteration of the irreducible loop", and called about half of them unsafe) */
	CHECK(c.safe >= 90u, "%s=100: %u of 100 programs called safe", safe, c.safe);
	if (strstr(safe, "outer"))
		CHECK(c.at_first >= 20 && c.at_second >= 20, "%s: entered at the first block in %u "
		      "programs, at the inner preheader in %u", safe, c.at_first, c.at_second);
	else
		CHECK(c.nested >= 20, "%s: %u of 200 nested", safe, c.nested);
	CHECK(c.faults >= 40 && c.endless >= 15 && c.faults + c.endless == 100 && !c.bad,
	      "%s=100: %u fault, %u endless of 100; %u called safe", twin, c.faults, c.endless,
	      c.bad);
	if (strstr(safe, "outer"))
		printf("test_gen: %s: %u of 100 called safe, entered at the first block %u, at the "
		       "inner preheader %u", safe, c.safe, c.at_first, c.at_second);
	else
		printf("test_gen: %s: %u of 100 called safe, %u of 200 nested", safe, c.safe,
		       c.nested);
	printf("; twins: %u fault, %u endless, %u called safe\n", c.faults, c.endless, c.bad);
}

/* The dead-entry call pieces: p_dead_call (a subprogram loop called from a dead and a live site,
 * each with its own n) and p_dead_cb (a bpf_loop callback registered only on the dead arm).  The
 * safe forms never trap and bpfscev calls at least 90 of 100 safe; the twins, flagged, run out
 * of steps (p_dead_call_bad: the live call counts to the input's number) or fault (p_dead_cb_bad:
 * the live call's callback loads through its NULL ctx), and none is called safe. */
static void dead_call_program(void *arg, const struct twin_run *r)
{
	struct dead_counts *c = arg;
	bool cb = strstr(r->name, "_cb") != NULL;
	uint64_t flag = cb ? GEN_PROG_DEAD_ENTRY_UNSAFE : GEN_PROG_MAY_NOT_TERMINATE;
	enum interp_trap t;
	struct scev_verdict v;
	uint64_t steps;

	c->shaped[r->twin] += cb ? (r->p->shapes & GEN_SH(BPF_LOOP)) != 0
				 : (r->p->shapes & GEN_SH(SUBPROG_LOOP)) != 0;
	if (!twin_verdict(r, &v)) {
		CHECK(0, TW "verify failed", TW_ARGS(r));
		return;
	}
	if (r->twin) {
		t = run_watched(r->p, r->seed, r->p->input, r->k->step_budget, r->rs, &steps);
		CHECK(r->p->flags & flag, TW "the twin not flagged", TW_ARGS(r));
		c->faults += t == INTERP_TRAP_MEM;
		c->endless += t == INTERP_TRAP_STEPS;
		CHECK(v.kind != VERDICT_SAFE, TW "the twin called safe", TW_ARGS(r));
		c->bad += v.kind == VERDICT_SAFE;
		return;
	}
	CHECK(!(r->p->flags & (GEN_PROG_DEAD_ENTRY_UNSAFE | GEN_PROG_MAY_NOT_TERMINATE)),
	      TW "the safe form flagged", TW_ARGS(r));
	c->safe += v.kind == VERDICT_SAFE;
	if (v.kind != VERDICT_SAFE)
		fprintf(stderr, TW "not called safe: %s\n", TW_ARGS(r), v.reason);
	t = run_watched(r->p, r->seed, r->p->input, r->p->max_steps + 1, r->rs, &steps);
	CHECK(t == INTERP_OK || (t == INTERP_TRAP_LIMIT && (r->p->flags & GEN_PROG_CALL_TRAP)),
	      TW "trap %d", TW_ARGS(r), (int)t);
}

static void test_dead_call_knob(const char *safe, const char *twin, uint64_t seed0)
{
	struct twin_spec s = { { safe, twin }, 100, seed0, 100 };
	struct dead_counts c = { 0 };
	bool cb = strstr(safe, "_cb") != NULL;

	for_twin_programs(&s, dead_call_program, &c);
	CHECK(c.shaped[0] == 100 && c.shaped[1] == 100, "%s: %u and %u of 100 programs hold the "
	      "piece", safe, c.shaped[0], c.shaped[1]);
	CHECK(c.safe >= 90, "%s=100: %u of 100 programs called safe", safe, c.safe);
	CHECK((cb ? c.faults : c.endless) == 100 && !c.bad, "%s=100: %u fault, %u endless of 100; "
	      "%u called safe", twin, c.faults, c.endless, c.bad);
	printf("test_gen: %s: %u of 100 called safe; twins: %u fault, %u endless, %u called safe\n",
	       safe, c.safe, c.faults, c.endless, c.bad);
}

static void test_dead_knobs(void)
{
	test_dead_knob("p_dead_branch", "p_dead_branch_bad", 5200000);
	test_dead_knob("p_dead_outer", "p_dead_outer_bad", 5300000);
	test_dead_call_knob("p_dead_call", "p_dead_call_bad", 5400000);
	test_dead_call_knob("p_dead_cb", "p_dead_cb_bad", 5500000);
}

/* p_call_args: a callee given pointers into the frames of two different callers (main's cell
 * and a subprogram's) reads through them; the join of the two kept which frames it may point
 * into (CALLER_SET) and a callee whose calls all sit on dead paths is not run, so none of 100
 * programs is called unsafe for "not a known pointer" (before: 3 of 100, seeds 5000-5099, all
 * accepted by the kernel). */
static void test_call_ptr_frames(void)
{
	struct gen_knobs k = knobs_with("p_call_args", 100, NULL, 0);
	struct gen_program p = { 0 };
	struct run_stats rs = { 0 };
	unsigned bad = 0;

	for (uint64_t seed = 5000; seed < 5100; seed++) {
		struct twin_run r = { &p, &k, "p_call_args", seed, 0, &rs };
		struct scev_verdict v;
		struct gen_src src;

		gen_src_init_seed(&src, seed);
		if (gen_program(&p, &src, &k)) {
			CHECK(0, TW "gen_program failed", TW_ARGS(&r));
			continue;
		}
		if (!twin_verdict(&r, &v)) {
			CHECK(0, TW "verify failed", TW_ARGS(&r));
			continue;
		}
		if (strstr(v.reason, "not a known pointer")) {
			CHECK(0, TW "%s", TW_ARGS(&r), v.reason);
			bad++;
		}
	}
	CHECK(bad == 0, "p_call_args=100: %u of 100 programs called unsafe for a pointer", bad);
	gen_program__free(&p);
}

/* p_wrap_window and its twin p_wrap_window_never (a 32-bit counter that passes its narrow exit
 * range by wrapping and lands in it later; the twin steps by 2^31 and never does): the safe
 * form's first loop leaves within its intent's bound on every start (the generator walked them)
 * and bpfscev bounds it in every program (main: "the counter may wrap past the bound before
 * reaching it" in all of them); the twin is flagged, runs out of steps on every input and is
 * never bounded. */
static void wrap_window_program(void *arg, const struct twin_run *r)
{
	struct twin_counts *c = arg;
	const struct gen_loop *l = r->p->nloops ? &r->p->loops[0] : NULL;
	uint8_t in[GEN_INPUT_LEN] = { 0 };
	uint64_t steps;

	CHECK(l && (r->twin ? l->trip_max == UINT64_MAX : l->trip_max >= 2 && l->trip_max <= 4096),
	      TW "first loop (max %llu)", TW_ARGS(r), l ? (unsigned long long)l->trip_max : 0ull);
	c->flagged[r->twin] += !!(r->p->flags & GEN_PROG_MAY_NOT_TERMINATE);
	in[11] = (uint8_t)r->seed;
	if (r->twin && run_watched(r->p, r->seed, in, r->k->step_budget, r->rs, &steps) ==
			       INTERP_TRAP_STEPS)
		c->traps++;
	first_loop_judged(c, r);
}

static void test_wrap_window_knobs(void)
{
	const struct twin_spec s = { { "p_wrap_window", "p_wrap_window_never" }, 100, 4200000, 100 };
	struct twin_counts c = { 0 };

	for_twin_programs(&s, wrap_window_program, &c);
	check_bounded_twins(&s, &c);
}

static void test_knobs_api(void)
{
	struct gen_knobs k = gen_knobs_default(), d = k;
	struct gen_program p = { 0 };
	struct gen_src src;
	const char *name, *what;
	uint32_t def;
	size_t i;

	CHECK(gen_knobs_set(&k, "no_such_knob", 1) == -ENOENT, "unknown knob");
	CHECK(gen_knobs_set(&k, "p_wrap", 101) == -ERANGE, "probability over 100");
	CHECK(gen_knobs_set(&k, "max_depth", 5) == -ERANGE, "max_depth 5");
	CHECK(gen_knobs_set(&k, "max_depth", 0) == -ERANGE, "max_depth 0");
	CHECK(!memcmp(&k, &d, sizeof(k)), "a refused value changed the knobs");
	CHECK(gen_knobs_set(&k, "p_wrap", 77) == 0 && k.p_wrap == 77, "p_wrap set");
	for (i = 0; gen_knob_info(i, &name, &def, &what); i++) {
		struct gen_knobs t = gen_knobs_default();

		CHECK(gen_knobs_set(&t, name, def) == 0 && !memcmp(&t, &d, sizeof(t)),
		      "knob %s: default %u", name, def);
		CHECK(what && *what, "knob %s undocumented", name);
	}
	CHECK_EQ_U64(i, sizeof(struct gen_knobs) / sizeof(uint32_t), "knob table size");
	gen_src_init_seed(&src, 1);
	k = gen_knobs_default();
	k.max_depth = 0;
	CHECK(gen_program(&p, &src, &k) == -EINVAL, "invalid knobs accepted");
	k = gen_knobs_default();
	k.w_while = k.w_while_bottom = k.w_do_while = k.w_for = 0;
	CHECK(gen_program(&p, &src, &k) == -EINVAL, "all form weights 0 accepted");
	CHECK(gen_program(&p, &src, NULL) == 0, "NULL knobs are the defaults");
	gen_program__free(&p);
	gen_program__free(&p);
	gen_program__free(NULL);
}

/* ---- byte strings ---- */

static void test_bytes(void)
{
	struct gen_knobs k = gen_knobs_default();
	struct gen_program p = { 0 }, q = { 0 };
	struct run_stats rs = { 0 };
	static uint8_t buf[1024];
	struct gen_src src;

	/* The empty string: every choice the smallest, a valid program all the same. */
	gen_src_init_bytes(&src, "", 0);
	CHECK(gen_program(&p, &src, &k) == 0, "empty string");
	check_program(&p, &k, 0, "empty", &rs);
	CHECK(p.nloops >= 1, "the empty string has a loop");
	/* Random strings of every length, run and checked like seeded ones; same bytes, same
	 * program. */
	for (int it = 0; it < 3000; it++) {
		size_t n = rnd64() % (it < 1500 ? 64 : sizeof(buf));

		for (size_t i = 0; i < n; i++)
			buf[i] = (uint8_t)rnd64();
		if (it % 10 == 0)
			memset(buf, it % 20 ? 0xff : 0, n);
		gen_src_init_bytes(&src, buf, n);
		if (gen_program(&p, &src, &k)) {
			CHECK(0, "byte string %d (%zu bytes) failed", it, n);
			continue;
		}
		check_program(&p, &k, (uint64_t)it, "bytes", &rs);
		gen_src_init_bytes(&src, buf, n);
		CHECK(gen_program(&q, &src, &k) == 0 && same_program(&p, &q),
		      "byte string %d not reproducible", it);
	}
	/* Every prefix of one string: truncation never breaks decoding. */
	for (size_t i = 0; i < 600; i++)
		buf[i] = (uint8_t)rnd64();
	for (size_t n = 0; n <= 600; n++) {
		gen_src_init_bytes(&src, buf, n);
		if (gen_program(&p, &src, &k)) {
			CHECK(0, "prefix of %zu bytes failed", n);
			continue;
		}
		check_program(&p, &k, n, "prefix", &rs);
	}
	gen_program__free(&p);
	gen_program__free(&q);
}

/* ---- the text form ---- */

static void test_text(void)
{
	struct gen_knobs k = gen_knobs_default();
	struct gen_program p = { 0 };

	for (uint64_t seed = 0; seed < 400; seed++) {
		struct sbuf sb = SBUF_INIT;
		struct casefile *cf = NULL;
		struct ebpf_object *obj;
		const struct casefile_section *in, *hd;
		struct gen_src src;
		struct diag d;
		uint8_t *bytes;
		size_t n;

		k.p_map = k.p_subprog = seed & 1 ? 100 : 12;
		gen_src_init_seed(&src, seed);
		CHECK(gen_program(&p, &src, &k) == 0, "gen");
		gen_program__to_asm(&sb, &p);
		CHECK(!sb.oom, "to_asm");
		diag_clear(&d);
		if (casefile__open_mem(&cf, sbuf_cstr(&sb), sb.len, "gen", &d)) {
			CHECK(0, "seed %llu: text does not reassemble: %s", (unsigned long long)seed,
			      d.msg);
			sbuf_free(&sb);
			continue;
		}
		obj = cf->obj;
		CHECK(obj->prog_cnt == 1 && obj->progs[0].len == p.len &&
			      !memcmp(obj->progs[0].insns, p.insns, p.len * sizeof(*p.insns)),
		      "seed %llu: reassembled program differs", (unsigned long long)seed);
		in = casefile__section(cf, "input");
		hd = casefile__section(cf, "helper");
		CHECK(in && !ebpf_parse_hex(&bytes, &n, in->text, &d) && n == GEN_INPUT_LEN &&
			      !memcmp(bytes, p.input, n),
		      "seed %llu: -- input", (unsigned long long)seed);
		if (in)
			free(bytes);
		CHECK(hd && !ebpf_parse_hex(&bytes, &n, hd->text, &d) && n == GEN_HELPER_LEN &&
			      !memcmp(bytes, p.helper_data, n),
		      "seed %llu: -- helper", (unsigned long long)seed);
		if (hd)
			free(bytes);
		CHECK(strstr(sbuf_cstr(&sb), "; loop 0: header ") != NULL, "loop metadata missing");
		casefile__free(cf);
		sbuf_free(&sb);
	}
	gen_program__free(&p);
}

/* bpf_loop callbacks and may_goto (issue 15): every shape of theirs appears with their knobs on,
 * and check_program holds their metadata (steps, frames) against the interpreter. */
static void test_other_forms(void)
{
	struct gen_knobs k = knobs_with("p_bpf_loop", 60, "p_may_goto", 30);
	struct sample sm;

	gen_knobs_set(&k, "p_may_goto_loop", 30);
	sample(&sm, &k, 400, 4000000);
	for (unsigned s = GEN_SHAPE_BPF_LOOP; s < GEN_SHAPE__COUNT; s++)
		CHECK(sm.shape_count[s] > 0, "shape %s never produced with the bpf_loop and may_goto "
		      "knobs on", gen_shape_name(s));
}

/* p_throw and its unsafe twin p_throw_bad (generators/gen_throw.c): bpf_throw on a data-dependent
 * path of the prologue, in main or a static function, half the time with an exception callback;
 * the twins throw in a bpf_loop callback, with r10 as the cookie, with an iterator live or in a
 * loop.  The safe form never traps (a run that throws ends with the cookie or the callback's
 * result) and is called safe, more than 90 of 100 (d996b52, before bpf_throw was modeled: none,
 * "bpf_throw is not in bpf/kfunc_table.c"), some with a callback, some throwing on their own
 * input; no twin is called safe.  The kernel judges the first 25 of each (kernel_judge): it
 * refuses every twin and accepts every safe form bpfscev calls safe. */
struct throw_counts {
	unsigned safe, flagged, cb, loaded[2], refused[2];
};

static void throw_program(void *arg, const struct twin_run *r)
{
	struct throw_counts *c = arg;
	struct scev_verdict v;

	CHECK(!!(r->p->flags & GEN_PROG_THROW_UNSAFE) == r->twin, TW "the twin's flag is not the "
	      "twin's", TW_ARGS(r));
	c->flagged += r->twin && (r->p->flags & GEN_PROG_THROW_UNSAFE);
	for (size_t k = 0; !r->twin && k < r->p->nglobals; k++)
		c->cb += r->p->globals[k].exc_cb;
	if (!r->twin) {
		enum interp_trap t = twin_trap(r, NULL);

		CHECK(!trapped(t), TW "trapped (%d)", TW_ARGS(r), t);
	}
	if (twin_verdict(r, &v)) {
		CHECK(!r->twin || v.kind != VERDICT_SAFE, TW "called safe", TW_ARGS(r));
		c->safe += !r->twin && v.kind == VERDICT_SAFE;
	}
	if (r->seed < 9300000 + 25)
		kernel_judge(r, false, c->loaded, c->refused);
}

static void test_throw_knobs(void)
{
	static const struct twin_spec s = KERNEL_TWIN_SPEC("p_throw", "p_throw_bad", 9300000);
	struct throw_counts c = { 0 };

	if (ebpf_kfunc_by_name("bpf_throw") <= 0) {
		check_skip_part("p_throw: the running kernel's BTF has no bpf_throw");
		return;
	}
	for_twin_programs(&s, throw_program, &c);
	CHECK(c.flagged == 100, "p_throw_bad=100: %u of 100 flagged", c.flagged);
	CHECK(c.safe > 90 && c.cb > 20, "p_throw=100: %u of 100 called safe, %u with an "
	      "exception callback", c.safe, c.cb);
	if (!c.loaded[0])
		check_skip_part("p_throw: the kernel's verdicts (bpf() refused)");
	printf("p_throw: %u of 100 called safe (%u with an exception callback), the kernel accepts "
	       "%u of %u; p_throw_bad: none called safe, the kernel refuses %u of %u\n", c.safe,
	       c.cb, c.loaded[0] - c.refused[0], c.loaded[0], c.refused[1], c.loaded[1]);
}

int main(int argc, char **argv)
{
	check_parts(&argc, argv);
	CHECK_STEP(test_producer());
	CHECK_STEP(test_first_hit());
	CHECK_STEP(test_first_exit());
	CHECK_STEP(test_knobs_api());
	CHECK_STEP(test_text());
	CHECK_STEP(test_bytes());
	CHECK_STEP(test_calls());
	CHECK_STEP(test_knobs_control());
	CHECK_STEP(test_null_knobs());
	CHECK_STEP(test_helper_mem_knobs());
	CHECK_STEP(test_helper_zero_knobs());
	CHECK_STEP(test_helper_str_knobs());
	CHECK_STEP(test_strncmp_knobs());
	CHECK_STEP(test_queue_knobs());
	CHECK_STEP(test_pkt_join_knobs());
	CHECK_STEP(test_pkt_var_knobs());
	CHECK_STEP(test_pkt_len_knobs());
	CHECK_STEP(test_ptr_join_knobs());
	CHECK_STEP(test_start_range_knobs());
	CHECK_STEP(test_map_len_knobs());
	CHECK_STEP(test_map_percpu_knob());
	CHECK_STEP(test_map_pcpu_knobs());
	CHECK_STEP(test_cb_count_knobs());
	CHECK_STEP(test_call_ctx_knobs());
	CHECK_STEP(test_args_last_knobs());
	CHECK_STEP(test_map_hash_knobs());
	CHECK_STEP(test_twins_over_hash());
	CHECK_STEP(test_iter_knobs());
	CHECK_STEP(test_iter_helper_knobs());
	CHECK_STEP(test_iter_deep_knobs());
	CHECK_STEP(test_for_each_knobs());
	CHECK_STEP(test_bpf_loop_knobs());
	CHECK_STEP(test_iter_bits_knobs());
	CHECK_STEP(test_iter_task_knobs());
	CHECK_STEP(test_urb_knobs());
	CHECK_STEP(test_dynptr_knobs());
	CHECK_STEP(test_dynptr_kf_knobs());
	CHECK_STEP(test_dynptr_sub_knobs());
	CHECK_STEP(test_dynptr_sub_make_knobs());
	CHECK_STEP(test_dynptr_cb_knobs());
	CHECK_STEP(dynptr_twin_knobs("p_dynptr_deep", "p_dynptr_deep_unsafe", 6040000, 0));
	CHECK_STEP(dynptr_twin_knobs("p_dynptr_cb_make", "p_dynptr_cb_make_unsafe", 6050000, 1));
	CHECK_STEP(dynptr_twin_knobs("p_dynptr_keyed", "p_dynptr_keyed_unsafe", 6060000, 0));
	CHECK_STEP(dynptr_twin_knobs_with("p_dynptr_keyed", "p_dynptr_keyed_unsafe", 6090000, 0,
		   "p_dynptr_keyed_test", dynptr_keyed_test_program));
	CHECK_STEP(dynptr_twin_knobs("p_dynptr_mid", "p_dynptr_mid_unsafe", 6070000, 1));
	CHECK_STEP(dynptr_twin_knobs("p_dynptr_global", "p_dynptr_global_unsafe", 6080000, -1));
	CHECK_STEP(test_dynptr_frames());
	CHECK_STEP(test_timer_knobs());
	CHECK_STEP(test_timer_two_knobs());
	CHECK_STEP(test_find_vma_knobs());
	CHECK_STEP(test_ptr_alu_knobs());
	CHECK_STEP(test_map_field_knobs());
	CHECK_STEP(test_spin_lock_knobs());
	CHECK_STEP(test_map_u64_knobs());
	CHECK_STEP(test_global_knobs());
	CHECK_STEP(test_call_pkt_knobs());
	CHECK_STEP(test_call_bound_knobs());
	CHECK_STEP(test_ringbuf_knobs());
	CHECK_STEP(test_fill_knobs());
	CHECK_STEP(test_loop_def_knobs());
	CHECK_STEP(test_loop_shape_knobs());
	CHECK_STEP(test_bounded_knobs());
	CHECK_STEP(test_frames_three());
	CHECK_STEP(test_side_only_knobs());
	CHECK_STEP(test_dead_knobs());
	CHECK_STEP(test_call_frames_knobs());
	CHECK_STEP(test_call_ptr_frames());
	CHECK_STEP(test_wrap_window_knobs());
	CHECK_STEP(test_iter_search_knobs());
	CHECK_STEP(test_stack_align_knobs());
	CHECK_STEP(test_cb_two_ctx_knobs());
	CHECK_STEP(test_sub_ret_knobs());
	CHECK_STEP(test_krules_knobs());
	CHECK_STEP(test_kfunc_knobs());
	CHECK_STEP(test_krules_key_knobs());
	CHECK_STEP(test_frame_rules_knobs());
	CHECK_STEP(test_access_knobs());
	CHECK_STEP(test_links_knobs());
	CHECK_STEP(test_strtol_knobs());
	CHECK_STEP(test_sock_knobs());
	CHECK_STEP(test_sk_prog_knobs());
	CHECK_STEP(test_cg_storage_knobs());
	CHECK_STEP(test_sk_msg_knobs());
	CHECK_STEP(test_kwalk_knobs());
	CHECK_STEP(test_nest_knobs());
	CHECK_STEP(test_stack_shape_knobs());
	CHECK_STEP(test_loop_fields_knobs());
	CHECK_STEP(test_default_mix());
	CHECK_STEP(test_other_forms());
	/* (last, so that the steps above keep their parts) */
	CHECK_STEP(test_ld_abs_knobs());	/* (~8 s of ASan CPU: 200 programs, 50 loads) */
	CHECK_STEP(test_check_mtu_knobs());	/* (~3 s of ASan CPU: 200 programs, 50 loads) */
	CHECK_STEP(test_kregion_knobs());	/* (200 programs, 50 loads) */
	CHECK_STEP(test_throw_knobs());	/* (200 programs, 50 loads) */
	CHECK_STEP(test_sub_ref_knobs());
	CHECK_STEP(test_fastcall_knobs());
	return check_done("test_gen");
}
