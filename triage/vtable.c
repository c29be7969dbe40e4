/* The verdict table: rows, totals, false alarms by reason, CSV round trip and comparison (see
 * vtable.h). */
#include "triage/vtable.h"

#include <bpf/libbpf.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"

static struct vrow *new_row(struct vtable *t)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct vrow *r = realloc(t->rows, cap * sizeof(*r));

		if (!r)
			return NULL;
		t->rows = r;
		t->cap = cap;
	}
	memset(&t->rows[t->n], 0, sizeof(t->rows[0]));
	return &t->rows[t->n++];
}

static void copy(char *dst, size_t n, const char *src)
{
	size_t l = src ? strlen(src) : 0;

	if (l >= n)
		l = n - 1;
	if (l)
		memcpy(dst, src, l);
	dst[l] = '\0';
}

int vtable_add(struct vtable *t, const char *object, const struct ebpf_prog *prog,
	       uint32_t prog_type, const char *type_from, const struct verdict_report *r,
	       bool kernel_asked)
{
	struct vrow *w = new_row(t);
	const char *tn = prog_type ? libbpf_bpf_prog_type_str(prog_type) : NULL;

	if (!w)
		return -ENOMEM;
	copy(w->object, sizeof(w->object), object);
	copy(w->prog, sizeof(w->prog), prog->name);
	copy(w->section, sizeof(w->section), prog->section[0] ? prog->section : "-");
	copy(w->type, sizeof(w->type), tn ? tn : "unspec");
	copy(w->type_from, sizeof(w->type_from), prog_type != prog->prog_type ? type_from :
			 prog->type_from);
	copy(w->ours, sizeof(w->ours), scev_verdict_name(r->ours.kind));
	w->pc = r->ours.kind == VERDICT_SAFE ? -1 : (long)r->ours.pc;
	w->ours_usec = r->ours_usec;
	w->faults = r->faults;
	if (r->faults) {
		copy(w->reason, sizeof(w->reason), "FAULT when run: ");
		copy(w->reason + strlen(w->reason), sizeof(w->reason) - strlen(w->reason), r->fault);
	}
	else
		copy(w->reason, sizeof(w->reason), r->ours.kind == VERDICT_SAFE ? "" : r->ours.reason);
	w->kprocessed = r->kernel_processed;
	w->kusec = r->kernel_usec;
	if (!kernel_asked || r->cls == VC_NO_KERNEL) {
		copy(w->kernel, sizeof(w->kernel), "-");
		copy(w->cls, sizeof(w->cls), verdict_class_name(VC_NO_KERNEL));
		w->kprocessed = w->kusec = -1;
		return 0;
	}
	copy(w->cls, sizeof(w->cls), verdict_class_name(r->cls));
	copy(w->kernel, sizeof(w->kernel), r->cls == VC_NO_LOAD ? "no-load" :
			 r->cls == VC_UNPRIV_SKIP ? "not-asked" :
			 r->kernel_accepted ? "accepted" : "rejected");
	copy(w->kmessage, sizeof(w->kmessage), r->kernel_accepted ? "" : r->kernel_message);
	return 0;
}

int vtable_add_bad(struct vtable *t, const char *object, const char *why)
{
	struct vrow *w = new_row(t);

	if (!w)
		return -ENOMEM;
	copy(w->object, sizeof(w->object), object);
	copy(w->prog, sizeof(w->prog), "-");
	copy(w->section, sizeof(w->section), "-");
	copy(w->type, sizeof(w->type), "-");
	copy(w->kernel, sizeof(w->kernel), "-");
	copy(w->ours, sizeof(w->ours), "error");
	copy(w->cls, sizeof(w->cls), "bad-object");
	copy(w->reason, sizeof(w->reason), why);
	w->kprocessed = w->kusec = w->pc = -1;
	return 0;
}

