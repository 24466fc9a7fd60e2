/*
 * cmptable: fgfold --compare's table, made from a comparison
 * (profile/compare.h): a header line, the [all] row, then a row per
 * function, each with its means before and after, the change and its
 * interval, and the verdict.
 */
#ifndef FG_CMPTABLE_H
#define FG_CMPTABLE_H

#include <stdio.h>

#include "profile/compare.h"

/*
 * Writes c's rows (compare_finish made them) to out: tab-separated, the
 * header "function before after change low high verdict", for awk and
 * spreadsheets; or, when aligned, in columns for a terminal, with the
 * unit in the header. With own crates (c->opts.own), [all] is followed
 * by those crates' functions, then the rest, each part in c's order.
 * Returns 0, or -1 on a write error.
 */
int	cmptable_write(const struct compare *c, FILE *out, int aligned);

#endif
