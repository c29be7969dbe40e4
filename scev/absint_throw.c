/* BPF exceptions in the verdict: bpf_throw (kernel/bpf/helpers.c) and the exception callback,
 * as the kernel's verifier (kernel/bpf/verifier.c) takes them.
 *
 * bpf_throw(cookie) unwinds every frame and ends the run: the program's result is the
 * exception callback's, called with the cookie — the global function main's BTF decl tag
 * "exception_callback:NAME" names (ebpf_prog_exc_cb) — or, without one, the cookie itself (the
 * kernel appends "r0 = r1; exit" as a hidden callback).  So a call of it ends its block with no
 * successor (scev/cfg.c), and here it is an exit of the program: check_kfunc_call sends it to
 * process_bpf_exit_full with exception_exit, which refuses a lock held ("bpf_throw cannot be
 * used inside bpf_spin_lock-ed region"; the call itself is refused first: "function calls are
 * not allowed while holding a lock") and any reference held in any frame (check_reference_leak
 * with exception_exit: ringbuf records, sockets, kfunc objects, iterators, ringbuf dynptrs),
 * and skips the return-value check; without a callback, check_return_code holds R1 (the
 * cookie) to the program type's rule at each call instead.  The frames of the callers of a
 * function that may throw (itself or through the functions it calls) are checked at its calls:
 * what they hold there they would hold at the throw (stricter than the kernel when the callee
 * releases what its caller passed it, never looser).
 *
 * check_max_stack_depth refuses a bpf_throw a callback reaches through calls ("bpf_throw kfunc
 * (insn N) cannot be called from callback subprog M"): every function whose address is taken is
 * taken as a callback here (the kernel marks those a helper call is given), and so is the
 * exception callback, which also may not be called directly ("cannot call exception cb
 * directly") nor reach a tail call ("cannot tail call within exception cb").  The exception
 * callback is verified on its own as a program (do_check_subprogs: a global function whose
 * prototype is one integer argument, "exception cb only supports single integer argument", and
 * an integer result) with the program type's rule for its result (check_return_code:
 * in_exception_callback_fn), whether or not anything throws.  Reactions to anything else the
 * kernel may refuse that bpfscev does not model (RCU and preemption regions are not tracked
 * here) stay with the checks that already refuse or decline it.
 */
#include <errno.h>
#include <string.h>

#include "scev/absint.h"
#include "util/arena.h"

#define VFAIL(kind_, pc_, ...)                                                                   \
	do {                                                                                      \
		verdict_fail(v, (kind_), (pc_), __VA_ARGS__);                                    \
		return;                                                                           \
	} while (0)

enum { TH_THROWS = 1, TH_FROM_CB = 2, TH_FROM_EXC = 4 };

static uint32_t fn_at(const struct scev_ctx *cx, uint32_t pc)
{
	return cx->st.cfg->blocks[cx->st.cfg->block_of[pc]].func;
}

static bool is_func_addr(const struct bpf_insn *i)
{
	return ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC;
}

/* Marks bit in every function reachable from root through calls and function addresses (the
 * kernel's check_max_stack_depth walks both). */
static void mark_from(struct scev_ctx *cx, uint32_t root, uint8_t bit, uint32_t *stack)
{
	const struct scev_cfg *cfg = cx->st.cfg;
	uint32_t sp = 0;

	if (cx->th_fn[root] & bit)
		return;
	cx->th_fn[root] |= bit;
	stack[sp++] = root;
	while (sp) {
		uint32_t f = stack[--sp];

		for (uint32_t pc = cfg->funcs[f].start; pc < cfg->funcs[f].end;
		     pc += ebpf_insn_slots(&cx->insns[pc])) {
			const struct bpf_insn *i = &cx->insns[pc];
			uint32_t g;

			if (!ebpf_is_pseudo_call(i) && !is_func_addr(i))
				continue;
			g = fn_at(cx, pc + 1 + (uint32_t)i->imm);
			if (!(cx->th_fn[g] & bit)) {
				cx->th_fn[g] |= bit;
				stack[sp++] = g;
			}
		}
	}
}

