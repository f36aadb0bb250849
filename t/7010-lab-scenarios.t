#!/bin/sh
# make check: alone (the lab's timings; sysctls and cgroups of the whole machine)
# The lab's scenarios of stalls that are not the disk's (t/lab.sh), and
# what the kernel shows in each, measured here; dtriage's judgement of
# them is asserted on top of these.  Each runs about 3 s of samples
# (lab_watch, every 0.1 s) after its load has settled:
#  1. uringwait, 4 reads of an empty pipe on io_uring: procs_blocked >= 1,
#     the waiter S in io_cqring_wait, its cgroup's io some >= 50% of the
#     time, no disk I/O of its own (a sample with no disk in flight at
#     all shows it); with IORING_ENTER_NO_IOWAIT (6.15+) its io some ~0.
#  2. 4 readers held at 50 reads/s (blkio or io.max) on a 400 r/s disk:
#     r/s 50 within 10%, the readers in D.
#  3. a buffered writer under vm.dirty_bytes 16 MiB on ext4 on a slow
#     disk: in balance_dirty_pages in most samples, Dirty+Writeback near
#     16 MiB; the sysctls as they were afterwards.
#  4. 2 random readers of a 96 MiB file in a 64 MiB memory cgroup: the
#     cgroup's file refaults at thousands a second, the disk serving them.
#  5. 2 io_uring jobs of iodepth 4 on the 4-slot disk with 4 tags:
#     in_flight 4, io-wq workers (iou-wrk) in blk_mq_get_tag, readers'
#     latency twice the service time.
#  6. reads of a failing range (fusedisk -e): one kernel "I/O error, dev
#     loopN, sector S op 0x0:(READ)" line per failed request, as many
#     as the helper failed (unless printk's rate limit held some back).
#  7. fusedisk -S 10:50: every 10th of 100 reads 50 ms slower.
# Every scenario's cgroups, mounts and sysctls are gone after it.
. "${0%/*}/lib.sh"
. "$T/lab.sh"
lab_need
need_cmd dd

# One scenario's watch file: its figures.
# nsamples W
nsamples() {
	awk '$2 == "up"' "$1" | wc -l
}
# psi_share W psi|cgpsi 3|4: % of the watch's time the io some (3) or
# full (4) total grew.
psi_share() {
	awk -v k="$2" -v f="$3" '$2 == "up" { if (u0 == "") u0 = $3; u1 = $3 }
	    $2 == k { if (p0 == "") p0 = $f; p1 = $f }
	    END { printf "%.1f", (u1 > u0 && p0 != "") ? (p1 - p0) / 1e4 / (u1 - u0) : -1 }' "$1"
}
# iowait W: % of all CPUs' time in iowait over the watch.
iowait() {
	awk '$2 == "cpu" { t = 0; for (i = 3; i <= 10; i++) t += $i
	    if (t0 == "") { t0 = t; w0 = $7 } t1 = t; w1 = $7 }
	    END { printf "%.1f", (t1 > t0) ? (w1 - w0) * 100 / (t1 - t0) : -1 }' "$1"
}
# blocked W: procs_blocked "min median max"
blocked() {
	awk '$2 == "blocked" { print $3 }' "$1" | sort -n |
	    awk '{ v[NR] = $1 } END { print v[1], v[int((NR + 1) / 2)], v[NR] }'
}
# tasks W PIDS: "STATE WCHAN COMM" of the threads of PIDS (main threads
# only with a 4th argument), counted over the samples.
tasks() {
	awk -v p=" $2 " -v m="$3" '$2 == "task" && index(p, " " $3 " ") && (m == "" || $3 == $4) {
	    c = $7; sub(/-[0-9]+$/, "-N", c); n[$5 " " $6 " " c]++ }
	    END { for (k in n) printf "%s x%d; ", k, n[k] }' "$1"
}
# share W PIDS STATE-RE WCHAN-RE: % of the main threads' samples of PIDS
# in a state and wchan matching.
share() {
	awk -v p=" $2 " -v s="^($3)\$" -v w="^($4)\$" '$2 == "task" && index(p, " " $3 " ") && $3 == $4 {
	    n++; if ($5 ~ s && $6 ~ w) k++ } END { printf "%.0f", n ? k * 100 / n : -1 }' "$1"
}
# inflight W DEV: "reads in flight" of DEV in each sample, as "VALUExCOUNT..."
inflight() {
	awk -v d="$2" '$2 == "inflight" && $3 == d { n[$4 + $5]++ }
	    END { for (k in n) printf "%sx%d ", k, n[k] }' "$1"
}
# inflight_share W DEV N: % of samples with N requests of DEV in flight.
inflight_share() {
	awk -v d="$2" -v v="$3" '$2 == "inflight" && $3 == d { n++; if ($4 + $5 == v) k++ }
	    END { printf "%.0f", n ? k * 100 / n : -1 }' "$1"
}
# dx A B COLS: dxstat's COLS of LAB_DEV between two lab_snap files.
dx() {
	dxstat -o tsv -H -f "$1" -f "$2" -O "$3" "$LAB_DEV"
}
# cgone PATH...: none of these cgroups is left.
cgone() {
	for _g; do
		[ ! -d "$_g" ] || { echo "# $_g left"; return 1; }
	done
}
# stat_at FILE KEY: the value of KEY in a "key value" file.
stat_at() {
	awk -v k="$2" '$1 == k { print $2 }' "$1"
}
# unmounted DIR: no process's mount namespace has DIR mounted.
unmounted() {
	! cat /proc/[0-9]*/mountinfo 2>/dev/null | awk -v d="$1" '$5 == d { f = 1 } END { exit !f }'
}
# noerror SEQ DEV: no kernel log line after SEQ tells of an error on DEV
# (the filesystem made and unmounted cleanly, the disk never refused).
noerror() {
	lab_kmsg_since "$1" | grep -E "error.*(dev |device |for |\()$2[-,:) ]" | sed 's/^/# /' | grep . && return 1
	return 0
}
# elapsed T0: seconds since T0 (uptime)
elapsed() {
	awk -v t="$1" '{ printf "%.1f", $1 - t }' /proc/uptime
}
now() {
	cut -d' ' -f1 /proc/uptime
}

