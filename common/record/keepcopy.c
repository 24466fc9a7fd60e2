#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf/buildcache.h"
#include "elf/buildcache_add.h"
#include "record/keepcopy.h"
#include "record/maps.h"

/* Is f a file that only its process's mounts held (hostpath's last name)? */
static int
only_inside(const struct mapfile *f)
{
	return f->inside != NULL && strncmp(f->path, "/proc/", 6) == 0;
}

void
keepcopy_files(const struct maps *m, int quiet)
{
	size_t i, kept = 0;
	uint64_t bytes = 0;
	char *msg, *dir;
	int rc;

	for (i = 0; i < m->nfiles; i++) {
		const struct mapfile *f = m->files[i];

		if (!only_inside(f) || f->samples == 0 || !f->usable ||
		    f->ef.fd < 0 || f->buildid == NULL)
			continue;
		if (bytes + f->ef.size > KEEPCOPY_MAX) {
			fprintf(stderr, "%s: no copy of '%s' kept for fgsym: "
			    "the copies of this recording would pass %llu MiB\n",
			    program_invocation_short_name, f->inside,
			    KEEPCOPY_MAX >> 20);
			continue;
		}
		rc = buildcache_add(f->buildid, f->ef.fd, f->ef.size, &msg);
		if (rc == 0)
			bytes += f->ef.size;
		if (rc >= 0)
			kept++;
		else
			fprintf(stderr, "%s: no copy of '%s' kept for fgsym "
			    "(only the program's own mounts held it): %s\n",
			    program_invocation_short_name, f->inside, msg);
		free(msg);
	}
	if (kept == 0 || quiet)
		return;
	dir = buildcache_dir();
	fprintf(stderr, "%s: %zu file%s that only the program's own mounts "
	    "held kept in perf's build-ID cache, '%s', for fgsym once it has "
	    "exited (--no-buildid-cache: none)\n", program_invocation_short_name,
	    kept, kept == 1 ? "" : "s", dir ? dir : "");
	free(dir);
}
