/* Packet pointers passed to static subprograms (issue 15 §3): the clang-built
 * tests/bpf/pkt_calls.o against the kernel, which verifies a static callee with its caller's
 * registers, packet ranges included.  bpfscev runs a callee with what every call of it proves of
 * the packet (scev_ctx.fn_pkt): the bytes after data and after each packet pointer argument.
 * The safe programs read what all their calls checked (false alarms when the range is dropped
 * at the call); the unsafe ones read one byte more, or after the callee moved the packet.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "oracle/kernel/kernel.h"
#include "scev/scev.h"
#include "tests/check.h"
#include "tests/verdict_case.h"
#include "triage/verdict.h"

int main(void)
{
	static const char *const progs[] = {
		"pkt_arg_checked", "pkt_arg_two_sites", "pkt_arg_variable",
		"pkt_arg_past_check", "pkt_arg_two_sites_past", "pkt_arg_moved",
	};
	static const enum scev_verdict_kind want[] = {
		VERDICT_SAFE, VERDICT_SAFE, VERDICT_SAFE, VERDICT_UNSAFE, VERDICT_UNSAFE, VERDICT_UNSAFE,
	};
	static const char *const reasons[] = {
		NULL, NULL, NULL, "packet access [8, 9) not proven",
		/* each call site analysed in its own context: the first call's read of p[8] with 8
		 * bytes checked (merged with the second call, [8, 17)) */
		"packet access [8, 9) not proven", "not a known pointer",
	};
	char path[1024];
	bool kernel;

	if (!verdict_case_bpf_object("pkt_calls.o", path, sizeof(path)))
		return 77;
	kernel = verdict_case_kernel("the kernel's verdicts");
	verdict_case_object_why(path, progs, want, reasons, sizeof(progs) / sizeof(progs[0]),
				kernel);
	return check_done("test_pkt_calls");
}
