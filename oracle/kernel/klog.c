/* The kernel verifier's level-2 log as claims: see klog.h for what the lines mean and which
 * joins become claims.  The replay keeps, per frame, the registers and the 64 eight-byte stack
 * cells as the log last printed them; a change the log does not print (registers a call leaves
 * uninitialised, a store through a pointer) makes what it may touch unknown rather than stale,
 * so the joins only ever lose precision, never gain it.
 */
#include "oracle/kernel/klog.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS (EBPF_STACK_SIZE / 8)
#define FRAMES EBPF_MAX_CALL_DEPTH
#define MAP_NAME_LEN 16		/* BPF_OBJ_NAME_LEN: what the kernel keeps of a map's name */
#ifndef BPF_PSEUDO_KFUNC_CALL
#define BPF_PSEUDO_KFUNC_CALL 2
#endif
#ifndef BPF_PSEUDO_FUNC
#define BPF_PSEUDO_FUNC 4
#endif

/* ---- values ---- */

static struct range unknown_range(void)
{
	return (struct range){ .umin = 0, .umax = UINT64_MAX, .smin = INT64_MIN, .smax = INT64_MAX,
			       .u32_min = 0, .u32_max = UINT32_MAX, .s32_min = INT32_MIN,
			       .s32_max = INT32_MAX, .var_off = TNUM(0, UINT64_MAX) };
}

static struct range const_range(uint64_t x)
{
	return (struct range){ .umin = x, .umax = x, .smin = (int64_t)x, .smax = (int64_t)x,
			       .u32_min = (uint32_t)x, .u32_max = (uint32_t)x,
			       .s32_min = (int32_t)x, .s32_max = (int32_t)x,
			       .var_off = TNUM(x, 0) };
}

static bool is_unknown(const struct range *r)
{
	struct range u = unknown_range();

	return r->umin == u.umin && r->umax == u.umax && r->smin == u.smin &&
	       r->smax == u.smax && r->u32_min == u.u32_min && r->u32_max == u.u32_max &&
	       r->s32_min == u.s32_min && r->s32_max == u.s32_max &&
	       r->var_off.mask == UINT64_MAX;
}

/* Smallest tnum holding both: a bit is known only where both know it and agree. */
static struct tnum tnum_hull(struct tnum a, struct tnum b)
{
	uint64_t mu = a.mask | b.mask | (a.value ^ b.value);

	return TNUM(a.value & ~mu, mu);
}

/* Field by field: each state's set is the intersection of its fields, so the hull of every
 * field holds both sets.  Deliberately no refinement between fields (the kernel's printed
 * fields are the claim, nothing derived). */
static void range_hull(struct range *a, const struct range *b)
{
	a->umin = b->umin < a->umin ? b->umin : a->umin;
	a->umax = b->umax > a->umax ? b->umax : a->umax;
	a->smin = b->smin < a->smin ? b->smin : a->smin;
	a->smax = b->smax > a->smax ? b->smax : a->smax;
	a->u32_min = b->u32_min < a->u32_min ? b->u32_min : a->u32_min;
	a->u32_max = b->u32_max > a->u32_max ? b->u32_max : a->u32_max;
	a->s32_min = b->s32_min < a->s32_min ? b->s32_min : a->s32_min;
	a->s32_max = b->s32_max > a->s32_max ? b->s32_max : a->s32_max;
	a->var_off = tnum_hull(a->var_off, b->var_off);
}

/* The kernel's tnum addition (kernel/bpf/tnum.c): carries make the bits they may reach
 * unknown. */
static struct tnum tnum_plus(struct tnum a, struct tnum b)
{
	uint64_t sm = a.mask + b.mask, sv = a.value + b.value, sigma = sm + sv;
	uint64_t mu = (sigma ^ sv) | a.mask | b.mask;

	return TNUM(sv & ~mu, mu);
}

static int64_t floor_div(__int128 x, __int128 m)
{
	__int128 q = x / m;

	return (int64_t)(x % m < 0 ? q - 1 : q);
}

/* {off + v : v in *v} for a pointer's fixed offset plus its variable part.  A bound pair that
 * would wrap inside the interval becomes unknown. */
static struct range shift_range(const struct range *v, int64_t off)
{
	struct range r = unknown_range();
	const __int128 two64 = (__int128)1 << 64;
	__int128 lo, hi;
	int32_t off32 = (int32_t)(uint32_t)(uint64_t)off;
	int64_t lo32, hi32;

	lo = (__int128)v->umin + off;
	hi = (__int128)v->umax + off;
	if (floor_div(lo, two64) == floor_div(hi, two64)) {
		r.umin = (uint64_t)lo;
		r.umax = (uint64_t)hi;
	}
	lo = (__int128)v->smin + off;
	hi = (__int128)v->smax + off;
	if (lo >= INT64_MIN && hi <= INT64_MAX) {
		r.smin = (int64_t)lo;
		r.smax = (int64_t)hi;
	}
	lo32 = (int64_t)v->u32_min + off32;
	hi32 = (int64_t)v->u32_max + off32;
	if (floor_div(lo32, (__int128)1 << 32) == floor_div(hi32, (__int128)1 << 32)) {
		r.u32_min = (uint32_t)lo32;
		r.u32_max = (uint32_t)hi32;
	}
	lo32 = (int64_t)v->s32_min + off32;
	hi32 = (int64_t)v->s32_max + off32;
	if (lo32 >= INT32_MIN && hi32 <= INT32_MAX) {
		r.s32_min = (int32_t)lo32;
		r.s32_max = (int32_t)hi32;
	}
	r.var_off = tnum_plus(v->var_off, TNUM((uint64_t)off, 0));
	return r;
}

static void val_join(struct klog_val *acc, const struct klog_val *v, bool first)
{
	if (first) {
		*acc = *v;
		return;
	}
	if (acc->kind == KLOG_TOP)
		return;
	if (v->kind != acc->kind || v->kind == KLOG_TOP) {
		acc->kind = KLOG_TOP;
		return;
	}
	if (v->kind == KLOG_NONE)
		return;
	if (v->kind == KLOG_PTR && (v->region != acc->region || v->map != acc->map)) {
		acc->kind = KLOG_TOP;
		return;
	}
	acc->maybe_null |= v->maybe_null;
	range_hull(&acc->r, &v->r);
}

