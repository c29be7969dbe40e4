/* The kernel oracle (oracle/kernel/kernel.c) and `bpfscev kernel` against the running kernel: verdicts and
 * their messages (infinite loop, too large, uninitialised register), the statistics parsed from the
 * log, log growth on ENOSPC and the truncated-log path, map creation with initial contents, test
 * runs with packets, programs compiled from tests/bpf against C models, and no fd left behind.
 * The skip path is exercised first with BPFSCEV_NO_KERNEL=1; without bpf() the test is reported
 * as skipped (exit 77, one line) unless those first checks failed.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf/prog.h"
#include "casefile/casefile.h"
#include "check.h"
#include "oracle/kernel/kdiff.h"
#include "oracle/kernel/kernel.h"
#include "triage/verdict.h"

#define I(c, d, s, o, i) { .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) }
#define MOV64_IMM(d, i) I(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define ADD64_IMM(d, i) I(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define EXIT I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

static size_t count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	size_t n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1;	/* the directory's own fd */
}

static struct ebpf_object *object(const struct bpf_insn *insns, size_t n, const char *name)
{
	struct ebpf_object *o = NULL;
	struct diag d;

	diag_clear(&d);
	CHECK(ebpf_object__from_insns(&o, insns, n, name, &d) == 0, "%s: %s", name, d.msg);
	return o;
}

/* Loads the object's first program; NULL (with a failed check) when the kernel was not asked. */
static struct kernel_prog *load(const struct ebpf_object *o, const struct kernel_prog_opts *ko,
				const char *what)
{
	struct kernel_prog *kp = NULL;
	struct diag d;

	if (!o)
		return NULL;
	diag_clear(&d);
	CHECK(kernel_prog__load(&kp, o, &o->progs[0], ko, &d) == 0, "%s: load error: %s", what,
	      d.msg);
	return kp;
}

static uint32_t run(const struct kernel_prog *kp, const void *pkt, size_t len, uint32_t repeat,
		    const char *what)
{
	struct kernel_run_opts ro = { .sz = sizeof(ro), .data_in = pkt, .data_size_in = len,
				      .repeat = repeat };
	struct kernel_run_result res;
	struct diag d;

	diag_clear(&d);
	if (!kp || !kp->accepted)
		return 0xdeadbeef;
	CHECK(kernel_prog__test_run(kp, &ro, &res, &d) == 0, "%s: test run: %s", what, d.msg);
	return res.retval;
}

/* r0 = 0; r1 = 0; l: r1 += 1; r0 += 3; if r1 < n goto l; exit: 3 insns per iteration. */
static struct ebpf_object *counted_loop(int32_t n)
{
	const struct bpf_insn p[] = {
		MOV64_IMM(0, 0), MOV64_IMM(1, 0), ADD64_IMM(1, 1), ADD64_IMM(0, 3),
		I(BPF_JMP | BPF_JLT | BPF_K, 1, 0, -3, n), EXIT,
	};

	return object(p, sizeof(p) / sizeof(p[0]), "counted_loop");
}

static bool contains(const char *s, const char *needle)
{
	return s && strstr(s, needle);
}

