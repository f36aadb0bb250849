#!/bin/sh
# First contact (issue 16): what a person at a terminal meets, the same
# in every tool.  --help (synopsis, then one line per option), usage
# errors that say what was wrong, -O column selection in every format,
# -h human units in table mode only, table time as HH:MM:SS (dated for
# other days, --utc), widths kept across reports, a relative root that
# is not the live system, and the tools' own new behaviour.
. "${0%/*}/lib.sh"

TOOLS="dxstat dpsi dwho dqueue ddeleted dtriage"
T1=$FIX/dxstat/tree
PSI=$FIX/dpsi/sysstat/tests/root1

# ---- --help and usage --------------------------------------------------
for t in $TOOLS; do
	"$t" --help >"$TRASH/help" 2>&1
	is "$?" 0 "$t --help: exit 0"
	# usage() prints exactly the synopsis --help starts with.
	"$t" --no-such >/dev/null 2>"$TRASH/usage"
	n=$(grep -c '' "$TRASH/usage")
	is "$(sed 1d "$TRASH/usage")" "$(head -$((n - 1)) "$TRASH/help")" \
	    "$t: usage is the synopsis --help begins with"
	ok "$t --help: a line for -O" grep -q '^  -O cols ' "$TRASH/help"
	ok "$t --help: a line for -h (human units)" grep -q '^  -h  *human units' "$TRASH/help"
	ok "$t --help: a line for --utc" grep -q '^  --utc ' "$TRASH/help"
done

# Every usage error says what was wrong, and exits 2.
usage_is() {
	_uw=$1
	shift
	test_must_fail 2 "$@" >/dev/null 2>"$TRASH/err"
	is "$?:$(head -1 "$TRASH/err")" "0:$_uw" "$*: says what was wrong"
}
usage_is "dwho: interval '1x': not a number" dwho 1x
usage_is "dwho: extra operand '3': only interval and count" dwho 1 2 3
usage_is "dpsi: extra operand '3': only interval and count" dpsi 1 2 3
usage_is "dpsi: count '0': out of range (1 to 4294967295)" dpsi 1 0
usage_is "dxstat: interval '1e1': not a number" dxstat 1e1 1
usage_is "dxstat: interval '1x': not a number" dxstat sda 1x
usage_is "dxstat: count '2.5': not a whole number" dxstat 1 2.5
usage_is "dxstat: extra operand '3': only interval and count" dxstat 1 2 3
usage_is "dxstat: extra operand '3': only interval and count" dxstat 1 2 3 sda
usage_is "dxstat: extra operand '3': only interval and count" dxstat sda 1 2 3
# Numbers before the devices or after them, as sysstat's tool takes
# them; split or among the devices they are refused.
usage_is "dxstat: operand '2': interval and count go together, before or after the devices" dxstat 1 sda 2
usage_is "dxstat: operand '1': a number among the devices (interval and count come first or last)" dxstat sda 1 sdb
usage_is "dlat: operand '2': interval and count go together, before or after the devices" dlat 1 sda 2
usage_is "dlat: extra operand '3': only interval and count" dlat 1 2 3 sda
usage_is "dqueue: -o 'xml': unknown format (tsv, json, table, prom)" dqueue -o xml
usage_is "dwho: -s 'nope': not a sort key (read write reads writes discard discards cancelled rchar wchar hit iodelay io pid, or a column name)" dwho -s nope
usage_is "ddeleted: --min-size '3Q': not a size (bytes, or K M G T)" ddeleted --min-size 3Q
usage_is "dxstat: -O: column 'bogus': unknown or listed twice (-O help lists them)" dxstat -O device,bogus
usage_is "dxstat: -O: column 'device': unknown or listed twice (-O help lists them)" dxstat -O device,device

# ---- -O: columns, in every tool and every format ----------------------
for t in $TOOLS; do
	"$t" -O help >"$TRASH/oh" 2>&1
	is "$?" 0 "$t -O help: exit 0"
	ok "$t -O help: says how to add a column" grep -q '^(+): not in the default table' "$TRASH/oh"
done
is "$(dxstat -R "$T1" -o tsv -O %util,device sda)" "$(printf '%%util\tdevice\n1.20\tsda')" \
    "dxstat -O %util,device: tsv in that order"
is "$(dxstat -R "$T1" -o json -O device,r/s sda)" '{"device":"sda","r/s":1.00}' \
    "dxstat -O device,r/s: json keys in that order"
