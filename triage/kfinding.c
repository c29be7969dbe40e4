/* Kernel differences as findings: a kdiff result (oracle/kernel/kdiff.h) becomes a finding record, and
 * a finding's program is shrunk while the kernel still shows the same kind of difference.
 * Triage of the kernel oracle's results: the oracle judges, this files and reduces.
 */
#include "triage/kfinding.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "triage/reduce.h"

int kdiff_finding(struct finding *f, const struct kdiff_result *res, const struct ebpf_object *obj,
		  const struct ebpf_prog *prog)
{
	static const char *const sources[] = {
		[KDIFF_INVARIANT] = "kernel-invariant", [KDIFF_CLAIM] = "kernel",
		[KDIFF_RETVAL] = "kernel-retval", [KDIFF_PACKET] = "kernel-packet",
		[KDIFF_TRAP] = "kernel-trap", [KDIFF_MAP] = "kernel-map",
	};
	const struct ebpf_map_def *maps = obj ? obj->maps : NULL;
	size_t nmaps = obj ? obj->map_cnt : 0;
	int err;

	memset(f, 0, sizeof(*f));
	if (res->kind == KDIFF_CLAIM && res->check.nfindings) {
		if ((err = finding__from_check(f, &res->check.findings[0], prog, maps, nmaps,
					       &res->claims)))
			return err;
		f->kind = FIND_KERNEL;
		f->prog_type = res->prog_type ? res->prog_type : prog->prog_type;
		snprintf(f->source, sizeof(f->source), "kernel");
		snprintf(f->note, sizeof(f->note), "%.250s", !res->ran ? "not test-run" :
			 res->same_retval && res->same_packet && res->same_maps ?
			 "BPF_PROG_TEST_RUN agrees with the interpreter on this input" :
			 "BPF_PROG_TEST_RUN and the interpreter disagree on this input");
		finding_signature(f, &res->claims);
		return 0;
	}
	if (res->kind >= sizeof(sources) / sizeof(sources[0]) || !sources[res->kind])
		return -EINVAL;
	if ((err = finding__init(f, FIND_KERNEL, sources[res->kind], "kernel", prog, maps, nmaps,
				 res->input, res->input_len, NULL, 0, &res->claims)))
		return err;
	f->prog_type = res->prog_type ? res->prog_type : prog->prog_type;
	f->observed = res->kind == KDIFF_RETVAL ? res->interp_r0 : 0;
	snprintf(f->text, sizeof(f->text), "%.500s", res->text);
	finding_signature(f, NULL);	/* kind and source: there is no claim */
	return 0;
}

/* ---- reduction ---- */

struct red {
	const struct finding *f;
	struct kdiff_opts o;
	uint8_t want;
	struct diag d;
	int err;
};

static uint8_t kind_of(const struct finding *f)
{
	if (!strcmp(f->source, "kernel-invariant"))
		return KDIFF_INVARIANT;
	if (!strcmp(f->source, "kernel-retval"))
		return KDIFF_RETVAL;
	if (!strcmp(f->source, "kernel-packet"))
		return KDIFF_PACKET;
	if (!strcmp(f->source, "kernel-trap"))
		return KDIFF_TRAP;
	if (!strcmp(f->source, "kernel-map"))
		return KDIFF_MAP;
	return KDIFF_CLAIM;
}

static int still_shows(void *arg, const struct reduce_prog *p)
{
	struct red *r = arg;
	struct ebpf_object *obj = NULL;
	struct kdiff_result res;
	bool holds = false;

	diag_clear(&r->d);
	if (finding__object(&obj, r->f, p->insns, p->len, p->globals, p->nglobals, &r->d))
		return 0;
	if (kdiff_run(&res, obj, &obj->progs[0], &r->o, &r->d)) {
		ebpf_object__free(obj);
		return 0;
	}
	if (res.kind == r->want && r->want != KDIFF_CLAIM) {
		holds = true;
	} else if (res.kind == KDIFF_CLAIM) {
		/* the same core signature: the same kind of claim failing, not any claim */
		for (uint32_t k = 0; k < res.check.nfindings && !holds; k++) {
			struct finding cand = { .kind = FIND_KERNEL, .len = p->len,
						.insns = p->insns };
			const struct check_finding *cf = &res.check.findings[k];

			cand.claim = cf->claim;
			cand.pc = cf->pc;
			cand.loc = cf->loc;
			cand.observed = cf->observed;
			snprintf(cand.source, sizeof(cand.source), "kernel");
			finding_signature(&cand, &res.claims);
			holds = cand.sig.core == r->f->sig.core;
		}
	}
	kdiff_result__free(&res);
	ebpf_object__free(obj);
	return holds;
}

int kdiff_reduce(struct reduce_prog *out, const struct finding *f,
		 const struct kdiff_opts *uopts, unsigned max_tests, struct diag *d)
{
	struct reduce_opts ro = { .sz = sizeof(ro), .max_tests = max_tests };
	struct reduce_prog in = { .insns = f->insns, .len = f->len, .globals = f->globals,
				  .nglobals = f->nglobals };
	struct red r = { .f = f };
	int err;

	if (uopts)
		memcpy(&r.o, uopts, uopts->sz && uopts->sz < sizeof(r.o) ? uopts->sz : sizeof(r.o));
	r.o.sz = sizeof(r.o);
	r.o.input = f->input;
	r.o.input_len = f->input_len;
	r.o.prog_type = r.o.prog_type ? r.o.prog_type : f->prog_type;
	if (!r.o.check_runs)
		r.o.check_runs = 16;
	r.want = kind_of(f);
	err = reduce_run_opts(out, &in, still_shows, &r, &ro, NULL);
	if (err == -EINVAL)
		return diag_set(d, EINVAL, "the finding does not show on its own program now%s%s",
				r.d.msg[0] ? ": " : "", r.d.msg);
	if (err)
		return diag_set(d, -err, "reducing: %s", strerror(-err));
	return 0;
}
