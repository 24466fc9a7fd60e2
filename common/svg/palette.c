#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/cmdfile.h"
#include "base/str.h"
#include "base/lineread.h"
#include "base/num.h"
#include "base/safeopen.h"
#include "svg/palette.h"
#include "base/xalloc.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum basic { HOT, MEM, IO, RED, GREEN, BLUE, AQUA, YELLOW, PURPLE, ORANGE,
	BLACK };

enum scheme { S_HOT, S_MEM, S_IO, S_WAKEUP, S_CHAIN, S_JAVA, S_JS, S_PERL,
	S_RUST, S_PYTHON, S_RED, S_GREEN, S_BLUE, S_AQUA, S_YELLOW, S_PURPLE,
	S_ORANGE, S_NSCHEMES };

static const char *const schemes[S_NSCHEMES] = {
	"hot", "mem", "io", "wakeup", "chain", "java", "js", "perl", "rust",
	"python", "red", "green", "blue", "aqua", "yellow", "purple", "orange",
};

static int
scheme_index(const char *name)
{
	int i;

	if (name == NULL)
		return S_HOT;
	for (i = 0; i < S_NSCHEMES; i++)
		if (strcmp(schemes[i], name) == 0)
			return i;
	return -1;
}

int
palette_scheme_ok(const char *name)
{
	return scheme_index(name) >= 0;
}

int
palette_scheme_check(const char *name, char **why)
{
	struct buf b;
	int i;

	*why = NULL;
	if (name != NULL && palette_scheme_ok(name))
		return 0;
	buf_init(&b);
	buf_addf(&b, "--colors '%s' is not a palette; use ", name);
	for (i = 0; i < S_NSCHEMES; i++)
		buf_addf(&b, "%s%s", i == 0 ? "" : i < S_NSCHEMES - 1 ? ", " :
		    " or ", schemes[i]);
	*why = buf_detach(&b, NULL);
	return 2;
}

int
palette_init(struct palette *p, const struct palette_opts *o)
{
	memset(p, 0, sizeof(*p));
	p->opts = *o;
	if ((p->scheme = scheme_index(o->scheme)) < 0)
		return -1;
	/* The drand48 seeding that Perl's srand uses. */
	p->rstate = ((o->seed & 0xffffffff) << 16) | 0x330e;
	svgmap_init(&p->map);
	return 0;
}

void
palette_release(struct palette *p)
{
	svgmap_release(&p->map);
}

/* One step of drand48, the generator behind Perl's rand(). */
static double
drand48_next(uint64_t *x)
{
	*x = (*x * 0x5deece66dULL + 0xb) & 0xffffffffffffULL;
	return (double)*x / 281474976710656.0;
}

/*
 * Decodes UTF-8 into code points, as Perl sees a name read through its
 * :utf8 layer; a byte that starts no valid sequence stands for itself.
 * Returns the number of code points; *cp is reallocated as needed.
 */
static size_t
decode(const char *s, size_t len, uint32_t **cp, size_t *cap)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, n = 0;

	while (i < len) {
		uint32_t c = u[i];
		size_t k = 0, j;

		if (c >= 0xc2 && c <= 0xdf)
			k = 1, c &= 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			k = 2, c &= 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			k = 3, c &= 0x07;
		if (k > 0 && i + k < len) {
			for (j = 1; j <= k; j++)
				if ((u[i + j] & 0xc0) != 0x80)
					break;
			if (j > k) {
				for (j = 1; j <= k; j++)
					c = (c << 6) | (u[i + j] & 0x3f);
			} else {
				k = 0;
				c = u[i];
			}
		} else {
			k = 0;
			c = u[i];
		}
		if (n + 1 > *cap)
			GROW(*cp, n + 1, *cap);
		(*cp)[n++] = c;
		i += k + 1;
	}
	return n;
}

/*
 * flamegraph.pl's namehash: a value in [0, 1] from the first three
 * characters of the name, after dropping a "module`" prefix.
 */
static double
namehash(const uint32_t *c, size_t n)
{
	double vector = 0, weight = 1, max = 1;
	size_t i, start = 0;
	int mod = 10;

	for (i = 1; i < n; i++)
		if (c[i] == '`') {
			start = i + 1;
			break;
		}
	for (i = start; i < n; i++) {
		int v = (int)(c[i] % (uint32_t)mod);

		vector += ((double)v / (mod++ - 1)) * weight;
		max += weight;
		weight *= 0.70;
		if (mod > 12)
			break;
	}
	return 1 - vector / max;
}