is "$(dxstat -R "$T1" -o table -O device,in_flight sda)" "device  in_flight
sda             2" "dxstat -O device,in_flight: table"
is "$(dxstat -R "$T1" -o prom -O r/s sda)" '# HELP dxstat_reads_per_second Reads completed per second.
# TYPE dxstat_reads_per_second gauge
dxstat_reads_per_second{device="sda"} 1' "dxstat -O r/s: prom has that family, labels kept"
is "$(dpsi -R "$PSI" -o tsv -H -O kind,total -r io)" "$(printf 'some\t96242289\nfull\t92732851')" \
    "dpsi -O kind,total"
# Default table: the columns a person needs; -O +COL adds, tsv keeps all.
hdr=$(dxstat -R "$T1" -o table sda | head -1 | tr -s ' ')
is "$hdr" " time device r/s rkB/s r_await rareq-sz w/s wkB/s w_await wareq-sz d/s f/s aqu-sz %util" \
    "dxstat table: the default columns"
is "$(dxstat -R "$T1" -o table -O +in_flight sda | head -1 | tr -s ' ')" "$hdr in_flight" \
    "dxstat -O +in_flight: added at the end"
is "$(dxstat -R "$T1" -o tsv sda | head -1 | awk -F'\t' '{ print NF }')" 25 "dxstat tsv: every column"
is "$(dqueue -R "$FIX/dqueue/host" -o tsv | head -1 | awk -F'\t' '{ print NF }')" 20 "dqueue tsv: every column"
is "$(dqueue -R "$FIX/dqueue/host" -o table | awk '{ if (length > m) m = length } END { print (m <= 160) }')" 1 \
    "dqueue table: fits in 160 columns"
dxstat -R "$FIX/dxstat/real" -o table -a -p >"$TRASH/wide" 2>/dev/null ||
    dxstat -R "$T1" -o table -a -p >"$TRASH/wide"
is "$(awk '{ if (length > m) m = length } END { print (m <= 160) }' "$TRASH/wide")" 1 \
    "dxstat table: fits in 160 columns"

# ---- -h: human units in table mode only ----------------------------------
mkdir -p "$TRASH/q/sys/block/vdz/queue"
for a in read_ahead_kb:4096 max_sectors_kb:1280 logical_block_size:512 \
    physical_block_size:4096 discard_max_bytes:270553174016 nr_requests:256 \
    rotational:0; do
	echo "${a#*:}" >"$TRASH/q/sys/block/vdz/queue/${a%%:*}"
done
echo '[none] mq-deadline' >"$TRASH/q/sys/block/vdz/queue/scheduler"
: >"$TRASH/q/sys/block/vdz/queue/wbt_lat_usec"
dqueue -R "$TRASH/q" -o table -h -O device,read_ahead_kb,max_sectors_kb,discard_max_bytes,nr_requests >"$TRASH/h" 2>"$TRASH/err"
is "$(sed -n 2p "$TRASH/h" | tr -s ' ')" "vdz 4M 1.2M 252G 256" \
    "dqueue -h: KiB and bytes in human units, counts as they are"
is "$(dqueue -R "$TRASH/q" -o tsv -h -O read_ahead_kb,discard_max_bytes | sed -n 2p)" \
    "$(printf '4096\t270553174016')" "dqueue -h -o tsv: base units kept"
# An empty attribute file (cp of a refused read) is "-", not an error.
dqueue -R "$TRASH/q" -o tsv -O device,wbt_lat_usec >"$TRASH/e" 2>"$TRASH/err"
is "$?:$(sed -n 2p "$TRASH/e"):$(cat "$TRASH/err")" "0:$(printf 'vdz\t-'):" \
    "dqueue: an empty wbt_lat_usec is -, exit 0, nothing said"
is "$(dxstat -R "$T1" -o table -h -O device,rkB/s,rareq-sz,r/s sda | sed -n 2p | tr -s ' ')" \
    "sda 40K 40K 1.00" "dxstat -h: kB in human units, rates of requests as they are"

# ddeleted -h: a held 64 KiB deleted file (any user, any filesystem: -a)
head -c 65536 /dev/zero >"$TRASH/h.del"
sleep 1000 3<"$TRASH/h.del" &
hh=$!
at_exit "kill $hh 2>/dev/null"
sleep 0.2
rm "$TRASH/h.del"
is "$(ddeleted -a -o table -h -H -O pid,fd,size | awk -v p=$hh '$1 == p { print $2, $3 }')" "3 64K" \
    "ddeleted -h: size in human units (64K)"
is "$(ddeleted -a -o tsv -h -H -O pid,fd,size | awk -F'\t' -v p=$hh '$1 == p { print $2, $3 }')" "3 65536" \
    "ddeleted -h -o tsv: bytes kept"
