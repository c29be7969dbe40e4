/* Findings on disk: signatures, the directory writer and reader, and the isolated analysis that
 * reproduces crashes (the replay itself is fuzz/replay.c).  See finding.h for the format and
 * crashes/README.md for what users read. */
#define _GNU_SOURCE
#include "triage/finding.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bpf/asm.h"
#include "bpf/isa.h"
#include "util/clock.h"
#include "util/sbuf.h"

/* ---- signatures ---- */

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++) {
		h ^= (uint8_t)*s;
		h *= 0x100000001b3ull;
	}
	return h;
}

/* The deepest claimed loop whose body holds pc. */
static const struct claim_loop *innermost(const struct claim_prog *cp, uint32_t pc)
{
	const struct claim_loop *best = NULL;

	for (uint32_t i = 0; i < cp->nloops; i++)
		if (claim_loop__contains(&cp->loops[i], pc) &&
		    (!best || cp->loops[i].depth > best->depth))
			best = &cp->loops[i];
	return best;
}

/* Edges leaving loop l, counted from the program and the loop body (claims.json does not carry
 * the exit lists back); with pc != UINT32_MAX only those landing on pc. */
static unsigned loop_exits(const struct finding *f, const struct claim_loop *l, uint32_t pc)
{
	unsigned n = 0;

	for (uint32_t b = 0; b < l->nblocks; b++)
		for (uint32_t q = l->blocks[b].first; q <= l->blocks[b].last && q < f->len;
		     q += ebpf_insn_slots(&f->insns[q])) {
			uint32_t succ[2];
			unsigned ns = ebpf_succs(f->insns, f->len, q, succ);

			for (unsigned k = 0; k < ns; k++)
				if (!claim_loop__contains(l, succ[k]) && (pc == UINT32_MAX || succ[k] == pc))
					n++;
		}
	return n;
}

/* Whether pc is where control lands after leaving some loop. */
static bool is_exit_target(const struct finding *f, const struct claim_prog *cp, uint32_t pc)
{
	for (uint32_t i = 0; i < cp->nloops; i++)
		if (loop_exits(f, &cp->loops[i], pc))
			return true;
	return false;
}

static const char *trip_kind_name(uint8_t k)
{
	return k == TRIP_EXACT ? "exact" : k == TRIP_BOUNDED ? "bounded" : "unknown";
}

/* The latch's opcode says which exit test (and width) the trip solver handled; pcs and
 * constants are left out on purpose. */
static void put_latch(struct sbuf *sb, const struct finding *f, const struct claim_loop *l)
{
	if (!l) {
		sbuf_puts(sb, "|noloop");
		return;
	}
	if (l->latch < f->len && ebpf_is_cond_jmp(&f->insns[l->latch]))
		sbuf_printf(sb, "|latch=%02x", f->insns[l->latch].code);
	else
		sbuf_puts(sb, "|latch=none");
	sbuf_printf(sb, "|trip=%s%s|exits=%s", trip_kind_name(l->trip.kind),
		    l->irreducible ? "|irreducible" : "", loop_exits(f, l, UINT32_MAX) > 1 ? "many" : "one");
}

/* Which way a scalar escaped its range — above the unsigned maximum, below the minimum, or
 * inside the unsigned bounds but outside the signed, 32-bit or known-bits ones — coarse on
 * purpose: the exact fields depend on the value, the direction on the bug. */
static const char *escape_dir(const struct range *r, uint64_t v)
{
	if (v > r->umax)
		return "high";
	if (v < r->umin)
		return "low";
	if ((int64_t)v < r->smin || (int64_t)v > r->smax)
		return "signed";
	if (!tnum_contains(r->var_off, v))
		return "bits";
	return "sub32";
}

/* Claims whose bounds come from a trip count: the loop's exit test matters to them. */
static bool trip_dependent(uint8_t source)
{
	return source == SRC_RECURRENCE || source == SRC_ACCUMULATE || source == SRC_DERIVED ||
	       source == SRC_ITERATE;
}

static const char *delta_class(uint64_t a, uint64_t b)
{
	uint64_t d = a > b ? a - b : b - a;

	return d <= 1 ? "by1" : d <= 16 ? "small" : "large";
}

static void loc_class(char *buf, size_t n, loc_t l)
{
	if (LOC_IS_REG(l))
		snprintf(buf, n, "reg");
	else
		snprintf(buf, n, "slot%u", LOC_SLOT_SIZE(l) * 8);
}

/* The fault a verdict finding's text names (after "faults when run: "; the runs' texts are
 * triage/verdict.c's, the interpreter's and the stack watch's, each "pc N: ...") and its pc
 * (UINT32_MAX when none): the kind of fault, which separates bugs — a run past the verdict's
 * own bound, one that never ends where the verdict bounds nothing, a memory trap by access and
 * region, a read of bytes never written, a kernel limit. */
static const char *verdict_fault(const struct finding *f, uint32_t *pc, char *buf, size_t n)
{
	static const char lead[] = "faults when run: ";
	const char *t = strstr(f->text, lead), *p;
	char *end;

	t = t ? t + sizeof(lead) - 1 : f->text;
	*pc = UINT32_MAX;
	if (!strncmp(t, "pc ", 3)) {
		unsigned long v = strtoul(t + 3, &end, 10);

		if (end != t + 3 && v < f->len)
			*pc = (uint32_t)v;
	}
	if (strstr(t, "ran past"))
		return strstr(t, "trip counts allow") ? "past-bound" : "endless";
	if (strstr(t, "never written"))
		return "unwritten";
	if ((p = strstr(t, "-byte "))) {
		/* "<size>-byte <access> at <address> (<region>...) why": access and region word */
		const char *r = strchr(p, '(');
		size_t a = strcspn(p + 6, " "), w = r ? strcspn(r + 1, " +-;)0123456789") : 0;

		snprintf(buf, n, "mem-%.*s-%.*s", (int)a, p + 6, (int)w, r ? r + 1 : "");
		return buf;
	}
	if (strstr(t, "frames") || strstr(t, "stack"))
		return "limit";
	return "other";
}

