/* The Z3 oracle's prover: symbolic execution over the oracle's own loop forest, inductive
 * proofs of the claims with Houdini-style pruning, bounded model checking for what is not
 * inductive, replay of every model on the interpreter, and the precision report (smt.h
 * describes the method; smt_mach.h the machine, smt_cfg.h the regions).
 *
 * Execution.  run_region() visits a region's nodes in topological order; states arriving at a
 * node are merged, the node's range claims become obligations ("guard and the value outside the
 * claim" must be unsatisfiable), the instruction is stepped, and successors go to later nodes,
 * back to the region's header, or out of the region.  An inner loop is one node: exec_loop()
 * takes everything that enters it and hands back what leaves it — summarized (induction) or
 * unrolled (BMC).  A bpf-to-bpf call runs the callee's region with a new frame and continues
 * with the merged returns.
 *
 * Claim ids: range claims 0..nr-1, then one trip-count claim per claimed loop, then the
 * induction variables loop by loop.
 */
#include "oracle/z3/smt.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bpf/helper_proto.h"
#include "oracle/exec/interp.h"
#include "oracle/z3/smt_cfg.h"
#include "oracle/z3/smt_mach.h"
#include "oracle/z3/smt_term.h"
#include "util/clock.h"

#define DEFAULT_TIMEOUT_MS 2000
/* with a resource limit, the timeout is only a safety net against a runaway query */
#define SAFETY_TIMEOUT_MS 60000
#define DEFAULT_BMC_DEPTH 64
#define DEFAULT_INPUT_LEN 64
#define DEFAULT_REPLAY_STEPS 100000000ull
#define INDUCTION_REPLAY_STEPS 2000000ull	/* a CTI replay is a guess: keep it cheap */
#define MAX_STEPS 400000	/* instructions executed symbolically per run */
#define MAX_ROUNDS 12
#define MAX_W_ITER 6
#define WHOLE_REGION_BYTES 4096	/* larger regions are havocked whole */
#define ERR(e) ((uint64_t) - (int64_t)(e))

enum mode { MODE_INDUCT, MODE_BMC };
/* (CS_CUT: in one induction round only, a claim left undecided because what it is about is
 * reachable from an unsupported instruction: it stays open, its hypothesis kept) */
enum cstat { CS_OPEN, CS_PROVED, CS_FAILED, CS_UNKNOWN, CS_REFUTED, CS_CUT };
enum obkind { OB_VISIT, OB_BASE, OB_STEP, OB_EXIT };

struct oblig {
	uint32_t claim;
	uint8_t kind;		/* enum obkind */
	bool exact;		/* BMC: a model is a run of the program */
	sxt g, v;		/* g and v satisfiable = the claim is violated (g: a guard that
				 * other obligations share, v: the violation) */
};

struct pend {
	uint32_t pc;
	struct mstate st;
};

struct pendv {
	struct pend *v;
	uint32_t n, cap;
};

/* What leaves a region. */
struct routes {
	struct pendv back;	/* arrivals at the region's header */
	struct pendv exits;	/* edges out of the region (pc = target) */
	struct pendv rets;	/* returns from the function (pc = where the caller resumes) */
};

/* A store made inside a loop being summarized (for its write set). */
struct store_ev {
	sxt addr, guard;
	uint32_t size;
};

/* Memory a loop may write: per array of the header state (by its place in struct mstate),
 * the indexes, or all of it. */
struct wentry {
	size_t field;		/* offsetof(struct mstate, ...) of the array */
	uint64_t base;		/* bits[k] is array index base + k (a map value's: its window) */
	uint64_t nbits;
	uint8_t *bits;
	bool whole;
};

struct wset {
	struct wentry *v;
	uint32_t n;
};

struct visit {
	uint32_t claim;
	sxt g, x;
};

struct copyg {
	uint32_t loop;		/* claim loop */
	uint32_t j;		/* header execution j + 1 of an entry */
	sxt g;
};

struct prover {
	struct sx *c;
	struct mach m;
	struct cfg g;
	const struct ebpf_object *obj;
	const struct ebpf_prog *prog;
	const struct claim_prog *cp;
	struct smt_opts o;
	struct smt_result *res;
	enum mode mode;
	unsigned bmc_k;
	/* claims */
	uint32_t nr, nl, niv, nids;
	uint32_t *iv_base;	/* per claim loop: first IV id - nr - nl */
	uint32_t *roff, *ridx;	/* range claims by pc */
	int32_t *cfg_loop;	/* per claim loop: the matching cfg loop, -1 */
	uint8_t *assume;	/* per id: a hypothesis this round */
	uint8_t *stat;		/* per id: enum cstat */
	uint8_t *method;	/* per id: enum smt_method when decided */
	double *ms;		/* per id: solver time */
	char (*why)[200];	/* per id: reason */
	int32_t *finding;	/* per id */
	/* one run */
	struct oblig *ob;
	uint32_t nob, capob;
	struct store_ev *ev;
	uint32_t nev, capev;
	unsigned collectors;	/* loops being summarized: events are recorded while > 0 */
	sxt incomplete;		/* BMC: a path was cut at the unrolling depth */
	uint8_t *visited;	/* per slot: some state reached it */
	struct wset *w;		/* per cfg loop: what it may write, grown over every run */
	struct wset *cbw;	/* per callback helper call (by pc): what its callback may write */
	uint8_t *cb;		/* per claim loop: a helper's callback summarized at its calls */
	bool cut;		/* first pass: callback helpers and iterator kfuncs cut the paths */
	bool interp_only;	/* this run met what BMC runs the interpreter's way, not as every
				 * kernel may: a may_goto with the interpreter's budget, a walk over
				 * a hash map (the interpreter's, empty): covering every path proves
				 * nothing */
	/* the oracle's own hypotheses, ids nids..nall-1, never reported: an open-coded iterator
	 * a loop advances once per header execution (its int cur at frame offset off counts up by
	 * one, its end stays), as the bounded counter that proves the loop's trip */
	struct aux_iter {
		int32_t loop;	/* cfg loop */
		int32_t off;	/* the iterator's frame offset */
	} *aux;
	uint32_t naux, nall;
	uint64_t steps;
	uint64_t helper_calls;
	bool aborted;
	char abort_why[160];
	/* unsupported instructions met (pc, why) */
	uint32_t *unsup_pc;
	char (*unsup_why)[MACH_WHY_LEN];
	uint32_t nunsup;
	/* precision (BMC runs) */
	bool collect;
	struct visit *visits;
	uint32_t nvisits, capvisits;
	struct copyg *copies;
	uint32_t ncopies, capcopies;
	double t0;
	int err;
};

static sxt bv64(struct prover *P, uint64_t v)
{
	return sx_bv(P->c, v, 64);
}

static uint32_t trip_id(const struct prover *P, uint32_t l) { return P->nr + l; }
static uint32_t iv_id(const struct prover *P, uint32_t l, uint32_t k)
{
	return P->nr + P->nl + P->iv_base[l] + k;
}

/* ---- vectors ---- */

static bool grow(void **v, uint32_t *cap, uint32_t need, size_t size)
{
	uint32_t nc;
	void *nv;

	if (need <= *cap)
		return true;
	nc = *cap ? *cap * 2 : 16;
	while (nc < need)
		nc *= 2;
	nv = realloc(*v, (size_t)nc * size);
	if (!nv)
		return false;
	*v = nv;
	*cap = nc;
	return true;
}

static void fail(struct prover *P, int err)
{
	if (!P->err)
		P->err = err;
	P->aborted = true;
}

static void push_pend(struct prover *P, struct pendv *pv, uint32_t pc, const struct mstate *st)
{
	if (!grow((void **)&pv->v, &pv->cap, pv->n + 1, sizeof(*pv->v))) {
		fail(P, -ENOMEM);
		return;
	}
	pv->v[pv->n].pc = pc;
	pv->v[pv->n++].st = *st;
}

static void pendv_free(struct pendv *pv)
{
	free(pv->v);
	memset(pv, 0, sizeof(*pv));
}

static void routes_free(struct routes *r)
{
	pendv_free(&r->back);
	pendv_free(&r->exits);
	pendv_free(&r->rets);
}

/* The claim is violated when g and v both hold. */
static void add_ob(struct prover *P, uint32_t claim, uint8_t kind, sxt g, sxt v)
{
	if (!g || !v) {
		fail(P, -EIO);
		return;
	}
	if (sx_is_false(P->c, g) || sx_is_false(P->c, v) || P->stat[claim] != CS_OPEN)
		return;
	if (!grow((void **)&P->ob, &P->capob, P->nob + 1, sizeof(*P->ob))) {
		fail(P, -ENOMEM);
		return;
	}
	P->ob[P->nob++] = (struct oblig){ claim, kind, P->mode == MODE_BMC, g, v };
}

static void note_unsupported(struct prover *P, uint32_t pc, const char *why)
{
	uint32_t *np;
	char (*nw)[MACH_WHY_LEN];

	for (uint32_t k = 0; k < P->nunsup; k++)
		if (P->unsup_pc[k] == pc)
			return;
	np = realloc(P->unsup_pc, (P->nunsup + 1) * sizeof(*np));
	if (np)
		P->unsup_pc = np;
	nw = realloc(P->unsup_why, (P->nunsup + 1) * sizeof(*nw));
	if (nw)
		P->unsup_why = nw;
	if (!np || !nw) {
		fail(P, -ENOMEM);
		return;
	}
	P->unsup_pc[P->nunsup] = pc;
	snprintf(P->unsup_why[P->nunsup++], sizeof(*P->unsup_why), "%s", why);
}

/* ---- claims as formulas ---- */

/* The claim's range holds for x (all nine fields). */
static sxt in_range(struct prover *P, sxt x, const struct range *r)
{
	struct sx *c = P->c;
	sxt t[10], x32 = sx_extract(c, 31, 0, x);
	unsigned n = 0;

	if (r->umin)
		t[n++] = sx_ule(c, bv64(P, r->umin), x);
	if (r->umax != UINT64_MAX)
		t[n++] = sx_ule(c, x, bv64(P, r->umax));
	if (r->smin != INT64_MIN)
		t[n++] = sx_sle(c, bv64(P, (uint64_t)r->smin), x);
	if (r->smax != INT64_MAX)
		t[n++] = sx_sle(c, x, bv64(P, (uint64_t)r->smax));
	if (r->u32_min)
		t[n++] = sx_ule(c, sx_bv(c, r->u32_min, 32), x32);
	if (r->u32_max != UINT32_MAX)
		t[n++] = sx_ule(c, x32, sx_bv(c, r->u32_max, 32));
	if (r->s32_min != INT32_MIN)
		t[n++] = sx_sle(c, sx_bv(c, (uint32_t)r->s32_min, 32), x32);
	if (r->s32_max != INT32_MAX)
		t[n++] = sx_sle(c, x32, sx_bv(c, (uint32_t)r->s32_max, 32));
	if (r->var_off.mask != UINT64_MAX)
		t[n++] = sx_eq(c, sx_and(c, x, bv64(P, ~r->var_off.mask)),
			       bv64(P, r->var_off.value));
	return sx_landn(c, n, t);
}

/* The range claim holds in st (check.c's semantics: region bases, maybe_null); *xout gets the
 * value or offset compared.  NULL *xout: nothing to check (the cell is outside the frame). */
static sxt claim_holds(struct prover *P, const struct mstate *st, const struct claim_range *cr,
		       sxt *xout)
{
	struct sx *c = P->c;
	sxt v = mach_loc_value(&P->m, st, cr->loc), x = NULL, ok = sx_true(c), base = NULL;
	sxt held = NULL;

	*xout = NULL;
	if (!v)
		return sx_true(c);
	if (!cr->is_ptr) {
		x = v;
	} else {
		switch (cr->region) {
		case REGION_STACK:
			base = st->r[EBPF_REG_FP];
			break;
		case REGION_CTX:
			base = bv64(P, INTERP_VA_CTX);
			break;
		case REGION_PKT:
		case REGION_PKT_META:
			base = bv64(P, INTERP_VA_PKT);
			break;
		case REGION_PKT_END:
			base = bv64(P, INTERP_VA_PKT + P->m.input_len);
			break;
		case REGION_MAP_HANDLE:
			/* the handle itself: offset 0 from its own map's handle (check.c) */
			base = bv64(P, INTERP_VA_MAPH + cr->map);
			break;
		case REGION_MAP_VALUE: {
			uint64_t start = INTERP_VA_MAP + ((uint64_t)cr->map << 32);
			uint64_t vs = P->obj && cr->map < P->obj->map_cnt ?
				      1ull << interp_map_shift(&P->obj->maps[cr->map]) : 0;
			sxt off = sx_sub(c, v, bv64(P, start));

			ok = sx_ult(c, off, bv64(P, 1ull << 32));
			if (P->m.pcpu && cr->map < P->m.nmaps) {
				/* or a CPU's copies of the map (interp_map_window) */
				sxt w = sx_lshr(c, sx_sub(c, v, bv64(P, INTERP_VA_PCPU)), bv64(P, 32));
				sxt pc_ok = sx_land(c, sx_eq(c, sx_lshr(c, v, bv64(P, 44)),
							     bv64(P, INTERP_VA_PCPU >> 44)),
						    sx_eq(c, sx_urem(c, w, bv64(P, P->m.nmaps)),
							  bv64(P, cr->map)));

				off = sx_ite(c, ok, off, sx_and(c, v, bv64(P, 0xffffffffull)));
				ok = sx_lor(c, ok, pc_ok);
			}
			/* offsets count from the start of the element's window the pointer is
			 * in, or of one of the CLAIM_MAP_BACK before it (claims.h, check.c) */
			x = vs ? sx_and(c, off, bv64(P, vs - 1)) : off;
			if (vs) {
				sxt alt[CLAIM_MAP_BACK + 1];

				alt[0] = in_range(P, x, &cr->r);
				for (unsigned j = 1; j <= CLAIM_MAP_BACK; j++) {
					sxt xj = sx_add(c, x, bv64(P, (uint64_t)j * vs));

					alt[j] = sx_land(c, sx_ule(c, xj, off), in_range(P, xj, &cr->r));
				}
				held = sx_lorn(c, CLAIM_MAP_BACK + 1, alt);
			}
			break;
		}
		default:
			ok = sx_false(c);
			base = bv64(P, 0);
			break;
		}
		if (cr->region != REGION_MAP_VALUE)
			x = sx_sub(c, v, base);
	}
	*xout = x;
	ok = sx_land(c, ok, held ? held : in_range(P, x, &cr->r));
	if (cr->is_ptr && cr->maybe_null)
		ok = sx_lor(c, sx_eq(c, v, bv64(P, 0)), ok);
	return ok;
}

/* Range claims at pc, visited by st.  In induction, a matched loop's header claims that are
 * hypotheses are established by base and step instead (skip_assumed). */
static void visit_claims(struct prover *P, uint32_t pc, const struct mstate *st,
			 bool skip_assumed)
{
	struct sx *c = P->c;

	if (pc < P->g.nslots)
		P->visited[pc] = 1;
	for (uint32_t k = P->roff[pc]; k < P->roff[pc + 1]; k++) {
		uint32_t id = P->ridx[k];
		sxt x, h;

		if (skip_assumed && P->assume[id])
			continue;
		h = claim_holds(P, st, &P->cp->ranges[id], &x);
		if (!x)
			continue;
		if (P->collect && grow((void **)&P->visits, &P->capvisits, P->nvisits + 1,
				       sizeof(*P->visits)))
			P->visits[P->nvisits++] = (struct visit){ id, st->guard, x };
		add_ob(P, id, OB_VISIT, st->guard, sx_not(c, h));
	}
}

/* ---- induction variables ---- */

