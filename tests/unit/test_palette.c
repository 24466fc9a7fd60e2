/* Unit tests of common/svg/palette.c: the colour rules of each palette (as
 * flamegraph.pl's), the kernel's _[k] mark, --hash and the default colours
 * depending on the name only, --random repeatable from its seed, the
 * differential scale, the backgrounds, and the --cp palette file's round
 * trip. A failure prints what it got and what it wanted. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "svg/palette.h"
#include "unit.h"

/*
 * The family of a colour, from the shape of its R, G and B as compute()
 * makes them (equal pairs, which one is larger): "red", "green", "blue",
 * "yellow", "orange", "purple", "aqua", or "other".
 */
static const char *
family(const char *c)
{
	int r, g, b;

	if (sscanf(c, "rgb(%d,%d,%d)", &r, &g, &b) != 3)
		return "not rgb(R,G,B)";
	if (b == 0 && r > g && g >= 90)
		return "orange";
	if (r == g && b < r)
		return "yellow";
	if (r == g && b > r)
		return "blue";
	if (g == b && r < g)
		return "aqua";
	if (g == b && r > g)
		return "red";
	if (r == b && g > r)
		return "green";
	if (r == b && g < r)
		return "purple";
	return "other";
}

/* The family that scheme gives name, with --hash when hash is set. */
static const char *
family_of(const char *scheme, int hash, const char *name)
{
	struct palette_opts o = { .scheme = scheme, .hash = hash };
	static char c[PALETTE_COLORLEN];
	struct palette p;

	if (palette_init(&p, &o) != 0)
		return "no such scheme";
	palette_color(&p, name, strlen(name), c);
	palette_release(&p);
	return family(c);
}

static void
test_rules(void)
{
	static const struct { const char *scheme, *name, *want; } cases[] = {
		{ "java", "Lorg/x/Y;.f_[j]", "green" },		/* JIT */
		{ "java", "Ljava/lang/String;.hashCode", "green" },
		{ "java", "com/acme/Main.run", "green" },
		{ "java", "Interpreter_[i]", "aqua" },		/* inlined */
		{ "java", "JavaThread::run", "yellow" },	/* C++ */
		{ "java", "memcpy_[k]", "orange" },		/* kernel */
		{ "java", "start_thread", "red" },		/* C */
		{ "rust", "memcpy_[k]", "purple" },
		{ "rust", "std::io::Write::write_all", "orange" },
		{ "rust", "<core::fmt::Arguments as Display>::fmt", "orange" },
		{ "rust", "app`alloc::raw_vec::finish_grow", "orange" },
		{ "rust", "myapp::parse::line", "aqua" },
		{ "rust", "libc.so.6`malloc", "yellow" },
		{ "rust", "main", "yellow" },
		{ "perl", "Foo::Bar::baz", "yellow" },
		{ "perl", "Perl_runops_standard", "green" },
		{ "perl", "script.pl", "green" },
		{ "perl", "do_sys_open_[k]", "orange" },
		{ "perl", "main", "red" },
		{ "js", "/app/server.js:handle_[j]", "green" },
		{ "js", "LazyCompile_[j]", "aqua" },
		{ "js", "v8::internal::Invoke", "yellow" },
		{ "js", "/app/lib/util.js:12", "green" },
		{ "js", "node:internal/main", "aqua" },	/* a '/', no ".js" */
		{ "js", "node:fs", "aqua" },
		{ "js", " ", "green" },
		{ "js", "sys_read_[k]", "orange" },
		{ "js", "uv_run", "red" },
		{ "python", "sys_read_[k]", "purple" },
		{ "python", "/venv/lib/python3.11/site-packages/x.py:get", "aqua" },
		{ "python", "/usr/lib/python3.11/json/decoder.py:decode", "yellow" },
		{ "python", "C:\\Python311\\Lib\\os.py:stat", "yellow" },
		{ "python", "<built-in method sort>", "yellow" },
		{ "python", "<frozen importlib._bootstrap>", "yellow" },
		{ "python", "app.py:main", "red" },
		{ "python", "/home/me/python3x/app.py:main", "red" },
		{ "chain", "waker_[w]", "aqua" },
		{ "chain", "sleeper", "blue" },
		{ "wakeup", "anything", "aqua" },
		{ "red", "x", "red" }, { "green", "x", "green" },
		{ "blue", "x", "blue" }, { "aqua", "x", "aqua" },
		{ "yellow", "x", "yellow" }, { "purple", "x", "purple" },
		{ "orange", "x", "orange" },
	};
	char what[160];
	size_t i;
	int h;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (h = 0; h <= 1; h++) {
			snprintf(what, sizeof(what), "%s%s: '%s' is %s",
			    cases[i].scheme, h ? " --hash" : "", cases[i].name,
			    cases[i].want);
			CHECK_STR(family_of(cases[i].scheme, h, cases[i].name),
			    cases[i].want, what);
		}
	}
	CHECK(palette_scheme_ok("rust") && palette_scheme_ok("python") &&
	    !palette_scheme_ok("teal") && !palette_scheme_ok(""),
	    "known schemes");
	{
		char *why = (char *)"unset";

		CHECK(palette_scheme_check("java", &why) == 0 && why == NULL,
		    "--colors java: known, nothing to say");
		CHECK_INT(palette_scheme_check("teal", &why), 2,
		    "--colors teal: refused");
		CHECK_STR(why, "--colors 'teal' is not a palette; use hot, mem, "
		    "io, wakeup, chain, java, js, perl, rust, python, red, "
		    "green, blue, aqua, yellow, purple or orange",
		    "the message names every scheme, the last after \"or\"");
		free(why);
	}
	{
		struct palette_opts o = { .scheme = "teal" };
		struct palette p;

		CHECK(palette_init(&p, &o) == -1, "palette_init refuses an unknown scheme");
	}
}

