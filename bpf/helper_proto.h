/* What each helper takes and returns, modeled on the kernel's function prototypes (struct
 * bpf_func_proto in the kernel): the kind of each argument register, the kind of the result,
 * which program types may call it, and whether it may move or resize the packet (the kernel's
 * bpf_helper_changes_pkt_data: every packet pointer is invalid after such a call).
 *
 * One table serves the analyzer (scev/absint_*: which arguments to check and how, what r0
 * becomes) and the interpreter (oracle/interp.c: which memory a call reads and writes, so a
 * run traps where the kernel's helper would fault, and what to draw for outputs and results).
 * Every helper of the UAPI list has an entry.  One whose prototype has an argument or result
 * kind we do not model (ebpf_harg_modeled: BTF ids, dynptrs, callbacks, spin locks, full-socket
 * arguments, timers, kptrs...) is "not modeled": the analyzer answers unsupported naming that
 * kind and argument, and the interpreter traps with INTERP_TRAP_CALL.
 */
#ifndef BPFSCEV_BPF_HELPER_PROTO_H
#define BPFSCEV_BPF_HELPER_PROTO_H

#include <stdbool.h>
#include <stddef.h>
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
	HARG_LONG_OUT,		/* 8 bytes aligned to 8 the helper writes a number into, in the
				 * stack or a map value; need not be initialized (the kernel's
				 * ARG_PTR_TO_FIXED_SIZE_MEM | MEM_UNINIT | MEM_WRITE | MEM_ALIGNED
				 * of 8 bytes, once ARG_PTR_TO_LONG: bpf_strtol's long *res) */
	HARG_U32_INOUT,		/* 4 bytes aligned to 4 the helper reads and writes a number into,
				 * in the stack or a map value (ARG_PTR_TO_FIXED_SIZE_MEM |
				 * MEM_WRITE | MEM_ALIGNED of 4 bytes: bpf_check_mtu's u32
				 * *mtu_len); read first, so initialized where the loader may not
				 * read unwritten stack (unprivileged) */
	/* Kinds of the kernel's prototypes that the analyzer and the interpreter do not handle
	 * (yet): a call with one of them is unsupported, its reason naming the kind. */
	HARG_CTX_OR_NULL,	/* the context at offset 0, or NULL (ARG_PTR_TO_CTX_OR_NULL;
				 * modeled: bpf_get_netns_cookie's) */
	HARG_MEM_RW_OR_NULL,	/* written memory or NULL, size next (ARG_PTR_TO_MEM |
				 * PTR_MAYBE_NULL, writable; modeled: bpf_snprintf's str) */
	HARG_MAP_VALUE_OR_NULL,	/* a map value to store, or NULL (ARG_PTR_TO_MAP_VALUE_OR_NULL) */
	HARG_MAP_VALUE_OUT,	/* value_size bytes the helper writes (ARG_PTR_TO_MAP_VALUE |
				 * MEM_UNINIT | MEM_WRITE: map_pop_elem, map_peek_elem) */
	HARG_FIXED_MEM,		/* memory of a size the prototype fixes, read or written, often
				 * aligned (ARG_PTR_TO_FIXED_SIZE_MEM; was ARG_PTR_TO_LONG/INT) */
	HARG_STACK_OR_NULL,	/* a pointer into the stack, or NULL (ARG_PTR_TO_STACK_OR_NULL) */
	HARG_CONST_STR,		/* a NUL-terminated string in a read-only map value
				 * (ARG_PTR_TO_CONST_STR) */
	HARG_SOCK_COMMON,	/* a socket of the context or of a lookup (ARG_PTR_TO_SOCK_COMMON;
				 * modeled: bpf_sk_fullsock's, bpf_tcp_sock's, ...) */
	HARG_SOCKET,		/* a full socket (ARG_PTR_TO_SOCKET) */
	HARG_BTF_SOCK_COMMON,	/* a kernel struct sock_common or a socket type that starts with one,
				 * by BTF id, or a socket of the context or of a lookup
				 * (ARG_PTR_TO_BTF_ID_SOCK_COMMON) */
	HARG_BTF_ID,		/* a pointer to the kernel struct named by the prototype's obj
				 * (ARG_PTR_TO_BTF_ID) */
	HARG_PERCPU_BTF_ID,	/* a per-CPU kernel variable (ARG_PTR_TO_PERCPU_BTF_ID) */
	HARG_SPIN_LOCK,		/* a struct bpf_spin_lock in a map value (ARG_PTR_TO_SPIN_LOCK) */
	HARG_TIMER,		/* a struct bpf_timer in a map value (ARG_PTR_TO_TIMER) */
	HARG_KPTR,		/* a kptr field of a map value (ARG_PTR_TO_KPTR) */
	HARG_DYNPTR,		/* a struct bpf_dynptr on the stack (ARG_PTR_TO_DYNPTR) */
	HARG_CALLBACK,		/* a static function of the program (ARG_PTR_TO_FUNC) */
};

