/* The one program copy with a pc map (bpf/isa.h: ebpf_insns_copy_map; bpf/prog_copy.h:
 * ebpf_prog_copy_map), which kdiff's recording copy (insertion) and the reducer's deletions
 * use: every jump, bpf-to-bpf call and function address is re-aimed, and the tables that name
 * instructions by index (source lines, kfunc calls, global functions) move with their
 * instructions or go with them.  Checked on hand-written programs against pcs worked out here,
 * for an insertion and a deletion, and the errors (a distance that no longer fits, a target
 * that goes nowhere).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/isa.h"
#include "bpf/prog.h"
#include "bpf/prog_copy.h"
#include "tests/check.h"

/* main: 0 r6 = 0; 1 if r6 == 5 goto 3; 2 call kfunc; 3 call prandom; 4 goto 0 (back);
 * 5 call sub (8); 6-7 r2 = func sub; 8.. sub: r0 = 0; exit; (7 is 6's second slot)
 * Laid out so that 8 is the global function sub. */
static const struct bpf_insn prog_insns[] = {
	/* 0 */ { .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 6, .imm = 0 },
	/* 1 */ { .code = BPF_JMP | BPF_JEQ | BPF_K, .dst_reg = 6, .imm = 5, .off = 1 },
	/* 2 */ { .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_KFUNC_CALL, .imm = 77 },
	/* 3 */ { .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_get_prandom_u32 },
	/* 4 */ { .code = BPF_JMP | BPF_JA, .off = -5 },
	/* 5 */ { .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_CALL, .imm = 2 },
	/* 6 */ { .code = BPF_LD | BPF_IMM | BPF_DW, .dst_reg = 2, .src_reg = BPF_PSEUDO_FUNC,
		  .imm = 1 },
	/* 7 */ { 0 },
	/* 8 */ { .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
	/* 9 */ { .code = BPF_JMP | BPF_EXIT },
};
#define NI (sizeof(prog_insns) / sizeof(prog_insns[0]))

static void fill(struct ebpf_prog *p, struct bpf_insn *insns, uint32_t *lines,
		 struct ebpf_kfunc_call *kf, struct ebpf_global_func *g)
{
	memset(p, 0, sizeof(*p));
	memcpy(insns, prog_insns, sizeof(prog_insns));
	for (size_t pc = 0; pc < NI; pc++)
		lines[pc] = 100 + (uint32_t)pc;
	memset(kf, 0, sizeof(*kf));
	kf->insn = 2;
	kf->btf_id = 77;
	snprintf(kf->name, sizeof(kf->name), "bpf_kf");
	memset(g, 0, sizeof(*g));
	g->insn = 8;
	g->nargs = 0;
	snprintf(g->name, sizeof(g->name), "sub");
	snprintf(p->name, sizeof(p->name), "pcmap");
	p->prog_type = BPF_PROG_TYPE_XDP;
	p->insns = insns;
	p->len = NI;
	p->lines = lines;
	p->kfuncs = kf;
	p->kfunc_cnt = 1;
	p->globals = g;
	p->global_cnt = 1;
}

/* Three empty slots after the kfunc call (2) and two after the helper call (3), as kdiff's
 * recording copy inserts its log after a call. */
static void insertion(void)
{
	struct bpf_insn insns[NI];
	uint32_t lines[NI];
	struct ebpf_kfunc_call kf;
	struct ebpf_global_func g;
	struct ebpf_prog in, out;
	size_t at[NI + 1], n = 0;

	fill(&in, insns, lines, &kf, &g);
	for (size_t pc = 0; pc < NI; pc++) {
		at[pc] = n;
		n += 1 + (pc == 2 ? 3 : pc == 3 ? 2 : 0);
	}
	at[NI] = n;
	CHECK(ebpf_prog_copy_map(&out, &in, at, NULL) == 0, "insertion: copy failed");
	if (!out.insns)
		return;
	CHECK_EQ_U64(out.len, NI + 5, "insertion: length");
	CHECK(!strcmp(out.name, "pcmap") && out.prog_type == BPF_PROG_TYPE_XDP,
	      "insertion: the program's other fields were not kept");
	/* jumps: 1 -> 3 (now 6), the back jump 4 (now 9) -> 0 */
	CHECK_EQ_U64(ebpf_insn_target(&out.insns[1], 1), 6, "insertion: forward jump");
	CHECK_EQ_U64(ebpf_insn_target(&out.insns[9], 9), 0, "insertion: back jump");
	/* the call at 5 (now 10) and the function address at 6 (now 11) -> 8 (now 13) */
	CHECK(ebpf_is_pseudo_call(&out.insns[10]) && ebpf_insn_target(&out.insns[10], 10) == 13,
	      "insertion: bpf-to-bpf call goes to %ld", ebpf_insn_target(&out.insns[10], 10));
	CHECK(ebpf_is_ldimm64(&out.insns[11]) && out.insns[11].src_reg == BPF_PSEUDO_FUNC &&
		      ebpf_insn_target(&out.insns[11], 11) == 13,
	      "insertion: function address goes to %ld", ebpf_insn_target(&out.insns[11], 11));
	for (size_t s = 3; s < 6; s++)
		CHECK(!out.insns[s].code && !out.lines[s], "insertion: slot %zu not empty", s);
	/* the tables */
	CHECK(out.kfunc_cnt == 1 && out.kfuncs && out.kfuncs[0].insn == 2 &&
		      out.kfuncs[0].btf_id == 77 && !strcmp(out.kfuncs[0].name, "bpf_kf"),
	      "insertion: kfunc table %zu entries, insn %u", out.kfunc_cnt,
	      out.kfunc_cnt ? out.kfuncs[0].insn : 0);
	CHECK(out.global_cnt == 1 && out.globals && out.globals[0].insn == 13 &&
		      !strcmp(out.globals[0].name, "sub"),
	      "insertion: global function at %u", out.global_cnt ? out.globals[0].insn : 0);
	CHECK(out.lines && out.lines[2] == 102 && out.lines[6] == 103 && out.lines[9] == 104 &&
		      out.lines[11] == 106 && out.lines[12] == 107 && out.lines[14] == 109,
	      "insertion: line table not moved");
	CHECK(out.insns != in.insns && out.lines != in.lines && out.kfuncs != in.kfuncs &&
		      out.globals != in.globals,
	      "insertion: the copy shares the original's tables");
	/* ebpf_insns_insert is the same copy with extra slots */
	{
		uint32_t extra[NI] = { [2] = 3, [3] = 2 };
		struct bpf_insn o2[NI + 5];
		size_t newpc[NI + 1];

		CHECK(ebpf_insns_insert(o2, newpc, prog_insns, NI, extra) == 0 &&
			      newpc[NI] == NI + 5 && !memcmp(o2, out.insns, sizeof(o2)),
		      "insertion: ebpf_insns_insert differs from the copy with its pc map");
	}
	ebpf_prog_copy__free(&out);
	CHECK(!out.insns && !out.len, "free: not zeroed");
	ebpf_prog_copy__free(NULL);
}

/* Deleting the kfunc call (2) and the first instruction of sub (8), as the reducer does:
 * targets go to the first instruction kept at or after them. */
static void deletion(void)
{
	struct bpf_insn insns[NI];
	uint32_t lines[NI];
	struct ebpf_kfunc_call kf;
	struct ebpf_global_func g;
	struct ebpf_prog in, out;
	size_t at[NI + 1], to[NI + 1], n = 0;
	const bool del[NI] = { [2] = true, [8] = true };

	fill(&in, insns, lines, &kf, &g);
	for (size_t pc = 0; pc < NI; pc++) {
		at[pc] = del[pc] ? SIZE_MAX : n;
		n += !del[pc];
	}
	at[NI] = n;
	for (size_t t = NI + 1; t-- > 0;)
		to[t] = t == NI ? SIZE_MAX : at[t] != SIZE_MAX ? at[t] : to[t + 1];
	CHECK(ebpf_prog_copy_map(&out, &in, at, to) == 0, "deletion: copy failed");
	if (!out.insns)
		return;
	CHECK_EQ_U64(out.len, NI - 2, "deletion: length");
	/* 1 -> 3 (now 2): the jump over the deleted call still lands on the helper call */
	CHECK_EQ_U64(ebpf_insn_target(&out.insns[1], 1), 2, "deletion: forward jump");
	CHECK(out.insns[2].code == (BPF_JMP | BPF_CALL) && out.insns[2].imm ==
							       BPF_FUNC_get_prandom_u32,
	      "deletion: slot 2 is not the helper call");
	/* sub's first instruction went: the call and the address go to its exit (now 7) */
	CHECK_EQ_U64(ebpf_insn_target(&out.insns[4], 4), 7, "deletion: call");
	CHECK_EQ_U64(ebpf_insn_target(&out.insns[5], 5), 7, "deletion: function address");
	CHECK(out.kfunc_cnt == 0, "deletion: the deleted kfunc call kept its table entry (%zu)",
	      out.kfunc_cnt);
	CHECK(out.global_cnt == 1 && out.globals[0].insn == 7,
	      "deletion: global function at %u", out.global_cnt ? out.globals[0].insn : 0);
	CHECK(out.lines && out.lines[2] == 103 && out.lines[7] == 109, "deletion: line table");
	ebpf_prog_copy__free(&out);

	/* a kept jump whose target goes nowhere: refused, nothing left allocated */
	to[3] = SIZE_MAX;
	CHECK(ebpf_prog_copy_map(&out, &in, at, to) == -EINVAL && !out.insns && !out.kfuncs,
	      "deletion: a target that goes nowhere was not refused");
}

/* A conditional jump over 32767 instructions: 1 slot more in between no longer fits its
 * 16-bit offset; the same distance as a gotol (32-bit) does. */
static void too_far(void)
{
	size_t len = 32770, *at = calloc(len + 1, sizeof(*at));
	struct bpf_insn *in = calloc(len, sizeof(*in)), *out = calloc(len + 1, sizeof(*out));

	if (!at || !in || !out) {
		CHECK(0, "out of memory");
		goto done;
	}
	for (size_t pc = 0; pc < len; pc++) {
		in[pc].code = BPF_ALU64 | BPF_MOV | BPF_K;
		at[pc] = pc + (pc > 5);
	}
	at[len] = len + 1;
	in[0].code = BPF_JMP | BPF_JEQ | BPF_K;
	in[0].off = 32767;
	CHECK(ebpf_insns_copy_map(out, in, len, at, NULL) == -E2BIG, "a jump of 32768 fits");
	in[0] = (struct bpf_insn){ .code = BPF_JMP32 | BPF_JA, .imm = 32767 };
	CHECK(ebpf_insns_copy_map(out, in, len, at, NULL) == 0 &&
		      ebpf_insn_target(&out[0], 0) == 32769,
	      "gotol: %ld", ebpf_insn_target(&out[0], 0));
done:
	free(at);
	free(in);
	free(out);
}

int main(void)
{
	insertion();
	deletion();
	too_far();
	return check_done("test_pc_map");
}
