/* The verdict table of `bpfscev verify` reports (triage/vtable.h): rows built from verdict
 * reports, totals and the shares, false alarms grouped by reason, the CSV written and read back
 * unchanged (fields with commas and quotes included), malformed CSV refused with its line, and
 * the comparison of two runs listing exactly the programs that changed. */
#include <string.h>

#include "tests/check.h"
#include "triage/vtable.h"

static struct ebpf_prog prog_named(const char *name)
{
	struct ebpf_prog p;

	memset(&p, 0, sizeof(p));
	snprintf(p.name, sizeof(p.name), "%s", name);
	snprintf(p.section, sizeof(p.section), "xdp");
	return p;
}

static void add(struct vtable *t, const char *obj, const char *name, int ours, bool kacc,
		int cls, const char *reason)
{
	struct ebpf_prog p = prog_named(name);
	struct verdict_report r;

	memset(&r, 0, sizeof(r));
	r.ours.kind = (uint8_t)ours;
	r.ours.pc = 7;
	snprintf(r.ours.reason, sizeof(r.ours.reason), "%s", reason);
	r.cls = (enum verdict_class)cls;
	r.kernel_accepted = kacc;
	r.kernel_processed = 42;
	r.kernel_usec = 100;
	r.ours_usec = 12.5;
	if (!kacc)
		snprintf(r.kernel_message, sizeof(r.kernel_message), "R1 invalid mem access, \"x\"");
	CHECK(vtable_add(t, obj, &p, 6 /* BPF_PROG_TYPE_XDP */, "--type", &r, true) == 0, "add %s",
	      name);
}

static size_t count_of(const char *text, const char *needle)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

