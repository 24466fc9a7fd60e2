// allocnew: fgrecord --alloc on C++ (t331): operator new reaches malloc.
// 500 arrays of 100,000 bytes are kept by keep_arrays; a std::string per
// round is made and dropped by churn_strings.
#include <cstdio>
#include <string>
#include <vector>

static std::vector<char *> kept;

__attribute__((noinline)) void
keep_arrays()
{
	for (int i = 0; i < 500; i++) {
		char *p = new char[100000];
		p[0] = 1;
		kept.push_back(p);
	}
}

__attribute__((noinline)) size_t
churn_strings(int n)
{
	size_t t = 0;

	for (int i = 0; i < n; i++) {
		std::string s(200 + i % 50, 'x');
		t += s.size();
	}
	return t;
}

int
main()
{
	size_t t = churn_strings(200000);

	keep_arrays();
	std::printf("%zu %zu\n", t, kept.size());
	return 0;
}
