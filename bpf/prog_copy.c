/* bpf/prog_copy.h: a program copied by a pc map, with its tables. */
#include "bpf/prog_copy.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/isa.h"

/* Copies the n entries (size bytes each) of a table that names instructions by a uint32_t at
 * offset off into out, each entry's instruction moved as map says, an entry left out where its
 * instruction goes nowhere (SIZE_MAX, or out of a program of len slots).  Returns the count
 * kept. */
static size_t move_table(void *out, const void *in, size_t n, size_t size, size_t off,
			 const size_t *map, size_t len)
{
	size_t kept = 0;

	for (size_t k = 0; k < n; k++) {
		const char *e = (const char *)in + k * size;
		char *o = (char *)out + kept * size;
		uint32_t insn;

		memcpy(&insn, e + off, sizeof(insn));
		if (insn >= len || map[insn] == SIZE_MAX)
			continue;
		memcpy(o, e, size);
		insn = (uint32_t)map[insn];
		memcpy(o + off, &insn, sizeof(insn));
		kept++;
	}
	return kept;
}

int ebpf_prog_copy_map(struct ebpf_prog *out, const struct ebpf_prog *in, const size_t *at,
		       const size_t *to)
{
	size_t n = at[in->len];
	int err = -ENOMEM;

	if (!to)
		to = at;
	*out = *in;
	out->insns = NULL;
	out->lines = NULL;
	out->kfuncs = NULL;
	out->globals = NULL;
	out->kfunc_cnt = out->global_cnt = 0;
	out->len = n;
	if (!(out->insns = malloc((n ? n : 1) * sizeof(*out->insns))) ||
	    (in->lines && !(out->lines = calloc(n ? n : 1, sizeof(*out->lines)))) ||
	    (in->kfunc_cnt && !(out->kfuncs = malloc(in->kfunc_cnt * sizeof(*out->kfuncs)))) ||
	    (in->global_cnt && !(out->globals = malloc(in->global_cnt * sizeof(*out->globals)))))
		goto fail;
	if ((err = ebpf_insns_copy_map(out->insns, in->insns, in->len, at, to)))
		goto fail;
	for (size_t pc = 0; in->lines && pc < in->len; pc += ebpf_insn_slots(&in->insns[pc])) {
		if (at[pc] == SIZE_MAX)
			continue;
		out->lines[at[pc]] = in->lines[pc];
		if (ebpf_insn_slots(&in->insns[pc]) == 2 && pc + 1 < in->len)
			out->lines[at[pc] + 1] = in->lines[pc + 1];
	}
	out->kfunc_cnt = move_table(out->kfuncs, in->kfuncs, in->kfunc_cnt, sizeof(*in->kfuncs),
				    offsetof(struct ebpf_kfunc_call, insn), at, in->len);
	out->global_cnt = move_table(out->globals, in->globals, in->global_cnt,
				     sizeof(*in->globals), offsetof(struct ebpf_global_func, insn),
				     to, in->len);
	return 0;
fail:
	ebpf_prog_copy__free(out);
	return err;
}

void ebpf_prog_copy__free(struct ebpf_prog *p)
{
	if (!p)
		return;
	free(p->insns);
	free(p->lines);
	free(p->kfuncs);
	free(p->globals);
	memset(p, 0, sizeof(*p));
}
