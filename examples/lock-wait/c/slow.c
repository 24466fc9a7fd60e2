/* lock-wait, slow version: the fetch and the digest happen under the lock. */
#include "tally.h"

__attribute__((noinline)) void
tally_add_slow(struct tally *t, uint64_t item)
{
	uint64_t d;

	pthread_mutex_lock(&t->lock);
	d = item_digest(fetch_item(item));
	t->count++;
	t->sum += d;
	t->squares += d * d;
	pthread_mutex_unlock(&t->lock);
}
