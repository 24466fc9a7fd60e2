#!/bin/sh
# t409-fgsym-debuginfod: with DEBUGINFOD_URLS set, fgsym asks a real
# debuginfod server (on 127.0.0.1, at a free port) for what it lacks: the
# debug file of a stripped binary (its functions, inlined frames and
# source lines named as from the unstripped one), the DWARF of a binary
# with symbols only, a missing executable by its recorded build ID.
# Without DEBUGINFOD_URLS, or with --no-debuginfod, the server sees no
# request. A server down, silent or answering garbage costs one line and
# bounded time. Each check has its own client cache (DEBUGINFOD_CACHE_PATH).
. "$(dirname "$0")/lib.sh"
plan 15

SRV= BAD=
trap 'for p in $SRV $BAD; do kill "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT
trap 'exit 1' HUP INT TERM
FIX=$TMP/fix
mkdir -p "$FIX/srv"
CC=${CC:-cc}
unset DEBUGINFOD_URLS DEBUGINFOD_TIMEOUT
PERF_BUILDID_DIR=$TMP/no-buildid-cache
export FIX PERF_BUILDID_DIR

if ! command -v debuginfod >/dev/null 2>&1; then
	skip 'a stripped binary named through the server' 'debuginfod is not installed (apt-get install debuginfod)'
	skip_rest
fi
if ! fgsym --help 2>&1 | grep -q -- --no-debuginfod; then
	skip 'a stripped binary named through the server' 'fgsym has no debuginfod client'
	skip_rest
fi

# split NAME: FIX/NAME stripped, its debug file and itself in FIX/srv.
split() {
	objcopy --only-keep-debug "$FIX/$1.full" "$FIX/srv/$1.debug" &&
	strip -o "$FIX/$1" "$FIX/$1.full" &&
	cp "$FIX/$1" "$FIX/srv/$1"
}
{
	$CC -O2 -g -I"$TESTS/sym" "$TESTS/sym/inl.c" -o "$FIX/inl.full" &&
	split inl &&
	$CC -O2 -g -I"$TESTS/record" "$TESTS/record/hot.c" -o "$FIX/hot.full" &&
	split hot &&
	$CC -O1 -g -I"$TESTS/record" "$TESTS/record/hot.c" \
	    -o "$FIX/nodw.full" &&
	objcopy --only-keep-debug "$FIX/nodw.full" "$FIX/srv/nodw.debug" &&
	objcopy --strip-debug "$FIX/nodw.full" "$FIX/nodw"
} >"$FIX/cc.log" 2>&1

# The server: a free port, its database in $TMP, the folder indexed once.
port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# metric NAME: the value of the server's metric NAME (0 when absent).
metric() {
	python3 - "$URL/metrics" "$1" <<'PY'
import sys, urllib.request
text = urllib.request.urlopen(sys.argv[1], timeout=10).read().decode()
print(int(sum(float(l.split()[-1]) for l in text.splitlines()
              if l.startswith(sys.argv[2] + " ") or l.startswith(sys.argv[2] + "{"))))
PY
}
# asked: requests for files by build ID the server has had.
asked() {
	python3 - "$URL/metrics" <<'PY'
import sys, urllib.request
text = urllib.request.urlopen(sys.argv[1], timeout=10).read().decode()
print(int(sum(float(l.split()[-1]) for l in text.splitlines()
              if l.startswith("http_requests_total{type=\"")
              and l.split('"')[1] in ("debuginfo", "executable", "source"))))
PY
}
indexed() {
	test "$(metric scanned_files_total 2>/dev/null)" -ge 5
}
for try in 1 2 3; do
	PORT=$(port)
	URL=http://127.0.0.1:$PORT
	debuginfod -F -p "$PORT" -d "$TMP/db.sqlite" -t 0 -g 0 -v "$FIX/srv" \
	    >"$FIX/srv.log" 2>&1 &
	SRV=$!
	wait_for 30 indexed >/dev/null 2>&1 && break
	kill "$SRV" 2>/dev/null
	SRV=
done
export URL

check 'fixtures build, and the server indexes them' '
	{ test -x "$FIX/inl" && test -x "$FIX/hot" && test -x "$FIX/nodw" ||
	  { cat "$FIX/cc.log"; false; }; } &&
	{ test -n "$SRV" || { tail "$FIX/srv.log"; false; }; }
'

# The reference the checks below compare with: the unstripped binary's
# stream, named (in $FIX, which they read).
check 'the reference: the unstripped binary named, inlined frames and lines' '
	"$FIX/inl.full" v >"$FIX/full.in" &&
	sed "s|($FIX/inl.full)|($FIX/inl)|" "$FIX/full.in" >"$FIX/inl.in" &&
	{ expect_status 0 fgsym --srcline "$FIX/full.in" >full.out 2>err || { cat err; false; }; } &&
	sed "s|($FIX/inl.full)|($FIX/inl)|" full.out >"$FIX/full.out" &&
	grep_q "twist (inlined)" "$FIX/full.out" && grep_q "inl.c:[0-9]" "$FIX/full.out"
