/* The kernel differential on what a run leaves in its maps (issue 15): a raw tracepoint
 * has no packet and a read-only context, so before this its test runs were compared on r0
 * alone.  kdiff_run now reads each plain array map the program references from the kernel
 * before and after every test run, starts the interpreter's run from the "before" values and
 * compares its values afterwards with the kernel's (oracle/kernel/kdiff.h).  Checked here
 * against the running kernel:
 *  - a raw tracepoint that writes an argument and an atomic sum into a map and returns 0: the
 *    maps are compared and agree; with a byte of the interpreter's values flipped after its run
 *    (kdiff_opts.forge_map) the difference is reported as KDIFF_MAP with the map, element and
 *    byte, r0 being the same on both sides;
 *  - a raw tracepoint whose bpf_find_vma callback adds 1 to a map cell: kdiff runs it twice on
 *    one loaded program (the second time with addresses, so that the callback runs); the
 *    second comparison starts from what the first left in the kernel's map and agrees under
 *    the outcome "found" (a run whose helper found the mmap lock taken, -EBUSY, asked again);
 *  - an XDP program's map is compared the same way;
 *  - a program that arms a timer: its maps compared after the kernel fired the timers armed to
 *    expire at once (read again until they agree, 300 ms at most) and before one armed 1 s
 *    ahead can, the interpreter firing the same ones (interp_env.timer_horizon); the struct
 *    bpf_timer's own bytes not compared (a forged one is no difference, a forged byte next to
 *    it or in the map the callback writes is); left out, counted, when a cancel races the
 *    timer or a timer is armed between 1 ms and 1 s ahead (issue 15); what the kernel's
 *    timers did by the time the maps were read depends on its softirq and on this process
 *    being run (load): a run that is not the one wanted is asked again, up to 4 times;
 *  - a map written from bpf_get_prandom_u32: compared, the interpreter replaying the kernel's
 *    logged results (record and replay), a forged byte reported; one written by
 *    bpf_get_current_comm (bytes the log does not hold) has no map compared;
 *  - hash maps (HASH, LRU_HASH, PERCPU_HASH, LRU_PERCPU_HASH) compared as sets of key -> value:
 *    a raw tracepoint's update, lookup and delete agree, a forged byte is reported with its key;
 *    the second run of a find_vma program starts from the element the first left in the
 *    kernel's map; an LRU map updated too close to full to rule out an eviction is left out,
 *    counted with its reason;
 *  - per-CPU maps: every CPU's copy compared, the interpreter run on the CPU the kernel's run
 *    was pinned to (bpf_map_lookup_percpu_elem writing other CPUs' copies, the smp id).
 * Without bpf() the test skips; without the kernel's BTF, its bpf_find_vma programs (one line).
 */
#define _GNU_SOURCE /* sched_setaffinity */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/isa.h"
#include "casefile/casefile.h"
#include "oracle/kernel/kdiff.h"
#include "oracle/kernel/kernel.h"
#include "tests/check.h"

/* r2 = &key, key (a number) stored at fp-4 through r1; r1 = map fd (its index) */
#define KEY(fd, key) "r1 = " #key "\n*(u32 *)(r10 -4) = r1\nr1 = map[fd:" #fd "] ll\n"		\
	"r2 = r10\nr2 += -4\n"
/* r0 = map fd's element of key, to miss when there is none */
#define LOOKUP(fd, key, miss) KEY(fd, key) "call bpf_map_lookup_elem\nif r0 == 0 goto " #miss "\n"

/* map 0's element of key (the first argument's low u32) = the second argument (an update) */
#define ARG_UPDATE "r1 = *(u64 *)(r6 +0)\n*(u32 *)(r10 -4) = r1\nr1 = *(u64 *)(r6 +8)\n"	\
	"*(u64 *)(r10 -16) = r1\nr1 = map[fd:0] ll\nr2 = r10\nr2 += -4\nr3 = r10\nr3 += -16\n"	\
	"r4 = 0\ncall bpf_map_update_elem\n"

/* element 1 bytes [8, 16) = the first argument, element 0 += 7 (atomic) and its byte 3 = 0x5a;
 * r0 = 0 whatever the map holds */
#define WRITES                                                                                  \
	"-- asm\n"                                                                              \
	"r6 = r1\n"                                                                             \
	LOOKUP(0, 1, out)                                                                       \
	"r1 = *(u64 *)(r6 +0)\n"                                                                \
	"*(u64 *)(r0 +8) = r1\n"                                                                \
	LOOKUP(0, 0, out)                                                                       \
	"r1 = 7\n"                                                                              \
	"lock *(u64 *)(r0 +0) += r1\n"                                                          \
	"r1 = 0x5a\n"                                                                           \
	"*(u8 *)(r0 +3) = r1\n"                                                                 \
	"out: r0 = 0\n"                                                                         \
	"exit\n"                                                                                \
	"-- type\nraw_tp\n"                                                                     \
	"-- maps\narray key=4 value=16 entries=4 name=m\n"

