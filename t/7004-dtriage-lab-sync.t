#!/bin/sh
# make check: alone (the lab's timings need a quiet machine)
# dtriage on the latency lab (t/lab.sh): small synchronous writes are an
# application's commit pattern, not a disk problem.  ext4 on a lab disk
# of 1 ms writes, one fio job writing 4 KiB direct with fdatasync after
# each: one request at a time, no merges, a flush per record.  The
# kernel counts each record as a 4 KiB write and an empty write with
# REQ_PREFLUSH in flight while its flush is (t/1302), so aqu-sz is 1.5
# for a queue of one: dtriage takes the flushes counted twice out, says
# sync-writes (a healthy device), names the fio job writing 4 KiB per
# call, and calls the device neither busy nor saturated.
. "${0%/*}/lib.sh"
. "$T/lab.sh"
if grep -q fsanitize "$TOP/.flags" 2>/dev/null; then
	skip_all "a sanitizer build: dtriage's timing is judged on the plain build"
fi
lab_need
need_cmd mkfs.ext4 mount umount
lab_start 4 1 1 256M keep || skip_all "lab: $LAB_ERR"
mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "/dev/$LAB_DEV" \
    >"$TRASH/mkfs" 2>&1 || skip_all "mkfs.ext4: $(cat "$TRASH/mkfs")"
mkdir "$TRASH/fs"
mount -t ext4 -o noatime,commit=60 "/dev/$LAB_DEV" "$TRASH/fs" || skip_all "cannot mount ext4 on $LAB_DEV"
at_exit "umount '$TRASH/fs'"
dd if=/dev/zero of="$TRASH/fs/f" bs=1M count=8 conv=fsync 2>/dev/null

lab_load sw --filename="$TRASH/fs/f" --size=8M --direct=1 --rw=randwrite --bs=4k \
    --ioengine=psync --fdatasync=1 --fallocate=none --time_based --runtime=7
sleep 1.5
job=$(grep -vx "$LAB_LOAD" "$LAB_CG/cgroup.procs" | head -1)
mkdir "$TRASH/nobase"
lab_snap "$TRASH/a"
dtriage -o tsv -b "$TRASH/nobase" 3 >"$TRASH/out" 2>"$TRASH/err"
st=$?
lab_snap "$TRASH/b"
lab_wait
ok "dtriage ran (exit $st: 0 or 3, others' pressure may warn)" test "$st" -eq 0 -o "$st" -eq 3
echo "# dxstat over the window: $(dxstat -o tsv -H -f "$TRASH/a" -f "$TRASH/b" -O w/s,wareq-sz,w_await,f/s,f_await,aqu-sz "$LAB_DEV")"
row=$(awk -F'\t' -v d="$LAB_DEV" '$2 == "sync-writes" && $3 == d' "$TRASH/out")
echo "# $row"
ok "sync-writes on $LAB_DEV" test -n "$row"
[ -n "$row" ] || sed 's/^/# /' "$TRASH/out"
ok "sync-writes: a healthy device, the queue without the flushes counted twice" \
    sh -c "printf '%s\n' '$row' | grep -q 'healthy device, application commit pattern: .* aqu-sz [0-9.]* ([01]\.[0-9]* without the flushes counted twice)'"
ok "sync-writes: names the fio job ($job) and its 4 KiB per call" \
    sh -c "printf '%s\n' '$row' | grep -q 'writer $job fio writes 4.0 KiB per call: an fsync or O_DSYNC per record; batch'"
is "$(awk -F'\t' -v d="$LAB_DEV" '($2 == "busy" || $2 == "saturated" || $2 == "queue-long") && $3 == d { print $2 }' "$TRASH/out")" "" \
    "$LAB_DEV: neither busy, saturated nor a long queue"
ok "the verdict says the disk is healthy" \
    awk -F'\t' 'NR == 2 && $2 == "verdict" && $5 ~ /the disk is healthy: writes to [a-z0-9]+ follow an application commit pattern/ { f = 1 } END { exit !f }' "$TRASH/out"
