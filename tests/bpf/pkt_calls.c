/* Packet pointers passed to static subprograms (issue 15 §3): the kernel verifies a static
 * callee with its caller's registers, so a packet pointer keeps the range its caller checked
 * against data_end at the call; with two calls, what each proves.  A callee that moves the packet
 * (bpf_xdp_adjust_head) loses it.  Each program's name says what it does; test_pkt_calls holds
 * their verdicts against the kernel's.
 */
#include "bpf_test.h"

static long (*bpf_xdp_adjust_head)(struct xdp_md *xdp, int delta) = (void *)44;

static __noinline int first_eight(const __u8 *p)
{
	return p[0] + p[7];
}

static __noinline int ninth(const __u8 *p)
{
	return p[8];
}

static __noinline int second_eight(const __u8 *p)
{
	return p[8] + p[15];
}

static __noinline int moved_then_read(struct xdp_md *ctx, const __u8 *p)
{
	if (bpf_xdp_adjust_head(ctx, 0))
		return 0;
	return p[0];
}

SEC("xdp")
int pkt_arg_checked(struct xdp_md *ctx)
{
	const __u8 *data = (const void *)(long)ctx->data, *end = (const void *)(long)ctx->data_end;

	if (data + 8 > end)
		return XDP_PASS;
	return first_eight(data) & 1 ? XDP_DROP : XDP_PASS;
}

SEC("xdp")
int pkt_arg_past_check(struct xdp_md *ctx)
{
	const __u8 *data = (const void *)(long)ctx->data, *end = (const void *)(long)ctx->data_end;

	if (data + 8 > end)
		return XDP_PASS;
	return ninth(data) & 1 ? XDP_DROP : XDP_PASS;
}

/* 16 bytes checked at one call, 8 at the other: the first 8 are there at both */
SEC("xdp")
int pkt_arg_two_sites(struct xdp_md *ctx)
{
	const __u8 *data = (const void *)(long)ctx->data, *end = (const void *)(long)ctx->data_end;
	int r;

	if (data + 8 > end)
		return XDP_PASS;
	r = first_eight(data);
	if (data + 16 > end)
		return r & 1 ? XDP_DROP : XDP_PASS;
	return (r ^ first_eight(data + 8)) & 1 ? XDP_DROP : XDP_PASS;
}

/* data + x for x below 32, then 8 bytes after it checked: the argument's range is its own */
SEC("xdp")
int pkt_arg_variable(struct xdp_md *ctx)
{
	const __u8 *data = (const void *)(long)ctx->data, *end = (const void *)(long)ctx->data_end;
	const __u8 *p;

	if (data + 1 > end)
		return XDP_PASS;
	p = data + (data[0] & 31);
	if (p + 8 > end)
		return XDP_PASS;
	return first_eight(p) & 1 ? XDP_DROP : XDP_PASS;
}

/* ... bytes 8 to 15 of the argument at neither (the first call checked 8 bytes, the second 16
 * from data + 8) */
SEC("xdp")
int pkt_arg_two_sites_past(struct xdp_md *ctx)
{
	const __u8 *data = (const void *)(long)ctx->data, *end = (const void *)(long)ctx->data_end;

	int r;

	if (data + 8 > end)
		return XDP_PASS;
	r = second_eight(data);
	if (data + 16 > end)
		return r & 1 ? XDP_DROP : XDP_PASS;
	return (r ^ second_eight(data + 8)) & 1 ? XDP_DROP : XDP_PASS;
}

SEC("xdp")
int pkt_arg_moved(struct xdp_md *ctx)
{
	const __u8 *data = (const void *)(long)ctx->data, *end = (const void *)(long)ctx->data_end;

	if (data + 8 > end)
		return XDP_PASS;
	return moved_then_read(ctx, data) & 1 ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
