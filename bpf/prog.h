/* Programs and the files they come from.
 *
 * Every input the tools take — an assembly text (any supported dialect), raw instruction bytes,
 * or a clang-built ELF object — becomes an ebpf_object holding one or more validated programs.
 * The format is told apart by content: ELF magic, then text (printable bytes only), else raw
 * 8-byte slots.  Test-data files (corpus cases, conformance programs: the program in a "-- asm"
 * section beside the data) are read by casefile/, which builds their program with
 * ebpf_object__open_asm.
 */
#ifndef BPFSCEV_BPF_PROG_H
#define BPFSCEV_BPF_PROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf/isa.h"
#include "util/err.h"

enum ebpf_format { EBPF_FMT_ASM, EBPF_FMT_RAW, EBPF_FMT_ELF };

/* A special field of a map value, as the kernel's btf_parse_fields finds it in the value's BTF
 * (a struct named bpf_spin_lock, bpf_timer, bpf_list_head, ..., or a pointer tagged kptr,
 * kptr_untrusted, percpu_kptr or uptr; nested structs, arrays and global data's variables
 * included).  The kernel refuses a load or store that overlaps one (check_map_access), but for
 * the kptrs, which are read and written whole (check_map_kptr_access); a helper may touch
 * none.  EBPF_FIELD_UNSURE: something the reader could not place as the kernel would (a field
 * inside a union): no access may overlap it that the analysis calls safe. */
enum ebpf_field_kind {
	EBPF_FIELD_NONE, EBPF_FIELD_SPIN_LOCK, EBPF_FIELD_RES_SPIN_LOCK, EBPF_FIELD_TIMER,
	EBPF_FIELD_WQ, EBPF_FIELD_TASK_WORK, EBPF_FIELD_LIST_HEAD, EBPF_FIELD_LIST_NODE,
	EBPF_FIELD_RB_ROOT, EBPF_FIELD_RB_NODE, EBPF_FIELD_REFCOUNT,
	EBPF_FIELD_KPTR_UNREF,		/* __kptr_untrusted */
	EBPF_FIELD_KPTR_REF,		/* __kptr */
	EBPF_FIELD_KPTR_PERCPU,		/* __percpu_kptr */
	EBPF_FIELD_UPTR,		/* __uptr */
	EBPF_FIELD_UNSURE,
};
struct ebpf_map_field {
	uint32_t off, size;	/* bytes of the value */
	uint8_t kind;		/* enum ebpf_field_kind */
	char obj[47];		/* the kptrs: the struct pointed to (its name) */
};
#define EBPF_MAP_FIELDS 8

/* A map an LD_IMM64 refers to: src_reg BPF_PSEUDO_MAP_FD/VALUE with imm = index in maps[]. */
struct ebpf_map_def {
	char name[64];
	uint32_t type;		/* enum bpf_map_type */
	uint32_t key_size, value_size, max_entries, flags;
	uint8_t *init;		/* ELF .data/.rodata maps: initial value (value_size bytes, entry 0);
				 * NULL = all zero.  Owned by the object. */
	uint32_t inner;		/* maps of maps: 1 + the index in the same maps array of the
				 * inner map's definition (the template the kernel holds every
				 * inner map to, libbpf's "OUTER.inner"); 0 when not known */
	uint32_t timer;		/* arrays and hashes: 1 + the offset of a struct bpf_timer (16
				 * bytes, 8-aligned) in the value, which the map's BTF says
				 * (the kernel refuses bpf_timer_* on a map without); 0 none */
	/* The value's other special fields (not the struct bpf_timer of .timer), by offset;
	 * fields_over: more than EBPF_MAP_FIELDS, so where the others are is not known. */
	uint8_t nfields;
	bool fields_over;
	struct ebpf_map_field fields[EBPF_MAP_FIELDS];
};

/* The kernel's name of a field kind (btf_field_type_name: "bpf_spin_lock", "kptr", ...). */
const char *ebpf_field_name(uint8_t kind);
/* Whether kind is a kptr (read and written whole, 8 bytes) or a uptr. */
bool ebpf_field_is_kptr(uint8_t kind);
/* Adds a field to def (kept by offset); past EBPF_MAP_FIELDS sets fields_over. */
void ebpf_map_field_add(struct ebpf_map_def *def, uint8_t kind, uint32_t off, uint32_t size,
			const char *obj);
