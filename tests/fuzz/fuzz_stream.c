/*
 * fuzz_stream: the sample-stream parser and fold, as fgfold uses them. The
 * first byte picks the options, the rest is the stream.
 */
#include <err.h>
#include <string.h>

#include "fold/top.h"
#include "fold/write.h"
#include "profile/fold.h"
#include "fuzz.h"
#include "stream/stream.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *skip[] = { "main", NULL };
	struct fold_opts o;
	struct fold f;
	int fd;

	if (size < 1)
		return 0;
	memset(&o, 0, sizeof(o));
	o.pid = data[0] & 1;
	o.tid = data[0] & 2;
	o.kernel = o.jit = o.inline_mark = data[0] & 4;
	o.addrs = data[0] & 8;
	o.srcline = data[0] & 16;
	o.period = data[0] & 32;
	o.no_comm = data[0] & 64;
	if (data[0] & 128) {
		o.skip_after = skip;
		o.nskip_after = 1;
	}
	fd = fuzz_fd(data + 1, size - 1);
	fold_init(&f, &o);
	fold_stream(&f, fd, "fuzz");
	fold_finish(&f, 0);
	fold_write(&f, fuzz_null(), 0);
	fold_top(&f, fuzz_null(), 5);
	fold_release(&f);
	close(fd);
	return 0;
}
