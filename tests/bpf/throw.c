/* BPF exceptions (scev/absint_throw.c): bpf_throw in main, in a static and in a global function,
 * with and without an exception callback (main's BTF decl tag "exception_callback:NAME"), and
 * their unsafe twins as clang compiles them: a throw with an iterator live, in a bpf_loop
 * callback, in a loop (refused by 6.18: "scc exit"), a cookie or a callback result outside
 * cgroup_skb's [0, 1], a callback of two arguments, one called directly.  tests/test_throw.c
 * holds each verdict against the running kernel's and each throwing run's result against
 * BPF_PROG_TEST_RUN's.
 */
#include "bpf_test.h"

#define __exc_cb(name) __attribute__((btf_decl_tag("exception_callback:" #name)))

extern void bpf_throw(__u64 cookie) __ksym;

static long (*bpf_loop)(__u32 nr, void *fn, void *ctx, __u64 flags) = (void *)181;

/* the cookie is the result without an exception callback */
SEC("tc")
int throw_main(struct __sk_buff *skb)
{
	if (skb->len > 60)
		bpf_throw(7);
	return 1;
}

__noinline int exc_plus(__u64 cookie)
{
	return (int)(cookie + 100);
}

static __noinline int thrower(__u32 len)
{
	if (len > 60)
		bpf_throw(len);
	return (int)len & 3;
}

/* a static function throws: the callback's result (cookie + 100) is the program's */
SEC("tc")
__exc_cb(exc_plus)
int throw_callee(struct __sk_buff *skb)
{
	return thrower(skb->len) + 2;
}

__noinline int gthrow(struct __sk_buff *skb)
{
	if (skb->len > 60)
		bpf_throw(3);
	return 0;
}

/* a global function throws (no callback: the cookie) */
SEC("tc")
int throw_global(struct __sk_buff *skb)
{
	return gthrow(skb) + 5;
}

/* an iterator live at the throw: a reference the exception exit refuses */
SEC("tc")
int throw_iter_live(struct __sk_buff *skb)
{
	struct bpf_iter_num it;
	int *v;

	bpf_iter_num_new(&it, 0, 3);
	v = bpf_iter_num_next(&it);
	if (v && skb->len > 60)
		bpf_throw(1);
	bpf_iter_num_destroy(&it);
	return 0;
}

static __noinline int loop_cb(__u32 i, void *ctx)
{
	if (i == 2)
		bpf_throw(0);
	return 0;
}

/* a bpf_loop callback throws: "cannot be called from callback subprog" */
SEC("tc")
int throw_in_cb(struct __sk_buff *skb)
{
	bpf_loop(4, loop_cb, 0, 0);
	return 0;
}

/* a throw in a loop: 6.18 refuses it ("verifier bug: scc exit"), not modeled */
SEC("tc")
int throw_in_loop(struct __sk_buff *skb)
{
	__u32 n = skb->len, i;

#pragma clang loop unroll(disable)
	for (i = 0; i < 16; i++)
		if (i == n)
			bpf_throw(i);
	return 0;
}

/* cgroup_skb returns 0 or 1: the default callback's cookie 1 may be, 2 may not */
SEC("cgroup_skb/ingress")
int throw_cookie_ok(struct __sk_buff *skb)
{
	if (skb->len > 60)
		bpf_throw(1);
	return 1;
}

SEC("cgroup_skb/ingress")
int throw_cookie_bad(struct __sk_buff *skb)
{
	if (skb->len > 60)
		bpf_throw(2);
	return 1;
}

__noinline int exc_bit(__u64 cookie)
{
	return (int)(cookie & 1);
}

__noinline int exc_any(__u64 cookie)
{
	return (int)cookie;
}

/* the callback's result is held to the program type's rule */
SEC("cgroup_skb/ingress")
__exc_cb(exc_bit)
int throw_cb_ret_ok(struct __sk_buff *skb)
{
	if (skb->len > 60)
		bpf_throw(skb->len);
	return 1;
}

SEC("cgroup_skb/ingress")
__exc_cb(exc_any)
int throw_cb_ret_bad(struct __sk_buff *skb)
{
	if (skb->len > 60)
		bpf_throw(skb->len);
	return 1;
}

__noinline int exc_two(__u64 a, __u64 b)
{
	return (int)(a + b);
}

/* an exception callback takes one integer */
SEC("tc")
__exc_cb(exc_two)
int throw_cb_two_args(struct __sk_buff *skb)
{
	if (skb->len > 60)
		bpf_throw(1);
	return 0;
}

__noinline int exc_called(__u64 cookie)
{
	return (int)cookie;
}

/* nothing may call the exception callback */
SEC("tc")
__exc_cb(exc_called)
int throw_cb_called(struct __sk_buff *skb)
{
	return exc_called(skb->len);
}

char _license[] SEC("license") = "GPL";
