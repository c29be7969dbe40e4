/* RCU read-side and non-preemptible regions (kernel/bpf/helpers.c common_btf_ids:
 * bpf_rcu_read_lock, bpf_rcu_read_unlock, bpf_preempt_disable, bpf_preempt_enable; the
 * verifier's check_kfunc_call, check_helper_call, do_check's BPF_EXIT) in the range analysis and
 * the verdict.
 *
 * The kernel counts the regions per verifier state: bpf_preempt_disable adds one to
 * active_preempt_lock and bpf_preempt_enable takes one off ("unmatched attempt to enable
 * preemption" at 0), so they nest; bpf_rcu_read_lock sets active_rcu_lock, which does not nest
 * ("nested rcu read lock"), and bpf_rcu_read_unlock clears it ("unmatched rcu read unlock").
 * Inside either region a helper that may sleep ("sleepable helper %s#%d in rcu_read_lock
 * region", "... in non-preemptible region") or a KF_SLEEPABLE kfunc, a tail call, LD_ABS/LD_IND
 * and bpf_throw are refused, and the main function's exit must find both closed (6.12:
 * "bpf_rcu_read_unlock is missing", "%d bpf_preempt_enable(s) are missing"; 6.18: "BPF_EXIT
 * instruction in main prog cannot be used inside bpf_preempt_disable-ed region").  Any program
 * type may call them (the common hook).
 *
 * Here the counts are astate.rg, each as the least and the greatest over the paths joined: a
 * rule the kernel applies on every path where a count is not 0 is unsafe when the least is not
 * 0, unsupported when only the greatest is (some paths only: bpfscev does not tell which).  What
 * is not followed is unsupported: the region kfuncs outside the main function or inside a loop
 * (a loop's header takes its entry's counts: nothing in the body may change them), a call of a
 * bpf-to-bpf function or of a helper that takes a callback while a region may be open (the
 * callee's states do not hold the counts; 6.18 also differs from 6.12 on global functions
 * there), and counts past RG_MAX.  RCU-protected pointers (MEM_RCU) are not modeled anywhere
 * (a kfunc argument walked from another object is unsupported, absint_kfunc.c), so the end of
 * an RCU region changes no pointer here.  The interpreter counts the regions the same way
 * (oracle/exec/interp.c, kfunc_plain) and traps where the kernel refuses.
 */
#include <string.h>

#include "scev/absint.h"

#include "bpf/helper_proto.h"

/* (a count at which the analysis stops following: unsupported) */
#define RG_MAX 64

#define RFAIL(kind_, ...)                                                                          \
	do {                                                                                       \
		verdict_fail(v, (kind_), pc, __VA_ARGS__);                                         \
		return;                                                                            \
	} while (0)

/* The region op of the kfunc at pc (EBPF_KOP_RCU_LOCK .. EBPF_KOP_PREEMPT_ON), else 0. */
static unsigned region_op(const struct scev_ctx *cx, uint32_t pc, const char **name)
{
	const struct bpf_insn *i = &cx->insns[pc];
	const struct ebpf_kfunc_info *ki;

	if (!cx->prog || !ebpf_is_call(i) || i->src_reg != BPF_PSEUDO_KFUNC_CALL || ebpf_srcbit(i))
		return 0;
	ki = ebpf_kfunc_info(ebpf_prog_kfunc_name(cx->prog, pc));
	if (!ki || ki->op < EBPF_KOP_RCU_LOCK || ki->op > EBPF_KOP_PREEMPT_ON)
		return 0;
	if (name)
		*name = ki->name;
	return ki->op;
}

/* Whether a function other than main calls a region kfunc (then none is followed: the main
 * function's checks would miss what its callees opened or closed). */
static bool region_elsewhere(const struct scev_ctx *cx)
{
	const struct scev_cfg *cfg = cx->st.cfg;

	for (uint32_t pc = 0; pc < cx->len; pc += ebpf_insn_slots(&cx->insns[pc]))
		if (cfg->blocks[cfg->block_of[pc]].func != 0 && region_op(cx, pc, NULL))
			return true;
	return false;
}

