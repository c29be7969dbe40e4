/* The kernel differential and bpf_timer_init's -ENOMEM (issue 15, mg21; kdiff.h).  The kernel
 * allocates a timer GFP_ATOMIC, charged to the map's memory cgroup: under memory pressure the
 * allocation fails now and then, the timer stays uninitialized, bpf_timer_set_callback and
 * bpf_timer_start on it give -EINVAL.  Seen as seed 2006's flaky program 667 (r0 short by 22 in
 * 5 of 100 kernel --diff runs at load 10; the same with init's own result kept: -ENOMEM, 4 of
 * 400), which a replay never showed.  The differential now tries the interpreter's runs with
 * init calls failing so when the kernel's r0 is not the run's.
 *
 * The failure cannot be made to happen on purpose, so the kernel's r0 is forged (kdiff_opts.
 * forge_retval) with what the kernel itself returns for the same program whose init fails for
 * another reason (a clock id it refuses, -EINVAL: the timer uninitialized all the same), its
 * result set_callback's and start's r0 only:
 *  - the program as it is: compared, agrees, no init failing;
 *  - its kernel r0 forged to the refused-clock program's kernel r0: agrees with the run whose
 *    first init fails with -ENOMEM (fails without the change: r0 differs);
 *  - forged to a value no outcome gives: r0 differs, reported;
 *  - a program whose r0 does not tell, whose callback (due at once) writes 1 into its value:
 *    the kernel's map forged (kdiff_opts.forge_kmap) as if the callback had not run agrees with
 *    the run whose init fails (fails without the change: the map differs); forged to 2, the
 *    map differs, reported;
 *  - two timers, r0 telling of the second's init, the map of the first's: both forged as if
 *    both inits had failed agree with the run in which both fail.
 * The first program's timer is started 2 s ahead (a callback that writes nothing), so its map is compared and
 * nothing fires before the kernel's maps are read.  Without bpf() the test skips.
 */
#include <string.h>

#include "casefile/casefile.h"
#include "oracle/kernel/kdiff.h"
#include "oracle/kernel/kernel.h"
#include "tests/check.h"
#include "tests/kdiff_case.h"

/* r0 = start's r0 & 0xff | (set_callback's r0 & 0xff) << 8; clock CLK */
#define TIMER_PROG(CLK)                                                                         \
	"-- asm\n"                                                                              \
	"r2 = 0\n*(u32 *)(r10 -4) = r2\nr1 = map[fd:0] ll\nr2 = r10\nr2 += -4\n"                \
	"call bpf_map_lookup_elem\nif r0 == 0 goto out\nr6 = r0\n"                              \
	"r1 = r6\nr1 += 8\nr2 = map[fd:0] ll\nr3 = " CLK "\ncall bpf_timer_init\n"              \
	"r1 = r6\nr1 += 8\nr2 = func cb ll\ncall bpf_timer_set_callback\nr7 = r0\n"             \
	"r1 = r6\nr1 += 8\nr2 = 2000000000 ll\nr3 = 0\ncall bpf_timer_start\n"                  \
	"r0 &= 0xff\nr7 &= 0xff\nr7 <<= 8\nr0 |= r7\nexit\n"                                    \
	"out: r0 = 0\nexit\ncb: r0 = 0\nexit\n"                                                 \
	"-- type\nxdp\n-- maps\narray key=4 value=32 entries=1 timer=8 name=t\n"

/* r0 = 0 whatever the timer; its callback, due at once, writes 1 into the value's first 8
 * bytes: only the map tells whether it ran */
#define TIMER_WRITES                                                                            \
	"-- asm\n"                                                                              \
	"r2 = 0\n*(u32 *)(r10 -4) = r2\nr1 = map[fd:0] ll\nr2 = r10\nr2 += -4\n"                \
	"call bpf_map_lookup_elem\nif r0 == 0 goto out\nr6 = r0\n"                              \
	"r1 = r6\nr1 += 8\nr2 = map[fd:0] ll\nr3 = 1\ncall bpf_timer_init\n"                    \
	"r1 = r6\nr1 += 8\nr2 = func cb ll\ncall bpf_timer_set_callback\n"                       \
	"r1 = r6\nr1 += 8\nr2 = 0\nr3 = 0\ncall bpf_timer_start\n"                              \
	"out: r0 = 0\nexit\ncb: r1 = 1\n*(u64 *)(r3 +0) = r1\nr0 = 0\nexit\n"                   \
	"-- type\nxdp\n-- maps\narray key=4 value=32 entries=1 timer=8 name=t\n"