/* The colours of names[] in order, joined by spaces, into out. */
static void
colours(struct palette *p, const char *const *names, size_t n, char *out,
    size_t size)
{
	char c[PALETTE_COLORLEN];
	size_t i, len = 0;

	out[0] = '\0';
	for (i = 0; i < n; i++) {
		palette_color(p, names[i], strlen(names[i]), c);
		len += snprintf(out + len, size - len, "%s%s", i ? " " : "", c);
	}
}

static void
test_determinism(void)
{
	static const char *const fwd[] = { "main", "intel_pmu_enable_all",
		"caf\xc3\xa9", "main" };
	static const char *const rev[] = { "main", "caf\xc3\xa9",
		"intel_pmu_enable_all", "main" };
	struct palette_opts o = { .scheme = "hot", .hash = 1 };
	struct palette p, q;
	char a[256], b[256], c[PALETTE_COLORLEN];
	char *s;

	/* --hash: flamegraph.pl's values, whatever came before */
	palette_init(&p, &o);
	palette_color(&p, "", 0, c);
	CHECK_STR(c, "rgb(255,230,55)", "--hash hot colour of the root");
	palette_color(&p, "intel_pmu_enable_all", 20, c);
	CHECK_STR(c, "rgb(230,164,28)", "--hash hot colour as flamegraph.pl");
	colours(&p, fwd, 4, a, sizeof(a));
	palette_release(&p);
	palette_init(&q, &o);
	colours(&q, rev, 4, b, sizeof(b));
	palette_release(&q);
	/* b lists the same colours with the middle two swapped */
	s = strchr(b, ' ') + 1;
	CHECK(strncmp(a, b, s - b) == 0 && strstr(a, "rgb(230,164,28)") != NULL &&
	    strstr(b, "rgb(230,164,28)") != NULL, "--hash: a name's colour does not depend on order");
	CHECK_STR(strrchr(a, ' '), strrchr(b, ' '), "--hash: the same name, the same colour");

	/* neither --hash nor --random: Perl's srand(sum) then rand */
	o.hash = 0;
	palette_init(&p, &o);
	palette_color(&p, "", 0, c);
	CHECK_STR(c, "rgb(213,39,9)", "default colour as flamegraph.pl (srand/rand)");
	colours(&p, fwd, 4, a, sizeof(a));
	palette_release(&p);
	palette_init(&q, &o);
	colours(&q, fwd, 4, b, sizeof(b));
	palette_release(&q);
	CHECK_STR(a, b, "default colours repeat from run to run");

	/* --random: a new colour each time, repeatable from the seed */
	o.random = 1;
	o.seed = 42;
	palette_init(&p, &o);
	colours(&p, fwd, 4, a, sizeof(a));
	palette_release(&p);
	palette_init(&q, &o);
	colours(&q, fwd, 4, b, sizeof(b));
	palette_release(&q);
	CHECK_STR(a, b, "--random with one seed gives one sequence");
	/* fwd starts and ends with main */
	CHECK(strncmp(a, strrchr(a, ' ') + 1, strlen(strrchr(a, ' ') + 1)) != 0,
	    "--random: the same name twice, two colours");
	o.seed = 43;
	palette_init(&q, &o);
	colours(&q, fwd, 4, b, sizeof(b));
	palette_release(&q);
	CHECK(strcmp(a, b) != 0, "--random: another seed, other colours");
}

