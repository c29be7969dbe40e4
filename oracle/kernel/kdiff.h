/* The running kernel as a differential oracle: one call loads a program (with
 * BPF_F_TEST_REG_INVARIANTS, so the verifier's own range-invariant violations fail the load),
 * reads its verifier log as claims (oracle/kernel/klog.h), checks those claims against runs of our
 * interpreter (oracle/exec/check.h), and compares execution itself — r0 and the output packet of
 * BPF_PROG_TEST_RUN against the interpreter for the same input.
 *
 * Verdicts, most serious first: the verifier reported a bug in itself (an invariant violation,
 * "verifier bug"); a kernel claim refuted by a run (a value the verifier said was impossible,
 * or an instruction it thought dead) — a verifier unsoundness, confirmed by running the same
 * input through BPF_PROG_TEST_RUN and finding that our interpreter and the kernel agree on it;
 * a different r0, packet or array map (our interpreter or the kernel's JIT is wrong); agreement.
 * A rejected program and a program type the kernel cannot test-run are results, not errors.
 * Record and replay: a program calling helpers whose result differs run to run and is all they
 * give (interp_helper_replayed: bpf_get_prandom_u32, the clocks, jiffies, the task's pid/tgid
 * and uid/gid, its cgroup id, the NUMA node) is test-run as a recording copy: after each such
 * call, r0 is appended to a log, a fresh one-element array map the copy alone references
 * (r1-r3 written: the verifier marks r1-r5 not initialized after a call, so no program it
 * accepts reads them; KDIFF_LOG_RESULTS results, the count going on past them; no branch, so
 * the verifier walks no more states than the original's), inserted with ebpf_insns_insert
 * (bpf/prog_copy.h: ebpf_prog_copy_map, every jump, call, function address, kfunc and global
 * function keeps its target).  The
 * interpreter runs the original program taking each such result from the log in order
 * (interp_env.replay), and r0, the packet and the maps are compared as for any run.  The
 * verdict, the log and its claims are the original program's (the copy is loaded with the
 * statistics log only, once the original was accepted); the copy, its maps and the log are
 * unloaded with the original.  Not compared, each with its reason (enum kdiff_nc, counted by
 * the campaign): a run asking for more results than the kernel's logged, or drawing anything
 * the log does not hold; a copy the kernel refuses or that cannot be made (a jump no longer
 * reaches).  Programs calling helpers whose other effects the interpreter draws (bytes a helper
 * writes: bpf_get_current_comm, a probe read; a ring's room) are not compared on r0, only on
 * claims.  Sockets: skb->sk is the socket
 * BPF_PROG_TEST_RUN allocates for an skb program (interp_env.test_run_sock, made from the whole
 * frame: interp_test_run_sock), so reads of its fields and bpf_sk_fullsock, bpf_tcp_sock and
 * bpf_get_listener_sock of it are compared, and so is a lookup (bpf_sk_lookup_tcp/udp,
 * bpf_skc_lookup_tcp) that finds nothing for sure (flags, a tuple's size, local port 0); a run
 * whose lookup could find one of this machine's sockets, or that gives a socket to another
 * helper (whose answer depends on the socket's state), draws and is not compared
 * (interp_result.sock_drawn).
 *
 * The maps a run writes are what a raw tracepoint exposes besides r0 (its context is read-only,
 * it has no packet).  For every program type, each map the program references that it may
 * write — an array or per-CPU array, a hash, LRU hash or per-CPU (LRU) hash map, without special
 * fields, at most KDIFF_MAP_ENTRIES elements and KDIFF_MAP_BYTES bytes — is read from the
 * kernel before and after each test run (an array element by element; a hash map's elements
 * with bpf_map_get_next_key and bpf_map_lookup_elem); the interpreter's run starts from the
 * kernel's "before" contents (caller-owned values and hash slots, interp.h) and its contents
 * afterwards must be the kernel's "after" ones: the same values, for a hash map the same set of
 * keys with the same values (the order is free).  Starting from what the kernel holds keeps a
 * second run of the same loaded program comparable (the bpf_find_vma run with addresses).  A
 * test run of a program with a per-CPU or LRU map is pinned to one CPU (the lowest this thread
 * may run on, the same for every run): the interpreter holds that CPU's copy of each per-CPU
 * value, and the other CPUs' copies must not change (a new hash element's are zeros).  An LRU
 * map's kernel evicts when a CPU's refill of its free list finds fewer than 128 free nodes, long
 * before the map is full; such a map is compared only when every update of the interpreter's
 * run (the kernel's, until they differ) found it empty or at least 128 elements short of
 * max_entries, and otherwise left out, as are LRU maps with per-CPU lists
 * (BPF_F_NO_COMMON_LRU).  Maps left out are counted with the first one's reason
 * (maps_left), never called agreeing.  A program that arms timers: the kernel fires them after
 * BPF_PROG_TEST_RUN returns, in softirq, at their expiry; the interpreter fires those that
 * expire within 1 ms (interp_env.timer_horizon) and leaves the others armed, and the kernel's
 * maps are read again until they are the interpreter's (300 ms at most: what differs then is
 * reported), the last read ending 200 ms before the earliest expiry of a timer the interpreter
 * left armed (counted from the run's start: a kernel timer fires at or after its expiry), so
 * before any of them can fire.  The 16 bytes of a struct bpf_timer are the kernel's own and not compared.  Left out,
 * counted: a run where a cancel or a new callback came less than 1 ms before the timer's expiry
 * (the kernel's timing decides whether it fired, interp_result.timer_raced), a timer left armed
 * less than 1 s ahead, a callback the interpreter trapped in, a second test run of the loaded
 * program (its timers initialized by the first).  The kernel allocates a timer in
 * bpf_timer_init GFP_ATOMIC, charged to the map's memory cgroup: under memory pressure the
 * allocation fails now and then (-ENOMEM; the timer stays uninitialized, set_callback and start
 * on it give -EINVAL, its callback never runs), which no run of the interpreter can foresee:
 * when the kernel's r0 or packet is not the interpreter's run's, or only its maps differ, the
 * runs with some of its init calls failing so are tried (those from the k-th on, then each
 * alone), and the first that gives the kernel's r0 and packet (and maps) is the run compared
 * (timer_nomem).  An aligned u64 of a value that holds a pointer on both sides (an
 * interpreter's address, a kernel one: a privileged program may store pointers in maps) is
 * compared as such, not by address (map_ptr_slots); a pointer against a
 * number is a difference.  Not compared at all: nondeterministic programs.  The claims are checked with helper results the real helpers can return: the kernel
 * bounds bpf_get_smp_processor_id by this machine's CPU count, so for programs calling it every
 * helper result is drawn below that count.  Socket filters are
 * run by BPF_PROG_TEST_RUN on the whole frame and by the interpreter on the frame after its
 * Ethernet header (oracle/exec/interp.h says why).
 *
 * Kernel findings are saved like every other finding (triage/kfinding.h, kind "kernel") and
 * shrunk with kdiff_reduce(), whose predicate asks the kernel again for every candidate.
 */
