/* White-box test of common/svg/svg.c's number formatting: fmt_fixed must print
 * exactly what printf's "%.Nf" prints, which flamegraph.pl's geometry uses,
 * and give the value that strtod reads back from it.
 * It includes svg.c to reach the static function. */
#include "../../common/svg/svg.c"

#include "unit.h"

int
main(void)
{
	static const double edge[] = { 0, -0.0, 0.05, 0.15, 0.25, 0.35, 1.005,
		2.675, 123.45, 1179.95, 10.049999999999999, 10.05, -3.25, 1e14,
		999.9999, 0.0049999, 0.005 };
	uint64_t x = 88172645463325252ULL;
	char a[400], b[400];
	double val;
	int d, ok = 1, bad = 0;
	size_t i;

	for (i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
		for (d = 0; d <= 3; d++) {
			fmt_fixed(a, sizeof(a), edge[i], d, &val);
			snprintf(b, sizeof(b), "%.*f", d, edge[i]);
			if (strcmp(a, b) != 0 && bad++ < 5)
				printf("# %.17g %d: got %s, want %s\n", edge[i], d, a, b);
			if (val != strtod(b, NULL) && bad++ < 5)
				printf("# %.17g %d: value %.17g\n", edge[i], d, val);
		}
	CHECK(bad == 0, "edge cases format as printf does");
	for (i = 0; i < 500000 && ok; i++) {
		double v;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		/* pixel-like values with a few decimals, and arbitrary ones */
		v = i % 2 ? (double)(x % 500000) / 1000.0 + (x >> 60) * 1e-4 :
		    (double)(x % 100000000) / (1 + (x >> 40) % 997);
		d = (int)(x >> 62);
		fmt_fixed(a, sizeof(a), v, d, &val);
		snprintf(b, sizeof(b), "%.*f", d, v);
		if (strcmp(a, b) != 0 || val != strtod(b, NULL)) {
			printf("# %.17g %d: got %s, want %s\n", v, d, a, b);
			ok = 0;
		}
	}
	CHECK(ok, "500,000 random values format as printf does");
	return unit_done();
}
