#!/bin/sh
# Scenario 1: dxstat against iostat -dx -p ALL on 1, 100, 1,000 and
# 10,000 generated diskstats lines, since-boot report and two-sample
# report.
#
# iostat reads /proc/diskstats, /proc/uptime and access(2)es
# /sys/block/NAME; in a private mount namespace (unshare -m) the
# generated files are bind-mounted over the first two and the
# generated sys/block over the third, so iostat and dxstat read the
# same bytes.  The namespace and its mounts vanish with this script.
#
# Two-sample: dxstat -f OLD -f NEW (two snapshots 10 s apart) against
# iostat -y 1 1, which reads the files twice, one second apart, and
# prints the interval report only.  The bind-mounted files do not
# change in between, so iostat's deltas are zero: the same parsing and
# printing work, but its wall time includes the one-second sleep.
SCEN=dxstat
. "${0%/*}/lib.sh"

NS=1
if [ -z "${BENCH_IN_NS:-}" ]; then
	if unshare -m --propagation private true 2>/dev/null; then
		BENCH_IN_NS=1 exec unshare -m --propagation private sh "$0" "$@"
	fi
	NS=0
	note "no private mount namespace here: iostat rows are missing"
fi

if [ "$BENCH_QUICK" = 1 ]; then
	SCALES="1 100 1000"
else
	SCALES="1 100 1000 10000"
fi
W=$BENCH_OUT/s1
rm -rf "$W"
mkdir -p "$W"
at_exit "rm -rf '$W'"

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

IOSTAT=0
[ $NS = 1 ] && have_cmd iostat && IOSTAT=1
DXSTAT=0
if have_tool dxstat; then
	DXSTAT=1
	# -p (partitions too) when dxstat has it, as iostat -p ALL.
	DXP=
	tool_has dxstat '-[a-zA-Z]*p' && DXP=-p
fi

for n in $SCALES; do
	T=$W/$n
	gen "$n" "$T"
	lines=$(wc -l <"$T/proc/diskstats")
	[ "$lines" = "$n" ] || die "generated $lines lines, wanted $n"

	if [ $IOSTAT = 1 ]; then
		mount --bind "$T/proc/diskstats" /proc/diskstats &&
		mount --bind "$T/proc/uptime" /proc/uptime &&
		mount --bind "$T/sys/block" /sys/block ||
		    die "bind mounts failed"
	fi

	case_begin "$n lines since-boot"
	cmd floor "floor-dxstat" "$BIN/floor-dxstat" "$T/proc/diskstats" \
	    "$T/proc/uptime"
	[ $DXSTAT = 1 ] && cmd ours "dxstat -R TREE $DXP" \
	    "$TOOLDIR/dxstat" -R "$T" $DXP
	[ $IOSTAT = 1 ] && cmd peer "iostat -dx -p ALL" iostat -dx -p ALL
	case_end

	# iostat sleeps a second per start: no repetitions for it.
	case_begin "$n lines two-sample"
	cmd floor "floor-dxstat -2" "$BIN/floor-dxstat" -2 "$T/snap1" \
	    "$T/snap2"
	[ $DXSTAT = 1 ] && cmd ours "dxstat -f OLD -f NEW $DXP" \
	    "$TOOLDIR/dxstat" $DXP -f "$T/snap1" -f "$T/snap2"
	[ $IOSTAT = 1 ] && cmd -slow peer "iostat -dx -p ALL -y 1 1" \
	    iostat -dx -p ALL -y 1 1
	case_end
	[ $IOSTAT = 1 ] && umount /sys/block /proc/uptime /proc/diskstats
	rm -rf "$T"
done
exit 0
