# Helpers for the benchmark scenarios (t/bench/s*.sh), sourced.
#
# Each scenario is its own process: it builds what it measures, cleans
# up through at_exit (also on failure or interrupt), and appends one
# line per measured command to $BENCH_OUT/results.tsv:
#
#   scenario case kind label cpu_us wall_us rss_kb syscalls writes rows
#   status reps
#
# kind is floor, ours or peer; cpu, wall and rss are medians over
# BENCH_RUNS runs of the per-start figures (t/bench/run, reps starts
# per run); syscalls (and how many of them were write) are counted in
# one more start; rows is the number of lines the command printed.

BENCH_DIR=$(cd "${0%/*}" && pwd)
TOP=$(cd "$BENCH_DIR/../.." && pwd)
: "${BENCH_OUT:=$BENCH_DIR/out}"
: "${BENCH_RUNS:=5}"
: "${BENCH_SLOW_RUNS:=3}"
: "${BENCH_QUICK:=0}"
BIN=$BENCH_DIR/out/bin	# built by make bench
# The tools measured: this tree's (cmd/NAME/NAME, gathered as links in
# one directory), or those of BENCH_TOOLDIR.
if [ -n "${BENCH_TOOLDIR:-}" ]; then
	TOOLDIR=$BENCH_TOOLDIR
else
	TOOLDIR=$BENCH_OUT/tools
	mkdir -p "$TOOLDIR"
	for _m in "$TOP"/cmd/*/main.c; do
		_t=${_m%/main.c}
		ln -sf "$_t/${_t##*/}" "$TOOLDIR/${_t##*/}"
	done
fi
RESULTS=$BENCH_OUT/results.tsv
NOTES=$BENCH_OUT/notes.txt
SCEN=${SCEN:-${0##*/}}
export LC_ALL=C TZ=UTC
unset DISKSTAT_ROOT
# What t/bench/spawn starts ends with this script, even killed -9.
SPAWN_OWNER=$$
export SPAWN_OWNER

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
	[ -x "$TOOLDIR/$1" ] && return 0
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
	"$TOOLDIR/$1" -h 2>&1 | grep -q -e "$2"
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

: "${BENCH_MIN_MS:=50}"

# syscalls command...: "TOTAL WRITES" of one run, children included.
syscalls() {
	_f=$BENCH_OUT/sc.$$
	case $BENCH_SYSCALLS in
	perf)
		perf stat -x, -e raw_syscalls:sys_enter \
		    -e syscalls:sys_enter_write -o "$_f" \
		    -- "$@" >/dev/null 2>&1 </dev/null
		awk -F, '/raw_syscalls:sys_enter/ { t = $1 }
		    /syscalls:sys_enter_write/ { w = $1 }
		    END { print (t == "" ? "-" : t), (w == "" ? "-" : w) }' "$_f"
		;;
	*)
		strace -f -c -o "$_f" -- "$@" >/dev/null 2>&1 </dev/null
		awk '$NF == "total" { t = $4 } $NF == "write" { w = $4 }
		    END { print (t == "" ? "-" : t), (w == "" ? 0 : w) }' "$_f"
		;;
	esac
	rm -f "$_f"
}

# A case: the commands that answer one question on one scenario,
# measured together (t/bench/run interleaves them) and compared.
#
#   case_begin CASE
#   cmd [-slow] KIND LABEL command [arg ...]    KIND: floor, ours, peer
#   case_end
#
# Commands marked -slow (seconds per run) are measured BENCH_SLOW_RUNS
# times, among themselves, without warm-up or repetition.
case_begin() {
	_case=$1
	_ncmd=0
	_spec=$BENCH_OUT/case
	rm -rf "$_spec"
	mkdir -p "$_spec"
}

cmd() {
	_slow=0
	[ "$1" = -slow ] && { _slow=1; shift; }
	printf '%s\t%s\t%s\n' "$_slow" "$1" "$2" >"$_spec/$_ncmd.meta"
	shift 2
	printf '%s\n' "$@" >"$_spec/$_ncmd.argv"
	_ncmd=$((_ncmd + 1))
}

# _group SLOW: run the commands whose slow flag is SLOW (0 or 1)
# together, then count their syscalls one by one; append the results.
_group() {
	_want=$1
	_idx=
	_j=0
	while [ $_j -lt $_ncmd ]; do
		IFS='	' read -r _s _k _l <"$_spec/$_j.meta"
		[ "$_s" = "$_want" ] && _idx="$_idx $_j"
		_j=$((_j + 1))
	done
	[ -n "$_idx" ] || return 0
	# The argv of every command, one argument per line, "::" between.
	_oldifs=$IFS
	set --
	for _j in $_idx; do
		[ $# -gt 0 ] && set -- "$@" ::
		set -f
		IFS='
'
		set -- "$@" $(cat "$_spec/$_j.argv")
		IFS=$_oldifs
		set +f
	done
	if [ "$_want" = 1 ]; then
		_opts="-n $BENCH_SLOW_RUNS -w 0"
		[ "$BENCH_SLOW_RUNS" -gt "$BENCH_RUNS" ] && _opts="-n $BENCH_RUNS -w 0"
	else
		_opts="-n $BENCH_RUNS -a $BENCH_MIN_MS"
	fi
	log "$_case:$(for _j in $_idx; do cut -f3 "$_spec/$_j.meta" | sed 's/^/ [/; s/$/]/'; done | tr -d '\n')"
	"$BIN/run" $_opts -o "$_spec" -e "$_spec" "$@" >"$_spec/run.txt" ||
	    die "run failed"
	_n=0
	for _j in $_idx; do
		_n=$((_n + 1))
		IFS='	' read -r _s _k _l <"$_spec/$_j.meta"
		set -- $(sed -n "${_n}p" "$_spec/run.txt")
		_cpu=$1 _wall=$2 _rss=$3 _st=$4 _reps=$5
		_rows=$(wc -l <"$_spec/$((_n - 1)).out")
		[ "$_st" = 0 ] || note "$_case: $_l: exit status $_st: $(head -c 200 "$_spec/$((_n - 1)).err" | head -1)"
		set -f
		_oldifs=$IFS
		IFS='
'
		set -- $(cat "$_spec/$_j.argv")
		IFS=$_oldifs
		set +f
		set -- $(syscalls "$@")
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
		    "$SCEN" "$_case" "$_k" "$_l" "$_cpu" "$_wall" "$_rss" \
		    "$1" "$2" "$_rows" "$_st" "$_reps" >>"$RESULTS"
	done
}

case_end() {
	_group 0
	_group 1
	rm -rf "$_spec"
}