/* The first field of def that bytes [lo, hi) of its value overlap, or NULL. */
const struct ebpf_map_field *ebpf_map_field_at(const struct ebpf_map_def *def, int64_t lo,
					       int64_t hi);
/* One "-- maps" token of a special field ("spin_lock=OFF", "kptr=OFF:STRUCT" for a
 * __kptr_untrusted, "kptr_ref=OFF:STRUCT" for a __kptr) or of the program's access to the values
 * ("rdonly_prog", "wronly_prog": BPF_F_RDONLY_PROG, BPF_F_WRONLY_PROG in .flags): 1 when tok is
 * one and was added to def, 0 when tok is no such token, -EINVAL (with *why) when it is one but
 * wrong. */
int ebpf_map_field_parse(struct ebpf_map_def *def, const char *tok, const char **why);
struct sbuf;
/* The fields and access flags of def that "-- maps" lines can say, as those tokens, each after
 * a space; the timer is .timer's ("timer=OFF"), printed by the caller. */
void ebpf_map_fields_print(struct sbuf *sb, const struct ebpf_map_def *def);
/* def's initial contents as the "-- maps" token " init=HEX" (up to the last byte not 0, at
 * least one byte: a map given contents of zeros keeps them, and is frozen when read-only);
 * nothing without init. */
void ebpf_map_init_print(struct sbuf *sb, const struct ebpf_map_def *def);

/* A kfunc call of an ELF object (a call to an extern function): its name, kept for reports,
 * and the running kernel's BTF id it resolved to, which is also the call's imm (0 when it did
 * not resolve: no vmlinux BTF, or the kernel has no such function). */
struct ebpf_kfunc_call {
	uint32_t insn;
	int32_t btf_id;
	char name[64];
};

/* A BTF-typed context (fentry/fexit, tp_btf: BPF_PROG_TYPE_TRACING), as the kernel's
 * btf_ctx_access sees it: r1 points at the attach function's arguments, one u64 slot each (fexit:
 * then its return value), read-only.  Resolved from the section name ("fentry/FUNC",
 * "fexit/FUNC", "tp_btf/EVENT") against the running kernel's vmlinux BTF when the ELF object is
 * opened (kfunc.c: ebpf_btf_ctx_resolve).  attach_btf_id 0: not resolved (why says so), and
 * the analysis answers unsupported at the first context access. */
/* (EBPF_SLOT_PTR_OR_NULL: an iterator's target, PTR_TO_BTF_ID_OR_NULL | PTR_TRUSTED) */
enum ebpf_btf_slot { EBPF_SLOT_SCALAR, EBPF_SLOT_PTR, EBPF_SLOT_BAD, EBPF_SLOT_PTR_SCALAR,
		     EBPF_SLOT_PTR_OR_NULL };
#define EBPF_BTF_CTX_SLOTS 12		/* MAX_BPF_FUNC_ARGS */
/* The return type of a BTF context's target (struct ebpf_btf_ctx.ret): void, bool, another
 * integer or enum, a pointer or anything else. */
enum { EBPF_BTF_RET_VOID, EBPF_BTF_RET_BOOL, EBPF_BTF_RET_INT, EBPF_BTF_RET_OTHER };

struct ebpf_btf_ctx {
	int32_t attach_btf_id;		/* vmlinux BTF id the kernel load names; 0 none */
	uint32_t attach_type;		/* BPF_TRACE_FENTRY, BPF_TRACE_FEXIT, BPF_MODIFY_RETURN,
					 * BPF_TRACE_RAW_TP, BPF_LSM_MAC, BPF_TRACE_ITER */
	uint8_t ret;			/* the target's return type: EBPF_BTF_RET_* */
	uint8_t nslots;			/* readable u64 slots (arguments, + the return value) */
	uint8_t slot[EBPF_BTF_CTX_SLOTS];	/* enum ebpf_btf_slot: a scalar (an integer or
					 * enum), a pointer to a struct (PTR_TO_BTF_ID), a
					 * pointer read as a plain value (void or integer
					 * pointers, fexit's return value), or a slot the
					 * kernel refuses to read (void return, other pointers,
					 * floats); pointers are read whole (8 bytes) */
	int32_t obj_type[EBPF_BTF_CTX_SLOTS];	/* EBPF_SLOT_PTR: the struct's vmlinux BTF id */
	char why[200];			/* when not resolved: why ("" for other programs) */
};

