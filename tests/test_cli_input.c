/* What a user gets wrong, end to end through the bpfscev binary: numbers that are not numbers,
 * a directory where a file belongs, a bad '-- input' section, corpus runs with nothing or
 * something broken to run, a kernel test run the kernel refuses.  Each must end with exit 2 and
 * a message naming the option, the file and the line, never with a crash (the binary carries
 * the sanitizers in the test build, so a crash is an abort, not exit 2).  The expected texts are
 * the ones the command promises in its messages, written here by hand; the right values for
 * accepted numbers come from counting what the command printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "oracle/kernel/kernel.h"
#include "tests/check.h"

static const char *bin;
static char tmp[64] = "/tmp/bpfscev-cli-input-XXXXXX";

/* Runs bin with argv (NULL-terminated, argv[0] included); *out gets stdout and stderr together.
 * The exit code, or 128 + the signal that ended it. */
static int cli(char **out, const char *const *argv)
{
	int fds[2], status;
	char *buf = NULL;
	size_t cap = 0, n = 0;
	ssize_t got;
	pid_t pid;

	*out = NULL;
	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	do {
		if (n + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 65536);

			if (!nb)
				break;
			buf = nb;
		}
		got = read(fds[0], buf + n, cap - n - 1);
		if (got > 0)
			n += (size_t)got;
	} while (got > 0 || (got < 0 && errno == EINTR));
	close(fds[0]);
	if (buf)
		buf[n] = '\0';
	*out = buf ? buf : strdup("");
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Runs the command and checks its exit code and that its output holds every one of the
 * NULL-terminated strings after want. */
#define EXPECT(rc, want, ...) expect(__LINE__, rc, (const char *const[]){ want, NULL }, \
				     (const char *const[]){ "bpfscev", __VA_ARGS__, NULL })

static void expect(int line, int rc, const char *const *want, const char *const *argv)
{
	char cmd[512] = "", *out;
	int got = cli(&out, argv);

	for (size_t i = 1; argv[i]; i++)
		snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), " %s", argv[i]);
	/* the output is shown up to 2000 bytes: a verifier log can be hundreds of MB */
	CHECK(got == rc, "line %d: bpfscev%s: exit %d, expected %d; output:\n%.2000s", line, cmd,
	      got, rc, out);
	for (size_t i = 0; want[i]; i++)
		CHECK(strstr(out, want[i]), "line %d: bpfscev%s: no '%s' in:\n%.2000s", line,
		      cmd, want[i], out);
	free(out);
}

static const char *write_file(const char *name, const char *text)
{
	static char paths[16][128];
	static unsigned next;
	char *p = paths[next++ % 16];
	FILE *f;

	snprintf(p, sizeof(paths[0]), "%s/%s", tmp, name);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return p;
}

static const char *make_dir(const char *name)
{
	static char paths[8][128];
	static unsigned next;
	char *p = paths[next++ % 8];

	snprintf(p, sizeof(paths[0]), "%s/%s", tmp, name);
	mkdir(p, 0755);
	return p;
}

/* Every numeric option refuses what is not a number in its range, naming command and option. */
static void numbers(const char *prog, const char *dir)
{
	EXPECT(2, "bpfscev check: option --runs: 'abc' is not a number in [", "check", prog,
	       "--runs", "abc");
	EXPECT(2, "bpfscev check: option --seed: '-1' is not a number in [", "check", prog,
	       "--seed", "-1");
	EXPECT(2, "bpfscev check: option --steps: '' is not a number in [", "check", prog,
	       "--steps", "");
	EXPECT(2, "bpfscev check: option --timeout: '10ms' is not a number in [", "check", prog,
	       "--z3", "--timeout", "10ms");
	EXPECT(2, "bpfscev check: option --depth: '0' is not a number in [1, ", "check", prog,
	       "--z3", "--depth", "0");
	EXPECT(2, "bpfscev check: option --runs: '99999999999999999999' is not a number in [",
	       "check", prog, "--runs", "99999999999999999999");
	EXPECT(2, "bpfscev replay: option --inputs: 'abc' is not a number in [", "replay", dir,
	       "--inputs", "abc");
	EXPECT(2, "bpfscev replay: option --timeout: 'nan' is not a number in [", "replay", dir,
	       "--timeout", "nan");
	EXPECT(2, "bpfscev reduce: option --max-tests: '-5' is not a number in [", "reduce", dir,
	       "--max-tests", "-5");
	EXPECT(2, "bpfscev reduce: option --timeout: ' 1' is not a number in [", "reduce", dir,
	       "--timeout", " 1");
	EXPECT(2, "bpfscev gen: option --count: '-1' is not a number in [1, ", "gen", "--count",
	       "-1");
	EXPECT(2, "bpfscev gen: option --seed: '0x' is not a number in [", "gen", "--seed", "0x");
	EXPECT(2, "bpfscev gen: option --knob loops: '3x' is not a number in [", "gen", "--knob",
	       "loops=3x");
	EXPECT(2, "bpfscev kernel: option --repeat: '0' is not a number in [1, ", "kernel", prog,
	       "--repeat", "0");
	EXPECT(2, "bpfscev kernel: option --runs: 'abc' is not a number in [", "kernel", prog,
	       "--diff", "--runs", "abc");
	EXPECT(2, "bpfscev run: option --steps: '1e3' is not a number in [", "run", prog,
	       "--steps", "1e3");
	EXPECT(2, "bpfscev corpus run: option --rlimit: 'abc' is not a number in [", "corpus",
	       "run", "--rlimit", "abc", prog);

	/* and what is a number is read as one: 0x10 is 16, 010 is ten (not octal 8) */
	EXPECT(0, "; seed 16\n", "gen", "--seed", "0x10");
	{
		char *out;
		int rc = cli(&out, (const char *const[]){ "bpfscev", "gen", "--count", "010",
							  NULL });

		CHECK(rc == 0 && strstr(out, "; seed 9\n") && !strstr(out, "; seed 10\n"),
		      "gen --count 010: exit %d, not seeds 0 to 9:\n%s", rc, out);
		free(out);
	}
}

