#!/bin/sh
# Scenario 7: a one-sample capture (dcapture 0) on a host of 2,000
# processes (idle ones added to the machine's own), against the floors
# of the scans it holds: floor-dwho (every process's stat and io),
# floor-ddeleted (every descriptor's link) and floor-dxstat
# (/proc/diskstats).  Issue 31: its CPU at most 1.3 times the sum of
# the three.  The capture goes to a file, as from cron.
SCEN=capture
. "${0%/*}/lib.sh"

have_tool dcapture || exit 0
N=2000
[ "$BENCH_QUICK" = 1 ] && N=1000
add=$((N - $(nprocs)))
[ $add -gt 0 ] || add=1
mgr=$("$BIN/spawn" sleep "$add") || die "cannot start $add processes"
at_exit "reap $mgr"
note "$add idle processes: $(nprocs) processes in all"

case_begin "$N procs, one sample"
cmd floor "floor-dwho" "$BIN/floor-dwho"
cmd floor "floor-ddeleted" "$BIN/floor-ddeleted"
cmd floor "floor-dxstat" "$BIN/floor-dxstat" /proc/diskstats /proc/uptime
cmd ours "dcapture 0" "$TOOLDIR/dcapture" 0
case_end
reap "$mgr"
exit 0
