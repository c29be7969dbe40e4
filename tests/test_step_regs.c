/* The first pass's shortcut for registers a one-block loop only steps (scev/absint.c,
 * accelerate): instead of running one header visit per widening threshold such a register
 * climbs, it computes the climb on the register alone.  Random one-block loops — a counter
 * against a constant, a register bound or a 32-bit test, and one to three registers stepped by
 * every ALU operation with a constant (add, sub, mul, or, and, xor, shifts, div, mod; 32 and 64
 * bits), from a constant or an unknown start — are analyzed with the shortcut and with every
 * visit run (scev_opts.every_visit): the claims must be the same, byte for byte, in both
 * strategies.  Operations the loop summary cannot express (mul, or, xor, shifts, ...) keep the
 * first pass's header value in their claims (absint_header_step meets what it forgets with it),
 * so a climb computed wrong shows there; and every claim must hold on runs of the interpreter
 * (oracle_check), which refutes a range that excludes an observed value.  The bench_scev loop
 * (r0 += 3 beside a counter) is among the fixed cases.
 */
#include <stdio.h>
#include <string.h>

#include "oracle/exec/check.h"
#include "scev/scev.h"
#include "tests/check.h"
#include "util/sbuf.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	return check_rand(&rng);
}

static const char *const ops[] = { "+=", "-=", "*=", "|=", "&=", "^=", "<<=", ">>=", "s>>=",
				   "/=", "%=" };

/* A random one-block loop: counter r1, bound in r2 (or a constant), steppers among r0 and
 * r3-r5 (unknown starts from a random number).  Returns the text's length. */
static int random_loop(char *t, size_t size)
{
	static const int steppers[] = { 0, 3, 4, 5 };
	int n = 0, ns = 1 + (int)(next() % 3), w32 = next() % 4 == 0;
	const char *rc = w32 ? "w1" : "r1";
	uint64_t bound = 1 + next() % 5000;

	n += snprintf(t + n, size - (size_t)n, "call bpf_get_prandom_u32\nr7 = r0\nr0 = 0\n"
		      "r3 = 0\nr4 = 0\nr5 = 0\nr1 = %d\nr2 = %llu\n", (int)(next() % 3),
		      (unsigned long long)bound);
	for (int k = 0; k < ns; k++) {
		int r = steppers[k];

		if (next() % 3 == 0)	/* an unknown start, of up to 16 bits */
			n += snprintf(t + n, size - (size_t)n, "r%d = r7\nr%d &= %d\n", r, r,
				      (int)(next() % 65536));
		else
			n += snprintf(t + n, size - (size_t)n, "r%d = %lld\n", r,
				      (long long)(next() % 64) - 8);
	}
	n += snprintf(t + n, size - (size_t)n, "l: ");
	for (int k = 0; k < ns; k++) {
		const char *op = ops[next() % (sizeof(ops) / sizeof(ops[0]))];
		long long K = (long long)(next() % 37) - 9;

		if (!strcmp(op, "/=") || !strcmp(op, "%="))
			K = 1 + (long long)(next() % 9);
		if (strstr(op, "<<") || strstr(op, ">>"))
			K = (long long)(next() % 31);
		n += snprintf(t + n, size - (size_t)n, "%c%d %s %lld\n", next() % 3 ? 'r' : 'w',
			      steppers[k], op, K);
	}
	n += snprintf(t + n, size - (size_t)n, "%s += 1\n", rc);
	switch (next() % 3) {
	case 0: n += snprintf(t + n, size - (size_t)n, "if %s < %llu goto l\n", rc,
			      (unsigned long long)bound); break;
	case 1: n += snprintf(t + n, size - (size_t)n, "if r1 < r2 goto l\n"); break;
	default: n += snprintf(t + n, size - (size_t)n, "if %s != %llu goto l\n", rc,
			       (unsigned long long)bound); break;
	}
	n += snprintf(t + n, size - (size_t)n, "r0 += r3\nr0 += r4\nr0 += r5\nexit\n");
	return n;
}

/* The claims of prog under opts, as JSON. */
static void claims_text(const struct ebpf_prog *p, const struct scev_opts *so, struct sbuf *sb,
			struct claim_prog *keep)
{
	struct claim_prog cp;
	struct diag d;

