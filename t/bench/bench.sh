#!/bin/sh
# make bench: run every scenario (t/bench/s*.sh), then print the table
# and the targets of issue 9.  Environment:
#   BENCH_RUNS=5        runs per command; the medians are reported
#   BENCH_SLOW_RUNS=3   runs for commands taking seconds (lsof at scale)
#   BENCH_MIN_MS=50     a faster command is started repeatedly in each
#                       run, for about this much of its CPU time
#   BENCH_ONLY="dxstat dwho ddeleted files startup dlat history capture"
#                       scenarios to run
#   BENCH_QUICK=1       smaller scales, for a quick look
#   BENCH_SYSCALLS=perf|strace  how syscalls are counted (default perf
#                       when its tracepoints work, else strace -c -f)
#   BENCH_OUT=DIR       where results go (default t/bench/out)
#   BENCH_TOOLDIR=DIR   measure the tools in DIR instead of cmd/NAME/NAME
# Needs root (mount namespace, sysctl, taskstats).
BENCH_DIR=$(cd "${0%/*}" && pwd)
: "${BENCH_OUT:=$BENCH_DIR/out}"
: "${BENCH_ONLY:=dxstat dwho ddeleted files startup dlat history capture}"
export BENCH_OUT BENCH_TOOLDIR BENCH_MIN_MS BENCH_RUNS BENCH_SLOW_RUNS BENCH_QUICK BENCH_SYSCALLS

if [ "$(id -u)" != 0 ]; then
	echo "bench: needs root (mount namespace, sysctl, other users' /proc)" >&2
	exit 1
fi
# perf counts syscalls in the kernel at no cost to the command; strace
# -c -f counts the same (checked: equal) but slows lsof for minutes.
if [ -z "${BENCH_SYSCALLS:-}" ]; then
	if perf stat -x, -e raw_syscalls:sys_enter true >/dev/null 2>&1; then
		BENCH_SYSCALLS=perf
	else
		BENCH_SYSCALLS=strace
	fi
fi
mkdir -p "$BENCH_OUT"
RESULTS=$BENCH_OUT/results.tsv
NOTES=$BENCH_OUT/notes.txt
: >"$RESULTS"
: >"$NOTES"
start=$(date +%s)
status=0
for s in $BENCH_ONLY; do
	for f in "$BENCH_DIR"/s[0-9]-"$s".sh; do
		[ -f "$f" ] || { echo "bench: no scenario $s" >&2; status=1; continue; }
		sh "$f" || { echo "bench: $s failed" >&2; status=1; }
	done
done
end=$(date +%s)

{
	echo "diskstat benchmark, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1), Linux $(uname -r)"
	echo "runs: ${BENCH_RUNS:-5} per command (medians), syscalls counted with $BENCH_SYSCALLS, $((end - start)) s in all"
	echo
	sh "$BENCH_DIR/report.sh" "$RESULTS"
	if [ -s "$NOTES" ]; then
		echo
		echo "Notes:"
		sed 's/^/  /' "$NOTES"
	fi
} | tee "$BENCH_OUT/report.txt"
exit $status
