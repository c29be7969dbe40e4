/* Data files: "-- name" sections around an assembly program.  See casefile.h. */
#include "casefile/casefile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/file.h"

void casefile_sections__free(struct casefile_section *s, size_t cnt)
{
	if (!s)
		return;
	for (size_t i = 0; i < cnt; i++)
		free(s[i].text);
	free(s);
}

/* Copies text[start, end) as a section's text, ending with a newline when not empty. */
static int section_text(struct casefile_section *sec, const char *text, size_t start, size_t end)
{
	size_t n = end - start;
	bool nl = n && text[end - 1] != '\n';

	sec->text = malloc(n + nl + 1);
	if (!sec->text)
		return -ENOMEM;
	memcpy(sec->text, text + start, n);
	if (nl)
		sec->text[n++] = '\n';
	sec->text[n] = '\0';
	return 0;
}

/* A section's lines are contiguous in the file, so its text is copied once, when the next header
 * (or the end) closes it: appending line by line costs quadratic time on a large '-- asm'. */
int casefile_sections__parse(struct casefile_section **out, size_t *cnt, const char *text,
			     size_t len, struct diag *d)
{
	struct casefile_section *v = NULL;
	size_t n = 0, cap = 0, pos = 0, start = 0;
	int line = 1;
	bool any_header = false;

	/* First pass: is there any header at all? */
	for (size_t i = 0; i + 2 < len; i++)
		if ((i == 0 || text[i - 1] == '\n') && text[i] == '-' && text[i + 1] == '-' &&
		    text[i + 2] == ' ') {
			any_header = true;
			break;
		}
	if (!any_header) {
		v = calloc(1, sizeof(*v));
		if (!v || !(v[0].text = malloc(len + 1))) {
			free(v);
			return diag_set(d, ENOMEM, "out of memory");
		}
		strcpy(v[0].name, "asm");
		memcpy(v[0].text, text, len);
		v[0].text[len] = '\0';
		v[0].line = 1;
		*out = v;
		*cnt = 1;
		return 0;
	}
	while (pos < len) {
		const char *nlp = memchr(text + pos, '\n', len - pos);
		size_t eol = nlp ? (size_t)(nlp - text) : len;

		if (eol - pos >= 3 && !strncmp(text + pos, "-- ", 3)) {
			size_t nlen = eol - pos - 3;

			while (nlen && (text[pos + 3 + nlen - 1] == ' ' || text[pos + 3 + nlen - 1] == '\r'))
				nlen--;
			if (nlen == 0 || nlen >= sizeof(v->name)) {
				casefile_sections__free(v, n);
				return diag_at_line(d, EINVAL, line, 4, "section name %s",
						    nlen ? "too long" : "missing after '-- '");
			}
			if (n && section_text(&v[n - 1], text, start, pos))
				goto nomem;
			if (n == cap) {
				size_t nc = cap ? cap * 2 : 8;
				struct casefile_section *nv = realloc(v, nc * sizeof(*nv));

				if (!nv)
					goto nomem;
				v = nv;
				cap = nc;
			}
			memset(&v[n], 0, sizeof(v[n]));
			memcpy(v[n].name, text + pos + 3, nlen);
			v[n].name[nlen] = '\0';
			v[n].line = line + 1;
			n++;
			start = eol < len ? eol + 1 : len;
		}
		pos = eol + 1;
		line++;
	}
	if (n && section_text(&v[n - 1], text, start, len))
		goto nomem;
	*out = v;
	*cnt = n;
	return 0;
nomem:
	casefile_sections__free(v, n);
	return diag_set(d, ENOMEM, "out of memory");
}

const struct casefile_section *casefile__section(const struct casefile *cf, const char *name)
{
	for (size_t i = 0; i < cf->section_cnt; i++)
		if (!strcmp(cf->sections[i].name, name))
			return &cf->sections[i];
	return NULL;
}

/* "-- type": xdp, socket, tc, cgroup_skb, sock_ops, cgroup_sock, cgroup_device, raw_tp,
 * sk_lookup, sk_reuseport or plain (the context model of the program). */
