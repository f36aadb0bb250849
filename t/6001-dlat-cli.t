#!/bin/sh
# make check: alone (it counts the BPF programs the whole kernel holds)
# dlat's formats, its exits and what it leaves behind: rows of known
# reads (count, bucket sums, per process), json/tsv/table/prom, -w,
# >/dev/full, | head -1, SIGTERM, no privilege, bad operands.
. "${0%/*}/lib.sh"
. "${0%/*}/dlat-lib.sh"

# Usage errors need no privilege.
test_must_fail 2 dlat -x 2>"$TRASH/u"
ok "unknown option: usage" grep -q '^usage: dlat' "$TRASH/u"
test_must_fail 1 dlat -R "$TRASH" 1 1 2>"$TRASH/u"
ok "-R DIR: exit 1, dlat traces the running kernel" grep -q 'traces the running kernel' "$TRASH/u"
ok "-b and -P together: usage" test_must_fail 2 dlat -b -P 1 1 2>/dev/null
test_must_fail 2 dlat -p d2c,x 1 1 2>"$TRASH/u"
ok "-p with a name not a phase: usage, said" grep -q -- '-p d2c,x: phases are d2c, q2c, q2d' "$TRASH/u"
ok "-p empty: usage" test_must_fail 2 dlat -p '' 1 1 2>/dev/null
test_must_fail 2 dlat -P -p d2c,q2d 1 1 2>"$TRASH/u"
ok "-P with -p lacking q2c: usage, said" grep -q -- '-P times q2c' "$TRASH/u"
dlat --help >"$TRASH/h"
ok "--help: the synopsis on stdout" grep -q '^usage: dlat \[-bgHhP\]' "$TRASH/h"

need_loop
need_bpf
need_cmd dd

if command -v setpriv >/dev/null 2>&1; then
	test_must_fail 1 setpriv --reuid=65534 --regid=65534 --clear-groups \
	    --inh-caps=-all "$TOP/cmd/dlat/dlat" 1 1 2>"$TRASH/np"
	ok "without privilege: exit 1 naming CAP_BPF and CAP_PERFMON" \
	    grep -q 'needs CAP_BPF and CAP_PERFMON' "$TRASH/np"
else
	skip "without privilege" "no setpriv"
fi
test_must_fail 1 dlat nosuchdisk 1 1 2>"$TRASH/nd"
ok "an operand naming no device: exit 1, said" grep -q 'nosuchdisk: no such device' "$TRASH/nd"

mkloop_dio 64 >"$TRASH/dev" || skip_all "cannot make a loop device"
dev=$(cat "$TRASH/dev")
command -v udevadm >/dev/null 2>&1 && udevadm settle 2>/dev/null
echo none >/sys/block/$dev/queue/scheduler 2>/dev/null
base=$(bpf_progs)
exec 3<>"/dev/$dev"

# run_dlat OUT ARGS...: dlat ARGS in the background until SIGTERM,
# around N direct 4 KiB reads (and a 1 MiB direct write) of ours.
N=300
run_dlat() {
	_out=$1
	shift
	dlat "$@" >"$_out" 2>"$_out.err" &
	_p=$!
	dlat_attached $_p ${NEV:-4} || { echo "# dlat did not attach"; cat "$_out.err"; }
	dd if="/dev/$dev" of=/dev/null bs=4k count=$N iflag=direct 2>/dev/null
	dd if=/dev/zero bs=1M count=1 oflag=direct >&3 2>/dev/null
	kill -TERM $_p
	wait $_p
}

