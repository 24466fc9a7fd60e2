# counts.awk: the number of samples per event and per thread of a sample
# stream, as perf script writes it (`comm tid time: period event:`) or as
# fgsym does (`comm pid/tid [cpu] time: period event:`): one line
# "EVENT TID N" per pair, sorted by the caller. An event's modifiers
# (cpu-clock:ppp) are not part of its name. t420-perfdata.sh compares the
# two. Given after names.awk (head).
/^[#\t ]/ || /^$/ { next }
head() { n[H_EV " " H_TID]++ }
END { for (k in n) print k, n[k] }
