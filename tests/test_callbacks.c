/* Helper callbacks as loops (scev/callbacks.h): which callbacks are bpf_loop bodies, their trip
 * claims, the reasons when a callback is not only bpf_loop's, and the loop kind in claims JSON.
 * The interpreter's bpf_loop is tested in test_interp, the claims against it by the corpus
 * (corpus/cases/bpf_loop_*.case).
 */
#include <errno.h>
#include <string.h>

#include "bpf/prog.h"
#include "claims/claims.h"
#include "scev/scev.h"
#include "tests/check.h"

/* Analyzes asm; the claims of its only program (caller frees), or false. */
static bool analyze(const char *src, struct claim_prog *out)
{
	struct ebpf_object *o = NULL;
	struct diag d;
	int err;

	diag_clear(&d);
	err = ebpf_object__open_mem(&o, src, strlen(src), "t", &d);
	CHECK(!err, "assemble: %s", d.msg);
	if (err)
		return false;
	err = scev_analyze(out, &o->progs[0], o->maps, o->map_cnt, NULL, &d);
	CHECK(!err, "analyze: %s", d.msg);
	ebpf_object__free(o);
	return !err;
}

static const struct claim_loop *loop_at(const struct claim_prog *p, uint32_t header)
{
	for (uint32_t l = 0; l < p->nloops; l++)
		if (p->loops[l].header == header)
			return &p->loops[l];
	return NULL;
}

static void expect_trip(const char *what, const char *src, uint32_t header, enum trip_kind kind,
			uint64_t max, const char *reason)
{
	struct claim_prog p;
	struct claim_text_buf rb;
	const struct claim_loop *l;

	if (!analyze(src, &p))
		return;
	l = loop_at(&p, header);
	CHECK(l && l->kind == LOOP_BPF_LOOP, "%s: no bpf_loop loop at %u", what, header);
	if (l) {
		CHECK(l->trip.kind == kind && (kind == TRIP_UNKNOWN || l->trip.max == max) &&
		      (!reason || strstr(claim_trip_reason(&l->trip, &rb), reason)),
		      "%s: trip kind %u max %llu reason '%s'", what, l->trip.kind,
		      (unsigned long long)l->trip.max, claim_trip_reason(&l->trip, &rb));
		CHECK(l->nblocks == 1 && l->blocks[0].first == header &&
		      (kind == TRIP_UNKNOWN || l->nentries >= 1),
		      "%s: body and entries", what);
	}
	claim_prog__free(&p);
}

#define CALLBACK_TAIL "exit\ncb: r0 = 0\nexit\n"

