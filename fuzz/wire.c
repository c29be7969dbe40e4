/* The messages between the campaign's parent and its workers (wire.h): an outcome and its
 * findings packed into a payload and read back, and the framing and sending of messages. */
#include "fuzz/wire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

static void put_u64(struct sbuf *sb, uint64_t v) { sbuf_put(sb, &v, sizeof(v)); }
static void put_f64(struct sbuf *sb, double v) { sbuf_put(sb, &v, sizeof(v)); }
static void put_blob(struct sbuf *sb, const void *p, size_t n)
{
	put_u64(sb, n);
	sbuf_put(sb, p, n);
}
static void put_str(struct sbuf *sb, const char *s) { put_blob(sb, s, s ? strlen(s) : 0); }

static uint64_t get_u64(struct wire_reader *r)
{
	uint64_t v = 0;

	if (r->end - r->p < 8) {
		r->bad = true;
		return 0;
	}
	memcpy(&v, r->p, 8);
	r->p += 8;
	return v;
}

static double get_f64(struct wire_reader *r)
{
	double v = 0;

	if (r->end - r->p < 8) {
		r->bad = true;
		return 0;
	}
	memcpy(&v, r->p, 8);
	r->p += 8;
	return v;
}

static void *get_blob(struct wire_reader *r, size_t *n, bool nul)
{
	uint64_t len = get_u64(r);
	uint8_t *b;

	if (n)
		*n = 0;

	if (r->bad || len > (uint64_t)(r->end - r->p)) {
		r->bad = true;
		return NULL;
	}
	b = malloc(len + 1);
	if (!b) {
		r->bad = true;
		return NULL;
	}
	memcpy(b, r->p, len);
	if (nul)
		b[len] = '\0';
	r->p += len;
	if (n)
		*n = len;
	return b;
}

static void get_str(struct wire_reader *r, char *dst, size_t n)
{
	size_t len;
	char *s = get_blob(r, &len, true);

	snprintf(dst, n, "%s", s ? s : "");
	free(s);
}

static void pack_finding(struct sbuf *sb, const struct finding *f)
{
	put_u64(sb, f->kind);
	put_u64(sb, f->sig.full);
	put_u64(sb, f->sig.core);
	put_str(sb, f->sig.text);
	put_str(sb, f->sig.core_text);
	put_str(sb, f->prog_name);
	put_u64(sb, f->prog_type);
	put_blob(sb, f->insns, f->len * sizeof(*f->insns));
	put_blob(sb, f->maps, f->map_cnt * sizeof(*f->maps));
	for (size_t m = 0; m < f->map_cnt; m++)	/* (each map's contents; none: 0 bytes) */
		put_blob(sb, f->maps[m].init ? (const void *)f->maps[m].init : "",
			 f->maps[m].init ? f->maps[m].value_size : 0);
	put_str(sb, f->strategy);
	put_str(sb, f->claims_json);
	put_u64(sb, f->claim);
	put_u64(sb, f->pc);
	put_u64(sb, f->loc);
	put_u64(sb, f->observed);
	put_str(sb, f->text);
	put_blob(sb, f->input, f->input_len);
	put_blob(sb, f->helper, f->helper_len);
	put_u64(sb, f->index);
	put_str(sb, f->source);		/* "z3", "kernel-invariant", ...: how to replay it */
}

static struct finding *unpack_finding(struct wire_reader *r, const struct campaign *c)
{
	struct finding *f = calloc(1, sizeof(*f));
	size_t n;

	if (!f) {
		r->bad = true;
		return NULL;
	}
	f->kind = (uint8_t)get_u64(r);
	f->sig.full = get_u64(r);
	f->sig.core = get_u64(r);
	get_str(r, f->sig.text, sizeof(f->sig.text));
	get_str(r, f->sig.core_text, sizeof(f->sig.core_text));
	get_str(r, f->prog_name, sizeof(f->prog_name));
	f->prog_type = (uint32_t)get_u64(r);
	f->insns = get_blob(r, &n, false);
	f->len = n / sizeof(*f->insns);
	f->maps = get_blob(r, &n, false);
	f->map_cnt = n / sizeof(*f->maps);
	for (size_t m = 0; f->maps && m < f->map_cnt; m++)
		f->maps[m].init = NULL;
	for (size_t m = 0; f->maps && m < f->map_cnt && !r->bad; m++) {
		uint8_t *init = get_blob(r, &n, false);

		if (n && n == f->maps[m].value_size)
			f->maps[m].init = init;
		else
			free(init);
	}
	get_str(r, f->strategy, sizeof(f->strategy));
	f->claims_json = get_blob(r, NULL, true);
	f->claim = (uint32_t)get_u64(r);
	f->pc = (uint32_t)get_u64(r);
	f->loc = (loc_t)get_u64(r);
	f->observed = get_u64(r);
	get_str(r, f->text, sizeof(f->text));
	f->input = get_blob(r, &f->input_len, false);
	f->helper = get_blob(r, &f->helper_len, false);
	f->index = get_u64(r);
	{
		char source[sizeof(f->source)];

		get_str(r, source, sizeof(source));
		campaign_set_origin(f, c, f->index);
		if (source[0])
			memcpy(f->source, source, sizeof(source));
	}
	if (r->bad) {
		finding__free(f);
		free(f);
		return NULL;
	}
	return f;
}

