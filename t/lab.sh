# t/lab.sh: the latency lab, a disk whose truth we know.  Source it
# after lib.sh:   . "${0%/*}/lib.sh"; . "$T/lab.sh"
#
# t/lab/fusedisk (built by "make check") serves one file on a FUSE mount
# of its own (raw /dev/fuse, its own mount namespace) and completes each
# request on an ideal schedule of SLOTS slots in virtual time:
#     done = max(arrival, earliest free slot) + service time
# A loop device over that file with direct I/O on (without it loop
# serialises: one slot whatever the helper does) is the lab disk.  So
# with k readers of a 4-slot 10 ms disk the truth is: r/s = min(k,4)/10ms,
# r_await = 10 ms x max(1, k/4), aqu-sz = k (Little's law).  Reads return
# zeroes, writes are discarded, unless the disk keeps its data (then a
# filesystem can be made on it).  Writes and flushes take the write
# service time; discards and write-zeroes complete at once.
#
# What it needs: root, /dev/fuse, /dev/loop-control, a cgroup v2 mount,
# fio, jq, nsenter, taskset, chrt; lab_need skips the script otherwise.
# About 0.1-0.15 ms of kernel path (loop worker, FUSE, wake-ups) is added
# to each request; a machine whose CPUs are full adds more, so the
# helper and the loads run SCHED_FIFO (LAB_RT=0: not) and the loads are
# pinned to one CPU (LAB_CPU, default the last online one).
#
# The API (stable: dxstat, dpsi, dwho, dlat and dtriage tests use it):
#   lab_need                 skip_all unless the lab can run here
#   lab_start SLOTS READ_MS WRITE_MS [SIZE] [keep] [-e START:LEN]
#             [-S N:MS] [-F MS]
#                            make the disk (SIZE default 1G, K/M/G/T; "keep":
#                            keep written data in memory; -e: sectors START
#                            to START+LEN-1 fail with EIO; -S: every Nth
#                            request takes MS more; -F: flushes take MS,
#                            see t/lab/fusedisk.c); sets LAB_DEV (loopN),
#                            LAB_DIR (its scratch directory), LAB_PID (the
#                            helper), LAB_SLOTS; returns 1 with LAB_ERR
#                            set when the helper cannot run here.  Undone
#                            at exit (at_exit), even when the test fails.
#   lab_stop                 stop the load, restore the queue, detach the
#                            loop device, stop the helper (also at exit)
#   lab_queue SCHED NR       scheduler and nr_requests of LAB_DEV (NR
#                            "-": leave it), with the driver-tag reset;
#                            restored by lab_stop
#   lab_load NAME FIO-OPTION...
#                            fio in the background, pinned to LAB_CPU, in a
#                            fresh cgroup v2 child: LAB_LOAD (fio's pid),
#                            LAB_CG (the cgroup's path), LAB_CGNAME (its
#                            name under the v2 mount, for dpsi -c); fio's
#                            JSON report goes to $LAB_DIR/NAME.json
#   lab_run NAME CMD...      the same for any command; its output in
#                            $LAB_DIR/NAME.out
#   lab_readers NAME N SECONDS
#                            lab_load of N direct random 4 KiB psync
#                            readers of LAB_DEV for SECONDS (1 s ramp)
#   lab_wait                 wait for the load, remove its cgroup; the
#                            load's exit status
#   lab_kill                 kill the load now, remove its cgroups
#   lab_pressure [CG]        "some full": io.pressure totals (us) of CG
#                            (default LAB_CG)
#   lab_snap FILE            dxstat -s to FILE, and the load cgroup's
#                            io.pressure totals with the uptime ("some
#                            full uptime") to FILE.psi, at one instant
#   lab_iostat SECONDS NAME  iostat -x -d -p ALL -y SECONDS 1, live, whose
#                            two readings of /proc/uptime and
#                            /proc/diskstats are the snapshots
#                            $LAB_DIR/NAME.1 and NAME.2 (lab_snap) taken
#                            as it reads: dxstat -f on them covers iostat's
#                            own interval; iostat's report in NAME.iostat
#                            (-p ALL: only then does iostat read
#                            /proc/diskstats, not sysfs).
#                            NAME.1c and NAME.2c: the same with the uptime
#                            cut to centiseconds, the only clock iostat has
#   lab_stats                the helper's counts since it started: "reads
#                            writes fsyncs late_ns late_max_ns eio slow"
#                            (late: how long after their deadlines replies
#                            woke; eio: requests failed by -e, counted in
#                            reads and writes too; slow: slowed by -S)
#   lab_iostat_cmp NAME      iostat's LAB_DEV row of lab_iostat NAME equals
#                            dxstat -f NAME.1c NAME.2c in every column
#   lab_interval A B         seconds between two lab_snap files
#   lab_try CMD...           run a measurement CMD, and once more if one of
#                            its checks missed; its checks are then TAP
#                            results:
#   lab_check [-p] DESC GOT LO HI, lab_check_cmd DESC CMD...
#                            one check; -p: of the lab's precision (see
#                            lab_late, lab_disturbed)
#   lab_late ST1 ST2 MS      the helper's mean lateness (us) between two
#                            lab_stats readings; marks the attempt
#                            disturbed when above MS x 5 us (a quarter of
#                            the 2% the lab resolves)
#   lab_disturbed REASON     mark the attempt disturbed from outside
#
# The scenarios: stalls whose cause is known, to judge what is not the
# disk's.  Each starts its load in the background and returns (1, with
# LAB_ERR, when it cannot run here), having set LAB_LOAD, LAB_CG and
# LAB_CGNAME (the load's fresh v2 cgroup: its io.pressure is the load's)
# and LAB_JOBS (fio's job processes, its first one aside); each but
# lab_uring_idle makes its own lab disk (LAB_DEV).  lab_wait (after
# SECONDS) or lab_kill ends the load; lab_stop, at exit too, undoes the
# rest: sysctls put back, files, mounts and cgroups removed.
#   lab_uring_idle N [noiowait]
#                            t/lab/uringwait: N reads of an empty pipe
#                            pending on io_uring, asleep in io_cqring_wait,
#                            until lab_kill; no disk.  noiowait: with
#                            IORING_ENTER_NO_IOWAIT (kernel 6.15+).
#                            LAB_LOAD is its pid
#   lab_throttle READERS IOPS SECONDS
#                            a 4-slot 10 ms disk (400 reads/s); lab_readers
#                            READERS in a cgroup held at IOPS reads/s on
#                            it: io.max "MAJ:MIN riops=IOPS" on LAB_CG when
#                            the v2 hierarchy has the io controller, else
#                            v1 blkio.throttle.read_iops_device.
#                            LAB_LIMIT_CG: the cgroup holding the limit;
#                            LAB_LIMIT: "FILE VALUE" written there
#   lab_fs                   ext4 on LAB_DEV (a "keep" disk) mounted on
#                            LAB_FS ($LAB_DIR/fs) in the helper's mount
#                            namespace (lab_run's loads run there);
#                            unmounted by lab_stop
#   lab_ns CMD...            CMD in that namespace (ls "$LAB_FS"...)
#   lab_dirty BYTES SECONDS [WRITE_MS]
#                            a 4-slot "keep" disk of 1 ms reads and
#                            WRITE_MS (10) writes with lab_fs; sysctls
#                            vm.dirty_bytes BYTES, vm.dirty_background_bytes
#                            BYTES/2; one fio job writing 1 MiB buffered
#                            to LAB_DIRTY_FILE: it sits in
#                            balance_dirty_pages
#   lab_thrash LIMIT_MB FILE_MB SECONDS [READ_MS [JOBS]]
#                            a 4-slot "keep" disk of READ_MS (0.25) reads
#                            with lab_fs and LAB_THRASH_FILE of FILE_MB; a
#                            memory cgroup of LIMIT_MB (memory.max of LAB_CG
#                            when v2 has the memory controller, else v1
#                            memory.limit_in_bytes): LAB_MEMCG its path,
#                            LAB_REFAULT the memory.stat key counting its
#                            refaults (v1 total_workingset_refault_file, v2
#                            workingset_refault_file).  The file is read
#                            once in it, then JOBS (2) fio jobs read it at
#                            random, 4 KiB buffered psync: a miss is a
#                            refault and a 4 KiB read
#   lab_uring_readers JOBS DEPTH SECONDS
#                            a 4-slot 10 ms disk, scheduler none and
#                            nr_requests 4; JOBS fio jobs of ioengine
#                            io_uring, iodepth DEPTH, direct random 4 KiB
#                            reads
#   lab_eio START LEN RATE SECONDS
#                            a 4-slot 1 ms disk whose sectors START to
#                            START+LEN-1 fail (-e); fio reading them in
#                            order, 512 bytes direct, RATE a second
#                            (continue_on_error): one failed request and
#                            one kernel "I/O error" line each
# Their evidence:
#   lab_watch NAME SECONDS [INTERVAL]    (SECONDS whole)
#                            samples every INTERVAL (0.1 s) for SECONDS to
#                            $LAB_DIR/NAME.watch, lines "N KEY VALUE...":
#                            up UPTIME; cpu USER NICE SYSTEM IDLE IOWAIT IRQ
#                            SOFTIRQ STEAL (ticks, all CPUs); blocked and
#                            running (procs_blocked, procs_running); Dirty
#                            KB; Writeback KB; psi SOME FULL (io totals, us)
#                            and cgpsi SOME FULL (LAB_CG's); inflight DEV R
#                            W (each /sys/block disk); task PID TID STATE
#                            WCHAN COMM (each thread of LAB_CG; WCHAN 0
#                            when running)
#   lab_kmsg_seq             the sequence number of the kernel log's last
#                            record
#   lab_kmsg_since SEQ       the records after SEQ, "SEQ USEC MESSAGE"
#
# One disk at a time (lab_start stops the previous one).  The helper
# stops when the test's shell dies (PR_SET_PDEATHSIG); only a test killed
# by SIGKILL leaves its loop device (losetup -l: BACK-FILE .../mnt/disk).