is "$(ddeleted -a -o json -h -O pid,size | grep -c "\"pid\":$hh,\"size\":65536}")" 1 \
    "ddeleted -h -o json: bytes kept"
kill $hh

# ---- table time ----------------------------------------------------------
# The tree's snapshot is of another day: the date is shown; tsv keeps
# Unix seconds; --utc is UTC whatever TZ says.
dxstat -s >"$TRASH/now.snap"
sed 's/^time [0-9.]*/time 1764469461.5/' "$TRASH/now.snap" >"$TRASH/old.snap"
is "$(dxstat -f "$TRASH/old.snap" -o table -O time,device | sed -n 2p | cut -c1-19)" \
    "2025-11-30 02:24:21" "table: a snapshot of another day: date and time"
is "$(TZ=Asia/Tokyo dxstat -f "$TRASH/old.snap" -o table --utc -O time | sed -n 2p)" \
    "2025-11-30 02:24:21" "table --utc: UTC"
tok=$(TZ=Asia/Tokyo dxstat -f "$TRASH/old.snap" -o table -O time | sed -n 2p)
case $tok in
"2025-11-30 11:24:21") pass "table: local time (Asia/Tokyo)" ;;
"2025-11-30 02:24:21") skip "table: local time (Asia/Tokyo)" "no time zone data here" ;;
*) fail "table: local time (Asia/Tokyo)"; echo "# got: $tok" ;;
esac
is "$(dxstat -f "$TRASH/old.snap" -o tsv -O time | sed -n 2p)" "1764469461.500" \
    "tsv: Unix seconds"
today=$(dxstat -f "$TRASH/now.snap" -o table -O time | sed -n 2p)
case $today in
[0-2][0-9]:[0-5][0-9]:[0-6][0-9]) pass "table: today's time as HH:MM:SS ($today)" ;;
*) fail "table: today's time as HH:MM:SS"; echo "# got: $today" ;;
esac
# Widths only grow over a run: a later report never moves a column
# left, and the rows of a report line up with its header.
dxstat -o table -O time,device,r/s,w/s,%util 0.2 4 >"$TRASH/run"
is "$(awk '/^ *time/ { if (length < w) bad = 1; w = length } END { print bad + 0 }' "$TRASH/run")" 0 \
    "dxstat table: no report narrower than the one before"
is "$(awk '/^ *time/ { w = length; next } NF && length != w { bad = 1 } END { print bad + 0 }' "$TRASH/run")" 0 \
    "dxstat table: every row as wide as its header"

# ---- a relative root is a captured tree, not the live system -------------
want=$(dxstat -R "$T1" -o tsv -H sda | cut -f2-)
is "$(cd "$T1" && dxstat -R . -o tsv -H sda | cut -f2-)" "$want" "dxstat -R .: the tree's uptime"
is "$(cd "$T1" && dxstat -R ./ -o tsv -H sda | cut -f2-)" "$want" "dxstat -R ./: the tree's uptime"
is "$(cd "$T1" && DISKSTAT_ROOT=. dxstat -o tsv -H sda | cut -f2-)" "$want" "DISKSTAT_ROOT=.: the tree's uptime"
# and the real root however spelt is live: the same devices as "/".
is "$(cd / && dxstat -R . -o tsv -H -O device)" "$(dxstat -o tsv -H -O device)" "cd / && -R .: live"
is "$(dxstat -R /.. -o tsv -H -O device)" "$(dxstat -o tsv -H -O device)" "-R /..: live"

# ---- dxstat --------------------------------------------------------------
# sysstat's tests/root1: sds has 14 values, read as the 11-value format.
S=$FIX/dxstat/sysstat/root1
dxstat -R "$S" -o tsv -H sds >"$TRASH/sds" 2>"$TRASH/err"
is "$(cut -f2-8,24 "$TRASH/sds")" "$(printf 'sds\t0.05\t0.59\t0.06\t51.87\t0.26\t11.08\t0.01')" \
    "14-value line: read as 11 (386 reads, 8554 sectors over 7192.55 s)"
is "$(cut -f15 "$TRASH/sds")" "-" "14-value line: no discard figures"
is "$(cat "$TRASH/err")" "dxstat: sds: 14 values where the kernel prints 11: read as that format, the rest unused (said once)" \
    "14-value line: said once"
printf '   8 0 sdq 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n' >"$TRASH/d16"
mkdir -p "$TRASH/t16/proc" && cp "$TRASH/d16" "$TRASH/t16/proc/diskstats" &&
    echo '100.00 100.00' >"$TRASH/t16/proc/uptime"