static enum basic
java(const char *s, size_t len)
{
	static const char *const pkgs[] = { "java/", "javax/", "jdk/", "net/",
		"org/", "com/", "io/", "sun/" };
	const char *t = s;
	size_t tl = len, i;

	if (str_ends(s, len, "_[j]"))
		return GREEN;
	if (str_ends(s, len, "_[i]"))
		return AQUA;
	if (tl > 0 && t[0] == 'L')
		t++, tl--;
	for (i = 0; i < sizeof(pkgs) / sizeof(pkgs[0]); i++)
		if (str_starts(s, len, pkgs[i]) || str_starts(t, tl, pkgs[i]))
			return GREEN;
	if (str_has(s, len, ":::"))
		return GREEN;
	if (str_has(s, len, "::"))
		return YELLOW;
	if (str_ends(s, len, "_[k]"))
		return ORANGE;
	return RED;
}

static enum basic
js(const char *s, size_t len)
{
	const char *slash;

	if (str_ends(s, len, "_[j]"))
		return memchr(s, '/', len) != NULL ? GREEN : AQUA;
	if (str_has(s, len, "::"))
		return YELLOW;
	if ((slash = memchr(s, '/', len)) != NULL &&
	    str_has(slash, len - (slash - s), ".js"))
		return GREEN;
	if (memchr(s, ':', len) != NULL)
		return AQUA;
	if (len == 1 && s[0] == ' ')
		return GREEN;
	if (str_has(s, len, "_[k]"))
		return ORANGE;
	return RED;
}

static enum basic
perl(const char *s, size_t len)
{
	if (str_has(s, len, "::"))
		return YELLOW;
	if (str_has(s, len, "Perl") || str_has(s, len, ".pl"))
		return GREEN;
	if (str_ends(s, len, "_[k]"))
		return ORANGE;
	return RED;
}

/*
 * Rust: the standard library (std, core, alloc, also as the self type of a
 * trait impl, "<std::...") orange, the program's and its crates' functions
 * (paths with "::") aqua, C code such as libc yellow, the kernel purple.
 */
static enum basic
rust(const char *s, size_t len)
{
	static const char *const sys[] = { "std::", "core::", "alloc::",
		"<std::", "<core::", "<alloc::" };
	const char *tick = memchr(s, '`', len);
	size_t i;

	if (str_ends(s, len, "_[k]"))
		return PURPLE;
	if (tick != NULL) {
		len -= tick + 1 - s;
		s = tick + 1;
	}
	for (i = 0; i < sizeof(sys) / sizeof(sys[0]); i++)
		if (str_starts(s, len, sys[i]))
			return ORANGE;
	if (str_has(s, len, "::"))
		return AQUA;
	return YELLOW;
}

/* A path component "pythonN.N" or "PythonNN": the standard library. */
static int
pystdlib(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		size_t j = i, k;

		while (j < len && s[j] != '/' && s[j] != '\\')
			j++;
		if ((str_starts(s + i, j - i, "python") ||
		    str_starts(s + i, j - i, "Python")) && j - i > 6) {
			for (k = i + 6; k < j; k++)
				if (!((s[k] >= '0' && s[k] <= '9') || s[k] == '.'))
					break;
			if (k == j)
				return 1;
		}
		i = j + 1;
	}
	return 0;
}

/*
 * Python: installed packages (site-packages) aqua, the standard library and
 * built-ins yellow, the program's own code red, the kernel purple.
 */
static enum basic
python(const char *s, size_t len)
{
	if (str_ends(s, len, "_[k]"))
		return PURPLE;
	if (str_has(s, len, "/site-packages/") || str_has(s, len, "\\site-packages\\"))
		return AQUA;
	if (pystdlib(s, len) || str_starts(s, len, "<built-in") ||
	    str_starts(s, len, "<frozen") || str_starts(s, len, "<method"))
		return YELLOW;
	return RED;
}