#ifndef BPFSCEV_ORACLE_KDIFF_H
#define BPFSCEV_ORACLE_KDIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf/prog.h"
#include "oracle/exec/check.h"
#include "oracle/kernel/klog.h"
#include "claims/claims.h"

enum kdiff_kind {
	KDIFF_AGREE,		/* claims held and the runs agreed */
	KDIFF_REJECTED,		/* the verifier refused it: nothing to compare */
	KDIFF_UNRUNNABLE,	/* claims held; the kernel cannot test-run this program type */
	KDIFF_INVARIANT,	/* the verifier reported a bug in itself */
	KDIFF_CLAIM,		/* a kernel claim refuted by a run: verifier unsoundness */
	KDIFF_RETVAL,		/* r0 (low 32 bits) differs: kernel versus interpreter */
	KDIFF_PACKET,		/* the packet after the run differs */
	KDIFF_TRAP,		/* the interpreter trapped on a program the kernel ran */
	KDIFF_MAP,		/* a map after the run differs */
};
/* Why a test run's r0, packet and maps were not compared (kdiff_result.nc), the first that
 * applies: a call whose result the interpreter draws and the log cannot give (helpers that write
 * memory or draw something else: a ring's room, a probe read, a comm; the iterators over kernel
 * objects and other kfuncs; callx; a socket map), the run not pinned to a CPU it asks for, the
 * interpreter's run trapped in a call it does not model or cut by its step budget, a result
 * that depends on may_goto's budget, a bpf_loop nr above 2^32, a read of a map's kernel
 * struct, a socket a lookup may find, stack bytes read before written; with the record and
 * replay (below): the log full or the interpreter's run asking for more results than the
 * kernel's logged, a draw the log does not hold, the recording program refused by the kernel
 * or not made (a jump no longer reaches). */