is "$(dxstat -R "$TRASH/t16" -o tsv -H -O device,d/s,f/s 2>&1)" \
    "$(printf 'dxstat: sdq: 16 values where the kernel prints 15: read as that format, the rest unused (said once)\nsdq\t0.12\t-')" \
    "16-value line: read as 15 (discards, no flushes)"
# Every device named missing in a tree that cannot change: exit at once.
test_must_fail 1 timeout 10 dxstat -R "$T1" nosuch 1 >/dev/null 2>"$TRASH/err"
is "$?" 0 "dxstat -R TREE nosuch 1: exit 1 at once"
ok "dxstat: says nothing will come" grep -q 'none of the devices named is there' "$TRASH/err"

# ---- dpsi ----------------------------------------------------------------
usage_is "dpsi: --wait 'io:soma:1s/2s': kind 'soma': not some or full" dpsi --wait io:soma:1s/2s
usage_is "dpsi: --wait 'disk:some:1s/2s': resource 'disk': not io, memory, cpu or irq" dpsi -W disk:some:1s/2s
usage_is "dpsi: --wait 'io:some:1q/2s': stall '1q': not a duration (a number and us, ms or s)" dpsi -W io:some:1q/2s
usage_is "dpsi: --wait 'io:some:1s/2': window '2': not a duration (a number and us, ms or s)" dpsi -W io:some:1s/2
usage_is "dpsi: --wait 'io:some': not RESOURCE:KIND:STALL/WINDOW (e.g. io:some:150ms/2s)" dpsi -W io:some
# -w is the output file, whatever its name looks like.
dpsi -R "$PSI" -r io -w "$TRASH/io:some:1s" >/dev/null 2>&1
is "$?:$(head -1 "$TRASH/io:some:1s" | cut -f2)" "0:resource" "dpsi -w io:some:1s: a file of that name"
# A --wait timeout exits 3 and says so.
test_must_fail 3 dpsi -R "$PSI" -W io:some:150ms/1s -T 0.5 -H >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "dpsi --wait -T: timeout exits 3"
ok "dpsi --wait -T: says it timed out" grep -q '^dpsi: --wait io:some:150ms/1s: timed out after 0.5 s' "$TRASH/err"
# A PSI value with a third decimal is not the kernel's: refused, not cut.
mkdir -p "$TRASH/p3/proc/pressure"
cp "$PSI/proc/uptime" "$TRASH/p3/proc/"
printf 'some avg10=1.109 avg60=0.00 avg300=0.00 total=5\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n' \
    >"$TRASH/p3/proc/pressure/io"
test_must_fail 1 dpsi -R "$TRASH/p3" -r io -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?:$(grep -c 1.10 "$TRASH/out")" "0:0" "dpsi: avg10=1.109 refused (exit 1), never shown as 1.10"

# ---- dwho: carriers, start label, %iodelay at most 100, sort keys --------
. "$FIX/dwho/mkproc.sh"
R=$TRASH/w
P=$R/proc
mkdir -p "$P/sys/kernel" "$R/etc"
echo "root:x:$(id -u):0::/:/bin/sh" >"$R/etc/passwd"
echo "1000.00 1500.00" >"$P/uptime"
echo 1 >"$P/sys/kernel/task_delayacct"
# pid comm starttime blkio read write cancelled rchar wchar syscr syscw
mkproc "$P" 10 'kworker/u8:2+flush-253:0' 90000 0 0 409600 0 0 0 0 0
mkproc "$P" 11 'kworker/u17:3-loop0' 90000 0 0 204800 0 0 0 0 0
mkproc "$P" 12 loop7 90000 0 0 102400 0 0 0 0 0
mkproc "$P" 13 'jbd2/vda1-8' 90000 0 0 51200 0 0 0 0 0
mkproc "$P" 14 loopy 90000 0 0 10240 0 0 0 0 0
# started 10 s ago, waited 10.2 s by its ticks: more than all of it
mkproc "$P" 15 waiter 99000 1020 1024 0 0 1024 0 1 0
dwho -R "$R" -o tsv -O pid,command,carries,%iodelay,start >"$TRASH/out" 2>/dev/null
is "$(sed 1d "$TRASH/out" | tr '\t' ' ')" "10 kworker/u8:2+flush-253:0 flush 0.00 90000
11 kworker/u17:3-loop0 loop 0.00 90000
12 loop7 loop 0.00 90000
13 jbd2/vda1-8 journal 0.00 90000
14 loopy - 0.00 90000
15 waiter - 100.00 99000" \
    "dwho: carries names loop workers, flushers, jbd2; %iodelay at most 100; start"
