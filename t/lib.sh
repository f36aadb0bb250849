# t/lib.sh: TAP for the shell tests.  Source it first:  . "${0%/*}/lib.sh"
#
# Each test script gets its own scratch directory ($TRASH, removed at exit
# unless DS_KEEP_TRASH is set), LC_ALL=C and TZ=UTC, and the tools of this
# tree first in PATH.

LC_ALL=C
TZ=UTC
export LC_ALL TZ
unset DISKSTAT_ROOT

# Under "make check SANITIZE=1" a sanitizer report must never pass for
# an expected failure: ASan and UBSan exit 1 by default, the status a
# test_must_fail 1 wants.  They exit 86 instead, which test_must_fail
# refuses whatever status it was told to expect.
DS_SANITIZER_STATUS=86
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=$DS_SANITIZER_STATUS"
UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=$DS_SANITIZER_STATUS:print_stacktrace=1"
export ASAN_OPTIONS UBSAN_OPTIONS DS_SANITIZER_STATUS

T=$(cd "${0%/*}" && pwd)
TOP=${T%/t}
FIX=$T/fixtures
# Each tool is built in its folder, cmd/TOOL/TOOL.
for _d in "$TOP"/cmd/*/; do
	[ -f "$_d/main.c" ] && PATH=${_d%/}:$PATH
done
export PATH TOP T FIX

TRASH=$(mktemp -d "${TMPDIR:-/tmp}/diskstat-test.XXXXXX") || exit 1
_cleanups=
_tap_n=0
_tap_failed=0
_tap_planned=

_tap_exit() {
	_rc=$?
	eval "$_cleanups"
	_detach_loops
	[ -n "$DS_KEEP_TRASH" ] || rm -rf "$TRASH"
	if [ -z "$_tap_planned" ] && [ "$_tap_n" -gt 0 ]; then
		echo "1..$_tap_n"
	fi
	[ "$_tap_failed" -eq 0 ] || exit 1
	[ "$_rc" -eq 0 ] || _failed_note "exit $_rc after $_tap_n tests"
	exit $_rc
}
trap _tap_exit EXIT
trap 'exit 130' INT TERM

# at_exit CMD: run CMD when the script ends (cleanup of loop devices...).
at_exit() {
	_cleanups="$1; $_cleanups"
}

plan() {
	_tap_planned=1
	echo "1..$1"
}

# skip_all REASON: nothing more in this script can run here.  Before
# the first test that is a plan of none; after some tests ran (a live
# part after a tree part) it is one skip for the rest, and the plan the
# exit prints counts it, so TAP stays valid either way.
skip_all() {
	if [ "$_tap_n" -gt 0 ] && [ -z "$_tap_planned" ]; then
		skip "the rest of ${0##*/}" "$*"
		exit 0
	fi
	echo "1..0 # SKIP $*"
	_tap_planned=1
	exit 0
}

# Under make check, DS_FAILED names a file that collects every failure
# of every script, a line each, for the summary the run ends with.
_failed_note() {
	[ -z "$DS_FAILED" ] || printf '%s: %s\n' "${0#"$TOP"/}" "$1" >>"$DS_FAILED"
}

