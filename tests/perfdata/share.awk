# share.awk: how much of the weight of the folded stacks REF (perf script
# | fgfold) the folded stacks GOT (fgsym perf.data | fgfold) name alike.
#
#	awk -f names.awk -f share.awk [-v suffix=1] [-v aliases=FILE] REF GOT
#
# prints "MATCHED TOTAL PERCENT": the weight (a folded line's count) that
# both have on the same stack, the weight of REF, and the share. Frame
# names are compared by fgsym's naming rules: no return type and no
# parameters of a C++ name, no symbol version (memcpy@@GLIBC_2.14 is
# memcpy), no Rust hash (::h0123456789abcdef); and two aliases of one
# address (cfree and free) are one name, given the lines "NAME CANONICAL"
# of aliases.sh in FILE. With suffix=1 (DWARF
# recordings, where fgsym completes a stack that perf's unwinding cut), a
# REF stack not counted yet also matches a GOT stack of the same first
# frame (the command) that ends with it: GOT reached further toward main.

# norm STACK: its frames' bare names. Frames that name nothing are left
# out: "[unknown]" on both sides (perf script also writes as [unknown] the
# addresses in no mapping that a broken frame-pointer chain yields past
# its end, where fgsym ends the chain), and fgsym's "[truncated]", the
# mark of a chain that ended before the program's first function, which
# perf script writes unmarked.
function norm(stack, is_got,    k, f, i, out) {
	k = split(stack, f, ";")
	out = bare(f[1])
	for (i = 2; i <= k; i++)
		if (f[i] != "[unknown]" && (!is_got || f[i] != "[truncated]"))
			out = out ";" bare(f[i])
	return out
}
{
	w = $NF
	st = $0
	sub(/ [0-9]+$/, "", st)
	st = norm(st, FILENAME != ARGV[1])
	if (FILENAME == ARGV[1]) { ref[st] += w; total += w }
	else got[st] += w
}
END {
	for (s in ref) {
		if (!(s in got))
			continue
		m = ref[s] < got[s] ? ref[s] : got[s]
		matched += m; ref[s] -= m; got[s] -= m
	}
	if (suffix) {
		for (s in ref) {
			if (ref[s] == 0)
				continue
			c = s; sub(/;.*/, "", c)
			rest = substr(s, length(c) + 1)
			if (rest == "")
				continue
			for (g in got) {
				if (got[g] == 0 || index(g, c ";") != 1)
					continue
				if (length(g) <= length(s) ||
				    substr(g, length(g) - length(rest) + 1) != rest)
					continue
				m = ref[s] < got[g] ? ref[s] : got[g]
				matched += m; ref[s] -= m; got[g] -= m
				if (ref[s] == 0)
					break
			}
		}
	}
	printf "%d %d %.2f\n", matched, total, total ? 100 * matched / total : 0
}
