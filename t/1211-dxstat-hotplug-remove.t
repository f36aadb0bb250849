#!/bin/sh
# Devices come and go under "dxstat 0.5 6" (issue 8, stage two): loop
# devices made for this test with /dev/loop-control (LOOP_CTL_ADD at a
# number no one uses, so that removing them touches nothing else):
#  - A is detached (losetup -d) and removed between samples: it stops
#    appearing;
#  - B is added during the run: it appears, from its own counters;
#  - R is removed and made again under the same name with fewer I/Os
#    (lower counters): a reset, counted from zero, no 2^32 rates.
# dxstat keeps going, exits 0, says nothing, and no r/s or w/s of any
# row is beyond what a loop device here can do.
# (mkloop's devices come from the shared pool and stay in
# /proc/diskstats after losetup -d, so they cannot show a removal.)
. "${0%/*}/lib.sh"
need_loop
need_cmd cc dd
[ -x "$TOP/cmd/dxstat/dxstat" ] || skip_all "dxstat not built"

cp "$T/1211-dxstat-hotplug-remove.c" "$TRASH/loopctl.c"
cc -O2 -o "$TRASH/loopctl" "$TRASH/loopctl.c" 2>"$TRASH/cc" ||
    { sed 's/^/# /' "$TRASH/cc"; skip_all "cannot build loopctl"; }

# Every device made is recorded, detached and removed at exit.
at_exit "sort -u '$TRASH/made' | while read -r n; do losetup -d /dev/loop\$n 2>/dev/null; '$TRASH/loopctl' remove \$n 2>/dev/null; done"
: >"$TRASH/made"
# newloop: add a loop device at a free number >= 300, print the number.
newloop() {
	_n=300
	while [ $_n -lt 1000 ]; do
		# never one made before: B must not take A's old name
		if [ ! -e /sys/block/loop$_n ] && [ ! -e /dev/loop$_n ] &&
		    ! grep -qx $_n "$TRASH/made"; then
			"$TRASH/loopctl" add $_n 2>/dev/null
			case $? in
			0) echo $_n >>"$TRASH/made"; echo $_n; return 0 ;;
			3) ;;
			*) return 1 ;;
			esac
		fi
		_n=$((_n + 1))
	done
	return 1
}
# attach N: a 16 MB file behind loopN, waiting for the node.
attach() {
	truncate -s 16M "$TRASH/img$1"
	_i=0
	while [ ! -b /dev/loop$1 ] && [ $_i -lt 40 ]; do sleep 0.05; _i=$((_i + 1)); done
	losetup /dev/loop$1 "$TRASH/img$1"
}
# reads N COUNT: COUNT direct 4 KiB reads from loopN.
reads() {
	dd if=/dev/loop$1 of=/dev/null bs=4k count=$2 iflag=direct 2>/dev/null
}

a=$(newloop) || skip_all "LOOP_CTL_ADD failed"
attach $a || skip_all "losetup failed"
r=$(newloop) && attach $r || skip_all "second loop device failed"
reads $a 200
reads $r 2000
ok "A (loop$a) and R (loop$r) made, attached, read" \
    sh -c "grep -q ' loop$a ' /proc/diskstats && grep -q ' loop$r ' /proc/diskstats"

dxstat -o tsv 0.5 6 >"$TRASH/out" 2>"$TRASH/err" &
dx=$!
at_exit "kill $dx 2>/dev/null"
sleep 0.8

# A goes: detached, removed.
losetup -d /dev/loop$a
"$TRASH/loopctl" remove $a
ok "A removed from /proc/diskstats" sh -c "! grep -q ' loop$a ' /proc/diskstats"
# R is replaced: removed, made again under its name, 10 reads.
losetup -d /dev/loop$r
"$TRASH/loopctl" remove $r
"$TRASH/loopctl" add $r
attach $r
reads $r 10
# B comes.
b=$(newloop) && attach $b || fail "B made"
reads $b 100
ok "B (loop$b) in /proc/diskstats" grep -q " loop$b " /proc/diskstats

wait $dx
is "$?" 0 "dxstat 0.5 6: exit 0 through it all"
is "$(cat "$TRASH/err")" "" "dxstat: nothing on stderr"
ok "TSV field counts" fields_ok "$TRASH/out"
awk -F'\t' 'NR > 1 { print $1 }' "$TRASH/out" | uniq >"$TRASH/times"
is "$(wc -l <"$TRASH/times")" 6 "six reports"
first=$(head -1 "$TRASH/times")
last=$(tail -1 "$TRASH/times")
row() { awk -F'\t' -v t="$1" -v d="loop$2" '$1 == t && $2 == d' "$TRASH/out"; }
ok "A in the first report" test -n "$(row "$first" $a)"
is "$(row "$last" $a)" "" "A not in the last report"
is "$(row "$first" $b)" "" "B not in the first report"
ok "B in the last report" test -n "$(row "$last" $b)"
ok "B's reads counted once: r/s over the reports sums to 100 / 0.5 s at most" \
    awk -F'\t' -v d="loop$b" '$2 == d { s += $3 } END { exit !(s > 0 && s <= 100 / 0.4) }' "$TRASH/out"
# A sample that falls while R is being made again (udev may take a while
# to make its node) has no R: the first and the last report have it.
ok "R in the first and the last report" \
    test -n "$(row "$first" $r)" -a -n "$(row "$last" $r)"
ok "R after the first report: r/s at most 10 reads / 0.4 s (a reset, from zero)" \
    awk -F'\t' -v d="loop$r" -v t="$first" '$2 == d && $1 != t && $3 + 0 > 25 { bad = 1 } END { exit bad }' "$TRASH/out"
# A loop device on this machine does well under a million I/Os a second.
ok "no row's r/s or w/s is huge (every one < 1e6)" \
    awk -F'\t' 'NR > 1 && ($3 + 0 >= 1e6 || $9 + 0 >= 1e6) { bad = 1; print "# " $0 } END { exit bad }' "$TRASH/out"
ok "no row's %util is huge (every one < 1000)" \
    awk -F'\t' 'NR > 1 && $24 + 0 >= 1000 { bad = 1; print "# " $0 } END { exit bad }' "$TRASH/out"