/* bpf_find_vma with r6's second u64 as the address; its callback adds 1 to the first u64 of
 * key 0 of map 0 (maps: the "-- maps" line of that map) */
#define VMA_CB(maps)                                                                            \
	"call bpf_get_current_task_btf\n"                                                       \
	"r1 = r0\n"                                                                             \
	"r2 = *(u64 *)(r6 +8)\n"                                                                \
	"r3 = func cb ll\n"                                                                     \
	"r4 = 0\n"                                                                              \
	"*(u64 *)(r10 -8) = r4\n"                                                               \
	"r4 = r10\n"                                                                            \
	"r4 += -8\n"                                                                            \
	"r5 = 0\n"                                                                              \
	"call bpf_find_vma\n"                                                                   \
	"exit\n"                                                                                \
	"cb: " LOOKUP(0, 0, done)                                                               \
	"r1 = *(u64 *)(r0 +0)\n"                                                                \
	"r1 += 1\n"                                                                             \
	"*(u64 *)(r0 +0) = r1\n"                                                                \
	"done: r0 = 0\n"                                                                        \
	"exit\n"                                                                                \
	"-- type\nraw_tp\n"                                                                     \
	"-- maps\n" maps

/* the bpf_find_vma callback adds 1 to element 0's first u64; r0 = the helper's result */
#define VMA_MAP                                                                                 \
	"-- asm\n"                                                                              \
	"r6 = r1\n"                                                                             \
	VMA_CB("array key=4 value=8 entries=1 name=cells\n")

/* XDP: element 2's first byte = the packet's length; r0 = XDP_PASS */
#define XDP_MAP                                                                                 \
	"-- asm\n"                                                                              \
	"r6 = r1\n"                                                                             \
	LOOKUP(0, 2, out)                                                                       \
	"r1 = *(u32 *)(r6 +4)\n"                                                                \
	"r2 = *(u32 *)(r6 +0)\n"                                                                \
	"r1 -= r2\n"                                                                            \
	"*(u8 *)(r0 +0) = r1\n"                                                                 \
	"out: r0 = 2\n"                                                                         \
	"exit\n"                                                                                \
	"-- type\nxdp\n"                                                                        \
	"-- maps\narray key=4 value=4 entries=3 name=lens\n"

/* Element 1 of map 0 (24 bytes: a struct bpf_timer, then a u64 at 16) arms its timer DELAY ns
 * ahead (then CANCEL); the callback adds its key plus 40 to the u64 and writes 9 to map 1. */
#define TIMER_ARM(DELAY, CANCEL)                                                                \
	"-- asm\n"                                                                              \
	LOOKUP(0, 1, out)                                                                       \
	"r6 = r0\n"                                                                             \
	"r1 = r6\n"                                                                             \
	"r2 = map[fd:0] ll\n"                                                                   \
	"r3 = 1\n"                                                                              \
	"call bpf_timer_init\n"                                                                 \
	"r1 = r6\n"                                                                             \
	"r2 = func cb ll\n"                                                                     \
	"call bpf_timer_set_callback\n"                                                         \
	"r1 = r6\n"                                                                             \
	"r2 = " DELAY "\n"                                                                      \
	"r3 = 0\n"                                                                              \
	"call bpf_timer_start\n"                                                                \
	CANCEL                                                                                  \
	"out: r0 = 0\n"                                                                         \
	"exit\n"                                                                                \
	"cb: r6 = r3\n"                                                                         \
	"r7 = *(u32 *)(r2 +0)\n"                                                                \
	"r1 = *(u64 *)(r6 +16)\n"                                                               \
	"r1 += r7\n"                                                                            \
	"r1 += 40\n"                                                                            \
	"*(u64 *)(r6 +16) = r1\n"                                                               \
	LOOKUP(1, 0, done)                                                                      \
	"r1 = 9\n"                                                                              \
	"*(u64 *)(r0 +0) = r1\n"                                                                \
	"done: r0 = 0\n"                                                                        \
	"exit\n"                                                                                \
	"-- type\nxdp\n"                                                                        \
	"-- maps\narray key=4 value=24 entries=2 name=t timer=0\n"                              \
	"array key=4 value=8 entries=1 name=w\n"
#define TIMER_CANCEL "r1 = r6\ncall bpf_timer_cancel\n"

