/* CO-RE relocations of bitfields (tests/test_core_bitfield.c): the reads libbpf's
 * BPF_CORE_READ_BITFIELD (a direct load of the relocated byte size at the relocated offset)
 * and BPF_CORE_READ_BITFIELD_PROBED (bpf_probe_read_kernel of them) compile to, written out
 * here with the same builtins: the relocated byte offset, byte size, left and right shifts and
 * signedness of bitfields of kernel structs (iphdr's ihl and version, tcphdr's flags,
 * task_struct's flags) read through local views (flavour suffixes ___x) whose layout, width
 * and signedness differ from the kernel's. */
#include "bpf_test.h"

enum { BF_BYTE_OFFSET = 0, BF_BYTE_SIZE = 1, BF_SIGNED = 3, BF_LSHIFT_U64 = 4,
       BF_RSHIFT_U64 = 5 };

#define BF_RELO(s, field, kind) __builtin_preserve_field_info((s)->field, kind)

/* BPF_CORE_READ_BITFIELD: the load's size is chosen among the four by the relocated size */
#define BF_READ(s, field) ({							\
	const void *p = (const void *)(s) + BF_RELO(s, field, BF_BYTE_OFFSET);	\
	unsigned long long val = 0;						\
										\
	asm volatile("" : "=r"(p) : "0"(p));					\
	switch (BF_RELO(s, field, BF_BYTE_SIZE)) {				\
	case 1: val = *(const unsigned char *)p; break;				\
	case 2: val = *(const unsigned short *)p; break;			\
	case 4: val = *(const unsigned int *)p; break;				\
	case 8: val = *(const unsigned long long *)p; break;			\
	}									\
	val <<= BF_RELO(s, field, BF_LSHIFT_U64);				\
	if (BF_RELO(s, field, BF_SIGNED))					\
		val = ((long long)val) >> BF_RELO(s, field, BF_RSHIFT_U64);	\
	else									\
		val = val >> BF_RELO(s, field, BF_RSHIFT_U64);			\
	val;									\
})

static long (*bpf_probe_read_kernel)(void *dst, __u32 size, const void *src) = (void *)113;
static __u64 (*bpf_get_current_task)(void) = (void *)35;

/* BPF_CORE_READ_BITFIELD_PROBED */
#define BF_READ_PROBED(s, field) ({						\
	unsigned long long val = 0;						\
										\
	bpf_probe_read_kernel(&val, BF_RELO(s, field, BF_BYTE_SIZE),		\
			      (const void *)(s) + BF_RELO(s, field, BF_BYTE_OFFSET)); \
	val <<= BF_RELO(s, field, BF_LSHIFT_U64);				\
	if (BF_RELO(s, field, BF_SIGNED))					\
		val = ((long long)val) >> BF_RELO(s, field, BF_RSHIFT_U64);	\
	else									\
		val = val >> BF_RELO(s, field, BF_RSHIFT_U64);			\
	val;									\
})

/* the kernel's layout: ihl:4 and version:4 in one byte */
struct iphdr___bf {
	__u8 ihl:4, version:4;
} __attribute__((preserve_access_index));

/* tcphdr's flags at bit 0 here, at bit 96 in the kernel (a __u16 unit there) */
struct tcphdr___bf {
	__u16 res1:4, doff:4, fin:1, syn:1;
} __attribute__((preserve_access_index));

/* signed and wider here: the kernel's are __u16 */
struct tcphdr___wide {
	__u32 pad;
	int doff:4;
	long long syn:3;
	__u8 ack:1;
} __attribute__((preserve_access_index));

struct task_struct___bf {
	unsigned int in_execve:1;
	unsigned int init_private_fork_class:4;
	__u8 sched_remote_wakeup:1;
	int in_iowait:2;
} __attribute__((preserve_access_index));

#define ETH_HLEN 14

SEC("xdp")
int bf_ip(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct iphdr___bf *ip = data + ETH_HLEN;
	struct tcphdr___bf *tcp = data + ETH_HLEN + 20;
	__u64 r;

	if (data + ETH_HLEN + 20 + 20 > end)
		return XDP_PASS;
	r = BF_READ(ip, ihl) + BF_READ(ip, version);
	r += BF_READ(tcp, doff) + BF_READ(tcp, syn) + BF_READ(tcp, fin);
	return r & 1 ? XDP_PASS : XDP_DROP;
}

SEC("xdp")
int bf_tcp_wide(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct tcphdr___wide *tcp = data + ETH_HLEN + 20;
	__u64 r;

	if (data + ETH_HLEN + 20 + 20 > end)
		return XDP_PASS;
	r = BF_READ(tcp, doff) + BF_READ(tcp, syn) + BF_READ(tcp, ack);
	return r & 1 ? XDP_PASS : XDP_DROP;
}

/* The unsafe twin of bf_ip: 20 bytes of tcphdr checked in the object's view (its flags are at
 * 0) but only 12: the relocated load of doff at byte 12 passes the end. */
SEC("xdp")
int bf_tcp_short(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct tcphdr___bf *tcp = data + ETH_HLEN + 20;

	if (data + ETH_HLEN + 20 + 12 > end)
		return XDP_PASS;
	return BF_READ(tcp, doff) & 1 ? XDP_PASS : XDP_DROP;
}

SEC("kprobe/do_nanosleep")
int bf_task(void *ctx)
{
	struct task_struct___bf *t = (void *)bpf_get_current_task();
	__u64 r;

	r = BF_READ_PROBED(t, in_execve) + BF_READ_PROBED(t, init_private_fork_class);
	r += BF_READ_PROBED(t, sched_remote_wakeup) + BF_READ_PROBED(t, in_iowait);
	return r;
}

/* The relocated values themselves, summed (each kind into an ALU immediate). */
SEC("kprobe/do_nanosleep")
int bf_info(void *ctx)
{
	struct tcphdr___wide *t = 0;
	struct task_struct___bf *k = 0;
	__u64 r = 0;

	r += BF_RELO(t, doff, BF_BYTE_OFFSET) * 3 + BF_RELO(t, doff, BF_BYTE_SIZE);
	r += BF_RELO(t, syn, BF_LSHIFT_U64) * 5 + BF_RELO(t, syn, BF_RSHIFT_U64);
	r += BF_RELO(t, doff, BF_SIGNED) * 7 + BF_RELO(k, in_iowait, BF_SIGNED);
	r += BF_RELO(k, init_private_fork_class, BF_BYTE_OFFSET) * 11;
	r += BF_RELO(k, init_private_fork_class, BF_LSHIFT_U64) * 13;
	return r;
}
char _license[] SEC("license") = "GPL";