dwho -R "$R" -o prom -p 10 >"$TRASH/prom" 2>/dev/null
ok "dwho prom: pid, start; a kworker without its work item" grep -qx \
    'dwho_write_bytes_total{pid="10",user="root",command="kworker/u8:2",start="90000"} 409600' "$TRASH/prom"
is "$(dwho -R "$R" -o tsv -H -s write -O pid 2>/dev/null | tr '\n' ' ')" "10 11 12 13 14 15 " \
    "dwho -s write: the most written first"
is "$(dwho -R "$R" -o tsv -H -s wkB/s -O pid 2>/dev/null | tr '\n' ' ')" \
    "$(dwho -R "$R" -o tsv -H -s kB_wr/s -O pid 2>/dev/null | tr '\n' ' ')" \
    "dwho -s wkB/s (io.stat's name) on the proc source: as kB_wr/s"

# ---- ddeleted: disk space by default, -a adds memory, -s disk first ------
if [ "$(id -u)" -eq 0 ] && [ -d /dev/shm ] && [ "$(findmnt -no FSTYPE -T "$TRASH" 2>/dev/null)" != tmpfs ] &&
    have_prog findmnt; then
	head -c 8192 /dev/zero >"$TRASH/disk.del"
	shm=$(mktemp /dev/shm/diskstat-test.XXXXXX)
	at_exit "rm -f '$shm'"
	head -c 8192 /dev/zero >"$shm"
	sleep 1000 3<"$TRASH/disk.del" 4<"$shm" &
	holder=$!
	at_exit "kill $holder 2>/dev/null"
	sleep 0.2
	rm "$TRASH/disk.del" "$shm"
	is "$(ddeleted -o tsv -H | awk -F'\t' -v p=$holder '$1 == p { print $4, $11 }')" "3 disk" \
	    "ddeleted: the file holding disk space, not the memory one"
	is "$(ddeleted -a -o tsv -H | awk -F'\t' -v p=$holder '$1 == p { print $4, $11 }' | tr '\n' ' ')" \
	    "3 disk 4 memory " "ddeleted -a: the memory-backed one too"
	ddeleted -s -o tsv -H >"$TRASH/sum"
	is "$(awk -F'\t' '{ print ($2 == "tmpfs" || $2 == "-") ? "memory" : "disk" }' "$TRASH/sum" | uniq | tr '\n' ' ')" \
	    "disk memory " "ddeleted -s: disk filesystems first"
	kill $holder
	# ddeleted(1)'s per-process totals: a file a parent and its child
	# both hold is counted once (the awk of the man page's EXAMPLES).
	head -c 1048576 /dev/zero >"$TRASH/shared.del"
	sync
	sh -c 'sleep 1000 & sleep 1000' 3<"$TRASH/shared.del" &
	parent=$!
	at_exit "pkill -P $parent 2>/dev/null; kill $parent 2>/dev/null"
	sleep 0.3
	rm "$TRASH/shared.del"
	ino=$(ddeleted -o tsv -H | awk -F'\t' -v p=$parent '$1 == p && $4 == 3 { print $8 }')
	ddeleted -o tsv -H | awk -F'\t' -v i="$ino" '$8 == i' >"$TRASH/shared"
	is "$(wc -l <"$TRASH/shared" | tr -d ' ')" 3 "ddeleted: the shared file, one row per holder (sh, two sleeps)"
	tot=$(awk -F'\t' \
	    '!seen[$7 " " $8]++ { a[$1 " " $3] += $6 }
	     END { for (p in a) printf "%s %.1f\n", p, a[p] / 1048576 }' "$TRASH/shared" |
	    awk '{ s += $NF } END { print s }')
	is "$tot" 1 "ddeleted(1) awk totals: the shared file counted once (1 MiB)"
	# The sh may end by itself once its sleeps are gone: a kill that
	# finds nobody is no failure of the script (its last status is its
	# exit status).
	pkill -P $parent 2>/dev/null
	kill $parent 2>/dev/null || :
	wait $parent 2>/dev/null || :
else
	skip "ddeleted: the shared file" "needs root and a disk filesystem"
	skip "ddeleted(1) awk totals" "needs root and a disk filesystem"
	for d in "ddeleted: disk by default" "ddeleted -a: memory too" "ddeleted -s: disk first"; do
		skip "$d" "needs root, findmnt, /dev/shm and $TRASH on a disk filesystem"
	done
fi
