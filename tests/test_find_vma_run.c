/* bpf_find_vma in raw tracepoints, run by the kernel and by the interpreter (issue 15).
 *
 * The kernel runs a raw tracepoint with BPF_PROG_TEST_RUN given its arguments as ctx_in (no data,
 * no repeat count: kernel_prog__test_run); bpf_find_vma(task, addr, cb, ctx, 0) on the current
 * task (bpf_get_current_task_btf: the caller of the test run) calls cb once when addr lies in a
 * vma of this process, and returns 0 whatever cb returns; else -ENOENT (-EBUSY when the mmap
 * lock is taken).  Checked here against the kernel itself:
 *  - the callback runs exactly once for an address of this process, never for 0 (the kernel's
 *    retval carries the callback's count), and the interpreter's model (oracle/exec/interp.h:
 *    one byte of helper data per call) gives the same r0 for each outcome;
 *  - kdiff_run compares a raw tracepoint's runs (the input as its arguments, then with every
 *    argument an address of this process) and agrees, the interpreter's run being the one of
 *    the outcome the kernel had (res.vma_outcome: found, on the addresses);
 *  - every call of a run gets the outcome: 300 calls in a loop (REPEATED), and a
 *    bpf_user_ringbuf_drain beside (DRAINED) draws its samples, none, as before (issue 15's
 *    finding kernel-da0120f99aacefd2, fuzz --kernel --seed 2301 program 58);
 *  - and it still reports an r0 that no outcome gives: a callback that returns the vma's start
 *    (a kernel object's bytes, which the interpreter cannot know) differs on the addresses.
 * A kernel run whose helper found this process's mmap lock taken by another task (-EBUSY: rare,
 * no fault of either side) is asked again, up to 8 times.
 * Without bpf() (or the kernel's BTF, which bpf_get_current_task_btf needs) the test skips.
 */
#include <errno.h>
#include <string.h>

#include "bpf/isa.h"
#include "casefile/casefile.h"
#include "oracle/exec/interp.h"
#include "oracle/kernel/kdiff.h"
#include "oracle/kernel/kernel.h"
#include "tests/check.h"

/* r0 = bpf_find_vma's result + (cell << 16), the cell 5 before the call and the callback adding
 * 1 to it: 6 << 16 when the callback ran once and the helper returned 0. */
#define COUNTED_CALL                                                                            \
	"r6 = r1\n"                                                                             \
	"call bpf_get_current_task_btf\n"                                                       \
	"r1 = r0\n"                                                                             \
	"r2 = *(u64 *)(r6 +8)\n"                                                                \
	"r3 = func cb ll\n"                                                                     \
	"r4 = r10\n"                                                                            \
	"r4 += -8\n"                                                                            \
	"r5 = 5\n"                                                                              \
	"*(u64 *)(r10 -8) = r5\n"                                                               \
	"r5 = 0\n"                                                                              \
	"call bpf_find_vma\n"                                                                   \
	"r1 = *(u64 *)(r10 -8)\n"                                                               \
	"r1 <<= 16\n"                                                                           \
	"r0 += r1\n"

#define COUNTED_CB                                                                              \
	"cb: r1 = *(u64 *)(r3 +0)\n"                                                            \
	"r1 += 1\n"                                                                             \
	"*(u64 *)(r3 +0) = r1\n"                                                                \
	"r0 = 1\n"                                                                              \
	"exit\n"

#define COUNTED "-- asm\n" COUNTED_CALL "exit\n" COUNTED_CB "-- type\nraw_tp\n"

