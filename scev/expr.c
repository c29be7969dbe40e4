/* Hash-consed expressions for symbolic execution: see expr.h. */
#include "scev/expr.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/isa.h"
#include "util/arena.h"
#include "util/search.h"

int expr_arena__init(struct expr_arena *ar)
{
	memset(ar, 0, sizeof(*ar));
	/* (small: a small program's analysis interns a few dozen; both grow by doubling) */
	ar->cap = 32;
	ar->v = arena_alloc(ar->cap * sizeof(*ar->v));
	ar->htcap = 64;
	ar->ht = arena_zalloc(ar->htcap, sizeof(*ar->ht));
	if (!ar->v || !ar->ht) {
		expr_arena__free(ar);
		return -ENOMEM;
	}
	/* Id 0 is a permanent OPAQUE: what constructors return after an allocation failure. */
	ar->v[0] = (struct expr){ .kind = EX_OPAQUE, .a = 0 };
	ar->n = 1;
	ar->next_site = 1;
	return 0;
}

void expr_arena__free(struct expr_arena *ar)
{
	arena_free(ar->v);
	arena_free(ar->ht);
	memset(ar, 0, sizeof(*ar));
}

static uint32_t expr_hash(const struct expr *x)
{
	uint64_t h = 0x9e3779b97f4a7c15ull;

	h ^= x->kind | (uint64_t)x->op << 8 | (uint64_t)x->w32 << 16 | (uint64_t)x->sign << 17;
	h *= 0xff51afd7ed558ccdull;
	h ^= x->a + ((uint64_t)x->b << 32);
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= x->imm;
	h *= 0xff51afd7ed558ccdull;
	return (uint32_t)(h >> 32);
}

static bool expr_same(const struct expr *x, const struct expr *y)
{
	return x->kind == y->kind && x->op == y->op && x->w32 == y->w32 && x->sign == y->sign &&
	       x->a == y->a && x->b == y->b && x->imm == y->imm;
}

/* An expression of a fresh site (EX_OPAQUE, EX_RANGE: expr_opaque and expr_range give each a
 * site number of its own, next_site++, and id 0's opaque has site 0, which they never give) is
 * equal to no other expression there is or will be: no look-up can find it, so it is not put in
 * the hash table, and interning one is only appending it.  The look-ups of every other kind
 * return what they returned (an entry left out never equals their key: its kind differs), and
 * the table's size still follows the number of expressions.  (A million instructions of nested
 * loops make millions of opaque values; probing the table for each, past entries whose
 * expressions are compared in another array, cache misses both, was an eighth of the time.) */
static bool fresh_site(const struct expr *x)
{
	return x->kind == EX_OPAQUE || x->kind == EX_RANGE;
}

static int rehash(struct expr_arena *ar)
{
	uint32_t nc = ar->htcap * 2, *nt = arena_zalloc(nc, sizeof(*nt));

	if (!nt)
		return -ENOMEM;
	for (uint32_t id = 0; id < ar->n; id++) {
		uint32_t h;

		if (fresh_site(&ar->v[id]))
			continue;
		h = expr_hash(&ar->v[id]) & (nc - 1);
		while (nt[h])
			h = (h + 1) & (nc - 1);
		nt[h] = id + 1;
	}
	arena_free(ar->ht);
	ar->ht = nt;
	ar->htcap = nc;
	return 0;
}

static eid intern(struct expr_arena *ar, struct expr x)
{
	uint32_t h;

	if (ar->oom)
		return 0;
	if ((ar->n + 1) * 2 > ar->htcap && rehash(ar)) {
		ar->oom = true;
		return 0;
	}
	h = expr_hash(&x) & (ar->htcap - 1);
	while (!fresh_site(&x) && ar->ht[h]) {
		if (expr_same(&ar->v[ar->ht[h] - 1], &x))
			return ar->ht[h] - 1;
		h = (h + 1) & (ar->htcap - 1);
	}
	if (ar->n == ar->cap) {
		/* (from the arena, copied: from 1 MiB on a block mapped on huge pages of its own,
		 * where realloc's grew 4 KiB page by page, a page fault each — a third of the page
		 * faults of 1M instructions of deep nests, which make millions of opaque values) */
		struct expr *nv = arena_alloc(ar->cap * 2 * sizeof(*nv));

		if (!nv) {
			ar->oom = true;
			return 0;
		}
		memcpy(nv, ar->v, ar->n * sizeof(*nv));
		arena_free(ar->v);
		ar->v = nv;
		ar->cap *= 2;
	}
	ar->v[ar->n] = x;
	if (!fresh_site(&x))
		ar->ht[h] = ar->n + 1;
	return ar->n++;
}