static void
test_diff_background(void)
{
	char c[PALETTE_COLORLEN];
	const char *c1, *c2;
	char *why;

	palette_diff(10, 10, 0, c);
	CHECK_STR(c, "rgb(255,0,0)", "largest growth is red");
	palette_diff(-5, 10, 0, c);
	CHECK_STR(c, "rgb(105,105,255)", "half shrinkage is light blue");
	palette_diff(-5, 10, 1, c);
	CHECK_STR(c, "rgb(255,105,105)", "negate swaps");
	palette_diff(0, 10, 0, c);
	CHECK_STR(c, "rgb(255,255,255)", "no change is white");
	palette_change(1, 1, 0, c);
	CHECK_STR(c, "rgb(225,75,60)", "the deepest slower is red");
	palette_change(0, 0, 0, c);
	CHECK_STR(c, "rgb(190,205,250)", "the lightest faster is pale blue");
	palette_change(0.5, 1, 1, c);
	CHECK_STR(c, "rgb(135,163,243)", "negate: slower in blue, half way");
	palette_change(7, 0, 0, c);
	CHECK_STR(c, "rgb(80,120,235)", "a strength past 1 is 1");
	CHECK(palette_background("mem", NULL, &c1, &c2, &why) == 0 &&
	    why == NULL, "mem has a background");
	CHECK_STR(c2, "#e0ffe0", "mem's is green");
	CHECK(palette_background("hot", "#123456", &c1, &c2, &why) == 0,
	    "a flat background");
	CHECK_STR(c1, "#123456", "a flat background is the colour given");
	CHECK(palette_background("hot", "#12345", &c1, &c2, &why) == 2,
	    "a short #rrggbb: refused");
	CHECK_STR(why, "--bgcolors '#12345' is not a background; use yellow, "
	    "blue, green, grey or #rrggbb", "what --bgcolors says of it");
	free(why);
	CHECK(palette_background("hot", "pink", &c1, &c2, &why) == 2 &&
	    why != NULL, "an unknown name: refused");
	free(why);
}

/* Writes text to path. */
static void
put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f == NULL || fputs(text, f) == EOF || fclose(f) != 0) {
		perror(path);
		exit(2);
	}
}

