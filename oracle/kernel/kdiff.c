/* The kernel as a differential oracle: see kdiff.h.  Every program this file loads is unloaded
 * before the function that loaded it returns.
 */
#define _GNU_SOURCE	/* sched_setaffinity */
#include "oracle/kernel/kdiff.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bpf/prog_copy.h"
#include "oracle/exec/interp.h"
#include "oracle/exec/stackinit.h"
#include "oracle/kernel/kernel.h"
#include "util/sbuf.h"

#ifndef BPF_F_TEST_REG_INVARIANTS
#define BPF_F_TEST_REG_INVARIANTS (1U << 7)
#endif
#ifndef BPF_PSEUDO_KFUNC_CALL
#define BPF_PSEUDO_KFUNC_CALL 2
#endif
#define COMPARE_SLACK 4096	/* output room beyond the input: XDP may grow the packet */
#define BPF_LOG_STATS_ONLY 4
#define KDIFF_LOG_MAX (256ul << 20)
#define LOG_BYTES_PER_INSN 1024ul	/* level-2 log per processed instruction, generously */

static const char *const kind_names[] = {
	"agree", "rejected", "unrunnable", "invariant", "claim", "retval", "packet", "trap", "map",
};

const char *kdiff_kind_name(enum kdiff_kind k)
{
	return k < sizeof(kind_names) / sizeof(kind_names[0]) ? kind_names[k] : "?";
}

static const char *const nc_names[KDIFF_NC_COUNT] = {
	[KDIFF_NC_NONE] = "compared",
	[KDIFF_NC_HELPER] = "helpers whose writes or draws the log does not hold",
	[KDIFF_NC_KFUNC] = "kfuncs",
	[KDIFF_NC_CALLX] = "callx",
	[KDIFF_NC_SOCKMAP] = "socket maps",
	[KDIFF_NC_UNPINNED] = "not pinned to a CPU",
	[KDIFF_NC_TRAP] = "a call the interpreter does not model",
	[KDIFF_NC_STEPS] = "the step budget",
	[KDIFF_NC_MAY_GOTO] = "may_goto's budget",
	[KDIFF_NC_NR64] = "a bpf_loop nr above 2^32",
	[KDIFF_NC_KERNEL_READ] = "a map's kernel struct read",
	[KDIFF_NC_SOCK] = "a socket a lookup may find",
	[KDIFF_NC_UNWRITTEN] = "stack bytes read unwritten",
	[KDIFF_NC_REPLAY_SHORT] = "more helper results than logged",
	[KDIFF_NC_REPLAY_OTHER] = "a draw the log does not hold",
	[KDIFF_NC_RECORD_REFUSED] = "the recording program refused",
	[KDIFF_NC_RECORD_FAILED] = "no recording program (a jump too far)",
};

const char *kdiff_nc_name(enum kdiff_nc n)
{
	return n < KDIFF_NC_COUNT && nc_names[n] ? nc_names[n] : "?";
}

/* Words in the log by which the verifier reports a bug in itself: range invariants broken
 * (BPF_F_TEST_REG_INVARIANTS turns them into load failures) and verifier_bug() (6.16+). */
bool kdiff_log_reports_bug(const char *log, char *line, size_t n)
{
	static const char *const marks[] = { "INVARIANTS VIOLATION", "verifier bug" };

	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		const char *at = strstr(log, marks[i]), *b, *e;

		if (!at)
			continue;
		if (!line)
			return true;
		for (b = at; b > log && b[-1] != '\n'; b--)
			;
		e = strchr(at, '\n');
		snprintf(line, n, "%.*s", (int)(e ? e - b : (long)strlen(b)), b);
		return true;
	}
	return false;
}

/* Whether the kfunc call at pc is one of the open-coded number or bits iterator's
 * (bpf_iter_num_new/next/destroy, bpf_iter_bits_*): their results are the range's values or the
 * set bits of the words new copied, which the interpreter computes as kernel/bpf/bpf_iter.c and
 * kernel/bpf/helpers.c do (no draw; words of unwritten stack bytes make the run unwritten), so
 * a run calling them is compared.  The iterators over kernel objects (task, css, css_task,
 * task_vma) walk the running system's tasks, cgroups and vmas, which the interpreter draws (0 to
 * 3): a run calling them is not compared (nondeterministic), the kernel's verdict and log are. */
static bool iter_run_kfunc(const struct ebpf_prog *prog, size_t pc)
{
	struct ebpf_kfunc_iter it;

	return ebpf_kfunc_iter(ebpf_prog_kfunc_name(prog, pc), &it) &&
	       (it.family == EBPF_ITER_NUM || it.family == EBPF_ITER_BITS);
}

/* Calls whose results differ from run to run, or from our interpreter's (it draws them:
 * interp_helper_drawn): kfunc calls but the number and bits iterators' and bpf_throw, callx,
 * and helpers the interpreter draws for, but bpf_get_smp_processor_id: the run is pinned to a
 * CPU the interpreter is told (cpu_bound; compare_run counts a run that could not be pinned as
 * nondeterministic).  Also a program naming a socket map: the interpreter draws what its
 * lookups find and whether its updates and deletes succeed (sockets put there from outside). */
static uint8_t nondet_why(const struct ebpf_object *obj, const struct ebpf_prog *prog,
			  bool replay)
{
	for (size_t pc = 0; pc < prog->len; pc++) {
		const struct bpf_insn *i = &prog->insns[pc];

		if (obj && ebpf_is_ldimm64(i) && (i->src_reg == BPF_PSEUDO_MAP_FD ||
						  i->src_reg == BPF_PSEUDO_MAP_IDX) &&
		    (uint32_t)i->imm < obj->map_cnt &&
		    (obj->maps[i->imm].type == BPF_MAP_TYPE_SOCKMAP ||
		     obj->maps[i->imm].type == BPF_MAP_TYPE_SOCKHASH))
			return KDIFF_NC_SOCKMAP;
		if (!ebpf_is_call(i) || ebpf_is_pseudo_call(i))
			continue;
		/* (the dynptr kfuncs the interpreter runs as the kernel: no draw, the packet of the
		 * test run linear as its) */
		if (i->src_reg == BPF_PSEUDO_KFUNC_CALL && !iter_run_kfunc(prog, pc) &&
		    !interp_dynptr_kfunc(ebpf_prog_kfunc_name(prog, pc)) && !ebpf_insn_is_throw(i))
			return KDIFF_NC_KFUNC;
		if (ebpf_srcbit(i) != BPF_K)
			return KDIFF_NC_CALLX;
		if (i->src_reg == 0 && interp_helper_drawn(i->imm) &&
		    i->imm != BPF_FUNC_get_smp_processor_id &&
		    !(replay && interp_helper_replayed(i->imm)))
			return KDIFF_NC_HELPER;
	}
	return KDIFF_NC_NONE;
}

/* Record and replay (kdiff.h): whether prog calls a helper whose result only the kernel's run can
 * tell (interp_helper_replayed; not bpf_get_smp_processor_id, whose CPU the pinned run gives). */
static bool replayed_call(const struct bpf_insn *i)
{
	return ebpf_is_helper_call(i) && interp_helper_replayed(i->imm) &&
	       i->imm != BPF_FUNC_get_smp_processor_id;
}

static bool needs_replay(const struct ebpf_object *obj, const struct ebpf_prog *prog)
{
	if (nondet_why(obj, prog, true) != KDIFF_NC_NONE)
		return false;	/* not comparable whatever the log holds */
	for (size_t pc = 0; pc < prog->len; pc += ebpf_insn_slots(&prog->insns[pc]))
		if (replayed_call(&prog->insns[pc]))
			return true;
	return false;
}

/* The instructions appended after each replayed call: r0 into the log, a map value of
 * KDIFF_LOG_RESULTS u64 results after a u64 count (r1-r5 are dead after a call: the verifier
 * marks them not initialized, so no program it accepts reads them).  The count goes on past
 * the room, so a run that called more often says so (replay_short).  (Session 28 tried the
 * count masked to the room instead of the bound check: fuzz-7-477's copy, refused at the
 * million-instruction limit with the check, was accepted, but the seed-7 campaign counted 4
 * copies refused against the check's 2: the check stays.) */
#define LOG_SEQ 10u
static void log_seq(struct bpf_insn *o, uint32_t map)
{
	const struct bpf_insn seq[LOG_SEQ] = {
		{ .code = BPF_LD | BPF_IMM | BPF_DW, .dst_reg = 1, .src_reg = BPF_PSEUDO_MAP_VALUE,
		  .imm = (int32_t)map },
		{ .imm = 0 },				/* (offset 0 of element 0) */
		{ .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = 2, .src_reg = 1 },
		{ .code = BPF_JMP | BPF_JGE | BPF_K, .dst_reg = 2, .off = 4,
		  .imm = KDIFF_LOG_RESULTS },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 3, .src_reg = 2 },
		{ .code = BPF_ALU64 | BPF_LSH | BPF_K, .dst_reg = 3, .imm = 3 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_X, .dst_reg = 3, .src_reg = 1 },
		{ .code = BPF_STX | BPF_MEM | BPF_DW, .dst_reg = 3, .src_reg = 0, .off = 8 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = 2, .imm = 1 },
		{ .code = BPF_STX | BPF_MEM | BPF_DW, .dst_reg = 1, .src_reg = 2 },
	};

	memcpy(o, seq, sizeof(seq));
}

/* The program the test run records with (kdiff.h): prog with log_seq after each replayed call,
 * its maps obj's and the log, a fresh one-element array, last (its index obj's map count).  The
 * caller frees out's instructions, kfuncs and globals and oobj's maps.  0, -E2BIG (a jump no
 * longer reaches), -ENOMEM. */