static int parse_type(struct casefile *cf, struct diag *d)
{
	static const struct {
		const char *name;
		uint32_t type;
	} types[] = {
		{ "xdp", BPF_PROG_TYPE_XDP }, { "socket", BPF_PROG_TYPE_SOCKET_FILTER },
		{ "tc", BPF_PROG_TYPE_SCHED_CLS }, { "sock_ops", BPF_PROG_TYPE_SOCK_OPS },
		{ "cgroup_sock", BPF_PROG_TYPE_CGROUP_SOCK }, { "plain", BPF_PROG_TYPE_UNSPEC },
		{ "raw_tp", BPF_PROG_TYPE_RAW_TRACEPOINT },
		{ "cgroup_skb", BPF_PROG_TYPE_CGROUP_SKB },
		{ "cgroup_device", BPF_PROG_TYPE_CGROUP_DEVICE },
		{ "sk_lookup", BPF_PROG_TYPE_SK_LOOKUP },
		{ "sk_reuseport", BPF_PROG_TYPE_SK_REUSEPORT },
		{ "sk_msg", BPF_PROG_TYPE_SK_MSG },
		{ "cgroup_sysctl", BPF_PROG_TYPE_CGROUP_SYSCTL },
	};
	const struct casefile_section *sec = casefile__section(cf, "type");
	char t[32] = "";

	if (!sec)
		return 0;
	if (sscanf(sec->text, "%31s", t) == 1)
		for (size_t k = 0; k < sizeof(types) / sizeof(types[0]); k++)
			if (!strcmp(t, types[k].name)) {
				cf->obj->progs[0].prog_type = types[k].type;
				return 0;
			}
	return diag_at_line(d, EINVAL, sec->line, 1, "unknown program type '%s' (xdp, socket, "
			    "tc, cgroup_skb, sock_ops, cgroup_sock, cgroup_device, raw_tp, sk_lookup, "
			    "sk_reuseport, sk_msg, cgroup_sysctl, plain)", t);
}

/* "-- maps": one map per line, in LD_IMM64 index order: "array key=4 value=64 entries=4"
 * (array, hash, array_of_maps, hash_of_maps, percpu_array, percpu_hash, lru_hash,
 * lru_percpu_hash, sockmap, sockhash, reuseport_sockarray, prog_array, cgroup_storage,
 * percpu_cgroup_storage or sk_storage — a cgroup storage has entries=0 and a key of 8 or 16
 * bytes (the kernel's u64 or struct bpf_cgroup_storage_key), a socket storage entries=0 and a
 * key of 4, a socket map's value
 * is 4 or 8 bytes, a program array's key and value 4 (it starts empty: every tail call through
 * it fails and the program goes on); a ring buffer is "ringbuf entries=N", N its
 * bytes, with no key or value), optionally "name=NAME" (the name the kernel
 * prints; default mapN), for arrays and hashes "timer=OFF": a struct bpf_timer at that offset
 * of the value (8-aligned, 16 bytes; ebpf_map_def.timer), its special fields "spin_lock=OFF",
 * "kptr=OFF:STRUCT" (a __kptr_untrusted to the kernel's struct STRUCT), "kptr_ref=OFF:STRUCT"
 * (a __kptr; ebpf_map_def.fields), "rdonly_prog" / "wronly_prog" (BPF_F_RDONLY_PROG /
 * BPF_F_WRONLY_PROG: the program may only read / only write the values), for arrays "init=HEX" (the
 * first value's bytes, the rest 0: ebpf_map_def.init; a read-only one is frozen, as libbpf freezes
 * .rodata), and for maps of maps, "inner=N": the line (from 0) of the inner
 * map's definition, the template every inner map matches; "ringbuf entries=N" or
 * "user_ringbuf entries=N" (a power of 2 of pages, no key nor value); "queue value=V entries=N"
 * or "stack value=V entries=N" (no key: bpf_map_push_elem, pop and peek); blank lines and '#'
 * comments are skipped. */
static const char *const map_kinds[] = { "array", "hash", "array_of_maps", "hash_of_maps",
					 "ringbuf", "user_ringbuf", "percpu_array", "percpu_hash",
					 "lru_hash", "lru_percpu_hash", "sockmap", "sockhash",
					 "reuseport_sockarray", "prog_array", "cgroup_storage",
					 "percpu_cgroup_storage", "sk_storage", "queue", "stack" };
