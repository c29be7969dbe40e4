/* Fuzz target "analyzer": bytes read directly as raw instruction slots → decode → analyze.
 *
 * Whatever the bytes, nothing may crash, hang or trip a sanitizer.  Every 8 bytes are one slot
 * (struct bpf_insn, little-endian); the 0-7 bytes left over choose the program type (none:
 * plain, then XDP, tc, socket filter), so the seeds are ordinary raw programs.  Every input is
 * disassembled, and the disassembly must assemble back to the same bytes — slots that do not
 * validate included, as ".bytes" (bpf/asm.h's promise).  Inputs that validate (most mutations
 * of a valid seed do) are analyzed with both strategies; every checkable claim must survive its
 * JSON form (claims.json is how the other oracles get them), and the concrete oracle checks
 * the claims on two inputs with a small step budget, so the shapes the generator never makes —
 * arbitrary jumps, odd widths, helpers, atomics — meet the soundness check too.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "bpf/asm.h"
#include "bpf/prog.h"
#include "fuzz/targets/fuzz_check.h"
#include "oracle/exec/check.h"
#include "scev/scev.h"

#define FUZZ_MAX_SLOTS 4096	/* longer inputs are cut: the analyzer's cost grows with size */
#define FUZZ_STEPS 2000		/* per oracle run */
#define FUZZ_RUNS 2
#define FUZZ_INPUT_LEN 64

static void report(const struct ebpf_prog *p, const struct claim_prog *cp,
		   const struct check_finding *cf)
{
	struct sbuf sb = SBUF_INIT;

	fprintf(stderr, "\n==== bpfscev fuzz_analyzer: a claim is refuted ====\n");
	fprintf(stderr, "UNSOUND %s (raw program, strategy %s)\n", finding_kind_name(cf->kind),
		cp->strategy);
	fprintf(stderr, "finding: %s\n", cf->text);
	ebpf_disasm(&sb, p->insns, p->len, EBPF_DISASM_PC);
	fprintf(stderr, "program (%zu slots, type %u):\n%s", p->len, p->prog_type, sbuf_cstr(&sb));
	fuzz_hexdump(stderr, "input", cf->input, cf->input_len);
	fuzz_hexdump(stderr, "helper", cf->helper_data, cf->helper_len);
	fflush(stderr);
	sbuf_free(&sb);
}

/* disasm then asm gives back the very slots, valid or not. */
static void check_roundtrip(const struct bpf_insn *insns, size_t len)
{
	struct sbuf sb = SBUF_INIT;
	struct bpf_insn *back = NULL;
	size_t blen = 0;
	struct diag d;
	int err;

	ebpf_disasm(&sb, insns, len, 0);
	diag_clear(&d);
	err = ebpf_asm(&back, &blen, NULL, sbuf_cstr(&sb), sb.len, 1, &d);
	CHECK(!err, "the disassembly does not assemble: line %d:%d: %s\n%s", d.line, d.col, d.msg,
	      sbuf_cstr(&sb));
	CHECK(blen == len && (!len || !memcmp(back, insns, len * sizeof(*insns))),
	      "asm(disasm(x)) != x: %zu slots in, %zu out\n%s", len, blen, sbuf_cstr(&sb));
	free(back);
	sbuf_free(&sb);
}

/* Every checkable claim survives claims_write → claims_read unchanged, so the oracles that
 * read claims.json (bpfscev check, replay) check what the analyzer said.  The fields marked
 * "reported only" in claims.h (back edges, exits, trip expressions and reasons, sources,
 * strategy) need not come back. */
