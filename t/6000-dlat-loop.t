#!/bin/sh
# make check: alone (it counts the BPF programs the whole kernel holds)
# dlat against the truth on a loop device under fio (scheduler none):
# d2c count equals diskstats' completed reads in the window, within the
# missed events dlat reports; the mean just below r_await; the shape
# the same as a bpftrace one-liner's on the same run; nothing left in
# the kernel afterwards.
#
# r_await runs from the request's accounting start to its accounting end
# (rq->start_time_ns, set just after block_io_start, to block_io_done),
# d2c from issue to the driver's completion (block_rq_complete), which
# comes before the bios are ended and their waiters woken.  So r_await
# = (block_io_start -> issue) + d2c + (complete -> block_io_done): the
# two outer parts are a few microseconds whatever the request's length
# (on this loop device, direct I/O to a file on virtio: 1-2 us before
# the issue, 3-6 us after the completion, the wake-up of the reader
# across CPUs; measured with bpftrace on the four tracepoints), which
# is 2-4% of a 200 us read and 1% of a 500 us one.  Like is compared
# with like: d2c's mean equals the one-liner's issue -> complete, and
# d2c plus the outer parts (bpftrace, the same run) equals r_await,
# each within 2%; d2c alone must lie between 92% and 100% of r_await.
# No request is in flight at the window's edges: the snapshots are
# taken before fio starts and after it ends.
. "${0%/*}/lib.sh"
. "${0%/*}/dlat-lib.sh"
need_loop
need_bpf
need_cmd fio

mkloop_dio 128 >"$TRASH/dev" || skip_all "cannot make a loop device"
dev=$(cat "$TRASH/dev")
command -v udevadm >/dev/null 2>&1 && udevadm settle 2>/dev/null
echo none >/sys/block/$dev/queue/scheduler 2>/dev/null
majmin=$(cat /sys/block/$dev/dev)
kd=$(kdev "$majmin")
base=$(bpf_progs)

# Held open: closing the last writer makes udev probe the device.
exec 3<>"/dev/$dev"
dlat -o prom "$dev" >"$TRASH/prom" 2>"$TRASH/err" &
pid=$!
ok "dlat attached" dlat_attached $pid
bt=
if command -v bpftrace >/dev/null 2>&1; then
	tracefs_run bpftrace -e "
tracepoint:block:block_io_start /args->dev == $kd/ { @a[args->sector] = nsecs; }
tracepoint:block:block_rq_issue /args->dev == $kd/ { @s[args->sector] = nsecs;
	if (@a[args->sector]) { @pre = sum(nsecs - @a[args->sector]);
	    @npre = count(); delete(@a[args->sector]); } }
tracepoint:block:block_rq_complete /args->dev == $kd && @s[args->sector]/ {
	@h = hist(nsecs - @s[args->sector]); @d2c = sum(nsecs - @s[args->sector]);
	@nd2c = count(); @c[args->sector] = nsecs; delete(@s[args->sector]); }
tracepoint:block:block_io_done /args->dev == $kd && @c[args->sector]/ {
	@post = sum(nsecs - @c[args->sector]); @npost = count();
	delete(@c[args->sector]); }" \
	    >"$TRASH/bt" 2>"$TRASH/bt.err" &
	bt=$!
	i=0
	while ! grep -q Attaching "$TRASH/bt" 2>/dev/null && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
fi
dxstat -s >"$TRASH/s1"
fio --name=r --filename="/dev/$dev" --rw=randread --bs=4k --direct=1 \
    --ioengine=psync --numjobs=2 --runtime=4 --time_based >/dev/null 2>&1
dxstat -s >"$TRASH/s2"
kill -INT $pid
wait $pid
is "$?" 0 "dlat exits 0 on SIGINT"
if [ -n "$bt" ] && ! stop_tracer $bt; then
	# Hung on SIGINT and SIGTERM: what it wrote is no reference; the
	# checks on it skip (no sums, no histogram).
	echo "bpftrace ended on neither SIGINT nor SIGTERM: killed" >>"$TRASH/bt.err"
	: >"$TRASH/bt"
fi
exec 3>&-