/* Where pc is, from the program alone (a verdict finding carries no claims, and one read back
 * must sign the same): main or a subprogram (the targets of pseudo calls and of function
 * addresses start them), and the innermost backward jump around pc — its opcode stands for the
 * loop's exit test, as put_latch's does; pcs and constants left out. */
static void put_fault_place(struct sbuf *sb, const struct finding *f, uint32_t pc, bool at)
{
	uint32_t fn = 0, latch = UINT32_MAX;
	long best = LONG_MAX;

	if (pc == UINT32_MAX) {
		sbuf_puts(sb, "|nopc");
		return;
	}
	for (uint32_t q = 0; q < f->len; q += ebpf_insn_slots(&f->insns[q])) {
		const struct bpf_insn *i = &f->insns[q];
		long t = -1;

		if (ebpf_is_pseudo_call(i) || (ebpf_is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC))
			t = (long)q + 1 + i->imm;
		if (t >= 0 && t <= (long)pc && (uint32_t)t > fn)
			fn = (uint32_t)t;
		if (ebpf_is_jmp(i) && (ebpf_is_cond_jmp(i) || ebpf_is_ja(i))) {
			long to = ebpf_jump_target(i, q);

			if (to <= (long)pc && q >= pc && (long)q - to < best) {
				best = (long)q - to;
				latch = q;
			}
		}
	}
	sbuf_printf(sb, "|%s", fn ? "sub" : "main");
	if (latch != UINT32_MAX)
		sbuf_printf(sb, "|loop=%02x", f->insns[latch].code);
	else
		sbuf_puts(sb, "|noloop");
	if (at)
		sbuf_printf(sb, "|at=%02x", f->insns[pc].code);
}

void finding_signature(struct finding *f, const struct claim_prog *cp)
{
	struct sbuf full = SBUF_INIT, core = SBUF_INIT;
	const char *kind = finding_kind_name(f->kind);
	char lc[16];

	if (!cp)
		cp = f->claims;
	sbuf_puts(&full, kind);
	sbuf_puts(&core, kind);
	if (f->kind == FIND_CRASH) {
		char frame[96];

		finding_crash_frame(frame, sizeof(frame), f->log);
		sbuf_printf(&full, "|%s|%s|%s", f->phase, f->crash, frame);
		sbuf_printf(&core, "|%s|%s|%s", f->phase, f->crash, frame);
	} else if (f->kind == FIND_VERDICT) {
		char buf[64];
		uint32_t pc;
		const char *why = verdict_fault(f, &pc, buf, sizeof(buf));
		bool steps = !strcmp(why, "past-bound") || !strcmp(why, "endless");

		/* (where a run ran out of steps is any pc of the loop: its opcode says nothing) */
		sbuf_printf(&full, "|%s|%s", f->source, why);
		sbuf_printf(&core, "|%s", why);
		put_fault_place(&full, f, pc, !steps);
	} else if (f->kind == FIND_RULE_GAP) {
		/* the kernel's message, numbers out: one signature a rule */
		const char *m = strstr(f->text, "limits: ");

		sbuf_printf(&full, "|%s|", f->source);
		sbuf_putc(&core, '|');
		for (m = m ? m + 8 : f->text; *m && *m != '\n'; m++) {
			bool num = isdigit((unsigned char)*m);

			while (num && (isxdigit((unsigned char)m[1]) || m[1] == 'x'))
				m++;	/* (a number, hexadecimal too, is one '#') */
			sbuf_putc(&full, num ? '#' : *m);
			sbuf_putc(&core, num ? '#' : *m);
		}
	} else if (!cp) {
		sbuf_printf(&full, "|%s", f->source);
	} else if (f->kind == FIND_RANGE || f->kind == FIND_KERNEL) {
		const struct claim_range *c = f->claim < cp->nranges ? &cp->ranges[f->claim] : NULL;

		if (c) {
			const struct claim_loop *l = innermost(cp, c->pc);
			const char *pos = l && l->header == c->pc ? "header" : l ? "body" :
					  is_exit_target(f, cp, c->pc) ? "exit" : "outside";

			loc_class(lc, sizeof(lc), c->loc);
			sbuf_printf(&full, "|%s|%s|%s", claim_source_name(c->source), lc, pos);
			sbuf_printf(&core, "|%s", claim_source_name(c->source));
			if (c->is_ptr) {
				sbuf_printf(&full, "|ptr:%s%s", claim_region_name(c->region),
					    c->maybe_null ? "?" : "");
				sbuf_printf(&core, "|ptr:%s", claim_region_name(c->region));
			} else {
				sbuf_printf(&full, "|%s", escape_dir(&c->r, f->observed));
				sbuf_puts(&core, "|scalar");
			}
			if (trip_dependent(c->source))
				put_latch(&full, f, l);
		}
	} else if (f->kind == FIND_TRIP_MAX || f->kind == FIND_TRIP_MIN) {
		const struct claim_loop *l = f->claim < cp->nloops ? &cp->loops[f->claim] : NULL;

		if (l) {
			sbuf_printf(&core, "|%s", trip_kind_name(l->trip.kind));
			put_latch(&full, f, l);
			sbuf_printf(&full, "|depth=%s|delta=%s", l->depth > 1 ? "inner" : "outer",
				    delta_class(f->observed,
						f->kind == FIND_TRIP_MAX ? l->trip.max : l->trip.min));
		}
	} else if (f->kind == FIND_IV) {
		const struct claim_loop *l = f->claim < cp->nloops ? &cp->loops[f->claim] : NULL;
		const char *when = strstr(f->text, "{start,") ? "start" : "step";

		sbuf_printf(&core, "|%s", when);
		if (l) {
			const struct claim_iv *iv = NULL;

			for (uint32_t k = 0; k < l->nivs; k++)
				if (l->ivs[k].loc == f->loc)
					iv = &l->ivs[k];
			loc_class(lc, sizeof(lc), f->loc);
			sbuf_printf(&full, "|%s|%s", when, lc);
			if (iv) {
				bool neg = iv->width == 32 ? (int32_t)iv->step < 0 : (int64_t)iv->step < 0;

				sbuf_printf(&full, "|w%u|%s", iv->width, neg ? "down" : "up");
				sbuf_printf(&core, "|w%u", iv->width);
			}
			put_latch(&full, f, l);
		}
	} else {
		sbuf_printf(&full, "|%s", f->source);
	}
	snprintf(f->sig.text, sizeof(f->sig.text), "%s", sbuf_cstr(&full));
	snprintf(f->sig.core_text, sizeof(f->sig.core_text), "%s", sbuf_cstr(&core));
	f->sig.full = fnv1a(f->sig.text);
	f->sig.core = fnv1a(f->sig.core_text);
	sbuf_free(&full);
	sbuf_free(&core);
}

