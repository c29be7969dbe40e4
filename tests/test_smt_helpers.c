/* A forged claim past every helper the interpreter runs, which Z3 must not prove (issue 15).
 *
 * Z3 once took helpers the interpreter runs as traps (the dynptr helpers: their table entry was
 * refused), which cut every path through them and "proved" whatever lay past them, wrong claims
 * included.  Here each helper gets a small program: r7 is 0, becomes 5 right after the helper's
 * call (paths that skip the call keep 0), and the claim forged at main's exit says r7 is 0.  The
 * interpreter must refute it (a run gets past the call: else the case proves nothing), and Z3
 * must not prove it: refuted or unknown.  For a helper Z3 encodes as the interpreter runs it
 * (the cases marked encoded), more: the forged claim refuted by a counterexample the
 * interpreter confirmed, and the true claim, r7 in [0, 5], proved.
 *
 * The list of helpers is the interpreter's own (interp_helper_family, its dispatch): every helper
 * of a family with a model of its own needs a hand-written case below, and the test fails for
 * one that has none, so a helper added to the interpreter cannot slip past untested.  The
 * helpers it runs from their prototype (INTERP_HF_PROTO) or whose result it draws
 * (INTERP_HF_DRAW) get a program made from the prototype, one each.  Open-coded iterators (the
 * interpreter's kfuncs) have hand cases too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/helper_proto.h"
#include "bpf/prog.h"
#include "casefile/casefile.h"
#include "claims/claims.h"
#include "claims/finding_kind.h"
#include "oracle/exec/check.h"
#include "oracle/exec/interp.h"
#include "oracle/z3/smt.h"
#include "tests/check.h"

#define TEST_RLIMIT 5000000u
#define SAFETY_MS 600000u
/* helper ids asked of the interpreter's dispatch: past the kernel's last */
#define MAX_HELPER_ID 512

/* r7 = 0 first; the helper's call; "r7 = 5" after it (SET); then the end (END). */
#define START "-- asm\nr7 = 0\n"
#define SET "r7 = 5\n"
#define END "out: r0 = 0\nexit\n"
#define KEY0 "r1 = 0\n*(u64 *)(r10 -8) = r1\n*(u64 *)(r10 -16) = r1\nr2 = r10\nr2 += -8\n"
#define LOOKUP0 "r1 = 0\n*(u32 *)(r10 -4) = r1\nr1 = map[fd:0] ll\nr2 = r10\nr2 += -4\n" \
	"call bpf_map_lookup_elem\nif r0 == 0 goto out\n"
#define FROM_MEM LOOKUP0 "r1 = r0\nr2 = 8\nr3 = 0\nr4 = r10\nr4 += -32\n" \
	"call bpf_dynptr_from_mem\n"
#define RB_DYN "r1 = map[fd:0] ll\nr2 = 8\nr3 = 0\nr4 = r10\nr4 += -32\n" \
	"call bpf_ringbuf_reserve_dynptr\n"
#define RB_DYN_END(h) "r1 = r10\nr1 += -32\nr2 = 0\ncall " h "\n"
#define RB_RES "r1 = map[fd:0] ll\nr2 = 8\nr3 = 0\ncall bpf_ringbuf_reserve\n" \
	"if r0 == 0 goto out\nr1 = r0\nr2 = 0\n"
#define TIMER_MAP "array key=4 value=32 entries=1 timer=8\n"
#define TIMER_LOOKUP LOOKUP0 "r6 = r0\n"
#define TIMER_INIT "r1 = r6\nr1 += 8\nr2 = map[fd:0] ll\nr3 = 1\ncall bpf_timer_init\n"
#define TIMER_CB "r1 = r6\nr1 += 8\nr2 = func cb ll\ncall bpf_timer_set_callback\n"
#define CB_END "cb: r0 = 0\nexit\n"
#define LOCK_MAP "array key=4 value=32 entries=1 spin_lock=4\n"
#define LOCK_LOOKUP LOOKUP0 "r6 = r0\nr1 = r6\nr1 += 4\ncall bpf_spin_lock\n"
#define UNLOCK "r1 = r6\nr1 += 4\ncall bpf_spin_unlock\n"
#define ITER_NEW "r1 = r10\nr1 += -8\nr2 = 0\nr3 = 3\ncall bpf_iter_num_new\n"
#define ITER_NEXT "r1 = r10\nr1 += -8\ncall bpf_iter_num_next\n"
#define ITER_DESTROY "r1 = r10\nr1 += -8\ncall bpf_iter_num_destroy\n"