static void verdicts(void)
{
	const struct bpf_insn ok[] = { MOV64_IMM(0, 7), ADD64_IMM(0, 35), EXIT };
	/* r0 = 0; l: if r0 != 0 goto out; goto l; out: exit: the same state comes back at 1. */
	const struct bpf_insn inf[] = {
		MOV64_IMM(0, 0), I(BPF_JMP | BPF_JNE | BPF_K, 0, 0, 1, 0),
		I(BPF_JMP | BPF_JA, 0, 0, -2, 0), EXIT,
	};
	const struct bpf_insn uninit[] = { I(BPF_ALU64 | BPF_MOV | BPF_X, 0, 2, 0, 0), EXIT };
	struct kernel_prog_opts stats = { .sz = sizeof(stats), .log_level = 4 };
	struct kernel_prog_opts inv = { .sz = sizeof(inv), .prog_flags = BPF_F_TEST_REG_INVARIANTS };
	struct ebpf_object *o;
	struct kernel_prog *kp;

	o = object(ok, 3, "ok");
	if ((kp = load(o, NULL, "ok"))) {
		CHECK(kp->accepted && kp->fd >= 0 && kp->err == 0, "ok: not accepted: %s",
		      kp->message);
		CHECK_EQ_U64(kp->processed, 3, "ok: processed");
		CHECK_EQ_U64(kp->total_states, 0, "ok: total_states");
		CHECK(kp->verification_usec >= 0, "ok: no verification time");
		CHECK(kp->message[0] == '\0', "ok: message '%s'", kp->message);
		CHECK(contains(kp->log, "1: (07) r0 += 35") && contains(kp->log, "processed 3 insns"),
		      "ok: level-2 log lacks the instruction or statistics:\n%s", kp->log);
		CHECK_EQ_U64(kp->prog_type, BPF_PROG_TYPE_SOCKET_FILTER, "ok: UNSPEC loads as socket");
		CHECK_EQ_U64(run(kp, NULL, 0, 1, "ok"), 42, "ok: r0");
		CHECK_EQ_U64(run(kp, NULL, 0, 1000, "ok x1000"), 42, "ok: r0 with repeat");
	}
	kernel_prog__free(kp);
	if ((kp = load(o, &inv, "ok with BPF_F_TEST_REG_INVARIANTS")))
		CHECK(kp->accepted, "ok with invariants: %s", kp->message);
	kernel_prog__free(kp);
	ebpf_object__free(o);

	o = object(inf, 4, "inf");
	if ((kp = load(o, NULL, "infinite loop"))) {
		CHECK(!kp->accepted && kp->fd < 0, "infinite loop accepted");
		CHECK_EQ_U64(kp->err, EINVAL, "infinite loop errno");
		CHECK(contains(kp->message, "infinite loop detected at insn 1"), "infinite loop: '%s'",
		      kp->message);
		CHECK(kp->processed > 0, "infinite loop: processed %ld", kp->processed);
	}
	kernel_prog__free(kp);
	ebpf_object__free(o);

	o = object(uninit, 2, "uninit");
	if ((kp = load(o, NULL, "uninit"))) {
		CHECK(!kp->accepted, "uninitialised r2 accepted");
		CHECK_EQ_U64(kp->err, EACCES, "uninit errno");
		CHECK(contains(kp->message, "R2 !read_ok"), "uninit: '%s'", kp->message);
		CHECK(!kp->log_silent, "uninit: a refusal with a reason flagged log_silent");
	}
	kernel_prog__free(kp);
	ebpf_object__free(o);

	/* The 3-instruction body: 300000 iterations fit in 1M processed instructions, 350000 do
	 * not.  Statistics-only logs keep this fast. */
	o = counted_loop(300000);
	if ((kp = load(o, &stats, "loop 300000"))) {
		CHECK(kp->accepted, "loop 300000 rejected: %s", kp->message);
		CHECK_EQ_U64(kp->processed, 900003, "loop 300000: processed");
		CHECK_EQ_U64(run(kp, NULL, 0, 1, "loop 300000"), 900000, "loop 300000: r0");
	}
	kernel_prog__free(kp);
	ebpf_object__free(o);
	o = counted_loop(350000);
	if ((kp = load(o, &stats, "loop 350000"))) {
		CHECK(!kp->accepted, "loop 350000 accepted");
		CHECK_EQ_U64(kp->err, E2BIG, "loop 350000 errno");
		CHECK(contains(kp->message, "BPF program is too large"), "loop 350000: '%s'",
		      kp->message);
		CHECK_EQ_U64(kp->processed, 1000001, "loop 350000: processed");
	}
	kernel_prog__free(kp);
	ebpf_object__free(o);
}

/* The level-2 log of 2000 iterations (6003 instructions, about 5 MB with precision tracking)
 * outgrows a 1 MiB buffer: the load is repeated with larger buffers.  With a 16 KiB cap the tail
 * is kept and the verdict comes from a statistics-only load. */
static void log_sizes(void)
{
	struct kernel_prog_opts grow = { .sz = sizeof(grow), .log_size = 1 << 20 };
	struct kernel_prog_opts cap = { .sz = sizeof(cap), .log_size = 4096, .log_max = 16384 };
	struct ebpf_object *o = counted_loop(2000);
	struct kernel_prog *kp;

	if ((kp = load(o, &grow, "log growth"))) {
		CHECK(kp->accepted && !kp->log_truncated, "log growth: accepted %d truncated %d",
		      kp->accepted, kp->log_truncated);
		CHECK(kp->log_len > (1 << 20) && kp->log_len == strlen(kp->log),
		      "log growth: %zu bytes", kp->log_len);
		CHECK_EQ_U64(kp->processed, 6003, "log growth: processed");
		CHECK(contains(kp->log, "0: (b7) r0 = 0"), "log growth: the log lost its head");
	}
	kernel_prog__free(kp);
	if ((kp = load(o, &cap, "log cap"))) {
		CHECK(kp->accepted && kp->log_truncated, "log cap: accepted %d truncated %d",
		      kp->accepted, kp->log_truncated);
		CHECK(kp->log_len < 16384, "log cap: %zu bytes", kp->log_len);
		CHECK_EQ_U64(kp->processed, 6003, "log cap: processed (from the stats load)");
		CHECK(contains(kp->log, "processed 6003 insns"), "log cap: the tail is not kept");
		CHECK_EQ_U64(run(kp, NULL, 0, 1, "log cap"), 6000, "log cap: r0");
	}
	kernel_prog__free(kp);
	ebpf_object__free(o);
}

