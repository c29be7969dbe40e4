/* CO-RE relocation records (.BTF.ext) — reading them.
 *
 * .BTF.ext starts with a header (magic 0xeB9F, version 1, its own length) giving, relative to
 * the header's end, the offset and length of three subsections: function info, line info and,
 * when the header is at least 32 bytes long, the CO-RE records.  That subsection is a record
 * size followed by one block per code section: the section's name (an offset into .BTF's
 * strings), a record count, and the records (insn_off in bytes, type_id, access string
 * offset, kind).
 */
#include "bpf/core.h"
#include "util/search.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BTF_EXT_MAGIC 0xeB9F
#define CORE_HDR_MIN 32		/* the header up to and including core_relo_len */
#define CORE_REC_MIN 16

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static int bad(char *why, size_t n, size_t *at, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int bad(char *why, size_t n, size_t *at, size_t off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, n, fmt, ap);
	va_end(ap);
	*at = off;
	return -EINVAL;
}

static int cmp_relo(const void *a, const void *b)
{
	const struct core_relo *x = a, *y = b;

	return x->insn < y->insn ? -1 : x->insn > y->insn;
}

int core_relos_read(struct core_relos *out, const uint8_t *ext, size_t len,
		    const struct btf *btf, char *why, size_t why_sz, size_t *at)
{
	uint32_t hdr_len, off, sub_len, rec_sz;
	size_t pos, end;
	uint16_t magic;

	memset(out, 0, sizeof(*out));
	if (len < 8)
		return bad(why, why_sz, at, 0, "%zu bytes: shorter than the header", len);
	memcpy(&magic, ext, 2);
	if (magic != BTF_EXT_MAGIC)
		return bad(why, why_sz, at, 0, "magic 0x%04x, not 0x%04x", magic, BTF_EXT_MAGIC);
	if (ext[2] != 1)
		return bad(why, why_sz, at, 2, "version %u, not 1", ext[2]);
	hdr_len = rd32(ext + 4);
	if (hdr_len < 8 || hdr_len > len)
		return bad(why, why_sz, at, 4, "header length %u outside [8, %zu]", hdr_len, len);
	if (hdr_len < CORE_HDR_MIN)
		return 0;	/* no CO-RE part in the header: no records */
	off = rd32(ext + 24);
	sub_len = rd32(ext + 28);
	if (sub_len == 0)
		return 0;
	if ((uint64_t)hdr_len + off + sub_len > len)
		return bad(why, why_sz, at, 24, "CO-RE records [%u, +%u) past the section's %zu "
			   "bytes", hdr_len + off, sub_len, len);
	pos = (size_t)hdr_len + off;
	end = pos + sub_len;
	if (!btf)
		return bad(why, why_sz, at, pos, "CO-RE records, but no readable .BTF section names "
			   "their sections and types");
	if (sub_len < 4)
		return bad(why, why_sz, at, pos, "CO-RE records: no record size");
	rec_sz = rd32(ext + pos);
	if (rec_sz < CORE_REC_MIN || rec_sz % 4)
		return bad(why, why_sz, at, pos, "CO-RE record size %u (at least %u, a multiple of "
			   "4)", rec_sz, CORE_REC_MIN);
	pos += 4;
	while (pos < end) {
		struct core_relo_sec *s, *ns;
		uint32_t name_off, num;
		const char *name;

		if (end - pos < 8)
			return bad(why, why_sz, at, pos, "CO-RE block header cut off");
		name_off = rd32(ext + pos);
		num = rd32(ext + pos + 4);
		name = btf__str_by_offset(btf, name_off);
		if (!name || !name[0])
			return bad(why, why_sz, at, pos, "CO-RE block: section name offset %u is not a "
				   "string of .BTF", name_off);
		if (num == 0 || (uint64_t)num * rec_sz > end - pos - 8)
			return bad(why, why_sz, at, pos + 4, "CO-RE block of '%s': %u records of %u "
				   "bytes do not fit", name, num, rec_sz);
		ns = realloc(out->secs, (out->cnt + 1) * sizeof(*ns));
		if (!ns)
			goto nomem;
		out->secs = ns;
		s = &out->secs[out->cnt++];
		s->name = name;
		s->cnt = num;
		s->relos = calloc(num, sizeof(*s->relos));
		if (!s->relos)
			goto nomem;
		pos += 8;
		for (uint32_t i = 0; i < num; i++, pos += rec_sz) {
			uint32_t insn_off = rd32(ext + pos);
			const char *acc;

			if (insn_off % 8)
				return bad(why, why_sz, at, pos, "CO-RE record %u of '%s': insn_off %u "
					   "is not a multiple of 8", i, name, insn_off);
			s->relos[i].insn = insn_off / 8;
			s->relos[i].type_id = rd32(ext + pos + 4);
			s->relos[i].access_off = rd32(ext + pos + 8);
			s->relos[i].kind = rd32(ext + pos + 12);
			acc = btf__str_by_offset(btf, s->relos[i].access_off);
			if (!acc || !acc[0])
				return bad(why, why_sz, at, pos + 8, "CO-RE record %u of '%s': access "
					   "string offset %u is not a string of .BTF", i, name,
					   s->relos[i].access_off);
		}
		qsort(s->relos, num, sizeof(*s->relos), cmp_relo);
	}
	return 0;
nomem:
	core_relos_free(out);
	return -ENOMEM;
}

