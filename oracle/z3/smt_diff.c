/* The interp-vs-Z3 differential harness (smt.h: smt_diff_run): one instruction on one concrete
 * state, in the interpreter and in the encoding, every register and memory byte compared.
 *
 * The interpreter cannot start from an arbitrary state, so the harness builds a program that
 * makes one: 64 LD_IMM64 + STX pairs fill the stack, ten LD_IMM64 set r0-r9, then comes the
 * instruction under test, followed by two exits (the fallthrough at T+1 and the jump target at
 * T+2) whose probes record the state.  The input, helper stream and map values go in through
 * the run's env.  On the Z3 side the same state is made of variables — registers, and arrays
 * built by storing one byte variable per position — so the encoding is built over symbols and
 * evaluated in a model that assigns the concrete values, never folded from constants.
 */
#include "oracle/z3/smt.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/exec/interp.h"
#include "oracle/z3/smt_mach.h"
#include "oracle/z3/smt_term.h"

#define STACK_SLOTS (EBPF_STACK_SIZE / 8)
#define PROLOGUE (STACK_SLOTS * 3 + 10 * 2)	/* slots before the instruction under test */

struct smt_diff {
	struct sx *c;
	sxt regs[10];
	sxt stackv[EBPF_STACK_SIZE], inputv[SMT_DIFF_INPUT_MAX], helperv[SMT_DIFF_HELPER];
	sxt mapv[SMT_DIFF_MAP_ENTRIES * SMT_DIFF_MAP_VALUE];
	sxt stack0, input0, helper0, map0;
	size_t mark;
};

static sxt array_of(struct sx *c, const sxt *bytes, size_t n)
{
	sxt a = sx_mem_const(c, 0);

	for (size_t k = 0; k < n; k++)
		a = sx_store(c, a, sx_bv(c, k, 64), bytes[k]);
	return a;
}

static const struct ebpf_map_def diff_map = {
	.name = "diff", .type = BPF_MAP_TYPE_ARRAY, .key_size = 4,
	.value_size = SMT_DIFF_MAP_VALUE, .max_entries = SMT_DIFF_MAP_ENTRIES,
};

/* Array index of byte k of the map's values side by side: each value at the start of its
 * window (interp.h, interp_map_shift). */
static uint64_t map_index(size_t k)
{
	return ((uint64_t)(k / SMT_DIFF_MAP_VALUE) << interp_map_shift(&diff_map)) +
	       k % SMT_DIFF_MAP_VALUE;
}

int smt_diff__new(struct smt_diff **out)
{
	struct smt_diff *d = calloc(1, sizeof(*d));
	char name[32];
	int err;

	*out = NULL;
	if (!d)
		return -ENOMEM;
	if ((err = sx_new(&d->c))) {
		free(d);
		return err;
	}
	for (int k = 0; k < 10; k++) {
		snprintf(name, sizeof(name), "r%d", k);
		d->regs[k] = sx_var(d->c, name, 64);
	}
	for (int k = 0; k < EBPF_STACK_SIZE; k++) {
		snprintf(name, sizeof(name), "stack%d", k);
		d->stackv[k] = sx_var(d->c, name, 8);
	}
	for (int k = 0; k < SMT_DIFF_INPUT_MAX; k++) {
		snprintf(name, sizeof(name), "in%d", k);
		d->inputv[k] = sx_var(d->c, name, 8);
	}
	for (int k = 0; k < SMT_DIFF_HELPER; k++) {
		snprintf(name, sizeof(name), "helper%d", k);
		d->helperv[k] = sx_var(d->c, name, 8);
	}
	for (int k = 0; k < SMT_DIFF_MAP_ENTRIES * SMT_DIFF_MAP_VALUE; k++) {
		snprintf(name, sizeof(name), "map%d", k);
		d->mapv[k] = sx_var(d->c, name, 8);
	}
	d->stack0 = array_of(d->c, d->stackv, EBPF_STACK_SIZE);
	d->input0 = array_of(d->c, d->inputv, SMT_DIFF_INPUT_MAX);
	d->helper0 = array_of(d->c, d->helperv, SMT_DIFF_HELPER);
	d->map0 = sx_mem_const(d->c, 0);
	for (size_t k = 0; k < SMT_DIFF_MAP_ENTRIES * SMT_DIFF_MAP_VALUE; k++)
		d->map0 = sx_store(d->c, d->map0, sx_bv(d->c, map_index(k), 64), d->mapv[k]);
	if (sx_failed(d->c)) {
		smt_diff__free(d);
		return -ENOMEM;
	}
	d->mark = sx_mark(d->c);
	*out = d;
	return 0;
}

