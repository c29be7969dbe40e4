/* Symbolic values for the symbolic execution of loop bodies: a hash-consed expression DAG, so
 * equal expressions are one id and "every path brings x back as x + 4" is an id comparison.
 *
 * Leaves: constants, REG(loc) — the value a location holds at the loop header in the current
 * iteration — the frame pointer, map handles, OPAQUE(site), a value nothing is known about
 * (a helper result, a load from memory, a join that gave up), and RANGE(site, lo, hi), a value
 * known only to lie in a signed interval (what an inner loop whose trip count is a range adds
 * to a counter it steps); like OPAQUE, two RANGE leaves are never the same value.  Inner nodes are the ISA's
 * operations at their width (a 32-bit add is one node whose result is zero-extended) and ANY(a,
 * b), "one of these, depending on the path".  Construction simplifies: constants fold, additions
 * of constants merge (x + 1 + 2 → x + 3, also through a 32-bit add), and redundant extensions
 * vanish, so recurrences are recognised by shape: ADD(REG(x), c).
 */
#ifndef BPFSCEV_SCEV_EXPR_H
#define BPFSCEV_SCEV_EXPR_H

#include <stdbool.h>
#include <stdint.h>

#include "claims/loc.h"
#include "util/sbuf.h"

typedef uint32_t eid;
#define EID_NONE UINT32_MAX

enum ex_kind {
	EX_CONST,	/* imm */
	EX_REG,		/* a = location: its value at the loop header */
	EX_FP,		/* r10 of the current frame */
	EX_MAP,		/* a = map index: the handle LD_IMM64 of a map gives */
	EX_OPAQUE,	/* a = site: unknown */
	EX_ANY,		/* a or b (path-dependent) */
	EX_ALU,		/* op = BPF_ADD ... BPF_ARSH (not MOV/NEG/END); w32; sign for div/mod */
	EX_NEG,		/* w32 */
	EX_ZEXT,	/* op = bytes 1, 2, 4: truncate and zero-extend */
	EX_SEXT,	/* op = bytes 1, 2, 4: sign-extend the low bytes to 64 bits */
	EX_BSWAP,	/* op = bits 16, 32, 64: swap bytes of the low bits, zero-extended */
	EX_RANGE,	/* a = site, imm = lo, b = CONST(hi): some value in [lo, hi] (signed) */
};

struct expr {
	uint8_t kind;
	uint8_t op;
	bool w32;
	bool sign;
	eid a, b;
	uint64_t imm;
};

struct expr_arena {
	struct expr *v;
	uint32_t n, cap;
	uint32_t *ht;		/* open addressing, ids + 1 (0 = empty) */
	uint32_t htcap;
	uint32_t next_site;
	bool oom;		/* an allocation failed: every constructor returns an OPAQUE id 0 */
	/* expr_reg's ids of the registers, + 1 (0: not interned yet); symbolic execution asks
	 * for them at every block entry */
	eid reg_id[LOC_NREGS];
};

int expr_arena__init(struct expr_arena *ar);
void expr_arena__free(struct expr_arena *ar);

static inline const struct expr *expr_get(const struct expr_arena *ar, eid e) { return &ar->v[e]; }

eid expr_const(struct expr_arena *ar, uint64_t v);
eid expr_reg_intern(struct expr_arena *ar, loc_t l);
/* The symbol of location l's value at entry (a register's id remembered once interned:
 * symbolic execution asks for every register at every block, millions of times in a long
 * program, where a call cost more than the look-up) */
static inline eid expr_reg(struct expr_arena *ar, loc_t l)
{
	if (LOC_IS_REG(l) && !ar->oom && ar->reg_id[l])
		return ar->reg_id[l] - 1;	/* (interned: intern would find it) */
	return expr_reg_intern(ar, l);
}
eid expr_fp(struct expr_arena *ar);
eid expr_map(struct expr_arena *ar, uint32_t idx);
eid expr_opaque(struct expr_arena *ar);	/* a fresh unknown */
/* A fresh value in [lo, hi] (signed 64-bit); lo > hi gives a fresh OPAQUE. */
eid expr_range(struct expr_arena *ar, int64_t lo, int64_t hi);
/* The interval of a RANGE leaf. */
bool expr_is_range(const struct expr_arena *ar, eid e, int64_t *lo, int64_t *hi);
eid expr_any(struct expr_arena *ar, eid a, eid b);
/* e with its ANYs lifted out of adds and 32-bit zero-extensions: any(x, x + 99) + 1 becomes
 * any(x + 1, x + 100), the form recurrences are recognized in; e itself past 8 alternatives. */
eid expr_distribute(struct expr_arena *ar, eid e);
eid expr_alu(struct expr_arena *ar, uint8_t op, bool w32, bool sign, eid a, eid b);
eid expr_neg(struct expr_arena *ar, eid a, bool w32);
eid expr_zext(struct expr_arena *ar, eid a, unsigned bytes);
eid expr_sext(struct expr_arena *ar, eid a, unsigned bytes);
eid expr_bswap(struct expr_arena *ar, eid a, unsigned bits);
/* The ISA's ALU semantics on constants (kernel run-time behaviour; no host UB). */
uint64_t expr_fold_alu(uint8_t op, bool w32, bool sign, uint64_t a, uint64_t b);

bool expr_is_const(const struct expr_arena *ar, eid e, uint64_t *v);
/* e == base + c (64-bit add, w32 false) or e == (u32)(base + c) (w32 true).  A bare REG is
 * base + 0 at 64 bits. */
bool expr_match_add(const struct expr_arena *ar, eid e, eid *base, uint64_t *c, bool *w32);
/* Whether the value is known zero-extended from 32 bits. */
bool expr_is_zext32(const struct expr_arena *ar, eid e);
/* Alternatives of an ANY tree (non-ANY leaves), at most max; returns the count or -1 when more. */
int expr_alternatives(const struct expr_arena *ar, eid e, eid *out, int max);
/* Whether e depends on REG(l) / on any OPAQUE / on anything but constants and the REGs for
 * which keep(l) is true. */
bool expr_uses(const struct expr_arena *ar, eid e, loc_t l);
bool expr_only_regs(const struct expr_arena *ar, eid e, bool (*keep)(void *arg, loc_t l),
		    void *arg);
/* The same, but RANGE leaves pass too: for values that may differ in every iteration anyway
 * (the delta of an accumulation, an exit value), never for loop-invariant operands. */
bool expr_only_regs_r(const struct expr_arena *ar, eid e, bool (*keep)(void *arg, loc_t l),
		      void *arg);
/* Replaces every REG(l) by map[l] (EID_NONE: keep).  map is indexed by loc, LOC_MAX + 1 long. */
eid expr_subst(struct expr_arena *ar, eid e, const eid *map);
/* Readable form: "r1 + 4", "(u32)(fp-8 + 1)", "any(r1 + 1, r1 + 2)". */
void expr_format(const struct expr_arena *ar, eid e, struct sbuf *sb);

#endif
