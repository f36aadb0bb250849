#!/bin/sh
# dtriage's quiet-time history is one history (issue 31): the timer's
# one-sample captures and the dxstat -s snapshots cron wrote before,
# in one directory, mixed.  The same counters give the same baseline as
# captures, as snapshots, or half and half; a capture's disk identity
# is read from its sys/ as a tree's is (through sys/block's link); a
# damaged or hostile capture is left out with a warning, never a wrong
# figure; a dcapture's temporary file and the stall captures of
# captures/ are no history and no damage.  Then -f OLD -f NEW: the window between two captures, judged
# from the counters, with what a pair cannot hold said.
. "${0%/*}/lib.sh"

need_prog tar
mkdir "$TRASH/tmp"
TMPDIR=$TRASH/tmp
export TMPDIR

UB=LVM-BBBBbbbbBBBBbbbbBBBBbbbbBBBBbbbbBBBBbbbbBBBBbbbbBBBBbbbbBBBBbbbb
BOOT=0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0

# disk DIR UUID: dm-3 as sysfs has it, sys/block/dm-3 a link.
disk() {
	mkdir -p "$1/sys/devices/virtual/block/dm-3/dm" \
	    "$1/sys/devices/virtual/block/dm-3/queue" "$1/sys/block"
	ln -s ../devices/virtual/block/dm-3 "$1/sys/block/dm-3"
	echo "$2" >"$1/sys/devices/virtual/block/dm-3/dm/uuid"
	echo vg0-data >"$1/sys/devices/virtual/block/dm-3/dm/name"
	echo 256 >"$1/sys/devices/virtual/block/dm-3/queue/nr_requests"
	echo none >"$1/sys/devices/virtual/block/dm-3/queue/scheduler"
	echo 0 >"$1/sys/devices/virtual/block/dm-3/queue/rotational"
	echo 0 >"$1/sys/devices/virtual/block/dm-3/queue/nomerges"
}

# mktree DIR UPTIME READS TICKS QUEUE: dm-3's counters at UPTIME s.
mktree() {
	mkdir -p "$1/proc/pressure" "$1/proc/sys/kernel"
	disk "$1" "$UB"
	echo "$2.000000000 0.00" >"$1/proc/uptime"
	printf ' 253       3 dm-3 %d 0 %d %d 0 0 0 0 8 %d %d 0 0 0 0 0 0\n' \
	    "$3" $(($3 * 8)) "$4" "$5" "$5" >"$1/proc/diskstats"
	printf 'some avg10=95.00 avg60=50.00 avg300=20.00 total=%s\nfull avg10=1.00 avg60=1.00 avg300=1.00 total=10000000\n' \
	    $(($2 * 950000)) >"$1/proc/pressure/io"
	printf 'some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n' \
	    >"$1/proc/pressure/memory"
	printf 'cpu  1000 0 1000 %d 38000 0 0 0 0 0\nprocs_running 1\nprocs_blocked 8\n' \
	    $(($2 * 100)) >"$1/proc/stat"
	echo 1 >"$1/proc/sys/kernel/task_delayacct"
}

# capture TREE TIME FILE: TREE as a one-sample capture archive, taken at
# TIME (seconds) by its meta, as the history timer writes one.
capture() {
	_c=$TRASH/c.$$
	rm -rf "$_c"
	mkdir -p "$_c/capture"
	cp -Rp "$1" "$_c/0"
	_up=$(cut -d' ' -f1 "$1/proc/uptime" | tr -d .)
	printf 'format 1\nboot_id %s\nsamples 1\nuptime0 %s\ntime0 %s000000000\nwindow_ns 0\ntick_ns 100000000\ntraced 0\n' \
	    "$BOOT" "$_up" "$2" >"$_c/capture/meta"
	tar --format=ustar -cf "$3" -C "$_c" 0 capture || fail "tar $3"
	rm -rf "$_c"
}

