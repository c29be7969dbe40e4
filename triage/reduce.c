/* The minimizer: ddmin over instructions, then constants and registers, to a fixpoint.
 * See reduce.h.  The working program is always a valid instruction array; each candidate is
 * built from it, validated, and offered to the predicate; an accepted candidate becomes the
 * working program.  Every accepted step lowers (slots, register operands, constant sizes,
 * register numbers) in that order, which is why the loop ends. */
#include "triage/reduce.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Instructions whose target is another instruction: jumps, calls, function addresses. */
static bool has_target(const struct bpf_insn *i)
{
	return ebpf_is_ja(i) || ebpf_is_cond_jmp(i) || ebpf_is_pseudo_call(i) ||
	       (ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC);
}

static long target_of(const struct bpf_insn *i, size_t pc)
{
	if (ebpf_is_pseudo_call(i) || ebpf_is_ldimm64(i))
		return (long)pc + 1 + i->imm;
	return ebpf_jump_target(i, pc);
}

static void set_target(struct bpf_insn *i, size_t pc, size_t t)
{
	long rel = (long)t - (long)pc - 1;

	if (ebpf_is_pseudo_call(i) || ebpf_is_ldimm64(i) ||
	    (ebpf_class(i) == BPF_JMP32 && ebpf_op(i) == BPF_JA))
		i->imm = (int32_t)rel;
	else
		i->off = (int16_t)rel;	/* distances only shrink: it fits where it did */
}

size_t oracle_reduce_delete(struct bpf_insn *out, const struct bpf_insn *insns, size_t len,
			    const bool *keep)
{
	bool *k = malloc(len + 1), *start = calloc(len + 1, 1);
	long *next = malloc((len + 1) * sizeof(*next));	/* first kept instruction at or after */
	size_t *newpc = malloc((len + 1) * sizeof(*newpc));
	size_t n = 0;
	bool changed;

	if (!k || !start || !next || !newpc)
		goto fail;
	for (size_t pc = 0; pc < len; pc += ebpf_insn_slots(&insns[pc])) {
		start[pc] = true;
		k[pc] = keep[pc];
	}
	/* A jump whose target has nothing kept at or after it has nowhere to go: it goes too.
	 * That can strand a jump that only had this one left to land on, hence the loop. */
	do {
		changed = false;
		next[len] = -1;
		for (size_t pc = len; pc-- > 0;)
			next[pc] = start[pc] && k[pc] ? (long)pc : next[pc + 1];
		for (size_t pc = 0; pc < len; pc += ebpf_insn_slots(&insns[pc])) {
			long t;

			if (!k[pc] || !has_target(&insns[pc]))
				continue;
			t = target_of(&insns[pc], pc);
			if (t < 0 || (size_t)t >= len || next[t] < 0) {
				k[pc] = false;
				changed = true;
			}
		}
	} while (changed);
	for (size_t pc = 0; pc < len; pc += ebpf_insn_slots(&insns[pc])) {
		newpc[pc] = n;
		if (k[pc])
			n += ebpf_insn_slots(&insns[pc]);
	}
	n = 0;
	for (size_t pc = 0; pc < len; pc += ebpf_insn_slots(&insns[pc])) {
		unsigned s = ebpf_insn_slots(&insns[pc]);

		if (!k[pc])
			continue;
		memcpy(&out[n], &insns[pc], s * sizeof(*out));
		if (has_target(&insns[pc]))
			set_target(&out[n], n, newpc[next[target_of(&insns[pc], pc)]]);
		n += s;
	}
	/* the last instruction must not fall off the end */
	if (!n || (!ebpf_is_exit(&out[n - 1]) && !ebpf_is_ja(&out[n - 1]))) {
		memset(&out[n], 0, sizeof(out[n]));
		out[n].code = BPF_JMP | BPF_EXIT;
		n++;
	}
	free(k);
	free(start);
	free(next);
	free(newpc);
	return ebpf_validate(out, n, NULL) ? 0 : n;
fail:
	free(k);
	free(start);
	free(next);
	free(newpc);
	return 0;
}

/* ---- the search ---- */

struct red {
	reduce_pred_fn pred;
	void *arg;
	const struct reduce_opts *o;
	unsigned max_tests;
	struct reduce_stats *st;
	struct bpf_insn *cur;	/* working program, cap slots */
	size_t len;
	struct bpf_insn *cand;	/* scratch, cap slots */
	size_t cap;
	bool *keep;		/* scratch, cap entries */
	uint32_t *starts;	/* scratch: first slot of each instruction */
	bool stop;
};

static size_t count_insns(const struct bpf_insn *insns, size_t len)
{
	size_t n = 0;

	for (size_t pc = 0; pc < len; pc += ebpf_insn_slots(&insns[pc]))
		n++;
	return n;
}

