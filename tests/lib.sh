# tests/lib.sh: the little test library every tests/t*.sh sources.
#
#   . "$(dirname "$0")/lib.sh"
#   check 'what it shows' '
#       fgfold in >actual &&
#       test_cmp expect actual
#   '
#   skip 'what it would show' 'why it cannot run here'
#   done_testing
#
# Each check runs its shell snippet in a subshell inside a fresh scratch
# directory ($TMP, removed at exit); commands are chained with && so that
# the first failure fails the check. Output is TAP on stdout. The tools
# are on PATH from bin/; fixtures are under $TESTS.
#
# A file says how many results (checks and skips) it will print with
# `plan N` before its first check: the TAP plan, printed first, so that
# tests/run fails the file when a check is lost to control flow (an
# early exit, an if without its skip), not only when it crashes. Every
# branch of a file prints the same number of results: a check that
# cannot run here is a skip with the reason.
#
# The chain lint (as git's test-lib does it): before a check runs, its
# snippet is evaluated once as `(exit 117) && SNIPPET`. With every
# command chained by &&, nothing of it runs and the status is 117; a
# line that does not end in && (or ||, |, a compound's own keyword)
# starts a new command, which runs, and the check fails as "broken &&
# chain" without being run. Put a background job in braces ({ cmd & }
# && pid=$! &&) and end a loop's body in `|| exit 1`.
set -u
TESTS=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$TESTS/.." && pwd)
PATH=$TOP/bin:$PATH
export TESTS TOP PATH LC_ALL=C
# No test asks a debuginfod server unless it starts one and says so
# (Debian's profile.d sets DEBUGINFOD_URLS for login shells).
unset DEBUGINFOD_URLS
TMP=$(mktemp -d "${TMPDIR:-/tmp}/fgtest.XXXXXX")
NOBODY=
trap 'rm -rf "$TMP" ${NOBODY:+"$NOBODY"}' EXIT
_n=0
_plan=
_skipwhy=

# plan N: this file prints N results. Call it once, before the first
# check.
plan() {
	case $1 in
	''|*[!0-9]*) echo "Bail out! plan '$1': not a number of checks"; exit 2 ;;
	esac
	[ -z "$_plan" ] && [ "$_n" = 0 ] ||
		{ echo "Bail out! plan $1 after $_n results or a plan"; exit 2; }
	_plan=$1
	echo "1..$_plan"
}

