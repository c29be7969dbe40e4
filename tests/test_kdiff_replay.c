/* The kernel differential's record and replay (kdiff.h): a program calling helpers that draw only
 * a result (bpf_get_prandom_u32, the clocks, the task's ids, the NUMA node) is test-run as a
 * recording copy that logs each such result, and the interpreter replays the log, so its r0,
 * packet and maps are compared (before, such runs were "nondeterministic", not compared).
 *  - ebpf_insns_insert (bpf/isa.h), which makes the copy: jumps, calls and function addresses
 *    keep their targets, a jump to the instruction after a call lands after the inserted slots,
 *    a jump that no longer reaches is -E2BIG (no kernel needed);
 *  - a loop of 16 bpf_get_prandom_u32 calls whose r0 and a map element are a hash of the
 *    values: compared, the same on both sides, 16 results replayed, two runs' kernel r0 differ
 *    (the values are the kernel's random ones, not a constant both sides agree on); the
 *    verdict, processed count and claims are the original program's (the same as with
 *    kdiff_opts.no_replay, which keeps the old rule: not compared, a helper the reason);
 *  - a replay deliberately broken (kdiff_opts.forge_replay: one result changed): a difference,
 *    reported;
 *  - the clocks, bpf_get_current_pid_tgid, _uid_gid, _cgroup_id, bpf_get_numa_node_id, jiffies:
 *    compared and the same;
 *  - a run calling bpf_get_prandom_u32 more often than the log holds: not compared, the reason
 *    KDIFF_NC_REPLAY_SHORT; a helper whose written bytes the log does not hold
 *    (bpf_get_current_comm): not compared, KDIFF_NC_HELPER; a call inside a jump over 32767
 *    instructions (the copy's jump would not reach): not compared, KDIFF_NC_RECORD_FAILED;
 *  - no file descriptor left open (no program or map stays loaded).
 * Without bpf(), the kernel cases skip.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/isa.h"
#include "oracle/kernel/kdiff.h"
#include "oracle/kernel/kernel.h"
#include "tests/check.h"
#include "tests/kdiff_case.h"

/* r7 = a hash of 16 random numbers, also stored in element 0 of map m; r0 its low 32 bits */
#define PRAND_HASH(N)                                                                           \
	"-- asm\n"                                                                              \
	"r6 = 0\nr7 = 0\n"                                                                      \
	"l: call bpf_get_prandom_u32\nr7 *= 31\nr7 += r0\nr6 += 1\nif r6 < " N " goto l\n"      \
	"*(u64 *)(r10 -8) = r7\nr1 = 0\n*(u32 *)(r10 -12) = r1\nr1 = map[fd:0] ll\n"           \
	"r2 = r10\nr2 += -12\nr3 = r10\nr3 += -8\nr4 = 0\ncall bpf_map_update_elem\n"          \
	"r0 = r7\nexit\n"                                                                       \
	"-- type\nxdp\n-- maps\narray key=4 value=8 entries=1 name=m\n"

/* every other replayed helper once, their results mixed into r0 */
#define OTHERS                                                                                  \
	"-- asm\n"                                                                              \
	"call bpf_ktime_get_ns\nr6 = r0\ncall bpf_ktime_get_boot_ns\nr6 ^= r0\n"                \
	"call bpf_ktime_get_coarse_ns\nr6 += r0\ncall bpf_get_current_pid_tgid\nr6 ^= r0\n"     \
	"call bpf_get_current_uid_gid\nr6 += r0\ncall bpf_get_current_cgroup_id\nr6 ^= r0\n"    \
	"call bpf_get_numa_node_id\nr6 += r0\ncall bpf_jiffies64\nr6 ^= r0\n"                   \
	"r0 = r6\nr0 >>= 7\nexit\n"                                                             \
	"-- type\nsocket\n"

#define COMM                                                                                    \
	"-- asm\n"                                                                              \
	"r1 = r10\nr1 += -16\nr2 = 16\ncall bpf_get_current_comm\nr0 = *(u8 *)(r10 -16)\nexit\n" \
	"-- type\nsocket\n"

/* ebpf_insns_insert on a small program: a loop back over a call, a jump to the instruction
 * after the call, a bpf-to-bpf call and a function address past it. */
