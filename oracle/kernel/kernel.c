/* The kernel as a reference: load with the verifier log, read its verdict and statistics, test-run.
 * See kernel.h for the contract.  Every fd this file opens is closed before the function that
 * opened it returns, except a loaded program's and its maps', which struct kernel_prog owns.
 */
#include "oracle/kernel/kernel.h"
#include "oracle/exec/interp.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <ctype.h>
#include <inttypes.h>
#include <errno.h>
#include <linux/capability.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LOG_FIRST (16ul << 20)
#define LOG_MAX (256ul << 20)
#define LOG_KERNEL_CAP ((size_t)(UINT32_MAX >> 2))	/* larger log_size: EINVAL */
#define LOG_STATS_SIZE (1ul << 20)
/* The first buffer of a log without the walk (log_level BPF_LOG_STATS alone: the refusal's
 * messages and the statistics, a few hundred bytes).  Not LOG_FIRST: under ASan each 16 MiB
 * buffer is mapped fresh and its shadow written page by page, at every load, which was most of
 * test_ctx_fields' CPU.  A longer log is loaded again at its size, as any log is. */
#define LOG_STATS_FIRST (64ul << 10)
#define LOG_SLACK 4096	/* a reload's log may be longer: "verification time N usec" varies */
#ifndef BPF_LOG_LEVEL1
#define BPF_LOG_LEVEL1 1
#endif
#ifndef BPF_LOG_LEVEL2
#define BPF_LOG_LEVEL2 2
#endif
#ifndef BPF_LOG_STATS
#define BPF_LOG_STATS 4
#endif
#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif
#ifndef ENOTSUPP
#define ENOTSUPP 524	/* kernel-internal "operation not supported", leaks out of test_run */
#endif

/* An option field, when the caller's struct is recent enough to have it and it is set. */
#define OPT(o, field, def)                                                                  \
	((o) && (o)->sz >= offsetof(typeof(*(o)), field) + sizeof((o)->field) && (o)->field \
		 ? (o)->field                                                                \
		 : (def))

static const char *disabled_by_env(void)
{
	const char *e = getenv("BPFSCEV_NO_KERNEL");

	return e && *e && strcmp(e, "0") ? e : NULL;
}

static const char *errstr(int err)
{
	return err == ENOTSUPP ? "operation not supported by this program type (ENOTSUPP)"
			       : strerror(err);
}

bool kernel_available(char *why, size_t n)
{
	static int probed, probe_err;
	const char *env = disabled_by_env();

	if (env) {
		if (n)
			snprintf(why, n, "bpf() refused: BPFSCEV_NO_KERNEL=%s is set", env);
		return false;
	}
	if (!probed) {
		static const struct bpf_insn ret0[] = {
			{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
			{ .code = BPF_JMP | BPF_EXIT },
		};
		int fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, NULL, "GPL", ret0, 2, NULL);

		probe_err = fd < 0 ? -fd : 0;
		if (fd >= 0)
			close(fd);
		probed = 1;
	}
	if (probe_err) {
		if (n)
			snprintf(why, n, "bpf() refused: %s", strerror(probe_err));
		return false;
	}
	if (n)
		why[0] = '\0';
	return true;
}

/* ---- the unprivileged loader (kernel.h) ---- */

struct unpriv_call {
	int (*fn)(void *);
	void *arg;
	int ret;
	int err;	/* -errno: the capabilities could not be dropped */
	char why[160];
};

/* This thread's capabilities down to CAP_BPF and CAP_NET_ADMIN, effective and permitted. */
static int unpriv_drop(struct unpriv_call *u)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct c[_LINUX_CAPABILITY_U32S_3];
	const uint64_t keep = 1ull << CAP_BPF | 1ull << CAP_NET_ADMIN;
	uint64_t perm;

	memset(c, 0, sizeof(c));
	if (syscall(SYS_capget, &h, c)) {
		snprintf(u->why, sizeof(u->why), "capget: %s", strerror(errno));
		return -errno;
	}
	perm = c[0].permitted | (uint64_t)c[1].permitted << 32;
	if ((perm & keep) != keep) {
		snprintf(u->why, sizeof(u->why), "the process lacks CAP_BPF or CAP_NET_ADMIN "
			 "(permitted 0x%" PRIx64 ")", perm);
		return -EPERM;
	}
	memset(c, 0, sizeof(c));
	c[0].effective = c[0].permitted = (uint32_t)keep;
	c[1].effective = c[1].permitted = (uint32_t)(keep >> 32);
	if (syscall(SYS_capset, &h, c)) {
		snprintf(u->why, sizeof(u->why), "capset: %s", strerror(errno));
		return -errno;
	}
	return 0;
}

static void *unpriv_thread(void *arg)
{
	struct unpriv_call *u = arg;

	u->err = unpriv_drop(u);
	if (!u->err)
		u->ret = u->fn(u->arg);
	return NULL;
}

int kernel_unpriv_call(int (*fn)(void *), void *arg, struct diag *d)
{
	struct unpriv_call u = { .fn = fn, .arg = arg };
	pthread_t t;
	int e = pthread_create(&t, NULL, unpriv_thread, &u);

	if (e)
		return diag_set(d, e, "cannot start the unprivileged loader's thread: %s",
				strerror(e));
	pthread_join(t, NULL);
	if (u.err)
		return diag_set(d, -u.err, "cannot drop to the unprivileged loader's capabilities "
				"(CAP_BPF and CAP_NET_ADMIN): %s", u.why);
	return u.ret;
}

