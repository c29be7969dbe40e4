/* The concrete interpreter (see interp.h for the semantics and the memory model).
 *
 * interp_prepare() turns a validated program into a compact array of decoded operations: one
 * 24-byte struct iop per instruction (an LD_IMM64 is one), immediates pre-extended, jump and
 * call targets as operation indexes, and for each operation the length of the straight-line run
 * from it to the next jump, call or exit.  exec() dispatches with computed goto over two copies
 * of one handler template (interp_loop.inc): the plain copy charges the step budget once per
 * straight-line run, so the common path pays nothing per instruction; the hooked copy counts
 * every step and checks the probe byte in each handler's own dispatch, and is used when probes
 * are set or when the remaining budget ends inside the next run.  Everything that is not a
 * register operation — memory outside the fast regions, helpers, calls, traps — lives in small
 * out-of-line functions.
 */
#include "oracle/exec/interp.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/helper_proto.h"

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define MAP_STORAGE_MAX (256ull << 20)	/* per-run storage of one map, bytes */
#define DEFAULT_BUDGET 100000000ull

/* The operations.  ALU and conditional jumps come in four forms each, in this order:
 * 64-bit immediate, 64-bit register, 32-bit immediate, 32-bit register. */
#define FORMS4(X, n) X(n##64K) X(n##64X) X(n##32K) X(n##32X)
#define WD(X, n) X(n##_W) X(n##_DW)
#define OP_LIST(X)                                                                          \
	FORMS4(X, ADD) FORMS4(X, SUB) FORMS4(X, MUL) FORMS4(X, DIV) FORMS4(X, SDIV)         \
	FORMS4(X, MOD) FORMS4(X, SMOD) FORMS4(X, OR) FORMS4(X, AND) FORMS4(X, XOR)          \
	FORMS4(X, LSH) FORMS4(X, RSH) FORMS4(X, ARSH) FORMS4(X, MOV)                        \
	X(NEG64) X(NEG32) X(MOVSX64_8) X(MOVSX64_16) X(MOVSX64_32) X(MOVSX32_8)             \
	X(MOVSX32_16) X(ZEXT16) X(ZEXT32) X(NOP) X(BSWAP16) X(BSWAP32) X(BSWAP64) X(LDDW)   \
	FORMS4(X, JEQ) FORMS4(X, JNE) FORMS4(X, JGT) FORMS4(X, JGE) FORMS4(X, JLT)          \
	FORMS4(X, JLE) FORMS4(X, JSGT) FORMS4(X, JSGE) FORMS4(X, JSLT) FORMS4(X, JSLE)      \
	FORMS4(X, JSET) X(JA) X(MAY_GOTO)                                                   \
	X(LDX_B) X(LDX_H) X(LDX_W) X(LDX_DW) X(LDXS_B) X(LDXS_H) X(LDXS_W)                  \
	X(ST_B) X(ST_H) X(ST_W) X(ST_DW) X(STX_B) X(STX_H) X(STX_W) X(STX_DW)               \
	WD(X, AADD) WD(X, AOR) WD(X, AAND) WD(X, AXOR) WD(X, AFADD) WD(X, AFOR)             \
	WD(X, AFAND) WD(X, AFXOR) WD(X, AXCHG) WD(X, ACMPXCHG)                              \
	X(LDABS_B) X(LDABS_H) X(LDABS_W) X(LDIND_B) X(LDIND_H) X(LDIND_W)                   \
	X(HELPER) X(CALL) X(CALLX) X(EXIT) X(KFUNC) X(LDDW_BAD) X(ALU_REFUSED)           \
	X(FP_WRITE)

enum {
#define OP_ENUM(n) OP_##n,
	OP_LIST(OP_ENUM)
#undef OP_ENUM
	OP_COUNT
};

_Static_assert(OP_COUNT <= 256, "operation index must fit a byte");

/* One decoded instruction. */
struct iop {
	uint8_t op;
	uint8_t dst, src;
	uint8_t pad;		/* KFUNC: its kind; ALU_REFUSED: the operation it runs */
	int32_t off;		/* memory offset; or jump/call target as an operation index */
	uint32_t len;		/* operations from here to the end of the straight-line run */
	uint32_t pc;		/* slot in the original program */
	uint64_t imm;		/* sign-extended immediate, LD_IMM64 value, helper id */
};

struct interp_code {
	struct iop *ops;
	size_t nops;
	size_t nslots;
	uint32_t *slot2op;	/* operation index of each slot (second LD_IMM64 slots: -1u) */
	uint8_t *func;		/* per slot: 1 when a function starts there */
	uint8_t *noprobe;	/* per slot: 0, the probes of a hooked run without env->probes */
	uint32_t exc_op;	/* the exception callback's first operation; UINT32_MAX: none */
	uint8_t *fastcall;	/* per slot: 1 for a spill or fill of a bpf_fastcall pattern */
};

/* MAPK_OUTER: a map of maps whose inner map's definition is known (ebpf_map_def.inner);
 * MAPK_SOCK: a sockmap or sockhash, whose elements are sockets (sockmap_helper) */
enum map_kind { MAPK_OTHER, MAPK_ARRAY, MAPK_HASH, MAPK_OUTER, MAPK_SOCK };

/* A map during one run. */
struct map_rt {
	uint8_t *host;		/* values, side by side; NULL until first use when the run owns it */
	uint64_t len;		/* bytes of host (0 until host is set) */
	uint32_t nval;		/* values addressable in its window (0 until host is set) */
	uint32_t vsz;		/* value_size */
	uint64_t vmask;		/* 2^interp_map_shift - 1: the offset in a value's window */
	uint8_t shift;		/* interp_map_shift: value i at i << shift in the window */
	enum map_kind kind;
	bool own;
	bool ro;		/* BPF_F_RDONLY_PROG (.rodata, .kconfig): the program only reads */
	uint32_t cap, cnt;	/* hash: slots and slots in use */
	uint8_t *keys, *used;	/* hash: cap keys, cap flags */
	uint32_t upd_peak;	/* hash: interp_map.upd_peak */
	/* per-CPU: every CPU's copies (interp_map.pcpu), st->ncpus blocks of len bytes, the
	 * running CPU's unused (host is its copy); NULL until a lookup_percpu_elem needs them */
	uint8_t *pcpu;
	bool pcpu_own;
	bool percpu;
	uint8_t sk_state;	/* socket storage: 0 not yet asked, 1 absent, 2 present */
};

struct frame {
	uint64_t saved[5];	/* caller's r6-r10 (valid while a callee runs) */
	uint64_t may_goto;	/* this frame's may_goto budget */
	uint32_t ret;		/* operation to resume at in the caller */
	/* The callee is a bpf_loop callback: at its exit, run it again or return to the caller
	 * with r0 = the number of calls made. */
	bool cb;
	bool each;		/* ... a bpf_for_each_map_elem callback */
	bool once;		/* ... a bpf_find_vma callback: called once, r0 = 0 after */
	bool urb;		/* ... a bpf_user_ringbuf_drain callback: r1 the sample's dynptr */
	uint32_t cb_op;		/* the callback's first operation */
	uint32_t cb_i, cb_n;	/* calls made, nr; each: the next element's index or slot,
				 * calls made */
	uint32_t cb_map;	/* each: the map */
	uint64_t cb_ctx;	/* its r2 (each: r4) */
};

enum acc { ACC_LOAD, ACC_STORE, ACC_ATOMIC };

/* A socket's flags (interp_state.sock_flags) */
#define SOCK_LIVE 1u	/* not released */
#define SOCK_REF 2u	/* a lookup's: bpf_sk_release ends it */
#define SOCK_FULL 4u	/* bpf_sk_fullsock returns it */
#define SOCK_TCP 8u	/* bpf_tcp_sock returns it */
#define SOCK_SKB 16u	/* skb->sk, the test run's socket (interp_env.test_run_sock): its
			 * fields read as interp_state.skb_sock, no listener */

struct interp_state {
	struct interp_state_head h;	/* first: interp.h reads it from a struct interp_state * */
	const struct interp_env *env;
	const struct interp_code *code;
	struct interp_result *res;
	uint64_t mg_budget;	/* each frame's may_goto budget (env->may_goto_budget) */
	uint32_t exit_pc;	/* the exit that ended main */
	uint64_t stack_lim;	/* live stack bytes: 512 * (depth + 1) */
	uint16_t low[EBPF_MAX_CALL_DEPTH];	/* per live frame: lowest offset in it accessed */
	uint8_t *ctx;		/* directly addressable context (PLAIN), else NULL */
	uint64_t ctx_len;
	uint64_t ctx_size;	/* XDP/SKB: size of the modeled structure; RO: of the input */
	const uint8_t *ctxro;	/* RO: the context's bytes (env->input), read through ctx_load */
	uint8_t *pkt;
	uint64_t pkt_len;
	bool pkt_ro;		/* sk_reuseport's packet: read only (a store traps) */
	const uint8_t *abs;	/* what LD_ABS/LD_IND read: the input */
	uint64_t abs_len;
	struct map_rt *maps;
	size_t map_cnt;
	unsigned ncpus, cpu;	/* env->ncpus (INTERP_NCPUS for 0), env->cpu */
	size_t hd_pos;		/* next byte of env->helper_data */
	size_t rp_pos;		/* next result of env->replay */
	uint64_t steps;
	bool oom;
	/* open-coded iterators created and not yet destroyed: their addresses, families
	 * (enum ebpf_iter_family) and, for bits iterators, the words new copied (do_kfunc) */
	uint64_t iters[INTERP_MAX_ITERS];
	uint8_t iter_fam[INTERP_MAX_ITERS];
	uint64_t *iter_bits[INTERP_MAX_ITERS];
	int32_t iter_nbits[INTERP_MAX_ITERS], iter_bit[INTERP_MAX_ITERS];	/* (bits: as new and
	 * next left them; the program's stores into the iterator's bytes change neither) */
	unsigned niters;
	struct frame frames[EBPF_MAX_CALL_DEPTH];
	/* per frame: the key its bpf_for_each_map_elem callback was given, and its size */
	uint16_t key_len[EBPF_MAX_CALL_DEPTH];
	uint64_t btf_obj[2];	/* what every kernel object reads as (INTERP_VA_BTF) */
	/* ringbuf records reserved in this run (INTERP_VA_RINGBUF), and how many are live */
	struct {
		uint8_t *host;	/* NULL once submitted or discarded */
		uint32_t size;
		bool dyn;	/* a ringbuf dynptr's (released by its dynptr only) */
	} recs[INTERP_MAX_RECORDS];
	/* ringbuf dynptrs whose reserve failed (NULL, no record) and not yet released: references
	 * all the same (live_recs counts them too) */
	unsigned dp_nulls;
	uint32_t dp_ids;	/* the identities given NULL ringbuf dynptrs a clone shares */
	/* kernel objects kfuncs acquired in this run (INTERP_VA_KOBJ + (k + 1) << 32): live or
	 * released; live_recs counts the live ones too */
	uint8_t kobj_live[INTERP_MAX_RECORDS];
	/* ... and, for a bpf_cpumask, its CPUs (bit c: cpu c, below ncpus; kfunc_plain) */
	uint64_t kobj_mask[INTERP_MAX_RECORDS];
	unsigned nrecs, live_recs, nkobjs;
	/* the address of the struct bpf_spin_lock bpf_spin_lock took and bpf_spin_unlock has not
	 * released yet (lock_helper), 0 when none */
	uint64_t lock_held;
	/* the regions open (kfunc_plain): bpf_rcu_read_lock's (0 or 1), bpf_preempt_disable's */
	unsigned rcu, preempt;
	/* sockets made in this run (INTERP_VA_SOCK + k << 32, interp.h): SOCK_* flags and what
	 * their fields read as (8 bytes twice); live_recs counts the live referenced ones too */
	uint8_t sock_flags[INTERP_MAX_RECORDS];
	uint8_t sock_bytes[INTERP_MAX_RECORDS][16];
	unsigned nsocks;
	int skb_sk;		/* the socket skb->sk is (SOCK_SKB), once read; -1 before */
	int ctx_sk[2];		/* a read-only context's sockets (ctx_ro_sock), once read: the
				 * socket, -2 for NULL, -1 before */
	uint8_t skb_sock[INTERP_SOCK_SIZE];	/* its fields (interp_env.test_run_sock) */
	/* per frame: the size of the sample its bpf_user_ringbuf_drain callback reads */
	uint8_t urb_size[EBPF_MAX_CALL_DEPTH];
	uint8_t urb_data[EBPF_MAX_CALL_DEPTH][INTERP_URB_MAX];	/* ... and its bytes */
	uint8_t keys[EBPF_MAX_CALL_DEPTH][EBPF_STACK_SIZE];
	/* the struct bpf_timer whose callback runs now (run_timers), 0 while the program runs */
	uint64_t timer_running;
	/* the timers' clock: 0 while the program runs, a firing's expiry while its callback runs
	 * (a start's expiry is timer_now + its delay) */
	uint64_t timer_now;
	/* callbacks of timers that may have fired before the program replaced them (set_callback
	 * on a timer pending less than 1 ms ahead): each runs once after the program */
	struct {
		uint32_t map, elem, slot;
	} shadow[INTERP_TIMER_FIRES];
	unsigned nshadow;
	uint8_t ctxbuf[sizeof(struct __sk_buff)] __attribute__((aligned(8)));
	uint8_t stack[EBPF_MAX_CALL_DEPTH * EBPF_STACK_SIZE] __attribute__((aligned(16)));
};

_Static_assert(sizeof(struct __sk_buff) >= sizeof(struct xdp_md), "ctx buffer holds both");

/* ---- arithmetic the C operators do not give directly ---- */

/* Signed division truncates toward zero; by 0 gives 0; INT_MIN / -1 gives INT_MIN (the
 * verifier rewrites x s/ -1 into a negation, which wraps), with no host trap. */
static inline uint64_t sdiv64(uint64_t d, uint64_t s)
{
	if (s == 0)
		return 0;
	if (s == UINT64_MAX)
		return 0 - d;
	return (uint64_t)((int64_t)d / (int64_t)s);
}

/* Remainder has the dividend's sign; by 0 leaves dst; by -1 gives 0. */
static inline uint64_t smod64(uint64_t d, uint64_t s)
{
	if (s == 0)
		return d;
	if (s == UINT64_MAX)
		return 0;
	return (uint64_t)((int64_t)d % (int64_t)s);
}

static inline uint32_t sdiv32(uint32_t d, uint32_t s)
{
	if (s == 0)
		return 0;
	if (s == UINT32_MAX)
		return 0 - d;
	return (uint32_t)((int32_t)d / (int32_t)s);
}

static inline uint32_t smod32(uint32_t d, uint32_t s)
{
	if (s == 0)
		return d;
	if (s == UINT32_MAX)
		return 0;
	return (uint32_t)((int32_t)d % (int32_t)s);
}

/* ---- traps ---- */

/* Frame k's stack bytes as a frame is entered: zeros, or the environment's stack_fill. */
static void frame_fill(struct interp_state *st, unsigned k)
{
	uint8_t *p = st->stack + (size_t)k * EBPF_STACK_SIZE;
	const struct interp_env *env = st->env;
	size_t len = env->stack_fill_len, at;

	if (!env->stack_fill || !len) {
		memset(p, 0, EBPF_STACK_SIZE);
		return;
	}
	/* byte i is stack_fill[(i + k * 131) % len]: copied as whole runs of stack_fill, the
	 * first from (k * 131) % len (a division per byte, 512 at each run's start and each
	 * call, cost more than the rest of a short run's set-up) */
	at = (size_t)k * 131 % len;
	for (size_t i = 0; i < EBPF_STACK_SIZE; at = 0) {
		size_t n = len - at < EBPF_STACK_SIZE - i ? len - at : EBPF_STACK_SIZE - i;

		memcpy(p + i, env->stack_fill + at, n);
		i += n;
	}
}

static void set_trap(struct interp_state *st, enum interp_trap t, uint32_t pc, const char *fmt,
		     ...) __attribute__((format(printf, 4, 5), cold, noinline));
static void set_trap(struct interp_state *st, enum interp_trap t, uint32_t pc, const char *fmt,
		     ...)
{
	struct interp_result *res = st->res;
	int n;
	va_list ap;

	res->trap = t;
	res->trap_pc = pc;
	n = snprintf(res->reason, sizeof(res->reason), "pc %u: ", pc);
	if (n < 0 || (size_t)n >= sizeof(res->reason))
		return;
	va_start(ap, fmt);
	vsnprintf(res->reason + n, sizeof(res->reason) - (size_t)n, fmt, ap);
	va_end(ap);
}

/* ---- memory ---- */

/* Whether frame k runs a bpf_user_ringbuf_drain callback (its sample is live). */
static inline bool urb_frame(const struct interp_state *st, uint64_t k)
{
	return k >= 1 && k <= st->h.depth && st->frames[k - 1].cb && st->frames[k - 1].urb;
}

/* Host address of [a, a+size) when it lies in one directly addressable region; NULL when the
 * slow path must decide (a miss, a straddle, the XDP/SKB context, a map without storage yet). */
static inline uint8_t *xlate_acc(struct interp_state *st, uint64_t a, uint64_t size, bool write)
{
	uint64_t off, m;

	switch (a >> 44) {
	case INTERP_VA_STACK >> 44:
		off = a - INTERP_VA_STACK;
		/* below the deepest byte its frame used so far: slow_ptr() accounts for it */
		if (off + size <= st->stack_lim && ((off ^ (off + size - 1)) >> 9) == 0 &&
		    likely((off & (EBPF_STACK_SIZE - 1)) >= st->low[off >> 9]))
			return st->stack + off;
		return NULL;
	case INTERP_VA_CTX >> 44:
		off = a - INTERP_VA_CTX;
		return off + size <= st->ctx_len ? st->ctx + off : NULL;
	case INTERP_VA_PKT >> 44:
		off = a - INTERP_VA_PKT;
		return off + size <= st->pkt_len && !(write && st->pkt_ro) ? st->pkt + off : NULL;
	case INTERP_VA_MAP >> 44: {
		const struct map_rt *mr;
		uint64_t e, eo;

		off = a - INTERP_VA_MAP;
		m = off >> 32;
		if (m >= st->map_cnt)
			return NULL;
		mr = &st->maps[m];
		off &= 0xffffffffu;
		e = off >> mr->shift;	/* each value its own region (interp.h) */
		eo = off & mr->vmask;
		if (e < mr->nval && size <= mr->vsz && eo <= mr->vsz - size && !(write && mr->ro))
			return mr->host + e * mr->vsz + eo;
		return NULL;
	}
	case INTERP_VA_PCPU >> 44: {
		const struct map_rt *mr;
		uint64_t e, eo, w = (a - INTERP_VA_PCPU) >> 32, c;

		if (!st->map_cnt)
			return NULL;
		m = w % st->map_cnt;
		c = w / st->map_cnt;
		mr = &st->maps[m];
		off = a & 0xffffffffu;
		e = off >> mr->shift;
		eo = off & mr->vmask;
		if (mr->pcpu && c < st->ncpus && e < mr->nval && size <= mr->vsz &&
		    eo <= mr->vsz - size)
			return (c == st->cpu ? mr->host : mr->pcpu + c * mr->len) + e * mr->vsz + eo;
		return NULL;
	}
	case INTERP_VA_KEY >> 44:
		off = a - INTERP_VA_KEY;
		m = off / EBPF_STACK_SIZE;
		off %= EBPF_STACK_SIZE;
		if (!write && m <= st->h.depth && m < EBPF_MAX_CALL_DEPTH &&
		    off + size <= st->key_len[m] && size <= EBPF_STACK_SIZE)
			return st->keys[m] + off;
		return NULL;
	case INTERP_VA_BTF >> 44:
		return !write && size <= 8 ? (uint8_t *)st->btf_obj + (a & 7) : NULL;
	case INTERP_VA_RINGBUF >> 44:
		off = a - INTERP_VA_RINGBUF;
		m = off >> 32;
		off &= 0xffffffffu;
		if (m < st->nrecs && st->recs[m].host && off + size <= st->recs[m].size)
			return st->recs[m].host + off;
		return NULL;
	case INTERP_VA_URB >> 44:
		off = a - INTERP_VA_URB;
		m = off >> 8;
		off &= 0xff;
		if (urb_frame(st, m) && off + size <= st->urb_size[m])
			return st->urb_data[m] + off;
		return NULL;
	case INTERP_VA_SOCK >> 44:
		off = a - INTERP_VA_SOCK;
		m = off >> 32;
		off &= 0xffffffffu;
		if (!write && m < st->nsocks && (st->sock_flags[m] & SOCK_LIVE) && size <= 8 &&
		    off + size <= INTERP_SOCK_SIZE)
			return st->sock_flags[m] & SOCK_SKB ? st->skb_sock + off
							    : st->sock_bytes[m] + (off & 7);
		return NULL;
	default:
		return NULL;
	}
}

static inline uint8_t *xlate(struct interp_state *st, uint64_t a, uint64_t size)
{
	return xlate_acc(st, a, size, false);
}

/* For a store or an atomic: read-only maps are left to slow_ptr, which traps. */
static inline uint8_t *xlate_w(struct interp_state *st, uint64_t a, uint64_t size)
{
	return xlate_acc(st, a, size, true);
}

static const char *acc_name(enum acc k)
{
	return k == ACC_LOAD ? "load" : k == ACC_STORE ? "store" : "atomic";
}

/* Where an address points, for messages: "fp-8 of frame 0", "packet+14 (packet is 14 bytes)". */
static void describe(const struct interp_state *st, uint64_t a, char *buf, size_t n)
{
	uint64_t off;

	switch (a >> 44) {
	case INTERP_VA_STACK >> 44:
		off = a - INTERP_VA_STACK;
		if (off < st->stack_lim) {
			unsigned k = (unsigned)(off / EBPF_STACK_SIZE);
			long rel = (long)(off % EBPF_STACK_SIZE) - EBPF_STACK_SIZE;

			snprintf(buf, n, "fp%ld of frame %u", rel, k);
		} else if (off < (uint64_t)EBPF_MAX_CALL_DEPTH * EBPF_STACK_SIZE) {
			/* Above the running frame: say where from its r10, and whose dead frame. */
			snprintf(buf, n, "fp+%llu of frame %u, in frame %u, which is not live",
				 (unsigned long long)(off - st->stack_lim), st->h.depth,
				 (unsigned)(off / EBPF_STACK_SIZE));
		} else {
			snprintf(buf, n, "stack+0x%llx, above the %u frames",
				 (unsigned long long)off, EBPF_MAX_CALL_DEPTH);
		}
		return;
	case INTERP_VA_CTX >> 44:
		snprintf(buf, n, "ctx+%llu; the context is %llu bytes",
			 (unsigned long long)(a - INTERP_VA_CTX),
			 (unsigned long long)(st->ctx ? st->ctx_len : st->ctx_size));
		return;
	case INTERP_VA_PKT >> 44:
		snprintf(buf, n, "packet+%llu; the packet is %llu bytes",
			 (unsigned long long)(a - INTERP_VA_PKT), (unsigned long long)st->pkt_len);
		return;
	case INTERP_VA_MAP >> 44: {
		uint64_t m = (a - INTERP_VA_MAP) >> 32;

		off = (a - INTERP_VA_MAP) & 0xffffffffu;
		if (m < st->map_cnt) {
			const struct ebpf_map_def *def = &st->env->maps[m].def;
			const struct map_rt *mr = &st->maps[m];
			uint64_t cnt = mr->nval ? mr->nval : def->max_entries;
			unsigned sh = interp_map_shift(def);

			snprintf(buf, n, "map %llu '%s' value %llu+%llu; %llu values of %u bytes",
				 (unsigned long long)m, def->name, (unsigned long long)(off >> sh),
				 (unsigned long long)(off & ((1ull << sh) - 1)),
				 (unsigned long long)cnt, def->value_size);
		} else {
			snprintf(buf, n, "values of map %llu, which does not exist",
				 (unsigned long long)m);
		}
		return;
	}
	case INTERP_VA_PCPU >> 44: {
		uint64_t w = (a - INTERP_VA_PCPU) >> 32;

		off = a & 0xffffffffu;
		if (st->map_cnt) {
			uint64_t m = w % st->map_cnt;
			const struct ebpf_map_def *def = &st->env->maps[m].def;
			unsigned sh = interp_map_shift(def);

			snprintf(buf, n, "CPU %llu's copy of map %llu '%s' value %llu+%llu; %u CPUs, "
				 "values of %u bytes", (unsigned long long)(w / st->map_cnt),
				 (unsigned long long)m, def->name, (unsigned long long)(off >> sh),
				 (unsigned long long)(off & ((1ull << sh) - 1)), st->ncpus,
				 def->value_size);
		} else {
			snprintf(buf, n, "a per-CPU copy of no map");
		}
		return;
	}
	case INTERP_VA_MAPH >> 44:
		snprintf(buf, n, "a map handle, not memory");
		return;
	case INTERP_VA_FUNC >> 44:
		snprintf(buf, n, "a function address, not memory");
		return;
	case INTERP_VA_BTF >> 44:
		snprintf(buf, n, "a kernel object (PTR_TO_BTF_ID: read-only)");
		return;
	case INTERP_VA_SOCK >> 44: {
		uint64_t k = (a - INTERP_VA_SOCK) >> 32;

		off = (a - INTERP_VA_SOCK) & 0xffffffffu;
		if (k < st->nsocks)
			snprintf(buf, n, "socket %llu+%llu (read-only, %u bytes%s)",
				 (unsigned long long)k, (unsigned long long)off, INTERP_SOCK_SIZE,
				 st->sock_flags[k] & SOCK_LIVE ? "" : "; released");
		else
			snprintf(buf, n, "socket %llu, never looked up", (unsigned long long)k);
		return;
	}
	case INTERP_VA_RINGBUF >> 44: {
		uint64_t k = (a - INTERP_VA_RINGBUF) >> 32;

		off = (a - INTERP_VA_RINGBUF) & 0xffffffffu;
		if (k < st->nrecs)
			snprintf(buf, n, "ringbuf record %llu+%llu; %u bytes%s", (unsigned long long)k,
				 (unsigned long long)off, st->recs[k].size,
				 st->recs[k].host ? "" : ", submitted or discarded");
		else
			snprintf(buf, n, "ringbuf record %llu, never reserved", (unsigned long long)k);
		return;
	}
	case INTERP_VA_URB >> 44:
		off = a - INTERP_VA_URB;
		if (urb_frame(st, off >> 8))
			snprintf(buf, n, "sample+%llu of the bpf_user_ringbuf_drain callback of frame "
				 "%llu; %u bytes", (unsigned long long)(off & 0xff),
				 (unsigned long long)(off >> 8), st->urb_size[off >> 8]);
		else
			snprintf(buf, n, "a sample of frame %llu, which runs no bpf_user_ringbuf_drain "
				 "callback (released)", (unsigned long long)(off >> 8));
		return;
	case INTERP_VA_KEY >> 44:
		off = a - INTERP_VA_KEY;
		snprintf(buf, n, "key+%llu of the bpf_for_each_map_elem callback of frame %llu "
			 "(read-only)", (unsigned long long)(off % EBPF_STACK_SIZE),
			 (unsigned long long)(off / EBPF_STACK_SIZE));
		return;
	default:
		snprintf(buf, n, "no region");
		return;
	}
}

static void mem_trap(struct interp_state *st, uint32_t pc, uint64_t a, uint64_t size,
		     enum acc kind, const char *why)
{
	char where[200];