void vtable_free(struct vtable *t)
{
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

void vtable_reason_group(char *out, size_t n, const char *reason)
{
	size_t o = 0;

	if (!n)
		return;
	for (const char *p = reason; *p && o + 1 < n; p++) {
		if (!isdigit((unsigned char)*p)) {
			out[o++] = *p;
			continue;
		}
		out[o++] = 'N';
		if (p[0] == '0' && p[1] == 'x' && isxdigit((unsigned char)p[2]))
			for (p++; isxdigit((unsigned char)p[1]); p++)
				;
		else
			while (isdigit((unsigned char)p[1]))
				p++;
	}
	out[o] = '\0';
}

/* ---- totals ---- */

enum { C_BA, C_BR, C_IMP, C_GAP, C_REG, C_NOK, C_NOL, C_UPR, C_UPS, C_BAD, NCLS };
static const char *const cls_names[NCLS] = { "both-accept", "both-reject", "improvement",
					     "rule-gap", "regression", "no-kernel", "no-load",
					     "unpriv-rule", "unpriv-skip", "bad-object" };

/* How a row's type was decided: the first word of vrow.type_from (progtype.c's rules and the
 * command line's); the last entry counts rows with none recorded. */
static const char *const from_names[] = {
	"section", "legacy", "helpers", "object", "loader", "slot", "--type", "--default-type",
	"none", "not recorded",
};
#define NFROM ((int)(sizeof(from_names) / sizeof(from_names[0])))

struct totals {
	size_t objects, bad, progs;
	size_t cls[NCLS];
	size_t safe, unsafe, unsupported;
	size_t kaccepted, krejected, knoload;
	size_t kacc_unsafe, kacc_unsupported;	/* false alarms */
	size_t faults;				/* safe programs that faulted when run */
	size_t unspec;				/* programs whose section names no type */
	size_t from[NFROM];			/* programs by how their type was decided */
	double ours_usec, kusec;
	long kprocessed;
};

static int from_index(const char *type_from)
{
	for (int i = 0; i < NFROM - 1; i++)
		if (!strncmp(type_from, from_names[i], strlen(from_names[i])))
			return i;
	return NFROM - 1;
}

static int cls_index(const char *c)
{
	for (int i = 0; i < NCLS; i++)
		if (!strcmp(c, cls_names[i]))
			return i;
	return C_NOK;
}

static void totals_of(struct totals *s, const struct vtable *t)
{
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < t->n; i++) {
		const struct vrow *w = &t->rows[i];

		if (i == 0 || strcmp(w->object, t->rows[i - 1].object))
			s->objects++;
		s->cls[cls_index(w->cls)]++;
		if (!strcmp(w->cls, "bad-object")) {
			s->bad++;
			continue;
		}
		s->progs++;
		s->safe += !strcmp(w->ours, "safe");
		s->unsafe += !strcmp(w->ours, "unsafe");
		s->unsupported += !strcmp(w->ours, "unsupported");
		s->faults += w->faults != 0;
		s->unspec += !strcmp(w->type, "unspec");
		s->from[from_index(w->type_from)]++;
		s->ours_usec += w->ours_usec;
		if (!strcmp(w->kernel, "accepted")) {
			s->kaccepted++;
			s->kacc_unsafe += !strcmp(w->ours, "unsafe");
			s->kacc_unsupported += !strcmp(w->ours, "unsupported");
		}
		s->krejected += !strcmp(w->kernel, "rejected");
		s->knoload += !strcmp(w->kernel, "no-load");
		if (w->kusec > 0)
			s->kusec += (double)w->kusec;
		if (w->kprocessed > 0)
			s->kprocessed += w->kprocessed;
	}
}

