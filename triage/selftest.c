/* A reduced program written as a kernel verifier selftest.  See selftest.h.  Each instruction is
 * the disassembler's kernel syntax (bpf/disasm.c), which LLVM's BPF assembler reads, with three
 * rewrites: jump targets become local labels ("goto l3_%="), map addresses and helper calls
 * become asm operands ("r1 = %[map0] ll", "call %[bpf_map_lookup_elem]"), so the compiled
 * object carries the relocations libbpf resolves at load time.
 */
#include "triage/selftest.h"

#include <bpf/libbpf.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/asm.h"

const char *selftest_section(uint32_t t)
{
	switch (t) {
	case BPF_PROG_TYPE_UNSPEC:
	case BPF_PROG_TYPE_SOCKET_FILTER: return "socket";
	case BPF_PROG_TYPE_XDP: return "xdp";
	case BPF_PROG_TYPE_SCHED_CLS: return "tc";
	case BPF_PROG_TYPE_SCHED_ACT: return "action";
	case BPF_PROG_TYPE_CGROUP_SKB: return "cgroup/skb";
	case BPF_PROG_TYPE_KPROBE: return "kprobe";
	case BPF_PROG_TYPE_TRACEPOINT: return "tracepoint";
	case BPF_PROG_TYPE_RAW_TRACEPOINT: return "raw_tp";
	case BPF_PROG_TYPE_PERF_EVENT: return "perf_event";
	case BPF_PROG_TYPE_LWT_IN: return "lwt_in";
	case BPF_PROG_TYPE_LWT_OUT: return "lwt_out";
	case BPF_PROG_TYPE_LWT_XMIT: return "lwt_xmit";
	case BPF_PROG_TYPE_SK_SKB: return "sk_skb";
	case BPF_PROG_TYPE_SOCK_OPS: return "sockops";
	case BPF_PROG_TYPE_CGROUP_SOCK: return "cgroup/sock";
	case BPF_PROG_TYPE_FLOW_DISSECTOR: return "flow_dissector";
	default: return NULL;
	}
}

void selftest_msg_of(char *buf, size_t n, const char *message, const char *log)
{
	static const char *const marks[] = { "REG INVARIANTS VIOLATION", "verifier bug" };

	for (size_t k = 0; log && k < sizeof(marks) / sizeof(marks[0]); k++) {
		const char *at = strstr(log, marks[k]), *e;

		if (!at)
			continue;
		/* "REG INVARIANTS VIOLATION (true_reg1)": the name without the numbers after it */
		e = strchr(at, ')');
		if (k == 0 && e && !memchr(at, '\n', (size_t)(e - at))) {
			snprintf(buf, n, "%.*s", (int)(e + 1 - at), at);
			return;
		}
		e = at + strcspn(at, ":\n");
		snprintf(buf, n, "%.*s", (int)(e - at), at);
		return;
	}
	snprintf(buf, n, "%.*s", message ? (int)strcspn(message, "\n") : 0, message ? message : "");
}

static void put_c_string(struct sbuf *sb, const char *s)
{
	sbuf_putc(sb, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			sbuf_putc(sb, '\\');
		if ((unsigned char)*s < 0x20)
			sbuf_printf(sb, "\\x%02x", (unsigned char)*s);
		else
			sbuf_putc(sb, *s);
	}
	sbuf_putc(sb, '"');
}

/* A C identifier from a map's name: other characters become '_'; "" gives "map<m>". */
static void map_ident(char *buf, size_t n, const struct reduce_prog *p, size_t m)
{
	const char *s = p->maps[m].name;
	size_t k = 0;

	if (!s[0] || isdigit((unsigned char)s[0])) {
		snprintf(buf, n, "map%zu", m);
		return;
	}
	for (; *s && k + 1 < n; s++)
		buf[k++] = isalnum((unsigned char)*s) ? *s : '_';
	buf[k] = '\0';
	/* two maps of the same name: the later ones get their index */
	for (size_t o = 0; o < m; o++)
		if (!strcmp(p->maps[o].name, p->maps[m].name)) {
			snprintf(buf + k, n - k, "_%zu", m);
			break;
		}
}

