/* The generator settings of the pipeline target, shared with the seed maker so that the seed
 * corpus decodes to the programs it was chosen for. */
#ifndef BPFSCEV_FUZZ_TARGETS_FUZZ_PIPELINE_H
#define BPFSCEV_FUZZ_TARGETS_FUZZ_PIPELINE_H

#include "generators/gen.h"

#define FUZZ_PIPELINE_MAX_INSNS 160	/* soft program size (the generator's default is 200) */
#define FUZZ_PIPELINE_STEPS 20000	/* per oracle run; programs that may need more are huge */

static inline struct gen_knobs fuzz_pipeline_knobs(void)
{
	struct gen_knobs k = gen_knobs_default();

	k.max_insns = FUZZ_PIPELINE_MAX_INSNS;
	k.step_budget = FUZZ_PIPELINE_STEPS;
	return k;
}

#endif
