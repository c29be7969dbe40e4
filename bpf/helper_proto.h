/* What each helper takes and returns, modeled on the kernel's function prototypes (struct
 * bpf_func_proto in the kernel): the kind of each argument register, the kind of the result,
 * which program types may call it, and whether it may move or resize the packet (the kernel's
 * bpf_helper_changes_pkt_data: every packet pointer is invalid after such a call).
 *
 * One table serves the analyzer (scev/absint_*: which arguments to check and how, what r0
 * becomes) and the interpreter (oracle/interp.c: which memory a call reads and writes, so a
 * run traps where the kernel's helper would fault, and what to draw for outputs and results).
 * A helper whose prototype is not in the table (ebpf_helper_proto returns NULL), or whose
 * prototype has an argument kind we do not model (HARG_UNMODELED: BTF ids, dynptrs, callbacks,
 * spin locks, sockets, timers, kptrs...), is "not modeled": the analyzer answers unsupported
 * and the interpreter traps with INTERP_TRAP_CALL.
 */
#ifndef BPFSCEV_BPF_HELPER_PROTO_H
#define BPFSCEV_BPF_HELPER_PROTO_H

#include <stdbool.h>
#include <stdint.h>

#include "bpf/isa.h"

enum ebpf_harg {
	HARG_NONE,		/* not an argument */
	HARG_ANYTHING,		/* any initialized value (ARG_ANYTHING) */
	HARG_MAP,		/* a map (ARG_CONST_MAP_PTR) */
	HARG_MAP_KEY,		/* key_size readable bytes of the map in r1 (ARG_PTR_TO_MAP_KEY) */
	HARG_MAP_VALUE,		/* value_size readable bytes (ARG_PTR_TO_MAP_VALUE) */
	HARG_MEM,		/* readable, initialized memory; its size is the next argument
				 * (ARG_PTR_TO_MEM | MEM_RDONLY) */
	HARG_MEM_OR_NULL,	/* the same, or NULL with size 0 (| PTR_MAYBE_NULL) */
	HARG_MEM_RW,		/* read and written memory, size next (ARG_PTR_TO_MEM) */
	HARG_MEM_UNINIT,	/* written by the helper, size next; need not be initialized
				 * (ARG_PTR_TO_UNINIT_MEM) */
	HARG_SIZE,		/* size of the previous memory argument, > 0 (ARG_CONST_SIZE) */
	HARG_SIZE_OR_ZERO,	/* the same, 0 allowed (ARG_CONST_SIZE_OR_ZERO) */
	HARG_CTX,		/* the context, at offset 0 (ARG_PTR_TO_CTX) */
	HARG_ALLOC_SIZE,	/* a known constant, 0 allowed: the size of the memory the helper
				 * returns (ARG_CONST_ALLOC_SIZE_OR_ZERO) */
	HARG_RINGBUF_RELEASE,	/* a record bpf_ringbuf_reserve returned, not NULL, at offset 0,
				 * whose reference the call releases (ARG_PTR_TO_RINGBUF_MEM |
				 * OBJ_RELEASE) */
	HARG_UNMODELED,		/* any kind this table does not model */
};

enum ebpf_hret {
	HRET_INTEGER,		/* a scalar in [ret_min, ret_max] (signed) */
	HRET_MAP_VALUE_OR_NULL,	/* a value of the map in r1, or NULL */
	HRET_RINGBUF_OR_NULL,	/* a referenced record of the HARG_ALLOC_SIZE bytes, or NULL
				 * (RET_PTR_TO_RINGBUF_MEM_OR_NULL) */
	HRET_UNMODELED,
};

/* Program-type groups a helper is available to (bit = enum bpf_prog_type). */
#define HPT(t) (1ull << (t))
#define HPT_TRACE (HPT(BPF_PROG_TYPE_KPROBE) | HPT(BPF_PROG_TYPE_TRACEPOINT) |            \
		   HPT(BPF_PROG_TYPE_PERF_EVENT) | HPT(BPF_PROG_TYPE_RAW_TRACEPOINT) |         \
		   HPT(BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE) | HPT(BPF_PROG_TYPE_TRACING))
#define HPT_TC (HPT(BPF_PROG_TYPE_SCHED_CLS) | HPT(BPF_PROG_TYPE_SCHED_ACT))
#define HPT_ALL (~0ull)

/* Flags. */
#define HF_CHANGES_PKT 1u	/* may move or resize the packet: packet pointers die */
#define HF_NO_RETURN_VALUE 2u	/* r0 after the call is not a result (tail_call; RET_VOID) */
#define HF_PKT_ACCESS 4u	/* its memory arguments may point into the packet (the kernel's
				 * .pkt_access; without it a packet pointer argument is refused) */

struct ebpf_helper_proto {
	int32_t id;
	uint8_t args[5];	/* enum ebpf_harg for r1..r5 */
	uint8_t ret;		/* enum ebpf_hret */
	uint8_t flags;
	int64_t ret_min, ret_max;	/* HRET_INTEGER */
	uint64_t types;		/* HPT_* mask of program types that may call it */
};

/* The prototype of helper id, or NULL when it is not modeled. */
const struct ebpf_helper_proto *ebpf_helper_proto(int32_t id);
/* Arguments read (r1..rN): the index of the last argument that is not HARG_NONE. */
int ebpf_helper_proto_nargs(const struct ebpf_helper_proto *p);
/* The first argument kind this table cannot model, or 0 when every one is modeled. */
int ebpf_helper_proto_unmodeled_arg(const struct ebpf_helper_proto *p);
const char *ebpf_harg_name(enum ebpf_harg k);
/* Whether helper id may be called with a map of map_type (the kernel's
 * check_map_func_compatibility, both ways: what the helper needs, what the map allows):
 * NULL when it may, else why. */
const char *ebpf_helper_map_compat(int32_t id, uint32_t map_type);

#endif
