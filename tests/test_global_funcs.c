/* Global functions as the kernel treats them (scev/absint_global.c): the loader keeps their BTF
 * prototypes (ebpf_prog.globals), each is verified on its own from them, its callers see an
 * unknown result and the memory they passed written; the clang-built tests/bpf/global_funcs.o
 * against the kernel, which the oracle loads with the same prototypes (kernel.c: func_btf).
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

static const struct ebpf_prog *prog_named(const struct ebpf_object *obj, const char *name)
{
	const struct ebpf_prog *p = ebpf_object__find_prog(obj, name);

	CHECK(p, "no program %s", name);
	return p;
}

/* The prototypes the loader read from the object's BTF. */
static void prototypes(const struct ebpf_object *obj)
{
	const struct ebpf_prog *p = prog_named(obj, "g_pair_sum");
	const struct ebpf_global_func *g;

	if (p) {
		CHECK(p->global_cnt == 1, "g_pair_sum: %zu global functions", p->global_cnt);
		g = p->global_cnt ? &p->globals[0] : NULL;
		CHECK(g && !strcmp(g->name, "pair_sum") && g->nargs == 1 &&
		      g->args[0].kind == EBPF_FARG_PTR && g->args[0].size == 8 &&
		      !strcmp(g->args[0].tname, "pair") && g->ret == EBPF_FARG_INT && !g->tagged,
		      "g_pair_sum: pair_sum(struct pair *) as read");
		CHECK(g && ebpf_prog_global(p, g->insn) == g && g->insn > 0 &&
		      !ebpf_prog_global(p, 0), "g_pair_sum: pair_sum found at its first slot only");
	}
	if ((p = prog_named(obj, "g_ctx")))
		CHECK(p->global_cnt == 1 && p->globals[0].args[0].kind == EBPF_FARG_PTR &&
		      !strcmp(p->globals[0].args[0].tname, "__sk_buff"),
		      "g_ctx: ctx_len(struct __sk_buff *)");
	if ((p = prog_named(obj, "g_scalar_arg")))
		CHECK(p->global_cnt == 1 && p->globals[0].nargs == 2 &&
		      p->globals[0].args[1].kind == EBPF_FARG_INT && p->globals[0].args[1].size == 4,
		      "g_scalar_arg: word_at(struct pair *, __u32)");
	if ((p = prog_named(obj, "g_void_ptr")))
		CHECK(p->global_cnt == 1 && p->globals[0].args[0].kind == EBPF_FARG_PTR_NOSIZE,
		      "g_void_ptr: first_byte(void *)");
	if ((p = prog_named(obj, "g_void_ret")))
		CHECK(p->global_cnt == 1 && p->globals[0].ret == EBPF_FARG_PTR_NOSIZE,
		      "g_void_ret: void pair_clear()");
}

static void verdicts(const struct ebpf_object *obj, bool kernel)
{
	static const struct {
		const char *prog;
		enum scev_verdict_kind want;
		const char *reason;
	} cases[] = {
		{ "g_pair_sum", SAFE, NULL },
		{ "g_null_arg", SAFE, NULL },
		{ "g_ctx", SAFE, NULL },
		{ "g_stack_written_masked", SAFE, NULL },
		{ "g_map_value", SAFE, NULL },
		{ "g_null_unchecked", UNSAFE, "global function's pointer argument not checked" },
		{ "g_past_type", UNSAFE, "outside the 4 bytes of a global function's argument" },
		{ "g_scalar_arg", UNSAFE, "outside the 8 bytes of a global function's argument" },
		{ "g_result_unknown", UNSAFE, "makes fp pointer be out of bounds" },
		{ "g_stack_written", UNSAFE, "stack access [-12, " },
		{ "g_void_ptr", UNSAFE, "has a type the kernel refuses" },
		{ "g_void_ret", UNSAFE, "doesn't return scalar" },
		{ "g_short_memory", UNSAFE, "stack access [-4, 4)" },
		{ "g_kprobe_ctx", SAFE, NULL },
		{ "g_kprobe_ctx_write", UNSAFE, "the context is read-only" },
		{ "g_perf_ctx", SAFE, NULL },
		{ "g_perf_ctx_past", UNSAFE, "outside the context" },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		verdict_case_prog(obj, cases[k].prog, (uint8_t)cases[k].want, cases[k].reason,
				  kernel);
}

int main(void)
{
	struct ebpf_object *obj = NULL;
	char path[1024];
	struct diag d;
	bool kernel;

	if (!verdict_case_bpf_object("global_funcs.o", path, sizeof(path)))
		return 77;
	diag_clear(&d);
	if (ebpf_object__open_file(&obj, path, &d)) {
		CHECK(0, "%s: %s", path, d.msg);
		return check_done("test_global_funcs");
	}
	kernel = verdict_case_kernel("the kernel's verdicts");
	prototypes(obj);
	verdicts(obj, kernel);
	ebpf_object__free(obj);
	return check_done("test_global_funcs");
}
