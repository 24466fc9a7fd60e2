#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "elf/buildcache.h"
#include "elf/buildcache_add.h"
#include "record/keepcopy.h"
#include "record/maps.h"

void
keepcopy_files(const struct maps *m, int quiet)
{
	size_t i, kept = 0;
	uint64_t bytes = 0, cost;
	char *msg, *dir;
	int rc;

	for (i = 0; i < m->nfiles; i++) {
		const struct mapfile *f = m->files[i];

		if (f->inside == NULL || f->samples == 0 || !f->usable ||
		    f->ef.fd < 0 || f->buildid == NULL)
			continue;
		cost = buildcache_add_cost(f->ef.fd, f->ef.size);
		if (bytes + cost > KEEPCOPY_MAX) {
			fprintf(stderr, "%s: no copy of '%s' kept for fgsym: "
			    "the copies of this recording would pass %llu MiB\n",
			    program_invocation_short_name, f->inside,
			    KEEPCOPY_MAX >> 20);
			continue;
		}
		/* perf's own copy of that build serves (its layout too) */
		if ((msg = buildcache_find(f->buildid)) != NULL) {
			free(msg);
			kept++;
			continue;
		}
		rc = buildcache_add_in(BUILDCACHE_FOREIGN, f->buildid, f->ef.fd,
		    f->ef.size, &msg);
		if (rc == 0)
			bytes += cost;
		if (rc >= 0)
			kept++;
		else
			fprintf(stderr, "%s: no copy of '%s' kept for fgsym "
			    "(a file of the program's own root or mounts): %s\n",
			    program_invocation_short_name, f->inside, msg);
		free(msg);
	}
	if (kept == 0 || quiet)
		return;
	dir = buildcache_dir();
	fprintf(stderr, "%s: %zu file%s of the program's own root or mounts "
	    "kept in '%s/" BUILDCACHE_FOREIGN "', apart from perf's build-ID "
	    "cache, for fgsym once they are gone (--no-buildid-cache: none)\n",
	    program_invocation_short_name, kept, kept == 1 ? "" : "s",
	    dir ? dir : "");
	free(dir);
}