static const uint32_t map_kind_types[] = { BPF_MAP_TYPE_ARRAY, BPF_MAP_TYPE_HASH,
					   BPF_MAP_TYPE_ARRAY_OF_MAPS, BPF_MAP_TYPE_HASH_OF_MAPS,
					   BPF_MAP_TYPE_RINGBUF, BPF_MAP_TYPE_USER_RINGBUF,
					   BPF_MAP_TYPE_PERCPU_ARRAY, BPF_MAP_TYPE_PERCPU_HASH,
					   BPF_MAP_TYPE_LRU_HASH, BPF_MAP_TYPE_LRU_PERCPU_HASH,
					   BPF_MAP_TYPE_SOCKMAP, BPF_MAP_TYPE_SOCKHASH,
					   BPF_MAP_TYPE_REUSEPORT_SOCKARRAY,
					   BPF_MAP_TYPE_PROG_ARRAY, BPF_MAP_TYPE_CGROUP_STORAGE,
					   BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE, BPF_MAP_TYPE_SK_STORAGE,
					   BPF_MAP_TYPE_QUEUE, BPF_MAP_TYPE_STACK };
#define MAP_KIND_RINGBUF 4
#define MAP_KIND_USER_RINGBUF 5
#define MAP_KIND_CGROUP_STORAGE 14	/* and 15, per-CPU, and 16 sk_storage: entries=0, as the
					 * kernel wants */
#define MAP_KIND_QUEUE 17
#define MAP_KIND_STACK 18
#define MAP_KINDS (sizeof(map_kinds) / sizeof(map_kinds[0]))

/* "init=HEX": the bytes of an array's first value (ebpf_map_def.init; the rest 0). */
#define CASEFILE_INIT_MAX 4096

static int parse_init(const char *hex, uint8_t *out, size_t *n)
{
	size_t len = strlen(hex);

	if (!len || len % 2 || len / 2 > CASEFILE_INIT_MAX)
		return -EINVAL;
	for (size_t k = 0; k < len / 2; k++) {
		unsigned v;
		char extra;

		if (!isxdigit((unsigned char)hex[2 * k]) || !isxdigit((unsigned char)hex[2 * k + 1]) ||
		    sscanf(hex + 2 * k, "%2x%c", &v, &extra) < 1)
			return -EINVAL;
		out[k] = (uint8_t)v;
	}
	*n = len / 2;
	return 0;
}

