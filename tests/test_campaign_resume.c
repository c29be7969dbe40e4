/* A campaign never loses a finding, whatever happens to it: the signatures saved by a campaign
 * that is stopped by a full disk and resumed after space is freed, or killed with SIGKILL at
 * random moments and resumed each time, are exactly those of the same campaign run without
 * interruption.
 *
 * Findings must be frequent for that to mean something, and the analyzer has none to give:
 * a test hook plants wrong claims (a range bound moved to a value the program never holds, a
 * trip maximum of 0 where the loop runs) in a third of the programs, which the oracle then
 * refutes — dozens of signatures in a few hundred programs, the same in every run.  The full
 * disk is a small tmpfs mounted for the test, sized from what the uninterrupted campaign
 * wrote (the part skips where mounting is refused).  The reference is the uninterrupted run's
 * directory listing, not any count the campaign keeps.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuzz/campaign.h"
#include "claims/range.h"
#include "tests/check.h"

#define PROGRAMS 300
#define MAX_SIGS 4096

static char tmp_root[256];

/* Wrong claims in every fifth program: one range claim becomes a value the program never
 * holds there, or a bounded loop claims a maximum of 0 header executions. */
static void plant(void *arg, uint64_t index, struct claim_prog *cp)
{
	(void)arg;
	if (index % 5)
		return;
	if (index % 10 == 0) {
		for (uint32_t i = (uint32_t)(index / 10 % 7); i < cp->nranges; i++)
			if (!cp->ranges[i].is_ptr) {
				cp->ranges[i].r = range_const(0x5eed0000u + (uint32_t)index);
				return;
			}
	}
	for (uint32_t l = 0; l < cp->nloops; l++)
		if (cp->loops[l].trip.kind != TRIP_UNKNOWN) {
			cp->loops[l].trip.kind = TRIP_BOUNDED;
			cp->loops[l].trip.min = 0;
			cp->loops[l].trip.max = 0;
			return;
		}
}

/* The kill test's campaign takes at least PROGRAMS * 10 ms / 2 workers = 1.5 s, on any
 * machine: the first kill (at most 1.2 s in) always lands in a running campaign. */
static void slow(void *arg, uint64_t index)
{
	(void)arg;
	(void)index;
	usleep(10000);
}

static void opts_init(struct fuzz_opts *o, const char *dir)
{
	memset(o, 0, sizeof(*o));
	o->sz = sizeof(*o);
	o->seed = 11;
	o->count = PROGRAMS;
	o->jobs = 2;
	o->batch = 8;
	o->oracle_runs = 1;
	o->step_budget = 2000;
	o->crashes = dir;
	o->plant = plant;
}

