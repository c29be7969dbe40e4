/* The campaign: see campaign.h.
 *
 * Layout of this file: program seeds and knobs; statistics and the state file; one program
 * (generate, analyze, check, findings); what the parent does with a program's outcome (count
 * it, save its findings); the in-process driver; the worker pool (messages over a socket per
 * worker, a shared page per worker for the watchdog, crash confirmation).
 */
#define _GNU_SOURCE
#include "fuzz/campaign.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/sbuf.h"

/* ---- seeds and knobs ---- */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t fuzz_program_seed(uint64_t seed, uint64_t index)
{
	uint64_t x = seed;
	uint64_t a = splitmix64(&x);

	x = a ^ index;
	return splitmix64(&x);
}

void fuzz_knobs_format(char *buf, size_t n, const struct gen_knobs *k)
{
	struct gen_knobs def = gen_knobs_default();
	const uint32_t *v = (const uint32_t *)k, *dv = (const uint32_t *)&def;
	const char *name, *what;
	uint32_t d;
	size_t used = 0;

	if (n)
		buf[0] = '\0';
	for (size_t i = 0; gen_knob_info(i, &name, &d, &what); i++) {
		int w;

		if (v[i] == dv[i])
			continue;
		w = snprintf(buf + used, n - used, "%s%s=%u", used ? " " : "", name, v[i]);
		if (w < 0 || (size_t)w >= n - used)
			break;
		used += (size_t)w;
	}
}

int fuzz_knobs_parse(struct gen_knobs *k, const char *text, struct diag *d)
{
	char *copy = strdup(text ? text : ""), *save = NULL;
	int err = 0;

	*k = gen_knobs_default();
	if (!copy)
		return diag_set(d, ENOMEM, "out of memory");
	for (char *tok = strtok_r(copy, " ,\t\n", &save); tok; tok = strtok_r(NULL, " ,\t\n", &save)) {
		char *eq = strchr(tok, '='), *end;
		unsigned long v;

		if (!eq) {
			err = diag_set(d, EINVAL, "knob '%s' needs a value (name=value)", tok);
			break;
		}
		*eq = '\0';
		v = strtoul(eq + 1, &end, 0);
		if (end == eq + 1 || *end || v > UINT32_MAX) {
			err = diag_set(d, EINVAL, "knob %s: '%s' is not a number", tok, eq + 1);
			break;
		}
		err = gen_knobs_set(k, tok, (uint32_t)v);
		if (err == -ENOENT) {
			diag_set(d, ENOENT, "unknown knob '%s'", tok);
			break;
		}
		if (err) {
			diag_set(d, ERANGE, "knob %s: %lu is out of range", tok, v);
			break;
		}
	}
	free(copy);
	return err;
}

/* ---- statistics ---- */

static unsigned ratio_bucket(uint64_t claimed, uint64_t observed)
{
	double r;
	unsigned b;

	if (claimed < observed)
		return 0;
	if (claimed == observed)
		return 1;
	r = log2((double)claimed / (double)observed) * FUZZ_RATIO_STEPS;
	b = 2 + (unsigned)r;
	return b < FUZZ_RATIO_BUCKETS ? b : FUZZ_RATIO_BUCKETS - 1;
}

double fuzz_stats_median_ratio(const struct fuzz_stats *st)
{
	uint64_t total = 0, acc = 0;

	for (unsigned b = 0; b < FUZZ_RATIO_BUCKETS; b++)
		total += st->ratio[b];
	if (!total)
		return 0;
	for (unsigned b = 0; b < FUZZ_RATIO_BUCKETS; b++) {
		acc += st->ratio[b];
		if (acc * 2 >= total) {
			if (b == 0)
				return 0.5;	/* below 1: an unsound claim; no better number */
			if (b == 1)
				return 1;
			return exp2((b - 2 + 0.5) / FUZZ_RATIO_STEPS);
		}
	}
	return 0;
}

uint64_t fuzz_stats_findings(const struct fuzz_stats *st)
{
	uint64_t n = 0;

	for (int k = 0; k < FUZZ_KINDS; k++)
		n += st->found[k];
	return n;
}

uint64_t fuzz_stats_saved(const struct fuzz_stats *st)
{
	uint64_t n = 0;

	for (int k = 0; k < FUZZ_KINDS; k++)
		n += st->saved[k];
	return n;
}

/* ---- the set of finished programs ---- */

/* Sorted, disjoint, non-adjacent ranges [a, b) of program numbers. */
struct done_set {
	struct { uint64_t a, b; } *r;
	size_t n, cap;
};

static int done_add(struct done_set *s, uint64_t a, uint64_t b)
{
	size_t i = 0, j;

	if (a >= b)
		return 0;
	while (i < s->n && s->r[i].b < a)
		i++;
	/* merge every range that touches [a, b) */
	j = i;
	while (j < s->n && s->r[j].a <= b) {
		if (s->r[j].a < a)
			a = s->r[j].a;
		if (s->r[j].b > b)
			b = s->r[j].b;
		j++;
	}
	if (j == i) {
		if (s->n == s->cap) {
			size_t nc = s->cap ? s->cap * 2 : 16;
			void *nr = realloc(s->r, nc * sizeof(*s->r));

			if (!nr)
				return -ENOMEM;
			s->r = nr;
			s->cap = nc;
		}
		memmove(&s->r[i + 1], &s->r[i], (s->n - i) * sizeof(*s->r));
		s->n++;
	} else if (j > i + 1) {
		memmove(&s->r[i + 1], &s->r[j], (s->n - j) * sizeof(*s->r));
		s->n -= j - i - 1;
	}
	s->r[i].a = a;
	s->r[i].b = b;
	return 0;
}

/* The first number at or after x that is not done. */
static uint64_t done_next_gap(const struct done_set *s, uint64_t x)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->r[i].a <= x && x < s->r[i].b)
			x = s->r[i].b;
	return x;
}

/* The end of the run of done numbers starting at x (x when x is not done). */
static uint64_t done_run_end(const struct done_set *s, uint64_t x)
{
	return done_next_gap(s, x);
}

/* Of [a, b): the end of the first stretch of numbers that are not done, starting at a. */
static uint64_t done_gap_end(const struct done_set *s, uint64_t a, uint64_t b)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->r[i].a > a && s->r[i].a < b)
			return s->r[i].a;
	return b;
}

/* ---- campaign configuration and the state file ---- */