/* A global function of an ELF program (its BTF FUNC has global linkage, as libbpf loads it):
 * the kernel verifies it on its own, once, with arguments from its BTF prototype (an integer or
 * enum: any scalar; a pointer to the program type's context struct: the context; a pointer to
 * something of known size: that many bytes of memory, maybe NULL), and its callers see only an
 * unknown scalar result (btf_prepare_func_args, btf_check_subprog_call).  Static functions have
 * no entry: their callers' arguments flow into them. */
enum ebpf_farg_kind {
	EBPF_FARG_INT,		/* an integer or enum of size bytes */
	EBPF_FARG_PTR,		/* a pointer to size bytes (tname: the struct or union, else "") */
	EBPF_FARG_PTR_NOSIZE,	/* a pointer to void or to something of no size */
	EBPF_FARG_OTHER,	/* anything else (a struct passed by value, ...) */
};

struct ebpf_func_arg {
	uint8_t kind;		/* enum ebpf_farg_kind */
	uint32_t size;
	char tname[48];
};

struct ebpf_global_func {
	uint32_t insn;		/* its first slot in the linked program (never 0: the program) */
	char name[64];
	uint8_t nargs;		/* as declared (more than 5: the kernel refuses it) */
	uint8_t ret;		/* enum ebpf_farg_kind of the result (EBPF_FARG_PTR_NOSIZE: void) */
	bool tagged;		/* declaration tags ("arg:ctx", "arg:nonnull", ...) on it */
	struct ebpf_func_arg args[5];
	bool exc_cb;		/* the program's exception callback: main's BTF decl tag
				 * "exception_callback:NAME" names it (bpf_throw's handler, verified
				 * on its own as a program; never called) */
};

struct ebpf_prog {
	char name[128];
	char section[128];	/* ELF section ("xdp", "socket"); "" for text and raw input */
	uint32_t prog_type;	/* enum bpf_prog_type; BPF_PROG_TYPE_UNSPEC when unknown */
	char type_from[128];	/* ELF input: how prog_type was decided ("section", "legacy section
				 * name", "helpers: ...", "object: ...", "loader: ...", "slot: ...")
				 * or why not ("none: ..."); "" for other input (progtype.c) */
	struct bpf_insn *insns;
	size_t len;		/* slots */
	uint32_t *lines;	/* for text input: source line of each slot (0 = none); else NULL */
	/* Where the program breaks the function structure the kernel demands (a jump into
	 * another function, falling into the next one, falling off the end): insns are well
	 * encoded (ebpf_validate_encoding) but not valid (ebpf_validate), so every stage but
	 * `verify`, which calls such a program unsafe, refuses it.  "" when none. */
	char defect[160];
	long defect_insn;
	/* Why the instructions are not the ones the kernel would be given (ELF input: a CO-RE
	 * relocation not applied), at which slot: `verify` answers unsupported with it and
	 * `analyze` emits no claims.  "" when the instructions are the loaded ones. */
	char unsupported[160];
	long unsupported_insn;
	struct ebpf_kfunc_call *kfuncs;	/* ELF input: by insn; NULL when none */
	size_t kfunc_cnt;
	struct ebpf_btf_ctx btf_ctx;	/* TRACING programs of ELF input; else zero */
	struct ebpf_global_func *globals;	/* ELF input with BTF: by insn; NULL when none */
	size_t global_cnt;
};

/* Fills c for a TRACING program of section sec (see struct ebpf_btf_ctx); false, with c->why,
 * when the section names no fentry/fexit/tp_btf target the running kernel's BTF has. */
bool ebpf_btf_ctx_resolve(struct ebpf_btf_ctx *c, const char *sec);
/* Whether the kernel's btf_ctx_access allows a load of size bytes at off of a resolved BTF
 * context: NULL when it does, else why. */