void core_relos_free(struct core_relos *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->cnt; i++)
		free(r->secs[i].relos);
	free(r->secs);
	memset(r, 0, sizeof(*r));
}

struct relo_key {
	const struct core_relo_sec *s;
	uint32_t insn;
};

static bool relo_below(const void *ctx, size_t i)
{
	const struct relo_key *k = ctx;

	return k->s->relos[i].insn < k->insn;
}

const struct core_relo *core_relos_at(const struct core_relo_sec *s, uint32_t insn, size_t *cnt)
{
	size_t lo = lower_bound(s ? s->cnt : 0, relo_below, &(struct relo_key){ s, insn }), k;

	*cnt = 0;
	for (k = lo; s && k < s->cnt && s->relos[k].insn == insn; k++)
		(*cnt)++;
	return *cnt ? &s->relos[lo] : NULL;
}

const char *core_kind_name(uint32_t kind)
{
	static const char *const names[] = {
		"field byte offset", "field byte size", "field exists", "field signed",
		"field lshift u64", "field rshift u64", "local type id", "target type id",
		"type exists", "type size", "enum value exists", "enum value", "type matches",
	};

	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "unknown kind";
}

/* ---- applying a record ----
 *
 * What libbpf does at load time (its relo_core.c), rewritten here so the analyzed program is the
 * loaded one.  A record names a root type of the object's BTF and an access string: for fields,
 * "0:1:2" is an array index on the root then member or element indexes; for types, "0"; for
 * enum values, "0:n", the n-th enumerator.  The object's side gives the value the compiler put
 * in the instruction (the local spec); the kernel's types whose name matches the root's (the
 * flavour suffix "___x" dropped) and of the same kind are the candidates, each matched member
 * by member by name; every candidate that matches must give the same value, which goes into the
 * instruction.  A field or enum value found in no candidate, or whose size changes under a load,
 * is left to libbpf's "poisoning" (the kernel refuses the instruction if it is reached): here it
 * is an unsupported program, like every case not handled (TYPE_MATCHES). */

#define CORE_SPEC_MAX 64

struct core_acc {
	uint32_t type_id;	/* composite holding the member, or the element type */
	uint32_t idx;
	const char *name;	/* member name; NULL for an array index */
};

struct core_spec {
	const struct btf *btf;
	uint32_t root;
	struct core_acc acc[CORE_SPEC_MAX];
	int len;
	uint64_t bit_off;
};

/* A relocation's value on one side: the value, and for a field the size and type of the field
 * under a load (0 for others). */
struct core_val {
	uint64_t val;
	uint32_t size;
	uint32_t type_id;
	bool validate;		/* the instruction must hold the local value */
};

static const struct btf_type *skip_mods(const struct btf *btf, uint32_t id, uint32_t *res)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	int guard = 64;

	while (t && guard-- > 0 && (btf_is_mod(t) || btf_is_typedef(t) || btf_is_type_tag(t))) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	if (guard <= 0)
		t = NULL;
	if (res)
		*res = id;
	return t;
}

static bool kinds_compat(const struct btf_type *a, const struct btf_type *b)
{
	return btf_kind(a) == btf_kind(b) || (btf_is_any_enum(a) && btf_is_any_enum(b));
}