bool kernel_type_needs_perfmon(uint32_t prog_type)
{
	switch (prog_type) {
	case BPF_PROG_TYPE_KPROBE:
	case BPF_PROG_TYPE_TRACEPOINT:
	case BPF_PROG_TYPE_PERF_EVENT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE:
	case BPF_PROG_TYPE_TRACING:
	case BPF_PROG_TYPE_LSM:
	case BPF_PROG_TYPE_STRUCT_OPS:
	case BPF_PROG_TYPE_EXT:
		return true;
	default:
		return false;
	}
}

const char *kernel_unpriv_rule(const char *message)
{
	static const struct {
		const char *text, *rule;
	} rules[] = {
		{ "prohibited for !root", "Spectre v1" },
		{ "could not be pushed for speculative verification", "Spectre v1" },
		{ "leaks addr", "pointer leak" },
		{ "leaking pointer from stack", "pointer leak" },
		{ "pointer comparison prohibited", "pointer comparison" },
		{ "pointer arithmetic prohibited", "pointer arithmetic" },
		{ "pointer -= pointer prohibited", "pointer arithmetic" },
		{ "partial copy of pointer", "pointer arithmetic" },
		{ "attempt to corrupt spilled pointer", "spilled pointer" },
	};

	for (size_t k = 0; message && k < sizeof(rules) / sizeof(rules[0]); k++)
		if (strstr(message, rules[k].text))
			return rules[k].rule;
	return NULL;
}

/* Kernel object names: at most 15 characters of [A-Za-z0-9_.]. */
static void obj_name(char dst[16], const char *src)
{
	size_t i;

	for (i = 0; i < 15 && src[i]; i++)
		dst[i] = isalnum((unsigned char)src[i]) || src[i] == '.' ? src[i] : '_';
	dst[i] = '\0';
}

static int libbpf_silent(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static bool takes_packet(uint32_t type)
{
	switch (type) {
	case BPF_PROG_TYPE_SOCKET_FILTER:
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_XDP:
	case BPF_PROG_TYPE_CGROUP_SKB:
	case BPF_PROG_TYPE_LWT_IN:
	case BPF_PROG_TYPE_LWT_OUT:
	case BPF_PROG_TYPE_LWT_XMIT:
	case BPF_PROG_TYPE_LWT_SEG6LOCAL:
	case BPF_PROG_TYPE_FLOW_DISSECTOR:
		return true;
	default:
		return false;
	}
}

/* The BTF of a map whose value holds special fields (ebpf_map_def.timer, .fields), which the
 * kernel finds by their names (btf_parse_fields): the key an integer of its size (an array's:
 * u32) or bytes, the value a struct of value_size bytes with each field at its offset — "struct
 * bpf_timer { u64 __opaque[2]; }", "struct bpf_spin_lock { u32 val; }", bpf_wq, bpf_refcount, a
 * kptr as a pointer tagged kptr_untrusted, kptr, percpu_kptr or uptr to an empty struct of the
 * kernel struct's name (the kernel looks its name up in vmlinux) — and bytes around them.  The
 * ids go to *key_id / *value_id; NULL when libbpf fails or a field cannot be written so (the
 * lists and trees, which need a node type: errno EOPNOTSUPP). */
static struct btf *fields_map_btf(const struct ebpf_map_def *def, uint32_t *key_id,
				  uint32_t *value_id)
{
	struct btf *btf = btf__new_empty();
	struct ebpf_map_field f[EBPF_MAP_FIELDS + 1];
	uint32_t v = def->value_size, at = 0, n = 0;
	int u8, u32, u64, key, value, e = 0, err, pad[EBPF_MAP_FIELDS + 2];
	char fname[24];

	if (libbpf_get_error(btf))
		return NULL;
	if (def->fields_over) {
		errno = EOPNOTSUPP;
		goto fail;
	}
	for (uint8_t k = 0; k < def->nfields && k < EBPF_MAP_FIELDS; k++)
		f[n++] = def->fields[k];
	if (def->timer) {
		uint32_t k = n++;

		for (; k > 0 && f[k - 1].off > def->timer - 1; k--)
			f[k] = f[k - 1];
		memset(&f[k], 0, sizeof(f[k]));
		f[k].off = def->timer - 1;
		f[k].size = 16;
		f[k].kind = EBPF_FIELD_TIMER;
	}
	u8 = btf__add_int(btf, "unsigned char", 1, 0);
	u32 = btf__add_int(btf, "unsigned int", 4, 0);
	u64 = btf__add_int(btf, "long long unsigned int", 8, 0);
	key = def->key_size == 4 ? u32 : def->key_size == 8 ? u64
	      : btf__add_array(btf, u32, u8, def->key_size);
	/* the fields' types first, then the value's struct and its members */
	for (uint32_t k = 0; k < n && !e; k++) {
		const char *tag = NULL;
		int t;

		switch (f[k].kind) {
		case EBPF_FIELD_TIMER: case EBPF_FIELD_WQ:
			t = btf__add_array(btf, u32, u64, 2);
			e |= t < 0 || (t = btf__add_struct(btf, ebpf_field_name(f[k].kind), 16)) < 0 ||
			     btf__add_field(btf, "__opaque", t - 1, 0, 0) < 0;
			break;
		case EBPF_FIELD_SPIN_LOCK: case EBPF_FIELD_REFCOUNT:
			e |= (t = btf__add_struct(btf, ebpf_field_name(f[k].kind), 4)) < 0 ||
			     btf__add_field(btf, "val", u32, 0, 0) < 0;
			break;
		case EBPF_FIELD_KPTR_UNREF: tag = "kptr_untrusted"; break;
		case EBPF_FIELD_KPTR_REF: tag = "kptr"; break;
		case EBPF_FIELD_KPTR_PERCPU: tag = "percpu_kptr"; break;
		case EBPF_FIELD_UPTR: tag = "uptr"; break;
		default:
			errno = EOPNOTSUPP;
			goto fail;
		}
		if (tag) {
			int st = btf__add_struct(btf, f[k].obj, 0);
			int tt = st < 0 ? st : btf__add_type_tag(btf, tag, st);

			t = tt < 0 ? tt : btf__add_ptr(btf, tt);
			e |= t < 0;
		}
		f[k].size = f[k].size ? f[k].size : 8;
		f[k].obj[0] = '\0';
		/* (the field's type id, kept in off's place until the members are added) */
		memcpy(f[k].obj, &t, sizeof(t));
	}
	/* the pads' array types, then the value's struct and its members (btf__add_field adds
	 * to the type added last) */
	for (uint32_t k = 0; k <= n && !e; k++) {
		uint32_t end = k < n ? f[k].off : v;

		if (end < at || (k < n && f[k].off + f[k].size > v)) {
			errno = EINVAL;
			goto fail;
		}
		pad[k] = end > at ? btf__add_array(btf, u32, u8, end - at) : 0;
		e |= pad[k] < 0;
		at = k < n ? f[k].off + f[k].size : at;
	}
	value = e ? -1 : btf__add_struct(btf, "bpfscev_fields_value", v);
	e |= u8 < 0 || u32 < 0 || u64 < 0 || key < 0 || value < 0;
	at = 0;
	for (uint32_t k = 0; k <= n && !e; k++) {
		int t;

		if (pad[k]) {
			snprintf(fname, sizeof(fname), "pad%u", k);
			e |= btf__add_field(btf, fname, pad[k], at * 8, 0) < 0;
		}
		if (k == n)
			break;
		memcpy(&t, f[k].obj, sizeof(t));
		snprintf(fname, sizeof(fname), "f%u", k);
		e |= btf__add_field(btf, fname, t, f[k].off * 8, 0) < 0;
		at = f[k].off + f[k].size;
	}
	if (e || btf__load_into_kernel(btf))
		goto fail;
	*key_id = (uint32_t)key;
	*value_id = (uint32_t)value;
	return btf;
fail:
	err = errno ? errno : EINVAL;
	btf__free(btf);
	errno = err;
	return NULL;
}

/* libbpf_probe_bpf_helper's answer 1 confirmed as libbpf since 1.3 reads the log: the
 * installed libbpf may read only "invalid func" and "unknown func", and answers 1 where the
 * kernel says "program of this type cannot use helper" (bpf_xdp_adjust_meta for XDP here).  The
 * same load as its probe_prog_load: `call id; exit`, GPL, the attach type it gives the types that
 * need one. */
static int helper_probe_confirm(uint32_t prog_type, int32_t id)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_JMP | BPF_CALL, .imm = id },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	char *log = malloc(4096);
	LIBBPF_OPTS(bpf_prog_load_opts, o, .log_buf = log, .log_size = 4096, .log_level = 1);
	int fd;

	if (!log)
		return -ENOMEM;
	log[0] = '\0';
	switch (prog_type) {
	case BPF_PROG_TYPE_CGROUP_SOCK_ADDR: o.expected_attach_type = BPF_CGROUP_INET4_CONNECT; break;
	case BPF_PROG_TYPE_CGROUP_SOCKOPT: o.expected_attach_type = BPF_CGROUP_GETSOCKOPT; break;
	case BPF_PROG_TYPE_SK_LOOKUP: o.expected_attach_type = BPF_SK_LOOKUP; break;
	case BPF_PROG_TYPE_LIRC_MODE2: o.expected_attach_type = BPF_LIRC_MODE2; break;
	case BPF_PROG_TYPE_SYSCALL: o.prog_flags = BPF_F_SLEEPABLE; break;
	default: break;
	}
	fd = bpf_prog_load((enum bpf_prog_type)prog_type, NULL, "GPL", insns, 2, &o);
	if (fd >= 0)
		close(fd);
	fd = fd < 0 && strstr(log, "program of this type cannot use helper ") ? 0 : 1;
	free(log);
	return fd;
}

