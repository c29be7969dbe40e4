/* Opening programs from files: format detection, assembly text, raw bytes.  See prog.h. */
#include "bpf/prog.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/asm.h"
#include "util/file.h"

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Text is any input made of printable ASCII, tabs, newlines and UTF-8 bytes, without NUL. */
static bool looks_like_text(const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		uint8_t c = p[i];

		if (c == 0 || (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f'))
			return false;
	}
	return true;
}

int ebpf_parse_hex(uint8_t **out, size_t *len, const char *text, struct diag *d)
{
	size_t cap = strlen(text) / 2 + 1, n = 0;
	uint8_t *buf = malloc(cap);
	int line = 1, col = 1;
	const char *s = text;

	if (!buf)
		return diag_set(d, ENOMEM, "out of memory");
	while (*s) {
		int hi, lo;

		if (*s == '\n') {
			line++;
			col = 1;
			s++;
			continue;
		}
		if (*s == ' ' || *s == '\t' || *s == ',' || *s == '\r') {
			s++;
			col++;
			continue;
		}
		if (*s == '#') {	/* comment to end of line */
			while (*s && *s != '\n')
				s++;
			continue;
		}
		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
			s += 2;
			col += 2;
		}
#define HEXV(c) ((c) >= '0' && (c) <= '9' ? (c) - '0' : (c) >= 'a' && (c) <= 'f' ? (c) - 'a' + 10 : \
		 (c) >= 'A' && (c) <= 'F' ? (c) - 'A' + 10 : -1)
		hi = HEXV(s[0]);
		lo = hi >= 0 ? HEXV(s[1]) : -1;
#undef HEXV
		if (hi < 0 || lo < 0) {
			free(buf);
			return diag_at_line(d, EINVAL, line, hi < 0 ? col : col + 1,
					    "expected a pair of hex digits");
		}
		buf[n++] = (uint8_t)(hi * 16 + lo);
		s += 2;
		col += 2;
	}
	*out = buf;
	*len = n;
	return 0;
}

static int object_alloc(struct ebpf_object **out, const char *name, enum ebpf_format fmt,
			struct diag *d)
{
	struct ebpf_object *o = calloc(1, sizeof(*o));

	if (!o)
		return diag_set(d, ENOMEM, "out of memory");
	snprintf(o->path, sizeof(o->path), "%s", name ? name : "<input>");
	o->format = fmt;
	*out = o;
	return 0;
}

static int add_single_prog(struct ebpf_object *o, struct bpf_insn *insns, size_t len,
			   uint32_t *lines, const char *name, bool keep_defect, struct diag *d)
{
	struct ebpf_prog *p = calloc(1, sizeof(*p));
	int err;

	if (!p) {
		free(insns);
		free(lines);
		return diag_set(d, ENOMEM, "out of memory");
	}
	p->insns = insns;
	p->len = len;
	p->lines = lines;
	snprintf(p->name, sizeof(p->name), "%s", name);
	o->progs = p;
	o->prog_cnt = 1;
	err = keep_defect ? ebpf_validate_encoding(insns, len, d) : ebpf_validate(insns, len, d);
	if (!err && keep_defect) {
		struct diag why;

		/* kept, for verify to call unsafe; the other stages refuse it (prog.h) */
		diag_clear(&why);
		if (ebpf_validate(insns, len, &why)) {
			p->defect_insn = why.insn;
			snprintf(p->defect, sizeof(p->defect), "%.*s", (int)sizeof(p->defect) - 1,
				 why.msg);
		}
	}
	if (err && d && lines && d->insn >= 0 && (size_t)d->insn < len && lines[d->insn])
		d->line = (int)lines[d->insn];
	return err;
}

/* Program name for text and raw input: the file name without directory and extension. */
static void prog_name_from(char *dst, size_t n, const char *name)
{
	const char *b = base_name(name ? name : "prog");
	const char *dot = strrchr(b, '.');
	size_t l = dot && dot != b ? (size_t)(dot - b) : strlen(b);

	if (l >= n)
		l = n - 1;
	memcpy(dst, b, l);
	dst[l] = '\0';
	if (!dst[0])
		snprintf(dst, n, "prog");
}

/* Assembly text: one program, named after the file; first_line is the line of text[0]. */
static int open_text(struct ebpf_object *o, const char *text, size_t len, int first_line,
		     struct diag *d)
{
	struct bpf_insn *insns = NULL;
	struct ebpf_global_func *globals = NULL;
	uint32_t *lines = NULL;
	size_t n = 0, ng = 0;
	char pname[128];
	int err;

