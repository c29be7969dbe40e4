/* The running kernel as a reference: its verifier's verdict, log and statistics for a program,
 * and its JIT's result for an input (BPF_PROG_TEST_RUN).
 *
 * Everything goes through libbpf's low-level API (bpf/bpf.h).  Loading creates the maps the
 * program references (global data maps filled with their initial contents, .rodata frozen so the
 * verifier sees constants), patches a copy of the instructions with the map fds, loads with
 * license "GPL" and the verifier log at BPF_LOG_LEVEL2 | BPF_LOG_STATS.  A struct kernel_prog holds
 * the only fds that outlive a call, the program's and, for an accepted program, its maps', until
 * kernel_prog__free(); nothing stays loaded after that.
 *
 * A rejection is a result, not an error: kernel_prog__load() returns 0 with accepted = false,
 * err = the kernel's errno and message = its last meaningful log line.  Errors (-errno with d
 * set) are for what prevents asking the kernel: bpf() unavailable, a map it cannot create, bad
 * arguments, memory.
 *
 * Facts of the 6.18 log this relies on (print_verification_stats() in kernel/bpf/verifier.c and
 * the log buffer of kernel/bpf/log.c; summed up in the shared prior-art notes, section 2,
 * ../shared/PRIOR-ART.md outside this repository): the statistics lines
 * "processed N insns (limit L) max_states_per_insn M total_states T peak_states P mark_read R" and
 * "verification time N usec", "stack depth ..."; the log is a rotating buffer that keeps the tail
 * and fails the load with ENOSPC when it was too small, even for an acceptable program (hiding the
 * verdict); since 6.4 the kernel also says how large the whole log is (log_true_size), so the
 * load is repeated at most once, with the buffer the kernel asked for.
 */
#ifndef BPFSCEV_ORACLE_KERNEL_H
#define BPFSCEV_ORACLE_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf/prog.h"
#include "util/err.h"

struct kernel_prog_opts {
	size_t sz;			/* sizeof(struct kernel_prog_opts) */
	uint32_t prog_type;		/* 0: the program's own; UNSPEC loads as a socket filter */
	uint32_t prog_flags;		/* BPF_F_TEST_REG_INVARIANTS, BPF_F_TEST_STATE_FREQ, ... */
	uint32_t log_level;		/* 0: BPF_LOG_LEVEL2 | BPF_LOG_STATS (2 | 4) */
	size_t log_size;		/* first log buffer; 0: 16 MiB (64 KiB for the statistics
					 * alone, log_level BPF_LOG_STATS).  On ENOSPC, loaded once
					 * more with the size the kernel reports ... */
	size_t log_max;			/* ... if at most this; 0: 256 MiB (the kernel's cap is
					 * 1 GiB).  Larger: the tail of the first buffer is kept.
					 * (Kernels before 6.4 report nothing: grown 4x.) */
	/* Load as a loader without CAP_PERFMON and CAP_SYS_ADMIN would (kernel_unpriv_call): the
	 * verifier's allow_uninit_stack, allow_ptr_leaks, bypass_spec_v1 and _v4 are all off.
	 * The maps and the functions' BTF are still made by the calling thread. */
	bool unprivileged;
};

struct kernel_prog {
	int fd;				/* the loaded program; -1 when rejected */
	bool accepted;
	int err;			/* positive errno of a rejection (EACCES, EINVAL, E2BIG...) */
	uint32_t prog_type;		/* the type it was loaded as */
	uint32_t attach_type;		/* expected_attach_type, from the section name */
	uint32_t attach_btf_id;		/* TRACING: the target's vmlinux BTF id; else 0 */
	char *log;			/* the verifier log, NUL-terminated (never NULL) */
	size_t log_len;
	bool log_truncated;		/* log_max was too small: log holds the tail; the verdict and
					 * statistics come from one more load at BPF_LOG_STATS */
	char message[512];		/* a rejection's reason: the last log line that is not a
					 * trace of the walk (instruction, state, pruning, precision,
					 * statistics lines); "" for an accepted program */
	bool log_silent;		/* a rejection whose log holds no such line (message: the
					 * errno's text) */
	long processed;			/* "processed N insns"; -1 when the log has no statistics */
	long max_states_per_insn, total_states, peak_states;	/* -1 when absent */
	long verification_usec;		/* "verification time N usec"; -1 when absent */
	/* The maps the program references, indexed like ebpf_object.maps (-1: not referenced),
	 * stay open while the program is loaded, as a loader holds them: with no user reference
	 * bpf_timer_init answers -EPERM ("maps with timers must be either held by user space or
	 * pinned"), and the differential reads them around a test run (oracle/kernel/kdiff.h).
	 * NULL for a rejected program (its maps are closed at once). */
	int *map_fds;
	size_t map_cnt;
};

/* Loads prog (maps from obj, which may be NULL for a program without map references).  Returns 0
 * with *out set, accepted or not; -errno with d set when the kernel could not be asked.  Free
 * with kernel_prog__free(). */
