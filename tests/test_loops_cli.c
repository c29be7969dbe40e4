/* The loops and analyze commands end to end on clang output: the nested-loop object from
 * tests/bpf (built by clang when available) gives the right loop forest as text, JSON and DOT
 * (rendered by dot(1) when installed), and the analyze JSON reads back through claims_read.
 * `verify` on an object with a program the loader leaves out names it (left_out.o).
 *
 * What is right is worked out here from the object's instructions, not written down as pcs
 * (which move with every clang release): the instruction-level flow graph, and its loop nest by
 * strongly connected components (a component's header is the one instruction entered from
 * outside it; the loops nested in it are the components of the rest once the header is taken
 * out).  Every field of the loops JSON is compared with that: header, depth, parent, entries,
 * back edges, latch, exits and the body, plus the program's size, function and unreachable
 * code.  Without the CLI or the clang-built objects the test is reported as skipped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "bpf/prog.h"
#include "casefile/casefile.h"
#include "claims/claims.h"
#include "tests/check.h"
#include "util/json.h"

static char *run(const char *cmd, int *status)
{
	FILE *p = popen(cmd, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!p)
		return NULL;
	do {
		if (n + 4096 > cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
		}
		got = fread(buf + n, 1, cap - n - 1, p);
		n += got;
	} while (got);
	buf[n] = '\0';
	*status = pclose(p);
	return buf;
}

/* ---- the reference loop nest ---- */

#define MAXI 256	/* the test object is a few dozen instructions */
#define MAXL 16

static uint32_t ninsn;
static uint32_t nsucc[MAXI], succ[MAXI][2];
static bool node[MAXI];		/* first slot of an instruction, reached from pc 0 */
static bool second[MAXI];	/* second slot of an lddw */

struct ref_loop {
	uint32_t header, depth;
	int64_t parent;		/* header pc, -1 for none */
	bool in[MAXI];
	uint32_t entered;	/* instructions entered from outside: 1 in a reducible loop */
};

static struct ref_loop ref[MAXL];
static unsigned nref;

/* Successors from the encoding: exit has none, ja (gotol in JMP32) one, a conditional jump or
 * may_goto two, everything else falls through (lddw over its second slot). */
static bool flow_graph(const struct bpf_insn *insns, uint32_t len)
{
	uint32_t stack[MAXI], sp = 0;

	if (len > MAXI)
		return false;
	ninsn = len;
	for (uint32_t pc = 0; pc < len; pc++) {
		uint8_t code = insns[pc].code, cls = code & 7, op = code & 0xf0;
		int64_t t = (int64_t)pc + 1 + insns[pc].off;

		nsucc[pc] = 0;
		if (code == 0x18) {
			succ[pc][nsucc[pc]++] = pc + 2;
			pc++;
			nsucc[pc] = 0;
			if (pc < MAXI)
				second[pc] = true;
			continue;
		}
		if (cls != 5 && cls != 6) {
			succ[pc][nsucc[pc]++] = pc + 1;
			continue;
		}
		if (op == 0x90)		/* exit */
			continue;
		if (op == 0x80) {	/* call */
			succ[pc][nsucc[pc]++] = pc + 1;
			continue;
		}
		if (op == 0x00 && cls == 6)	/* gotol */
			t = (int64_t)pc + 1 + insns[pc].imm;
		if (op != 0x00)
			succ[pc][nsucc[pc]++] = pc + 1;
		if (t < 0 || t >= len)
			return false;
		succ[pc][nsucc[pc]++] = (uint32_t)t;
	}
	memset(node, 0, sizeof(node));
	node[0] = true;
	stack[sp++] = 0;
	while (sp) {
		uint32_t u = stack[--sp];

		for (uint32_t k = 0; k < nsucc[u]; k++)
			if (succ[u][k] < len && !node[succ[u][k]]) {
				node[succ[u][k]] = true;
				stack[sp++] = succ[u][k];
			}
	}
	return true;
}

static bool edge(uint32_t u, uint32_t v)
{
	for (uint32_t k = 0; k < nsucc[u]; k++)
		if (succ[u][k] == v)
			return true;
	return false;
}