void finding_dir_name(const struct finding *f, char *buf, size_t n)
{
	snprintf(buf, n, "%s-%016" PRIx64, finding_kind_name(f->kind), f->sig.full);
}

/* ---- building and freeing ---- */

/* The map line's "init=HEX" (ebpf_map_init_print) into md->init (value_size bytes, the rest 0):
 * 0, or -errno with *why. */
static int map_init_parse(struct ebpf_map_def *md, const char *hex, const char **why)
{
	uint8_t *b = NULL;
	size_t n = 0;
	struct diag d;

	*why = "init= is one to value-size bytes in hex, once";
	if (md->init || ebpf_parse_hex(&b, &n, hex, &d) || !n || n > md->value_size) {
		free(b);
		return -EINVAL;
	}
	md->init = calloc(1, md->value_size);
	if (md->init)
		memcpy(md->init, b, n);
	free(b);
	*why = "out of memory";
	return md->init ? 0 : -ENOMEM;
}

void finding__free(struct finding *f)
{
	if (!f)
		return;
	free(f->insns);
	for (size_t m = 0; f->maps && m < f->map_cnt; m++)
		free(f->maps[m].init);
	free(f->maps);
	free(f->globals);
	free(f->claims_json);
	if (f->claims)
		claim_prog__free(f->claims);
	free(f->claims);
	free(f->input);
	free(f->helper);
	free(f->log);
	memset(f, 0, sizeof(*f));
}

static void *dup_mem(const void *p, size_t n)
{
	void *q = malloc(n ? n : 1);

	if (q && n)
		memcpy(q, p, n);
	return q;
}

int finding_maps_own(struct ebpf_map_def *maps, size_t n)
{
	int err = 0;

	for (size_t m = 0; m < n; m++) {
		const uint8_t *init = maps[m].init;

		maps[m].init = NULL;
		if (init && !err && !(maps[m].init = dup_mem(init, maps[m].value_size)))
			err = -ENOMEM;
	}
	return err;
}

int finding__init(struct finding *f, uint8_t kind, const char *source, const char *strategy,
		  const struct ebpf_prog *prog, const struct ebpf_map_def *maps, size_t map_cnt,
		  const void *input, size_t input_len, const void *helper, size_t helper_len,
		  const struct claim_prog *cp)
{
	struct claims one = { .progs = (struct claim_prog *)cp, .nprogs = cp ? 1 : 0 };
	struct sbuf sb = SBUF_INIT;
	int err;

	memset(f, 0, sizeof(*f));
	f->kind = kind;
	snprintf(f->source, sizeof(f->source), "%s", source);
	snprintf(f->prog_name, sizeof(f->prog_name), "%s", prog->name);
	f->prog_type = prog->prog_type;
	snprintf(f->strategy, sizeof(f->strategy), "%s", strategy ? strategy :
		 cp && cp->strategy[0] ? cp->strategy : "forget");
	f->insns = dup_mem(prog->insns, prog->len * sizeof(*prog->insns));
	f->len = prog->len;
	f->maps = dup_mem(maps, map_cnt * sizeof(*maps));
	f->map_cnt = map_cnt;
	f->globals = dup_mem(prog->globals, prog->global_cnt * sizeof(*prog->globals));
	f->nglobals = prog->global_cnt;
	f->input = dup_mem(input, input_len);
	f->input_len = input_len;
	f->helper = dup_mem(helper, helper_len);
	f->helper_len = helper_len;
	claims_write(&sb, &one);
	f->claims_json = sbuf_detach(&sb);
	if (!f->insns || !f->maps || !f->globals || !f->input || !f->helper || !f->claims_json) {
		finding__free(f);
		return -ENOMEM;
	}
	if ((err = finding_maps_own(f->maps, map_cnt))) {
		finding__free(f);
		return err;
	}
	return 0;
}

int finding__from_check(struct finding *f, const struct check_finding *cf,
			const struct ebpf_prog *prog, const struct ebpf_map_def *maps,
			size_t map_cnt, const struct claim_prog *cp)
{
	int err = finding__init(f, cf->kind, "check", NULL, prog, maps, map_cnt, cf->input,
				cf->input_len, cf->helper_data, cf->helper_len, cp);

	if (err)
		return err;
	f->claim = cf->claim;
	f->pc = cf->pc;
	f->loc = cf->loc;
	f->observed = cf->observed;
	snprintf(f->text, sizeof(f->text), "%s", cf->text);
	finding_signature(f, cp);
	return 0;
}

int finding__from_verdict(struct finding *f, const struct ebpf_prog *prog,
			  const struct ebpf_map_def *maps, size_t map_cnt, const char *fault,
			  const void *input, size_t input_len)
{
	int err = finding__init(f, FIND_VERDICT, "verdict", "verify", prog, maps, map_cnt, input,
				input_len, NULL, 0, NULL);

	if (err)
		return err;
	snprintf(f->text, sizeof(f->text), "bpfscev verify calls it safe, but it faults when run: %s",
		 fault);
	finding_signature(f, NULL);
	return 0;
}

int finding__from_rule_gap(struct finding *f, const struct ebpf_prog *prog,
			   const struct ebpf_map_def *maps, size_t map_cnt, const char *message)
{
	int err = finding__init(f, FIND_RULE_GAP, "verdict", "verify", prog, maps, map_cnt, NULL, 0,
				NULL, 0, NULL);

	if (err)
		return err;
	snprintf(f->text, sizeof(f->text), "bpfscev verify calls it safe, and the kernel refuses it "
		 "by none of its limits: %s", message);
	finding_signature(f, NULL);
	return 0;
}

/* ---- writing ---- */