int kernel_helper_offered(uint32_t prog_type, int32_t id)
{
	/* (0: not asked yet; else the answer + 1, or -errno - 1 + 256 kept as a negative) */
	static int16_t cache[64][512];
	int16_t c;
	int rc;

	if (prog_type >= 64 || id <= 0 || id >= 512)
		return -EINVAL;
	c = __atomic_load_n(&cache[prog_type][id], __ATOMIC_RELAXED);
	if (c)
		return c > 0 ? c - 1 : c;
	if (!kernel_available(NULL, 0))
		return -EPERM;
	{
		libbpf_print_fn_t old = libbpf_set_print(NULL);

		rc = libbpf_probe_bpf_helper((enum bpf_prog_type)prog_type, (enum bpf_func_id)id,
					     NULL);
		libbpf_set_print(old);
	}
	if (rc == 1)
		rc = helper_probe_confirm(prog_type, id);
	if (rc < -32767)
		rc = -EINVAL;
	__atomic_store_n(&cache[prog_type][id], (int16_t)(rc >= 0 ? (rc > 0) + 1 : rc),
			 __ATOMIC_RELAXED);
	return rc >= 0 ? rc > 0 : rc;
}

/* Creates one map as libbpf would, fills global data and freezes .rodata (the verifier reads
 * constants only from frozen read-only maps). */
