# Helpers for the benchmark scenarios (t/bench/s*.sh), sourced.
#
# Each scenario is its own process: it builds what it measures, cleans
# up through at_exit (also on failure or interrupt), and appends one
# line per measured command to $BENCH_OUT/results.tsv:
#
#   scenario case kind label cpu_us wall_us rss_kb syscalls rows status
#
# kind is floor, ours or peer; cpu, wall and rss are medians over
# BENCH_RUNS runs (t/bench/run); syscalls is counted in one more run.

BENCH_DIR=$(cd "${0%/*}" && pwd)
TOP=$(cd "$BENCH_DIR/../.." && pwd)
: "${BENCH_OUT:=$BENCH_DIR/out}"
: "${BENCH_RUNS:=5}"
: "${BENCH_SLOW_RUNS:=3}"
: "${BENCH_QUICK:=0}"
BIN=$BENCH_OUT/bin
RESULTS=$BENCH_OUT/results.tsv
NOTES=$BENCH_OUT/notes.txt
SCEN=${SCEN:-${0##*/}}
export LC_ALL=C TZ=UTC
unset DISKSTAT_ROOT

# As in bench.sh, when a scenario is run on its own.
if [ -z "${BENCH_SYSCALLS:-}" ]; then
	if perf stat -x, -e raw_syscalls:sys_enter true >/dev/null 2>&1; then
		BENCH_SYSCALLS=perf
	else
		BENCH_SYSCALLS=strace
	fi
fi

# ---- cleanup ---------------------------------------------------------

_exit_cmds=
at_exit() {
	_exit_cmds="$*
$_exit_cmds"
}
_run_exit() {
	set +e
	trap - EXIT INT TERM HUP
	printf '%s\n' "$_exit_cmds" | while IFS= read -r c; do
		[ -n "$c" ] && eval "$c"
	done
}
trap '_run_exit' EXIT
trap '_run_exit; exit 130' INT TERM HUP

log() { printf '%s: %s\n' "$SCEN" "$*" >&2; }
note() { printf '%s: %s\n' "$SCEN" "$*" >>"$NOTES"; log "$*"; }
die() { log "$*"; exit 1; }

# ---- what is there ---------------------------------------------------

# Our tool, built; else a note and false.
have_tool() {
	[ -x "$TOP/cmd/$1" ] && return 0
	note "$1 not built: its rows are missing"
	return 1
}

have_cmd() {
	command -v "$1" >/dev/null 2>&1 && return 0
	note "$1 not installed: its rows are missing"
	return 1
}

# Option letter $2 appears in "$1 -h": a tool still being written may
# not have every option the scenario would like to give it.
tool_has() {
	"$TOP/cmd/$1" -h 2>&1 | grep -q -e "$2"
}

# Number of processes now.
nprocs() {
	set -- /proc/[0-9]*
	echo $#
}

# Kill a spawn manager and wait until its whole process group is gone.
reap() {
	kill "$1" 2>/dev/null
	_i=0
	while kill -0 "-$1" 2>/dev/null; do
		_i=$((_i + 1))
		[ $_i -gt 300 ] && { kill -KILL "-$1" 2>/dev/null; }
		sleep 0.1
	done
}

# ---- measuring -------------------------------------------------------

# syscalls command...: total syscalls of one run, children included.
syscalls() {
	case $BENCH_SYSCALLS in
	perf)
		perf stat -x, -e raw_syscalls:sys_enter -o "$BENCH_OUT/sc.$$" \
		    -- "$@" >/dev/null 2>&1 </dev/null
		awk -F, '/raw_syscalls:sys_enter/ { print $1 }' "$BENCH_OUT/sc.$$"
		;;
	*)
		strace -f -c -o "$BENCH_OUT/sc.$$" -- "$@" >/dev/null 2>&1 \
		    </dev/null
		awk '$NF == "total" { print $4 }' "$BENCH_OUT/sc.$$"
		;;
	esac
	rm -f "$BENCH_OUT/sc.$$"
}

# measure CASE KIND LABEL [-k reps] [-n runs] [-S] -- command...
#   -k: start the command reps times per run and divide (startup)
#   -n: runs instead of BENCH_RUNS (slow peers: BENCH_SLOW_RUNS)
#   -S: do not count syscalls
measure() {
	_case=$1 _kind=$2 _label=$3
	shift 3
	_reps=1 _runs=$BENCH_RUNS _sc=1 _warm=1
	while [ $# -gt 0 ]; do
		case $1 in
		-k) _reps=$2; shift 2 ;;
		-n) _runs=$2; _warm=0; shift 2 ;;
		-S) _sc=0; shift ;;
		--) shift; break ;;
		*) die "measure: bad option $1" ;;
		esac
	done
	[ "$_runs" -gt "$BENCH_RUNS" ] && _runs=$BENCH_RUNS
	log "$_case: $_label"
	set -- $("$BIN/run" -n "$_runs" -k "$_reps" -w "$_warm" \
	    -o "$BENCH_OUT/last.out" -e "$BENCH_OUT/last.err" "$@") "$@"
	_cpu=$1 _wall=$2 _rss=$3 _st=$4
	shift 4
	_rows=$(wc -l <"$BENCH_OUT/last.out")
	[ "$_st" = 0 ] || note "$_case: $_label: exit status $_st: $(head -c 200 "$BENCH_OUT/last.err" | head -1)"
	if [ $_sc = 1 ]; then
		_n=$(syscalls "$@")
		[ -n "$_n" ] || _n=-
	else
		_n=-
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$SCEN" "$_case" \
	    "$_kind" "$_label" "$_cpu" "$_wall" "$_rss" "$_n" "$_rows" \
	    "$_st" >>"$RESULTS"
}
