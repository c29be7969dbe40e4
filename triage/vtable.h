/* The verdict table: `bpfscev verify` over many objects as one report, in the spirit of the
 * kernel's veristat — a row per program (object, program, kernel verdict, processed
 * instructions, verification time, bpfscev's verdict, analysis time, class, reason), totals with
 * the shares the issue tracks (unsupported; kernel accepts but bpfscev calls unsafe), false
 * alarms grouped by reason, and a comparison of two saved runs (before/after a change).
 *
 * Rows are plain data so that a saved CSV reads back into the same rows (vtable_read_csv): the
 * comparison works from files, not from a live run.  Formatting goes to an sbuf; nothing here
 * prints.
 */
#ifndef BPFSCEV_TRIAGE_VTABLE_H
#define BPFSCEV_TRIAGE_VTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "triage/verdict.h"
#include "util/err.h"
#include "util/sbuf.h"

struct vrow {
	char object[256];	/* path as given (or relative to the directory walked) */
	char prog[128];		/* "-" for an object that did not open */
	char section[128];
	char type[40];		/* program type as libbpf names it, "unspec" when the section names
				 * none */
	char type_from[128];	/* how the type was decided (ebpf_prog.type_from, "--type",
				 * "--default-type"); "" when not recorded (CSV of earlier runs) */
	char kernel[16];	/* accepted, rejected, no-load, not-asked (unprivileged, a type
				 * that needs CAP_PERFMON), - (not asked) */
	long kprocessed;	/* -1 unknown */
	long kusec;		/* verification time; -1 unknown */
	char ours[16];		/* safe, unsafe, unsupported, error (the object did not open) */
	long pc;		/* first instruction not shown safe; -1 when safe */
	double ours_usec;	/* analysis and verdict */
	char cls[16];		/* verdict_class_name, or "bad-object" */
	uint64_t faults;	/* runs of a program called safe that faulted */
	char reason[320];	/* bpfscev's reason when not safe; the fault when one */
	char kmessage[512];	/* the kernel's reason when it rejected or could not load */
};

struct vtable {
	struct vrow *rows;
	size_t n, cap;
};

/* Appends a row for prog of object (name as given) from a finished verdict_compare, run as
 * prog_type; type_from says where that type came from when it is not prog's own. */
int vtable_add(struct vtable *t, const char *object, const struct ebpf_prog *prog,
	       uint32_t prog_type, const char *type_from, const struct verdict_report *r,
	       bool kernel_asked);
/* Appends a row for an object that did not open (why: the loader's message). */
int vtable_add_bad(struct vtable *t, const char *object, const char *why);
void vtable_free(struct vtable *t);

enum vtable_format { VT_TEXT, VT_CSV, VT_JSON };
/* The rows, then (text and JSON) the totals and the false alarms by reason. */
void vtable_format(struct sbuf *sb, const struct vtable *t, enum vtable_format f);
/* Reads what vtable_format wrote as CSV.  Returns 0 or -errno with d set (file:line). */
int vtable_read_csv(struct vtable *t, const char *text, const char *name, struct diag *d);
/* before against after: the rows whose verdict or class changed, rows only on one side, and
 * both runs' totals side by side. */
void vtable_compare(struct sbuf *sb, const struct vtable *before, const struct vtable *after,
		    enum vtable_format f);
/* A reason with its numbers replaced by N, for grouping ("R3 may be NULL" → "RN may be NULL"). */
void vtable_reason_group(char *out, size_t n, const char *reason);

#endif