static int parse_maps(struct casefile *cf, struct diag *d)
{
	const struct casefile_section *sec = casefile__section(cf, "maps");
	struct ebpf_object *o = cf->obj;
	const char *p;
	int line;

	if (!sec)
		return 0;
	p = sec->text;
	for (line = sec->line; *p; line++) {
		size_t l = strcspn(p, "\n");
		char buf[2 * CASEFILE_INIT_MAX + 512], kind[24], name[64] = "", *save = NULL, *tok;
		uint8_t init[CASEFILE_INIT_MAX];
		size_t ninit = 0;
		unsigned ks = 0, vs = 0, me = 0, inner = 0, timer = 0, k, seen = 0;
		struct ebpf_map_def *nv, *m, fields = { 0 };
		const char *why = NULL;
		int fr;

		snprintf(buf, sizeof(buf), "%.*s", (int)(l < sizeof(buf) - 1 ? l : sizeof(buf) - 1), p);
		p += l + (p[l] == '\n');
		buf[strcspn(buf, "#")] = '\0';
		if (buf[strspn(buf, " \t\r")] == '\0')
			continue;
		tok = strtok_r(buf, " \t\r", &save);
		snprintf(kind, sizeof(kind), "%s", tok);
		for (k = 0; k < MAP_KINDS && strcmp(kind, map_kinds[k]); k++)
			;
		if (k == MAP_KIND_RINGBUF || k == MAP_KIND_USER_RINGBUF)
			seen |= 3;	/* (no key, no value) */
		if (k == MAP_KIND_QUEUE || k == MAP_KIND_STACK)
			seen |= 1;	/* (no key) */
		while ((tok = strtok_r(NULL, " \t\r", &save))) {
			char extra;

			if (sscanf(tok, "key=%u%c", &ks, &extra) == 1)
				seen |= 1;
			else if (sscanf(tok, "value=%u%c", &vs, &extra) == 1)
				seen |= 2;
			else if (sscanf(tok, "entries=%u%c", &me, &extra) == 1)
				seen |= 4;
			else if ((k == 2 || k == 3) && sscanf(tok, "inner=%u%c", &inner, &extra) == 1)
				seen |= 8;
			else if (k < 2 && sscanf(tok, "timer=%u%c", &timer, &extra) == 1)
				seen |= 32;
			else if (!strncmp(tok, "name=", 5) && tok[5] && strlen(tok + 5) < sizeof(name))
				snprintf(name, sizeof(name), "%s", tok + 5);
			else if (k == 0 && !strncmp(tok, "init=", 5)) {
				if (parse_init(tok + 5, init, &ninit))
					return diag_at_line(d, EINVAL, line, 1, "'%s': init= is the "
							    "first value's bytes in hex, 2 digits "
							    "each, at most %d bytes", tok,
							    CASEFILE_INIT_MAX);
				seen |= 64;
			}
			else if (k < 2 && (fr = ebpf_map_field_parse(&fields, tok, &why)) < 0)
				return diag_at_line(d, EINVAL, line, 1, "'%s': %s", tok, why);
			else if (k >= 2 || !fr)
				seen |= 16;
		}
		if (k >= MAP_KIND_CGROUP_STORAGE && k <= MAP_KIND_CGROUP_STORAGE + 2 &&
		    ((seen & 7) != 7 || (seen & 16) || me || !vs || !ks))
			return diag_at_line(d, EINVAL, line, 1, "expected 'cgroup_storage|"
					    "percpu_cgroup_storage|sk_storage key=K value=V entries=0 "
					    "[name=NAME]' (key and value nonzero)");
		if (k == MAP_KINDS || (seen & 7) != 7 || (seen & 16) ||
		    (!me && (k < MAP_KIND_CGROUP_STORAGE || k > MAP_KIND_CGROUP_STORAGE + 2)) ||
		    (k == MAP_KIND_RINGBUF || k == MAP_KIND_USER_RINGBUF ? ks || vs
		     : k == MAP_KIND_QUEUE || k == MAP_KIND_STACK	  ? ks || !vs
									  : !vs || !ks))
			return diag_at_line(d, EINVAL, line, 1, "expected 'array|hash|array_of_maps|"
					    "hash_of_maps|percpu_array|percpu_hash|lru_hash|"
					    "lru_percpu_hash|sockmap|sockhash|reuseport_sockarray|"
					    "prog_array key=K value=V entries=N [name=NAME] "
					    "[inner=LINE] [timer=OFF] [spin_lock=OFF] [kptr=OFF:STRUCT] "
					    "[kptr_ref=OFF:STRUCT] [rdonly_prog] [wronly_prog] [init=HEX]' "
					    "(all nonzero; inner= only for maps of maps, timer= and the "
					    "fields for arrays and hashes, init= for arrays), "
					    "'queue|stack value=V entries=N [name=NAME]' or "
					    "'ringbuf|user_ringbuf entries=N [name=NAME]'");
		if ((seen & 64) && ninit > vs)
			return diag_at_line(d, EINVAL, line, 1, "init=: %zu bytes, past the value (%u "
					    "bytes)", ninit, vs);
		if ((seen & 32) && (timer % 8 || timer > vs || vs - timer < 16))
			return diag_at_line(d, EINVAL, line, 1, "timer=%u: a struct bpf_timer is 16 "
					    "bytes at an 8-aligned offset of the value (%u bytes)", timer,
					    vs);
		for (uint8_t f = 0; f < fields.nfields; f++) {
			const struct ebpf_map_field *x = &fields.fields[f];

			if ((uint64_t)x->off + x->size > vs ||
			    ((seen & 32) && x->off < timer + 16 && timer < x->off + x->size))
				return diag_at_line(d, EINVAL, line, 1, "%s at %u: past the value (%u "
						    "bytes) or over the timer", ebpf_field_name(x->kind),
						    x->off, vs);
		}
		nv = realloc(o->maps, (o->map_cnt + 1) * sizeof(*nv));
		if (!nv)
			return diag_set(d, ENOMEM, "out of memory");
		o->maps = nv;
		m = &nv[o->map_cnt];
		memset(m, 0, sizeof(*m));
		if (name[0])
			snprintf(m->name, sizeof(m->name), "%s", name);
		else
			snprintf(m->name, sizeof(m->name), "map%zu", o->map_cnt);
		m->type = map_kind_types[k];
		m->key_size = ks;
		m->value_size = vs;
		m->max_entries = me;
		m->inner = seen & 8 ? inner + 1 : 0;
		m->timer = seen & 32 ? timer + 1 : 0;
		m->nfields = fields.nfields;
		memcpy(m->fields, fields.fields, sizeof(m->fields));
		m->flags = fields.flags;
		o->map_cnt++;
		if (seen & 64) {
			if (!(m->init = calloc(1, vs)))
				return diag_set(d, ENOMEM, "out of memory");
			memcpy(m->init, init, ninit);
		}
	}
	/* an inner map is a map of the section that is no map of maps */
	line = sec->line;
	for (size_t i = 0; i < o->map_cnt; i++) {
		uint32_t t = o->maps[i].inner;

		if (t && (t > o->map_cnt || o->maps[t - 1].type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
			  o->maps[t - 1].type == BPF_MAP_TYPE_HASH_OF_MAPS))
			return diag_at_line(d, EINVAL, line, 1, "map %zu '%s': inner=%u names no map "
					    "that can be an inner map", i, o->maps[i].name, t - 1);
	}
	return 0;
}

