/* An object with one program the loader must leave out: `bad` holds a may_goto whose fields
 * are not the encoding's (imm 0xffff, clang 14 cannot emit may_goto, so a wrong inline-asm
 * spelling produced this), between two good programs.  test_loops_cli checks that `verify`
 * names it (a row of the report, a line on stderr, exit 2) instead of dropping it. */
#include "bpf_test.h"

SEC("socket") int good(void *ctx)
{
	return 0;
}

SEC("socket") __attribute__((naked)) int bad(void *ctx)
{
	asm volatile(".byte 0xe5; .byte 0; .short 0; .long 0xffff; r0 = 0; exit;" ::: "r0");
}

SEC("socket") int after(void *ctx)
{
	return 1;
}

char _license[] SEC("license") = "GPL";