/* the callback copies the vma's first u64 (vm_start) to the cell, which main returns */
#define VM_START                                                                                \
	"-- asm\n"                                                                              \
	"r6 = r1\n"                                                                             \
	"call bpf_get_current_task_btf\n"                                                       \
	"r1 = r0\n"                                                                             \
	"r2 = *(u64 *)(r6 +0)\n"                                                                \
	"r3 = func cb ll\n"                                                                     \
	"r4 = r10\n"                                                                            \
	"r4 += -8\n"                                                                            \
	"r5 = 5\n"                                                                              \
	"*(u64 *)(r10 -8) = r5\n"                                                               \
	"r5 = 0\n"                                                                              \
	"call bpf_find_vma\n"                                                                   \
	"r0 = *(u64 *)(r10 -8)\n"                                                               \
	"exit\n"                                                                                \
	"cb: r1 = *(u64 *)(r2 +0)\n"                                                            \
	"*(u64 *)(r3 +0) = r1\n"                                                                \
	"r0 = 0\n"                                                                              \
	"exit\n"                                                                                \
	"-- type\nraw_tp\n"

/* bpf_find_vma called 300 times in a loop of main (more calls than the 256 bytes of helper data
 * the differential once gave the interpreter, after which each call was -ENOENT): the callback
 * counts its calls in the cell, main sums the results in another; r0 = count + (sum << 16), 300
 * when every call found the vma. */
#define REPEATED                                                                                \
	"-- asm\n"                                                                              \
	"r6 = r1\n"                                                                             \
	"r7 = 0\n"                                                                              \
	"*(u64 *)(r10 -8) = r7\n"                                                               \
	"*(u64 *)(r10 -16) = r7\n"                                                              \
	"again: call bpf_get_current_task_btf\n"                                                \
	"r1 = r0\n"                                                                             \
	"r2 = *(u64 *)(r6 +8)\n"                                                                \
	"r3 = func cb ll\n"                                                                     \
	"r4 = r10\n"                                                                            \
	"r4 += -8\n"                                                                            \
	"r5 = 0\n"                                                                              \
	"call bpf_find_vma\n"                                                                   \
	"r1 = *(u64 *)(r10 -16)\n"                                                              \
	"r1 += r0\n"                                                                            \
	"*(u64 *)(r10 -16) = r1\n"                                                              \
	"r7 += 1\n"                                                                             \
	"if r7 < 300 goto again\n"                                                              \
	"r0 = *(u64 *)(r10 -16)\n"                                                              \
	"r0 <<= 16\n"                                                                           \
	"r1 = *(u64 *)(r10 -8)\n"                                                               \
	"r0 += r1\n"                                                                            \
	"exit\n"                                                                                \
	"cb: r1 = *(u64 *)(r3 +0)\n"                                                            \
	"r1 += 1\n"                                                                             \
	"*(u64 *)(r3 +0) = r1\n"                                                                \
	"r0 = 0\n"                                                                              \
	"exit\n"                                                                                \
	"-- type\nraw_tp\n"

/* COUNTED, then bpf_user_ringbuf_drain on a user ring buffer nothing was written to (0 samples,
 * r0 = 0, the callback never called), its result added to r0: 6 << 16 again.  The differential
 * once gave the interpreter a helper stream of the outcome's byte, from which the drain drew
 * its samples (1 of them under 'found'). */
#define DRAINED                                                                                 \
	"-- asm\n" COUNTED_CALL                                                                 \
	"*(u64 *)(r10 -16) = r0\n"                                                              \
	"r1 = map[fd:0] ll\n"                                                                   \
	"r2 = func drain ll\n"                                                                  \
	"r3 = 0\n"                                                                              \
	"r4 = 0\n"                                                                              \
	"call bpf_user_ringbuf_drain\n"                                                         \
	"r1 = *(u64 *)(r10 -16)\n"                                                              \
	"r0 += r1\n"                                                                            \
	"exit\n"                                                                                \
	COUNTED_CB                                                                              \
	"drain: r0 = 0\n"                                                                       \
	"exit\n"                                                                                \
	"-- type\nraw_tp\n"                                                                      \
	"-- maps\nuser_ringbuf entries=4096 name=urb\n"

#define ENOENT_R0(cell) ((uint32_t)((uint64_t)-ENOENT + ((uint64_t)(cell) << 16)))
#define EBUSY_R0(cell) ((uint32_t)((uint64_t)-EBUSY + ((uint64_t)(cell) << 16)))