static sxt iv_value(struct prover *P, const struct mstate *st, const struct claim_iv *iv)
{
	sxt v = mach_loc_value(&P->m, st, iv->loc);

	return v ? v : bv64(P, 0);	/* check.c reads 0 for an unreadable cell */
}

/* The value one header execution later: prev + step, mod 2^width, zero-extended. */
static sxt iv_next(struct prover *P, sxt prev, const struct claim_iv *iv)
{
	struct sx *c = P->c;

	if (iv->width == 64)
		return sx_add(c, prev, bv64(P, iv->step));
	return sx_zext(c, 64, sx_add(c, sx_extract(c, 31, 0, prev), sx_bv(c, iv->step, 32)));
}

/* The value at header execution i + 1 of an entry whose first had v0. */
static sxt iv_closed(struct prover *P, sxt v0, sxt i, const struct claim_iv *iv)
{
	struct sx *c = P->c;

	if (iv->width == 64)
		return sx_add(c, v0, sx_mul(c, i, bv64(P, iv->step)));
	return sx_ite(c, sx_eq(c, i, bv64(P, 0)), v0,
		      sx_zext(c, 64, sx_add(c, sx_extract(c, 31, 0, v0),
					    sx_mul(c, sx_extract(c, 31, 0, i),
						   sx_bv(c, iv->step, 32)))));
}

/* ---- execution ---- */

static void exec_loop(struct prover *P, int32_t K, struct pendv *in, struct routes *out);
static void run_region(struct prover *P, int32_t loop, uint32_t func, struct pendv *init,
		       struct routes *out);

/* The program's budget: Z3 resource units (the same on every machine), then wall time (a safety
 * net; check_wall limits how often the clock is read).  The context's resource count is read
 * every time: it grows while terms are made and simplified, before any query, up to 100,000
 * units for one instruction (a callback's frame merged into a long store chain; read every
 * 16 instructions, gen p_bpf_loop=60's program 15 of fuzz seed 16 overran 10 M by 206,000). */
static bool budget_spent(struct prover *P, bool check_wall, char *why, size_t why_len)
{
	if (P->o.program_rlimit)
		sx_poll_rlimit(P->c);
	if (sx_rlimit_spent(P->c)) {
		snprintf(why, why_len, "resource budget of %llu spent",
			 (unsigned long long)P->o.program_rlimit);
		return true;
	}
	if (check_wall && P->o.budget_s > 0 && wall_s() - P->t0 > P->o.budget_s) {
		snprintf(why, why_len, "time budget of %.1f s spent", P->o.budget_s);
		return true;
	}
	return false;
}

static bool over_budget(struct prover *P)
{
	if (P->aborted)
		return true;
	if (P->steps > MAX_STEPS) {
		P->aborted = true;
		snprintf(P->abort_why, sizeof(P->abort_why),
			 "the symbolic execution exceeded %d instructions", MAX_STEPS);
		return true;
	}
	if (budget_spent(P, (P->steps & 15) == 0, P->abort_why, sizeof(P->abort_why))) {
		P->aborted = true;
		return true;
	}
	return false;
}

/* A successor leaving an instruction of the region of loop (or function func's top). */
static void route(struct prover *P, int32_t loop, uint32_t func, uint32_t pc,
		  const struct mstate *st, struct pendv *pending, struct routes *out)
{
	if (sx_is_false(P->c, st->guard))
		return;
	if (loop >= 0 && pc == P->g.loops[loop].header) {
		push_pend(P, &out->back, pc, st);
		return;
	}
	if (pc >= P->g.nslots || P->g.func_of[pc] != (int32_t)func ||
	    (loop >= 0 && !cfg_in_loop(&P->g, loop, pc))) {
		push_pend(P, &out->exits, pc, st);
		return;
	}
	push_pend(P, &pending[cfg_pos(&P->g, loop, pc)], pc, st);
}

/* Runs function f from its entry with st (frame already pushed); the merged return state (at
 * the caller's resume pc, frame popped) goes to *ret.  False when it never returns. */
static bool run_function(struct prover *P, uint32_t entry, const struct mstate *st,
			 struct mstate *ret, uint32_t *ret_pc)
{
	struct pendv init = { 0 };
	struct routes r = { 0 };
	bool any = false;
	int32_t f = entry < P->g.nslots ? P->g.func_of[entry] : -1;

	if (f < 0 || P->g.funcs[f].entry != entry) {
		note_unsupported(P, entry, "a call to something that is not a function start");
		return false;
	}
	push_pend(P, &init, entry, st);
	run_region(P, -1, (uint32_t)f, &init, &r);
	for (uint32_t k = 0; k < r.rets.n; k++) {
		if (!any) {
			*ret = r.rets.v[k].st;
			*ret_pc = r.rets.v[k].pc;
			any = true;
		} else if (!mstate_merge(P->c, ret, &r.rets.v[k].st)) {
			note_unsupported(P, entry, "returns that cannot be merged");
		}
	}
	pendv_free(&init);
	routes_free(&r);
	return any;
}

static void exec_cb_helper(struct prover *P, int32_t loop, uint32_t func, uint32_t pc,
			   const struct mstate *st, struct pendv *pending, struct routes *out);
static bool is_cb_helper(const struct bpf_insn *in);

/* The program has a per-CPU array with storage (mach.any_pcpu: its copies' bytes). */
static bool has_pcpu_array(const struct mach *m)
{
	for (size_t k = 0; k < m->nmaps && k < MACH_MAX_MAPS; k++)
		if (m->maps[k].def.type == BPF_MAP_TYPE_PERCPU_ARRAY && m->maps[k].len)
			return true;
	return false;
}

/* Whether pc calls a helper or a kfunc the interpreter does not run (interp.c's KF_OTHER: neither
 * an open-coded number or bits iterator's nor a reference kfunc; the other iterator families,
 * bpf_iter_task_new, ...): the machine traps there as the interpreter does (smt_diff holds them
 * to the same step), which would make every path through the call vacuous and prove any claim
 * past it, a wrong trip count or range included.  The prover says unknown there instead, with
 * the kfunc's name in why; and at the bits iterator's kfuncs, which the interpreter runs but
 * the machine does not encode (smt_mach.c: unsupported there). */
static bool unrun_kfunc(const struct prover *P, uint32_t pc, char *why, size_t n)
{
	const struct bpf_insn *in = &P->m.insns[pc];
	struct ebpf_kfunc_iter ik;
	const char *kn;

	if (ebpf_class(in) != BPF_JMP || ebpf_op(in) != BPF_CALL)
		return false;
	if (in->src_reg == 0) {	/* a helper: the same vacuity (smt_mach.c: mach_helper_unrun) */
		if (!mach_helper_unrun(in->imm))
			return false;
		kn = ebpf_helper_name(in->imm);
		snprintf(why, n, "%s at %u: a helper the interpreter does not run (nothing past it "
			 "is encoded)", kn ? kn : "a helper of no known id", pc);
		return true;
	}
	if (in->src_reg != BPF_PSEUDO_KFUNC_CALL)
		return false;
	kn = ebpf_prog_kfunc_name(P->m.prog, pc);
	if (kn && (!strcmp(kn, "bpf_iter_num_new") || !strcmp(kn, "bpf_iter_num_next") ||
		   !strcmp(kn, "bpf_iter_num_destroy") || ebpf_kfunc_ref(kn)))
		return false;
	/* (bpf/kfunc_table.c's others the interpreter runs: the machine says unsupported) */
	if (kn && ebpf_kfunc_info(kn)) {
		snprintf(why, n, "%s at %u: a kfunc the interpreter runs, not encoded (nothing "
			 "past it is)", kn, pc);
		return true;
	}
	/* (the dynptr kfuncs and the bits iterator's the interpreter runs, which the machine
	 * does not encode: the same answer, in other words) */
	if (kn && ebpf_kfunc_iter(kn, &ik))
		snprintf(why, n, "%s at %u: the %s iterator is not encoded (nothing past it is%s)",
			 kn, pc, ik.family_name, ebpf_iter_family_obj(ik.family)
			 ? ": its walk is the kernel's objects" : "");
	else
		snprintf(why, n, "%s at %u: a kfunc %s (nothing past it is encoded)",
			 kn ? kn : "a kfunc of no known name", pc,
			 interp_dynptr_kfunc(kn) ? "the interpreter runs, not encoded"
						 : "the interpreter does not run");
	return true;
}

static void exec_insn(struct prover *P, int32_t loop, uint32_t func, uint32_t pc,
		      const struct mstate *st, struct pendv *pending, struct routes *out,
		      bool skip_assumed)
{
	struct mstep *o;
	char why[128];

	visit_claims(P, pc, st, skip_assumed);
	if (over_budget(P))
		return;
	P->steps++;
	if (unrun_kfunc(P, pc, why, sizeof(why))) {
		note_unsupported(P, pc, why);
		return;
	}
	if (is_cb_helper(&P->m.insns[pc])) {

		P->helper_calls++;
		snprintf(why, sizeof(why), "%s (the first pass cuts it)",
			 ebpf_helper_name(P->m.insns[pc].imm));
		if (P->cut)
			note_unsupported(P, pc, why);
		else
			exec_cb_helper(P, loop, func, pc, st, pending, out);
		return;
	}
	o = malloc(sizeof(*o));
	if (!o) {
		fail(P, -ENOMEM);
		return;
	}
	mach_step(&P->m, st, pc, o);
	if (ebpf_is_helper_call(&P->m.insns[pc]))
		P->helper_calls++;
	/* may_goto: the induction's budgets are any number (mach.any_may_goto); BMC counts the
	 * interpreter's 2^23 per frame, one kernel's rule (a counterexample is one), so a run
	 * that meets a may_goto proves nothing by covering every path (the timed may_goto of
	 * x86-64 JITs may jump where the count would not) */
	if (ebpf_is_jmp(&P->m.insns[pc]) && ebpf_op(&P->m.insns[pc]) == BPF_JCOND &&
	    !P->m.any_may_goto)
		P->interp_only = true;
	/* bpf_map_lookup_percpu_elem, and a lookup in a program with a per-CPU array: BMC's
	 * copies start zero, the interpreter's (its models replay), so covering every path
	 * proves nothing for copies holding other bytes; the induction's are any (mach.any_pcpu) */
	if (ebpf_is_helper_call(&P->m.insns[pc]) && !P->m.any_pcpu &&
	    (P->m.insns[pc].imm == BPF_FUNC_map_lookup_percpu_elem ||
	     (P->m.insns[pc].imm == BPF_FUNC_map_lookup_elem && has_pcpu_array(&P->m))))
		P->interp_only = true;
	if (o->unsupported[0]) {
		note_unsupported(P, pc, o->unsupported);
		free(o);
		return;
	}
	if (o->cut) {	/* (BMC: a hash map helper, mach.any_hash) */
		P->incomplete = sx_lor(P->c, P->incomplete, st->guard);
		free(o);
		return;
	}
	if (P->collectors)
		for (unsigned k = 0; k < o->nstores; k++) {
			if (!grow((void **)&P->ev, &P->capev, P->nev + 1, sizeof(*P->ev))) {
				fail(P, -ENOMEM);
				break;
			}
			P->ev[P->nev++] = (struct store_ev){ o->stores[k].addr, o->stores[k].guard,
							      o->stores[k].size };
		}
	for (unsigned k = 0; k < o->n; k++) {
		struct mstate *s = &o->succ[k];

		if (sx_is_false(P->c, s->guard))
			continue;
		if (o->call) {
			struct mstate ret;
			uint32_t rpc;

			if (run_function(P, o->pc[k], s, &ret, &rpc))
				route(P, loop, func, rpc, &ret, pending, out);
		} else if (o->ret) {
			push_pend(P, &out->rets, o->pc[k], s);
		} else {
			route(P, loop, func, o->pc[k], s, pending, out);
		}
	}
	free(o);
}

/* Visits the region of loop (or function func's top level) from the states in init. */
static void run_region(struct prover *P, int32_t loop, uint32_t func, struct pendv *init,
		       struct routes *out)
{
	const uint32_t *order = loop >= 0 ? P->g.loops[loop].order : P->g.funcs[func].order;
	uint32_t n = loop >= 0 ? P->g.loops[loop].norder : P->g.funcs[func].norder;
	uint32_t header = loop >= 0 ? P->g.loops[loop].header : UINT32_MAX;
	bool matched = loop >= 0 && P->g.loops[loop].claim >= 0;
	struct pendv *pending = calloc(n ? n : 1, sizeof(*pending));

	if (!pending) {
		fail(P, -ENOMEM);
		return;
	}
	for (uint32_t k = 0; k < init->n; k++) {
		if (init->v[k].pc == header)	/* where the region starts, not an arrival */
			push_pend(P, &pending[0], header, &init->v[k].st);
		else
			route(P, loop, func, init->v[k].pc, &init->v[k].st, pending, out);
	}
	for (uint32_t pos = 0; pos < n && !P->aborted; pos++) {
		uint32_t node = order[pos];
		struct pendv *pv = &pending[pos];

		if (!pv->n)
			continue;
		if (node != header && P->g.loop_of[node] != loop) {
			/* an inner loop: everything that enters it, at any of its nodes */
			struct routes r = { 0 };
			int32_t K = P->g.loop_of[node];

			while (K >= 0 && P->g.loops[K].parent != loop)
				K = P->g.loops[K].parent;
			exec_loop(P, K, pv, &r);
			for (uint32_t k = 0; k < r.exits.n; k++)
				route(P, loop, func, r.exits.v[k].pc, &r.exits.v[k].st, pending, out);
			for (uint32_t k = 0; k < r.rets.n; k++)
				push_pend(P, &out->rets, r.rets.v[k].pc, &r.rets.v[k].st);
			routes_free(&r);
		} else {
			struct mstate st = pv->v[0].st;

			for (uint32_t k = 1; k < pv->n; k++)
				if (!mstate_merge(P->c, &st, &pv->v[k].st))
					note_unsupported(P, node, "states of different call depth meet");
			exec_insn(P, loop, func, node, &st, pending, out,
				  P->mode == MODE_INDUCT && matched && node == header);
		}
		pendv_free(pv);
	}
	for (uint32_t pos = 0; pos < n; pos++)
		pendv_free(&pending[pos]);
	free(pending);
}

/* ---- write sets ---- */

static struct wentry *wentry_of(struct prover *P, struct wset *w, size_t field, uint64_t base,
				 uint64_t nbits)
{
	struct wentry *e;

	for (uint32_t k = 0; k < w->n; k++)
		if (w->v[k].field == field && w->v[k].base == base)
			return &w->v[k];
	e = realloc(w->v, (w->n + 1) * sizeof(*e));
	if (!e) {
		fail(P, -ENOMEM);
		return NULL;
	}
	w->v = e;
	e = &w->v[w->n++];
	memset(e, 0, sizeof(*e));
	e->field = field;
	e->base = base;
	e->nbits = nbits;
	e->whole = nbits > WHOLE_REGION_BYTES;
	if (!e->whole) {
		e->bits = calloc(nbits ? nbits : 1, 1);
		if (!e->bits) {
			fail(P, -ENOMEM);
			e->whole = true;
		}
	}
	return e;
}

static void wset_free(struct wset *w)
{
	for (uint32_t k = 0; k < w->n; k++)
		free(w->v[k].bits);
	free(w->v);
	memset(w, 0, sizeof(*w));
}

/* The write-set entry of region r: its own for a map's value (from its first index), else the
 * array's from index 0; wentry_nbits its indexes, wentry_find the entry if the set has it. */
static uint64_t wentry_nbits(const struct mach_region *r)
{
	return r->index0 + r->len - (r->value ? r->index0 : 0);
}

static struct wentry *wentry_find(struct wset *w, const struct mach_region *r, size_t field)
{
	uint64_t base = r->value ? r->index0 : 0;