static enum basic
resolve(int scheme, const char *s, size_t len)
{
	switch (scheme) {
	case S_HOT:	return HOT;
	case S_MEM:	return MEM;
	case S_IO:	return IO;
	case S_WAKEUP:	return AQUA;
	case S_CHAIN:	return str_has(s, len, "_[w]") ? AQUA : BLUE;
	case S_JAVA:	return java(s, len);
	case S_JS:	return js(s, len);
	case S_PERL:	return perl(s, len);
	case S_RUST:	return rust(s, len);
	case S_PYTHON:	return python(s, len);
	case S_RED:	return RED;
	case S_GREEN:	return GREEN;
	case S_BLUE:	return BLUE;
	case S_AQUA:	return AQUA;
	case S_YELLOW:	return YELLOW;
	case S_PURPLE:	return PURPLE;
	case S_ORANGE:	return ORANGE;
	}
	return BLACK;
}

/* Writes "rgb(R,G,B)" into out, without printf in the common case. */
static void
fmt_rgb(char *out, int r, int g, int b)
{
	int v[3] = { r, g, b }, i;

	if (r < 0 || g < 0 || b < 0 || r > 999 || g > 999 || b > 999) {
		snprintf(out, PALETTE_COLORLEN, "rgb(%d,%d,%d)", r, g, b);
		return;
	}
	memcpy(out, "rgb(", 4);
	out += 4;
	for (i = 0; i < 3; i++) {
		int c = v[i];

		if (c >= 100)
			*out++ = (char)('0' + c / 100);
		if (c >= 10)
			*out++ = (char)('0' + c / 10 % 10);
		*out++ = (char)('0' + c % 10);
		*out++ = i < 2 ? ',' : ')';
	}
	*out = '\0';
}

static void
compute(struct palette *p, const char *name, size_t len, char *out)
{
	static __thread uint32_t *cp;
	static __thread size_t cap;
	double v1, v2, v3;
	int r, g, b;
	size_t n, i;

	if (p->opts.hash) {
		n = decode(name, len, &cp, &cap);
		v1 = namehash(cp, n);
		for (i = 0; i < n / 2; i++) {
			uint32_t t = cp[i];

			cp[i] = cp[n - 1 - i];
			cp[n - 1 - i] = t;
		}
		v2 = v3 = namehash(cp, n);
	} else if (p->opts.random) {
		v1 = drand48_next(&p->rstate);
		v2 = drand48_next(&p->rstate);
		v3 = drand48_next(&p->rstate);
	} else {
		/* srand(sum of the code points); rand(1). */
		uint64_t x;
		uint32_t sum = 0;

		n = decode(name, len, &cp, &cap);
		for (i = 0; i < n; i++)
			sum += cp[i];
		x = ((uint64_t)sum << 16) | 0x330e;
		v1 = v2 = v3 = drand48_next(&x);
	}
	switch (resolve(p->scheme, name, len)) {
	case HOT:
		r = 205 + (int)(50 * v3), g = (int)(230 * v1),
		    b = (int)(55 * v2);
		break;
	case MEM:
		r = 0, g = 190 + (int)(50 * v2), b = (int)(210 * v1);
		break;
	case IO:
		r = g = 80 + (int)(60 * v1), b = 190 + (int)(55 * v2);
		break;
	case RED:
		r = 200 + (int)(55 * v1), g = b = 50 + (int)(80 * v1);
		break;
	case GREEN:
		g = 200 + (int)(55 * v1), r = b = 50 + (int)(60 * v1);
		break;
	case BLUE:
		b = 205 + (int)(50 * v1), r = g = 80 + (int)(60 * v1);
		break;
	case YELLOW:
		r = g = 175 + (int)(55 * v1), b = 50 + (int)(20 * v1);
		break;
	case PURPLE:
		r = b = 190 + (int)(65 * v1), g = 80 + (int)(60 * v1);
		break;
	case AQUA:
		r = 50 + (int)(60 * v1), g = b = 165 + (int)(55 * v1);
		break;
	case ORANGE:
		r = 190 + (int)(65 * v1), g = 90 + (int)(65 * v1), b = 0;
		break;
	default:
		r = g = b = 0;
		break;
	}
	fmt_rgb(out, r, g, b);
}

void
palette_color(struct palette *p, const char *name, size_t len,
    char out[PALETTE_COLORLEN])
{
	const char *v;
	size_t vlen;

	/*
	 * A name's colour depends on the name only, unless --random: the map
	 * is then a cache too (written out only for --cp).
	 */
	if (p->use_map || !p->opts.random) {
		if ((v = svgmap_get(&p->map, name, len, &vlen)) != NULL &&
		    vlen < PALETTE_COLORLEN) {
			memcpy(out, v, vlen + 1);
			return;
		}
		compute(p, name, len, out);
		svgmap_put(&p->map, name, len, out, strlen(out));
		return;
	}
	compute(p, name, len, out);
}

