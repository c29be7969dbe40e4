/* Opening programs from files: format detection, data-file sections, raw bytes.  See prog.h. */
#include "bpf/prog.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bpf/asm.h"

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Text is any input made of printable ASCII, tabs, newlines and UTF-8 bytes, without NUL. */
static bool looks_like_text(const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		uint8_t c = p[i];

		if (c == 0 || (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f'))
			return false;
	}
	return true;
}

void ebpf_sections__free(struct ebpf_section *s, size_t cnt)
{
	if (!s)
		return;
	for (size_t i = 0; i < cnt; i++)
		free(s[i].text);
	free(s);
}

/* Copies text[start, end) as a section's text, ending with a newline when not empty. */
static int section_text(struct ebpf_section *sec, const char *text, size_t start, size_t end)
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
int ebpf_sections__parse(struct ebpf_section **out, size_t *cnt, const char *text, size_t len,
			 struct diag *d)
{
	struct ebpf_section *v = NULL;
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
				ebpf_sections__free(v, n);
				return diag_at_line(d, EINVAL, line, 4, "section name %s",
						    nlen ? "too long" : "missing after '-- '");
			}
			if (n && section_text(&v[n - 1], text, start, pos))
				goto nomem;
			if (n == cap) {
				size_t nc = cap ? cap * 2 : 8;
				struct ebpf_section *nv = realloc(v, nc * sizeof(*nv));

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
	ebpf_sections__free(v, n);
	return diag_set(d, ENOMEM, "out of memory");
}

int ebpf_parse_hex(uint8_t **out, size_t *len, const char *text, struct diag *d)
{
	size_t cap = strlen(text) / 2 + 1, n = 0;
	uint8_t *buf = malloc(cap);
	int line = 1, col = 1;
	const char *s = text;

	if (!buf)
		return diag_set(d, ENOMEM, "out of memory");
	while (*s) {
		int hi, lo;

		if (*s == '\n') {
			line++;
			col = 1;
			s++;
			continue;
		}
		if (*s == ' ' || *s == '\t' || *s == ',' || *s == '\r') {
			s++;
			col++;
			continue;
		}
		if (*s == '#') {	/* comment to end of line */
			while (*s && *s != '\n')
				s++;
			continue;
		}
		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
			s += 2;
			col += 2;
		}
#define HEXV(c) ((c) >= '0' && (c) <= '9' ? (c) - '0' : (c) >= 'a' && (c) <= 'f' ? (c) - 'a' + 10 : \
		 (c) >= 'A' && (c) <= 'F' ? (c) - 'A' + 10 : -1)
		hi = HEXV(s[0]);
		lo = hi >= 0 ? HEXV(s[1]) : -1;
#undef HEXV
		if (hi < 0 || lo < 0) {
			free(buf);
			return diag_at_line(d, EINVAL, line, hi < 0 ? col : col + 1,
					    "expected a pair of hex digits");
		}
		buf[n++] = (uint8_t)(hi * 16 + lo);
		s += 2;
		col += 2;
	}
	*out = buf;
	*len = n;
	return 0;
}

static int object_alloc(struct ebpf_object **out, const char *name, enum ebpf_format fmt,
			struct diag *d)
{
	struct ebpf_object *o = calloc(1, sizeof(*o));

	if (!o)
		return diag_set(d, ENOMEM, "out of memory");
	snprintf(o->path, sizeof(o->path), "%s", name ? name : "<input>");
	o->format = fmt;
	*out = o;
	return 0;
}

static int add_single_prog(struct ebpf_object *o, struct bpf_insn *insns, size_t len,
			   uint32_t *lines, const char *name, bool keep_defect, struct diag *d)
{
	struct ebpf_prog *p = calloc(1, sizeof(*p));
	int err;

	if (!p) {
		free(insns);
		free(lines);
		return diag_set(d, ENOMEM, "out of memory");
	}
	p->insns = insns;
	p->len = len;
	p->lines = lines;
	snprintf(p->name, sizeof(p->name), "%s", name);
	o->progs = p;
	o->prog_cnt = 1;
	err = keep_defect ? ebpf_validate_encoding(insns, len, d) : ebpf_validate(insns, len, d);
	if (!err && keep_defect) {
		struct diag why;

		/* kept, for verify to call unsafe; the other stages refuse it (prog.h) */
		diag_clear(&why);
		if (ebpf_validate(insns, len, &why)) {
			p->defect_insn = why.insn;
			snprintf(p->defect, sizeof(p->defect), "%.*s", (int)sizeof(p->defect) - 1,
				 why.msg);
		}
	}
	if (err && d && lines && d->insn >= 0 && (size_t)d->insn < len && lines[d->insn])
		d->line = (int)lines[d->insn];
	return err;
}