/* "name___flavour" matches as "name". */
static size_t essential_len(const char *name)
{
	size_t n = strlen(name);

	for (size_t i = n; i >= 5; i--)
		if (!strncmp(name + i - 3, "___", 3))
			n = i - 3;
	return n;
}

static bool names_match(const char *a, const char *b)
{
	size_t la = essential_len(a);

	return la == essential_len(b) && !strncmp(a, b, la);
}

static int64_t type_size(const struct btf *btf, uint32_t id)
{
	return btf__resolve_size(btf, id);
}

static int fail(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, n, fmt, ap);
	va_end(ap);
	return 1;
}

static bool is_flex(const struct btf *btf, const struct core_acc *prev, const struct btf_array *a)
{
	const struct btf_type *t;

	if (!prev->name || a->nelems > 0)
		return false;
	t = btf__type_by_id(btf, prev->type_id);
	return t && prev->idx + 1 == btf_vlen(t);
}

/* The local spec of a field or enum record (libbpf's bpf_core_parse_spec).  1 with why when it
 * cannot be parsed. */
static int parse_spec(struct core_spec *s, const struct btf *btf, const struct core_relo *r,
		      const char *str, char *why, size_t n)
{
	uint32_t raw[CORE_SPEC_MAX], id;
	const struct btf_type *t;
	int nraw = 0;
	int64_t sz;

	memset(s, 0, sizeof(*s));
	s->btf = btf;
	s->root = r->type_id;
	while (*str) {
		char *end;
		unsigned long v;

		if (*str == ':')
			str++;
		if (*str < '0' || *str > '9')
			return fail(why, n, "access string is not a list of indexes");
		v = strtoul(str, &end, 10);
		if (v > INT32_MAX || nraw == CORE_SPEC_MAX)
			return fail(why, n, "access string too long or index too large");
		raw[nraw++] = (uint32_t)v;
		str = end;
	}
	if (nraw == 0 || !(t = skip_mods(btf, r->type_id, &id)))
		return fail(why, n, "empty access string or no root type");
	s->acc[0] = (struct core_acc){ id, raw[0], NULL };
	s->len = 1;
	if (r->kind == CORE_ENUMVAL_EXISTS || r->kind == CORE_ENUMVAL_VALUE) {
		if (!btf_is_any_enum(t) || nraw > 1 || raw[0] >= btf_vlen(t))
			return fail(why, n, "enum value record on a type that is not an enum");
		s->acc[0].name = btf__name_by_offset(btf, btf_is_enum(t) ?
							  btf_enum(t)[raw[0]].name_off :
							  btf_enum64(t)[raw[0]].name_off);
		return 0;
	}
	if ((sz = type_size(btf, id)) < 0)
		return fail(why, n, "root type without a size");
	s->bit_off = (uint64_t)raw[0] * (uint64_t)sz * 8;
	for (int i = 1; i < nraw; i++) {
		if (!(t = skip_mods(btf, id, &id)))
			return fail(why, n, "access through a missing type");
		if (btf_is_composite(t)) {
			const struct btf_member *m;

			if (raw[i] >= btf_vlen(t))
				return fail(why, n, "member index %u of a %u-member type", raw[i],
					    btf_vlen(t));
			m = btf_members(t) + raw[i];
			s->bit_off += btf_member_bit_offset(t, raw[i]);
			if (m->name_off) {
				const char *name = btf__name_by_offset(btf, m->name_off);

				if (!name || !name[0])
					return fail(why, n, "member without a readable name");
				s->acc[s->len++] = (struct core_acc){ id, raw[i], name };
			}
			id = m->type;
		} else if (btf_is_array(t)) {
			const struct btf_array *a = btf_array(t);

			if (!skip_mods(btf, a->type, &id))
				return fail(why, n, "array of a missing type");
			if (!is_flex(btf, &s->acc[s->len - 1], a) && raw[i] >= a->nelems)
				return fail(why, n, "array index %u past %u elements", raw[i],
					    a->nelems);
			s->acc[s->len++] = (struct core_acc){ id, raw[i], NULL };
			if ((sz = type_size(btf, id)) < 0)
				return fail(why, n, "array element without a size");
			s->bit_off += (uint64_t)raw[i] * (uint64_t)sz * 8;
		} else {
			return fail(why, n, "access into a type that is neither a struct, a union "
				    "nor an array");
		}
	}
	return 0;
}

