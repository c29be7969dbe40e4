/* The loops and analyze commands end to end on clang output: the nested-loop object from
 * tests/bpf (built by clang when available) gives the right loop forest as text, JSON and DOT
 * (rendered by dot(1) when installed), and the analyze JSON reads back through claims_read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scev/claims.h"
#include "tests/check.h"
#include "util/json.h"

static char *run(const char *cmd, int *status)
{
	FILE *p = popen(cmd, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!p)
		return NULL;
	do {
		if (n + 4096 > cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
		}
		got = fread(buf + n, 1, cap - n - 1, p);
		n += got;
	} while (got);
	buf[n] = '\0';
	*status = pclose(p);
	return buf;
}

int main(void)
{
	const char *bin = getenv("BPFSCEV_BIN"), *dir = getenv("BPFSCEV_TEST_BPF_DIR");
	char cmd[1024], obj[512];
	struct claims *c = NULL;
	struct json *j;
	struct diag d;
	char *out;
	int st;

	if (!bin || !dir)
		return check_skip("test_loops_cli", "needs BPFSCEV_BIN and the clang-built objects "
				  "(BPFSCEV_TEST_BPF_DIR)");
	snprintf(obj, sizeof(obj), "%s/nested_loops.o", dir);

	snprintf(cmd, sizeof(cmd), "%s loops %s", bin, obj);
	out = run(cmd, &st);
	CHECK(out && st == 0, "loops failed");
	CHECK(out && strstr(out, "2 loops (0 irreducible)"), "text: %s", out ? out : "");
	CHECK(out && strstr(out, "loop header 8 depth 2 in 5"), "inner loop: %s", out ? out : "");
	free(out);

	snprintf(cmd, sizeof(cmd), "%s loops %s --json", bin, obj);
	out = run(cmd, &st);
	diag_clear(&d);
	j = out ? json_parse(out, strlen(out), &d) : NULL;
	CHECK(j, "loops --json does not parse: %s", d.msg);
	if (j) {
		const struct json *p = json_get(j, "programs"), *loops;

		CHECK(p && p->count == 1, "one program");
		loops = p && p->count ? json_get(p->items[0], "loops") : NULL;
		CHECK(loops && loops->count == 2, "two loops");
		if (loops && loops->count == 2) {
			uint64_t h0, h1, d1;

			json_u64(json_get(loops->items[0], "header"), &h0);
			json_u64(json_get(loops->items[1], "header"), &h1);
			json_u64(json_get(loops->items[1], "depth"), &d1);
			CHECK(h0 == 5 && h1 == 8 && d1 == 2, "headers %llu %llu depth %llu",
			      (unsigned long long)h0, (unsigned long long)h1, (unsigned long long)d1);
			CHECK(json_get(loops->items[1], "parent")->type == JSON_NUMBER, "parent");
		}
		json_free(j);
	}
	free(out);

	snprintf(cmd, sizeof(cmd), "%s loops %s --dot --idom", bin, obj);
	out = run(cmd, &st);
	CHECK(out && st == 0 && strstr(out, "subgraph cluster_loop") && strstr(out, "label=\"back\""),
	      "dot output");
	free(out);
	if (system("command -v dot >/dev/null 2>&1") == 0) {
		snprintf(cmd, sizeof(cmd), "%s loops %s --svg /tmp/bpfscev_test_loops.svg && "
			 "grep -q '<svg' /tmp/bpfscev_test_loops.svg", bin, obj);
		CHECK(system(cmd) == 0, "--svg did not render");
		remove("/tmp/bpfscev_test_loops.svg");
	} else {
		printf("SKIP: dot(1) not installed, --svg not tried\n");
	}

	snprintf(cmd, sizeof(cmd), "%s analyze %s --json", bin, obj);
	out = run(cmd, &st);
	diag_clear(&d);
	CHECK(out && st == 0 && claims_read(&c, out, strlen(out), &d) == 0, "analyze --json: %s",
	      d.msg);
	if (c) {
		CHECK(c->nprogs == 1 && c->progs[0].nloops == 2, "claims read back");
		CHECK(c->progs[0].loops[0].trip.kind == TRIP_EXACT && c->progs[0].loops[0].trip.max == 10,
		      "outer trip count");
		CHECK(c->progs[0].loops[1].trip.kind != TRIP_UNKNOWN && c->progs[0].loops[1].trip.max <= 10,
		      "inner trip bound");
		claims__free(c);
	}
	free(out);

	snprintf(cmd, sizeof(cmd), "%s check %s >/dev/null", bin, obj);
	CHECK(system(cmd) == 0, "check refuted a claim on the clang object");
	return check_done("test_loops_cli");
}
