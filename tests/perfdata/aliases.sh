#!/bin/sh
# aliases.sh STREAM...: the symbol aliases of the files the streams'
# frames name, for share.awk: one line "NAME<tab>CANONICAL" per name that
# shares its address with another of the same file (cfree and free,
# mmap64 and mmap), CANONICAL the same for the whole group, so that two
# symbolizers that pick different aliases of one address agree; as the
# files hold them and demangled (nm -C: Rust's <i64 as
# core::fmt::Display>::fmt and its isize twin, one address). Names are
# taken without their symbol version; a file's debug file (by build ID,
# under /usr/lib/debug) adds its local names (__GI_* of libc). The
# kernel's are from /proc/kallsyms.
set -u
sed -n 's/^[ 	].* (\(\/[^()]*\))$/\1/p' "$@" | sort -u |
while read -r f; do
	[ -f "$f" ] || continue
	id=$(readelf -n "$f" 2>/dev/null | sed -n 's/^ *Build ID: *//p' | head -1)
	dbg=/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug
	for c in '' -C; do
		{ nm $c --defined-only "$f" 2>/dev/null; nm $c -D --defined-only "$f" 2>/dev/null
		  [ -n "$id" ] && [ -f "$dbg" ] && nm $c --defined-only "$dbg" 2>/dev/null; } |
		    awk -v f="$f" 'NF >= 3 && $2 ~ /^[TtWiu]$/ {
			n = $0; sub(/^[^ ]+ [^ ]+ /, "", n); print f "\t" $1 "\t" n }'
	done
done >"${TMPDIR:-/tmp}/aliases.$$"
if grep -q '(\[kernel.kallsyms\])$' "$@" && [ -r /proc/kallsyms ]; then
	awk '$2 ~ /^[Tt]$/ && $1 != "0000000000000000" { print "[k]\t" $1 "\t" $3 }' /proc/kallsyms \
	    >>"${TMPDIR:-/tmp}/aliases.$$"
fi
# One canonical name per class of names that are aliases in some file:
# a name two files give to different addresses (free in libc and in a
# program that exports its own) joins the classes (union-find).
awk -F '\t' 'function find(x) { while (up[x] != x) x = up[x]; return x }
function join(a, b) {
	a = find(a); b = find(b)
	if (a != b) { if (a < b) up[b] = a; else up[a] = b }
}
{
	n = $3
	sub(/@.*$/, "", n)
	k = $1 " " $2
	if (!(n in up)) up[n] = n
	if (k in first) join(first[k], n)
	else first[k] = n
	many[k] += !((k, n) in seen); seen[k, n] = 1
}
END {
	for (k in first)
		if (many[k] > 1) shared[first[k]] = 1
	for (n in up)
		if (find(n) != n || n in shared) print n "\t" find(n)
}' "${TMPDIR:-/tmp}/aliases.$$" | sort -u
rm -f "${TMPDIR:-/tmp}/aliases.$$"
