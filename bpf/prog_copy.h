/* A program copied with its instructions moved by a pc map: inserting instructions (the kernel
 * differential's recording copy) and deleting them (the reducer) both move the tables that name
 * instructions with them.  Beside bpf/prog.h rather than in bpf/isa.c, which prog.h includes. */
#ifndef BPFSCEV_BPF_PROG_COPY_H
#define BPFSCEV_BPF_PROG_COPY_H

#include <stddef.h>

#include "bpf/prog.h"

/* ebpf_insns_copy_map (bpf/isa.h) of a whole program: *out is *in with fresh instructions (at[len]
 * slots) and fresh tables that name instructions, each entry moved with its instruction — the
 * source lines (lines, when in has them: 0 in slots nothing goes to), the kfunc calls (kfuncs,
 * by the call's slot, as at says) and the global functions (globals, by their first slot, as to
 * says: where a call to the function now lands) — and left out when its instruction is.
 * ebpf_prog_copy__free frees what it made.  0, or an error of ebpf_insns_copy_map or -ENOMEM
 * with *out zeroed. */
int ebpf_prog_copy_map(struct ebpf_prog *out, const struct ebpf_prog *in, const size_t *at,
		       const size_t *to);
/* Frees the instructions and tables of a program ebpf_prog_copy_map made and zeroes it (NULL
 * ok). */
void ebpf_prog_copy__free(struct ebpf_prog *p);

#endif
