#!/bin/sh
# dxstat on captured trees and snapshot files: which devices, the
# snapshot format and its shell one-liner, every output format, and
# damaged or hostile input.
. "${0%/*}/lib.sh"

D=$FIX/dxstat
T1=$D/tree

devs() {
	dxstat -o tsv -H "$@" | cut -f2 | tr '\n' ' '
}

# Which devices: whole disks are the names in sys/block.
is "$(devs -R "$T1")" "sda nvme0n1 dm-0 dm-1 " \
    "default: whole disks that did I/O (sdb, loop0 idle; zram0 not in sys/block)"
is "$(devs -R "$T1" -a)" "sda sdb nvme0n1 dm-0 dm-1 loop0 " "-a adds idle disks"
is "$(devs -R "$T1" -p)" "sda sda1 nvme0n1 nvme0n1p1 dm-0 dm-1 zram0 " "-p adds partitions"
is "$(devs -R "$T1" -p -a)" "sda sda1 sdb nvme0n1 nvme0n1p1 dm-0 dm-1 loop0 zram0 " "-p -a: everything"
is "$(devs -R "$T1" sda1 loop0)" "sda1 loop0 " "named devices shown, partition or idle"
is "$(devs -R "$T1" 'nvme*')" "nvme0n1 " "a glob selects whole disks"
is "$(devs -R "$T1" -p 'nvme*')" "nvme0n1 nvme0n1p1 " "a glob with -p, partitions too"
is "$(devs -R "$T1" 'sd[ab]')" "sda " "a glob hides idle disks"
# iostat's order: the interval and count before the devices give the
# report they give after them (the since-boot report, then the window).
dxstat -R "$T1" -o tsv 0.1 2 sda1 nvme0n1 >"$TRASH/first" 2>&1
dxstat -R "$T1" -o tsv sda1 nvme0n1 0.1 2 >"$TRASH/last" 2>&1
cut -f2- "$TRASH/first" >"$TRASH/first.v"
cut -f2- "$TRASH/last" >"$TRASH/last.v"
is "$(cut -f2 "$TRASH/first" | tr '\n' ' ')" "device sda1 nvme0n1 sda1 nvme0n1 " \
    "0.1 2 sda1 nvme0n1: two reports of the two devices"
ok "0.1 2 DEV... and DEV... 0.1 2: the same report" test_cmp "$TRASH/last.v" "$TRASH/first.v"
dxstat -R "$T1" -o tsv -y 0.1 1 sda >"$TRASH/first"
dxstat -R "$T1" -o tsv -y sda 0.1 1 >"$TRASH/last"
is "$(cut -f2- "$TRASH/first")" "$(cut -f2- "$TRASH/last")" "-y 0.1 1 sda and -y sda 0.1 1: the same report"
# Operands as dqueue takes them (one shared rule, lib/blockdev.c).
is "$(devs -R "$T1" /dev/sda /dev/nvme0n1)" "sda nvme0n1 " "/dev/sda is sda"
dxstat -R "$T1" -o tsv -H sda nosuch >"$TRASH/out" 2>"$TRASH/err"
is "$?" 1 "an operand that matched nothing: exit 1"
is "$(cut -f2 "$TRASH/out" | tr '\n' ' ')" "sda " "an operand that matched nothing: the others still report"
is "$(cat "$TRASH/err")" "dxstat: nosuch: no such device" "an operand that matched nothing: one message"
dxstat -R "$T1" -o tsv -H 'sd[xy]' /dev/sdq >"$TRASH/out" 2>"$TRASH/err"
is "$?:$(wc -c <"$TRASH/out")" "1:0" "nothing matched at all: exit 1, no rows"
is "$(cat "$TRASH/err")" "dxstat: sd[xy]: no device matches
dxstat: /dev/sdq: no such device" "a glob and a path that matched nothing: one message each, as given"
dxstat -R "$T1" -o tsv -H -y nosuch 0.01 3 >/dev/null 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "1:dxstat: nosuch: no such device
dxstat: $T1: none of the devices named is there, and a captured tree does not change: nothing to report" \
    "sampling a tree: every device named missing: said, exit 1 at once"
