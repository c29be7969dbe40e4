/* The Z3 oracle's term layer: bit-vector, boolean and byte-array terms, solver queries, models
 * and optimization, behind an opaque handle so that oracle/z3/smt.c stays the only file that
 * includes z3.h (the machine encoding, the prover and the differential test build on this).
 *
 * A struct sx is one Z3 context created with Z3_mk_context_rc and its error handler set before
 * anything else.  Every term a constructor returns holds exactly one Z3 reference, owned by the
 * context's arena: callers never count references, they take a mark (sx_mark) and release
 * everything made since (sx_release), or let sx_free release it all.  Terms are hash-consed by
 * Z3, so building the same term twice gives the same handle (pointer comparison is term
 * equality).  A failed construction (a Z3 error: wrong sorts, out of memory) returns NULL, every
 * constructor given a NULL operand returns NULL, and sx_failed() says why: an encoding bug shows
 * up as an unknown verdict with a reason, never as a crash.
 */
#ifndef BPFSCEV_ORACLE_SMT_TERM_H
#define BPFSCEV_ORACLE_SMT_TERM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sx;
struct sx_model;
typedef struct sx_term *sxt;	/* a Z3_ast: bool, bv1..bv64, or array bv64 -> bv8 */

int sx_new(struct sx **out);
void sx_free(struct sx *c);
size_t sx_mark(const struct sx *c);
void sx_release(struct sx *c, size_t mark);
/* A Z3 error happened since the context was made (msg: what); stays set. */
const char *sx_failed(const struct sx *c);

/* ---- constants and variables ---- */
sxt sx_true(struct sx *c);
sxt sx_false(struct sx *c);
sxt sx_bool(struct sx *c, bool v);
sxt sx_bv(struct sx *c, uint64_t v, unsigned width);
sxt sx_var(struct sx *c, const char *name, unsigned width);	/* named bv constant */
sxt sx_fresh(struct sx *c, const char *prefix, unsigned width);	/* distinct from all others */
sxt sx_fresh_bool(struct sx *c, const char *prefix);
sxt sx_fresh_mem(struct sx *c, const char *prefix);	/* array bv64 -> bv8 */
sxt sx_mem_const(struct sx *c, uint8_t byte);	/* every index holds byte */
/* mem, but every index whose bits 63..32 are hi (bv32) holds byte (a Z3 lambda) */
sxt sx_mem_fill_hi(struct sx *c, sxt mem, sxt hi, sxt byte);

/* ---- bit-vectors (operands of equal width unless said) ---- */
unsigned sx_width(struct sx *c, sxt a);	/* 0 for bool and arrays */
sxt sx_add(struct sx *c, sxt a, sxt b);
sxt sx_sub(struct sx *c, sxt a, sxt b);
sxt sx_mul(struct sx *c, sxt a, sxt b);
sxt sx_udiv(struct sx *c, sxt a, sxt b);	/* SMT-LIB: by 0 gives all ones */
sxt sx_urem(struct sx *c, sxt a, sxt b);	/* by 0 gives a */
sxt sx_sdiv(struct sx *c, sxt a, sxt b);
sxt sx_srem(struct sx *c, sxt a, sxt b);	/* sign of the dividend */
sxt sx_and(struct sx *c, sxt a, sxt b);
sxt sx_or(struct sx *c, sxt a, sxt b);
sxt sx_xor(struct sx *c, sxt a, sxt b);
sxt sx_shl(struct sx *c, sxt a, sxt b);
sxt sx_lshr(struct sx *c, sxt a, sxt b);
sxt sx_ashr(struct sx *c, sxt a, sxt b);
sxt sx_neg(struct sx *c, sxt a);
sxt sx_bvnot(struct sx *c, sxt a);
sxt sx_extract(struct sx *c, unsigned hi, unsigned lo, sxt a);
sxt sx_zext(struct sx *c, unsigned to_width, sxt a);	/* no-op when already that wide */
sxt sx_sext(struct sx *c, unsigned to_width, sxt a);
sxt sx_concat(struct sx *c, sxt hi, sxt lo);

/* ---- predicates and booleans ---- */
sxt sx_eq(struct sx *c, sxt a, sxt b);
sxt sx_ne(struct sx *c, sxt a, sxt b);
sxt sx_ult(struct sx *c, sxt a, sxt b);
sxt sx_ule(struct sx *c, sxt a, sxt b);
sxt sx_slt(struct sx *c, sxt a, sxt b);
sxt sx_sle(struct sx *c, sxt a, sxt b);
sxt sx_not(struct sx *c, sxt a);
sxt sx_land(struct sx *c, sxt a, sxt b);
sxt sx_lor(struct sx *c, sxt a, sxt b);
sxt sx_landn(struct sx *c, unsigned n, const sxt *args);	/* true when n = 0 */
sxt sx_lorn(struct sx *c, unsigned n, const sxt *args);		/* false when n = 0 */
sxt sx_implies(struct sx *c, sxt a, sxt b);
sxt sx_ite(struct sx *c, sxt cond, sxt a, sxt b);	/* a == b gives a */