bool absint_region_join(struct aregion *d, const struct aregion *s, bool widen)
{
	struct aregion o = *d;

	d->plo = d->plo < s->plo ? d->plo : s->plo;
	/* (widening: a count that grows, a disable in a loop, goes to the cap at once, which
	 * the verdict answers unsupported, instead of one visit per count) */
	d->phi = d->phi >= s->phi ? d->phi : widen ? RG_MAX : s->phi;
	d->rlo = d->rlo < s->rlo ? d->rlo : s->rlo;
	d->rhi = d->rhi > s->rhi ? d->rhi : s->rhi;
	return memcmp(&o, d, sizeof(o)) != 0;
}

static uint8_t dec(uint8_t c)
{
	return c ? (uint8_t)(c - 1) : 0;
}

static uint8_t inc(uint8_t c)
{
	return c < RG_MAX ? (uint8_t)(c + 1) : RG_MAX;
}

void absint_region_call(const struct scev_ctx *cx, struct astate *s, uint32_t pc)
{
	switch (region_op(cx, pc, NULL)) {
	case EBPF_KOP_RCU_LOCK:
		s->rg.rlo = s->rg.rhi = 1;
		break;
	case EBPF_KOP_RCU_UNLOCK:
		s->rg.rlo = s->rg.rhi = 0;
		break;
	case EBPF_KOP_PREEMPT_OFF:
		s->rg.plo = inc(s->rg.plo);
		s->rg.phi = inc(s->rg.phi);
		break;
	case EBPF_KOP_PREEMPT_ON:
		s->rg.plo = dec(s->rg.plo);
		s->rg.phi = dec(s->rg.phi);
		break;
	}
}

/* What region a rule meets: "rcu_read_lock" / "non-preemptible" wording per the kernel, the
 * least count (unsafe when not 0), or NULL when no region may be open. */
static const char *open_region(const struct astate *s, bool *every, bool *rcu)
{
	*rcu = s->rg.rhi != 0;
	*every = *rcu ? s->rg.rlo != 0 : s->rg.plo != 0;
	return *rcu ? "rcu_read_lock" : s->rg.phi ? "non-preemptible" : NULL;
}