static int create_map(const struct ebpf_map_def *def, const struct ebpf_map_def *inner_def,
		      int *out, struct diag *d)
{
	LIBBPF_OPTS(bpf_map_create_opts, mo, .map_flags = def->flags);
	uint32_t key = def->key_size, value = def->value_size, max = def->max_entries;
	int inner = -1, fd, err = 0;
	struct btf *btf = NULL;
	char name[16];

	*out = -1;
	/* (a socket storage: the kernel wants BTF of its key and value, no preallocation and 0
	 * entries, bpf_local_storage_map_alloc_check) */
	if (def->type == BPF_MAP_TYPE_SK_STORAGE)
		mo.map_flags |= BPF_F_NO_PREALLOC;
	if (def->timer || def->nfields || def->fields_over || def->type == BPF_MAP_TYPE_SK_STORAGE) {
		btf = fields_map_btf(def, &mo.btf_key_type_id, &mo.btf_value_type_id);
		if (!btf)
			return diag_set(d, errno, "map '%s': cannot load the BTF of its value's "
					"special fields (bpf_timer, bpf_spin_lock, kptrs): %s",
					def->name, strerror(errno));
		mo.btf_fd = (uint32_t)btf__fd(btf);
	}
	if (def->type == BPF_MAP_TYPE_ARRAY_OF_MAPS || def->type == BPF_MAP_TYPE_HASH_OF_MAPS) {
		/* The inner map's definition (the template every inner map must match, which is
		 * what the verifier assumes for lookups in it), or when the object does not say,
		 * an array of 4-byte values standing in. */
		LIBBPF_OPTS(bpf_map_create_opts, io, .map_flags = inner_def ? inner_def->flags : 0);

		inner = inner_def ? bpf_map_create(inner_def->type, "bpfscev_inner",
						   inner_def->key_size, inner_def->value_size,
						   inner_def->max_entries, &io)
				  : bpf_map_create(BPF_MAP_TYPE_ARRAY, "bpfscev_inner", 4, 4, 1, NULL);
		if (inner < 0)
			return diag_set(d, -inner, "map '%s': cannot create %s inner map: %s",
					def->name, inner_def ? "its" : "a stand-in", strerror(-inner));
		mo.inner_map_fd = inner;
		if (!value)
			value = 4;	/* an id; legacy definitions often leave it 0 */
	}
	/* What loaders fix up: BTF definitions name a record type for ring buffers and perf
	 * buffers (for code generators), but the kernel wants sizes 0 and 4 there. */
	if (def->type == BPF_MAP_TYPE_RINGBUF || def->type == BPF_MAP_TYPE_USER_RINGBUF)
		key = value = 0;
	if (def->type == BPF_MAP_TYPE_PERF_EVENT_ARRAY) {
		int cpus = libbpf_num_possible_cpus();

		key = value = 4;
		if (max == 0)
			max = cpus > 0 ? (uint32_t)cpus : 1;	/* libbpf's default */
	}
	obj_name(name, def->name);
	fd = bpf_map_create(def->type, name, key, value, max, &mo);
	if (fd < 0) {
		err = diag_set(d, -fd, "map '%s' (type %u, key %u, value %u, %u entries, flags 0x%x): "
			       "the kernel refuses to create it: %s", def->name, def->type, key,
			       value, max, def->flags, strerror(-fd));
		goto out;
	}
	if (def->init) {
		uint32_t zero = 0;

		err = bpf_map_update_elem(fd, &zero, def->init, 0);
		if (!err && (def->flags & BPF_F_RDONLY_PROG))
			err = bpf_map_freeze(fd);
		if (err) {
			err = diag_set(d, -err, "map '%s': cannot set its initial contents: %s",
				       def->name, strerror(-err));
			close(fd);
			goto out;
		}
	}
	*out = fd;
out:
	if (inner >= 0)
		close(inner);
	btf__free(btf);	/* (the map holds the kernel's BTF object) */
	return err;
}

static bool has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* Lines that trace the verifier's walk rather than state a conclusion: instruction and state
 * lines ("12: (07) r1 += 1", "12: R1=..."), branch pops, pruning, SCC and liveness notes,
 * precision backtracking, the live-registers table and the statistics. */
static bool is_trace_line(const char *line, size_t len)
{
	static const char *const prefixes[] = {
		"from ", "SCC ", "(", "Live regs", "func#", "mark_precise", "last_idx", "regs=",
		"parent ", "propagating", "cur state", "stack depth ", "verification time ",
		"processed ", "checking ", "frame", "Func#", "old state",
	};

	if (len == 0 || line[0] == ' ' || line[0] == '\t' || (line[0] >= '0' && line[0] <= '9'))
		return true;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (has_prefix(line, prefixes[i]))
			return true;
	return false;
}

/* Fills the statistics, and for a rejection the message, from the log. */
static void parse_log(struct kernel_prog *kp)
{
	const char *line = kp->log, *meaningful = NULL;
	size_t mlen = 0;

	while (line && *line) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		long a, b, c, e, f, g;

		/* sscanf measures its whole input: test the prefix first, or a 100 MB log takes
		 * quadratic time */
		if (has_prefix(line, "processed ") &&
		    sscanf(line, "processed %ld insns (limit %ld) max_states_per_insn %ld "
			   "total_states %ld peak_states %ld mark_read %ld", &a, &b, &c, &e, &f,
			   &g) >= 5) {
			kp->processed = a;
			kp->max_states_per_insn = c;
			kp->total_states = e;
			kp->peak_states = f;
		} else if (has_prefix(line, "verification time ") &&
			   sscanf(line, "verification time %ld usec", &a) == 1) {
			kp->verification_usec = a;
		} else if (!is_trace_line(line, len)) {
			meaningful = line;
			mlen = len;
		}
		line = eol ? eol + 1 : NULL;
	}
	if (kp->accepted)
		kp->message[0] = '\0';
	else if (meaningful)
		snprintf(kp->message, sizeof(kp->message), "%.*s", (int)mlen, meaningful);
	else
		snprintf(kp->message, sizeof(kp->message), "%s (nothing in the verifier log)",
			 strerror(kp->err));
	kp->log_silent = !kp->accepted && !meaningful;
}