/* ---- byte arrays ---- */
sxt sx_select(struct sx *c, sxt mem, sxt idx64);
sxt sx_store(struct sx *c, sxt mem, sxt idx64, sxt byte);

/* ---- inspection ---- */
sxt sx_simplify(struct sx *c, sxt a);
/* A numeral (bv: its value; bool: 0/1) as it stands; sx_is_const simplifies first. */
bool sx_num(struct sx *c, sxt a, uint64_t *v);
bool sx_is_const(struct sx *c, sxt a, uint64_t *v);
/* The values a bv64 term built of numerals, if-then-elses and additions can take (at most max of
 * them, duplicates kept): their count, 0 for another term. */
unsigned sx_leaves(struct sx *c, sxt a, uint64_t *out, unsigned max);
/* Intervals [lo, hi] (unsigned, no wrap; at most max) that hold every value of a bit-vector
 * term: numerals, if-then-elses, additions that cannot wrap, zero extensions, masks; their
 * count, 0 when nothing bounds it. */
unsigned sx_ranges(struct sx *c, sxt a, uint64_t *lo, uint64_t *hi, unsigned max);
bool sx_is_true(struct sx *c, sxt a);	/* syntactically (no simplification) */
bool sx_is_false(struct sx *c, sxt a);
unsigned sx_id(struct sx *c, sxt a);	/* Z3's id: unique among live terms */
/* The term in SMT-LIB syntax (for messages); truncated to n. */
void sx_print(struct sx *c, sxt a, char *buf, size_t n);

/* ---- queries ---- */
enum sx_res { SX_UNSAT, SX_SAT, SX_UNKNOWN };
struct sx_stats {
	uint64_t queries, sat, unsat, unknown;
	double ms;
	uint64_t rlimit;	/* Z3 resource units the context has spent */
};
/* Z3's resource limit for every later query of the context: per_query (0 = none; optimization
 * gets four times it) and a total for the context (0 = none) that each query's limit is cut
 * to; once the total is spent, queries answer UNKNOWN without running.  Unlike the timeouts, a
 * resource limit gives the same answers on every machine. */
void sx_set_rlimit(struct sx *c, unsigned per_query, uint64_t total);
bool sx_rlimit_spent(const struct sx *c);
/* Reads the context's resource count now (sx_stats().rlimit; a query reads it after itself):
 * Z3 counts the simplification of terms while they are made too (the encoding of a large
 * program: tens of millions of units before its first query), and only this shows it. */
void sx_poll_rlimit(struct sx *c);
/* Is f satisfiable?  With model != NULL, a SAT answer hands over a model (sx_model_free).
 * timeout_ms 0 = no limit.  UNKNOWN fills why ("max. resource limit exceeded", timeout,
 * "canceled", "resource budget of N spent", a Z3 error). */
enum sx_res sx_check(struct sx *c, sxt f, unsigned timeout_ms, struct sx_model **model,
		     char *why, size_t why_len);
/* A solver holding base, for several checks of base and one more formula each (obligations
 * that share a path condition): base is encoded once.  NULL on failure. */
struct sx_solver;
struct sx_solver *sx_solver_new(struct sx *c, sxt base, unsigned timeout_ms);
enum sx_res sx_solver_check(struct sx *c, struct sx_solver *s, sxt extra,
			    struct sx_model **model, char *why, size_t why_len);
void sx_solver_free(struct sx *c, struct sx_solver *s);
/* The largest value of t (unsigned, or signed when is_signed) over the models of f.  SX_SAT
 * with *best when the optimum was found, SX_UNSAT when f has no model, else SX_UNKNOWN. */
enum sx_res sx_maximize(struct sx *c, sxt f, sxt t, bool is_signed, unsigned timeout_ms,
			uint64_t *best);
const struct sx_stats *sx_stats(const struct sx *c);

/* ---- models ---- */
/* Value of t in the model, unassigned constants completed (as 0); 0 or -EINVAL. */
int sx_model_eval(struct sx *c, struct sx_model *m, sxt t, uint64_t *v);
/* Bytes [lo, lo + n) of a byte array's value in the model.  0 or -EINVAL. */
int sx_model_bytes(struct sx *c, struct sx_model *m, sxt arr, uint64_t lo, size_t n,
		   uint8_t *out);
/* An empty model to fill by hand (the differential test evaluates encodings in it). */
struct sx_model *sx_model_new(struct sx *c);
/* Assigns a value to a bv or bool constant made by sx_var or sx_fresh.  0 or -EINVAL. */
int sx_model_set(struct sx *c, struct sx_model *m, sxt var, uint64_t v);
void sx_model_free(struct sx *c, struct sx_model *m);

#endif
