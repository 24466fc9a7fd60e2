#include <math.h>
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "base/xalloc.h"
#include "fold/cmptable.h"
#include "profile/own.h"

#define NAME_MAX_WIDTH	60	/* a longer name overflows its column */
#define NCOLS		5	/* before, after, change, low, high */
/*
 * A number as the table writes it, whatever its size: the largest
 * double with three decimals and a sign is 314 characters.
 */
#define NUM_SIZE	320

static const char *const heads[NCOLS] = {
	"before", "after", "change", "low", "high"
};

/* The value as the table writes it: no "-0.000". */
static void
num(char *buf, size_t sz, double v, int prec)
{
	double unit = 0.5 * pow(10, -prec);

	snprintf(buf, sz, "%.*f", prec, fabs(v) < unit ? 0.0 : v);
}

static void
row_nums(const struct compare_row *r, int prec, char out[NCOLS][NUM_SIZE])
{
	const double v[NCOLS] = { r->before, r->after, r->change, r->low,
	    r->high };
	int i;

	for (i = 0; i < NCOLS; i++)
		num(out[i], sizeof(out[i]), v[i], prec);
}

/*
 * The order rows are written in, into order[0 .. c->nrows): [all], the
 * own crates' functions, the rest.
 */
static void
row_order(const struct compare *c, size_t *order)
{
	size_t i, n = 0;
	int pass;

	if (c->nrows == 0)
		return;
	order[n++] = 0;
	for (pass = c->opts.nown > 0 ? 0 : 1; pass < 2; pass++)
		for (i = 1; i < c->nrows; i++)
			if (own_any(c->rows[i].name, c->rows[i].len,
			    c->opts.own, c->opts.nown) == (pass == 0))
				order[n++] = i;
}

static int
write_tsv(const struct compare *c, FILE *out, const size_t *order)
{
	char n[NCOLS][NUM_SIZE];
	size_t i;

	fputs("function\tbefore\tafter\tchange\tlow\thigh\tverdict\n", out);
	for (i = 0; i < c->nrows; i++) {
		const struct compare_row *r = &c->rows[order[i]];

		row_nums(r, 3, n);
		fprintf(out, "%.*s\t%s\t%s\t%s\t%s\t%s\t%s\n", (int)r->len,
		    r->name, n[0], n[1], n[2], n[3], n[4],
		    compare_verdict_word(c, r->verdict));
	}
	return ferror(out) ? -1 : 0;
}

static int
write_aligned(const struct compare *c, FILE *out, const size_t *order)
{
	char n[NCOLS][NUM_SIZE], head[NCOLS][32];
	int prec = c->unit == COMPARE_PERCENT ? 2 : 1, w[NCOLS], i;
	size_t k, namew = strlen("function");

	for (i = 0; i < NCOLS; i++) {
		snprintf(head[i], sizeof(head[i]), "%s %s", heads[i],
		    compare_unit_name(c->unit));
		w[i] = (int)strlen(head[i]);
	}
	for (k = 0; k < c->nrows; k++) {
		row_nums(&c->rows[k], prec, n);
		for (i = 0; i < NCOLS; i++)
			if ((int)strlen(n[i]) > w[i])
				w[i] = (int)strlen(n[i]);
		if (c->rows[k].len > namew)
			namew = c->rows[k].len;
	}
	if (namew > NAME_MAX_WIDTH)
		namew = NAME_MAX_WIDTH;
	fprintf(out, "%-*s", (int)namew, "function");
	for (i = 0; i < NCOLS; i++)
		fprintf(out, "  %*s", w[i], head[i]);
	/* one run a side: said once, here */
	fprintf(out, "  verdict%s\n", c->counting_only ? " (from one run)" : "");
	for (k = 0; k < c->nrows; k++) {
		const struct compare_row *r = &c->rows[order[k]];

		row_nums(r, prec, n);
		fprintf(out, "%.*s%*s", (int)r->len, r->name,
		    r->len < namew ? (int)(namew - r->len) : 0, "");
		for (i = 0; i < NCOLS; i++)
			fprintf(out, "  %*s", w[i], n[i]);
		fprintf(out, "  %s\n", compare_verdict_word(c, r->verdict));
	}
	return ferror(out) ? -1 : 0;
}

int
cmptable_write(const struct compare *c, FILE *out, int aligned)
{
	size_t *order = xcalloc(c->nrows + 1, sizeof(size_t));
	int rv;

	row_order(c, order);
	rv = aligned ? write_aligned(c, out, order) : write_tsv(c, out, order);
	free(order);
	return rv;
}
