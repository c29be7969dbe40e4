/* The regression driver: feeds files to a fuzz target's LLVMFuzzerTestOneInput, as zstd's
 * regression.c does, so every target is also a plain test under any compiler (gcc included)
 * and every saved crash input can be replayed without a fuzzing engine.  LLVMFuzzerInitialize
 * runs first, as under the engines.
 *
 *   fuzz_<target>_regress PATH...   each PATH a file or a directory (its files, sorted, not
 *                                   recursive; dot files skipped)
 * Each input is read into a buffer of exactly its size, so ASan catches a target reading past
 * it.  Exit 0 when every input ran (a failing CHECK aborts, naming the file on stderr first),
 * 2 for a path that cannot be read or a directory with no inputs.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FUZZ_CHECK_DRIVER /* the target defines LLVMFuzzerInitialize */
#include "fuzz/targets/fuzz_check.h"

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "%s: cannot size\n", path);
		fclose(f);
		return -1;
	}
	buf = malloc(n ? (size_t)n : 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "%s: read error\n", path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	/* named before it runs: a CHECK or a sanitizer aborts the process */
	fprintf(stderr, "running %s (%ld bytes)\n", path, n);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, unsigned *count)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int err = 0;

	if (!dp) {
		fprintf(stderr, "%s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(dp))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof(*names));

			if (!nn) {
				err = -1;
				break;
			}
			names = nn;
		}
		if (!(names[n] = strdup(e->d_name))) {
			err = -1;
			break;
		}
		n++;
	}
	closedir(dp);
	if (names)
		qsort(names, n, sizeof(*names), cmp_names);
	for (size_t i = 0; i < n; i++) {
		char path[4096];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (!err && !stat(path, &st) && S_ISREG(st.st_mode)) {
			if (run_file(path))
				err = -1;
			else
				(*count)++;
		}
		free(names[i]);
	}
	free(names);
	return err;
}

int main(int argc, char **argv)
{
	unsigned count = 0;
	int err = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	LLVMFuzzerInitialize(&argc, &argv);	/* as the engines do */
	for (int i = 1; i < argc && !err; i++) {
		struct stat st;

		if (stat(argv[i], &st)) {
			fprintf(stderr, "%s: %s\n", argv[i], strerror(errno));
			err = -1;
		} else if (S_ISDIR(st.st_mode)) {
			unsigned before = count;

			err = run_dir(argv[i], &count);
			if (!err && count == before) {
				fprintf(stderr, "%s: no inputs\n", argv[i]);
				err = -1;
			}
		} else if (!(err = run_file(argv[i]))) {
			count++;
		}
	}
	if (err)
		return 2;
	printf("%u input(s) ran without a finding\n", count);
	return 0;
}