static void packets(void)
{
	/* socket filter: r0 = skb->len (the packet less its Ethernet header) */
	const struct bpf_insn len[] = { I(BPF_LDX | BPF_MEM | BPF_W, 0, 1, 0, 0), EXIT };
	/* XDP: the first byte of the packet, 0 when it is empty */
	const struct bpf_insn first[] = {
		I(BPF_LDX | BPF_MEM | BPF_W, 2, 1, 4, 0),	/* r2 = data_end */
		I(BPF_LDX | BPF_MEM | BPF_W, 1, 1, 0, 0),	/* r1 = data */
		I(BPF_ALU64 | BPF_MOV | BPF_X, 3, 1, 0, 0),
		ADD64_IMM(3, 1),
		MOV64_IMM(0, 0),
		I(BPF_JMP | BPF_JGT | BPF_X, 3, 2, 1, 0),	/* data + 1 > data_end: out */
		I(BPF_LDX | BPF_MEM | BPF_B, 0, 1, 0, 0),
		EXIT,
	};
	struct kernel_prog_opts xdp = { .sz = sizeof(xdp), .prog_type = BPF_PROG_TYPE_XDP };
	uint8_t pkt[100] = { 0xab, 1, 2, 3 }, out[4196];
	struct ebpf_object *o;
	struct kernel_prog *kp;

	o = object(len, 2, "len");
	if ((kp = load(o, NULL, "skb len"))) {
		CHECK_EQ_U64(run(kp, pkt, sizeof(pkt), 1, "skb len"), 86, "skb->len of 100 bytes");
		CHECK_EQ_U64(run(kp, NULL, 0, 1, "skb len default"), 50, "skb->len of the default");
	}
	kernel_prog__free(kp);
	ebpf_object__free(o);

	o = object(first, 8, "first");
	if ((kp = load(o, &xdp, "xdp first byte"))) {
		struct kernel_run_opts ro = { .sz = sizeof(ro), .data_in = pkt, .data_size_in = 77,
					      .data_out = out, .data_size_out = sizeof(out) };
		struct kernel_run_result res;
		struct diag d;

		CHECK(kp->accepted && kp->prog_type == BPF_PROG_TYPE_XDP, "xdp: %s", kp->message);
		diag_clear(&d);
		CHECK(kernel_prog__test_run(kp, &ro, &res, &d) == 0, "xdp run: %s", d.msg);
		CHECK_EQ_U64(res.retval, 0xab, "xdp: first byte");
		CHECK_EQ_U64(res.data_size_out, 77, "xdp: packet out");
		CHECK(memcmp(out, pkt, 77) == 0, "xdp: packet changed");
	}
	kernel_prog__free(kp);
	ebpf_object__free(o);
}

/* Maps: a frozen read-only global read through BPF_PSEUDO_MAP_VALUE, and a map the kernel cannot
 * create, which must fail the load cleanly. */
static void maps(void)
{
	const struct bpf_insn rd[] = {
		I(BPF_LD | BPF_IMM | BPF_DW, 1, BPF_PSEUDO_MAP_VALUE, 0, 0), I(0, 0, 0, 0, 8),
		I(BPF_LDX | BPF_MEM | BPF_W, 0, 1, 0, 0), EXIT,
	};
	const struct bpf_insn fd[] = {
		I(BPF_LD | BPF_IMM | BPF_DW, 1, BPF_PSEUDO_MAP_FD, 0, 0), I(0, 0, 0, 0, 0),
		MOV64_IMM(0, 0), EXIT,
	};
	static const uint8_t init[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 0x44, 0x33, 0x22, 0x11 };
	struct ebpf_object *o;
	struct kernel_prog *kp;
	struct diag d;

	o = object(rd, 4, "rodata");
	if (o) {
		o->maps = calloc(1, sizeof(*o->maps));
		o->map_cnt = 1;
		snprintf(o->maps[0].name, sizeof(o->maps[0].name), ".rodata");
		o->maps[0].type = BPF_MAP_TYPE_ARRAY;
		o->maps[0].key_size = 4;
		o->maps[0].value_size = sizeof(init);
		o->maps[0].max_entries = 1;
		o->maps[0].flags = BPF_F_RDONLY_PROG;
		o->maps[0].init = malloc(sizeof(init));
		memcpy(o->maps[0].init, init, sizeof(init));
		if ((kp = load(o, NULL, "rodata"))) {
			CHECK(kp->accepted, "rodata: %s", kp->message);
			/* frozen and read-only: the verifier knows the value */
			CHECK(contains(kp->log, "R0=0x11223344"), "rodata: value not known to the "
			      "verifier:\n%s", kp->log);
			CHECK_EQ_U64(run(kp, NULL, 0, 1, "rodata"), 0x11223344, "rodata: r0");
		}
		kernel_prog__free(kp);
		ebpf_object__free(o);
	}

	o = object(fd, 4, "badmap");
	if (o) {
		o->maps = calloc(1, sizeof(*o->maps));
		o->map_cnt = 1;
		snprintf(o->maps[0].name, sizeof(o->maps[0].name), "bogus");
		o->maps[0].type = 9999;
		o->maps[0].key_size = o->maps[0].value_size = o->maps[0].max_entries = 4;
		kp = NULL;
		diag_clear(&d);
		CHECK(kernel_prog__load(&kp, o, &o->progs[0], NULL, &d) < 0 && !kp,
		      "an uncreatable map did not fail the load");
		CHECK(contains(d.msg, "map 'bogus'") && contains(d.msg, "refuses to create"),
		      "bad map message: %s", d.msg);
		kernel_prog__free(kp);
		/* a map index the object does not have */
		o->map_cnt = 0;
		diag_clear(&d);
		CHECK(kernel_prog__load(&kp, o, &o->progs[0], NULL, &d) == -EINVAL && d.insn == 0,
		      "bad map index: %s", d.msg);
		o->map_cnt = 1;
		ebpf_object__free(o);
	}
}

