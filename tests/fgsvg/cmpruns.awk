# cmpruns.awk: one made-up run of a small program as an fg-stream(5)
# text stream of cpu-clock samples (1 ms each), for fgsvg --compare
# (t295). awk -v side=before|after -v seed=N -f cmpruns.awk
#
# main calls parse (300 ms, 200 of it in alloc), render (200 ms, 50 of
# it in draw_text) and lookup (10 ms of its own); before, lookup spends
# 400 ms in slow_search; after, slow_search is gone and lookup spends
# 90 ms in hash_probe, 80 of it in alloc: alloc is slower, though not
# under parse. Each run's counts vary as real runs do: the whole run by
# a few percent (the machine), each function by its counting noise
# (about the square root of its count), from seed.
function rnd() { s = (s * 16807) % 2147483647; return s / 2147483647 }
# about normal, mean 0 and deviation 1
function gauss(  i, t) { t = 0; for (i = 0; i < 12; i++) t += rnd(); return t - 6 }
function n(base) { base *= machine; return int(base + sqrt(base) * gauss() + 0.5) }
function emit(k, stack,  i, j, m, f) {
	m = split(stack, f, ";")
	for (i = 0; i < k; i++) {
		printf "app 100/100 [000] %d.%06d: 1000000 cpu-clock:\n", 1 + ns / 1000, ns % 1000 * 1000
		ns++
		for (j = m; j >= 1; j--)
			printf "\t%x %s+0x%x (/bin/app)\n", 4096 * j + 16, f[j], 16
		print ""
	}
}
BEGIN {
	s = seed * 7919 + 17
	rnd(); rnd()
	machine = 1 + 0.02 * gauss()
	emit(n(100), "main;parse")
	emit(n(200), "main;parse;alloc")
	emit(n(150), "main;render")
	emit(n(50), "main;render;draw_text")
	emit(n(10), "main;lookup")
	if (side == "before")
		emit(n(400), "main;lookup;slow_search")
	else {
		emit(n(10), "main;lookup;hash_probe")
		emit(n(80), "main;lookup;hash_probe;alloc")
	}
}
