/* Dynptr and open-coded iterator slots at offsets the kernel refuses (stack_slot_obj_get_spi:
 * 8-aligned; a dynptr's two slots below the frame pointer), in the main function's frame and in
 * a caller's frame handed to a static subprogram (scev/absint_dynptr.c, absint_iter.c): a
 * ringbuf dynptr at fp-20 and fp-8, bpf_dynptr_read of one at fp-28, a subprogram discarding or
 * reserving its caller's at fp-28 / fp-20; bpf_iter_num_new at fp-12, fp-4, fp-20, next on one
 * at fp-12, a subprogram advancing its caller's at fp-12.  Each is judged by the kernel where
 * bpf() is allowed: both must refuse, and bpfscev's reason must hold the kernel's own line, which
 * the kernel's log must hold too ("cannot pass in dynptr at an offset=-20").  The aligned twins
 * (the same programs at fp-16 / fp-24) must be called safe and be accepted.  Without vmlinux BTF
 * the iterator part is skipped (the kfuncs cannot be named).
 */
#include <stdio.h>
#include <string.h>

#include "bpf/isa.h"
#include "tests/check.h"
#include "tests/verdict_case.h"
#include "triage/verdict.h"

/* map[fd:0]: a ring buffer of 4096 bytes */
static struct ebpf_map_def maps[] = {
	{ .name = "rb", .type = BPF_MAP_TYPE_RINGBUF, .max_entries = 4096 },
};

#define RESERVE(off) "r1 = map[fd:0] ll\nr2 = 16\nr3 = 0\nr4 = r10\nr4 += " off "\n" \
		     "call bpf_ringbuf_reserve_dynptr\n"
#define DISCARD(off) "r1 = r10\nr1 += " off "\nr2 = 0\ncall bpf_ringbuf_discard_dynptr\n"
#define READ(off) "r1 = r10\nr1 += -8\nr2 = 4\nr3 = r10\nr3 += " off "\nr4 = 0\nr5 = 0\n" \
		  "call bpf_dynptr_read\n"
#define NEW(off) "r1 = r10\nr1 += " off "\nr2 = 0\nr3 = 10\ncall bpf_iter_num_new\n"
#define NEXT(off) "r1 = r10\nr1 += " off "\ncall bpf_iter_num_next\n"
#define DESTROY(off) "r1 = r10\nr1 += " off "\ncall bpf_iter_num_destroy\n"
#define END "r0 = 0\nexit\n"

struct align_case {
	const char *name, *text;
	/* the kernel's line for the refused one (bpfscev's reason holds it); NULL: safe */
	const char *words;
};

static const struct align_case dynptr_cases[] = {
	{ "a ringbuf dynptr at fp-20", RESERVE("-20") DISCARD("-20") END,
	  "cannot pass in dynptr at an offset=-20" },
	{ "a ringbuf dynptr at fp-24", RESERVE("-24") DISCARD("-24") END, NULL },
	{ "a ringbuf dynptr at fp-8 (its second slot above the frame)",
	  RESERVE("-8") DISCARD("-8") END, "cannot pass in dynptr at an offset=-8" },
	{ "bpf_dynptr_read of a dynptr at fp-28",
	  RESERVE("-32") READ("-28") DISCARD("-32") END, "cannot pass in dynptr at an offset=-28" },
	{ "bpf_dynptr_read of the dynptr at fp-32", RESERVE("-32") READ("-32") DISCARD("-32") END,
	  NULL },
	{ "a subprogram discards its caller's dynptr at fp-28",
	  RESERVE("-32") "r1 = r10\nr1 += -28\ncall f\n" DISCARD("-32") END
	  "f: r2 = 0\ncall bpf_ringbuf_discard_dynptr\n" END,
	  "cannot pass in dynptr at an offset=-28" },
	{ "a subprogram discards its caller's dynptr at fp-32",
	  RESERVE("-32") "r1 = r10\nr1 += -32\ncall f\n" END
	  "f: r2 = 0\ncall bpf_ringbuf_discard_dynptr\n" END, NULL },
	{ "a subprogram reserves its caller's dynptr at fp-20",
	  "r1 = r10\nr1 += -20\ncall f\n" DISCARD("-24") END
	  "f: r4 = r1\nr1 = map[fd:0] ll\nr2 = 16\nr3 = 0\ncall bpf_ringbuf_reserve_dynptr\n" END,
	  "" },
};

static const struct align_case iter_cases[] = {
	{ "an iterator at fp-12", NEW("-12") DESTROY("-12") END,
	  "cannot pass in iter at an offset=-12" },
	{ "an iterator at fp-4", NEW("-4") DESTROY("-4") END,
	  "cannot pass in iter at an offset=-4" },
	{ "an iterator at fp-20", NEW("-20") DESTROY("-20") END,
	  "cannot pass in iter at an offset=-20" },
	{ "an iterator at fp-16", NEW("-16") DESTROY("-16") END, NULL },
	{ "next on an iterator at fp-12", NEW("-16") NEXT("-12") DESTROY("-16") END,
	  "cannot pass in iter at an offset=-12" },
	{ "a subprogram advances its caller's iterator at fp-12",
	  NEW("-16") "r1 = r10\nr1 += -12\ncall f\n" DESTROY("-16") END
	  "f: call bpf_iter_num_next\n" END, "cannot pass in iter at an offset=-12" },
	{ "a subprogram advances its caller's iterator at fp-16",
	  NEW("-16") "r1 = r10\nr1 += -16\ncall f\n" DESTROY("-16") END
	  "f: call bpf_iter_num_next\n" END, NULL },
};

static void judge(const struct align_case *c, bool kernel)
{
	struct ebpf_object *obj = verdict_case_open(c->name, c->text, maps,
						    sizeof(maps) / sizeof(maps[0]));
	struct verdict_opts vo = { .sz = sizeof(vo), .kernel = kernel, .full_log = true,
				   .prog_type = BPF_PROG_TYPE_XDP };
	struct verdict_report r;
	struct diag d;

	if (!obj)
		return;
	diag_clear(&d);
	if (verdict_compare(&r, obj, &obj->progs[0], &vo, &d)) {
		CHECK(0, "%s: %s", c->name, d.msg);
		verdict_case_close(obj);
		return;
	}
	/* (a reason "" : refused, by whatever comes first: here main's discard of what the
	 * subprogram never made, which the kernel does not reach) */
	verdict_case_check(c->name, &r, c->words ? VERDICT_UNSAFE : VERDICT_SAFE, c->words, kernel,
			   c->words ? VC_BOTH_REJECT : VC_BOTH_ACCEPT);
	if (kernel && c->words && *c->words)
		CHECK(r.kernel_log && strstr(r.kernel_log, c->words),
		      "%s: the kernel's log lacks '%s' (its message: %s)", c->name, c->words,
		      r.kernel_message);
	verdict_report__free(&r);
	verdict_case_close(obj);
}

int main(void)
{
	bool kernel = verdict_case_kernel("the kernel's verdicts");

	for (size_t k = 0; k < sizeof(dynptr_cases) / sizeof(dynptr_cases[0]); k++)
		judge(&dynptr_cases[k], kernel);
	if (!ebpf_kfunc_btf_available())
		check_skip_part("the iterator slots: no vmlinux BTF (the kfuncs cannot be named)");
	else
		for (size_t k = 0; k < sizeof(iter_cases) / sizeof(iter_cases[0]); k++)
			judge(&iter_cases[k], kernel);
	return check_done("test_dynptr_align");
}