/* A map whose value holds a struct bpf_timer ("timer=8"): created with the BTF that says so,
 * the kernel takes bpf_timer_init/set_callback/start on it and verifies the callback as an
 * async entry that must return 0; without it the map has no BTF and the kernel refuses; the
 * timer at another offset, a direct access to its bytes, another map for bpf_timer_init: each
 * refused with the kernel's reason.  The test run returns (the callback fires later, or never:
 * the map goes with the program). */
/* kdiff_run on o, asked again (up to 4 runs) while the kernel's r0 is not want:
 * bpf_timer_init allocates the timer GFP_ATOMIC, and under memory pressure the kernel's
 * allocation may fail (-ENOMEM; seen here twice in 35 runs on a loaded machine: r0 0xf4f4f4 and
 * 0xf4f400, the inits from some call on -ENOMEM).  kdiff then finds the interpreter's run with
 * those inits failing (kdiff_result.timer_nomem), but what these checks are about is the run
 * whose allocations succeeded.  0 or kdiff_run's error. */
static int timer_kdiff(struct kdiff_result *res, const struct ebpf_object *o, uint32_t want,
		       const char *name, struct diag *d)
{
	struct kdiff_opts ko = { .sz = sizeof(ko) };
	int err;

	for (int attempt = 1;; attempt++) {
		diag_clear(d);
		if ((err = kdiff_run(res, o, &o->progs[0], &ko, d)) || attempt == 4 ||
		    !res->ran || res->kernel_retval == want)
			return err;
		printf("%s: run %d: kernel r0 %#x (bpf_timer_init -ENOMEM?): asked again\n", name,
		       attempt, res->kernel_retval);
		kdiff_result__free(res);
	}
}