/* The BTF the kernel demands of a program that takes a function's address (a bpf_loop callback
 * without it: "missing btf func_info") or that has global functions: one FUNC per function,
 * "int fPC(void)" and static for the program and its static subprograms — a static function's
 * prototype only marks its arguments unreliable when it does not match — and for a global one
 * (ebpf_prog.globals) its name, global linkage and its prototype rebuilt from what the object's
 * BTF said of it (integers of their sizes, pointers to structs of their names and sizes), which
 * is all btf_prepare_func_args reads.  Without either, no BTF: every subprogram is static. */
struct func_btf {
	struct btf *btf;
	struct bpf_func_info *info;
	uint32_t cnt;
};

static void func_btf__free(struct func_btf *fb)
{
	btf__free(fb->btf);
	free(fb->info);
	memset(fb, 0, sizeof(*fb));
}

static bool is_func_addr(const struct bpf_insn *i)
{
	return ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC;
}

static bool section_sleepable(const char *sec)
{
	const char *p = strstr(sec, ".s");

	return p && p > sec && (p[2] == '/' || p[2] == '\0');
}

/* An instruction the kernel allows in a program of several functions only when each function
 * has its BTF ("tail_call is not allowed in subprogs without BTF", "LD_ABS is not allowed in
 * subprogs without BTF": check_btf_info_early and check_subprogs). */
static bool needs_func_btf_with_calls(const struct bpf_insn *i)
{
	uint8_t mode = BPF_MODE(i->code);

	return (ebpf_is_helper_call(i) && i->imm == BPF_FUNC_tail_call) ||
	       (BPF_CLASS(i->code) == BPF_LD && (mode == BPF_ABS || mode == BPF_IND));
}

/* A type of a global function's prototype; 0 (void) for a result of no type. */
static int func_btf_type(struct btf *btf, const struct ebpf_func_arg *a)
{
	static const char *const ints[] = { "u8", "u16", "u32", "u64" };
	int id;

	switch (a->kind) {
	case EBPF_FARG_INT:
		for (unsigned k = 0; k < 4; k++)
			if (a->size == 1u << k)
				return btf__add_int(btf, ints[k], (size_t)a->size, 0);
		return btf__add_int(btf, "u128", 16, 0);
	case EBPF_FARG_PTR:
		if (a->tname[0]) {
			id = btf__add_struct(btf, a->tname, a->size);
		} else {	/* size bytes: an array of u8 */
			id = btf__add_int(btf, "u8", 1, 0);
			id = id < 0 ? id : btf__add_array(btf, id, id, a->size);
		}
		return id < 0 ? id : btf__add_ptr(btf, id);
	case EBPF_FARG_PTR_NOSIZE:
		return btf__add_ptr(btf, 0);
	default:
		return -EINVAL;
	}
}

static int func_btf__add_global(struct btf *btf, const struct ebpf_global_func *g, int int_id)
{
	int proto, t[5];

	if (g->nargs > 5 || g->tagged || g->ret == EBPF_FARG_OTHER)
		return -EINVAL;
	for (int k = 0; k < g->nargs; k++)
		if ((t[k] = func_btf_type(btf, &g->args[k])) < 0)
			return t[k];
	proto = btf__add_func_proto(btf, g->ret == EBPF_FARG_PTR_NOSIZE ? 0 : int_id);
	for (int k = 0; proto > 0 && k < g->nargs; k++) {
		char an[8];
		int e;

		snprintf(an, sizeof(an), "a%d", k);
		if ((e = btf__add_func_param(btf, an, t[k])) < 0)
			return e;
	}
	return proto < 0 ? proto : btf__add_func(btf, g->name, BTF_FUNC_GLOBAL, proto);
}

static int func_btf__build(struct func_btf *fb, const struct ebpf_prog *prog,
			   const struct bpf_insn *insns, size_t len, struct diag *d)
{
	libbpf_print_fn_t old;
	uint8_t *start;
	bool need = prog->global_cnt > 0, calls = false, btf_insn = false;
	int ret, proto, err = 0;

	memset(fb, 0, sizeof(*fb));
	for (size_t pc = 0; pc < len; pc += ebpf_insn_slots(&insns[pc])) {
		need = need || is_func_addr(&insns[pc]);
		calls = calls || ebpf_is_pseudo_call(&insns[pc]);
		btf_insn = btf_insn || needs_func_btf_with_calls(&insns[pc]);
	}
	need = need || (calls && btf_insn);
	if (!need)
		return 0;
	start = calloc(len, 1);
	fb->info = calloc(len, sizeof(*fb->info));
	fb->btf = btf__new_empty();
	if (!start || !fb->info || libbpf_get_error(fb->btf)) {
		fb->btf = NULL;
		err = diag_set(d, ENOMEM, "out of memory");
		goto out;
	}
	start[0] = 1;
	if (ebpf_prog_exc_cb(prog) && ebpf_prog_exc_cb(prog)->insn < len)
		start[ebpf_prog_exc_cb(prog)->insn] = 1;	/* (its own subprogram) */
	for (size_t pc = 0; pc < len; pc += ebpf_insn_slots(&insns[pc]))
		if (ebpf_is_pseudo_call(&insns[pc]) || is_func_addr(&insns[pc]))
			start[pc + 1 + (size_t)(long)insns[pc].imm] = 1;	/* validated */
	ret = btf__add_int(fb->btf, "int", 4, BTF_INT_SIGNED);
	proto = ret < 0 ? ret : btf__add_func_proto(fb->btf, ret);
	for (size_t pc = 0; proto > 0 && pc < len; pc++) {
		const struct ebpf_global_func *g = pc ? ebpf_prog_global(prog, pc) : NULL;
		char fname[32];
		int id;

		if (!start[pc])
			continue;
		snprintf(fname, sizeof(fname), "f%zu", pc);
		id = g ? func_btf__add_global(fb->btf, g, ret)
		       : btf__add_func(fb->btf, fname, BTF_FUNC_STATIC, proto);
		if (id < 0) {
			proto = id;
			break;
		}
		fb->info[fb->cnt++] = (struct bpf_func_info){ .insn_off = (uint32_t)pc,
							      .type_id = (uint32_t)id };
		/* the exception callback: main's decl tag names it, as the object's BTF does */
		if (g && g->exc_cb) {
			char tag[96];

			snprintf(tag, sizeof(tag), "exception_callback:%s", g->name);
			if ((id = btf__add_decl_tag(fb->btf, tag, (int)fb->info[0].type_id, -1)) < 0) {
				proto = id;
				break;
			}
		}
	}
	if (proto < 0) {
		err = diag_set(d, -proto, "cannot build the BTF of the program's functions: %s",
			       strerror(-proto));
		goto out;
	}
	old = libbpf_set_print(libbpf_silent);
	ret = btf__load_into_kernel(fb->btf);
	libbpf_set_print(old);
	if (ret)
		err = diag_set(d, -ret, "the kernel refuses the BTF of the program's functions "
			       "(needed for callbacks and global functions): %s", strerror(-ret));
out:
	free(start);
	if (err)
		func_btf__free(fb);
	return err;
}