static int write_file(const char *dir, const char *name, const void *data, size_t len)
{
	char path[4096];
	int fd;
	ssize_t w;
	const char *p = data;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	while (len) {
		w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			w = -errno;
			close(fd);
			return (int)w;
		}
		p += w;
		len -= (size_t)w;
	}
	/* the rename that publishes the directory must not overtake the data */
	if (fsync(fd)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return close(fd) ? -errno : 0;
}

static void put_hex(struct sbuf *sb, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sbuf_printf(sb, "%02x%s", b[i], (i + 1) % 16 == 0 || i + 1 == n ? "\n" : " ");
}

/* One value per line: newlines in free text would break the reader. */
static void put_kv(struct sbuf *sb, const char *key, const char *val)
{
	if (key[0])	/* "" continues a line the caller began */
		sbuf_printf(sb, "%s: ", key);
	for (; *val; val++)
		sbuf_putc(sb, *val == '\n' || *val == '\r' ? ' ' : *val);
	sbuf_putc(sb, '\n');
}

static void format_finding_txt(struct sbuf *sb, const struct finding *f, const char *shown_path)
{
	char loc[32], buf[128];

	sbuf_puts(sb, "# bpfscev finding: which claim failed, what was observed, where it came "
		      "from.\n# 'bpfscev replay DIR' reproduces it; crashes/README.md has the format.\n");
	put_kv(sb, "kind", finding_kind_name(f->kind));
	snprintf(buf, sizeof(buf), "%016" PRIx64, f->sig.full);
	put_kv(sb, "signature", buf);
	put_kv(sb, "signature_text", f->sig.text);
	snprintf(buf, sizeof(buf), "%016" PRIx64, f->sig.core);
	put_kv(sb, "core", buf);
	put_kv(sb, "core_text", f->sig.core_text);
	put_kv(sb, "source", f->source);
	put_kv(sb, "text", f->text);
	sbuf_printf(sb, "pc: %u\n", f->pc);
	loc_format(f->loc, loc, sizeof(loc));
	if (f->kind == FIND_RANGE || f->kind == FIND_IV || f->kind == FIND_KERNEL)
		put_kv(sb, "loc", loc);
	sbuf_printf(sb, "claim_index: %u\nobserved: %" PRIu64 "\n", f->claim, f->observed);
	if (f->kind == FIND_CRASH) {
		put_kv(sb, "phase", f->phase);
		put_kv(sb, "crash", f->crash);
	}
	put_kv(sb, "program", f->prog_name);
	sbuf_printf(sb, "prog_type: %u\ninsns: %zu\n", f->prog_type, f->len);
	put_kv(sb, "strategy", f->strategy[0] ? f->strategy : "forget");
	for (size_t m = 0; m < f->map_cnt; m++) {
		const struct ebpf_map_def *md = &f->maps[m];

		sbuf_printf(sb, "map: %zu type=%u key=%u value=%u entries=%u flags=%u name=%s", m,
			    md->type, md->key_size, md->value_size, md->max_entries, md->flags,
			    md->name[0] ? md->name : "-");
		if (md->timer)
			sbuf_printf(sb, " timer=%u", md->timer - 1);
		ebpf_map_fields_print(sb, md);
		ebpf_map_init_print(sb, md);
		sbuf_putc(sb, '\n');
	}
	if (f->has_origin) {
		sbuf_printf(sb, "campaign_seed: %" PRIu64 "\nindex: %" PRIu64 "\nprogram_seed: %#"
			    PRIx64 "\n", f->campaign_seed, f->index, f->prog_seed);
		put_kv(sb, "knobs", f->knobs);
	}
	if (f->note[0])
		put_kv(sb, "note", f->note);
	sbuf_puts(sb, "replay: bpfscev replay ");
	put_kv(sb, "", shown_path);
}

/* A data file both the assembler and `bpfscev check` read: comments, "-- asm" in kernel syntax
 * with pcs and labels (it assembles back to the same slots), then the input and helper bytes. */
static void format_prog_s(struct sbuf *sb, const struct finding *f, const struct bpf_insn *insns,
			  size_t len, const struct ebpf_global_func *globals, size_t nglobals,
			  const char *comment)
{
	sbuf_printf(sb, "; bpfscev finding %s: %s\n", finding_kind_name(f->kind), f->text);
	if (comment)
		sbuf_printf(sb, "; %s\n", comment);
	sbuf_printf(sb, "; program %s, type %u, %zu slots; the claims are in claims.json\n-- asm\n",
		    f->prog_name, f->prog_type, len);
	ebpf_disasm_globals(sb, insns, len, globals, nglobals, EBPF_DISASM_PC | EBPF_DISASM_LABELS);
	sbuf_puts(sb, "-- input\n");
	put_hex(sb, f->input, f->input_len);
	sbuf_puts(sb, "-- helper\n");
	put_hex(sb, f->helper, f->helper_len);
}

/* One file replaced atomically: a temporary name, then rename. */
static int write_file_atomic(const char *dir, const char *name, const void *data, size_t len)
{
	char tmpname[512], from[4096], to[4096];
	int err;

	snprintf(tmpname, sizeof(tmpname), ".%s.tmp-%ld", name, (long)getpid());
	if ((err = write_file(dir, tmpname, data, len)))
		return err;
	snprintf(from, sizeof(from), "%s/%s", dir, tmpname);
	snprintf(to, sizeof(to), "%s/%s", dir, name);
	if (rename(from, to)) {
		err = -errno;
		unlink(from);
		return err;
	}
	return 0;
}

int finding__write_program(const struct finding *f, const char *dir, const char *base,
			   const struct bpf_insn *insns, size_t len,
			   const struct ebpf_global_func *globals, size_t nglobals,
			   const char *comment)
{
	struct sbuf sb = SBUF_INIT;
	char name[256];
	int err;

	format_prog_s(&sb, f, insns, len, globals, nglobals, comment);
	if (sb.oom) {
		sbuf_free(&sb);
		return -ENOMEM;
	}
	snprintf(name, sizeof(name), "%s.s", base);
	err = write_file_atomic(dir, name, sb.buf, sb.len);
	sbuf_free(&sb);
	if (err)
		return err;
	snprintf(name, sizeof(name), "%s.bin", base);
	return write_file_atomic(dir, name, insns, len * sizeof(*insns));
}