/* libbpf's bpf_core_fields_are_compat: 1 compatible, 0 not, -1 malformed. */
static int fields_compat(const struct btf *lb, uint32_t lid, const struct btf *tb, uint32_t tid)
{
	for (int depth = 0; depth < 32; depth++) {
		const struct btf_type *l = skip_mods(lb, lid, &lid), *t = skip_mods(tb, tid, &tid);

		if (!l || !t)
			return -1;
		if (btf_is_composite(l) && btf_is_composite(t))
			return 1;
		if (!kinds_compat(l, t))
			return 0;
		switch (btf_kind(l)) {
		case BTF_KIND_PTR:
		case BTF_KIND_FLOAT:
			return 1;
		case BTF_KIND_FWD:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64: {
			const char *ln = btf__name_by_offset(lb, l->name_off);
			const char *tn = btf__name_by_offset(tb, t->name_off);

			if (btf_is_fwd(l) && btf_kflag(l) != btf_kflag(t))
				return 0;
			if (!ln || !tn)
				return -1;
			return !ln[0] || !tn[0] || !strncmp(ln, tn, essential_len(ln));
		}
		case BTF_KIND_INT:
			return btf_int_offset(l) == 0 && btf_int_offset(t) == 0;
		case BTF_KIND_ARRAY:
			lid = btf_array(l)->type;
			tid = btf_array(t)->type;
			continue;
		default:
			return 0;
		}
	}
	return -1;
}

/* Finds the local member acc (by name) in target composite tid, through anonymous members;
 * appends the accessor to ts and sets *next to the member's type.  1 found, 0 not, -1 error. */
static int match_member(const struct core_spec *ls, const struct core_acc *la, struct core_spec *ts,
			uint32_t tid, uint32_t *next, int depth)
{
	const struct btf_type *lt = btf__type_by_id(ls->btf, la->type_id), *t;
	const struct btf_member *lm, *m;

	if (depth > 32 || !lt)
		return -1;
	lm = btf_members(lt) + la->idx;
	t = skip_mods(ts->btf, tid, &tid);
	if (!t)
		return -1;
	if (!btf_is_composite(t))
		return 0;
	m = btf_members(t);
	for (uint32_t i = 0; i < btf_vlen(t); i++, m++) {
		const char *tn = btf__name_by_offset(ts->btf, m->name_off);
		uint32_t bo = btf_member_bit_offset(t, i);
		int found;

		if (!tn)
			return -1;
		ts->bit_off += bo;
		if (!tn[0]) {
			found = match_member(ls, la, ts, m->type, next, depth + 1);
			if (found)
				return found;
		} else if (!strcmp(la->name, tn)) {
			if (ts->len == CORE_SPEC_MAX)
				return -1;
			ts->acc[ts->len++] = (struct core_acc){ tid, i, tn };
			*next = m->type;
			found = fields_compat(ls->btf, lm->type, ts->btf, m->type);
			if (found <= 0)
				ts->len--;
			return found;
		}
		ts->bit_off -= bo;
	}
	return 0;
}

/* Matches a field or enum spec against candidate cand of tb: 1 with ts filled, 0 no match,
 * -1 malformed. */
