/* The abstract state of the range analysis: an abstract value (aval.h) per register and per
 * tracked stack cell, with what is surely written and how much packet is surely there.  Cells
 * are disjoint and sorted; an absent cell reads as unknown, and a store that cuts a cell drops
 * it.  The join keeps a cell only where both sides hold the same cell, so it loses cells but
 * never invents them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scev/absint.h"

void astate__free(struct astate *s)
{
	if (!s)
		return;
	free(s->cells);
	memset(s, 0, sizeof(*s));
}

int astate__copy(struct astate *dst, const struct astate *src)
{
	struct acell *c = NULL;

	if (src->n) {
		c = malloc(src->n * sizeof(*c));
		if (!c)
			return -ENOMEM;
		memcpy(c, src->cells, src->n * sizeof(*c));
	}
	free(dst->cells);
	*dst = *src;
	dst->cells = c;
	dst->cap = src->n;
	return 0;
}

struct aval absint_unknown_bytes(unsigned size)
{
	return size >= 8 ? aval_top() : aval_scalar(range_zext_unknown(size));
}

struct aval astate__load(const struct astate *s, int64_t off, unsigned size)
{
	for (uint32_t i = 0; i < s->n; i++) {
		const struct acell *c = &s->cells[i];
		int64_t cend = c->off + c->size, end = off + size;

		if (cend <= off || c->off >= end)
			continue;
		if (c->off == off && c->size == size)
			return c->v;
		if (c->off <= off && cend >= end && c->v.kind == AV_SCALAR) {
			struct aval sh = aval_const((uint64_t)(off - c->off) * 8);
			struct aval v = aval_alu(BPF_RSH, true, false, &c->v, &sh);

			return aval_zext(&v, size);
		}
		break;
	}
	return absint_unknown_bytes(size);
}

/* Drops every cell overlapping [lo, hi). */
void astate__invalidate(struct astate *s, int64_t lo, int64_t hi)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < s->n; i++)
		if (s->cells[i].off + s->cells[i].size <= lo || s->cells[i].off >= hi)
			s->cells[k++] = s->cells[i];
	s->n = k;
}

/* Drops every cell with a byte in m. */
void astate__invalidate_mask(struct astate *s, const struct fpmask *m)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < s->n; i++)
		if (!fpmask_any(m, s->cells[i].off, s->cells[i].off + s->cells[i].size))
			s->cells[k++] = s->cells[i];
	s->n = k;
}

