# gen.awk: a heap profile as fgrecord --alloc writes it (fg-stream(5),
# "Heap allocations"), symbolized, from lines of
#
#	STACK BYTES ALLOCATIONS [live]
#
# STACK root first ("main;parse;token"). Each line is one sampled
# allocation: an alloc-bytes and an alloc-objects sample of the same
# head and frames; a line marked "live" is written again at the end as
# an inuse-bytes and inuse-objects pair. -v comm=NAME (app), -v dso=PATH.
# -v nm=FILE: the functions' addresses are those of nm's output FILE (a
# real binary's), inside them, and the frames are left [unknown] and the
# stream unsymbolized, for fgsym to name.
BEGIN {
	if (nm != "") {
		while ((getline l < nm) > 0) {
			split(l, w, " ")
			if (w[3] != "")
				real[w[3]] = w[1]
		}
	}
	if (comm == "") comm = "app"
	if (dso == "") dso = "/bin/app"
	print "# ========"
	print "# fgrecord 1"
	print "# event : alloc-bytes period 524288 callgraph fp"
	print "# event : alloc-objects period 1 callgraph fp"
	if (nm == "")
		print "# symbolized"
	print "# ========"
	t = 100
	nlive = 0
}
function addr(name,   i, h) {
	if (name in real)
		return sprintf("%x", hex(real[name]) + 4)
	if (!(name in ad))
		ad[name] = sprintf("%x", 4096 + 256 * (++nad))
	return ad[name]
}
function hex(s,   i, v) {
	v = 0
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}
function sample(stack, ev, period, time,   n, f, i) {
	printf "%s 7/7 [000] %d.%06d: %s %s:\n", comm, time, 0, period, ev
	n = split(stack, f, ";")
	for (i = n; i >= 1; i--)
		printf "\t%s %s (%s)\n", addr(f[i]),
		    nm != "" ? "[unknown]" : f[i] "+0x4", dso
	print ""
}
/^#/ || NF < 3 { next }
{
	t++
	sample($1, "alloc-bytes", $2, t)
	sample($1, "alloc-objects", $3, t)
	if ($4 == "live") {
		nlive++
		ls[nlive] = $1; lb[nlive] = $2; lo[nlive] = $3; lt[nlive] = t
	}
}
END {
	for (i = 1; i <= nlive; i++) {
		sample(ls[i], "inuse-bytes", lb[i], lt[i])
		sample(ls[i], "inuse-objects", lo[i], lt[i])
	}
}
