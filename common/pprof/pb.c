#include <stdlib.h>
#include <string.h>

#include "pprof/pb.h"
#include "base/xalloc.h"

void
pb_init(struct pb *b)
{
	memset(b, 0, sizeof(*b));
}

void
pb_release(struct pb *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

void
pb_raw(struct pb *b, const void *p, size_t n)
{
	if (n == 0)
		return;
	GROW(b->p, b->len + n, b->cap);
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

void
pb_varint(struct pb *b, uint64_t v)
{
	uint8_t tmp[10];
	size_t n = 0;

	while (v >= 0x80) {
		tmp[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	tmp[n++] = (uint8_t)v;
	pb_raw(b, tmp, n);
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
pb_uint(struct pb *b, uint32_t field, uint64_t v)
{
	pb_varint(b, (uint64_t)field << 3 | 0);
	pb_varint(b, v);
}

void
pb_bytes(struct pb *b, uint32_t field, const void *p, size_t n)
{
	pb_varint(b, (uint64_t)field << 3 | 2);
	pb_varint(b, n);
	pb_raw(b, p, n);
}

void
pb_msg(struct pb *b, uint32_t field, const struct pb *msg)
{
	pb_bytes(b, field, msg->p, msg->len);
}

void
pb_packed(struct pb *b, uint32_t field, const uint64_t *v, size_t n)
{
	size_t i, len = 0;

	for (i = 0; i < n; i++)
		len += pb_varint_len(v[i]);
	pb_varint(b, (uint64_t)field << 3 | 2);
	pb_varint(b, len);
	for (i = 0; i < n; i++)
		pb_varint(b, v[i]);
}
