/*
 * sensor-hash: fold a long stream of sensor readings into per-sensor
 * statistics. Built twice: "before" keeps them in a hash map, "after"
 * (with -DFIXED) in an array of eight. Both print the same lines.
 *
 * usage: before [READINGS]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sensors.h"

#ifdef FIXED
#define sensors sensors_fast
#define sensors_init sensors_fast_init
#define sensors_add sensors_fast_add
#define sensors_get sensors_fast_get
#define sensors_release(s) ((void)(s))
#else
#define sensors sensors_slow
#define sensors_init sensors_slow_init
#define sensors_add sensors_slow_add
#define sensors_get sensors_slow_get
#define sensors_release sensors_slow_release
#endif

static uint64_t rng = 0x853c49e6748fea9bULL;

static uint32_t
next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 32);
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 60000000;
	struct sensors s;
	struct stats st;

	if (n <= 0) {
		fprintf(stderr, "usage: %s [READINGS]\n", argv[0]);
		return 2;
	}
	sensors_init(&s);
	for (long k = 0; k < n; k++) {
		uint32_t r = next_random();
		/* Sensor 6 is unplugged; about 1 reading in 100 has a bad id. */
		int id = r % 100 == 0 ? (int)(r >> 8) % 20 - 6 : (int)(r >> 8) % 7;

		if (id == 6)
			id = 7;
		sensors_add(&s, id, (int)(r >> 12) % 4001 - 2000);
	}
	for (int id = 0; id < NSENSORS; id++) {
		sensors_get(&s, id, &st);
		if (st.count == 0)
			printf("sensor-hash: sensor %d: no readings\n", id);
		else
			printf("sensor-hash: sensor %d: %ld readings, sum %ld, min %d, max %d\n",
			    id, st.count, st.sum, st.min, st.max);
	}
	printf("sensor-hash: %ld readings rejected\n", s.rejected);
	sensors_release(&s);
	return 0;
}