static void check_json(const struct claim_prog *a)
{
	struct claims one = { .progs = (struct claim_prog *)a, .nprogs = 1 }, *back = NULL;
	struct sbuf sb = SBUF_INIT;
	const struct claim_prog *b;
	struct diag d;
	int err;

	claims_write(&sb, &one);
	diag_clear(&d);
	err = claims_read(&back, sbuf_cstr(&sb), sb.len, &d);
	CHECK(!err, "the claims' JSON does not read back: %d:%d: %s", d.line, d.col, d.msg);
	CHECK(back->nprogs == 1, "one program written, %u read", back->nprogs);
	b = &back->progs[0];
	CHECK(a->nranges == b->nranges && a->nloops == b->nloops,
	      "%u ranges and %u loops written, %u and %u read\n%s", a->nranges, a->nloops,
	      b->nranges, b->nloops, sbuf_cstr(&sb));
	for (uint32_t i = 0; i < a->nranges; i++) {
		const struct claim_range *x = &a->ranges[i], *y = &b->ranges[i];

		CHECK(x->pc == y->pc && x->loc == y->loc && x->is_ptr == y->is_ptr &&
		      (!x->is_ptr || (x->region == y->region && x->maybe_null == y->maybe_null &&
				      (x->region != REGION_MAP_VALUE || x->map == y->map))) &&
		      range_equal(&x->r, &y->r),
		      "range claim %u changes through JSON\n%s", i, sbuf_cstr(&sb));
	}
	for (uint32_t i = 0; i < a->nloops; i++) {
		const struct claim_loop *x = &a->loops[i], *y = &b->loops[i];
		bool same = x->header == y->header && x->depth == y->depth &&
			    x->parent == y->parent && x->irreducible == y->irreducible &&
			    x->nentries == y->nentries && x->nblocks == y->nblocks &&
			    x->nivs == y->nivs && x->trip.kind == y->trip.kind &&
			    (x->trip.kind == TRIP_UNKNOWN ||
			     (x->trip.max == y->trip.max && x->trip.min == y->trip.min));

		for (uint32_t k = 0; same && k < x->nentries; k++)
			same = x->entries[k] == y->entries[k];
		for (uint32_t k = 0; same && k < x->nblocks; k++)
			same = x->blocks[k].first == y->blocks[k].first &&
			       x->blocks[k].last == y->blocks[k].last;
		for (uint32_t k = 0; same && k < x->nivs; k++)
			same = x->ivs[k].loc == y->ivs[k].loc && x->ivs[k].width == y->ivs[k].width &&
			       x->ivs[k].step == y->ivs[k].step &&
			       x->ivs[k].has_start == y->ivs[k].has_start &&
			       (!x->ivs[k].has_start || x->ivs[k].start == y->ivs[k].start);
		CHECK(same, "loop claim %u (header %u) changes through JSON\n%s", i, x->header,
		      sbuf_cstr(&sb));
	}
	claims__free(back);
	sbuf_free(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t types[] = { BPF_PROG_TYPE_UNSPEC, BPF_PROG_TYPE_XDP,
					  BPF_PROG_TYPE_SCHED_CLS, BPF_PROG_TYPE_SOCKET_FILTER };
	static const enum scev_strategy strategies[] = { SCEV_FORGET, SCEV_ITERATE };
	size_t len = size / 8, rest = size % 8;
	struct ebpf_object *obj = NULL;
	struct bpf_insn *insns;
	struct diag d;

	if (len > FUZZ_MAX_SLOTS)
		len = FUZZ_MAX_SLOTS;
	/* a copy: aligned, and of exactly the slots (ASan sees a read past them) */
	insns = malloc(len ? len * sizeof(*insns) : 1);
	CHECK(insns, "out of memory");
	if (len)
		memcpy(insns, data, len * sizeof(*insns));
	check_roundtrip(insns, len);

	diag_clear(&d);
	if (ebpf_object__from_insns(&obj, insns, len, "fuzz_analyzer", &d)) {
		free(insns);
		return 0;	/* does not validate: the decoder said why, nothing to analyze */
	}
	free(insns);
	struct ebpf_prog *p = &obj->progs[0];

	p->prog_type = types[rest ? data[len * 8] % 4 : 0];
	for (size_t s = 0; s < sizeof(strategies) / sizeof(strategies[0]); s++) {
		struct scev_opts so = { .sz = sizeof(so), .strategy = strategies[s] };
		struct claim_prog cp = { 0 };
		struct check_result res = { 0 };
		int err;

		diag_clear(&d);
		err = scev_analyze(&cp, p, obj->maps, obj->map_cnt, &so, &d);
		CHECK(!err, "scev_analyze failed on a valid program: %s", d.msg);
		check_json(&cp);

		struct check_opts co = { .sz = sizeof(co), .seed = fuzz_hash(data, size),
					 .runs = FUZZ_RUNS, .step_budget = FUZZ_STEPS,
					 .input_len = FUZZ_INPUT_LEN, .first_only = true };
		err = oracle_check(&res, obj, p, &cp, &co);
		CHECK(!err, "oracle_check failed: %s", strerror(-err));
		if (res.nfindings) {
			report(p, &cp, &res.findings[0]);
			abort();
		}
		check_result__free(&res);
		claim_prog__free(&cp);
	}
	ebpf_object__free(obj);
	return 0;
}
