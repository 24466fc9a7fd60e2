#!/bin/sh
# tests/browser/timeline-png.sh [FILE.png]: redraws the README's picture of
# the timeline (default docs/timeline.png) from a real recording: a --wall
# recording of tests/record/phases.c by this checkout's tools, drawn by
# fgsvg, opened in headless Chromium (tests/browser/timeline-png.js), its
# first phase of worker-a selected as a user would by dragging, and the
# page's picture taken. Needs bin/ built (make), cc, chromium and
# tests/browser/node_modules (npm install).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
png=${1:-$top/docs/timeline.png}
work=$(mktemp -d "${TMPDIR:-/tmp}/fgtlpng.XXXXXX")
trap 'rm -rf "$work"' EXIT
PATH=$top/bin:$PATH
${CC:-cc} -O1 -g -pthread -o "$work/phases" "$top/tests/record/phases.c"
fgrecord --wall "$work/phases" 1.0 >"$work/w.stream" 2>"$work/err" ||
	{ cat "$work/err" >&2; exit 1; }
fgsym "$work/w.stream" 2>/dev/null | fgsvg --width 1200 \
	--title "tests/record/phases.c, fgrecord --wall" >"$work/w.svg"
node "$top/tests/browser/timeline-png.js" "$work/w.svg" "$png"
