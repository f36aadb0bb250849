#!/bin/sh
# make check: alone (the lab's timings need a quiet machine)
# dpsi on the lab disk (t/lab.sh): 1 and then 4 direct random readers of
# the 4-slot 10 ms disk, pinned to one CPU in a cgroup of their own.  A
# reader waits on the disk all the time but its ~0.1 ms turn-round
# between requests, so the truth for the cgroup's io some is ~99%: dpsi
# -c CGROUP over an interval must show it above 90% whenever at least one
# reader runs (pinned, because PSI weights each CPU by its non-idle time:
# an unpinned reader on a shared machine is under-counted).  And dpsi's
# share is the cgroup's own io.pressure totals over the interval.  A
# stall ends when the reader is woken: on a machine too busy for the lab
# (lab_late) a lone reader's wait for a CPU is not an I/O stall, and the
# 90% check is skipped with the reason rather than failed.
. "${0%/*}/lib.sh"
. "$T/lab.sh"
lab_need
[ -x "$TOP/cmd/dpsi/dpsi" ] || skip_all "dpsi not built"
lab_start 4 10 10 || skip_all "lab: $LAB_ERR"

pressure() {
	lab_readers "$1" "$2" 4
	sleep 1.3
	lab_stats >"$LAB_DIR/$1.st1"
	b=$(lab_pressure)
	dpsi -c "$LAB_CGNAME" -r io -o tsv -H 2 1 >"$LAB_DIR/$1.dpsi" 2>"$LAB_DIR/$1.err"
	_st=$?
	a=$(lab_pressure)
	lab_stats >"$LAB_DIR/$1.st2"
	lab_wait
	lab_check_cmd "$1: fio and dpsi ran (load exit $?, dpsi $_st)" test "$?" -eq 0 -a "$_st" -eq 0
	lab_check_cmd "$1: no message" test ! -s "$LAB_DIR/$1.err"
	some=$(awk -F'\t' '$4 == "some" { print $9 }' "$LAB_DIR/$1.dpsi")
	full=$(awk -F'\t' '$4 == "full" { print $9 }' "$LAB_DIR/$1.dpsi")
	late=$(lab_late "$LAB_DIR/$1.st1" "$LAB_DIR/$1.st2" 10)
	echo "# $1: $2 readers: dpsi -c $LAB_CGNAME: io some $some%, full $full%; helper woke $late us late on average"
	lab_check -p "$1: $2 readers: the cgroup's io some above 90%" "$some" 90.01 100
	lab_check "$1: the row is the cgroup's" "$(awk -F'\t' '$4 == "some" { print ($2 == "/'"$LAB_CGNAME"'") }' "$LAB_DIR/$1.dpsi")" 1 1
	# its total lies between our own readings around the run
	lab_check "$1: dpsi's total from the cgroup's io.pressure" \
	    "$(awk -F'\t' '$4 == "some" { print $8 }' "$LAB_DIR/$1.dpsi")" "${b% *}" "${a% *}"
}

lab_try pressure p1 1
lab_try pressure p4 4