/* Program name for text and raw input: the file name without directory and extension. */
static void prog_name_from(char *dst, size_t n, const char *name)
{
	const char *b = base_name(name ? name : "prog");
	const char *dot = strrchr(b, '.');
	size_t l = dot && dot != b ? (size_t)(dot - b) : strlen(b);

	if (l >= n)
		l = n - 1;
	memcpy(dst, b, l);
	dst[l] = '\0';
	if (!dst[0])
		snprintf(dst, n, "prog");
}

/* "-- type": xdp, socket, tc or plain (the context model of the program). */
static int parse_type(struct ebpf_object *o, struct diag *d)
{
	const struct ebpf_section *sec = ebpf_object__section(o, "type");
	char t[32] = "";

	if (!sec)
		return 0;
	if (sscanf(sec->text, "%31s", t) != 1 || (strcmp(t, "xdp") && strcmp(t, "socket") &&
						   strcmp(t, "tc") && strcmp(t, "plain")))
		return diag_at_line(d, EINVAL, sec->line, 1, "unknown program type '%s' (xdp, socket, "
				    "tc, plain)", t);
	o->progs[0].prog_type = !strcmp(t, "xdp") ? BPF_PROG_TYPE_XDP :
				!strcmp(t, "socket") ? BPF_PROG_TYPE_SOCKET_FILTER :
				!strcmp(t, "tc") ? BPF_PROG_TYPE_SCHED_CLS : BPF_PROG_TYPE_UNSPEC;
	return 0;
}

/* "-- maps": one map per line, in LD_IMM64 index order: "array key=4 value=64 entries=4"
 * (array or hash), optionally "name=NAME" (the name the kernel prints; default mapN); blank
 * lines and '#' comments are skipped. */
static int parse_maps(struct ebpf_object *o, struct diag *d)
{
	const struct ebpf_section *sec = ebpf_object__section(o, "maps");
	const char *p;
	int line;

	if (!sec)
		return 0;
	p = sec->text;
	for (line = sec->line; *p; line++) {
		size_t l = strcspn(p, "\n");
		char buf[256], kind[16], name[64] = "", extra[2];
		unsigned ks, vs, me;
		struct ebpf_map_def *nv, *m;
		int n;

		snprintf(buf, sizeof(buf), "%.*s", (int)(l < sizeof(buf) - 1 ? l : sizeof(buf) - 1), p);
		p += l + (p[l] == '\n');
		buf[strcspn(buf, "#")] = '\0';
		if (buf[strspn(buf, " \t\r")] == '\0')
			continue;
		n = sscanf(buf, " %15s key=%u value=%u entries=%u name=%63s %1s", kind, &ks, &vs, &me,
			   name, extra);
		if (n == 4 && sscanf(buf, " %*s key=%*u value=%*u entries=%*u %1s", extra) == 1)
			n = 0;	/* something after the entries that is not a name */
		if ((n != 4 && n != 5) || (strcmp(kind, "array") && strcmp(kind, "hash")) || !vs ||
		    !me || !ks)
			return diag_at_line(d, EINVAL, line, 1, "expected 'array|hash key=K value=V "
					    "entries=N [name=NAME]' (all nonzero)");
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
		m->type = strcmp(kind, "array") ? BPF_MAP_TYPE_HASH : BPF_MAP_TYPE_ARRAY;
		m->key_size = ks;
		m->value_size = vs;
		m->max_entries = me;
		o->map_cnt++;
	}
	return 0;
}

static int open_text(struct ebpf_object *o, const char *text, size_t len, struct diag *d)
{
	const struct ebpf_section *asm_sec;
	struct bpf_insn *insns = NULL;
	uint32_t *lines = NULL;
	size_t n = 0;
	char pname[128];
	int err;

	err = ebpf_sections__parse(&o->sections, &o->section_cnt, text, len, d);
	if (err)
		return err;
	asm_sec = ebpf_object__section(o, "asm");
	if (!asm_sec)
		return diag_set(d, EINVAL, "data file has no '-- asm' section");
	err = ebpf_asm(&insns, &n, &lines, asm_sec->text, strlen(asm_sec->text), asm_sec->line, d);
	if (err)
		return err;
	prog_name_from(pname, sizeof(pname), o->path);
	if ((err = add_single_prog(o, insns, n, lines, pname, true, d)))
		return err;
	if ((err = parse_type(o, d)))
		return err;
	return parse_maps(o, d);
}

