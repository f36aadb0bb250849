#!/bin/sh
# Scenario 6: dlat's cost, against the bpftrace one-liner users would
# run instead.  A loop device at its maximum (4 KiB random direct reads
# of a file in the page cache, fio, 2 jobs, 5 s a run): IOPS alone,
# with dlat tracing, with bpftrace tracing; the in-kernel time per run
# of each program (BPF_ENABLE_STATS, through t/unit/bpf stats); dlat's
# user CPU per report and maximum RSS over 100 reports of every disk.
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

# stats CMD...: CMD traced while the run counters are on; prints IOPS,
# then each program's "name runs ns".
stats() {
	"$TOP/t/unit/bpf" stats >"$W/stats" &
	_s=$!
	while ! grep -q ready "$W/stats" 2>/dev/null; do sleep 0.05; done
	"$@" >/dev/null 2>&1 &
	_c=$!
	sleep 2
	iops >"$W/iops"
	# The counters first, while the tracer's programs are still loaded.
	kill -INT $_s
	wait $_s
	kill -INT $_c 2>/dev/null
	wait $_c 2>/dev/null
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

# Rounds of alone, dlat, bpftrace, interleaved so that the machine's
# other load falls on all three alike; medians.  A first run warms up.
iops >/dev/null
: >"$W/a"; : >"$W/d"; : >"$W/b"; : >"$W/ds"; : >"$W/bs"
have_bt=0
command -v bpftrace >/dev/null 2>&1 && have_bt=1
for r in 1 2 3; do
	iops >>"$W/a"
	stats "$TOOLDIR/dlat" -o tsv "$n"
	cat "$W/iops" >>"$W/d"
	awk -F'\t' '$2 ~ /^dlat_/ { print $3, $4 }' "$W/stats" >>"$W/ds"
	if [ $have_bt = 1 ]; then
		stats bt
		cat "$W/iops" >>"$W/b"
		awk -F'\t' '$2 !~ /^dlat_/ && $3 > 0 { print $3, $4 }' "$W/stats" >>"$W/bs"
	fi
done
base=$(median <"$W/a")
d=$(median <"$W/d")
note "loop device alone: $base IOPS (4 KiB random reads, 2 jobs, $secs s; median of 3)"
# Per I/O: the programs' time over the reads of the three runs (the
# seconds before fio starts add the disks' other events, a little).
note "$(awk -v b="$base" -v d="$d" -v s="$secs" '{ r += $1; t += $2 } END {
    printf "dlat tracing (d2c, q2c, q2d): %d IOPS (%.1f%% lost), %.0f ns in the kernel per program run, %.2f runs and %.0f ns per read", d, 100 * (b - d) / b, t / r, r / (3 * d * s), t / (3 * d * s) }' "$W/ds")"
if [ $have_bt = 1 ]; then
	p=$(median <"$W/b")
	note "$(awk -v b="$base" -v d="$p" -v s="$secs" '{ r += $1; t += $2 } END {
	    printf "bpftrace one-liner (d2c only): %d IOPS (%.1f%% lost), %.0f ns in the kernel per program run, %.2f runs and %.0f ns per read", d, 100 * (b - d) / b, r ? t / r : 0, r / (3 * d * s), t / (3 * d * s) }' "$W/bs")"
else
	note "bpftrace not installed: no peer figures"
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
exit 0
