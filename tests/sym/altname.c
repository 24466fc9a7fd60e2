/* t717: a function whose name only DWARF gives, once the symbol table is gone. */
int named_only_in_dwarf(int x);

__attribute__((noinline)) int
named_only_in_dwarf(int x)
{
	return x * 3 + 1;
}

int
main(int argc, char **argv)
{
	(void)argv;
	return named_only_in_dwarf(argc) == 0;
}