	err = ebpf_asm_globals(&insns, &n, &lines, &globals, &ng, text, len, first_line, d);
	if (err)
		return err;
	prog_name_from(pname, sizeof(pname), o->path);
	err = add_single_prog(o, insns, n, lines, pname, true, d);
	if (o->progs) {
		o->progs[0].globals = globals;
		o->progs[0].global_cnt = ng;
	} else {
		free(globals);
	}
	return err;
}

static int open_raw(struct ebpf_object *o, const uint8_t *data, size_t len, struct diag *d)
{
	struct bpf_insn *insns;
	char pname[128];

	if (len == 0)
		return diag_set(d, EINVAL, "empty input");
	if (len % sizeof(struct bpf_insn)) {
		if (d)
			d->offset = (long)(len - len % sizeof(struct bpf_insn));
		return diag_set(d, EINVAL,
				"raw program size %zu is not a multiple of 8 (and the input is "
				"neither text nor ELF)", len);
	}
	insns = malloc(len);
	if (!insns)
		return diag_set(d, ENOMEM, "out of memory");
	memcpy(insns, data, len);
	prog_name_from(pname, sizeof(pname), o->path);
	return add_single_prog(o, insns, len / sizeof(struct bpf_insn), NULL, pname, true, d);
}

enum ebpf_format ebpf_format_of(const void *data, size_t len)
{
	const uint8_t *p = data;

