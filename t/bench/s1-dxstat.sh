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

. "${0%/*}/gen-diskstats.sh"

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