enum kdiff_nc {
	KDIFF_NC_NONE,
	KDIFF_NC_HELPER, KDIFF_NC_KFUNC, KDIFF_NC_CALLX, KDIFF_NC_SOCKMAP, KDIFF_NC_UNPINNED,
	KDIFF_NC_TRAP, KDIFF_NC_STEPS, KDIFF_NC_MAY_GOTO, KDIFF_NC_NR64, KDIFF_NC_KERNEL_READ,
	KDIFF_NC_SOCK, KDIFF_NC_UNWRITTEN, KDIFF_NC_REPLAY_SHORT, KDIFF_NC_REPLAY_OTHER,
	KDIFF_NC_RECORD_REFUSED, KDIFF_NC_RECORD_FAILED,
	KDIFF_NC_COUNT
};
const char *kdiff_nc_name(enum kdiff_nc n);
/* The results one recording test run logs at most (kdiff.h: record and replay) */
#define KDIFF_LOG_RESULTS 4096u
#define KDIFF_MAP_ENTRIES 1024u
#define KDIFF_MAP_BYTES (1u << 20)
const char *kdiff_kind_name(enum kdiff_kind k);

/* Whether a verifier log (or one message of it) reports a bug in the verifier itself: range
 * invariants broken (BPF_F_TEST_REG_INVARIANTS) or verifier_bug() (6.16+).  With line, the
 * log's line that says it is copied there. */
bool kdiff_log_reports_bug(const char *log, char *line, size_t n);

struct kdiff_opts {
	size_t sz;			/* sizeof(struct kdiff_opts) */
	uint32_t prog_type;		/* 0: the program's own */
	const uint8_t *input;		/* packet (or context) compared; NULL: 64 zeros */
	size_t input_len;
	uint32_t check_runs;		/* inputs the kernel's claims are checked on; 0 = 48 */
	uint64_t seed;			/* for those inputs */
	uint64_t step_budget;		/* interpreter instructions per run; 0 = 10^8 */
	bool no_invariants;		/* load without BPF_F_TEST_REG_INVARIANTS */
	size_t log_max;			/* level-2 log at most; larger walks get no claims.
					 * 0 = 256 MiB */
	/* Tests: called on the interpreter's values of each compared map (index in obj->maps)
	 * after each of its runs, to forge a difference the comparison must report. */
	void (*forge_map)(void *arg, uint32_t map, uint8_t *values, size_t len);
	/* Tests: called on the kernel's r0 after its test run, to stand in for a kernel whose
	 * run went otherwise (a bpf_timer_init that ran out of memory). */
	void (*forge_retval)(void *arg, uint32_t *retval);
	/* ... and on the kernel's values of each compared map at each read after its run */
	void (*forge_kmap)(void *arg, uint32_t map, uint8_t *values, size_t len);
	/* Tests: the clock of the timer deadlines in ms (NULL: CLOCK_MONOTONIC), read when the
	 * test run begins and ends and after each read of the kernel's maps that follows it */
	uint64_t (*clock_ms)(void *arg);
	/* Tests: called on the kernel's logged helper results (record and replay) before the
	 * interpreter replays them, to forge a replay that is not the kernel's run */
	void (*forge_replay)(void *arg, uint64_t *results, size_t n);
	void *forge_arg;
	bool no_replay;			/* the old rule: no record and replay */
};