# The history: dm-3 (B) over six points 300 s apart, 1000 reads of
# 5 ms each time with one in flight, on the boot of the tree judged.
H=$TRASH/history
mkdir -p "$H"
i=0 r=0 k=0
while [ $i -lt 6 ]; do
	mktree "$H/t$i" $((100 + i * 300)) $r $k $k
	dxstat -s -R "$H/t$i" >"$H/s$i.snap" || fail "dxstat -s $i"
	touch -d "@$((1765000000 + i * 300))" "$H/s$i.snap"
	capture "$H/t$i" $((1765000000 + i * 300)) "$H/c$i.cap"
	i=$((i + 1)) r=$((r + 1000)) k=$((k + 5000))
done

# The tree judged: dm-3 at 399.7 reads/s of 19.97 ms, 7.98 queued.
S=$TRASH/now
mktree "$S" 1000 399700 7982009 7980000
mkdir -p "$S/var/lib/snaps" "$S/var/lib/caps" "$S/var/lib/mixed"
cp -p "$H"/s*.snap "$S/var/lib/snaps/"
cp -p "$H"/c*.cap "$S/var/lib/caps/"
cp -p "$H"/s0.snap "$H"/c1.cap "$H"/s2.snap "$H"/c3.cap "$H"/c4.cap \
    "$H"/s5.snap "$S/var/lib/mixed/"
is "$(head -c 262 "$H/c0.cap" | tail -c 5)" "ustar" "the history's captures are ustar archives"

# rows DIR: dm-3's "FINDING VALUE" against the history in DIR (below
# the tree), the evidence in $TRASH/out, the status in $TRASH/rc.
rows() {
	dtriage -R "$S" -b "$1" -o tsv >"$TRASH/out" 2>"$TRASH/err"
	echo $? >"$TRASH/rc"
	awk -F'\t' '$3 == "dm-3" && $2 != "verdict" { print $2, $4 }' "$TRASH/out"
}
QUIET='by latency: r_await 20.0 ms against 5.0 ms quiet-time (5 quiet intervals)'

is "$(rows /var/lib/snaps)" "saturated 0.01997" "snapshots: saturated against B's 5 ms"
ok "snapshots: 5 quiet intervals of 5 ms" grep -q "$QUIET" "$TRASH/out"
cp "$TRASH/out" "$TRASH/out.snaps"
is "$(rows /var/lib/caps)" "saturated 0.01997" "captures: saturated against B's 5 ms"
ok "captures: the same 5 quiet intervals of 5 ms" grep -q "$QUIET" "$TRASH/out"
test_cmp "$TRASH/out.snaps" "$TRASH/out"
is "$(cat "$TRASH/rc"):$(cat "$TRASH/err")" "3:" "captures: exit 3, nothing on stderr"
is "$(rows /var/lib/mixed)" "saturated 0.01997" "mixed: saturated against B's 5 ms"
test_cmp "$TRASH/out.snaps" "$TRASH/out"

# The identity is the capture's: another volume's history is not B's.
A=$TRASH/histA
mkdir -p "$A" "$S/var/lib/other"
for i in 0 1 2 3 4 5; do
	cp -Rp "$H/t$i" "$A/t$i"
	echo LVM-other >"$A/t$i/sys/devices/virtual/block/dm-3/dm/uuid"
	capture "$A/t$i" $((1765000000 + i * 300)) "$S/var/lib/other/c$i.cap"
done
is "$(rows /var/lib/other)" "queue-long 7.98" "captures of another volume: no baseline for B"
is "$(grep -c 'quiet-time (' "$TRASH/out")" 0 "nothing compared against the other volume"

# Damaged and hostile captures are left out, said once, figures kept.
D=$S/var/lib/caps
head -c 3000 "$H/c2.cap" >"$D/cut.cap"
cp "$H/c3.cap" "$D/sum.cap"
printf 'zz' | dd of="$D/sum.cap" bs=1 seek=20 conv=notrunc 2>/dev/null
# A name that climbs out of its sample, checksum and all made right.
mkdir -p "$TRASH/evil/0/proc" "$TRASH/evil/capture"
cp "$H/t1/proc/diskstats" "$H/t1/proc/uptime" "$TRASH/evil/0/proc/"
echo x >"$TRASH/evil/capture/meta"
tar --format=ustar -cf "$D/evil.cap" -C "$TRASH/evil" 0 capture \
    --transform 's,^0/proc/uptime,0/../../uptime,' || fail "tar evil"
