/*
 * Unit tests for sensor-hash: the hash map and the array must hold the same
 * statistics after the same readings, including rejected ids, sensors with
 * no readings and extreme values. Prints TAP; exits 1 on failure.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "sensors.h"

static int n_test, n_fail;

static void
report(const char *what, int ok)
{
	n_test++;
	if (ok)
		printf("ok %d - %s\n", n_test, what);
	else {
		n_fail++;
		printf("not ok %d - %s\n", n_test, what);
	}
}

/* Both versions agree on every id from -3 to 10 and on the reject count. */
static int
agree(const struct sensors_slow *a, const struct sensors_fast *b)
{
	for (int id = -3; id <= 10; id++) {
		struct stats x, y;
		int rx = sensors_slow_get(a, id, &x), ry = sensors_fast_get(b, id, &y);

		if (rx != ry)
			return 0;
		if (rx == 0 && (x.count != y.count || x.sum != y.sum ||
		    (x.count && (x.min != y.min || x.max != y.max))))
			return 0;
	}
	return a->rejected == b->rejected;
}

int
main(void)
{
	static const int ids[] = { 0, 7, 3, -1, 8, 3, INT_MIN, INT_MAX, 0, 5, 100 };
	static const int vals[] = { 5, -5, INT_MAX, 1, 2, INT_MIN, 3, 4, -7, 0, 9 };
	struct sensors_slow a;
	struct sensors_fast b;
	struct stats st;
	int same_rc = 1;
	unsigned x = 12345;

	sensors_slow_init(&a);
	sensors_fast_init(&b);
	report("empty sets agree", agree(&a, &b));
	for (size_t k = 0; k < sizeof(ids) / sizeof(ids[0]); k++)
		same_rc &= sensors_slow_add(&a, ids[k], vals[k]) ==
		    sensors_fast_add(&b, ids[k], vals[k]);
	report("add returns the same for good and bad ids", same_rc);
	report("same stats after mixed good and bad ids", agree(&a, &b));
	report("bad ids rejected and counted", a.rejected == 5);
	sensors_fast_get(&b, 3, &st);
	report("extremes kept as min and max", st.count == 2 &&
	    st.min == INT_MIN && st.max == INT_MAX && st.sum == -1);
	sensors_slow_get(&a, 1, &st);
	report("sensor without readings has count 0", st.count == 0);
	report("get of a bad id fails", sensors_slow_get(&a, 8, &st) == -1 &&
	    sensors_fast_get(&b, -1, &st) == -1);
	for (int k = 0; k < 100000; k++) {
		x = x * 1103515245 + 12345;
		int id = (int)(x >> 16) % 12 - 2;
		sensors_slow_add(&a, id, (int)(x % 2001) - 1000);
		sensors_fast_add(&b, id, (int)(x % 2001) - 1000);
	}
	report("100000 random readings agree", agree(&a, &b));
	sensors_slow_release(&a);
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
