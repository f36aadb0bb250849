#!/bin/sh
# dwho on a hand-made proc tree (-R): figures since each process
# started, exact; filters, sort, top-N, -l, -g; hostile names; damaged
# files; delay accounting off; prom.
. "${0%/*}/lib.sh"
. "$FIX/dwho/mkproc.sh"
need_cmd jq

R=$TRASH/t
P=$R/proc
mkdir -p "$P/sys/kernel" "$R/etc"
echo "tester:x:$(id -u):0::/:/bin/sh" >"$R/etc/passwd"
echo "1000.00 1500.00" >"$P/uptime"
echo 1 >"$P/sys/kernel/task_delayacct"
# started at 500 s, 500 s ago
mkproc "$P" 100 dd 50000 250 5120000 1024000 0 10240000 1024000 1000 500
# started 100 s ago; field 42 of the leader is 0, a worker thread's 1000
name=$(printf 'tab\there\nnl) (x')
THREADS=2 mkproc "$P" 200 "$name" 90000 0 0 102400 0 0 0 0 0
mkdir -p "$P/200/task/201"
sed 's/ 0 0 0 0 0 0 0 0 0 0$/ 0 0 0 0 0 0 0 0 0 0/' "$P/200/stat" |
    awk 'BEGIN { RS = "\001" } { sub(/ 17 0 0 0 0 /, " 17 0 0 0 1000 "); printf "%s", $0 }' \
    >"$P/200/task/201/stat"
mkproc "$P" 300 idle 50000 0 0 0 0 0 0 0 0
mkproc "$P" 500 bad 50000 0 0 0 0 0 0 0 0
printf '500 (bad' >"$P/500/stat"
mkproc "$P" 600 noio 50000 100 0 0 0 0 0 0 0
echo garbage >"$P/600/io"
echo "0::/box/100" >"$P/600/cgroup"

ok "thread 201's field 42 is 1000" grep -q ' 17 0 0 0 1000 ' "$P/200/task/201/stat"

dwho -R "$R" -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "exit 0 with damaged files"
cut -f2- "$TRASH/out" >"$TRASH/got"
printf '%s\n' \
    'pid	user	command	kB_rd/s	kB_wr/s	kB_ccwr/s	kB_rchar/s	kB_wchar/s	syscr/s	syscw/s	hit%	%iodelay	carries	start' \
    '100	tester	dd	10.00	2.00	0.00	20.00	2.00	2.00	1.00	50.00	0.50	-	50000' \
    '200	tester	tab\there\nnl) (x	0.00	1.00	0.00	0.00	0.00	0.00	0.00	-	10.00	-	90000' \
    '600	tester	noio	-	-	-	-	-	-	-	-	0.20	-	50000' >"$TRASH/want"
ok "since start: exact rates, delay summed over threads; carries, start" test_cmp "$TRASH/want" "$TRASH/got"
is "$(cat "$TRASH/err")" "dwho: 2 malformed proc/PID/stat or io files (first: pid 500): shown as - or skipped" \
    "one line names the damaged files"
now=$(date +%s)
ok "time column is now" awk -F'\t' -v now="$now" 'NR > 1 && ($1 < now - 60 || $1 > now + 60) { exit 1 }' "$TRASH/out"
ok "TSV field counts with a tab and newline in a name" fields_ok "$TRASH/out"

dwho -R "$R" -o json 2>/dev/null >"$TRASH/json"
ok "JSON valid" json_ok "$TRASH/json"
is "$(jq -r 'select(.pid == 200) | .command' "$TRASH/json")" "$name" "JSON keeps the name's bytes"
is "$(jq -c 'select(.pid == 200) | [."%iodelay", ."hit%", ."kB_wr/s"]' "$TRASH/json")" '[10,null,1]' \
    "JSON numbers and null"