/* Two timers of one map: element 0's callback, due at once, writes 1 into its value (only the
 * map tells); element 1's is TIMER_PROG's, its start's and set_callback's r0 the result */
#define TWO_TIMERS                                                                              \
	"-- asm\n"                                                                              \
	"r2 = 0\n*(u32 *)(r10 -4) = r2\nr1 = map[fd:0] ll\nr2 = r10\nr2 += -4\n"                \
	"call bpf_map_lookup_elem\nif r0 == 0 goto out\nr6 = r0\n"                              \
	"r1 = r6\nr1 += 8\nr2 = map[fd:0] ll\nr3 = 1\ncall bpf_timer_init\n"                    \
	"r1 = r6\nr1 += 8\nr2 = func cbw ll\ncall bpf_timer_set_callback\n"                      \
	"r1 = r6\nr1 += 8\nr2 = 0\nr3 = 0\ncall bpf_timer_start\n"                              \
	"r2 = 1\n*(u32 *)(r10 -4) = r2\nr1 = map[fd:0] ll\nr2 = r10\nr2 += -4\n"                \
	"call bpf_map_lookup_elem\nif r0 == 0 goto out\nr6 = r0\n"                              \
	"r1 = r6\nr1 += 8\nr2 = map[fd:0] ll\nr3 = 1\ncall bpf_timer_init\n"                    \
	"r1 = r6\nr1 += 8\nr2 = func cb ll\ncall bpf_timer_set_callback\nr7 = r0\n"             \
	"r1 = r6\nr1 += 8\nr2 = 2000000000 ll\nr3 = 0\ncall bpf_timer_start\n"                  \
	"r0 &= 0xff\nr7 &= 0xff\nr7 <<= 8\nr0 |= r7\nexit\n"                                    \
	"out: r0 = 0\nexit\ncb: r0 = 0\nexit\ncbw: r1 = 1\n*(u64 *)(r3 +0) = r1\nr0 = 0\nexit\n" \
	"-- type\nxdp\n-- maps\narray key=4 value=32 entries=2 timer=8 name=t\n"

static uint32_t forged_r0;
static uint8_t forged_byte;

/* the kernel's value as if the callback had not run (forged_byte 0) or had written another
 * number */
static void forge_kmap(void *arg, uint32_t map, uint8_t *values, size_t len)
{
	(void)arg;
	if (map == 0 && len >= 8) {
		memset(values, 0, 8);
		values[0] = forged_byte;
	}
}

static void forge(void *arg, uint32_t *retval)
{
	(void)arg;
	*retval = forged_r0;
}

static bool run(const char *name, const char *text, int forge_it, struct kdiff_result *res)
{
	uint8_t pkt[64] = { 0 };
	struct kdiff_opts ko = { .sz = sizeof(ko), .input = pkt, .input_len = sizeof(pkt),
				 .check_runs = 4 };

	if (forge_it & 1)
		ko.forge_retval = forge;
	if (forge_it & 2)
		ko.forge_kmap = forge_kmap;
	if (!kdiff_case(res, name, text, &ko))
		return false;
	CHECK(res->accepted && res->ran && !res->nondeterministic, "%s: accepted %d, ran %d, "
	      "compared %d: %s", name, res->accepted, res->ran, !res->nondeterministic,
	      res->accepted ? res->text : res->message);
	return true;
}