/* element 0 of map 0 gets the stack pointer, the context pointer and 5 (a privileged program
 * may store pointers in a map: exposeptr.o) */
#define PTR_STORE                                                                               \
	"-- asm\n"                                                                              \
	"r6 = r1\n"                                                                             \
	LOOKUP(0, 0, out)                                                                       \
	"*(u64 *)(r0 +0) = r10\n"                                                               \
	"*(u64 *)(r0 +8) = r6\n"                                                                \
	"r1 = 5\n"                                                                              \
	"*(u64 *)(r0 +16) = r1\n"                                                               \
	"out: r0 = 0\n"                                                                         \
	"exit\n"                                                                                \
	"-- type\nxdp\n"                                                                        \
	"-- maps\narray key=4 value=24 entries=2 name=p\n"

/* the map written from bpf_get_prandom_u32: compared, the recording program's run replayed
 * (kdiff.h: record and replay) */
#define PRANDOM_MAP                                                                             \
	"-- asm\n"                                                                              \
	LOOKUP(0, 0, out)                                                                       \
	"r6 = r0\n"                                                                             \
	"call bpf_get_prandom_u32\n"                                                            \
	"*(u32 *)(r6 +0) = r0\n"                                                                \
	"out: r0 = 0\n"                                                                         \
	"exit\n"                                                                                \
	"-- type\nraw_tp\n"                                                                     \
	"-- maps\narray key=4 value=4 entries=1 name=r\n"

/* the map written by bpf_get_current_comm (bytes the helper writes, which the interpreter
 * draws and the log does not hold): not compared */
#define COMM_MAP                                                                                \
	"-- asm\n"                                                                              \
	LOOKUP(0, 0, out)                                                                       \
	"r1 = r0\n"                                                                             \
	"r2 = 16\n"                                                                             \
	"call bpf_get_current_comm\n"                                                           \
	"out: r0 = 0\n"                                                                         \
	"exit\n"                                                                                \
	"-- type\nraw_tp\n"                                                                     \
	"-- maps\narray key=4 value=16 entries=1 name=c\n"

/* a hash map keyed by the first argument's low u32 gets the second argument as its value (an
 * update); the element of key 7 gets 1 added when present, key 9 is deleted; r0 = 0.  Run as a
 * hash, an LRU hash and a per-CPU hash map (struct want.type). */
#define HASH_MAP                                                                                \
	"-- asm\n"                                                                              \
	"r6 = r1\n" ARG_UPDATE                                                                  \
	LOOKUP(0, 7, del)                                                                       \
	"r1 = *(u64 *)(r0 +0)\n"                                                                \
	"r1 += 1\n"                                                                             \
	"*(u64 *)(r0 +0) = r1\n"                                                                \
	"del: " KEY(0, 9)                                                                       \
	"call bpf_map_delete_elem\n"                                                            \
	"r0 = 0\n"                                                                              \
	"exit\n"                                                                                \
	"-- type\nraw_tp\n"                                                                     \
	"-- maps\nhash key=4 value=8 entries=16 name=h\n"

/* main puts (the first argument's low u32 -> the second argument) in a hash map, and the
 * bpf_find_vma callback adds 1 to the value of key 0 when present.  kdiff runs it twice on one
 * loaded program: the first run (argument 0 is 0, no vma found) makes key 0; the second (every
 * argument an address) finds the vma, and its callback adds 1 to the key 0 the first run left
 * in the kernel's map: the interpreter agrees only when it starts from the kernel's elements. */
#define VMA_HASH                                                                                \
	"-- asm\n"                                                                              \
	"r6 = r1\n" ARG_UPDATE                                                                  \
	VMA_CB("hash key=4 value=8 entries=16 name=hv\n")

struct forge {
	uint32_t map;
	size_t at;
	unsigned calls;
};

/* flips one byte of the interpreter's values of one map after its run */
static void flip(void *arg, uint32_t map, uint8_t *values, size_t len)
{
	struct forge *f = arg;

	if (map != f->map || f->at >= len)
		return;
	values[f->at] ^= 0x40;
	f->calls++;
}

static struct casefile *open_case(const char *name, const char *text)
{
	struct casefile *cf = NULL;
	struct diag d;

	diag_clear(&d);
	CHECK(casefile__open_mem(&cf, text, strlen(text), name, &d) == 0, "%s: %s (line %d)", name,
	      d.msg, d.line);
	return cf;
}

