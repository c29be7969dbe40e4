/* Findings on disk: one directory per unique refuted claim or analyzer crash, self-contained
 * enough to reproduce it years later (crashes/README.md describes the format for users).
 *
 * Every oracle writes through here — the concrete checker, the campaign, the Z3 oracle, the
 * kernel differential and the verdict oracle — so a finding looks the same whoever found it and
 * `bpfscev replay` / `bpfscev reduce` work on all of them.  A directory is crashes/<kind>-<16 hex digits>/ named by
 * a signature: a hash of what kind of claim failed and where in the loop structure, never of pcs
 * or constants, so the thousandth program showing the same bug lands on the same name and is
 * counted, not saved again.  Directories appear atomically: written under .tmp-*, then renamed.
 *
 * Files: prog.s (kernel syntax, assembles back to prog.bin), prog.bin (raw slots), input.hex and
 * helper.hex (the run that shows it), claims.json (every claim of the analyzed program, so the
 * original claim can be re-checked after the analyzer changes), finding.txt (key: value lines),
 * replay.sh, and for crashes stderr.txt (the sanitizer or signal report).
 */
#ifndef BPFSCEV_TRIAGE_FINDING_H
#define BPFSCEV_TRIAGE_FINDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf/prog.h"
#include "oracle/exec/check.h"
#include "claims/claims.h"
#include "scev/scev.h"

/* The signature: full (directory name, dedup) and core (what reduce keeps while shrinking —
 * the parts that survive deleting unrelated instructions).  text is the readable form hashed. */
struct finding_sig {
	uint64_t full, core;
	char text[256];
	char core_text[128];
};

struct finding {
	uint8_t kind;			/* enum finding_kind */
	char source[32];		/* "campaign", "check", ... */
	struct finding_sig sig;
	/* the program */
	char prog_name[128];
	uint32_t prog_type;
	struct bpf_insn *insns;		/* owned */
	size_t len;
	struct ebpf_map_def *maps;	/* owned, and each init (NULL: zero-filled; the
					 * "map:" line's init=, which a frozen read-only map's
					 * verdict reads) */
	size_t map_cnt;
	struct ebpf_global_func *globals;	/* owned: the prototypes of its global functions
					 * (ebpf_prog.globals; "global:" lines of finding.txt) */
	size_t nglobals;
	char strategy[16];		/* analyzer strategy that made the claims */
	/* the claims and the refuted one */
	char *claims_json;		/* owned; "" or NULL for crashes */
	struct claim_prog *claims;	/* owned, parsed from claims_json (reader) or NULL */
	uint32_t claim;			/* index into ranges[] (range) or loops[] (trip, iv) */
	uint32_t pc;
	loc_t loc;
	uint64_t observed;
	char text[512];			/* the claim and what was observed */
	uint8_t *input;			/* owned */
	size_t input_len;
	uint8_t *helper;		/* owned */
	size_t helper_len;
	/* crashes: phase ("analyze", "check", "generate"), class ("SIGSEGV", "timeout",
	 * "asan:heap-buffer-overflow") and the tail of the process's stderr */
	char phase[16];
	char crash[96];
	char *log;			/* owned, NULL when none */
	/* provenance */
	bool has_origin;
	uint64_t campaign_seed, index, prog_seed;
	char knobs[1024];		/* non-default generator knobs "name=value ...", "" */
	char note[256];
};

/* Computes f->sig from f's kind, program, the claims cp (NULL: f->claims) and the observation
 * (crashes: phase, class and the first frame of the sanitizer report in f->log). */
void finding_signature(struct finding *f, const struct claim_prog *cp);

/* Makes maps[0..n) own their initial contents: each init replaced by a copy (value_size bytes);
 * -ENOMEM when one could not be made (those not copied NULL: the caller frees each init). */
int finding_maps_own(struct ebpf_map_def *maps, size_t n);

/* Starts a finding of kind from source on prog: copies the program, its maps, the input and the
 * helper data, and writes cp (NULL: no claims) to f->claims_json; the strategy is strategy, or
 * when NULL cp's ("forget" when it has none).  The caller fills what was observed and calls
 * finding_signature().  0 or -ENOMEM (f freed). */
int finding__init(struct finding *f, uint8_t kind, const char *source, const char *strategy,
		  const struct ebpf_prog *prog, const struct ebpf_map_def *maps, size_t map_cnt,
		  const void *input, size_t input_len, const void *helper, size_t helper_len,
		  const struct claim_prog *cp);

/* Fills f as the verdict finding of prog (a program called safe that faults when run; no
 * claims): fault is the runs' first fault ("pc N: ..."), input the run's input; the text and
 * signature follow (the signature separates the kind of fault and where it is).  0 or
 * -ENOMEM. */