/* Runs asked again when bpf_find_vma found this process's mmap lock taken by another task
 * (-EBUSY: the kernel's khugepaged or another thread's mmap may hold it; rare, and the outcome
 * this test is not about): the kernel's r0 EBUSY_R0(5), or a differential whose last run, on
 * addresses of this process, the interpreter explains as -EBUSY or -ENOENT (outcome 2 or 0;
 * VM_START returns the cell, 5, under either). */
#define ATTEMPTS 8

static struct casefile *open_case(const char *name, const char *text)
{
	struct casefile *cf = NULL;
	struct diag d;

	diag_clear(&d);
	CHECK(casefile__open_mem(&cf, text, strlen(text), name, &d) == 0, "%s: %s (line %d)", name,
	      d.msg, d.line);
	return cf;
}

/* The interpreter's r0 for the program on args with every bpf_find_vma outcome byte o. */
static uint64_t interp_r0(const struct ebpf_prog *prog, const uint8_t *args, size_t len, uint8_t o)
{
	struct interp_code *code = NULL;
	struct interp_result res;
	uint8_t helper[16], in[64];
	struct interp_env env = { .ctx_kind = INTERP_CTX_RO, .prog_type = prog->prog_type,
				  .input = in, .input_len = len, .helper_data = helper,
				  .helper_len = sizeof(helper), .step_budget = 1000 };
	struct diag d;

	memset(helper, o, sizeof(helper));
	memcpy(in, args, len < sizeof(in) ? len : sizeof(in));
	env.input_len = len < sizeof(in) ? len : sizeof(in);
	diag_clear(&d);
	if (interp_prepare(&code, prog, &d)) {
		CHECK(0, "interp_prepare: %s", d.msg);
		return 0;
	}
	CHECK(interp_run(code, &env, &res) == 0 && res.trap == INTERP_OK, "interpreter run: %s",
	      res.reason);
	interp_code__free(code);
	return res.r0;
}

/* The kernel's retval for the program on args (COUNTED: run again while it is EBUSY_R0(5)). */
static bool kernel_r0(const struct casefile *cf, const uint8_t *args, size_t len, uint32_t *r0)
{
	struct kernel_prog_opts ko = { .sz = sizeof(ko) };
	struct kernel_run_opts ro = { .sz = sizeof(ro), .ctx_in = args, .ctx_size_in = len };
	struct kernel_run_result kr;
	struct kernel_prog *kp = NULL;
	struct diag d;
	bool ok;

	diag_clear(&d);
	if (kernel_prog__load(&kp, cf->obj, &cf->obj->progs[0], &ko, &d)) {
		CHECK(0, "load: %s", d.msg);
		return false;
	}
	CHECK(kp->accepted, "the kernel refused it: %s", kp->message);
	ok = kp->accepted && !kernel_prog__test_run(kp, &ro, &kr, &d);
	for (int attempt = 1; ok && kr.retval == EBUSY_R0(5) && attempt < ATTEMPTS; attempt++) {
		printf("run %d: bpf_find_vma -EBUSY (the mmap lock taken): asked again\n", attempt);
		ok = !kernel_prog__test_run(kp, &ro, &kr, &d);
	}
	CHECK(ok || !kp->accepted, "BPF_PROG_TEST_RUN: %s", d.msg);
	kernel_prog__free(kp);
	*r0 = ok ? kr.retval : 0;
	return ok;
}

/* The callback's calls, by the kernel and by the interpreter's model of each outcome. */
static void once(void)
{
	struct casefile *cf = open_case("counted", COUNTED);
	uint64_t args[2] = { 0, (uint64_t)(uintptr_t)&args };	/* (a stack address) */
	uint64_t none[2] = { 0, 0 };
	uint32_t r0;

	if (!cf)
		return;
	if (kernel_r0(cf, (const uint8_t *)args, sizeof(args), &r0))
		CHECK_EQ_U64(r0, 6u << 16, "kernel, an address of this process: one call, 0");
	if (kernel_r0(cf, (const uint8_t *)none, sizeof(none), &r0))
		CHECK_EQ_U64(r0, ENOENT_R0(5), "kernel, address 0: no call, -ENOENT");
	CHECK_EQ_U64((uint32_t)interp_r0(&cf->obj->progs[0], (const uint8_t *)args, sizeof(args),
					 1), 6u << 16, "interpreter, found");
	CHECK_EQ_U64((uint32_t)interp_r0(&cf->obj->progs[0], (const uint8_t *)args, sizeof(args),
					 0), ENOENT_R0(5), "interpreter, not found");
	CHECK_EQ_U64((uint32_t)interp_r0(&cf->obj->progs[0], (const uint8_t *)args, sizeof(args),
					 2), EBUSY_R0(5), "interpreter, mmap lock taken");
	casefile__free(cf);
}

