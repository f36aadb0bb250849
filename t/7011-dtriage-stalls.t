#!/bin/sh
# make check: alone (the lab's timings; sysctls and cgroups of the whole machine)
# dtriage on the lab's stalls that are not the disk's (t/lab.sh, the
# kernel's side of each measured by t/7010), a 3 s window in each:
#  1. a task waiting in io_uring on a pipe: exit 0, nothing at warn, an
#     io-uring-wait row naming it;
#  2. readers held at 50 reads/s by their cgroup: a cgroup-limit row with
#     the cgroup, the limit and the rate, the disk not saturated, the load
#     a reader and not the kworker that releases the held bios;
#  3. a buffered writer under a 16 MiB dirty limit: dirty-throttled names
#     the writer and the limit;
#  4. a cgroup at its 64 MiB memory limit reading a 96 MiB file: the
#     cgroup and its limit named, memory the cause in the verdict;
#  5. io_uring readers of the 4-slot disk at its request limit: saturated
#     (requests wait for a slot: in dlat's q2c, or io-wq workers seen
#     waiting for a tag where a retry hides the wait from q2c), exit 3;
#  6. reads of a failing range: an io-errors row for the disk, crit, with
#     the count the kernel logged.
. "${0%/*}/lib.sh"
. "$T/lab.sh"
lab_need
need_root

# tri NAME: dtriage's tsv report of a 3 s window in $LAB_DIR/NAME.tsv,
# its exit status in $LAB_DIR/NAME.st, the rows as comments.
tri() {
	dtriage -o tsv 3 >"$LAB_DIR/$1.tsv" 2>"$LAB_DIR/$1.err"
	echo $? >"$LAB_DIR/$1.st"
	cut -f1-5 "$LAB_DIR/$1.tsv" | cut -c1-300 | sed "s/^/# $1: /"
}
# rows NAME FINDING: the rows of FINDING.
rows() {
	awk -F'\t' -v f="$2" '$2 == f' "$LAB_DIR/$1.tsv"
}
# field NAME FINDING COL: column COL (3 subject, 4 value, 5 evidence) of
# the first row of FINDING.
field() {
	rows "$1" "$2" | head -1 | cut -f"$3"
}
worst() {
	awk -F'\t' 'NR > 1 && $1 == "crit" { c = 1 } NR > 1 && $1 == "warn" { w = 1 }
	    END { print c ? "crit" : w ? "warn" : "info" }' "$LAB_DIR/$1.tsv"
}
# in_jobs PID: PID is one of the load's fio jobs.
in_jobs() {
	case " $LAB_JOBS $LAB_LOAD " in *" $1 "*) return 0 ;; esac
	return 1
}

uring_idle() {
	lab_uring_idle 4 || { lab_check_cmd "uring: started ($LAB_ERR)" false; return; }
	pid=$LAB_LOAD
	sleep 0.5
	tri uring
	lab_kill
	lab_check "uring: exit 0" "$(cat "$LAB_DIR/uring.st")" 0 0
	lab_check_cmd "uring: nothing at warn or crit" test "$(worst uring)" = info
	lab_check_cmd "uring: an io-uring-wait row names the waiter" \
	    test "$(field uring io-uring-wait 3)" = "$pid uringwait"
	lab_check_cmd "uring: the row says how to opt out" \
	    sh -c "grep -q IORING_ENTER_NO_IOWAIT '$LAB_DIR/uring.tsv'"
	lab_check_cmd "uring: the verdict clears the disks" \
	    sh -c "grep '	verdict	' '$LAB_DIR/uring.tsv' | grep -q 'no disk holds anything up'"
}