/* lookup, update and delete of key 0 in the map the maps section defines */
#define MAP_CASES(kind, maps)                                                                   \
	{ kind " lookup", BPF_FUNC_map_lookup_elem, START KEY0                              \
	  "r1 = map[fd:0] ll\ncall bpf_map_lookup_elem\n" SET END maps },                       \
	{ kind " update", BPF_FUNC_map_update_elem, START KEY0                              \
	  "r1 = map[fd:0] ll\nr3 = r10\nr3 += -16\nr4 = 0\ncall bpf_map_update_elem\n" SET END  \
	  maps },                                                                               \
	{ kind " delete", BPF_FUNC_map_delete_elem, START KEY0                              \
	  "r1 = map[fd:0] ll\ncall bpf_map_delete_elem\n" SET END maps }

/* The hand cases: the helper each stands for, and its case file. */
static const struct {
	const char *what;
	int32_t id;		/* -1: a kfunc */
	const char *text;
	bool encoded;		/* Z3 encodes it: refuted, and the true claim proved */
} hand[] = {
	MAP_CASES("array", "-- maps\narray key=4 value=8 entries=4\n"),
	MAP_CASES("hash", "-- maps\nhash key=8 value=8 entries=4\n"),
	/* (cpu 1: another CPU's copy, INTERP_VA_PCPU) */
	{ "lookup_percpu_elem", BPF_FUNC_map_lookup_percpu_elem, START KEY0
	  "r1 = map[fd:0] ll\nr3 = 1\ncall bpf_map_lookup_percpu_elem\n" SET END
	  "-- maps\npercpu_array key=4 value=8 entries=4\n", true },
	{ "trace_printk", BPF_FUNC_trace_printk, START
	  "r1 = 0\n*(u64 *)(r10 -8) = r1\nr1 = r10\nr1 += -8\nr2 = 8\ncall bpf_trace_printk\n"
	  SET END },
	{ "tail_call", BPF_FUNC_tail_call, START
	  "r2 = map[fd:0] ll\nr3 = 0\ncall bpf_tail_call\n" SET END
	  "-- maps\narray key=4 value=4 entries=1\n" },
	{ "ringbuf reserve", BPF_FUNC_ringbuf_reserve, START
	  "r1 = map[fd:0] ll\nr2 = 8\nr3 = 0\ncall bpf_ringbuf_reserve\n" SET
	  "if r0 == 0 goto out\nr1 = r0\nr2 = 0\ncall bpf_ringbuf_discard\n" END
	  "-- maps\nringbuf entries=4096\n" },
	{ "ringbuf submit", BPF_FUNC_ringbuf_submit, START RB_RES
	  "call bpf_ringbuf_submit\n" SET END "-- maps\nringbuf entries=4096\n" },
	{ "ringbuf discard", BPF_FUNC_ringbuf_discard, START RB_RES
	  "call bpf_ringbuf_discard\n" SET END "-- maps\nringbuf entries=4096\n" },
	{ "dynptr_from_mem", BPF_FUNC_dynptr_from_mem, START FROM_MEM SET END
	  "-- maps\narray key=4 value=16 entries=1\n" },
	{ "dynptr_read", BPF_FUNC_dynptr_read, START FROM_MEM
	  "r1 = r10\nr1 += -8\nr2 = 4\nr3 = r10\nr3 += -32\nr4 = 0\nr5 = 0\n"
	  "call bpf_dynptr_read\n" SET END "-- maps\narray key=4 value=16 entries=1\n" },
	{ "dynptr_write", BPF_FUNC_dynptr_write, START
	  "r1 = 0\n*(u64 *)(r10 -16) = r1\n" FROM_MEM
	  "r1 = r10\nr1 += -32\nr2 = 0\nr3 = r10\nr3 += -16\nr4 = 4\nr5 = 0\n"
	  "call bpf_dynptr_write\n" SET END "-- maps\narray key=4 value=16 entries=1\n" },
	{ "dynptr_data", BPF_FUNC_dynptr_data, START FROM_MEM
	  "r1 = r10\nr1 += -32\nr2 = 0\nr3 = 4\ncall bpf_dynptr_data\n" SET END
	  "-- maps\narray key=4 value=16 entries=1\n" },
	{ "ringbuf_reserve_dynptr", BPF_FUNC_ringbuf_reserve_dynptr, START RB_DYN SET
	  RB_DYN_END("bpf_ringbuf_discard_dynptr") END "-- maps\nringbuf entries=4096\n" },
	{ "ringbuf_submit_dynptr", BPF_FUNC_ringbuf_submit_dynptr, START RB_DYN
	  RB_DYN_END("bpf_ringbuf_submit_dynptr") SET END "-- maps\nringbuf entries=4096\n" },
	{ "ringbuf_discard_dynptr", BPF_FUNC_ringbuf_discard_dynptr, START RB_DYN
	  RB_DYN_END("bpf_ringbuf_discard_dynptr") SET END "-- maps\nringbuf entries=4096\n" },
	{ "timer_init", BPF_FUNC_timer_init, START TIMER_LOOKUP TIMER_INIT SET END
	  "-- maps\n" TIMER_MAP },
	{ "timer_set_callback", BPF_FUNC_timer_set_callback, START TIMER_LOOKUP TIMER_INIT
	  TIMER_CB SET END CB_END "-- maps\n" TIMER_MAP },
	{ "timer_start", BPF_FUNC_timer_start, START TIMER_LOOKUP TIMER_INIT TIMER_CB
	  "r1 = r6\nr1 += 8\nr2 = 1000\nr3 = 0\ncall bpf_timer_start\n" SET END CB_END
	  "-- maps\n" TIMER_MAP },
	{ "timer_cancel", BPF_FUNC_timer_cancel, START TIMER_LOOKUP TIMER_INIT
	  "r1 = r6\nr1 += 8\ncall bpf_timer_cancel\n" SET END "-- maps\n" TIMER_MAP },
	{ "spin_lock", BPF_FUNC_spin_lock, START LOCK_LOOKUP SET UNLOCK END "-- maps\n" LOCK_MAP },
	{ "spin_unlock", BPF_FUNC_spin_unlock, START LOCK_LOOKUP UNLOCK SET END
	  "-- maps\n" LOCK_MAP },
	{ "bpf_loop", BPF_FUNC_loop, START
	  "r1 = 3\nr2 = func cb ll\nr3 = 0\nr4 = 0\ncall bpf_loop\n" SET END CB_END },
	{ "for_each_map_elem", BPF_FUNC_for_each_map_elem, START
	  "r1 = map[fd:0] ll\nr2 = func cb ll\nr3 = 0\nr4 = 0\ncall bpf_for_each_map_elem\n" SET
	  END CB_END "-- maps\narray key=4 value=8 entries=4\n" },
	{ "find_vma", BPF_FUNC_find_vma, START
	  "r1 = 0\n*(u64 *)(r10 -8) = r1\nr2 = 4096\nr3 = func cb ll\nr4 = r10\nr4 += -8\n"
	  "r5 = 0\ncall bpf_find_vma\n" SET END CB_END },
	{ "user_ringbuf_drain", BPF_FUNC_user_ringbuf_drain, START
	  "r1 = map[fd:0] ll\nr2 = func cb ll\nr3 = 0\nr4 = 0\ncall bpf_user_ringbuf_drain\n"
	  SET END CB_END "-- maps\nuser_ringbuf entries=4096\n" },
	{ "get_local_storage", BPF_FUNC_get_local_storage, START
	  "r1 = map[fd:0] ll\nr2 = 0\ncall bpf_get_local_storage\n" SET END
	  "-- maps\ncgroup_storage key=16 value=8 entries=0\n" },
	/* (a socket of a lookup: the interpreter's drawn, released after) */
	{ "sk_storage_get", BPF_FUNC_sk_storage_get, "-- type\ntc\n" START
	  "r2 = 0\n*(u64 *)(r10 -16) = r2\n*(u64 *)(r10 -8) = r2\nr2 = r10\nr2 += -16\n"
	  "r3 = 12\nr4 = -1\nr5 = 0\ncall bpf_sk_lookup_tcp\nif r0 == 0 goto out\nr6 = r0\n"
	  "r1 = map[fd:0] ll\nr2 = r6\nr3 = 0\nr4 = 1\ncall bpf_sk_storage_get\n" SET
	  "r1 = r6\ncall bpf_sk_release\n" END "-- maps\nsk_storage key=4 value=8 entries=0\n" },
	/* the interpreter's kfuncs: the open-coded number iterator */
	{ "bpf_iter_num_new", -1, START ITER_NEW SET ITER_DESTROY END },
	{ "bpf_iter_num_next", -1, START ITER_NEW ITER_NEXT SET ITER_DESTROY END },
	{ "bpf_iter_num_destroy", -1, START ITER_NEW ITER_DESTROY SET END },
};