int main(void)
{
	char why[256];
	struct kdiff_result res;
	uint32_t refused = 0;

	if (!kernel_available(why, sizeof(why)))
		return check_skip("test_kdiff_timer_nomem", "%s", why);
	/* the kernel's r0 when the timer is not initialized (a clock id it refuses) */
	if (run("refused clock", TIMER_PROG("2"), 0, &res)) {
		refused = res.kernel_retval;
		CHECK(res.kind == KDIFF_AGREE && refused == 0xeaea && !res.timer_nomem,
		      "refused clock: %s: %s (kernel r0 %#x)", kdiff_kind_name(res.kind), res.text,
		      refused);
		kdiff_result__free(&res);
	}
	if (run("timer", TIMER_PROG("1"), 0, &res)) {
		CHECK(res.kind == KDIFF_AGREE && res.kernel_retval == 0 && !res.timer_nomem &&
			      res.maps_compared == 1,
		      "timer: %s: %s (kernel r0 %#x)", kdiff_kind_name(res.kind), res.text,
		      res.kernel_retval);
		kdiff_result__free(&res);
	}
	forged_r0 = refused;
	if (refused && run("timer, init out of memory", TIMER_PROG("1"), 1, &res)) {
		CHECK(res.kind == KDIFF_AGREE && res.timer_nomem == 1 &&
			      strstr(res.text, "ran out of memory"),
		      "init out of memory: %s: %s (init calls failing %#llx)",
		      kdiff_kind_name(res.kind), res.text, (unsigned long long)res.timer_nomem);
		kdiff_result__free(&res);
	}
	forged_r0 = refused ^ 1;
	if (refused && run("timer, r0 no outcome gives", TIMER_PROG("1"), 1, &res)) {
		CHECK(res.kind == KDIFF_RETVAL && !res.timer_nomem, "r0 no outcome gives: %s: %s",
		      kdiff_kind_name(res.kind), res.text);
		kdiff_result__free(&res);
	}
	/* the maps alone: the callback's write seen (as it is), not seen (forged: the init ran
	 * out of memory), or another number (forged: no outcome gives it) */
	if (run("timer writes", TIMER_WRITES, 0, &res)) {
		CHECK(res.kind == KDIFF_AGREE && res.maps_compared == 1 && !res.timer_nomem,
		      "timer writes: %s: %s", kdiff_kind_name(res.kind), res.text);
		kdiff_result__free(&res);
	}
	forged_byte = 0;
	if (run("timer writes, callback not seen", TIMER_WRITES, 2, &res)) {
		CHECK(res.kind == KDIFF_AGREE && res.timer_nomem == 1 && res.maps_compared == 1,
		      "timer writes, init out of memory: %s: %s", kdiff_kind_name(res.kind),
		      res.text);
		kdiff_result__free(&res);
	}
	forged_byte = 2;
	if (run("timer writes, another number", TIMER_WRITES, 2, &res)) {
		CHECK(res.kind == KDIFF_MAP && !res.timer_nomem, "timer writes, another number: "
		      "%s: %s", kdiff_kind_name(res.kind), res.text);
		kdiff_result__free(&res);
	}
	/* both: r0 tells of element 1's init, the map of element 0's (r0 alone picks the run
	 * with the last init failing; the maps need both: fails when the maps' try is made only
	 * when r0 picked none) */
	if (refused && run("two timers", TWO_TIMERS, 0, &res)) {
		CHECK(res.kind == KDIFF_AGREE && !res.timer_nomem && res.kernel_retval == 0,
		      "two timers: %s: %s", kdiff_kind_name(res.kind), res.text);
		kdiff_result__free(&res);
	}
	forged_r0 = refused;
	forged_byte = 0;
	if (refused && run("two timers, both out of memory", TWO_TIMERS, 3, &res)) {
		CHECK(res.kind == KDIFF_AGREE && res.timer_nomem == 3 && res.maps_compared == 1,
		      "two timers, both out of memory: %s: %s (init calls failing %#llx)",
		      kdiff_kind_name(res.kind), res.text, (unsigned long long)res.timer_nomem);
		kdiff_result__free(&res);
	}
	printf("test_kdiff_timer_nomem: a kernel whose bpf_timer_init ran out of memory agrees "
	       "with the run whose init fails so (kernel r0 %#x)\n", refused);
	return check_done("test_kdiff_timer_nomem");
}