eid expr_const(struct expr_arena *ar, uint64_t v)
{
	return intern(ar, (struct expr){ .kind = EX_CONST, .imm = v });
}

/* expr_reg's slow path: l not a register, or not interned yet. */
eid expr_reg_intern(struct expr_arena *ar, loc_t l)
{
	eid e;

	if (!LOC_IS_REG(l) || ar->oom)
		return intern(ar, (struct expr){ .kind = EX_REG, .a = l });
	if (ar->reg_id[l])
		return ar->reg_id[l] - 1;	/* (interned: intern would find it) */
	e = intern(ar, (struct expr){ .kind = EX_REG, .a = l });
	if (!ar->oom)
		ar->reg_id[l] = e + 1;
	return e;
}

eid expr_fp(struct expr_arena *ar)
{
	return intern(ar, (struct expr){ .kind = EX_FP });
}

eid expr_map(struct expr_arena *ar, uint32_t idx)
{
	return intern(ar, (struct expr){ .kind = EX_MAP, .a = idx });
}

eid expr_opaque(struct expr_arena *ar)
{
	return intern(ar, (struct expr){ .kind = EX_OPAQUE, .a = ar->next_site++ });
}

eid expr_range(struct expr_arena *ar, int64_t lo, int64_t hi)
{
	if (lo > hi)
		return expr_opaque(ar);
	if (lo == hi)
		return expr_const(ar, (uint64_t)lo);
	return intern(ar, (struct expr){ .kind = EX_RANGE, .a = ar->next_site++,
					 .b = expr_const(ar, (uint64_t)hi), .imm = (uint64_t)lo });
}

bool expr_is_range(const struct expr_arena *ar, eid e, int64_t *lo, int64_t *hi)
{
	if (ar->v[e].kind != EX_RANGE)
		return false;
	*lo = (int64_t)ar->v[e].imm;
	*hi = (int64_t)ar->v[ar->v[e].b].imm;
	return true;
}

bool expr_is_const(const struct expr_arena *ar, eid e, uint64_t *v)
{
	if (ar->v[e].kind != EX_CONST)
		return false;
	if (v)
		*v = ar->v[e].imm;
	return true;
}

uint64_t expr_fold_alu(uint8_t op, bool w32, bool sign, uint64_t a, uint64_t b)
{
	uint64_t r, mask = w32 ? 0xffffffffull : UINT64_MAX;
	unsigned sh;

	if (w32) {
		a &= mask;
		b &= mask;
	}
	switch (op) {
	case BPF_ADD: r = a + b; break;
	case BPF_SUB: r = a - b; break;
	case BPF_MUL: r = a * b; break;
	case BPF_OR: r = a | b; break;
	case BPF_AND: r = a & b; break;
	case BPF_XOR: r = a ^ b; break;
	case BPF_LSH: r = a << (b & (w32 ? 31 : 63)); break;
	case BPF_RSH: r = a >> (b & (w32 ? 31 : 63)); break;
	case BPF_ARSH:
		sh = (unsigned)(b & (w32 ? 31 : 63));
		if (w32)
			r = (uint64_t)(uint32_t)((int32_t)(uint32_t)a >> sh);
		else
			r = (uint64_t)((int64_t)a >> sh);
		break;
	case BPF_DIV:
		if (b == 0) {
			r = 0;
		} else if (!sign) {
			r = a / b;
		} else if (w32) {
			int32_t x = (int32_t)(uint32_t)a, y = (int32_t)(uint32_t)b;

			r = (x == INT32_MIN && y == -1) ? (uint32_t)x : (uint32_t)(x / y);
		} else {
			int64_t x = (int64_t)a, y = (int64_t)b;

			r = (x == INT64_MIN && y == -1) ? (uint64_t)x : (uint64_t)(x / y);
		}
		break;
	case BPF_MOD:
		if (b == 0) {
			r = a;
		} else if (!sign) {
			r = a % b;
		} else if (w32) {
			int32_t x = (int32_t)(uint32_t)a, y = (int32_t)(uint32_t)b;

			r = y == -1 ? 0 : (uint32_t)(x % y);
		} else {
			int64_t x = (int64_t)a, y = (int64_t)b;

			r = y == -1 ? 0 : (uint64_t)(x % y);
		}
		break;
	default:
		r = 0;
		break;
	}
	return r & mask;
}

