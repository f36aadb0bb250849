#!/bin/sh
# memory.sh: max RSS (kB, the median of three runs) of dxstat's ways of
# reading, on the trees t/bench/s1-dxstat.sh generates: since boot from
# a captured tree, two snapshot files, an interval holding two samples,
# and a snapshot (-s).  Not part of make bench; run after make.
set -e
top=$(cd "${0%/*}/../.." && pwd)
D=$top/cmd/dxstat
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT INT TERM
gen() {
	mkdir -p "$2/proc" "$2/sys/block"
	awk -v n="$1" -v dir="$2" 'BEGIN {
		ds = dir "/proc/diskstats"; s1 = dir "/snap1"; s2 = dir "/snap2"
		printf "100000.00 190000.00\n" > (dir "/proc/uptime")
		printf "uptime 100000.00\n" > s1
		printf "uptime 100010.00\n" > s2
		for (i = 0; i < n; i++) {
			d = int(i / 10); p = i % 10; k = i + 1
			if (p == 0) {
				name = sprintf("nvme%dn1", d)
				print name > (dir "/disks")
			} else
				name = sprintf("nvme%dn1p%d", d, p)
			v[0] = 1000 * k + 17; v[1] = 100 * k + 3
			v[2] = v[0] * 16; v[3] = v[0] * 2
			v[4] = 500 * k + 11; v[5] = 50 * k
			v[6] = v[4] * 24; v[7] = v[4] * 3
			v[8] = k % 3; v[9] = 90000 + k
			v[10] = v[3] + v[7]; v[11] = 10 * k; v[12] = k
			v[13] = v[11] * 256; v[14] = v[11]
			v[15] = 20 * k; v[16] = v[15]
			line = sprintf("%4d %7d %s", 259, i, name)
			line2 = line
			for (j = 0; j < 17; j++) {
				line = line " " v[j]
				line2 = line2 " " (v[j] + (j == 8 ? 0 : \
				    (i % 13 + 1) * (j + 5)))
			}
			print line > ds
			print line > s1
			print line2 > s2
		}
	}'
	(cd "$2/sys/block" && xargs mkdir <"$2/disks")
}
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
