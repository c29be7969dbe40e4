/* Z3's unknown claims carry why (session 26, smt_unknown_why, the campaign's z3_unknown_*
 * counters): a claim past an instruction the machine does not encode names that instruction
 * (smt_claim_result.cut_pc), classed as a socket helper, an iterator kfunc, another helper the
 * interpreter runs; a claim the solver's limits leave undecided is "open"; a proved one has no
 * why.  Each case places the instruction and checks the class against it (before, every unknown
 * was one count, "z3_unknown", whatever the cause).
 */
#include <stdio.h>
#include <string.h>

#include "bpf/isa.h"
#include "casefile/casefile.h"
#include "claims/claims.h"
#include "oracle/z3/smt.h"
#include "tests/check.h"

#define SAFETY_MS 600000u

/* r7 = 0; the instruction under test (CALL, at pc 1 + the slots before it); r7 = 5; exit.  The
 * claim: r7 in [0, 5] at the exit (true). */
static const char claim_fmt[] =
	"{\"programs\": [{\"name\": \"c\", \"loops\": [], \"ranges\": [{\"pc\": %u, "
	"\"loc\": \"r7\", \"umin\": 0, \"umax\": 5, \"smin\": 0, \"smax\": 5, \"u32_min\": 0, "
	"\"u32_max\": 5, \"s32_min\": 0, \"s32_max\": 5}]}]}";

/* smt_check of the claim on text; the class of its answer wanted, the cut at the call named
 * call (NULL: no cut).  rlimit 0: the test's default; else the limit of each query and of
 * the whole program. */
static void want(const char *what, const char *text, const char *call, enum smt_unknown_why w,
		 uint64_t rlimit)
{
	struct smt_opts zo = { .sz = sizeof(zo), .rlimit = rlimit ? rlimit : 5000000u,
			       .program_rlimit = rlimit, .timeout_ms = SAFETY_MS };
	struct ebpf_object *obj = NULL;
	struct claims *claims = NULL;
	struct smt_result r;
	const struct ebpf_prog *p;
	uint32_t exit_pc = UINT32_MAX, call_pc = UINT32_MAX;
	char cj[512];
	struct diag d;
	int err;

	diag_clear(&d);
	err = casefile__open_object_mem(&obj, text, strlen(text), what, &d);
	CHECK(!err, "%s: %s (line %d)", what, d.msg, d.line);
	for (uint32_t k = 0, n = err ? 0 : (uint32_t)obj->progs[0].len; k < n; k++) {
		p = &obj->progs[0];
		if (p->insns[k].code == (BPF_JMP | BPF_EXIT) && exit_pc == UINT32_MAX)
			exit_pc = k;
		if (call && ebpf_is_call(&p->insns[k]) && call_pc == UINT32_MAX &&
		    (ebpf_is_helper_call(&p->insns[k])
			     ? ebpf_helper_name(p->insns[k].imm) &&
				       !strcmp(ebpf_helper_name(p->insns[k].imm), call)
			     : ebpf_prog_kfunc_name(p, k) && !strcmp(ebpf_prog_kfunc_name(p, k), call)))
			call_pc = k;
	}
	if (err)
		return;
	p = &obj->progs[0];
	CHECK(!call || call_pc != UINT32_MAX, "%s: no call of %s", what, call);
	snprintf(cj, sizeof(cj), claim_fmt, exit_pc);
	if (claims_read(&claims, cj, strlen(cj), &d)) {
		CHECK(0, "%s: claims: %s", what, d.msg);
		ebpf_object__free(obj);
		return;
	}
	if (smt_check(&r, obj, p, &claims->progs[0], &zo) == 0) {
		const struct smt_claim_result *c = r.nclaims == 1 ? &r.claims[0] : NULL;
		enum smt_unknown_why got = c ? smt_unknown_why(p, c) : SMT_WHY_NR;

		CHECK(c && got == w && (w == SMT_WHY_NONE || w == SMT_WHY_OPEN ||
					c->cut_pc == call_pc),
		      "%s: %s, why %s (wanted %s), cut at %u (the call at %u): %s", what,
		      c ? smt_verdict_name(c->verdict) : "none", smt_unknown_why_name(got),
		      smt_unknown_why_name(w), c ? c->cut_pc : 0, call_pc, c ? c->reason : "-");
		smt_result__free(&r);
	} else {
		CHECK(0, "%s: smt_check failed", what);
	}
	claims__free(claims);
	ebpf_object__free(obj);
}