static int instrument(struct ebpf_prog *out, struct ebpf_object *oobj,
		      const struct ebpf_object *obj, const struct ebpf_prog *prog)
{
	size_t nm = obj ? obj->map_cnt : 0, *newpc = malloc((prog->len + 1) * sizeof(*newpc)), n = 0;
	struct ebpf_map_def *log;
	int err = -ENOMEM;

	memset(out, 0, sizeof(*out));
	memset(oobj, 0, sizeof(*oobj));
	if (!newpc)
		goto out;
	if (obj)
		*oobj = *obj;
	oobj->maps = calloc(nm + 1, sizeof(*oobj->maps));
	oobj->map_cnt = nm + 1;
	if (!oobj->maps)
		goto out;
	if (nm)
		memcpy(oobj->maps, obj->maps, nm * sizeof(*oobj->maps));
	log = &oobj->maps[nm];
	snprintf(log->name, sizeof(log->name), "kdiff_log");
	log->type = BPF_MAP_TYPE_ARRAY;
	log->key_size = 4;
	log->value_size = 8 * (KDIFF_LOG_RESULTS + 1);
	log->max_entries = 1;
	/* the pc map: LOG_SEQ empty slots after each replayed call */
	for (size_t pc = 0; pc < prog->len; pc++) {
		newpc[pc] = n++;
		if (ebpf_is_ldimm64(&prog->insns[pc]) && pc + 1 < prog->len)
			newpc[++pc] = n++;
		else if (replayed_call(&prog->insns[pc]))
			n += LOG_SEQ;
	}
	newpc[prog->len] = n;
	err = ebpf_prog_copy_map(out, prog, newpc, NULL);
	if (err)
		goto out;
	for (size_t pc = 0; pc < prog->len; pc += ebpf_insn_slots(&prog->insns[pc]))
		if (replayed_call(&prog->insns[pc]))
			log_seq(&out->insns[newpc[pc] + 1], (uint32_t)nm);
out:
	free(newpc);
	return err;
}

static void instrumented__free(struct ebpf_prog *p, struct ebpf_object *o)
{
	ebpf_prog_copy__free(p);
	free(o->maps);
	memset(o, 0, sizeof(*o));
}

/* The recording program of one kdiff_run, loaded while its runs last (kdiff.h). */
struct recorder {
	struct kernel_prog *kp;	/* NULL: the runs are the original program's, drawn */
	int fd;			/* its log map */
	uint8_t nc;		/* KDIFF_NC_RECORD_*: one was wanted and could not be had ... */
	char why[160];		/* ... the kernel's message of a refusal */
};

/* Loads the recording program of prog when its runs need one (needs_replay): rc->kp, or
 * rc->nc when the kernel refused it or it could not be made.  The load is the original's
 * (type, flags), with the statistics log only: the verdict and the log compared are the
 * original program's.  0 or -errno with d set. */
static int recorder_open(struct recorder *rc, const struct ebpf_object *obj,
			 const struct ebpf_prog *prog, const struct kdiff_opts *o, struct diag *d)
{
	struct kernel_prog_opts ko = { .sz = sizeof(ko), .prog_type = o->prog_type,
				       .prog_flags = o->no_invariants ? 0 :
						     BPF_F_TEST_REG_INVARIANTS,
				       .log_level = BPF_LOG_STATS_ONLY, .log_size = 1 << 16,
				       .log_max = 1 << 16 };
	struct ebpf_object robj;
	struct ebpf_prog rprog;
	int err;

	memset(rc, 0, sizeof(*rc));
	rc->fd = -1;
	if (o->no_replay || !needs_replay(obj, prog))
		return 0;
	if ((err = instrument(&rprog, &robj, obj, prog))) {
		instrumented__free(&rprog, &robj);
		if (err == -ENOMEM)
			return diag_set(d, ENOMEM, "out of memory");
		rc->nc = KDIFF_NC_RECORD_FAILED;
		return 0;
	}
	err = kernel_prog__load(&rc->kp, &robj, &rprog, &ko, d);
	instrumented__free(&rprog, &robj);
	if (err)
		return err;
	if (!rc->kp->accepted || !rc->kp->map_fds || rc->kp->map_cnt <= (obj ? obj->map_cnt : 0) ||
	    rc->kp->map_fds[obj ? obj->map_cnt : 0] < 0) {
		snprintf(rc->why, sizeof(rc->why), "%.159s", rc->kp->message);
		kernel_prog__free(rc->kp);
		rc->kp = NULL;
		rc->nc = KDIFF_NC_RECORD_REFUSED;
		return 0;
	}
	rc->fd = rc->kp->map_fds[obj ? obj->map_cnt : 0];
	return 0;
}

/* Empties the log before a recording run; *log receives a buffer for it.  0 or -errno. */
static int recorder_clear(const struct recorder *rc, uint64_t **log)
{
	uint32_t zero = 0;

	free(*log);
	if (!(*log = calloc(KDIFF_LOG_RESULTS + 1, sizeof(**log))))
		return -ENOMEM;
	return bpf_map_update_elem(rc->fd, &zero, *log, BPF_ANY) ? -errno : 0;
}

static bool calls_helper(const struct ebpf_prog *prog, int32_t id);

/* Whether a run's result depends on the CPU it runs on beyond its per-CPU maps' copies: the
 * program asks which CPU it is (bpf_get_smp_processor_id) or reads a CPU's copy by number
 * (bpf_map_lookup_percpu_elem).  Its run is pinned, and the interpreter told that CPU. */
static bool cpu_bound(const struct ebpf_prog *prog)
{
	return calls_helper(prog, BPF_FUNC_get_smp_processor_id) ||
	       calls_helper(prog, BPF_FUNC_map_lookup_percpu_elem);
}

/* Two loads: the verdict and statistics first, with a small log (a program the verifier walks
 * to its limit of a million instructions takes minutes at level 2); then, for an accepted
 * program, the level-2 log sized from the instruction count.  The verifier is deterministic,
 * so both see the same walk. */
static int load(struct kernel_prog **kp, const struct ebpf_object *obj,
		const struct ebpf_prog *prog, const struct kdiff_opts *o, struct diag *d)
{
	struct kernel_prog_opts ko = { .sz = sizeof(ko), .prog_type = o->prog_type,
				       .prog_flags = o->no_invariants ? 0 :
						     BPF_F_TEST_REG_INVARIANTS,
				       .log_level = BPF_LOG_STATS_ONLY, .log_size = 1 << 20,
				       .log_max = 1 << 20 };
	size_t max = o->log_max ? o->log_max : KDIFF_LOG_MAX;
	struct kernel_prog *first = NULL;
	int err;

	if ((err = kernel_prog__load(&first, obj, prog, &ko, d)))
		return err;
	if (!first->accepted || first->processed < 0 ||
	    (size_t)first->processed * LOG_BYTES_PER_INSN > max) {
		*kp = first;	/* the verdict is all there is to have */
		return 0;
	}
	ko.log_level = 0;	/* level 2 and statistics */
	ko.log_size = (size_t)first->processed * LOG_BYTES_PER_INSN + (1 << 20);
	ko.log_max = max;
	kernel_prog__free(first);
	return kernel_prog__load(kp, obj, prog, &ko, d);
}

static int claims_of(struct claim_prog *out, struct klog_claim_stats *st, uint32_t *warnings,
		     char *warning, size_t wn, const struct kernel_prog *kp,
		     const struct ebpf_object *obj, const struct ebpf_prog *prog,
		     const struct kdiff_opts *o, struct diag *d)
{
	struct klog_claim_opts co = { .sz = sizeof(co) };
	struct klog *k = NULL;
	int err;

	memset(out, 0, sizeof(*out));
	if (!kp->accepted || kp->log_truncated) {
		snprintf(out->name, sizeof(out->name), "%s", prog->name);
		out->insn_count = (uint32_t)prog->len;
		snprintf(out->strategy, sizeof(out->strategy), "kernel");
		snprintf(out->note, sizeof(out->note), "%s", !kp->accepted ?
			 "rejected by the kernel: no claims" :
			 "the verifier log was truncated: no claims");
		return 0;
	}
	if ((err = klog_parse(&k, kp->log, kp->log_len, prog, obj, d)))
		return err;
	if (warnings)
		*warnings = k->warnings;
	if (warning)
		snprintf(warning, wn, "%s", k->warning);
	err = klog_claims(out, k, prog, &co, st);
	klog__free(k);
	if (err)
		return diag_set(d, -err, "out of memory");
	return 0;
}

int kdiff_kernel_claims(struct claim_prog *out, bool *accepted, const struct ebpf_object *obj,
			const struct ebpf_prog *prog, const struct kdiff_opts *uopts,
			struct klog_claim_stats *st, struct diag *d)
{
	struct kdiff_opts o = { 0 };
	struct kernel_prog *kp = NULL;
	int err;

	if (uopts)
		memcpy(&o, uopts, uopts->sz && uopts->sz < sizeof(o) ? uopts->sz : sizeof(o));
	memset(out, 0, sizeof(*out));
	if ((err = load(&kp, obj, prog, &o, d)))
		return err;
	*accepted = kp->accepted;
	err = claims_of(out, st, NULL, NULL, 0, kp, obj, prog, &o, d);
	kernel_prog__free(kp);
	return err;
}

static bool calls_helper(const struct ebpf_prog *prog, int32_t id)
{
	for (size_t pc = 0; pc < prog->len; pc++)
		if (ebpf_is_helper_call(&prog->insns[pc]) && prog->insns[pc].imm == id)
			return true;
	return false;
}

/* The maps compared around one test run (kdiff.h): the kernel's contents before the run (the
 * interpreter's start), after it, and the interpreter's after its run.  An array's contents
 * are its max_entries values; a hash map's its elements, keys and values, in the kernel's order
 * (bpf_map_get_next_key) or in the interpreter's slots.  A per-CPU map's kernel value of an
 * element holds every possible CPU's, each round_up(value_size, 8) bytes (the syscall's
 * layout); the interpreter has every CPU's too (interp_map.pcpu), the run pinned to the same
 * CPU as the kernel's (interp_env.cpu), and every copy is compared. */
struct map_cmp {
	uint32_t m;		/* index in obj->maps */
	int fd;
	bool hash, percpu, lru;
	uint32_t ksize, vsize;
	uint32_t toff;		/* 1 + the struct bpf_timer's offset in a value, 0 none: its 16
				 * bytes are the kernel's timer, not compared */
	uint32_t n;		/* array: elements; hash: slots, max_entries */
	size_t kval;		/* bytes of one element's kernel value (per-CPU: every CPU's) */
	size_t stride;		/* per-CPU: one CPU's value in it */
	uint32_t nb, na;	/* the kernel's elements before and after the run */
	uint8_t *kb, *vb, *ka, *va;	/* their keys (hash) and values */
	uint8_t *iv, *ik, *iu;	/* the interpreter's values; hash: its keys and used flags */
	uint8_t *ip;		/* per-CPU: the interpreter's copies of every CPU (ncpus blocks
				 * of n values; the run CPU's block unused: iv is its copy) */
	uint32_t upd_peak;	/* the interpreter's run: interp_map.upd_peak */
};

