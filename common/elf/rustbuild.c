/*
 * rustbuild: what the environment shows of a Rust binary's build, for
 * the advice on its missing debug info or symbols (rustbuild.h).
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/safeopen.h"
#include "base/xalloc.h"
#include "elf/rustbuild.h"

/* A flag of a config file's rustflags, and where it was written. */
struct cflag {
	char		*flag;
	const char	*file;	/* borrowed from struct cfgs */
	unsigned	 line;
};

/* The rustflags lists of the config files: [target.*]'s and [build]'s. */
struct cfgs {
	struct cflag	*v[2];	/* 0: target, 1: build */
	size_t		 n[2], cap[2];
	char		**files;
	size_t		 nfiles;
};

/*
 * Does the linker argument a strip the symbols (kind 2: -s, --strip-all)
 * or the debug info only (kind 1: -S, --strip-debug)? 0 for neither.
 * Through the compiler driver as -Wl,ARG too.
 */
static int
link_strip(const char *a)
{
	if (strncmp(a, "-Wl,", 4) == 0) {
		const char *p = a + 4, *c;

		for (;;) {
			char one[32];
			size_t n;
			int k;

			c = strchr(p, ',');
			n = c ? (size_t)(c - p) : strlen(p);
			if (n < sizeof(one)) {
				memcpy(one, p, n);
				one[n] = '\0';
				if ((k = link_strip(one)) != 0)
					return k;
			}
			if (c == NULL)
				return 0;
			p = c + 1;
		}
	}
	if (strcmp(a, "-s") == 0 || strcmp(a, "--strip-all") == 0)
		return 2;
	if (strcmp(a, "-S") == 0 || strcmp(a, "--strip-debug") == 0 ||
	    strcmp(a, "-g0") == 0)
		return 1;
	return 0;
}

int
rustbuild_flags(char *const *flags, int n, int stripped, char *what)
{
	int i, dbg = -1, strip = -1, strip_sym = 0, link = -1, link_sym = 0;
	const char *dbgv = NULL, *linkv = NULL;

	for (i = 0; i < n; i++) {
		const char *t = flags[i], *o = NULL, *v;
		int at = i;

		if (strcmp(t, "-C") == 0 || strcmp(t, "--codegen") == 0) {
			if (i + 1 < n)
				o = flags[++i];
			at = i;
		} else if (strncmp(t, "-C", 2) == 0)
			o = t + 2;
		else if (strncmp(t, "--codegen=", 10) == 0)
			o = t + 10;
		if (o == NULL || (v = strchr(o, '=')) == NULL)
			continue;
		v++;
		if (strncmp(o, "debuginfo=", 10) == 0) {
			dbg = strcmp(v, "0") == 0 || strcmp(v, "none") == 0 ?
			    at : -1;
			dbgv = v;
		} else if (strncmp(o, "strip=", 6) == 0) {
			strip = strcmp(v, "symbols") == 0 ||
			    strcmp(v, "debuginfo") == 0 ? at : -1;
			strip_sym = strcmp(v, "symbols") == 0;
		} else if (strncmp(o, "link-arg=", 9) == 0) {
			int k = link_strip(v);

			if (k > 0 && (k == 2 || !link_sym || link < 0)) {
				link = at;
				link_sym = k == 2;
				linkv = o;
			}
		} else if (strncmp(o, "link-args=", 10) == 0) {
			char *w = xstrdup(v), *save = NULL, *p;

			for (p = strtok_r(w, " \t", &save); p != NULL;
			    p = strtok_r(NULL, " \t", &save)) {
				int k = link_strip(p);

				if (k > 0 && (k == 2 || !link_sym || link < 0)) {
					link = at;
					link_sym = k == 2;
					linkv = o;
				}
			}
			free(w);
		}
	}
	if (strip >= 0 && (strip_sym || !stripped)) {
		snprintf(what, RUSTBUILD_WHAT, "-C strip=%s", strip_sym ?
		    "symbols" : "debuginfo");
		return strip;
	}
	if (link >= 0 && (link_sym || !stripped)) {
		snprintf(what, RUSTBUILD_WHAT, "-C %.*s", RUSTBUILD_WHAT - 8,
		    linkv);
		return link;
	}
	if (dbg >= 0 && !stripped) {
		snprintf(what, RUSTBUILD_WHAT, "-C debuginfo=%s", dbgv);
		return dbg;
	}
	return -1;
}