static int open_raw(struct ebpf_object *o, const uint8_t *data, size_t len, struct diag *d)
{
	struct bpf_insn *insns;
	char pname[128];

	if (len == 0)
		return diag_set(d, EINVAL, "empty input");
	if (len % sizeof(struct bpf_insn)) {
		if (d)
			d->offset = (long)(len - len % sizeof(struct bpf_insn));
		return diag_set(d, EINVAL,
				"raw program size %zu is not a multiple of 8 (and the input is "
				"neither text nor ELF)", len);
	}
	insns = malloc(len);
	if (!insns)
		return diag_set(d, ENOMEM, "out of memory");
	memcpy(insns, data, len);
	prog_name_from(pname, sizeof(pname), o->path);
	return add_single_prog(o, insns, len / sizeof(struct bpf_insn), NULL, pname, true, d);
}

int ebpf_object__open_mem(struct ebpf_object **out, const void *data, size_t len,
			  const char *name, struct diag *d)
{
	const uint8_t *p = data;
	struct ebpf_object *o = NULL;
	enum ebpf_format fmt;
	int err;

	*out = NULL;
	if (d)
		diag_set_file(d, name);
	if (len >= 4 && p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F')
		fmt = EBPF_FMT_ELF;
	else if (len > 0 && looks_like_text(p, len))
		fmt = EBPF_FMT_ASM;
	else
		fmt = EBPF_FMT_RAW;
	err = object_alloc(&o, name, fmt, d);
	if (err)
		return err;
	switch (fmt) {
	case EBPF_FMT_ELF:
		err = ebpf_elf_open(o, data, len, d);
		break;
	case EBPF_FMT_ASM:
		err = open_text(o, data, len, d);
		break;
	default:
		err = open_raw(o, data, len, d);
		break;
	}
	if (err) {
		ebpf_object__free(o);
		return err;
	}
	*out = o;
	return 0;
}

int ebpf_object__open_file(struct ebpf_object **out, const char *path, struct diag *d)
{
	FILE *f;
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0;
	struct stat st;
	int err;

	*out = NULL;
	if (d)
		diag_set_file(d, path);
	f = fopen(path, "rb");
	if (!f)
		return diag_set(d, errno, "cannot open: %s", strerror(errno));
	/* fopen() opens a directory for reading; only the first read fails, with a bare EISDIR */
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		fclose(f);
		return diag_set(d, EISDIR, "is a directory");
	}
	for (;;) {
		size_t got;

		if (n == cap) {
			size_t nc = cap ? cap * 2 : 65536;
			uint8_t *nb;

			if (nc > (256u << 20)) {
				free(buf);
				fclose(f);
				return diag_set(d, EFBIG, "file larger than 256 MiB");
			}
			nb = realloc(buf, nc);
			if (!nb) {
				free(buf);
				fclose(f);
				return diag_set(d, ENOMEM, "out of memory");
			}
			buf = nb;
			cap = nc;
		}
		errno = 0;
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		err = errno ? errno : EIO;
		free(buf);
		fclose(f);
		return diag_set(d, err, "read error: %s", strerror(err));
	}
	fclose(f);
	err = ebpf_object__open_mem(out, buf, n, path, d);
	free(buf);
	return err;
}

int ebpf_object__from_insns(struct ebpf_object **out, const struct bpf_insn *insns, size_t len,
			    const char *name, struct diag *d)
{
	struct ebpf_object *o = NULL;
	struct bpf_insn *copy;
	int err;

	*out = NULL;
	if (len == 0 || len > EBPF_MAX_INSNS)
		return diag_set(d, EINVAL, "program must have 1..%u slots", EBPF_MAX_INSNS);
	err = object_alloc(&o, name, EBPF_FMT_RAW, d);
	if (err)
		return err;
	copy = malloc(len * sizeof(*copy));
	if (!copy) {
		ebpf_object__free(o);
		return diag_set(d, ENOMEM, "out of memory");
	}
	memcpy(copy, insns, len * sizeof(*copy));
	err = add_single_prog(o, copy, len, NULL, name ? name : "prog", false, d);
	if (err) {
		ebpf_object__free(o);
		return err;
	}
	*out = o;
	return 0;
}