/* BPF_PROG_LOAD's attributes up to log_true_size (Linux 6.4: the log size the whole log needs,
 * written back by the kernel), which the installed uapi header and libbpf may predate: the u32
 * follows core_relo_rec_size.  A kernel that does not know it ignores the zero it reads. */
#define ATTR_LOG_TRUE_SIZE (offsetof(union bpf_attr, core_relo_rec_size) + sizeof(uint32_t))
union load_attr {
	union bpf_attr attr;
	uint8_t raw[ATTR_LOG_TRUE_SIZE + sizeof(uint32_t)];
};

/* One BPF_PROG_LOAD: the fd or -errno; *need receives log_true_size (0 when the kernel does not
 * report it).  The syscall directly, since libbpf before 1.2 does not pass log_true_size back. */
static int load_once(struct kernel_prog *kp, const struct bpf_insn *insns, size_t len,
		     const char *name, uint32_t flags, uint32_t level, char *buf, size_t size,
		     size_t *need, const struct func_btf *fb)
{
	static const char license[] = "GPL";
	union load_attr a;
	uint32_t ts;
	int fd, tries = 5;

	memset(&a, 0, sizeof(a));
	a.attr.prog_type = kp->prog_type;
	a.attr.insn_cnt = (uint32_t)len;
	a.attr.insns = (uint64_t)(uintptr_t)insns;
	a.attr.license = (uint64_t)(uintptr_t)license;
	a.attr.log_level = level;
	a.attr.log_size = (uint32_t)size;
	a.attr.log_buf = (uint64_t)(uintptr_t)buf;
	a.attr.prog_flags = flags;
	a.attr.expected_attach_type = kp->attach_type;
	a.attr.attach_btf_id = kp->attach_btf_id;
	snprintf(a.attr.prog_name, sizeof(a.attr.prog_name), "%s", name);
	if (fb->btf) {
		a.attr.prog_btf_fd = (uint32_t)btf__fd(fb->btf);
		a.attr.func_info_rec_size = sizeof(*fb->info);
		a.attr.func_info = (uint64_t)(uintptr_t)fb->info;
		a.attr.func_info_cnt = fb->cnt;
	}
	buf[0] = '\0';
	do {	/* as libbpf does: EAGAIN is a transient failure to allocate */
		fd = (int)syscall(__NR_bpf, BPF_PROG_LOAD, &a, sizeof(a));
	} while (fd < 0 && errno == EAGAIN && --tries);
	if (fd < 0)
		fd = -errno;
	memcpy(&ts, a.raw + ATTR_LOG_TRUE_SIZE, sizeof(ts));
	*need = ts;
	return fd;
}

/* load_once's arguments, for the unprivileged loader's thread. */
struct load_args {
	struct kernel_prog *kp;
	const struct bpf_insn *insns;
	size_t len;
	const char *name;
	uint32_t flags, level;
	char *buf;
	size_t size, *need;
	const struct func_btf *fb;
	int fd;
};

static int load_thread(void *arg)
{
	struct load_args *a = arg;

	a->fd = load_once(a->kp, a->insns, a->len, a->name, a->flags, a->level, a->buf, a->size,
			  a->need, a->fb);
	return 0;
}

/* load_once, as root or (unpriv) by the unprivileged loader: 0 with *fd the fd or -errno of the
 * load; -errno with d set when the unprivileged loader could not be made. */
static int load_as(bool unpriv, int *fd, struct kernel_prog *kp, const struct bpf_insn *insns,
		   size_t len, const char *name, uint32_t flags, uint32_t level, char *buf,
		   size_t size, size_t *need, const struct func_btf *fb, struct diag *d)
{
	struct load_args a = { kp, insns, len, name, flags, level, buf, size, need, fb, -1 };
	int err;

	if (!unpriv) {
		*fd = load_once(kp, insns, len, name, flags, level, buf, size, need, fb);
		return 0;
	}
	*need = 0;
	buf[0] = '\0';
	if ((err = kernel_unpriv_call(load_thread, &a, d)))
		return err;
	*fd = a.fd;
	return 0;
}

int kernel_prog__load(struct kernel_prog **out, const struct ebpf_object *obj,
		      const struct ebpf_prog *prog, const struct kernel_prog_opts *opts,
		      struct diag *d)
{
	uint32_t level = OPT(opts, log_level, BPF_LOG_LEVEL2 | BPF_LOG_STATS);
	uint32_t flags = OPT(opts, prog_flags, 0);
	bool unpriv = OPT(opts, unprivileged, false);
	size_t size = OPT(opts, log_size, level & (BPF_LOG_LEVEL1 | BPF_LOG_LEVEL2) ? LOG_FIRST
									     : LOG_STATS_FIRST);
	size_t max = OPT(opts, log_max, LOG_MAX);
	struct kernel_prog *kp = NULL;
	struct bpf_insn *insns = NULL;
	struct func_btf fb = { 0 };
	int *fds = NULL, fd, err = 0;
	char name[16], *buf = NULL;
	const char *env;

