/* The campaign's state file and the lock of its findings directory.
 *
 * DIR/campaign.state lists, as "key: value" lines, the campaign's seed, knobs and settings,
 * which program numbers are done, and the totals so far: 'bpfscev fuzz --resume' reads it
 * back and continues the same campaign.  It is written whole and renamed into place, and read
 * strictly: a line it cannot read is an error naming the line.  DIR/campaign.lock keeps a
 * second campaign out of the directory.
 */
#define _GNU_SOURCE
#include "fuzz/campaign_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "util/sbuf.h"

const char *campaign_strategy_name(enum scev_strategy s)
{
	return s == SCEV_ITERATE ? "iterate" : "forget";
}

static void put_u64s(struct sbuf *sb, const char *key, const uint64_t *v, size_t n)
{
	sbuf_printf(sb, "%s:", key);
	for (size_t i = 0; i < n; i++)
		sbuf_printf(sb, " %" PRIu64, v[i]);
	sbuf_putc(sb, '\n');
}

int campaign_state_write(struct campaign *c)
{
	const struct fuzz_stats *st = &c->st;
	struct sbuf sb = SBUF_INIT;
	char tmp[4200];
	FILE *fp;
	int err = 0;

	if (!c->o.crashes)
		return 0;
	sbuf_printf(&sb, "# bpfscev fuzz campaign state: 'bpfscev fuzz --resume --crashes DIR' "
		    "continues this campaign.\n");
	sbuf_printf(&sb, "seed: %" PRIu64 "\nfirst: %" PRIu64 "\ncount: %" PRIu64 "\n", c->o.seed,
		    c->o.first, c->o.count);
	sbuf_printf(&sb, "next: %" PRIu64 "\ndone:", st->next);
	for (size_t i = 0; i < c->done.n; i++)
		if (c->done.r[i].b > st->next)
			sbuf_printf(&sb, " %" PRIu64 "-%" PRIu64, c->done.r[i].a, c->done.r[i].b);
	sbuf_printf(&sb, "\nknobs: %s\nstrategy: %s\nruns: %u\nsteps: %" PRIu64 "\n", c->knobs_text,
		    campaign_strategy_name(c->o.strategy), c->o.oracle_runs, c->o.step_budget);
	sbuf_printf(&sb, "programs: %" PRIu64 "\ngen_failures: %" PRIu64 "\nloops: %" PRIu64
		    "\nloops_bounded: %" PRIu64 "\nloops_exact: %" PRIu64 "\nloops_ran: %" PRIu64
		    "\nloops_entered: %" PRIu64
		    "\nrange_claims: %" PRIu64 "\nclaims_checked: %" PRIu64 "\nruns_done: %" PRIu64
		    "\ntraps: %" PRIu64 "\nunconfirmed: %" PRIu64 "\nseconds: %.3f\n",
		    st->programs, st->gen_failures, st->loops, st->loops_bounded, st->loops_exact,
		    st->loops_ran, st->loops_entered, st->range_claims, st->claims_checked, st->runs,
		    st->traps, st->unconfirmed, st->seconds);
	sbuf_printf(&sb, "cpu: %.6f %.6f %.6f\n", st->t_gen, st->t_analyze, st->t_check);
	sbuf_printf(&sb, "oracles: z3=%d kernel=%d z3_timeout_ms=%u z3_budget=%.3f z3_rlimit=%u "
		    "z3_program_rlimit=%" PRIu64 " unprivileged=%d\n", c->o.z3, c->o.kernel,
		    c->o.z3_timeout_ms, c->o.z3_budget, c->o.z3_rlimit, c->o.z3_program_rlimit,
		    c->o.unprivileged);
	/* the CPU seconds of each oracle after the execution oracle (whose are "cpu"'s third) */
	sbuf_puts(&sb, "cpu_oracles:");
	for (unsigned i = 1; i < pipeline_oracle_count(); i++)
		sbuf_printf(&sb, " %.6f", st->t_oracles[i]);
	sbuf_printf(&sb, "\ndisagreements_saved: %" PRIu64 "\n", st->disagreements_saved);
	for (unsigned i = 0; i < pipeline_stat_count(); i++)
		if (st->oracle_stats[i])
			sbuf_printf(&sb, "%s: %" PRIu64 "\n", pipeline_stat_name(i),
				    st->oracle_stats[i]);
	put_u64s(&sb, "found", st->found, FUZZ_KINDS);
	put_u64s(&sb, "saved", st->saved, FUZZ_KINDS);
	sbuf_puts(&sb, "ratio:");
	for (unsigned b = 0; b < FUZZ_RATIO_BUCKETS; b++)
		if (st->ratio[b])
			sbuf_printf(&sb, " %u:%" PRIu64, b, st->ratio[b]);
	sbuf_putc(&sb, '\n');
	if (sb.oom) {
		sbuf_free(&sb);
		return -ENOMEM;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", c->state_path);
	fp = fopen(tmp, "w");
	if (!fp) {
		err = -errno;
	} else {
		errno = 0;	/* ENOSPC from a write or the fsync, EIO when none is said */
		if (fwrite(sb.buf, 1, sb.len, fp) != sb.len || fflush(fp) || fsync(fileno(fp)))
			err = errno ? -errno : -EIO;
		if (fclose(fp) && !err)
			err = errno ? -errno : -EIO;
		if (!err && rename(tmp, c->state_path))
			err = -errno;
		if (err)
			unlink(tmp);
	}
	/* the rename must reach the disk before anything that follows it: the state it replaces
	 * lists fewer programs, never more */
	if (!err) {
		int dfd = open(c->o.crashes, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (dfd < 0 || fsync(dfd))
			err = -errno;
		if (dfd >= 0)
			close(dfd);
	}
	sbuf_free(&sb);
	return err;
}

/* Strict numbers for the state file: decimal digits only, the whole text, no overflow. */
static bool parse_u64(const char *v, uint64_t *out)
{
	char *end;

	if (*v < '0' || *v > '9')
		return false;
	errno = 0;
	*out = strtoull(v, &end, 10);
	return !errno && !*end;
}

static bool parse_f64(const char *v, double *out)
{
	char *end;

	if (!*v || *v == ' ')
		return false;
	errno = 0;
	*out = strtod(v, &end);
	return !errno && !*end && isfinite(*out) && *out >= 0;
}

/* n numbers separated by spaces, nothing more. */
/* n numbers, or at least min of them (the rest 0): the found and saved lists of a state written
 * before the last finding kinds were added (FUZZ_KINDS_BEFORE). */
static bool parse_u64_list(char *v, uint64_t *out, size_t n, size_t min)
{
	char *save = NULL, *t = strtok_r(v, " ", &save);

	for (size_t i = 0; i < n; i++, t = strtok_r(NULL, " ", &save)) {
		if (!t && i >= min) {
			memset(out + i, 0, (n - i) * sizeof(*out));
			return true;
		}
		if (!t || !parse_u64(t, &out[i]))
			return false;
	}
	return !t;
}

static bool parse_f64_list(char *v, double *const *out, size_t n)
{
	char *save = NULL, *t = strtok_r(v, " ", &save);

	for (size_t i = 0; i < n; i++, t = strtok_r(NULL, " ", &save))
		if (!t || !parse_f64(t, out[i]))
			return false;
	return !t;
}

static int oracle_stat_index(const char *name)
{
	return pipeline_stat_index(name);
}

/* "z3=0 kernel=0 z3_timeout_ms=500 z3_budget=2.000 z3_rlimit=0 z3_program_rlimit=0": each key
 * at most once, in any order; the first four always (the resource limits came later). */
static bool parse_oracles(struct campaign *c, char *v)
{
	char *save = NULL;
	unsigned seen = 0;

	for (char *t = strtok_r(v, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(t, '=');
		uint64_t u = 0;
		unsigned bit;

		if (!eq)
			return false;
		*eq++ = '\0';
		if (!strcmp(t, "z3_budget")) {
			if (!parse_f64(eq, &c->o.z3_budget))
				return false;
			bit = 1;
		} else if (!parse_u64(eq, &u)) {
			return false;
		} else if (!strcmp(t, "z3") && u <= 1) {
			c->o.z3 = u;
			bit = 2;
		} else if (!strcmp(t, "kernel") && u <= 1) {
			c->o.kernel = u;
			bit = 4;
		} else if (!strcmp(t, "z3_timeout_ms") && u <= UINT32_MAX) {
			c->o.z3_timeout_ms = (unsigned)u;
			bit = 8;
		} else if (!strcmp(t, "z3_rlimit") && u <= UINT32_MAX) {
			c->o.z3_rlimit = (unsigned)u;
			bit = 16;
		} else if (!strcmp(t, "z3_program_rlimit")) {
			c->o.z3_program_rlimit = u;
			bit = 32;
		} else if (!strcmp(t, "unprivileged") && u <= 1) {
			/* (absent from state files older than the option: the privileged rule) */
			c->o.unprivileged = u;
			bit = 64;
		} else {
			return false;
		}
		if (seen & bit)
			return false;
		seen |= bit;
	}
	return (seen & 15) == 15;
}

/* The keys every state file has; a file without one of them was not written whole. */
static const char *const state_required[] = {
	"seed", "first", "count", "next", "done", "knobs", "strategy", "runs", "steps",
	"programs", "oracles", "found", "saved", "ratio",
};
#define STATE_REQUIRED (sizeof(state_required) / sizeof(state_required[0]))

static bool state_known(const char *key)
{
	static const char *const keys[] = {
		"seed", "first", "count", "next", "steps", "programs", "gen_failures", "loops",
		"loops_bounded", "loops_exact", "loops_ran", "loops_entered", "range_claims",
		"claims_checked", "runs_done", "traps", "unconfirmed", "disagreements_saved", "runs",
		"seconds", "cpu", "cpu_oracles", "oracles", "strategy", "knobs", "found", "saved",
		"done", "ratio",
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(key, keys[i]))
			return true;
	return false;
}

/* One "key: value" line of the state file into c; false when the value (or key) is bad. */
static bool state_line(struct campaign *c, const char *key, char *v, char *knobs, size_t knobs_n)
{
	struct fuzz_stats *st = &c->st;
	uint64_t u;
	int x;

	struct { const char *key; uint64_t *dst; } u64s[] = {
		{ "seed", &c->o.seed }, { "first", &c->o.first }, { "count", &c->o.count },
		{ "next", &st->next }, { "steps", &c->o.step_budget },
		{ "programs", &st->programs }, { "gen_failures", &st->gen_failures },
		{ "loops", &st->loops }, { "loops_bounded", &st->loops_bounded },
		{ "loops_exact", &st->loops_exact }, { "loops_ran", &st->loops_ran },
		{ "loops_entered", &st->loops_entered },
		{ "range_claims", &st->range_claims }, { "claims_checked", &st->claims_checked },
		{ "runs_done", &st->runs }, { "traps", &st->traps },
		{ "unconfirmed", &st->unconfirmed },
		{ "disagreements_saved", &st->disagreements_saved },
	};

	for (size_t i = 0; i < sizeof(u64s) / sizeof(u64s[0]); i++)
		if (!strcmp(key, u64s[i].key))
			return parse_u64(v, u64s[i].dst);
	if (!strcmp(key, "runs")) {
		if (!parse_u64(v, &u) || u > UINT32_MAX)
			return false;
		c->o.oracle_runs = (uint32_t)u;
		return true;
	}
	if (!strcmp(key, "seconds"))
		return parse_f64(v, &st->seconds);
	if (!strcmp(key, "cpu"))
		return parse_f64_list(v, (double *const[]){ &st->t_gen, &st->t_analyze,
							    &st->t_check }, 3);
	if (!strcmp(key, "cpu_oracles")) {
		double *t[PIPELINE_MAX_ORACLES];
		unsigned n = 0;

		for (unsigned i = 1; i < pipeline_oracle_count(); i++)
			t[n++] = &st->t_oracles[i];
		return parse_f64_list(v, t, n);
	}
	if (!strcmp(key, "oracles"))
		return parse_oracles(c, v);
	if ((x = oracle_stat_index(key)) >= 0)
		return parse_u64(v, &st->oracle_stats[x]);
	if (!strcmp(key, "strategy")) {
		if (!strcmp(v, "iterate"))
			c->o.strategy = SCEV_ITERATE;
		else if (!strcmp(v, "forget"))
			c->o.strategy = SCEV_FORGET;
		else
			return false;
		return true;
	}
	if (!strcmp(key, "knobs")) {
		snprintf(knobs, knobs_n, "%s", v);
		return true;
	}
	if (!strcmp(key, "found"))
		return parse_u64_list(v, st->found, FUZZ_KINDS, FUZZ_KINDS_BEFORE);
	if (!strcmp(key, "saved"))
		return parse_u64_list(v, st->saved, FUZZ_KINDS, FUZZ_KINDS_BEFORE);
	if (!strcmp(key, "done")) {
		char *save = NULL;

		for (char *t = strtok_r(v, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
			char *dash = strchr(t, '-');
			uint64_t a, b;

			if (!dash)
				return false;
			*dash = '\0';
			if (!parse_u64(t, &a) || !parse_u64(dash + 1, &b) || a >= b ||
			    done_set_add(&c->done, a, b))
				return false;
		}
		return true;
	}
	if (!strcmp(key, "ratio")) {
		char *save = NULL;

		for (char *t = strtok_r(v, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
			char *colon = strchr(t, ':');
			uint64_t b;

			if (!colon)
				return false;
			*colon = '\0';
			if (!parse_u64(t, &b) || b >= FUZZ_RATIO_BUCKETS ||
			    !parse_u64(colon + 1, &st->ratio[b]))
				return false;
		}
		return true;
	}
	return false;
}

/* Reads the state file into c.  Anything it cannot read whole — a bad number, an unknown key
 * or strategy, a line cut short, a key missing — is an error naming the file and line: a
 * campaign resumed with defaults in place of its settings would silently be another one. */
int campaign_state_read(struct campaign *c)
{
	struct fuzz_stats *st = &c->st;
	char line[8192], knobs[1024] = "";
	int lineno = 0, knobs_line = 0, err = 0;
	bool have[STATE_REQUIRED] = { false };
	FILE *fp = fopen(c->state_path, "r");

	diag_set_file(c->d, c->state_path);
	if (!fp)
		return diag_set(c->d, errno, "cannot resume: %s", strerror(errno));
	while (fgets(line, sizeof(line), fp)) {
		size_t len = strlen(line);
		char *colon, *v;

		lineno++;
		if (!len || line[len - 1] != '\n') {
			err = diag_at_line(c->d, EINVAL, lineno, 1, "%s", feof(fp) ?
					   "truncated line (no end of line): the file is damaged" :
					   "line too long");
			break;
		}
		line[len - 1] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		colon = strchr(line, ':');
		if (!colon) {
			err = diag_at_line(c->d, EINVAL, lineno, 1, "'%s': not a 'key: value' line",
					   line);
			break;
		}
		*colon = '\0';
		v = colon + 1;
		if (*v == ' ')
			v++;
		for (size_t i = 0; i < STATE_REQUIRED; i++)
			if (!strcmp(line, state_required[i]))
				have[i] = true;
		if (!strcmp(line, "knobs"))
			knobs_line = lineno;
		{
			char copy[sizeof(line)];

			snprintf(copy, sizeof(copy), "%s", v);
			if (!state_line(c, line, v, knobs, sizeof(knobs))) {
				bool known = oracle_stat_index(line) >= 0 || state_known(line);

				err = diag_at_line(c->d, EINVAL, lineno, 1, known ?
						   "bad value for %s: '%s'" :
						   "unknown key '%s' (value '%s')", line, copy);
				break;
			}
		}
	}
	if (!err && ferror(fp))
		err = diag_set(c->d, EIO, "cannot read: %s", strerror(errno));
	fclose(fp);
	if (err)
		return err;
	for (size_t i = 0; i < STATE_REQUIRED; i++)
		if (!have[i])
			return diag_set(c->d, EINVAL, "no '%s:' line: the file is damaged or not a "
					"campaign state", state_required[i]);
	if ((err = fuzz_knobs_parse(&c->knobs, knobs, c->d))) {
		char msg[sizeof(c->d->msg)];

		snprintf(msg, sizeof(msg), "%s", c->d->msg);
		return diag_at_line(c->d, EINVAL, knobs_line, 1, "%s", msg);
	}
	if (st->next < c->o.first)
		st->next = c->o.first;
	if ((err = done_set_add(&c->done, c->o.first, st->next)))
		return diag_set(c->d, -err, "out of memory");
	diag_clear(c->d);
	return 0;
}

/* One campaign per findings directory: two would each write the state file over the other's
 * and each skip what the other recorded.  The lock is an flock on DIR/campaign.lock, which
 * the kernel releases when the holder dies (a kill -9 leaves no stale lock); the file holds
 * the holder's pid for the message. */
int campaign_lock_dir(struct campaign *c)
{
	char path[4200], pid[32] = "";
	int fd, n;

	snprintf(path, sizeof(path), "%s/%s", c->o.crashes, FUZZ_LOCK_FILE);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		diag_set_file(c->d, path);
		return diag_set(c->d, errno, "cannot open the lock file: %s", strerror(errno));
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int err = errno;

		if (err == EWOULDBLOCK) {
			n = (int)pread(fd, pid, sizeof(pid) - 1, 0);
			pid[n > 0 ? n : 0] = '\0';
			pid[strcspn(pid, "\n")] = '\0';
			err = EBUSY;
		}
		close(fd);
		diag_set_file(c->d, c->o.crashes);
		if (err == EBUSY)
			return diag_set(c->d, EBUSY, "another campaign (pid %s) is using this "
					"findings directory; wait for it or choose another "
					"--crashes DIR", pid[0] ? pid : "unknown");
		return diag_set(c->d, err, "cannot lock %s: %s", path, strerror(err));
	}
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, pid, (size_t)n, 0) != n) {
		/* the pid is only for the message of a second campaign */
	}
	c->lock_fd = fd;
	return 0;
}