LAB_HELPER=$TOP/t/lab/fusedisk
LAB_RT=${LAB_RT-1}
LAB_DEV=
LAB_DIR=
LAB_PID=
LAB_ERR=
LAB_LOAD=
LAB_CG=
LAB_CGNAME=
_lab_n=0
_lab_cgs=
_lab_queue=
_lab_undo=
_lab_armed=
LAB_SLOTS=
LAB_FS=

lab_need() {
	need_root
	need_cmd fio jq nsenter taskset chrt losetup awk
	[ -e /dev/loop-control ] || skip_all "no /dev/loop-control"
	[ -c /dev/fuse ] || skip_all "no /dev/fuse"
	[ -x "$LAB_HELPER" ] || skip_all "t/lab/fusedisk not built (make check builds it)"
	LAB_V2=$(awk '{ for (i = 7; i <= NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") print $5; break } }' \
	    /proc/self/mountinfo | head -1)
	[ -n "$LAB_V2" ] || skip_all "no cgroup v2 mount"
	[ -r "$LAB_V2/io.pressure" ] || [ -r /proc/pressure/io ] || skip_all "no PSI"
	[ -n "$LAB_CPU" ] || LAB_CPU=$(($(getconf _NPROCESSORS_ONLN) - 1))
	export LAB_V2 LAB_CPU
}