	*out = NULL;
	if (!prog || !prog->len)
		return diag_set(d, EINVAL, "no program to load");
	if ((env = disabled_by_env()))
		return diag_set(d, EPERM, "bpf() refused: BPFSCEV_NO_KERNEL=%s is set", env);
	if (max > LOG_KERNEL_CAP)
		max = LOG_KERNEL_CAP;
	if (size < 4096)
		size = 4096;
	if (size > max)
		size = max;
	kp = calloc(1, sizeof(*kp));
	insns = malloc(prog->len * sizeof(*insns));
	fds = malloc((obj && obj->map_cnt ? obj->map_cnt : 1) * sizeof(*fds));
	if (!kp || !insns || !fds) {
		err = diag_set(d, ENOMEM, "out of memory");
		goto out;
	}
	kp->fd = -1;
	kp->processed = kp->max_states_per_insn = kp->total_states = kp->peak_states = -1;
	kp->verification_usec = -1;
	for (size_t i = 0; obj && i < obj->map_cnt; i++)
		fds[i] = -1;

	/* Maps: only those the program references, so an exotic unused map cannot block it. */
	memcpy(insns, prog->insns, prog->len * sizeof(*insns));
	for (size_t pc = 0; pc < prog->len; pc++) {
		struct bpf_insn *i = &insns[pc];
		int32_t m = i->imm;

		if (!ebpf_is_ldimm64(i))
			continue;
		if (i->src_reg == BPF_PSEUDO_MAP_FD || i->src_reg == BPF_PSEUDO_MAP_VALUE) {
			if (!obj || m < 0 || (size_t)m >= obj->map_cnt) {
				err = diag_at_insn(d, EINVAL, (long)pc, "map index %d, but the object "
						   "has %zu maps", m, obj ? obj->map_cnt : 0);
				goto out;
			}
			if (fds[m] < 0 &&
			    (err = create_map(&obj->maps[m], obj->maps[m].inner &&
					      obj->maps[m].inner <= obj->map_cnt
					      ? &obj->maps[obj->maps[m].inner - 1] : NULL,
					      &fds[m], d)))
				goto out;
			i->imm = fds[m];
		}
		pc++;
	}

	kp->prog_type = OPT(opts, prog_type, prog->prog_type);
	if (kp->prog_type == BPF_PROG_TYPE_UNSPEC)
		kp->prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	if (!OPT(opts, prog_type, 0) && prog->section[0]) {
		/* cgroup/connect4 and friends need the attach type the section names */
		enum bpf_prog_type t;
		enum bpf_attach_type a;
		libbpf_print_fn_t old = libbpf_set_print(libbpf_silent);

		if (!libbpf_prog_type_by_name(prog->section, &t, &a) && t == kp->prog_type)
			kp->attach_type = a;
		libbpf_set_print(old);
	}
	/* (an sk_lookup program has one attach type, which bpf_prog_load_check_attach demands;
	 * a case file's program names no section) */
	if (kp->prog_type == BPF_PROG_TYPE_SK_LOOKUP)
		kp->attach_type = BPF_SK_LOOKUP;
	if (ebpf_prog_type_btf_ctx(kp->prog_type) && prog->btf_ctx.attach_btf_id) {
		/* fentry/fexit/fmod_ret/tp_btf/lsm: the target in vmlinux BTF (attach_btf_obj_fd 0) */
		kp->attach_type = prog->btf_ctx.attach_type;
		kp->attach_btf_id = (uint32_t)prog->btf_ctx.attach_btf_id;
	}
	/* sleepable as libbpf loads it: a syscall program must be ("Syscall programs can only be
	 * sleepable"), and a section spelled "fentry.s/...", "lsm.s/...", "uprobe.s" asks to be —
	 * where this load has the target such a program needs (else the kernel's refusal would
	 * name the flag, not the missing target) */
	if (kp->prog_type == BPF_PROG_TYPE_SYSCALL ||
	    (section_sleepable(prog->section) &&
	     (kp->prog_type == BPF_PROG_TYPE_KPROBE ||
	      ((kp->prog_type == BPF_PROG_TYPE_TRACING || kp->prog_type == BPF_PROG_TYPE_LSM) &&
	       kp->attach_btf_id))))
		flags |= BPF_F_SLEEPABLE;
	obj_name(name, prog->name);
	if ((err = func_btf__build(&fb, prog, insns, prog->len, d)))
		goto out;