/* Why LLVM 14's assembler (or this writer) cannot write the instruction; NULL when it can. */
static const char *unsupported(const struct bpf_insn *i)
{
	uint8_t cls = ebpf_class(i), op = ebpf_op(i);

	if (ebpf_is_pseudo_call(i))
		return "a bpf-to-bpf call";
	if (ebpf_is_call(i) && (i->src_reg == BPF_PSEUDO_KFUNC_CALL || ebpf_srcbit(i) == BPF_X))
		return "a kfunc call or callx";
	if (ebpf_is_call(i) && !ebpf_helper_name(i->imm))
		return "a call of an unknown helper";
	if (ebpf_is_ldimm64(i) && i->src_reg != 0 && !((i->src_reg == BPF_PSEUDO_MAP_FD ||
							i->src_reg == BPF_PSEUDO_MAP_IDX)))
		return "an LD_IMM64 of a map value, BTF object or function";
	if ((cls == BPF_ALU || cls == BPF_ALU64) && (op == BPF_MOV || op == BPF_DIV ||
						     op == BPF_MOD) && i->off)
		return "a cpu v4 signed move, division or modulo";
	if (cls == BPF_ALU64 && op == BPF_END)
		return "a cpu v4 byte swap";
	if ((cls == BPF_LDX && ebpf_mode(i) == BPF_MEMSX) || (cls == BPF_JMP32 && op == BPF_JA) ||
	    (ebpf_is_jmp(i) && op == BPF_JCOND))
		return "a cpu v4 instruction (sign-extending load, gotol, may_goto)";
	return NULL;
}

/* Whether LLVM 14's BPF assembler reads the disassembler's text of i (clang 14 is the oldest
 * compiler the project builds with): not JSET, BPF_ST stores, modulo (also "%=" is an operand
 * in an asm template), atomics other than a plain add, LD_IND.  The others are written as raw
 * ".8byte" slots: every instruction keeps its slot, so their jump offsets stay right. */
static bool llvm_reads(const struct bpf_insn *i)
{
	uint8_t cls = ebpf_class(i), op = ebpf_op(i);

	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		return op != BPF_MOD;
	case BPF_JMP:
	case BPF_JMP32:
		return op != BPF_JSET;
	case BPF_ST:
		return false;
	case BPF_STX:
		return ebpf_mode(i) == BPF_MEM ||
		       (ebpf_mode(i) == BPF_ATOMIC && i->imm == BPF_ADD &&
			(ebpf_size(i) == BPF_W || ebpf_size(i) == BPF_DW));
	case BPF_LD:
		return ebpf_is_ldimm64(i) || ebpf_mode(i) == BPF_ABS;
	default:
		return true;
	}
}

/* "\tTEXT;" padded with tabs to the continuation backslash, as the kernel's tests align it. */
static void asm_line(struct sbuf *sb, const char *text, bool label)
{
	size_t col = label ? strlen(text) : 8 + strlen(text) + 1;

	sbuf_printf(sb, "%s%s%s", label ? "" : "\t", text, label ? "" : ";");
	do {
		sbuf_putc(sb, '\t');
		col = (col / 8 + 1) * 8;
	} while (col < 56);
	sbuf_puts(sb, "\\\n");
}

int selftest_emit(struct sbuf *sb, const struct reduce_prog *p, const struct selftest_opts *uo,
		  struct diag *d)
{
	struct selftest_opts o = { 0 };
	const char *sec, *name;
	bool *label = calloc(p->len + 1, 1), *map_used = calloc(p->map_cnt + 1, 1);
	int32_t *helpers = calloc(p->len + 1, sizeof(*helpers));
	size_t nhelpers = 0;
	struct sbuf line = { 0 };
	bool first_op = true;
	int err = 0;

