/* kfunc calls as clang writes them: calls to extern functions in .ksyms, which the loader
 * resolves by name to the running kernel's BTF ids (as libbpf does at load time), keeping the
 * names.  bpf_iter_num_* are the open-coded iterator kfuncs behind bpf_for(); the last one exists
 * in no kernel.
 */
#include "bpf_test.h"

extern void bpfscev_no_such_kfunc(void) __ksym;

SEC("xdp")
int iter_sum(struct xdp_md *xdp)
{
	struct bpf_iter_num it;
	int *v, s = 0;

	bpf_iter_num_new(&it, 0, 10);
	while ((v = bpf_iter_num_next(&it)))
		s += *v;
	bpf_iter_num_destroy(&it);
	return s & 3;
}

SEC("xdp")
int missing_kfunc(struct xdp_md *xdp)
{
	bpfscev_no_such_kfunc();
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
