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

#include <bpf/btf.h>
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

const struct core_relo *core_relos_at(const struct core_relo_sec *s, uint32_t insn, size_t *cnt)
{
	size_t lo = 0, hi = s ? s->cnt : 0, k;

	*cnt = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->relos[mid].insn < insn)
			lo = mid + 1;
		else
			hi = mid;
	}
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