static int match_spec(const struct core_spec *ls, uint32_t kind, const struct btf *tb,
		      uint32_t cand, struct core_spec *ts)
{
	uint32_t tid = cand;

	memset(ts, 0, sizeof(*ts));
	ts->btf = tb;
	ts->root = cand;
	if (kind == CORE_ENUMVAL_EXISTS || kind == CORE_ENUMVAL_VALUE) {
		const struct btf_type *t = skip_mods(tb, cand, &tid);

		if (!t || !btf_is_any_enum(t))
			return 0;
		for (uint32_t i = 0; i < btf_vlen(t); i++) {
			const char *n = btf__name_by_offset(tb, btf_is_enum(t) ?
							       btf_enum(t)[i].name_off :
							       btf_enum64(t)[i].name_off);

			if (n && n[0] && names_match(ls->acc[0].name, n)) {
				ts->acc[0] = (struct core_acc){ tid, i, n };
				ts->len = 1;
				return 1;
			}
		}
		return 0;
	}
	for (int i = 0; i < ls->len; i++) {
		const struct core_acc *la = &ls->acc[i];
		const struct btf_type *t = skip_mods(tb, tid, &tid);
		int64_t sz;

		if (!t)
			return -1;
		if (la->name) {
			int m = match_member(ls, la, ts, tid, &tid, 0);

			if (m <= 0)
				return m;
			continue;
		}
		if (i > 0) {
			const struct btf_array *a;

			if (!btf_is_array(t))
				return 0;
			a = btf_array(t);
			if (!is_flex(tb, &ts->acc[ts->len - 1], a) && la->idx >= a->nelems)
				return 0;
			if (!skip_mods(tb, a->type, &tid))
				return -1;
		}
		if (ts->len == CORE_SPEC_MAX || (sz = type_size(tb, tid)) < 0)
			return -1;
		ts->acc[ts->len++] = (struct core_acc){ tid, la->idx, NULL };
		ts->bit_off += (uint64_t)la->idx * (uint64_t)sz * 8;
	}
	return 1;
}

/* The load that reads a bitfield: the member's type size, doubled until an aligned load of that
 * size holds the bits [bit_off, bit_off + bits); libbpf's bpf_core_calc_field_relo, which
 * cannot read one wider than 64 bits.  1 with why when no load of at most 8 bytes holds it. */
static int bitfield_load(const struct btf_type *mt, uint64_t bit_off, uint32_t bits, uint32_t kind,
			 uint64_t *byte_off, uint32_t *byte_sz, char *why, size_t n)
{
	uint32_t sz;

	if (!btf_is_int(mt) && !btf_is_any_enum(mt))
		return fail(why, n, "%s of a bitfield whose type is neither an integer nor an enum",
			    core_kind_name(kind));
	sz = mt->size;
	if (sz == 0 || sz > 8)
		return fail(why, n, "%s of a bitfield of a %u-byte type", core_kind_name(kind), sz);
	for (;;) {
		*byte_off = bit_off / 8 / sz * sz;
		if (bit_off + bits - *byte_off * 8 <= (uint64_t)sz * 8)
			break;
		if (sz >= 8)
			return fail(why, n, "%s of a bitfield of %u bits at bit %llu: no load of at "
				    "most 8 bytes holds it", core_kind_name(kind), bits,
				    (unsigned long long)bit_off);
		sz *= 2;
	}
	*byte_sz = sz;
	return 0;
}

/* The value of a field record on one side (libbpf's bpf_core_calc_field_relo).  A bitfield is
 * read by a load of byte size at byte offset (bitfield_load), then shifted left then right: its
 * values but the sign and the right shift are not checked against the instruction (libbpf: the
 * compiler may have chosen another load).  1 with why for what is not handled. */