/* The successors of block b in the kernel's CFG (into next, their count): ours, and the next
 * block of its function after a bpf_throw, which check_cfg takes as a call that returns. */
static unsigned kernel_succ(const struct scev_ctx *cx, uint32_t b, uint32_t next[3])
{
	const struct scev_cfg *cfg = cx->st.cfg;
	const struct scev_block *blk = &cfg->blocks[b];
	unsigned n = 0;

	for (unsigned k = 0; k < blk->nsucc && n < 2; k++)
		next[n++] = blk->succ[k];
	if (ebpf_insn_is_throw(&cx->insns[blk->last]) && b + 1 < cfg->nblocks &&
	    cfg->blocks[b + 1].func == blk->func)
		next[n++] = b + 1;
	return n;
}

/* The blocks the kernel's check_cfg reaches: it takes a kfunc call as one that returns, so the
 * code after a bpf_throw (clang's "return 0;" after it) is no "unreachable insn" there, though
 * no run reaches it (cx->th_reach, a byte per block). */
static int kernel_reach(struct scev_ctx *cx)
{
	const struct scev_cfg *cfg = cx->st.cfg;
	uint32_t *stack, sp = 0;

	if (!(cx->th_reach = arena_zalloc(cfg->nblocks ? cfg->nblocks : 1, 1)) ||
	    !(stack = arena_alloc((cfg->nblocks ? cfg->nblocks : 1) * sizeof(*stack))))
		return -ENOMEM;
	for (uint32_t b = 0; b < cfg->nblocks; b++)
		if (cfg->blocks[b].reachable) {
			cx->th_reach[b] = 1;
			stack[sp++] = b;
		}
	while (sp) {
		uint32_t b = stack[--sp], next[3], n = kernel_succ(cx, b, next);

		for (uint32_t k = 0; k < n; k++)
			if (!cx->th_reach[next[k]]) {
				cx->th_reach[next[k]] = 1;
				stack[sp++] = next[k];
			}
	}
	arena_free(stack);
	return 0;
}

bool absint_throw_kernel_reach(const struct scev_ctx *cx, uint32_t b)
{
	return cx->th_reach && cx->th_reach[b];
}

int absint_throw_setup(struct scev_ctx *cx)
{
	const struct scev_cfg *cfg = cx->st.cfg;
	uint32_t nf = cfg->nfuncs, *stack;
	bool any = false, changed = true;

	cx->exc_fn = SCEV_NONE;
	cx->th_fn = NULL;
	for (uint32_t f = 1; cx->prog && f < nf; f++) {
		const struct ebpf_global_func *g = ebpf_prog_global(cx->prog, cfg->funcs[f].start);

		if (g && g->exc_cb)
			cx->exc_fn = f;
	}
	any = cfg->has_throw;
	if (!any && cx->exc_fn == SCEV_NONE)
		return 0;
	if (!(cx->th_fn = arena_zalloc(nf, 1)) || !(stack = arena_alloc(nf * sizeof(*stack))))
		return -ENOMEM;
	for (uint32_t b = 0; b < cfg->nblocks; b++)
		if (cfg->blocks[b].reachable && ebpf_insn_is_throw(&cx->insns[cfg->blocks[b].last]))
			cx->th_fn[cfg->blocks[b].func] |= TH_THROWS;
	/* a function may throw when it, or a function it calls, has a bpf_throw call */
	while (changed) {
		changed = false;
		for (uint32_t pc = 0; pc < cx->len; pc += ebpf_insn_slots(&cx->insns[pc])) {
			const struct bpf_insn *i = &cx->insns[pc];
			uint32_t f, g;

			if (!ebpf_is_pseudo_call(i))
				continue;
			f = fn_at(cx, pc);
			g = fn_at(cx, pc + 1 + (uint32_t)i->imm);
			if ((cx->th_fn[g] & TH_THROWS) && !(cx->th_fn[f] & TH_THROWS)) {
				cx->th_fn[f] |= TH_THROWS;
				changed = true;
			}
		}
	}
	for (uint32_t pc = 0; pc < cx->len; pc += ebpf_insn_slots(&cx->insns[pc]))
		if (is_func_addr(&cx->insns[pc])) {
			uint32_t g = fn_at(cx, pc + 1 + (uint32_t)cx->insns[pc].imm);

			mark_from(cx, g, TH_FROM_CB, stack);
			cx->cb_throws = cx->cb_throws || (cx->th_fn[g] & TH_THROWS);
		}
	if (cx->exc_fn != SCEV_NONE) {
		mark_from(cx, cx->exc_fn, TH_FROM_EXC, stack);
		mark_from(cx, cx->exc_fn, TH_FROM_CB, stack);
	}
	arena_free(stack);
	return kernel_reach(cx);
}

