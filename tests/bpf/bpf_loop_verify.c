/* bpf_loop callbacks for `bpfscev verify`, as clang 14 compiles them, safe and unsafe twins:
 * the callback's ctx is a struct in the caller's frame which it reads and writes, one callback
 * runs a plain loop of its own, one stops early; the unsafe ones return the index (not 0 or 1)
 * or write past the caller's struct out of the frame.  tests/test_callbacks_verify.c loads them
 * into the kernel, whose verdict each must match.
 */
#include "bpf_test.h"

static long (*bpf_loop)(__u32 nr, void *cb, void *ctx, __u64 flags) = (void *)181;

struct hist {
	__u64 bins[8];
	__u32 n;
};

static int bin_index(__u32 i, void *data)
{
	struct hist *h = data;

	h->bins[i & 7] += i;
	h->n++;
	return 0;
}

/* stops once eight bins were touched */
static int until_full(__u32 i, void *data)
{
	struct hist *h = data;

	h->n += 1;
	return h->n >= 8;
}

static int inner_loop(__u32 i, void *data)
{
	struct hist *h = data;

	for (int k = 0; k < 8; k++)
		h->bins[k] += k * i;
	return 0;
}

SEC("xdp")
int hist_safe(struct xdp_md *xdp)
{
	struct hist h = {};

	bpf_loop(xdp->ingress_ifindex & 63, bin_index, &h, 0);
	bpf_loop(100, until_full, &h, 0);
	bpf_loop(3, inner_loop, &h, 0);
	return h.n & 1 ? XDP_PASS : XDP_DROP;
}

static int returns_index(__u32 i, void *data)
{
	struct hist *h = data;

	h->n = i;
	return i;
}

SEC("xdp")
int ret_index_unsafe(struct xdp_md *xdp)
{
	struct hist h = {};

	bpf_loop(4, returns_index, &h, 0);
	return h.n & 1 ? XDP_PASS : XDP_DROP;
}

static int past_frame(__u32 i, void *data)
{
	volatile char *p = data;

	p[600] = 1;	/* the struct is in the caller's 512-byte frame */
	return 0;
}

SEC("xdp")
int past_frame_unsafe(struct xdp_md *xdp)
{
	struct hist h = {};

	bpf_loop(4, past_frame, &h, 0);
	return h.n & 1 ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
