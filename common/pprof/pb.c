#include "pprof/pb.h"

void
pb_varint(struct buf *b, uint64_t v)
{
	buf_varint(b, v);
}

size_t
pb_varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

void
pb_uint(struct buf *b, uint32_t field, uint64_t v)
{
	pb_varint(b, (uint64_t)field << 3 | 0);
	pb_varint(b, v);
}

void
pb_bytes(struct buf *b, uint32_t field, const void *p, size_t n)
{
	pb_varint(b, (uint64_t)field << 3 | 2);
	pb_varint(b, n);
	buf_add(b, p, n);
}

void
pb_msg(struct buf *b, uint32_t field, const struct buf *msg)
{
	pb_bytes(b, field, msg->p, msg->len);
}

void
pb_packed(struct buf *b, uint32_t field, const uint64_t *v, size_t n)
{
	size_t i, len = 0;

	for (i = 0; i < n; i++)
		len += pb_varint_len(v[i]);
	pb_varint(b, (uint64_t)field << 3 | 2);
	pb_varint(b, len);
	for (i = 0; i < n; i++)
		pb_varint(b, v[i]);
}