dxstat -R "$T1" -o tsv -H 'sd*' >/dev/null 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:" "a glob matching only idle disks matched: exit 0, quiet"
is "$(devs -R "$T1" -N vg0-root)" "vg0-root " "-N: an operand matches a dm name"
is "$(devs -R "$T1" -N 'vg0*')" "vg0-root vg0-swap " "-N: a glob matches dm names"
is "$(devs -R "$T1" -N dm-1)" "vg0-swap " "-N: the kernel name still matches"
dxstat -R "$T1" -o tsv -H vg0-root >/dev/null 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "1:dxstat: vg0-root: no such device" "without -N, dm names are not operands"
is "$(devs -R "$T1" /dev/mapper/vg0-swap)" "dm-1 " "/dev/mapper/NAME selects by dm name"
is "$(devs -R "$T1" -N /dev/mapper/vg0-swap)" "vg0-swap " "/dev/mapper/NAME with -N"
is "$(devs -R "$T1" -N)" "sda nvme0n1 vg0-root vg0-swap " "-N: device-mapper names from the tree"
is "$(devs -R "$T1" -z -a)" "sda nvme0n1 dm-0 dm-1 " "-z hides devices with no completed request"
DISKSTAT_ROOT=$T1 dxstat -o tsv -H >"$TRASH/env"
dxstat -R "$T1" -o tsv -H >"$TRASH/opt"
is "$(cut -f2- "$TRASH/env")" "$(cut -f2- "$TRASH/opt")" "DISKSTAT_ROOT is -R"

# Without sys/block, partitions are told by name.
mkdir -p "$TRASH/nosys/proc"
cp "$T1/proc/diskstats" "$T1/proc/uptime" "$TRASH/nosys/proc/"
is "$(devs -R "$TRASH/nosys")" "sda nvme0n1 dm-0 dm-1 zram0 " "no sys/block: partitions by name"

# Since boot: counters over the tree's uptime (1000 s), by hand.
dxstat -R "$T1" -o tsv sda >"$TRASH/sda"
is "$(head -1 "$TRASH/sda")" "$(printf 'time\tdevice\tr/s\trkB/s\trrqm/s\t%%rrqm\tr_await\trareq-sz\tw/s\twkB/s\twrqm/s\t%%wrqm\tw_await\twareq-sz\td/s\tdkB/s\tdrqm/s\t%%drqm\td_await\tdareq-sz\tf/s\tf_await\taqu-sz\t%%util\tin_flight')" \
    "header: iostat's column names, then in_flight"
is "$(sed -n 2p "$TRASH/sda" | cut -f2-)" \
    "$(printf 'sda\t1.00\t40.00\t0.10\t9.09\t5.00\t40.00\t2.00\t80.00\t0.20\t9.09\t4.50\t40.00\t0.01\t0.40\t0.00\t9.09\t5.00\t40.00\t0.30\t2.00\t0.01\t1.20\t2')" \
    "sda since boot: 1000 reads / 1000 s, 80000 sectors = 40000 kB, ..."
is "$(dxstat -R "$T1" -o tsv -H dm-1 | cut -f15-22)" "$(printf -- '-\t-\t-\t-\t-\t-\t-\t-')" \
    "11-counter line: discard and flush columns null"
lacks jq "JSON: null, not zero" ||
is "$(dxstat -R "$T1" -o json dm-1 | jq -c '[."d/s", ."f_await", ."r/s"]')" '[null,null,0.02]' \
    "JSON: null, not zero"