throttle() {
	lab_throttle 4 50 7 || { lab_check_cmd "throttle: started ($LAB_ERR)" false; return; }
	sleep 1.5
	tri throttle
	# dwho -g: the limit beside the rate (the readers' row).
	dwho -g -o tsv 1 1 2>/dev/null >"$LAB_DIR/throttle.dwho"
	lab_kill
	mm=$(cat "/sys/block/$LAB_DEV/dev")
	lab_check_cmd "throttle: dwho -g shows the limit beside the rate" \
	    sh -c "awk -F'\t' '\$2 ~ /throttle\$/ { print \$NF }' '$LAB_DIR/throttle.dwho' | grep -qx '$mm riops=50'"
	cg=${LAB_LIMIT_CG#/sys/fs/cgroup/blkio}
	cg=${cg#/sys/fs/cgroup/unified}
	cg=${cg#/sys/fs/cgroup}
	ev=$(field throttle cgroup-limit 5)
	lab_check_cmd "throttle: a cgroup-limit row names the cgroup ($cg)" \
	    test "$(field throttle cgroup-limit 3)" = "$cg"
	lab_check_cmd "throttle: it names the limit of 50" sh -c "echo '$ev' | grep -q '=50 '"
	lab_check -p "throttle: the rate, 50 within 10%" "$(field throttle cgroup-limit 4)" 45 55
	lab_check_cmd "throttle: $LAB_DEV is not called saturated" \
	    test -z "$(rows throttle saturated)"
	lab_check_cmd "throttle: $LAB_DEV has headroom" sh -c "echo '$ev' | grep -q '$LAB_DEV has headroom'"
	l=$(awk -F'\t' -v d="$LAB_DEV" '$2 == "load" && index($5, "on " d ":") == 1 { print $3 }' "$LAB_DIR/throttle.tsv")
	lab_check_cmd "throttle: the load on $LAB_DEV is a reader ($l), not a kworker" \
	    in_jobs "${l%% *}"
	lab_check_cmd "throttle: the verdict names the cgroup's own limit" \
	    sh -c "grep '	verdict	' '$LAB_DIR/throttle.tsv' | grep -q 'held by their own I/O limit (on '"
}

dirty() {
	lab_dirty 16777216 7 || { lab_check_cmd "dirty: started ($LAB_ERR)" false; lab_stop; return; }
	sleep 1
	tri dirty
	lab_kill
	lab_stop
	s=$(field dirty dirty-throttled 3)
	lab_check_cmd "dirty: dirty-throttled names the writer ($s)" in_jobs "${s%% *}"
	lab_check_cmd "dirty: and the limit (vm.dirty_bytes 16777216)" \
	    sh -c "grep '	dirty-throttled	' '$LAB_DIR/dirty.tsv' | grep -q 'vm.dirty_bytes 16777216'"
	lab_check_cmd "dirty: the verdict says the dirty-page limit" \
	    sh -c "grep '	verdict	' '$LAB_DIR/dirty.tsv' | grep -q 'dirty-page limit'"
}

thrash() {
	lab_thrash 64 96 7 || { lab_check_cmd "thrash: started ($LAB_ERR)" false; lab_stop; return; }
	sleep 1
	cg=${LAB_MEMCG#/sys/fs/cgroup/memory}
	cg=${cg#/sys/fs/cgroup/unified}
	cg=${cg#/sys/fs/cgroup}
	tri thrash
	lab_kill
	lab_stop
	lab_check_cmd "thrash: memory-thrash names the cgroup ($cg)" \
	    test "$(field thrash memory-thrash 3)" = "$cg"
	lab_check_cmd "thrash: and its limit (64.0 MiB)" \
	    sh -c "grep '	memory-thrash	' '$LAB_DIR/thrash.tsv' | grep -q 'memory limit of 64.0 MiB'"
	lab_check_cmd "thrash: the verdict: memory the cause, the disk the symptom" \
	    sh -c "grep '	verdict	' '$LAB_DIR/thrash.tsv' | grep -q 'memory is the cause'"
}

uring_readers() {
	lab_uring_readers 2 4 7 || { lab_check_cmd "uring readers: started ($LAB_ERR)" false; lab_stop; return; }
	sleep 1.5
	tri ureaders
	lab_kill
	dev=$LAB_DEV
	lab_stop
	lab_check "uring readers: exit 3" "$(cat "$LAB_DIR/ureaders.st")" 3 3
	lab_check_cmd "uring readers: $dev saturated" test -n "$(rows ureaders saturated)"
	# The wait for a slot shows in dlat's q2c, or, where a retry hides
	# it from q2c, in the io-wq workers waiting for a tag.
	lab_check_cmd "uring readers: requests shown waiting for a slot" \
	    sh -c "grep '	saturated	' '$LAB_DIR/ureaders.tsv' | grep -q -e 'blk_mq_get_tag' -e 'for a slot, which iostat cannot show'"
	lab_check_cmd "uring readers: no io-uring-wait row" test -z "$(rows ureaders io-uring-wait)"
}

eio() {
	seq=$(lab_kmsg_seq)
	lab_eio 2048 64 20 7 || { lab_check_cmd "eio: started ($LAB_ERR)" false; lab_stop; return; }
	sleep 0.5
	tri eio
	lab_kill
	dev=$LAB_DEV
	lab_stop
	n=$(lab_kmsg_since "$seq" | grep -c "I/O error, dev $dev, sector")
	lab_check_cmd "eio: an io-errors row for $dev" test "$(field eio io-errors 3)" = "$dev"
	lab_check_cmd "eio: crit" sh -c "grep '	io-errors	' '$LAB_DIR/eio.tsv' | grep -q '^crit'"
	lab_check "eio: its count, at most the $n the kernel logged" "$(field eio io-errors 4)" 1 "$n"
	lab_check_cmd "eio: the verdict: $dev is failing" \
	    sh -c "grep '	verdict	' '$LAB_DIR/eio.tsv' | grep -q '$dev is failing'"
}

lab_try uring_idle
lab_try throttle
lab_try dirty
lab_try thrash
lab_try uring_readers
lab_try eio