/* What one kdiff_run must give. */
struct want {
	enum kdiff_kind kind;
	int maps;		/* maps compared (-1: any) */
	const char *has[2];	/* words of the text */
	bool vma;		/* a bpf_find_vma program: its outcome is ... */
	int outcome;
	/* map 0's type and max_entries instead of the case's (0: the case's) */
	uint32_t type, entries;
	/* hash and per-CPU maps compared, maps left out (any < 0: not checked) */
	int hash, percpu, left;
	/* the first differing byte the text names lies in [byte_lo, byte_hi] (byte_hi 0: any) */
	int byte_lo, byte_hi;
	/* a program that arms timers: what the kernel's timers did by the time its maps were read
	 * depends on how soon its softirq ran them and this process read them (300 ms; 200 ms
	 * before a timer left armed expires: kdiff.h), which load can push past: a run that is
	 * not what w wants is asked again */
	bool timing;
};

/* Runs a case may take: timing-decided ones asked again (want.timing), and bpf_find_vma ones
 * whose helper found this process's mmap lock taken by another task (-EBUSY, outcome 2, or 0
 * where -ENOENT gives the same: the kernel's khugepaged or another thread's mmap may hold it;
 * rare, and no fault of either side). */
#define ATTEMPTS 4

/* Whether res is what w wants in kind, maps compared, words and counts (the checks of expect
 * say what differs). */
static bool as_wanted(const struct kdiff_result *res, const struct want *w)
{
	for (int k = 0; k < 2; k++)
		if (w->has[k] && !strstr(res->text, w->has[k]))
			return false;
	return res->kind == w->kind && (w->maps < 0 || res->maps_compared == (uint32_t)w->maps) &&
	       (w->hash < 0 || w->percpu < 0 || w->left < 0 ||
		(res->hash_maps_compared == (uint32_t)w->hash &&
		 res->percpu_maps_compared == (uint32_t)w->percpu &&
		 res->maps_left == (uint32_t)w->left)) &&
	       (!w->vma || res->vma_outcome == w->outcome);
}

/* kdiff_run on text with input (NULL: 64 zeros), the interpreter's values forged by fg when
 * given, checked against w: a difference (KDIFF_MAP) must come with r0 the same on both sides
 * and the forge called, an agreement with the maps the same, a program whose maps are not
 * compared (w->maps 0) with the forge never called. */
static void expect(const char *name, const char *text, const uint8_t *input, size_t len,
		   struct forge *fg, const struct want *w)
{
	struct casefile *cf = open_case(name, text);
	struct kdiff_opts ko = { .sz = sizeof(ko), .input = input, .input_len = len };
	struct kdiff_result res;
	struct diag d;
	int err;

	if (!cf)
		return;
	if (fg) {
		ko.forge_map = flip;
		ko.forge_arg = fg;
	}
	if (w->type)
		cf->obj->maps[0].type = w->type;
	if (w->entries)
		cf->obj->maps[0].max_entries = w->entries;
	for (int attempt = 1;; attempt++) {
		diag_clear(&d);
		err = kdiff_run(&res, cf->obj, &cf->obj->progs[0], &ko, &d);
		if (err || attempt == ATTEMPTS || as_wanted(&res, w) ||
		    !(w->timing || (w->vma && (res.vma_outcome == 2 || res.vma_outcome == 0))))
			break;
		printf("%s: run %d asked again (%s): %s: %s\n", name, attempt,
		       w->timing ? "a timer's timing" : "bpf_find_vma: -EBUSY",
		       kdiff_kind_name(res.kind), res.text);
		kdiff_result__free(&res);
	}
	CHECK(err == 0, "%s: kdiff: %s", name, d.msg);
	casefile__free(cf);
	if (err)
		return;
	CHECK(res.accepted && res.ran, "%s: %s (%s)", name,
	      res.accepted ? "the kernel did not run it" : "the kernel refused it", res.message);
	CHECK(res.kind == w->kind, "%s: %s: %s, expected %s", name, kdiff_kind_name(res.kind),
	      res.text, kdiff_kind_name(w->kind));
	if (w->maps >= 0)
		CHECK(res.maps_compared == (uint32_t)w->maps, "%s: %u maps compared, expected %d",
		      name, res.maps_compared, w->maps);
	for (int k = 0; k < 2; k++)
		if (w->has[k])
			CHECK(strstr(res.text, w->has[k]), "%s: '%s' not in: %s", name, w->has[k],
			      res.text);
	if (w->hash >= 0 && w->percpu >= 0 && w->left >= 0)
		CHECK(res.hash_maps_compared == (uint32_t)w->hash &&
		      res.percpu_maps_compared == (uint32_t)w->percpu &&
		      res.maps_left == (uint32_t)w->left, "%s: %u hash, %u per-CPU maps compared, "
		      "%u left out (%s); expected %d, %d, %d", name, res.hash_maps_compared,
		      res.percpu_maps_compared, res.maps_left, res.maps_left_why, w->hash,
		      w->percpu, w->left);
	if (w->vma)
		CHECK(res.vma_outcome == w->outcome, "%s: outcome %d, expected %d", name,
		      res.vma_outcome, w->outcome);
	if (w->byte_hi) {
		const char *b = strstr(res.text, ", byte ");
		int at = b ? atoi(b + strlen(", byte ")) : -1;

		CHECK(at >= w->byte_lo && at <= w->byte_hi, "%s: first byte %d named, expected "
		      "%d..%d: %s", name, at, w->byte_lo, w->byte_hi, res.text);
	}
	if (w->kind == KDIFF_MAP)
		CHECK(!res.same_maps && res.same_retval, "%s: same_maps %d, same r0 %d", name,
		      res.same_maps, res.same_retval);
	if (w->kind == KDIFF_AGREE)
		CHECK(res.same_maps, "%s: maps not the same", name);
	if (fg && w->maps == 0)
		CHECK_EQ_U64(fg->calls, 0, name);
	else if (fg)
		CHECK(fg->calls >= 1, "%s: the forge was not called", name);
	kdiff_result__free(&res);
}

