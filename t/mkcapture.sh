# Shell helpers for the capture tests, until dcapture(1) exists: a
# capture DIRECTORY made by hand from the live files the tools read.
#   mkcapture DIR SECONDS     samples 0/ and 1/, SECONDS apart
#   mksample DIR N            sample N/ alone (mkcapture's steps; the
#   mkmeta DIR                caller runs a workload between them)
# What is copied: proc/diskstats, proc/pressure/*, proc/stat, sys/block
# (each disk's dev and queue/nr_requests, as files) and proc/PID/{stat,
# status,io} of the processes in $MKCAP_PIDS.  N/proc/uptime holds the
# uptime read just before diskstats with nine decimals, and capture/meta
# the same uptime and the wall clock in ns, as dcapture writes them.

# Seconds with two decimals (proc/uptime's) as ns.
_mkcap_ns() {
	awk -v s="$1" 'BEGIN {
		split(s, p, "."); f = substr(p[2] "000000000", 1, 9)
		printf "%s%s\n", p[1], f }'
}

mksample() {
	_s=$1/$2
	mkdir -p "$_s/proc/pressure" "$_s/sys/block" "$1/capture"
	_up=$(cut -d' ' -f1 /proc/uptime)
	_tm=$(date +%s%N)
	cat /proc/diskstats >"$_s/proc/diskstats"
	for _f in /proc/pressure/*; do
		cat "$_f" >"$_s/proc/pressure/${_f##*/}" 2>/dev/null ||
		    rm -f "$_s/proc/pressure/${_f##*/}"
	done
	cat /proc/stat >"$_s/proc/stat"
	for _b in /sys/block/*; do
		_n=${_b##*/}
		mkdir -p "$_s/sys/block/$_n/queue"
		cat "$_b/dev" >"$_s/sys/block/$_n/dev"
		cat "$_b/queue/nr_requests" \
		    >"$_s/sys/block/$_n/queue/nr_requests" 2>/dev/null
	done
	for _p in $MKCAP_PIDS; do
		mkdir -p "$_s/proc/$_p"
		for _f in stat status io; do
			cat "/proc/$_p/$_f" >"$_s/proc/$_p/$_f"
		done
	done
	_ns=$(_mkcap_ns "$_up")
	printf '%s.%s 0.00\n' "${_ns%?????????}" "${_ns#"${_ns%?????????}"}" \
	    >"$_s/proc/uptime"
	printf 'uptime%s %s\ntime%s %s\n' "$2" "$_ns" "$2" "$_tm" \
	    >"$1/capture/at.$2"
}

mkmeta() {
	{
		echo "format 1"
		echo "boot_id $(cat /proc/sys/kernel/random/boot_id)"
		if [ -d "$1/1" ]; then echo "samples 2"; else echo "samples 1"; fi
		cat "$1/capture/at.0"
		[ -d "$1/1" ] && cat "$1/capture/at.1"
		awk '$1 ~ /^uptime/ { u[$1] = $2 }
		    END { w = ("uptime1" in u) ? u["uptime1"] - u["uptime0"] : 0
			printf "window_ns %.0f\n", w }' "$1"/capture/at.*
		echo "tick_ns 100000000"
	} >"$1/capture/meta"
	rm -f "$1"/capture/at.*
}

mkcapture() {
	mksample "$1" 0
	sleep "$2"
	mksample "$1" 1
	mkmeta "$1"
}
