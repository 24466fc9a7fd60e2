#!/bin/sh
# Rebuilds the fgfold fixtures perf-cxx.txt and perf-cxx-srcline.txt from
# capture.cc. Needs perf and permission to use it. The expected folded files
# were checked against stackcollapse-perf.pl before they were committed.
set -eu
cd "$(dirname "$0")"
g++ -O2 -g -fno-omit-frame-pointer -o /tmp/fg-capture capture.cc
perf record -q -F 499 -g -o /tmp/fg-capture.data /tmp/fg-capture >/dev/null 2>&1
perf script -i /tmp/fg-capture.data 2>/dev/null |
	sed "s|/tmp/fg-capture|/usr/local/bin/capture|; s|^fg-capture|capture|" > perf-cxx.txt
perf script -F+srcline -i /tmp/fg-capture.data 2>/dev/null | head -400 |
	sed "s|/tmp/fg-capture|/usr/local/bin/capture|; s|^fg-capture|capture|" > perf-cxx-srcline.txt