static void timers(void)
{
	static const char head[] =
		"-- asm\nr1 = map[fd:0] ll\n*(u32 *)(r10 -4) = 0\nr2 = r10\nr2 += -4\n"
		"call bpf_map_lookup_elem\nif r0 == 0 goto out\nr6 = r0\n%s"
		"r1 = r6\nr1 += %d\nr2 = map[fd:%d] ll\nr3 = 1\ncall bpf_timer_init\n"
		"r1 = r6\nr1 += 8\nr2 = func cb ll\ncall bpf_timer_set_callback\n"
		"r1 = r6\nr1 += 8\nr2 = 1000000\nr3 = 0\ncall bpf_timer_start\n"
		"out: r0 = 7\nexit\ncb: r0 = %d\nexit\n-- type\nxdp\n-- maps\n"
		"array key=4 value=32 entries=1%s\narray key=4 value=32 entries=1 timer=8\n";
	static const struct {
		const char *name, *pre, *timer, *msg;
		int off, map, ret;
	} t[] = {
		{ "timer", "", " timer=8", NULL, 8, 0, 0 },
		{ "timer_no_btf", "", "", "has to have BTF in order to use bpf_timer", 8, 0, 0 },
		{ "timer_cb_ret1", "", " timer=8", "At async callback return the register R0 has "
		  "smin=1 smax=1 should have been in [0, 0]", 8, 0, 1 },
		{ "timer_off", "", " timer=8", "off 0 doesn't point to 'struct bpf_timer' that is "
		  "at 8", 0, 0, 0 },
		{ "timer_store", "*(u64 *)(r0 +16) = 0\n", " timer=8", "bpf_timer cannot be "
		  "accessed directly by load/store", 8, 0, 0 },
		{ "timer_other_map", "", " timer=8", "doesn't match map pointer in R2", 8, 1, 0 },
	};

	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		struct ebpf_object *o = NULL;
		struct kernel_prog *kp;
		char text[2048];
		struct diag d;

		snprintf(text, sizeof(text), head, t[k].pre, t[k].off, t[k].map, t[k].ret,
			 t[k].timer);
		diag_clear(&d);
		CHECK(!casefile__open_object_mem(&o, text, strlen(text), t[k].name, &d), "%s: %s",
		      t[k].name, d.msg);
		if (!o)
			continue;
		CHECK(!strcmp(t[k].timer, "") ? !o->maps[0].timer : o->maps[0].timer == 9,
		      "%s: timer= read as %u", t[k].name, o->maps[0].timer);
		if ((kp = load(o, NULL, t[k].name))) {
			if (!t[k].msg) {
				CHECK(kp->accepted, "%s: %s", t[k].name, kp->message);
				if (kp->accepted)
					CHECK_EQ_U64(run(kp, NULL, 0, 1, t[k].name), 7, "timer: r0");
			} else {
				CHECK(!kp->accepted && contains(kp->message, t[k].msg),
				      "%s: accepted %d, '%s'", t[k].name, kp->accepted, kp->message);
			}
		}
		kernel_prog__free(kp);
		ebpf_object__free(o);
	}
	{
		/* The helpers' results, the kernel's and the interpreter's (oracle/exec/interp.c):
		 * init 0 then -EBUSY, a bad clock -EINVAL, start before the callback -EINVAL, start
		 * 0, cancel of a timer 1 ms ahead 1 (it was pending), again 0: bits 0-5 of r0. */
		static const char prog[] =
			"-- asm\nr1 = map[fd:0] ll\n*(u32 *)(r10 -4) = 0\nr2 = r10\nr2 += -4\n"
			"call bpf_map_lookup_elem\nr7 = 0\nif r0 == 0 goto out\nr6 = r0\nr6 += 8\n"
			"r1 = r6\nr2 = map[fd:0] ll\nr3 = 1\ncall bpf_timer_init\n"
			"if r0 != 0 goto +1\nr7 |= 1\n"
			"r1 = r6\nr2 = map[fd:0] ll\nr3 = 1\ncall bpf_timer_init\n"
			"if r0 != -16 goto +1\nr7 |= 2\n"
			"r1 = r6\nr2 = 1000000\nr3 = 0\ncall bpf_timer_start\n"
			"if r0 != -22 goto +1\nr7 |= 4\n"
			"r1 = r6\nr2 = func cb ll\ncall bpf_timer_set_callback\n"
			"r1 = r6\nr2 = 1000000\nr3 = 0\ncall bpf_timer_start\n"
			"if r0 != 0 goto +1\nr7 |= 8\n"
			"r1 = r6\ncall bpf_timer_cancel\nif r0 != 1 goto +1\nr7 |= 16\n"
			"r1 = r6\ncall bpf_timer_cancel\nif r0 != 0 goto +1\nr7 |= 32\n"
			"out: r0 = r7\nexit\ncb: r0 = 0\nexit\n-- type\nxdp\n-- maps\n"
			"array key=4 value=32 entries=1 timer=8\n";
		struct kdiff_result res;
		struct ebpf_object *o = NULL;
		struct diag d;

		diag_clear(&d);
		CHECK(!casefile__open_object_mem(&o, prog, strlen(prog), "timer_results", &d),
		      "timer_results: %s", d.msg);
		if (o && !timer_kdiff(&res, o, 63, "timer_results", &d)) {
			CHECK(res.ran && res.kernel_retval == 63 && res.interp_r0 == 63 &&
			      res.same_retval, "timer_results: kernel r0 %u, interpreter %llu (%s)",
			      res.kernel_retval, (unsigned long long)res.interp_r0,
			      kdiff_kind_name(res.kind));
			kdiff_result__free(&res);
		} else {
			CHECK(0, "timer_results: kdiff: %s", d.msg);
		}
		ebpf_object__free(o);
	}
	{
		/* bpf_map_update_elem of a whole value leaves the timer not initialized, whatever
		 * the value holds there (copy_map_value skips it, bpf_obj_free_fields frees the old
		 * one; a hash's new element has none): init 0, an update from 32 bytes of 0xff,
		 * init through the new lookup 0 (the interpreter copied the 0xff bytes and answered
		 * -EBUSY), then -EBUSY (an array: the same value); r0 = the three results' low
		 * bytes. */
		static const char upd[] =
			"-- asm\nr7 = 0\n*(u32 *)(r10 -4) = 0\nr1 = -1\n*(u64 *)(r10 -40) = r1\n"
			"*(u64 *)(r10 -32) = r1\n*(u64 *)(r10 -24) = r1\n*(u64 *)(r10 -16) = r1\n"
			"r1 = map[fd:0] ll\nr2 = r10\nr2 += -4\nr3 = r10\nr3 += -40\nr4 = 0\n"
			"call bpf_map_update_elem\n"
			"r1 = map[fd:0] ll\nr2 = r10\nr2 += -4\ncall bpf_map_lookup_elem\n"
			"if r0 == 0 goto out\nr1 = r0\nr1 += 8\nr2 = map[fd:0] ll\nr3 = 1\n"
			"call bpf_timer_init\nr7 = r0\nr7 &= 0xff\n"
			"r1 = map[fd:0] ll\nr2 = r10\nr2 += -4\nr3 = r10\nr3 += -40\nr4 = 0\n"
			"call bpf_map_update_elem\n"
			"r1 = map[fd:0] ll\nr2 = r10\nr2 += -4\ncall bpf_map_lookup_elem\n"
			"if r0 == 0 goto out\nr6 = r0\nr6 += 8\nr1 = r6\nr2 = map[fd:0] ll\n"
			"r3 = 1\ncall bpf_timer_init\nr0 &= 0xff\nr0 <<= 8\nr7 |= r0\n"
			"r1 = r6\nr2 = map[fd:0] ll\nr3 = 1\ncall bpf_timer_init\nr0 &= 0xff\n"
			"r0 <<= 16\nr7 |= r0\n"
			"out: r0 = r7\nexit\n-- type\nxdp\n-- maps\n%s key=4 value=32 entries=4 "
			"timer=8\n";
		static const char *const kinds[] = { "array", "hash" };

		for (int k = 0; k < 2; k++) {
			struct kdiff_result res;
			struct ebpf_object *o = NULL;
			char text[2048];
			struct diag d;

			snprintf(text, sizeof(text), upd, kinds[k]);
			diag_clear(&d);
			CHECK(!casefile__open_object_mem(&o, text, strlen(text), "timer_update", &d),
			      "timer_update: %s", d.msg);
			if (o && !timer_kdiff(&res, o, 0xf00000, "timer_update", &d)) {
				CHECK(res.ran && res.kernel_retval == 0xf00000 &&
				      res.interp_r0 == 0xf00000 && res.same_retval,
				      "timer_update (%s): kernel r0 0x%x, interpreter 0x%llx (%s)",
				      kinds[k], res.kernel_retval, (unsigned long long)res.interp_r0,
				      kdiff_kind_name(res.kind));
				kdiff_result__free(&res);
			} else {
				CHECK(0, "timer_update (%s): kdiff: %s", kinds[k], d.msg);
			}
			ebpf_object__free(o);
		}
	}
	{
		/* the offset must leave the struct's 16 bytes in the value, 8-aligned */
		static const char bad[] = "-- asm\nexit\n-- maps\narray key=4 value=16 entries=1 "
					  "timer=4\n";
		struct ebpf_object *o = NULL;
		struct diag d;

		diag_clear(&d);
		CHECK(casefile__open_object_mem(&o, bad, strlen(bad), "bad", &d) < 0 && !o &&
		      d.line == 4 && contains(d.msg, "timer=4"), "timer=4: '%s' line %d", d.msg,
		      d.line);
		ebpf_object__free(o);
	}
}

