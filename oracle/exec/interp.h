/* The concrete BPF interpreter: the ground truth every claim is measured against.
 *
 * Deterministic and free of undefined behaviour on every validated program and every input;
 * kernel semantics for arithmetic (div by 0 gives 0, mod by 0 leaves dst, shifts masked, 32-bit
 * ops zero-extend, INT_MIN/-1), a 512-byte zeroed stack per frame, bpf-to-bpf calls up to 8 frames,
 * and a step budget.  Anything the kernel would not allow at run time (an access outside every
 * region, an unknown helper, too deep a call chain) stops the run with a trap and a reason.
 *
 * Memory is a virtual address space of disjoint regions with fixed bases, so a program's pointer
 * values are the same in every run and in the Z3 encoding (oracle/z3/smt.c uses these constants):
 *   stack frame k  [INTERP_VA_STACK + 512k, INTERP_VA_STACK + 512(k+1)),  r10 = the end
 *   context        [INTERP_VA_CTX, +ctx_len)
 *   packet         [INTERP_VA_PKT, +pkt_len)     (XDP data .. data_end)
 *   map m value i  [INTERP_VA_MAP + m * 2^32 + i * 2^interp_map_shift(def), + value_size)
 *   map m handle   INTERP_VA_MAPH + m           (what LD_IMM64 of a map fd yields; a load
 *                  through it reads the map's kernel struct as a kernel object, INTERP_VA_BTF)
 *   function       INTERP_VA_FUNC + slot        (LD_IMM64 of a function; what callx takes)
 *   map key        [INTERP_VA_KEY + 512k, + key_size)  (read-only: the key the
 *                  bpf_for_each_map_elem callback running in frame k is given)
 * Only the stack frames of the running function and of its callers are live: a pointer into a
 * frame that has returned traps.  An access must lie inside one region (inside one frame for the
 * stack); one that straddles two regions or two frames traps like one that misses.  Each value
 * of a map (an array's element, a hash table's slot) is a region of its own, as the kernel
 * bounds every access through a map value pointer by the value size: the values of a map are
 * spread over its 2^32-byte window, a power-of-two stride apart, so that an access past a
 * value's end (or before its start) lands in the gap after it (before it) and traps; only an
 * access at least stride - value_size bytes away could reach another value (the stride is 2^32
 * / max_entries rounded down to a power of two, 2^22 or more for a hash map's slots; a map with
 * per-run storage, at most 256 MiB, has gaps of at least 7/8 of the stride).
 *
 * Context models (env->ctx_kind), with the layouts of the uapi <linux/bpf.h> structures:
 *   PLAIN  r1 = INTERP_VA_CTX pointing at env->input (readable, writable), r2 = input_len.
 *   XDP    r1 = INTERP_VA_CTX, a 24-byte struct xdp_md; the packet region is env->input.  The
 *          4-byte loads of data (off 0), data_meta (off 8) and data_end (off 4) yield the 64-bit
 *          pointers INTERP_VA_PKT, INTERP_VA_PKT and INTERP_VA_PKT + input_len, as the verifier's
 *          rewrite makes them; any other access to those three fields traps.  The other fields
 *          (ingress_ifindex, rx_queue_index, egress_ifindex) read env->ctx_init or 0.  The
 *          context is read-only.
 *   RO     r1 = INTERP_VA_CTX pointing at env->input (read-only: a store or atomic traps); the
 *          context of kprobe, tracepoint, raw tracepoint and perf_event programs, whose
 *          fields are plain values.
 *   SKB    r1 = INTERP_VA_CTX, a 192-byte struct __sk_buff; the packet region is env->input.
 *          len (off 0) = input_len; data (76), data_end (80) and data_meta (140) are 4-byte
 *          pointer loads as for XDP (data_meta = data); flow_keys (144) and sk (168) read as
 *          NULL; every other field (protocol, mark, cb[], ...) is a plain field holding
 *          env->ctx_init or 0, except that without ctx_init protocol (16) holds the frame's
 *          ethertype (input bytes 12-13, network order, as eth_type_trans sets it) when the
 *          input has 14 bytes.  Stores are allowed to mark, queue_mapping, priority, tc_index,
 *          cb[0..4], tc_classid and tstamp (the union of what socket filters and tc may write);
 *          other stores and every atomic on the context trap.  This is what the kernel's
 *          BPF_PROG_TEST_RUN presents to a tc program given the same bytes; for a socket filter
 *          it first strips the 14-byte Ethernet header (len = input_len - 14, LD_ABS 0 reads
 *          byte 14), so pass the input from byte 14 on to compare with it.
 * LD_ABS/LD_IND read env->input big-endian in every model (r6 is not consulted); the offset is
 * (s32)(imm + src) and one outside the input ends the whole program with r0 = 0, as the kernel
 * does.  The kernel's special negative offsets (SKF_NET_OFF, SKF_LL_OFF) are not modeled: like
 * any negative offset they end the program.
 *
 * Calls.  After a helper call, a bpf-to-bpf call or a legacy packet load, r1-r5 hold
 * INTERP_POISON (the kernel leaves them undefined and the verifier forbids reading them; a fixed
 * pattern keeps runs deterministic and makes a program that relies on them visible).  A
 * bpf-to-bpf call gets a fresh zeroed frame, r1-r5 from the caller, r0 and r6-r9 = INTERP_POISON;
 * on exit the caller's r6-r9 and r10 come back and r0 carries the result.  may_goto has a budget
 * of 8M (BPF_MAX_LOOPS) per call frame, then jumps: the kernel's count-based rule.  JITs with
 * the time-based may_goto (x86-64 since 6.14) stop after a time instead, so a loop that runs
 * into may_goto's limit has no deterministic kernel result to compare with.
 *
 * Helpers (env->helper first, then these models):
 *   1 bpf_map_lookup_elem  array maps (ARRAY, PERCPU_ARRAY): u32 key < max_entries gives a
 *                          pointer into that map's values region, else 0; hash maps (HASH,
 *                          PERCPU_HASH, LRU_HASH, LRU_PERCPU_HASH): a per-run table of at most
 *                          min(max_entries, 1024) entries, empty at start unless the caller
 *                          gives its slots (interp_map); absent key gives 0.  LRU maps never
 *                          evict here (a full one refuses like a hash map); a per-CPU map
 *                          holds one value an element (the running CPU's)
 *   2 bpf_map_update_elem  copies the value in (flags BPF_ANY/NOEXIST/EXIST with the kernel's
 *                          -EEXIST/-ENOENT; a full hash table -E2BIG; arrays -E2BIG out of range)
 *   3 bpf_map_delete_elem  hash maps: 0 or -ENOENT; arrays: -EINVAL
 *   195 bpf_map_lookup_percpu_elem  per-CPU maps (PERCPU_ARRAY, PERCPU_HASH, LRU_PERCPU_HASH;
 *                          another map traps with INTERP_TRAP_HELPER, as the verifier refuses
 *                          it): NULL when the u32 cpu (r3) is not below the run's CPUs
 *                          (interp_env.ncpus) or the key finds no element, else that CPU's copy
 *                          of the element's value: the map's own window for the running CPU
 *                          (interp_env.cpu), INTERP_VA_PCPU's for the others.  Each CPU has a
 *                          copy of every value (interp_map.pcpu); lookups and updates reach the
 *                          running CPU's, and an update that inserts a hash element zeroes the
 *                          others' copies of it, as the kernel's update from a program does
 *   5 ktime_get_ns, 7 get_prandom_u32, 8 get_smp_processor_id, 14 get_current_pid_tgid,
 *   15 get_current_uid_gid, 42 get_numa_node_id, 80 get_current_cgroup_id, 118 jiffies64,
 *   125 ktime_get_boot_ns, 160 ktime_get_coarse_ns, 208 ktime_get_tai_ns: the next 4 or 8
 *                          bytes (the helper's width) of env->helper_data, little-endian; 0
 *                          once it runs out (get_smp_processor_id: env->cpu, nothing drawn,
 *                          when env->ncpus is set); with env->replay, the next of its results
 *                          (the kernel's, logged by the kernel differential)
 *   6 bpf_trace_printk     returns 0
 *   12 bpf_tail_call       no program at any index: returns 0 and the program goes on
 *   181 bpf_loop           always this model (env->helper is not asked): flags != 0 gives
 *                          -EINVAL, nr (u32) > INTERP_MAX_LOOPS -E2BIG; else the callback
 *                          (r2 must be a function address, else INTERP_TRAP_HELPER) runs as
 *                          cb(i, r3, 0, 0, 0) for i = 0, 1, ... in a fresh frame one deeper
 *                          until it returns non-zero (r0 = i + 1) or nr calls are made (r0 =
 *                          nr).  A visit callback sees the callback's first instruction with
 *                          prev_pc = the helper call on the first call and the callback's exit
 *                          on later ones, so a loop whose header is the callback's entry and
 *                          whose body is its code counts calls per bpf_loop call.
 *   164 bpf_for_each_map_elem  always this model: r1 must be a handle of an array or hash map
 *                          (else INTERP_TRAP_HELPER), flags != 0 gives -EINVAL; else the
 *                          callback runs as cb(map, &key, &value, r3, 0) in a fresh frame one
 *                          deeper for each element in turn (an array's indexes 0 ..
 *                          max_entries - 1, a hash table's elements in slot order, the run's
 *                          contents at that moment) until it returns non-zero or none is left;
 *                          r0 = the calls made.  The key is a read-only copy (INTERP_VA_KEY),
 *                          the value the element itself.
 *   180 bpf_find_vma       always this model: r3 must be a function address (else
 *                          INTERP_TRAP_HELPER), flags (r5) != 0 gives -EINVAL; else one byte
 *                          of env->helper_data (0 past its end; env->vma_all - 1 instead
 *                          when set): bit 0 set, the callback runs
 *                          once as cb(r1, vma, r4, 0, 0) in a fresh frame one deeper, vma a
 *                          kernel object (INTERP_VA_BTF), and r0 = 0 whatever it returns;
 *                          clear, r0 = -EBUSY (bit 1) or -ENOENT
 *   209 bpf_user_ringbuf_drain  always this model: r1 must be a handle of a user ring buffer
 *                          and r2 a function address (else INTERP_TRAP_HELPER); flags (r4)
 *                          other than the wakeup bits (1, 2) give -EINVAL; else one byte of
 *                          env->helper_data (mod 4) is the samples waiting, each of a size
 *                          drawn (one byte, mod 33) and its bytes the next ones: the callback
 *                          runs as cb(dynptr, r3, 0, 0, 0) in a fresh frame one deeper per
 *                          sample until it returns non-zero or none is left; r0 = the calls
 *                          made
 *   197 bpf_dynptr_from_mem, 198 bpf_ringbuf_reserve_dynptr, 199 bpf_ringbuf_submit_dynptr,
 *   200 bpf_ringbuf_discard_dynptr
 *                          a dynptr is 16 bytes of a frame (8-aligned, else
 *                          INTERP_TRAP_HELPER): its memory's address, size and a tag (interp.c
 *                          dp_put).  from_mem makes a local one over size bytes of a map value
 *                          (anything else INTERP_TRAP_HELPER), NULL with -EINVAL for flags;
 *                          reserve_dynptr a ringbuf record's as bpf_ringbuf_reserve does (a
 *                          ringbuf map, else INTERP_TRAP_HELPER), NULL with -EINVAL (flags, no
 *                          room, INTERP_MAX_RECORDS) or -E2BIG, a reference even when NULL;
 *                          making one over a ringbuf dynptr, submit or discard of anything but
 *                          a live ringbuf dynptr, or one left at the main program's exit or a
 *                          tail call traps with INTERP_TRAP_REF; submit and discard clear it
 *   201 bpf_dynptr_read, 202 bpf_dynptr_write, 203 bpf_dynptr_data
 *                          on a dynptr of the stack above (not one: INTERP_TRAP_REF; a NULL
 *                          one gives -EINVAL, data NULL) or on the dynptr of a running
 *                          bpf_user_ringbuf_drain callback
 *                          (read: r3, else r1; else INTERP_TRAP_CALL), a local writable one:
 *                          read copies len (r2) sample bytes from offset (r4) to dst (r1), which
 *                          must hold len writable bytes, write len (r4) bytes of src (r3),
 *                          which must be readable, to offset (r2): flags != 0 give -EINVAL
 *                          (write: after the bounds), offset + len past the sample -E2BIG, else
 *                          0; data returns INTERP_VA_URB's address of the sample's bytes
 *                          [offset (r2), offset + len (r3)), or NULL past the sample
 *   every other helper of the prototype table (bpf/helper_proto.h) whose argument kinds are
 *   all modeled: arguments checked as its prototype demands (map handle, the context at r1's
 *   address, each memory argument inside one region for its whole size, written ones
 *   writable), bytes it writes and its result drawn from env->helper_data (4 bytes for u32
 *   results, else 8); helpers that move or resize the packet leave it unchanged
 *   93 bpf_spin_lock, 94 bpf_spin_unlock
 *                          on the struct bpf_spin_lock of a map value (ebpf_map_def.fields;
 *                          else INTERP_TRAP_HELPER): no-ops on the bytes; a lock while one is
 *                          held, an unlock of none or of another, and the main program's exit
 *                          with one held trap with INTERP_TRAP_REF, any other helper called
 *                          while one is held with INTERP_TRAP_RULE (interp.c: lock_helper)
 *   169 bpf_timer_init, 170 bpf_timer_set_callback, 171 bpf_timer_start, 172 bpf_timer_cancel
 *                          on the struct bpf_timer of a map value (ebpf_map_def.timer; else
 *                          INTERP_TRAP_HELPER), kernel/bpf/helpers.c's results (interp.c,
 *                          timer_helper).  Timers: when the program ends normally, each timer
 *                          it left started (or that fired during the run: a cancel found it no
 *                          longer pending) fires: its callback runs as cb(map, &key, &value, 0,
 *                          0) in frame 0, after the program, earliest start first; a callback
 *                          that starts its timer again fires again, up to INTERP_TIMER_FIRES
 *                          firings a run (res.timer_fires); what a callback writes to the value
 *                          the later ones see.  r0, regs and steps stay the program's (the
 *                          callbacks have a budget of their own, step_budget again); a trap
 *                          in a callback is the run's trap (timer_trap, trap_pc in it).  A
 *                          program the step budget cuts fires the timers it armed so far the
 *                          same way (res.steps_cut; the run's trap stays the cut unless a
 *                          callback traps otherwise)
 * Array maps whose values pointer is NULL, and the global-data maps of ELF objects, get zeroed
 * per-run storage (entry 0 from ebpf_map_def.init) on first use.  The open-coded iterator kfuncs
 * bpf_iter_num_new/next/destroy (known by name: the ELF extern's, else the running kernel's BTF
 * name for the id) run as kernel/bpf/bpf_iter.c does, on 8 writable bytes at r1 (int cur, int
 * end): new -EINVAL for start > end and -E2BIG for end - start > 2^23, next r1 or NULL, destroy
 * zeroes them; r1-r5 poisoned after.  Their lifecycle as the verifier demands it traps with
 * INTERP_TRAP_HELPER: r1 not 8 aligned bytes of the current frame, new on a live iterator, next or
 * destroy on one not live, a frame exiting with one live (a leak).  bpf_ringbuf_reserve(map, size,
 * flags) on a ringbuf map returns a record of size bytes (INTERP_VA_RINGBUF; each byte the next
 * byte of helper data, as the ring's old contents), or NULL when flags
 * are not 0, size exceeds the ring, a byte of helper data is odd (the ring is full) or the run
 * has reserved INTERP_MAX_RECORDS; submit and discard take a live record's start and end it
 * (r0 not defined); one that is not (released, never reserved, not its start), the main
 * program's exit or a tail call while a record is live (the kernel's reference rules) trap with
 * INTERP_TRAP_REF.  The kfuncs that acquire or release kernel objects (bpf/kfunc.c's table:
 * bpf_task_acquire, bpf_cpumask_create, ...) give a new object that reads as the helper data, or
 * NULL for the KF_RET_NULL ones when a byte of helper data is odd; a release of anything but a
 * live one's start, or a live one at the main program's exit or a tail call, traps with
 * INTERP_TRAP_REF.  Other helpers, kfunc calls and
 * LD_IMM64 of kernel symbols trap with INTERP_TRAP_CALL; a map helper given something that is
 * not a map handle, a map of another type or an unusable key size traps with
 * INTERP_TRAP_HELPER.
 */