/* The loops among the instructions of set: its nontrivial strongly connected components (by a
 * transitive closure: the programs are small), each one's header taken out for the next level. */
static void find_loops(const bool *set, int64_t parent, uint32_t depth)
{
	static bool reach[MAXI][MAXI];
	bool done[MAXI] = { false };

	memset(reach, 0, sizeof(reach));
	for (uint32_t u = 0; u < ninsn; u++)
		for (uint32_t k = 0; set[u] && k < nsucc[u]; k++)
			if (succ[u][k] < ninsn && set[succ[u][k]])
				reach[u][succ[u][k]] = true;
	for (uint32_t w = 0; w < ninsn; w++)
		for (uint32_t u = 0; u < ninsn; u++)
			for (uint32_t v = 0; reach[u][w] && v < ninsn; v++)
				reach[u][v] |= reach[w][v];
	for (uint32_t u = 0; u < ninsn; u++) {
		struct ref_loop *L;
		bool inner[MAXI];

		if (!set[u] || done[u] || !reach[u][u] || nref == MAXL)
			continue;
		L = &ref[nref++];
		memset(L, 0, sizeof(*L));
		L->header = UINT32_MAX;
		L->parent = parent;
		L->depth = depth;
		for (uint32_t v = 0; v < ninsn; v++)
			L->in[v] = set[v] && (v == u || (reach[u][v] && reach[v][u]));
		for (uint32_t v = 0; v < ninsn; v++) {
			bool from_outside = v == 0;

			done[v] |= L->in[v];
			for (uint32_t p = 0; L->in[v] && p < ninsn; p++)
				from_outside |= node[p] && !L->in[p] && edge(p, v);
			if (L->in[v] && from_outside) {
				L->entered++;
				if (L->header == UINT32_MAX)
					L->header = v;
			}
		}
		memcpy(inner, L->in, sizeof(inner));
		if (L->header != UINT32_MAX)
			inner[L->header] = false;
		find_loops(inner, L->header, depth + 1);
	}
}

static const struct ref_loop *ref_by_header(uint64_t h)
{
	for (unsigned k = 0; k < nref; k++)
		if (ref[k].header == h)
			return &ref[k];
	return NULL;
}

/* ---- the JSON of one loop against the reference ---- */

static uint64_t num(const struct json *j, const char *key, bool *ok)
{
	uint64_t v = UINT64_MAX;

	if (json_u64(json_get(j, key), &v))
		*ok = false;
	return v;
}

