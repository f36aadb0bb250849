#!/bin/sh
# dxstat against the truth: a loop device we drive with a known number
# of direct reads and a known number of KiB of direct writes.
. "${0%/*}/lib.sh"
need_loop
need_cmd dd

# Not dev=$(mkloop 64): in a command substitution mkloop's at_exit runs
# in a subshell and the device would never be detached.
mkloop 64 >"$TRASH/dev" || skip_all "cannot make a loop device"
dev=$(cat "$TRASH/dev")
command -v udevadm >/dev/null 2>&1 && udevadm settle 2>/dev/null

N=257			# direct 4 KiB reads
M=$((3 * 1024 + 7 * 12))	# KiB written: 3 x 1 MiB + 7 x 12 KiB

# Keep one writable descriptor open across the second snapshot: closing
# the last one makes udev (where it runs) probe the device, with reads.
exec 3<>"/dev/$dev"
dxstat -s >"$TRASH/s1" || fail "snapshot 1"
dd if="/dev/$dev" of=/dev/null bs=4k count=$N skip=100 iflag=direct 2>/dev/null
dd if=/dev/zero bs=1M count=3 oflag=direct >&3 2>/dev/null
dd if=/dev/zero bs=12k count=7 oflag=direct >&3 2>/dev/null
dxstat -s >"$TRASH/s2" || fail "snapshot 2"
exec 3>&-

t=$(awk 'FNR == 1 { u[++n] = $2 } END { printf "%.9f", u[2] - u[1] }' "$TRASH/s1" "$TRASH/s2")
dxstat -o tsv -f "$TRASH/s1" -f "$TRASH/s2" "$dev" >"$TRASH/r"
is "$(sed 1d "$TRASH/r" | wc -l)" 1 "one row for $dev"
is "$(awk -F'\t' -v t="$t" 'NR == 2 { printf "%.0f", $3 * t }' "$TRASH/r")" "$N" "r/s x interval = $N reads"
is "$(awk -F'\t' 'NR == 2 { print $8 }' "$TRASH/r")" "4.00" "rareq-sz 4.00 kB"
is "$(awk -F'\t' -v t="$t" 'NR == 2 { printf "%.0f", $4 * t }' "$TRASH/r")" "$((N * 4))" "rkB/s x interval = $((N * 4)) KiB"
is "$(awk -F'\t' -v t="$t" 'NR == 2 { printf "%.0f", $10 * t }' "$TRASH/r")" "$M" "wkB/s x interval = $M KiB"
echo "# interval $t s: $(sed 1d "$TRASH/r" | cut -f3-14)"

# Full precision through Prometheus: base units, no rounding to 2 places.
dxstat -o prom -f "$TRASH/s1" -f "$TRASH/s2" "$dev" >"$TRASH/p"
is "$(awk -v t="$t" -v d="$dev" '$1 == "dxstat_reads_per_second{device=\"" d "\"}" { x = $2 * t - '$N'; print (x < 1e-6 && x > -1e-6) ? "exact" : x }' "$TRASH/p")" exact \
    "prom: reads per second x interval = $N within 1e-6"
is "$(awk -v t="$t" -v d="$dev" '$1 == "dxstat_written_bytes_per_second{device=\"" d "\"}" { x = $2 * t - '$((M * 1024))'; print (x < 1e-3 && x > -1e-3) ? "exact" : x }' "$TRASH/p")" exact \
    "prom: written bytes per second x interval = $((M * 1024)) bytes"

# The same through the sampling loop: the since-boot report is printed
# after the first sample was read, so I/O issued after seeing it falls
# in the interval report.
: >"$TRASH/live"
dxstat -o tsv -H "$dev" 3 2 >"$TRASH/live" 2>"$TRASH/live.err" &
pid=$!
i=0
while [ "$(wc -l <"$TRASH/live")" -lt 1 ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
dd if="/dev/$dev" of=/dev/null bs=4k count=$N skip=300 iflag=direct 2>/dev/null
wait $pid
is "$?" 0 "sampling loop exits 0"
is "$(wc -l <"$TRASH/live")" 2 "since-boot report, then one interval report"
ok "interval report: r/s x 3 s = $N reads (one sample's timing allowed)" \
    awk -F'\t' -v n=$N 'NR == 2 { x = $3 * 3; if (x < n * 0.9 || x > n * 1.1) exit 1 }' "$TRASH/live"
is "$(awk -F'\t' 'NR == 2 { print $8 }' "$TRASH/live")" "4.00" "interval report: 4 kB reads"
is "$(cat "$TRASH/live.err")" "" "sampling loop: no message"
