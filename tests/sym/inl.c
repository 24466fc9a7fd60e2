/* fgsym fixture: C with forced-inline functions (see selfstack.h). */
#include "selfstack.h"

static char mode = 'v';

__attribute__((noinline)) void
leaf(void)
{
	SELFSTACK(mode, leaf);
}

static inline __attribute__((always_inline)) int
twist(int x)
{
	leaf();			/* LINE:twist-calls-leaf */
	return x * 3;
}

static inline __attribute__((always_inline)) int
mix(int x)
{
	return twist(x + 1) + 1;	/* LINE:mix-calls-twist */
}

__attribute__((noinline)) int
work(int x)
{
	return mix(x) * 2;	/* LINE:work-calls-mix */
}

__attribute__((noinline)) int
outer(int x)
{
	return work(x) + 5;	/* LINE:outer-calls-work */
}

int
main(int argc, char **argv)
{
	if (argc > 1)
		mode = argv[1][0];
	return outer(argc) == 0;
}