int main(void)
{
	struct vtable t = { 0 }, back, after = { 0 };
	struct sbuf csv = SBUF_INIT, txt = SBUF_INIT, js = SBUF_INIT, cmp = SBUF_INIT,
		    csv2 = SBUF_INIT;
	struct diag d;
	char g[128];

	vtable_reason_group(g, sizeof(g), "R3 may be read at insn 12 (0x1f, -8)");
	CHECK(!strcmp(g, "RN may be read at insn N (N, -N)"), "grouped: '%s'", g);

	add(&t, "a,b.o", "p1", VERDICT_SAFE, true, VC_BOTH_ACCEPT, "");
	add(&t, "a,b.o", "p2", VERDICT_UNSAFE, true, VC_REGRESSION, "R1 may be NULL at 3");
	add(&t, "c.o", "p3", VERDICT_UNSAFE, true, VC_REGRESSION, "R2 may be NULL at 9");
	add(&t, "c.o", "p4", VERDICT_UNSUPPORTED, false, VC_BOTH_REJECT, "helper x#5, \"q\"");
	CHECK(vtable_add_bad(&t, "bad.o", "offset 0: not ELF") == 0, "bad");

	vtable_format(&txt, &t, VT_TEXT);
	CHECK(strstr(sbuf_cstr(&txt), "programs                               4\n") != NULL,
	      "programs total: %s", sbuf_cstr(&txt));
	CHECK(strstr(sbuf_cstr(&txt), "kernel accepts, bpfscev unsafe         2\n") != NULL,
	      "false alarms total");
	CHECK(strstr(sbuf_cstr(&txt), "share unsupported                      25.0 %") != NULL,
	      "unsupported share");
	CHECK(strstr(sbuf_cstr(&txt), "share kernel accepts, bpfscev unsafe   50.0 %") != NULL,
	      "unsafe share");
	/* both NULL alarms in one group of two, the rejected program in none */
	CHECK(strstr(sbuf_cstr(&txt), "      2  unsafe: RN may be NULL at N") != NULL,
	      "group: %s", sbuf_cstr(&txt));
	CHECK(!strstr(sbuf_cstr(&txt), "unsupported: helper"), "a rejected program is no alarm");
	CHECK(strstr(sbuf_cstr(&txt), "objects that did not open              1\n") != NULL, "bad");

	vtable_format(&js, &t, VT_JSON);
	CHECK(count_of(sbuf_cstr(&js), "\"object\": ") == 5, "json rows");
	CHECK(strstr(sbuf_cstr(&js), "\"false_alarms\": [{\"count\": 2") != NULL, "json groups");

	vtable_format(&csv, &t, VT_CSV);
	diag_clear(&d);
	CHECK(vtable_read_csv(&back, sbuf_cstr(&csv), "t.csv", &d) == 0, "read back: %s", d.msg);
	CHECK_EQ_U64(back.n, t.n, "rows read back");
	for (size_t i = 0; i < t.n && i < back.n; i++) {
		CHECK(!strcmp(back.rows[i].object, t.rows[i].object), "object %zu", i);
		CHECK(!strcmp(back.rows[i].reason, t.rows[i].reason), "reason %zu: '%s'", i,
		      back.rows[i].reason);
		CHECK(!strcmp(back.rows[i].kmessage, t.rows[i].kmessage), "kmessage %zu", i);
		CHECK(!strcmp(back.rows[i].cls, t.rows[i].cls), "class %zu", i);
		CHECK(back.rows[i].kprocessed == t.rows[i].kprocessed, "processed %zu", i);
		CHECK(back.rows[i].pc == t.rows[i].pc, "pc %zu", i);
		CHECK(!strcmp(back.rows[i].type_from, t.rows[i].type_from), "type_from %zu", i);
	}
	CHECK(strstr(sbuf_cstr(&txt), "type from --type") != NULL, "types by rule: %s",
	      sbuf_cstr(&txt));
	/* a run saved before type_from was recorded reads back without it */
	{
		struct vtable old;
		char text[8192], *nl, *end;

		snprintf(text, sizeof(text), "%s", sbuf_cstr(&csv));
		nl = strchr(text, '\n');
		memmove(nl - strlen(",type_from"), nl, strlen(nl) + 1);
		for (char *l = strchr(text, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
			end = strchr(l + 1, '\n');
			while (end[-1] != ',')
				end--;
			memmove(end - 1, strchr(end, '\n'), strlen(strchr(end, '\n')) + 1);
		}
		diag_clear(&d);
		CHECK(vtable_read_csv(&old, text, "old.csv", &d) == 0 && old.n == t.n &&
		      !old.rows[0].type_from[0], "old CSV: %s", d.msg);
		vtable_free(&old);
	}
	vtable_format(&csv2, &back, VT_CSV);
	CHECK(!strcmp(sbuf_cstr(&csv), sbuf_cstr(&csv2)), "CSV round trip is exact");

	/* after: p2 became safe, p3 is gone, p5 is new */
	add(&after, "a,b.o", "p1", VERDICT_SAFE, true, VC_BOTH_ACCEPT, "");
	add(&after, "a,b.o", "p2", VERDICT_SAFE, true, VC_BOTH_ACCEPT, "");
	add(&after, "c.o", "p4", VERDICT_UNSUPPORTED, false, VC_BOTH_REJECT, "helper x#5, \"q\"");
	add(&after, "c.o", "p5", VERDICT_SAFE, true, VC_BOTH_ACCEPT, "");
	CHECK(vtable_add_bad(&after, "bad.o", "offset 0: not ELF") == 0, "bad");
	vtable_compare(&cmp, &back, &after, VT_TEXT);
	CHECK(strstr(sbuf_cstr(&cmp), "a,b.o p2: unsafe -> safe, regression -> both-accept") != NULL,
	      "p2 changed: %s", sbuf_cstr(&cmp));
	CHECK(strstr(sbuf_cstr(&cmp), "c.o p3: unsafe -> absent") != NULL, "p3 gone");
	CHECK(strstr(sbuf_cstr(&cmp), "c.o p5: absent -> safe") != NULL, "p5 new");
	CHECK(!strstr(sbuf_cstr(&cmp), " p1:") && !strstr(sbuf_cstr(&cmp), " p4:"),
	      "unchanged programs are not listed");
	CHECK(strstr(sbuf_cstr(&cmp), "kernel accepts, bpfscev unsafe                2        0"
			      "       -2") != NULL, "totals side by side: %s", sbuf_cstr(&cmp));

	/* malformed input names its line */
	{
		struct vtable bad;
		char text[8192];

		snprintf(text, sizeof(text), "%s", sbuf_cstr(&csv));
		strcpy(strchr(strchr(text, '\n') + 1, '\n') + 1, "x.o,p,xdp,xdp,accepted,zz\n");
		diag_clear(&d);
		CHECK(vtable_read_csv(&bad, text, "t.csv", &d) != 0 && strstr(d.msg, "t.csv:3:"),
		      "malformed line: %s", d.msg);
		diag_clear(&d);
		CHECK(vtable_read_csv(&bad, "a,b\n", "u.csv", &d) != 0 && strstr(d.msg, "u.csv:1:"),
		      "not a table: %s", d.msg);
	}

	sbuf_free(&csv);
	sbuf_free(&csv2);
	sbuf_free(&txt);
	sbuf_free(&js);
	sbuf_free(&cmp);
	vtable_free(&t);
	vtable_free(&back);
	vtable_free(&after);
	return check_done("test_vtable");
}