/* A directory where a file belongs: said so, for the program FILE and for other file options. */
static void directories(const char *dir)
{
	static const char *const cmds[] = { "loops", "analyze", "check", "disasm", "run", "asm" };

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char want[256];

		snprintf(want, sizeof(want), "%s: is a directory", dir);
		EXPECT(2, want, cmds[i], dir);
	}
	{
		char want[256];
		const char *prog = write_file("one.s", "r0 = 1\nexit\n");

		snprintf(want, sizeof(want), "%s: is a directory", dir);
		EXPECT(2, want, "run", prog, "--input-file", dir);
		EXPECT(2, want, "check", prog, "--claims", dir);
		EXPECT(2, want, "gen", "--bytes", dir);
		/* verify walks a directory for ELF objects: one holding only text programs (or
		 * nothing) is a user's mistake, said as such (it printed nothing and exited 0) */
		write_file("adir/one.s", "r0 = 1\nexit\n");
		snprintf(want, sizeof(want), "bpfscev verify: %s: no ELF object in the directory", dir);
		EXPECT(2, want, "verify", dir);
	}
}

/* A bad '-- input' section is reported at its line in the file, not in the section. */
static void input_section(void)
{
	const char *f = write_file("badin.case", "# two lines before the program\n\n"
						 "-- asm\nr0 = 1\nexit\n"
						 "-- input\n00 01\n0z\n");
	char want[256];

	snprintf(want, sizeof(want), "%s:8:2: expected a pair of hex digits", f);
	EXPECT(2, want, "run", f);
	EXPECT(2, "--input:1:4: expected a pair of hex digits", "run", f, "--input", "00 g");
	EXPECT(2, "--input:1:1: expected a pair of hex digits", "check", f, "--input", "x");
	EXPECT(0, "1\n", "run", write_file("goodin.case", "-- asm\nr0 = *(u8 *)(r1 + 1)\n"
							    "exit\n-- input\n00 01\n"));
}

/* check --z3 on a program whose context Z3 does not encode (a raw tracepoint's) says so: it
 * printed no Z3 line at all before. */
static void z3_not_run(void)
{
	const char *f = write_file("rawtp.case", "-- type\nraw_tp\n-- asm\nr1 = 0\n"
				   "l: r1 += 1\nif r1 < 10 goto l\nr0 = 0\nexit\n");

	EXPECT(0, "rawtp: z3: not run: its encoding covers the plain, XDP and skb contexts",
	       "check", "--z3", f);
}

