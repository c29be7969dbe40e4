/* What a campaign refuses rather than guesses at:
 *  1. a findings directory another campaign is using (its state file would be written over
 *     and programs skipped): the second one is refused, with the directory and the first
 *     one's pid in the message, and takes the directory once the first is gone — also after a
 *     kill -9, which leaves no stale lock;
 *  2. a damaged campaign.state (a bad number, an unknown strategy or key, a line cut short, a
 *     key missing...): resuming is an error naming the file and the line, never a campaign
 *     resumed with defaults; what the writer writes, every setting included, reads back;
 *  3. bpfscev fuzz with a number option that is not one (--runs 0, --seed abc, --jobs -1, ...):
 *     exit 2 naming the option.
 * Parts 1 and 2 are checked through the library and through the bpfscev binary
 * (BPFSCEV_BIN, set by ctest; those parts skip with a line without it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz/campaign.h"
#include "tests/check.h"

static char tmp_root[256];
static const char *bin;

static void rm_rf(const char *path)
{
	char cmd[700];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	if (system(cmd)) {
		/* leftovers in /tmp are harmless */
	}
}

/* Runs "bpfscev fuzz ARGS" (shell words), its stderr into *err (caller frees); the exit code,
 * or -1 when it did not exit. */
static int run_cli(const char *args, char **err)
{
	char cmd[2048], path[400];
	FILE *fp;
	long n;
	int st;

	snprintf(path, sizeof(path), "%s/stderr", tmp_root);
	snprintf(cmd, sizeof(cmd), "'%s' fuzz --quiet %s >/dev/null 2>'%s'", bin, args, path);
	st = system(cmd);
	*err = NULL;
	fp = fopen(path, "r");
	if (fp) {
		fseek(fp, 0, SEEK_END);
		n = ftell(fp);
		rewind(fp);
		*err = calloc(1, (size_t)(n > 0 ? n : 0) + 1);
		if (*err && n > 0 && fread(*err, 1, (size_t)n, fp) != (size_t)n)
			(*err)[0] = '\0';
		fclose(fp);
	}
	if (!*err)
		*err = calloc(1, 1);
	return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf;
	long n;

	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	buf = calloc(1, (size_t)(n > 0 ? n : 0) + 1);
	if (buf && n > 0 && fread(buf, 1, (size_t)n, fp) != (size_t)n)
		buf[0] = '\0';
	fclose(fp);
	return buf;
}

static void spit(const char *path, const char *text, size_t len)
{
	FILE *fp = fopen(path, "w");

	CHECK(fp && fwrite(text, 1, len, fp) == len, "write %s", path);
	if (fp)
		fclose(fp);
}

/* ---- 1. one campaign per findings directory ---- */

static int ready_fd = -1;

/* The first campaign tells the test it holds the directory, then stays in its first program
 * until killed. */
static void hold(void *arg, uint64_t index)
{
	(void)arg;
	if (index == 0 && ready_fd >= 0) {
		if (write(ready_fd, "x", 1) != 1)
			_exit(3);
		for (;;)
			pause();
	}
}

static void test_lock(void)
{
	char dir[400], want_pid[32];
	struct fuzz_opts o = { .sz = sizeof(o), .seed = 5, .count = 4, .oracle_runs = 1 };
	struct fuzz_stats st;
	struct diag d;
	int pfd[2], err;
	pid_t pid;
	char c;

	snprintf(dir, sizeof(dir), "%s/locked", tmp_root);
	o.crashes = dir;
	CHECK(!pipe(pfd), "pipe");
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		ready_fd = pfd[1];
		o.fault = hold;
		fuzz_campaign(&st, &o, &d);
		_exit(0);
	}
	close(pfd[1]);
	CHECK(read(pfd[0], &c, 1) == 1, "the first campaign did not start");
	close(pfd[0]);
	snprintf(want_pid, sizeof(want_pid), "pid %ld", (long)pid);

	err = fuzz_campaign(&st, &o, &d);
	CHECK(err == -EBUSY, "a second campaign on %s: %d (%s)", dir, err, d.msg);
	CHECK(!strcmp(d.file, dir), "the message names '%s', not the directory", d.file);
	CHECK(strstr(d.msg, want_pid) != NULL, "the message does not name the holder (%s): %s",
	      want_pid, d.msg);
	o.resume = true;
	err = fuzz_campaign(&st, &o, &d);
	CHECK(err == -EBUSY, "a second campaign resuming %s: %d (%s)", dir, err, d.msg);
	o.resume = false;
	if (bin) {
		char args[600], *msg;
		int code;

		snprintf(args, sizeof(args), "--runs 4 --crashes '%s'", dir);
		code = run_cli(args, &msg);
		CHECK(code == 2 && strstr(msg, dir) && strstr(msg, want_pid),
		      "bpfscev fuzz on a held directory: exit %d, '%s'", code, msg);
		free(msg);
	}
	/* the holder is killed: nothing is left holding the directory */
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	err = fuzz_campaign(&st, &o, &d);
	CHECK(!err, "after the holder was killed: %s", d.msg);
	CHECK_EQ_U64(st.programs + st.gen_failures, 4, "the campaign after the holder");
	rm_rf(dir);
}