static double pct(size_t a, size_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

/* One line per total: name, field of struct totals. */
#define TOTAL_ITEMS(X)                                                                        \
	X("objects", objects) X("objects that did not open", bad) X("programs", progs)         \
	X("bpfscev safe", safe) X("bpfscev unsafe", unsafe)                                   \
	X("bpfscev unsupported", unsupported) X("kernel accepted", kaccepted)                 \
	X("kernel rejected", krejected) X("kernel could not load", knoload)                   \
	X("kernel accepts, bpfscev unsafe", kacc_unsafe)                                      \
	X("kernel accepts, bpfscev unsupported", kacc_unsupported)                            \
	X("safe but faulted when run", faults) X("section names no program type", unspec)

/* ---- false alarms by reason ---- */

struct group {
	char reason[360];
	size_t count;
	char example[400];
};

static int group_cmp(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->reason, y->reason);
}

/* Programs the kernel accepts and bpfscev does not call safe, grouped by reason. */
static struct group *false_alarms(const struct vtable *t, size_t *ng)
{
	struct group *g = calloc(t->n ? t->n : 1, sizeof(*g));

	*ng = 0;
	if (!g)
		return NULL;
	for (size_t i = 0; i < t->n; i++) {
		const struct vrow *w = &t->rows[i];
		char key[320], full[340];
		size_t k;

		if (strcmp(w->kernel, "accepted") || !strcmp(w->ours, "safe"))
			continue;
		vtable_reason_group(key, sizeof(key), w->reason);
		snprintf(full, sizeof(full), "%s: %s", w->ours, key);
		for (k = 0; k < *ng && strcmp(g[k].reason, full); k++)
			;
		if (k == *ng) {
			copy(g[k].reason, sizeof(g[k].reason), full);
			snprintf(g[k].example, sizeof(g[k].example), "%s %s", w->object, w->prog);
			(*ng)++;
		}
		g[k].count++;
	}
	qsort(g, *ng, sizeof(*g), group_cmp);
	return g;
}

/* ---- formats ---- */

static void csv_field(struct sbuf *sb, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		sbuf_puts(sb, s);
		return;
	}
	sbuf_putc(sb, '"');
	for (; *s; s++) {
		if (*s == '"')
			sbuf_putc(sb, '"');
		sbuf_putc(sb, *s == '\n' || *s == '\r' ? ' ' : *s);
	}
	sbuf_putc(sb, '"');
}

#define CSV_HEADER "object,program,section,type,kernel,processed_insns,kernel_usec,bpfscev," \
		   "pc,bpfscev_usec,class,faults,reason,kernel_message"
#define CSV_HEADER_FROM CSV_HEADER ",type_from"

static void put_csv(struct sbuf *sb, const struct vtable *t)
{
	sbuf_puts(sb, CSV_HEADER_FROM "\n");
	for (size_t i = 0; i < t->n; i++) {
		const struct vrow *w = &t->rows[i];

		csv_field(sb, w->object);
		sbuf_putc(sb, ',');
		csv_field(sb, w->prog);
		sbuf_putc(sb, ',');
		csv_field(sb, w->section);
		sbuf_printf(sb, ",%s,%s,%ld,%ld,%s,%ld,%.1f,%s,%" PRIu64 ",", w->type, w->kernel,
			    w->kprocessed, w->kusec, w->ours, w->pc, w->ours_usec, w->cls, w->faults);
		csv_field(sb, w->reason);
		sbuf_putc(sb, ',');
		csv_field(sb, w->kmessage);
		sbuf_putc(sb, ',');
		csv_field(sb, w->type_from);
		sbuf_putc(sb, '\n');
	}
}

static void put_num_or_dash(char *buf, size_t n, long v)
{
	if (v < 0)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%ld", v);
}

static const char *row_reason(const struct vrow *w, char *buf, size_t n)
{
	if (w->faults || !strcmp(w->ours, "error") || (strcmp(w->ours, "safe") && w->pc < 0))
		snprintf(buf, n, "%s", w->reason);
	else if (strcmp(w->ours, "safe"))
		snprintf(buf, n, "insn %ld: %s", w->pc, w->reason);
	else if (w->kmessage[0])
		snprintf(buf, n, "kernel: %s", w->kmessage);
	else
		buf[0] = '\0';
	return buf;
}

