#!/bin/sh
# make check: alone (the lab's timings need a quiet machine)
# Writes and flushes against the truth: ext4 on a lab disk (t/lab.sh)
# that keeps its data, 20 ms a write or a flush; one writer of direct
# 4 KiB overwrites, each followed by fdatasync, which ext4 turns into a
# flush of the disk's cache (nothing to journal: the blocks are there
# and the journal commits only every 60 s).  ext4 asks for the flush
# with blkdev_issue_flush: an empty write with REQ_PREFLUSH, which the
# block layer's flush machinery carries out as a flush request.  The
# kernel counts both: the empty write as a write of 0 sectors that ends
# when the flush does, and the flush as a flush.  So each turn is one
# 4 KiB write (20 ms), then the empty write and its flush (20 ms), one
# at a time, and the truth is
#   f/s = 1 / 40 ms = 25, w/s = 2 x f/s, wkB/s = 4 x f/s,
#   wareq-sz = 2 kB, w_await = f_await = 20 ms
# Asserted: f/s within 2% below 25 and at most 25 plus one turn over the
# interval; writes twice the flushes and kB four times them, within one
# turn (plus the two-decimal rounding of each rate over the interval); wareq-sz 2 within 2.5% (a turn cut by the interval's ends);
# w_await and f_await from 20 ms up to 2% above (the kernel path is
# inside); iostat -x on the same samples prints what dxstat prints.
# Reads are shown, not checked: another test may probe every disk.
. "${0%/*}/lib.sh"
. "$T/lab.sh"
lab_need
need_cmd mkfs.ext4 mount umount dd iostat unshare mkfifo timeout
lab_start 4 10 20 256M keep || skip_all "lab: $LAB_ERR"
mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "/dev/$LAB_DEV" \
    >"$TRASH/mkfs" 2>&1 || skip_all "mkfs.ext4: $(cat "$TRASH/mkfs")"
mkdir "$TRASH/fs"
mount -t ext4 -o lazytime,noatime,commit=60 "/dev/$LAB_DEV" "$TRASH/fs" || skip_all "cannot mount ext4 on $LAB_DEV"
# at_exit runs in reverse order: the unmount before lab_stop.
at_exit "umount '$TRASH/fs'"
dd if=/dev/zero of="$TRASH/fs/f" bs=1M count=8 conv=fsync 2>/dev/null
ok "an 8 MiB file written on ext4 on the lab disk" test "$(stat -c %s "$TRASH/fs/f")" -eq 8388608
# Direct I/O both ways: what comes back came from the lab disk.
head -c 65536 /dev/urandom >"$TRASH/pattern"
dd if="$TRASH/pattern" of="$TRASH/fs/f" bs=64k seek=5 conv=notrunc oflag=direct,dsync 2>/dev/null
dd if="$TRASH/fs/f" of="$TRASH/back" bs=64k skip=5 count=1 iflag=direct 2>/dev/null
ok "64 KiB written and read back directly are equal (the disk keeps data)" \
    cmp -s "$TRASH/pattern" "$TRASH/back"
sync

TI=4

# Transactions the journal committed.  The writer's first write puts the
# inode in a transaction (its timestamps), which ext4 commits after the
# commit interval: 60 s, so not while we measure; fdatasync does not wait
# for it.  But a sync(2) anywhere on the machine (other tests call it)
# commits it at once.
journal() {
	awk 'NR == 1 { print $1 }' "/proc/fs/jbd2/$LAB_DEV-8/info" 2>/dev/null
}

writer() {
	lab_load "$1" --filename="$TRASH/fs/f" --size=8M --direct=1 --rw=randwrite --bs=4k \
	    --ioengine=psync --fdatasync=1 --fallocate=none --norandommap --randrepeat=0 \
	    --time_based --ramp_time=1 --runtime=$((TI + 2))
	sleep 1.3
	lab_stats >"$LAB_DIR/$1.st1"
	j1=$(journal)
	lab_iostat $TI "$1"
	_st=$?
	j2=$(journal)
	lab_stats >"$LAB_DIR/$1.st2"
	lab_wait
	[ "$j1" = "$j2" ] || lab_disturbed "the journal committed during the interval ($j1 then $j2 transactions): a sync(2) elsewhere"
	lab_check_cmd "fio and iostat ran (load exit $?, iostat $_st)" test "$?" -eq 0 -a "$_st" -eq 0
	n=$1 f=$LAB_DIR/$1
	t=$(lab_interval "$f.1" "$f.2")
	# r/s w/s wkB/s w_await wareq-sz f/s f_await aqu-sz %util
	set -- $(dxstat -o tsv -H -f "$f.1" -f "$f.2" "$LAB_DEV" | cut -f3,9,10,13,14,21,22,23,24)
	late=$(lab_late "$f.st1" "$f.st2" 20)
	printf '# 1 writer with fdatasync over %.3f s: r/s %s w/s %s wkB/s %s w_await %s wareq-sz %s f/s %s f_await %s aqu-sz %s %%util %s; truth 0 50 100 20 2 25 20; helper woke %s us late on average\n' \
	    "$t" "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9" "$late"
	lab_check -p "f/s within 2% below 25" "$6" \
	    "$(awk -v t="$t" 'BEGIN { print 25 * 0.98 - 1 / t }')" "$(awk -v t="$t" 'BEGIN { print 25 + 1 / t }')"
	lab_check -p "writes = 2 x flushes within one turn" \
	    "$(awk -v w="$2" -v f="$6" -v t="$t" 'BEGIN { d = (w - 2 * f) * t; printf "%.2f", (d < 0 ? -d : d) }')" 0 \
	    "$(awk -v t="$t" 'BEGIN { print 2 + 0.015 * t }')"
	lab_check -p "kB written = 4 x flushes within one turn" \
	    "$(awk -v k="$3" -v f="$6" -v t="$t" 'BEGIN { d = (k - 4 * f) * t; printf "%.2f", (d < 0 ? -d : d) }')" 0 \
	    "$(awk -v t="$t" 'BEGIN { print 4 + 0.025 * t }')"
	lab_check "wareq-sz 2 kB (4 KiB over the data write and the empty one)" "$5" 1.95 2.05
	lab_check -p "w_await 20 ms up to 2% above" "$4" 20 20.4
	lab_check -p "f_await 20 ms up to 2% above" "$7" 20 20.4
	lab_check_cmd "iostat -x on the same interval prints what dxstat prints" lab_iostat_cmp "$n"
}

lab_try writer w1