static bool commutative(uint8_t op)
{
	return op == BPF_ADD || op == BPF_MUL || op == BPF_OR || op == BPF_AND || op == BPF_XOR;
}

bool expr_is_zext32(const struct expr_arena *ar, eid e)
{
	const struct expr *x = &ar->v[e];

	switch (x->kind) {
	case EX_CONST:
		return x->imm <= 0xffffffffull;
	case EX_ALU: case EX_NEG:
		return x->w32;
	case EX_ZEXT:
		return true;
	case EX_BSWAP:
		return x->op <= 32;
	case EX_REG:
		return !LOC_IS_REG(x->a) && LOC_SLOT_SIZE(x->a) <= 4;
	default:
		return false;
	}
}

eid expr_alu(struct expr_arena *ar, uint8_t op, bool w32, bool sign, eid a, eid b)
{
	uint64_t ca = 0, cb = 0, inner;	/* ca, cb: meaningful only where ka, kb */
	bool ka = expr_is_const(ar, a, &ca), kb = expr_is_const(ar, b, &cb);

	if (op != BPF_DIV && op != BPF_MOD)
		sign = false;
	if (ka && kb)
		return expr_const(ar, expr_fold_alu(op, w32, sign, ca, cb));
	/* Canonical: constant on the right of commutative ops, subtraction of a constant as
	 * addition of its negation. */
	if (ka && commutative(op)) {
		eid t = a;

		a = b;
		b = t;
		cb = ca;
		kb = true;
	}
	if (kb && op == BPF_SUB) {
		op = BPF_ADD;
		cb = 0 - cb;
		b = expr_const(ar, w32 ? cb & 0xffffffffull : cb);
	}
	if (kb && op == BPF_ADD) {
		eid base;
		uint64_t c;
		bool bw32;

		/* (x + c1) + c2 → x + (c1 + c2): a 32-bit outer add may absorb a 64-bit inner one
		 * (only the low half matters), a 64-bit outer add only a 64-bit inner one. */
		if (ar->v[a].kind == EX_ALU && expr_match_add(ar, a, &base, &c, &bw32) &&
		    (w32 || !bw32)) {
			a = base;
			cb += c;
			if (w32)
				cb &= 0xffffffffull;
			b = expr_const(ar, cb);
		}
		if (cb == 0 && !w32)
			return a;
		if (cb == 0 && w32)
			return expr_zext(ar, a, 4);
	}
	if (kb && !w32 && ((op == BPF_MUL && cb == 1) || (op == BPF_OR && cb == 0) ||
			   (op == BPF_XOR && cb == 0) || ((op == BPF_LSH || op == BPF_RSH ||
							   op == BPF_ARSH) && (cb & 63) == 0)))
		return a;
	if (kb && op == BPF_AND && cb == UINT64_MAX && !w32)
		return a;
	/* LLVM's extension idioms: (x << 32) >> 32 zero-extends, (x << 32) s>> 32 sign-extends. */
	if (kb && !w32 && cb == 32 && (op == BPF_RSH || op == BPF_ARSH) && ar->v[a].kind == EX_ALU &&
	    ar->v[a].op == BPF_LSH && !ar->v[a].w32 && expr_is_const(ar, ar->v[a].b, &inner) &&
	    inner == 32)
		return op == BPF_RSH ? expr_zext(ar, ar->v[a].a, 4) : expr_sext(ar, ar->v[a].a, 4);
	if (kb && op == BPF_AND && cb == 0xffffffffull)
		return expr_zext(ar, a, 4);
	if (w32)	/* 32-bit ops read only the low halves: drop zero-extensions of operands */
		while (ar->v[a].kind == EX_ZEXT && ar->v[a].op == 4)
			a = ar->v[a].a;
	return intern(ar, (struct expr){ .kind = EX_ALU, .op = op, .w32 = w32, .sign = sign,
					 .a = a, .b = b });
}