static void put_text_rows(struct sbuf *sb, const struct vtable *t)
{
	int wo = 6, wp = 7;

	for (size_t i = 0; i < t->n; i++) {
		int a = (int)strlen(t->rows[i].object), b = (int)strlen(t->rows[i].prog);

		wo = a > wo ? (a > 48 ? 48 : a) : wo;
		wp = b > wp ? (b > 32 ? 32 : b) : wp;
	}
	sbuf_printf(sb, "%-*s  %-*s  %-8s  %9s  %10s  %-11s  %10s  %-11s  %s\n", wo, "object", wp,
		    "program", "kernel", "insns", "kernel_us", "bpfscev", "bpfscev_us", "class",
		    "reason");
	for (size_t i = 0; i < t->n; i++) {
		const struct vrow *w = &t->rows[i];
		char ins[24], ku[24], why[600];

		put_num_or_dash(ins, sizeof(ins), w->kprocessed);
		put_num_or_dash(ku, sizeof(ku), w->kusec);
		sbuf_printf(sb, "%-*.*s  %-*.*s  %-8s  %9s  %10s  %-11s  %10.0f  %-11s  %s\n", wo, 48,
			    w->object, wp, 32, w->prog, w->kernel, ins, ku, w->ours, w->ours_usec,
			    w->cls, row_reason(w, why, sizeof(why)));
	}
}

#define TEXT_TOTAL(name, f) sbuf_printf(sb, "  %-38s %zu\n", name, s->f);
#define JSON_TOTAL(name, f) sbuf_printf(sb, ", \"%s\": %zu", name, s->f);

static void put_text_totals(struct sbuf *sb, const struct totals *s)
{
	sbuf_puts(sb, "\ntotals\n");
	TOTAL_ITEMS(TEXT_TOTAL)
	for (int c = 0; c < NCLS; c++)
		if (s->cls[c])
			sbuf_printf(sb, "  class %-32s %zu\n", cls_names[c], s->cls[c]);
	for (int k = 0; k < NFROM; k++)
		if (s->from[k])
			sbuf_printf(sb, "  type from %-28s %zu\n", from_names[k], s->from[k]);
	sbuf_printf(sb, "  %-38s %.1f %%\n", "share unsupported", pct(s->unsupported, s->progs));
	sbuf_printf(sb, "  %-38s %.1f %%\n", "share kernel accepts, bpfscev unsafe",
		    pct(s->kacc_unsafe, s->progs));
	sbuf_printf(sb, "  %-38s %.0f us\n", "bpfscev analysis time", s->ours_usec);
	sbuf_printf(sb, "  %-38s %.0f us (%ld insns processed)\n", "kernel verification time",
		    s->kusec, s->kprocessed);
}

static void put_groups(struct sbuf *sb, const struct vtable *t, bool json)
{
	size_t ng;
	struct group *g = false_alarms(t, &ng);

	if (!g)
		return;
	if (json) {
		sbuf_puts(sb, ", \"false_alarms\": [");
		for (size_t k = 0; k < ng; k++) {
			sbuf_printf(sb, "%s{\"count\": %zu, \"reason\": ", k ? ", " : "", g[k].count);
			json_put_string(sb, g[k].reason);
			sbuf_puts(sb, ", \"example\": ");
			json_put_string(sb, g[k].example);
			sbuf_putc(sb, '}');
		}
		sbuf_putc(sb, ']');
	} else if (ng) {
		sbuf_puts(sb, "\nfalse alarms (kernel accepts, bpfscev does not call safe), by reason\n");
		for (size_t k = 0; k < ng; k++)
			sbuf_printf(sb, "  %5zu  %s  (e.g. %s)\n", g[k].count, g[k].reason,
				    g[k].example);
	}
	free(g);
}