static int write_dir_files(const char *tmp, const struct finding *f, const char *shown_path,
			   const struct finding_save_opts *o)
{
	struct sbuf sb = SBUF_INIT;
	int err;

	format_prog_s(&sb, f, f->insns, f->len, f->globals, f->nglobals, NULL);
	if (sb.oom)
		goto oom;
	if ((err = write_file(tmp, "prog.s", sb.buf, sb.len)))
		goto out;
	if ((err = write_file(tmp, "prog.bin", f->insns, f->len * sizeof(*f->insns))))
		goto out;
	sbuf_reset(&sb);
	put_hex(&sb, f->input, f->input_len);
	if (sb.oom)
		goto oom;
	if ((err = write_file(tmp, "input.hex", sbuf_cstr(&sb), sb.len)))
		goto out;
	sbuf_reset(&sb);
	put_hex(&sb, f->helper, f->helper_len);
	if (sb.oom)
		goto oom;
	if ((err = write_file(tmp, "helper.hex", sbuf_cstr(&sb), sb.len)))
		goto out;
	if (f->claims_json && f->claims_json[0] &&
	    (err = write_file(tmp, "claims.json", f->claims_json, strlen(f->claims_json))))
		goto out;
	if (f->log && (err = write_file(tmp, "stderr.txt", f->log, strlen(f->log))))
		goto out;
	sbuf_reset(&sb);
	format_finding_txt(&sb, f, shown_path);
	if (sb.oom)
		goto oom;
	if ((err = write_file(tmp, "finding.txt", sb.buf, sb.len)))
		goto out;
	sbuf_reset(&sb);
	sbuf_printf(&sb, "#!/bin/sh\n# Replays this finding: exit 1 while it still holds, 0 once "
		    "fixed.\n# Set BPFSCEV to the bpfscev binary to use another one.\n"
		    "exec \"${BPFSCEV:-%s}\" replay \"$(dirname \"$0\")\" \"$@\"\n",
		    o && o->replay_cmd ? o->replay_cmd : "bpfscev");
	if (sb.oom)
		goto oom;
	if ((err = write_file(tmp, "replay.sh", sb.buf, sb.len)))
		goto out;
	{
		char p[4200];

		snprintf(p, sizeof(p), "%s/replay.sh", tmp);
		chmod(p, 0755);
	}
	err = 0;
	goto out;
oom:
	err = -ENOMEM;
out:
	sbuf_free(&sb);
	return err;
}

static void remove_tree(const char *path)
{
	DIR *dir = opendir(path);
	struct dirent *e;
	char p[4096];

	if (dir) {
		while ((e = readdir(dir))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			snprintf(p, sizeof(p), "%s/%s", path, e->d_name);
			unlink(p);
		}
		closedir(dir);
	}
	rmdir(path);
}

static int mkdir_p(const char *path)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s", path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	if (mkdir(p, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

/* Campaign and index of an existing finding directory: false when it has none. */
static bool read_origin(const char *dir, uint64_t *seed, uint64_t *index)
{
	char p[4096], line[1200];
	bool hs = false, hi = false;
	FILE *fp;

	snprintf(p, sizeof(p), "%s/finding.txt", dir);
	fp = fopen(p, "r");
	if (!fp)
		return false;
	while (fgets(line, sizeof(line), fp)) {
		if (!strncmp(line, "campaign_seed: ", 15)) {
			*seed = strtoull(line + 15, NULL, 0);
			hs = true;
		} else if (!strncmp(line, "index: ", 7)) {
			*index = strtoull(line + 7, NULL, 0);
			hi = true;
		}
	}
	fclose(fp);
	return hs && hi;
}

static void fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

int finding__save(const struct finding *f, const char *dir, const struct finding_save_opts *o,
		  enum finding_save_result *res, char *path, size_t path_len)
{
	static unsigned counter;
	char name[64], final[4096], tmp[4096];
	uint64_t oseed, oindex;
	struct stat st;
	int err;

	finding_dir_name(f, name, sizeof(name));
	snprintf(final, sizeof(final), "%s/%s", dir, name);
	if (path)
		snprintf(path, path_len, "%s", final);
	if ((err = mkdir_p(dir)))
		return err;
	if (!stat(final, &st)) {
		/* already saved: the common case, decided without writing anything */
		bool same_campaign = f->has_origin && read_origin(final, &oseed, &oindex) &&
				     oseed == f->campaign_seed;

		if (!same_campaign || !o || !o->prefer_earlier || f->index > oindex) {
			*res = same_campaign && f->index == oindex ? FINDING_SAME : FINDING_DUP;
			return 0;
		}
		if (f->index == oindex) {
			*res = FINDING_SAME;
			return 0;
		}
	}
	snprintf(tmp, sizeof(tmp), "%s/.tmp-%s-%ld-%u", dir, name, (long)getpid(), counter++);
	remove_tree(tmp);
	if (mkdir(tmp, 0755))
		return -errno;
	if ((err = write_dir_files(tmp, f, final, o))) {
		remove_tree(tmp);
		return err;
	}
	fsync_dir(tmp);
	if (!rename(tmp, final)) {
		*res = FINDING_NEW;
	} else if (errno == ENOTEMPTY || errno == EEXIST) {
		/* saved meanwhile, or an earlier program of this campaign replaces it: an
		 * atomic exchange keeps a complete directory under the name at every moment */
		if (o && o->prefer_earlier && f->has_origin && read_origin(final, &oseed, &oindex) &&
		    oseed == f->campaign_seed && f->index < oindex &&
		    !renameat2(AT_FDCWD, tmp, AT_FDCWD, final, RENAME_EXCHANGE)) {
			*res = FINDING_REPLACED;
		} else {
			*res = FINDING_DUP;
		}
		remove_tree(tmp);
	} else {
		err = -errno;
		remove_tree(tmp);
		return err;
	}
	fsync_dir(dir);
	return 0;
}