static void writes(void)
{
	uint8_t args[16] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 };
	struct forge fg = { .map = 0, .at = 1 * 16 + 10 };	/* element 1, byte 10 */

	expect("writes", WRITES, args, sizeof(args), NULL,
	       &(struct want){ .kind = KDIFF_AGREE, .maps = 1, .has = { "maps agree" } });
	expect("writes, forged", WRITES, args, sizeof(args), &fg,
	       &(struct want){ .kind = KDIFF_MAP, .maps = 1,
			       .has = { "map 0 'm'", "element 1, byte 10: kernel 0x33, interpreter "
					"0x73" } });
	/* a byte the atomic add and the byte store made: element 0, byte 3 (0x5a in both) */
	fg = (struct forge){ .map = 0, .at = 3 };
	expect("writes, forged at 3", WRITES, args, sizeof(args), &fg,
	       &(struct want){ .kind = KDIFF_MAP, .maps = 1,
			       .has = { "element 0, byte 3: kernel 0x5a, interpreter 0x1a" } });
}

static void vma_map(void)
{
	uint64_t args[2] = { 0, (uint64_t)(uintptr_t)&args };
	struct forge fg = { .map = 0, .at = 0 };

	/* (the last compared run: every argument an address of this process, after the first run
	 * left element 0 as it was: -ENOENT on address 0) */
	expect("vma_map", VMA_MAP, (const uint8_t *)args, sizeof(args), NULL,
	       &(struct want){ .kind = KDIFF_AGREE, .maps = 1, .vma = true, .outcome = 1 });
	expect("vma_map, forged", VMA_MAP, (const uint8_t *)args, sizeof(args), &fg,
	       &(struct want){ .kind = KDIFF_MAP, .maps = -1, .has = { "map 0 'cells'" } });
}

static void xdp_map(void)
{
	uint8_t pkt[40] = { 0 };
	struct forge fg = { .map = 0, .at = 8 };

	expect("xdp_map", XDP_MAP, pkt, sizeof(pkt), NULL,
	       &(struct want){ .kind = KDIFF_AGREE, .maps = 1 });
	expect("xdp_map, forged", XDP_MAP, pkt, sizeof(pkt), &fg,
	       &(struct want){ .kind = KDIFF_MAP, .maps = -1,
			       .has = { "element 2, byte 0: kernel 0x28" } });
}

/* Programs that arm timers (kdiff.h): the maps compared after the timers expiring at once fired
 * and before one 1 s ahead can. */