	if (len >= 4 && p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F')
		return EBPF_FMT_ELF;
	if (len > 0 && looks_like_text(p, len))
		return EBPF_FMT_ASM;
	return EBPF_FMT_RAW;
}

static int open_as(struct ebpf_object **out, enum ebpf_format fmt, const void *data, size_t len,
		   int first_line, const char *name, struct diag *d)
{
	struct ebpf_object *o = NULL;
	int err;

	*out = NULL;
	if (d)
		diag_set_file(d, name);
	err = object_alloc(&o, name, fmt, d);
	if (err)
		return err;
	switch (fmt) {
	case EBPF_FMT_ELF:
		err = ebpf_elf_open(o, data, len, d);
		break;
	case EBPF_FMT_ASM:
		err = open_text(o, data, len, first_line, d);
		break;
	default:
		err = open_raw(o, data, len, d);
		break;
	}
	if (err) {
		ebpf_object__free(o);
		return err;
	}
	*out = o;
	return 0;
}

int ebpf_object__open_mem(struct ebpf_object **out, const void *data, size_t len,
			  const char *name, struct diag *d)
{
	return open_as(out, ebpf_format_of(data, len), data, len, 1, name, d);
}

int ebpf_object__open_asm(struct ebpf_object **out, const char *text, size_t len, int first_line,
			  const char *name, struct diag *d)
{
	return open_as(out, EBPF_FMT_ASM, text, len, first_line, name, d);
}

int ebpf_object__open_file(struct ebpf_object **out, const char *path, struct diag *d)
{
	uint8_t *buf;
	size_t n;
	int err;

	*out = NULL;
	err = read_file(&buf, &n, path, d);
	if (err)
		return err;
	err = ebpf_object__open_mem(out, buf, n, path, d);
	free(buf);
	return err;
}

int ebpf_object__from_insns(struct ebpf_object **out, const struct bpf_insn *insns, size_t len,
			    const char *name, struct diag *d)
{
	struct ebpf_object *o = NULL;
	struct bpf_insn *copy;
	int err;

	*out = NULL;
	if (len == 0 || len > EBPF_MAX_INSNS)
		return diag_set(d, EINVAL, "program must have 1..%u slots", EBPF_MAX_INSNS);
	err = object_alloc(&o, name, EBPF_FMT_RAW, d);
	if (err)
		return err;
	copy = malloc(len * sizeof(*copy));
	if (!copy) {
		ebpf_object__free(o);
		return diag_set(d, ENOMEM, "out of memory");
	}
	memcpy(copy, insns, len * sizeof(*copy));
	err = add_single_prog(o, copy, len, NULL, name ? name : "prog", false, d);
	if (err) {
		ebpf_object__free(o);
		return err;
	}
	*out = o;
	return 0;
}

void ebpf_object__free(struct ebpf_object *obj)
{
	if (!obj)
		return;
	for (size_t i = 0; i < obj->prog_cnt; i++) {
		free(obj->progs[i].insns);
		free(obj->progs[i].lines);
		free(obj->progs[i].kfuncs);
		free(obj->progs[i].globals);
	}
	free(obj->progs);
	for (size_t i = 0; i < obj->map_cnt; i++)
		free(obj->maps[i].init);
	free(obj->maps);
	free(obj->notes);
	free(obj->skipped);
	free(obj);
}

const struct ebpf_prog *ebpf_object__find_prog(const struct ebpf_object *obj, const char *name)
{
	for (size_t i = 0; i < obj->prog_cnt; i++)
		if (!strcmp(obj->progs[i].name, name))
			return &obj->progs[i];
	return NULL;
}

enum ebpf_ctx_model ebpf_prog_ctx_model(uint32_t prog_type)
{
	switch (prog_type) {
	case BPF_PROG_TYPE_XDP:
		return EBPF_CTX_XDP;
	case BPF_PROG_TYPE_SOCKET_FILTER:
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_CGROUP_SKB:
	case BPF_PROG_TYPE_LWT_IN:
	case BPF_PROG_TYPE_LWT_OUT:
	case BPF_PROG_TYPE_LWT_XMIT:
	case BPF_PROG_TYPE_SK_SKB:
		return EBPF_CTX_SKB;
	case BPF_PROG_TYPE_KPROBE:
	case BPF_PROG_TYPE_TRACEPOINT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE:
	case BPF_PROG_TYPE_PERF_EVENT:
	case BPF_PROG_TYPE_SOCK_OPS:
	case BPF_PROG_TYPE_CGROUP_SOCK:
	case BPF_PROG_TYPE_CGROUP_DEVICE:
	case BPF_PROG_TYPE_TRACING:	/* per program: ebpf_prog_ctx_size, struct ebpf_btf_ctx */
	case BPF_PROG_TYPE_LSM:
	case BPF_PROG_TYPE_SK_LOOKUP:
	case BPF_PROG_TYPE_SK_REUSEPORT:
	case BPF_PROG_TYPE_SK_MSG:
	case BPF_PROG_TYPE_CGROUP_SYSCTL:
		return EBPF_CTX_RO;
	default:
		return EBPF_CTX_PLAIN;
	}
}

/* x86-64 layouts of the uapi structures (struct pt_regs is 21 u64s there; the kernel's
 * bpf_perf_event_data is pt_regs, then sample_period and addr). */
#define PT_REGS_SIZE (21 * 8)
#define PERF_TRACE_MAX 2048	/* PERF_MAX_TRACE_SIZE */
#define RAW_TP_ARGS (12 * 8)	/* MAX_BPF_FUNC_ARGS u64s */
/* struct bpf_sock_ops ends with skb_hwtstamp (a u64 after skb_tcp_flags) since Linux 6.2;
 * older UAPI headers stop before it */
#define SOCK_OPS_HWTSTAMP ((int64_t)offsetof(struct bpf_sock_ops, skb_tcp_flags) + 4)
#define SOCK_OPS_SIZE (SOCK_OPS_HWTSTAMP + 8)

uint32_t ebpf_ctx_size(uint32_t prog_type)
{
	switch (prog_type) {
	case BPF_PROG_TYPE_KPROBE: return PT_REGS_SIZE;
	case BPF_PROG_TYPE_TRACEPOINT: return PERF_TRACE_MAX;
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE: return RAW_TP_ARGS;
	case BPF_PROG_TYPE_PERF_EVENT: return PT_REGS_SIZE + 16;
	case BPF_PROG_TYPE_SOCK_OPS: return SOCK_OPS_SIZE;
	case BPF_PROG_TYPE_CGROUP_SOCK: return sizeof(struct bpf_sock);
	case BPF_PROG_TYPE_CGROUP_DEVICE: return sizeof(struct bpf_cgroup_dev_ctx);
	case BPF_PROG_TYPE_SK_LOOKUP: return sizeof(struct bpf_sk_lookup);
	case BPF_PROG_TYPE_SK_REUSEPORT: return sizeof(struct sk_reuseport_md);
	case BPF_PROG_TYPE_SK_MSG: return sizeof(struct sk_msg_md);
	case BPF_PROG_TYPE_CGROUP_SYSCTL: return sizeof(struct bpf_sysctl);
	default: return 0;
	}
}

#define CTX_IN(type, f, n) (off >= (int64_t)offsetof(type, f) &&				\
			    off < (int64_t)offsetof(type, f) + (n))