int astate__store(struct astate *s, int64_t off, unsigned size, const struct aval *v)
{
	uint32_t pos;

	astate__invalidate(s, off, off + size);
	if (off < -512 || off + size > 0 || off % size)
		return 0;	/* not a cell we track (outside the frame or misaligned) */
	if (s->n == s->cap) {
		uint32_t nc = s->cap ? s->cap * 2 : 8;
		struct acell *nv = realloc(s->cells, nc * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		s->cells = nv;
		s->cap = nc;
	}
	for (pos = 0; pos < s->n && s->cells[pos].off < off; pos++)
		;
	memmove(&s->cells[pos + 1], &s->cells[pos], (s->n - pos) * sizeof(*s->cells));
	s->cells[pos] = (struct acell){ (int16_t)off, (uint8_t)size,
					size < 8 ? aval_zext(v, size) : *v };
	s->n++;
	return 0;
}

/* dst := dst ⊔ src (or the widening of it); returns 1 when dst changed, 0 if not, <0 on error. */
int astate__join(struct astate *dst, const struct astate *src, bool widen)
{
	uint32_t k = 0, j = 0;
	int changed = 0;

	if (!src->live)
		return 0;
	if (!dst->live) {
		int err = astate__copy(dst, src);

		return err ? err : 1;
	}
	if ((dst->init & src->init) != dst->init || dst->pkt_min > src->pkt_min)
		changed = 1;
	dst->init &= src->init;
	if (dst->pkt_min > src->pkt_min)
		dst->pkt_min = src->pkt_min;
	if (fpmask_and(&dst->sinit, &src->sinit))
		changed = 1;
	for (int r = 0; r < EBPF_NREGS; r++) {
		struct aval v;

		/* most joins meet equal values: skip the join and its bounds sync */
		if (aval_equal(&dst->regs[r], &src->regs[r]))
			continue;
		v = widen ? aval_widen(&dst->regs[r], &src->regs[r])
			  : aval_join(&dst->regs[r], &src->regs[r]);

		if (!aval_equal(&v, &dst->regs[r])) {
			dst->regs[r] = v;
			changed = 1;
		}
	}
	/* Cells survive only where both sides have the same cell. */
	for (uint32_t i = 0; i < dst->n; i++) {
		const struct acell *a = &dst->cells[i];
		struct aval v;

		while (j < src->n && src->cells[j].off < a->off)
			j++;
		if (j < src->n && src->cells[j].off == a->off && src->cells[j].size == a->size) {
			if (aval_equal(&a->v, &src->cells[j].v)) {
				dst->cells[k++] = *a;
				continue;
			}
			v = widen ? aval_widen(&a->v, &src->cells[j].v) : aval_join(&a->v, &src->cells[j].v);
			if (!aval_equal(&v, &a->v))
				changed = 1;
			if (v.kind != AV_TOP) {
				dst->cells[k] = *a;
				dst->cells[k++].v = v;
				continue;
			}
		}
		changed = 1;	/* cell dropped */
	}
	dst->n = k;
	return changed;
}

/* Every holder of a maybe-null identity (aval.h), registers and cells. */
static void each_id_holder(struct astate *s, uint16_t id, void (*fn)(struct aval *v, bool arg),
			   bool arg)
{
	if (!id)
		return;
	for (int r = 0; r < EBPF_NREGS; r++)
		if (s->regs[r].kind == AV_PTR && s->regs[r].id == id)
			fn(&s->regs[r], arg);
	for (uint32_t i = 0; i < s->n; i++)
		if (s->cells[i].v.kind == AV_PTR && s->cells[i].v.id == id)
			fn(&s->cells[i].v, arg);
}

static void settle(struct aval *v, bool is_null)
{
	if (is_null) {
		*v = aval_const(0);
	} else {
		v->maybe_null = false;
		v->id = 0;
	}
}

static void forget_id(struct aval *v, bool unused)
{
	(void)unused;
	v->id = 0;
}

void astate__settle_null(struct astate *s, uint16_t id, bool is_null)
{
	each_id_holder(s, id, settle, is_null);
}

void astate__drop_id(struct astate *s, uint16_t id)
{
	each_id_holder(s, id, forget_id, false);
}

void astate__drop_ids(struct astate *s)
{
	for (int r = 0; r < EBPF_NREGS; r++)
		s->regs[r].id = 0;
	for (uint32_t i = 0; i < s->n; i++)
		s->cells[i].v.id = 0;
}

/* Bytewise: a register stays unstored only when dropping it changes nothing at all. */
static bool is_top(const struct aval *a)
{
	struct aval t = aval_top();

	return memcmp(a, &t, sizeof(t)) == 0;
}

int hdr_pack__set(struct hdr_pack *p, const struct astate *s)
{
	unsigned k = 0;

	memset(p, 0, sizeof(*p));
	if (!s->live)
		return 0;
	for (int r = 0; r < EBPF_NREGS; r++)
		if (!is_top(&s->regs[r]))
			p->stored |= (uint16_t)(1u << r);
	if ((p->stored && !(p->v = malloc(__builtin_popcount(p->stored) * sizeof(*p->v)))) ||
	    (s->n && !(p->cells = malloc(s->n * sizeof(*p->cells))))) {
		hdr_pack__free(p);
		return -ENOMEM;
	}
	for (int r = 0; r < EBPF_NREGS; r++)
		if (p->stored & (1u << r))
			p->v[k++] = s->regs[r];
	if (s->n)
		memcpy(p->cells, s->cells, s->n * sizeof(*p->cells));
	p->n = s->n;
	p->live = true;
	return 0;
}

void hdr_pack__free(struct hdr_pack *p)
{
	free(p->v);
	free(p->cells);
	memset(p, 0, sizeof(*p));
}

void hdr_pack__view(const struct hdr_pack *p, struct astate *view)
{
	unsigned k = 0;

	memset(view, 0, sizeof(*view));
	if (!p->live)
		return;
	view->live = true;
	for (int r = 0; r < EBPF_NREGS; r++)
		view->regs[r] = p->stored & (1u << r) ? p->v[k++] : aval_top();
	view->cells = p->cells;
	view->n = view->cap = p->n;
}

/* What a missing per-block state reads as (absint.h: st_peek). */
const struct astate absint_unreached;