run_dlat "$TRASH/tsv" -o tsv "$dev"
is "$?" 0 "SIGTERM: one report, exit 0"
ok "tsv: fields" fields_ok "$TRASH/tsv"
is "$(head -1 "$TRASH/tsv")" "$(printf 'time\tdevice\top\tphase\tcount\tmean_us\tp50_us\tp90_us\tp99_us\tp999_us\tmax_us\tmissed')" "tsv: header"
# miss FILE [COL]: the missed column (12th; -P's 11th) of the first row.
miss() { awk -F'\t' -v c="${2:-12}" 'NR == 2 { print $c + 0 }' "$1"; }
is "$(cat "$TRASH/tsv.err")" "" "tsv: no message (missed events are in the rows)"
got=$(awk -F'\t' -v d="$dev" '$2 == d && $3 == "read" && $4 == "d2c" { print $5 }' "$TRASH/tsv")
ok "read d2c count: $N (within $(miss "$TRASH/tsv") missed)" awk -v g="$got" -v n=$N -v m="$(miss "$TRASH/tsv")" 'BEGIN { d = n - g; exit !(d >= 0 && d <= m + 0) }'
is "$(awk -F'\t' -v d="$dev" '$2 == d && $3 == "write" && $4 == "q2c" { print $5 }' "$TRASH/tsv")" 1 "one 1 MiB write: one q2c"
ok "percentiles ordered: p50 <= p90 <= p99 <= p999 <= max" awk -F'\t' 'NR > 1 && !($7 <= $8 && $8 <= $9 && $9 <= $10 && $10 <= $11) { exit 1 }' "$TRASH/tsv"

run_dlat "$TRASH/json" -o json "$dev"
ok "json: one object per line" json_ok "$TRASH/json"
lacks jq "json: counts are numbers" ||
    is "$(jq -r --arg d "$dev" 'select(.device == $d and .op == "read" and .phase == "q2d") | .count | type' "$TRASH/json")" number "json: counts are numbers"

run_dlat "$TRASH/b" -o tsv -b "$dev"
bsum=$(awk -F'\t' -v d="$dev" '$2 == d && $3 == "read" && $4 == "d2c" { n += $7 } END { print n }' "$TRASH/b")
ok "-b: the missed column" awk -F'\t' 'NR == 1 { exit !($8 == "missed" && $9 == "distribution") }' "$TRASH/b"
ok "-b: the buckets of read d2c sum to $N (within $(miss "$TRASH/b" 8) missed)" \
    awk -v g="$bsum" -v n=$N -v m="$(miss "$TRASH/b" 8)" 'BEGIN { d = n - g; exit !(d >= 0 && d <= m + 0) }'
ok "-b: each bucket's bounds ascending, one after the other" awk -F'\t' 'NR > 1 && $3 == "read" && $4 == "d2c" {
	if (!($5 < $6)) exit 1; if (last != "" && $5 < last) exit 1; last = $6 }' "$TRASH/b"
is "$(awk -F'\t' 'NR > 1 && $9 != "-" { n++ } END { print n + 0 }' "$TRASH/b")" 0 "-b tsv: no bars (table only)"

run_dlat "$TRASH/p" -o tsv -P "$dev"
pc=$(awk -F'\t' -v d="$dev" '$2 == d && $4 == "dd" { n += $5 } END { print n + 0 }' "$TRASH/p")
pb=$(awk -F'\t' -v d="$dev" '$2 == d && $4 == "dd" { n += $6 } END { print n + 0 }' "$TRASH/p")
ok "-P: dd's $N reads and 1 write, q2c (within $(miss "$TRASH/p" 11) missed)" \
    awk -v g="$pc" -v n=$((N + 1)) -v m="$(miss "$TRASH/p" 11)" 'BEGIN { d = n - g; exit !(d >= 0 && d <= m + 0) }'
ok "-P: dd's bytes: 4 KiB a read, 1 MiB the write" \
    test "$pb" -eq $(((pc - 1) * 4096 + 1048576)) -o "$pb" -eq $((pc * 4096))

# -P over intervals: each report holds its own interval's figures.
dlat -o tsv -H -P "$dev" 1.5 2 >"$TRASH/pi" 2>"$TRASH/pi.err" &
pi=$!
dlat_attached $pi
dd if="/dev/$dev" of=/dev/null bs=4k count=$N iflag=direct 2>/dev/null
wait $pi
ok "-P 1.5 2: dd's reads in the first report only" awk -F'\t' -v n=$N '
	$4 == "dd" { k++; c = $5; m = $11 } END { exit !(k == 1 && c <= n && c >= n - m) }' "$TRASH/pi"

run_dlat "$TRASH/prom" -o prom "$dev"
if command -v promtool >/dev/null 2>&1; then
	ok "prom: promtool check metrics" sh -c "promtool check metrics <'$TRASH/prom'"
else
	skip "prom: promtool" "no promtool"
fi
ok "prom: a histogram family" grep -q '^# TYPE dlat_latency_seconds histogram' "$TRASH/prom"

run_dlat "$TRASH/table" -o table -b "$dev"
ok "table -b: bars" grep -q '\*\*\*\*' "$TRASH/table"