static const struct klog_val val_top = { .kind = KLOG_TOP };
static const struct klog_val val_none = { .kind = KLOG_NONE };

/* ---- the parser's state ---- */

struct frame {
	struct klog_val reg[EBPF_NREGS];
	struct klog_val slot[SLOTS];	/* slot i: the 8 bytes at fp - 8(i + 1) */
};

/* One printed state: the registers and slots it names. */
struct printed {
	int frame;
	uint16_t regs;
	uint64_t slots;
	struct klog_val reg[EBPF_NREGS];
	struct klog_val slot[SLOTS];
};

enum expect { EXPECT_NONE, EXPECT_CALLER, EXPECT_CALLEE, EXPECT_RETURNING, EXPECT_TO_CALLER };

struct parser {
	struct klog *k;
	const struct ebpf_prog *prog;
	char (*maps)[MAP_NAME_LEN];
	size_t nmaps;
	struct frame fr[FRAMES];
	int depth;
	bool valid;		/* a walk is in progress: fr[depth] is its state */
	enum expect expect;
	bool pending_call;	/* a bpf-to-bpf call printed no change: "caller:" follows it
				 * for a static function; anything else means a global one */
	uint32_t lineno;
	struct printed p;
	char *line;		/* NUL-terminated copy of the current line */
	size_t line_cap;
};

