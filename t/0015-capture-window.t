#!/bin/sh
# The sampling tools under a capture (issue 31): -R CAPTURE reports the
# window from sample 0 to sample 1 as "interval = the window, count 1"
# would live, dated at the capture's time1; -f OLD -f NEW the window
# between two captures' last samples; dqueue and ddeleted read the last
# sample.  First a capture built by hand (exact figures), then one of
# the live files around a known workload (same figures as the tools
# compute over the same counters).
. "${0%/*}/lib.sh"
. "$T/mkcapture.sh"
. "$FIX/dwho/mkproc.sh"

# Pairs' directories (ds_root_open_pair) go to TMPDIR: none must be left.
mkdir "$TRASH/tmp"
TMPDIR=$TRASH/tmp
export TMPDIR

C=$TRASH/cap
T0=1700000000000000000
T1=1700000002000000000
BOOT=0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0
mkdir -p "$C/capture"
for i in 0 1; do
	mkdir -p "$C/$i/proc/pressure" "$C/$i/sys/block/sda/queue" \
	    "$C/$i/sys/fs/cgroup/box"
	echo "8:0" >"$C/$i/sys/block/sda/dev"
	echo "100$((i * 2)).000000000 0.00" >"$C/$i/proc/uptime"
done
# 200 reads of 16000 sectors, 500 writes of 40000, over 2 s.
printf '   8       0 sda 1000 100 80000 5000 2000 200 160000 9000 2 12000 14000 10 1 800 50 300 600\n' \
    >"$C/0/proc/diskstats"
printf '   8       0 sda 1200 100 96000 5400 2500 200 200000 10000 1 13000 15400 10 1 800 50 300 600\n' \
    >"$C/1/proc/diskstats"
# A writer of 8 MiB in the window.
mkproc "$C/0/proc" 4242 writer 100 10 0 1048576 0 0 2097152 0 20
mkproc "$C/1/proc" 4242 writer 100 10 0 9437184 0 0 10485760 0 40
psi() {
	printf 'some avg10=0.00 avg60=0.00 avg300=0.00 total=%s\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=%s\n' "$2" "$3" >"$1"
}
psi "$C/0/proc/pressure/io" 1000000 500000
psi "$C/1/proc/pressure/io" 1500000 700000
psi "$C/0/sys/fs/cgroup/io.pressure" 1000000 500000
psi "$C/1/sys/fs/cgroup/io.pressure" 1500000 700000
psi "$C/0/sys/fs/cgroup/box/io.pressure" 0 0
psi "$C/1/sys/fs/cgroup/box/io.pressure" 200000 100000
# A setting changed between the samples: dqueue shows the last.
echo 64 >"$C/0/sys/block/sda/queue/nr_requests"
echo 256 >"$C/1/sys/block/sda/queue/nr_requests"
printf 'format 1\nboot_id %s\nsamples 2\nuptime0 1000000000000\nuptime1 1002000000000\ntime0 %s\ntime1 %s\nwindow_ns 2000000000\n' \
    "$BOOT" "$T0" "$T1" >"$C/capture/meta"
# The same samples as two one-sample captures, for -f OLD -f NEW (of
# one boot: a pair of two boots is refused).
for i in 0 1; do
	mkdir -p "$TRASH/c$i/capture"
	cp -R "$C/$i" "$TRASH/c$i/0"
	printf 'format 1\nboot_id %s\nsamples 1\nuptime0 100%s000000000\ntime0 %s\nwindow_ns 0\n' \
	    "$BOOT" $((i * 2)) "$(eval echo \$T$i)" >"$TRASH/c$i/capture/meta"
done

# dxstat: the window only, as -f over snapshots of the same counters.
dxstat -R "$C" -o tsv -H >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "dxstat -R CAPTURE: exit 0"
is "$(wc -l <"$TRASH/out")" 1 "dxstat -R CAPTURE: one report (no since-boot one)"
is "$(cut -f1-4,9,10,24 "$TRASH/out")" \
    "$(printf '1700000002.000\tsda\t100.00\t4000.00\t250.00\t10000.00\t50.00')" \
    "dxstat -R CAPTURE: the window's rates, dated time1"