/* sock_ops_is_valid_access (net/core/filter.c) for loads: u32 fields read whole (only
 * skb_tcp_flags narrower, from its start), bytes_received, bytes_acked, skb_hwtstamp and the
 * pointers sk, skb_data and skb_data_end as whole u64s. */
static const char *sock_ops_load(int64_t off, unsigned size)
{
#define SO(f) ((int64_t)offsetof(struct bpf_sock_ops, f))
	if (CTX_IN(struct bpf_sock_ops, bytes_received, 16) ||
	    CTX_IN(struct bpf_sock_ops, sk, 8) || CTX_IN(struct bpf_sock_ops, skb_data, 8) ||
	    CTX_IN(struct bpf_sock_ops, skb_data_end, 8) ||
	    (off >= SOCK_OPS_HWTSTAMP && off < SOCK_OPS_HWTSTAMP + 8))
		return size == 8 ? NULL : "a u64 field of bpf_sock_ops read narrower";
	/* (narrow loads only from the field's first byte: the kernel's case is its offset) */
	if (off == SO(skb_tcp_flags) && size <= 4)
		return NULL;
	return size == 4 ? NULL : "bpf_sock_ops fields are read as whole u32s";
#undef SO
}

/* bpf_sock_is_valid_access (net/core/filter.c) for loads: the addresses, ports, family, type,
 * protocol, state and queue mapping read as u32s or narrower (dst_port as its u16 or, with the
 * padding after it, a u32), the rest as whole u32s. */
static const char *bpf_sock_load(int64_t off, unsigned size)
{
#define BS(f) ((int64_t)offsetof(struct bpf_sock, f))
	if (CTX_IN(struct bpf_sock, dst_port, 2))
		return (off == BS(dst_port) && size == 4) || off + size <= BS(dst_port) + 2 ? NULL
			: "dst_port is read as a u16 or narrower, or with the padding as a u32";
	if (off >= BS(dst_port) + 2 && off < BS(dst_ip4))
		return "the padding after dst_port";
	if (off == BS(state) || off == BS(family) || off == BS(type) || off == BS(protocol) ||
	    off == BS(rx_queue_mapping) || off == BS(src_port) ||
	    CTX_IN(struct bpf_sock, src_ip4, 4) || CTX_IN(struct bpf_sock, src_ip6, 16) ||
	    CTX_IN(struct bpf_sock, dst_ip4, 4) || CTX_IN(struct bpf_sock, dst_ip6, 16))
		return (off & 3) + size <= 4 ? NULL : "a narrow load past its field";
	return size == 4 ? NULL : "bpf_sock fields are read as whole u32s";
}

/* bpf_sock_is_valid_access and __sock_filter_check_attach_type for the attach type the kernel
 * gives a cgroup_sock program loaded without one (BPF_CGROUP_INET_SOCK_CREATE): the source
 * address and port are refused, the rest read as bpf_sock_load says; bound_dev_if, mark and
 * priority written as u32s. */
static const char *bpf_sock_access(int64_t off, unsigned size, bool write)
{
	if (CTX_IN(struct bpf_sock, src_ip4, 4) || CTX_IN(struct bpf_sock, src_ip6, 16) ||
	    CTX_IN(struct bpf_sock, src_port, 4))
		return "the source address and port are not readable at socket creation";
	if (write)
		return (off == BS(bound_dev_if) || off == BS(mark) || off == BS(priority)) &&
		       size == 4 ? NULL : "only bound_dev_if, mark and priority are writable";
	return bpf_sock_load(off, size);
}

const char *ebpf_sock_access(unsigned kind, int64_t off, unsigned size)
{
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return "bad access size";
	if (off < 0)
		return "a negative offset";
	if (off % size)
		return "misaligned";
	if (kind == EBPF_SOCK_TCP) {	/* bpf_tcp_sock_is_valid_access */
		if (off >= (int64_t)(offsetof(struct bpf_tcp_sock, icsk_retransmits) +
			      sizeof(((struct bpf_tcp_sock *)0)->icsk_retransmits)))
			return "past the end of struct bpf_tcp_sock";
		if (off == (int64_t)offsetof(struct bpf_tcp_sock, bytes_received) ||
		    off == (int64_t)offsetof(struct bpf_tcp_sock, bytes_acked))
			return size == 8 ? NULL : "bytes_received and bytes_acked are read as u64s";
		return size == 4 ? NULL : "bpf_tcp_sock fields are read as whole u32s";
	}
	if (off >= (int64_t)sizeof(struct bpf_sock))
		return "past the end of struct bpf_sock";
	/* bpf_sock_common_is_valid_access: a socket that may be a request or timewait one
	 * lacks type .. priority */
	if (kind == EBPF_SOCK_COMMON && off >= BS(type) && off < BS(priority) + 4)
		return "type, protocol, mark and priority are a full socket's (bpf_sk_fullsock)";
	return bpf_sock_load(off, size);
#undef BS
}

