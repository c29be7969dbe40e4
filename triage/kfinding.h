/* Kernel differences (oracle/kernel/kdiff.h) as findings, and their reduction. */
#ifndef BPFSCEV_TRIAGE_KFINDING_H
#define BPFSCEV_TRIAGE_KFINDING_H

#include "oracle/kernel/kdiff.h"
#include "triage/finding.h"
#include "triage/reduce.h"

/* A finding (kind FIND_KERNEL, source "kernel") for a KDIFF_CLAIM, _RETVAL, _PACKET, _TRAP or
 * _INVARIANT result, ready for finding__save().  0, -EINVAL for other kinds, -ENOMEM. */
int kdiff_finding(struct finding *f, const struct kdiff_result *res, const struct ebpf_object *obj,
		  const struct ebpf_prog *prog);

/* Shrinks f's program while the kernel still shows the same kind of difference on f's input:
 * the same kdiff kind, and for refuted claims a refuted claim of the same core signature.
 * Every candidate is loaded into the kernel, with its global functions' prototypes.  On 0,
 * *out holds the result (free with reduce_prog__free). */
int kdiff_reduce(struct reduce_prog *out, const struct finding *f,
		 const struct kdiff_opts *opts, unsigned max_tests, struct diag *d);

#endif