bool absint_throw_kfunc(const struct scev_ctx *cx, uint32_t pc)
{
	return cx->th_fn && ebpf_insn_is_throw(&cx->insns[pc]);
}

bool absint_throw_ends(const struct scev_ctx *cx, uint32_t pc)
{
	const struct bpf_insn *i = &cx->insns[pc];

	if (!cx->th_fn || !ebpf_is_call(i))
		return false;
	if (ebpf_is_pseudo_call(i))
		return cx->th_fn[fn_at(cx, pc + 1 + (uint32_t)i->imm)] & TH_THROWS;
	if (ebpf_is_helper_call(i))
		return cx->cb_throws && absint_cb_helper(i->imm);
	return ebpf_insn_is_throw(i);
}

bool absint_throw_is_exc_cb(const struct scev_ctx *cx, uint32_t f)
{
	return cx->th_fn && cx->exc_fn != SCEV_NONE && f == cx->exc_fn;
}

/* Whether block b can reach itself in the kernel's CFG (kernel_succ: through the code after a
 * bpf_throw too, which our CFG leaves out: "l: r1 = 0; call bpf_throw; if r0 < 0 goto l" is a
 * loop only there — docs/kernel-findings/scc-exit-throw-in-loop.s).  Out of memory: yes. */
static bool kernel_cycle(const struct scev_ctx *cx, uint32_t b)
{
	const struct scev_cfg *cfg = cx->st.cfg;
	uint32_t *stack, sp = 0, next[3], n;
	uint8_t *seen;
	bool found = false;

	seen = arena_zalloc(cfg->nblocks, 1);
	stack = arena_alloc((size_t)cfg->nblocks * 3 * sizeof(*stack));
	if (!seen || !stack) {
		arena_free(stack);
		arena_free(seen);
		return true;
	}
	n = kernel_succ(cx, b, next);
	for (uint32_t k = 0; k < n; k++)
		stack[sp++] = next[k];
	while (sp && !found) {
		uint32_t x = stack[--sp];

		if (x == b) {
			found = true;
		} else if (!seen[x]) {
			seen[x] = 1;
			n = kernel_succ(cx, x, next);
			for (uint32_t k = 0; k < n; k++)
				stack[sp++] = next[k];
		}
	}
	arena_free(stack);
	arena_free(seen);
	return found;
}

/* Whether pc may lie on a cycle of the kernel's CFG, which goes on past a bpf_throw: its block
 * is in a loop of ours or of the kernel's CFG, or (a throw, which ends its block here) a block
 * before it or the code after it is in one of ours (more than the cycles through it: never
 * fewer). */