void
palette_diff(double value, double max, int negate, char out[PALETTE_COLORLEN])
{
	int r = 255, g = 255, b = 255;

	if (negate)
		value = -value;
	if (max <= 0)
		max = 1;
	if (value > 0)
		g = b = (int)(210 * (max - value) / max);
	else if (value < 0)
		r = g = (int)(210 * (max + value) / max);
	fmt_rgb(out, r, g, b);
}

void
palette_change(double strength, int slower, int negate,
    char out[PALETTE_COLORLEN])
{
	/* weak and strong ends of each hue; black text reads on both */
	static const int ramp[2][2][3] = {
		{ { 190, 205, 250 }, { 80, 120, 235 } },	/* faster */
		{ { 250, 195, 185 }, { 225, 75, 60 } }		/* slower */
	};
	const int (*c)[3] = ramp[(slower != 0) != (negate != 0)];
	double s = strength < 0 ? 0 : strength > 1 ? 1 : strength;
	int v[3], i;

	for (i = 0; i < 3; i++)
		v[i] = (int)(c[0][i] + s * (c[1][i] - c[0][i]) + 0.5);
	fmt_rgb(out, v[0], v[1], v[2]);
}

int
palette_background(const char *scheme, const char *bg, const char **c1,
    const char **c2, char **why)
{
	int s = scheme_index(scheme);
	size_t i;

	*why = NULL;
	if (bg == NULL || *bg == '\0') {
		if (s == S_MEM)
			bg = "green";
		else if (s == S_IO || s == S_WAKEUP || s == S_CHAIN)
			bg = "blue";
		else if (s >= S_RED)
			bg = "grey";
		else
			bg = "yellow";
	}
	if (strcmp(bg, "yellow") == 0)
		*c1 = "#eeeeee", *c2 = "#eeeeb0";
	else if (strcmp(bg, "blue") == 0)
		*c1 = "#eeeeee", *c2 = "#e0e0ff";
	else if (strcmp(bg, "green") == 0)
		*c1 = "#eef2ee", *c2 = "#e0ffe0";
	else if (strcmp(bg, "grey") == 0 || strcmp(bg, "gray") == 0)
		*c1 = "#f8f8f8", *c2 = "#e8e8e8";
	else if (bg[0] == '#' && strlen(bg) == 7) {
		for (i = 1; i < 7; i++)
			if (strchr("0123456789abcdefABCDEF", bg[i]) == NULL)
				goto bad;
		*c1 = *c2 = bg;
	} else
		goto bad;
	return 0;
bad:
	*why = xasprintf("--bgcolors '%s' is not a background; use yellow, "
	    "blue, green, grey or #rrggbb", bg);
	return 2;
}

/*
 * Is s[0..n) a colour as palette_color writes it, "rgb(R,G,B)" with each of
 * R, G and B from 0 to 255? Only such text may reach the SVG's fill
 * attribute: a palette.map line is not trusted to be well-formed.
 */
static int
color_ok(const char *s, size_t n)
{
	const char *end = s + n;
	int i, v, digits;

	if (n < 4 || memcmp(s, "rgb(", 4) != 0)
		return 0;
	s += 4;
	for (i = 0; i < 3; i++) {
		for (v = digits = 0; s < end && *s >= '0' && *s <= '9' &&
		    digits < 3; s++, digits++)
			v = v * 10 + (*s - '0');
		if (digits == 0 || v > 255 || s == end || *s++ != (i < 2 ?
		    ',' : ')'))
			return 0;
	}
	return s == end;
}