eid expr_neg(struct expr_arena *ar, eid a, bool w32)
{
	uint64_t c;

	if (expr_is_const(ar, a, &c))
		return expr_const(ar, w32 ? (0 - c) & 0xffffffffull : 0 - c);
	/* identities: -(-x) = x; at 32 bits the low half of x, zero-extended (whatever the
	 * inner negation's width: the low half of -x depends only on the low half of x) */
	if (ar->v[a].kind == EX_NEG && !w32 && !ar->v[a].w32)
		return ar->v[a].a;
	if (ar->v[a].kind == EX_NEG && w32)
		return expr_zext(ar, ar->v[a].a, 4);
	return intern(ar, (struct expr){ .kind = EX_NEG, .w32 = w32, .a = a });
}

eid expr_zext(struct expr_arena *ar, eid a, unsigned bytes)
{
	const struct expr *x = &ar->v[a];
	uint64_t c, mask = bytes >= 8 ? UINT64_MAX : (1ull << (8 * bytes)) - 1;

	if (bytes >= 8)
		return a;
	if (expr_is_const(ar, a, &c))
		return expr_const(ar, c & mask);
	if (bytes == 4 && expr_is_zext32(ar, a))
		return a;
	if (x->kind == EX_ZEXT && x->op <= bytes)
		return a;
	if (x->kind == EX_ZEXT && x->op > bytes)
		a = x->a;
	/* (u32)(x op y) is the 32-bit op for ops whose low half depends only on low halves. */
	if (bytes == 4 && x->kind == EX_ALU && !x->w32 &&
	    (x->op == BPF_ADD || x->op == BPF_SUB || x->op == BPF_MUL || x->op == BPF_AND ||
	     x->op == BPF_OR || x->op == BPF_XOR))
		return expr_alu(ar, x->op, true, false, x->a, x->b);
	if (bytes == 4 && x->kind == EX_NEG && !x->w32)
		return expr_neg(ar, x->a, true);
	return intern(ar, (struct expr){ .kind = EX_ZEXT, .op = (uint8_t)bytes, .a = a });
}

eid expr_sext(struct expr_arena *ar, eid a, unsigned bytes)
{
	uint64_t c;

	if (bytes >= 8)
		return a;
	if (expr_is_const(ar, a, &c)) {
		unsigned sh = 64 - 8 * bytes;

		return expr_const(ar, (uint64_t)((int64_t)(c << sh) >> sh));
	}
	return intern(ar, (struct expr){ .kind = EX_SEXT, .op = (uint8_t)bytes, .a = a });
}

eid expr_bswap(struct expr_arena *ar, eid a, unsigned bits)
{
	uint64_t c;

	if (expr_is_const(ar, a, &c)) {
		uint64_t r = 0;

		for (unsigned i = 0; i < bits / 8; i++)
			r |= ((c >> (8 * i)) & 0xff) << (bits - 8 - 8 * i);
		return expr_const(ar, r);
	}
	/* swapping the same low bits twice gives them back, zero-extended (be32 pairs) */
	if (ar->v[a].kind == EX_BSWAP && ar->v[a].op == bits)
		return expr_zext(ar, ar->v[a].a, bits / 8);
	return intern(ar, (struct expr){ .kind = EX_BSWAP, .op = (uint8_t)bits, .a = a });
}

/* ANY of sets: flattened, sorted, deduplicated, right-nested; more than 8 alternatives give up. */
#define ANY_MAX 8