'

check 'stripped, no DEBUGINFOD_URLS: no request at all, its frames stay [unknown]' '
	before=$(asked) &&
	DEBUGINFOD_CACHE_PATH=$PWD/cache expect_status 0 fgsym --srcline \
	    "$FIX/inl.in" >out 2>err &&
	cat err &&
	test "$(asked)" = "$before" &&
	grep_q "inl. is stripped" err &&
	grep -q "\[unknown\] ($FIX/inl)" out
'

check 'stripped, DEBUGINFOD_URLS set: named through the server, inlined frames and lines as unstripped' '
	before=$(asked) &&
	DEBUGINFOD_URLS=$URL DEBUGINFOD_CACHE_PATH=$PWD/cache \
	    expect_status 0 fgsym --srcline "$FIX/inl.in" >out 2>err &&
	cat err &&
	test_cmp "$FIX/full.out" out &&
	grep -q "twist (inlined)" out && grep -q "inl.c:[0-9]" out &&
	! grep -q stripped err &&
	test "$(asked)" -gt "$before" &&
	echo "second run, the same cache: no request" &&
	before=$(asked) &&
	DEBUGINFOD_URLS=$URL DEBUGINFOD_CACHE_PATH=$PWD/cache \
	    expect_status 0 fgsym --srcline "$FIX/inl.in" >out2 2>err2 &&
	test_cmp "$FIX/full.out" out2 &&
	test "$(asked)" = "$before"
'

check '--no-debuginfod: DEBUGINFOD_URLS set, and still no request' '
	before=$(asked) &&
	DEBUGINFOD_URLS=$URL DEBUGINFOD_CACHE_PATH=$PWD/cache \
	    expect_status 0 fgsym --no-debuginfod "$FIX/inl.in" >out 2>err &&
	test "$(asked)" = "$before" &&
	grep_q "inl. is stripped" err
'

check 'an executable gone from its path: fetched by its recorded build ID, then its debug file' '
	cp "$FIX/hot" hot &&
	expect_status 0 fgrecord -o rec ./hot 0.3 2>rec.err &&
	rm hot &&
	before=$(asked) &&
	DEBUGINFOD_CACHE_PATH=$PWD/cache expect_status 0 fgsym rec >none 2>none.err &&
	test "$(asked)" = "$before" &&
	grep_q "no such file" none.err &&
	DEBUGINFOD_URLS=$URL DEBUGINFOD_CACHE_PATH=$PWD/cache \
	    expect_status 0 fgsym rec >out 2>err &&
	cat err &&
	! grep -q "no such file" err &&
	frame_names out "$PWD/hot" | sort | uniq -c >names && cat names &&
	grep -q " hot\$" names && grep -q " main\$" names &&
	! grep -q unknown names &&
	test "$(frame_names none "$PWD/hot" | grep -vc unknown)" = 0
'

check 'symbols but no DWARF: fgsym and fgrecord call it DWARF-less only without the server' '
	cp "$FIX/nodw" nodw &&
	expect_status 0 fgrecord -o rec ./nodw 0.3 2>rec.err &&
	cat rec.err &&
	grep_q "no DWARF debug info in" rec.err &&
	DEBUGINFOD_URLS=$URL DEBUGINFOD_CACHE_PATH=$PWD/cache \
	    expect_status 0 fgrecord -o rec2 ./nodw 0.3 2>rec2.err &&
	cat rec2.err &&
	! grep -q "nodw.*DWARF" rec2.err &&
	DEBUGINFOD_CACHE_PATH=$PWD/cache2 expect_status 0 fgsym rec >out 2>err &&
	grep_q "nodw. has no DWARF" err &&
	DEBUGINFOD_URLS=$URL DEBUGINFOD_CACHE_PATH=$PWD/cache2 \
	    expect_status 0 fgsym rec >out 2>err &&
	cat err &&
	! grep -q "nodw.*DWARF" err &&
	DEBUGINFOD_URLS=$URL DEBUGINFOD_CACHE_PATH=$PWD/cache2 \
	    expect_status 0 fgsym --srcline rec >out 2>err &&
	grep -q "hot.c:[0-9]" out
'

# Misbehaving servers on 127.0.0.1 (tests/sym/badserver.py), started
# here so that the trap above stops them; bad MODE sets BADURL to one.
for mode in silent http garbage 500 file huge stream; do
	python3 "$TESTS/sym/badserver.py" "$TMP/bad.$mode" "$mode" "$FIX/inl" &
	BAD="$BAD $!"
done
bad() {
	wait_for 30 test -s "$TMP/bad.$1" &&
	BADURL=http://127.0.0.1:$(cat "$TMP/bad.$1")
}