/* Offers cand[clen] to the predicate; on success it becomes the working program. */
static bool try_cand(struct red *r, size_t clen)
{
	if (r->stop)
		return false;
	if (r->st->tests >= r->max_tests) {
		r->stop = true;
		r->st->budget_hit = true;
		return false;
	}
	r->st->tests++;
	if (!r->pred(r->arg, r->cand, clen))
		return false;
	memcpy(r->cur, r->cand, clen * sizeof(*r->cur));
	r->len = clen;
	r->st->accepted++;
	if (r->o->progress)
		r->o->progress(r->o->progress_arg, r->cur, r->len, r->st->tests);
	return true;
}

static size_t list_starts(struct red *r)
{
	size_t n = 0;

	for (size_t pc = 0; pc < r->len; pc += ebpf_insn_slots(&r->cur[pc]))
		r->starts[n++] = (uint32_t)pc;
	return n;
}

/* Deletes instructions [a, b) of the working program (by instruction number); true when the
 * smaller program still shows the finding. */
static bool try_delete(struct red *r, size_t a, size_t b)
{
	size_t n = list_starts(r), clen;

	for (size_t pc = 0; pc < r->len; pc++)
		r->keep[pc] = true;
	for (size_t i = a; i < b && i < n; i++)
		r->keep[r->starts[i]] = false;
	clen = oracle_reduce_delete(r->cand, r->cur, r->len, r->keep);
	if (!clen || clen >= r->len)
		return false;
	return try_cand(r, clen);
}

/* ddmin, complements only (removing a chunk), then single instructions: what tmin and
 * C-Reduce's line passes do for programs, where keeping one chunk alone is rarely valid. */
static bool pass_insns(struct red *r)
{
	size_t n = list_starts(r), gran = 2;
	bool any = false;

	while (n >= 2 && !r->stop) {
		size_t chunk = (n + gran - 1) / gran;
		bool reduced = false;

		for (size_t a = 0; a < n && !r->stop; a += chunk) {
			if (try_delete(r, a, a + chunk)) {
				reduced = any = true;
				n = list_starts(r);
				if (gran > 2)
					gran--;
				break;
			}
		}
		if (reduced)
			continue;
		if (gran >= n)
			break;
		gran = gran * 2 < n ? gran * 2 : n;
	}
	/* one at a time from the end, where exits and unused tails are */
	for (size_t i = list_starts(r); i-- > 0 && !r->stop;)
		if (i < list_starts(r) && try_delete(r, i, i + 1))
			any = true;
	return any;
}

/* Size of a constant for the progress order: 0 < 1 < -1 < 2 < -2 ... */
static uint64_t const_cost(int64_t v)
{
	uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

	return m * 2 + (v < 0);
}

static bool imm_is_value(const struct bpf_insn *i)
{
	uint8_t cls = ebpf_class(i);

	if ((cls == BPF_ALU || cls == BPF_ALU64) && ebpf_srcbit(i) == BPF_K)
		return ebpf_op(i) != BPF_NEG && ebpf_op(i) != BPF_END;
	if (ebpf_is_cond_jmp(i) && ebpf_srcbit(i) == BPF_K)
		return ebpf_op(i) != BPF_JCOND;
	return cls == BPF_ST && ebpf_mode(i) == BPF_MEM;
}

static bool pass_consts(struct red *r)
{
	bool any = false;

	for (size_t pc = 0; pc < r->len && !r->stop; pc += ebpf_insn_slots(&r->cur[pc])) {
		bool wide = ebpf_is_ldimm64(&r->cur[pc]) && r->cur[pc].src_reg == 0;
		bool progress = true;

		if (!wide && !imm_is_value(&r->cur[pc]))
			continue;
		while (progress && !r->stop) {
			int64_t v = wide ? (int64_t)ebpf_ldimm64_value(&r->cur[pc]) : r->cur[pc].imm;
			int64_t tries[4] = { 0, 1, v / 2, v > 0 ? v - 1 : v + 1 };

			progress = false;
			for (int t = 0; t < 4 && !progress; t++) {
				if (const_cost(tries[t]) >= const_cost(v))
					continue;
				memcpy(r->cand, r->cur, r->len * sizeof(*r->cand));
				if (wide) {
					r->cand[pc].imm = (int32_t)(uint32_t)(uint64_t)tries[t];
					r->cand[pc + 1].imm = (int32_t)(uint32_t)((uint64_t)tries[t] >> 32);
				} else {
					r->cand[pc].imm = (int32_t)tries[t];
				}
				if (ebpf_validate(r->cand, r->len, NULL))
					continue;
				progress = try_cand(r, r->len);
				any |= progress;
			}
		}
	}
	return any;
}

/* Register operands that may be renamed: destination of ALU, loads, stores (base) and
 * conditional jumps; source of register ALU, jumps, loads and stores. */
