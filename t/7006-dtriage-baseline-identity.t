#!/bin/sh
# dtriage's quiet-time baseline follows what a disk is, not its kernel
# name: dm-3 was volume A for a week of quiet history (10 ms reads),
# and after a reboot dm-3 is volume B, now slow and queued.  Against
# A's history B would be called saturated; it has none of its own, so
# it gets a queue-long row.  With B's own history (files dxstat -s
# wrote, 5 ms reads) it is judged against that.  The rules for files
# and disks without an identity are shown too.
. "${0%/*}/lib.sh"

UA=LVM-AAAAaaaaAAAAaaaaAAAAaaaaAAAAaaaaAAAAaaaaAAAAaaaaAAAAaaaaAAAAaaaa
UB=LVM-BBBBbbbbBBBBbbbbBBBBbbbbBBBBbbbbBBBBbbbbBBBBbbbbBBBBbbbbBBBBbbbb

# mktree DIR UUID: 1000 s since boot; dm-3 (UUID, "" for none) did
# 399.7 reads/s at 19.97 ms with 7.98 queued, one process reading it.
mktree() {
	_t=$1
	mkdir -p "$_t/proc/pressure" "$_t/proc/sys/kernel" \
	    "$_t/proc/4242/task/4242" "$_t/sys/block/dm-3/queue" \
	    "$_t/sys/block/dm-3/dm"
	echo "1000.00 1500.00" >"$_t/proc/uptime"
	echo " 253       3 dm-3 399700 0 3197600 7982009 0 0 0 0 8 1000000 7980000 0 0 0 0 0 0" \
	    >"$_t/proc/diskstats"
	printf 'some avg10=95.00 avg60=50.00 avg300=20.00 total=950000000\nfull avg10=1.00 avg60=1.00 avg300=1.00 total=10000000\n' \
	    >"$_t/proc/pressure/io"
	printf 'some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n' \
	    >"$_t/proc/pressure/memory"
	printf 'cpu  1000 0 1000 160000 38000 0 0 0 0 0\nprocs_running 1\nprocs_blocked 8\n' \
	    >"$_t/proc/stat"
	echo 1 >"$_t/proc/sys/kernel/task_delayacct"
	_st="4242 (fio) D 1 4242 4242 0 -1 0 0 0 0 0 100 50 0 0 20 0 1 0 50000 1000000 100 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 49000 0 0 0 0 0 0 0 0 0 0"
	echo "$_st" >"$_t/proc/4242/stat"
	echo "$_st" >"$_t/proc/4242/task/4242/stat"
	printf 'fio\0--rw=randread\0' >"$_t/proc/4242/cmdline"
	printf 'rchar: 838860800\nwchar: 0\nsyscr: 204800\nsyscw: 0\nread_bytes: 838860800\nwrite_bytes: 0\ncancelled_write_bytes: 0\n' \
	    >"$_t/proc/4242/io"
	echo 256 >"$_t/sys/block/dm-3/queue/nr_requests"
	echo "none" >"$_t/sys/block/dm-3/queue/scheduler"
	echo 0 >"$_t/sys/block/dm-3/queue/rotational"
	echo 0 >"$_t/sys/block/dm-3/queue/nomerges"
	echo vg0-data >"$_t/sys/block/dm-3/dm/name"
	[ -z "$2" ] || echo "$2" >"$_t/sys/block/dm-3/dm/uuid"
}

# week DIR ID: a week of snapshots 5 minutes apart (2016 files) of a
# boot long gone, dm-3 at 100 reads/s of 10 ms with one queued, each
# file with the line "id dm-3 ID" (none when ID is empty).
week() {
	mkdir -p "$1"
	awk -v dir="$1" -v id="$2" 'BEGIN {
		for (i = 0; i < 2016; i++) {
			f = sprintf("%s/w%04d.snap", dir, i)
			up = 1000 + i * 300
			printf "uptime %d.00\ntime %d.000\n", up, 1763000000 + up > f
			if (id != "")
				printf "id dm-3 %s\n", id > f
			r = i * 30000
			printf " 253       3 dm-3 %d 0 %d %d 0 0 0 0 1 %d %d 0 0 0 0 0 0\n",
			    r, r * 8, r * 10, r * 10, r * 10 > f
			close(f)
		}
	}'
}