# Snapshots: dxstat -s, and the man page's one-liner.
dxstat -R "$T1" -s >"$TRASH/s1"
is "$?" 0 "-s exits 0"
is "$(sed -n 1p "$TRASH/s1")" "uptime 1000.000000000" "-s: uptime line"
# A captured tree is another moment, maybe another machine: no "time now".
is "$(grep -c '^time' "$TRASH/s1")" 0 "-s under -R: no time line"
# What each disk is: only dm-0 and dm-1 of the tree say (dm/name).
is "$(sed -n '2,3p' "$TRASH/s1")" "id dm-0 dm-name=vg0-root
id dm-1 dm-name=vg0-swap" "-s: an id line per disk that has an identity, by name"
tail -n +4 "$TRASH/s1" >"$TRASH/s1.ds"
ok "-s: then the diskstats text verbatim" test_cmp "$T1/proc/diskstats" "$TRASH/s1.ds"
dxstat -R "$T1" -s -w "$TRASH/s2"
tail -n +4 "$TRASH/s2" >"$TRASH/s2.ds"
ok "-s -w writes the file" test_cmp "$TRASH/s1.ds" "$TRASH/s2.ds"
is "$(ls -a "$TRASH" | grep s2 | grep -vx -e s2 -e s2.ds)" "" "-s -w: no temporary file left"
dxstat -R "$T1" -f "$TRASH/s1" -o tsv -H >"$TRASH/f1" 2>"$TRASH/err"
is "$(cut -f2- "$TRASH/f1")" "$(cut -f2- "$TRASH/opt")" "-R TREE -f SNAP: the same since-boot report as the tree"
is "$(cat "$TRASH/err")" "" "-f SNAP: id lines are no damaged lines"
sed -e '/^id /d' -e 's/^uptime 1000/uptime 900/' "$TRASH/s1" >"$TRASH/s0"
dxstat -f "$TRASH/s0" -f "$TRASH/s1" -o tsv -H -a -p >"$TRASH/f01" 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:" "-f: a file without id lines paired with one with them"
is "$(cut -f2 "$TRASH/f01" | tr '\n' ' ')" "sda sda1 sdb nvme0n1 nvme0n1p1 dm-0 dm-1 loop0 zram0 " \
    "-f: every device paired"
printf 'uptime 1\nid sda\n' >"$TRASH/badid"
test_must_fail 1 dxstat -f "$TRASH/badid" >/dev/null 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:dxstat: $TRASH/badid: line 2: id line: no identity" "-f: a malformed id line refused, said"
is "$(devs -f "$TRASH/s1")" "sda nvme0n1 dm-0 dm-1 zram0 " \
    "-f SNAP without -R: partitions by name (the file may come from elsewhere)"
# -N with -f and no root: the local /sys is not the snapshot's machine,
# so its dm names must not be used.  Shown with a local /sys/block that
# has other dm names (the tree's, bind-mounted in a private namespace).
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1 &&
    unshare -m sh -c 'mount --make-rprivate / && mount --bind "$1" /sys/block' sh "$T1/sys/block" 2>/dev/null; then
	is "$(unshare -m sh -c 'mount --make-rprivate / && mount --bind "$1" /sys/block && exec dxstat -o tsv -H -N -f "$2"' sh "$T1/sys/block" "$TRASH/s1" | cut -f2 | tr '\n' ' ')" \
	    "sda nvme0n1 dm-0 dm-1 zram0 " "-N -f SNAP without -R: kernel names, the local dm names unused"
	is "$(unshare -m sh -c 'mount --make-rprivate / && mount --bind "$1" /sys/block && exec dxstat -o tsv -H -N -R "$1/../.." -f "$2"' sh "$T1/sys/block" "$TRASH/s1" | cut -f2 | tr '\n' ' ')" \
	    "sda nvme0n1 vg0-root vg0-swap " "-N -f SNAP with -R: the tree's dm names"
else
	skip "-N -f SNAP without -R: kernel names" "needs root and unshare -m"
	skip "-N -f SNAP with -R: the tree's dm names" "needs root and unshare -m"
fi
is "$(cut -f1 "$TRASH/f1" | sort -u)" "-" "-f SNAP without a time line: time column null"
is "$(DISKSTAT_ROOT=$T1 dxstat -s | grep -c '^time')" 0 "-s under DISKSTAT_ROOT: no time line"
is "$(dxstat -R "$T1" -o tsv -H -f - <"$TRASH/s1" | cut -f2-)" "$(cut -f2- "$TRASH/f1")" "-f - reads stdin"

