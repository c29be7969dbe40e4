/* The campaign (campaign.h): the driver.  It sets the campaign up (the findings directory, its
 * lock, the state file to resume from), hands out program numbers in batches, and, for every
 * program's outcome, saves the findings and counts the program as done.  The programs run in
 * this process (jobs = 0) or in worker processes (workers.c); campaign_internal.h lists the
 * other files.
 */
#include "fuzz/campaign_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/clock.h"

/* ---- the parent's side: counting and saving ---- */

void campaign_report_progress(struct campaign *c, bool force)
{
	double t = wall_s();

	c->st.session_seconds = t - c->t_start;
	c->st.seconds = c->seconds_before + c->st.session_seconds;
	if (c->o.progress && (force || t - c->last_progress >= 0.25)) {
		c->last_progress = t;
		c->o.progress(c->o.arg, &c->st);
	}
	if (c->o.crashes && (force || t - c->last_state >= 1.0)) {
		int err = campaign_state_write(c);

		c->last_state = t;
		if (err && !c->err) {
			diag_set_file(c->d, c->state_path);
			c->err = diag_set(c->d, -err, "cannot write the campaign state: %s",
					  strerror(-err));
		}
	}
}

/* Saves one finding; 0 or -errno (c->err set).  *saved: the directory holds this program. */
static int save_finding(struct campaign *c, struct finding *f, bool *saved)
{
	struct finding_save_opts so = { .sz = sizeof(so), .prefer_earlier = true,
					.replay_cmd = c->o.replay_cmd };
	enum finding_save_result res = FINDING_DUP;
	char path[4096] = "";
	int err = 0;

	*saved = false;
	if (c->o.crashes) {
		err = finding__save(f, c->o.crashes, &so, &res, path, sizeof(path));
		if (err && !c->err) {
			diag_set_file(c->d, c->o.crashes);
			c->err = diag_set(c->d, -err, "cannot save a finding: %s", strerror(-err));
		}
		*saved = !err && (res == FINDING_NEW || res == FINDING_SAME);
	}
	if (!err && c->o.on_finding)
		c->o.on_finding(c->o.arg, f, res, path);
	return err;
}

/* Saves a program's findings, then counts its outcome: the program is done.  A finding that
 * cannot be saved leaves the program not done, and not counted, so that the state file never
 * lists a program whose findings are not on disk: a resume runs it again and saves them. */
void campaign_consume(struct campaign *c, struct outcome *oc)
{
	struct fuzz_stats *st = &c->st;
	uint64_t saved[FUZZ_KINDS] = { 0 };
	bool dis_new = false;

	for (uint32_t i = 0; i < oc->nocc; i++) {
		bool here;

		if (oc->occ[i].f && save_finding(c, oc->occ[i].f, &here))
			return;
		if (oc->occ[i].f && here && oc->occ[i].f->kind < FUZZ_KINDS)
			saved[oc->occ[i].f->kind]++;
	}
	if (oc->dis && c->o.crashes) {
		char path[4096], origin[128];
		int err;

		snprintf(origin, sizeof(origin), "bpfscev fuzz --seed %" PRIu64 " program %" PRIu64,
			 c->o.seed, oc->index);
		err = fuzz_save_disagreement(c->o.crashes, oc->dis, origin, &dis_new, path,
					     sizeof(path));
		if (err) {
			if (!c->err) {
				diag_set_file(c->d, c->o.crashes);
				c->err = diag_set(c->d, -err, "cannot save a verdict disagreement: "
						  "%s", strerror(-err));
			}
			return;
		}
	}
	st->t_gen += oc->t_gen;
	st->t_analyze += oc->t_analyze;
	st->t_check += oc->t_check;
	if (oc->gen_err) {
		st->gen_failures++;
	} else {
		st->programs++;
		st->session_programs++;
		st->loops += oc->loops;
		st->loops_bounded += oc->bounded;
		st->loops_exact += oc->exact;
		st->loops_ran += oc->nbuckets;
		st->loops_entered += oc->entered;
		st->range_claims += oc->ranges;
		st->claims_checked += oc->checks;
		st->runs += oc->runs;
		st->traps += oc->traps;
		for (uint32_t i = 0; i < oc->nbuckets; i++)
			st->ratio[oc->buckets[i]]++;
		for (unsigned i = 0; i < PIPELINE_MAX_STATS; i++)
			st->oracle_stats[i] += oc->oracle_stats[i];
		for (unsigned i = 0; i < PIPELINE_MAX_ORACLES; i++)
			st->t_oracles[i] += oc->t_oracles[i];
	}
	st->disagreements_saved += dis_new;
	for (uint32_t i = 0; i < oc->nocc; i++)
		if (oc->occ[i].kind < FUZZ_KINDS)
			st->found[oc->occ[i].kind]++;
	for (int k = 0; k < FUZZ_KINDS; k++)
		st->saved[k] += saved[k];
	if (done_set_add(&c->done, oc->index, oc->index + 1) && !c->err)
		c->err = diag_set(c->d, ENOMEM, "out of memory");
	st->next = done_set_run_end(&c->done, c->o.first);
	st->done_extra = 0;
	for (size_t i = 0; i < c->done.n; i++)
		if (c->done.r[i].a > st->next)
			st->done_extra += c->done.r[i].b - c->done.r[i].a;
	campaign_report_progress(c, false);
}