#ifndef BPFSCEV_ORACLE_INTERP_H
#define BPFSCEV_ORACLE_INTERP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bpf/prog.h"

#define INTERP_VA_STACK 0x0000100000000000ull
#define INTERP_VA_CTX 0x0000200000000000ull
#define INTERP_VA_PKT 0x0000300000000000ull
#define INTERP_VA_MAP 0x0000400000000000ull
#define INTERP_VA_MAPH 0x0000500000000000ull
#define INTERP_VA_FUNC 0x0000600000000000ull
#define INTERP_VA_KEY 0x0000700000000000ull
/* Kernel objects (a BTF context's struct arguments, PTR_TO_BTF_ID): any address here reads, 1 to
 * 8 bytes at a time, as if every aligned u64 held INTERP_VA_BTF (so a pointer member read whole
 * is another kernel object, and what the kernel's PROBE_MEM loads would give is one possible
 * value); stores, atomics and helper memory there trap, but for a helper's read-only memory
 * (HARG_MEM, HARG_MEM_OR_NULL: bpf_strncmp reads a trusted task's comm), read as the loads. */
#define INTERP_VA_BTF 0x0000800000000000ull
/* Ringbuf records: the k-th bpf_ringbuf_reserve of a run that succeeded is its size bytes at
 * INTERP_VA_RINGBUF + k * 2^32, addressable until it is submitted or discarded. */
