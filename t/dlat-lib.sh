# t/dlat-lib.sh: what the dlat tests share.  Source after lib.sh.
#
# need_bpf: skip unless this process may load BPF programs.
# bpf_progs: the number of BPF programs the kernel holds now.
# dlat_attached PID [N]: wait (up to 10 s) until dlat PID has its N
#   (default four) tracepoint events open; 1 if it never does.
# progs_back N: wait (up to 5 s: programs are freed after an RCU grace
#   period) until the kernel holds N programs again; 1 if it does not.
# tracefs_run CMD...: exec CMD in a private mount namespace with tracefs
#   mounted (bpftrace needs it; the host's mounts are never touched).
#   Run it in the background (tracefs_run ... &): $! is then CMD's pid.
# mkloop_dio MB: a loop device over MB of data in $TRASH, with direct
#   I/O to its file, so that reads reach the disk below (hundreds of
#   microseconds, not a page-cache copy); detached when the script ends.

need_bpf() {
	need_root
	[ -x "$TOP/t/unit/bpf" ] || skip_all "t/unit/bpf not built"
	"$TOP/t/unit/bpf" count >/dev/null 2>&1 || skip_all "bpf(2) not allowed here"
	[ -d /sys/kernel/tracing ] || skip_all "no tracefs in this kernel"
}

bpf_progs() {
	"$TOP/t/unit/bpf" count
}

dlat_attached() {
	_i=0
	while [ $_i -lt 200 ]; do
		_n=$(ls -l /proc/"$1"/fd 2>/dev/null | grep -c 'perf_event')
		[ "$_n" -ge "${2:-4}" ] && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.05
		_i=$((_i + 1))
	done
	return 1
}

progs_back() {
	_i=0
	while [ $_i -lt 100 ]; do
		[ "$(bpf_progs)" -le "$1" ] && return 0
		sleep 0.05
		_i=$((_i + 1))
	done
	echo "# $(bpf_progs) BPF programs loaded, want $1"
	return 1
}

tracefs_run() {
	exec unshare -m sh -c 'mount --make-rprivate / &&
	    { mountpoint -q /sys/kernel/tracing ||
	      mount -t tracefs tracefs /sys/kernel/tracing; } && exec "$@"' sh "$@"
}

# stop_tracer PID: SIGINT (a tracer prints its maps on it), then, if it
# is still there after 10 s (bpftrace has been seen to hang on SIGINT),
# SIGTERM (bpftrace prints its maps on that too) and 5 s more, then
# SIGKILL.  Returns 1 when it had to be killed (no output to trust).
stop_tracer() {
	for _sig in INT TERM; do
		kill -$_sig "$1" 2>/dev/null
		_i=0
		while kill -0 "$1" 2>/dev/null && [ $_i -lt 100 ]; do
			sleep 0.1
			_i=$((_i + 1))
		done
		kill -0 "$1" 2>/dev/null || { wait "$1" 2>/dev/null; return 0; }
	done
	kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	return 1
}

# kdev MAJ:MIN: the kernel's dev_t (20-bit minor), as block events log it.
kdev() {
	echo $(( ${1%%:*} * 1048576 + ${1##*:} ))
}

mkloop_dio() {
	_img=$(mktemp "$TRASH/loop.XXXXXX") || return 1
	dd if=/dev/urandom of="$_img" bs=1M count="$1" status=none || return 1
	sync "$_img" 2>/dev/null || sync
	_dev=$(losetup --direct-io=on -f --show "$_img") || return 1
	echo "$_dev" >>"$TRASH/.loops"
	_loop_defaults "${_dev#/dev/}"
	echo "${_dev#/dev/}"
}