	describe(st, a, where, sizeof(where));
	if (!why)
		why = xlate(st, a, 1) || ((a >> 44) == (INTERP_VA_STACK >> 44) &&
					  a - INTERP_VA_STACK < st->stack_lim)
			      ? "runs past the end of its region" : "is outside every region";
	set_trap(st, INTERP_TRAP_MEM, pc, "%llu-byte %s at 0x%llx (%s) %s",
		 (unsigned long long)size, acc_name(kind), (unsigned long long)a, where, why);
}

/* Whether a hash map's per-run table can be made (value and key sizes the run can hold). */
static bool hash_modeled(const struct ebpf_map_def *def)
{
	return def->value_size && def->key_size && def->value_size <= (1u << 20) &&
	       def->key_size <= (1u << 16) && interp_hash_slots(def);
}

/* The elements of an array map's storage: max_entries, but one for a cgroup storage (the
 * program's cgroup's, which bpf_get_local_storage returns; the kernel's max_entries is 0) and
 * for a socket storage (every socket's: sk_storage_get). */
static uint32_t map_entries(const struct ebpf_map_def *def)
{
	return def->type == BPF_MAP_TYPE_CGROUP_STORAGE ||
	       def->type == BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE ||
	       def->type == BPF_MAP_TYPE_SK_STORAGE ? 1 : def->max_entries;
}

/* Gives a map its per-run storage: zeroed, entry 0 from def.init.  False when too large or
 * out of memory (st->oom). */
static bool map_storage(struct interp_state *st, size_t m)
{
	const struct ebpf_map_def *def = &st->env->maps[m].def;
	struct map_rt *mr = &st->maps[m];
	uint64_t n;

	if (mr->host)
		return true;
	if (mr->kind == MAPK_HASH) {
		uint32_t cap = interp_hash_slots(def);

		if (!hash_modeled(def))
			return false;
		mr->host = calloc(cap, def->value_size);
		mr->keys = calloc(cap, def->key_size);
		mr->used = calloc(cap, 1);
		if (!mr->host || !mr->keys || !mr->used) {
			st->oom = true;
			free(mr->host);
			free(mr->keys);
			free(mr->used);
			mr->host = mr->keys = mr->used = NULL;
			return false;
		}
		mr->own = true;
		mr->cap = cap;
		mr->len = (uint64_t)cap * def->value_size;
		mr->nval = cap;
		return true;
	}
	if (mr->kind != MAPK_ARRAY)
		return false;
	n = (uint64_t)map_entries(def) * def->value_size;
	if (n == 0 || n > MAP_STORAGE_MAX || def->value_size > mr->vmask + 1)
		return false;
	mr->host = calloc(1, n);
	if (!mr->host) {
		st->oom = true;
		return false;
	}
	if (def->init)
		memcpy(mr->host, def->init, def->value_size);
	mr->own = true;
	mr->len = n;
	mr->nval = map_entries(def);
	return true;
}

/* map_storage, or a helper trap at pc saying why the map has no storage */
static bool map_storage_at(struct interp_state *st, size_t m, uint32_t pc, const char *name)
{
	const struct ebpf_map_def *def = &st->env->maps[m].def;

	if (map_storage(st, m))
		return true;
	set_trap(st, INTERP_TRAP_HELPER, pc, "%s: map '%s' (%u x %u bytes) %s", name, def->name,
		 def->max_entries, def->value_size,
		 st->oom ? "could not be allocated" : "is too large to model");
	return false;
}

/* The address of element e (an array's index, a hash map's slot) of map m's values. */
static uint64_t value_va(size_t m, const struct map_rt *mr, long e)
{
	return INTERP_VA_MAP + ((uint64_t)m << 32) + ((uint64_t)e << mr->shift);
}

/* The context structures' special fields. */
struct ctx_field {
	uint16_t off, size;
	uint8_t what;		/* 0 data, 1 data_end, 2 null pointer, 3 skb->sk (skb_sock) */
};

static const struct ctx_field xdp_fields[] = {
	{ offsetof(struct xdp_md, data), 4, 0 },
	{ offsetof(struct xdp_md, data_end), 4, 1 },
	{ offsetof(struct xdp_md, data_meta), 4, 0 },
};

static const struct ctx_field skb_fields[] = {
	{ offsetof(struct __sk_buff, data), 4, 0 },
	{ offsetof(struct __sk_buff, data_end), 4, 1 },
	{ offsetof(struct __sk_buff, data_meta), 4, 0 },
	{ offsetof(struct __sk_buff, flow_keys), 8, 2 },
	{ offsetof(struct __sk_buff, sk), 8, 3 },
};

/* __sk_buff fields a program may write: [begin, end). */
static const uint16_t skb_writable[][2] = {
#define SKB_FIELD(f, n) { offsetof(struct __sk_buff, f), offsetof(struct __sk_buff, f) + (n) }
	SKB_FIELD(mark, 4), SKB_FIELD(queue_mapping, 4), SKB_FIELD(priority, 4),
	SKB_FIELD(tc_index, 4), SKB_FIELD(cb, 20), SKB_FIELD(tc_classid, 4), SKB_FIELD(tstamp, 8),
#undef SKB_FIELD
};

/* skb->sk: NULL, or with interp_env.test_run_sock the test run's socket, made at its first read
 * (no reference, full, not TCP; its fields those bytes). */
static uint64_t skb_sock(struct interp_state *st)
{
	unsigned k = st->nsocks;

	if (!st->env->test_run_sock)
		return 0;
	if (st->skb_sk < 0) {
		if (k == INTERP_MAX_RECORDS)
			return 0;
		st->nsocks++;
		st->sock_flags[k] = SOCK_LIVE | SOCK_FULL | SOCK_SKB;
		memcpy(st->skb_sock, st->env->test_run_sock, INTERP_SOCK_SIZE);
		st->skb_sk = (int)k;
	}
	return INTERP_VA_SOCK + ((uint64_t)st->skb_sk << 32);
}

static uint64_t sock_new(struct interp_state *st, uint8_t flags);
static uint64_t draw(struct interp_state *st, unsigned n);

/* The sockets of a read-only context, made at their first read, of no reference, their fields
 * drawn: sk_lookup's sk NULL or a full socket (an earlier program of the chain may have selected
 * one: drawn), sk_reuseport's sk a full socket and its migrating_sk NULL or a socket, maybe a
 * request one (drawn), sock_ops's sk NULL or a full socket (drawn); the run drew
 * (interp_result.sock_drawn).  1 with *v for such a field, else 0. */
static int ctx_ro_sock(struct interp_state *st, uint64_t off, uint64_t size, uint64_t *v)
{
	uint32_t t = st->env->prog_type;
	bool maybe_null = true;
	int slot;

	if (size != 8)
		return 0;
	if (t == BPF_PROG_TYPE_SK_LOOKUP && off == offsetof(struct bpf_sk_lookup, sk) &&
	    st->env->test_run_sock) {
		*v = 0;		/* (a test run's: interp_sk_lookup_test_ctx) */
		return 1;
	}
	if (t == BPF_PROG_TYPE_SK_LOOKUP && off == offsetof(struct bpf_sk_lookup, sk))
		slot = 0;
	else if (t == BPF_PROG_TYPE_SK_REUSEPORT && off == offsetof(struct sk_reuseport_md, sk))
		slot = 0, maybe_null = false;
	else if (t == BPF_PROG_TYPE_SOCK_OPS && off == offsetof(struct bpf_sock_ops, sk))
		slot = 0;	/* (the operation's full socket, or NULL) */
	else if (t == BPF_PROG_TYPE_SK_MSG && off == offsetof(struct sk_msg_md, sk))
		slot = 0, maybe_null = false;	/* (the message's socket: PTR_TO_SOCKET) */
	else if (t == BPF_PROG_TYPE_SK_REUSEPORT &&
		 off == offsetof(struct sk_reuseport_md, migrating_sk))
		slot = 1;
	else
		return 0;
	if (st->ctx_sk[slot] == -1) {
		uint8_t d = (uint8_t)draw(st, 1);
		bool full = slot == 0 || (d & 2);
		uint64_t a = 0;

		st->res->sock_drawn = true;
		if (!maybe_null || (d & 1))
			a = sock_new(st, (uint8_t)((full ? SOCK_FULL : 0) |
						   (full && (d & 4) ? SOCK_TCP : 0)));
		st->ctx_sk[slot] = a ? (int)((a - INTERP_VA_SOCK) >> 32) : -2;
	}
	*v = st->ctx_sk[slot] >= 0 ? INTERP_VA_SOCK + ((uint64_t)st->ctx_sk[slot] << 32) : 0;
	return 1;
}

/* Loads from the XDP/SKB context: pointer fields as the verifier rewrites them, the rest from
 * ctxbuf.  Returns 0 for a plain field, 1 for a pointer field (*v is the whole 64-bit pointer,
 * not to be narrowed to the load's width), or -EFAULT (trap set unless quiet). */
static int ctx_load(struct interp_state *st, uint32_t pc, uint64_t a, uint64_t size,
		    uint64_t *v, bool quiet)
{
	bool xdp = st->env->ctx_kind == INTERP_CTX_XDP;
	const struct ctx_field *f = xdp ? xdp_fields : skb_fields;
	size_t nf = xdp ? sizeof(xdp_fields) / sizeof(xdp_fields[0])
			: sizeof(skb_fields) / sizeof(skb_fields[0]);
	uint64_t off = a - INTERP_VA_CTX;

	if (off + size > st->ctx_size) {
		if (!quiet)
			mem_trap(st, pc, a, size, ACC_LOAD, NULL);
		return -EFAULT;
	}
	if (st->env->ctx_kind == INTERP_CTX_RO) {
		if (ctx_ro_sock(st, off, size, v))
			return 1;
		/* sk_reuseport's, sk_msg's and sock_ops' data and data_end (u64s, read whole:
		 * ebpf_ctx_ro_access), the packet that follows the context in the input */
		uint64_t at = (uint64_t)ebpf_ctx_ro_pkt_at(st->env->prog_type);

		if (ebpf_ctx_ro_pkt(st->env->prog_type) && size == 8 && (off == at || off == at + 8)) {
			*v = INTERP_VA_PKT + (off == at ? 0 : st->pkt_len);
			return 1;
		}
		*v = interp_load(st->ctxro + off, (unsigned)size);
		return 0;
	}
	for (size_t k = 0; k < nf; k++) {
		if (off + size <= f[k].off || off >= (uint64_t)f[k].off + f[k].size)
			continue;
		if (off != f[k].off || size != f[k].size) {
			if (!quiet)
				set_trap(st, INTERP_TRAP_MEM, pc,
					 "%llu-byte load at ctx+%llu: the pointer field at ctx+%u "
					 "may only be read whole (%u bytes)",
					 (unsigned long long)size, (unsigned long long)off,
					 f[k].off, f[k].size);
			return -EFAULT;
		}
		*v = f[k].what == 0 ? INTERP_VA_PKT
		   : f[k].what == 1 ? INTERP_VA_PKT + st->pkt_len
		   : f[k].what == 3 ? skb_sock(st) : 0;
		return 1;
	}
	switch (size) {
	case 1: { uint8_t x; memcpy(&x, st->ctxbuf + off, 1); *v = x; break; }
	case 2: { uint16_t x; memcpy(&x, st->ctxbuf + off, 2); *v = x; break; }
	case 4: { uint32_t x; memcpy(&x, st->ctxbuf + off, 4); *v = x; break; }
	default: { uint64_t x; memcpy(&x, st->ctxbuf + off, 8); *v = x; break; }
	}
	return 0;
}

/* The spills and fills of bpf_fastcall patterns: 8-byte stores to r10 just before a call of
 * bpf_get_smp_processor_id (up to 6, nothing else between) and 8-byte loads from r10 just after
 * it.  The kernel inlines the call and removes the pattern and its stack when nothing else
 * touches that stack (verifier.c remove_fastcall_spills_fills), so their bytes may be no part
 * of the depth it counts: they are not counted here either (stack_deeper), which only lets by
 * what the kernel may keep. */
static void fastcall_marks(uint8_t *mark, const struct bpf_insn *in, size_t len)
{
	for (size_t pc = 0; pc < len; pc++) {
		if (in[pc].code != (BPF_JMP | BPF_CALL) || in[pc].src_reg ||
		    in[pc].imm != BPF_FUNC_get_smp_processor_id)
			continue;
		for (size_t i = 1; i <= 6 && i <= pc; i++) {
			const struct bpf_insn *x = &in[pc - i];

			if (x->code != (BPF_STX | BPF_MEM | BPF_DW) || x->dst_reg != EBPF_REG_FP)
				break;
			mark[pc - i] = 1;
		}
		for (size_t i = 1; i <= 6 && pc + i < len; i++) {
			const struct bpf_insn *x = &in[pc + i];

			if (x->code != (BPF_LDX | BPF_MEM | BPF_DW) || x->src_reg != EBPF_REG_FP)
				break;
			mark[pc + i] = 1;
		}
	}
}

/* An access reaches offset off of the stack, below what its frame used so far: the frames'
 * combined use must stay within the kernel's 512 bytes, each frame's depth rounded up to 16 as
 * the kernel rounds it for JIT-compiled programs.  What a run uses is at most what the kernel
 * counts for the same chain (it takes every path's deepest access), so going past it here
 * means the kernel would refuse the program.  False after the trap. */
static bool stack_deeper(struct interp_state *st, uint32_t pc, uint64_t off)
{
	unsigned total = 0;

	if (pc < st->code->nslots && st->code->fastcall[pc])
		return true;
	st->low[off >> 9] = (uint16_t)(off & (EBPF_STACK_SIZE - 1));
	for (unsigned k = 0; k <= st->h.depth; k++)
		total += (EBPF_STACK_SIZE - st->low[k] + 15u) & ~15u;
	if (total <= EBPF_STACK_SIZE)
		return true;
	set_trap(st, INTERP_TRAP_LIMIT, pc, "the %u live frames use %u bytes of stack together "
		 "(each rounded up to 16), more than the kernel's %u", st->h.depth + 1, total,
		 EBPF_STACK_SIZE);
	return false;
}

/* A load, store or atomic of the context goes through a register that holds the context's
 * start (check_ptr_off_reg: the kernel rewrites the access by the instruction's offset alone)
 * and, in an skb program, to a field its type may reach (ebpf_skb_field_refused); a helper's
 * memory argument (pc a call) is the helper's to judge.  False after the trap. */
static bool ctx_access_ok(struct interp_state *st, uint32_t pc, uint64_t a, uint64_t size,
			  enum acc kind)
{
	const struct iop *ip = &st->code->ops[st->code->slot2op[pc]];
	uint64_t off = a - INTERP_VA_CTX;
	const char *why;

	if (ip->op < OP_LDX_B || ip->op > OP_ACMPXCHG_DW)
		return true;
	if (off != (uint64_t)(int64_t)ip->off) {
		set_trap(st, INTERP_TRAP_MEM, pc, "%s of %llu bytes at ctx+%llu through a modified "
			 "context pointer (ctx%+lld): the verifier refuses it", acc_name(kind),
			 (unsigned long long)size, (unsigned long long)off,
			 (long long)(off - (uint64_t)(int64_t)ip->off));
		return false;
	}
	/* (xdp_is_valid_access: egress_ifindex is a devmap program's, whose attach type no run
	 * here has) */
	if (st->env->ctx_kind == INTERP_CTX_XDP && off == offsetof(struct xdp_md, egress_ifindex)) {
		set_trap(st, INTERP_TRAP_MEM, pc, "%s of xdp_md's egress_ifindex: a devmap program's "
			 "only", acc_name(kind));
		return false;
	}
	/* (xdp_is_valid_access, bpf_skb_is_valid_access: a packet pointer field is not loaded
	 * sign-extended, a value it would not be) */
	if ((ip->op == OP_LDXS_B || ip->op == OP_LDXS_H || ip->op == OP_LDXS_W) &&
	    (st->env->ctx_kind == INTERP_CTX_XDP || st->env->ctx_kind == INTERP_CTX_SKB)) {
		bool xdp = st->env->ctx_kind == INTERP_CTX_XDP;

		for (size_t k = 0; k < 3; k++)
			if (off == (xdp ? xdp_fields : skb_fields)[k].off) {
				set_trap(st, INTERP_TRAP_MEM, pc, "sign-extending load of %llu bytes "
					 "of the packet pointer at ctx+%llu: the verifier refuses it",
					 (unsigned long long)size, (unsigned long long)off);
				return false;
			}
	}
	if (st->env->ctx_kind == INTERP_CTX_SKB &&
	    (why = ebpf_skb_field_refused(st->env->prog_type, (int64_t)off, kind != ACC_LOAD))) {
		set_trap(st, INTERP_TRAP_MEM, pc, "%s of %llu bytes at ctx+%llu: %s", acc_name(kind),
			 (unsigned long long)size, (unsigned long long)off, why);
		return false;
	}
	return true;
}

/* Slow path for a host pointer: maps that get storage on first use, writable __sk_buff fields;
 * anything else traps.  Returns NULL after setting the trap. */
static __attribute__((noinline)) uint8_t *slow_ptr(struct interp_state *st, uint32_t pc,
						     uint64_t a, uint64_t size, enum acc kind)
{
	uint8_t *p;

	if ((a >> 44) == (INTERP_VA_STACK >> 44)) {
		uint64_t off = a - INTERP_VA_STACK;

		if (off + size <= st->stack_lim && ((off ^ (off + size - 1)) >> 9) == 0)
			return stack_deeper(st, pc, off) ? st->stack + off : NULL;
	} else if ((a >> 44) == (INTERP_VA_MAP >> 44)) {
		uint64_t m = (a - INTERP_VA_MAP) >> 32;

		if (m < st->map_cnt && st->maps[m].ro && kind != ACC_LOAD) {
			mem_trap(st, pc, a, size, kind, "writes a read-only map (BPF_F_RDONLY_PROG)");
			return NULL;
		}
		if (m < st->map_cnt && !st->maps[m].host && map_storage(st, m) &&
		    (p = xlate(st, a, size)))
			return p;
	} else if ((a >> 44) == (INTERP_VA_KEY >> 44) && kind != ACC_LOAD) {
		mem_trap(st, pc, a, size, kind, "writes a map key (read-only)");
		return NULL;
	} else if ((a >> 44) == (INTERP_VA_PKT >> 44) && st->pkt_ro && kind != ACC_LOAD &&
		   a - INTERP_VA_PKT + size <= st->pkt_len) {
		/* (may_access_direct_pkt_data: sk_reuseport's packet is read only) */
		mem_trap(st, pc, a, size, kind, "writes the packet of a program that may only read it");
		return NULL;
	} else if ((a >> 44) == (INTERP_VA_CTX >> 44) && !st->ctx) {
		uint64_t off = a - INTERP_VA_CTX;

		if (!ctx_access_ok(st, pc, a, size, kind))
			return NULL;
		if (kind == ACC_ATOMIC && off < st->ctx_size) {
			mem_trap(st, pc, a, size, kind, "is an atomic on the context");
			return NULL;
		}
		/* the few fields of a sock_ops or cgroup_sock context a store may write */
		if (kind == ACC_STORE && st->env->ctx_kind == INTERP_CTX_RO && st->env->prog_type &&
		    off + size <= st->ctx_size &&
		    !ebpf_ctx_ro_write(st->env->prog_type, (int64_t)off, (unsigned)size))
			return st->env->input + off;
		if (kind == ACC_STORE && st->env->ctx_kind == INTERP_CTX_SKB &&
		    off + size <= st->ctx_size) {
			for (size_t k = 0; k < sizeof(skb_writable) / sizeof(skb_writable[0]); k++)
				if (off >= skb_writable[k][0] && off + size <= skb_writable[k][1])
					return st->ctxbuf + off;
		}
		if (kind == ACC_STORE && off < st->ctx_size) {
			mem_trap(st, pc, a, size, kind,
				 st->env->ctx_kind == INTERP_CTX_XDP ? "writes the read-only xdp_md"
				 : st->env->ctx_kind == INTERP_CTX_RO ? "writes the read-only context"
								      : "writes a read-only __sk_buff field");
			return NULL;
		}
	}
	mem_trap(st, pc, a, size, kind, NULL);
	return NULL;
}

/* 0 with *v zero-extended from the access width, 1 with a 64-bit context pointer in *v, or
 * -EFAULT after a trap. */
static __attribute__((noinline)) int slow_load(struct interp_state *st, uint32_t pc,
					       uint64_t a, uint64_t size, uint64_t *v)
{
	const uint8_t *p;

	if ((a >> 44) == (INTERP_VA_CTX >> 44) && !st->ctx && st->ctx_size)
		return ctx_access_ok(st, pc, a, size, ACC_LOAD) ? ctx_load(st, pc, a, size, v, false)
								 : -EFAULT;
	/* a map's kernel struct through its handle (check_ptr_to_map_access): read as a kernel
	 * object (INTERP_VA_BTF); which offsets the kernel allows is the verdict's to say */
	if ((a >> 44) == (INTERP_VA_MAPH >> 44) && size <= 8) {
		st->res->kernel_read = true;
		*v = interp_load((const uint8_t *)st->btf_obj + (a & 7), (unsigned)size);
		return 0;
	}
	p = slow_ptr(st, pc, a, size, ACC_LOAD);
	if (!p)
		return -EFAULT;
	switch (size) {
	case 1: { uint8_t x; memcpy(&x, p, 1); *v = x; break; }
	case 2: { uint16_t x; memcpy(&x, p, 2); *v = x; break; }
	case 4: { uint32_t x; memcpy(&x, p, 4); *v = x; break; }
	default: { uint64_t x; memcpy(&x, p, 8); *v = x; break; }
	}
	return 0;
}

/* Host pointer for a helper's memory argument of any length. */
static uint8_t *mem_ptr(struct interp_state *st, uint32_t pc, uint64_t a, uint64_t size,
			enum acc kind)
{
	uint8_t *p = xlate_acc(st, a, size, kind != ACC_LOAD);

	return p ? p : slow_ptr(st, pc, a, size, kind);
}

/* A helper's memory argument of size 0 at a: nothing is accessed, but the kernel still checks
 * the pointer against its region (check_stack_access_within_bounds: fp-512 <= a <= fp;
 * check_mem_region_access: 0 <= off <= value_size; check_packet_access: a <= data + range) and
 * refuses a helper's write into a read-only map whatever the size.  So a lies in its region or
 * just past its end.  False after a trap. */
static bool zero_size_ptr(struct interp_state *st, uint32_t pc, uint64_t a, enum acc kind)
{
	uint64_t m;

	switch (a >> 44) {
	case INTERP_VA_STACK >> 44:
		if (a - INTERP_VA_STACK <= st->stack_lim)
			return true;
		break;
	case INTERP_VA_PKT >> 44:
		if (a - INTERP_VA_PKT <= st->pkt_len)
			return true;
		break;
	case INTERP_VA_MAP >> 44:
		m = (a - INTERP_VA_MAP) >> 32;
		if (m < st->map_cnt && st->maps[m].ro && kind != ACC_LOAD) {
			mem_trap(st, pc, a, 0, kind, "writes a read-only map (BPF_F_RDONLY_PROG)");
			return false;
		}
		if (m < st->map_cnt && !st->maps[m].host)
			map_storage(st, m);	/* made now, so a value's end is seen below */
		/* fall through */
	default:
		if (xlate_acc(st, a, 1, kind != ACC_LOAD) ||
		    (a && xlate_acc(st, a - 1, 1, kind != ACC_LOAD)) || mem_ptr(st, pc, a, 1, kind))
			return true;
		if (st->res->trap != INTERP_TRAP_MEM)	/* out of memory, ... */
			return false;
	}
	mem_trap(st, pc, a, 0, kind, NULL);
	return false;
}

/* ---- calls ---- */

static void poison_args(uint64_t *r)
{
	for (int k = 1; k <= 5; k++)
		r[k] = INTERP_POISON;
}

static __attribute__((noinline)) int push_frame(struct interp_state *st, const struct iop *ip)
{
	const struct interp_code *code = st->code;
	struct frame *f;
	uint64_t *r = st->h.regs;

	if (st->h.depth + 1 >= EBPF_MAX_CALL_DEPTH) {
		set_trap(st, INTERP_TRAP_LIMIT, ip->pc, "call would nest deeper than %d frames",
			 EBPF_MAX_CALL_DEPTH);
		return -1;
	}
	f = &st->frames[st->h.depth];
	f->ret = (uint32_t)(ip - code->ops) + 1;
	f->cb = f->once = f->urb = false;
	memcpy(f->saved, &r[6], sizeof(f->saved));
	st->h.depth++;
	st->frames[st->h.depth].may_goto = st->mg_budget;
	frame_fill(st, st->h.depth);
	st->low[st->h.depth] = EBPF_STACK_SIZE;
	st->stack_lim = (uint64_t)(st->h.depth + 1) * EBPF_STACK_SIZE;
	r[0] = INTERP_POISON;
	for (int k = 6; k <= 9; k++)
		r[k] = INTERP_POISON;
	r[10] = INTERP_VA_STACK + st->stack_lim;
	return 0;
}

/* Returns the operation to resume at. */
static __attribute__((noinline)) uint32_t pop_frame(struct interp_state *st)
{
	struct frame *f = &st->frames[--st->h.depth];
	uint64_t *r = st->h.regs;

	memcpy(&r[6], f->saved, sizeof(f->saved));
	poison_args(r);
	st->stack_lim = (uint64_t)(st->h.depth + 1) * EBPF_STACK_SIZE;
	return f->ret;
}

#define ERR(e) ((uint64_t)-(int64_t)(e))

struct frame;
static bool each_element(struct interp_state *st, struct frame *f, unsigned k);
static int map_arg(struct interp_state *st, const struct iop *ip, const char *name, size_t *m);
static uint64_t draw(struct interp_state *st, unsigned n);

/* The frame of a helper's callback (function slot), called n times with ctx (bpf_loop's
 * counting; each, once and urb set after): *tgt its first operation; NULL after a trap. */
static struct frame *cb_push(struct interp_state *st, const struct iop *ip, uint64_t slot,
			     uint32_t n, uint64_t ctx, uint32_t *tgt)
{
	struct frame *f;

	if (push_frame(st, ip))
		return NULL;
	f = &st->frames[st->h.depth - 1];
	f->cb = true;
	f->each = false;
	f->cb_op = st->code->slot2op[slot];
	f->cb_i = 0;
	f->cb_n = n;
	f->cb_ctx = ctx;
	*tgt = f->cb_op;
	return f;
}

/* Whether helper's callback argument r<reg> is a function's address (slot r - INTERP_VA_FUNC);
 * traps when not. */
static bool cb_func(struct interp_state *st, const struct iop *ip, const char *helper,
		    unsigned reg)
{
	uint64_t slot = st->h.regs[reg] - INTERP_VA_FUNC;

	if (slot < st->code->nslots && st->code->func[slot])
		return true;
	set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: r%u = 0x%llx is not a function address",
		 helper, reg, (unsigned long long)st->h.regs[reg]);
	return false;
}

/* bpf_loop(nr, cb, ctx, flags), as kernel/bpf/bpf_iter.c runs it: flags other than 0 give
 * -EINVAL and nr (a u32) above BPF_MAX_LOOPS -E2BIG before any call; then cb(i, ctx, 0, 0, 0) for
 * i = 0, 1, ... in a frame of its own until it returns non-zero (r0 = i + 1) or nr calls are
 * made (r0 = nr).  Returns 1 with *tgt = the callback's first operation when a call starts, 0
 * when the helper is done (r0 set), -1 after a trap. */