# A link that loops, where an identity is looked for.
cp -Rp "$H/t1" "$TRASH/loop"
rm "$TRASH/loop/sys/block/dm-3"
ln -s dm-3 "$TRASH/loop/sys/block/dm-3"
capture "$TRASH/loop" 1765000301 "$D/loop.cap"
is "$(rows /var/lib/caps)" "saturated 0.01997" "damaged captures: the same verdict"
ok "damaged captures: the same 5 quiet intervals" grep -q "$QUIET" "$TRASH/out"
is "$(cat "$TRASH/rc")" 3 "damaged captures: exit 3"
is "$(grep -c 'damaged capture' "$TRASH/err")" 1 "one warning for them all"
ok "the warning counts three and gives the first's reason" \
    grep -Eq '^dtriage: /var/lib/caps: 3 damaged captures left out of the quiet-time history: [a-z]+\.cap: member [0-9]+' "$TRASH/err"
# The looping link is no damage: that point's dm-3 has no identity.
is "$(grep -c 'loop.cap' "$TRASH/err")" 0 "a looping link: the capture read, identity unknown"
rm "$D"/cut.cap "$D"/sum.cap "$D"/evil.cap "$D"/loop.cap

# Not history, and not damage either: a dcapture's temporary file
# (.dcapture-*: being written, or left by one killed), cut or whole,
# and the captures/ directory the pressure service keeps beside the
# timer's (taken when I/O stalls: no sample of quiet time).  Each would
# add quiet intervals if it were read (points 6 to 8 go on B's series).
for i in 6 7 8; do
	mktree "$H/t$i" $((100 + i * 300)) $((i * 1000)) $((i * 5000)) $((i * 5000))
done
head -c 3000 "$H/c2.cap" >"$D/.dcapture-cutcutcu"
capture "$H/t6" $((1765000000 + 6 * 300)) "$D/.dcapture-wholewho"
mkdir "$D/captures"
capture "$H/t7" $((1765000000 + 7 * 300)) "$D/captures/c7.cap"
capture "$H/t8" $((1765000000 + 8 * 300)) "$D/captures/c8.cap"
is "$(rows /var/lib/caps)" "saturated 0.01997" "temporaries and captures/: the same verdict"
ok "temporaries and captures/: the same 5 quiet intervals" grep -q "$QUIET" "$TRASH/out"
is "$(cat "$TRASH/rc"):$(cat "$TRASH/err")" "3:" \
    "temporaries and captures/: nothing on stderr (no damaged capture)"
rm -r "$D"/.dcapture-cutcutcu "$D"/.dcapture-wholewho "$D"/captures

# -f OLD -f NEW: the window between two captures of the tree judged.
mktree "$TRASH/old" 990 395703 7942089 7940100
capture "$TRASH/old" 1765002000 "$TRASH/old.cap"
capture "$S" 1765002010 "$TRASH/new.cap"
dtriage -f "$TRASH/old.cap" -f "$TRASH/new.cap" -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 3 "-f: exit 3, a disk holding tasks up"
# 3997 reads, 39920 ms reading, 39900 ms queued in the 10 s between.
is "$(awk -F'\t' '$3 == "dm-3" && $2 != "verdict" { print $2, $4 }' "$TRASH/out")" \
    "queue-long 3.99" "-f: the window's queue (since boot: 7.98), no history without -b"
ok "-f: the window's r_await, no in_flight claimed without ticks" \
    grep -q 'queue-long	dm-3	3.99	a queue of 4.0 (aqu-sz) with r_await 10.0 ms; .*no quiet-time baseline, so' "$TRASH/out"
ok "-f: no latency traced between two captures, said" \
    grep -q '^info	no-latency	-	-	.*pair of captures' "$TRASH/out"
ok "-f: no kernel log, said" grep -q '^info	unreadable	kmsg	' "$TRASH/out"
ok "-f: ticks and looks not judged, said" \
    grep -q '^dtriage: -f OLD -f NEW: a pair of captures records no ticks nor looks' "$TRASH/err"
is "$(awk -F'\t' '$2 == "io-pressure" { print $4 }' "$TRASH/out")" 0.95 \
    "-f: pressure over the window, not avg10"