static bool in_cycle(const struct scev_ctx *cx, uint32_t pc)
{
	const struct scev_cfg *cfg = cx->st.cfg;
	const uint32_t *loop_of = cx->st.loops->loop_of;
	uint32_t b = cfg->block_of[pc];

	if (loop_of[b] != SCEV_NONE || kernel_cycle(cx, b))
		return true;
	if (!ebpf_insn_is_throw(&cx->insns[pc]))
		return false;
	for (uint32_t k = 0; k < cfg->blocks[b].npred; k++)
		if (loop_of[scev_block_preds(cfg, b)[k]] != SCEV_NONE)
			return true;
	return b + 1 < cfg->nblocks && cfg->blocks[b + 1].func == cfg->blocks[b].func &&
	       loop_of[b + 1] != SCEV_NONE;
}

bool absint_throw_exc_runs(const struct scev_ctx *cx)
{
	return cx->th_fn && cx->exc_fn != SCEV_NONE && (cx->th_fn[0] & TH_THROWS);
}

/* What the kernel's exception exit refuses of the state at pc (a throw, or a call of a function
 * that may throw): a lock or a reference held. */
static void verify_exit(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			uint32_t pc, const char *what)
{
	if (s->lk.held)
		VFAIL(VERDICT_UNSAFE, pc, "bpf_throw cannot be used inside bpf_spin_lock-ed region "
		      "(%s while the lock may be held)", what);
	if (s->ref.may)
		VFAIL(VERDICT_UNSAFE, pc, "Unreleased reference (%s while the reference acquired at "
		      "site %d may be held: the exception exit checks every frame)", what,
		      __builtin_ctzll(s->ref.may));
	if (s->it.may)
		VFAIL(VERDICT_UNSAFE, pc, "Unreleased reference (%s while the iterator at fp%d may be "
		      "live)", what, -8 * (63 - __builtin_clzll(s->it.may) + 1));
	if (s->dpr.may)
		VFAIL(VERDICT_UNSAFE, pc, "Unreleased reference (%s while a ringbuf dynptr of this "
		      "frame may be live)", what);
	if (s->cdpr.may)
		VFAIL(VERDICT_UNSUPPORTED, pc, "%s while a ringbuf dynptr of a caller's frame may be "
		      "live", what);
}

/* Whether check_return_code's rule for the program type is one bpfscev holds a result to
 * without the attach target (the tracing, LSM, struct_ops and extension types' rules depend on
 * it: not modeled for the exception exit). */
static bool ret_rule_modeled(const struct scev_ctx *cx)
{
	return !ebpf_prog_type_btf_ctx(cx->prog_type) && cx->prog_type != BPF_PROG_TYPE_LSM &&
	       cx->prog_type != BPF_PROG_TYPE_STRUCT_OPS && cx->prog_type != BPF_PROG_TYPE_EXT;
}

/* The default exception callback returns the cookie: check_return_code on R1 at each throw. */
static void verify_default_ret(struct scev_ctx *cx, struct scev_verdict *v,
			       const struct astate *s, uint32_t pc)
{
	const struct aval *r1 = &s->regs[1];

	if (!(s->init & 2))
		VFAIL(VERDICT_UNSAFE, pc, "R1 !read_ok (bpf_throw's cookie not written)");
	if (r1->kind == AV_PTR)
		VFAIL(VERDICT_UNSAFE, pc, "R1 leaks addr as return value (bpf_throw's cookie is the "
		      "program's result without an exception callback)");
	if (r1->kind != AV_SCALAR)
		VFAIL(VERDICT_UNSUPPORTED, pc, "bpf_throw's cookie may be a pointer");
	if (!ret_rule_modeled(cx))
		VFAIL(VERDICT_UNSUPPORTED, pc, "bpf_throw's cookie as the result of this program "
		      "type (check_return_code's rule for it) is not modeled");
	if (ebpf_prog_ret_bool(cx->prog_type) && !(r1->r.smin >= 0 && r1->r.smax <= 1))
		VFAIL(VERDICT_UNSAFE, pc, "At program exit the register R1 in s[%lld, %lld], should "
		      "have been in [0, 1] (bpf_throw's cookie is the program's result without an "
		      "exception callback)", (long long)r1->r.smin, (long long)r1->r.smax);
}

