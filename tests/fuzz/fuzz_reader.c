/*
 * fuzz_reader: the stream reader and the round trip. Byte 0 picks the
 * reader's mode (bit 0: fgsym's pass-through); the rest is the stream,
 * read and written again (stream_write_item), then that read and written
 * again: the two writes must be the same bytes, and the second read must
 * see the same kinds of items, as many bad lines and the same cut as the
 * first.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/lineread.h"
#include "fuzz.h"
#include "stream/reader.h"
#include "stream/rewrite.h"

/* Reads data[0..size), writing each item to *out (caller frees). */
static void
rewrite(const uint8_t *data, size_t size, int pass, char **out,
    size_t *outlen, unsigned long *bad, int *cut, char **kinds)
{
	struct stream_reader_opts o = { pass, NULL, NULL };
	struct stream_reader r;
	struct stream_diag d;
	struct stream_item it;
	struct lineread lr;
	FILE *f, *k;
	size_t klen;
	int fd = fuzz_fd(data, size);

	*out = *kinds = NULL;
	if ((f = open_memstream(out, outlen)) == NULL ||
	    (k = open_memstream(kinds, &klen)) == NULL)
		abort();
	lineread_init(&lr, fd, "fuzz");
	stream_diag_init(&d, "fuzz");
	stream_reader_init(&r, &lr, &d, &o);
	while (stream_reader_next(&r, &it) != STREAM_ITEM_EOF) {
		stream_write_item(f, &it);
		putc('A' + it.kind, k);
	}
	*cut = stream_reader_finish(&r);
	*bad = d.bad;
	lineread_release(&lr);
	close(fd);
	fclose(f);
	fclose(k);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *w1, *w2, *k1, *k2;
	size_t n1, n2;
	unsigned long b1, b2;
	int c1, c2, pass;

	if (size < 1)
		return 0;
	pass = data[0] & 1;
	rewrite(data + 1, size - 1, pass, &w1, &n1, &b1, &c1, &k1);
	rewrite((const uint8_t *)w1, n1, pass, &w2, &n2, &b2, &c2, &k2);
	if (n1 != n2 || memcmp(w1, w2, n1) != 0 || b1 != b2 || c1 != c2 ||
	    strcmp(k1, k2) != 0)
		abort();
	free(w1);
	free(w2);
	free(k1);
	free(k2);
	return 0;
}