# The one-liner from dxstat(1), run here on the tree's files.
( cd "$T1" && { echo "uptime $(cut -d' ' -f1 proc/uptime)"; echo "time $(date +%s)"; cat proc/diskstats; } ) >"$TRASH/one"
is "$(dxstat -R "$T1" -o tsv -H -f "$TRASH/one" | cut -f2-)" "$(cut -f2- "$TRASH/f1")" "the shell one-liner's snapshot is accepted"
ok "man page holds that one-liner" grep -q 'echo "uptime $(cut -d'"'"' '"'"' -f1 /proc/uptime)"' "$TOP/doc/dxstat.1"
if [ -r /proc/diskstats ] && [ -r /proc/uptime ]; then
	{ echo "uptime $(cut -d' ' -f1 /proc/uptime)"; echo "time $(date +%s)"; cat /proc/diskstats; } >"$TRASH/live1"
	dxstat -s >"$TRASH/live2"
	ok "live -s: uptime line, then a time line" grep -q '^time [0-9]*\.[0-9]\{9\}$' "$TRASH/live2"
	is "$(sed -n 2p "$TRASH/live2" | cut -c1-5)" "time " "live -s: time is the second line"
	dxstat -o tsv -H -a -f "$TRASH/live2" >"$TRASH/live.f"
	ok "-f SNAP: time column from the snapshot" awk -F'\t' -v t="$(sed -n 's/^time \([0-9]*\.[0-9][0-9][0-9]\).*/\1/p' "$TRASH/live2")" '$1 != t { exit 1 }' "$TRASH/live.f"
	dxstat -o tsv -H -a -f "$TRASH/live1" -f "$TRASH/live2" >"$TRASH/live" 2>"$TRASH/live.err"
	is "$?:$(cat "$TRASH/live.err")" "0:" "one-liner then dxstat -s on this machine: a report"
	ok "live report has rows" test -s "$TRASH/live"
fi

# Between two snapshots: 30 s apart, hand-computed.
printf 'uptime 100.00\n 8 0 sda 10 0 80 20 0 0 0 0 0 30 40 0 0 0 0 0 0\n' >"$TRASH/a"
printf 'uptime 130.00\ntime 1700000000.25\n 8 0 sda 70 0 560 140 30 0 7680 90 1 3030 6040 0 0 0 0 3 6\n' >"$TRASH/b"
is "$(dxstat -o tsv -H -f "$TRASH/a" -f "$TRASH/b")" \
    "$(printf '1700000000.250\tsda\t2.00\t8.00\t0.00\t0.00\t2.00\t4.00\t1.00\t128.00\t0.00\t0.00\t3.00\t128.00\t0.00\t0.00\t0.00\t0.00\t0.00\t0.00\t0.10\t2.00\t0.20\t10.00\t1')" \
    "-f OLD -f NEW: 60 reads, 30 writes of 128 kB, 3 s busy in 30 s"
dxstat -o tsv -H -f "$TRASH/b" -f "$TRASH/a" >"$TRASH/ba" 2>"$TRASH/ba.err"
is "$?" 0 "snapshots swapped: still a report"
ok "snapshots swapped: says so" grep -q "^dxstat: .*/a: uptime below .*/b's (a reboot between them?): reporting since boot" "$TRASH/ba.err"
is "$(cut -f3 "$TRASH/ba")" "0.10" "snapshots swapped: since boot of the newer-booted one"
test_must_fail 1 dxstat -f "$TRASH/a" -f "$TRASH/a" >/dev/null 2>"$TRASH/err"
is "$?" 0 "the same snapshot twice: error"
ok "the same snapshot twice: says why" grep -q "taken at the same uptime" "$TRASH/err"

# Damaged input: a message, the good devices still reported.
printf 'uptime 10.00\n 8 0 sda 10 0 80 20 0 0 0 0 0 30 40\n 8 16 sdb 1 2 3 4 5 6 7 8 9\n 8 32 sdc 1 2 x 4 5 6 7 8 9 10 11\n 8 48 sdd 5 0 8 2 0 0 0 0 0 3 4\n 8 64 sde 1 2 3 4 5\n' >"$TRASH/bad"
dxstat -o tsv -H -f "$TRASH/bad" >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "damaged lines: exit 0"
is "$(cut -f2 "$TRASH/out" | tr '\n' ' ')" "sda sdd " "damaged lines: good devices reported"
is "$(cat "$TRASH/err")" "dxstat: $TRASH/bad: line 3: not a diskstats line (3 lines skipped)" \
    "damaged lines: one clear message with the first line"
mkdir -p "$TRASH/badtree/proc"
tail -n +2 "$TRASH/bad" >"$TRASH/badtree/proc/diskstats"
echo "10.00 1.00" >"$TRASH/badtree/proc/uptime"
dxstat -R "$TRASH/badtree" -o tsv -H -p >"$TRASH/out" 2>"$TRASH/err"
is "$?:$(cut -f2 "$TRASH/out" | tr '\n' ' ')" "0:sda sdd " "damaged tree: good devices reported"
ok "damaged tree: message names the file" grep -q "^dxstat: $TRASH/badtree/proc/diskstats: line 2: not a diskstats line (3 lines skipped)" "$TRASH/err"

