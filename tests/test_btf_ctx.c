/* BTF-typed contexts (struct ebpf_btf_ctx: fentry, fexit, fmod_ret, lsm, tp_btf), judged by the
 * running kernel (where it verifies them: this one refuses fentry, fexit, fmod_ret and lsm loads
 * with EPERM before its verifier runs, and those parts are skipped with that reason):
 *  - resolution: the attach target's slots from vmlinux BTF (do_unlinkat: an int and a struct
 *    pointer; fexit adds the return value; the sched_switch tracepoint skips its void *__data),
 *    and the reasons when a section names no target the kernel has;
 *  - ebpf_btf_ctx_access against btf_ctx_access's rules (a multiple of 8, a slot the function
 *    has, a readable type);
 *  - the clang-built tests/bpf/btf_ctx.c (arguments, narrow and mid-slot reads, a write, a
 *    return of 1, the return value of fexit, a tracepoint's arguments, bpf_skc_to_tcp_sock and
 *    bpf_get_current_task_btf, bpf_strncmp on a trusted task's comm, a register holding objects
 *    of two structs on two paths): our verdict against the kernel's, loaded with the target's BTF
 *    id; the load through a struct pointer argument is
 *    the false alarm left (kernel accepts, bpfscev unsafe).
 * Without vmlinux BTF the test is skipped; without bpf(), the kernel part is.
 */
#include <stdlib.h>
#include <string.h>

#include "bpf/prog.h"
#include "oracle/kernel/kernel.h"
#include "tests/check.h"
#include "tests/verdict_case.h"
#include "triage/verdict.h"

static void resolve(void)
{
	struct ebpf_btf_ctx c;

	CHECK(ebpf_btf_ctx_resolve(&c, "fentry/do_unlinkat"), "fentry/do_unlinkat: %s", c.why);
	CHECK_EQ_U64(c.nslots, 2, "fentry/do_unlinkat");
	CHECK_EQ_U64(c.slot[0], EBPF_SLOT_SCALAR, "fentry/do_unlinkat");
	CHECK_EQ_U64(c.slot[1], EBPF_SLOT_PTR, "fentry/do_unlinkat");
	CHECK_EQ_U64(c.attach_type, BPF_TRACE_FENTRY, "fentry/do_unlinkat");
	CHECK(c.attach_btf_id > 0, "fentry/do_unlinkat: no BTF id");

	CHECK(ebpf_btf_ctx_resolve(&c, "fexit/do_unlinkat"), "fexit/do_unlinkat: %s", c.why);
	CHECK_EQ_U64(c.nslots, 3, "fexit/do_unlinkat");
	CHECK_EQ_U64(c.slot[2], EBPF_SLOT_SCALAR, "fexit/do_unlinkat");

	CHECK(ebpf_btf_ctx_resolve(&c, "tp_btf/sched_switch"), "tp_btf/sched_switch: %s", c.why);
	CHECK_EQ_U64(c.nslots, 4, "tp_btf/sched_switch");
	CHECK_EQ_U64(c.slot[0], EBPF_SLOT_SCALAR, "tp_btf/sched_switch");
	CHECK_EQ_U64(c.slot[1], EBPF_SLOT_PTR, "tp_btf/sched_switch");
	CHECK_EQ_U64(c.slot[3], EBPF_SLOT_SCALAR, "tp_btf/sched_switch");
	CHECK_EQ_U64(c.attach_type, BPF_TRACE_RAW_TP, "tp_btf/sched_switch");

	CHECK(!ebpf_btf_ctx_resolve(&c, "fentry/bpfscev_no_such_function") &&
	      strstr(c.why, "no function") && !c.attach_btf_id, "no such function: '%s'", c.why);
	CHECK(!ebpf_btf_ctx_resolve(&c, "tp_btf/bpfscev_no_such_event") &&
	      strstr(c.why, "no tracepoint"), "no such tracepoint: '%s'", c.why);
	CHECK(!ebpf_btf_ctx_resolve(&c, "fentry/") && strstr(c.why, "no single target"),
	      "fentry/: '%s'", c.why);
	/* an LSM hook: bpf_lsm_file_open(struct file *) -> int, then its return value */
	CHECK(ebpf_btf_ctx_resolve(&c, "lsm/file_open"), "lsm/file_open: %s", c.why);
	CHECK_EQ_U64(c.nslots, 2, "lsm/file_open");
	CHECK_EQ_U64(c.slot[0], EBPF_SLOT_PTR, "lsm/file_open");
	CHECK_EQ_U64(c.slot[1], EBPF_SLOT_SCALAR, "lsm/file_open");
	CHECK_EQ_U64(c.attach_type, BPF_LSM_MAC, "lsm/file_open");
	CHECK_EQ_U64(c.ret, EBPF_BTF_RET_INT, "lsm/file_open");
	CHECK(ebpf_btf_ctx_resolve(&c, "fmod_ret/do_unlinkat"), "fmod_ret/do_unlinkat: %s", c.why);
	CHECK_EQ_U64(c.nslots, 3, "fmod_ret/do_unlinkat");
	CHECK_EQ_U64(c.attach_type, BPF_MODIFY_RETURN, "fmod_ret/do_unlinkat");
	CHECK(!ebpf_btf_ctx_resolve(&c, "lsm/bpfscev_no_such_hook") &&
	      strstr(c.why, "no LSM hook"), "no such hook: '%s'", c.why);
	CHECK(!ebpf_btf_ctx_resolve(&c, "struct_ops/bpfscev") && strstr(c.why, "only fentry/"),
	      "struct_ops/: '%s'", c.why);	/* (iter/: test_iter_ctx) */
}

