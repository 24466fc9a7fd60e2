# tests/annotate/lib.sh: helpers shared by t500-annotate.sh and
# t510-annotate-fgsym.sh, sourced after tests/lib.sh.

# insn_lines LISTING FUNC: the instruction lines of FUNC's section, as
# "INDEX COUNT MNEMONIC", lines without samples included (COUNT 0).
insn_lines() {
	awk -v fn="$2" '
	/^== [0-9]+\. / { insec = ($3 == fn); next }
	/^== / { insec = 0 }
	insec && /^(>>|  ) +[0-9]+ +[0-9.]+%  +[0-9a-f]+:  / {
		n++; c = $0; sub(/^>>/, "", c); split(c, f, " ")
		m = $0; sub(/^.*[0-9a-f]+:  +/, "", m); split(m, g, " ")
		print n, f[1], g[1]; next
	}
	insec && /^                   +[0-9a-f]+:  / {
		n++; m = $0; sub(/^.*[0-9a-f]+:  +/, "", m); split(m, g, " ")
		print n, 0, g[1]
	}' "$1"
}

# div_in_top3 LISTING FUNC: the division, or the instruction right after
# it (skid), is among FUNC's three instructions with the most samples.
div_in_top3() {
	insn_lines "$1" "$2" >insns &&
	sort -k2,2nr -k1,1n insns | head -3 >top3 &&
	awk '$3 ~ /^i?div/ { print $1; print $1 + 1 }' insns >hotidx &&
	test -s hotidx &&
	awk 'NR == FNR { ok[$1] = 1; next } ok[$1] { f = 1 } END { exit !f }' \
		hotidx top3 ||
	{ echo "top 3:"; cat top3; echo "division at:"; cat hotidx; return 1; }
}

# sums_to_100 LISTING: in every function's section the percentages add up
# to 100, within the rounding of each printed line (0.005 each).
sums_to_100() {
	awk '
	/^== [0-9]+\. / { if (n) print sum, n; sum = 0; n = 0; next }
	/^== / { if (n) print sum, n; n = 0 }
	/^(>>|  ) +[0-9]+ +[0-9.]+%  / {
		c = $0; sub(/^>>/, "", c); split(c, f, " ")
		p = f[2]; sub(/%/, "", p); sum += p; n++
	}' "$1" >sums &&
	test -s sums &&
	awk '{ d = $1 - 100; if (d < 0) d = -d
	       if (d > 0.005 * $2 + 0.001) { print "sum", $1, "over", $2, "lines"; bad = 1 } }
	     END { exit bad }' sums
}
