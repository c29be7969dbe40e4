/* The Z3 side of the Z3 oracle: the one file of bpfscev that includes z3.h (see smt_term.h for
 * the interface the rest of oracle/smt*.c uses, and smt.h for the oracle itself).
 *
 * As in LLVM's Z3Solver.cpp and z3's test_capi.c: one context per oracle run, made with
 * Z3_mk_context_rc and given an error handler before anything else, so no Z3 error ever exits
 * the process; every Z3_ast kept here holds one reference, taken when the term enters the
 * context's arena and dropped in one place (sx_release / sx_free).  Solvers, models, params
 * and optimizers are reference-counted objects released by the function that made them.
 */
#include "oracle/z3/smt_term.h"
#include "util/clock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <z3.h>

struct sx {
	Z3_context z;
	Z3_sort bv[65];		/* bv[w]: made on first use, referenced */
	Z3_sort boolean, mem;
	Z3_ast *refs;		/* the arena: one reference each */
	size_t nrefs, caprefs;
	sxt t, f;
	bool failed;
	char err[200];
	struct sx_stats stats;
	/* Z3's resource limit: a count of elementary solver steps, the same on every machine */
	unsigned rlimit;	/* per query, 0 = none */
	uint64_t rlimit_total;	/* for the whole context, 0 = none */
	Z3_solver probe;	/* never checked: its statistics show the context's count */
	struct sel_entry *sel;	/* reads at numeral indexes answered (sx_select) */
	size_t selcap, seln;
};

struct sx_model {
	Z3_model m;
};

#define A(t) ((Z3_ast)(t))
#define T(a) ((sxt)(a))

/* The handler only has to exist: with it, a failing call returns NULL and sets the context's
 * error code instead of aborting, and keep() turns that into c->failed. */
static void sel_clear(struct sx *c);

static void on_error(Z3_context z, Z3_error_code e)
{
	(void)z;
	(void)e;
}

static void note_error(struct sx *c)
{
	Z3_error_code e = Z3_get_error_code(c->z);

	if (e == Z3_OK || c->failed)
		return;
	c->failed = true;
	snprintf(c->err, sizeof(c->err), "Z3 error: %s", Z3_get_error_msg(c->z, e));
}

/* Takes a fresh result into the arena (one reference). */
static sxt keep(struct sx *c, Z3_ast a)
{
	if (!a) {
		note_error(c);
		if (!c->failed) {
			c->failed = true;
			snprintf(c->err, sizeof(c->err), "Z3 returned no term");
		}
		return NULL;
	}
	if (c->nrefs == c->caprefs) {
		size_t nc = c->caprefs ? c->caprefs * 2 : 4096;
		Z3_ast *nv = realloc(c->refs, nc * sizeof(*nv));

		if (!nv) {
			c->failed = true;
			snprintf(c->err, sizeof(c->err), "out of memory");
			return NULL;
		}
		c->refs = nv;
		c->caprefs = nc;
	}
	Z3_inc_ref(c->z, a);
	c->refs[c->nrefs++] = a;
	return T(a);
}

static Z3_sort bv_sort(struct sx *c, unsigned w)
{
	if (w == 0 || w > 64)
		return NULL;
	if (!c->bv[w]) {
		Z3_sort s = Z3_mk_bv_sort(c->z, w);

		if (!s)
			return NULL;
		Z3_inc_ref(c->z, Z3_sort_to_ast(c->z, s));
		c->bv[w] = s;
	}
	return c->bv[w];
}

int sx_new(struct sx **out)
{
	struct sx *c = calloc(1, sizeof(*c));
	Z3_config cfg;
	Z3_sort b8, b64;

	*out = NULL;
	if (!c)
		return -ENOMEM;
	cfg = Z3_mk_config();
	if (!cfg) {
		free(c);
		return -ENOMEM;
	}
	Z3_set_param_value(cfg, "model", "true");
	c->z = Z3_mk_context_rc(cfg);
	Z3_del_config(cfg);
	if (!c->z) {
		free(c);
		return -ENOMEM;
	}
	Z3_set_error_handler(c->z, on_error);
	c->boolean = Z3_mk_bool_sort(c->z);
	Z3_inc_ref(c->z, Z3_sort_to_ast(c->z, c->boolean));
	b8 = bv_sort(c, 8);
	b64 = bv_sort(c, 64);
	c->mem = Z3_mk_array_sort(c->z, b64, b8);
	if (!c->mem) {
		sx_free(c);
		return -ENOMEM;
	}
	Z3_inc_ref(c->z, Z3_sort_to_ast(c->z, c->mem));
	c->t = keep(c, Z3_mk_true(c->z));
	c->f = keep(c, Z3_mk_false(c->z));
	if (c->failed) {
		sx_free(c);
		return -ENOMEM;
	}
	*out = c;
	return 0;
}

void sx_release(struct sx *c, size_t mark)
{
	sel_clear(c);
	while (c->nrefs > mark)
		Z3_dec_ref(c->z, c->refs[--c->nrefs]);
}

void sx_free(struct sx *c)
{
	if (!c)
		return;
	sx_release(c, 0);
	for (unsigned w = 0; w <= 64; w++)
		if (c->bv[w])
			Z3_dec_ref(c->z, Z3_sort_to_ast(c->z, c->bv[w]));
	if (c->boolean)
		Z3_dec_ref(c->z, Z3_sort_to_ast(c->z, c->boolean));
	if (c->mem)
		Z3_dec_ref(c->z, Z3_sort_to_ast(c->z, c->mem));
	if (c->probe)
		Z3_solver_dec_ref(c->z, c->probe);
	Z3_del_context(c->z);
	free(c->refs);
	free(c);
}

size_t sx_mark(const struct sx *c)
{
	return c->nrefs;
}

const char *sx_failed(const struct sx *c)
{
	return c->failed ? c->err : NULL;
}

/* ---- constants and variables ---- */

sxt sx_true(struct sx *c) { return c->t; }
sxt sx_false(struct sx *c) { return c->f; }
sxt sx_bool(struct sx *c, bool v) { return v ? c->t : c->f; }

sxt sx_bv(struct sx *c, uint64_t v, unsigned width)
{
	Z3_sort s = bv_sort(c, width);

	if (!s)
		return keep(c, NULL);
	if (width < 64)
		v &= (1ull << width) - 1;
	return keep(c, Z3_mk_unsigned_int64(c->z, v, s));
}