int kernel_prog__load(struct kernel_prog **out, const struct ebpf_object *obj,
		      const struct ebpf_prog *prog, const struct kernel_prog_opts *opts,
		      struct diag *d);
void kernel_prog__free(struct kernel_prog *kp);

struct kernel_run_opts {
	size_t sz;			/* sizeof(struct kernel_run_opts) */
	const void *data_in;		/* packet for skb and XDP programs; NULL: 64 zero bytes for
					 * program types that take a packet */
	size_t data_size_in;
	const void *ctx_in;		/* context (struct __sk_buff, xdp_md, raw tracepoint args);
					 * NULL: the kernel's default */
	size_t ctx_size_in;
	void *data_out;			/* optional: receives the packet after the run */
	size_t data_size_out;
	void *ctx_out;			/* optional */
	size_t ctx_size_out;
	uint32_t repeat;		/* runs, for timing; 0 = 1 (raw tracepoints: always 1) */
};

struct kernel_run_result {
	uint32_t retval;		/* r0 at exit, truncated to 32 bits by the kernel */
	uint32_t duration_ns;		/* mean per run */
	size_t data_size_out;		/* packet bytes produced (may exceed the buffer) */
	size_t ctx_size_out;
};

/* Runs an accepted program once (or repeat times).  Returns 0, or -errno with d set (the program
 * was rejected, the program type cannot be test-run, the input is refused). */
int kernel_prog__test_run(const struct kernel_prog *kp, const struct kernel_run_opts *opts,
			  struct kernel_run_result *res, struct diag *d);

/* Whether bpf() works here: probed once by loading "r0 = 0; exit" as a socket filter.  When it
 * does not, why receives one line ("bpf() refused: Operation not permitted").  The environment
 * variable BPFSCEV_NO_KERNEL=1 simulates a refusal (for testing the skip paths); it also makes
 * kernel_prog__load() fail with -EPERM. */
bool kernel_available(char *why, size_t n);

/* Whether the running kernel offers helper id to programs of type prog_type: libbpf's
 * libbpf_probe_bpf_helper, which loads `call id; exit` of that type and reads "unknown func" or
 * "program of this type cannot use helper" as no (an installed libbpf older than that last
 * reading has its "yes" confirmed by the same load here) (a build option can take a helper mainline
 * offers away: bpf_xdp_adjust_meta for XDP on this machine's 6.18.44).  1 offered, 0 not,
 * -errno when it cannot be asked (no bpf(), a type the probe cannot load without an attach
 * target).  Asked once per pair and process (types below 64, ids below 512); thread-safe. */
int kernel_helper_offered(uint32_t prog_type, int32_t id);

/* The unprivileged loader.  Capabilities are a thread's in Linux (capset acts on the calling
 * thread alone), so kernel_unpriv_call runs fn(arg) in a thread of its own that first drops every
 * capability but CAP_BPF and CAP_NET_ADMIN, from its effective and permitted sets (for good: the
 * thread ends after fn), by the raw capget/capset syscalls (no libcap): without CAP_PERFMON and
 * CAP_SYS_ADMIN the verifier applies the unprivileged rules (env->allow_uninit_stack,
 * allow_ptr_leaks, bypass_spec_v1/v4 = perfmon_capable()), and CAP_BPF keeps bpf() open whatever
 * kernel.unprivileged_bpf_disabled says, with bounded loops and the 1M-instruction limit
 * (bpf_capable()); CAP_NET_ADMIN is what the networking program types (XDP, tc, cgroup, ...)
 * need to load at all.  The caller's own capabilities are untouched.  Returns fn's result, or
 * -errno when the thread could not be made or the process lacks CAP_BPF or CAP_NET_ADMIN (why
 * in d). */
int kernel_unpriv_call(int (*fn)(void *), void *arg, struct diag *d);

/* Whether a program of this type needs CAP_PERFMON to load at all (is_perfmon_prog_type in
 * kernel/bpf/syscall.c: kprobes, tracepoints, perf events, raw tracepoints, BTF tracing, LSM,
 * struct_ops, extensions): the unprivileged loader cannot ask the kernel about it. */
bool kernel_type_needs_perfmon(uint32_t prog_type);

/* Whether a rejection message is one of the rules only the unprivileged verifier applies and
 * that are not about reading unwritten stack (which is "invalid [indirect |variable-offset ]read
 * from stack"): Spectre v1 sanitation ("... prohibited for !root", "could not be pushed for
 * speculative verification"), pointer leaks ("leaks addr", "leaking pointer from stack"),
 * pointer comparisons, pointer arithmetic the privileged verifier allows ("pointer arithmetic
 * prohibited", "pointer -= pointer prohibited", "partial copy of pointer"), and overwriting part
 * of a spilled pointer.  Returns the rule's name ("Spectre v1", "pointer leak", "pointer
 * comparison", "pointer arithmetic", "spilled pointer") or NULL. */
const char *kernel_unpriv_rule(const char *message);

#endif