const char *ebpf_btf_ctx_access(const struct ebpf_btf_ctx *c, int64_t off, unsigned size);
/* Whether the kernel's btf_struct_access allows a load of size bytes at off of an object of
 * vmlinux BTF type id (a struct or union) through a PTR_TO_BTF_ID (a PROBE_MEM load, which cannot
 * fault): NULL when it surely does — inside the struct, within one integer or enum member (or
 * an array of them, read across its elements: btf_struct_walk's mtrue_end), the whole of a
 * pointer member, or past the end into a flexible array that ends the struct (any bytes of one
 * of integers, an element's member of one of structs) — else why (holes, bitfields, a pointer
 * read in part, past the end otherwise: refused or not modeled).  *next: for a whole pointer member that points
 * to a struct, that struct's id (the load gives another PTR_TO_BTF_ID), else 0. */
const char *ebpf_btf_obj_access(int32_t id, int64_t off, unsigned size, int32_t *next);
/* The kernel struct a map of map_type is, whose fields a load through the map's pointer reads by
 * vmlinux BTF (check_ptr_to_map_access: the map ops' map_btf_id; struct bpf_array for the arrays,
 * bpf_htab for the hashes, ...), or NULL for a type not listed here (devmaps, socket maps, local
 * storages, ...: not modeled). */
const char *ebpf_map_btf_struct(uint32_t map_type);
/* Whether an object of vmlinux BTF struct id is, at offset 0, a struct named name: id's own
 * name, or its first member's (a struct at offset 0) in turn, as the kernel's
 * btf_struct_ids_match walks them (a tcp_sock is an inet_connection_sock is ... a sock_common). */
bool ebpf_btf_starts_with(int32_t id, const char *name);

/* The global function starting at slot pc of prog; NULL when the function there is static. */
const struct ebpf_global_func *ebpf_prog_global(const struct ebpf_prog *prog, size_t pc);
/* The program's exception callback (ebpf_global_func.exc_cb), NULL when it has none. */
const struct ebpf_global_func *ebpf_prog_exc_cb(const struct ebpf_prog *prog);

/* The name of the kfunc called at insn pc: the ELF extern's name, else the running kernel's
 * name for its BTF id; NULL when neither is known. */
const char *ebpf_prog_kfunc_name(const struct ebpf_prog *prog, size_t pc);

/* A program of an ELF object left out because it cannot be loaded as it stands (bad
 * encoding, a call or relocation that makes no sense): its name, section and the reason with
 * the instruction ("insn 3: ..."), so a report can list it instead of dropping it. */
struct ebpf_skipped_prog {
	char name[128];
	char section[128];
	char reason[32 + 512];	/* "insn N: " and the loader's diag message */
};

struct ebpf_object {
	char path[256];
	enum ebpf_format format;
	struct ebpf_prog *progs;
	size_t prog_cnt;
	struct ebpf_map_def *maps;
	size_t map_cnt;
	char *notes;		/* ELF: one line per program skipped or reference left unresolved,
				 * "prog 'x': ..."; NULL when there is nothing to say */
	struct ebpf_skipped_prog *skipped;	/* ELF: the programs left out, and why */
	size_t skipped_cnt;
};

/* The format of an input, told apart by content. */
enum ebpf_format ebpf_format_of(const void *data, size_t len);
/* Opens a file of any supported format.  Returns 0 or -errno with d set (file, line:col for
 * text, instruction index or byte offset for binary input).  A text or raw program that is well
 * encoded but breaks the function structure is kept with ebpf_prog.defect set. */
int ebpf_object__open_file(struct ebpf_object **out, const char *path, struct diag *d);
/* The same from memory; name is used in messages and as the program name for text and raw. */
int ebpf_object__open_mem(struct ebpf_object **out, const void *data, size_t len,
			  const char *name, struct diag *d);
/* Opens assembly text as a one-program object named after name (its base name without
 * extension); first_line is the line number of text[0] in its file, for messages. */
int ebpf_object__open_asm(struct ebpf_object **out, const char *text, size_t len, int first_line,
			  const char *name, struct diag *d);
