#!/bin/sh
# make check: alone (its make install rewrites the tree's libdiskstat.pc, which t/0050 installs)
# doc/examples/*.c built by "make examples" against a make install in a
# scratch DESTDIR alone, then run over trees that switch to a second
# sample while each program sleeps its second (as t/3002 does): their
# figures equal the ones worked out by hand below and dxstat's and
# dpsi's on the same trees.  libdiskstat.3 shows the same programs.
. "${0%/*}/lib.sh"
need_prog make cc
[ -f "$TOP/lib/libdiskstat.a" ] || skip_all "lib/libdiskstat.a not built"
EX=$TRASH/ex

make -s -C "$TOP" examples EXDIR="$EX" >"$TRASH/log" 2>&1
st=$?
is "$st" 0 "make examples"
[ $st -eq 0 ] || sed 's/^/# /' "$TRASH/log"
ok "compiled against the installed header only (no -Ilib)" \
    eval "grep -q ' -I$EX/root/usr/include ' '$TRASH/log' && ! grep -q -- '-Ilib' '$TRASH/log'"
for e in rawait iopsi; do
	ok "$e built" test -x "$EX/$e"
	n=$(wc -l <"$TOP/doc/examples/$e.c")
	ok "$e.c: $n lines, at most 80" test "$n" -le 80
done
# libdiskstat.3 shows each program as it is (roff's \e a backslash),
# after a comment line naming its file.
for e in rawait iopsi; do
	awk -v f="doc/examples/$e.c" '
	    on && /^\.Ed$/ { exit }
	    on == 2 { print }
	    on == 1 { on = 2 }
	    index($0, ".\\\" " f ",") == 1 { on = 1 }' "$TOP/doc/libdiskstat.3" |
	    sed 's/\\e/\\/g' >"$TRASH/man.$e.c"
	ok "libdiskstat.3 EXAMPLES: doc/examples/$e.c as it is" \
	    test_cmp "$TOP/doc/examples/$e.c" "$TRASH/man.$e.c"
done
[ -x "$EX/rawait" ] && [ -x "$EX/iopsi" ] || skip_all "the examples did not build"

# A tree whose proc points through s/cur at sample A or B; the links
# are relative, as a root resolves every link inside itself.
mktree() {	# DIR
	mkdir -p "$1/s/A/proc/pressure" "$1/s/B/proc/pressure"
	ln -s A "$1/s/cur"
	ln -s s/cur/proc "$1/proc"
	echo "1000.00 1900.00" >"$1/s/A/proc/uptime"
	echo "1001.00 1901.00" >"$1/s/B/proc/uptime"
}
swap_to() {	# DIR SAMPLE
	ln -s "$2" "$1/s/cur.new" && mv -T "$1/s/cur.new" "$1/s/cur"
}
# run TREE NAME CMD...: CMD in the background, the tree switched to B
# half a second in (each program sleeps one second between its samples).
run() {
	_tr=$1 _n=$2
	shift 2
	swap_to "$_tr" A
	"$@" >"$TRASH/$_n.out" 2>"$TRASH/$_n.err" &
	_p=$!
	sleep 0.5
	swap_to "$_tr" B
	wait $_p
	echo $? >"$TRASH/$_n.rc"
}

# r_await = read ticks grown / reads grown, in ms.
D=$TRASH/disks
mktree "$D"
c17() { printf '%4d %7d %s %s 0 0 0 0 0 0 0 0\n' "$@"; }
{
	c17 8 0 sda "1000 100 80000 5000 2000 200 160000 9000 0"
	c17 8 16 sdb "7 0 56 70 0 0 0 0 0"
	printf '   8       1 sda1 900 72000 1800 144000\n'
	c17 259 0 nvme0n1 "5000 0 400000 2500 3000 0 240000 6000 0"
	printf ' 253       1 dm-1 20 0 160 10 0 0 0 0 0 10 10\n'
	c17 8 32 sdc "5000 0 40000 4294967000 0 0 0 0 0"
	c17 8 48 sdd "5000 0 40000 9000 0 0 0 0 0"
	c17 7 0 loop0 "1 0 8 1 0 0 0 0 0"
} >"$D/s/A/proc/diskstats"
{
	c17 8 0 sda "1030 100 80240 5300 2000 200 160000 9000 0"
	c17 8 16 sdb "7 0 56 70 5 0 40 9 0"
	printf '   8       1 sda1 930 72240 1800 144000\n'
	c17 259 0 nvme0n1 "5200 0 401600 2600 3000 0 240000 6000 0"
	printf ' 253       1 dm-1 24 0 192 13 0 0 0 0 0 13 13\n'
	c17 8 32 sdc "5004 0 40032 200 0 0 0 0 0"
	c17 8 48 sdd "10 0 80 30 0 0 0 0 0"
	c17 8 64 sde "9 0 72 90 0 0 0 0 0"
} >"$D/s/B/proc/diskstats"
# sda: 300 ms over 30 reads; sdb: writes only; sda1: a 4-value line has
# no ticks; nvme0n1: 100/200; dm-1 (11 values): 3/4; sdc: its ms counter
# wrapped at 2^32, 496/4; sdd restarted (reads went back) and sde came
# in the second: counted from zero, 30/10 and 90/9; loop0 went away.
printf '%s\n' 'sda 10.00' 'sdb -' 'sda1 -' 'nvme0n1 0.50' 'dm-1 0.75' \
    'sdc 124.00' 'sdd 3.00' 'sde 10.00' >"$TRASH/want"
run "$D" rawait "$EX/rawait" "$D"
is "$(cat "$TRASH/rawait.rc")" 0 "rawait: exit 0"
is "$(cat "$TRASH/rawait.err")" "" "rawait: no message"
ok "rawait: r_await of each device that has an interval, as worked out" \
    test_cmp "$TRASH/want" "$TRASH/rawait.out"