	for (uint32_t k = 0; k < w->n; k++)
		if (w->v[k].field == field && w->v[k].base == base)
			return &w->v[k];
	return NULL;
}

static struct wentry *wentry_rg(struct prover *P, struct wset *w, const struct mach_region *r,
				size_t field)
{
	uint64_t base = r->value ? r->index0 : 0;

	return wentry_of(P, w, field, base, wentry_nbits(r));
}

/* Marks array indexes [lo, hi) of region r; true when something new was marked.  A region
 * too large to mark byte by byte enters the set whole: that is new the first time (the header
 * state that was run did not havoc it). */
static bool wmark(struct prover *P, struct wset *w, size_t field, const struct mach_region *r,
		  uint64_t lo, uint64_t hi, bool whole)
{
	uint32_t n0 = w->n;
	struct wentry *e = wentry_rg(P, w, r, field);
	bool grew = false;

	if (!e)
		return false;
	if (e->whole)
		return w->n > n0;
	if (whole && r->value) {	/* the value's bytes, not the other values' */
		lo = r->index0;
		hi = r->index0 + r->len;
	} else if (whole) {
		e->whole = true;
		return true;
	}
	for (uint64_t k = lo - e->base; k < hi - e->base && k < e->nbits; k++)
		if (!e->bits[k]) {
			e->bits[k] = 1;
			grew = true;
		}
	return grew;
}

/* The smallest (or largest) offset of addr - lo in [0, span] under q; false when unknown. */
static bool bound_offset(struct prover *P, sxt q, sxt off, uint64_t span, bool largest,
			 uint64_t *out)
{
	uint64_t a = 0, b = span;
	char why[64];

	while (a < b) {
		uint64_t mid = largest ? a + (b - a + 1) / 2 : a + (b - a) / 2;
		sxt f = largest ? sx_land(P->c, q, sx_ule(P->c, bv64(P, mid), off))
				: sx_land(P->c, q, sx_ule(P->c, off, bv64(P, mid)));
		enum sx_res r = sx_check(P->c, f, P->o.timeout_ms, NULL, why, sizeof(why));

		if (r == SX_UNKNOWN)
			return false;
		if (largest) {
			if (r == SX_SAT)
				a = mid;
			else
				b = mid - 1;
		} else {
			if (r == SX_SAT)
				b = mid;
			else
				a = mid + 1;
		}
	}
	*out = a;
	return true;
}

/* A store of size bytes at region offset off stays inside indexes the set already has. */
static sxt covered(struct prover *P, const struct wentry *e, sxt off, uint64_t index0,
		   uint32_t size)
{
	sxt any = sx_false(P->c);

	for (uint64_t a = 0; a < e->nbits;) {
		uint64_t b;

		if (!e->bits[a]) {
			a++;
			continue;
		}
		for (b = a; b < e->nbits && e->bits[b]; b++)
			;
		/* run [a, b) of bits, indexes base + a ..: offsets base + a - index0 .. */
		if (b - a >= size && e->base + a >= index0)
			any = sx_lor(P->c, any,
				     sx_land(P->c, sx_ule(P->c, bv64(P, e->base + a - index0), off),
					     sx_ule(P->c, off,
						    bv64(P, e->base + b - index0 - size))));
		a = b;
	}
	return any;
}

/* Adds the stores of events [from, nev) to w, relative to the header state S. */
static bool wset_grow(struct prover *P, struct wset *w, struct mstate *S, uint32_t from)
{
	struct mach_region rg[2 * MACH_NFRAMES + MACH_MAX_MAPS + 16];
	unsigned nr = mach_regions(&P->m, S, rg, sizeof(rg) / sizeof(rg[0]));
	bool grew = false;
	char why[64];

	for (uint32_t e = from; e < P->nev && !P->aborted; e++) {
		const struct store_ev *ev = &P->ev[e];
		uint64_t a;

		if (sx_num(P->c, ev->addr, &a)) {
			for (unsigned k = 0; k < nr; k++) {
				uint64_t rel = a - rg[k].lo;

				if (rel < rg[k].len && ev->size <= rg[k].len - rel)
					grew |= wmark(P, w, (char *)rg[k].arr - (char *)S, &rg[k],
						      rg[k].index0 + rel,
						      rg[k].index0 + rel + ev->size, false);
			}
			continue;
		}
		for (unsigned k = 0; k < nr; k++) {
			size_t field = (char *)rg[k].arr - (char *)S;
			uint64_t span, lo, hi;
			sxt off, q;
			struct wentry *we;
			enum sx_res r;

			if (rg[k].len < ev->size)
				continue;
			if (budget_spent(P, true, P->abort_why, sizeof(P->abort_why))) {
				/* out of budget: the caller sees the abort and stops */
				P->aborted = true;
				return false;
			}
			span = rg[k].len - ev->size;
			off = sx_sub(P->c, ev->addr, bv64(P, rg[k].lo));
			q = sx_land(P->c, ev->guard, sx_ule(P->c, off, bv64(P, span)));
			if (!wentry_find(w, &rg[k], field) && wentry_nbits(&rg[k]) > WHOLE_REGION_BYTES) {
				/* a region havocked whole, not in the set yet: in it when the store
				 * may land there (then it is new: the state that was run kept it) */
				r = sx_check(P->c, q, P->o.timeout_ms, NULL, why, sizeof(why));
				if (r != SX_UNSAT)
					grew |= wmark(P, w, field, &rg[k], 0, 0, true);
				continue;
			}
			we = wentry_rg(P, w, &rg[k], field);
			if (!we || we->whole)
				continue;
			/* only what the set does not cover yet: one query when nothing is new */
			r = sx_check(P->c, sx_land(P->c, q, sx_not(P->c, covered(P, we, off, rg[k].index0,
										    ev->size))),
				     P->o.timeout_ms, NULL, why, sizeof(why));
			if (r == SX_UNSAT)
				continue;
			if (r == SX_UNKNOWN || rg[k].len <= 64 ||
			    !bound_offset(P, q, off, span, false, &lo) ||
			    !bound_offset(P, q, off, span, true, &hi)) {
				grew |= wmark(P, w, field, &rg[k], 0, 0, true);
				continue;
			}
			grew |= wmark(P, w, field, &rg[k], rg[k].index0 + lo,
				      rg[k].index0 + hi + ev->size, false);
		}
	}
	return grew;
}

/* Havoc: the header state's arrays get fresh bytes where the loop may write. */
static void wset_apply(struct prover *P, const struct wset *w, struct mstate *S)
{
	for (uint32_t k = 0; k < w->n; k++) {
		const struct wentry *e = &w->v[k];
		sxt *arr = (sxt *)((char *)S + e->field);

		if (!*arr)
			continue;
		if (e->whole) {
			*arr = sx_fresh_mem(P->c, "havoc");
			continue;
		}
		for (uint64_t b = 0; b < e->nbits; b++)
			if (e->bits[b])
				*arr = sx_store(P->c, *arr, bv64(P, e->base + b),
						sx_fresh(P->c, "hb", 8));
	}
}

/* ---- loops ---- */

/* The range-claim location of the 4 bytes at frame offset off (claims.h's loc_t). */
static uint32_t iter_loc(int32_t off)
{
	return 16 + 4 * (uint32_t)-off + 2;
}

/* Whether pc calls bpf_iter_num_<which>. */
static bool is_iter_kfunc(struct prover *P, uint32_t pc, const char *which)
{
	const struct bpf_insn *in = &P->m.insns[pc];
	const char *kn;

	if (!ebpf_is_call(in) || in->src_reg != BPF_PSEUDO_KFUNC_CALL)
		return false;
	kn = ebpf_prog_kfunc_name(P->prog, pc);
	return kn && !strncmp(kn, "bpf_iter_num_", 13) && !strcmp(kn + 13, which);
}

/* Whether loop L's body creates or destroys an iterator (its frame's live set changes). */
static bool loop_changes_iters(struct prover *P, const struct cfg_loop *L)
{
	for (uint32_t k = 0; k < L->nbody; k++)
		if (is_iter_kfunc(P, L->body[k], "new") || is_iter_kfunc(P, L->body[k], "destroy"))
			return true;
	return false;
}

/* The frame offset r1 holds at pc, read backwards through the instructions before it (at most
 * ITER_TRACE of them, the function's): r1 = r10 + off, directly or through copies (r1 = r6, r6 =
 * r10, r6 += off, however the adds and moves interleave).  Only a guess — the path that reaches pc
 * may not be the one read — which is why the hypothesis it names is checked like a claim (base
 * and step), never trusted.  False when no such chain is found. */
#define ITER_TRACE 24
static bool iter_arg_off(struct prover *P, uint32_t pc, int32_t *off)
{
	int32_t f = P->g.func_of[pc];
	uint8_t reg = 1;
	int64_t acc = 0;

	for (uint32_t k = 1; k <= ITER_TRACE && k <= pc; k++) {
		const struct bpf_insn *in = &P->m.insns[pc - k];

		if (P->g.func_of[pc - k] != f && P->g.func_of[pc - k] != -1)
			break;	/* (-1: an LD_IMM64's second slot, or code never reached) */
		if (ebpf_is_call(in) && reg <= 5)
			return false;	/* r1-r5 are clobbered by a call */
		if (in->dst_reg != reg || ebpf_is_jmp(in))
			continue;
		if (in->code == (BPF_ALU64 | BPF_ADD | BPF_K)) {
			acc += in->imm;
		} else if (in->code == (BPF_ALU64 | BPF_MOV | BPF_X) && in->src_reg == EBPF_REG_FP) {
			if (acc > -8 || acc < -EBPF_STACK_SIZE || acc % 8)
				return false;
			*off = (int32_t)acc;
			return true;
		} else if (in->code == (BPF_ALU64 | BPF_MOV | BPF_X)) {
			reg = in->src_reg;
		} else {
			return false;	/* another write of the register */
		}
	}
	return false;
}

/* The oracle's own hypotheses: per loop, each iterator a bpf_iter_num_next of its body takes as
 * r1 = r10 + off (iter_arg_off). */
static int find_aux(struct prover *P)
{
	for (uint32_t K = 0; K < P->g.nloops; K++) {
		const struct cfg_loop *L = &P->g.loops[K];

		for (uint32_t k = 0; k < L->nbody; k++) {
			uint32_t pc = L->body[k];
			int32_t off;
			bool dup = false;
			struct aux_iter *nv;

			if (!is_iter_kfunc(P, pc, "next") || !iter_arg_off(P, pc, &off))
				continue;
			for (uint32_t j = 0; j < P->naux; j++)
				dup |= P->aux[j].loop == (int32_t)K && P->aux[j].off == off;
			if (dup)
				continue;
			nv = realloc(P->aux, (P->naux + 1) * sizeof(*nv));
			if (!nv)
				return -ENOMEM;
			P->aux = nv;
			P->aux[P->naux++] = (struct aux_iter){ (int32_t)K, off };
		}
	}
	return 0;
}

/* Whether loop L's body may reserve or release a ringbuf dynptr's record: it calls a ringbuf
 * dynptr helper, a function or a helper that runs a callback. */
static bool loop_changes_rb(struct prover *P, const struct cfg_loop *L)
{
	if (!P->m.any_rb)
		return false;
	for (uint32_t k = 0; k < L->nbody; k++) {
		const struct bpf_insn *in = &P->m.insns[L->body[k]];

		if (!ebpf_is_call(in))
			continue;
		if (in->src_reg != 0)
			return true;
		switch (in->imm) {
		case BPF_FUNC_ringbuf_reserve_dynptr:
		case BPF_FUNC_ringbuf_submit_dynptr:
		case BPF_FUNC_ringbuf_discard_dynptr:
		case BPF_FUNC_loop:
		case BPF_FUNC_for_each_map_elem:
		case BPF_FUNC_find_vma:
		case BPF_FUNC_user_ringbuf_drain:
			return true;
		default:
			break;
		}
	}
	return false;
}

/* The ringbuf dynptr records any number of calls may have reserved, released and written
 * (mstate.rb): fresh. */
static void rb_fresh(struct prover *P, struct mstate *S)
{
	struct sx *c = P->c;

	if (!S->rb)
		return;
	S->rb = sx_fresh_mem(c, "hrb");
	S->rbsz = sx_fresh_mem(c, "hrbsz");
	S->rblive = sx_fresh(c, "hrbl", 64);
	S->nrecs = sx_fresh(c, "hrbn", 64);
	S->dnull = sx_fresh(c, "hrbd", 32);
	S->refs = sx_fresh(c, "hrbr", 32);
}

/* The header state of an arbitrary header execution i+1 of an entry whose first is E: what
 * the loop never writes keeps E's value, claimed induction variables that are hypotheses are
 * their closed forms, everything else it may write is fresh; the hypotheses about the header
 * are assumed in the guard. */
static void header_state(struct prover *P, const struct cfg_loop *L, int32_t cl,
			 const struct mstate *E, const struct wset *w, sxt i, struct mstate *S)
{
	struct sx *c = P->c;
	sxt hyp[64];
	unsigned nh = 0;

	*S = *E;
	for (int r = 0; r < EBPF_NREGS - 1; r++)
		if (L->regs_written & (1u << r))
			S->r[r] = sx_fresh(c, "hr", 64);
	wset_apply(P, w, S);
	if (L->has_call)
		S->hpos = sx_fresh(c, "hpos", 64);
	if (loop_changes_rb(P, L))
		rb_fresh(P, S);
	if (loop_changes_iters(P, L))
		S->iters[S->depth] = sx_fresh(c, "hit", 64);
	for (uint32_t k = 0; k < P->naux; k++) {
		int32_t off = P->aux[k].off;
		sxt cur0;

		if (&P->g.loops[P->aux[k].loop] != L || !P->assume[P->nids + k])
			continue;
		cur0 = mach_loc_value(&P->m, E, iter_loc(off));
		mach_loc_write(&P->m, S, iter_loc(off),
			       sx_zext(c, 64, sx_add(c, sx_extract(c, 31, 0, cur0),
						     sx_extract(c, 31, 0, i))));
		mach_loc_write(&P->m, S, iter_loc(off + 4), mach_loc_value(&P->m, E, iter_loc(off + 4)));
	}
	if (L->has_may_goto)
		S->maygoto[S->depth] = sx_fresh(c, "hmg", 64);
	if (cl >= 0) {
		const struct claim_loop *cl_ = &P->cp->loops[cl];
		uint32_t t = trip_id(P, (uint32_t)cl);

		if (cl_->trip.kind != TRIP_UNKNOWN && P->assume[t])
			hyp[nh++] = sx_ult(c, i, bv64(P, cl_->trip.max));
		for (uint32_t k = 0; k < cl_->nivs; k++) {
			const struct claim_iv *iv = &cl_->ivs[k];
			sxt v;

			if (!P->assume[iv_id(P, (uint32_t)cl, k)])
				continue;
			v = iv_closed(P, iv_value(P, E, iv), i, iv);
			if (iv->loc < EBPF_NREGS && iv->loc != EBPF_REG_FP &&
			    (L->regs_written & (1u << iv->loc)) && S->r[iv->loc] != E->r[iv->loc] &&
			    nh < 60) {
				/* a fresh register takes the closed form directly */
				bool fresh = true;

				for (uint32_t j = 0; j < k; j++)
					fresh &= !(cl_->ivs[j].loc == iv->loc &&
						   P->assume[iv_id(P, (uint32_t)cl, j)]);
				if (fresh) {
					S->r[iv->loc] = v;
					continue;
				}
			}
			if (nh < 60)
				hyp[nh++] = sx_eq(c, iv_value(P, S, iv), v);
		}
	}
	/* the header's range claims that are hypotheses */
	for (uint32_t k = P->roff[L->header]; cl >= 0 && k < P->roff[L->header + 1]; k++) {
		uint32_t id = P->ridx[k];
		sxt x, h;

		if (!P->assume[id])
			continue;
		h = claim_holds(P, S, &P->cp->ranges[id], &x);
		if (x && nh < 63)
			hyp[nh++] = h;
	}
	hyp[nh++] = E->guard;
	S->guard = sx_landn(c, nh, hyp);
}

