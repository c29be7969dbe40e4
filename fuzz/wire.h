/* The messages between the campaign's parent and its workers, over a socket per worker.  A
 * message is a header (u32 type, u32 payload length) and the payload; the parent sends a
 * batch (two u64: [first, end) of program numbers), the worker sends an outcome per program
 * and a batch-done (the batch's range again).  Both ends run the same binary, so numbers are
 * in native byte order.
 */
#ifndef BPFSCEV_FUZZ_WIRE_H
#define BPFSCEV_FUZZ_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz/campaign_internal.h"
#include "util/sbuf.h"

/* Message types, each framed as u32 type, u32 payload length, payload. */
enum { WMSG_OUTCOME = 1, WMSG_BATCH_DONE = 2, WMSG_BATCH = 3 };

/* A payload being read: a read past the end, or a bad length or value, sets bad. */
struct wire_reader {
	const uint8_t *p, *end;
	bool bad;
};

/* Appends oc, its findings included, to sb. */
void wire_pack_outcome(struct sbuf *sb, const struct outcome *oc);
/* Reads an outcome into oc (the caller frees it); its findings get c's origin.  0 or -EPROTO. */
int wire_unpack_outcome(struct wire_reader *r, const struct campaign *c, struct outcome *oc);

/* Appends a message to out; several may go in one write.  0 or -ENOMEM. */
int wire_frame(struct sbuf *out, uint32_t type, const void *payload, size_t len);
/* Sends all of out and empties it.  0 or -errno. */
int wire_flush(int fd, struct sbuf *out);
int wire_send_msg(int fd, uint32_t type, const void *payload, size_t len);
/* Reads exactly n bytes; -EPIPE when the other end closed first. */
int wire_recv_all(int fd, void *p, size_t n);

#endif