# 1. io_uring waiter, no disk I/O.
uring_idle() {
	t0=$(now)
	if ! lab_uring_idle 4; then
		lab_check_cmd "uring: uringwait started ($LAB_ERR)" false
		return
	fi
	w=$LAB_DIR/uring.watch
	pid=$LAB_LOAD
	cg=$LAB_CG
	r0=$(stat_at "/proc/$pid/io" read_bytes:)
	lab_watch uring 3
	r1=$(stat_at "/proc/$pid/io" read_bytes:)
	lab_kill
	some=$(psi_share "$w" cgpsi 3)
	idle=$(awk '$2 == "blocked" { b[$1] = $3 } $2 == "inflight" { f[$1] += $4 + $5 }
	    END { for (s in b) if (b[s] >= 1 && f[s] == 0) n++; print n + 0 }' "$w")
	echo "# uring: $(nsamples "$w") samples in $(elapsed "$t0") s; procs_blocked (min med max) $(blocked "$w");" \
	    "waiter: $(tasks "$w" "$pid");" \
	    "cgroup io some $some% full $(psi_share "$w" cgpsi 4)%;" \
	    "global io some $(psi_share "$w" psi 3)% full $(psi_share "$w" psi 4)%; iowait $(iowait "$w")% of the CPUs;" \
	    "samples blocked with no disk in flight: $idle"
	lab_check "uring: procs_blocked >= 1 in every sample" "$(blocked "$w" | cut -d' ' -f1)" 1 100000
	lab_check "uring: the waiter in S, wchan io_cqring_wait, in every sample (%)" \
	    "$(share "$w" "$pid" S io_cqring_wait)" 100 100
	lab_check -p "uring: its cgroup's io some grew by at least half the time (%)" "$some" 50 101
	lab_check "uring: a sample with procs_blocked >= 1 and no disk in flight" "$idle" 1 100000
	lab_check "uring: the waiter read no byte from a disk" "$((r1 - r0))" 0 0
	lab_check_cmd "uring: its cgroup removed" cgone "$cg"
}

# 1b. The same waiter with IORING_ENTER_NO_IOWAIT.
uring_noiowait() {
	lab_uring_idle 4 noiowait || { lab_check_cmd "uring -n started ($LAB_ERR)" false; return; }
	w=$LAB_DIR/noiowait.watch
	pid=$LAB_LOAD
	lab_watch noiowait 3
	lab_kill
	some=$(psi_share "$w" cgpsi 3)
	echo "# uring, NO_IOWAIT: procs_blocked (min med max) $(blocked "$w"); waiter: $(tasks "$w" "$pid");" \
	    "cgroup io some $some% full $(psi_share "$w" cgpsi 4)%; global io some $(psi_share "$w" psi 3)%"
	lab_check "uring -n: the waiter in S, wchan io_cqring_wait (%)" \
	    "$(share "$w" "$pid" S io_cqring_wait)" 100 100
	lab_check "uring -n: its cgroup's io some about 0 (%)" "$some" 0 1
}

# 2. Readers held at 50 reads/s by their cgroup.
throttle() {
	t0=$(now)
	if ! lab_throttle 4 50 4; then
		lab_check_cmd "throttle: started ($LAB_ERR)" false
		return
	fi
	w=$LAB_DIR/throttle.watch
	cgs="$LAB_CG $LAB_LIMIT_CG"
	jobs=$LAB_JOBS
	sleep 1.3	# fio's ramp
	lab_snap "$LAB_DIR/thr.a"
	lab_watch throttle 3
	lab_snap "$LAB_DIR/thr.b"
	lab_wait
	st=$?
	set -- $(dx "$LAB_DIR/thr.a" "$LAB_DIR/thr.b" r/s,r_await,aqu-sz,%util)
	echo "# throttle ($LAB_LIMIT in $LAB_LIMIT_CG): $(elapsed "$t0") s; r/s $1 r_await $2 aqu-sz $3 %util $4;" \
	    "in_flight $(inflight "$w" "$LAB_DEV"); procs_blocked $(blocked "$w");" \
	    "readers: $(tasks "$w" "$jobs" main); cgroup io some $(psi_share "$w" cgpsi 3)% full $(psi_share "$w" cgpsi 4)%;" \
	    "iowait $(iowait "$w")%"
	lab_check "throttle: fio ran (exit $st)" "$st" 0 0
	lab_check "throttle: the disk's r/s 50 within 10%" "$1" 45 55
	lab_check "throttle: the readers in D in 90% of the samples or more" \
	    "$(share "$w" "$jobs" D '.*')" 90 100
	lab_check_cmd "throttle: its cgroups removed" cgone $cgs
}

# 3. A buffered writer under a 16 MiB dirty limit.
dirty() {
	t0=$(now)
	old=$(cat /proc/sys/vm/dirty_bytes /proc/sys/vm/dirty_background_bytes \
	    /proc/sys/vm/dirty_ratio /proc/sys/vm/dirty_background_ratio | paste -sd' ' -)
	seq=$(lab_kmsg_seq)
	if ! lab_dirty 16777216 5; then
		lab_check_cmd "dirty: started ($LAB_ERR)" false
		lab_stop
		return
	fi
	w=$LAB_DIR/dirty.watch
	set -- $(cat /proc/sys/vm/dirty_bytes /proc/sys/vm/dirty_background_bytes)
	lab_check "dirty: vm.dirty_bytes 16 MiB in the scenario" "$1" 16777216 16777216
	lab_check "dirty: vm.dirty_background_bytes 8 MiB in the scenario" "$2" 8388608 8388608
	jobs=$LAB_JOBS
	cg=$LAB_CG
	fs=$LAB_FS
	dev=$LAB_DEV
	sleep 1
	lab_snap "$LAB_DIR/dirty.a"
	lab_watch dirty 3
	lab_snap "$LAB_DIR/dirty.b"
	lab_wait
	st=$?
	set -- $(dx "$LAB_DIR/dirty.a" "$LAB_DIR/dirty.b" w/s,wareq-sz,w_await,aqu-sz,%util)
	dw=$(awk '$2 == "Dirty" { d = $3 } $2 == "Writeback" { print d + $3 }' "$w" | sort -n |
	    awk '{ v[NR] = $1 } END { print v[1], v[int((NR + 1) / 2)], v[NR] }')
	echo "# dirty: $(elapsed "$t0") s; w/s $1 wareq-sz $2 w_await $3 aqu-sz $4 %util $5;" \
	    "in_flight $(inflight "$w" "$LAB_DEV"); writer: $(tasks "$w" "$jobs" main);" \
	    "Dirty+Writeback kB (min med max) $dw; procs_blocked $(blocked "$w");" \
	    "cgroup io some $(psi_share "$w" cgpsi 3)% full $(psi_share "$w" cgpsi 4)%;" \
	    "fio $(jq '.jobs[0].write.bw' "$LAB_DIR/dirty.json" 2>/dev/null) KiB/s"
	lab_stop
	lab_check "dirty: fio ran (exit $st)" "$st" 0 0
	lab_check "dirty: the writer in balance_dirty_pages in most samples (%)" \
	    "$(share "$w" "$jobs" '.*' balance_dirty_pages)" 51 100
	lab_check "dirty: Dirty+Writeback's median near 16 MiB (kB)" "$(echo "$dw" | cut -d' ' -f2)" 8192 20480
	lab_check "dirty: the sysctls as they were ($old)" \
	    "$(cat /proc/sys/vm/dirty_bytes /proc/sys/vm/dirty_background_bytes \
	    /proc/sys/vm/dirty_ratio /proc/sys/vm/dirty_background_ratio | paste -sd' ' - |
	    awk -v o="$old" '{ print ($0 == o) }')" 1 1
	lab_check_cmd "dirty: unmounted, in every mount namespace" unmounted "$fs"
	lab_check_cmd "dirty: no error logged for $dev" noerror "$seq" "$dev"
	lab_check_cmd "dirty: its cgroup removed" cgone "$cg"
}

