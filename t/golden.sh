#!/bin/sh
# t/golden.sh OLD NEW [OUT]: the same output from two builds of the
# tools.  OLD and NEW are directories holding dxstat, dpsi, dwho,
# dqueue and ddeleted (e.g. a base build's cmd/ and this tree's cmd/).
# Every tool is run over the fixture trees of t/fixtures (and over
# trees and snapshot files made from them here) with a spread of
# options; stdout, stderr and the exit status of each run of NEW must
# equal OLD's, byte for byte.  Wall-clock times in the output (the
# time column of rows read from a tree) are masked; nothing else is.
# Interval runs over a tree switch it to a second sample while the tool
# sleeps, as t/3002 does.  OUT (default a temporary directory, removed
# unless the runs differ) keeps OUT/old/NAME.{out,err,rc} and
# OUT/new/... for each case.  Exit 0 when all are equal, 1 otherwise.
# Not part of "make check": the lead runs it when merging.
set -u
[ $# -ge 2 ] || { echo "usage: t/golden.sh olddir newdir [outdir]" >&2; exit 2; }
OLD=$(cd "$1" && pwd) || exit 2
NEW=$(cd "$2" && pwd) || exit 2
for t in dxstat dpsi dwho dqueue ddeleted; do
	for d in "$OLD" "$NEW"; do
		[ -x "$d/$t" ] || { echo "golden: $d/$t: not built" >&2; exit 2; }
	done
done
T=$(cd "${0%/*}" && pwd)
FIX=$T/fixtures
LC_ALL=C
TZ=UTC
export LC_ALL TZ
unset DISKSTAT_ROOT
if [ $# -ge 3 ]; then
	W=$3
	mkdir -p "$W" || exit 2
	W=$(cd "$W" && pwd)
	keep=1
else
	W=$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXX") || exit 2
	keep=
fi
rm -rf "$W/old" "$W/new" "$W/in"
mkdir -p "$W/old" "$W/new" "$W/in"
I=$W/in
# Unix seconds of today (first five digits of now) are masked.
NOWP=$(date +%s | cut -c1-5)

# ---- inputs made from the fixtures ----

# Snapshot files: each diskstats fixture behind an uptime line.
n=0
for f in "$FIX"/dxstat/real/*.diskstats; do
	n=$((n + 1))
	{ echo "uptime $((1000 + n)).00"; cat "$f"; } >"$I/real$n"
done
for k in 1 2 3 4 5 6 7; do
	{ printf 'uptime %s\n' "$(cut -d' ' -f1 "$FIX/dxstat/crafted/up$k")"
	  cat "$FIX/dxstat/crafted/ds$k"; } >"$I/crafted$k"
done
for k in 1 2 3 4 5 6 6b 7; do
	{ printf 'uptime %s\n' "$(cut -d' ' -f1 "$FIX/dxstat/sysstat/root$k/proc/uptime")"
	  cat "$FIX/dxstat/sysstat/root$k/proc/diskstats"; } >"$I/sysstat$k"
done
# Order cases (as t/1010 reaches them): 300 devices, some gone, some
# new, two swapped, the whole order reversed, a device listed twice.
gen() {
	awk -v names="$1" -v seed="$2" 'BEGIN {
		n = split(names, a, " ")
		for (i = 1; i <= n; i++) {
			s = seed * 7919 + i * 104729
			printf "%4d %7d %s", 259, i, a[i]
			for (k = 1; k <= 17; k++)
				printf " %d", (k == 9) ? k % 3 : s * k + (s % 977) * k * k
			printf "\n"
		}
	}'
}
all=$(awk 'BEGIN { for (i = 0; i < 300; i++) printf " d%d", i }')
new=$(echo "$all" | awk '{
	printf "new0"
	for (i = 1; i <= NF; i++) {
		if ($i == "d0" || $i == "d150" || $i == "d299" || $i == "d11")
			continue
		if ($i == "d10") { printf " d11 d10"; continue }
		if ($i == "d200") printf " new1"
		if ($i == "d250") printf " d20"
		printf " %s", $i
	}
	printf " new2 new2\n"
}')
rev=$(echo "$all" | awk '{ for (i = NF; i >= 1; i--) printf " %s", $i }')
{ echo "uptime 1000.00"; gen "$all" 1; } >"$I/oa"
{ echo "uptime 1010.00"; gen "$new" 2; } >"$I/ob"
{ echo "uptime 1010.00"; gen "$rev" 3; } >"$I/oc"
sed '40a\
8 0 broken 1 2 x' "$I/oa" >"$I/oad"
sed '70a\
not a diskstats line at all' "$I/ob" >"$I/obd"
{ echo "uptime 900.00"; gen "$all" 4; } >"$I/boot"
{ echo "8 99 sdq 1 0 8 1 1 0 8 1 0 2 2"; cat "$I/oa"; } >"$I/pa2"

# dxstat -R over a tree made of a snapshot (sysstat root1 + diskstats).
mk_dxtree() {	# DIR DISKSTATS UPTIME
	mkdir -p "$1/proc"
	cp "$2" "$1/proc/diskstats"
	echo "$3" >"$1/proc/uptime"
}

# A tree whose proc and sys point through "cur" at sample A or B.
mk_swaptree() {	# DIR
	mkdir -p "$1/A" "$1/B" "$1/t"
	ln -s "$1/A" "$1/cur"
}
swap_to() {	# DIR SAMPLE
	ln -s "$1/$2" "$1/cur.new" && mv -T "$1/cur.new" "$1/cur"
}

# dxstat interval tree: root1 then root2 of sysstat's tests.
X=$I/dx
mk_swaptree "$X"
cp -r "$FIX/dxstat/sysstat/root1/proc" "$X/A/"
cp -r "$FIX/dxstat/sysstat/root2/proc" "$X/B/"
cp -r "$FIX/dxstat/tree/sys" "$X/A/" 2>/dev/null
cp -r "$FIX/dxstat/tree/sys" "$X/B/" 2>/dev/null
ln -s "$X/cur/proc" "$X/t/proc"
[ -d "$X/A/sys" ] && ln -s "$X/cur/sys" "$X/t/sys"

# dwho trees (t/3001's and t/3002's processes, cgroups with io.stat).
. "$FIX/dwho/mkproc.sh"
R=$I/who
P=$R/proc
mkdir -p "$P/sys/kernel" "$R/etc"
echo "tester:x:4242:0::/:/bin/sh" >"$R/etc/passwd"
echo "1000.00 1500.00" >"$P/uptime"
echo 1 >"$P/sys/kernel/task_delayacct"
mkproc "$P" 100 dd 50000 250 5120000 1024000 0 10240000 1024000 1000 500
name=$(printf 'tab\there\nnl) (x')
THREADS=2 mkproc "$P" 200 "$name" 90000 0 0 102400 0 0 0 0 0
mkdir -p "$P/200/task/201"
awk 'BEGIN { RS = "\001" } { sub(/ 17 0 0 0 0 /, " 17 0 0 0 1000 "); printf "%s", $0 }' \
    "$P/200/stat" >"$P/200/task/201/stat"
mkproc "$P" 300 idle 50000 0 0 0 0 0 0 0 0
mkproc "$P" 500 bad 50000 0 0 0 0 0 0 0 0
printf '500 (bad' >"$P/500/stat"
mkproc "$P" 600 noio 50000 100 0 0 0 0 0 0 0
echo garbage >"$P/600/io"
echo "0::/box/100" >"$P/600/cgroup"
# equal figures, for the order of ties
mkproc "$P" 700 tie 50000 250 5120000 1024000 0 10240000 1024000 1000 500
mkproc "$P" 701 tie 50000 250 5120000 1024000 0 10240000 1024000 1000 500
mkproc "$P" 702 tie2 50000 250 5120000 1024000 0 10240000 1024000 1000 500

# dwho interval tree: processes and cgroups' io.stat switch A -> B.
V=$I/whoi
mk_swaptree "$V"
for s in A B; do
	mkdir -p "$V/$s/proc/sys/kernel" "$V/$s/cg/box" "$V/$s/cg/box/sub" \
	    "$V/$s/cg/other"
	echo 1 >"$V/$s/proc/sys/kernel/task_delayacct"
	printf 'cpu  100 0 100 1000 0 0 0 0 0 0\n' >"$V/$s/proc/stat"
	for c in box box/sub other; do
		echo io >"$V/$s/cg/$c/cgroup.controllers"
	done
done
echo "1000.00 1500.00" >"$V/A/proc/uptime"
echo "1003.00 1500.00" >"$V/B/proc/uptime"
mkproc "$V/A/proc" 100 dd 50000 250 5120000 1024000 0 10240000 1024000 1000 500
mkproc "$V/B/proc" 100 dd 50000 310 6120001 1524000 4096 10250000 1524000 1010 700
mkproc "$V/A/proc" 200 x 50000 0 0 0 0 0 0 0 0
mkproc "$V/B/proc" 200 x 50000 0 1234567 0 333 1234567 0 20 0
mkproc "$V/A/proc" 300 old 50000 0 1000000000 0 0 1000000000 0 9 0
mkproc "$V/B/proc" 300 new 100050 0 3072 0 0 3072 0 1 0
mkproc "$V/B/proc" 600 late 99300 0 10240 0 0 10240 0 10 0
mkproc "$V/A/proc" 400 gone 50000 0 1000 0 0 0 0 0 0
mkproc "$V/B/proc" 500 born 100100 5 6144 0 0 6144 0 2 0
mkproc "$V/A/proc" 800 same 50000 5 6144 0 0 6144 0 2 0
mkproc "$V/B/proc" 800 same 50000 5 6144 0 0 6144 0 2 0
mkproc "$V/A/proc" 801 same 50000 5 6144 0 0 6144 0 2 0
mkproc "$V/B/proc" 801 same 50000 5 6144 0 0 6144 0 2 0
for s in A B; do
	mkdir -p "$V/$s/proc/self"
	echo "30 1 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw" \
	    >"$V/$s/proc/self/mountinfo"
done
# box: grows; box/sub: reset (counters went back); other: a device
# added mid-interval and a line without keys.
printf '8:0 rbytes=4096 wbytes=8192 rios=1 wios=2 dbytes=0 dios=0\n' \
    >"$V/A/cg/box/io.stat"
printf '8:0 rbytes=8192 wbytes=16384 rios=3 wios=5 dbytes=512 dios=1\n' \
    >"$V/B/cg/box/io.stat"
printf '8:0 rbytes=1048576 wbytes=1048576 rios=100 wios=100 dbytes=0 dios=0\n' \
    >"$V/A/cg/box/sub/io.stat"
printf '8:0 rbytes=4096 wbytes=0 rios=1 wios=0 dbytes=0 dios=0\n' \
    >"$V/B/cg/box/sub/io.stat"
printf '8:0 rbytes=0 wbytes=0 rios=0 wios=0 dbytes=0 dios=0\n' \
    >"$V/A/cg/other/io.stat"
printf '8:0 rbytes=4096 wbytes=0 rios=1 wios=0 dbytes=0 dios=0\n8:16 rbytes=409600 wbytes=0 rios=10 wios=0 dbytes=0 dios=0\n253:0\n' \
    >"$V/B/cg/other/io.stat"
ln -s "$V/cur/proc" "$V/t/proc"
mkdir -p "$V/t/sys/fs"
ln -s "$V/cur/cg" "$V/t/sys/fs/cgroup"

# dpsi interval and wait tree: pressure totals switch A -> B.
S=$I/psi
mk_swaptree "$S"
for s in A B; do
	mkdir -p "$S/$s/proc/pressure"
done
echo "1000.00 1500.00" >"$S/A/proc/uptime"
echo "1002.00 1500.00" >"$S/B/proc/uptime"
for r in io memory cpu; do
	printf 'some avg10=1.00 avg60=2.00 avg300=3.00 total=1000000\nfull avg10=0.50 avg60=1.00 avg300=1.50 total=500000\n' \
	    >"$S/A/proc/pressure/$r"
done
printf 'some avg10=9.00 avg60=2.00 avg300=3.00 total=1500000\nfull avg10=5.50 avg60=1.00 avg300=1.50 total=700000\n' \
    >"$S/B/proc/pressure/io"
printf 'some avg10=1.00 avg60=2.00 avg300=3.00 total=1000000\nfull avg10=0.50 avg60=1.00 avg300=1.50 total=500000\n' \
    >"$S/B/proc/pressure/memory"
printf 'some avg10=1.00 avg60=2.00 avg300=3.00 total=900\nfull avg10=0.50 avg60=1.00 avg300=1.50 total=500000\n' \
    >"$S/B/proc/pressure/cpu"
ln -s "$S/cur/proc" "$S/t/proc"

# ddeleted trees: t/5000's damaged one, and processes holding deleted
# files described by the fixtures' maps and fdinfo.
D=$I/del
mkdir -p "$D/proc/42" "$D/proc/43/fd" "$D/proc/self"
printf 'garbage\n' >"$D/proc/42/maps"
printf '(\n' >"$D/proc/42/stat"
printf '7f00-7f01 r--s 00000000 fe:00 5 /x (deleted)\n' >"$D/proc/43/maps"
cp "$FIX/ddeleted/maps-deleted" "$D/proc/42/maps" 2>/dev/null

# ---- running the cases ----

ncase=0
ndiff=0
mask() {
	sed -E "s/(^|[^0-9])$NOWP[0-9]{5}(\.[0-9]+)?/\1TIME/g; s/[0-9]{2}:[0-9]{2}:[0-9]{2}/HH:MM:SS/g"
}
run1() {	# DIR NAME TOOL ARGS... (stdin from $GIN)
	_d=$1 _n=$2 _t=$3
	shift 3
	"$_d/$_t" "$@" <"${GIN:-/dev/null}" >"$W/$_k/$_n.raw" 2>"$W/$_k/$_n.err"
	echo $? >"$W/$_k/$_n.rc"
	mask <"$W/$_k/$_n.raw" >"$W/$_k/$_n.out"
	rm -f "$W/$_k/$_n.raw"
}
compare() {	# NAME
	ncase=$((ncase + 1))
	for x in out err rc; do
		if ! cmp -s "$W/old/$1.$x" "$W/new/$1.$x"; then
			ndiff=$((ndiff + 1))
			echo "golden: $1.$x differs:"
			diff "$W/old/$1.$x" "$W/new/$1.$x" | head -20
			return
		fi
	done
}
# c NAME TOOL ARGS...: run the case with OLD's tool and NEW's.
c() {
	_name=$1
	shift
	_k=old; run1 "$OLD" "$_name" "$@"
	_k=new; run1 "$NEW" "$_name" "$@"
	compare "$_name"
}
# cs NAME TREE AFTER TOOL ARGS...: the tool sleeps over an interval
# while TREE switches from A to B AFTER seconds in.
cs() {
	_name=$1 _tree=$2 _after=$3
	shift 3
	for _k in old new; do
		swap_to "$_tree" A
		if [ $_k = old ]; then _dir=$OLD; else _dir=$NEW; fi
		run1 "$_dir" "$_name" "$@" &
		_pid=$!
		sleep "$_after"
		swap_to "$_tree" B
		wait $_pid
	done
	swap_to "$_tree" A
	compare "$_name"
}

# dxstat: trees, since boot, every format and selection.
for tr in "$FIX/dxstat/tree" "$FIX/generic/tree" "$FIX/prom/tree" \
    "$FIX"/dxstat/sysstat/root*; do
	b=$(echo "${tr#$FIX/}" | tr / _)
	for o in tsv json prom table; do
		c "dx-$b-$o" dxstat -R "$tr" -o $o
	done
	c "dx-$b-p" dxstat -R "$tr" -p -o tsv
	c "dx-$b-pa" dxstat -R "$tr" -p -a -o tsv -H
	c "dx-$b-z" dxstat -R "$tr" -z -o json
	c "dx-$b-N" dxstat -R "$tr" -N -p -o tsv
	c "dx-$b-sel" dxstat -R "$tr" -o tsv 'sd*' 'dm-*' nosuch
	c "dx-$b-s" dxstat -R "$tr" -s
done
# dxstat: snapshot files alone and in pairs.
for f in "$I"/real* "$I"/crafted* "$I"/sysstat*; do
	b=${f##*/}
	c "dx-f1-$b" dxstat -f "$f" -p -a -o tsv
done
for f in "$I"/real*; do
	b=${f##*/}
	c "dx-f2-$b" dxstat -f "$I/real1" -f "$f" -p -a -o tsv
done
k=1
while [ $k -lt 7 ]; do
	for o in tsv json prom; do
		c "dx-crafted$k-$o" dxstat -f "$I/crafted$k" -f "$I/crafted$((k + 1))" -p -a -o $o
	done
	c "dx-crafted$k-z" dxstat -f "$I/crafted$k" -f "$I/crafted$((k + 1))" -z -o tsv
	k=$((k + 1))
done
for p in "1 2" "2 3" "3 4" "4 5" "5 6" "6 6b" "6b 7" "1 7" "7 1"; do
	set -- $p
	c "dx-sysstat$1-$2" dxstat -f "$I/sysstat$1" -f "$I/sysstat$2" -p -a -o tsv
	c "dx-sysstat$1-$2-z" dxstat -f "$I/sysstat$1" -f "$I/sysstat$2" -z -o json
done
for o in tsv json prom; do
	c "dx-order-$o" dxstat -f "$I/oa" -f "$I/ob" -p -a -o $o
done
c "dx-order-damaged" dxstat -f "$I/oad" -f "$I/obd" -p -a -o tsv
c "dx-order-rev" dxstat -f "$I/oa" -f "$I/oc" -p -a -o tsv
c "dx-order-rev-back" dxstat -f "$I/oc" -f "$I/oa" -p -a -o tsv
c "dx-order-boot" dxstat -f "$I/oa" -f "$I/boot" -p -a -o tsv
c "dx-order-same" dxstat -f "$I/oa" -f "$I/oa" -p -a -o tsv
c "dx-order-sel" dxstat -f "$I/oa" -f "$I/ob" -o tsv 'new*' d10 d11 nosuch
GIN=$I/oa c "dx-order-stdin" dxstat -f - -f "$I/ob" -p -a -o tsv
GIN=$I/oc c "dx-order-stdin-rev" dxstat -f - -f "$I/oa" -p -a -o tsv
GIN=$I/ob c "dx-order-stdin-later" dxstat -f "$I/oa" -f - -p -a -o tsv
GIN=$I/oa c "dx-order-stdin1" dxstat -f - -o json
cat "$I/oa" | { GIN=/dev/stdin; _k=old; run1 "$OLD" dx-order-pipe dxstat -f - -f "$I/ob" -p -a -o tsv; }
cat "$I/oa" | { GIN=/dev/stdin; _k=new; run1 "$NEW" dx-order-pipe dxstat -f - -f "$I/ob" -p -a -o tsv; }
compare dx-order-pipe
c "dx-f-missing" dxstat -f "$I/nosuch" -f "$I/oa"
c "dx-f-sameup" dxstat -f "$I/oa" -f "$I/oa" -o tsv
# dxstat: an interval over a tree that changes (sysstat root1 -> root2).
cs "dx-int" "$X" 0.5 dxstat -R "$X/t" -p -a -o tsv 1 2
cs "dx-int-y" "$X" 0.5 dxstat -R "$X/t" -y -z -o json 1 1

# dpsi: every tree, formats, cgroups.
for tr in "$FIX"/dpsi/node_exporter/collector/fixtures "$FIX"/dpsi/prometheus-procfs \
    "$FIX"/dpsi/pcp/qa/linux/* "$FIX"/dpsi/sysstat/tests/root* "$FIX"/dpsi/crafted/* \
    "$FIX/generic/tree" "$FIX/prom/tree"; do
	b=$(echo "${tr#$FIX/}" | tr / _)
	for o in tsv json prom table; do
		c "psi-$b-$o" dpsi -R "$tr" -o $o
	done
	c "psi-$b-r" dpsi -R "$tr" -r io,cpu -o tsv -H
	c "psi-$b-C" dpsi -R "$tr" -C -o tsv
	c "psi-$b-Cn" dpsi -R "$tr" -C -n 2 -r cpu,io -o tsv -H
	c "psi-$b-Cprom" dpsi -R "$tr" -C -o prom
	c "psi-$b-c" dpsi -R "$tr" -c / -o json
done
cs "psi-int" "$S" 0.5 dpsi -R "$S/t" -o tsv 1 1
cs "psi-int-prom" "$S" 0.5 dpsi -R "$S/t" -o prom 1 1
cs "psi-wait" "$S" 0.3 dpsi -R "$S/t" -w io:some:100ms/1s -T 3 -o tsv
cs "psi-wait-full" "$S" 0.3 dpsi -R "$S/t" -w io:full:150ms/500ms -T 3 -o json
cs "psi-wait-cpu" "$S" 0.3 dpsi -R "$S/t" -w cpu:some:100ms/1s -T 1.5 -o tsv
c "psi-wait-timeout" dpsi -R "$S/A" -w io:some:100ms/1s -T 0.5 -o tsv

# dwho: a tree since start, every format, filter and sort.
for o in tsv json prom table; do
	c "who-$o" dwho -R "$R" -o $o
done
c "who-a" dwho -R "$R" -a -o tsv -H
c "who-t" dwho -R "$R" -t -a -o tsv
c "who-l" dwho -R "$R" -l -o tsv
c "who-n1" dwho -R "$R" -n 1 -o tsv -H
c "who-n2" dwho -R "$R" -n 2 -o json
c "who-n3a" dwho -R "$R" -a -n 3 -o tsv
for s in kB_rd/s kB_wr/s %iodelay hit% syscr/s command pid; do
	b=$(echo "$s" | tr -d '/%')
	c "who-s$b" dwho -R "$R" -a -s "$s" -o tsv -H
	c "who-s$b-n" dwho -R "$R" -a -s "$s" -n 2 -o tsv -H
done
c "who-p" dwho -R "$R" -p 200,100,200 -o tsv
c "who-c" dwho -R "$R" -c '^t' -o tsv
c "who-u" dwho -R "$R" -u tester -a -o tsv
c "who-g" dwho -R "$R" -g -o tsv
c "who-cg-tsv" dwho -R "$FIX/dwho/cgroups-root-004" -g -o tsv
c "who-cg-a" dwho -R "$FIX/dwho/cgroups-root-004" -g -a -o tsv
c "who-cg-prom" dwho -R "$FIX/dwho/cgroups-root-004" -g -o prom
c "who-cg-n" dwho -R "$FIX/dwho/cgroups-root-004" -g -n 3 -o json
c "who-cg-G" dwho -R "$FIX/dwho/cgroups-root-004" -g -G iostat -o tsv
cs "who-int" "$V" 1 dwho -R "$V/t" -o tsv 2 1
cs "who-int-a" "$V" 1 dwho -R "$V/t" -a -n 3 -o json 2 1
cs "who-int-l" "$V" 1 dwho -R "$V/t" -a -l -s kB_rd/s -o tsv 2 1
cs "who-int-g" "$V" 1 dwho -R "$V/t" -g -a -o tsv 2 1
cs "who-int-gn" "$V" 1 dwho -R "$V/t" -g -n 2 -o prom 2 1

# dqueue: trees (read only: no --set here).
for tr in "$FIX/dqueue/host" "$FIX/dqueue/bfq" "$FIX/generic/tree" "$FIX/prom/tree"; do
	b=$(echo "${tr#$FIX/}" | tr / _)
	for o in tsv json prom table; do
		c "q-$b-$o" dqueue -R "$tr" -o $o
	done
	c "q-$b-a" dqueue -R "$tr" -a -o tsv
	c "q-$b-aprom" dqueue -R "$tr" -a -o prom
	c "q-$b-sel" dqueue -R "$tr" -o tsv -H 'v*' 'sd*' nosuch
	c "q-$b-check" dqueue -R "$tr" -o tsv --check scheduler=none,nr_requests=64 'v*' 'sd*'
done

# ddeleted: trees.
for tr in "$FIX/ddeleted/node_exporter/collector/fixtures" "$FIX/generic/tree" \
    "$FIX/prom/tree" "$D"; do
	b=$(echo "${tr#$FIX/}" | tr / _)
	for o in tsv json prom table; do
		c "del-$b-$o" ddeleted -R "$tr" -o $o
	done
	c "del-$b-s" ddeleted -R "$tr" -s -o tsv
	c "del-$b-sprom" ddeleted -R "$tr" -s -o prom
	c "del-$b-min" ddeleted -R "$tr" --min-size 1M -o tsv
	c "del-$b-mnt" ddeleted -R "$tr" -s -o tsv /nowhere
done

echo "golden: $ncase cases, $ndiff differ"
if [ "$ndiff" -eq 0 ] && [ -z "$keep" ]; then
	rm -rf "$W"
elif [ "$ndiff" -ne 0 ]; then
	echo "golden: outputs in $W"
fi
[ "$ndiff" -eq 0 ]