# chain_ok SNIPPET: the snippet's commands are all chained (the lint
# above), in a scratch directory of its own; says so and fails if not.
chain_ok() {
	mkdir -p "$_dir.lint"
	(cd "$_dir.lint" && eval "(exit 117) && $1
") >"$_dir.lint.log" 2>&1
	_rc=$?
	rm -rf "$_dir.lint"
	[ "$_rc" = 117 ] && return 0
	echo "broken && chain: the snippet went on after a false first link (status $_rc, not 117);"
	echo "a line without && starts a new command whose failure nobody sees:"
	cat "$_dir.lint.log"
	return 1
}

check() {
	_n=$((_n + 1))
	_dir=$TMP/$_n
	mkdir -p "$_dir"
	if chain_ok "$2" >"$_dir.log" 2>&1 &&
	   (cd "$_dir" && eval "$2") >"$_dir.log" 2>&1; then
		if [ -f "$_dir.skip" ]; then
			echo "ok $_n - $1 # SKIP $(cat "$_dir.skip")"
		else
			echo "ok $_n - $1"
		fi
	else
		echo "not ok $_n - $1"
		sed 's/^/#   /' "$_dir.log" | head -40
	fi
}

skip() {
	_n=$((_n + 1))
	_skipwhy=$2
	echo "ok $_n - $1 # SKIP $2"
}

# skip_checks N WHAT WHY: the N checks of a branch that cannot run
# here, skipped as "WHAT (k of N)": every branch prints the plan's count.
skip_checks() {
	_k=0
	while [ "$_k" -lt "$1" ]; do
		_k=$((_k + 1))
		skip "$2 ($_k of $1)" "$3"
	done
}

# skip_rest [WHY]: the file cannot go on here (a fixture that does not
# build, a facility the machine lacks): every result the plan still
# expects is a skip with WHY (the last skip's reason if none is given),
# and the file ends.
skip_rest() {
	_rest=${1:-${_skipwhy:-the file cannot go on here}}
	if [ -z "$_plan" ]; then
		[ $# = 0 ] || skip 'the rest of this file' "$_rest"
	else
		while [ "$_n" -lt "$_plan" ]; do
			skip 'the rest of this file' "$_rest"
		done
	fi
	done_testing
	exit 0
}

# cannot_decide WHY: in a check's snippet (its own shell, not a $(...)
# or a pipe), when what the machine did leaves the check unable to
# decide (a load that stretched the program past what a bound can
# allow): ends the check as a skip with WHY, counted as skipped, never
# as passed.
cannot_decide() {
	echo "$*" >"$_dir.skip"
	exit 0
}

# done_testing: the end of a file. The plan, if the file did not give
# one (tests/run warns of that: a lost check goes unseen).
done_testing() {
	if [ -z "$_plan" ]; then
		echo "1..$_n"
	elif [ "$_n" != "$_plan" ]; then
		echo "# planned $_plan results, printed $_n: a check lost to control flow"
	fi
}

# test_cmp EXPECTED ACTUAL: like cmp, but shows the difference.
test_cmp() {
	diff -u "$1" "$2"
}

# expect_status N CMD...: run CMD, fail unless it exits with N.
expect_status() {
	_want=$1; shift
	"$@"; _got=$?
	[ "$_got" = "$_want" ] || { echo "exit status $_got, expected $_want: $*"; return 1; }
}

# wait_for SECONDS CMD...: runs CMD every tenth of a second until it
# succeeds, and fails if it has not after SECONDS. A guard against a hang,
# for waiting until a thing has happened; never a measure of how long it
# took (no check in this suite asserts a duration).
wait_for() {
	_left=$(($1 * 10)); shift
	until "$@"; do
		_left=$((_left - 1))
		[ "$_left" -gt 0 ] || { echo "still not true after a long wait: $*"; return 1; }
		sleep 0.1
	done
}

# grep_q PATTERN FILE: grep -q that shows the file when it fails.
grep_q() {
	grep -q -e "$1" "$2" || { echo "no match for '$1' in $2:"; head -20 "$2"; return 1; }
}

# wellformed STREAM: the layout of fg-stream(5), section 1.
wellformed() {
	awk '
	NR == 1 && $0 != "# ========" { print "line 1: " $0; bad = 1 }
	NR == 2 && $0 != "# fgrecord 1" { print "line 2: " $0; bad = 1 }
	/^#/ { if (state == 1) { print NR ": header inside a sample"; bad = 1 }; next }
	/^$/ { if (state != 1) { print NR ": empty line outside a sample"; bad = 1 }; state = 0; next }
	/^\t/ {
		if (state != 1) { print NR ": frame outside a sample"; bad = 1 }
		if ($0 !~ /^\t[0-9a-f]+ \[(unknown|truncated)\] \(.+\)$/) { print NR ": bad frame: " $0; bad = 1 }
		next
	}
	{
		if (state == 1) { print NR ": sample without its empty line"; bad = 1 }
		if ($0 !~ /^.+ -?[0-9]+\/-?[0-9]+ \[[0-9][0-9][0-9]\] [0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]: [0-9]+ [a-z-]+:$/) {
			print NR ": bad sample head: " $0; bad = 1
		}
		state = 1; n++
	}
	END {
		if (state == 1) { print "stream ends inside a sample"; bad = 1 }
		if (n == 0) { print "no samples"; bad = 1 }
		exit bad
	}' "$1"
}

# frame_names FILE DSO [MARK]: the symbol of every frame of DSO in the
# sample stream FILE (offset removed) and of the inlined frames just above
# each, innermost first, one per line; MARK follows an inlined one's name.
frame_names() {
	awk -v dso="$2" -v mark="${3:-}" '
	/^[ \t]/ && match($0, /\([^()]*\)$/) {
		d = substr($0, RSTART + 1, RLENGTH - 2)
		s = $0
		sub(/^[ \t]+[0-9a-fA-F]+ /, "", s)
		sub(/ \([^()]*\)$/, "", s)
		if (d == "inlined") { buf = buf s mark "\n"; next }
		if (d == dso) { sub(/\+0x[0-9a-f]+$/, "", s); printf "%s%s\n", buf, s }
		buf = ""
	}' "$1"
}

# perf_ok: can this machine sample with perf_event_open? Sets $why if not.
perf_ok() {
	why=
	p=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo missing)
	if [ "$p" = missing ]; then why="no perf_event_open in this kernel"; return 1; fi
	if [ "$(id -u)" != 0 ] && [ "$p" -gt 2 ]; then
		why="kernel.perf_event_paranoid is $p"; return 1
	fi
	return 0
}

# flamegraph_ok: FLAMEGRAPH_DIR names a checkout of Brendan Gregg's
# FlameGraph, whose stackcollapse-perf.pl the checks that compare with it
# run. Sets $why if not: how to have those checks run.
flamegraph_ok() {
	why=
	if [ -z "${FLAMEGRAPH_DIR:-}" ]; then
		why='FLAMEGRAPH_DIR is not set: to run it, git clone https://github.com/brendangregg/FlameGraph and set FLAMEGRAPH_DIR to that folder (README, Two commands)'
	elif [ ! -f "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" ]; then
		why="FLAMEGRAPH_DIR=$FLAMEGRAPH_DIR holds no stackcollapse-perf.pl: set it to a FlameGraph checkout"
	fi
	[ -z "$why" ]
}

# for_nobody FILE...: copies each FILE, mode 0755, into $NOBODY, a
# directory of /tmp that every user can enter (0755, made on the first
# call, removed at exit). A test that runs a program as nobody runs the
# copy: the checkout may be where nobody cannot go (under /root). A FILE
# under $TOP keeps its place below it (bin/fgrecord, scripts/cargo-fg,
# which finds its tools in ../bin); any other goes to the top. Call it
# outside check, whose subshell would lose $NOBODY.
for_nobody() {
	if [ -z "$NOBODY" ]; then
		NOBODY=$(mktemp -d /tmp/fgnobody.XXXXXX) && chmod 755 "$NOBODY" || return 1
	fi
	for _f in "$@"; do
		case $_f in
		"$TOP"/*) _to=$NOBODY/${_f#"$TOP"/} ;;
		*) _to=$NOBODY/${_f##*/} ;;
		esac
		mkdir -p -m 755 "${_to%/*}" && cp "$_f" "$_to" && chmod 755 "$_to" || return 1
	done
}

