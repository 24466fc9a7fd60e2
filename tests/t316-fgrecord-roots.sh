#!/bin/sh
# t316-fgrecord-roots: a program under another root is named as one under
# ours (fg-stream(5), "Files under another root").
#
# tests/record/hot.c spends nearly all its time in hot(). Recorded bare,
# then started through chroot(8) into a jail (a static build, and a
# dynamic one with its libraries copied into the jail), through
# unshare -m with its directory bind-mounted over one that holds another
# build (which fgrecord must not take for it), through an overlay mounted
# here and bound into the namespace (a container runtime's layout), and
# attached to with -p there: each recording, symbolized by fgsym after
# the program has exited, gives hot() its bare share within 10 points,
# and says the name the process used on an "# inside" line. The ptrace
# sampler reads /proc/PID/maps, which names the jail's file from
# fgrecord's root already: every frame named (its share of hot() varies
# more with the machine's load, 81-93% here). A file only
# inside the process's mounts (a tmpfs of its own) is named through
# /proc/PID/root while it lives (fgrecord | fgsym), and after it has
# exited from the copy fgrecord kept in perf's build-ID cache (0600, in
# 0700 directories; none through a link or into another user's
# directory, said), as the overlay's file is once it is unmounted (a
# container removed); with --no-buildid-cache fgsym says why it is gone. Another build put at the jail's path after the
# recording is refused by its build ID, said, never used.
# Binaries of next (24f8f1f): chroot, static 0% (the frames unnamed),
# unshare with a bind mount 0%; these: 93-98%, as bare.
# A jail's program run as nobody puts a link (absolute, through ..) to
# root's file where its own file was: never read, by fgrecord nor by
# fgsym; a jail's file claiming a program's build ID is kept apart from
# perf's cache and never names that program; perf's own cache layout is
# taken. Before 666cfce and 934aceb each named frames from root's file.
# slow: make check-all and CI run it, make check does not (tests/run --quick)
. "$(dirname "$0")/lib.sh"
plan 19

B=$TMP/build
mkdir -p "$B"
# fgrecord's copies and fgsym's look-ups by build ID: here, never ~/.debug
PERF_BUILDID_DIR=$TMP/buildid-cache
export PERF_BUILDID_DIR
cc=${CC:-cc}