int expr_alternatives(const struct expr_arena *ar, eid e, eid *out, int max)
{
	int n = 0;

	while (ar->v[e].kind == EX_ANY) {
		if (n == max)
			return -1;
		out[n++] = ar->v[e].a;
		e = ar->v[e].b;
	}
	if (n == max)
		return -1;
	out[n++] = e;
	return n;
}

eid expr_any(struct expr_arena *ar, eid a, eid b)
{
	eid v[2 * ANY_MAX + 2], r;
	int na, nb, n, k = 0;

	if (a == b)
		return a;
	na = expr_alternatives(ar, a, v, ANY_MAX + 1);
	nb = na < 0 ? -1 : expr_alternatives(ar, b, v + na, ANY_MAX + 1);
	if (na < 0 || nb < 0)
		return expr_opaque(ar);
	n = na + nb;
	/* insertion sort + dedup (n <= 18) */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			eid t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	for (int i = 0; i < n; i++)
		if (k == 0 || v[k - 1] != v[i])
			v[k++] = v[i];
	if (k > ANY_MAX)
		return expr_opaque(ar);
	r = v[k - 1];
	for (int i = k - 2; i >= 0; i--)
		r = intern(ar, (struct expr){ .kind = EX_ANY, .a = v[i], .b = r });
	return r;
}

/* The alternatives of e with ANY lifted out of adds and 32-bit zero-extensions, at most max;
 * -1 past max. */
static int dist_alts(struct expr_arena *ar, eid e, eid *out, int max, int depth)
{
	const struct expr x = ar->v[e];
	eid A[ANY_MAX], B[ANY_MAX];
	int na, nb, k = 0;

	if (max < 1)
		return -1;
	if (depth > 16) {
		out[0] = e;
		return 1;
	}
	switch (x.kind) {
	case EX_ANY:
		na = dist_alts(ar, x.a, out, max, depth + 1);
		nb = na < 0 ? -1 : dist_alts(ar, x.b, out + na, max - na, depth + 1);
		return nb < 0 ? -1 : na + nb;
	case EX_ALU:
		if (x.op != BPF_ADD)
			break;
		na = dist_alts(ar, x.a, A, ANY_MAX, depth + 1);
		nb = na < 0 ? -1 : dist_alts(ar, x.b, B, ANY_MAX, depth + 1);
		if (nb < 0 || na * nb > max)
			return -1;
		if (na == 1 && nb == 1)
			break;
		for (int i = 0; i < na; i++)
			for (int j = 0; j < nb; j++)
				out[k++] = expr_alu(ar, BPF_ADD, x.w32, false, A[i], B[j]);
		return k;
	case EX_ZEXT:
		if (x.op != 4)
			break;
		na = dist_alts(ar, x.a, A, ANY_MAX, depth + 1);
		if (na < 0 || na > max)
			return -1;
		if (na == 1)
			break;
		for (int i = 0; i < na; i++)
			out[k++] = expr_zext(ar, A[i], 4);
		return k;
	default:
		break;
	}
	out[0] = e;
	return 1;
}

eid expr_distribute(struct expr_arena *ar, eid e)
{
	eid v[ANY_MAX], r;
	int n = dist_alts(ar, e, v, ANY_MAX, 0);

	if (n < 2)
		return e;
	r = v[0];
	for (int k = 1; k < n; k++)
		r = expr_any(ar, r, v[k]);
	return r;
}

bool expr_match_add(const struct expr_arena *ar, eid e, eid *base, uint64_t *c, bool *w32)
{
	const struct expr *x = &ar->v[e];
	uint64_t k;

	if (x->kind == EX_ALU && x->op == BPF_ADD && expr_is_const(ar, x->b, &k)) {
		*base = x->a;
		*c = k;
		*w32 = x->w32;
		return true;
	}
	if (x->kind == EX_ZEXT && x->op == 4) {
		*base = x->a;
		*c = 0;
		*w32 = true;
		return true;
	}
	*base = e;
	*c = 0;
	*w32 = false;
	return true;
}

/* Generic DAG walk with a visited set (iterative: expressions can be deep).  The set (open
 * addressing) and the stack grow with what the walk meets, from room on the C stack: a walk
 * meets a few expressions of an arena that grows with the program, and arrays of the arena's
 * size per walk made long programs' analysis quadratic (a million instructions of nested
 * loops: three quarters of the time clearing them).  The visiting order is the same. */
