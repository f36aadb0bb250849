#!/bin/sh
# Scenario 3: ddeleted against lsof +L1 and
# find /proc/[0-9]*/fd -lname '*(deleted)', with 100 and 500 processes
# holding 1,000 descriptors each (RLIMIT_NOFILE raised by spawn) to
# files on the disk under t/bench/out; ten of the descriptors, six
# inodes, are deleted files (t/bench/spawn.c).
#
# The floor (floor-ddeleted) is one readlinkat per descriptor, plus a
# stat of the few whose link ends in " (deleted)".  lsof takes seconds
# per run at this scale, so it runs BENCH_SLOW_RUNS times.
SCEN=ddeleted
. "${0%/*}/lib.sh"

if [ "$BENCH_QUICK" = 1 ]; then
	SCALES="100"
else
	SCALES="100 500"
fi
NFD=1000
W=$BENCH_OUT/s3
rm -rf "$W"
mkdir -p "$W"
at_exit "rm -rf '$W'"

have_tool ddeleted && DD=1 || DD=0
have_cmd lsof && LSOF=1 || LSOF=0

for n in $SCALES; do
	mgr=$("$BIN/spawn" fds "$n" "$NFD" "$W") ||
	    die "cannot start $n processes with $NFD descriptors"
	at_exit "reap $mgr"
	note "$n x $NFD descriptors: $(nprocs) processes in all"
	case_begin "$n x $NFD fds"
	cmd floor "floor-ddeleted" "$BIN/floor-ddeleted"
	[ $DD = 1 ] && cmd ours "ddeleted" "$TOOLDIR/ddeleted"
	[ $LSOF = 1 ] && cmd -slow peer "lsof +L1" lsof +L1
	cmd -slow peer "find /proc/[0-9]*/fd -lname" \
	    sh -c 'exec find /proc/[0-9]*/fd -lname "*(deleted)"'
	case_end
	reap "$mgr"
done
exit 0
