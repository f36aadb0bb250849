#!/bin/sh
# Scenario 2: dwho against pidstat -d and iotop-c -b -o -n 1, one scan
# each, with 100, 1,000 and 5,000 idle processes added to the machine's
# own and with one process of 2,000 threads, delay accounting off and
# on (kernel.task_delayacct, restored afterwards).
#
# The floor (floor-dwho) reads PID/stat and PID/io once per process,
# and with delay accounting on every thread's stat of a multi-threaded
# process: the least a correct %iodelay needs.
SCEN=dwho
. "${0%/*}/lib.sh"

if [ "$BENCH_QUICK" = 1 ]; then
	SCALES="100 1000"
else
	SCALES="100 1000 5000"
fi

DELAY=$(sysctl -n kernel.task_delayacct 2>/dev/null) ||
    die "no kernel.task_delayacct"
at_exit "sysctl -q -w kernel.task_delayacct=$DELAY"

have_tool dwho && DWHO=1 || DWHO=0
have_cmd pidstat && PIDSTAT=1 || PIDSTAT=0
IOTOP=
for c in iotop-c iotop; do
	# iotop-c installs as iotop-c (and iotop as a link, on Debian).
	if command -v $c >/dev/null 2>&1; then
		IOTOP=$c
		break
	fi
done
[ -n "$IOTOP" ] || note "iotop-c not installed: its rows are missing"

# scan CASE-PREFIX: every command in one case per delay-accounting state.
scan() {
	for d in 0 1; do
		sysctl -q -w kernel.task_delayacct=$d ||
		    die "cannot set kernel.task_delayacct"
		if [ $d = 1 ]; then
			case_begin "$1, delayacct on"
			cmd floor "floor-dwho -d" "$BIN/floor-dwho" -d
		else
			case_begin "$1, delayacct off"
			cmd floor "floor-dwho" "$BIN/floor-dwho"
		fi
		[ $DWHO = 1 ] && cmd ours "dwho" "$TOOLDIR/dwho"
		[ $PIDSTAT = 1 ] && cmd peer "pidstat -d" pidstat -d
		[ -n "$IOTOP" ] && cmd peer "$IOTOP -b -o -n 1" \
		    "$IOTOP" -b -o -n 1
		case_end
	done
	sysctl -q -w kernel.task_delayacct="$DELAY"
}

for n in $SCALES; do
	mgr=$("$BIN/spawn" sleep "$n") || die "cannot start $n processes"
	at_exit "reap $mgr"
	note "$n idle processes: $(nprocs) processes in all"
	scan "$n procs"
	# Where the time goes: the kernel's part of each file set.
	if [ "$n" = 5000 ] || { [ "$BENCH_QUICK" = 1 ] && [ "$n" = 1000 ]; }; then
		case_begin "$n procs, files only"
		cmd floor "procfiles stat io" "$BIN/procfiles" stat io
		cmd peer "procfiles stat status sched* io" \
		    "$BIN/procfiles" stat status schedstat io
		for f in comm io stat status schedstat; do
			cmd peer "procfiles $f" "$BIN/procfiles" $f
		done
		case_end
	fi
	reap "$mgr"
done

mgr=$("$BIN/spawn" threads 2000) || die "cannot start 2000 threads"
at_exit "reap $mgr"
note "2000 threads: $(nprocs) processes in all"
scan "2000 threads"
reap "$mgr"
exit 0