static void trips(void)
{
	expect_trip("constant nr", "r1 = 5\nr2 = func cb ll\nr3 = 0\nr4 = 0\ncall bpf_loop\n"
		    CALLBACK_TAIL, 7, TRIP_EXACT, 5, NULL);
	/* nr is a u32: 2^32 + 3 makes 3 calls */
	expect_trip("u32 nr", "r1 = 0x100000003 ll\nr2 = func cb ll\nr3 = 0\nr4 = 0\n"
		    "call bpf_loop\n" CALLBACK_TAIL, 8, TRIP_EXACT, 3, NULL);
	/* flags not known to be 0: the helper may return -EINVAL with no call */
	expect_trip("unknown flags", "r4 = *(u64 *)(r1 +0)\nr1 = 5\nr2 = func cb ll\nr3 = 0\n"
		    "call bpf_loop\n" CALLBACK_TAIL, 7, TRIP_BOUNDED, 5, "not constants");
	/* an unknown nr: BPF_MAX_LOOPS bounds it */
	expect_trip("unknown nr", "r1 = *(u64 *)(r1 +0)\nr2 = func cb ll\nr3 = 0\nr4 = 0\n"
		    "call bpf_loop\n" CALLBACK_TAIL, 7, TRIP_BOUNDED, 1u << 23, "BPF_MAX_LOOPS");
	/* nr above 2^23 is refused without a call */
	expect_trip("nr above 2^23", "r1 = 0x900000\nr2 = func cb ll\nr3 = 0\nr4 = 0\n"
		    "call bpf_loop\n" CALLBACK_TAIL, 7, TRIP_BOUNDED, 1u << 23, "BPF_MAX_LOOPS");
	/* two calls sharing a callback: the larger nr */
	expect_trip("shared", "r1 = 5\nr2 = func cb ll\nr3 = 0\nr4 = 0\ncall bpf_loop\n"
		    "r1 = 9\nr2 = func cb ll\nr3 = 0\nr4 = 0\ncall bpf_loop\n" CALLBACK_TAIL, 13,
		    TRIP_BOUNDED, 9, NULL);
	/* other uses of the address: no bound */
	expect_trip("called directly", "r1 = 5\nr2 = func cb ll\nr3 = 0\nr4 = 0\ncall bpf_loop\n"
		    "call cb\n" CALLBACK_TAIL, 8, TRIP_UNKNOWN, 0, "called directly");
	/* the address copied to r2 (clang's `r2 = r8`): its callback (scev/callbacks.c) */
	expect_trip("address copied from r5", "r1 = 5\nr5 = func cb ll\nr2 = r5\nr3 = 0\n"
		    "r4 = 0\ncall bpf_loop\n" CALLBACK_TAIL, 8, TRIP_EXACT, 5, NULL);
	expect_trip("address left in r5", "r1 = 5\nr5 = func cb ll\nr2 = 0\nr3 = 0\nr4 = 0\n"
		    "call bpf_loop\n" CALLBACK_TAIL, 8, TRIP_UNKNOWN, 0, "not in the register");
	expect_trip("address spilled", "r1 = 5\nr5 = func cb ll\n*(u64 *)(r10 -8) = r5\nr2 = r5\n"
		    "r3 = 0\nr4 = 0\ncall bpf_loop\n" CALLBACK_TAIL, 9, TRIP_UNKNOWN, 0, "used before");
	expect_trip("address to another helper", "r1 = 5\nr2 = func cb ll\nr3 = 0\nr4 = 0\n"
		    "call bpf_map_update_elem\n" CALLBACK_TAIL, 7, TRIP_UNKNOWN, 0,
		    "other than bpf_loop");
	/* a timer's callback is no loop (the timer calls it later, on its own): no claim; given
	 * to bpf_loop too, no bound */
	expect_trip("address to bpf_loop and bpf_timer_set_callback", "r1 = 5\nr2 = func cb ll\n"
		    "r3 = 0\nr4 = 0\ncall bpf_loop\nr1 = r10\nr1 += -16\nr2 = func cb ll\n"
		    "call bpf_timer_set_callback\n" CALLBACK_TAIL, 12, TRIP_UNKNOWN, 0,
		    "two different callback helpers");
	{
		struct claim_prog p;

		if (analyze("r1 = r10\nr1 += -16\nr2 = func cb ll\ncall bpf_timer_set_callback\n"
			    CALLBACK_TAIL, &p)) {
			CHECK(p.nloops == 0, "a timer's callback: %u loops claimed", p.nloops);
			claim_prog__free(&p);
		}
	}
}

/* A callback whose entry is a plain loop's header is left out: a header execution could not
 * say which loop it belongs to. */
static void shared_header(void)
{
	struct claim_prog p;

	if (!analyze("r1 = 5\nr2 = func cb ll\nr3 = 0\nr4 = 0\ncall bpf_loop\nexit\n"
		     "cb: r1 += 1\nif r1 < 10 goto cb\nr0 = 0\nexit\n", &p))
		return;
	for (uint32_t l = 0; l < p.nloops; l++)
		CHECK(p.loops[l].kind == LOOP_PLAIN, "loop at %u has kind %u", p.loops[l].header,
		      p.loops[l].kind);
	CHECK(p.nloops == 1 && p.loops[0].header == 7, "the plain loop at 7 stays");
	claim_prog__free(&p);
}

static void json(void)
{
	struct claim_prog p;
	struct claims *c = NULL, one;
	struct sbuf sb = { 0 };
	struct diag d;
	const char *bad = "{\"programs\": [{\"name\": \"t\", \"insn_count\": 2, \"loops\": "
			  "[{\"header\": 0, \"kind\": \"for_each\", \"blocks\": [[0, 1]]}], "
			  "\"ranges\": []}]}";

	if (!analyze("r1 = 5\nr2 = func cb ll\nr3 = 0\nr4 = 0\ncall bpf_loop\n" CALLBACK_TAIL,
		     &p))
		return;
	one.progs = &p;
	one.nprogs = 1;
	claims_write(&sb, &one);
	diag_clear(&d);
	CHECK(claims_read(&c, sb.buf, sb.len, &d) == 0, "read back: %s", d.msg);
	if (c) {
		const struct claim_loop *l = c->nprogs ? loop_at(&c->progs[0], 7) : NULL;

		CHECK(l && l->kind == LOOP_BPF_LOOP && l->trip.kind == TRIP_EXACT &&
		      l->trip.max == 5, "kind and trip survive JSON");
		claims__free(c);
		c = NULL;
	}
	CHECK(strstr(sb.buf, "\"kind\": \"bpf_loop\""), "JSON names the kind");
	diag_clear(&d);
	CHECK(claims_read(&c, bad, strlen(bad), &d) == -EINVAL && strstr(d.msg, "kind") &&
	      d.line == 1, "bad kind: %s", d.msg);
	claims__free(c);
	sbuf_free(&sb);
	claim_prog__free(&p);
}

int main(void)
{
	trips();
	shared_header();
	json();
	return check_done("test_callbacks");
}
