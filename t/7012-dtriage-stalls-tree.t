#!/bin/sh
# dtriage on captured trees (-R) of stalls that are not a disk's, judged
# from what a tree holds (one look at its threads, its kernel log):
#  - a task in io_uring's wait (S, io_cqring_wait) with no disk I/O: PSI
#    io at 99%, procs_blocked 1, yet exit 0 and an io-uring-wait row;
#  - a writer in balance_dirty_pages: dirty-throttled with the limit;
#  - a kernel log with I/O errors of a disk: io-errors, crit, the count;
#  - a reader of pipes and /dev/zero alone: no page-cache row;
#  - the table: values in their units, within 160 columns.
. "${0%/*}/lib.sh"

# mktree DIR: 1000 s since boot, two idle disks, io some avg10 99%.
mktree() {
	_t=$1
	mkdir -p "$_t/proc/pressure" "$_t/proc/sys/kernel" "$_t/proc/sys/vm" \
	    "$_t/sys/block/loop7/queue" "$_t/sys/block/vda/queue" "$_t/dev"
	echo "1000.00 1500.00" >"$_t/proc/uptime"
	cat >"$_t/proc/diskstats" <<-DS
	   7       7 loop7 100 0 800 100 0 0 0 0 0 100 100 0 0 0 0 0 0
	 253       0 vda 1000 0 8000 500 2000 0 16000 1000 0 1400 1500 0 0 0 0 100 10
	DS
	printf 'some avg10=99.00 avg60=90.00 avg300=50.00 total=950000000\nfull avg10=98.00 avg60=90.00 avg300=50.00 total=900000000\n' \
	    >"$_t/proc/pressure/io"
	printf 'some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n' \
	    >"$_t/proc/pressure/memory"
	printf 'cpu  1000 0 1000 160000 38000 0 0 0 0 0\ncpu0 500 0 500 80000 19000 0 0 0 0 0\ncpu1 500 0 500 80000 19000 0 0 0 0 0\nprocs_running 1\nprocs_blocked 1\n' \
	    >"$_t/proc/stat"
	echo 0 >"$_t/proc/sys/kernel/task_delayacct"
	echo 6.18.0 >"$_t/proc/sys/kernel/osrelease"
	for d in loop7 vda; do
		echo 128 >"$_t/sys/block/$d/queue/nr_requests"
		echo "[none] mq-deadline" >"$_t/sys/block/$d/queue/scheduler"
		echo 0 >"$_t/sys/block/$d/queue/rotational"
		echo 0 >"$_t/sys/block/$d/queue/nomerges"
	done
	: >"$_t/dev/kmsg"
}

# thread DIR PID COMM STATE WCHAN [FLAGS]: a process of one thread.
thread() {
	_p=$1/proc/$2
	mkdir -p "$_p/task/$2" "$_p/fd"
	_st="$2 ($3) $4 1 $2 $2 0 -1 ${6:-4194304} 0 0 0 0 100 50 0 0 20 0 1 0 50000 1000000 100 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"
	echo "$_st" >"$_p/stat"
	echo "$_st" >"$_p/task/$2/stat"
	printf '%s' "$5" >"$_p/task/$2/wchan"
	printf '%s' "$5" >"$_p/wchan"
	printf '%s\0' "$3" >"$_p/cmdline"
	printf 'rchar: 0\nwchar: 0\nsyscr: 0\nsyscw: 0\nread_bytes: 0\nwrite_bytes: 0\ncancelled_write_bytes: 0\n' >"$_p/io"
}

# ---- io_uring's wait alone --------------------------------------------
U=$TRASH/uring
mktree "$U"
thread "$U" 4242 uringwait S io_cqring_wait
ln -s 'anon_inode:[io_uring]' "$U/proc/4242/fd/3"
dtriage -R "$U" -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "io_uring's wait alone: exit 0"
is "$(cat "$TRASH/err")" "" "io_uring's wait alone: nothing on stderr"
is "$(awk -F'\t' 'NR > 1 && ($1 == "warn" || $1 == "crit")' "$TRASH/out")" "" \
    "io_uring's wait alone: nothing at warn or crit"
is "$(awk -F'\t' '$2 == "io-uring-wait" { print $1, $3 }' "$TRASH/out")" "info 4242 uringwait" \
    "an io-uring-wait row names the waiter"
ok "it says the kernel can leave io_uring out of iowait" grep -q 'IORING_ENTER_NO_IOWAIT (this kernel, 6.18.0, has it)' "$TRASH/out"
is "$(awk -F'\t' '$2 == "io-pressure" { print $1 }' "$TRASH/out")" info \
    "io-pressure at 99% some stays info"
ok "procs-blocked says what it counts" grep -q "in D or in io_uring's wait in S" "$TRASH/out"
# The same with a reader in D on loop7 beside it: a disk's stall.
thread "$U" 4343 dbsrv D folio_wait_bit_common
dtriage -R "$U" -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 3 "with a reader in D too: exit 3"
is "$(awk -F'\t' '$2 == "io-pressure" { print $1 }' "$TRASH/out")" crit \
    "with a reader in D: io-pressure crit"
rm -r "$U/proc/4343"

# ---- a writer held by the dirty limit ---------------------------------
D=$TRASH/dirty
mktree "$D"
thread "$D" 5151 dd D balance_dirty_pages
printf 'nr_dirty 3000\nnr_writeback 1000\nnr_dirty_threshold 4096\nnr_dirty_background_threshold 2048\nnr_dirtied 100000\nnr_written 90000\n' \
    >"$D/proc/vmstat"