/* The step of the oracle's own hypotheses about loop K: from header state S around the body
 * to the merged back-edge state B. */
static void aux_step(struct prover *P, int32_t K, const struct mstate *S, const struct mstate *B)
{
	struct sx *c = P->c;

	for (uint32_t k = 0; k < P->naux; k++) {
		int32_t off = P->aux[k].off;
		sxt cur = mach_loc_value(&P->m, S, iter_loc(off));
		sxt next = sx_zext(c, 64, sx_add(c, sx_extract(c, 31, 0, cur), sx_bv(c, 1, 32)));

		if (P->aux[k].loop != K || !P->assume[P->nids + k])
			continue;
		add_ob(P, P->nids + k, OB_STEP, B->guard,
		       sx_lor(c, sx_ne(c, mach_loc_value(&P->m, B, iter_loc(off)), next),
			      sx_ne(c, mach_loc_value(&P->m, B, iter_loc(off + 4)),
				    mach_loc_value(&P->m, S, iter_loc(off + 4)))));
	}
}

/* Summarizes loop K entered with E: its claims' obligations, and its exits. */
static void induct_loop(struct prover *P, int32_t K, const struct mstate *E, struct routes *out)
{
	struct sx *c = P->c;
	const struct cfg_loop *L = &P->g.loops[K];
	int32_t cl = L->claim;
	struct wset *w = &P->w[K];
	struct mstate S;
	struct routes r = { 0 };
	sxt i = sx_fresh(c, "i", 64);
	size_t mark = sx_mark(c);
	uint32_t obmark = P->nob, evmark = P->nev, vmark = P->nvisits;

	for (unsigned iter = 0;; iter++) {
		struct pendv init = { 0 };
		bool grew;

		header_state(P, L, cl, E, w, i, &S);
		push_pend(P, &init, L->header, &S);
		P->collectors++;
		run_region(P, K, L->func, &init, &r);
		P->collectors--;
		pendv_free(&init);
		if (P->aborted)
			break;
		grew = wset_grow(P, w, &S, evmark);
		if (!grew)
			break;
		if (iter + 1 >= MAX_W_ITER)	/* give up on precision: havoc what was touched */
			for (uint32_t k = 0; k < w->n; k++)
				w->v[k].whole = true;
		/* again with the larger write set: forget this run */
		routes_free(&r);
		P->nob = obmark;
		P->nev = evmark;
		P->nvisits = vmark;
		sx_release(c, mark);
	}
	if (cl >= 0 && !P->aborted) {
		const struct claim_loop *cl_ = &P->cp->loops[cl];
		uint32_t t = trip_id(P, (uint32_t)cl);
		struct mstate B;
		bool back = r.back.n > 0;

		/* base: the entry state is header execution 1 */
		for (uint32_t k = P->roff[L->header]; k < P->roff[L->header + 1]; k++) {
			uint32_t id = P->ridx[k];
			sxt x, h = claim_holds(P, E, &P->cp->ranges[id], &x);

			if (x)
				add_ob(P, id, OB_BASE, E->guard, sx_not(c, h));
		}
		for (uint32_t k = 0; k < cl_->nivs; k++) {
			const struct claim_iv *iv = &cl_->ivs[k];

			if (iv->has_start)
				add_ob(P, iv_id(P, (uint32_t)cl, k), OB_BASE, E->guard,
				       sx_ne(c, iv_value(P, E, iv), bv64(P, iv->start)));
		}
		if (cl_->trip.kind != TRIP_UNKNOWN && cl_->trip.max == 0)
			add_ob(P, t, OB_BASE, E->guard, sx_true(c));
		/* step: one trip around the body from execution i+1 arrives as execution i+2 */
		if (back) {
			B = r.back.v[0].st;
			for (uint32_t k = 1; k < r.back.n; k++)
				mstate_merge(c, &B, &r.back.v[k].st);
			for (uint32_t k = 0; k < cl_->nivs; k++) {
				const struct claim_iv *iv = &cl_->ivs[k];

				add_ob(P, iv_id(P, (uint32_t)cl, k), OB_STEP, B.guard,
				       sx_ne(c, iv_value(P, &B, iv), iv_next(P, iv_value(P, &S, iv), iv)));
			}
			for (uint32_t k = P->roff[L->header]; k < P->roff[L->header + 1]; k++) {
				uint32_t id = P->ridx[k];
				sxt x, h;

				if (!P->assume[id])
					continue;	/* checked as a visit of S instead */
				h = claim_holds(P, &B, &P->cp->ranges[id], &x);
				if (x)
					add_ob(P, id, OB_STEP, B.guard, sx_not(c, h));
			}
			if (cl_->trip.kind != TRIP_UNKNOWN)
				add_ob(P, t, OB_STEP, B.guard,
				       sx_ule(c, bv64(P, cl_->trip.max), sx_add(c, i, bv64(P, 1))));
		}
		/* exits: an exact count's minimum */
		if (cl_->trip.kind != TRIP_UNKNOWN && cl_->trip.min > 0)
			for (uint32_t k = 0; k < r.exits.n; k++)
				add_ob(P, t, OB_EXIT, r.exits.v[k].st.guard,
				       sx_ult(c, sx_add(c, i, bv64(P, 1)), bv64(P, cl_->trip.min)));
	}
	if (P->naux && !P->aborted && r.back.n) {
		struct mstate B = r.back.v[0].st;

		for (uint32_t k = 1; k < r.back.n; k++)
			mstate_merge(c, &B, &r.back.v[k].st);
		aux_step(P, K, &S, &B);
	}
	for (uint32_t k = 0; k < r.exits.n; k++)
		push_pend(P, &out->exits, r.exits.v[k].pc, &r.exits.v[k].st);
	for (uint32_t k = 0; k < r.rets.n; k++)
		push_pend(P, &out->rets, r.rets.v[k].pc, &r.rets.v[k].st);
	routes_free(&r);
}

/* Header execution j + 1 of an unrolled entry of claim loop cl (-1: none) in state C, prev the
 * one before: its trip and induction-variable obligations; false when the unrolling ends there
 * (no input reaches it, or the depth: the rest is cut). */
static bool bmc_copy(struct prover *P, int32_t cl, uint32_t j, const struct mstate *C,
		     const struct mstate *prev)
{
	struct sx *c = P->c;
	const struct claim_loop *L = cl >= 0 ? &P->cp->loops[cl] : NULL;
	char why[64];

	if (sx_is_false(c, C->guard))
		return false;
	/* a copy that no input reaches ends the unrolling (checked now and then) */
	if (j >= 8 && (j & (j - 1)) == 0 &&
	    sx_check(c, C->guard, P->o.timeout_ms, NULL, why, sizeof(why)) == SX_UNSAT)
		return false;
	if (L && L->trip.kind != TRIP_UNKNOWN && (uint64_t)j + 1 > L->trip.max)
		add_ob(P, trip_id(P, (uint32_t)cl), OB_VISIT, C->guard, sx_true(c));
	if (j == P->bmc_k) {
		P->incomplete = sx_lor(c, P->incomplete, C->guard);
		return false;
	}
	if (!L)
		return true;
	for (uint32_t k = 0; k < L->nivs; k++) {
		const struct claim_iv *iv = &L->ivs[k];
		sxt bad;

		if (j == 0)
			bad = iv->has_start ? sx_ne(c, iv_value(P, C, iv), bv64(P, iv->start))
					    : sx_false(c);
		else
			bad = sx_ne(c, iv_value(P, C, iv), iv_next(P, iv_value(P, prev, iv), iv));
		add_ob(P, iv_id(P, (uint32_t)cl, k), OB_VISIT, C->guard, bad);
	}
	if (P->collect && grow((void **)&P->copies, &P->capcopies, P->ncopies + 1,
			       sizeof(*P->copies)))
		P->copies[P->ncopies++] = (struct copyg){ (uint32_t)cl, j, C->guard };
	return true;
}

/* Unrolls loop K entered with E: header executions 1..bmc_k of the entry, the rest cut. */
static void bmc_loop(struct prover *P, int32_t K, const struct mstate *E, struct routes *out)
{
	struct sx *c = P->c;
	const struct cfg_loop *L = &P->g.loops[K];
	int32_t cl = L->claim;
	const struct claim_loop *cl_ = cl >= 0 ? &P->cp->loops[cl] : NULL;
	struct mstate C = *E, prev = *E;

	for (uint32_t j = 0; !P->aborted; j++) {
		struct pendv init = { 0 };
		struct routes r = { 0 };
		uint32_t t = cl_ ? trip_id(P, (uint32_t)cl) : 0;

		if (!bmc_copy(P, cl, j, &C, &prev))
			break;
		push_pend(P, &init, L->header, &C);
		run_region(P, K, L->func, &init, &r);
		pendv_free(&init);
		for (uint32_t k = 0; k < r.exits.n; k++) {
			if (cl_ && cl_->trip.kind != TRIP_UNKNOWN && (uint64_t)j + 1 < cl_->trip.min)
				add_ob(P, t, OB_EXIT, r.exits.v[k].st.guard, sx_true(c));
			push_pend(P, &out->exits, r.exits.v[k].pc, &r.exits.v[k].st);
		}
		for (uint32_t k = 0; k < r.rets.n; k++)
			push_pend(P, &out->rets, r.rets.v[k].pc, &r.rets.v[k].st);
		prev = C;
		if (!r.back.n) {
			routes_free(&r);
			break;
		}
		C = r.back.v[0].st;
		for (uint32_t k = 1; k < r.back.n; k++)
			mstate_merge(c, &C, &r.back.v[k].st);
		routes_free(&r);
	}
}

/* Everything that enters loop K (at its header or at side entries). */
static void exec_loop(struct prover *P, int32_t K, struct pendv *in, struct routes *out)
{
	const struct cfg_loop *L = &P->g.loops[K];
	struct pendv side = { 0 };
	struct mstate E;
	bool has = false;

	for (uint32_t k = 0; k < in->n; k++) {
		if (in->v[k].pc != L->header) {
			push_pend(P, &side, in->v[k].pc, &in->v[k].st);
		} else if (!has) {
			E = in->v[k].st;
			has = true;
		} else {
			mstate_merge(P->c, &E, &in->v[k].st);
		}
	}
	if (side.n) {
		/* entered from the side: runs to the header (there the entry begins) or out */
		struct routes r = { 0 };

		run_region(P, K, L->func, &side, &r);
		for (uint32_t k = 0; k < r.back.n; k++) {
			if (!has) {
				E = r.back.v[k].st;
				has = true;
			} else {
				mstate_merge(P->c, &E, &r.back.v[k].st);
			}
		}
		for (uint32_t k = 0; k < r.exits.n; k++)
			push_pend(P, &out->exits, r.exits.v[k].pc, &r.exits.v[k].st);
		for (uint32_t k = 0; k < r.rets.n; k++)
			push_pend(P, &out->rets, r.rets.v[k].pc, &r.rets.v[k].st);
		routes_free(&r);
	}
	pendv_free(&side);
	if (!has || P->aborted)
		return;
	if (P->mode == MODE_BMC)
		bmc_loop(P, K, &E, out);
	else
		induct_loop(P, K, &E, out);
}

/* ---- helper callbacks: the callback as a loop ----
 *
 * bpf_loop(nr, cb, ctx, flags), bpf_for_each_map_elem(map, cb, ctx, flags) on an array map,
 * bpf_find_vma(task, addr, cb, ctx, flags) and bpf_user_ringbuf_drain(map, cb, ctx, flags) whose
 * callback is a constant function address are each a loop whose header is the callback's entry
 * and whose iterations are its calls (claims.h): call i + 1 (i from 0) runs the callback in a
 * fresh frame one deeper with the arguments interp.c gives it (cb_args), and it comes only after
 * the first i calls returned 0 with i + 1 below the calls the helper makes at most (nr:
 * bpf_loop's nr, the map's max_entries, 1, the samples waiting).  Induction summarizes the calls
 * as induct_loop does a cycle — a call state for an arbitrary i below nr (and below the claimed
 * trip count when that is a hypothesis), with what the callback may write into the caller's
 * frames, the maps and the input fresh (a write set per call site, grown to a fixpoint), the
 * callback's own frame zero; base at the first call, step from a return of 0 with i + 1 < nr to
 * call i + 2, exits with r0 = i + 1 (find_vma: 0).  BMC unrolls the calls.  A for_each over a
 * hash map is encoded in induction only, as the kernel may walk it: its elements any number
 * from 1 to max_entries (or none: r0 = 0), each call's key any bytes and value any bytes (the
 * map's storage fresh as the walk starts), element i + 1 at slot i; BMC, whose models must be
 * runs of the interpreter, walks it as the interpreter does: empty, no call (a BMC path that
 * calls a map helper on a hash map ends there: smt_mach.c's hash_helper_on).  A hash of more elements than
 * the interpreter's slots (INTERP_HASH_CAP) is not encoded.  Each call of a user_ringbuf_drain
 * callback draws its sample (urb_draw), which the dynptr helpers read and write (smt_mach.c). */

enum cb_form { CB_LOOP, CB_EACH, CB_VMA, CB_URB };

/* One call of a callback helper. */
struct cbh {
	enum cb_form form;
	uint32_t site;		/* the helper call */
	uint32_t entry;		/* the callback's first instruction */
	sxt nr;			/* the calls it makes at most */
	sxt ctx;
	uint32_t map, shift;	/* EACH: the map and its values' interp_map_shift */
	uint32_t ks;		/* EACH over a hash map (induction only): its key size, else 0 */
	sxt task;		/* VMA: r1 */
};

/* The arguments of call i + 1 (interp.c: loop_start, each_element, vma_start, urb_start), in S,
 * whose running frame is the callback's. */
static void cb_args(struct prover *P, const struct cbh *cb, struct mstate *S, sxt i)
{
	struct sx *c = P->c;
	unsigned d = S->depth;

	S->r[2] = cb->ctx;
	S->r[3] = S->r[4] = S->r[5] = bv64(P, 0);
	switch (cb->form) {
	case CB_LOOP:
		S->r[1] = i;
		break;
	case CB_EACH: {
		/* cb(map, &key, &value, ctx, 0): an array's key is the index, a read-only copy; a
		 * hash's any key (cb_setup: the walk over a hash) */
		sxt key = sx_mem_const(c, 0);

		for (unsigned k = 0; k < 4 && !cb->ks; k++)
			key = sx_store(c, key, bv64(P, k), sx_extract(c, 8 * k + 7, 8 * k, i));
		S->keys[d] = cb->ks ? sx_fresh_mem(c, "hkey") : key;
		S->klen[d] = cb->ks ? cb->ks : 4;
		S->r[1] = bv64(P, INTERP_VA_MAPH + cb->map);
		S->r[2] = bv64(P, INTERP_VA_KEY + (uint64_t)d * EBPF_STACK_SIZE);
		S->r[3] = sx_add(c, bv64(P, INTERP_VA_MAP + ((uint64_t)cb->map << 32)),
				 sx_shl(c, i, bv64(P, cb->shift)));
		S->r[4] = cb->ctx;
		break;
	}
	case CB_VMA:	/* cb(task, vma, ctx, 0, 0), vma a kernel object */
		S->r[1] = cb->task;
		S->r[2] = bv64(P, INTERP_VA_BTF);
		S->r[3] = cb->ctx;
		break;
	case CB_URB:	/* cb(dynptr, ctx, 0, 0, 0) */
		S->r[1] = bv64(P, INTERP_VA_DYNPTR + d);
		break;
	}
}