tail -n +2 "$TRASH/bad" >"$TRASH/noup"
test_must_fail 1 dxstat -f "$TRASH/noup" >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "snapshot without uptime line: exit 1"
is "$(cat "$TRASH/err")" "dxstat: $TRASH/noup: neither a snapshot (dxstat -s) nor a capture (dcapture): line 1: no uptime line before the diskstats lines" \
    "snapshot without uptime line: says so"
printf 'uptime soon\n' >"$TRASH/badup"
test_must_fail 1 dxstat -f "$TRASH/badup" >/dev/null 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:dxstat: $TRASH/badup: neither a snapshot (dxstat -s) nor a capture (dcapture): line 1: uptime is not a number of seconds" "uptime not a number"
# Files that are no snapshot nor capture, as OLD, NEW or alone: one line
# naming the file and what was expected, exit 1, no rows.  A report
# (its first column is time), a compressed snapshot, an empty file,
# text.  Refused past line 1, a snapshot's header is damaged, said so.
dxstat -f "$TRASH/a" -o tsv >"$TRASH/report" 2>/dev/null
gzip -c "$TRASH/a" >"$TRASH/a.gz" 2>/dev/null || printf '\037\213\010' >"$TRASH/a.gz"
: >"$TRASH/nil"
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$TRASH/text"
for f in report a.gz nil text; do
	for args in "-f $TRASH/$f" "-f $TRASH/$f -f $TRASH/a" "-f $TRASH/a -f $TRASH/$f"; do
		# shellcheck disable=SC2086
		test_must_fail 1 dxstat $args -o tsv >"$TRASH/out" 2>"$TRASH/err"
		is "$?:$(wc -l <"$TRASH/out"):$(wc -l <"$TRASH/err")" "0:0:1" \
		    "dxstat $(echo "$args" | sed "s|$TRASH/||g"): exit 1, no rows, one line"
		ok "dxstat $(echo "$args" | sed "s|$TRASH/||g"): names $f, says what was expected" \
		    grep -q "^dxstat: $TRASH/$f: neither a snapshot (dxstat -s) nor a capture (dcapture): line 1: " "$TRASH/err"
	done
done
printf 'uptime 10.00\nuptime 11.00\n' >"$TRASH/twice"
test_must_fail 1 dxstat -f "$TRASH/twice" >/dev/null 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:dxstat: $TRASH/twice: line 2: second uptime line" \
    "a snapshot's header damaged past line 1: said as damage"
test_must_fail 1 dxstat -f "$TRASH/missing" >/dev/null 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:dxstat: $TRASH/missing: No such file or directory" "missing snapshot file"
test_must_fail 1 dxstat -f "$TRASH/a" -f "$TRASH/missing" >/dev/null 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:dxstat: $TRASH/missing: No such file or directory" "missing second snapshot"
mkdir -p "$TRASH/empty/proc"
test_must_fail 1 dxstat -R "$TRASH/empty" >/dev/null 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:dxstat: $TRASH/empty/proc/diskstats: No such file or directory" "tree without diskstats"
cp "$T1/proc/diskstats" "$TRASH/empty/proc/"
test_must_fail 1 dxstat -R "$TRASH/empty" >/dev/null 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:dxstat: $TRASH/empty/proc/uptime: No such file or directory" "tree without uptime"

test_must_fail 1 dxstat -R "$T1" -s >/dev/full 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:dxstat: write error: No space left on device" "-s >/dev/full: write error"
dxstat -R "$T1" -y -o tsv -H 0.01 1 >"$TRASH/static"
is "$(cut -f2-4,25 "$TRASH/static" | head -1)" "$(printf 'sda\t-\t-\t2')" \
    "a static tree sampled twice: no time passed, figures null, in_flight kept"