int finding__from_verdict(struct finding *f, const struct ebpf_prog *prog,
			  const struct ebpf_map_def *maps, size_t map_cnt, const char *fault,
			  const void *input, size_t input_len);
/* Fills f as the rule-gap finding of prog (FIND_RULE_GAP: called safe, refused by the kernel
 * with message, none of its limits; no claims, no input); the signature is the message with
 * its numbers out, one per rule.  0 or -ENOMEM. */
int finding__from_rule_gap(struct finding *f, const struct ebpf_prog *prog,
			   const struct ebpf_map_def *maps, size_t map_cnt, const char *message);

/* Fills f from a check_finding of the claims cp made for prog (copies what it needs; the
 * claims are written to f->claims_json).  maps are the program's maps.  0 or -ENOMEM. */
int finding__from_check(struct finding *f, const struct check_finding *cf,
			const struct ebpf_prog *prog, const struct ebpf_map_def *maps,
			size_t map_cnt, const struct claim_prog *cp);
void finding__free(struct finding *f);	/* members, not f; NULL ok */

enum finding_save_result {
	FINDING_NEW,		/* a new directory */
	FINDING_DUP,		/* the signature is already saved: counted, not written */
	FINDING_SAME,		/* the same program of the same campaign was saved before (resume) */
	FINDING_REPLACED,	/* same campaign, this program comes earlier: it replaces the saved one */
};

struct finding_save_opts {
	size_t sz;
	/* Keep the earliest program of a campaign as the example of each signature, so a campaign
	 * run with any number of processes saves the same directories. */
	bool prefer_earlier;
	const char *replay_cmd;		/* how replay.sh names the binary; NULL = "bpfscev" */
};

/* Saves f under dir (created when missing) as dir/<kind>-<hash>/.  path (may be NULL) receives
 * the directory's path.  Returns 0 with *res set, or -errno. */
int finding__save(const struct finding *f, const char *dir, const struct finding_save_opts *o,
		  enum finding_save_result *res, char *path, size_t path_len);
/* Writes another program for finding f (the reduced one: its global functions' prototypes
 * globals, as the reducer moved them) as dir/<base>.s (with its .global lines) and
 * dir/<base>.bin, each replaced atomically; comment (may be NULL) goes in the .s header.
 * 0 or -errno. */
int finding__write_program(const struct finding *f, const char *dir, const char *base,
			   const struct bpf_insn *insns, size_t len,
			   const struct ebpf_global_func *globals, size_t nglobals,
			   const char *comment);
/* Reads dir/<base>.bin (a program finding__write_program wrote) into *insns (heap), and the
 * prototypes of its .s file's .global lines into *globals (heap, NULL when none; the .s must
 * assemble to the same slots).  0 or -errno with d set. */
int finding__read_program(const char *dir, const char *base, struct bpf_insn **insns,
			  size_t *len, struct ebpf_global_func **globals, size_t *nglobals,
			  struct diag *d);
/* Removes the .tmp-* directories under dir whose writing process is gone (a killed campaign:
 * the programs they came from were not marked done, so they are found again). */
void finding_dir_cleanup(const char *dir);
/* Reads a finding directory.  0 or -errno with d set (file:line and the problem). */
int finding__load(struct finding *f, const char *path, struct diag *d);
/* Directory name of a finding: "<kind>-<16 hex>". */
void finding_dir_name(const struct finding *f, char *buf, size_t n);

/* A one-program object for f's program with its maps, type and global prototypes (or for
 * other instructions, e.g. a reduced program, with the prototypes globals[nglobals]).
 * Validates.  Caller frees with ebpf_object__free. */
int finding__object(struct ebpf_object **out, const struct finding *f,
		    const struct bpf_insn *insns, size_t len,
		    const struct ebpf_global_func *globals, size_t nglobals, struct diag *d);

/* ---- crashes ---- */

/* Runs the analyzer on a program in a child process with a time limit: how crash findings are
 * reproduced.  crash receives "" when it finished normally, else the class ("SIGSEGV",
 * "timeout", "asan:heap-buffer-overflow", "exit 1"); log (may be NULL) the child's stderr, which
 * the caller frees.  0 or -errno (fork or pipe failed). */
int finding_analyze_isolated(const struct ebpf_prog *prog, const struct ebpf_map_def *maps,
			     size_t map_cnt, const struct scev_opts *so, double timeout,
			     char *crash, size_t crash_len, char **log);
/* The crash class of a process that ended with wait status st and wrote log (NULL ok);
 * timed_out overrides.  "" when it exited with 0. */
void finding_crash_class(char *buf, size_t n, int st, bool timed_out, const char *log);
/* The first frame of a sanitizer report that is not in the sanitizer runtime or libc:
 * "range_alu" from "#2 0x55d in range_alu claims/range.c:120"; "" when none. */
void finding_crash_frame(char *buf, size_t n, const char *log);

#endif