/* The claim: r7 in [0, hi] at main's first exit (hi 0: forged; 5: true). */
static const char claim_fmt[] =
	"{\"programs\": [{\"name\": \"forged\", \"loops\": [], \"ranges\": [{\"pc\": %u, "
	"\"loc\": \"r7\", \"umin\": 0, \"umax\": %u, \"smin\": 0, \"smax\": %u, \"u32_min\": 0, "
	"\"u32_max\": %u, \"s32_min\": 0, \"s32_max\": %u}]}]}";

static unsigned z3_refuted, z3_unknown, z3_proved;

/* Z3 on the true claim r7 in [0, 5] at pc: proved. */
static void true_proved(struct ebpf_object *obj, unsigned pc, const char *what)
{
	struct smt_opts zo = { .sz = sizeof(zo), .rlimit = TEST_RLIMIT, .timeout_ms = SAFETY_MS };
	struct claims *claims = NULL;
	const struct smt_claim_result *c;
	struct smt_result r;
	char cj[512];
	struct diag d;

	diag_clear(&d);
	snprintf(cj, sizeof(cj), claim_fmt, pc, 5, 5, 5, 5);
	if (claims_read(&claims, cj, strlen(cj), &d)) {
		CHECK(0, "%s: claims: %s", what, d.msg);
		return;
	}
	if (smt_check(&r, obj, &obj->progs[0], &claims->progs[0], &zo) == 0) {
		c = r.nclaims == 1 ? &r.claims[0] : NULL;
		CHECK(c && c->verdict == SMT_PROVED, "%s: Z3 does not prove the true claim r7 in "
		      "[0, 5] (%s: %s)", what, c ? smt_verdict_name(c->verdict) : "none",
		      c ? c->reason : "no result");
		smt_result__free(&r);
	} else {
		CHECK(0, "%s: smt_check failed", what);
	}
	claims__free(claims);
}