sxt sx_var(struct sx *c, const char *name, unsigned width)
{
	Z3_sort s = bv_sort(c, width);

	if (!s)
		return keep(c, NULL);
	return keep(c, Z3_mk_const(c->z, Z3_mk_string_symbol(c->z, name), s));
}

sxt sx_fresh(struct sx *c, const char *prefix, unsigned width)
{
	Z3_sort s = bv_sort(c, width);

	if (!s)
		return keep(c, NULL);
	return keep(c, Z3_mk_fresh_const(c->z, prefix, s));
}

sxt sx_fresh_bool(struct sx *c, const char *prefix)
{
	return keep(c, Z3_mk_fresh_const(c->z, prefix, c->boolean));
}

sxt sx_fresh_mem(struct sx *c, const char *prefix)
{
	return keep(c, Z3_mk_fresh_const(c->z, prefix, c->mem));
}

sxt sx_mem_const(struct sx *c, uint8_t byte)
{
	sxt b = sx_bv(c, byte, 8);

	if (!b)
		return NULL;
	return keep(c, Z3_mk_const_array(c->z, bv_sort(c, 64), A(b)));
}

sxt sx_mem_fill_hi(struct sx *c, sxt mem, sxt hi, sxt byte)
{
	sxt i, body;
	Z3_app b;

	if (!mem || !hi || !byte)
		return NULL;
	i = keep(c, Z3_mk_fresh_const(c->z, "w", bv_sort(c, 64)));
	body = sx_ite(c, sx_eq(c, sx_extract(c, 63, 32, i), hi), byte, sx_select(c, mem, i));
	if (!i || !body)
		return NULL;
	b = Z3_to_app(c->z, A(i));
	return keep(c, Z3_mk_lambda_const(c->z, 1, &b, A(body)));
}

/* ---- bit-vectors ---- */

unsigned sx_width(struct sx *c, sxt a)
{
	Z3_sort s;

	if (!a)
		return 0;
	s = Z3_get_sort(c->z, A(a));
	if (Z3_get_sort_kind(c->z, s) != Z3_BV_SORT)
		return 0;
	return Z3_get_bv_sort_size(c->z, s);
}

/* A term whose operands are all numerals is simplified to a numeral right away: Z3's API does
 * not fold at construction, and the machine needs constant addresses to stay constant (a spill
 * and fill of a stack pointer, a load from a constant offset). */
static sxt fold(struct sx *c, sxt t)
{
	return t ? keep(c, Z3_simplify(c->z, A(t))) : NULL;
}

static bool is_num(struct sx *c, sxt a)
{
	return a == c->t || a == c->f || Z3_is_numeral_ast(c->z, A(a));
}

#define BIN(name, fn)                                                                       \
	sxt name(struct sx *c, sxt a, sxt b)                                                \
	{                                                                                   \
		sxt r;                                                                      \
		if (!a || !b)                                                               \
			return NULL;                                                        \
		r = keep(c, fn(c->z, A(a), A(b)));                                          \
		return is_num(c, a) && is_num(c, b) ? fold(c, r) : r;                       \
	}
BIN(sx_add, Z3_mk_bvadd)
BIN(sx_sub, Z3_mk_bvsub)
BIN(sx_mul, Z3_mk_bvmul)
BIN(sx_udiv, Z3_mk_bvudiv)
BIN(sx_urem, Z3_mk_bvurem)
BIN(sx_sdiv, Z3_mk_bvsdiv)
BIN(sx_srem, Z3_mk_bvsrem)
BIN(sx_and, Z3_mk_bvand)
BIN(sx_or, Z3_mk_bvor)
BIN(sx_xor, Z3_mk_bvxor)
BIN(sx_shl, Z3_mk_bvshl)
BIN(sx_lshr, Z3_mk_bvlshr)
BIN(sx_ashr, Z3_mk_bvashr)
BIN(sx_concat, Z3_mk_concat)
BIN(sx_eq, Z3_mk_eq)
BIN(sx_ult, Z3_mk_bvult)
BIN(sx_ule, Z3_mk_bvule)
BIN(sx_slt, Z3_mk_bvslt)
BIN(sx_sle, Z3_mk_bvsle)
BIN(sx_implies, Z3_mk_implies)
#undef BIN

/* ---- reads at constant indexes ----
 *
 * A read of a byte array at a numeral index looks through the stores at other numeral indexes
 * to the one that wrote it, and into both arms of an array if-then-else (the merge of two
 * paths' memories): select(ite(g, a, b), k) is ite(g, select(a, k), select(b, k)), one term
 * when both arms give the same.  Z3_simplify did this, but it also rewrites every if-then-else
 * condition it meets — the path guards of every merge below, thousands of terms — on every read
 * without remembering the last one's work: the claims' cells read at each pc of a generated
 * dynptr program (18 stack cells, 8 bytes each) spent 17 of its 20 million resource units there
 * before any query.  Here no condition is looked at, and every (array, index) answered is kept
 * (sel_cache, its own Z3 references) until the next sx_release, so a read walks only the stores
 * made since an earlier read of that byte. */

struct sel_entry {
	Z3_ast arr, val;	/* NULL arr: an empty slot */
	uint64_t k;
};

static size_t sel_hash(Z3_ast arr, uint64_t k, size_t mask)
{
	uint64_t h = (uint64_t)(uintptr_t)arr * 0x9e3779b97f4a7c15ull ^ (k + 0x632be59bd9b4e019ull) *
		     0xbf58476d1ce4e5b9ull;

	return (size_t)(h ^ (h >> 29)) & mask;
}

static Z3_ast sel_find(struct sx *c, Z3_ast arr, uint64_t k)
{
	if (!c->sel)
		return NULL;
	for (size_t h = sel_hash(arr, k, c->selcap - 1);; h = (h + 1) & (c->selcap - 1)) {
		if (!c->sel[h].arr)
			return NULL;
		if (c->sel[h].arr == arr && c->sel[h].k == k)
			return c->sel[h].val;
	}
}

static void sel_clear(struct sx *c)
{
	for (size_t h = 0; h < c->selcap; h++)
		if (c->sel[h].arr) {
			Z3_dec_ref(c->z, c->sel[h].arr);
			Z3_dec_ref(c->z, c->sel[h].val);
		}
	free(c->sel);
	c->sel = NULL;
	c->selcap = c->seln = 0;
}