# share FOLDED FUNC: FUNC's share of the samples as the leaf, in percent
share() {
	awk -v f="$2" '{ n += $NF; k = $0; sub(/ [0-9]+$/, "", k);
	    m = split(k, a, ";"); if (a[m] == f) h += $NF }
	    END { printf "%d\n", n ? 100 * h / n : -1 }' "$1"
}
# near A B: A and B within 10 points
near() {
	[ "$1" -ge 0 ] && [ "$2" -ge 0 ] && [ $(($1 - $2)) -le 10 ] &&
	[ $(($2 - $1)) -le 10 ] || { echo "share $1%, bare $2%"; return 1; }
}
# jail DIR: DIR/app/hot, and DIR/app/hotdyn with its libraries
jail() {
	mkdir -p "$1/app" && cp "$B/hot" "$1/app/hot" &&
	cp "$B/hotdyn" "$1/app/hotdyn" &&
	for l in $(ldd "$B/hotdyn" | awk '$(NF-1) ~ /^\// { print $(NF-1) }
	    $1 ~ /^\// { print $1 }' | sort -u); do
		mkdir -p "$1${l%/*}" && cp "$l" "$1$l" || return 1
	done
}

if ! perf_ok; then
	skip 'a program under another root is named' "$why"
	skip_rest
fi
if ! $cc -O1 -g -static -I"$TESTS/record" -o "$B/hot" "$TESTS/record/hot.c" \
    2>"$B/hot.err" ||
   ! $cc -O1 -g -I"$TESTS/record" -o "$B/hotdyn" "$TESTS/record/hot.c" \
    2>>"$B/hot.err"; then
	skip 'a program under another root is named' "cannot build tests/record/hot.c with $cc (static: libc6-dev): $(head -3 "$B/hot.err")"
	skip_rest
fi
fgrecord -o "$B/bare.txt" "$B/hot" 1 >"$B/bare.out" 2>"$B/bare.err" &&
symfold "$B/bare.txt" "$B/bare.fold" 2>&1 >"$B/bare.log"
BARE=$(share "$B/bare.fold" hot)
export B BARE

check "bare: hot() is the leaf of most samples ($BARE%)" '
	test "$BARE" -ge 60
'

if ! chroot / true 2>"$TMP/chroot.err"; then
	skip 'chroot JAIL /app/hot: named as bare' "chroot is refused here: $(cat "$TMP/chroot.err")"
	skip 'chroot JAIL /app/hotdyn: named as bare' "chroot is refused here"
	skip 'chroot, ptrace sampler: every frame in the jail named' "chroot is refused here"
	skip 'another build at the path is refused by its build ID' "chroot is refused here"
	skip 'a jail.s program swaps its file for an absolute link to a root-only file: never read' "chroot is refused here"
	skip 'a jail.s program swaps its file for a link through .. to a root-only file: never read' "chroot is refused here"
	skip 'fgsym: an # inside name that became a link out of its root: not followed' "chroot is refused here"
	skip 'a jail.s file claiming a program.s build ID: its copy kept apart, never named for the program' "chroot is refused here"
else
	check 'chroot JAIL /app/hot (static): named as bare, the inside name kept' '
		jail "$PWD/jail" &&
		expect_status 0 fgrecord -o rec.txt chroot jail /app/hot 1 \
		    >out 2>err &&
		printf "# inside : %s\t/app/hot\n" "$PWD/jail/app/hot" >want &&
		grep "^# inside : .*/app/hot" rec.txt >got && test_cmp want got &&
		! grep -q "(/app/hot)\$" rec.txt &&
		grep_q "^# buildid : [0-9a-f]* $PWD/jail/app/hot\$" rec.txt &&
		symfold rec.txt fold && near "$(share fold hot)" "$BARE"
	'
	check 'chroot JAIL /app/hotdyn (dynamic, its libc in the jail): named as bare' '
		jail "$PWD/jail" &&
		expect_status 0 fgrecord -o rec.txt chroot jail /app/hotdyn 1 \
		    >out 2>err &&
		grep_q "^# inside : $PWD/jail/app/hotdyn	/app/hotdyn\$" rec.txt &&
		grep_q "^# inside : $PWD/jail/.*/libc.so.6	/.*/libc.so.6\$" rec.txt &&
		symfold rec.txt fold && near "$(share fold hot)" "$BARE"
	'
	if fgrecord -q --sampler=ptrace -o "$TMP/probe" true 2>"$TMP/probe.err"; then
		check 'chroot, ptrace sampler: every frame in the jail named' '
			jail "$PWD/jail" &&
			expect_status 0 fgrecord --sampler=ptrace -o rec.txt \
			    chroot jail /app/hot 1 >out 2>err &&
			grep_q "^# buildid : [0-9a-f]* $PWD/jail/app/hot\$" rec.txt &&
			symfold rec.txt fold && ! grep "\[hot\]" fold &&
			test "$(share fold hot)" -ge 50
		'
	else
		skip 'chroot, ptrace sampler: every frame in the jail named' "the ptrace sampler cannot run here: $(head -1 "$TMP/probe.err")"
	fi
	# swapjail TARGET [LINK]: a jail whose program, run as nobody,
	# puts a link to TARGET where its file /app/swap was (or where LINK
	# was: then the file stays), then runs; root's secret/host is the
	# program built again, its function host_secret. Neither has a build
	# ID. fgrecord launches it; the stream is rec.txt.
	swapjail() {
		mkdir -p jail/app secret && chmod 700 secret &&
		$cc -O1 -static -Wl,--build-id=none -I"$TESTS/record" \
		    -o jail/app/swap "$TESTS/record/jailswap.c" &&
		$cc -O1 -static -Wl,--build-id=none -Djail_hot=host_secret \
		    -I"$TESTS/record" -o secret/host "$TESTS/record/jailswap.c" &&
		chmod 600 secret/host && : >jail/app/other &&
		chown 65534 jail/app jail/app/other &&
		chmod 755 jail jail/app jail/app/swap &&
		expect_status 0 fgrecord -o rec.txt chroot --userspec=nobody \
		    jail /app/swap "${2:-/app/swap}" "$1" /app/ready 0.3 \
		    >out 2>err
	}
	# unnamed STREAM: fgsym names no frame from root's file.
	unnamed() {
		expect_status 0 fgsym "$1" >sym 2>symerr &&
		{ ! grep -q host_secret sym ||
		  { echo "jail frames named from root.s file:"; grep -m3 host_secret sym; false; }; }
	}
	check 'a jail.s program swaps its file for an absolute link to a root-only file: never read' '
		swapjail "$PWD/secret/host" && test -L jail/app/swap &&
		unnamed rec.txt
	'
	check 'a jail.s program swaps its file for a link through .. to a root-only file: never read' '
		swapjail "../../../../../../../../../../../..$PWD/secret/host" &&
		test -L jail/app/swap && unnamed rec.txt
	'
	check 'a jail.s file claiming a program.s build ID: its copy kept apart, never named for the program' '
		mkdir -p jail/app hostbin && PERF_BUILDID_DIR=$PWD/cache &&
		$cc -O1 -static -I"$TESTS/record" -o hostbin/prog "$TESTS/record/hot.c" &&
		id=$(readelf -n hostbin/prog | sed -n "s/.*Build ID: //p") &&
		$cc -O1 -static -Dhot=jail_planted -Wl,--build-id=0x$id \
		    -I"$TESTS/record" -o jail/app/hot "$TESTS/record/hot.c" &&
		chmod 755 jail jail/app jail/app/hot &&
		expect_status 0 fgrecord --no-buildid-cache -o host.txt \
		    hostbin/prog 0.3 >out 2>err &&
		expect_status 0 fgrecord -o jail.txt chroot --userspec=nobody \
		    jail /app/hot 0.3 >out 2>err &&
		grep_q "^# buildid : $id $PWD/jail/app/hot\$" jail.txt &&
		test ! -e "cache/.build-id" &&
		$cc -O2 -static -I"$TESTS/record" -o hostbin/prog "$TESTS/record/tall.c" &&
		expect_status 0 fgsym host.txt >sym 2>symerr &&
		{ ! grep -q jail_planted sym ||
		  { echo "the program named from the jail.s file:"; grep -m3 jail_planted sym; false; }; } &&
		rm jail/app/hot && symfold jail.txt fold &&
		grep_q "is gone: its frames are named from the copy fgrecord kept of its program.s root" jail.txt.sym.err &&
		test "$(share fold jail_planted)" -ge 50
	'
	check 'fgsym: an # inside name that became a link out of its root: not followed' '
		swapjail /nowhere /app/other && test ! -L jail/app/swap &&
		grep_q "^# inside : $PWD/jail/app/swap	/app/swap\$" rec.txt &&
		rm jail/app/swap && ln -s "$PWD/secret/host" jail/app/swap &&
		unnamed rec.txt &&
		grep_q "^fgsym: .$PWD/jail/app/swap.: no such file" symerr
	'
	check 'another build at the path is refused by its build ID, said' '
		jail "$PWD/jail" && PERF_BUILDID_DIR=$PWD/cache &&
		expect_status 0 fgrecord --no-buildid-cache -o rec.txt \
		    chroot jail /app/hot 1 >out 2>err &&
		$cc -O2 -static -I"$TESTS/record" -o jail/app/hot \
		    "$TESTS/record/hot.c" &&
		expect_status 0 fgsym rec.txt >sym 2>symerr &&
		grep_q "^fgsym: .$PWD/jail/app/hot. was rebuilt after the recording" symerr &&
		expect_status 0 fgfold sym >fold 2>folderr &&
		{ test "$(share fold hot)" = 0 ||
		  { echo "hot() named on $(share fold hot)%:"; cat symerr; false; }; }
	'
fi

if ! unshare -m true 2>"$TMP/unshare.err"; then
	skip 'unshare -m, a bind mount: named as bare' "unshare -m is refused here: $(cat "$TMP/unshare.err")"
	skip 'unshare -m, an overlay mounted here (as a container runtime does): named as bare' "unshare -m is refused here"
	skip 'unshare -m, a bind mount, attached with -p: named as bare' "unshare -m is refused here"
	skip 'unshare -m, its own tmpfs: named through its root while it lives' "unshare -m is refused here"
	skip 'unshare -m, its own tmpfs: after its exit, from the copy kept by build ID' "unshare -m is refused here"
	skip 'unshare -m, its own tmpfs, --no-buildid-cache: after its exit, said' "unshare -m is refused here"
	skip 'a cache directory that is a link, or not ours: no copy, said' "unshare -m is refused here"
	skip 'perf.s own layout (.build-id/XX/REST a link into the cache): the copy there, nothing said' "unshare -m is refused here"
else
	check 'unshare -m, a bind mount over another build: named as bare, the inside name kept' '
		mkdir src app && cp "$B/hot" src/hot && cp "$B/hotdyn" app/hot &&
		expect_status 0 fgrecord -o rec.txt unshare -m sh -c \
		    "mount --bind $PWD/src $PWD/app && exec $PWD/app/hot 1" \
		    >out 2>err &&
		grep_q "^# inside : $PWD/src/hot	$PWD/app/hot\$" rec.txt &&
		! grep -q "($PWD/app/hot)\$" rec.txt &&
		symfold rec.txt fold && near "$(share fold hot)" "$BARE"
	'
	# can an overlay be mounted here at all (a kernel without it, a
	# container that refuses it)? If not, a skip that says why.
	O=$TMP/overlay-probe
	mkdir -p "$O/lower" "$O/upper" "$O/work" "$O/merged"
	if mount -t overlay overlay -o "lowerdir=$O/lower,upperdir=$O/upper,workdir=$O/work" \
	    "$O/merged" 2>"$O/err"; then
		umount "$O/merged"
		overlay_why=
	else
		overlay_why="no overlay mount here: $(head -1 "$O/err")"
	fi
	if [ -n "$overlay_why" ]; then
		skip 'unshare -m, an overlay mounted here (as a container runtime does): named as bare' "$overlay_why"
	else
	check 'unshare -m, an overlay mounted here (as a container runtime does): named as bare' '
		mkdir lower upper work merged app && cp "$B/hot" lower/hot &&
		mount -t overlay overlay -o "lowerdir=$PWD/lower,upperdir=$PWD/upper,workdir=$PWD/work" \
		    "$PWD/merged" &&
		PERF_BUILDID_DIR=$PWD/cache &&
		{ fgrecord -o rec.txt unshare -m sh -c \
		    "mount --bind $PWD/merged $PWD/app && exec $PWD/app/hot 1" \
		    >out 2>err; st=$?; } &&
		{ symfold rec.txt fold; sf=$?; } &&
		umount "$PWD/merged" && test $st = 0 && test $sf = 0 &&
		grep_q "^# inside : $PWD/merged/hot	$PWD/app/hot\$" rec.txt &&
		near "$(share fold hot)" "$BARE" &&
		symfold rec.txt fold2 &&
		grep_q "^fgsym: .$PWD/merged/hot. is gone: its frames are named from the copy fgrecord kept of its program.s root, .$PWD/cache/.build-id-foreign/" rec.txt.sym.err &&
		near "$(share fold2 hot)" "$BARE"
	'
	fi
	check 'unshare -m, a bind mount, attached with -p: named as bare' '
		mkdir src app && cp "$B/hot" src/hot &&
		{ unshare -m sh -c "mount --bind $PWD/src $PWD/app && exec $PWD/app/hot 3" \
		    >prog.out 2>prog.err & } &&
		pid=$! &&
		wait_for 20 running $pid hot &&
		expect_status 0 fgrecord -o rec.txt -p $pid >out 2>err &&
		grep_q "^# inside : $PWD/src/hot	$PWD/app/hot\$" rec.txt &&
		symfold rec.txt fold && near "$(share fold hot)" "$BARE"
	'
	check 'unshare -m, its own tmpfs: named through its root while it lives' '
		mkdir app &&
		pipeline sym "fgrecord unshare -m sh -c \"mount -t tmpfs t $PWD/app && cp $B/hot $PWD/app/hot && exec $PWD/app/hot 1\"" \
		    "fgsym" &&
		grep_q "^# inside : /proc/[0-9]*/root$PWD/app/hot	$PWD/app/hot\$" sym &&
		expect_status 0 fgfold sym >fold 2>folderr &&
		near "$(share fold hot)" "$BARE"
	'
	check 'unshare -m, its own tmpfs: after its exit, from the copy kept by build ID' '
		mkdir app && PERF_BUILDID_DIR=$PWD/cache &&
		expect_status 0 fgrecord -o rec.txt unshare -m sh -c \
		    "mount -t tmpfs t $PWD/app && cp $B/hot $PWD/app/hot && exec $PWD/app/hot 1" \
		    >out 2>err &&
		grep_q "^fgrecord: 1 file of the program.s own root or mounts kept in .$PWD/cache/.build-id-foreign., apart from perf.s build-ID cache" err &&
		id=$(sed -n "s|^# buildid : \([0-9a-f]*\) /proc/.*/app/hot\$|\1|p" rec.txt) &&
		cmp "$B/hot" "cache/.build-id-foreign/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-)/elf" &&
		test ! -e cache/.build-id &&
		test "$(find cache -perm /077 | wc -l)" = 0 &&
		symfold rec.txt fold && near "$(share fold hot)" "$BARE"
	'
	# Made to fail: with the dense copy of before, the 600 MiB file was
	# refused ("more than the 512 MiB copied") and the cmp found no copy.
	check 'a sparse file of 600 MiB: its copy kept, holes and all' '
		mkdir app && PERF_BUILDID_DIR=$PWD/cache &&
		expect_status 0 fgrecord -o rec.txt unshare -m sh -c \
		    "mount -t tmpfs t $PWD/app && cp $B/hot $PWD/app/hot && truncate -s 600M $PWD/app/hot && exec $PWD/app/hot 0.3" \
		    >out 2>err &&
		! grep "no copy" err &&
		id=$(sed -n "s|^# buildid : \([0-9a-f]*\) /proc/.*/app/hot\$|\1|p" rec.txt) &&
		copy="cache/.build-id-foreign/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-)/elf" &&
		test "$(stat -c %s "$copy")" = $((600 << 20)) &&
		test "$(du -k "$copy" | cut -f1)" -lt 4096 &&
		cmp -n "$(stat -c %s "$B/hot")" "$B/hot" "$copy" &&
		test "$(tail -c 1048576 "$copy" | tr -d "\\0" | wc -c)" = 0
	'
	# Made to fail: before the tables were kept, fgrecord opened the
	# mountinfo files 170 times for 300 mappings (and its CPU went from
	# 0.19 to 1.28 s at 10,000 mounts and 1,000 mappings, 118 samples lost).
	if command -v strace >/dev/null 2>&1 &&
	    $cc -O2 -g -o "$B/manymounts" "$TESTS/record/manymounts.c" 2>"$B/mm.err"; then
		check '2,000 mounts, 300 mappings: the mount tables read once each, names right' '
			mkdir mnt &&
			ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
			strace -f -qq --seccomp-bpf -o trace -e trace=openat,open fgrecord -o rec.txt \
			    unshare -m "$B/manymounts" 2000 300 0.3 >out 2>err &&
			grep_q "^2000 mounts, 300 mappings" out &&
			n=$(grep -c "/mountinfo\"" trace) &&
			{ [ "$n" -le 6 ] || { echo "mountinfo opened $n times"; false; }; } &&
			grep_q "^# buildid : [0-9a-f]* $B/manymounts\$" rec.txt
		'
	else
		if command -v strace >/dev/null 2>&1; then
			skip 'the mount tables read once' "cannot build tests/record/manymounts.c: $(head -1 "$B/mm.err" 2>/dev/null)"
		else
			skip 'the mount tables read once' 'strace not found (Debian: apt-get install strace; make check installs it)'
		fi
	fi
	check 'unshare -m, its own tmpfs, --no-buildid-cache: after its exit, said' '
		mkdir app && PERF_BUILDID_DIR=$PWD/cache &&
		expect_status 0 fgrecord --no-buildid-cache -o rec.txt \
		    unshare -m sh -c \
		    "mount -t tmpfs t $PWD/app && cp $B/hot $PWD/app/hot && exec $PWD/app/hot 0.3" \
		    >out 2>err &&
		test ! -e cache &&
		expect_status 0 fgsym rec.txt >sym 2>symerr &&
		grep_q "^fgsym: ./proc/[0-9]*/root$PWD/app/hot.: no such file: its process has exited" symerr
	'
	check 'perf.s own layout (.build-id/XX/REST a link into the cache): the copy there, nothing said' '
		mkdir app && PERF_BUILDID_DIR=$PWD/cache &&
		id=$(readelf -n "$B/hot" | sed -n "s/.*Build ID: //p") &&
		xx=$(echo $id | cut -c1-2) && rest=$(echo $id | cut -c3-) &&
		mkdir -p "cache/app/hot/$id" "cache/.build-id/$xx" &&
		cp "$B/hot" "cache/app/hot/$id/elf" &&
		ln -s "../../app/hot/$id" "cache/.build-id/$xx/$rest" &&
		chmod -R go-w cache &&
		expect_status 0 fgrecord -o rec.txt unshare -m sh -c \
		    "mount -t tmpfs t $PWD/app && cp $B/hot $PWD/app/hot && exec $PWD/app/hot 0.3" \
		    >out 2>err &&
		! grep "no copy" err &&
		test -L "cache/.build-id/$xx/$rest" &&
		symfold rec.txt fold && test "$(share fold hot)" -ge 50
	'
	check 'a cache directory that is a link, or not ours: no copy, said' '
		mkdir app elsewhere theirs && chown 65534 theirs &&
		ln -s "$PWD/elsewhere" link &&
		for d in link theirs; do
			PERF_BUILDID_DIR=$PWD/$d expect_status 0 fgrecord \
			    -o rec.$d unshare -m sh -c \
			    "mount -t tmpfs t $PWD/app && cp $B/hot $PWD/app/hot && exec $PWD/app/hot 0.3" \
			    >out.$d 2>err.$d || return 1
		done &&
		test -z "$(ls -A elsewhere)" && test -z "$(ls -A theirs)" &&
		grep_q "^fgrecord: no copy of .$PWD/app/hot. kept for fgsym (a file of the program.s own root or mounts): .$PWD/link.: a symbolic link\$" err.link &&
		grep_q "^fgrecord: no copy of .$PWD/app/hot. kept for fgsym (a file of the program.s own root or mounts): .$PWD/theirs. belongs to user 65534, not you\$" err.theirs
	'
fi
done_testing
