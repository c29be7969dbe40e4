/* The one-pass verdict: hand-written programs with their expected verdicts (loops bounded and
 * not, accesses in and out of bounds for every region, unwritten registers and stack bytes,
 * unmodeled helpers); generated programs called safe must run without a memory fault; and with
 * the kernel, a loop past the 1M-instruction limit is an improvement. */
#include <string.h>

#include "bpf/asm.h"
#include "generators/gen.h"
#include "oracle/kernel.h"
#include "oracle/verdict.h"
#include "tests/check.h"

#define XDP_PROLOGUE                                                                              \
	"r2 = *(u32 *)(r1 +0)\nr3 = *(u32 *)(r1 +4)\nr4 = r2\nr4 += 64\nif r4 > r3 goto out\n"
#define XDP_EPILOGUE "exit\nout: r0 = 0\nexit\n"

static const struct {
	const char *name, *text;
	uint32_t type;
	enum scev_verdict_kind want;
	const char *reason;	/* substring of the reason */
} cases[] = {
	{ "bounded packet loop", XDP_PROLOGUE "r0 = 0\nr1 = 0\nl: r5 = r2\nr6 = r1\nr6 &= 63\n"
	  "r5 += r6\nr7 = *(u8 *)(r5 +0)\nr0 += r7\nr1 += 1\nif r1 < 1000000 goto l\n" XDP_EPILOGUE,
	  BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	{ "index past the checked packet", XDP_PROLOGUE "r0 = 0\nr1 = 0\nl: r5 = r2\nr6 = r1\n"
	  "r6 &= 127\nr5 += r6\nr7 = *(u8 *)(r5 +0)\nr0 += r7\nr1 += 1\nif r1 < 100 goto l\n"
	  XDP_EPILOGUE, BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "packet access" },
	{ "loop with no bound", XDP_PROLOGUE "r0 = 0\nr1 = 1\nl: r1 += 2\nif r1 != 100 goto l\n"
	  XDP_EPILOGUE, BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "may not terminate" },
	{ "stack array indexed by an IV", "r1 = 0\nl: r2 = r10\nr3 = r1\nr3 <<= 3\nr2 += r3\n"
	  "*(u64 *)(r2 -64) = r1\nr1 += 1\nif r1 < 8 goto l\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	{ "stack array one past the end", "r1 = 0\nl: r2 = r10\nr3 = r1\nr3 <<= 3\nr2 += r3\n"
	  "*(u64 *)(r2 -64) = r1\nr1 += 1\nif r1 < 9 goto l\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "stack access" },
	{ "unwritten register", "r0 = r2\nexit\n", BPF_PROG_TYPE_XDP, VERDICT_UNSAFE,
	  "R2 may be read" },
	{ "register written on one path only", "r2 = *(u32 *)(r1 +16)\nif r2 == 0 goto l\nr3 = 1\n"
	  "l: r0 = r3\nexit\n", BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "R3 may be read" },
	{ "unwritten stack read", "r0 = *(u64 *)(r10 -8)\nexit\n", BPF_PROG_TYPE_XDP,
	  VERDICT_UNSAFE, "stack bytes" },
	{ "r1-r5 dead after a call", "call bpf_get_prandom_u32\nr0 = r1\nexit\n",
	  BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "R1 may be read" },
	{ "r2 filled again after a call in a loop", "r2 = 0\nl: if w2 == 0x492 goto o\n"
	  "*(u64 *)(r10 -40) = r2\ncall bpf_get_prandom_u32\nr2 = *(u64 *)(r10 -40)\n"
	  "r2 += 117\ngoto l\no: r0 = 0\nexit\n", BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	{ "r2 filled again on one path only", "r2 = 0\nl: if w2 == 0x492 goto o\n"
	  "*(u64 *)(r10 -40) = r2\ncall bpf_get_prandom_u32\nif r0 > 5 goto s\n"
	  "r2 = *(u64 *)(r10 -40)\nr2 += 117\ngoto l\ns: r0 = 0\ngoto l\no: r0 = 0\nexit\n",
	  BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "R2 may be read" },
	{ "packet pointer spilled across a loop that forgets another cell", XDP_PROLOGUE
	  "*(u64 *)(r10 -8) = r2\nw9 = 20\nl: r0 = *(u64 *)(r10 -8)\nr0 = *(u16 *)(r0 +26)\n"
	  "*(u64 *)(r10 -48) = r2\nw9 += -1\nif w9 s> 0 goto l\n" XDP_EPILOGUE,
	  BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	{ "a narrow cell written in a loop keeps the other spills", XDP_PROLOGUE
	  "*(u64 *)(r10 -8) = r2\nr9 = -99\nl: r0 = *(u64 *)(r10 -8)\nr0 = *(u32 *)(r0 +0)\n"
	  "*(u32 *)(r10 -56) = r0\nr9 += 1\nif r9 s< -80 goto l\n" XDP_EPILOGUE,
	  BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	{ "an IV-indexed stack write keeps the spills it cannot reach", XDP_PROLOGUE
	  "*(u64 *)(r10 -8) = r2\nr9 = 0\nl: r3 = r9\nr3 &= 7\nr3 <<= 3\nr4 = r10\nr4 += r3\n"
	  "*(u64 *)(r4 -320) = r9\nr0 = *(u64 *)(r10 -8)\nr0 = *(u16 *)(r0 +26)\nr9 += 1\n"
	  "if r9 < 20 goto l\n" XDP_EPILOGUE, BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	{ "an IV-indexed stack write that may reach the spill", XDP_PROLOGUE
	  "*(u64 *)(r10 -8) = r2\nr9 = 0\nl: r3 = r9\nr3 &= 63\nr3 <<= 3\nr4 = r10\nr4 += r3\n"
	  "*(u64 *)(r4 -512) = r9\nr0 = *(u64 *)(r10 -8)\nr0 = *(u16 *)(r0 +26)\nr9 += 1\n"
	  "if r9 < 20 goto l\n" XDP_EPILOGUE, BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "pointer" },
	{ "a register the loop forgets stays a scalar for a call's argument", XDP_PROLOGUE
	  "*(u64 *)(r10 -8) = r2\nr9 = 1\nr6 = 0\nl: r1 = r9\ncall f\nr0 = *(u64 *)(r10 -8)\n"
	  "r0 = *(u16 *)(r0 +14)\nr9 *= 3\nr9 += r0\nr6 += 1\nif r6 < 20 goto l\nr0 = 0\n"
	  "exit\nout: r0 = 0\nexit\nf: r0 = r1\nr0 &= 7\nexit\n", BPF_PROG_TYPE_XDP,
	  VERDICT_SAFE, NULL },
	{ "a counter stepped by 1 or 3 on different paths", XDP_PROLOGUE
	  "r6 = 0\nl: if r6 > 25 goto o\nr0 = r6\nr0 &= 63\nr5 = r2\nr5 += r0\n"
	  "r0 = *(u8 *)(r5 +0)\nif r0 == 0 goto t\nr6 += 1\ngoto l\nt: r6 += 3\ngoto l\n"
	  "o: r0 = 0\n" XDP_EPILOGUE, BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	{ "a counter stepped by 1 or -1 on different paths", XDP_PROLOGUE
	  "r6 = 0\nl: if r6 > 25 goto o\nr0 = r6\nr0 &= 63\nr5 = r2\nr5 += r0\n"
	  "r0 = *(u8 *)(r5 +0)\nif r0 == 0 goto t\nr6 += 1\ngoto l\nt: r6 += -1\ngoto l\n"
	  "o: r0 = 0\n" XDP_EPILOGUE, BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "terminate" },
	{ "a two-entry cycle with a counter", XDP_PROLOGUE
	  "r6 = 9\nr0 = *(u8 *)(r2 +0)\nif r0 > 0x38 goto m\nt: r7 = r6\nr7 &= 63\nr5 = r2\n"
	  "r5 += r7\nr0 = *(u8 *)(r5 +0)\nm: r6 += -1\nif r6 >= 1 goto t\nr0 = 0\n"
	  XDP_EPILOGUE, BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	{ "a two-entry cycle whose side entry reads past the packet", XDP_PROLOGUE
	  "r6 = 9\nr0 = *(u8 *)(r2 +0)\nif r0 > 0x38 goto m\nt: r6 += -1\nif r6 < 1 goto o\n"
	  "m: r5 = r2\nr5 += r6\nr0 = *(u8 *)(r5 +56)\ngoto t\no: r0 = 0\n" XDP_EPILOGUE,
	  BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "packet" },
	{ "a two-entry cycle without a bound", XDP_PROLOGUE
	  "r6 = 9\nr0 = *(u8 *)(r2 +0)\nif r0 > 0x38 goto m\nt: r6 += 1\n"
	  "m: r6 &= 7\nif r6 != 8 goto t\nr0 = 0\n" XDP_EPILOGUE, BPF_PROG_TYPE_XDP,
	  VERDICT_UNSAFE, "terminate" },
	{ "xdp_md write", "r2 = 0\n*(u32 *)(r1 +0) = r2\nr0 = 0\nexit\n", BPF_PROG_TYPE_XDP,
	  VERDICT_UNSAFE, "xdp_md" },
	{ "skb mark write", "r2 = 7\n*(u32 *)(r1 +8) = r2\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_SCHED_CLS, VERDICT_SAFE, NULL },
	{ "skb len write", "r2 = 7\n*(u32 *)(r1 +0) = r2\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_SCHED_CLS, VERDICT_UNSAFE, "__sk_buff" },
	{ "map value within bounds",
	  "r1 = map[fd:0] ll\nr2 = r10\nr2 += -4\n*(u32 *)(r10 -4) = 0\ncall bpf_map_lookup_elem\n"
	  "if r0 == 0 goto out\nr1 = 0\nl: r3 = r1\nr3 &= 7\nr3 <<= 3\nr4 = r0\nr4 += r3\n"
	  "r5 = *(u64 *)(r4 +0)\nr1 += 1\nif r1 < 100 goto l\nout: r0 = 0\nexit\n",
	  BPF_PROG_TYPE_XDP, VERDICT_SAFE, NULL },
	{ "map value without the null check",
	  "r1 = map[fd:0] ll\nr2 = r10\nr2 += -4\n*(u32 *)(r10 -4) = 0\ncall bpf_map_lookup_elem\n"
	  "r5 = *(u64 *)(r0 +0)\nr0 = 0\nexit\n", BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "NULL" },
	{ "map value past its size",
	  "r1 = map[fd:0] ll\nr2 = r10\nr2 += -4\n*(u32 *)(r10 -4) = 0\ncall bpf_map_lookup_elem\n"
	  "if r0 == 0 goto out\nr5 = *(u64 *)(r0 +64)\nout: r0 = 0\nexit\n", BPF_PROG_TYPE_XDP,
	  VERDICT_UNSAFE, "map value" },
	{ "map key not written",
	  "r1 = map[fd:0] ll\nr2 = r10\nr2 += -4\ncall bpf_map_lookup_elem\nr0 = 0\nexit\n",
	  BPF_PROG_TYPE_XDP, VERDICT_UNSAFE, "stack bytes" },
	{ "unmodeled helper", "call bpf_skb_load_bytes\nr0 = 0\nexit\n", BPF_PROG_TYPE_SCHED_CLS,
	  VERDICT_UNSUPPORTED, "not modeled" },
	{ "plain context", "r0 = *(u32 *)(r1 +0)\nexit\n", BPF_PROG_TYPE_UNSPEC,
	  VERDICT_UNSUPPORTED, "context" },
};

static struct ebpf_map_def array_map = { .name = "arr", .type = BPF_MAP_TYPE_ARRAY,
					 .key_size = 4, .value_size = 64, .max_entries = 4 };

static void test_cases(void)
{
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct ebpf_object *obj = NULL;
		struct verdict_opts vo = { .sz = sizeof(vo), .prog_type = cases[k].type };
		struct verdict_report r;
		struct diag d;

		diag_clear(&d);
		if (ebpf_object__open_mem(&obj, cases[k].text, strlen(cases[k].text), cases[k].name,
					  &d)) {
			CHECK(0, "%s: %s (line %d)", cases[k].name, d.msg, d.line);
			continue;
		}
		obj->maps = &array_map;
		obj->map_cnt = 1;
		CHECK(verdict_compare(&r, obj, &obj->progs[0], &vo, &d) == 0, "%s: %s", cases[k].name,
		      d.msg);
		CHECK(r.ours.kind == cases[k].want, "%s: verdict %s (%s), expected %s", cases[k].name,
		      scev_verdict_name(r.ours.kind), r.ours.reason, scev_verdict_name(cases[k].want));
		if (cases[k].reason)
			CHECK(strstr(r.ours.reason, cases[k].reason), "%s: reason '%s' lacks '%s'",
			      cases[k].name, r.ours.reason, cases[k].reason);
		CHECK(r.faults == 0, "%s: called safe but faults: %s", cases[k].name, r.fault);
		verdict_report__free(&r);
		obj->maps = NULL;
		obj->map_cnt = 0;
		ebpf_object__free(obj);
	}
}

/* Generated programs called safe never fault; count how many are called safe. */
static void test_generated(void)
{
	struct gen_knobs k = gen_knobs_default();
	struct gen_program gp = { 0 };
	unsigned safe = 0, total = 0;

	for (uint64_t seed = 0; seed < 300; seed++) {
		struct gen_src src;
		struct ebpf_prog view;
		struct ebpf_object obj = { 0 };
		struct verdict_opts vo = { .sz = sizeof(vo), .runs = 8, .seed = seed };
		struct verdict_report r;
		struct diag d;

		gen_src_init_seed(&src, seed);
		if (gen_program(&gp, &src, &k))
			continue;
		gen_program__prog(&gp, &view, "g");
		obj.maps = gp.maps;
		obj.map_cnt = gp.map_cnt;
		diag_clear(&d);
		if (verdict_compare(&r, &obj, &view, &vo, &d)) {
			CHECK(0, "seed %llu: %s", (unsigned long long)seed, d.msg);
			continue;
		}
		total++;
		safe += r.ours.kind == VERDICT_SAFE;
		CHECK(r.faults == 0, "seed %llu: called safe but faults: %s", (unsigned long long)seed,
		      r.fault);
		verdict_report__free(&r);
	}
	gen_program__free(&gp);
	printf("generated: %u of %u called safe\n", safe, total);
	CHECK(safe > total / 4, "only %u of %u generated programs called safe", safe, total);
}

static void test_kernel_improvement(void)
{
	char why[256];
	struct ebpf_object *obj = NULL;
	struct verdict_opts vo = { .sz = sizeof(vo), .kernel = true, .prog_type = BPF_PROG_TYPE_XDP };
	struct verdict_report r;
	struct diag d;

	if (!kernel_available(why, sizeof(why))) {
		printf("SKIP: kernel comparison: %s\n", why);
		return;
	}
	diag_clear(&d);
	CHECK(ebpf_object__open_mem(&obj, cases[0].text, strlen(cases[0].text), "big", &d) == 0,
	      "%s", d.msg);
	if (!obj)
		return;
	CHECK(verdict_compare(&r, obj, &obj->progs[0], &vo, &d) == 0, "%s", d.msg);
	CHECK(r.cls == VC_IMPROVEMENT, "a 10^6-iteration loop: class %s (kernel %s: %s)",
	      verdict_class_name(r.cls), r.kernel_accepted ? "accepted" : "rejected",
	      r.kernel_message);
	verdict_report__free(&r);
	ebpf_object__free(obj);
}

int main(void)
{
	test_cases();
	test_generated();
	test_kernel_improvement();
	return check_done("test_verify");
}