/* Remembers val (one reference more for it and arr; false when out of memory). */
static bool sel_put(struct sx *c, Z3_ast arr, uint64_t k, Z3_ast val)
{
	size_t h;

	if (c->seln + 1 > c->selcap / 2) {
		struct sel_entry *old = c->sel;
		size_t oldcap = c->selcap, nc = oldcap ? oldcap * 2 : 1024;

		if (nc > (1u << 22)) {	/* (a bound on memory: start again) */
			sel_clear(c);
			old = NULL;
			oldcap = 0;
			nc = 1024;
		}
		c->sel = calloc(nc, sizeof(*c->sel));
		if (!c->sel) {
			c->sel = old;
			return false;
		}
		c->selcap = nc;
		for (size_t j = 0; j < oldcap; j++)
			if (old[j].arr) {
				for (h = sel_hash(old[j].arr, old[j].k, nc - 1); c->sel[h].arr;
				     h = (h + 1) & (nc - 1))
					;
				c->sel[h] = old[j];
			}
		free(old);
	}
	for (h = sel_hash(arr, k, c->selcap - 1); c->sel[h].arr; h = (h + 1) & (c->selcap - 1))
		;
	Z3_inc_ref(c->z, arr);
	Z3_inc_ref(c->z, val);
	c->sel[h] = (struct sel_entry){ arr, val, k };
	c->seln++;
	return true;
}

static bool numeral(struct sx *c, Z3_ast a, uint64_t *v);

#define SEL_DEPTH 256	/* nested array if-then-elses walked (deeper: a plain select) */

/* select(arr, kn) for the numeral kn = k (see above); NULL on a Z3 error or out of memory. */
static Z3_ast sel_walk(struct sx *c, Z3_ast arr, Z3_ast kn, uint64_t k, unsigned depth)
{
	Z3_ast top = arr, r = NULL, held = NULL;
	bool ok;

	for (;;) {
		Z3_app app;
		Z3_decl_kind dk;
		uint64_t i;

		if ((r = sel_find(c, arr, k)))
			break;
		if (Z3_get_ast_kind(c->z, arr) != Z3_APP_AST) {
			Z3_ast q = Z3_mk_select(c->z, arr, kn);	/* (a lambda: as Z3 reads it) */

			if (!q)
				return NULL;
			Z3_inc_ref(c->z, q);
			r = Z3_simplify(c->z, q);
			if (r)
				Z3_inc_ref(c->z, r);
			Z3_dec_ref(c->z, q);
			if (!r)
				return NULL;
			held = r;
			break;
		}
		app = Z3_to_app(c->z, arr);
		dk = Z3_get_decl_kind(c->z, Z3_get_app_decl(c->z, app));
		if (dk == Z3_OP_STORE && numeral(c, Z3_get_app_arg(c->z, app, 1), &i)) {
			if (i == k) {
				r = Z3_get_app_arg(c->z, app, 2);
				break;
			}
			arr = Z3_get_app_arg(c->z, app, 0);
			continue;
		}
		if (dk == Z3_OP_CONST_ARRAY) {
			r = Z3_get_app_arg(c->z, app, 0);
			break;
		}
		if (dk == Z3_OP_ITE && depth) {
			Z3_ast a = sel_walk(c, Z3_get_app_arg(c->z, app, 1), kn, k, depth - 1), b;

			if (!a)
				return NULL;
			Z3_inc_ref(c->z, a);	/* (while b is made) */
			b = sel_walk(c, Z3_get_app_arg(c->z, app, 2), kn, k, depth - 1);
			r = !b ? NULL : a == b ? a : Z3_mk_ite(c->z, Z3_get_app_arg(c->z, app, 0), a, b);
			if (r)
				Z3_inc_ref(c->z, r);
			Z3_dec_ref(c->z, a);
			if (!r)
				return NULL;
			held = r;
			break;
		}
		/* a store at an index that is not a numeral, an array variable */
		r = Z3_mk_select(c->z, arr, kn);
		break;
	}
	if (!r)
		return NULL;
	/* the answer for the array read and for the last one walked through (held meanwhile: a
	 * put may empty the cache) */
	Z3_inc_ref(c->z, r);
	if (held)
		Z3_dec_ref(c->z, held);
	ok = (arr == top || sel_find(c, arr, k) || sel_put(c, arr, k, r)) &&
	     (sel_find(c, top, k) || sel_put(c, top, k, r));
	Z3_dec_ref(c->z, r);	/* (the cache holds it now) */
	return ok ? r : NULL;
}

/* A read at a numeral index looks through the stores (sel_walk). */
sxt sx_select(struct sx *c, sxt mem, sxt idx)
{
	uint64_t k;

	if (!mem || !idx)
		return NULL;
	if (numeral(c, A(idx), &k)) {
		Z3_ast r = sel_walk(c, A(mem), A(idx), k, SEL_DEPTH);

		if (!r && !c->failed) {
			note_error(c);
			if (!c->failed) {
				c->failed = true;
				snprintf(c->err, sizeof(c->err), "out of memory");
			}
		}
		return r ? keep(c, r) : NULL;
	}
	return keep(c, Z3_mk_select(c->z, A(mem), A(idx)));
}

static sxt unary(struct sx *c, sxt a, Z3_ast r)
{
	sxt t = keep(c, r);

	return t && is_num(c, a) ? fold(c, t) : t;
}

sxt sx_neg(struct sx *c, sxt a)
{
	return a ? unary(c, a, Z3_mk_bvneg(c->z, A(a))) : NULL;
}

sxt sx_bvnot(struct sx *c, sxt a)
{
	return a ? unary(c, a, Z3_mk_bvnot(c->z, A(a))) : NULL;
}

sxt sx_extract(struct sx *c, unsigned hi, unsigned lo, sxt a)
{
	if (!a)
		return NULL;
	if (lo == 0 && hi + 1 == sx_width(c, a))
		return a;
	return unary(c, a, Z3_mk_extract(c->z, hi, lo, A(a)));
}

sxt sx_zext(struct sx *c, unsigned to_width, sxt a)
{
	unsigned w = sx_width(c, a);

	if (!a)
		return NULL;
	if (w == to_width)
		return a;
	if (w == 0 || w > to_width)
		return keep(c, NULL);
	return unary(c, a, Z3_mk_zero_ext(c->z, to_width - w, A(a)));
}

sxt sx_sext(struct sx *c, unsigned to_width, sxt a)
{
	unsigned w = sx_width(c, a);

	if (!a)
		return NULL;
	if (w == to_width)
		return a;
	if (w == 0 || w > to_width)
		return keep(c, NULL);
	return unary(c, a, Z3_mk_sign_ext(c->z, to_width - w, A(a)));
}

/* ---- booleans ---- */