# Reads and read ticks (ms) of the window, from diskstats.
awk -v d="$dev" '$3 == d { print $4, $7 }' "$TRASH/s1" >"$TRASH/a"
awk -v d="$dev" '$3 == d { print $4, $7 }' "$TRASH/s2" >"$TRASH/b"
read r1 t1 <"$TRASH/a"
read r2 t2 <"$TRASH/b"
reads=$((r2 - r1))
ticks=$((t2 - t1))
lab="device=\"$dev\",op=\"read\",phase=\"d2c\""
count=$(awk -v l="$lab" '$1 == "dlat_latency_seconds_count{" l "}" { print $2 }' "$TRASH/prom")
sum=$(awk -v l="$lab" '$1 == "dlat_latency_seconds_sum{" l "}" { print $2 }' "$TRASH/prom")
missed=$(awk '/^dlat_missed_events_total/ { n += $2 } END { print n + 0 }' "$TRASH/prom")
echo "# diskstats: $reads reads, $ticks ms; dlat: $count d2c, $sum s, $missed missed"
ok "thousands of reads traced" test "${count:-0}" -ge 2000
ok "d2c count = diskstats' reads within the $missed missed events" \
    awk -v c="$count" -v r="$reads" -v m="$missed" 'BEGIN { d = r - c; if (d < 0) d = -d; exit !(d <= m) }'
ok "d2c mean between 92% and 100% of r_await" \
    awk -v c="$count" -v s="$sum" -v r="$reads" -v t="$ticks" 'BEGIN {
	a = t / r / 1000; m = s / c; printf "# mean %.3f us, r_await %.3f us (%.1f%%)\n", m * 1e6, a * 1e6, 100 * m / a
	exit !(m > a * 0.92 && m <= a * 1.002) }'
# The one-liner's sums: "@pre: 123", ns.
bt_val() { awk -v k="@$1:" '$1 == k { print $2 }' "$TRASH/bt" 2>/dev/null; }
if [ -n "$bt" ] && [ -n "$(bt_val nd2c)" ] && [ -n "$(bt_val npost)" ]; then
	ok "d2c mean = the one-liner's issue -> complete within 2%" \
	    awk -v c="$count" -v s="$sum" -v bs="$(bt_val d2c)" -v bn="$(bt_val nd2c)" 'BEGIN {
		m = s / c * 1e9; b = bs / bn; printf "# d2c: dlat %.3f us, bpftrace %.3f us\n", m / 1e3, b / 1e3
		exit !(m > b * 0.98 && m < b * 1.02) }'
	ok "d2c mean + block_io_start -> issue + complete -> block_io_done = r_await within 2%" \
	    awk -v c="$count" -v s="$sum" -v r="$reads" -v t="$ticks" \
	    -v pre="$(bt_val pre)" -v npre="$(bt_val npre)" -v post="$(bt_val post)" -v npost="$(bt_val npost)" 'BEGIN {
		a = t / r * 1e3; m = s / c * 1e6; x = pre / npre / 1e3; y = post / npost / 1e3
		printf "# r_await %.3f us = %.3f before the issue + d2c %.3f + %.3f after the completion (%.3f, %.2f%%)\n", a, x, m, y, x + m + y, 100 * (x + m + y) / a
		exit !(x + m + y > a * 0.98 && x + m + y < a * 1.02) }'
else
	skip "d2c mean = the one-liner's issue -> complete" "no bpftrace sums ($(head -c 200 "$TRASH/bt.err" 2>/dev/null))"
	skip "d2c + the parts outside it = r_await" "no bpftrace sums"
fi
ok "prom: promtool check metrics" sh -c "promtool check metrics <'$TRASH/prom' 2>&1 || ! command -v promtool >/dev/null"
is "$(grep -c '^dlat_missed_events_total{reason=' "$TRASH/prom")" 6 "prom: six missed-event reasons (ring_full among them)"
ok "prom: buckets cumulative, +Inf = count" awk -v l="$lab" '
	index($1, "dlat_latency_seconds_bucket{" l ",") == 1 { if ($2 < last) exit 1; last = $2 }
	index($1, "dlat_latency_seconds_count{" l "}") == 1 { exit !(last == $2) }' "$TRASH/prom"
is "$(cat "$TRASH/err")" "" "prom: no message (missed events are metrics)"