static void timer_maps(void)
{
	uint8_t pkt[40] = { 0 };
	struct forge fg;

	expect("timer_now", TIMER_ARM("0", ""), pkt, sizeof(pkt), NULL,
	       &(struct want){ .timing = true, .kind = KDIFF_AGREE, .maps = 2,
			       .has = { "maps agree" }, .hash = 0, .percpu = 0, .left = 0 });
	/* (the callback's write to map 1, and to the value next to the timer, are compared) */
	fg = (struct forge){ .map = 1, .at = 0 };
	expect("timer_now, forged w", TIMER_ARM("0", ""), pkt, sizeof(pkt), &fg,
	       &(struct want){ .timing = true, .kind = KDIFF_MAP, .maps = 2,
			       .has = { "map 1 'w'", "element 0, byte 0: kernel 0x9, interpreter "
					"0x49" } });
	fg = (struct forge){ .map = 0, .at = 24 + 16 };
	expect("timer_now, forged value", TIMER_ARM("0", ""), pkt, sizeof(pkt), &fg,
	       &(struct want){ .timing = true, .kind = KDIFF_MAP, .maps = 2,
			       .has = { "map 0 't'", "element 1, byte 16: kernel 0x29, "
					"interpreter 0x69" } });
	/* (the struct bpf_timer's bytes are the kernel's own: a forged one is no difference) */
	fg = (struct forge){ .map = 0, .at = 24 + 3 };
	expect("timer_now, forged timer byte", TIMER_ARM("0", ""), pkt, sizeof(pkt), &fg,
	       &(struct want){ .timing = true, .kind = KDIFF_AGREE, .maps = 2,
			       .has = { "maps agree" } });
	/* 0.5 ms ahead: the kernel's callback runs after the first read, the maps are read again
	 * until it did */
	expect("timer_500us", TIMER_ARM("500000", ""), pkt, sizeof(pkt), NULL,
	       &(struct want){ .timing = true, .kind = KDIFF_AGREE, .maps = 2,
			       .has = { "maps agree" }, .hash = 0, .percpu = 0, .left = 0 });
	/* 1 s ahead: fired by neither before the maps are read (the interpreter's horizon) */
	expect("timer_1s", TIMER_ARM("1000000000", ""), pkt, sizeof(pkt), NULL,
	       &(struct want){ .timing = true, .kind = KDIFF_AGREE, .maps = 2,
			       .has = { "maps agree" }, .hash = 0, .percpu = 0, .left = 0 });
	fg = (struct forge){ .map = 1, .at = 0 };
	expect("timer_1s, forged w", TIMER_ARM("1000000000", ""), pkt, sizeof(pkt), &fg,
	       &(struct want){ .timing = true, .kind = KDIFF_MAP, .maps = 2,
			       .has = { "map 1 'w'", "kernel 0, interpreter 0x40" } });
	/* left out, counted: 100 ms ahead (may fire while the maps are read); a cancel of a
	 * timer armed to fire at once (it may have fired before) */
	expect("timer_100ms", TIMER_ARM("100000000", ""), pkt, sizeof(pkt), NULL,
	       &(struct want){ .kind = KDIFF_AGREE, .maps = 0,
			       .has = { "maps not compared: 2; 't': a timer left armed less than "
					"1 s ahead" }, .hash = 0, .percpu = 0, .left = 2 });
	expect("timer_cancel", TIMER_ARM("0", TIMER_CANCEL), pkt, sizeof(pkt), NULL,
	       &(struct want){ .kind = KDIFF_AGREE, .maps = 0,
			       .has = { "maps not compared: 2; 't': the kernel's timing decides" },
			       .hash = 0, .percpu = 0, .left = 2 });
}

/* Pointers stored in a map: the same kind of value on both sides, not the same address. */
static void ptr_slots(void)
{
	uint8_t pkt[40] = { 0 };
	struct forge fg;

	expect("ptr_store", PTR_STORE, pkt, sizeof(pkt), NULL,
	       &(struct want){ .kind = KDIFF_AGREE, .maps = 1,
			       .has = { "maps agree", "(2 slots a pointer on both sides)" } });
	/* (a pointer still: another address of the interpreter's stack region) */
	fg = (struct forge){ .map = 0, .at = 2 };
	expect("ptr_store, forged address", PTR_STORE, pkt, sizeof(pkt), &fg,
	       &(struct want){ .kind = KDIFF_AGREE, .maps = 1, .has = { "maps agree" } });
	/* (a number where the kernel holds a pointer: byte 6 set, no region's address; the
	 * first byte told apart is any of the slot's 8: the kernel's context address and the
	 * interpreter's may share their low bytes, one run in about 32 at byte 8) */
	fg = (struct forge){ .map = 0, .at = 8 + 6 };
	expect("ptr_store, forged number", PTR_STORE, pkt, sizeof(pkt), &fg,
	       &(struct want){ .kind = KDIFF_MAP, .maps = 1, .byte_lo = 8, .byte_hi = 15,
			       .has = { "map 0 'p'", "element 0, byte " } });
	fg = (struct forge){ .map = 0, .at = 16 };
	expect("ptr_store, forged scalar", PTR_STORE, pkt, sizeof(pkt), &fg,
	       &(struct want){ .kind = KDIFF_MAP, .maps = 1,
			       .has = { "element 0, byte 16: kernel 0x5, interpreter 0x45" } });
}

static void not_compared(const char *name, const char *text)
{
	struct forge fg = { .map = strstr(text, "name=w") ? 1 : 0, .at = 0 };

	expect(name, text, NULL, 0, &fg,
	       &(struct want){ .kind = KDIFF_AGREE, .maps = 0, .left = -1 });
}

