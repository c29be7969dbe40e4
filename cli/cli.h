/* The bpfscev command: one file per subcommand (cmd_<name>.c), thin over the libraries.
 * Exit codes: 0 ok, 1 a finding or difference, 2 usage or input error.
 */
#ifndef BPFSCEV_CLI_H
#define BPFSCEV_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bpf/prog.h"
#include "casefile/casefile.h"

enum { CLI_OK = 0, CLI_FINDING = 1, CLI_USAGE = 2 };

struct cli_cmd {
	const char *name;
	const char *summary;	/* one line for "bpfscev --help" */
	int (*run)(int argc, char **argv);	/* argv[0] is the subcommand name */
};

/* Opens FILE (any format) and reports errors on stderr with their location; NULL on error. */
struct ebpf_object *cli_open(const char *path);
/* The same with a data file's sections (casefile.h); NULL on error. */
struct casefile *cli_open_case(const char *path);
/* The programs to work on: the one named by --prog, or all.  Prints an error and returns -1
 * when the name is unknown. */
int cli_select_progs(const struct ebpf_object *obj, const char *name,
		     const struct ebpf_prog ***out, size_t *cnt);
/* --type names: xdp, socket, tc, plain → enum bpf_prog_type; UINT32_MAX when unknown. */
uint32_t cli_prog_type(const char *name);
/* True when argv[i] is --help or -h. */
bool cli_is_help(const char *arg);
/* Reads a whole file (or "-" for stdin); NULL with a message on stderr that names the path and
 * says why ("is a directory", the errno's text). */
char *cli_read_file(const char *path, size_t *len);

/* The one parser of numeric option values: decimal or 0x-hexadecimal digits only (no sign, no
 * blanks, no suffix, no octal), within [lo, hi].  Returns 0, or -1 after printing
 * "bpfscev CMD: option OPT: 'S' is not a number in [lo, hi]" on stderr (the caller exits 2). */
int cli_parse_u64(const char *cmd, const char *opt, const char *s, uint64_t lo, uint64_t hi,
		  uint64_t *out);
/* The same into a uint32_t or unsigned (hi must fit). */
int cli_parse_u32(const char *cmd, const char *opt, const char *s, uint32_t lo, uint32_t hi,
		  uint32_t *out);
/* A finite decimal number (e.g. seconds: "0.5", "2") within [lo, hi]; messages as above. */
int cli_parse_double(const char *cmd, const char *opt, const char *s, double lo, double hi,
		     double *out);

/* One line per subcommand, in the order "bpfscev --help" lists them. */
#define CLI_COMMANDS(X)                                                                     \
	X(loops, "find the loops: headers, back edges, latches, exits, irreducible cycles")  \
	X(analyze, "recurrences, trip counts and value ranges of every loop, as claims")    \
	X(check, "check claims against concrete runs on many inputs")                       \
	X(verify, "one-pass safety verdict, against the kernel's and against execution")   \
	X(corpus, "the regression corpus: add a finding as a case, run cases")               \
	X(asm, "assemble text (kernel, LLVM, objdump or ubpf syntax) to raw instruction bytes") \
	X(disasm, "print programs in the kernel verifier log's syntax (assembles back unchanged)") \
	X(kernel, "load into the running kernel: verdict, verifier log and stats, test run") \
	X(gen, "print generated loop programs with their intended loops and trip counts") \
	X(fuzz, "the campaign: generate loop programs, analyze, check every claim, save findings") \
	X(replay, "reproduce a saved finding (exit 1 while it still holds)") \
	X(reduce, "shrink a saved finding's program while the finding still holds") \
	X(run, "run a program on the interpreter: r0, or every register, steps and trap") \


#define CLI_DECLARE(name, summary) int cmd_##name(int argc, char **argv);
CLI_COMMANDS(CLI_DECLARE)
#undef CLI_DECLARE

#endif
