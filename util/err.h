/* Error reports with a location.  Libraries never print: they fill a struct diag that says where
 * (file:line:col for text, instruction index for bytecode, byte offset for binary input) and what
 * was expected, and return -errno.  The CLI prints it with diag_format().
 */
#ifndef BPFSCEV_UTIL_ERR_H
#define BPFSCEV_UTIL_ERR_H

#include <stddef.h>

struct diag {
	char file[256];		/* "" when the input has no name */
	int line;		/* 1-based; 0 = not a text location */
	int col;		/* 1-based; 0 = unknown */
	long insn;		/* instruction index; -1 = none */
	long offset;		/* byte offset in binary input; -1 = none */
	char msg[512];
};

void diag_clear(struct diag *d);
/* Fills msg (printf-style) and returns -err (err is a positive errno, e.g. EINVAL). */
int diag_set(struct diag *d, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int diag_at_line(struct diag *d, int err, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
int diag_at_insn(struct diag *d, int err, long insn, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void diag_set_file(struct diag *d, const char *file);
/* "file:line:col: msg", "file: insn N: msg", "file: offset N: msg" or just "msg". */
void diag_format(const struct diag *d, char *out, size_t n);

#endif
