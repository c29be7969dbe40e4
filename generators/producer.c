/* The data producer (see producer.h).  A choice in a range of r + 1 values reads the fewest
 * whole bytes that can express r, little-endian, and scales them onto the range (v * (r + 1) /
 * 256^n): byte strings map to choices position by position and monotonically, every value gets
 * the same number of byte patterns give or take one (a modulo would favour the low values —
 * gen_bool(30) said yes 23% of the time that way), and the PRNG is only a source of bytes. */
#include "generators/producer.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t xoshiro_next(uint64_t s[4])
{
	uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

void gen_src_init_seed(struct gen_src *src, uint64_t seed)
{
	uint64_t x = seed;

	*src = (struct gen_src){ 0 };
	for (int i = 0; i < 4; i++)
		src->s[i] = splitmix64(&x);
}

void gen_src_init_bytes(struct gen_src *src, const void *data, size_t len)
{
	*src = (struct gen_src){ 0 };
	/* A non-NULL pointer marks byte mode even for the empty string. */
	src->data = data ? data : (const uint8_t *)"";
	src->len = data ? len : 0;
}

bool gen_src_exhausted(const struct gen_src *src)
{
	return src->data && src->pos >= src->len;
}

/* Fills v with up to n bytes (little-endian); returns how many there were. */
static unsigned take_bytes(struct gen_src *src, unsigned n, uint64_t *v)
{
	unsigned got = 0;

	*v = 0;
	if (!src->data && src->nbuf >= n) {	/* fast path: the PRNG's current word has them */
		*v = n == 8 ? src->buf : src->buf & ((1ull << (8 * n)) - 1);
		src->buf = n == 8 ? 0 : src->buf >> (8 * n);
		src->nbuf -= n;
		return n;
	}
	for (; got < n; got++) {
		uint64_t b;

		if (src->data) {
			if (src->pos >= src->len)
				break;
			b = src->data[src->pos++];
		} else {
			if (!src->nbuf) {
				src->buf = xoshiro_next(src->s);
				src->nbuf = 8;
			}
			b = src->buf & 0xff;
			src->buf >>= 8;
			src->nbuf--;
		}
		*v |= b << (8 * got);
	}
	return got;
}

uint64_t gen_u64(struct gen_src *src, uint64_t lo, uint64_t hi)
{
	uint64_t r = hi - lo, v;
	unsigned n = 0;

	if (hi <= lo)
		return lo;
	for (uint64_t x = r; x; x >>= 8)
		n++;
	if (!take_bytes(src, n, &v))
		return lo;
	if (n <= 4)		/* the common case: the product fits in 64 bits */
		return lo + ((v * (r + 1)) >> (8 * n));
	if (r == UINT64_MAX)
		return v;
	return lo + (uint64_t)(((unsigned __int128)v * (r + 1)) >> (8 * n));
}

void gen_bytes(struct gen_src *src, uint8_t *out, size_t n)
{
	size_t i = 0;

	if (src->data) {
		for (; i < n && src->pos < src->len; i++)
			out[i] = src->data[src->pos++];
	} else {
		for (; i < n && src->nbuf; i++, src->nbuf--, src->buf >>= 8)
			out[i] = (uint8_t)src->buf;
		for (; i + 8 <= n; i += 8) {
			uint64_t x = xoshiro_next(src->s);

			for (int j = 0; j < 8; j++)
				out[i + j] = (uint8_t)(x >> (8 * j));
		}
		for (; i < n; i++) {
			if (!src->nbuf) {
				src->buf = xoshiro_next(src->s);
				src->nbuf = 8;
			}
			out[i] = (uint8_t)src->buf;
			src->buf >>= 8;
			src->nbuf--;
		}
	}
	for (; i < n; i++)
		out[i] = 0;
}

uint32_t gen_u32(struct gen_src *src, uint32_t lo, uint32_t hi)
{
	return (uint32_t)gen_u64(src, lo, hi);
}

bool gen_bool(struct gen_src *src, unsigned p_percent)
{
	if (p_percent == 0)
		return false;
	if (p_percent >= 100)
		return true;
	/* v in 0..99 and true for the top p values, so an exhausted source (v = 0) says false. */
	return gen_u32(src, 0, 99) >= 100 - p_percent;
}

uint32_t gen_pick(struct gen_src *src, uint32_t n)
{
	return n ? gen_u32(src, 0, n - 1) : 0;
}

uint32_t gen_weighted(struct gen_src *src, const uint32_t *weights, uint32_t n)
{
	uint64_t total = 0, v;

	for (uint32_t i = 0; i < n; i++)
		total += weights[i];
	if (!total)
		return 0;
	v = gen_u64(src, 0, total - 1);
	for (uint32_t i = 0; i < n; i++) {
		if (v < weights[i])
			return i;
		v -= weights[i];
	}
	return n - 1;
}
