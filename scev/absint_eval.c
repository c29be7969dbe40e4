/* Expressions of the symbolic execution (expr.h) evaluated over abstract values: the value of a
 * loop's back-edge, exit or step expression given the ranges of the locations it reads.  The
 * header step and exit values (absint_header.c), the exit bounds (exits.c) and the steps of
 * recurrences (symex.c) use it.  It calls nothing else of the range analysis, so no call cycle
 * runs between the analysis and symex.c or exits.c.
 */
#include "scev/absint.h"

/* Evaluation with a work budget: expressions are DAGs with sharing, and a walk that does not
 * memoize could take exponential time; past the budget the answer is "unknown", which is sound. */
struct eval_run {
	struct scev_ctx *cx;
	const struct aval *(*env)(void *, loc_t);
	void *arg;
	unsigned budget;
};

static struct aval eval_rec(struct eval_run *ev, eid e, unsigned depth)
{
	const struct expr *x = &ev->cx->ar.v[e];
	struct aval a, b;

	if (!ev->budget || depth > 200)
		return aval_top();
	ev->budget--;
	switch (x->kind) {
	case EX_CONST:
		return aval_const(x->imm);
	case EX_REG:
		return *ev->env(ev->arg, x->a);
	case EX_FP:
		return aval_ptr(REGION_STACK, 0, range_const(0));
	case EX_MAP:
		return aval_ptr(REGION_MAP_HANDLE, (uint16_t)x->a, range_const(0));
	case EX_ANY:
		a = eval_rec(ev, x->a, depth + 1);
		b = eval_rec(ev, x->b, depth + 1);
		return aval_join(&a, &b);
	case EX_ALU:
		a = eval_rec(ev, x->a, depth + 1);
		b = eval_rec(ev, x->b, depth + 1);
		return aval_alu(x->op, !x->w32, x->sign, &a, &b);
	case EX_NEG:
		a = eval_rec(ev, x->a, depth + 1);
		return aval_neg(&a, !x->w32);
	case EX_ZEXT:
		a = eval_rec(ev, x->a, depth + 1);
		return aval_zext(&a, x->op);
	case EX_SEXT:
		a = eval_rec(ev, x->a, depth + 1);
		return aval_sext(&a, x->op);
	case EX_BSWAP:
		a = eval_rec(ev, x->a, depth + 1);
		return aval_bswap(&a, x->op);
	case EX_RANGE:
		return aval_scalar(range_srange((int64_t)x->imm,
						(int64_t)ev->cx->ar.v[x->b].imm));
	default:
		return aval_top();
	}
}

struct aval aval_eval(struct scev_ctx *cx, eid e, const struct aval *(*env)(void *, loc_t),
		      void *arg)
{
	struct eval_run ev = { cx, env, arg, 4096 };

	return eval_rec(&ev, e, 0);
}