# 4. A memory cgroup below its working set.
thrash() {
	t0=$(now)
	seq=$(lab_kmsg_seq)
	if ! lab_thrash 64 96 5; then
		lab_check_cmd "thrash: started ($LAB_ERR)" false
		lab_stop
		return
	fi
	w=$LAB_DIR/thrash.watch
	cgs="$LAB_CG $LAB_MEMCG"
	jobs=$LAB_JOBS
	fs=$LAB_FS
	dev=$LAB_DEV
	sleep 0.5
	cp "$LAB_MEMCG/memory.stat" "$LAB_DIR/ms.a"
	cp "$LAB_CG/memory.pressure" "$LAB_DIR/mp.a" 2>/dev/null
	lab_snap "$LAB_DIR/thrash.a"
	lab_watch thrash 3
	lab_snap "$LAB_DIR/thrash.b"
	cp "$LAB_MEMCG/memory.stat" "$LAB_DIR/ms.b"
	cp "$LAB_CG/memory.pressure" "$LAB_DIR/mp.b" 2>/dev/null
	use=$(cat "$LAB_MEMCG/memory.usage_in_bytes" "$LAB_MEMCG/memory.current" 2>/dev/null | head -1)
	lab_wait
	st=$?
	t=$(lab_interval "$LAB_DIR/thrash.a" "$LAB_DIR/thrash.b")
	rf=$(awk -v t="$t" -v a="$(stat_at "$LAB_DIR/ms.a" "$LAB_REFAULT")" \
	    -v b="$(stat_at "$LAB_DIR/ms.b" "$LAB_REFAULT")" 'BEGIN { printf "%.0f", (b - a) / t }')
	set -- $(dx "$LAB_DIR/thrash.a" "$LAB_DIR/thrash.b" r/s,rareq-sz,r_await,aqu-sz,%util)
	mem=$(awk -v t="$t" '$1 == "some" { sub("total=", "", $5); if (a == "") a = $5; else b = $5 }
	    END { if (a != "") printf "%.1f", (b - a) / 1e4 / t }' "$LAB_DIR/mp.a" "$LAB_DIR/mp.b" 2>/dev/null)
	echo "# thrash ($LAB_MEMCG, $LAB_REFAULT): $(elapsed "$t0") s; refaults $rf/s; r/s $1 rareq-sz $2 r_await $3 aqu-sz $4 %util $5;" \
	    "usage $use of $((64 << 20)); readers: $(tasks "$w" "$jobs" main);" \
	    "cgroup io some $(psi_share "$w" cgpsi 3)% full $(psi_share "$w" cgpsi 4)%, memory some $mem%;" \
	    "procs_blocked $(blocked "$w"); fio $(jq '.jobs[0].read.iops' "$LAB_DIR/thrash.json" 2>/dev/null) reads/s"
	lab_check "thrash: fio ran (exit $st)" "$st" 0 0
	lab_check "thrash: the cgroup's file refaults at thousands a second" "$rf" 1000 1000000
	lab_check "thrash: the disk serves them, a 4 KiB read each (r/s over refaults/s)" \
	    "$(awk -v r="$1" -v f="$rf" 'BEGIN { printf "%.2f", f ? r / f : 0 }')" 0.9 1.2
	lab_stop
	lab_check_cmd "thrash: its cgroups removed" cgone $cgs
	lab_check_cmd "thrash: unmounted, in every mount namespace" unmounted "$fs"
	lab_check_cmd "thrash: no error logged for $dev" noerror "$seq" "$dev"
}

# 5. io_uring readers at the disk's request limit.
uring_readers() {
	t0=$(now)
	if ! lab_uring_readers 2 4 5; then
		lab_check_cmd "uring readers: started ($LAB_ERR)" false
		return
	fi
	w=$LAB_DIR/ur.watch
	jobs=$LAB_JOBS
	sleep 1
	lab_snap "$LAB_DIR/ur.a"
	lab_watch ur 3
	lab_snap "$LAB_DIR/ur.b"
	lab_wait
	st=$?
	set -- $(dx "$LAB_DIR/ur.a" "$LAB_DIR/ur.b" r/s,r_await,aqu-sz,%util)
	lat=$(jq '.jobs[0].read.lat_ns.mean / 1e6 * 100 | round / 100' "$LAB_DIR/uring.json" 2>/dev/null)
	wrk=$(awk '$2 == "task" && $7 ~ /^iou-wrk-/ && $6 == "blk_mq_get_tag" { n[$1]++ } $2 == "up" { s++ }
	    END { for (k in n) { t++; c += n[k] } printf "%.0f %.1f", s ? t * 100 / s : -1, s ? c / s : -1 }' "$w")
	echo "# uring readers: $(elapsed "$t0") s; r/s $1 r_await $2 aqu-sz $3 %util $4; fio lat $lat ms;" \
	    "in_flight $(inflight "$w" "$LAB_DEV"); threads: $(tasks "$w" "$jobs");" \
	    "samples with an iou-wrk in blk_mq_get_tag ${wrk% *}%, ${wrk#* } of them a sample;" \
	    "procs_blocked $(blocked "$w"); cgroup io some $(psi_share "$w" cgpsi 3)% full $(psi_share "$w" cgpsi 4)%"
	lab_check "uring readers: fio ran (exit $st)" "$st" 0 0
	lab_check "uring readers: in_flight 4 in 80% of the samples or more" \
	    "$(inflight_share "$w" "$LAB_DEV" 4)" 80 100
	lab_check "uring readers: an iou-wrk thread in blk_mq_get_tag in 80% of the samples or more" \
	    "${wrk% *}" 80 100
	lab_check -p "uring readers: their latency twice the 10 ms service, within 15%" "$lat" 17 23
}

# 6. A disk that fails reads.
eio() {
	t0=$(now)
	seq=$(lab_kmsg_seq)
	if ! lab_eio 1048576 64 2 3; then
		lab_check_cmd "eio: started ($LAB_ERR)" false
		return
	fi
	dev=$LAB_DEV
	lab_wait
	st=$?
	n=$(lab_stats | cut -d' ' -f6)
	lab_kmsg_since "$seq" >"$LAB_DIR/kmsg"
	grep "I/O error, dev $dev, sector [0-9]* op 0x0:(READ)" "$LAB_DIR/kmsg" >"$LAB_DIR/kmsg.eio"
	k=$(wc -l <"$LAB_DIR/kmsg.eio")
	sup=$(grep -c 'blk_print_req_error: [0-9]* callbacks suppressed' "$LAB_DIR/kmsg")
	echo "# eio: $(elapsed "$t0") s; fusedisk failed $n reads; kernel log: $k lines, first:" \
	    "$(head -1 "$LAB_DIR/kmsg.eio" | cut -d' ' -f3-); rate-limit notes: $sup"
	lab_check "eio: fio ran (exit $st)" "$st" 0 0
	lab_check "eio: the helper failed about 6 reads (2/s for 3 s)" "$n" 4 8
	lab_check "eio: each sector logged is the next of the range" \
	    "$(awk '{ for (i = 1; i < NF; i++) if ($i == "sector") s = $(i + 1)
	    if (s != 1048576 + NR - 1) bad++ } END { print bad + 0 }' "$LAB_DIR/kmsg.eio")" 0 0
	if [ "$sup" -gt 0 ]; then
		lab_disturbed "printk's rate limit held back lines of blk_print_req_error ($sup notes)"
		lab_check -p "eio: as many kernel lines as failed reads" "$k" "$n" "$n"
	else
		lab_check "eio: as many kernel lines as failed reads" "$k" "$n" "$n"
	fi
}

# 7. Every 10th request 50 ms slower.
slow() {
	lab_start 4 1 1 256M -S 10:50 || { lab_check_cmd "slow: started ($LAB_ERR)" false; return; }
	s1=$(lab_stats)
	set -- $(cat "/sys/block/$LAB_DEV/stat")
	r=$1 ms=$4
	dd if="/dev/$LAB_DEV" of=/dev/null bs=4k count=100 skip=1000 iflag=direct 2>/dev/null
	set -- $(cat "/sys/block/$LAB_DEV/stat")
	s2=$(lab_stats)
	echo "# slow: $(($1 - r)) reads, $(($4 - ms)) ms reading; helper: $s1 -> $s2"
	lab_check "slow: 100 reads" "$(($1 - r))" 100 100
	lab_check "slow: the helper slowed 10" "$(echo "$s2" | cut -d' ' -f7)" 10 10
	lab_check -p "slow: 100 x 1 ms + 10 x 50 ms reading, the kernel path above it" \
	    "$(($4 - ms))" 600 660
	lab_stop
}

iou=$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)
if [ "$iou" = 2 ]; then
	skip "uring: the io_uring waiter" "io_uring disabled (kernel.io_uring_disabled = 2)"
