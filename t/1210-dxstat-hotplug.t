#!/bin/sh
# A disk that appears between two samples (hot plug; here a loop device
# made during the interval) is a whole disk in the next report: sys/block
# is read again for a device new since the last sample, once per report.
. "${0%/*}/lib.sh"
need_loop
need_cmd dd python3

# A loop number no device has, so that losetup makes a new disk.
n=400
while [ -e "/sys/block/loop$n" ] || [ -e "/dev/loop$n" ]; do
	n=$((n + 1))
	[ $n -lt 1000 ] || skip_all "no free loop number"
done
dev=loop$n
truncate -s 16M "$TRASH/img" || fail "image"
# Detach it, then remove the disk losetup made (LOOP_CTL_REMOVE).
at_exit "losetup -d /dev/$dev 2>/dev/null; python3 -c 'import fcntl, os; fcntl.ioctl(os.open(\"/dev/loop-control\", os.O_RDWR), 0x4C81, $n)' 2>/dev/null; rm -f /dev/$dev"

dxstat -o tsv 2 2 >"$TRASH/out" 2>"$TRASH/err" &
pid=$!
sleep 0.5
losetup "/dev/$dev" "$TRASH/img" || fail "losetup /dev/$dev"
dd if="/dev/$dev" of=/dev/null bs=4k count=64 iflag=direct 2>/dev/null
wait $pid
is "$?" 0 "dxstat 2 2: exit 0"
reads=$(awk -v d="$dev" '$3 == d { print $4 }' /proc/diskstats)

# Reports are told apart by their time column (one header line).
awk -F'\t' 'NR > 1 && $1 != t { r++; t = $1 } NR > 1 { print r "\t" $0 }' \
    "$TRASH/out" >"$TRASH/rep"
is "$(cut -f1 "$TRASH/rep" | sort -u | tr '\n' ' ')" "1 2 " "two reports"
first=$(awk -F'\t' -v d="$dev" '$1 == 1 && $3 == d' "$TRASH/rep" | wc -l)
second=$(awk -F'\t' -v d="$dev" '$1 == 2 && $3 == d' "$TRASH/rep" | cut -f2-)
is "$first" 0 "$dev not in the since-boot report (made after it)"
ok "$dev in the second report, as a whole disk" test -n "$second"
# It counts from zero: every read it ever did fell in the interval.
# The rate is over the interval measured between the two samples, which
# a busy machine stretches or shrinks by a few hundredths of a second:
# r/s x 2 s is its reads within 5%, where a sample that missed the
# disk's first counts would be 0 or far below.
rs=$(echo "$second" | cut -f3)
ok "$dev: r/s x 2 s = its $reads reads since it appeared (within 5%): $rs r/s" \
    awk -v r="$rs" -v n="${reads:-0}" 'BEGIN { d = r * 2 - n; if (d < 0) d = -d
    exit !(r != "" && n > 0 && d <= 0.05 * n) }'
ok "$dev: at least the 64 reads of dd" test "${reads:-0}" -ge 64
is "$(cat "$TRASH/err")" "" "no message"