check 'a server that is down: one line, and the run ends' '
	down=$(port) &&
	DEBUGINFOD_URLS=http://127.0.0.1:$down DEBUGINFOD_CACHE_PATH=$PWD/cache \
	    expect_status 0 timeout 60 fgsym "$FIX/inl.in" >out 2>err &&
	cat err &&
	test "$(grep -c "debuginfod" err)" = 1 &&
	grep_q "^fgsym: debuginfod: asking .http://127.0.0.1:$down. for .$FIX/inl. failed: .*: no more files are asked of servers in this run\$" err
'

check 'a server that never answers: one line, given up after DEBUGINFOD_TIMEOUT' '
	bad silent &&
	DEBUGINFOD_URLS=$BADURL DEBUGINFOD_TIMEOUT=2 DEBUGINFOD_CACHE_PATH=$PWD/cache \
	    expect_status 0 timeout 60 fgsym "$FIX/inl.in" "$FIX/inl.in" >out 2>err &&
	cat err &&
	test "$(grep -c "debuginfod" err)" = 1 &&
	grep_q "failed: no answer in 2 s: no more files" err
'

# Made to fail: before, the bad answer stayed in the client's cache and
# the second run took it from there without asking.
check 'a server that answers no ELF: refused in one line, and not kept' '
	bad http &&
	for run in 1 2; do
		DEBUGINFOD_URLS=$BADURL DEBUGINFOD_CACHE_PATH=$PWD/cache \
		    expect_status 0 timeout 60 fgsym "$FIX/inl.in" >out 2>err &&
		cat err &&
		test "$(grep -c "debuginfod\|refused" err)" = 1 &&
		grep_q "^fgsym: debuginfod: .$BADURL.* sent the file for .$FIX/inl. was refused: .*; removed from the client.s cache\$" err &&
		grep -q "\[unknown\] ($FIX/inl)" out &&
		test -z "$(find cache -type f \( -name executable -o -name debuginfo \))" ||
		return 1
	done
'

# Made to fail: before, 3 GiB announced or an endless answer went into
# the client's cache until the disk was full (1.5-2 GiB of zeros here).
for mode in huge stream; do
	check "a server that sends more than DEBUGINFOD_MAXSIZE ($mode): refused, nothing kept" '
		bad '$mode' &&
		DEBUGINFOD_URLS=$BADURL DEBUGINFOD_MAXSIZE=2097152 \
		    DEBUGINFOD_CACHE_PATH=$PWD/cache \
		    expect_status 0 timeout 60 fgsym "$FIX/inl.in" >out 2>err &&
		cat err &&
		test "$(grep -c "debuginfod" err)" = 1 &&
		grep_q "^fgsym: debuginfod: the file for .$FIX/inl. was refused: larger.* than the 2 MiB taken (DEBUGINFOD_MAXSIZE sets it)\$" err &&
		test "$(du -sk cache | cut -f1)" -lt 8192
	'
done

check 'a server that answers no HTTP: no hang, no name made up' '
	bad garbage &&
	DEBUGINFOD_URLS=$BADURL DEBUGINFOD_CACHE_PATH=$PWD/cache \
	    expect_status 0 timeout 60 fgsym "$FIX/inl.in" >out 2>err &&
	cat err &&
	test "$(grep -c "debuginfod" err)" = 1 &&
	grep_q "^fgsym: debuginfod: asking .$BADURL. for .$FIX/inl. failed: an answer that is not HTTP (.*): no more files are asked of servers in this run\$" err &&
	grep -q "\[unknown\] ($FIX/inl)" out
'

# libdebuginfod answers "not found" for an HTTP 500 as for a 404: the
# status is read from its log, and said once.
check 'a server that answers HTTP 500: one line naming the status' '
	bad 500 &&
	DEBUGINFOD_URLS=$BADURL DEBUGINFOD_CACHE_PATH=$PWD/cache \
	    expect_status 0 timeout 60 fgsym "$FIX/inl.in" "$FIX/inl.in" >out 2>err &&
	cat err &&
	test "$(grep -c "debuginfod" err)" = 1 &&
	grep_q "^fgsym: debuginfod: asking .$BADURL. for .$FIX/inl. failed: HTTP 500: no more files are asked of servers in this run\$" err &&
	grep -q "\[unknown\] ($FIX/inl)" out
'

check 'a server that sends a file with another build ID: said so, not a rebuild' '
	bad file &&
	cp "$FIX/hot" hot &&
	expect_status 0 fgrecord -o rec ./hot 0.3 2>rec.err &&
	rm hot &&
	DEBUGINFOD_URLS=$BADURL DEBUGINFOD_CACHE_PATH=$PWD/cache \
	    expect_status 0 timeout 60 fgsym rec >out 2>err &&
	cat err &&
	grep_q "^fgsym: debuginfod: .$BADURL.* sent the file for .$PWD/hot. was refused: a file with another build ID ([0-9a-f]*, asked for [0-9a-f]*); removed from the client.s cache\$" err &&
	test -z "$(find cache -type f \( -name executable -o -name debuginfo \))" &&
	! grep -q "rebuilt\|record the profile again" err &&
	test "$(frame_names out "$PWD/hot" | grep -vc unknown)" = 0
'

done_testing
