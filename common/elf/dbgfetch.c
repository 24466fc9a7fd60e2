/*
 * dbgfetch: files fetched by build ID from debuginfod servers (see
 * dbgfetch.h).
 */
#include <err.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef FG_DEBUGINFOD
#include <elfutils/debuginfod.h>
#endif

#include "base/num.h"
#include "base/xalloc.h"
#include "elf/dbgfetch.h"

struct dbgfetch {
	struct dbgfetch_opts o;
	void		*client;	/* debuginfod_client *, owned */
	int		 dead;		/* a server failed, or the time is up */
	char		**asked;	/* "KIND ID" asked already, owned */
	size_t		 nasked, askedcap;
	double		 spent;		/* seconds waited on servers */
	double		 stall;		/* a request's limit without a byte */
	/* the request under way */
	double		 t0, tbyte;	/* its start, its last new byte */
	long		 bytes;
	const char	*what;
	int		 shown;		/* its progress was shown */
	const char	*why;		/* why it was given up, or NULL */
	char		 whybuf[64];
};

/* Says line through opts.say, or warnx. */
static void
say(struct dbgfetch *d, const char *line)
{
	if (d->o.say != NULL)
		d->o.say(d->o.arg, line);
	else
		warnx("%s", line);
}

/* Whether DEBUGINFOD_URLS names a server. */
static int
urls_set(void)
{
	const char *u = getenv("DEBUGINFOD_URLS");

	return u != NULL && u[strspn(u, " \t")] != '\0';
}

#ifdef FG_DEBUGINFOD

/* The monotonic clock in seconds. */
static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * libdebuginfod calls this about once a second while a request runs, with
 * the bytes so far and the size, and a nonzero return cancels it. Until
 * the server has said the size (total 0), done counts the calls, not
 * bytes: then the stall limit runs from the request's start, and once
 * the size is known, from the last new byte.
 */
static int
on_progress(debuginfod_client *c, long done, long total)
{
	struct dbgfetch *d = debuginfod_get_user_data(c);
	double t = now();

	if (total > 0 && done != d->bytes) {
		d->bytes = done;
		d->tbyte = t;
	}
	if (t - d->tbyte >= d->stall) {
		snprintf(d->whybuf, sizeof(d->whybuf), "no answer in %.0f s",
		    d->stall);
		d->why = d->whybuf;
		return 1;
	}
	if (d->spent + (t - d->t0) >= DBGFETCH_TOTAL) {
		snprintf(d->whybuf, sizeof(d->whybuf), "the run's %d s for "
		    "servers are used up", DBGFETCH_TOTAL);
		d->why = d->whybuf;
		return 1;
	}
	if (d->o.progress != NULL && total > 0) {
		d->o.progress(d->o.arg, d->what, done, total);
		d->shown = 1;
	}
	return 0;
}

struct dbgfetch *
dbgfetch_new(const struct dbgfetch_opts *opts)
{
	struct dbgfetch *d;
	const char *e;
	uint64_t n;

	if (!urls_set())
		return NULL;
	d = xcalloc(1, sizeof(*d));
	if (opts != NULL)
		d->o = *opts;
	if ((d->client = debuginfod_begin()) == NULL) {
		say(d, "debuginfod_begin failed: no file is asked of the "
		    "servers of DEBUGINFOD_URLS");
		free(d);
		return NULL;
	}
	d->stall = DBGFETCH_STALL;
	/* The client's own variable: seconds without progress. */
	if ((e = getenv("DEBUGINFOD_TIMEOUT")) != NULL &&
	    num_arg(e, 1, 3600, &n) == 0 && n < DBGFETCH_STALL)
		d->stall = (double)n;
	debuginfod_set_user_data(d->client, d);
	debuginfod_set_progressfn(d->client, on_progress);
	return d;
}

char *
dbgfetch_find(struct dbgfetch *d, enum dbgfetch_kind kind, const char *id,
    const char *what)
{
	char *key, *path = NULL, *line;
	const char *url;
	size_t i, n;
	double t;
	int fd;

	if (d == NULL || d->dead || (n = strlen(id)) < 2 || n % 2 != 0 ||
	    n > 128 || strspn(id, "0123456789abcdefABCDEF") != n)
		return NULL;
	key = xasprintf("%d %s", (int)kind, id);
	for (i = 0; i < d->nasked; i++)
		if (strcmp(d->asked[i], key) == 0) {
			free(key);
			return NULL;
		}
	GROW(d->asked, d->nasked + 1, d->askedcap);
	d->asked[d->nasked++] = key;
	d->t0 = d->tbyte = now();
	d->bytes = 0;
	d->what = what;
	d->shown = 0;
	d->why = NULL;
	fd = kind == DBGFETCH_EXECUTABLE ?
	    debuginfod_find_executable(d->client, (const unsigned char *)id,
	    0, &path) : debuginfod_find_debuginfo(d->client,
	    (const unsigned char *)id, 0, &path);
	t = now() - d->t0;
	d->spent += t;
	/*
	 * libdebuginfod's own limit ($DEBUGINFOD_TIMEOUT) ends a request
	 * as "not found": a server's "not found" takes milliseconds, so one
	 * that took the whole limit is its silence.
	 */
	if (fd == -ENOENT && d->why == NULL && t >= d->stall - 0.5) {
		snprintf(d->whybuf, sizeof(d->whybuf), "no answer in %.0f s",
		    d->stall);
		d->why = d->whybuf;
	}
	if (d->shown && d->o.progress != NULL)
		d->o.progress(d->o.arg, NULL, 0, 0);
	if (fd >= 0) {
		close(fd);
		return path;
	}
	free(path);
	/* Not there: the usual answer, and no failure. */
	if (fd == -ENOENT && d->why == NULL)
		return NULL;
	d->dead = 1;
	url = getenv("DEBUGINFOD_URLS");
	line = xasprintf("debuginfod: asking '%s' for '%s' failed: %s: no "
	    "more files are asked of servers in this run", url ? url : "",
	    what, d->why != NULL ? d->why : strerror(-fd));
	say(d, line);
	free(line);
	return NULL;
}

void
dbgfetch_free(struct dbgfetch *d)
{
	size_t i;

	if (d == NULL)
		return;
	debuginfod_end(d->client);
	for (i = 0; i < d->nasked; i++)
		free(d->asked[i]);
	free(d->asked);
	free(d);
}

#else	/* !FG_DEBUGINFOD */

struct dbgfetch *
dbgfetch_new(const struct dbgfetch_opts *opts)
{
	static int said;
	struct dbgfetch d = { 0 };

	if (!urls_set() || said++)
		return NULL;
	if (opts != NULL)
		d.o = *opts;
	say(&d, "DEBUGINFOD_URLS is set, but this build has no libdebuginfod: "
	    "no file is asked of its servers (install libdebuginfod-dev and "
	    "build again)");
	return NULL;
}

char *
dbgfetch_find(struct dbgfetch *d, enum dbgfetch_kind kind, const char *id,
    const char *what)
{
	(void)d;
	(void)kind;
	(void)id;
	(void)what;
	return NULL;
}

void
dbgfetch_free(struct dbgfetch *d)
{
	free(d);
}

#endif
