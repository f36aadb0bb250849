#!/bin/sh
# make check: alone (the lab's timings need a quiet machine)
# dxstat against the truth on the lab disk (t/lab.sh): 4 slots, 10 ms a
# read, and 1, 4, 8 direct random 4 KiB psync readers (the lab's
# sequence).  Capacity is slots / service = 400 r/s; with k readers
#   r/s     = min(k, 4) / 10 ms
#   r_await = 10 ms x max(1, k / 4)
#   aqu-sz  = k (Little's law: r/s x r_await)
#   %util   = 100 (never idle while a reader waits)
# Asserted: r/s within 2% below the truth while k <= slots (the ~0.1-0.15
# ms kernel path per request and the reader's own turn-round, outside
# the device, stretch each reader's cycle), within 0.5% beyond (the
# slots are never idle then); never above truth + min(k, 4) / interval
# (a slot can finish one request more than interval / service); r_await
# from 10 ms up to 2% above while k <= slots (the path is inside the
# block layer's time), within 2% beyond (the path of queued requests
# overlaps the slots' work); aqu-sz within 2% of k; %util from 97 up to
# 100 plus two jiffies (HZ 100) over the interval.  iostat -x, reading
# the very same two samples when it reads them itself, prints every
# column as dxstat does.  Then %util cannot tell 1 reader from 4: both
# near 100, while only 4 use the capacity.
. "${0%/*}/lib.sh"
. "$T/lab.sh"
lab_need
need_cmd iostat unshare mount mkfifo timeout
lab_start 4 10 10 || skip_all "lab: $LAB_ERR"

TI=3	# seconds of each interval

# One request each way: 100 direct 4 KiB reads reach the helper as 100
# reads and diskstats counts 100, each of 10 ms at least.
lab_stats >"$TRASH/c1"
lab_snap "$TRASH/s1"
dd if="/dev/$LAB_DEV" of=/dev/null bs=4k count=100 skip=1000 iflag=direct 2>/dev/null
lab_snap "$TRASH/s2"
lab_stats >"$TRASH/c2"
is "$(awk 'NR == FNR { r = $1; next } { print $1 - r }' "$TRASH/c1" "$TRASH/c2")" 100 \
    "100 direct reads: the helper served 100"
dxstat -o prom -f "$TRASH/s1" -f "$TRASH/s2" "$LAB_DEV" >"$TRASH/p"
t=$(lab_interval "$TRASH/s1" "$TRASH/s2")
is "$(awk -v t="$t" '$1 ~ /^dxstat_reads_per_second/ { printf "%.0f", $2 * t }' "$TRASH/p")" 100 \
    "100 direct reads: dxstat counts 100"
ok "100 serial reads of 10 ms take at least 1 s ($t s)" awk -v t="$t" 'BEGIN { exit !(t >= 1) }'

# readers NAME K: K readers, the interval iostat takes, the checks.
readers() {
	lab_readers "$1" "$2" $((TI + 2))
	sleep 1.3		# fio's start and its 1 s ramp
	lab_stats >"$LAB_DIR/$1.st1"
	lab_iostat $TI "$1"
	_st=$?
	lab_stats >"$LAB_DIR/$1.st2"
	lab_wait
	lab_check_cmd "$1: fio and iostat ran (load exit $?, iostat $_st)" \
	    test "$?" -eq 0 -a "$_st" -eq 0
	f=$LAB_DIR/$1
	dxstat -o tsv -H -f "$f.1" -f "$f.2" "$LAB_DEV" >"$f.dx"
	t=$(lab_interval "$f.1" "$f.2")
	set -- "$1" "$2" $(cut -f3,7,23,24 "$f.dx")
	# the truth
	c=$(($2 < 4 ? $2 : 4))
	x=$(awk -v c=$c 'BEGIN { print c * 100 }')
	r=$(awk -v k="$2" 'BEGIN { print (k > 4 ? 10 * k / 4 : 10) }')
	psi=$(awk 'NR == FNR { s = $1; u = $3; next } { printf "%.2f", ($3 > u) ? ($1 - s) / 1e4 / ($3 - u) : 0 }' "$f.1.psi" "$f.2.psi")
	late=$(lab_late "$f.st1" "$f.st2" 10)
	printf '# %s: %d readers over %.3f s: r/s %s r_await %s aqu-sz %s %%util %s cgroup io some %s%%; truth %s %s %s 100; helper woke %s us late on average\n' \
	    "$1" "$2" "$t" "$3" "$4" "$5" "$6" "$psi" "$x" "$r" "$2" "$late"
	edge=$(awk -v c=$c -v t="$t" 'BEGIN { printf "%.2f", c / t }')
	if [ "$2" -le 4 ]; then
		lab_check -p "$1: r/s within 2% below $x" "$3" \
		    "$(awk -v x="$x" 'BEGIN { print x * 0.98 }')" \
		    "$(awk -v x="$x" -v e="$edge" 'BEGIN { print x + e }')"
		lab_check -p "$1: r_await 10 ms up to 2% above" "$4" 10 10.2
	else
		lab_check -p "$1: r/s within 0.5% of $x" "$3" \
		    "$(awk -v x="$x" 'BEGIN { print x * 0.995 }')" \
		    "$(awk -v x="$x" -v e="$edge" 'BEGIN { h = x * 1.005; if (x + e < h) h = x + e; print h }')"
		lab_check -p "$1: r_await within 2% of $r ms" "$4" \
		    "$(awk -v r="$r" 'BEGIN { print r * 0.98 }')" "$(awk -v r="$r" 'BEGIN { print r * 1.02 }')"
	fi
	lab_check -p "$1: aqu-sz within 2% of $2 (Little's law)" "$5" \
	    "$(awk -v k="$2" 'BEGIN { print k * 0.98 }')" "$(awk -v k="$2" 'BEGIN { print k * 1.02 }')"
	lab_check -p "$1: %util near 100" "$6" 97 "$(awk -v t="$t" 'BEGIN { print 100 + 100 * 0.02 / t }')"
	# iostat on the same interval: the samples it read, its clock
	lab_check_cmd "$1: iostat -x on the same interval prints what dxstat prints" \
	    lab_iostat_cmp "$1"
	echo "$3" >"$LAB_DIR/$1.rs"
	echo "$6" >"$LAB_DIR/$1.util"
	[ "$2" -eq 4 ] && util "$3" "$6"
}

# %util cannot tell them apart: 1 and 4 readers both near 100 while 1
# reader uses a quarter of the capacity and 4 all of it: r/s of 4 readers
# over r/s of 1 is 4 within the truth's bounds above (392 / 100.33 to
# 401.33 / 98).  Checked with the 4 readers' attempt, against the
# figures of the 1 reader's.
util() {
	r1=$(cat "$LAB_DIR/r1.rs") u1=$(cat "$LAB_DIR/r1.util")
	lab_check -p "%util of 1 reader near 100, as with 4 readers" "$u1" 97 101
	lab_check -p "%util of 4 readers near 100, as with 1 reader" "$2" 97 101
	lab_check -p "capacity used: 4 readers do 4 times what 1 reader does (r/s $1 over $r1)" \
	    "$(awk -v a="$r1" -v b="$1" 'BEGIN { printf "%.3f", (a > 0) ? b / a : 0 }')" 3.9 4.1
	lab_check "capacity used: 1 reader at most 25% of 400 r/s (plus the interval's edge)" "$r1" 0 100.34
}

lab_try readers r1 1
lab_try readers r4 4
lab_try readers r8 8