static void warn(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void warn(struct parser *ps, const char *fmt, ...)
{
	struct klog *k = ps->k;

	if (!k->warnings++) {
		va_list ap;
		int n = snprintf(k->warning, sizeof(k->warning), "line %u: ", ps->lineno);

		va_start(ap, fmt);
		if (n > 0 && (size_t)n < sizeof(k->warning))
			vsnprintf(k->warning + n, sizeof(k->warning) - n, fmt, ap);
		va_end(ap);
	}
}

static void frame_set(struct frame *f, const struct klog_val *v)
{
	for (int r = 0; r < EBPF_NREGS; r++)
		f->reg[r] = *v;
	for (int s = 0; s < SLOTS; s++)
		f->slot[s] = *v;
}

/* Kernel object names: at most 15 characters of [A-Za-z0-9_.], others become '_' — how
 * oracle/kernel/kernel.c names the maps it creates, so the names the log prints. */
static void obj_name(char dst[MAP_NAME_LEN], const char *src)
{
	size_t i;

	for (i = 0; i < MAP_NAME_LEN - 1 && src[i]; i++)
		dst[i] = isalnum((unsigned char)src[i]) || src[i] == '.' ? src[i] : '_';
	dst[i] = '\0';
}

static int map_by_name(const struct parser *ps, const char *name, size_t len)
{
	int found = -1;

	for (size_t m = 0; m < ps->nmaps; m++)
		if (strlen(ps->maps[m]) == len && !memcmp(ps->maps[m], name, len)) {
			if (found >= 0)
				return -1;	/* two maps of one name: cannot tell */
			found = (int)m;
		}
	return found;
}

/* ---- tokens ---- */

/* A number as the kernel prints one: decimal with an optional minus, or 0x hex; *end after it. */
static int parse_num(const char *s, const char **end, uint64_t *out)
{
	bool neg = false;
	uint64_t v = 0;
	const char *p = s;

	if (*p == '-') {
		neg = true;
		p++;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		const char *q = p + 2;

		if (!isxdigit((unsigned char)*q))
			return -1;
		for (; isxdigit((unsigned char)*q); q++) {
			if (v >> 60)
				return -1;
			v = v << 4 | (uint64_t)(isdigit((unsigned char)*q) ? *q - '0'
								  : (tolower(*q) - 'a' + 10));
		}
		p = q;
	} else {
		if (!isdigit((unsigned char)*p))
			return -1;
		for (; isdigit((unsigned char)*p); p++) {
			if (v > (UINT64_MAX - 9) / 10)
				return -1;
			v = v * 10 + (uint64_t)(*p - '0');
		}
	}
	*out = neg ? (uint64_t)0 - v : v;
	*end = p;
	return 0;
}

enum field { F_SMIN, F_SMAX, F_UMIN, F_UMAX, F_SMIN32, F_SMAX32, F_UMIN32, F_UMAX32, F_NONE };

static enum field field_name(const char *s, size_t n)
{
	static const char *const names[] = { "smin", "smax", "umin", "umax",
					     "smin32", "smax32", "umin32", "umax32" };

	for (int i = 0; i < F_NONE; i++)
		if (strlen(names[i]) == n && !memcmp(names[i], s, n))
			return (enum field)i;
	return F_NONE;
}

static void field_set(struct range *r, enum field f, uint64_t v)
{
	switch (f) {
	case F_SMIN: r->smin = (int64_t)v; break;
	case F_SMAX: r->smax = (int64_t)v; break;
	case F_UMIN: r->umin = v; break;
	case F_UMAX: r->umax = v; break;
	/* 32-bit fields print sign-extended in decimal, zero-extended in hex: the low half is the
	 * value either way */
	case F_SMIN32: r->s32_min = (int32_t)(uint32_t)v; break;
	case F_SMAX32: r->s32_max = (int32_t)(uint32_t)v; break;
	case F_UMIN32: r->u32_min = (uint32_t)v; break;
	case F_UMAX32: r->u32_max = (uint32_t)v; break;
	default: break;
	}
}

/* What a "name(...)" list says: the fixed offset, a constant variable part, the range fields. */
struct attrs {
	int64_t off, imm;
	bool has_fields;	/* range fields or var_off printed: a variable part */
	int map;		/* -1: none or unknown */
	bool named_map;
	struct range var;
};

/* Parses the attributes between the parentheses, s[0..n).  -1 on anything not understood. */
static int parse_attrs(const struct parser *ps, const char *s, size_t n, struct attrs *a)
{
	const char *end = s + n;

	memset(a, 0, sizeof(*a));
	a->map = -1;
	a->var = unknown_range();
	while (s < end) {
		const char *item = s, *item_end = s;
		int depth = 0;
		uint64_t v;
		const char *e;

		while (item_end < end && (depth || *item_end != ',')) {
			depth += *item_end == '(' ? 1 : *item_end == ')' ? -1 : 0;
			item_end++;
		}
		s = item_end < end ? item_end + 1 : end;
#define ITEM_IS(lit)                                                                      \
	((size_t)(item_end - item) >= sizeof(lit) - 1 && !memcmp(item, lit, sizeof(lit) - 1))
		if (ITEM_IS("id=") || ITEM_IS("ref_obj_id=") || ITEM_IS("ks=") || ITEM_IS("vs=") ||
		    ITEM_IS("r=") || ITEM_IS("sz=") || ITEM_IS("type=") ||
		    ITEM_IS("non_own_ref")) {
			continue;	/* identity, sizes and verified packet range: not values */
		} else if (ITEM_IS("map=")) {
			a->named_map = true;
			a->map = map_by_name(ps, item + 4, (size_t)(item_end - item - 4));
		} else if (ITEM_IS("off=")) {
			if (parse_num(item + 4, &e, &v) || e != item_end)
				return -1;
			a->off = (int64_t)v;
		} else if (ITEM_IS("imm=")) {
			if (parse_num(item + 4, &e, &v) || e != item_end)
				return -1;
			a->imm = (int64_t)v;
		} else if (ITEM_IS("var_off=(")) {
			uint64_t val, mask;
			const char *p = item + 9;

			if (parse_num(p, &e, &val) || *e != ';' || e[1] != ' ' ||
			    parse_num(e + 2, &e, &mask) || *e != ')' || e + 1 != item_end)
				return -1;
			a->var.var_off = TNUM(val, mask);
			a->has_fields = true;
		} else {
			/* "smin=umin=smin32=umin32=4": names joined by '=', then the value */
			enum field fs[F_NONE];
			int nf = 0;
			const char *p = item;

			for (;;) {
				const char *eq = memchr(p, '=', (size_t)(item_end - p));
				enum field f;

				if (!eq)
					break;
				f = field_name(p, (size_t)(eq - p));
				if (f == F_NONE || nf == F_NONE)
					return -1;
				fs[nf++] = f;
				p = eq + 1;
			}
			if (!nf || parse_num(p, &e, &v) || e != item_end)
				return -1;
			for (int i = 0; i < nf; i++)
				field_set(&a->var, fs[i], v);
			a->has_fields = true;
		}
#undef ITEM_IS
	}
	return 0;
}

static bool has_suffix(const char *s, size_t n, const char *suf)
{
	size_t m = strlen(suf);

	return n >= m && !memcmp(s + n - m, suf, m);
}

/* One register or spilled value ("5", "P0x10", "scalar(...)", "fp-8", "pkt(off=14,r=14)"),
 * NUL-terminated; frame is the frame whose state it belongs to.  -1 when not understood. */
static int parse_value(const struct parser *ps, const char *s, int frame, struct klog_val *v)
{
	struct attrs a;
	const char *open, *name;
	size_t n, len;
	uint64_t x;
	const char *e;

	*v = val_top;
	if (s[0] == 'P' && (s[1] == '-' || isdigit((unsigned char)s[1]) ||
			    !strncmp(s + 1, "scalar(", 7)))
		s++;	/* precise: a fact about the walk, not the value */
	name = s;
	len = strlen(s);
	if (*s == '-' || isdigit((unsigned char)*s)) {
		if (parse_num(s, &e, &x) || *e)
			return -1;
		v->kind = KLOG_SCALAR;
		v->r = const_range(x);
		return 0;
	}
	if (!strncmp(s, "fp", 2) && (s[2] == '-' || s[2] == '[' || s[2] == '(' ||
				     isdigit((unsigned char)s[2]))) {
		/* stack pointers: "fp-8", into another frame "fp[0]-8", variable "fp(off=..)" */
		const char *p = s + 2;
		int target = frame;

		if (*p == '[') {
			if (parse_num(p + 1, &e, &x) || *e != ']')
				return -1;
			target = (int)x;
			p = e + 1;
		}
		if (*p == '(') {
			if (len < 2 || s[len - 1] != ')' ||
			    parse_attrs(ps, p + 1, (size_t)(s + len - 1 - (p + 1)), &a))
				return -1;
			v->r = a.has_fields ? shift_range(&a.var, a.off)
					    : const_range((uint64_t)(a.off + a.imm));
		} else {
			if (parse_num(p, &e, &x) || *e)
				return -1;
			v->r = const_range(x);
		}
		if (target != frame)
			return 0;	/* another frame's stack: no region the claims can name */
		v->kind = KLOG_PTR;
		v->region = REGION_STACK;
		return 0;
	}
	n = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_");
	open = s + n;
	if (!n || *open != '(' || s[len - 1] != ')')
		return -1;
	if (parse_attrs(ps, open + 1, (size_t)(s + len - 1 - (open + 1)), &a))
		return -1;
	if (n == 6 && !memcmp(s, "scalar", 6)) {
		if (a.named_map || a.off || a.imm)
			return -1;
		v->kind = KLOG_SCALAR;
		v->r = a.var;
		return 0;
	}
	v->maybe_null = has_suffix(s, n, "_or_null");
	if (v->maybe_null)
		n -= strlen("_or_null");
#define NAME_IS(lit) (n == sizeof(lit) - 1 && !memcmp(name, lit, n))
	if (NAME_IS("ctx"))
		v->region = REGION_CTX;
	else if (NAME_IS("pkt"))
		v->region = REGION_PKT;
	else if (NAME_IS("pkt_meta"))
		v->region = REGION_PKT_META;
	else if (NAME_IS("pkt_end"))
		v->region = REGION_PKT_END;
	else if (NAME_IS("map_value") && a.map >= 0)
		v->region = REGION_MAP_VALUE;
	else
		return 0;	/* a pointer the claims cannot name (map handles included: see the
				 * report) */
#undef NAME_IS
	v->kind = KLOG_PTR;
	v->map = a.map >= 0 ? (uint16_t)a.map : 0;
	/* a constant variable part prints as imm= (or nothing when 0), else as range fields */
	v->r = a.has_fields ? shift_range(&a.var, a.off) : const_range((uint64_t)(a.off + a.imm));
	return 0;
}

/* A stack slot's text after "fp-8=": slot characters for each byte ('?' invalid, 'm' misc,
 * '0' zero, 'd' dynptr, 'i' iterator, 'f' irq flag), the leading ones of a narrow spill
 * followed by the spilled value, just the value of an 8-byte spill, or an iterator's or dynptr's
 * state (an unknown value). */
static int parse_slot(const struct parser *ps, const char *s, int frame, struct klog_val *v)
{
	size_t n = strspn(s, "?m0difr"), len = strlen(s);

	if (len == 8 && n == 8) {
		*v = strcmp(s, "00000000") ? val_top : (struct klog_val){ .kind = KLOG_SCALAR,
									  .r = const_range(0) };
		return 0;
	}
	/* an iterator or dynptr slot ("iter_num(ref_id=1,state=active,depth=0)", "dynptr_ringbuf(
	 * ...)"): kernel state the program cannot read as a number */
	if (!strncmp(s, "iter_", 5) || !strncmp(s, "dynptr", 6)) {
		*v = val_top;
		return 0;
	}
	if (len > 4 && strspn(s, "?m0") >= 4 && strncmp(s, "0x", 2)) {
		*v = val_top;	/* narrow spill: which bytes hold what is not worth the risk */
		return 0;
	}
	return parse_value(ps, s, frame, v);
}

/* Parses a printed state ("frame1: R0=5 R1=ctx() R10=fp0 fp-8=mmmmmmmm refs=2") into ps->p.
 * Registers and slots whose text is not understood become unknown (with a warning); other
 * tokens that are not registers or slots (refs=, cb, async_cb) are skipped. */
static void parse_state(struct parser *ps, char *s)
{
	struct printed *p = &ps->p;

	p->frame = 0;
	p->regs = 0;
	p->slots = 0;
	while (*s == ' ')
		s++;
	if (!strncmp(s, "frame", 5) && isdigit((unsigned char)s[5])) {
		char *e;

		p->frame = (int)strtol(s + 5, &e, 10);
		if (*e != ':' || p->frame < 0 || p->frame >= FRAMES) {
			warn(ps, "frame marker '%.20s' not understood", s);
			p->frame = 0;
		}
		s = *e == ':' ? e + 1 : e;
	}
	while (*s) {
		char *tok, *eq, *name_end;
		int depth = 0;

		while (*s == ' ')
			s++;
		if (!*s)
			break;
		tok = s;
		while (*s && (depth || *s != ' ')) {
			depth += *s == '(' ? 1 : *s == ')' ? -1 : 0;
			s++;
		}
		if (*s)
			*s++ = '\0';
		eq = strchr(tok, '=');
		if (!eq)
			continue;	/* "cb", "async_cb" */
		name_end = eq;
		/* 6.10-6.17 mark registers written ("_w") or read and written ("_rw") */
		for (int k = 0; k < 3; k++) {
			static const char *const sufs[] = { "_rw", "_w", "_r" };
			size_t m = strlen(sufs[k]);

			if ((size_t)(name_end - tok) > m && !memcmp(name_end - m, sufs[k], m)) {
				name_end -= m;
				break;
			}
		}
		*name_end = '\0';
		if (tok[0] == 'R' && isdigit((unsigned char)tok[1])) {
			char *e;
			long r = strtol(tok + 1, &e, 10);

			if (*e || r < 0 || r >= EBPF_NREGS) {
				warn(ps, "register name '%s' not understood", tok);
				continue;
			}
			p->regs |= (uint16_t)(1u << r);
			if (parse_value(ps, eq + 1, p->frame, &p->reg[r])) {
				warn(ps, "R%ld=%.160s not understood", r, eq + 1);
				p->reg[r] = val_top;
			}
		} else if (!strncmp(tok, "fp-", 3)) {
			char *e;
			long off = strtol(tok + 3, &e, 10);

			if (*e || off < 8 || off > EBPF_STACK_SIZE || off % 8) {
				warn(ps, "stack slot '%s' not understood", tok);
				continue;
			}
			p->slots |= 1ull << (off / 8 - 1);
			if (parse_slot(ps, eq + 1, p->frame, &p->slot[off / 8 - 1])) {
				warn(ps, "fp-%ld=%.160s not understood", off, eq + 1);
				p->slot[off / 8 - 1] = val_top;
			}
		}
		/* refs=, other key=value notes: not values */
	}
}

/* ---- the walk ---- */

/* A complete frame state (print_all): what it does not name is uninitialised. */
static void apply_full(struct parser *ps)
{
	struct frame *f = &ps->fr[ps->p.frame];

	frame_set(f, &val_none);
	for (int r = 0; r < EBPF_NREGS; r++)
		if (ps->p.regs & (1u << r))
			f->reg[r] = ps->p.reg[r];
	for (int s = 0; s < SLOTS; s++)
		if (ps->p.slots & (1ull << s))
			f->slot[s] = ps->p.slot[s];
}

/* Changes: registers and slots named replace what was there. */
static void apply_delta(struct parser *ps)
{
	struct frame *f;

	if (!ps->valid) {
		warn(ps, "a state change outside any walk");
		return;
	}
	if (ps->p.frame != ps->depth) {
		/* a frame the walk did not see entered: all of it is unknown but what is printed */
		warn(ps, "state of frame %d while the walk is in frame %d", ps->p.frame, ps->depth);
		ps->depth = ps->p.frame;
		frame_set(&ps->fr[ps->depth], &val_top);
	}
	f = &ps->fr[ps->depth];
	for (int r = 0; r < EBPF_NREGS; r++)
		if (ps->p.regs & (1u << r))
			f->reg[r] = ps->p.reg[r];
	for (int s = 0; s < SLOTS; s++)
		if (ps->p.slots & (1ull << s))
			f->slot[s] = ps->p.slot[s];
}

static void start_walk(struct parser *ps)
{
	for (int i = 0; i < FRAMES; i++)
		frame_set(&ps->fr[i], &val_none);
	ps->depth = 0;
	ps->valid = true;
	ps->pending_call = false;
	ps->expect = EXPECT_NONE;
}

/* Helpers that neither write memory they are given nor change packet data: calls to them leave
 * stack cells and packet pointers as they were. */
static bool helper_is_pure(int32_t id)
{
	switch (id) {
	case 1: case 2: case 3:		/* map lookup, update, delete: read key and value */
	case 5: case 6: case 7: case 8: case 12: case 14: case 15: case 42: case 80: case 118:
	case 125: case 160: case 208:	/* clocks, ids, prandom, trace_printk, tail call */
		return true;
	default:
		return false;
	}
}

static bool is_pkt_region(uint8_t region)
{
	return region == REGION_PKT || region == REGION_PKT_META || region == REGION_PKT_END;
}

/* What an unprinted change may have touched becomes unknown: every spilled cell of every frame
 * and every packet pointer (helpers that write memory or move packet data). */
static void invalidate_memory(struct parser *ps)
{
	for (int i = 0; i <= ps->depth && i < FRAMES; i++) {
		struct frame *f = &ps->fr[i];

		for (int s = 0; s < SLOTS; s++)
			if (f->slot[s].kind != KLOG_NONE)
				f->slot[s] = val_top;
		for (int r = 0; r < EBPF_NREGS; r++)
			if (f->reg[r].kind == KLOG_PTR && is_pkt_region(f->reg[r].region))
				f->reg[r] = val_top;
	}
}

/* r0-r5 after a call or a legacy packet load: the kernel marks r1-r5 uninitialised and never
 * prints that; r0 gets a new value the change line prints (unknown until it does). */
static void clobber_caller_saved(struct parser *ps)
{
	struct frame *f = &ps->fr[ps->depth];

	f->reg[0] = val_top;
	for (int r = 1; r <= 5; r++)
		f->reg[r] = val_none;
}

static void invalidate_slots(struct frame *f, int64_t lo, int64_t hi)
{
	for (int64_t b = lo; b < hi; b++)
		if (b < 0 && b >= -EBPF_STACK_SIZE)
			f->slot[(-b - 1) / 8] = val_top;
}

/* A store: the kernel prints the slots it changed, but only those of the running frame and
 * only for stores it sees as stack stores; whatever the store may reach otherwise becomes
 * unknown (the change line may print it again). */
static void store_effect(struct parser *ps, const struct bpf_insn *i)
{
	struct frame *f = &ps->fr[ps->depth];
	const struct klog_val *base = &f->reg[i->dst_reg];
	int64_t size = 1 << (ebpf_size(i) == BPF_DW ? 3 : ebpf_size(i) == BPF_W ? 2
							 : ebpf_size(i) == BPF_H ? 1 : 0);

	if (i->dst_reg == EBPF_REG_FP) {
		invalidate_slots(f, i->off, i->off + size);
	} else if (base->kind == KLOG_PTR && base->region != REGION_STACK) {
		return;		/* context, packet or map value: not the stack */
	} else if (base->kind == KLOG_PTR && base->r.umin == base->r.umax) {
		int64_t at = (int64_t)base->r.umin + i->off;

		invalidate_slots(f, at, at + size);
	} else {
		for (int k = 0; k <= ps->depth; k++)
			for (int s = 0; s < SLOTS; s++)
				if (ps->fr[k].slot[s].kind != KLOG_NONE)
					ps->fr[k].slot[s] = val_top;
	}
}

/* A bpf-to-bpf call that turned out to be to a global function (verified on its own): for the
 * caller it is like a helper that may write what it is given. */
static void global_call(struct parser *ps)
{
	ps->pending_call = false;
	clobber_caller_saved(ps);
	invalidate_memory(ps);
}

static void record(struct parser *ps, uint32_t pc)
{
	struct klog_pc *e = &ps->k->pcs[pc];
	const struct frame *f = &ps->fr[ps->depth];
	bool first = e->nstates == 0;

	if (!ps->valid) {
		/* an instruction line with no state before it: nothing is known here */
		warn(ps, "instruction %u outside any walk", pc);
		for (int r = 0; r < EBPF_REG_FP; r++)
			val_join(&e->regs[r], &val_top, first);
		e->ncells = 0;
		e->nstates++;
		return;
	}
	for (int r = 0; r < EBPF_REG_FP; r++)
		val_join(&e->regs[r], &f->reg[r], first);
	if (first) {
		uint32_t n = 0;

		for (int s = 0; s < SLOTS; s++)
			n += f->slot[s].kind == KLOG_SCALAR || f->slot[s].kind == KLOG_PTR;
		free(e->cells);
		e->cells = n ? malloc(n * sizeof(*e->cells)) : NULL;
		e->ncells = 0;
		for (int s = 0; s < SLOTS && e->cells; s++)
			if (f->slot[s].kind == KLOG_SCALAR || f->slot[s].kind == KLOG_PTR)
				e->cells[e->ncells++] = (struct klog_cell){ (int16_t)(-8 * (s + 1)),
									    f->slot[s] };
	} else {
		uint32_t kept = 0;

		for (uint32_t c = 0; c < e->ncells; c++) {
			struct klog_cell cell = e->cells[c];

			val_join(&cell.v, &f->slot[-cell.off / 8 - 1], false);
			if (cell.v.kind == KLOG_SCALAR || cell.v.kind == KLOG_PTR)
				e->cells[kept++] = cell;
		}
		e->ncells = kept;
	}
	e->nstates++;
}

/* The instruction's effects the change line does not show, applied before it. */
static void after_insn(struct parser *ps, uint32_t pc, bool has_delta)
{
	const struct bpf_insn *i = &ps->prog->insns[pc];
	uint8_t cls = ebpf_class(i);

	if (!ps->valid)
		return;
	if (ebpf_is_call(i)) {
		if (ebpf_is_pseudo_call(i)) {
			ps->pending_call = true;
			/* static calls print "caller:" first, never a change */
			if (has_delta)
				global_call(ps);
			return;
		}
		clobber_caller_saved(ps);
		if (!(ebpf_srcbit(i) == BPF_K && i->src_reg == 0 && helper_is_pure(i->imm)))
			invalidate_memory(ps);
	} else if (cls == BPF_LD && (ebpf_mode(i) == BPF_ABS || ebpf_mode(i) == BPF_IND)) {
		clobber_caller_saved(ps);
	} else if (cls == BPF_ST || cls == BPF_STX) {
		store_effect(ps, i);
	} else if (ebpf_is_exit(i) && ps->depth == 0) {
		ps->valid = false;	/* the path ends; "from X to Y" starts the next */
	}
}

static bool starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* "  1   2: 01........ (07) r0 += 3": optional SCC number, pc, live registers r0..r9. */
static bool parse_live_line(struct parser *ps, const char *s)
{
	unsigned long a, pc;
	char *e;

	while (*s == ' ')
		s++;
	if (!isdigit((unsigned char)*s))
		return false;
	a = strtoul(s, &e, 10);
	s = e;
	if (*s == ' ') {
		while (*s == ' ')
			s++;
		if (!isdigit((unsigned char)*s))
			return false;
		pc = strtoul(s, &e, 10);
		s = e;
	} else {
		pc = a;
	}
	if (s[0] != ':' || s[1] != ' ' || strspn(s + 2, ".0123456789") < 10)
		return false;
	s += 2;
	if (pc >= ps->k->npcs) {
		warn(ps, "liveness of instruction %lu, beyond the program", pc);
		return true;
	}
	ps->k->pcs[pc].live = 0;
	for (int r = 0; r < 10; r++)
		if (s[r] == '0' + r)
			ps->k->pcs[pc].live |= (uint16_t)(1u << r);
	return true;
}

/* "mark_precise: frame0: regs=r1,r2 stack=-8 before 3: (07) r1 += 1" */
static void parse_precise(struct parser *ps, const char *s)
{
	const char *regs = strstr(s, " regs="), *before = strstr(s, " before ");
	unsigned long pc;
	char *e;
	uint16_t mask = 0;

	if (!regs || !before || before < regs)
		return;
	pc = strtoul(before + 8, &e, 10);
	if (*e != ':' || pc >= ps->k->npcs)
		return;
	for (const char *p = regs + 6; *p == 'r' && isdigit((unsigned char)p[1]);) {
		long r = strtol(p + 1, &e, 10);

		if (r >= 0 && r < EBPF_NREGS)
			mask |= (uint16_t)(1u << r);
		p = *e == ',' ? e + 1 : e;
	}
	ps->k->pcs[pc].precise |= mask;
	ps->k->precise_marks++;
}

static void prune(struct parser *ps, unsigned long pc)
{
	if (pc < ps->k->npcs)
		ps->k->pcs[pc].npruned++;
	else
		warn(ps, "pruning at instruction %lu, beyond the program", pc);
	ps->k->prunes++;
	ps->valid = false;
	ps->pending_call = false;
}

/* "N: ..." lines: an instruction, a state change, or pruning.  -EINVAL when the instruction is
 * not this program's. */
static int number_line(struct parser *ps, char *s, struct diag *d)
{
	unsigned long pc;
	char *e, *rest, *semi;
	pc = strtoul(s, &e, 10);
	if (*e != ':') {
		warn(ps, "line not understood");
		return 0;
	}
	rest = e + 1;
	if (!strcmp(rest, " safe") || starts(rest, " safe ")) {
		prune(ps, pc);
		return 0;
	}
	if (starts(rest, " (") && isxdigit((unsigned char)rest[2]) &&
	    isxdigit((unsigned char)rest[3]) && rest[4] == ')') {
		unsigned opcode = (unsigned)strtoul(rest + 2, NULL, 16);

		if (pc >= ps->k->npcs)
			return diag_set(d, EINVAL, "verifier log line %u: instruction %lu is "
					"beyond the program's %u slots", ps->lineno, pc,
					ps->k->npcs);
		if (opcode != ps->prog->insns[pc].code)
			return diag_set(d, EINVAL, "verifier log line %u: instruction %lu has "
					"opcode %#x in the log but %#x in the program: the log "
					"is not of this program", ps->lineno, pc, opcode,
					ps->prog->insns[pc].code);
		if (ps->pending_call)
			global_call(ps);
		ps->k->insn_lines++;
		record(ps, (uint32_t)pc);
		/* " ;" starts the changes (var_off=(0x0; 0x1) has no space before its ';') */
		semi = strstr(rest, " ;");
		after_insn(ps, (uint32_t)pc, semi != NULL);
		if (semi) {
			parse_state(ps, semi + 2);
			apply_delta(ps);
			ps->k->state_lines++;
		}
		return 0;
	}
	if (starts(rest, " R") || starts(rest, " frame") || starts(rest, " fp")) {
		if (ps->pending_call)
			global_call(ps);
		parse_state(ps, rest);
		apply_delta(ps);
		ps->k->state_lines++;
		return 0;
	}
	if (*rest == '\0')
		return 0;	/* a state with nothing to print */
	warn(ps, "line '%.60s' not understood", s);
	return 0;
}

/* "from X to Y: <state>", "from X to Y (speculative execution): safe" */
static void from_line(struct parser *ps, char *s)
{
	unsigned long x, y;
	char *e, *colon;

	x = strtoul(s + 5, &e, 10);
	(void)x;
	if (!starts(e, " to ")) {
		warn(ps, "'from' line not understood");
		ps->valid = false;
		return;
	}
	y = strtoul(e + 4, &e, 10);
	colon = strchr(e, ':');
	if (!colon) {
		warn(ps, "'from' line not understood");
		ps->valid = false;
		return;
	}
	if (!strcmp(colon + 1, " safe")) {
		prune(ps, y);
		return;
	}
	parse_state(ps, colon + 1);
	/* only the running frame is printed: its callers are unknown until "to caller at" */
	for (int i = 0; i < ps->p.frame; i++)
		frame_set(&ps->fr[i], &val_top);
	ps->depth = ps->p.frame;
	ps->valid = true;
	ps->pending_call = false;
	apply_full(ps);
	ps->k->full_states++;
}

/* The frame state after "caller:", "callee:", "returning from callee:", "to caller at N:". */
static void frame_line(struct parser *ps, char *s)
{
	enum expect what = ps->expect;

	ps->expect = EXPECT_NONE;
	parse_state(ps, s);
	ps->k->full_states++;
	if (!ps->valid)
		return;
	switch (what) {
	case EXPECT_CALLER:
		apply_full(ps);
		break;
	case EXPECT_CALLEE:
	case EXPECT_TO_CALLER:
		apply_full(ps);
		ps->depth = ps->p.frame;
		break;
	default:
		break;	/* the callee as it returns: nothing the next lines need */
	}
}

static int parse_line(struct parser *ps, char *s, bool *in_table, struct diag *d)
{
	if (*in_table) {
		if (parse_live_line(ps, s))
			return 0;
		*in_table = false;
	}
	if (ps->expect != EXPECT_NONE) {
		if (s[0] == ' ' || starts(s, "frame")) {
			frame_line(ps, s);
			return 0;
		}
		warn(ps, "a frame state was expected");
		ps->expect = EXPECT_NONE;
	}
	if (isdigit((unsigned char)s[0]))
		return number_line(ps, s, d);
	if (ps->pending_call && !starts(s, "caller:") && !starts(s, "mark_precise") &&
	    !starts(s, "("))
		global_call(ps);
	if (starts(s, "from ")) {
		from_line(ps, s);
	} else if (starts(s, "caller:")) {
		ps->pending_call = false;
		ps->expect = EXPECT_CALLER;
	} else if (starts(s, "callee:")) {
		ps->expect = EXPECT_CALLEE;
	} else if (starts(s, "returning from callee:")) {
		ps->expect = EXPECT_RETURNING;
	} else if (starts(s, "to caller at ")) {
		ps->expect = EXPECT_TO_CALLER;
	} else if (starts(s, "mark_precise: ")) {
		parse_precise(ps, s);
	} else if (starts(s, "Live regs before insn:")) {
		ps->k->has_live = true;
		*in_table = true;
	} else if (starts(s, "Validating ")) {
		start_walk(ps);		/* a global function, verified on its own */
	} else if (starts(s, "processed ")) {
		char *e;

		ps->k->processed = strtol(s + 10, &e, 10);
		ps->k->complete = starts(e, " insns");
	}
	/* Everything else is prose: "func#0 @0", "SCC enter (1)", "(0) frame 0 insn 11 +live",
	 * "; source line", statistics, the reason of a rejection. */
	return 0;
}

int klog_parse(struct klog **out, const char *log, size_t len, const struct ebpf_prog *prog,
	       const struct ebpf_object *obj, struct diag *d)
{
	struct parser *ps;
	struct klog *k;
	const char *p = log, *end = log + len;
	bool in_table = false;
	int err = 0;

	*out = NULL;
	if (!prog || !prog->len || (!log && len))
		return diag_set(d, EINVAL, "no program or no log");
	ps = calloc(1, sizeof(*ps));
	k = calloc(1, sizeof(*k));
	if (!ps || !k)
		goto nomem;
	ps->k = k;
	ps->prog = prog;
	k->npcs = (uint32_t)prog->len;
	k->processed = -1;
	k->pcs = calloc(prog->len, sizeof(*k->pcs));
	if (!k->pcs)
		goto nomem;
	for (size_t pc = 0; pc < prog->len; pc++)
		if (ebpf_is_ldimm64(&prog->insns[pc]) && prog->insns[pc].src_reg == BPF_PSEUDO_FUNC)
			k->callbacks = true;
	if (obj && obj->map_cnt) {
		ps->maps = calloc(obj->map_cnt, sizeof(*ps->maps));
		if (!ps->maps)
			goto nomem;
		ps->nmaps = obj->map_cnt;
		for (size_t m = 0; m < obj->map_cnt; m++)
			obj_name(ps->maps[m], obj->maps[m].name);
	}
	start_walk(ps);
	while (p < end && *p) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t n = eol ? (size_t)(eol - p) : strnlen(p, (size_t)(end - p));

		if (n + 1 > ps->line_cap) {
			char *nl = realloc(ps->line, n + 1);

			if (!nl)
				goto nomem;
			ps->line = nl;
			ps->line_cap = n + 1;
		}
		memcpy(ps->line, p, n);
		while (n && (ps->line[n - 1] == '\r' || ps->line[n - 1] == ' '))
			n--;
		ps->line[n] = '\0';
		ps->lineno++;
		k->lines++;
		if (n && (err = parse_line(ps, ps->line, &in_table, d)))
			break;
		if (!eol)
			break;
		p = eol + 1;
	}
	free(ps->line);
	free(ps->maps);
	free(ps);
	if (err) {
		klog__free(k);
		return err;
	}
	*out = k;
	return 0;
nomem:
	if (ps) {
		free(ps->line);
		free(ps->maps);
	}
	free(ps);
	klog__free(k);
	return diag_set(d, ENOMEM, "out of memory");
}