void finding_dir_cleanup(const char *dir)
{
	DIR *dd = opendir(dir);
	struct dirent *e;
	char p[4096];

	if (!dd)
		return;
	while ((e = readdir(dd))) {
		const char *dash;
		long pid;

		if (strncmp(e->d_name, ".tmp-", 5))
			continue;
		/* ".tmp-<name>-<pid>-<counter>" */
		dash = strrchr(e->d_name, '-');
		if (!dash || dash == e->d_name)
			continue;
		{
			const char *q = dash - 1;

			while (q > e->d_name && *q != '-')
				q--;
			pid = strtol(q + 1, NULL, 10);
		}
		if (pid > 0 && (pid == (long)getpid() || !kill((pid_t)pid, 0) || errno != ESRCH))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		remove_tree(p);
	}
	closedir(dd);
}

/* ---- reading ---- */

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0, got;

	if (!fp)
		return NULL;
	for (;;) {
		if (n + 4097 > cap) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 8192);

			if (!nb) {
				free(buf);
				fclose(fp);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n - 1, fp);
		n += got;
		if (!got)
			break;
	}
	fclose(fp);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

static int load_hex(uint8_t **out, size_t *len, const char *dir, const char *name,
		    struct diag *d)
{
	char p[4096];
	char *text;
	int err;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	text = slurp(p, NULL);
	if (!text) {	/* optional: an empty input */
		*out = calloc(1, 1);
		*len = 0;
		return *out ? 0 : -ENOMEM;
	}
	diag_set_file(d, p);
	err = ebpf_parse_hex(out, len, text, d);
	free(text);
	return err;
}

static void copy_val(char *dst, size_t n, const char *v)
{
	size_t l = strlen(v);

	while (l && (v[l - 1] == '\n' || v[l - 1] == '\r'))
		l--;
	if (l >= n)
		l = n - 1;
	memcpy(dst, v, l);
	dst[l] = '\0';
}

static int parse_kind(const char *s)
{
	for (int k = 0; k <= FIND_KIND_LAST; k++)
		if (!strcmp(finding_kind_name(k), s))
			return k;
	return -1;
}

static int parse_txt(struct finding *f, char *text, const char *path, struct diag *d)
{
	char *save = NULL, val[1200];
	int line = 0, kind = -1;

	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *colon;

		line++;
		if (l[0] == '#' || !l[0])
			continue;
		colon = strstr(l, ": ");
		if (!colon) {
			if (l[strlen(l) - 1] == ':')	/* "key:" with an empty value */
				continue;
			diag_set_file(d, path);
			return diag_at_line(d, EINVAL, line, 1, "expected 'key: value'");
		}
		*colon = '\0';
		copy_val(val, sizeof(val), colon + 2);
		if (!strcmp(l, "kind")) {
			kind = parse_kind(val);
			if (kind < 0) {
				diag_set_file(d, path);
				return diag_at_line(d, EINVAL, line, 7, "unknown kind '%s'", val);
			}
			f->kind = (uint8_t)kind;
		} else if (!strcmp(l, "source")) {
			copy_val(f->source, sizeof(f->source), val);
		} else if (!strcmp(l, "text")) {
			copy_val(f->text, sizeof(f->text), val);
		} else if (!strcmp(l, "pc")) {
			f->pc = (uint32_t)strtoul(val, NULL, 0);
		} else if (!strcmp(l, "loc")) {
			if (loc_parse(val, &f->loc)) {
				diag_set_file(d, path);
				return diag_at_line(d, EINVAL, line, 6, "bad location '%s'", val);
			}
		} else if (!strcmp(l, "claim_index")) {
			f->claim = (uint32_t)strtoul(val, NULL, 0);
		} else if (!strcmp(l, "observed")) {
			f->observed = strtoull(val, NULL, 0);
		} else if (!strcmp(l, "phase")) {
			copy_val(f->phase, sizeof(f->phase), val);
		} else if (!strcmp(l, "crash")) {
			copy_val(f->crash, sizeof(f->crash), val);
		} else if (!strcmp(l, "program")) {
			copy_val(f->prog_name, sizeof(f->prog_name), val);
		} else if (!strcmp(l, "prog_type")) {
			f->prog_type = (uint32_t)strtoul(val, NULL, 0);
		} else if (!strcmp(l, "strategy")) {
			copy_val(f->strategy, sizeof(f->strategy), val);
		} else if (!strcmp(l, "map")) {
			struct ebpf_map_def md = { 0 }, *nm;
			size_t idx;
			char name[64] = "";
			unsigned timer;

			if (sscanf(val, "%zu type=%u key=%u value=%u entries=%u flags=%u name=%63s", &idx,
				   &md.type, &md.key_size, &md.value_size, &md.max_entries, &md.flags,
				   name) < 6 || idx != f->map_cnt) {
				diag_set_file(d, path);
				return diag_at_line(d, EINVAL, line, 6, "bad map line");
			}
			if (strcmp(name, "-"))
				snprintf(md.name, sizeof(md.name), "%s", name);
			if (strstr(val, " timer=") && sscanf(strstr(val, " timer="), " timer=%u",
							     &timer) == 1)
				md.timer = timer + 1;
			/* (the fields' tokens, as ebpf_map_fields_print wrote them, and the
			 * contents, ebpf_map_init_print's: from the line itself, longer than val
			 * may hold) */
			{
				char *save = NULL, *tok;
				const char *why;
				int err = 0;

				for (tok = strtok_r(colon + 2, " ", &save); tok;
				     tok = strtok_r(NULL, " ", &save)) {
					if (!strncmp(tok, "init=", 5)) {
						err = map_init_parse(&md, tok + 5, &why);
					} else if (ebpf_map_field_parse(&md, tok, &why) < 0) {
						err = -EINVAL;
					}
					if (err) {
						free(md.init);
						diag_set_file(d, path);
						return diag_at_line(d, -err, line, 6, "bad map line: "
								    "%s", why);
					}
				}
			}
			nm = realloc(f->maps, (f->map_cnt + 1) * sizeof(*nm));
			if (!nm) {
				free(md.init);
				return diag_set(d, ENOMEM, "out of memory");
			}
			f->maps = nm;
			f->maps[f->map_cnt++] = md;
		} else if (!strcmp(l, "campaign_seed")) {
			f->campaign_seed = strtoull(val, NULL, 0);
			f->has_origin = true;
		} else if (!strcmp(l, "index")) {
			f->index = strtoull(val, NULL, 0);
		} else if (!strcmp(l, "program_seed")) {
			f->prog_seed = strtoull(val, NULL, 0);
		} else if (!strcmp(l, "knobs")) {
			copy_val(f->knobs, sizeof(f->knobs), val);
		} else if (!strcmp(l, "note")) {
			copy_val(f->note, sizeof(f->note), val);
		}
		/* signature, core, replay, insns: derived; unknown keys: newer writers */
	}
	if (kind < 0) {
		diag_set_file(d, path);
		return diag_set(d, EINVAL, "no 'kind' line");
	}
	return 0;
}

