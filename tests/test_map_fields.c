/* Special fields of map values (bpf/mapfield.c, the ELF reader's btf_fields_of, scev/absint_fields.c):
 *  - assembly cases over "-- maps" lines with "spin_lock=OFF", "kptr=OFF:STRUCT" (a
 *    __kptr_untrusted) and "kptr_ref=OFF:STRUCT" (a __kptr): bpfscev's verdict and the words of
 *    its reason, and the kernel's agreement (the kernel oracle gives the map the BTF of those
 *    fields, so the kernel applies its own rules: check_map_access, check_map_kptr_access);
 *  - the clang-built tests/bpf/map_fields.o (spin locks in a map value and in .bss), against
 *    the kernel, and where the ELF reader placed the fields;
 *  - the "-- maps" tokens read back from what the printers write.
 * Without bpf() the kernel's verdicts are skipped (one line); without clang, the object.
 */
#include "bpf/asm.h"
#include "casefile/casefile.h"
#include "tests/check.h"
#include "tests/verdict_case.h"
#include "util/sbuf.h"

/* r6 = the value of key 0 of map 0 (an array: never NULL), then BODY, then "return 2" */
#define LOOKUP "-- asm\nr1 = map[fd:0] ll\n*(u32 *)(r10 -4) = 0\nr2 = r10\nr2 += -4\n"       \
	"call bpf_map_lookup_elem\nif r0 == 0 goto out\nr6 = r0\n"
#define OUT "out: r0 = 2\nexit\n-- type\nxdp\n-- maps\narray key=4 value=32 entries=1 "
#define K(body) LOOKUP body OUT "kptr=8:task_struct\n"
#define KREF(body) LOOKUP body OUT "kptr_ref=8:task_struct\n"
#define LOCK(body) LOOKUP body OUT "spin_lock=4\n"
/* read the kptr at 8, test it, read 8 bytes at 0 of the task through it */
#define KREAD "r1 = *(u64 *)(r6 +8)\nif r1 == 0 goto out\nr2 = *(u64 *)(r1 +0)\n"          \
	"*(u64 *)(r6 +0) = r2\n"