# symfold STREAM FOLDED [FGFOLD-OPTION...]: fgsym STREAM >STREAM.sym, then
# fgfold OPTIONS STREAM.sym >FOLDED: each must exit 0, and fgfold say
# nothing. What fgsym says (its summary; a judgement on the DWARF of the
# sampled code, which depends on where the samples landed) is kept in
# STREAM.sym.err and shown when a step fails. The two steps of the
# README's pipeline through files, for a test that wants the folded
# stacks of a recording and is not a test of the pipe.
symfold() {
	_in=$1 _out=$2; shift 2
	expect_status 0 fgsym "$_in" >"$_in.sym" 2>"$_in.sym.err" &&
	expect_status 0 fgfold "$@" "$_in.sym" >"$_out" 2>"$_out.err" || {
		cat "$_in.sym.err" "$_out.err" 2>/dev/null; return 1; }
	[ ! -s "$_out.err" ] || { echo "fgfold said:"; head -20 "$_out.err"; return 1; }
}

# pipeline OUT 'CMD' 'CMD'...: runs CMD | CMD | ... (each a shell snippet)
# with the last one's stdout in OUT, stage N's stderr in OUT.N.err and its
# exit status in OUT.N.rc; fails, saying which and showing its stderr,
# unless every stage exited 0. For a test of the pipe itself, where a
# plain pipe would keep only the last stage's status.
pipeline() {
	_out=$1; shift
	_i=0 _cmd=
	for _s in "$@"; do
		_i=$((_i + 1))
		_cmd="$_cmd${_cmd:+ | }{ ( $_s ) 2>\"$_out.$_i.err\"; echo \$? >\"$_out.$_i.rc\"; }"
	done
	eval "$_cmd" >"$_out"
	_bad=0 _j=0
	for _s in "$@"; do
		_j=$((_j + 1))
		_rc=$(cat "$_out.$_j.rc")
		[ "$_rc" = 0 ] || { echo "stage $_j exited $_rc: $_s"; head -20 "$_out.$_j.err"; _bad=1; }
	done
	return $_bad
}

# running PID NAME [N]: PID has exec'd NAME and runs N threads at least
# (1 if not given): the condition to wait for before signalling a program
# started in the background.
running() {
	[ "$(cat /proc/"$1"/comm 2>/dev/null)" = "$2" ] &&
	[ "$(ls /proc/"$1"/task 2>/dev/null | wc -l)" -ge "${3:-1}" ]
}

# traced_by PID TRACER: every thread of PID is traced by TRACER.
traced_by() {
	for _s in /proc/"$1"/task/*/status; do
		grep -q "^TracerPid:	$2\$" "$_s" 2>/dev/null || return 1
	done
}

# started STREAM: STREAM without the samples of main threads (those whose
# TID is their PID): the samples of the threads the programs started. A
# program that runs for wall time gives its threads less CPU on a busy
# machine, and its main thread's start (exec, the loader, the clones) a
# larger share of the samples; the shares of the started threads' own
# functions do not move.
started() {
	awk '/^[^#\t]/ { split($2, p, "/"); main = p[1] == p[2] } !main' "$1"
}
