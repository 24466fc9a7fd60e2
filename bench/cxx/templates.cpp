// bench/cxx/templates.cpp: a template-heavy translation unit for
// bench/fgrecord.sh. Compiling it drives clang++ and g++ through deep
// recursion (nested template instantiation, constant evaluation, the
// standard library's containers, regex and variant), the case where a
// small copy of the user stack cannot reach main.
#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace bench {

// A type list, walked recursively at compile time.
template <typename... Ts> struct list {};

template <typename L, typename T> struct push;
template <typename... Ts, typename T> struct push<list<Ts...>, T> {
	using type = list<Ts..., T>;
};

template <int N> struct tag {
	static constexpr int value = N;
};

template <int N, typename Acc = list<>> struct make_list {
	using type = typename make_list<N - 1,
	    typename push<Acc, tag<N>>::type>::type;
};
template <typename Acc> struct make_list<0, Acc> {
	using type = Acc;
};

template <typename L> struct sum;
template <typename... Ts> struct sum<list<Ts...>> {
	static constexpr long value = (0L + ... + Ts::value);
};

// Recursive constexpr evaluation: each level a new instantiation.
template <int N> struct fib {
	static constexpr long value = fib<N - 1>::value + fib<N - 2>::value;
};
template <> struct fib<1> { static constexpr long value = 1; };
template <> struct fib<0> { static constexpr long value = 0; };

constexpr long
ackermann(long m, long n)
{
	return m == 0 ? n + 1 : n == 0 ? ackermann(m - 1, 1) :
	    ackermann(m - 1, ackermann(m, n - 1));
}

// Nested calls that instantiate one another to a depth of N.
template <int N> struct chain {
	template <typename T>
	static auto
	run(T x)
	{
		return chain<N - 1>::run(std::make_pair(x, N)).first;
	}
};
template <> struct chain<0> {
	template <typename T>
	static T
	run(T x)
	{
		return x;
	}
};

// A variant of many alternatives, visited with a generic lambda.
template <typename L> struct variant_of;
template <typename... Ts> struct variant_of<list<Ts...>> {
	using type = std::variant<Ts...>;
};

template <typename V>
long
visit_all(const std::vector<V> &v)
{
	long total = 0;
	for (const auto &x : v)
		total += std::visit([](auto t) { return long(decltype(t)::value); }, x);
	return total;
}

template <typename K, typename V>
std::map<K, std::vector<V>>
group(const std::vector<std::pair<K, V>> &in)
{
	std::map<K, std::vector<V>> out;
	for (const auto &[k, v] : in)
		out[k].push_back(v);
	for (auto &[k, v] : out)
		std::sort(v.begin(), v.end());
	return out;
}

template <typename T>
struct node {
	T value;
	std::vector<std::unique_ptr<node>> kids;
	template <typename F>
	void
	walk(F &&f) const
	{
		f(value);
		for (const auto &k : kids)
			k->walk(f);
	}
};

template <typename... Fs>
struct overload : Fs... {
	using Fs::operator()...;
};
template <typename... Fs> overload(Fs...) -> overload<Fs...>;

template <std::size_t... I>
constexpr auto
squares(std::index_sequence<I...>)
{
	return std::array<long, sizeof...(I)>{ long(I * I)... };
}

template <typename Tuple, std::size_t... I>
std::string
join_tuple(const Tuple &t, std::index_sequence<I...>)
{
	std::ostringstream os;
	((os << (I ? "," : "") << std::get<I>(t)), ...);
	return os.str();
}

template <typename... Ts>
std::string
join(const std::tuple<Ts...> &t)
{
	return join_tuple(t, std::index_sequence_for<Ts...>{});
}

using big_list = make_list<24>::type;
using big_variant = variant_of<make_list<24>::type>::type;

static_assert(sum<big_list>::value == 24 * 25 / 2);
static_assert(fib<40>::value > 0);
static_assert(ackermann(2, 40) == 83);
constexpr auto sq = squares(std::make_index_sequence<300>{});
static_assert(sq[299] == 299 * 299);

} // namespace bench

#define INSTANTIATE(N)							\
	long f##N(long x) { return bench::chain<N>::run(x) +		\
	    bench::fib<N % 20 + 10>::value; }

INSTANTIATE(8) INSTANTIATE(9) INSTANTIATE(10) INSTANTIATE(11) 
INSTANTIATE(12) INSTANTIATE(13) INSTANTIATE(14) INSTANTIATE(15) 
INSTANTIATE(16) INSTANTIATE(17) INSTANTIATE(18) INSTANTIATE(19) 
INSTANTIATE(20) INSTANTIATE(21) INSTANTIATE(22) INSTANTIATE(23) 
INSTANTIATE(24) INSTANTIATE(25) INSTANTIATE(26) INSTANTIATE(27) 
INSTANTIATE(28) INSTANTIATE(29) INSTANTIATE(30) INSTANTIATE(31) 

long
run_regex(const std::string &s)
{
	std::regex words("([a-z]+)-([0-9]+)");
	std::smatch m;
	long n = 0;
	for (auto it = std::sregex_iterator(s.begin(), s.end(), words);
	    it != std::sregex_iterator(); ++it)
		n += std::stol((*it)[2]);
	if (std::regex_search(s, m, std::regex("^(a|b)*c$")))
		n++;
	return n;
}

long
run_containers(int n)
{
	std::vector<std::pair<std::string, long>> in;
	for (int i = 0; i < n; i++)
		in.emplace_back(std::to_string(i % 7), i);
	auto g = bench::group(in);
	std::unordered_map<std::string, std::set<long>> u;
	for (const auto &[k, v] : g)
		u[k].insert(v.begin(), v.end());
	std::vector<bench::big_variant> vs(10, bench::big_variant{});
	long total = bench::visit_all(vs);
	for (const auto &[k, v] : u)
		total += std::accumulate(v.begin(), v.end(), 0L);
	bench::node<long> root{ 1, {} };
	root.kids.push_back(std::make_unique<bench::node<long>>());
	root.walk([&](long x) { total += x; });
	std::variant<int, std::string, double> w = 3.0;
	total += std::visit(bench::overload{
	    [](int i) { return long(i); },
	    [](const std::string &s) { return long(s.size()); },
	    [](double d) { return long(d); } }, w);
	total += bench::join(std::make_tuple(1, "a", 2.5, 'c', 7L)).size();
	std::function<long(long)> fn = [&](long x) { return x ? x + fn(x - 1) : 0; };
	return total + fn(10) + bench::sq[10];
}