static bool out_of_time(const struct campaign *c)
{
	return c->o.seconds > 0 && wall_s() - c->t_start >= c->o.seconds;
}

bool campaign_stopping(const struct campaign *c)
{
	return (c->o.stop && *c->o.stop) || out_of_time(c) || c->err;
}

/* The next batch of numbers to hand out: [*a, *b), skipping numbers done before a resume. */
bool campaign_next_batch(struct campaign *c, uint64_t *a, uint64_t *b)
{
	uint64_t x = done_set_next_gap(&c->done, c->cursor), e;

	if (x >= c->end)
		return false;
	e = x + c->o.batch < c->end ? x + c->o.batch : c->end;
	e = done_set_gap_end(&c->done, x, e);
	*a = x;
	*b = e;
	c->cursor = e;
	return true;
}

/* ---- in this process ---- */

static int run_inline(struct campaign *c)
{
	struct evaluator ev = { .c = c };
	uint64_t a, b;
	int err = 0;

	while (!err && !campaign_stopping(c) && campaign_next_batch(c, &a, &b)) {
		for (uint64_t i = a; i < b; i++) {
			struct outcome oc;

			if (i > a && campaign_stopping(c)) {
				c->cursor = i;	/* the rest of the batch was not started */
				break;
			}
			err = campaign_eval_program(&ev, i, &oc, NULL);
			if (err) {
				diag_set(c->d, -err, "program %" PRIu64 ": %s", i, strerror(-err));
				campaign_outcome_free(&oc);
				break;
			}
			campaign_consume(c, &oc);
			campaign_outcome_free(&oc);
		}
	}
	campaign_evaluator_free(&ev);
	return err;
}

/* ---- the campaign ---- */

int fuzz_campaign(struct fuzz_stats *st, const struct fuzz_opts *uo, struct diag *d)
{
	struct campaign *c = calloc(1, sizeof(*c));
	struct diag dummy;
	int err = 0;

	if (!d)
		d = &dummy;
	diag_clear(d);
	memset(st, 0, sizeof(*st));
	if (!c)
		return diag_set(d, ENOMEM, "out of memory");
	if (uo)
		memcpy(&c->o, uo, uo->sz && uo->sz < sizeof(c->o) ? uo->sz : sizeof(c->o));
	c->d = d;
	c->lock_fd = -1;
	c->knobs = c->o.knobs ? *c->o.knobs : gen_knobs_default();
	if (c->o.crashes) {
		struct stat sb;

		snprintf(c->state_path, sizeof(c->state_path), "%s/%s", c->o.crashes, FUZZ_STATE_FILE);
		if (mkdir(c->o.crashes, 0755) && errno != EEXIST) {
			diag_set_file(d, c->o.crashes);
			err = diag_set(d, errno, "cannot create: %s", strerror(errno));
			goto out;
		}
		if (stat(c->o.crashes, &sb) || !S_ISDIR(sb.st_mode)) {
			diag_set_file(d, c->o.crashes);
			err = diag_set(d, ENOTDIR, "not a directory");
			goto out;
		}
		if ((err = campaign_lock_dir(c)))
			goto out;
		finding_dir_cleanup(c->o.crashes);
	}
	if (c->o.resume) {
		if (!c->o.crashes) {
			err = diag_set(d, EINVAL, "resuming needs the findings directory");
			goto out;
		}
		if ((err = campaign_state_read(c)))
			goto out;
		if (uo->count)	/* a new total for the campaign */
			c->o.count = uo->count;
	} else {
		c->st.next = c->o.first;
	}
	c->o.knobs = &c->knobs;
	campaign_fill_defaults(&c->o);
	fuzz_knobs_format(c->knobs_text, sizeof(c->knobs_text), &c->knobs);
	c->st.seed = c->o.seed;
	c->st.first = c->o.first;
	c->end = c->o.count ? c->o.first + c->o.count : UINT64_MAX;
	if (c->end < c->o.first)
		c->end = UINT64_MAX;
	c->cursor = done_set_next_gap(&c->done, c->o.first);
	c->seconds_before = c->st.seconds;
	c->t_start = wall_s();
	c->last_state = c->t_start;
	if (c->o.crashes && (err = campaign_state_write(c))) {
		diag_set_file(d, c->state_path);
		err = diag_set(d, -err, "cannot write the campaign state: %s", strerror(-err));
		goto out;
	}
	err = c->o.jobs ? campaign_run_pool(c) : run_inline(c);
	if (!err && c->err)
		err = c->err;
	campaign_report_progress(c, true);
out:
	*st = c->st;
	st->workers = 0;
	if (c->lock_fd >= 0)
		close(c->lock_fd);
	free(c->done.r);
	free(c);
	return err;
}