/* The case: the interpreter refutes the claim; Z3 does not prove it (encoded: refutes it with
 * a counterexample the interpreter confirmed, and proves the true claim). */
static void forged(const char *what, const char *text, bool encoded)
{
	struct smt_opts zo = { .sz = sizeof(zo), .rlimit = TEST_RLIMIT, .timeout_ms = SAFETY_MS };
	struct check_opts co = { .sz = sizeof(co) };
	struct ebpf_object *obj = NULL;
	struct claims *claims = NULL;
	struct check_result cr;
	struct smt_result r;
	const struct ebpf_prog *p;
	bool refuted = false;
	unsigned pc = UINT32_MAX;
	char cj[512];
	struct diag d;

	diag_clear(&d);
	if (casefile__open_object_mem(&obj, text, strlen(text), what, &d)) {
		CHECK(0, "%s: %s (line %d)", what, d.msg, d.line);
		return;
	}
	p = &obj->progs[0];
	for (size_t k = 0; k < p->len && pc == UINT32_MAX; k++)
		if (p->insns[k].code == (BPF_JMP | BPF_EXIT))
			pc = (unsigned)k;
	snprintf(cj, sizeof(cj), claim_fmt, pc, 0, 0, 0, 0);
	if (claims_read(&claims, cj, strlen(cj), &d)) {
		CHECK(0, "%s: claims: %s", what, d.msg);
		ebpf_object__free(obj);
		return;
	}
	if (oracle_check(&cr, obj, p, &claims->progs[0], &co) == 0) {
		for (uint32_t k = 0; k < cr.nfindings; k++)
			refuted |= cr.findings[k].kind == FIND_RANGE && cr.findings[k].claim == 0;
		CHECK(refuted, "%s: the interpreter does not refute the forged claim (no run gets "
		      "past the call%s%s): the case proves nothing", what,
		      cr.nfindings ? ": " : "", cr.nfindings ? cr.findings[0].text : "");
		check_result__free(&cr);
	} else {
		CHECK(0, "%s: oracle_check failed", what);
	}
	if (smt_check(&r, obj, p, &claims->progs[0], &zo) == 0) {
		const struct smt_claim_result *c = r.nclaims == 1 ? &r.claims[0] : NULL;

		CHECK(!encoded || (c && c->verdict == SMT_REFUTED &&
				   c->method == SMT_BY_COUNTEREXAMPLE && c->finding >= 0 &&
				   r.findings[c->finding].kind == FIND_RANGE),
		      "%s: Z3 does not refute the forged claim r7 = 0 with a counterexample the "
		      "interpreter confirms (%s: %s)", what, c ? smt_verdict_name(c->verdict) : "none",
		      c ? c->reason : "no result");
		CHECK(r.encoding_bugs == 0, "%s: %u encoding findings", what, r.encoding_bugs);
		CHECK(c && c->verdict != SMT_PROVED, "%s: Z3 proves the forged claim r7 = 0 past "
		      "the call (%s): the paths through the helper are cut", what,
		      c ? c->reason : "no result");
		if (c && c->verdict == SMT_PROVED)
			z3_proved++;
		else if (c && c->verdict == SMT_REFUTED)
			z3_refuted++;
		else if (c)
			z3_unknown++;
		smt_result__free(&r);
	} else {
		CHECK(0, "%s: smt_check failed", what);
	}
	if (encoded)
		true_proved(obj, pc, what);
	claims__free(claims);
	ebpf_object__free(obj);
}