static int field_val(const struct core_spec *s, uint32_t kind, struct core_val *v, char *why,
		     size_t n)
{
	const struct core_acc *acc = &s->acc[s->len - 1];
	const struct btf_type *t = btf__type_by_id(s->btf, acc->type_id), *mt;
	const struct btf_member *m;
	uint32_t fid, bits, byte_sz = 0;
	uint64_t byte_off = 0;
	bool bitfield;
	int64_t sz;

	memset(v, 0, sizeof(*v));
	v->validate = true;
	if (kind == CORE_FIELD_EXISTS) {
		v->val = 1;
		return 0;
	}
	if (!t)
		return fail(why, n, "accessor of a missing type");
	if (!acc->name) {
		if ((sz = type_size(s->btf, acc->type_id)) < 0)
			return fail(why, n, "element without a size");
		if (kind == CORE_FIELD_BYTE_OFFSET) {
			v->val = s->bit_off / 8;
			v->size = (uint32_t)sz;
			v->type_id = acc->type_id;
		} else if (kind == CORE_FIELD_BYTE_SIZE) {
			v->val = (uint64_t)sz;
		} else {
			return fail(why, n, "%s of an array element", core_kind_name(kind));
		}
		return 0;
	}
	m = btf_members(t) + acc->idx;
	mt = skip_mods(s->btf, m->type, &fid);
	if (!mt)
		return fail(why, n, "field of a missing type");
	bits = btf_member_bitfield_size(t, acc->idx);
	bitfield = bits > 0;
	if (bitfield) {
		if (bitfield_load(mt, s->bit_off, bits, kind, &byte_off, &byte_sz, why, n))
			return 1;
		v->validate = kind == CORE_FIELD_SIGNED || kind == CORE_FIELD_RSHIFT_U64;
	} else {
		if (s->bit_off % 8)
			return fail(why, n, "%s of a field at bit offset %llu, not a bitfield",
				    core_kind_name(kind), (unsigned long long)s->bit_off);
		if ((sz = type_size(s->btf, fid)) < 0)
			return fail(why, n, "field without a size");
		byte_off = s->bit_off / 8;
		byte_sz = (uint32_t)sz;
		bits = byte_sz * 8;
	}
	switch (kind) {
	case CORE_FIELD_BYTE_OFFSET:
		v->val = byte_off;
		if (!bitfield) {	/* the load's size is checked for fields only */
			v->size = byte_sz;
			v->type_id = fid;
		}
		return 0;
	case CORE_FIELD_BYTE_SIZE:
		v->val = byte_sz;
		return 0;
	case CORE_FIELD_SIGNED:
		if (btf_is_int(mt))
			v->val = !!(btf_int_encoding(mt) & BTF_INT_SIGNED);
		else if (btf_is_any_enum(mt))
			v->val = btf_kflag(mt);
		else
			return fail(why, n, "field signed of a field that is neither an integer nor "
				    "an enum");
		return 0;
	case CORE_FIELD_LSHIFT_U64:
	case CORE_FIELD_RSHIFT_U64:
		if (byte_sz > 8)
			return fail(why, n, "%s of a field of %u bytes", core_kind_name(kind),
				    byte_sz);
		/* little endian: the bits above the field, then the bits below it, go */
		v->val = kind == CORE_FIELD_RSHIFT_U64 ? 64 - (uint64_t)bits :
			 64 - (s->bit_off + bits - byte_off * 8);
		return 0;
	default:
		return fail(why, n, "%s on a field", core_kind_name(kind));
	}
}

static int enum_val(const struct core_spec *s, uint32_t kind, struct core_val *v)
{
	const struct btf_type *t = btf__type_by_id(s->btf, s->acc[0].type_id);

	memset(v, 0, sizeof(*v));
	v->validate = true;
	if (kind == CORE_ENUMVAL_EXISTS)
		v->val = 1;
	else if (btf_is_enum(t))
		v->val = (uint64_t)(int64_t)btf_enum(t)[s->acc[0].idx].val;
	else
		v->val = btf_enum64_value(btf_enum64(t) + s->acc[0].idx);
	return 0;
}

/* libbpf's bpf_core_types_are_compat: 1, 0, or -1 malformed. */
static int types_compat(const struct btf *lb, uint32_t lid, const struct btf *tb, uint32_t tid,
			int level)
{
	const struct btf_type *l = btf__type_by_id(lb, lid), *t = btf__type_by_id(tb, tid);

	if (!l || !t)
		return -1;
	if (!kinds_compat(l, t))
		return 0;
	for (int depth = 0; depth < 32; depth++) {
		l = skip_mods(lb, lid, &lid);
		t = skip_mods(tb, tid, &tid);
		if (!l || !t)
			return -1;
		if (!kinds_compat(l, t))
			return 0;
		switch (btf_kind(l)) {
		case BTF_KIND_UNKN:
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM:
		case BTF_KIND_FWD:
		case BTF_KIND_ENUM64:
			return 1;
		case BTF_KIND_INT:
			return btf_int_offset(l) == 0 && btf_int_offset(t) == 0;
		case BTF_KIND_PTR:
			lid = l->type;
			tid = t->type;
			continue;
		case BTF_KIND_ARRAY:
			lid = btf_array(l)->type;
			tid = btf_array(t)->type;
			continue;
		case BTF_KIND_FUNC_PROTO: {
			const struct btf_param *lp = btf_params(l), *tp = btf_params(t);

			if (btf_vlen(l) != btf_vlen(t))
				return 0;
			for (uint32_t i = 0; i < btf_vlen(l); i++) {
				uint32_t a, b;
				int c;

				if (level <= 0)
					return -1;
				skip_mods(lb, lp[i].type, &a);
				skip_mods(tb, tp[i].type, &b);
				if ((c = types_compat(lb, a, tb, b, level - 1)) <= 0)
					return c;
			}
			skip_mods(lb, l->type, &lid);
			skip_mods(tb, t->type, &tid);
			continue;
		}
		default:
			return 0;
		}
	}
	return -1;
}