/* The exception callback's prototype (do_check_subprogs, btf_prepare_func_args). */
static void verify_exc_proto(struct scev_ctx *cx, struct scev_verdict *v, uint32_t pc)
{
	const struct ebpf_global_func *g = ebpf_prog_global(cx->prog, pc);

	if (!g)
		return;
	if (g->ret != EBPF_FARG_INT)
		VFAIL(VERDICT_UNSAFE, pc, "Global function %s() doesn't return scalar (the exception "
		      "callback)", g->name);
	if (g->nargs != 1 || absint_global_arg(cx, &g->args[0]) != GARG_SCALAR)
		VFAIL(VERDICT_UNSAFE, pc, "exception cb only supports single integer argument "
		      "(%s() takes %u)", g->name, g->nargs);
}

bool absint_throw_verify_insn(struct scev_ctx *cx, struct scev_verdict *v, const struct astate *s,
			      uint32_t pc)
{
	const struct bpf_insn *i = &cx->insns[pc];
	uint32_t f;

	if (!cx->th_fn || v->kind != VERDICT_SAFE)
		return false;
	f = fn_at(cx, pc);
	if (absint_throw_is_exc_cb(cx, f) && pc == cx->st.cfg->funcs[f].start)
		verify_exc_proto(cx, v, pc);
	if (v->kind == VERDICT_SAFE && ebpf_is_pseudo_call(i) &&
	    absint_throw_is_exc_cb(cx, fn_at(cx, pc + 1 + (uint32_t)i->imm)))
		verdict_fail(v, VERDICT_UNSAFE, pc, "insn %u cannot call exception cb directly", pc);
	if (v->kind == VERDICT_SAFE && (cx->th_fn[f] & TH_FROM_EXC) && ebpf_is_helper_call(i) &&
	    i->imm == BPF_FUNC_tail_call)
		verdict_fail(v, VERDICT_UNSAFE, pc, "cannot tail call within exception cb");
	if (v->kind == VERDICT_SAFE && ebpf_insn_is_throw(i) && (cx->th_fn[f] & TH_FROM_CB))
		verdict_fail(v, VERDICT_UNSAFE, pc, "bpf_throw kfunc (insn %u) cannot be called from "
			     "callback subprog (a function whose address is taken, or the exception "
			     "callback, reaches it)", pc);
	if (v->kind == VERDICT_SAFE && absint_throw_ends(cx, pc) && in_cycle(cx, pc))
		verdict_fail(v, VERDICT_UNSUPPORTED, pc, "%s inside a loop: the running kernel (6.18) "
			     "refuses such programs where its walk meets the exception exit in the "
			     "loop's states ('verifier bug: scc exit: no visit info for call chain'); "
			     "when it does is not modeled", ebpf_insn_is_throw(i) ? "bpf_throw" :
			     "a call that may throw");
	if (v->kind == VERDICT_SAFE && absint_throw_ends(cx, pc)) {
		verify_exit(cx, v, s, pc, ebpf_insn_is_throw(i) ? "bpf_throw" :
			    "a call that may throw");
		if (v->kind == VERDICT_SAFE && ebpf_insn_is_throw(i) && cx->exc_fn == SCEV_NONE)
			verify_default_ret(cx, v, s, pc);
	}
	/* the exception callback's result: the program's (check_return_code) */
	if (v->kind == VERDICT_SAFE && absint_throw_is_exc_cb(cx, f) && ebpf_is_exit(i)) {
		if (!ret_rule_modeled(cx))
			verdict_fail(v, VERDICT_UNSUPPORTED, pc, "the exception callback's result "
				     "under this program type's rule (check_return_code) is not "
				     "modeled");
		else
			absint_verify_return(cx, v, s, pc);
	}
	return v->kind != VERDICT_SAFE;
}
