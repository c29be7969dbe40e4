/* What the files of the campaign share: the running campaign, one program's outcome as the
 * process that ran it reports it and the parent counts it, the page a worker shows the
 * watchdog, and what each file offers the others.  Internal to fuzz/; the interface is
 * campaign.h.  The files:
 *
 *   knobs.c      program seeds, and the generator's knobs as text
 *   program.c    one program: the pipeline (pipeline.h) with the campaign's options, its
 *                findings signed and deduplicated
 *   wire.c       an outcome sent from a worker to the parent (wire.h)
 *   campaign.c   the driver: counting and saving an outcome, handing out program numbers,
 *                the campaign in the calling process
 *   workers.c    worker processes: the pool, the watchdog, crash confirmation
 *   doneset.c    which program numbers are finished (doneset.h)
 *   state.c      the state file, and the lock of the findings directory
 *   stats.c      the totals of struct fuzz_stats and the trip-count ratio histogram
 */
#ifndef BPFSCEV_FUZZ_CAMPAIGN_INTERNAL_H
#define BPFSCEV_FUZZ_CAMPAIGN_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "fuzz/campaign.h"
#include "fuzz/doneset.h"

/* A campaign while it runs: the options with their defaults filled in, the totals, what is
 * done, and where the next programs come from. */
struct campaign {
	struct fuzz_opts o;
	struct gen_knobs knobs;
	char knobs_text[1024];
	struct fuzz_stats st;
	struct done_set done;
	uint64_t end;			/* first + count, or UINT64_MAX */
	uint64_t cursor;		/* next number to hand out */
	double t_start, seconds_before;
	double last_state, last_progress;
	char state_path[4096];
	int lock_fd;			/* holds the findings directory's lock; -1 = none */
	struct diag *d;
	int err;
};

/* ---- state.c ---- */

const char *campaign_strategy_name(enum scev_strategy s);	/* "iterate", "forget" */
/* Writes c's state file (atomically: a new file renamed over the old, and synced).  0 or
 * -errno; 0 at once without a findings directory. */
int campaign_state_write(struct campaign *c);
/* Reads c->state_path into c (settings, totals, what is done).  0 or -errno with c->d. */
int campaign_state_read(struct campaign *c);
/* Locks c->o.crashes for this campaign (c->lock_fd).  0, or -EBUSY naming the holder. */
int campaign_lock_dir(struct campaign *c);

/* ---- stats.c ---- */

/* The ratio histogram's bucket of a loop claimed to run at most claimed times that ran
 * observed times. */
unsigned campaign_ratio_bucket(uint64_t claimed, uint64_t observed);

/* ---- program.c ---- */

/* What a worker shows the parent while it works (one page per worker, shared). */
enum { PH_IDLE, PH_GEN, PH_ANALYZE, PH_CHECK, PH_ORACLES };
struct watch {
	volatile uint64_t index;
	volatile uint32_t phase;
	volatile uint64_t seq;		/* phases begun so far */
	volatile double since;		/* wall_s() when the phase began */
};
void campaign_set_phase(struct watch *w, uint32_t ph);	/* w may be NULL */

/* A finding as the parent needs it: in full the first time, else kind and signature. */
struct occurrence {
	uint8_t kind;
	uint64_t sig;
	struct finding *f;	/* NULL for a repeat */
};

/* One program's outcome: what the parent counts, saves and marks done of it. */
struct outcome {
	uint64_t index;
	int gen_err;
	uint32_t loops, bounded, exact, entered;	/* entered: loops some run entered */
	uint64_t ranges, checks, runs, traps;
	double t_gen, t_analyze, t_check;
	uint16_t *buckets;	/* one per finite loop that ran */
	uint32_t nbuckets;
	struct occurrence *occ;
	uint32_t nocc;
	uint64_t oracle_stats[PIPELINE_MAX_STATS];	/* the oracles' counters */
	double t_oracles[PIPELINE_MAX_ORACLES];
	struct fuzz_disagreement *dis;	/* a verdict disagreement to save, or NULL */
};
void campaign_outcome_free(struct outcome *oc);
/* Appends an occurrence (f complete, or NULL for a repeat; the outcome then owns f). */
int campaign_outcome_add(struct outcome *oc, uint8_t kind, uint64_t sig, struct finding *f);

/* Signatures a process has already reported in full, with the lowest program number: later
 * occurrences travel as (kind, signature) only.  Open addressing, grows at half full. */
struct sig_seen {
	uint64_t *key, *idx;
	size_t cap, n;
};

/* What one process keeps between programs. */
struct evaluator {
	const struct campaign *c;
	struct pipeline_result pr;
	struct sig_seen seen;
};
void campaign_evaluator_free(struct evaluator *ev);

void campaign_fill_defaults(struct fuzz_opts *o);
/* Marks f as program index of campaign c: seed, knobs, name, source "campaign". */
void campaign_set_origin(struct finding *f, const struct campaign *c, uint64_t index);
/* Runs program index (w, if not NULL, shows each phase) and describes it in oc, which the
 * caller frees.  0 or -errno (out of memory, an analyzer error). */
int campaign_eval_program(struct evaluator *ev, uint64_t index, struct outcome *oc,
			  struct watch *w);

/* ---- campaign.c: the parent's side ---- */

/* Saves oc's findings and counts it: program oc->index is done (unless a save failed). */
void campaign_consume(struct campaign *c, struct outcome *oc);
/* Updates the times, calls the progress callback and writes the state file, each at most
 * every so often unless force. */
void campaign_report_progress(struct campaign *c, bool force);
bool campaign_stopping(const struct campaign *c);	/* stop asked, time up or an error */
/* The next batch of numbers to hand out, [*a, *b); false when there are none. */
bool campaign_next_batch(struct campaign *c, uint64_t *a, uint64_t *b);

/* ---- workers.c ---- */

/* Runs the campaign in c->o.jobs worker processes.  0 or -errno with c->d. */
int campaign_run_pool(struct campaign *c);

#endif