# verdict TREE: "FINDING VALUE" of dm-3's rows, and the saturated
# row's evidence; the exit status in $TRASH/rc.
rows() {
	dtriage -R "$1" -o tsv >"$TRASH/out" 2>"$TRASH/err"
	echo $? >"$TRASH/rc"
	awk -F'\t' '$3 == "dm-3" && $2 != "verdict" { print $2, $4 }' "$TRASH/out"
}

S=$TRASH/b
mktree "$S" "$UB"
week "$S/var/lib/diskstat" "dm-uuid=$UA"

# Control: were dm-3 still A, A's week is its baseline.
A=$TRASH/a
mktree "$A" "$UA"
cp -Rp "$S/var" "$A/"
is "$(rows "$A")" "saturated 0.01997" "control: dm-3 as A: saturated against A's week"
ok "control: by latency against A's 10 ms" \
    grep -q 'by latency: r_await 20.0 ms against 10.0 ms quiet-time (2015 quiet intervals)' "$TRASH/out"

# dm-3 is B now: A's week is not its history.
is "$(rows "$S")" "queue-long 7.98" "dm-3 as B: no baseline, a queue-long row"
is "$(cat "$TRASH/rc"):$(cat "$TRASH/err")" "3:" "exit 3, nothing on stderr"
ok "queue-long says there is no quiet-time baseline" \
    grep -q 'queue-long	dm-3	7.98	a queue of 8.0 .*no quiet-time baseline in /var/lib/diskstat' "$TRASH/out"
is "$(grep -c 'quiet-time (' "$TRASH/out")" 0 "nothing compared against A's 10 ms"

# B's own history, as dxstat -s writes it on B's boot: 5 ms reads.
mkdir -p "$TRASH/steps"
r=0 k=0
for i in 0 1 2 3 4 5; do
	st=$TRASH/steps/$i
	mkdir -p "$st/proc" "$st/sys/block/dm-3/dm"
	echo "$UB" >"$st/sys/block/dm-3/dm/uuid"
	echo "$((100 + i * 10)).00 0.00" >"$st/proc/uptime"
	printf ' 253       3 dm-3 %d 0 %d %d 0 0 0 0 1 %d %d 0 0 0 0 0 0\n' \
	    $r $((r * 8)) $k $k $k >"$st/proc/diskstats"
	dxstat -s -R "$st" >"$S/var/lib/diskstat/b$i.snap" || fail "dxstat -s step $i"
	touch -d "@$((1765000000 + i * 300))" "$S/var/lib/diskstat/b$i.snap"
	r=$((r + 1000)) k=$((k + 5000))
done
is "$(sed -n 2p "$S/var/lib/diskstat/b0.snap")" "id dm-3 dm-uuid=$UB" \
    "dxstat -s records dm-3's identity"
is "$(rows "$S")" "saturated 0.01997" "dm-3 as B with its own history: saturated"
ok "against B's 5 ms, not A's 10 ms" \
    grep -q 'by latency: r_await 20.0 ms against 5.0 ms quiet-time (5 quiet intervals)' "$TRASH/out"

# Unknown identities.  dm-3 without one now, two on record: neither.
U=$TRASH/u
mktree "$U" ""
rm "$U/sys/block/dm-3/dm/name"
cp -Rp "$S/var" "$U/"
is "$(rows "$U")" "queue-long 7.98" "dm-3 unknown now, A and B on record: no baseline"
# Only A on record: taken to be A.
rm "$U"/var/lib/diskstat/b*.snap
is "$(rows "$U")" "saturated 0.01997" "dm-3 unknown now, only A on record: A's"
# Files without id lines (older dxstat, the one-liner): any device's.
W=$TRASH/w
mktree "$W" "$UB"
week "$W/var/lib/diskstat" ""
is "$(rows "$W")" "saturated 0.01997" "no file records an identity: B takes the history"
# ... but not once a file gives the name another identity.
printf 'uptime 1.00\ntime 1700000000.000\nid dm-3 dm-uuid=%s\n 253 3 dm-3 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n' \
    "$UA" >"$W/var/lib/diskstat/first.snap"
is "$(rows "$W")" "queue-long 7.98" "one file records A: the unmarked files are A's, not B's"