static void insert_cases(void)
{
	struct bpf_insn in[] = {
		/* 0 */ { .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 6, .imm = 0 },
		/* 1 */ { .code = BPF_JMP | BPF_JEQ | BPF_K, .dst_reg = 6, .imm = 5, .off = 1 },
		/* 2 */ { .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_get_prandom_u32 },
		/* 3 */ { .code = BPF_JMP | BPF_JA, .off = -4 },
		/* 4 */ { .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_CALL, .imm = 3 },
		/* 5 */ { .code = BPF_LD | BPF_IMM | BPF_DW, .dst_reg = 2,
			  .src_reg = BPF_PSEUDO_FUNC, .imm = 2 },
		/* 6 */ { 0 },
		/* 7 */ { .code = BPF_JMP | BPF_EXIT },
		/* 8 */ { .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		/* 9 */ { .code = BPF_JMP | BPF_EXIT },
	};
	const size_t n = sizeof(in) / sizeof(in[0]);
	uint32_t extra[sizeof(in) / sizeof(in[0])] = { [2] = 3 };
	struct bpf_insn out[sizeof(in) / sizeof(in[0]) + 3];
	size_t newpc[sizeof(in) / sizeof(in[0]) + 1];
	struct bpf_insn *far = calloc(40000, sizeof(*far));
	uint32_t *fextra = calloc(40000, sizeof(*fextra));
	struct bpf_insn *fout = calloc(40000 + 30000, sizeof(*fout));
	size_t *fnew = calloc(40001, sizeof(*fnew));

	CHECK(ebpf_insns_insert(out, newpc, in, n, extra) == 0, "insert: failed");
	CHECK(newpc[n] == n + 3 && newpc[2] == 2 && newpc[3] == 6, "insert: new pcs %zu %zu %zu",
	      newpc[n], newpc[2], newpc[3]);
	/* the jump at 1 to 3 (after the call) lands on 3's new place, past the inserted slots */
	CHECK(ebpf_jump_target(&out[1], 1) == 6, "insert: jump to after the call goes to %ld",
	      ebpf_jump_target(&out[1], 1));
	CHECK(ebpf_jump_target(&out[6], 6) == 0, "insert: loop back goes to %ld",
	      ebpf_jump_target(&out[6], 6));
	CHECK(ebpf_insn_target(&out[7], 7) == 11, "insert: call goes to %ld",
	      ebpf_insn_target(&out[7], 7));
	CHECK(ebpf_insn_target(&out[8], 8) == 11, "insert: function address %ld",
	      ebpf_insn_target(&out[8], 8));
	CHECK(out[3].code == 0 && out[4].code == 0 && out[5].code == 0,
	      "insert: the inserted slots are not empty");
	/* a jump over 32760 instructions with 10 slots inserted in between no longer reaches */
	if (far && fextra && fout && fnew) {
		for (size_t k = 0; k < 40000; k++)
			far[k].code = BPF_ALU64 | BPF_MOV | BPF_K;
		far[0].code = BPF_JMP | BPF_JA;
		far[0].off = 32760;
		far[100].code = BPF_JMP | BPF_CALL;
		far[100].imm = BPF_FUNC_get_prandom_u32;
		fextra[100] = 10;
		CHECK(ebpf_insns_insert(fout, fnew, far, 40000, fextra) == -E2BIG,
		      "insert: a jump that no longer reaches was not refused");
		fextra[100] = 7;
		CHECK(ebpf_insns_insert(fout, fnew, far, 40000, fextra) == 0 &&
			      ebpf_jump_target(&fout[0], 0) == 32767 + 1,
		      "insert: a jump that just reaches: %ld", ebpf_jump_target(&fout[0], 0));
	}
	free(far);
	free(fextra);
	free(fout);
	free(fnew);
}

static size_t open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	size_t n = 0;

	if (!d)
		return 0;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static size_t changed_at;

/* a broken replay: one result (the third) not the kernel's */
static void break_replay(void *arg, uint64_t *results, size_t n)
{
	(void)arg;
	if (n > 2) {
		results[2] += 1;
		changed_at = 2;
	}
}

static bool run(const char *name, const char *text, struct kdiff_result *res, bool no_replay,
		bool broken)
{
	uint8_t pkt[64] = { 0 };
	struct kdiff_opts ko = { .sz = sizeof(ko), .input = pkt, .input_len = sizeof(pkt),
				 .check_runs = 4, .no_replay = no_replay,
				 .forge_replay = broken ? break_replay : NULL };

	if (!kdiff_case(res, name, text, &ko))
		return false;
	CHECK(res->accepted && res->ran, "%s: accepted %d, ran %d: %s", name, res->accepted,
	      res->ran, res->accepted ? res->text : res->message);
	if (res->accepted && res->ran)
		return true;
	kdiff_result__free(res);
	return false;
}

/* A jump over 32767 instructions, a bpf_get_prandom_u32 call among them: the recording copy
 * cannot be made (the jump would no longer reach), so the run is not compared, with that
 * reason; the kernel accepts the original and its verdict stands. */
static void far_case(void)
{
	static const char head[] = "-- asm\nr7 = *(u32 *)(r1 +0)\nif r7 == 0 goto end\n"
				   "call bpf_get_prandom_u32\n";
	static const char fill[] = "r0 = 0\n";
	static const char tail[] = "end: r0 = 0\nexit\n-- type\nsocket\n";
	size_t n = sizeof(head) + 32766 * (sizeof(fill) - 1) + sizeof(tail);
	char *text = malloc(n), *at = text;
	struct kdiff_result res;

	if (!text) {
		CHECK(0, "far: out of memory");
		return;
	}
	at += sprintf(at, "%s", head);
	for (int k = 0; k < 32766; k++)
		at += sprintf(at, "%s", fill);
	sprintf(at, "%s", tail);
	if (run("a jump over 32767 instructions", text, &res, false, false)) {
		CHECK(res.nondeterministic && res.nc == KDIFF_NC_RECORD_FAILED && !res.replay,
		      "far: compared %d (%s): %s", !res.nondeterministic, kdiff_nc_name(res.nc),
		      res.text);
		kdiff_result__free(&res);
	}
	free(text);
}

int main(void)
{
	struct kdiff_result a, b, old;
	char why[256];
	size_t fds;

	insert_cases();
	if (!kernel_available(why, sizeof(why)))
		return check_skip("test_kdiff_replay", "%s", why);
	fds = open_fds();
	if (run("prandom x16", PRAND_HASH("16"), &a, false, false)) {
		CHECK(!a.nondeterministic && a.nc == KDIFF_NC_NONE && a.replay &&
			      a.replayed == 16 && a.kind == KDIFF_AGREE && a.same_retval &&
			      a.maps_compared == 1,
		      "prandom x16: compared %d (%s), replayed %d %llu, %s: %s",
		      !a.nondeterministic, kdiff_nc_name(a.nc), a.replay,
		      (unsigned long long)a.replayed, kdiff_kind_name(a.kind), a.text);
		if (run("prandom x16 again", PRAND_HASH("16"), &b, false, false)) {
			CHECK(b.kind == KDIFF_AGREE && b.kernel_retval != a.kernel_retval,
			      "prandom x16: two runs: %s, kernel r0 %#x and %#x",
			      kdiff_kind_name(b.kind), a.kernel_retval, b.kernel_retval);
			kdiff_result__free(&b);
		}
		if (run("prandom x16, the old rule", PRAND_HASH("16"), &old, true, false)) {
			CHECK(old.nondeterministic && old.nc == KDIFF_NC_HELPER && !old.replay,
			      "no_replay: compared %d (%s)", !old.nondeterministic,
			      kdiff_nc_name(old.nc));
			/* the verdict's view is the original program's either way */
			CHECK(old.processed == a.processed &&
				      old.claims.nranges == a.claims.nranges &&
				      old.prog_type == a.prog_type,
			      "the recording changed what the verifier said: processed %ld/%ld, "
			      "claims %u/%u", a.processed, old.processed, a.claims.nranges,
			      old.claims.nranges);
			kdiff_result__free(&old);
		}
		kdiff_result__free(&a);
	}
	changed_at = 0;
	if (run("prandom x16, a broken replay", PRAND_HASH("16"), &a, false, true)) {
		CHECK(changed_at == 2 && !a.nondeterministic && a.kind == KDIFF_RETVAL &&
			      !a.same_retval,
		      "broken replay: compared %d (%s), %s: %s", !a.nondeterministic,
		      kdiff_nc_name(a.nc), kdiff_kind_name(a.kind), a.text);
		kdiff_result__free(&a);
	}
	if (run("the other replayed helpers", OTHERS, &a, false, false)) {
		CHECK(!a.nondeterministic && a.replay && a.replayed == 8 && a.kind == KDIFF_AGREE,
		      "others: compared %d (%s), replayed %llu, %s: %s", !a.nondeterministic,
		      kdiff_nc_name(a.nc), (unsigned long long)a.replayed, kdiff_kind_name(a.kind),
		      a.text);
		kdiff_result__free(&a);
	}
	if (run("prandom x5000", PRAND_HASH("5000"), &a, false, false)) {
		CHECK(a.nondeterministic && a.nc == KDIFF_NC_REPLAY_SHORT && a.replay,
		      "prandom x5000: compared %d (%s)", !a.nondeterministic, kdiff_nc_name(a.nc));
		kdiff_result__free(&a);
	}
	if (run("bpf_get_current_comm", COMM, &a, false, false)) {
		CHECK(a.nondeterministic && a.nc == KDIFF_NC_HELPER && !a.replay,
		      "comm: compared %d (%s)", !a.nondeterministic, kdiff_nc_name(a.nc));
		kdiff_result__free(&a);
	}
	far_case();
	CHECK(open_fds() == fds, "file descriptors: %zu before, %zu after", fds, open_fds());
	printf("test_kdiff_replay: helper results replayed from the kernel's run\n");
	return check_done("test_kdiff_replay");
}