const char *ebpf_ctx_ro_write(uint32_t prog_type, int64_t off, unsigned size)
{
	int64_t hi = ebpf_ctx_size(prog_type);

	if (prog_type != BPF_PROG_TYPE_SOCK_OPS && prog_type != BPF_PROG_TYPE_CGROUP_SOCK &&
	    prog_type != BPF_PROG_TYPE_CGROUP_SYSCTL)
		return "the context is read-only";
	if (off < 0 || off + size > hi)
		return "outside the context";
	if (off % size)
		return "misaligned";
	/* sysctl_is_valid_access: file_pos written as a whole u32, write never */
	if (prog_type == BPF_PROG_TYPE_CGROUP_SYSCTL)
		return off == (int64_t)offsetof(struct bpf_sysctl, file_pos) && size == 4 ? NULL
		       : "only file_pos of bpf_sysctl is writable, as a u32";
	if (prog_type == BPF_PROG_TYPE_CGROUP_SOCK)
		return bpf_sock_access(off, size, true);
	return (off == (int64_t)offsetof(struct bpf_sock_ops, reply) ||
		off == (int64_t)offsetof(struct bpf_sock_ops, sk_txhash)) && size == 4
		       ? NULL : "only reply and sk_txhash of bpf_sock_ops are writable, as u32s";
}

/* The switch each skb type's is_valid_access runs before bpf_skb_is_valid_access: on the
 * offset an access starts at, as the kernel's bpf_ctx_range cases are. */
const char *ebpf_skb_field_refused(uint32_t prog_type, int64_t off, bool write)
{
#define SKB_AT(f, n) CTX_IN(struct __sk_buff, f, n)
	bool classid = SKB_AT(tc_classid, 4), meta = SKB_AT(data_meta, 4);
	bool pkt = SKB_AT(data, 4) || SKB_AT(data_end, 4);
	bool sock = off >= (int64_t)offsetof(struct __sk_buff, family) &&
		    off < (int64_t)offsetof(struct __sk_buff, local_port) + 4;
	bool stamps = SKB_AT(tstamp, 8) || SKB_AT(wire_len, 4) || SKB_AT(hwtstamp, 8);
	bool cb = SKB_AT(cb, 20), mark = SKB_AT(mark, 4), prio = SKB_AT(priority, 4);

	switch (prog_type) {
	case BPF_PROG_TYPE_SOCKET_FILTER:	/* sk_filter_is_valid_access */
		if (classid || pkt || meta || sock || stamps)
			return "a field socket filters may not access (tc_classid, the packet "
			       "pointers, the socket fields, the time stamps, wire_len)";
		return write && !cb ? "socket filters write only cb[]" : NULL;
	case BPF_PROG_TYPE_SCHED_CLS:	/* tc_cls_act_is_valid_access */
	case BPF_PROG_TYPE_SCHED_ACT:
		return sock ? "the socket fields (family .. local_port) are not tc's" : NULL;
	case BPF_PROG_TYPE_CGROUP_SKB:	/* cg_skb_is_valid_access (CAP_BPF: data, tstamp) */
		if (classid || meta || SKB_AT(wire_len, 4))
			return "a field cgroup_skb programs may not access (tc_classid, data_meta, "
			       "wire_len)";
		return write && !mark && !prio && !cb && !SKB_AT(tstamp, 8)
			       ? "cgroup_skb programs write only mark, priority, cb[] and tstamp"
			       : NULL;
	case BPF_PROG_TYPE_LWT_IN:	/* lwt_is_valid_access */
	case BPF_PROG_TYPE_LWT_OUT:
	case BPF_PROG_TYPE_LWT_XMIT:
		if (classid || sock || meta || stamps)
			return "a field lwt programs may not access (tc_classid, the socket fields, "
			       "data_meta, the time stamps, wire_len)";
		return write && !mark && !prio && !cb
			       ? "lwt programs write only mark, priority and cb[]" : NULL;
	case BPF_PROG_TYPE_SK_SKB:	/* sk_skb_is_valid_access */
		if (classid || meta || stamps || mark)
			return "a field sk_skb programs may not access (tc_classid, data_meta, the "
			       "time stamps, wire_len, mark)";
		return write && !SKB_AT(tc_index, 4) && !prio
			       ? "sk_skb programs write only tc_index and priority" : NULL;
	default:
		return NULL;
	}
#undef SKB_AT
}

