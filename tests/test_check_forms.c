/* The concrete oracle's fast claim forms (oracle/exec/check.c) against range_contains(): the
 * check sorts a pc's claims into groups it tests without a branch per claim (registers,
 * 8-byte slots, cells of any size with the tnum, cells with every view) and tests the rest one
 * by one; a claim that fails is reported by the one-by-one test.  So a fast form that reads the
 * wrong bytes or tests a view wrongly shows as a finding missing (or one too many) here.
 * Cells of every size at both ends of the frame (a cell in the top 8 bytes is read from an
 * earlier start and shifted), registers, a stack pointer in a register and one spilled; for
 * each, the exact claim, claims whose one field (umin, umax, smin, smax, u32_min, u32_max,
 * s32_min, s32_max, a tnum bit) excludes the value by one, and the same fields including it.
 * Each claim is checked alone and all of them together (then one finding per failing claim).
 */
#include <string.h>

#include "bpf/prog.h"
#include "oracle/exec/check.h"
#include "tests/check.h"

static const char prog_text[] =
	"r2 = 0x8877665544332211 ll\n"
	"*(u64 *)(r10 - 8) = r2\n"
	"*(u64 *)(r10 - 16) = r2\n"
	"*(u64 *)(r10 - 512) = r2\n"
	"r3 = r10\n"
	"r3 += -24\n"
	"*(u64 *)(r10 - 32) = r3\n"
	"r4 = -5\n"
	"r5 = 0x7fffffff\n"
	"r0 = 0\n"
	"exit\n";
#define CLAIM_PC 10	/* r0 = 0 (the LD_IMM64 takes two slots) */

struct cell {
	loc_t loc;
	uint64_t value;		/* for a pointer: the offset from r10 */
	bool is_ptr;
};

static const struct cell cells[] = {
	{ 2, 0x8877665544332211ull, false },
	{ 4, (uint64_t)-5, false },
	{ 5, 0x7fffffff, false },
	{ 3, (uint64_t)-24, true },
	{ LOC_SLOT(-8, 8), 0x8877665544332211ull, false },
	{ LOC_SLOT(-1, 1), 0x88, false },
	{ LOC_SLOT(-2, 2), 0x8877, false },
	{ LOC_SLOT(-4, 4), 0x88776655, false },
	{ LOC_SLOT(-6, 2), 0x4433, false },
	{ LOC_SLOT(-7, 1), 0x22, false },
	{ LOC_SLOT(-12, 4), 0x88776655, false },
	{ LOC_SLOT(-16, 8), 0x8877665544332211ull, false },
	{ LOC_SLOT(-512, 8), 0x8877665544332211ull, false },
	{ LOC_SLOT(-512, 1), 0x11, false },
	{ LOC_SLOT(-509, 1), 0x44, false },
	{ LOC_SLOT(-510, 2), 0x4433, false },
	{ LOC_SLOT(-32, 8), (uint64_t)-24, true },
};

static struct range full(void)
{
	return range_unknown();
}

/* Variant k of a claim about v: 0 exact; 1-9 one field excluding v; 10-18 the same field
 * including v with the others unknown.  false when v leaves no room for the variant. */
static bool variant(struct range *r, uint64_t v, unsigned k)
{
	bool out = k >= 1 && k <= 9;
	unsigned f = out ? k : k - 9;
	int64_t s = (int64_t)v;
	uint32_t w = (uint32_t)v;
	int32_t sw = (int32_t)w;

	if (k == 0) {
		*r = range_const(v);
		return true;
	}
	*r = full();
	switch (f) {
	case 1: if (out && v == UINT64_MAX) return false; r->umin = out ? v + 1 : v; break;
	case 2: if (out && v == 0) return false; r->umax = out ? v - 1 : v; break;
	case 3: if (out && s == INT64_MAX) return false; r->smin = out ? s + 1 : s; break;
	case 4: if (out && s == INT64_MIN) return false; r->smax = out ? s - 1 : s; break;
	case 5: if (out && w == UINT32_MAX) return false; r->u32_min = out ? w + 1 : w; break;
	case 6: if (out && w == 0) return false; r->u32_max = out ? w - 1 : w; break;
	case 7: if (out && sw == INT32_MAX) return false; r->s32_min = out ? sw + 1 : sw; break;
	case 8: if (out && sw == INT32_MIN) return false; r->s32_max = out ? sw - 1 : sw; break;
	case 9: {
		unsigned bit = (unsigned)(v * 0x9e3779b97f4a7c15ull >> 58);	/* some bit */

		r->var_off.mask = ~(1ull << bit);
		r->var_off.value = (v & (1ull << bit)) ^ (out ? 1ull << bit : 0);
		break;
	}
	default: return false;
	}
	return true;
}

static void add(struct claim_prog *cp, const struct cell *c, const struct range *r)
{
	struct claim_range cr = { .pc = CLAIM_PC, .loc = c->loc, .is_ptr = c->is_ptr,
				  .region = REGION_STACK, .r = *r };

	CHECK(!claim_prog__add_range(cp, &cr), "add a claim");
}

static uint32_t run(const struct ebpf_object *obj, const struct claim_prog *cp, uint64_t *checks)
{
	static const uint8_t zeros[64];
	struct check_opts co = { .sz = sizeof(co), .input = zeros, .fixed_len = sizeof(zeros) };
	struct check_result res;
	uint32_t n;

	CHECK(!oracle_check(&res, obj, &obj->progs[0], cp, &co), "oracle_check");
	n = res.nfindings;
	for (uint32_t i = 0; i < n; i++)
		CHECK(res.findings[i].pc == CLAIM_PC, "a finding at pc %u", res.findings[i].pc);
	*checks = res.checks;
	check_result__free(&res);
	return n;
}

int main(void)
{
	struct ebpf_object *obj = NULL;
	struct claim_prog all = { 0 };
	unsigned claims = 0, failing = 0;
	uint64_t checks;
	struct diag d;

	diag_clear(&d);
	CHECK(!ebpf_object__open_asm(&obj, prog_text, strlen(prog_text), 1, "forms", &d),
	      "assemble: %s", d.msg);
	if (!obj)
		return check_done("test_check_forms");
	for (size_t i = 0; i < sizeof(cells) / sizeof(cells[0]); i++) {
		const struct cell *c = &cells[i];

		for (unsigned k = 0; k <= 18; k++) {
			struct claim_prog one = { 0 };
			struct range r;
			bool holds;
			char loc[32];

			if (!variant(&r, c->value, k))
				continue;
			holds = range_contains(&r, c->value);
			CHECK(holds == !(k >= 1 && k <= 9), "variant %u of cell %zu", k, i);
			add(&one, c, &r);
			add(&all, c, &r);
			claims++;
			failing += !holds;
			loc_format(c->loc, loc, sizeof(loc));
			CHECK(run(obj, &one, &checks) == !holds, "%s = %#llx, variant %u: %s", loc,
			      (unsigned long long)c->value, k, holds ? "refuted" : "not refuted");
			CHECK_EQ_U64(checks, 1, "checks of one claim");
			claim_prog__free(&one);
		}
	}
	CHECK(claims > 250 && failing > 120, "%u claims, %u failing", claims, failing);
	CHECK_EQ_U64(run(obj, &all, &checks), failing, "findings of all claims together");
	CHECK_EQ_U64(checks, claims, "checks of all claims together");
	printf("%u claims on %zu cells, %u refuted\n", claims, sizeof(cells) / sizeof(cells[0]),
	       failing);
	claim_prog__free(&all);
	ebpf_object__free(obj);
	return check_done("test_check_forms");
}