is "$(dwho -R "$R" -a -H -o tsv 2>/dev/null | cut -f2 | tr '\n' ' ')" "100 200 300 600 " "-a adds the idle process"
is "$(dwho -R "$R" -p 200,100,200 -H -o tsv 2>/dev/null | cut -f2 | tr '\n' ' ')" "100 200 " "-p list"
is "$(dwho -R "$R" -p 999 -o tsv 2>/dev/null | wc -l)" 1 "-p of no process: header only"
is "$(dwho -R "$R" -c '^d{2}$' -H -o tsv 2>/dev/null | cut -f2)" 100 "-c regex"
test_must_fail 2 dwho -R "$R" -c '(' 2>"$TRASH/err" >/dev/null
is "$?" 0 "-c bad regex exits 2"
ok "-c bad regex says why" grep -q '^dwho: -c (: ' "$TRASH/err"
is "$(dwho -R "$R" -s %iodelay -H -o tsv 2>/dev/null | cut -f2 | tr '\n' ' ')" "200 100 600 " "-s %iodelay descending"
is "$(dwho -R "$R" -s hit% -H -o tsv 2>/dev/null | cut -f2 | tr '\n' ' ')" "100 200 600 " "-s hit%: unknown last"
is "$(dwho -R "$R" -n 1 -H -o tsv 2>/dev/null | cut -f2)" 100 "-n 1: most block I/O"
test_must_fail 2 dwho -R "$R" -s nosuch >/dev/null 2>&1
is "$?" 0 "-s unknown column exits 2"
test_must_fail 2 dwho -R "$R" -n 0 >/dev/null 2>&1
is "$?" 0 "-n 0 exits 2"
test_must_fail 2 dwho -R "$R" -p 12x >/dev/null 2>&1
is "$?" 0 "-p bad pid exits 2"
test_must_fail 2 dwho -g -t >/dev/null 2>&1
is "$?" 0 "-g -t exits 2"
is "$(dwho -R "$R" -l -p 100 -H -o tsv 2>/dev/null | cut -f4)" "dd --flag" "-l: command line"
is "$(dwho -R "$R" -u tester -H -o tsv 2>/dev/null | wc -l)" 3 "-u name"
is "$(dwho -R "$R" -u "$(id -u)" -H -o tsv 2>/dev/null | wc -l)" 3 "-u number"
is "$(dwho -R "$R" -u nobody -H -o tsv 2>/dev/null | wc -l)" 0 "-u other user: nothing"

dwho -R "$R" -g -H -o tsv 2>/dev/null | cut -f2- >"$TRASH/got"
printf '%s\n' \
    '/box/100	2	10.00	2.00	0.00	20.00	2.00	2.00	1.00	50.00	0.70	-' \
    '/box/200	1	0.00	1.00	0.00	0.00	0.00	0.00	0.00	-	10.00	-' >"$TRASH/want"
ok "-g sums per cgroup (unknown bytes left out)" test_cmp "$TRASH/want" "$TRASH/got"

dwho -R "$R" -o prom >"$TRASH/prom" 2>/dev/null
ok "prom: well formed" awk '
	/^# HELP dwho_[a-z_]+ / { next }
	/^# TYPE dwho_[a-z_]+_total counter$/ { next }
	/^dwho_[a-z_]+_total\{pid="[0-9]+",user="[^"]*",command="([^"\\]|\\.)*",start="[0-9]+"\} [0-9.e+]+$/ { n++; next }
	{ print "# bad: " $0; bad = 1 }
	END { exit bad || n == 0 }' "$TRASH/prom"
ok "prom: read bytes counter" grep -qx 'dwho_read_bytes_total{pid="100",user="tester",command="dd",start="50000"} 5120000' "$TRASH/prom"
ok "prom: delay seconds summed, newline escaped" grep -qxF "$(printf 'dwho_blkio_delay_seconds_total{pid="200",user="tester",command="tab\there\\nnl) (x",start="90000"} 10')" "$TRASH/prom"
is "$(dwho -R "$R" -o prom -n 1 2>/dev/null | grep -c '^dwho_read_bytes_total')" 1 "prom -n 1 bounds the series"

echo 0 >"$P/sys/kernel/task_delayacct"
dwho -R "$R" -H -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$(cut -f13 "$TRASH/out" | sort -u)" "-" "delay accounting off: %iodelay is -"
is "$(grep -c . "$TRASH/err")" 2 "one note besides the malformed files"
ok "the note says how to enable it" grep -q "sysctl kernel.task_delayacct=1.*delayacct. boot option.*only tasks started after enabling it" "$TRASH/err"
ok "600 has no I/O without its delay: hidden" sh -c "! cut -f2 '$TRASH/out' | grep -qx 600"
echo 1 >"$P/sys/kernel/task_delayacct"

rm "$P/uptime"
test_must_fail 1 dwho -R "$R" >/dev/null 2>"$TRASH/err"
is "$?" 0 "no proc/uptime: exit 1"
ok "no proc/uptime: says which file" grep -q "^dwho: $R/proc/uptime: No such file or directory" "$TRASH/err"
