/* CO-RE relocations (tests/test_core.c): a kprobe reading task_struct fields through
 * bpf_probe_read_kernel, the field, type and enum value builtins, and a tc program reading
 * __sk_buff through a local view of it. */
#include "bpf_test.h"

/* Local views of kernel types: the flavour suffix (___local) is dropped when matching, the
 * fields are in another order than the kernel's so that relocation changes the offsets. */
struct task_struct___local {
	int tgid;
	int pid;
} __attribute__((preserve_access_index));

struct __sk_buff___local {
	__u32 mark;
	__u32 len;
} __attribute__((preserve_access_index));

struct bpfscev_no_such_type {
	int x;
};

enum pid_type___local { PIDTYPE_PID___l = 5, PIDTYPE_TGID___l = 6, PIDTYPE_SID = 7 };

static long (*bpf_probe_read_kernel)(void *dst, __u32 size, const void *src) = (void *)113;
static __u64 (*bpf_get_current_task)(void) = (void *)35;

SEC("kprobe/do_nanosleep")
int core_task(void *ctx)
{
	struct task_struct___local *t = (void *)bpf_get_current_task();
	int pid = 0, tgid = 0;

	bpf_probe_read_kernel(&pid, sizeof(pid), &t->pid);
	bpf_probe_read_kernel(&tgid, sizeof(tgid), &t->tgid);
	return pid ^ tgid;
}

SEC("kprobe/do_nanosleep")
int core_info(void *ctx)
{
	struct task_struct___local *t = (void *)bpf_get_current_task();
	__u64 r = 0;

	r += __builtin_preserve_field_info(t->pid, 1);		/* field byte size */
	r += __builtin_preserve_field_info(t->tgid, 2);		/* field exists */
	r += __builtin_preserve_type_info(*(struct task_struct___local *)0, 1);	/* type size */
	r += __builtin_preserve_type_info(*(struct bpfscev_no_such_type *)0, 0);	/* type exists */
	r += __builtin_preserve_enum_value(*(enum pid_type___local *)PIDTYPE_SID, 1);	/* value */
	r += __builtin_preserve_enum_value(*(enum pid_type___local *)PIDTYPE_SID, 0);	/* exists */
	return r;
}

SEC("tc")
int core_skb(struct __sk_buff___local *skb)
{
	return skb->mark + skb->len;
}



struct task_struct___missing {
	int bpfscev_no_such_field;
} __attribute__((preserve_access_index));

/* A field the kernel does not have: libbpf poisons the instruction, bpfscev does not guess. */
SEC("kprobe/do_nanosleep")
int core_missing(void *ctx)
{
	struct task_struct___missing *t = (void *)bpf_get_current_task();
	int v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), &t->bpfscev_no_such_field);
	return v;
}

/* The unsafe twin of core_skb: a store to a field the kernel does not let tc programs write,
 * at the relocated offset. */
SEC("tc")
int core_skb_write(struct __sk_buff___local *skb)
{
	skb->len = 1;
	return 0;
}
char _license[] SEC("license") = "GPL";
