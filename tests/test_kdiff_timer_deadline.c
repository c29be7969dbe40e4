/* The kernel differential's read deadline for programs that leave a timer armed (kdiff.c
 * timer_read_by, issue 15).  The kernel's maps must be read before a timer the interpreter left
 * armed can fire in the kernel: the last read must end 200 ms before the earliest such expiry,
 * counted from the test run's start; a program that leaves none armed has no deadline.  (It was
 * a fixed 800 ms, checked against the time after the interpreter's runs: a slow interpreter run
 * dropped maps read in time, and a timer an hour ahead had the deadline of one 1 s ahead.)
 *
 * Nothing here depends on the wall clock: kdiff reads the test's clock (kdiff_opts.clock_ms),
 * which says 0, 1, ... for the first calls (the run's start and end, then maybe the first read
 * after it) and a fixed time after them.  The programs' callbacks write nothing, so whether the
 * kernel's timer really fired during the test changes no map.  Each case fails with the fixed
 * deadline:
 *  - a timer 3600 s ahead, the maps read at 900 ms: compared (was "read too late");
 *  - the same read at 3,599,800 ms: too late (200 ms before the expiry); at 3,599,799: compared;
 *  - a timer 1 s ahead read at 900 ms: too late (with no deadline at all, compared);
 *  - a timer 1 s ahead, the maps read at 2 ms and the interpreter's runs ending at 5 s:
 *    compared (the read's time decides, not the time after the interpreter).
 * Without bpf() the test skips.
 */
#include <string.h>

#include "casefile/casefile.h"
#include "oracle/kernel/kdiff.h"
#include "oracle/kernel/kernel.h"
#include "tests/check.h"
#include "tests/kdiff_case.h"

/* A timer of element 0 armed NS ns ahead (CLOCK_MONOTONIC), its callback writing nothing;
 * r0 = bpf_timer_start's */
#define TIMER_AHEAD(NS)                                                                         \
	"-- asm\n"                                                                              \
	"r2 = 0\n*(u32 *)(r10 -4) = r2\nr1 = map[fd:0] ll\nr2 = r10\nr2 += -4\n"                \
	"call bpf_map_lookup_elem\nif r0 == 0 goto out\nr6 = r0\n"                              \
	"r1 = r6\nr1 += 8\nr2 = map[fd:0] ll\nr3 = 1\ncall bpf_timer_init\n"                    \
	"r1 = r6\nr1 += 8\nr2 = func cb ll\ncall bpf_timer_set_callback\n"                       \
	"r1 = r6\nr1 += 8\nr2 = " NS " ll\nr3 = 0\ncall bpf_timer_start\nexit\n"                \
	"out: r0 = 0\nexit\ncb: r0 = 0\nexit\n"                                                 \
	"-- type\nxdp\n-- maps\narray key=4 value=32 entries=1 timer=8 name=t\n"

#define HOUR "3600000000000"
#define SECOND "1000000000"

/* The test's clock: the k-th call (from 0) returns k while k < early, then later. */
struct fake_clock {
	uint64_t calls, early, later;
};

static uint64_t clock_ms(void *arg)
{
	struct fake_clock *c = arg;
	uint64_t k = c->calls++;

	return k < c->early ? k : c->later;
}

/* kdiff_run on text with the fake clock; compared: the timer's map compared (else left out as
 * read too late).  Checks that the run was compared as the case wants. */
static void expect(const char *name, const char *text, uint64_t early, uint64_t later,
		   bool compared)
{
	uint8_t pkt[64] = { 0 };
	struct fake_clock fc = { .early = early, .later = later };
	struct kdiff_opts ko = { .sz = sizeof(ko), .input = pkt, .input_len = sizeof(pkt),
				 .check_runs = 4, .clock_ms = clock_ms, .forge_arg = &fc };
	struct kdiff_result res;

	if (!kdiff_case(&res, name, text, &ko))
		return;
	CHECK(res.accepted && res.ran && !res.nondeterministic && res.kernel_retval == 0 &&
		      res.kind == KDIFF_AGREE,
	      "%s: accepted %d, ran %d, compared %d, r0 %u: %s: %s", name, res.accepted, res.ran,
	      !res.nondeterministic, res.kernel_retval, kdiff_kind_name(res.kind),
	      res.accepted ? res.text : res.message);
	if (compared)
		CHECK(res.timer_maps_compared == 1 && !res.maps_left, "%s: the timer's map not "
		      "compared (%u left: %s)", name, res.maps_left, res.maps_left_why);
	else
		CHECK(!res.timer_maps_compared && res.maps_left == 1 &&
			      strstr(res.maps_left_why, "read too late"),
		      "%s: the timer's map compared (%u), or left for another reason (%u: %s)",
		      name, res.timer_maps_compared, res.maps_left, res.maps_left_why);
	kdiff_result__free(&res);
}

int main(void)
{
	char why[256];

	if (!kernel_available(why, sizeof(why)))
		return check_skip("test_kdiff_timer_deadline", "%s", why);
	expect("an hour ahead, read at 900 ms", TIMER_AHEAD(HOUR), 2, 900, true);
	expect("an hour ahead, read 200 ms before", TIMER_AHEAD(HOUR), 2, 3599800, false);
	expect("an hour ahead, read 201 ms before", TIMER_AHEAD(HOUR), 2, 3599799, true);
	expect("1 s ahead, read at 900 ms", TIMER_AHEAD(SECOND), 2, 900, false);
	expect("1 s ahead, read at 2 ms, the interpreter done at 5 s", TIMER_AHEAD(SECOND), 3,
	       5000, true);
	return check_done("test_kdiff_timer_deadline");
}