/* kdiff_run on the program (zeros, then every argument an address of this process): want_kind,
 * and for KDIFF_AGREE the last run's agreement under 'found' with the kernel's r0 want_r0.  A
 * run that does not end so is asked again (a call that found the mmap lock taken, -EBUSY: the
 * run's other calls found the vma); before a model that gives every call of the run the
 * outcome, REPEATED and DRAINED differ on every attempt. */
static void differential(const char *name, const char *text, uint8_t want_kind, uint32_t want_r0)
{
	struct casefile *cf = open_case(name, text);
	uint8_t zeros[64] = { 0 };
	struct kdiff_opts ko = { .sz = sizeof(ko), .input = zeros, .input_len = sizeof(zeros) };
	struct kdiff_result res;
	struct diag d;
	int err;

	if (!cf)
		return;
	for (int attempt = 1;; attempt++) {
		diag_clear(&d);
		err = kdiff_run(&res, cf->obj, &cf->obj->progs[0], &ko, &d);
		if (err || attempt == ATTEMPTS ||
		    (want_kind == KDIFF_AGREE ? res.kind == KDIFF_AGREE && res.vma_outcome == 1
					      : res.vma_outcome != 2 && res.vma_outcome != 0))
			break;
		printf("%s: run %d: %s (outcome %d; bpf_find_vma -EBUSY, the mmap lock taken?): "
		       "asked again\n", name, attempt, res.text, res.vma_outcome);
		kdiff_result__free(&res);
	}
	CHECK(err == 0, "%s: kdiff: %s", name, d.msg);
	CHECK(res.accepted && res.ran, "%s: %s (%s)", name,
	      res.accepted ? "the kernel did not run it" : "the kernel refused it", res.message);
	CHECK(res.kind == want_kind, "%s: %s: %s, expected %s", name, kdiff_kind_name(res.kind),
	      res.text, kdiff_kind_name(want_kind));
	CHECK(!res.nondeterministic, "%s: runs not compared", name);
	if (want_kind == KDIFF_AGREE) {
		/* (the last compared run: every argument an address of this process) */
		CHECK(res.vma_outcome == 1, "%s: the run agreed under outcome %d, not 'found'",
		      name, res.vma_outcome);
		CHECK_EQ_U64(res.kernel_retval, want_r0, name);
	} else {
		CHECK(res.vma_outcome == -1, "%s: outcome %d explains the kernel's r0", name,
		      res.vma_outcome);
	}
	kdiff_result__free(&res);
	casefile__free(cf);
}

int main(void)
{
	char why[256];

	if (!kernel_available(why, sizeof(why)))
		return check_skip("test_find_vma_run", "%s", why);
	if (!ebpf_kfunc_btf_available())
		return check_skip("test_find_vma_run", "no vmlinux BTF: the kernel has no "
				  "bpf_get_current_task_btf to give bpf_find_vma its task");
	once();
	differential("counted", COUNTED, KDIFF_AGREE, 6u << 16);
	differential("repeated", REPEATED, KDIFF_AGREE, 300);
	differential("drained", DRAINED, KDIFF_AGREE, 6u << 16);
	differential("vm_start", VM_START, KDIFF_RETVAL, 0);
	printf("test_find_vma_run: the kernel calls the callback once, as the interpreter; kdiff "
	       "agrees on a raw tracepoint's runs and reports an r0 no outcome gives\n");
	return check_done("test_find_vma_run");
}