/* The whole of path, NUL-terminated, in buf. */
static const char *
get_file(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (f == NULL)
		return "(cannot open)";
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/*
 * --cp's worded loads and saves (palette_cp_load, palette_cp_save): what
 * each failure says, and its status. path holds a palette file with a bad
 * second line; link is a free name in dir.
 */
static void
test_cp(const char *dir, const char *path, const char *link)
{
	struct palette_opts o = { .scheme = "hot" };
	struct palette p;
	char want[256], *why = (char *)"unset";

	palette_init(&p, &o);
	CHECK_INT(palette_cp_load(&p, path, &why), 1, "a bad line: status 1");
	snprintf(want, sizeof(want), "%s:2: expected \"NAME->rgb(R,G,B)\"; "
	    "line skipped", path);
	CHECK_STR(why, want, "the bad line, said");
	free(why);
	CHECK_INT(palette_cp_save(&p, path, &why), 0, "saved: status 0");
	CHECK(why == NULL, "nothing to say");
	CHECK_INT(palette_cp_load(&p, path, &why), 0, "read back: status 0");
	CHECK(why == NULL, "nothing to say");
	palette_release(&p);

	palette_init(&p, &o);
	CHECK_INT(palette_cp_load(&p, dir, &why), 2, "a directory: status 2");
	snprintf(want, sizeof(want), "cannot read the palette file '%s': %s",
	    dir, strerror(EISDIR));
	CHECK_STR(why, want, "a directory, said with strerror's words");
	free(why);
	CHECK_INT(palette_cp_save(&p, dir, &why), 2,
	    "saving over a directory: status 2");
	snprintf(want, sizeof(want), "cannot write '%s': %s", dir,
	    strerror(EISDIR));
	CHECK_STR(why, want, "in base/cmdfile's words");
	free(why);
	if (symlink(path, link) == 0) {
		CHECK_INT(palette_cp_load(&p, link, &why), 2,
		    "a symbolic link: status 2");
		snprintf(want, sizeof(want), "'%s' is not a regular file but a "
		    "symbolic link, not followed: move it away, or run --cp "
		    "in another directory", link);
		CHECK_STR(why, want, "a symbolic link, said");
		free(why);
		CHECK_INT(palette_cp_save(&p, link, &why), 2,
		    "saving through a symbolic link: status 2");
		snprintf(want, sizeof(want), "'%s' is no longer a regular file "
		    "but a symbolic link, not followed: not written; move it "
		    "away", link);
		CHECK_STR(why, want, "the link is left alone, said");
		free(why);
		unlink(link);
	}
	palette_release(&p);
}

/* --random's seed: FGSVG_SEED's value, or the clock's. */
static void
test_seed(void)
{
	uint64_t seed = 7;
	char *why = (char *)"unset";

	CHECK(palette_seed("42", &seed, &why) == 0 && why == NULL &&
	    seed == 42, "FGSVG_SEED=42: the seed is 42");
	CHECK(palette_seed("18446744073709551615", &seed, &why) == 0 &&
	    seed == UINT64_MAX, "2^64-1 is a seed");
	seed = 7;
	CHECK_INT(palette_seed("4x", &seed, &why), 2, "FGSVG_SEED=4x: refused");
	CHECK_STR(why, "FGSVG_SEED='4x': expected a whole number",
	    "what it says");
	free(why);
	CHECK(seed == 7, "a refused seed leaves *seed");
	CHECK(palette_seed("", &seed, &why) == 0 && why == NULL &&
	    palette_seed(NULL, &seed, &why) == 0,
	    "empty or unset: a seed from the clock");
}

static void
test_file(void)
{
	struct palette_opts o = { .scheme = "hot", .hash = 1 };
	struct palette p;
	char dir[] = "/tmp/test_palette.XXXXXX", path[64], link[64];
	char c[PALETTE_COLORLEN], arrow[PALETTE_COLORLEN], text[512], want[512];
	unsigned long bad = 99;

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		exit(2);
	}
	snprintf(path, sizeof(path), "%s/palette.map", dir);
	snprintf(link, sizeof(link), "%s/link.map", dir);

	/* no file yet: an empty map, then the colours drawn go in it */
	palette_init(&p, &o);
	CHECK(palette_load(&p, path, &bad) == 0 && bad == 0 && p.map.count == 0,
	    "a missing palette file is an empty map");
	palette_color(&p, "zeta", 4, c);
	palette_color(&p, "operator->", 10, c);
	palette_color(&p, "alpha", 5, c);
	CHECK(palette_save(&p, path) == 0, "palette_save writes");
	palette_release(&p);
	palette_init(&p, &o);
	{
		char a[PALETTE_COLORLEN], z[PALETTE_COLORLEN];

		palette_color(&p, "alpha", 5, a);
		palette_color(&p, "operator->", 10, arrow);
		palette_color(&p, "zeta", 4, z);
		snprintf(want, sizeof(want), "alpha->%s\noperator->->%s\nzeta->%s\n",
		    a, arrow, z);
	}
	palette_release(&p);
	CHECK_STR(get_file(path, text, sizeof(text)), want,
	    "the file: NAME->rgb(R,G,B), sorted bytewise");

	/* read back under another scheme: the file's colours win */
	o.scheme = "blue";
	o.hash = 0;
	palette_init(&p, &o);
	CHECK(palette_load(&p, path, &bad) == 0 && bad == 0 && p.map.count == 3,
	    "palette_load reads every line back");
	palette_color(&p, "operator->", 10, c);
	CHECK_STR(c, arrow, "a name with \"->\" keeps its colour from the file");
	palette_color(&p, "new", 3, c);
	CHECK_STR(family(c), "blue", "a new name gets the scheme's colour");
	CHECK(palette_save(&p, path) == 0 && palette_load(&p, path, &bad) == 0 &&
	    p.map.count == 4, "saved again with the new name, loaded again");
	palette_release(&p);

	/* bad lines are skipped, the first one's number given */
	put_file(path, "good->rgb(1,2,3)\nno arrow\nbig->rgb(256,0,0)\n"
	    "evil->rgb(1,2,3)\" onload=\"x\nfine->rgb(0,0,0)\n");
	palette_init(&p, &o);
	CHECK(palette_load(&p, path, &bad) == 0 && p.map.count == 2,
	    "two good lines of five");
	snprintf(text, sizeof(text), "%lu", bad);
	CHECK_STR(text, "2", "the first bad line's number");
	palette_color(&p, "good", 4, c);
	CHECK_STR(c, "rgb(1,2,3)", "a good line's colour is used");
	palette_release(&p);

	/* never through a symbolic link, nor into a directory */
	if (symlink(path, link) == 0) {
		palette_init(&p, &o);
		errno = 0;
		CHECK(palette_load(&p, link, NULL) == -1 && errno == ELOOP,
		    "palette_load refuses a symbolic link (ELOOP)");
		errno = 0;
		CHECK(palette_save(&p, link) == -1 && errno == ELOOP,
		    "palette_save refuses a symbolic link (ELOOP)");
		palette_release(&p);
		unlink(link);
	}
	palette_init(&p, &o);
	errno = 0;
	CHECK(palette_load(&p, dir, NULL) == -1 && errno == EISDIR,
	    "palette_load refuses a directory");
	palette_release(&p);
	test_cp(dir, path, link);
	unlink(path);
	rmdir(dir);
}

int
main(void)
{
	test_rules();
	test_determinism();
	test_diff_background();
	test_file();
	test_seed();
	return unit_done();
}