struct map_set {
	struct map_cmp *m;
	size_t n;
	int cpu;		/* the CPU the kernel's run is pinned to; -1: not pinned */
	int ncpus;		/* possible CPUs (a per-CPU value's copies) */
	uint32_t left;		/* maps of these kinds the run writes that are not compared */
	char why[160];		/* the first one's reason */
	bool timers;		/* the program arms timers (compare_run waits for the callbacks) */
	uint64_t read_ms;	/* when the last read of the kernel's maps after the run ended
				 * (kdiff_now_ms) */
	const struct kdiff_opts *o;	/* its forge_kmap and clock_ms (tests) */
	const uint8_t *sock;	/* the test run's socket (interp_test_run_sock of the frame) */
	const uint64_t *replay;	/* the kernel's logged helper results (record and replay),
				 * NULL when the run draws */
	size_t replay_len;
	uint32_t attach_type;	/* the kernel's expected attach type (kernel_prog.attach_type),
				 * the interpreter's too (interp_env.attach_type) */
};

/* A CPU's free-list refill in the kernel's LRU maps (kernel/bpf/bpf_lru_list.c,
 * LOCAL_FREE_TARGET; recent kernels take min(this, max_entries / CPUs / 2), target_free): when
 * fewer nodes than that are free, it evicts to make up the rest. */
#define LRU_LOCAL_FREE_TARGET 128u

/* Programs that arm timers (kdiff.h): the interpreter fires the timers expiring at most
 * KDIFF_TIMER_SHORT after the program's start on its clock; a timer it leaves armed must expire
 * KDIFF_TIMER_LONG or later; the kernel's maps are read again until they are the interpreter's,
 * for at most TIMER_WAIT_MS after the test run, and the last read must end TIMER_READ_MARGIN_MS
 * before the earliest expiry of a timer left armed, counted from the run's start (a kernel timer
 * fires at or after its expiry, and every start of the run came after t0: timer_read_by). */
#define KDIFF_TIMER_SHORT 1000000ull
#define KDIFF_TIMER_LONG 1000000000ull
#define TIMER_WAIT_MS 300
#define TIMER_READ_MARGIN_MS 200
#define TIMER_POLL_NS 1000000L

/* The clock of the timer deadlines, in ms: CLOCK_MONOTONIC (the clock of bpf_timer's
 * CLOCK_MONOTONIC and CLOCK_BOOTTIME timers while the machine does not sleep), or the test's
 * (kdiff_opts.clock_ms). */
static uint64_t kdiff_now_ms(const struct kdiff_opts *o)
{
	struct timespec ts;

	if (o && o->clock_ms)
		return o->clock_ms(o->forge_arg);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* The time by which the last read of the kernel's maps must have ended, for a run that began at
 * t0 (kdiff_now_ms): TIMER_READ_MARGIN_MS before the earliest expiry of a timer the
 * interpreter's run left armed (ir->timer_next on the timers' clock, 0 at the program's start;
 * at least KDIFF_TIMER_LONG, timer_wait), none when it left none armed. */
static uint64_t timer_read_by(const struct interp_result *ir, uint64_t t0)
{
	uint64_t ahead = ir->timer_next / 1000000;

	if (!ir->timer_left)
		return UINT64_MAX;
	return ahead > TIMER_READ_MARGIN_MS ? t0 + (ahead - TIMER_READ_MARGIN_MS) : t0;
}

static void map_set__free(struct map_set *ms)
{
	for (size_t k = 0; k < ms->n; k++) {
		struct map_cmp *c = &ms->m[k];

		free(c->kb);
		free(c->vb);
		free(c->ka);
		free(c->va);
		free(c->iv);
		free(c->ip);
		free(c->ik);
		free(c->iu);
	}
	free(ms->m);
	memset(ms, 0, sizeof(*ms));
}

static void map_set__leave(struct map_set *ms, const struct ebpf_map_def *def, const char *why)
{
	if (!ms->left++)
		snprintf(ms->why, sizeof(ms->why), "'%.40s': %s", def->name, why);
}

/* Every map of ms left out, with why: none is compared. */
static void map_set__drop(struct map_set *ms, const struct ebpf_object *obj, const char *why)
{
	struct map_set none = { .cpu = ms->cpu, .ncpus = ms->ncpus, .left = ms->left,
				.timers = ms->timers, .o = ms->o, .sock = ms->sock,
				.replay = ms->replay, .replay_len = ms->replay_len,
				.attach_type = ms->attach_type };

	memcpy(none.why, ms->why, sizeof(none.why));
	for (size_t k = 0; k < ms->n; k++)
		map_set__leave(&none, &obj->maps[ms->m[k].m], why);
	map_set__free(ms);
	*ms = none;
}

