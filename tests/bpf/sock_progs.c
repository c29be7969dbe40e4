/* Socket-map lookups, sk_lookup and sk_reuseport programs as clang compiles them (issue 15, the
 * shapes of the kernel selftests test_sk_lookup and test_sk_reuseport): a lookup in a sockmap or
 * sockhash acquires a full socket or NULL, released with bpf_sk_release on every path; an
 * sk_lookup program reads its struct bpf_sk_lookup, assigns a socket of a socket map with
 * bpf_sk_assign (or NULL, or the socket already selected) and returns SK_DROP or SK_PASS; an
 * sk_reuseport program reads its struct sk_reuseport_md and selects a socket of a reuseport
 * array with bpf_sk_select_reuseport.  The unsafe twins leak the socket, read it before its NULL
 * test or after its release, return past SK_PASS, or read migrating_sk without its NULL test.
 * tests/test_sock_progs.c holds each verdict against the kernel's.
 */
#include "bpf_test.h"

enum {
	BPF_MAP_TYPE_SOCKMAP = 15,
	BPF_MAP_TYPE_REUSEPORT_SOCKARRAY = 20,
	BPF_MAP_TYPE_SOCKHASH = 18,
};
enum { SK_DROP = 0, SK_PASS = 1 };

struct bpf_sock {
	__u32 bound_dev_if;
	__u32 family;
	__u32 type;
	__u32 protocol;
	__u32 mark;
	__u32 priority;
	__u32 src_ip4;
	__u32 src_ip6[4];
	__u32 src_port;
	__u16 dst_port;
	__u16 :16;
	__u32 dst_ip4;
	__u32 dst_ip6[4];
	__u32 state;
	__s32 rx_queue_mapping;
};

struct bpf_sk_lookup {
	union {
		struct bpf_sock *sk;
		__u64 cookie;
	};
	__u32 family;
	__u32 protocol;
	__u32 remote_ip4;
	__u32 remote_ip6[4];
	__u16 remote_port;
	__u16 :16;
	__u32 local_ip4;
	__u32 local_ip6[4];
	__u32 local_port;
	__u32 ingress_ifindex;
};

struct sk_reuseport_md {
	union {
		void *data;
		__u64 data_pad;
	};
	union {
		void *data_end;
		__u64 data_end_pad;
	};
	__u32 len;
	__u32 eth_protocol;
	__u32 ip_protocol;
	__u32 bind_inany;
	__u32 hash;
	union {
		struct bpf_sock *sk;
		__u64 sk_pad;
	};
	union {
		struct bpf_sock *migrating_sk;
		__u64 migrating_sk_pad;
	};
};

struct {
	__uint(type, BPF_MAP_TYPE_SOCKMAP);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} redir_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_SOCKHASH);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} redir_hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_REUSEPORT_SOCKARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} reuse_arr SEC(".maps");

static long (*bpf_sk_release)(void *sock) = (void *)86;
static long (*bpf_sk_assign)(void *ctx, void *sk, __u64 flags) = (void *)124;
static long (*bpf_sk_select_reuseport)(void *ctx, void *map, void *key,
				       __u64 flags) = (void *)82;

static const __u32 KEY_A = 0;

/* XDP: the socket a sockmap lookup found, its family read, released */
SEC("xdp")
int map_lookup_release(struct xdp_md *ctx)
{
	struct bpf_sock *sk = bpf_map_lookup_elem(&redir_map, &KEY_A);
	__u32 fam;

	if (!sk)
		return XDP_PASS;
	fam = sk->family;
	bpf_sk_release(sk);
	return fam == 2 ? XDP_PASS : XDP_DROP;
}

/* XDP: the same from a sockhash, leaked when its family is 10 */
SEC("xdp")
int map_lookup_leak(struct xdp_md *ctx)
{
	struct bpf_sock *sk = bpf_map_lookup_elem(&redir_hash, &KEY_A);

	if (!sk)
		return XDP_PASS;
	if (sk->family == 10)
		return XDP_DROP;
	bpf_sk_release(sk);
	return XDP_PASS;
}

/* XDP: the socket's field read before the NULL test */
SEC("xdp")
int map_lookup_unchecked(struct xdp_md *ctx)
{
	struct bpf_sock *sk = bpf_map_lookup_elem(&redir_map, &KEY_A);
	__u32 fam = *(volatile __u32 *)&sk->family;

	if (sk)
		bpf_sk_release(sk);
	return fam == 2 ? XDP_PASS : XDP_DROP;
}

/* sk_lookup: TCP to local port 7007 steered to the socket of the map (test_sk_lookup's
 * select_sock_a), everything else passed on */
SEC("sk_lookup")
int lookup_assign(struct bpf_sk_lookup *ctx)
{
	struct bpf_sock *sk;
	long err;

	if (ctx->protocol != 6 || ctx->local_port != 7007)
		return SK_PASS;
	sk = bpf_map_lookup_elem(&redir_map, &KEY_A);
	if (!sk)
		return SK_PASS;
	err = bpf_sk_assign(ctx, sk, 0);
	bpf_sk_release(sk);
	return err ? SK_DROP : SK_PASS;
}

/* sk_lookup: the selection undone (NULL), or the socket already selected assigned again */
SEC("sk_lookup")
int lookup_assign_null(struct bpf_sk_lookup *ctx)
{
	if (ctx->remote_port == 0x5000)
		return bpf_sk_assign(ctx, (void *)0, 0) ? SK_DROP : SK_PASS;
	if (ctx->sk && ctx->sk->family == 2)
		bpf_sk_assign(ctx, ctx->sk, 0);
	return SK_PASS;
}

/* sk_lookup: the socket of the map assigned, then kept (never released) */
SEC("sk_lookup")
int lookup_assign_leak(struct bpf_sk_lookup *ctx)
{
	struct bpf_sock *sk = bpf_map_lookup_elem(&redir_hash, &KEY_A);

	if (!sk)
		return SK_PASS;
	return bpf_sk_assign(ctx, sk, 0) ? SK_DROP : SK_PASS;
}

/* sk_lookup: returns the protocol, not SK_DROP or SK_PASS */
SEC("sk_lookup")
int lookup_ret_protocol(struct bpf_sk_lookup *ctx)
{
	return ctx->protocol;
}

/* sk_reuseport: a socket of the reuseport array by the flow's hash (test_select_reuseport's
 * shape), the context's fields read */
SEC("sk_reuseport")
int reuseport_select(struct sk_reuseport_md *ctx)
{
	__u32 key = ctx->hash & 1;

	if (ctx->ip_protocol != 17 || ctx->len < 8)
		return SK_PASS;
	if (ctx->sk->family != 2 && ctx->bind_inany)
		return SK_DROP;
	return bpf_sk_select_reuseport(ctx, &reuse_arr, &key, 0) ? SK_DROP : SK_PASS;
}

/* sk_reuseport: a socket of the sockmap selected */
SEC("sk_reuseport")
int reuseport_select_map(struct sk_reuseport_md *ctx)
{
	__u32 key = 0;

	return bpf_sk_select_reuseport(ctx, &redir_map, &key, 0) ? SK_DROP : SK_PASS;
}

/* sk_reuseport: migrating_sk's field read without its NULL test */
SEC("sk_reuseport")
int reuseport_migrating_unchecked(struct sk_reuseport_md *ctx)
{
	return *(volatile __u32 *)&ctx->migrating_sk->family == 2 ? SK_PASS : SK_DROP;
}

char _license[] SEC("license") = "GPL";