static __attribute__((noinline)) int loop_start(struct interp_state *st, const struct iop *ip,
						uint32_t *tgt)
{
	uint64_t *r = st->h.regs, slot = r[2] - INTERP_VA_FUNC, ctx = r[3];
	uint32_t nr = (uint32_t)r[1];

	/* (the verifier inlines a bpf_loop whose flags are 0 and callback fixed, and the inlined
	 * code compares all 64 bits of nr: -E2BIG where the helper would take the low 32) */
	st->res->bpf_loop_nr64 |= r[1] > UINT32_MAX;
	if (!cb_func(st, ip, "bpf_loop", 2))
		return -1;
	if (r[4] || nr > INTERP_MAX_LOOPS || nr == 0) {
		r[0] = r[4] ? ERR(EINVAL) : nr ? ERR(E2BIG) : 0;
		poison_args(r);
		return 0;
	}
	if (!cb_push(st, ip, slot, nr, ctx, tgt))
		return -1;
	r[1] = 0;
	r[2] = ctx;
	r[3] = r[4] = r[5] = 0;
	return 1;
}

/* bpf_find_vma(task, addr, cb, ctx, flags), as kernel/bpf/task_iter.c runs it: flags other than
 * 0 give -EINVAL; else the next byte of env->helper_data (0 once it runs out; env->vma_all - 1
 * for every call when set) says whether addr lies in a vma of the task (bit 0; when not, bit 1
 * gives -EBUSY, the mmap lock taken, else -ENOENT): then cb(task, vma, ctx, 0, 0) runs once in a frame of its own, vma a kernel object
 * (INTERP_VA_BTF), and r0 = 0 whatever it returns.  Returns as loop_start. */
static __attribute__((noinline)) int vma_start(struct interp_state *st, const struct iop *ip,
					       uint32_t *tgt)
{
	uint64_t *r = st->h.regs, slot = r[3] - INTERP_VA_FUNC, task = r[1], ctx = r[4], d;
	struct frame *f;

	if (!cb_func(st, ip, "bpf_find_vma", 3))
		return -1;
	d = r[5] ? 0 : st->env->vma_all ? st->env->vma_all - 1u : draw(st, 1);
	if (!(d & 1)) {
		r[0] = r[5] ? ERR(EINVAL) : d & 2 ? ERR(EBUSY) : ERR(ENOENT);
		poison_args(r);
		return 0;
	}
	if (!(f = cb_push(st, ip, slot, 1, ctx, tgt)))
		return -1;
	f->once = true;
	r[1] = task;
	r[2] = INTERP_VA_BTF;
	r[3] = ctx;
	r[4] = r[5] = 0;
	return 1;
}

/* The next sample the bpf_user_ringbuf_drain callback of frame k is given: its size one byte of
 * helper data mod INTERP_URB_MAX + 1, its bytes the next ones. */
static void urb_sample(struct interp_state *st, unsigned k)
{
	st->urb_size[k] = (uint8_t)(draw(st, 1) % (INTERP_URB_MAX + 1));
	for (unsigned b = 0; b < st->urb_size[k]; b++)
		st->urb_data[k][b] = (uint8_t)draw(st, 1);
}

/* bpf_user_ringbuf_drain(map, cb, ctx, flags), as kernel/bpf/ringbuf.c runs it: flags other than
 * BPF_RB_NO_WAKEUP | BPF_RB_FORCE_WAKEUP give -EINVAL; then cb(dynptr, ctx, 0, 0, 0) once per
 * sample waiting (drawn: one byte mod 4; each sample urb_sample's) in a frame of its own until
 * it returns non-zero or none is left (r0 = the calls made).  Returns as loop_start. */
static __attribute__((noinline)) int urb_start(struct interp_state *st, const struct iop *ip,
					       uint32_t *tgt)
{
	uint64_t *r = st->h.regs, slot = r[2] - INTERP_VA_FUNC, ctx = r[3], h = r[1] - INTERP_VA_MAPH;
	uint32_t n;
	struct frame *f;

	if (h >= st->map_cnt || st->env->maps[h].def.type != 31 /* USER_RINGBUF */) {
		set_trap(st, INTERP_TRAP_HELPER, ip->pc, "bpf_user_ringbuf_drain: r1 = 0x%llx is "
			 "not a user ring buffer", (unsigned long long)r[1]);
		return -1;
	}
	if (!cb_func(st, ip, "bpf_user_ringbuf_drain", 2))
		return -1;
	n = r[4] & ~3ull ? 0 : (uint32_t)(draw(st, 1) % 4);
	if (!n) {
		r[0] = r[4] & ~3ull ? ERR(EINVAL) : 0;
		poison_args(r);
		return 0;
	}
	if (!(f = cb_push(st, ip, slot, n, ctx, tgt)))
		return -1;
	f->urb = true;
	urb_sample(st, st->h.depth);
	r[1] = INTERP_VA_DYNPTR + st->h.depth;
	r[2] = ctx;
	r[3] = r[4] = r[5] = 0;
	return 1;
}

/* The frame whose bpf_user_ringbuf_drain callback's dynptr r[reg] is, or 0 after a trap (the
 * kernel's verifier only lets such a dynptr through; other dynptrs are not modeled). */
static uint64_t urb_dynptr(struct interp_state *st, const struct iop *ip, int reg,
			   const char *name)
{
	uint64_t k = st->h.regs[reg] - INTERP_VA_DYNPTR;

	if (urb_frame(st, k))
		return k;
	set_trap(st, INTERP_TRAP_CALL, ip->pc, "%s: r%d = 0x%llx is not the dynptr of a running "
		 "bpf_user_ringbuf_drain callback (other dynptrs are not modeled)", name, reg,
		 (unsigned long long)st->h.regs[reg]);
	return 0;
}

/* A dynptr on the stack (bpf_dynptr_from_mem, bpf_ringbuf_reserve_dynptr): 16 bytes of a
 * frame, the address of its memory (a map value's, a ringbuf record's start), its size and a
 * tag; the kernel's struct bpf_dynptr_kern is as long.  NULL dynptrs (a failed call) keep the
 * tag with DP_NULL; a released one's tag is cleared.  The verifier lets no instruction read or
 * forge these bytes, so any other content given to a dynptr helper is no dynptr. */
#define DP_MAGIC INTERP_DP_MAGIC
#define DP_LOCAL INTERP_DP_LOCAL
#define DP_RINGBUF INTERP_DP_RINGBUF
#define DP_NULL INTERP_DP_NULL
#define DP_MAX_SIZE INTERP_DP_MAX_SIZE	/* DYNPTR_MAX_SIZE */

struct dp_val {
	uint64_t va;
	uint32_t size, tag;
};

/* The 16 bytes at r[reg] as a dynptr slot of a frame; NULL after a trap. */
static uint8_t *dp_slot(struct interp_state *st, const struct iop *ip, int reg, const char *name)
{
	uint64_t a = st->h.regs[reg];
	uint8_t *p;

	if ((a >> 44) != (INTERP_VA_STACK >> 44) || (a & 7)) {
		set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: r%d = 0x%llx is not 8 aligned bytes of "
			 "the stack (a dynptr)", name, reg, (unsigned long long)a);
		return NULL;
	}
	if (!(p = mem_ptr(st, ip->pc, a, 16, ACC_STORE)))
		return NULL;
	return p;
}

/* The live dynptr at r[reg] into *d; -1 after a trap (no dynptr there, of another kind). */
static int dp_get(struct interp_state *st, const struct iop *ip, int reg, const char *name,
		  struct dp_val *d)
{
	uint8_t *p = dp_slot(st, ip, reg, name);

	if (!p)
		return -1;
	memcpy(&d->va, p, 8);
	memcpy(&d->size, p + 8, 4);
	memcpy(&d->tag, p + 12, 4);
	if ((d->tag & 0xffff0000u) != DP_MAGIC) {
		set_trap(st, INTERP_TRAP_REF, ip->pc, "%s: r%d = 0x%llx is not an initialized "
			 "dynptr (never made, released or overwritten)", name, reg,
			 (unsigned long long)st->h.regs[reg]);
		return -1;
	}
	return 0;
}

/* Ringbuf records, reserved by bpf_ringbuf_reserve (dyn false) and bpf_ringbuf_reserve_dynptr
 * (dyn true), each released only the way it was reserved.  rec_release ends the live record
 * of that kind starting at va: false when there is none (released already, never reserved, not
 * its start), for the caller's trap. */
static bool rec_release(struct interp_state *st, uint64_t va, bool dyn)
{
	uint64_t k = (va - INTERP_VA_RINGBUF) >> 32;

	if ((va >> 44) != (INTERP_VA_RINGBUF >> 44) || (va & 0xffffffffu) || k >= st->nrecs ||
	    !st->recs[k].host || st->recs[k].dyn != dyn)
		return false;
	free(st->recs[k].host);
	st->recs[k].host = NULL;
	st->live_recs--;
	return true;
}

/* The ringbuf map whose handle m is (bpf_ringbuf_reserve's and reserve_dynptr's r1), or NULL
 * after a trap. */
static const struct ebpf_map_def *ringbuf_map(struct interp_state *st, const struct iop *ip,
					      uint64_t m, const char *name)
{
	const struct ebpf_map_def *def;

	if (m - INTERP_VA_MAPH >= st->map_cnt ||
	    (def = &st->env->maps[m - INTERP_VA_MAPH].def)->type != BPF_MAP_TYPE_RINGBUF) {
		set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: r1 = 0x%llx is not a ringbuf map", name,
			 (unsigned long long)m);
		return NULL;
	}
	return def;
}

/* A new record of size bytes, each the next byte of helper data (what the ring held before:
 * the kernel does not zero it); its address in *va.  The caller has checked that there is
 * room (st->nrecs < INTERP_MAX_RECORDS).  -1 after a trap (out of memory). */
static int rec_reserve(struct interp_state *st, const struct iop *ip, const char *name,
		       uint32_t size, bool dyn, uint64_t *va)
{
	if (!(st->recs[st->nrecs].host = calloc(1, size ? size : 1))) {
		st->oom = true;
		set_trap(st, INTERP_TRAP_LIMIT, ip->pc, "%s: out of memory", name);
		return -1;
	}
	memset(st->recs[st->nrecs].host, (int)draw(st, 1), size);
	st->recs[st->nrecs].size = size;
	st->recs[st->nrecs].dyn = dyn;
	*va = INTERP_VA_RINGBUF + ((uint64_t)st->nrecs++ << 32);
	st->live_recs++;
	return 0;
}

static void dp_put(uint8_t *p, uint64_t va, uint32_t size, uint32_t tag)
{
	memcpy(p, &va, 8);
	memcpy(p + 8, &size, 4);
	memcpy(p + 12, &tag, 4);
}

/* The 16 bytes at r[reg] as the slot of a dynptr a call makes: not holding a ringbuf one (the
 * kernel's "cannot overwrite referenced dynptr"); NULL after a trap. */
static uint8_t *dp_new_slot(struct interp_state *st, const struct iop *ip, int reg,
			    const char *name)
{
	uint8_t *p = dp_slot(st, ip, reg, name);
	uint32_t tag;

	if (!p)
		return NULL;
	memcpy(&tag, p + 12, 4);
	if ((tag & 0xffff0000u) == DP_MAGIC && (tag & 0xffu) == DP_RINGBUF) {
		set_trap(st, INTERP_TRAP_REF, ip->pc, "%s: cannot overwrite referenced dynptr (r%d = "
			 "0x%llx holds a ringbuf one)", name, reg, (unsigned long long)st->h.regs[reg]);
		return NULL;
	}
	return p;
}

/* The ringbuf dynptr d was released: so is every clone of it in the live frames (the kernel
 * releases the reference they share and invalidates them all): the same record, or the same
 * identity of a NULL one (0: none was cloned). */
static void dp_release_clones(struct interp_state *st, const struct dp_val *d)
{
	uint8_t *p = st->stack, *end = st->stack + (size_t)(st->h.depth + 1) * EBPF_STACK_SIZE;
	struct dp_val c;

	if ((d->tag & DP_NULL) && !d->va)
		return;
	for (; p + 16 <= end; p += 8) {
		memcpy(&c.tag, p + 12, 4);
		if ((c.tag & 0xffff0000u) != DP_MAGIC || (c.tag & 0xffu) != DP_RINGBUF ||
		    (c.tag & DP_NULL) != (d->tag & DP_NULL))
			continue;
		memcpy(&c.va, p, 8);
		if ((d->tag & DP_NULL) ? c.va == d->va : c.va >> 32 == d->va >> 32)
			dp_put(p, 0, 0, 0);
	}
}

/* bpf_dynptr_from_mem(data, size, flags, ptr), bpf_ringbuf_reserve_dynptr(map, size, flags,
 * ptr), bpf_ringbuf_submit_dynptr(ptr, flags) and bpf_ringbuf_discard_dynptr(ptr, flags), as
 * kernel/bpf/helpers.c and ringbuf.c run them: from_mem makes a local dynptr over size bytes of
 * a map value (the only memory the verifier lets it take), NULL with -EINVAL for flags, -E2BIG
 * past DYNPTR_MAX_SIZE; reserve_dynptr a ringbuf record's (NULL with -EINVAL for flags, -E2BIG
 * past DYNPTR_MAX_SIZE, -EINVAL when bpf_ringbuf_reserve's rule finds no room), a reference
 * even when NULL; submit and discard end it and the dynptr.  0 with *ret, -1 after a trap. */
static int dp_make_helper(struct interp_state *st, const struct iop *ip, int32_t id, uint64_t *ret)
{
	uint64_t *r = st->h.regs;
	const char *name = ebpf_helper_name(id);
	uint32_t size = (uint32_t)r[2];
	const struct ebpf_map_def *def;
	struct dp_val d;
	uint64_t va;
	uint8_t *p;

	*ret = 0;
	if (id == BPF_FUNC_ringbuf_submit_dynptr || id == BPF_FUNC_ringbuf_discard_dynptr) {
		if (dp_get(st, ip, 1, name, &d))
			return -1;
		if ((d.tag & 0xffu) != DP_RINGBUF) {
			set_trap(st, INTERP_TRAP_REF, ip->pc, "%s: r1 = 0x%llx is a local dynptr, "
				 "not a ringbuf one (an unacquired reference)", name,
				 (unsigned long long)r[1]);
			return -1;
		}
		if (d.tag & DP_NULL) {
			st->dp_nulls--;
			st->live_recs--;
		} else if (!rec_release(st, d.va & ~0xffffffffull, true)) {
			set_trap(st, INTERP_TRAP_REF, ip->pc, "%s: the dynptr at r1 = 0x%llx holds no "
				 "live record (released already)", name, (unsigned long long)r[1]);
			return -1;
		}
		dp_put(dp_slot(st, ip, 1, name), 0, 0, 0);
		dp_release_clones(st, &d);
		return 0;
	}
	if (!(p = dp_new_slot(st, ip, 4, name)))
		return -1;
	if (id == BPF_FUNC_dynptr_from_mem) {
		if ((r[1] >> 44) != (INTERP_VA_MAP >> 44)) {
			set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: r1 = 0x%llx is not a map value",
				 name, (unsigned long long)r[1]);
			return -1;
		}
		if (size && !mem_ptr(st, ip->pc, r[1], size, ACC_STORE))
			return -1;
		if (r[3] || size > DP_MAX_SIZE) {
			dp_put(p, 0, 0, DP_MAGIC | DP_LOCAL | DP_NULL);
			*ret = r[3] ? ERR(EINVAL) : ERR(E2BIG);
			return 0;
		}
		dp_put(p, r[1], size, DP_MAGIC | DP_LOCAL);
		return 0;
	}
	if (!(def = ringbuf_map(st, ip, r[1], name)))
		return -1;
	if (r[3] || size > DP_MAX_SIZE || size > def->max_entries || (draw(st, 1) & 1) ||
	    st->nrecs == INTERP_MAX_RECORDS) {
		dp_put(p, 0, 0, DP_MAGIC | DP_RINGBUF | DP_NULL);
		*ret = !r[3] && size > DP_MAX_SIZE ? ERR(E2BIG) : ERR(EINVAL);
		st->dp_nulls++;
		st->live_recs++;
		return 0;
	}
	if (rec_reserve(st, ip, name, size, true, &va))
		return -1;
	dp_put(p, va, size, DP_MAGIC | DP_RINGBUF);
	return 0;
}

/* bpf_dynptr_read(dst, len, src, offset, flags), bpf_dynptr_write(dst, offset, src, len, flags)
 * and bpf_dynptr_data(ptr, offset, len) on a running bpf_user_ringbuf_drain callback's dynptr
 * or on a dynptr on the stack, as kernel/bpf/helpers.c runs them on a local or ringbuf one
 * (writable): read and write copy len bytes (0; -EINVAL for a NULL dynptr or flags, -E2BIG
 * past its size; read tests flags first, write after the bounds), data returns a pointer to
 * its bytes [offset, offset + len) or NULL past it (or for a NULL dynptr); -1 after a trap (no
 * such dynptr, the memory argument not len bytes). */
static int dynptr_helper(struct interp_state *st, const struct iop *ip, int32_t id,
			 uint64_t *ret)
{
	uint64_t *r = st->h.regs, k = 0, va;
	bool rd = id == BPF_FUNC_dynptr_read, wr = id == BPF_FUNC_dynptr_write, null = false;
	bool ro = false, pkt = false;
	uint32_t len = (uint32_t)r[rd ? 2 : wr ? 4 : 3], off = (uint32_t)r[rd ? 4 : 2], size;
	uint64_t flags_ok = 0;
	uint8_t *host = NULL, *mem;
	int reg = rd ? 3 : 1;
	struct dp_val d;

	if ((r[reg] >> 44) == (INTERP_VA_STACK >> 44)) {
		if (dp_get(st, ip, reg, ebpf_helper_name(id), &d))
			return -1;
		size = d.size;
		va = d.va;
		null = d.tag & DP_NULL;
		/* (a read-only one: no write, no data; a packet one's data is NULL, its writes
		 * __bpf_skb_store_bytes's, which take BPF_F_RECOMPUTE_CSUM and _INVALIDATE_HASH) */
		ro = d.tag & INTERP_DP_RDONLY;
		pkt = (d.tag & 0xffu) == INTERP_DP_SKB || (d.tag & 0xffu) == INTERP_DP_XDP;
		flags_ok = (d.tag & 0xffu) == INTERP_DP_SKB ? 3 : 0;
	} else {
		if (!(k = urb_dynptr(st, ip, reg, ebpf_helper_name(id))))
			return -1;
		size = st->urb_size[k];
		va = INTERP_VA_URB + (k << 8);
	}
	if (!rd && !wr) {
		*ret = null || off > size || len > size - off || ro || pkt ? 0 : va + off;
		return 0;
	}
	if (len >= (1u << 29)) {
		set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: size %u is too large",
			 ebpf_helper_name(id), len);
		return -1;
	}
	if (len && !(host = mem_ptr(st, ip->pc, r[rd ? 1 : 3], len, rd ? ACC_STORE : ACC_LOAD)))
		return -1;
	if (null || (rd && r[5]) || (wr && ro))
		*ret = ERR(EINVAL);
	else if (off > size || len > size - off)
		*ret = ERR(E2BIG);
	else if (r[5] & ~(rd ? 0 : flags_ok))
		*ret = ERR(EINVAL);
	else {
		if (len && !(mem = mem_ptr(st, ip->pc, va + off, len, rd ? ACC_LOAD : ACC_STORE)))
			return -1;
		if (len)
			memmove(rd ? host : mem, rd ? mem : host, len);
		*ret = 0;
	}
	return 0;
}

/* A bpf_loop callback returned: *tgt = where to go on, the callback again (in a fresh frame) or
 * the caller after the helper call. */
static __attribute__((noinline)) void loop_next(struct interp_state *st, uint32_t *tgt)
{
	struct frame *f = &st->frames[st->h.depth - 1];
	uint64_t *r = st->h.regs;

	if (f->once) {
		f->cb = f->once = f->urb = false;
		*tgt = pop_frame(st);
		r[0] = 0;
		return;
	}
	if (f->each) {
		if (r[0] == 0 && each_element(st, f, st->h.depth)) {
			f->cb_n++;
			memset(st->stack + (size_t)st->h.depth * EBPF_STACK_SIZE, 0, EBPF_STACK_SIZE);
			st->frames[st->h.depth].may_goto = st->mg_budget;
			r[0] = INTERP_POISON;
			for (int k = 6; k <= 9; k++)
				r[k] = INTERP_POISON;
			r[10] = INTERP_VA_STACK + st->stack_lim;
			*tgt = f->cb_op;
			return;
		}
		f->cb = f->each = false;
		st->key_len[st->h.depth] = 0;	/* (the key dies with the walk) */
		*tgt = pop_frame(st);
		r[0] = f->cb_n;
		return;
	}
	f->cb_i++;
	if (r[0] == 0 && f->cb_i < f->cb_n) {
		frame_fill(st, st->h.depth);
		st->frames[st->h.depth].may_goto = st->mg_budget;
		r[0] = INTERP_POISON;
		for (int k = 6; k <= 9; k++)
			r[k] = INTERP_POISON;
		r[10] = INTERP_VA_STACK + st->stack_lim;
		r[1] = f->cb_i;
		if (f->urb) {
			r[1] = INTERP_VA_DYNPTR + st->h.depth;
			urb_sample(st, st->h.depth);
		}
		r[2] = f->cb_ctx;
		r[3] = r[4] = r[5] = 0;
		*tgt = f->cb_op;
		return;
	}
	f->cb = f->urb = false;
	*tgt = pop_frame(st);
	r[0] = f->cb_i;
}

/* The next element of the map a bpf_for_each_map_elem frame walks, from position f->cb_i on:
 * sets r1-r5 for the callback frame k (the key copied into keys[k]) and returns true, or false
 * when none is left. */
static bool each_element(struct interp_state *st, struct frame *f, unsigned k)
{
	const struct ebpf_map_def *def = &st->env->maps[f->cb_map].def;
	struct map_rt *mr = &st->maps[f->cb_map];
	uint64_t *r = st->h.regs;
	uint32_t pos = f->cb_i;

	if (mr->kind == MAPK_ARRAY) {
		if (pos >= def->max_entries)
			return false;
		memcpy(st->keys[k], &pos, 4);
		st->key_len[k] = 4;
	} else {
		while (mr->host && pos < mr->cap && !mr->used[pos])
			pos++;
		if (!mr->host || pos >= mr->cap)
			return false;
		memcpy(st->keys[k], mr->keys + (size_t)pos * def->key_size, def->key_size);
		st->key_len[k] = (uint16_t)def->key_size;
	}
	f->cb_i = pos + 1;
	r[1] = INTERP_VA_MAPH + f->cb_map;
	r[2] = INTERP_VA_KEY + (uint64_t)k * EBPF_STACK_SIZE;
	r[3] = value_va(f->cb_map, mr, pos);
	r[4] = f->cb_ctx;
	r[5] = 0;
	return true;
}

/* bpf_for_each_map_elem(map, cb, ctx, flags), as kernel/bpf/arraymap.c and hashtab.c run it:
 * flags other than 0 give -EINVAL; then cb(map, &key, &value, ctx, 0) for each element in a
 * frame of its own until it returns non-zero or none is left (r0 = the calls made).  Returns as
 * loop_start. */
static __attribute__((noinline)) int each_start(struct interp_state *st, const struct iop *ip,
						uint32_t *tgt)
{
	const struct interp_code *code = st->code;
	const struct ebpf_map_def *def;
	uint64_t *r = st->h.regs, slot = r[2] - INTERP_VA_FUNC, ctx = r[3];
	struct frame *f, probe;
	size_t m;

	if (map_arg(st, ip, "bpf_for_each_map_elem", &m))
		return -1;
	def = &st->env->maps[m].def;
	if (st->maps[m].kind == MAPK_OUTER || st->maps[m].kind == MAPK_SOCK) {
		set_trap(st, INTERP_TRAP_HELPER, ip->pc, "bpf_for_each_map_elem: map '%s' is a %s",
			 def->name, st->maps[m].kind == MAPK_SOCK ? "socket map" : "map of maps");
		return -1;
	}
	if (!cb_func(st, ip, "bpf_for_each_map_elem", 2))
		return -1;
	if (r[4]) {
		r[0] = ERR(EINVAL);
		poison_args(r);
		return 0;
	}
	if ((st->maps[m].kind == MAPK_ARRAY && def->key_size != 4) ||
	    def->key_size > EBPF_STACK_SIZE || !def->key_size || !def->value_size) {
		set_trap(st, INTERP_TRAP_HELPER, ip->pc, "bpf_for_each_map_elem: map '%s' has key "
			 "size %u and value size %u", def->name, def->key_size, def->value_size);
		return -1;
	}
	/* (a hash table without storage is empty) */
	if (st->maps[m].kind == MAPK_ARRAY &&
	    !map_storage_at(st, m, ip->pc, "bpf_for_each_map_elem"))
		return -1;
	probe = (struct frame){ .cb_map = (uint32_t)m, .cb_ctx = ctx };
	if (!each_element(st, &probe, st->h.depth + 1 < EBPF_MAX_CALL_DEPTH ? st->h.depth + 1 : 0)) {
		r[0] = 0;
		poison_args(r);
		return 0;
	}
	{
		uint64_t args[5];

		memcpy(args, &r[1], sizeof(args));
		if (push_frame(st, ip))
			return -1;
		memcpy(&r[1], args, sizeof(args));
	}
	f = &st->frames[st->h.depth - 1];
	f->cb = true;
	f->each = true;
	f->cb_op = code->slot2op[slot];
	f->cb_i = probe.cb_i;
	f->cb_n = 1;
	f->cb_map = (uint32_t)m;
	f->cb_ctx = ctx;
	*tgt = f->cb_op;
	return 1;
}

/* The open-coded iterator kfuncs, told apart by name (interp_prepare keeps the kind in the
 * operation's pad byte).  The number iterator's (kernel/bpf/bpf_iter.c): struct bpf_iter_num is 8
 * bytes of the program's memory, int cur then int end.  new(it, start, end): start > end gives
 * cur = end = 0 and -EINVAL, end - start (in 64 bits) above BPF_MAX_LOOPS the same with -E2BIG,
 * else cur = start - 1, end = end and 0; next(it): cur + 1 >= end (cur + 1 wrapping as an int)
 * gives cur = end = 0 and NULL, else cur + 1 and &cur (the iterator's own address); destroy(it):
 * cur = end = 0, r0 not defined.
 *
 * The bits iterator's (kernel/bpf/helpers.c): struct bpf_iter_bits is 16 bytes, the words (or
 * the one word itself) at 0, int nr_bits at 8, int bit at 12.  new(it, ptr, nr_words) sets
 * nr_bits = 0 and bit = -1, then gives -EINVAL for a NULL ptr or no words, -E2BIG for more than
 * EBPF_ITER_BITS_MAX_WORDS, else copies the nr_words * 8 bytes at ptr (the kernel's
 * bpf_probe_read_kernel: later writes to them change nothing) and sets nr_bits = 64 nr_words;
 * next(it): NULL when nr_bits is 0 or bit >= nr_bits, else bit = the next set bit above bit
 * (nr_bits when none: NULL), &bit; destroy(it) frees the copy.  Bytes at ptr that are no memory
 * of the run (a scalar, past the stack's top), which the kernel's probe reads as it finds them
 * (-EFAULT, -ERANGE or other kernel bytes), trap with INTERP_TRAP_CALL: not modeled.
 *
 * The iterators over kernel objects (task 24 bytes, css 24, css_task 8, task_vma 8): iter_obj.
 *
 * The lifecycle the verifier demands is checked as the run goes (a program that breaks it never
 * loads, so such a run is a fault): the iterator is 8 aligned bytes of the current frame (16 for
 * bits, 24 for task and css); new on one that overlaps a live one, next or destroy on one that is not live (never
 * created, or destroyed) or of another family, and a frame that exits while one of its
 * iterators is live (a leak) trap with INTERP_TRAP_HELPER, and so does a helper's memory
 * argument that overlaps a live iterator (the kernel refuses a read of its bytes, and after a
 * write the iterator is no longer one: iter_overlap). */
