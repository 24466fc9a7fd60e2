/* fgpprof fixture: a thread that naps (off CPU) and burns (on CPU) in
 * turns, ten times: about 0.2 s of each. */
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) void
nap(void)
{
	usleep(20000);
	sink++;		/* not a tail call: nap stays on the stack */
}

__attribute__((noinline)) void
burn(void)
{
	for (unsigned long i = 0; i < 20000000; i++)
		sink += i;
}

int
main(void)
{
	for (int i = 0; i < 10; i++) {
		nap();
		burn();
	}
	return 0;
}