static uint32_t mix(uint32_t x)
{
	return (x << 3) ^ (x >> 5) ^ 0x9e37;
}

/* tests/bpf objects: compiled C, with calls and maps, against C models of the same code. */
static void compiled(void)
{
	const char *dir = getenv("BPFSCEV_TEST_BPF_DIR");
	static const uint32_t lens[] = { 0, 1, 50, 86, 1000 };
	struct ebpf_object *o;
	struct kernel_prog *kp;
	char path[1024];
	struct stat st;
	struct diag d;

	snprintf(path, sizeof(path), "%s/nested_loops.o", dir ? dir : "");
	if (!dir || stat(path, &st)) {
		check_skip_part("programs compiled from tests/bpf: objects not built (no clang at "
				"configure time)");
		return;
	}
	diag_clear(&d);
	if (casefile__open_object(&o, path, &d) == 0) {
		if ((kp = load(o, NULL, "nested_loops"))) {
			CHECK(kp->accepted, "nested_loops: %s", kp->message);
			for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
				uint8_t *pkt = calloc(1, lens[k] + 14);
				uint32_t h = lens[k];

				for (uint32_t i = 0; i < 10; i++)
					for (uint32_t j = 0; j < i; j++)
						h = (h ^ j) * 31 + i;
				CHECK_EQ_U64(run(kp, pkt, lens[k] + 14, 1, "nested_loops"), h & 0xff,
					     "nested_loops r0");
				free(pkt);
			}
		}
		kernel_prog__free(kp);
		ebpf_object__free(o);
	} else {
		CHECK(0, "%s: %s", path, d.msg);
	}

	snprintf(path, sizeof(path), "%s/call_in_loop.o", dir);
	diag_clear(&d);
	if (casefile__open_object(&o, path, &d) == 0) {
		if ((kp = load(o, NULL, "call_in_loop"))) {
			CHECK(kp->accepted, "call_in_loop: %s", kp->message);
			for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
				uint8_t *pkt = calloc(1, lens[k] + 14);
				uint32_t acc = lens[k];

				for (uint32_t i = 0; i < 8; i++)
					acc = mix(acc + i) + 1;
				CHECK_EQ_U64(run(kp, pkt, lens[k] + 14, 1, "call_in_loop"), acc & 0xff,
					     "call_in_loop r0");
				free(pkt);
			}
		}
		kernel_prog__free(kp);
		ebpf_object__free(o);
	} else {
		CHECK(0, "%s: %s", path, d.msg);
	}

	/* A load the kernel refuses before walking one instruction, its log empty (iter/sockmap:
	 * EPERM while resolving the attach target): parse_log flags it log_silent, and the verdict
	 * comparison calls it no-load (a setup failure, not a verdict), with the kernel's errno in
	 * the message; a refusal with a reason in the log is not flagged (verdicts(): R2 !read_ok). */
	snprintf(path, sizeof(path), "%s/iter_noload.o", dir);
	diag_clear(&d);
	if (casefile__open_object(&o, path, &d) == 0) {
		struct verdict_opts vo = { .sz = sizeof(vo), .kernel = true, .runs = 2,
					   .keep_load_errors = true };
		struct verdict_report r;

		if ((kp = load(o, NULL, "iter_noload"))) {
			CHECK(!kp->accepted && kp->log_silent && kp->processed <= 0,
			      "iter_noload: accepted %d, log_silent %d, processed %ld: %s",
			      kp->accepted, kp->log_silent, kp->processed, kp->message);
		}
		kernel_prog__free(kp);
		diag_clear(&d);
		if (verdict_compare(&r, o, &o->progs[0], &vo, &d)) {
			CHECK(0, "iter_noload: %s", d.msg);
		} else {
			CHECK(r.cls == VC_NO_LOAD && !r.kernel_accepted,
			      "iter_noload: class %s, kernel: %s", verdict_class_name(r.cls),
			      r.kernel_message);
			verdict_report__free(&r);
		}
		ebpf_object__free(o);
	} else {
		CHECK(0, "%s: %s", path, d.msg);
	}

	/* bpf_loop callbacks: loadable only with BTF func_info, which kernel_prog__load makes;
	 * r0 as the C code computes it (xdp_md's ingress_ifindex is 0 in a test run) */
	snprintf(path, sizeof(path), "%s/callbacks.o", dir);
	diag_clear(&d);
	if (casefile__open_object(&o, path, &d) == 0) {
		static const struct {
			const char *name;
			uint64_t r0;
		} cb[] = {
			{ "shared_cb", (45 + 3) & 3 },	/* sum 0..9, 3 hits, sum ^= 0^1^2^3 */
			{ "section_cb", 10 & 3 },
		};

		const struct ebpf_prog *sp = ebpf_object__find_prog(o, "shared_cb");

		/* with its global callback global_cb(), as libbpf loads it (the object's BTF),
		 * the kernel refuses shared_cb; below, loaded as without BTF (all static) */
		kp = NULL;
		diag_clear(&d);
		CHECK(sp && sp->global_cnt == 1 && kernel_prog__load(&kp, o, sp, NULL, &d) == 0,
		      "shared_cb with its global function: %s", d.msg);
		if (kp)
			CHECK(!kp->accepted && strstr(kp->message, "callback function not static"),
			      "shared_cb with a global callback: %s",
			      kp->accepted ? "accepted" : kp->message);
		kernel_prog__free(kp);
		for (size_t k = 0; k < sizeof(cb) / sizeof(cb[0]); k++) {
			const struct ebpf_prog *p = ebpf_object__find_prog(o, cb[k].name);
			struct ebpf_prog st;

			if (p) {	/* (every function static) */
				st = *p;
				st.globals = NULL;
				st.global_cnt = 0;
				p = &st;
			}
			kp = NULL;
			diag_clear(&d);
			CHECK(p && kernel_prog__load(&kp, o, p, NULL, &d) == 0, "%s: %s", cb[k].name,
			      d.msg);
			if (kp) {
				CHECK(kp->accepted, "%s: %s", cb[k].name, kp->message);
				if (kp->accepted)
					CHECK_EQ_U64(run(kp, NULL, 0, 1, cb[k].name), cb[k].r0,
						     cb[k].name);
			}
			kernel_prog__free(kp);
		}
		ebpf_object__free(o);
	} else {
		CHECK(0, "%s: %s", path, d.msg);
	}

	snprintf(path, sizeof(path), "%s/map_rodata.o", dir);
	diag_clear(&d);
	if (casefile__open_object(&o, path, &d) == 0) {
		if ((kp = load(o, NULL, "map_rodata"))) {
			CHECK(kp->accepted && kp->prog_type == BPF_PROG_TYPE_XDP, "map_rodata: %s",
			      kp->message);
			CHECK_EQ_U64(run(kp, NULL, 0, 1, "map_rodata"), 2, "map_rodata: XDP_PASS");
		}
		kernel_prog__free(kp);
		ebpf_object__free(o);
	} else {
		CHECK(0, "%s: %s", path, d.msg);
	}
}

