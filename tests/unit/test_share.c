/*
 * Unit tests of common/base/share.h: a share is never rounded to none
 * when some, nor to all when short of it (issue 33: "resolved 39627 of
 * 39628 frames (100.0%)", "0.0% truncated (mostly: ...)").
 */
#include <stdint.h>

#include "base/share.h"
#include "unit.h"

int
main(void)
{
	char b[SHARE_SIZE];

	CHECK_STR(share(b, 39627, 39628), ">99.9",
	    "one short of all: not 100.0");
	CHECK_STR(share(b, 39628, 39628), "100.0", "all of it: 100.0");
	CHECK_STR(share(b, 1, 40000), "<0.1", "some: not 0.0");
	CHECK_STR(share(b, 0, 40000), "0.0", "none: 0.0");
	CHECK_STR(share(b, 0, 0), "0.0", "of nothing: 0.0");
	CHECK_STR(share(b, 1, 3), "33.3", "a third");
	CHECK_STR(share(b, 999, 1000), "99.9", "99.9 stays");
	CHECK_STR(share(b, 1, 1000), "0.1", "0.1 stays");
	CHECK_STR(share(b, UINT64_MAX - 1, UINT64_MAX), ">99.9",
	    "near 2^64: still short of all");
	CHECK_STR(share(b, UINT64_MAX, 1), "1844674407370955161600.0",
	    "a part past the whole: as it is, within SHARE_SIZE");
	return unit_done();
}