lab_start() {
	lab_stop	# one lab disk at a time
	_lab_n=$((_lab_n + 1))
	LAB_DIR=$TRASH/lab$_lab_n
	LAB_ERR=
	LAB_SLOTS=$1
	mkdir -p "$LAB_DIR/mnt" || return 1
	# SIZE, "keep" and the helper's options (-e START:LEN, -S N:MS,
	# -F MS) after the three times, in any order.
	_ls="-n $1 -r $2 -w $3"
	_lsz=1G
	shift 3
	while [ $# -gt 0 ]; do
		case $1 in
		keep) _ls="$_ls -k" ;;
		-?)
			[ $# -ge 2 ] || { LAB_ERR="lab_start: $1 without its value"; return 1; }
			_ls="$_ls $1 $2"
			shift
			;;
		*) _lsz=$1 ;;
		esac
		shift
	done
	# shellcheck disable=SC2086
	set -- $_ls -s "$_lsz"
	[ "$LAB_RT" = 1 ] && set -- -p 10 "$@"
	"$LAB_HELPER" "$@" "$LAB_DIR/mnt" >"$LAB_DIR/out" 2>"$LAB_DIR/log" &
	LAB_PID=$!
	at_exit lab_stop
	_i=0
	while ! grep -qx ready "$LAB_DIR/out" 2>/dev/null; do
		if ! kill -0 "$LAB_PID" 2>/dev/null || [ $_i -ge 100 ]; then
			LAB_ERR="fusedisk: $(tr '\n' ' ' <"$LAB_DIR/log")"
			lab_stop
			return 1
		fi
		sleep 0.05
		_i=$((_i + 1))
	done
	# The file is in the helper's mount namespace: losetup there.
	_d=$(nsenter -t "$LAB_PID" -m losetup -f --show --direct-io=on "$LAB_DIR/mnt/disk" 2>"$LAB_DIR/err")
	if [ -z "$_d" ]; then
		LAB_ERR="losetup: $(tr '\n' ' ' <"$LAB_DIR/err")"
		lab_stop
		return 1
	fi
	LAB_DEV=${_d#/dev/}
	if [ "$(cat "/sys/block/$LAB_DEV/loop/dio" 2>/dev/null)" != 1 ]; then
		LAB_ERR="$LAB_DEV: direct I/O refused"
		lab_stop
		return 1
	fi
	command -v udevadm >/dev/null 2>&1 && udevadm settle 2>/dev/null
	_loop_defaults "$LAB_DEV"
	_q=/sys/block/$LAB_DEV/queue
	_lab_queue="$(sed 's/.*\[\(.*\)\].*/\1/' "$_q/scheduler") $(cat "$_q/nr_requests")"
	# A reused loop device may keep a stale driver-tag depth: reset it.
	lab_queue $_lab_queue || { LAB_ERR="cannot set the queue of $LAB_DEV"; lab_stop; return 1; }
	export LAB_DEV LAB_DIR LAB_PID LAB_SLOTS
}

# Writing nr_requests its own value does nothing, and a loop device can
# keep the driver-tag depth of its last user whatever sysfs says:
# another value first, then the one wanted, resizes the tags for real.
lab_queue() {
	_q=/sys/block/$LAB_DEV/queue
	echo "$1" >"$_q/scheduler" || return 1
	[ "$2" = - ] && return 0
	if [ "$2" -gt 1 ]; then _o=$(($2 - 1)); else _o=2; fi
	echo "$_o" >"$_q/nr_requests" && echo "$2" >"$_q/nr_requests" || return 1
	[ "$(cat "$_q/nr_requests")" = "$2" ] &&
	    grep -q "\[$1\]" "$_q/scheduler"
}

lab_stop() {
	_lab_kill_load
	# What the scenarios set up, undone last first: files, mounts, sysctls.
	_lu=$_lab_undo
	_lab_undo=
	eval "$_lu"
	if [ -n "$LAB_DEV" ]; then
		[ -n "$_lab_queue" ] && lab_queue $_lab_queue 2>/dev/null
		losetup -d "/dev/$LAB_DEV" 2>/dev/null
		LAB_DEV=
	fi
	if [ -n "$LAB_PID" ]; then
		kill -TERM "$LAB_PID" 2>/dev/null
		wait "$LAB_PID" 2>/dev/null
		LAB_PID=
	fi
	_lab_queue=
	return 0
}

_lab_kill_load() {
	[ -f "$TRASH/.lab_cgs" ] && _lab_cgs=$(sort -r "$TRASH/.lab_cgs") && rm -f "$TRASH/.lab_cgs"
	for _c in $_lab_cgs; do
		[ -e "$_c/cgroup.kill" ] && echo 1 >"$_c/cgroup.kill" 2>/dev/null
		for _p in $(cat "$_c/cgroup.procs" 2>/dev/null); do
			kill -KILL "$_p" 2>/dev/null
		done
	done
	[ -n "$LAB_LOAD" ] && wait "$LAB_LOAD" 2>/dev/null
	LAB_LOAD=
	for _c in $_lab_cgs; do
		_j=0
		while ! rmdir "$_c" 2>/dev/null && [ -d "$_c" ] && [ $_j -lt 50 ]; do
			sleep 0.1
			_j=$((_j + 1))
		done
	done
	_lab_cgs=
}

