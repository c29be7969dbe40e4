/* Reading a whole input file into memory, with the messages every opener gives (a directory, a
 * file too large, a read error).
 */
#ifndef BPFSCEV_UTIL_FILE_H
#define BPFSCEV_UTIL_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* Reads path (at most 256 MiB) into *out, which the caller frees; *len is its size.  Returns 0
 * or -errno with d set (the file name, and why). */
int read_file(uint8_t **out, size_t *len, const char *path, struct diag *d);

#endif