/* cgroup_dev_is_valid_access (kernel/bpf/cgroup.c) for loads: access_type read as a u32 or
 * narrower (bpf_ctx_narrow_access_ok), major and minor as whole u32s. */
static const char *cgroup_dev_load(int64_t off, unsigned size)
{
	if (CTX_IN(struct bpf_cgroup_dev_ctx, access_type, 4))
		return size <= 4 ? NULL : "access_type is read as a u32 or narrower";
	return size == 4 ? NULL : "major and minor are read as whole u32s";
}

/* sk_lookup_is_valid_access (net/core/filter.c) for loads: sk (the selected socket or NULL) as
 * a whole u64 at 0; the u32 fields (family .. ingress_ifindex, both addresses) at any
 * power-of-two size up to 4 (bpf_ctx_narrow_access_ok), remote_port as its u16 or narrower or a
 * u32, the padding after it as a u16 or narrower; nothing past ingress_ifindex. */
static const char *sk_lookup_load(int64_t off, unsigned size)
{
#define SL(f) ((int64_t)offsetof(struct bpf_sk_lookup, f))
	if (off < 8)
		return off == 0 && size == 8 ? NULL : "sk is read as a whole u64";
	if (off >= SL(ingress_ifindex) + 4)
		return "past ingress_ifindex";
	if (off >= SL(remote_port) && off < SL(local_ip4))
		return size <= 2 || (off == SL(remote_port) && size == 4) ? NULL
		       : "remote_port and its padding are read as u16s or narrower (remote_port "
			 "also as a u32)";
	return size <= 4 ? NULL : "the fields of bpf_sk_lookup are u32s";
#undef SL
}

/* sk_reuseport_is_valid_access (net/core/filter.c) for loads: data, data_end, sk and
 * migrating_sk as whole u64s, hash as a whole u32, eth_protocol as a u16 or u32, len,
 * ip_protocol and bind_inany at any power-of-two size up to 4; not the padding after hash. */
static const char *sk_reuseport_load(int64_t off, unsigned size)
{
#define RM(f) ((int64_t)offsetof(struct sk_reuseport_md, f))
	if (off == RM(data) || off == RM(data_end) || off == RM(sk) || off == RM(migrating_sk))
		return size == 8 ? NULL : "a pointer field of sk_reuseport_md read narrower";
	if (off < RM(len) || off >= RM(sk))
		return "a pointer field of sk_reuseport_md read in part";
	if (off >= RM(hash) + 4)
		return "the padding after hash";
	if (off >= RM(hash))
		return off == RM(hash) && size == 4 ? NULL : "hash is read as a whole u32";
	if (off >= RM(eth_protocol) && off < RM(eth_protocol) + 4 && size < 2)
		return "eth_protocol is read as a u16 or u32";
	return size <= 4 ? NULL : "the fields of sk_reuseport_md are u32s";
#undef RM
}

/* sk_msg_is_valid_access (net/core/filter.c) for loads: data, data_end (the message's bytes,
 * PTR_TO_PACKET and PTR_TO_PACKET_END) and sk (PTR_TO_SOCKET) as whole u64s, family .. size as
 * whole u32s; the context is never written. */
static const char *sk_msg_load(int64_t off, unsigned size)
{
#define MM(f) ((int64_t)offsetof(struct sk_msg_md, f))
	if (off == MM(data) || off == MM(data_end) || off == MM(sk))
		return size == 8 ? NULL : "a pointer field of sk_msg_md read narrower";
	if (off < MM(family) || off >= MM(sk))
		return "a pointer field of sk_msg_md read in part";
	if (off >= MM(size) + 4)
		return "the padding after size";
	return size == 4 ? NULL : "the fields of sk_msg_md are read as whole u32s";
#undef MM
}

