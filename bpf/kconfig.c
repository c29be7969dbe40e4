/* The running kernel's configuration, for the .kconfig externs of ELF objects (elf.c), as libbpf
 * reads it: /proc/config.gz, else /boot/config-$(uname -r), once per process.  Where there is
 * none (or BPFSCEV_NO_KCONFIG is set, to test that path) nothing is found. */
#include "bpf/prog.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <zlib.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char *config;	/* the file, NUL-terminated; NULL when none */

static void load(void)
{
	const char *no = getenv("BPFSCEV_NO_KCONFIG");
	struct utsname u;
	char path[300];
	size_t len = 0, cap = 0;
	gzFile f;
	int n;

	if (no && *no && *no != '0')
		return;
	f = gzopen("/proc/config.gz", "rb");
	if (!f && !uname(&u)) {
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		f = gzopen(path, "rb");	/* (reads plain files too) */
	}
	if (!f)
		return;
	for (;;) {
		if (cap - len < 4097) {
			char *nb = realloc(config, cap = cap ? cap * 2 : 1 << 16);

			if (!nb) {
				free(config);
				config = NULL;
				break;
			}
			config = nb;
		}
		if ((n = gzread(f, config + len, 4096)) <= 0)
			break;
		len += (size_t)n;
	}
	if (config)
		config[len] = '\0';
	gzclose(f);
}

bool ebpf_kconfig_value(const char *name, char *buf, size_t n)
{
	size_t ln = strlen(name);

	pthread_once(&once, load);
	for (const char *p = config; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *end = strchr(p, '\n');
		size_t vl;

		if (strncmp(p, name, ln) || p[ln] != '=')
			continue;
		vl = (end ? (size_t)(end - p) : strlen(p)) - ln - 1;
		if (vl >= n)
			return false;
		memcpy(buf, p + ln + 1, vl);
		buf[vl] = '\0';
		return true;
	}
	return false;
}

uint32_t ebpf_kernel_version(void)
{
	struct utsname u;
	unsigned a = 0, b = 0, c = 0;

	if (uname(&u) || sscanf(u.release, "%u.%u.%u", &a, &b, &c) < 2)
		return 0;
	return (a << 16) + (b << 8) + (c > 255 ? 255 : c);
}