	if (uo)
		memcpy(&o, uo, uo->sz && uo->sz < sizeof(o) ? uo->sz : sizeof(o));
	name = o.name && o.name[0] ? o.name : "reduced";
	if (!label || !map_used || !helpers) {
		err = diag_set(d, ENOMEM, "out of memory");
		goto out;
	}
	sec = selftest_section(p->prog_type);
	if (!sec) {
		err = diag_set(d, EINVAL, "program type %u has no SEC() name without an attach "
			       "target", p->prog_type);
		goto out;
	}
	/* what can be written, the labels, the maps and helpers used */
	for (size_t pc = 0; pc < p->len; pc += ebpf_insn_slots(&p->insns[pc])) {
		const struct bpf_insn *i = &p->insns[pc];
		const char *why = unsupported(i);

		if (why) {
			if (d)
				d->insn = (long)pc;
			err = diag_set(d, EINVAL, "instruction %zu: %s cannot be written as a "
				       "selftest", pc, why);
			goto out;
		}
		if (ebpf_is_ja(i) || ebpf_is_cond_jmp(i)) {
			long t = ebpf_jump_target(i, pc);

			if (t >= 0 && (size_t)t < p->len)
				label[t] = true;
		}
		if (ebpf_is_ldimm64(i) && i->src_reg && (size_t)i->imm < p->map_cnt)
			map_used[i->imm] = true;
		if (ebpf_is_helper_call(i)) {
			size_t k;

			for (k = 0; k < nhelpers && helpers[k] != i->imm; k++)
				;
			if (k == nhelpers)
				helpers[nhelpers++] = i->imm;
		}
	}
	/* the file */
	sbuf_puts(sb, "// SPDX-License-Identifier: GPL-2.0\n");
	{
		struct sbuf c = SBUF_INIT;
		const char *t;

		if (o.comment)
			sbuf_printf(&c, "%s\n", o.comment);
		for (size_t pc = 0; pc < p->len; pc += ebpf_insn_slots(&p->insns[pc]))
			if (!llvm_reads(&p->insns[pc]) && !ebpf_is_helper_call(&p->insns[pc])) {
				sbuf_printf(&c, "Slot %zu is written as .8byte (clang 14 cannot "
					    "assemble it): ", pc);
				ebpf_disasm_insn(&c, p->insns, p->len, pc, 0);
				sbuf_putc(&c, '\n');
			}
		for (t = sbuf_cstr(&c); *t;) {
			size_t l = strcspn(t, "\n");

			sbuf_puts(sb, t == sbuf_cstr(&c) ? "/* " : " * ");
			for (size_t k = 0; k < l; k++) {
				sbuf_putc(sb, t[k]);
				if (t[k] == '*' && k + 1 < l && t[k + 1] == '/')
					sbuf_putc(sb, ' ');	/* no comment end inside */
			}
			sbuf_putc(sb, '\n');
			t += l + (t[l] == '\n');
		}
		if (c.len)
			sbuf_puts(sb, " */\n");
		sbuf_free(&c);
	}
	sbuf_puts(sb, "\n#include <linux/bpf.h>\n#include <bpf/bpf_helpers.h>\n"
		      "#include \"bpf_misc.h\"\n\n");
	for (size_t m = 0; m < p->map_cnt; m++) {
		const struct ebpf_map_def *md = &p->maps[m];
		const char *tn = libbpf_bpf_map_type_str((enum bpf_map_type)md->type);
		char id[80];

		if (!map_used[m])
			continue;
		map_ident(id, sizeof(id), p, m);
		sbuf_puts(sb, "struct {\n\t__uint(type, ");
		if (tn) {
			sbuf_puts(sb, "BPF_MAP_TYPE_");
			for (; *tn; tn++)
				sbuf_putc(sb, (char)toupper((unsigned char)*tn));
		} else {
			sbuf_printf(sb, "%u", md->type);
		}
		sbuf_printf(sb, ");\n\t__uint(max_entries, %u);\n\t__uint(key_size, %u);\n"
			    "\t__uint(value_size, %u);\n", md->max_entries, md->key_size,
			    md->value_size);
		if (md->flags)
			sbuf_printf(sb, "\t__uint(map_flags, %u);\n", md->flags);
		sbuf_printf(sb, "} %s SEC(\".maps\");\n\n", id);
	}
	sbuf_printf(sb, "SEC(\"%s\")\n", sec);
	if (o.description && o.description[0]) {
		sbuf_puts(sb, "__description(");
		put_c_string(sb, o.description);
		sbuf_puts(sb, ")\n");
	}
	sbuf_puts(sb, o.accepted ? "__success" : "__failure");
	if (o.msg && o.msg[0]) {
		sbuf_puts(sb, " __msg(");
		put_c_string(sb, o.msg);
		sbuf_putc(sb, ')');
	}
	sbuf_putc(sb, '\n');
	if (o.invariants)
		sbuf_puts(sb, "__flag(BPF_F_TEST_REG_INVARIANTS)\n");
	if (o.has_retval)
		sbuf_printf(sb, "__retval(%d)\n", o.retval);
	sbuf_printf(sb, "__naked void %s(void)\n{\n\tasm volatile (\"", name);
	asm_line(sb, "", true);
	for (size_t pc = 0; pc < p->len; pc += ebpf_insn_slots(&p->insns[pc])) {
		const struct bpf_insn *i = &p->insns[pc];
		char lab[32];

		if (label[pc]) {
			snprintf(lab, sizeof(lab), "l%zu_%%=:", pc);
			asm_line(sb, lab, true);
		}
		sbuf_reset(&line);
		if (!llvm_reads(i)) {
			uint64_t raw = (uint64_t)i->code | (uint64_t)i->dst_reg << 8 |
				       (uint64_t)i->src_reg << 12 | (uint64_t)(uint16_t)i->off << 16 |
				       (uint64_t)(uint32_t)i->imm << 32;

			sbuf_printf(&line, ".8byte 0x%016llx", (unsigned long long)raw);
		} else if (ebpf_is_ja(i) || ebpf_is_cond_jmp(i)) {
			const char *g;

			ebpf_disasm_insn(&line, p->insns, p->len, pc, 0);
			g = strstr(sbuf_cstr(&line), "goto ");
			if (g) {
				char text[128];

				snprintf(text, sizeof(text), "%.*sgoto l%ld_%%=",
					 (int)(g - sbuf_cstr(&line)), sbuf_cstr(&line),
					 ebpf_jump_target(i, pc));
				sbuf_reset(&line);
				sbuf_puts(&line, text);
			}
		} else if (ebpf_is_ldimm64(i) && i->src_reg) {
			char id[80];

			map_ident(id, sizeof(id), p, (size_t)i->imm);
			sbuf_printf(&line, "r%u = %%[%s] ll", i->dst_reg, id);
		} else if (ebpf_is_helper_call(i)) {
			sbuf_printf(&line, "call %%[%s]", ebpf_helper_name(i->imm));
		} else {
			ebpf_disasm_insn(&line, p->insns, p->len, pc, 0);
		}
		asm_line(sb, sbuf_cstr(&line), false);
	}
	sbuf_puts(sb, "\"\t:\n\t:");
	for (size_t k = 0; k < nhelpers; k++) {
		sbuf_printf(sb, "%s __imm(%s)", first_op ? "" : ",\n\t ", ebpf_helper_name(helpers[k]));
		first_op = false;
	}
	for (size_t m = 0; m < p->map_cnt; m++) {
		char id[80];

		if (!map_used[m])
			continue;
		map_ident(id, sizeof(id), p, m);
		sbuf_printf(sb, "%s __imm_addr(%s)", first_op ? "" : ",\n\t ", id);
		first_op = false;
	}
	sbuf_puts(sb, "\n\t: __clobber_all);\n}\n\nchar _license[] SEC(\"license\") = \"GPL\";\n");
	if (sb->oom || line.oom)
		err = diag_set(d, ENOMEM, "out of memory");
out:
	sbuf_free(&line);
	free(label);
	free(map_used);
	free(helpers);
	return err;
}