	for (;;) {
		size_t need;

		/* not realloc: the old log is not wanted, and copying it costs its size again */
		free(buf);
		if (!(buf = malloc(size))) {
			err = diag_set(d, ENOMEM, "out of memory for a %zu-byte verifier log", size);
			goto out;
		}
		if ((err = load_as(unpriv, &fd, kp, insns, prog->len, name, flags, level, buf, size,
				   &need, &fb, d)))
			goto out;
		if (fd != -ENOSPC || size >= max)
			break;
		/* Every attempt verifies and logs the whole program again (a walk to the
		 * million-instruction limit formats hundreds of MB at level 2): size the one
		 * reload from the kernel's count, or keep the tail when even that is too large.
		 * Kernels before 6.4 do not count: grow fast. */
		if (need > size && need <= max)
			size = need + LOG_SLACK > max ? max : need + LOG_SLACK;
		else if (need)
			break;
		else
			size = size * 4 > max ? max : size * 4;
	}
	buf[size - 1] = '\0';
	if (fd == -ENOSPC && level != BPF_LOG_STATS) {
		/* Even log_max was too small: keep the tail we have (the kernel's log rotates,
		 * so the tail holds the message), and ask again for the verdict (ENOSPC hides it)
		 * and the statistics only. */
		char *stats = malloc(LOG_STATS_SIZE);
		size_t need;

		if (!stats) {
			err = diag_set(d, ENOMEM, "out of memory");
			goto out;
		}
		kp->log_truncated = true;
		if ((err = load_as(unpriv, &fd, kp, insns, prog->len, name, flags, BPF_LOG_STATS,
				   stats, LOG_STATS_SIZE, &need, &fb, d))) {
			free(stats);
			goto out;
		}
		stats[LOG_STATS_SIZE - 1] = '\0';
		kp->fd = fd;
		kp->accepted = fd >= 0;
		kp->err = fd < 0 ? -fd : 0;
		kp->log = stats;
		parse_log(kp);	/* verdict and statistics from the short log */
		kp->log = NULL;
		free(stats);
	} else {
		kp->fd = fd;
		kp->accepted = fd >= 0;
		kp->err = fd < 0 ? -fd : 0;
	}
	if (kp->fd < 0)
		kp->fd = -1;
	kp->log_len = strlen(buf);
	{
		char *shrunk = realloc(buf, kp->log_len + 1);	/* give back the unused buffer */

		kp->log = shrunk ? shrunk : buf;
	}
	buf = NULL;
	if (!kp->log_truncated)
		parse_log(kp);
	else if (!kp->message[0])
		snprintf(kp->message, sizeof(kp->message), "%s", strerror(kp->err));
out:
	func_btf__free(&fb);
	if (!err && kp && kp->fd >= 0 && obj && obj->map_cnt) {
		kp->map_fds = fds;	/* the program's maps stay open with it */
		kp->map_cnt = obj->map_cnt;
		fds = NULL;
	}
	for (size_t i = 0; obj && fds && i < obj->map_cnt; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
	free(insns);
	free(buf);
	if (err) {
		kernel_prog__free(kp);
		return err;
	}
	*out = kp;
	return 0;
}

void kernel_prog__free(struct kernel_prog *kp)
{
	if (!kp)
		return;
	if (kp->fd >= 0)
		close(kp->fd);
	for (size_t i = 0; i < kp->map_cnt; i++)
		if (kp->map_fds[i] >= 0)
			close(kp->map_fds[i]);
	free(kp->map_fds);
	free(kp->log);
	free(kp);
}

int kernel_prog__test_run(const struct kernel_prog *kp, const struct kernel_run_opts *opts,
			  struct kernel_run_result *res, struct diag *d)
{
	static const uint8_t zero_packet[64];
	uint8_t sk_ctx[72];
	LIBBPF_OPTS(bpf_test_run_opts, to);
	int err;

	if (!kp || !res)
		return diag_set(d, EINVAL, "no program or no result");
	memset(res, 0, sizeof(*res));
	if (!kp->accepted || kp->fd < 0)
		return diag_set(d, EINVAL, "the program was rejected: nothing to run");
	to.data_in = OPT(opts, data_in, NULL);
	to.data_size_in = (uint32_t)OPT(opts, data_size_in, 0);
	to.ctx_in = OPT(opts, ctx_in, NULL);
	to.ctx_size_in = (uint32_t)OPT(opts, ctx_size_in, 0);
	to.data_out = OPT(opts, data_out, NULL);
	to.data_size_out = (uint32_t)OPT(opts, data_size_out, 0);
	to.ctx_out = OPT(opts, ctx_out, NULL);
	to.ctx_size_out = (uint32_t)OPT(opts, ctx_size_out, 0);
	to.repeat = OPT(opts, repeat, 1);
	/* (bpf_prog_test_run_raw_tp runs the program once and refuses a repeat count, data and
	 * ctx_out with -EINVAL: raw tracepoint programs are run with their arguments, ctx_in) */
	if (kp->prog_type == BPF_PROG_TYPE_RAW_TRACEPOINT ||
	    kp->prog_type == BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE) {
		to.repeat = 0;
		to.data_out = to.ctx_out = NULL;
		to.data_size_out = to.ctx_size_out = 0;
	}
	/* bpf_prog_test_run_sk_lookup takes a struct bpf_sk_lookup alone (no data, no repeat
	 * limits): sk 0, AF_INET or AF_INET6, local_port a u16, nothing past it; the context made
	 * of the input, as the interpreter reads it (interp_sk_lookup_test_ctx) */
	if (kp->prog_type == BPF_PROG_TYPE_SK_LOOKUP) {
		interp_sk_lookup_test_ctx(sk_ctx, to.ctx_in, to.ctx_in ? to.ctx_size_in : 0);
		to.ctx_in = sk_ctx;
		to.ctx_size_in = sizeof(sk_ctx);
		to.data_in = to.data_out = NULL;
		to.data_size_in = to.data_size_out = 0;
		to.ctx_out = NULL;
		to.ctx_size_out = 0;
	}
	if (!to.data_in && takes_packet(kp->prog_type)) {
		to.data_in = zero_packet;
		to.data_size_in = sizeof(zero_packet);
	}
	err = bpf_prog_test_run_opts(kp->fd, &to);
	if (err)
		return diag_set(d, -err, "BPF_PROG_TEST_RUN (program type %u, %u bytes of data, %u of "
				"context): %s", kp->prog_type, to.data_size_in, to.ctx_size_in,
				errstr(-err));
	res->retval = to.retval;
	res->duration_ns = to.duration;
	res->data_size_out = to.data_size_out;
	res->ctx_size_out = to.ctx_size_out;
	return 0;
}
