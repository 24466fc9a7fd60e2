// capture.cc: the program whose `perf script` output is the fgfold fixture
// perf-cxx.txt. It has C++ names with templates, a namespace, a lambda
// inside std::function (a '(' inside template brackets), recursion and a
// syscall, so the fold sees the kinds of names real programs have.
// Rebuild the fixture with: tests/fgfold/capture.sh
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

namespace work {
template <typename T> struct Box {
	T v;
	__attribute__((noinline)) T spin(int n) {
		T acc = v;
		for (int i = 0; i < n; i++)
			acc = acc * 3 + i;
		return acc;
	}
};

__attribute__((noinline)) long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__attribute__((noinline)) long maps(int n) {
	std::map<std::string, int> m;
	for (int i = 0; i < n; i++)
		m[std::to_string(i % 512)] += i;
	return (long)m.size();
}
} // namespace work

int main() {
	std::function<long(int)> f = [](int n) { return work::Box<long>{7}.spin(n); };
	long s = 0;
	char buf[64];
	for (int round = 0; round < 500; round++) {
		s += f(2000000);
		s += work::fib(24);
		s += work::maps(20000);
		snprintf(buf, sizeof buf, "%ld\n", s);
		if (write(-1, buf, 1) < 0)
			s++;
	}
	printf("%ld\n", s & 1);
	return 0;
}