# With -b, the history of this machine: B's 5 ms.
cp -Rp "$S/var/lib/caps" "$TRASH/here"
dtriage -f "$TRASH/old.cap" -f "$TRASH/new.cap" -b "$TRASH/here" -o tsv \
    >"$TRASH/out" 2>/dev/null
is "$?" 3 "-f -b: exit 3"
is "$(awk -F'\t' '$3 == "dm-3" && $2 != "verdict" { print $2, $4 }' "$TRASH/out")" \
    "saturated 0.009987490618" "-f -b: saturated against the history of this machine"
ok "-f -b: 10 ms against B's 5 ms" grep -q 'r_await 10.0 ms against 5.0 ms quiet-time (5 quiet intervals), aqu-sz 4.0' "$TRASH/out"
# -R CAPTURE of one sample: since boot, with the same history.
dtriage -R "$TRASH/new.cap" -b "$TRASH/here" -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 3 "-R CAPTURE -b: exit 3"
is "$(awk -F'\t' '$3 == "dm-3" && $2 != "verdict" { print $2, $4 }' "$TRASH/out")" \
    "saturated 0.01997" "-R CAPTURE -b: since boot against B's 5 ms"
# -R CAPTURE of two samples (old, then the tree): the same window as
# -f, with the exit status it would have had; then a quiet window.
capture2() {
	_c=$TRASH/c2.$$
	rm -rf "$_c"
	mkdir -p "$_c/capture"
	cp -Rp "$1" "$_c/0"
	cp -Rp "$2" "$_c/1"
	_u0=$(cut -d' ' -f1 "$1/proc/uptime" | tr -d .)
	_u1=$(cut -d' ' -f1 "$2/proc/uptime" | tr -d .)
	printf 'format 1\nboot_id %s\nsamples 2\nuptime0 %s\ntime0 1765002000000000000\nuptime1 %s\ntime1 1765002010000000000\nwindow_ns %s\ntick_ns 100000000\ntraced 0\ntraced_why test\n' \
	    "$BOOT" "$_u0" "$_u1" $((_u1 - _u0)) >"$_c/capture/meta"
	tar --format=ustar -cf "$3" -C "$_c" 0 1 capture || fail "tar $3"
	rm -rf "$_c"
}
capture2 "$TRASH/old" "$S" "$TRASH/two.cap"
dtriage -R "$TRASH/two.cap" -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 3 "-R two samples: exit 3, as live over the window"
is "$(awk -F'\t' '$3 == "dm-3" && $2 != "verdict" { print $2, $4 }' "$TRASH/out")" \
    "queue-long 3.99" "-R two samples: the window's queue, as -f"
mktree "$TRASH/q0" 990 395703 7942089 7940100
mktree "$TRASH/q1" 1000 395703 7942089 7940100
# No I/O and no stall in the window: pressure totals unchanged.
cp "$TRASH/q0/proc/pressure/io" "$TRASH/q1/proc/pressure/io"
capture2 "$TRASH/q0" "$TRASH/q1" "$TRASH/quiet.cap"
dtriage -R "$TRASH/quiet.cap" -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "-R two samples, a quiet window: exit 0"
is "$(awk -F'\t' '$2 == "io-pressure" { print $1, $4 }' "$TRASH/out")" "ok 0" \
    "-R two samples, a quiet window: no pressure"

# Usage: two captures, no seconds; NEW after OLD.
test_must_fail 2 dtriage -f "$TRASH/old.cap" 2>"$TRASH/err"
ok "-f once: two captures or -R" grep -q 'two captures (-f OLD -f NEW), or -R for one' "$TRASH/err"
test_must_fail 2 dtriage -f "$TRASH/old.cap" -f "$TRASH/new.cap" 5 2>"$TRASH/err"
ok "-f with seconds: refused" grep -q 'no seconds' "$TRASH/err"
test_must_fail 1 dtriage -f "$TRASH/new.cap" -f "$TRASH/old.cap" 2>"$TRASH/err"
ok "-f NEW -f OLD: refused, said" grep -q 'the second was not taken after the first' "$TRASH/err"
is "$(ls "$TMPDIR" | wc -l)" 0 "nothing left in TMPDIR"
