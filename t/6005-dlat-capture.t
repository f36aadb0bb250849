#!/bin/sh
# dlat -R CAPTURE (issue 31): the histograms a capture's window traced
# (capture/dlat.0 at its start, dlat.1 at its end) reported as dlat
# would have live with "interval = the window, count 1": rows, -b, -P,
# -p, device operands, every format, dated at the capture's time1, the
# window's missed events.  The members are written by hand in their
# documented format (lib/winload.c), so every figure is known; then the
# refusals: not traced, one sample, -g, -t, an interval, -f, a tree.
. "${0%/*}/lib.sh"

mkdir "$TRASH/tmp"
TMPDIR=$TRASH/tmp
export TMPDIR

C=$TRASH/cap
SDA=8388608	# 8:0 as the tracepoints log it (major << 20 | minor)
SDB=8388624	# 8:16
mkdir -p "$C/capture"
for i in 0 1; do
	mkdir -p "$C/$i/proc"
	echo "100$((i * 2)).000000000 0.00" >"$C/$i/proc/uptime"
done
printf 'format 1\nboot_id 0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0\nsamples 2\nuptime0 1000000000000\nuptime1 1002000000000\ntime0 1700000000000000000\ntime1 1700000002000000000\nwindow_ns 2000000000\ntick_ns 100000000\ntraced 1\n' \
    >"$C/capture/meta"
# Buckets (lib/lat.c): 97 is [18432, 20480) ns, 136 [524288, 589824),
# 144 [1048576, 1179648).  In the window: sda's reads gain 90 of
# 550 us and 10 of 1.1 ms (max 1.15 ms), sda's first 4 writes of 20 us,
# sdb's first 5 reads of 1.1 ms; sda's read q2c does not change.
cat >"$C/capture/dlat.0" <<EOT
dlat 1
disk sda $SDA
disk sdb $SDB
miss 0 1 0 0 0 0
issued 20
done 0
recursion 1
row $SDA 0 0 10 6000000 600000 136 1 10
row $SDA 0 1 10 7000000 700000 136 1 10
who $SDA 100 dbsrv 40960 10 6000000 600000 136 1 10
EOT
cat >"$C/capture/dlat.1" <<EOT
dlat 1
disk sda $SDA
disk sdb $SDB
miss 0 3 0 0 2 0
issued 130
done 0
recursion 1
row $SDA 0 0 110 66500000 1150000 136 9 100 0 0 0 0 0 0 0 10
row $SDA 0 1 10 7000000 700000 136 1 10
row $SDA 1 0 4 80000 20000 97 1 4
row $SDB 0 0 5 5500000 1100000 144 1 5
who $SDA 100 dbsrv 450560 110 66500000 1150000 136 9 100 0 0 0 0 0 0 0 10
who $SDA 200 dd 16384 4 80000 20000 97 1 4
who $SDB 300 my\\x20app 20480 5 5500000 1100000 144 1 5
EOT

# The rows: the window's requests, dated time1.  sda's reads: mean
# 60.5 ms / 100; p50 at rank 50 of bucket 136's 90, 524288 + 65536 x
# 49.5 / 90 ns; p90 at rank 90, + 65536 x 89.5 / 90; p99 and p999 in
# bucket 144, capped by the maximum.
dlat -R "$C" -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "dlat -R CAPTURE: exit 0"
is "$(cat "$TRASH/err")" "" "dlat -R CAPTURE: nothing on stderr"
cat >"$TRASH/want" <<EOT
time	device	op	phase	count	mean_us	p50_us	p90_us	p99_us	p999_us	max_us	missed
1700000002.000	sda	read	d2c	100	605.00	560.33	589.46	1150.00	1150.00	1150.00	4
1700000002.000	sda	write	d2c	4	20.00	19.20	20.00	20.00	20.00	20.00	4
1700000002.000	sdb	read	d2c	5	1100.00	1100.00	1100.00	1100.00	1100.00	1100.00	4
EOT
test_cmp "$TRASH/want" "$TRASH/out"

# Operands select among the disks traced; -p among the phases.
is "$(dlat -R "$C" -o tsv -H -O device,op,count sdb)" "$(printf 'sdb\tread\t5')" \
    "dlat -R CAPTURE sdb: that disk's rows only"
is "$(dlat -R "$C" -o tsv -H -O device,count 'sd[a]' | tr '\t\n' ', ')" \
    "sda,100 sda,4 " "dlat -R CAPTURE 'sd[a]': a glob"
is "$(dlat -R "$C" -o tsv -H -p q2c)" "" \
    "dlat -R CAPTURE -p q2c: no row (q2c gained nothing in the window)"
is "$(dlat -R "$C" -o tsv -H -p d2c -O phase | sort -u)" d2c \
    "dlat -R CAPTURE -p d2c: d2c rows only"
test_must_fail 1 dlat -R "$C" sda nosuch 2>"$TRASH/err"
is "$?" 0 "dlat -R CAPTURE nosuch: exit 1"
is "$(cat "$TRASH/err")" "dlat: nosuch: no such device" \
    "dlat -R CAPTURE nosuch: the usual message"

# -b: sda's read buckets 136 to 144 (the empty ones between too).
dlat -R "$C" -b -o tsv -H -O lo_us,hi_us,count sda >"$TRASH/out"
is "$(sed -n '1p;$p' "$TRASH/out" | tr '\t\n' ', ')" \
    "524.288,589.824,90 18.432,20.480,4 " "dlat -R CAPTURE -b: the window's buckets"