enum ebpf_hret {
	HRET_INTEGER,		/* a scalar in [ret_min, ret_max] (signed) */
	HRET_MAP_VALUE_OR_NULL,	/* a value of the map in r1, or NULL (modeled for map_lookup_elem
				 * only) */
	HRET_BTF_ID,		/* a kernel struct named by obj (RET_PTR_TO_BTF_ID[_TRUSTED]) */
	HRET_BTF_ID_OR_NULL,	/* the same, or NULL (RET_PTR_TO_BTF_ID_OR_NULL) */
	HRET_RINGBUF_OR_NULL,	/* a referenced record of the HARG_ALLOC_SIZE bytes, or NULL
				 * (RET_PTR_TO_RINGBUF_MEM_OR_NULL) */
	HRET_SOCKET_OR_NULL,	/* a full socket, or NULL; referenced when a lookup returns it
				 * (RET_PTR_TO_SOCKET_OR_NULL) */
	HRET_TCP_SOCK_OR_NULL,	/* a struct bpf_tcp_sock, or NULL (RET_PTR_TO_TCP_SOCK_OR_NULL) */
	HRET_SOCK_COMMON_OR_NULL, /* a referenced socket, maybe a request or timewait one, or
				 * NULL (RET_PTR_TO_SOCK_COMMON_OR_NULL) */
	HRET_MAP_VALUE,		/* a value of the map in r1, never NULL (RET_PTR_TO_MAP_VALUE;
				 * modeled for bpf_get_local_storage only: its cgroup storage) */
	/* not handled (yet): a call returning one is unsupported, its reason naming it */
	HRET_MEM_OR_BTF_ID,	/* a per-CPU variable: memory or a kernel struct, maybe NULL
				 * (RET_PTR_TO_MEM_OR_BTF_ID) */
	HRET_DYNPTR_MEM_OR_NULL, /* memory of a dynptr, or NULL (RET_PTR_TO_DYNPTR_MEM_OR_NULL) */
};

/* Program-type groups a helper is available to (bit = enum bpf_prog_type). */
#define HPT(t) (1ull << (t))
#define HPT_TRACE (HPT(BPF_PROG_TYPE_KPROBE) | HPT(BPF_PROG_TYPE_TRACEPOINT) |            \
		   HPT(BPF_PROG_TYPE_PERF_EVENT) | HPT(BPF_PROG_TYPE_RAW_TRACEPOINT) |         \
		   HPT(BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE) | HPT(BPF_PROG_TYPE_TRACING))
#define HPT_TC (HPT(BPF_PROG_TYPE_SCHED_CLS) | HPT(BPF_PROG_TYPE_SCHED_ACT))
#define HPT_ALL (~0ull)
/* Types whose masks tests/test_helper_types.c cannot hold against the kernel (they load only
 * with an attach target it cannot make here, or only some of their attach types could be
 * asked): a refusal there is unsupported, not unsafe. */
#define HPT_UNCHECKED (HPT(BPF_PROG_TYPE_TRACING) | HPT(BPF_PROG_TYPE_LSM) |                  \
		       HPT(BPF_PROG_TYPE_STRUCT_OPS) | HPT(BPF_PROG_TYPE_EXT) |                \
		       HPT(BPF_PROG_TYPE_LIRC_MODE2))

/* Flags. */
#define HF_CHANGES_PKT 1u	/* may move or resize the packet: packet pointers die */
#define HF_NO_RETURN_VALUE 2u	/* r0 after the call is not a result (tail_call; RET_VOID) */
#define HF_PKT_ACCESS 4u	/* its memory arguments may point into the packet (the kernel's
				 * .pkt_access; without it a packet pointer argument is refused) */
#define HF_KCONFIG 8u		/* whether the kernel offers it at all depends on its
				 * configuration or lockdown state, not on the program: unsupported */
#define HF_RELEASES 32u		/* releases the reference its first argument holds (OBJ_RELEASE:
				 * sk_release; scev/absint_ref.c) */
#define HF_SLEEPS 16u		/* may sleep: only sleepable programs may call it (KF_SLEEPABLE's
				 * kin, the prototype's might_sleep) */
#define HF_BTF_ARG 64u		/* its HARG_BTF_ID argument is modeled: a kernel object whose struct
				 * is obj or starts with it, at offset 0, not NULL nor untrusted
				 * (bpf_seq_printf's and bpf_seq_write's struct seq_file; the other
				 * helpers taking one have rules of their own: not modeled) */
#define HF_RET_SIZE 128u	/* its result is in [-MAX_ERRNO, the size argument's maximum] in both
				 * widths (the kernel's do_refine_retval_range: bpf_get_stack,
				 * bpf_get_task_stack, bpf_probe_read{,_kernel,_user}_str) */