static void check_json_loop(const struct json *jl, const struct ref_loop **seen, unsigned *nseen)
{
	const struct json *e, *be, *ex, *bl, *par;
	const struct ref_loop *L;
	bool ok = true, body[MAXI] = { false };
	uint64_t h = num(jl, "header", &ok), latch;
	unsigned nback = 0, nexit = 0;

	L = ok ? ref_by_header(h) : NULL;
	CHECK(L, "JSON loop header %llu: no such loop in the instructions", (unsigned long long)h);
	if (!L)
		return;
	for (unsigned k = 0; k < *nseen; k++)
		CHECK(seen[k] != L, "loop %llu listed twice", (unsigned long long)h);
	seen[(*nseen)++] = L;
	CHECK_EQ_U64(num(jl, "depth", &ok), L->depth, "depth");
	par = json_get(jl, "parent");
	if (L->parent < 0) {
		CHECK(par && par->type == JSON_NULL, "loop %u: parent should be null", L->header);
	} else {
		CHECK(par && par->type == JSON_NUMBER, "loop %u: no parent", L->header);
		CHECK_EQ_U64(num(jl, "parent", &ok), L->parent, "parent");
	}
	CHECK(json_get(jl, "irreducible") && json_get(jl, "irreducible")->type == JSON_BOOL &&
	      !json_get(jl, "irreducible")->boolean && L->entered == 1,
	      "loop %u: irreducible, or entered at %u places", L->header, L->entered);
	e = json_get(jl, "entries");
	CHECK(e && e->type == JSON_ARRAY && e->count == 1, "loop %u: one entry", L->header);
	if (e && e->count == 1) {
		uint64_t v = UINT64_MAX;

		CHECK(!json_u64(e->items[0], &v) && v == L->header, "loop %u: entry %llu",
		      L->header, (unsigned long long)v);
	}
	/* Back edges: exactly the edges from inside the loop to its header. */
	be = json_get(jl, "back_edges");
	CHECK(be && be->type == JSON_ARRAY, "loop %u: back_edges", L->header);
	for (size_t k = 0; be && k < be->count; k++) {
		uint64_t f = num(be->items[k], "from", &ok), t = num(be->items[k], "to", &ok);

		CHECK(f < ninsn && t == L->header && L->in[f] && edge((uint32_t)f, L->header),
		      "loop %u: back edge %llu->%llu is not an edge to the header from inside",
		      L->header, (unsigned long long)f, (unsigned long long)t);
	}
	for (uint32_t u = 0; u < ninsn; u++)
		nback += node[u] && L->in[u] && edge(u, L->header);
	CHECK_EQ_U64(be ? be->count : 0, nback, "back edges");
	/* The latch, when given, is the source of a back edge that can also leave the loop. */
	if (json_get(jl, "latch") && json_get(jl, "latch")->type == JSON_NUMBER) {
		bool leaves = false;

		latch = num(jl, "latch", &ok);
		for (uint32_t k = 0; latch < ninsn && k < nsucc[latch]; k++)
			leaves |= !L->in[succ[latch][k]];
		CHECK(latch < ninsn && L->in[latch] && edge((uint32_t)latch, L->header) && leaves,
		      "loop %u: latch %llu", L->header, (unsigned long long)latch);
	}
	/* Exits: exactly the edges from inside to outside. */
	ex = json_get(jl, "exits");
	CHECK(ex && ex->type == JSON_ARRAY, "loop %u: exits", L->header);
	for (size_t k = 0; ex && k < ex->count; k++) {
		uint64_t f = num(ex->items[k], "from", &ok), t = num(ex->items[k], "to", &ok);

		CHECK(f < ninsn && t < ninsn && L->in[f] && !L->in[t] &&
		      edge((uint32_t)f, (uint32_t)t), "loop %u: exit %llu->%llu", L->header,
		      (unsigned long long)f, (unsigned long long)t);
	}
	for (uint32_t u = 0; u < ninsn; u++)
		for (uint32_t k = 0; node[u] && L->in[u] && k < nsucc[u]; k++)
			nexit += !L->in[succ[u][k]];
	CHECK_EQ_U64(ex ? ex->count : 0, nexit, "exits");
	/* The body: pc ranges covering exactly the loop's instructions. */
	bl = json_get(jl, "blocks");
	CHECK(bl && bl->type == JSON_ARRAY && bl->count > 0, "loop %u: blocks", L->header);
	for (size_t k = 0; bl && k < bl->count; k++) {
		uint64_t a = UINT64_MAX, b = 0;

		CHECK(bl->items[k]->type == JSON_ARRAY && bl->items[k]->count == 2 &&
		      !json_u64(bl->items[k]->items[0], &a) &&
		      !json_u64(bl->items[k]->items[1], &b) && a <= b && b < ninsn,
		      "loop %u: block %zu", L->header, k);
		for (uint64_t pc = a; a <= b && b < ninsn && pc <= b; pc++) {
			CHECK(!body[pc], "loop %u: pc %llu in two blocks", L->header,
			      (unsigned long long)pc);
			body[pc] = true;
		}
	}
	for (uint32_t pc = 0; pc < ninsn; pc++)
		CHECK(second[pc] || body[pc] == (L->in[pc] && node[pc]), "loop %u: pc %u %s the body",
		      L->header, pc, body[pc] ? "wrongly in" : "missing from");
	CHECK(ok, "loop %u: a field is missing or not a number", L->header);
}

/* left_out.o: `bad` is left out by the loader (a malformed may_goto at its insn 0); verify
 * must say so — a line on stderr and exit 2 for one file, a bad-object row in the report, the
 * reason for --prog bad — and still judge the two good programs. */