echo 16777216 >"$D/proc/sys/vm/dirty_bytes"
echo 0 >"$D/proc/sys/vm/dirty_ratio"
echo 8388608 >"$D/proc/sys/vm/dirty_background_bytes"
echo 0 >"$D/proc/sys/vm/dirty_background_ratio"
dtriage -R "$D" -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$(awk -F'\t' '$2 == "dirty-throttled" { print $1, $3 }' "$TRASH/out")" "warn 5151 dd" \
    "dirty-throttled: the writer, at warn"
ok "dirty-throttled: the limit and its setting" \
    grep -q 'dirty + writeback 15.6 MiB against the kernel.s limit of 16.0 MiB (vm.dirty_bytes 16777216; vm.dirty_background_bytes 8388608)' "$TRASH/out"
ok "the verdict: the dirty-page limit" \
    sh -c 'awk -F"\t" "\$2 == \"verdict\"" "$1" | grep -q "held by the dirty-page limit: 5151 dd"' sh "$TRASH/out"

# ---- a disk that fails: the kernel log --------------------------------
E=$TRASH/eio
mktree "$E"
{
	echo '3,100,900000000,-;I/O error, dev loop7, sector 2048 op 0x0:(READ) flags 0x800 phys_seg 1 prio class 2'
	echo '3,101,900100000,-;I/O error, dev loop7, sector 2049 op 0x0:(READ) flags 0x800 phys_seg 1 prio class 2'
	echo '4,102,905000000,-;blk_print_req_error: 7 callbacks suppressed'
	echo '3,103,905000001,-;I/O error, dev loop7, sector 2058 op 0x0:(READ) flags 0x800 phys_seg 1 prio class 2'
	echo '3,104,905000002,-;Buffer I/O error on dev loop7, logical block 300, async page read'
	echo '14,105,905000003,-;I/O error, dev vda, sector 1 op 0x0:(READ): a user wrote this'
} >"$E/dev/kmsg"
dtriage -R "$E" -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 3 "I/O errors: exit 3"
is "$(awk -F'\t' '$2 == "io-errors" { print $1, $3, $4 }' "$TRASH/out")" "crit loop7 4" \
    "io-errors: loop7, crit, the 4 messages the kernel logged (none forged for vda)"
ok "io-errors: the first sector, its op, the suppressed" \
    grep -q "the first 'I/O error' at sector 2048 (READ); 7 more messages suppressed" "$TRASH/out"
ok "the verdict: loop7 is failing" grep -q 'the disk is the problem: loop7 is failing (4 I/O errors' "$TRASH/out"

# ---- rchar from a pipe and /dev/zero is no page-cache reading -----------
P=$TRASH/pipe
mktree "$P"
printf 'some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n' \
    >"$P/proc/pressure/io"
thread "$P" 6161 cat R 0
printf 'rchar: 104857600000\nwchar: 0\nsyscr: 25600\nsyscw: 0\nread_bytes: 0\nwrite_bytes: 0\ncancelled_write_bytes: 0\n' \
    >"$P/proc/6161/io"
ln -s 'pipe:[4242]' "$P/proc/6161/fd/0"
ln -s /dev/zero "$P/proc/6161/fd/3"
dtriage -R "$P" -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$(awk -F'\t' '$2 == "page-cache"' "$TRASH/out")" "" \
    "a reader of a pipe and /dev/zero: no page-cache row"

# ---- the table: units, 160 columns ----------------------------------------
dtriage -R "$E" -o table >"$TRASH/table" 2>"$TRASH/err"
# (An ellipsis is one column and three bytes.)
is "$(sed "s/$(printf '\342\200\246')/./g" "$TRASH/table" |
    awk '{ n = length($0); if (n > m) m = n } END { print (m <= 160) }')" 1 \
    "table: every row within 160 columns"
ok "table: the io some share as a percent" grep -q ' 99.0%  ' "$TRASH/table"
ok "table: the count of errors as a number" grep -qE '^crit +io-errors +loop7 +4  ' "$TRASH/table"
ok "table: a long evidence cut with an ellipsis" grep -q "$(printf '\342\200\246')" "$TRASH/table"
dtriage -R "$E" -o tsv >"$TRASH/tsv"
is "$(grep -c "$(printf '\342\200\246')" "$TRASH/tsv")" 0 "tsv: the evidence whole"

# ---- io.latency holding a cgroup's queue depth (cgroup v2) ----------------
C=$TRASH/iolat
mktree "$C"
mkdir -p "$C/sys/fs/cgroup/batch" "$C/sys/fs/cgroup/db" "$C/proc/self"
echo "7:7 rbytes=4096 wbytes=0 rios=1 wios=0 dbytes=0 dios=0 depth=2 avg_lat=9000 win=100" \
    >"$C/sys/fs/cgroup/batch/io.stat"
echo "7:7 target=2000" >"$C/sys/fs/cgroup/db/io.latency"
echo "7:7 rbytes=4096 wbytes=0 rios=1 wios=0 dbytes=0 dios=0 depth=max avg_lat=1500 win=100" \
    >"$C/sys/fs/cgroup/db/io.stat"
echo "io" >"$C/sys/fs/cgroup/cgroup.controllers"
echo "io" >"$C/sys/fs/cgroup/cgroup.subtree_control"
dtriage -R "$C" -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$(awk -F'\t' '$2 == "cgroup-limit" { print $3, $4 }' "$TRASH/out")" "/batch 2" \
    "io.latency: the cgroup whose depth it cut, depth 2"
ok "cgroup-limit: held by io.latency, said" grep -q 'held by io.latency on loop7: its queue depth cut to 2 (io.stat depth)' "$TRASH/out"