static bool uses_dst(const struct bpf_insn *i)
{
	uint8_t cls = ebpf_class(i);

	return cls == BPF_ALU || cls == BPF_ALU64 || cls == BPF_LDX || cls == BPF_ST ||
	       cls == BPF_STX || (ebpf_is_cond_jmp(i) && ebpf_op(i) != BPF_JCOND) ||
	       ebpf_is_ldimm64(i);
}

static bool uses_src(const struct bpf_insn *i)
{
	uint8_t cls = ebpf_class(i);

	if (cls == BPF_LDX || cls == BPF_STX)
		return true;
	return (cls == BPF_ALU || cls == BPF_ALU64 || ebpf_is_cond_jmp(i)) &&
	       ebpf_srcbit(i) == BPF_X && ebpf_op(i) != BPF_END && ebpf_op(i) != BPF_JCOND;
}

static bool pass_regs(struct red *r)
{
	bool any = false;

	for (size_t pc = 0; pc < r->len && !r->stop; pc += ebpf_insn_slots(&r->cur[pc])) {
		const struct bpf_insn *i = &r->cur[pc];
		uint8_t cls = ebpf_class(i);

		/* a register operand replaced by a constant (not sign-extending movs) */
		if (uses_src(i) && cls != BPF_LDX && cls != BPF_STX &&
		    !(ebpf_op(i) == BPF_MOV && i->off)) {
			for (int32_t c = 0; c <= 1; c++) {
				memcpy(r->cand, r->cur, r->len * sizeof(*r->cand));
				r->cand[pc].code = (uint8_t)((r->cand[pc].code & ~BPF_X) | BPF_K);
				r->cand[pc].src_reg = 0;
				r->cand[pc].imm = c;
				if (ebpf_validate(r->cand, r->len, NULL))
					continue;
				if (try_cand(r, r->len)) {
					any = true;
					break;
				}
			}
		}
		i = &r->cur[pc];
		if (uses_dst(i))
			for (uint8_t reg = 0; reg < i->dst_reg && reg < 10 && !r->stop; reg++) {
				memcpy(r->cand, r->cur, r->len * sizeof(*r->cand));
				r->cand[pc].dst_reg = reg;
				if (ebpf_validate(r->cand, r->len, NULL))
					continue;
				if (try_cand(r, r->len)) {
					any = true;
					break;
				}
			}
		i = &r->cur[pc];
		if (uses_src(i))
			for (uint8_t reg = 0; reg < i->src_reg && !r->stop; reg++) {
				memcpy(r->cand, r->cur, r->len * sizeof(*r->cand));
				r->cand[pc].src_reg = reg;
				if (ebpf_validate(r->cand, r->len, NULL))
					continue;
				if (try_cand(r, r->len)) {
					any = true;
					break;
				}
			}
	}
	return any;
}

int oracle_reduce(struct bpf_insn **out, size_t *out_len, const struct bpf_insn *insns,
		  size_t len, reduce_pred_fn pred, void *arg, const struct reduce_opts *uopts,
		  struct reduce_stats *ust)
{
	struct reduce_opts o = { 0 };
	struct reduce_stats st = { 0 };
	struct red r = { 0 };
	int err = -ENOMEM;

	*out = NULL;
	*out_len = 0;
	if (uopts)
		memcpy(&o, uopts, uopts->sz && uopts->sz < sizeof(o) ? uopts->sz : sizeof(o));
	if (!len || ebpf_validate(insns, len, NULL))
		return -EINVAL;
	r.pred = pred;
	r.arg = arg;
	r.o = &o;
	r.max_tests = o.max_tests ? o.max_tests : 20000;
	r.st = &st;
	r.cap = len + 1;
	r.cur = malloc(r.cap * sizeof(*r.cur));
	r.cand = malloc(r.cap * sizeof(*r.cand));
	r.keep = malloc(r.cap);
	r.starts = malloc(r.cap * sizeof(*r.starts));
	if (!r.cur || !r.cand || !r.keep || !r.starts)
		goto out;
	memcpy(r.cur, insns, len * sizeof(*insns));
	r.len = len;
	st.slots_before = len;
	st.insns_before = count_insns(insns, len);
	st.tests++;
	if (!pred(arg, insns, len)) {
		err = -EINVAL;
		goto out;
	}
	for (;;) {
		bool any = false;

		st.rounds++;
		if (!o.no_insns)
			any |= pass_insns(&r);
		if (!o.no_consts)
			any |= pass_consts(&r);
		if (!o.no_regs)
			any |= pass_regs(&r);
		if (!any || r.stop)
			break;
	}
	st.slots_after = r.len;
	st.insns_after = count_insns(r.cur, r.len);
	*out = r.cur;
	*out_len = r.len;
	r.cur = NULL;
	err = 0;
out:
	free(r.cur);
	free(r.cand);
	free(r.keep);
	free(r.starts);
	if (ust)
		*ust = st;
	return err;
}