static void check_left_out(const char *bin, const char *dir)
{
	char cmd[1024];
	char *out;
	int st;

	snprintf(cmd, sizeof(cmd), "%s verify %s/left_out.o 2>&1", bin, dir);
	out = run(cmd, &st);
	CHECK(out && WIFEXITED(st) && WEXITSTATUS(st) == 2, "verify left_out.o: status %d", st);
	CHECK(out && strstr(out, "program 'bad' (section 'socket') left out: insn 0: ") &&
	      strstr(out, "good: safe") && strstr(out, "after: safe"), "verify left_out.o: %s",
	      out ? out : "");
	free(out);
	snprintf(cmd, sizeof(cmd), "%s verify %s/left_out.o --csv 2>/dev/null", bin, dir);
	out = run(cmd, &st);
	CHECK(out && st == 0 && strstr(out, ",bad,socket,-,-,-1,-1,error,-1,0.0,bad-object,0,insn 0: ") &&
	      strstr(out, ",good,socket,") && strstr(out, ",after,socket,"),
	      "verify left_out.o --csv: %s", out ? out : "");
	free(out);
	snprintf(cmd, sizeof(cmd), "%s verify %s/left_out.o --prog bad 2>&1", bin, dir);
	out = run(cmd, &st);
	CHECK(out && WIFEXITED(st) && WEXITSTATUS(st) == 2 &&
	      strstr(out, "program 'bad' was left out when loading: insn 0: ") &&
	      !strstr(out, "no program named"), "verify --prog bad: %s", out ? out : "");
	free(out);
}