struct sigset {
	char *name[MAX_SIGS];
	unsigned n;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The finding directories (kind-signature) in dir, sorted. */
static void list_sigs(struct sigset *s, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	s->n = 0;
	while (d && (e = readdir(d)) && s->n < MAX_SIGS)
		if (e->d_name[0] != '.' && strchr(e->d_name, '-') && e->d_type == DT_DIR)
			s->name[s->n++] = strdup(e->d_name);
	if (d)
		closedir(d);
	qsort(s->name, s->n, sizeof(s->name[0]), cmp_str);
}

static void free_sigs(struct sigset *s)
{
	for (unsigned i = 0; i < s->n; i++)
		free(s->name[i]);
	s->n = 0;
}

static bool has_sig(const struct sigset *s, const char *name)
{
	return bsearch(&name, s->name, s->n, sizeof(s->name[0]), cmp_str) != NULL;
}

/* Signatures of ref missing from got (printed), and whether got has any ref does not. */
static unsigned lost_sigs(const struct sigset *ref, const struct sigset *got, const char *what)
{
	unsigned lost = 0;

	for (unsigned i = 0; i < ref->n; i++)
		if (!has_sig(got, ref->name[i])) {
			if (lost++ < 5)
				printf("  %s: lost %s\n", what, ref->name[i]);
		}
	for (unsigned i = 0; i < got->n; i++)
		CHECK(has_sig(ref, got->name[i]), "%s: %s is not a finding of the uninterrupted "
		      "run", what, got->name[i]);
	return lost;
}

static void rm_rf(const char *path)
{
	char cmd[700];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	if (system(cmd)) {
		/* leftovers in /tmp are harmless */
	}
}

/* 0 or the errno of mount(2). */
static int mount_tmpfs(const char *dir, unsigned long bytes, bool remount)
{
	char data[64];

	snprintf(data, sizeof(data), "size=%lu", bytes);
	return mount("tmpfs", dir, "tmpfs", remount ? MS_REMOUNT : 0, data) ? errno : 0;
}

static unsigned long used_bytes(const char *dir)
{
	struct statvfs sv;

	if (statvfs(dir, &sv))
		return 0;
	return (unsigned long)((sv.f_blocks - sv.f_bfree) * sv.f_frsize);
}

/* The uninterrupted campaign, in a tmpfs when one can be mounted (to measure what it
 * writes); NULL *skip when it could. */
static void reference(struct sigset *ref, struct fuzz_stats *st, unsigned long *used,
		      const char **skip)
{
	char mnt[400], dir[500];
	struct fuzz_opts o;
	struct diag d;
	int err;

	snprintf(mnt, sizeof(mnt), "%s/ref", tmp_root);
	snprintf(dir, sizeof(dir), "%s/crashes", mnt);
	mkdir(mnt, 0755);
	*used = 0;
	*skip = NULL;
	if ((err = mount_tmpfs(mnt, 256ul << 20, false)))
		*skip = strerror(err);
	opts_init(&o, dir);
	CHECK(!fuzz_campaign(st, &o, &d), "uninterrupted: %s", d.msg);
	list_sigs(ref, dir);
	if (!*skip) {
		*used = used_bytes(mnt);
		umount2(mnt, MNT_DETACH);
	}
	rm_rf(mnt);
	printf("uninterrupted: %" PRIu64 " programs, %" PRIu64 " findings, %u signatures saved "
	       "(%lu KiB)\n", st->programs, fuzz_stats_findings(st), ref->n, *used >> 10);
	CHECK(ref->n >= 20, "only %u signatures: the planted claims do not make enough findings",
	      ref->n);
}

/* Full disk: a tmpfs of a fraction of what the campaign needs fills up; the campaign stops
 * with ENOSPC; the tmpfs grows; the campaign resumes and must end with every signature. */
static unsigned full_disk(const struct sigset *ref, const struct fuzz_stats *ref_st,
			  unsigned long size)
{
	char mnt[400], dir[500], what[64];
	struct fuzz_opts o;
	struct fuzz_stats st;
	struct sigset got = { 0 };
	struct diag d;
	unsigned lost;
	int err;

	snprintf(mnt, sizeof(mnt), "%s/full-%lu", tmp_root, size);
	snprintf(dir, sizeof(dir), "%s/crashes", mnt);
	snprintf(what, sizeof(what), "full disk at %lu KiB", size >> 10);
	mkdir(mnt, 0755);
	if ((err = mount_tmpfs(mnt, size, false))) {
		CHECK(0, "mount %s: %s", mnt, strerror(err));
		return 0;
	}
	opts_init(&o, dir);
	err = fuzz_campaign(&st, &o, &d);
	CHECK(err == -ENOSPC, "%s: the campaign did not stop on a full disk: %d %s", what, err,
	      d.msg);
	err = mount_tmpfs(mnt, 256ul << 20, true);
	CHECK(!err, "remount: %s", strerror(err));
	o.resume = true;
	err = fuzz_campaign(&st, &o, &d);
	CHECK(!err, "%s: resumed: %s", what, d.msg);
	list_sigs(&got, dir);
	lost = lost_sigs(ref, &got, what);
	printf("%s: stopped, resumed: %u of %u signatures saved, %u lost; %" PRIu64 " programs, %"
	       PRIu64 " findings\n", what, got.n, ref->n, lost, st.programs,
	       fuzz_stats_findings(&st));
	CHECK(lost == 0, "%s: %u signatures lost", what, lost);
	CHECK_EQ_U64(st.programs, ref_st->programs, what);
	CHECK_EQ_U64(fuzz_stats_findings(&st), fuzz_stats_findings(ref_st), what);
	free_sigs(&got);
	umount2(mnt, MNT_DETACH);
	rm_rf(mnt);
	return lost;
}

/* SIGKILL at random moments, each time followed by a resume, until one run completes. */
static void killed(const struct sigset *ref)
{
	char dir[500], state[600];
	struct sigset got = { 0 };
	uint64_t rng = 0x6b696c6cull;
	unsigned kills = 0, rounds = 0, lost;
	bool done = false;

	snprintf(dir, sizeof(dir), "%s/killed", tmp_root);
	snprintf(state, sizeof(state), "%s/%s", dir, FUZZ_STATE_FILE);
	while (!done && rounds < 30) {
		pid_t pid;
		int status = 0;

		fflush(NULL);
		pid = fork();
		if (pid < 0) {
			CHECK(0, "fork: %s", strerror(errno));
			break;
		}
		if (pid == 0) {
			struct fuzz_opts o;
			struct fuzz_stats st;
			struct diag d;

			opts_init(&o, dir);
			o.fault = slow;
			o.resume = !access(state, F_OK);
			if (fuzz_campaign(&st, &o, &d)) {
				fprintf(stderr, "killed campaign: %s\n", d.msg);
				_exit(1);
			}
			_exit(0);
		}
		rounds++;
		if (rounds <= 8) {
			/* between 50 ms and 1.2 s: sometimes before the first state write */
			rng = rng * 6364136223846793005ull + 1442695040888963407ull;
			usleep(50000 + (useconds_t)((rng >> 33) % 1150000));
			kill(pid, SIGKILL);
		}
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
			kills++;
		else if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			done = true;
		else
			CHECK(0, "round %u: campaign ended with status %#x", rounds, status);
	}
	CHECK(done, "the campaign never completed in %u rounds", rounds);
	CHECK(kills >= 1, "no kill landed in a running campaign");
	list_sigs(&got, dir);
	lost = lost_sigs(ref, &got, "killed");
	printf("killed %u times and resumed: %u of %u signatures saved, %u lost\n", kills, got.n,
	       ref->n, lost);
	CHECK(lost == 0, "killed: %u signatures lost", lost);
	free_sigs(&got);
	rm_rf(dir);
}

int main(void)
{
	struct sigset ref = { 0 };
	struct fuzz_stats ref_st;
	unsigned long used;
	const char *skip;
	unsigned lost = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(tmp_root, sizeof(tmp_root), "/tmp/bpfscev-test-campaign-resume-%ld",
		 (long)getpid());
	mkdir(tmp_root, 0755);
	reference(&ref, &ref_st, &used, &skip);
	if (skip) {
		check_skip_part("full disk: cannot mount a tmpfs: %s", skip);
	} else {
		/* the disk fills at a sixth, a third, ... five sixths of the way (in pages) */
		for (unsigned q = 1; q <= 5; q++)
			lost += full_disk(&ref, &ref_st, (used * q / 6 + 4095) & ~4095ul);
		printf("full disk: %u signatures lost in all\n", lost);
	}
	killed(&ref);
	free_sigs(&ref);
	if (!check_failures)
		rm_rf(tmp_root);
	else
		fprintf(stderr, "test_campaign_resume: files kept in %s\n", tmp_root);
	return check_done("test_campaign_resume");
}
