/* Finding kinds: see finding_kind.h. */
#include "claims/finding_kind.h"

static const char *const kind_names[] = {
	"range", "trip-max", "trip-min", "induction", "crash", "encoding", "kernel", "verdict",
	"rule-gap",
};

const char *finding_kind_name(enum finding_kind k)
{
	return (unsigned)k < sizeof(kind_names) / sizeof(kind_names[0]) ? kind_names[k] : "?";
}
