#!/bin/sh
# make check: alone (the lab's timings need a quiet machine)
# dwho on the lab disk (t/lab.sh): 4 direct random readers of the 4-slot
# 10 ms disk (fio jobs, one process each).  Each waits on the disk all
# the time but its ~0.1 ms turn-round, so the truth for each reader's
# %iodelay is ~99%: with delay accounting switched on (before the readers
# start, as the kernel asks) dwho must show every reader from 95 to 100
# plus rounding; with it off, "-" and the note.  kernel.task_delayacct
# is set back as it was; other tests may switch it too, so an interval
# during which it changed under us is measured again.  The delay ends
# when a reader is woken, not when it runs again: on a machine too busy
# for the lab (lab_late), a reader's wait for a CPU lowers its %iodelay,
# and the check is skipped, with the reason, rather than failed.
. "${0%/*}/lib.sh"
. "$T/lab.sh"
lab_need
need_cmd sysctl
[ -x "$TOP/cmd/dwho/dwho" ] || skip_all "dwho not built"
old=$(cat /proc/sys/kernel/task_delayacct 2>/dev/null) || skip_all "no kernel.task_delayacct"
lab_start 4 10 10 || skip_all "lab: $LAB_ERR"
at_exit "sysctl -q kernel.task_delayacct=$old"

# delay NAME ON: 4 readers started with task_delayacct=ON, dwho on them.
delay() {
	sysctl -q kernel.task_delayacct="$2"
	lab_readers "$1" 4 4
	sleep 1.3
	jobs=$(grep -vx "$LAB_LOAD" "$LAB_CG/cgroup.procs" | paste -sd, -)
	lab_stats >"$LAB_DIR/$1.st1"
	dwho -p "$jobs" -o tsv -H 2 1 >"$LAB_DIR/$1.dwho" 2>"$LAB_DIR/$1.err"
	_st=$?
	lab_stats >"$LAB_DIR/$1.st2"
	now=$(cat /proc/sys/kernel/task_delayacct)
	lab_wait
	lab_check_cmd "$1: fio and dwho ran (load exit $?, dwho $_st)" test "$?" -eq 0 -a "$_st" -eq 0
	lab_check_cmd "$1: task_delayacct stayed $2 (now $now)" test "$now" = "$2"
	late=$(lab_late "$LAB_DIR/$1.st1" "$LAB_DIR/$1.st2" 10)
	echo "# $1: task_delayacct $2: pid command %iodelay: $(cut -f2,4,13 "$LAB_DIR/$1.dwho" | tr '\t\n' ' '); helper woke $late us late on average"
	want=$(echo "$jobs" | tr ',' '\n' | sort | paste -sd' ' -)
	got=$(cut -f2 "$LAB_DIR/$1.dwho" | sort | paste -sd' ' -)
	lab_check_cmd "$1: a row for each of the 4 readers ($got; want $want)" \
	    test -n "$want" -a "$got" = "$want" -a "$(echo "$want" | wc -w)" -eq 4
	if [ "$2" = 1 ]; then
		lab_check_cmd "$1: no message" test ! -s "$LAB_DIR/$1.err"
		while read -r _p _d; do
			lab_check -p "$1: reader $_p %iodelay near 100" "$_d" 95 100.5
		done <<-END
		$(cut -f2,13 "$LAB_DIR/$1.dwho")
		END
	else
		lab_check_cmd "$1: every %iodelay is -" awk -F'\t' '$13 != "-" { bad = 1 } END { exit bad || NR != 4 }' "$LAB_DIR/$1.dwho"
		lab_check_cmd "$1: the note says delay accounting is off" grep -q 'delay accounting is off' "$LAB_DIR/$1.err"
	fi
}

lab_try delay on 1
lab_try delay off 0