dxstat -s -R "$C/0" >"$TRASH/s0"
dxstat -s -R "$C/1" >"$TRASH/s1"
dxstat -f "$TRASH/s0" -f "$TRASH/s1" -o tsv -H >"$TRASH/snap"
is "$(cut -f2- "$TRASH/out")" "$(cut -f2- "$TRASH/snap")" \
    "dxstat -R CAPTURE: as -f over snapshots of its samples"
is "$(dxstat -R "$C" -y -o tsv -H)" "$(cat "$TRASH/out")" "dxstat -y -R CAPTURE: the same"
test_must_fail 2 dxstat -R "$C" 1 1 2>"$TRASH/err"
is "$?" 0 "dxstat -R CAPTURE 1 1: a usage error"
ok "dxstat -R CAPTURE 1 1: says why" grep -q "a capture reports its own window: no interval" "$TRASH/err"
is "$(dxstat -s -R "$C" | sed -n 1,2p | tr '\n' ' ')" \
    "uptime 1002.000000000 time 1700000002.000000000 " \
    "dxstat -s -R CAPTURE: the last sample, dated time1"
is "$(dxstat -R "$TRASH/c1" -o tsv -H | cut -f2-)" \
    "$(dxstat -R "$C/1" -o tsv -H | cut -f2-)" \
    "dxstat -R one-sample CAPTURE: since boot, as a copied tree"
is "$(dxstat -R "$TRASH/c1" -o tsv -H | cut -f1)" 1700000002.000 \
    "dxstat -R one-sample CAPTURE: dated time0"
is "$(dxstat -f "$TRASH/c0" -f "$TRASH/c1" -o tsv -H)" "$(cat "$TRASH/out")" \
    "dxstat -f OLD -f NEW: the window between two captures"
test_must_fail 1 dxstat -f "$TRASH/c1" -f "$TRASH/c0" 2>"$TRASH/err"
is "$?" 0 "dxstat -f NEW -f OLD: exit 1"
ok "dxstat -f NEW -f OLD: says why" grep -q "the second was not taken after the first" "$TRASH/err"
mkdir -p "$TRASH/other/capture"
cp -R "$TRASH/c1/0" "$TRASH/other/0"
sed "s/^boot_id .*/boot_id 00000000-0000-0000-0000-000000000000/" \
    "$TRASH/c1/capture/meta" >"$TRASH/other/capture/meta"
test_must_fail 1 dxstat -f "$TRASH/c0" -f "$TRASH/other" 2>"$TRASH/err"
is "$?" 0 "dxstat -f OLD -f NEW of another boot: exit 1"
ok "dxstat -f OLD -f NEW of another boot: says why" grep -q "captures of different boots" "$TRASH/err"
# A side's meta edited by hand: checked as -R checks it, the side named.
mkdir -p "$TRASH/fmt2/capture" "$TRASH/win1/capture"
cp -R "$TRASH/c0/0" "$TRASH/fmt2/0"
sed 's/^format .*/format 2/' "$TRASH/c0/capture/meta" >"$TRASH/fmt2/capture/meta"
test_must_fail 1 dxstat -R "$TRASH/fmt2" 2>"$TRASH/err.R"
is "$?" 0 "dxstat -R with meta format 2: exit 1"
test_must_fail 1 dxstat -f "$TRASH/fmt2" -f "$TRASH/c1" 2>"$TRASH/err"
is "$?" 0 "dxstat -f OLD -f NEW, OLD's meta format 2: exit 1"
is "$(cat "$TRASH/err")" \
    "dxstat: -f OLD -f NEW: $TRASH/fmt2: capture/meta: format 2: this version reads format 1" \
    "dxstat -f OLD -f NEW, OLD's meta format 2: says so, naming OLD"
ok "the reason -R gives" grep -q "capture/meta: format 2: this version reads format 1" "$TRASH/err.R"
cp -R "$TRASH/c1/0" "$TRASH/win1/0"
sed 's/^window_ns .*/window_ns 5/' "$TRASH/c1/capture/meta" >"$TRASH/win1/capture/meta"
tar --format=ustar -cf "$TRASH/win1.cap" -C "$TRASH/win1" 0 capture ||
    fail "tar win1.cap"