/* A hash map, an LRU hash and a per-CPU hash written by one program: compared and agree; a
 * forged byte of the interpreter's element is reported with its key. */
static void hash_maps(void)
{
	uint64_t args[2] = { 3, 0x1122334455667788ull };
	static const uint32_t types[] = { BPF_MAP_TYPE_HASH, BPF_MAP_TYPE_LRU_HASH,
					  BPF_MAP_TYPE_PERCPU_HASH, BPF_MAP_TYPE_LRU_PERCPU_HASH };
	static const char *const names[] = { "hash", "lru_hash", "percpu_hash", "lru_percpu_hash" };

	for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		bool pc = types[t] == BPF_MAP_TYPE_PERCPU_HASH ||
			  types[t] == BPF_MAP_TYPE_LRU_PERCPU_HASH;
		struct forge fg = { .map = 0, .at = 2 };	/* slot 0, byte 2 */
		char name[64];

		/* (one update, on the empty map: no LRU eviction is possible) */
		snprintf(name, sizeof(name), "%s", names[t]);
		expect(name, HASH_MAP, (const uint8_t *)args, sizeof(args), NULL,
		       &(struct want){ .kind = KDIFF_AGREE, .maps = 1, .has = { "maps agree" },
				       .type = types[t], .hash = 1, .percpu = pc,
				       .left = 0 });
		snprintf(name, sizeof(name), "%s, forged", names[t]);
		expect(name, HASH_MAP, (const uint8_t *)args, sizeof(args), &fg,
		       &(struct want){ .kind = KDIFF_MAP, .maps = 1,
				       .has = { "map 0 'h'", "key 0x03000000, byte 2: kernel 0x66, "
						"interpreter 0x26" },
				       .type = types[t], .hash = 1, .percpu = pc,
				       .left = 0 });
	}
}

/* The second run of one loaded program starts from the elements the first left in the
 * kernel's hash map (VMA_HASH): agree.  As an LRU map of 1024 elements too; of 4 the second
 * run's update (at 1 element) could evict in the kernel, so that map is left out. */
static void hash_second_run(void)
{
	uint64_t args[2] = { 0, (uint64_t)(uintptr_t)&args };
	struct forge fg = { .map = 0, .at = 0 };

	expect("vma_hash", VMA_HASH, (const uint8_t *)args, sizeof(args), NULL,
	       &(struct want){ .kind = KDIFF_AGREE, .maps = 1, .vma = true, .outcome = 1, .hash = 1,
			       .percpu = 0, .left = 0 });
	expect("vma_hash, forged", VMA_HASH, (const uint8_t *)args, sizeof(args), &fg,
	       &(struct want){ .kind = KDIFF_MAP, .maps = -1, .has = { "map 0 'hv'" },
			       .hash = -1 });
	expect("vma_hash, lru 1024", VMA_HASH, (const uint8_t *)args, sizeof(args), NULL,
	       &(struct want){ .kind = KDIFF_AGREE, .maps = 1, .vma = true, .outcome = 1,
			       .type = BPF_MAP_TYPE_LRU_HASH, .entries = 1024, .hash = 1,
			       .percpu = 0, .left = 0 });
	expect("vma_hash, lru 4", VMA_HASH, (const uint8_t *)args, sizeof(args), NULL,
	       &(struct want){ .kind = KDIFF_AGREE, .maps = 0,
			       .has = { "maps not compared: 1; 'hv': an LRU map updated" },
			       .type = BPF_MAP_TYPE_LRU_HASH, .entries = 4,
			       .hash = 0, .percpu = 0, .left = 1 });
}

/* A per-CPU array written by a raw tracepoint: the run CPU's copies compared. */
static void percpu_array(void)
{
	uint8_t args[16] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 };
	struct forge fg = { .map = 0, .at = 1 * 16 + 10 };

	expect("percpu_array", WRITES, args, sizeof(args), NULL,
	       &(struct want){ .kind = KDIFF_AGREE, .maps = 1, .has = { "maps agree" },
			       .type = BPF_MAP_TYPE_PERCPU_ARRAY, .hash = 0,
			       .percpu = 1, .left = 0 });
	expect("percpu_array, forged", WRITES, args, sizeof(args), &fg,
	       &(struct want){ .kind = KDIFF_MAP, .maps = 1,
			       .has = { "element 1, byte 10: kernel 0x33, interpreter 0x73" },
			       .type = BPF_MAP_TYPE_PERCPU_ARRAY, .hash = 0,
			       .percpu = 1, .left = 0 });
}