void smt_diff__free(struct smt_diff *d)
{
	if (!d)
		return;
	sx_free(d->c);
	free(d);
}

/* ---- the interpreter's side ---- */

struct observed {
	bool visited;
	uint32_t pc;
	uint64_t regs[EBPF_NREGS];
	uint8_t stack[EBPF_STACK_SIZE];
};

static void on_visit(void *arg, const struct interp_state *st, uint32_t pc)
{
	struct observed *ob = arg;

	if (ob->visited)
		return;
	ob->visited = true;
	ob->pc = pc;
	memcpy(ob->regs, interp_state_regs(st), sizeof(ob->regs));
	for (int k = 0; k < EBPF_STACK_SIZE; k++) {
		uint64_t v = 0;

		interp_state_read(st, INTERP_VA_STACK + k, 1, &v);
		ob->stack[k] = (uint8_t)v;
	}
}

static struct bpf_insn lddw(uint8_t reg, uint64_t v, int half)
{
	struct bpf_insn i = { 0 };

	if (half == 0) {
		i.code = BPF_LD | BPF_IMM | BPF_DW;
		i.dst_reg = reg;
		i.imm = (int32_t)(uint32_t)v;
	} else {
		i.imm = (int32_t)(uint32_t)(v >> 32);
	}
	return i;
}

/* Builds and runs the program; fills ob, res, and the memory after the run. */
static int run_interp(const struct smt_diff_case *c, unsigned nslots, struct observed *ob,
		      struct interp_result *res, uint8_t *input, uint8_t *map)
{
	struct bpf_insn prog[PROLOGUE + 4];
	struct ebpf_prog p = { .insns = prog };
	struct interp_code *code = NULL;
	struct interp_map im = { .def = diff_map, .values = map };
	struct interp_env env = { 0 };
	uint8_t probes[PROLOGUE + 4] = { 0 };
	struct diag d;
	unsigned n = 0;
	int err;

	for (int k = 0; k < STACK_SLOTS; k++) {
		uint64_t v;

		memcpy(&v, c->stack + 8 * k, 8);
		prog[n++] = lddw(0, v, 0);
		prog[n++] = lddw(0, v, 1);
		prog[n++] = (struct bpf_insn){ .code = BPF_STX | BPF_MEM | BPF_DW, .dst_reg = 10,
					       .src_reg = 0, .off = (int16_t)(-EBPF_STACK_SIZE + 8 * k) };
	}
	for (int r = 0; r < 10; r++) {
		prog[n++] = lddw((uint8_t)r, c->regs[r], 0);
		prog[n++] = lddw((uint8_t)r, c->regs[r], 1);
	}
	prog[n++] = c->insn[0];
	if (nslots == 2)
		prog[n++] = c->insn[1];
	prog[n++] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };
	prog[n++] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };
	p.len = n;
	probes[n - 2] = probes[n - 1] = 1;
	diag_clear(&d);
	if ((err = interp_prepare(&code, &p, &d)))
		return err;
	memcpy(input, c->input, c->input_len);
	memcpy(map, c->map, sizeof(c->map));
	env.ctx_kind = (enum interp_ctx_kind)c->ctx_kind;
	env.input = input;
	env.input_len = c->input_len;
	env.helper_data = c->helper;
	env.helper_len = c->helper_len;
	env.maps = &im;
	env.map_cnt = 1;
	env.step_budget = 10000;
	env.probes = probes;
	env.visit = on_visit;
	env.arg = ob;
	err = interp_run(code, &env, res);
	interp_code__free(code);
	return err;
}

/* ---- the comparison ---- */

#define MISMATCH(...)                                                                       \
	do {                                                                                \
		snprintf(why, why_len, __VA_ARGS__);                                        \
		rc = 1;                                                                     \
		goto out;                                                                   \
	} while (0)

static int eval(struct sx *c, struct sx_model *m, sxt t, uint64_t *v)
{
	return sx_model_eval(c, m, t, v);
}

