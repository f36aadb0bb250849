#!/bin/sh
# make check: alone (it counts the BPF programs the whole kernel holds)
# A bio-based device (zram: no request tracepoints fire for it) is
# timed from block_bio_queue to block_bio_complete, as q2c: one per
# bio, and no d2c or q2d row; so are -t's rows and -g's.
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

# -t 0us: every bio a row, q2c alone (no d2c, no q2d), the reader's
# pid and comm; -g: the reads in this shell's cgroup, q2c alone.
dlat -o tsv -t 0us "$dev" >"$TRASH/t" 2>"$TRASH/terr" &
pid=$!
ok "-t: dlat attached" dlat_attached $pid
sh -c 'echo $$ >"$1"; exec dd if="/dev/$2" of=/dev/null bs=4k count=50 iflag=direct' \
    dd "$TRASH/ddpid" "$dev" 2>/dev/null
kill -INT $pid
wait $pid
is "$?" 0 "-t: exit 0"
ddpid=$(cat "$TRASH/ddpid")
# time device op sector bytes pid comm cgroup q2d d2c q2c missed
is "$(awk -F'\t' -v d="$dev" -v p="$ddpid" '$2 == d && $3 == "read" && $6 == p && $7 == "dd" &&
    $9 == "-" && $10 == "-" && $11 > 0 { n++ } END { print n + 0 }' "$TRASH/t")" 50 \
    "-t 0us: a row per read bio, dd's pid and comm, q2c alone"
cg=$(awk -F: '$2 == "" { print $3 }' /proc/self/cgroup)
dlat -o tsv -g "$dev" >"$TRASH/g" 2>"$TRASH/gerr" &
pid=$!
ok "-g: dlat attached" dlat_attached $pid
dd if="/dev/$dev" of=/dev/null bs=4k count=50 iflag=direct 2>/dev/null
kill -INT $pid
wait $pid
is "$?" 0 "-g: exit 0"
is "$(awk -F'\t' -v d="$dev" -v c="$cg" '$2 == d && $3 == "read" && $4 == "q2c" && $5 == c { print $6 }' "$TRASH/g")" 50 \
    "-g: the 50 reads in this shell's cgroup ($cg), q2c"
is "$(awk -F'\t' -v d="$dev" 'NR > 1 && $2 == d && $4 != "q2c" { n++ } END { print n + 0 }' "$TRASH/g")" 0 "-g: no d2c or q2d rows"
ok "nothing left loaded" progs_back "$base"