#define INTERP_VA_RINGBUF 0x0000900000000000ull
/* records one run may reserve; a reserve past them fails (returns NULL, as with a full ring) */
#define INTERP_MAX_RECORDS 64
/* The dynptr a bpf_user_ringbuf_drain callback running in frame k is given: INTERP_VA_DYNPTR + k,
 * a handle (no access through it; the dynptr helpers take it). */
#define INTERP_VA_DYNPTR 0x0000a00000000000ull
/* The sample that dynptr stands for: its bytes (drawn from the helper data when the callback is
 * called) at INTERP_VA_URB + k * 256, readable and writable while the callback runs
 * (bpf_dynptr_data returns a pointer into it, bpf_dynptr_read and bpf_dynptr_write copy). */
#define INTERP_VA_URB 0x0000b00000000000ull
/* Sockets (interp.c: sock_helper): the k-th socket of a run at INTERP_VA_SOCK + k * 2^32, made by
 * a lookup (bpf_sk_lookup_tcp/udp, bpf_skc_lookup_tcp: referenced, live until bpf_sk_release)
 * or bpf_get_listener_sock (no reference).  Whether one is found, full (bpf_sk_fullsock returns
 * it, else NULL) and TCP (bpf_tcp_sock) is drawn when it is made, and its fields read, 1 to 8
 * bytes at a time within INTERP_SOCK_SIZE, as 8 bytes drawn then repeated; stores trap, and so
 * does any use of a released one.  skb->sk is NULL here, but in a run of the kernel's test run
 * (interp_env.test_run_sock), where it is the socket BPF_PROG_TEST_RUN allocates. */