/* The prototypes of the .global lines in the "-- asm" section of the .s file at path (none
 * when it has none or is missing); the section must assemble to insns[len]. */
static int read_globals(const char *path, const struct bpf_insn *insns, size_t len,
			struct ebpf_global_func **globals, size_t *nglobals, struct diag *d)
{
	char *text = slurp(path, NULL), *a, *e;
	struct bpf_insn *got = NULL;
	size_t got_len = 0;
	int line = 1, err;

	*globals = NULL;
	*nglobals = 0;
	if (!text || !strstr(text, "\n.global "))
		goto out;	/* nothing to read: no global functions */
	a = strstr(text, "-- asm\n");
	if (!a) {
		diag_set_file(d, path);
		err = diag_set(d, EINVAL, "no '-- asm' section");
		goto fail;
	}
	for (char *c = text; c < a; c++)
		line += *c == '\n';
	a += 7;
	e = strstr(a, "\n-- ");
	diag_set_file(d, path);
	if ((err = ebpf_asm_globals(&got, &got_len, NULL, globals, nglobals, a,
				    e ? (size_t)(e + 1 - a) : strlen(a), line + 1, d)))
		goto fail;
	if (got_len != len || memcmp(got, insns, len * sizeof(*insns))) {
		err = diag_set(d, EINVAL, "its '-- asm' section does not assemble to the .bin file's "
			       "%zu slots (%zu): the .global lines cannot be placed", len, got_len);
		goto fail;
	}
out:
	free(got);
	free(text);
	return 0;
fail:
	free(got);
	free(text);
	free(*globals);
	*globals = NULL;
	*nglobals = 0;
	return err;
}

int finding__read_program(const char *dir, const char *base, struct bpf_insn **insns,
			  size_t *len, struct ebpf_global_func **globals, size_t *nglobals,
			  struct diag *d)
{
	char p[4096];
	size_t n;
	char *text;
	int err;

	*insns = NULL;
	*len = 0;
	snprintf(p, sizeof(p), "%s/%s.bin", dir, base);
	text = slurp(p, &n);
	if (!text || !n || n % sizeof(struct bpf_insn)) {
		free(text);
		diag_set_file(d, p);
		return diag_set(d, EINVAL, text ? "not a whole number of 8-byte slots" :
				"cannot read");
	}
	snprintf(p, sizeof(p), "%s/%s.s", dir, base);
	if ((err = read_globals(p, (struct bpf_insn *)text, n / sizeof(struct bpf_insn), globals,
				nglobals, d))) {
		free(text);
		return err;
	}
	*insns = (struct bpf_insn *)text;
	*len = n / sizeof(struct bpf_insn);
	return 0;
}

int finding__load(struct finding *f, const char *dir, struct diag *d)
{
	char p[4096];
	char *text;
	size_t len;
	int err;

	memset(f, 0, sizeof(*f));
	diag_clear(d);
	snprintf(p, sizeof(p), "%s/finding.txt", dir);
	text = slurp(p, NULL);
	if (!text) {
		diag_set_file(d, p);
		return diag_set(d, errno ? errno : EIO, "cannot read: %s", strerror(errno));
	}
	err = parse_txt(f, text, p, d);
	free(text);
	if (err)
		goto fail;
	if ((err = finding__read_program(dir, "prog", &f->insns, &f->len, &f->globals,
					 &f->nglobals, d)))
		goto fail;
	if ((err = load_hex(&f->input, &f->input_len, dir, "input.hex", d)) ||
	    (err = load_hex(&f->helper, &f->helper_len, dir, "helper.hex", d)))
		goto fail;
	snprintf(p, sizeof(p), "%s/claims.json", dir);
	f->claims_json = slurp(p, &len);
	if (f->claims_json) {
		struct claims *c = NULL;

		diag_set_file(d, p);
		if ((err = claims_read(&c, f->claims_json, len, d)))
			goto fail;
		if (c->nprogs) {
			f->claims = malloc(sizeof(*f->claims));
			if (!f->claims) {
				claims__free(c);
				err = diag_set(d, ENOMEM, "out of memory");
				goto fail;
			}
			/* take the first program's members; the rest is freed */
			*f->claims = c->progs[0];
			memset(&c->progs[0], 0, sizeof(c->progs[0]));
		}
		claims__free(c);
	}
	snprintf(p, sizeof(p), "%s/stderr.txt", dir);
	f->log = slurp(p, NULL);
	finding_signature(f, NULL);
	diag_clear(d);
	return 0;
fail:
	finding__free(f);
	return err;
}

int finding__object(struct ebpf_object **out, const struct finding *f,
		    const struct bpf_insn *insns, size_t len,
		    const struct ebpf_global_func *globals, size_t nglobals, struct diag *d)
{
	struct ebpf_object *obj = NULL;
	int err;

	if (!insns) {
		insns = f->insns;
		len = f->len;
		globals = f->globals;
		nglobals = f->nglobals;
	}
	err = ebpf_object__from_insns(&obj, insns, len, f->prog_name[0] ? f->prog_name : "prog", d);
	if (err)
		return err;
	obj->progs[0].prog_type = f->prog_type;
	if (nglobals) {
		obj->progs[0].globals = dup_mem(globals, nglobals * sizeof(*globals));
		if (!obj->progs[0].globals) {
			ebpf_object__free(obj);
			return diag_set(d, ENOMEM, "out of memory");
		}
		obj->progs[0].global_cnt = nglobals;
	}
	if (f->map_cnt) {
		obj->maps = calloc(f->map_cnt, sizeof(*obj->maps));
		if (!obj->maps) {
			ebpf_object__free(obj);
			return diag_set(d, ENOMEM, "out of memory");
		}
		memcpy(obj->maps, f->maps, f->map_cnt * sizeof(*obj->maps));
		obj->map_cnt = f->map_cnt;
		if (finding_maps_own(obj->maps, obj->map_cnt)) {	/* (the object's own) */
			ebpf_object__free(obj);
			return diag_set(d, ENOMEM, "out of memory");
		}
	}
	*out = obj;
	return 0;
}