/* Runs bpfscev with args (and env prefix); returns the exit code, stdout in out. */
static int cli(const char *env, const char *args, char *out, size_t n)
{
	const char *bin = getenv("BPFSCEV_BIN");
	char cmd[2048];
	size_t got = 0;
	FILE *f;
	int st;

	snprintf(cmd, sizeof(cmd), "%s '%s' %s 2>/dev/null", env, bin, args);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (got + 1 < n) {
		size_t r = fread(out + got, 1, n - 1 - got, f);

		if (r == 0)
			break;
		got += r;
	}
	out[got] = '\0';
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static const char *last_line(char *s)
{
	size_t n = strlen(s);

	while (n && s[n - 1] == '\n')
		s[--n] = '\0';
	while (n && s[n - 1] != '\n')
		n--;
	return s + n;
}

static bool write_raw(const char *path, const struct bpf_insn *insns, size_t n)
{
	FILE *f = fopen(path, "wb");
	bool ok = f && fwrite(insns, sizeof(*insns), n, f) == n;

	if (f)
		fclose(f);
	return ok;
}

static void command(bool kernel_ok)
{
	const struct bpf_insn ok[] = { MOV64_IMM(0, 7), ADD64_IMM(0, 35), EXIT };
	const struct bpf_insn bad[] = { I(BPF_ALU64 | BPF_MOV | BPF_X, 0, 2, 0, 0), EXIT };
	char ok_path[] = "/tmp/bpfscev_kernel_ok_XXXXXX";
	char bad_path[] = "/tmp/bpfscev_kernel_bad_XXXXXX";
	char args[1200], out[65536];
	int fd1, fd2, rc;

	if (!getenv("BPFSCEV_BIN")) {
		check_skip_part("CLI checks: BPFSCEV_BIN is not set");
		return;
	}
	fd1 = mkstemp(ok_path);
	fd2 = mkstemp(bad_path);
	CHECK(fd1 >= 0 && fd2 >= 0, "mkstemp");
	if (fd1 < 0 || fd2 < 0)
		return;
	close(fd1);
	close(fd2);
	CHECK(write_raw(ok_path, ok, 3) && write_raw(bad_path, bad, 2), "writing raw programs");

	snprintf(args, sizeof(args), "kernel %s", ok_path);
	rc = cli("BPFSCEV_NO_KERNEL=1", args, out, sizeof(out));
	CHECK(rc == 2 && !strncmp(out, "SKIP: bpf() refused: ", 21), "kernel without bpf(): rc %d "
	      "out '%s'", rc, out);
	if (kernel_ok) {
		rc = cli("", args, out, sizeof(out));
		CHECK(rc == 0 && !strcmp(last_line(out), "42"), "kernel ok: rc %d, last line '%s'",
		      rc, last_line(out));
		snprintf(args, sizeof(args), "kernel %s --json --log", ok_path);
		rc = cli("", args, out, sizeof(out));
		CHECK(rc == 0 && contains(out, "\"accepted\": true") && contains(out, "\"r0\": 42") &&
		      contains(out, "\"processed\": 3") && contains(out, "processed 3 insns"),
		      "kernel --json: rc %d\n%s", rc, out);
		snprintf(args, sizeof(args), "kernel %s --type xdp --input 'ff 00 11' --repeat 3",
			 ok_path);
		rc = cli("", args, out, sizeof(out));
		CHECK(rc == 2, "a 3-byte XDP packet is refused by test_run (input error): rc %d", rc);
		snprintf(args, sizeof(args), "kernel %s", bad_path);
		rc = cli("", args, out, sizeof(out));
		CHECK(rc == 1 && contains(out, "rejected") && contains(out, "R2 !read_ok"),
		      "kernel rejected: rc %d\n%s", rc, out);
		snprintf(args, sizeof(args), "kernel %s --type nonsense", ok_path);
		CHECK(cli("", args, out, sizeof(out)) == 2, "kernel --type nonsense");
		CHECK(cli("", "kernel /nonexistent/file.o", out, sizeof(out)) == 2,
		      "kernel on a missing file");
	}
	unlink(ok_path);
	unlink(bad_path);
}

int main(void)
{
	char why[256];
	size_t fds;
	struct kernel_prog *kp = NULL;
	struct diag d;
	bool ok;

	const char *user_env = getenv("BPFSCEV_NO_KERNEL");
	char *saved = user_env ? strdup(user_env) : NULL;

	/* The skip path, simulated (the caller's own setting is restored afterwards). */
	setenv("BPFSCEV_NO_KERNEL", "1", 1);
	CHECK(!kernel_available(why, sizeof(why)) && !strncmp(why, "bpf() refused: ", 15),
	      "BPFSCEV_NO_KERNEL=1: available, or why = '%s'", why);
	{
		const struct bpf_insn p[] = { MOV64_IMM(0, 0), EXIT };
		struct ebpf_object *o = object(p, 2, "p");

		diag_clear(&d);
		CHECK(o && kernel_prog__load(&kp, o, &o->progs[0], NULL, &d) == -EPERM && !kp,
		      "load with BPFSCEV_NO_KERNEL=1 did not fail with EPERM");
		ebpf_object__free(o);
	}
	if (saved)
		setenv("BPFSCEV_NO_KERNEL", saved, 1);
	else
		unsetenv("BPFSCEV_NO_KERNEL");
	free(saved);
	kernel_prog__free(NULL);

	ok = kernel_available(why, sizeof(why));
	command(ok);
	/* The simulated skip path above is checked on every machine; the rest needs bpf(). */
	if (!ok)
		return check_skip("test_kernel", "%s", why);
	fds = count_fds();
	verdicts();
	log_sizes();
	packets();
	maps();
	timers();
	compiled();
	CHECK_EQ_U64(count_fds(), fds, "open fds after all loads and runs");
	return check_done("test_kernel");
}