# -w: the file holds the report, atomically.
run_dlat "$TRASH/wout" -o prom -w "$TRASH/w.prom" "$dev"
ok "-w: the report in the file, nothing on stdout" sh -c "grep -q dlat_latency_seconds_count '$TRASH/w.prom' && test ! -s '$TRASH/wout'"

# -p: only the phases asked, each counting every request, and only
# the programs they need: d2c 2 (issue, completion), q2d 2 (queue,
# issue), d2c,q2c all 4 (q2c: the queue and the bio completion too).
for pl in d2c:2:d2c q2d:2:q2d q2c,d2c:4:d2c,q2c; do
	ph=${pl%%:*}
	want=${pl##*:}
	ne=${pl#*:}
	ne=${ne%%:*}
	dlat -o tsv -p "$ph" "$dev" >"$TRASH/p-$ph" 2>&1 &
	pp=$!
	dlat_attached $pp "$ne"
	sleep 0.2
	is "$(ls -l /proc/$pp/fd 2>/dev/null | grep -c perf_event)" "$ne" "-p $ph: $ne tracepoint programs attached"
	dd if="/dev/$dev" of=/dev/null bs=4k count=$N iflag=direct 2>/dev/null
	kill -TERM $pp
	wait $pp
	is "$(awk -F'\t' 'NR > 1 { print $4 }' "$TRASH/p-$ph" | sort -u | paste -sd, -)" "$want" "-p $ph: rows of $want alone"
	for x in $(echo "$want" | tr , ' '); do
		got=$(awk -F'\t' -v d="$dev" -v x="$x" '$2 == d && $3 == "read" && $4 == x { print $5 }' "$TRASH/p-$ph")
		ok "-p $ph: read $x count $N (within $(miss "$TRASH/p-$ph") missed)" awk -v g="$got" -v n=$N -v m="$(miss "$TRASH/p-$ph")" 'BEGIN { d = n - g; exit !(d >= 0 && d <= m + 0) }'
	done
done

# Sampling: interval reports; | head -1; >/dev/full.
dlat -o tsv -H "$dev" 0.2 3 >"$TRASH/iv" 2>&1
is "$?" 0 "interval 0.2 count 3: exit 0"
# iostat's order too: the interval and count before the device.
for order in after before; do
	# A window of 3 s: the reads, made once dlat is attached, end well
	# inside it even on a busy machine.
	case $order in
	after) dlat -o tsv -H "$dev" 3 1 >"$TRASH/ord.$order" 2>&1 & ;;
	before) dlat -o tsv -H 3 1 "$dev" >"$TRASH/ord.$order" 2>&1 & ;;
	esac
	_p=$!
	dlat_attached $_p 4 || echo "# dlat did not attach"
	dd if="/dev/$dev" of=/dev/null bs=4k count=50 skip=1000 iflag=direct 2>/dev/null
	wait $_p
	echo "$?" >>"$TRASH/ord.$order"
done
sed 's/^/# /' "$TRASH/ord.before" "$TRASH/ord.after"
is "$(awk -F'\t' '$3 == "read" && $4 == "d2c" { print $2, $5 + $12 } NF == 1' "$TRASH/ord.before")" "$dev 50
0" "3 1 DEV: exit 0, the 50 reads of the window on DEV (counted or missed)"
is "$(cut -f2-4 "$TRASH/ord.before")" "$(cut -f2-4 "$TRASH/ord.after")" \
    "3 1 DEV and DEV 3 1: rows of the same disk, operations and phases"
is "$(awk -F'\t' '$3 == "read" && $4 == "d2c" { print $5 + $12 }' "$TRASH/ord.after")" 50 \
    "DEV 3 1: the 50 reads too"
timeout 10 sh -c "dlat -o tsv '$dev' 0.1 2>/dev/null | head -1" >"$TRASH/head"
is "$(cat "$TRASH/head")" "$(head -1 "$TRASH/tsv")" "| head -1: the header, then SIGPIPE ends it"
test_must_fail 1 dlat -o tsv "$dev" 0.1 2 >/dev/full 2>"$TRASH/full"
ok ">/dev/full: exit 1, write error" grep -q 'write error' "$TRASH/full"
exec 3>&-
ok "nothing left loaded after every exit" progs_back "$base"