sxt sx_ne(struct sx *c, sxt a, sxt b)
{
	return sx_not(c, sx_eq(c, a, b));
}

sxt sx_not(struct sx *c, sxt a)
{
	if (!a)
		return NULL;
	if (a == c->t)
		return c->f;
	if (a == c->f)
		return c->t;
	return unary(c, a, Z3_mk_not(c->z, A(a)));
}

sxt sx_land(struct sx *c, sxt a, sxt b)
{
	sxt v[2] = { a, b };

	return sx_landn(c, 2, v);
}

sxt sx_lor(struct sx *c, sxt a, sxt b)
{
	sxt v[2] = { a, b };

	return sx_lorn(c, 2, v);
}

/* n-ary and/or: constants absorbed here so that guards stay small. */
static sxt junction(struct sx *c, unsigned n, const sxt *args, bool is_and)
{
	sxt unit = is_and ? c->t : c->f, zero = is_and ? c->f : c->t, one = NULL;
	Z3_ast small[16], *v = small;
	unsigned k = 0;
	sxt r;

	for (unsigned i = 0; i < n; i++)
		if (!args[i])
			return NULL;
	if (n > 16) {
		v = malloc(n * sizeof(*v));
		if (!v)
			return keep(c, NULL);
	}
	for (unsigned i = 0; i < n; i++) {
		if (args[i] == zero) {
			if (v != small)
				free(v);
			return zero;
		}
		if (args[i] == unit)
			continue;
		v[k++] = A(args[i]);
		one = args[i];
	}
	if (k == 0)
		r = unit;
	else if (k == 1)
		r = one;
	else
		r = keep(c, is_and ? Z3_mk_and(c->z, k, v) : Z3_mk_or(c->z, k, v));
	if (v != small)
		free(v);
	return r;
}

sxt sx_landn(struct sx *c, unsigned n, const sxt *args)
{
	return junction(c, n, args, true);
}

sxt sx_lorn(struct sx *c, unsigned n, const sxt *args)
{
	return junction(c, n, args, false);
}

sxt sx_ite(struct sx *c, sxt cond, sxt a, sxt b)
{
	if (!cond || !a || !b)
		return NULL;
	if (a == b || cond == c->t)
		return a;
	if (cond == c->f)
		return b;
	return keep(c, Z3_mk_ite(c->z, A(cond), A(a), A(b)));
}

sxt sx_store(struct sx *c, sxt mem, sxt idx, sxt byte)
{
	if (!mem || !idx || !byte)
		return NULL;
	return keep(c, Z3_mk_store(c->z, A(mem), A(idx), A(byte)));
}

/* ---- inspection ---- */

sxt sx_simplify(struct sx *c, sxt a)
{
	return a ? keep(c, Z3_simplify(c->z, A(a))) : NULL;
}

static bool numeral(struct sx *c, Z3_ast a, uint64_t *v)
{
	Z3_lbool b;

	/* Z3 calls true and false numerals too: ask about booleans first */
	if (Z3_get_sort_kind(c->z, Z3_get_sort(c->z, a)) != Z3_BOOL_SORT) {
		uint64_t x;

		if (!Z3_is_numeral_ast(c->z, a) || !Z3_get_numeral_uint64(c->z, a, &x))
			return false;
		*v = x;
		return true;
	}
	b = Z3_get_bool_value(c->z, a);
	if (b == Z3_L_UNDEF)
		return false;
	*v = b == Z3_L_TRUE;
	return true;
}

bool sx_num(struct sx *c, sxt a, uint64_t *v)
{
	return a && numeral(c, A(a), v);
}

/* The values a bit-vector term of at most 64 bits made of numerals, if-then-elses, additions,
 * concatenations and extractions may take: into out (at most max, duplicates kept), their
 * count; 0 when the term has another operator or more values. */
static unsigned leaves(struct sx *c, Z3_ast a, uint64_t *out, unsigned max, unsigned depth)
{
	Z3_app app;
	Z3_decl_kind k;
	Z3_func_decl d;
	unsigned n, na, w;
	uint64_t v, la[16], lb[16], mask;

	if (numeral(c, a, &v)) {
		if (!max)
			return 0;
		out[0] = v;
		return 1;
	}
	if (!depth || Z3_get_ast_kind(c->z, a) != Z3_APP_AST)
		return 0;
	w = Z3_get_bv_sort_size(c->z, Z3_get_sort(c->z, a));
	if (!w || w > 64)
		return 0;
	mask = w == 64 ? UINT64_MAX : (1ull << w) - 1;
	app = Z3_to_app(c->z, a);
	d = Z3_get_app_decl(c->z, app);
	k = Z3_get_decl_kind(c->z, d);
	n = Z3_get_app_num_args(c->z, app);
	if (k == Z3_OP_ITE && n == 3) {
		unsigned nb;

		na = leaves(c, Z3_get_app_arg(c->z, app, 1), out, max, depth - 1);
		nb = na ? leaves(c, Z3_get_app_arg(c->z, app, 2), out + na, max - na, depth - 1) : 0;
		return nb ? na + nb : 0;
	}
	if (k == Z3_OP_EXTRACT && n == 1) {
		unsigned lo = (unsigned)Z3_get_decl_int_parameter(c->z, d, 1);

		na = leaves(c, Z3_get_app_arg(c->z, app, 0), out, max, depth - 1);
		for (unsigned i = 0; i < na; i++)
			out[i] = (lo < 64 ? out[i] >> lo : 0) & mask;
		return na;
	}
	if ((k == Z3_OP_BADD || k == Z3_OP_CONCAT) && n >= 1 && n <= 8) {
		unsigned m = 1;

		if (!max)
			return 0;
		out[0] = 0;
		for (unsigned j = 0; j < n; j++) {
			Z3_ast x = Z3_get_app_arg(c->z, app, j);
			unsigned xw = Z3_get_bv_sort_size(c->z, Z3_get_sort(c->z, x)), nb, mm = 0;

			nb = leaves(c, x, lb, 16, depth - 1);
			if (!nb || m * nb > max || m * nb > 16)
				return 0;
			for (unsigned i = 0; i < m; i++)
				for (unsigned q = 0; q < nb; q++)
					la[mm++] = k == Z3_OP_BADD ? (out[i] + lb[q]) & mask
						   : ((xw < 64 ? out[i] << xw : 0) | lb[q]) & mask;
			memcpy(out, la, mm * sizeof(*out));
			m = mm;
		}
		return m;
	}
	return 0;
}