test_must_fail 1 dwho -f "$TRASH/c0" -f "$TRASH/win1.cap" 2>"$TRASH/err"
is "$?" 0 "dwho -f OLD -f NEW.cap, NEW's meta window_ns 5 of one sample: exit 1"
is "$(cat "$TRASH/err")" \
    "dwho: -f OLD -f NEW: $TRASH/win1.cap: capture/meta: window_ns 5 in a capture of one sample" \
    "dwho -f OLD -f NEW.cap, NEW's meta edited: says so, naming NEW"
test_must_fail 1 dwho -f "$TRASH/c0" -f "$TRASH/nothing" 2>"$TRASH/err"
is "$?" 0 "dwho -f OLD -f MISSING: exit 1"
ok "dwho -f OLD -f MISSING: names it" grep -q "nothing" "$TRASH/err"
test_must_fail 2 dxstat -f "$TRASH/c0" -f "$TRASH/s1" 2>"$TRASH/err"
is "$?" 0 "dxstat -f CAPTURE -f SNAPSHOT: a usage error"

# dwho: 8 MiB written over 2 s.
dwho -R "$C" -o tsv -H -O pid,kB_wr/s,kB_wchar/s,syscw/s >"$TRASH/out"
is "$(cat "$TRASH/out")" "$(printf '4242\t4096.00\t4096.00\t10.00')" \
    "dwho -R CAPTURE: the window's rates"
is "$(dwho -R "$C" -o tsv -H -O time)" 1700000002.000 "dwho -R CAPTURE: dated time1"
is "$(dwho -f "$TRASH/c0" -f "$TRASH/c1" -o tsv -H -O pid,kB_wr/s,kB_wchar/s,syscw/s)" \
    "$(cat "$TRASH/out")" "dwho -f OLD -f NEW: the same"
test_must_fail 2 dwho -R "$C" 2 1 2>/dev/null
is "$?" 0 "dwho -R CAPTURE 2 1: a usage error"

# dpsi: 0.5 s and 0.2 s of stall over 2 s; the cgroup's 0.2 and 0.1.
is "$(dpsi -R "$C" -r io -o tsv -H -O time,kind,stall% | tr '\t\n' ', ')" \
    "1700000002.000,some,25.00 1700000002.000,full,10.00 " \
    "dpsi -R CAPTURE: the window's shares, dated time1"
is "$(dpsi -R "$C" -r io -C -o tsv -H -O cgroup,kind,stall% | tr '\t\n' ', ')" \
    "/box,some,10.00 /box,full,5.00 " "dpsi -C -R CAPTURE: per cgroup"
is "$(dpsi -f "$TRASH/c0" -f "$TRASH/c1" -r io -o tsv -H -O kind,stall% | tr '\t\n' ', ')" \
    "some,25.00 full,10.00 " "dpsi -f OLD -f NEW: the same"
test_must_fail 2 dpsi -R "$C" --wait io:some:150ms/2s 2>"$TRASH/err"
is "$?" 0 "dpsi --wait -R CAPTURE: a usage error"
ok "dpsi --wait -R CAPTURE: says why" grep -q "holds only the past" "$TRASH/err"

# dqueue and ddeleted: the last sample.
is "$(dqueue -R "$C" -o tsv -H -O device,nr_requests sda)" "$(printf 'sda\t256')" \
    "dqueue -R CAPTURE: the last sample's settings"
D=$TRASH/dcap
mkdir -p "$D/capture" "$D/0" "$D/1/proc"
printf 'format 1\nsamples 2\n' >"$D/capture/meta"
ddeleted -R "$D" -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "ddeleted -R CAPTURE: reads sample 1 (sample 0 has no proc)"
is "$(ls "$TRASH/tmp")" "" "no pair directory left behind"

