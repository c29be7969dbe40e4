/* The kdiff tests' common step: a case file's text (assembly with its maps and type) run by
 * kdiff_run with the caller's options into res.  A case that does not parse or a kdiff_run that
 * fails is a failed check; false then (res holds nothing to free).
 */
#ifndef BPFSCEV_TESTS_KDIFF_CASE_H
#define BPFSCEV_TESTS_KDIFF_CASE_H

#include <string.h>

#include "casefile/casefile.h"
#include "oracle/kernel/kdiff.h"
#include "tests/check.h"

static inline bool kdiff_case(struct kdiff_result *res, const char *name, const char *text,
			      const struct kdiff_opts *ko)
{
	struct casefile *cf = NULL;
	struct diag d;
	int err;

	diag_clear(&d);
	if (casefile__open_mem(&cf, text, strlen(text), name, &d)) {
		CHECK(0, "%s: %s", name, d.msg);
		return false;
	}
	diag_clear(&d);
	err = kdiff_run(res, cf->obj, &cf->obj->progs[0], ko, &d);
	casefile__free(cf);
	CHECK(err == 0, "%s: kdiff: %s", name, d.msg);
	return err == 0;
}

/* kdiff_case on the n-byte input in (4 claim runs), the kernel's r0 forged by forge when not
 * NULL: true when the kernel accepted and ran it (a failed check otherwise). */
static inline bool kdiff_case_ran(struct kdiff_result *res, const char *name, const char *text,
				  const uint8_t *in, size_t n, void (*forge)(void *, uint32_t *))
{
	struct kdiff_opts ko = { .sz = sizeof(ko), .input = in, .input_len = n, .check_runs = 4,
				 .forge_retval = forge };

	if (!kdiff_case(res, name, text, &ko))
		return false;
	CHECK(res->accepted && res->ran, "%s: accepted %d, ran %d: %s", name, res->accepted,
	      res->ran, res->accepted ? res->text : res->message);
	return res->accepted && res->ran;
}

#endif
