/* The concrete BPF interpreter: the ground truth every claim is measured against.
 *
 * Deterministic and free of undefined behaviour on every validated program and every input;
 * kernel semantics for arithmetic (div by 0 gives 0, mod by 0 leaves dst, shifts masked, 32-bit
 * ops zero-extend, INT_MIN/-1), a 512-byte zeroed stack per frame, bpf-to-bpf calls up to 8 frames,
 * and a step budget.  Anything the kernel would not allow at run time (an access outside every
 * region, an unknown helper, too deep a call chain) stops the run with a trap and a reason.
 *
 * Memory is a virtual address space of disjoint regions with fixed bases, so a program's pointer
 * values are the same in every run and in the Z3 encoding (oracle/smt.c uses these constants):
 *   stack frame k  [INTERP_VA_STACK + 512k, INTERP_VA_STACK + 512(k+1)),  r10 = the end
 *   context        [INTERP_VA_CTX, +ctx_len)
 *   packet         [INTERP_VA_PKT, +pkt_len)     (XDP data .. data_end)
 *   map m values   [INTERP_VA_MAP + m * 2^32, + max_entries * value_size)
 *   map m handle   INTERP_VA_MAPH + m           (what LD_IMM64 of a map fd yields)
 */
#ifndef BPFSCEV_ORACLE_INTERP_H
#define BPFSCEV_ORACLE_INTERP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf/prog.h"

#define INTERP_VA_STACK 0x0000100000000000ull
#define INTERP_VA_CTX 0x0000200000000000ull
#define INTERP_VA_PKT 0x0000300000000000ull
#define INTERP_VA_MAP 0x0000400000000000ull
#define INTERP_VA_MAPH 0x0000500000000000ull

/* How r1 (and r2) are set up and what the context looks like. */
enum interp_ctx_kind {
	INTERP_CTX_PLAIN,	/* r1 = input buffer, r2 = its length (conformance suite) */
	INTERP_CTX_XDP,		/* r1 = struct xdp_md; data/data_end point at the input as packet */
	INTERP_CTX_SKB,		/* r1 = struct __sk_buff; input is the packet (len, data, data_end,
				 * LD_ABS/LD_IND read it big-endian as the kernel does) */
};

enum interp_trap {
	INTERP_OK = 0,		/* reached exit of the main function */
	INTERP_TRAP_MEM,	/* load/store outside every region, or misaligned into a handle */
	INTERP_TRAP_STEPS,	/* step budget exhausted */
	INTERP_TRAP_CALL,	/* unknown helper, kfunc, callx, bad map handle, too deep */
	INTERP_TRAP_HELPER,	/* a modeled helper refused its arguments */
};

struct interp_map {
	struct ebpf_map_def def;
	uint8_t *values;	/* array maps: max_entries * value_size bytes, caller-owned */
};

struct interp_state;

/* Called before the instruction at pc runs, for every pc whose probe byte is non-zero. */
typedef void (*interp_visit_fn)(void *arg, const struct interp_state *st, uint32_t pc);
/* Overrides a helper: return 0 with *ret set when handled, -ENOENT to use the built-in model. */
typedef int (*interp_helper_fn)(void *arg, int32_t id, const uint64_t args[5], uint64_t *ret);

struct interp_env {
	enum interp_ctx_kind ctx_kind;
	uint8_t *input;		/* context buffer (PLAIN) or packet (XDP, SKB); may be written */
	size_t input_len;
	const uint8_t *helper_data;	/* results of prandom/ktime/etc. drawn in order; then 0 */
	size_t helper_len;
	struct interp_map *maps;	/* indexed like ebpf_object.maps */
	size_t map_cnt;
	uint64_t step_budget;	/* instructions; 0 = 1e8 */
	const uint8_t *probes;	/* per slot; NULL = no visits */
	interp_visit_fn visit;
	interp_helper_fn helper;
	void *arg;
};

struct interp_result {
	enum interp_trap trap;
	uint32_t trap_pc;
	char reason[160];
	uint64_t r0;
	uint64_t steps;		/* instructions executed */
	uint64_t regs[EBPF_NREGS];	/* main frame at exit or trap */
};

/* A program prepared for repeated runs (pre-decoded).  interp_prepare copies what it needs. */
struct interp_code;
int interp_prepare(struct interp_code **out, const struct ebpf_prog *prog, struct diag *d);
void interp_code__free(struct interp_code *code);
/* Runs once.  Returns 0 when the run ended normally or with a trap (see res->trap); -errno only
 * for misuse (NULL arguments, out of memory). */
int interp_run(const struct interp_code *code, const struct interp_env *env,
	       struct interp_result *res);

/* What a visit callback may look at. */
const uint64_t *interp_state_regs(const struct interp_state *st);	/* r0..r10 of this frame */
unsigned interp_state_frame(const struct interp_state *st);		/* call depth, 0 = main */
uint32_t interp_state_prev_pc(const struct interp_state *st);		/* pc run just before; -1u at start */
/* Reads size (1,2,4,8) bytes little-endian at a virtual address: 0 or -EFAULT. */
int interp_state_read(const struct interp_state *st, uint64_t addr, unsigned size, uint64_t *val);

#endif