struct kdiff_result {
	uint8_t kind;			/* enum kdiff_kind */
	char text[640];			/* one line: what was found */
	/* the verifier */
	uint32_t prog_type;		/* the type the program was loaded as */
	bool accepted;
	int err;			/* errno of a rejection */
	char message[512];		/* its reason */
	long processed, verification_usec;
	/* its log as claims */
	struct claim_prog claims;	/* owned */
	struct klog_claim_stats cstats;
	uint32_t log_warnings;
	char log_warning[256];
	struct check_result check;	/* owned: the claims against the interpreter */
	/* the compared run (for KDIFF_CLAIM: the refuting input) */
	bool ran;			/* BPF_PROG_TEST_RUN succeeded */
	bool nondeterministic;		/* r0 not compared: helpers with varying results */
	uint8_t nc;			/* ... why (enum kdiff_nc), KDIFF_NC_NONE: compared */
	char nc_why[160];		/* KDIFF_NC_RECORD_REFUSED: the kernel's message */
	bool replay;			/* the run was the recording program's, the
					 * interpreter's replayed its logged helper results ... */
	uint64_t replayed;		/* ... this many */
	uint32_t kernel_retval;
	uint64_t interp_r0;
	uint8_t interp_trap;		/* enum interp_trap */
	bool same_retval, same_packet;
	bool same_maps;			/* every compared map (true when none was) */
	uint32_t maps_compared;		/* maps compared after the run (above) */
	uint32_t hash_maps_compared;	/* ... of them hash maps */
	uint32_t percpu_maps_compared;	/* ... per-CPU maps (array or hash) */
	uint32_t timer_maps_compared;	/* ... of a program that arms timers */
	uint32_t map_ptr_slots;		/* value slots that held a pointer on both sides
					 * (compared as such, not by address) */
	uint32_t maps_left;		/* maps of those kinds the run writes, not compared */
	char maps_left_why[160];	/* the first one's name and reason */
	/* a program calling bpf_find_vma: the helper's outcome (interp.h's byte: 0 -ENOENT, 1 the
	 * vma found, 2 -EBUSY) under which the interpreter's run is the kernel's, -1 none */
	int8_t vma_outcome;
	uint32_t test_runs;		/* BPF_PROG_TEST_RUN calls made on the loaded program */
	/* the interpreter's run spent a may_goto budget (2^23 iterations of a frame, the
	 * count-based rule) ... and its result is the same under budgets of 0xffff and 5 * 2^16 + 1:
	 * compared with the kernel's (which times may_goto), else not (nondeterministic).
	 * may_goto_dep: the result was found to differ under those budgets (a run not compared
	 * for another reason first, helpers whose results the interpreter draws, is neither free
	 * nor dependent: it was not tried) */
	bool may_goto_spent, may_goto_free, may_goto_dep;
	/* a program calling bpf_timer_init: the init calls of the interpreter's run that failed
	 * with -ENOMEM in the run compared (interp_env.timer_nomem; bit i the i-th), 0 none: the
	 * kernel's r0 or packet was its run's only with them (above) */
	uint64_t timer_nomem;
	uint8_t *input;			/* owned: the input of the compared run */
	size_t input_len;
};

/* Loads, parses, checks and compares one program (maps from obj).  Returns 0 with res filled
 * (free with kdiff_result__free), -errno with d set when the kernel could not be asked. */
int kdiff_run(struct kdiff_result *res, const struct ebpf_object *obj,
	      const struct ebpf_prog *prog, const struct kdiff_opts *opts, struct diag *d);
void kdiff_result__free(struct kdiff_result *res);

/* The kernel as a judge of another analyzer's claims: retval is what BPF_PROG_TEST_RUN returned
 * (r0's low 32 bits) for prog, cp the analyzer's claims for it.  1 when no exit's range claims
 * on r0 admit it (*pc: an exit whose claim excludes it) — the claim is false on this kernel,
 * whatever the interpreter says (the timed may_goto of x86-64 runs a loop longer than the
 * count-based rule); 0 when one admits it; -1 when it cannot judge (bpf-to-bpf calls or
 * callbacks, whose exits are not the program's). */
int kdiff_judge_exit_r0(const struct claim_prog *cp, const struct ebpf_prog *prog,
			uint32_t retval, uint32_t *pc);

/* The kernel's claims for prog: load (with the invariant flag unless no_invariants), parse,
 * klog_claims.  *accepted says whether the kernel took it; claims are empty otherwise.
 * 0 or -errno with d set. */
int kdiff_kernel_claims(struct claim_prog *out, bool *accepted, const struct ebpf_object *obj,
			const struct ebpf_prog *prog, const struct kdiff_opts *opts,
			struct klog_claim_stats *st, struct diag *d);

#endif