struct camp {
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

static const char *strategy_name(enum scev_strategy s)
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

static int write_state(struct camp *c)
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
		    strategy_name(c->o.strategy), c->o.oracle_runs, c->o.step_budget);
	sbuf_printf(&sb, "programs: %" PRIu64 "\ngen_failures: %" PRIu64 "\nloops: %" PRIu64
		    "\nloops_bounded: %" PRIu64 "\nloops_exact: %" PRIu64 "\nloops_ran: %" PRIu64
		    "\nrange_claims: %" PRIu64 "\nclaims_checked: %" PRIu64 "\nruns_done: %" PRIu64
		    "\ntraps: %" PRIu64 "\nunconfirmed: %" PRIu64 "\nseconds: %.3f\n",
		    st->programs, st->gen_failures, st->loops, st->loops_bounded, st->loops_exact,
		    st->loops_ran, st->range_claims, st->claims_checked, st->runs, st->traps,
		    st->unconfirmed, st->seconds);
	sbuf_printf(&sb, "cpu: %.6f %.6f %.6f\n", st->t_gen, st->t_analyze, st->t_check);
	sbuf_printf(&sb, "oracles: z3=%d kernel=%d z3_timeout_ms=%u z3_budget=%.3f z3_rlimit=%u "
		    "z3_program_rlimit=%" PRIu64 "\n", c->o.z3, c->o.kernel, c->o.z3_timeout_ms,
		    c->o.z3_budget, c->o.z3_rlimit, c->o.z3_program_rlimit);
	sbuf_printf(&sb, "cpu_oracles: %.6f %.6f\ndisagreements_saved: %" PRIu64 "\n", st->t_z3,
		    st->t_kernel, st->disagreements_saved);
	for (unsigned i = 0; i < FX_N; i++)
		if (st->x[i])
			sbuf_printf(&sb, "%s: %" PRIu64 "\n", fuzz_xstat_name(i), st->x[i]);
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
static bool parse_u64_list(char *v, uint64_t *out, size_t n)
{
	char *save = NULL, *t = strtok_r(v, " ", &save);

	for (size_t i = 0; i < n; i++, t = strtok_r(NULL, " ", &save))
		if (!t || !parse_u64(t, &out[i]))
			return false;
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

static int xstat_index(const char *name)
{
	for (unsigned i = 0; i < FX_N; i++)
		if (!strcmp(name, fuzz_xstat_name(i)))
			return (int)i;
	return -1;
}

/* "z3=0 kernel=0 z3_timeout_ms=500 z3_budget=2.000 z3_rlimit=0 z3_program_rlimit=0": each key
 * at most once, in any order; the first four always (the resource limits came later). */
static bool parse_oracles(struct camp *c, char *v)
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
		"loops_bounded", "loops_exact", "loops_ran", "range_claims", "claims_checked",
		"runs_done", "traps", "unconfirmed", "disagreements_saved", "runs", "seconds",
		"cpu", "cpu_oracles", "oracles", "strategy", "knobs", "found", "saved", "done",
		"ratio",
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(key, keys[i]))
			return true;
	return false;
}