#define INTERP_VA_SOCK 0x0000d00000000000ull
#define INTERP_SOCK_SIZE 128

/* The socket skb->sk is in BPF_PROG_TEST_RUN of an skb program (6.18 net/bpf/test_run.c
 * bpf_prog_test_run_skb: sk_alloc(AF_UNSPEC) zeroed, sock_init_data(NULL, sk): TCP_CLOSE, no
 * type or protocol, no queue mapping; its family and addresses from the frame, frame (len bytes,
 * with its Ethernet header, as the test run is given it): AF_INET for the EtherType 0x0800
 * (saddr, daddr when an IPv4 header's 20 bytes follow), AF_INET6 for 0x86dd (saddr, daddr
 * when an IPv6 header's 40 follow)), as struct bpf_sock reads (field by field: the verifier's
 * bpf_sock_convert_ctx_access of those sk fields) into out.  bpf_sk_fullsock returns it (a
 * closed socket is full); bpf_tcp_sock (protocol 0) and bpf_get_listener_sock (not
 * TCP_LISTEN) NULL.  Probed on 6.18 (tests/test_kdiff.c test_skb_sk). */
void interp_test_run_sock(uint8_t out[INTERP_SOCK_SIZE], const uint8_t *frame, size_t len);
/* The other CPUs' copies of per-CPU map values (bpf_map_lookup_percpu_elem): CPU c's copy of
 * value i of map m at INTERP_VA_PCPU + ((c * maps + m) << 32) + (i << interp_map_shift(def)),
 * maps the run's map count, laid out like the map's own window (each value a region of its
 * own); a window past the region's 4096 (c * maps + m >= 4096) is not modeled (the helper
 * traps with INTERP_TRAP_CALL).  The running CPU's copy is the map's own window
 * (INTERP_VA_MAP), which the helper returns for that CPU. */
#define INTERP_VA_PCPU 0x0000c00000000000ull
/* Maps a run models (value windows of 2^32 bytes below INTERP_VA_MAPH; more are not given to
 * the program). */
#define INTERP_MAX_MAPS 4096u
/* The start of the 2^32-byte window of map m's values that va lies in, the map's own
 * (INTERP_VA_MAP) or a CPU's copies (INTERP_VA_PCPU) in a run of map_cnt maps; false when va
 * lies in neither. */
