/* A small program for the hostile-input tests: a named function to resolve. */
int leaf(int x);

__attribute__((noinline)) int
leaf(int x)
{
	return x * 3 + 1;
}

int
main(int argc, char **argv)
{
	(void)argv;
	return leaf(argc) == 0;
}