/* Writes value new into insn (the local value orig checked first when v->validate), as
 * libbpf's bpf_core_patch_insn.  1 with why when the instruction cannot take it. */
static int patch(struct bpf_insn *insn, size_t slots, const struct core_val *o,
		 const struct core_val *nv, uint32_t kind, char *why, size_t n)
{
	uint8_t cls = BPF_CLASS(insn->code);

	if (cls == BPF_ALU || cls == BPF_ALU64) {
		if (BPF_SRC(insn->code) != BPF_K)
			return fail(why, n, "%s on an ALU instruction with a register source",
				    core_kind_name(kind));
		if (o->validate && (uint64_t)(int64_t)insn->imm != o->val)
			return fail(why, n, "the instruction holds %d, the object's BTF says %llu",
				    insn->imm, (unsigned long long)o->val);
		if (nv->val > UINT32_MAX)
			return fail(why, n, "value %llu does not fit the instruction",
				    (unsigned long long)nv->val);
		insn->imm = (int32_t)(uint32_t)nv->val;
		return 0;
	}
	if (cls == BPF_LDX || cls == BPF_ST || cls == BPF_STX) {
		if (o->validate && (uint64_t)(int64_t)insn->off != o->val)
			return fail(why, n, "the instruction's offset is %d, the object's BTF says %llu",
				    insn->off, (unsigned long long)o->val);
		if (nv->val > INT16_MAX)
			return fail(why, n, "offset %llu does not fit the instruction",
				    (unsigned long long)nv->val);
		if (kind == CORE_FIELD_BYTE_OFFSET && o->size != nv->size)
			return fail(why, n, "the field is %u bytes in the kernel, %u in the object: "
				    "the access size would change", nv->size, o->size);
		insn->off = (int16_t)nv->val;
		return 0;
	}
	if (insn->code == (BPF_LD | BPF_IMM | BPF_DW) && slots >= 2 && insn[0].src_reg == 0 &&
	    insn[0].off == 0 && insn[1].code == 0 && insn[1].dst_reg == 0 &&
	    insn[1].src_reg == 0 && insn[1].off == 0) {
		uint64_t imm = (uint32_t)insn[0].imm | ((uint64_t)(uint32_t)insn[1].imm << 32);

		if (o->validate && imm != o->val)
			return fail(why, n, "the instruction holds %llu, the object's BTF says %llu",
				    (unsigned long long)imm, (unsigned long long)o->val);
		insn[0].imm = (int32_t)(uint32_t)nv->val;
		insn[1].imm = (int32_t)(uint32_t)(nv->val >> 32);
		return 0;
	}
	return fail(why, n, "%s on an instruction that cannot hold it (code 0x%02x)",
		    core_kind_name(kind), insn->code);
}