void klog__free(struct klog *k)
{
	if (!k)
		return;
	for (uint32_t pc = 0; k->pcs && pc < k->npcs; pc++)
		free(k->pcs[pc].cells);
	free(k->pcs);
	free(k);
}

/* ---- claims ---- */

/* Instructions a pruned path can reach: from every pruned instruction along the control flow,
 * into called functions and from their exits back to every return site.  *all when that cannot
 * be bounded (callbacks: helpers call them back from anywhere). */
static int pruned_reach(const struct klog *k, const struct ebpf_prog *prog, uint8_t *reach)
{
	uint32_t n = (uint32_t)prog->len, *stack, top = 0, *entry_of;
	bool any = false;

	for (uint32_t pc = 0; pc < n; pc++)
		any |= k->pcs[pc].npruned > 0;
	if (!any)
		return 0;
	if (k->callbacks) {
		memset(reach, 1, n);
		return 0;
	}
	stack = malloc(n * sizeof(*stack));
	entry_of = malloc(n * sizeof(*entry_of));
	if (!stack || !entry_of) {
		free(stack);
		free(entry_of);
		return -ENOMEM;
	}
	/* function of each pc: the last function entry at or before it */
	memset(reach, 0, n);
	for (uint32_t pc = 0; pc < n; pc++)
		entry_of[pc] = 0;
	{
		uint8_t *is_entry = calloc(n, 1);

		if (!is_entry) {
			free(stack);
			free(entry_of);
			return -ENOMEM;
		}
		is_entry[0] = 1;
		for (uint32_t pc = 0; pc < n; pc++)
			if (ebpf_is_pseudo_call(&prog->insns[pc])) {
				long t = (long)pc + 1 + prog->insns[pc].imm;

				if (t >= 0 && t < (long)n)
					is_entry[t] = 1;
			}
		for (uint32_t pc = 0, cur = 0; pc < n; pc++) {
			if (is_entry[pc])
				cur = pc;
			entry_of[pc] = cur;
		}
		free(is_entry);
	}
	for (uint32_t pc = 0; pc < n; pc++)
		if (k->pcs[pc].npruned && !reach[pc]) {
			reach[pc] = 1;
			stack[top++] = pc;
		}
	while (top) {
		uint32_t pc = stack[--top], succ[2], next[2 + 1];
		unsigned ns = ebpf_succs(prog->insns, n, pc, succ), nn = 0;
		const struct bpf_insn *i = &prog->insns[pc];

		for (unsigned s = 0; s < ns; s++)
			next[nn++] = succ[s];
		if (ebpf_is_pseudo_call(i) && (long)pc + 1 + i->imm >= 0 &&
		    (long)pc + 1 + i->imm < (long)n)
			next[nn++] = (uint32_t)((long)pc + 1 + i->imm);
		for (unsigned s = 0; s < nn; s++)
			if (!reach[next[s]]) {
				reach[next[s]] = 1;
				stack[top++] = next[s];
			}
		if (ebpf_is_exit(i) && entry_of[pc] != 0) {
			/* back to every site calling this function */
			for (uint32_t c = 0; c < n; c++) {
				const struct bpf_insn *ci = &prog->insns[c];

				if (ebpf_is_pseudo_call(ci) &&
				    (long)c + 1 + ci->imm == entry_of[pc] && c + 1 < n &&
				    !reach[c + 1]) {
					reach[c + 1] = 1;
					stack[top++] = c + 1;
				}
			}
		}
	}
	free(stack);
	free(entry_of);
	return 0;
}