# Usage errors.
for a in "-s 1" "-s sda" "-f $TRASH/a 1" "-y" "-f - -f -" "-f $TRASH/a -f $TRASH/a -f $TRASH/a" "-s -f $TRASH/a"; do
	# shellcheck disable=SC2086
	test_must_fail 2 dxstat $a >/dev/null 2>"$TRASH/err"
	is "$?" 0 "usage error: dxstat $a"
	ok "usage error prints usage: dxstat $a" grep -q '^usage: dxstat' "$TRASH/err"
done

# Hostile names keep TSV and JSON valid (names cannot hold blanks).
{
	echo "uptime 10.00"
	printf ' 8 0 back\\\\slash 10 0 80 20 0 0 0 0 0 30 40\n'
	printf ' 8 1 quo"te 10 0 80 20 0 0 0 0 0 30 40\n'
	printf ' 8 2 bad\377\376utf8 10 0 80 20 0 0 0 0 0 30 40\n'
	printf ' 8 3 ctl\001\033[31m\r 10 0 80 20 0 0 0 0 0 30 40\n'
	printf ' 8 4 {"x":1} 10 0 80 20 0 0 0 0 0 30 40\n'
} >"$TRASH/hostile"
dxstat -f "$TRASH/hostile" -o tsv >"$TRASH/h.tsv"
ok "hostile names: TSV field counts" fields_ok "$TRASH/h.tsv"
is "$(wc -l <"$TRASH/h.tsv")" 6 "hostile names: one line per device"
ok "hostile names: \\r escaped in TSV" grep -q 'ctl.*\\r' "$TRASH/h.tsv"
dxstat -f "$TRASH/hostile" -o json >"$TRASH/h.json"
ok "hostile names: JSON valid" json_ok "$TRASH/h.json"
lacks jq "hostile names: JSON round trip" ||
is "$(jq -r .device "$TRASH/h.json" | sed -n 2p)" 'quo"te' "hostile names: JSON round trip"
dxstat -f "$TRASH/hostile" -o prom >"$TRASH/h.prom"
is "$(grep -vc -e '^# HELP dxstat_[a-z_]* [A-Z]' -e '^# TYPE dxstat_[a-z_]* gauge$' -e '^dxstat_[a-z_]*{device="\([^"\\]\|\\.\)*"} [0-9.e+-]*$' "$TRASH/h.prom")" 0 \
    "hostile names: prom lines well formed"
dxstat -f "$TRASH/hostile" -o table >"$TRASH/h.table"
is "$(wc -l <"$TRASH/h.table")" 6 "hostile names: table one line per device"

# Prometheus: base units, documented names.
dxstat -R "$T1" -o prom >"$TRASH/p"
is "$(grep '^dxstat_read_await_seconds{device="sda"}' "$TRASH/p")" 'dxstat_read_await_seconds{device="sda"} 0.005' \
    "prom: r_await 5 ms is 0.005 s"
is "$(grep '^dxstat_util_ratio{device="sda"}' "$TRASH/p")" 'dxstat_util_ratio{device="sda"} 0.012' "prom: %util 1.2 is 0.012"
is "$(grep '^dxstat_queue_depth{device="sda"}' "$TRASH/p")" 'dxstat_queue_depth{device="sda"} 0.014' "prom: aqu-sz"
is "$(grep '^dxstat_read_bytes_per_second{device="sda"}' "$TRASH/p")" 'dxstat_read_bytes_per_second{device="sda"} 40960' \
    "prom: 40 kB/s is 40960 bytes/s"
is "$(grep '^dxstat_in_flight_requests{device="sda"}' "$TRASH/p")" 'dxstat_in_flight_requests{device="sda"} 2' "prom: in flight"
is "$(grep -c 'dxstat_flushes_per_second{device="dm-1"}' "$TRASH/p")" 0 "prom: no sample for a null"
is "$(grep -c '^# TYPE' "$TRASH/p")" 23 "prom: 23 metric families"
for m in $(sed -n 's/^# TYPE \(dxstat_[a-z_]*\) gauge$/\1/p' "$TRASH/p"); do
	grep -q "$m" "$TOP/doc/dxstat.1" || echo "# undocumented: $m"
done >"$TRASH/undoc"
is "$(cat "$TRASH/undoc")" "" "prom: every metric named in dxstat(1)"
dxstat -R "$T1" -o prom -w "$TRASH/dxstat.prom"
ok "-w: the file for the textfile collector" test_cmp "$TRASH/p" "$TRASH/dxstat.prom"