static inline bool interp_map_window(uint64_t va, uint64_t m, uint64_t map_cnt, uint64_t *start)
{
	if (map_cnt > INTERP_MAX_MAPS)
		map_cnt = INTERP_MAX_MAPS;
	if ((va >> 32) != ((INTERP_VA_MAP >> 32) + m) &&
	    ((va >> 44) != (INTERP_VA_PCPU >> 44) || m >= map_cnt ||
	     ((va - INTERP_VA_PCPU) >> 32) % map_cnt != m))
		return false;
	*start = va & ~0xffffffffull;
	return true;
}
/* The CPUs of a run whose interp_env.ncpus is 0, and the most a run models. */
#define INTERP_NCPUS 2u
#define INTERP_MAX_CPUS 4096u
/* the largest sample a run draws */
#define INTERP_URB_MAX 32
/* A dynptr on the stack (bpf_dynptr_from_mem, bpf_ringbuf_reserve_dynptr; the kfuncs
 * bpf_dynptr_from_skb, _from_xdp, _clone): its 16 bytes are the address of its memory (u64:
 * where its view starts, bpf_dynptr_adjust moving it; a NULL one's 0, or an identity its clones
 * share), its size (u32) and a tag (u32): INTERP_DP_MAGIC | the kind (LOCAL, RINGBUF, SKB, XDP)
 * | INTERP_DP_NULL for a failed call | INTERP_DP_RDONLY for an skb dynptr of a program that
 * may not write packet data; a released one's tag is 0. */
#define INTERP_DP_MAGIC 0x44500000u
#define INTERP_DP_LOCAL 1u
#define INTERP_DP_RINGBUF 2u
#define INTERP_DP_SKB 3u
#define INTERP_DP_XDP 4u
#define INTERP_DP_NULL 0x100u
#define INTERP_DP_RDONLY 0x200u
#define INTERP_DP_MAX_SIZE 0xffffffu	/* the kernel's DYNPTR_MAX_SIZE */

/* What r1-r5 hold after a call (and r0, r6-r9 on entry to a bpf-to-bpf callee). */
#define INTERP_POISON 0x0badc0de0badc0deull
/* Timer callbacks one run fires after the program ends (a callback that starts its own timer
 * again fires again, up to this many in all). */
#define INTERP_TIMER_FIRES 8
/* may_goto budget per call frame, and bpf_loop's largest nr (the kernel's BPF_MAX_LOOPS). */
#define INTERP_MAX_LOOPS (8u * 1024 * 1024)
/* live open-coded iterators of one run: 8 bytes each, within the 512 bytes of stack a chain
 * may use */
#define INTERP_MAX_ITERS 64
#define INTERP_MAY_GOTO_BUDGET ((uint64_t)INTERP_MAX_LOOPS)
/* Per-run hash map capacity bound (entries). */
#define INTERP_HASH_CAP 1024

/* The values of a map in its window: value (array element, hash slot) i at INTERP_VA_MAP +
 * (m << 32) + (i << shift), shift the largest with max_entries (a hash map's per-run capacity)
 * values of 2^shift bytes in 2^32 bytes; 32 for a map of one value.  A map whose value_size is
 * larger than 2^shift has no storage (the interpreter's per-run storage limit keeps every map
 * it gives storage clear of that). */
unsigned interp_map_shift(const struct ebpf_map_def *def);
/* How the interpreter runs helper id: the families of its dispatch (do_helper, and the run
 * loop for the callback helpers), so that a test can list them and hold each helper against the
 * other oracles (tests/test_smt_helpers.c: a forged claim past each, which Z3 must not prove).
 * INTERP_HF_NONE: not modeled, the call traps. */
enum interp_helper_family {
	INTERP_HF_NONE,
	INTERP_HF_MAP,		/* map lookup, update, delete, lookup_percpu_elem */
	INTERP_HF_PRINTK,	/* bpf_trace_printk: 0 */
	INTERP_HF_TAIL_CALL,	/* bpf_tail_call: falls through (0) */
	INTERP_HF_RINGBUF,	/* bpf_ringbuf_reserve, submit, discard */
	INTERP_HF_DYNPTR,	/* bpf_dynptr_read, write, data */
	INTERP_HF_DP_MAKE,	/* bpf_dynptr_from_mem, the ringbuf dynptrs */
	INTERP_HF_TIMER,	/* bpf_timer_init, set_callback, start, cancel */
	INTERP_HF_LOCK,		/* bpf_spin_lock, bpf_spin_unlock */
	INTERP_HF_CALLBACK,	/* bpf_loop, for_each_map_elem, find_vma, user_ringbuf_drain */
	INTERP_HF_DRAW,		/* a result drawn (interp_helper_draw_width) */
	INTERP_HF_PROTO,	/* from its prototype: memory arguments checked, a drawn result */
};
enum interp_helper_family interp_helper_family(int32_t id);
/* Whether kfunc name is one of the dynptr kfuncs the runs model (bpf_dynptr_from_skb, _from_xdp,
 * _clone, _adjust, _is_null, _is_rdonly, _size, _slice, _slice_rdwr). */
bool interp_dynptr_kfunc(const char *name);
/* Whether the model of helper id above draws from env->helper_data what the kernel's helper
 * takes from the machine: its result (a time, a random number, a CPU or task id: the 4- and
 * 8-byte results listed above), whether a ring has room and a record's old bytes
 * (bpf_ringbuf_reserve, bpf_ringbuf_reserve_dynptr), or bytes it writes through a memory
 * argument (a prototype helper's HARG_MEM_UNINIT and HARG_MEM_RW: a probe read, a comm, a
 * stack trace).  A run of a program calling one matches the kernel's only by chance: the
 * kernel differential does not compare its r0 (oracle/kernel/kdiff.h).  The socket helpers
 * draw only in some runs, which say so (interp_result.sock_drawn). */
bool interp_helper_drawn(int32_t id);
/* The width in bytes (4 or 8) of the result the model of helper id draws from env->helper_data
 * (a random number, a CPU or NUMA id: 4; a time, a task's ids, a cgroup id: 8), or 0 when its
 * result is not drawn so.  The Z3 machine draws the same (oracle/z3/smt_mach.c: helper). */