static void put_json_row(struct sbuf *sb, const struct vrow *w)
{
	sbuf_puts(sb, "{\"object\": ");
	json_put_string(sb, w->object);
	sbuf_puts(sb, ", \"program\": ");
	json_put_string(sb, w->prog);
	sbuf_puts(sb, ", \"section\": ");
	json_put_string(sb, w->section);
	sbuf_printf(sb, ", \"type\": \"%s\", \"kernel\": \"%s\", \"processed_insns\": %ld, "
		    "\"kernel_usec\": %ld, \"bpfscev\": \"%s\", \"pc\": %ld, \"bpfscev_usec\": %.1f, "
		    "\"class\": \"%s\", \"faults\": %" PRIu64 ", \"reason\": ", w->type, w->kernel,
		    w->kprocessed, w->kusec, w->ours, w->pc, w->ours_usec, w->cls, w->faults);
	json_put_string(sb, w->reason);
	sbuf_puts(sb, ", \"kernel_message\": ");
	json_put_string(sb, w->kmessage);
	sbuf_puts(sb, ", \"type_from\": ");
	json_put_string(sb, w->type_from);
	sbuf_putc(sb, '}');
}

static void put_json_totals(struct sbuf *sb, const struct totals *s)
{
	sbuf_printf(sb, "{\"schema\": 1");
	TOTAL_ITEMS(JSON_TOTAL)
	for (int c = 0; c < NCLS; c++)
		sbuf_printf(sb, ", \"class %s\": %zu", cls_names[c], s->cls[c]);
	for (int k = 0; k < NFROM; k++)
		sbuf_printf(sb, ", \"type from %s\": %zu", from_names[k], s->from[k]);
	sbuf_printf(sb, ", \"share unsupported\": %.2f, \"share kernel accepts, bpfscev unsafe\": "
		    "%.2f, \"bpfscev_usec\": %.0f, \"kernel_usec\": %.0f}",
		    pct(s->unsupported, s->progs), pct(s->kacc_unsafe, s->progs), s->ours_usec,
		    s->kusec);
}

void vtable_format(struct sbuf *sb, const struct vtable *t, enum vtable_format f)
{
	struct totals s;

	totals_of(&s, t);
	if (f == VT_CSV) {
		put_csv(sb, t);
		return;
	}
	if (f == VT_TEXT) {
		put_text_rows(sb, t);
		put_text_totals(sb, &s);
		put_groups(sb, t, false);
		return;
	}
	sbuf_puts(sb, "{\"programs\": [");
	for (size_t i = 0; i < t->n; i++) {
		sbuf_puts(sb, i ? ",\n  " : "\n  ");
		put_json_row(sb, &t->rows[i]);
	}
	sbuf_puts(sb, "\n], \"totals\": ");
	put_json_totals(sb, &s);
	put_groups(sb, t, true);
	sbuf_puts(sb, "}\n");
}

/* ---- reading CSV back ---- */

/* Splits one CSV record starting at *p into at most max fields (in place; quotes removed). */
static int csv_split(char **p, char **fields, int max)
{
	char *s = *p, *o;
	int n = 0;

	for (;;) {
		if (n == max)
			return -1;
		fields[n++] = o = s;
		if (*s == '"') {
			s++;
			for (;;) {
				if (!*s)
					return -1;
				if (*s == '"' && s[1] == '"') {
					*o++ = '"';
					s += 2;
				} else if (*s == '"') {
					s++;
					break;
				} else {
					*o++ = *s++;
				}
			}
		} else {
			while (*s && *s != ',' && *s != '\n' && *s != '\r')
				*o++ = *s++;
		}
		if (*s == ',') {
			*o = '\0';
			s++;
			continue;
		}
		if (*s == '\r')
			s++;
		if (*s == '\n')
			s++;
		else if (*s)
			return -1;
		*o = '\0';
		*p = s;
		return n;
	}
}

