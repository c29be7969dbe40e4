/* A program the kernel refuses before its verifier walks one instruction, with nothing in the
 * verifier log: an iter/ program needs an attach target the load resolves first (6.18: EPERM
 * for iter/sockmap at load), which says nothing about the program (test_kernel: no-load).
 */
#include "bpf_test.h"

SEC("iter/sockmap")
int iter_noload(void *ctx)
{
	return 0;
}

char _license[] SEC("license") = "GPL";
