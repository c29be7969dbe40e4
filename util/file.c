/* Reading a whole input file.  See file.h. */
#include "util/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int read_file(uint8_t **out, size_t *len, const char *path, struct diag *d)
{
	FILE *f;
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0;
	struct stat st;
	int err;

	*out = NULL;
	*len = 0;
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
	*out = buf;
	*len = n;
	return 0;
}