int main(void)
{
	const char *bin = getenv("BPFSCEV_BIN"), *dir = getenv("BPFSCEV_TEST_BPF_DIR");
	const struct ref_loop *seen[MAXL];
	struct ebpf_object *o = NULL;
	char cmd[1024], obj[512], want[128];
	struct claims *c = NULL;
	unsigned nseen = 0, unreachable = 0;
	bool all[MAXI];
	struct json *j;
	struct diag d;
	char *out;
	int st;

	if (!bin || !dir)
		return check_skip("test_loops_cli", "needs BPFSCEV_BIN and the clang-built objects "
				  "(BPFSCEV_TEST_BPF_DIR)");
	snprintf(obj, sizeof(obj), "%s/nested_loops.o", dir);

	/* The reference: the instructions as the ELF loader gives them. */
	diag_clear(&d);
	CHECK(casefile__open_object(&o, obj, &d) == 0 && o->prog_cnt == 1, "%s: %s", obj, d.msg);
	if (!o || o->prog_cnt != 1 || !flow_graph(o->progs[0].insns, (uint32_t)o->progs[0].len)) {
		CHECK(0, "%s: cannot build the reference flow graph", obj);
		ebpf_object__free(o);
		return check_done("test_loops_cli");
	}
	memcpy(all, node, sizeof(all));
	find_loops(all, -1, 1);
	for (uint32_t pc = 0; pc < ninsn; pc++)
		unreachable += !node[pc] && !second[pc];
	/* The object is two nested loops, both entered at one place: the source says so. */
	CHECK(nref == 2 && ref[0].depth + ref[1].depth == 3 && ref[0].entered == 1 &&
	      ref[1].entered == 1, "the reference finds %u loops in %s", nref, obj);
	if (nref != 2) {
		ebpf_object__free(o);
		return check_done("test_loops_cli");
	}

	snprintf(cmd, sizeof(cmd), "%s loops %s", bin, obj);
	out = run(cmd, &st);
	CHECK(out && st == 0, "loops failed");
	CHECK(out && strstr(out, "2 loops (0 irreducible)"), "text: %s", out ? out : "");
	for (unsigned k = 0; k < nref; k++) {
		if (ref[k].parent < 0)
			snprintf(want, sizeof(want), "loop header %u depth 1 back_edges", ref[k].header);
		else
			snprintf(want, sizeof(want), "loop header %u depth %u in %lld back_edges",
				 ref[k].header, ref[k].depth, (long long)ref[k].parent);
		CHECK(out && strstr(out, want), "text lacks '%s': %s", want, out ? out : "");
	}
	free(out);

	snprintf(cmd, sizeof(cmd), "%s loops %s --json", bin, obj);
	out = run(cmd, &st);
	diag_clear(&d);
	CHECK(out && st == 0, "loops --json failed");
	j = out ? json_parse(out, strlen(out), &d) : NULL;
	CHECK(j, "loops --json does not parse: %s", d.msg);
	if (j) {
		const struct json *p = json_get(j, "programs"), *pr, *loops, *f, *u;
		uint64_t a = UINT64_MAX, b = UINT64_MAX, n = 0;

		CHECK(p && p->count == 1, "one program");
		pr = p && p->count ? p->items[0] : NULL;
		CHECK(pr && json_get(pr, "name") && json_get(pr, "name")->type == JSON_STRING &&
		      !strcmp(json_get(pr, "name")->text, "nested_loops"), "program name");
		CHECK(pr && !json_u64(json_get(pr, "insn_count"), &n) && n == ninsn,
		      "insn_count %llu, the object has %u", (unsigned long long)n, ninsn);
		/* One function, the whole program (no bpf-to-bpf calls in the source). */
		f = pr ? json_get(pr, "functions") : NULL;
		CHECK(f && f->type == JSON_ARRAY && f->count == 1 && f->items[0]->count == 2 &&
		      !json_u64(f->items[0]->items[0], &a) && !json_u64(f->items[0]->items[1], &b) &&
		      a == 0 && b == ninsn - 1, "functions: one, [0, %u]", ninsn - 1);
		u = pr ? json_get(pr, "unreachable") : NULL;
		CHECK(u && u->type == JSON_ARRAY && u->count == unreachable,
		      "unreachable: %zu listed, %u in the flow graph", u ? u->count : 0, unreachable);
		loops = pr ? json_get(pr, "loops") : NULL;
		CHECK(loops && loops->count == nref, "%u loops", nref);
		for (size_t k = 0; loops && k < loops->count && k < MAXL; k++)
			check_json_loop(loops->items[k], seen, &nseen);
		json_free(j);
	}
	free(out);

	snprintf(cmd, sizeof(cmd), "%s loops %s --dot --idom", bin, obj);
	out = run(cmd, &st);
	CHECK(out && st == 0 && strstr(out, "subgraph cluster_loop") && strstr(out, "label=\"back\""),
	      "dot output");
	free(out);
	if (system("command -v dot >/dev/null 2>&1") == 0) {
		snprintf(cmd, sizeof(cmd), "%s loops %s --svg /tmp/bpfscev_test_loops.svg && "
			 "grep -q '<svg' /tmp/bpfscev_test_loops.svg", bin, obj);
		CHECK(system(cmd) == 0, "--svg did not render");
		remove("/tmp/bpfscev_test_loops.svg");
	} else {
		check_skip_part("dot(1) not installed, --svg not tried");
	}

	snprintf(cmd, sizeof(cmd), "%s analyze %s --json", bin, obj);
	out = run(cmd, &st);
	diag_clear(&d);
	CHECK(out && st == 0 && claims_read(&c, out, strlen(out), &d) == 0, "analyze --json: %s",
	      d.msg);
	if (c) {
		CHECK(c->nprogs == 1 && c->progs[0].nloops == 2, "claims read back");
		for (uint32_t k = 0; c->nprogs == 1 && k < c->progs[0].nloops; k++) {
			const struct claim_loop *cl = &c->progs[0].loops[k];
			const struct ref_loop *L = ref_by_header(cl->header);

			CHECK(L && cl->depth == L->depth && cl->parent == L->parent,
			      "claimed loop at %u: not the reference's", cl->header);
			/* From the source: for (i = 0; i < 10; i++) runs 10 times, the inner
			 * for (j = 0; j < i; j++) never more. */
			if (cl->depth == 1)
				CHECK(cl->trip.kind == TRIP_EXACT && cl->trip.max == 10,
				      "outer trip count");
			else
				CHECK(cl->trip.kind != TRIP_UNKNOWN && cl->trip.max <= 10,
				      "inner trip bound");
		}
		claims__free(c);
	}
	free(out);

	snprintf(cmd, sizeof(cmd), "%s check %s >/dev/null", bin, obj);
	CHECK(system(cmd) == 0, "check refuted a claim on the clang object");
	check_left_out(bin, dir);
	ebpf_object__free(o);
	return check_done("test_loops_cli");
}