static void access(void)
{
	struct ebpf_btf_ctx c = { .attach_btf_id = 1, .attach_type = BPF_TRACE_FEXIT, .nslots = 4,
				  .slot = { EBPF_SLOT_SCALAR, EBPF_SLOT_PTR, EBPF_SLOT_PTR_SCALAR,
					    EBPF_SLOT_BAD } };
	static const struct {
		int64_t off;
		unsigned size;
		bool ok;
	} t[] = {
		{ 0, 8, true }, { 0, 4, true }, { 0, 1, true }, { 8, 8, true }, { 16, 8, true },
		{ 8, 2, false }, { 8, 4, false }, { 16, 4, false },	/* pointers: whole */
		{ 4, 4, false }, { 12, 4, false }, { 2, 2, false }, { -8, 8, false },
		{ 24, 8, false },	/* a void return value */
		{ 32, 8, false }, { 96, 8, false }, { 4, 8, false },
	};

	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		const char *why = ebpf_btf_ctx_access(&c, t[k].off, t[k].size);

		CHECK(!why == t[k].ok, "%u bytes at %lld: %s", t[k].size, (long long)t[k].off,
		      why ? why : "allowed");
	}
}

/* Whether the kernel verifies fentry programs here: some kernels refuse them before the verifier
 * walks an instruction (EPERM, no statistics: the trampoline is not theirs to make). */
static bool kernel_verifies(const char *path, const char *prog, char *why, size_t n)
{
	struct ebpf_object *obj = NULL;
	const struct ebpf_prog *p;
	struct kernel_prog *kp = NULL;
	struct diag d;
	bool ok = false;

	diag_clear(&d);
	snprintf(why, n, "the object does not open");
	if (ebpf_object__open_file(&obj, path, &d) || !(p = ebpf_object__find_prog(obj, prog))) {
		ebpf_object__free(obj);
		return false;
	}
	if (kernel_prog__load(&kp, obj, p, NULL, &d))
		snprintf(why, n, "%s", d.msg);
	else if (!(ok = kp->accepted || kp->processed >= 0))
		snprintf(why, n, "%s (errno %d, before the verifier walked an instruction)",
			 kp->message, kp->err);
	kernel_prog__free(kp);
	ebpf_object__free(obj);
	return ok;
}

/* The load through the struct argument of tp_btf_deref_btf (`prev->daddr`) moved to every offset
 * of struct task_struct (a sample of them unless BPFSCEV_BTF_SWEEP_ALL is set) and a few past
 * its end, at every size: bpfscev
 * may refuse what the kernel allows (a hole it does not walk), never the reverse, and agrees
 * with it on most. */