elif ! lab_uring_idle 1; then
	skip "uring: the io_uring waiter" "$LAB_ERR (kernel.io_uring_disabled = $iou)"
else
	lab_kill
	lab_try uring_idle
	if lab_uring_idle 1 noiowait; then
		lab_kill
		lab_try uring_noiowait
	else
		skip "uring -n: the waiter's opt-out" "$LAB_ERR"
	fi
fi

if [ -z "$(_lab_v1 blkio)" ] && ! grep -qw io "$LAB_V2/cgroup.controllers"; then
	skip "throttle: readers held at 50 reads/s" "no io controller in cgroup v2, no v1 blkio"
else
	lab_try throttle
fi

if ! have_prog mkfs.ext4 mount umount; then
	skip "dirty: a writer throttled by the dirty limit" "needs mkfs.ext4, mount, umount"
	skip "thrash: a memory cgroup below its working set" "needs mkfs.ext4, mount, umount"
else
	lab_try dirty
	if [ -z "$(_lab_v1 memory)" ] && ! grep -qw memory "$LAB_V2/cgroup.controllers"; then
		skip "thrash: a memory cgroup below its working set" "no memory controller, v2 or v1"
	else
		lab_try thrash
	fi
fi

if [ "$iou" = 2 ]; then
	skip "uring readers" "io_uring disabled (kernel.io_uring_disabled = 2)"
elif ! fio --enghelp 2>/dev/null | grep -qw io_uring; then
	skip "uring readers" "fio without its io_uring engine"
else
	lab_try uring_readers
fi

lab_try eio
lab_try slow
lab_stop
