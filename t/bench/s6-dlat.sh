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

base=$(iops)
note "loop device alone: $base IOPS (4 KiB random reads, 2 jobs, $secs s)"
stats "$TOOLDIR/dlat" -o tsv "$n"
d=$(cat "$W/iops")
awk -F'\t' -v b="$base" -v d="$d" '$2 ~ /^dlat_/ && $3 > 0 { r += $3; t += $4 }
    END { printf "dlat tracing: %d IOPS (%.1f%% lost), %.0f ns in the kernel per program run (%d runs)\n",
	d, 100 * (b - d) / b, t / r, r }' "$W/stats" | while read -r l; do note "$l"; done
if command -v bpftrace >/dev/null 2>&1; then
	stats unshare -m sh -c 'mount --make-rprivate / &&
	    { mountpoint -q /sys/kernel/tracing || mount -t tracefs t /sys/kernel/tracing; } &&
	    exec bpftrace -e "tracepoint:block:block_rq_issue /args->dev == '$kd'/ { @s[args->sector] = nsecs; }
	    tracepoint:block:block_rq_complete /args->dev == '$kd' && @s[args->sector]/ {
	    @h = hist(nsecs - @s[args->sector]); delete(@s[args->sector]); }"'
	p=$(cat "$W/iops")
	awk -F'\t' -v b="$base" -v d="$p" '$2 !~ /^dlat_/ && $3 > 0 { r += $3; t += $4 }
	    END { printf "bpftrace one-liner (d2c only): %d IOPS (%.1f%% lost), %.0f ns in the kernel per program run (%d runs)\n",
		d, 100 * (b - d) / b, r ? t / r : 0, r }' "$W/stats" | while read -r l; do note "$l"; done
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
