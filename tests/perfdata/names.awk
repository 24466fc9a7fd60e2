# names.awk: what share.awk, frames.awk and counts.awk share, given first
# (awk -f names.awk -f share.awk ...): fgsym's naming rules for comparing
# two tools' names, with the aliases file, and the parse of a sample's
# head line as perf script writes it or fgsym does.

# bare NAME: the name without offset, return type, parameters, version or
# Rust hash, and the canonical one of its aliases (canon, from the file
# named by -v aliases: lines "NAME<tab>CANONICAL" of aliases.sh).
function bare(s,    i, c, d, sp, n) {
	sub(/\+0x[0-9a-f]+$/, "", s)
	sub(/@@?[A-Za-z_][A-Za-z0-9_.]*$/, "", s)
	sub(/::h[0-9a-f]{16}$/, "", s)
	n = length(s)
	if (substr(s, n) == ")") {
		d = 0
		for (i = n; i > 0; i--) {
			c = substr(s, i, 1)
			if (c == ")") d++
			else if (c == "(" && --d == 0) break
		}
		if (i > 1)
			s = substr(s, 1, i - 1)
	}
	d = 0; sp = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "<" || c == "(" || c == "{" || c == "[") d++
		else if (c == ">" || c == ")" || c == "}" || c == "]") d--
		else if (c == " " && d == 0) sp = i
	}
	if (sp > 0 && substr(s, 1, sp - 1) !~ /^operator|::operator$/)
		s = substr(s, sp + 1)
	if (s in canon)
		s = canon[s]
	return s
}
BEGIN {
	if (aliases != "")
		while ((getline l < aliases) > 0) {
			split(l, a, "\t")
			canon[a[1]] = a[2]
		}
}

# head: parses the line as a sample's head, `comm tid time: period
# event:` (perf script) or `comm pid/tid [cpu] time: period event:`
# (fgsym): sets H_TID, H_TIME and H_EV (without its modifiers: cpu-clock
# of cpu-clock:ppp) and returns 1, or returns 0 when it is no head. A
# sample of no task is -1 in both.
function head(    i, t) {
	t = 0
	for (i = NF; i > 1; i--)
		if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = i; break }
	if (t == 0)
		return 0
	i = t - 1
	while (i > 1 && $i ~ /^\[[0-9]+\]$/)
		i--
	H_TID = $i
	sub(/^.*\//, "", H_TID)
	H_TIME = $t
	H_EV = $NF
	sub(/:.*$/, "", H_EV)
	return 1
}
