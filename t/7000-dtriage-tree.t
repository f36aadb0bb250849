#!/bin/sh
# dtriage on captured trees (-R), judged since boot: a disk saturated by
# latency against the quiet-time baseline kept in the tree's snapshot
# directory, the same load without a baseline (a long queue, never
# called saturation), and a quiet machine; the four formats.
. "${0%/*}/lib.sh"
need_cmd jq

# mktree DIR SOME: a tree of 1000 s since boot; loop7 did 399.7 reads/s
# at 19.97 ms with 7.98 queued (8 readers on a 4-slot 10 ms disk), and
# io "some" avg10 was SOME percent.  One process, fio, read it all.
mktree() {
	_t=$1
	mkdir -p "$_t/proc/pressure" "$_t/proc/sys/kernel" \
	    "$_t/proc/4242/task/4242" "$_t/sys/block/loop7/queue" \
	    "$_t/sys/block/loop7/mq/0" "$_t/sys/block/vda/queue" \
	    "$_t/sys/block/vda/mq/0"
	echo "1000.00 1500.00" >"$_t/proc/uptime"
	cat >"$_t/proc/diskstats" <<-DS
	   7       7 loop7 399700 0 3197600 7982009 0 0 0 0 8 1000000 7980000 0 0 0 0 0 0
	 253       0 vda 1000 0 8000 500 2000 0 16000 1000 0 1400 1500 0 0 0 0 100 10
	 253       1 vda1 1000 0 8000 500 2000 0 16000 1000 0 1400 1500 0 0 0 0 0 0
	DS
	printf 'some avg10=%s avg60=50.00 avg300=20.00 total=950000000\nfull avg10=1.00 avg60=1.00 avg300=1.00 total=10000000\n' \
	    "$2" >"$_t/proc/pressure/io"
	printf 'some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n' \
	    >"$_t/proc/pressure/memory"
	printf 'cpu  1000 0 1000 160000 38000 0 0 0 0 0\ncpu0 500 0 500 80000 19000 0 0 0 0 0\ncpu1 500 0 500 80000 19000 0 0 0 0 0\nprocs_running 1\nprocs_blocked 8\n' \
	    >"$_t/proc/stat"
	echo 1 >"$_t/proc/sys/kernel/task_delayacct"
	# fio started at 500 s (50000 ticks), read 800 MiB, waited 490 s.
	_st="4242 (fio) D 1 4242 4242 0 -1 0 0 0 0 0 100 50 0 0 20 0 1 0 50000 1000000 100 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 49000 0 0 0 0 0 0 0 0 0 0"
	echo "$_st" >"$_t/proc/4242/stat"
	echo "$_st" >"$_t/proc/4242/task/4242/stat"
	printf 'fio\0--rw=randread\0' >"$_t/proc/4242/cmdline"
	printf 'rchar: 838860800\nwchar: 0\nsyscr: 204800\nsyscw: 0\nread_bytes: 838860800\nwrite_bytes: 0\ncancelled_write_bytes: 0\n' \
	    >"$_t/proc/4242/io"
	for d in loop7 vda; do
		echo 256 >"$_t/sys/block/$d/queue/nr_requests"
		echo "[mq-deadline] none" >"$_t/sys/block/$d/queue/scheduler"
		echo 0 >"$_t/sys/block/$d/queue/rotational"
		echo 0 >"$_t/sys/block/$d/queue/nomerges"
	done
}

# snaps DIR: five snapshots 10 s apart while one reader ran: 100 reads/s
# at 10 ms, one queued; the quiet-time baseline.
snaps() {
	mkdir -p "$1"
	_r=0 _k=0
	for _i in 0 1 2 3 4; do
		printf 'uptime %d.00\ntime %d.000\n   7       7 loop7 %d 0 %d %d 0 0 0 0 1 %d %d 0 0 0 0 0 0\n' \
		    $((100 + _i * 10)) $((1764400100 + _i * 10)) $_r $((_r * 8)) \
		    $_k $_k $_k >"$1/Tue-03$_i.snap"
		_r=$((_r + 1000)) _k=$((_k + 10000))
	done
	echo "not a snapshot" >"$1/README"
}

S=$TRASH/sat
mktree "$S" 95.00
snaps "$S/var/lib/diskstat"

dtriage -R "$S" -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 3 "saturated by latency: exit 3"
is "$(cat "$TRASH/err")" "" "nothing on stderr"
ok "TSV field counts" fields_ok "$TRASH/out"
is "$(head -1 "$TRASH/out")" "$(printf 'severity\tfinding\tsubject\tvalue\tevidence\tnext')" \
    "the six columns"
is "$(awk -F'\t' 'NR == 2 { print $1, $2, $3 }' "$TRASH/out")" "crit verdict loop7" \
    "the verdict first, crit, blaming loop7"
is "$(awk -F'\t' '$2 == "saturated" { print $1, $3, $4 }' "$TRASH/out")" \
    "crit loop7 0.01997" "loop7 saturated, value r_await 0.01997 s"
ok "saturated: by latency against the quiet time" \
    grep -q 'by latency: r_await 20.0 ms against 10.0 ms quiet-time (4 quiet intervals), aqu-sz 8.0 against 1.0 quiet' "$TRASH/out"
is "$(awk -F'\t' '$2 == "load" { print $3, $4 }' "$TRASH/out")" "4242 fio 1677721.6" \
    "load: fio, 800 MiB over its 500 s"
is "$(awk -F'\t' '$2 == "sufferer" { print $3, $4 }' "$TRASH/out")" "4242 fio 0.98" \
    "sufferer: fio waited 98% of its life"