struct walk {
	eid *stack, *set;
	uint32_t sp, cap, nset, setcap;	/* setcap: a power of two */
	bool oom;			/* memory ran out: the walk is incomplete */
	eid stack0[32], set0[64];
};

static void walk_init(struct walk *w)
{
	w->stack = w->stack0;
	w->cap = sizeof(w->stack0) / sizeof(w->stack0[0]);
	w->set = w->set0;
	w->setcap = sizeof(w->set0) / sizeof(w->set0[0]);
	w->sp = w->nset = 0;
	w->oom = false;
	memset(w->set0, 0xff, sizeof(w->set0));	/* EID_NONE */
}

static void walk_free(struct walk *w)
{
	if (w->stack != w->stack0)
		free(w->stack);
	if (w->set != w->set0)
		free(w->set);
}

static uint32_t *walk_slot(eid *set, uint32_t cap, eid e)
{
	uint32_t i = (e * 2654435761u) & (cap - 1);

	while (set[i] != EID_NONE && set[i] != e)
		i = (i + 1) & (cap - 1);
	return &set[i];
}

/* Adds e to the visited set: false when it was there already (or memory ran out). */
static bool walk_mark(struct walk *w, eid e)
{
	uint32_t *slot;

	if (2 * (w->nset + 1) > w->setcap) {
		uint32_t cap = 2 * w->setcap;
		eid *set = malloc(cap * sizeof(*set));

		if (!set) {
			w->oom = true;
			return false;
		}
		memset(set, 0xff, cap * sizeof(*set));
		for (uint32_t i = 0; i < w->setcap; i++)
			if (w->set[i] != EID_NONE)
				*walk_slot(set, cap, w->set[i]) = w->set[i];
		if (w->set != w->set0)
			free(w->set);
		w->set = set;
		w->setcap = cap;
	}
	slot = walk_slot(w->set, w->setcap, e);
	if (*slot == e)
		return false;
	*slot = e;
	w->nset++;
	return true;
}

static void walk_push(struct walk *w, eid e)
{
	if (!walk_mark(w, e))
		return;
	if (w->sp == w->cap) {
		eid *st = malloc(2 * w->cap * sizeof(*st));

		if (!st) {
			w->oom = true;
			return;
		}
		memcpy(st, w->stack, w->sp * sizeof(*st));
		if (w->stack != w->stack0)
			free(w->stack);
		w->stack = st;
		w->cap *= 2;
	}
	w->stack[w->sp++] = e;
}

static unsigned operands(const struct expr *x, eid *o)
{
	switch (x->kind) {
	case EX_ANY: case EX_ALU:
		o[0] = x->a;
		o[1] = x->b;
		return 2;
	case EX_NEG: case EX_ZEXT: case EX_SEXT: case EX_BSWAP:
		o[0] = x->a;
		return 1;
	default:
		return 0;
	}
}

static unsigned nops(const struct expr *x)
{
	switch (x->kind) {
	case EX_ANY: case EX_ALU:
		return 2;
	case EX_NEG: case EX_ZEXT: case EX_SEXT: case EX_BSWAP:
		return 1;
	default:
		return 0;
	}
}

/* True when every leaf is a constant, FP, a map handle, or REG(l) with keep(l).  OPAQUE fails,
 * RANGE unless ranges. */
static bool only_regs(const struct expr_arena *ar, eid e, bool (*keep)(void *arg, loc_t l),
		      void *arg, bool ranges)
{
	struct walk w;
	bool ok = true;

	walk_init(&w);
	walk_push(&w, e);
	while (w.sp && ok) {
		/* a copy: keep() may add expressions, moving the arena */
		struct expr x = ar->v[w.stack[--w.sp]];
		eid o[2];
		unsigned n = nops(&x);

		if (x.kind == EX_OPAQUE || (x.kind == EX_RANGE && !ranges))
			ok = false;
		else if (x.kind == EX_REG)
			ok = keep(arg, x.a);
		operands(&x, o);
		for (unsigned i = 0; i < n; i++)
			walk_push(&w, o[i]);
	}
	ok = ok && !w.oom;
	walk_free(&w);
	return ok;
}