/* ---- 2. a damaged state file ---- */

/* The line (1-based) of the state text that starts with key, 0 when none. */
static int line_of(const char *text, const char *key)
{
	size_t kl = strlen(key);
	int line = 1;

	for (const char *p = text; *p; line++) {
		if (!strncmp(p, key, kl))
			return line;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return 0;
}

/* text with the line that starts with key replaced by repl (NULL: removed); caller frees. */
static char *with_line(const char *text, const char *key, const char *repl)
{
	const char *at = text;
	size_t kl = strlen(key);
	char *out = malloc(strlen(text) + (repl ? strlen(repl) : 0) + 2);
	const char *eol;

	while (at && strncmp(at, key, kl)) {
		at = strchr(at, '\n');
		if (at)
			at++;
	}
	if (!at) {
		strcpy(out, text);
		return out;
	}
	eol = strchr(at, '\n');
	memcpy(out, text, (size_t)(at - text));
	out[at - text] = '\0';
	if (repl) {
		strcat(out, repl);
		strcat(out, "\n");
	}
	if (eol)
		strcat(out, eol + 1);
	return out;
}

struct damage {
	const char *what;
	const char *key;	/* the line changed */
	const char *repl;	/* its new text; NULL: the line is removed */
	bool no_line;		/* the error has no line (a missing key) */
};

static void test_damaged_state(void)
{
	static const struct damage dmg[] = {
		{ "a seed that is not a number", "seed:", "seed: abc" },
		{ "a seed with garbage after it", "seed:", "seed: 12x" },
		{ "a negative count", "count:", "count: -1" },
		{ "an unknown strategy", "strategy:", "strategy: sideways" },
		{ "an unknown key", "runs:", "colour: blue" },
		{ "a line without a key", "steps:", "steps 10000" },
		{ "an empty number", "next:", "next: " },
		{ "a bad knob", "knobs:", "knobs: p_wrap=abc" },
		{ "an unknown knob", "knobs:", "knobs: p_nothing=3" },
		{ "too few counts", "found:", "found: 1 2" },
		{ "a backwards range of done programs", "done:", "done: 9-3" },
		{ "oracle settings cut short", "oracles:", "oracles: z3=1 kernel=0" },
		{ "an oracle switch that is not 0 or 1", "oracles:",
		  "oracles: z3=7 kernel=0 z3_timeout_ms=500 z3_budget=2.000" },
		{ "a bad number of seconds", "seconds:", "seconds: soon" },
		{ "a missing seed", "seed:", NULL, true },
		{ "a missing next", "next:", NULL, true },
	};
	struct fuzz_opts o = { .sz = sizeof(o), .seed = 77, .count = 6, .oracle_runs = 1,
			       .strategy = SCEV_ITERATE, .z3_rlimit = 1234,
			       .z3_program_rlimit = 56789, .z3_timeout_ms = 321,
			       .unprivileged = true };
	char dir[400], state[500], *good, *after;
	struct fuzz_stats st;
	struct diag d;
	int err;

	snprintf(dir, sizeof(dir), "%s/state", tmp_root);
	snprintf(state, sizeof(state), "%s/%s", dir, FUZZ_STATE_FILE);
	o.crashes = dir;
	CHECK(!fuzz_campaign(&st, &o, &d), "campaign: %s", d.msg);
	good = slurp(state);
	CHECK(good != NULL, "no %s", state);
	if (!good)
		return;

	/* what the writer writes reads back: every setting, the resource limits included */
	o.resume = true;
	o.count = 0;
	o.seed = 1;
	o.strategy = SCEV_FORGET;
	o.z3_rlimit = 0;
	o.z3_program_rlimit = 0;
	o.z3_timeout_ms = 0;
	o.unprivileged = false;
	CHECK(!fuzz_campaign(&st, &o, &d), "resume of a good state: %s", d.msg);
	after = slurp(state);
	CHECK(after && line_of(after, "seed: 77") && line_of(after, "strategy: iterate") &&
	      line_of(after, "count: 6") && strstr(after, " z3_timeout_ms=321 ") &&
	      strstr(after, " z3_rlimit=1234 ") && strstr(after, " z3_program_rlimit=56789 ") &&
	      strstr(after, " unprivileged=1\n"),
	      "the resumed campaign's state lost a setting:\n%s", after ? after : "");
	free(after);
	/* a state written before rule-gap findings (FUZZ_KINDS_BEFORE counts) reads back, the new
	 * kind at 0 */
	{
		char *old = with_line(good, "found:", "found: 0 0 0 0 0 0 0 3");

		spit(state, old, strlen(old));
		CHECK(!fuzz_campaign(&st, &o, &d) && st.found[FIND_VERDICT] == 3 &&
		      st.found[FIND_RULE_GAP] == 0, "a state of %d finding kinds: %s (verdict %llu)",
		      FUZZ_KINDS_BEFORE, d.msg, (unsigned long long)st.found[FIND_VERDICT]);
		free(old);
		spit(state, good, strlen(good));
	}

	/* a line cut short: the file ends in the middle of the knobs line */
	{
		const char *k = strstr(good, "\nstrategy:");
		int line = line_of(good, "strategy:");

		spit(state, good, (size_t)(k - good) + 5);
		err = fuzz_campaign(&st, &o, &d);
		CHECK(err == -EINVAL && d.line == line && strstr(d.file, FUZZ_STATE_FILE),
		      "a truncated line: %d, %s:%d: %s (line %d expected)", err, d.file, d.line,
		      d.msg, line);
	}
	for (size_t i = 0; i < sizeof(dmg) / sizeof(dmg[0]); i++) {
		char *bad = with_line(good, dmg[i].key, dmg[i].repl);
		int line = dmg[i].no_line ? 0 : line_of(good, dmg[i].key);

		spit(state, bad, strlen(bad));
		err = fuzz_campaign(&st, &o, &d);
		CHECK(err == -EINVAL && d.line == line && strstr(d.file, FUZZ_STATE_FILE),
		      "%s: %d, %s:%d: %s (line %d expected)", dmg[i].what, err, d.file, d.line,
		      d.msg, line);
		CHECK(!dmg[i].no_line || strstr(d.msg, dmg[i].key), "%s: '%s' does not name %s",
		      dmg[i].what, d.msg, dmg[i].key);
		if (bin) {
			char args[600], *msg, where[600];
			int code;

			snprintf(args, sizeof(args), "--resume --crashes '%s'", dir);
			if (line)
				snprintf(where, sizeof(where), "%s:%d:", state, line);
			else
				snprintf(where, sizeof(where), "%s:", state);
			code = run_cli(args, &msg);
			CHECK(code == 2 && strstr(msg, where), "bpfscev fuzz --resume with %s: "
			      "exit %d, '%s' (wanted '%s')", dmg[i].what, code, msg, where);
			free(msg);
		}
		free(bad);
	}
	/* and the state was left as it was found: nothing resumed over it */
	after = slurp(state);
	CHECK(after && line_of(after, "seed:") && !line_of(after, "next:"),
	      "the last damaged state (no next: line) was changed");
	free(after);
	free(good);
	rm_rf(dir);
}

/* ---- 3. number options ---- */

static void test_options(void)
{
	static const char *const bad[][2] = {
		{ "--runs 0", "--runs" },		{ "--runs abc", "--runs" },
		{ "--runs ''", "--runs" },		{ "--runs -5", "--runs" },
		{ "--runs 12x", "--runs" },		{ "--seed abc", "--seed" },
		{ "--seed -1", "--seed" },		{ "--first 1e3", "--first" },
		{ "--jobs -1", "--jobs" },		{ "--jobs 257", "--jobs" },
		{ "--time abc", "--time" },		{ "--time 0", "--time" },
		{ "--time nan", "--time" },		{ "--inputs 0", "--inputs" },
		{ "--inputs 99999999999", "--inputs" },	{ "--steps abc", "--steps" },
		{ "--timeout -1", "--timeout" },	{ "--z3-timeout x", "--z3-timeout" },
		{ "--z3-budget 0", "--z3-budget" },	{ "--z3-rlimit abc", "--z3-rlimit" },
		{ "--z3-program-rlimit 0", "--z3-program-rlimit" },
		{ "--knob p_wrap=abc", "--knob" },	{ "--strategy sideways", "--strategy" },
		{ "--runs 99999999999999999999", "--runs" },
	};
	char dir[400];

	snprintf(dir, sizeof(dir), "%s/options", tmp_root);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char args[700], *msg;
		int code;

		snprintf(args, sizeof(args), "%s --crashes '%s'", bad[i][0], dir);
		code = run_cli(args, &msg);
		CHECK(code == 2 && strstr(msg, bad[i][1]), "bpfscev fuzz %s: exit %d, '%s'",
		      bad[i][0], code, msg);
		free(msg);
	}
	/* the control: good values in the same forms run */
	{
		char args[700], *msg;
		int code;

		snprintf(args, sizeof(args), "--runs 0x3 --seed 5 --jobs 0 --inputs 1 --steps 500 "
			 "--timeout 1.5 --knob p_wrap=10 --crashes '%s'", dir);
		code = run_cli(args, &msg);
		CHECK(code == 0 || code == 1, "bpfscev fuzz with good values: exit %d, '%s'", code,
		      msg);
		free(msg);
	}
	rm_rf(dir);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(tmp_root, sizeof(tmp_root), "/tmp/bpfscev-test-campaign-state-%ld",
		 (long)getpid());
	mkdir(tmp_root, 0755);
	bin = getenv("BPFSCEV_BIN");
	if (bin && access(bin, X_OK))
		bin = NULL;
	if (!bin)
		check_skip_part("the bpfscev binary (BPFSCEV_BIN is not set): library checks only");
	test_lock();
	test_damaged_state();
	if (bin)
		test_options();
	if (!check_failures)
		rm_rf(tmp_root);
	else
		fprintf(stderr, "test_campaign_state: files kept in %s\n", tmp_root);
	return check_done("test_campaign_state");
}
