/*
 * perfmap: /tmp/perf-PID.map files (see perfmap.h).
 */
#include <sys/stat.h>

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf/perfmap.h"
#include "base/num.h"
#include "base/safeopen.h"
#include "base/xalloc.h"
#include "base/upper.h"

void
perfmap_init(struct perfmap *m)
{
	memset(m, 0, sizeof(*m));
}

void
perfmap_release(struct perfmap *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->syms[i].name);
	free(m->syms);
	perfmap_init(m);
}

void
perfmap_free(struct perfmap *m)
{
	if (m == NULL)
		return;
	perfmap_release(m);
	free(m);
}

/*
 * Parses a hex number with an optional 0x, after blanks and before one;
 * returns 0 on success.
 */
static int
hexnum(char **pp, uint64_t *v)
{
	char *p = *pp;
	size_t n;

	while (*p == ' ' || *p == '\t')
		p++;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (num_x64(p, strlen(p), v, &n) != NUM_OK ||
	    (p[n] != ' ' && p[n] != '\t'))
		return -1;
	*pp = p + n;
	return 0;
}

/* Sorts by start, then by line number. */
static int
cmp_sym(const void *a, const void *b)
{
	const struct perfmap_sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/*
 * Is a map owned by uid to be believed for process pid? Anyone may write
 * /tmp/perf-PID.map before process PID exists. As perf does, a map is
 * used when root or the user running this owns it; and also when the
 * user of the running process PID does (a root fgsym on another user's
 * JIT). pid is taken from the file name, "perf-PID.map".
 */
static int
trusted(const char *path, uid_t uid)
{
	const char *b = strrchr(path, '/');
	char proc[64];
	struct stat st;
	uint64_t pid;
	size_t n;

	if (uid == 0 || uid == geteuid())
		return 1;
	b = b ? b + 1 : path;
	if (strncmp(b, "perf-", 5) != 0)
		return 0;
	if (num_u64(b + 5, strlen(b + 5), &pid, &n) != NUM_OK ||
	    strcmp(b + 5 + n, ".map") != 0)
		return 0;
	snprintf(proc, sizeof(proc), "/proc/%" PRIu64, pid);
	return stat(proc, &st) == 0 && st.st_uid == uid;
}

int
perfmap_load(struct perfmap *m, const char *path)
{
	FILE *fp;
	char *line = NULL, *p;
	size_t cap = 0, i, j;
	ssize_t len;
	unsigned long lineno = 0;
	uint64_t total = 0;
	struct stat st;
	int fd, rc = 0;

	/*
	 * Anyone may create /tmp/perf-PID.map: a FIFO, a device or a
	 * directory is never opened, a huge (sparse) file never read.
	 */
	if ((fd = safeopen(path, &st)) < 0)
		return fd == SAFEOPEN_NOTREG ? PERFMAP_NOTREG : -1;
	m->uid = st.st_uid;
	if ((uint64_t)st.st_size > PERFMAP_MAX) {
		close(fd);
		return PERFMAP_TOOBIG;
	}
	if (!trusted(path, st.st_uid)) {
		close(fd);
		return PERFMAP_UNTRUSTED;
	}
	if ((fp = fdopen(fd, "r")) == NULL) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	while ((len = getline(&line, &cap, fp)) != -1) {
		struct perfmap_sym s;

		lineno++;
		if ((total += len) > PERFMAP_MAX) {	/* it grew */
			rc = PERFMAP_TOOBIG;
			break;
		}
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (len == 0)
			continue;
		p = line;
		if (hexnum(&p, &s.start) != 0 || hexnum(&p, &s.size) != 0) {
			if (m->bad++ == 0)
				m->first_bad = lineno;
			continue;
		}
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0' || s.size == 0) {
			if (m->bad++ == 0)
				m->first_bad = lineno;
			continue;
		}
		s.name = xstrdup(p);
		s.line = lineno;
		GROW(m->syms, m->n + 1, m->cap);
		m->syms[m->n++] = s;
	}
	free(line);
	if (ferror(fp)) {
		int e = errno;

		fclose(fp);
		errno = e;
		return -1;
	}
	fclose(fp);
	if (rc != 0)
		return rc;
	/* Equal starts sort by line: keep the last of each run. */
	if (m->n > 1)
		qsort(m->syms, m->n, sizeof(*m->syms), cmp_sym);
	for (i = j = 0; i < m->n; i++) {
		if (j > 0 && m->syms[j - 1].start == m->syms[i].start) {
			free(m->syms[j - 1].name);
			m->syms[j - 1] = m->syms[i];
			continue;
		}
		m->syms[j++] = m->syms[i];
	}
	m->n = j;
	return 0;
}

const char *
perfmap_strerror(const struct perfmap *m, int rc)
{
	static char buf[128];

	switch (rc) {
	case PERFMAP_NOTREG:
		return "not a regular file";
	case PERFMAP_TOOBIG:
		snprintf(buf, sizeof(buf), "larger than %ju MiB, not read",
		    (uintmax_t)(PERFMAP_MAX >> 20));
		return buf;
	case PERFMAP_UNTRUSTED:
		snprintf(buf, sizeof(buf), "owned by uid %lu, neither you, nor "
		    "root, nor the process's user: not trusted", m->uid);
		return buf;
	}
	return strerror(errno);
}

const char *
perfmap_lookup(const struct perfmap *m, uint64_t addr, uint64_t *off)
{
	size_t lo = UPPER(m->syms, m->n, addr, start);

	if (lo == 0)
		return NULL;
	lo--;
	if (addr - m->syms[lo].start >= m->syms[lo].size)
		return NULL;
	*off = addr - m->syms[lo].start;
	return m->syms[lo].name;
}