static int parse_long(const char *s, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	return errno || end == s || *end ? -1 : 0;
}

int vtable_read_csv(struct vtable *t, const char *text, const char *name, struct diag *d)
{
	char *buf = strdup(text), *p = buf, *f[16];
	int line = 1, n, want;
	size_t hl = strlen(CSV_HEADER);	/* + strlen(",type_from") for CSV_HEADER_FROM */

	memset(t, 0, sizeof(*t));
	if (!buf)
		return diag_set(d, ENOMEM, "out of memory");
	/* runs before type_from was recorded have one column less */
	if (!strncmp(p, CSV_HEADER_FROM, hl + 10) && (p[hl + 10] == '\n' || p[hl + 10] == '\r'))
		want = 15;
	else if (!strncmp(p, CSV_HEADER, hl) && (p[hl] == '\n' || p[hl] == '\r'))
		want = 14;
	else {
		free(buf);
		return diag_set(d, EINVAL, "%s:1: not a `bpfscev verify --csv` table (header "
				"should be '%s')", name, CSV_HEADER_FROM);
	}
	p = strchr(p, '\n') + 1;
	while (*p) {
		struct vrow *w;
		long faults;
		char *end;

		line++;
		n = csv_split(&p, f, 16);
		if (n != want) {
			vtable_free(t);
			free(buf);
			return diag_set(d, EINVAL, "%s:%d: expected %d comma-separated fields, found "
					"%s", name, line, want, n < 0 ? "a malformed record" :
					"another count");
		}
		if (!(w = new_row(t))) {
			vtable_free(t);
			free(buf);
			return diag_set(d, ENOMEM, "out of memory");
		}
		copy(w->object, sizeof(w->object), f[0]);
		copy(w->prog, sizeof(w->prog), f[1]);
		copy(w->section, sizeof(w->section), f[2]);
		copy(w->type, sizeof(w->type), f[3]);
		copy(w->kernel, sizeof(w->kernel), f[4]);
		copy(w->ours, sizeof(w->ours), f[7]);
		copy(w->cls, sizeof(w->cls), f[10]);
		copy(w->reason, sizeof(w->reason), f[12]);
		copy(w->kmessage, sizeof(w->kmessage), f[13]);
		if (want == 15)
			copy(w->type_from, sizeof(w->type_from), f[14]);
		w->ours_usec = strtod(f[9], &end);
		if (parse_long(f[5], &w->kprocessed) || parse_long(f[6], &w->kusec) ||
		    parse_long(f[8], &w->pc) || parse_long(f[11], &faults) || faults < 0 ||
		    end == f[9] || *end) {
			vtable_free(t);
			free(buf);
			return diag_set(d, EINVAL, "%s:%d: a number field is not a number", name,
					line);
		}
		w->faults = (uint64_t)faults;
	}
	free(buf);
	return 0;
}

/* ---- comparison ---- */

static const struct vrow *find_row(const struct vtable *t, const struct vrow *w)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->rows[i].object, w->object) && !strcmp(t->rows[i].prog, w->prog))
			return &t->rows[i];
	return NULL;
}

void vtable_compare(struct sbuf *sb, const struct vtable *before, const struct vtable *after,
		    enum vtable_format f)
{
	struct totals tb, ta;
	size_t changed = 0;
	bool json = f == VT_JSON;

