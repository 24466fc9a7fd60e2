/*
 * pb: the few pieces of the protocol buffers wire format that a writer of
 * one fixed schema needs: varints, and length-delimited fields (strings,
 * nested messages, packed repeated integers), appended to a struct buf
 * (base/buf.h), the one byte buffer. Nothing here decodes.
 *
 * Why not protobuf-c: pprof's profile.proto is written once per run, from
 * tables the caller already holds; protobuf-c would want generated code and
 * a second copy of every table in its structs, for the sake of what is
 * below: a varint loop and a length prefix.
 *
 *	struct buf m;
 *	buf_init(&m);
 *	pb_uint(&m, 1, 42);		field 1, varint 42
 *	pb_bytes(&m, 2, "name", 4);	field 2, bytes
 *	pb_msg(&out, 3, &m);		m as field 3 of out
 *	buf_release(&m);
 *
 * The message is m.p[0..m.len); bytes are appended as they are (buf_add),
 * and the NUL that struct buf keeps after them is no part of it.
 */
#ifndef FG_PB_H
#define FG_PB_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

/* Appends v as a base-128 varint, low group first: 1 to 10 bytes. */
void	pb_varint(struct buf *, uint64_t v);

/* The number of bytes pb_varint writes for v. */
size_t	pb_varint_len(uint64_t v);

/*
 * Field `field` (1 to 2^29-1) of wire type 0 holding v. An int64 is passed
 * as its two's complement, so a negative number takes 10 bytes, as the
 * format says. The caller leaves out fields whose value is 0 if it wants.
 */
void	pb_uint(struct buf *, uint32_t field, uint64_t v);

/* Field `field` of wire type 2 holding p[0..n): a string or bytes (p may be NULL when n is 0). */
void	pb_bytes(struct buf *, uint32_t field, const void *p, size_t n);

/* A nested message: msg's bytes (borrowed) as field `field`. */
void	pb_msg(struct buf *, uint32_t field, const struct buf *msg);

/* A packed repeated integer field: v[0..n) as varints in one field. */
void	pb_packed(struct buf *, uint32_t field, const uint64_t *v, size_t n);

#endif
