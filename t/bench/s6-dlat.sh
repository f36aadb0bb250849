#!/bin/sh
# Scenario 6: dlat's cost, against the bpftrace one-liner users would
# run instead.  A loop device at its maximum (4 KiB random direct reads
# of a file in the page cache, fio, 2 jobs, 5 s a run): IOPS alone,
# with dlat tracing (all phases, then -p d2c), with bpftrace tracing; the in-kernel time per run
# of each program (BPF_ENABLE_STATS, through t/unit/bpf stats), of
# dlat's full set and of dlat -p d2c, the one-liner's like; dlat's
# user CPU per report and maximum RSS over 100 reports of every disk;
# the floor (programs that only return, on the same tracepoints) and
# -t, -g, -P in the same rounds, each mode's cost over the floor.
# Figures go to the notes (one line each), not to the results table.
SCEN=dlat
. "${0%/*}/lib.sh"
have_tool dlat || exit 0
have_cmd fio || exit 0
[ -x "$TOP/t/unit/bpf" ] || make -s -C "$TOP" t/unit/bpf >/dev/null || exit 0
W=$(mktemp -d /tmp/dlat-bench.XXXXXX) || exit 1
at_exit "rm -rf '$W'"
dd if=/dev/urandom of="$W/img" bs=1M count=256 status=none
dev=$(losetup -f --show "$W/img") || die "no loop device"
at_exit "losetup -d $dev"
n=${dev#/dev/}
echo none >/sys/block/$n/queue/scheduler
cat "$W/img" >/dev/null	# in the page cache: the loop's maximum
kd=$(( $(cut -d: -f1 /sys/block/$n/dev) * 1048576 + $(cut -d: -f2 /sys/block/$n/dev) ))
secs=5
[ "$BENCH_QUICK" = 1 ] && secs=2

iops() {
	fio --name=b --filename="$dev" --rw=randread --bs=4k --direct=1 \
	    --ioengine=psync --numjobs=2 --group_reporting --runtime="$secs" \
	    --time_based --output-format=terse 2>/dev/null |
	    awk -F';' '{ print $8 }'
}

# stats CMD...: CMD traced while the run counters are on; IOPS into
# $W/iops, then "name runs ns" of each of CMD's own programs (found from
# its bpf fds: the machine may run other tracers, other dlats among
# them) into $W/mine.
stats() {
	"$TOP/t/unit/bpf" stats >"$W/stats" &
	_s=$!
	while ! grep -q ready "$W/stats" 2>/dev/null; do sleep 0.05; done
	"$@" >/dev/null 2>&1 &
	_c=$!
	# Until its programs are loaded (bpftrace compiles first: seconds
	# on a loaded machine, which must not fall on fio's run), then 2 s.
	_i=0
	: >"$W/ids"
	while [ ! -s "$W/ids" ] && [ $_i -lt 300 ]; do
		sleep 0.1
		cat /proc/$_c/fdinfo/* 2>/dev/null |
		    awk '/^prog_id:/ { print $2 }' >"$W/ids"
		_i=$((_i + 1))
	done
	sleep 2
	cat /proc/$_c/fdinfo/* 2>/dev/null | awk '/^prog_id:/ { print $2 }' >"$W/ids"
	iops >"$W/iops"
	# The counters first, while the tracer's programs are still loaded.
	kill -INT $_s
	wait $_s
	kill -INT $_c 2>/dev/null
	# bpftrace has been seen to miss a SIGINT, and then a TERM: KILL after 5 s.
	_i=0
	while [ $_i -lt 50 ] &&
	    awk '/^State:/ { exit $2 == "Z" }' /proc/$_c/status 2>/dev/null; do
		sleep 0.1
		_i=$((_i + 1))
	done
	kill -KILL $_c 2>/dev/null
	wait $_c 2>/dev/null
	awk -F'\t' 'FNR == NR { mine[$1] = 1; next } mine[$1] { print $2, $3, $4 }' \
	    "$W/ids" "$W/stats" >"$W/mine"
}

# Exec: run in the background, its pid is bpftrace's (a subshell would
# take the SIGINT with this script's trap).
bt() {
	exec unshare -m sh -c 'mount --make-rprivate / &&
	    { mountpoint -q /sys/kernel/tracing || mount -t tracefs t /sys/kernel/tracing; } &&
	    exec bpftrace -e "tracepoint:block:block_rq_issue /args->dev == '$kd'/ { @s[args->sector] = nsecs; }
	    tracepoint:block:block_rq_complete /args->dev == '$kd' && @s[args->sector]/ {
	    @h = hist(nsecs - @s[args->sector]); delete(@s[args->sector]); }"'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# perread FILE IOPS: "runs ns" of one run's programs into "runs-per-read
# ns-per-read ns-per-run" (the seconds before fio starts add the disks'
# other events, a little).
perread() {
	awk -v d="$2" -v s="$secs" '{ r += $1; t += $2 } END {
	    printf "%.3f %.0f %.0f\n", r / (d * s), t / (d * s), r ? t / r : 0 }' "$1"
}
# summary FILE: the median of each column of FILE's rounds, and the
# spread (lowest-highest) of the ns per read.
summary() {
	awk '{ for (i = 1; i <= NF; i++) v[i, NR] = $i; n = NR; k = NF }
	    END { for (i = 1; i <= k; i++) { m = 0
		for (j = 1; j <= n; j++) a[j] = v[i, j]
		for (j = 2; j <= n; j++) for (l = j; l > 1 && a[l - 1] > a[l]; l--) {
		    t = a[l]; a[l] = a[l - 1]; a[l - 1] = t }
		med[i] = a[int((n + 1) / 2)]; lo[i] = a[1]; hi[i] = a[n] }
	    printf "%d IOPS (%d-%d), %.2f runs and %d ns per read (%d-%d), %d ns per program run", med[1], lo[1], hi[1], med[2], med[3], lo[3], hi[3], med[4] }' "$1"
}
# One round: IOPS and the programs' figures of a tracer into FILE.
round() {
	_f=$1
	shift
	stats "$@"
	_i=$(cat "$W/iops")
	printf '%s %s\n' "$_i" "$(awk '{ print $2, $3 }' "$W/mine" >"$W/m"; perread "$W/m" "$_i")" >>"$_f"
}

# Rounds of alone, dlat (all phases), dlat -p d2c (the one-liner's
# part: issue and completion), bpftrace, interleaved so that the
# machine's other load falls on all alike; medians and spreads.  The
# full set's d2c programs are reported too (their share of its cost).
# A first run warms up.
iops >/dev/null
: >"$W/a"; : >"$W/d"; : >"$W/d1"; : >"$W/b"; : >"$W/dd"
for x in f2 f4 t1 ta t0 g P; do : >"$W/$x"; done
have_bt=0
command -v bpftrace >/dev/null 2>&1 && have_bt=1
rounds=${BENCH_DLAT_ROUNDS:-5}
[ "$BENCH_QUICK" = 1 ] && rounds=3
r=0
while [ $r -lt $rounds ]; do
	iops >>"$W/a"
	stats "$TOOLDIR/dlat" -o tsv "$n"
	_i=$(cat "$W/iops")
	awk '{ print $2, $3 }' "$W/mine" >"$W/m"
	printf '%s %s\n' "$_i" "$(perread "$W/m" "$_i")" >>"$W/d"
	awk '$1 ~ /^dlat_rq_/ { print $2, $3 }' "$W/mine" >"$W/m"
	printf '%s %s\n' "$_i" "$(perread "$W/m" "$_i")" >>"$W/dd"
	round "$W/d1" "$TOOLDIR/dlat" -o tsv -p d2c "$n"
	[ $have_bt = 1 ] && round "$W/b" bt
	# The floor (programs that only return, on dlat's tracepoints: of
	# -p d2c, and of all phases), and -t, -g, -P in the same rounds.
	round "$W/f2" "$TOP/t/unit/bpf" floor block_rq_issue block_rq_complete
	round "$W/f4" "$TOP/t/unit/bpf" floor block_bio_queue block_rq_issue \
	    block_rq_complete block_bio_complete
	round "$W/t1" "$TOOLDIR/dlat" -o tsv -t 10s -p d2c "$n"
	round "$W/ta" "$TOOLDIR/dlat" -o tsv -t 10s "$n"
	round "$W/t0" "$TOOLDIR/dlat" -o tsv -t 0us "$n"
	round "$W/g" "$TOOLDIR/dlat" -o tsv -g "$n"
	round "$W/P" "$TOOLDIR/dlat" -o tsv -P "$n"
	r=$((r + 1))
done
base=$(median <"$W/a")
lost() { awk -v b="$base" '{ print 100 * (b - $1) / b }' "$1" | median; }
note "loop device alone: $base IOPS (4 KiB random reads, 2 jobs, $secs s; median of $rounds, $(sort -n "$W/a" | head -1)-$(sort -n "$W/a" | tail -1))"
note "dlat (d2c, q2c, q2d): $(summary "$W/d"); $(lost "$W/d")% IOPS lost"
note "dlat (d2c, q2c, q2d), its rq programs alone: $(summary "$W/dd" | sed 's/^[^,]*, //')"
note "dlat -p d2c (issue, completion: the one-liner's part): $(summary "$W/d1"); $(lost "$W/d1")% IOPS lost"
# nsper FILE: the median kernel ns per read of FILE's rounds.
nsper() { awk '{ print $3 }' "$1" | median; }
note "floor, programs that only return (issue, completion): $(summary "$W/f2"); $(lost "$W/f2")% IOPS lost"
note "floor, programs that only return (the four tracepoints): $(summary "$W/f4"); $(lost "$W/f4")% IOPS lost"
note "dlat -t 10s -p d2c (no request over): $(summary "$W/t1"); $(lost "$W/t1")% IOPS lost"
note "dlat -t 10s (all phases, no request over): $(summary "$W/ta"); $(lost "$W/ta")% IOPS lost"
note "dlat -t 0us (every request over): $(summary "$W/t0"); $(lost "$W/t0")% IOPS lost"
note "dlat -g: $(summary "$W/g"); $(lost "$W/g")% IOPS lost"
note "dlat -P: $(summary "$W/P"); $(lost "$W/P")% IOPS lost"
f2=$(nsper "$W/f2")
f4=$(nsper "$W/f4")
over() { awk -v a="$1" -v f="$2" 'BEGIN { printf "%d ns", a - f }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }'; }
note "over the floor, ns per read: -p d2c $(over "$(nsper "$W/d1")" "$f2"), -t 10s -p d2c $(over "$(nsper "$W/t1")" "$f2"); all phases $(over "$(nsper "$W/d")" "$f4"), -t 10s $(over "$(nsper "$W/ta")" "$f4"), -t 0us $(over "$(nsper "$W/t0")" "$f4"), -g $(over "$(nsper "$W/g")" "$f4"), -P $(over "$(nsper "$W/P")" "$f4")"
note "targets: -t 10s -p d2c / -p d2c $(ratio "$(nsper "$W/t1")" "$(nsper "$W/d1")") (at most 1.1x); -g / -P $(ratio "$(nsper "$W/g")" "$(nsper "$W/P")") (at most 1.2x); the same over the floor: $(ratio "$(($(nsper "$W/t1") - f2))" "$(($(nsper "$W/d1") - f2))"), $(ratio "$(($(nsper "$W/g") - f4))" "$(($(nsper "$W/P") - f4))")"

# -t with every request over the threshold: the rows a second it
# writes, and the events it missed (ring_full among them), under the
# loop device's maximum.
iops >"$W/tiops" &
f=$!
"$TOOLDIR/dlat" -o tsv -t 0us "$n" "$secs" 1 >"$W/trows" 2>/dev/null
wait $f
note "$(awk -F'\t' -v d="$n" -v s="$secs" -v i="$(cat "$W/tiops")" 'NR > 1 && $2 == d { r++ } NR > 1 { m += $12 }
    END { printf "dlat -t 0us under %d reads/s: %.0f rows/s written, %d events missed", i, r / s, m }' "$W/trows")"

if [ $have_bt = 1 ]; then
	note "bpftrace one-liner (d2c only): $(summary "$W/b"); $(lost "$W/b")% IOPS lost"
	note "$(paste -d' ' "$W/d1" "$W/b" | awk '{ print $3 - $7 }' | sort -n | awk '{ v[NR] = $1 } END {
	    printf "dlat -p d2c less the one-liner, ns per read, same round: median %d, %d to %d over %d rounds", v[int((NR + 1) / 2)], v[1], v[NR], NR }')"
else
	note "bpftrace not installed: no peer figures"
fi

# The same events at the same time: dlat -p d2c and the one-liner both
# attached, each program run once per event by each; which is attached
# first alternates (the first to run on an event pays its cache
# misses: about 100 ns here).  The kernel time per run of each, from
# the same rounds, is what the machine's load cannot tilt.
progs_of() {
	for _p in "$@"; do cat /proc/$_p/fdinfo/* 2>/dev/null; done |
	    awk '/^prog_id:/ { print $2 }'
}
start_traced() {
	if [ "$1" = bt ]; then
		bt >/dev/null 2>&1 &
	else
		"$TOOLDIR/dlat" -o tsv -p d2c "$n" >/dev/null 2>&1 &
	fi
	_t=$!
	_i=0
	while [ "$(progs_of $_t | wc -l)" -lt 2 ] && [ $_i -lt 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
}
stop_traced() {
	kill -INT "$1" 2>/dev/null
	_i=0
	while [ $_i -lt 50 ] &&
	    awk '/^State:/ { exit $2 == "Z" }' /proc/$1/status 2>/dev/null; do
		sleep 0.1
		_i=$((_i + 1))
	done
	kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}
if [ $have_bt = 1 ]; then
	: >"$W/tog"
	r=0
	# Each round both ways round: as often first as second.
	while [ $r -lt $((2 * rounds)) ]; do
		if [ $((r % 2)) = 0 ]; then set -- dlat bt; else set -- bt dlat; fi
		"$TOP/t/unit/bpf" stats >"$W/stats" &
		_s=$!
		while ! grep -q ready "$W/stats" 2>/dev/null; do sleep 0.05; done
		start_traced "$1"; p1=$_t
		start_traced "$2"; p2=$_t
		sleep 1
		progs_of $p1 >"$W/ids1"
		progs_of $p2 >"$W/ids2"
		iops >/dev/null
		kill -INT $_s
		wait $_s
		stop_traced $p1
		stop_traced $p2
		# "dlat-ns bt-ns first" per round
		for k in 1 2; do
			awk -F'\t' 'FNR == NR { m[$1] = 1; next } m[$1] { r += $3; t += $4 }
			    END { printf "%.0f\n", r ? t / r : 0 }' "$W/ids$k" "$W/stats"
		done | paste -sd' ' | awk -v f="$1" '{ if (f == "dlat") print $1, $2, f; else print $2, $1, f }' >>"$W/tog"
		r=$((r + 1))
	done
	note "$(awk '{ d[NR] = $1; b[NR] = $2; x[NR] = $1 - $2; if ($1 <= $2) le++ }
	    END { n = NR; for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
		for (i = 1; i <= n; i++) { sd += d[i]; sb += b[i] }
		printf "dlat -p d2c and the one-liner attached together (the same events; each first in half the runs): ns per program run dlat %.0f, bpftrace %.0f (means of %d runs); dlat less bpftrace median %d, %d to %d; dlat at or below in %d of %d", sd / n, sb / n, n, x[int((n + 1) / 2)], x[1], x[n], le, n }' "$W/tog")"
	note "$(awk '$3 == "dlat" { d1 += $1; b2 += $2; n1++ } $3 == "bt" { b1 += $2; d2 += $1; n2++ }
	    END { printf "the same, by place: attached first dlat %.0f, bpftrace %.0f; attached second dlat %.0f, bpftrace %.0f", d1 / n1, b1 / n2, d2 / n2, b2 / n1 }' "$W/tog")"
fi

# User CPU per report and RSS: 100 reports 10 ms apart of every disk,
# under the same load.
iops >/dev/null &
f=$!
/usr/bin/time -f '%U %S %M' -o "$W/time" "$TOOLDIR/dlat" -o tsv 0.01 100 >/dev/null 2>&1
wait $f
read -r u s m <"$W/time"
note "$(awk -v u="$u" -v s="$s" -v m="$m" -v k="$(ls /sys/block | wc -l)" 'BEGIN {
    printf "dlat 0.01 100 over %d disks: %.2f ms user, %.2f ms system per report (with start-up), max RSS %d KiB", k, u * 10, s * 10, m }')"

# 100 disks, all busy: loop devices of our own over small sparse files,
# read at once by one fio job (so that every disk has its histograms),
# each traced.  The CPU of one report is the difference of 260 reports
# and 10, over 250 (start-up, loading and verifying the programs,
# cancels out); the RSS is the larger run's maximum.
mkdir "$W/h"
hl=
hn=
i=0
while [ $i -lt 100 ]; do
	truncate -s 4M "$W/h/$i" && l=$(losetup -f --show "$W/h/$i") || break
	# Detached, and the device the kernel made for it removed (losetup
	# cannot: LOOP_CTL_REMOVE), or 100 empty disks stay behind.
	at_exit "losetup -d $l && perl -e 'open(F, \"<\", \"/dev/loop-control\") && ioctl(F, 0x4C81, ${l#/dev/loop} + 0)'"
	hl="$hl${hl:+:}$l"
	hn="$hn ${l#/dev/}"
	i=$((i + 1))
done
nh=$i
fio --name=h --filename="$hl" --rw=randread --bs=4k --direct=1 \
    --ioengine=psync --file_service_type=random --runtime=60 \
    --time_based >/dev/null 2>&1 &
f=$!
# fio opens 100 files first (tens of seconds on a loaded machine: 10 s
# were seen too few): wait up to 60 s for reads.
_r=$(awk -v d="${hl%%:*}" '"/dev/" $3 == d { print $4 }' /proc/diskstats)
_i=0
while [ $_i -lt 600 ] && [ "$(awk -v d="${hl%%:*}" '"/dev/" $3 == d { print $4 }' /proc/diskstats)" = "$_r" ]; do
	sleep 0.1
	_i=$((_i + 1))
done
sleep 1
for k in 10 260; do
	# shellcheck disable=SC2086
	/usr/bin/time -f '%U %S %M' -o "$W/t$k" "$TOOLDIR/dlat" -o tsv $hn \
	    0.02 $k >"$W/o$k" 2>/dev/null
done
kill $f
wait $f 2>/dev/null
read -r u1 s1 m1 <"$W/t10"
read -r u2 s2 m2 <"$W/t260"
note "$(awk -v n="$nh" -v u1="$u1" -v s1="$s1" -v u2="$u2" -v s2="$s2" -v m="$m2" \
    -v d="$(awk -F'\t' 'NR > 1 && $4 == "d2c" && $5 > 0 { print $2 }' "$W/o260" | sort -u | wc -l)" 'BEGIN {
    printf "dlat 0.02 over %d busy loop devices (%d with d2c rows): %.3f ms user, %.3f ms system per report (260 reports less 10), max RSS %d KiB", n, d, (u2 - u1) * 4, (s2 - s1) * 4, m }')"
exit 0
