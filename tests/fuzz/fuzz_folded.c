/*
 * fuzz_folded: the folded-stack parser, merging (--folded) and the
 * differential format (--diff -n -s), as fgfold uses them.
 */
#include <string.h>

#include "fold/top.h"
#include "fold/write.h"
#include "profile/fold.h"
#include "stream/folded.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fold_opts o;
	struct fold f;
	struct folded_line fl;
	const uint8_t *nl;
	size_t half = size / 2;
	int fd1, fd2;

	/* Line by line through the parser itself. */
	for (const uint8_t *p = data; p < data + size; p = nl + 1) {
		nl = memchr(p, '\n', data + size - p);
		if (nl == NULL)
			nl = data + size;
		folded_parse((const char *)p, nl - p, &fl);
	}
	memset(&o, 0, sizeof(o));
	o.normalize = size & 1;
	o.strip_hex = size & 2;
	fd1 = fuzz_fd(data, half);
	fd2 = fuzz_fd(data + half, size - half);
	fold_init(&f, &o);
	fold_folded(&f, fd1, "before", 0);
	fold_folded(&f, fd2, "after", 1);
	fold_write(&f, fuzz_null(), 1);
	fold_top(&f, fuzz_null(), 3);
	fold_release(&f);
	close(fd1);
	close(fd2);
	return 0;
}