lab_load() {
	_name=$1
	shift
	lab_run "$_name" fio --name="$_name" --output-format=json \
	    --output="$LAB_DIR/$_name.json" "$@"
}

# The fresh v2 cgroup, and the v1 cgroup a scenario made for this load
# (_lab_join, emptied here; the v2 one then has its name), are joined
# before CMD is exec'd, so all it
# does is charged there from its first page; _lab_set "FILE VALUE" (a
# limit) is written into the v2 cgroup before anyone joins it.
lab_run() {
	_rt=
	[ "$LAB_RT" = 1 ] && _rt="chrt -f 5"
	_name=$1
	shift
	_lab_dir
	_lj=$_lab_join
	# The v2 cgroup takes the name of the v1 one made for the load, as
	# systemd names a unit alike in every hierarchy of a hybrid host.
	if [ -n "$_lj" ]; then
		LAB_CG=$LAB_V2/${_lj##*/}
		mkdir "$LAB_CG" || return 1
		echo "$LAB_CG" >>"$TRASH/.lab_cgs"
	else
		LAB_CG=$(_lab_cg "$LAB_V2" "$_name") || return 1
	fi
	LAB_CGNAME=${LAB_CG#"$LAB_V2"/}
	_ls=$_lab_set
	_lab_join=
	_lab_set=
	if [ -n "$_ls" ] && ! echo "${_ls#* }" >"$LAB_CG/${_ls%% *}"; then
		LAB_ERR="cannot write ${_ls#* } to $LAB_CG/${_ls%% *}"
		return 1
	fi
	# In the helper's mount namespace when the disk has a filesystem.
	_ns=
	[ -n "$LAB_FS" ] && _ns="nsenter -t $LAB_PID -m"
	# shellcheck disable=SC2086
	sh -c 'for c in $1; do echo $$ >"$c/cgroup.procs" || exit 1; done; shift; exec "$@"' \
	    lab "$LAB_CG $_lj" $_ns $_rt taskset -c "$LAB_CPU" "$@" >"$LAB_DIR/$_name.out" 2>&1 &
	LAB_LOAD=$!
	export LAB_CG LAB_CGNAME LAB_LOAD
}

# _lab_cg DIR NAME: make a cgroup of ours under DIR (a v2 mount or a v1
# controller's), removed by _lab_kill_load; its path on stdout.  Not in
# a subshell's memory: the list is kept in a file.
_lab_cg() {
	_lab_cgn=$(($(cat "$TRASH/.lab_cgn" 2>/dev/null || echo 0) + 1))
	echo "$_lab_cgn" >"$TRASH/.lab_cgn"
	_c=$1/diskstat-lab.$$.$_lab_cgn.$2
	mkdir "$_c" || return 1
	echo "$_c" >>"$TRASH/.lab_cgs"
	echo "$_c"
}

# A scratch directory for scenarios without a lab disk.
_lab_dir() {
	[ -n "$LAB_DIR" ] && return 0
	_lab_n=$((_lab_n + 1))
	LAB_DIR=$TRASH/lab$_lab_n
	mkdir -p "$LAB_DIR"
	export LAB_DIR
}

# _lab_on_stop CMD: run CMD in lab_stop (and so at exit), after the
# loads are killed, last registered first.
_lab_on_stop() {
	_lab_undo="$1; $_lab_undo"
	[ -n "$_lab_armed" ] && return 0
	_lab_armed=1
	at_exit lab_stop
}

lab_readers() {
	lab_load "$1" --filename="/dev/$LAB_DEV" --direct=1 --rw=randread --bs=4k \
	    --ioengine=psync --numjobs="$2" --group_reporting --norandommap \
	    --randrepeat=0 --time_based --ramp_time=1 --runtime="$3"
}

lab_uring_idle() {
	_lab_dir
	_lab_on_stop :	# lab_stop at exit, with no disk made
	_o=
	[ "$2" = noiowait ] && _o=-n
	rm -f "$LAB_DIR/uring.out"
	lab_run uring "$TOP/t/lab/uringwait" $_o "$1"
	_i=0
	while ! grep -qx ready "$LAB_DIR/uring.out" 2>/dev/null; do
		if ! kill -0 "$LAB_LOAD" 2>/dev/null || [ $_i -ge 100 ]; then
			wait "$LAB_LOAD" 2>/dev/null
			LAB_ERR="uringwait: $(tr '\n' ' ' <"$LAB_DIR/uring.out")"
			_lab_kill_load
			return 1
		fi
		sleep 0.05
		_i=$((_i + 1))
	done
}

lab_throttle() {
	lab_start 4 10 10 || return 1
	_mm=$(cat "/sys/block/$LAB_DEV/dev")
	if _lab_v2_ctl io; then
		_lab_set="io.max $_mm riops=$2"
		LAB_LIMIT="io.max $_mm riops=$2"
	else
		_b=$(_lab_v1 blkio)
		if [ -z "$_b" ] || [ ! -e "$_b/blkio.throttle.read_iops_device" ]; then
			LAB_ERR="no io controller in the cgroup v2 hierarchy, no v1 blkio throttling"
			return 1
		fi
		LAB_LIMIT_CG=$(_lab_cg "$_b" throttle) || return 1
		LAB_LIMIT="blkio.throttle.read_iops_device $_mm $2"
		echo "$_mm $2" >"$LAB_LIMIT_CG/blkio.throttle.read_iops_device" ||
		    { LAB_ERR="cannot write $LAB_LIMIT"; return 1; }
		_lab_join=$LAB_LIMIT_CG
	fi
	lab_readers throttle "$1" "$3" || return 1
	[ -n "$_lab_v2" ] && LAB_LIMIT_CG=$LAB_CG
	_lab_jobs "$1"
	export LAB_LIMIT_CG LAB_LIMIT
}

# _lab_v2_ctl CTL: whether the v2 hierarchy has controller CTL; enabled
# for our children when it was not (and disabled again by lab_stop).
# Sets _lab_v2 (1 or empty).
_lab_v2_ctl() {
	_lab_v2=
	grep -qw "$1" "$LAB_V2/cgroup.controllers" 2>/dev/null || return 1
	if ! grep -qw "$1" "$LAB_V2/cgroup.subtree_control"; then
		echo "+$1" >"$LAB_V2/cgroup.subtree_control" || return 1
		_lab_on_stop "echo -$1 >'$LAB_V2/cgroup.subtree_control' 2>/dev/null"
	fi
	_lab_v2=1
}

# _lab_v1 CTL: the mount point of the v1 hierarchy with controller CTL.
_lab_v1() {
	awk -v c="$1" '$3 == "cgroup" { n = split($4, o, ","); for (i = 1; i <= n; i++)
	    if (o[i] == c) { print $2; exit } }' /proc/mounts
}

# The filesystem is mounted in the helper's mount namespace, not the
# machine's: a mount namespace someone makes meanwhile (unshare -m)
# would copy a mount of ours and keep it alive after our umount, to be
# written to (I/O errors, a journal aborted) after the disk is gone.
lab_fs() {
	have_prog mkfs.ext4 mount umount || { LAB_ERR="needs mkfs.ext4, mount, umount"; return 1; }
	mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "/dev/$LAB_DEV" \
	    >"$LAB_DIR/mkfs" 2>&1 || { LAB_ERR="mkfs.ext4: $(cat "$LAB_DIR/mkfs")"; return 1; }
	mkdir -p "$LAB_DIR/fs"
	lab_ns mount -t ext4 -o noatime "/dev/$LAB_DEV" "$LAB_DIR/fs" ||
	    { LAB_ERR="cannot mount ext4 on $LAB_DEV"; return 1; }
	LAB_FS=$LAB_DIR/fs
	_lab_on_stop "lab_ns umount '$LAB_FS' || lab_ns umount -l '$LAB_FS'; LAB_FS="
	export LAB_FS
}

lab_ns() {
	nsenter -t "$LAB_PID" -m "$@"
}

# _lab_sysctl NAME VALUE: set /proc/sys/NAME (a/b/c), restored by lab_stop.
# The dirty limits come in pairs, bytes and ratio, one of them 0: the one
# in use is put back, which zeroes the other as it was.
_lab_sysctl() {
	_f=/proc/sys/$1
	_old=$(cat "$_f") || return 1
	case $1 in
	vm/dirty_bytes|vm/dirty_background_bytes)
		_r=$(echo "$_f" | sed 's/_bytes$/_ratio/')
		if [ "$_old" = 0 ]; then
			_lab_on_stop "echo $(cat "$_r") >$_r"
		else
			_lab_on_stop "echo $_old >$_f"
		fi
		;;
	*) _lab_on_stop "echo $_old >$_f" ;;
	esac
	echo "$2" >"$_f"
}

