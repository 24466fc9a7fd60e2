/* Unit tests of the protocol buffers writer, pb, against the examples of
 * the format's documentation and the edges of a varint. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pprof/pb.h"
#include "unit.h"

/* Whether b holds the bytes written in hex; says both when not. */
static int
bytes_are(const struct buf *b, const char *hex)
{
	char got[512];
	size_t i;

	if (b->len * 2 >= sizeof(got)) {
		printf("#   got %zu bytes, want %s\n", b->len, hex);
		return 0;
	}
	for (i = 0; i < b->len; i++)
		snprintf(got + 2 * i, 3, "%02x", (uint8_t)b->p[i]);
	got[2 * b->len] = '\0';
	if (strcmp(got, hex) != 0)
		printf("#   got %s, want %s\n", got, hex);
	return strcmp(got, hex) == 0;
}

/* Empties b and writes v as a bare varint. */
static const struct buf *
varint(struct buf *b, uint64_t v)
{
	buf_reset(b);
	pb_varint(b, v);
	return b;
}

static void
test_varint(void)
{
	static const struct {
		uint64_t	 v;
		const char	*hex;
	} t[] = {
		{ 0, "00" },
		{ 1, "01" },
		{ 127, "7f" },
		{ 128, "8001" },
		{ 300, "ac02" },
		{ 16383, "ff7f" },
		{ 16384, "808001" },
		{ 1ULL << 63, "80808080808080808001" },
		{ UINT64_MAX, "ffffffffffffffffff01" },
	};
	struct buf b;
	size_t i;
	char what[64];

	buf_init(&b);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(what, sizeof(what), "varint %llu", (unsigned long long)t[i].v);
		CHECK(bytes_are(varint(&b, t[i].v), t[i].hex), what);
		snprintf(what, sizeof(what), "pb_varint_len(%llu) is %zu",
		    (unsigned long long)t[i].v, strlen(t[i].hex) / 2);
		if (pb_varint_len(t[i].v) != strlen(t[i].hex) / 2)
			printf("#   got %zu, want %zu\n", pb_varint_len(t[i].v),
			    strlen(t[i].hex) / 2);
		CHECK(pb_varint_len(t[i].v) == strlen(t[i].hex) / 2, what);
	}
	buf_release(&b);
}

static void
test_fields(void)
{
	struct buf b;

	buf_init(&b);
	pb_uint(&b, 1, 150);
	CHECK(bytes_are(&b, "089601"), "field 1 = 150 is 08 96 01");
	pb_uint(&b, 2, 1);
	CHECK(bytes_are(&b, "0896011001"), "a second field is appended");
	buf_reset(&b);
	pb_uint(&b, 1, (uint64_t)(int64_t)-1);
	CHECK(bytes_are(&b, "08ffffffffffffffffff01"), "int64 -1 takes ten bytes");
	buf_reset(&b);
	pb_uint(&b, 1, (uint64_t)(int64_t)-2);
	CHECK(bytes_are(&b, "08feffffffffffffffff01"), "int64 -2 takes ten bytes");
	buf_reset(&b);
	pb_uint(&b, 1, (uint64_t)INT64_MIN);
	CHECK(bytes_are(&b, "0880808080808080808001"), "INT64_MIN takes ten bytes");
	buf_reset(&b);
	pb_uint(&b, 100000, 1);
	CHECK(bytes_are(&b, "80ea3001"), "a large field number");
	buf_reset(&b);
	pb_uint(&b, (1u << 29) - 1, 0);
	CHECK(bytes_are(&b, "f8ffffff0f00"), "the largest field number");
	buf_release(&b);
}

static void
test_bytes(void)
{
	char big[200];
	struct buf b;

	buf_init(&b);
	pb_bytes(&b, 2, "testing", 7);
	CHECK(bytes_are(&b, "120774657374696e67"), "field 2 = \"testing\"");
	buf_reset(&b);
	pb_bytes(&b, 6, "", 0);
	CHECK(bytes_are(&b, "3200"), "an empty string is tag and length 0");
	buf_reset(&b);
	pb_bytes(&b, 6, NULL, 0);
	CHECK(bytes_are(&b, "3200"), "no bytes at all: the same");
	buf_reset(&b);
	pb_bytes(&b, 1, "a\0b", 3);
	CHECK(bytes_are(&b, "0a03610062"), "a NUL byte is kept");
	buf_reset(&b);
	memset(big, 'x', sizeof(big));
	pb_bytes(&b, 2, big, sizeof(big));
	if (b.len != 3 + sizeof(big))
		printf("#   got %zu bytes, want %zu\n", b.len, 3 + sizeof(big));
	CHECK(b.len == 3 + sizeof(big) && memcmp(b.p, "\x12\xc8\x01", 3) == 0 &&
	    memcmp(b.p + 3, big, sizeof(big)) == 0,
	    "200 bytes: a two-byte length, then the bytes");
	buf_release(&b);
}

static void
test_nested(void)
{
	struct buf out, m, inner;

	buf_init(&out);
	buf_init(&m);
	buf_init(&inner);
	pb_uint(&m, 1, 150);
	pb_msg(&out, 3, &m);
	CHECK(bytes_are(&out, "1a03089601"), "the documentation's nested message");
	CHECK(bytes_are(&m, "089601"), "the nested message is left as it was");
	buf_reset(&out);
	buf_reset(&m);
	pb_bytes(&inner, 1, "ab", 2);
	pb_msg(&m, 2, &inner);
	pb_uint(&m, 3, 7);
	pb_msg(&out, 4, &m);
	CHECK(bytes_are(&out, "220812040a0261621807"), "two levels deep");
	buf_reset(&out);
	buf_reset(&m);
	pb_msg(&out, 5, &m);
	CHECK(bytes_are(&out, "2a00"), "an empty message");
	buf_release(&inner);
	buf_release(&m);
	buf_release(&out);
}

static void
test_packed(void)
{
	static const uint64_t doc[] = { 3, 270, 86942 };
	static const uint64_t edges[] = { 0, 127, 128, UINT64_MAX };
	struct buf b;

	buf_init(&b);
	pb_packed(&b, 4, doc, 3);
	CHECK(bytes_are(&b, "2206038e029ea705"), "packed field 4 = 3, 270, 86942");
	buf_reset(&b);
	pb_packed(&b, 4, edges, 4);
	CHECK(bytes_are(&b, "220e007f8001ffffffffffffffffff01"),
	    "packed: the length counts every varint's bytes");
	buf_reset(&b);
	pb_packed(&b, 4, NULL, 0);
	CHECK(bytes_are(&b, "2200"), "packed, none: tag and length 0");
	buf_release(&b);
}

int
main(void)
{
	test_varint();
	test_fields();
	test_bytes();
	test_nested();
	test_packed();
	return unit_done();
}