/* True (with rc and why set) when the array's bytes differ from the interpreter's. */
static bool compare_bytes(struct sx *c, struct sx_model *model, sxt arr, sxt arr0,
			  const uint8_t *before, const uint8_t *interp, size_t n, const char *what,
			  int bias, bool values, char *why, size_t why_len, int *rc)
{
	uint8_t z3[EBPF_STACK_SIZE];

	if (arr == arr0) {
		memcpy(z3, before, n);
	} else if (values) {	/* the map's, value by value (map_index) */
		for (size_t k = 0; k < n; k += SMT_DIFF_MAP_VALUE)
			if (sx_model_bytes(c, model, arr, map_index(k), SMT_DIFF_MAP_VALUE, z3 + k)) {
				*rc = -EIO;
				snprintf(why, why_len, "%s: cannot evaluate", what);
				return true;
			}
	} else if (sx_model_bytes(c, model, arr, 0, n, z3)) {
		*rc = -EIO;
		snprintf(why, why_len, "%s: cannot evaluate", what);
		return true;
	}
	for (size_t k = 0; k < n; k++)
		if (z3[k] != interp[k]) {
			snprintf(why, why_len, "%s%+d: interp %#x, z3 %#x", what, (int)k + bias,
				 interp[k], z3[k]);
			*rc = 1;
			return true;
		}
	return false;
}