/* Builds a one-program object from instructions (validated, no defect kept; copied). */
int ebpf_object__from_insns(struct ebpf_object **out, const struct bpf_insn *insns, size_t len,
			    const char *name, struct diag *d);
void ebpf_object__free(struct ebpf_object *obj);

const struct ebpf_prog *ebpf_object__find_prog(const struct ebpf_object *obj, const char *name);
/* Parses a hex byte string ("00 01 ff", "0x00,0x01", "0001ff"); used for -- mem / -- input. */
int ebpf_parse_hex(uint8_t **out, size_t *len, const char *text, struct diag *d);

/* How a program sees its context, derived from its type; the analyzer and every oracle use
 * this one mapping so they agree on what r1 points at and what context loads yield.
 *   PLAIN  r1 = a plain byte buffer (the input), r2 = its length; loads from it are data
 *          (types with no special context: unspec, and the conformance suite's programs)
 *   XDP    r1 = struct xdp_md; 4-byte loads of data (0), data_end (4), data_meta (8) yield
 *          packet pointers; the input is the packet
 *   SKB    r1 = struct __sk_buff; data (76), data_end (80) yield packet pointers, len (0) is the
 *          packet length; LD_ABS/LD_IND read the packet (socket filters, tc)
 *   RO     r1 = a read-only context of ebpf_ctx_size() bytes whose fields are plain values
 *          (kprobe: struct pt_regs; tracepoint: the event record, at most 2048 bytes; raw
 *          tracepoints: up to 12 u64 arguments; perf_event: struct bpf_perf_event_data); which
 *          loads the kernel allows is ebpf_ctx_ro_access(); the input is the context's bytes
 *          (sock_ops: struct bpf_sock_ops, cgroup_sock: struct bpf_sock, where the few fields
 *          ebpf_ctx_ro_write() allows are also written; their pointer fields load as values;
 *          cgroup_device: struct bpf_cgroup_dev_ctx;
 *          TRACING: the attach function's arguments, struct ebpf_btf_ctx)
 */
enum ebpf_ctx_model { EBPF_CTX_PLAIN, EBPF_CTX_XDP, EBPF_CTX_SKB, EBPF_CTX_RO };
enum ebpf_ctx_model ebpf_prog_ctx_model(uint32_t prog_type);
/* Whether a RO context's data and data_end (u64s at ebpf_ctx_ro_pkt_at and 8 bytes later) are
 * a packet, which follows the context in the input: sk_reuseport's (read only), sk_msg's (the
 * message, writable) and sock_ops' skb_data and skb_data_end (the segment's TCP header in the
 * header-option callbacks, empty elsewhere; read only: may_access_direct_pkt_data). */
static inline bool ebpf_ctx_ro_pkt(uint32_t prog_type)
{
	return prog_type == BPF_PROG_TYPE_SK_REUSEPORT || prog_type == BPF_PROG_TYPE_SK_MSG ||
	       prog_type == BPF_PROG_TYPE_SOCK_OPS;
}
/* The offset of such a context's data field (data_end follows it). */
static inline int64_t ebpf_ctx_ro_pkt_at(uint32_t prog_type)
{
	return prog_type == BPF_PROG_TYPE_SOCK_OPS ? (int64_t)offsetof(struct bpf_sock_ops, skb_data)
						   : 0;
}
/* Size of a RO context in bytes (0 for other models, and for TRACING, whose size is the
 * program's: ebpf_prog_ctx_size). */
uint32_t ebpf_ctx_size(uint32_t prog_type);
/* The same for prog analyzed as prog_type: a TRACING program's resolved BTF context (0 when not
 * resolved). */
uint32_t ebpf_prog_ctx_size(const struct ebpf_prog *prog, uint32_t prog_type);
/* Whether programs of this type have a BTF context (struct ebpf_btf_ctx): TRACING and LSM. */
static inline bool ebpf_prog_type_btf_ctx(uint32_t prog_type)
{
	return prog_type == BPF_PROG_TYPE_TRACING || prog_type == BPF_PROG_TYPE_LSM;
}
/* Whether check_return_code bounds what main of a program of this type returns to [0, 1] (on
 * all 64 bits) without a BTF context or an attach type deciding: cgroup_skb (its egress attach
 * type also allows 2 and 3), sock_ops, cgroup_sock, cgroup_device, sk_lookup (SK_DROP,
 * SK_PASS; sk_reuseport returns anything) and cgroup_sysctl. */