/* As kprobe_prog_is_valid_access, tp_prog_is_valid_access, raw_tp_prog_is_valid_access and
 * pe_prog_is_valid_access (kernel/trace/bpf_trace.c), sock_ops_is_valid_access,
 * sock_filter_is_valid_access, sk_lookup_is_valid_access and sk_reuseport_is_valid_access
 * (net/core/filter.c), cgroup_dev_is_valid_access (kernel/bpf/cgroup.c) decide for loads. */
const char *ebpf_ctx_ro_access(uint32_t prog_type, int64_t off, unsigned size)
{
	int64_t lo = prog_type == BPF_PROG_TYPE_TRACEPOINT ? 8 : 0;
	int64_t hi = ebpf_ctx_size(prog_type);

	if (!hi)
		return "not a read-only context";
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return "bad access size";
	if (prog_type == BPF_PROG_TYPE_SOCK_OPS || prog_type == BPF_PROG_TYPE_CGROUP_SOCK ||
	    prog_type == BPF_PROG_TYPE_CGROUP_DEVICE || prog_type == BPF_PROG_TYPE_SK_LOOKUP ||
	    prog_type == BPF_PROG_TYPE_SK_REUSEPORT || prog_type == BPF_PROG_TYPE_SK_MSG ||
	    prog_type == BPF_PROG_TYPE_CGROUP_SYSCTL) {
		if (off < 0 || off + size > hi)
			return "outside the context";
		if (off % size)
			return "misaligned";
		return prog_type == BPF_PROG_TYPE_SOCK_OPS ? sock_ops_load(off, size)
		       : prog_type == BPF_PROG_TYPE_CGROUP_DEVICE ? cgroup_dev_load(off, size)
		       : prog_type == BPF_PROG_TYPE_SK_LOOKUP ? sk_lookup_load(off, size)
		       : prog_type == BPF_PROG_TYPE_SK_REUSEPORT ? sk_reuseport_load(off, size)
		       : prog_type == BPF_PROG_TYPE_SK_MSG ? sk_msg_load(off, size)
		       /* (sysctl_is_valid_access: write and file_pos read as u32s or narrower) */
		       : prog_type == BPF_PROG_TYPE_CGROUP_SYSCTL
			       ? size <= 4 ? NULL : "the fields of bpf_sysctl are u32s"
			       : bpf_sock_access(off, size, false);
	}
	if (off < lo || off + size > hi)
		return prog_type == BPF_PROG_TYPE_TRACEPOINT
			       ? "outside [8, 2048) (the tracepoint's common fields are not readable)"
			       : "outside the context";
	if (off % size)
		return "misaligned";
	if (prog_type == BPF_PROG_TYPE_PERF_EVENT && off < PT_REGS_SIZE && size != 8)
		return "the registers of bpf_perf_event_data are read as whole u64s";
	return NULL;
}

uint32_t ebpf_prog_ctx_size(const struct ebpf_prog *prog, uint32_t prog_type)
{
	if (ebpf_prog_type_btf_ctx(prog_type))
		return prog && prog->btf_ctx.attach_btf_id ? prog->btf_ctx.nslots * 8u : 0;
	return ebpf_ctx_size(prog_type);
}

const char *ebpf_prog_kfunc_name(const struct ebpf_prog *prog, size_t pc)
{
	if (pc >= prog->len || prog->insns[pc].code != (BPF_JMP | BPF_CALL | BPF_K) ||
	    prog->insns[pc].src_reg != BPF_PSEUDO_KFUNC_CALL)
		return NULL;
	for (size_t i = 0; i < prog->kfunc_cnt; i++)
		if (prog->kfuncs[i].insn == pc)
			return prog->kfuncs[i].name;
	return prog->insns[pc].off ? NULL : ebpf_kfunc_name(prog->insns[pc].imm);
}

const struct ebpf_global_func *ebpf_prog_global(const struct ebpf_prog *prog, size_t pc)
{
	for (size_t i = 0; i < prog->global_cnt; i++)
		if (prog->globals[i].insn == pc)
			return &prog->globals[i];
	return NULL;
}

const struct ebpf_global_func *ebpf_prog_exc_cb(const struct ebpf_prog *prog)
{
	for (size_t i = 0; prog && i < prog->global_cnt; i++)
		if (prog->globals[i].exc_cb)
			return &prog->globals[i];
	return NULL;
}