/* (the iterators' kinds: KF_ITER_NUM_NEW + 3 family + op - 1, for the families up to task_vma) */
enum { KF_OTHER, KF_ITER_NUM_NEW, KF_ITER_NUM_NEXT, KF_ITER_NUM_DESTROY, KF_ITER_BITS_NEW,
       KF_ITER_LAST = KF_ITER_NUM_NEW + 3 * (EBPF_ITER_TASK_VMA + 1) - 1, KF_REF_ACQUIRE,
       KF_REF_ACQUIRE_NULL,
       KF_REF_RELEASE, KF_PLAIN, KF_PLAIN_LAST = KF_PLAIN + EBPF_KOP_LAST,
       KF_DP_FROM_SKB, KF_DP_FROM_XDP, KF_DP_CLONE, KF_DP_ADJUST, KF_DP_IS_NULL,
       KF_DP_IS_RDONLY, KF_DP_SIZE, KF_DP_SLICE, KF_DP_SLICE_RDWR };

/* The dynptr kfuncs, from KF_DP_FROM_SKB on. */
static const char *const dp_kfuncs[] = {
	"bpf_dynptr_from_skb", "bpf_dynptr_from_xdp", "bpf_dynptr_clone", "bpf_dynptr_adjust",
	"bpf_dynptr_is_null", "bpf_dynptr_is_rdonly", "bpf_dynptr_size", "bpf_dynptr_slice",
	"bpf_dynptr_slice_rdwr",
};

bool interp_dynptr_kfunc(const char *name)
{
	for (unsigned k = 0; name && k < sizeof(dp_kfuncs) / sizeof(dp_kfuncs[0]); k++)
		if (!strcmp(name, dp_kfuncs[k]))
			return true;
	return false;
}

static uint8_t kfunc_kind(const char *name)
{
	const struct ebpf_kfunc_ref *kf = ebpf_kfunc_ref(name);
	struct ebpf_kfunc_iter it;

	const struct ebpf_kfunc_info *ki = ebpf_kfunc_info(name);

	if (kf)
		return (kf->flags & EBPF_KF_RELEASE) ? KF_REF_RELEASE
		       : (kf->flags & EBPF_KF_RET_NULL) ? KF_REF_ACQUIRE_NULL : KF_REF_ACQUIRE;
	if (ki && ki->op != EBPF_KOP_NONE)
		return (uint8_t)(KF_PLAIN + ki->op);	/* (the op: the program's BTF ids are not
							 * the table's names) */
	for (unsigned k = 0; name && k < sizeof(dp_kfuncs) / sizeof(dp_kfuncs[0]); k++)
		if (!strcmp(name, dp_kfuncs[k]))
			return (uint8_t)(KF_DP_FROM_SKB + k);
	if (!ebpf_kfunc_iter(name, &it) || it.family > EBPF_ITER_TASK_VMA ||
	    !ebpf_iter_family(it.family)->modeled)
		return KF_OTHER;
	return (uint8_t)(KF_ITER_NUM_NEW + 3 * it.family + it.op - EBPF_ITER_NEW);
}

/* An iterator kfunc kind's family and operation. */
static unsigned kf_family(uint8_t kind)
{
	return (kind - KF_ITER_NUM_NEW) / 3u;
}

static unsigned kf_op(uint8_t kind)
{
	return EBPF_ITER_NEW + (kind - KF_ITER_NUM_NEW) % 3;
}

static unsigned iter_size(unsigned family)
{
	return ebpf_iter_family(family)->size;
}

/* Acquired kernel objects: INTERP_VA_KOBJ + (k + 1) << 32, in INTERP_VA_BTF's region above
 * the context's objects (INTERP_VA_BTF + slot << 32, triage/verdict.c). */
#define INTERP_VA_KOBJ (INTERP_VA_BTF + (0x800ull << 32))

/* The kfuncs of bpf/kfunc.c's reference table, as the kernel runs them: an acquire returns a
 * new kernel object that reads as the helper data (INTERP_VA_KOBJ + (k + 1) << 32), or NULL
 * when it may (KF_RET_NULL) and a byte of helper data is odd; a release ends a live one, given
 * its start.  A release of anything else, and (ringbuf_leak) the main program's exit or a tail
 * call while one is live, trap with INTERP_TRAP_REF.  0, or -1 after a trap. */
static __attribute__((noinline)) int kfunc_ref(struct interp_state *st, const struct iop *ip)
{
	uint64_t *r = st->h.regs, k = (r[1] - INTERP_VA_KOBJ) >> 32;

	if (ip->pad == KF_REF_RELEASE) {
		if (r[1] < INTERP_VA_KOBJ || (r[1] >> 44) != (INTERP_VA_BTF >> 44) ||
		    (r[1] & 0xffffffffu) || !k ||
		    k > st->nkobjs || !st->kobj_live[k - 1]) {
			set_trap(st, INTERP_TRAP_REF, ip->pc, "kfunc release: r1 = 0x%llx is not the "
				 "start of a live acquired object (released, or never acquired)",
				 (unsigned long long)r[1]);
			return -1;
		}
		st->kobj_live[k - 1] = 0;
		st->live_recs--;
		r[0] = INTERP_POISON;
	} else if ((ip->pad == KF_REF_ACQUIRE_NULL && (draw(st, 1) & 1)) ||
		   st->nkobjs == INTERP_MAX_RECORDS) {
		r[0] = 0;
	} else {
		st->kobj_mask[st->nkobjs] = 0;	/* (bpf_cpumask_create's: empty) */
		st->kobj_live[st->nkobjs++] = 1;
		st->live_recs++;
		r[0] = INTERP_VA_KOBJ + ((uint64_t)st->nkobjs << 32);
	}
	poison_args(r);
	return 0;
}

/* The live acquired object at address a (its index), or -1 after a trap naming what kfunc name
 * was given instead. */
static int kobj_at(struct interp_state *st, const struct iop *ip, uint64_t a, const char *name)
{
	uint64_t k = (a - INTERP_VA_KOBJ) >> 32;

	if (a < INTERP_VA_KOBJ || (a >> 44) != (INTERP_VA_BTF >> 44) || (a & 0xffffffffu) || !k ||
	    k > st->nkobjs || !st->kobj_live[k - 1]) {
		set_trap(st, INTERP_TRAP_REF, ip->pc, "kfunc %s: 0x%llx is not the start of a live "
			 "acquired object (released, or never acquired)", name,
			 (unsigned long long)a);
		return -1;
	}
	return (int)(k - 1);
}

/* The kfuncs modeled from their prototype (bpf/kfunc_table.c, op not NONE), as the kernel runs
 * them: the cpumask kfuncs (kernel/bpf/cpumask.c) on the CPUs of the bpf_cpumask objects this
 * run acquired (kobj_mask: bit c for cpu c below ncpus, the run's nr_cpu_ids; a cpu not below it
 * is ignored by the updates and tests false; "no CPU" results are ncpus: cpumask_first's
 * nr_cpu_ids; bpf_cpumask_any_distribute takes the first CPU, one the kernel may pick), and
 * EBPF_KOP_DRAW's results from the helper data.  An object argument that is not a live object
 * of this run traps with INTERP_TRAP_REF (the analyzer lets only those through).  0, or -1 after
 * a trap. */
static __attribute__((noinline)) int kfunc_plain(struct interp_state *st, const struct iop *ip)
{
	uint64_t *r = st->h.regs, all, *m[3] = { 0 }, a, b;
	unsigned op = ip->pad - KF_PLAIN;
	unsigned n = st->ncpus < 64 ? st->ncpus : 64, obj0 = 0, nobj = 0;
	uint32_t cpu = (uint32_t)r[1];
	const char *name = "cpumask";
	int k;

	all = n == 64 ? ~0ull : (1ull << n) - 1;
	switch (op) {
	/* the regions (kernel/bpf/verifier.c check_kfunc_call): RCU does not nest, preemption
	 * counts */
	case EBPF_KOP_RCU_LOCK: case EBPF_KOP_RCU_UNLOCK: case EBPF_KOP_PREEMPT_OFF:
	case EBPF_KOP_PREEMPT_ON:
		if ((op == EBPF_KOP_RCU_LOCK && st->rcu) || (op == EBPF_KOP_RCU_UNLOCK && !st->rcu) ||
		    (op == EBPF_KOP_PREEMPT_ON && !st->preempt)) {
			set_trap(st, INTERP_TRAP_RULE, ip->pc, "%s", op == EBPF_KOP_RCU_LOCK
				 ? "nested rcu read lock" : op == EBPF_KOP_RCU_UNLOCK
				 ? "unmatched rcu read unlock"
				 : "unmatched attempt to enable preemption");
			return -1;
		}
		if (op == EBPF_KOP_RCU_LOCK || op == EBPF_KOP_RCU_UNLOCK)
			st->rcu = op == EBPF_KOP_RCU_LOCK;
		else
			st->preempt += op == EBPF_KOP_PREEMPT_OFF ? 1 : -1;
		poison_args(r);
		r[0] = INTERP_POISON;
		return 0;
	case EBPF_KOP_DRAW:
		r[0] = draw(st, 8);
		poison_args(r);
		return 0;
	case EBPF_KOP_CM_SET_CPU: case EBPF_KOP_CM_CLEAR_CPU: case EBPF_KOP_CM_TEST_CPU:
	case EBPF_KOP_CM_TEST_SET: case EBPF_KOP_CM_TEST_CLEAR:
		obj0 = 1, nobj = 1;	/* (cpu, mask) */
		break;
	case EBPF_KOP_CM_AND: case EBPF_KOP_CM_OR: case EBPF_KOP_CM_XOR:
		nobj = 3;
		break;
	case EBPF_KOP_CM_FIRST_AND: case EBPF_KOP_CM_EQUAL: case EBPF_KOP_CM_INTERSECTS:
	case EBPF_KOP_CM_SUBSET: case EBPF_KOP_CM_COPY: case EBPF_KOP_CM_ANY_AND:
		nobj = 2;
		break;
	default:
		nobj = 1;
	}
	for (unsigned j = 0; j < nobj; j++) {
		if ((k = kobj_at(st, ip, r[1 + obj0 + j], name)) < 0)
			return -1;
		m[j] = &st->kobj_mask[k];
	}
	a = *m[0] & all;
	b = m[1] ? *m[1] & all : 0;
	r[0] = INTERP_POISON;	/* (the void ones: set_cpu, clear_cpu, setall, clear, or, xor,
				 * copy) */
	switch (op) {
	case EBPF_KOP_CM_FIRST: case EBPF_KOP_CM_ANY:
		r[0] = a ? (uint64_t)__builtin_ctzll(a) : n;
		break;
	case EBPF_KOP_CM_FIRST_ZERO:
		r[0] = ~a & all ? (uint64_t)__builtin_ctzll(~a & all) : n;
		break;
	case EBPF_KOP_CM_FIRST_AND: case EBPF_KOP_CM_ANY_AND:
		r[0] = a & b ? (uint64_t)__builtin_ctzll(a & b) : n;
		break;
	case EBPF_KOP_CM_SET_CPU: case EBPF_KOP_CM_CLEAR_CPU: case EBPF_KOP_CM_TEST_CPU:
	case EBPF_KOP_CM_TEST_SET: case EBPF_KOP_CM_TEST_CLEAR:
		if (op != EBPF_KOP_CM_SET_CPU && op != EBPF_KOP_CM_CLEAR_CPU)
			r[0] = cpu < n && (a >> cpu & 1);
		if (cpu < n && (op == EBPF_KOP_CM_SET_CPU || op == EBPF_KOP_CM_TEST_SET))
			*m[0] |= 1ull << cpu;
		if (cpu < n && (op == EBPF_KOP_CM_CLEAR_CPU || op == EBPF_KOP_CM_TEST_CLEAR))
			*m[0] &= ~(1ull << cpu);
		break;
	case EBPF_KOP_CM_SETALL:
		*m[0] = all;
		break;
	case EBPF_KOP_CM_CLEAR:
		*m[0] = 0;
		break;
	case EBPF_KOP_CM_AND: case EBPF_KOP_CM_OR: case EBPF_KOP_CM_XOR: {
		uint64_t c = *m[2] & all, v = op == EBPF_KOP_CM_AND ? b & c
					    : op == EBPF_KOP_CM_OR ? b | c : b ^ c;

		*m[0] = v;
		if (op == EBPF_KOP_CM_AND)
			r[0] = v != 0;	/* (bpf_cpumask_and's bool; or and xor are void) */
		break;
	}
	case EBPF_KOP_CM_EQUAL:
		r[0] = a == b;
		break;
	case EBPF_KOP_CM_INTERSECTS:
		r[0] = (a & b) != 0;
		break;
	case EBPF_KOP_CM_SUBSET:
		r[0] = (a & ~b) == 0;
		break;
	case EBPF_KOP_CM_EMPTY:
		r[0] = a == 0;
		break;
	case EBPF_KOP_CM_FULL:
		r[0] = a == all;
		break;
	case EBPF_KOP_CM_COPY:
		*m[0] = b;
		break;
	case EBPF_KOP_CM_WEIGHT:
		r[0] = (uint64_t)__builtin_popcountll(a);
		break;
	default:
		break;
	}
	poison_args(r);
	return 0;
}

/* Whether a program of type t may write packet data (the kernel's may_access_direct_pkt_data
 * for BPF_WRITE): an skb dynptr of the others is read-only (bpf_dynptr_from_skb_rdonly). */
static bool pkt_writer(uint32_t t)
{
	return t == BPF_PROG_TYPE_SCHED_CLS || t == BPF_PROG_TYPE_SCHED_ACT ||
	       t == BPF_PROG_TYPE_XDP || t == BPF_PROG_TYPE_LWT_XMIT || t == BPF_PROG_TYPE_SK_SKB ||
	       t == BPF_PROG_TYPE_SK_MSG || t == BPF_PROG_TYPE_CGROUP_SOCKOPT;
}

/* The dynptr kfuncs as kernel/bpf/helpers.c and net/core/filter.c run them (u32 arguments:
 * the low halves of the registers).  from_skb(ctx, flags, ptr) and from_xdp make a dynptr of the
 * whole packet (this run's packet is linear: every slice of it points into it), read-only for an
 * skb of a program that may not write packet data; flags give a NULL one and -EINVAL.
 * clone(ptr, c) copies it (a NULL one's clone is NULL with -EINVAL, and a NULL ringbuf one's
 * shares an identity with it, as a record's clones share the record: dp_release_clones);
 * adjust(ptr, start, end) moves its view ([start, end) of it: -EINVAL for a NULL one or start >
 * end, -ERANGE past its size); is_null, is_rdonly (false for a NULL one) and size (-EINVAL as a
 * u32 for a NULL one); slice(ptr, off, buf, n) and slice_rdwr (NULL for a read-only one) return
 * its bytes [off, off + n), or NULL for a NULL one or past its size; buf, when not NULL, must be
 * n bytes the kernel may write.  A make over a ringbuf dynptr, a use of anything but a live
 * dynptr trap as the helpers' do.  0, or -1 after a trap. */
static __attribute__((noinline)) int dp_kfunc(struct interp_state *st, const struct iop *ip)
{
	uint64_t *r = st->h.regs;
	const char *name = dp_kfuncs[ip->pad - KF_DP_FROM_SKB];
	uint32_t a2 = (uint32_t)r[2], a3 = (uint32_t)r[3], n = (uint32_t)r[4];
	bool xdp = ip->pad == KF_DP_FROM_XDP, null;
	struct dp_val d;
	int64_t ret = 0;
	uint8_t *p;

	if (ip->pad == KF_DP_FROM_SKB || xdp) {
		if (st->env->ctx_kind != (xdp ? INTERP_CTX_XDP : INTERP_CTX_SKB) ||
		    r[1] != INTERP_VA_CTX) {
			set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: r1 = 0x%llx is not the context "
				 "of %s program", name, (unsigned long long)r[1],
				 xdp ? "an XDP" : "a socket buffer");
			return -1;
		}
		if (!(p = dp_new_slot(st, ip, 3, name)))
			return -1;
		if (r[2]) {
			dp_put(p, 0, 0, DP_MAGIC | (xdp ? INTERP_DP_XDP : INTERP_DP_SKB) | DP_NULL);
			ret = -EINVAL;
		} else {
			dp_put(p, INTERP_VA_PKT, (uint32_t)st->pkt_len,
			       DP_MAGIC | (xdp ? INTERP_DP_XDP : INTERP_DP_SKB) |
			       (!xdp && !pkt_writer(st->env->prog_type) ? INTERP_DP_RDONLY : 0));
		}
		r[0] = (uint64_t)ret;
		poison_args(r);
		return 0;
	}
	if (dp_get(st, ip, 1, name, &d))
		return -1;
	null = d.tag & DP_NULL;
	switch (ip->pad) {
	case KF_DP_CLONE:
		if (!(p = dp_new_slot(st, ip, 2, name)))
			return -1;
		if (null && (d.tag & 0xffu) == DP_RINGBUF && !d.va) {
			/* (the reference the clone shares: an identity for both) */
			d.va = ++st->dp_ids;
			dp_put(dp_slot(st, ip, 1, name), d.va, d.size, d.tag);
		}
		dp_put(p, d.va, d.size, d.tag);
		ret = null ? -EINVAL : 0;
		break;
	case KF_DP_ADJUST:
		if (null || a2 > a3) {
			ret = -EINVAL;
		} else if (a2 > d.size || a3 > d.size) {
			ret = -ERANGE;
		} else {
			dp_put(dp_slot(st, ip, 1, name), d.va + a2, a3 - a2, d.tag);
			ret = 0;
		}
		break;
	case KF_DP_IS_NULL:
		ret = null;
		break;
	case KF_DP_IS_RDONLY:
		ret = !null && (d.tag & INTERP_DP_RDONLY);
		break;
	case KF_DP_SIZE:
		ret = null ? (uint32_t)-EINVAL : d.size;
		break;
	default:	/* slice, slice_rdwr */
		if (r[3] && n && !mem_ptr(st, ip->pc, r[3], n, ACC_STORE))
			return -1;
		ret = null || (ip->pad == KF_DP_SLICE_RDWR && (d.tag & INTERP_DP_RDONLY)) ||
		      a2 > d.size || n > d.size - a2 ? 0 : (int64_t)(d.va + a2);
		break;
	}
	r[0] = (uint64_t)ret;
	poison_args(r);
	return 0;
}

static int iter_find(const struct interp_state *st, uint64_t a)
{
	for (unsigned k = 0; k < st->niters; k++)
		if (st->iters[k] == a)
			return (int)k;
	return -1;
}

/* 0, or -1 after a trap: the lifecycle step of a call on the iterator at a. */
static int iter_lifecycle(struct interp_state *st, uint32_t pc, uint8_t kind, uint64_t a)
{
	uint64_t lo = INTERP_VA_STACK + (uint64_t)st->h.depth * EBPF_STACK_SIZE;
	unsigned fam = kf_family(kind), op = kf_op(kind), size = iter_size(fam);
	const char *name = ebpf_kfunc_iter_name(fam, op);
	int k = iter_find(st, a);

	if (a < lo || a > lo + EBPF_STACK_SIZE - size || (a - lo) % 8) {
		set_trap(st, INTERP_TRAP_HELPER, pc, "%s: r1 is not %u aligned bytes of the current "
			 "frame", name, size);
		return -1;
	}
	if (op == EBPF_ITER_NEW) {
		for (unsigned j = 0; j < st->niters; j++)
			if (a < st->iters[j] + iter_size(st->iter_fam[j]) && st->iters[j] < a + size) {
				set_trap(st, INTERP_TRAP_HELPER, pc, "%s on a live iterator (fp%d)",
					 name, (int)(st->iters[j] - lo) - EBPF_STACK_SIZE);
				return -1;
			}
		if (st->niters == INTERP_MAX_ITERS) {
			set_trap(st, INTERP_TRAP_LIMIT, pc, "more than %d live iterators",
				 INTERP_MAX_ITERS);
			return -1;
		}
		/* the slot's bytes are the frame's (the kernel's process_iter_arg checks them as
		 * a stack write): they count in its depth */
		if (((a - INTERP_VA_STACK) & (EBPF_STACK_SIZE - 1)) < st->low[st->h.depth] &&
		    !stack_deeper(st, pc, a - INTERP_VA_STACK))
			return -1;
		st->iter_fam[st->niters] = (uint8_t)fam;
		st->iter_bits[st->niters] = NULL;
		st->iter_nbits[st->niters] = 0;
		st->iter_bit[st->niters] = -1;
		st->iters[st->niters++] = a;
		return 0;
	}
	if (k < 0 || st->iter_fam[k] != fam) {
		set_trap(st, INTERP_TRAP_HELPER, pc, "%s on an iterator that is not live (fp%d: %s)",
			 name, (int)(a - lo) - EBPF_STACK_SIZE,
			 k < 0 ? "never created, or destroyed" : "another family's");
		return -1;
	}
	if (op == EBPF_ITER_DESTROY) {
		free(st->iter_bits[k]);
		--st->niters;
		st->iters[k] = st->iters[st->niters];
		st->iter_fam[k] = st->iter_fam[st->niters];
		st->iter_bits[k] = st->iter_bits[st->niters];
		st->iter_nbits[k] = st->iter_nbits[st->niters];
		st->iter_bit[k] = st->iter_bit[st->niters];
	}
	return 0;
}

/* Every live iterator forgotten (the run ends, or a cut ends what the program holds). */
static void iters_drop(struct interp_state *st)
{
	for (unsigned k = 0; k < st->niters; k++)
		free(st->iter_bits[k]);
	st->niters = 0;
}

/* At the exit of the current frame: -1 after a trap when one of its iterators is live. */
static __attribute__((noinline)) int iter_leak(struct interp_state *st, uint32_t pc)
{
	uint64_t lo = INTERP_VA_STACK + (uint64_t)st->h.depth * EBPF_STACK_SIZE;

	for (unsigned k = 0; k < st->niters; k++)
		if (st->iters[k] >= lo && st->iters[k] < lo + EBPF_STACK_SIZE) {
			set_trap(st, INTERP_TRAP_HELPER, pc, "exit with a live iterator (fp%d "
				 "never destroyed)", (int)(st->iters[k] - lo) - EBPF_STACK_SIZE);
			return -1;
		}
	return 0;
}

/* 0, or -1 after a trap when [a, a + size), helper name's memory argument rN, overlaps the
 * bytes of a live iterator. */
static __attribute__((noinline)) int iter_overlap(struct interp_state *st, uint32_t pc,
						  const char *name, int n, uint64_t a, uint64_t size)
{
	for (unsigned k = 0; k < st->niters; k++)
		if (a < st->iters[k] + iter_size(st->iter_fam[k]) && st->iters[k] < a + size) {
			set_trap(st, INTERP_TRAP_HELPER, pc, "%s: the memory of r%d overlaps the live "
				 "iterator at 0x%llx", name, n, (unsigned long long)st->iters[k]);
			return -1;
		}
	return 0;
}

/* bpf_iter_bits_new, _next and _destroy on the live (or, for new, just made) iterator at
 * host p, the k-th (see above).  0, or -1 after a trap. */
static int iter_bits(struct interp_state *st, const struct iop *ip, uint8_t *p, int k)
{
	uint64_t *r = st->h.regs, nw = (uint32_t)r[3];
	int32_t *nr_bits = &st->iter_nbits[k], *bit = &st->iter_bit[k];
	const uint8_t *src;

	switch (kf_op(ip->pad)) {
	case EBPF_ITER_NEW:
		memset(p, 0, 8);
		if (!r[2] || !nw) {
			r[0] = (uint64_t)(int64_t)-EINVAL;
		} else if (nw > EBPF_ITER_BITS_MAX_WORDS) {
			r[0] = (uint64_t)(int64_t)-E2BIG;
		} else {
			if (!(src = mem_ptr(st, ip->pc, r[2], nw * 8, ACC_LOAD))) {
				if (st->res->trap == INTERP_TRAP_MEM)
					set_trap(st, INTERP_TRAP_CALL, ip->pc, "bpf_iter_bits_new: "
						 "the %llu bytes at r2 = 0x%llx are no memory of the "
						 "run (the kernel reads whatever is there: not modeled)",
						 (unsigned long long)nw * 8, (unsigned long long)r[2]);
				return -1;
			}
			if (!(st->iter_bits[k] = malloc(nw * 8))) {
				st->oom = true;
				set_trap(st, INTERP_TRAP_LIMIT, ip->pc, "bpf_iter_bits_new: out of "
					 "memory");
				return -1;
			}
			memcpy(st->iter_bits[k], src, nw * 8);
			if (nw == 1)
				memcpy(p, src, 8);
			*nr_bits = (int32_t)(nw * 64);
			r[0] = 0;
		}
		break;
	case EBPF_ITER_NEXT:
		r[0] = 0;
		if (!*nr_bits || *bit >= *nr_bits)
			break;
		for (++*bit; *bit < *nr_bits && !(st->iter_bits[k][*bit / 64] >> (*bit % 64) & 1);
		     ++*bit)
			;
		if (*bit < *nr_bits)
			r[0] = r[1] + 12;
		break;
	default:	/* destroy: the copy freed (iter_lifecycle); the bytes stay */
		r[0] = INTERP_POISON;
		poison_args(r);
		return 0;
	}
	memcpy(p + 8, nr_bits, 4);
	memcpy(p + 12, bit, 4);
	poison_args(r);
	return 0;
}

/* Whether flags are ones bpf_iter_<family>_new takes (kernel/bpf/task_iter.c; others give
 * -EINVAL): the task iterator's BPF_TASK_ITER_ALL_PROCS (0) and _ALL_THREADS (1), or
 * _PROC_THREADS (2) of a task given; the css iterator's BPF_CGROUP_ITER_DESCENDANTS_PRE (2),
 * _DESCENDANTS_POST (3) and _ANCESTORS_UP (4); the css_task iterator's 0, CSS_TASK_ITER_PROCS
 * (1) and PROCS | THREADED (3); task_vma's addr, any. */
static bool obj_flags_ok(unsigned fam, uint64_t task, uint32_t flags)
{
	switch (fam) {
	case EBPF_ITER_TASK:
		return flags <= 1 || (flags == 2 && task);
	case EBPF_ITER_CSS:
		return flags >= 2 && flags <= 4;
	case EBPF_ITER_CSS_TASK:
		return flags == 0 || flags == 1 || flags == 3;
	default:
		return true;
	}
}

