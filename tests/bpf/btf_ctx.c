/* BTF-typed contexts (fentry, fexit, fmod_ret, lsm, tp_btf) for `bpfscev verify`, safe and unsafe twins, as clang
 * compiles them: r1 is the attach target's arguments, one u64 each (fexit: then the return
 * value), read-only.  Targets: do_unlinkat(int dfd, struct filename *name) -> int,
 * tcp_connect(struct sock *sk) -> int, the sched_switch tracepoint (bool preempt,
 * struct task_struct *prev, struct task_struct *next, unsigned int prev_state).
 * tests/test_btf_ctx.c loads them into the kernel, whose verdict each must match.
 */
#include "bpf_test.h"

/* Loads through a struct pointer argument are the kernel's PROBE_MEM loads, which cannot fault:
 * their offset and size are checked against the struct's members. */
struct sock_head {
	__u32 daddr;
};

/* a local view of the kernel's, relocated (CO-RE) to its offsets */
struct task_struct___local {
	int pid;
	struct task_struct___local *real_parent;
} __attribute__((preserve_access_index));

static long (*bpf_probe_read_kernel)(void *dst, __u32 size, const void *src) = (void *)113;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} seen SEC(".maps");

static inline __attribute__((always_inline)) void note(__u32 k, __u64 v)
{
	__u64 *p = bpf_map_lookup_elem(&seen, &k);

	if (p)
		*p += v;
}

/* both arguments, the pointer read through the helper */
SEC("fentry/do_unlinkat")
int fentry_args(__u64 *ctx)
{
	__u64 name = ctx[1], first = 0;

	note(0, ctx[0]);
	bpf_probe_read_kernel(&first, sizeof(first), (void *)name);
	note(1, first);
	return 0;
}

/* do_unlinkat has two arguments: no third */
SEC("fentry/do_unlinkat")
int fentry_past_args_unsafe(__u64 *ctx)
{
	note(0, ctx[2]);
	return 0;
}

/* a narrow read of the int argument: at a slot's start */
SEC("fentry/do_unlinkat")
int fentry_narrow(__u64 *ctx)
{
	note(0, *(__u32 *)ctx);
	return 0;
}

/* ... but not inside a slot */
SEC("fentry/do_unlinkat")
int fentry_mid_slot_unsafe(__u64 *ctx)
{
	note(0, *(volatile __u32 *)((char *)ctx + 4));
	return 0;
}

/* the context is read-only */
SEC("fentry/do_unlinkat")
int fentry_write_unsafe(__u64 *ctx)
{
	*(volatile __u64 *)ctx = 1;
	return 0;
}

/* fentry and fexit programs return 0 */
SEC("fentry/do_unlinkat")
int fentry_ret1_unsafe(__u64 *ctx)
{
	note(0, ctx[0]);
	return 1;
}

/* fexit: the return value follows the arguments */
SEC("fexit/do_unlinkat")
int fexit_ret(__u64 *ctx)
{
	note(2, ctx[2]);
	return 0;
}

SEC("fexit/do_unlinkat")
int fexit_past_ret_unsafe(__u64 *ctx)
{
	note(2, ctx[3]);
	return 0;
}

/* LSM programs (file_open(struct file *) -> int): the arguments, then what earlier programs
 * returned; an int hook's program returns within [-MAX_ERRNO, 0] */
SEC("lsm/file_open")
int lsm_ret_eperm(__u64 *ctx)
{
	note(0, ctx[1] + (ctx[0] != 0));
	return -1;
}

SEC("lsm/file_open")
int lsm_ret1_unsafe(__u64 *ctx)
{
	note(0, ctx[1]);
	return 1;
}

SEC("lsm/file_open")
int lsm_past_ret_unsafe(__u64 *ctx)
{
	note(0, ctx[2]);
	return 0;
}

/* fmod_ret: do_unlinkat's arguments and the return value so far; any return value */
SEC("fmod_ret/do_unlinkat")
int fmod_ret_any(__u64 *ctx)
{
	note(1, ctx[0] + ctx[2]);
	return 5;
}

SEC("fexit/tcp_connect")
int fexit_one_arg(__u64 *ctx)
{
	note(3, ctx[1] + (ctx[0] != 0));
	return 0;
}

/* tp_btf: the probe's arguments after its void *__data */
SEC("tp_btf/sched_switch")
int tp_btf_args(__u64 *ctx)
{
	note(0, ctx[0] + ctx[3]);
	return 0;
}

SEC("tp_btf/sched_switch")
int tp_btf_past_args_unsafe(__u64 *ctx)
{
	note(0, ctx[4]);
	return 0;
}

/* the same rules for a tracepoint (its return value is not checked) */
SEC("tp_btf/sched_switch")
int tp_btf_narrow_ret1(__u64 *ctx)
{
	note(0, *(__u32 *)&ctx[3]);
	return 1;
}