# dxstat's r_await over the same two samples (its second report: B's
# eight devices), for the devices where a read completed.
run "$D" dxstat dxstat -R "$D" -p -o tsv -O device,r_await 1 2
is "$(cat "$TRASH/dxstat.rc")" 0 "dxstat over the same tree: exit 0"
tail -n 8 "$TRASH/dxstat.out" | awk -F'\t' '$2 != "-" && $2 != "0.00" { print $1, $2 }' |
    sort >"$TRASH/dx"
grep -v ' -$' "$TRASH/rawait.out" | sort >"$TRASH/ra"
is "$(wc -l <"$TRASH/dx")" 6 "dxstat: the six devices with reads"
ok "rawait's r_await equals dxstat's where reads completed" \
    test_cmp "$TRASH/dx" "$TRASH/ra"

# The io stall share: stall microseconds grown over the second.
P=$TRASH/psi
mktree "$P"
printf 'some avg10=1.00 avg60=2.00 avg300=3.00 total=1000000\nfull avg10=0.50 avg60=1.00 avg300=1.50 total=500000\n' \
    >"$P/s/A/proc/pressure/io"
printf 'some avg10=9.00 avg60=2.00 avg300=3.00 total=1250000\nfull avg10=5.50 avg60=1.00 avg300=1.50 total=600000\n' \
    >"$P/s/B/proc/pressure/io"
# some: 250000 us of 1 s; full: 100000 us.
run "$P" iopsi "$EX/iopsi" "$P"
is "$(cat "$TRASH/iopsi.rc")" 0 "iopsi: exit 0"
is "$(cat "$TRASH/iopsi.err")" "" "iopsi: no message"
is "$(cat "$TRASH/iopsi.out" | tr '\n' ' ')" "some 25.00 full 10.00 " \
    "iopsi: some 25.00, full 10.00, as worked out"
# dpsi's one report after an interval: a header, some, full.
run "$P" dpsi dpsi -R "$P" -r io -o tsv -O kind,stall% 1 1
is "$(cat "$TRASH/dpsi.rc")" 0 "dpsi over the same tree: exit 0"
is "$(sed 1d "$TRASH/dpsi.out" | tr '\t\n' '  ')" "$(cat "$TRASH/iopsi.out" | tr '\n' ' ')" \
    "iopsi's shares equal dpsi's stall%"

# A kernel without io's "full" line (before 5.13 cpu had none; a
# captured file may lack it): "-" for it, not a zero.
sed -i '/^full/d' "$P/s/A/proc/pressure/io" "$P/s/B/proc/pressure/io"
run "$P" nofull "$EX/iopsi" "$P"
is "$(cat "$TRASH/nofull.rc"):$(cat "$TRASH/nofull.out" | tr '\n' ' ')" "0:some 25.00 full - " \
    "iopsi without a full line: full -"

# Failures: a message and exit 1 (2 for a usage error), never a crash.
for e in rawait iopsi; do
	test_must_fail 2 "$EX/$e" a b 2>"$TRASH/err"
	is "$?:$(cat "$TRASH/err")" "0:usage: $e [root]" "$e: two operands: usage, exit 2"
	test_must_fail 1 "$EX/$e" "$TRASH/nosuch" 2>"$TRASH/err"
	is "$?:$(cat "$TRASH/err")" "0:$e: $TRASH/nosuch: No such file or directory" \
	    "$e: a root that is not there: exit 1"
done
test_must_fail 1 "$EX/rawait" "$P" 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:rawait: $P/proc/diskstats: No such file or directory" \
    "rawait: a tree without proc/diskstats: exit 1"
mkdir -p "$TRASH/empty/proc"
test_must_fail 1 "$EX/iopsi" "$TRASH/empty" 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:iopsi: $TRASH/empty/proc/pressure/io: No such file or directory" \
    "iopsi: a tree without proc/pressure/io: exit 1"
# Both at once (a second each): a tree that does not change, and
# output to a full disk.
swap_to "$D" A
"$EX/rawait" "$D" >/dev/null 2>"$TRASH/still.err" &
p1=$!
run "$P" full sh -c 'exec "$0" "$1" >/dev/full' "$EX/iopsi" "$P"
wait $p1
is "$?:$(cat "$TRASH/still.err")" "1:rawait: the uptime did not advance" \
    "rawait: a tree whose uptime stands still: exit 1"
is "$(cat "$TRASH/full.rc"):$(cat "$TRASH/full.err")" "1:iopsi: write error: No space left on device" \
    "iopsi >/dev/full: write error, exit 1"

# The running system: a line per device of proc/diskstats, a number of
# ms or "-"; io pressure, where the kernel has it, two percentages.
"$EX/rawait" >"$TRASH/live" 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:" "rawait on the running system: exit 0"
ok "rawait on the running system: NAME R_AWAIT_MS lines" \
    awk 'NF != 2 || $2 !~ /^(-|[0-9]+\.[0-9][0-9])$/ { bad = 1; print "# " $0 }
	 END { exit bad || NR == 0 }' "$TRASH/live"
if [ -r /proc/pressure/io ]; then
	"$EX/iopsi" >"$TRASH/live" 2>"$TRASH/err"
	is "$?:$(cat "$TRASH/err")" "0:" "iopsi on the running system: exit 0"
	ok "iopsi on the running system: some and full, 0 to 100" \
	    awk '$2 + 0 > 100 || $2 !~ /^[0-9]+\.[0-9][0-9]$/ { bad = 1; print "# " $0 }
		 { k = k $1 " " } END { exit bad || k != "some full " }' "$TRASH/live"
else
	skip "iopsi on the running system" "no /proc/pressure/io"
fi