/* The iterators over kernel objects (task, css, css_task, task_vma), as a deterministic model of
 * what the kernel walks: new(it, obj, flags) takes a kernel object (INTERP_VA_BTF's region; the
 * task iterator's also NULL), else traps (the verifier refuses anything else); bad flags give
 * -EINVAL and an empty walk, else 0 and a walk of 0 to 3 objects, the count drawn from the helper
 * data (the real system's tasks, cgroups and vmas are no input: a kernel run's r0 is not
 * compared, its verdict is).  next gives the next object (INTERP_VA_BTF: it reads as the helper
 * data, as every kernel object does) or NULL when they ran out; destroy ends it.  The count
 * lives in iter_nbits. */
static int iter_obj(struct interp_state *st, const struct iop *ip, unsigned fam, int k)
{
	uint64_t *r = st->h.regs;
	const char *name = ebpf_kfunc_iter_name(fam, kf_op(ip->pad));

	switch (kf_op(ip->pad)) {
	case EBPF_ITER_NEW:
		if ((r[2] || fam != EBPF_ITER_TASK) && (r[2] >> 44) != (INTERP_VA_BTF >> 44)) {
			set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: r2 = 0x%llx is not a kernel "
				 "object", name, (unsigned long long)r[2]);
			return -1;
		}
		if (!obj_flags_ok(fam, r[2], (uint32_t)r[3])) {
			st->iter_nbits[k] = 0;
			r[0] = (uint64_t)(int64_t)-EINVAL;
		} else {
			st->iter_nbits[k] = (int32_t)(draw(st, 1) % 4);
			r[0] = 0;
		}
		break;
	case EBPF_ITER_NEXT:
		r[0] = st->iter_nbits[k] > 0 ? INTERP_VA_BTF : 0;
		st->iter_nbits[k] -= st->iter_nbits[k] > 0;
		break;
	default:
		r[0] = INTERP_POISON;
		break;
	}
	poison_args(r);
	return 0;
}

/* 0, or -1 after a trap. */
static int ringbuf_leak(struct interp_state *st, uint32_t pc);

/* bpf_throw(cookie) (kernel/bpf/helpers.c): what the program holds is a leak as at main's exit
 * (the kernel's exception exit checks every frame); then every frame unwinds and the exception
 * callback runs in main's place with the cookie in r1 (*tgt its first operation: 1), or, without
 * one, the run ends with the cookie as its result (the kernel's default callback: r0 = r1; 0).
 * -1 after a trap. */
static __attribute__((noinline)) int do_throw(struct interp_state *st, const struct iop *ip,
					      uint32_t *tgt)
{
	uint64_t *r = st->h.regs, cookie = r[1];
	unsigned depth = st->h.depth;

	for (unsigned k = 0; k <= depth; k++) {
		st->h.depth = k;	/* (iter_leak looks at the frame of the depth) */
		if (st->niters && iter_leak(st, ip->pc)) {
			st->h.depth = depth;
			return -1;
		}
	}
	if ((st->live_recs && ringbuf_leak(st, ip->pc)))
		return -1;
	if (st->lock_held) {
		set_trap(st, INTERP_TRAP_REF, ip->pc, "bpf_throw while the lock at 0x%llx is held",
			 (unsigned long long)st->lock_held);
		return -1;
	}
	st->h.depth = 0;
	st->stack_lim = EBPF_STACK_SIZE;
	if (st->code->exc_op == UINT32_MAX) {
		r[0] = cookie;
		st->exit_pc = ip->pc;
		return 0;
	}
	frame_fill(st, 0);	/* (the callback's frame: nothing it did not write) */
	st->low[0] = EBPF_STACK_SIZE;
	st->frames[0].may_goto = st->mg_budget;
	poison_args(r);
	r[0] = INTERP_POISON;
	for (int k = 6; k <= 9; k++)
		r[k] = INTERP_POISON;
	r[1] = cookie;
	r[10] = INTERP_VA_STACK + st->stack_lim;
	*tgt = st->code->exc_op;
	return 1;
}

static __attribute__((noinline)) int do_kfunc(struct interp_state *st, const struct iop *ip)
{
	uint64_t *r = st->h.regs;
	uint8_t *p;
	int32_t cur, end, start;
	int64_t ret = 0;
	int k;

	if (ip->pad == KF_OTHER) {
		set_trap(st, INTERP_TRAP_CALL, ip->pc, "kfunc call (BTF id %d) is not supported",
			 (int32_t)ip->imm);
		return -1;
	}
	if (ip->pad >= KF_DP_FROM_SKB)
		return dp_kfunc(st, ip);
	if (ip->pad >= KF_PLAIN && ip->pad <= KF_PLAIN_LAST)
		return kfunc_plain(st, ip);
	if (ip->pad >= KF_REF_ACQUIRE)
		return kfunc_ref(st, ip);
	if (ebpf_iter_family_obj(kf_family(ip->pad))) {
		if (iter_lifecycle(st, ip->pc, ip->pad, r[1]) ||
		    !(p = mem_ptr(st, ip->pc, r[1], iter_size(kf_family(ip->pad)), ACC_STORE)))
			return -1;
		k = iter_find(st, r[1]);
		return iter_obj(st, ip, kf_family(ip->pad), k < 0 ? 0 : k);	/* (a destroy) */
	}
	if (kf_family(ip->pad) == EBPF_ITER_BITS) {
		/* (the words of a destroy are freed by iter_lifecycle: none are read after) */
		if (iter_lifecycle(st, ip->pc, ip->pad, r[1]) ||
		    !(p = mem_ptr(st, ip->pc, r[1], 16, ACC_STORE)))
			return -1;
		k = iter_find(st, r[1]);
		return iter_bits(st, ip, p, k < 0 ? 0 : k);	/* (k < 0: a destroy) */
	}
	if (iter_lifecycle(st, ip->pc, ip->pad, r[1]))
		return -1;
	p = mem_ptr(st, ip->pc, r[1], 8, ACC_STORE);
	if (!p)
		return -1;
	memcpy(&cur, p, 4);
	memcpy(&end, p + 4, 4);
	switch (ip->pad) {
	case KF_ITER_NUM_NEW:
		start = (int32_t)r[2];
		end = (int32_t)r[3];
		if (start > end || (int64_t)end - (int64_t)start > INTERP_MAX_LOOPS) {
			ret = start > end ? -EINVAL : -E2BIG;
			cur = end = 0;
		} else {
			cur = (int32_t)((uint32_t)start - 1);
		}
		r[0] = (uint64_t)ret;
		break;
	case KF_ITER_NUM_NEXT:
		if ((int64_t)(int32_t)((uint32_t)cur + 1) >= end) {
			cur = end = 0;
			r[0] = 0;
		} else {
			cur = (int32_t)((uint32_t)cur + 1);
			r[0] = r[1];
		}
		break;
	default:	/* destroy */
		cur = end = 0;
		r[0] = INTERP_POISON;
		break;
	}
	memcpy(p, &cur, 4);
	memcpy(p + 4, &end, 4);
	poison_args(r);
	return 0;
}

/* callx: 0 with *tgt = a function's first operation, 1 = call helper v, -1 = trap. */
static __attribute__((noinline)) int callx_resolve(struct interp_state *st,
						   const struct iop *ip, uint64_t v, uint32_t *tgt)
{
	const struct interp_code *code = st->code;
	uint64_t slot = v - INTERP_VA_FUNC;

	if (slot < code->nslots && code->func[slot]) {
		*tgt = code->slot2op[slot];
		return 0;
	}
	if (st->env->callx_helper_ids && v < (1ull << 31))
		return 1;
	set_trap(st, INTERP_TRAP_CALL, ip->pc, "callx r%u = 0x%llx is not a function address",
		 ip->dst, (unsigned long long)v);
	return -1;
}

/* The result of a call of helper id that draws only its result (interp_helper_replayed): the
 * next of env->replay when the run replays the kernel's (past its end 0, the run says so), else
 * drawn from the helper data. */
static uint64_t drawn_result(struct interp_state *st, int32_t id)
{
	const struct interp_env *env = st->env;

	if (!env->replay)
		return draw(st, interp_helper_draw_width(id));
	if (st->rp_pos >= env->replay_len) {
		st->res->replay_short = true;
		return 0;
	}
	st->res->replayed++;
	return env->replay[st->rp_pos++];
}

/* The next n bytes of the helper data stream, little-endian; 0 past its end.  (A run replaying
 * the kernel's results draws nothing else: what it would draw is not the kernel's.) */
static uint64_t draw(struct interp_state *st, unsigned n)
{
	const struct interp_env *env = st->env;
	uint64_t v = 0;

	if (env->replay)
		st->res->replay_other = true;

	for (unsigned k = 0; k < n && st->hd_pos < env->helper_len; k++)
		v |= (uint64_t)env->helper_data[st->hd_pos++] << (8 * k);
	return v;
}

static int map_arg(struct interp_state *st, const struct iop *ip, const char *name, size_t *m)
{
	uint64_t h = st->h.regs[1] - INTERP_VA_MAPH;

	if (h >= st->map_cnt) {
		set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: r1 = 0x%llx is not a map handle",
			 name, (unsigned long long)st->h.regs[1]);
		return -1;
	}
	*m = h;
	if (st->maps[h].kind == MAPK_OTHER) {
		set_trap(st, INTERP_TRAP_HELPER, ip->pc,
			 "%s: map %zu '%s' has type %u, not modeled", name, h,
			 st->env->maps[h].def.name, st->env->maps[h].def.type);
		return -1;
	}
	return 0;
}

/* Hash slot holding key, or -1. */
static long hash_find(const struct map_rt *mr, const uint8_t *key, uint32_t ks)
{
	for (uint32_t k = 0; k < mr->cap; k++)
		if (mr->used[k] && !memcmp(mr->keys + (size_t)k * ks, key, ks))
			return k;
	return -1;
}

/* The key r2 points to, for a helper on map m (name for its traps): its bytes, or NULL after a
 * trap (a key size the map's type does not take, note appended for an array's; the bytes not
 * readable). */
static const uint8_t *map_key(struct interp_state *st, const struct iop *ip, const char *name,
			      size_t m, const char *note)
{
	const struct ebpf_map_def *def = &st->env->maps[m].def;
	const struct map_rt *mr = &st->maps[m];

	if (def->key_size == 0 || (mr->kind == MAPK_ARRAY && def->key_size != 4)) {
		set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: map '%s' has key size %u%s", name,
			 def->name, def->key_size, mr->kind == MAPK_ARRAY ? note : "");
		return NULL;
	}
	return mem_ptr(st, ip->pc, st->h.regs[2], def->key_size, ACC_LOAD);
}

/* The element of map m that key finds, once the map's storage is there (map_storage_at: a trap
 * when it cannot be): an array's index below its entries or a hash map's slot, else -1; -2 after
 * a trap. */
static long map_slot(struct interp_state *st, const struct iop *ip, const char *name, size_t m,
		     const uint8_t *key)
{
	const struct ebpf_map_def *def = &st->env->maps[m].def;
	const struct map_rt *mr = &st->maps[m];
	uint32_t idx;

	if (!map_storage_at(st, m, ip->pc, name))
		return -2;
	if (mr->kind != MAPK_ARRAY)
		return hash_find(mr, key, def->key_size);
	memcpy(&idx, key, 4);
	return idx < def->max_entries ? (long)idx : -1;
}

/* bpf_timer_init/set_callback/start/cancel (kernel/bpf/helpers.c) on the struct bpf_timer of
 * a map value (ebpf_map_def.timer; the verifier refuses any other pointer, so a run traps).
 * The state lives in the timer's own bytes, which the program cannot read or write (the
 * verifier refuses it): byte 0 bit 0 initialized, bit 1 a callback set, bit 2 started (pending),
 * bit 3 fired during the run (a cancel found it no longer pending); bytes 4-7 the callback's
 * slot; bytes 8-15 the start's nsecs.  init: flags a clock id of CLOCK_REALTIME, MONOTONIC or
 * BOOTTIME (else -EINVAL), -EBUSY when initialized already, -ENOMEM when env.timer_nomem says
 * its allocation failed (counted in res.timer_inits); set_callback, start: -EINVAL before
 * init, start also without a callback or with flags other than BPF_F_TIMER_ABS | CPU_PIN;
 * cancel: -EINVAL before init, -EDEADLK from the timer's own callback (hrtimer_running: the
 * timer stays pending), else whether the timer was still pending (hrtimer_cancel): 1 for a
 * relative start 1 ms or more ahead (a test run is over long before), drawn for a shorter one
 * (0: it fired already, so its callback runs after the program all the same), 0 when not
 * started.  The callbacks run after the program (run_timers). */
/* How far ahead of the timers' clock an expiry is. */
static uint64_t timer_delay(const struct interp_state *st, uint64_t expiry)
{
	return expiry > st->timer_now ? expiry - st->timer_now : 0;
}

static int timer_helper(struct interp_state *st, const struct iop *ip, int32_t id, uint64_t *ret)
{
	const char *name = ebpf_helper_name(id);
	uint64_t *r = st->h.regs, a = r[1], m = (a - INTERP_VA_MAP) >> 32, nsecs;
	const struct ebpf_map_def *def = m < st->map_cnt ? &st->env->maps[m].def : NULL;
	uint8_t *t;

	if ((a >> 44) != (INTERP_VA_MAP >> 44) || !def || !def->timer || !def->value_size ||
	    (a & st->maps[m].vmask) != def->timer - 1) {
		set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: r1 = 0x%llx is not the struct bpf_timer "
			 "of a map value", name, (unsigned long long)a);
		return -1;
	}
	if (!(t = mem_ptr(st, ip->pc, a, 16, ACC_STORE)))
		return -1;
	*ret = 0;
	switch (id) {
	case BPF_FUNC_timer_init:
		if (r[2] != INTERP_VA_MAPH + m) {
			set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: r2 is not the timer's map",
				 name);
			return -1;
		}
		if (r[3] >= 16 || (r[3] != 0 && r[3] != 1 && r[3] != 7))
			*ret = ERR(EINVAL);
		else if (t[0] & 1)
			*ret = ERR(EBUSY);
		else if (st->res->timer_inits < 64 &&
			 (st->env->timer_nomem >> st->res->timer_inits & 1))
			*ret = ERR(ENOMEM);	/* (env.timer_nomem: the allocation failed) */
		else
			t[0] = 1;
		st->res->timer_inits++;
		break;
	case BPF_FUNC_timer_set_callback:
		if (!cb_func(st, ip, name, 2))
			return -1;
		if (!(t[0] & 1)) {
			*ret = ERR(EINVAL);
		} else {
			uint32_t slot = (uint32_t)(r[2] - INTERP_VA_FUNC), old;

			memcpy(&old, t + 4, 4);
			memcpy(&nsecs, t + 8, 8);
			/* a timer pending less than 1 ms ahead (cancel's rule below) may have
			 * fired before this call, on another CPU, with the callback it had: that
			 * callback runs too, after the program (run_timers) */
			if ((t[0] & 6) == 6 && old != slot && timer_delay(st, nsecs) < 1000000 &&
			    st->nshadow < INTERP_TIMER_FIRES && !st->timer_running) {
				st->shadow[st->nshadow].map = (uint32_t)m;
				st->shadow[st->nshadow].elem = (uint32_t)(((a - INTERP_VA_MAP) &
									   0xffffffffu) >>
									  st->maps[m].shift);
				st->shadow[st->nshadow++].slot = old;
				st->res->timer_raced = true;
			}
			t[0] |= 2;
			memcpy(t + 4, &slot, 4);
		}
		break;
	case BPF_FUNC_timer_start:
		if ((t[0] & 3) != 3 || (r[3] & ~3ull)) {
			*ret = ERR(EINVAL);
		} else {
			t[0] |= 4;
			/* (an absolute time: may be past, it fires now) */
			nsecs = st->timer_now + ((r[3] & 1) ? 0 : r[2]);
			if (nsecs < st->timer_now)
				nsecs = UINT64_MAX;
			memcpy(t + 8, &nsecs, 8);
		}
		break;
	default:	/* cancel */
		if (!(t[0] & 1)) {
			*ret = ERR(EINVAL);
		} else if (a == st->timer_running) {
			*ret = ERR(EDEADLK);
		} else if (t[0] & 4) {
			memcpy(&nsecs, t + 8, 8);
			if (timer_delay(st, nsecs) >= 1000000) {
				*ret = 1;
			} else {
				*ret = draw(st, 1) & 1;
				st->res->timer_raced = true;
			}
			t[0] &= (uint8_t)~4;
			if (!*ret)
				t[0] |= 8;	/* (it fired before the cancel) */
		}
		break;
	}
	return 0;
}

/* An update's copy of val into the value at dst: the kernel's copy_map_value skips the struct
 * bpf_timer, then bpf_obj_free_fields frees the old one (array_map_update_elem; a hash's new
 * element starts without one): the timer is left not initialized, whatever val holds there.
 * (A hash update here writes the element in place; the kernel replaces it, so a pointer kept
 * from before the update sees the old element's timer freed, not the new one.) */
static void value_update(const struct ebpf_map_def *def, uint8_t *dst, const uint8_t *val)
{
	memmove(dst, val, def->value_size);
	if (def->timer && def->timer - 1 + 16 <= def->value_size)
		memset(dst + def->timer - 1, 0, 16);
	/* the other special fields too: copy_map_value skips them, and bpf_obj_free_fields leaves
	 * a kptr NULL (a spin lock is 0 between runs of programs: none holds it past its exit) */
	for (uint8_t k = 0; k < def->nfields && k < EBPF_MAP_FIELDS; k++)
		if ((uint64_t)def->fields[k].off + def->fields[k].size <= def->value_size)
			memset(dst + def->fields[k].off, 0, def->fields[k].size);
}

/* A per-CPU map's copies for every CPU (map_rt.pcpu), zeroed when the run makes them.  False
 * when too large or out of memory (st->oom). */
static bool pcpu_storage(struct interp_state *st, struct map_rt *mr)
{
	if (mr->pcpu)
		return true;
	if (!mr->len || mr->len * st->ncpus > MAP_STORAGE_MAX)
		return false;
	mr->pcpu = calloc(st->ncpus, mr->len);
	if (!mr->pcpu) {
		st->oom = true;
		return false;
	}
	mr->pcpu_own = true;
	return true;
}

/* A new element of a per-CPU hash map, at byte at of each CPU's copies (size bytes): the running
 * CPU's copy is the value written, the other CPUs' copies (when made) are zeroed, as the
 * kernel's pcpu_init_value does. */
static void pcpu_new_value(const struct interp_state *st, struct map_rt *mr, size_t at,
			   size_t size)
{
	for (unsigned c = 0; mr->pcpu && c < st->ncpus; c++)
		if (c != st->cpu)
			memset(mr->pcpu + c * mr->len + at, 0, size);
}

static int sockmap_helper(struct interp_state *st, const struct iop *ip, int32_t id,
			  const char *name, size_t m, uint64_t *ret);

/* bpf_map_lookup_elem, update, delete.  0 with *ret, or -1 after a trap. */
static int map_helper(struct interp_state *st, const struct iop *ip, int32_t id, uint64_t *ret)
{
	static const char *const names[] = { NULL, "bpf_map_lookup_elem", "bpf_map_update_elem",
					     "bpf_map_delete_elem" };
	const char *name = names[id];
	uint64_t *r = st->h.regs;
	const struct ebpf_map_def *def;
	struct map_rt *mr;
	const uint8_t *key, *val = NULL;
	uint64_t flags = r[4];
	long slot;
	size_t m;

	if (map_arg(st, ip, name, &m))
		return -1;
	def = &st->env->maps[m].def;
	mr = &st->maps[m];
	if (!(key = map_key(st, ip, name, m, " (array maps have 4-byte keys)")))
		return -1;
	if (mr->kind == MAPK_SOCK)
		return sockmap_helper(st, ip, id, name, m, ret);
	if (mr->kind == MAPK_OUTER) {
		uint32_t idx;

		/* Only lookups (the kernel refuses the others from programs): the slot holds the
		 * inner map's template itself or nothing, as the helper data says; an array's key
		 * past its entries finds nothing. */
		if (id != BPF_FUNC_map_lookup_elem) {
			set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: map '%s' is a map of maps",
				 name, def->name);
			return -1;
		}
		idx = 0;
		if (def->key_size == 4)
			memcpy(&idx, key, 4);
		*ret = (def->type == BPF_MAP_TYPE_ARRAY_OF_MAPS && idx >= def->max_entries) ||
		       !(draw(st, 1) & 1) ? 0 : INTERP_VA_MAPH + (def->inner - 1);
		return 0;
	}
	if (id == BPF_FUNC_map_update_elem) {
		if (def->value_size == 0) {
			set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: map '%s' has value size 0",
				 name, def->name);
			return -1;
		}
		val = mem_ptr(st, ip->pc, r[3], def->value_size, ACC_LOAD);
		if (!val)
			return -1;
	}
	if ((slot = map_slot(st, ip, name, m, key)) == -2)
		return -1;
	if (id == BPF_FUNC_map_lookup_elem) {
		*ret = slot < 0 ? 0 : value_va(m, mr, slot);
		return 0;
	}
	if (mr->kind == MAPK_ARRAY) {
		if (id == BPF_FUNC_map_delete_elem) {
			*ret = ERR(EINVAL);
		} else if ((flags & ~(uint64_t)BPF_F_LOCK) > BPF_EXIST) {
			*ret = ERR(EINVAL);
		} else if (slot < 0) {
			*ret = ERR(E2BIG);
		} else if ((flags & ~(uint64_t)BPF_F_LOCK) == BPF_NOEXIST) {
			*ret = ERR(EEXIST);
		} else {
			value_update(def, mr->host + (size_t)slot * def->value_size, val);
			*ret = 0;
		}
		return 0;
	}
	/* hash */
	{
		if (id == BPF_FUNC_map_update_elem && mr->cnt > mr->upd_peak)
			mr->upd_peak = mr->cnt;

		if (id == BPF_FUNC_map_delete_elem) {
			if (slot < 0) {
				*ret = ERR(ENOENT);
			} else {
				mr->used[slot] = 0;
				mr->cnt--;
				*ret = 0;
			}
		} else if ((flags & ~(uint64_t)BPF_F_LOCK) > BPF_EXIST) {
			*ret = ERR(EINVAL);
		} else if (slot >= 0) {
			if ((flags & ~(uint64_t)BPF_F_LOCK) == BPF_NOEXIST) {
				*ret = ERR(EEXIST);
			} else {
				value_update(def, mr->host + (size_t)slot * def->value_size, val);
				*ret = 0;
			}
		} else if ((flags & ~(uint64_t)BPF_F_LOCK) == BPF_EXIST) {
			*ret = ERR(ENOENT);
		} else if (mr->cnt == mr->cap) {
			*ret = ERR(E2BIG);
		} else {
			uint32_t k = 0;

			while (mr->used[k])
				k++;
			mr->used[k] = 1;
			mr->cnt++;
			memmove(mr->keys + (size_t)k * def->key_size, key, def->key_size);
			value_update(def, mr->host + (size_t)k * def->value_size, val);
			pcpu_new_value(st, mr, (size_t)k * def->value_size, def->value_size);
			*ret = 0;
		}
	}
	return 0;
}

/* bpf_get_local_storage(map, flags) (kernel/bpf/cgroup.c): the program's cgroup storage of the
 * map's type, never NULL; the verifier takes only a cgroup storage map and flags 0
 * (check_helper_call: "get_local_storage() doesn't support non-zero flags"), a trap otherwise.
 * The storage is the map's one element, zeroed at the start of a run as BPF_PROG_TEST_RUN
 * allocates it (bpf_cgroup_storages_alloc); a per-CPU one is the running CPU's copy. */
static int local_storage(struct interp_state *st, const struct iop *ip, uint64_t *ret)
{
	const char *name = "bpf_get_local_storage";
	const struct ebpf_map_def *def;
	size_t m;

	if (map_arg(st, ip, name, &m))
		return -1;
	def = &st->env->maps[m].def;
	if (def->type != BPF_MAP_TYPE_CGROUP_STORAGE &&
	    def->type != BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE) {
		set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: map '%s' (type %u) is no cgroup "
			 "storage", name, def->name, def->type);
		return -1;
	}
	if (st->h.regs[2]) {
		set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: flags 0x%llx (the verifier takes 0 "
			 "only)", name, (unsigned long long)st->h.regs[2]);
		return -1;
	}
	if (!map_storage_at(st, m, ip->pc, name))
		return -1;
	*ret = value_va(m, &st->maps[m], 0);
	return 0;
}

static int sock_at(struct interp_state *st, const struct iop *ip, const char *name, int reg,
		   uint64_t a);

/* bpf_sk_storage_get(map, sk, value, flags) (net/core/bpf_sk_storage.c): the socket's storage
 * of the map or NULL.  One storage stands for every socket's (the map's one element: what the
 * program stores for one socket it reads for another, which only the values can tell, never
 * the bounds); whether it is there before the run's first call is drawn, its bytes zero.  NULL
 * for flags other than BPF_SK_STORAGE_GET_F_CREATE, for a socket that is not a full one, and
 * when absent without F_CREATE; F_CREATE makes it, from value's value_size bytes when value
 * is not NULL (the kernel's bpf_local_storage_update), else zeroed. */
static int sk_storage_get(struct interp_state *st, const struct iop *ip, uint64_t *ret)
{
	const char *name = "bpf_sk_storage_get";
	const uint64_t *r = st->h.regs;
	const struct ebpf_map_def *def;
	const uint8_t *val = NULL;
	struct map_rt *mr;
	bool full = true;
	size_t m;
	int k;

	if (map_arg(st, ip, name, &m))
		return -1;
	def = &st->env->maps[m].def;
	mr = &st->maps[m];
	if (def->type != BPF_MAP_TYPE_SK_STORAGE) {
		set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: map '%s' (type %u) is no socket "
			 "storage", name, def->name, def->type);
		return -1;
	}
	if ((r[2] >> 44) == (INTERP_VA_SOCK >> 44)) {
		if ((k = sock_at(st, ip, name, 2, r[2])) < 0)
			return -1;
		full = st->sock_flags[k] & SOCK_FULL;
	} else if (st->env->prog_type == BPF_PROG_TYPE_CGROUP_SOCK) {
		/* (bpf_sk_storage_get_cg_sock_proto: the context, a full socket) */
		if (r[2] != INTERP_VA_CTX) {
			set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: r2 = 0x%llx is not the context",
				 name, (unsigned long long)r[2]);
			return -1;
		}
	} else if ((r[2] >> 44) != (INTERP_VA_BTF >> 44)) {
		set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: r2 = 0x%llx is not a socket", name,
			 (unsigned long long)r[2]);
		return -1;
	}
	if (r[3] && !(val = mem_ptr(st, ip->pc, r[3], def->value_size, ACC_LOAD)))
		return -1;
	*ret = 0;
	if ((r[4] & ~(uint64_t)BPF_SK_STORAGE_GET_F_CREATE) || !full)
		return 0;
	if (!map_storage_at(st, m, ip->pc, name))
		return -1;
	if (!mr->sk_state)
		mr->sk_state = (draw(st, 1) & 1) ? 2 : 1;
	if (mr->sk_state == 1) {
		if (!(r[4] & BPF_SK_STORAGE_GET_F_CREATE))
			return 0;
		if (val)
			memcpy(mr->host, val, def->value_size);
		mr->sk_state = 2;
	}
	*ret = value_va(m, mr, 0);
	return 0;
}

/* bpf_map_lookup_percpu_elem(map, key, cpu) (kernel/bpf/helpers.c, and the per-CPU maps'
 * map_lookup_percpu_elem in arraymap.c and hashtab.c): NULL for a u32 cpu not below the CPUs
 * (nr_cpu_ids) or a key that finds nothing, else a pointer to that CPU's copy of the value.
 * The verifier refuses any other map (check_map_func_compatibility): a run traps.  0 with
 * *ret, or -1 after a trap. */
