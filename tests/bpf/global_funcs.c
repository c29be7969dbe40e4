/* Global functions (non-static, BTF_FUNC_GLOBAL linkage) are verified by the kernel on their own,
 * once, with arguments from their BTF types: a pointer to a struct or scalar is memory of that
 * type's size that may be NULL, a pointer to the program's context type is the context, any
 * other argument is an unknown scalar; the caller sees only an unknown scalar result.  Each
 * program below is safe or unsafe by that rule alone, whatever its callers pass.
 */
#include "bpf_test.h"

struct pair {
	__u32 a, b;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pair);
} pairs SEC(".maps");

/* safe: tests the pointer before reading the 8 bytes of its type */
__noinline int pair_sum(struct pair *p)
{
	if (!p)
		return 0;
	return p->a + p->b;
}

/* unsafe on its own: reads a pointer that may be NULL */
__noinline int pair_sum_nocheck(struct pair *p)
{
	return p->a + p->b;
}

/* unsafe on its own: reads 4 bytes past its argument's 4-byte type */
__noinline int second_word(__u32 *p)
{
	if (!p)
		return 0;
	return p[1];
}

/* safe: reads the context the program type gives */
__noinline int ctx_len(struct __sk_buff *skb)
{
	return skb->len & 0xff;
}

/* unsafe on its own: the index is any scalar */
__noinline int word_at(struct pair *p, __u32 i)
{
	if (!p)
		return 0;
	return ((__u32 *)p)[i];
}

/* writes its argument's memory, which the caller then knows nothing of */
__noinline int pair_fold(struct pair *p)
{
	if (!p)
		return 0;
	p->a = p->b & 3;
	return 0;
}

/* a void pointer: memory of no known size */
__noinline int first_byte(void *p)
{
	if (!p)
		return 0;
	return *(__u8 *)p;
}

/* returns nothing */
__noinline void pair_clear(struct pair *p)
{
	if (p)
		p->a = 0;
}

/* always 1, but its caller knows only a scalar (the barrier hides it from clang too) */
__noinline int one(void)
{
	int x = 1;

	asm volatile("" : "+r"(x));
	return x;
}

SEC("socket")
int g_pair_sum(struct __sk_buff *skb)
{
	struct pair p = { skb->len, skb->mark };

	return pair_sum(&p) & 1;
}

SEC("socket")
int g_null_arg(struct __sk_buff *skb)
{
	return pair_sum((struct pair *)0) & 1;
}

SEC("socket")
int g_null_unchecked(struct __sk_buff *skb)
{
	struct pair p = { skb->len, skb->mark };

	return pair_sum_nocheck(&p) & 1;
}

SEC("socket")
int g_past_type(struct __sk_buff *skb)
{
	__u32 w[2] = { skb->len, skb->mark };

	return second_word(w) & 1;
}

SEC("socket")
int g_ctx(struct __sk_buff *skb)
{
	return ctx_len(skb);
}

SEC("socket")
int g_scalar_arg(struct __sk_buff *skb)
{
	struct pair p = { skb->len, skb->mark };

	return word_at(&p, 1) & 1;
}

SEC("socket")
int g_result_unknown(struct __sk_buff *skb)
{
	__u8 buf[4] = { skb->len, skb->mark, 0, 0 };

	return buf[one()];
}

SEC("socket")
int g_stack_written(struct __sk_buff *skb)
{
	struct pair p = { 0, skb->mark };
	__u8 buf[4] = { skb->len, skb->mark, 0, 0 };

	pair_fold(&p);
	return buf[p.a];
}

SEC("socket")
int g_void_ptr(struct __sk_buff *skb)
{
	struct pair p = { skb->len, skb->mark };

	return first_byte(&p) & 1;
}

SEC("socket")
int g_void_ret(struct __sk_buff *skb)
{
	struct pair p = { skb->len, skb->mark };

	pair_clear(&p);
	return p.b & 1;
}

SEC("socket")
int g_stack_written_masked(struct __sk_buff *skb)
{
	struct pair p = { 0, skb->mark };
	__u8 buf[4] = { skb->len, skb->mark, 0, 0 };

	pair_fold(&p);
	return buf[p.a & 3];
}

/* a lookup's result before its null check: the callee takes it as memory that may be NULL */
SEC("socket")
int g_map_value(struct __sk_buff *skb)
{
	__u32 k = 0;

	return pair_sum(bpf_map_lookup_elem(&pairs, &k)) & 1;
}

/* 4 bytes at the top of the frame given as the 8 of a struct pair */
SEC("socket")
int g_short_memory(struct __sk_buff *skb)
{
	__u32 w = skb->len;

	return pair_sum((struct pair *)&w) & 1;
}

/* A kprobe's context, struct pt_regs (x86-64's layout; the kernel compares the name only, as
 * with bpf_user_pt_regs_t, which names it): a global function taking one is given the context,
 * which a kprobe may only read (kprobe_prog_is_valid_access). */
struct pt_regs {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8, ax, cx, dx, si, di, orig_ax, ip,
		cs, flags, sp, ss;
};

__noinline int regs_di(struct pt_regs *regs)
{
	return regs->di & 1;
}

__noinline int regs_clear_di(struct pt_regs *regs)
{
	regs->di = 0;
	return 0;
}

SEC("kprobe/do_nanosleep")
int g_kprobe_ctx(struct pt_regs *ctx)
{
	return regs_di(ctx);
}

SEC("kprobe/do_nanosleep")
int g_kprobe_ctx_write(struct pt_regs *ctx)
{
	return regs_clear_di(ctx);
}

/* A perf_event program's, struct bpf_perf_event_data: the sample period after the registers. */
struct bpf_perf_event_data {
	struct pt_regs regs;
	__u64 sample_period;
	__u64 addr;
};

__noinline int period_odd(struct bpf_perf_event_data *d)
{
	return d->sample_period & 1;
}

__noinline int past_addr(struct bpf_perf_event_data *d)
{
	return ((__u64 *)d)[23] & 1;	/* (the 8 bytes after addr) */
}

SEC("perf_event")
int g_perf_ctx(struct bpf_perf_event_data *ctx)
{
	return period_odd(ctx);
}

SEC("perf_event")
int g_perf_ctx_past(struct bpf_perf_event_data *ctx)
{
	return past_addr(ctx);
}

char _license[] SEC("license") = "GPL";