/* The flags of s split at any byte of seps: *v (the caller frees each). */
static int
split(const char *s, const char *seps, char ***v)
{
	char *w = xstrdup(s), *save = NULL, *p;
	size_t cap = 0;
	int n = 0;

	*v = NULL;
	for (p = strtok_r(w, seps, &save); p != NULL;
	    p = strtok_r(NULL, seps, &save)) {
		GROW(*v, (size_t)n + 1, cap);
		(*v)[n++] = xstrdup(p);
	}
	free(w);
	return n;
}

static void
free_flags(char **v, int n)
{
	while (n-- > 0)
		free(v[n]);
	free(v);
}

/* A flag list from the environment: "NAME sets -C ...", or NULL. */
static char *
env_cause(const char *name, const char *seps, int stripped, int *set)
{
	const char *e = getenv(name);
	char **v, what[RUSTBUILD_WHAT], *r = NULL;
	int n;

	if (e == NULL)
		return NULL;
	*set = 1;
	n = split(e, seps, &v);
	if (rustbuild_flags(v, n, stripped, what) >= 0)
		r = xasprintf("%s sets %s", name, what);
	free_flags(v, n);
	return r;
}

static void
cfg_add(struct cfgs *c, int k, char *flag, const char *file, unsigned line)
{
	GROW(c->v[k], c->n[k] + 1, c->cap[k]);
	c->v[k][c->n[k]].flag = flag;
	c->v[k][c->n[k]].file = file;
	c->v[k][c->n[k]++].line = line;
}

/*
 * The TOML strings of a rustflags value from *p on: one string (its
 * flags split at white space), or an array of strings, which may go on
 * over the next lines of fp (*line counted). Each flag goes to list k.
 */
static void
cfg_value(struct cfgs *c, int k, const char *file, FILE *fp, char **buf,
    size_t *cap, const char *p, unsigned *line)
{
	int array = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '[') {
		array = 1;
		p++;
	}
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == ',' || *p == '\r' ||
		    *p == '\n')
			p++;
		if (*p == '"' || *p == '\'') {
			char q = *p++, *s = xmalloc(strlen(p) + 1), **v;
			size_t n = 0;
			int i, nv;

			while (*p != '\0' && *p != q) {
				if (q == '"' && *p == '\\' && p[1] != '\0')
					p++;
				s[n++] = *p++;
			}
			s[n] = '\0';
			if (*p == q)
				p++;
			if (array)
				cfg_add(c, k, s, file, *line);
			else {
				nv = split(s, " \t", &v);
				for (i = 0; i < nv; i++)
					cfg_add(c, k, v[i], file, *line);
				free(v);
				free(s);
			}
			if (!array)
				return;
			continue;
		}
		if (!array || *p == ']')
			return;
		if (*p == '\0' || *p == '#') {
			if (getline(buf, cap, fp) < 0)
				return;
			(*line)++;
			p = *buf;
			continue;
		}
		p++;	/* something else: passed over */
	}
}

/* Reads the rustflags of one config file, if it is there. */
static void
cfg_read(struct cfgs *c, const char *path)
{
	char *buf = NULL, *file;
	size_t cap = 0;
	unsigned line = 0;
	int fd, table = 0;	/* 0 top level or other, 1 [build], 2 [target.*] */
	FILE *fp;

	/* a name found by walking up from the binary: a FIFO must not block */
	if ((fd = safeopen(path, NULL)) < 0)
		return;
	if ((fp = fdopen(fd, "r")) == NULL) {
		close(fd);
		return;
	}
	c->files = xrealloc(c->files, (c->nfiles + 1) * sizeof(*c->files));
	file = c->files[c->nfiles++] = xstrdup(path);
	while (getline(&buf, &cap, fp) >= 0) {
		char *p = buf, *eq, *e;
		size_t kl;
		int k = -1;

		line++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '[') {
			table = strncmp(p, "[build]", 7) == 0 ? 1 :
			    strncmp(p, "[target.", 8) == 0 ? 2 : 0;
			continue;
		}
		if ((eq = strchr(p, '=')) == NULL || *p == '#')
			continue;
		for (e = eq; e > p && (e[-1] == ' ' || e[-1] == '\t'); e--)
			;
		kl = (size_t)(e - p);
		if (kl == 9 && strncmp(p, "rustflags", 9) == 0 && table > 0)
			k = table == 2 ? 0 : 1;
		else if (table == 0 && kl == 15 &&
		    strncmp(p, "build.rustflags", 15) == 0)
			k = 1;
		else if (table == 0 && kl > 17 && strncmp(p, "target.", 7) ==
		    0 && strncmp(e - 10, ".rustflags", 10) == 0)
			k = 0;
		if (k >= 0)
			cfg_value(c, k, file, fp, &buf, &cap, eq + 1, &line);
	}
	free(buf);
	fclose(fp);
}