unsigned sx_leaves(struct sx *c, sxt a, uint64_t *out, unsigned max)
{
	if (!a || sx_width(c, a) != 64)
		return 0;
	return leaves(c, A(a), out, max, 12);
}

/* Intervals [lo[i], hi[i]] (no wrap) that together hold every value of a bit-vector term of at
 * most 64 bits: numerals, if-then-elses (the arms' intervals), additions that cannot wrap,
 * zero extensions, and the results bounded by their operator (an and with a numeral mask, a
 * right shift or a remainder by a numeral); any other term of fewer than 64 bits, its width's
 * range.  Into lo, hi (at most max), their count; 0 when nothing bounds a 64-bit term. */
static unsigned ranges(struct sx *c, Z3_ast a, uint64_t *lo, uint64_t *hi, unsigned max,
		       unsigned depth)
{
	Z3_app app;
	Z3_decl_kind k;
	unsigned n, w;
	uint64_t v, mask;

	if (!max)
		return 0;
	if (numeral(c, a, &v)) {
		lo[0] = hi[0] = v;
		return 1;
	}
	w = Z3_get_bv_sort_size(c->z, Z3_get_sort(c->z, a));
	if (!w || w > 64)
		return 0;
	mask = w == 64 ? UINT64_MAX : (1ull << w) - 1;
	/* (the width's range: what every term below 64 bits has at least) */
	lo[0] = 0;
	hi[0] = mask;
	if (!depth || Z3_get_ast_kind(c->z, a) != Z3_APP_AST)
		return w < 64;
	app = Z3_to_app(c->z, a);
	k = Z3_get_decl_kind(c->z, Z3_get_app_decl(c->z, app));
	n = Z3_get_app_num_args(c->z, app);
	if (k == Z3_OP_ITE && n == 3) {
		unsigned na = ranges(c, Z3_get_app_arg(c->z, app, 1), lo, hi, max, depth - 1), nb;

		nb = na ? ranges(c, Z3_get_app_arg(c->z, app, 2), lo + na, hi + na, max - na,
				 depth - 1) : 0;
		if (na && nb)
			return na + nb;
		lo[0] = 0;
		hi[0] = mask;
		return w < 64;
	}
	if (k == Z3_OP_ZERO_EXT && n == 1) {
		Z3_ast x = Z3_get_app_arg(c->z, app, 0);
		unsigned xw = Z3_get_bv_sort_size(c->z, Z3_get_sort(c->z, x)), nx;

		nx = ranges(c, x, lo, hi, max, depth - 1);
		if (nx)
			return nx;
		lo[0] = 0;
		hi[0] = xw < 64 ? (1ull << xw) - 1 : UINT64_MAX;
		return 1;
	}
	if (k == Z3_OP_BADD && n >= 2 && n <= 4) {
		uint64_t alo[8], ahi[8], blo[8], bhi[8];
		unsigned m = ranges(c, Z3_get_app_arg(c->z, app, 0), alo, ahi, 8, depth - 1);

		for (unsigned j = 1; j < n && m; j++) {
			unsigned nb = ranges(c, Z3_get_app_arg(c->z, app, j), blo, bhi, 8, depth - 1);
			uint64_t tlo[8], thi[8];
			unsigned mm = 0;

			if (!nb || m * nb > 8)
				m = 0;
			for (unsigned x = 0; x < m && m; x++)
				for (unsigned y = 0; y < nb; y++) {
					/* (no wrap within the width, or no bound) */
					if (bhi[y] > mask - ahi[x]) {
						m = 0;
						break;
					}
					tlo[mm] = alo[x] + blo[y];
					thi[mm++] = ahi[x] + bhi[y];
				}
			if (m) {
				memcpy(alo, tlo, mm * sizeof(*alo));
				memcpy(ahi, thi, mm * sizeof(*ahi));
				m = mm;
			}
		}
		if (m && m <= max) {
			memcpy(lo, alo, m * sizeof(*lo));
			memcpy(hi, ahi, m * sizeof(*hi));
			return m;
		}
		return w < 64;
	}
	if (n == 2 && (k == Z3_OP_BSHL || k == Z3_OP_BMUL)) {
		/* a shift left or a product by a numeral, each interval's bounds scaled when none
		 * wraps (a slot's offset in a map: its index times the value's window) */
		Z3_ast x = Z3_get_app_arg(c->z, app, 0), y = Z3_get_app_arg(c->z, app, 1);
		uint64_t f;
		unsigned nx;

		if (k == Z3_OP_BMUL && !numeral(c, y, &v) && numeral(c, x, &v))
			x = y;
		else if (!numeral(c, y, &v))
			return w < 64;
		if (k == Z3_OP_BSHL && v >= w)
			return w < 64;
		f = k == Z3_OP_BSHL ? 1ull << v : v;
		nx = ranges(c, x, lo, hi, max, depth - 1);
		for (unsigned j = 0; j < nx; j++)
			if (f && hi[j] > mask / f)
				nx = 0;
		for (unsigned j = 0; j < nx; j++) {
			lo[j] *= f;
			hi[j] *= f;
		}
		if (nx)
			return nx;
		lo[0] = 0;
		hi[0] = mask;
		return w < 64;
	}
	if (n == 2 && (k == Z3_OP_BAND || k == Z3_OP_BLSHR || k == Z3_OP_BUREM ||
		       k == Z3_OP_BUREM_I)) {
		Z3_ast x = Z3_get_app_arg(c->z, app, 0), y = Z3_get_app_arg(c->z, app, 1);

		if (k == Z3_OP_BAND && (numeral(c, y, &v) || numeral(c, x, &v))) {
			hi[0] = v;
			return 1;
		}
		if (k == Z3_OP_BLSHR && numeral(c, y, &v)) {
			hi[0] = v >= w ? 0 : mask >> v;
			return 1;
		}
		if (k != Z3_OP_BAND && k != Z3_OP_BLSHR && numeral(c, y, &v) && v) {
			hi[0] = v - 1;
			return 1;
		}
	}
	return w < 64;
}

unsigned sx_ranges(struct sx *c, sxt a, uint64_t *lo, uint64_t *hi, unsigned max)
{
	if (!a || !sx_width(c, a))
		return 0;
	return ranges(c, A(a), lo, hi, max, 12);
}

bool sx_is_const(struct sx *c, sxt a, uint64_t *v)
{
	sxt s;

	if (!a)
		return false;
	if (numeral(c, A(a), v))
		return true;
	s = sx_simplify(c, a);
	return s && numeral(c, A(s), v);
}