/* bpf_map_lookup_percpu_elem (issue 15): key 1's copy of cpus 0..3 written ((cpu + 1) * 0x11;
 * NULL past the possible CPUs), then the running CPU's id (bpf_get_smp_processor_id) into its
 * own copy's second u64 and r0.  Every CPU's copy is compared, and the interpreter runs on the
 * CPU the kernel's run is pinned to: they agree.  (Before, the interpreter trapped on the helper;
 * a comparison of the run CPU's copy alone, the others only held unchanged, reports "CPU 1's copy
 * changed" here; a drawn smp id differs in r0.) */
#define PERCPU_OTHERS                                                                           \
	"-- type\nxdp\n-- maps\npercpu_array key=4 value=16 entries=2 name=pc\n-- asm\n"         \
	"r1 = 1\n*(u32 *)(r10 -4) = r1\nr6 = 0\n"                                                \
	"loop: r1 = map[fd:0] ll\nr2 = r10\nr2 += -4\nr3 = r6\ncall bpf_map_lookup_percpu_elem\n" \
	"if r0 == 0 goto next\nr1 = r6\nr1 += 1\nr1 *= 0x11\n*(u64 *)(r0 +0) = r1\n"            \
	"next: r6 += 1\nif r6 < 4 goto loop\n"                                                    \
	"call bpf_get_smp_processor_id\nr6 = r0\n"                                                \
	"r1 = map[fd:0] ll\nr2 = r10\nr2 += -4\ncall bpf_map_lookup_elem\n"                       \
	"if r0 == 0 goto out\n*(u64 *)(r0 +8) = r6\nout: r0 = r6\nexit\n"

static void percpu_others(void)
{
	cpu_set_t saved, last;
	int top = -1;

	expect("percpu_others", PERCPU_OTHERS, NULL, 0, NULL,
	       &(struct want){ .kind = KDIFF_AGREE, .maps = 1, .has = { "maps agree" },
			       .hash = 0, .percpu = 1, .left = 0 });
	/* again with this thread on its last CPU: the run pinned there, not to CPU 0 (the
	 * interpreter's default), so the smp id and the copy written as the running one differ
	 * from a run that was not told */
	if (!sched_getaffinity(0, sizeof(saved), &saved))
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &saved))
				top = c;
	if (top > 0) {
		CPU_ZERO(&last);
		CPU_SET(top, &last);
		CHECK(sched_setaffinity(0, sizeof(last), &last) == 0, "affinity");
		expect("percpu_others on the last CPU", PERCPU_OTHERS, NULL, 0, NULL,
		       &(struct want){ .kind = KDIFF_AGREE, .maps = 1, .has = { "maps agree" },
				       .hash = 0, .percpu = 1, .left = 0 });
		sched_setaffinity(0, sizeof(saved), &saved);
	} else {
		printf("percpu_others: one CPU, not run on another\n");
	}
	expect("percpu_others, percpu_hash", PERCPU_OTHERS, NULL, 0, NULL,
	       &(struct want){ .kind = KDIFF_AGREE, .maps = 1, .has = { "maps agree" },
			       .type = BPF_MAP_TYPE_PERCPU_HASH, .hash = 1, .percpu = 1,
			       .left = 0 });
}

int main(void)
{
	char why[256];
	bool vma;

	if (!kernel_available(why, sizeof(why)))
		return check_skip("test_kdiff_maps", "%s", why);
	/* (bpf_get_current_task_btf, which gives bpf_find_vma its task, needs the kernel's BTF) */
	vma = ebpf_kfunc_btf_available();
	if (!vma)
		check_skip_part("the bpf_find_vma programs: no vmlinux BTF");
	writes();
	if (vma)
		vma_map();
	xdp_map();
	timer_maps();
	ptr_slots();
	expect("prandom_map", PRANDOM_MAP, NULL, 0, NULL,
	       &(struct want){ .kind = KDIFF_AGREE, .maps = 1, .left = -1,
			       .has = { "helper results replayed" } });
	expect("prandom_map, forged", PRANDOM_MAP, NULL, 0, &(struct forge){ .map = 0, .at = 1 },
	       &(struct want){ .kind = KDIFF_MAP, .maps = 1, .left = -1,
			       .has = { "map 0 'r' after the run differs" } });
	not_compared("comm_map", COMM_MAP);
	hash_maps();
	if (vma)
		hash_second_run();
	percpu_array();
	percpu_others();
	printf("test_kdiff_maps: array, per-CPU array and (LRU, per-CPU) hash maps compared after "
	       "test runs; a forged byte reported as a map difference\n");
	return check_done("test_kdiff_maps");
}