lab_dirty() {
	lab_start 4 1 "${3:-10}" 1G keep || return 1
	lab_fs || return 1
	LAB_DIRTY_FILE=$LAB_FS/dirty
	# Deleted before the unmount: its dirty pages go without writeback.
	_lab_on_stop "lab_ns rm -f '$LAB_DIRTY_FILE'"
	if ! _lab_sysctl vm/dirty_background_bytes $(($1 / 2)) ||
	    ! _lab_sysctl vm/dirty_bytes "$1"; then
		LAB_ERR="cannot set vm.dirty_bytes"
		return 1
	fi
	# Real-time as every load: a writer waiting for its CPU on a busy
	# machine would be seen running, not throttled.  Between pauses it
	# copies for a few ms at most; the flusher and loop's workers are
	# unbound.  overwrite=0: no laying out of the file first.
	lab_load dirty --filename="$LAB_DIRTY_FILE" --size=256M --rw=write --bs=1M \
	    --ioengine=psync --fallocate=none --overwrite=0 --time_based --runtime="$2" || return 1
	_lab_jobs
	export LAB_DIRTY_FILE
}

lab_thrash() {
	lab_start 4 "${4:-0.25}" 1 1G keep || return 1
	lab_fs || return 1
	LAB_THRASH_FILE=$LAB_FS/thrash
	lab_ns dd if=/dev/urandom of="$LAB_THRASH_FILE" bs=1M count="$2" conv=fsync 2>"$LAB_DIR/dd" ||
	    { LAB_ERR="dd: $(cat "$LAB_DIR/dd")"; return 1; }
	if _lab_v2_ctl memory; then
		_lab_set="memory.max $(($1 << 20))"
		LAB_REFAULT=workingset_refault_file
	else
		_b=$(_lab_v1 memory)
		if [ -z "$_b" ] || [ ! -e "$_b/memory.limit_in_bytes" ]; then
			LAB_ERR="no memory controller, v2 or v1"
			return 1
		fi
		LAB_MEMCG=$(_lab_cg "$_b" thrash) || return 1
		LAB_REFAULT=total_workingset_refault_file
		echo $(($1 << 20)) >"$LAB_MEMCG/memory.limit_in_bytes" ||
		    { LAB_ERR="cannot set memory.limit_in_bytes"; return 1; }
		_lab_join=$LAB_MEMCG
	fi
	# In the cgroup: the file's pages (charged to its writer) dropped,
	# then read once in order, so the cgroup's cache is full and the
	# rest evicted (with their shadow entries) before fio starts; fio
	# keeps that cache (invalidate=0) and reads the file at random
	# without readahead (fadvise_hint): each miss is one 4 KiB read of
	# the disk, and a refault at once.
	lab_run thrash sh -c 'dd if="$1" iflag=nocache count=0 2>/dev/null &&
	    cat "$1" >/dev/null && shift && exec "$@"' thrash "$LAB_THRASH_FILE" \
	    fio --name=thrash --output-format=json --output="$LAB_DIR/thrash.json" \
	    --filename="$LAB_THRASH_FILE" --size="$2"M --rw=randread --bs=4k \
	    --ioengine=psync --invalidate=0 --numjobs="${5:-2}" --group_reporting \
	    --norandommap --randrepeat=0 --time_based --runtime="$3" || return 1
	[ -n "$_lab_v2" ] && LAB_MEMCG=$LAB_CG
	_lab_jobs "${5:-2}"
	export LAB_THRASH_FILE LAB_MEMCG LAB_REFAULT
}