static void cases(bool kernel)
{
	static const struct {
		const char *name, *text;
		uint8_t want;
		const char *reason;
	} t[] = {
		/* spin locks */
		{ "lock_beside", LOCK("r1 = *(u32 *)(r6 +0)\n*(u64 *)(r6 +8) = r1\n"), SAFE, NULL },
		{ "lock_read", LOCK("r1 = *(u32 *)(r6 +4)\n"), UNSAFE,
		  "bpf_spin_lock cannot be accessed directly by load/store ([4, 8)" },
		{ "lock_store", LOCK("*(u64 *)(r6 +0) = 0\n"), UNSAFE,
		  "bpf_spin_lock cannot be accessed directly by load/store ([0, 8)" },
		{ "lock_helper", LOCK("r1 = map[fd:0] ll\nr2 = r10\nr2 += -4\nr3 = r6\nr4 = 0\n"
				      "call bpf_map_update_elem\n"), UNSAFE,
		  "bpf_spin_lock cannot be accessed directly by load/store ([0, 32)" },
		/* untrusted kptrs */
		{ "kptr_read", K(KREAD), SAFE, NULL },
		{ "kptr_unchecked", K("r1 = *(u64 *)(r6 +8)\nr2 = *(u64 *)(r1 +0)\n"), UNSAFE,
		  "may be NULL" },
		/* (spilled and filled: still the kernel object, past thread_info's flags) */
		{ "kptr_spill_past", K("r1 = *(u64 *)(r6 +8)\n*(u64 *)(r10 -16) = r1\n"
				       "r1 = *(u64 *)(r10 -16)\nif r1 == 0 goto out\n"
				       "r2 = *(u64 *)(r1 +16)\n"), UNSAFE, "kernel object access" },
		{ "kptr_store_null", K("*(u64 *)(r6 +8) = 0\n"), SAFE, NULL },
		{ "kptr_store_reg_null", K("r1 = 0\n*(u64 *)(r6 +8) = r1\n"), SAFE, NULL },
		{ "kptr_store_imm", K("*(u64 *)(r6 +8) = 5\n"), UNSAFE,
		  "BPF_ST imm must be 0 when storing to kptr at off=8" },
		{ "kptr_store_number", K("r1 = *(u64 *)(r6 +0)\n*(u64 *)(r6 +8) = r1\n"), UNSAFE,
		  "invalid kptr access, R1 type=scalar" },
		{ "kptr_half", K("r1 = *(u32 *)(r6 +8)\n"), UNSAFE, "kptr access size must be BPF_DW" },
		{ "kptr_misaligned", K("r1 = *(u64 *)(r6 +12)\n"), UNSAFE,
		  "kptr access misaligned expected=8 off=12" },
		{ "kptr_var_off", K("r1 = *(u8 *)(r6 +0)\nr1 &= 8\nr2 = r6\nr2 += r1\n"
				    "r3 = *(u64 *)(r2 +0)\n"), UNSAFE,
		  "kptr access cannot have variable offset" },
		{ "kptr_atomic", K("r1 = 1\nlock *(u64 *)(r6 +8) += r1\n"), UNSAFE,
		  "kptr in map can only be accessed using BPF_MEM instruction mode" },
		{ "kptr_helper", K("r1 = map[fd:0] ll\nr2 = r10\nr2 += -4\nr3 = r6\nr4 = 0\n"
				   "call bpf_map_update_elem\n"), UNSAFE,
		  "kptr cannot be accessed indirectly by helper" },
		/* an update from the stack whose bytes at 8 are not 0: the kernel's copy skips the
		 * kptr, which stays NULL (a run must not read through those bytes) */
		{ "kptr_update_skips", K("r1 = -1\n*(u64 *)(r10 -40) = r1\n*(u64 *)(r10 -32) = r1\n"
					 "*(u64 *)(r10 -24) = r1\n*(u64 *)(r10 -16) = r1\n"
					 "r1 = map[fd:0] ll\nr2 = r10\nr2 += -4\nr3 = r10\n"
					 "r3 += -40\nr4 = 0\ncall bpf_map_update_elem\n" KREAD), SAFE,
		  NULL },
		/* referenced kptrs: read as any (MEM_RCU here), never stored */
		{ "kref_read", KREF(KREAD), SAFE, NULL },
		{ "kref_store_null", KREF("r1 = 0\n*(u64 *)(r6 +8) = r1\n"), UNSAFE,
		  "store to referenced kptr disallowed" },
	};

	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		struct verdict_opts vo = { .sz = sizeof(vo), .kernel = kernel };

		verdict_case_file(t[k].name, t[k].text, &vo, t[k].want, t[k].reason, AGREE);
	}
	/* a socket filter may not name a map with a spin lock at all */
	{
		struct verdict_opts vo = { .sz = sizeof(vo), .kernel = kernel,
					   .prog_type = BPF_PROG_TYPE_SOCKET_FILTER };

		verdict_case_file("lock_socket", LOCK(""), &vo, UNSAFE,
				  "socket filter progs cannot use bpf_spin_lock yet", AGREE);
	}
}

/* The "-- maps" tokens: read, printed, read again; wrong ones refused with the reason. */
static void tokens(void)
{
	static const char text[] = "-- asm\nr0 = 0\nexit\n-- maps\n"
				   "hash key=4 value=48 entries=2 timer=16 spin_lock=4 "
				   "kptr=32:task_struct kptr_ref=40:cgroup wronly_prog\n"
				   "array key=4 value=8 entries=1 rdonly_prog init=00ff7f\n";
	static const char *const bad[] = {
		"spin_lock=2", "kptr=8", "kptr=12:task_struct", "spin_lock=16", "spin_lock=48",
	};
	struct ebpf_object *o = NULL;
	struct diag d;

	diag_clear(&d);
	if (casefile__open_object_mem(&o, text, strlen(text), "tokens", &d)) {
		CHECK(0, "tokens: %s", d.msg);
		return;
	}
	{
		const struct ebpf_map_def *m = &o->maps[0];
		struct sbuf sb = SBUF_INIT;

		CHECK(m->nfields == 3 && m->fields[0].kind == EBPF_FIELD_SPIN_LOCK &&
		      m->fields[0].off == 4 && m->fields[1].kind == EBPF_FIELD_KPTR_UNREF &&
		      m->fields[1].off == 32 && !strcmp(m->fields[1].obj, "task_struct") &&
		      m->fields[2].kind == EBPF_FIELD_KPTR_REF && !strcmp(m->fields[2].obj, "cgroup"),
		      "tokens: %u fields", m->nfields);
		ebpf_map_fields_print(&sb, m);
		CHECK(sb.buf && !strcmp(sb.buf, " wronly_prog spin_lock=4 kptr=32:task_struct "
						"kptr_ref=40:cgroup"),
		      "tokens: printed '%s'", sb.buf ? sb.buf : "");
		sbuf_free(&sb);
		/* the access flags (check_map_access_type), read and written back */
		CHECK(o->map_cnt == 2 && m->flags == BPF_F_WRONLY_PROG &&
		      o->maps[1].flags == BPF_F_RDONLY_PROG && !o->maps[1].nfields,
		      "tokens: flags 0x%x", m->flags);
		ebpf_map_fields_print(&sb, &o->maps[1]);
		CHECK(sb.buf && !strcmp(sb.buf, " rdonly_prog"), "tokens: printed '%s'",
		      sb.buf ? sb.buf : "");
		sbuf_free(&sb);
		/* the initial contents (init=: the first value's bytes, the rest 0), printed up to
		 * the last byte not 0 */
		CHECK(o->maps[1].init && o->maps[1].init[0] == 0 && o->maps[1].init[1] == 0xff &&
		      o->maps[1].init[2] == 0x7f && !o->maps[1].init[3] && !o->maps[1].init[7] &&
		      !o->maps[0].init, "tokens: initial contents");
		ebpf_maps_section(&sb, o->maps + 1, 1);
		CHECK(sb.buf && !strcmp(sb.buf, "-- maps\narray key=4 value=8 entries=1 name=map1 "
						"rdonly_prog init=00ff7f\n"),
		      "tokens: printed '%s'", sb.buf ? sb.buf : "");
		sbuf_free(&sb);
	}
	ebpf_object__free(o);
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		char t[256];

		snprintf(t, sizeof(t), "-- asm\nr0 = 0\nexit\n-- maps\n"
			 "hash key=4 value=48 entries=2 timer=16 %s\n", bad[k]);
		o = NULL;
		diag_clear(&d);
		CHECK(casefile__open_object_mem(&o, t, strlen(t), "bad", &d) != 0 && d.line == 5,
		      "tokens: '%s' accepted (or no line: '%s')", bad[k], d.msg);
		ebpf_object__free(o);
	}
}