unsigned interp_helper_draw_width(int32_t id);
/* Whether a call of helper id draws only its result, which interp_env.replay then gives: the
 * helpers of interp_helper_draw_width. */
bool interp_helper_replayed(int32_t id);
/* A helper callback returns this (a positive value) to end the whole program with r0 = *ret,
 * like ubpf's "unwind" helper that the conformance suite uses. */
#define INTERP_HELPER_EXIT 1

/* How r1 (and r2) are set up and what the context looks like. */
enum interp_ctx_kind {
	INTERP_CTX_PLAIN,	/* r1 = input buffer, r2 = its length (conformance suite) */
	INTERP_CTX_XDP,		/* r1 = struct xdp_md; data/data_end point at the input as packet */
	INTERP_CTX_SKB,		/* r1 = struct __sk_buff; input is the packet (len, data, data_end,
				 * LD_ABS/LD_IND read it big-endian as the kernel does) */
	INTERP_CTX_RO,		/* r1 = the input as a read-only context (kprobe pt_regs,
				 * tracepoint record, raw tracepoint arguments, perf event data);
				 * sk_reuseport's: its struct sk_reuseport_md, the rest the packet
				 * (interp_input_pkt_off), read only; sk_msg's: struct sk_msg_md,
				 * the rest the message, writable */
};

/* The struct bpf_sk_lookup (72 bytes, into out) BPF_PROG_TEST_RUN runs an sk_lookup program on
 * for these input bytes (bpf_prog_test_run_sk_lookup): the input made one the kernel takes and
 * reads back as it is — sk 0, family AF_INET6 when the input's family is odd else AF_INET,
 * protocol and local_port u16s, remote_port's padding, ingress_ifindex and the tail padding
 * 0 (the kernel refuses a byte set past local_port), the addresses of the other family 0 (the kernel's context has none: it reads 0).  The kernel oracle gives it
 * as ctx_in; the interpreter reads it as an sk_lookup context in runs that mirror a test run
 * (interp_env.test_run_sock set), where ctx->sk is NULL (one program: none selected yet). */
void interp_sk_lookup_test_ctx(uint8_t out[72], const uint8_t *in, size_t len);

/* Where a run's packet starts in its input (it ends with the input): 0 for the XDP and skb
 * contexts (the whole input), sizeof(struct sk_reuseport_md) for an sk_reuseport program's
 * read-only context when the input holds more (its data and data_end), else input_len (no
 * packet).  The claim checker's packet bases (INTERP_VA_PKT + input_len - this for data_end)
 * follow it. */
size_t interp_input_pkt_off(enum interp_ctx_kind kind, uint32_t prog_type, size_t input_len);

enum interp_trap {
	INTERP_OK = 0,		/* reached exit of the main function */
	INTERP_TRAP_MEM,	/* load/store/atomic outside every region or straddling two; a
				 * forbidden context access */
	INTERP_TRAP_STEPS,	/* step budget exhausted */
	INTERP_TRAP_CALL,	/* unmodeled helper, kfunc, callx of a non-function, LD_IMM64 of
				 * a kernel symbol */
	INTERP_TRAP_HELPER,	/* a modeled helper refused its arguments (bad map handle, ...) */
	INTERP_TRAP_LIMIT,	/* past a limit the kernel enforces on every program: a call
				 * chain of more than 8 frames, or live frames whose stack bytes
				 * in use (each rounded up to 16) add up to more than 512 */
	INTERP_TRAP_REF,	/* a reference rule the verifier enforces on every program: a
				 * ringbuf record still held at the main program's exit or at a
				 * tail call, or released twice (or at no record's start) */
	INTERP_TRAP_RULE,	/* an instruction the verifier refuses wherever its walk meets
				 * it, past which no run goes: a write to r10, the frame pointer */
};

struct interp_map {
	struct ebpf_map_def def;
	/* Contents the run starts from and leaves its own in, caller-owned (NULL: the run's own,
	 * zeroed arrays and empty hash tables).  Array maps (ARRAY, PERCPU_ARRAY): values,
	 * max_entries * value_size bytes.  Hash maps (HASH, PERCPU_HASH, LRU_HASH,
	 * LRU_PERCPU_HASH; all three or none): interp_hash_slots(&def) slots, values value_size
	 * bytes a slot, keys key_size bytes a slot, used one byte a slot (non-zero: the slot holds
	 * an element).  A per-CPU map has one value an element here, the running CPU's. */
	uint8_t *values;
	uint8_t *keys, *used;
	/* A per-CPU map's copies for every CPU, caller-owned with values (NULL: the run's own,
	 * zeroed): interp_env.ncpus blocks laid out as values, CPU c's block at c times the bytes
	 * of values; the running CPU's block is not used (its copy is values). */
	uint8_t *pcpu;
	/* Out, for a hash map with caller-owned slots: the most elements it held when a
	 * bpf_map_update_elem was called on it (0: none was, or only while it was empty).  An LRU
	 * map in the kernel may evict on an update long before it is full (kdiff.c says when). */
	uint32_t upd_peak;
};
/* The slots of a hash map's per-run table: min(max_entries, INTERP_HASH_CAP). */
uint32_t interp_hash_slots(const struct ebpf_map_def *def);

struct interp_state;

/* Called before the instruction at pc runs, for every pc whose probe byte is non-zero. */
typedef void (*interp_visit_fn)(void *arg, const struct interp_state *st, uint32_t pc);
/* Overrides a helper: return 0 with *ret set when handled, -ENOENT to use the built-in model,
 * INTERP_HELPER_EXIT with *ret set to end the program, another -errno to trap (HELPER). */
typedef int (*interp_helper_fn)(void *arg, int32_t id, const uint64_t args[5], uint64_t *ret);

