/* Sleepable programs' helpers and sock_ops' socket as clang compiles them (issue 15, session
 * 30; the shapes of the kernel selftests test_attach_probe's *_sleepable, uprobe_multi's
 * uprobe_sleep and tcp_rtt's _sockops): bpf_copy_from_user (might_sleep) from a uprobe.s
 * program, which libbpf loads sleepable, into a buffer a loop then reads; the same call from a
 * uprobe, a kprobe and a tracepoint program, which are not sleepable (the kernel: helper call
 * might sleep in a non-sleepable prog); a sock_ops program taking its socket (skops->sk, NULL
 * or a full socket) into bpf_sk_storage_get and reading its fields in a loop, and the twin
 * reading it before the NULL test.  tests/test_ctx_progs.c holds each verdict against the
 * kernel's.
 */
#include "bpf_test.h"

enum { BPF_MAP_TYPE_SK_STORAGE = 24, BPF_F_NO_PREALLOC = 1, BPF_SK_STORAGE_GET_F_CREATE = 1 };

struct pt_regs {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8, ax, cx, dx, si, di;
};

struct bpf_sock {
	__u32 bound_dev_if;
	__u32 family;
	__u32 type;
	__u32 protocol;
};

/* struct bpf_sock_ops: op .. the u32 fields (184 bytes), then sk and the header options'
 * bytes */
struct bpf_sock_ops {
	__u32 op;
	__u32 fields[45];
	union {
		struct bpf_sock *sk;
		__u64 sk_pad;
	};
	union {
		void *skb_data;
		__u64 skb_data_pad;
	};
	union {
		void *skb_data_end;
		__u64 skb_data_end_pad;
	};
};

struct storage {
	__u32 calls;
	__u32 family;
	__u32 bytes[4];
};

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct storage);
} sk_store SEC(".maps");

static long (*bpf_copy_from_user)(void *dst, __u32 size, const void *user_ptr) = (void *)148;
static void *(*bpf_sk_storage_get)(void *map, void *sk, void *value, __u64 flags) = (void *)107;

static __attribute__((always_inline)) int copy_count(struct pt_regs *ctx)
{
	char buf[16];
	int n = 0;

	if (bpf_copy_from_user(buf, sizeof(buf), (void *)ctx->di))
		return 0;
	for (int i = 0; i < 16; i++)
		n += buf[i] == 'a';
	return n;
}

SEC("uprobe.s")
int uprobe_sleep_copy(struct pt_regs *ctx)
{
	return copy_count(ctx);
}

SEC("uprobe")
int uprobe_copy(struct pt_regs *ctx)
{
	return copy_count(ctx);
}

SEC("kprobe/do_nanosleep")
int kprobe_copy(struct pt_regs *ctx)
{
	return copy_count(ctx);
}

SEC("sockops")
int sockops_storage(struct bpf_sock_ops *skops)
{
	struct bpf_sock *sk = skops->sk;
	struct storage *st;
	__u8 *p = skops->skb_data, *end = skops->skb_data_end;

	if (!sk)
		return 1;
	st = bpf_sk_storage_get(&sk_store, sk, 0, BPF_SK_STORAGE_GET_F_CREATE);
	if (!st)
		return 1;
	st->calls++;
	st->family = sk->family;
	for (int i = 0; i < 4; i++) {
		if (p + i + 1 > end)
			break;
		st->bytes[i] += p[i];
	}
	return 1;
}

SEC("sockops")
int sockops_unchecked(struct bpf_sock_ops *skops)
{
	struct bpf_sock *sk = skops->sk;
	int family = *(volatile __u32 *)&sk->family;

	if (!sk)
		return 1;
	return family == 2 ? 1 : 0;
}

char _license[] SEC("license") = "GPL";