void absint_region_verify_insn(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			       uint32_t pc)
{
	const struct bpf_insn *i = &cx->insns[pc];
	const struct scev_cfg *cfg = cx->st.cfg;
	const char *what, *name = NULL, *kname;
	unsigned op = region_op(cx, pc, &name);
	bool every, rcu;

	if (op) {
		v->checks++;
		if (cfg->blocks[cfg->block_of[pc]].func != 0 || region_elsewhere(cx))
			RFAIL(VERDICT_UNSUPPORTED,
			      "%s in a program whose functions other than main "
			      "open or close regions (a region across a call) is not modeled",
			      name);
		if (cx->st.loops->loop_of[cfg->block_of[pc]] != SCEV_NONE)
			RFAIL(VERDICT_UNSUPPORTED, "%s inside a loop is not modeled", name);
		if (op == EBPF_KOP_RCU_LOCK && s->rg.rlo)
			RFAIL(VERDICT_UNSAFE, "nested rcu read lock (kernel function %s)", name);
		if (op == EBPF_KOP_RCU_UNLOCK && !s->rg.rhi)
			RFAIL(VERDICT_UNSAFE, "unmatched rcu read unlock (kernel function %s)",
			      name);
		if (op == EBPF_KOP_PREEMPT_ON && !s->rg.phi)
			RFAIL(VERDICT_UNSAFE,
			      "unmatched attempt to enable preemption (kernel "
			      "function %s)",
			      name);
		if ((op == EBPF_KOP_RCU_LOCK && s->rg.rhi) ||
		    (op == EBPF_KOP_RCU_UNLOCK && !s->rg.rlo) ||
		    (op == EBPF_KOP_PREEMPT_ON && !s->rg.plo))
			RFAIL(VERDICT_UNSUPPORTED,
			      "%s where the region is open on some paths only "
			      "(a region per path is not modeled)",
			      name);
		if (op == EBPF_KOP_PREEMPT_OFF && s->rg.phi >= RG_MAX - 1)
			RFAIL(VERDICT_UNSUPPORTED,
			      "%s: more than %d nested non-preemptible regions", name, RG_MAX - 2);
		return;
	}
	if (!(what = open_region(s, &every, &rcu)))
		return;
	if (ebpf_is_exit(i) && cfg->blocks[cfg->block_of[pc]].func == 0) {
		if (!every)
			RFAIL(VERDICT_UNSUPPORTED,
			      "a %s region may be open at the exit on some paths "
			      "(a region per path is not modeled)",
			      what);
		if (rcu)
			RFAIL(
			    VERDICT_UNSAFE,
			    "BPF_EXIT instruction in main prog cannot be used "
			    "inside bpf_rcu_read_lock-ed region (bpf_rcu_read_unlock is missing)");
		RFAIL(VERDICT_UNSAFE,
		      "BPF_EXIT instruction in main prog cannot be used inside "
		      "bpf_preempt_disable-ed region (%u bpf_preempt_enable%s missing)",
		      s->rg.plo, s->rg.plo == 1 ? " is" : "(s) are");
	}
	if (ebpf_class(i) == BPF_LD && (ebpf_mode(i) == BPF_ABS || ebpf_mode(i) == BPF_IND))
		RFAIL(every ? VERDICT_UNSAFE : VERDICT_UNSUPPORTED,
		      "BPF_LD_[ABS|IND] cannot be used "
		      "inside bpf_%s-ed region%s",
		      rcu ? "rcu_read_lock" : "preempt_disable", every ? "" : " (on some paths)");
	if (ebpf_is_pseudo_call(i))
		RFAIL(VERDICT_UNSUPPORTED,
		      "a call of a bpf-to-bpf function inside a %s region (the "
		      "callee's states do not hold the region): not modeled",
		      what);
	if (ebpf_is_helper_call(i)) {
		const struct ebpf_helper_proto *p = ebpf_helper_proto(i->imm);
		const char *hn = ebpf_helper_name(i->imm);

		hn = hn ? hn : "?";
		if (i->imm == BPF_FUNC_tail_call)
			RFAIL(every ? VERDICT_UNSAFE : VERDICT_UNSUPPORTED,
			      "tail_call cannot be used "
			      "inside bpf_%s-ed region%s",
			      rcu ? "rcu_read_lock" : "preempt_disable",
			      every ? "" : " (on some paths)");
		if (p && (p->flags & HF_SLEEPS))
			RFAIL(every ? VERDICT_UNSAFE : VERDICT_UNSUPPORTED,
			      "sleepable helper %s#%d "
			      "in %s region%s",
			      hn, i->imm, what, every ? "" : " (on some paths)");
		if (absint_cb_helper(i->imm))
			RFAIL(VERDICT_UNSUPPORTED,
			      "helper %s#%d (a callback) inside a %s region: "
			      "not modeled",
			      hn, i->imm, what);
		return;
	}
	if (ebpf_is_call(i) && i->src_reg == BPF_PSEUDO_KFUNC_CALL && cx->prog) {
		const struct ebpf_kfunc_info *ki;

		kname = ebpf_prog_kfunc_name(cx->prog, pc);
		ki = ebpf_kfunc_info(kname);
		if (kname && !strcmp(kname, "bpf_throw"))
			RFAIL(every ? VERDICT_UNSAFE : VERDICT_UNSUPPORTED,
			      "bpf_throw cannot be used "
			      "inside bpf_%s-ed region%s",
			      rcu ? "rcu_read_lock" : "preempt_disable",
			      every ? "" : " (on some paths)");
		if (ki && (ki->flags & EBPF_KF_SLEEPABLE))
			RFAIL(every ? VERDICT_UNSAFE : VERDICT_UNSUPPORTED,
			      "kernel func %s is "
			      "sleepable within %s region%s",
			      ki->name, rcu ? "rcu_read_lock" : "non-preemptible",
			      every ? "" : " (on some paths)");
	}
}