bool expr_only_regs(const struct expr_arena *ar, eid e, bool (*keep)(void *arg, loc_t l),
		    void *arg)
{
	return only_regs(ar, e, keep, arg, false);
}

bool expr_only_regs_r(const struct expr_arena *ar, eid e, bool (*keep)(void *arg, loc_t l),
		      void *arg)
{
	return only_regs(ar, e, keep, arg, true);
}

bool expr_uses(const struct expr_arena *ar, eid e, loc_t l)
{
	struct walk w;
	bool found = false;

	walk_init(&w);
	walk_push(&w, e);
	while (w.sp && !found) {
		const struct expr *x = &ar->v[w.stack[--w.sp]];
		eid o[2];
		unsigned n = nops(x);

		if (x->kind == EX_REG && x->a == l)
			found = true;
		operands(x, o);
		for (unsigned i = 0; i < n; i++)
			walk_push(&w, o[i]);
	}
	/* out of memory, cannot tell: say yes, the cautious answer for every caller */
	found = found || w.oom;
	walk_free(&w);
	return found;
}

static int cmp_eid(const void *a, const void *b)
{
	eid x = *(const eid *)a, y = *(const eid *)b;

	return x < y ? -1 : x > y;
}

struct eid_key {
	const eid *ids;
	eid id;
};

static bool eid_not_above(const void *ctx, size_t i)
{
	const struct eid_key *k = ctx;

	return k->ids[i] <= k->id;
}

/* Position of id in the sorted ids[0..n) (it is there): the last not above it. */
static uint32_t eid_pos(const eid *ids, uint32_t n, eid id)
{
	size_t at = lower_bound(n, eid_not_above, &(struct eid_key){ ids, id });

	return at ? (uint32_t)at - 1 : 0;
}

/* Rebuild bottom-up in id order: operands always have smaller ids than their users. */
eid expr_subst(struct expr_arena *ar, eid e, const eid *map)
{
	struct walk w;
	eid *ids, *memo, r;
	uint32_t n = 0;

	walk_init(&w);
	walk_push(&w, e);
	while (w.sp) {	/* mark everything reachable */
		const struct expr *x = &ar->v[w.stack[--w.sp]];
		eid o[2];
		unsigned no = nops(x);

		operands(x, o);
		for (unsigned i = 0; i < no; i++)
			walk_push(&w, o[i]);
	}
	ids = malloc(2 * (w.nset ? w.nset : 1) * sizeof(*ids));
	if (!ids || w.oom) {
		free(ids);
		walk_free(&w);
		return expr_opaque(ar);
	}
	for (uint32_t i = 0; i < w.setcap; i++)
		if (w.set[i] != EID_NONE)
			ids[n++] = w.set[i];
	walk_free(&w);
	qsort(ids, n, sizeof(*ids), cmp_eid);
	memo = ids + n;	/* memo[k]: what ids[k] becomes */
#define MEMO(id) memo[eid_pos(ids, n, (id))]
	for (uint32_t k = 0; k < n; k++) {
		eid id = ids[k];
		struct expr x = ar->v[id];

		switch (x.kind) {
		case EX_REG:
			memo[k] = map[x.a] != EID_NONE ? map[x.a] : id;
			break;
		case EX_ANY:
			memo[k] = expr_any(ar, MEMO(x.a), MEMO(x.b));
			break;
		case EX_ALU:
			memo[k] = expr_alu(ar, x.op, x.w32, x.sign, MEMO(x.a), MEMO(x.b));
			break;
		case EX_NEG:
			memo[k] = expr_neg(ar, MEMO(x.a), x.w32);
			break;
		case EX_ZEXT:
			memo[k] = expr_zext(ar, MEMO(x.a), x.op);
			break;
		case EX_SEXT:
			memo[k] = expr_sext(ar, MEMO(x.a), x.op);
			break;
		case EX_BSWAP:
			memo[k] = expr_bswap(ar, MEMO(x.a), x.op);
			break;
		default:
			memo[k] = id;
			break;
		}
	}
#undef MEMO
	r = memo[eid_pos(ids, n, e)];
	free(ids);
	return r;
}

