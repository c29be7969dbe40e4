/* Programs of more loops than one group of PAGE_GROUP (scev/absint.h): the last pass gives back
 * the pages of a group's summaries, first-pass header states and per-loop and per-block state
 * arrays once it has left every loop (flushed every block) of the group, and a program of fewer
 * loops never gets there.  A page given back while a loop of its group still needs what it
 * held would read as zero: that loop's summary empty, its trip count unknown.  So every loop
 * here has an exact count the test knows, and each loop's pc ranges (merged from its
 * children's, absint_claims.c) are checked too:
 * - 4,500 counted loops in a row, r1 = 0; r1 += 1; if r1 < K goto, K from 2 to 14: each exact
 *   K, and r1 is K where the next one starts;
 * - 525 nests of depth 8 (4,200 loops), level d counting r(d + 1) from 0 to its own K: each
 *   level exact, its blocks one pc range from its header to its latch.
 * Both strategies. */
#include <stdlib.h>
#include <string.h>

#include "scev/scev.h"
#include "tests/check.h"

#define MAX_INSNS 16384

static struct bpf_insn code[MAX_INSNS];
static uint32_t want_k[MAX_INSNS];	/* per header pc: the trip count, 0 when none */
static uint32_t want_last[MAX_INSNS];	/* per header pc: the loop's last pc */
static uint32_t want_exit[MAX_INSNS];	/* per pc: r1's value there, 0 when not checked */
static uint32_t n;

static void emit(uint8_t op, uint8_t dst, int16_t off, int32_t imm)
{
	code[n++] = (struct bpf_insn){ .code = op, .dst_reg = dst, .off = off, .imm = imm };
}

static void mov0(uint8_t r)
{
	emit(BPF_ALU64 | BPF_MOV | BPF_K, r, 0, 0);
}

static void add1(uint8_t r)
{
	emit(BPF_ALU64 | BPF_ADD | BPF_K, r, 0, 1);
}

/* if r < k goto to */
static void jlt(uint8_t r, uint32_t k, uint32_t to)
{
	emit(BPF_JMP | BPF_JLT | BPF_K, r, (int16_t)((int32_t)to - (int32_t)n - 1), (int32_t)k);
}

static void counted(void)
{
	for (uint32_t i = 0; i < 4500; i++) {
		uint32_t k = 2 + (i * 7) % 13, h;

		mov0(1);
		h = n;
		add1(1);
		jlt(1, k, h);
		want_k[h] = k;
		want_last[h] = n - 1;
		want_exit[n] = k;	/* (the next loop's mov, or the exit) */
	}
	emit(BPF_JMP | BPF_EXIT, 0, 0, 0);
}

static void nests(void)
{
	for (uint32_t i = 0; i < 525; i++) {
		uint32_t hdr[8];

		for (uint8_t d = 0; d < 8; d++) {
			mov0((uint8_t)(d + 1));
			hdr[d] = n;
			want_k[n] = 2 + (i + d) % 5;
			add1((uint8_t)(d + 1));
		}
		for (int d = 7; d >= 0; d--) {
			want_last[hdr[d]] = n;
			jlt((uint8_t)(d + 1), want_k[hdr[d]], hdr[d]);
		}
	}
	emit(BPF_JMP | BPF_EXIT, 0, 0, 0);
}

static void check_prog(const char *what, enum scev_strategy strategy, uint32_t nloops)
{
	struct ebpf_prog prog = { .name = "many", .insns = code, .len = n };
	struct scev_opts so = { .sz = sizeof(so), .strategy = strategy };
	struct claim_prog cp;
	struct diag d;
	uint32_t exact = 0, ranges_ok = 0, exits = 0, exits_ok = 0;

	diag_clear(&d);
	if (scev_analyze(&cp, &prog, NULL, 0, &so, &d)) {
		CHECK(0, "%s: analysis failed: %s", what, d.msg);
		return;
	}
	CHECK(cp.nloops == nloops, "%s: %u loops, not %u", what, cp.nloops, nloops);
	for (uint32_t l = 0; l < cp.nloops; l++) {
		const struct claim_loop *L = &cp.loops[l];
		uint32_t h = L->header;

		if (h < n && want_k[h] && L->trip.kind == TRIP_EXACT && L->trip.max == want_k[h])
			exact++;
		else if (l < exact + 3)	/* (the first few only) */
			CHECK(0, "%s: loop at %u: trip kind %u max %llu, not exact %u", what, h,
			      L->trip.kind, (unsigned long long)L->trip.max, h < n ? want_k[h] : 0);
		if (L->nblocks == 1 && L->blocks[0].first == h && L->blocks[0].last == want_last[h])
			ranges_ok++;
	}
	for (uint32_t k = 0; k < cp.nranges; k++) {
		const struct claim_range *r = &cp.ranges[k];

		if (r->pc >= n || !want_exit[r->pc] || r->loc != 1)
			continue;
		exits++;
		exits_ok += !r->is_ptr && r->r.umin == want_exit[r->pc] && r->r.umax == r->r.umin;
	}
	CHECK(exact == nloops, "%s: %u of %u loops exact", what, exact, nloops);
	CHECK(ranges_ok == nloops, "%s: %u of %u loops one pc range, header to latch", what,
	      ranges_ok, nloops);
	if (want_exit[n - 1])	/* (the counted loops) */
		CHECK(exits > 0 && exits_ok == exits, "%s: r1 the trip count after %u of %u loops",
		      what, exits_ok, exits);
	claim_prog__free(&cp);
}

int main(void)
{
	for (int s = 0; s < 2; s++) {
		enum scev_strategy strategy = s ? SCEV_ITERATE : SCEV_FORGET;

		n = 0;
		memset(want_k, 0, sizeof(want_k));
		memset(want_last, 0, sizeof(want_last));
		memset(want_exit, 0, sizeof(want_exit));
		counted();
		check_prog(s ? "counted loops, iterate" : "counted loops", strategy, 4500);
		CHECK(n > 0 && want_exit[n - 1], "the counted loops' exits were listed");

		n = 0;
		memset(want_k, 0, sizeof(want_k));
		memset(want_last, 0, sizeof(want_last));
		memset(want_exit, 0, sizeof(want_exit));
		nests();
		check_prog(s ? "nests, iterate" : "nests", strategy, 525 * 8);
	}
	return check_done("test_many_loops");
}