bool sx_is_true(struct sx *c, sxt a)
{
	return a == c->t;
}

bool sx_is_false(struct sx *c, sxt a)
{
	return a == c->f;
}

unsigned sx_id(struct sx *c, sxt a)
{
	return a ? Z3_get_ast_id(c->z, A(a)) : 0;
}

void sx_print(struct sx *c, sxt a, char *buf, size_t n)
{
	const char *s;

	if (!n)
		return;
	if (!a) {
		snprintf(buf, n, "(null)");
		return;
	}
	Z3_set_ast_print_mode(c->z, Z3_PRINT_SMTLIB2_COMPLIANT);
	s = Z3_ast_to_string(c->z, A(a));
	snprintf(buf, n, "%s", s ? s : "?");
}

/* ---- queries ---- */

void sx_set_rlimit(struct sx *c, unsigned per_query, uint64_t total)
{
	c->rlimit = per_query;
	c->rlimit_total = total;
}

bool sx_rlimit_spent(const struct sx *c)
{
	return c->rlimit_total && c->stats.rlimit >= c->rlimit_total;
}

/* The resource limit of the next query, scale times the per-query one, cut to what is left of
 * the context's total; 0 = none. */
static unsigned query_rlimit(const struct sx *c, unsigned scale)
{
	uint64_t lim = (uint64_t)c->rlimit * scale;

	if (c->rlimit_total) {
		uint64_t left = c->rlimit_total - c->stats.rlimit;

		if (!lim || left < lim)
			lim = left;
	}
	return lim > UINT32_MAX ? UINT32_MAX : (unsigned)lim;
}

static Z3_params query_params(struct sx *c, unsigned timeout_ms, unsigned rlimit)
{
	Z3_params p = Z3_mk_params(c->z);

	Z3_params_inc_ref(c->z, p);
	if (timeout_ms)
		Z3_params_set_uint(c->z, p, Z3_mk_string_symbol(c->z, "timeout"), timeout_ms);
	if (rlimit)
		Z3_params_set_uint(c->z, p, Z3_mk_string_symbol(c->z, "rlimit"), rlimit);
	return p;
}

/* The context's resource count so far, from the statistics of any solver of it (Z3 keeps one
 * counter per context; the statistics are the only place the C API shows it). */
static void count_rlimit(struct sx *c, Z3_stats st)
{
	unsigned n;

	if (!st)
		return;
	Z3_stats_inc_ref(c->z, st);
	n = Z3_stats_size(c->z, st);
	for (unsigned k = 0; k < n; k++) {
		if (strcmp(Z3_stats_get_key(c->z, st, k), "rlimit count"))
			continue;
		if (Z3_stats_is_uint(c->z, st, k))
			c->stats.rlimit = Z3_stats_get_uint_value(c->z, st, k);
		else
			c->stats.rlimit = (uint64_t)Z3_stats_get_double_value(c->z, st, k);
		break;
	}
	Z3_stats_dec_ref(c->z, st);
}

void sx_poll_rlimit(struct sx *c)
{
	if (!c->probe) {
		c->probe = Z3_mk_simple_solver(c->z);
		if (!c->probe) {
			note_error(c);
			return;
		}
		Z3_solver_inc_ref(c->z, c->probe);
	}
	count_rlimit(c, Z3_solver_get_statistics(c->z, c->probe));
}

/* Before a query: false (and why) when the context's total budget is spent. */
static bool budget_left(struct sx *c, char *why, size_t why_len)
{
	if (!sx_rlimit_spent(c))
		return true;
	c->stats.queries++;
	c->stats.unknown++;
	if (why)
		snprintf(why, why_len, "resource budget of %llu spent",
			 (unsigned long long)c->rlimit_total);
	return false;
}

/* Solver s answered r: counted, the model fetched for SAT (when asked for), the reason kept
 * for unknown. */
static enum sx_res answer(struct sx *c, Z3_solver s, Z3_lbool r, struct sx_model **model,
			  char *why, size_t why_len)
{
	enum sx_res res = SX_UNKNOWN;

	c->stats.queries++;
	if (r == Z3_L_FALSE) {
		res = SX_UNSAT;
		c->stats.unsat++;
	} else if (r == Z3_L_TRUE) {
		res = SX_SAT;
		c->stats.sat++;
		if (model) {
			Z3_model m = Z3_solver_get_model(c->z, s);

			if (m) {
				*model = malloc(sizeof(**model));
				if (*model) {
					Z3_model_inc_ref(c->z, m);
					(*model)->m = m;
				}
			}
			if (!*model) {
				note_error(c);
				res = SX_UNKNOWN;
				if (why)
					snprintf(why, why_len, "no model for a satisfiable query");
			}
		}
	} else {
		c->stats.unknown++;
		if (why) {
			const char *rs = Z3_solver_get_reason_unknown(c->z, s);

			snprintf(why, why_len, "%s", rs && *rs ? rs : "unknown");
		}
	}
	return res;
}

/* After a query: a Z3 error makes any answer unknown (and drops its model); time counted. */
static enum sx_res settle(struct sx *c, enum sx_res res, struct sx_model **model, char *why,
			  size_t why_len, double t0)
{
	if (Z3_get_error_code(c->z) != Z3_OK) {
		note_error(c);
		if (model && *model) {
			sx_model_free(c, *model);
			*model = NULL;
		}
		if (why)
			snprintf(why, why_len, "%s", c->err);
		res = SX_UNKNOWN;
	}
	c->stats.ms += 1e3 * (wall_s() - t0);
	return res;
}

/* One query of f on a fresh solver: QF_ABV's (general: the default portfolio). */
static enum sx_res check_once(struct sx *c, sxt f, bool general, unsigned timeout_ms,
			      struct sx_model **model, char *why, size_t why_len)
{
	Z3_solver s;
	Z3_params p;
	Z3_lbool r;
	enum sx_res res;

	/* the logic-specific solver: 3-4 times faster here than the default portfolio */
	s = general ? Z3_mk_solver(c->z) : Z3_mk_solver_for_logic(c->z, Z3_mk_string_symbol(c->z,
											 "QF_ABV"));
	Z3_solver_inc_ref(c->z, s);
	p = query_params(c, timeout_ms, query_rlimit(c, 1));
	Z3_solver_set_params(c->z, s, p);
	Z3_params_dec_ref(c->z, p);
	Z3_solver_assert(c->z, s, A(f));
	r = Z3_solver_check(c->z, s);
	res = answer(c, s, r, model, why, why_len);
	count_rlimit(c, Z3_solver_get_statistics(c->z, s));
	Z3_solver_dec_ref(c->z, s);
	return res;
}