/* The sample of a bpf_user_ringbuf_drain callback's call running in frame d, drawn at S's
 * stream position (interp.c: urb_sample): its size one byte mod INTERP_URB_MAX + 1, its bytes
 * the next ones (those past the size are never read). */
static void urb_draw(struct prover *P, struct mstate *S, unsigned d)
{
	struct sx *c = P->c;
	sxt size = sx_urem(c, sx_zext(c, 64, sx_select(c, P->m.helper, S->hpos)),
			   bv64(P, INTERP_URB_MAX + 1));
	sxt a = sx_mem_const(c, 0);

	for (unsigned b = 0; b < INTERP_URB_MAX; b++)
		a = sx_store(c, a, bv64(P, b),
			     sx_select(c, P->m.helper, sx_add(c, S->hpos, bv64(P, b + 1))));
	S->urb[d] = a;
	S->urbsz[d] = size;
	S->hpos = sx_add(c, S->hpos, sx_add(c, size, bv64(P, 1)));
}

/* Call i + 1 of the callback: from the caller's state at the helper call (or after the previous
 * call returned, the frame popped), a frame one deeper, zeroed, its may_goto budget new, the
 * call's arguments, r0 and r6-r9 poisoned; it returns after the helper call.  A sample of
 * user_ringbuf_drain is drawn as the call starts (interp.c: urb_sample): its size one byte mod
 * INTERP_URB_MAX + 1, its bytes the next ones. */
static void cb_call_state(struct prover *P, const struct cbh *cb, const struct mstate *caller,
			  sxt i, struct mstate *S)
{
	struct sx *c = P->c;
	unsigned d = caller->depth;

	*S = *caller;
	S->ret_pc[d] = cb->site + 1;
	for (int k = 0; k < 5; k++)
		S->saved[d][k] = caller->r[6 + k];
	S->depth = d + 1;
	S->stack[d + 1] = sx_mem_const(c, 0);
	S->maygoto[d + 1] = mach_may_goto_budget(&P->m);
	S->iters[d + 1] = bv64(P, 0);
	S->keys[d + 1] = NULL;
	S->r[0] = P->m.poison;
	for (int k = 6; k <= 9; k++)
		S->r[k] = P->m.poison;
	S->r[10] = bv64(P, INTERP_VA_STACK + (uint64_t)(d + 2) * EBPF_STACK_SIZE);
	S->urb[d + 1] = S->urbsz[d + 1] = NULL;
	cb_args(P, cb, S, i);
	if (cb->form == CB_URB)
		urb_draw(P, S, d + 1);
}

/* The claim loop of a helper callback entered at entry, -1. */
static int32_t cb_claim(struct prover *P, uint32_t entry)
{
	for (uint32_t l = 0; l < P->nl; l++)
		if (P->cb[l] && P->cp->loops[l].header == entry)
			return (int32_t)l;
	return -1;
}

/* The header claims of claim loop cl in the first call's state E: base obligations. */
static void cb_base(struct prover *P, int32_t cl, const struct mstate *E)
{
	struct sx *c = P->c;
	const struct claim_loop *L = &P->cp->loops[cl];

	for (uint32_t k = P->roff[L->header]; k < P->roff[L->header + 1]; k++) {
		uint32_t id = P->ridx[k];
		sxt x, h = claim_holds(P, E, &P->cp->ranges[id], &x);

		if (x)
			add_ob(P, id, OB_BASE, E->guard, sx_not(c, h));
	}
	for (uint32_t k = 0; k < L->nivs; k++)
		if (L->ivs[k].has_start)
			add_ob(P, iv_id(P, (uint32_t)cl, k), OB_BASE, E->guard,
			       sx_ne(c, iv_value(P, E, &L->ivs[k]), bv64(P, L->ivs[k].start)));
	if (L->trip.kind != TRIP_UNKNOWN && L->trip.max == 0)
		add_ob(P, trip_id(P, (uint32_t)cl), OB_BASE, E->guard, sx_true(c));
}

/* Call i + 1 in induction: E's state where the callback may not write, fresh where it may, the
 * call's arguments, the hypotheses of claim loop cl (-1: none) about the header assumed. */
static void cb_header(struct prover *P, int32_t cl, const struct cbh *cb, const struct mstate *E,
		      const struct wset *w, sxt i, struct mstate *S)
{
	struct sx *c = P->c;
	unsigned d = E->depth;
	sxt hyp[64];
	unsigned nh = 0;

	*S = *E;
	wset_apply(P, w, S);
	S->stack[d] = E->stack[d];	/* (each call's frame starts zeroed) */
	S->hpos = sx_fresh(c, "chpos", 64);
	rb_fresh(P, S);
	cb_args(P, cb, S, i);
	if (cb->form == CB_URB)
		urb_draw(P, S, d);	/* (each call's sample drawn anew) */
	hyp[nh++] = sx_ult(c, i, cb->nr);
	if (cl >= 0) {
		const struct claim_loop *L = &P->cp->loops[cl];

		if (L->trip.kind != TRIP_UNKNOWN && P->assume[trip_id(P, (uint32_t)cl)])
			hyp[nh++] = sx_ult(c, i, bv64(P, L->trip.max));
		for (uint32_t k = 0; k < L->nivs && nh < 60; k++)
			if (P->assume[iv_id(P, (uint32_t)cl, k)])
				hyp[nh++] = sx_eq(c, iv_value(P, S, &L->ivs[k]),
						  iv_closed(P, iv_value(P, E, &L->ivs[k]), i,
							    &L->ivs[k]));
		for (uint32_t k = P->roff[L->header]; k < P->roff[L->header + 1] && nh < 63; k++) {
			uint32_t id = P->ridx[k];
			sxt x, h;

			if (!P->assume[id])
				continue;
			h = claim_holds(P, S, &P->cp->ranges[id], &x);
			if (x)
				hyp[nh++] = h;
		}
	}
	hyp[nh++] = E->guard;
	S->guard = sx_landn(c, nh, hyp);
}

/* The callback's returns R (merged) after call i + 1: the helper returns (r0 = i + 1, the calls
 * made; find_vma's 0) when the callback returned non-zero or that was the last call; else call
 * i + 2 follows (*B). */
static void cb_after(struct prover *P, const struct cbh *cb, const struct mstate *R, sxt i,
		     struct mstate *X, struct mstate *B)
{
	struct sx *c = P->c;
	sxt i1 = sx_add(c, i, bv64(P, 1));
	sxt stop = cb->form == CB_VMA ? sx_true(c)
				      : sx_lor(c, sx_ne(c, R->r[0], bv64(P, 0)), sx_ule(c, cb->nr, i1));
	struct mstate on = *R;

	*X = *R;
	X->guard = sx_land(c, R->guard, stop);
	X->r[0] = cb->form == CB_VMA ? bv64(P, 0) : i1;
	on.guard = sx_land(c, R->guard, sx_not(c, stop));
	cb_call_state(P, cb, &on, i1, B);
}

static void induct_cb(struct prover *P, int32_t cl, const struct cbh *cb, const struct mstate *E,
		      struct pendv *exits)
{
	struct sx *c = P->c;
	struct wset *w = &P->cbw[cb->site];
	sxt i = sx_fresh(c, "ci", 64);
	size_t mark = sx_mark(c);
	uint32_t obmark = P->nob, evmark = P->nev, vmark = P->nvisits, rpc;
	struct mstate S, R, X, B;
	bool ret = false;

	for (unsigned iter = 0;; iter++) {
		cb_header(P, cl, cb, E, w, i, &S);
		P->collectors++;
		ret = run_function(P, cb->entry, &S, &R, &rpc);
		P->collectors--;
		if (P->aborted || !wset_grow(P, w, &S, evmark))
			break;
		if (iter + 1 >= MAX_W_ITER)
			for (uint32_t k = 0; k < w->n; k++)
				w->v[k].whole = true;
		P->nob = obmark;
		P->nev = evmark;
		P->nvisits = vmark;
		sx_release(c, mark);
	}
	if (P->aborted)
		return;
	if (cl >= 0)
		cb_base(P, cl, E);
	if (!ret)
		return;
	cb_after(P, cb, &R, i, &X, &B);
	push_pend(P, exits, cb->site + 1, &X);
	if (cl >= 0) {
		const struct claim_loop *L = &P->cp->loops[cl];
		uint32_t t = trip_id(P, (uint32_t)cl);

		for (uint32_t k = 0; k < L->nivs; k++)
			add_ob(P, iv_id(P, (uint32_t)cl, k), OB_STEP, B.guard,
			       sx_ne(c, iv_value(P, &B, &L->ivs[k]),
				     iv_next(P, iv_value(P, &S, &L->ivs[k]), &L->ivs[k])));
		for (uint32_t k = P->roff[L->header]; k < P->roff[L->header + 1]; k++) {
			uint32_t id = P->ridx[k];
			sxt x, h;

			if (!P->assume[id])
				continue;
			h = claim_holds(P, &B, &P->cp->ranges[id], &x);
			if (x)
				add_ob(P, id, OB_STEP, B.guard, sx_not(c, h));
		}
		if (L->trip.kind != TRIP_UNKNOWN) {
			add_ob(P, t, OB_STEP, B.guard,
			       sx_ule(c, bv64(P, L->trip.max), sx_add(c, i, bv64(P, 1))));
			if (L->trip.min > 0)
				add_ob(P, t, OB_EXIT, X.guard,
				       sx_ult(c, sx_add(c, i, bv64(P, 1)), bv64(P, L->trip.min)));
		}
	}
}

static void bmc_cb(struct prover *P, int32_t cl, const struct cbh *cb, const struct mstate *E,
		   struct pendv *exits)
{
	struct sx *c = P->c;
	const struct claim_loop *L = cl >= 0 ? &P->cp->loops[cl] : NULL;
	uint32_t t = L ? trip_id(P, (uint32_t)cl) : 0, rpc;
	struct mstate C = *E, prev = *E, R, X;

	for (uint32_t j = 0; !P->aborted; j++) {
		if (!bmc_copy(P, cl, j, &C, &prev))
			break;
		if (!run_function(P, cb->entry, &C, &R, &rpc))
			break;
		prev = C;
		cb_after(P, cb, &R, bv64(P, j), &X, &C);
		if (L && L->trip.kind != TRIP_UNKNOWN && (uint64_t)j + 1 < L->trip.min)
			add_ob(P, t, OB_EXIT, X.guard, sx_true(c));
		push_pend(P, exits, cb->site + 1, &X);
	}
}

/* Whether pc calls a helper that calls back (bpf_loop, for_each_map_elem, find_vma,
 * user_ringbuf_drain). */
static bool is_cb_helper(const struct bpf_insn *in)
{
	return ebpf_is_helper_call(in) &&
	       (in->imm == BPF_FUNC_loop || in->imm == BPF_FUNC_for_each_map_elem ||
		in->imm == BPF_FUNC_find_vma || in->imm == BPF_FUNC_user_ringbuf_drain);
}

/* The helper's arguments before any call (interp.c: loop_start, each_start, vma_start,
 * urb_start, in their order): the callback, the map, flags; *X gets the state of the runs that
 * return without a call (r0 the helper's result), *cb the calls, and the result is the
 * condition under which the first call starts (NULL: every run traps here or the helper is not
 * encoded, noted). */
static sxt cb_setup(struct prover *P, uint32_t pc, const struct mstate *st, struct cbh *cb,
		    struct mstate *X, struct mstate *F)
{
	struct sx *c = P->c;
	int32_t id = P->m.insns[pc].imm;
	const char *name = ebpf_helper_name(id);
	unsigned creg = id == BPF_FUNC_find_vma ? 3 : 2;
	sxt call, d, flags;
	uint64_t fa, slot, h = 0;
	int32_t f;
	char why[160];

	memset(cb, 0, sizeof(*cb));
	cb->site = pc;
	cb->form = id == BPF_FUNC_loop ? CB_LOOP : id == BPF_FUNC_for_each_map_elem ? CB_EACH
		 : id == BPF_FUNC_find_vma ? CB_VMA : CB_URB;
	*X = *F = *st;
	for (int k = 1; k <= 5; k++)
		X->r[k] = P->m.poison;
	if (cb->form == CB_EACH || cb->form == CB_URB) {
		/* r1, a map handle: a constant here (the runs with another value trap) */
		if (!sx_num(c, st->r[1], &h)) {
			snprintf(why, sizeof(why), "%s at %u: the map (r1) is not a constant", name,
				 pc);
			note_unsupported(P, pc, why);
			return NULL;
		}
		h -= INTERP_VA_MAPH;
		if (h >= P->m.nmaps ||
		    (cb->form == CB_URB && P->obj->maps[h].type != BPF_MAP_TYPE_USER_RINGBUF) ||
		    (cb->form == CB_EACH && h < MACH_MAX_MAPS &&
		     P->m.maps[h].kind == MACH_MAP_OTHER))
			return NULL;	/* not a map, or one of another type: it traps */
		if (cb->form == CB_EACH &&
		    (h >= MACH_MAX_MAPS || (P->m.maps[h].kind == MACH_MAP_HASH &&
					    (!P->m.maps[h].len ||
					     P->m.maps[h].def.max_entries > INTERP_HASH_CAP)))) {
			snprintf(why, sizeof(why), "%s at %u on map '%s': %s", name, pc,
				 P->obj->maps[h].name, h >= MACH_MAX_MAPS || !P->m.maps[h].len
				 ? "its storage is not modeled"
				 : "a hash map of more elements than the interpreter's slots is not "
				   "encoded");
			note_unsupported(P, pc, why);
			return NULL;
		}
		cb->map = (uint32_t)h;
	}
	if (!sx_num(c, st->r[creg], &fa) || (slot = fa - INTERP_VA_FUNC) >= P->g.nslots ||
	    (f = P->g.func_of[slot]) < 0 || P->g.funcs[f].entry != slot) {
		snprintf(why, sizeof(why), "%s at %u: the callback (r%u) is not a constant function "
			 "address", name, pc, creg);
		note_unsupported(P, pc, why);
		return NULL;
	}
	cb->entry = (uint32_t)slot;
	switch (cb->form) {
	case CB_LOOP: {
		/* flags (r4) other than 0: -EINVAL; nr (the low 32 bits of r1) above BPF_MAX_LOOPS:
		 * -E2BIG; nr = 0: 0 */
		sxt nr = sx_zext(c, 64, sx_extract(c, 31, 0, st->r[1]));

		flags = st->r[4];
		call = sx_land(c, sx_eq(c, flags, bv64(P, 0)),
			       sx_land(c, sx_ne(c, nr, bv64(P, 0)),
				       sx_ule(c, nr, bv64(P, INTERP_MAX_LOOPS))));
		X->r[0] = sx_ite(c, sx_ne(c, flags, bv64(P, 0)), bv64(P, ERR(EINVAL)),
				 sx_ite(c, sx_ne(c, nr, bv64(P, 0)), bv64(P, ERR(E2BIG)),
					bv64(P, 0)));
		cb->nr = nr;
		cb->ctx = st->r[3];
		break;
	}
	case CB_EACH: {
		/* flags (r4) other than 0: -EINVAL; then a key size other than 4, no value or no
		 * storage trap; max_entries calls at most (at least 1: storage) */
		const struct mach_map *mm = &P->m.maps[h];

		flags = st->r[4];
		call = sx_eq(c, flags, bv64(P, 0));
		X->r[0] = bv64(P, ERR(EINVAL));
		cb->shift = mm->shift;
		cb->ctx = st->r[3];
		/* (a per-CPU array's values: any in the induction, zero in BMC; mach.any_pcpu) */
		P->interp_only |= P->mode == MODE_BMC && mm->def.type == BPF_MAP_TYPE_PERCPU_ARRAY;
		if (mm->kind == MACH_MAP_HASH && mm->def.key_size <= EBPF_STACK_SIZE) {
			/* (BMC: the interpreter's hash, empty; induction: n elements, any n up to
			 * max_entries, every key and value any bytes) */
			sxt n = P->mode == MODE_BMC ? bv64(P, 0) : sx_fresh(c, "hn", 64);

			P->interp_only |= P->mode == MODE_BMC;

			X->r[0] = sx_ite(c, call, bv64(P, 0), X->r[0]);
			X->guard = sx_land(c, st->guard,
					   sx_lor(c, sx_not(c, call), sx_eq(c, n, bv64(P, 0))));
			call = sx_land(c, call, sx_land(c, sx_ne(c, n, bv64(P, 0)),
							 sx_ule(c, n, bv64(P, mm->def.max_entries))));
			cb->nr = n;
			cb->ks = mm->def.key_size;
			F->guard = sx_land(c, st->guard, call);
			F->maps[h] = sx_fresh_mem(c, "hval");
			return call;
		}
		if (mm->def.key_size != 4 || !mm->def.value_size || !mm->len)
			call = sx_false(c);	/* (those runs trap) */
		cb->nr = bv64(P, mm->def.max_entries);
		X->guard = sx_land(c, st->guard, sx_ne(c, flags, bv64(P, 0)));
		F->guard = sx_land(c, st->guard, call);
		return call;
	}
	case CB_VMA:
		/* flags (r5) other than 0: -EINVAL; else one byte drawn: bit 0 the call, else
		 * -EBUSY (bit 1) or -ENOENT */
		flags = st->r[5];
		d = sx_zext(c, 64, sx_select(c, P->m.helper, st->hpos));
		call = sx_land(c, sx_eq(c, flags, bv64(P, 0)),
			       sx_ne(c, sx_and(c, d, bv64(P, 1)), bv64(P, 0)));
		X->r[0] = sx_ite(c, sx_ne(c, flags, bv64(P, 0)), bv64(P, ERR(EINVAL)),
				 sx_ite(c, sx_ne(c, sx_and(c, d, bv64(P, 2)), bv64(P, 0)),
					bv64(P, ERR(EBUSY)), bv64(P, ERR(ENOENT))));
		X->hpos = sx_ite(c, sx_ne(c, flags, bv64(P, 0)), st->hpos,
				 sx_add(c, st->hpos, bv64(P, 1)));
		F->hpos = sx_add(c, st->hpos, bv64(P, 1));
		cb->nr = bv64(P, 1);
		cb->ctx = st->r[4];
		cb->task = st->r[1];
		break;
	case CB_URB: {
		/* flags (r4) other than the wakeup bits: -EINVAL; else the samples waiting, one
		 * byte mod 4: none gives 0 */
		sxt bad = sx_ne(c, sx_and(c, st->r[4], bv64(P, ~3ull)), bv64(P, 0));
		sxt n = sx_urem(c, sx_zext(c, 64, sx_select(c, P->m.helper, st->hpos)), bv64(P, 4));

		call = sx_land(c, sx_not(c, bad), sx_ne(c, n, bv64(P, 0)));
		X->r[0] = sx_ite(c, bad, bv64(P, ERR(EINVAL)), bv64(P, 0));
		X->hpos = sx_ite(c, bad, st->hpos, sx_add(c, st->hpos, bv64(P, 1)));
		F->hpos = sx_add(c, st->hpos, bv64(P, 1));
		cb->nr = n;
		cb->ctx = st->r[3];
		/* (a replay gives the stream's bytes for the samples too) */
		P->helper_calls += 3 * (INTERP_URB_MAX + 1) / 8 + 1;
		break;
	}
	}
	X->guard = sx_land(c, st->guard, sx_not(c, call));
	F->guard = sx_land(c, st->guard, call);
	return call;
}