is "$(awk -F'\t' '$2 == "io-pressure" { print $1, $4 }' "$TRASH/out")" "warn 0.95" \
    "io-pressure from avg10 on a tree (full 1%: warn)"
is "$(awk -F'\t' '$2 == "procs-blocked" { print $1, $4 }' "$TRASH/out")" "warn 8" \
    "8 blocked on 2 CPUs: warn"
is "$(awk -F'\t' '$2 == "iowait" { print $1, $4 }' "$TRASH/out")" "info 0.19" \
    "iowait 19% since boot, info only"
is "$(awk -F'\t' '$3 == "vda" { print $2 }' "$TRASH/out")" "device-ok" \
    "vda: ok; vda1 (a partition) not judged"

# The same load, no baseline: a queue, never called saturation.
mkdir -p "$TRASH/empty-base"
dtriage -R "$S" -b /no/such/dir -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 3 "no baseline: exit 3 (the queue holds tasks up)"
ok "a -b that cannot be read is said" grep -q '^dtriage: /no/such/dir: No such file or directory' "$TRASH/err"
is "$(awk -F'\t' '$2 == "saturated"' "$TRASH/out")" "" "no baseline: not saturated"
is "$(awk -F'\t' '$2 == "queue-long" { print $1, $3, $4 }' "$TRASH/out")" \
    "warn loop7 7.98" "no baseline: queue-long of 7.98"
ok "queue-long: the command that starts a baseline" \
    grep -q 'dxstat -s -w /no/such/dir/$(date +%a-%H%M).snap$' "$TRASH/out"

# A quiet machine: nothing at warn, exit 0.
Q=$TRASH/quiet
mktree "$Q" 0.10
sed -i 's/^ *7 *7 loop7 .*/   7       7 loop7 1000 0 8000 1000 0 0 0 0 0 1000 1000 0 0 0 0 0 0/' "$Q/proc/diskstats"
sed -i 's/^procs_blocked 8/procs_blocked 0/' "$Q/proc/stat"
sed -i 's/ 49000 / 0 /' "$Q/proc/4242/stat" "$Q/proc/4242/task/4242/stat"
printf 'rchar: 0\nwchar: 0\nsyscr: 0\nsyscw: 0\nread_bytes: 0\nwrite_bytes: 0\ncancelled_write_bytes: 0\n' >"$Q/proc/4242/io"
dtriage -R "$Q" -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "quiet: exit 0"
is "$(awk -F'\t' '$1 == "warn" || $1 == "crit"' "$TRASH/out")" "" "quiet: no warn"
is "$(awk -F'\t' 'NR == 2 { print $1, $2, $5 }' "$TRASH/out")" "info verdict the disk holds nothing up" \
    "quiet: the verdict (info: the iowait row)"

# The formats.
dtriage -R "$S" -o json >"$TRASH/json"
is "$?" 3 "json: exit 3"
ok "json: JSON lines" json_ok "$TRASH/json"
is "$(jq -r 'select(.finding == "saturated") | "\(.subject) \(.value)"' "$TRASH/json")" \
    "loop7 0.01997" "json: value a number"
is "$(jq -r 'select(.finding == "verdict") | .value' "$TRASH/json")" "0.95" \
    "json: verdict value"
dtriage -R "$S" -o prom >"$TRASH/prom"
ok "prom: the saturated gauge" grep -q '^dtriage_finding_value{severity="crit",finding="saturated",subject="loop7"} 0.01997$' "$TRASH/prom"
if command -v promtool >/dev/null 2>&1; then
	ok "prom: promtool check metrics" sh -c "promtool check metrics <'$TRASH/prom' >/dev/null 2>&1"
else
	skip "prom: promtool not installed"
fi
dtriage -R "$S" -o table >"$TRASH/table"
is "$(awk 'NR == 1 { print $1, $2, $3, $4, $5, $6 }' "$TRASH/table")" \
    "severity finding subject value evidence next" "table: the header"
dtriage -R "$S" -w "$TRASH/w.tsv"
is "$?" 3 "-w: exit 3"
ok "-w: the file has the rows" grep -q '^crit	saturated	loop7	' "$TRASH/w.tsv"

# The baseline from files dxstat -s itself wrote (captured trees give no
# time line: the files' modification times order them).
B=$TRASH/bydxstat
mktree "$B" 95.00
mkdir -p "$B/var/lib/diskstat" "$TRASH/steps"
r=0 k=0
for i in 0 1 2 3 4; do
	st=$TRASH/steps/$i
	mkdir -p "$st/proc"
	echo "$((100 + i * 10)).00 0.00" >"$st/proc/uptime"
	printf '   7       7 loop7 %d 0 %d %d 0 0 0 0 1 %d %d 0 0 0 0 0 0\n' \
	    $r $((r * 8)) $k $k $k >"$st/proc/diskstats"
	dxstat -s -R "$st" >"$B/var/lib/diskstat/s$i.snap" || fail "dxstat -s step $i"
	touch -d "@$((1764400000 + i * 300))" "$B/var/lib/diskstat/s$i.snap"
	r=$((r + 1000)) k=$((k + 10000))
done
dtriage -R "$B" -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 3 "baseline of dxstat -s files: exit 3"
ok "baseline of dxstat -s files: saturated by latency" \
    grep -q 'saturated	loop7	0.01997	by latency: r_await 20.0 ms against 10.0 ms quiet-time (4 quiet intervals)' "$TRASH/out"
