# counts.awk: the number of samples per event and per thread of a sample
# stream, as perf script writes it (`comm tid time: period event:`) or as
# fgsym does (`comm pid/tid [cpu] time: period event:`): one line
# "EVENT TID N" per pair, sorted by the caller. An event's modifiers
# (cpu-clock:ppp) are not part of its name. t420-perfdata.sh compares the
# two.
/^[#\t ]/ || /^$/ { next }
{
	t = 0
	for (i = NF; i > 1; i--)
		if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = i; break }
	if (t == 0)
		next
	i = t - 1
	while (i > 1 && $i ~ /^\[[0-9]+\]$/)
		i--
	tid = $i
	sub(/^.*\//, "", tid)
	# A sample of no task (perf script: -1) has the kernel's u32 -1 in
	# fgsym's stream, whose heads carry digits only.
	if (tid == "4294967295")
		tid = -1
	ev = $NF
	sub(/:.*$/, "", ev)
	n[ev " " tid]++
}
END { for (k in n) print k, n[k] }