lab_uring_readers() {
	lab_start 4 10 10 || return 1
	lab_queue none 4 || { LAB_ERR="cannot set scheduler none and nr_requests 4"; return 1; }
	lab_load uring --filename="/dev/$LAB_DEV" --direct=1 --rw=randread --bs=4k \
	    --ioengine=io_uring --iodepth="$2" --numjobs="$1" --group_reporting \
	    --norandommap --randrepeat=0 --time_based --runtime="$3" || return 1
	_lab_jobs "$1"
}

lab_eio() {
	lab_start 4 1 1 1G -e "$1:$2" || return 1
	# Each failing read is one request: 512 bytes, direct.
	lab_load eio --filename="/dev/$LAB_DEV" --direct=1 --rw=read --bs=512 \
	    --offset=$(($1 * 512)) --size=$(($2 * 512)) --ioengine=psync \
	    --rate_iops="$3" --continue_on_error=read --time_based --runtime="$4" || return 1
	_lab_jobs
}

# _lab_jobs [N]: LAB_JOBS, fio's job processes (the fio processes of the
# load's cgroup but its first), once N (1) have started (10 s at most:
# lab_thrash reads its file first).
_lab_jobs() {
	_i=0
	LAB_JOBS=
	while [ $_i -lt 200 ]; do
		LAB_JOBS=$(for _p in $(cat "$LAB_CG/cgroup.procs" 2>/dev/null); do
			[ "$_p" != "$LAB_LOAD" ] && [ "$(cat "/proc/$_p/comm" 2>/dev/null)" = fio ] &&
			    echo "$_p"
		done | paste -sd' ' -)
		[ "$(echo "$LAB_JOBS" | wc -w)" -ge "${1:-1}" ] && break
		sleep 0.05
		_i=$((_i + 1))
	done
	export LAB_JOBS
}

