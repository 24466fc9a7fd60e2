/*
 * fuzz_palette: fgsvg --cp's palette file. The input is the palette.map
 * (any bytes); every name in it is coloured through the loaded map and
 * every colour must be "rgb(R,G,B)", the only text that may reach the
 * SVG's fill attribute unescaped. The map is saved and loaded again: the
 * colours must survive.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "svg/palette.h"

/* Aborts unless c is "rgb(R,G,B)", each from 0 to 255. */
static void
check_color(const char *c)
{
	int r, g, b, n = 0;

	if (strlen(c) >= PALETTE_COLORLEN ||
	    sscanf(c, "rgb(%3d,%3d,%3d)%n", &r, &g, &b, &n) != 3 ||
	    c[n] != '\0' || r < 0 || r > 255 || g < 0 || g > 255 || b < 0 ||
	    b > 255 || strpbrk(c, "\"'<>& ") != NULL) {
		fprintf(stderr, "fuzz_palette: bad colour '%s'\n", c);
		abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct palette_opts po = { .scheme = "hot" };
	struct palette p, q;
	char path[64], saved[64], c1[PALETTE_COLORLEN], c2[PALETTE_COLORLEN];
	const uint8_t *s, *nl, *end = data + size;
	unsigned long bad;
	int fd;

	/* A regular file: --cp never reads through a link, and
	   /proc/self/fd/N is one. */
	snprintf(path, sizeof(path), "/tmp/fuzz_palette_in.%d", (int)getpid());
	snprintf(saved, sizeof(saved), "/tmp/fuzz_palette.%d", (int)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd == -1 || write(fd, data, size) != (ssize_t)size)
		abort();
	if (palette_init(&p, &po) != 0 || palette_init(&q, &po) != 0)
		abort();
	if (palette_load(&p, path, &bad) != 0)
		abort();
	/* ... and never writes through one */
	unlink(saved);
	if (symlink(path, saved) != 0)
		abort();
	if (palette_save(&p, saved) == 0 || errno != ELOOP) {
		fprintf(stderr, "fuzz_palette: saved through a symbolic link\n");
		abort();
	}
	unlink(saved);
	for (s = data; s < end; s = nl + 1) {
		const uint8_t *arrow;

		if ((nl = memchr(s, '\n', end - s)) == NULL)
			nl = end;
		arrow = memmem(s, nl - s, "->", 2);
		palette_color(&p, (const char *)s, arrow ? (size_t)(arrow - s) :
		    (size_t)(nl - s), c1);
		check_color(c1);
	}
	if (palette_save(&p, saved) != 0 || palette_load(&q, saved, &bad) != 0)
		abort();
	if (bad != 0) {
		fprintf(stderr, "fuzz_palette: a saved line does not load\n");
		abort();
	}
	for (s = data; s < end; s = nl + 1) {
		const uint8_t *arrow;
		size_t n;

		if ((nl = memchr(s, '\n', end - s)) == NULL)
			nl = end;
		arrow = memmem(s, nl - s, "->", 2);
		n = arrow ? (size_t)(arrow - s) : (size_t)(nl - s);
		palette_color(&p, (const char *)s, n, c1);
		palette_color(&q, (const char *)s, n, c2);
		if (strcmp(c1, c2) != 0) {
			fprintf(stderr, "fuzz_palette: '%s' became '%s'\n", c1,
			    c2);
			abort();
		}
	}
	unlink(saved);
	unlink(path);
	palette_release(&p);
	palette_release(&q);
	close(fd);
	return 0;
}