/* QF_ABV's solver gives up on some formulas with if-then-else over arrays ("smt tactic failed
 * to show goal to be sat/unsat (incomplete (theory array))"): the default portfolio decides
 * them.  Retried there once, within what is left of the budget. */
static bool incomplete(enum sx_res res, const char *why)
{
	return res == SX_UNKNOWN && why && strstr(why, "incomplete");
}

enum sx_res sx_check(struct sx *c, sxt f, unsigned timeout_ms, struct sx_model **model,
		     char *why, size_t why_len)
{
	enum sx_res res;
	double t0 = wall_s();

	if (model)
		*model = NULL;
	if (why && why_len)
		why[0] = 0;
	if (!f || c->failed) {
		if (why)
			snprintf(why, why_len, "%s", c->failed ? c->err : "no formula");
		return SX_UNKNOWN;
	}
	if (f == c->f)
		return SX_UNSAT;
	if (!budget_left(c, why, why_len))
		return SX_UNKNOWN;
	res = check_once(c, f, false, timeout_ms, model, why, why_len);
	if (incomplete(res, why) && budget_left(c, why, why_len))
		res = check_once(c, f, true, timeout_ms, model, why, why_len);
	return settle(c, res, model, why, why_len, t0);
}

struct sx_solver {
	Z3_solver s;
	sxt base;
	unsigned n;
	unsigned timeout_ms;
	unsigned rlimit;	/* the limit its params hold */
	/* It answered "incomplete" once: each later check on a fresh solver (sx_check).  An
	 * incremental QF_ABV solver that gave up on the arrays once tends to again, slowly: one
	 * such query took about 1 s for 157,000 units (about 7 ms a thousand), where a fresh
	 * solver's take 0.2-1 ms a thousand (gen p_bpf_loop=60, fuzz seed 16, program 15) */
	bool alone;
};

struct sx_solver *sx_solver_new(struct sx *c, sxt base, unsigned timeout_ms)
{
	struct sx_solver *sv;
	Z3_params p;

	if (!base || c->failed)
		return NULL;
	sv = calloc(1, sizeof(*sv));
	if (!sv)
		return NULL;
	sv->s = Z3_mk_solver_for_logic(c->z, Z3_mk_string_symbol(c->z, "QF_ABV"));
	Z3_solver_inc_ref(c->z, sv->s);
	sv->timeout_ms = timeout_ms;
	sv->base = base;
	sv->rlimit = query_rlimit(c, 1);
	p = query_params(c, timeout_ms, sv->rlimit);
	Z3_solver_set_params(c->z, sv->s, p);
	Z3_params_dec_ref(c->z, p);
	Z3_solver_assert(c->z, sv->s, A(base));
	if (Z3_get_error_code(c->z) != Z3_OK) {
		note_error(c);
		sx_solver_free(c, sv);
		return NULL;
	}
	return sv;
}

void sx_solver_free(struct sx *c, struct sx_solver *sv)
{
	if (!sv)
		return;
	Z3_solver_dec_ref(c->z, sv->s);
	free(sv);
}

enum sx_res sx_solver_check(struct sx *c, struct sx_solver *sv, sxt extra,
			    struct sx_model **model, char *why, size_t why_len)
{
	Z3_lbool r;
	Z3_ast lit;
	sxt p;
	unsigned rl;
	enum sx_res res;
	double t0 = wall_s();

	if (model)
		*model = NULL;
	if (why && why_len)
		why[0] = 0;
	if (!sv || !extra || c->failed) {
		if (why)
			snprintf(why, why_len, "%s", c->failed ? c->err : "no formula");
		return SX_UNKNOWN;
	}
	if (extra == c->f)
		return SX_UNSAT;
	if (!budget_left(c, why, why_len))
		return SX_UNKNOWN;
	if (sv->alone)
		return sx_check(c, sx_land(c, sv->base, extra), sv->timeout_ms, model, why, why_len);
	/* the total budget may have shrunk the limit since the last check */
	rl = query_rlimit(c, 1);
	if (rl != sv->rlimit) {
		Z3_params q = query_params(c, sv->timeout_ms, rl);

		Z3_solver_set_params(c->z, sv->s, q);
		Z3_params_dec_ref(c->z, q);
		sv->rlimit = rl;
	}
	/* extra holds under a fresh literal, assumed for this check only */
	p = sx_fresh_bool(c, "q");
	if (!p)
		return SX_UNKNOWN;
	Z3_solver_assert(c->z, sv->s, Z3_mk_implies(c->z, A(p), A(extra)));
	lit = A(p);
	r = Z3_solver_check_assumptions(c->z, sv->s, 1, &lit);
	sv->n++;
	res = answer(c, sv->s, r, model, why, why_len);
	count_rlimit(c, Z3_solver_get_statistics(c->z, sv->s));
	if (incomplete(res, why)) {
		sv->alone = true;
		if (budget_left(c, why, why_len))
			res = check_once(c, sx_land(c, sv->base, extra), true, sv->timeout_ms, model,
					 why, why_len);
	}
	return settle(c, res, model, why, why_len, t0);
}

enum sx_res sx_maximize(struct sx *c, sxt f, sxt t, bool is_signed, unsigned timeout_ms,
			uint64_t *best)
{
	Z3_optimize o;
	Z3_params p;
	Z3_lbool r;
	enum sx_res res = SX_UNKNOWN;
	sxt obj;
	double t0 = wall_s();

	if (!f || !t || c->failed || sx_width(c, t) != 64 || sx_rlimit_spent(c))
		return SX_UNKNOWN;
	/* Z3 orders bit-vector objectives as unsigned numbers: a signed maximum is the unsigned
	 * maximum of the value with its sign bit flipped. */
	obj = is_signed ? sx_xor(c, t, sx_bv(c, 1ull << 63, 64)) : t;
	if (!obj)
		return SX_UNKNOWN;
	o = Z3_mk_optimize(c->z);
	Z3_optimize_inc_ref(c->z, o);
	/* optimization takes several solver calls: four queries' worth */
	p = query_params(c, timeout_ms, query_rlimit(c, 4));
	Z3_optimize_set_params(c->z, o, p);
	Z3_params_dec_ref(c->z, p);
	Z3_optimize_assert(c->z, o, A(f));
	Z3_optimize_maximize(c->z, o, A(obj));
	r = Z3_optimize_check(c->z, o, 0, NULL);
	c->stats.queries++;
	if (r == Z3_L_FALSE) {
		res = SX_UNSAT;
	} else if (r == Z3_L_TRUE) {
		Z3_model m = Z3_optimize_get_model(c->z, o);
		Z3_ast v = NULL;
		uint64_t x;

		if (m) {
			Z3_model_inc_ref(c->z, m);
			if (Z3_model_eval(c->z, m, A(obj), true, &v) && v) {
				Z3_inc_ref(c->z, v);
				if (numeral(c, v, &x)) {
					*best = is_signed ? x ^ (1ull << 63) : x;
					res = SX_SAT;
				}
				Z3_dec_ref(c->z, v);
			}
			Z3_model_dec_ref(c->z, m);
		}
	}
	count_rlimit(c, Z3_optimize_get_statistics(c->z, o));
	Z3_optimize_dec_ref(c->z, o);
	if (Z3_get_error_code(c->z) != Z3_OK) {
		note_error(c);
		res = SX_UNKNOWN;
	}
	c->stats.ms += 1e3 * (wall_s() - t0);
	return res;
}