static void sweep(const char *path)
{
	struct ebpf_object *obj = NULL;
	struct ebpf_prog *p;
	struct diag d;
	int64_t offs[1 << 14];
	size_t noff = 0, agree = 0, stricter = 0, total = 0, at = 0;
	uint32_t tsize = 0;
	int32_t next;
	bool all = getenv("BPFSCEV_BTF_SWEEP_ALL") != NULL;

	diag_clear(&d);
	if (ebpf_object__open_file(&obj, path, &d)) {
		CHECK(0, "%s: %s", path, d.msg);
		return;
	}
	p = (struct ebpf_prog *)ebpf_object__find_prog(obj, "tp_btf_deref_btf");
	CHECK(p && p->btf_ctx.slot[1] == EBPF_SLOT_PTR, "tp_btf_deref_btf: no struct argument");
	if (!p || p->btf_ctx.slot[1] != EBPF_SLOT_PTR) {
		ebpf_object__free(obj);
		return;
	}
	/* the load through the register that ctx[1] went to */
	for (size_t k = 0, reg = 0; k < p->len && !at; k++) {
		const struct bpf_insn *i = &p->insns[k];

		if (ebpf_class(i) != BPF_LDX)
			continue;
		if (i->src_reg == BPF_REG_1 && i->off == 8)
			reg = i->dst_reg;
		else if (reg && i->src_reg == reg)
			at = k;
	}
	CHECK(at, "tp_btf_deref_btf: no load through prev");
	for (uint32_t o = 1; o < 65536 && !tsize; o++) {
		const char *why = ebpf_btf_obj_access(p->btf_ctx.obj_type[1], o, 1, &next);

		if (why && !strcmp(why, "past the end of the struct"))
			tsize = o;
	}
	/* every offset of the first 256 bytes, then one in 7 (all of them with
	 * BPFSCEV_BTF_SWEEP_ALL set: about 6,000 loads) */
	for (int64_t o = 0; o < (int64_t)tsize && noff < sizeof(offs) / sizeof(offs[0]) - 16; o++)
		if (o < 256 || all || o % 7 == 0)
			offs[noff++] = o;
	for (int64_t o = 0; o < 16; o++)
		offs[noff++] = (int64_t)tsize + o;
	for (size_t k = 0; at && k < noff; k++)
		for (unsigned sz = 1; sz <= 8; sz *= 2) {
			struct verdict_opts vo = { .sz = sizeof(vo), .kernel = true, .runs = 4 };
			struct verdict_report r;
			char name[64];

			if (offs[k] % sz || offs[k] > INT16_MAX)
				continue;
			p->insns[at].off = (int16_t)offs[k];
			p->insns[at].code = (uint8_t)(BPF_LDX | BPF_MEM |
						      (sz == 1 ? BPF_B : sz == 2 ? BPF_H :
						       sz == 4 ? BPF_W : BPF_DW));
			snprintf(name, sizeof(name), "prev+%lld, %u bytes", (long long)offs[k], sz);
			if (verdict_compare(&r, obj, p, &vo, &d)) {
				CHECK(0, "%s: %s", name, d.msg);
				continue;
			}
			total++;
			CHECK(r.cls != VC_IMPROVEMENT, "%s: bpfscev %s, kernel rejects: %s", name,
			      scev_verdict_name(r.ours.kind), r.kernel_message);
			CHECK(r.faults == 0, "%s: a safe program faulted: %s", name, r.fault);
			agree += r.cls == VC_BOTH_ACCEPT || r.cls == VC_BOTH_REJECT;
			stricter += r.cls == VC_REGRESSION;
			verdict_report__free(&r);
		}
	printf("task_struct (%u bytes): %zu loads, %zu agree with the kernel, %zu refused by "
	       "bpfscev only\n", tsize, total, agree, stricter);
	CHECK(tsize > 0, "struct task_struct's size not found");
	CHECK(total > 1000 && agree * 10 >= total * 9, "%zu of %zu loads agree", agree, total);
	ebpf_object__free(obj);
}