int
palette_load(struct palette *p, const char *path, unsigned long *bad)
{
	struct lineread lr;
	struct stat st;
	char *line, *arrow, *a;
	ssize_t len;
	int fd, e;

	p->use_map = 1;
	if (bad != NULL)
		*bad = 0;
	/* Not through a symbolic link (ELOOP), and only a regular file. */
	if ((fd = safeopen_flags(path, SAFEOPEN_NOFOLLOW, &st)) == -1)
		return errno == ENOENT ? 0 : -1;
	if (fd == SAFEOPEN_NOTREG) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		return -1;
	}
	lineread_init(&lr, fd, path);
	while ((len = lineread_next(&lr, &line)) >= 0) {
		/* The colour never holds "->"; a name may ("operator->"). */
		arrow = NULL;
		for (a = line; (a = memmem(a, line + len - a, "->", 2)) != NULL;
		    a++)
			arrow = a;
		if (arrow == NULL || !color_ok(arrow + 2, line + len -
		    (arrow + 2))) {
			if (bad != NULL && *bad == 0)
				*bad = lr.lineno;
			continue;
		}
		svgmap_put(&p->map, line, arrow - line, arrow + 2,
		    line + len - (arrow + 2));
	}
	e = lr.error;
	lineread_release(&lr);
	close(fd);
	if (e != 0) {
		errno = e;
		return -1;
	}
	return 0;
}

int
palette_save(struct palette *p, const char *path)
{
	struct svgmap_entry **v;
	struct stat st;
	size_t n, i;
	char *tmp;
	mode_t um;
	FILE *f;
	int fd, e;

	/*
	 * Never through what the name is now: a symbolic link or anything
	 * not a regular file is refused (ELOOP, EINVAL), and the new file is
	 * written aside and renamed over the name, which replaces the name
	 * itself even if it was swapped for a link in the meantime.
	 */
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		errno = S_ISLNK(st.st_mode) ? ELOOP : S_ISDIR(st.st_mode) ?
		    EISDIR : EINVAL;
		return -1;
	}
	tmp = xmalloc(strlen(path) + 8);
	sprintf(tmp, "%s.XXXXXX", path);
	if ((fd = mkostemp(tmp, O_CLOEXEC)) < 0) {
		e = errno;
		free(tmp);
		errno = e;
		return -1;
	}
	um = umask(0);
	umask(um);
	if (fchmod(fd, 0666 & ~um) == -1 || (f = fdopen(fd, "w")) == NULL) {
		e = errno;
		close(fd);
		goto fail;
	}
	v = svgmap_sorted(&p->map, &n);
	for (i = 0; i < n; i++) {
		fwrite(v[i]->key, 1, v[i]->klen, f);
		fputs("->", f);
		fwrite(v[i]->val, 1, v[i]->vlen, f);
		putc('\n', f);
	}
	free(v);
	e = ferror(f) ? (errno ? errno : EIO) : 0;
	if (fclose(f) != 0 && e == 0)
		e = errno;
	if (e == 0 && rename(tmp, path) == -1)
		e = errno;
	if (e == 0) {
		free(tmp);
		return 0;
	}
fail:
	unlink(tmp);
	free(tmp);
	errno = e;
	return -1;
}

int
palette_cp_load(struct palette *p, const char *path, char **why)
{
	unsigned long bad;

	*why = NULL;
	if (palette_load(p, path, &bad) != 0) {
		if (errno == EINVAL || errno == ELOOP)
			*why = xasprintf("'%s' is not a regular file%s: move it "
			    "away, or run --cp in another directory", path,
			    errno == ELOOP ?
			    " but a symbolic link, not followed" : "");
		else
			*why = xasprintf("cannot read the palette file '%s': %s",
			    path, strerror(errno));
		return 2;
	}
	if (bad == 0)
		return 0;
	*why = xasprintf("%s:%lu: expected \"NAME->rgb(R,G,B)\"; line skipped",
	    path, bad);
	return 1;
}

int
palette_cp_save(struct palette *p, const char *path, char **why)
{
	*why = NULL;
	if (palette_save(p, path) == 0)
		return 0;
	if (errno == EINVAL || errno == ELOOP)
		*why = xasprintf("'%s' is no longer a regular file%s: not "
		    "written; move it away", path, errno == ELOOP ?
		    " but a symbolic link, not followed" : "");
	else
		*why = cmdfile_write_why(path, errno);
	return 2;
}

int
palette_seed(const char *env, uint64_t *seed, char **why)
{
	*why = NULL;
	if (env == NULL || *env == '\0') {
		*seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
		return 0;
	}
	if (num_arg(env, 0, UINT64_MAX, seed) != 0) {
		*why = xasprintf("FGSVG_SEED='%s': expected a whole number", env);
		return 2;
	}
	return 0;
}