/* A program for a helper run from its prototype or with a drawn result: every argument made
 * of what its kind asks (a map, 8 zeroed bytes of stack as key, value (or one the helper writes)
 * or memory with the size 8 after it, or as 8 aligned bytes the helper writes, the context, a
 * socket bpf_sk_lookup_tcp found, a kernel object, a read-only map's string), the call, r7 = 5.  NULL when an argument is of a kind not made here. */
static char *proto_case(int32_t id)
{
	const struct ebpf_helper_proto *p = ebpf_helper_proto(id);
	const char *name = ebpf_helper_name(id);
	size_t cap = 4096, n = 0;
	char *t = malloc(cap);
	bool map = false, str = false;

	if (!t || !name)
		goto fail;
	n += (size_t)snprintf(t + n, cap - n, START "r6 = r1\nr1 = 0\n");
	for (int o = 8; o <= 64; o += 8)
		n += (size_t)snprintf(t + n, cap - n, "*(u64 *)(r10 -%d) = r1\n", o);
	/* a socket argument: one a lookup of a zeroed tuple found (the runs draw whether), in r8;
	 * a kernel object (HARG_BTF_ID: the interpreter takes any), bpf_get_current_task_btf's */
	for (int k = 0; p && k < 5; k++)
		if (p->args[k] == HARG_SOCK_COMMON || p->args[k] == HARG_BTF_SOCK_COMMON) {
			n += (size_t)snprintf(t + n, cap - n, "r1 = r6\nr2 = r10\nr2 += -64\n"
					      "r3 = 12\nr4 = -1\nr5 = 0\ncall bpf_sk_lookup_tcp\n"
					      "if r0 == 0 goto out\nr8 = r0\n");
			break;
		} else if (p->args[k] == HARG_BTF_ID) {
			n += (size_t)snprintf(t + n, cap - n, "call bpf_get_current_task_btf\n"
					      "r8 = r0\n");
			break;
		}
	for (int k = 0; p && k < 5; k++) {
		unsigned reg = (unsigned)k + 1;

		switch (p->args[k]) {
		case HARG_NONE:
			k = 5;
			break;
		case HARG_MAP:
			n += (size_t)snprintf(t + n, cap - n, "r%u = map[fd:0] ll\n", reg);
			map = true;
			break;
		case HARG_MAP_KEY:
		case HARG_MAP_VALUE:
		case HARG_MAP_VALUE_OUT:
			n += (size_t)snprintf(t + n, cap - n, "r%u = r10\nr%u += -16\n", reg, reg);
			break;
		case HARG_CONST_STR:	/* (map 1's read-only "a") */
			n += (size_t)snprintf(t + n, cap - n, "r%u = map[fd:1]+0 ll\n", reg);
			str = true;
			break;
		case HARG_MEM:
		case HARG_MEM_OR_NULL:
		case HARG_MEM_RW:
		case HARG_MEM_RW_OR_NULL:
		case HARG_MEM_UNINIT:
			n += (size_t)snprintf(t + n, cap - n, "r%u = r10\nr%u += -64\n", reg, reg);
			break;
		case HARG_LONG_OUT:	/* (8 bytes aligned to 8) */
		case HARG_U32_INOUT:	/* (4 bytes aligned to 4) */
			n += (size_t)snprintf(t + n, cap - n, "r%u = r10\nr%u += -24\n", reg, reg);
			break;
		case HARG_CTX:
			n += (size_t)snprintf(t + n, cap - n, "r%u = r6\n", reg);
			break;
		case HARG_SIZE:
		case HARG_SIZE_OR_ZERO:
			n += (size_t)snprintf(t + n, cap - n, "r%u = 8\n", reg);
			break;
		case HARG_SOCK_COMMON:
		case HARG_BTF_SOCK_COMMON:
		case HARG_BTF_ID:
			n += (size_t)snprintf(t + n, cap - n, "r%u = r8\n", reg);
			break;
		default:
			n += (size_t)snprintf(t + n, cap - n, "r%u = 0\n", reg);
			break;
		}
	}
	n += (size_t)snprintf(t + n, cap - n, "call %s\n" SET END, name);
	if (map || str)
		n += (size_t)snprintf(t + n, cap - n, "-- maps\narray key=8 value=8 entries=1\n");
	if (str)
		n += (size_t)snprintf(t + n, cap - n, "array key=4 value=8 entries=1 rdonly_prog "
				      "init=6100\n");
	if (n < cap)
		return t;
fail:
	free(t);
	return NULL;
}