/* A helper that calls back, at pc: the runs without a call continue after it, the calls are
 * summarized (induction) or unrolled (BMC). */
static void exec_cb_helper(struct prover *P, int32_t loop, uint32_t func, uint32_t pc,
			   const struct mstate *st, struct pendv *pending, struct routes *out)
{
	struct pendv exits = { 0 };
	struct mstate X, E, F;
	struct cbh cb;

	if (!cb_setup(P, pc, st, &cb, &X, &F))
		return;
	route(P, loop, func, pc + 1, &X, pending, out);
	if (st->depth + 1 >= MACH_NFRAMES)
		return;	/* the call would nest too deep: the run traps */
	if (sx_is_false(P->c, F.guard))
		return;
	cb_call_state(P, &cb, &F, bv64(P, 0), &E);
	if (P->mode == MODE_BMC)
		bmc_cb(P, cb_claim(P, cb.entry), &cb, &E, &exits);
	else
		induct_cb(P, cb_claim(P, cb.entry), &cb, &E, &exits);
	for (uint32_t k = 0; k < exits.n; k++)
		route(P, loop, func, exits.v[k].pc, &exits.v[k].st, pending, out);
	pendv_free(&exits);
}

/* One symbolic run of the whole program from its entry. */
static void run_program(struct prover *P)
{
	struct pendv init = { 0 };
	struct routes r = { 0 };
	struct mstate st;

	P->nob = 0;
	P->nev = 0;
	P->nvisits = 0;
	P->ncopies = 0;
	P->steps = 0;
	P->helper_calls = 0;
	P->aborted = false;
	P->abort_why[0] = 0;
	P->incomplete = sx_false(P->c);
	P->interp_only = false;
	P->m.any_may_goto = P->m.any_hash = P->m.any_pcpu = P->mode == MODE_INDUCT;
	memset(P->visited, 0, P->g.nslots);
	mach_entry_state(&P->m, &st);
	push_pend(P, &init, 0, &st);
	run_region(P, -1, 0, &init, &r);
	pendv_free(&init);
	routes_free(&r);
}

/* ---- replay ---- */

static void describe_claim(struct prover *P, uint32_t id, char *buf, size_t n)
{
	char loc[32];

	if (id < P->nr) {
		const struct claim_range *cr = &P->cp->ranges[id];

		loc_format(cr->loc, loc, sizeof(loc));
		snprintf(buf, n, "range claim pc %u %s: u[%" PRIu64 ", %" PRIu64 "] s[%" PRId64
			 ", %" PRId64 "]%s", cr->pc, loc, cr->r.umin, cr->r.umax, cr->r.smin,
			 cr->r.smax, cr->is_ptr ? " (pointer offset)" : "");
	} else if (id < P->nr + P->nl) {
		const struct claim_loop *cl = &P->cp->loops[id - P->nr];

		snprintf(buf, n, "loop %u: %s %" PRIu64 "..%" PRIu64 " header executions",
			 cl->header, cl->trip.kind == TRIP_EXACT ? "exactly" : "at most",
			 cl->trip.min, cl->trip.max);
	} else {
		uint32_t rest = id - P->nr - P->nl, l = 0;

		while (l + 1 < P->nl && P->iv_base[l + 1] <= rest)
			l++;
		loc_format(P->cp->loops[l].ivs[rest - P->iv_base[l]].loc, loc, sizeof(loc));
		snprintf(buf, n, "loop %u: induction variable %s step %" PRId64,
			 P->cp->loops[l].header, loc,
			 (int64_t)P->cp->loops[l].ivs[rest - P->iv_base[l]].step);
	}
}

static bool finding_matches(struct prover *P, uint32_t id, const struct check_finding *f)
{
	if (id < P->nr)
		return f->kind == FIND_RANGE && f->claim == id;
	if (id < P->nr + P->nl)
		return (f->kind == FIND_TRIP_MAX || f->kind == FIND_TRIP_MIN) &&
		       f->claim == id - P->nr;
	{
		uint32_t rest = id - P->nr - P->nl, l = 0;

		while (l + 1 < P->nl && P->iv_base[l + 1] <= rest)
			l++;
		return f->kind == FIND_IV && f->claim == l &&
		       f->loc == P->cp->loops[l].ivs[rest - P->iv_base[l]].loc;
	}
}