int main(void)
{
	static const char lookup[] =
		"-- asm\nr7 = 0\nr6 = r1\n*(u64 *)(r10 -16) = 0\n*(u64 *)(r10 -8) = 0\nr1 = r6\n"
		"r2 = r10\nr2 += -16\nr3 = 12\nr4 = -1\nr5 = 0\ncall bpf_sk_lookup_tcp\n"
		"if r0 == 0 goto out\nr1 = r0\ncall bpf_sk_release\nout: r7 = 5\nr0 = 0\nexit\n"
		"-- type\nxdp\n";
	static const char ringbuf[] =
		"-- asm\nr7 = 0\nr1 = map[fd:0] ll\nr2 = 8\nr3 = 0\ncall bpf_ringbuf_reserve\n"
		"if r0 == 0 goto out\nr1 = r0\nr2 = 0\ncall bpf_ringbuf_discard\nout: r7 = 5\n"
		"r0 = 0\nexit\n-- type\nxdp\n-- maps\nringbuf entries=4096\n";
	/* (a socket map's helpers: before, encoded as a trap, every path through the call was
	 * cut and the claim past it proved vacuously) */
	static const char sockmap_lookup[] =
		"-- asm\nr7 = 0\n*(u32 *)(r10 -4) = 0\nr2 = r10\nr2 += -4\nr1 = map[fd:0] ll\n"
		"call bpf_map_lookup_elem\nif r0 == 0 goto out\nr1 = r0\ncall bpf_sk_release\n"
		"out: r7 = 5\nr0 = 0\nexit\n-- type\nxdp\n-- maps\n"
		"sockmap key=4 value=8 entries=1\n";
	static const char sockhash_delete[] =
		"-- asm\nr7 = 0\n*(u32 *)(r10 -4) = 0\nr2 = r10\nr2 += -4\nr1 = map[fd:0] ll\n"
		"call bpf_map_delete_elem\nr7 = 5\nr0 = 0\nexit\n-- type\nxdp\n-- maps\n"
		"sockhash key=4 value=8 entries=1\n";
	static const char bits[] =
		"-- asm\nr7 = 0\n*(u64 *)(r10 -8) = 0\nr1 = r10\nr1 += -24\nr2 = r10\nr2 += -8\n"
		"r3 = 1\ncall bpf_iter_bits_new\nr1 = r10\nr1 += -24\ncall bpf_iter_bits_destroy\n"
		"r7 = 5\nr0 = 0\nexit\n-- type\nxdp\n";
	static const char plain[] =
		"-- asm\nr7 = 0\nr1 = 0\nl: r1 += 1\nif r1 < 3 goto l\nr7 = 5\nr0 = 0\nexit\n"
		"-- type\nxdp\n";

	want("a socket lookup", lookup, "bpf_sk_lookup_tcp", SMT_WHY_SOCKET, 0);
	want("a ringbuf record", ringbuf, "bpf_ringbuf_reserve", SMT_WHY_HELPER, 0);
	want("a sockmap lookup", sockmap_lookup, "bpf_map_lookup_elem", SMT_WHY_HELPER, 0);
	want("a sockhash delete", sockhash_delete, "bpf_map_delete_elem", SMT_WHY_HELPER, 0);
	if (ebpf_kfunc_by_name("bpf_iter_bits_new") > 0)
		want("the bits iterator", bits, "bpf_iter_bits_new", SMT_WHY_ITER, 0);
	else
		printf("test_smt_unknown: no bpf_iter_bits_new in this kernel's BTF: the "
		       "iterator case is left out\n");
	want("no cut, proved", plain, NULL, SMT_WHY_NONE, 0);
	want("no cut, out of resources", plain, NULL, SMT_WHY_OPEN, 1);
	printf("test_smt_unknown: unknown claims classed by why\n");
	return check_done("test_smt_unknown");
}