struct interp_env {
	enum interp_ctx_kind ctx_kind;
	uint8_t *input;		/* context buffer (PLAIN) or packet (XDP, SKB); may be written */
	size_t input_len;
	const uint8_t *helper_data;	/* results of prandom/ktime/etc. drawn in order; then 0 */
	/* What a frame's stack bytes hold when the frame is entered, repeated (NULL: zeros): the
	 * privileged kernel lets a program read bytes it never wrote, whose values are arbitrary. */
	const uint8_t *stack_fill;
	size_t stack_fill_len;
	size_t helper_len;
	struct interp_map *maps;	/* indexed like ebpf_object.maps */
	size_t map_cnt;
	uint64_t step_budget;	/* instructions; 0 = 1e8 */
	const uint8_t *probes;	/* per slot; NULL = no visits */
	interp_visit_fn visit;
	interp_helper_fn helper;
	void *arg;
	/* ubpf's callx convention (conformance suite): a callx whose register holds a value below
	 * 2^31 calls the helper with that id.  Off: only INTERP_VA_FUNC addresses are callable. */
	bool callx_helper_ids;
	/* BPF_PROG_TEST_RUN's socket (interp_test_run_sock; INTERP_SOCK_SIZE bytes), set by the
	 * kernel differential: skb->sk is that socket, and a socket lookup of local port
	 * (the tuple's dport) 0 finds nothing without a draw (no socket is bound to port 0; none
	 * of this machine's network namespace's BPF sk_lookup programs steers one there).  NULL:
	 * skb->sk is NULL, every lookup draws (interp.c sock_helper). */
	const uint8_t *test_run_sock;
	/* Initial bytes of the XDP/SKB context structure (fields other than len and the pointers);
	 * NULL = zeros.  Longer than the structure: the rest is ignored. */
	const uint8_t *ctx_init;
	size_t ctx_init_len;
	/* RO contexts: the program's type, whose fields ebpf_ctx_ro_write() allows stores to
	 * write (into input); 0: every store to the context traps.  Every type, with its expected
	 * attach type: whether it may update or delete in a socket map
	 * (ebpf_helper_sockmap_refused: a refused call traps with INTERP_TRAP_RULE; 0 not
	 * judged) */
	uint32_t prog_type, attach_type;
	/* Each frame's may_goto budget (0 = INTERP_MAY_GOTO_BUDGET, the kernel's count-based
	 * rule).  The verifier explores both outcomes of every may_goto, whatever the budget (the
	 * timed may_goto of x86-64 has no fixed count), so what it accepts is safe for any: the
	 * termination oracle's runs take a small one to end may_goto loops within their budget
	 * (oracle/exec/safe_run.h). */
	uint64_t may_goto_budget;	/* (INTERP_MAY_GOTO_ZERO: a budget of 0) */
	/* Timers fired after the program: only those whose expiry on the timers' clock (0 while
	 * the program runs) is at most this many ns (0: every one, up to INTERP_TIMER_FIRES).  The
	 * kernel differential reads the kernel's maps after the short timers fired and before the
	 * long ones can (oracle/kernel/kdiff.h); the others stay armed (res.timer_left). */
	uint64_t timer_horizon;
	/* bpf_timer_init calls of a run that fail with -ENOMEM: bit i the i-th (from 0; a 64th or
	 * later never), leaving the timer not initialized, so set_callback and start on it give
	 * -EINVAL and no callback runs.  The kernel allocates the timer GFP_ATOMIC, charged to the
	 * map's memory cgroup, which fails now and then under memory pressure: the kernel
	 * differential tries these outcomes when the kernel's r0 or packet is not the run's
	 * (oracle/kernel/kdiff.h).  0: every init as the helper's rules say (the default). */
	uint64_t timer_nomem;
	/* The CPUs (0: INTERP_NCPUS, at most INTERP_MAX_CPUS) and the one the program runs on
	 * (below them; else interp_run refuses with -EINVAL).  Per-CPU maps hold a copy of each
	 * value per CPU; the program's lookups and updates reach cpu's.  With ncpus set (the
	 * kernel differential: its run pinned to a known CPU), bpf_get_smp_processor_id returns
	 * cpu; with 0 its result is drawn from helper_data as before (any CPU: the Z3 machine
	 * draws it the same way), so a program may see an id that is not cpu. */
	unsigned ncpus, cpu;
	/* bpf_find_vma's outcome for every call of the run, as the helper_data byte it would
	 * draw plus 1 (1 -ENOENT, 2 found, 3 -EBUSY); 0: each call draws its byte from
	 * helper_data.  The kernel differential's runs give every call one task's address space
	 * and the same address (oracle/kernel/kdiff.c): a run that calls it hundreds of times
	 * gets the same outcome for each, and the other helpers' draws (bpf_user_ringbuf_drain's
	 * samples) stay theirs. */
	uint8_t vma_all;
	/* The kernel's own results of the helpers that draw only a result (interp_helper_replayed:
	 * the clocks, bpf_get_prandom_u32, the task and cgroup ids, the NUMA node; with ncpus set
	 * bpf_get_smp_processor_id stays cpu), in the order its run called them: the kernel
	 * differential's test run logs them (oracle/kernel/kdiff.h).  When set, each such call
	 * takes the next one (r0 as the kernel's helper gave it, all 64 bits) instead of drawing
	 * from helper_data; a call past the last, and any other draw from helper_data (bytes a
	 * helper writes, whether a ring has room, a socket a lookup finds), sets
	 * res.replay_short or res.replay_other: the run's results are not the kernel's.  NULL:
	 * every helper draws as above. */
	const uint64_t *replay;
	size_t replay_len;
};
/* interp_env.may_goto_budget for a budget of 0: every may_goto jumps. */
#define INTERP_MAY_GOTO_ZERO UINT64_MAX

