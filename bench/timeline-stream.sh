#!/bin/sh
# timeline-stream.sh [SAMPLES [STACKS [THREADS]]]: writes on stdout a sample
# stream of SAMPLES samples (default 2,000,000) in STACKS unique stacks
# (default 10) over THREADS threads (default 1), one every 100 us: the
# input of fgsvg's memory measure (issue 31: 2,000,000 samples in 10
# stacks under 120 MB peak RSS), as in
#	bench/timeline-stream.sh >s.txt && /usr/bin/time -v bin/fgsvg s.txt >s.svg
exec awk -v n="${1:-2000000}" -v k="${2:-10}" -v th="${3:-1}" 'BEGIN {
	for (i = 0; i < n; i++) {
		t = i * 100
		printf "app 1/%d %d.%06d: 1 cpu-clock:\n", 1 + i % th, \
		    int(t / 1000000), (t % 1000000)
		printf "\t1 leaf_%d (/bin/app)\n\t2 work_%d (/bin/app)\n", \
		    i % k, i % k % 3
		printf "\t3 main (/bin/app)\n\n"
	}
}'