static int pcpu_lookup(struct interp_state *st, const struct iop *ip, uint64_t *ret)
{
	const char *name = "bpf_map_lookup_percpu_elem";
	uint64_t *r = st->h.regs, w;
	uint32_t cpu = (uint32_t)r[3];
	const struct ebpf_map_def *def;
	struct map_rt *mr;
	const uint8_t *key;
	long slot;
	size_t m;

	if (map_arg(st, ip, name, &m))
		return -1;
	def = &st->env->maps[m].def;
	mr = &st->maps[m];
	if (!mr->percpu) {
		set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: map %zu '%s' (type %u) is not a "
			 "per-CPU map", name, m, def->name, def->type);
		return -1;
	}
	if (!(key = map_key(st, ip, name, m, "")) || (slot = map_slot(st, ip, name, m, key)) == -2)
		return -1;
	*ret = 0;
	if (cpu >= st->ncpus || slot < 0)
		return 0;
	if (cpu == st->cpu) {
		*ret = value_va(m, mr, slot);
		return 0;
	}
	w = (uint64_t)cpu * st->map_cnt + m;
	if (w >= INTERP_MAX_MAPS || !pcpu_storage(st, mr)) {
		set_trap(st, w >= INTERP_MAX_MAPS ? INTERP_TRAP_CALL : INTERP_TRAP_HELPER, ip->pc,
			 "%s: CPU %u's copies of map '%s' %s", name, cpu, def->name,
			 w >= INTERP_MAX_MAPS ? "lie past the per-CPU region (not modeled)"
			 : st->oom ? "could not be allocated" : "are too large to model");
		return -1;
	}
	*ret = INTERP_VA_PCPU + (w << 32) + ((uint64_t)slot << mr->shift);
	return 0;
}

/* The socket whose start a is, live, or -1 after a trap naming helper name's argument reg. */
static int sock_at(struct interp_state *st, const struct iop *ip, const char *name, int reg,
		   uint64_t a)
{
	uint64_t k = (a - INTERP_VA_SOCK) >> 32;

	if ((a >> 44) != (INTERP_VA_SOCK >> 44) || (a & 0xffffffffu) || k >= st->nsocks ||
	    !(st->sock_flags[k] & SOCK_LIVE)) {
		set_trap(st, (a >> 44) == (INTERP_VA_SOCK >> 44) ? INTERP_TRAP_REF
								  : INTERP_TRAP_HELPER,
			 ip->pc, "%s: r%d = 0x%llx is not the start of a live socket%s", name, reg,
			 (unsigned long long)a, (a >> 44) == (INTERP_VA_SOCK >> 44)
			 ? " (released, or never looked up)" : "");
		return -1;
	}
	return (int)k;
}

/* A new socket of flags (SOCK_*; SOCK_LIVE added), its fields' bytes drawn: its address, or 0
 * when the run has made INTERP_MAX_RECORDS (as a lookup that found none). */
static uint64_t sock_new(struct interp_state *st, uint8_t flags)
{
	unsigned k = st->nsocks;

	if (k == INTERP_MAX_RECORDS)
		return 0;
	st->nsocks++;
	st->sock_flags[k] = flags | SOCK_LIVE;
	for (unsigned b = 0; b < 8; b++)
		st->sock_bytes[k][b] = st->sock_bytes[k][b + 8] = (uint8_t)draw(st, 1);
	if (flags & SOCK_REF)
		st->live_recs++;
	return INTERP_VA_SOCK + ((uint64_t)k << 32);
}

/* The socket helpers (interp.h: INTERP_VA_SOCK), their arguments checked by proto_helper but
 * the sockets': bpf_sk_lookup_tcp/udp(ctx, tuple, size, netns, flags) and bpf_skc_lookup_tcp
 * find a referenced socket or none (NULL; always with flags other than 0 or a tuple size other
 * than an IPv4 or IPv6 tuple's, as bpf_sk_lookup), whether drawn (a byte: found, and for
 * bpf_skc_lookup_tcp whether it is a full socket; a TCP lookup's full socket is a TCP one);
 * bpf_sk_fullsock and bpf_tcp_sock return their argument or NULL by its flags;
 * bpf_get_listener_sock a new socket without reference (a listener, drawn) or NULL;
 * bpf_sk_release ends a referenced one.  0 with *ret, or -1 after a trap. */
static int sock_helper(struct interp_state *st, const struct iop *ip, int32_t id, uint64_t *ret)
{
	const char *name = ebpf_helper_name(id);
	uint64_t *r = st->h.regs;
	const uint8_t *dport;
	int k;
	uint8_t d;

	*ret = 0;
	switch (id) {
	case BPF_FUNC_sk_lookup_tcp: case BPF_FUNC_sk_lookup_udp: case BPF_FUNC_skc_lookup_tcp:
		/* (in a test run, a tuple of local port 0 finds nothing: no socket is bound to
		 * port 0, interp_env.test_run_sock) */
		if (st->env->test_run_sock && !r[5] && (r[3] == 12 || r[3] == 36) &&
		    (dport = xlate(st, r[2] + (r[3] == 12 ? 10 : 34), 2)) && !dport[0] && !dport[1])
			return 0;
		d = (uint8_t)draw(st, 1);
		if (r[5] || (r[3] != 12 && r[3] != 36))
			return 0;
		st->res->sock_drawn = true;	/* (found or not, by the draw) */
		if (!(d & 1))
			return 0;
		*ret = sock_new(st, SOCK_REF |
				(id != BPF_FUNC_skc_lookup_tcp || (d & 2) ? SOCK_FULL : 0) |
				(id != BPF_FUNC_sk_lookup_udp && (id != BPF_FUNC_skc_lookup_tcp ||
								  (d & 2)) ? SOCK_TCP : 0));
		return 0;
	case BPF_FUNC_sk_release:
		if ((k = sock_at(st, ip, name, 1, r[1])) < 0)
			return -1;
		if (!(st->sock_flags[k] & SOCK_REF)) {
			set_trap(st, INTERP_TRAP_REF, ip->pc, "%s: r1 = 0x%llx is a socket no lookup "
				 "acquired", name, (unsigned long long)r[1]);
			return -1;
		}
		st->sock_flags[k] &= (uint8_t)~SOCK_LIVE;
		st->live_recs--;
		return 0;
	case BPF_FUNC_sk_fullsock: case BPF_FUNC_tcp_sock: case BPF_FUNC_get_listener_sock:
		if ((k = sock_at(st, ip, name, 1, r[1])) < 0)
			return -1;
		if (id == BPF_FUNC_get_listener_sock) {
			/* (the test run's socket is closed: TCP_CLOSE, no listener) */
			if (st->sock_flags[k] & SOCK_SKB)
				return 0;
			st->res->sock_drawn = true;
			*ret = (draw(st, 1) & 1) ? sock_new(st, SOCK_FULL | (st->sock_flags[k] &
									    SOCK_TCP)) : 0;
			return 0;
		}
		*ret = st->sock_flags[k] & (id == BPF_FUNC_tcp_sock ? SOCK_TCP : SOCK_FULL) ? r[1] : 0;
		return 0;
	default:
		set_trap(st, INTERP_TRAP_CALL, ip->pc, "helper %s (id %d) is not modeled", name, id);
		return -1;
	}
}

/* bpf_map_lookup_elem, update and delete on a socket map (BPF_MAP_TYPE_SOCKMAP, SOCKHASH;
 * net/core/sock_map.c), its key read by map_helper.  Its elements are sockets put there from
 * outside the run, so what a call finds is drawn (a byte): a lookup finds a referenced full
 * socket (TCP or not) or none; an update takes a live socket in r3 (the verifier's
 * ARG_PTR_TO_BTF_ID_SOCK_COMMON) and succeeds or fails (-EINVAL: not a full socket; -EOPNOTSUPP:
 * not of a kind or state a socket map takes); a delete removes an element or finds none
 * (a sockmap's empty slot: -EINVAL; a sockhash's missing key: -ENOENT).  The run drew
 * (interp_result.sock_drawn), and the kernel differential does not compare programs naming a
 * socket map (kdiff.c nondeterministic).  An update or delete from a program type the kernel's
 * may_update_sockmap refuses (ebpf_helper_sockmap_refused, interp_env.prog_type and attach_type;
 * a type of 0, not said, is not judged) traps with INTERP_TRAP_RULE, as the analyzer calls it
 * unsafe.  0 with *ret, or -1 after a trap. */
static int sockmap_helper(struct interp_state *st, const struct iop *ip, int32_t id,
			  const char *name, size_t m, uint64_t *ret)
{
	bool hash = st->env->maps[m].def.type == BPF_MAP_TYPE_SOCKHASH;
	/* (a caller that does not say the type, 0, as a Z3 counterexample's replay: not judged) */
	const char *why = !st->env->prog_type ? NULL :
			  ebpf_helper_sockmap_refused(id, st->env->maps[m].def.type,
						      st->env->prog_type, st->env->attach_type);
	uint8_t d;

	/* (the verifier refuses the call wherever its walk meets it: may_update_sockmap) */
	if (why) {
		set_trap(st, INTERP_TRAP_RULE, ip->pc, "%s: %s (map '%s', program type %u)", name,
			 why, st->env->maps[m].def.name, st->env->prog_type);
		return -1;
	}
	if (id == BPF_FUNC_map_update_elem && sock_at(st, ip, name, 3, st->h.regs[3]) < 0)
		return -1;
	d = (uint8_t)draw(st, 1);
	st->res->sock_drawn = true;
	if (id == BPF_FUNC_map_lookup_elem)
		*ret = (d & 1) ? sock_new(st, SOCK_REF | SOCK_FULL | ((d & 2) ? SOCK_TCP : 0)) : 0;
	else if (id == BPF_FUNC_map_update_elem)
		*ret = !(d & 3) ? 0 : (d & 3) == 1 ? ERR(EINVAL) : ERR(EOPNOTSUPP);
	else
		*ret = (d & 1) ? 0 : hash ? ERR(ENOENT) : ERR(EINVAL);
	return 0;
}

/* bpf_strncmp(s1, s1_sz, s2) as the kernel's: its strncmp of the two, -1, 0 or 1 (lib/string.c),
 * the arguments checked by proto_helper (s1_sz readable bytes, s2 a string ending in its map
 * value). */
static uint64_t strncmp_helper(struct interp_state *st, const struct iop *ip)
{
	const uint64_t *r = st->h.regs;

	for (uint64_t k = 0; k < r[2]; k++) {
		const uint8_t *c1 = mem_ptr(st, ip->pc, r[1] + k, 1, ACC_LOAD);
		const uint8_t *c2 = mem_ptr(st, ip->pc, r[3] + k, 1, ACC_LOAD);

		if (!c1 || !c2)		/* (checked: s2 ends before its map value does) */
			return 0;
		if (*c1 != *c2)
			return *c1 < *c2 ? (uint64_t)-1 : 1;
		if (!*c1)
			break;
	}
	return 0;
}

/* The result of a helper of HF_RET_SIZE (bpf_probe_read_*_str, bpf_get_stack,
 * bpf_get_task_stack): what the kernel's return, [-MAX_ERRNO, the size given], as the verifier
 * assumes (do_refine_retval_range).  One drawn byte picks an error (a quarter of the runs),
 * the whole size, or a count below it, so both sides of a program's length checks are run. */
static uint64_t ret_within_size(struct interp_state *st, const struct ebpf_helper_proto *p)
{
	uint64_t size = 0, v;
	unsigned how;
	int k = ebpf_helper_proto_size_arg(p);

	if (k >= 0)
		size = st->h.regs[k + 1];
	how = (unsigned)draw(st, 1) & 3;
	v = draw(st, 4);
	if (how == 0)
		return (uint64_t) - (int64_t)(1 + v % 4095);
	return how == 1 ? size : v % (size + 1);
}

/* A helper of the prototype table (bpf/helper_proto.h) without a model of its own: its
 * arguments are checked as the kernel's prototype demands (a map handle, the context, memory
 * that must lie inside one region for its whole size), what it writes through a memory
 * argument and what it returns are drawn from the helper data: probe reads, comm, stacks,
 * perf counters, times and random numbers are the kernel's to choose.  Helpers that may move
 * the packet leave it as it is (a run in which the change was empty).  0 with *ret, or -1
 * after a trap. */
static int proto_helper(struct interp_state *st, const struct iop *ip, int32_t id,
			const struct ebpf_helper_proto *p, uint64_t *ret)
{
	const char *name = ebpf_helper_name(id);
	uint64_t *r = st->h.regs;
	int nargs = ebpf_helper_proto_nargs(p);
	size_t m = SIZE_MAX;
	/* (sock_helper's: the others' answers depend on the state of a socket given them, which
	 * this run does not hold: drawn, interp_result.sock_drawn) */
	bool sock_h = p->ret == HRET_SOCKET_OR_NULL || p->ret == HRET_TCP_SOCK_OR_NULL ||
		      p->ret == HRET_SOCK_COMMON_OR_NULL || id == BPF_FUNC_sk_release;

	for (int k = 0; k < nargs; k++) {
		uint64_t a = r[k + 1], size;
		uint8_t *host;

		switch (p->args[k]) {
		case HARG_MAP:
			if (a - INTERP_VA_MAPH >= st->map_cnt) {
				set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: r%d = 0x%llx is not a map "
					 "handle", name, k + 1, (unsigned long long)a);
				return -1;
			}
			m = a - INTERP_VA_MAPH;
			break;
		case HARG_MAP_KEY:
		case HARG_MAP_VALUE:
			size = m == SIZE_MAX ? 0 : p->args[k] == HARG_MAP_KEY
					? st->env->maps[m].def.key_size : st->env->maps[m].def.value_size;
			if (size && (!mem_ptr(st, ip->pc, a, size, ACC_LOAD) ||
				     (st->niters && iter_overlap(st, ip->pc, name, k + 1, a, size))))
				return -1;
			break;
		case HARG_MAP_VALUE_OUT:	/* (pop, peek: an element's bytes, drawn) */
			size = m == SIZE_MAX ? 0 : st->env->maps[m].def.value_size;
			if (size && (!(host = mem_ptr(st, ip->pc, a, size, ACC_STORE)) ||
				     (st->niters && iter_overlap(st, ip->pc, name, k + 1, a, size))))
				return -1;
			for (uint64_t b = 0; b < size; b++)
				host[b] = (uint8_t)draw(st, 1);
			break;
		case HARG_MEM:
		case HARG_MEM_OR_NULL:
		case HARG_MEM_RW:
		case HARG_MEM_RW_OR_NULL:
		case HARG_MEM_UNINIT:
			size = k + 1 < 5 ? r[k + 2] : 0;
			if ((p->args[k] == HARG_MEM_OR_NULL || p->args[k] == HARG_MEM_RW_OR_NULL) &&
			    a == 0 && size == 0)
				break;
			if (size >= (1ull << 29)) {
				set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: size r%d = %llu is too large",
					 name, k + 2, (unsigned long long)size);
				return -1;
			}
			if (!size) {
				if (!zero_size_ptr(st, ip->pc, a,
						   p->args[k] == HARG_MEM ||
							   p->args[k] == HARG_MEM_OR_NULL
						   ? ACC_LOAD : ACC_STORE))
					return -1;
				break;
			}
			/* (a kernel object read by the helper: the verdict allows a trusted one
			 * (mem_types), whose bytes read as its loads' do, a byte at a time) */
			if ((p->args[k] == HARG_MEM || p->args[k] == HARG_MEM_OR_NULL) &&
			    (a >> 44) == (INTERP_VA_BTF >> 44))
				break;
			host = mem_ptr(st, ip->pc, a, size,
				       p->args[k] == HARG_MEM || p->args[k] == HARG_MEM_OR_NULL
					       ? ACC_LOAD : ACC_STORE);
			if (!host || (st->niters && iter_overlap(st, ip->pc, name, k + 1, a, size)))
				return -1;
			if (p->args[k] == HARG_MEM_UNINIT)
				for (uint64_t b = 0; b < size; b++)
					host[b] = (uint8_t)draw(st, 1);
			break;
		case HARG_LONG_OUT:	/* (8 bytes aligned to 8, written with a number) */
		case HARG_U32_INOUT: {	/* (4 aligned to 4, read, then written with a number) */
			unsigned n = p->args[k] == HARG_LONG_OUT ? 8 : 4;

			if (a & (n - 1)) {
				set_trap(st, INTERP_TRAP_MEM, ip->pc, "%s: r%d = 0x%llx is not aligned "
					 "to %u (%u bytes the helper writes)", name, k + 1,
					 (unsigned long long)a, n, n);
				return -1;
			}
			if (!(host = mem_ptr(st, ip->pc, a, n, ACC_STORE)) ||
			    (st->niters && iter_overlap(st, ip->pc, name, k + 1, a, n)))
				return -1;
			for (unsigned b = 0; b < n; b++)
				host[b] = (uint8_t)draw(st, 1);
			break;
		}
		case HARG_SOCK_COMMON:
			if (sock_at(st, ip, name, k + 1, a) < 0)
				return -1;
			st->res->sock_drawn |= !sock_h;
			break;
		case HARG_CONST_STR: {	/* (a map value holding a 0 byte: check_reg_const_str) */
			uint64_t n = 0;
			const uint8_t *c;

			if ((a >> 44) != (INTERP_VA_MAP >> 44) ||
			    ((a - INTERP_VA_MAP) >> 32) >= st->map_cnt ||
			    !(st->env->maps[(a - INTERP_VA_MAP) >> 32].def.flags &
			      BPF_F_RDONLY_PROG)) {
				set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: r%d = 0x%llx is not a "
					 "read-only map's value (a constant string)", name, k + 1,
					 (unsigned long long)a);
				return -1;
			}
			do {
				if (!(c = mem_ptr(st, ip->pc, a + n, 1, ACC_LOAD)))
					return -1;
			} while (*c && ++n);
			break;
		}
		case HARG_BTF_ID:	/* (a kernel object: HF_BTF_ARG's seq_file) */
			if ((a >> 44) != (INTERP_VA_BTF >> 44)) {
				set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: r%d = 0x%llx is not a "
					 "kernel object", name, k + 1, (unsigned long long)a);
				return -1;
			}
			break;
		case HARG_BTF_SOCK_COMMON:	/* (a kernel object, or a socket: live) */
			if ((a >> 44) == (INTERP_VA_SOCK >> 44) && sock_at(st, ip, name, k + 1, a) < 0)
				return -1;
			st->res->sock_drawn |= !sock_h && (a >> 44) == (INTERP_VA_SOCK >> 44);
			break;
		case HARG_CTX:
		case HARG_CTX_OR_NULL:
			if (a != INTERP_VA_CTX && (a || p->args[k] == HARG_CTX)) {
				set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: r%d = 0x%llx is not the "
					 "context%s", name, k + 1, (unsigned long long)a,
					 p->args[k] == HARG_CTX ? "" : " nor NULL");
				return -1;
			}
			break;
		default:
			break;
		}
	}
	if (sock_h)
		return sock_helper(st, ip, id, ret);
	/* a kernel object: one that reads as the helper data (INTERP_VA_BTF), or NULL */
	if (p->ret == HRET_BTF_ID || p->ret == HRET_BTF_ID_OR_NULL)
		*ret = p->ret == HRET_BTF_ID || (draw(st, 1) & 1) ? INTERP_VA_BTF : 0;
	else if (p->flags & HF_RET_SIZE)
		*ret = ret_within_size(st, p);
	else if (id == BPF_FUNC_strncmp)
		*ret = strncmp_helper(st, ip);
	else
		*ret = p->ret_min == 0 && p->ret_max == UINT32_MAX ? draw(st, 4) : draw(st, 8);
	return 0;
}

/* bpf_ringbuf_reserve, submit and discard (interp.h): 0 with *ret, or -1 after a trap. */
static int ringbuf_helper(struct interp_state *st, const struct iop *ip, int32_t id, uint64_t *ret)
{
	const uint64_t *r = st->h.regs;
	const char *name = ebpf_helper_name(id);
	const struct ebpf_map_def *def;

	*ret = 0;
	if (id != BPF_FUNC_ringbuf_reserve) {
		if (!rec_release(st, r[1], false)) {
			set_trap(st, INTERP_TRAP_REF, ip->pc, "%s: r1 = 0x%llx is not the start of a "
				 "live ringbuf record (released, or never reserved)", name,
				 (unsigned long long)r[1]);
			return -1;
		}
		return 0;
	}
	if (!(def = ringbuf_map(st, ip, r[1], name)))
		return -1;
	/* (the kernel's bpf_ringbuf_reserve: NULL for flags, a size past the ring, a full ring) */
	if (r[3] || r[2] > def->max_entries || r[2] > UINT32_MAX || (draw(st, 1) & 1) ||
	    st->nrecs == INTERP_MAX_RECORDS)
		return 0;
	return rec_reserve(st, ip, name, (uint32_t)r[2], false, ret);
}

/* bpf_spin_lock, bpf_spin_unlock (id) on r1: the struct bpf_spin_lock of a map value
 * (ebpf_map_def.fields; else INTERP_TRAP_HELPER).  No-ops on the bytes (nothing runs beside the
 * program: the lock is always free when taken); a lock while one is held, an unlock of another
 * lock or of none trap with INTERP_TRAP_REF (the verifier's process_spin_lock), and so does the
 * main program's exit with one held (interp_loop.inc).  0, or -1 after a trap. */
static int lock_helper(struct interp_state *st, const struct iop *ip, int32_t id)
{
	const char *name = ebpf_helper_name(id);
	uint64_t a = st->h.regs[1], m = (a - INTERP_VA_MAP) >> 32;
	const struct ebpf_map_def *def = m < st->map_cnt ? &st->env->maps[m].def : NULL;
	const struct ebpf_map_field *f = NULL;

	for (uint8_t k = 0; def && k < def->nfields && k < EBPF_MAP_FIELDS; k++)
		if (def->fields[k].kind == EBPF_FIELD_SPIN_LOCK)
			f = &def->fields[k];
	if ((a >> 44) != (INTERP_VA_MAP >> 44) || !f || !def->value_size ||
	    (a & st->maps[m].vmask) != f->off || !mem_ptr(st, ip->pc, a, 4, ACC_LOAD)) {
		if (st->res->trap == INTERP_OK)
			set_trap(st, INTERP_TRAP_HELPER, ip->pc, "%s: r1 = 0x%llx is not the struct "
				 "bpf_spin_lock of a map value", name, (unsigned long long)a);
		return -1;
	}
	if (id == BPF_FUNC_spin_lock) {
		if (st->lock_held) {
			set_trap(st, INTERP_TRAP_REF, ip->pc, "%s: a lock (0x%llx) is held already",
				 name, (unsigned long long)st->lock_held);
			return -1;
		}
		st->lock_held = a;
		return 0;
	}
	if (st->lock_held != a) {
		set_trap(st, INTERP_TRAP_REF, ip->pc, "%s of 0x%llx: %s", name, (unsigned long long)a,
			 st->lock_held ? "another lock is held" : "no lock is held");
		return -1;
	}
	st->lock_held = 0;
	return 0;
}

/* At the main program's exit or a tail call: -1 after a trap when a record is live. */
static __attribute__((noinline)) int ringbuf_leak(struct interp_state *st, uint32_t pc)
{
	for (unsigned k = 0; k < st->nrecs; k++)
		if (st->recs[k].host) {
			set_trap(st, INTERP_TRAP_REF, pc, "ringbuf record %u (%u bytes) still "
				 "reserved: a reference leak", k, st->recs[k].size);
			return -1;
		}
	for (unsigned k = 0; k < st->nkobjs; k++)
		if (st->kobj_live[k]) {
			set_trap(st, INTERP_TRAP_REF, pc, "acquired kernel object %u still held: a "
				 "reference leak", k + 1);
			return -1;
		}
	for (unsigned k = 0; k < st->nsocks; k++)
		if ((st->sock_flags[k] & (SOCK_LIVE | SOCK_REF)) == (SOCK_LIVE | SOCK_REF)) {
			set_trap(st, INTERP_TRAP_REF, pc, "socket %u of a lookup not released: a "
				 "reference leak", k);
			return -1;
		}
	if (st->dp_nulls) {
		set_trap(st, INTERP_TRAP_REF, pc, "%u ringbuf dynptrs whose reserve failed neither "
			 "submitted nor discarded: a reference leak", st->dp_nulls);
		return -1;
	}
	return 0;
}

void interp_test_run_sock(uint8_t out[INTERP_SOCK_SIZE], const uint8_t *frame, size_t len)
{
	uint16_t proto = len >= 14 ? (uint16_t)(frame[12] << 8 | frame[13]) : 0;
	uint32_t family = 0, state = 7 /* TCP_CLOSE */, queue = UINT32_MAX;	/* -1: none */

	memset(out, 0, INTERP_SOCK_SIZE);
	if (proto == 0x0800) {
		family = 2;	/* AF_INET */
		if (len >= 14 + 20) {	/* (ip_hdr's saddr, daddr) */
			memcpy(out + offsetof(struct bpf_sock, src_ip4), frame + 14 + 12, 4);
			memcpy(out + offsetof(struct bpf_sock, dst_ip4), frame + 14 + 16, 4);
		}
	} else if (proto == 0x86dd) {
		family = 10;	/* AF_INET6 */
		if (len >= 14 + 40) {	/* (ipv6_hdr's saddr, daddr) */
			memcpy(out + offsetof(struct bpf_sock, src_ip6), frame + 14 + 8, 16);
			memcpy(out + offsetof(struct bpf_sock, dst_ip6), frame + 14 + 24, 16);
		}
	}
	memcpy(out + offsetof(struct bpf_sock, family), &family, 4);
	memcpy(out + offsetof(struct bpf_sock, state), &state, 4);
	memcpy(out + offsetof(struct bpf_sock, rx_queue_mapping), &queue, 4);
}

/* The helpers whose result is the next 4 or 8 bytes of helper data (interp.h): that width, else
 * 0. */
unsigned interp_helper_draw_width(int32_t id)
{
	switch (id) {
	case BPF_FUNC_get_prandom_u32:
	case BPF_FUNC_get_smp_processor_id:
	case BPF_FUNC_get_numa_node_id:
		return 4;
	case BPF_FUNC_ktime_get_ns:
	case BPF_FUNC_get_current_pid_tgid:
	case BPF_FUNC_get_current_uid_gid:
	case BPF_FUNC_get_current_cgroup_id:
	case BPF_FUNC_jiffies64:
	case BPF_FUNC_ktime_get_boot_ns:
	case BPF_FUNC_ktime_get_coarse_ns:
	case BPF_FUNC_ktime_get_tai_ns:
		return 8;
	default:
		return 0;
	}
}

bool interp_helper_drawn(int32_t id)
{
	const struct ebpf_helper_proto *p;

	/* (ringbuf_helper and dp_make_helper draw whether the ring has room, and the record's
	 * old bytes) */
	if (interp_helper_draw_width(id) || id == BPF_FUNC_ringbuf_reserve ||
	    id == BPF_FUNC_ringbuf_reserve_dynptr)
		return true;
	/* (sock_helper draws the sockets a lookup finds and their fields, and a listener, but not
	 * always: a run that drew says so, interp_result.sock_drawn) */
	/* (proto_helper draws what it writes through a memory argument: a probe read, a comm, a
	 * stack trace) */
	p = ebpf_helper_proto(id);
	for (int k = 0; p && k < 5; k++)
		if (p->args[k] == HARG_MEM_UNINIT || p->args[k] == HARG_MEM_RW ||
		    p->args[k] == HARG_MEM_RW_OR_NULL ||
		    p->args[k] == HARG_LONG_OUT || p->args[k] == HARG_U32_INOUT ||
		    p->args[k] == HARG_MAP_VALUE_OUT)
			return true;
	return false;
}

