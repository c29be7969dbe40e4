/* sbuf_put_u64 and sbuf_put_i64 against snprintf's "%llu" and "%lld" (their reference): the
 * boundaries of every width and random values of every magnitude, appended after text so the
 * buffer grows across the writes. */
#include <stdio.h>
#include <string.h>

#include "tests/check.h"
#include "util/sbuf.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	return check_rand(&rng);
}

static void one(uint64_t v)
{
	struct sbuf a = SBUF_INIT, b = SBUF_INIT;
	char ref[64];

	sbuf_puts(&a, "x=");
	sbuf_put_u64(&a, v);
	snprintf(ref, sizeof(ref), "x=%llu", (unsigned long long)v);
	CHECK(!strcmp(sbuf_cstr(&a), ref), "u64: %s, expected %s", sbuf_cstr(&a), ref);
	sbuf_put_i64(&b, (long long)v);
	sbuf_putc(&b, ';');
	snprintf(ref, sizeof(ref), "%lld;", (long long)v);
	CHECK(!strcmp(sbuf_cstr(&b), ref), "i64: %s, expected %s", sbuf_cstr(&b), ref);
	sbuf_free(&a);
	sbuf_free(&b);
}

int main(void)
{
	for (unsigned bit = 0; bit < 64; bit++) {
		uint64_t p = 1ull << bit;

		one(p);
		one(p - 1);
		one(p + 1);
		one(-p);
		one(-p - 1);
	}
	for (uint64_t p = 1; p < 10000000000000000000ull; p *= 10) {
		one(p - 1);
		one(p);
		one(-p);
	}
	for (int i = 0; i < 200000; i++) {
		uint64_t v = next();

		one(v >> (v & 63));
	}
	return check_done("test_sbuf");
}