struct ebpf_helper_proto {
	int32_t id;
	uint8_t args[5];	/* enum ebpf_harg for r1..r5 */
	uint8_t ret;		/* enum ebpf_hret */
	uint8_t flags;
	int64_t ret_min, ret_max;	/* HRET_INTEGER */
	uint64_t types;		/* HPT_* mask of program types that may call it */
	const char *obj;	/* the kernel struct of HARG_BTF_ID / HRET_BTF_ID*, else NULL */
	uint64_t other;		/* program types whose prototype of it differs from this one
				 * (another argument list): unsupported there */
	/* A tracing program's func_proto (tracing_prog_func_proto) and check_get_func_ip decide
	 * by its attach type too (the section's: ebpf_btf_ctx.attach_type): the attach types
	 * (HAT_*) of BPF_PROG_TYPE_TRACING that may call it, 0 every one; attach_msg the kernel's
	 * refusal (a format taking the name and the id), NULL its "program of this type cannot
	 * use helper". */
	uint64_t attach;
	const char *attach_msg;
};

/* Attach-type groups of tracing programs (bit = enum bpf_attach_type). */
#define HAT(a) (1ull << (a))
/* bpf_prog_has_trampoline: fentry, fexit, fmod_ret (tp_btf and iter have none) */
#define HAT_TRAMPOLINE (HAT(BPF_TRACE_FENTRY) | HAT(BPF_TRACE_FEXIT) | HAT(BPF_MODIFY_RETURN))

/* The table's entry of helper id (every helper of the UAPI list has one), or NULL for an id it
 * does not know. */
const struct ebpf_helper_proto *ebpf_helper_entry(int32_t id);
/* The prototype of helper id when the analyzer and the interpreter handle every kind it uses
 * and the kernel's configuration does not decide whether it exists, else NULL ("not
 * modeled"): what the transfer functions and the interpreter run by. */
const struct ebpf_helper_proto *ebpf_helper_proto(int32_t id);
/* The entry of helper id (ebpf_helper_entry) for a program of prog_type: the type's own where
 * its prototype differs and is modeled (bpf_sk_storage_get of cgroup_sock takes the context as
 * its socket; the interpreter's sk_storage_get runs it), else the table's. */
const struct ebpf_helper_proto *ebpf_helper_entry_for(int32_t id, uint32_t prog_type);
/* Why a call of p from a program of prog_type is not modeled ("argument 2 (R2) is a spin
 * lock: not modeled", written to buf when it needs to be), or NULL when it is. */
const char *ebpf_helper_unmodeled(const struct ebpf_helper_proto *p, uint32_t prog_type,
				  char *buf, size_t n);
/* The same for a program known sleepable or not (sleepable: the kernel's prog->sleepable, which
 * its caller decides from the section and the type; a helper that may sleep is then modeled, in
 * another program it stays unsupported here — the caller says where the kernel refuses it). */
const char *ebpf_helper_unmodeled_sl(const struct ebpf_helper_proto *p, uint32_t prog_type,
				     bool sleepable, char *buf, size_t n);
/* The kernel's refusal of a call of p (helper name, id) from a program of prog_type attached
 * as attach_type (ebpf_btf_ctx.attach_type; read for BPF_PROG_TYPE_TRACING only), written to
 * buf, or NULL when its attach type may call it (ebpf_helper_proto.attach). */
const char *ebpf_helper_attach_refused(const struct ebpf_helper_proto *p, const char *name,
				       uint32_t prog_type, uint32_t attach_type, char *buf,
				       size_t n);
/* Whether the analyzer and the interpreter handle argument kind k. */
bool ebpf_harg_modeled(enum ebpf_harg k);
/* Arguments read (r1..rN): the index of the last argument that is not HARG_NONE. */
int ebpf_helper_proto_nargs(const struct ebpf_helper_proto *p);
/* The index (0-4) of the first size argument (HARG_SIZE, HARG_SIZE_OR_ZERO), or -1. */
int ebpf_helper_proto_size_arg(const struct ebpf_helper_proto *p);
/* The first argument (1..5) whose kind is not modeled (ebpf_harg_modeled; HARG_BTF_ID with
 * HF_BTF_ARG is), or 0. */
int ebpf_helper_proto_unmodeled_arg(const struct ebpf_helper_proto *p);
const char *ebpf_harg_name(enum ebpf_harg k);
const char *ebpf_hret_name(enum ebpf_hret r);
/* Whether helper id may be called with a map of map_type (the kernel's
 * check_map_func_compatibility, both ways: what the helper needs, what the map allows):
 * NULL when it may, else why. */
const char *ebpf_helper_map_compat(int32_t id, uint32_t map_type);
/* Whether a program of prog_type (attach_type: its expected attach type, which a tracing
 * program's answer depends on) may call helper id with a map of map_type as far as the kernel's
 * may_update_sockmap goes (check_map_func_compatibility): bpf_map_update_elem and
 * bpf_map_delete_elem on a sockmap or sockhash only where no locked socket can be held — socket
 * filters, tc, XDP, sk_reuseport, flow dissector, sk_lookup, iterators; a sock_ops program
 * deletes only (its updates go through bpf_sock_map_update).  NULL when it may (every other
 * helper, map and call), else the kernel's message.  The analyzer (absint_verdict.c) and the
 * interpreter (oracle/exec/interp.c, INTERP_TRAP_RULE) both refuse by it. */
const char *ebpf_helper_sockmap_refused(int32_t id, uint32_t map_type, uint32_t prog_type,
					uint32_t attach_type);

#endif