lab_watch() {
	_lw=$LAB_DIR/$1.watch
	_lw_cs=$(($2 * 100))
	_lw_n=0
	: >"$_lw"
	read -r _lw_up _ </proc/uptime
	_lw_end=$((${_lw_up%.*}${_lw_up#*.} + _lw_cs))
	while :; do
		_lw_n=$((_lw_n + 1))
		_lab_sample "$_lw_n" >>"$_lw"
		read -r _lw_up _ </proc/uptime
		[ "${_lw_up%.*}${_lw_up#*.}" -ge "$_lw_end" ] && break
		sleep "${3:-0.1}"
	done
}

# One sample of lab_watch, its lines prefixed by N.
_lab_sample() {
	read -r _sp_up _ </proc/uptime
	echo "$1 up $_sp_up"
	while read -r _sp_k _sp_a _sp_b _sp_c _sp_d _sp_e _sp_f _sp_g _sp_h _; do
		case $_sp_k in
		cpu) echo "$1 cpu $_sp_a $_sp_b $_sp_c $_sp_d $_sp_e $_sp_f $_sp_g $_sp_h" ;;
		procs_blocked) echo "$1 blocked $_sp_a" ;;
		procs_running) echo "$1 running $_sp_a" ;;
		esac
	done </proc/stat
	while read -r _sp_k _sp_a _; do
		case $_sp_k in
		Dirty:|Writeback:) echo "$1 ${_sp_k%:} $_sp_a" ;;
		esac
	done </proc/meminfo
	_sp_s=
	_sp_f=
	if [ -r /proc/pressure/io ]; then
		while read -r _sp_k _sp_a _sp_b _sp_c _sp_d; do
			[ "$_sp_k" = some ] && _sp_s=${_sp_d#total=}
			[ "$_sp_k" = full ] && _sp_f=${_sp_d#total=}
		done </proc/pressure/io
		echo "$1 psi $_sp_s $_sp_f"
	fi
	if [ -n "$LAB_CG" ] && [ -r "$LAB_CG/io.pressure" ]; then
		while read -r _sp_k _sp_a _sp_b _sp_c _sp_d; do
			[ "$_sp_k" = some ] && _sp_s=${_sp_d#total=}
			[ "$_sp_k" = full ] && _sp_f=${_sp_d#total=}
		done <"$LAB_CG/io.pressure"
		echo "$1 cgpsi $_sp_s $_sp_f"
	fi
	for _sp_d in /sys/block/*/inflight; do
		read -r _sp_a _sp_b <"$_sp_d"
		_sp_d=${_sp_d%/inflight}
		echo "$1 inflight ${_sp_d##*/} $_sp_a $_sp_b"
	done
	[ -n "$LAB_CG" ] && [ -r "$LAB_CG/cgroup.procs" ] || return 0
	# Threads come and go between the listing and the reading.
	while read -r _sp_p; do
		for _sp_t in /proc/"$_sp_p"/task/*; do
			read -r _sp_s <"$_sp_t/stat" || continue
			_sp_s=${_sp_s##*) }
			_sp_w=
			read -r _sp_w <"$_sp_t/wchan"
			read -r _sp_c <"$_sp_t/comm"
			echo "$1 task $_sp_p ${_sp_t##*/} ${_sp_s%% *} ${_sp_w:-0} $_sp_c"
		done
	done <"$LAB_CG/cgroup.procs" 2>/dev/null
}

lab_kmsg_seq() {
	dd if=/dev/kmsg iflag=nonblock bs=8192 2>/dev/null |
	    awk -F'[,;]' '/^ / { next } { s = $2 } END { print s + 0 }'
}

lab_kmsg_since() {
	dd if=/dev/kmsg iflag=nonblock bs=8192 2>/dev/null |
	    awk -v n="$1" '/^ / { next } { split($0, a, ";"); split(a[1], h, ",") }
	    h[2] + 0 > n + 0 && NF { sub(/^[^;]*;/, ""); print h[2], h[3], $0 }'
}

lab_kill() {
	_lab_kill_load
	return 0
}

lab_wait() {
	wait "$LAB_LOAD"
	_st=$?
	LAB_LOAD=
	_lab_kill_load
	return $_st
}

lab_pressure() {
	awk '$1 == "some" || $1 == "full" { sub("total=", "", $5); t[$1] = $5 }
	    END { print t["some"], t["full"] }' "${1:-$LAB_CG}/io.pressure"
}

lab_snap() {
	"$TOP/cmd/dxstat/dxstat" -s >"$1" || return 1
	[ -z "$LAB_CG" ] || _lab_psi_up "$LAB_CG" >"$1.psi"
}

# "some full uptime": the cgroup's io.pressure totals (us) and the
# uptime read by one process, one straight after the other, so a share
# is taken over its own interval, not one a slow start moved.
_lab_psi_up() {
	awk '$1 == "some" || $1 == "full" { sub("total=", "", $5); t[$1] = $5 }
	    END { getline u <"/proc/uptime"; split(u, a, " "); print t["some"], t["full"], a[1] }' \
	    "$1/io.pressure"
}

lab_interval() {
	awk '$1 == "uptime" { u[++n] = $2 } END { printf "%.9f\n", u[2] - u[1] }' "$1" "$2"
}

lab_stats() {
	_n=$(grep -c . "$LAB_DIR/log")
	kill -USR2 "$LAB_PID" || return 1
	_i=0
	while [ "$(grep -c . "$LAB_DIR/log")" -le "$_n" ] && [ $_i -lt 100 ]; do
		sleep 0.02
		_i=$((_i + 1))
	done
	awk '$2 == "stats:" { l = $4 " " $6 " " $8 " " $10 " " $12 " " $14 " " $16 } END { print l }' "$LAB_DIR/log"
}

# iostat in a mount namespace of its own where /proc/uptime and
# /proc/diskstats are FIFOs: each reading it makes, when it makes it,
# gets a snapshot taken that instant (dxstat -s: its diskstats lines,
# its uptime cut to centiseconds as /proc/uptime prints it).  The FIFOs
# are opened under timeout, so an iostat that died cannot hang the test.
lab_iostat() {
	_f=$LAB_DIR/$2
	rm -f "$_f.fup" "$_f.fds"
	mkfifo "$_f.fup" "$_f.fds" || return 1
	LC_ALL=C S_COLORS=never timeout 60 unshare -m sh -c '
		mount --bind "$1" /proc/uptime && mount --bind "$2" /proc/diskstats &&
		exec iostat -x -d -p ALL -y "$3" 1' lab "$_f.fup" "$_f.fds" "$1" \
	    >"$_f.iostat" 2>"$_f.iostat.err" &
	_io=$!
	for _k in 1 2; do
		if ! timeout 30 sh -c '
			exec 7>"$1" || exit 1	# open returns when iostat opens it
			"$2" -s >"$3" || exit 1
			[ -z "$4" ] || awk "\$1 == \"some\" || \$1 == \"full\" { sub(\"total=\", \"\", \$5); t[\$1] = \$5 }
			    END { getline u <\"/proc/uptime\"; split(u, a, \" \"); print t[\"some\"], t[\"full\"], a[1] }" "$4/io.pressure" >"$3.psi"
			awk "\$1 == \"uptime\" { split(\$2, a, \".\"); printf \"%s.%s 0.00\\n\", a[1], substr(a[2] \"00\", 1, 2) }" "$3" >&7
		    ' lab "$_f.fup" "$TOP/cmd/dxstat/dxstat" "$_f.$_k" "$LAB_CG" ||
		    ! awk '$1 != "uptime" && $1 != "time"' "$_f.$_k" >"$_f.$_k.ds" ||
		    ! timeout 30 sh -c 'cat "$1" >"$2"' lab "$_f.$_k.ds" "$_f.fds"; then
			kill "$_io" 2>/dev/null
			wait "$_io"
			return 1
		fi
		awk '$1 == "uptime" { split($2, a, "."); $2 = a[1] "." substr(a[2] "00", 1, 2) } { print }' \
		    "$_f.$_k" >"$_f.${_k}c"
	done
	wait "$_io"
}

# lab_iostat_cmp NAME: iostat's LAB_DEV row of lab_iostat NAME against
# dxstat -f on the same samples, every column to the printed precision
# (t/fixtures/dxstat/compare.awk); its verdict line on stdout.
lab_iostat_cmp() {
	_f=$LAB_DIR/$1
	awk -v d="$LAB_DEV" '/^Device/ || $1 == d' "$_f.iostat" >"$_f.iostat.dev"
	"$TOP/cmd/dxstat/dxstat" -o tsv -H -f "$_f.1c" -f "$_f.2c" "$LAB_DEV" | cut -f2- |
	    sed 's/^/1	/' >"$_f.dxc"
	awk -f "$FIX/dxstat/compare.awk" "$_f.iostat.dev" "$_f.dxc" >"$_f.cmp"
	_c=$?
	sed -n '$p' "$_f.cmp"
	[ $_c -eq 0 ] || sed 's/^/# /' "$_f.cmp" "$_f.iostat.dev" "$_f.dxc"
	return $_c
}

# lab_check [-p] DESCRIPTION GOT LO HI: one check of a lab_try attempt,
# LO <= GOT <= HI.  -p: a check of the lab's precision (a figure within
# 2% of the truth while the kernel path is part of it, or a count that
# others' work can add to): skipped, not failed, when the attempt was
# found disturbed (lab_late found the machine too busy to keep time, or
# the test called lab_disturbed).
lab_check() {
	_p=-
	[ "$1" = -p ] && { _p=p; shift; }
	if awk -v g="$2" -v l="$3" -v h="$4" 'BEGIN { exit !(g != "" && g != "-" && g + 0 >= l + 0 && g + 0 <= h + 0) }'; then
		printf '0\t%s\t%s (%s in %s..%s)\n' $_p "$1" "$2" "$3" "$4" >>"$_lab_checks"
	else
		printf '1\t%s\t%s (%s, want %s..%s)\n' $_p "$1" "$2" "$3" "$4" >>"$_lab_checks"
	fi
}

# lab_check_cmd DESCRIPTION CMD...: a check that CMD exits 0.
lab_check_cmd() {
	_d=$1
	shift
	if "$@"; then _s=0; else _s=1; fi
	printf '%s\t-\t%s\n' "$_s" "$_d" >>"$_lab_checks"
}

# lab_late ST1 ST2 SERVICE_MS: how late (us, on average) the helper woke
# for its deadlines between two lab_stats readings, on stdout.  The lab
# resolves 2% of the service time for the whole kernel path of a request
# (loop worker, FUSE, the helper's and the reader's wake-ups); when the
# helper's own wake-ups alone take more than a quarter of that, the CPUs
# are too busy for the lab's precision (a kernel without preemption lets
# a busy neighbour's system call delay even a real-time wake-up) and this
# attempt's -p checks are marked busy.
lab_late() {
	_l=$(awk 'NR == FNR { n = $1 + $2 + $3; l = $4; next }
	    { printf "%.0f", ($1 + $2 + $3 > n) ? ($4 - l) / ($1 + $2 + $3 - n) / 1e3 : 0 }' "$1" "$2")
	echo "$_l"
	if awk -v l="$_l" -v s="$3" 'BEGIN { exit !(l > s * 1000 * 0.02 / 4) }'; then
		lab_disturbed "machine too busy: the helper woke $_l us late on average (the lab allows $(awk -v s="$3" 'BEGIN { print s * 5 }') us)"
	fi
}

# lab_disturbed REASON: this attempt was disturbed from outside (a busy
# machine, another test's sync writing our filesystem's journal): its
# -p checks that miss are skipped with REASON, not failed.
lab_disturbed() {
	echo "$*" >>"$_lab_checks.busy"
}

# lab_try CMD...: run CMD (a measurement making lab_check calls) and,
# when a check missed, once more: a loaded neighbour can delay a
# wake-up now and then, and a figure against the truth is worth a
# second look before it is called wrong.  The checks of the last
# attempt are the test's results (a -p check that missed while the
# machine was too busy is a skip, with the reason); the first attempt's
# misses are shown.  An attempt found disturbed whose misses are all -p
# is not repeated.
lab_try() {
	_lab_dir
	for _a in 1 2; do
		_lab_checks=$LAB_DIR/checks.$$.$_a
		: >"$_lab_checks"
		rm -f "$_lab_checks.busy"
		"$@"
		grep -q '^1' "$_lab_checks" || break
		# Only precision missed, on a machine found too busy for it:
		# the skips stand, another attempt would cost time for nothing.
		[ -s "$_lab_checks.busy" ] && ! grep -q '^1	-' "$_lab_checks" && break
		[ $_a = 2 ] || sed -n 's/^1	.	/# attempt 1 missed, trying again: /p' "$_lab_checks"
	done
	_busy=$(paste -sd';' "$_lab_checks.busy" 2>/dev/null)
	while IFS='	' read -r _s _p _d; do
		if [ "$_s" = 0 ]; then
			pass "$_d"
		elif [ "$_p" = p ] && [ -n "$_busy" ]; then
			skip "$_d" "$_busy"
		else
			fail "$_d"
		fi
	done <"$_lab_checks"
}
