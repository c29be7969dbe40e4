/* Packet pointers passed to static subprograms (issue 15 §3): the clang-built
 * tests/bpf/pkt_calls.o against the kernel, which verifies a static callee with its caller's
 * registers, packet ranges included.  bpfscev runs a callee with what every call of it proves of
 * the packet (scev_ctx.fn_pkt): the bytes after data and after each packet pointer argument.
 * The safe programs read what all their calls checked (false alarms when the range is dropped
 * at the call); the unsafe ones read one byte more, or after the callee moved the packet.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bpf/prog.h"
#include "oracle/kernel/kernel.h"
#include "scev/scev.h"
#include "tests/check.h"
#include "tests/verdict_case.h"
#include "triage/verdict.h"

int main(void)
{
	static const struct {
		const char *prog;
		enum scev_verdict_kind want;
		const char *reason;
	} cases[] = {
		{ "pkt_arg_checked", VERDICT_SAFE, NULL },
		{ "pkt_arg_two_sites", VERDICT_SAFE, NULL },
		{ "pkt_arg_variable", VERDICT_SAFE, NULL },
		{ "pkt_arg_past_check", VERDICT_UNSAFE, "packet access [8, 9) not proven" },
		{ "pkt_arg_two_sites_past", VERDICT_UNSAFE, "packet access [8, 17) not proven" },
		{ "pkt_arg_moved", VERDICT_UNSAFE, "not a known pointer" },
	};
	const char *dir = getenv("BPFSCEV_TEST_BPF_DIR");
	struct ebpf_object *obj = NULL;
	char why[256], path[1024];
	struct stat st;
	struct diag d;
	bool kernel;

	snprintf(path, sizeof(path), "%s/pkt_calls.o", dir ? dir : "");
	if (!dir || stat(path, &st)) {
		printf("SKIP: no clang-built tests/bpf/pkt_calls.o (no clang at configure time)\n");
		return 77;
	}
	diag_clear(&d);
	if (ebpf_object__open_file(&obj, path, &d)) {
		CHECK(0, "%s: %s", path, d.msg);
		return check_done("test_pkt_calls");
	}
	kernel = kernel_available(why, sizeof(why));
	if (!kernel)
		check_skip_part("the kernel's verdicts: %s", why);
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		verdict_case_prog(obj, cases[k].prog, (uint8_t)cases[k].want, cases[k].reason,
				  kernel);
	ebpf_object__free(obj);
	return check_done("test_pkt_calls");
}