int smt_diff_run(struct smt_diff *d, const struct smt_diff_case *cs, char *why, size_t why_len)
{
	struct sx *c = d->c;
	struct bpf_insn code[4];
	struct ebpf_prog p = { .insns = code };
	struct ebpf_object obj = { 0 };
	struct ebpf_map_def mdef = diff_map;
	struct observed ob = { 0 };
	struct interp_result res;
	struct mach m;
	struct mstate st;
	struct mstep *o = NULL;
	struct sx_model *model = NULL;
	uint8_t input[SMT_DIFF_INPUT_MAX], map[sizeof(cs->map)];
	unsigned nslots = ebpf_is_ldimm64(&cs->insn[0]) ? 2 : 1;
	uint64_t v, trap, end;
	struct diag dg;
	int rc = 0, err;

	if (why_len)
		why[0] = 0;
	if (cs->input_len > SMT_DIFF_INPUT_MAX || cs->helper_len > SMT_DIFF_HELPER ||
	    cs->ctx_kind > INTERP_CTX_SKB)
		return -EINVAL;
	diag_clear(&dg);
	if (ebpf_validate_insn(cs->insn, nslots, &dg))
		return -EINVAL;
	if (ebpf_is_exit(&cs->insn[0]) || ebpf_is_pseudo_call(&cs->insn[0]) ||
	    (ebpf_is_call(&cs->insn[0]) && ebpf_srcbit(&cs->insn[0]) == BPF_X) ||
	    (nslots == 2 && cs->insn[0].src_reg == BPF_PSEUDO_FUNC))
		return -EINVAL;
	if (ebpf_is_jmp(&cs->insn[0]) && !ebpf_is_call(&cs->insn[0]) &&
	    ebpf_jump_target(&cs->insn[0], 0) != 2)
		return -EINVAL;
	err = run_interp(cs, nslots, &ob, &res, input, map);
	if (err)
		return err;

	/* the encoding, at pc 0 of [insn, exit, exit] */
	memcpy(code, cs->insn, nslots * sizeof(code[0]));
	code[nslots] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };
	code[nslots + 1] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };
	p.len = nslots + 2;
	obj.maps = &mdef;
	obj.map_cnt = 1;
	sx_release(c, d->mark);
	if ((err = mach_init(&m, c, &p, &obj, (enum interp_ctx_kind)cs->ctx_kind, cs->input_len)))
		return err;
	m.input0 = d->input0;
	m.helper = d->helper0;
	mach_entry_state(&m, &st);
	for (int k = 0; k < 10; k++)
		st.r[k] = d->regs[k];
	st.stack[0] = d->stack0;
	st.maps[0] = d->map0;
	o = malloc(sizeof(*o));
	if (!o)
		return -ENOMEM;
	mach_step(&m, &st, 0, o);
	/* (a helper the encoding leaves to the interpreter on purpose — interp_only: its result
	 * and writes are what the prover calls unknown — has nothing to compare here) */
	if (o->unsupported[0] && ebpf_is_helper_call(&cs->insn[0]) &&
	    !mach_helper_unrun(cs->insn[0].imm)) {
		rc = -EINVAL;
		goto out;
	}
	if (o->unsupported[0])
		MISMATCH("the encoding does not support it: %s", o->unsupported);

	model = sx_model_new(c);
	if (!model) {
		rc = -ENOMEM;
		goto out;
	}
	err = 0;
	for (int k = 0; k < 10; k++)
		err |= sx_model_set(c, model, d->regs[k], cs->regs[k]);
	for (int k = 0; k < EBPF_STACK_SIZE; k++)
		err |= sx_model_set(c, model, d->stackv[k], cs->stack[k]);
	for (int k = 0; k < SMT_DIFF_INPUT_MAX; k++)
		err |= sx_model_set(c, model, d->inputv[k], k < (int)cs->input_len ? cs->input[k] : 0);
	for (int k = 0; k < SMT_DIFF_HELPER; k++)
		err |= sx_model_set(c, model, d->helperv[k],
				    k < (int)cs->helper_len ? cs->helper[k] : 0);
	for (size_t k = 0; k < sizeof(cs->map); k++)
		err |= sx_model_set(c, model, d->mapv[k], cs->map[k]);
	if (err || eval(c, model, o->trap, &trap) || eval(c, model, o->end, &end)) {
		rc = -EIO;
		snprintf(why, why_len, "model: %s", sx_failed(c) ? sx_failed(c) : "cannot evaluate");
		goto out;
	}

	/* how it ended: trap, program end, or on to pc 1 or 2 */
	{
		bool itrap = res.trap != INTERP_OK;
		bool iend = !itrap && !ob.visited;

		if (itrap && res.trap_pc != PROLOGUE)
			MISMATCH("the harness trapped in its prologue: %s", res.reason);
		if (trap != itrap)
			MISMATCH("trap: interp %s, z3 %s", itrap ? res.reason : "no",
				 trap ? "yes" : "no");
		if (itrap)
			goto out;
		if (end != iend)
			MISMATCH("end of program: interp %s, z3 %s", iend ? "yes" : "no",
				 end ? "yes" : "no");
		if (iend) {
			if (res.r0 != 0 && !ebpf_is_exit(&cs->insn[0]))
				MISMATCH("program end with r0 %#" PRIx64, res.r0);
			goto out;
		}
	}
	{
		int taken = -1;
		const struct mstate *s;

		for (unsigned k = 0; k < o->n; k++) {
			if (eval(c, model, o->succ[k].guard, &v)) {
				rc = -EIO;
				goto out;
			}
			if (v) {
				if (taken >= 0)
					MISMATCH("two successors hold");
				taken = (int)k;
			}
		}
		if (taken < 0)
			MISMATCH("no successor holds (interp went on to pc +%u)", ob.pc - PROLOGUE);
		s = &o->succ[taken];
		if (o->pc[taken] + PROLOGUE != ob.pc)
			MISMATCH("next pc: interp +%u, z3 +%u", ob.pc - PROLOGUE, o->pc[taken]);
		for (int r = 0; r < EBPF_NREGS; r++) {
			if (eval(c, model, s->r[r], &v)) {
				rc = -EIO;
				goto out;
			}
			if (v != ob.regs[r])
				MISMATCH("r%d: interp %#" PRIx64 ", z3 %#" PRIx64, r, ob.regs[r], v);
		}
		/* memory: evaluate only arrays the encoding changed; the others must be intact */
		if (compare_bytes(c, model, s->stack[0], d->stack0, cs->stack, ob.stack,
				  EBPF_STACK_SIZE, "stack fp", -EBPF_STACK_SIZE, false, why, why_len,
				  &rc) ||
		    compare_bytes(c, model, s->input, d->input0, cs->input, input, cs->input_len,
				  "input", 0, false, why, why_len, &rc) ||
		    compare_bytes(c, model, s->maps[0], d->map0, cs->map, map, sizeof(cs->map),
				  "map", 0, true, why, why_len, &rc))
			goto out;
	}
out:
	sx_model_free(c, model);
	free(o);
	sx_release(c, d->mark);
	return rc;
}

int smt_diff_one(const struct smt_diff_case *c, char *why, size_t why_len)
{
	struct smt_diff *d;
	int err = smt_diff__new(&d);

	if (err)
		return err;
	err = smt_diff_run(d, c, why, why_len);
	smt_diff__free(d);
	return err;
}
