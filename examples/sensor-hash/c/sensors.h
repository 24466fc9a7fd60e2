/*
 * sensor-hash: keep count, sum, minimum and maximum of the readings of
 * eight sensors whose ids are 0 to 7. A reading with any other id is
 * rejected and counted, and changes nothing else.
 */
#ifndef SENSORS_H
#define SENSORS_H

#include <stddef.h>

#define NSENSORS 8

struct stats {
	long count, sum;
	int min, max;		/* meaningful when count > 0 */
};

/* The slow version: a general-purpose chained hash map from id to stats. */
struct hash_entry;
struct sensors_slow {
	struct hash_entry **buckets;
	size_t nbuckets;
	size_t (*hash)(const void *key);
	int (*equal)(const void *a, const void *b);
	long rejected;
};

/* The fixed version: the ids are 0 to 7, so an array of eight does. */
struct sensors_fast {
	struct stats s[NSENSORS];
	long rejected;
};

/*
 * sensors_X_init prepares an empty set; sensors_slow_release frees what
 * the slow one allocated. sensors_X_add records one reading and returns 0,
 * or -1 when id is not 0..7. sensors_X_get copies sensor id's stats into
 * *out (count 0 when it has none yet) and returns 0, or -1 for a bad id.
 */
void sensors_slow_init(struct sensors_slow *s);
void sensors_slow_release(struct sensors_slow *s);
int sensors_slow_add(struct sensors_slow *s, int id, int value);
int sensors_slow_get(const struct sensors_slow *s, int id, struct stats *out);

void sensors_fast_init(struct sensors_fast *s);
int sensors_fast_add(struct sensors_fast *s, int id, int value);
int sensors_fast_get(const struct sensors_fast *s, int id, struct stats *out);

#endif
