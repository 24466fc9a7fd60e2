/*
 * dbgfetch: files fetched by build ID from debuginfod servers, through
 * libdebuginfod, on demand: the debug file of a stripped or DWARF-less
 * file, an executable that is missing.
 *
 *	struct dbgfetch *d = dbgfetch_new(&opts);	(NULL: no server)
 *	char *path = dbgfetch_find(d, DBGFETCH_DEBUGINFO, id, "libfoo.so");
 *	if (path != NULL) ... open path the one safe way, check its build ID
 *	dbgfetch_free(d);
 *
 * Nothing is asked of any server unless DEBUGINFOD_URLS is set and not
 * empty: then dbgfetch_new makes the one fetcher of the run, and its first
 * request loads libdebuginfod (dlopen, never linked: it brings libcurl
 * and gnutls, whose loading would be every tool's start) and begins the
 * one client; a library that cannot be loaded is said once. The client's
 * own cache ($DEBUGINFOD_CACHE_PATH, else $XDG_CACHE_HOME/debuginfod_client,
 * else ~/.cache/debuginfod_client) is where files land and is read again
 * by later runs without a request. What comes back is a path into that
 * cache: the caller opens it through elf/elffile (a regular file, size
 * bounded, by descriptor) and checks its build ID, as for any file.
 *
 * Size is bounded: a file announced, or sent, larger than
 * DBGFETCH_MAXSIZE bytes (or $DEBUGINFOD_MAXSIZE, the client's own
 * variable, when set) is refused while it comes, and said; the servers
 * are still asked for other files. A file the client returns, fetched now
 * or kept from an earlier run, that is no ELF file of the build ID asked
 * is removed from the client's cache, said, and not returned.
 *
 * Time is bounded: a request that gets no byte for DBGFETCH_STALL seconds
 * (or $DEBUGINFOD_TIMEOUT, when set) is given up, and so is every request
 * once the run has spent DBGFETCH_TOTAL seconds waiting on servers. A
 * server that fails (refused, timed out, an HTTP status other than 404,
 * an answer that is no HTTP) is said once, in one line naming it and its
 * status (read from the client's log: libdebuginfod returns -ENOENT for
 * all of those), and once every server asked failed, or the time is up,
 * nothing more is asked of any server for the rest of the run; "not
 * found" is no failure, and is not said.
 *
 * Built without libdebuginfod (the Makefile's FG_DEBUGINFOD unset),
 * dbgfetch_new says once, when DEBUGINFOD_URLS is set, that this build
 * cannot ask, and returns NULL.
 */
#ifndef FG_DBGFETCH_H
#define FG_DBGFETCH_H

/* A request with no byte for this many seconds is given up. */
#define DBGFETCH_STALL	15
/* The run waits on servers this many seconds at most, in all. */
#define DBGFETCH_TOTAL	120
/* The largest file taken from a server, unless $DEBUGINFOD_MAXSIZE says. */
#define DBGFETCH_MAXSIZE	(1ULL << 30)

enum dbgfetch_kind {
	DBGFETCH_DEBUGINFO,	/* the separate debug file of a build ID */
	DBGFETCH_EXECUTABLE,	/* the executable or library itself */
};

struct dbgfetch_opts {
	/*
	 * When not NULL, called while a download runs (stderr a terminal):
	 * what is the file's name as the caller gave it, done and total
	 * bytes (total 0 when the server did not say); and with what NULL
	 * when it ended, to clear the line.
	 */
	void	(*progress)(void *arg, const char *what, long done, long total);
	/* The one line of a failure, without the tool's name; NULL: warnx. */
	void	(*say)(void *arg, const char *line);
	void	*arg;
};

struct dbgfetch;

/*
 * The fetcher of this run when DEBUGINFOD_URLS is set and not empty (opts
 * copied, its arg borrowed until dbgfetch_free), else NULL; nothing is
 * loaded nor begun before its first dbgfetch_find. The caller frees it
 * with dbgfetch_free.
 */
struct dbgfetch *dbgfetch_new(const struct dbgfetch_opts *opts);

/*
 * Asks the servers for the file of kind of the hex build ID id (what: the
 * file's name for the progress line). Returns the path of the file in the
 * client's cache, a new string the caller frees; or NULL: not found, or
 * the servers failed (said once), or the time is up, or d is NULL. A
 * build ID asked once is not asked again in the run.
 */
char	*dbgfetch_find(struct dbgfetch *d, enum dbgfetch_kind kind,
	    const char *id, const char *what);

/* Frees d and its client; d may be NULL. */
void	 dbgfetch_free(struct dbgfetch *d);

#endif
