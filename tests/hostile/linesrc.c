/*
 * The hostile-input program, compiled as if from the file LINE_FILE
 * (cc -DLINE_FILE='"/dev/zero"'): its DWARF names that path as the source
 * of leaf(), and fgsym --annotate would read it for the source lines.
 */
#line 1 LINE_FILE
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