void ebpf_object__free(struct ebpf_object *obj)
{
	if (!obj)
		return;
	for (size_t i = 0; i < obj->prog_cnt; i++) {
		free(obj->progs[i].insns);
		free(obj->progs[i].lines);
		free(obj->progs[i].kfuncs);
	}
	free(obj->progs);
	for (size_t i = 0; i < obj->map_cnt; i++)
		free(obj->maps[i].init);
	free(obj->maps);
	free(obj->notes);
	ebpf_sections__free(obj->sections, obj->section_cnt);
	free(obj);
}

const struct ebpf_prog *ebpf_object__find_prog(const struct ebpf_object *obj, const char *name)
{
	for (size_t i = 0; i < obj->prog_cnt; i++)
		if (!strcmp(obj->progs[i].name, name))
			return &obj->progs[i];
	return NULL;
}

const struct ebpf_section *ebpf_object__section(const struct ebpf_object *obj, const char *name)
{
	for (size_t i = 0; i < obj->section_cnt; i++)
		if (!strcmp(obj->sections[i].name, name))
			return &obj->sections[i];
	return NULL;
}

enum ebpf_ctx_model ebpf_prog_ctx_model(uint32_t prog_type)
{
	switch (prog_type) {
	case BPF_PROG_TYPE_XDP:
		return EBPF_CTX_XDP;
	case BPF_PROG_TYPE_SOCKET_FILTER:
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_CGROUP_SKB:
	case BPF_PROG_TYPE_LWT_IN:
	case BPF_PROG_TYPE_LWT_OUT:
	case BPF_PROG_TYPE_LWT_XMIT:
	case BPF_PROG_TYPE_SK_SKB:
		return EBPF_CTX_SKB;
	case BPF_PROG_TYPE_KPROBE:
	case BPF_PROG_TYPE_TRACEPOINT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE:
	case BPF_PROG_TYPE_PERF_EVENT:
		return EBPF_CTX_RO;
	default:
		return EBPF_CTX_PLAIN;
	}
}

/* x86-64 layouts of the uapi structures (struct pt_regs is 21 u64s there; the kernel's
 * bpf_perf_event_data is pt_regs, then sample_period and addr). */
#define PT_REGS_SIZE (21 * 8)
#define PERF_TRACE_MAX 2048	/* PERF_MAX_TRACE_SIZE */
#define RAW_TP_ARGS (12 * 8)	/* MAX_BPF_FUNC_ARGS u64s */

uint32_t ebpf_ctx_size(uint32_t prog_type)
{
	switch (prog_type) {
	case BPF_PROG_TYPE_KPROBE: return PT_REGS_SIZE;
	case BPF_PROG_TYPE_TRACEPOINT: return PERF_TRACE_MAX;
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE: return RAW_TP_ARGS;
	case BPF_PROG_TYPE_PERF_EVENT: return PT_REGS_SIZE + 16;
	default: return 0;
	}
}

/* As kprobe_prog_is_valid_access, tp_prog_is_valid_access, raw_tp_prog_is_valid_access and
 * pe_prog_is_valid_access (kernel/trace/bpf_trace.c) decide for loads. */
const char *ebpf_ctx_ro_access(uint32_t prog_type, int64_t off, unsigned size)
{
	int64_t lo = prog_type == BPF_PROG_TYPE_TRACEPOINT ? 8 : 0;
	int64_t hi = ebpf_ctx_size(prog_type);

	if (!hi)
		return "not a read-only context";
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return "bad access size";
	if (off < lo || off + size > hi)
		return prog_type == BPF_PROG_TYPE_TRACEPOINT
			       ? "outside [8, 2048) (the tracepoint's common fields are not readable)"
			       : "outside the context";
	if (off % size)
		return "misaligned";
	if (prog_type == BPF_PROG_TYPE_PERF_EVENT && off < PT_REGS_SIZE && size != 8)
		return "the registers of bpf_perf_event_data are read as whole u64s";
	return NULL;
}

const char *ebpf_prog_kfunc_name(const struct ebpf_prog *prog, size_t pc)
{
	if (pc >= prog->len || prog->insns[pc].code != (BPF_JMP | BPF_CALL | BPF_K) ||
	    prog->insns[pc].src_reg != BPF_PSEUDO_KFUNC_CALL)
		return NULL;
	for (size_t i = 0; i < prog->kfunc_cnt; i++)
		if (prog->kfuncs[i].insn == pc)
			return prog->kfuncs[i].name;
	return prog->insns[pc].off ? NULL : ebpf_kfunc_name(prog->insns[pc].imm);
}
