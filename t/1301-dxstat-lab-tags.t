#!/bin/sh
# make check: alone (the lab's timings need a quiet machine)
# The lab's "Try this": scheduler none and nr_requests 4 on the 4-slot
# 10 ms lab disk (t/lab.sh), so the driver tags are the slots, as with
# null_blk.  8 readers: dxstat and iostat show r_await ~10 ms and aqu-sz
# ~4, because a request waiting for a tag is not yet a request the disk
# statistics see, while each reader waits ~20 ms: fio's own latency says
# so, and so does its cgroup's PSI (io some near 100).
# Asserted: r_await from 10 ms up to 2% above and aqu-sz within 2% of 4
# (the device's truth: a full slot is 10 ms); fio's mean latency within 5%
# of 20 ms (8 readers / 4 slots x 10 ms; a freed tag goes idle while the
# next reader is woken to take it) and 2 times r_await within 5% (Little's
# law: 8 readers over the 4 the disk sees, whatever a busy machine adds);
# in_flight never above 4; io some of the readers' cgroup at least 90%
# (and at most 101: its share is over an interval read in centiseconds);
# iostat -x on the same samples prints what dxstat prints.
. "${0%/*}/lib.sh"
. "$T/lab.sh"
lab_need
need_cmd iostat unshare mount mkfifo timeout
lab_start 4 10 10 || skip_all "lab: $LAB_ERR"
lab_queue none 4 || skip_all "cannot set scheduler none and nr_requests 4 on $LAB_DEV"
is "$(cat "/sys/block/$LAB_DEV/queue/nr_requests")" 4 "nr_requests 4 (set with the driver-tag reset)"

TI=3

tags() {
	lab_readers "$1" 8 $((TI + 2))
	sleep 1.3
	lab_stats >"$LAB_DIR/$1.st1"
	lab_iostat $TI "$1"
	_st=$?
	lab_stats >"$LAB_DIR/$1.st2"
	lab_wait
	lab_check_cmd "fio and iostat ran (load exit $?, iostat $_st)" test "$?" -eq 0 -a "$_st" -eq 0
	n=$1 f=$LAB_DIR/$1
	t=$(lab_interval "$f.1" "$f.2")
	set -- $(dxstat -o tsv -H -f "$f.1" -f "$f.2" "$LAB_DEV" | cut -f3,7,23,24,25)
	lat=$(jq '.jobs[0].read.lat_ns.mean / 1e6 * 100 | round / 100' "$f.json")
	psi=$(awk 'NR == FNR { s = $1; u = $3; next } { printf "%.2f", ($3 > u) ? ($1 - s) / 1e4 / ($3 - u) : 0 }' "$f.1.psi" "$f.2.psi")
	late=$(lab_late "$f.st1" "$f.st2" 10)
	printf '# 8 readers, 4 tags, over %.3f s: r/s %s r_await %s aqu-sz %s %%util %s; fio lat %.2f ms; cgroup io some %s%%; truth 400 10 4 100, fio 20; helper woke %s us late on average\n' \
	    "$t" "$1" "$2" "$3" "$4" "$lat" "$psi" "$late"
	lab_check -p "r_await 10 ms up to 2% above" "$2" 10 10.2
	lab_check -p "aqu-sz within 2% of 4" "$3" 3.92 4.08
	lab_check -p "fio's mean latency within 5% of 20 ms" "$lat" 19 21
	lab_check -p "fio's latency over r_await: 8 readers / 4 seen = 2 within 5%" \
	    "$(awk -v l="$lat" -v r="$2" 'BEGIN { printf "%.3f", (r > 0) ? l / r : 0 }')" 1.9 2.1
	lab_check "in_flight at the second sample at most 4" "$5" 0 4
	lab_check "the readers' cgroup io some near 100" "$psi" 90 101
	lab_check_cmd "iostat -x on the same interval prints what dxstat prints" lab_iostat_cmp "$n"
}

lab_try tags tags
