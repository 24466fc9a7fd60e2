/*
 * dbgfetch: files fetched by build ID from debuginfod servers (see
 * dbgfetch.h).
 */
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifdef FG_DEBUGINFOD
#include <dlfcn.h>
#include <elfutils/debuginfod.h>
#endif

#include "base/num.h"
#include "base/xalloc.h"
#include "elf/dbgfetch.h"
#include "elf/elffile.h"

struct dbgfetch {
	struct dbgfetch_opts o;
	void		*client;	/* debuginfod_client *, owned; made by
					   the first request */
	int		 dead;		/* a server failed, or the time is up */
	char		**asked;	/* "KIND ID" asked already, owned */
	size_t		 nasked, askedcap;
	double		 spent;		/* seconds waited on servers */
	double		 stall;		/* a request's limit without a byte */
	uint64_t	 maxsize;	/* the largest file taken, in bytes */
	char		*cache;		/* the client's cache folder */
	/* the request under way */
	double		 t0, tbyte;	/* its start, its last new byte */
	long		 bytes;
	const char	*what;
	char		*partdir;	/* where the client writes it, and */
	const char	*partname;	/* the start of its temporary name */
	uint64_t	 toobig;	/* its size, when past maxsize; or 0 */
	int		 shown;		/* its progress was shown */
	const char	*why;		/* why it was given up, or NULL */
	char		 whybuf[64];
	int		 vfd;		/* the client's log (a memfd), or -1 */
	char		**said;		/* servers said failing, owned */
	size_t		 nsaid, saidcap;
};

/* The client's log read back at most: a hostile server's headers are in it. */
#define DBGFETCH_LOG	(256u << 10)
/* Servers told apart in the log at most. */
#define DBGFETCH_SERVERS 32

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

/*
 * libdebuginfod, loaded by dlopen on the first request rather than linked:
 * it brings libcurl, gnutls, Kerberos and LDAP with it, whose loading was
 * most of fgrecord's start (6 ms) and every tool's, and a run asks a
 * server seldom. The soname is the one elfutils' own libdw loads.
 */
#define DBGFETCH_SONAME	"libdebuginfod.so.1"

static struct {
	int	 tried;		/* 1: loaded; -1: could not be */
	char	 why[256];	/* dlopen's or dlsym's words when -1 */
	__typeof__(debuginfod_begin)		*begin;
	__typeof__(debuginfod_end)		*end;
	__typeof__(debuginfod_find_debuginfo)	*find_debuginfo;
	__typeof__(debuginfod_find_executable)	*find_executable;
	__typeof__(debuginfod_set_progressfn)	*set_progressfn;
	__typeof__(debuginfod_set_verbose_fd)	*set_verbose_fd;
	__typeof__(debuginfod_set_user_data)	*set_user_data;
	__typeof__(debuginfod_get_user_data)	*get_user_data;
	__typeof__(debuginfod_get_url)		*get_url;
} lib;

