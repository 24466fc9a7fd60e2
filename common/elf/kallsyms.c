/*
 * kallsyms: /proc/kallsyms as a sorted table (see kallsyms.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf/kallsyms.h"
#include "base/num.h"
#include "base/safeopen.h"
#include "base/str.h"
#include "base/xalloc.h"
#include "base/upper.h"

void
kallsyms_init(struct kallsyms *k)
{
	memset(k, 0, sizeof(*k));
}

void
kallsyms_release(struct kallsyms *k)
{
	free(k->syms);
	free(k->text);
	k->syms = NULL;
	k->text = NULL;
	k->n = k->cap = 0;
}

void
kallsyms_free(struct kallsyms *k)
{
	if (k == NULL)
		return;
	kallsyms_release(k);
	free(k);
}

/* Reads all of fd into a NUL-terminated buffer; returns NULL with errno set. */
static char *
slurp(int fd)
{
	size_t len = 0, cap = 1 << 20;
	char *buf = xmalloc(cap + 1);
	ssize_t n;

	for (;;) {
		if (cap - len < 65536) {
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			free(buf);
			errno = e;
			return NULL;
		}
		if (n == 0)
			break;
		len += n;
	}
	buf[len] = '\0';
	return buf;
}

static int
cmp_sym(const void *a, const void *b)
{
	const struct kallsyms_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* Equal addresses: prefer the name without a leading '_' (stable tie break). */
	return strcmp(x->name, y->name);
}

int
kallsyms_load(struct kallsyms *k, const char *path)
{
	char *p, *nl, *end;
	int fd, nonzero = 0;

	kallsyms_release(k);
	if ((fd = safeopen(path, NULL)) == SAFEOPEN_NOTREG)
		return KALLSYMS_NOTREG;
	if (fd < 0)
		return -1;
	k->text = slurp(fd);
	close(fd);
	if (k->text == NULL)
		return -1;
	for (p = k->text; *p != '\0'; p = end) {
		struct kallsyms_sym s;
		char type, *name, *mod = NULL;
		size_t n;

		nl = strchr(p, '\n');
		if (nl != NULL) {
			*nl = '\0';
			end = nl + 1;
		} else
			end = p + strlen(p);
		/* "ffffffff81000000 T _stext" or "... t name\t[module]" */
		if (num_x64(p, (size_t)(end - p), &s.addr, &n) != NUM_OK ||
		    p[n] != ' ')
			continue;
		name = p + n;
		type = name[1];
		if (type == '\0' || name[2] != ' ')
			continue;
		name += 3;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if ((mod = strchr(name, '\t')) != NULL) {
			*mod++ = '\0';
			if (*mod == '[') {
				char *c = strchr(++mod, ']');

				if (c != NULL)
					*c = '\0';
			}
		}
		if (*name == '\0')
			continue;
		s.name = name;
		s.module = mod;
		if (s.addr != 0)
			nonzero = 1;
		GROW(k->syms, k->n + 1, k->cap);
		k->syms[k->n++] = s;
	}
	if (!nonzero)
		return -2;
	if (k->n > 1)
		qsort(k->syms, k->n, sizeof(*k->syms), cmp_sym);
	return 0;
}

const char *
kallsyms_lookup(const struct kallsyms *k, uint64_t addr, uint64_t *off,
    const char **modp)
{
	/* The last symbol whose address is <= addr. */
	size_t lo = UPPER(k->syms, k->n, addr, addr);

	if (lo == 0)
		return NULL;
	/* Among equal addresses take the first (sorted by name). */
	lo--;
	while (lo > 0 && k->syms[lo - 1].addr == k->syms[lo].addr)
		lo--;
	*off = addr - k->syms[lo].addr;
	if (modp != NULL)
		*modp = k->syms[lo].module;
	return k->syms[lo].name;
}

char *
kallsyms_buildid(const char *path)
{
	unsigned char buf[4096];
	size_t n = 0, at = 0;
	ssize_t r;
	int fd;

	if ((fd = safeopen(path, NULL)) < 0)
		return NULL;
	while (n < sizeof(buf) && (r = read(fd, buf + n, sizeof(buf) - n)) > 0)
		n += (size_t)r;
	close(fd);
	/* ELF notes: namesz, descsz, type, then name and desc, each padded to 4 */
	while (at + 12 <= n) {
		uint32_t nsz, dsz, type;
		size_t name, desc;

		memcpy(&nsz, buf + at, 4);
		memcpy(&dsz, buf + at + 4, 4);
		memcpy(&type, buf + at + 8, 4);
		name = at + 12;
		desc = name + ((nsz + 3u) & ~3u);
		if (nsz > n || dsz > n || desc > n || desc + dsz > n)
			return NULL;
		if (type == 3 && nsz == 4 && memcmp(buf + name, "GNU", 4) == 0 &&
		    dsz > 0) {
			return str_hexdup(buf + desc, dsz);
		}
		at = desc + ((dsz + 3u) & ~3u);
	}
	return NULL;
}