# Live: a capture around a writer of exactly 8 MiB (O_DIRECT), compared
# with what the same tools compute over the same counters.
dd if=/dev/zero of="$TRASH/probe" bs=4096 count=1 oflag=direct 2>/dev/null ||
    skip_all "O_DIRECT writes refused under $TRASH"
[ -r /proc/self/io ] || skip_all "no /proc/PID/io (task I/O accounting)"
mkfifo "$TRASH/fifo"
dd if="$TRASH/fifo" of="$TRASH/big" bs=1M iflag=fullblock oflag=direct \
    2>/dev/null &
writer=$!
at_exit "kill $writer 2>/dev/null"
exec 3>"$TRASH/fifo"
wb() { awk '/^write_bytes/ { print $2 }' "/proc/$writer/io"; }
L=$TRASH/live
MKCAP_PIDS=$writer
w0=$(wb)
mksample "$L" 0
head -c 8388608 /dev/zero >&3
i=0
while [ "$(($(wb) - w0))" -lt 8388608 ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 0.2
mksample "$L" 1
mkmeta "$L"
exec 3>&-
wait $writer
win=$(awk '$1 == "window_ns" { print $2 }' "$L/capture/meta")
got=$(dwho -R "$L" -a -p "$writer" -o tsv -H -O kB_wr/s)
want=$(awk -v w="$win" 'BEGIN { printf "%.2f\n", 8192 / (w / 1e9) }')
ok "live: dwho -R CAPTURE: 8 MiB over the window ($got, want $want kB/s)" \
    awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; if (d < 0) d = -d
	exit !(w > 0 && d <= w * 0.02) }'
dxstat -s -R "$L/0" >"$TRASH/l0"
dxstat -s -R "$L/1" >"$TRASH/l1"
is "$(dxstat -R "$L" -a -o tsv -H | cut -f2-)" \
    "$(dxstat -f "$TRASH/l0" -f "$TRASH/l1" -a -o tsv -H | cut -f2-)" \
    "live: dxstat -R CAPTURE: as -f over snapshots of its samples"
# The disk that wrote most in the window (a whole disk: in sys/block).
dev=$(awk 'FNR == 1 { f++ } { n[f, $3] = $8; name[$3] = 1 }
    END { for (d in name) if (system("test -d '"$L"'/1/sys/block/" d) == 0 &&
	(n[2, d] - n[1, d]) >= best) { best = n[2, d] - n[1, d]; b = d }
	print b }' "$L/0/proc/diskstats" "$L/1/proc/diskstats")
got=$(dxstat -R "$L" -a -o tsv -H -O device,w/s "$dev" | cut -f2)
want=$(awk -v d="$dev" -v w="$win" 'FNR == 1 { f++ } $3 == d { n[f] = $8 }
    END { printf "%.2f\n", (n[2] - n[1]) / (w / 1e9) }' \
    "$L/0/proc/diskstats" "$L/1/proc/diskstats")
is "$got" "$want" "live: dxstat -R CAPTURE: $dev's w/s from the two diskstats"
is "$(dxstat -R "$L" -a -o tsv -H -O time "$dev")" \
    "$(awk '$1 == "time1" { n = length($2)
	print substr($2, 1, n - 9) "." substr($2, n - 8, 3) }' "$L/capture/meta")" \
    "live: dxstat -R CAPTURE: dated time1"
if [ -r "$L/0/proc/pressure/io" ]; then
	got=$(dpsi -R "$L" -r io -o tsv -H -O kind,stall% | tr '\t\n' ', ')
	want=$(awk -v w="$win" 'FNR == 1 { f++ }
	    { split($5, t, "="); v[f, $1] = t[2] }
	    END { printf "some,%.2f full,%.2f \n",
		(v[2, "some"] - v[1, "some"]) / (w / 1e3) * 100,
		(v[2, "full"] - v[1, "full"]) / (w / 1e3) * 100 }' \
	    "$L/0/proc/pressure/io" "$L/1/proc/pressure/io")
	is "$got" "$want" "live: dpsi -R CAPTURE: the shares of the two io files"
else
	skip "live: dpsi -R CAPTURE" "no /proc/pressure/io"
fi
