# frames.awk: perf script's frames (REF) against fgsym's (GOT), sample by
# sample and frame by frame, for t420 and t421.
#
#	awk -f names.awk -f frames.awk [-v aliases=FILE] [-v event=EV] [-v comm=COMM] \
#	    REF GOT
#
# Samples are paired by thread, time and event (the nth sample of a key in
# REF with the nth of GOT); with event or comm, only the samples of that
# event (modifiers aside) or command are. The frames of a pair are
# compared innermost first for as long as both have one at the same
# address of the same DSO; where the two unwindings part ways (fgsym's
# DWARF unwinding finds a caller perf's skipped), the rest is not
# compared. The same address: perf script may write a file offset where
# fgsym writes the ELF address (a Rust binary whose text is mapped 0x1000
# above its offset), so each DSO's difference is learned from the leaf
# frames of the pairs, and a caller's may be one more in GOT (perf script
# writes a DWARF unwinding's return addresses less one).
#
# A frame at one address is named alike or not: exact, where the names are
# the files' (bare names, as share.awk compares them: no return type,
# parameters, version or Rust hash; aliases of one address one name:
# bare, names.awk). It
# is counted apart, not judged, where chance decides: a frame either tool
# left unnamed ([unknown], fgsym's [truncated]); a frame of [vdso], of the
# dynamic loader or of an [unknown] DSO (what each tool knows of those
# differs from machine to machine, and few samples land there, more or
# fewer from run to run); a caller that perf names at +0x0 (its return
# address is the first byte of the next function, after a call that does
# not return: perf names that function, fgsym the caller).
#
# Prints "SAMPLES PAIRED REFFRAMES COMPARED ALIKE DIFFERENT APART": REF's
# samples, those paired, REF's frames in them, the frames compared, and
# how these were judged; then a line "diff ADDR REF-NAME | GOT-NAME (DSO)"
# for each of the first 20 named differently.
# key: the key of a sample's head line, "thread time event", or "" when
# it is no sample head or not of the event and command asked for
function key() {
	if (!head() || (event != "" && H_EV != event) || (comm != "" && $1 != comm))
		return ""
	return H_TID " " H_TIME " " H_EV
}
FNR == 1 { side = FILENAME == ARGV[1] ? "r" : "g"; cur = "" }
/^#/ { next }
/^$/ { cur = ""; next }
/^[ \t]/ {
	if (cur == "" || !match($0, /\([^()]*\)$/))
		next
	dso = substr($0, RSTART + 1, RLENGTH - 2)
	s = $0
	sub(/^[ \t]+/, "", s)
	addr = tolower(s); sub(/ .*/, "", addr); sub(/^0+/, "", addr)
	sub(/^[0-9a-fA-F]+ /, "", s)
	sub(/ \([^()]*\)$/, "", s)
	nf = ++n[cur]
	A[cur, nf] = addr; N[cur, nf] = s; D[cur, nf] = dso
	next
}
{
	k = key()
	if (k == "") { cur = ""; next }
	if (side == "r") samples++
	cur = side SUBSEP k SUBSEP (++seen[side, k])
	n[cur] = 0
}
# inc HEX: HEX + 1, in lower-case hex digits without leading zeros (one
# digit at a time: a double holds no 64-bit address exactly)
function inc(h,    i, d) {
	for (i = length(h); i > 0; i--) {
		d = index("0123456789abcdef", substr(h, i, 1))
		if (d < 16)
			return substr(h, 1, i - 1) substr("123456789abcdef", d, 1) \
			    substr("0000000000000000", 1, length(h) - i)
	}
	return "1" substr("0000000000000000", 1, length(h))
}
# hexval HEX: its value (exact up to 13 digits, which user addresses are)
function hexval(h,    i, v) {
	v = 0
	for (i = 1; i <= length(h); i++)
		v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
	return v
}
# at C G I: frame I of the REF sample C and of the GOT sample G is at one
# address of one DSO
function at(c, g, i,    d) {
	if (D[c, i] != D[g, i])
		return 0
	if (A[c, i] == A[g, i] || (i > 1 && inc(A[c, i]) == A[g, i]))
		return 1
	if (length(A[c, i]) > 13 || !(D[c, i] in delta))
		return 0
	d = hexval(A[g, i]) - hexval(A[c, i]) - delta[D[c, i]]
	return d == 0 || (i > 1 && d == 1)
}
function chance(d) {
	return d == "[vdso]" || d == "[unknown]" || d ~ /\/ld-linux[^\/]*$/ || d ~ /\/ld\.so[^\/]*$/
}
END {
	# each DSO's difference between the two tools' addresses, from the
	# leaf frames: the one most pairs show
	for (c in n) {
		split(c, p, SUBSEP)
		g = "g" SUBSEP p[2] SUBSEP p[3]
		if (p[1] != "r" || !(g in n) || n[c] < 1 || n[g] < 1 ||
		    D[c, 1] != D[g, 1] || length(A[c, 1]) > 13 || length(A[g, 1]) > 13)
			continue
		votes[D[c, 1], hexval(A[g, 1]) - hexval(A[c, 1])]++
	}
	for (k in votes) {
		split(k, p, SUBSEP)
		if (!(p[1] in most) || votes[k] > most[p[1]]) {
			most[p[1]] = votes[k]
			delta[p[1]] = p[2]
		}
	}
	for (c in n) {
		split(c, p, SUBSEP)
		if (p[1] != "r")
			continue
		g = "g" SUBSEP p[2] SUBSEP p[3]
		if (!(g in n))
			continue
		paired++
		reff += n[c]
		for (i = 1; i <= n[c] && i <= n[g]; i++) {
			if (!at(c, g, i))
				break
			frames++
			rn = N[c, i]; gn = N[g, i]
			if (rn == "[unknown]" || gn == "[unknown]" || gn == "[truncated]" ||
			    chance(D[c, i]) || chance(D[g, i]) ||
			    (i > 1 && rn ~ /\+0x0$/)) {
				apart++
				continue
			}
			if (bare(rn) == bare(gn)) { same++; continue }
			diff++
			if (shown++ < 20)
				lines = lines sprintf("diff %s %s | %s (%s)\n", A[c, i], rn, gn, D[g, i])
		}
	}
	printf "%d %d %d %d %d %d %d\n", samples, paired, reff, frames, same, diff, apart
	printf "%s", lines
}
