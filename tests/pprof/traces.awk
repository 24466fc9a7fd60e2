# traces.awk: go tool pprof -traces output to folded stacks, root first,
# one line per trace ("a;b;c COUNT"), for comparison with fgfold. pprof
# marks inlined frames " (inline)"; fgfold without --inline-mark does not.
function flush() {
	if (n > 0) {
		s = st[n]
		for (i = n - 1; i >= 1; i--)
			s = s ";" st[i]
		print s, cnt
	}
	n = 0
}
function frame(name) { sub(/ \(inline\)$/, "", name); st[++n] = name }
/^-----------\+/ { flush(); next }
/^ +[a-z_]+: / { next }
/^ +[0-9]+ +/ { flush(); sub(/^ +/, ""); cnt = $1; sub(/^[0-9]+ +/, ""); frame($0); next }
/^             / { if (n > 0) { sub(/^ +/, ""); frame($0) } next }
END { flush() }