static inline bool ebpf_prog_ret_bool(uint32_t prog_type)
{
	return prog_type == BPF_PROG_TYPE_CGROUP_SKB || prog_type == BPF_PROG_TYPE_SOCK_OPS ||
	       prog_type == BPF_PROG_TYPE_CGROUP_SOCK || prog_type == BPF_PROG_TYPE_CGROUP_DEVICE ||
	       prog_type == BPF_PROG_TYPE_SK_LOOKUP || prog_type == BPF_PROG_TYPE_CGROUP_SYSCTL;
}
/* Whether the kernel's is_valid_access for this RO program type allows a load of size bytes
 * at offset off of the context: NULL when it does, else why. */
const char *ebpf_ctx_ro_access(uint32_t prog_type, int64_t off, unsigned size);
/* The same for a store (BPF_ST/STX, not atomics): refused everywhere but in the few u32 fields
 * sock_ops (reply, sk_txhash) and cgroup_sock programs (bound_dev_if, mark, priority) write. */
const char *ebpf_ctx_ro_write(uint32_t prog_type, int64_t off, unsigned size);

/* The kinds of socket a program reads through (the kernel's PTR_TO_SOCK_COMMON, PTR_TO_SOCKET,
 * PTR_TO_TCP_SOCK): skb->sk and bpf_skc_lookup_tcp give a sock_common, bpf_sk_lookup_tcp/udp,
 * bpf_sk_fullsock and bpf_get_listener_sock a full socket (both read as struct bpf_sock),
 * bpf_tcp_sock a struct bpf_tcp_sock. */
enum ebpf_sock_kind { EBPF_SOCK_COMMON, EBPF_SOCK_FULL, EBPF_SOCK_TCP };
/* Whether the kernel's check_sock_access allows a load of size bytes at off of a socket of kind
 * (bpf_sock_common_is_valid_access, bpf_sock_is_valid_access, bpf_tcp_sock_is_valid_access):
 * NULL when it does, else why.  Stores are refused whatever the kind ("cannot write into sock"). */
const char *ebpf_sock_access(unsigned kind, int64_t off, unsigned size);

/* The __sk_buff fields an skb program type refuses on top of the rules all share
 * (bpf_skb_is_valid_access: sizes and alignment, which the analyzer and the interpreter each
 * apply): the is_valid_access of socket filters, tc, cgroup_skb, lwt and sk_skb
 * (net/core/filter.c) refuse some fields to a load and allow a store to only a few.  NULL when
 * the type takes a load (store: write) starting at off, else why not. */
const char *ebpf_skb_field_refused(uint32_t prog_type, int64_t off, bool write);

/* The running kernel's configuration (kconfig.c): the value of name ("CONFIG_HZ") as its config
 * file writes it ("y", "250", "\"str\"") into buf; false when it has none (or no file is
 * readable).  ebpf_kernel_version: KERNEL_VERSION(a, b, c) of the release, as libbpf computes
 * LINUX_KERNEL_VERSION. */
bool ebpf_kconfig_value(const char *name, char *buf, size_t n);
uint32_t ebpf_kernel_version(void);

/* ELF objects (elf.c).  Fills obj->progs and obj->maps; programs are linked with the
 * subprograms they call (as libbpf does at load time) and map references become pseudo
 * LD_IMM64 with imm = map index.  A program that cannot be linked or validated is skipped with
 * a line in obj->notes; the open fails only for a malformed file or when no program is left. */
int ebpf_elf_open(struct ebpf_object *obj, const void *data, size_t len, struct diag *d);

/* Types for the ELF programs whose section names none, as their loaders decide them
 * (progtype.c): from the helpers they call, the object's other programs, known loaders' section
 * names and iproute2's tail-call slots.  Sets prog_type and type_from of every program still
 * BPF_PROG_TYPE_UNSPEC; those left undecided keep UNSPEC with type_from "none: why". */
void ebpf_object__decide_types(struct ebpf_object *obj);

#endif