/* Where the ELF reader placed the fields of the clang-built object, and its programs against the
 * kernel. */
static void object(bool kernel)
{
	static const char *const progs[] = {
		"lock_beside_safe", "lock_read_unsafe", "lock_write_unsafe", "lock_wide_unsafe",
		"lock_var_unsafe", "lock_update_unsafe", "lock_socket_unsafe", "glock_beside_safe",
		"glock_read_unsafe",
	};
	static const enum scev_verdict_kind want[] = {
		SAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE, UNSAFE, SAFE, UNSAFE,
	};
	static const char *const reasons[] = {
		NULL, "bpf_spin_lock cannot be accessed directly by load/store ([8, 12)",
		"bpf_spin_lock cannot be accessed directly by load/store ([8, 12)",
		"bpf_spin_lock cannot be accessed directly by load/store ([8, 16)",
		"bpf_spin_lock cannot be accessed directly by load/store ([0, 16)",
		"bpf_spin_lock cannot be accessed directly by load/store ([0, 24)",
		"socket filter progs cannot use bpf_spin_lock yet", NULL,
		"bpf_spin_lock cannot be accessed directly",
	};
	char path[1024];
	struct ebpf_object *o;

	if (!verdict_case_bpf_part("map_fields.o", path, sizeof(path)))
		return;
	if ((o = verdict_case_open_file(path))) {
		const struct ebpf_map_def *l = NULL, *b = NULL;

		for (size_t m = 0; m < o->map_cnt; m++) {
			if (!strcmp(o->maps[m].name, "lmap"))
				l = &o->maps[m];
			if (!strcmp(o->maps[m].name, ".bss"))
				b = &o->maps[m];
		}
		CHECK(l && l->nfields == 1 && l->fields[0].kind == EBPF_FIELD_SPIN_LOCK &&
		      l->fields[0].off == 8 && l->fields[0].size == 4,
		      "map_fields.o: lmap's lock not found at 8 (%u fields)", l ? l->nfields : 0);
		/* (.bss: the lock at its symbol's offset, not the DATASEC's 0) */
		CHECK(b && b->nfields == 1 && b->fields[0].kind == EBPF_FIELD_SPIN_LOCK &&
		      b->fields[0].size == 4 && b->fields[0].off + 4 <= b->value_size,
		      "map_fields.o: .bss's lock not found (%u fields, kind %u)", b ? b->nfields : 0,
		      b && b->nfields ? b->fields[0].kind : 0);
		ebpf_object__free(o);
	}
	verdict_case_object_why(path, progs, want, reasons, sizeof(progs) / sizeof(progs[0]),
				kernel);
}

int main(void)
{
	bool kernel = verdict_case_kernel("the kernel's verdicts");

	cases(kernel);
	tokens();
	object(kernel);
	return check_done("test_map_fields");
}