/* ---- crashes ---- */

static const char *signal_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGABRT: return "SIGABRT";
	case SIGBUS: return "SIGBUS";
	case SIGFPE: return "SIGFPE";
	case SIGILL: return "SIGILL";
	case SIGKILL: return "SIGKILL";
	case SIGALRM: return "SIGALRM";
	case SIGTRAP: return "SIGTRAP";
	default: return NULL;
	}
}

void finding_crash_class(char *buf, size_t n, int st, bool timed_out, const char *log)
{
	const char *s;

	if (timed_out) {
		snprintf(buf, n, "timeout");
		return;
	}
	if (log && (s = strstr(log, "ERROR: AddressSanitizer: "))) {
		s += 25;
		snprintf(buf, n, "asan:%.*s", (int)strcspn(s, " \n"), s);
		return;
	}
	if (log && (s = strstr(log, "ERROR: LeakSanitizer:"))) {
		snprintf(buf, n, "lsan:leak");
		return;
	}
	if (log && (s = strstr(log, "runtime error: "))) {
		/* the words of the message up to the first number or quote: "signed integer
		 * overflow", "shift exponent", "load of misaligned address" */
		const char *e;
		size_t len;

		s += 15;
		e = s;
		for (const char *w = s; *w && *w != '\n' && *w != ':';) {
			const char *we = w + strcspn(w, " :\n");
			bool plain = true;

			for (const char *c = w; c < we; c++)
				if ((*c >= '0' && *c <= '9') || *c == '\'' || *c == '"' || *c == '(')
					plain = false;
			if (!plain)
				break;
			e = we;
			w = we;
			while (*w == ' ')
				w++;
		}
		len = (size_t)(e - s);
		snprintf(buf, n, "ubsan:%.*s", (int)len, s);
		return;
	}
	if (WIFSIGNALED(st)) {
		const char *name = signal_name(WTERMSIG(st));

		if (name)
			snprintf(buf, n, "%s", name);
		else
			snprintf(buf, n, "signal %d", WTERMSIG(st));
		return;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st)) {
		snprintf(buf, n, "exit %d", WEXITSTATUS(st));
		return;
	}
	if (n)
		buf[0] = '\0';
}

static bool runtime_frame(const char *fn)
{
	static const char *const skip[] = {
		"__asan", "__interceptor", "__sanitizer", "__ubsan", "__lsan", "__GI_", "__libc",
		"malloc", "calloc", "realloc", "free", "mem", "str", "abort", "raise", "_start",
		"main", "__wrap", "__pthread", "pthread_", "gsignal", "__restore_rt", "_IO_",
	};

	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strncmp(fn, skip[i], strlen(skip[i])))
			return true;
	return false;
}

void finding_crash_frame(char *buf, size_t n, const char *log)
{
	const char *s;

	if (n)
		buf[0] = '\0';
	if (!log)
		return;
	/* UBSan: "claims/range.c:120:5: runtime error: ..." — the source position is the key */
	if ((s = strstr(log, ": runtime error: "))) {
		const char *b = s;

		while (b > log && b[-1] != '\n' && b[-1] != ' ')
			b--;
		/* drop the column: "file:line" */
		{
			const char *c = s;
			int colons = 0;

			while (c > b && colons < 1) {
				c--;
				if (*c == ':')
					colons++;
			}
			const char *base = b;

			for (const char *q = b; q < c; q++)
				if (*q == '/')
					base = q + 1;
			snprintf(buf, n, "%.*s", (int)(c - base), base);
		}
		return;
	}
	/* ASan: "    #2 0x55d... in range_alu /path/claims/range.c:120:5" */
	for (s = log; (s = strstr(s, " in ")); s += 4) {
		const char *line = s, *fn = s + 4;
		size_t l = strcspn(fn, " \n");
		char name[96];

		while (line > log && line[-1] != '\n')
			line--;
		while (*line == ' ')
			line++;
		if (line[0] != '#')
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)l, fn);
		if (!runtime_frame(name)) {
			snprintf(buf, n, "%s", name);
			return;
		}
	}
}

int finding_analyze_isolated(const struct ebpf_prog *prog, const struct ebpf_map_def *maps,
			     size_t map_cnt, const struct scev_opts *so, double timeout,
			     char *crash, size_t crash_len, char **log)
{
	struct sbuf out = SBUF_INIT;
	double deadline;
	bool timed_out = false, eof = false;
	int fds[2], st = 0;
	pid_t pid;

	if (timeout <= 0)
		timeout = 5;
	if (log)
		*log = NULL;
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		close(fds[0]);
		close(fds[1]);
		return err;
	}
	if (pid == 0) {
		struct claim_prog cp = { 0 };
		struct diag d;

		dup2(fds[1], 2);
		signal(SIGINT, SIG_IGN);
		diag_clear(&d);
		scev_analyze(&cp, prog, maps, map_cnt, so, &d);
		claim_prog__free(&cp);
		_exit(0);	/* no atexit handlers, no leak report for the parent's heap */
	}
	close(fds[1]);
	deadline = wall_s() + timeout;
	while (!eof) {
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
		double left = deadline - wall_s();
		char buf[4096];
		ssize_t r;

		if (left <= 0) {
			kill(pid, SIGKILL);
			timed_out = true;
			break;
		}
		if (poll(&pfd, 1, (int)(left * 1000) + 1) <= 0)
			continue;
		r = read(fds[0], buf, sizeof(buf));
		if (r > 0) {
			if (out.len < (1u << 20))
				sbuf_put(&out, buf, (size_t)r);
		} else if (r == 0 || errno != EINTR) {
			eof = true;
		}
	}
	close(fds[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	finding_crash_class(crash, crash_len, st, timed_out, out.len ? sbuf_cstr(&out) : NULL);
	if (log && out.len)
		*log = sbuf_detach(&out);
	sbuf_free(&out);
	return 0;
}