/* Loads libdebuginfod once: 0, or -1 with lib.why said by the caller. */
static int
lib_load(void)
{
	void *h;

	if (lib.tried)
		return lib.tried > 0 ? 0 : -1;
	lib.tried = -1;
	if ((h = dlopen(DBGFETCH_SONAME, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		snprintf(lib.why, sizeof(lib.why), "%s", dlerror());
		return -1;
	}
#define LIB_SYM(f) do {							\
	if ((*(void **)&lib.f = dlsym(h, "debuginfod_" #f)) == NULL) {	\
		snprintf(lib.why, sizeof(lib.why), "%s has no "		\
		    "debuginfod_" #f, DBGFETCH_SONAME);			\
		dlclose(h);						\
		return -1;						\
	}								\
} while (0)
	LIB_SYM(begin);
	LIB_SYM(end);
	LIB_SYM(find_debuginfo);
	LIB_SYM(find_executable);
	LIB_SYM(set_progressfn);
	LIB_SYM(set_verbose_fd);
	LIB_SYM(set_user_data);
	LIB_SYM(get_user_data);
	LIB_SYM(get_url);
#undef LIB_SYM
	lib.tried = 1;
	return 0;
}

/* The monotonic clock in seconds. */
static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The bytes written so far of the file the client is fetching, when the
 * server did not say its size: the client writes it into its cache as
 * ID/KIND.XXXXXX before the rename to ID/KIND.
 */
static uint64_t
part_size(struct dbgfetch *d)
{
	struct dirent *e;
	struct stat st;
	uint64_t n = 0;
	size_t k = strlen(d->partname);
	DIR *dir;

	if (d->partdir == NULL || (dir = opendir(d->partdir)) == NULL)
		return 0;
	while ((e = readdir(dir)) != NULL)
		if (strncmp(e->d_name, d->partname, k) == 0 &&
		    e->d_name[k] == '.' && fstatat(dirfd(dir), e->d_name, &st,
		    AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
			n += (uint64_t)st.st_size;
	closedir(dir);
	return n;
}

/* The client's cache folder, as libdebuginfod finds it: a new string. */
static char *
cache_dir(void)
{
	const char *e;

	if ((e = getenv("DEBUGINFOD_CACHE_PATH")) != NULL && *e != '\0')
		return xstrdup(e);
	if ((e = getenv("XDG_CACHE_HOME")) != NULL && *e != '\0')
		return xasprintf("%s/debuginfod_client", e);
	if ((e = getenv("HOME")) != NULL && *e != '\0')
		return xasprintf("%s/.cache/debuginfod_client", e);
	return NULL;
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
	struct dbgfetch *d = lib.get_user_data(c);
	double t = now();

	if (total > 0 && done != d->bytes) {
		d->bytes = done;
		d->tbyte = t;
	}
	if (total > 0 && ((uint64_t)total > d->maxsize ||
	    (uint64_t)done > d->maxsize)) {
		d->toobig = (uint64_t)(total > done ? total : done);
		return 1;
	}
	if (total <= 0 && (d->toobig = part_size(d)) > d->maxsize)
		return 1;
	d->toobig = 0;
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
	d->vfd = -1;
	d->stall = DBGFETCH_STALL;
	/*
	 * The client's own variable: the largest file asked for. It tells
	 * the server, and the client refuses a larger announced size; the
	 * progress callback also stops a download that goes past it.
	 */
	d->maxsize = DBGFETCH_MAXSIZE;
	if ((e = getenv("DEBUGINFOD_MAXSIZE")) != NULL &&
	    num_arg(e, 1, INT64_MAX, &n) == 0)
		d->maxsize = n;
	else {
		char v[32];

		snprintf(v, sizeof(v), "%llu", DBGFETCH_MAXSIZE);
		setenv("DEBUGINFOD_MAXSIZE", v, 1);
	}
	d->cache = cache_dir();
	/* The client's own variable: seconds without progress. */
	if ((e = getenv("DEBUGINFOD_TIMEOUT")) != NULL &&
	    num_arg(e, 1, 3600, &n) == 0 && n < DBGFETCH_STALL)
		d->stall = (double)n;
	return d;
}

/*
 * The client, made on the first request: libdebuginfod loaded, its
 * client begun. 0, or -1 said once, and nothing more is asked in the run.
 */
static int
client_begin(struct dbgfetch *d)
{
	char *line;

	if (d->client != NULL)
		return 0;
	if (lib_load() != 0) {
		line = xasprintf("debuginfod: %s cannot be loaded (%s): no "
		    "file is asked of the servers of DEBUGINFOD_URLS (install "
		    "libdebuginfod1)", DBGFETCH_SONAME, lib.why);
		say(d, line);
		free(line);
		d->dead = 1;
		return -1;
	}
	if ((d->client = lib.begin()) == NULL) {
		say(d, "debuginfod_begin failed: no file is asked of the "
		    "servers of DEBUGINFOD_URLS");
		d->dead = 1;
		return -1;
	}
	lib.set_user_data(d->client, d);
	lib.set_progressfn(d->client, on_progress);
	/*
	 * The client returns "not found" for a server's HTTP 500 or an
	 * answer that is no HTTP, as for a 404: only its log says which
	 * server answered what.
	 */
	if ((d->vfd = memfd_create("dbgfetch", MFD_CLOEXEC)) >= 0)
		lib.set_verbose_fd(d->client, d->vfd);
	return 0;
}

/*
 * What a failed answer was, in a few words, from the client's words for
 * it (resp, curl's) and the server's (err, curl's error text); NULL when
 * it is no failure: a 404, our own cancel, no error.
 */
static char *
status_of(const char *resp, const char *err)
{
	const char *http = "The requested URL returned error: ", *c;
	uint64_t code;

	c = err + strlen(http);
	if (strncmp(err, http, strlen(http)) == 0 &&
	    num_next(&c, 10, &code) != NUM_BAD && code <= 999)
		return code == 404 ? NULL : xasprintf("HTTP %d", (int)code);
	if (strcmp(resp, "No error") == 0 || strcmp(resp, "Callback "
	    "aborted") == 0)
		return NULL;
	if (strcmp(resp, "Unsupported protocol") == 0 ||
	    strcmp(resp, "Weird server reply") == 0 ||
	    strstr(err, "HTTP/0.9") != NULL)
		return xasprintf("an answer that is not HTTP (%s)",
		    *err != '\0' ? err : resp);
	return xstrdup(*err != '\0' ? err : resp);
}

/*
 * Whether line is prefix, a server's index (below DBGFETCH_SERVERS) and
 * what follows after white space, as the client's log writes "init
 * server N URL" and "url N ...": sets *i and *off, where the rest starts.
 */
static int
indexed_line(const char *line, const char *prefix, int *i, int *off)
{
	size_t n = strlen(prefix);
	const char *p = line + n;
	uint64_t v;

	if (strncmp(line, prefix, n) != 0 ||
	    num_next(&p, 10, &v) != NUM_OK || v >= DBGFETCH_SERVERS)
		return 0;
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	*i = (int)v;
	*off = (int)(p - line);
	return 1;
}
/*
 * Reads the client's log of the request just made: each server's URL,
 * and the failures (status_of) of those that failed, as lines "URL\tWHY"
 * into out (at most DBGFETCH_SERVERS). Returns the number of failures;
 * *nservers gets the number of servers asked.
 */
static size_t
log_failures(struct dbgfetch *d, char **out, size_t *nservers)
{
	char *log, *line, *next, *url[DBGFETCH_SERVERS] = { 0 };
	char *resp = NULL;
	size_t n = 0, ns = 0;
	ssize_t len;
	int i;

	*nservers = 0;
	if (d->vfd < 0)
		return 0;
	log = xmalloc(DBGFETCH_LOG + 1);
	len = pread(d->vfd, log, DBGFETCH_LOG, 0);
	log[len > 0 ? len : 0] = '\0';
	for (line = log; line != NULL && *line != '\0'; line = next) {
		int off = 0;

		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (indexed_line(line, "init server ", &i, &off)) {
			char *u = line + off, *b = strstr(u, "/buildid");

			if (b != NULL && b[8] == '\0')
				*b = '\0';
			free(url[i]);
			url[i] = xstrdup(u);
			if ((size_t)i + 1 > ns)
				ns = (size_t)i + 1;
		} else if (strncmp(line, "server response ", 16) == 0) {
			free(resp);
			resp = xstrdup(line + 16);
		} else if (resp != NULL && indexed_line(line, "url ", &i, &off) &&
		    strstr(line + off, "://") == NULL) {
			/* the error of server i (a URL line is a retry's) */
			char *why = status_of(resp, line + off);

			if (why != NULL && n < DBGFETCH_SERVERS)
				out[n++] = xasprintf("%s\t%s", url[i] != NULL ?
				    url[i] : "?", why);
			free(why);
			free(resp);
			resp = NULL;
		}
	}
	/* a failure the client gave no server's text for: the one server */
	if (resp != NULL && ns == 1 && n < DBGFETCH_SERVERS) {
		char *why = status_of(resp, "");

		if (why != NULL)
			out[n++] = xasprintf("%s\t%s", url[0], why);
		free(why);
	}
	free(resp);
	for (i = 0; i < DBGFETCH_SERVERS; i++)
		free(url[i]);
	free(log);
	*nservers = ns;
	return n;
}

/* Whether server url was said failing already (and notes it now). */
static int
said_before(struct dbgfetch *d, const char *url)
{
	size_t i;

	for (i = 0; i < d->nsaid; i++)
		if (strcmp(d->said[i], url) == 0)
			return 1;
	GROW(d->said, d->nsaid + 1, d->saidcap);
	d->said[d->nsaid++] = xstrdup(url);
	return 0;
}

/*
 * path, the file of build ID id that the client returned (fetched now or
 * kept in its cache from before), when it is an ELF file of that build
 * ID; else it is removed from the cache, so that no later run takes it,
 * said, and NULL returned.
 */
static char *
checked(struct dbgfetch *d, char *path, const char *id, const char *what)
{
	struct elffile ef;
	char *mine = NULL, *why, *line;
	const char *url = lib.get_url(d->client);

	elffile_init(&ef);
	if (elffile_open(&ef, path) != ELFFILE_OK)
		why = xasprintf("%s", ef.why);
	else if ((mine = elffile_buildid(&ef)) == NULL ||
	    strcasecmp(mine, id) != 0)
		why = xasprintf("a file with another build ID (%s, asked for "
		    "%s)", mine != NULL ? mine : "none", id);
	else
		why = NULL;
	free(mine);
	elffile_release(&ef);
	if (why == NULL)
		return path;
	(void)unlink(path);
	line = xasprintf("debuginfod: %s%s%sthe file for '%s' was refused: "
	    "%s; removed from the client's cache", url ? "'" : "",
	    url ? url : "", url ? "' sent " : "", what, why);
	say(d, line);
	free(line);
	free(why);
	free(path);
	return NULL;
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
	if (client_begin(d) != 0) {
		free(key);
		return NULL;
	}
	GROW(d->asked, d->nasked + 1, d->askedcap);
	d->asked[d->nasked++] = key;
	d->t0 = d->tbyte = now();
	d->bytes = 0;
	d->what = what;
	free(d->partdir);
	d->partdir = d->cache != NULL ? xasprintf("%s/%s", d->cache, id) : NULL;
	d->partname = kind == DBGFETCH_EXECUTABLE ? "executable" : "debuginfo";
	d->toobig = 0;
	d->shown = 0;
	d->why = NULL;
	if (d->vfd >= 0) {
		(void)!ftruncate(d->vfd, 0);
		(void)lseek(d->vfd, 0, SEEK_SET);
	}
	fd = kind == DBGFETCH_EXECUTABLE ?
	    lib.find_executable(d->client, (const unsigned char *)id,
	    0, &path) : lib.find_debuginfo(d->client,
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
	if ((fd < 0 && d->toobig > d->maxsize) || fd == -EFBIG) {
		/* one file too large: the next may not be */
		char size[48] = "";

		if (d->toobig > d->maxsize)
			snprintf(size, sizeof(size), " (%llu MiB or more)",
			    (unsigned long long)(d->toobig >> 20));
		line = xasprintf("debuginfod: the file for '%s' was refused: "
		    "larger%s than the %llu MiB taken (DEBUGINFOD_MAXSIZE "
		    "sets it)", what, size,
		    (unsigned long long)(d->maxsize >> 20));
		say(d, line);
		free(line);
		free(path);
		return NULL;
	}
	/*
	 * Each server that failed, said once in the run, with its status;
	 * asking goes on while one of them has not failed.
	 */
	if (d->why == NULL) {
		char *bad[DBGFETCH_SERVERS];
		size_t nbad, ns, k;

		nbad = log_failures(d, bad, &ns);
		if (fd < 0 && nbad > 0 && nbad >= ns)
			d->dead = 1;
		for (k = 0; k < nbad; k++) {
			char *tab = strchr(bad[k], '\t');

			*tab = '\0';
			if (!said_before(d, bad[k])) {
				line = xasprintf("debuginfod: asking '%s' for "
				    "'%s' failed: %s%s", bad[k], what, tab + 1,
				    d->dead ? ": no more files are asked of "
				    "servers in this run" : ": the other "
				    "servers are still asked");
				say(d, line);
				free(line);
			}
			free(bad[k]);
		}
		if (nbad > 0 && fd < 0) {
			free(path);
			return NULL;
		}
	}
	if (fd >= 0) {
		close(fd);
		return checked(d, path, id, what);
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
	if (d->client != NULL)
		lib.end(d->client);
	if (d->vfd >= 0)
		close(d->vfd);
	for (i = 0; i < d->nasked; i++)
		free(d->asked[i]);
	free(d->asked);
	for (i = 0; i < d->nsaid; i++)
		free(d->said[i]);
	free(d->said);
	free(d->cache);
	free(d->partdir);
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
