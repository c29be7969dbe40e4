/* Linked scalars: which registers hold the same number as another (up to a constant added) at
 * each conditional jump, on every path there, so that a bound the jump proves of one narrows
 * the others — the kernel's scalar ids (sync_linked_regs).  Found from the instructions alone
 * (a must-analysis over each function's blocks, links.c), never from the ranges: a link is a
 * fact of every run that reaches the jump, whatever the range analysis made of the values.
 */
#ifndef BPFSCEV_SCEV_LINKS_H
#define BPFSCEV_SCEV_LINKS_H

#include <stdbool.h>
#include <stdint.h>

#include "scev/cfg.h"

/* A location linked to a jump's register r: register loc (0..9) or, from LINK_REGS on, the
 * 8-byte stack slot at fp - 8(loc - LINK_REGS + 1).  The two hold x + their own offsets for
 * one number x (mod 2^64), or (w32) its low 32 bits plus the offset, zero-extended (`w2 += K`
 * after `r2 = r0`): loc holds r + delta when neither is w32; zext32(r + delta) when loc is
 * (LINK_W32); and when only r is (LINK_FROM_W32), loc's low 32 bits are those of r + delta. */
#define LINK_W32 1
#define LINK_FROM_W32 2
#define LINK_REGS 10
#define LINK_SLOTS 64
#define LINK_NLOC (LINK_REGS + LINK_SLOTS)

struct scev_link {
	int64_t delta;
	uint8_t loc;
	uint8_t w32;	/* LINK_W32, LINK_FROM_W32 */
};

struct scev_links;

/* The links at every conditional jump of the program's blocks (rpo/rpo_off: each function's
 * reachable blocks in reverse postorder).  A static function starts with the links among r1-r5
 * that hold at each of its calls (global[f]: function f is verified apart, from no call; NULL:
 * none is).  priv: the kernel's bpf_capable rules (links kept through a spill and through
 * `r += K`); unprivileged, only register copies link.  *out is NULL (no links) when no
 * instruction copies a register or spills one. */
int scev_links__build(struct scev_links **out, const struct scev_cfg *cfg, const uint32_t *rpo,
		      const uint32_t *rpo_off, const bool *global, bool priv);
void scev_links__free(struct scev_links *l);
/* The locations linked to the register block b's final conditional jump compares (side 0: its
 * dst_reg, 1: its src_reg), *n of them (none when l is NULL). */
const struct scev_link *scev_links__at_jump(const struct scev_links *l, uint32_t b, int side,
					    uint32_t *n);

#endif
