#!/bin/sh
# dtriage on the running system: a process holding a deleted 40 MiB file
# on a small filesystem it has filled (a loop device made here): the
# finding names the mount, the holder's pid and fd, the held bytes
# (within 1 MiB of df's used minus du's), and the reclaim command.
. "${0%/*}/lib.sh"
need_loop
need_cmd mkfs.ext4 mount umount df du awk

dev=$(mkloop 64) || skip_all "no loop device could be made"
mkfs.ext4 -q -F "/dev/$dev" >/dev/null 2>&1 || skip_all "mkfs.ext4 failed"
m=$TRASH/mnt
mkdir "$m"
mount "/dev/$dev" "$m" || skip_all "cannot mount a loop device here"
at_exit "umount '$m' 2>/dev/null"

dd if=/dev/urandom of="$m/big" bs=1M count=40 status=none
sync
# The holder: a sleep with the file open on descriptor 3.
sh -c 'exec 3<"$1"; exec sleep 600' sh "$m/big" &
holder=$!
# Gone before the umount (at_exit runs last first): a live holder would
# keep the filesystem busy and the loop device attached.
at_exit "kill $holder 2>/dev/null; wait $holder 2>/dev/null"
# Wait until the descriptor is there, then delete the file and fill up.
for i in 1 2 3 4 5 6 7 8 9 10; do
	[ -e "/proc/$holder/fd/3" ] && break
	sleep 0.1
done
rm "$m/big"
dd if=/dev/zero of="$m/fill" bs=1M status=none 2>/dev/null
sync

used=$(df -B1 --output=used "$m" | tail -1 | tr -d ' ')
reach=$(du -sxB1 "$m" | awk '{ print $1 }')
gap=$((used - reach))

dtriage -o tsv 1 >"$TRASH/out" 2>"$TRASH/err"
is "$?" 3 "a full filesystem with deleted space: exit 3"
row=$(awk -F'\t' -v m="$m" '$2 == "deleted-held" && $3 == m' "$TRASH/out")
ok "deleted-held names the mount" test -n "$row"
[ -n "$row" ] || sed 's/^/# /' "$TRASH/out"
held=$(printf '%s\n' "$row" | awk -F'\t' '{ print $4 }')
ok "held bytes $held within 1 MiB of df used - du ($gap)" \
    awk -v h="$held" -v g="$gap" 'BEGIN { d = h - g; if (d < 0) d = -d; exit !(d <= 1048576) }'
ok "held: the 40 MiB allocated (and its few metadata blocks)" \
    test "$held" -ge 41943040 -a "$held" -lt $((41943040 + 65536))
ok "deleted-held names the holder" sh -c "printf '%s\n' '$row' | grep -q 'pid $holder sleep fd 3 40.0 MiB'"
ok "deleted-held gives the reclaim command" sh -c "printf '%s\n' '$row' | grep -q 'ddeleted --truncate $holder:3'"
is "$(awk -F'\t' -v m="$m" '$2 == "fs-full" && $3 == m { print $1 }' "$TRASH/out")" crit \
    "the filesystem is full: crit"
ok "the verdict mentions the held space" \
    sh -c "awk -F'\t' 'NR == 2' '$TRASH/out' | grep -q '40.0 MiB held by deleted files on $m'"