	totals_of(&tb, before);
	totals_of(&ta, after);
	if (json)
		sbuf_puts(sb, "{\"changed\": [");
	else if (f == VT_CSV)
		sbuf_puts(sb, "object,program,bpfscev_before,bpfscev_after,class_before,class_after,"
			      "reason_after\n");
	for (int side = 0; side < 2; side++) {
		const struct vtable *t = side ? before : after, *o = side ? after : before;

		for (size_t i = 0; i < t->n; i++) {
			const struct vrow *w = &t->rows[i], *x = find_row(o, w);
			const struct vrow *b = side ? w : x, *a = side ? x : w;

			if (side && x)
				continue;	/* already seen from after's side */
			if (a && b && !strcmp(a->ours, b->ours) && !strcmp(a->cls, b->cls) &&
			    !strcmp(a->reason, b->reason))
				continue;
			if (json) {
				sbuf_puts(sb, changed ? ",\n  " : "\n  ");
				sbuf_puts(sb, "{\"object\": ");
				json_put_string(sb, w->object);
				sbuf_puts(sb, ", \"program\": ");
				json_put_string(sb, w->prog);
				sbuf_printf(sb, ", \"bpfscev_before\": \"%s\", \"bpfscev_after\": \"%s\", "
					    "\"class_before\": \"%s\", \"class_after\": \"%s\", "
					    "\"reason_after\": ", b ? b->ours : "absent",
					    a ? a->ours : "absent", b ? b->cls : "absent",
					    a ? a->cls : "absent");
				json_put_string(sb, a ? a->reason : "");
				sbuf_putc(sb, '}');
			} else if (f == VT_CSV) {
				csv_field(sb, w->object);
				sbuf_putc(sb, ',');
				csv_field(sb, w->prog);
				sbuf_printf(sb, ",%s,%s,%s,%s,", b ? b->ours : "absent",
					    a ? a->ours : "absent", b ? b->cls : "absent",
					    a ? a->cls : "absent");
				csv_field(sb, a ? a->reason : "");
				sbuf_putc(sb, '\n');
			} else {
				if (!changed)
					sbuf_puts(sb, "changed programs (before -> after)\n");
				sbuf_printf(sb, "  %s %s: %s -> %s, %s -> %s%s%s\n", w->object, w->prog,
					    b ? b->ours : "absent", a ? a->ours : "absent",
					    b ? b->cls : "absent", a ? a->cls : "absent",
					    a && a->reason[0] ? ": " : "", a ? a->reason : "");
			}
			changed++;
		}
	}
	if (f == VT_CSV)
		return;
	if (json) {
		sbuf_puts(sb, "\n], \"before\": ");
		put_json_totals(sb, &tb);
		sbuf_puts(sb, ", \"after\": ");
		put_json_totals(sb, &ta);
		sbuf_printf(sb, ", \"changed_count\": %zu}\n", changed);
		return;
	}
	if (!changed)
		sbuf_puts(sb, "no program changed verdict or class\n");
	sbuf_printf(sb, "\n  %-38s %8s %8s %8s\n", "totals", "before", "after", "change");
#define CMP_ROW(name, field)                                                                  \
	sbuf_printf(sb, "  %-38s %8zu %8zu %+8ld\n", name, (size_t)(tb.field), (size_t)(ta.field), \
		    (long)(ta.field) - (long)(tb.field));
	TOTAL_ITEMS(CMP_ROW)
	for (int c = 0; c < NCLS; c++)
		if (tb.cls[c] || ta.cls[c]) {
			char name[64];

			snprintf(name, sizeof(name), "class %s", cls_names[c]);
			CMP_ROW(name, cls[c])
		}
	sbuf_printf(sb, "  %-38s %7.1f%% %7.1f%%\n", "share unsupported",
		    pct(tb.unsupported, tb.progs), pct(ta.unsupported, ta.progs));
	sbuf_printf(sb, "  %-38s %7.1f%% %7.1f%%\n", "share kernel accepts, bpfscev unsafe",
		    pct(tb.kacc_unsafe, tb.progs), pct(ta.kacc_unsafe, ta.progs));
	sbuf_printf(sb, "  %-38s %8.0f %8.0f\n", "bpfscev analysis time (us)", tb.ours_usec,
		    ta.ours_usec);
	sbuf_printf(sb, "  %-38s %8.0f %8.0f\n", "kernel verification time (us)", tb.kusec,
		    ta.kusec);
#undef CMP_ROW
}
