/* lock-wait, fixed version: the lock guards the additions only. */
#include "tally.h"

__attribute__((noinline)) void
tally_add_fast(struct tally *t, uint64_t item)
{
	uint64_t d = item_digest(fetch_item(item));

	pthread_mutex_lock(&t->lock);
	t->count++;
	t->sum += d;
	t->squares += d * d;
	pthread_mutex_unlock(&t->lock);
}
