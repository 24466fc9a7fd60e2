#include <stdio.h>
#include <stdlib.h>

#include "fold/write.h"
#include "stream/intern.h"

int
fold_write(struct fold *f, FILE *out, int diff)
{
	struct intern_entry **v;
	char a[64], b[64];
	size_t i;
	int norm = diff && f->opts.normalize && f->total[0] != f->total[1] &&
	    f->total[0] > 0;

	fold_settle(f);
	v = intern_sorted(&f->tab);

	for (i = 0; i < f->tab.n; i++) {
		struct intern_entry *e = v[i];

		/* A stack whose only samples were refused: not a stack seen. */
		if (f->overflowed && e->u[0] == 0 && e->u[1] == 0 &&
		    !e->decimal)
			continue;

		if (norm) {
			/* BEFORE scaled to AFTER's total, truncated as difffolded.pl does. */
			double x = ((double)e->u[0] + e->d[0]) *
			    (double)f->total[1] / (double)f->total[0];

			/* Beyond 2^64 - 1 (a huge AFTER total): the largest count. */
			e->u[0] = x >= 18446744073709551615.0 ? UINT64_MAX :
			    (uint64_t)x;
			e->d[0] = 0;
		}
		intern_fmt_count(e, 0, a, sizeof(a));
		/* fwrite: a NUL byte in a folded stack stays in it. */
		fwrite(e->key, 1, e->len, out);
		if (diff) {
			intern_fmt_count(e, 1, b, sizeof(b));
			fprintf(out, " %s %s\n", a, b);
		} else
			fprintf(out, " %s\n", a);
		if (ferror(out))
			break;
	}
	free(v);
	return ferror(out) ? -1 : 0;
}
