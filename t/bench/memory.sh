#!/bin/sh
# memory.sh: max RSS (kB, the median of three runs) of dxstat's ways of
# reading, on the trees t/bench/s1-dxstat.sh generates: since boot from
# a captured tree, two snapshot files, an interval holding two samples,
# and a snapshot (-s).  Not part of make bench; run after make.
set -e
top=$(cd "${0%/*}/../.." && pwd)
D=$top/cmd/dxstat/dxstat
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT INT TERM
. "${0%/*}/gen-diskstats.sh"
rss() {
	for r in 1 2 3; do
		/usr/bin/time -o "$W/m" -f %M "$@" >/dev/null 2>&1
		cat "$W/m"
	done | sort -n | sed -n 2p
}
printf '%-8s %10s %10s %10s %10s\n' lines since-boot two-files interval snapshot
for n in 1000 10000; do
	T=$W/$n
	gen "$n" "$T"
	printf '%-8s %10s %10s %10s %10s\n' "$n" \
	    "$(rss "$D" -R "$T" -p -o tsv)" \
	    "$(rss "$D" -f "$T/snap1" -f "$T/snap2" -p -o tsv)" \
	    "$(rss "$D" -R "$T" -p -o tsv 0.1 2)" \
	    "$(rss "$D" -R "$T" -s)"
done