static int open_text(struct casefile *cf, const char *text, size_t len, const char *name,
		     struct diag *d)
{
	const struct casefile_section *asm_sec;
	int err;

	err = casefile_sections__parse(&cf->sections, &cf->section_cnt, text, len, d);
	if (err)
		return err;
	asm_sec = casefile__section(cf, "asm");
	if (!asm_sec)
		return diag_set(d, EINVAL, "data file has no '-- asm' section");
	err = ebpf_object__open_asm(&cf->obj, asm_sec->text, strlen(asm_sec->text), asm_sec->line,
				    name, d);
	if (err)
		return err;
	if ((err = parse_type(cf, d)))
		return err;
	return parse_maps(cf, d);
}

int casefile__open_mem(struct casefile **out, const void *data, size_t len, const char *name,
		       struct diag *d)
{
	struct casefile *cf;
	int err;

	*out = NULL;
	if (d)
		diag_set_file(d, name);
	cf = calloc(1, sizeof(*cf));
	if (!cf)
		return diag_set(d, ENOMEM, "out of memory");
	if (ebpf_format_of(data, len) == EBPF_FMT_ASM)
		err = open_text(cf, data, len, name, d);
	else
		err = ebpf_object__open_mem(&cf->obj, data, len, name, d);
	if (err) {
		casefile__free(cf);
		return err;
	}
	*out = cf;
	return 0;
}

int casefile__open_file(struct casefile **out, const char *path, struct diag *d)
{
	uint8_t *buf;
	size_t n;
	int err;

	*out = NULL;
	err = read_file(&buf, &n, path, d);
	if (err)
		return err;
	err = casefile__open_mem(out, buf, n, path, d);
	free(buf);
	return err;
}

/* The program of cf, taken out of it; cf freed. */
static void take_object(struct ebpf_object **out, struct casefile *cf)
{
	*out = cf->obj;
	cf->obj = NULL;
	casefile__free(cf);
}

int casefile__open_object(struct ebpf_object **out, const char *path, struct diag *d)
{
	struct casefile *cf;
	int err;

	*out = NULL;
	err = casefile__open_file(&cf, path, d);
	if (!err)
		take_object(out, cf);
	return err;
}

int casefile__open_object_mem(struct ebpf_object **out, const void *data, size_t len,
			      const char *name, struct diag *d)
{
	struct casefile *cf;
	int err;

	*out = NULL;
	err = casefile__open_mem(&cf, data, len, name, d);
	if (!err)
		take_object(out, cf);
	return err;
}

void casefile__free(struct casefile *cf)
{
	if (!cf)
		return;
	ebpf_object__free(cf->obj);
	casefile_sections__free(cf->sections, cf->section_cnt);
	free(cf);
}