SEC("tp_btf/sched_switch")
int tp_btf_mid_slot_unsafe(__u64 *ctx)
{
	note(0, *(volatile __u32 *)((char *)ctx + 28));
	return 0;
}

SEC("tp_btf/sched_switch")
int tp_btf_write_unsafe(__u64 *ctx)
{
	*(volatile __u64 *)&ctx[3] = 0;
	return 0;
}

/* a task pointer read through the helper */
SEC("tp_btf/sched_switch")
int tp_btf_ptr_arg(__u64 *ctx)
{
	__u64 first = 0;

	bpf_probe_read_kernel(&first, sizeof(first), (void *)ctx[2]);
	note(1, first);
	return 0;
}

SEC("tp_btf/sched_switch")
int tp_btf_deref_btf(__u64 *ctx)
{
	struct sock_head *prev = (void *)ctx[1];

	note(3, prev->daddr);
	return 0;
}


/* a pointer member read whole is another kernel object */
SEC("tp_btf/sched_switch")
int tp_btf_chain(__u64 *ctx)
{
	struct task_struct___local *prev = (void *)ctx[1];

	note(3, prev->real_parent->pid);
	return 0;
}

/* kernel objects are read-only */
SEC("tp_btf/sched_switch")
int tp_btf_chain_write_unsafe(__u64 *ctx)
{
	struct task_struct___local *prev = (void *)ctx[1];

	prev->real_parent->pid = 0;
	return 0;
}

/* a pointer argument is read whole */
SEC("tp_btf/sched_switch")
int tp_btf_narrow_ptr_unsafe(__u64 *ctx)
{
	note(3, *(volatile __u32 *)&ctx[1]);
	return 0;
}

/* what a kernel object allows of arithmetic (check_reg_sane_offset, adjust_ptr_min_max_vals):
 * stored, subtracted from another, a scalar added to it; not masked, not 32-bit, not plus an
 * unbounded scalar */
SEC("tp_btf/sched_switch")
int tp_btf_ptr_store(__u64 *ctx)
{
	note(3, ctx[1] - ctx[2]);
	return 0;
}

SEC("tp_btf/sched_switch")
int tp_btf_scalar_plus_ptr(__u64 *ctx)
{
	__u64 v = 5 + ctx[1];

	note(3, *(volatile int *)(v - 5));
	return 0;
}

SEC("tp_btf/sched_switch")
int tp_btf_ptr_and_unsafe(__u64 *ctx)
{
	note(3, ctx[1] & 0xff);
	return 0;
}

SEC("tp_btf/sched_switch")
int tp_btf_ptr_32_unsafe(__u64 *ctx)
{
	note(3, (__u32)ctx[1] + 1);
	return 0;
}

SEC("tp_btf/sched_switch")
int tp_btf_ptr_unbounded_unsafe(__u64 *ctx)
{
	note(3, ctx[1] + ctx[3]);
	return 0;
}

/* past the end of struct task_struct */
SEC("tp_btf/sched_switch")
int tp_btf_past_struct_unsafe(__u64 *ctx)
{
	note(3, *(volatile __u64 *)((char *)ctx[2] + 32000));
	return 0;
}

SEC("fentry/tcp_connect")
int fentry_deref_btf(__u64 *ctx)
{
	struct sock_head *sk = (void *)ctx[0];

	note(3, sk->daddr);
	return 0;
}

char _license[] SEC("license") = "GPL";

/* Helpers on kernel objects (issue 16 §2).  bpf_skc_to_tcp_sock casts a socket (a struct that
 * starts with a sock_common) to a tcp_sock, NULL when it is not one: its result is read after
 * the null check; unchecked, or given a task_struct, the kernel refuses it.
 * bpf_get_current_task_btf's task is never NULL. */
struct tcp_sock___local {
	__u32 srtt_us;
} __attribute__((preserve_access_index));

static struct tcp_sock___local *(*bpf_skc_to_tcp_sock)(void *sk) = (void *)137;
static struct task_struct___local *(*bpf_get_current_task_btf)(void) = (void *)158;

SEC("tp_btf/inet_sock_set_state")
int tp_btf_skc_to_tcp_sock(__u64 *ctx)
{
	struct tcp_sock___local *tp = bpf_skc_to_tcp_sock((void *)ctx[0]);

	if (tp)
		note(3, tp->srtt_us);
	return 0;
}

SEC("tp_btf/inet_sock_set_state")
int tp_btf_skc_to_tcp_sock_unchecked_unsafe(__u64 *ctx)
{
	struct tcp_sock___local *tp = bpf_skc_to_tcp_sock((void *)ctx[0]);

	note(3, tp->srtt_us);
	return 0;
}