/*
 * The config files Cargo reads, nearest first: .cargo/config.toml and
 * .cargo/config from the current directory up, then $CARGO_HOME's (or
 * ~/.cargo's), each once.
 */
static void
cfg_all(struct cfgs *c)
{
	char dir[PATH_MAX], *home, *p;
	const char *ch = getenv("CARGO_HOME"), *h = getenv("HOME");
	size_t i, before;

	if (getcwd(dir, sizeof(dir)) != NULL) {
		for (;;) {
			p = xasprintf("%s/.cargo/config.toml",
			    strcmp(dir, "/") ? dir : "");
			cfg_read(c, p);
			free(p);
			p = xasprintf("%s/.cargo/config",
			    strcmp(dir, "/") ? dir : "");
			cfg_read(c, p);
			free(p);
			if ((p = strrchr(dir, '/')) == NULL || strcmp(dir, "/") == 0)
				break;
			if (p == dir)
				p[1] = '\0';
			else
				*p = '\0';
		}
	}
	if (ch != NULL && ch[0] != '\0')
		home = xstrdup(ch);
	else if (h != NULL && h[0] != '\0')
		home = xasprintf("%s/.cargo", h);
	else
		return;
	before = c->nfiles;
	p = xasprintf("%s/config.toml", home);
	/* Read already on the way up: the same path is once. */
	for (i = 0; i < before; i++)
		if (strcmp(c->files[i], p) == 0)
			break;
	if (i == before)
		cfg_read(c, p);
	free(p);
	free(home);
}

/* The config files' cause: "'FILE':LINE sets -C ...", or NULL. */
static char *
cfg_cause(int stripped)
{
	struct cfgs c;
	char what[RUSTBUILD_WHAT], **v, *r = NULL;
	size_t i, j;
	int k, at;

	memset(&c, 0, sizeof(c));
	cfg_all(&c);
	/* [target.*]'s rustflags, when there are any, else [build]'s. */
	k = c.n[0] > 0 ? 0 : 1;
	if (c.n[k] > 0) {
		v = xcalloc(c.n[k], sizeof(*v));
		for (i = 0; i < c.n[k]; i++)
			v[i] = c.v[k][i].flag;
		at = rustbuild_flags(v, (int)c.n[k], stripped, what);
		if (at >= 0)
			r = xasprintf("'%s':%u sets %s", c.v[k][at].file,
			    c.v[k][at].line, what);
		free(v);
	}
	for (k = 0; k < 2; k++) {
		for (j = 0; j < c.n[k]; j++)
			free(c.v[k][j].flag);
		free(c.v[k]);
	}
	for (i = 0; i < c.nfiles; i++)
		free(c.files[i]);
	free(c.files);
	return r;
}

void
rustbuild_init(struct rustbuild *rb, int stripped)
{
	const char *p = getenv("FG_CARGO_PROFILE");
	char *u, *q;
	int set = 0;

	memset(rb, 0, sizeof(*rb));
	rb->cargo_fg = p != NULL && p[0] != '\0';
	rb->profile = xstrdup(rb->cargo_fg ? p : "release");
	rb->section = xasprintf("[profile.%s]", rb->profile);
	u = xstrdup(rb->profile);
	for (q = u; *q != '\0'; q++)
		*q = *q == '-' ? '_' : (char)toupper((unsigned char)*q);
	rb->envvar = xasprintf("CARGO_PROFILE_%s_DEBUG", u);
	free(u);
	/* Cargo's order: the first of these that is set is the one used. */
	rb->cause = env_cause("CARGO_ENCODED_RUSTFLAGS", "\x1f", stripped,
	    &set);
	if (!set)
		rb->cause = env_cause("RUSTFLAGS", " \t\n", stripped, &set);
	if (!set)
		rb->cause = cfg_cause(stripped);
}

void
rustbuild_release(struct rustbuild *rb)
{
	free(rb->profile);
	free(rb->section);
	free(rb->envvar);
	free(rb->cause);
	memset(rb, 0, sizeof(*rb));
}

char *
rustbuild_fix(const struct rustbuild *rb, int stripped)
{
	if (rb->cause != NULL)
		return xasprintf("%s, which Cargo's profile settings do not "
		    "undo: build without it", rb->cause);
	if (rb->cargo_fg)
		return xasprintf("cargo fg built it with %s debug = true and "
		    "no strip, and found no flag that undoes them: something "
		    "else in the build removed %s (a build script, a linker "
		    "wrapper)", rb->section, stripped ? "its symbols" :
		    "its debug info");
	return xasprintf("build it with %s debug = true (or %s=true)%s",
	    rb->section, rb->envvar, stripped ? " and no strip" : "");
}
