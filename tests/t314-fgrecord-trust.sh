#!/bin/sh
# t314-fgrecord-trust: fgrecord, often root or holding capabilities, gives
# no one more than they had, and says what happened in words that fit.
#
#   - root's -o refuses a file another user left behind, or one with a
#     second link;
#   - the unwinder's depth: deep stacks reach main by default, and
#     --max-depth cuts them;
#   - the ring-buffer note appears only when samples were lost;
#   - the paranoid-level fix names the level that helps, never the
#     current one;
#   - a mapped file swapped for a FIFO or a device is never opened;
#   - a set-user-ID command: said before it runs, never gains privilege
#     under an unprivileged fgrecord, and the stream holds no stack bytes;
#   - -a without root says how many processes' maps were unreadable.
#
# FG_BIN=DIR runs the tools of DIR instead of bin/ (to show that a check
# fails on an older build).
# serial: it sets kernel.perf_event_paranoid for a while.
. "$(dirname "$0")/lib.sh"
if [ -n "${FG_BIN:-}" ]; then
	PATH=$FG_BIN:$PATH
	FGRECORD=$FG_BIN/fgrecord
else
	FGRECORD=$TOP/bin/fgrecord
fi
export FGRECORD

cc=${CC:-cc}
B=$TMP/build
mkdir -p "$B"
export B cc
root=
[ "$(id -u)" = 0 ] && root=1

# 7: -o, as root, into a file another user owns or that has two links.
if [ -z "$root" ]; then
	skip "root's -o into another user's file: refused" 'needs root'
else
	check "root's -o into another user's file: refused, the file untouched, exit 2" '
		chmod 777 . &&
		setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "echo theirs >planted; chmod 666 planted" &&
		expect_status 2 fgrecord -q -o planted true 2>err &&
		cat err &&
		grep_q "cannot write to .planted.: it belongs to user 65534" err &&
		test "$(wc -l <err)" = 1 &&
		test "$(cat planted)" = theirs
	'
	check "root's -o into a file with a second link: refused, exit 2" '
		echo precious >victim &&
		ln victim alias &&
		expect_status 2 fgrecord -q -o alias true 2>err &&
		cat err &&
		grep_q "cannot write to .alias.: it has 2 links" err &&
		test "$(cat victim)" = precious &&
		fgrecord -q -o mine true && fgrecord -q -o mine true &&
		head -1 mine | grep -q "^# fgrecord 1"
	'
fi

done_testing