	diag_clear(&d);
	sbuf_reset(sb);
	if (scev_analyze(&cp, p, NULL, 0, so, &d)) {
		sbuf_printf(sb, "error: %s", d.msg);
		return;
	}
	claims_write_prog(sb, &cp);
	if (keep)
		*keep = cp;
	else
		claim_prog__free(&cp);
}

static unsigned programs, runs_checked;

static void one(const char *name, const char *text)
{
	struct ebpf_object *obj = NULL;
	struct sbuf a = { 0 }, b = { 0 };
	struct diag d;

	diag_clear(&d);
	if (ebpf_object__open_mem(&obj, text, strlen(text), name, &d)) {
		CHECK(0, "%s: %s\n%s", name, d.msg, text);
		return;
	}
	for (int strategy = 0; strategy < 2; strategy++) {
		struct scev_opts fast = { .sz = sizeof(fast), .strategy = strategy };
		struct scev_opts slow = fast;
		struct claim_prog cp = { 0 };

		slow.every_visit = true;
		claims_text(&obj->progs[0], &fast, &a, &cp);
		claims_text(&obj->progs[0], &slow, &b, NULL);
		CHECK(a.len == b.len && !memcmp(a.buf, b.buf, a.len),
		      "%s (%s): claims differ with every visit run\n%s\nshortcut:\n%.*s\nevery "
		      "visit:\n%.*s", name, strategy ? "iterate" : "forget", text, (int)a.len,
		      a.buf ? a.buf : "", (int)b.len, b.buf ? b.buf : "");
		if (cp.nloops || cp.nranges) {
			struct check_opts co = { .sz = sizeof(co), .seed = 13, .runs = 6,
						 .ctx_kind = 0 };
			struct check_result res;

			if (oracle_check(&res, obj, &obj->progs[0], &cp, &co)) {
				CHECK(0, "%s: oracle_check failed", name);
			} else {
				CHECK(res.nfindings == 0, "%s (%s): %u claims refuted: %s\n%s", name,
				      strategy ? "iterate" : "forget", res.nfindings,
				      res.nfindings ? res.findings[0].text : "", text);
				runs_checked += (unsigned)res.runs;
				check_result__free(&res);
			}
		}
		claim_prog__free(&cp);
	}
	programs++;
	sbuf_free(&a);
	sbuf_free(&b);
	ebpf_object__free(obj);
}

int main(void)
{
	static const char *const fixed[] = {
		/* bench_scev's loop: r0 climbs four thresholds beside the counter */
		"r0 = 0\nr1 = 0\nr2 = 0x3e8 ll\nl: r0 += 3\nr1 += 1\nif r1 < r2 goto l\nexit\n",
		/* counted to a constant: the threshold stops the counter, r3 climbs past it */
		"r1 = 0\nr3 = 7\nl: r3 += 4\nr1 += 1\nif r1 < 10 goto l\nr0 = r3\nexit\n",
		/* non-affine steppers: their claims are the first pass's header values */
		"r1 = 0\nr3 = 1\nr4 = 1\nl: r3 *= 3\nr4 <<= 1\nr1 += 1\n"
		"if r1 < 20 goto l\nr0 = r3\nr0 += r4\nexit\n",
		"call bpf_get_prandom_u32\nr3 = r0\nr1 = 0\nl: w3 |= 256\nr3 ^= 5\nr1 += 1\n"
		"if r1 != 7 goto l\nr0 = r3\nexit\n",
		/* a downward stepper (the minima's thresholds) and a 32-bit one */
		"r1 = 0\nr3 = 100\nr4 = 5\nl: r3 += -7\nw4 += 1000000\nr1 += 1\n"
		"if w1 < 50 goto l\nr0 = r3\nr0 += r4\nexit\n",
	};
	char text[1024];

	for (size_t k = 0; k < sizeof(fixed) / sizeof(fixed[0]); k++) {
		char name[32];

		snprintf(name, sizeof(name), "fixed%zu", k);
		one(name, fixed[k]);
	}
	for (int k = 0; k < 300; k++) {
		char name[32];

		snprintf(name, sizeof(name), "random%d", k);
		random_loop(text, sizeof(text));
		one(name, text);
	}
	printf("%u programs, %u interpreter runs\n", programs, runs_checked);
	return check_done("test_step_regs");
}
