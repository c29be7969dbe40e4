/* Source of objdump_sample.txt / objdump_sample_noraw.txt / objdump_sample.bin (test_asm.c):
 *   clang -O2 -target bpf -mcpu=v3 -c objdump_sample.c -o objdump_sample.o
 *   llvm-objdump -d --mattr=+alu32 objdump_sample.o > objdump_sample.txt
 *   llvm-objdump -d --mattr=+alu32 --no-show-raw-insn objdump_sample.o > objdump_sample_noraw.txt
 *   llvm-objcopy -O binary --only-section=xdp objdump_sample.o objdump_sample.bin
 * (clang/llvm 14).  A loop, a map lookup, 32-bit and 64-bit ALU, byte swaps, atomics, jumps in
 * both widths and a 64-bit constant; no bpf-to-bpf call, whose objdump text is ambiguous.
 */
typedef unsigned int u32;
typedef unsigned long long u64;

struct {
	int type, max_entries;
	u32 *key;
	u64 *value;
} counts __attribute__((section(".maps"), used));

static void *(*lookup)(void *map, const void *key) = (void *)1;

struct xdp_md { u32 data, data_end, data_meta, ingress_ifindex, rx_queue_index; };

__attribute__((section("xdp"), used)) int sample(struct xdp_md *ctx)
{
	unsigned char *p = (unsigned char *)(long)ctx->data;
	unsigned char *end = (unsigned char *)(long)ctx->data_end;
	u32 h = 0x811c9dc5, key = 0;
	u64 *v;
	int i;

	for (i = 0; i < 64 && p + i + 1 <= end; i++)
		h = (h ^ p[i]) * 16777619;
	if (p + 4 <= end)
		h += __builtin_bswap32(*(u32 *)p) >> (h & 7);
	key = h & 0xff;
	v = lookup(&counts, &key);
	if (!v)
		return 2;
	__sync_fetch_and_add(v, 1);
	if ((int)h < -5)
		*v = 0x123456789abcdefull;
	return (h & 1) ? 1 : 2;
}