/* One "key: value" line of the state file into c; false when the value (or key) is bad. */
static bool state_line(struct camp *c, const char *key, char *v, char *knobs, size_t knobs_n)
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
	if (!strcmp(key, "cpu_oracles"))
		return parse_f64_list(v, (double *const[]){ &st->t_z3, &st->t_kernel }, 2);
	if (!strcmp(key, "oracles"))
		return parse_oracles(c, v);
	if ((x = xstat_index(key)) >= 0)
		return parse_u64(v, &st->x[x]);
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
		return parse_u64_list(v, st->found, FUZZ_KINDS);
	if (!strcmp(key, "saved"))
		return parse_u64_list(v, st->saved, FUZZ_KINDS);
	if (!strcmp(key, "done")) {
		char *save = NULL;

		for (char *t = strtok_r(v, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
			char *dash = strchr(t, '-');
			uint64_t a, b;

			if (!dash)
				return false;
			*dash = '\0';
			if (!parse_u64(t, &a) || !parse_u64(dash + 1, &b) || a >= b ||
			    done_add(&c->done, a, b))
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
static int read_state(struct camp *c)
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
				bool known = xstat_index(line) >= 0 || state_known(line);

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
	if ((err = done_add(&c->done, c->o.first, st->next)))
		return diag_set(c->d, -err, "out of memory");
	diag_clear(c->d);
	return 0;
}

/* One campaign per findings directory: two would each write the state file over the other's
 * and each skip what the other recorded.  The lock is an flock on DIR/campaign.lock, which
 * the kernel releases when the holder dies (a kill -9 leaves no stale lock); the file holds
 * the holder's pid for the message. */
static int lock_dir(struct camp *c)
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

/* ---- one program ---- */

static uint64_t vsig_hash(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	return x ^ (x >> 33);
}

/* Signatures a process has already reported in full, with the lowest program number: later
 * occurrences travel as (kind, signature) only.  Open addressing, grows at half full. */
struct sig_seen {
	uint64_t *key, *idx;
	size_t cap, n;
};

static bool seen_lookup(const struct sig_seen *s, uint64_t sig, uint64_t *idx)
{
	if (!s->cap)
		return false;
	for (size_t h = vsig_hash(sig) & (s->cap - 1);; h = (h + 1) & (s->cap - 1)) {
		if (!s->key[h])
			return false;
		if (s->key[h] == sig) {
			*idx = s->idx[h];
			return true;
		}
	}
}

static int seen_put(struct sig_seen *s, uint64_t sig, uint64_t idx)
{
	if (!sig)
		sig = 1;	/* 0 marks empty slots */
	if ((s->n + 1) * 2 > s->cap) {
		size_t nc = s->cap ? s->cap * 2 : 64;
		uint64_t *nk = calloc(nc, sizeof(*nk)), *ni = calloc(nc, sizeof(*ni));

		if (!nk || !ni) {
			free(nk);
			free(ni);
			return -ENOMEM;
		}
		for (size_t i = 0; i < s->cap; i++) {
			size_t h;

			if (!s->key[i])
				continue;
			for (h = vsig_hash(s->key[i]) & (nc - 1); nk[h]; h = (h + 1) & (nc - 1))
				;
			nk[h] = s->key[i];
			ni[h] = s->idx[i];
		}
		free(s->key);
		free(s->idx);
		s->key = nk;
		s->idx = ni;
		s->cap = nc;
	}
	for (size_t h = vsig_hash(sig) & (s->cap - 1);; h = (h + 1) & (s->cap - 1)) {
		if (!s->key[h]) {
			s->key[h] = sig;
			s->idx[h] = idx;
			s->n++;
			return 0;
		}
		if (s->key[h] == sig) {
			if (idx < s->idx[h])
				s->idx[h] = idx;
			return 0;
		}
	}
}

static void seen_free(struct sig_seen *s)
{
	free(s->key);
	free(s->idx);
	memset(s, 0, sizeof(*s));
}

/* A finding as the parent needs it: in full the first time, else kind and signature. */
struct occ {
	uint8_t kind;
	uint64_t sig;
	struct finding *f;	/* NULL for a repeat */
};

struct outcome {
	uint64_t index;
	int gen_err;
	uint32_t loops, bounded, exact;
	uint64_t ranges, checks, runs, traps;
	double t_gen, t_analyze, t_check;
	uint16_t *buckets;	/* one per finite loop that ran */
	uint32_t nbuckets;
	struct occ *occ;
	uint32_t nocc;
	uint64_t x[FX_N];		/* the optional oracles' counters */
	double t_z3, t_kernel;
	struct fuzz_disagreement *dis;	/* a verdict disagreement to save, or NULL */
};

static void outcome_free(struct outcome *oc)
{
	free(oc->buckets);
	for (uint32_t i = 0; i < oc->nocc; i++) {
		finding__free(oc->occ[i].f);
		free(oc->occ[i].f);
	}
	free(oc->occ);
	fuzz_disagreement__free(oc->dis);
	memset(oc, 0, sizeof(*oc));
}

static void fill_defaults(struct fuzz_opts *o)
{
	if (!o->oracle_runs)
		o->oracle_runs = FUZZ_DEFAULT_RUNS;
	if (!o->step_budget)
		o->step_budget = FUZZ_DEFAULT_STEPS;
	if (o->timeout <= 0)
		o->timeout = 2;
	if (!o->batch)
		o->batch = 32;
}

/* What a worker shows the parent while it works (one page per worker, shared). */
enum { PH_IDLE, PH_GEN, PH_ANALYZE, PH_CHECK, PH_ORACLES };
struct watch {
	volatile uint64_t index;
	volatile uint32_t phase;
	volatile double since;		/* wall_s() when the phase began */
	volatile double cpu_since;	/* the worker's cpu_s() then */
};

static void set_phase(struct watch *w, uint32_t ph)
{
	if (!w)
		return;
	w->since = wall_s();
	w->cpu_since = cpu_s();
	w->phase = ph;
}

static int run_program(struct fuzz_program_result *r, const struct fuzz_opts *uo, uint64_t index,
		       struct watch *w)
{
	struct fuzz_opts o = { 0 };
	struct gen_knobs def = gen_knobs_default();
	struct scev_opts so = { .sz = sizeof(so) };
	struct ebpf_object obj = { 0 };
	struct ebpf_prog view;
	struct gen_src src;
	uint64_t pseed;
	struct diag d;
	char name[64];
	double t0, t1, t2, t3;
	int err;

	if (uo)
		memcpy(&o, uo, uo->sz && uo->sz < sizeof(o) ? uo->sz : sizeof(o));
	fill_defaults(&o);
	claim_prog__free(&r->claims);
	memset(&r->claims, 0, sizeof(r->claims));
	check_result__free(&r->check);
	fuzz_xresult__free(&r->extra);
	r->t_gen = r->t_analyze = r->t_check = 0;
	pseed = fuzz_program_seed(o.seed, index);
	gen_src_init_seed(&src, pseed);
	if (w)
		w->index = index;
	set_phase(w, PH_GEN);
	t0 = cpu_s();
	r->gen_err = gen_program(&r->gp, &src, o.knobs ? o.knobs : &def);
	t1 = cpu_s();
	r->t_gen = t1 - t0;
	if (r->gen_err)
		return 0;
	snprintf(name, sizeof(name), "fuzz-%" PRIu64 "-%" PRIu64, o.seed, index);
	gen_program__prog(&r->gp, &view, name);
	so.strategy = o.strategy;
	diag_clear(&d);
	set_phase(w, PH_ANALYZE);
	if (o.fault)
		o.fault(o.arg, index);
	err = scev_analyze(&r->claims, &view, r->gp.maps, r->gp.map_cnt, &so, &d);
	t2 = cpu_s();
	r->t_analyze = t2 - t1;
	if (err)
		return err;
	if (o.plant)
		o.plant(o.arg, index, &r->claims);
	obj.maps = r->gp.maps;
	obj.map_cnt = r->gp.map_cnt;
	set_phase(w, PH_CHECK);
	{
		/* few inputs per program: consecutive programs start at different points of the
		 * oracle's input sequence, so the campaign as a whole sees the all-zero, all-ones
		 * and sign-bit patterns and the random ones */
		struct check_opts co = { .sz = sizeof(co), .seed = pseed, .runs = o.oracle_runs,
					 .step_budget = o.step_budget, .input_len = GEN_INPUT_LEN,
					 .first_input = o.oracle_runs >= FUZZ_INPUT_CYCLE ? 0 :
							(uint32_t)(index * o.oracle_runs % FUZZ_INPUT_CYCLE) };

		err = oracle_check(&r->check, &obj, &view, &r->claims, &co);
	}
	t3 = cpu_s();
	r->t_check = t3 - t2;
	if (!err && (o.z3 || o.kernel)) {
		struct fuzz_xopts xo = { .z3 = o.z3, .kernel = o.kernel,
					 .z3_timeout_ms = o.z3_timeout_ms, .z3_budget_s = o.z3_budget,
					 .z3_rlimit = o.z3_rlimit,
					 .z3_program_rlimit = o.z3_program_rlimit, .seed = pseed };

		set_phase(w, PH_ORACLES);
		err = fuzz_xrun(&r->extra, &xo, &obj, &view, &r->claims);
	}
	return err;
}

int fuzz_run_program(struct fuzz_program_result *r, const struct fuzz_opts *o, uint64_t index)
{
	return run_program(r, o, index, NULL);
}

void fuzz_program_result__free(struct fuzz_program_result *r)
{
	if (!r)
		return;
	claim_prog__free(&r->claims);
	check_result__free(&r->check);
	fuzz_xresult__free(&r->extra);
	gen_program__free(&r->gp);
	memset(r, 0, sizeof(*r));
}

/* What one process keeps between programs. */
struct eval {
	const struct camp *c;
	struct fuzz_program_result pr;
	struct sig_seen seen;
};

/* The light signature of a check finding, without building the directory contents. */
static void light_sig(struct finding *tmp, const struct check_finding *cf,
		      const struct gen_program *gp, const struct claim_prog *cp)
{
	memset(tmp, 0, sizeof(*tmp));
	tmp->kind = cf->kind;
	snprintf(tmp->source, sizeof(tmp->source), "campaign");
	tmp->insns = gp->insns;
	tmp->len = gp->len;
	tmp->claim = cf->claim;
	tmp->pc = cf->pc;
	tmp->loc = cf->loc;
	tmp->observed = cf->observed;
	snprintf(tmp->text, sizeof(tmp->text), "%s", cf->text);
	finding_signature(tmp, cp);
}

static void set_origin(struct finding *f, const struct camp *c, uint64_t index)
{
	f->has_origin = true;
	f->campaign_seed = c->o.seed;
	f->index = index;
	f->prog_seed = fuzz_program_seed(c->o.seed, index);
	snprintf(f->knobs, sizeof(f->knobs), "%s", c->knobs_text);
	snprintf(f->source, sizeof(f->source), "campaign");
	snprintf(f->prog_name, sizeof(f->prog_name), "fuzz-%" PRIu64 "-%" PRIu64, c->o.seed,
		 index);
}

static int add_occ(struct outcome *oc, uint8_t kind, uint64_t sig, struct finding *f)
{
	struct occ *n = realloc(oc->occ, (oc->nocc + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	oc->occ = n;
	n[oc->nocc].kind = kind;
	n[oc->nocc].sig = sig;
	n[oc->nocc].f = f;
	oc->nocc++;
	return 0;
}

/* The optional oracles' counters, findings (complete already) and disagreement. */
static int eval_extra(struct eval *ev, uint64_t index, struct outcome *oc)
{
	struct fuzz_xresult *x = &ev->pr.extra;
	int err;

	memcpy(oc->x, x->x, sizeof(oc->x));
	oc->t_z3 = x->t_z3;
	oc->t_kernel = x->t_kernel;
	oc->dis = x->dis;
	x->dis = NULL;
	for (uint32_t k = 0; k < x->nfindings; k++) {
		struct finding *f = x->findings[k];
		char source[sizeof(f->source)];
		uint64_t first;
		bool dup_here = false;

		for (uint32_t j = 0; j < oc->nocc; j++)
			if (oc->occ[j].sig == f->sig.full)
				dup_here = true;
		if (dup_here)
			continue;
		if (seen_lookup(&ev->seen, f->sig.full, &first) && first <= index) {
			if ((err = add_occ(oc, f->kind, f->sig.full, NULL)))
				return err;
			continue;
		}
		memcpy(source, f->source, sizeof(source));
		set_origin(f, ev->c, index);
		memcpy(f->source, source, sizeof(source));	/* z3, kernel, verdict */
		x->findings[k] = NULL;
		if ((err = add_occ(oc, f->kind, f->sig.full, f)) ||
		    (err = seen_put(&ev->seen, f->sig.full, index)))
			return err;
	}
	return 0;
}

static int eval_program(struct eval *ev, uint64_t index, struct outcome *oc, struct watch *w)
{
	const struct camp *c = ev->c;
	struct fuzz_program_result *r = &ev->pr;
	const struct claim_prog *cp = &r->claims;
	int err;

	memset(oc, 0, sizeof(*oc));
	oc->index = index;
	err = run_program(r, &c->o, index, w);
	set_phase(w, PH_IDLE);
	oc->t_gen = r->t_gen;
	oc->t_analyze = r->t_analyze;
	oc->t_check = r->t_check;
	if (err)
		return err;
	if (r->gen_err) {
		oc->gen_err = r->gen_err;
		return 0;
	}
	oc->loops = cp->nloops;
	oc->ranges = cp->nranges;
	oc->checks = r->check.checks;
	oc->runs = r->check.runs;
	oc->traps = r->check.traps;
	oc->buckets = malloc((cp->nloops ? cp->nloops : 1) * sizeof(*oc->buckets));
	if (!oc->buckets)
		return -ENOMEM;
	for (uint32_t l = 0; l < cp->nloops; l++) {
		const struct claim_trip *t = &cp->loops[l].trip;

		if (t->kind == TRIP_UNKNOWN)
			continue;
		oc->bounded++;
		if (t->kind == TRIP_EXACT)
			oc->exact++;
		if (l < r->check.nloops && r->check.max_trip[l])
			oc->buckets[oc->nbuckets++] = (uint16_t)ratio_bucket(t->max,
									     r->check.max_trip[l]);
	}
	for (uint32_t k = 0; k < r->check.nfindings; k++) {
		const struct check_finding *cf = &r->check.findings[k];
		struct finding tmp, *f;
		uint64_t first;
		bool dup_here = false;

		light_sig(&tmp, cf, &r->gp, cp);
		for (uint32_t j = 0; j < oc->nocc; j++)
			if (oc->occ[j].sig == tmp.sig.full)
				dup_here = true;
		if (dup_here)	/* one occurrence per program and signature */
			continue;
		if (seen_lookup(&ev->seen, tmp.sig.full, &first) && first <= index) {
			if ((err = add_occ(oc, cf->kind, tmp.sig.full, NULL)))
				return err;
			continue;
		}
		f = calloc(1, sizeof(*f));
		if (!f)
			return -ENOMEM;
		{
			struct ebpf_prog view;

			gen_program__prog(&r->gp, &view, "fuzz");
			err = finding__from_check(f, cf, &view, r->gp.maps, r->gp.map_cnt, cp);
		}
		if (err) {
			free(f);
			return err;
		}
		set_origin(f, c, index);
		finding_signature(f, cp);
		if ((err = add_occ(oc, cf->kind, f->sig.full, f)) ||
		    (err = seen_put(&ev->seen, f->sig.full, index))) {
			finding__free(f);
			free(f);
			return err;
		}
	}
	return eval_extra(ev, index, oc);
}

/* ---- the parent's side: counting and saving ---- */

static void report_progress(struct camp *c, bool force)
{
	double t = wall_s();

	c->st.session_seconds = t - c->t_start;
	c->st.seconds = c->seconds_before + c->st.session_seconds;
	if (c->o.progress && (force || t - c->last_progress >= 0.25)) {
		c->last_progress = t;
		c->o.progress(c->o.arg, &c->st);
	}
	if (c->o.crashes && (force || t - c->last_state >= 1.0)) {
		int err = write_state(c);

		c->last_state = t;
		if (err && !c->err) {
			diag_set_file(c->d, c->state_path);
			c->err = diag_set(c->d, -err, "cannot write the campaign state: %s",
					  strerror(-err));
		}
	}
}

/* Saves one finding; 0 or -errno (c->err set).  *saved: the directory holds this program. */
static int save_finding(struct camp *c, struct finding *f, bool *saved)
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
static void consume(struct camp *c, struct outcome *oc)
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
		st->range_claims += oc->ranges;
		st->claims_checked += oc->checks;
		st->runs += oc->runs;
		st->traps += oc->traps;
		for (uint32_t i = 0; i < oc->nbuckets; i++)
			st->ratio[oc->buckets[i]]++;
		for (unsigned i = 0; i < FX_N; i++)
			st->x[i] += oc->x[i];
		st->t_z3 += oc->t_z3;
		st->t_kernel += oc->t_kernel;
	}
	st->disagreements_saved += dis_new;
	for (uint32_t i = 0; i < oc->nocc; i++)
		if (oc->occ[i].kind < FUZZ_KINDS)
			st->found[oc->occ[i].kind]++;
	for (int k = 0; k < FUZZ_KINDS; k++)
		st->saved[k] += saved[k];
	if (done_add(&c->done, oc->index, oc->index + 1) && !c->err)
		c->err = diag_set(c->d, ENOMEM, "out of memory");
	st->next = done_run_end(&c->done, c->o.first);
	st->done_extra = 0;
	for (size_t i = 0; i < c->done.n; i++)
		if (c->done.r[i].a > st->next)
			st->done_extra += c->done.r[i].b - c->done.r[i].a;
	report_progress(c, false);
}

static bool out_of_time(const struct camp *c)
{
	return c->o.seconds > 0 && wall_s() - c->t_start >= c->o.seconds;
}

static bool stopping(const struct camp *c)
{
	return (c->o.stop && *c->o.stop) || out_of_time(c) || c->err;
}

/* The next batch of numbers to hand out: [*a, *b), skipping numbers done before a resume. */
static bool next_batch(struct camp *c, uint64_t *a, uint64_t *b)
{
	uint64_t x = done_next_gap(&c->done, c->cursor), e;

	if (x >= c->end)
		return false;
	e = x + c->o.batch < c->end ? x + c->o.batch : c->end;
	e = done_gap_end(&c->done, x, e);
	*a = x;
	*b = e;
	c->cursor = e;
	return true;
}

/* ---- in this process ---- */

static int run_inline(struct camp *c)
{
	struct eval ev = { .c = c };
	uint64_t a, b;
	int err = 0;

	while (!err && !stopping(c) && next_batch(c, &a, &b)) {
		for (uint64_t i = a; i < b; i++) {
			struct outcome oc;

			if (i > a && stopping(c)) {
				c->cursor = i;	/* the rest of the batch was not started */
				break;
			}
			err = eval_program(&ev, i, &oc, NULL);
			if (err) {
				diag_set(c->d, -err, "program %" PRIu64 ": %s", i, strerror(-err));
				outcome_free(&oc);
				break;
			}
			consume(c, &oc);
			outcome_free(&oc);
		}
	}
	fuzz_program_result__free(&ev.pr);
	seen_free(&ev.seen);
	return err;
}

/* ---- worker processes ---- */

/* Message types, each framed as u32 type, u32 payload length, payload. */
enum { WMSG_OUTCOME = 1, WMSG_BATCH_DONE = 2, WMSG_BATCH = 3 };

static const char *phase_name(uint32_t ph)
{
	return ph == PH_GEN ? "generate" : ph == PH_ANALYZE ? "analyze" : ph == PH_CHECK ? "check" :
	       ph == PH_ORACLES ? "z3/kernel" : "idle";
}

/* -- serialization (both sides run the same binary: native byte order) -- */

static void put_u64(struct sbuf *sb, uint64_t v) { sbuf_put(sb, &v, sizeof(v)); }
static void put_f64(struct sbuf *sb, double v) { sbuf_put(sb, &v, sizeof(v)); }
static void put_blob(struct sbuf *sb, const void *p, size_t n)
{
	put_u64(sb, n);
	sbuf_put(sb, p, n);
}
static void put_str(struct sbuf *sb, const char *s) { put_blob(sb, s, s ? strlen(s) : 0); }

struct rd {
	const uint8_t *p, *end;
	bool bad;
};

static uint64_t get_u64(struct rd *r)
{
	uint64_t v = 0;

	if (r->end - r->p < 8) {
		r->bad = true;
		return 0;
	}
	memcpy(&v, r->p, 8);
	r->p += 8;
	return v;
}

static double get_f64(struct rd *r)
{
	double v = 0;

	if (r->end - r->p < 8) {
		r->bad = true;
		return 0;
	}
	memcpy(&v, r->p, 8);
	r->p += 8;
	return v;
}

static void *get_blob(struct rd *r, size_t *n, bool nul)
{
	uint64_t len = get_u64(r);
	uint8_t *b;

	if (n)
		*n = 0;

	if (r->bad || len > (uint64_t)(r->end - r->p)) {
		r->bad = true;
		return NULL;
	}
	b = malloc(len + 1);
	if (!b) {
		r->bad = true;
		return NULL;
	}
	memcpy(b, r->p, len);
	if (nul)
		b[len] = '\0';
	r->p += len;
	if (n)
		*n = len;
	return b;
}

static void get_str(struct rd *r, char *dst, size_t n)
{
	size_t len;
	char *s = get_blob(r, &len, true);

	snprintf(dst, n, "%s", s ? s : "");
	free(s);
}

static void pack_finding(struct sbuf *sb, const struct finding *f)
{
	put_u64(sb, f->kind);
	put_u64(sb, f->sig.full);
	put_u64(sb, f->sig.core);
	put_str(sb, f->sig.text);
	put_str(sb, f->sig.core_text);
	put_str(sb, f->prog_name);
	put_u64(sb, f->prog_type);
	put_blob(sb, f->insns, f->len * sizeof(*f->insns));
	put_blob(sb, f->maps, f->map_cnt * sizeof(*f->maps));
	put_str(sb, f->strategy);
	put_str(sb, f->claims_json);
	put_u64(sb, f->claim);
	put_u64(sb, f->pc);
	put_u64(sb, f->loc);
	put_u64(sb, f->observed);
	put_str(sb, f->text);
	put_blob(sb, f->input, f->input_len);
	put_blob(sb, f->helper, f->helper_len);
	put_u64(sb, f->index);
	put_str(sb, f->source);		/* "z3", "kernel-invariant", ...: how to replay it */
}

static struct finding *unpack_finding(struct rd *r, const struct camp *c)
{
	struct finding *f = calloc(1, sizeof(*f));
	size_t n;

	if (!f) {
		r->bad = true;
		return NULL;
	}
	f->kind = (uint8_t)get_u64(r);
	f->sig.full = get_u64(r);
	f->sig.core = get_u64(r);
	get_str(r, f->sig.text, sizeof(f->sig.text));
	get_str(r, f->sig.core_text, sizeof(f->sig.core_text));
	get_str(r, f->prog_name, sizeof(f->prog_name));
	f->prog_type = (uint32_t)get_u64(r);
	f->insns = get_blob(r, &n, false);
	f->len = n / sizeof(*f->insns);
	f->maps = get_blob(r, &n, false);
	f->map_cnt = n / sizeof(*f->maps);
	for (size_t m = 0; f->maps && m < f->map_cnt; m++)
		f->maps[m].init = NULL;
	get_str(r, f->strategy, sizeof(f->strategy));
	f->claims_json = get_blob(r, NULL, true);
	f->claim = (uint32_t)get_u64(r);
	f->pc = (uint32_t)get_u64(r);
	f->loc = (loc_t)get_u64(r);
	f->observed = get_u64(r);
	get_str(r, f->text, sizeof(f->text));
	f->input = get_blob(r, &f->input_len, false);
	f->helper = get_blob(r, &f->helper_len, false);
	f->index = get_u64(r);
	{
		char source[sizeof(f->source)];

		get_str(r, source, sizeof(source));
		set_origin(f, c, f->index);
		if (source[0])
			memcpy(f->source, source, sizeof(source));
	}
	if (r->bad) {
		finding__free(f);
		free(f);
		return NULL;
	}
	return f;
}

static void pack_outcome(struct sbuf *sb, const struct outcome *oc)
{
	put_u64(sb, oc->index);
	put_u64(sb, (uint64_t)(int64_t)oc->gen_err);
	put_u64(sb, oc->loops);
	put_u64(sb, oc->bounded);
	put_u64(sb, oc->exact);
	put_u64(sb, oc->ranges);
	put_u64(sb, oc->checks);
	put_u64(sb, oc->runs);
	put_u64(sb, oc->traps);
	put_f64(sb, oc->t_gen);
	put_f64(sb, oc->t_analyze);
	put_f64(sb, oc->t_check);
	put_blob(sb, oc->buckets, oc->nbuckets * sizeof(*oc->buckets));
	put_blob(sb, oc->x, sizeof(oc->x));
	put_f64(sb, oc->t_z3);
	put_f64(sb, oc->t_kernel);
	put_u64(sb, oc->dis != NULL);
	if (oc->dis) {
		put_u64(sb, oc->dis->cls);
		put_u64(sb, oc->dis->sig);
		put_str(sb, oc->dis->case_text);
		put_str(sb, oc->dis->ours);
		put_str(sb, oc->dis->kernel_log);
	}
	put_u64(sb, oc->nocc);
	for (uint32_t i = 0; i < oc->nocc; i++) {
		put_u64(sb, oc->occ[i].kind);
		put_u64(sb, oc->occ[i].sig);
		put_u64(sb, oc->occ[i].f != NULL);
		if (oc->occ[i].f)
			pack_finding(sb, oc->occ[i].f);
	}
}

static int unpack_outcome(struct rd *r, const struct camp *c, struct outcome *oc)
{
	size_t n;
	uint64_t nocc;

	memset(oc, 0, sizeof(*oc));
	oc->index = get_u64(r);
	oc->gen_err = (int)(int64_t)get_u64(r);
	oc->loops = (uint32_t)get_u64(r);
	oc->bounded = (uint32_t)get_u64(r);
	oc->exact = (uint32_t)get_u64(r);
	oc->ranges = get_u64(r);
	oc->checks = get_u64(r);
	oc->runs = get_u64(r);
	oc->traps = get_u64(r);
	oc->t_gen = get_f64(r);
	oc->t_analyze = get_f64(r);
	oc->t_check = get_f64(r);
	oc->buckets = get_blob(r, &n, false);
	oc->nbuckets = (uint32_t)(n / sizeof(*oc->buckets));
	for (uint32_t i = 0; oc->buckets && i < oc->nbuckets; i++)
		if (oc->buckets[i] >= FUZZ_RATIO_BUCKETS)
			r->bad = true;
	{
		uint64_t *x = get_blob(r, &n, false);

		if (x && n == sizeof(oc->x))
			memcpy(oc->x, x, n);
		else
			r->bad = true;
		free(x);
	}
	oc->t_z3 = get_f64(r);
	oc->t_kernel = get_f64(r);
	if (get_u64(r) && !r->bad) {
		oc->dis = calloc(1, sizeof(*oc->dis));
		if (!oc->dis) {
			r->bad = true;
		} else {
			oc->dis->cls = (uint8_t)get_u64(r);
			oc->dis->sig = get_u64(r);
			oc->dis->case_text = get_blob(r, NULL, true);
			oc->dis->ours = get_blob(r, NULL, true);
			oc->dis->kernel_log = get_blob(r, NULL, true);
			if (!oc->dis->case_text || !oc->dis->ours || !oc->dis->kernel_log)
				r->bad = true;
		}
	}
	nocc = get_u64(r);
	for (uint64_t i = 0; i < nocc && !r->bad; i++) {
		uint8_t kind = (uint8_t)get_u64(r);
		uint64_t sig = get_u64(r);
		struct finding *f = get_u64(r) ? unpack_finding(r, c) : NULL;

		if (!r->bad && add_occ(oc, kind, sig, f)) {
			finding__free(f);
			free(f);
			r->bad = true;
		}
	}
	if (r->bad) {
		outcome_free(oc);
		return -EPROTO;
	}
	return 0;
}

static int send_all(int fd, const void *p, size_t n)
{
	const char *s = p;

	while (n) {
		ssize_t w = send(fd, s, n, MSG_NOSIGNAL);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Messages are a header (type, payload length) and the payload; several may go in one write. */
static int frame(struct sbuf *out, uint32_t type, const void *payload, size_t len)
{
	uint32_t hdr[2] = { type, (uint32_t)len };

	sbuf_put(out, hdr, sizeof(hdr));
	sbuf_put(out, payload, len);
	return out->oom ? -ENOMEM : 0;
}

static int flush(int fd, struct sbuf *out)
{
	int err = out->len ? send_all(fd, out->buf, out->len) : 0;

	sbuf_reset(out);
	return err;
}

static int send_msg(int fd, uint32_t type, const void *payload, size_t len)
{
	struct sbuf sb = SBUF_INIT;
	int err = frame(&sb, type, payload, len);

	if (!err)
		err = flush(fd, &sb);
	sbuf_free(&sb);
	return err;
}

static int recv_all(int fd, void *p, size_t n)
{
	char *s = p;

	while (n) {
		ssize_t r = recv(fd, s, n, 0);

		if (r == 0)
			return -EPIPE;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		s += r;
		n -= (size_t)r;
	}
	return 0;
}

/* Outcomes wait in out and go to the parent together: one write per FLUSH_OUTCOMES programs
 * or FLUSH_SECONDS (two system calls and a parent wake-up per program cost about 40 µs).  A
 * worker that dies loses what it had not sent: those programs are run again. */
#define FLUSH_OUTCOMES 16
#define FLUSH_SECONDS 0.05

/* The worker: batches in, one outcome per program out, until the socket closes. */
static void worker_main(struct camp *c, int fd, struct watch *w)
{
	struct eval ev = { .c = c };
	struct sbuf sb = SBUF_INIT, out = SBUF_INIT;
	unsigned pending = 0;
	double first = 0;

	for (;;) {
		uint32_t hdr[2];
		uint64_t range[2];

		if (recv_all(fd, hdr, sizeof(hdr)) || hdr[0] != WMSG_BATCH || hdr[1] != sizeof(range) ||
		    recv_all(fd, range, sizeof(range)))
			break;
		for (uint64_t i = range[0]; i < range[1]; i++) {
			struct outcome oc;
			int err = eval_program(&ev, i, &oc, w);
			bool found;

			if (err)
				_exit(3);	/* out of memory: the parent treats it as a crash */
			sbuf_reset(&sb);
			pack_outcome(&sb, &oc);
			found = oc.nocc > 0;	/* findings go at once: saved as soon as found */
			outcome_free(&oc);
			if (sb.oom || frame(&out, WMSG_OUTCOME, sb.buf, sb.len))
				_exit(4);
			if (!pending++)
				first = wall_s();
			if ((pending >= FLUSH_OUTCOMES || wall_s() - first >= FLUSH_SECONDS || found) &&
			    flush(fd, &out))
				_exit(4);
			if (!out.len)
				pending = 0;
		}
		if (frame(&out, WMSG_BATCH_DONE, range, sizeof(range)) || flush(fd, &out))
			break;
		pending = 0;
	}
	_exit(0);	/* no atexit handlers, no leak check of the parent's heap */
}

struct worker {
	pid_t pid;
	clockid_t cpu;		/* its CPU-time clock, read by the watchdog */
	bool has_cpu;
	int fd;
	int log_fd;		/* the worker's stderr, a file the parent reads after a death */
	struct watch *w;
	bool busy;
	uint64_t a, b;		/* the batch */
	uint64_t next;		/* next program expected from it */
	bool confirm;		/* the batch is one program being run again alone */
	bool killed_hang;	/* the watchdog killed it */
	uint32_t hang_phase;
	uint8_t *buf;		/* bytes received, not yet a whole message */
	size_t len, cap;
};

struct pool {
	struct camp *c;
	struct worker *w;
	unsigned n;
	/* batches to hand out before new numbers: re-runs and the rest of a dead worker's batch */
	struct { uint64_t a, b; bool confirm; } *q;
	size_t nq, capq;
	struct watch *pages;
	bool draining;		/* no new numbers */
};

static int queue_push(struct pool *p, uint64_t a, uint64_t b, bool confirm, bool front)
{
	if (a >= b)
		return 0;
	if (p->nq == p->capq) {
		size_t nc = p->capq ? p->capq * 2 : 8;
		void *nq = realloc(p->q, nc * sizeof(*p->q));

		if (!nq)
			return -ENOMEM;
		p->q = nq;
		p->capq = nc;
	}
	if (front) {
		memmove(&p->q[1], &p->q[0], p->nq * sizeof(*p->q));
		p->q[0].a = a;
		p->q[0].b = b;
		p->q[0].confirm = confirm;
	} else {
		p->q[p->nq].a = a;
		p->q[p->nq].b = b;
		p->q[p->nq].confirm = confirm;
	}
	p->nq++;
	return 0;
}

static int spawn(struct pool *p, unsigned k)
{
	struct worker *wk = &p->w[k];
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	/* a fresh log per worker life: a report belongs to the program that caused it */
	if (wk->log_fd >= 0 && ftruncate(wk->log_fd, 0)) {
		/* a longer log only costs reading time */
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		close(sv[0]);
		close(sv[1]);
		return err;
	}
	if (pid == 0) {
		/* Only this worker's own socket stays open: the parent's ends of the others
		 * must close when the parent closes them, or their workers never see EOF. */
		for (unsigned j = 0; j < p->n; j++)
			if (p->w[j].fd >= 0)
				close(p->w[j].fd);
		close(sv[0]);
		/* the lock is the parent's: a worker outliving it must not hold the directory */
		if (p->c->lock_fd >= 0)
			close(p->c->lock_fd);
		if (wk->log_fd >= 0)
			dup2(wk->log_fd, 2);
		signal(SIGINT, SIG_IGN);	/* the terminal's Ctrl-C is for the parent */
		signal(SIGTERM, SIG_IGN);
		signal(SIGPIPE, SIG_DFL);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(0);
		worker_main(p->c, sv[1], wk->w);
		_exit(0);
	}
	close(sv[1]);
	wk->pid = pid;
	wk->has_cpu = !clock_getcpuclockid(pid, &wk->cpu);
	wk->fd = sv[0];
	wk->busy = false;
	wk->len = 0;
	wk->killed_hang = false;
	wk->w->phase = PH_IDLE;
	p->c->st.workers++;
	return 0;
}

static int assign(struct pool *p, unsigned k)
{
	struct worker *wk = &p->w[k];
	uint64_t a, b, range[2];
	bool confirm = false;
	int err;

	if (p->nq) {
		a = p->q[0].a;
		b = p->q[0].b;
		confirm = p->q[0].confirm;
		memmove(&p->q[0], &p->q[1], (p->nq - 1) * sizeof(*p->q));
		p->nq--;
	} else if (p->draining || stopping(p->c) || !next_batch(p->c, &a, &b)) {
		return 0;
	}
	range[0] = a;
	range[1] = b;
	wk->a = a;
	wk->b = b;
	wk->next = a;
	wk->confirm = confirm;
	wk->busy = true;
	err = send_msg(wk->fd, WMSG_BATCH, range, sizeof(range));
	/* a worker that died before taking it is noticed by poll; the batch goes back then */
	return err == -EPIPE || err == -ECONNRESET ? 0 : err;
}

static char *read_log(int fd)
{
	struct stat sb;
	off_t start;
	char *buf;
	ssize_t r;
	size_t want;

	if (fd < 0 || fstat(fd, &sb) || sb.st_size <= 0)
		return NULL;
	/* the end of a sanitizer report is the least useful part; keep its start */
	want = sb.st_size > 65536 ? 65536 : (size_t)sb.st_size;
	start = 0;
	buf = malloc(want + 1);
	if (!buf)
		return NULL;
	r = pread(fd, buf, want, start);
	if (r <= 0) {
		free(buf);
		return NULL;
	}
	buf[r] = '\0';
	return buf;
}

/* A crash finding for program index: regenerated here, with what the dead worker left. */
static void crash_finding(struct camp *c, uint64_t index, uint32_t phase, int status,
			  bool hang, char *log)
{
	struct fuzz_program_result pr = { 0 };
	struct gen_src src;
	struct gen_knobs def = gen_knobs_default();
	struct finding f = { 0 };
	struct outcome oc = { 0 };
	struct occ occ;

	gen_src_init_seed(&src, fuzz_program_seed(c->o.seed, index));
	pr.gen_err = phase == PH_GEN ? -1 : gen_program(&pr.gp, &src, c->o.knobs ? c->o.knobs : &def);
	f.kind = FIND_CRASH;
	set_origin(&f, c, index);
	f.prog_type = BPF_PROG_TYPE_XDP;
	snprintf(f.strategy, sizeof(f.strategy), "%s", strategy_name(c->o.strategy));
	snprintf(f.phase, sizeof(f.phase), "%s", phase_name(phase));
	finding_crash_class(f.crash, sizeof(f.crash), status, hang, log);
	f.log = log;
	if (!pr.gen_err) {
		f.insns = malloc(pr.gp.len * sizeof(*f.insns));
		f.maps = calloc(pr.gp.map_cnt ? pr.gp.map_cnt : 1, sizeof(*f.maps));
		if (f.insns && f.maps) {
			memcpy(f.insns, pr.gp.insns, pr.gp.len * sizeof(*f.insns));
			f.len = pr.gp.len;
			memcpy(f.maps, pr.gp.maps, pr.gp.map_cnt * sizeof(*f.maps));
			f.map_cnt = pr.gp.map_cnt;
			f.prog_type = pr.gp.prog_type;
		}
	}
	f.input = calloc(GEN_INPUT_LEN, 1);
	f.input_len = f.input ? GEN_INPUT_LEN : 0;
	f.helper = calloc(1, 1);
	snprintf(f.text, sizeof(f.text), "the %s phase %s on program %" PRIu64 ": %s",
		 phase_name(phase), hang ? "hung" : "died", index, f.crash);
	finding_signature(&f, NULL);
	oc.index = index;
	occ.kind = FIND_CRASH;
	occ.sig = f.sig.full;
	occ.f = &f;
	oc.occ = &occ;
	oc.nocc = f.len ? 1 : 0;	/* a program the generator cannot rebuild is not saved */
	if (!f.len)
		c->st.found[FIND_CRASH]++;
	consume(c, &oc);
	finding__free(&f);
	fuzz_program_result__free(&pr);
}

/* A worker is gone: find out why, and what happens to its batch. */
static int handle_death(struct pool *p, unsigned k)
{
	struct worker *wk = &p->w[k];
	struct camp *c = p->c;
	int status = 0, err = 0;
	uint32_t phase = wk->killed_hang ? wk->hang_phase : wk->w->phase;
	bool was_busy = wk->busy && wk->next < wk->b;
	/* the program in flight, from the shared page: outcomes travel in groups, so programs
	 * [next, cur) may be done but unreported (they run again) */
	uint64_t cur = wk->w->index;
	bool started = cur >= wk->next && cur < wk->b && phase != PH_IDLE;

	while (waitpid(wk->pid, &status, 0) < 0 && errno == EINTR)
		;
	close(wk->fd);
	wk->fd = -1;
	wk->pid = 0;
	c->st.workers--;
	if (was_busy && !started) {
		/* killed from outside between two programs: nobody to blame */
		err = queue_push(p, wk->next, wk->b, false, true);
	} else if (was_busy && wk->confirm) {
		crash_finding(c, cur, phase, status, wk->killed_hang, read_log(wk->log_fd));
	} else if (was_busy) {
		/* run it again alone; a crash that needs the programs before it is counted as
		 * unconfirmed, not saved */
		err = queue_push(p, cur + 1, wk->b, false, true);
		if (!err)
			err = queue_push(p, cur, cur + 1, true, true);
		if (!err && cur > wk->next)
			err = queue_push(p, wk->next, cur, false, true);
	}
	wk->busy = false;
	if (!err && !(c->o.stop && *c->o.stop >= 2) && !c->err)
		err = spawn(p, k);
	return err;
}

static int handle_msgs(struct pool *p, unsigned k)
{
	struct worker *wk = &p->w[k];
	size_t off = 0;
	int err = 0;

	while (wk->len - off >= 8) {
		uint32_t hdr[2];
		struct rd r;

		memcpy(hdr, wk->buf + off, sizeof(hdr));
		if (wk->len - off - 8 < hdr[1])
			break;
		r.p = wk->buf + off + 8;
		r.end = r.p + hdr[1];
		r.bad = false;
		if (hdr[0] == WMSG_OUTCOME) {
			struct outcome oc;

			if ((err = unpack_outcome(&r, p->c, &oc)))
				break;
			wk->next = oc.index + 1;
			consume(p->c, &oc);
			/* counted once the program is done (not when its findings could not be
			 * saved: a resume runs it again) */
			if (wk->confirm && oc.index == wk->a &&
			    done_next_gap(&p->c->done, oc.index) > oc.index)
				p->c->st.unconfirmed++;
			outcome_free(&oc);
		} else if (hdr[0] == WMSG_BATCH_DONE) {
			wk->busy = false;
		} else {
			err = -EPROTO;
			break;
		}
		off += 8 + hdr[1];
	}
	memmove(wk->buf, wk->buf + off, wk->len - off);
	wk->len -= off;
	return err;
}

static int read_worker(struct pool *p, unsigned k, bool *dead)
{
	struct worker *wk = &p->w[k];

	*dead = false;
	for (;;) {
		ssize_t r;

		if (wk->cap - wk->len < 65536) {
			size_t nc = wk->cap ? wk->cap * 2 : 262144;
			uint8_t *nb = realloc(wk->buf, nc);

			if (!nb)
				return -ENOMEM;
			wk->buf = nb;
			wk->cap = nc;
		}
		r = recv(wk->fd, wk->buf + wk->len, wk->cap - wk->len, MSG_DONTWAIT);
		if (r > 0) {
			wk->len += (size_t)r;
			continue;
		}
		if (r == 0) {
			*dead = true;
			break;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			break;
		*dead = true;	/* ECONNRESET */
		break;
	}
	return handle_msgs(p, k);
}

/* Kills workers stuck in one phase.  The analyzer has o.timeout of CPU time: a loaded machine
 * slows a worker down but does not make it use more CPU, so whether a program is a hang does
 * not depend on what else runs (a worker stuck without using the CPU is caught by the wall
 * clock, at ten times as long, at least 30 s).  The generator and the oracle, whose work is
 * bounded by step budgets, have that wall-clock limit. */
static void watchdog(struct pool *p)
{
	double t = wall_s(), slow = p->c->o.timeout * 10 > 30 ? p->c->o.timeout * 10 : 30;

	for (unsigned k = 0; k < p->n; k++) {
		struct worker *wk = &p->w[k];
		uint32_t ph = wk->w->phase;
		/* Z3 stops itself at its budget; the kernel's verifier at its 1M instructions */
		double limit = ph == PH_ORACLES ?
			       slow + 4 * (p->c->o.z3_budget > 0 ? p->c->o.z3_budget : 2) + 60 : slow;
		bool hung;

		if (!wk->pid || !wk->busy || wk->killed_hang || ph == PH_IDLE)
			continue;
		hung = t - wk->w->since > limit;
		if (ph == PH_ANALYZE && wk->has_cpu)
			hung |= clock_s(wk->cpu) - wk->w->cpu_since > p->c->o.timeout;
		else if (ph == PH_ANALYZE)
			hung |= t - wk->w->since > p->c->o.timeout;
		if (hung) {
			wk->killed_hang = true;
			wk->hang_phase = ph;
			kill(wk->pid, SIGKILL);
		}
	}
}

static bool any_busy(const struct pool *p)
{
	for (unsigned k = 0; k < p->n; k++)
		if (p->w[k].pid && p->w[k].busy)
			return true;
	return false;
}

static int open_log(const struct camp *c, unsigned k)
{
	char path[4200];
	int fd;

	if (c->o.crashes) {
		snprintf(path, sizeof(path), "%s/.worker-%u.log", c->o.crashes, k);
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
	} else {
		snprintf(path, sizeof(path), "/tmp/bpfscev-worker-XXXXXX");
		fd = mkostemp(path, O_APPEND | O_CLOEXEC);
		if (fd >= 0)
			unlink(path);
	}
	return fd;
}

static int run_pool(struct camp *c)
{
	struct pool p = { .c = c, .n = c->o.jobs };
	double drain_since = 0;
	int err = 0;

	p.w = calloc(p.n, sizeof(*p.w));
	p.pages = mmap(NULL, p.n * sizeof(struct watch), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!p.w || p.pages == MAP_FAILED) {
		free(p.w);
		return diag_set(c->d, ENOMEM, "out of memory");
	}
	for (unsigned k = 0; k < p.n; k++) {
		p.w[k].fd = -1;
		p.w[k].w = &p.pages[k];
		p.w[k].log_fd = open_log(c, k);
	}
	for (unsigned k = 0; k < p.n && !err; k++)
		err = spawn(&p, k);
	while (!err) {
		struct pollfd pfd[256];
		unsigned idx[256], np = 0;
		bool hard_stop = c->o.stop && *c->o.stop >= 2;

		if (stopping(c) && !p.draining) {
			p.draining = true;
			drain_since = wall_s();
		}
		/* the queue (re-runs) is worked off even while draining: they hold findings */
		for (unsigned k = 0; k < p.n && !err; k++)
			if (p.w[k].pid && !p.w[k].busy && !hard_stop &&
			    (!p.draining || p.nq))
				err = assign(&p, k);
		if (err)
			break;
		if (!any_busy(&p))
			break;
		if (hard_stop || (p.draining && wall_s() - drain_since > 5 && !p.nq))
			break;
		for (unsigned k = 0; k < p.n && np < 256; k++)
			if (p.w[k].pid) {
				pfd[np].fd = p.w[k].fd;
				pfd[np].events = POLLIN;
				idx[np++] = k;
			}
		if (poll(pfd, np, 100) < 0 && errno != EINTR) {
			err = diag_set(c->d, errno, "poll: %s", strerror(errno));
			break;
		}
		for (unsigned i = 0; i < np && !err; i++) {
			bool dead = false;

			if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			err = read_worker(&p, idx[i], &dead);
			if (!err && dead)
				err = handle_death(&p, idx[i]);
		}
		if (err && !c->err)
			diag_set(c->d, -err, "worker pool: %s", strerror(-err));
		watchdog(&p);
		report_progress(c, false);
	}
	/* Stop everyone: closing the socket ends an idle worker; a busy one is killed (its
	 * unfinished programs are not marked done, so a resume runs them again). */
	for (unsigned k = 0; k < p.n; k++) {
		if (!p.w[k].pid)
			continue;
		if (p.w[k].busy)
			kill(p.w[k].pid, SIGKILL);
		close(p.w[k].fd);
		while (waitpid(p.w[k].pid, NULL, 0) < 0 && errno == EINTR)
			;
		c->st.workers--;
	}
	for (unsigned k = 0; k < p.n; k++) {
		if (p.w[k].log_fd >= 0)
			close(p.w[k].log_fd);
		free(p.w[k].buf);
		if (c->o.crashes) {
			char path[4200];

			snprintf(path, sizeof(path), "%s/.worker-%u.log", c->o.crashes, k);
			unlink(path);
		}
	}
	munmap(p.pages, p.n * sizeof(struct watch));
	free(p.w);
	free(p.q);
	return err;
}

/* ---- the campaign ---- */

int fuzz_campaign(struct fuzz_stats *st, const struct fuzz_opts *uo, struct diag *d)
{
	struct camp *c = calloc(1, sizeof(*c));
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
		if ((err = lock_dir(c)))
			goto out;
		finding_dir_cleanup(c->o.crashes);
	}
	if (c->o.resume) {
		if (!c->o.crashes) {
			err = diag_set(d, EINVAL, "resuming needs the findings directory");
			goto out;
		}
		if ((err = read_state(c)))
			goto out;
		if (uo->count)	/* a new total for the campaign */
			c->o.count = uo->count;
	} else {
		c->st.next = c->o.first;
	}
	c->o.knobs = &c->knobs;
	fill_defaults(&c->o);
	fuzz_knobs_format(c->knobs_text, sizeof(c->knobs_text), &c->knobs);
	c->st.seed = c->o.seed;
	c->st.first = c->o.first;
	c->end = c->o.count ? c->o.first + c->o.count : UINT64_MAX;
	if (c->end < c->o.first)
		c->end = UINT64_MAX;
	c->cursor = done_next_gap(&c->done, c->o.first);
	c->seconds_before = c->st.seconds;
	c->t_start = wall_s();
	c->last_state = c->t_start;
	if (c->o.crashes && (err = write_state(c))) {
		diag_set_file(d, c->state_path);
		err = diag_set(d, -err, "cannot write the campaign state: %s", strerror(-err));
		goto out;
	}
	err = c->o.jobs ? run_pool(c) : run_inline(c);
	if (!err && c->err)
		err = c->err;
	report_progress(c, true);
out:
	*st = c->st;
	st->workers = 0;
	if (c->lock_fd >= 0)
		close(c->lock_fd);
	free(c->done.r);
	free(c);
	return err;
}
