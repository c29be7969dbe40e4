/* Global data of every kind libbpf turns into array maps: .data, .bss, .rodata, a custom
 * .data.* section and string literals (.rodata.str1.1), and .kconfig externs.  The loader must give each LD_IMM64 of
 * a global the map libbpf makes of its section and the variable's offset in the second slot;
 * test_globals compares the instructions with what libbpf itself loads, and the verdicts with
 * the kernel's (a store into .rodata is refused: the map is BPF_F_RDONLY_PROG and frozen).
 */
#include "bpf_test.h"

static long (*bpf_trace_printk)(const char *fmt, __u32 fmt_size, ...) = (void *)6;

__u64 hits = 5;				/* .data */
__u32 zeros[4];				/* .bss */
const volatile __u32 ro_pad = 3;	/* .rodata */
const volatile __u32 ro_limit = 12;	/* .rodata, offset 4 */
__u32 custom_a SEC(".data.custom") = 0x1234;
__u64 custom_b SEC(".data.custom") = 0x55;

/* .kconfig externs: libbpf's read-only .kconfig map, filled from the kernel's configuration */
enum libbpf_tristate { TRI_NO = 0, TRI_YES = 1, TRI_MODULE = 2 };
#define __kconfig __attribute__((section(".kconfig")))
#define __weak __attribute__((weak))
extern unsigned int LINUX_KERNEL_VERSION __kconfig;
extern int CONFIG_HZ __kconfig __weak;
extern _Bool CONFIG_BPF_SYSCALL __kconfig __weak;
extern enum libbpf_tristate CONFIG_BPF_LSM __kconfig __weak;
extern char CONFIG_BPF_JIT __kconfig __weak;
extern char CONFIG_LOCALVERSION[8] __kconfig __weak;
extern _Bool CONFIG_BPFSCEV_NO_SUCH_OPTION __kconfig __weak;

SEC("xdp")
int globals_read(struct xdp_md *ctx)
{
	__u32 i = ctx->rx_queue_index & 3;

	hits += LINUX_KERNEL_VERSION + CONFIG_HZ + CONFIG_BPF_SYSCALL + CONFIG_BPF_LSM +
		CONFIG_BPF_JIT + CONFIG_LOCALVERSION[1] + CONFIG_BPFSCEV_NO_SUCH_OPTION;
	hits += ro_limit + ro_pad;
	zeros[i] += 1;
	custom_b += custom_a;
	bpf_trace_printk("hits %llu\n", sizeof("hits %llu\n"), hits);
	return XDP_PASS;
}

SEC("xdp")
int globals_write_rodata(struct xdp_md *ctx)
{
	*(volatile __u32 *)&ro_limit = ctx->rx_queue_index;
	return XDP_PASS;
}

SEC("xdp")
int globals_write_kconfig(struct xdp_md *ctx)
{
	*(volatile int *)&CONFIG_HZ = ctx->rx_queue_index;
	return XDP_PASS;
}

SEC("xdp")
int globals_past_end(struct xdp_md *ctx)
{
	__u32 i = ctx->rx_queue_index & 7;	/* zeros has 4 entries */

	zeros[i] = 1;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