static int add_finding(struct prover *P, struct check_finding *f)
{
	struct smt_result *res = P->res;
	struct check_finding *nv = realloc(res->findings, (res->nfindings + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	res->findings = nv;
	nv[res->nfindings] = *f;
	return (int)res->nfindings++;
}

/* The input and helper stream of a model: replayed with oracle_check.  Returns 1 when the
 * interpreter confirmed the claim's violation (a finding recorded), 0 when not (an encoding
 * finding recorded if exact), -errno. */
static int replay(struct prover *P, uint32_t id, struct sx_model *model, bool exact,
		  uint8_t obkind)
{
	struct check_opts co = { .sz = sizeof(co) };
	struct check_result cr;
	uint8_t *input = NULL, *helper = NULL;
	size_t hlen = P->helper_calls * 8;
	int err, rc = 0;

	if (hlen < 64)
		hlen = 64;
	if (hlen > 65536)
		hlen = 65536;
	input = calloc(P->m.input_len ? P->m.input_len : 1, 1);
	helper = calloc(hlen, 1);
	if (!input || !helper) {
		free(input);
		free(helper);
		return -ENOMEM;
	}
	if (sx_model_bytes(P->c, model, P->m.input0, 0, P->m.input_len, input) ||
	    sx_model_bytes(P->c, model, P->m.helper, 0, hlen, helper)) {
		free(input);
		free(helper);
		return 0;
	}
	co.input = input;
	co.fixed_len = P->m.input_len;
	co.helper_data = helper;
	co.helper_len = hlen;
	co.ctx_kind = (int)P->m.ctx_kind + 1;
	co.step_budget = exact ? P->o.replay_steps : INDUCTION_REPLAY_STEPS;
	err = oracle_check(&cr, P->obj, P->prog, P->cp, &co);
	if (err) {
		free(input);
		free(helper);
		return err;
	}
	for (uint32_t k = 0; k < cr.nfindings; k++) {
		struct check_finding *f = &cr.findings[k];
		int idx;

		if (!finding_matches(P, id, f))
			continue;
		idx = add_finding(P, f);
		if (idx < 0) {
			rc = idx;
			break;
		}
		f->input = NULL;	/* moved */
		f->helper_data = NULL;
		P->finding[id] = idx;
		snprintf(P->why[id], sizeof(P->why[id]), "replayed: %.180s",
			 P->res->findings[idx].text);
		rc = 1;
		break;
	}
	if (rc == 0 && exact) {
		/* the model is a run of the program, yet the interpreter disagrees */
		struct check_finding f = { 0 };
		char desc[160];
		int idx;
		bool steps = cr.traps > 0;

		describe_claim(P, id, desc, sizeof(desc));
		if (steps) {
			/* did the replay stop on its step budget?  then it proves nothing */
			struct interp_code *code = NULL;
			struct interp_env env = { 0 };
			struct interp_result ir;
			struct diag d;
			uint8_t *in2 = malloc(P->m.input_len ? P->m.input_len : 1);

			diag_clear(&d);
			steps = false;
			if (in2 && !interp_prepare(&code, P->prog, &d)) {
				memcpy(in2, input, P->m.input_len);
				env.ctx_kind = P->m.ctx_kind;
				env.input = in2;
				env.input_len = P->m.input_len;
				env.helper_data = helper;
				env.helper_len = hlen;
				env.step_budget = co.step_budget;
				if (!interp_run(code, &env, &ir) && ir.trap == INTERP_TRAP_STEPS)
					steps = true;
			}
			free(in2);
			interp_code__free(code);
		}
		if (steps) {
			snprintf(P->why[id], sizeof(P->why[id]),
				 "a counterexample needs more than %" PRIu64 " steps to replay",
				 co.step_budget);
			rc = 2;
		} else {
			f.kind = FIND_ENCODING;
			f.claim = id < P->nr ? id : id < P->nr + P->nl ? id - P->nr : 0;
			f.pc = id < P->nr ? P->cp->ranges[id].pc : 0;
			if (id >= P->nr && id < P->nr + P->nl)
				f.pc = P->cp->loops[id - P->nr].header;
			snprintf(f.text, sizeof(f.text),
				 "Z3 encoding bug: a model violates %s (%s obligation) but the "
				 "interpreter does not confirm it on that input", desc,
				 obkind == OB_EXIT ? "exit" : obkind == OB_STEP ? "step" :
				 obkind == OB_BASE ? "base" : "visit");
			f.input = input;
			f.input_len = P->m.input_len;
			f.helper_data = helper;
			f.helper_len = hlen;
			input = helper = NULL;
			idx = add_finding(P, &f);
			if (idx < 0) {
				free(f.input);
				free(f.helper_data);
				rc = idx;
			} else {
				P->res->encoding_bugs++;
				snprintf(P->why[id], sizeof(P->why[id]),
					 "a Z3 model the interpreter does not confirm (encoding "
					 "finding %d)", idx);
			}
		}
	}
	check_result__free(&cr);
	free(input);
	free(helper);
	return rc;
}

/* ---- deciding obligations ---- */

static uint8_t *cut_reach(struct prover *P);
static bool reached(const struct prover *P, const uint8_t *reach, uint32_t id);
static bool in_main(const struct prover *P, uint32_t id);

/* Whether a hypothesis of this induction round failed (or is unknown): the round is redone
 * without it, and nothing else it decided counts. */
static bool hypothesis_dropped(const struct prover *P, const uint8_t *round)
{
	for (uint32_t id = 0; id < P->nall; id++)
		if (P->assume[id] && round[id] != CS_PROVED && round[id] != CS_CUT)
			return true;
	return false;
}

/* Checks this run's obligations.  Claims with one satisfiable obligation fail (their models are
 * replayed: confirmed ones are refuted for good), unknown answers make them unknown.  Induction
 * decides the hypotheses' obligations first (pass 0), and the others (pass 1) only when every
 * hypothesis held: a round that drops one is redone, and what its other queries proved would
 * not count (a deep nest's first round spent the program's budget on those and ended with
 * nothing: gen --seed 1803 --knob p_dynptr=100, 0 of 964 proved).  BMC: one pass of all. */
static int decide(struct prover *P, uint8_t *round)
{
	struct sx_solver *sv = NULL;
	sxt sv_guard = NULL;
	char why[96];
	int err = 0;
	/* Induction cannot prove what an unsupported instruction reaches (taint makes it
	 * unknown), nor refute it (its models are not runs): no query is spent on such a claim of
	 * main's.  Its hypothesis is kept unchecked: a hypothesis at a pc of main is used only
	 * where the states leaving that pc flow, which the cut reaches too.  Not so in other
	 * functions (a callee's or callback's hypotheses are used at every call, some before
	 * the cut): those are decided.  BMC may still refute what is skipped here. */
	bool cuts = P->mode == MODE_INDUCT && P->nunsup;
	uint8_t *reach = cuts ? cut_reach(P) : NULL;

	bool induct = P->mode == MODE_INDUCT;

	for (uint32_t kk = 0; kk < (induct ? 2 : 1) * P->nob && !err; kk++) {
		uint32_t k = kk % P->nob;
		bool pass0 = induct && kk < P->nob;
		const struct oblig *ob = &P->ob[k];
		struct sx_model *model = NULL;
		double t0 = wall_s();
		enum sx_res r;

		if (induct && kk == P->nob && hypothesis_dropped(P, round))
			break;
		if (round[ob->claim] != CS_PROVED || P->stat[ob->claim] != CS_OPEN ||
		    (induct && pass0 != (P->assume[ob->claim] != 0)))
			continue;
		if (cuts && reached(P, reach, ob->claim) && in_main(P, ob->claim)) {
			round[ob->claim] = CS_CUT;
			continue;
		}
		if (budget_spent(P, true, P->why[ob->claim], sizeof(P->why[0]))) {
			round[ob->claim] = CS_UNKNOWN;
			continue;
		}
		/* obligations of one visit share its guard: one solver holds it for all (in
		 * one pass) */
		if (ob->g != sv_guard || (induct && kk == P->nob)) {
			bool shared = k + 1 < P->nob && P->ob[k + 1].g == ob->g;

			sx_solver_free(P->c, sv);
			sv = shared ? sx_solver_new(P->c, ob->g, P->o.timeout_ms) : NULL;
			sv_guard = sv ? ob->g : NULL;
		}
		if (sv)
			r = sx_solver_check(P->c, sv, ob->v, &model, why, sizeof(why));
		else
			r = sx_check(P->c, sx_land(P->c, ob->g, ob->v), P->o.timeout_ms, &model, why,
				     sizeof(why));
		P->ms[ob->claim] += (wall_s() - t0) * 1e3;
		if (r == SX_UNKNOWN) {
			round[ob->claim] = CS_UNKNOWN;
			if (P->o.rlimit)
				snprintf(P->why[ob->claim], sizeof(P->why[0]),
					 "solver: %s (rlimit %u, %u ms limit)", why, P->o.rlimit,
					 P->o.timeout_ms);
			else
				snprintf(P->why[ob->claim], sizeof(P->why[0]),
					 "solver: %s (%u ms limit)", why, P->o.timeout_ms);
		} else if (r == SX_SAT && ob->claim >= P->nids) {
			round[ob->claim] = CS_FAILED;	/* the oracle's own: nothing to replay */
		} else if (r == SX_SAT) {
			int rc = model ? replay(P, ob->claim, model, ob->exact, ob->kind) : 0;

			if (rc < 0) {
				err = rc;
			} else if (rc == 1) {
				P->stat[ob->claim] = CS_REFUTED;
				P->method[ob->claim] = SMT_BY_COUNTEREXAMPLE;
				round[ob->claim] = CS_REFUTED;
			} else {
				round[ob->claim] = rc == 2 || ob->exact ? CS_UNKNOWN : CS_FAILED;
				if (!ob->exact)
					snprintf(P->why[ob->claim], sizeof(P->why[0]),
						 "not inductive (%s obligation)",
						 ob->kind == OB_EXIT ? "exit" : ob->kind == OB_STEP ?
						 "step" : ob->kind == OB_BASE ? "base" : "visit");
			}
		}
		sx_model_free(P->c, model);
	}
	sx_solver_free(P->c, sv);
	free(reach);
	return err;
}

/* Header claims of matched loops: the hypotheses induction starts from. */
static bool is_header_claim(struct prover *P, uint32_t id)
{
	if (id >= P->nids)
		return true;	/* the oracle's own */
	if (id < P->nr) {
		uint32_t pc = P->cp->ranges[id].pc;

		for (uint32_t l = 0; l < P->nl; l++)
			if ((P->cfg_loop[l] >= 0 || P->cb[l]) && P->cp->loops[l].header == pc)
				return true;
		return false;
	}
	if (id < P->nr + P->nl)
		return (P->cfg_loop[id - P->nr] >= 0 || P->cb[id - P->nr]) &&
		       P->cp->loops[id - P->nr].trip.kind != TRIP_UNKNOWN;
	{
		uint32_t rest = id - P->nr - P->nl, l = 0;

		while (l + 1 < P->nl && P->iv_base[l + 1] <= rest)
			l++;
		return P->cfg_loop[l] >= 0 || P->cb[l];
	}
}

static bool claim_exists(struct prover *P, uint32_t id)
{
	return id < P->nr || id >= P->nr + P->nl ||
	       P->cp->loops[id - P->nr].trip.kind != TRIP_UNKNOWN;
}

/* Houdini: assume every header claim, drop those that fail, until what is left is inductive. */
static int induction(struct prover *P)
{
	uint8_t *round = malloc(P->nall ? P->nall : 1);
	size_t mark = sx_mark(P->c);
	int err = 0;

	if (!round)
		return -ENOMEM;
	/* (a claim proved already, by the first pass or as never executed, holds in every run:
	 * a hypothesis with nothing left to establish) */
	for (uint32_t id = 0; id < P->nall; id++)
		P->assume[id] = is_header_claim(P, id) &&
				(P->stat[id] == CS_OPEN || P->stat[id] == CS_PROVED);
	for (unsigned rnd = 0; rnd < MAX_ROUNDS; rnd++) {
		bool dropped = false;

		P->res->rounds = rnd + 1;
		for (uint32_t id = 0; id < P->nall; id++)
			round[id] = P->stat[id] == CS_OPEN ? CS_PROVED : P->stat[id];
		P->mode = MODE_INDUCT;
		run_program(P);
		if (P->err) {
			err = P->err;
			break;
		}
		if (P->aborted) {
			for (uint32_t id = 0; id < P->nall; id++)
				if (P->stat[id] == CS_OPEN)
					snprintf(P->why[id], sizeof(P->why[0]), "%s", P->abort_why);
			break;
		}
		if ((err = decide(P, round)))
			break;
		dropped = hypothesis_dropped(P, round);
		for (uint32_t id = 0; id < P->nall; id++)
			if (P->assume[id] && round[id] != CS_PROVED && round[id] != CS_CUT)
				P->assume[id] = 0;
		if (!dropped) {
			for (uint32_t id = 0; id < P->nall; id++)
				if (P->stat[id] == CS_OPEN && round[id] == CS_PROVED) {
					P->stat[id] = CS_PROVED;
					P->method[id] = SMT_BY_INDUCTION;
				}
			break;
		}
		sx_release(P->c, mark);
	}
	free(round);
	return err;
}

/* Bounded model checking at increasing depths for the claims still open. */
static int bmc(struct prover *P, bool decide_claims, bool collect, bool *complete_out)
{
	uint8_t *round = malloc(P->nall ? P->nall : 1);
	unsigned k = 4;
	int err = 0;
	char why[96];

	*complete_out = false;
	if (!round)
		return -ENOMEM;
	for (;;) {
		bool open = false, complete = false;
		size_t mark = sx_mark(P->c);

		if (k > P->o.bmc_depth)
			k = P->o.bmc_depth;
		P->bmc_k = k;
		P->res->bmc_depth = k;
		P->mode = MODE_BMC;
		P->collect = collect;
		for (uint32_t id = 0; id < P->nids; id++)
			round[id] = P->stat[id] == CS_OPEN ? CS_PROVED : P->stat[id];
		run_program(P);
		if (P->err) {
			err = P->err;
			break;
		}
		if (!P->aborted) {
			/* does the unrolling cover every path? */
			enum sx_res r = P->interp_only ? SX_UNKNOWN :
					sx_check(P->c, P->incomplete, P->o.timeout_ms, NULL, why,
						 sizeof(why));

			complete = r == SX_UNSAT;
			if (decide_claims && (err = decide(P, round)))
				break;
			for (uint32_t id = 0; id < P->nids; id++) {
				if (P->stat[id] != CS_OPEN)
					continue;
				if (complete && round[id] == CS_PROVED && P->nunsup == 0) {
					P->stat[id] = CS_PROVED;
					P->method[id] = SMT_BY_BMC;
				} else {
					open = true;
				}
			}
		}
		if (complete && !P->aborted) {
			*complete_out = true;
			P->res->bmc_complete = true;
			break;	/* keep this run's terms: precision reads them */
		}
		if (P->aborted || k >= P->o.bmc_depth || (!open && !collect)) {
			for (uint32_t id = 0; decide_claims && id < P->nids; id++) {
				if (P->stat[id] != CS_OPEN || (!P->aborted && round[id] != CS_PROVED))
					continue;	/* decide() said why */
				if (P->aborted)
					snprintf(P->why[id], sizeof(P->why[0]), "BMC: %s",
						 P->abort_why);
				else
					snprintf(P->why[id], sizeof(P->why[0]),
						 "%s; no counterexample within %u header executions "
						 "per loop entry",
						 P->o.no_induction ? "not proved" : "not inductive", k);
			}
			break;
		}
		sx_release(P->c, mark);
		k *= 4;
	}
	free(round);
	return err;
}

/* ---- precision ---- */

static void precision(struct prover *P)
{
	struct sx *c = P->c;

	for (uint32_t id = 0; id < P->nr; id++) {
		const struct claim_range *cr = &P->cp->ranges[id];
		sxt x = sx_fresh(c, "tight", 64), *alts;
		uint32_t n = 0;
		uint64_t umax, numin, smax, nsmin;
		struct smt_claim_result *cres = NULL;

		for (uint32_t k = 0; k < P->res->nclaims; k++)
			if (P->res->claims[k].kind == SMT_CLAIM_RANGE && P->res->claims[k].index == id)
				cres = &P->res->claims[k];
		if (!cres || cres->verdict == SMT_REFUTED)
			continue;
		alts = malloc((P->nvisits + 1) * sizeof(*alts));
		if (!alts)
			return;
		for (uint32_t k = 0; k < P->nvisits; k++)
			if (P->visits[k].claim == id)
				alts[n++] = sx_land(c, P->visits[k].g, sx_eq(c, x, P->visits[k].x));
		if (n) {
			sxt f = sx_lorn(c, n, alts);

			if (sx_maximize(c, f, x, false, P->o.timeout_ms * 4, &umax) == SX_SAT &&
			    sx_maximize(c, f, sx_bvnot(c, x), false, P->o.timeout_ms * 4, &numin) ==
				    SX_SAT &&
			    sx_maximize(c, f, x, true, P->o.timeout_ms * 4, &smax) == SX_SAT &&
			    sx_maximize(c, f, sx_neg(c, x), true, P->o.timeout_ms * 4, &nsmin) ==
				    SX_SAT) {
				cres->has_tight = true;
				cres->tight_umax = umax;
				cres->tight_umin = ~numin;
				cres->tight_smax = (int64_t)smax;
				/* -x's signed maximum is -(smin) unless smin = INT64_MIN */
				cres->tight_smin = nsmin == (1ull << 63) ? INT64_MIN : -(int64_t)nsmin;
				cres->slack = (cr->r.umax - cr->r.umin) - (umax - ~numin);
			}
		} else {
			cres->has_tight = true;	/* never reached: the empty set */
			cres->tight_umin = 1;
			cres->tight_umax = 0;
			cres->slack = cr->r.umax - cr->r.umin;
		}
		free(alts);
	}
	for (uint32_t l = 0; l < P->nl; l++) {
		const struct claim_loop *cl = &P->cp->loops[l];
		struct smt_claim_result *cres = NULL;
		uint32_t maxj = 0, lo = 0, hi;
		bool any = false;

		for (uint32_t k = 0; k < P->res->nclaims; k++)
			if (P->res->claims[k].kind == SMT_CLAIM_TRIP && P->res->claims[k].index == l)
				cres = &P->res->claims[k];
		if (!cres || cres->verdict == SMT_REFUTED)
			continue;
		for (uint32_t k = 0; k < P->ncopies; k++)
			if (P->copies[k].loop == l && P->copies[k].j > maxj)
				maxj = P->copies[k].j;
		/* the largest j whose copy some input reaches: copies are reached in order */
		hi = maxj + 1;	/* candidates 0..maxj; answer lo = count of reachable copies */
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2, n = 0;
			sxt *alts = malloc((P->ncopies + 1) * sizeof(*alts));
			char why[64];
			enum sx_res r;

			if (!alts)
				return;
			for (uint32_t k = 0; k < P->ncopies; k++)
				if (P->copies[k].loop == l && P->copies[k].j == mid)
					alts[n++] = P->copies[k].g;
			r = sx_check(c, sx_lorn(c, n, alts), P->o.timeout_ms, NULL, why, sizeof(why));
			free(alts);
			if (r == SX_UNKNOWN) {
				any = false;
				lo = hi = UINT32_MAX;
				break;
			}
			any = true;
			if (r == SX_SAT)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == UINT32_MAX)
			continue;
		(void)any;
		cres->has_tight = true;
		cres->tight_trip = lo;	/* reachable copies j = 0..lo-1: lo header executions */
		cres->slack = cl->trip.max >= lo ? cl->trip.max - lo : 0;
	}
}

/* ---- taint: claims a path cut by an unsupported instruction could reach ---- */

/* The pc a claim (or one of the oracle's own hypotheses) is about. */
static uint32_t claim_pc(const struct prover *P, uint32_t id)
{
	uint32_t rest, l = 0;

	if (id < P->nr)
		return P->cp->ranges[id].pc;
	if (id < P->nr + P->nl)
		return P->cp->loops[id - P->nr].header;
	if (id >= P->nids)
		return P->g.loops[P->aux[id - P->nids].loop].header;
	rest = id - P->nr - P->nl;
	while (l + 1 < P->nl && P->iv_base[l + 1] <= rest)
		l++;
	return P->cp->loops[l].header;
}

/* Per slot (and one past the last, for pcs out of range): what the unsupported instructions met
 * so far can reach, calls included (a bpf-to-bpf call or callx, or a helper that calls back, a
 * timer's callback later; not a kfunc: every function's claims but main's, unless something
 * calls main).  Every slot when a cut is outside main; NULL when out of memory. */
static uint8_t *cut_reach(struct prover *P)
{
	uint8_t *reach = calloc(P->g.nslots + 1, 1);
	uint32_t *work = malloc((P->g.nslots + 1) * sizeof(*work)), nw = 0;
	bool all = false;

	if (!reach || !work) {
		free(reach);
		free(work);
		return NULL;
	}
	for (uint32_t k = 0; k < P->nunsup && !all; k++) {
		uint32_t pc = P->unsup_pc[k];

		if (pc >= P->g.nslots || P->g.func_of[pc] != 0)
			all = true;
		else if (!reach[pc]) {
			reach[pc] = 1;
			work[nw++] = pc;
		}
	}
	while (nw && !all) {
		uint32_t pc = work[--nw], s[2];
		unsigned ns = ebpf_succs(P->prog->insns, P->prog->len, pc, s);
		const struct bpf_insn *in = &P->prog->insns[pc];

		if (ebpf_is_call(in) && in->src_reg != BPF_PSEUDO_KFUNC_CALL &&
		    (!ebpf_is_helper_call(in) || in->imm == BPF_FUNC_loop ||
		     in->imm == BPF_FUNC_for_each_map_elem || in->imm == BPF_FUNC_find_vma ||
		     in->imm == BPF_FUNC_user_ringbuf_drain ||
		     in->imm == BPF_FUNC_timer_set_callback)) {
			for (uint32_t q = 0; q < P->g.nslots; q++) {
				const struct bpf_insn *f = &P->prog->insns[q];

				all |= (ebpf_is_pseudo_call(f) || (ebpf_is_ldimm64(f) &&
								f->src_reg == BPF_PSEUDO_FUNC)) &&
				       (int64_t)q + 1 + f->imm == 0;
				reach[q] |= P->g.func_of[q] > 0;
			}
		}
		for (unsigned k = 0; k < ns; k++)
			if (!reach[s[k]]) {
				reach[s[k]] = 1;
				work[nw++] = s[k];
			}
	}
	if (all)
		memset(reach, 1, P->g.nslots + 1);
	free(work);
	return reach;
}

/* Whether claim id is about a pc of main. */
static bool in_main(const struct prover *P, uint32_t id)
{
	uint32_t pc = claim_pc(P, id);

	return pc < P->g.nslots && P->g.func_of[pc] == 0;
}

/* Whether claim id is at a pc reach marks (pcs out of range only when every slot is). */
static bool reached(const struct prover *P, const uint8_t *reach, uint32_t id)
{
	uint32_t pc = claim_pc(P, id);

	return !reach || reach[pc < P->g.nslots ? pc : P->g.nslots];	/* [nslots]: every slot */
}

static void taint(struct prover *P, bool reopen)
{
	uint8_t *reach;

	if (!P->nunsup)
		return;
	reach = cut_reach(P);
	for (uint32_t id = 0; id < P->nids; id++) {
		if (!reached(P, reach, id))
			continue;
		if (P->stat[id] == CS_OPEN && !reopen) {
			/* open to the end: undecided because of the cut, whatever BMC found */
			snprintf(P->why[id], sizeof(P->why[0]), "unsupported at pc %u: %s",
				 P->unsup_pc[0], P->unsup_why[0]);
			continue;
		}
		if (P->stat[id] != CS_PROVED)
			continue;
		if (reopen) {
			P->stat[id] = CS_OPEN;
			P->method[id] = SMT_BY_NONE;
			P->why[id][0] = 0;
		} else {
			P->stat[id] = CS_UNKNOWN;
			snprintf(P->why[id], sizeof(P->why[0]), "unsupported at pc %u: %s",
				 P->unsup_pc[0], P->unsup_why[0]);
		}
	}
	free(reach);
}

/* ---- the entry point ---- */

enum smt_unknown_why smt_unknown_why(const struct ebpf_prog *prog,
				     const struct smt_claim_result *r)
{
	const struct bpf_insn *in;
	const struct ebpf_helper_proto *p;
	struct ebpf_kfunc_iter it;
	bool sock = false;

	if (r->verdict != SMT_UNKNOWN)
		return SMT_WHY_NONE;
	if (r->cut_pc >= prog->len)
		return r->cut_pc == UINT32_MAX ? SMT_WHY_OPEN : SMT_WHY_INSN;
	in = &prog->insns[r->cut_pc];
	if (ebpf_is_call(in) && in->src_reg == BPF_PSEUDO_KFUNC_CALL)
		return ebpf_kfunc_iter(ebpf_prog_kfunc_name(prog, r->cut_pc), &it) &&
		       it.family != EBPF_ITER_NUM ? SMT_WHY_ITER : SMT_WHY_KFUNC;
	if (!ebpf_is_helper_call(in))
		return SMT_WHY_INSN;
	p = ebpf_helper_proto(in->imm);
	for (int k = 0; p && k < 5; k++)
		sock |= p->args[k] == HARG_SOCK_COMMON || p->args[k] == HARG_BTF_SOCK_COMMON;
	return sock || (p && (p->ret == HRET_SOCKET_OR_NULL || p->ret == HRET_TCP_SOCK_OR_NULL ||
			      p->ret == HRET_SOCK_COMMON_OR_NULL))
	       ? SMT_WHY_SOCKET : SMT_WHY_HELPER;
}

const char *smt_unknown_why_name(enum smt_unknown_why w)
{
	static const char *const names[SMT_WHY_NR] = {
		[SMT_WHY_NONE] = "-", [SMT_WHY_SOCKET] = "socket", [SMT_WHY_ITER] = "iterator",
		[SMT_WHY_KFUNC] = "kfunc", [SMT_WHY_HELPER] = "helper",
		[SMT_WHY_INSN] = "instruction", [SMT_WHY_OPEN] = "open",
	};

	return w < SMT_WHY_NR ? names[w] : "?";
}

const char *smt_verdict_name(enum smt_verdict v)
{
	return v == SMT_PROVED ? "proved" : v == SMT_REFUTED ? "refuted" : "unknown";
}

const char *smt_method_name(enum smt_method m)
{
	switch (m) {
	case SMT_BY_INDUCTION: return "induction";
	case SMT_BY_BMC: return "exhaustive unrolling";
	case SMT_BY_COUNTEREXAMPLE: return "counterexample";
	default: return "-";
	}
}

void smt_result__free(struct smt_result *res)
{
	if (!res)
		return;
	for (uint32_t k = 0; k < res->nfindings; k++) {
		free(res->findings[k].input);
		free(res->findings[k].helper_data);
	}
	free(res->findings);
	free(res->claims);
	memset(res, 0, sizeof(*res));
}

static void prover_free(struct prover *P)
{
	free(P->iv_base);
	free(P->roff);
	free(P->ridx);
	free(P->cfg_loop);
	free(P->assume);
	free(P->stat);
	free(P->method);
	free(P->ms);
	free(P->why);
	free(P->finding);
	free(P->ob);
	free(P->ev);
	free(P->visited);
	for (uint32_t k = 0; P->w && k < P->g.nloops; k++)
		wset_free(&P->w[k]);
	free(P->w);
	for (uint32_t k = 0; P->cbw && k < P->g.nslots; k++)
		wset_free(&P->cbw[k]);
	free(P->cbw);
	free(P->cb);
	free(P->aux);
	free(P->unsup_pc);
	free(P->unsup_why);
	free(P->visits);
	free(P->copies);
	cfg_free(&P->g);
	sx_free(P->c);
}

static int setup(struct prover *P)
{
	const struct claim_prog *cp = P->cp;
	uint32_t n = (uint32_t)P->prog->len;
	enum interp_ctx_kind kind;
	int err;

	P->nr = cp->nranges;
	P->nl = cp->nloops;
	P->iv_base = calloc(P->nl + 1, sizeof(*P->iv_base));
	P->cfg_loop = malloc((P->nl + 1) * sizeof(*P->cfg_loop));
	if (!P->iv_base || !P->cfg_loop)
		return -ENOMEM;
	for (uint32_t l = 0; l < P->nl; l++) {
		P->iv_base[l] = P->niv;
		P->niv += cp->loops[l].nivs;
	}
	P->nids = P->nr + P->nl + P->niv;
	if ((err = sx_new(&P->c)))
		return err;
	sx_set_rlimit(P->c, P->o.rlimit, P->o.program_rlimit);
	if ((err = cfg_build(&P->g, P->prog, cp)))
		return err;
	P->m.insns = P->prog->insns;	/* (find_aux reads them before mach_init) */
	if ((err = find_aux(P)))
		return err;
	P->nall = P->nids + P->naux;
	P->assume = calloc(P->nall + 1, 1);
	P->stat = calloc(P->nall + 1, 1);
	P->method = calloc(P->nall + 1, 1);
	P->ms = calloc(P->nall + 1, sizeof(*P->ms));
	P->why = calloc(P->nall + 1, sizeof(*P->why));
	P->finding = malloc((P->nall + 1) * sizeof(*P->finding));
	P->roff = calloc(n + 2, sizeof(*P->roff));
	P->ridx = malloc((P->nr + 1) * sizeof(*P->ridx));
	P->visited = calloc(n + 1, 1);
	if (!P->assume || !P->stat || !P->method || !P->ms || !P->why || !P->finding || !P->roff ||
	    !P->ridx || !P->visited)
		return -ENOMEM;
	for (uint32_t id = 0; id < P->nall; id++)
		P->finding[id] = -1;
	/* range claims by pc (claims beyond the program are never visited: vacuous) */
	for (uint32_t k = 0; k < P->nr; k++)
		if (cp->ranges[k].pc < n)
			P->roff[cp->ranges[k].pc + 1]++;
	for (uint32_t pc = 0; pc <= n; pc++)
		P->roff[pc + 1] += P->roff[pc];
	{
		uint32_t *fill = calloc(n + 1, sizeof(*fill));

		if (!fill)
			return -ENOMEM;
		for (uint32_t k = 0; k < P->nr; k++) {
			uint32_t pc = cp->ranges[k].pc;

			if (pc < n)
				P->ridx[P->roff[pc] + fill[pc]++] = k;
		}
		free(fill);
	}
	P->w = calloc(P->g.nloops + 1, sizeof(*P->w));
	P->cbw = calloc(P->g.nslots + 1, sizeof(*P->cbw));
	P->cb = calloc(P->nl + 1, 1);
	if (!P->w || !P->cbw || !P->cb)
		return -ENOMEM;
	for (uint32_t l = 0; l < P->nl; l++) {
		uint32_t h = cp->loops[l].header;

		P->cfg_loop[l] = -1;
		for (uint32_t k = 0; k < P->g.nloops; k++)
			if (P->g.loops[k].claim == (int32_t)l)
				P->cfg_loop[l] = (int32_t)k;
		/* a helper's callback: summarized at its calls (exec_cb_helper) */
		P->cb[l] = P->cfg_loop[l] < 0 && claim_loop_kind_callback(cp->loops[l].kind) &&
			   h < P->g.nslots && P->g.func_of[h] >= 0 &&
			   P->g.funcs[P->g.func_of[h]].entry == h;
	}
	kind = P->o.ctx_kind ? (enum interp_ctx_kind)(P->o.ctx_kind - 1)
			     : check_ctx_kind(P->prog->prog_type);
	return mach_init(&P->m, P->c, P->prog, P->obj, kind, P->o.input_len);
}

/* Whether the program calls a helper that calls back or an iterator kfunc (a first pass cuts
 * them). */
static bool has_cut(struct prover *P)
{
	for (uint32_t pc = 0; pc < P->prog->len; pc += ebpf_insn_slots(&P->prog->insns[pc])) {
		const struct bpf_insn *in = &P->prog->insns[pc];

		if (is_cb_helper(in) || is_iter_kfunc(P, pc, "new") || is_iter_kfunc(P, pc, "next") ||
		    is_iter_kfunc(P, pc, "destroy"))
			return true;
	}
	return false;
}

/* The claims of loops that do not match a cycle of the oracle's forest cannot be related to
 * iterations: unknown, unless the header is never executed (then they hold vacuously). */
static void unmatched_loops(struct prover *P)
{
	for (uint32_t l = 0; l < P->nl; l++) {
		const struct claim_loop *cl = &P->cp->loops[l];
		bool never = cl->header >= P->g.nslots || P->g.func_of[cl->header] < 0;

		if (P->cfg_loop[l] >= 0 || P->cb[l])
			continue;
		for (uint32_t k = 0; k <= cl->nivs; k++) {
			uint32_t id = k < cl->nivs ? iv_id(P, l, k) : trip_id(P, l);

			if (never) {
				P->stat[id] = CS_PROVED;
				P->method[id] = SMT_BY_INDUCTION;
				snprintf(P->why[id], sizeof(P->why[0]), "the header is never executed");
			} else if (claim_loop_kind_callback(cl->kind)) {
				P->stat[id] = CS_UNKNOWN;
				snprintf(P->why[id], sizeof(P->why[0]),
					 "the loop at %u is a %s callback whose header is not a "
					 "function's entry", cl->header,
					 claim_loop_kind_name((enum loop_kind)cl->kind));
			} else {
				P->stat[id] = CS_UNKNOWN;
				snprintf(P->why[id], sizeof(P->why[0]),
					 "the claimed loop at %u is not a cycle of the program with "
					 "exactly that body", cl->header);
			}
		}
	}
}

int smt_check(struct smt_result *res, const struct ebpf_object *obj, const struct ebpf_prog *prog,
	      const struct claim_prog *cp, const struct smt_opts *uopts)
{
	struct prover P = { 0 };
	bool complete = false;
	int err;

	memset(res, 0, sizeof(*res));
	if (!prog || !cp)
		return -EINVAL;
	if (uopts)
		memcpy(&P.o, uopts, uopts->sz && uopts->sz < sizeof(P.o) ? uopts->sz : sizeof(P.o));
	if (!P.o.timeout_ms)
		P.o.timeout_ms = P.o.rlimit || P.o.program_rlimit ? SAFETY_TIMEOUT_MS : DEFAULT_TIMEOUT_MS;
	if (!P.o.bmc_depth)
		P.o.bmc_depth = DEFAULT_BMC_DEPTH;
	if (!P.o.input_len)
		P.o.input_len = DEFAULT_INPUT_LEN;
	if (!P.o.replay_steps)
		P.o.replay_steps = DEFAULT_REPLAY_STEPS;
	P.obj = obj;
	P.prog = prog;
	P.cp = cp;
	P.res = res;
	P.t0 = wall_s();
	if ((err = setup(&P)))
		goto out;
	unmatched_loops(&P);
	if (!P.o.no_induction && has_cut(&P)) {
		/* A first pass with callback helpers and iterator kfuncs cutting the paths (as they
		 * did before they were encoded: cheap, and what it proves away from them holds);
		 * what a cut path could reach is open again for the whole program. */
		P.cut = P.m.no_iters = true;
		if ((err = induction(&P)))
			goto out;
		taint(&P, true);
		P.cut = P.m.no_iters = false;
		P.nunsup = 0;
	}
	if (!P.o.no_induction && (err = induction(&P)))
		goto out;
	if (!P.o.no_bmc) {
		bool open = false;

		for (uint32_t id = 0; id < P.nids; id++)
			open |= P.stat[id] == CS_OPEN && claim_exists(&P, id);
		if (open && (err = bmc(&P, true, P.o.precision, &complete)))
			goto out;
	}
	taint(&P, false);
	/* results */
	res->claims = calloc(P.nids + 1, sizeof(*res->claims));
	if (!res->claims) {
		err = -ENOMEM;
		goto out;
	}
	for (uint32_t id = 0; id < P.nids; id++) {
		struct smt_claim_result *r;

		if (!claim_exists(&P, id))
			continue;
		r = &res->claims[res->nclaims++];
		r->finding = P.finding[id];
		r->ms = P.ms[id];
		if (id < P.nr) {
			r->kind = SMT_CLAIM_RANGE;
			r->index = id;
			r->pc = cp->ranges[id].pc;
		} else if (id < P.nr + P.nl) {
			r->kind = SMT_CLAIM_TRIP;
			r->index = id - P.nr;
			r->pc = cp->loops[r->index].header;
		} else {
			uint32_t rest = id - P.nr - P.nl, l = 0;

			while (l + 1 < P.nl && P.iv_base[l + 1] <= rest)
				l++;
			r->kind = SMT_CLAIM_IV;
			r->index = l;
			r->iv = rest - P.iv_base[l];
			r->pc = cp->loops[l].header;
		}
		switch (P.stat[id]) {
		case CS_PROVED:
			r->verdict = SMT_PROVED;
			r->method = P.method[id];
			if (!P.why[id][0] || P.method[id] != SMT_BY_INDUCTION)
				snprintf(r->reason, sizeof(r->reason), "%s",
					 smt_method_name(P.method[id]));
			else
				snprintf(r->reason, sizeof(r->reason), "%s", P.why[id]);
			res->proved++;
			break;
		case CS_REFUTED:
			r->verdict = SMT_REFUTED;
			r->method = SMT_BY_COUNTEREXAMPLE;
			snprintf(r->reason, sizeof(r->reason), "%s", P.why[id]);
			res->refuted++;
			break;
		default:
			r->verdict = SMT_UNKNOWN;
			snprintf(r->reason, sizeof(r->reason), "%s",
				 P.why[id][0] ? P.why[id] : "undecided");
			res->unknown++;
			break;
		}
		/* (taint's words: the first cut names every claim it leaves unknown) */
		r->cut_pc = r->verdict == SMT_UNKNOWN && P.nunsup &&
			    !strncmp(r->reason, "unsupported at pc ", 18) ? P.unsup_pc[0] : UINT32_MAX;
	}
	if (P.nunsup)
		snprintf(res->note, sizeof(res->note), "unsupported at pc %u: %s", P.unsup_pc[0],
			 P.unsup_why[0]);
	if (P.o.precision && !P.err) {
		if (!complete && !P.nunsup)
			err = bmc(&P, false, true, &complete);
		if (!err && complete && !P.nunsup)
			precision(&P);
	}
out:
	if (P.c) {
		sx_poll_rlimit(P.c);	/* what was spent after the last query too */
		res->queries = sx_stats(P.c)->queries;
		res->solver_ms = sx_stats(P.c)->ms;
		res->rlimit_used = sx_stats(P.c)->rlimit;
	}
	res->ms = (wall_s() - P.t0) * 1e3;
	prover_free(&P);
	if (err)
		smt_result__free(res);
	return err;
}
