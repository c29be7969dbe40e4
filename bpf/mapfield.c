/* The special fields of a map value (struct ebpf_map_field, bpf/prog.h): their names as the
 * kernel prints them, the lookup of the field an access overlaps, and the "-- maps" tokens that
 * declare them in test-data files and that the printers of maps write back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/prog.h"
#include "util/sbuf.h"

const char *ebpf_field_name(uint8_t kind)
{
	static const char *const names[] = {
		[EBPF_FIELD_SPIN_LOCK] = "bpf_spin_lock",
		[EBPF_FIELD_RES_SPIN_LOCK] = "bpf_res_spin_lock",
		[EBPF_FIELD_TIMER] = "bpf_timer",
		[EBPF_FIELD_WQ] = "bpf_wq",
		[EBPF_FIELD_TASK_WORK] = "bpf_task_work",
		[EBPF_FIELD_LIST_HEAD] = "bpf_list_head",
		[EBPF_FIELD_LIST_NODE] = "bpf_list_node",
		[EBPF_FIELD_RB_ROOT] = "bpf_rb_root",
		[EBPF_FIELD_RB_NODE] = "bpf_rb_node",
		[EBPF_FIELD_REFCOUNT] = "bpf_refcount",
		[EBPF_FIELD_KPTR_UNREF] = "kptr",
		[EBPF_FIELD_KPTR_REF] = "kptr",
		[EBPF_FIELD_KPTR_PERCPU] = "kptr",
		[EBPF_FIELD_UPTR] = "uptr",
		[EBPF_FIELD_UNSURE] = "a special field (inside a union)",
	};

	return kind < sizeof(names) / sizeof(names[0]) && names[kind] ? names[kind] : "?";
}

bool ebpf_field_is_kptr(uint8_t kind)
{
	return kind == EBPF_FIELD_KPTR_UNREF || kind == EBPF_FIELD_KPTR_REF ||
	       kind == EBPF_FIELD_KPTR_PERCPU || kind == EBPF_FIELD_UPTR;
}

void ebpf_map_field_add(struct ebpf_map_def *def, uint8_t kind, uint32_t off, uint32_t size,
			const char *obj)
{
	uint8_t k;

	if (def->nfields >= EBPF_MAP_FIELDS) {
		def->fields_over = true;
		return;
	}
	for (k = def->nfields; k > 0 && def->fields[k - 1].off > off; k--)
		def->fields[k] = def->fields[k - 1];
	memset(&def->fields[k], 0, sizeof(def->fields[k]));
	def->fields[k].off = off;
	def->fields[k].size = size;
	def->fields[k].kind = kind;
	snprintf(def->fields[k].obj, sizeof(def->fields[k].obj), "%s", obj ? obj : "");
	def->nfields++;
}

const struct ebpf_map_field *ebpf_map_field_at(const struct ebpf_map_def *def, int64_t lo,
					       int64_t hi)
{
	for (uint8_t k = 0; k < def->nfields && k < EBPF_MAP_FIELDS; k++)
		if (lo < (int64_t)def->fields[k].off + def->fields[k].size &&
		    (int64_t)def->fields[k].off < hi)
			return &def->fields[k];
	return NULL;
}

int ebpf_map_field_parse(struct ebpf_map_def *def, const char *tok, const char **why)
{
	static const struct {
		const char *word;
		uint8_t kind;
		uint32_t size;
	} t[] = {
		{ "spin_lock=", EBPF_FIELD_SPIN_LOCK, 4 },
		{ "kptr=", EBPF_FIELD_KPTR_UNREF, 8 },
		{ "kptr_ref=", EBPF_FIELD_KPTR_REF, 8 },
	};

	/* (not fields: the program's access to the values, check_map_access_type) */
	if (!strcmp(tok, "rdonly_prog") || !strcmp(tok, "wronly_prog")) {
		def->flags |= tok[0] == 'r' ? BPF_F_RDONLY_PROG : BPF_F_WRONLY_PROG;
		return 1;
	}
	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		size_t n = strlen(t[k].word);
		const char *p = tok + n, *obj = "";
		char *end;
		unsigned long off;

		if (strncmp(tok, t[k].word, n))
			continue;
		off = strtoul(p, &end, 10);
		if (end == p || off > UINT32_MAX) {
			*why = "a field's offset is a number";
			return -EINVAL;
		}
		if (ebpf_field_is_kptr(t[k].kind)) {
			if (*end != ':' || !end[1] || strlen(end + 1) >= sizeof(def->fields[0].obj)) {
				*why = "a kptr is 'kptr=OFF:STRUCT' (the kernel struct it points to)";
				return -EINVAL;
			}
			obj = end + 1;
		} else if (*end) {
			*why = "a field is 'NAME=OFF'";
			return -EINVAL;
		}
		if (off % t[k].size) {
			*why = "a field's offset is a multiple of its size (4: spin_lock, 8: kptr)";
			return -EINVAL;
		}
		if (ebpf_map_field_at(def, (int64_t)off, (int64_t)off + t[k].size) ||
		    def->nfields >= EBPF_MAP_FIELDS) {
			*why = "fields overlap, or more than 8";
			return -EINVAL;
		}
		ebpf_map_field_add(def, t[k].kind, (uint32_t)off, t[k].size, obj);
		return 1;
	}
	return 0;
}

void ebpf_map_init_print(struct sbuf *sb, const struct ebpf_map_def *def)
{
	uint32_t n = def->value_size;

	if (!def->init || !n)
		return;
	while (n > 1 && !def->init[n - 1])	/* (up to its last byte not 0) */
		n--;
	sbuf_puts(sb, " init=");
	for (uint32_t k = 0; k < n; k++)
		sbuf_printf(sb, "%02x", def->init[k]);
}

void ebpf_map_fields_print(struct sbuf *sb, const struct ebpf_map_def *def)
{
	if (def->flags & BPF_F_RDONLY_PROG)
		sbuf_puts(sb, " rdonly_prog");
	if (def->flags & BPF_F_WRONLY_PROG)
		sbuf_puts(sb, " wronly_prog");
	for (uint8_t k = 0; k < def->nfields && k < EBPF_MAP_FIELDS; k++) {
		const struct ebpf_map_field *f = &def->fields[k];

		if (f->kind == EBPF_FIELD_SPIN_LOCK)
			sbuf_printf(sb, " spin_lock=%u", f->off);
		else if (f->kind == EBPF_FIELD_KPTR_UNREF || f->kind == EBPF_FIELD_KPTR_REF)
			sbuf_printf(sb, " %s=%u:%s", f->kind == EBPF_FIELD_KPTR_REF ? "kptr_ref" : "kptr",
				    f->off, f->obj);
	}
}
