#!/bin/sh
# make check: alone (it counts the BPF programs the whole kernel holds)
# A bio-based device (zram: no request tracepoints fire for it) is
# timed from block_bio_queue to block_bio_complete, as q2c: one per
# bio, and no d2c or q2d row.
. "${0%/*}/lib.sh"
. "${0%/*}/dlat-lib.sh"
need_bpf
need_cmd dd
[ -e /sys/class/zram-control/hot_add ] || modprobe zram 2>/dev/null
[ -e /sys/class/zram-control/hot_add ] || skip_all "no zram"
id=$(cat /sys/class/zram-control/hot_add) || skip_all "zram hot_add failed"
dev=zram$id
at_exit "echo $id >/sys/class/zram-control/hot_remove 2>/dev/null"
at_exit "echo 1 >/sys/block/$dev/reset 2>/dev/null"
echo 64M >/sys/block/$dev/disksize || skip_all "cannot size $dev"
command -v udevadm >/dev/null 2>&1 && udevadm settle 2>/dev/null
base=$(bpf_progs)

N=500
dlat -o tsv "$dev" >"$TRASH/out" 2>"$TRASH/err" &
pid=$!
ok "dlat attached" dlat_attached $pid
dd if=/dev/zero of="/dev/$dev" bs=4k count=$N oflag=direct 2>/dev/null
dd if="/dev/$dev" of=/dev/null bs=4k count=$N iflag=direct 2>/dev/null
kill -INT $pid
wait $pid
is "$?" 0 "exit 0"
missed=$(awk -F'\t' 'NR == 2 { print $12 + 0 }' "$TRASH/out")
for op in write read; do
	got=$(awk -F'\t' -v d="$dev" -v o=$op '$2 == d && $3 == o && $4 == "q2c" { print $5 }' "$TRASH/out")
	ok "$op q2c: $N bios (within ${missed:-0} missed)" awk -v g="${got:-0}" -v n=$N -v m="${missed:-0}" 'BEGIN { d = n - g; exit !(d >= 0 && d <= m) }'
done
is "$(awk -F'\t' -v d="$dev" '$2 == d && $4 != "q2c" { n++ } END { print n + 0 }' "$TRASH/out")" 0 "no d2c or q2d rows for a bio-based device"
ok "q2c mean below 1 ms (zram is memory)" awk -F'\t' -v d="$dev" '$2 == d && $4 == "q2c" && !($6 > 0 && $6 < 1000) { exit 1 }' "$TRASH/out"
ok "nothing left loaded" progs_back "$base"