static bool is_hash(uint32_t type)
{
	return type == BPF_MAP_TYPE_HASH || type == BPF_MAP_TYPE_PERCPU_HASH ||
	       type == BPF_MAP_TYPE_LRU_HASH || type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static bool is_percpu(uint32_t type)
{
	return type == BPF_MAP_TYPE_PERCPU_ARRAY || type == BPF_MAP_TYPE_PERCPU_HASH ||
	       type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static bool is_lru(uint32_t type)
{
	return type == BPF_MAP_TYPE_LRU_HASH || type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

/* Whether the comparison covers def: 1 yes, 0 a map of another kind or one the program cannot
 * write (nothing to say), -1 one of these kinds it cannot compare (*why says why). */
static int map_comparable(const struct ebpf_map_def *def, int ncpus, const char **why)
{
	uint64_t per = is_percpu(def->type) ? (uint64_t)ncpus * ((def->value_size + 7u) & ~7u)
					   : def->value_size;

	if (def->type != BPF_MAP_TYPE_ARRAY && def->type != BPF_MAP_TYPE_PERCPU_ARRAY &&
	    !is_hash(def->type))
		return 0;
	if ((def->flags & BPF_F_RDONLY_PROG) || !def->value_size || !def->max_entries)
		return 0;
	if (def->nfields || def->fields_over) {
		*why = "special fields in its values";
		return -1;
	}
	if (is_hash(def->type) && (!def->key_size || def->key_size > 512)) {
		*why = "its key size";
		return -1;
	}
	if (is_percpu(def->type) && ncpus <= 0) {
		*why = "the number of CPUs is not known";
		return -1;
	}
	if (is_percpu(def->type) && ncpus > (int)INTERP_MAX_CPUS) {
		*why = "more CPUs than the interpreter models";
		return -1;
	}
	if (def->max_entries > KDIFF_MAP_ENTRIES || (uint64_t)def->max_entries * per > KDIFF_MAP_BYTES) {
		*why = "too large (more than 1024 elements or 1 MiB)";
		return -1;
	}
	if (is_lru(def->type) && (def->flags & BPF_F_NO_COMMON_LRU)) {
		*why = "an LRU map with per-CPU lists (BPF_F_NO_COMMON_LRU) may evict before it is full";
		return -1;
	}
	return 1;
}

/* The kernel's contents of c into its before or after arrays. */
static int map_cmp__read(struct map_cmp *c, bool after)
{
	uint8_t *keys = after ? c->ka : c->kb, *vals = after ? c->va : c->vb;
	const void *prev = NULL;
	uint32_t k = 0;

	if (!c->hash) {
		for (uint32_t e = 0; e < c->n; e++)
			if (bpf_map_lookup_elem(c->fd, &e, vals + (size_t)e * c->kval))
				return -errno;
		k = c->n;
	}
	/* (a hash map holds at most max_entries elements; nothing changes it while it is read) */
	while (c->hash && k < c->n) {
		uint8_t *key = keys + (size_t)k * c->ksize;

		if (bpf_map_get_next_key(c->fd, prev, key)) {
			if (errno == ENOENT)
				break;
			return -errno;
		}
		if (bpf_map_lookup_elem(c->fd, key, vals + (size_t)k * c->kval))
			return -errno;
		prev = key;
		k++;
	}
	*(after ? &c->na : &c->nb) = k;
	return 0;
}

static int map_set__read(struct map_set *ms, bool after)
{
	int err;

	for (size_t k = 0; k < ms->n; k++) {
		if ((err = map_cmp__read(&ms->m[k], after)))
			return err;
		if (after && ms->o && ms->o->forge_kmap)
			ms->o->forge_kmap(ms->o->forge_arg, ms->m[k].m, ms->m[k].va,
					  (size_t)ms->m[k].na * ms->m[k].kval);
	}
	if (after && ms->timers)
		ms->read_ms = kdiff_now_ms(ms->o);
	return 0;
}

/* The lowest CPU this thread may run on: where the kernel's runs of programs with per-CPU or
 * LRU maps are pinned (the same CPU for every run of one loaded program), -1 when unknown. */
static int pin_cpu(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			return c;
	return -1;
}

/* The maps of kp to compare (none for a program whose runs are not compared), with their
 * values before the run read; the ones it cannot compare counted in ms->left. */
static int map_set__open(struct map_set *ms, const struct kernel_prog *kp,
			 const struct ebpf_object *obj, const struct ebpf_prog *prog, bool skip,
			 bool again)
{
	bool pin = false;

	memset(ms, 0, sizeof(*ms));
	ms->cpu = -1;
	ms->ncpus = libbpf_num_possible_cpus();
	if (skip)
		return 0;
	if (cpu_bound(prog) && ms->ncpus > 0 && ms->ncpus <= (int)INTERP_MAX_CPUS &&
	    (ms->cpu = pin_cpu()) >= ms->ncpus)
		ms->cpu = -1;
	if (!obj || !kp->map_fds)
		return 0;
	ms->timers = calls_helper(prog, BPF_FUNC_timer_start);
	for (size_t m = 0; m < kp->map_cnt && m < obj->map_cnt; m++) {
		const struct ebpf_map_def *def = &obj->maps[m];
		const char *why = NULL;
		struct map_cmp *c, *nv;
		int ok;

		if (kp->map_fds[m] < 0 || !(ok = map_comparable(def, ms->ncpus, &why)))
			continue;
		/* (a second test run of a program that arms timers finds them initialized, maybe
		 * armed, by the first; the kernel's reads show a timer as zeros) */
		if (ok < 0 || (ms->timers && again)) {
			map_set__leave(ms, def, ok < 0 ? why : "the program arms timers and an "
				       "earlier test run left them initialized");
			continue;
		}
		if (!(nv = realloc(ms->m, (ms->n + 1) * sizeof(*nv))))
			goto oom;
		ms->m = nv;
		c = &ms->m[ms->n++];
		memset(c, 0, sizeof(*c));
		c->m = (uint32_t)m;
		c->fd = kp->map_fds[m];
		c->hash = is_hash(def->type);
		c->percpu = is_percpu(def->type);
		c->lru = is_lru(def->type);
		c->ksize = c->hash ? def->key_size : 4;
		c->vsize = def->value_size;
		c->toff = def->timer && def->timer - 1 + 16 <= def->value_size ? def->timer : 0;
		c->n = def->max_entries;
		c->stride = c->percpu ? (def->value_size + 7u) & ~(size_t)7 : def->value_size;
		c->kval = c->percpu ? c->stride * (size_t)ms->ncpus : def->value_size;
		c->vb = malloc((size_t)c->n * c->kval);
		c->va = malloc((size_t)c->n * c->kval);
		c->iv = malloc((size_t)c->n * c->vsize);
		if (c->percpu)
			c->ip = calloc((size_t)ms->ncpus, (size_t)c->n * c->vsize);
		if (!c->vb || !c->va || !c->iv || (c->percpu && !c->ip))
			goto oom;
		if (c->hash) {
			c->kb = malloc((size_t)c->n * c->ksize);
			c->ka = malloc((size_t)c->n * c->ksize);
			c->ik = malloc((size_t)c->n * c->ksize);
			c->iu = malloc(c->n);
			if (!c->kb || !c->ka || !c->ik || !c->iu)
				goto oom;
		}
		pin |= c->percpu || c->lru;
	}
	if (pin && ms->cpu < 0 && (ms->cpu = pin_cpu()) < 0)
		map_set__drop(ms, obj, "no CPU to pin the run to");
	return map_set__read(ms, false);
oom:
	map_set__free(ms);
	return -ENOMEM;
}

/* The run CPU's value of element e in a kernel value array. */
static const uint8_t *kval_of(const struct map_set *ms, const struct map_cmp *c,
			      const uint8_t *vals, uint32_t e)
{
	return vals + (size_t)e * c->kval + (c->percpu ? (size_t)ms->cpu * c->stride : 0);
}

/* The interpreter's copy of CPU cpu of its value (an array's element, a hash table's slot) e:
 * the run CPU's is iv's. */
static uint8_t *ipcopy(const struct map_cmp *c, int cpu, uint32_t e)
{
	return c->ip + ((size_t)cpu * c->n + e) * c->vsize;
}

/* The interpreter's run starts from the kernel's contents before the kernel's run, a timer
 * not initialized (the kernel's before the first test run of a program: map_set__open). */
static void map_cmp__start(const struct map_set *ms, struct map_cmp *c)
{
	uint32_t n = c->hash ? c->nb : c->n;

	if (c->hash) {
		memset(c->iu, 0, c->n);
		for (uint32_t e = 0; e < c->nb; e++) {
			memcpy(c->ik + (size_t)e * c->ksize, c->kb + (size_t)e * c->ksize,
			       c->ksize);
			c->iu[e] = 1;
		}
	}
	for (uint32_t e = 0; e < n; e++) {
		memcpy(c->iv + (size_t)e * c->vsize, kval_of(ms, c, c->vb, e), c->vsize);
		if (c->toff)
			memset(c->iv + (size_t)e * c->vsize + c->toff - 1, 0, 16);
	}
	/* (every CPU's copies: those of slots without an element zero) */
	if (c->percpu)
		memset(c->ip, 0, (size_t)ms->ncpus * c->n * c->vsize);
	for (int cpu = 0; c->percpu && cpu < ms->ncpus; cpu++)
		for (uint32_t e = 0; e < n; e++)
			memcpy(ipcopy(c, cpu, e), c->vb + (size_t)e * c->kval + (size_t)cpu * c->stride,
			       c->vsize);
}

/* Whether byte b of a value is compared: not the struct bpf_timer's. */
static bool byte_compared(const struct map_cmp *c, uint32_t b)
{
	return !c->toff || b + 1 < c->toff || b + 1 >= c->toff + 16;
}

/* Whether the aligned 8 bytes at off of a value hold a pointer on both sides: on the
 * interpreter's an address of one of its regions (INTERP_VA_STACK to INTERP_VA_PCPU's), on the
 * kernel's an address of the kernel's half.  A privileged program may store a pointer in a map
 * (exposeptr.o: its context through bpf_map_update_elem); the two addresses are never the same,
 * the kinds of value are compared. */
static bool both_ptr(const struct map_cmp *c, const uint8_t *k, const uint8_t *i, uint32_t off)
{
	uint64_t kv, iv;

	if (off + 8 > c->vsize)
		return false;
	memcpy(&kv, k + off, 8);
	memcpy(&iv, i + off, 8);
	return kv >= 0xffff800000000000ull && iv >= INTERP_VA_STACK &&
	       iv < INTERP_VA_PCPU + (INTERP_VA_STACK - 1);
}

/* The first byte of a value (kernel's k, interpreter's i) that differs: -1 none.  The struct
 * bpf_timer's bytes are skipped, and an aligned u64 that holds a pointer on both sides
 * (both_ptr, counted in *ptrs). */
static long value_diff(const struct map_cmp *c, const uint8_t *k, const uint8_t *i,
		       uint32_t *ptrs)
{
	for (uint32_t b = 0; b < c->vsize; b++) {
		if (k[b] == i[b] || !byte_compared(c, b))
			continue;
		if (both_ptr(c, k, i, b & ~7u)) {
			b |= 7;
			(*ptrs)++;
			continue;
		}
		return b;
	}
	return -1;
}

/* Whether the kernel may have evicted from an LRU map in its run: an update finds no free node
 * on its CPU's list and refills it, evicting when fewer than LRU_LOCAL_FREE_TARGET nodes are
 * free (kernel/bpf/bpf_lru_list.c).  With every run of the map on one CPU, the nodes that are
 * not elements are free at a refill (max_entries - elements), and a map without elements has
 * nothing to evict; the interpreter's run, the kernel's until it differs, tells the most
 * elements the map held at an update (upd_peak).  Before any difference the kernel's run was
 * the interpreter's, so an eviction would come after an update at upd_peak or fewer
 * elements. */
static bool lru_may_evict(const struct map_cmp *c)
{
	return c->lru && c->upd_peak && c->upd_peak + LRU_LOCAL_FREE_TARGET > c->n;
}

static long key_find(const uint8_t *keys, uint32_t n, const uint8_t *used, const uint8_t *key,
		     uint32_t ks)
{
	for (uint32_t e = 0; e < n; e++)
		if ((!used || used[e]) && !memcmp(keys + (size_t)e * ks, key, ks))
			return e;
	return -1;
}

static void hex_key(char *buf, size_t n, const uint8_t *key, uint32_t ks)
{
	size_t at = (size_t)snprintf(buf, n, "0x");

	for (uint32_t b = 0; b < ks && b < 16 && at + 3 < n; b++)
		at += (size_t)snprintf(buf + at, n - at, "%02x", key[b]);
	if (ks > 16 && at + 4 < n)
		snprintf(buf + at, n - at, "...");
}

/* Per-CPU: the other CPUs' copies of one element after the run (the kernel's k, every CPU's;
 * the interpreter's in slot or element i) the same on both sides.  -1 when they are, else the
 * first CPU whose copy differs, its byte in *b. */
static int pcpu_others(const struct map_set *ms, const struct map_cmp *c, const uint8_t *k,
		       uint32_t i, long *b, uint32_t *ptrs)
{
	for (int cpu = 0; c->percpu && cpu < ms->ncpus; cpu++)
		if (cpu != ms->cpu &&
		    (*b = value_diff(c, k + (size_t)cpu * c->stride, ipcopy(c, cpu, i), ptrs)) >= 0)
			return cpu;
	return -1;
}

/* One compared map: true when the interpreter's contents are the kernel's after the run (and a
 * per-CPU map's other CPUs' copies unchanged), else false with the first difference in what. */
static bool map_cmp__same(const struct map_set *ms, const struct map_cmp *c, char *what, size_t n,
			  uint32_t *ptrs)
{
	char key[48];
	long b;
	int cpu;

	if (!c->hash) {
		for (uint32_t e = 0; e < c->n; e++) {
			const uint8_t *k = kval_of(ms, c, c->va, e), *i = c->iv + (size_t)e * c->vsize;

			if ((b = value_diff(c, k, i, ptrs)) >= 0) {
				snprintf(what, n, "element %u, byte %ld: kernel %#x, interpreter %#x",
					 e, b, k[b], i[b]);
				return false;
			}
			if ((cpu = pcpu_others(ms, c, c->va + (size_t)e * c->kval, e, &b,
					       ptrs)) >= 0) {
				snprintf(what, n, "element %u, CPU %d's copy (the run was on CPU %d), "
					 "byte %ld: kernel %#x, interpreter %#x", e, cpu, ms->cpu, b,
					 c->va[(size_t)e * c->kval + (size_t)cpu * c->stride + b],
					 ipcopy(c, cpu, e)[b]);
				return false;
			}
		}
		return true;
	}
	for (uint32_t e = 0; e < c->na; e++) {
		const uint8_t *kk = c->ka + (size_t)e * c->ksize, *k = kval_of(ms, c, c->va, e);
		long s = key_find(c->ik, c->n, c->iu, kk, c->ksize);

		hex_key(key, sizeof(key), kk, c->ksize);
		if (s < 0) {
			snprintf(what, n, "key %s: in the kernel's map, not in the interpreter's", key);
			return false;
		}
		if ((b = value_diff(c, k, c->iv + (size_t)s * c->vsize, ptrs)) >= 0) {
			snprintf(what, n, "key %s, byte %ld: kernel %#x, interpreter %#x", key, b,
				 k[b], c->iv[(size_t)s * c->vsize + b]);
			return false;
		}
		if ((cpu = pcpu_others(ms, c, c->va + (size_t)e * c->kval, (uint32_t)s, &b,
				       ptrs)) >= 0) {
			snprintf(what, n, "key %s, CPU %d's copy (the run was on CPU %d), byte %ld: "
				 "kernel %#x, interpreter %#x", key, cpu, ms->cpu, b,
				 c->va[(size_t)e * c->kval + (size_t)cpu * c->stride + b],
				 ipcopy(c, cpu, (uint32_t)s)[b]);
			return false;
		}
	}
	for (uint32_t s = 0; s < c->n; s++)
		if (c->iu[s] && key_find(c->ka, c->na, NULL, c->ik + (size_t)s * c->ksize,
					 c->ksize) < 0) {
			hex_key(key, sizeof(key), c->ik + (size_t)s * c->ksize, c->ksize);
			snprintf(what, n, "key %s: in the interpreter's map, not in the kernel's",
				 key);
			return false;
		}
	return true;
}

/* Whether the interpreter's maps are the kernel's after the run; else which map first differs
 * (*which, an index in ms) and how (what).  An LRU map the kernel may have evicted from is
 * not compared (lru_may_evict). */
static bool map_set__same(const struct map_set *ms, size_t *which, char *what, size_t n,
			  uint32_t *ptrs)
{
	uint32_t none = 0;

	for (size_t k = 0; k < ms->n; k++) {
		if (lru_may_evict(&ms->m[k]))
			continue;
		if (!map_cmp__same(ms, &ms->m[k], what, n, ptrs ? ptrs : &none)) {
			*which = k;
			return false;
		}
	}
	return true;
}

/* One interpreter run on input (copied: the program may write its packet).  out receives the
 * packet afterwards.  The maps of ms start from the kernel's values before its run and receive
 * the interpreter's afterwards (forged by o->forge_map when set). */
/* (*unwritten: the run read stack bytes no instruction wrote, oracle/exec/stackinit.h — the
 * interpreter's frames start zeroed, the kernel's hold what was there before, so such runs are
 * not comparable) */
static int interp_once(struct interp_result *ir, const struct ebpf_object *obj,
		       const struct ebpf_prog *prog, uint32_t prog_type, const uint8_t *input,
		       size_t len, uint64_t budget, int vma, uint8_t *out, bool *unwritten,
		       struct map_set *ms,
		       const struct kdiff_opts *o, uint64_t may_goto, uint64_t nomem)
{
	struct interp_code *code = NULL;
	struct interp_map *maps = NULL;
	struct interp_env env = { 0 };
	struct stackinit_watch *w = malloc(sizeof(*w));
	uint8_t *probes = NULL;
	size_t nmaps = obj ? obj->map_cnt : 0;
	struct diag d;
	int err;

	diag_clear(&d);
	if (!w)
		return -ENOMEM;
	if ((err = interp_prepare(&code, prog, &d))) {
		free(w);
		return err;
	}
	maps = calloc(nmaps ? nmaps : 1, sizeof(*maps));
	probes = malloc(interp_code__slots(code));
	if (!maps || !probes) {
		interp_code__free(code);
		free(maps);
		free(probes);
		free(w);
		return -ENOMEM;
	}
	memset(probes, 1, interp_code__slots(code));
	stackinit_watch_init(w, prog->insns, (uint32_t)prog->len, NULL);
	env.probes = probes;
	env.visit = stackinit_visit;
	env.arg = w;
	for (size_t m = 0; m < nmaps; m++)
		maps[m].def = obj->maps[m];
	for (size_t k = 0; k < ms->n; k++) {
		struct map_cmp *c = &ms->m[k];

		map_cmp__start(ms, c);
		maps[c->m].values = c->iv;
		maps[c->m].keys = c->ik;
		maps[c->m].used = c->iu;
		maps[c->m].pcpu = c->ip;
	}
	/* (the kernel's run is pinned to ms->cpu: per-CPU maps, cpu_bound) */
	if (ms->cpu >= 0 && ms->ncpus > 0 && ms->ncpus <= (int)INTERP_MAX_CPUS &&
	    ms->cpu < ms->ncpus) {
		env.ncpus = (unsigned)ms->ncpus;
		env.cpu = (unsigned)ms->cpu;
	}
	memcpy(out, input, len);
	env.ctx_kind = check_ctx_kind(prog_type);
	env.prog_type = prog_type;
	env.attach_type = ms->attach_type;
	env.input = out;
	env.input_len = len;
	env.vma_all = vma >= 0 ? (uint8_t)(vma + 1) : 0;
	env.maps = maps;
	env.map_cnt = nmaps;
	env.step_budget = budget;
	env.timer_horizon = ms->timers ? KDIFF_TIMER_SHORT : 0;
	env.may_goto_budget = may_goto;
	env.timer_nomem = nomem;
	env.test_run_sock = ms->sock;
	env.replay = ms->replay;
	env.replay_len = ms->replay_len;
	err = interp_run(code, &env, ir);
	*unwritten = w->bad;
	for (size_t k = 0; k < ms->n; k++)
		ms->m[k].upd_peak = maps[ms->m[k].m].upd_peak;
	for (size_t k = 0; o->forge_map && k < ms->n; k++)
		o->forge_map(o->forge_arg, ms->m[k].m, ms->m[k].iv,
			     (size_t)ms->m[k].n * ms->m[k].vsize);
	free(maps);
	free(probes);
	free(w);
	interp_code__free(code);
	return err;
}

/* The bytes of the input BPF_PROG_TEST_RUN pulls before the program runs: the Ethernet header
 * of a socket filter's or a cgroup_skb program's packet (bpf_prog_test_run_skb: not is_l2, the
 * data starts at the network header and len is 14 less), which the interpreter's input, the
 * packet as the program sees it, does not hold. */
static size_t l2_skip(uint32_t t, size_t len)
{
	return (t == BPF_PROG_TYPE_SOCKET_FILTER || t == BPF_PROG_TYPE_CGROUP_SKB) && len >= 14
		       ? 14 : 0;
}

static bool packet_type(uint32_t t)
{
	return t == BPF_PROG_TYPE_XDP || t == BPF_PROG_TYPE_SCHED_CLS ||
	       t == BPF_PROG_TYPE_SCHED_ACT;
}

/* bpf_find_vma's outcomes as the interpreter draws them (interp.h: bit 0 the vma found, bit 1
 * -EBUSY when not): -ENOENT, found (the callback once, r0 = 0), -EBUSY.  What the kernel finds
 * depends on the address space of the task that runs the test (the caller's), which the
 * interpreter does not know; every call of one run gets one of them (interp_env.vma_all: not
 * drawn from the helper stream, which a run calling it more often than the stream is long ran
 * past, and which bpf_user_ringbuf_drain draws its samples from: the kernel's user ring buffer
 * is empty, the stream's 0). */
static const uint8_t vma_outcomes[] = { 0, 1, 2 };

/* The interpreter's run compared with the kernel's: for a program calling bpf_find_vma, the
 * first of its outcomes (the same for every call of the run: the kernel's test runs give each
 * call the task of the caller, and the generated programs one address per run; a run whose
 * calls would differ fails every one and is reported) whose r0, packet and maps are the kernel's,
 * else the first whose r0 and packet are (its maps differ), else the first; for any other
 * program the one run with no helper data. */
static int interp_compare(struct interp_result *ir, const struct ebpf_object *obj,
			  const struct ebpf_prog *prog, uint32_t prog_type, const uint8_t *input,
			  size_t len, uint64_t budget, const struct kernel_run_result *kr,
			  const uint8_t *kout, uint8_t *out, bool *unwritten, int *outcome,
			  struct map_set *ms, const struct kdiff_opts *o)
{
	bool vma = calls_helper(prog, BPF_FUNC_find_vma);
	size_t n = vma ? sizeof(vma_outcomes) : 1, pick = 0;
	char what[200];
	size_t which;
	bool partial = false;
	int err;

	*outcome = -1;
	for (size_t k = 0; k < n; k++) {
		bool same;

		if ((err = interp_once(ir, obj, prog, prog_type, input, len, budget,
				       vma ? vma_outcomes[k] : -1, out, unwritten, ms, o, 0, 0)))
			return err;
		if (!vma)
			return 0;
		same = ir->trap == INTERP_OK && (uint32_t)ir->r0 == kr->retval &&
		       (!packet_type(prog_type) ||
			(kr->data_size_out == len && !memcmp(kout, out, len)));
		if (same && map_set__same(ms, &which, what, sizeof(what), NULL)) {
			*outcome = vma_outcomes[k];
			return 0;
		}
		if (same && !partial) {
			partial = true;
			pick = k;
		}
	}
	/* (none is the kernel's: report the first whose r0 and packet are, for its maps, else
	 * the first, -ENOENT; run again for its packet and maps) */
	return interp_once(ir, obj, prog, prog_type, input, len, budget, vma_outcomes[pick], out,
			   unwritten, ms, o, 0, 0);
}

/* kernel_prog__test_run with the calling thread pinned to cpu (-1: where it runs), its
 * affinity restored after: whether the kernel ran it. */
static bool pinned_test_run(const struct kernel_prog *kp, const struct kernel_run_opts *ro,
			    struct kernel_run_result *kr, int cpu, struct diag *d)
{
	cpu_set_t saved, one;
	bool ran;

	if (cpu < 0)
		return !kernel_prog__test_run(kp, ro, kr, d);
	if (sched_getaffinity(0, sizeof(saved), &saved))
		return false;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return false;
	ran = !kernel_prog__test_run(kp, ro, kr, d);
	sched_setaffinity(0, sizeof(saved), &saved);
	return ran;
}

/* may_goto (kdiff.h): the interpreter's run of a program that holds one, cut by the step
 * budget, is run again with KDIFF_MAY_GOTO_STEPS (the count-based budget, 2^23 a frame, run to
 * its end); a run that spent a may_goto budget is compared when its result (trap, r0, packet,
 * maps) is the same under the budgets of may_goto_alt as under 2^23: this kernel's x86-64 JIT
 * times may_goto (a count of 0xffff refilled until 250 ms passed), so the number of
 * iterations it allows is not known, only that it is at least 0xffff. */
#define KDIFF_MAY_GOTO_STEPS (1ull << 28)
static const uint64_t may_goto_alt[] = { 0xffff, 5 * 0x10000 + 1 };

static bool holds_may_goto(const struct ebpf_prog *prog)
{
	for (size_t pc = 0; pc < prog->len; pc++)
		if (prog->insns[pc].code == (BPF_JMP | BPF_JCOND))
			return true;
	return false;
}

/* The interpreter's maps of ms (values, keys, used flags) saved to or restored from buf. */
static size_t map_set__bytes(const struct map_set *ms)
{
	size_t n = 0;

	for (size_t k = 0; k < ms->n; k++)
		n += (size_t)ms->m[k].n * (ms->m[k].vsize + (ms->m[k].hash ? ms->m[k].ksize + 1 : 0));
	return n;
}

static void map_set__copy(struct map_set *ms, uint8_t *buf, bool save)
{
	for (size_t k = 0; k < ms->n; k++) {
		struct map_cmp *c = &ms->m[k];
		uint8_t *part[3] = { c->iv, c->ik, c->iu };
		size_t len[3] = { (size_t)c->n * c->vsize, c->hash ? (size_t)c->n * c->ksize : 0,
				  c->hash ? c->n : 0 };

		for (int p = 0; p < 3; p++) {
			if (!len[p])
				continue;
			memcpy(save ? buf : part[p], save ? part[p] : buf, len[p]);
			buf += len[p];
		}
	}
}

/* Whether the interpreter's run ir (its packet out, its maps in ms) is the same under every
 * budget of may_goto_alt: 1 yes, 0 no, -errno.  ms keeps ir's maps. */
static int may_goto_free(const struct interp_result *ir, const struct ebpf_object *obj,
			 const struct ebpf_prog *prog, uint32_t prog_type, const uint8_t *input,
			 size_t len, uint64_t budget, const uint8_t *out, struct map_set *ms,
			 const struct kdiff_opts *o)
{
	size_t nb = map_set__bytes(ms);
	uint8_t *saved = malloc(nb + 1), *alt = malloc(nb + 1), *aout = malloc(len + 1);
	struct interp_result ar;
	bool unwritten;
	int err = 0, same = 1;

	if (!saved || !alt || !aout) {
		err = -ENOMEM;
		goto out;
	}
	map_set__copy(ms, saved, true);
	for (size_t k = 0; k < sizeof(may_goto_alt) / sizeof(may_goto_alt[0]) && same; k++) {
		if ((err = interp_once(&ar, obj, prog, prog_type, input, len, budget, -1,
				       aout, &unwritten, ms, o, may_goto_alt[k], 0)))
			goto out;
		map_set__copy(ms, alt, true);
		same = ar.trap == ir->trap && ar.r0 == ir->r0 && !memcmp(aout, out, len) &&
		       !memcmp(alt, saved, nb) && !ar.timer_trap == !ir->timer_trap;
	}
out:
	if (saved)
		map_set__copy(ms, saved, false);
	free(saved);
	free(alt);
	free(aout);
	return err ? err : same;
}

/* A program that arms timers (kdiff.h): the kernel fires them after BPF_PROG_TEST_RUN returned
 * (t1; it began at t0), in softirq, at their expiry.  The interpreter's run fired those expiring
 * within KDIFF_TIMER_SHORT (env.timer_horizon) and left the others armed.  Its maps are the
 * kernel's once the kernel's short timers fired and before a long one can: the maps are read
 * again until they are the interpreter's or TIMER_WAIT_MS passed (what differs then is
 * reported), no read started after timer_read_by (the earliest expiry of a timer left armed,
 * less TIMER_READ_MARGIN_MS; no limit when none is left).  Left out, counted: a run whose
 * timers the kernel's timing decides (a cancel or a callback replaced less than 1 ms before the
 * expiry, interp_result.timer_raced), a timer left armed to expire within KDIFF_TIMER_LONG (or
 * past the interpreter's firings), a callback the interpreter trapped in, a last read that
 * ended after timer_read_by (ms->read_ms).  0 or -errno. */
static int timer_wait(struct map_set *ms, const struct ebpf_object *obj,
		      const struct interp_result *ir, bool timer_trap, uint64_t t0, uint64_t t1,
		      char *what, size_t n)
{
	const struct timespec poll = { 0, TIMER_POLL_NS };
	uint64_t by, now;
	size_t which;
	int err;

	if (timer_trap || ir->timer_raced || (ir->timer_left && ir->timer_next < KDIFF_TIMER_LONG)) {
		map_set__drop(ms, obj, timer_trap ? "a timer callback trapped in the interpreter" :
			      ir->timer_raced ? "the kernel's timing decides what a timer did (a "
			      "cancel or a new callback less than 1 ms before its expiry)" :
			      "a timer left armed less than 1 s ahead (or past the interpreter's "
			      "firings)");
		return 0;
	}
	by = timer_read_by(ir, t0);
	while (!map_set__same(ms, &which, what, n, NULL) && (now = kdiff_now_ms(ms->o)) < by &&
	       now < t1 + TIMER_WAIT_MS) {
		nanosleep(&poll, NULL);
		if ((err = map_set__read(ms, true)))
			return err;
	}
	if (ms->read_ms >= by) {
		char why[160];

		snprintf(why, sizeof(why), "read too late: %" PRIu64 " ms after the run began, a "
			 "timer armed %" PRIu64 " ms ahead may have fired", ms->read_ms - t0,
			 ir->timer_next / 1000000);
		map_set__drop(ms, obj, why);
	}
	return 0;
}

/* Whether the interpreter's run (r0, its packet out) is the kernel's (kr, kout): r0's low 32
 * bits, and the packet of a type that has one. */
static bool same_result(const struct interp_result *ir, const uint8_t *out,
			const struct kernel_run_result *kr, const uint8_t *kout, size_t len,
			uint32_t prog_type)
{
	return ir->trap == INTERP_OK && (uint32_t)ir->r0 == kr->retval &&
	       (!packet_type(prog_type) || (kr->data_size_out == len && !memcmp(kout, out, len)));
}

/* bpf_timer_init's -ENOMEM (kdiff.h): the kernel allocates each timer GFP_ATOMIC, charged to
 * the map's memory cgroup, and under memory pressure the allocation fails now and then; the
 * timer is then not initialized, its set_callback and start give -EINVAL, and its callback
 * never runs (seed 2006's program 667: r0 short by 22, -EINVAL, in 5 of 100 kernel --diff runs
 * at load 10, never in a replay).  When the interpreter's run (ir, out, the maps of ms) is not
 * the kernel's on r0 or the packet (with maps: on its maps, the kernel's last read; then a run
 * whose timers the kernel's timing decides, or that leaves one armed less than 1 s ahead, is
 * no match), the runs in which the run's init calls from the k-th on fail are tried (k from
 * the last call back to the first: the pressure lasting the rest of the run, as every failure
 * seen here did), then each call failing alone; the first that matches replaces the run
 * (*mask: its failing calls, env.timer_nomem), else the run is made again as it was (*mask
 * 0).  0 or -errno. */
static int timer_nomem_pick(struct interp_result *ir, const struct ebpf_object *obj,
			    const struct ebpf_prog *prog, uint32_t prog_type, const uint8_t *input,
			    size_t len, uint64_t budget, const struct kernel_run_result *kr,
			    const uint8_t *kout, uint8_t *out, bool *unwritten, struct map_set *ms,
			    const struct kdiff_opts *o, bool maps, uint64_t *mask)
{
	uint32_t n = ir->timer_inits < 64 ? ir->timer_inits : 64;
	char what[200];
	size_t which;
	int err;

	*mask = 0;
	for (uint32_t t = 0; t < 2 * n; t++) {
		uint32_t k = t < n ? n - 1 - t : t - n;
		uint64_t m = t < n ? ~0ull << k : 1ull << k;

		if (t >= n && k + 1 == n)
			continue;	/* (the last alone: the first suffix) */
		if ((err = interp_once(ir, obj, prog, prog_type, input, len, budget, -1, out,
				       unwritten, ms, o, 0, m)))
			return err;
		if (same_result(ir, out, kr, kout, len, prog_type) &&
		    (!maps || (!ir->timer_trap && !ir->timer_raced &&
			       !(ir->timer_left && ir->timer_next < KDIFF_TIMER_LONG) &&
			       map_set__same(ms, &which, what, sizeof(what), NULL)))) {
			*mask = n < 64 ? m & ((1ull << n) - 1) : m;	/* (the calls made) */
			return 0;
		}
	}
	return interp_once(ir, obj, prog, prog_type, input, len, budget, -1, out, unwritten,
			   ms, o, 0, 0);
}

/* Runs input through the kernel and the interpreter and compares.  Socket filters see the
 * frame after its Ethernet header in the interpreter's model (interp.h) and are compared on
 * r0 only; XDP and tc programs also on the packet; every type on its array maps (kdiff.h). */
static int compare_run(struct kdiff_result *res, const struct kernel_prog *okp,
		       const struct recorder *rc, const struct ebpf_object *obj,
		       const struct ebpf_prog *prog, const uint8_t *input, size_t len,
		       const struct kdiff_opts *o, bool *diff)
{
	/* (the recording program runs in the original's place: the same r0, packet and maps) */
	const struct kernel_prog *kp = rc->kp ? rc->kp : okp;
	uint8_t nc = rc->nc ? rc->nc : nondet_why(obj, prog, rc->kp != NULL);
	uint64_t *log = NULL, logged = 0;
	struct kernel_run_opts ro = { .sz = sizeof(ro) };
	struct kernel_run_result kr;
	struct interp_result ir;
	uint8_t *kout = malloc(len + COMPARE_SLACK), *iout = malloc(len + 1);
	size_t skip = l2_skip(kp->prog_type, len);
	size_t mk = 0;
	char mwhat[200] = "";
	struct map_set ms = { 0 };
	uint8_t sock[INTERP_SOCK_SIZE];
	bool unwritten = false, timer_trap, tried;
	uint64_t t0, t1, budget;
	int mg = 0;
	struct diag d;
	int err = 0, outcome;

	*diff = false;
	res->same_maps = true;
	res->maps_compared = 0;
	res->hash_maps_compared = res->percpu_maps_compared = res->timer_maps_compared = 0;
	res->maps_left = 0;
	res->maps_left_why[0] = 0;
	if (!kout || !iout) {
		err = -ENOMEM;
		goto out;
	}
	free(res->input);
	res->input = malloc(len ? len : 1);
	if (!res->input) {
		err = -ENOMEM;
		goto out;
	}
	memcpy(res->input, input, len);
	res->input_len = len;
	if (ebpf_prog_ctx_model(kp->prog_type) == EBPF_CTX_RO) {
		/* (the interpreter's read-only context is the input: a raw tracepoint's
		 * arguments, BPF_PROG_TEST_RUN's ctx_in) */
		ro.ctx_in = input;
		ro.ctx_size_in = len;
	} else {
		ro.data_in = input;
		ro.data_size_in = len;
		ro.data_out = kout;
		ro.data_size_out = len + COMPARE_SLACK;
	}
	if ((err = map_set__open(&ms, kp, obj, prog, nc != KDIFF_NC_NONE, res->test_runs > 0)))
		goto out;
	if (rc->kp && (err = recorder_clear(rc, &log)))
		goto out;
	ms.o = o;
	/* (skb->sk: the socket the test run allocates, made from the whole frame, the Ethernet
	 * header a socket filter's model drops included; XDP: its lookups of port 0) */
	interp_test_run_sock(sock, input, len);
	ms.sock = sock;
	ms.attach_type = kp->attach_type;
	diag_clear(&d);
	t0 = kdiff_now_ms(o);
	res->ran = pinned_test_run(kp, &ro, &kr, ms.cpu, &d);
	t1 = kdiff_now_ms(o);
	if (!res->ran)
		goto out;	/* a type the kernel cannot run, or an input it refuses */
	res->test_runs++;
	if (o->forge_retval)
		o->forge_retval(o->forge_arg, &kr.retval);
	res->kernel_retval = kr.retval;
	if ((err = map_set__read(&ms, true)))
		goto out;
	if (rc->kp) {
		if (bpf_map_lookup_elem(rc->fd, &(uint32_t){ 0 }, log)) {
			err = -errno;
			goto out;
		}
		logged = log[0];
		ms.replay = log + 1;
		ms.replay_len = logged < KDIFF_LOG_RESULTS ? logged : KDIFF_LOG_RESULTS;
		if (o->forge_replay)
			o->forge_replay(o->forge_arg, log + 1, ms.replay_len);
	}
	budget = o->step_budget ? o->step_budget : 100000000;
	if ((err = interp_compare(&ir, obj, prog, kp->prog_type, input + skip, len - skip, budget,
				  &kr, kout, iout, &unwritten, &outcome, &ms, o)))
		goto out;
	if (ir.trap == INTERP_TRAP_STEPS && budget < KDIFF_MAY_GOTO_STEPS && holds_may_goto(prog)) {
		budget = KDIFF_MAY_GOTO_STEPS;
		if ((err = interp_compare(&ir, obj, prog, kp->prog_type, input + skip, len - skip,
					  budget, &kr, kout, iout, &unwritten, &outcome, &ms, o)))
			goto out;
	}
	res->timer_nomem = 0;
	if (calls_helper(prog, BPF_FUNC_timer_init) && nc == KDIFF_NC_NONE && outcome < 0 &&
	    !ir.may_goto_spent && ir.trap == INTERP_OK && ir.timer_inits &&
	    !same_result(&ir, iout, &kr, kout, len - skip, kp->prog_type) &&
	    (err = timer_nomem_pick(&ir, obj, prog, kp->prog_type, input + skip, len - skip, budget,
				    &kr, kout, iout, &unwritten, &ms, o, false, &res->timer_nomem)))
		goto out;
	res->may_goto_spent = ir.may_goto_spent;
	tried = ir.may_goto_spent && nc == KDIFF_NC_NONE && outcome < 0;
	if (tried && (mg = may_goto_free(&ir, obj, prog, kp->prog_type, input + skip, len - skip,
					 budget, iout, &ms, o)) < 0) {
		err = mg;
		goto out;
	}
	res->vma_outcome = (int8_t)outcome;
	timer_trap = ir.timer_trap;
	/* (a trap in a timer callback the interpreter fired after the program is no result of
	 * this run: BPF_PROG_TEST_RUN returns before a timer fires; the verdict's runs judge it.
	 * The program itself may have been cut by the step budget before them: no result) */
	if (ir.timer_trap)
		ir.trap = ir.steps_cut ? INTERP_TRAP_STEPS : INTERP_OK;
	res->interp_r0 = ir.r0;
	res->interp_trap = (uint8_t)ir.trap;
	/* (a run that spent a may_goto budget followed the count-based rule; this kernel's JIT may
	 * time may_goto instead, and then runs the loop far longer: compared only when the result
	 * is the same under other budgets, may_goto_free.  A bpf_loop nr above 2^32 is
	 * a u32 to the helper and -E2BIG to the inlined loop the verifier may emit instead.  A
	 * run cut by the step budget has no result: the kernel runs bpf_loop's 2^23 calls) */
	res->may_goto_free = ir.may_goto_spent && mg == 1;
	res->may_goto_dep = ir.may_goto_spent && tried && mg == 0;
	/* (why not compared: the first that applies, kdiff.h's enum kdiff_nc) */
	if (nc == KDIFF_NC_NONE)
		nc = cpu_bound(prog) && ms.cpu < 0 ? KDIFF_NC_UNPINNED :
		     ir.trap == INTERP_TRAP_CALL || ir.trap == INTERP_TRAP_HELPER ? KDIFF_NC_TRAP :
		     ir.trap == INTERP_TRAP_STEPS ? KDIFF_NC_STEPS :
		     ir.may_goto_spent && mg != 1 ? KDIFF_NC_MAY_GOTO :
		     ir.bpf_loop_nr64 ? KDIFF_NC_NR64 :
		     ir.kernel_read ? KDIFF_NC_KERNEL_READ :
		     ir.sock_drawn ? KDIFF_NC_SOCK :
		     ir.replay_short || logged > KDIFF_LOG_RESULTS ? KDIFF_NC_REPLAY_SHORT :
		     ir.replay_other ? KDIFF_NC_REPLAY_OTHER :
		     unwritten ? KDIFF_NC_UNWRITTEN : KDIFF_NC_NONE;
	res->nc = nc;
	snprintf(res->nc_why, sizeof(res->nc_why), "%s",
		 nc == KDIFF_NC_RECORD_REFUSED ? rc->why : "");
	res->nondeterministic = nc != KDIFF_NC_NONE;
	res->replay = rc->kp != NULL;
	res->replayed = rc->kp ? ir.replayed : 0;
	res->same_retval = ir.trap == INTERP_OK && (uint32_t)ir.r0 == kr.retval;
	res->same_packet = !packet_type(kp->prog_type) ||
			   (kr.data_size_out == len && !memcmp(kout, iout, len));
	if (!res->nondeterministic && ms.timers && ms.n &&
	    (err = timer_wait(&ms, obj, &ir, timer_trap, t0, t1, mwhat, sizeof(mwhat))))
		goto out;
	res->map_ptr_slots = 0;
	res->same_maps = map_set__same(&ms, &mk, mwhat, sizeof(mwhat), &res->map_ptr_slots);
	/* (the maps may tell a timer the kernel could not allocate, whose callback never ran,
	 * alone or besides those r0 told of; the kernel's maps were read for the last time
	 * above) */
	if (!res->same_maps && res->same_retval && res->same_packet && !res->nondeterministic &&
	    ms.n && calls_helper(prog, BPF_FUNC_timer_init) &&
	    ir.timer_inits && !ir.may_goto_spent && outcome < 0) {
		if ((err = timer_nomem_pick(&ir, obj, prog, kp->prog_type, input + skip,
					    len - skip, budget, &kr, kout, iout, &unwritten, &ms, o,
					    true, &res->timer_nomem)))
			goto out;
		res->map_ptr_slots = 0;
		res->same_maps = map_set__same(&ms, &mk, mwhat, sizeof(mwhat),
					       &res->map_ptr_slots);
	}
	if (res->nondeterministic) {
		res->same_maps = true;
		goto out;
	}
	for (size_t k = 0; k < ms.n; k++) {
		if (lru_may_evict(&ms.m[k])) {
			map_set__leave(&ms, &obj->maps[ms.m[k].m], "an LRU map updated when it held "
				       "too many elements to rule out an eviction");
			continue;
		}
		res->maps_compared++;
		res->hash_maps_compared += ms.m[k].hash;
		res->percpu_maps_compared += ms.m[k].percpu;
		res->timer_maps_compared += ms.timers;
	}
	res->maps_left = ms.left;
	snprintf(res->maps_left_why, sizeof(res->maps_left_why), "%s", ms.why);
	*diff = true;
	if (ir.trap != INTERP_OK) {
		res->kind = KDIFF_TRAP;
		snprintf(res->text, sizeof(res->text), "the kernel ran it (r0 = %u) but the "
			 "interpreter trapped at pc %u: %.200s", kr.retval, ir.trap_pc, ir.reason);
	} else if (!res->same_retval) {
		res->kind = KDIFF_RETVAL;
		snprintf(res->text, sizeof(res->text), "r0 differs: kernel %u (%#x), interpreter "
			 "%" PRIu64 " (%#" PRIx64 ", low 32 bits %u)", kr.retval, kr.retval, ir.r0,
			 ir.r0, (uint32_t)ir.r0);
	} else if (!res->same_packet) {
		size_t at = 0;

		while (at < len && kr.data_size_out > at && kout[at] == iout[at])
			at++;
		res->kind = KDIFF_PACKET;
		snprintf(res->text, sizeof(res->text), "the packet after the run differs: kernel "
			 "%zu bytes, interpreter %zu; first difference at byte %zu",
			 kr.data_size_out, len, at);
	} else if (!res->same_maps) {
		const struct map_cmp *c = &ms.m[mk];

		res->kind = KDIFF_MAP;
		snprintf(res->text, sizeof(res->text), "map %u '%.64s' after the run differs: "
			 "%s (r0 = %u on both)%s%s", c->m, obj->maps[c->m].name, mwhat, kr.retval,
			 ms.timers ? " (read again for the timer callbacks for up to 300 ms)" : "",
			 res->timer_nomem ? " (the interpreter's run with bpf_timer_init calls "
			 "failing with -ENOMEM, which gives the kernel's r0)" : "");
	} else {
		*diff = false;
	}
out:
	map_set__free(&ms);
	free(kout);
	free(iout);
	free(log);
	return err;
}

/* Whether the program calls bpf_get_smp_processor_id: the kernel bounds its result by this
 * machine's CPU count, the interpreter draws it from the helper stream like any other. */
static bool calls_cpu_id(const struct ebpf_prog *prog)
{
	return calls_helper(prog, 8);
}

static uint64_t mix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The kernel's claims against the interpreter: the compared input first, then generated
 * inputs.  Helper results must be ones the real helpers can return: when the kernel bounds
 * one by a fact of this machine (the CPU id), every helper result is drawn below that bound,
 * which is still a possible value for every other helper the interpreter models. */
static int check_claims(struct kdiff_result *res, uint32_t prog_type,
			const struct ebpf_object *obj, const struct ebpf_prog *prog,
			const uint8_t *input, size_t input_len, const struct kdiff_opts *o)
{
	size_t skip = l2_skip(prog_type, input_len);
	struct check_opts co = { .sz = sizeof(co), .seed = o->seed, .runs = o->check_runs,
				 .input_len = input_len - skip,
				 .step_budget = o->step_budget ? o->step_budget : 100000000,
				 .ctx_kind = (int)check_ctx_kind(prog_type) + 1 };
	uint32_t runs = o->check_runs ? o->check_runs : 48;
	int cpus = libbpf_num_possible_cpus();
	uint8_t helper[256], *in = NULL;
	uint64_t seed = o->seed;
	int err;

	if (!calls_cpu_id(prog) || cpus <= 0) {
		co.input = input + skip;
		co.fixed_len = input_len - skip;
		if ((err = oracle_check(&res->check, obj, prog, &res->claims, &co)) ||
		    res->check.nfindings)
			return err;
		check_result__free(&res->check);
		co.input = NULL;
		co.fixed_len = 0;
		return oracle_check(&res->check, obj, prog, &res->claims, &co);
	}
	in = malloc(input_len + 1);
	if (!in)
		return -ENOMEM;
	co.helper_data = helper;
	co.helper_len = sizeof(helper);
	co.fixed_len = input_len - skip;
	err = 0;
	for (uint32_t run = 0; run <= runs && !err; run++) {
		/* little-endian words below the CPU count; 8-byte results get the same bound */
		memset(helper, 0, sizeof(helper));
		for (size_t w = 0; w + 4 <= sizeof(helper); w += 4)
			helper[w] = run == 0 ? 0 : (uint8_t)(mix(&seed) % (uint64_t)cpus);
		for (size_t i = 0; i < input_len; i++)
			in[i] = run == 0 ? input[i] : (uint8_t)mix(&seed);
		co.input = in + skip;
		check_result__free(&res->check);
		err = oracle_check(&res->check, obj, prog, &res->claims, &co);
		if (!err && res->check.nfindings)
			break;
	}
	free(in);
	return err;
}

int kdiff_run(struct kdiff_result *res, const struct ebpf_object *obj,
	      const struct ebpf_prog *prog, const struct kdiff_opts *uopts, struct diag *d)
{
	static const uint8_t zeros[64];
	struct kdiff_opts o = { 0 };
	struct kernel_prog *kp = NULL;
	struct recorder rc = { .fd = -1 };
	const uint8_t *input;
	size_t input_len;
	char bug[512];
	bool diff = false;
	int err;

	memset(res, 0, sizeof(*res));
	if (uopts)
		memcpy(&o, uopts, uopts->sz && uopts->sz < sizeof(o) ? uopts->sz : sizeof(o));
	input = o.input ? o.input : zeros;
	input_len = o.input ? o.input_len : sizeof(zeros);
	if ((err = load(&kp, obj, prog, &o, d)))
		return err;
	res->prog_type = kp->prog_type;
	res->accepted = kp->accepted;
	res->err = kp->err;
	snprintf(res->message, sizeof(res->message), "%s", kp->message);
	res->processed = kp->processed;
	res->verification_usec = kp->verification_usec;
	if (kdiff_log_reports_bug(kp->log, bug, sizeof(bug))) {
		res->kind = KDIFF_INVARIANT;
		snprintf(res->text, sizeof(res->text),
			 "the verifier reports a bug in itself: %.560s", bug);
		goto out;
	}
	if (!kp->accepted) {
		res->kind = KDIFF_REJECTED;
		snprintf(res->text, sizeof(res->text), "rejected (%s): %.560s", strerror(kp->err),
			 kp->message);
		goto out;
	}
	if ((err = claims_of(&res->claims, &res->cstats, &res->log_warnings, res->log_warning,
			     sizeof(res->log_warning), kp, obj, prog, &o, d)))
		goto out;

	if ((err = recorder_open(&rc, obj, prog, &o, d)))
		goto out;
	if ((err = check_claims(res, kp->prog_type, obj, prog, input, input_len, &o))) {
		err = diag_set(d, -err, "checking the kernel's claims: %s", strerror(-err));
		goto out;
	}
	if (res->check.nfindings) {
		const struct check_finding *cf = &res->check.findings[0];
		bool rdiff;

		/* the refuting input through the kernel as well: what the kernel runs is what we
		 * ran (socket filters and cgroup_skb programs get the Ethernet header the
		 * interpreter's model drops: l2_skip) */
		if (l2_skip(kp->prog_type, 14)) {
			uint8_t *frame = calloc(cf->input_len + 14, 1);

			if (!frame) {
				err = diag_set(d, ENOMEM, "out of memory");
				goto out;
			}
			memcpy(frame + 14, cf->input, cf->input_len);
			err = compare_run(res, kp, &rc, obj, prog, frame, cf->input_len + 14,
					  &o, &rdiff);
			free(frame);
		} else {
			err = compare_run(res, kp, &rc, obj, prog, cf->input, cf->input_len, &o,
					  &rdiff);
		}
		if (err) {
			err = diag_set(d, -err, "running the refuting input: %s", strerror(-err));
			goto out;
		}
		res->kind = KDIFF_CLAIM;
		snprintf(res->text, sizeof(res->text), "kernel claim refuted: %.400s; %s%s%s",
			 cf->text, !res->ran ? "the kernel cannot test-run this program type" :
			 res->nondeterministic ? "runs not comparable: " :
			 res->same_retval && res->same_packet && res->same_maps ?
			 "BPF_PROG_TEST_RUN agrees with the interpreter on that input" :
			 "but BPF_PROG_TEST_RUN and the interpreter disagree on that input",
			 res->ran && res->nondeterministic ? kdiff_nc_name(res->nc) : "",
			 res->ran && !res->nondeterministic && res->replay ?
			 " (the recording program's run, its helper results replayed)" : "");
		goto out;
	}
	if ((err = compare_run(res, kp, &rc, obj, prog, input, input_len, &o, &diff))) {
		err = diag_set(d, -err, "running the input: %s", strerror(-err));
		goto out;
	}
	if (!diff && res->ran && ebpf_prog_ctx_model(kp->prog_type) == EBPF_CTX_RO &&
	    calls_helper(prog, BPF_FUNC_find_vma)) {
		/* The input's words are numbers no vma holds (as good as always): run it again
		 * with each word an address of this process, which is the task's whose vmas
		 * bpf_find_vma searches in a test run, so that the kernel's runs call the
		 * callbacks too. */
		uint8_t *in = malloc(input_len + 1);
		uint64_t a = (uint64_t)(uintptr_t)vma_outcomes;

		if (!in) {
			err = diag_set(d, ENOMEM, "out of memory");
			goto out;
		}
		memcpy(in, input, input_len);
		for (size_t w = 0; w + 8 <= input_len; w += 8)
			memcpy(in + w, &a, 8);
		err = compare_run(res, kp, &rc, obj, prog, in, input_len, &o, &diff);
		free(in);
		if (err) {
			err = diag_set(d, -err, "running the input with addresses: %s",
				       strerror(-err));
			goto out;
		}
	}
	if (!diff) {
		res->kind = res->ran ? KDIFF_AGREE : KDIFF_UNRUNNABLE;
		snprintf(res->text, sizeof(res->text), "%u claims held on %" PRIu64 " runs%s",
			 res->claims.nranges, res->check.runs, !res->ran ?
			 "; the kernel cannot test-run this program type" :
			 res->may_goto_dep ? "; r0 not compared (a result that depends on "
			 "may_goto's budget)" :
			 res->nondeterministic ? "; r0 not compared" :
			 res->maps_compared ? "; r0, packet and maps agree" :
			 "; r0 and packet agree");
		if (res->ran && res->nondeterministic && !res->may_goto_dep)
			snprintf(res->text + strlen(res->text), sizeof(res->text) - strlen(res->text),
				 " (%s%s%.160s)", kdiff_nc_name(res->nc), res->nc_why[0] ? ": " : "",
				 res->nc_why);
		if (res->ran && !res->nondeterministic && res->replay)
			snprintf(res->text + strlen(res->text), sizeof(res->text) - strlen(res->text),
				 " (the recording program's run: %" PRIu64 " helper results "
				 "replayed)", res->replayed);
		if (res->ran && !res->nondeterministic && res->maps_compared)
			snprintf(res->text + strlen(res->text), sizeof(res->text) - strlen(res->text),
				 " (%u compared: %u hash, %u per-CPU)", res->maps_compared,
				 res->hash_maps_compared, res->percpu_maps_compared);
		if (res->ran && !res->nondeterministic && res->may_goto_free)
			snprintf(res->text + strlen(res->text), sizeof(res->text) - strlen(res->text),
				 " (a may_goto budget spent: the same result under budgets 0xffff, "
				 "5 * 2^16 + 1 and 2^23)");
		if (res->ran && !res->nondeterministic && res->maps_compared && res->map_ptr_slots)
			snprintf(res->text + strlen(res->text), sizeof(res->text) - strlen(res->text),
				 " (%u slots a pointer on both sides)", res->map_ptr_slots);
		if (res->ran && !res->nondeterministic && res->timer_nomem)
			snprintf(res->text + strlen(res->text), sizeof(res->text) - strlen(res->text),
				 " (the kernel's bpf_timer_init ran out of memory: compared with the "
				 "run whose init calls %#" PRIx64 " fail with -ENOMEM)",
				 res->timer_nomem);
		if (res->ran && !res->nondeterministic && res->maps_left)
			snprintf(res->text + strlen(res->text), sizeof(res->text) - strlen(res->text),
				 " (maps not compared: %u; %s)", res->maps_left, res->maps_left_why);
	}
out:
	kernel_prog__free(rc.kp);
	kernel_prog__free(kp);
	if (err)
		kdiff_result__free(res);
	return err;
}

void kdiff_result__free(struct kdiff_result *res)
{
	if (!res)
		return;
	claim_prog__free(&res->claims);
	check_result__free(&res->check);
	free(res->input);
	memset(res, 0, sizeof(*res));
}

/* An exit's claim admits retval when some value of each r0 claim there has those low 32 bits
 * (range_trunc over-approximates, so a refutation is certain). */
static bool exit_admits(const struct claim_prog *cp, uint32_t pc, uint32_t retval)
{
	for (uint32_t k = 0; k < cp->nranges; k++) {
		const struct claim_range *c = &cp->ranges[k];
		struct range low;

		if (c->pc != pc || c->loc != 0 || c->is_ptr)
			continue;
		low = range_trunc(&c->r, 4);
		if (!range_contains(&low, retval))
			return false;
	}
	return true;
}

int kdiff_judge_exit_r0(const struct claim_prog *cp, const struct ebpf_prog *prog,
			uint32_t retval, uint32_t *pc)
{
	bool any = false;

	for (size_t k = 0; k < prog->len; k++) {
		const struct bpf_insn *i = &prog->insns[k];

		if (ebpf_is_call(i) && (ebpf_is_pseudo_call(i) || ebpf_srcbit(i) != BPF_K))
			return -1;	/* an exit may be a callee's */
		if (ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC)
			return -1;	/* a callback's */
		if (ebpf_is_helper_call(i) && i->imm == 12)
			return -1;	/* a tail call ends in another program */
		if ((ebpf_class(i) == BPF_LD && (ebpf_mode(i) == BPF_ABS || ebpf_mode(i) == BPF_IND)) &&
		    retval == 0)
			return 0;	/* a legacy packet load past the end returns 0 */
	}
	for (size_t k = 0; k < prog->len; k += ebpf_insn_slots(&prog->insns[k])) {
		const struct bpf_insn *i = &prog->insns[k];

		if (!ebpf_is_jmp(i) || ebpf_op(i) != BPF_EXIT)
			continue;
		any = true;
		if (exit_admits(cp, (uint32_t)k, retval))
			return 0;
		*pc = (uint32_t)k;
	}
	return any ? 1 : -1;
}
