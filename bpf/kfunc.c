/* kfunc names and the running kernel's BTF ids for them.
 *
 * A kfunc call (src_reg BPF_PSEUDO_KFUNC_CALL) names its function by a BTF id of the running
 * kernel, which is what an ELF object's extern call becomes at load time (libbpf looks the name
 * up in vmlinux BTF).  The vmlinux BTF is read once per process, through libbpf's
 * btf__load_vmlinux_btf(); where there is none (a kernel built without it, an unreadable
 * /sys/kernel/btf/vmlinux, or BPFSCEV_NO_VMLINUX_BTF set in the environment to test that path),
 * nothing resolves and callers keep the name alone.
 */
#include "bpf/isa.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t vmlinux_once = PTHREAD_ONCE_INIT;
static struct btf *vmlinux;

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static void load_vmlinux(void)
{
	const char *no = getenv("BPFSCEV_NO_VMLINUX_BTF");
	libbpf_print_fn_t old;

	if (no && *no && *no != '0')
		return;
	old = libbpf_set_print(quiet);
	vmlinux = btf__load_vmlinux_btf();
	libbpf_set_print(old);
	if (libbpf_get_error(vmlinux))
		vmlinux = NULL;
}

bool ebpf_kfunc_btf_available(void)
{
	pthread_once(&vmlinux_once, load_vmlinux);
	return vmlinux != NULL;
}

/* The last names looked up: btf__find_by_name_kind walks every type, and the generators ask
 * for the same few kfuncs in every program. */
#define KFUNC_MEMO 8
static pthread_mutex_t memo_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	char name[64];
	int32_t id;
} memo[KFUNC_MEMO];
static unsigned memo_next;

int32_t ebpf_kfunc_by_name(const char *name)
{
	int id;

	if (!ebpf_kfunc_btf_available())
		return -ENODATA;
	pthread_mutex_lock(&memo_lock);
	for (unsigned k = 0; k < KFUNC_MEMO; k++)
		if (memo[k].name[0] && !strcmp(memo[k].name, name)) {
			id = memo[k].id;
			pthread_mutex_unlock(&memo_lock);
			return id;
		}
	pthread_mutex_unlock(&memo_lock);
	id = btf__find_by_name_kind(vmlinux, name, BTF_KIND_FUNC);
	id = id > 0 ? id : -ENOENT;
	if (strlen(name) < sizeof(memo[0].name)) {
		pthread_mutex_lock(&memo_lock);
		snprintf(memo[memo_next].name, sizeof(memo[0].name), "%s", name);
		memo[memo_next].id = id;
		memo_next = (memo_next + 1) % KFUNC_MEMO;
		pthread_mutex_unlock(&memo_lock);
	}
	return id;
}

const char *ebpf_kfunc_name(int32_t id)
{
	const struct btf_type *t;

	if (id <= 0 || !ebpf_kfunc_btf_available())
		return NULL;
	t = btf__type_by_id(vmlinux, (uint32_t)id);
	if (!t || !btf_is_func(t))
		return NULL;
	return btf__name_by_offset(vmlinux, t->name_off);
}