_result() {
	_tap_n=$((_tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_tap_n - $2"
	else
		echo "not ok $_tap_n - $2"
		_tap_failed=$((_tap_failed + 1))
		_failed_note "not ok $_tap_n - $2"
	fi
}

# pass/fail DESCRIPTION
pass() { _result 0 "$*"; }
fail() { _result 1 "$*"; }

# skip DESCRIPTION REASON
skip() {
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n - $1 # SKIP $2"
}

# ok DESCRIPTION CMD...: passes when CMD exits 0.  A check that cannot
# be made here (json_ok without jq) returns 77 after setting _why: that
# is a skip, never a pass.
ok() {
	_d=$1
	shift
	_why=
	"$@"
	_st=$?
	if [ $_st -eq 77 ] && [ -n "$_why" ]; then
		skip "$_d" "$_why"
	elif [ $_st -eq 0 ]; then
		_result 0 "$_d"
	else
		_result 1 "$_d"
	fi
}

# is GOT WANT DESCRIPTION
is() {
	if [ "$1" = "$2" ]; then
		_result 0 "$3"
	else
		_result 1 "$3"
		printf '#   got:  %s\n#   want: %s\n' "$1" "$2"
		_failed_note "  got: $1, want: $2"
	fi
}

# test_cmp EXPECT ACTUAL: files equal; shows the diff otherwise.
test_cmp() {
	diff -u "$1" "$2" | sed 's/^/# /'
	cmp -s "$1" "$2"
}

# test_must_fail [STATUS] CMD...: CMD fails (with STATUS if given);
# death by a signal is never a pass.
test_must_fail() {
	_want=
	case $1 in [0-9]*) _want=$1; shift ;; esac
	"$@"
	_st=$?
	if [ $_st -eq 0 ]; then
		echo "# unexpected success: $*"
		return 1
	fi
	if [ $_st -gt 128 ]; then
		echo "# died by signal $((_st - 128)): $*"
		return 1
	fi
	if [ $_st -eq "$DS_SANITIZER_STATUS" ]; then
		echo "# sanitizer error (exit $_st): $*"
		return 1
	fi
	if [ -n "$_want" ] && [ $_st -ne "$_want" ]; then
		echo "# exit $_st, want $_want: $*"
		return 1
	fi
	return 0
}

# fields_ok FILE: every line of a TSV file has as many fields as the
# first, and there is at least one line (an empty file proves nothing).
fields_ok() {
	if [ ! -s "$1" ]; then
		echo "# $1: empty"
		return 1
	fi
	awk -F'\t' 'NR == 1 { n = NF } NF != n { bad = 1; print "# line " NR ": " NF " fields, want " n } END { exit bad }' "$1"
}

# json_ok FILE: every line is one valid JSON object, the file is UTF-8,
# and there is at least one line.
# Each line is parsed on its own: "jq -e" alone would judge only the
# last value, and would take "{}{}" or an object spread over lines.
json_ok() {
	if ! have_prog jq; then
		_why="needs jq"
		return 77
	fi
	jq -R 'fromjson | if type == "object" then "ok" else "not an object: \(.)" end' \
	    "$1" >"$TRASH/.json_ok" 2>&1
	_jn=$(awk 'END { print NR }' "$1")
	_jt=$(grep -c '^"ok"$' "$TRASH/.json_ok")
	grep -v '^"ok"$' "$TRASH/.json_ok" | head -5 | sed 's/^/# /'
	# jq quietly mends invalid UTF-8; JSON text must not hold any.
	if ! iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1; then
		echo "# $1: invalid UTF-8"
		return 1
	fi
	[ "$_jn" -gt 0 ] && [ "$_jn" -eq "$_jt" ]
}

# traces_until_signal TOOL: TOOL without an interval traces until
# SIGINT or SIGTERM (dlat), so the checks made of one report of every
# tool leave it to its own tests (t/6001-dlat-cli.t runs its formats,
# -w, >/dev/full and | head -1 with an end in sight).
traces_until_signal() {
	[ "$1" = dlat ]
}

# need_root / need_prog NAME...: skip the whole script when missing
# (need_cmd is the older name of need_prog).  The optional programs
# come from the test-only packages t/deps installs.
need_root() {
	[ "$(id -u)" -eq 0 ] || skip_all "needs root"
}
need_prog() {
	for _c; do
		command -v "$_c" >/dev/null 2>&1 || skip_all "needs $_c"
	done
}
need_cmd() {
	need_prog "$@"
}

# have_prog NAME...: every one of them is on PATH.
have_prog() {
	for _c; do
		command -v "$_c" >/dev/null 2>&1 || return 1
	done
}

# lacks "NAME..." DESCRIPTION: when a program is missing, print one skip
# for DESCRIPTION and succeed, so that "lacks jq D || is ... D" runs the
# check only where it can be made.
lacks() {
	_l=
	for _c in $1; do
		command -v "$_c" >/dev/null 2>&1 || _l="$_l $_c"
	done
	[ -n "$_l" ] || return 1
	skip "$2" "needs$_l"
}

# need_feature TEST REASON: skip the script unless the shell test TEST
# (a string for eval) holds: a kernel file, a sysctl, a mount.
need_feature() {
	eval "$1" >/dev/null 2>&1 || skip_all "$2"
}

# need_loop: a loop device can be made here.
need_loop() {
	need_root
	need_cmd losetup
	[ -e /dev/loop-control ] || skip_all "no /dev/loop-control"
}

# mkloop SIZE_MB: make a loop device over a file in $TRASH and print its
# name (loopN).  It is detached when the script ends, even when mkloop ran
# in a command substitution: devices are recorded in a file, not a variable.
mkloop() {
	_img=$(mktemp "$TRASH/loop.XXXXXX") || return 1
	truncate -s "${1}M" "$_img" || return 1
	_dev=$(losetup -f --show "$_img") || return 1
	echo "$_dev" >>"$TRASH/.loops"
	_loop_defaults "${_dev#/dev/}"
	echo "${_dev#/dev/}"
}

# _loop_defaults loopN: a loop device keeps its queue settings across
# detach and attach, so the one losetup hands out may carry another
# test's (nr_requests 4 from the lab): put back a fresh device's values.
_loop_defaults() {
	_q=/sys/block/$1/queue
	_depth=$(cat /sys/module/loop/parameters/hw_queue_depth 2>/dev/null) || _depth=128
	echo none >"$_q/scheduler" 2>/dev/null
	echo "$_depth" >"$_q/nr_requests" 2>/dev/null
	echo 0 >"$_q/nomerges" 2>/dev/null
	echo 128 >"$_q/read_ahead_kb" 2>/dev/null
	return 0
}

# reap PID...: kill each and wait until it is gone (5 s at most each), so
# that what it held (a mount, a file) can be released after it.
reap() {
	kill "$@" 2>/dev/null
	for _p in "$@"; do
		_i=0
		while kill -0 "$_p" 2>/dev/null && [ $_i -lt 50 ]; do
			sleep 0.1
			_i=$((_i + 1))
		done
	done
}

# wait_for FILE: until it is not empty (10 s at most); false if it stays
# empty.
wait_for() {
	_i=0
	while [ ! -s "$1" ] && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ -s "$1" ]
}

# Detach what mkloop attached; runs before the user's at_exit commands
# are done, so unmount with at_exit first (at_exit runs in reverse order).
_detach_loops() {
	[ -f "$TRASH/.loops" ] || return 0
	while read -r _d; do
		losetup -d "$_d" 2>/dev/null
	done <"$TRASH/.loops"
}