# The shape: each power-of-two bucket's share, dlat against bpftrace.
if [ -n "$bt" ] && grep -q '^\[' "$TRASH/bt"; then
	awk -v l="$lab" 'index($1, "dlat_latency_seconds_bucket{" l ",le=\"") == 1 {
		le = $1; sub(/.*le="/, "", le); sub(/".*/, "", le)
		if (le == "+Inf") next
		printf "%d %d\n", log(le * 1e9) / log(2) + 0.5, $2 }' "$TRASH/prom" |
	    awk 'NR > 1 { print prev_e, $2 - prev } { prev = $2; prev_e = $1 }' >"$TRASH/dshape"
	# "[4K, 8K)  123 |@@@|": 2^12 ns
	awk 'function p2(s,  m) { m = 1; if (s ~ /K$/) m = 10; else if (s ~ /M$/) m = 20;
		else if (s ~ /G$/) m = 30; sub(/[KMG]$/, "", s); return m == 1 ? log(s) / log(2) : m + log(s) / log(2) }
	    /^\[/ { lo = $1; sub(/^\[/, "", lo); sub(/,$/, "", lo); printf "%d %d\n", p2(lo) + 0.5, $3 }' "$TRASH/bt" >"$TRASH/bshape"
	ok "d2c shape = bpftrace's: every power of two within 2 points" awk '
	    FNR == NR { d[$1] = $2; dn += $2; next } { b[$1] = $2; bn += $2 }
	    END { for (k in d) all[k] = 1; for (k in b) all[k] = 1
		for (k in all) { x = 100 * d[k] / dn - 100 * b[k] / bn
		    if (x > 2 || x < -2) { printf "# 2^%d ns: dlat %.2f%%, bpftrace %.2f%%\n", k, 100 * d[k] / dn, 100 * b[k] / bn; bad = 1 } }
		exit bad }' "$TRASH/dshape" "$TRASH/bshape"
else
	skip "d2c shape = bpftrace's" "no bpftrace output ($(head -c 200 "$TRASH/bt.err" 2>/dev/null))"
fi
# More disks than the programs compare inline (DS_BLKLAT_RQ_INLINE, 8):
# the devs map and a hash of histograms instead of the array.  The
# counts must be the same: ours and one other disk read, each against
# diskstats.
others=
i=0
while [ $i -lt 8 ] && o=$(mkloop_dio 1); do
	others="$others $o"
	i=$((i + 1))
done
if [ $i -lt 8 ]; then
	skip "9 disks: d2c counts = diskstats' reads" "cannot make 8 more loop devices"
else
	last=${others##* }
	# shellcheck disable=SC2086
	dlat -o tsv -p d2c "$dev" $others >"$TRASH/nine" 2>"$TRASH/nine.err" &
	pid=$!
	ok "9 disks: dlat attached" dlat_attached $pid 2
	dxstat -s >"$TRASH/s1"
	fio --name=r --filename="/dev/$dev" --rw=randread --bs=4k --direct=1 \
	    --ioengine=psync --runtime=1 --time_based >/dev/null 2>&1
	dd if="/dev/$last" of=/dev/null bs=4k count=100 iflag=direct 2>/dev/null
	dxstat -s >"$TRASH/s2"
	kill -INT $pid
	wait $pid
	is "$?" 0 "9 disks: dlat exits 0 on SIGINT"
	for d in "$dev" "$last"; do
		r=$(awk -v d="$d" 'FNR == 1 { f++ } $3 == d { v[f] = $4 } END { print v[2] - v[1] }' "$TRASH/s1" "$TRASH/s2")
		c=$(awk -F'\t' -v d="$d" '$2 == d && $3 == "read" && $4 == "d2c" { print $5 }' "$TRASH/nine")
		m=$(awk -F'\t' -v d="$d" '$2 == d && $3 == "read" && $4 == "d2c" { print $12 }' "$TRASH/nine")
		echo "# 9 disks, $d: diskstats $r reads, dlat $c d2c, $m missed"
		ok "9 disks, $d: d2c count = diskstats' reads within the missed events" \
		    awk -v c="${c:-0}" -v r="$r" -v m="${m:-0}" 'BEGIN { d = r - c; if (d < 0) d = -d; exit !(r > 0 && d <= m) }'
	done
fi

ok "nothing left loaded" progs_back "$base"
