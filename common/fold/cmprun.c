/*
 * cmprun: fgfold --compare from the runs to the table on standard
 * output, and the one line that says a --fail-slower bar was passed.
 */
#include <err.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/cmdfile.h"
#include "fold/cmprun.h"
#include "fold/cmptable.h"

/* " ROW +C UNIT (95% interval +L to +H)" into b. */
static void
say_row(struct buf *b, const struct compare_row *r, enum compare_unit u)
{
	int prec = u == COMPARE_PERCENT ? 2 : 1;
	const char *unit = compare_unit_name(u);

	buf_addf(b, "%.*s %+.*f %s (95%% interval %+.*f to %+.*f)",
	    (int)r->len, r->name, prec, r->change, unit, prec, r->low, prec,
	    r->high);
}

/*
 * --fail-slower=pct passed: says by how much, naming the row that
 * tripped it (the whole run: with the function that grew the most), in
 * one line.
 */
static void
say_fail(const struct compare *c, double pct, size_t n,
    const struct compare_row *w)
{
	const struct compare_row *f;
	int all = w == &c->measured;
	enum compare_unit u = all ? c->measured_unit : c->unit;
	double bar = pct / 100 * (all ? c->measured.before : c->whole_before);
	struct buf b = { 0 };

	buf_addf(&b, "slower by more than %g%% of the before runs' whole "
	    "time (--fail-slower=%g, %.*f %s): ", pct, pct,
	    u == COMPARE_PERCENT ? 2 : 1, bar, compare_unit_name(u));
	say_row(&b, w, u);
	if (all && (f = compare_culprit(c)) != NULL) {
		BUF_ADDL(&b, ", most of it in ");
		say_row(&b, f, c->unit);
	}
	if (n > 1)
		buf_addf(&b, ", and %zu more row%s", n - 1, n > 2 ? "s" : "");
	warnx("%.*s", (int)b.len, b.p);
	buf_release(&b);
}

int
cmprun(const struct compare_opts *o, char **runs[2], double fail,
    enum compare_gate gate)
{
	struct compare c;
	const struct compare_row *w;
	size_t n;
	int r;

	compare_init(&c, o);
	if ((r = compare_read_runs(&c, runs)) == 0 &&
	    (r = compare_finish(&c)) == 0) {
		if (cmptable_write(&c, stdout, isatty(STDOUT_FILENO)) == -1)
			cmdfile_write_failed(CMDFILE_STDOUT);
		cmdfile_finish(stdout, CMDFILE_STDOUT);
		if (fail >= 0 && (n = compare_fails(&c, fail, gate, &w)) > 0) {
			say_fail(&c, fail, n, w);
			r = 1;
		}
	}
	compare_release(&c);
	return r;
}