SEC("tp_btf/sched_switch")
int tp_btf_skc_to_tcp_sock_task_unsafe(__u64 *ctx)
{
	struct tcp_sock___local *tp = bpf_skc_to_tcp_sock((void *)ctx[1]);

	if (tp)
		note(3, tp->srtt_us);
	return 0;
}

SEC("tp_btf/sched_switch")
int tp_btf_current_task_btf(__u64 *ctx)
{
	struct task_struct___local *t = bpf_get_current_task_btf();

	note(3, t->real_parent->pid + ctx[0]);
	return 0;
}

/* bpf_get_func_ip: a tracing program has one only with a trampoline (fentry/fexit/fmod_ret);
 * the kernel refuses it in tp_btf (check_get_func_ip) though the helper is in the type's list */
static __u64 (*bpf_get_func_ip)(void *ctx) = (void *)173;

SEC("tp_btf/sched_switch")
int tp_btf_get_func_ip_unsafe(__u64 *ctx)
{
	note(3, bpf_get_func_ip(ctx));
	return 0;
}

/* the same mask (bpf/helper_proto.c: .attach): bpf_get_func_arg_cnt is given to tracing programs
 * with a trampoline only (tracing_prog_func_proto: "program of this type cannot use helper"),
 * bpf_get_attach_cookie to those and to tp_btf */
static __u64 (*bpf_get_func_arg_cnt)(void *ctx) = (void *)185;
static __u64 (*bpf_get_attach_cookie)(void *ctx) = (void *)174;

SEC("tp_btf/sched_switch")
int tp_btf_get_func_arg_cnt_unsafe(__u64 *ctx)
{
	note(3, bpf_get_func_arg_cnt(ctx));
	return 0;
}

SEC("tp_btf/sched_switch")
int tp_btf_get_attach_cookie(__u64 *ctx)
{
	note(3, bpf_get_attach_cookie(ctx));
	return 0;
}

/* A trusted kernel object is read-only memory for a helper (mem_types' PTR_TO_BTF_ID |
 * PTR_TRUSTED, for ARG_PTR_TO_MEM | MEM_RDONLY): bpf_strncmp reads prev->comm (a tp_btf
 * argument is trusted) as a load of its bytes would, within the member (btf_struct_walk: "access
 * beyond the end of member comm"); a pointer read from one (real_parent: MEM_RCU) is no such
 * memory. */
struct task_struct___comm {
	char comm[16];
	struct task_struct___comm *real_parent;
} __attribute__((preserve_access_index));

static long (*bpf_strncmp)(const char *s1, __u32 s1_sz, const char *s2) = (void *)182;

SEC("tp_btf/sched_switch")
int tp_btf_strncmp_comm(__u64 *ctx)
{
	struct task_struct___comm *prev = (void *)ctx[1];

	note(3, bpf_strncmp(prev->comm, 12, "swapper"));
	return 0;
}

SEC("tp_btf/sched_switch")
int tp_btf_strncmp_past_comm_unsafe(__u64 *ctx)
{
	struct task_struct___comm *prev = (void *)ctx[1];

	note(3, bpf_strncmp(prev->comm + 8, 12, "swapper"));
	return 0;
}

SEC("tp_btf/sched_switch")
int tp_btf_strncmp_parent_comm_unsafe(__u64 *ctx)
{
	struct task_struct___comm *prev = (void *)ctx[1];

	note(3, bpf_strncmp(prev->real_parent->comm, 12, "swapper"));
	return 0;
}

/* A register that holds kernel objects of two structs on two paths (bpf_iter_ipv6_route's
 * fib6_nh, inside a fib6_info or read from a pointer): the kernel walks the paths apart, each
 * load checked against its own struct; so does the verdict (absint.c path_shape: the struct
 * keeps path states apart).  A member of one struct read through the other is refused (comm's
 * offset in a struct pid: inside its numbers[], part of a struct upid's pointer ns). */
struct pid___local {
	int level;
} __attribute__((preserve_access_index));

struct task_struct___pid {
	struct pid___local *thread_pid;
	char comm[16];
} __attribute__((preserve_access_index));

SEC("tp_btf/sched_switch")
int tp_btf_two_structs(__u64 *ctx)
{
	struct task_struct___pid *prev = (void *)ctx[1];
	volatile __u64 which = ctx[0];
	const char *p = which ? (const char *)prev->comm : (const char *)prev->thread_pid;

	note(3, *(const volatile __u32 *)p);
	return 0;
}

SEC("tp_btf/sched_switch")
int tp_btf_two_structs_unsafe(__u64 *ctx)
{
	struct task_struct___pid *prev = (void *)ctx[1];
	volatile __u64 which = ctx[0];
	const struct task_struct___pid *p = which ? prev : (const void *)prev->thread_pid;

	note(3, *(const volatile __u32 *)p->comm);
	return 0;
}
