/* Test-data files: a program in assembly with the data that goes with it, in "-- name" sections.
 *
 * The corpus cases (corpus/cases/NAME.case, their sections in fuzz/corpus.h), the conformance
 * suite's programs and the kernel-log fixtures are such files: "-- asm" is the program,
 * "-- type" its context model (xdp, socket, tc, cgroup_skb, sock_ops, cgroup_sock,
 * cgroup_device, raw_tp or plain) and "-- maps" the maps its LD_IMM64 refer to; every other
 * section ("-- input", "-- trip", "-- result", ...) is data for whoever reads the file.  This is
 * a format of the tests and the corpus, not of programs: bpf/ knows assembly text, raw bytes and
 * ELF, and casefile/ builds the program of a data file with it.
 */
#ifndef BPFSCEV_CASEFILE_CASEFILE_H
#define BPFSCEV_CASEFILE_CASEFILE_H

#include <stddef.h>

#include "bpf/prog.h"
#include "util/err.h"

/* A "-- name" section of a data file. */
struct casefile_section {
	char name[64];
	char *text;
	int line;		/* line of the first text line after the header */
};

struct casefile {
	struct ebpf_object *obj;	/* the program: "-- asm" with "-- type" and "-- maps" */
	struct casefile_section *sections;	/* text input only; a text without headers is
						 * one section named "asm" */
	size_t section_cnt;
};

/* Opens a file of any format bpf/ reads; text is split into sections and its "-- asm" section
 * (the whole text when it has no header) assembled.  Returns 0 or -errno with d set (file,
 * line:col).  Caller frees with casefile__free. */
int casefile__open_file(struct casefile **out, const char *path, struct diag *d);
int casefile__open_mem(struct casefile **out, const void *data, size_t len, const char *name,
		       struct diag *d);
void casefile__free(struct casefile *cf);
/* The program of a file of any format, data files included, without the sections: what a tool
 * that takes "a program" opens.  Same errors as casefile__open_file. */
int casefile__open_object(struct ebpf_object **out, const char *path, struct diag *d);
int casefile__open_object_mem(struct ebpf_object **out, const void *data, size_t len,
			      const char *name, struct diag *d);
/* Text of section "name", NULL when absent. */
const struct casefile_section *casefile__section(const struct casefile *cf, const char *name);

/* Splits a data file into "-- name" sections.  Text before the first header (comments) is
 * ignored; a file without headers is one section named "asm".  Caller frees with
 * casefile_sections__free. */
int casefile_sections__parse(struct casefile_section **out, size_t *cnt, const char *text,
			     size_t len, struct diag *d);
void casefile_sections__free(struct casefile_section *s, size_t cnt);

#endif