bool interp_helper_replayed(int32_t id)
{
	return interp_helper_draw_width(id) != 0;
}

/* The callback helpers, which the run loop starts (interp_loop.inc). */
static inline bool cb_helper(int32_t id)
{
	return id == BPF_FUNC_loop || id == BPF_FUNC_for_each_map_elem ||
	       id == BPF_FUNC_find_vma || id == BPF_FUNC_user_ringbuf_drain;
}

/* Whether proto_helper runs a helper of prototype p: one whose result is an integer or a kernel
 * object. */
static inline bool proto_runs(const struct ebpf_helper_proto *p)
{
	return p && (p->ret == HRET_INTEGER || p->ret == HRET_BTF_ID ||
		     p->ret == HRET_BTF_ID_OR_NULL || p->ret == HRET_SOCKET_OR_NULL ||
		     p->ret == HRET_TCP_SOCK_OR_NULL || p->ret == HRET_SOCK_COMMON_OR_NULL);
}

void interp_sk_lookup_test_ctx(uint8_t out[72], const uint8_t *in, size_t len)
{
	struct bpf_sk_lookup c;
	bool v6;

	_Static_assert(sizeof(c) == 72, "struct bpf_sk_lookup");
	memset(&c, 0, sizeof(c));
	memcpy(&c, in, len < sizeof(c) ? len : sizeof(c));
	v6 = c.family & 1;
	c.sk = 0;
	c.family = v6 ? 10 : 2;	/* AF_INET6, AF_INET */
	c.protocol &= 0xffff;
	c.local_port &= 0xffff;
	c.ingress_ifindex = 0;
	memset((uint8_t *)&c + offsetof(struct bpf_sk_lookup, remote_port) + 2, 0, 2);
	/* (and the struct's tail padding: nothing past ingress_ifindex, range_is_zero) */
	memset((uint8_t *)&c + offsetof(struct bpf_sk_lookup, ingress_ifindex) + 4, 0,
	       sizeof(c) - offsetof(struct bpf_sk_lookup, ingress_ifindex) - 4);
	if (v6)
		c.remote_ip4 = c.local_ip4 = 0;
	else
		memset(c.remote_ip6, 0, 16), memset(c.local_ip6, 0, 16);
	memcpy(out, &c, sizeof(c));
}

size_t interp_input_pkt_off(enum interp_ctx_kind kind, uint32_t prog_type, size_t input_len)
{
	if (kind == INTERP_CTX_XDP || kind == INTERP_CTX_SKB)
		return 0;
	if (kind == INTERP_CTX_RO && ebpf_ctx_ro_pkt(prog_type) &&
	    input_len > ebpf_ctx_size(prog_type))
		return ebpf_ctx_size(prog_type);
	return input_len;
}

enum interp_helper_family interp_helper_family(int32_t id)
{
	switch (id) {
	case BPF_FUNC_map_lookup_elem:
	case BPF_FUNC_map_update_elem:
	case BPF_FUNC_map_delete_elem:
	case BPF_FUNC_map_lookup_percpu_elem:
	case BPF_FUNC_get_local_storage:
	case BPF_FUNC_sk_storage_get:
		return INTERP_HF_MAP;
	case BPF_FUNC_trace_printk:
		return INTERP_HF_PRINTK;
	case BPF_FUNC_tail_call:
		return INTERP_HF_TAIL_CALL;
	case BPF_FUNC_ringbuf_reserve:
	case BPF_FUNC_ringbuf_submit:
	case BPF_FUNC_ringbuf_discard:
		return INTERP_HF_RINGBUF;
	case BPF_FUNC_dynptr_read:
	case BPF_FUNC_dynptr_write:
	case BPF_FUNC_dynptr_data:
		return INTERP_HF_DYNPTR;
	case BPF_FUNC_dynptr_from_mem:
	case BPF_FUNC_ringbuf_reserve_dynptr:
	case BPF_FUNC_ringbuf_submit_dynptr:
	case BPF_FUNC_ringbuf_discard_dynptr:
		return INTERP_HF_DP_MAKE;
	case BPF_FUNC_timer_init:
	case BPF_FUNC_timer_set_callback:
	case BPF_FUNC_timer_start:
	case BPF_FUNC_timer_cancel:
		return INTERP_HF_TIMER;
	case BPF_FUNC_spin_lock:
	case BPF_FUNC_spin_unlock:
		return INTERP_HF_LOCK;
	default:
		break;
	}
	if (cb_helper(id))
		return INTERP_HF_CALLBACK;
	if (interp_helper_draw_width(id))
		return INTERP_HF_DRAW;
	return proto_runs(ebpf_helper_proto(id)) ? INTERP_HF_PROTO : INTERP_HF_NONE;
}

/* A helper call: 0 go on, 1 the program ends (r0 set), -1 trap. */
static __attribute__((noinline)) int do_helper(struct interp_state *st, const struct iop *ip,
					       int32_t id)
{
	const struct interp_env *env = st->env;
	uint64_t *r = st->h.regs, ret = 0;
	const char *name;

	/* (check_helper_call: no helper that may sleep, nor a tail call, inside an RCU or
	 * non-preemptible region) */
	if (unlikely(st->rcu || st->preempt) &&
	    (id == BPF_FUNC_tail_call ||
	     (ebpf_helper_proto(id) && (ebpf_helper_proto(id)->flags & HF_SLEEPS)))) {
		name = ebpf_helper_name(id);
		set_trap(st, INTERP_TRAP_RULE, ip->pc, "helper %s (id %d) called inside an RCU or "
			 "non-preemptible region", name ? name : "unknown", id);
		return -1;
	}
	/* (check_helper_call: no helper but bpf_spin_unlock while a lock is held) */
	if (unlikely(st->lock_held) && id != BPF_FUNC_spin_unlock) {
		name = ebpf_helper_name(id);
		set_trap(st, INTERP_TRAP_RULE, ip->pc, "helper %s (id %d) called while holding a spin "
			 "lock", name ? name : "unknown", id);
		return -1;
	}
	if (env->helper) {
		int rc = env->helper(env->arg, id, &r[1], &ret);

		if (rc == 0 || rc == INTERP_HELPER_EXIT) {
			r[0] = ret;
			poison_args(r);
			return rc == 0 ? 0 : 1;
		}
		if (rc != -ENOENT) {
			name = ebpf_helper_name(id);
			set_trap(st, INTERP_TRAP_HELPER, ip->pc,
				 "helper %s (id %d) refused its arguments (%s)", name ? name : "?",
				 id, strerror(-rc));
			return -1;
		}
	}
	switch (interp_helper_family(id)) {
	case INTERP_HF_MAP:
		if (id == BPF_FUNC_map_lookup_percpu_elem ? pcpu_lookup(st, ip, &ret)
		    : id == BPF_FUNC_get_local_storage ? local_storage(st, ip, &ret)
		    : id == BPF_FUNC_sk_storage_get ? sk_storage_get(st, ip, &ret)
						    : map_helper(st, ip, id, &ret))
			return -1;
		break;
	case INTERP_HF_PRINTK:
		ret = 0;
		break;
	case INTERP_HF_TAIL_CALL:
		if (st->live_recs && ringbuf_leak(st, ip->pc))
			return -1;
		ret = 0;
		break;
	case INTERP_HF_RINGBUF:
		if (ringbuf_helper(st, ip, id, &ret))
			return -1;
		break;
	case INTERP_HF_DYNPTR:
		if (dynptr_helper(st, ip, id, &ret))
			return -1;
		break;
	case INTERP_HF_DP_MAKE:
		if (dp_make_helper(st, ip, id, &ret))
			return -1;
		break;
	case INTERP_HF_TIMER:
		if (timer_helper(st, ip, id, &ret))
			return -1;
		break;
	case INTERP_HF_LOCK:
		if (lock_helper(st, ip, id))
			return -1;
		break;
	case INTERP_HF_DRAW:
		/* (the CPU the caller says the run is on: interp_env.ncpus) */
		ret = id == BPF_FUNC_get_smp_processor_id && env->ncpus
		      ? st->cpu : drawn_result(st, id);
		break;
	case INTERP_HF_CALLBACK:	/* (the run loop starts them; a callx by helper id,
					 * callx_helper_ids, runs one as its prototype says) */
	case INTERP_HF_PROTO:
		if (proto_runs(ebpf_helper_proto(id))) {
			if (proto_helper(st, ip, id, ebpf_helper_proto(id), &ret))
				return -1;
			break;
		}
		/* fall through */
	default:
		name = ebpf_helper_name(id);
		set_trap(st, INTERP_TRAP_CALL, ip->pc, "helper %s (id %d) is not modeled",
			 name ? name : "unknown", id);
		return -1;
	}
	r[0] = ret;
	poison_args(r);
	return 0;
}

/* ---- the loop ---- */

/* What the verifier refuses and the ISA defines: noted, the first of a run (interp_result). */
static void refuse(struct interp_result *res, uint32_t pc, const char *why)
{
	res->refused = true;
	res->refused_pc = pc;
	res->refused_why = why;
}

/* Handler bodies for interp_loop.inc; L(), NEXT, JUMP, STOP and RUN_AS are defined per copy
 * below. */