void wire_pack_outcome(struct sbuf *sb, const struct outcome *oc)
{
	put_u64(sb, oc->index);
	put_u64(sb, (uint64_t)(int64_t)oc->gen_err);
	put_u64(sb, oc->loops);
	put_u64(sb, oc->bounded);
	put_u64(sb, oc->exact);
	put_u64(sb, oc->entered);
	put_u64(sb, oc->ranges);
	put_u64(sb, oc->checks);
	put_u64(sb, oc->runs);
	put_u64(sb, oc->traps);
	put_f64(sb, oc->t_gen);
	put_f64(sb, oc->t_analyze);
	put_f64(sb, oc->t_check);
	put_blob(sb, oc->buckets, oc->nbuckets * sizeof(*oc->buckets));
	put_blob(sb, oc->oracle_stats, pipeline_stat_count() * sizeof(*oc->oracle_stats));
	for (unsigned i = 0; i < pipeline_oracle_count(); i++)
		put_f64(sb, oc->t_oracles[i]);
	put_u64(sb, oc->dis != NULL);
	if (oc->dis) {
		put_u64(sb, oc->dis->cls);
		put_u64(sb, oc->dis->sig);
		put_str(sb, oc->dis->case_text);
		put_str(sb, oc->dis->ours);
		put_str(sb, oc->dis->kernel_log);
	}
	put_u64(sb, oc->nocc);
	for (uint32_t i = 0; i < oc->nocc; i++) {
		put_u64(sb, oc->occ[i].kind);
		put_u64(sb, oc->occ[i].sig);
		put_u64(sb, oc->occ[i].f != NULL);
		if (oc->occ[i].f)
			pack_finding(sb, oc->occ[i].f);
	}
}

int wire_unpack_outcome(struct wire_reader *r, const struct campaign *c, struct outcome *oc)
{
	size_t n;
	uint64_t nocc;

	memset(oc, 0, sizeof(*oc));
	oc->index = get_u64(r);
	oc->gen_err = (int)(int64_t)get_u64(r);
	oc->loops = (uint32_t)get_u64(r);
	oc->bounded = (uint32_t)get_u64(r);
	oc->exact = (uint32_t)get_u64(r);
	oc->entered = (uint32_t)get_u64(r);
	oc->ranges = get_u64(r);
	oc->checks = get_u64(r);
	oc->runs = get_u64(r);
	oc->traps = get_u64(r);
	oc->t_gen = get_f64(r);
	oc->t_analyze = get_f64(r);
	oc->t_check = get_f64(r);
	oc->buckets = get_blob(r, &n, false);
	oc->nbuckets = (uint32_t)(n / sizeof(*oc->buckets));
	for (uint32_t i = 0; oc->buckets && i < oc->nbuckets; i++)
		if (oc->buckets[i] >= FUZZ_RATIO_BUCKETS)
			r->bad = true;
	{
		uint64_t *x = get_blob(r, &n, false);

		if (x && n == pipeline_stat_count() * sizeof(*oc->oracle_stats))
			memcpy(oc->oracle_stats, x, n);
		else
			r->bad = true;
		free(x);
	}
	for (unsigned i = 0; i < pipeline_oracle_count(); i++)
		oc->t_oracles[i] = get_f64(r);
	if (get_u64(r) && !r->bad) {
		oc->dis = calloc(1, sizeof(*oc->dis));
		if (!oc->dis) {
			r->bad = true;
		} else {
			oc->dis->cls = (uint8_t)get_u64(r);
			oc->dis->sig = get_u64(r);
			oc->dis->case_text = get_blob(r, NULL, true);
			oc->dis->ours = get_blob(r, NULL, true);
			oc->dis->kernel_log = get_blob(r, NULL, true);
			if (!oc->dis->case_text || !oc->dis->ours || !oc->dis->kernel_log)
				r->bad = true;
		}
	}
	nocc = get_u64(r);
	for (uint64_t i = 0; i < nocc && !r->bad; i++) {
		uint8_t kind = (uint8_t)get_u64(r);
		uint64_t sig = get_u64(r);
		struct finding *f = get_u64(r) ? unpack_finding(r, c) : NULL;

		if (!r->bad && campaign_outcome_add(oc, kind, sig, f)) {
			finding__free(f);
			free(f);
			r->bad = true;
		}
	}
	if (r->bad) {
		campaign_outcome_free(oc);
		return -EPROTO;
	}
	return 0;
}

static int send_all(int fd, const void *p, size_t n)
{
	const char *s = p;

	while (n) {
		ssize_t w = send(fd, s, n, MSG_NOSIGNAL);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Messages are a header (type, payload length) and the payload; several may go in one write. */
int wire_frame(struct sbuf *out, uint32_t type, const void *payload, size_t len)
{
	uint32_t hdr[2] = { type, (uint32_t)len };

	sbuf_put(out, hdr, sizeof(hdr));
	sbuf_put(out, payload, len);
	return out->oom ? -ENOMEM : 0;
}

int wire_flush(int fd, struct sbuf *out)
{
	int err = out->len ? send_all(fd, out->buf, out->len) : 0;

	sbuf_reset(out);
	return err;
}

int wire_send_msg(int fd, uint32_t type, const void *payload, size_t len)
{
	struct sbuf sb = SBUF_INIT;
	int err = wire_frame(&sb, type, payload, len);

	if (!err)
		err = wire_flush(fd, &sb);
	sbuf_free(&sb);
	return err;
}

int wire_recv_all(int fd, void *p, size_t n)
{
	char *s = p;

	while (n) {
		ssize_t r = recv(fd, s, n, 0);

		if (r == 0)
			return -EPIPE;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		s += r;
		n -= (size_t)r;
	}
	return 0;
}