int main(void)
{
	static const char *const fam_name[] = {
		[INTERP_HF_NONE] = "none", [INTERP_HF_MAP] = "map", [INTERP_HF_PRINTK] = "printk",
		[INTERP_HF_TAIL_CALL] = "tail call", [INTERP_HF_RINGBUF] = "ringbuf",
		[INTERP_HF_DYNPTR] = "dynptr", [INTERP_HF_DP_MAKE] = "dynptr make",
		[INTERP_HF_TIMER] = "timer", [INTERP_HF_LOCK] = "spin lock",
		[INTERP_HF_CALLBACK] = "callback",
		[INTERP_HF_DRAW] = "drawn result", [INTERP_HF_PROTO] = "prototype",
	};
	unsigned per_fam[INTERP_HF_PROTO + 1] = { 0 }, made = 0;

	for (size_t k = 0; k < sizeof(hand) / sizeof(hand[0]); k++)
		forged(hand[k].what, hand[k].text, hand[k].encoded);
	for (int32_t id = 0; id < MAX_HELPER_ID; id++) {
		enum interp_helper_family f = interp_helper_family(id);
		bool has = false;

		per_fam[f]++;
		if (f == INTERP_HF_NONE)
			continue;
		if (f == INTERP_HF_PROTO || f == INTERP_HF_DRAW) {
			char *t = proto_case(id);

			CHECK(t != NULL, "helper %s (id %d): no program made for it",
			      ebpf_helper_name(id) ? ebpf_helper_name(id) : "?", id);
			if (t) {
				forged(ebpf_helper_name(id), t, false);
				made++;
			}
			free(t);
			continue;
		}
		for (size_t k = 0; k < sizeof(hand) / sizeof(hand[0]) && !has; k++)
			has = hand[k].id == id;
		CHECK(has, "helper %s (id %d), family %s, has no forged case here",
		      ebpf_helper_name(id) ? ebpf_helper_name(id) : "?", id, fam_name[f]);
	}
	for (int f = 1; f <= INTERP_HF_PROTO; f++)
		printf("family %-13s %u helpers\n", fam_name[f], per_fam[f]);
	printf("%zu hand cases, %u made from prototypes; Z3: %u refuted, %u unknown, %u proved\n",
	       sizeof(hand) / sizeof(hand[0]), made, z3_refuted, z3_unknown, z3_proved);
	return check_done("test_smt_helpers");
}