static void corpus(void)
{
	const char *empty = make_dir("empty"), *good = make_dir("good"), *bad = make_dir("bad");
	const char *missing, *broken, *failing;
	char want[256], want2[256];

	/* nothing to run: which directory had no case */
	snprintf(want, sizeof(want), "%s: no *.case files", empty);
	EXPECT(2, want, "corpus", "run", "--no-z3", empty);
	EXPECT(2, "usage: bpfscev corpus", "corpus", "run");

	/* a case that is not there, and one whose program does not assemble (line 4) */
	missing = write_file("gone.case", "");
	unlink(missing);
	snprintf(want, sizeof(want), "%s: cannot open", missing);
	EXPECT(2, want, "corpus", "run", "--no-z3", missing);
	broken = write_file("bad/broken.case", "# c\n-- asm\nr0 = 1\nr0 +== 2\nexit\n");
	snprintf(want, sizeof(want), "%s:4:", broken);
	EXPECT(2, want, "corpus", "run", "--no-z3", broken);
	EXPECT(2, want, "corpus", "run", "--no-z3", bad);
	/* sections the runner cannot read: bad hex at line 7, a trip line without a count */
	broken = write_file("badhex.case", "-- asm\nr1 = 0\nl: r1 += 1\nif r1 < 10 goto l\n"
					   "exit\n-- input\n0q\n");
	snprintf(want, sizeof(want), "%s:7: bad hex input", broken);
	EXPECT(2, want, "corpus", "run", "--no-z3", broken);
	broken = write_file("badtrip.case", "-- asm\nr1 = 0\nl: r1 += 1\nif r1 < 10 goto l\n"
					    "exit\n-- trip\n\n1: exactly\n");
	snprintf(want, sizeof(want), "%s:8: expected '<header>: exact N", broken);
	EXPECT(2, want, "corpus", "run", "--no-z3", broken);
	broken = write_file("bad/broken.case", "# c\n-- asm\nr0 = 1\nr0 +== 2\nexit\n");

	/* a good case passes, a case whose expectation does not hold fails with 1 (its line) */
	write_file("good/loop.case", "-- asm\nr1 = 0\nl: r1 += 1\nif r1 < 10 goto l\nr0 = r1\n"
				     "exit\n-- trip\n1: exact 10\n");
	EXPECT(0, "1 case(s), 0 failure(s)", "corpus", "run", "--no-z3", good);
	/* options stand anywhere among the paths; an unknown one is named */
	EXPECT(0, "1 case(s), 0 failure(s)", "corpus", "run", good, "--no-z3");
	EXPECT(2, "unknown or incomplete option '--bogus'", "corpus", "run", good, "--bogus");
	failing = write_file("fails.case", "-- asm\nr1 = 0\nl: r1 += 1\nif r1 < 10 goto l\n"
					   "r0 = r1\nexit\n-- trip\n1: exact 11\n");
	snprintf(want, sizeof(want), "%s:8:", failing);
	EXPECT(1, want, "corpus", "run", "--no-z3", failing);
	/* a broken case beside a failing one: what cannot be judged wins */
	snprintf(want2, sizeof(want2), "%s:4:", broken);
	expect(__LINE__, 2, (const char *const[]){ want, want2, NULL },
	       (const char *const[]){ "bpfscev", "corpus", "run", "--no-z3", failing, broken,
				      NULL });
}

/* The kernel: a test run it refuses names the file; a walk to the verifier's limit is reported
 * with its message and statistics, and with --log the whole log. */
static void kernel(void)
{
	const char *prog = write_file("ret.s", "r0 = 7\nexit\n");
	const char *spin = write_file("spin.s", "r0 = 0\nl: r0 += 1\nja l\n");
	char why[256], want[256];

	if (!kernel_available(why, sizeof(why))) {
		check_skip_part("kernel: %s", why);
		return;
	}
	/* XDP needs at least an Ethernet header of packet: 2 bytes are refused */
	snprintf(want, sizeof(want), "%s: program 'ret': test run:", prog);
	EXPECT(2, want, "kernel", prog, "--type", "xdp", "--input", "0011");
	EXPECT(0, "\n7\n", "kernel", prog);
	expect(__LINE__, 1, (const char *const[]){ "BPF program is too large",
						  "processed 1000001 insns", NULL },
	       (const char *const[]){ "bpfscev", "kernel", spin, NULL });
	/* the whole log: its head is there and it is not marked truncated */
	expect(__LINE__, 1, (const char *const[]){ "--- verifier log ---\n", "\n0: (b7) r0 = 0",
						  "BPF program is too large", NULL },
	       (const char *const[]){ "bpfscev", "kernel", spin, "--log", NULL });
}

int main(void)
{
	const char *prog, *dir;

	bin = getenv("BPFSCEV_BIN");
	if (!bin || access(bin, X_OK))
		return check_skip("test_cli_input", "no bpfscev binary (BPFSCEV_BIN unset)");
	if (!mkdtemp(tmp))
		return check_skip("test_cli_input", "cannot create a directory under /tmp");
	prog = write_file("loop.s", "r1 = 0\nl: r1 += 1\nif r1 < 10 goto l\nr0 = r1\nexit\n");
	dir = make_dir("adir");
	numbers(prog, dir);
	directories(dir);
	input_section();
	z3_not_run();
	corpus();
	kernel();
	{
		char cmd[200];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
		if (system(cmd))
			fprintf(stderr, "could not remove %s\n", tmp);
	}
	return check_done("test_cli_input");
}