int core_relo_apply(const struct core_relo *r, struct bpf_insn *insn, size_t slots,
		    const struct btf *local, const struct core_target *target, char *why,
		    size_t n)
{
	const struct btf_type *lt = btf__type_by_id(local, r->type_id);
	const char *acc = btf__name_by_offset(local, r->access_off);
	const char *lname;
	struct core_spec ls, ts;
	struct core_val o, nv = { 0 }, cv;
	bool type_based = r->kind == CORE_TYPE_ID_LOCAL || r->kind == CORE_TYPE_ID_TARGET ||
			  r->kind == CORE_TYPE_EXISTS || r->kind == CORE_TYPE_SIZE;
	bool found = false;
	uint32_t ncand = 0;
	int err;

	if (!lt || !acc)
		return fail(why, n, "record names no type of the object's BTF");
	if (r->kind >= CORE_TYPE_MATCHES)
		return fail(why, n, "CO-RE relocation kind '%s' (%u) not applied",
			    core_kind_name(r->kind), r->kind);
	memset(&o, 0, sizeof(o));
	o.validate = true;
	if (type_based) {
		if (strcmp(acc, "0"))
			return fail(why, n, "type record with access string '%s'", acc);
		if (r->kind == CORE_TYPE_ID_LOCAL) {
			o.val = nv.val = r->type_id;
			return patch(insn, slots, &o, &nv, r->kind, why, n);
		}
		o.val = r->kind == CORE_TYPE_ID_TARGET ? r->type_id :
			r->kind == CORE_TYPE_EXISTS ? 1 : (uint64_t)type_size(local, r->type_id);
		o.validate = r->kind != CORE_TYPE_ID_TARGET;
	} else {
		if ((err = parse_spec(&ls, local, r, acc, why, n)))
			return err;
		err = r->kind >= CORE_ENUMVAL_EXISTS ? enum_val(&ls, r->kind, &o) :
						       field_val(&ls, r->kind, &o, why, n);
		if (err)
			return err;
	}
	if (!target || !target->btf)
		return fail(why, n, "no kernel BTF to apply CO-RE relocations against");
	lname = btf__name_by_offset(local, lt->name_off);
	if (!lname || !lname[0])
		return fail(why, n, "CO-RE relocation against an anonymous type");
	/* candidates: the kernel's types of the root's kind and name (flavour dropped) */
	for (uint32_t id = 1; id < btf__type_cnt(target->btf); id++) {
		const struct btf_type *t = btf__type_by_id(target->btf, id);
		const char *tn;
		int m;

		if (!t || !kinds_compat(t, lt))
			continue;
		tn = btf__name_by_offset(target->btf, t->name_off);
		if (!tn || !tn[0] || !names_match(lname, tn))
			continue;
		ncand++;
		memset(&cv, 0, sizeof(cv));
		if (type_based) {
			m = types_compat(local, r->type_id, target->btf, id, 32);
			if (m > 0) {
				int64_t sz = type_size(target->btf, id);

				if (r->kind == CORE_TYPE_SIZE && sz < 0)
					return fail(why, n, "kernel type '%s' without a size", tn);
				cv.val = r->kind == CORE_TYPE_ID_TARGET ? id :
					 r->kind == CORE_TYPE_EXISTS ? 1 : (uint64_t)sz;
			}
		} else {
			m = match_spec(&ls, r->kind, target->btf, id, &ts);
			if (m > 0) {
				err = r->kind >= CORE_ENUMVAL_EXISTS ?
					      enum_val(&ts, r->kind, &cv) :
					      field_val(&ts, r->kind, &cv, why, n);
				if (err)
					return err;
			}
		}
		if (m < 0)
			return fail(why, n, "kernel type '%s' [%u]: malformed BTF", tn, id);
		if (m == 0)
			continue;
		if (found && (cv.val != nv.val || cv.size != nv.size))
			return fail(why, n, "kernel types named '%s' disagree (%llu, %llu): libbpf "
				    "refuses an ambiguous relocation", lname,
				    (unsigned long long)nv.val, (unsigned long long)cv.val);
		if (!found)
			nv = cv;
		found = true;
	}
	if (!found) {
		if (!ncand && target->modules)
			return fail(why, n, "no type '%s' in vmlinux BTF, and module BTF is not "
				    "searched", lname);
		/* libbpf: existence is 0; a type's id and size 0; other kinds poison the
		 * instruction */
		if (r->kind == CORE_FIELD_EXISTS || r->kind == CORE_ENUMVAL_EXISTS || type_based) {
			nv.val = 0;
		} else {
			return fail(why, n, "%s of '%s' (%s): not in the kernel's BTF (libbpf "
				    "poisons the instruction)", core_kind_name(r->kind), lname, acc);
		}
	}
	return patch(insn, slots, &o, &nv, r->kind, why, n);
}

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

void core_target_load(struct core_target *t)
{
	libbpf_print_fn_t old = libbpf_set_print(quiet);
	DIR *dir;
	struct dirent *e;

	memset(t, 0, sizeof(*t));
	t->btf = btf__load_vmlinux_btf();
	if (libbpf_get_error(t->btf))
		t->btf = NULL;
	libbpf_set_print(old);
	dir = opendir("/sys/kernel/btf");
	while (dir && (e = readdir(dir)))
		if (e->d_name[0] != '.' && strcmp(e->d_name, "vmlinux"))
			t->modules = true;
	if (dir)
		closedir(dir);
}

void core_target_free(struct core_target *t)
{
	if (!t)
		return;
	btf__free(t->btf);
	memset(t, 0, sizeof(*t));
}
