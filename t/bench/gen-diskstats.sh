# Sourced by s1-dxstat.sh and memory.sh: the generated diskstats trees.
# gen N DIR: DIR/proc/{diskstats,uptime}, DIR/sys/block/DISK/ and two
# snapshots DIR/snap1, DIR/snap2 (10 s later, every counter advanced).
# Devices come as nvmeDn1 with partitions nvmeDn1p1..p9: ten lines per
# disk, 17 counters each (the 5.5+ format).
gen() {
	mkdir -p "$2/proc" "$2/sys/block"
	awk -v n="$1" -v dir="$2" 'BEGIN {
		ds = dir "/proc/diskstats"
		s1 = dir "/snap1"
		s2 = dir "/snap2"
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