int klog_claims(struct claim_prog *out, const struct klog *k, const struct ebpf_prog *prog,
		const struct klog_claim_opts *uopts, struct klog_claim_stats *st)
{
	struct klog_claim_opts opts = { 0 };
	struct klog_claim_stats stats = { 0 };
	uint8_t *reach = NULL;
	int err = 0;

	if (uopts)
		memcpy(&opts, uopts,
		       uopts->sz && uopts->sz < sizeof(opts) ? uopts->sz : sizeof(opts));
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", prog->name);
	out->insn_count = (uint32_t)prog->len;
	snprintf(out->strategy, sizeof(out->strategy), "kernel");
	if (!k->complete || k->npcs != prog->len || !k->insn_lines) {
		snprintf(out->note, sizeof(out->note), "the verifier log has no complete walk "
			 "(truncated, not level 2, or not of this program): no claims");
		goto out;
	}
	reach = calloc(prog->len, 1);
	if (!reach)
		return -ENOMEM;
	if ((err = pruned_reach(k, prog, reach)))
		goto out;
	for (uint32_t pc = 0; pc < k->npcs; pc += ebpf_insn_slots(&prog->insns[pc])) {
		const struct klog_pc *e = &k->pcs[pc];
		bool exhaustive = !reach[pc];
		struct claim_range c = { .pc = pc, .source = SRC_KERNEL };

		if (!e->nstates) {
			stats.unreachable++;
			if (opts.no_unreachable)
				continue;
			/* never reached by the walk: dead code to the kernel */
			c.loc = EBPF_REG_FP;
			c.r = range_empty();
			if ((err = claim_prog__add_range(out, &c)))
				goto out;
			continue;
		}
		stats.pcs++;
		stats.exhaustive += exhaustive;
		for (int r = 0; r < EBPF_REG_FP; r++) {
			const struct klog_val *v = &e->regs[r];
			bool live = k->has_live && (e->live & (1u << r));

			if (v->kind == KLOG_SCALAR) {
				if (!exhaustive)
					continue;
				if (is_unknown(&v->r))
					continue;
				stats.scalars++;
			} else if (v->kind == KLOG_PTR) {
				if (!exhaustive && !live)
					continue;
				stats.pointers++;
			} else {
				continue;
			}
			c.loc = (loc_t)r;
			c.is_ptr = v->kind == KLOG_PTR;
			c.region = v->region;
			c.map = v->map;
			c.maybe_null = v->maybe_null;
			c.r = v->r;
			if ((err = claim_prog__add_range(out, &c)))
				goto out;
		}
		if (!exhaustive || opts.no_cells)
			continue;
		for (uint32_t i = 0; i < e->ncells; i++) {
			const struct klog_val *v = &e->cells[i].v;

			if (v->kind == KLOG_SCALAR && is_unknown(&v->r))
				continue;
			c.loc = LOC_SLOT(e->cells[i].off, 8);
			c.is_ptr = v->kind == KLOG_PTR;
			c.region = v->region;
			c.map = v->map;
			c.maybe_null = v->maybe_null;
			c.r = v->r;
			stats.cells++;
			if ((err = claim_prog__add_range(out, &c)))
				goto out;
		}
	}
	snprintf(out->note, sizeof(out->note), "kernel verifier log: %u of %u reached "
		 "instructions unreachable from pruned paths (all values claimed there), "
		 "elsewhere live pointers only", stats.exhaustive, stats.pcs);
out:
	free(reach);
	if (st)
		*st = stats;
	if (err) {
		claim_prog__free(out);
		memset(out, 0, sizeof(*out));
	}
	return err;
}

void klog_val_format(char *buf, size_t n, const struct klog_val *v)
{
	const struct range *r = &v->r;
	char rng[200];

	snprintf(rng, sizeof(rng), "u[%" PRIu64 ", %" PRIu64 "] s[%" PRId64 ", %" PRId64
		 "] u32[%u, %u] s32[%d, %d] var_off (%#" PRIx64 "; %#" PRIx64 ")", r->umin,
		 r->umax, r->smin, r->smax, r->u32_min, r->u32_max, r->s32_min, r->s32_max,
		 r->var_off.value, r->var_off.mask);
	switch (v->kind) {
	case KLOG_NONE:
		snprintf(buf, n, "none");
		break;
	case KLOG_TOP:
		snprintf(buf, n, "top");
		break;
	case KLOG_SCALAR:
		snprintf(buf, n, "scalar %s", rng);
		break;
	default:
		if (v->region == REGION_MAP_VALUE)
			snprintf(buf, n, "map %u value%s pointer, offset %s", v->map,
				 v->maybe_null ? " maybe-null" : "", rng);
		else
			snprintf(buf, n, "%s%s pointer, offset %s", claim_region_name(v->region),
				 v->maybe_null ? " maybe-null" : "", rng);
		break;
	}
}