static void object(const char *path, bool kernel)
{
	static const char *const tp[] = {
		"tp_btf_args", "tp_btf_past_args_unsafe", "tp_btf_narrow_ret1",
		"tp_btf_mid_slot_unsafe", "tp_btf_write_unsafe", "tp_btf_ptr_arg", "tp_btf_deref_btf",
		"tp_btf_chain", "tp_btf_chain_write_unsafe", "tp_btf_past_struct_unsafe",
		"tp_btf_narrow_ptr_unsafe", "tp_btf_ptr_store", "tp_btf_scalar_plus_ptr",
		"tp_btf_ptr_and_unsafe", "tp_btf_ptr_32_unsafe", "tp_btf_ptr_unbounded_unsafe",
		"tp_btf_skc_to_tcp_sock", "tp_btf_skc_to_tcp_sock_unchecked_unsafe",
		"tp_btf_skc_to_tcp_sock_task_unsafe", "tp_btf_current_task_btf",
		"tp_btf_get_func_ip_unsafe", "tp_btf_get_func_arg_cnt_unsafe", "tp_btf_get_attach_cookie",
		"tp_btf_strncmp_comm", "tp_btf_strncmp_past_comm_unsafe",
		"tp_btf_strncmp_parent_comm_unsafe", "tp_btf_two_structs", "tp_btf_two_structs_unsafe",
	};
	static const enum scev_verdict_kind tp_want[] = {
		SAFE, UNSAFE, SAFE, UNSAFE, UNSAFE, SAFE, SAFE, SAFE, UNSAFE, UNSAFE, UNSAFE,
		SAFE, SAFE, UNSAFE, UNSAFE, UNSAFE, SAFE, UNSAFE, UNSAFE, SAFE, UNSAFE, UNSAFE, SAFE,
		SAFE, UNSAFE, UNSAFE, SAFE, UNSAFE,
	};
	static const char *const fe[] = {
		"fentry_args", "fentry_past_args_unsafe", "fentry_narrow", "fentry_mid_slot_unsafe",
		"fentry_write_unsafe", "fentry_ret1_unsafe", "fexit_ret", "fexit_past_ret_unsafe",
		"fexit_one_arg", "fentry_deref_btf",
	};
	static const enum scev_verdict_kind fe_want[] = {
		SAFE, UNSAFE, SAFE, UNSAFE, UNSAFE, UNSAFE, SAFE, UNSAFE, SAFE, SAFE,
	};
	static const char *const lsm[] = {
		"lsm_ret_eperm", "lsm_ret1_unsafe", "lsm_past_ret_unsafe", "fmod_ret_any",
	};
	static const enum scev_verdict_kind lsm_want[] = { SAFE, UNSAFE, UNSAFE, SAFE };
	static const char *const lsm_why[] = {
		NULL, "should have been in [-4095, 0] (an LSM hook returning int)",
		"the function has no such argument", NULL,
	};
	char why[600];
	bool fentry = kernel && kernel_verifies(path, "fentry_args", why, sizeof(why)), lsm_k;

	verdict_case_object(path, tp, tp_want, sizeof(tp) / sizeof(tp[0]), kernel);
	if (kernel && !fentry)
		check_skip_part("fentry/fexit against the kernel: it refuses them here: %s", why);
	verdict_case_object(path, fe, fe_want, sizeof(fe) / sizeof(fe[0]), fentry);
	lsm_k = kernel && kernel_verifies(path, "lsm_ret_eperm", why, sizeof(why)) &&
		kernel_verifies(path, "fmod_ret_any", why, sizeof(why));
	if (kernel && !lsm_k)
		check_skip_part("lsm/fmod_ret against the kernel: it refuses them here: %s", why);
	verdict_case_object_why(path, lsm, lsm_want, lsm_why, sizeof(lsm) / sizeof(lsm[0]), lsm_k);
	if (kernel)
		sweep(path);
}

int main(void)
{
	char path[1024];
	bool kernel;

	access();
	if (!ebpf_kfunc_btf_available())
		return check_skip("test_btf_ctx", "no vmlinux BTF: no BTF context to resolve");
	resolve();
	kernel = verdict_case_kernel("the kernel's verdicts");
	if (verdict_case_bpf_part("btf_ctx.o", path, sizeof(path)))
		object(path, kernel);
	return check_done("test_btf_ctx");
}