is "$(wc -l <"$TRASH/out")" 10 "dlat -R CAPTURE -b: 9 read buckets, 1 write"

# -P: per submitter, by disk then most bytes; comm unescaped.
cat >"$TRASH/want" <<EOT
1700000002.000	sda	100	dbsrv	100	409600	605.00	560.33	1150.00	1150.00	4
1700000002.000	sda	200	dd	4	16384	20.00	19.20	20.00	20.00	4
1700000002.000	sdb	300	my app	5	20480	1100.00	1100.00	1100.00	1100.00	4
EOT
dlat -R "$C" -P -o tsv -H >"$TRASH/out"
test_cmp "$TRASH/want" "$TRASH/out"
is "$(dlat -R "$C" -P -o tsv -H -O pid sdb)" 300 "dlat -R CAPTURE -P sdb: its submitter"

# json: the same figures.
if have_prog jq; then
	is "$(dlat -R "$C" -o json sda | jq -r 'select(.op == "read") |
	    [.time, .count, .p50_us, .max_us, .missed] | @tsv')" \
	    "$(printf '1700000002\t100\t560.33\t1150\t4')" "dlat -R CAPTURE -o json"
else
	skip "dlat -R CAPTURE -o json" "no jq"
fi
# prom: the counters since tracing began (dlat.1 whole), as live.
dlat -R "$C" -o prom >"$TRASH/prom"
is "$(grep -c '^dlat_latency_seconds_count' "$TRASH/prom")" 4 \
    "dlat -R CAPTURE -o prom: a histogram per row of dlat.1"
ok "dlat -R CAPTURE -o prom: sda's reads since tracing began" \
    grep -qx 'dlat_latency_seconds_count{device="sda",op="read",phase="d2c"} 110' "$TRASH/prom"
ok "dlat -R CAPTURE -o prom: missed events since tracing began" \
    grep -qx 'dlat_missed_events_total{reason="unmatched_d2c"} 3' "$TRASH/prom"
# table: the missed events of the run said at its end.
dlat -R "$C" -o table sda >/dev/null 2>"$TRASH/err"
is "$(cat "$TRASH/err")" \
    "dlat: missed events: 5 (recursion 0, unmatched_d2c 3, unmatched_q2c 0, map_full 0, lost_completion 2, ring_full 0)" \
    "dlat -R CAPTURE -o table: the missed events said"

# The archive form reads the same.
if have_prog tar; then
	(cd "$C" && tar --format=ustar -cf "$TRASH/cap.tar" capture 0 1)
	is "$(dlat -R "$TRASH/cap.tar" -o tsv -H)" "$(dlat -R "$C" -o tsv -H)" \
	    "dlat -R CAPTURE.tar: as the directory"
else
	skip "dlat -R CAPTURE.tar" "no tar"
fi

# Refusals, each with its reason.
refuse() {	# STATUS WANT DESC CMD...
	rf_st=$1 rf_want=$2 rf_d=$3
	shift 3
	test_must_fail "$rf_st" "$@" 2>"$TRASH/err"
	is "$?" 0 "$rf_d: exit $rf_st"
	ok "$rf_d: says why" grep -qF -- "$rf_want" "$TRASH/err"
}
refuse 2 "-g: $C: a capture records no histograms per cgroup" \
    "dlat -g -R CAPTURE" dlat -g -R "$C"
refuse 2 "-t: $C: a capture records no single requests" \
    "dlat -t -R CAPTURE" dlat -t 10ms -R "$C"
refuse 2 "a capture reports its own window: no interval" \
    "dlat -R CAPTURE 1 1" dlat -R "$C" 1 1
refuse 2 "two captures' tracing sessions are not one counter" \
    "dlat -f OLD -f NEW" dlat -f "$C" -f "$C"
refuse 1 "dlat traces the running kernel, not a tree" \
    "dlat -R TREE" dlat -R "$C/1"
N=$TRASH/untraced
mkdir -p "$N/capture"
cp -R "$C/0" "$C/1" "$N"
sed 's/^traced 1$/traced 0/' "$C/capture/meta" >"$N/capture/meta"
echo "traced_why needs CAP_BPF and CAP_PERFMON, or root" >>"$N/capture/meta"
refuse 1 "$N: the capture's window was not traced: needs CAP_BPF and CAP_PERFMON, or root" \
    "dlat -R untraced CAPTURE" dlat -R "$N"
cp "$C/capture/dlat.0" "$N/capture"
refuse 1 "capture/dlat.0 without capture/dlat.1" \
    "dlat -R CAPTURE with dlat.0 alone" dlat -R "$N"
sed 's/^row 8388608 0 0 110 .*/row 8388608 0 0 110 66500000/' \
    "$C/capture/dlat.1" >"$N/capture/dlat.1"
refuse 1 "capture/dlat.1: line 8: a histogram cut short" \
    "dlat -R CAPTURE with a row cut short" dlat -R "$N"
O=$TRASH/one
mkdir -p "$O/capture"
cp -R "$C/0" "$O"
printf 'format 1\nsamples 1\nuptime0 1000000000000\ntime0 1700000000000000000\nwindow_ns 0\n' \
    >"$O/capture/meta"
refuse 1 "$O: a capture of one sample has no window to trace" \
    "dlat -R one-sample CAPTURE" dlat -R "$O"
is "$(ls "$TRASH/tmp")" "" "no extraction left behind"