const struct sx_stats *sx_stats(const struct sx *c)
{
	return &c->stats;
}

/* ---- models ---- */

int sx_model_eval(struct sx *c, struct sx_model *m, sxt t, uint64_t *v)
{
	Z3_ast out = NULL;
	int err = -EINVAL;

	if (!m || !t)
		return -EINVAL;
	if (!Z3_model_eval(c->z, m->m, A(t), true, &out) || !out) {
		note_error(c);
		return -EINVAL;
	}
	Z3_inc_ref(c->z, out);
	if (numeral(c, out, v))
		err = 0;
	Z3_dec_ref(c->z, out);
	return err;
}

/* Reads an array value (what model evaluation gives for an array term): stores over a constant
 * array or over an as-array of a function interpretation, all indexes and values numerals.
 * Fills bytes [lo, lo + n).  False when the value has another shape. */
static bool array_value(struct sx *c, struct sx_model *m, Z3_ast a, uint64_t lo, size_t n,
			uint8_t *out, unsigned depth)
{
	Z3_app app;
	Z3_func_decl d;
	uint64_t idx, val;

	if (depth > 100000 || Z3_get_ast_kind(c->z, a) != Z3_APP_AST)
		return false;
	app = Z3_to_app(c->z, a);
	d = Z3_get_app_decl(c->z, app);
	switch (Z3_get_decl_kind(c->z, d)) {
	case Z3_OP_STORE:
		if (!array_value(c, m, Z3_get_app_arg(c->z, app, 0), lo, n, out, depth + 1) ||
		    !numeral(c, Z3_get_app_arg(c->z, app, 1), &idx) ||
		    !numeral(c, Z3_get_app_arg(c->z, app, 2), &val))
			return false;
		if (idx - lo < n)
			out[idx - lo] = (uint8_t)val;
		return true;
	case Z3_OP_CONST_ARRAY:
		if (!numeral(c, Z3_get_app_arg(c->z, app, 0), &val))
			return false;
		memset(out, (uint8_t)val, n);
		return true;
	case Z3_OP_AS_ARRAY: {
		Z3_func_interp fi = Z3_model_get_func_interp(c->z, m->m,
							     Z3_get_as_array_func_decl(c->z, a));
		bool ok;

		if (!fi)
			return false;
		Z3_func_interp_inc_ref(c->z, fi);
		ok = numeral(c, Z3_func_interp_get_else(c->z, fi), &val);
		if (ok)
			memset(out, (uint8_t)val, n);
		for (unsigned k = 0; ok && k < Z3_func_interp_get_num_entries(c->z, fi); k++) {
			Z3_func_entry e = Z3_func_interp_get_entry(c->z, fi, k);

			Z3_func_entry_inc_ref(c->z, e);
			ok = Z3_func_entry_get_num_args(c->z, e) == 1 &&
			     numeral(c, Z3_func_entry_get_arg(c->z, e, 0), &idx) &&
			     numeral(c, Z3_func_entry_get_value(c->z, e), &val);
			if (ok && idx - lo < n)
				out[idx - lo] = (uint8_t)val;
			Z3_func_entry_dec_ref(c->z, e);
		}
		Z3_func_interp_dec_ref(c->z, fi);
		return ok;
	}
	default:
		return false;
	}
}

int sx_model_bytes(struct sx *c, struct sx_model *m, sxt arr, uint64_t lo, size_t n,
		   uint8_t *out)
{
	Z3_ast v = NULL;
	bool ok;

	if (!m || !arr)
		return -EINVAL;
	if (!Z3_model_eval(c->z, m->m, A(arr), true, &v) || !v) {
		note_error(c);
		return -EINVAL;
	}
	Z3_inc_ref(c->z, v);
	ok = array_value(c, m, v, lo, n, out, 0);
	Z3_dec_ref(c->z, v);
	if (ok)
		return 0;
	/* another shape: one byte at a time */
	for (size_t k = 0; k < n; k++) {
		uint64_t b;
		sxt sel = sx_select(c, arr, sx_bv(c, lo + k, 64));

		if (sx_model_eval(c, m, sel, &b))
			return -EINVAL;
		out[k] = (uint8_t)b;
	}
	return 0;
}

struct sx_model *sx_model_new(struct sx *c)
{
	struct sx_model *m = malloc(sizeof(*m));

	if (!m)
		return NULL;
	m->m = Z3_mk_model(c->z);
	if (!m->m) {
		note_error(c);
		free(m);
		return NULL;
	}
	Z3_model_inc_ref(c->z, m->m);
	return m;
}

int sx_model_set(struct sx *c, struct sx_model *m, sxt var, uint64_t v)
{
	Z3_func_decl d;
	unsigned w;
	sxt val;

	if (!m || !var || !Z3_is_app(c->z, A(var)))
		return -EINVAL;
	w = sx_width(c, var);
	val = w ? sx_bv(c, v, w) : sx_bool(c, v != 0);
	if (!val)
		return -EINVAL;
	d = Z3_get_app_decl(c->z, Z3_to_app(c->z, A(var)));
	Z3_add_const_interp(c->z, m->m, d, A(val));
	if (Z3_get_error_code(c->z) != Z3_OK) {
		note_error(c);
		return -EINVAL;
	}
	return 0;
}

void sx_model_free(struct sx *c, struct sx_model *m)
{
	if (!m)
		return;
	Z3_model_dec_ref(c->z, m->m);
	free(m);
}