struct interp_result {
	enum interp_trap trap;
	uint32_t trap_pc;
	char reason[160];
	uint64_t r0;
	uint64_t steps;		/* instructions completed (a trapping one is not counted) */
	uint64_t regs[EBPF_NREGS];	/* at exit: main frame's; at a trap: trapping frame's */
	unsigned frame;		/* call depth at the end: 0 after exit; the trapping frame; a legacy
				 * packet load out of bounds may end the program inside a callee */
	bool may_goto_spent;	/* a may_goto jumped because its frame's budget ran out: the result
				 * follows the count-based rule, a timed kernel may differ */
	bool bpf_loop_nr64;	/* a bpf_loop's nr had bits above 32: taken as a u32 here (the
				 * helper), refused by the kernel's inlined bpf_loop */
	bool kernel_read;	/* a load read a map's kernel struct through its handle (as a
				 * kernel object, INTERP_VA_BTF): the kernel reads its own memory
				 * there, so the run's results are not the kernel's */
	bool sock_drawn;	/* a socket helper drew what it found (a lookup's socket, a
				 * listener) or a helper was given a socket whose state decides
				 * its answer: the run's results are not the kernel's */
	uint32_t timer_fires;	/* timer callbacks run after the program (run_timers) */
	uint64_t timer_steps;	/* their instructions (a budget of their own: steps are the
				 * program's) */
	bool timer_trap;	/* the trap happened in a timer callback */
	bool timer_raced;	/* the kernel's timing decides what a timer did: a cancel of one
				 * less than 1 ms ahead (its result drawn), a callback replaced on
				 * one (fired once after the program, shadow) */
	bool timer_left;	/* a timer stayed armed after the firings (past timer_horizon or
				 * INTERP_TIMER_FIRES) ... */
	uint64_t timer_next;	/* ... the earliest such one's expiry on the timers' clock */
	uint32_t timer_inits;	/* bpf_timer_init calls made (env.timer_nomem's numbering) */
	bool steps_cut;		/* the step budget cut the program (the timers it had armed
				 * fired then: trap stays INTERP_TRAP_STEPS unless one of their
				 * callbacks trapped otherwise, timer_trap) */
	bool refused;		/* the run did what the verifier refuses wherever its walk meets
				 * it, though the ISA defines it: a division or modulo by the
				 * immediate 0 or a shift by an immediate outside [0, width)
				 * (check_alu_op; run as the ISA says: 0, the dividend, the amount
				 * masked, which the conformance suite checks), or main returned a
				 * value its program type may not (check_return_code: cgroup_skb,
				 * sock_ops and cgroup_sock return 0 or 1) ... */
	uint32_t refused_pc;	/* ... the first such instruction ... */
	const char *refused_why;	/* ... and what it did (a static string) */
	/* env.replay: the results the run took from it, and whether it asked for more than it
	 * held (replay_short) or drew something else from helper_data (replay_other) */
	uint64_t replayed;
	bool replay_short, replay_other;
};

/* A program prepared for repeated runs (pre-decoded).  interp_prepare copies what it needs. */
struct interp_code;
int interp_prepare(struct interp_code **out, const struct ebpf_prog *prog, struct diag *d);
void interp_code__free(struct interp_code *code);
/* Runs once.  Returns 0 when the run ended normally or with a trap (see res->trap); -errno only
 * for misuse (NULL arguments, input larger than 4 GiB, out of memory).  Reentrant: a code may
 * run in several threads at once with different envs. */
int interp_run(const struct interp_code *code, const struct interp_env *env,
	       struct interp_result *res);

/* Number of slots of the prepared program (the size a probes array must have). */
size_t interp_code__slots(const struct interp_code *code);

/* What a visit callback may look at.  The three read at every visit are inline: they read
 * struct interp_state_head, the first member of every struct interp_state (interp.c). */
struct interp_state_head {
	uint64_t regs[EBPF_NREGS];
	unsigned depth;
	uint32_t prev_pc;
};

static inline const struct interp_state_head *interp_state_head(const struct interp_state *st)
{
	return (const struct interp_state_head *)(const void *)st;
}

/* r0..r10 of this frame */
static inline const uint64_t *interp_state_regs(const struct interp_state *st)
{
	return interp_state_head(st)->regs;
}

/* call depth, 0 = main */
static inline unsigned interp_state_frame(const struct interp_state *st)
{
	return interp_state_head(st)->depth;
}

/* The pc run just before (-1u at the start, and at a timer callback's first instruction after
 * the program). */
static inline uint32_t interp_state_prev_pc(const struct interp_state *st)
{
	return interp_state_head(st)->prev_pc;
}
/* Reads size (1,2,4,8) bytes little-endian at a virtual address: 0 or -EFAULT. */
int interp_state_read(const struct interp_state *st, uint64_t addr, unsigned size, uint64_t *val);
/* The current frame's 512 bytes (r10 - 512 .. r10 - 1) in host memory, for callbacks that read
 * many stack cells per visit; NULL when r10 does not point at the end of a frame. */
const uint8_t *interp_state_frame_bytes(const struct interp_state *st);

/* size (1, 2, 4, 8) bytes at p as the interpreter stores them (host order, zero-extended). */
static inline uint64_t interp_load(const void *p, unsigned size)
{
	switch (size) {
	case 1: return *(const uint8_t *)p;
	case 2: { uint16_t x; memcpy(&x, p, 2); return x; }
	case 4: { uint32_t x; memcpy(&x, p, 4); return x; }
	default: { uint64_t x; memcpy(&x, p, 8); return x; }
	}
}

#endif