static const char *op_sym(uint8_t op, bool sign)
{
	switch (op) {
	case BPF_ADD: return "+";
	case BPF_SUB: return "-";
	case BPF_MUL: return "*";
	case BPF_DIV: return sign ? "s/" : "/";
	case BPF_MOD: return sign ? "s%" : "%";
	case BPF_OR: return "|";
	case BPF_AND: return "&";
	case BPF_XOR: return "^";
	case BPF_LSH: return "<<";
	case BPF_RSH: return ">>";
	case BPF_ARSH: return "s>>";
	default: return "?";
	}
}

static void fmt(const struct expr_arena *ar, eid e, struct sbuf *sb, int depth)
{
	const struct expr *x = &ar->v[e];
	char buf[32];

	if (depth > 40) {
		sbuf_puts(sb, "...");
		return;
	}
	switch (x->kind) {
	case EX_CONST:
		if (x->imm >= 0xffffffffffff0000ull)
			sbuf_put_i64(sb, (long long)x->imm);
		else
			sbuf_put_u64(sb, (unsigned long long)x->imm);
		break;
	case EX_REG:
		if (LOC_IS_REG(x->a)) {
			sbuf_putc(sb, 'r');	/* (loc_format's "r%u", without a printf) */
			sbuf_put_u64(sb, x->a);
			break;
		}
		loc_format(x->a, buf, sizeof(buf));
		sbuf_puts(sb, buf);
		break;
	case EX_FP:
		sbuf_puts(sb, "r10");
		break;
	case EX_MAP:
		sbuf_puts(sb, "map[");
		sbuf_put_u64(sb, x->a);
		sbuf_putc(sb, ']');
		break;
	case EX_OPAQUE:
		sbuf_puts(sb, "unknown#");
		sbuf_put_u64(sb, x->a);
		break;
	case EX_RANGE:
		sbuf_putc(sb, '[');
		sbuf_put_i64(sb, (long long)x->imm);
		sbuf_puts(sb, ", ");
		sbuf_put_i64(sb, (long long)ar->v[x->b].imm);
		sbuf_puts(sb, "]#");
		sbuf_put_u64(sb, x->a);
		break;
	case EX_ANY:
		sbuf_puts(sb, "any(");
		fmt(ar, x->a, sb, depth + 1);
		sbuf_puts(sb, ", ");
		fmt(ar, x->b, sb, depth + 1);
		sbuf_putc(sb, ')');
		break;
	case EX_ALU:
		sbuf_puts(sb, x->w32 ? "(u32)(" : "(");
		fmt(ar, x->a, sb, depth + 1);
		sbuf_putc(sb, ' ');
		sbuf_puts(sb, op_sym(x->op, x->sign));
		sbuf_putc(sb, ' ');
		fmt(ar, x->b, sb, depth + 1);
		sbuf_putc(sb, ')');
		break;
	case EX_NEG:
		sbuf_puts(sb, x->w32 ? "(u32)-" : "-");
		fmt(ar, x->a, sb, depth + 1);
		break;
	case EX_ZEXT:
		sbuf_puts(sb, "(u");
		sbuf_put_u64(sb, x->op * 8u);
		sbuf_putc(sb, ')');
		fmt(ar, x->a, sb, depth + 1);
		break;
	case EX_SEXT:
		sbuf_puts(sb, "(s");
		sbuf_put_u64(sb, x->op * 8u);
		sbuf_putc(sb, ')');
		fmt(ar, x->a, sb, depth + 1);
		break;
	case EX_BSWAP:
		sbuf_puts(sb, "bswap");
		sbuf_put_u64(sb, x->op);
		sbuf_putc(sb, '(');
		fmt(ar, x->a, sb, depth + 1);
		sbuf_putc(sb, ')');
		break;
	}
}

void expr_format(const struct expr_arena *ar, eid e, struct sbuf *sb)
{
	fmt(ar, e, sb, 0);
}