#define ALU_HANDLERS(n, e64, e32)                                                           \
	L(n##64K): { uint64_t d = r[ip->dst], s = ip->imm; r[ip->dst] = (e64); NEXT(); }    \
	L(n##64X): { uint64_t d = r[ip->dst], s = r[ip->src]; r[ip->dst] = (e64); NEXT(); } \
	L(n##32K): { uint32_t d = (uint32_t)r[ip->dst], s = (uint32_t)ip->imm;              \
		     r[ip->dst] = (uint32_t)(e32); NEXT(); }                                \
	L(n##32X): { uint32_t d = (uint32_t)r[ip->dst], s = (uint32_t)r[ip->src];           \
		     r[ip->dst] = (uint32_t)(e32); NEXT(); }

#define UNARY(e) do { r[ip->dst] = (e); NEXT(); } while (0)

#define C_JEQ(d, s, S) ((d) == (s))
#define C_JNE(d, s, S) ((d) != (s))
#define C_JGT(d, s, S) ((d) > (s))
#define C_JGE(d, s, S) ((d) >= (s))
#define C_JLT(d, s, S) ((d) < (s))
#define C_JLE(d, s, S) ((d) <= (s))
#define C_JSGT(d, s, S) ((S)(d) > (S)(s))
#define C_JSGE(d, s, S) ((S)(d) >= (S)(s))
#define C_JSLT(d, s, S) ((S)(d) < (S)(s))
#define C_JSLE(d, s, S) ((S)(d) <= (S)(s))
#define C_JSET(d, s, S) (((d) & (s)) != 0)

#define JMP_HANDLERS(n)                                                                     \
	L(n##64K): { uint64_t d = r[ip->dst], s = ip->imm;                                  \
		     JUMP(C_##n(d, s, int64_t) ? base + ip->off : ip + 1); }                \
	L(n##64X): { uint64_t d = r[ip->dst], s = r[ip->src];                               \
		     JUMP(C_##n(d, s, int64_t) ? base + ip->off : ip + 1); }                \
	L(n##32K): { uint32_t d = (uint32_t)r[ip->dst], s = (uint32_t)ip->imm;              \
		     JUMP(C_##n(d, s, int32_t) ? base + ip->off : ip + 1); }                \
	L(n##32X): { uint32_t d = (uint32_t)r[ip->dst], s = (uint32_t)r[ip->src];           \
		     JUMP(C_##n(d, s, int32_t) ? base + ip->off : ip + 1); }

#define LOAD_HANDLER(n, areg, sz, T, EXT)                                                   \
	L(n): {                                                                             \
		uint64_t a = r[ip->areg] + (uint64_t)(int64_t)ip->off;                      \
		const uint8_t *p = xlate(st, a, sz);                                        \
		T v;                                                                        \
		if (likely(p)) {                                                            \
			memcpy(&v, p, sz);                                                  \
		} else {                                                                    \
			uint64_t w;                                                         \
			int rc = slow_load(st, ip->pc, a, sz, &w);                          \
			if (rc < 0)                                                         \
				STOP(0);                                                    \
			if (rc > 0) {	/* a context pointer: the whole of it */            \
				r[ip->dst] = w;                                             \
				NEXT();                                                     \
			}                                                                   \
			v = (T)w;                                                           \
		}                                                                           \
		r[ip->dst] = EXT(v);                                                        \
		NEXT();                                                                     \
	}

#define STORE_HANDLER(n, sz, T, val)                                                        \
	L(n): {                                                                             \
		uint64_t a = r[ip->dst] + (uint64_t)(int64_t)ip->off;                       \
		T v = (T)(val);                                                             \
		uint8_t *p = xlate_w(st, a, sz);                                            \
		if (unlikely(!p) && !(p = slow_ptr(st, ip->pc, a, sz, ACC_STORE)))          \
			STOP(0);                                                            \
		memcpy(p, &v, sz);                                                          \
		NEXT();                                                                     \
	}

#define ATOMIC_ONE(n, sz, T, e, fetch)                                                      \
	L(n): {                                                                             \
		uint64_t a = r[ip->dst] + (uint64_t)(int64_t)ip->off;                       \
		uint8_t *p = xlate_w(st, a, sz);                                            \
		T old, s = (T)r[ip->src], nv;                                               \
		if (unlikely(!p) && !(p = slow_ptr(st, ip->pc, a, sz, ACC_ATOMIC)))         \
			STOP(0);                                                            \
		memcpy(&old, p, sz);                                                        \
		nv = (T)(e);                                                                \
		memcpy(p, &nv, sz);                                                         \
		if (fetch)                                                                  \
			r[ip->src] = old;                                                   \
		NEXT();                                                                     \
	}
#define ATOMIC_HANDLERS(n, e, fetch)                                                        \
	ATOMIC_ONE(n##_W, 4, uint32_t, e, fetch) ATOMIC_ONE(n##_DW, 8, uint64_t, e, fetch)

/* r0 is compared (32-bit: its low half) and receives the old value, zero-extended. */
#define CMPXCHG_HANDLER(n, sz, T)                                                           \
	L(n): {                                                                             \
		uint64_t a = r[ip->dst] + (uint64_t)(int64_t)ip->off;                       \
		uint8_t *p = xlate_w(st, a, sz);                                            \
		T old, s = (T)r[ip->src];                                                   \
		if (unlikely(!p) && !(p = slow_ptr(st, ip->pc, a, sz, ACC_ATOMIC)))         \
			STOP(0);                                                            \
		memcpy(&old, p, sz);                                                        \
		if (old == (T)r[0])                                                         \
			memcpy(p, &s, sz);                                                  \
		r[0] = old;                                                                 \
		NEXT();                                                                     \
	}

/* Legacy packet loads: big-endian from the input.  Out of bounds, r0 = 0 and the function
 * returns: the kernel rewrites the load into a helper call followed by "if r0 s< 0: r0 = 0;
 * exit" (net/core/filter.c bpf_gen_ld_abs), so main's ends the program and a static
 * function's returns 0 to its caller, as its exit would (the verifier walks that exit too:
 * check_ld_abs). */
#define LDABS_HANDLER(n, sz, ind)                                                           \
	L(n): {                                                                             \
		uint32_t o32 = (uint32_t)ip->imm + (ind ? (uint32_t)r[ip->src] : 0);        \
		int64_t o = (int32_t)o32;                                                   \
		uint64_t v = 0;                                                             \
		if (o < 0 || (uint64_t)o + sz > st->abs_len) {                              \
			r[0] = 0;                                                           \
			if (st->h.depth == 0)                                               \
				STOP(1);                                                    \
			poison_args(r);                                                     \
			LEAVE_RUN();                                                        \
			RUN_AS(OP_EXIT);                                                    \
		}                                                                           \
		for (unsigned k = 0; k < sz; k++)                                           \
			v = v << 8 | st->abs[o + k];                                        \
		r[0] = v;                                                                   \
		poison_args(r);                                                             \
		NEXT();                                                                     \
	}

static void exec(struct interp_state *st, uint64_t budget, bool hooked, uint32_t start)
{
	static const void *const plain_tbl[OP_COUNT] = {
#define OP_ADDR(n) [OP_##n] = &&plain_##n,
		OP_LIST(OP_ADDR)
#undef OP_ADDR
	};
	static const void *const hook_tbl[OP_COUNT] = {
#define OP_ADDR(n) [OP_##n] = &&hook_##n,
		OP_LIST(OP_ADDR)
#undef OP_ADDR
	};
	const struct iop *const base = st->code->ops;
	const struct iop *ip = base + start;
	uint64_t *const r = st->h.regs;
	const struct interp_env *env = st->env;
	const uint8_t *probes = env->probes ? env->probes : st->code->noprobe;
	const interp_visit_fn visit = env->visit;
	void *const visit_arg = env->arg;	/* (both read once, not after every visit) */
	uint64_t left = budget;
	uint32_t call_tgt, last = UINT32_MAX;	/* last: pc of the previous step (hooked) */

	if (hooked || left < ip->len)
		goto hook_pre;
	left -= ip->len;
	goto *plain_tbl[ip->op];

	/* The plain copy: a straight-line run's steps are charged when it is entered; when the
	 * budget cannot cover the whole run, the hooked copy takes over and counts singly. */
#define L(x) plain_##x
#define NEXT() do { ip++; goto *plain_tbl[ip->op]; } while (0)
#define JUMP(to)                                                                            \
	do {                                                                                \
		ip = (to);                                                                  \
		if (unlikely(left < ip->len))                                               \
			goto hook_pre;                                                      \
		left -= ip->len;                                                            \
		goto *plain_tbl[ip->op];                                                    \
	} while (0)
/* Ends the run at ip; executed says whether ip itself completed.  The run containing ip was
 * charged in full, so the operations after ip in it are given back. */
#define STOP(executed)                                                                      \
	do {                                                                                \
		st->steps = budget - left - ip->len + (executed);                           \
		goto done;                                                                  \
	} while (0)
#define RUN_AS(o) goto *plain_tbl[o]
/* Leaves the run at ip, which completed, for a jump (a legacy load's return from a static
 * function): the run's operations after ip, charged when it was entered, are given back. */
#define LEAVE_RUN() (left += ip->len - 1)
#include "oracle/exec/interp_loop.inc"
#undef L
#undef NEXT
#undef JUMP
#undef STOP
#undef RUN_AS
#undef LEAVE_RUN

	/* The hooked copy: a step is counted and its probe byte checked before every instruction,
	 * inline in each handler's dispatch so that each keeps its own indirect jump (one shared
	 * dispatch point would have to predict every transition of the program). */
#define L(x) hook_##x
#define HOOK_STEP()                                                                         \
	do {                                                                                \
		if (unlikely(left == 0))                                                    \
			goto hook_budget;                                                   \
		left--;                                                                     \
		if (unlikely(probes[ip->pc]))                                               \
			goto hook_visit;                                                    \
		last = ip->pc;                                                              \
	} while (0)
#define NEXT() do { ip++; HOOK_STEP(); goto *hook_tbl[ip->op]; } while (0)
#define JUMP(to) do { ip = (to); HOOK_STEP(); goto *hook_tbl[ip->op]; } while (0)
#define STOP(executed)                                                                      \
	do {                                                                                \
		st->steps = budget - left - 1 + (executed);                                 \
		goto done;                                                                  \
	} while (0)
#define RUN_AS(o) goto *hook_tbl[o]
#define LEAVE_RUN() ((void)0)
#include "oracle/exec/interp_loop.inc"
#undef L
#undef NEXT
#undef JUMP
#undef STOP
#undef RUN_AS
#undef LEAVE_RUN

#undef HOOK_STEP

	/* Entering the hooked copy (at the start, or from the plain one). */
hook_pre:
	if (unlikely(left == 0))
		goto hook_budget;
	left--;
	if (probes[ip->pc])
		goto hook_visit;
	last = ip->pc;
	goto *hook_tbl[ip->op];

hook_visit:
	st->h.prev_pc = last;
	visit(visit_arg, st, ip->pc);
	last = ip->pc;
	goto *hook_tbl[ip->op];

hook_budget:
	set_trap(st, INTERP_TRAP_STEPS, ip->pc, "step budget of %llu instructions exhausted",
		 (unsigned long long)budget);
	st->steps = budget;
	goto done;

done:
	return;
}

/* ---- preparation ---- */

static bool ends_run(uint8_t op)
{
	return (op >= OP_JEQ64K && op <= OP_MAY_GOTO) || op == OP_CALL || op == OP_CALLX ||
	       op == OP_EXIT || op == OP_KFUNC || op == OP_LDDW_BAD || op == OP_FP_WRITE;
}

/* A division or modulo by the immediate 0, a shift by an immediate outside [0, width)
 * (refused, check_alu_op's refusals of an immediate): o becomes ALU_REFUSED, which notes the
 * run (interp_result.refused) and then runs o's operation, kept in pad; every other ALU
 * operation's handler tests nothing for it.  Returns 0 (decode's success). */
static int alu_refused_imm(struct iop *o, bool refused)
{
	if (refused) {
		o->pad = o->op;
		o->op = OP_ALU_REFUSED;
	}
	return 0;
}

/* Operation for one instruction; jump/call targets are left as slots in o->off. */
static int decode(const struct bpf_insn *in, size_t slot, struct iop *o, struct diag *d)
{
	uint8_t cls = ebpf_class(in), op = ebpf_op(in), sz = ebpf_size(in);
	bool x = ebpf_srcbit(in) == BPF_X;
	unsigned form;
	static const uint8_t ldx[4] = { [BPF_W >> 3] = OP_LDX_W, [BPF_H >> 3] = OP_LDX_H,
					[BPF_B >> 3] = OP_LDX_B, [BPF_DW >> 3] = OP_LDX_DW };
	static const uint8_t ldxs[4] = { [BPF_W >> 3] = OP_LDXS_W, [BPF_H >> 3] = OP_LDXS_H,
					 [BPF_B >> 3] = OP_LDXS_B };
	static const uint8_t stk[4] = { [BPF_W >> 3] = OP_ST_W, [BPF_H >> 3] = OP_ST_H,
					[BPF_B >> 3] = OP_ST_B, [BPF_DW >> 3] = OP_ST_DW };
	static const uint8_t stx[4] = { [BPF_W >> 3] = OP_STX_W, [BPF_H >> 3] = OP_STX_H,
					[BPF_B >> 3] = OP_STX_B, [BPF_DW >> 3] = OP_STX_DW };

	memset(o, 0, sizeof(*o));
	o->dst = in->dst_reg;
	o->src = in->src_reg;
	o->off = in->off;
	o->pc = (uint32_t)slot;
	o->imm = (uint64_t)(int64_t)in->imm;

	if (ebpf_writes_fp(in)) {	/* (traps: the verifier refuses it where it reaches it) */
		o->op = OP_FP_WRITE;
		return 0;
	}
	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		form = (cls == BPF_ALU ? 2 : 0) + x;
		switch (op) {
		case BPF_ADD: o->op = OP_ADD64K + form; return 0;
		case BPF_SUB: o->op = OP_SUB64K + form; return 0;
		case BPF_MUL: o->op = OP_MUL64K + form; return 0;
		case BPF_DIV:
			o->op = (in->off ? OP_SDIV64K : OP_DIV64K) + form;
			return alu_refused_imm(o, !x && in->imm == 0);
		case BPF_MOD:
			o->op = (in->off ? OP_SMOD64K : OP_MOD64K) + form;
			return alu_refused_imm(o, !x && in->imm == 0);
		case BPF_OR: o->op = OP_OR64K + form; return 0;
		case BPF_AND: o->op = OP_AND64K + form; return 0;
		case BPF_XOR: o->op = OP_XOR64K + form; return 0;
		case BPF_LSH:
		case BPF_RSH:
		case BPF_ARSH:
			o->op = (op == BPF_LSH ? OP_LSH64K : op == BPF_RSH ? OP_RSH64K : OP_ARSH64K) +
				form;
			return alu_refused_imm(o, !x && (in->imm < 0 ||
							 in->imm >= (cls == BPF_ALU64 ? 64 : 32)));
		case BPF_NEG: o->op = cls == BPF_ALU64 ? OP_NEG64 : OP_NEG32; return 0;
		case BPF_MOV:
			if (in->off == 0)
				o->op = OP_MOV64K + form;
			else if (cls == BPF_ALU64)
				o->op = in->off == 8 ? OP_MOVSX64_8 : in->off == 16 ? OP_MOVSX64_16
										: OP_MOVSX64_32;
			else
				o->op = in->off == 8 ? OP_MOVSX32_8 : OP_MOVSX32_16;
			return 0;
		case BPF_END:
			/* to_le is a truncation on a little-endian host; to_be and bswap swap. */
			if (cls == BPF_ALU && !x)
				o->op = in->imm == 16 ? OP_ZEXT16
				      : in->imm == 32 ? OP_ZEXT32 : OP_NOP;
			else
				o->op = in->imm == 16 ? OP_BSWAP16
				      : in->imm == 32 ? OP_BSWAP32 : OP_BSWAP64;
			return 0;
		}
		break;
	case BPF_JMP:
	case BPF_JMP32:
		form = (cls == BPF_JMP32 ? 2 : 0) + x;
		switch (op) {
		case BPF_JEQ: o->op = OP_JEQ64K + form; break;
		case BPF_JNE: o->op = OP_JNE64K + form; break;
		case BPF_JGT: o->op = OP_JGT64K + form; break;
		case BPF_JGE: o->op = OP_JGE64K + form; break;
		case BPF_JLT: o->op = OP_JLT64K + form; break;
		case BPF_JLE: o->op = OP_JLE64K + form; break;
		case BPF_JSGT: o->op = OP_JSGT64K + form; break;
		case BPF_JSGE: o->op = OP_JSGE64K + form; break;
		case BPF_JSLT: o->op = OP_JSLT64K + form; break;
		case BPF_JSLE: o->op = OP_JSLE64K + form; break;
		case BPF_JSET: o->op = OP_JSET64K + form; break;
		case BPF_JA:
			o->op = OP_JA;
			o->off = (int32_t)ebpf_jump_target(in, slot);
			return 0;
		case BPF_JCOND:
			o->op = OP_MAY_GOTO;
			break;
		case BPF_EXIT:
			o->op = OP_EXIT;
			return 0;
		case BPF_CALL:
			if (x) {
				o->op = OP_CALLX;
			} else if (in->src_reg == BPF_PSEUDO_CALL) {
				o->op = OP_CALL;
				o->off = (int32_t)(slot + 1 + in->imm);
			} else if (in->src_reg == BPF_PSEUDO_KFUNC_CALL) {
				o->op = OP_KFUNC;
			} else {
				o->op = OP_HELPER;
			}
			return 0;
		default:
			goto bad;
		}
		o->off = (int32_t)ebpf_jump_target(in, slot);
		return 0;
	case BPF_LD:
		if (ebpf_is_ldimm64(in)) {
			uint64_t v = ebpf_ldimm64_value(in);
			uint32_t idx = (uint32_t)in->imm;

			o->op = OP_LDDW;
			switch (in->src_reg) {
			case 0:
				o->imm = v;
				break;
			case BPF_PSEUDO_MAP_FD:
			case BPF_PSEUDO_MAP_IDX:
				o->imm = INTERP_VA_MAPH + idx;
				break;
			case BPF_PSEUDO_MAP_VALUE:
			case BPF_PSEUDO_MAP_IDX_VALUE:
				if (idx >= INTERP_MAX_MAPS) {
					o->op = OP_LDDW_BAD;
					o->imm = idx;
				} else {
					o->imm = INTERP_VA_MAP + ((uint64_t)idx << 32) +
						 (uint32_t)in[1].imm;
				}
				break;
			case BPF_PSEUDO_FUNC:
				o->imm = INTERP_VA_FUNC + slot + 1 + (int64_t)in->imm;
				break;
			default:	/* BPF_PSEUDO_BTF_ID */
				o->op = OP_LDDW_BAD;
				break;
			}
			return 0;
		}
		if (sz == BPF_DW)
			goto bad;
		if (ebpf_mode(in) == BPF_ABS)
			o->op = sz == BPF_B ? OP_LDABS_B : sz == BPF_H ? OP_LDABS_H : OP_LDABS_W;
		else
			o->op = sz == BPF_B ? OP_LDIND_B : sz == BPF_H ? OP_LDIND_H : OP_LDIND_W;
		return 0;
	case BPF_LDX:
		if (ebpf_mode(in) == BPF_MEMSX) {
			if (sz == BPF_DW)
				goto bad;
			o->op = ldxs[sz >> 3];
		} else {
			o->op = ldx[sz >> 3];
		}
		return 0;
	case BPF_ST:
		o->op = stk[sz >> 3];
		return 0;
	case BPF_STX:
		if (ebpf_mode(in) == BPF_MEM) {
			o->op = stx[sz >> 3];
			return 0;
		}
		/* Without concurrency, load-acquire and store-release are plain loads and stores:
		 * dst = *(src + off) and *(dst + off) = src, as LDX and STX. */
		if (in->imm == BPF_LOAD_ACQ) {
			o->op = ldx[sz >> 3];
			return 0;
		}
		if (in->imm == BPF_STORE_REL) {
			o->op = stx[sz >> 3];
			return 0;
		}
		if (sz != BPF_W && sz != BPF_DW)
			goto bad;
		form = sz == BPF_DW;
		switch (in->imm) {
		case BPF_ADD: o->op = OP_AADD_W + form; return 0;
		case BPF_OR: o->op = OP_AOR_W + form; return 0;
		case BPF_AND: o->op = OP_AAND_W + form; return 0;
		case BPF_XOR: o->op = OP_AXOR_W + form; return 0;
		case BPF_ADD | BPF_FETCH: o->op = OP_AFADD_W + form; return 0;
		case BPF_OR | BPF_FETCH: o->op = OP_AFOR_W + form; return 0;
		case BPF_AND | BPF_FETCH: o->op = OP_AFAND_W + form; return 0;
		case BPF_XOR | BPF_FETCH: o->op = OP_AFXOR_W + form; return 0;
		case BPF_XCHG: o->op = OP_AXCHG_W + form; return 0;
		case BPF_CMPXCHG: o->op = OP_ACMPXCHG_W + form; return 0;
		}
		break;
	}
bad:
	return diag_at_insn(d, EINVAL, (long)slot, "instruction 0x%02x cannot be interpreted",
			    in->code);
}

void interp_code__free(struct interp_code *code)
{
	if (!code)
		return;
	free(code->ops);
	free(code->slot2op);
	free(code->func);
	free(code->noprobe);
	free(code->fastcall);
	free(code);
}

size_t interp_code__slots(const struct interp_code *code)
{
	return code ? code->nslots : 0;
}

int interp_prepare(struct interp_code **out, const struct ebpf_prog *prog, struct diag *d)
{
	struct interp_code *c;
	size_t n = 0;
	int err;

	if (!out || !prog || !prog->insns)
		return diag_set(d, EINVAL, "interp_prepare: no program");
	*out = NULL;
	/* The loop indexes registers and follows targets without checks: only validated
	 * programs may enter. */
	err = ebpf_validate(prog->insns, prog->len, d);
	if (err)
		return err;
	c = calloc(1, sizeof(*c));
	if (!c)
		return diag_set(d, ENOMEM, "out of memory");
	c->nslots = prog->len;
	c->ops = calloc(prog->len, sizeof(*c->ops));
	c->slot2op = malloc(prog->len * sizeof(*c->slot2op));
	c->func = calloc(prog->len, 1);
	c->noprobe = calloc(prog->len, 1);
	c->fastcall = calloc(prog->len, 1);
	if (!c->ops || !c->slot2op || !c->func || !c->noprobe || !c->fastcall) {
		interp_code__free(c);
		return diag_set(d, ENOMEM, "out of memory");
	}
	for (size_t pc = 0; pc < prog->len; pc += ebpf_insn_slots(&prog->insns[pc])) {
		const struct bpf_insn *in = &prog->insns[pc];

		c->slot2op[pc] = (uint32_t)n;
		if (ebpf_is_ldimm64(in))
			c->slot2op[pc + 1] = UINT32_MAX;
		if ((err = decode(in, pc, &c->ops[n], d))) {
			interp_code__free(c);
			return err;
		}
		if (ebpf_is_pseudo_call(in) ||
		    (ebpf_is_ldimm64(in) && in->src_reg == BPF_PSEUDO_FUNC))
			c->func[pc + 1 + in->imm] = 1;
		if (c->ops[n].op == OP_KFUNC)
			c->ops[n].pad = kfunc_kind(ebpf_prog_kfunc_name(prog, pc));
		n++;
	}
	c->func[0] = 1;
	fastcall_marks(c->fastcall, prog->insns, prog->len);
	c->nops = n;
	c->exc_op = UINT32_MAX;
	if (ebpf_prog_exc_cb(prog) && ebpf_prog_exc_cb(prog)->insn < prog->len &&
	    c->slot2op[ebpf_prog_exc_cb(prog)->insn] != UINT32_MAX) {
		c->exc_op = c->slot2op[ebpf_prog_exc_cb(prog)->insn];
		c->func[ebpf_prog_exc_cb(prog)->insn] = 1;
	}
	for (size_t k = 0; k < n; k++) {
		struct iop *o = &c->ops[k];

		if ((o->op >= OP_JEQ64K && o->op <= OP_MAY_GOTO) || o->op == OP_CALL)
			o->off = (int32_t)c->slot2op[o->off];
	}
	/* Validation guarantees the last operation ends a run (exit or ja). */
	for (size_t k = n; k-- > 0;)
		c->ops[k].len = ends_run(c->ops[k].op) || k + 1 == n ? 1 : c->ops[k + 1].len + 1;
	*out = c;
	return 0;
}

/* ---- running ---- */

/* A hash map's table in the caller's slots (interp_map): the run starts from its elements. */
static void hash_adopt(struct map_rt *mr, const struct interp_map *im)
{
	mr->cap = interp_hash_slots(&im->def);
	mr->host = im->values;
	mr->keys = im->keys;
	mr->used = im->used;
	mr->len = (uint64_t)mr->cap * im->def.value_size;
	mr->nval = mr->cap;
	mr->cnt = 0;
	for (uint32_t k = 0; k < mr->cap; k++)
		mr->cnt += im->used[k] != 0;
}

static bool is_percpu(uint32_t type)
{
	return type == BPF_MAP_TYPE_PERCPU_ARRAY || type == BPF_MAP_TYPE_PERCPU_HASH ||
	       type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static enum map_kind kind_of(uint32_t type)
{
	switch (type) {
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_CGROUP_STORAGE:	/* (one element: map_entries) */
	case BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE:
	case BPF_MAP_TYPE_SK_STORAGE:
		return MAPK_ARRAY;
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
		return MAPK_HASH;
	case BPF_MAP_TYPE_SOCKMAP:
	case BPF_MAP_TYPE_SOCKHASH:
		return MAPK_SOCK;
	default:
		return MAPK_OTHER;
	}
}

uint32_t interp_hash_slots(const struct ebpf_map_def *def)
{
	return def->max_entries < INTERP_HASH_CAP ? def->max_entries : INTERP_HASH_CAP;
}

unsigned interp_map_shift(const struct ebpf_map_def *def)
{
	uint64_t n = def->max_entries;
	unsigned shift = 32;

	if (kind_of(def->type) == MAPK_HASH && n > INTERP_HASH_CAP)
		n = INTERP_HASH_CAP;
	while (shift > 0 && (1ull << (32 - shift)) < n)
		shift--;
	return shift;
}

/* The next timer to fire: pending (started) or fired during the run, with a callback, of an
 * array's element or a hash's live one; the earliest start's nsecs first, then the lowest map
 * and element.  false when none. */
static bool next_timer(struct interp_state *st, size_t *mo, uint32_t *eo)
{
	uint64_t best = UINT64_MAX, nsecs;
	bool found = false;

	for (size_t m = 0; m < st->map_cnt; m++) {
		const struct ebpf_map_def *def = &st->env->maps[m].def;
		struct map_rt *mr = &st->maps[m];
		uint32_t n = mr->kind == MAPK_HASH ? mr->cap : def->max_entries;

		if (!def->timer || !mr->host || def->timer - 1 + 16 > def->value_size ||
		    (mr->kind != MAPK_ARRAY && mr->kind != MAPK_HASH))
			continue;
		for (uint32_t e = 0; e < n && (uint64_t)(e + 1) * def->value_size <= mr->len; e++) {
			const uint8_t *t = mr->host + (size_t)e * def->value_size + def->timer - 1;

			if ((mr->kind == MAPK_HASH && !mr->used[e]) || !(t[0] & 2) || !(t[0] & 12))
				continue;
			memcpy(&nsecs, t + 8, 8);
			if (!found || nsecs < best) {
				best = nsecs;
				*mo = m;
				*eo = e;
				found = true;
			}
		}
	}
	return found;
}

/* Fire the timer of element e of map m with the callback of slot: cb(map, &key, &value, 0, 0)
 * in a frame of its own (frame 0, the program's is done), r4-r5 poisoned (the verifier forbids
 * reading them), the key a read-only copy (INTERP_VA_KEY of frame 0), the value the element
 * itself, whose bytes the program left (and the earlier callbacks).  *used: the callbacks'
 * steps so far. */
static void fire_timer(struct interp_state *st, size_t m, uint32_t e, uint32_t slot,
		       uint64_t budget, uint64_t *used)
{
	const struct ebpf_map_def *def = &st->env->maps[m].def;
	struct map_rt *mr = &st->maps[m];
	uint64_t *r = st->h.regs;

	st->res->timer_fires++;
	st->h.depth = 0;
	st->stack_lim = EBPF_STACK_SIZE;
	st->frames[0].may_goto = st->mg_budget;
	st->frames[0].cb = false;
	frame_fill(st, 0);
	st->low[0] = EBPF_STACK_SIZE;
	st->h.prev_pc = UINT32_MAX;
	if (mr->kind == MAPK_ARRAY)
		memcpy(st->keys[0], &e, 4);
	else
		memcpy(st->keys[0], mr->keys + (size_t)e * def->key_size, def->key_size);
	st->key_len[0] = (uint16_t)(mr->kind == MAPK_ARRAY ? 4 : def->key_size);
	for (int k = 0; k <= 9; k++)
		r[k] = INTERP_POISON;
	r[1] = INTERP_VA_MAPH + m;
	r[2] = INTERP_VA_KEY;
	r[3] = value_va(m, mr, e);
	r[10] = INTERP_VA_STACK + EBPF_STACK_SIZE;
	st->timer_running = r[3] + def->timer - 1;
	exec(st, budget - *used, st->env->probes != NULL, st->code->slot2op[slot]);
	*used += st->steps;
	st->timer_running = 0;
	st->key_len[0] = 0;
}

/* After the program's normal end: the timers it left armed fire, as the kernel runs them later
 * in softirq (bpf_timer_cb), each as fire_timer runs it.  First the callbacks the program
 * replaced on timers that may have fired before (shadow, timer_helper), each once, then the
 * timers pending (or fired during the run) in the order of their expiry on the timers' clock,
 * which a firing moves to its expiry.  A firing ends the timer's pending state; the callback may
 * start it again (then it fires again, its delay after this firing), up to INTERP_TIMER_FIRES
 * firings a run (and, with env->timer_horizon, only those expiring by then; the first timer left
 * armed is res->timer_left, timer_next); a cancel from its own callback gives -EDEADLK.  The
 * callback's result is not
 * looked at (the verifier demands 0).  The callbacks have a budget of their own, the run's
 * again (the program's steps, res->steps, stay the program's); a trap in a callback is the
 * run's trap (res->timer_trap). */
static void run_timers(struct interp_state *st, uint64_t budget)
{
	uint64_t used = 0, main_steps = st->steps;
	size_t m = 0;
	uint32_t e = 0;

	for (unsigned k = 0; k < st->nshadow && st->res->trap == INTERP_OK; k++) {
		const struct ebpf_map_def *def = &st->env->maps[st->shadow[k].map].def;
		struct map_rt *mr = &st->maps[st->shadow[k].map];

		if (st->shadow[k].slot >= st->code->nslots || !st->code->func[st->shadow[k].slot] ||
		    !mr->host || (uint64_t)(st->shadow[k].elem + 1) * def->value_size > mr->len ||
		    (mr->kind == MAPK_HASH && !mr->used[st->shadow[k].elem]))
			continue;	/* (a hash element deleted since: freed with its timer) */
		fire_timer(st, st->shadow[k].map, st->shadow[k].elem, st->shadow[k].slot, budget,
			   &used);
	}
	for (unsigned k = 0; st->res->trap == INTERP_OK && next_timer(st, &m, &e); k++) {
		const struct ebpf_map_def *def = &st->env->maps[m].def;
		uint8_t *t = st->maps[m].host + (size_t)e * def->value_size + def->timer - 1;
		uint32_t slot;
		uint64_t expiry;

		memcpy(&expiry, t + 8, 8);
		if (k >= INTERP_TIMER_FIRES ||
		    (st->env->timer_horizon && expiry > st->env->timer_horizon)) {
			st->res->timer_left = true;	/* (the earliest: next_timer's order) */
			st->res->timer_next = expiry;
			break;
		}
		t[0] &= (uint8_t)~12;
		memcpy(&slot, t + 4, 4);
		if (slot >= st->code->nslots || !st->code->func[slot])
			break;	/* (set_callback checked it) */
		if (expiry > st->timer_now)
			st->timer_now = expiry;
		fire_timer(st, m, e, slot, budget, &used);
	}
	st->res->timer_steps = used;
	st->res->timer_trap = st->res->trap != INTERP_OK;
	st->steps = main_steps;
}

/* After a run the step budget cut: the timers the program had armed so far fire as after a
 * normal end (run_timers).  The kernel runs the program to its end, and a timer it armed may
 * fire before that on another CPU (bpf_timer_start's hrtimer is not pinned unless asked) or
 * after it; the callback is verified for any value of its map element, so a firing with the
 * bytes the program left at the cut is one of its executions.  The run stays the program's
 * cut (trap STEPS, its pc, reason, frame and registers; res->steps_cut) unless a callback
 * traps otherwise: then that is the run's trap (timer_trap), as after a normal end; a callback
 * cut by its own budget leaves the program's cut. */
static void timers_after_cut(struct interp_state *st, uint64_t budget)
{
	struct interp_result *res = st->res, cut = *res;

	res->steps_cut = true;
	res->trap = INTERP_OK;
	/* what the cut program holds is not the callbacks': its records, kernel objects and
	 * iterators (a callback's exit would find them leaked), its callback frames and keys */
	for (unsigned k = 0; k < st->nrecs; k++) {
		free(st->recs[k].host);
		st->recs[k].host = NULL;
	}
	memset(st->kobj_live, 0, sizeof(st->kobj_live));
	for (unsigned k = 0; k < st->nsocks; k++)
		if (st->sock_flags[k] & SOCK_REF)
			st->sock_flags[k] &= (uint8_t)~SOCK_LIVE;
	st->live_recs = st->dp_nulls = 0;
	st->lock_held = 0;
	st->rcu = st->preempt = 0;
	iters_drop(st);
	memset(st->key_len, 0, sizeof(st->key_len));
	for (unsigned f = 0; f < EBPF_MAX_CALL_DEPTH; f++)
		st->frames[f].cb = st->frames[f].each = st->frames[f].once = st->frames[f].urb = false;
	run_timers(st, budget);
	if (res->trap == INTERP_OK || res->trap == INTERP_TRAP_STEPS) {
		res->trap = cut.trap;
		res->trap_pc = cut.trap_pc;
		memcpy(res->reason, cut.reason, sizeof(res->reason));
		res->timer_trap = false;
		return;
	}
	res->frame = st->h.depth;
	memcpy(res->regs, st->h.regs, sizeof(res->regs));
}

int interp_run(const struct interp_code *code, const struct interp_env *env,
	       struct interp_result *res)
{
	struct interp_state *st;
	uint64_t budget;
	int err = 0;

	if (!code || !env || !res || (env->input_len && !env->input) ||
	    (env->helper_len && !env->helper_data) || (env->map_cnt && !env->maps) ||
	    (env->probes && !env->visit))
		return -EINVAL;
	if (env->input_len >= (1ull << 32))
		return -E2BIG;
	if (env->ncpus > INTERP_MAX_CPUS || env->cpu >= (env->ncpus ? env->ncpus : INTERP_NCPUS))
		return -EINVAL;
	st = malloc(sizeof(*st));
	if (!st)
		return -ENOMEM;
	memset(res, 0, sizeof(*res));
	memset(st->h.regs, 0, sizeof(st->h.regs));
	memset(st->key_len, 0, sizeof(st->key_len));	/* (no key is readable) */
	/* kernel objects reach programs of every context (bpf_find_vma's vma, helpers that
	 * return one), not only the read-only ones */
	st->btf_obj[0] = st->btf_obj[1] = INTERP_VA_BTF;
	st->env = env;
	st->code = code;
	st->res = res;
	st->mg_budget = env->may_goto_budget == INTERP_MAY_GOTO_ZERO ? 0
			: env->may_goto_budget ? env->may_goto_budget : INTERP_MAY_GOTO_BUDGET;
	st->h.depth = 0;
	st->h.prev_pc = UINT32_MAX;
	st->stack_lim = EBPF_STACK_SIZE;
	st->hd_pos = 0;
	st->rp_pos = 0;
	st->ncpus = env->ncpus ? env->ncpus : INTERP_NCPUS;
	st->cpu = env->cpu;
	st->steps = 0;
	st->oom = false;
	st->niters = 0;
	st->nrecs = st->live_recs = st->nkobjs = st->dp_nulls = st->dp_ids = st->nsocks = 0;
	st->lock_held = 0;
	st->rcu = st->preempt = 0;
	st->skb_sk = -1;
	st->ctx_sk[0] = st->ctx_sk[1] = -1;
	st->pkt_ro = false;
	st->frames[0].may_goto = st->mg_budget;
	frame_fill(st, 0);
	st->low[0] = EBPF_STACK_SIZE;
	st->h.regs[1] = INTERP_VA_CTX;
	st->h.regs[10] = INTERP_VA_STACK + EBPF_STACK_SIZE;
	switch (env->ctx_kind) {
	case INTERP_CTX_XDP:
	case INTERP_CTX_SKB:
		st->ctx = NULL;
		st->ctx_len = 0;
		st->ctx_size = env->ctx_kind == INTERP_CTX_XDP ? sizeof(struct xdp_md)
							       : sizeof(struct __sk_buff);
		memset(st->ctxbuf, 0, sizeof(st->ctxbuf));
		if (env->ctx_init)
			memcpy(st->ctxbuf, env->ctx_init,
			       env->ctx_init_len < st->ctx_size ? env->ctx_init_len : st->ctx_size);
		if (env->ctx_kind == INTERP_CTX_SKB) {
			uint32_t len = (uint32_t)env->input_len;

			memcpy(st->ctxbuf + offsetof(struct __sk_buff, len), &len, 4);
			if (!env->ctx_init && env->input_len >= 14)
				memcpy(st->ctxbuf + offsetof(struct __sk_buff, protocol),
				       env->input + 12, 2);
		}
		st->pkt = env->input;
		st->pkt_len = env->input_len;
		break;
	case INTERP_CTX_RO: {
		size_t po = interp_input_pkt_off(env->ctx_kind, env->prog_type, env->input_len);

		st->ctx = NULL;
		st->ctx_len = 0;
		st->ctx_size = po;
		st->ctxro = env->input;
		st->pkt = po < env->input_len ? env->input + po : NULL;
		st->pkt_len = env->input_len - po;
		st->pkt_ro = env->prog_type == BPF_PROG_TYPE_SK_REUSEPORT ||
			     env->prog_type == BPF_PROG_TYPE_SOCK_OPS;
		/* (an sk_lookup run mirroring BPF_PROG_TEST_RUN reads the context the kernel
		 * makes of the input) */
		if (env->prog_type == BPF_PROG_TYPE_SK_LOOKUP && env->test_run_sock) {
			interp_sk_lookup_test_ctx(st->ctxbuf, env->input, env->input_len);
			st->ctxro = st->ctxbuf;
			st->ctx_size = sizeof(struct bpf_sk_lookup);
		}
		break;
	}
	default:
		st->ctx = env->input;
		st->ctx_len = env->input_len;
		st->ctx_size = 0;
		st->pkt = NULL;
		st->pkt_len = 0;
		st->h.regs[2] = env->input_len;
		break;
	}
	st->abs = env->input;
	st->abs_len = env->input_len;
	st->map_cnt = env->map_cnt < INTERP_MAX_MAPS ? env->map_cnt : INTERP_MAX_MAPS;
	st->maps = NULL;
	if (st->map_cnt) {
		st->maps = calloc(st->map_cnt, sizeof(*st->maps));
		if (!st->maps) {
			free(st);
			return -ENOMEM;
		}
		for (size_t m = 0; m < st->map_cnt; m++) {
			const struct interp_map *im = &env->maps[m];
			uint64_t n = (uint64_t)map_entries(&im->def) * im->def.value_size;

			st->maps[m].kind = kind_of(im->def.type);
			if ((im->def.type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
			     im->def.type == BPF_MAP_TYPE_HASH_OF_MAPS) &&
			    im->def.inner && im->def.inner <= st->map_cnt)
				st->maps[m].kind = MAPK_OUTER;
			st->maps[m].ro = (im->def.flags & BPF_F_RDONLY_PROG) != 0;
			st->maps[m].shift = (uint8_t)interp_map_shift(&im->def);
			st->maps[m].vmask = (1ull << st->maps[m].shift) - 1;
			st->maps[m].vsz = im->def.value_size;
			if (st->maps[m].kind == MAPK_ARRAY && im->values && n <= 0xffffffffull &&
			    im->def.value_size <= st->maps[m].vmask + 1) {
				st->maps[m].host = im->values;
				st->maps[m].len = n;
				st->maps[m].nval = map_entries(&im->def);
			}
			if (st->maps[m].kind == MAPK_HASH && im->values && im->keys && im->used &&
			    hash_modeled(&im->def))
				hash_adopt(&st->maps[m], im);
			st->maps[m].percpu = is_percpu(im->def.type);
			/* (the caller's copies go with its values) */
			if (st->maps[m].percpu && st->maps[m].host && im->pcpu)
				st->maps[m].pcpu = im->pcpu;
		}
	}
	budget = env->step_budget ? env->step_budget : DEFAULT_BUDGET;

	st->timer_running = 0;
	st->timer_now = 0;
	st->nshadow = 0;
	exec(st, budget, env->probes != NULL, 0);
	res->r0 = st->h.regs[0];
	res->frame = st->h.depth;
	memcpy(res->regs, st->h.regs, sizeof(res->regs));
	/* check_return_code: these types return 0 or 1 (cgroup_skb's egress programs 0-3 with their
	 * attach type, which no run here has) */
	if (res->trap == INTERP_OK && res->r0 > 1 && !res->refused &&
	    ebpf_prog_ret_bool(env->prog_type))
		refuse(res, st->exit_pc, "main returned a value outside [0, 1] (check_return_code)");
	if (res->trap == INTERP_OK) {
		run_timers(st, budget);
		if (res->trap != INTERP_OK) {	/* a callback's trap: its frame */
			res->frame = st->h.depth;
			memcpy(res->regs, st->h.regs, sizeof(res->regs));
		}
	} else if (res->trap == INTERP_TRAP_STEPS) {
		timers_after_cut(st, budget);
	}
	res->steps = st->steps;
	if (st->oom)
		err = -ENOMEM;
	for (size_t m = 0; m < st->map_cnt; m++) {
		if (st->maps[m].kind == MAPK_HASH && st->maps[m].host && !st->maps[m].own)
			env->maps[m].upd_peak = st->maps[m].upd_peak;
		if (st->maps[m].own) {
			free(st->maps[m].host);
			free(st->maps[m].keys);
			free(st->maps[m].used);
		}
		if (st->maps[m].pcpu_own)
			free(st->maps[m].pcpu);
	}
	free(st->maps);
	for (unsigned k = 0; k < st->nrecs; k++)
		free(st->recs[k].host);
	iters_drop(st);
	free(st);
	return err;
}

/* ---- what visit callbacks see ---- */

const uint8_t *interp_state_frame_bytes(const struct interp_state *st)
{
	uint64_t fp = st->h.regs[EBPF_REG_FP], off = fp - INTERP_VA_STACK;

	if ((fp >> 44) != (INTERP_VA_STACK >> 44) || off < 512 || off > st->stack_lim ||
	    off % 512)
		return NULL;
	return st->stack + off - 512;
}

int interp_state_read(const struct interp_state *st, uint64_t addr, unsigned size, uint64_t *val)
{
	struct interp_state *s = (struct interp_state *)st;	/* xlate does not write */
	const uint8_t *p;

	if (size != 1 && size != 2 && size != 4 && size != 8)
		return -EINVAL;
	p = xlate(s, addr, size);
	if (!p) {
		uint64_t off = addr - INTERP_VA_STACK;

		/* below what its frame used so far: still the frame's (zeroed) bytes */
		if ((addr >> 44) == (INTERP_VA_STACK >> 44) && off + size <= st->stack_lim &&
		    ((off ^ (off + size - 1)) >> 9) == 0) {
			*val = interp_load(st->stack + off, size);
			return 0;
		}
		if ((addr >> 44) == (INTERP_VA_CTX >> 44) && !st->ctx && st->ctx_size)
			return ctx_load(s, 0, addr, size, val, true) < 0 ? -EFAULT : 0;
		/* A map that has no storage yet reads as its initial contents. */
		if ((addr >> 44) == (INTERP_VA_MAP >> 44)) {
			uint64_t m = (addr - INTERP_VA_MAP) >> 32, off = addr & 0xffffffffu;
			const struct ebpf_map_def *def;
			const struct map_rt *mr;

			if (m >= st->map_cnt || st->maps[m].host || st->maps[m].kind != MAPK_ARRAY)
				return -EFAULT;
			def = &st->env->maps[m].def;
			mr = &st->maps[m];
			if ((off >> mr->shift) >= def->max_entries ||
			    (off & mr->vmask) + size > def->value_size)
				return -EFAULT;
			*val = 0;
			for (unsigned k = 0; k < size; k++)	/* value 0 from init, the rest 0 */
				if (def->init && off + k < def->value_size)
					*val |= (uint64_t)def->init[off + k] << (8 * k);
			return 0;
		}
		return -EFAULT;
	}
	*val = interp_load(p, size);
	return 0;
}
